//! The transposition table: one table shared by every search thread.
//!
//! Each entry is two `AtomicU64`s, the key XORed with the data and the data, so
//! a torn write from another thread is read as a miss instead of a wrong hit
//! (the lockless scheme of Hyatt and Mann), without `unsafe`.

use banmen_rules::Move;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

/// One search thread's move-ordering statistics, kept between the searches
/// of one game (as Stockfish keeps its histories).
#[derive(Debug, Default)]
pub(crate) struct Histories {
    /// Butterfly history by side, origin (or dropped kind) and destination.
    pub(crate) history: Vec<i32>,
    /// Continuation history `[previous piece-to][piece-to]`.
    pub(crate) cont: Vec<i16>,
    /// Counter move per piece-to key of the opponent's last move.
    pub(crate) counter: Vec<Option<Move>>,
    /// Static-evaluation corrections by side and pawn structure.
    pub(crate) correction: Vec<i32>,
    /// Capture history by piece-to and captured kind.
    pub(crate) capture: Vec<i16>,
}

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (a beta cut-off).
    Lower,
    /// At most this score (no move raised alpha).
    Upper,
}

/// One table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best or refuting move found, if any.
    pub best: Option<Move>,
    /// The score, mate scores relative to the stored node.
    pub score: i32,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

/// A fixed-size table of search results, indexed by position hash.
#[derive(Debug)]
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    generation: AtomicU8,
    /// Per search thread, its histories from the game's last search.
    histories: Mutex<Vec<Option<Histories>>>,
}

const ENTRY_BYTES: usize = 16;

impl Table {
    /// A table of about `megabytes` MiB (at least one entry).
    ///
    /// # Panics
    ///
    /// Aborts the process if the memory cannot be allocated; [`Table::try_new`]
    /// and [`Table::new_at_most`] do not.
    pub fn new(megabytes: usize) -> Table {
        let n = Self::entries(megabytes);
        let slots = (0..n)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        Table {
            slots,
            generation: AtomicU8::new(0),
            histories: Mutex::new(Vec::new()),
        }
    }

    /// A table of about `megabytes` MiB, with every entry written once, so
    /// the memory is really there (not only promised by the system) and the
    /// first search does not pay for it.
    ///
    /// # Errors
    ///
    /// When the memory cannot be reserved.
    pub fn try_new(megabytes: usize) -> Result<Table, TryReserveError> {
        let n = Self::entries(megabytes);
        let mut slots = Vec::new();
        slots.try_reserve_exact(n)?;
        slots.resize_with(n, || [AtomicU64::new(0), AtomicU64::new(0)]);
        let table = Table {
            slots,
            generation: AtomicU8::new(0),
            histories: Mutex::new(Vec::new()),
        };
        // Atomic stores, which the compiler keeps: a zeroed allocation may
        // otherwise be mapped lazily, one page fault at a time in the search.
        table.clear();
        Ok(table)
    }

    /// The largest table of at most `megabytes` MiB that can be allocated,
    /// halving the size until the allocation succeeds (down to 1 MiB).
    /// [`Table::megabytes`] says what was obtained.
    pub fn new_at_most(megabytes: usize) -> Table {
        let mut mb = megabytes.max(1);
        loop {
            match Self::try_new(mb) {
                Ok(t) => return t,
                Err(_) if mb > 1 => mb /= 2,
                Err(_) => return Table::new(1),
            }
        }
    }

    fn entries(megabytes: usize) -> usize {
        (megabytes.max(1).saturating_mul(1024 * 1024) / ENTRY_BYTES).max(1)
    }

    /// The table's size in MiB (rounded down; 0 for a table under 1 MiB).
    pub fn megabytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES / (1024 * 1024)
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The histories thread `id` left at the end of the game's last search.
    pub(crate) fn take_histories(&self, id: usize) -> Option<Histories> {
        let mut kept = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        kept.get_mut(id).and_then(Option::take)
    }

