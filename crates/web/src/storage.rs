//! The games in a database: an SQLite file (the default) or a PostgreSQL
//! server. The schema (versioned; see `sqlite.rs` and `pg.rs`), reading every
//! game back at start-up, and storing moves and results in one transaction per
//! change, committed before the answer.
//!
//! The statements are written once, in the SQL that both speak (`RETURNING`,
//! `ON CONFLICT … DO UPDATE`); `?1` parameters become `$1` on PostgreSQL.
//! Values are always bound, never put into the text.

mod pg;
pub(crate) use pg::{
    listen as listen_postgres, ANALYSIS_CHANNEL, CHANNEL as GAMES_CHANNEL, SEARCH_CHANNEL,
};
mod sqlite;

use crate::variations::Variations;
use crate::{color_from, color_name, consent, new_game, now_secs, Entry, Head, Player, TIME};
use banmen_rules::{with_game, Reason};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where `banmen serve` keeps its games (`--db`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file, created if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL database, by its `postgres://` or `postgresql://`
    /// address (libpq's URL form: `postgres://USER:PASSWORD@HOST:PORT/DB`,
    /// a socket folder as the host percent-encoded or as `?host=/run/postgresql`).
    Postgres(String),
}

impl Database {
    /// Reads `--db`: a `postgres://` or `postgresql://` address, or else the
    /// path of an SQLite file.
    ///
    /// # Errors
    /// A PostgreSQL address that does not parse or names no host, or an
    /// address of another scheme (`mysql://…`).
    ///
    /// ```
    /// use banmen_web::Database;
    /// assert!(matches!(Database::parse("games.sqlite"), Ok(Database::Sqlite(_))));
    /// assert!(matches!(Database::parse("postgres://banmen@db/banmen"), Ok(Database::Postgres(_))));
    /// assert!(Database::parse("postgres://banmen@db:port/banmen").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Database, String> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            pg::check_address(text)?;
            return Ok(Database::Postgres(text.to_string()));
        }
        if let Some((scheme, _)) = text.split_once("://") {
            return Err(format!(
                "{scheme}:// is not a database banmen knows: give an SQLite file's path \
                 or a postgres:// address"
            ));
        }
        if text.is_empty() {
            return Err("no database: give an SQLite file's path or a postgres:// address".into());
        }
        Ok(Database::Sqlite(PathBuf::from(text)))
    }
}

/// The path, or the address with its password hidden.
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&pg::without_password(url)),
        }
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

impl From<&Path> for Database {
    fn from(path: &Path) -> Database {
        Database::Sqlite(path.to_path_buf())
    }
}

impl From<&PathBuf> for Database {
    fn from(path: &PathBuf) -> Database {
        Database::Sqlite(path.clone())
    }
}

impl From<&Database> for Database {
    fn from(db: &Database) -> Database {
        db.clone()
    }
}

/// A value bound to a statement's parameter.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Param<'a> {
    Int(Option<i64>),
    Text(Option<&'a str>),
}

/// A value read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Text(String),
}

impl Cell {
    fn int(&self) -> Option<i64> {
        match self {
            Cell::Int(i) => Some(*i),
            _ => None,
        }
    }

