//! Analysis: the engine's evaluation and best lines (MultiPV 1–5) of any
//! position of a game, or of any position given as SFEN, streamed as
//! server-sent events while the search deepens. The search runs in the
//! engine pool beside the engine sides' moves; it reads a copy of the game
//! and never touches the game itself or its clocks. Closing the stream stops
//! it; an address running more than [`PER_CLIENT`] analyses loses its oldest.
//! (The game review, every position in turn, is [`crate::review`].)

use crate::bounds::spawn_search;
use crate::engine::history;
use crate::storage::{finish_search, queue_analysis, search_wanted, send_analysis, Search, Store};
use crate::{client_ip, err, new_game, notation, parse_id, read_game, ApiError, Client, Shared};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use banmen_engine::{
    search, BestMove, Control, Evaluator, Info, Limits, Score, SearchOptions, Table,
};
use banmen_rules::{with_game, AnyGame};
use banmen_rules::{BitBoard, Color, Game, Position};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, Weak};

/// The most best lines one analysis shows.
pub const MAX_MULTIPV: usize = 5;
/// The longest one analysis runs (the page starts another to go on).
pub const MAX_ANALYSIS_MS: u64 = 30_000;
/// How long an analysis runs when the request does not say.
const DEFAULT_ANALYSIS_MS: u64 = 5_000;
/// Analyses one address may run at once; a new one stops its oldest.
pub const PER_CLIENT: usize = 2;

/// The analyses running, per address (a stopped or finished one is gone
/// once its stream and its search have let go of its [`Control`]).
#[derive(Debug, Default)]
pub(crate) struct Running(Mutex<HashMap<IpAddr, VecDeque<Weak<Control>>>>);

