//! The web board behind `banmen serve`: a JSON API over the rules core, games
//! kept in SQLite or PostgreSQL (every move committed before the reply), engine sides played
//! by the banmen search, live updates as server-sent events, and one page.

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use banmen_engine::Control;
use banmen_rules::game::GameError;
use banmen_rules::{
    rules_for, with_game, with_rules, AnyGame, BitBoard, Color, Game, GameOptions, Kind, Outcome,
    Position, Reason, SfenMode, VariantName,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::broadcast;

mod analysis;
mod assets;
mod bounds;
mod clock;
mod consent;
mod editor;
mod engine;
mod notation;
mod record;
mod review;
mod storage;
mod tsume;
mod variants;
mod variations;
mod worker;

use bounds::{admit, Pool, Rates};
pub use bounds::{cores, Bounds};
pub use clock::TimeControl;
use engine::{local_job, spawn_engine, EngineJob};
pub use storage::Database;
use storage::{load_game, load_games, store, stored_version, stored_versions, Store, StoreError};
pub use worker::{run_worker, Worker, WorkerOptions};

/// Request bodies larger than this are refused.
pub const BODY_LIMIT: usize = 64 * 1024;
/// The longest an engine may think per move.
pub const MAX_MOVETIME_MS: u64 = 60_000;

/// Where `banmen serve` listens and keeps its games.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address to bind (127.0.0.1 by default).
    pub bind: String,
    /// TCP port (0 picks a free one).
    pub port: u16,
    /// The SQLite file or the PostgreSQL database.
    pub db: Database,
    /// The engine pool and the limits per client.
    pub bounds: Bounds,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// A person holding the seat token.
    Human,
    /// The banmen engine, thinking this long per move.
    Engine {
        /// Milliseconds per move.
        movetime_ms: u64,
        /// Strength 1..=8 (`engine::Level`: 1 is a few hundred nodes and a
        /// random pick among moves near the best; 8 is full strength); absent: full strength,
        /// as before levels existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<u8>,
    },
}

#[derive(Clone, Debug)]
struct Entry {
    id: i64,
    variant: String,
    rules: String,
    handicap: Option<String>,
    start_sfen: String,
    players: [Player; 2],
    tokens: [Option<String>; 2],
    game: AnyGame,
    /// Bumped by undo and resign: a running engine search for an older
    /// generation is thrown away.
    generation: u64,
    /// Bumped by every change of the state (a move, a take-back, a
    /// resignation, a flag falling) and stored with it: the page keeps the
    /// newest state it was given, whichever way it came.
    version: u64,
    control: Option<Arc<Control>>,
    /// The engine's search waits in the pool for a free slot: its clock
    /// does not run until the search starts (see [`engine::spawn_engine`]).
    engine_queued: bool,
    /// The moves as USI, Western and Japanese text, and the milliseconds
    /// each took, kept in step with `game` (computed once per move).
    usi: Vec<String>,
    western: Vec<String>,
    japanese: Vec<String>,
    times: Vec<u64>,
    /// When the side to move began to think (a restart resets it).
    turn_started: Instant,
    /// A write was refused because the stored game is newer (another
    /// server changed it): read it again before its next use.
    stale: bool,
    /// The time control, if the game has one.
    time_control: Option<TimeControl>,
    /// Against a person, a take-back needs the other side's consent (no
    /// `POST /undo`): set at creation by `"consent": true`.
    consent: bool,
    /// Each side's main time left at the start of its turn (kept from `times`).
    left: [u64; 2],
    /// The side that lost on time.
    flagged: Option<Color>,
    /// An end the rules do not know: a draw agreed or a game aborted
    /// (stored as a result with no winner).
    ended: Option<&'static str>,
    /// The offer (draw, take-back) waiting for the other side's answer;
    /// every move or take-back withdraws it.
    offer: Option<consent::Offer>,
    /// The last offer answered, for the side that made it (not stored).
    answer: Option<consent::Answer>,
    /// The game that continues this one (a rematch).
    rematch: Option<i64>,
    /// The variations of the game's record: an imported record's and the
    /// side lines saved while analysing it.
    variations: Option<Arc<variations::Variations>>,
    /// The address that created the game (not stored: unknown after a restart).
    creator: Option<IpAddr>,
    /// Seconds since 1970: creation and last change.
    created: i64,
    updated: i64,
}

/// What a game is, as stored in its row: the game, rules, start and players.
struct Head {
    variant: String,
    rules: String,
    handicap: Option<String>,
    start_sfen: String,
    players: [Player; 2],
    time_control: Option<TimeControl>,
    consent: bool,
}

impl Entry {
    /// A game before its moves are pushed (new, imported or loaded at start-up).
    fn new(
        id: i64,
        head: Head,
        tokens: [Option<String>; 2],
        game: AnyGame,
        created: i64,
        updated: i64,
    ) -> Entry {
        Entry {
            id,
            variant: head.variant,
            rules: head.rules,
            handicap: head.handicap,
            start_sfen: head.start_sfen,
            players: head.players,
            tokens,
            game,
            generation: 0,
            version: 0,
            control: None,
            engine_queued: false,
            usi: Vec::new(),
            western: Vec::new(),
            japanese: Vec::new(),
            times: Vec::new(),
            turn_started: Instant::now(),
            stale: false,
            left: [head.time_control.map_or(0, |t| t.main_ms); 2],
            time_control: head.time_control,
            consent: head.consent,
            flagged: None,
            ended: None,
            offer: None,
            answer: None,
            rematch: None,
            variations: None,
            creator: None,
            created,
            updated,
        }
    }
}

