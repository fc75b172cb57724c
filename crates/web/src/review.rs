//! Game review, computed in the background: every position of a game
//! searched in turn, each move judged by the winning chances it loses. A
//! request starts the review (or finds it running) and answers with its
//! progress at once; the page asks again until it is done. Each position is
//! one search in the engine pool, queued after the last, so a review never
//! holds a slot that the engine sides' moves wait for. The positions done
//! are kept with the game (table `reviews`) as the review goes, so a review
//! cut short by a restart goes on from where it was.

use crate::analysis::{limits, score_json};
use crate::bounds::spawn_search;
use crate::engine::history;
use crate::storage::{search_wanted, Search, Store};
use crate::Shared;
use crate::{blocking, client_ip, err, fresh, parse_id, read_game, ApiError, Client, Inner};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use banmen_engine::{search, BestMove, Control, Evaluator, Limits, Score, SearchOptions, Table};
use banmen_rules::{with_game, AnyGame};
use banmen_rules::{BitBoard, Color, Game};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// The longest a review searches each position.
pub const MAX_REVIEW_MS: u64 = 5_000;
/// How long a review searches each position when the request does not say.
const DEFAULT_REVIEW_MS: u64 = 300;
/// Reviews one address may have running at once.
pub const REVIEWS_PER_CLIENT: usize = 2;
/// The positions done between two writes of a running review (and at its end).
const STORE_EVERY: usize = 8;

/// The reviews running, by game.
#[derive(Debug, Default)]
pub(crate) struct Reviews(Mutex<HashMap<i64, Running>>);

/// A review under way.
#[derive(Debug)]
struct Running {
    /// The moves reviewed, space-separated (as stored).
    moves: String,
    /// One `ply` event per position done, in order.
    plies: Vec<Value>,
    /// The positions to review: the moves and one.
    total: usize,
    /// Stops it (a newer review of the game, `fresh`).
    control: Arc<Control>,
    /// Who started it, for [`REVIEWS_PER_CLIENT`].
    ip: Option<IpAddr>,
}

/// The answer: `{state, done, total, plies}`.
fn progress(state: &str, plies: &[Value], total: usize) -> Json<Value> {
    Json(json!({ "state": state, "done": plies.len(), "total": total, "plies": plies }))
}

/// `GET /api/games/{id}/review?movetime_ms=T&nodes=N&fresh=1`: the review
/// of the game's moves as it stands, started in the background when none is
/// stored or running (`fresh`: again from the start):
/// `{state: "running" | "done", done, total, plies: [ply events]}`.
pub(crate) async fn review(
    State(s): State<Shared>,
    client: Client,
    Path(id): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id)?;
    let (game, played) = read_game(&s, id, |e| Ok((e.game.clone(), e.usi.clone())))?;
    let limits = limits(&q, MAX_REVIEW_MS, DEFAULT_REVIEW_MS)?;
    let fresh = q.contains_key("fresh");
    let moves = played.join(" ");
    let total = played.len() + 1;
    let stored = if fresh {
        Vec::new()
    } else {
        blocking(|| stored_review(&s, id, &moves)).unwrap_or_default()
    };
    if stored.last().is_some_and(|v| v["type"] == "done") {
        return Ok(progress("done", &stored[..stored.len() - 1], total));
    }
    if s.bounds.workers {
        return blocking(|| queue(&s, id, &moves, total, &limits, fresh));
    }
    let ip = client_ip(client);
    let control = Arc::new(Control::default());
    let (answer, started) = blocking(|| {
        let mut map = s.reviews.0.lock().expect("lock");
        if let Some(r) = map.get(&id) {
            if r.moves == moves && !fresh {
                return Ok((progress("running", &r.plies, r.total), false));
            }
            r.control.stop.store(true, Ordering::Relaxed);
            map.remove(&id);
        }
        let mine = map.values().filter(|r| ip.is_some() && r.ip == ip).count();
        if mine >= REVIEWS_PER_CLIENT {
            return Err(err(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many reviews running from this address ({mine}, at most {REVIEWS_PER_CLIENT}): wait for one to finish"
                ),
            ));
        }
        let plies: Vec<Value> = stored.into_iter().filter(|v| v["type"] == "ply").collect();
        let answer = progress("running", &plies, total);
        map.insert(
            id,
            Running {
                moves: moves.clone(),
                plies,
                total,
                control: control.clone(),
                ip,
            },
        );
        Ok((answer, true))
    })?;
    if started {
        step(s, id, Arc::new(game), moves, limits, control);
    }
    Ok(answer)
}

