//! Squares and board geometry.
//!
//! A square is an index `(file - 1) * height + rank_index`, where files count
//! from Black's right (file 1) and ranks from White's side (rank `a` = index 0).
//! This is column-major, as in YaneuraOu: a file is a run of consecutive bits,
//! so a lance's ray and a file mask (for nifu) are contiguous.

use std::fmt;

/// A square index on a board of some [`Geometry`].
///
/// ```
/// use banmen_rules::{Geometry, Square};
/// let g = Geometry::NINE;
/// // Column-major: (file - 1) * ranks + rank index.
/// let sq = g.parse_square("7g").unwrap();
/// assert_eq!(sq, Square(6 * 9 + 6));
/// assert_eq!((g.file(sq), g.rank(sq), sq.index()), (7, 6, 60));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Square(pub u16);

impl Square {
    /// The index as `usize`, for table look-ups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The shape of a board: files (columns) by ranks (rows).
///
/// ```
/// use banmen_rules::Geometry;
/// let g = Geometry::SEVENTEEN;
/// assert_eq!(g.squares(), 289);
/// assert_eq!(g.square(17, 16), g.parse_square("17q"));
/// assert_eq!(g.square(18, 0), None);
/// assert_eq!(Geometry::FIVE.all().count(), 25);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Geometry {
    /// Number of files (5, 9 or 17).
    pub files: u8,
    /// Number of ranks (5, 9 or 17).
    pub ranks: u8,
}

impl Geometry {
    /// The 5x5 board of minishogi.
    pub const FIVE: Geometry = Geometry { files: 5, ranks: 5 };
    /// The 9x9 board of standard and cannon shogi.
    pub const NINE: Geometry = Geometry { files: 9, ranks: 9 };
    /// The 17x17 board of dai dai shogi.
    pub const SEVENTEEN: Geometry = Geometry {
        files: 17,
        ranks: 17,
    };

    /// Decimal digits of the largest file or rank number: 1 on 9x9, 2 on
    /// 17x17 (records write squares `77` or `0909`).
    ///
    /// ```
    /// use banmen_rules::Geometry;
    /// assert_eq!(Geometry::NINE.coordinate_digits(), 1);
    /// assert_eq!(Geometry::SEVENTEEN.coordinate_digits(), 2);
    /// ```
    pub const fn coordinate_digits(self) -> usize {
        let most = if self.files > self.ranks {
            self.files
        } else {
            self.ranks
        };
        if most < 10 {
            1
        } else if most < 100 {
            2
        } else {
            3
        }
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// The square at `file` (1-based) and `rank` (0-based from White's side), if on the board.
    #[inline]
    pub fn square(self, file: i32, rank: i32) -> Option<Square> {
        if file < 1 || file > self.files as i32 || rank < 0 || rank >= self.ranks as i32 {
            None
        } else {
            Some(Square(((file - 1) * self.ranks as i32 + rank) as u16))
        }
    }

    /// File number (1-based, from Black's right).
    #[inline(always)]
    pub fn file(self, sq: Square) -> i32 {
        sq.0 as i32 / self.ranks as i32 + 1
    }

    /// Rank index (0 = rank `a`, White's back rank).
    #[inline(always)]
    pub fn rank(self, sq: Square) -> i32 {
        sq.0 as i32 % self.ranks as i32
    }

    /// All squares, in index order.
    pub fn all(self) -> impl Iterator<Item = Square> {
        (0..self.squares() as u16).map(Square)
    }

    /// The USI name of a square: file number then rank letter (`7g`, `17q`).
    pub fn name(self, sq: Square) -> SquareName {
        SquareName {
            file: self.file(sq) as u8,
            rank: self.rank(sq) as u8,
        }
    }

    /// Parses a USI square name (`7g`, `12k`).
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        let (last, digits) = bytes.split_last()?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        if digits[0] == b'0' {
            return None;
        }
        let file: i32 = std::str::from_utf8(digits).ok()?.parse().ok()?;
        if !last.is_ascii_lowercase() {
            return None;
        }
        self.square(file, (*last - b'a') as i32)
    }
}

/// A square's printable name, from [`Geometry::name`].
///
/// ```
/// use banmen_rules::Geometry;
/// let g = Geometry::SEVENTEEN;
/// let sq = g.square(12, 10).unwrap();
/// assert_eq!(g.name(sq).to_string(), "12k");
/// assert_eq!(g.parse_square(&g.name(sq).to_string()), Some(sq));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareName {
    file: u8,
    rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file, (b'a' + self.rank) as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for g in [Geometry::NINE, Geometry::SEVENTEEN] {
            for sq in g.all() {
                let name = g.name(sq).to_string();
                assert_eq!(g.parse_square(&name), Some(sq), "{name}");
            }
        }
        assert_eq!(
            Geometry::NINE.parse_square("7g"),
            Geometry::NINE.square(7, 6)
        );
        assert_eq!(Geometry::NINE.parse_square("0a"), None);
        assert_eq!(Geometry::NINE.parse_square("10a"), None);
        assert_eq!(Geometry::NINE.parse_square("1j"), None);
        assert_eq!(
            Geometry::SEVENTEEN.parse_square("17q").map(|s| s.0),
            Some(288)
        );
    }
}
