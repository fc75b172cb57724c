//! Legality of pseudo-legal moves without making them, for variants with
//! hops, limited lines, lions or hooks: [`Legality`] decides, [`Filtered`]
//! applies it to a generator's output.

use super::attack::Attackers;
use super::sink::Sink;
use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::{Kind, Piece};
use crate::position::Position;
use crate::rules::{NO_DIRECTION, OPPOSITE};
use crate::square::Square;

/// What decides, for variants with hops, limited lines, lions or hooks, whether
/// a pseudo-legal move leaves the mover's king attacked — without making it.
/// A move that touches no line through the king (nor, when the enemy has hook
/// movers, any of their lines), made while not in check, cannot expose the
/// king: only line and hook attacks depend on occupancy, and a capture only
/// removes attackers. Such moves are accepted in bulk.
pub(super) struct Legality<'a, B: BitBoard> {
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
    pub(super) fn new(pos: &'a Position<B>) -> Self {
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
pub(super) struct Filtered<'c, 'a, B: BitBoard, S> {
    pub(super) ctx: &'c Legality<'a, B>,
    pub(super) inner: &'c mut S,
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
