//! The special rules of standard shogi (`rules/standard-shogi.md`), one test
//! per rule, each on a small constructed position with the moves written in
//! USI and the typed reason a refused move is refused.

mod common;
use banmen_rules::game::{DeclarationError, GameError};
use banmen_rules::{
    rules_9x9, Bb128, Color, EnteringKingRule, Game, GameOptions, IllegalMove, Kind, MoveError,
    Outcome, Position, Reason, Rules, SfenMode, SfenProblem, Variant, VariantName,
};
use common::*;
use std::collections::BTreeSet;

fn rules() -> &'static Rules<Bb128> {
    rules_9x9(VariantName::Shogi).expect("standard shogi")
}

fn pos(sfen: &str) -> Position<Bb128> {
    Position::from_sfen(rules(), sfen, SfenMode::Strict)
        .unwrap_or_else(|e| panic!("{sfen} should parse: {e}"))
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

/// The legal board moves starting on `from` (`"3c"`).
fn moves_from(p: &Position<Bb128>, from: &str) -> BTreeSet<String> {
    legal(p)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m.contains('*'))
        .collect()
}

fn game_with(sfen: &str, entering_king: EnteringKingRule) -> Game<Bb128> {
    Game::new(
        pos(sfen),
        GameOptions {
            entering_king,
            max_plies: None,
        },
    )
}

fn game(sfen: &str) -> Game<Bb128> {
    game_with(sfen, EnteringKingRule::CsaRule27)
}

#[test]
fn flip_sfen_helper_is_an_involution() {
    let s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1";
    assert_eq!(
        flip_sfen(s),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    let t = "+R+B7/4K4/PPPP1PPPP/9/9/9/9/4k4/9 b 2G2Prb2g 1";
    assert_eq!(
        flip_sfen(t),
        "9/4K4/9/9/9/9/pppp1pppp/4k4/7+b+r w RB2G2g2p 1"
    );
    assert_eq!(
        flip_sfen(&flip_sfen(t)),
        "+R+B7/4K4/PPPP1PPPP/9/9/9/9/4k4/9 b 2G2Prb2g 1"
    );
}

// ---------------------------------------------------------------------------
// Drops: nifu, dead pieces, uchifuzume.
// ---------------------------------------------------------------------------

#[test]
fn nifu_is_refused() {
    // Black: a pawn on 5g; White: a pawn on 5c.
    let b = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_illegal(&b, "P*5e", IllegalMove::TwoPawns);
    assert_illegal(&b, "P*5h", IllegalMove::TwoPawns);
    assert_legal(&b, "P*4e");
    assert_legal(&b, "P*6h");
    // No pawn drop anywhere on file 5; every other file has some.
    let drops: Vec<String> = legal(&b)
        .into_iter()
        .filter(|m| m.starts_with("P*"))
        .collect();
    assert!(drops.iter().all(|m| !m.starts_with("P*5")), "{drops:?}");
    assert_eq!(drops.len(), 8 * 8, "8 files x ranks b..i: {drops:?}");

    let w = pos("4k4/9/4p4/9/9/9/9/9/4K4 w p 1");
    assert_illegal(&w, "P*5e", IllegalMove::TwoPawns);
    assert_illegal(&w, "P*5b", IllegalMove::TwoPawns);
    assert_legal(&w, "P*4e");
    assert!(legal(&w).iter().all(|m| !m.starts_with("P*5")));
}

#[test]
fn tokin_does_not_count_for_nifu() {
    let b = pos("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
    for sq in ["5b", "5c", "5d", "5e", "5f", "5h"] {
        assert_legal(&b, &format!("P*{sq}"));
    }
    let w = pos("4k4/9/4+p4/9/9/9/9/9/4K4 w p 1");
    for sq in ["5b", "5d", "5e", "5f", "5g", "5h"] {
        assert_legal(&w, &format!("P*{sq}"));
    }
}

#[test]
fn pawn_drop_on_last_rank_is_refused() {
    let b = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    for f in 1..=9 {
        if f != 5 {
            assert_illegal(&b, &format!("P*{f}a"), IllegalMove::DeadPiece);
        }
    }
    assert_legal(&b, "P*4b");
    assert_legal(&b, "P*4i");
    let w = pos("4k4/9/9/9/9/9/9/9/4K4 w p 1");
    for f in 1..=9 {
        if f != 5 {
            assert_illegal(&w, &format!("P*{f}i"), IllegalMove::DeadPiece);
        }
    }
    assert_legal(&w, "P*4h");
    assert_legal(&w, "P*4a");
}

#[test]
fn lance_drop_on_last_rank_is_refused() {
    let b = pos("4k4/9/9/9/9/9/9/9/4K4 b L 1");
    assert_illegal(&b, "L*4a", IllegalMove::DeadPiece);
    assert_illegal(&b, "L*9a", IllegalMove::DeadPiece);
    assert_legal(&b, "L*4b");
    assert!(legal(&b).iter().all(|m| !m.ends_with('a')));
    let w = pos("4k4/9/9/9/9/9/9/9/4K4 w l 1");
    assert_illegal(&w, "L*4i", IllegalMove::DeadPiece);
    assert_illegal(&w, "L*1i", IllegalMove::DeadPiece);
    assert_legal(&w, "L*4h");
    assert!(legal(&w)
        .iter()
        .all(|m| !(m.starts_with("L*") && m.ends_with('i'))));
}

#[test]
fn knight_drop_on_last_two_ranks_is_refused() {
    let b = pos("4k4/9/9/9/9/9/9/9/4K4 b N 1");
    assert_illegal(&b, "N*4a", IllegalMove::DeadPiece);
    assert_illegal(&b, "N*4b", IllegalMove::DeadPiece);
    assert_illegal(&b, "N*1b", IllegalMove::DeadPiece);
    assert_legal(&b, "N*4c");
    assert_legal(&b, "N*4i");
    let drops: Vec<String> = legal(&b)
        .into_iter()
        .filter(|m| m.starts_with("N*"))
        .collect();
    assert_eq!(drops.len(), 9 * 7 - 1, "ranks c..i minus the king's square");
    let w = pos("4k4/9/9/9/9/9/9/9/4K4 w n 1");
    assert_illegal(&w, "N*4i", IllegalMove::DeadPiece);
    assert_illegal(&w, "N*4h", IllegalMove::DeadPiece);
    assert_illegal(&w, "N*9h", IllegalMove::DeadPiece);
    assert_legal(&w, "N*4g");
    assert_legal(&w, "N*4a");
    let drops: Vec<String> = legal(&w)
        .into_iter()
        .filter(|m| m.starts_with("N*"))
        .collect();
    assert_eq!(drops.len(), 9 * 7 - 1);
}

#[test]
fn pawn_drop_mate_is_refused() {
    // White king 1a, knight 2a, silver 2b; Black gold 2c guards 1b.
    let b = pos("7nk/7s1/7G1/9/9/9/9/9/K8 b 2Pp 1");
    assert_illegal(&b, "P*1b", IllegalMove::DropPawnMate);
    assert_legal(&b, "P*1c");
    assert_legal(&b, "P*5e");
    // The same position with the king's knight gone: the king escapes to 2a.
    let b2 = pos("8k/7s1/7G1/9/9/9/9/9/K8 b 2Pp 1");
    assert_legal(&b2, "P*1b");
    // Mirrored for White.
    let w = pos(&flip_sfen("7nk/7s1/7G1/9/9/9/9/9/K8 b 2Pp 1"));
    assert_eq!(w.side_to_move(), Color::White);
    assert_illegal(&w, "P*9h", IllegalMove::DropPawnMate);
    assert_legal(&w, "P*9g");
    // Another reference shape: knight on 2a, gold on 2c, no silver: still mate.
    let b3 = pos("7nk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert_illegal(&b3, "P*1b", IllegalMove::DropPawnMate);
}

#[test]
fn pawn_drop_mate_with_pinned_guard_is_refused() {
    // White's silver on 2a could take a pawn on 1b, but Black's rook on 9a pins it.
    let pinned = pos("R6sk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert_illegal(&pinned, "P*1b", IllegalMove::DropPawnMate);
    // Without the rook the silver takes the pawn: the drop is legal.
    let free = pos("7sk/9/7G1/9/9/9/9/9/4K4 b RP 1");
    assert_legal(&free, "P*1b");
    let after = free.after(free.parse_move("P*1b").unwrap());
    assert!(after.in_check());
    assert!(legal(&after).contains("2a1b"), "{:?}", legal(&after));

    // A pinned gold: rook 9a pins gold 2a; knight 2d guards 1b; silver 3c covers 2b.
    let gold = pos("R6gk/9/6S2/7N1/9/9/9/9/K8 b P 1");
    assert_illegal(&gold, "P*1b", IllegalMove::DropPawnMate);
    let gold_free = pos("7gk/9/6S2/7N1/9/9/9/9/K8 b RP 1");
    assert_legal(&gold_free, "P*1b");

    // White's version of the pinned silver.
    let w = pos(&flip_sfen("R6sk/9/7G1/9/9/9/9/9/4K4 b P 1"));
    assert_illegal(&w, "P*9h", IllegalMove::DropPawnMate);
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    for (sfen, why) in [
        ("8k/9/7G1/9/9/9/9/9/4K4 b P 1", "the king escapes to 2a"),
        (
            "7nk/9/9/9/9/9/9/9/4K4 b P 1",
            "the king takes the unprotected pawn",
        ),
        ("7sk/9/7G1/9/9/9/9/9/4K4 b P 1", "the silver takes the pawn"),
    ] {
        let p = pos(sfen);
        assert_legal(&p, "P*1b");
        let after = p.after(p.parse_move("P*1b").unwrap());
        assert!(after.in_check(), "{why}: P*1b gives check");
        assert!(after.has_legal_move(), "{why}");
    }
    let p = pos("7nk/9/9/9/9/9/9/9/4K4 b P 1");
    let after = p.after(p.parse_move("P*1b").unwrap());
    assert_eq!(legal(&after), set(&["1a1b", "1a2b"]));
}

#[test]
fn pawn_push_mate_is_legal() {
    // As the uchifuzume reference, but the pawn walks to 1b from 1c.
    let sfen = "7nk/7s1/7GP/9/9/9/9/9/K8 b - 1";
    let p = pos(sfen);
    assert_legal(&p, "1c1b");
    assert_legal(&p, "1c1b+");
    let mut g = game(sfen);
    play(&mut g, "1c1b");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn non_pawn_drop_mate_is_legal() {
    for drop in ["L*1b", "G*1b"] {
        let sfen = "7nk/7s1/7G1/9/9/9/9/9/K8 b GL 1";
        let p = pos(sfen);
        assert_legal(&p, drop);
        let mut g = game(sfen);
        play(&mut g, drop);
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Black),
                reason: Reason::Checkmate
            }),
            "{drop}"
        );
    }
    // White mates with a lance drop where a pawn drop would be uchifuzume.
    let mut w = game(&flip_sfen("7nk/7s1/7G1/9/9/9/9/9/K8 b L 1"));
    play(&mut w, "L*9h");
    assert_eq!(
        w.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::Checkmate
        })
    );
}

