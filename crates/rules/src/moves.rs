//! The move type: a board move (with optional promotion), a drop, or (dai dai
//! shogi) a lion double move through a middle square.

use crate::piece::Kind;
use crate::square::Square;

/// A move packed in 32 bits: `to` (9 bits), `from` or dropped kind (9 bits),
/// middle square (9 bits), then flags.
///
/// ```
/// use banmen_rules::{rules_9x9, Move, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let g = rules.geometry;
/// let pos = Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b G 1", SfenMode::Strict).unwrap();
/// let king_up = pos.parse_move("5i5h").unwrap();
/// let (from, to) = (g.parse_square("5i").unwrap(), g.parse_square("5h").unwrap());
/// assert_eq!(king_up, Move::board(from, to, false));
/// assert_eq!((king_up.from(), king_up.to(), king_up.is_drop()), (Some(from), to, false));
/// let drop = pos.parse_move("G*5b").unwrap();
/// assert_eq!(drop.dropped(), rules.kind_by_code("G"));
/// assert_eq!(drop.from(), None);
/// assert_eq!(pos.move_to_usi(drop), "G*5b");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Move(u32);

const SQ_MASK: u32 = 0x1FF;
const PROMOTE: u32 = 1 << 27;
const DROP: u32 = 1 << 28;
const MID: u32 = 1 << 29;
const SECOND_MID: u32 = 1 << 30;

impl Move {
    /// A board move.
    #[inline(always)]
    pub const fn board(from: Square, to: Square, promote: bool) -> Move {
        Move(to.0 as u32 | (from.0 as u32) << 9 | if promote { PROMOTE } else { 0 })
    }

    /// A board move through a middle square (a lion's double move or pass).
    #[inline(always)]
    pub const fn double(from: Square, mid: Square, to: Square, promote: bool) -> Move {
        Move(
            to.0 as u32
                | (from.0 as u32) << 9
                | (mid.0 as u32) << 18
                | MID
                | if promote { PROMOTE } else { 0 },
        )
    }

    /// A line move of the Japanese lion dog to the third square of a line that
    /// captures on both the first (`mid`) and the second square.
    #[inline(always)]
    pub const fn double_both(from: Square, mid: Square, to: Square, promote: bool) -> Move {
        Move(Move::double(from, mid, to, promote).0 | SECOND_MID)
    }

    /// The second captured middle square of a [`Move::double_both`]: the square
    /// after `mid` on the line from the origin (index arithmetic works because
    /// a line is a constant index step on the board).
    #[inline(always)]
    pub const fn mid2(self) -> Option<Square> {
        if self.0 & SECOND_MID != 0 {
            let from = (self.0 >> 9) & SQ_MASK;
            let mid = (self.0 >> 18) & SQ_MASK;
            Some(Square(((2 * mid).wrapping_sub(from) & SQ_MASK) as u16))
        } else {
            None
        }
    }

    /// A drop of a base kind from hand.
    #[inline(always)]
    pub const fn drop(kind: Kind, to: Square) -> Move {
        Move(to.0 as u32 | (kind.0 as u32) << 9 | DROP)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 & SQ_MASK) as u16)
    }

    /// The origin square of a board move; `None` for a drop.
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        if self.is_drop() {
            None
        } else {
            Some(Square(((self.0 >> 9) & SQ_MASK) as u16))
        }
    }

    /// The origin of a board move (meaningless for a drop).
    #[inline(always)]
    pub(crate) const fn origin(self) -> Square {
        Square(((self.0 >> 9) & SQ_MASK) as u16)
    }

    /// The middle square of a double move.
    #[inline(always)]
    pub const fn mid(self) -> Option<Square> {
        if self.0 & MID != 0 {
            Some(Square(((self.0 >> 18) & SQ_MASK) as u16))
        } else {
            None
        }
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    /// The kind dropped; `None` for a board move.
    #[inline(always)]
    pub const fn dropped(self) -> Option<Kind> {
        if self.is_drop() {
            Some(Kind(((self.0 >> 9) & SQ_MASK) as u8))
        } else {
            None
        }
    }

    /// Whether the moving piece promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The packed bits (for hashing tables and compact storage).
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0
    }
}
