//! Legal move generation, check detection and perft.
//!
//! Two paths over the same tables: for variants whose movements are all plain
//! leaps and unlimited slides (standard shogi), legality comes from checkers
//! and pins without making the move; otherwise (cannons, lions) pseudo-legal
//! moves are made and tested.

mod attack;
mod check;
mod drops;
mod hook;
mod lean;
mod legality;
mod lion;
mod perft;
mod pseudo;
mod simple;
mod sink;

use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use legality::{Filtered, Legality};
use sink::Counter;

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

impl<B: BitBoard> Position<B> {
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
            let ok = !scratch.is_king_attacked_reference(us);
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

    /// The board moves that capture, promoting whenever the piece may, for a
    /// quiescence search: steps, slides, hops, hook moves and (dai dai
    /// shogi) the lions' moves that take on a square they pass (double
    /// captures, igui), but not their passes. Pseudo-legal: a move may leave
    /// the king attacked, which the caller tests after making it. `out` is
    /// cleared first.
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
            let ck = r.ck(us, kind);
            let mut targets = r.attacks(us, kind, from, occ);
            if r.hook[ck] != 0 {
                targets |= self.hook_targets(us, kind, from, occ);
            }
            targets &= enemy;
            let promotes = r.kinds[kind.index()].promotes_to.is_some();
            let from_zone = zone.has(from);
            while let Some(to) = targets.pop() {
                let promote = promotes && (r.promote_on_capture || from_zone || zone.has(to));
                out.push(Move::board(from, to, promote));
            }
            if r.lion[ck] || r.lion_line[ck] {
                let start = out.len();
                if r.lion[ck] {
                    self.lion_double_moves(out, kind, from);
                }
                if r.lion_line[ck] {
                    self.lion_line_moves(out, kind, from, r.lion[ck]);
                }
                // Keep the moves that take on a passed square: the plain
                // captures are above, and a pass takes nothing.
                let mut kept = start;
                for i in start..out.len() {
                    let m = out[i];
                    if m.mid().is_some_and(|s| enemy.has(s)) {
                        out[kept] = m;
                        kept += 1;
                    }
                }
                out.truncate(kept);
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

    /// Whether a move takes an enemy piece: on its destination or, for a
    /// lion's move, on a square it passes (a pass or an igui ends on the
    /// lion's own square, which is no capture).
    ///
    /// ```
    /// use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};
    /// let rules = rules_9x9(VariantName::Shogi).unwrap();
    /// let pos = Position::from_sfen(rules, "4k4/9/9/9/9/9/9/4p4/4K4 b - 1", SfenMode::Strict).unwrap();
    /// assert!(pos.is_capture(pos.parse_move("5i5h").unwrap()));
    /// assert!(!pos.is_capture(pos.parse_move("5i4i").unwrap()));
    /// ```
    pub fn is_capture(&self, m: Move) -> bool {
        if m.is_drop() {
            return false;
        }
        let enemy = self.by_color[(!self.side).index()];
        enemy.has(m.to()) || m.mid().is_some_and(|s| enemy.has(s))
    }
}
