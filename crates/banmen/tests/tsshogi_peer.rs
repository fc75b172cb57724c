//! tsshogi (the record library of ShogiHome, from npm) reads back the KIF,
//! KIFU, KI2, CSA and JKF that Banmen writes for random games and a game with
//! nested variations: the same start, the same moves on every line of the
//! tree, the same ending. tsshogi also reads seven real files with variations
//! and finds the tree Banmen reads, and writes every record it read as KIF,
//! KI2, CSA and JKF, which Banmen reads back with the same tree and result.
//! The check is tests/peers/tsshogi-check.mjs; it runs
//! when `node` and tests/peers/node_modules are there (`cd tests/peers &&
//! npm ci`, as .ci/run does) and is skipped with a notice otherwise.

mod common;

use banmen_formats::{read, write, EndReason, Format, GameResult, Record, Variation};
use banmen_rules::Color;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn peers_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers")
}

/// tsshogi's `SpecialMoveType` for how a line ends, as it reads `format`
/// (`None`: the writer writes no ending for it).
fn special(result: Option<GameResult>, to_move: Color, format: Format) -> Option<&'static str> {
    let r = result?;
    Some(match r.reason {
        EndReason::Resignation => "resign",
        // KI2 has only the `まで…の勝ち` line, which tsshogi reads as 投了.
        EndReason::Checkmate if format == Format::Ki2 => "resign",
        EndReason::Checkmate => "mate",
        EndReason::Abort => "interrupt",
        EndReason::Timeout => "timeout",
        EndReason::Repetition => "repetitionDraw",
        // KIF and KI2 write the checking side's foul; CSA and JKF 千日手.
        EndReason::PerpetualCheck if matches!(format, Format::Csa | Format::Jkf) => {
            "repetitionDraw"
        }
        EndReason::PerpetualCheck if r.winner == Some(to_move) => "foulWin",
        EndReason::PerpetualCheck => "foulLose",
        EndReason::Impasse => "impass",
        EndReason::Declaration => "enteringOfKing",
        EndReason::NoMate => "noMate",
        // KIF's 封じ手 is a word tsshogi keeps as it is; CSA and JKF write
        // %CHUDAN.
        EndReason::Sealed if matches!(format, Format::Csa | Format::Jkf) => "interrupt",
        EndReason::Sealed => "any:封じ手",
        // No legal move (a loss): KI2's `まで…の勝ち`, which tsshogi reads as
        // 投了; KIF, CSA and JKF have no word for it.
        EndReason::NoLegalMoves if format == Format::Ki2 => "resign",
        // tsshogi 2.2.0 reads CSA's %+ILLEGAL_ACTION as a win for the side
        // to move when Black is to move (and %-… when White is), the
        // reverse of the CSA standard (V2.2: `%+ILLEGAL_ACTION` 先手の反則行為
        // により後手の勝ち), which Banmen writes; JKF shares CSA's words.
        EndReason::IllegalMove
            if matches!(format, Format::Csa | Format::Jkf) && r.winner == Some(to_move) =>
        {
            "foulLose"
        }
        EndReason::IllegalMove if matches!(format, Format::Csa | Format::Jkf) => "foulWin",
        EndReason::IllegalMove if r.winner == Some(to_move) => "foulWin",
        EndReason::IllegalMove => "foulLose",
        _ => return None,
    })
}

/// Every root-to-leaf line the file holds: "moves|special".
fn expected_lines(rec: &Record, format: Format) -> Vec<String> {
    fn line(rec: &Record, moves: &[String], result: Option<GameResult>, f: Format) -> String {
        let end = special(result, common::to_move(rec, moves.len()), f).unwrap_or("");
        format!("{}|{end}", moves.join(" "))
    }
    fn variation(rec: &Record, parent: &[String], v: &Variation, f: Format, out: &mut Vec<String>) {
        let mut full = parent[..v.ply - 1].to_vec();
        full.extend(v.moves.iter().cloned());
        out.push(line(rec, &full, v.result, f));
        for w in &v.variations {
            variation(rec, &full, w, f, out);
        }
    }
    let mut out = vec![line(rec, &rec.moves, rec.result, format)];
    if format.holds_variations() {
        for v in &rec.variations {
            variation(rec, &rec.moves, v, format, &mut out);
        }
    }
    out.sort();
    out
}

