//! The real-file corpus (issue 14): every record file under
//! tests/data/corpus (KIF, KIFU, KI2, CSA and JKF from other shogi projects'
//! test data and program exports; SOURCES.tsv names each file's repository,
//! path, commit and licence) is read by Banmen and compared with what
//! tsshogi 2.2.0 reads in it (expected.tsv, written by
//! tests/peers/corpus-expectations.mjs): the number of main-line moves, the
//! start, how the main line ends, and its first and last moves. A file
//! tsshogi refuses must be refused by Banmen too, with a line and a reason.
//! Where Banmen and tsshogi differ and Banmen follows the standard,
//! disagreements.tsv gives Banmen's value and the reason; the test holds
//! Banmen to that value instead. The counts are in corpus/README.md.

use banmen_formats::{read, EndReason, Format, Record};
use banmen_rules::Color;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus")
}

/// The rows of a TSV file after its heading, split into cells.
fn tsv(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(corpus_dir().join(name)).expect(name);
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The reader for a file, by its extension (as ShogiHome chooses it).
fn format_of(file: &str) -> Format {
    let ext = file.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "kif" => Format::Kif,
        "kifu" => Format::Kifu,
        "ki2" | "ki2u" => Format::Ki2,
        "csa" => Format::Csa,
        "jkf" => Format::Jkf,
        _ => panic!("{file}: no record extension"),
    }
}

/// The side to move after the main line.
fn to_move_at_end(rec: &Record) -> Color {
    let first = if rec.start.split_whitespace().nth(1) == Some("w") {
        Color::White
    } else {
        Color::Black
    };
    if rec.moves.len() % 2 == 0 {
        first
    } else {
        !first
    }
}

/// How the main line ends, in tsshogi's words (`SpecialMoveType`).
fn result_word(rec: &Record) -> String {
    let Some(r) = rec.result else {
        return String::new();
    };
    let mover = to_move_at_end(rec);
    let foul = || {
        if r.winner == Some(mover) {
            "foulWin"
        } else {
            "foulLose"
        }
    };
    match r.reason {
        EndReason::Resignation => "resign",
        EndReason::Checkmate | EndReason::NoLegalMoves => "mate",
        EndReason::Abort => "interrupt",
        EndReason::Timeout => "timeout",
        EndReason::Repetition => "repetitionDraw",
        EndReason::PerpetualCheck | EndReason::IllegalMove => foul(),
        EndReason::Declaration => "enteringOfKing",
        EndReason::Impasse => "impass",
        EndReason::Try => "try",
        EndReason::MaxMoves => "maxMoves",
        EndReason::Draw => "draw",
        EndReason::NoMate => "noMate",
        EndReason::Sealed => "any:封じ手",
        EndReason::KingCaptured => "kingCaptured",
        EndReason::PerpetualChase => "perpetualChase",
        EndReason::Matta => "matta",
        EndReason::Error => "error",
    }
    .to_string()
}

/// What Banmen reads in a file, in expected.tsv's columns (status, moves,
/// start, result, first, last) or its refusal.
fn banmen_reading(file: &str) -> Result<BTreeMap<&'static str, String>, String> {
    let bytes = std::fs::read(corpus_dir().join(file)).expect(file);
    let rec = read(&bytes, Some(format_of(file))).map_err(|e| {
        assert!(e.line > 0, "{file}: a refusal without its line: {e}");
        assert!(!e.message.is_empty(), "{file}: a refusal without a reason");
        e.to_string()
    })?;
    let start = rec.start.split_whitespace().take(3).collect::<Vec<_>>();
    Ok(BTreeMap::from([
        ("moves", rec.moves.len().to_string()),
        ("start", start.join(" ")),
        ("result", result_word(&rec)),
        ("first", rec.moves.first().cloned().unwrap_or_default()),
        ("last", rec.moves.last().cloned().unwrap_or_default()),
    ]))
}

const FIELDS: [&str; 5] = ["moves", "start", "result", "first", "last"];