/// With workers (`banmen serve --workers`): queues the review for them
/// (unless it is queued or running already) and answers with the progress
/// stored so far; the workers store each position as they go.
fn queue(
    s: &Shared,
    id: i64,
    moves: &str,
    total: usize,
    limits: &Limits,
    fresh: bool,
) -> Result<Json<Value>, ApiError> {
    let request = json!({ "moves": moves, "movetime_ms": limits.movetime, "nodes": limits.nodes });
    {
        let mut inner = s.inner.lock().expect("lock");
        crate::storage::queue_review(&mut inner.conn, id, &request.to_string(), fresh)
            .map_err(crate::internal)?;
    }
    let plies: Vec<Value> = stored_review(s, id, moves)
        .unwrap_or_default()
        .into_iter()
        .filter(|v| v["type"] == "ply")
        .collect();
    Ok(progress("running", &plies, total))
}

/// A worker runs review `search` (queued by [`queue`]): from the positions
/// already stored, each position in turn, stored as it is done. It stops
/// when the search leaves the queue (a fresh review of the game asked
/// for) or when the game's moves are no longer those reviewed.
pub(crate) fn run_queued(s: &Shared, conn: &mut Store, search: &Search) {
    let Some(request) = search.request_json() else {
        return;
    };
    let moves = request["moves"].as_str().unwrap_or_default().to_string();
    let limits = Limits {
        movetime: request["movetime_ms"].as_u64(),
        nodes: request["nodes"].as_u64(),
        ..Limits::default()
    };
    let game = {
        let mut inner = s.inner.lock().expect("lock");
        let Inner { conn, games, .. } = &mut *inner;
        games.remove(&search.game);
        match fresh(conn, games, search.game) {
            Ok(e) if e.usi.join(" ") == moves => Some(e.game.clone()),
            _ => None,
        }
    };
    let Some(game) = game else { return };
    let mut total = moves.split_whitespace().count() + 1;
    let mut plies: Vec<Value> = stored_review(s, search.game, &moves)
        .unwrap_or_default()
        .into_iter()
        .filter(|v| v["type"] == "ply")
        .collect();
    let control = Control::default();
    while plies.len() < total {
        let before = plies.last().and_then(|p| p["black_chances"].as_f64());
        let ply = plies.len();
        match with_game!(&game, g => review_ply(g, ply, before, &limits, &control)) {
            Some(e) => plies.push(e),
            None => total = plies.len(),
        }
        if !search_wanted(conn, search.id).unwrap_or(false) {
            return;
        }
        let mut events = plies.clone();
        if plies.len() >= total {
            events.push(json!({ "type": "done", "plies": total.saturating_sub(1) }));
        }
        store_review(s, search.game, &moves, &events);
    }
}

/// Queues the search of the review's next position; once done, it stores
/// the progress and queues the next.
fn step(
    s: Shared,
    id: i64,
    game: Arc<AnyGame>,
    moves: String,
    limits: Limits,
    control: Arc<Control>,
) {
    spawn_search(s, move |s| {
        if control.stop.load(Ordering::Relaxed) {
            return None;
        }
        let s = s.clone();
        Some(move || {
            let ours = |r: &Running| Arc::ptr_eq(&r.control, &control);
            let next = {
                let map = s.reviews.0.lock().expect("lock");
                map.get(&id).filter(|r| ours(r)).map(|r| {
                    let before = r.plies.last().and_then(|p| p["black_chances"].as_f64());
                    (r.plies.len(), before)
                })
            };
            let Some((ply, before)) = next else { return };
            let event = with_game!(&*game, g => review_ply(g, ply, before, &limits, &control));
            if control.stop.load(Ordering::Relaxed) {
                return;
            }
            let (events, complete) = {
                let mut map = s.reviews.0.lock().expect("lock");
                let Some(r) = map.get_mut(&id).filter(|r| ours(r)) else {
                    return;
                };
                match event {
                    Some(e) => r.plies.push(e),
                    // The game cannot be replayed: nothing more to do.
                    None => r.total = r.plies.len(),
                }
                let complete = r.plies.len() >= r.total;
                let mut events = r.plies.clone();
                if complete {
                    events.push(json!({ "type": "done", "plies": r.total - 1 }));
                    map.remove(&id);
                }
                (events, complete)
            };
            if complete || events.len() % STORE_EVERY == 0 {
                store_review(&s, id, &moves, &events);
            }
            if !complete {
                step(s, id, game, moves, limits, control);
            }
        })
    });
}

