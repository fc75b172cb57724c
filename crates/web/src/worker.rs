//! `banmen worker`: a process that plays the engine sides' moves of the
//! games on a PostgreSQL database, for any number of `banmen serve
//! --workers` in front of it. A change that leaves an engine to move queues
//! its search in the same transaction (`searches`), so no acknowledged move
//! leaves an engine without one, whatever dies. Workers take searches with
//! `FOR UPDATE SKIP LOCKED` and hold them by a lease they renew while they
//! think; the search of a worker that died is taken again once its lease
//! runs out. The move is played through the same version-checked change as a
//! person's, and is refused when the game has moved on meanwhile. Game
//! reviews and analyses go through the same queue (`review::run_queued`,
//! `analysis::run_queued`, whose lines go back to the client's server by
//! `NOTIFY`).

use crate::engine::{engine_job, run};
use crate::storage::{
    finish_search, listen_postgres, load_games, queue_missing, renew_searches, take_search, Search,
    SEARCH_CHANNEL,
};
use crate::{fresh, shared_state, Bounds, Database, Inner, Shared, Store};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A search taken this many times is dropped (it may be what kills workers).
const MAX_TRIES: i64 = 5;
/// How often a worker renews the leases of its searches (they last 10 s).
const RENEW_EVERY: Duration = Duration::from_secs(2);
/// How long an idle engine thread waits for a notification before it looks
/// at the queue again (for leases that ran out: they send none).
const IDLE_POLL: Duration = Duration::from_secs(1);

/// What `banmen worker` is given.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// The PostgreSQL database the servers use.
    pub db: Database,
    /// Searches run at once (one thread each).
    pub engines: usize,
    /// The name the worker's searches are taken under (unique per process).
    pub name: String,
}

impl WorkerOptions {
    /// `engines` searches at once, named after the host and the process.
    pub fn new(db: Database, engines: usize) -> WorkerOptions {
        let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "worker".into());
        let nonce: u32 = rand::random();
        WorkerOptions {
            db,
            engines,
            name: format!("{host}:{}:{nonce:08x}", std::process::id()),
        }
    }
}

/// Wakes idle engine threads when a search is queued.
#[derive(Debug, Default)]
struct Bell {
    rung: Mutex<u64>,
    cv: Condvar,
}

impl Bell {
    fn ring(&self) {
        if let Ok(mut n) = self.rung.lock() {
            *n += 1;
        }
        self.cv.notify_all();
    }
    fn count(&self) -> u64 {
        self.rung.lock().map(|n| *n).unwrap_or(0)
    }
    /// Waits until rung after `seen`, or `timeout`.
    fn wait(&self, seen: u64, timeout: Duration) {
        if let Ok(n) = self.rung.lock() {
            let _ = self.cv.wait_timeout_while(n, timeout, |n| *n == seen);
        }
    }
}

/// A running worker: its engine threads, the lease renewer and the listener.
#[derive(Debug)]
pub struct Worker {
    stop: Arc<AtomicBool>,
    bell: Arc<Bell>,
    threads: Vec<JoinHandle<()>>,
}

