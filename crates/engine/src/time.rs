//! Search limits and how much of the clock to spend on one move.

use banmen_rules::{Color, Move};
use std::time::{Duration, Instant};

/// What bounds a search (the arguments of USI `go`). Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Spend exactly this long.
    pub movetime: Option<u64>,
    /// Time left on each side's clock (Black, White).
    pub time: [Option<u64>; 2],
    /// Fischer increment per move (Black, White).
    pub increment: [u64; 2],
    /// Byoyomi per move once the main time is spent.
    pub byoyomi: u64,
    /// Search until told to stop.
    pub infinite: bool,
    /// Search the expected reply's position until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Search only these root moves (USI `searchmoves`); those not legal are
    /// left out, and when none is legal every move is searched.
    pub searchmoves: Vec<Move>,
    /// When the clock started (the USI `go` arrived); `None`: when
    /// [`search`](crate::search()) is called. Time spent before the search
    /// starts counts against the budget.
    pub start: Option<Instant>,
}

impl Limits {
    /// Whether only `stop` (or a depth/node limit) ends the search.
    pub fn unbounded(&self) -> bool {
        self.infinite || (self.movetime.is_none() && self.time == [None, None] && self.byoyomi == 0)
    }
}

/// Time kept in reserve for the GUI and the pipe.
const MARGIN_MS: u64 = 60;

/// Under `go movetime` the time is the engine's to use, as Fairy-Stockfish
/// and YaneuraOu use it: only a twentieth (at most 10 ms) is kept back for
/// stopping and answering (a search checks the clock every 256 nodes, well
/// under a millisecond).
const MOVETIME_MARGIN_MS: u64 = 10;

/// How long to think: past `soft` no new iteration starts; at `hard` the
/// search is cut off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft: Duration,
    /// Abort the search at this point.
    pub hard: Duration,
}

impl Budget {
    /// The budget for `side` under `limits`; `None` when time does not limit the search.
    pub fn new(limits: &Limits, side: Color) -> Option<Budget> {
        if limits.infinite {
            return None;
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(MOVETIME_MARGIN_MS.min(mt / 20)).max(1);
            return Some(Budget::ms(t, t));
        }
        let left = limits.time[side.index()];
        let inc = limits.increment[side.index()];
        let byoyomi = limits.byoyomi;
        if left.is_none() && byoyomi == 0 {
            return None;
        }
        let left = left.unwrap_or(0);
        // Assume about 30 more moves of our own to play from the main time.
        let base = left / 30;
        let (soft, hard) = if byoyomi > 0 {
            // The byoyomi is lost if not used, so use nearly all of it: a new
            // iteration may start until the byoyomi's end (an unfinished one
            // still improves the move when a better one was found), and only
            // the share of the main time is spent with care.
            // A short byoyomi keeps a sixth of it (at least 25 ms), up to the
            // full margin: the clock runs from the `go` line's arrival and the
            // stop is checked every 256 nodes, so what is left is the reply's
            // way out (on a loaded machine an eighth with checks every 1024
            // nodes came 56 ms late; a third gave away 60 ms of 200).
            let margin = (byoyomi / 6).clamp(25, MARGIN_MS);
            let usable = byoyomi.saturating_sub(margin).max(byoyomi / 2);
            let soft = base * 6 / 10 + usable;
            let hard = (left / 4 + usable).min(left + usable);
            (soft, hard)
        } else {
            let reserve = left.saturating_sub(MARGIN_MS);
            let soft = ((base + inc * 3 / 4) * 6 / 10).min(reserve);
            let hard = (left / 4 + inc).min(reserve);
            (soft, hard)
        };
        let hard = hard.max(1);
        Some(Budget::ms(soft.min(hard).max(1), hard))
    }

    fn ms(soft: u64, hard: u64) -> Budget {
        Budget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_kept() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = Budget::new(&l, Color::Black).unwrap();
        assert_eq!(b.hard, Duration::from_millis(990));
        // A short movetime keeps a twentieth back, not a quarter.
        for (mt, hard) in [(180, 171), (60, 57), (100, 95), (10, 10)] {
            let l = Limits {
                movetime: Some(mt),
                ..Limits::default()
            };
            let b = Budget::new(&l, Color::Black).unwrap();
            assert_eq!(b.hard, Duration::from_millis(hard), "movetime {mt}");
            assert_eq!(b.soft, b.hard);
        }
    }

    #[test]
    fn byoyomi_alone_uses_the_byoyomi() {
        let l = Limits {
            time: [Some(0), Some(0)],
            byoyomi: 1000,
            ..Limits::default()
        };
        let b = Budget::new(&l, Color::White).unwrap();
        assert!(b.hard < Duration::from_millis(1000));
        assert!(b.soft >= Duration::from_millis(500));
    }

    #[test]
    fn a_short_byoyomi_keeps_a_sixth_in_reserve() {
        for (byoyomi, hard) in [(100, 75), (200, 167), (300, 250), (2000, 1940)] {
            let l = Limits {
                time: [Some(0), Some(0)],
                byoyomi,
                ..Limits::default()
            };
            let b = Budget::new(&l, Color::Black).unwrap();
            assert_eq!(b.hard, Duration::from_millis(hard), "byoyomi {byoyomi}");
        }
    }

    #[test]
    fn fischer_never_exceeds_the_clock() {
        let l = Limits {
            time: [Some(100), Some(60_000)],
            increment: [1000, 1000],
            ..Limits::default()
        };
        let b = Budget::new(&l, Color::Black).unwrap();
        assert!(b.hard < Duration::from_millis(100));
        assert!(Budget::new(&Limits::default(), Color::Black).is_none());
    }
}