// ---------------------------------------------------------------------------
// Promotion.
// ---------------------------------------------------------------------------

#[test]
fn pawn_promotion_black() {
    let p = pos("4k4/8P/6P2/2P6/P8/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&p, "1b"), set(&["1b1a+"]));
    assert_eq!(moves_from(&p, "3c"), set(&["3c3b", "3c3b+"]));
    assert_eq!(moves_from(&p, "7d"), set(&["7d7c", "7d7c+"]));
    assert_eq!(moves_from(&p, "9e"), set(&["9e9d"]));
    assert_illegal(&p, "1b1a", IllegalMove::MustPromote);
    assert_illegal(&p, "9e9d+", IllegalMove::CannotPromote);
}

#[test]
fn pawn_promotion_white() {
    let p = pos("4k4/9/9/9/8p/6p2/2p6/p8/4K4 w - 1");
    assert_eq!(moves_from(&p, "9h"), set(&["9h9i+"]));
    assert_eq!(moves_from(&p, "7g"), set(&["7g7h", "7g7h+"]));
    assert_eq!(moves_from(&p, "3f"), set(&["3f3g", "3f3g+"]));
    assert_eq!(moves_from(&p, "1e"), set(&["1e1f"]));
    assert_illegal(&p, "9h9i", IllegalMove::MustPromote);
    assert_illegal(&p, "1e1f+", IllegalMove::CannotPromote);
}

#[test]
fn lance_promotion_black() {
    let p = pos("4k4/9/8L/9/L8/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&p, "1c"), set(&["1c1b", "1c1b+", "1c1a+"]));
    assert_eq!(
        moves_from(&p, "9e"),
        set(&["9e9d", "9e9c", "9e9c+", "9e9b", "9e9b+", "9e9a+"])
    );
    assert_illegal(&p, "1c1a", IllegalMove::MustPromote);
    assert_illegal(&p, "9e9a", IllegalMove::MustPromote);
    assert_illegal(&p, "9e9d+", IllegalMove::CannotPromote);
}

#[test]
fn lance_promotion_white() {
    let p = pos("4k4/9/9/9/8l/9/l8/9/4K4 w - 1");
    assert_eq!(moves_from(&p, "9g"), set(&["9g9h", "9g9h+", "9g9i+"]));
    assert_eq!(
        moves_from(&p, "1e"),
        set(&["1e1f", "1e1g", "1e1g+", "1e1h", "1e1h+", "1e1i+"])
    );
    assert_illegal(&p, "9g9i", IllegalMove::MustPromote);
    assert_illegal(&p, "1e1f+", IllegalMove::CannotPromote);
}

#[test]
fn knight_promotion_black() {
    let p = pos("4k4/9/9/7N1/1N7/4N4/9/9/4K4 b - 1");
    assert_eq!(moves_from(&p, "2d"), set(&["2d3b+", "2d1b+"]));
    assert_eq!(
        moves_from(&p, "8e"),
        set(&["8e9c", "8e9c+", "8e7c", "8e7c+"])
    );
    assert_eq!(moves_from(&p, "5f"), set(&["5f6d", "5f4d"]));
    assert_illegal(&p, "2d3b", IllegalMove::MustPromote);
    assert_illegal(&p, "5f4d+", IllegalMove::CannotPromote);
    let q = pos("4k4/9/2N6/9/9/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&q, "7c"), set(&["7c8a+", "7c6a+"]));
    assert_illegal(&q, "7c8a", IllegalMove::MustPromote);
}

#[test]
fn knight_promotion_white() {
    let p = pos("4k4/9/9/4n4/7n1/1n7/9/9/4K4 w - 1");
    assert_eq!(moves_from(&p, "8f"), set(&["8f9h+", "8f7h+"]));
    assert_eq!(
        moves_from(&p, "2e"),
        set(&["2e3g", "2e3g+", "2e1g", "2e1g+"])
    );
    assert_eq!(moves_from(&p, "5d"), set(&["5d6f", "5d4f"]));
    assert_illegal(&p, "8f9h", IllegalMove::MustPromote);
    assert_illegal(&p, "5d4f+", IllegalMove::CannotPromote);
}

#[test]
fn silver_promotion_is_optional_entering_and_leaving_the_zone() {
    let b = pos("4k4/9/1S7/7S1/9/9/9/9/4K4 b - 1");
    assert_eq!(
        moves_from(&b, "2d"),
        set(&["2d2c", "2d2c+", "2d1c", "2d1c+", "2d3c", "2d3c+", "2d1e", "2d3e"])
    );
    assert_eq!(
        moves_from(&b, "8c"),
        set(&["8c8b", "8c8b+", "8c7b", "8c7b+", "8c9b", "8c9b+", "8c7d", "8c7d+", "8c9d", "8c9d+"])
    );
    assert_illegal(&b, "2d1e+", IllegalMove::CannotPromote);

    let w = pos("4k4/9/9/9/9/1s7/7s1/9/4K4 w - 1");
    assert_eq!(
        moves_from(&w, "8f"),
        set(&["8f8g", "8f8g+", "8f9g", "8f9g+", "8f7g", "8f7g+", "8f9e", "8f7e"])
    );
    assert_eq!(
        moves_from(&w, "2g"),
        set(&["2g2h", "2g2h+", "2g1h", "2g1h+", "2g3h", "2g3h+", "2g1f", "2g1f+", "2g3f", "2g3f+"])
    );
    assert_illegal(&w, "8f9e+", IllegalMove::CannotPromote);
}

#[test]
fn bishop_promotion_is_optional_entering_and_leaving_the_zone() {
    let b = pos("4k4/9/B8/9/9/9/B8/9/4K4 b - 1");
    let mut from_9c = Vec::new();
    for to in ["8b", "7a", "8d", "7e", "6f", "5g", "4h", "3i"] {
        from_9c.push(format!("9c{to}"));
        from_9c.push(format!("9c{to}+"));
    }
    let from_9c: Vec<&str> = from_9c.iter().map(String::as_str).collect();
    assert_eq!(moves_from(&b, "9c"), set(&from_9c));
    assert_eq!(
        moves_from(&b, "9g"),
        set(&[
            "9g8f", "9g7e", "9g6d", "9g5c", "9g5c+", "9g4b", "9g4b+", "9g3a", "9g3a+", "9g8h",
            "9g7i"
        ])
    );
    assert_illegal(&b, "9g8f+", IllegalMove::CannotPromote);

    let w = pos(&flip_sfen("4k4/9/B8/9/9/9/B8/9/4K4 b - 1"));
    assert_legal(&w, "1g7a");
    assert_legal(&w, "1g7a+");
    assert_legal(&w, "1c4f");
    assert_illegal(&w, "1c4f+", IllegalMove::CannotPromote);
    assert_legal(&w, "1c5g+");
}

#[test]
fn rook_promotion_is_optional_entering_and_leaving_the_zone() {
    let b = pos("4k4/9/8R/9/9/R8/9/9/4K4 b - 1");
    for to in ["1b", "1a", "1i", "1d", "2c", "8c"] {
        assert_legal(&b, &format!("1c{to}"));
        assert_legal(&b, &format!("1c{to}+"));
    }
    // From 9f outside the zone: promotion only on entering it.
    assert_legal(&b, "9f9c+");
    assert_legal(&b, "9f9a+");
    assert_legal(&b, "9f9a");
    assert_legal(&b, "9f5f");
    assert_illegal(&b, "9f5f+", IllegalMove::CannotPromote);
    assert_illegal(&b, "9f9i+", IllegalMove::CannotPromote);
    assert_eq!(moves_from(&b, "1c").len(), 2 * (8 + 8));

    let w = pos("4k4/9/9/r8/9/9/8r/9/4K4 w - 1");
    assert_legal(&w, "1g1a");
    assert_legal(&w, "1g1a+");
    assert_legal(&w, "9d9g+");
    assert_illegal(&w, "9d9a+", IllegalMove::CannotPromote);
    assert_eq!(moves_from(&w, "1g").len(), 2 * (8 + 8));
}

#[test]
fn gold_and_king_never_promote() {
    let b = pos("8k/9/2G1K4/9/9/9/9/9/9 b - 1");
    assert_eq!(
        moves_from(&b, "7c"),
        set(&["7c7b", "7c6b", "7c8b", "7c6c", "7c8c", "7c7d"])
    );
    assert_eq!(moves_from(&b, "5c").len(), 8);
    assert!(legal(&b).iter().all(|m| !m.ends_with('+')));
    assert_illegal(&b, "7c7b+", IllegalMove::CannotPromote);
    assert_illegal(&b, "5c5b+", IllegalMove::CannotPromote);

    let w = pos(&flip_sfen("8k/9/2G1K4/9/9/9/9/9/9 b - 1"));
    assert!(legal(&w).iter().all(|m| !m.ends_with('+')));
    assert_eq!(legal(&w).len(), 14);
    assert_illegal(&w, "3g3h+", IllegalMove::CannotPromote);
    assert_illegal(&w, "5g5h+", IllegalMove::CannotPromote);
}

#[test]
fn promoted_piece_cannot_promote_again() {
    let p = pos("8k/9/2+P1+R4/9/9/9/9/9/4K4 b - 1");
    assert_legal(&p, "7c7b");
    assert_illegal(&p, "7c7b+", IllegalMove::CannotPromote);
    assert_legal(&p, "5c5b");
    assert_illegal(&p, "5c5b+", IllegalMove::CannotPromote);
    assert!(legal(&p).iter().all(|m| !m.ends_with('+')));
}

#[test]
fn drop_never_promotes() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b RBGSNLP 1");
    let moves = p.legal_moves();
    let drops: Vec<_> = moves.iter().filter(|m| m.is_drop()).collect();
    assert!(!drops.is_empty());
    assert!(drops.iter().all(|m| !m.is_promotion()));
    // Every drop into the zone is a single, unpromoted move.
    assert_legal(&p, "S*3b");
    assert_legal(&p, "R*1a");
    assert!(matches!(p.parse_move("S*3b+"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("P*5e+"), Err(MoveError::Syntax(_))));
    // A dropped piece stands unpromoted.
    let after = p.after(p.parse_move("R*1a").unwrap());
    assert_eq!(after.to_sfen(), "4k3R/9/9/9/9/9/9/9/4K4 w BGSNLP 2");
}

// ---------------------------------------------------------------------------
// Check, pins, double check.
// ---------------------------------------------------------------------------

#[test]
fn king_may_not_move_into_check() {
    // Checked by a rook on the file: stepping along the file stays in check.
    let p = pos("4r4/9/9/9/4K4/9/9/9/k8 b - 1");
    assert!(p.in_check());
    assert_eq!(
        legal(&p),
        set(&["5e4e", "5e6e", "5e4d", "5e6d", "5e4f", "5e6f"])
    );
    assert_illegal(&p, "5e5f", IllegalMove::IgnoresCheck);
    assert_illegal(&p, "5e5d", IllegalMove::IgnoresCheck);

    // Not in check: the squares next to the enemy king are forbidden.
    let q = pos("9/9/4k4/9/4K4/9/9/9/9 b - 1");
    assert_eq!(legal(&q), set(&["5e4e", "5e6e", "5e4f", "5e5f", "5e6f"]));
    assert_illegal(&q, "5e5d", IllegalMove::IgnoresCheck);

    // A rook's rank and file; capturing the unprotected rook is fine.
    let r = pos("4k4/9/9/9/9/9/9/3r5/4K4 b - 1");
    assert_eq!(legal(&r), set(&["5i6h", "5i4i"]));
    assert_illegal(&r, "5i5h", IllegalMove::IgnoresCheck);
    assert_illegal(&r, "5i6i", IllegalMove::IgnoresCheck);
    // The same rook protected by a gold on 7g: no capture.
    let s = pos("4k4/9/9/9/9/9/2g6/3r5/4K4 b - 1");
    assert_eq!(legal(&s), set(&["5i4i"]));
    assert_illegal(&s, "5i6h", IllegalMove::IgnoresCheck);
}

#[test]
fn pinned_piece_moves_only_along_the_pin_line() {
    // Rook pinned on the file by a rook: it may slide along the file or capture.
    let p = pos("4r3k/9/9/9/9/4R4/9/9/4K4 b - 1");
    assert_eq!(
        moves_from(&p, "5f"),
        set(&["5f5e", "5f5d", "5f5c", "5f5c+", "5f5b", "5f5b+", "5f5a", "5f5a+", "5f5g", "5f5h"])
    );
    assert_illegal(&p, "5f4f", IllegalMove::IgnoresCheck);
    // A bishop pinned on a file cannot move at all.
    let b = pos("4r3k/9/9/9/9/4B4/9/9/4K4 b - 1");
    assert!(moves_from(&b, "5f").is_empty());
    assert_illegal(&b, "5f4e", IllegalMove::IgnoresCheck);
    // A silver pinned diagonally by a bishop.
    let s = pos("8k/9/9/9/9/7b1/9/5S3/4K4 b - 1");
    assert_eq!(moves_from(&s, "4h"), set(&["4h3g"]));
    assert_illegal(&s, "4h4g", IllegalMove::IgnoresCheck);
    assert_illegal(&s, "4h5g", IllegalMove::IgnoresCheck);
    // A gold pinned by a lance.
    let g = pos("4l3k/9/9/9/4G4/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&g, "5e"), set(&["5e5d", "5e5f"]));
    assert_illegal(&g, "5e4d", IllegalMove::IgnoresCheck);
    // White's pieces are pinned the same way.
    let w = pos(&flip_sfen("4l3k/9/9/9/4G4/9/9/9/4K4 b - 1"));
    assert_eq!(moves_from(&w, "5e"), set(&["5e5d", "5e5f"]));
    assert_illegal(&w, "5e4f", IllegalMove::IgnoresCheck);
    // Two pieces between the rook and the king: neither is pinned.
    let two = pos("4r3k/9/9/9/4G4/4S4/9/9/4K4 b - 1");
    assert!(moves_from(&two, "5e").contains("5e4e"));
    assert!(moves_from(&two, "5f").contains("5f4e"));
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook 5a and knight 4c both check the king on 5e.
    let p = pos("4r3k/9/5n3/5G3/4K4/9/9/9/9 b 2P 1");
    assert!(p.in_check());
    assert_eq!(legal(&p), set(&["5e4e", "5e6e", "5e6d", "5e4f", "5e6f"]));
    assert_illegal(&p, "4d4c", IllegalMove::IgnoresCheck);
    assert_illegal(&p, "P*5c", IllegalMove::IgnoresCheck);
    // With the knight gone, the interpositions and block come back.
    let single = pos("4r3k/9/9/5G3/4K4/9/9/9/9 b 2P 1");
    let l = legal(&single);
    assert!(l.contains("P*5c") && l.contains("4d5d"), "{l:?}");
}

// ---------------------------------------------------------------------------
// Handicaps.
// ---------------------------------------------------------------------------

#[test]
fn every_handicap_parses_with_the_right_pieces_removed() {
    let v = Variant::standard();
    let expected: [(&str, &str, &str, &[&str]); 10] = [
        ("lance", "香落ち", "1a", &["l"]),
        ("right-lance", "右香落ち", "9a", &["l"]),
        ("bishop", "角落ち", "2b", &["b"]),
        ("rook", "飛車落ち", "8b", &["r"]),
        ("rook-lance", "飛香落ち", "1a", &["r", "l"]),
        ("two-pieces", "二枚落ち", "8b", &["r", "b"]),
        ("four-pieces", "四枚落ち", "9a", &["r", "b", "l", "l"]),
        (
            "six-pieces",
            "六枚落ち",
            "8a",
            &["r", "b", "l", "l", "n", "n"],
        ),
        (
            "eight-pieces",
            "八枚落ち",
            "7a",
            &["r", "b", "l", "l", "n", "n", "s", "s"],
        ),
        (
            "ten-pieces",
            "十枚落ち",
            "6a",
            &["r", "b", "l", "l", "n", "n", "s", "s", "g", "g"],
        ),
    ];
    assert_eq!(v.handicaps.len(), expected.len());
    let start = pos("startpos");
    let count = |p: &Position<Bb128>| -> std::collections::BTreeMap<String, usize> {
        let mut m = std::collections::BTreeMap::new();
        for sq in rules().geometry.all() {
            if let Some(pc) = p.piece_at(sq) {
                *m.entry(p.token(pc)).or_insert(0) += 1;
            }
        }
        m
    };
    let full = count(&start);
    for (name, japanese, empty_square, removed) in expected {
        let h = v
            .handicap(name)
            .unwrap_or_else(|| panic!("handicap {name}"));
        assert_eq!(h.name, name);
        assert_eq!(h.japanese, japanese);
        assert_eq!(v.handicap(japanese), Some(h));
        let p = Position::from_sfen(rules(), h.sfen, SfenMode::Strict)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.side_to_move(), Color::White, "{name}: White moves first");
        assert!(!p.legal_moves().is_empty());
        for c in Color::ALL {
            assert!(
                p.hand(c).iter().all(|&n| n == 0),
                "{name}: removed pieces are not in hand"
            );
        }
        let sq = rules().geometry.parse_square(empty_square).unwrap();
        assert_eq!(p.piece_at(sq), None, "{name}: {empty_square} is empty");
        let have = count(&p);
        let mut missing = full.clone();
        for (t, n) in &have {
            *missing.get_mut(t).unwrap() -= n;
        }
        missing.retain(|_, n| *n > 0);
        let mut want = std::collections::BTreeMap::new();
        for t in removed {
            *want.entry(t.to_string()).or_insert(0) += 1;
        }
        assert_eq!(missing, want, "{name}");
        assert_eq!(have.values().sum::<usize>(), 40 - removed.len(), "{name}");
        assert_eq!(p.to_sfen(), h.sfen);
    }
}

// ---------------------------------------------------------------------------
// Repetition.
// ---------------------------------------------------------------------------

#[test]
fn perpetual_check_loses() {
    // White's rook checks on every White move; Black's king shuttles.
    let mut g = game("4k4/9/9/9/9/9/9/9/r3K4 b - 1");
    let cycle = ["5i5h", "9i9h", "5h5i", "9h9i"];
    for ply in 1..=12 {
        assert_eq!(g.outcome(), None, "over before ply {ply}");
        g.play_usi(cycle[(ply - 1) % 4]).unwrap();
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::PerpetualCheck
        })
    );
    assert!(matches!(g.play_usi("5i5h"), Err(GameError::GameOver(_))));
    // Undoing the last move reopens the game.
    assert_eq!(
        g.undo().map(|m| g.position().move_to_usi(m)),
        Some("9h9i".into())
    );
    assert_eq!(g.outcome(), None);

    // The same with Black checking: Black loses.
    let mut g = game(&flip_sfen("4k4/9/9/9/9/9/9/9/r3K4 b - 1"));
    let cycle = ["5a5b", "1a1b", "5b5a", "1b1a"];
    for ply in 1..=12 {
        assert_eq!(g.outcome(), None, "over before ply {ply}");
        g.play_usi(cycle[(ply - 1) % 4]).unwrap();
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::PerpetualCheck
        })
    );
}

