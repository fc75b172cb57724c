//! Engine sides: a banmen search on a blocking thread for the side to move,
//! its move played through the same path as a person's.

use crate::bounds::spawn_search;
use crate::{
    blocking, change, err, fresh, store_or_restore, ApiError, Entry, Inner, Player, Shared,
};
use axum::http::StatusCode;
use banmen_engine::{
    search, BestMove, Control, Evaluator, HistoryEntry, Info, Limits, Score, SearchOptions, Table,
};
use banmen_rules::{with_game, AnyGame};
use banmen_rules::{BitBoard, Game, Move};
use rand::Rng;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The strongest level: the plain search, as before levels existed.
pub(crate) const MAX_LEVEL: u8 = 8;

/// How an engine level weakens the search: a node budget (on top of the
/// time limit) and a choice among the root moves within a margin of the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Level {
    /// Stop after about this many nodes; `None`: only the time limit.
    pub nodes: Option<u64>,
    /// Root moves searched with their own score (MultiPV).
    pub multipv: usize,
    /// Centipawns below the best score a chosen move may be.
    pub margin: i32,
}

impl Level {
    /// The settings of level `l` (1..=8; anything else is full strength).
    pub(crate) fn new(l: u8) -> Level {
        let (nodes, multipv, margin) = match l {
            1 => (Some(300), 8, 400),
            2 => (Some(1_000), 6, 250),
            3 => (Some(3_000), 5, 150),
            4 => (Some(10_000), 4, 90),
            5 => (Some(30_000), 3, 50),
            6 => (Some(100_000), 2, 25),
            7 => (Some(400_000), 1, 0),
            _ => (None, 1, 0),
        };
        Level {
            nodes,
            multipv,
            margin,
        }
    }
}

/// A score as one number to compare (mates beyond any centipawn score).
fn comparable(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 1_000_000 - n,
        Score::Mate(n) => -1_000_000 - n,
    }
}

/// Picks at random among `candidates` (first move, score) those within
/// `margin` of the best; `None` when there are none.
pub(crate) fn pick<R: Rng + ?Sized>(
    candidates: &[(Move, i32)],
    margin: i32,
    rng: &mut R,
) -> Option<Move> {
    let best = candidates.iter().map(|c| c.1).max()?;
    let close: Vec<Move> = candidates
        .iter()
        .filter(|c| c.1 >= best.saturating_sub(margin))
        .map(|c| c.0)
        .collect();
    Some(close[rng.random_range(0..close.len())])
}

/// A search to run for the engine side to move.
#[derive(Debug)]
pub(crate) struct EngineJob {
    id: i64,
    generation: u64,
    ply: usize,
    limits: Limits,
    level: Level,
    control: Arc<Control>,
    game: AnyGame,
}

/// The search to start, when an engine is to move and none is thinking.
pub(crate) fn engine_job(e: &mut Entry) -> Option<EngineJob> {
    if e.result().is_some() || e.control.is_some() {
        return None;
    }
    let Player::Engine { movetime_ms, level } = e.players[e.side_to_move().index()] else {
        return None;
    };
    let level = Level::new(level.unwrap_or(MAX_LEVEL));
    let mut limits = match e.time_control {
        Some(tc) => tc.limits(e.left, e.side_to_move(), e.turn_started, movetime_ms),
        None => Limits {
            movetime: Some(movetime_ms),
            ..Limits::default()
        },
    };
    limits.nodes = level.nodes;
    let control = Arc::new(Control::default());
    e.control = Some(control.clone());
    e.engine_queued = true;
    Some(EngineJob {
        id: e.id,
        generation: e.generation,
        ply: e.ply(),
        limits,
        level,
        control,
        game: e.game.clone(),
    })
}

/// The search to start in this server's engine pool: as [`engine_job`],
/// unless the engines' moves are left to workers (`Bounds::workers`).
pub(crate) fn local_job(bounds: &crate::Bounds, e: &mut Entry) -> Option<EngineJob> {
    if bounds.workers {
        return None;
    }
    engine_job(e)
}

/// The positions of the game so far, as the search wants them (repetitions).
pub(crate) fn history<B: BitBoard>(g: &Game<B>) -> Vec<HistoryEntry> {
    let mut p = g.start().clone();
    let mut history = vec![HistoryEntry {
        hash: p.hash(),
        check: p.in_check(),
    }];
    for &m in g.moves() {
        p.make_move(m);
        history.push(HistoryEntry {
            hash: p.hash(),
            check: p.in_check(),
        });
    }
    history
}