    fn text(self) -> Option<String> {
        match self {
            Cell::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// A database refusal or a lost connection, as text; or a change refused
/// because the stored game is newer than the one it was decided on.
#[derive(Debug)]
pub(crate) enum StoreError {
    Failed(String),
    /// Another server (sharing the database) changed the game first.
    Changed(i64),
}

impl StoreError {
    pub(crate) fn new(text: impl Into<String>) -> StoreError {
        StoreError::Failed(text.into())
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Failed(text) => f.write_str(text),
            StoreError::Changed(id) => {
                write!(f, "game {id} was changed meanwhile by another server")
            }
        }
    }
}

/// One open transaction of either database.
pub(crate) trait Tx {
    /// Runs a statement; how many rows it changed.
    fn execute(&mut self, sql: &'static str, params: &[Param<'_>]) -> Result<u64, StoreError>;
    /// Runs a query; its rows.
    fn query(
        &mut self,
        sql: &'static str,
        params: &[Param<'_>],
    ) -> Result<Vec<Vec<Cell>>, StoreError>;
    /// Tells the other servers on the database, once this transaction
    /// commits, that game `id` is now at `version` (PostgreSQL's `NOTIFY`;
    /// nothing on SQLite, which one server uses alone).
    fn notify(&mut self, _id: i64, _version: i64) -> Result<(), StoreError> {
        Ok(())
    }
    /// Queues the engine's move in game `id` at `version` for the workers
    /// (`banmen worker`), when this connection's server leaves engine moves
    /// to them (PostgreSQL with `--workers`); nothing otherwise.
    fn queue_search(&mut self, _id: i64, _version: i64) -> Result<(), StoreError> {
        Ok(())
    }
    /// Wakes the workers, once this transaction commits: a search of game
    /// `id` is queued (PostgreSQL's `NOTIFY`; nothing on SQLite).
    fn notify_search(&mut self, _id: i64) -> Result<(), StoreError> {
        Ok(())
    }
}

/// The open database of a server.
#[derive(Debug)]
pub(crate) enum Store {
    Sqlite(rusqlite::Connection),
    /// Boxed: a connection with its prepared statements is large.
    Postgres(Box<pg::Postgres>),
}

impl Store {
    /// Opens the database (an SQLite file is created if missing) and brings
    /// its schema up to this version.
    pub(crate) fn open(db: &Database) -> Result<Store, String> {
        match db {
            Database::Sqlite(path) => sqlite::open(path).map(Store::Sqlite),
            Database::Postgres(url) => {
                pg::Postgres::open(url).map(|p| Store::Postgres(Box::new(p)))
            }
        }
    }

    /// Whether other servers may share the database (PostgreSQL): games are
    /// then checked against their stored version before they are used.
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// From now on, every change that leaves an engine to move queues its
    /// search for `banmen worker` (PostgreSQL only).
    pub(crate) fn leave_engines_to_workers(&mut self) -> Result<(), String> {
        match self {
            Store::Sqlite(_) => Err(
                "engine workers need a PostgreSQL database (--db postgres://…): \
                 they take their searches from a queue in it"
                    .into(),
            ),
            Store::Postgres(p) => {
                p.queue_searches = true;
                Ok(())
            }
        }
    }

    /// Runs `f` in one transaction, committed when it returns `Ok` (before
    /// this returns), rolled back otherwise.
    fn transaction<T: Send>(
        &mut self,
        f: impl FnOnce(&mut dyn Tx) -> Result<T, StoreError> + Send,
    ) -> Result<T, StoreError> {
        match self {
            Store::Sqlite(conn) => sqlite::transaction(conn, f),
            Store::Postgres(p) => p.transaction(f),
        }
    }
}

const SELECT_GAMES: &str = "SELECT id, created, updated, variant, rules, handicap, start_sfen,
        black, white, black_token, white_token, result_winner, result_reason, version,
        time_control, offer, rematch, consent, variations, turn_started
    FROM games ORDER BY id";
const SELECT_MOVES: &str = "SELECT game_id, usi, ms FROM moves ORDER BY game_id, ply";
const INSERT_GAME: &str = "INSERT INTO games(variant, rules, handicap, start_sfen, black, white,
        black_token, white_token, created, updated, time_control, consent, variations)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?12)
    RETURNING id";
const DELETE_MOVES: &str = "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2";
const INSERT_MOVE: &str = "INSERT INTO moves(game_id, ply, usi, ms) VALUES (?1, ?2, ?3, ?4)";
/// Written only over an older version: a change decided on a game another
/// server has changed since changes no row (and is refused).
const UPDATE_GAME: &str = "UPDATE games SET result_winner = ?1, result_reason = ?2,
        updated = ?3, version = ?4, offer = ?5, rematch = ?6, turn_started = ?8
    WHERE id = ?7 AND (version IS NULL OR version < ?4)";
const SELECT_GAME: &str = "SELECT id, created, updated, variant, rules, handicap, start_sfen,
        black, white, black_token, white_token, result_winner, result_reason, version,
        time_control, offer, rematch, consent, variations, turn_started
    FROM games WHERE id = ?1";
