//! The JSON API of `banmen serve`, driven over real HTTP against servers
//! started in-process on 127.0.0.1:0, each test on an SQLite file of its own.
//! `tests/api_postgres.rs` runs this file again as its module, each test on a
//! PostgreSQL database of its own (see [`temp_db`]).

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A server on its own runtime; dropping it stops everything at once (no
/// shutdown hook runs, as with a killed process).
struct Server {
    rt: Option<tokio::runtime::Runtime>,
    addr: SocketAddr,
}

impl Server {
    fn start(db: &TestDb) -> Server {
        Server::start_with(db, None)
    }

    /// A server with these bounds, served with the peers' addresses as
    /// `banmen serve` does.
    fn start_with(db: &TestDb, bounds: Option<banmen_web::Bounds>) -> Server {
        let db = db.db.clone();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let addr = rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            let addr = listener.local_addr().expect("addr");
            match bounds {
                None => {
                    let app = banmen_web::app(db).await.expect("app");
                    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
                }
                Some(b) => {
                    let app = banmen_web::app_with(db, b).await.expect("app");
                    let app = app.into_make_service_with_connect_info::<SocketAddr>();
                    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
                }
            }
            addr
        });
        Server { rt: Some(rt), addr }
    }

    fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, Value) {
        let (status, text) = raw(self.addr, method, path, token, body);
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    fn get(&self, path: &str) -> Value {
        let (status, v) = self.call("GET", path, None, None);
        assert_eq!(status, 200, "GET {path}: {v}");
        v
    }

    /// `GET /api/games/{id}/export?format=...`: the status and the text.
    fn export(&self, id: i64, format: &str) -> (u16, String) {
        raw(
            self.addr,
            "GET",
            &format!("/api/games/{id}/export?format={format}"),
            None,
            None,
        )
    }

    fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        self.call("POST", path, token, Some(&body.to_string()))
    }

    fn play(&self, id: i64, token: &str, mv: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            Some(token),
            json!({ "move": mv }),
        )
    }

    fn create(&self, body: Value) -> (i64, Value) {
        let (status, v) = self.post("/api/games", None, body);
        assert_eq!(status, 201, "{v}");
        (v["id"].as_i64().expect("id"), v)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(15)))
        .expect("timeout");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        req.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    let body = body.unwrap_or("");
    req.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    s.write_all(req.as_bytes()).expect("write");
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).expect("read");
    let out = String::from_utf8_lossy(&bytes);
    let (head, rest) = out.split_once("\r\n\r\n").expect("response head");
    let status = head
        .split_whitespace()
        .nth(1)
        .expect("status")
        .parse()
        .expect("code");
    (status, rest.to_string())
}

/// The database of one test; a PostgreSQL one is dropped with it.
struct TestDb {
    db: banmen_web::Database,
    /// The server's address (`BANMEN_TEST_POSTGRES`) and the database made on it.
    postgres: Option<(String, String)>,
}

/// Whether this file runs as the module of `tests/api_postgres.rs`.
fn on_postgres() -> bool {
    module_path!() != "api"
}

/// A fresh database for the test `name`: an SQLite file in a new folder, or,
/// in `tests/api_postgres.rs`, a new database on the PostgreSQL server that
/// `BANMEN_TEST_POSTGRES` names (as a role that may create databases). `None`
/// (the test is skipped, and says so) there when that is not set.
fn temp_db(name: &str) -> Option<TestDb> {
    if !on_postgres() {
        let dir =
            std::env::temp_dir().join(format!("banmen-web-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        return Some(TestDb {
            db: dir.join("games.sqlite").into(),
            postgres: None,
        });
    }
    let Ok(server) = std::env::var("BANMEN_TEST_POSTGRES") else {
        println!("skipped: BANMEN_TEST_POSTGRES not set");
        return None;
    };
    let database = format!(
        "banmen_test_{}_{}",
        std::process::id(),
        name.replace('-', "_")
    );
    let mut admin = postgres::Client::connect(&server, postgres::NoTls)
        .unwrap_or_else(|e| panic!("BANMEN_TEST_POSTGRES={server}: {e}"));
    // A name can't be a bound parameter; this one is made of the test's name.
    // One statement a call: neither may run in a transaction block.
    for sql in [
        format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"),
        format!("CREATE DATABASE {database}"),
    ] {
        admin.batch_execute(&sql).expect(&sql);
    }
    let url = with_database(&server, &database);
    Some(TestDb {
        db: banmen_web::Database::parse(&url).expect("address"),
        postgres: Some((server, database)),
    })
}

/// `url` naming the database `name` instead of its own.
fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a postgres:// address");
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let query = tail.find('?').map_or("", |q| &tail[q..]);
    format!("{scheme}://{authority}/{name}{query}")
}

impl TestDb {
    /// The SQLite file, when this is one.
    fn sqlite_path(&self) -> Option<PathBuf> {
        match &self.db {
            banmen_web::Database::Sqlite(path) => Some(path.clone()),
            _ => None,
        }
    }

