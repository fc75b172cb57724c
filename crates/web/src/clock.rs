//! Time controls kept by the server: sudden death, byoyomi (秒読み, a fixed
//! time per move once the main time is spent) and Fischer (an increment
//! added after each move), alone or together.

use banmen_engine::{Budget, Limits};
use banmen_rules::Color;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The longest main time a game may have: a day.
pub const MAX_MAIN_MS: u64 = 24 * 3_600_000;
/// The longest byoyomi or increment: an hour.
pub const MAX_PER_MOVE_MS: u64 = 3_600_000;

/// A game's time control, as `POST /api/games` takes it in `clock`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Each side's main time.
    #[serde(default)]
    pub main_ms: u64,
    /// The time per move once the main time is spent (0: sudden death).
    #[serde(default)]
    pub byoyomi_ms: u64,
    /// Added to the main time after each of one's moves (Fischer).
    #[serde(default)]
    pub increment_ms: u64,
}

impl TimeControl {
    /// Checks the figures.
    ///
    /// # Errors
    /// No time at all, or more than a day of main time or an hour per move.
    pub fn check(&self) -> Result<(), String> {
        if self.main_ms == 0 && self.byoyomi_ms == 0 && self.increment_ms == 0 {
            return Err("clock: main_ms, byoyomi_ms or increment_ms must be above 0".into());
        }
        if self.main_ms > MAX_MAIN_MS {
            return Err(format!("clock: main_ms must be at most {MAX_MAIN_MS}"));
        }
        if self.byoyomi_ms > MAX_PER_MOVE_MS || self.increment_ms > MAX_PER_MOVE_MS {
            return Err(format!(
                "clock: byoyomi_ms and increment_ms must be at most {MAX_PER_MOVE_MS}"
            ));
        }
        Ok(())
    }

    /// Each side's main time left after the moves that took `times`
    /// milliseconds, the first of them played by `first`.
    pub fn left_after(&self, times: &[u64], first: Color) -> [u64; 2] {
        let mut left = [self.main_ms; 2];
        let mut mover = first;
        for &used in times {
            let l = &mut left[mover.index()];
            // Past the main time the byoyomi pays for the move; it does not
            // carry over.
            *l = l.saturating_sub(used).saturating_add(self.increment_ms);
            mover = !mover;
        }
        left
    }

    /// Whether a move that has taken `used` ms so far, with `left` ms of main
    /// time at its start, has run out of time.
    pub fn flag_fell(&self, left: u64, used: u64) -> bool {
        used > left.saturating_add(self.byoyomi_ms)
    }

    /// The engine's limits for `side` to move with `left` main time each,
    /// its turn begun at `start`: the clock's, or `movetime_ms` when that is
    /// shorter than what the clock would allow.
    pub fn limits(&self, left: [u64; 2], side: Color, start: Instant, movetime_ms: u64) -> Limits {
        let by_clock = Limits {
            time: [Some(left[0]), Some(left[1])],
            increment: [self.increment_ms; 2],
            byoyomi: self.byoyomi_ms,
            start: Some(start),
            ..Limits::default()
        };
        match Budget::new(&by_clock, side) {
            Some(b) if b.hard.as_millis() as u64 > movetime_ms => Limits {
                movetime: Some(movetime_ms),
                start: Some(start),
                ..Limits::default()
            },
            _ => by_clock,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A time control: main time, byoyomi, increment (ms).
    fn tc(main_ms: u64, byoyomi_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            main_ms,
            byoyomi_ms,
            increment_ms,
        }
    }

    /// The flag of a move begun with `left` ms of main time falls just after
    /// `limit` ms, not at it.
    fn falls_after(tc: &TimeControl, left: u64, limit: u64) {
        assert!(!tc.flag_fell(left, limit));
        assert!(tc.flag_fell(left, limit + 1));
    }

    #[test]
    fn byoyomi_does_not_carry_over() {
        let tc = tc(1000, 500, 0);
        // Black uses 1200 (main time and 200 of byoyomi), White 300.
        assert_eq!(tc.left_after(&[1200, 300], Color::Black), [0, 700]);
        falls_after(&tc, 0, 500);
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move() {
        let tc = tc(180_000, 0, 2_000);
        assert_eq!(
            tc.left_after(&[5_000, 1_000, 3_000], Color::Black),
            [176_000, 181_000]
        );
        falls_after(&tc, 100, 100);
    }

    #[test]
    fn sudden_death_falls_when_the_main_time_is_spent() {
        let tc = tc(5_000, 0, 0);
        assert_eq!(tc.left_after(&[3_000, 1_000], Color::Black), [2_000, 4_000]);
        falls_after(&tc, 2_000, 2_000);
        assert!(tc.check().is_ok());
    }

    #[test]
    fn no_time_at_all_is_refused() {
        let tc = tc(0, 0, 0);
        assert!(tc.check().is_err());
    }

    #[test]
    fn the_engine_plays_by_the_clock_when_it_is_short() {
        let tc = tc(0, 2_000, 0);
        let now = Instant::now();
        assert_eq!(
            tc.limits([0, 0], Color::Black, now, 150).movetime,
            Some(150)
        );
        let l = tc.limits([0, 0], Color::Black, now, 10_000);
        assert_eq!((l.movetime, l.byoyomi), (None, 2_000));
    }
}
