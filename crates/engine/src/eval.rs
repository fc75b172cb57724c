//! Static evaluation: material on the board and in hand, placement, and king
//! safety, from the side to move's point of view, in centipawns.
//!
//! Values come from tables built once per rule set. Standard shogi's pieces on
//! 9x9 boards take the values engines use (Bonanza's, rounded); every other
//! kind — cannons, and all of dai dai shogi — is valued by its mobility: the
//! average number of squares it attacks from every square of the board, on an
//! empty board and on a sparsely filled one (so that hoppers, which need a
//! screen, are not valued at zero).

use banmen_rules::{BitBoard, Color, Kind, Position, Rules, Square};

/// Extra value of a piece in hand over the same piece on the board: a piece in
/// hand can be dropped anywhere.
const HAND_BONUS_PERCENT: i32 = 115;

/// The side to move's advantage of having the move.
const TEMPO: i32 = 20;

/// Values of standard shogi's pieces (P L N S G B R and promoted forms), and
/// of cannon shogi's cannons: mobility counts only the squares a piece may
/// capture on, which undervalues the cannons (a gold cannon moves as a rook
/// but captures only by hopping) to about a pawn each. By analogy: the gold
/// cannon (mRcpR) below a rook, the copper cannon (mBcpB) below a bishop, the
/// hop-only silver (pR) and iron (pB) cannons below those, and their
/// promotions (a rook or bishop mover that also hops and steps) near a
/// promoted rook or bishop.
const STANDARD: [(&str, i32); 21] = [
    ("U", 560),
    ("A", 420),
    ("C", 480),
    ("I", 340),
    ("+U", 850),
    ("+A", 850),
    ("+C", 780),
    ("+I", 780),
    ("P", 90),
    ("L", 260),
    ("N", 290),
    ("S", 410),
    ("G", 490),
    ("B", 630),
    ("R", 710),
    ("+P", 530),
    ("+L", 510),
    ("+N", 520),
    ("+S", 500),
    ("+B", 900),
    ("+R", 1030),
];

/// Tables for evaluating positions of one rule set.
#[derive(Debug)]
pub struct Evaluator<B: BitBoard> {
    rules: &'static Rules<B>,
    kinds: usize,
    squares: usize,
    /// Board value of each kind (kings: 0).
    value: Vec<i32>,
    /// Value of each base kind in hand.
    hand_value: Vec<i32>,
    /// `[(color * kinds + kind) * squares + sq]`: material plus placement, from
    /// Black's point of view.
    psq: Vec<i32>,
    /// Squares within two king steps of each square.
    king_zone: Vec<B>,
}

impl<B: BitBoard> Evaluator<B> {
    /// Builds the tables for `rules` (a few milliseconds even for dai dai shogi).
    pub fn new(rules: &'static Rules<B>) -> Evaluator<B> {
        let g = rules.geometry;
        let squares = g.squares();
        let kinds = rules.kinds.len();
        let nine = g.files == 9;
        // A fixed sparse filling: every third diagonal.
        let mut sparse = B::EMPTY;
        for sq in g.all() {
            if (g.file(sq) + g.rank(sq)) % 3 == 0 {
                sparse.set(sq);
            }
        }
        let mut value = vec![0i32; kinds];
        for (k, info) in rules.kinds.iter().enumerate() {
            if info.royal {
                continue;
            }
            let known = STANDARD.iter().find(|(c, _)| *c == info.code).map(|p| p.1);
            value[k] = match known {
                Some(v) if nine => v,
                _ => {
                    let mut total = 0u32;
                    for sq in g.all() {
                        let kind = Kind(k as u8);
                        total += (rules.attacks(Color::Black, kind, sq, B::EMPTY)
                            & rules.board_mask())
                        .count();
                        total += (rules.attacks(Color::Black, kind, sq, sparse)
                            & rules.board_mask())
                        .count();
                    }
                    let mobility = total as f64 / (2 * squares) as f64;
                    (100.0 * mobility.max(0.5).powf(0.8)) as i32
                }
            };
        }
        let hand_value = (0..rules.n_base)
            .map(|k| value[k] * HAND_BONUS_PERCENT / 100)
            .collect();
        let mut king_zone = Vec::with_capacity(squares);
        for sq in g.all() {
            let mut z = B::EMPTY;
            for df in -2..=2 {
                for dr in -2..=2 {
                    if let Some(t) = g.square(g.file(sq) + df, g.rank(sq) + dr) {
                        z.set(t);
                    }
                }
            }
            king_zone.push(z);
        }
        let mut psq = vec![0i32; 2 * kinds * squares];
        let ranks = g.ranks as i32;
        for c in Color::ALL {
            let sign = if c == Color::Black { 1 } else { -1 };
            for (k, info) in rules.kinds.iter().enumerate() {
                for sq in g.all() {
                    // Ranks advanced from the owner's back rank.
                    let advance = match c {
                        Color::Black => ranks - 1 - g.rank(sq),
                        Color::White => g.rank(sq),
                    };
                    let centre = (g.files as i32 + 1) / 2;
                    let off_centre = (g.file(sq) - centre).abs();
                    let placement = if info.royal {
                        // A king is safest at home and off the centre file.
                        let home = if advance <= 1 { 25 } else { -8 * advance };
                        home + 3 * off_centre.min(3)
                    } else if value[k] < 450 && !info.promoted {
                        // Small pieces gain by advancing, up to the middle.
                        3 * advance.min(ranks / 2)
                    } else {
                        0
                    };
                    psq[(c.index() * kinds + k) * squares + sq.index()] =
                        sign * (value[k] + placement);
                }
            }
        }
        Evaluator {
            rules,
            kinds,
            squares,
            value,
            hand_value,
            psq,
            king_zone,
        }
    }

