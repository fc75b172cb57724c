//! Colours, piece kinds and pieces.

use std::ops::Not;

/// A side. Black (sente) moves first in an even game.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// assert_eq!(pos.side_to_move(), Color::Black);
/// assert_eq!(!Color::Black, Color::White);
/// assert_eq!((Color::White.sfen_char(), Color::White.index()), ('w', 1));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Sente, upper case in SFEN.
    Black = 0,
    /// Gote, lower case in SFEN.
    White = 1,
}

impl Color {
    /// 0 for Black, 1 for White.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];
    /// `b` or `w`, as in SFEN.
    pub fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
    /// "black" or "white".
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// A piece kind within a variant: one of its base types or a promoted form.
/// Base types come first, in the variant's listing order (which is also the
/// SFEN hand order); promoted kinds follow. [`Rules::kind`](crate::Rules::kind)
/// tells what a kind is.
///
/// ```
/// use banmen_rules::{rules_9x9, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pawn = rules.kind_by_code("P").unwrap();
/// assert!(pawn.index() < rules.n_base);
/// let tokin = rules.kind(pawn).promotes_to.unwrap();
/// assert!(tokin.index() >= rules.n_base);
/// assert_eq!(rules.kind(tokin).name, "tokin");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Kind(pub u8);

impl Kind {
    /// The index for table look-ups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece on the board: a colour and a kind.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Piece, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let rook = rules.kind_by_code("R").unwrap();
/// let on_2h = pos.piece_at(rules.geometry.parse_square("2h").unwrap());
/// assert_eq!(on_2h, Some(Piece { color: Color::Black, kind: rook }));
/// assert_eq!(pos.token(Piece { color: Color::White, kind: rook }), "r");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind within the variant.
    pub kind: Kind,
}

impl Piece {
    /// Mailbox byte: 0 is empty, else `1 + 2 * kind + color`.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        1 + 2 * self.kind.0 + self.color as u8
    }
    /// Reads a mailbox byte.
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            None
        } else {
            let c = code - 1;
            Some(Piece {
                color: if c & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                kind: Kind(c >> 1),
            })
        }
    }
}
