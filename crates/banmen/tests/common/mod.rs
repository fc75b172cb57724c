//! Helpers shared by the integration tests.

// Each test uses some of them.
#![allow(dead_code)]

use banmen_formats::{read, EndReason, Format, GameResult, Record};
use banmen_rules::testing::XorShift as Rng;
use banmen_rules::Color;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A random standard shogi game made with the rules crate: every fifth from a
/// handicap, 10 to 200 plies, half of the moves drawn from the captures,
/// promotions, declined promotions and drops so that the notation's special
/// cases come up.
pub fn random_game(seed: u64) -> String {
    use banmen_rules::{rules_9x9, Move, Position, SfenMode, Variant, VariantName};
    let rules = rules_9x9(VariantName::Shogi).expect("shogi");
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let variant = Variant::standard();
    let start = if seed % 5 == 4 {
        let h = &variant.handicaps[rng.below(variant.handicaps.len())];
        format!("sfen {}", h.sfen)
    } else {
        "startpos".to_string()
    };
    let sfen = start.strip_prefix("sfen ").unwrap_or(&start);
    let mut pos = Position::from_sfen(rules, sfen, SfenMode::Strict).expect("start");
    let mut moves = Vec::new();
    for _ in 0..10 + rng.below(191) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let special: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                m.is_drop()
                    || pos.piece_at(m.to()).is_some()
                    || m.is_promotion()
                    || m.from().is_some_and(|f| {
                        legal.contains(&Move::board(f, m.to(), true)) && !m.is_promotion()
                    })
            })
            .collect();
        let m = if !special.is_empty() && rng.below(2) == 0 {
            special[rng.below(special.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        moves.push(pos.move_to_usi(m));
        pos.make_move(m);
    }
    if moves.is_empty() {
        format!("position {start}")
    } else {
        format!("position {start} moves {}", moves.join(" "))
    }
}

/// The side to move after `plies` from the record's start.
pub fn to_move(rec: &Record, plies: usize) -> Color {
    let first = if rec.start.split_whitespace().nth(1) == Some("w") {
        Color::White
    } else {
        Color::Black
    };
    if plies % 2 == 0 {
        first
    } else {
        !first
    }
}

/// Eight random games (`random_game`) as records with the players named;
/// where `keep` refuses the ending the rules give (or none), a resignation,
/// an abort or a loss on time in turn.
pub fn random_records(keep: impl Fn(&Record) -> bool) -> Vec<(String, Record)> {
    let mut out = Vec::new();
    for seed in 0..8u64 {
        let line = random_game(seed);
        let mut rec = read(line.as_bytes(), Some(Format::Usi)).expect("random game");
        let loser = to_move(&rec, rec.moves.len());
        let ending = [EndReason::Resignation, EndReason::Abort, EndReason::Timeout];
        let reason = ending[seed as usize % ending.len()];
        if !keep(&rec) {
            rec.result = Some(GameResult {
                winner: (reason != EndReason::Abort).then_some(!loser),
                reason,
            });
        }
        rec.headers.black = Some("先手".into());
        rec.headers.white = Some("後手".into());
        out.push((format!("random-{seed}"), rec));
    }
    out
}

/// The records Banmen reads in the real-file corpus of the formats crate
/// (crates/formats/tests/data/corpus, listed in its SOURCES.tsv), each with
/// its row number and file name. The files Banmen refuses are left out:
/// expected.tsv and disagreements.tsv say why.
pub fn corpus_records() -> Vec<(usize, String, Record)> {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/data/corpus");
    let sources = std::fs::read_to_string(corpus.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut out = Vec::new();
    for (i, file) in sources
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .enumerate()
    {
        let Some(format) = Format::from_extension(file) else {
            continue;
        };
        let bytes = std::fs::read(corpus.join(file)).expect("corpus file");
        if let Ok(rec) = read(&bytes, Some(format)) {
            out.push((i, file.to_string(), rec));
        }
    }
    out
}

/// A new temporary folder `{prefix}-{pid}` for a cshogi peer test, or
/// `None` (after saying the test is skipped) when `python3` lacks cshogi
/// (`pip install cshogi`, as .ci/run does).
pub fn cshogi_dir(prefix: &str) -> Option<PathBuf> {
    let has_cshogi = Command::new("python3")
        .args(["-c", "import cshogi"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_cshogi {
        println!("skipped: python3 with cshogi is not available (pip install cshogi)");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("{prefix}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    Some(dir)
}

/// Runs bench/records-cshogi.py with `mode` (`--dir`, `--manifest`) on
/// `path`: its output, once it passed.
pub fn check_with_cshogi(mode: &str, path: &Path, kept: &Path) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/records-cshogi.py");
    run_peer_check(
        Command::new("python3").arg(script).arg(mode).arg(path),
        kept,
    )
}

/// Runs a peer's check: its output, once it passed (otherwise the test
/// fails with the output and says that the files are kept in `kept`).
pub fn run_peer_check(check: &mut Command, kept: &Path) -> String {
    let out = check.output().expect("run the peer check");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}\n(files kept in {})",
        String::from_utf8_lossy(&out.stderr),
        kept.display()
    );
    stdout
}
