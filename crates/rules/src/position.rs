//! A position: board, hands, side to move; make and unmake.

use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::{Color, Kind, Piece};
use crate::rules::Rules;
use crate::square::Square;
use std::fmt;

/// The most base types that can be held in hand.
pub const MAX_HAND_KINDS: usize = 16;

/// Hand counts with distinct hash keys (counts wrap beyond; no game has 64 of a kind).
pub(crate) const HAND_KEYS: usize = 64;

/// Counts of pieces in hand per base kind (index: [`Kind::index`]).
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Hand, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b 2Gp 1", SfenMode::Strict).unwrap();
/// let gold = rules.kind_by_code("G").unwrap();
/// let black: &Hand = pos.hand(Color::Black);
/// assert_eq!(black[gold.index()], 2);
/// assert_eq!(pos.hand(Color::White).iter().sum::<u8>(), 1);
/// ```
pub type Hand = [u8; MAX_HAND_KINDS];

/// Sets kept up to date by make/unmake for the plain-slider path (standard
/// shogi): the pieces of each leap group, movement class and slide direction,
/// so that generation does not gather them from the kinds at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindSets<B> {
    pub groups: [B; MAX_SETS],
    pub classes: [B; MAX_SETS],
    pub sliders: [B; 8],
}

/// The most leap groups or movement classes kept incrementally.
pub(crate) const MAX_SETS: usize = 16;

/// What [`Position::make_move`] returns so that [`Position::unmake_move`] can undo it.
///
/// ```
/// use banmen_rules::{rules_9x9, Position, SfenMode, Undo, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
/// let mut pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
/// let before = pos.hash();
/// let takes = pos.parse_move("8h2b+").unwrap();
/// let undo: Undo = pos.make_move(takes);
/// assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
/// pos.unmake_move(takes, undo);
/// assert_eq!((pos.to_sfen(), pos.hash()), (sfen.to_string(), before));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    captured_mid: u8,
    captured_mid2: u8,
    hash: u64,
}

/// A validated position of some variant: built from SFEN or a
/// [`Setup`](crate::Setup), it generates legal moves, makes and unmakes them, and
/// answers questions about check, attacks and hands. `B` is the board's
/// bitset: [`Bb128`](crate::Bb128) up to 81 squares, [`Bb320`](crate::Bb320)
/// for dai dai shogi's 289.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::MiniShogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// assert_eq!(pos.to_sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
/// assert_eq!(pos.side_to_move(), Color::Black);
/// assert!(!pos.in_check());
/// assert_eq!(pos.legal_moves().len(), 14);
/// assert_eq!(pos.king_square(Color::White), rules.geometry.parse_square("1a"));
/// ```
#[derive(Clone)]
pub struct Position<B: BitBoard> {
    pub(crate) rules: &'static Rules<B>,
    pub(crate) board: B::Mailbox,
    pub(crate) by_kind: B::KindBoards,
    pub(crate) by_color: [B; 2],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) move_number: u32,
    pub(crate) hash: u64,
    /// Per colour; maintained only when `rules.incremental`.
    pub(crate) sets: [KindSets<B>; 2],
}

impl<B: BitBoard> PartialEq for Position<B> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.rules, other.rules)
            && self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
    }
}

impl<B: BitBoard> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl<B: BitBoard> Position<B> {
    /// An empty board with empty hands, Black to move (for building positions).
    pub(crate) fn empty(rules: &'static Rules<B>) -> Self {
        Position {
            rules,
            board: B::empty_mailbox(),
            by_kind: B::empty_kind_boards(),
            by_color: [B::EMPTY; 2],
            hands: [[0; MAX_HAND_KINDS]; 2],
            side: Color::Black,
            move_number: 1,
            hash: 0,
            sets: [KindSets {
                groups: [B::EMPTY; MAX_SETS],
                classes: [B::EMPTY; MAX_SETS],
                sliders: [B::EMPTY; 8],
            }; 2],
        }
    }

