//! Properties of cannon shogi and dai dai shogi over random playouts from the
//! reference perft positions: the fast legality filter (per-ray pins and
//! screens, hook crossings, bulk acceptance) agrees with making every
//! pseudo-legal move and testing the king; the bulk count agrees with the
//! list; make/unmake restores the position and its hash, which equals the hash
//! of the re-parsed SFEN; SFEN and USI move text round-trip; the fast check
//! test and the attackers of a square agree with the reference attack walk,
//! and no checking move escapes the quick test `may_give_check`; the
//! capture generator lists every legal capture (lion double captures and
//! hook moves included) and no other move.

use banmen_rules::{
    rules_17x17_with, rules_9x9_with, BitBoard, Color, Move, Position, Rules, SfenMode, VariantName,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

const CANNON: &str = include_str!("data/perft-cannon.tsv");
const DAIDAI: &str = include_str!("data/perft-daidai.tsv");

fn starts(table: &str) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for line in table.lines().skip(1) {
        if let Some(sfen) = line.split('\t').nth(1) {
            if seen.insert(sfen.to_string()) {
                out.push(sfen.to_string());
            }
        }
    }
    out
}

/// Plays a random game, checking every position on the way.
fn playout<B: BitBoard>(
    rules: &'static Rules<B>,
    sfen: &str,
    choices: &[u32],
) -> Result<(), TestCaseError> {
    let mut pos = Position::from_sfen(rules, sfen, SfenMode::Strict)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"));
    for &c in choices {
        let fast: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
        let slow: BTreeSet<Move> = pos.legal_moves_reference().into_iter().collect();
        let name = |set: &BTreeSet<Move>| -> Vec<String> {
            set.iter().map(|&m| pos.move_to_usi(m)).collect()
        };
        prop_assert_eq!(
            name(&fast),
            name(&slow),
            "legal moves differ in {}",
            pos.to_sfen()
        );
        prop_assert_eq!(pos.count_legal_moves(), fast.len() as u64);
        // The capture generator (the quiescence search's) lists every legal
        // move that takes an enemy piece, on its destination or on a square
        // a lion passes, in its promoting form where it has one, and nothing
        // else that is legal.
        let them = !pos.side_to_move();
        let takes = |s: banmen_rules::Square| pos.piece_at(s).is_some_and(|p| p.color == them);
        let mut listed = Vec::new();
        pos.capture_moves_into(&mut listed);
        let listed: BTreeSet<Move> = listed.into_iter().filter(|m| fast.contains(m)).collect();
        for &m in &fast {
            let captures = m.from().is_some() && (takes(m.to()) || m.mid().is_some_and(takes));
            prop_assert_eq!(
                pos.is_capture(m),
                captures,
                "is_capture({})",
                pos.move_to_usi(m)
            );
            let twin = listed.iter().any(|&l| {
                l.is_promotion()
                    && !m.is_promotion()
                    && (l.from(), l.mid(), l.mid2(), l.to())
                        == (m.from(), m.mid(), m.mid2(), m.to())
            });
            prop_assert_eq!(
                listed.contains(&m) || twin,
                captures,
                "capture generator and {} in {}",
                pos.move_to_usi(m),
                pos.to_sfen()
            );
        }
        let moves: Vec<Move> = fast.into_iter().collect();
        // The fast check test (the search asks it after every move it makes)
        // agrees with the reference attack walk, here and after a quarter of
        // the moves, for both kings.
        for (i, &m) in moves.iter().enumerate() {
            // The hash a move would give, asked before it is made.
            prop_assert_eq!(
                pos.hash_after(m),
                pos.after(m).hash(),
                "hash_after({}) in {}",
                pos.move_to_usi(m),
                pos.to_sfen()
            );
            if i % 4 != c as usize % 4 {
                continue;
            }
            let after = pos.after(m);
            prop_assert!(
                pos.may_give_check(m) || !after.is_king_attacked_reference(!pos.side_to_move()),
                "{} checks in {} but may_give_check says no",
                pos.move_to_usi(m),
                pos.to_sfen()
            );
            for side in [Color::Black, Color::White] {
                prop_assert_eq!(
                    after.is_king_attacked(side),
                    after.is_king_attacked_reference(side),
                    "check test of {:?} after {} in {}",
                    side,
                    pos.move_to_usi(m),
                    pos.to_sfen()
                );
            }
        }
        for side in [Color::Black, Color::White] {
            prop_assert_eq!(
                pos.is_king_attacked(side),
                pos.is_king_attacked_reference(side)
            );
            // The attackers of a fifth of the squares (the search's exchange
            // and defence tests ask them), with the occupancy as it is and
            // with one piece lifted (as when a piece moves away).
            let occ = pos.occupied();
            let lifted = pos.color_bb(!side).squares().nth(c as usize % 7);
            for sq in pos.rules().geometry.all() {
                if sq.index() % 5 != c as usize % 5 {
                    continue;
                }
                for o in [Some(occ), lifted.map(|l| occ ^ B::from_square(l))]
                    .into_iter()
                    .flatten()
                {
                    prop_assert_eq!(
                        pos.attackers_to(sq, side, o),
                        pos.attackers_to_reference(sq, side, o),
                        "attackers of {:?} on square {} in {}",
                        side,
                        sq.index(),
                        pos.to_sfen()
                    );
                }
            }
        }
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        // USI text round-trips to the same move.
        let text = pos.move_to_usi(m);
        prop_assert_eq!(pos.parse_move(&text).ok(), Some(m), "{}", text);
        let before = (pos.to_sfen(), pos.hash());
        let undo = pos.make_move(m);
        if let Err(e) = pos.check_invariants() {
            prop_assert!(false, "after {}: {}", text, e);
        }
        let sfen = pos.to_sfen();
        let reparsed = Position::from_sfen(rules, &sfen, SfenMode::Strict)
            .unwrap_or_else(|e| panic!("{sfen} after {text}: {e}"));
        prop_assert_eq!(
            reparsed.hash(),
            pos.hash(),
            "hash after {} is path-dependent",
            text
        );
        prop_assert_eq!(reparsed.to_sfen(), sfen);
        pos.unmake_move(m, undo);
        prop_assert_eq!((pos.to_sfen(), pos.hash()), before);
        pos.make_move(m);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn cannon_fast_legality_matches_make_and_test(start in 0usize..64, choices in prop::collection::vec(any::<u32>(), 1..240)) {
        let starts = starts(CANNON);
        let rules = rules_9x9_with(VariantName::CannonShogi, "").unwrap();
        playout(rules, &starts[start % starts.len()], &choices)?;
    }

    #[test]
    fn cannon_leap_reading_fast_legality_matches_make_and_test(start in 0usize..64, choices in prop::collection::vec(any::<u32>(), 1..120)) {
        let starts = starts(CANNON);
        let rules = rules_9x9_with(VariantName::CannonShogi, "flying-cannon=leap").unwrap();
        playout(rules, &starts[start % starts.len()], &choices)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn daidai_japanese_readings_fast_legality_matches_make_and_test(start in 0usize..400, preset in 0usize..3, choices in prop::collection::vec(any::<u32>(), 1..80)) {
        let starts = starts(DAIDAI);
        let options = ["ja", "hachu", "furious-fiend=lion+liondog"][preset];
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, options).unwrap();
        playout(rules, &starts[start % starts.len()], &choices)?;
    }

    #[test]
    fn daidai_fast_legality_matches_make_and_test(start in 0usize..400, choices in prop::collection::vec(any::<u32>(), 1..120)) {
        let starts = starts(DAIDAI);
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        playout(rules, &starts[start % starts.len()], &choices)?;
    }
}
