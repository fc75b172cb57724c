//! Attack queries for variants whose pieces only leap and slide without
//! limit (standard shogi), over the incrementally kept piece sets.

use crate::bitboard::BitBoard;
use crate::piece::Color;
use crate::position::Position;
use crate::rules::OPPOSITE;
use crate::square::Square;

/// The attackers of a variant whose pieces only leap and slide without limit
/// (standard shogi): leaping groups and the sliders along each direction.
/// Borrowed from the incrementally kept sets where the variant has them, so
/// gathering costs nothing per node.
pub(super) struct Lean<'a, B> {
    /// Pieces of each leap group (may be empty) ...
    pub(super) groups: &'a [B],
    /// ... and the offset of the group's reverse leap table.
    pub(super) offsets: &'a [usize],
    /// `sliders[d]`: pieces that slide without limit in board direction `d`.
    pub(super) sliders: &'a [B; 8],
    /// Every slider.
    pub(super) any_slider: B,
    /// Every piece of the side.
    pub(super) all: B,
}

/// Storage for [`Lean`] where the sets are not kept incrementally.
#[derive(Default)]
pub(super) struct LeanStore<B> {
    pub(super) groups: Vec<B>,
    pub(super) offsets: Vec<usize>,
    pub(super) sliders: [B; 8],
}

impl<B: BitBoard> Position<B> {
    #[inline(always)]
    pub(super) fn gather_lean<'a>(&'a self, by: Color, store: &'a mut LeanStore<B>) -> Lean<'a, B> {
        let r = self.rules;
        if r.incremental {
            let sets = &self.sets[by.index()];
            let offsets = &r.group_offset[by.index()][..];
            return Lean {
                groups: &sets.groups[..offsets.len()],
                offsets,
                sliders: &sets.sliders,
                any_slider: sets.sliders.iter().fold(B::EMPTY, |a, &b| a | b),
                all: self.by_color[by.index()],
            };
        }
        store.sliders = [B::EMPTY; 8];
        for (members, rep) in &r.step_groups {
            let mut b = B::EMPTY;
            for &k in members {
                b |= self.pieces(by, k);
            }
            // Reverse look-up: the other colour's pattern from the target square.
            store.groups.push(b);
            store.offsets.push(r.ck(!by, *rep) * r.squares);
        }
        for (d, s) in store.sliders.iter_mut().enumerate() {
            for &k in &r.dir_sliders[by.index()][d] {
                *s |= self.pieces(by, k);
            }
        }
        Lean {
            groups: &store.groups,
            offsets: &store.offsets,
            sliders: &store.sliders,
            any_slider: store.sliders.iter().fold(B::EMPTY, |a, &b| a | b),
            all: self.by_color[by.index()],
        }
    }

    /// Pieces in `l` that could capture on `sq` with occupancy `occ`.
    #[inline(always)]
    pub(super) fn lean_attackers(&self, l: &Lean<B>, sq: Square, occ: B) -> B {
        let r = self.rules;
        let mut out = B::EMPTY;
        // Leaps only from squares some leap could come from (mostly nobody there).
        if !(r.leap_sources[sq.index()] & l.all).is_empty() {
            for (&b, &base) in l.groups.iter().zip(l.offsets) {
                out |= r.step[base + sq.index()] & b;
            }
        }
        out | self.lean_slider_attackers(l, sq, occ)
    }

    /// Sliders in `l` that could capture on `sq` with occupancy `occ`.
    #[inline(always)]
    pub(super) fn lean_slider_attackers(&self, l: &Lean<B>, sq: Square, occ: B) -> B {
        let r = self.rules;
        let mut out = B::EMPTY;
        // Most squares have no slider on any of their lines at all.
        if (r.star[sq.index()] & l.any_slider).is_empty() {
            return out;
        }
        for (look, &back) in OPPOSITE.iter().enumerate() {
            let s = l.sliders[back];
            // Cheap test first: is any such slider on this ray at all?
            if (r.ray[look * r.squares + sq.index()] & s).is_empty() {
                continue;
            }
            if let Some(b) = r.first_blocker(look, sq, occ) {
                if s.has(b) {
                    out.set(b);
                }
            }
        }
        out
    }

    /// Whether a leaping piece in `l` could capture on `sq`.
    #[inline(always)]
    pub(super) fn lean_leaps_to(&self, l: &Lean<B>, sq: Square) -> bool {
        let r = self.rules;
        !(r.leap_sources[sq.index()] & l.all).is_empty()
            && l.groups
                .iter()
                .zip(l.offsets)
                .any(|(&b, &base)| !(r.step[base + sq.index()] & b).is_empty())
    }
}