    /// The rules this position follows.
    #[inline(always)]
    pub fn rules(&self) -> &'static Rules<B> {
        self.rules
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The Zobrist hash of board, hands and side to move (the repetition key).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the board and the side to move, the hands left out: with
    /// [`Position::hand`] it keys tables that compare hands (a tsume solver's
    /// proof and disproof hands).
    ///
    /// ```
    /// use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};
    /// let rules = rules_9x9(VariantName::Shogi).unwrap();
    /// let a = Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b G 1", SfenMode::Strict).unwrap();
    /// let b = Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b 2G 1", SfenMode::Strict).unwrap();
    /// assert_ne!(a.hash(), b.hash());
    /// assert_eq!(a.board_hash(), b.board_hash());
    /// ```
    #[inline]
    pub fn board_hash(&self) -> u64 {
        let mut h = self.hash;
        for c in Color::ALL {
            for k in 0..self.rules.n_base.min(MAX_HAND_KINDS) {
                h ^= self.hand_key(c, k, self.hands[c.index()][k]);
            }
        }
        h
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board.as_ref()[sq.index()])
    }

    /// Pieces of one colour.
    #[inline(always)]
    pub fn color_bb(&self, c: Color) -> B {
        self.by_color[c.index()]
    }

    /// All pieces.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }

    /// Pieces of one colour and kind.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: Kind) -> B {
        self.by_kind.as_ref()[c.index() * B::MAX_KINDS + k.index()]
    }

    /// How many pieces of base kind `k` `c` holds in hand.
    #[inline(always)]
    pub fn hand_count(&self, c: Color, k: Kind) -> u8 {
        self.hands[c.index()].get(k.index()).copied().unwrap_or(0)
    }

    /// The hand of one side, indexed by base kind.
    pub fn hand(&self, c: Color) -> &Hand {
        &self.hands[c.index()]
    }

    /// The square of `c`'s king, if it has one (a tsume attacker has none).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        let k = self.rules.royal?;
        let b = self.pieces(c, k);
        if b.is_empty() {
            None
        } else {
            Some(b.lsb())
        }
    }

    #[inline(always)]
    fn zobrist(&self, p: Piece, sq: Square) -> u64 {
        self.rules.zobrist_board[self.rules.ck(p.color, p.kind) * self.rules.squares + sq.index()]
    }

    /// Puts a piece on an empty square, updating the hash.
    #[inline(always)]
    pub(crate) fn put(&mut self, p: Piece, sq: Square) {
        let bit = B::from_square(sq);
        self.board.as_mut()[sq.index()] = p.code();
        self.toggle(p, bit);
        self.hash ^= self.zobrist(p, sq);
    }

    /// Flips a piece's bit in every set that holds it.
    #[inline(always)]
    fn toggle(&mut self, p: Piece, bit: B) {
        self.by_kind.as_mut()[p.color.index() * B::MAX_KINDS + p.kind.index()] ^= bit;
        self.by_color[p.color.index()] ^= bit;
        let r = self.rules;
        if r.incremental {
            let ck = r.ck(p.color, p.kind);
            let sets = &mut self.sets[p.color.index()];
            let g = r.group_of[p.kind.index()];
            if g != u8::MAX {
                sets.groups[g as usize] ^= bit;
            }
            let c = r.class_of[p.kind.index()];
            if c != u8::MAX {
                sets.classes[c as usize] ^= bit;
            }
            let mut dirs = r.slide_mask[ck];
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                sets.sliders[d] ^= bit;
            }
        }
    }

    /// Removes the piece on `sq`, updating the hash.
    #[inline(always)]
    pub(crate) fn remove(&mut self, p: Piece, sq: Square) {
        let bit = B::from_square(sq);
        self.board.as_mut()[sq.index()] = 0;
        self.toggle(p, bit);
        self.hash ^= self.zobrist(p, sq);
    }

    /// The key of holding `n` pieces of base kind `k` (zero for none). Hands are
    /// XORed like the board, so a position's hash does not depend on the path to it.
    #[inline(always)]
    fn hand_key(&self, c: Color, k: usize, n: u8) -> u64 {
        self.rules.zobrist_hand[c.index()][k * HAND_KEYS + (n as usize % HAND_KEYS)]
    }

    #[inline(always)]
    pub(crate) fn add_to_hand(&mut self, c: Color, k: Kind) {
        let n = self.hands[c.index()][k.index()];
        self.hands[c.index()][k.index()] = n + 1;
        self.hash ^= self.hand_key(c, k.index(), n) ^ self.hand_key(c, k.index(), n + 1);
    }

    #[inline(always)]
    pub(crate) fn take_from_hand(&mut self, c: Color, k: Kind) {
        let n = self.hands[c.index()][k.index()];
        self.hands[c.index()][k.index()] = n - 1;
        self.hash ^= self.hand_key(c, k.index(), n) ^ self.hand_key(c, k.index(), n - 1);
    }

    /// Recomputes the hash from scratch (used after building a position).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0u64;
        for sq in self.rules.geometry.all() {
            if let Some(p) = self.piece_at(sq) {
                h ^= self.zobrist(p, sq);
            }
        }
        for c in Color::ALL {
            for k in 0..self.rules.n_base.min(MAX_HAND_KINDS) {
                h ^= self.hand_key(c, k, self.hands[c.index()][k]);
            }
        }
        if self.side == Color::White {
            h ^= self.rules.zobrist_side;
        }
        h
    }

    /// The [`Position::hash`] the position would have after `m` (legal or
    /// pseudo-legal), without making it: a search asks for the table entry
    /// of the next node early, so that memory is read while it works on.
    ///
    /// ```
    /// use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};
    /// let rules = rules_9x9(VariantName::Shogi).unwrap();
    /// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
    /// for m in pos.legal_moves() {
    ///     assert_eq!(pos.hash_after(m), pos.after(m).hash());
    /// }
    /// ```
    #[inline]
    pub fn hash_after(&self, m: Move) -> u64 {
        let us = self.side;
        let r = self.rules;
        let mut h = self.hash ^ r.zobrist_side;
        let to = m.to();
        if let Some(k) = m.dropped() {
            let n = self.hands[us.index()][k.index()];
            return h
                ^ self.hand_key(us, k.index(), n)
                ^ self.hand_key(us, k.index(), n.wrapping_sub(1))
                ^ self.zobrist(Piece { color: us, kind: k }, to);
        }
        let from = m.origin();
        let Some(piece) = self.piece_at(from) else {
            return h;
        };
        h ^= self.zobrist(piece, from);
        // Up to three captures (a lion's or hook mover's intermediate
        // squares, then the destination), each into the hand where the
        // game has drops: `taken` counts those of each kind so far.
        let mut taken = [usize::MAX; 3];
        let mut capture = |sq: Square, h: &mut u64| {
            let Some(victim) = self.piece_at(sq) else {
                return;
            };
            *h ^= self.zobrist(victim, sq);
            if r.variant.drops {
                let k = r.kind(victim.kind).base.index();
                let extra = taken.iter().filter(|&&t| t == k).count() as u8;
                let n = self.hands[us.index()][k].wrapping_add(extra);
                *h ^= self.hand_key(us, k, n) ^ self.hand_key(us, k, n.wrapping_add(1));
                if let Some(t) = taken.iter_mut().find(|t| **t == usize::MAX) {
                    *t = k;
                }
            }
        };
        // The piece has left `from`, and a square passed twice holds
        // nothing the second time.
        let mid = m.mid().filter(|&s| s != from);
        if let Some(sq) = mid {
            capture(sq, &mut h);
        }
        let mid2 = m.mid2().filter(|&s| s != from && Some(s) != mid);
        if let Some(sq) = mid2 {
            capture(sq, &mut h);
        }
        if to != from && Some(to) != mid && Some(to) != mid2 {
            capture(to, &mut h);
        }
        let kind = if m.is_promotion() {
            r.kind(piece.kind).promotes_to.unwrap_or(piece.kind)
        } else {
            piece.kind
        };
        h ^ self.zobrist(Piece { color: us, kind }, to)
    }

    /// Plays a move that must be legal (or at least pseudo-legal: see
    /// [`Position::legal_moves`]). Returns what [`Position::unmake_move`] needs.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let us = self.side;
        let mut undo = Undo {
            captured: 0,
            captured_mid: 0,
            captured_mid2: 0,
            hash: self.hash,
        };
        let to = m.to();
        if let Some(k) = m.dropped() {
            self.take_from_hand(us, k);
            self.put(Piece { color: us, kind: k }, to);
        } else {
            let from = m.origin();
            let code = self.board.as_ref()[from.index()];
            let piece = Piece::from_code(code).expect("move from an empty square");
            if m.mid().is_none() && !m.is_promotion() {
                // The common case: one piece from one square to another, its
                // sets updated with a single toggle of both squares.
                undo.captured = self.capture_on(us, to);
                let board = self.board.as_mut();
                board[from.index()] = 0;
                board[to.index()] = code;
                self.toggle(piece, B::from_square(from) | B::from_square(to));
                self.hash ^= self.zobrist(piece, from) ^ self.zobrist(piece, to);
                self.side = !us;
                self.hash ^= self.rules.zobrist_side;
                self.move_number += 1;
                return undo;
            }
            self.remove(piece, from);
            if let Some(mid) = m.mid() {
                let mc = self.board.as_ref()[mid.index()];
                if let Some(victim) = Piece::from_code(mc) {
                    undo.captured_mid = mc;
                    self.remove(victim, mid);
                }
                if let Some(mid2) = m.mid2() {
                    let mc2 = self.board.as_ref()[mid2.index()];
                    if let Some(victim) = Piece::from_code(mc2) {
                        undo.captured_mid2 = mc2;
                        self.remove(victim, mid2);
                    }
                }
            }
            undo.captured = self.capture_on(us, to);
            let kind = if m.is_promotion() {
                self.rules.kind(piece.kind).promotes_to.expect("promotable")
            } else {
                piece.kind
            };
            self.put(Piece { color: us, kind }, to);
        }
        self.side = !us;
        self.hash ^= self.rules.zobrist_side;
        self.move_number += 1;
        undo
    }

    /// Takes the piece on `to`, if any, off the board and into the hand of
    /// `us` where the variant has drops. Returns its code (0: none).
    #[inline(always)]
    fn capture_on(&mut self, us: Color, to: Square) -> u8 {
        let code = self.board.as_ref()[to.index()];
        if let Some(victim) = Piece::from_code(code) {
            self.remove(victim, to);
            if self.rules.variant.drops {
                self.add_to_hand(us, self.rules.kind(victim.kind).base);
            }
        }
        code
    }

    /// Takes back `m`, which must be the last move made.
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let us = !self.side;
        let to = m.to();
        let moved = Piece::from_code(self.board.as_ref()[to.index()]).expect("moved piece");
        if m.dropped().is_none() && m.mid().is_none() && !m.is_promotion() {
            // The common case of make_move, undone the same way.
            let from = m.origin();
            let board = self.board.as_mut();
            board[from.index()] = moved.code();
            board[to.index()] = undo.captured;
            self.toggle(moved, B::from_square(from) | B::from_square(to));
            if let Some(victim) = Piece::from_code(undo.captured) {
                self.toggle(victim, B::from_square(to));
                if self.rules.variant.drops {
                    self.hands[us.index()][self.rules.kind(victim.kind).base.index()] -= 1;
                }
            }
            self.side = us;
            self.hash = undo.hash;
            self.move_number -= 1;
            return;
        }
        self.board.as_mut()[to.index()] = 0;
        self.toggle(moved, B::from_square(to));
        if let Some(k) = m.dropped() {
            self.hands[us.index()][k.index()] += 1;
        } else {
            let from = m.origin();
            let kind = if m.is_promotion() {
                self.rules.kind(moved.kind).base
            } else {
                moved.kind
            };
            self.place_raw(Piece { color: us, kind }, from);
            if let Some(victim) = Piece::from_code(undo.captured) {
                self.place_raw(victim, to);
                if self.rules.variant.drops {
                    self.hands[us.index()][self.rules.kind(victim.kind).base.index()] -= 1;
                }
            }
            if let (Some(mid2), Some(victim)) = (m.mid2(), Piece::from_code(undo.captured_mid2)) {
                self.place_raw(victim, mid2);
            }
            if let (Some(mid), Some(victim)) = (m.mid(), Piece::from_code(undo.captured_mid)) {
                self.place_raw(victim, mid);
            }
        }
        self.side = us;
        self.hash = undo.hash;
        self.move_number -= 1;
    }

    #[inline(always)]
    fn place_raw(&mut self, p: Piece, sq: Square) {
        self.board.as_mut()[sq.index()] = p.code();
        self.toggle(p, B::from_square(sq));
    }

    /// Checks that every derived set (colour and kind bitboards, the
    /// incremental sets, the hash) agrees with the mailbox and hands, as a
    /// position built from scratch would have them. For tests.
    ///
    /// # Errors
    /// The first disagreement found.
    #[doc(hidden)]
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut fresh = Position::empty(self.rules);
        for sq in self.rules.geometry.all() {
            if let Some(p) = self.piece_at(sq) {
                fresh.put(p, sq);
            }
        }
        fresh.hands = self.hands;
        fresh.side = self.side;
        fresh.move_number = self.move_number;
        if fresh.by_color != self.by_color {
            return Err("colour sets differ from the board".into());
        }
        if fresh.by_kind.as_ref() != self.by_kind.as_ref() {
            return Err("kind sets differ from the board".into());
        }
        if fresh.sets != self.sets {
            return Err("incremental group/class/slider sets differ from the board".into());
        }
        if fresh.compute_hash() != self.hash {
            return Err("hash differs from the board and hands".into());
        }
        Ok(())
    }

    /// Plays a move on a copy.
    pub fn after(&self, m: Move) -> Self {
        let mut p = self.clone();
        p.make_move(m);
        p
    }

    /// Passes the turn without moving (for null-move search and tests).
    pub fn make_null_move(&mut self) {
        self.side = !self.side;
        self.hash ^= self.rules.zobrist_side;
    }
}
