//! Drops, with the dead-piece, nifu and pawn-drop-mate rules.

use super::sink::Sink;
use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::Kind;
use crate::position::Position;
use crate::square::Square;

impl<B: BitBoard> Position<B> {
    /// Drops onto `targets`, with the dead-piece, nifu and pawn-drop-mate rules.
    pub(super) fn generate_drops<S: Sink<B>>(&self, out: &mut S, targets: B) {
        let r = self.rules;
        if !r.variant.drops || targets.is_empty() {
            return;
        }
        let us = self.side;
        let hand = &self.hands[us.index()];
        for (k, &count) in hand.iter().enumerate().take(r.n_base) {
            if count == 0 {
                continue;
            }
            let kind = Kind(k as u8);
            let mut squares = targets;
            if r.variant.dead_pieces_illegal {
                squares &= !r.dead[r.ck(us, kind)];
            }
            if Some(kind) == r.pawn {
                if r.variant.nifu {
                    let mut pawns = self.pieces(us, kind);
                    while let Some(p) = pawns.pop() {
                        squares &= !r.file_mask[p.index()];
                    }
                }
                if r.variant.pawn_drop_mate_illegal {
                    if let Some(ek) = self.king_square(!us) {
                        // The one square from which our pawn would check.
                        let front = r.step[r.ck(!us, kind) * r.squares + ek.index()] & squares;
                        if !front.is_empty() && self.drop_mates(kind, front.lsb()) {
                            squares ^= front;
                        }
                    }
                }
            }
            out.drops(kind, squares);
        }
    }

    /// Whether dropping `kind` on `to` leaves the opponent without a legal move.
    pub(crate) fn drop_mates(&self, kind: Kind, to: Square) -> bool {
        let after = self.after(Move::drop(kind, to));
        after.in_check() && !after.has_legal_move()
    }
}
