//! Helpers shared by the integration tests.

use banmen_rules::testing::XorShift as Rng;

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
