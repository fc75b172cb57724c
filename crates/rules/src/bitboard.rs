//! Bitsets of squares, sized to the board: `u128` for 81 squares, five `u64`
//! words for 289. Everything above the rules core is generic over [`BitBoard`].

use crate::square::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Bits beyond the board's squares may be set by `!`; mask
/// with the board before counting.
///
/// ```
/// use banmen_rules::{Bb128, BitBoard, Geometry};
/// let g = Geometry::NINE;
/// let mut set = Bb128::EMPTY;
/// set.set(g.parse_square("7g").unwrap());
/// set.set(g.parse_square("2h").unwrap());
/// assert_eq!(set.count(), 2);
/// assert!(set.has(g.parse_square("7g").unwrap()));
/// // `!` sets all 128 bits; the board has 81.
/// assert_eq!((!Bb128::EMPTY).count(), 128);
/// ```
pub trait BitBoard:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The most squares this set can hold.
    const CAPACITY: usize;
    /// One byte per square: the board's mailbox.
    type Mailbox: Copy + AsRef<[u8]> + AsMut<[u8]> + Debug + Eq + Hash + Send + Sync;

    /// The most piece kinds (base and promoted) a variant on this board may have.
    const MAX_KINDS: usize;
    /// One set per colour and kind: `[color * MAX_KINDS + kind]`.
    type KindBoards: Copy + AsRef<[Self]> + AsMut<[Self]> + Debug + Eq + Hash + Send + Sync;

    /// The empty set.
    const EMPTY: Self;
    /// A mailbox with every square empty.
    fn empty_mailbox() -> Self::Mailbox;
    /// Every colour-and-kind set empty.
    fn empty_kind_boards() -> Self::KindBoards;
    /// The set holding only `sq`.
    fn from_square(sq: Square) -> Self;
    /// Whether the set is empty.
    fn is_empty(&self) -> bool;
    /// Whether `sq` is in the set.
    fn has(&self, sq: Square) -> bool;
    /// The lowest square; the set must not be empty.
    fn lsb(&self) -> Square;
    /// The highest square; the set must not be empty.
    fn msb(&self) -> Square;
    /// Number of squares in the set.
    fn count(&self) -> u32;
    /// Whether more than one square is set.
    fn more_than_one(&self) -> bool;
    /// The set moved `delta` places toward higher square indices (toward
    /// lower ones when negative); squares pushed past either end are lost.
    fn shifted(self, delta: i32) -> Self;
    /// Removes and returns the lowest square.
    #[inline(always)]
    fn pop(&mut self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            let sq = self.lsb();
            *self ^= Self::from_square(sq);
            Some(sq)
        }
    }
    /// Adds `sq`.
    #[inline(always)]
    fn set(&mut self, sq: Square) {
        *self |= Self::from_square(sq);
    }
    /// Iterates over the squares, lowest first.
    #[inline(always)]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over a [`BitBoard`]'s squares, lowest index first (from
/// [`BitBoard::squares`]).
///
/// ```
/// use banmen_rules::{Bb128, BitBoard, Geometry};
/// let g = Geometry::NINE;
/// let set = Bb128::from_square(g.parse_square("2h").unwrap())
///     | Bb128::from_square(g.parse_square("7g").unwrap());
/// let names: Vec<String> = set.squares().map(|sq| g.name(sq).to_string()).collect();
/// assert_eq!(names, ["2h", "7g"]);
/// ```
#[derive(Debug, Clone)]
pub struct Squares<B>(B);

impl<B: BitBoard> Iterator for Squares<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.pop()
    }
}

/// 81 squares in one `u128`: the board type of shogi, cannon shogi and
/// minishogi.
///
/// ```
/// use banmen_rules::{rules_9x9, Bb128, BitBoard, Color, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let board: Bb128 = rules.board_mask();
/// assert_eq!(board.count(), 81);
/// assert_eq!(board.0, (1u128 << 81) - 1);
/// assert_eq!(rules.zone(Color::Black).count(), 27);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bb128(pub u128);

