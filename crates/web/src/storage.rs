//! The games in SQLite: the schema, reading every game back at start-up, and
//! storing moves and results in one transaction per change.

use crate::variations::Variations;
use crate::{
    color_from, color_name, consent, new_game, now_secs, with_game, Entry, Head, Player, TIME,
};
use banmen_rules::Reason;
use rusqlite::{params, Connection, Transaction};
use std::collections::BTreeMap;
use std::path::Path as FsPath;
use std::sync::Arc;

pub(crate) fn open_db(path: &FsPath) -> Result<Connection, String> {
    let conn = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    conn.execute_batch(
        "PRAGMA journal_mode=WAL;
         PRAGMA synchronous=FULL;
         CREATE TABLE IF NOT EXISTS games(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            variant TEXT NOT NULL,
            rules TEXT NOT NULL,
            handicap TEXT,
            start_sfen TEXT NOT NULL,
            black TEXT NOT NULL,
            white TEXT NOT NULL,
            black_token TEXT,
            white_token TEXT,
            result_winner TEXT,
            result_reason TEXT,
            created INTEGER NOT NULL);
         CREATE TABLE IF NOT EXISTS moves(
            game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL,
            usi TEXT NOT NULL,
            PRIMARY KEY(game_id, ply));",
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    // Columns added after the first version: a database of that version gains them.
    for (table, column, kind) in [
        ("games", "updated", "INTEGER"),
        ("moves", "ms", "INTEGER"),
        ("games", "version", "INTEGER"),
        ("games", "time_control", "TEXT"),
        ("games", "offer", "TEXT"),
        ("games", "rematch", "INTEGER"),
        ("games", "consent", "INTEGER"),
        // An imported record's variations as JSON (`variations::Variations::stored`).
        ("games", "variations", "TEXT"),
    ] {
        let has: bool = conn
            .prepare(&format!(
                "SELECT 1 FROM pragma_table_info('{table}') WHERE name = ?1"
            ))
            .and_then(|mut st| st.exists(params![column]))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if !has {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(conn)
}

type GameRow = (
    i64,
    i64,
    Option<i64>,
    String,
    String,
    Option<String>,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<String>,
);

/// Reads every game back, replaying its moves through the rules.
pub(crate) fn load_games(conn: &Connection) -> Result<BTreeMap<i64, Entry>, String> {
    let mut stmt = conn
        .prepare(
            "SELECT id, created, updated, variant, rules, handicap, start_sfen, black, white,
                    black_token, white_token, result_winner, result_reason, version,
                    time_control, offer, rematch, consent, variations
             FROM games ORDER BY id",
        )
        .map_err(|e| e.to_string())?;
    let rows: Vec<GameRow> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
                r.get(10)?,
                r.get(11)?,
                r.get(12)?,
                r.get(13)?,
                r.get(14)?,
                r.get(15)?,
                r.get(16)?,
                r.get(17)?,
                r.get(18)?,
            ))
        })
        .and_then(|it| it.collect())
        .map_err(|e| e.to_string())?;
    let mut moves_stmt = conn
        .prepare("SELECT usi, ms FROM moves WHERE game_id = ?1 ORDER BY ply")
        .map_err(|e| e.to_string())?;
    let mut games = BTreeMap::new();
    for row in rows {
        let (id, created, updated, variant, rules, handicap, sfen, black, white) = (
            row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8,
        );
        let (bt, wt, winner, reason) = (row.9, row.10, row.11, row.12);
        let game = match new_game(&variant, &rules, &sfen) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("banmen serve: game {id} not loaded: {e}");
                continue;
            }
        };
        let moves: Vec<(String, Option<i64>)> = moves_stmt
            .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(|it| it.collect())
            .map_err(|e| e.to_string())?;
        let variations = match row.18.as_deref() {
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
            time_control: row.14.as_deref().and_then(|t| serde_json::from_str(t).ok()),
            consent: row.17.unwrap_or(0) != 0,
        };
        let mut entry = Entry::new(
            id,
            head,
            [bt, wt],
            game,
            created,
            updated.unwrap_or(created),
        );
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
        entry.offer = row.15.as_deref().and_then(|t| serde_json::from_str(t).ok());
        entry.rematch = row.16;
        // A database from before versions were stored counts from the replay.
        entry.version = entry.version.max(row.13.unwrap_or(0).max(0) as u64);
        games.insert(id, entry);
    }
    Ok(games)
}