/// A game's review as stored (table `reviews`), when it reviewed these
/// moves: the `ply` events so far, and `done` once finished.
fn stored_review(s: &Shared, id: i64, moves: &str) -> Option<Vec<Value>> {
    let mut inner = s.inner.lock().ok()?;
    let text = crate::storage::review(&mut inner.conn, id, moves).ok()??;
    serde_json::from_str(&text).ok()
}

/// Keeps a review with its game (replacing an older one).
fn store_review(s: &Shared, id: i64, moves: &str, events: &[Value]) {
    let Ok(mut inner) = s.inner.lock() else {
        return;
    };
    let events = Value::from(events.to_vec()).to_string();
    if let Err(e) = crate::storage::store_review(&mut inner.conn, id, moves, &events) {
        eprintln!("banmen serve: game {id}: storing its review: {e}");
    }
}

/// Black's winning chances, -1..=1, from a score of the side to move.
fn chances(score: Score, side: Color) -> f64 {
    let cp = match score {
        Score::Cp(c) => f64::from(c),
        Score::Mate(n) if n > 0 => 10_000.0,
        Score::Mate(_) => -10_000.0,
    };
    let black = if side == Color::Black { cp } else { -cp };
    2.0 / (1.0 + (-black / 400.0).exp()) - 1.0
}

/// What a move is that loses this much of its side's winning chances (out
/// of 2: from a sure win to a sure loss).
fn judgement(loss: f64) -> Option<&'static str> {
    match loss {
        l if l >= 0.3 => Some("blunder"),
        l if l >= 0.2 => Some("mistake"),
        l if l >= 0.1 => Some("inaccuracy"),
        _ => None,
    }
}

/// The review of the position after `ply` moves of `g`: its score (Black's
/// view), the best move, and for the move that led to it the winning
/// chances it lost (`before`: Black's chances one ply earlier) and its
/// judgement. `None`: the game does not replay (or the search was stopped).
fn review_ply<B: BitBoard>(
    g: &Game<B>,
    ply: usize,
    before: Option<f64>,
    limits: &Limits,
    control: &Control,
) -> Option<Value> {
    let mut game = Game::new(g.start().clone(), g.options());
    let mut text = None;
    for &m in g.moves().get(..ply)? {
        text = Some(game.position().move_to_usi(m));
        game.play(m).ok()?;
    }
    let pos = game.position();
    let side = pos.side_to_move();
    let (now, score, best) = match game.outcome() {
        Some(o) => {
            let black = o
                .winner
                .map_or(0.0, |w| if w == Color::Black { 1.0 } else { -1.0 });
            (black, json!({ "over": o.reason.as_str() }), Value::Null)
        }
        None => {
            let r = search(
                pos,
                &history(&game),
                &Evaluator::new(pos.rules()),
                &Table::new(16),
                limits,
                &SearchOptions::default(),
                control,
                &|_| {},
            );
            if control.stop.load(Ordering::Relaxed) {
                return None;
            }
            let score = Score::from_internal(r.score);
            let best = match r.best {
                BestMove::Move(m, _) => json!(pos.move_to_usi(m)),
                _ => Value::Null,
            };
            (chances(score, side), score_json(score, side), best)
        }
    };
    // The mover is the side not to move now.
    let loss = before
        .map_or(0.0, |b| {
            if side == Color::White {
                b - now
            } else {
                now - b
            }
        })
        .max(0.0);
    Some(json!({
        "type": "ply",
        "ply": ply,
        "move": text,
        "score": score,
        "black_chances": now,
        "best": best,
        "loss": loss,
        "judgement": judgement(loss),
    }))
}