    /// The moves of game `id` as stored, read without the server.
    fn stored_moves(&self, id: i64) -> Vec<String> {
        const SQL: &str = "SELECT usi FROM moves WHERE game_id = $1 ORDER BY ply";
        match &self.db {
            banmen_web::Database::Sqlite(path) => {
                let conn = rusqlite::Connection::open(path).expect("open db");
                let mut stmt = conn.prepare(SQL).expect("prepare");
                stmt.query_map([id], |r| r.get(0))
                    .and_then(|it| it.collect())
                    .expect("rows")
            }
            banmen_web::Database::Postgres(url) => {
                let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
                let rows = client.query(SQL, &[&id]).expect("rows");
                rows.iter().map(|r| r.get(0)).collect()
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((server, database)) = &self.postgres {
            if let Ok(mut admin) = postgres::Client::connect(server, postgres::NoTls) {
                let _ = admin
                    .batch_execute(&format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"));
            }
        }
    }
}

fn moves(v: &Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("usi").to_string())
        .collect()
}

fn tokens(v: &Value) -> (String, String) {
    (
        v["tokens"]["black"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        v["tokens"]["white"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

/// Polls until `done` holds for the game's state, for at most 10 s.
fn wait_for(server: &Server, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let v = server.get(&format!("/api/games/{id}"));
        if done(&v) {
            return v;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "timed out: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn human_vs_human_moves_errors_and_game_end() {
    let Some(db) = temp_db("hvh") else {
        return;
    };
    let server = Server::start(&db);
    let (id, created) =
        server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    let (black, white) = tokens(&created);
    assert!(!black.is_empty() && !white.is_empty() && black != white);
    assert_eq!(created["side_to_move"], "black");
    assert_eq!(created["legal_moves"].as_array().map(Vec::len), Some(30));
    assert!(created["result"].is_null());

    let (status, v) = server.play(id, &black, "7g7f");
    assert_eq!(status, 200, "{v}");
    assert_eq!(moves(&v), ["7g7f"]);
    assert_eq!(v["side_to_move"], "white");
    assert_eq!(
        v["sfen"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );

    // Illegal: the reason comes from the rules core; the state is unchanged.
    let (status, v) = server.play(id, &white, "3c3e");
    assert_eq!(status, 422, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("cannot move there"),
        "{v}"
    );
    let (status, v) = server.play(id, &white, "2b3c");
    assert_eq!(status, 422, "{v}");
    assert!(v["error"].as_str().unwrap().contains("own piece"), "{v}");
    assert_eq!(moves(&server.get(&format!("/api/games/{id}"))), ["7g7f"]);

    // Tokens.
    let (status, v) = server.play(id, "not-a-seat", "3c3d");
    assert_eq!(status, 403, "{v}");
    let (status, v) = server.post(
        &format!("/api/games/{id}/moves"),
        None,
        json!({"move": "3c3d"}),
    );
    assert_eq!(status, 401, "{v}");
    assert!(v["error"].is_string());

    // Out of turn, malformed JSON, unknown game.
    let (status, v) = server.play(id, &black, "2g2f");
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("not your turn"),
        "{v}"
    );
    let (status, v) = server.call(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&white),
        Some("{\"move\": "),
    );
    assert_eq!(status, 400, "{v}");
    let (status, _) = server.play(9999, &white, "3c3d");
    assert_eq!(status, 404);
    let (status, _) = server.call("GET", "/api/games/9999", None, None);
    assert_eq!(status, 404);
    assert_eq!(moves(&server.get(&format!("/api/games/{id}"))), ["7g7f"]);

    // Take back one's own move only.
    let (status, _) = server.play(id, &white, "3c3d");
    assert_eq!(status, 200);
    let (status, v) = server.post(&format!("/api/games/{id}/undo"), Some(&black), json!({}));
    assert_eq!(status, 409, "{v}");
    let (status, v) = server.post(&format!("/api/games/{id}/undo"), Some(&white), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(moves(&v), ["7g7f"]);

    // A bishop exchange, then resignation ends the game; every move is refused after.
    for (token, mv) in [(&white, "3c3d"), (&black, "8h2b+"), (&white, "3a2b")] {
        let (status, v) = server.play(id, token, mv);
        assert_eq!(status, 200, "{mv}: {v}");
    }
    let (status, v) = server.play(id, &black, "B*4b");
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.post(&format!("/api/games/{id}/resign"), Some(&white), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["result"],
        json!({"winner": "black", "reason": "resignation"})
    );
    assert!(v["legal_moves"].as_array().unwrap().is_empty());
    let (status, v) = server.play(id, &white, "2b3c");
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
    let (status, _) = server.post(&format!("/api/games/{id}/resign"), Some(&black), json!({}));
    assert_eq!(status, 409);

    // Listed, and the page is served.
    let list = server.get("/api/games");
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert!(list[0].get("tokens").is_none());
    let (status, page) = raw(server.addr, "GET", "/", None, None);
    assert_eq!(status, 200);
    assert!(page.contains("<svg") || page.contains("svg"), "page");
}

#[test]
fn engine_replies_and_undo_takes_back_both_moves() {
    let Some(db) = temp_db("engine") else {
        return;
    };
    let server = Server::start(&db);
    let (id, created) = server.create(json!({
        "variant": "shogi", "black": "human", "white": {"engine": {"movetime_ms": 100}}
    }));
    let (black, white) = tokens(&created);
    assert!(white.is_empty());
    let (status, v) = server.play(id, &black, "7g7f");
    assert_eq!(status, 200, "{v}");
    let v = wait_for(&server, id, |v| {
        v["moves"].as_array().map(Vec::len) == Some(2)
    });
    assert_eq!(v["side_to_move"], "black");
    let (status, v) = server.post(&format!("/api/games/{id}/undo"), Some(&black), json!({}));
    assert_eq!(status, 200, "{v}");
    assert!(moves(&v).is_empty());
    assert_eq!(v["side_to_move"], "black");

    // An undo while the engine thinks cancels its search: no late reply.
    let (id3, c3) = server.create(json!({
        "variant": "shogi", "black": "human", "white": {"engine": {"movetime_ms": 1000}}
    }));
    let (black3, _) = tokens(&c3);
    let (status, _) = server.play(id3, &black3, "2g2f");
    assert_eq!(status, 200);
    let (status, v) = server.post(&format!("/api/games/{id3}/undo"), Some(&black3), json!({}));
    assert_eq!(status, 200, "{v}");
    assert!(moves(&v).is_empty());
    std::thread::sleep(Duration::from_millis(1300));
    assert!(moves(&server.get(&format!("/api/games/{id3}"))).is_empty());
    let (status, v) = server.post(&format!("/api/games/{id3}/undo"), Some(&black3), json!({}));
    assert_eq!(status, 409, "{v}");

    // An engine that moves first starts at creation (here in cannon shogi).
    let (id2, _) = server.create(json!({
        "variant": "cannonshogi", "black": {"engine": {"movetime_ms": 100}}, "white": "human"
    }));
    let v = wait_for(&server, id2, |v| {
        v["moves"].as_array().map(Vec::len) == Some(1)
    });
    assert_eq!(v["side_to_move"], "white");
}

#[test]
fn games_survive_a_killed_server() {
    let Some(db) = temp_db("persist") else {
        return;
    };
    let (id, black, white, sfen) = {
        let server = Server::start(&db);
        let (id, created) = server.create(
            json!({"variant": "shogi", "handicap": "lance", "black": "human", "white": "human"}),
        );
        let (black, white) = tokens(&created);
        // Handicap games start with White (the stronger side) to move.
        let first = created["side_to_move"].as_str().unwrap().to_string();
        let (a, b) = if first == "white" {
            (&white, &black)
        } else {
            (&black, &white)
        };
        let m1 = created["legal_moves"][0].as_str().unwrap().to_string();
        let (status, v) = server.play(id, a, &m1);
        assert_eq!(status, 200, "{v}");
        let m2 = v["legal_moves"][0].as_str().unwrap().to_string();
        let (status, v) = server.play(id, b, &m2);
        assert_eq!(status, 200, "{v}");
        let (id2, c2) =
            server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
        let (status, _) = server.post(
            &format!("/api/games/{id2}/resign"),
            Some(c2["tokens"]["black"].as_str().unwrap()),
            json!({}),
        );
        assert_eq!(status, 200);
        (id, black, white, v["sfen"].as_str().unwrap().to_string())
    };
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(v["sfen"], sfen.as_str());
    assert_eq!(moves(&v).len(), 2);
    assert_eq!(v["handicap"], "lance");
    let v2 = server.get(&format!("/api/games/{}", id + 1));
    assert_eq!(
        v2["result"],
        json!({"winner": "white", "reason": "resignation"})
    );
    // The seat tokens still hold their seats.
    let token = if v["side_to_move"] == "black" {
        &black
    } else {
        &white
    };
    let mv = v["legal_moves"][0].as_str().unwrap().to_string();
    let (status, v) = server.play(id, token, &mv);
    assert_eq!(status, 200, "{v}");
    assert_eq!(moves(&v).len(), 3);
}

#[test]
fn events_push_the_state_after_a_move() {
    let Some(db) = temp_db("events") else {
        return;
    };
    let server = Server::start(&db);
    let (id, created) =
        server.create(json!({"variant": "daidaishogi", "black": "human", "white": "human"}));
    let (black, _) = tokens(&created);
    assert_eq!(created["position"]["files"], 17);
    let mut events = Events::open(server.addr, id);
    events.read_until("\"moves\":[]");
    let mv = created["legal_moves"][0].as_str().unwrap().to_string();
    let (status, v) = server.play(id, &black, &mv);
    assert_eq!(status, 200, "{v}");
    events.read_until(&format!("\"moves\":[\"{mv}\"]"));
}

/// A game's server-sent events, read as they come.
struct Events {
    stream: TcpStream,
    seen: String,
}

impl Events {
    fn open(addr: SocketAddr, id: i64) -> Events {
        let mut stream = TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        write!(
            stream,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
        )
        .expect("write");
        Events {
            stream,
            seen: String::new(),
        }
    }

    /// Reads until `needle` has come, for at most 10 s.
    fn read_until(&mut self, needle: &str) {
        let mut buf = [0u8; 65536];
        let start = Instant::now();
        while !self.seen.contains(needle) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no event with {needle}: {}",
                self.seen
            );
            let n = self.stream.read(&mut buf).expect("read events");
            assert!(n > 0, "stream closed");
            self.seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }
}

/// What a refused request must leave as it was.
fn fingerprint(v: &Value) -> Value {
    json!([
        v["sfen"],
        v["moves"],
        v["result"],
        v["legal_moves"],
        v["side_to_move"]
    ])
}

#[test]
fn refused_moves_leave_the_game_unchanged() {
    let Some(db) = temp_db("refused") else {
        return;
    };
    let server = Server::start(&db);
    let (id, created) =
        server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    let (black, white) = tokens(&created);
    let (status, _) = server.play(id, &black, "7g7f");
    assert_eq!(status, 200);
    let path = format!("/api/games/{id}");
    let before = fingerprint(&server.get(&path));
    // (token, move, status, words of the error)
    let refused: [(Option<&str>, &str, u16, &str); 6] = [
        (Some(&white), "3c3e", 422, "cannot move there"), // illegal
        (Some(&white), "P*5e", 422, "illegal"),           // nothing in hand
        (Some("0123456789abcdef"), "3c3d", 403, "no seat"), // wrong token
        (None, "3c3d", 401, "Authorization"),             // no token
        (Some(&black), "2g2f", 409, "not your turn"),     // out of turn
        (Some(&black), "3c3d", 409, "not your turn"),     // the other side's move
    ];
    for (token, mv, code, words) in refused {
        let (status, v) = server.post(
            &format!("/api/games/{id}/moves"),
            token,
            json!({ "move": mv }),
        );
        assert_eq!(status, code, "{mv}: {v}");
        assert!(
            v["error"].as_str().unwrap_or("").contains(words),
            "{mv}: {v}"
        );
        assert_eq!(
            fingerprint(&server.get(&path)),
            before,
            "{mv} changed the game"
        );
    }
    // After the end: fool's mate does not exist in shogi, so White resigns.
    let (status, _) = server.post(&format!("/api/games/{id}/resign"), Some(&white), json!({}));
    assert_eq!(status, 200);
    let over = fingerprint(&server.get(&path));
    for (token, mv) in [(&white, "3c3d"), (&black, "2g2f")] {
        let (status, v) = server.play(id, token, mv);
        assert_eq!(status, 409, "{v}");
        assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
        assert_eq!(fingerprint(&server.get(&path)), over);
    }
    let (status, _) = server.post(&format!("/api/games/{id}/undo"), Some(&white), json!({}));
    assert_eq!(status, 409);
    assert_eq!(fingerprint(&server.get(&path)), over);
    // And the same after a restart on the database.
    drop(server);
    let server = Server::start(&db);
    assert_eq!(fingerprint(&server.get(&path)), over);
}

#[test]
fn list_is_summaries_and_replay_positions() {
    let Some(db) = temp_db("list") else {
        return;
    };
    let server = Server::start(&db);
    let (id, created) =
        server.create(json!({"variant": "cannonshogi", "black": "human", "white": "human"}));
    let (black, white) = tokens(&created);
    for (t, m) in [(&black, "7g7f"), (&white, "3c3d")] {
        let (status, v) = server.play(id, t, m);
        assert_eq!(status, 200, "{v}");
    }
    let list = server.get("/api/games");
    let g = &list[0];
    assert_eq!(g["id"], id);
    assert_eq!(g["move_count"], 2);
    assert_eq!(g["variant"], "cannonshogi");
    assert!(
        g.get("legal_moves").is_none() && g.get("position").is_none(),
        "{g}"
    );
    assert!(g["updated"].as_i64().unwrap() >= g["created"].as_i64().unwrap());

    let full = server.get(&format!("/api/games/{id}"));
    assert_eq!(full["notation"]["western"], json!(["P-7f", "P-3d"]));
    assert_eq!(full["notation"]["japanese"], json!(["▲７六歩", "△３四歩"]));
    assert_eq!(full["times_ms"].as_array().map(Vec::len), Some(2));
    assert!(full["clock"]["black_ms"].is_u64());

    let p0 = server.get(&format!("/api/games/{id}/position?ply=0"));
    assert_eq!(p0["sfen"], created["sfen"]);
    assert!(p0["last_move"].is_null());
    let p1 = server.get(&format!("/api/games/{id}/position?ply=1"));
    assert_eq!(p1["last_move"], "7g7f");
    assert_eq!(p1["side_to_move"], "white");
    let (status, _) = server.call(
        "GET",
        &format!("/api/games/{id}/position?ply=3"),
        None,
        None,
    );
    assert_eq!(status, 422);

    let legend = server.get("/api/pieces?variant=daidaishogi");
    let lion = legend["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "LN")
        .expect("lion");
    assert_eq!(lion["name"], "lion");
    assert_eq!(lion["attacks"].as_array().map(Vec::len), Some(24));
    // A limited slide keeps its range: the violent ox (R2) reaches 8 squares.
    let ox = legend["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "VO")
        .expect("violent ox");
    assert_eq!(ox["attacks"].as_array().map(Vec::len), Some(8), "{ox}");
    let shogi = server.get("/api/pieces?variant=shogi");
    let rook = shogi["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "R")
        .expect("rook");
    assert_eq!(rook["attacks"].as_array().map(Vec::len), Some(16), "{rook}");
    // Where a piece may promote: the far three ranks in shogi, on a capture
    // in dai dai shogi (the page asks about a premove's promotion with it).
    assert_eq!(rook["promotes"], true);
    let zone = |legend: &Value, c: &str| legend["promotion_zone"][c].as_array().unwrap().clone();
    assert_eq!(zone(&shogi, "black").len(), 27);
    assert!(zone(&shogi, "black").contains(&json!("9c")));
    assert!(zone(&shogi, "white").contains(&json!("1g")));
    assert_eq!(shogi["promotion_on_capture"], false);
    assert_eq!(legend["promotion_on_capture"], true);
    assert!(zone(&legend, "black").is_empty());
    assert!(shogi["handicaps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h == "two-pieces"));
    let (status, _) = server.call("GET", "/api/pieces?variant=chess", None, None);
    assert_eq!(status, 422);
}

#[test]
fn import_and_export_records() {
    let Some(db) = temp_db("records") else {
        return;
    };
    let server = Server::start(&db);
    // A USI line, guessed.
    let (status, v) = server.post(
        "/api/games/import",
        None,
        json!({"text": "position startpos moves 7g7f 3c3d 8h2b+ 3a2b"}),
    );
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    assert_eq!(moves(&v), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let (black, _) = tokens(&v);
    let (status, v) = server.play(id, &black, "B*5e");
    assert_eq!(status, 200, "{v}");

    // Out as KIF (UTF-8), CSA, SFEN, USI and back in: the same moves.
    for format in ["kifu", "csa", "sfen", "usi", "western", "japanese", "ki2"] {
        let (status, text) = server.export(id, format);
        assert_eq!(status, 200, "{format}: {text}");
        let (status, back) = server.post(
            "/api/games/import",
            None,
            json!({"text": text, "format": format}),
        );
        assert_eq!(status, 201, "{format}: {back}\n{text}");
        assert_eq!(moves(&back), moves(&v), "{format}");
    }
    // Shift-JIS KIF.
    let (status, _) = server.export(id, "kif");
    assert_eq!(status, 200);

    // A KIF with a resignation, and a CSA record.
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    let (status, v) = server.post("/api/games/import", None, json!({"text": kif}));
    assert_eq!(status, 201, "{v}");
    assert_eq!(moves(&v), ["7g7f", "3c3d"]);
    assert_eq!(
        v["result"],
        json!({"winner": "white", "reason": "resignation"})
    );
    let csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n";
    let (status, v) = server.post("/api/games/import", None, json!({"text": csa}));
    assert_eq!(status, 201, "{v}");
    assert_eq!(moves(&v), ["7g7f", "3c3d", "2g2f"]);
    // An SFEN of a handicap start; dai dai shogi as a USI line.
    let (status, v) = server.post(
        "/api/games/import",
        None,
        json!({"text": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"}),
    );
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["handicap"], "lance");
    let dd = server.create(json!({"variant": "daidaishogi", "black": "human", "white": "human"}));
    let first = dd.1["legal_moves"][0].as_str().unwrap().to_string();
    let (status, v) = server.play(dd.0, &tokens(&dd.1).0, &first);
    assert_eq!(status, 200);
    // Dai dai shogi's move text both ways (`RB6p-5o`, `▲５十五...`).
    let western = v["notation"]["western"][0].as_str().unwrap();
    let japanese = v["notation"]["japanese"][0].as_str().unwrap();
    assert!(
        western.starts_with(|c: char| c.is_ascii_uppercase()),
        "{western}"
    );
    assert!(
        japanese.starts_with('▲') && !japanese.contains('？'),
        "{japanese}"
    );
    let (status, usi) = raw(
        server.addr,
        "GET",
        &format!("/api/games/{}/export?format=usi", dd.0),
        None,
        None,
    );
    assert_eq!(status, 200, "{usi}");
    let (status, v) = server.post("/api/games/import", None, json!({"text": usi}));
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["variant"], "daidaishogi");
    assert_eq!(moves(&v), [first.as_str()]);
    // Refusals.
    for (body, code) in [
        (json!({"text": "position startpos moves 7g7f 7g7f"}), 422),
        (json!({"text": "garbage that is no record"}), 422),
        (json!({"text": "", "format": "docx"}), 422),
        (json!({"nope": 1}), 400),
    ] {
        let (status, v) = server.post("/api/games/import", None, body.clone());
        assert_eq!(status, code, "{body}: {v}");
        assert!(v["error"].is_string());
    }
    let (status, _) = server.call("GET", "/api/games/1/export?format=pdf", None, None);
    assert_eq!(status, 422);
}

/// A keep-alive HTTP/1.1 client: one connection for all of a load client's requests.
struct Client {
    addr: SocketAddr,
    reader: std::io::BufReader<TcpStream>,
}

impl Client {
    fn connect(addr: SocketAddr) -> Client {
        let s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30)))
            .expect("timeout");
        s.set_nodelay(true).expect("nodelay");
        Client {
            addr,
            reader: std::io::BufReader::new(s),
        }
    }

    fn call(&mut self, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
        use std::io::BufRead;
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.reader
            .get_mut()
            .write_all(req.as_bytes())
            .expect("write");
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("status line");
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {line:?}"));
        let mut length = 0usize;
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("header");
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse().expect("length");
                }
            }
        }
        let mut buf = vec![0u8; length];
        self.reader.read_exact(&mut buf).expect("body");
        (status, serde_json::from_slice(&buf).unwrap_or(Value::Null))
    }
}

/// `clients` clients, each playing its own human-vs-human games (shogi,
/// cannon shogi and dai dai shogi in turn) as fast as the server answers,
/// for `duration`; every move sent must be in the game, in the server's
/// answer, in the database and after a restart. Returns the moves made per
/// second (`None`: skipped, no database).
fn load(name: &str, clients: usize, duration: Duration) -> Option<f64> {
    const MAX_PLIES: usize = 80;
    let db = temp_db(name)?;
    let server = Server::start(&db);
    let addr = server.addr;
    let started = Instant::now();
    let deadline = started + duration;
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            std::thread::spawn(move || {
                let variant = ["shogi", "cannonshogi", "daidaishogi"][c % 3];
                let mut client = Client::connect(addr);
                let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (c as u64 + 1);
                let mut games: Vec<(i64, Vec<String>)> = Vec::new();
                while Instant::now() < deadline {
                    let body = json!({"variant": variant, "black": "human", "white": "human"});
                    let (status, mut v) =
                        client.call("POST", "/api/games", None, &body.to_string());
                    assert_eq!(status, 201, "{v}");
                    let id = v["id"].as_i64().expect("id");
                    let seats = [
                        v["tokens"]["black"].as_str().unwrap().to_string(),
                        v["tokens"]["white"].as_str().unwrap().to_string(),
                    ];
                    let mut sent = Vec::new();
                    while Instant::now() < deadline
                        && sent.len() < MAX_PLIES
                        && v["result"].is_null()
                    {
                        let legal = v["legal_moves"].as_array().expect("legal");
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let mv = legal[(seed % legal.len() as u64) as usize]
                            .as_str()
                            .unwrap()
                            .to_string();
                        let seat = &seats[usize::from(v["side_to_move"] == "white")];
                        let body = json!({ "move": mv }).to_string();
                        let (status, next) = client.call(
                            "POST",
                            &format!("/api/games/{id}/moves"),
                            Some(seat),
                            &body,
                        );
                        assert_eq!(status, 200, "game {id} {mv}: {next}");
                        sent.push(mv);
                        assert_eq!(moves(&next), sent, "game {id}: the answer");
                        v = next;
                    }
                    games.push((id, sent));
                }
                games
            })
        })
        .collect();
    let games: Vec<(i64, Vec<String>)> = handles
        .into_iter()
        .flat_map(|h| h.join().expect("client"))
        .collect();
    let elapsed = started.elapsed().as_secs_f64();
    let total: usize = games.iter().map(|(_, m)| m.len()).sum();
    // The server's view, SQLite's rows, and a new server on the same file.
    for (id, sent) in &games {
        assert_eq!(&moves(&server.get(&format!("/api/games/{id}"))), sent);
    }
    drop(server);
    for (id, sent) in &games {
        assert_eq!(&db.stored_moves(*id), sent, "game {id} in the database");
    }
    let server = Server::start(&db);
    assert_eq!(
        server.get("/api/games").as_array().map(Vec::len),
        Some(games.len())
    );
    for (id, sent) in &games {
        assert_eq!(&moves(&server.get(&format!("/api/games/{id}"))), sent);
    }
    let rate = total as f64 / elapsed;
    println!(
        "load: {clients} clients, {elapsed:.1} s, {} games, {total} moves, {rate:.0} moves/s",
        games.len()
    );
    Some(rate)
}

#[test]
fn load_short_50_clients_lose_no_move() {
    assert!(load("load-short", 50, Duration::from_secs(5)).is_none_or(|rate| rate > 0.0));
}

/// The full run: `cargo test --release -p banmen-web --test api -- --ignored --nocapture load_full`.
#[test]
#[ignore]
fn load_full_50_clients_for_a_minute() {
    assert!(load("load-full", 50, Duration::from_secs(60)).is_none_or(|rate| rate > 0.0));
}

#[test]
fn variants_list_the_games_with_their_pieces_names() {
    let Some(db) = temp_db("variants") else {
        return;
    };
    let server = Server::start(&db);
    let v = server.get("/api/variants");
    let games = v["variants"].as_array().expect("variants");
    let names: Vec<&str> = games.iter().filter_map(|g| g["name"].as_str()).collect();
    assert_eq!(names, ["shogi", "cannonshogi", "daidaishogi", "minishogi"]);
    let game = |name: &str| games.iter().find(|g| g["name"] == name).unwrap();
    // Minishogi is played like the others: a game, a move, its notation.
    let created =
        server.create(json!({"variant": "minishogi", "black": "human", "white": "human"}));
    assert_eq!(created.1["legal_moves"].as_array().map(Vec::len), Some(14));
    let (status, v) = server.play(created.0, &tokens(&created.1).0, "5d5c");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["notation"]["western"][0], "P-5c");
    let mini = game("minishogi");
    assert_eq!(
        (mini["files"].as_u64(), mini["drops"].as_bool()),
        (Some(5), Some(true))
    );
    let piece = |g: &Value, code: &str| {
        g["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["code"] == code)
            .cloned()
            .unwrap_or_else(|| panic!("{code}"))
    };
    let shogi = game("shogi");
    assert_eq!(
        (shogi["files"].as_u64(), shogi["drops"].as_bool()),
        (Some(9), Some(true))
    );
    assert!(shogi["handicaps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["name"] == "two-pieces" && h["japanese"] == "二枚落ち"));
    let king = piece(shogi, "K");
    assert_eq!(
        (
            king["abbreviation"].as_str(),
            king["white_abbreviation"].as_str()
        ),
        (Some("王"), Some("玉"))
    );
    assert_eq!(piece(shogi, "+S")["csa"], "NG");
    // One name per piece: the silver cannon is SC, the flying gold cannon 成金砲.
    let cannon = game("cannonshogi");
    assert_eq!(piece(cannon, "A")["western"], "SC");
    assert_eq!(piece(cannon, "+U")["japanese"], "成金砲");
    assert_eq!(piece(cannon, "+U")["abbreviation"], "成金砲");
    assert_eq!(cannon["hoppers"], true);
    assert_eq!(shogi["hoppers"], false);
    assert_eq!(cannon["options"][0]["key"], "flying-cannon");
    assert_eq!(cannon["options"][0]["default"], "hop");
    let dai = game("daidaishogi");
    assert_eq!(
        (dai["files"].as_u64(), dai["drops"].as_bool()),
        (Some(17), Some(false))
    );
    assert_eq!(piece(dai, "LN")["abbreviation"], "獅");
    assert_eq!(
        (
            dai["lion_moves"].as_bool(),
            dai["promotion_on_capture"].as_bool()
        ),
        (Some(true), Some(true))
    );
    assert_eq!(piece(dai, "+LN")["name"], "furious fiend");
    assert!(dai["presets"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["rules"] == "hachu"));
    // The legend carries the same names.
    let legend = server.get("/api/pieces?variant=cannonshogi");
    let a = legend["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "A")
        .unwrap();
    assert_eq!(a["western"], "SC");
}

#[test]
fn versions_grow_with_every_change_and_survive_a_restart() {
    let Some(db) = temp_db("versions") else {
        return;
    };
    let (id, black, version) = {
        let server = Server::start(&db);
        let (id, created) =
            server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
        let (black, white) = tokens(&created);
        let v0 = created["version"].as_u64().expect("version");
        let (_, v) = server.play(id, &black, "7g7f");
        let v1 = v["version"].as_u64().expect("version");
        assert!(v1 > v0, "a move: {v0} -> {v1}");
        let (_, v) = server.play(id, &white, "3c3d");
        let v2 = v["version"].as_u64().expect("version");
        assert!(v2 > v1);
        // A take-back goes back in moves but forward in versions.
        let (status, v) = server.post(&format!("/api/games/{id}/undo"), Some(&white), json!({}));
        assert_eq!(status, 200, "{v}");
        let v3 = v["version"].as_u64().expect("version");
        assert!(v3 > v2, "undo: {v2} -> {v3}");
        // A refused move changes nothing.
        let (status, _) = server.play(id, &black, "7g7f");
        assert_eq!(status, 409);
        assert_eq!(server.get(&format!("/api/games/{id}"))["version"], v3);
        assert_eq!(server.get("/api/games")[0]["version"], v3);
        (id, black, v3)
    };
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(v["version"].as_u64(), Some(version), "stored with the game");
    let (status, v) = server.post(&format!("/api/games/{id}/resign"), Some(&black), json!({}));
    assert_eq!(status, 200, "{v}");
    assert!(
        v["version"].as_u64().expect("version") > version,
        "resigning: {v}"
    );
}

#[test]
fn a_byoyomi_game_is_lost_on_time_with_no_request_coming_in() {
    let Some(db) = temp_db("flag") else {
        return;
    };
    let id = {
        let server = Server::start(&db);
        let (id, created) = server.create(json!({
            "variant": "shogi", "black": "human", "white": "human",
            "clock": {"main_ms": 0, "byoyomi_ms": 400}
        }));
        assert_eq!(
            created["time_control"],
            json!({"main_ms": 0, "byoyomi_ms": 400, "increment_ms": 0})
        );
        assert_eq!(created["clock"]["black_left_ms"], 0);
        let (black, white) = tokens(&created);
        let (status, v) = server.play(id, &black, "7g7f");
        assert_eq!(status, 200, "{v}");
        // White thinks too long: the server ends the game by itself.
        let v = wait_for(&server, id, |v| !v["result"].is_null());
        assert_eq!(v["result"], json!({"winner": "black", "reason": "time"}));
        assert_eq!(v["legal_moves"], json!([]));
        let (status, v) = server.play(id, &white, "3c3d");
        assert_eq!(status, 409);
        assert!(v["error"].as_str().unwrap().contains("time"), "{v}");
        let (status, _) = server.post(&format!("/api/games/{id}/undo"), Some(&white), json!({}));
        assert_eq!(status, 409);
        id
    };
    // Stored: a restart keeps the result.
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(v["result"], json!({"winner": "black", "reason": "time"}));
    assert_eq!(server.get("/api/games")[0]["result"]["reason"], "time");
    let csa = server.export(id, "csa").1;
    assert!(csa.contains("%TIME_UP"), "{csa}");
}

#[test]
fn fischer_clocks_count_down_and_survive_a_restart() {
    let Some(db) = temp_db("fischer") else {
        return;
    };
    let (id, left, black) = {
        let server = Server::start(&db);
        let (id, created) = server.create(json!({
            "variant": "shogi", "black": "human", "white": "human",
            "clock": {"main_ms": 60000, "increment_ms": 1000}
        }));
        let (black, white) = tokens(&created);
        std::thread::sleep(Duration::from_millis(300));
        let (status, v) = server.play(id, &black, "7g7f");
        assert_eq!(status, 200, "{v}");
        // The first move is not timed: 60 s plus the 1 s increment.
        assert_eq!(v["clock"]["black_left_ms"], 61000, "{v}");
        std::thread::sleep(Duration::from_millis(300));
        let (status, v) = server.play(id, &white, "3c3d");
        assert_eq!(status, 200, "{v}");
        let left = v["clock"]["white_left_ms"].as_u64().expect("left");
        // 60 s, less about 300 ms, plus the 1 s increment.
        assert!((60_000..=60_700).contains(&left), "white has {left} ms");
        (id, left, black)
    };
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(v["clock"]["white_left_ms"].as_u64(), Some(left));
    assert_eq!(v["time_control"]["increment_ms"], 1000);
    let (status, v) = server.play(id, &black, "2g2f");
    assert_eq!(status, 200, "{v}");
    assert!(v["clock"]["black_left_ms"].as_u64().unwrap() > 61_000);
}

#[test]
fn bad_clocks_are_refused_and_games_without_one_are_as_before() {
    let Some(db) = temp_db("badclock") else {
        return;
    };
    let server = Server::start(&db);
    for (clock, want) in [
        (json!({"main_ms": 0}), 422),
        (json!({"main_ms": -5}), 400),
        (json!({"main_ms": 1000, "fischer": 2}), 400),
        (json!({"main_ms": 100_000_000_000u64}), 422),
        (json!("10+30"), 400),
    ] {
        let (status, v) = server.post(
            "/api/games",
            None,
            json!({"variant": "shogi", "black": "human", "white": "human", "clock": clock}),
        );
        assert_eq!(status, want, "{clock}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("clock") || status == 400,
            "{v}"
        );
    }
    let (_, v) = server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    assert_eq!(v["time_control"], Value::Null);
    assert_eq!(v["clock"]["black_left_ms"], Value::Null);
    assert_eq!(v["clock"]["black_ms"], 0);
}

#[test]
fn an_engine_plays_by_the_clock() {
    let Some(db) = temp_db("engineclock") else {
        return;
    };
    let server = Server::start(&db);
    // An hour per move asked for, two seconds of byoyomi given: the clock wins.
    let (id, _) = server.create(json!({
        "variant": "shogi", "black": {"engine": {"movetime_ms": 60000}}, "white": "human",
        "clock": {"main_ms": 0, "byoyomi_ms": 2000}
    }));
    let v = wait_for(&server, id, |v| {
        !moves(v).is_empty() || !v["result"].is_null()
    });
    assert_eq!(v["result"], Value::Null, "{v}");
    let ms = v["times_ms"][0].as_u64().unwrap();
    assert!(ms <= 2000, "the engine took {ms} ms");
}

fn bounds(
    engines: usize,
    per_client: Option<usize>,
    per_minute: Option<u32>,
) -> banmen_web::Bounds {
    banmen_web::Bounds {
        engines,
        engine_games_per_client: per_client,
        games_per_minute: per_minute,
        workers: false,
    }
}

#[test]
fn new_games_beyond_the_rate_get_429() {
    let Some(db) = temp_db("rate") else {
        return;
    };
    let server = Server::start_with(&db, Some(bounds(1, None, Some(3))));
    let body = json!({"variant": "shogi", "black": "human", "white": "human"});
    for _ in 0..3 {
        server.create(body.clone());
    }
    let (status, v) = server.post("/api/games", None, body.clone());
    assert_eq!(status, 429, "{v}");
    let msg = v["error"].as_str().expect("error");
    assert!(
        msg.contains("at most 3 a minute") && msg.contains("try again in"),
        "{msg}"
    );
    // Imports count too; reading is never limited.
    let (status, v) = server.post(
        "/api/games/import",
        None,
        json!({"text": "position startpos"}),
    );
    assert_eq!(status, 429, "{v}");
    assert_eq!(server.get("/api/games").as_array().map(Vec::len), Some(3));
}

#[test]
fn open_engine_games_per_client_are_bounded() {
    let Some(db) = temp_db("perclient") else {
        return;
    };
    let server = Server::start_with(&db, Some(bounds(1, Some(2), None)));
    // The engine plays White: nothing to think about until Black moves.
    let engine_game =
        json!({"variant": "shogi", "black": "human", "white": {"engine": {"movetime_ms": 100}}});
    let (first, created) = server.create(engine_game.clone());
    server.create(engine_game.clone());
    let (status, v) = server.post("/api/games", None, engine_game.clone());
    assert_eq!(status, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 2"), "{v}");
    // Games between people are not engine games.
    server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    // A finished engine game frees its place.
    let (black, _) = tokens(&created);
    let (status, _) = server.post(
        &format!("/api/games/{first}/resign"),
        Some(&black),
        json!({}),
    );
    assert_eq!(status, 200);
    server.create(engine_game);
}

#[test]
fn the_engine_pool_runs_at_most_n_searches_and_queues_the_rest() {
    let Some(db) = temp_db("pool") else {
        return;
    };
    let server = Server::start_with(&db, Some(bounds(1, None, None)));
    assert_eq!(server.get("/api/engines")["limit"], 1);
    let engine_black =
        json!({"variant": "shogi", "black": {"engine": {"movetime_ms": 400}}, "white": "human"});
    let ids: Vec<i64> = (0..3)
        .map(|_| server.create(engine_black.clone()).0)
        .collect();
    let mut most_queued = 0;
    let start = Instant::now();
    loop {
        let pool = server.get("/api/engines");
        assert!(pool["running"].as_u64().unwrap() <= 1, "{pool}");
        most_queued = most_queued.max(pool["queued"].as_u64().unwrap());
        let done = ids
            .iter()
            .filter(|id| !moves(&server.get(&format!("/api/games/{id}"))).is_empty())
            .count();
        if done == ids.len() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "searches stuck: {pool}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(most_queued >= 1, "the other searches waited");
    // One at a time: three searches of 400 ms take about 1.2 s.
    assert!(
        start.elapsed() >= Duration::from_millis(1000),
        "{:?}",
        start.elapsed()
    );
    // The last search leaves the pool just after its move is stored.
    let idle = |p: &Value| p["running"] == 0 && p["queued"] == 0;
    let start = Instant::now();
    while !idle(&server.get("/api/engines")) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the pool stays busy"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn an_engine_waiting_for_a_pool_slot_is_not_charged_the_wait() {
    let Some(db) = temp_db("poolclock") else {
        return;
    };
    let server = Server::start_with(&db, Some(bounds(1, None, None)));
    // Game A's engine takes the only slot for 1.5 s.
    let (a, _) = server.create(
        json!({"variant": "shogi", "black": {"engine": {"movetime_ms": 1500}}, "white": "human"}),
    );
    // Game B's engine, on a 600 ms byoyomi, waits behind it.
    let (b, created) = server.create(json!({
        "variant": "shogi", "black": "human", "white": {"engine": {"movetime_ms": 300}},
        "clock": {"main_ms": 0, "byoyomi_ms": 600}
    }));
    let (black, _) = tokens(&created);
    assert_eq!(server.play(b, &black, "7g7f").0, 200);
    std::thread::sleep(Duration::from_millis(900));
    let v = server.get(&format!("/api/games/{b}"));
    assert_eq!(v["result"], Value::Null, "flagged while queued: {v}");
    assert!(server.get("/api/engines")["queued"].as_u64().unwrap() >= 1);
    assert!(moves(&server.get(&format!("/api/games/{a}"))).is_empty());
    // Once A's engine has moved, B's engine thinks on its own clock.
    let v = wait_for(&server, b, |v| {
        moves(v).len() == 2 || !v["result"].is_null()
    });
    assert_eq!(v["result"], Value::Null, "{v}");
    assert!(v["times_ms"][1].as_u64().unwrap() < 600, "{v}");
}

/// Two people: the tokens of a new human-against-human game.
fn two_people(server: &Server) -> (i64, String, String) {
    let (id, v) = server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    let token = |c: &str| v["tokens"][c].as_str().expect("token").to_string();
    (id, token("black"), token("white"))
}

#[test]
fn draw_offers_are_declined_or_accepted_and_kept_across_a_restart() {
    let Some(db) = temp_db("draw-offer") else {
        return;
    };
    let server = Server::start(&db);
    let (id, black, white) = two_people(&server);
    let path = |p: &str| format!("/api/games/{id}/{p}");
    assert_eq!(server.play(id, &black, "7g7f").0, 200);
    // Malformed or unknown offers: 400 with a reason.
    let (status, v) = server.post(&path("offer"), Some(&black), json!({"kind": "peace"}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("malformed"), "{v}");
    let (status, _) = server.post(&path("offer"), None, json!({"kind": "draw"}));
    assert_eq!(status, 401);
    // Nothing to answer yet.
    let (status, v) = server.post(&path("offer/accept"), Some(&white), json!({}));
    assert_eq!(status, 409, "{v}");
    // Black offers a draw; Black cannot accept it; White declines.
    let (status, v) = server.post(&path("offer"), Some(&black), json!({"kind": "draw"}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["offer"], json!({"kind": "draw", "by": "black"}));
    let version = v["version"].as_u64().unwrap();
    let (status, v) = server.post(&path("offer"), Some(&white), json!({"kind": "draw"}));
    assert_eq!(status, 409, "one offer at a time: {v}");
    let (status, v) = server.post(&path("offer/accept"), Some(&black), json!({}));
    assert_eq!(status, 409, "{v}");
    let (status, v) = server.post(&path("offer/decline"), Some(&white), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["offer"], Value::Null);
    assert_eq!(
        v["answer"],
        json!({"kind": "draw", "by": "white", "accepted": false})
    );
    assert_eq!(v["result"], Value::Null);
    assert!(v["version"].as_u64().unwrap() > version);
    // The game goes on; a move withdraws a waiting offer.
    assert_eq!(server.play(id, &white, "3c3d").0, 200);
    let (status, _) = server.post(&path("offer"), Some(&white), json!({"kind": "draw"}));
    assert_eq!(status, 200);
    let (_, v) = server.play(id, &black, "2g2f");
    assert_eq!(v["offer"], Value::Null, "a move withdraws the offer");
    // An offer survives a restart; then White accepts Black's: a draw by agreement.
    let (status, _) = server.post(&path("offer"), Some(&black), json!({"kind": "draw"}));
    assert_eq!(status, 200);
    drop(server);
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(v["offer"], json!({"kind": "draw", "by": "black"}));
    let (status, v) = server.post(&path("offer/accept"), Some(&white), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], json!({"winner": null, "reason": "agreement"}));
    assert_eq!(v["legal_moves"], json!([]));
    let (status, _) = server.play(id, &white, "8c8d");
    assert_eq!(status, 409, "the game is over");
    let (status, _) = server.post(&path("undo"), Some(&black), json!({}));
    assert_eq!(status, 409, "an agreed draw is not taken back");
    drop(server);
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(v["result"], json!({"winner": null, "reason": "agreement"}));
    assert_eq!(moves(&v), ["7g7f", "3c3d", "2g2f"]);
    // The record says so.
    let (status, csa) = server.call(
        "GET",
        &format!("/api/games/{id}/export?format=csa"),
        None,
        None,
    );
    assert_eq!(status, 200);
    assert!(csa.as_str().unwrap().contains("%HIKIWAKE"), "{csa}");
}

#[test]
fn take_back_offers_abort_and_rematch() {
    let Some(db) = temp_db("takeback-offer") else {
        return;
    };
    let server = Server::start(&db);
    let (id, black, white) = two_people(&server);
    let path = |p: &str| format!("/api/games/{id}/{p}");
    // White has not moved: nothing to offer to take back.
    assert_eq!(server.play(id, &black, "7g7f").0, 200);
    let (status, v) = server.post(&path("offer"), Some(&white), json!({"kind": "takeback"}));
    assert_eq!(status, 409, "{v}");
    // Abort before the second move only.
    assert_eq!(server.play(id, &white, "3c3d").0, 200);
    let (status, v) = server.post(&path("abort"), Some(&black), json!({}));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("too late"), "{v}");
    // Black offers to take back 7g7f (and White's reply): White's move stays until White agrees.
    let (status, v) = server.post(&path("offer"), Some(&black), json!({"kind": "takeback"}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(moves(&v), ["7g7f", "3c3d"]);
    let (status, v) = server.post(&path("offer/decline"), Some(&white), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(moves(&v), ["7g7f", "3c3d"]);
    // Again, accepted: both moves go.
    let (status, _) = server.post(&path("offer"), Some(&black), json!({"kind": "takeback"}));
    assert_eq!(status, 200);
    let (status, v) = server.post(&path("offer/accept"), Some(&white), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(moves(&v), Vec::<String>::new());
    assert_eq!(v["answer"]["accepted"], true);
    // Now abort: no winner; a second abort answers that the game is over.
    assert_eq!(server.play(id, &black, "2g2f").0, 200);
    let (status, v) = server.post(&path("abort"), Some(&white), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], json!({"winner": null, "reason": "aborted"}));
    let (status, _) = server.post(&path("abort"), Some(&white), json!({}));
    assert_eq!(status, 409);
    let (_, csa) = server.call(
        "GET",
        &format!("/api/games/{id}/export?format=csa"),
        None,
        None,
    );
    assert!(csa.as_str().unwrap().contains("%CHUDAN"), "{csa}");
    // The rematch: colours changed over, each asker its own seat and token.
    let (status, v) = server.post(&path("rematch"), Some("not-a-token"), json!({}));
    assert_eq!(status, 403, "{v}");
    let (status, r1) = server.post(&path("rematch"), Some(&black), json!({}));
    assert_eq!(status, 201, "{r1}");
    assert_eq!(r1["seat"], "white");
    assert!(r1.get("tokens").is_none(), "never the other seat's token");
    let new = r1["id"].as_i64().unwrap();
    let (status, r2) = server.post(&path("rematch"), Some(&white), json!({}));
    assert_eq!(status, 200, "{r2}");
    assert_eq!(
        (r2["id"].as_i64(), r2["seat"].as_str()),
        (Some(new), Some("black"))
    );
    assert_eq!(server.get(&format!("/api/games/{id}"))["rematch"], new);
    let (status, _) = server.play(new, r2["token"].as_str().unwrap(), "7g7f");
    assert_eq!(status, 200);
    // A rematch before the end is refused; the seat check.
    let (status, _) = server.post(
        &format!("/api/games/{new}/rematch"),
        r1["token"].as_str(),
        json!({}),
    );
    assert_eq!(status, 409);
    let (status, v) = server.call(
        "GET",
        &format!("/api/games/{new}/seat"),
        r1["token"].as_str(),
        None,
    );
    assert_eq!((status, v["seat"].as_str()), (200, Some("white")));
    let (status, v) = server.call("GET", &format!("/api/games/{new}/seat"), Some(&black), None);
    assert_eq!(
        status, 403,
        "an old token holds no seat in the new game: {v}"
    );
    let (status, _) = server.call("GET", &format!("/api/games/{new}/seat"), None, None);
    assert_eq!(status, 401);
    // A game created with "consent": a take-back only by an offer, kept across a restart.
    let (cid, cv) = server
        .create(json!({"variant": "shogi", "black": "human", "white": "human", "consent": true}));
    assert_eq!(cv["consent"], true);
    let cb = cv["tokens"]["black"].as_str().unwrap().to_string();
    assert_eq!(server.play(cid, &cb, "7g7f").0, 200);
    drop(server);
    let server = Server::start(&db);
    let (status, v) = server.post(&format!("/api/games/{cid}/undo"), Some(&cb), json!({}));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("must agree"), "{v}");
    let (status, _) = server.post(
        &format!("/api/games/{cid}/offer"),
        Some(&cb),
        json!({"kind": "takeback"}),
    );
    assert_eq!(status, 200);
    // Without it (old clients), undo between two people acts at once.
    let (pid, pv) = server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    assert_eq!(pv["consent"], false);
    let pb = pv["tokens"]["black"].as_str().unwrap().to_string();
    assert_eq!(server.play(pid, &pb, "7g7f").0, 200);
    let (status, v) = server.post(&format!("/api/games/{pid}/undo"), Some(&pb), json!({}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0), "{v}");
    // An engine answers no offers.
    let (eid, ev) = server.create(
        json!({"variant": "shogi", "black": "human", "white": {"engine": {"movetime_ms": 5}}}),
    );
    let (status, v) = server.post(
        &format!("/api/games/{eid}/offer"),
        ev["tokens"]["black"].as_str(),
        json!({"kind": "draw"}),
    );
    assert_eq!(status, 409, "{v}");
}

#[test]
fn engine_levels_play_fast_and_bad_levels_are_refused() {
    let Some(db) = temp_db("levels") else {
        return;
    };
    let server = Server::start(&db);
    for level in [0, 9] {
        let (status, v) = server.post(
            "/api/games",
            None,
            json!({"variant": "shogi", "black": "human",
                   "white": {"engine": {"movetime_ms": 100, "level": level}}}),
        );
        assert_eq!(status, 400, "level {level}: {v}");
        assert!(v["error"].as_str().unwrap().contains("level"), "{v}");
    }

    // Level 1 stops after a few hundred nodes, long before its 60 s a move;
    // its moves are legal (an illegal one would resign the game).
    let start = Instant::now();
    let (id, created) = server.create(json!({
        "variant": "shogi", "black": {"engine": {"movetime_ms": 60000, "level": 1}}, "white": "human"
    }));
    assert_eq!(created["black"]["engine"]["level"], 1, "{created}");
    let v = wait_for(&server, id, |v| moves(v).len() == 1);
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(v["result"], Value::Null, "{v}");
    assert_eq!(v["side_to_move"], "white");

    // Two low levels against each other, in shogi and cannon shogi: many
    // quick legal moves.
    for variant in ["shogi", "cannonshogi"] {
        let (id, _) = server.create(json!({
            "variant": variant,
            "black": {"engine": {"movetime_ms": 60000, "level": 1}},
            "white": {"engine": {"movetime_ms": 60000, "level": 3}}
        }));
        let v = wait_for(&server, id, |v| {
            moves(v).len() >= 8 || v["result"] != Value::Null
        });
        assert!(moves(&v).len() >= 8, "{variant}: {v}");
    }

    // No level: as before (and none is echoed back).
    let (_, v) = server.create(json!({
        "variant": "shogi", "black": "human", "white": {"engine": {"movetime_ms": 100}}
    }));
    assert!(v["white"]["engine"].get("level").is_none(), "{v}");
}

#[test]
fn a_timed_game_against_the_engine_cannot_be_taken_back() {
    let Some(db) = temp_db("timedundo") else {
        return;
    };
    let server = Server::start(&db);
    let (id, created) = server.create(json!({
        "variant": "shogi", "black": "human", "white": {"engine": {"movetime_ms": 50}},
        "clock": {"main_ms": 60000, "byoyomi_ms": 1000}
    }));
    let (black, _) = tokens(&created);
    let (status, v) = server.play(id, &black, "7g7f");
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.post(&format!("/api/games/{id}/undo"), Some(&black), json!({}));
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("timed game"), "{v}");
    // Nothing was taken back.
    let v = server.get(&format!("/api/games/{id}"));
    assert!(!v["moves"].as_array().unwrap().is_empty(), "{v}");
}

/// A KIF whose second move has a variation, which has one of its own at
/// move 3, and a main line that ends in a resignation.
const KIF_WITH_VARIATIONS: &str = "手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)+
   3 ２六歩(27)
   4 投了

変化：2手
   2 ８四歩(83)
   3 ２六歩(27)+
   4 ８五歩(84)

変化：3手
   3 ６八銀(79)
";

/// The variations of a state as `[ply, [usi...], [children...]]`, recursively.
fn tree(v: &Value) -> Value {
    Value::Array(
        v.as_array()
            .expect("variations")
            .iter()
            .map(|n| {
                let usi: Vec<&str> = n["moves"]
                    .as_array()
                    .expect("moves")
                    .iter()
                    .map(|m| m["usi"].as_str().expect("usi"))
                    .collect();
                json!([n["ply"], usi, tree(&n["variations"])])
            })
            .collect(),
    )
}

#[test]
fn imported_variations_are_shown_exported_and_kept_across_a_restart() {
    let Some(db) = temp_db("variations") else {
        return;
    };
    let expected = json!([[2, ["8c8d", "2g2f", "8d8e"], [[3, ["7i6h"], []]]]]);
    let id = {
        let server = Server::start(&db);
        let (status, v) = server.post(
            "/api/games/import",
            None,
            json!({"text": KIF_WITH_VARIATIONS}),
        );
        assert_eq!(status, 201, "{v}");
        // The game is the main line; the variations come as a tree with
        // each move's text.
        assert_eq!(moves(&v), ["7g7f", "3c3d", "2g2f"]);
        assert_eq!(v["result"]["reason"], "resignation");
        assert_eq!(tree(&v["variations"]), expected);
        let first = &v["variations"][0]["moves"][0];
        assert_eq!(first["western"], "P-8d");
        assert_eq!(first["japanese"], "△８四歩");
        assert_eq!(
            v["variations"][0]["variations"][0]["moves"][0]["japanese"],
            "▲６八銀"
        );
        let id = v["id"].as_i64().unwrap();

        // A variation's position: its main-line moves, then its own.
        let p = server.get(&format!("/api/games/{id}/position?line=7g7f,8c8d,7i6h"));
        assert_eq!(p["ply"], 3);
        assert_eq!(p["last_move"], "7i6h");
        assert_eq!(p["side_to_move"], "white");
        assert_eq!(p["position"]["board"][7][3], "S");
        let (status, _) = server.call(
            "GET",
            &format!("/api/games/{id}/position?line=7g7f,7g7f"),
            None,
            None,
        );
        assert_eq!(status, 422);

        // KIF and JKF write the tree; reading them back gives it again.
        for (format, mark) in [
            ("kifu", "変化：3手"),
            ("jkf", "\"forks\""),
            ("ki2", "変化：3手"),
        ] {
            let (status, text) = server.export(id, format);
            assert_eq!(status, 200, "{format}: {text}");
            assert!(text.contains(mark), "{format}:\n{text}");
            let (status, back) = server.post(
                "/api/games/import",
                None,
                json!({"text": text, "format": format}),
            );
            assert_eq!(status, 201, "{format}: {back}");
            assert_eq!(tree(&back["variations"]), expected, "{format}");
        }
        // CSA keeps the main line only.
        let (status, text) = server.export(id, "csa");
        assert_eq!(status, 200, "{text}");
        assert!(!text.contains("8384FU"), "{text}");
        id
    };
    // A restart reads them back from the database.
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(tree(&v["variations"]), expected);
    assert_eq!(v["variations"][0]["moves"][1]["japanese"], "▲２六歩");
    let (status, text) = server.export(id, "kifu");
    assert_eq!(status, 200);
    assert!(
        text.contains("変化：2手") && text.contains("変化：3手"),
        "{text}"
    );
    // A game without variations has an empty list.
    let (_, v) = server.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    assert_eq!(v["variations"], json!([]));
}

#[test]
fn a_variation_goes_once_the_moves_it_branches_off_are_taken_back_and_replaced() {
    let Some(db) = temp_db("variations-undo") else {
        return;
    };
    let server = Server::start(&db);
    // The record without its resignation: the game goes on.
    let kif = KIF_WITH_VARIATIONS.replace("   4 投了\n", "");
    let (status, v) = server.post("/api/games/import", None, json!({ "text": kif }));
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    let (black, white) = tokens(&v);
    // Played on: still there.
    let (status, v) = server.play(id, &white, "8c8d");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["variations"][0]["ply"], 2);
    // Taken back to move 1: still an alternative to move 2.
    for token in [&white, &black, &white] {
        let (status, v) = server.post(&format!("/api/games/{id}/undo"), Some(token), json!({}));
        assert_eq!(status, 200, "{v}");
    }
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(moves(&v), ["7g7f"]);
    assert_eq!(v["variations"][0]["ply"], 2);
    // Move 1 replaced: it branches off nothing in this game any more.
    let (status, v) = server.post(&format!("/api/games/{id}/undo"), Some(&black), json!({}));
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.play(id, &black, "2g2f");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["variations"], json!([]));
    let (status, text) = server.export(id, "kifu");
    assert_eq!(status, 200, "{text}");
    assert!(!text.contains("変化"), "{text}");
}

#[test]
fn a_database_from_before_variations_still_opens() {
    let Some(db) = temp_db("old-schema") else {
        return;
    };
    let Some(path) = db.sqlite_path() else {
        println!("skipped: an SQLite file of an old schema, not a PostgreSQL test");
        return;
    };
    {
        let conn = rusqlite::Connection::open(&path).expect("open db");
        conn.execute_batch(
            "CREATE TABLE games(
                id INTEGER PRIMARY KEY AUTOINCREMENT, variant TEXT NOT NULL,
                rules TEXT NOT NULL, handicap TEXT, start_sfen TEXT NOT NULL,
                black TEXT NOT NULL, white TEXT NOT NULL, black_token TEXT,
                white_token TEXT, result_winner TEXT, result_reason TEXT,
                created INTEGER NOT NULL);
             CREATE TABLE moves(game_id INTEGER NOT NULL REFERENCES games(id),
                ply INTEGER NOT NULL, usi TEXT NOT NULL, PRIMARY KEY(game_id, ply));
             INSERT INTO games(variant, rules, start_sfen, black, white, created)
                VALUES ('shogi', '',
                 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
                 '\"human\"', '\"human\"', 0);
             INSERT INTO moves VALUES (1, 1, '7g7f');",
        )
        .expect("old schema");
    }
    let server = Server::start(&db);
    let v = server.get("/api/games/1");
    assert_eq!(moves(&v), ["7g7f"]);
    assert_eq!(v["variations"], json!([]));
    // The new column is there for new imports.
    let (status, v) = server.post(
        "/api/games/import",
        None,
        json!({"text": KIF_WITH_VARIATIONS}),
    );
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["variations"][0]["ply"], 2);
}

#[test]
fn a_database_opens_again_and_one_of_a_newer_schema_is_refused() {
    let Some(db) = temp_db("schema-version") else {
        return;
    };
    let open = || {
        tokio::runtime::Runtime::new()
            .expect("runtime")
            .block_on(banmen_web::app(db.db.clone()))
            .map(drop)
    };
    // Made at version 1; opening it again changes nothing.
    open().expect("a new database");
    open().expect("the same database again");
    // A later banmen's schema.
    match &db.db {
        banmen_web::Database::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).expect("open db");
            conn.pragma_update(None, "user_version", 99)
                .expect("version");
        }
        banmen_web::Database::Postgres(url) => {
            let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
            client
                .execute("UPDATE banmen_schema SET version = $1", &[&99i64])
                .expect("version");
        }
    }
    let refused = open().expect_err("a newer schema");
    assert!(refused.contains("schema is version 99"), "{refused}");
}

/// The `data:` events of a server-sent stream that has ended.
fn sse_events(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).expect("event JSON"))
        .collect()
}

/// A shogi game between two people after these moves.
fn shogi_after(server: &Server, moves: &[&str]) -> i64 {
    let (id, b, w) = two_people(server);
    for (i, m) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { &b } else { &w };
        assert_eq!(server.play(id, token, m).0, 200, "{m}");
    }
    id
}

/// `GET` a server-sent stream to its end: the status and its events.
fn stream(server: &Server, path: &str) -> (u16, Vec<Value>) {
    let (status, text) = raw(server.addr, "GET", path, None, None);
    (status, sse_events(&text))
}

#[test]
fn analysis_streams_the_best_lines_of_a_replayed_position_and_leaves_the_game_alone() {
    let Some(db) = temp_db("analysis") else {
        return;
    };
    let server = Server::start(&db);
    let id = shogi_after(&server, &["7g7f", "3c3d"]);
    let before = server.get(&format!("/api/games/{id}"));
    let (status, events) = stream(
        &server,
        &format!("/api/games/{id}/analysis?ply=1&multipv=3&movetime_ms=200"),
    );
    assert_eq!(status, 200);
    assert_eq!(events[0]["type"], "queued", "{events:?}");
    let done = events.last().expect("events");
    assert_eq!(done["type"], "done", "{done}");
    assert_eq!(done["side_to_move"], "white");
    let infos: Vec<&Value> = events.iter().filter(|e| e["type"] == "info").collect();
    for k in 1..=3 {
        assert!(infos.iter().any(|e| e["multipv"] == k), "line {k}");
    }
    for e in &infos {
        assert!(e["depth"].as_i64().unwrap() >= 1);
        assert!(
            e["score"]["cp"].is_i64() || e["score"]["mate"].is_i64(),
            "{e}"
        );
        // White moves first in these lines, in every notation.
        let japanese = e["pv"]["japanese"][0].as_str().expect("a move");
        assert!(japanese.starts_with('△'), "{japanese}");
        assert_eq!(
            e["pv"]["usi"].as_array().unwrap().len(),
            e["pv"]["western"].as_array().unwrap().len()
        );
    }
    // The three lines of the deepest iteration that reported all three
    // begin with three different moves (lines of different iterations may
    // share one: the second line of one is often the best of the next).
    let depth_of = |e: &&Value| e["depth"].as_i64().unwrap_or(0);
    let full = infos
        .iter()
        .map(&depth_of)
        .filter(|&d| (1..=3).all(|k| infos.iter().any(|e| e["multipv"] == k && depth_of(e) == d)))
        .max()
        .expect("an iteration with three lines");
    let firsts: std::collections::HashSet<&str> = (1..=3)
        .filter_map(|k| {
            infos
                .iter()
                .rfind(|e| e["multipv"] == k && depth_of(e) == full)
        })
        .map(|e| e["pv"]["usi"][0].as_str().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3, "{infos:?}");
    // A variation's position (line=), and the live one (no ply).
    let (status, events) = stream(
        &server,
        &format!("/api/games/{id}/analysis?line=2g2f,8c8d,7g7f&nodes=2000"),
    );
    assert_eq!(status, 200);
    assert_eq!(events.last().unwrap()["side_to_move"], "white");
    let (_, events) = stream(
        &server,
        &format!("/api/games/{id}/analysis?movetime_ms=100"),
    );
    assert_eq!(events.last().unwrap()["side_to_move"], "black");
    let after = server.get(&format!("/api/games/{id}"));
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["clock"]["black_ms"], before["clock"]["black_ms"]);
    assert_eq!(moves(&after), ["7g7f", "3c3d"]);
}

