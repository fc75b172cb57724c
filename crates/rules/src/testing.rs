//! Helpers for tests, benchmarks and fuzz replays across the workspace.

/// A small deterministic random number generator (xorshift64*): random games
/// that are the same on every run, without a dependency.
///
/// ```
/// use banmen_rules::testing::XorShift;
/// let (mut a, mut b) = (XorShift::new(7), XorShift::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!((0..100).all(|_| a.below(6) < 6));
/// ```
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a seed (any value; zero is replaced).
    pub fn new(seed: u64) -> Self {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}
