//! The USI client of `banmen match`: an engine process, its handshake and
//! options, the lines it sends, and the scores in its `info` lines.

use super::Setup;
use crate::lines::read_lines;
use banmen_rules::VariantName;
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `usi` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(60);

/// A mate score, in centipawns: beyond any `--adjudicate score=`.
pub(super) const MATE_CP: i64 = 1_000_000;

/// The score of a USI `info` line, in centipawns for the engine's side (mates
/// as [`MATE_CP`]); `None` without one, or for a PV other than the first.
fn info_score(line: &str) -> Option<i64> {
    // `string` runs to the end of the line: free text, not fields.
    let words: Vec<&str> = line
        .split_whitespace()
        .take_while(|w| *w != "string")
        .collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let after = |key: &str| {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1).copied()
    };
    if after("multipv").is_some_and(|k| k != "1") {
        return None;
    }
    let i = words.iter().position(|w| *w == "score")?;
    let value = words.get(i + 2)?;
    match *words.get(i + 1)? {
        "cp" => value.parse().ok(),
        // `mate 5`, `mate -3`, and the bare `mate +` / `mate -` of USI.
        "mate" => match *value {
            "0" | "-0" | "+0" => None,
            v if v.starts_with('-') => Some(-MATE_CP),
            _ => Some(MATE_CP),
        },
        _ => None,
    }
}

#[derive(Debug, Clone)]
pub(super) struct EngineSpec {
    pub(super) command: String,
    pub(super) argv: Vec<String>,
    pub(super) options: Vec<(String, String)>,
    /// Where the engine's stderr goes.
    pub(super) log: PathBuf,
}

/// A running engine process.
#[derive(Debug)]
pub(super) struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    pub(super) name: String,
    /// False once it crashed or stopped answering: restart before the next game.
    pub(super) healthy: bool,
}

impl Engine {
    pub(super) fn start(index: usize, spec: &EngineSpec, setup: &Setup) -> Result<Engine, String> {
        let who = format!("engine {} ('{}')", index + 1, spec.command);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&spec.log)
            .map_err(|e| format!("cannot open '{}': {e}", spec.log.display()))?;
        let mut child = Command::new(&spec.argv[0])
            .args(&spec.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .map_err(|e| format!("cannot start {who}: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let lines = read_lines(
            move || BufReader::new(stdout),
            |line| line.trim().to_string(),
        );
        let mut e = Engine {
            child,
            stdin,
            lines,
            name: spec.command.clone(),
            healthy: true,
        };
        if let Err(err) = e.handshake(&who, spec, setup) {
            // Dropping it kills the process.
            e.healthy = false;
            return Err(err);
        }
        Ok(e)
    }

    fn handshake(&mut self, who: &str, spec: &EngineSpec, setup: &Setup) -> Result<(), String> {
        self.send("usi")
            .map_err(|_| format!("{who} exited at once"))?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut options: Vec<String> = Vec::new();
        loop {
            let line = self
                .next_line(deadline)
                .map_err(|e| format!("{who} gave no usiok: {e}"))?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                options.push(name.to_ascii_lowercase());
            } else if line == "usiok" {
                break;
            }
        }
        let has = |n: &str| options.iter().any(|o| o == &n.to_ascii_lowercase());
        if has("USI_Variant") {
            self.send(&format!(
                "setoption name USI_Variant value {}",
                setup.variant
            ))?;
        } else if setup.variant != VariantName::default() {
            return Err(format!(
                "{who} has no USI_Variant option, so it cannot play {}",
                setup.variant
            ));
        }
        if let Some(r) = &setup.rules_text {
            if has("Rules") {
                self.send(&format!("setoption name Rules value {r}"))?;
            } else {
                eprintln!(
                    "warning: {who} has no Rules option; it plays {} with its own rules, not '{r}'",
                    setup.variant
                );
            }
        }
        if let Some(ek) = setup.entering_king {
            if has("EnteringKingRule") {
                self.send(&format!(
                    "setoption name EnteringKingRule value {}",
                    ek.as_str()
                ))?;
            }
        }
        for (name, value) in &spec.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready(who)
    }

    pub(super) fn ready(&mut self, who: &str) -> Result<(), String> {
        self.send("isready").map_err(|_| format!("{who} is gone"))?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = self
                .next_line(deadline)
                .map_err(|e| format!("{who} gave no readyok: {e}"))?;
            if line == "readyok" {
                return Ok(());
            }
        }
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| {
                self.healthy = false;
                format!("cannot write to the engine: {e}")
            })
    }

    /// Waits until `deadline` for `bestmove` and returns its move (empty
    /// when it names none), keeping in `score` the last score of the first
    /// PV that the engine reports meanwhile.
    pub(super) fn bestmove(
        &mut self,
        deadline: Instant,
        score: &mut Option<i64>,
    ) -> Result<String, LineError> {
        loop {
            let line = self.next_line(deadline)?;
            if let Some(s) = info_score(&line) {
                *score = Some(s);
            }
            if let Some(rest) = line.strip_prefix("bestmove") {
                if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                    return Ok(rest.split_whitespace().next().unwrap_or("").to_string());
                }
            }
        }
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, LineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.healthy = false;
                Err(LineError::Timeout)
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.healthy = false;
                Err(LineError::Eof)
            }
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.healthy {
            let _ = writeln!(self.stdin, "quit");
            let _ = self.stdin.flush();
            let until = Instant::now() + Duration::from_secs(2);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        self.kill();
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LineError {
    Timeout,
    Eof,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LineError::Timeout => "no answer in time",
            LineError::Eof => "the process ended",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_scores_are_read() {
        assert_eq!(
            info_score("info depth 3 score cp -42 nodes 10 pv 7g7f"),
            Some(-42)
        );
        assert_eq!(
            info_score("info depth 9 multipv 1 score mate 5 pv G*2b"),
            Some(MATE_CP)
        );
        assert_eq!(info_score("info score mate -3"), Some(-MATE_CP));
        assert_eq!(info_score("info score mate + pv 1a1b"), Some(MATE_CP));
        assert_eq!(info_score("info score cp 10 lowerbound"), Some(10));
        assert_eq!(info_score("info depth 3 multipv 2 score cp 50"), None);
        assert_eq!(info_score("info string score cp 50"), None);
        assert_eq!(info_score("bestmove 7g7f"), None);
    }
}