#[test]
fn analysis_of_a_mate_says_the_game_is_over_and_bad_requests_get_4xx_with_a_reason() {
    let Some(db) = temp_db("analysis-errors") else {
        return;
    };
    let server = Server::start(&db);
    let id = shogi_after(&server, &["7g7f", "3c3d"]);
    let cases = [
        (
            format!("/api/games/{id}/analysis?multipv=6"),
            422,
            "multipv must be 1..=5",
        ),
        (
            format!("/api/games/{id}/analysis?multipv=x"),
            422,
            "multipv",
        ),
        (
            format!("/api/games/{id}/analysis?ply=3"),
            422,
            "ply must be 0..=2",
        ),
        (
            format!("/api/games/{id}/analysis?ply=1&line=7g7f"),
            422,
            "not both",
        ),
        (
            format!("/api/games/{id}/analysis?line=7g7f,7g7f"),
            422,
            "move 2 (7g7f)",
        ),
        (
            format!("/api/games/{id}/analysis?movetime_ms=0"),
            422,
            "movetime_ms must be 1..=30000",
        ),
        ("/api/games/999/analysis".into(), 404, "no game 999"),
        (
            "/api/analysis?variant=shogi".into(),
            400,
            "missing parameter 'sfen'",
        ),
        (
            "/api/analysis?variant=chess&sfen=startpos".into(),
            422,
            "chess",
        ),
        (
            "/api/analysis?sfen=4k4/9/9/9/9/9/4P4/4P4/4K4%20b%20-%201".into(),
            422,
            "nifu",
        ),
    ];
    for (path, code, reason) in cases {
        let (status, v) = server.call("GET", &path, None, None);
        assert_eq!(status, code, "{path}: {v}");
        assert!(v["error"].as_str().unwrap().contains(reason), "{path}: {v}");
    }
    // A mated position: nothing to search.
    let mated = "/api/analysis?sfen=4k4/4G4/4P4/9/9/9/9/9/4K4%20w%20-%201";
    let (status, events) = stream(&server, mated);
    assert_eq!(status, 200);
    assert_eq!(events.last().unwrap()["over"], "checkmate", "{events:?}");
    // Dai dai shogi and cannon shogi from an SFEN, a few nodes.
    for variant in ["daidaishogi", "cannonshogi", "minishogi"] {
        let (status, events) = stream(
            &server,
            &format!("/api/analysis?variant={variant}&sfen=startpos&nodes=3000&multipv=2"),
        );
        assert_eq!(status, 200, "{variant}");
        assert!(
            events.iter().any(|e| e["type"] == "info"),
            "{variant}: {events:?}"
        );
        assert!(events.last().unwrap()["best"].is_string(), "{variant}");
    }
}