const SELECT_GAME_MOVES: &str =
    "SELECT game_id, usi, ms FROM moves WHERE game_id = ?1 ORDER BY ply";
const SELECT_VERSION: &str = "SELECT version FROM games WHERE id = ?1";
const SELECT_VERSIONS: &str = "SELECT id, version FROM games";
const SELECT_REVIEW: &str = "SELECT events FROM reviews WHERE game = ?1 AND moves = ?2";
const UPSERT_REVIEW: &str = "INSERT INTO reviews(game, moves, events) VALUES (?1, ?2, ?3)
    ON CONFLICT(game) DO UPDATE SET moves = excluded.moves, events = excluded.events";

/// Reads every game back, replaying its moves through the rules.
pub(crate) fn load_games(conn: &mut Store) -> Result<BTreeMap<i64, Entry>, String> {
    let (rows, move_rows) = conn
        .transaction(|tx| Ok((tx.query(SELECT_GAMES, &[])?, tx.query(SELECT_MOVES, &[])?)))
        .map_err(|e| e.to_string())?;
    games_from_rows(rows, move_rows, conn.is_shared())
}

/// Reads game `id` back (`None`: there is none, or its rules no longer read it).
pub(crate) fn load_game(conn: &mut Store, id: i64) -> Result<Option<Entry>, String> {
    let key = [Param::Int(Some(id))];
    let (rows, move_rows) = conn
        .transaction(|tx| {
            Ok((
                tx.query(SELECT_GAME, &key)?,
                tx.query(SELECT_GAME_MOVES, &key)?,
            ))
        })
        .map_err(|e| e.to_string())?;
    Ok(games_from_rows(rows, move_rows, conn.is_shared())?.remove(&id))
}

/// The stored version of game `id` (`None`: no such game; 0: stored before versions were).
pub(crate) fn stored_version(conn: &mut Store, id: i64) -> Result<Option<i64>, StoreError> {
    let rows = conn.transaction(|tx| tx.query(SELECT_VERSION, &[Param::Int(Some(id))]))?;
    Ok(rows
        .into_iter()
        .next()
        .map(|row| row.first().and_then(Cell::int).unwrap_or(0)))
}

/// Every stored game's id and version.
pub(crate) fn stored_versions(conn: &mut Store) -> Result<Vec<(i64, i64)>, StoreError> {
    let rows = conn.transaction(|tx| tx.query(SELECT_VERSIONS, &[]))?;
    Ok(rows
        .iter()
        .map(|row| (row_id(row), row.get(1).and_then(Cell::int).unwrap_or(0)))
        .collect())
}

/// Games from their rows; `shared`: their turns started when the stored
/// `turn_started` says (another server may have written the last move), not
/// when they are read.
fn games_from_rows(
    rows: Vec<Vec<Cell>>,
    move_rows: Vec<Vec<Cell>>,
    shared: bool,
) -> Result<BTreeMap<i64, Entry>, String> {
    let mut moves: BTreeMap<i64, Vec<(String, Option<i64>)>> = BTreeMap::new();
    for row in move_rows {
        let mut cells = row.into_iter();
        let (Some(id), Some(usi), ms) = (
            cells.next().and_then(|c| c.int()),
            cells.next().and_then(Cell::text),
            cells.next().and_then(|c| c.int()),
        ) else {
            return Err("a move row without its game or move".into());
        };
        moves.entry(id).or_default().push((usi, ms));
    }
    let mut games = BTreeMap::new();
    for row in rows {
        let id = row_id(&row);
        if let Some(entry) = game_from_row(row, moves.remove(&id).unwrap_or_default(), shared)? {
            games.insert(entry.id, entry);
        }
    }
    Ok(games)
}

fn row_id(row: &[Cell]) -> i64 {
    row.first().and_then(Cell::int).unwrap_or(0)
}

