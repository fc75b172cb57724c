//! `banmen serve` as a process: a game survives `kill -9` of the server (on
//! SQLite, and on PostgreSQL when `BANMEN_TEST_POSTGRES` names a server), two
//! servers on one PostgreSQL database lose no move when one is killed, the
//! engine searches it had queued start again, through its bounded pool, and a
//! `--db` it cannot use is an error, not a panic.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    let (head, rest) = out.split_once("\r\n\r\n")?;
    Some((
        head.split_whitespace().nth(1)?.parse().ok()?,
        rest.to_string(),
    ))
}

/// A running server, killed as by `kill -9` when dropped (also when a test fails).
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the server (with more options, `args`) and waits until it answers.
fn serve(db: impl AsRef<OsStr>, args: &[&str]) -> (Served, u16) {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .args(["serve", "--port", &port.to_string(), "--db"])
        .arg(db)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn banmen serve");
    let start = Instant::now();
    while request(port, "GET", "/api/games", None, "").is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (Served(child), port)
}

/// The value of `"key":"` in a JSON text (enough for tokens and the SFEN).
fn field(json: &str, key: &str) -> String {
    let pat = format!("\"{key}\":\"");
    let at = json
        .find(&pat)
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        + pat.len();
    json[at..].split('"').next().expect("value").to_string()
}

/// The number after `"key":` in a JSON text.
fn number(json: &str, key: &str) -> u64 {
    let pat = format!("\"{key}\":");
    let at = json
        .find(&pat)
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        + pat.len();
    let digits: String = json[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("{key} is not a number in {json}"))
}

/// The moves of game `id` as the server on `port` has them.
fn stored_moves(port: u16, id: i64) -> Vec<String> {
    let (status, text) = request(port, "GET", &format!("/api/games/{id}"), None, "").expect("get");
    assert_eq!(status, 200, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A fresh directory for one test's database.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("banmen-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_game_survives_kill_9() {
    let dir = temp_dir("test");
    game_survives_kill_9(dir.join("games.sqlite").as_os_str());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database of its own on the PostgreSQL server `BANMEN_TEST_POSTGRES`
/// names, dropped when this goes away; `None` (the test says it is
/// skipped) without that variable.
struct PgDb {
    server: String,
    database: String,
    url: String,
}

impl PgDb {
    fn new(name: &str) -> Option<PgDb> {
        let Ok(server) = std::env::var("BANMEN_TEST_POSTGRES") else {
            println!("skipped: BANMEN_TEST_POSTGRES not set");
            return None;
        };
        let database = format!("banmen_serve_{name}_{}", std::process::id());
        let (scheme, rest) = server.split_once("://").expect("a postgres:// address");
        let host_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let url = format!("{scheme}://{}/{database}", &rest[..host_end]);
        let db = PgDb {
            server,
            database,
            url,
        };
        db.admin(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            db.database
        ));
        db.admin(&format!("CREATE DATABASE {}", db.database));
        Some(db)
    }

    fn admin(&self, sql: &str) {
        let mut client = postgres::Client::connect(&self.server, postgres::NoTls)
            .unwrap_or_else(|e| panic!("BANMEN_TEST_POSTGRES={}: {e}", self.server));
        client.batch_execute(sql).expect(sql);
    }
}

impl Drop for PgDb {
    fn drop(&mut self) {
        self.admin(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.database
        ));
    }
}

#[test]
fn a_game_survives_kill_9_on_postgres() {
    let Some(db) = PgDb::new("kill") else { return };
    game_survives_kill_9(OsStr::new(&db.url));
}

