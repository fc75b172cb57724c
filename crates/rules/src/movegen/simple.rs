//! Standard-shogi-style generation: for variants whose pieces only leap and
//! slide without limit, legality comes from checkers and pins without
//! making the move.

use super::lean::LeanStore;
use super::sink::Sink;
use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{ClassInfo, OPPOSITE};
use crate::square::Square;

impl<B: BitBoard> Position<B> {
    /// Standard-shogi-style generation: checkers and pins decide legality.
    pub(super) fn generate_simple<S: Sink<B>>(&self, out: &mut S) {
        let r = self.rules;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let own = self.by_color[us.index()];
        let empty = r.board & !occ;
        let mut store = LeanStore::default();
        let enemies = self.gather_lean(them, &mut store);
        let king = self.king_square(us);

        let mut checkers = B::EMPTY;
        let mut pinned = B::EMPTY;
        if let Some(k) = king {
            checkers = self.lean_attackers(&enemies, k, occ);
            let aligned = !(r.star[k.index()] & enemies.any_slider).is_empty();
            for (d, &back) in OPPOSITE.iter().enumerate().filter(|_| aligned) {
                // Enemy sliders standing along `d` from the king, sliding back toward it.
                let mut snipers = r.ray[d * r.squares + k.index()] & enemies.sliders[back];
                while let Some(s) = snipers.pop() {
                    let b = r.between(k, s) & occ;
                    if !b.more_than_one() && !(b & own).is_empty() {
                        pinned |= b;
                    }
                }
            }
        }

        // King moves.
        if let Some(k) = king {
            let royal = r.royal.expect("king");
            let occ_without = occ ^ B::from_square(k);
            let mut dests = r.step[r.ck(us, royal) * r.squares + k.index()] & !own;
            while let Some(to) = dests.pop() {
                // The king is lifted off its square: it cannot hide behind itself.
                if !self.lean_leaps_to(&enemies, to)
                    && self
                        .lean_slider_attackers(&enemies, to, occ_without)
                        .is_empty()
                {
                    out.one(Move::board(k, to, false));
                }
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let (move_target, drop_target) = match (king, checkers.is_empty()) {
            (Some(k), false) => {
                let c = checkers.lsb();
                let block = r.between(k, c);
                (block | checkers, block)
            }
            _ => (r.board & !own, empty),
        };

        let zone = r.zone[us.index()];
        for (class, info) in r.class_info[us.index()].iter().enumerate() {
            let pieces = if r.incremental {
                self.sets[us.index()].classes[class]
            } else {
                r.move_classes[class]
                    .0
                    .iter()
                    .fold(B::EMPTY, |b, &k| b | self.pieces(us, k))
            };
            if pieces.is_empty() {
                continue;
            }
            let mut pieces = pieces;
            if info.shift_len > 0 && pieces.count() >= info.shift_len as u32 {
                if let Some(total) = out.tally() {
                    // Count the unpinned pieces' moves one step at a time for
                    // the whole set (nine pawns: one shift instead of nine look-ups).
                    let steps =
                        &r.shift_steps[info.shift_from as usize..][..info.shift_len as usize];
                    let movers = pieces & !pinned;
                    let mut n = 0;
                    for &(delta, from) in steps {
                        let movers = movers & from;
                        let to = movers.shifted(delta) & move_target;
                        n += (to & !info.dead).count();
                        if info.promotes {
                            // Into the zone, or out of it from inside.
                            n += (to & zone).count()
                                + ((movers & zone).shifted(delta) & move_target & !zone).count();
                        }
                    }
                    *total += n as u64;
                    pieces &= pinned;
                    if pieces.is_empty() {
                        continue;
                    }
                }
            }
            if !info.promotes {
                let mut pieces = pieces;
                while let Some(from) = pieces.pop() {
                    let dests = self.simple_dests(info, from, occ, move_target, pinned, king);
                    out.board_with(from, dests, B::EMPTY, info.dead);
                }
                continue;
            }
            // Promotion choices depend only on whether the piece starts in the
            // zone: split the pieces once instead of testing each.
            for (subset, eligible) in [(pieces & zone, r.board), (pieces & !zone, zone)] {
                let mut pieces = subset;
                while let Some(from) = pieces.pop() {
                    let dests = self.simple_dests(info, from, occ, move_target, pinned, king);
                    out.board_with(from, dests, eligible, info.dead);
                }
            }
        }

        self.generate_drops(out, drop_target);
    }

    /// Where the piece of class `info` on `from` may go: its steps and slides
    /// onto `target`, along the pin line if it is pinned.
    #[inline(always)]
    fn simple_dests(
        &self,
        info: &ClassInfo<B>,
        from: Square,
        occ: B,
        target: B,
        pinned: B,
        king: Option<Square>,
    ) -> B {
        let r = self.rules;
        let mut a = r.step[info.step_base + from.index()];
        let mut m = info.slide_mask;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            a |= r.slide(d, from, occ);
        }
        let dests = a & target;
        // Pins are rare: test the empty set before the square.
        if !pinned.is_empty() && pinned.has(from) {
            dests & r.line(king.expect("pinned implies king"), from)
        } else {
            dests
        }
    }
}