#[test]
fn repetition_without_perpetual_check_is_a_draw() {
    // Black checks on every other move only: a plain draw.
    let mut g = game("4k4/9/9/9/9/9/9/9/R3K4 b - 1");
    let cycle = ["9i9a", "5a5b", "9a9i", "5b5a"];
    for ply in 1..=12 {
        assert_eq!(g.outcome(), None, "over before ply {ply}");
        g.play_usi(cycle[(ply - 1) % 4]).unwrap();
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
}

#[test]
fn repetition_through_captures_and_drops_is_a_draw() {
    // A 10-ply cycle: each side drops a pawn with check and the king takes it,
    // so the pawn goes from White's hand to Black's and back.
    let start = "4k4/9/9/9/9/9/9/9/4K4 b p 1";
    let mut g = game(start);
    let cycle = [
        "5i5h", "P*5g", "5h5g", "5a5b", "P*5c", "5b5c", "5g5h", "5c5b", "5h5i", "5b5a",
    ];
    for ply in 1..=30 {
        assert_eq!(g.outcome(), None, "over before ply {ply}");
        g.play_usi(cycle[(ply - 1) % 10]).unwrap();
        if ply % 10 == 0 {
            assert_eq!(
                g.position(),
                g.start(),
                "the start position recurs at ply {ply}"
            );
        }
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
}

fn reference_game(name: &str) -> (String, Vec<String>) {
    let path = format!("{}/tests/data/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let final_sfen = text
        .lines()
        .find_map(|l| l.strip_prefix("# final-sfen:"))
        .expect("final-sfen header")
        .trim()
        .to_string();
    let moves = text
        .lines()
        .rfind(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .expect("moves line")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    (final_sfen, moves)
}

#[test]
fn reference_games_end_by_repetition_and_perpetual_check() {
    for (file, plies, result) in [
        (
            "standard-fourfold-repetition-draw.txt",
            12,
            Outcome {
                winner: None,
                reason: Reason::Repetition,
            },
        ),
        (
            "standard-perpetual-check-loss.txt",
            18,
            Outcome {
                winner: Some(Color::White),
                reason: Reason::PerpetualCheck,
            },
        ),
    ] {
        let (final_sfen, moves) = reference_game(file);
        assert_eq!(moves.len(), plies);
        let mut g = game("startpos");
        for m in &moves {
            assert_eq!(g.outcome(), None, "{file}");
            g.play_usi(m).unwrap();
        }
        assert_eq!(g.outcome(), Some(result), "{file}");
        assert_eq!(g.position().to_sfen(), final_sfen);
    }
}

// ---------------------------------------------------------------------------
// Impasse: points, declarations, the try rule.
// ---------------------------------------------------------------------------

#[test]
fn impasse_24_point_count() {
    // Black: dragon on the board, bishop and 13 small pieces in hand = 23.
    let short = "+R8/4K4/9/9/9/9/9/4k4/9 b B2G2S2N2L5Prb2g2s2n2l13p 1";
    let mut g = game(short);
    assert_eq!(g.impasse_points(Color::Black), 23);
    assert_eq!(g.impasse_points(Color::White), 31);
    assert_eq!(
        g.score_impasse(),
        Ok(Outcome {
            winner: Some(Color::White),
            reason: Reason::ImpassePoints
        })
    );
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Color::White)));

    // One pawn more for Black: 24 and 30, a draw.
    let mut g = game("+R8/4K4/9/9/9/9/9/4k4/9 b B2G2S2N2L6Prb2g2s2n2l12p 1");
    assert_eq!(g.impasse_points(Color::Black), 24);
    assert_eq!(g.impasse_points(Color::White), 30);
    assert_eq!(
        g.score_impasse(),
        Ok(Outcome {
            winner: None,
            reason: Reason::ImpassePoints
        })
    );

    // A horse on the board counts 5 like a bishop; White short this time.
    let mut g = game("+R8/4K4/9/9/9/9/9/4k4/+b8 w B2G2S2N2L15Pr2g2s2n2l3p 1");
    assert_eq!(g.impasse_points(Color::Black), 5 + 5 + 8 + 15);
    assert_eq!(g.impasse_points(Color::White), 5 + 5 + 8 + 3);
    assert_eq!(
        g.score_impasse(),
        Ok(Outcome {
            winner: Some(Color::Black),
            reason: Reason::ImpassePoints
        })
    );
    assert!(g.score_impasse().is_err(), "the game is over");

    // A king outside its zone: no scoring.
    let mut g = game("+R8/9/9/4K4/9/9/9/4k4/9 b B2G2S2N2L6Prb2g2s2n2l12p 1");
    assert!(matches!(
        g.score_impasse(),
        Err(GameError::BadDeclaration(_))
    ));
    assert_eq!(g.outcome(), None);
}

/// Black's king on 5b with a dragon, a horse and 8 pawns in the camp (18
/// points) and 2G 2S 2N 2L plus `hand_pawns` pawns in hand: 26 + `hand_pawns`.
fn declaration_sfen(hand_pawns: u32) -> String {
    let count = |n: u32, c: char| match n {
        0 => String::new(),
        1 => c.to_string(),
        _ => format!("{n}{c}"),
    };
    format!(
        "+R+B7/4K4/PPPP1PPPP/9/9/9/9/4k4/9 b 2G2S2N2L{}rb2g2s2n2l{} 1",
        count(hand_pawns, 'P'),
        count(10 - hand_pawns, 'p')
    )
}

fn declare(sfen: &str, rule: EnteringKingRule) -> Result<Outcome, GameError> {
    let mut g = game_with(sfen, rule);
    let can = g.can_declare();
    let r = g.declare();
    assert_eq!(can.is_ok(), r.is_ok(), "can_declare agrees with declare");
    r
}

#[test]
fn csa_rule_27_declaration() {
    let black_wins = Ok(Outcome {
        winner: Some(Color::Black),
        reason: Reason::Declaration,
    });
    let white_wins = Ok(Outcome {
        winner: Some(Color::White),
        reason: Reason::Declaration,
    });
    let rule = EnteringKingRule::CsaRule27;
    let g = game(&declaration_sfen(2));
    assert_eq!(g.impasse_points(Color::Black), 28);
    assert_eq!(declare(&declaration_sfen(2), rule), black_wins);
    assert!(
        declare(&declaration_sfen(1), rule).is_err(),
        "Black needs 28"
    );
    // White needs only 27.
    assert_eq!(declare(&flip_sfen(&declaration_sfen(1)), rule), white_wins);
    assert!(declare(&flip_sfen(&declaration_sfen(0)), rule).is_err());
}

#[test]
fn csa_rule_24_declaration_needs_31_points_for_either_side() {
    let rule = EnteringKingRule::CsaRule24;
    assert_eq!(game(&declaration_sfen(5)).impasse_points(Color::Black), 31);
    assert_eq!(
        declare(&declaration_sfen(5), rule).map(|o| o.winner),
        Ok(Some(Color::Black))
    );
    assert!(
        declare(&declaration_sfen(4), rule).is_err(),
        "Black needs 31, not 30"
    );
    assert_eq!(
        declare(&flip_sfen(&declaration_sfen(5)), rule).map(|o| o.winner),
        Ok(Some(Color::White))
    );
    assert!(
        declare(&flip_sfen(&declaration_sfen(4)), rule).is_err(),
        "White needs 31, not 30"
    );
}

#[test]
fn declaration_needs_ten_pieces_in_the_camp() {
    // 28 points but the pawn from 1c is in hand: 9 other pieces in the camp.
    let sfen = "+R+B7/4K4/PPPP1PPP1/9/9/9/9/4k4/9 b 2G2S2N2L3Prb2g2s2n2l8p 1";
    let g = game(sfen);
    assert_eq!(g.impasse_points(Color::Black), 28);
    let err = g.can_declare().unwrap_err();
    assert_eq!(err, DeclarationError::TooFewPieces { others: 9 }, "{err}");
    assert!(matches!(
        declare(sfen, EnteringKingRule::CsaRule27),
        Err(GameError::BadDeclaration(_))
    ));
    // Pieces outside the camp do not count: a pawn on 1d instead of 1c.
    let outside = "+R+B7/4K4/PPPP1PPP1/8P/9/9/9/4k4/9 b 2G2S2N2L2Prb2g2s2n2l8p 1";
    assert!(declare(outside, EnteringKingRule::CsaRule27).is_err());
}

#[test]
fn declaration_refused_in_check_or_outside_the_camp() {
    // A white gold on 5a checks the king on 5b.
    let check = "+R+B2g4/4K4/PPPP1PPPP/9/9/9/9/4k4/9 b 2G2S2N2L2Prbg2s2n2l8p 1";
    assert!(pos(check).in_check());
    assert!(declare(check, EnteringKingRule::CsaRule27).is_err());
    // The king on 5d, outside the camp.
    let outside = "+R+B7/9/PPPP1PPPP/4K4/9/9/9/4k4/9 b 2G2S2N2L2Prb2g2s2n2l8p 1";
    assert!(declare(outside, EnteringKingRule::CsaRule27).is_err());
    // Only the side to move declares.
    let sfen = declaration_sfen(10).replace(" b ", " w ");
    assert!(declare(&sfen, EnteringKingRule::CsaRule27).is_err());
}

#[test]
fn no_entering_king_and_try_rule_refuse_declarations() {
    let sfen = declaration_sfen(10);
    assert!(declare(&sfen, EnteringKingRule::CsaRule27).is_ok());
    assert!(declare(&sfen, EnteringKingRule::CsaRule24).is_ok());
    for rule in [EnteringKingRule::NoEnteringKing, EnteringKingRule::TryRule] {
        let mut g = game_with(&sfen, rule);
        assert!(g.can_declare().is_err(), "{rule:?}");
        assert!(
            matches!(g.declare(), Err(GameError::BadDeclaration(_))),
            "{rule:?}"
        );
        assert_eq!(g.outcome(), None);
    }
}

#[test]
fn try_rule_king_on_the_enemy_king_square_wins() {
    let sfen = "9/4K4/9/9/9/9/9/9/8k b G 1";
    let mut g = game_with(sfen, EnteringKingRule::TryRule);
    play(&mut g, "5b5a");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Try
        })
    );
    // Another piece on 5a does not win, nor does the king elsewhere.
    let mut g = game_with("9/4K4/9/9/9/9/9/9/8k b G 1", EnteringKingRule::TryRule);
    play(&mut g, "G*5a 1i1h 5b4a");
    assert_eq!(g.outcome(), None);
    // Under another rule the move to 5a is just a move.
    let mut g = game_with(sfen, EnteringKingRule::CsaRule27);
    play(&mut g, "5b5a");
    assert_eq!(g.outcome(), None);
    // White's try square is 5i.
    let mut g = game_with(&flip_sfen(sfen), EnteringKingRule::TryRule);
    play(&mut g, "5h5i");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::Try
        })
    );
}