/// A game from its row (the columns of `SELECT_GAMES`) and its moves; `None`
/// (said on stderr) when its rules no longer read its start.
fn game_from_row(
    row: Vec<Cell>,
    moves: Vec<(String, Option<i64>)>,
    shared: bool,
) -> Result<Option<Entry>, String> {
    let mut cells = row.into_iter();
    let mut next = || cells.next().unwrap_or(Cell::Null);
    let id = next().int().ok_or("a game row without an id")?;
    let missing = |column: &str| format!("game {id}: no {column}");
    let created = next().int().ok_or_else(|| missing("created"))?;
    let updated = next().int();
    let variant = next().text().ok_or_else(|| missing("variant"))?;
    let rules = next().text().ok_or_else(|| missing("rules"))?;
    let handicap = next().text();
    let sfen = next().text().ok_or_else(|| missing("start_sfen"))?;
    let black = next().text().unwrap_or_default();
    let white = next().text().unwrap_or_default();
    let tokens = [next().text(), next().text()];
    let (winner, reason) = (next().text(), next().text());
    let version = next().int();
    let time_control = next().text();
    let offer = next().text();
    let rematch = next().int();
    let consent = next().int();
    let variations = next().text();
    let turn_started = next().int();
    let game = match new_game(&variant, &rules, &sfen) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("banmen serve: game {id} not loaded: {e}");
            return Ok(None);
        }
    };
    let variations = match variations.as_deref() {
        None => None,
        Some(text) => match Variations::from_stored(&game, text) {
            Ok(v) => Some(Arc::new(v)),
            Err(e) => {
                eprintln!("banmen serve: game {id}: variations not loaded: {e}");
                None
            }
        },
    };
    let player = |s: &str| serde_json::from_str::<Player>(s).unwrap_or(Player::Human);
    let head = Head {
        variant,
        rules,
        handicap,
        start_sfen: sfen,
        players: [player(&black), player(&white)],
        time_control: time_control
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok()),
        consent: consent.unwrap_or(0) != 0,
    };
    let mut entry = Entry::new(id, head, tokens, game, created, updated.unwrap_or(created));
    entry.variations = variations;
    for (i, (m, ms)) in moves.iter().enumerate() {
        if let Err(e) = entry.push_move(m, ms.unwrap_or(0).max(0) as u64) {
            eprintln!("banmen serve: game {id} move {} ({m}): {e}", i + 1);
            break;
        }
    }
    let winner = winner.as_deref().and_then(color_from);
    match (reason.as_deref(), winner) {
        (Some(r), Some(w)) if r == Reason::Resignation.as_str() => {
            with_game!(&mut entry.game, g => g.resign(!w));
        }
        (Some(TIME), Some(w)) => entry.flagged = Some(!w),
        (Some(r), None) => entry.ended = consent::ending(r),
        _ => {}
    }
    entry.offer = offer.as_deref().and_then(|t| serde_json::from_str(t).ok());
    entry.rematch = rematch;
    // A database from before versions were stored counts from the replay.
    entry.version = entry.version.max(version.unwrap_or(0).max(0) as u64);
    if let (true, Some(ms)) = (shared, turn_started) {
        entry.turn_started = instant_of(ms);
    }
    Ok(Some(entry))
}

/// Milliseconds since 1970, now.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The instant of `ms` milliseconds since 1970 (now, if that is later).
fn instant_of(ms: i64) -> Instant {
    let ago = Duration::from_millis(now_ms().saturating_sub(ms).max(0) as u64);
    let now = Instant::now();
    now.checked_sub(ago).unwrap_or(now)
}

/// `at` in milliseconds since 1970.
fn ms_of(at: Instant) -> i64 {
    now_ms().saturating_sub(at.elapsed().as_millis() as i64)
}

/// Stores the moves from ply `from` (1-based) on and the result, in one transaction.
/// Sets `updated` in the entry too.
pub(crate) fn store(conn: &mut Store, e: &mut Entry, from: usize) -> Result<(), StoreError> {
    let now = now_secs();
    let rows = Progress::of(e, from);
    conn.transaction(|tx| rows.write(tx, now))?;
    e.updated = now;
    Ok(())
}

