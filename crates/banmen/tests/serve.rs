//! `banmen serve` as a process: a game survives `kill -9` of the server.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
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

/// Starts the server and waits until it answers.
fn serve(db: &Path) -> (Child, u16) {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .args(["serve", "--port", &port.to_string(), "--db"])
        .arg(db)
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
    (child, port)
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

#[test]
fn a_game_survives_kill_9() {
    let dir = std::env::temp_dir().join(format!("banmen-serve-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("games.sqlite");

    let (mut child, port) = serve(&db);
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
    child.kill().expect("kill -9");
    child.wait().expect("wait");

    let (mut child, port) = serve(&db);
    let (status, state) = request(port, "GET", "/api/games/1", None, "").expect("get");
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert_eq!(status, 200, "{state}");
    assert_eq!(field(&state, "sfen"), sfen);
    assert!(state.contains("\"moves\":[\"7g7f\"]"), "{state}");
    // The clocks too: Black's main time as the move left it.
    assert_eq!(number(&state, "black_left_ms"), black_left, "{state}");
    assert_eq!(number(&state, "byoyomi_ms"), 30000, "{state}");
    let _ = std::fs::remove_dir_all(&dir);
}