impl Running {
    /// Counts a new analysis of `ip`, stopping its oldest beyond [`PER_CLIENT`].
    fn start(&self, ip: Option<IpAddr>, control: &Arc<Control>) {
        let (Some(ip), Ok(mut map)) = (ip, self.0.lock()) else {
            return;
        };
        if map.len() > 10_000 {
            map.retain(|_, list| list.iter().any(|w| w.strong_count() > 0));
        }
        let list = map.entry(ip).or_default();
        list.retain(|w| w.upgrade().is_some_and(|c| !c.stop.load(Ordering::Relaxed)));
        list.push_back(Arc::downgrade(control));
        while list.len() > PER_CLIENT {
            if let Some(c) = list.pop_front().and_then(|w| w.upgrade()) {
                c.stop.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// What to search: a copy of the game up to the position, and how.
struct Job {
    game: AnyGame,
    multipv: usize,
    limits: Limits,
    /// The same as JSON, for a worker (`banmen serve --workers`): `variant`,
    /// `rules`, `sfen`, `moves`, `multipv`, `movetime_ms`, `nodes`.
    spec: Value,
}

/// The analyses that workers run for this server's clients: each stream's
/// sender, by the relay name its lines come back under.
#[derive(Debug, Default)]
pub(crate) struct Relays(Mutex<HashMap<String, tokio::sync::mpsc::UnboundedSender<Value>>>);

impl Relays {
    /// A worker's line `relay json` (PostgreSQL's `NOTIFY`) goes to its
    /// stream; after `done` the stream ends.
    pub(crate) fn heard(&self, payload: &str) {
        let Some((relay, text)) = payload.split_once(' ') else {
            return;
        };
        let (Ok(v), Ok(mut map)) = (serde_json::from_str::<Value>(text), self.0.lock()) else {
            return;
        };
        let done = v["type"] == "done";
        if let Some(tx) = map.get(relay) {
            let _ = tx.send(v);
        }
        if done {
            map.remove(relay);
        }
    }
}

fn bad(msg: impl Into<String>) -> ApiError {
    err(StatusCode::UNPROCESSABLE_ENTITY, msg)
}

/// A number parameter within `range`, or `default` when absent.
fn number<T>(
    q: &BTreeMap<String, String>,
    name: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<Option<T>, ApiError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let Some(text) = q.get(name) else {
        return Ok(None);
    };
    text.parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .map(Some)
        .ok_or_else(|| {
            bad(format!(
                "{name} must be {}..={}, not '{text}'",
                range.start(),
                range.end()
            ))
        })
}

/// The query's `movetime_ms` (at most `most`, else `default`) and `nodes`.
pub(crate) fn limits(
    q: &BTreeMap<String, String>,
    most: u64,
    default: u64,
) -> Result<Limits, ApiError> {
    Ok(Limits {
        movetime: Some(number(q, "movetime_ms", 1..=most)?.unwrap_or(default)),
        nodes: number(q, "nodes", 1..=u64::MAX)?,
        ..Limits::default()
    })
}

/// `game` replayed from its start through the USI `moves`.
fn replay<B: BitBoard>(g: &Game<B>, moves: &[String]) -> Result<Game<B>, ApiError> {
    let mut out = Game::new(g.start().clone(), g.options());
    for (i, text) in moves.iter().enumerate() {
        out.play_usi(text)
            .map_err(|e| bad(format!("move {} ({text}): {e}", i + 1)))?;
    }
    Ok(out)
}

impl Job {
    /// The job for the position after `moves` from `game`'s start, with
    /// the query's `multipv` (1..=5), `movetime_ms` and `nodes`.
    /// `start` is the game's `[variant, rules, start SFEN]`.
    fn new(
        game: &AnyGame,
        start: [&str; 3],
        moves: &[String],
        q: &BTreeMap<String, String>,
    ) -> Result<Job, ApiError> {
        let multipv = number(q, "multipv", 1..=MAX_MULTIPV)?.unwrap_or(1);
        let limits = limits(q, MAX_ANALYSIS_MS, DEFAULT_ANALYSIS_MS)?;
        let game = match game {
            AnyGame::Nine(g) => AnyGame::Nine(Box::new(replay(g, moves)?)),
            AnyGame::Seventeen(g) => AnyGame::Seventeen(Box::new(replay(g, moves)?)),
        };
        let [variant, rules, sfen] = start;
        let spec = json!({
            "variant": variant, "rules": rules, "sfen": sfen, "moves": moves,
            "multipv": multipv, "movetime_ms": limits.movetime, "nodes": limits.nodes,
        });
        Ok(Job {
            game,
            multipv,
            limits,
            spec,
        })
    }
}

/// USI moves separated by commas (as `?line=` of the position endpoint).
fn split_moves(text: &str) -> Vec<String> {
    text.split(',')
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect()
}

/// `GET /api/games/{id}/analysis?ply=N|line=M1,M2,…&multipv=K&movetime_ms=T&nodes=N`:
/// the best lines of the position after `N` moves of the game (default:
/// now), or after the USI moves `line` from its start (a variation).
pub(crate) async fn game_stream(
    State(s): State<Shared>,
    client: Client,
    Path(id): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let id = parse_id(&id)?;
    let (game, played, start) = read_game(&s, id, |e| {
        let start = [e.variant.clone(), e.rules.clone(), e.start_sfen.clone()];
        Ok((e.game.clone(), e.usi.clone(), start))
    })?;
    let ip = client_ip(client);
    let moves = match (q.get("line"), number(&q, "ply", 0..=played.len())?) {
        (Some(_), Some(_)) => return Err(bad("give ply or line, not both")),
        (Some(line), None) => split_moves(line),
        (None, Some(ply)) => played[..ply].to_vec(),
        (None, None) => played,
    };
    let [variant, rules, sfen] = &start;
    let job = Job::new(&game, [variant, rules, sfen], &moves, &q)?;
    analysis_stream(s, ip, job)
}

/// `GET /api/analysis?variant=V&rules=R&sfen=S&moves=M1,M2,…&multipv=K&movetime_ms=T&nodes=N`:
/// any position, with no game (the board editor's).
pub(crate) async fn sfen_analysis(
    State(s): State<Shared>,
    client: Client,
    Query(q): Query<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let variant = q.get("variant").map_or("shogi", String::as_str);
    let rules = q.get("rules").map_or("", String::as_str);
    let sfen = q
        .get("sfen")
        .ok_or_else(|| err(StatusCode::BAD_REQUEST, "missing parameter 'sfen'"))?;
    let game = new_game(variant, rules, sfen).map_err(bad)?;
    let moves = q.get("moves").map_or_else(Vec::new, |m| split_moves(m));
    let job = Job::new(&game, [variant, rules, sfen], &moves, &q)?;
    analysis_stream(s, client_ip(client), job)
}

/// Sets the stop flag when the stream is dropped (the page closed it).
struct StopOnDrop(Arc<Control>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }
}

/// Queues `work` in the engine pool and streams what it sends: a `queued`
/// event first, then its reports (`info` as the search deepens), then
/// `done`. Closing the stream stops the work.
fn stream<W>(s: Shared, ip: Option<IpAddr>, work: W) -> Response
where
    W: FnOnce(&Control, &(dyn Fn(Value) + Sync)) + Send + 'static,
{
    let control = Arc::new(Control::default());
    s.analyses.start(ip, &control);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Value>();
    let _ = tx.send(json!({ "type": "queued", "engines": s.pool.json() }));
    let c = control.clone();
    spawn_search(s, move |_| {
        if c.stop.load(Ordering::Relaxed) {
            return None;
        }
        Some(move || {
            let send = |v: Value| {
                if tx.send(v).is_err() {
                    c.stop.store(true, Ordering::Relaxed);
                }
            };
            work(&c, &send);
        })
    });
    let events =
        futures_util::stream::unfold((rx, StopOnDrop(control)), |(mut rx, guard)| async move {
            let v = rx.recv().await?;
            Some((v, (rx, guard)))
        });
    sse(events)
}

/// Server-sent events, one for each value.
fn sse(values: impl futures_util::Stream<Item = Value> + Send + 'static) -> Response {
    let events = values.map(|v| Ok::<_, Infallible>(Event::default().data(v.to_string())));
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// The search of an analysis [`Job`]: in this server's engine pool, or
/// queued for the workers (`banmen serve --workers`).
fn analysis_stream(s: Shared, ip: Option<IpAddr>, job: Job) -> Result<Response, ApiError> {
    if s.bounds.workers {
        return queued_stream(s, job);
    }
    Ok(stream(s, ip, move |c, send| {
        with_game!(&job.game, g => analyse(g, job.multipv, &job.limits, c, send));
    }))
}

/// Takes a worker's analysis off the queue (stopping it) when its stream
/// is closed.
struct DropQueued {
    s: Shared,
    relay: String,
    id: i64,
}

impl Drop for DropQueued {
    fn drop(&mut self) {
        if let Ok(mut map) = self.s.relays.0.lock() {
            map.remove(&self.relay);
        }
        let (s, id) = (self.s.clone(), self.id);
        // Off the runtime: the database may take a while.
        std::thread::spawn(move || {
            if let Ok(mut inner) = s.inner.lock() {
                let _ = finish_search(&mut inner.conn, id);
            }
        });
    }
}

/// Queues the analysis for the workers and streams the lines they send back
/// (`NOTIFY banmen_analysis`, relayed by [`Relays::heard`]).
fn queued_stream(s: Shared, job: Job) -> Result<Response, ApiError> {
    let relay = format!("{:016x}", rand::random::<u64>());
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Value>();
    let _ = tx.send(json!({ "type": "queued", "engines": s.pool.json(), "workers": true }));
    s.relays.0.lock().expect("lock").insert(relay.clone(), tx);
    let mut request = job.spec;
    request["relay"] = json!(relay);
    let queued = crate::blocking(|| {
        let mut inner = s.inner.lock().expect("lock");
        queue_analysis(&mut inner.conn, &request.to_string())
    });
    let id = match queued {
        Ok(id) => id,
        Err(e) => {
            s.relays.0.lock().expect("lock").remove(&relay);
            return Err(crate::internal(e));
        }
    };
    let guard = DropQueued { s, relay, id };
    // The first event is `queued`; then a worker has WORKER_WAIT to send its
    // first line, and each line comes within the longest analysis of the
    // one before, or the stream ends with an error: a page never waits
    // forever for a worker that is not there.
    let events =
        futures_util::stream::unfold((rx, Some(guard), 0usize), |(mut rx, guard, n)| async move {
            let guard = guard?;
            let wait = match n {
                0 => None,
                1 => Some(WORKER_WAIT),
                _ => Some(std::time::Duration::from_millis(MAX_ANALYSIS_MS) + WORKER_WAIT),
            };
            let next = match wait {
                None => rx.recv().await,
                Some(w) => match tokio::time::timeout(w, rx.recv()).await {
                    Ok(v) => v,
                    Err(_) => {
                        let error = if n == 1 {
                            format!(
                                "no engine worker took the analysis within {} s",
                                w.as_secs()
                            )
                        } else {
                            format!("the engine worker went silent for {} s", w.as_secs())
                        };
                        // The guard goes: the search leaves the queue.
                        return Some((
                            json!({ "type": "done", "error": error }),
                            (rx, None, n + 1),
                        ));
                    }
                },
            };
            Some((next?, (rx, Some(guard), n + 1)))
        });
    Ok(sse(events))
}

/// How long a queued analysis waits for a worker's first line, and how much
/// longer than the longest analysis a worker may go silent.
const WORKER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// A worker runs analysis `search` (queued by [`queued_stream`]), sending
/// each line back to the server that relays it; it stops when the search
/// leaves the queue (the client closed its stream).
pub(crate) fn run_queued(conn: &mut Store, search: &Search) {
    let Some(request) = search.request_json() else {
        return;
    };
    let text = |k: &str| request[k].as_str().unwrap_or_default().to_string();
    let relay = text("relay");
    let moves: Vec<String> = request["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let multipv = (request["multipv"].as_u64().unwrap_or(1) as usize).clamp(1, MAX_MULTIPV);
    let limits = Limits {
        movetime: request["movetime_ms"]
            .as_u64()
            .map(|t| t.min(MAX_ANALYSIS_MS)),
        nodes: request["nodes"].as_u64(),
        ..Limits::default()
    };
    let control = Control::default();
    let conn = Mutex::new(conn);
    let send = |v: Value| {
        let Ok(mut conn) = conn.lock() else { return };
        if !search_wanted(&mut conn, search.id).unwrap_or(false) {
            control.stop.store(true, Ordering::Relaxed);
            return;
        }
        let payload = format!("{relay} {v}");
        // NOTIFY carries at most 8000 bytes: a longer line is left out.
        if payload.len() < 7_900 {
            if let Err(e) = send_analysis(&mut conn, &payload) {
                eprintln!("banmen worker: analysis {}: {e}", search.id);
                control.stop.store(true, Ordering::Relaxed);
            }
        }
    };
    let game = new_game(&text("variant"), &text("rules"), &text("sfen")).and_then(|g| match g {
        AnyGame::Nine(g) => replay(&g, &moves)
            .map(|g| AnyGame::Nine(Box::new(g)))
            .map_err(|e| e.1),
        AnyGame::Seventeen(g) => replay(&g, &moves)
            .map(|g| AnyGame::Seventeen(Box::new(g)))
            .map_err(|e| e.1),
    });
    match game {
        Ok(game) => with_game!(&game, g => analyse(g, multipv, &limits, &control, &send)),
        Err(e) => send(json!({ "type": "done", "error": e })),
    }
}

/// A score from Black's point of view: `{cp}` or `{mate}` (plies; negative:
/// Black is mated).
pub(crate) fn score_json(score: Score, side: Color) -> Value {
    let sign = if side == Color::Black { 1 } else { -1 };
    match score {
        Score::Cp(c) => json!({ "cp": sign * c }),
        Score::Mate(n) => json!({ "mate": sign * n }),
    }
}

/// One best line: its rank, depth, score and moves as USI, Western and
/// Japanese text (the moves that are not legal, if any, are cut off).
fn line_json<B: BitBoard>(
    pos: &Position<B>,
    last: Option<banmen_rules::Square>,
    info: &Info,
) -> Value {
    let (mut usi, mut western, mut japanese) = (Vec::new(), Vec::new(), Vec::new());
    let mut p = pos.clone();
    let mut previous = last;
    for &m in &info.pv {
        if !p.is_legal(m) {
            break;
        }
        let (w, j) = notation::both(&p, m, previous);
        usi.push(p.move_to_usi(m));
        western.push(w);
        japanese.push(j);
        previous = Some(m.to());
        p.make_move(m);
    }
    json!({
        "type": "info",
        "multipv": info.multipv,
        "depth": info.depth,
        "seldepth": info.seldepth,
        "nodes": info.nodes,
        "time_ms": info.time.as_millis() as u64,
        "score": score_json(info.score, pos.side_to_move()),
        "pv": { "usi": usi, "western": western, "japanese": japanese },
    })
}

/// Searches the game's position, sending each exact report and the end.
fn analyse<B: BitBoard>(
    g: &Game<B>,
    multipv: usize,
    limits: &Limits,
    control: &Control,
    send: &(dyn Fn(Value) + Sync),
) {
    let pos = g.position();
    let side = pos.side_to_move();
    if let Some(o) = g.outcome() {
        send(json!({ "type": "done", "over": o.reason.as_str(), "side_to_move": side.name() }));
        return;
    }
    let history = history(g);
    let eval = Evaluator::new(pos.rules());
    let tt = Table::new(16);
    let options = SearchOptions {
        multipv,
        ..SearchOptions::default()
    };
    let last = g.moves().last().map(|m| m.to());
    let report = |info: &Info| {
        if info.bound.is_none() {
            send(line_json(pos, last, info));
        }
    };
    let result = search(
        pos, &history, &eval, &tt, limits, &options, control, &report,
    );
    let best = match result.best {
        BestMove::Move(m, _) => json!(pos.move_to_usi(m)),
        BestMove::Resign => json!("resign"),
        BestMove::Win => json!("win"),
    };
    send(json!({
        "type": "done",
        "best": best,
        "depth": result.depth,
        "nodes": result.nodes,
        "side_to_move": side.name(),
    }));
}