/// Inserts a new game with its moves and result, in one transaction; sets its id.
pub(crate) fn insert(conn: &mut Store, e: &mut Entry) -> Result<(), StoreError> {
    let now = now_secs();
    let (head, mut rows) = (NewGame::of(e), Progress::of(e, 1));
    e.id = conn.transaction(|tx| {
        rows.id = head.insert(tx)?;
        rows.write(tx, now)?;
        Ok(rows.id)
    })?;
    e.updated = now;
    Ok(())
}

/// Inserts the rematch `new` of `old` and stores `old` (from ply `from`,
/// now naming the rematch) in one transaction, so that no rematch is left
/// without the game that names it; sets the new game's id.
pub(crate) fn insert_rematch(
    conn: &mut Store,
    new: &mut Entry,
    old: &mut Entry,
    from: usize,
) -> Result<(), StoreError> {
    let now = now_secs();
    let (head, mut new_rows, mut old_rows) = (
        NewGame::of(new),
        Progress::of(new, 1),
        Progress::of(old, from),
    );
    let id = conn.transaction(|tx| {
        new_rows.id = head.insert(tx)?;
        new_rows.write(tx, now)?;
        old_rows.rematch = Some(new_rows.id);
        old_rows.write(tx, now)?;
        Ok(new_rows.id)
    })?;
    new.id = id;
    old.rematch = Some(id);
    new.updated = now;
    old.updated = now;
    Ok(())
}

/// The events of game `id`'s stored review, when it reviewed these moves.
pub(crate) fn review(conn: &mut Store, id: i64, moves: &str) -> Result<Option<String>, StoreError> {
    let rows = conn.transaction(|tx| {
        tx.query(
            SELECT_REVIEW,
            &[Param::Int(Some(id)), Param::Text(Some(moves))],
        )
    })?;
    Ok(rows
        .into_iter()
        .next()
        .and_then(|r| r.into_iter().next())
        .and_then(Cell::text))
}

/// Keeps game `id`'s finished review (replacing an older one).
pub(crate) fn store_review(
    conn: &mut Store,
    id: i64,
    moves: &str,
    events: &str,
) -> Result<(), StoreError> {
    conn.transaction(|tx| {
        tx.execute(
            UPSERT_REVIEW,
            &[
                Param::Int(Some(id)),
                Param::Text(Some(moves)),
                Param::Text(Some(events)),
            ],
        )
        .map(drop)
    })
}

/// A new game's row, as text and numbers, taken from its entry before the
/// transaction (which may run on another thread).
struct NewGame {
    variant: String,
    rules: String,
    handicap: Option<String>,
    start_sfen: String,
    players: [String; 2],
    tokens: [Option<String>; 2],
    created: i64,
    time_control: Option<String>,
    consent: i64,
    variations: Option<String>,
}

impl NewGame {
    fn of(e: &Entry) -> NewGame {
        let player_text = |p: &Player| serde_json::to_string(p).expect("player json");
        NewGame {
            variant: e.variant.clone(),
            rules: e.rules.clone(),
            handicap: e.handicap.clone(),
            start_sfen: e.start_sfen.clone(),
            players: [player_text(&e.players[0]), player_text(&e.players[1])],
            tokens: e.tokens.clone(),
            created: e.created,
            time_control: e
                .time_control
                .map(|t| serde_json::to_string(&t).expect("time control json")),
            consent: e.consent as i64,
            variations: e.variations.as_ref().map(|v| v.stored()),
        }
    }

    /// Inserts the row; its id.
    fn insert(&self, tx: &mut dyn Tx) -> Result<i64, StoreError> {
        let rows = tx.query(
            INSERT_GAME,
            &[
                Param::Text(Some(&self.variant)),
                Param::Text(Some(&self.rules)),
                Param::Text(self.handicap.as_deref()),
                Param::Text(Some(&self.start_sfen)),
                Param::Text(Some(&self.players[0])),
                Param::Text(Some(&self.players[1])),
                Param::Text(self.tokens[0].as_deref()),
                Param::Text(self.tokens[1].as_deref()),
                Param::Int(Some(self.created)),
                Param::Text(self.time_control.as_deref()),
                Param::Int(Some(self.consent)),
                Param::Text(self.variations.as_deref()),
            ],
        )?;
        rows.first()
            .map(|r| row_id(r))
            .filter(|&id| id > 0)
            .ok_or_else(|| StoreError::new("the new game got no id"))
    }
}