macro_rules! ops {
    ($t:ident, $($field:tt)*) => {
        impl BitAnd for $t {
            type Output = Self;
            #[inline(always)]
            fn bitand(self, o: Self) -> Self {
                $t(self.0 & o.0)
            }
        }
        impl BitOr for $t {
            type Output = Self;
            #[inline(always)]
            fn bitor(self, o: Self) -> Self {
                $t(self.0 | o.0)
            }
        }
        impl BitXor for $t {
            type Output = Self;
            #[inline(always)]
            fn bitxor(self, o: Self) -> Self {
                $t(self.0 ^ o.0)
            }
        }
        impl Not for $t {
            type Output = Self;
            #[inline(always)]
            fn not(self) -> Self {
                $t(!self.0)
            }
        }
        impl BitAndAssign for $t {
            #[inline(always)]
            fn bitand_assign(&mut self, o: Self) {
                self.0 &= o.0
            }
        }
        impl BitOrAssign for $t {
            #[inline(always)]
            fn bitor_assign(&mut self, o: Self) {
                self.0 |= o.0
            }
        }
        impl BitXorAssign for $t {
            #[inline(always)]
            fn bitxor_assign(&mut self, o: Self) {
                self.0 ^= o.0
            }
        }
    };
}
ops!(Bb128,);

