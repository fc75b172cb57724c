//! SQLite: a file beside the server, written in WAL mode with a full sync at
//! every commit. The schema's version is `PRAGMA user_version`.

use super::{Cell, Param, StoreError, Tx};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{params, Connection, Transaction, TransactionBehavior};
use std::path::Path;

/// The schema this build writes; a database of a later one is refused.
const VERSION: i64 = 2;

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::new(e.to_string())
    }
}

impl rusqlite::ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Param::Int(i) => i.to_sql(),
            Param::Text(t) => t.to_sql(),
        }
    }
}

/// Opens (or creates) the file and brings its schema up to [`VERSION`].
pub(super) fn open(path: &Path) -> Result<Connection, String> {
    let at = |e: rusqlite::Error| format!("{}: {e}", path.display());
    let mut conn = Connection::open(path).map_err(at)?;
    conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;")
        .map_err(at)?;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(at)?;
    let version: i64 = tx
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(at)?;
    if version > VERSION {
        return Err(format!(
            "{}: the schema is version {version}, newer than this banmen's ({VERSION}): \
             use a newer banmen",
            path.display()
        ));
    }
    if version < 1 {
        version_1(&tx).map_err(at)?;
    }
    if version < 2 {
        version_2(&tx).map_err(at)?;
    }
    tx.pragma_update(None, "user_version", VERSION)
        .map_err(at)?;
    tx.commit().map_err(at)?;
    Ok(conn)
}

/// Version 1: the schema as it stood when versions began. A file from before
/// them has some of it (the tables, some columns, perhaps `reviews`) and gains
/// the rest.
fn version_1(tx: &Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS games(
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
            PRIMARY KEY(game_id, ply));
         CREATE TABLE IF NOT EXISTS reviews(
            game INTEGER PRIMARY KEY REFERENCES games(id),
            moves TEXT NOT NULL,
            events TEXT NOT NULL);",
    )?;
    // Columns added to the first tables before versions were kept.
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
        let has = tx
            .prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")?
            .exists(params![table, column])?;
        if !has {
            tx.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))?;
        }
    }
    Ok(())
}

/// Version 2: when the side to move began its turn (milliseconds since
/// 1970), so that servers sharing a database agree on the clocks (read back
/// only from PostgreSQL; SQLite has one server, and a restart restarts the turn).
fn version_2(tx: &Transaction) -> rusqlite::Result<()> {
    tx.execute_batch("ALTER TABLE games ADD COLUMN turn_started INTEGER")
}

/// Runs `f` in one transaction on `conn`, committed when it returns `Ok`.
pub(super) fn transaction<T>(
    conn: &mut Connection,
    f: impl FnOnce(&mut dyn Tx) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut tx = conn.transaction()?;
    let value = f(&mut tx)?;
    tx.commit()?;
    Ok(value)
}

impl Tx for Transaction<'_> {
    fn execute(&mut self, sql: &'static str, params: &[Param<'_>]) -> Result<u64, StoreError> {
        let changed = self
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(params))?;
        Ok(changed as u64)
    }

    fn query(
        &mut self,
        sql: &'static str,
        params: &[Param<'_>],
    ) -> Result<Vec<Vec<Cell>>, StoreError> {
        let mut stmt = self.prepare_cached(sql)?;
        let columns = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(params))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let cells = (0..columns)
                .map(|i| {
                    Ok(match row.get_ref(i)? {
                        ValueRef::Integer(n) => Cell::Int(n),
                        ValueRef::Text(t) => Cell::Text(String::from_utf8_lossy(t).into_owned()),
                        ValueRef::Null | ValueRef::Real(_) | ValueRef::Blob(_) => Cell::Null,
                    })
                })
                .collect::<rusqlite::Result<Vec<Cell>>>()?;
            out.push(cells);
        }
        Ok(out)
    }
}
