//! Legal move generation, check detection and perft.
//!
//! Two paths over the same tables: for variants whose movements are all plain
//! leaps and unlimited slides (standard shogi), legality comes from checkers
//! and pins without making the move; otherwise (cannons, lions) pseudo-legal
//! moves are made and tested.

use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::rules::{ClassInfo, NO_DIRECTION, OPPOSITE};
use crate::square::Square;

/// A list of moves; reuse one across calls to avoid allocation.
///
/// ```
/// use banmen_rules::{rules_9x9, MoveList, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let mut list = MoveList::with_capacity(600);
/// pos.legal_moves_into(&mut list);
/// assert_eq!(list.len(), 30);
/// pos.after(list[0]).legal_moves_into(&mut list); // cleared, then refilled
/// assert_eq!(list.len(), 30);
/// ```
pub type MoveList = Vec<Move>;

/// Where generated moves go: a list, or a counter (bulk counting for perft:
/// a piece's destinations are counted with popcounts instead of listed).
trait Sink<B: BitBoard> {
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

/// Counts moves without listing them.
struct Counter(u64);

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

/// Enemy attackers gathered once per generation: leaping groups and the
/// line pieces along each direction.
struct Attackers<B> {
    /// Every piece of the attacking side.
    all: B,
    /// Pieces with hook moves (any), orthogonal and diagonal.
    hooks: B,
    hooks_orth: B,
    hooks_diag: B,
}

/// The attackers of a variant whose pieces only leap and slide without limit
/// (standard shogi): leaping groups and the sliders along each direction.
/// Borrowed from the incrementally kept sets where the variant has them, so
/// gathering costs nothing per node.
struct Lean<'a, B> {
    /// Pieces of each leap group (may be empty) ...
    groups: &'a [B],
    /// ... and the offset of the group's reverse leap table.
    offsets: &'a [usize],
    /// `sliders[d]`: pieces that slide without limit in board direction `d`.
    sliders: &'a [B; 8],
    /// Every slider.
    any_slider: B,
    /// Every piece of the side.
    all: B,
}

/// Storage for [`Lean`] where the sets are not kept incrementally.
#[derive(Default)]
struct LeanStore<B> {
    groups: Vec<B>,
    offsets: Vec<usize>,
    sliders: [B; 8],
}

