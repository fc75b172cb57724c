//! The parsers against corpora of bad input: every line of
//! `tests/data/bad-sfen.txt` and `tests/data/bad-usi.txt` must be refused with
//! an error (never a panic) whose text is not empty, and a handful must be
//! refused for a stated reason.
//!
//! The corpora hold one input per line, exactly as written: no comments, an
//! empty line is the empty input, spaces and tabs are kept. Inputs with a NUL
//! byte are listed in this file instead, so that the corpora stay text.

use banmen_rules::{
    rules_9x9, Bb128, Color, IllegalMove, MoveError, Position, SfenError, SfenMode, SfenProblem,
    UsiMove, VariantName,
};
use std::panic::catch_unwind;
use std::path::{Path, PathBuf};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const KINGS: &str = "4k4/9/9/9/9/9/9/9/4K4";

/// Bad inputs with bytes that would make the corpus files binary.
const EXTRA_BAD_SFEN: &[&str] = &[
    "\0",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\0b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\0",
    "lnsgkgsnl/1r5b1/ppppppppp/9/4\x7f4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
];
const EXTRA_BAD_USI: &[&str] = &["\0", "7g7f\0", "P*5e\0", "\x1b[A"];

fn data_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// The lines of a corpus file, each one input.
fn corpus(name: &str) -> Vec<String> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect::<Vec<_>>()
        .split_last()
        .map(|(last, rest)| {
            assert!(last.is_empty(), "{name} must end with a newline");
            rest.to_vec()
        })
        .unwrap_or_default()
}

fn rules() -> &'static banmen_rules::Rules<Bb128> {
    rules_9x9(VariantName::Shogi).expect("standard shogi")
}

fn sfen(text: &str, mode: SfenMode) -> Result<Position<Bb128>, SfenError> {
    Position::from_sfen(rules(), text, mode)
}

fn problems(text: &str) -> Vec<SfenProblem> {
    match sfen(text, SfenMode::Strict) {
        Ok(pos) => panic!("{text:?} was accepted as {}", pos.to_sfen()),
        Err(e) => e.problems,
    }
}

fn start() -> Position<Bb128> {
    sfen("startpos", SfenMode::Strict).expect("startpos")
}

#[test]
fn corpus_files_are_found_from_the_manifest_dir() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(manifest.is_absolute(), "{}", manifest.display());
    assert!(manifest.join("Cargo.toml").is_file());
    for (name, at_least) in [("bad-sfen.txt", 100), ("bad-usi.txt", 50)] {
        let path = data_path(name);
        assert!(path.is_absolute() && path.starts_with(manifest));
        assert!(path.is_file(), "{} is missing", path.display());
        let lines = corpus(name);
        assert!(
            lines.len() >= at_least,
            "{name} has {} lines, expected at least {at_least}",
            lines.len()
        );
        // The empty input and a whitespace-only input are in every corpus.
        assert!(lines.iter().any(String::is_empty), "{name}: no empty line");
        assert!(
            lines.iter().any(|l| !l.is_empty() && l.trim().is_empty()),
            "{name}: no whitespace-only line"
        );
    }
}

#[test]
fn every_bad_sfen_is_refused_in_both_modes() {
    let lines = corpus("bad-sfen.txt");
    let mut accepted = Vec::new();
    let mut panicked = Vec::new();
    for (i, line) in lines
        .iter()
        .map(String::as_str)
        .chain(EXTRA_BAD_SFEN.iter().copied())
        .enumerate()
    {
        for mode in [SfenMode::Strict, SfenMode::Tsume] {
            let outcome = match catch_unwind(|| sfen(line, mode)) {
                Ok(outcome) => outcome,
                Err(payload) => {
                    panicked.push(format!(
                        "line {}: {line:?} ({mode:?}): {}",
                        i + 1,
                        panic_text(&*payload)
                    ));
                    continue;
                }
            };
            match outcome {
                Ok(pos) => accepted.push(format!(
                    "line {}: {line:?} ({mode:?}) -> {}",
                    i + 1,
                    pos.to_sfen()
                )),
                Err(e) => {
                    assert!(!e.problems.is_empty(), "{line:?}: error without problems");
                    let shown = e.to_string();
                    assert!(!shown.trim().is_empty(), "{line:?}: empty error text");
                    for p in &e.problems {
                        assert!(!p.to_string().trim().is_empty(), "{line:?}: {p:?}");
                    }
                }
            }
        }
    }
    assert!(
        panicked.is_empty(),
        "the SFEN parser panicked on:\n{}",
        panicked.join("\n")
    );
    assert!(
        accepted.is_empty(),
        "bad SFENs accepted:\n{}",
        accepted.join("\n")
    );
}