/// The reason a game lost on time ends with.
const TIME: &str = "time";

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Plays USI text on a game, returning its USI, Western and Japanese text.
fn play_on<B: BitBoard>(g: &mut Game<B>, text: &str) -> Result<[String; 3], GameError> {
    let before = g.position().clone();
    let previous = g.moves().last().map(|m| m.to());
    let m = g.play_usi(text)?;
    let (western, japanese) = notation::both(&before, m, previous);
    Ok([before.move_to_usi(m), western, japanese])
}

impl Entry {
    /// Plays a move that took `ms` milliseconds.
    fn push_move(&mut self, text: &str, ms: u64) -> Result<(), GameError> {
        let [usi, western, japanese] = with_game!(&mut self.game, g => play_on(g, text))?;
        self.usi.push(usi);
        self.western.push(western);
        self.japanese.push(japanese);
        self.times.push(ms);
        self.turn_started = Instant::now();
        self.engine_queued = false;
        self.version += 1;
        self.offer = None;
        self.answer = None;
        self.update_clock();
        Ok(())
    }
    /// Takes back the last move.
    fn pop_move(&mut self) {
        with_game!(&mut self.game, g => g.undo());
        let n = self.ply();
        self.usi.truncate(n);
        self.western.truncate(n);
        self.japanese.truncate(n);
        self.times.truncate(n);
        self.turn_started = Instant::now();
        self.engine_queued = false;
        self.version += 1;
        self.offer = None;
        self.answer = None;
        self.update_clock();
    }
    /// Recounts the main time left from the moves' times.
    fn update_clock(&mut self) {
        if let Some(tc) = self.time_control {
            let first = with_game!(&self.game, g => g.start().side_to_move());
            self.left = tc.left_after(&self.times, first);
        }
    }
    /// The side to move, when its flag has fallen in a game still on.
    fn flag_fallen(&self) -> Option<Color> {
        let tc = self.time_control?;
        if self.result().is_some() {
            return None;
        }
        let side = self.side_to_move();
        tc.flag_fell(self.left[side.index()], self.turn_ms())
            .then_some(side)
    }
    /// The winner (`None`: a draw) and the reason, once the game is over.
    fn result(&self) -> Option<(Option<Color>, &'static str)> {
        if let Some(loser) = self.flagged {
            return Some((Some(!loser), TIME));
        }
        if let Some(reason) = self.ended {
            return Some((None, reason));
        }
        self.outcome().map(|o| (o.winner, o.reason.as_str()))
    }
    fn result_json(&self) -> Value {
        match self.result() {
            Some((winner, reason)) => json!({ "winner": winner.map(color_name), "reason": reason }),
            None => Value::Null,
        }
    }
    /// A copy of the game and its move texts, to put back when storing fails.
    fn snapshot(&self) -> Entry {
        self.clone()
    }
    /// Puts back a [`Self::snapshot`], keeping the engine's bookkeeping as
    /// it is now (its search, the generation) and the last write's time.
    fn restore(&mut self, mut s: Entry) {
        s.generation = self.generation;
        s.control = self.control.take();
        s.engine_queued = self.engine_queued;
        s.updated = self.updated;
        *self = s;
    }
    /// The time the side to move has thought so far. Under a clock the
    /// first move is not timed: the clocks start once it is played (a new
    /// game, or a rematch whose second player has not yet come, cannot be
    /// lost on time before anyone plays).
    fn turn_ms(&self) -> u64 {
        if self.engine_queued || (self.time_control.is_some() && self.ply() == 0) {
            return 0;
        }
        self.turn_started.elapsed().as_millis() as u64
    }
    fn outcome(&self) -> Option<Outcome> {
        with_game!(&self.game, g => g.outcome())
    }
    fn side_to_move(&self) -> Color {
        with_game!(&self.game, g => g.position().side_to_move())
    }
    fn ply(&self) -> usize {
        with_game!(&self.game, g => g.moves().len())
    }
    /// The side that played ply `p` (1-based).
    fn mover(&self, p: usize) -> Color {
        let start = with_game!(&self.game, g => g.start().side_to_move());
        if (p - 1) % 2 == 0 {
            start
        } else {
            !start
        }
    }
    fn stop_engine(&mut self) {
        self.generation += 1;
        self.engine_queued = false;
        if let Some(c) = self.control.take() {
            c.stop.store(true, Ordering::Relaxed);
        }
    }
}

#[derive(Debug)]
struct Inner {
    /// The database, written through under the lock.
    conn: Store,
    games: BTreeMap<i64, Entry>,
    rates: Rates,
}

#[derive(Debug)]
struct AppState {
    inner: Mutex<Inner>,
    events: broadcast::Sender<(i64, String)>,
    bounds: Bounds,
    pool: Pool,
    /// The analyses running, per address.
    analyses: analysis::Running,
    /// The analyses workers run for this server's clients.
    relays: analysis::Relays,
    /// The game reviews running in the background, per game.
    reviews: review::Reviews,
}

type Shared = Arc<AppState>;

/// An error reply: a status and `{error}`.
#[derive(Debug)]
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

fn err(status: StatusCode, msg: impl Into<String>) -> ApiError {
    ApiError(status, msg.into())
}

/// Stores the game's moves from ply `from` on; when the database refuses,
/// puts the game back as `saved` had it, so memory and disk keep agreeing.
fn store_or_restore(
    conn: &mut Store,
    e: &mut Entry,
    from: usize,
    saved: Entry,
) -> Result<(), ApiError> {
    store(conn, e, from).map_err(|dbe| {
        e.restore(saved);
        stored_or_conflict(e, dbe)
    })
}