impl BitBoard for Bb128 {
    const CAPACITY: usize = 128;
    type Mailbox = [u8; 81];
    const MAX_KINDS: usize = 32;
    type KindBoards = [Bb128; 64];
    const EMPTY: Self = Bb128(0);
    #[inline(always)]
    fn empty_mailbox() -> [u8; 81] {
        [0; 81]
    }
    #[inline(always)]
    fn empty_kind_boards() -> [Bb128; 64] {
        [Bb128(0); 64]
    }
    #[inline(always)]
    fn from_square(sq: Square) -> Self {
        Bb128(1u128 << sq.0)
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    fn has(&self, sq: Square) -> bool {
        (self.0 >> sq.0) & 1 != 0
    }
    #[inline(always)]
    fn lsb(&self) -> Square {
        Square(self.0.trailing_zeros() as u16)
    }
    #[inline(always)]
    fn msb(&self) -> Square {
        Square(127 - self.0.leading_zeros() as u16)
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.0.count_ones()
    }
    #[inline(always)]
    fn more_than_one(&self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    #[inline(always)]
    fn shifted(self, delta: i32) -> Self {
        if delta >= 0 {
            Bb128(self.0.checked_shl(delta as u32).unwrap_or(0))
        } else {
            Bb128(self.0.checked_shr(delta.unsigned_abs()).unwrap_or(0))
        }
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square(self.0.trailing_zeros() as u16);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// Up to 320 squares in five `u64` words (dai dai shogi's 289).
///
/// ```
/// use banmen_rules::{Bb320, BitBoard, Geometry};
/// let g = Geometry::SEVENTEEN;
/// let corner = g.parse_square("17q").unwrap();
/// assert_eq!(corner.index(), 288);
/// let set = Bb320::from_square(corner);
/// assert_eq!(set.0[4], 1 << (288 - 4 * 64));
/// assert_eq!((set.count(), set.lsb()), (1, corner));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bb320(pub [u64; 5]);

macro_rules! ops5 {
    ($t:ident) => {
        impl BitAnd for $t {
            type Output = Self;
            #[inline(always)]
            fn bitand(self, o: Self) -> Self {
                $t(std::array::from_fn(|i| self.0[i] & o.0[i]))
            }
        }
        impl BitOr for $t {
            type Output = Self;
            #[inline(always)]
            fn bitor(self, o: Self) -> Self {
                $t(std::array::from_fn(|i| self.0[i] | o.0[i]))
            }
        }
        impl BitXor for $t {
            type Output = Self;
            #[inline(always)]
            fn bitxor(self, o: Self) -> Self {
                $t(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
            }
        }
        impl Not for $t {
            type Output = Self;
            #[inline(always)]
            fn not(self) -> Self {
                $t(std::array::from_fn(|i| !self.0[i]))
            }
        }
        impl BitAndAssign for $t {
            #[inline(always)]
            fn bitand_assign(&mut self, o: Self) {
                *self = *self & o
            }
        }
        impl BitOrAssign for $t {
            #[inline(always)]
            fn bitor_assign(&mut self, o: Self) {
                *self = *self | o
            }
        }
        impl BitXorAssign for $t {
            #[inline(always)]
            fn bitxor_assign(&mut self, o: Self) {
                *self = *self ^ o
            }
        }
    };
}
ops5!(Bb320);

impl BitBoard for Bb320 {
    const CAPACITY: usize = 320;
    type Mailbox = [u8; 289];
    const MAX_KINDS: usize = 128;
    type KindBoards = [Bb320; 256];
    const EMPTY: Self = Bb320([0; 5]);
    fn empty_mailbox() -> [u8; 289] {
        [0; 289]
    }
    fn empty_kind_boards() -> [Bb320; 256] {
        [Bb320([0; 5]); 256]
    }
    #[inline(always)]
    fn from_square(sq: Square) -> Self {
        let mut w = [0; 5];
        w[sq.index() / 64] = 1u64 << (sq.0 % 64);
        Bb320(w)
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn has(&self, sq: Square) -> bool {
        (self.0[sq.index() / 64] >> (sq.0 % 64)) & 1 != 0
    }
    #[inline(always)]
    fn lsb(&self) -> Square {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Square((i * 64) as u16 + w.trailing_zeros() as u16);
            }
        }
        Square(0)
    }
    #[inline(always)]
    fn msb(&self) -> Square {
        for i in (0..5).rev() {
            let w = self.0[i];
            if w != 0 {
                return Square((i * 64) as u16 + 63 - w.leading_zeros() as u16);
            }
        }
        Square(0)
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn more_than_one(&self) -> bool {
        self.count() > 1
    }
    fn shifted(self, delta: i32) -> Self {
        let n = delta.unsigned_abs() as usize;
        let (words, bits) = (n / 64, (n % 64) as u32);
        let mut out = [0u64; 5];
        if words >= 5 {
            return Bb320(out);
        }
        if delta >= 0 {
            for (src, word) in out.iter_mut().skip(words).enumerate() {
                *word = self.0[src] << bits;
                if bits != 0 && src > 0 {
                    *word |= self.0[src - 1] >> (64 - bits);
                }
            }
        } else {
            for (i, word) in out.iter_mut().take(5 - words).enumerate() {
                let src = i + words;
                *word = self.0[src] >> bits;
                if bits != 0 && src + 1 < 5 {
                    *word |= self.0[src + 1] << (64 - bits);
                }
            }
        }
        Bb320(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: BitBoard>(squares: &[u16]) {
        let mut b = B::EMPTY;
        for &s in squares {
            b.set(Square(s));
        }
        assert_eq!(b.count() as usize, squares.len());
        assert_eq!(b.lsb(), Square(*squares.iter().min().unwrap()));
        assert_eq!(b.msb(), Square(*squares.iter().max().unwrap()));
        let mut got: Vec<u16> = b.squares().map(|s| s.0).collect();
        let mut want = squares.to_vec();
        want.sort();
        got.sort();
        assert_eq!(got, want);
        assert!(b.more_than_one() == (squares.len() > 1));
        for delta in [-130, -64, -63, -9, -1, 0, 1, 9, 17, 63, 64, 65, 130] {
            let mut want: Vec<u16> = squares
                .iter()
                .map(|&s| s as i32 + delta)
                .filter(|&s| (0..B::CAPACITY as i32).contains(&s))
                .map(|s| s as u16)
                .collect();
            want.sort();
            let got: Vec<u16> = b.shifted(delta).squares().map(|s| s.0).collect();
            assert_eq!(got, want, "shift by {delta}");
        }
    }

    #[test]
    fn both_widths_agree() {
        exercise::<Bb128>(&[0, 5, 80]);
        exercise::<Bb128>(&[64]);
        exercise::<Bb320>(&[0, 63, 64, 200, 288]);
        exercise::<Bb320>(&[130]);
    }
}