// ---------------------------------------------------------------------------
// Other endings.
// ---------------------------------------------------------------------------

#[test]
fn max_plies_ends_in_a_draw() {
    let mut g = Game::new(
        pos("startpos"),
        GameOptions {
            entering_king: EnteringKingRule::CsaRule27,
            max_plies: Some(4),
        },
    );
    play(&mut g, "7g7f 3c3d 2g2f");
    assert_eq!(g.outcome(), None);
    play(&mut g, "8c8d");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::MaxMoves
        })
    );
    assert!(matches!(g.play_usi("2f2e"), Err(GameError::GameOver(_))));
    // A mate on the last allowed ply is still a mate.
    let mut g = Game::new(
        pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
        GameOptions {
            entering_king: EnteringKingRule::CsaRule27,
            max_plies: Some(1),
        },
    );
    play(&mut g, "G*5b");
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Checkmate));
    // Off by default.
    let mut g = Game::new(pos("startpos"), GameOptions::default());
    play(&mut g, "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e");
    assert_eq!(g.outcome(), None);
}

#[test]
fn checkmate_wins() {
    // A head mate: a gold drop on 5b protected by the pawn on 5c.
    let mut g = game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    play(&mut g, "G*5b");
    assert!(g.position().in_check());
    assert!(g.position().legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Checkmate
        })
    );
    assert!(matches!(g.play_usi("5a4a"), Err(GameError::GameOver(_))));
}