/// The answer to a refused write: `409` when another server changed the
/// game first (the copy is then marked stale, so that it is read again
/// before its next use), `500` otherwise.
fn stored_or_conflict(e: &mut Entry, dbe: StoreError) -> ApiError {
    match dbe {
        StoreError::Changed(_) => {
            e.stale = true;
            err(
                StatusCode::CONFLICT,
                format!("{dbe}: it has been read again; look and try again"),
            )
        }
        StoreError::Failed(_) => internal(dbe),
    }
}

/// Reads game `id` again when its stored version is newer than this
/// server's copy, or when this server has no copy (a game made by another
/// server on the same database), or when a write of it was refused as
/// stale; says whether it did. The version is compared only on a database
/// other servers may share: with SQLite this server is the only writer.
fn refresh(conn: &mut Store, games: &mut BTreeMap<i64, Entry>, id: i64) -> Result<bool, String> {
    let stale = games.get(&id).is_some_and(|e| e.stale);
    if !conn.is_shared() && !stale {
        return Ok(false);
    }
    let Some(stored) = stored_version(conn, id).map_err(|e| e.to_string())? else {
        return Ok(false);
    };
    reload_if_older(conn, games, id, stored)
}

/// Reads game `id` again if this server's copy is older than `stored`,
/// stale, or missing.
fn reload_if_older(
    conn: &mut Store,
    games: &mut BTreeMap<i64, Entry>,
    id: i64,
    stored: i64,
) -> Result<bool, String> {
    if games
        .get(&id)
        .is_some_and(|e| !e.stale && e.version as i64 >= stored)
    {
        return Ok(false);
    }
    let Some(mut fresh) = load_game(conn, id)? else {
        return Ok(false);
    };
    if let Some(old) = games.get_mut(&id) {
        // A search this server runs on the old state is thrown away.
        old.stop_engine();
        fresh.generation = old.generation + 1;
    }
    games.insert(id, fresh);
    Ok(true)
}

/// Reads again every game another server has changed or made (a shared
/// database only); the ids read.
fn refresh_all(conn: &mut Store, games: &mut BTreeMap<i64, Entry>) -> Vec<i64> {
    if !conn.is_shared() {
        return Vec::new();
    }
    let stored = match stored_versions(conn) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("banmen serve: reading the games' versions: {e}");
            return Vec::new();
        }
    };
    stored
        .into_iter()
        .filter(|&(id, v)| match reload_if_older(conn, games, id, v) {
            Ok(read) => read,
            Err(e) => {
                eprintln!("banmen serve: game {id}: {e}");
                false
            }
        })
        .map(|(id, _)| id)
        .collect()
}

/// Game `id` as stored (read again first where [`refresh`] says), or `404`.
fn fresh<'a>(
    conn: &mut Store,
    games: &'a mut BTreeMap<i64, Entry>,
    id: i64,
) -> Result<&'a mut Entry, ApiError> {
    refresh(conn, games, id).map_err(internal)?;
    games
        .get_mut(&id)
        .ok_or_else(|| err(StatusCode::NOT_FOUND, format!("no game {id}")))
}

/// Another server changed game `id` to `version` (PostgreSQL's `NOTIFY`):
/// a game this server holds is read again and its new state published.
fn changed_elsewhere(s: &Shared, id: i64, version: i64) {
    let mut inner = s.inner.lock().expect("lock");
    let Inner { conn, games, .. } = &mut *inner;
    if !games.contains_key(&id) {
        return; // read when first asked for
    }
    match reload_if_older(conn, games, id, version) {
        Ok(true) => {
            if let Some(e) = games.get(&id) {
                let _ = s.events.send((id, state(e).to_string()));
            }
        }
        Ok(false) => {}
        Err(e) => eprintln!("banmen serve: game {id}: {e}"),
    }
}

/// Every game another server made or changed that this server has not
/// read yet (after the listening connection was lost, and once a second) is
/// read and published.
fn missed_elsewhere(s: &Shared) {
    let mut inner = s.inner.lock().expect("lock");
    let Inner { conn, games, .. } = &mut *inner;
    for id in refresh_all(conn, games) {
        if let Some(e) = games.get(&id) {
            let _ = s.events.send((id, state(e).to_string()));
        }
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    err(StatusCode::INTERNAL_SERVER_ERROR, format!("storage: {e}"))
}

fn color_name(c: Color) -> &'static str {
    c.name()
}

