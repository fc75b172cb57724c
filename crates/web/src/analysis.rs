//! Analysis: the engine's evaluation and best lines (MultiPV 1–5) of any
//! position of a game, or of any position given as SFEN, streamed as
//! server-sent events while the search deepens. The search runs in the
//! engine pool beside the engine sides' moves; it reads a copy of the game
//! and never touches the game itself or its clocks. Closing the stream stops
//! it; an address running more than [`PER_CLIENT`] analyses loses its oldest.
//! (The game review, every position in turn, is [`crate::review`].)

use crate::bounds::spawn_search;
use crate::engine::history;
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
    fn new(
        game: &AnyGame,
        moves: &[String],
        q: &BTreeMap<String, String>,
    ) -> Result<Job, ApiError> {
        let multipv = number(q, "multipv", 1..=MAX_MULTIPV)?.unwrap_or(1);
        let limits = limits(q, MAX_ANALYSIS_MS, DEFAULT_ANALYSIS_MS)?;
        let game = match game {
            AnyGame::Nine(g) => AnyGame::Nine(Box::new(replay(g, moves)?)),
            AnyGame::Seventeen(g) => AnyGame::Seventeen(Box::new(replay(g, moves)?)),
        };
        Ok(Job {
            game,
            multipv,
            limits,
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
    let (game, played) = read_game(&s, id, |e| Ok((e.game.clone(), e.usi.clone())))?;
    let ip = client_ip(client);
    let moves = match (q.get("line"), number(&q, "ply", 0..=played.len())?) {
        (Some(_), Some(_)) => return Err(bad("give ply or line, not both")),
        (Some(line), None) => split_moves(line),
        (None, Some(ply)) => played[..ply].to_vec(),
        (None, None) => played,
    };
    let job = Job::new(&game, &moves, &q)?;
    Ok(analysis_stream(s, ip, job))
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
    let job = Job::new(&game, &moves, &q)?;
    Ok(analysis_stream(s, client_ip(client), job))
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

/// The search of an analysis [`Job`].
fn analysis_stream(s: Shared, ip: Option<IpAddr>, job: Job) -> Response {
    stream(s, ip, move |c, send| {
        with_game!(&job.game, g => analyse(g, job.multipv, &job.limits, c, send));
    })
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