#[test]
fn every_corpus_file_reads_as_tsshogi_reads_it_or_as_recorded() {
    let sources = tsv("SOURCES.tsv");
    let expected = tsv("expected.tsv");
    assert!(expected.len() >= 300, "{} files", expected.len());
    assert_eq!(
        sources.len(),
        expected.len(),
        "SOURCES.tsv and expected.tsv"
    );
    // (file, field) -> Banmen's value, where it knowingly differs.
    let mut known: BTreeMap<(String, String), String> = BTreeMap::new();
    for row in tsv("disagreements.tsv") {
        assert!(row.len() >= 4, "disagreements.tsv: {row:?}");
        let old = known.insert((row[0].clone(), row[1].clone()), row[2].clone());
        assert!(
            old.is_none(),
            "disagreements.tsv: {} {} twice",
            row[0],
            row[1]
        );
    }
    let mut used = 0;
    let (mut read_ok, mut refused_ok, mut disagreeing) = (0, 0, 0);
    let mut failures = Vec::new();
    for row in &expected {
        let file = &row[0];
        let want: BTreeMap<&str, &str> = FIELDS
            .iter()
            .zip(&row[2..7])
            .map(|(k, v)| (*k, v.as_str()))
            .collect();
        let knows = |field: &str| known.get(&(file.clone(), field.to_string()));
        match (row[1].as_str(), banmen_reading(file)) {
            ("refused", Err(why)) => {
                refused_ok += 1;
                if let Some(reason) = knows("refused") {
                    used += 1;
                    if !why.contains(reason.as_str()) {
                        failures.push(format!("{file}: refused with '{why}', expected '{reason}'"));
                    }
                } else {
                    failures.push(format!(
                        "{file}: refused by both ('{why}'; tsshogi: {}); list it in disagreements.tsv with field 'refused'",
                        row[7]
                    ));
                }
            }
            ("refused", Ok(got)) => match knows("read") {
                Some(moves) if *moves == got["moves"] => {
                    used += 1;
                    disagreeing += 1;
                }
                _ => failures.push(format!(
                    "{file}: tsshogi refuses it ({}), Banmen reads {} moves",
                    row[7], got["moves"]
                )),
            },
            (_, Err(why)) => match knows("refused") {
                Some(reason) if why.contains(reason.as_str()) => {
                    used += 1;
                    disagreeing += 1;
                }
                _ => failures.push(format!("{file}: Banmen refuses it: {why}")),
            },
            (_, Ok(got)) => {
                let mut differs = false;
                for field in FIELDS {
                    let theirs = want[field];
                    let ours = got[field].as_str();
                    match knows(field) {
                        Some(value) => {
                            used += 1;
                            differs = true;
                            if value != ours {
                                failures.push(format!("{file}: {field} is '{ours}', disagreements.tsv says '{value}' (tsshogi: '{theirs}')"));
                            }
                        }
                        None if theirs != ours => {
                            failures.push(format!(
                                "{file}: {field} is '{ours}', tsshogi reads '{theirs}'"
                            ));
                        }
                        None => {}
                    }
                }
                if differs {
                    disagreeing += 1;
                } else {
                    read_ok += 1;
                }
            }
        }
    }
    assert_eq!(
        used,
        known.len(),
        "disagreements.tsv has rows that no file uses"
    );
    println!(
        "corpus: {} files: {read_ok} read as tsshogi reads them, {refused_ok} refused as tsshogi refuses them, {disagreeing} disagreements (disagreements.tsv)",
        expected.len()
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The projects' own tests, where they count a file's main-line moves
/// (own-expectations.tsv, written by tests/peers/corpus-own-expectations.py
/// from json-kifu-format's snapshots and mog-core-scala's assertions):
/// Banmen reads the same number, except for the files disagreements.tsv
/// says it refuses (with the reason there).
#[test]
fn corpus_files_have_the_move_counts_their_own_projects_expect() {
    let refused: Vec<String> = tsv("disagreements.tsv")
        .into_iter()
        .filter(|row| row[1] == "refused")
        .map(|row| row[0].clone())
        .collect();
    let own = tsv("own-expectations.tsv");
    assert!(own.len() >= 70, "{} rows", own.len());
    let (mut agree, mut skipped) = (0, 0);
    let mut failures = Vec::new();
    for row in &own {
        let (file, moves) = (&row[0], &row[1]);
        match banmen_reading(file) {
            Ok(got) if got["moves"] == *moves => agree += 1,
            Ok(got) => failures.push(format!(
                "{file}: {} moves, {} expects {moves}",
                got["moves"], row[2]
            )),
            Err(_) if refused.contains(file) => skipped += 1,
            Err(why) => failures.push(format!(
                "{file}: refused ({why}), {} expects {moves} moves",
                row[2]
            )),
        }
    }
    println!("own expectations: {agree} files agree, {skipped} refused (disagreements.tsv)");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