fn color_from(s: &str) -> Option<Color> {
    match s {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// Builds a game from its stored description.
fn new_game(variant: &str, rules: &str, start_sfen: &str) -> Result<AnyGame, String> {
    let name: VariantName = variant.parse().map_err(|e| format!("{e}"))?;
    let rules = rules_for(name, rules).map_err(|e| e.to_string())?;
    let start = rules
        .position(start_sfen, SfenMode::Strict)
        .map_err(|e| e.to_string())?;
    Ok(AnyGame::new(start, GameOptions::default()))
}

/// The start SFEN of a variant, or of one of its handicaps.
fn start_sfen(variant: &str, rules: &str, handicap: Option<&str>) -> Result<String, String> {
    let name: VariantName = variant.parse().map_err(|e| format!("{e}"))?;
    let v = rules_for(name, rules).map_err(|e| e.to_string())?.variant();
    match handicap {
        None | Some("") | Some("none") => Ok(v.start_sfen.to_string()),
        Some(h) => v.handicap(h).map(|h| h.sfen.to_string()).ok_or_else(|| {
            let names: Vec<&str> = v.handicaps.iter().map(|h| h.name).collect();
            format!(
                "unknown handicap '{h}' (expected one of: {})",
                names.join(", ")
            )
        }),
    }
}

fn board_json<B: BitBoard>(pos: &Position<B>) -> Value {
    let rules = pos.rules();
    let geo = rules.geometry;
    let board: Vec<Vec<Option<String>>> = (0..geo.ranks as i32)
        .map(|r| {
            (1..=geo.files as i32)
                .rev()
                .map(|f| {
                    geo.square(f, r)
                        .and_then(|sq| pos.piece_at(sq))
                        .map(|p| pos.token(p))
                })
                .collect()
        })
        .collect();
    let mut hands = serde_json::Map::new();
    for c in Color::ALL {
        let mut h = Vec::new();
        if rules.variant.has_drops() {
            for k in 0..rules.n_base {
                let n = pos.hand_count(c, Kind(k as u8));
                if n > 0 {
                    h.push(json!([rules.kind(Kind(k as u8)).code.to_uppercase(), n]));
                }
            }
        }
        hands.insert(color_name(c).to_string(), Value::Array(h));
    }
    json!({
        "files": geo.files,
        "ranks": geo.ranks,
        "board": board,
        "hands": hands,
        "in_check": pos.in_check(),
    })
}

/// The public state of a game (never the tokens).
fn state(e: &Entry) -> Value {
    with_game!(&e.game, g => {
        let pos = g.position();
        let over = e.result().is_some();
        let legal: Vec<String> = if over {
            Vec::new()
        } else {
            pos.legal_moves().iter().map(|&m| pos.move_to_usi(m)).collect()
        };
        let result = e.result_json();
        let left = |c: usize| e.time_control.map(|_| e.left[c]);
        let mut used = [0u64; 2];
        for (i, ms) in e.times.iter().enumerate() {
            used[e.mover(i + 1).index()] += ms;
        }
        json!({
            "id": e.id,
            "version": e.version,
            "variant": e.variant,
            "rules": e.rules,
            "handicap": e.handicap,
            "start_sfen": e.start_sfen,
            "sfen": pos.to_sfen(),
            "moves": e.usi,
            "notation": { "western": e.western, "japanese": e.japanese },
            "times_ms": e.times,
            "clock": {
                "black_ms": used[0],
                "white_ms": used[1],
                "turn_ms": if over { 0 } else { e.turn_ms() },
                "black_left_ms": left(0),
                "white_left_ms": left(1),
            },
            "time_control": e.time_control,
            "consent": e.consent,
            "legal_moves": legal,
            "side_to_move": color_name(pos.side_to_move()),
            "result": result,
            "black": e.players[0],
            "white": e.players[1],
            "created": e.created,
            "updated": e.updated,
            "position": board_json(pos),
            "offer": e.offer,
            "answer": e.answer,
            "rematch": e.rematch,
            "variations": e.variations.as_ref().map_or(json!([]), |v| v.shown(&e.usi)),
        })
    })
}

/// The short form `GET /api/games` lists.
fn summary(e: &Entry) -> Value {
    let result = e.result_json();
    json!({
        "id": e.id,
        "version": e.version,
        "variant": e.variant,
        "rules": e.rules,
        "handicap": e.handicap,
        "black": e.players[0],
        "white": e.players[1],
        "time_control": e.time_control,
        "move_count": e.ply(),
        "side_to_move": color_name(e.side_to_move()),
        "result": result,
        "created": e.created,
        "updated": e.updated,
    })
}

/// Builds the application on the database `db` (an SQLite file is created
/// if missing; a path converts into [`Database::Sqlite`]);
/// games whose engine is to move start thinking again. One engine search
/// per core; no limit per client (see [`app_with`]).
///
/// # Errors
/// The database cannot be opened or read.
pub async fn app(db: impl Into<Database>) -> Result<Router, String> {
    app_with(
        db,
        Bounds {
            engine_games_per_client: None,
            games_per_minute: None,
            ..Bounds::default()
        },
    )
    .await
}

/// [`app`] with these bounds. The limits per client need the peer's address:
/// serve the router with `into_make_service_with_connect_info::<SocketAddr>()`.
///
/// # Errors
/// The database cannot be opened or read.
pub async fn app_with(db: impl Into<Database>, bounds: Bounds) -> Result<Router, String> {
    let db: Database = db.into();
    let state = shared_state(&db, bounds, true)?;
    let jobs: Vec<EngineJob> = {
        let mut inner = state.inner.lock().expect("lock");
        let Inner { conn, games, .. } = &mut *inner;
        if state.bounds.workers {
            storage::queue_missing(conn, games).map_err(|e| e.to_string())?;
        }
        games
            .values_mut()
            .filter_map(|e| local_job(&state.bounds, e))
            .collect()
    };
    for job in jobs {
        spawn_engine(state.clone(), job);
    }
    if let Database::Postgres(url) = &db {
        // Changes made by other servers on the same database.
        listen_while_serving(&state, url, storage::GAMES_CHANNEL, |s, payload| {
            let parsed = payload
                .split_once(':')
                .and_then(|(id, v)| Some((id.parse::<i64>().ok()?, v.parse::<i64>().ok()?)));
            match parsed {
                Some((id, version)) => changed_elsewhere(s, id, version),
                // After a lost connection (an empty payload, see below).
                None if payload.is_empty() => missed_elsewhere(s),
                None => {}
            }
        });
        if state.bounds.workers {
            // The lines of the analyses workers run for this server's clients.
            listen_while_serving(&state, url, storage::ANALYSIS_CHANNEL, |s, payload| {
                s.relays.heard(payload)
            });
        }
    }
    let weak = Arc::downgrade(&state);
    let shared = matches!(db, Database::Postgres(_));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(100));
        for n in 0u64.. {
            tick.tick().await;
            let Some(s) = weak.upgrade() else { break };
            // On a shared database, once a second: the games the other
            // servers made or changed, so that this server also runs their
            // clocks (and ends them on time if the server that took their
            // last move has died).
            if shared && n % 10 == 0 {
                blocking(|| missed_elsewhere(&s));
            }
            blocking(|| expire_all(&s));
        }
    });
    Ok(Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/games", post(create).get(list))
        .route("/api/games/import", post(record::import))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/export", get(record::export))
        .route("/api/games/{id}/variations", post(variations::save_line))
        .route("/api/games/{id}/position", get(position_at))
        .route("/api/pieces", get(pieces))
        .route("/api/variants", get(variants_handler))
        .route("/api/engines", get(engines_handler))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/offer", post(consent::offer))
        .route("/api/games/{id}/offer/accept", post(consent::accept))
        .route("/api/games/{id}/offer/decline", post(consent::decline))
        .route("/api/games/{id}/abort", post(consent::abort))
        .route("/api/games/{id}/rematch", post(consent::rematch))
        .route("/api/games/{id}/seat", get(consent::seat_of))
        .route("/api/games/{id}/events", get(events_handler))
        .route("/api/games/{id}/analysis", get(analysis::game_stream))
        .route("/api/games/{id}/review", get(review::review))
        .route("/api/analysis", get(analysis::sfen_analysis))
        .route("/api/positions", post(editor::check_position))
        .route("/api/tsume", post(editor::tsume))
        .route("/api/tsume/check", post(tsume::check))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state))
}

