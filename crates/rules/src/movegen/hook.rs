//! Hook movers (rules/dai-dai-shogi.md §4): their targets, their paths to a
//! square and the lines they cover.

use super::attack::Attackers;
use crate::bitboard::BitBoard;
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::rules::NO_DIRECTION;
use crate::square::Square;

impl<B: BitBoard> Position<B> {
    /// Hook movers in `a` that reach `sq` with occupancy `occ`.
    pub(super) fn hook_attackers(&self, a: &Attackers<B>, sq: Square, occ: B) -> B {
        let mut out = B::EMPTY;
        for (x, path) in self.hook_paths(a, sq, occ) {
            if (path & occ).is_empty() {
                out.set(x);
            }
        }
        out
    }

    /// Every path by which a hook mover in `a` could reach `sq`: straight
    /// along its line, or with one turn at one of the (at most two) squares
    /// where a line of its crosses a line through `sq`. A path is open when
    /// all its squares (turn included) are empty.
    pub(super) fn hook_paths(&self, a: &Attackers<B>, sq: Square, occ: B) -> Vec<(Square, B)> {
        let r = self.rules;
        let g = r.geometry;
        let (kf, kr) = (g.file(sq), g.rank(sq));
        let mut out = Vec::new();
        for (set, diagonal) in [(a.hooks_orth, false), (a.hooks_diag, true)] {
            let mut pieces = set & occ;
            while let Some(x) = pieces.pop() {
                let (xf, xr) = (g.file(x), g.rank(x));
                let d = r.direction[x.index() * r.squares + sq.index()];
                if d != NO_DIRECTION && ((d as usize) < 4) != diagonal {
                    out.push((x, r.between(x, sq)));
                    continue;
                }
                let corners = if diagonal {
                    // Crossings of the diagonals through x and sq (same colour complex only).
                    if (xf + xr - kf - kr) % 2 != 0 {
                        [None, None]
                    } else {
                        let (a1, b1) = (xf - xr, kf + kr);
                        let (a2, b2) = (kf - kr, xf + xr);
                        [
                            g.square((a1 + b1) / 2, (b1 - a1) / 2),
                            g.square((a2 + b2) / 2, (b2 - a2) / 2),
                        ]
                    }
                } else {
                    [g.square(xf, kr), g.square(kf, xr)]
                };
                for c in corners.into_iter().flatten() {
                    if c != x && c != sq {
                        out.push((x, r.between(x, c) | B::from_square(c) | r.between(c, sq)));
                    }
                }
            }
        }
        out
    }

    /// The squares a hook mover's lines cover: a move that touches none of them
    /// (nor the king's lines) cannot open or close a hook path to the king.
    pub(super) fn hook_lines(&self, a: &Attackers<B>) -> B {
        let r = self.rules;
        let mut out = B::EMPTY;
        for (set, dirs) in [(a.hooks_orth, 0..4), (a.hooks_diag, 4..8)] {
            let mut pieces = set;
            while let Some(x) = pieces.pop() {
                for d in dirs.clone() {
                    out |= r.ray[d * r.squares + x.index()];
                }
            }
        }
        out
    }

    /// Squares a hook mover of `color` on `from` reaches (moves or captures),
    /// given the occupancy: one slide, then at most one 90° turn on an empty
    /// square (rules/dai-dai-shogi.md §4).
    pub(crate) fn hook_targets(&self, color: Color, kind: Kind, from: Square, occ: B) -> B {
        let r = self.rules;
        let bits = r.hook[r.ck(color, kind)];
        let mut out = B::EMPTY;
        // Orthogonal directions are 0..4, diagonal 4..8 (see DIRS).
        for (bit, dirs, turns) in [
            (
                1u8,
                [0usize, 1, 2, 3],
                [[2usize, 3], [2, 3], [0, 1], [0, 1]],
            ),
            (2u8, [4, 5, 6, 7], [[5, 6], [4, 7], [4, 7], [5, 6]]),
        ] {
            if bits & bit == 0 {
                continue;
            }
            for (i, &d) in dirs.iter().enumerate() {
                let first = r.slide(d, from, occ);
                out |= first;
                let mut corners = first & !occ;
                while let Some(c) = corners.pop() {
                    for &t in &turns[i] {
                        out |= r.slide(t, c, occ);
                    }
                }
            }
        }
        out & !B::from_square(from)
    }
}
