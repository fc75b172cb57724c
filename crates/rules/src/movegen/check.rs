//! Check detection: whether a king is attacked, by whom, and whether a move checks.

use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;

impl<B: BitBoard> Position<B> {
    /// Whether `c`'s king is attacked (false if it has none).
    pub fn is_king_attacked(&self, c: Color) -> bool {
        match self.king_square(c) {
            Some(k) => !self.attackers_to(k, !c, self.occupied()).is_empty(),
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
}