/// Eight random games with a resignation, an abort or a loss on time (or the
/// result the rules give), and the nested variations of the formats crate
/// with one more, played instead of resigning.
fn games() -> Vec<(String, Record)> {
    let mut out = common::random_records(|rec| {
        special(
            rec.result,
            common::to_move(rec, rec.moves.len()),
            Format::Kif,
        )
        .is_some()
    });
    let nested = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../formats/tests/data/nested-variations.kifu");
    let bytes = std::fs::read(&nested).expect("nested-variations.kifu");
    let mut rec = read(&bytes, Some(Format::Kifu)).expect("nested variations");
    assert!(!rec.variations.is_empty());
    // And a variation played instead of resigning.
    rec.variations.push(Variation {
        ply: rec.moves.len() + 1,
        moves: vec!["7i6h".into(), "4a3b".into()],
        ..Variation::default()
    });
    out.push(("nested".into(), rec));
    out
}

fn node_ready(dir: &Path) -> bool {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    node && dir.join("node_modules/tsshogi/package.json").exists()
}

/// What the check script is told of a file: where it is, how tsshogi reads
/// it, and what Banmen wrote or read there.
fn expectation(path: &Path, reader: &str, encoding: &str, rec: &Record, format: Format) -> Value {
    json!({
        "path": path,
        "format": reader,
        "encoding": encoding,
        "start": rec.start.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        "lines": expected_lines(rec, format),
        "main": rec.moves.join(" "),
        "result": format!("{:?}", rec.result),
    })
}

/// Writes every game in every format into `dir`.
fn write_ours(dir: &Path) -> Vec<Value> {
    let mut files = Vec::new();
    for (name, rec) in games() {
        for (format, ext, encoding) in [
            (Format::Kif, "kif", "shift_jis"),
            (Format::Kifu, "kifu", "utf-8"),
            (Format::Ki2, "ki2", "utf-8"),
            (Format::Csa, "csa", "utf-8"),
            (Format::Jkf, "jkf", "utf-8"),
        ] {
            let path = dir.join(format!("{name}.{ext}"));
            let bytes = write(&rec, format).unwrap_or_else(|e| panic!("{name} {format}: {e}"));
            std::fs::write(&path, bytes).expect("write record");
            // tsshogi reads KIFU with its KIF reader.
            let reader = if ext == "kifu" { "kif" } else { ext };
            files.push(expectation(&path, reader, encoding, &rec, format));
        }
    }
    files
}

/// The files with variations from Kifu for Windows and json-kifu-format, as
/// Banmen reads them: tsshogi must read the same tree from the original.
fn originals() -> Vec<Value> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/data/variations");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("variations dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        let name = path.to_string_lossy().into_owned();
        let format = Format::from_extension(&name).expect("extension");
        let bytes = std::fs::read(&path).expect("read");
        let rec = read(&bytes, Some(format)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let reader = if format == Format::Ki2 { "ki2" } else { "kif" };
        let encoding = if std::str::from_utf8(&bytes).is_ok() {
            "utf-8"
        } else {
            "shift_jis"
        };
        let mut file = expectation(&path, reader, encoding, &rec, format);
        file["movesOnly"] = json!(true);
        files.push(file);
    }
    files
}

/// The moves of each line, without how it ends.
fn moves_only(lines: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = lines
        .into_iter()
        .map(|l| l.split('|').next().unwrap_or("").to_string())
        .collect();
    out.sort();
    out
}

