//! The df-pn solver's table: a fixed number of entries, keyed by the board
//! alone, each holding the attacker's hand it was found for.
//!
//! A proof found with some attacker hand holds for every larger hand (the
//! attacker has more to drop, the defender less), a disproof for every smaller
//! one, so one entry answers many positions. The table never grows: a new
//! entry replaces the one with the least search effort in its bucket.

use banmen_rules::{Hand, MAX_HAND_KINDS};
use std::collections::TryReserveError;

/// Proof and disproof numbers are at most this (it stands for infinity).
pub const INF: u32 = u32::MAX / 2;
/// A hand count that stands for "any number" in a disproof hand.
pub const ANY: u8 = u8::MAX;
/// A mate length or depth that stands for "no limit".
pub const NO_LIMIT: u16 = u16::MAX;

/// Entries looked at for one board key.
const BUCKET: usize = 8;

/// What an entry says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Nothing (a free slot).
    Empty,
    /// Not decided: `pn` and `dn` are the last estimates, for exactly `hand`.
    Unknown,
    /// Mate in `len` plies for every attacker hand at least `hand`.
    Proven,
    /// No mate within `len` plies ([`NO_LIMIT`]: none at all) for every attacker
    /// hand at most `hand`; when `path` is not zero, only on the path with that key
    /// (the disproof leans on a repetition of an earlier position).
    Disproven,
}

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The board key ([`banmen_rules::Position::board_hash`]).
    pub key: u64,
    /// The attacker's hand: exact, proof or disproof hand by `state`.
    pub hand: Hand,
    /// The proof number (unknown entries).
    pub pn: u32,
    /// The disproof number (unknown entries).
    pub dn: u32,
    /// Mate length (proven) or the depth with no mate (disproven).
    pub len: u16,
    /// What the entry says.
    pub state: State,
    /// The key of the path a disproof depends on, or zero.
    pub path: u64,
    /// Nodes searched below this entry (replacement keeps the costly ones).
    pub amount: u32,
    /// The search the entry belongs to: entries of earlier ones count as free
    /// (so that clearing the table costs nothing).
    pub generation: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    hand: [0; MAX_HAND_KINDS],
    pn: 1,
    dn: 1,
    len: 0,
    state: State::Empty,
    path: 0,
    amount: 0,
    generation: 0,
};

/// What a look-up found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// Mate in `len` plies; `hand` is the proof hand.
    Proven { hand: Hand, len: u16 },
    /// No mate within the depth asked; `hand` is the disproof hand, `len` the
    /// depth it holds to, `rep` whether it leans on a repetition.
    Disproven { hand: Hand, len: u16, rep: bool },
    /// Estimates for this exact hand.
    Unknown { pn: u32, dn: u32 },
}

/// Whether `a <= b` for every kind.
#[inline]
pub fn hand_le(a: &Hand, b: &Hand, kinds: usize) -> bool {
    a[..kinds].iter().zip(&b[..kinds]).all(|(x, y)| x <= y)
}

/// The fixed-size table.
pub struct MateTable {
    entries: Vec<Entry>,
    /// The current search; never 0 (the mark of never-written entries).
    generation: u8,
}

impl std::fmt::Debug for MateTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MateTable({} entries)", self.entries.len())
    }
}

impl MateTable {
    /// A table of about `megabytes` MiB, or the allocation error.
    pub fn try_new(megabytes: usize) -> Result<MateTable, TryReserveError> {
        let n = (megabytes.max(1) << 20) / std::mem::size_of::<Entry>();
        let n = n.max(BUCKET);
        let mut entries = Vec::new();
        entries.try_reserve_exact(n)?;
        entries.resize(n, EMPTY);
        Ok(MateTable {
            entries,
            generation: 1,
        })
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// Entries in use, per mille (for `info hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.state != State::Empty && e.generation == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        // A new generation; only when the counter wraps are entries rewritten.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.fill(EMPTY);
            self.generation = 1;
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let n = self.entries.len();
        let start = ((key as u128 * (n - BUCKET + 1) as u128) >> 64) as usize;
        start..start + BUCKET
    }

    /// What is known of the board `key` with attacker hand `hand`, searched
    /// to at most `depth` plies, on the path `path`.
    pub fn look_up(
        &self,
        key: u64,
        hand: &Hand,
        kinds: usize,
        depth: u16,
        path: u64,
    ) -> Option<Found> {
        let mut unknown = None;
        let mut proven: Option<(Hand, u16)> = None;
        for e in &self.entries[self.bucket(key)] {
            if e.key != key || e.generation != self.generation {
                continue;
            }
            match e.state {
                State::Empty => {}
                State::Proven => {
                    if e.len <= depth
                        && hand_le(&e.hand, hand, kinds)
                        && proven.is_none_or(|(_, l)| e.len < l)
                    {
                        proven = Some((e.hand, e.len));
                    }
                }
                State::Disproven => {
                    if e.len >= depth
                        && (e.path == 0 || e.path == path)
                        && hand_le(hand, &e.hand, kinds)
                    {
                        return Some(Found::Disproven {
                            hand: e.hand,
                            len: e.len,
                            rep: e.path != 0,
                        });
                    }
                }
                State::Unknown => {
                    if e.hand[..kinds] == hand[..kinds] {
                        unknown = Some(Found::Unknown { pn: e.pn, dn: e.dn });
                    }
                }
            }
        }
        if let Some((hand, len)) = proven {
            return Some(Found::Proven { hand, len });
        }
        unknown
    }

    /// Stores an entry: over the same statement for the same hand, else over
    /// a free slot, else over the entry with the least effort in the bucket.
    pub fn store(&mut self, mut entry: Entry, kinds: usize) {
        entry.generation = self.generation;
        let range = self.bucket(entry.key);
        let mut victim = range.start;
        let mut victim_amount = u32::MAX;
        for i in range {
            let e = &self.entries[i];
            if e.state == State::Empty || e.generation != self.generation {
                if victim_amount > 0 {
                    victim = i;
                    victim_amount = 0;
                }
                continue;
            }
            if e.key == entry.key && e.hand[..kinds] == entry.hand[..kinds] && e.path == entry.path
            {
                let same = e.state == entry.state;
                // An unknown estimate is replaced by any result for its hand.
                let overwrite = same || e.state == State::Unknown;
                if overwrite {
                    let mut new = entry;
                    new.amount = new.amount.max(e.amount);
                    if same && e.state == State::Proven {
                        new.len = new.len.min(e.len);
                    }
                    if same && e.state == State::Disproven {
                        new.len = new.len.max(e.len);
                    }
                    self.entries[i] = new;
                    return;
                }
            }
            // Results are worth more than estimates.
            let worth = match e.state {
                State::Unknown => e.amount,
                _ => e.amount.saturating_add(1 << 16),
            };
            if worth < victim_amount {
                victim = i;
                victim_amount = worth;
            }
        }
        self.entries[victim] = entry;
    }
}