/// Issue 18: two servers on one PostgreSQL database, four games played at
/// once with each game's moves sent to the two servers in turn, and one
/// server killed (`kill -9`) in the middle: every acknowledged move is
/// stored, each game goes on on the other server, and a server started
/// afterwards reads the same games.
#[test]
fn two_servers_one_killed_lose_no_acknowledged_move() {
    let Some(db) = PgDb::new("two") else { return };
    let (a, port_a) = serve(&db.url, &[]);
    let (_b, port_b) = serve(&db.url, &[]);
    let games: Vec<_> = (0..4).map(|_| people_game(port_a)).collect();
    let a_killed = AtomicBool::new(false);
    let plies = 24;
    let played: Vec<(i64, Vec<String>, usize)> = std::thread::scope(|scope| {
        let threads: Vec<_> = games
            .iter()
            .map(|(id, tokens)| {
                let a_killed = &a_killed;
                scope.spawn(move || {
                    let (acknowledged, after_kill) =
                        play_people_game([port_a, port_b], a_killed, *id, tokens, plies);
                    (*id, acknowledged, after_kill)
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        drop(a); // kill -9, in the middle of the games
        a_killed.store(true, Ordering::SeqCst);
        threads
            .into_iter()
            .map(|t| t.join().expect("client"))
            .collect()
    });
    let (_c, port_c) = serve(&db.url, &[]);
    for (id, acknowledged, after_kill) in played {
        assert_eq!(acknowledged.len(), plies, "game {id}");
        assert!(after_kill > 0, "game {id} went on after the kill");
        for port in [port_b, port_c] {
            assert_eq!(
                stored_moves(port, id),
                acknowledged,
                "game {id} on port {port}"
            );
        }
    }
}

/// A game between two people made on `port`: its id and seat tokens.
fn people_game(port: u16) -> (i64, [String; 2]) {
    let (status, created) = request(
        port,
        "POST",
        "/api/games",
        None,
        r#"{"variant":"shogi","black":"human","white":"human"}"#,
    )
    .expect("create");
    assert_eq!(status, 201, "{created}");
    let v: serde_json::Value = serde_json::from_str(&created).expect("json");
    let token = |side: &str| v["tokens"][side].as_str().expect("token").to_string();
    (
        v["id"].as_i64().expect("id"),
        [token("black"), token("white")],
    )
}

/// Plays `plies` moves of game `id` between two people, Black's moves sent
/// to server A (`ports[0]`) until `a_killed`, the others to B: the moves
/// the servers acknowledged, and how many came after A was killed. A move
/// whose request A died under counts when B has it stored, else it is sent
/// again to B.
fn play_people_game(
    ports: [u16; 2],
    a_killed: &AtomicBool,
    id: i64,
    tokens: &[String; 2],
    plies: usize,
) -> (Vec<String>, usize) {
    let [port_a, port_b] = ports;
    let mut acknowledged: Vec<String> = Vec::new();
    let mut after_kill = 0;
    let mut state = request(port_b, "GET", &format!("/api/games/{id}"), None, "")
        .expect("get")
        .1;
    for ply in 0..plies {
        let v: serde_json::Value = serde_json::from_str(&state).expect("json");
        let legal = v["legal_moves"].as_array().expect("legal moves");
        let mv = legal[(ply * 7) % legal.len()].as_str().unwrap().to_string();
        let body = format!(r#"{{"move":"{mv}"}}"#);
        let path = format!("/api/games/{id}/moves");
        let token = Some(tokens[ply % 2].as_str());
        let killed = a_killed.load(Ordering::SeqCst);
        let port = if ply % 2 == 0 && !killed {
            port_a
        } else {
            port_b
        };
        match request(port, "POST", &path, token, &body) {
            Some((200, next)) => {
                acknowledged.push(mv);
                if killed {
                    after_kill += 1;
                }
                state = next;
            }
            Some((status, text)) => panic!("game {id} ply {ply}: {status} {text}"),
            None => {
                let now = request(port_b, "GET", &format!("/api/games/{id}"), None, "")
                    .expect("B answers")
                    .1;
                if stored_moves(port_b, id).len() > acknowledged.len() {
                    acknowledged.push(mv); // stored, then A died
                } else {
                    // Not stored: play it again, on B.
                    let (status, next) = request(port_b, "POST", &path, token, &body).expect("B");
                    assert_eq!(status, 200, "{next}");
                    acknowledged.push(mv);
                    after_kill += 1;
                    state = next;
                    continue;
                }
                state = now;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    (acknowledged, after_kill)
}

/// A game with a clock, one move played, `kill -9`, a new server on `db`:
/// the move and the clocks are there.
fn game_survives_kill_9(db: &OsStr) {
    let (child, port) = serve(db, &[]);
    let (status, created) = request(
        port,
        "POST",
        "/api/games",
        None,
        r#"{"variant":"shogi","black":"human","white":"human",
            "clock":{"main_ms":600000,"byoyomi_ms":30000}}"#,
    )
    .expect("create");
    assert_eq!(status, 201, "{created}");
    let tokens_at = created.find("\"tokens\"").expect("tokens");
    let black = field(&created[tokens_at..], "black");
    let (status, after) = request(
        port,
        "POST",
        "/api/games/1/moves",
        Some(&black),
        r#"{"move":"7g7f"}"#,
    )
    .expect("move");
    assert_eq!(status, 200, "{after}");
    let sfen = field(&after, "sfen");
    let black_left = number(&after, "black_left_ms");
    assert!(black_left <= 600_000, "{after}");
    drop(child); // kill -9

    let (child, port) = serve(db, &[]);
    let (status, state) = request(port, "GET", "/api/games/1", None, "").expect("get");
    drop(child); // kill -9
    assert_eq!(status, 200, "{state}");
    assert_eq!(field(&state, "sfen"), sfen);
    assert!(state.contains("\"moves\":[\"7g7f\"]"), "{state}");
    // The clocks too: Black's main time as the move left it.
    assert_eq!(number(&state, "black_left_ms"), black_left, "{state}");
    assert_eq!(number(&state, "byoyomi_ms"), 30000, "{state}");
}

#[test]
fn searches_queued_at_kill_9_run_again_through_the_pool() {
    let dir = temp_dir("pool");
    let db = dir.join("games.sqlite");
    let engines = ["--engines", "1"];
    // Three games with the engine as Black: their searches queue at once.
    let (child, port) = serve(&db, &engines);
    for _ in 0..3 {
        let (status, v) = request(
            port,
            "POST",
            "/api/games",
            None,
            r#"{"variant":"shogi","black":{"engine":{"movetime_ms":400}},"white":"human"}"#,
        )
        .expect("create");
        assert_eq!(status, 201, "{v}");
    }
    drop(child); // kill -9
                 // After the restart every game gets its engine move, one search at a time.
    let (child, port) = serve(&db, &engines);
    let get = |path: &str| request(port, "GET", path, None, "").expect(path).1;
    let start = Instant::now();
    let mut most_queued = 0;
    loop {
        let pool = get("/api/engines");
        assert_eq!(number(&pool, "limit"), 1, "{pool}");
        assert!(number(&pool, "running") <= 1, "{pool}");
        most_queued = most_queued.max(number(&pool, "queued"));
        let waiting = (1..=3)
            .filter(|id| get(&format!("/api/games/{id}")).contains("\"moves\":[]"))
            .count();
        if waiting == 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{waiting} searches not resumed: {pool}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(child); // kill -9
    assert!(most_queued >= 1, "the resumed searches did not queue");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `banmen serve --db db`, which must end at once, and with no panic: its
/// exit code and its standard error.
fn refused(db: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .args(["serve", "--port", "0", "--db", db])
        .stdin(Stdio::null())
        .output()
        .expect("run banmen serve");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{db}: {stderr}");
    (out.status.code(), stderr)
}

#[test]
fn a_database_it_cannot_use_is_an_error_not_a_panic() {
    // Not an address.
    let (code, stderr) = refused("postgres://banmen@db:port/banmen");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("invalid value"), "{stderr}");
    // No host.
    let (code, stderr) = refused("postgresql:///banmen");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no host"), "{stderr}");
    // A scheme it does not know.
    let (code, stderr) = refused("mysql://banmen@db/banmen");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("mysql:// is not a database"), "{stderr}");
    // Nothing listens there (port 1 on loopback); the password is not shown.
    let (code, stderr) = refused("postgres://banmen:secret@127.0.0.1:1/banmen");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("postgres://banmen:***@127.0.0.1:1/banmen") && !stderr.contains("secret"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error connecting to server: Connection refused"),
        "{stderr}"
    );
}

/// Issue 18: a timed game whose last move was taken by a server that then
/// died (`kill -9`) still ends on time, on another server of the same
/// PostgreSQL database that made no move in it (a server reads the others'
/// games once a second, or when asked for one, and runs their clocks).
#[test]
fn a_flag_falls_on_another_server_after_kill_9() {
    let Some(db) = PgDb::new("flag") else { return };
    let (a, port_a) = serve(&db.url, &[]);
    let (_b, port_b) = serve(&db.url, &[]);
    let (status, created) = request(
        port_a,
        "POST",
        "/api/games",
        None,
        r#"{"variant":"shogi","black":"human","white":"human",
            "clock":{"main_ms":1500,"byoyomi_ms":0}}"#,
    )
    .expect("create");
    assert_eq!(status, 201, "{created}");
    let v: serde_json::Value = serde_json::from_str(&created).expect("json");
    let id = v["id"].as_i64().expect("id");
    let black = v["tokens"]["black"].as_str().expect("token");
    let path = format!("/api/games/{id}/moves");
    let (status, text) =
        request(port_a, "POST", &path, Some(black), r#"{"move":"7g7f"}"#).expect("move");
    assert_eq!(status, 200, "{text}");
    drop(a); // kill -9: White's clock now runs only on B
    let start = Instant::now();
    loop {
        let (status, text) =
            request(port_b, "GET", &format!("/api/games/{id}"), None, "").expect("get");
        assert_eq!(status, 200, "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
        if !v["result"].is_null() {
            assert_eq!(v["result"]["winner"], "black", "{text}");
            assert_eq!(v["result"]["reason"], "time", "{text}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(8),
            "no flag fell on B: {text}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Starts `banmen worker` on `db` with one engine.
fn worker(db: &str) -> Served {
    let child = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .args(["worker", "--engines", "1", "--db", db])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn banmen worker");
    Served(child)
}

/// Polls game `id` on `port` until `done` holds, for at most `limit`.
fn wait_game(port: u16, id: i64, limit: Duration, done: impl Fn(&serde_json::Value) -> bool) {
    let start = Instant::now();
    loop {
        if let Some((200, text)) = request(port, "GET", &format!("/api/games/{id}"), None, "") {
            let v: serde_json::Value = serde_json::from_str(&text).expect("json");
            if done(&v) {
                return;
            }
            assert!(start.elapsed() < limit, "game {id} after {limit:?}: {v}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Issue 18: two `banmen serve --workers` and one `banmen worker` on one
/// PostgreSQL database; four people play the engine at once, their moves
/// sent to the two servers in turn, while four games between people go on
/// beside them (100 plies each); one server and the worker are killed
/// (`kill -9`) in the middle, and a new worker starts. Every acknowledged
/// move is stored, and every game goes on: the searches the dead worker held
/// are taken again once their leases run out, and the engine's moves reach
/// the server that is left.
#[test]
fn servers_and_a_worker_killed_lose_no_move_and_engine_games_go_on() {
    let Some(db) = PgDb::new("workers") else {
        return;
    };
    let (a, port_a) = serve(&db.url, &["--workers"]);
    let (_b, port_b) = serve(&db.url, &["--workers"]);
    let first_worker = worker(&db.url);
    let mut games = Vec::new();
    for i in 0..4 {
        let (status, created) = request(
            if i % 2 == 0 { port_a } else { port_b },
            "POST",
            "/api/games",
            None,
            r#"{"variant":"shogi","black":"human","white":{"engine":{"movetime_ms":100}}}"#,
        )
        .expect("create");
        assert_eq!(status, 201, "{created}");
        let v: serde_json::Value = serde_json::from_str(&created).expect("json");
        games.push((
            v["id"].as_i64().expect("id"),
            v["tokens"]["black"].as_str().expect("token").to_string(),
        ));
    }
    // People's games beside them, the load of the test.
    let people: Vec<_> = (0..4).map(|_| people_game(port_b)).collect();
    let a_killed = AtomicBool::new(false);
    let turns = 12;
    let mut people_played = Vec::new();
    let played: Vec<(i64, Vec<String>)> = std::thread::scope(|scope| {
        let people_threads: Vec<_> = people
            .iter()
            .map(|(id, tokens)| {
                let a_killed = &a_killed;
                scope.spawn(move || {
                    let (acknowledged, after_kill) =
                        play_people_game([port_a, port_b], a_killed, *id, tokens, 100);
                    assert!(after_kill > 0, "game {id} went on after the kill");
                    (*id, acknowledged)
                })
            })
            .collect();
        let threads: Vec<_> = games
            .iter()
            .map(|(id, token)| {
                let a_killed = &a_killed;
                scope.spawn(move || {
                    let mut acknowledged: Vec<String> = Vec::new();
                    for turn in 0..turns {
                        // The engine's reply to the last move, through whichever worker.
                        wait_game(port_b, *id, Duration::from_secs(40), |v| {
                            v["moves"].as_array().map(Vec::len) == Some(2 * turn)
                        });
                        let (_, text) =
                            request(port_b, "GET", &format!("/api/games/{id}"), None, "")
                                .expect("get");
                        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
                        let legal = v["legal_moves"].as_array().expect("legal moves");
                        if legal.is_empty() || !v["result"].is_null() {
                            // The engine mated the person's arbitrary moves: the game is over.
                            break;
                        }
                        let mv = legal[(turn * 5) % legal.len()]
                            .as_str()
                            .unwrap()
                            .to_string();
                        let body = format!(r#"{{"move":"{mv}"}}"#);
                        let path = format!("/api/games/{id}/moves");
                        let killed = a_killed.load(Ordering::SeqCst);
                        let port = if turn % 2 == 0 && !killed {
                            port_a
                        } else {
                            port_b
                        };
                        match request(port, "POST", &path, Some(token), &body) {
                            Some((200, _)) => acknowledged.push(mv),
                            Some((status, text)) => {
                                panic!("game {id} turn {turn}: {status} {text}")
                            }
                            None => {
                                // A died under the request: B says whether it was stored.
                                if stored_moves(port_b, *id).len() > 2 * turn {
                                    acknowledged.push(mv);
                                } else {
                                    let (status, text) =
                                        request(port_b, "POST", &path, Some(token), &body)
                                            .expect("B");
                                    assert_eq!(status, 200, "{text}");
                                    acknowledged.push(mv);
                                }
                            }
                        }
                    }
                    let played = acknowledged.len();
                    wait_game(port_b, *id, Duration::from_secs(40), |v| {
                        v["moves"].as_array().map(Vec::len) == Some(2 * played)
                    });
                    (*id, acknowledged)
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(1500));
        for (id, _) in &games {
            // One worker, four games at 100 ms a move: none is over yet.
            assert!(stored_moves(port_b, *id).len() < 2 * turns, "game {id}");
        }
        drop(a); // kill -9 of a server
        a_killed.store(true, Ordering::SeqCst);
        drop(first_worker); // and of the worker, perhaps in a search
        std::thread::sleep(Duration::from_millis(500));
        let second_worker = worker(&db.url);
        let played = threads
            .into_iter()
            .map(|t| t.join().expect("client"))
            .collect();
        drop(second_worker);
        people_played = people_threads
            .into_iter()
            .map(|t| t.join().expect("person"))
            .collect();
        played
    });
    let (_c, port_c) = serve(&db.url, &[]);
    for (id, acknowledged) in people_played {
        assert_eq!(acknowledged.len(), 100, "game {id}");
        assert_eq!(stored_moves(port_c, id), acknowledged, "game {id}");
    }
    for (id, acknowledged) in played {
        for port in [port_b, port_c] {
            let stored = stored_moves(port, id);
            assert_eq!(
                stored.len(),
                2 * acknowledged.len(),
                "game {id} on port {port}"
            );
            let people: Vec<String> = stored.iter().step_by(2).cloned().collect();
            assert_eq!(people, acknowledged, "game {id} on port {port}");
        }
    }
}

/// `banmen serve --eval-file`: the file's net evaluates its game (a small
/// random net scores a position a rook up about even, the built-in
/// evaluation far ahead); a file that is missing or no net stops the
/// server before it starts, with the reason.
#[test]
fn eval_file_gives_the_engine_another_net_and_a_bad_one_is_refused() {
    use banmen_engine::nnue::train::FloatNet;
    use banmen_engine::nnue::{Buckets, Features};
    use banmen_rules::{rules_9x9, VariantName};
    let dir = temp_dir("eval-file");
    let net = dir.join("shogi.nnue");
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let bytes = FloatNet::new(
        VariantName::Shogi,
        Features::new(rules, Buckets::Nine),
        8,
        600,
        3,
    )
    .quantise("test")
    .to_bytes();
    std::fs::write(&net, &bytes).unwrap();
    let rook_up = |port: u16| -> i64 {
        let path = "/api/analysis?sfen=4k4/9/9/9/9/9/9/9/R3K4%20b%20-%201&nodes=2000";
        let (status, text) = request(port, "GET", path, None, "").expect("analysis");
        assert_eq!(status, 200, "{text}");
        let events: Vec<serde_json::Value> = text
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect();
        events
            .iter()
            .rev()
            .find_map(|e| e["score"]["cp"].as_i64())
            .unwrap_or_else(|| panic!("a score: {events:?}"))
    };
    let (built_in, port) = serve(dir.join("a.sqlite"), &[]);
    assert!(rook_up(port) > 500);
    drop(built_in);
    let (_served, port) = serve(
        dir.join("b.sqlite"),
        &["--eval-file", net.to_str().unwrap()],
    );
    assert!(rook_up(port).abs() < 400);
    // Refused before the server starts: missing, not a net, cut short.
    let not_a_net = dir.join("not-a-net.nnue");
    std::fs::write(&not_a_net, "hello").unwrap();
    let cut = dir.join("cut.nnue");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    // `banmen worker` refuses the same files, before it reaches the
    // database (none listens at the address given here).
    let sqlite = dir.join("c.sqlite");
    let sqlite = sqlite.to_str().unwrap();
    let serve_args = ["serve", "--port", "0", "--db", sqlite];
    let worker_args = ["worker", "--db", "postgres://banmen@127.0.0.1:9/none"];
    for (file, reason) in [
        (dir.join("missing.nnue"), "cannot read"),
        (not_a_net, "not a Banmen net file"),
        (cut, "checksum"),
    ] {
        for args in [&serve_args[..], &worker_args[..]] {
            let out = Command::new(env!("CARGO_BIN_EXE_banmen"))
                .args(args)
                .arg("--eval-file")
                .arg(&file)
                .stdin(Stdio::null())
                .output()
                .expect("run banmen");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let what = format!("{} {}", args[0], file.display());
            assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
            assert!(stderr.contains(reason), "{what}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
    // Two nets for one game: which one would play is not guessed.
    let out = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .args(["serve", "--port", "0", "--db"])
        .arg(dir.join("d.sqlite"))
        .args(["--eval-file", net.to_str().unwrap()])
        .args(["--eval-file", net.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .expect("run banmen serve");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("a second net for shogi"), "{stderr}");
}