#[test]
fn every_bad_usi_move_is_refused() {
    let lines = corpus("bad-usi.txt");
    let positions = [
        start(),
        sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            SfenMode::Strict,
        )
        .expect("midgame"),
    ];
    let mut accepted = Vec::new();
    let mut panicked = Vec::new();
    for line in lines
        .iter()
        .map(String::as_str)
        .chain(EXTRA_BAD_USI.iter().copied())
    {
        if let Err(payload) = catch_unwind(|| check_bad_usi(&positions, line, &mut Vec::new())) {
            panicked.push(format!("{line:?}: {}", panic_text(&*payload)));
            continue;
        }
        check_bad_usi(&positions, line, &mut accepted);
    }
    assert!(
        panicked.is_empty(),
        "the USI move parser panicked on:\n{}",
        panicked.join("\n")
    );
    assert!(
        accepted.is_empty(),
        "bad USI moves accepted in the start position:\n{}",
        accepted.join("\n")
    );
}

/// Checks one bad USI line; a move accepted in the start position goes to `accepted`.
fn check_bad_usi(positions: &[Position<Bb128>; 2], line: &str, accepted: &mut Vec<String>) {
    {
        // The grammar alone: a refusal has text; an acceptance round-trips.
        match line.parse::<UsiMove>() {
            Err(e) => assert!(!e.to_string().trim().is_empty(), "{line:?}"),
            Ok(usi) => {
                let shown = usi.to_string();
                assert_eq!(shown.parse::<UsiMove>(), Ok(usi), "{line:?}");
            }
        }
        // Against the start position every line is refused.
        match positions[0].parse_move(line) {
            Ok(m) => accepted.push(format!("{line:?} -> {m:?}")),
            Err(e) => assert!(!e.to_string().trim().is_empty(), "{line:?}"),
        }
        // Against a middlegame position nothing panics and errors have text.
        if let Err(e) = positions[1].parse_move(line) {
            assert!(!e.to_string().trim().is_empty(), "{line:?}");
        }
    }
}

/// The message of a caught panic.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-text panic)".into())
}

/// Too big for the corpus file (about 11 MB): one rank of 2,200,000 runs of
/// "1000P". Each run moves the parser's file counter 1001 squares left, so the
/// `i32` counter passes `i32::MIN` (`file -= n.min(1000) as i32` in sfen.rs),
/// which panics with "attempt to subtract with overflow" in builds with
/// overflow checks (tests, debug) and wraps in release builds.
#[test]
fn a_huge_rank_is_refused_without_panicking() {
    let text = "1000P".repeat(2_200_000);
    for mode in [SfenMode::Strict, SfenMode::Tsume] {
        match catch_unwind(|| sfen(&text, mode)) {
            Ok(Ok(pos)) => panic!("accepted as {}", pos.to_sfen()),
            Ok(Err(e)) => assert!(!e.to_string().is_empty()),
            Err(payload) => panic!(
                "the SFEN parser panicked on \"1000P\" x 2,200,000 ({mode:?}): {}",
                panic_text(&*payload)
            ),
        }
    }
}

#[test]
fn sfen_refusals_name_the_reason() {
    let rank =
        |r: &str| format!("lnsgkgsnl/1r5b1/ppppppppp/{r}/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert_eq!(
        problems(&rank("10")),
        [SfenProblem::RankLength {
            rank: 'd',
            expected: 9,
            found: 10
        }]
    );
    assert_eq!(
        problems(&rank("8")),
        [SfenProblem::RankLength {
            rank: 'd',
            expected: 9,
            found: 8
        }]
    );
    assert_eq!(
        problems(&rank("4X4")),
        [SfenProblem::UnknownPiece("X".into())]
    );
    assert!(problems(&rank("4+G4")).contains(&SfenProblem::BadPromotion("+G".into())));
    assert!(problems(&rank("99999999999999999999"))
        .iter()
        .any(|p| matches!(p, SfenProblem::RankLength { rank: 'd', .. })));
    assert!(matches!(
        problems(&rank("-1"))[..],
        [SfenProblem::UnknownPiece(_), ..]
    ));

    assert_eq!(problems(""), [SfenProblem::FieldCount(0)]);
    assert_eq!(problems(" \t "), [SfenProblem::FieldCount(0)]);
    assert!(problems(&format!("{START} 1")).contains(&SfenProblem::FieldCount(5)));
    // Ten ranks: the tenth is not read, so Black's king (on it) is missing too.
    assert_eq!(
        problems(&START.replace("/9/9/9/", "/9/9/9/9/")),
        [
            SfenProblem::RankCount {
                expected: 9,
                found: 10
            },
            SfenProblem::MissingKing(Color::Black)
        ]
    );
    assert_eq!(
        problems(&START.replace("/9/9/9/", "/9/9/")),
        [SfenProblem::RankCount {
            expected: 9,
            found: 8
        }]
    );
    assert_eq!(
        problems("lnsgkgsnl/9/pppp1pppp/9/4R4/9/PPPPPPPPP/1B7/LNSGKGSNL b p 1"),
        [SfenProblem::OpponentInCheck]
    );
    assert_eq!(
        problems(&START.replace(" b ", " x ")),
        [SfenProblem::BadSide("x".into())]
    );
    for n in ["0", "-1", "abc", "99999999999999999999"] {
        assert_eq!(
            problems(&START.replace(" 1", &format!(" {n}"))),
            [SfenProblem::BadMoveNumber(n.into())],
            "move number {n}"
        );
    }

    let hand = |h: &str| problems(&format!("{KINGS} b {h} 1"));
    for h in ["0P", "P3", "-P", "K", "+P", "3"] {
        assert!(
            matches!(hand(h)[..], [SfenProblem::BadHand(_)]),
            "hand {h}: {:?}",
            hand(h)
        );
    }
    assert_eq!(
        hand("19P"),
        [SfenProblem::TooMany {
            piece: "P".into(),
            count: 19,
            max: 18
        }]
    );
    assert_eq!(
        problems("lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")[0],
        SfenProblem::TwoPawns {
            color: Color::Black,
            file: 9
        }
    );
}

