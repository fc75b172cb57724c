//! Pseudo-legal generation (the king may be left attacked) for variants with
//! restricted modalities, limited lines, hops, hooks or lions.

use super::sink::Sink;
use super::MoveList;
use crate::bitboard::BitBoard;
use crate::piece::Kind;
use crate::position::Position;

/// The target squares a line movement may end on: bit 0 of `modality` allows
/// empty squares, bit 1 enemy pieces.
#[inline(always)]
fn modality_mask<B: BitBoard>(modality: u8, empty: B, enemy: B) -> B {
    match modality {
        1 => empty,
        2 => enemy,
        _ => empty | enemy,
    }
}

impl<B: BitBoard> Position<B> {
    /// Moves that obey piece movement and drop rules but may leave the king attacked.
    pub(crate) fn pseudo_moves(&self) -> MoveList {
        let mut v = Vec::with_capacity(128);
        self.generate_pseudo(&mut v);
        v
    }

    /// Pseudo-legal moves (own king may be left attacked) for variants with
    /// restricted modalities, limited slides or hops.
    pub(super) fn generate_pseudo<S: Sink<B>>(&self, out: &mut S) {
        let r = self.rules;
        let us = self.side;
        let occ = self.occupied();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let empty = r.board & !occ;
        for ki in 0..r.kind_count() {
            let kind = Kind(ki as u8);
            let mut pieces = self.pieces(us, kind);
            if pieces.is_empty() {
                continue;
            }
            let ck = r.ck(us, kind);
            // What is the same for every piece of the kind, looked up once.
            let specials = (r.hook[ck] != 0, r.lion[ck], r.lion_line[ck]);
            let restricted_leaps = r.restricted_leaps[ck];
            let zone = r.zone[us.index()];
            let in_zone = pieces & zone;
            // As `promotion_masks`, for a piece starting in and out of the zone.
            let promotes = r.kinds[kind.index()].promotes_to.is_some();
            let (eligible_in, eligible_out, dead) = if r.promote_on_capture {
                let e = if promotes { enemy } else { B::EMPTY };
                (e, e, e)
            } else {
                let dead = if r.variant.dead_pieces_illegal {
                    r.dead[ck]
                } else {
                    B::EMPTY
                };
                if promotes {
                    (r.board, zone, dead)
                } else {
                    (B::EMPTY, B::EMPTY, dead)
                }
            };
            while let Some(from) = pieces.pop() {
                let i = ck * r.squares + from.index();
                let mut dests = r.step[i] & !own;
                if restricted_leaps {
                    dests |= (r.step_move[i] & empty) | (r.step_capture[i] & enemy);
                }
                let mut m = r.slide_mask[ck];
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    dests |= r.slide(d, from, occ) & !own;
                }
                for ld in &r.line_dirs[ck] {
                    // One walk per direction serves the slide and the hop.
                    let d = ld.dir as usize;
                    let walk = r.slide(d, from, occ);
                    if ld.slide != 0 {
                        let mut reach = walk;
                        if ld.slide_range != 0 {
                            reach &= r.within(d, from, ld.slide_range);
                        }
                        dests |= reach & modality_mask(ld.slide, empty, enemy);
                    }
                    if ld.hop != 0 {
                        let screen = walk & occ;
                        if !screen.is_empty() {
                            let mut beyond = r.slide(d, screen.lsb(), occ);
                            if ld.hop_range != 0 {
                                beyond &= r.within(d, from, ld.hop_range);
                            }
                            dests |= beyond & modality_mask(ld.hop, empty, enemy);
                        }
                    }
                }
                if specials.0 {
                    dests |= self.hook_targets(us, kind, from, occ) & !own;
                }
                dests &= r.board;
                let eligible = if in_zone.has(from) {
                    eligible_in
                } else {
                    eligible_out
                };
                out.board_with(from, dests, eligible, dead);
                if specials.1 {
                    self.lion_double_moves(out, kind, from);
                }
                if specials.2 {
                    self.lion_line_moves(out, kind, from, specials.1);
                }
            }
        }
        self.generate_drops(out, empty);
    }
}
