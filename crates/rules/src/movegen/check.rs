//! Check detection: whether a king is attacked, by whom, and whether a move checks.

use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;

impl<B: BitBoard> Position<B> {
    /// Whether `c`'s king is attacked (false if it has none).
    pub fn is_king_attacked(&self, c: Color) -> bool {
        let Some(k) = self.king_square(c) else {
            return false;
        };
        let occ = self.occupied();
        if self.rules.simple {
            return !self.attackers_to(k, !c, occ).is_empty();
        }
        // The tables of legal move generation, cheapest first, stopping at
        // the first attacker (`attackers_to_reference` walks the rays and
        // hook paths: the independent reference, see
        // `is_king_attacked_reference`).
        let a = self.gather(!c);
        if !self.leap_attackers(&a, k).is_empty() {
            return true;
        }
        if (0..8).any(|look| !self.line_attackers(&a, k, look, occ).is_empty()) {
            return true;
        }
        !a.hooks.is_empty() && !self.hook_attackers(&a, k, occ).is_empty()
    }

    /// [`Self::is_king_attacked`] by the reference attack walk, for tests.
    #[doc(hidden)]
    pub fn is_king_attacked_reference(&self, c: Color) -> bool {
        match self.king_square(c) {
            Some(k) => !self
                .attackers_to_reference(k, !c, self.occupied())
                .is_empty(),
            None => false,
        }
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.is_king_attacked(self.side)
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> B {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(k, !self.side, self.occupied()),
            None => B::EMPTY,
        }
    }

    /// Whether `m` (legal) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.after(m).in_check()
    }

    /// Whether `m` (legal) might give check, without making it: `false` only
    /// when it certainly does not (never a false `false`; a `true` may be
    /// wrong). Cheap, for a search that skips the full test after most moves.
    ///
    /// A move that touches no square on a line through the enemy king (nor,
    /// when the mover's side has hook movers, any of their lines) changes no
    /// slide, hop or hook attack on it, so it checks only if the moved piece
    /// itself reaches the king from where it lands: by a leap, by a lion's
    /// area move (within two steps), or by a hook.
    pub fn may_give_check(&self, m: Move) -> bool {
        let r = self.rules;
        let us = self.side;
        let Some(king) = self.king_square(!us) else {
            return false;
        };
        let star = r.star[king.index()];
        let to = m.to();
        let from = m.from();
        let touched = [Some(to), from, m.mid(), m.mid2()];
        if touched.iter().flatten().any(|&sq| star.has(sq)) {
            return true;
        }
        let Some(piece) = self.moving_piece(m) else {
            return true;
        };
        let mut kind = piece.kind;
        if m.is_promotion() {
            if let Some(p) = r.kinds[kind.index()].promotes_to {
                kind = p;
            }
        }
        let ck = r.ck(us, kind);
        if r.hook[ck] != 0 {
            return true;
        }
        if r.any_hook {
            let ours = self.gather(us);
            if !ours.hooks.is_empty() {
                let lines = self.hook_lines(&ours);
                if [from, m.mid(), m.mid2()]
                    .iter()
                    .flatten()
                    .any(|&sq| lines.has(sq))
                {
                    return true;
                }
            }
        }
        if (r.lion[ck] || r.lion_line[ck]) && r.distance(to, king) <= 2 {
            return true;
        }
        let i = ck * r.squares + to.index();
        (r.step[i] | r.step_capture[i]).has(king)
    }
}