/// A game's moves from ply `from` on and its result, taken from its entry
/// before the transaction.
struct Progress {
    id: i64,
    from: usize,
    moves: Vec<(String, i64)>,
    winner: Option<&'static str>,
    reason: Option<&'static str>,
    version: i64,
    offer: Option<String>,
    rematch: Option<i64>,
    /// When the side to move began its turn, in milliseconds since 1970.
    turn_started: i64,
    /// The engine is to move: the change queues its search (where servers
    /// leave the engines' moves to workers: `Tx::queue_search`).
    search: bool,
}

impl Progress {
    fn of(e: &Entry, from: usize) -> Progress {
        let skip = from.saturating_sub(1);
        let o = e.result();
        Progress {
            id: e.id,
            from,
            moves: e
                .usi
                .iter()
                .zip(&e.times)
                .skip(skip)
                .map(|(m, &ms)| (m.clone(), ms as i64))
                .collect(),
            winner: o.and_then(|o| o.0).map(color_name),
            reason: o.map(|o| o.1),
            version: e.version as i64,
            offer: e
                .offer
                .map(|x| serde_json::to_string(&x).expect("offer json")),
            rematch: e.rematch,
            turn_started: ms_of(e.turn_started),
            search: o.is_none()
                && matches!(e.players[e.side_to_move().index()], Player::Engine { .. }),
        }
    }

    /// Updates the game's row (first: on PostgreSQL this waits for another
    /// server's change of the game to commit, then refuses this one as
    /// decided on an older version) and replaces the moves from `from` on.
    fn write(&self, tx: &mut dyn Tx, now: i64) -> Result<(), StoreError> {
        let id = Param::Int(Some(self.id));
        let updated = tx.execute(
            UPDATE_GAME,
            &[
                Param::Text(self.winner),
                Param::Text(self.reason),
                Param::Int(Some(now)),
                Param::Int(Some(self.version)),
                Param::Text(self.offer.as_deref()),
                Param::Int(self.rematch),
                id,
                Param::Int(Some(self.turn_started)),
            ],
        )?;
        if updated == 0 {
            return Err(StoreError::Changed(self.id));
        }
        if self.search {
            tx.queue_search(self.id, self.version)?;
        }
        tx.execute(DELETE_MOVES, &[id, Param::Int(Some(self.from as i64))])?;
        for (i, (m, ms)) in self.moves.iter().enumerate() {
            let ply = (self.from.max(1) + i) as i64;
            tx.execute(
                INSERT_MOVE,
                &[
                    id,
                    Param::Int(Some(ply)),
                    Param::Text(Some(m)),
                    Param::Int(Some(*ms)),
                ],
            )?;
        }
        tx.notify(self.id, self.version)
    }
}

/// An engine search a worker has taken from the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Search {
    pub id: i64,
    pub game: i64,
    /// The game's version the search was queued for.
    pub version: i64,
    /// How often it has been taken (by workers that died, then this one).
    pub tries: i64,
    /// `move` (the engine side's), `review` or `analysis` (no game: 0).
    pub kind: String,
    /// What a review or an analysis asks for (JSON; none for a move).
    pub request: Option<String>,
}

