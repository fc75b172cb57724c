//! Attack queries for every variant: leaps, lines (slides, hops, limited
//! ranges) and, through `hook`, hook movers; `attackers_to`.

use super::lean::LeanStore;
use crate::bitboard::BitBoard;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::rules::OPPOSITE;
use crate::square::Square;

/// Enemy attackers gathered once per generation: leaping groups and the
/// line pieces along each direction.
pub(super) struct Attackers<B> {
    /// Every piece of the attacking side.
    pub(super) all: B,
    /// Pieces with hook moves (any), orthogonal and diagonal.
    pub(super) hooks: B,
    pub(super) hooks_orth: B,
    pub(super) hooks_diag: B,
}

impl<B: BitBoard> Position<B> {
    pub(super) fn gather(&self, by: Color) -> Attackers<B> {
        let r = self.rules;
        let mut a = Attackers {
            all: self.by_color[by.index()],
            hooks: B::EMPTY,
            hooks_orth: B::EMPTY,
            hooks_diag: B::EMPTY,
        };
        if r.any_hook {
            for &(kind, bits) in &r.hook_kinds[by.index()] {
                let pieces = self.pieces(by, kind);
                if bits & 1 != 0 {
                    a.hooks_orth |= pieces;
                }
                if bits & 2 != 0 {
                    a.hooks_diag |= pieces;
                }
            }
            a.hooks = a.hooks_orth | a.hooks_diag;
        }
        a
    }

    /// Pieces in `a` that could capture on `sq` with occupancy `occ`. The caller
    /// masks out pieces that are no longer there (a square just captured on).
    #[inline(always)]
    pub(super) fn attackers_with(&self, a: &Attackers<B>, sq: Square, occ: B) -> B {
        let mut out = self.leap_attackers(a, sq);
        for look in 0..8 {
            out |= self.line_attackers(a, sq, look, occ);
        }
        if !a.hooks.is_empty() {
            out |= self.hook_attackers(a, sq, occ);
        }
        out
    }

    /// Pieces in `a` that capture on `sq` by a leap (occupancy does not matter).
    #[inline(always)]
    pub(super) fn leap_attackers(&self, a: &Attackers<B>, sq: Square) -> B {
        let r = self.rules;
        let mut out = B::EMPTY;
        // Only pieces standing where some leap could come from are looked at.
        let mut candidates = r.leap_sources[sq.index()] & a.all;
        while let Some(x) = candidates.pop() {
            let p = self.piece_at(x).expect("occupied");
            let i = r.ck(p.color, p.kind) * r.squares + x.index();
            if (r.step[i] | r.step_capture[i]).has(sq) {
                out.set(x);
            }
        }
        out
    }

    /// Pieces in `a` that capture on `sq` along the ray from `sq` in direction
    /// `look` (they move the opposite way): sliders, hoppers, limited lines.
    #[inline(always)]
    pub(super) fn line_attackers(&self, a: &Attackers<B>, sq: Square, look: usize, occ: B) -> B {
        let r = self.rules;
        let md = OPPOSITE[look];
        let mut out = B::EMPTY;
        let Some(b) = r.first_blocker(look, sq, occ) else {
            return out;
        };
        // How far the piece standing there slides (or hops) toward `sq`.
        let reach = |x: Square, table: &[u8]| -> u8 {
            let p = Piece::from_code(self.board.as_ref()[x.index()]).expect("occupied");
            table[r.ck(p.color, p.kind) * 8 + md]
        };
        if a.all.has(b) && reach(b, &r.slide_reach) >= r.distance(sq, b) {
            out.set(b);
        }
        if r.any_hop {
            if let Some(b2) = r.first_blocker(look, b, occ) {
                if a.all.has(b2) && reach(b2, &r.hop_reach) >= r.distance(sq, b2) {
                    out.set(b2);
                }
            }
        }
        out
    }

    /// The reference for `line_attackers`: walks each ray square by square
    /// and reads the pieces' movement lists, sharing no table with it.
    fn line_attackers_walk(&self, by: Color, sq: Square, occ: B) -> B {
        let r = self.rules;
        let g = r.geometry;
        let mut out = B::EMPTY;
        for (look, &(df, dr)) in crate::rules::DIRS.iter().enumerate() {
            let md = OPPOSITE[look];
            let mut seen = 0;
            let (mut f, mut rank) = (g.file(sq), g.rank(sq));
            let mut dist = 0u8;
            while let Some(x) = g.square(f + df, rank + dr) {
                (f, rank, dist) = (g.file(x), g.rank(x), dist + 1);
                if !occ.has(x) {
                    continue;
                }
                seen += 1;
                if let Some(p) = self.piece_at(x).filter(|p| p.color == by) {
                    let ck = r.ck(by, p.kind);
                    let slides = seen == 1
                        && ((r.slide_mask[ck] >> md) & 1 == 1
                            || r.line_moves[ck].iter().any(|m| {
                                !m.hop
                                    && m.dir as usize == md
                                    && m.modality.captures()
                                    && (m.range == 0 || m.range >= dist)
                            }));
                    let hops = seen == 2
                        && r.line_moves[ck].iter().any(|m| {
                            m.hop
                                && m.dir as usize == md
                                && m.modality.captures()
                                && (m.range == 0 || m.range >= dist)
                        });
                    if slides || hops {
                        out.set(x);
                    }
                }
                if seen == 2 {
                    break;
                }
            }
        }
        out
    }

    /// All pieces of `by` that could capture on `sq` with the given occupancy
    /// (the tables of legal move generation; for tests, the independent
    /// [`Self::attackers_to_reference`] gives the same).
    pub fn attackers_to(&self, sq: Square, by: Color, occ: B) -> B {
        if self.rules.simple {
            let mut store = LeanStore::default();
            let l = self.gather_lean(by, &mut store);
            self.lean_attackers(&l, sq, occ) & occ
        } else {
            let a = self.gather(by);
            self.attackers_with(&a, sq, occ) & occ
        }
    }

    /// [`Self::attackers_to`] by the reference walk: hooks by walking their
    /// paths (`hook_targets`) rather than by the crossing squares, lines
    /// square by square through the pieces' movement lists, sharing no
    /// table with the fast path. On the boards whose pieces only leap and
    /// slide (standard shogi, minishogi) both are the one lean path.
    #[doc(hidden)]
    pub fn attackers_to_reference(&self, sq: Square, by: Color, occ: B) -> B {
        if self.rules.simple {
            return self.attackers_to(sq, by, occ);
        }
        let a = self.gather(by);
        let mut out = self.leap_attackers(&a, sq) | self.line_attackers_walk(by, sq, occ);
        let mut hooks = a.hooks & occ;
        while let Some(h) = hooks.pop() {
            let kind = self.piece_at(h).expect("hook piece").kind;
            if self.hook_targets(by, kind, h, occ).has(sq) {
                out.set(h);
            }
        }
        out & occ
    }
}