/// Stores the moves from ply `from` (1-based) on and the result, in one transaction.
/// Sets `updated` in the entry too.
pub(crate) fn store(conn: &mut Connection, e: &mut Entry, from: usize) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    let now = write_moves(&tx, e, from)?;
    tx.commit()?;
    e.updated = now;
    Ok(())
}

/// Inserts a new game with its moves and result, in one transaction; sets its id.
pub(crate) fn insert(conn: &mut Connection, e: &mut Entry) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    let now = insert_rows(&tx, e)?;
    tx.commit()?;
    e.updated = now;
    Ok(())
}

/// Inserts the rematch `new` of `old` and stores `old` (from ply `from`,
/// now naming the rematch) in one transaction, so that no rematch is left
/// without the game that names it; sets the new game's id.
pub(crate) fn insert_rematch(
    conn: &mut Connection,
    new: &mut Entry,
    old: &mut Entry,
    from: usize,
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    let now = insert_rows(&tx, new)?;
    old.rematch = Some(new.id);
    write_moves(&tx, old, from)?;
    tx.commit()?;
    new.updated = now;
    old.updated = now;
    Ok(())
}

/// The rows of a new game; sets its id and returns the time written.
fn insert_rows(tx: &Transaction, e: &mut Entry) -> rusqlite::Result<i64> {
    let player_text = |p: &Player| serde_json::to_string(p).expect("player json");
    tx.execute(
        "INSERT INTO games(variant, rules, handicap, start_sfen, black, white,
            black_token, white_token, created, updated, time_control, consent, variations)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?12)",
        params![
            e.variant,
            e.rules,
            e.handicap,
            e.start_sfen,
            player_text(&e.players[0]),
            player_text(&e.players[1]),
            e.tokens[0],
            e.tokens[1],
            e.created,
            e.time_control
                .map(|t| serde_json::to_string(&t).expect("time control json")),
            e.consent as i64,
            e.variations.as_ref().map(|v| v.stored())
        ],
    )?;
    e.id = tx.last_insert_rowid();
    write_moves(tx, e, 1)
}

/// The rows of [`store`] and [`insert`]; returns the time written as `updated`.
fn write_moves(tx: &Transaction, e: &Entry, from: usize) -> rusqlite::Result<i64> {
    let now = now_secs();
    tx.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
        params![e.id, from as i64],
    )?;
    let mut insert =
        tx.prepare_cached("INSERT INTO moves(game_id, ply, usi, ms) VALUES (?1, ?2, ?3, ?4)")?;
    for (i, m) in e.usi.iter().enumerate().skip(from.saturating_sub(1)) {
        insert.execute(params![e.id, (i + 1) as i64, m, e.times[i] as i64])?;
    }
    let o = e.result();
    tx.execute(
        "UPDATE games SET result_winner = ?1, result_reason = ?2, updated = ?3, version = ?4,
            offer = ?5, rematch = ?6
         WHERE id = ?7",
        params![
            o.and_then(|o| o.0).map(color_name),
            o.map(|o| o.1),
            now,
            e.version as i64,
            e.offer
                .map(|x| serde_json::to_string(&x).expect("offer json")),
            e.rematch,
            e.id
        ],
    )?;
    Ok(now)
}

/// Writes a game's variations (a side line saved) with its version; returns
/// the time written as `updated`.
pub(crate) fn store_variations(conn: &Connection, e: &Entry) -> rusqlite::Result<i64> {
    let now = now_secs();
    conn.execute(
        "UPDATE games SET variations = ?1, version = ?2, updated = ?3 WHERE id = ?4",
        params![
            e.variations.as_ref().map(|v| v.stored()),
            e.version as i64,
            now,
            e.id
        ],
    )?;
    Ok(now)
}
