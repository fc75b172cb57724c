//! A game-playing search for standard shogi, cannon shogi and dai dai shogi.
//!
//! Iterative deepening PVS alpha-beta over the legal moves of
//! [`banmen_rules::Position`], generic over the board type, with a shared
//! transposition table ([`tt::Table`]), a static evaluation built from the rule
//! tables ([`eval::Evaluator`]), clock handling ([`time`]) and a mate solver
//! for `go mate` ([`mate`]). No I/O: progress goes to a callback, and a shared
//! [`Control`] stops the search.
//!
//! ```
//! use banmen_engine::{search, Control, Evaluator, Limits, SearchOptions, Table};
//! use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};
//! let rules = rules_9x9(VariantName::Shogi).unwrap();
//! let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
//! let eval = Evaluator::new(rules);
//! let tt = Table::new(1);
//! let limits = Limits { depth: Some(2), ..Limits::default() };
//! let result = search(&pos, &[], &eval, &tt, &limits, &SearchOptions::default(), &Control::default(), &|_| {});
//! assert!(matches!(result.best, banmen_engine::BestMove::Move(..)));
//! ```

pub mod eval;
pub mod mate;
pub mod nnue;
pub mod search;
pub mod time;
pub mod tt;
pub mod tune;

pub use eval::Evaluator;
pub use mate::{find_mate, MateResult};
pub use search::search;
pub use time::{Budget, Limits};
pub use tt::{Bound, Table};

use banmen_rules::{EnteringKingRule, Move};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The score of being mated now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score.
pub const INFINITE: i32 = MATE + 1;

/// Signals from outside a running search.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop as soon as possible (USI `stop`, `quit`).
    pub stop: AtomicBool,
    /// Set while pondering; cleared on `ponderhit`, which starts the clock.
    pub pondering: AtomicBool,
}

/// Settings that persist between searches (USI options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Search threads (Lazy SMP: helpers share the table).
    pub threads: usize,
    /// The declaration rule in force (decides `bestmove win`).
    pub entering_king: EnteringKingRule,
    /// Contempt in centipawns: a draw by repetition counts this much
    /// against the side to move at the root (and as much for the other
    /// side), so that a positive value avoids draws and a negative one
    /// seeks them. 0: a draw is worth 0 to both.
    pub contempt: i32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            threads: 1,
            entering_king: EnteringKingRule::NoEnteringKing,
            contempt: 0,
        }
    }
}

/// One position of the game before the root, or of the search path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The position's hash.
    pub hash: u64,
    /// Whether the move that led to it gave check.
    pub check: bool,
}

/// A score as USI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many plies; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s > MATE_BOUND {
            Score::Mate(MATE - s)
        } else if s < -MATE_BOUND {
            Score::Mate(-(MATE + s))
        } else {
            Score::Cp(s)
        }
    }
}

/// Progress of a search: one USI `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Which principal variation (1-based).
    pub multipv: usize,
    /// The score of this variation.
    pub score: Score,
    /// Set when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the table used by this search.
    pub hashfull: u32,
    /// The variation.
    pub pv: Vec<Move>,
}

/// What the search decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move; the second is the expected reply, for pondering.
    Move(Move, Option<Move>),
    /// No legal move: the game is lost.
    Resign,
    /// Declare a win under the entering-king rule.
    Win,
}

/// The outcome of [`search()`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The decision.
    pub best: BestMove,
    /// Its score (internal units; see [`Score::from_internal`]).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Depth of the last completed iteration.
    pub depth: i32,
}