#[test]
fn an_address_running_more_analyses_than_its_share_loses_its_oldest() {
    let Some(db) = temp_db("analysis-share") else {
        return;
    };
    let server = Server::start_with(&db, Some(bounds(2, None, None)));
    let addr = server.addr;
    let long = |ms: u64| {
        std::thread::spawn(move || {
            let start = Instant::now();
            let path = format!("/api/analysis?sfen=startpos&movetime_ms={ms}");
            let (_, text) = raw(addr, "GET", &path, None, None);
            (start.elapsed(), sse_events(&text))
        })
    };
    let first = long(20_000);
    std::thread::sleep(Duration::from_millis(300));
    let second = long(2_000);
    std::thread::sleep(Duration::from_millis(300));
    let (status, events) = stream(&server, "/api/analysis?sfen=startpos&movetime_ms=100");
    assert_eq!(status, 200);
    assert_eq!(events.last().unwrap()["type"], "done");
    let (took, events) = first.join().expect("first");
    assert!(
        took < Duration::from_secs(10),
        "the oldest went on: {took:?}"
    );
    assert_eq!(events.last().unwrap()["type"], "done");
    second.join().expect("second");
}

#[test]
fn the_editor_checks_positions_plays_from_them_and_solves_tsume() {
    let Some(db) = temp_db("editor") else {
        return;
    };
    let server = Server::start(&db);
    let nifu = "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1";
    let (status, v) = server.post("/api/positions", None, json!({ "sfen": nifu }));
    assert_eq!(status, 422);
    assert_eq!(
        v["problems"],
        json!(["black has two unpromoted pawns on file 5 (nifu)"])
    );
    let (status, v) = server.post(
        "/api/positions",
        None,
        json!({ "variant": "minishogi", "sfen": "rbsgk/4p/5/P4/KGSBR b - 1" }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["legal_moves"], 14);
    assert_eq!(v["position"]["files"], 5);
    let (status, v) = server.post("/api/positions", None, json!({ "sfen": 1 }));
    assert_eq!(status, 400, "{v}");
    let (status, v) = server.post(
        "/api/positions",
        None,
        json!({ "variant": "daidaishogi", "sfen": "startpos" }),
    );
    assert_eq!(status, 200, "{v}");
    // Play from an edited position: refused with the reason, or started from it.
    let human_vs_engine = |sfen: &str| {
        json!({ "variant": "shogi", "sfen": sfen, "black": "human",
                "white": { "engine": { "movetime_ms": 50 } } })
    };
    let (status, v) = server.post("/api/games", None, human_vs_engine(nifu));
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("nifu"), "{v}");
    let mut both = human_vs_engine("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    both["handicap"] = json!("lance");
    assert_eq!(server.post("/api/games", None, both).0, 422);
    let edited = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    let (id, v) = server.create(human_vs_engine(edited));
    assert_eq!(v["start_sfen"], edited);
    let (b, _) = tokens(&v);
    assert_eq!(server.play(id, &b, "G*5b").0, 200);
    let v = wait_for(&server, id, |v| !v["result"].is_null());
    assert_eq!(v["result"]["winner"], "black", "{v}");
    // Tsume: the attacker has no king; the defender holds the rest.
    let (status, v) = server.post(
        "/api/tsume",
        None,
        json!({ "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G 1", "movetime_ms": 3000 }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], "mate");
    assert_eq!(v["plies"], 1);
    assert_eq!(v["line"][0]["usi"], "G*5b");
    assert_eq!(v["line"][0]["western"], "G*5b");
    assert_eq!(v["line"][0]["position"]["board"][1][4], "G");
    let (status, v) = server.post(
        "/api/tsume",
        None,
        json!({ "sfen": "4k4/9/9/9/9/9/9/9/9 b P 1", "movetime_ms": 3000 }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], "nomate", "{v}");
    let (status, v) = server.post(
        "/api/tsume",
        None,
        json!({ "sfen": "4k4/9/9/9/9/9/9/9/9 b P 1", "movetime_ms": 0 }),
    );
    assert_eq!(status, 422, "{v}");
}

/// Asks for the game's review (`path`) until it is done, for at most 60 s:
/// every answer seen.
fn review_until_done(server: &Server, path: &str) -> Vec<Value> {
    let start = Instant::now();
    let mut seen = Vec::new();
    loop {
        let v = server.get(path);
        let done = v["state"] == "done";
        seen.push(v);
        if done {
            return seen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{:?}",
            seen.last()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A shogi game between two people after `n` moves drawn by a fixed rule.
fn shogi_of(server: &Server, n: usize) -> i64 {
    let (id, b, w) = two_people(server);
    let mut v = server.get(&format!("/api/games/{id}"));
    for i in 0..n {
        let legal = v["legal_moves"].as_array().expect("legal moves");
        let m = legal[(i * 7 + 3) % legal.len()]
            .as_str()
            .unwrap()
            .to_string();
        let token = if i % 2 == 0 { &b } else { &w };
        let (status, next) = server.play(id, token, &m);
        assert_eq!(status, 200, "{m}: {next}");
        v = next;
    }
    id
}

#[test]
fn a_review_runs_in_the_background_shows_its_progress_and_judges_the_moves() {
    let Some(db) = temp_db("review") else {
        return;
    };
    let server = Server::start(&db);
    // Black puts its bishop where White's takes it (8h3c??, 2bx3c).
    let id = shogi_after(&server, &["7g7f", "3c3d", "8h3c", "2b3c"]);
    let path = format!("/api/games/{id}/review?movetime_ms=100");
    // The first answer comes at once: the review started, nothing done yet.
    let first = server.get(&path);
    assert_eq!(first["state"], "running", "{first}");
    assert_eq!(first["done"], 0);
    assert_eq!(first["total"], 5);
    let seen = review_until_done(&server, &path);
    // Asked again while it runs, the same review goes on: progress only grows.
    let done: Vec<u64> = seen.iter().map(|v| v["done"].as_u64().unwrap()).collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    let last = seen.last().unwrap();
    assert_eq!(last["done"], 5);
    let plies = last["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 5, "{last}");
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["ply"], i);
        let c = p["black_chances"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&c), "{p}");
    }
    assert_eq!(plies[3]["move"], "8h3c");
    assert_eq!(plies[3]["judgement"], "blunder", "{plies:?}");
    assert!(plies[4]["black_chances"].as_f64().unwrap() < -0.3);
    // Kept with the game: asked again, the same review at once, also after
    // a restart; `fresh` searches again from the start.
    drop(server);
    let server = Server::start(&db);
    let again = server.get(&format!("/api/games/{id}/review"));
    assert_eq!(again["state"], "done");
    assert_eq!(again["plies"], last["plies"]);
    let fresh = server.get(&format!("/api/games/{id}/review?fresh=1&nodes=500"));
    assert_eq!(fresh["state"], "running");
    assert_eq!(fresh["done"], 0);
    for bad in ["movetime_ms=6000", "movetime_ms=0", "nodes=x"] {
        let (status, v) = server.call("GET", &format!("/api/games/{id}/review?{bad}"), None, None);
        assert_eq!(status, 422, "{bad}: {v}");
    }
    let (status, _) = server.call("GET", "/api/games/999/review", None, None);
    assert_eq!(status, 404);
}

#[test]
fn a_review_cut_short_by_a_restart_goes_on_from_where_it_was() {
    let Some(db) = temp_db("review-restart") else {
        return;
    };
    let path = {
        let server = Server::start(&db);
        let id = shogi_of(&server, 24);
        let path = format!("/api/games/{id}/review?movetime_ms=150");
        let start = Instant::now();
        loop {
            let v = server.get(&path);
            // Stored every 8 positions: stop once some are.
            if v["done"].as_u64().unwrap() >= 10 {
                assert_eq!(v["state"], "running", "{v}");
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "{v}");
            std::thread::sleep(Duration::from_millis(50));
        }
        path
    };
    let server = Server::start(&db);
    let v = server.get(&path);
    assert_eq!(v["state"], "running");
    assert!(v["done"].as_u64().unwrap() >= 8, "{v}");
    let last = review_until_done(&server, &path).pop().unwrap();
    assert_eq!(last["done"], 25);
    let plies: Vec<u64> = last["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, (0..25).collect::<Vec<u64>>());
}

#[test]
fn an_address_runs_at_most_two_reviews_at_once() {
    let Some(db) = temp_db("review-share") else {
        return;
    };
    let server = Server::start_with(&db, Some(bounds(1, None, None)));
    let games: Vec<i64> = (0..3).map(|_| shogi_of(&server, 6)).collect();
    for &id in &games[..2] {
        let v = server.get(&format!("/api/games/{id}/review?movetime_ms=3000"));
        assert_eq!(v["state"], "running", "{v}");
    }
    let (status, v) = server.call(
        "GET",
        &format!("/api/games/{}/review?movetime_ms=3000", games[2]),
        None,
        None,
    );
    assert_eq!(status, 429, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("too many reviews"),
        "{v}"
    );
    // Asking again for a running one is no new review.
    let v = server.get(&format!("/api/games/{}/review", games[0]));
    assert_eq!(v["state"], "running", "{v}");
}

#[test]
fn tsume_solved_by_the_player_checks_each_move_and_plays_the_defence() {
    let Some(db) = temp_db("tsume-check") else {
        return;
    };
    let server = Server::start(&db);
    // B*3c, 1a2a, G*2b: mate in three.
    let problem = "8k/8s/7p1/9/7N1/9/9/9/4K4 b BG 1";
    let check = |moves: &[&str]| {
        server.post(
            "/api/tsume/check",
            None,
            json!({ "sfen": problem, "moves": moves, "movetime_ms": 5000 }),
        )
    };
    // No move yet: the problem, with the attacker's moves.
    let (status, v) = check(&[]);
    assert_eq!(status, 200, "{v}");
    assert!(v["verdict"].is_null(), "{v}");
    assert_eq!(v["side_to_move"], "black");
    assert!(v["legal_moves"]
        .as_array()
        .unwrap()
        .contains(&json!("B*3c")));
    // The key move: the defence answers with its only escape.
    let (status, v) = check(&["B*3c"]);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verdict"], "correct", "{v}");
    assert_eq!(v["move"]["usi"], "B*3c");
    assert_eq!(v["move"]["japanese"], "▲３三角");
    assert_eq!(v["reply"]["usi"], "1a2a");
    assert_eq!(v["mate_in"], 1);
    assert_eq!(v["side_to_move"], "black");
    assert_eq!(v["position"]["board"][0][7], "k");
    assert!(v["legal_moves"]
        .as_array()
        .unwrap()
        .contains(&json!("G*2b")));
    // The mate.
    let (status, v) = check(&["B*3c", "1a2a", "G*2b"]);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verdict"], "solved", "{v}");
    assert_eq!(v["legal_moves"], json!([]));
    // Wrong moves: not a check; a check the king escapes by taking.
    let (status, v) = check(&["B*9a"]);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verdict"], "wrong");
    assert!(v["reason"].as_str().unwrap().contains("not a check"), "{v}");
    let (status, v) = server.post(
        "/api/tsume/check",
        None,
        json!({ "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G 1", "moves": ["G*4a"] }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verdict"], "wrong", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("no mate"), "{v}");
    assert!(
        v["escape"]["usi"].as_str().unwrap().starts_with("5a"),
        "{v}"
    );
    assert_eq!(v["side_to_move"], "white");
    // A tsume of another game: mini shogi, mate in one.
    let (status, v) = server.post(
        "/api/tsume/check",
        None,
        json!({ "variant": "minishogi", "sfen": "2k2/5/2P2/5/5 b G 1", "moves": ["G*3b"] }),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["verdict"], "solved", "{v}");
    // Dai dai shogi (no drops): the gold mates from 8c, protected by the
    // pawn; from 8b the king takes it.
    let dai_dai = format!("8kg8/17/8PAGG7/{} b - 1", ["17"; 14].join("/"));
    for (mv, verdict) in [("8c9b", "solved"), ("8c8b", "wrong")] {
        let (status, v) = server.post(
            "/api/tsume/check",
            None,
            json!({ "variant": "daidaishogi", "sfen": dai_dai, "moves": [mv] }),
        );
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["verdict"], verdict, "{mv}: {v}");
        assert_eq!(v["position"]["files"], 17);
    }
    // Bad input: 4xx with the reason.
    let cases = [
        (
            json!({ "sfen": problem, "moves": ["5e5d"] }),
            422,
            "move 1 (5e5d)",
        ),
        (
            json!({ "sfen": problem, "moves": ["B*3c", "1a1a"] }),
            422,
            "move 2 (1a1a)",
        ),
        (
            json!({ "sfen": problem, "movetime_ms": 0 }),
            422,
            "movetime_ms must be 1..=30000",
        ),
        (
            json!({ "sfen": "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1" }),
            422,
            "nifu",
        ),
        (json!({ "variant": "chess", "sfen": problem }), 422, "chess"),
        (
            json!({ "sfen": problem, "moves": "B*3c" }),
            400,
            "malformed JSON",
        ),
        (
            json!({ "sfen": problem, "move": ["B*3c"] }),
            400,
            "unknown field",
        ),
        (json!({ "moves": [] }), 400, "missing field `sfen`"),
    ];
    for (body, code, reason) in cases {
        let (status, v) = server.post("/api/tsume/check", None, body.clone());
        assert_eq!(status, code, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(reason), "{body}: {v}");
    }
}

#[test]
fn side_lines_saved_while_analysing_join_the_record_tree_and_its_exports() {
    let Some(db) = temp_db("side-lines") else {
        return;
    };
    let id = {
        let server = Server::start(&db);
        let (id, black, white) = two_people(&server);
        for (i, m) in ["7g7f", "3c3d", "2g2f", "8c8d"].iter().enumerate() {
            let token = if i % 2 == 0 { &black } else { &white };
            assert_eq!(server.play(id, token, m).0, 200, "{m}");
        }
        let path = format!("/api/games/{id}/variations");
        let save = |line: &[&str]| server.post(&path, Some(&black), json!({ "line": line }));
        let version = server.get(&format!("/api/games/{id}"))["version"].clone();
        // A side line at move 2, then longer, then one branching off it.
        let (status, v) = save(&["7g7f", "8c8d"]);
        assert_eq!(status, 200, "{v}");
        assert_eq!(tree(&v["variations"]), json!([[2, ["8c8d"], []]]));
        assert_eq!(v["variations"][0]["moves"][0]["japanese"], "△８四歩");
        assert!(v["version"].as_u64() > version.as_u64());
        assert_eq!(moves(&v), ["7g7f", "3c3d", "2g2f", "8c8d"]);
        let (status, v) = save(&["7g7f", "8c8d", "2g2f", "8d8e"]);
        assert_eq!(status, 200, "{v}");
        let (status, v) = save(&["7g7f", "8c8d", "6i7h"]);
        assert_eq!(status, 200, "{v}");
        // Off the main line again, at move 4 (White's token may save too).
        let (status, v) = server.post(
            &path,
            Some(&white),
            json!({ "line": ["7g7f", "3c3d", "2g2f", "4c4d"] }),
        );
        assert_eq!(status, 200, "{v}");
        let expected = json!([
            [2, ["8c8d", "2g2f", "8d8e"], [[3, ["6i7h"], []]]],
            [4, ["4c4d"], []]
        ]);
        assert_eq!(tree(&v["variations"]), expected);
        // Lines already in the record change nothing.
        let version = v["version"].clone();
        for line in [&["7g7f", "8c8d", "2g2f"][..], &["7g7f", "3c3d"][..]] {
            let (status, v) = save(line);
            assert_eq!(status, 200, "{v}");
            assert_eq!(v["version"], version);
            assert_eq!(tree(&v["variations"]), expected);
        }
        // The exports that hold variations write them as branches.
        let (status, text) = server.export(id, "kifu");
        assert_eq!(status, 200);
        for mark in ["変化：2手", "変化：3手", "変化：4手", "４四歩(43)"] {
            assert!(text.contains(mark), "{mark}:\n{text}");
        }
        let (status, back) = server.post(
            "/api/games/import",
            None,
            json!({ "text": text, "format": "kifu" }),
        );
        assert_eq!(status, 201, "{back}");
        assert_eq!(tree(&back["variations"]), expected);
        let (status, text) = server.export(id, "ki2");
        assert_eq!(status, 200);
        assert!(text.contains("変化：3手"), "{text}");
        // Bad requests: the reason, and the record as it was.
        let cases = [
            (None, json!({ "line": ["2g2f"] }), 401, "Authorization"),
            (Some("nope"), json!({ "line": ["2g2f"] }), 403, "no seat"),
            (Some(black.as_str()), json!({ "line": [] }), 422, "line"),
            (
                Some(black.as_str()),
                json!({ "line": ["7g7f", "7g7f"] }),
                422,
                "move 2 (7g7f)",
            ),
            (
                Some(black.as_str()),
                json!({ "line": "7g7f" }),
                400,
                "malformed JSON",
            ),
        ];
        for (token, body, code, reason) in cases {
            let (status, v) = server.post(&path, token, body.clone());
            assert_eq!(status, code, "{body}: {v}");
            assert!(v["error"].as_str().unwrap().contains(reason), "{body}: {v}");
        }
        let (status, _) = server.post(
            "/api/games/999/variations",
            Some(&black),
            json!({ "line": ["2g2f"] }),
        );
        assert_eq!(status, 404);
        assert_eq!(
            tree(&server.get(&format!("/api/games/{id}"))["variations"]),
            expected
        );
        id
    };
    // Stored with the game.
    let server = Server::start(&db);
    let v = server.get(&format!("/api/games/{id}"));
    assert_eq!(
        tree(&v["variations"]),
        json!([
            [2, ["8c8d", "2g2f", "8d8e"], [[3, ["6i7h"], []]]],
            [4, ["4c4d"], []]
        ])
    );
}

/// Two servers on one PostgreSQL database (issue 18): a game made on one is
/// served by the other, a move on one reaches the other's event stream
/// (`LISTEN/NOTIFY`), and moves sent to both at once for the same ply are
/// decided once: one is played, the other refused, and both servers then
/// show the same game. SQLite has one server per file: skipped there.
#[test]
fn two_servers_on_one_database_decide_each_move_once() {
    if !on_postgres() {
        println!("skipped: two servers share a PostgreSQL database only");
        return;
    }
    let Some(db) = temp_db("two-servers") else {
        return;
    };
    let a = Server::start(&db);
    let b = Server::start(&db);
    let (id, created) = a.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    let (black, white) = tokens(&created);
    // Made on A, read by B on demand, and listed there.
    assert_eq!(
        moves(&b.get(&format!("/api/games/{id}"))),
        Vec::<String>::new()
    );
    let listed = b.get("/api/games");
    assert!(
        listed.as_array().unwrap().iter().any(|g| g["id"] == id),
        "{listed}"
    );

    // B's event stream sees A's move.
    let mut events = Events::open(b.addr, id);
    events.read_until("\"moves\":[]");
    let (status, v) = a.play(id, &black, "7g7f");
    assert_eq!(status, 200, "{v}");
    events.read_until("\"moves\":[\"7g7f\"]");
    // And A sees B's.
    let (status, v) = b.play(id, &white, "3c3d");
    assert_eq!(status, 200, "{v}");
    assert_eq!(moves(&a.get(&format!("/api/games/{id}"))), ["7g7f", "3c3d"]);

    // The same side moves on both servers at once, ten times (two of its
    // legal moves): each ply gets one move, and the other request is
    // refused with 409.
    let mut expected = vec!["7g7f".to_string(), "3c3d".to_string()];
    for round in 0..10 {
        let now = a.get(&format!("/api/games/{id}"));
        let legal: Vec<String> = now["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        // Which request wins each round decides the game, so a position
        // may have few moves (a check): two of them, different when it can.
        let n = legal.len();
        assert!(n > 0, "{now}");
        let i = round % n;
        let j = if n - 1 - i != i {
            n - 1 - i
        } else {
            (i + 1) % n
        };
        let (one, other) = (&legal[i], &legal[j]);
        let token = if round % 2 == 0 { &black } else { &white };
        let (r1, r2) = std::thread::scope(|scope| {
            let t1 = scope.spawn(|| a.play(id, token, one));
            let t2 = scope.spawn(|| b.play(id, token, other));
            (t1.join().unwrap(), t2.join().unwrap())
        });
        let played = match (r1.0, r2.0) {
            (200, 409) => one,
            (409, 200) => other,
            _ => panic!("{one} on A: {r1:?}; {other} on B: {r2:?}"),
        };
        expected.push(played.to_string());
        let on_a = moves(&a.get(&format!("/api/games/{id}")));
        let on_b = moves(&b.get(&format!("/api/games/{id}")));
        assert_eq!(on_a, expected);
        assert_eq!(on_b, expected);
    }
    // What the database holds, read by a third server.
    drop((a, b));
    let c = Server::start(&db);
    assert_eq!(moves(&c.get(&format!("/api/games/{id}"))), expected);
}

/// The version check under every write, deterministically: two servers on
/// one SQLite file (not a supported set-up: SQLite servers do not look for
/// other writers, so the second one's copy stays old). Both hold the game
/// at the same version; A's move is stored; B's move for the same ply,
/// decided on its old copy, is refused with 409 instead of replacing A's,
/// and B then reads the game again and shows A's move.
#[test]
fn a_write_decided_on_an_old_copy_is_refused() {
    if on_postgres() {
        println!("skipped: on PostgreSQL a server reads a changed game again before it writes");
        return;
    }
    let Some(db) = temp_db("old-copy") else {
        return;
    };
    let a = Server::start(&db);
    let (id, created) = a.create(json!({"variant": "shogi", "black": "human", "white": "human"}));
    let (black, _) = tokens(&created);
    let b = Server::start(&db);
    assert_eq!(
        moves(&b.get(&format!("/api/games/{id}"))),
        Vec::<String>::new()
    );
    let (status, v) = a.play(id, &black, "7g7f");
    assert_eq!(status, 200, "{v}");
    let (status, v) = b.play(id, &black, "2g2f");
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("changed meanwhile"),
        "{v}"
    );
    assert_eq!(moves(&b.get(&format!("/api/games/{id}"))), ["7g7f"]);
    assert_eq!(moves(&a.get(&format!("/api/games/{id}"))), ["7g7f"]);
    drop((a, b));
    let c = Server::start(&db);
    assert_eq!(moves(&c.get(&format!("/api/games/{id}"))), ["7g7f"]);
}

/// A PostgreSQL database for a test of workers (`None` on SQLite, said).
fn workers_db(name: &str) -> Option<TestDb> {
    if !on_postgres() {
        println!("skipped: workers need PostgreSQL");
        return None;
    }
    temp_db(name)
}

/// The one number `sql` counts on the test's PostgreSQL database.
fn count(db: &TestDb, sql: &str) -> i64 {
    let banmen_web::Database::Postgres(url) = &db.db else {
        panic!("not PostgreSQL")
    };
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    client.query_one(sql, &[]).expect(sql).get(0)
}

fn worker_bounds() -> banmen_web::Bounds {
    banmen_web::Bounds {
        workers: true,
        ..bounds(2, None, None)
    }
}

/// The engine queue of issue 18: servers started with `workers` leave the
/// engines' moves to `banmen worker`, which takes them from the database.
#[test]
fn workers_play_the_engine_moves_that_servers_queue() {
    let Some(db) = temp_db("workers") else {
        return;
    };
    if !on_postgres() {
        // SQLite: a server with workers, and a worker, are refused.
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let refused = rt
            .block_on(banmen_web::app_with(db.db.clone(), worker_bounds()))
            .expect_err("refused");
        assert!(refused.contains("PostgreSQL"), "{refused}");
        let opts = banmen_web::WorkerOptions::new(db.db.clone(), 1);
        let refused = banmen_web::Worker::start(&opts).expect_err("refused");
        assert!(refused.contains("PostgreSQL"), "{refused}");
        return;
    }
    let a = Server::start_with(&db, Some(worker_bounds()));
    let b = Server::start_with(&db, Some(worker_bounds()));
    let engine = json!({"engine": {"movetime_ms": 100}});
    let (id, created) = a.create(json!({"variant": "shogi", "black": "human", "white": engine}));
    let (black, _) = tokens(&created);
    let (status, v) = a.play(id, &black, "7g7f");
    assert_eq!(status, 200, "{v}");
    // An engine that moves first: queued at creation, on the other server.
    let (first, _) = b.create(json!({"variant": "cannonshogi", "black": engine, "white": "human"}));
    // Two engines, one game: each move queues the next.
    let (both, _) = a.create(json!({"variant": "shogi", "black": engine, "white": engine}));
    // No worker yet: the servers do not search.
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(moves(&b.get(&format!("/api/games/{id}"))), ["7g7f"]);
    assert!(moves(&a.get(&format!("/api/games/{first}"))).is_empty());

    let worker = banmen_web::Worker::start(&banmen_web::WorkerOptions::new(db.db.clone(), 2))
        .expect("worker");
    let v = wait_for(&b, id, |v| moves(v).len() == 2);
    assert_eq!(v["side_to_move"], "black");
    wait_for(&a, first, |v| moves(v).len() == 1);
    wait_for(&b, both, |v| moves(v).len() >= 4);

    // A take-back while the worker thinks: its move is refused as stale
    // (the game's version moved on), so no late reply.
    let (status, v) = b.play(id, &black, "2g2f");
    assert_eq!(status, 200, "{v}");
    let (status, v) = a.post(&format!("/api/games/{id}/undo"), Some(&black), json!({}));
    assert_eq!(status, 200, "{v}");
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(moves(&b.get(&format!("/api/games/{id}"))).len(), 2);
    worker.stop();

    // A search held by a worker that died: taken again when its lease runs out.
    let banmen_web::Database::Postgres(url) = &db.db else {
        unreachable!()
    };
    let (status, v) = b.play(id, &black, "2g2f");
    assert_eq!(status, 200, "{v}");
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    let taken = client
        .execute(
            "UPDATE searches SET state = 'running', taken_by = 'dead',
                lease_until = now() + interval '1500 milliseconds' WHERE game_id = $1",
            &[&id],
        )
        .expect("take");
    assert_eq!(taken, 1);
    let t = Instant::now();
    let worker = banmen_web::Worker::start(&banmen_web::WorkerOptions::new(db.db.clone(), 1))
        .expect("worker");
    wait_for(&a, id, |v| moves(v).len() == 4);
    assert!(
        t.elapsed() >= Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    worker.stop();
    // Played searches leave the queue (the engine-only game's last one may be
    // left, for its version).
    let left = count(
        &db,
        &format!("SELECT count(*) FROM searches WHERE game_id <> {both}"),
    );
    assert_eq!(left, 0);
}

/// Game reviews through the workers' queue: a server with workers queues
/// the review, a worker searches each position and stores it as it goes,
/// and any server answers with the stored progress.
#[test]
fn workers_run_the_reviews_servers_queue() {
    let Some(db) = workers_db("worker-review") else {
        return;
    };
    let a = Server::start_with(&db, Some(worker_bounds()));
    let b = Server::start_with(&db, Some(worker_bounds()));
    let id = shogi_after(&a, &["7g7f", "3c3d", "8h3c", "2b3c"]);
    let path = format!("/api/games/{id}/review?movetime_ms=100");
    let first = a.get(&path);
    assert_eq!(first["state"], "running", "{first}");
    assert_eq!(first["total"], 5);
    // No worker: nothing is searched, and asking again queues nothing more.
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(b.get(&path)["done"], 0);
    let worker = banmen_web::Worker::start(&banmen_web::WorkerOptions::new(db.db.clone(), 1))
        .expect("worker");
    let seen = review_until_done(&b, &path);
    worker.stop();
    let done: Vec<u64> = seen.iter().map(|v| v["done"].as_u64().unwrap()).collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    let last = seen.last().unwrap();
    let plies = last["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 5, "{last}");
    assert_eq!(plies[3]["move"], "8h3c");
    assert_eq!(plies[3]["judgement"], "blunder", "{plies:?}");
    assert_eq!(a.get(&path)["plies"], last["plies"]);
    // `fresh` drops the stored review and queues it again.
    let fresh = a.get(&format!("/api/games/{id}/review?fresh=1&nodes=500"));
    assert_eq!(fresh["state"], "running");
    assert_eq!(fresh["done"], 0);
    let queued = count(&db, "SELECT count(*) FROM searches WHERE kind = 'review'");
    assert_eq!(queued, 1);
}

/// Analyses through the workers' queue: the server queues the search, a
/// worker runs it and sends each line back by `NOTIFY`, and the server
/// streams them to its client; a closed stream takes the search off the
/// queue and stops the worker.
#[test]
fn workers_run_the_analyses_servers_queue_and_stop_when_the_client_leaves() {
    let Some(db) = workers_db("worker-analysis") else {
        return;
    };
    let a = Server::start_with(&db, Some(worker_bounds()));
    let id = shogi_after(&a, &["7g7f", "3c3d"]);
    // No worker: the stream ends with a reason after 10 s, and the search
    // leaves the queue.
    let t = Instant::now();
    let (status, events) = stream(&a, &format!("/api/games/{id}/analysis?movetime_ms=300"));
    assert_eq!(status, 200);
    let last = events.last().expect("events");
    assert_eq!(last["type"], "done", "{events:?}");
    assert!(
        last["error"].as_str().unwrap().contains("no engine worker"),
        "{last}"
    );
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(count(&db, "SELECT count(*) FROM searches"), 0);
    let worker = banmen_web::Worker::start(&banmen_web::WorkerOptions::new(db.db.clone(), 1))
        .expect("worker");
    let (status, events) = stream(
        &a,
        &format!("/api/games/{id}/analysis?ply=1&multipv=2&movetime_ms=300"),
    );
    assert_eq!(status, 200);
    assert_eq!(events[0]["type"], "queued", "{events:?}");
    let done = events.last().expect("events");
    assert_eq!(done["type"], "done", "{done}");
    assert_eq!(done["side_to_move"], "white");
    let infos: Vec<&Value> = events.iter().filter(|e| e["type"] == "info").collect();
    assert!(infos.iter().any(|e| e["multipv"] == 2), "{events:?}");
    let japanese = infos[0]["pv"]["japanese"][0].as_str().expect("a move");
    assert!(japanese.starts_with('△'), "{japanese}");
    // Any position, with no game.
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let (status, events) = stream(
        &a,
        &format!(
            "/api/analysis?variant=shogi&sfen={}&nodes=3000",
            sfen.replace(' ', "%20")
        ),
    );
    assert_eq!(status, 200);
    assert_eq!(
        events.last().unwrap()["side_to_move"],
        "black",
        "{events:?}"
    );

    // A long analysis whose client leaves after its first line.
    let mut s = TcpStream::connect(a.addr).expect("connect");
    write!(
        s,
        "GET /api/games/{id}/analysis?movetime_ms=30000 HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .expect("send");
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while !seen.contains("\"type\":\"info\"") {
        let n = s.read(&mut buf).expect("read");
        assert!(n > 0, "{seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    drop(s);
    // The search leaves the queue, and the worker is free at once for the
    // next one (a short analysis, done long before 30 s).
    let t = Instant::now();
    let (_, events) = stream(&a, &format!("/api/games/{id}/analysis?movetime_ms=100"));
    assert_eq!(events.last().unwrap()["type"], "done", "{events:?}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    worker.stop();
    assert_eq!(count(&db, "SELECT count(*) FROM searches"), 0);
}