#[test]
fn no_legal_move_loses() {
    // The silver steps to 3b: White's king on 1a has no move but is not in check.
    let mut g = game("8k/9/5S1G1/9/9/9/9/9/K8 b - 1");
    play(&mut g, "4c3b");
    assert!(!g.position().in_check());
    assert!(g.position().legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::NoLegalMoves
        })
    );
    // A start position without legal moves is over at once.
    let g = game("8k/6S2/7G1/9/9/9/9/9/K8 w - 1");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::NoLegalMoves
        })
    );
}

// ---------------------------------------------------------------------------
// SFEN validation.
// ---------------------------------------------------------------------------

fn problems(sfen: &str) -> Vec<SfenProblem> {
    match Position::from_sfen(rules(), sfen, SfenMode::Strict) {
        Ok(p) => panic!("{sfen} should be refused, got {p:?}"),
        Err(e) => e.problems,
    }
}

#[test]
fn sfen_bad_row_length() {
    assert_eq!(
        problems("4k3/9/9/9/9/9/9/9/4K4 b - 1"),
        vec![SfenProblem::RankLength {
            rank: 'a',
            expected: 9,
            found: 8
        }]
    );
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/9/4K5 b - 1"),
        vec![SfenProblem::RankLength {
            rank: 'i',
            expected: 9,
            found: 10
        }]
    );
    assert!(matches!(
        problems("4k4/9/9/9/9/9/9/4K4 b - 1")[..],
        [SfenProblem::RankCount {
            expected: 9,
            found: 8
        }]
    ));
}

