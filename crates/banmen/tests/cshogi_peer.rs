//! cshogi (the Python shogi library, from PyPI) reads back the KIF (Shift-JIS),
//! KIFU and CSA that Banmen writes for every record it reads in the real-file
//! corpus of the formats crate (crates/formats/tests/data/corpus) and for
//! eight random games ending as the rules end them or in a resignation, an
//! abort or a loss on time: the same start, the same moves and the same
//! result, as far as cshogi expresses a result (see [`kif_result`] and
//! [`csa_result`]). cshogi reads
//! only KIF and CSA (no KI2, no JKF: tsshogi_peer.rs checks those) and only
//! a main line, so the records are written with [`Record::mainline`], as
//! `banmen convert --mainline` writes them. The reading and comparing is
//! bench/records-cshogi.py (`--manifest`); the test runs when python3 has
//! cshogi (`pip install cshogi`, as .ci/run does) and is skipped with a
//! notice otherwise.
//!
//! Where cshogi 1.1.0 reads less than a file says, by how its readers work:
//! - its KIF reader skips a board diagram (BOD, which its own KIF writer
//!   writes for a set-up start): it starts from 平手 and plays the moves on
//!   that board, so for a record whose start is a diagram only the start it
//!   reads (平手) and the number of moves are compared;
//! - its KIF reader takes the result from the `まで…` line alone, and knows
//!   only `…の勝ち`, `…の入玉勝ち`, `…の反則勝ち`, `…の反則負け`, `千日手`,
//!   `持将棋` (read as %SENNICHITE, a draw) and `中断`: a loss on time
//!   (`時間切れにより…の勝ち`, the words of Kifu for Windows and tsshogi),
//!   `不詰`, `封じ手` and `引き分け` read as no result;
//! - its CSA reader gives a winner for %TORYO, %TIME_UP, %ILLEGAL_MOVE,
//!   %±ILLEGAL_ACTION and %KACHI only: %TSUMI reads as a draw.
//!
//! Banmen writes no Shift-JIS KIF of a record whose text Shift-JIS cannot
//! encode (it says to write KIFU); such records are checked as KIFU only.

mod common;

use banmen_formats::{write, EndReason, Format, GameResult, Record};
use banmen_rules::Color;
use serde_json::{json, Value};
use std::path::Path;

/// cshogi's `BLACK_WIN`, `WHITE_WIN` and `DRAW`.
fn win(winner: Option<Color>) -> i64 {
    match winner {
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
        None => 0,
    }
}

/// What cshogi's KIF reader gives for the `まで…` line Banmen writes of
/// `result` (`to_move`: the side to move after the last move): its `win`
/// and `endgame`, null where it reads none.
fn kif_result(result: Option<GameResult>, to_move: Color) -> (Value, Value) {
    let Some(r) = result else {
        return (Value::Null, Value::Null);
    };
    let (winner, word) = match (r.winner, r.reason) {
        // `まで…手で時間切れにより先手の勝ち`: not a pattern cshogi knows.
        (Some(_), EndReason::Timeout) => return (Value::Null, Value::Null),
        // `…の反則勝ち` (the side to move wins) reads as the loser's
        // ILLEGAL_ACTION; `…の反則負け` as %ILLEGAL_MOVE.
        (Some(w), EndReason::IllegalMove | EndReason::PerpetualCheck) if w == to_move => (
            w,
            match w {
                Color::Black => "%+ILLEGAL_ACTION",
                Color::White => "%-ILLEGAL_ACTION",
            },
        ),
        (Some(w), EndReason::IllegalMove | EndReason::PerpetualCheck) => (w, "%ILLEGAL_MOVE"),
        (Some(w), EndReason::Declaration) => (w, "%KACHI"),
        // Resignation, checkmate and the rest: `…の勝ち`.
        (Some(w), _) => (w, "%TORYO"),
        (None, EndReason::Repetition | EndReason::PerpetualCheck | EndReason::Impasse) => {
            return (json!(0), json!("%SENNICHITE"))
        }
        (None, EndReason::Abort) => return (Value::Null, json!("%CHUDAN")),
        // 不詰, 封じ手, 引き分け, or no line.
        (None, _) => return (Value::Null, Value::Null),
    };
    (json!(win(Some(winner))), json!(word))
}

