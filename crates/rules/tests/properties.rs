//! Properties over random playouts from the start position and from the
//! reference positions of `tests/data/perft-standard.tsv`:
//! the fast legal-move generator agrees with the make-and-test reference,
//! make/unmake restores everything, SFEN round-trips, USI move text
//! round-trips, uchifuzume is decided by the position's replies, and the
//! bulk-counting perft agrees with the lists. The incremental hash equals the hash
//! of the re-parsed position (it does not depend on the path).

use banmen_rules::{
    rules_9x9, Bb128, BitBoard, Color, IllegalMove, Move, MoveError, Position, SfenMode, UsiMove,
    VariantName,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

const PERFT: &str = include_str!("data/perft-standard.tsv");

/// The distinct start positions: `startpos` and every SFEN of the perft table.
fn starts() -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = vec!["startpos".to_string()];
    for line in PERFT.lines().skip(1) {
        let sfen = line.split('\t').next().unwrap_or("").trim();
        if !sfen.is_empty() && seen.insert(sfen.to_string()) {
            out.push(sfen.to_string());
        }
    }
    out
}

fn parse(sfen: &str) -> Position<Bb128> {
    let rules = rules_9x9(VariantName::Shogi).expect("standard shogi");
    Position::from_sfen(rules, sfen, SfenMode::Strict)
        .unwrap_or_else(|e| panic!("{sfen} should parse: {e}"))
}