#[test]
fn a_multi_problem_sfen_lists_every_problem() {
    // Rank c covers 10 squares, an unknown piece X stands where Black's king
    // should, the side is 'x', the hand count is 0 and the move number is 0.
    let text = "lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGXGSNL x 0P 0";
    let err = sfen(text, SfenMode::Strict).expect_err("bad");
    let expected = [
        SfenProblem::RankLength {
            rank: 'c',
            expected: 9,
            found: 10,
        },
        SfenProblem::UnknownPiece("X".into()),
        SfenProblem::BadSide("x".into()),
        SfenProblem::BadHand("bad count '0'".into()),
        SfenProblem::BadMoveNumber("0".into()),
        SfenProblem::MissingKing(Color::Black),
    ];
    for p in &expected {
        assert!(err.problems.contains(p), "{p:?} missing from {err:?}");
    }
    assert_eq!(err.problems.len(), expected.len(), "{err:?}");
    // The message names every problem too.
    let shown = err.to_string();
    for p in &err.problems {
        assert!(shown.contains(&p.to_string()), "{shown:?} lacks {p}");
    }
    assert_eq!(shown.matches("; ").count(), expected.len() - 1, "{shown}");
}

#[test]
fn usi_refusals_name_the_reason() {
    let pos = start();
    let syntax = |t: &str| matches!(pos.parse_move(t), Err(MoveError::Syntax(_)));
    for t in [
        "",
        " ",
        "7g7",
        "7g7f++",
        "P*",
        "*5e",
        "p*5e",
        "P*5e5f",
        "7g7f7e7d7c",
        "0a1a",
        "a7g7f",
        "100a1a",
        "7G7F",
        "P*5e+",
        "+P*5e",
    ] {
        assert!(syntax(t), "{t:?}: {:?}", pos.parse_move(t));
        assert!(t.parse::<UsiMove>().is_err(), "{t:?}");
    }
    // Four squares is the Japanese lion dog's move text: well-formed, but no
    // shogi piece moves that way.
    assert!(matches!(
        pos.parse_move("7g7f7e7d"),
        Err(MoveError::Illegal(IllegalMove::BadDoubleMove))
    ));
    let illegal = |t: &str| match pos.parse_move(t) {
        Err(MoveError::Illegal(e)) => e,
        other => panic!("{t:?}: {other:?}"),
    };
    assert_eq!(illegal("10a1a"), IllegalMove::OffBoard("10a".into()));
    assert_eq!(illegal("1a99z"), IllegalMove::OffBoard("99z".into()));
    assert_eq!(illegal("K*5e"), IllegalMove::UnknownPiece("K".into()));
    assert_eq!(illegal("PP*5e"), IllegalMove::UnknownPiece("PP".into()));
    assert!(matches!(illegal("P*5e"), IllegalMove::NotInHand(_)));
    assert_eq!(illegal("5e5d"), IllegalMove::EmptySquare("5e".into()));
    assert_eq!(illegal("7c7d"), IllegalMove::NotYourPiece("7c".into()));
    assert_eq!(illegal("8h7g"), IllegalMove::OwnPieceOnTarget);
    assert_eq!(illegal("7g7f+"), IllegalMove::CannotPromote);
    assert_eq!(illegal("2h2c"), IllegalMove::CannotMoveThere);
    assert_eq!(illegal("7g7f7e"), IllegalMove::BadDoubleMove);
    // A well-formed move is still well-formed after the refusal.
    assert_eq!(
        pos.parse_move("7g7f").map(|m| pos.move_to_usi(m)),
        Ok("7g7f".into())
    );
}
