//! The search finds mates, wins material and only plays legal moves.

use banmen_engine::{
    find_mate, search, BestMove, Control, Evaluator, Limits, MateResult, Score, SearchOptions,
    Table,
};
use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};

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