    /// Keeps thread `id`'s histories for the game's next search.
    pub(crate) fn keep_histories(&self, id: usize, h: Histories) {
        let mut kept = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() <= id {
            kept.resize_with(id + 1, || None);
        }
        kept[id] = Some(h);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, hash: u64) -> &[AtomicU64; 2] {
        // Multiply-shift maps the hash onto the table without a modulo.
        let i = ((hash as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[i]
    }

    /// Asks the processor to bring `hash`'s slot into the cache, so that a
    /// [`Table::probe`] soon after does not wait for memory (most probes
    /// miss the cache: the table is far larger than it).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slot(hash).as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint: it never faults and never
            // reads or writes memory as the program sees it, whatever the
            // address (here a valid one), and SSE is in every x86_64.
            #[allow(unsafe_code)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The entry stored for `hash`, if any.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let s = self.slot(hash);
        let key = s[0].load(Ordering::Relaxed);
        let data = s[1].load(Ordering::Relaxed);
        if data == 0 || key ^ data != hash {
            return None;
        }
        unpack(data)
    }

    /// Stores a result, replacing an entry of another position only if it
    /// is from an older search or shallower.
    pub fn store(&self, hash: u64, best: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let s = self.slot(hash);
        let old_key = s[0].load(Ordering::Relaxed);
        let old = s[1].load(Ordering::Relaxed);
        let generation = self.generation.load(Ordering::Relaxed);
        let same = old_key ^ old == hash;
        if old != 0 && !same {
            let old_gen = generation_of(old);
            let old_depth = ((old >> 48) & 0xFF) as i32;
            if old_gen == generation & 0x3F && old_depth > depth + 2 && bound != Bound::Exact {
                return;
            }
        }
        // Keep the old move when the new result has none for the same position.
        let best = best.or_else(|| {
            if same {
                unpack(old).and_then(|e| e.best)
            } else {
                None
            }
        });
        let data = pack(best, score, depth, bound, generation);
        s[0].store(hash ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (USI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && generation_of(d) == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

// Layout: move bits 0..30 and a "has move" bit 31, score 32..48 (i16), depth
// 48..56, generation low 4 bits 56..60, bound 60..62 (0 = empty), generation
// high 2 bits 62..64.
fn pack(best: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let mv = best.map_or(0u64, |m| (m.bits() as u64 & 0x3FFF_FFFF) | 1 << 31);
    let score = (score.clamp(-32767, 32767) as i16 as u16) as u64;
    let depth = depth.clamp(0, 255) as u64;
    let bound = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let g = (generation & 0x3F) as u64;
    mv | score << 32 | depth << 48 | (g & 0xF) << 56 | bound << 60 | (g >> 4) << 62
}

fn generation_of(data: u64) -> u8 {
    ((data >> 56) & 0xF) as u8 | ((data >> 62) as u8) << 4
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 60) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let best = if data & (1 << 31) != 0 {
        Some(move_from_bits((data & 0x3FFF_FFFF) as u32))
    } else {
        None
    };
    Some(Entry {
        best,
        score: ((data >> 32) & 0xFFFF) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
    })
}

/// Rebuilds a move from its packed bits.
fn move_from_bits(bits: u32) -> Move {
    use banmen_rules::{Kind, Square};
    const SQ: u32 = 0x1FF;
    let to = Square((bits & SQ) as u16);
    let from = ((bits >> 9) & SQ) as u16;
    let promote = bits & (1 << 27) != 0;
    if bits & (1 << 28) != 0 {
        Move::drop(Kind(from as u8), to)
    } else if bits & (1 << 29) != 0 {
        Move::double(
            Square(from),
            Square(((bits >> 18) & SQ) as u16),
            to,
            promote,
        )
    } else {
        Move::board(Square(from), to, promote)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{Kind, Square};

    #[test]
    fn an_impossible_size_is_refused_not_aborted() {
        assert!(Table::try_new(usize::MAX / 1024).is_err());
        let t = Table::try_new(2).expect("2 MiB");
        assert_eq!(t.megabytes(), 2);
        assert_eq!(Table::new_at_most(1).megabytes(), 1);
    }

    #[test]
    fn histories_are_kept_per_thread_until_the_game_ends() {
        let t = Table::new(1);
        assert!(t.take_histories(0).is_none());
        let h = |v: i32| Histories {
            history: vec![v; 3],
            ..Histories::default()
        };
        t.keep_histories(1, h(7));
        t.keep_histories(0, h(5));
        assert_eq!(t.take_histories(1).map(|h| h.history), Some(vec![7; 3]));
        // Taken once: the thread gives it back at the end of its search.
        assert!(t.take_histories(1).is_none());
        // A new game forgets them.
        t.clear();
        assert!(t.take_histories(0).is_none());
    }

    #[test]
    fn entries_round_trip() {
        let t = Table::new(1);
        let moves = [
            Move::board(Square(10), Square(20), true),
            Move::drop(Kind(3), Square(40)),
            Move::double(Square(280), Square(270), Square(288), false),
        ];
        for (i, &m) in moves.iter().enumerate() {
            let h = 0x1234_5678_9abc_def0 ^ (i as u64) << 40;
            t.store(h, Some(m), -31000 + i as i32, 7, Bound::Lower);
            let e = t.probe(h).expect("stored");
            assert_eq!(e.best, Some(m));
            assert_eq!(e.score, -31000 + i as i32);
            assert_eq!(e.depth, 7);
            assert_eq!(e.bound, Bound::Lower);
        }
        for _ in 0..21 {
            t.new_search();
        }
        t.store(0, None, 0, 1, Bound::Exact);
        assert_eq!(generation_of(t.slot(0)[1].load(Ordering::Relaxed)), 21);
        assert_eq!(t.probe(42), None);
    }
}