/// Takes the oldest search waiting, or one whose worker's lease (10 s,
/// renewed while it searches) ran out, engine moves first (a clock runs
/// for them), for worker `me` (PostgreSQL's `FOR UPDATE SKIP LOCKED`: workers never
/// wait for each other, and each search goes to one).
pub(crate) fn take_search(conn: &mut Store, me: &str) -> Result<Option<Search>, StoreError> {
    let rows = conn.transaction(|tx| {
        tx.query(
            "UPDATE searches SET state = 'running', taken_by = ?1,
                    lease_until = now() + interval '10 seconds', tries = tries + 1
                WHERE id = (SELECT id FROM searches
                    WHERE state = 'queued' OR (state = 'running' AND lease_until < now())
                    ORDER BY kind <> 'move', id FOR UPDATE SKIP LOCKED LIMIT 1)
                RETURNING id, game_id, version, tries, kind, request",
            &[Param::Text(Some(me))],
        )
    })?;
    Ok(rows.into_iter().next().map(|r| {
        let int = |i: usize| r.get(i).and_then(Cell::int).unwrap_or(0);
        let text = |i: usize| r.get(i).cloned().and_then(Cell::text);
        Search {
            id: int(0),
            game: int(1),
            version: int(2),
            tries: int(3),
            kind: text(4).unwrap_or_default(),
            request: text(5),
        }
    }))
}

impl Search {
    /// The request, read as JSON (`None`: none, or not JSON).
    pub(crate) fn request_json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(self.request.as_deref()?).ok()
    }
}

/// Whether search `id` is still queued or running (a newer request for the
/// same review removes it).
pub(crate) fn search_wanted(conn: &mut Store, id: i64) -> Result<bool, StoreError> {
    let rows = conn.transaction(|tx| {
        tx.query(
            "SELECT 1 FROM searches WHERE id = ?1",
            &[Param::Int(Some(id))],
        )
    })?;
    Ok(!rows.is_empty())
}

/// Queues an analysis (`request`: JSON with the position, the limits and
/// the relay its lines go back to); its search id.
pub(crate) fn queue_analysis(conn: &mut Store, request: &str) -> Result<i64, StoreError> {
    conn.transaction(|tx| {
        let rows = tx.query(
            "INSERT INTO searches(version, kind, request) VALUES (0, 'analysis', ?1) RETURNING id",
            &[Param::Text(Some(request))],
        )?;
        tx.notify_search(0)?;
        Ok(rows.first().map_or(0, |r| row_id(r)))
    })
}

/// Sends one line of an analysis to the server relaying it (`NOTIFY`).
pub(crate) fn send_analysis(conn: &mut Store, payload: &str) -> Result<(), StoreError> {
    conn.transaction(|tx| {
        tx.execute(
            "SELECT pg_notify(?1, ?2)",
            &[
                Param::Text(Some(ANALYSIS_CHANNEL)),
                Param::Text(Some(payload)),
            ],
        )
        .map(drop)
    })
}

/// Queues the review of game `id` that `request` describes, unless it is
/// queued or running already; `fresh`: the game's stored review and review
/// searches are dropped first. Whether it queued one.
pub(crate) fn queue_review(
    conn: &mut Store,
    id: i64,
    request: &str,
    fresh: bool,
) -> Result<bool, StoreError> {
    conn.transaction(|tx| {
        let game = Param::Int(Some(id));
        if fresh {
            tx.execute(
                "DELETE FROM searches WHERE game_id = ?1 AND kind = 'review'",
                &[game],
            )?;
            tx.execute("DELETE FROM reviews WHERE game = ?1", &[game])?;
        }
        let n = tx.execute(
            "INSERT INTO searches(game_id, version, kind, request)
                SELECT ?1::BIGINT, 0, 'review', ?2::TEXT WHERE NOT EXISTS
                (SELECT 1 FROM searches WHERE game_id = ?1::BIGINT AND kind = 'review'
                    AND request = ?2::TEXT)",
            &[game, Param::Text(Some(request))],
        )?;
        if n > 0 {
            tx.notify_search(id)?;
        }
        Ok(n > 0)
    })
}

/// Renews the leases of the searches worker `me` runs; how many.
pub(crate) fn renew_searches(conn: &mut Store, me: &str) -> Result<u64, StoreError> {
    conn.transaction(|tx| {
        tx.execute(
            "UPDATE searches SET lease_until = now() + interval '10 seconds'
                WHERE taken_by = ?1 AND state = 'running'",
            &[Param::Text(Some(me))],
        )
    })
}

