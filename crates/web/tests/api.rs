//! The JSON API of `banmen serve`, driven over real HTTP against servers
//! started in-process on 127.0.0.1:0.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A server on its own runtime; dropping it stops everything at once (no
/// shutdown hook runs, as with a killed process).
struct Server {
    rt: Option<tokio::runtime::Runtime>,
    addr: SocketAddr,
}

impl Server {
    fn start(db: &Path) -> Server {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let addr = rt.block_on(async {
            let app = banmen_web::app(db).await.expect("app");
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            let addr = listener.local_addr().expect("addr");
            tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
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
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let (head, rest) = out.split_once("\r\n\r\n").expect("response head");
    let status = head
        .split_whitespace()
        .nth(1)
        .expect("status")
        .parse()
        .expect("code");
    (status, rest.to_string())
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("banmen-web-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("games.sqlite")
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
    let db = temp_db("hvh");
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
    let db = temp_db("engine");
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
    let db = temp_db("persist");
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
    let db = temp_db("events");
    let server = Server::start(&db);
    let (id, created) =
        server.create(json!({"variant": "daidaishogi", "black": "human", "white": "human"}));
    let (black, _) = tokens(&created);
    assert_eq!(created["position"]["files"], 17);
    let mut s = TcpStream::connect(server.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    write!(
        s,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("write");
    let mut seen = String::new();
    let mut buf = [0u8; 65536];
    let mut read_until = |needle: &str, seen: &mut String| {
        let start = Instant::now();
        while !seen.contains(needle) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no event with {needle}"
            );
            let n = s.read(&mut buf).expect("read events");
            assert!(n > 0, "stream closed");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    };
    read_until("\"moves\":[]", &mut seen);
    let mv = created["legal_moves"][0].as_str().unwrap().to_string();
    let (status, v) = server.play(id, &black, &mv);
    assert_eq!(status, 200, "{v}");
    read_until(&format!("\"moves\":[\"{mv}\"]"), &mut seen);
}