/// What cshogi's CSA reader gives for the `%` line Banmen writes of
/// `result`: its `win` (DRAW where it names no winner) and `endgame` (""
/// for none). The words are the CSA standard's (V2.2/V3.0).
fn csa_result(result: Option<GameResult>, to_move: Color) -> (Value, Value) {
    let Some(r) = result else {
        return (json!(0), json!(""));
    };
    let mover_loses = r.winner == Some(!to_move);
    let mover_wins = r.winner == Some(to_move);
    // cshogi names the winner of these only.
    let named = |word: &str| (json!(win(r.winner)), json!(word));
    let draw = |word: &str| (json!(0), json!(word));
    match r.reason {
        EndReason::Resignation if mover_loses => named("%TORYO"),
        EndReason::Timeout if mover_loses => named("%TIME_UP"),
        EndReason::Declaration if mover_wins => named("%KACHI"),
        // Black's foul: %+ILLEGAL_ACTION, a win of White.
        EndReason::IllegalMove if r.winner == Some(Color::White) => named("%+ILLEGAL_ACTION"),
        EndReason::IllegalMove if r.winner == Some(Color::Black) => named("%-ILLEGAL_ACTION"),
        EndReason::Checkmate if mover_loses => draw("%TSUMI"),
        EndReason::Repetition | EndReason::PerpetualCheck => draw("%SENNICHITE"),
        EndReason::Impasse if r.winner.is_none() => draw("%JISHOGI"),
        EndReason::Abort | EndReason::Sealed => draw("%CHUDAN"),
        EndReason::Draw => draw("%HIKIWAKE"),
        EndReason::MaxMoves if r.winner.is_none() => draw("%MAX_MOVES"),
        EndReason::NoMate => draw("%FUZUMI"),
        EndReason::Matta => draw("%MATTA"),
        EndReason::Error => draw("%ERROR"),
        // No CSA word (no legal move, a try …): no `%` line.
        _ => draw(""),
    }
}

/// What the check is told of a file Banmen wrote: where it is and what
/// cshogi must read there.
struct Written {
    /// Records whose KIF start is a board diagram.
    diagrams: usize,
    /// Records Banmen writes no Shift-JIS KIF of.
    kif_refused: Vec<String>,
    files: Vec<Value>,
}

impl Written {
    /// Writes `rec` (main line only) as KIF, KIFU and CSA into `dir` as
    /// `name.kif` …, with what cshogi must read in each; `source` names the
    /// record in the script's messages.
    fn add(&mut self, dir: &Path, name: &str, source: &str, rec: &Record) {
        let rec = rec.mainline();
        let to_move = common::to_move(&rec, rec.moves.len());
        let start = rec
            .start
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        for (format, ext) in [
            (Format::Kif, "kif"),
            (Format::Kifu, "kifu"),
            (Format::Csa, "csa"),
        ] {
            let bytes = match write(&rec, format) {
                Ok(b) => b,
                Err(e) if format == Format::Kif && e.contains("Shift-JIS") => {
                    self.kif_refused.push(source.to_string());
                    continue;
                }
                Err(e) => panic!("{name} {format}: {e}"),
            };
            let path = dir.join(format!("{name}.{ext}"));
            std::fs::write(&path, &bytes).expect("write record");
            let (win, endgame) = if format == Format::Csa {
                csa_result(rec.result, to_move)
            } else {
                kif_result(rec.result, to_move)
            };
            // Banmen's KIF writes a start that is neither 平手 nor a
            // handicap cshogi knows as a board diagram.
            let diagram = format != Format::Csa
                && String::from_utf8_lossy(&bytes).contains("+---------------------------+");
            if diagram && format == Format::Kifu {
                self.diagrams += 1;
            }
            let start = if diagram {
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
            } else {
                &start
            };
            self.files.push(json!({
                "path": path,
                "source": source,
                "start": start,
                "moves": rec.moves,
                "diagram": diagram,
                "win": win,
                "endgame": endgame,
            }));
        }
    }
}

#[test]
fn cshogi_reads_back_our_kif_and_csa_of_the_real_file_corpus_and_random_games() {
    let Some(dir) = common::cshogi_dir("banmen-cshogi-corpus") else {
        return;
    };
    let started = std::time::Instant::now();
    let mut written = Written {
        diagrams: 0,
        kif_refused: Vec::new(),
        files: Vec::new(),
    };
    let corpus = common::corpus_records();
    for (i, file, rec) in &corpus {
        written.add(&dir, &format!("corpus-{i}"), file, rec);
    }
    let random = common::random_records(|rec| rec.result.is_some());
    for (name, rec) in &random {
        written.add(&dir, name, name, rec);
    }
    let manifest = dir.join("manifest.json");
    let text = serde_json::to_string_pretty(&json!({ "files": written.files })).expect("json");
    std::fs::write(&manifest, text).expect("write manifest");
    let stdout = common::check_with_cshogi("--manifest", &manifest, &dir);
    println!(
        "{} corpus records and {} random games; {} start from a board diagram \
         in KIF (cshogi starts from 平手: the number of moves compared); no \
         Shift-JIS KIF of {:?} (KIFU only)\n{stdout}(written and checked in {:.1} s)",
        corpus.len(),
        random.len(),
        written.diagrams,
        written.kif_refused,
        started.elapsed().as_secs_f64()
    );
    assert!(corpus.len() >= 290, "{} records", corpus.len());
    // Characters Shift-JIS lacks: U+FFFD for the bytes of an EUC-JP comment,
    // and 雞 (森雞二, JIS X 0213).
    assert_eq!(
        written.kif_refused,
        [
            "json-kifu-format/test/files/csa/2005_YAMADA_GPS.csa",
            "json-kifu-format/test/files/kif/no_henka.kifu"
        ]
    );
    let n = written.files.len();
    assert!(stdout.contains(&format!("{n} agree")), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}