    /// The rules these tables belong to.
    pub fn rules(&self) -> &'static Rules<B> {
        self.rules
    }

    /// The board value of a kind (0 for kings).
    #[inline(always)]
    pub fn value(&self, k: Kind) -> i32 {
        self.value[k.index()]
    }

    /// The value of a king for move ordering (captures of kings never happen).
    #[inline(always)]
    pub fn order_value(&self, k: Kind) -> i32 {
        if self.value[k.index()] == 0 {
            2000
        } else {
            self.value[k.index()]
        }
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        let mut score = 0i32;
        let mut occ = pos.occupied();
        while let Some(sq) = occ.pop() {
            let p = pos.piece_at(sq).expect("occupied");
            score += self.psq
                [(p.color.index() * self.kinds + p.kind.index()) * self.squares + sq.index()];
        }
        let mut in_hand = [0i32; 2];
        if self.rules.variant.drops {
            for c in Color::ALL {
                let sign = if c == Color::Black { 1 } else { -1 };
                for k in 0..self.rules.n_base {
                    let n = pos.hand_count(c, Kind(k as u8)) as i32;
                    score += sign * n * self.hand_value[k];
                    in_hand[c.index()] += n;
                }
            }
        }
        for c in Color::ALL {
            let sign = if c == Color::Black { 1 } else { -1 };
            if let Some(k) = pos.king_square(c) {
                score -= sign * self.king_danger(pos, c, k, in_hand[(!c).index()]);
            }
        }
        let side = if pos.side_to_move() == Color::Black {
            1
        } else {
            -1
        };
        side * score + TEMPO
    }

    /// How threatened `c`'s king on `k` is: enemy pieces near it, worse with
    /// pieces in the enemy's hand; own pieces near it help.
    fn king_danger(&self, pos: &Position<B>, c: Color, k: Square, enemy_hand: i32) -> i32 {
        let zone = self.king_zone[k.index()];
        let attackers = (pos.color_bb(!c) & zone).count() as i32;
        let defenders = (pos.color_bb(c) & zone).count() as i32 - 1;
        let danger = attackers * (12 + 6 * attackers) + attackers * enemy_hand.min(8) * 6;
        danger - 8 * defenders.min(6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_17x17_with, rules_9x9, SfenMode, VariantName};

    #[test]
    fn start_positions_are_balanced() {
        for name in [VariantName::Shogi, VariantName::CannonShogi] {
            let rules = rules_9x9(name).unwrap();
            let e = Evaluator::new(rules);
            let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
            assert_eq!(e.evaluate(&pos), TEMPO, "{name}");
        }
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let e = Evaluator::new(rules);
        let pos = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).unwrap();
        assert_eq!(e.evaluate(&pos), TEMPO);
    }

    #[test]
    fn mobility_values_are_ordered() {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let e = Evaluator::new(rules);
        let value = |code: &str| e.value(rules.kind_by_code(code).unwrap());
        assert!(value("PA") < value("GG"));
        assert!(value("GG") < value("RO"));
        assert!(value("RO") < value("FK"));
    }

    #[test]
    fn a_piece_up_scores_higher() {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let e = Evaluator::new(rules);
        let even =
            Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b - 1", SfenMode::Strict).unwrap();
        let rook_up =
            Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b R 1", SfenMode::Strict).unwrap();
        assert!(e.evaluate(&rook_up) > e.evaluate(&even) + 500);
    }
}