/// Follows `channel` on a thread of its own for as long as the server
/// runs: `heard(state, payload)` for each notification, and once with an
/// empty payload after a lost connection was opened again.
fn listen_while_serving(
    state: &Shared,
    url: &str,
    channel: &'static str,
    heard: impl Fn(&Shared, &str) + Send + 'static,
) {
    let weak = Arc::downgrade(state);
    let url = url.to_string();
    std::thread::spawn(move || {
        storage::listen_postgres(
            &url,
            channel,
            || weak.strong_count() > 0,
            |payload| {
                if let Some(s) = weak.upgrade() {
                    heard(&s, payload);
                }
            },
            || {
                if let Some(s) = weak.upgrade() {
                    heard(&s, "");
                }
            },
        );
    });
}

/// The state of a server (or a worker): the database opened (engine moves
/// left to workers where `bounds.workers` says), and its games read when
/// `load` (else each is read when first used).
fn shared_state(db: &Database, bounds: Bounds, load: bool) -> Result<Shared, String> {
    let mut conn = Store::open(db)?;
    if bounds.workers {
        conn.leave_engines_to_workers()?;
    }
    let games = if load {
        load_games(&mut conn)?
    } else {
        BTreeMap::new()
    };
    let (events, _) = broadcast::channel(256);
    Ok(Arc::new(AppState {
        inner: Mutex::new(Inner {
            conn,
            games,
            rates: Rates::default(),
        }),
        events,
        pool: Pool::new(bounds.engines),
        bounds,
        analyses: analysis::Running::default(),
        relays: analysis::Relays::default(),
        reviews: review::Reviews::default(),
    }))
}

/// Runs the server until it is killed.
///
/// # Errors
/// The database or the address cannot be used.
pub async fn serve(opts: &ServeOptions) -> Result<(), String> {
    let router = app_with(&opts.db, opts.bounds.clone()).await?;
    let listener = tokio::net::TcpListener::bind((opts.bind.as_str(), opts.port))
        .await
        .map_err(|e| format!("cannot bind {}:{}: {e}", opts.bind, opts.port))?;
    let addr: SocketAddr = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("banmen serve: http://{addr}/ (games in {})", opts.db);
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
    .map_err(|e| e.to_string())
}

/// `banmen serve`: builds a runtime and serves.
///
/// # Errors
/// As [`serve`].
pub fn run(opts: &ServeOptions) -> Result<(), String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(serve(opts))
}

fn parse_id(id: &str) -> Result<i64, ApiError> {
    id.parse()
        .map_err(|_| err(StatusCode::NOT_FOUND, format!("no game '{id}'")))
}

fn body_json<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| err(StatusCode::BAD_REQUEST, format!("malformed JSON: {e}")))
}

/// The seat the request's bearer token holds.
fn seat(headers: &HeaderMap, e: &Entry) -> Result<Color, ApiError> {
    let h = headers.get(header::AUTHORIZATION).ok_or_else(|| {
        err(
            StatusCode::UNAUTHORIZED,
            "missing header 'Authorization: Bearer <seat token>'",
        )
    })?;
    let token = h
        .to_str()
        .ok()
        .and_then(|s| s.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            err(
                StatusCode::UNAUTHORIZED,
                "malformed Authorization header (expected 'Bearer <seat token>')",
            )
        })?;
    Color::ALL
        .into_iter()
        .find(|c| e.tokens[c.index()].as_deref() == Some(token))
        .ok_or_else(|| {
            err(
                StatusCode::FORBIDDEN,
                "the token holds no seat in this game",
            )
        })
}

/// The seat of the request's token, in a game still in play.
pub(crate) fn seat_in_play(headers: &HeaderMap, e: &Entry) -> Result<Color, ApiError> {
    let me = seat(headers, e)?;
    if let Some((_, reason)) = e.result() {
        return Err(game_over(reason));
    }
    Ok(me)
}