impl Worker {
    /// Connects, queues the engine moves that have no search yet, and starts
    /// taking searches.
    ///
    /// # Errors
    /// The database is not PostgreSQL, or cannot be opened or read.
    pub fn start(opts: &WorkerOptions) -> Result<Worker, String> {
        let Database::Postgres(url) = &opts.db else {
            return Err(format!(
                "banmen worker needs the servers' PostgreSQL database (--db postgres://…), not {}",
                opts.db
            ));
        };
        let bounds = Bounds {
            engines: opts.engines.max(1),
            engine_games_per_client: None,
            games_per_minute: None,
            workers: true,
        };
        let s = shared_state(&opts.db, bounds, false)?;
        {
            let mut inner = s.inner.lock().expect("lock");
            let games = load_games(&mut inner.conn)?;
            queue_missing(&mut inner.conn, &games).map_err(|e| e.to_string())?;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let bell = Arc::new(Bell::default());
        let mut threads = Vec::new();
        {
            let (url, stop, bell) = (url.clone(), stop.clone(), bell.clone());
            threads.push(std::thread::spawn(move || {
                listen_postgres(
                    &url,
                    SEARCH_CHANNEL,
                    || !stop.load(Ordering::Relaxed),
                    |_| bell.ring(),
                    || bell.ring(),
                );
            }));
        }
        {
            let mut conn = Store::open(&opts.db)?;
            let (name, stop) = (opts.name.clone(), stop.clone());
            threads.push(std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if let Err(e) = renew_searches(&mut conn, &name) {
                        eprintln!("banmen worker: renewing leases: {e}");
                    }
                    sleep_unless(&stop, RENEW_EVERY);
                }
            }));
        }
        for _ in 0..opts.engines.max(1) {
            let mut conn = Store::open(&opts.db)?;
            let (s, name, stop, bell) = (s.clone(), opts.name.clone(), stop.clone(), bell.clone());
            threads.push(std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let seen = bell.count();
                    match take_search(&mut conn, &name) {
                        Ok(Some(search)) => play(&s, &mut conn, search),
                        Ok(None) => bell.wait(seen, IDLE_POLL),
                        Err(e) => {
                            eprintln!("banmen worker: taking a search: {e}");
                            sleep_unless(&stop, IDLE_POLL);
                        }
                    }
                }
            }));
        }
        Ok(Worker {
            stop,
            bell,
            threads,
        })
    }

    /// Runs until the process is killed.
    pub fn wait(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }

    /// Stops taking searches, lets the running ones finish, and returns.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        self.bell.ring();
        self.wait();
    }
}

fn sleep_unless(stop: &AtomicBool, d: Duration) {
    let step = Duration::from_millis(100);
    let mut left = d;
    while !stop.load(Ordering::Relaxed) && !left.is_zero() {
        let t = left.min(step);
        std::thread::sleep(t);
        left -= t;
    }
}

/// Runs `search` (a review, or the engine's move unless its game has moved
/// on), then takes it off the queue.
fn play(s: &Shared, conn: &mut Store, search: Search) {
    let job = if search.tries > MAX_TRIES {
        eprintln!(
            "banmen worker: game {}: the search was taken {} times; dropped",
            search.game, search.tries
        );
        None
    } else if search.kind == "review" {
        crate::review::run_queued(s, conn, &search);
        None
    } else if search.kind == "analysis" {
        crate::analysis::run_queued(conn, &search);
        None
    } else {
        let mut inner = s.inner.lock().expect("lock");
        let Inner { conn, games, .. } = &mut *inner;
        // Always the stored game: another server or worker may have changed it.
        games.remove(&search.game);
        match fresh(conn, games, search.game) {
            Ok(e) if e.version as i64 == search.version => {
                let job = engine_job(e);
                // The engine's clock runs from the turn's stored start.
                e.engine_queued = false;
                job
            }
            Ok(_) => None,
            Err(e) => {
                eprintln!("banmen worker: game {}: {}", search.game, e.1);
                None
            }
        }
    };
    if let Some(job) = job {
        run(s.clone(), job);
    }
    if search.game != 0 {
        s.inner.lock().expect("lock").games.remove(&search.game);
    }
    if let Err(e) = finish_search(conn, search.id) {
        eprintln!("banmen worker: search {}: {e}", search.id);
    }
}

/// `banmen worker`: runs a worker until the process is killed.
///
/// # Errors
/// As [`Worker::start`].
pub fn run_worker(opts: &WorkerOptions) -> Result<(), String> {
    let worker = Worker::start(opts)?;
    eprintln!(
        "banmen worker {}: {} engine(s) on {}",
        opts.name, opts.engines, opts.db
    );
    worker.wait();
    Ok(())
}