#[test]
fn sfen_unknown_piece() {
    assert_eq!(
        problems("4k3X/9/9/9/9/9/9/9/4K4 b - 1"),
        vec![SfenProblem::UnknownPiece("X".into())]
    );
    assert!(matches!(
        problems("4k3+G/9/9/9/9/9/9/9/4K4 b - 1")[..],
        [SfenProblem::BadPromotion(_)]
    ));
}

#[test]
fn sfen_missing_and_extra_king() {
    assert_eq!(
        problems("9/9/9/9/9/9/9/9/4K4 b - 1"),
        vec![SfenProblem::MissingKing(Color::White)]
    );
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/9/9 w - 1"),
        vec![SfenProblem::MissingKing(Color::Black)]
    );
    assert_eq!(
        problems("3kk4/9/9/9/9/9/9/9/4K4 b - 1"),
        vec![SfenProblem::ExtraKing(Color::White)]
    );
}

#[test]
fn sfen_dead_pieces() {
    let dead = |piece: &str, square: &str| SfenProblem::DeadPiece {
        piece: piece.into(),
        square: square.into(),
    };
    assert_eq!(
        problems("P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        vec![dead("P", "9a")]
    );
    assert_eq!(
        problems("L3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        vec![dead("L", "9a")]
    );
    assert_eq!(
        problems("4k4/N8/9/9/9/9/9/9/4K4 b - 1"),
        vec![dead("N", "9b")]
    );
    assert_eq!(
        problems("N3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        vec![dead("N", "9a")]
    );
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/9/4K3p b - 1"),
        vec![dead("p", "1i")]
    );
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/9/4K3l b - 1"),
        vec![dead("l", "1i")]
    );
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/8n/4K4 b - 1"),
        vec![dead("n", "1h")]
    );
    // Promoted, they are fine; a white pawn on rank a is fine.
    pos("+P3k4/+N8/9/9/9/9/9/9/4K3+l b - 1");
    pos("p3k4/9/9/9/9/9/9/9/4K4 b - 1");
}

