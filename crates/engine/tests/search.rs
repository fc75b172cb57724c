//! The search finds mates, wins material and only plays legal moves.

use banmen_engine::{
    find_mate, search, BestMove, Control, Evaluator, HistoryEntry, Limits, MateResult, Score,
    SearchOptions, Table,
};
use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn run(
    sfen: &str,
    limits: &Limits,
    control: &Control,
) -> (Position<banmen_rules::Bb128>, BestMove) {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
    let eval = Evaluator::new(rules);
    let tt = Table::new(4);
    let r = search(
        &pos,
        &[],
        &eval,
        &tt,
        limits,
        &SearchOptions::default(),
        control,
        &|_| {},
    );
    (pos, r.best)
}

fn best(sfen: &str, depth: i32) -> (String, Score) {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
    let eval = Evaluator::new(rules);
    let tt = Table::new(4);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = search(
        &pos,
        &[],
        &eval,
        &tt,
        &limits,
        &SearchOptions::default(),
        &Control::default(),
        &|_| {},
    );
    match r.best {
        BestMove::Move(m, _) => {
            assert!(pos.is_legal(m));
            (pos.move_to_usi(m), Score::from_internal(r.score))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn finds_mate_in_one() {
    let (m, score) = best("7nk/9/7G1/9/9/9/9/9/4K4 b G 1", 3);
    assert!(m == "G*2b" || m == "G*1b", "{m}");
    assert_eq!(score, Score::Mate(1));
}

#[test]
fn finds_mate_in_three() {
    // B*3c 1a2a G*2b: no mate in one, found by the solver and by the search.
    let sfen = "8k/8s/7p1/9/7N1/9/9/9/4K4 b BG 1";
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
    let line = match find_mate(&pos, None, &Control::default()) {
        MateResult::Mate(line) => line,
        other => panic!("{other:?}"),
    };
    assert_eq!(line.len(), 3, "{line:?}");
    let (_, score) = best(sfen, 5);
    assert_eq!(score, Score::Mate(3));
}

#[test]
fn prefers_winning_material() {
    // The white rook on 5e hangs to the black bishop on 9a... take it.
    let (m, score) = best("4k4/9/9/9/4r4/9/9/9/B3K4 b - 1", 4);
    assert_eq!(m, "9i5e");
    assert!(matches!(score, Score::Cp(s) if s > 500));
}

#[test]
fn never_returns_an_illegal_move() {
    let sfens = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
        "4k4/9/9/9/4r3b/9/9/9/4K4 b GSNLP 1",
        "4k4/9/9/9/9/1n6l/2p3n2/1l5p1/4K4 w - 1",
        "4k4/9/p1p3p1p/4+p4/9/4+P4/P1P3P1P/9/4K4 b RBGSNLPrbgsnlp 1",
    ];
    for sfen in sfens {
        for depth in 1..=3 {
            best(sfen, depth);
        }
    }
}

/// Searches White's move after `2h3h 8b7b 3h2h` from the start position
/// to `depth`, with `contempt`, among `only` (all moves when empty): the
/// rook back with 7b8b repeats the start position. The move and its score.
fn with_contempt(contempt: i32, only: &[&str], depth: i32) -> (String, i32) {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let mut pos = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).unwrap();
    let mut history = vec![HistoryEntry {
        hash: pos.hash(),
        check: false,
    }];
    for text in ["2h3h", "8b7b", "3h2h"] {
        pos.make_move(pos.parse_move(text).unwrap());
        history.push(HistoryEntry {
            hash: pos.hash(),
            check: false,
        });
    }
    let limits = Limits {
        depth: Some(depth),
        searchmoves: only.iter().map(|m| pos.parse_move(m).unwrap()).collect(),
        ..Limits::default()
    };
    let options = SearchOptions {
        contempt,
        ..SearchOptions::default()
    };
    let eval = Evaluator::new(rules);
    let r = search(
        &pos,
        &history,
        &eval,
        &Table::new(4),
        &limits,
        &options,
        &Control::default(),
        &|_| {},
    );
    match r.best {
        BestMove::Move(m, _) => (pos.move_to_usi(m), r.score),
        other => panic!("{other:?}"),
    }
}

#[test]
fn contempt_scores_a_repetition_against_the_side_to_move() {
    // The repetition is a draw, worth minus the contempt to White (the side
    // to move at the root), whatever the depth.
    for depth in [3, 4] {
        for contempt in [0, 50, -50] {
            assert_eq!(
                with_contempt(contempt, &["7b8b"], depth),
                ("7b8b".to_string(), -contempt),
                "contempt {contempt}, depth {depth}"
            );
        }
    }
    // Seeking a draw (contempt far below 0), White repeats; avoiding one
    // (far above), it plays anything else.
    assert_eq!(with_contempt(-500, &[], 4), ("7b8b".to_string(), 500));
    let (m, score) = with_contempt(500, &[], 4);
    assert_ne!(m, "7b8b");
    assert!(score > -500, "{m} {score}");
}

#[test]
fn searchmoves_restricts_the_root() {
    // The rook on 5e checks and hangs, but only the king may move.
    let sfen = "4k4/9/9/9/4r4/9/8P/9/B3K4 b - 1";
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
    let only = ["5i4h", "5i6h"].map(|m| pos.parse_move(m).unwrap());
    let mut limits = Limits {
        depth: Some(3),
        searchmoves: only.to_vec(),
        ..Limits::default()
    };
    let (_, best) = run(sfen, &limits, &Control::default());
    assert!(
        matches!(best, BestMove::Move(m, _) if only.contains(&m)),
        "{best:?}"
    );
    // Only a move that is not legal here (it ignores the check): every move
    // is searched, and the rook is taken.
    let quiet = Position::from_sfen(rules, "4k4/9/9/9/9/9/8P/9/B3K4 b - 1", SfenMode::Strict);
    limits.searchmoves = vec![quiet.unwrap().parse_move("1g1f").unwrap()];
    let (pos, best) = run(sfen, &limits, &Control::default());
    assert!(
        matches!(best, BestMove::Move(m, _) if pos.move_to_usi(m) == "9i5e"),
        "{best:?}"
    );
}

#[test]
fn a_cut_off_first_iteration_still_plays_a_legal_move() {
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let limits = Limits {
        movetime: Some(1),
        ..Limits::default()
    };
    let control = Control::default();
    // Stopped before it starts: no iteration completes.
    control.stop.store(true, Ordering::Relaxed);
    let (pos, best) = run(sfen, &limits, &control);
    assert!(
        matches!(best, BestMove::Move(m, _) if pos.is_legal(m)),
        "{best:?}"
    );
    let (pos, best) = run(sfen, &limits, &Control::default());
    assert!(
        matches!(best, BestMove::Move(m, _) if pos.is_legal(m)),
        "{best:?}"
    );
}

#[test]
fn pondering_in_a_mated_position_waits_for_ponderhit() {
    // White is mated: the answer is known at once, but not sent while pondering.
    let sfen = "7nk/8G/7G1/9/9/9/9/9/4K4 w - 2";
    let limits = Limits {
        ponder: true,
        byoyomi: 100,
        ..Limits::default()
    };
    let control = Control::default();
    control.pondering.store(true, Ordering::Relaxed);
    let start = Instant::now();
    let best = std::thread::scope(|s| {
        let searching = s.spawn(|| run(sfen, &limits, &control).1);
        std::thread::sleep(Duration::from_millis(200));
        assert!(!searching.is_finished(), "answered while pondering");
        control.pondering.store(false, Ordering::Relaxed);
        searching.join().unwrap()
    });
    assert_eq!(best, BestMove::Resign);
    assert!(start.elapsed() >= Duration::from_millis(200));
}