fn game_over(reason: &str) -> ApiError {
    err(StatusCode::CONFLICT, format!("the game is over ({reason})"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    variant: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    handicap: Option<String>,
    /// The start position (the board editor's "play from here"), instead of
    /// the game's own or a handicap's.
    #[serde(default)]
    sfen: Option<String>,
    black: Player,
    white: Player,
    /// The time control; none: the clocks only count the time used.
    #[serde(default)]
    clock: Option<TimeControl>,
    /// Against a person, take-backs only by consent (an offer the other
    /// side accepts); `POST /undo` is refused.
    #[serde(default)]
    consent: bool,
}

/// Runs `f`, which takes the games' lock and may wait for the disk, without
/// holding up the other tasks of a worker thread (on the multi-threaded runtime).
pub(crate) fn blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

fn new_token() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn check_players(players: &[Player; 2]) -> Result<(), ApiError> {
    for p in players {
        if let Player::Engine { movetime_ms, level } = *p {
            if let Some(l) = level {
                if !(1..=engine::MAX_LEVEL).contains(&l) {
                    return Err(err(
                        StatusCode::BAD_REQUEST,
                        format!("level must be 1..={}, not {l}", engine::MAX_LEVEL),
                    ));
                }
            }
            if movetime_ms == 0 || movetime_ms > MAX_MOVETIME_MS {
                return Err(err(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("movetime_ms must be 1..={MAX_MOVETIME_MS}, not {movetime_ms}"),
                ));
            }
        }
    }
    Ok(())
}

/// A game to store: its description, the moves already played and a resignation.
struct NewGame {
    variant: String,
    rules: String,
    handicap: Option<String>,
    start_sfen: String,
    players: [Player; 2],
    time_control: Option<TimeControl>,
    consent: bool,
    moves: Vec<String>,
    resigned: Option<Color>,
    /// The record's variations, off its main line `moves`.
    variations: Vec<banmen_formats::Variation>,
}

/// Builds, stores (one transaction) and registers a game; answers `201` with
/// its state and the seat tokens.
fn insert_game(s: &Shared, new: NewGame, client: Option<IpAddr>) -> Result<Response, ApiError> {
    let bad = |m: String| err(StatusCode::UNPROCESSABLE_ENTITY, m);
    let game = new_game(&new.variant, &new.rules, &new.start_sfen).map_err(bad)?;
    let tokens = new.players.map(|p| (p == Player::Human).then(new_token));
    let created = now_secs();
    let head = Head {
        variant: new.variant,
        rules: new.rules,
        handicap: new.handicap,
        start_sfen: new.start_sfen,
        players: new.players,
        time_control: new.time_control,
        consent: new.consent,
    };
    let variations = if new.variations.is_empty() {
        None
    } else {
        let v = variations::Variations::new(&game, new.moves.clone(), new.variations);
        Some(Arc::new(v.map_err(bad)?))
    };
    let mut entry = Entry::new(0, head, tokens.clone(), game, created, created);
    entry.creator = client;
    entry.variations = variations;
    for (i, m) in new.moves.iter().enumerate() {
        entry
            .push_move(m, 0)
            .map_err(|e| bad(format!("move {} ({m}): {e}", i + 1)))?;
    }
    if let Some(loser) = new.resigned {
        if entry.outcome().is_none() {
            with_game!(&mut entry.game, g => g.resign(loser));
        }
    }
    let (value, job) = {
        let mut inner = s.inner.lock().expect("lock");
        let Inner { conn, games, rates } = &mut *inner;
        admit(&s.bounds, rates, games.values(), client, &entry.players)?;
        storage::insert(conn, &mut entry).map_err(internal)?;
        let job = local_job(&s.bounds, &mut entry);
        let value = state(&entry);
        games.insert(entry.id, entry);
        (value, job)
    };
    if let Some(job) = job {
        spawn_engine(s.clone(), job);
    }
    let mut value = value;
    value["tokens"] = json!({ "black": tokens[0], "white": tokens[1] });
    Ok((StatusCode::CREATED, Json(value)).into_response())
}

/// The peer's address, when the server was started with it.
type Client = Option<Extension<ConnectInfo<SocketAddr>>>;

fn client_ip(c: Client) -> Option<IpAddr> {
    c.map(|Extension(ConnectInfo(a))| a.ip())
}

async fn create(
    State(s): State<Shared>,
    client: Client,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: CreateRequest = body_json(&body)?;
    let players = [req.black, req.white];
    check_players(&players)?;
    if let Some(tc) = &req.clock {
        tc.check()
            .map_err(|m| err(StatusCode::UNPROCESSABLE_ENTITY, m))?;
    }
    let rules = req.rules.unwrap_or_default();
    let handicap = req.handicap.filter(|h| !h.is_empty() && h != "none");
    let sfen = match req.sfen.map(|s| s.trim().to_string()) {
        Some(_) if handicap.is_some() => {
            return Err(err(
                StatusCode::UNPROCESSABLE_ENTITY,
                "give a handicap or a start sfen, not both",
            ))
        }
        Some(sfen) => sfen,
        None => start_sfen(&req.variant, &rules, handicap.as_deref())
            .map_err(|m| err(StatusCode::UNPROCESSABLE_ENTITY, m))?,
    };
    blocking(|| {
        insert_game(
            &s,
            NewGame {
                variant: req.variant,
                rules,
                handicap,
                start_sfen: sfen,
                players,
                time_control: req.clock,
                consent: req.consent,
                moves: Vec::new(),
                resigned: None,
                variations: Vec::new(),
            },
            client_ip(client),
        )
    })
}

async fn list(State(s): State<Shared>) -> Json<Value> {
    blocking(|| {
        let mut inner = s.inner.lock().expect("lock");
        let Inner { conn, games, .. } = &mut *inner;
        refresh_all(conn, games);
        Json(Value::Array(games.values().rev().map(summary).collect()))
    })
}

/// `GET /api/games/{id}/position?ply=N`: the board after `N` moves (replay);
/// `?line=M1,M2,…`: after these USI moves from the game's start (a
/// variation's position: its main-line moves, then its own).
async fn position_at(
    State(s): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id)?;
    let game = read_game(&s, id, |e| Ok(e.game.clone()))?;
    if let Some(line) = q.get("line") {
        return line_position(&game, line).map(Json);
    }
    let n = with_game!(&game, g => g.moves().len());
    let ply = match q.get("ply") {
        None => n,
        Some(t) => t.parse::<usize>().ok().filter(|&p| p <= n).ok_or_else(|| {
            err(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("ply must be 0..={n}, not '{t}'"),
            )
        })?,
    };
    Ok(Json(with_game!(&game, g => {
        let mut p = g.start().clone();
        let mut last = None;
        for &m in &g.moves()[..ply] {
            last = Some(p.move_to_usi(m));
            p.make_move(m);
        }
        replayed(&p, ply, last)
    })))
}

/// A replayed position (`GET …/position`): its ply, SFEN, last move, side to
/// move, board and legal moves (for moves tried on it in analysis).
fn replayed<B: BitBoard>(p: &Position<B>, ply: usize, last: Option<String>) -> Value {
    let legal: Vec<String> = p.legal_moves().iter().map(|&m| p.move_to_usi(m)).collect();
    json!({
        "ply": ply,
        "sfen": p.to_sfen(),
        "last_move": last,
        "side_to_move": color_name(p.side_to_move()),
        "position": board_json(p),
        "legal_moves": legal,
    })
}

/// The position after the USI moves `line` (comma-separated) from the start of `game`.
fn line_position(game: &AnyGame, line: &str) -> Result<Value, ApiError> {
    let moves: Vec<&str> = line.split(',').filter(|m| !m.is_empty()).collect();
    with_game!(game, g => {
        let mut p = g.start().clone();
        let mut last = None;
        for (i, text) in moves.iter().enumerate() {
            let m = p.parse_move(text).map_err(|e| {
                err(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("move {} ({text}): {e}", i + 1),
                )
            })?;
            last = Some(p.move_to_usi(m));
            p.make_move(m);
        }
        Ok(replayed(&p, moves.len(), last))
    })
}

/// `GET /api/engines`: the engine pool's limit, searches running and waiting.
async fn engines_handler(State(s): State<Shared>) -> Json<Value> {
    Json(s.pool.json())
}

/// `GET /api/variants`: the games, their options, handicaps and pieces.
async fn variants_handler() -> Json<Value> {
    static VARIANTS: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    Json(VARIANTS.get_or_init(variants::variants).clone())
}

/// `GET /api/pieces?variant=V&rules=R`: the legend of the pieces.
async fn pieces(Query(q): Query<BTreeMap<String, String>>) -> Result<Json<Value>, ApiError> {
    let bad = |m: String| err(StatusCode::UNPROCESSABLE_ENTITY, m);
    let variant = q.get("variant").map_or("shogi", String::as_str);
    let name: VariantName = variant.parse().map_err(|e| bad(format!("{e}")))?;
    let rules = q.get("rules").map_or("", String::as_str);
    Ok(Json(
        with_rules!(rules_for(name, rules).map_err(|e| bad(e.to_string()))?, r => notation::legend(r)),
    ))
}

async fn get_game(
    State(s): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id)?;
    read_game(&s, id, |e| Ok(Json(state(e))))
}

