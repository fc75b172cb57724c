//! Engine sides: a banmen search on a blocking thread for the side to move,
//! its move played through the same path as a person's.

use crate::{change, err, store_or_restore, with_game, AnyGame, ApiError, Entry, Player, Shared};
use axum::http::StatusCode;
use banmen_engine::{
    search, BestMove, Control, Evaluator, HistoryEntry, Limits, SearchOptions, Table,
};
use banmen_rules::{BitBoard, Game};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A search to run for the engine side to move.
#[derive(Debug)]
pub(crate) struct EngineJob {
    id: i64,
    generation: u64,
    ply: usize,
    limits: Limits,
    control: Arc<Control>,
    game: AnyGame,
}

/// The search to start, when an engine is to move and none is thinking.
pub(crate) fn engine_job(e: &mut Entry) -> Option<EngineJob> {
    if e.result().is_some() || e.control.is_some() {
        return None;
    }
    let Player::Engine { movetime_ms } = e.players[e.side_to_move().index()] else {
        return None;
    };
    let limits = match e.time_control {
        Some(tc) => tc.limits(e.left, e.side_to_move(), e.turn_started, movetime_ms),
        None => Limits {
            movetime: Some(movetime_ms),
            ..Limits::default()
        },
    };
    let control = Arc::new(Control::default());
    e.control = Some(control.clone());
    Some(EngineJob {
        id: e.id,
        generation: e.generation,
        ply: e.ply(),
        limits,
        control,
        game: e.game.clone(),
    })
}

fn think<B: BitBoard>(g: &Game<B>, limits: &Limits, control: &Control) -> BestMove {
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
    let pos = g.position();
    let eval = Evaluator::new(pos.rules());
    let tt = Table::new(16);
    search(
        pos,
        &history,
        &eval,
        &tt,
        limits,
        &SearchOptions::default(),
        control,
        &|_| {},
    )
    .best
}

/// Queues the search in the engine pool; it runs when a slot is free (a game
/// that moved on meanwhile is not searched).
pub(crate) fn spawn_engine(s: Shared, job: EngineJob) {
    s.pool.queued.fetch_add(1, Ordering::Relaxed);
    tokio::spawn(async move {
        let permit = s.pool.slots.clone().acquire_owned().await;
        s.pool.queued.fetch_sub(1, Ordering::Relaxed);
        let Ok(permit) = permit else { return };
        if job.control.stop.load(Ordering::Relaxed) {
            return;
        }
        s.pool.running.fetch_add(1, Ordering::Relaxed);
        let shared = s.clone();
        let _ = tokio::task::spawn_blocking(move || run(shared, job)).await;
        s.pool.running.fetch_sub(1, Ordering::Relaxed);
        drop(permit);
    });
}

/// Searches and plays the engine's move.
fn run(s: Shared, job: EngineJob) {
    {
        let best = with_game!(&job.game, g => {
            let best = think(g, &job.limits, &job.control);
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
