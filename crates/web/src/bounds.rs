//! What keeps one client, or a burst of requests, from taking the server: a
//! bounded pool of engine searches, a limit on one address's open engine
//! games, and a rate of new games per address.

use crate::{err, ApiError, Entry, Player, Shared};
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::Semaphore;

/// The server's bounds (`banmen serve --engines N --engine-games-per-client N
/// --games-per-minute N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// At most this many engine searches at once; the others wait their turn.
    pub engines: usize,
    /// At most this many unfinished games with an engine side created from
    /// one address (`None`: no limit).
    pub engine_games_per_client: Option<usize>,
    /// At most this many games created or imported from one address a minute,
    /// in a burst or spread out (`None`: no limit).
    pub games_per_minute: Option<u32>,
    /// The engine sides' moves are left to `banmen worker` processes, which
    /// take them from a queue in the (PostgreSQL) database; `engines` then
    /// bounds only this server's tsume solving (the rest goes to the workers).
    pub workers: bool,
}

impl Default for Bounds {
    /// One search per core, 8 open engine games and 30 new games a minute per address.
    fn default() -> Bounds {
        Bounds {
            engines: cores(),
            engine_games_per_client: Some(8),
            games_per_minute: Some(30),
            workers: false,
        }
    }
}

/// The machine's cores (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The engine searches: at most `limit` at once.
#[derive(Debug)]
pub(crate) struct Pool {
    pub(crate) slots: Arc<Semaphore>,
    pub(crate) limit: usize,
    pub(crate) running: AtomicUsize,
    pub(crate) queued: AtomicUsize,
}

impl Pool {
    pub(crate) fn new(limit: usize) -> Pool {
        let limit = limit.clamp(1, Semaphore::MAX_PERMITS);
        Pool {
            slots: Arc::new(Semaphore::new(limit)),
            limit,
            running: AtomicUsize::new(0),
            queued: AtomicUsize::new(0),
        }
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "limit": self.limit,
            "running": self.running.load(Ordering::Relaxed),
            "queued": self.queued.load(Ordering::Relaxed),
        })
    }
}

/// Counts a search as waiting now; then, in a task, waits for a free slot of
/// the pool and runs the work `start` gives (none: nothing left to do) on a
/// blocking thread, counted as running. Engine moves and analyses share it.
pub(crate) fn spawn_search<W>(s: Shared, start: impl FnOnce(&Shared) -> Option<W> + Send + 'static)
where
    W: FnOnce() + Send + 'static,
{
    s.pool.queued.fetch_add(1, Ordering::Relaxed);
    tokio::spawn(async move {
        let permit = s.pool.slots.clone().acquire_owned().await;
        s.pool.queued.fetch_sub(1, Ordering::Relaxed);
        let Ok(permit) = permit else { return };
        let Some(work) = start(&s) else { return };
        s.pool.running.fetch_add(1, Ordering::Relaxed);
        let _ = tokio::task::spawn_blocking(work).await;
        s.pool.running.fetch_sub(1, Ordering::Relaxed);
        drop(permit);
    });
}

/// New games per address: a bucket of `per_minute` tokens refilled evenly.
#[derive(Debug, Default)]
pub(crate) struct Rates {
    buckets: HashMap<IpAddr, (f64, Instant)>,
}

impl Rates {
    /// Takes a token for `ip`, or says how many seconds until one is back.
    fn take(&mut self, ip: IpAddr, per_minute: u32) -> Result<(), u64> {
        let now = Instant::now();
        let capacity = f64::from(per_minute.max(1));
        let per_second = capacity / 60.0;
        if self.buckets.len() > 100_000 {
            // Forget the addresses whose bucket is full again.
            self.buckets
                .retain(|_, (t, at)| *t + at.elapsed().as_secs_f64() * per_second < capacity);
        }
        let (tokens, at) = self.buckets.entry(ip).or_insert((capacity, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * per_second).min(capacity);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / per_second).ceil() as u64)
        }
    }
}

/// Whether `ip` may create a game with these players now; takes its token.
///
/// # Errors
/// `429` with the limit and when to try again.
pub(crate) fn admit<'a>(
    bounds: &Bounds,
    rates: &mut Rates,
    games: impl Iterator<Item = &'a Entry>,
    ip: Option<IpAddr>,
    players: &[Player; 2],
) -> Result<(), ApiError> {
    let Some(ip) = ip else { return Ok(()) };
    let engine = |p: &[Player; 2]| p.iter().any(|p| matches!(p, Player::Engine { .. }));
    if let (Some(most), true) = (bounds.engine_games_per_client, engine(players)) {
        let open = games
            .filter(|e| e.creator == Some(ip) && e.result().is_none() && engine(&e.players))
            .count();
        if open >= most {
            return Err(err(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many open games against the engine from this address \
                     ({open}, at most {most}): finish or resign one first"
                ),
            ));
        }
    }
    if let Some(per_minute) = bounds.games_per_minute {
        rates.take(ip, per_minute).map_err(|wait| {
            err(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many new games from this address (at most {per_minute} a minute): \
                     try again in {wait} s"
                ),
            )
        })?;
    }
    Ok(())
}