/// Runs `f` on the game `id` under the games' lock (`404` without it).
pub(crate) fn read_game<T>(
    s: &Shared,
    id: i64,
    f: impl FnOnce(&Entry) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    blocking(|| {
        let mut inner = s.inner.lock().expect("lock");
        let Inner { conn, games, .. } = &mut *inner;
        f(fresh(conn, games, id)?)
    })
}

#[derive(Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

/// Runs `f` on the game `id` under the lock; then publishes the new state and
/// starts the engine if it is to move.
fn change(
    s: &Shared,
    id: &str,
    f: impl FnOnce(&mut Store, &mut Entry) -> Result<(), ApiError>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(id)?;
    let (value, job) = {
        let mut inner = s.inner.lock().expect("lock");
        let Inner { conn, games, .. } = &mut *inner;
        let e = fresh(conn, games, id)?;
        if let Err(refused) = f_after_flag(conn, e, f) {
            if refused.1 {
                let _ = s.events.send((id, state(e).to_string()));
            }
            return Err(refused.0);
        }
        let job = local_job(&s.bounds, e);
        let value = state(e);
        // Sent under the lock, so that the events of a game leave in the
        // order of its versions.
        let _ = s.events.send((id, value.to_string()));
        (value, job)
    };
    if let Some(job) = job {
        spawn_engine(s.clone(), job);
    }
    Ok(Json(value))
}

/// Ends the game on time when the side to move's flag has fallen (stored
/// before anything else happens), then runs `f`; on an error, says whether
/// the flag fell, so that the new state is published all the same.
fn f_after_flag(
    conn: &mut Store,
    e: &mut Entry,
    f: impl FnOnce(&mut Store, &mut Entry) -> Result<(), ApiError>,
) -> Result<(), (ApiError, bool)> {
    let flagged = expire(conn, e);
    f(conn, e).map_err(|x| (x, flagged))
}