fn think<B: BitBoard>(g: &Game<B>, limits: &Limits, level: Level, control: &Control) -> BestMove {
    let history = history(g);
    let pos = g.position();
    let eval = Evaluator::new(pos.rules());
    let tt = Table::new(16);
    let options = SearchOptions {
        multipv: level.multipv,
        ..SearchOptions::default()
    };
    // The last exact score of each variation (its first move).
    let lines: Mutex<Vec<Option<(Move, i32)>>> = Mutex::new(vec![None; level.multipv.max(1)]);
    let report = |info: &Info| {
        if info.bound.is_some() {
            return;
        }
        if let (Some(&m), Ok(mut lines)) = (info.pv.first(), lines.lock()) {
            if let Some(slot) = lines.get_mut(info.multipv.wrapping_sub(1)) {
                *slot = Some((m, comparable(info.score)));
            }
        }
    };
    let best = search(
        pos, &history, &eval, &tt, limits, &options, control, &report,
    )
    .best;
    if level.multipv <= 1 || level.margin <= 0 {
        return best;
    }
    let BestMove::Move(m, _) = best else {
        return best;
    };
    let lines: Vec<(Move, i32)> = lines
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    match pick(&lines, level.margin, &mut rand::rng()) {
        Some(chosen) if chosen != m => BestMove::Move(chosen, None),
        _ => best,
    }
}

/// Queues the search in the engine pool; it runs when a slot is free (a game
/// that moved on meanwhile is not searched).
pub(crate) fn spawn_engine(s: Shared, job: EngineJob) {
    spawn_search(s, move |s| {
        if job.control.stop.load(Ordering::Relaxed) {
            return None;
        }
        let job = started(s, job)?;
        let shared = s.clone();
        Some(move || run(shared, job))
    });
}

/// The search of `job` leaves the queue: the engine's clock starts now
/// (the wait for a slot is the server's, not the engine's). `None` when the
/// game has moved on meanwhile.
fn started(s: &Shared, mut job: EngineJob) -> Option<EngineJob> {
    blocking(|| {
        let mut inner = s.inner.lock().expect("lock");
        let Inner { conn, games, .. } = &mut *inner;
        let e = fresh(conn, games, job.id).ok()?;
        if e.generation != job.generation || e.ply() != job.ply || e.result().is_some() {
            return None;
        }
        if e.engine_queued {
            e.engine_queued = false;
            e.turn_started = Instant::now();
            if job.limits.start.is_some() {
                job.limits.start = Some(e.turn_started);
            }
        }
        Some(job)
    })
}

/// Searches and plays the engine's move.
pub(crate) fn run(s: Shared, job: EngineJob) {
    {
        let best = with_game!(&job.game, g => {
            let best = think(g, &job.limits, job.level, &job.control);
            match best {
                BestMove::Move(m, _) => Some(g.position().move_to_usi(m)),
                _ => None,
            }
        });
        let result = change(&s, &job.id.to_string(), |conn, e| {
            if e.generation != job.generation || e.ply() != job.ply || e.result().is_some() {
                return Err(err(StatusCode::CONFLICT, "stale search"));
            }
            e.control = None;
            let saved = e.snapshot();
            let mover = e.side_to_move();
            match &best {
                Some(text) => {
                    let ms = e.turn_ms();
                    if let Err(ge) = e.push_move(text, ms) {
                        eprintln!("banmen serve: game {}: engine move {text}: {ge}", e.id);
                        with_game!(&mut e.game, g => g.resign(mover));
                        e.version += 1;
                    }
                }
                None => {
                    with_game!(&mut e.game, g => g.resign(mover));
                    e.version += 1;
                }
            }
            store_or_restore(conn, e, job.ply + 1, saved)
        });
        if let Err(ApiError(code, msg)) = result {
            if code != StatusCode::CONFLICT {
                eprintln!("banmen serve: game {}: {msg}", job.id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn levels_grow_stronger() {
        let mut last = 0;
        for l in 1..MAX_LEVEL {
            let n = Level::new(l).nodes.unwrap();
            assert!(n > last);
            last = n;
            assert!(Level::new(l).margin >= Level::new(l + 1).margin);
        }
        assert_eq!(Level::new(MAX_LEVEL).nodes, None);
        assert_eq!(Level::new(MAX_LEVEL).multipv, 1);
    }

    #[test]
    fn pick_stays_within_the_margin() {
        let ms: Vec<Move> = (0..4)
            .map(|i| Move::board(banmen_rules::Square(i), banmen_rules::Square(i + 9), false))
            .collect();
        let lines = vec![(ms[0], 100), (ms[1], 60), (ms[2], -300), (ms[3], 95)];
        let mut rng = StdRng::seed_from_u64(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let m = pick(&lines, 50, &mut rng).unwrap();
            assert!(m != ms[2]);
            seen.insert(m);
        }
        assert_eq!(seen.len(), 3);
        assert_eq!(pick(&lines, 0, &mut rng), Some(ms[0]));
        assert_eq!(pick(&[], 50, &mut rng), None);
    }
}