/// Plays a random game of up to `choices.len()` plies from start `start`,
/// calling `check` on every position (with its legal moves) before the move.
/// One choice in four picks a checking move when there is one, so that the
/// playouts meet checks, double checks, pins and mates more often.
fn playout(
    start: usize,
    choices: &[u32],
    mut check: impl FnMut(&mut Position<Bb128>, &[Move]) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let starts = starts();
    let mut pos = parse(&starts[start % starts.len()]);
    for &c in choices {
        let moves = pos.legal_moves();
        check(&mut pos, &moves)?;
        if moves.is_empty() {
            break;
        }
        let pick = if c % 4 == 0 {
            let checks: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect();
            if checks.is_empty() {
                moves[c as usize / 4 % moves.len()]
            } else {
                checks[c as usize / 4 % checks.len()]
            }
        } else {
            moves[c as usize % moves.len()]
        };
        pos.make_move(pick);
    }
    let moves = pos.legal_moves();
    check(&mut pos, &moves)
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        // Failures print their minimal input; no regression files in the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Fixed positions where the fast and reference generators must agree: the
/// perft table, constructed pins and double checks, and a position where an
/// uncommitted movegen change once listed an extra move.
#[test]
fn legal_moves_match_the_reference_on_fixed_positions() {
    let mut sfens = starts();
    sfens.extend(
        [
            "6gn+P/2s2g1b1/n1kppsp1L/l8/p1p4pp/PP3pPP1/LpPPrP1GN/1B1G1R2S/1N1SK3L b p 69",
            "4r3k/9/5n3/5G3/4K4/9/9/9/9 b 2P 1",
            "4r3k/9/9/9/9/4R4/9/9/4K4 b - 1",
            "8k/9/9/9/9/7b1/9/5S3/4K4 b - 1",
            "4l3k/9/9/9/4G4/9/9/9/4K4 b - 1",
            "R6sk/9/7G1/9/9/9/9/9/4K4 b P 1",
            "R6gk/9/6S2/7N1/9/9/9/9/K8 b P 1",
        ]
        .map(String::from),
    );
    for sfen in &sfens {
        let pos = parse(sfen);
        let fast = sorted(pos.legal_moves());
        let reference = sorted(pos.legal_moves_reference());
        let text = |v: &[Move]| -> Vec<String> { v.iter().map(|&m| pos.move_to_usi(m)).collect() };
        assert_eq!(text(&fast), text(&reference), "{sfen}");
    }
}

#[test]
fn the_start_table_is_read() {
    let s = starts();
    assert!(s.len() >= 20, "{s:?}");
    for sfen in &s {
        parse(sfen);
    }
}

proptest! {
    #![proptest_config(config())]

    /// (a) The fast generator (checkers and pins) lists exactly the moves that
    /// the reference (pseudo-legal, make, test) keeps, without duplicates.
    #[test]
    fn legal_moves_match_the_reference(
        start in 0usize..64,
        choices in prop::collection::vec(any::<u32>(), 1..200),
    ) {
        playout(start, &choices, |pos, moves| {
            let fast = sorted(moves.to_vec());
            let mut dedup = fast.clone();
            dedup.dedup();
            prop_assert_eq!(dedup.len(), fast.len(), "duplicate moves in {}", pos.to_sfen());
            let reference = sorted(pos.legal_moves_reference());
            if fast != reference {
                let text = |v: &[Move]| -> BTreeSet<String> {
                    v.iter().map(|&m| pos.move_to_usi(m)).collect()
                };
                let (f, r) = (text(&fast), text(&reference));
                let extra: Vec<_> = f.difference(&r).collect();
                let missing: Vec<_> = r.difference(&f).collect();
                prop_assert!(
                    false,
                    "{}: fast generator has extra {:?}, misses {:?}",
                    pos.to_sfen(),
                    extra,
                    missing
                );
            }
            prop_assert_eq!(pos.has_legal_move(), !moves.is_empty());
            // The bulk counter agrees with the list.
            prop_assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{}", pos.to_sfen());
            // The capture generator gives every legal capture (with its
            // promotion where the piece may promote) and nothing else legal.
            let captures = pos.legal_moves().into_iter().filter(|&m| {
                m.from().is_some() && pos.piece_at(m.to()).is_some()
            });
            let mut listed = Vec::new();
            pos.capture_moves_into(&mut listed);
            let mut scratch = pos.clone();
            let legal_listed: BTreeSet<Move> = listed
                .into_iter()
                .filter(|&m| {
                    let undo = scratch.make_move(m);
                    let ok = !scratch.is_king_attacked(!scratch.side_to_move());
                    scratch.unmake_move(m, undo);
                    ok
                })
                .collect();
            for m in captures {
                let promoting = pos.rules().kind(pos.piece_at(m.from().unwrap()).unwrap().kind).promotes_to.is_some()
                    && pos.legal_moves().contains(&Move::board(m.from().unwrap(), m.to(), true));
                if m.is_promotion() == promoting {
                    prop_assert!(legal_listed.contains(&m), "{}: capture {} missing", pos.to_sfen(), pos.move_to_usi(m));
                }
            }
            for &m in &legal_listed {
                prop_assert!(moves.contains(&m), "{}: {} is not legal", pos.to_sfen(), pos.move_to_usi(m));
            }
            Ok(())
        })?;
    }

    /// Perft with bulk counting at the last ply equals the sum of the children's
    /// listed move counts (checked on every eighth position of a playout).
    #[test]
    fn perft_2_matches_listed_children(
        start in 0usize..64,
        choices in prop::collection::vec(any::<u32>(), 1..200),
    ) {
        let mut ply = 0;
        playout(start, &choices, |pos, moves| {
            ply += 1;
            if ply % 8 != 1 {
                return Ok(());
            }
            let mut sum = 0u64;
            for &m in moves {
                sum += pos.after(m).legal_moves().len() as u64;
            }
            prop_assert_eq!(pos.perft(1), moves.len() as u64);
            prop_assert_eq!(pos.perft(2), sum, "{}", pos.to_sfen());
            Ok(())
        })?;
    }

    /// (b) make/unmake restores the position, its SFEN, move number and hash,
    /// for every legal move at every ply.
    #[test]
    fn make_unmake_restores_everything(
        start in 0usize..64,
        choices in prop::collection::vec(any::<u32>(), 1..200),
    ) {
        playout(start, &choices, |pos, moves| {
            let before = pos.clone();
            let sfen = pos.to_sfen();
            let hash = pos.hash();
            for &m in moves {
                let undo = pos.make_move(m);
                prop_assert_ne!(pos.hash(), hash, "{} changed nothing", before.move_to_usi(m));
                prop_assert_eq!(before.hash_after(m), pos.hash(), "hash_after({})", before.move_to_usi(m));
                prop_assert_ne!(&*pos, &before);
                if let Err(e) = pos.check_invariants() {
                    prop_assert!(false, "after {}: {}", before.move_to_usi(m), e);
                }
                pos.unmake_move(m, undo);
                if let Err(e) = pos.check_invariants() {
                    prop_assert!(false, "after undoing {}: {}", before.move_to_usi(m), e);
                }
                prop_assert_eq!(&*pos, &before);
                prop_assert_eq!(pos.hash(), hash);
                prop_assert_eq!(pos.move_number(), before.move_number());
            }
            prop_assert_eq!(pos.to_sfen(), sfen);
            Ok(())
        })?;
    }

    /// (b) After a move, the incremental hash equals the hash of the position
    /// re-parsed from its SFEN (the hash depends on the position, not the path).
    #[test]
    fn hash_after_make_equals_hash_of_reparse(
        start in 0usize..64,
        choices in prop::collection::vec(any::<u32>(), 1..200),
    ) {
        playout(start, &choices, |pos, moves| {
            let sfen = pos.to_sfen();
            prop_assert_eq!(pos.hash(), parse(&sfen).hash(), "{}", sfen);
            for (i, &m) in moves.iter().enumerate() {
                // Re-parsing every child is the expensive part: all of them in
                // small lists, a spread of them in large ones.
                if moves.len() > 40 && i % 7 != 0 {
                    continue;
                }
                let undo = pos.make_move(m);
                let text = pos.to_sfen();
                let reparsed = parse(&text);
                let ok = pos.hash() == reparsed.hash();
                pos.unmake_move(m, undo);
                prop_assert!(
                    ok,
                    "hash after {} from {} differs from the hash of the re-parsed {}",
                    pos.move_to_usi(m),
                    sfen,
                    text
                );
            }
            Ok(())
        })?;
    }

    /// (c) SFEN parse and write round-trip.
    #[test]
    fn sfen_round_trips(
        start in 0usize..64,
        choices in prop::collection::vec(any::<u32>(), 1..200),
    ) {
        playout(start, &choices, |pos, _| {
            let text = pos.to_sfen();
            let back = parse(&text);
            prop_assert_eq!(back.to_sfen(), text.clone());
            prop_assert_eq!(&back, &*pos);
            prop_assert_eq!(back.side_to_move(), pos.side_to_move());
            prop_assert_eq!(back.move_number(), pos.move_number());
            Ok(())
        })?;
    }

    /// Uchifuzume, checked independently: a pawn drop that gives check (and
    /// is otherwise allowed) is listed exactly when the opponent then has a
    /// legal reply by the reference generator; refused drops say DropPawnMate.
    #[test]
    fn checking_pawn_drop_is_listed_iff_it_does_not_mate(
        start in 0usize..64,
        choices in prop::collection::vec(any::<u32>(), 1..200),
    ) {
        playout(start, &choices, |pos, moves| {
            let rules = pos.rules();
            let g = rules.geometry;
            let pawn = rules.kind_by_code("P").expect("pawn");
            let us = pos.side_to_move();
            let Some(king) = pos.king_square(!us) else { return Ok(()) };
            if pos.hand_count(us, pawn) == 0 {
                return Ok(());
            }
            let ahead = if us == Color::Black { 1 } else { -1 };
            let Some(sq) = g.square(g.file(king), g.rank(king) + ahead) else { return Ok(()) };
            let own_pawn_on_file = (0..g.ranks as i32).any(|r| {
                g.square(g.file(king), r).and_then(|s| pos.piece_at(s))
                    == Some(banmen_rules::Piece { color: us, kind: pawn })
            });
            if pos.piece_at(sq).is_some()
                || own_pawn_on_file
                || rules.dead_squares(us, pawn).has(sq)
            {
                return Ok(());
            }
            let m = Move::drop(pawn, sq);
            let after = pos.after(m);
            if after.is_king_attacked(us) {
                return Ok(());
            }
            prop_assert!(after.in_check());
            let mates = after.legal_moves_reference().is_empty();
            prop_assert_eq!(
                moves.contains(&m),
                !mates,
                "{} P*{}: mate = {}",
                pos.to_sfen(),
                g.name(sq),
                mates
            );
            if mates {
                prop_assert_eq!(
                    pos.parse_move(&pos.move_to_usi(m)),
                    Err(MoveError::Illegal(IllegalMove::DropPawnMate))
                );
            }
            Ok(())
        })?;
    }

    /// (d) The USI text of every legal move parses back to the same text and,
    /// against the position, to the same move.
    #[test]
    fn usi_move_text_round_trips(
        start in 0usize..64,
        choices in prop::collection::vec(any::<u32>(), 1..120),
    ) {
        playout(start, &choices, |pos, moves| {
            for &m in moves {
                let text = pos.move_to_usi(m);
                let usi: UsiMove = text
                    .parse()
                    .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
                prop_assert_eq!(usi.to_string(), text.clone());
                prop_assert_eq!(usi.to_move(pos), Ok(m), "{} in {}", text, pos.to_sfen());
                prop_assert_eq!(pos.parse_move(&text), Ok(m));
            }
            Ok(())
        })?;
    }
}

/// The smallest cases of the hash bug, deterministic.
#[test]
fn hash_after_make_equals_hash_of_reparsed_sfen() {
    for (sfen, moves) in [
        // A king step with a pawn in hand.
        ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "5i5h"),
        // A capture from the start position.
        ("startpos", "7g7f 3c3d 8h2b+"),
        ("startpos", "7g7f 3c3d 8h2b+ 3a2b"),
    ] {
        let mut pos = parse(sfen);
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let text = pos.to_sfen();
        assert_eq!(
            pos.hash(),
            parse(&text).hash(),
            "after {moves} from {sfen}: {text}"
        );
    }
}