/// Reads what tsshogi wrote of each file (`exported/N.kif` …) and checks it
/// holds the same tree (CSA: the main line) and result; returns how many.
fn read_theirs(files: &[Value], exported: &Path) -> usize {
    let mut count = 0;
    for (i, file) in files.iter().enumerate() {
        let lines = file["lines"].as_array().expect("lines");
        let want = moves_only(lines.iter().map(|l| l.as_str().expect("line").to_string()));
        for (format, ext) in [
            (Format::Kifu, "kif"),
            (Format::Ki2, "ki2"),
            (Format::Csa, "csa"),
            (Format::Jkf, "jkf"),
        ] {
            let path = exported.join(format!("{i}.{ext}"));
            let bytes = std::fs::read(&path).expect("tsshogi's file");
            let shown = || format!("{}\n{}", path.display(), String::from_utf8_lossy(&bytes));
            let rec = read(&bytes, Some(format)).unwrap_or_else(|e| panic!("{e}: {}", shown()));
            if format == Format::Csa {
                assert_eq!(rec.moves.join(" "), file["main"], "{}", shown());
            } else {
                assert_eq!(
                    moves_only(expected_lines(&rec, format)),
                    want,
                    "{}",
                    shown()
                );
            }
            assert_eq!(format!("{:?}", rec.result), file["result"], "{}", shown());
            count += 1;
        }
    }
    count
}

#[test]
fn tsshogi_reads_back_our_kif_kifu_ki2_csa_and_jkf() {
    let peers = peers_dir();
    if !node_ready(&peers) {
        println!("skipped: node or tests/peers/node_modules is missing (cd tests/peers && npm ci)");
        return;
    }
    let started = std::time::Instant::now();
    let dir = std::env::temp_dir().join(format!("banmen-tsshogi-{}", std::process::id()));
    let exported = dir.join("tsshogi");
    std::fs::create_dir_all(&exported).expect("temp dir");
    let mut files = write_ours(&dir);
    files.extend(originals());
    let stdout = check_with_tsshogi(
        &peers,
        &dir,
        json!({ "files": files, "exportDir": exported }),
    );
    println!("{stdout}");
    assert!(stdout.contains("read 52 files"), "{stdout}");
    // The other way: what tsshogi wrote of each record, Banmen reads.
    let count = read_theirs(&files, &exported);
    println!(
        "Banmen read back the {count} files tsshogi wrote ({:.1} s in all)",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(count, 208);
    std::fs::remove_dir_all(&dir).ok();
}

/// The real-file corpus of the formats crate (crates/formats/tests/data/corpus):
/// every record Banmen reads there, written as KIF (Shift-JIS), KI2, CSA and
/// JKF, tsshogi reads back with the same start, tree (CSA: main line) and
/// ending.
#[test]
fn tsshogi_reads_back_what_banmen_writes_of_the_real_file_corpus() {
    let peers = peers_dir();
    if !node_ready(&peers) {
        println!("skipped: node or tests/peers/node_modules is missing (cd tests/peers && npm ci)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("banmen-tsshogi-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut files = Vec::new();
    let mut records = 0;
    for (i, file, rec) in common::corpus_records() {
        records += 1;
        // KIFU rather than Shift-JIS KIF: some files' comments hold
        // characters Shift-JIS lacks (GPS Shogi's EUC-JP records).
        for (format, ext, reader) in [
            (Format::Kifu, "kifu", "kif"),
            (Format::Ki2, "ki2", "ki2"),
            (Format::Csa, "csa", "csa"),
            (Format::Jkf, "jkf", "jkf"),
        ] {
            let path = dir.join(format!("{i}.{ext}"));
            let out = write(&rec, format).unwrap_or_else(|e| panic!("{file} {format}: {e}"));
            std::fs::write(&path, out).expect("write record");
            files.push(expectation(&path, reader, "utf-8", &rec, format));
        }
    }
    let stdout = check_with_tsshogi(&peers, &dir, json!({ "files": files }));
    println!("{records} corpus records; {stdout}");
    assert!(records >= 290, "{records} records");
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes `manifest` (the files and what each must read as) into `dir` and
/// has tests/peers/tsshogi-check.mjs check it; its output, once it passed.
fn check_with_tsshogi(peers: &Path, dir: &Path, manifest: Value) -> String {
    let expectations = dir.join("expectations.json");
    let text = serde_json::to_string_pretty(&manifest).expect("json");
    std::fs::write(&expectations, text).expect("write expectations");
    common::run_peer_check(
        Command::new("node")
            .arg(peers.join("tsshogi-check.mjs"))
            .arg(&expectations)
            .current_dir(peers),
        dir,
    )
}