impl<B: BitBoard> Position<B> {
    #[inline(always)]
    fn gather_lean<'a>(&'a self, by: Color, store: &'a mut LeanStore<B>) -> Lean<'a, B> {
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
    fn lean_attackers(&self, l: &Lean<B>, sq: Square, occ: B) -> B {
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
    fn lean_slider_attackers(&self, l: &Lean<B>, sq: Square, occ: B) -> B {
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
    fn lean_leaps_to(&self, l: &Lean<B>, sq: Square) -> bool {
        let r = self.rules;
        !(r.leap_sources[sq.index()] & l.all).is_empty()
            && l.groups
                .iter()
                .zip(l.offsets)
                .any(|(&b, &base)| !(r.step[base + sq.index()] & b).is_empty())
    }

    fn gather(&self, by: Color) -> Attackers<B> {
        let r = self.rules;
        let mut a = Attackers {
            all: self.by_color[by.index()],
            hooks: B::EMPTY,
            hooks_orth: B::EMPTY,
            hooks_diag: B::EMPTY,
        };
        if r.any_hook {
            for k in 0..r.kind_count() {
                let bits = r.hook[r.ck(by, Kind(k as u8))];
                let pieces = self.pieces(by, Kind(k as u8));
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
    fn attackers_with(&self, a: &Attackers<B>, sq: Square, occ: B) -> B {
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
    fn leap_attackers(&self, a: &Attackers<B>, sq: Square) -> B {
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

    /// Hook movers in `a` that reach `sq` with occupancy `occ`.
    fn hook_attackers(&self, a: &Attackers<B>, sq: Square, occ: B) -> B {
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
    fn hook_paths(&self, a: &Attackers<B>, sq: Square, occ: B) -> Vec<(Square, B)> {
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
    fn hook_lines(&self, a: &Attackers<B>) -> B {
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

    /// Pieces in `a` that capture on `sq` along the ray from `sq` in direction
    /// `look` (they move the opposite way): sliders, hoppers, limited lines.
    #[inline(always)]
    fn line_attackers(&self, a: &Attackers<B>, sq: Square, look: usize, occ: B) -> B {
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

    /// All pieces of `by` that could capture on `sq` with the given occupancy.
    pub fn attackers_to(&self, sq: Square, by: Color, occ: B) -> B {
        if self.rules.simple {
            let mut store = LeanStore::default();
            let l = self.gather_lean(by, &mut store);
            self.lean_attackers(&l, sq, occ) & occ
        } else {
            // Hooks by walking their paths (hook_targets), not by the crossing
            // squares the fast path uses: the reference generator stays independent.
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

    /// Every legal move, appended to `out` (which is cleared first).
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        out.clear();
        if self.rules.simple {
            self.generate_simple(out);
        } else if self.rules.variant.king_capture {
            // rules/dai-dai-shogi.md §8, `king-capture=on`: any move, until the king falls.
            if self.king_square(self.side).is_some() {
                self.generate_pseudo(out);
            }
        } else {
            let ctx = Legality::new(self);
            self.generate_pseudo(&mut Filtered {
                ctx: &ctx,
                inner: out,
            });
        }
    }

    /// Every legal move, found the slow way: every pseudo-legal move is made
    /// and kept if the mover's king is then not attacked. A reference for tests
    /// of the fast path; not for play.
    #[doc(hidden)]
    pub fn legal_moves_reference(&self) -> MoveList {
        if self.rules.variant.king_capture {
            return self.legal_moves();
        }
        let mut out = self.pseudo_moves();
        let mut scratch = self.clone();
        let us = self.side;
        out.retain(|&m| {
            let undo = scratch.make_move(m);
            let ok = !scratch.is_king_attacked(us);
            scratch.unmake_move(m, undo);
            ok
        });
        out
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut v = Vec::with_capacity(128);
        self.legal_moves_into(&mut v);
        v
    }

    /// The number of legal moves (bulk-counted where the rules allow).
    pub fn count_legal_moves(&self) -> u64 {
        if self.rules.simple {
            let mut c = Counter(0);
            self.generate_simple(&mut c);
            c.0
        } else if self.rules.variant.king_capture {
            self.legal_moves().len() as u64
        } else {
            let ctx = Legality::new(self);
            let mut c = Counter(0);
            self.generate_pseudo(&mut Filtered {
                ctx: &ctx,
                inner: &mut c,
            });
            c.0
        }
    }

    /// The board moves that capture in one move (steps, slides and hops; not
    /// lion double moves or hook moves), promoting whenever the piece may, for
    /// a quiescence search. Pseudo-legal: a move may leave the king attacked,
    /// which the caller tests after making it. `out` is cleared first.
    pub fn capture_moves_into(&self, out: &mut MoveList) {
        out.clear();
        let r = self.rules;
        let us = self.side;
        let occ = self.occupied();
        let enemy = self.by_color[(!us).index()];
        let zone = r.zone[us.index()];
        let mut own = self.by_color[us.index()];
        while let Some(from) = own.pop() {
            let kind = self.piece_at(from).expect("own piece").kind;
            let mut targets = r.attacks(us, kind, from, occ) & enemy;
            let promotes = r.kinds[kind.index()].promotes_to.is_some();
            let from_zone = zone.has(from);
            while let Some(to) = targets.pop() {
                let promote = promotes && (r.promote_on_capture || from_zone || zone.has(to));
                out.push(Move::board(from, to, promote));
            }
        }
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.rules.simple {
            // Bulk counting: no list to allocate (pawn-drop-mate tests ask this).
            return self.count_legal_moves() != 0;
        }
        !self.legal_moves().is_empty()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Standard-shogi-style generation: checkers and pins decide legality.
    fn generate_simple<S: Sink<B>>(&self, out: &mut S) {
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

    /// Drops onto `targets`, with the dead-piece, nifu and pawn-drop-mate rules.
    fn generate_drops<S: Sink<B>>(&self, out: &mut S, targets: B) {
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

    /// Moves that obey piece movement and drop rules but may leave the king attacked.
    pub(crate) fn pseudo_moves(&self) -> MoveList {
        let mut v = Vec::with_capacity(128);
        self.generate_pseudo(&mut v);
        v
    }

    /// Pseudo-legal moves (own king may be left attacked) for variants with
    /// restricted modalities, limited slides or hops.
    fn generate_pseudo<S: Sink<B>>(&self, out: &mut S) {
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

    /// The Japanese lion dog's moves that capture on a square passed, igui and
    /// pass (rules/dai-dai-shogi.md §6.4): along one line, S1..S3 from `from`.
    /// For a piece that also has the lion's moves (`lion`), the moves they
    /// share (igui, capture on S1 then S2, pass) come from the lion alone.
    fn lion_line_moves<S: Sink<B>>(&self, out: &mut S, kind: Kind, from: Square, lion: bool) {
        let r = self.rules;
        let g = r.geometry;
        let us = self.side;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let promote = r.kinds[kind.index()].promotes_to.is_some();
        let (f, rank) = (g.file(from), g.rank(from));
        for (df, dr) in crate::rules::DIRS {
            let Some(s1) = g.square(f + df, rank + dr) else {
                continue;
            };
            let s2 = g.square(f + 2 * df, rank + 2 * dr);
            let s3 = g.square(f + 3 * df, rank + 3 * dr);
            let e1 = enemy.has(s1);
            let e2 = s2.is_some_and(|x| enemy.has(x));
            if e1 && !lion {
                out.one(Move::double(from, s1, from, promote));
            }
            if let Some(s2) = s2 {
                if e2 && !own.has(s1) {
                    out.one(Move::double(from, s2, s1, promote));
                }
                if e1 && !own.has(s2) && !lion {
                    out.one(Move::double(from, s1, s2, promote));
                }
            }
            if let Some(s3) = s3.filter(|&x| !own.has(x)) {
                if e1 {
                    out.one(Move::double(from, s1, s3, promote));
                }
                if e2 {
                    out.one(Move::double(from, s2.expect("inside s3"), s3, promote));
                }
                if e1 && e2 {
                    out.one(Move::double_both(from, s1, s3, promote));
                }
            }
        }
        if !lion {
            let empty_neighbours = r.neighbours[from.index()] & !self.occupied();
            if let Some(e) = r.first_in_reading_order(empty_neighbours) {
                out.one(Move::double(from, e, from, false));
            }
        }
    }

    /// A lion's moves that are more than a step or jump (rules/dai-dai-shogi.md
    /// §6.1, §12): a capture on an adjacent square followed by a second step
    /// (double capture, igui), and one pass.
    fn lion_double_moves<S: Sink<B>>(&self, out: &mut S, kind: Kind, from: Square) {
        let r = self.rules;
        let us = self.side;
        let from_bit = B::from_square(from);
        let own_after = self.by_color[us.index()] ^ from_bit;
        let enemy = self.by_color[(!us).index()];
        let promote = r.kinds[kind.index()].promotes_to.is_some();
        let mut victims = r.neighbours[from.index()] & enemy;
        while let Some(a) = victims.pop() {
            let mut seconds = r.neighbours[a.index()] & !own_after;
            while let Some(x) = seconds.pop() {
                out.one(Move::double(from, a, x, promote));
            }
        }
        let empty_neighbours = r.neighbours[from.index()] & !self.occupied();
        if let Some(e) = r.first_in_reading_order(empty_neighbours) {
            out.one(Move::double(from, e, from, false));
        }
    }

    /// Counts leaf nodes `depth` plies deep (bulk-counted at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
        self.perft_with(depth, &mut lists)
    }

    fn perft_with(&mut self, depth: u32, lists: &mut [MoveList]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal_moves();
        }
        let (list, rest) = lists.split_first_mut().expect("one list per ply");
        self.legal_moves_into(list);
        let mut n = 0;
        for &m in list.iter() {
            let undo = self.make_move(m);
            n += self.perft_with(depth - 1, rest);
            self.unmake_move(m, undo);
        }
        n
    }

    /// Per-root-move counts (`--divide`).
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        moves
            .into_iter()
            .map(|m| {
                let undo = self.make_move(m);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake_move(m, undo);
                (m, n)
            })
            .collect()
    }

    /// The piece a move moves or drops.
    pub fn moving_piece(&self, m: Move) -> Option<Piece> {
        match m.dropped() {
            Some(kind) => Some(Piece {
                color: self.side,
                kind,
            }),
            None => self.piece_at(m.origin()),
        }
    }

    /// Whether `m` (legal) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.after(m).in_check()
    }
}

/// What decides, for variants with hops, limited lines, lions or hooks, whether
/// a pseudo-legal move leaves the mover's king attacked — without making it.
/// A move that touches no line through the king (nor, when the enemy has hook
/// movers, any of their lines), made while not in check, cannot expose the
/// king: only line and hook attacks depend on occupancy, and a capture only
/// removes attackers. Such moves are accepted in bulk.
struct Legality<'a, B: BitBoard> {
    pos: &'a Position<B>,
    enemies: Attackers<B>,
    king: Option<Square>,
    in_check: bool,
    /// The king's eight rays.
    lines: B,
    /// Squares whose change may alter an attack on the king: `lines` plus the
    /// hook movers' lines. Empty when there is no king.
    sensitive: B,
    hooked: bool,
    /// The hook paths to the king (see `hook_paths`).
    hook_paths: Vec<(Square, B)>,
    leaps_on_king: B,
    /// Own pieces among the first two blockers of a king ray whose leaving
    /// would let an attack through (pinned pieces, screens of cannons).
    unsafe_from: B,
    /// Empty squares where a new piece would become a screen for an enemy
    /// hopper and let it attack the king.
    unsafe_to: B,
    /// In check by one line or leap attacker: the squares a move must touch
    /// (the checker and the squares between it and the king).
    evasion: Option<B>,
}

impl<'a, B: BitBoard> Legality<'a, B> {
    fn new(pos: &'a Position<B>) -> Self {
        let r = pos.rules;
        let enemies = pos.gather(!pos.side);
        let king = pos.king_square(pos.side);
        let occ = pos.occupied();
        let mut lines = B::EMPTY;
        let mut sensitive = B::EMPTY;
        let mut in_check = false;
        let mut leaps_on_king = B::EMPTY;
        let hooked = !enemies.hooks.is_empty();
        let mut hook_paths = Vec::new();
        let mut unsafe_from = B::EMPTY;
        let mut unsafe_to = B::EMPTY;
        let mut evasion = None;
        if let Some(k) = king {
            for d in 0..8 {
                lines |= r.ray[d * r.squares + k.index()];
            }
            sensitive = lines | B::from_square(k);
            if hooked {
                sensitive |= pos.hook_lines(&enemies);
                hook_paths = pos.hook_paths(&enemies, k, occ);
            }
            // Along each ray only the first two pieces matter (a slider needs
            // the first, a hopper the second): find the checkers along it,
            // which of ours may not leave, and where a new piece would make a
            // screen, from the first three pieces and the reach tables.
            let own = pos.by_color[pos.side.index()];
            let enemy = enemies.all;
            leaps_on_king = pos.leap_attackers(&enemies, k);
            let mut checkers = leaps_on_king;
            for (look, &md) in OPPOSITE.iter().enumerate() {
                let Some(b1) = r.first_blocker(look, k, occ) else {
                    continue;
                };
                let b2 = r.first_blocker(look, b1, occ);
                let b3 = b2.and_then(|x| r.first_blocker(look, x, occ));
                let reaches = |x: Square, table: &[u8]| {
                    enemy.has(x) && {
                        let p = Piece::from_code(pos.board.as_ref()[x.index()]).expect("occupied");
                        table[r.ck(p.color, p.kind) * 8 + md] >= r.distance(k, x)
                    }
                };
                let slides = |x: Option<Square>| x.is_some_and(|x| reaches(x, &r.slide_reach));
                let hops =
                    |x: Option<Square>| r.any_hop && x.is_some_and(|x| reaches(x, &r.hop_reach));
                if slides(Some(b1)) {
                    checkers.set(b1);
                }
                if hops(b2) {
                    checkers.set(b2.expect("hops"));
                }
                // (With hook movers every line square is tested anyway.)
                if hooked {
                    continue;
                }
                if own.has(b1) && (slides(b2) || hops(b3)) {
                    unsafe_from.set(b1);
                }
                if let Some(x) = b2.filter(|&x| own.has(x)) {
                    if slides(Some(b1)) || hops(b3) {
                        unsafe_from.set(x);
                    }
                }
                if hops(Some(b1)) {
                    unsafe_to |= r.between(k, b1);
                }
            }
            if hooked {
                checkers |= pos.hook_attackers(&enemies, k, occ);
            }
            checkers &= occ;
            in_check = !checkers.is_empty();
            if in_check && !checkers.more_than_one() && !enemies.hooks.has(checkers.lsb()) {
                let c = checkers.lsb();
                evasion = Some(r.between(k, c) | checkers);
            }
        }
        Legality {
            pos,
            enemies,
            king,
            in_check,
            lines,
            sensitive,
            hooked,
            hook_paths,
            leaps_on_king,
            unsafe_from,
            unsafe_to,
            evasion,
        }
    }

    /// The destinations among `dests` of a move from `from` (a drop: `None`)
    /// that need the full test; every other one is legal, except in check,
    /// where a move that touches neither the checker nor the squares between
    /// it and the king is left out: the caller accepts nothing in bulk in check.
    #[inline(always)]
    fn to_test(&self, from: Option<Square>, dests: B) -> B {
        let Some(k) = self.king else { return B::EMPTY };
        if self.in_check {
            return match (self.evasion, from) {
                (Some(ev), Some(f)) if f != k && !ev.has(f) => dests & ev,
                (Some(ev), None) => dests & ev,
                _ => dests,
            };
        }
        // A hook path runs along a hook mover's line and then the king's:
        // with hook movers about, every square of either kind of line counts.
        let mut test = dests & self.unsafe_to;
        if self.hooked {
            test |= dests & self.sensitive;
        }
        if let Some(f) = from {
            if f == k || self.unsafe_from.has(f) || (self.hooked && self.sensitive.has(f)) {
                return dests;
            }
            // A move along the piece's own king ray needs no test of its own:
            // an attack along a ray depends on its first two pieces only, and
            // the cases where leaving and arriving on one ray combine into an
            // attack that neither makes alone need a hopper already screened
            // by the mover, that is, a king already in check.
        }
        test
    }

    /// Whether `m` leaves the mover's king unattacked.
    fn legal(&self, m: Move) -> bool {
        let Some(k) = self.king else { return true };
        let pos = self.pos;
        let r = pos.rules;
        let occ = pos.occupied();
        let to = m.to();
        let to_bit = B::from_square(to);
        let e = &self.enemies;
        // Whether the enemy attacks the king along the ray toward `via` after the change.
        let ray_safe = |via: Square, occ2: B, gone: B| -> bool {
            let d = r.direction[k.index() * r.squares + via.index()];
            d == NO_DIRECTION
                || (pos.line_attackers(e, k, d as usize, occ2) & !gone & occ).is_empty()
        };
        // Whether some hook mover (not captured) has an open path to the king.
        let hooks_hit = |occ2: B, gone: B| -> bool {
            self.hook_paths
                .iter()
                .any(|&(x, path)| !gone.has(x) && (path & occ2).is_empty())
        };
        let hook_safe = |changed: B, occ2: B, gone: B| -> bool {
            !self.hooked || (changed & self.sensitive).is_empty() || !hooks_hit(occ2, gone)
        };
        // Every attack on the king after a non-king move, the leaps known already.
        let attacked_after = |occ2: B, gone: B| -> bool {
            if !(self.leaps_on_king & !gone).is_empty() {
                return true;
            }
            let mut hit = B::EMPTY;
            for look in 0..8 {
                hit |= pos.line_attackers(e, k, look, occ2);
            }
            !(hit & !gone & occ).is_empty() || hooks_hit(occ2, gone)
        };
        match m.from() {
            None => {
                let occ2 = occ | to_bit;
                if self.in_check {
                    !attacked_after(occ2, B::EMPTY)
                } else {
                    (!self.lines.has(to) || ray_safe(to, occ2, B::EMPTY))
                        && hook_safe(to_bit, occ2, B::EMPTY)
                }
            }
            Some(from) if from == k => {
                let occ2 = (occ ^ B::from_square(k)) | to_bit;
                (pos.attackers_with(e, to, occ2) & !to_bit & occ).is_empty()
            }
            Some(from) => {
                let mut mid = m.mid().map(B::from_square).unwrap_or(B::EMPTY);
                if let Some(x) = m.mid2() {
                    mid.set(x);
                }
                let captured = to_bit | (mid & occ);
                let occ2 = ((occ ^ B::from_square(from)) & !mid) | to_bit;
                if self.in_check {
                    return !attacked_after(occ2, captured);
                }
                hook_safe(B::from_square(from) | to_bit | mid, occ2, captured)
                    && (!self.lines.has(from) || ray_safe(from, occ2, captured))
                    && (!self.lines.has(to) || ray_safe(to, occ2, captured))
                    && m.mid()
                        .is_none_or(|x| !self.lines.has(x) || ray_safe(x, occ2, captured))
                    && m.mid2()
                        .is_none_or(|x| !self.lines.has(x) || ray_safe(x, occ2, captured))
            }
        }
    }
}

/// Passes on only the legal moves of a pseudo-legal generator.
struct Filtered<'c, 'a, B: BitBoard, S> {
    ctx: &'c Legality<'a, B>,
    inner: &'c mut S,
}

impl<B: BitBoard, S: Sink<B>> Sink<B> for Filtered<'_, '_, B, S> {
    #[inline(always)]
    fn one(&mut self, m: Move) {
        if self.ctx.legal(m) {
            self.inner.one(m);
        }
    }
    #[inline(always)]
    fn board_with(&mut self, from: Square, dests: B, eligible: B, dead: B) {
        let mut test = self.ctx.to_test(Some(from), dests);
        let bulk = if self.ctx.in_check {
            B::EMPTY
        } else {
            dests & !test
        };
        if !bulk.is_empty() {
            self.inner.board_with(from, bulk, eligible, dead);
        }
        let mut ok = B::EMPTY;
        while let Some(to) = test.pop() {
            // Promotion never changes legality: test the plain move.
            if self.ctx.legal(Move::board(from, to, false)) {
                ok.set(to);
            }
        }
        if !ok.is_empty() {
            self.inner.board_with(from, ok, eligible, dead);
        }
    }
    #[inline(always)]
    fn drops(&mut self, kind: Kind, squares: B) {
        let mut test = self.ctx.to_test(None, squares);
        let bulk = if self.ctx.in_check {
            B::EMPTY
        } else {
            squares & !test
        };
        if !bulk.is_empty() {
            self.inner.drops(kind, bulk);
        }
        let mut ok = B::EMPTY;
        while let Some(to) = test.pop() {
            if self.ctx.legal(Move::drop(kind, to)) {
                ok.set(to);
            }
        }
        if !ok.is_empty() {
            self.inner.drops(kind, ok);
        }
    }
}