#[test]
fn sfen_nifu_on_board() {
    assert_eq!(
        problems("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1"),
        vec![SfenProblem::TwoPawns {
            color: Color::Black,
            file: 5
        }]
    );
    assert_eq!(
        problems("4k4/p8/p8/9/9/9/9/9/4K4 b - 1"),
        vec![SfenProblem::TwoPawns {
            color: Color::White,
            file: 9
        }]
    );
    // A pawn and a tokin, or pawns of both colours, are fine.
    pos("4k4/9/9/9/4P4/9/4+P4/9/4K4 b - 1");
    pos("4k4/9/4p4/9/9/9/4P4/9/4K4 b - 1");
}

#[test]
fn sfen_side_not_to_move_in_check() {
    assert_eq!(
        problems("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
        vec![SfenProblem::OpponentInCheck]
    );
    // The side to move may be in check.
    assert!(pos("4k4/4R4/9/9/9/9/9/9/4K4 w - 1").in_check());
}

#[test]
fn sfen_check_is_reported_with_other_problems() {
    let found = problems("4k4/4R4/9/9/9/9/9/9/4K4 b - x");
    assert!(
        found.contains(&SfenProblem::BadMoveNumber("x".into())),
        "{found:?}"
    );
    assert!(found.contains(&SfenProblem::OpponentInCheck), "{found:?}");
    let found = problems("4k4/4R4/9/9/4P4/9/4P4/9/4K4 b - 1");
    assert!(found.contains(&SfenProblem::OpponentInCheck), "{found:?}");
}

#[test]
fn sfen_impossible_counts() {
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"),
        vec![SfenProblem::TooMany {
            piece: "P".into(),
            count: 19,
            max: 18
        }]
    );
    // The rook on 5e also checks the king on 5a: both problems are listed.
    assert_eq!(
        problems("4k4/9/9/9/4R4/9/9/9/4K4 b Rr 1"),
        vec![
            SfenProblem::TooMany {
                piece: "R".into(),
                count: 3,
                max: 2
            },
            SfenProblem::OpponentInCheck
        ]
    );
    // 18 pawns in all, one of them promoted: fine.
    pos("4k4/9/9/9/9/9/9/4+P4/4K4 b 9P8p 1");
    assert!(matches!(
        problems("4k4/9/9/9/9/9/9/4+P4/4K4 b 9P9p 1")[..],
        [SfenProblem::TooMany { count: 19, .. }]
    ));
}