/// Removes search `id` from the queue (played, or no longer wanted).
pub(crate) fn finish_search(conn: &mut Store, id: i64) -> Result<(), StoreError> {
    conn.transaction(|tx| {
        tx.execute(
            "DELETE FROM searches WHERE id = ?1",
            &[Param::Int(Some(id))],
        )
        .map(drop)
    })
}

/// Queues a search for every unfinished game whose engine is to move and
/// has none (games from before the server left its engines to workers, or
/// from a server that ran its own); how many it queued.
pub(crate) fn queue_missing(
    conn: &mut Store,
    games: &BTreeMap<i64, Entry>,
) -> Result<u64, StoreError> {
    let wanted: Vec<(i64, i64)> = games
        .values()
        .filter(|e| {
            e.result().is_none()
                && matches!(e.players[e.side_to_move().index()], Player::Engine { .. })
        })
        .map(|e| (e.id, e.version as i64))
        .collect();
    if wanted.is_empty() {
        return Ok(0);
    }
    conn.transaction(|tx| {
        let mut queued = 0;
        for (id, version) in wanted {
            let n = tx.execute(
                "INSERT INTO searches(game_id, version, kind)
                    SELECT ?1::BIGINT, ?2::BIGINT, 'move' WHERE NOT EXISTS
                    (SELECT 1 FROM searches WHERE game_id = ?1::BIGINT AND version = ?2::BIGINT)",
                &[Param::Int(Some(id)), Param::Int(Some(version))],
            )?;
            if n > 0 {
                tx.notify_search(id)?;
            }
            queued += n;
        }
        Ok(queued)
    })
}

/// Writes a game's variations (a side line saved) with its version; returns
/// the time written as `updated`.
pub(crate) fn store_variations(conn: &mut Store, e: &Entry) -> Result<i64, StoreError> {
    let now = now_secs();
    let stored = e.variations.as_ref().map(|v| v.stored());
    conn.transaction(|tx| {
        let updated = tx.execute(
            "UPDATE games SET variations = ?1, version = ?2, updated = ?3
                WHERE id = ?4 AND (version IS NULL OR version < ?2)",
            &[
                Param::Text(stored.as_deref()),
                Param::Int(Some(e.version as i64)),
                Param::Int(Some(now)),
                Param::Int(Some(e.id)),
            ],
        )?;
        if updated == 0 {
            return Err(StoreError::Changed(e.id));
        }
        tx.notify(e.id, e.version as i64)
    })?;
    Ok(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn db_reads_postgres_addresses_and_paths() {
        for url in [
            "postgres://banmen@localhost/banmen",
            "postgresql://banmen:secret@db.example:5433/games",
            "postgres://banmen@%2Fvar%2Frun%2Fpostgresql/banmen",
            "postgres:///banmen?host=/var/run/postgresql&user=banmen",
        ] {
            assert_eq!(Database::parse(url), Ok(Database::Postgres(url.into())));
        }
        assert_eq!(
            Database::parse("games/banmen.sqlite"),
            Ok(Database::Sqlite("games/banmen.sqlite".into()))
        );
    }

    #[test]
    fn bad_db_addresses_are_refused_with_a_reason() {
        let refused = |text: &str| Database::parse(text).expect_err(text);
        assert!(refused("postgres://banmen@db:port/banmen").contains("invalid"));
        assert!(refused("postgres:///banmen").contains("no host"));
        assert!(refused("mysql://banmen@db/banmen").contains("mysql:// is not a database"));
        assert!(refused("").contains("no database"));
        // The password is not repeated in the message.
        assert!(!refused("postgres://banmen:secret@db:port/banmen").contains("secret"));
    }

    #[test]
    fn the_password_is_hidden_when_shown() {
        let shown = |text: &str| Database::parse(text).expect(text).to_string();
        assert_eq!(
            shown("postgres://banmen:secret@db:5432/banmen?connect_timeout=5"),
            "postgres://banmen:***@db:5432/banmen?connect_timeout=5"
        );
        assert_eq!(
            shown("postgres://banmen@db/banmen"),
            "postgres://banmen@db/banmen"
        );
        assert_eq!(shown("banmen.sqlite"), "banmen.sqlite");
    }
}