/// Ends `e` on time if the side to move has run out of it; whether it did.
fn expire(conn: &mut Store, e: &mut Entry) -> bool {
    let Some(side) = e.flag_fallen() else {
        return false;
    };
    let saved = e.snapshot();
    e.flagged = Some(side);
    e.version += 1;
    let from = e.ply() + 1;
    if let Err(dbe) = store(conn, e, from) {
        if !matches!(dbe, StoreError::Changed(_)) {
            eprintln!("banmen serve: game {}: {dbe}", e.id);
        }
        e.restore(saved);
        // Read again by `expire_all` (another server ended it, or moved).
        e.stale = matches!(dbe, StoreError::Changed(_));
        return false;
    }
    e.stop_engine();
    true
}

/// Ends every game whose flag has fallen and publishes it: run ten times a
/// second, so that a game ends on time with no request coming in.
fn expire_all(s: &Shared) {
    let mut inner = s.inner.lock().expect("lock");
    let Inner { conn, games, .. } = &mut *inner;
    let mut stale = Vec::new();
    for e in games.values_mut() {
        if e.time_control.is_some() && expire(conn, e) {
            let _ = s.events.send((e.id, state(e).to_string()));
        } else if e.stale {
            stale.push(e.id);
        }
    }
    for id in stale {
        if let Ok(true) = refresh(conn, games, id) {
            if let Some(e) = games.get(&id) {
                let _ = s.events.send((id, state(e).to_string()));
            }
        }
    }
}

async fn play(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: MoveRequest = body_json(&body)?;
    blocking(|| {
        change(&s, &id, |conn, e| {
            let me = seat_in_play(&headers, e)?;
            let to_move = e.side_to_move();
            if to_move != me {
                return Err(err(
                    StatusCode::CONFLICT,
                    format!("not your turn: {} is to move", color_name(to_move)),
                ));
            }
            let ply = e.ply();
            let ms = e.turn_ms();
            let started = e.turn_started;
            e.push_move(req.text.trim(), ms).map_err(|ge| match ge {
                GameError::GameOver(o) => game_over(o.reason.as_str()),
                other => err(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("{}: {other}", req.text.trim()),
                ),
            })?;
            if let Err(dbe) = store(conn, e, ply + 1) {
                e.pop_move();
                e.turn_started = started;
                return Err(stored_or_conflict(e, dbe));
            }
            Ok(())
        })
    })
}

async fn undo(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    blocking(|| {
        change(&s, &id, |conn, e| {
            let me = seat(&headers, e)?;
            match e.result() {
                Some((_, reason)) if reason == Reason::Resignation.as_str() => {
                    return Err(err(
                        StatusCode::CONFLICT,
                        "a resigned game cannot be taken back",
                    ));
                }
                Some((_, TIME)) => {
                    return Err(err(
                        StatusCode::CONFLICT,
                        "a game lost on time cannot be taken back",
                    ));
                }
                _ if e.consent && e.players[(!me).index()] == Player::Human => {
                    return Err(err(
                        StatusCode::CONFLICT,
                        "the other player must agree: offer a take-back (POST /api/games/{id}/offer {\"kind\": \"takeback\"})",
                    ));
                }
                Some((_, reason)) if consent::ending(reason).is_some() => {
                    return Err(err(
                        StatusCode::CONFLICT,
                        format!("a game ended by {reason} cannot be taken back"),
                    ));
                }
                _ => {}
            }
            // Take back the engine's replies, then one's own last move.
            let n = e.ply();
            let mut k = 0;
            while k < n
                && e.mover(n - k) != me
                && matches!(e.players[e.mover(n - k).index()], Player::Engine { .. })
            {
                k += 1;
            }
            if k < n && e.mover(n - k) == me {
                k += 1;
            } else {
                return Err(err(
                    StatusCode::CONFLICT,
                    "nothing to take back: the last move is not yours",
                ));
            }
            if e.time_control.is_some() && e.players[(!me).index()] != Player::Human {
                // Taking back would give back the moves' time and restart the
                // turn: a way out of time trouble.
                return Err(err(
                    StatusCode::CONFLICT,
                    "a timed game against the engine cannot be taken back",
                ));
            }
            let saved = e.snapshot();
            for _ in 0..k {
                e.pop_move();
            }
            store_or_restore(conn, e, n - k + 1, saved)?;
            // Only once stored: a failed take-back leaves the engine's search on.
            e.stop_engine();
            Ok(())
        })
    })
}

async fn resign(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    blocking(|| {
        change(&s, &id, |conn, e| {
            let me = seat_in_play(&headers, e)?;
            let saved = e.snapshot();
            with_game!(&mut e.game, g => g.resign(me));
            e.offer = None;
            e.version += 1;
            let from = e.ply() + 1;
            store_or_restore(conn, e, from, saved)?;
            e.stop_engine();
            Ok(())
        })
    })
}

async fn events_handler(
    State(s): State<Shared>,
    Path(id): Path<String>,
) -> Result<Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let id = parse_id(&id)?;
    let rx = s.events.subscribe();
    let first = read_game(&s, id, |e| Ok(state(e).to_string()))?;
    let stream = futures_util::stream::unfold((Some(first), rx), move |(first, mut rx)| {
        let s = s.clone();
        async move {
            if let Some(data) = first {
                return Some((Ok(Event::default().data(data)), (None, rx)));
            }
            loop {
                match rx.recv().await {
                    Ok((gid, data)) if gid == id => {
                        return Some((Ok(Event::default().data(data)), (None, rx)))
                    }
                    Ok(_) => continue,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Events of this game may be among those missed: the
                        // whole state now (the page keeps the newest version).
                        let now = blocking(|| {
                            let mut inner = s.inner.lock().expect("lock");
                            let Inner { conn, games, .. } = &mut *inner;
                            fresh(conn, games, id).ok().map(|e| state(e).to_string())
                        });
                        return now.map(|data| (Ok(Event::default().data(data)), (None, rx)));
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