#[test]
fn sfen_reports_every_problem_at_once() {
    // Rank a covers 8 squares and has a pawn on 9a, Black has no king and 20 pawns.
    let found = problems("P3k3/9/9/9/9/9/9/9/9 b 19P x");
    for want in [
        SfenProblem::RankLength {
            rank: 'a',
            expected: 9,
            found: 8,
        },
        SfenProblem::BadMoveNumber("x".into()),
        SfenProblem::MissingKing(Color::Black),
        SfenProblem::DeadPiece {
            piece: "P".into(),
            square: "9a".into(),
        },
        SfenProblem::TooMany {
            piece: "P".into(),
            count: 20,
            max: 18,
        },
    ] {
        assert!(found.contains(&want), "{want:?} missing from {found:?}");
    }
    assert_eq!(found.len(), 5, "{found:?}");
    let found = problems("4k4/9/9/4P4/9/4P4/9/9/3kK4 z - 1");
    assert!(
        found.contains(&SfenProblem::BadSide("z".into())),
        "{found:?}"
    );
    assert!(
        found.contains(&SfenProblem::ExtraKing(Color::White)),
        "{found:?}"
    );
    assert!(
        found.contains(&SfenProblem::TwoPawns {
            color: Color::Black,
            file: 5
        }),
        "{found:?}"
    );
}

#[test]
fn tsume_attacker_without_king_and_defender_holds_the_rest() {
    let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
    assert_eq!(problems(sfen), vec![SfenProblem::MissingKing(Color::Black)]);
    let p = Position::from_sfen(rules(), sfen, SfenMode::Tsume).expect("tsume");
    assert_eq!(p.king_square(Color::Black), None);
    let kind = |code: &str| rules().kind_by_code(code).unwrap();
    let want: [(&str, u8, u8); 7] = [
        ("R", 0, 2),
        ("B", 0, 2),
        ("G", 1, 3),
        ("S", 0, 4),
        ("N", 0, 4),
        ("L", 0, 4),
        ("P", 0, 17),
    ];
    for (code, black, white) in want {
        let k: Kind = kind(code);
        assert_eq!(p.hand_count(Color::Black, k), black, "{code}");
        assert_eq!(p.hand_count(Color::White, k), white, "{code}");
    }
    assert_eq!(p.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    // The attacker can move and mate: G*5b is protected by the pawn.
    let after = p.after(p.parse_move("G*5b").unwrap());
    assert!(after.in_check());
    assert!(!after.has_legal_move());
    // The defender must still have a king, even in tsume mode.
    assert!(Position::from_sfen(rules(), "9/9/4P4/9/9/9/9/9/4K4 b G 1", SfenMode::Tsume).is_err());
    // White attacking without a king: Black defends and holds the rest.
    let w = Position::from_sfen(rules(), "9/9/9/9/9/9/4p4/9/4K4 w g 1", SfenMode::Tsume)
        .expect("tsume with White attacking");
    assert_eq!(w.to_sfen(), "9/9/9/9/9/9/4p4/9/4K4 w 2R2B3G4S4N4L17Pg 1");
    // With both kings present nothing is added.
    let q = Position::from_sfen(rules(), "4k4/9/9/9/9/9/9/9/4K4 b G 1", SfenMode::Tsume).unwrap();
    assert_eq!(q.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G 1");
}
