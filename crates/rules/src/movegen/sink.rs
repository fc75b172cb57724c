//! Where generated moves go: a list, or a counter that bulk-counts them.

use super::MoveList;
use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::Kind;
use crate::square::Square;

/// Where generated moves go: a list, or a counter (bulk counting for perft:
/// a piece's destinations are counted with popcounts instead of listed).
pub(super) trait Sink<B: BitBoard> {
    fn one(&mut self, m: Move);
    /// Moves from `from` to each of `dests`: a promotion where `eligible`, a
    /// plain move except where `dead` (the piece could never move again).
    fn board_with(&mut self, from: Square, dests: B, eligible: B, dead: B);
    /// Drops of `kind` on each of `squares`.
    fn drops(&mut self, kind: Kind, squares: B);
    /// The running total, for a sink that only counts (and so may be given
    /// counts of whole sets of moves at once).
    #[inline(always)]
    fn tally(&mut self) -> Option<&mut u64> {
        None
    }
}

impl<B: BitBoard> Sink<B> for MoveList {
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
    #[inline(always)]
    fn board_with(&mut self, from: Square, mut dests: B, eligible: B, dead: B) {
        while let Some(to) = dests.pop() {
            if eligible.has(to) {
                self.push(Move::board(from, to, true));
            }
            if !dead.has(to) {
                self.push(Move::board(from, to, false));
            }
        }
    }
    #[inline(always)]
    fn drops(&mut self, kind: Kind, mut squares: B) {
        while let Some(to) = squares.pop() {
            self.push(Move::drop(kind, to));
        }
    }
}

/// Counts moves without listing them.
pub(super) struct Counter(pub(super) u64);

impl<B: BitBoard> Sink<B> for Counter {
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn board_with(&mut self, _from: Square, dests: B, eligible: B, dead: B) {
        self.0 += ((dests & eligible).count() + (dests & !dead).count()) as u64;
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, squares: B) {
        self.0 += squares.count() as u64;
    }
    #[inline(always)]
    fn tally(&mut self) -> Option<&mut u64> {
        Some(&mut self.0)
    }
}
