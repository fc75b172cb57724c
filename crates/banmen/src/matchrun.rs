//! `banmen match`: two USI engines play a series of games, adjudicated by the
//! rules core.
//!
//! Each worker thread owns one process of each engine and plays whole games
//! with them, one after the other; an engine that crashed or did not answer
//! in time is restarted before its next game. Games `2k` and `2k+1` start
//! from the same opening with the colours swapped. Every move an engine
//! sends is checked with [`Game::play_usi`]; the game ends when the rules
//! core says so (checkmate, no legal move, repetition, perpetual check, try,
//! the ply limit), or when an engine resigns, declares, plays an illegal move,
//! crashes or runs out of time, or, with `--adjudicate`, when both engines'
//! scores agree that one side is far ahead.

use banmen_rules::{
    rules_for, AnyRules, BitBoard, Color, EnteringKingRule, Game, GameOptions, Position,
    PositionCommand, PositionCommandError, Rules, SfenMode, StartPosition, VariantName,
};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long an engine may take to answer `usi` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(60);
/// A move counts as late when it takes this much longer than allowed.
const LATE_SLACK_MS: u64 = 50;
/// What a search without a clock (`depth=`, `nodes=`) may take.
const UNTIMED_ALLOWANCE_MS: u64 = 120_000;

/// Arguments of `banmen match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine command (give it twice), split like a shell would:
    /// `--engine "target/release/banmen usi"`.
    #[arg(long = "engine", required = true)]
    pub engines: Vec<String>,
    /// The game: shogi, cannonshogi, daidaishogi or minishogi.
    #[arg(long)]
    pub variant: String,
    /// Rule options, also sent to engines that have a `Rules` option.
    #[arg(long)]
    pub rules: Option<String>,
    /// Number of games (paired: each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time control: byoyomi=MS, byoyomi=BASE+MS, fischer=BASE+INC,
    /// movetime=MS, depth=N or nodes=N (times in milliseconds). Given twice,
    /// the first is engine 1's and the second engine 2's (e.g. `--tc depth=2
    /// --tc depth=3` for a depth ladder).
    #[arg(long = "tc", required = true)]
    pub tc: Vec<String>,
    /// Openings, one a line: an SFEN, `startpos moves ...` or `sfen ... moves ...`.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at the same time (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// A game reaching this many plies is a draw.
    #[arg(long, default_value_t = 512)]
    pub max_plies: u32,
    /// Sequential probability ratio test: elo0=0,elo1=10,alpha=0.05,beta=0.05.
    /// The match stops early when a bound is crossed.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Where the game records go (default matches/<timestamp>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A USI option for both engines (`USI_Hash=64`), or for one (`1:Threads=2`).
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// The declaration rule (NoEnteringKing, CSARule24, CSARule27, TryRule),
    /// also sent to engines that have an `EnteringKingRule` option.
    #[arg(long)]
    pub entering_king: Option<String>,
    /// Milliseconds an engine may go over its time before it loses on time.
    #[arg(long, default_value_t = 5000)]
    pub margin: u64,
    /// Adjudication by score: score=N,plies=M. From ply M on (M at most
    /// --max-plies), after every move, the game is won by the side both
    /// engines say is ahead by N centipawns or more, each by the last score
    /// it reported (`info ... score cp X`, the first PV, for its own side; a
    /// mate counts as more than any N): the winner's engine at least +N and
    /// the loser's at most -N. Otherwise the game goes on, to --max-plies (a
    /// draw). Such games have the reason `adjudication`.
    #[arg(long)]
    pub adjudicate: Option<String>,
}

/// `--adjudicate`: when both engines' scores end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Adjudication {
    /// Centipawns both engines must agree on.
    score: i64,
    /// The first ply after which the scores are looked at.
    plies: usize,
}

/// A mate score, in centipawns: beyond any `--adjudicate score=`.
const MATE_CP: i64 = 1_000_000;

impl Adjudication {
    fn parse(text: &str) -> Result<Adjudication, String> {
        let bad =
            |why: String| format!("bad --adjudicate '{text}': {why} (expected score=N,plies=M)");
        let (mut score, mut plies) = (None, None);
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("'{part}' has no '='")))?;
            let v: u64 = v
                .trim()
                .parse()
                .map_err(|_| bad(format!("'{v}' is not a number")))?;
            match k.trim() {
                "score" => score = Some(v),
                "plies" => plies = Some(v),
                other => return Err(bad(format!("unknown key '{other}'"))),
            }
        }
        match (score, plies) {
            (Some(0), _) => Err(bad("score must be at least 1".into())),
            (Some(score), Some(plies)) => Ok(Adjudication {
                score: score.min(MATE_CP as u64) as i64,
                plies: plies as usize,
            }),
            _ => Err(bad("both score and plies are needed".into())),
        }
    }

    /// The side both engines say is ahead by at least `score`, from the last
    /// scores of the engines playing Black and White, each for its own side.
    fn winner(&self, scores: [Option<i64>; 2]) -> Option<Color> {
        let [Some(black), Some(white)] = scores else {
            return None;
        };
        if black >= self.score && white <= -self.score {
            Some(Color::Black)
        } else if white >= self.score && black <= -self.score {
            Some(Color::White)
        } else {
            None
        }
    }
}

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

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tc {
    Byoyomi { base: u64, byoyomi: u64 },
    Fischer { base: u64, inc: u64 },
    Movetime(u64),
    Depth(u64),
    Nodes(u64),
}

impl Tc {
    fn parse(text: &str) -> Result<Tc, String> {
        let bad = |why: &str| {
            format!(
                "bad --tc '{text}': {why} (expected byoyomi=MS, byoyomi=BASE+MS, \
                 fischer=BASE+INC, movetime=MS, depth=N or nodes=N)"
            )
        };
        let (kind, value) = text.split_once('=').ok_or_else(|| bad("no '='"))?;
        let num = |s: &str| -> Result<u64, String> {
            s.trim()
                .parse::<u64>()
                .map_err(|_| bad(&format!("'{s}' is not a number")))
        };
        let pair = |s: &str| -> Result<(u64, u64), String> {
            let (a, b) = s.split_once('+').ok_or_else(|| bad("expected BASE+N"))?;
            Ok((num(a)?, num(b)?))
        };
        let tc = match kind.trim() {
            "byoyomi" => {
                if value.contains('+') {
                    let (base, byoyomi) = pair(value)?;
                    Tc::Byoyomi { base, byoyomi }
                } else {
                    Tc::Byoyomi {
                        base: 0,
                        byoyomi: num(value)?,
                    }
                }
            }
            "fischer" => {
                let (base, inc) = pair(value)?;
                Tc::Fischer { base, inc }
            }
            "movetime" => Tc::Movetime(num(value)?),
            "depth" => Tc::Depth(num(value)?),
            "nodes" => Tc::Nodes(num(value)?),
            other => return Err(bad(&format!("unknown kind '{other}'"))),
        };
        let zero = match tc {
            Tc::Byoyomi { base, byoyomi } => base == 0 && byoyomi == 0,
            Tc::Fischer { base, inc } => base == 0 && inc == 0,
            Tc::Movetime(n) | Tc::Depth(n) | Tc::Nodes(n) => n == 0,
        };
        if zero {
            return Err(bad("no time at all"));
        }
        Ok(tc)
    }

    /// The clocks at the start of a game.
    fn start_clock(self) -> u64 {
        match self {
            Tc::Byoyomi { base, .. } | Tc::Fischer { base, .. } => base,
            _ => 0,
        }
    }

    /// The `go` command with the clocks (`[black, white]`).
    fn go(self, clocks: [u64; 2]) -> String {
        let [b, w] = clocks;
        match self {
            Tc::Byoyomi { byoyomi, .. } => format!("go btime {b} wtime {w} byoyomi {byoyomi}"),
            Tc::Fischer { inc, .. } => format!("go btime {b} wtime {w} binc {inc} winc {inc}"),
            Tc::Movetime(ms) => format!("go movetime {ms}"),
            Tc::Depth(n) => format!("go depth {n}"),
            Tc::Nodes(n) => format!("go nodes {n}"),
        }
    }

    /// Milliseconds the mover may think (before the margin).
    fn allowance(self, clock: u64) -> u64 {
        match self {
            Tc::Byoyomi { byoyomi, .. } => clock + byoyomi,
            Tc::Fischer { inc, .. } => clock + inc,
            Tc::Movetime(ms) => ms,
            Tc::Depth(_) | Tc::Nodes(_) => UNTIMED_ALLOWANCE_MS,
        }
    }

    /// The mover's clock after a move that took `used` ms.
    fn after_move(self, clock: u64, used: u64) -> u64 {
        match self {
            Tc::Byoyomi { .. } => clock.saturating_sub(used),
            Tc::Fischer { inc, .. } => (clock + inc).saturating_sub(used),
            _ => 0,
        }
    }
}

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

impl Sprt {
    fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("bad --sprt part '{part}': expected key=value"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("bad --sprt value '{v}' for {k}"))?;
            match k.trim() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => {
                    return Err(format!(
                        "unknown --sprt key '{other}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err("--sprt alpha and beta must be between 0 and 0.5".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt elo1 must be greater than elo0".into());
        }
        Ok(s)
    }

    /// (lower, upper) bounds of the log-likelihood ratio.
    fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0, by the normal approximation
    /// of the score with the trinomial variance (the GSPRT without BayesElo).
    fn llr(&self, wdl: [u64; 3]) -> f64 {
        let n = (wdl[0] + wdl[1] + wdl[2]) as f64;
        if n == 0.0 {
            return 0.0;
        }
        let (s, var) = score_and_variance(wdl);
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// The logistic expected score of an Elo difference.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score (infinite at 0 and 1).
fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Mean score and per-game variance of wins, draws, losses.
fn score_and_variance(wdl: [u64; 3]) -> (f64, f64) {
    let [w, d, l] = wdl.map(|x| x as f64);
    let n = w + d + l;
    if n == 0.0 {
        return (0.5, 0.0);
    }
    let s = (w + 0.5 * d) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    (s, var)
}

/// Elo with its 95% interval: (elo, low, high).
fn elo_interval(wdl: [u64; 3]) -> (f64, f64, f64) {
    let n = (wdl[0] + wdl[1] + wdl[2]) as f64;
    let (s, var) = score_and_variance(wdl);
    let se = if n > 0.0 { (var / n).sqrt() } else { 0.0 };
    let z = 1.959_964;
    (
        elo_of(s),
        elo_of((s - z * se).max(0.0)),
        elo_of((s + z * se).min(1.0)),
    )
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // `+ 0.0` turns -0.0 into 0.0.
        format!("{:+.1}", e + 0.0)
    }
}

/// A start position: `startpos` or `sfen ...`, and moves.
#[derive(Clone, Debug)]
struct Opening {
    /// `startpos` or `sfen <SFEN>`.
    base: String,
    /// Canonical USI moves.
    moves: Vec<String>,
}

/// Parses one openings line (an SFEN, `startpos moves ...`, `sfen ... moves ...`,
/// optionally after `position`) and checks it on the rules.
fn parse_opening<B: BitBoard>(
    rules: &'static Rules<B>,
    line: &str,
    options: GameOptions,
) -> Result<Opening, String> {
    let command = PositionCommand::parse_lenient(line).map_err(|e| match e {
        PositionCommandError::Empty => "empty opening".to_string(),
        e => e.to_string(),
    })?;
    let sfen = command.sfen(rules);
    let base = match &command.start {
        StartPosition::Startpos => "startpos".to_string(),
        StartPosition::Sfen(s) => format!("sfen {s}"),
    };
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict)
        .map_err(|e| format!("bad SFEN '{sfen}': {e}"))?;
    let mut game = Game::new(pos, options);
    let mut moves = Vec::new();
    for text in &command.moves {
        let usi = {
            let p = game.position();
            let m = p
                .parse_move(text)
                .map_err(|e| format!("move '{text}': {e}"))?;
            p.move_to_usi(m)
        };
        game.play_usi(&usi)
            .map_err(|e| format!("move '{text}': {e}"))?;
        moves.push(usi);
    }
    if let Some(o) = game.outcome() {
        return Err(format!("the opening has already ended ({})", o.reason));
    }
    Ok(Opening { base, moves })
}

fn load_openings<B: BitBoard>(
    rules: &'static Rules<B>,
    path: Option<&Path>,
    options: GameOptions,
) -> Result<Vec<Opening>, String> {
    let Some(path) = path else {
        return Ok(vec![Opening {
            base: "startpos".into(),
            moves: Vec::new(),
        }]);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(
            parse_opening(rules, line, options)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?,
        );
    }
    if out.is_empty() {
        return Err(format!("no openings in '{}'", path.display()));
    }
    Ok(out)
}

/// Everything a game needs, shared by the workers.
#[derive(Debug)]
struct Setup {
    variant: VariantName,
    rules_text: Option<String>,
    /// Per engine.
    tc: [Tc; 2],
    tc_text: String,
    entering_king: Option<EnteringKingRule>,
    game_options: GameOptions,
    margin: u64,
    adjudicate: Option<Adjudication>,
    /// Per engine: the command, its words, and `setoption`s (name, value).
    engines: [EngineSpec; 2],
}

#[derive(Debug, Clone)]
struct EngineSpec {
    command: String,
    argv: Vec<String>,
    options: Vec<(String, String)>,
    /// Where the engine's stderr goes.
    log: PathBuf,
}

/// A running engine process.
#[derive(Debug)]
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
    /// False once it crashed or stopped answering: restart before the next game.
    healthy: bool,
}

impl Engine {
    fn start(index: usize, spec: &EngineSpec, setup: &Setup) -> Result<Engine, String> {
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
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
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

    fn ready(&mut self, who: &str) -> Result<(), String> {
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

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| {
                self.healthy = false;
                format!("cannot write to the engine: {e}")
            })
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
enum LineError {
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

/// Why an engine lost without the rules ending the game.
const PROBLEMS: [&str; 4] = ["illegal-move", "crash", "time-forfeit", "bad-declaration"];

/// A finished game.
#[derive(Debug, Clone)]
struct GameResult {
    /// 0-based game number.
    index: usize,
    /// Which engine played Black.
    black: usize,
    winner: Option<Color>,
    reason: String,
    /// More about an engine's failure, if any.
    note: Option<String>,
    names: [String; 2],
    position: String,
    plies: usize,
    /// Moves that took over 50 ms longer than allowed (but not past the margin), per engine.
    late: [u32; 2],
}

impl GameResult {
    /// The winning engine (0 or 1).
    fn winner_engine(&self) -> Option<usize> {
        self.winner.map(|c| match c {
            Color::Black => self.black,
            Color::White => 1 - self.black,
        })
    }
}

/// One worker: its two engines, restarted when needed.
struct Worker<'a> {
    setup: &'a Setup,
    engines: [Option<Engine>; 2],
}

impl Worker<'_> {
    fn engine(&mut self, i: usize) -> Result<&mut Engine, String> {
        if !self.engines[i].as_ref().is_some_and(|e| e.healthy) {
            self.engines[i] = None;
            self.engines[i] = Some(Engine::start(i, &self.setup.engines[i], self.setup)?);
        }
        Ok(self.engines[i].as_mut().expect("started"))
    }

    fn name(&self, i: usize) -> String {
        self.engines[i]
            .as_ref()
            .map_or_else(|| self.setup.engines[i].command.clone(), |e| e.name.clone())
    }

    fn play<B: BitBoard>(
        &mut self,
        rules: &'static Rules<B>,
        index: usize,
        opening: &Opening,
    ) -> GameResult {
        let setup = self.setup;
        let black = index % 2;
        let sfen = match opening.base.strip_prefix("sfen ") {
            Some(s) => s.to_string(),
            None => rules.variant.start_sfen.to_string(),
        };
        let start = Position::from_sfen(rules, &sfen, SfenMode::Strict).expect("checked opening");
        let mut game = Game::new(start, setup.game_options);
        let mut moves: Vec<String> = Vec::new();
        for m in &opening.moves {
            game.play_usi(m).expect("checked opening");
            moves.push(m.clone());
        }
        let mut result = GameResult {
            index,
            black,
            winner: None,
            reason: String::new(),
            note: None,
            names: [String::new(), String::new()],
            position: String::new(),
            plies: 0,
            late: [0, 0],
        };
        // The engine playing each colour.
        let engine_of = |c: Color| match c {
            Color::Black => black,
            Color::White => 1 - black,
        };
        let color_of = |e: usize| {
            if e == black {
                Color::Black
            } else {
                Color::White
            }
        };
        let mut failure: Option<(usize, &str, String)> = None;
        for i in 0..2 {
            let prepared = self.engine(i).and_then(|e| {
                let who = format!("engine {}", i + 1);
                e.ready(&who)?;
                e.send("usinewgame")
            });
            if let Err(e) = prepared {
                failure = Some((i, "crash", e));
                break;
            }
        }
        result.names = [self.name(0), self.name(1)];
        let mut clocks = [
            setup.tc[engine_of(Color::Black)].start_clock(),
            setup.tc[engine_of(Color::White)].start_clock(),
        ];
        // Each engine's last score, for its own side (`--adjudicate`).
        let mut scores: [Option<i64>; 2] = [None, None];
        let mut adjudicated: Option<(Color, String)> = None;
        while failure.is_none() && adjudicated.is_none() && game.outcome().is_none() {
            let side = game.position().side_to_move();
            let who = engine_of(side);
            let mut position = format!("position {}", opening.base);
            if !moves.is_empty() {
                position.push_str(" moves ");
                position.push_str(&moves.join(" "));
            }
            let tc = &setup.tc[who];
            let go = tc.go(clocks);
            let allowance = tc.allowance(clocks[side.index()]);
            let engine = match self.engine(who) {
                Ok(e) => e,
                Err(e) => {
                    failure = Some((who, "crash", e));
                    break;
                }
            };
            let started = Instant::now();
            if let Err(e) = engine.send(&position).and_then(|()| engine.send(&go)) {
                failure = Some((who, "crash", e));
                break;
            }
            let deadline = started + Duration::from_millis(allowance + setup.margin);
            let answer = loop {
                match engine.next_line(deadline) {
                    Ok(line) => {
                        if let Some(score) = info_score(&line) {
                            scores[who] = Some(score);
                        }
                        if let Some(rest) = line.strip_prefix("bestmove") {
                            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                                break Ok(rest.split_whitespace().next().unwrap_or("").to_string());
                            }
                        }
                    }
                    Err(e) => break Err(e),
                }
            };
            let used = started.elapsed().as_millis() as u64;
            let text = match answer {
                Ok(t) => t,
                Err(LineError::Timeout) => {
                    failure = Some((
                        who,
                        "time-forfeit",
                        format!("no bestmove within {} ms", allowance + setup.margin),
                    ));
                    break;
                }
                Err(LineError::Eof) => {
                    failure = Some((who, "crash", "the engine exited during its move".into()));
                    break;
                }
            };
            if used > allowance + LATE_SLACK_MS {
                result.late[who] += 1;
            }
            clocks[side.index()] = tc.after_move(clocks[side.index()], used);
            match text.as_str() {
                "resign" => game.resign(side),
                "win" => {
                    if let Err(e) = game.declare() {
                        failure = Some((who, "bad-declaration", e.to_string()));
                    }
                }
                _ => {
                    let canonical = game
                        .position()
                        .parse_move(&text)
                        .map(|m| game.position().move_to_usi(m));
                    match canonical {
                        Ok(usi) => {
                            game.play_usi(&usi).expect("a legal move");
                            moves.push(usi);
                        }
                        Err(e) => {
                            failure = Some((who, "illegal-move", format!("'{text}': {e}")));
                        }
                    }
                }
            }
            if let Some(a) = setup.adjudicate {
                let playing = [
                    scores[engine_of(Color::Black)],
                    scores[engine_of(Color::White)],
                ];
                let open = failure.is_none() && game.outcome().is_none();
                if let Some(winner) = a.winner(playing).filter(|_| open && moves.len() >= a.plies) {
                    let [b, w] = playing.map(|s| s.unwrap_or(0));
                    let note = format!(
                        "after ply {}: black's engine scores {b:+}, white's {w:+} (each for \
                         itself; score={})",
                        moves.len(),
                        a.score
                    );
                    adjudicated = Some((winner, note));
                }
            }
        }
        let outcome = game.outcome();
        let (winner, reason) = match (failure, adjudicated, outcome) {
            (Some((loser, reason, note)), _, _) => {
                result.note = Some(format!("engine {}: {note}", loser + 1));
                (Some(!color_of(loser)), reason.to_string())
            }
            (None, Some((winner, note)), _) => {
                result.note = Some(note);
                (Some(winner), "adjudication".to_string())
            }
            (None, None, Some(o)) => (o.winner, o.reason.to_string()),
            (None, None, None) => {
                unreachable!("the loop ends with an outcome, a failure or an adjudication")
            }
        };
        result.winner = winner;
        result.reason = reason;
        for (i, e) in self.engines.iter_mut().enumerate() {
            if let Some(e) = e {
                if e.healthy {
                    let word = match result.winner_engine() {
                        None => "draw",
                        Some(w) if w == i => "win",
                        Some(_) => "lose",
                    };
                    let _ = e.send(&format!("gameover {word}"));
                }
            }
        }
        result.plies = moves.len();
        result.position = format!("position {}", opening.base);
        if !moves.is_empty() {
            result.position.push_str(" moves ");
            result.position.push_str(&moves.join(" "));
        }
        result
    }
}

/// A UTC time stamp `YYYYMMDD-HHMMSS`.
fn timestamp() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn output_dir(out: Option<&Path>) -> Result<PathBuf, String> {
    let dir = match out {
        Some(d) => d.to_path_buf(),
        None => {
            let base = PathBuf::from("matches").join(timestamp());
            let mut dir = base.clone();
            let mut n = 2;
            while dir.exists() {
                dir = PathBuf::from(format!("{}-{n}", base.display()));
                n += 1;
            }
            dir
        }
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    Ok(dir)
}

/// The record of one game.
fn record_text(r: &GameResult, setup: &Setup) -> String {
    let white = 1 - r.black;
    let mut s = String::new();
    let _ = writeln!(s, "# game: {}", r.index + 1);
    let _ = writeln!(s, "# variant: {}", setup.variant);
    if let Some(rules) = &setup.rules_text {
        let _ = writeln!(s, "# rules: {rules}");
    }
    let _ = writeln!(s, "# time-control: {}", setup.tc_text);
    let _ = writeln!(s, "# black: {} (engine {})", r.names[r.black], r.black + 1);
    let _ = writeln!(s, "# white: {} (engine {})", r.names[white], white + 1);
    let result = match r.winner {
        None => "draw".to_string(),
        Some(c) => format!("{} wins", c.name()),
    };
    let _ = writeln!(s, "# result: {result}");
    let _ = writeln!(s, "# reason: {}", r.reason);
    if let Some(note) = &r.note {
        let _ = writeln!(s, "# note: {}", note.replace(['\n', '\r'], " "));
    }
    let _ = writeln!(s, "# plies: {}", r.plies);
    let _ = writeln!(s, "{}", r.position);
    s
}

/// Running totals.
#[derive(Debug, Default)]
struct Tally {
    /// Wins, draws, losses of engine 1.
    wdl: [u64; 3],
    reasons: Vec<(String, u64)>,
    /// Per problem kind (PROBLEMS order), per losing engine.
    problems: [[u64; 2]; 4],
    late: [u64; 2],
}

impl Tally {
    fn add(&mut self, r: &GameResult) {
        match r.winner_engine() {
            Some(0) => self.wdl[0] += 1,
            Some(_) => self.wdl[2] += 1,
            None => self.wdl[1] += 1,
        }
        match self.reasons.iter_mut().find(|(k, _)| *k == r.reason) {
            Some((_, n)) => *n += 1,
            None => self.reasons.push((r.reason.clone(), 1)),
        }
        if let Some(p) = PROBLEMS.iter().position(|p| *p == r.reason) {
            if let Some(w) = r.winner_engine() {
                self.problems[p][1 - w] += 1;
            }
        }
        self.late[0] += u64::from(r.late[0]);
        self.late[1] += u64::from(r.late[1]);
    }

    fn short(&self) -> String {
        let (elo, _, _) = elo_interval(self.wdl);
        format!(
            "W {} D {} L {}  Elo {}",
            self.wdl[0],
            self.wdl[1],
            self.wdl[2],
            fmt_elo(elo)
        )
    }
}

fn summary(tally: &Tally, names: &[String; 2], sprt: Option<&Sprt>, setup: &Setup) -> String {
    let [w, d, l] = tally.wdl;
    let n = w + d + l;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} vs {} ({}, {}): {n} games",
        names[0], names[1], setup.variant, setup.tc_text
    );
    let _ = writeln!(s, "W/D/L (first engine): {w} / {d} / {l}");
    let (score, _) = score_and_variance(tally.wdl);
    let _ = writeln!(s, "Score: {:.1}%", score * 100.0);
    let (elo, lo, hi) = elo_interval(tally.wdl);
    let _ = writeln!(
        s,
        "Elo: {} (95% interval {} .. {})",
        fmt_elo(elo),
        fmt_elo(lo),
        fmt_elo(hi)
    );
    if let Some(sp) = sprt {
        let llr = sp.llr(tally.wdl);
        let (a, b) = sp.bounds();
        let verdict = if llr >= b {
            format!("H1 accepted (elo >= {})", sp.elo1)
        } else if llr <= a {
            format!("H0 accepted (elo <= {})", sp.elo0)
        } else {
            "inconclusive".to_string()
        };
        let _ = writeln!(
            s,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.3} (bounds {a:.3} .. {b:.3}): {verdict}",
            sp.elo0, sp.elo1, sp.alpha, sp.beta
        );
    }
    let reasons: Vec<String> = tally
        .reasons
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(s, "Reasons: {}", reasons.join(", "));
    let problems: Vec<String> = PROBLEMS
        .iter()
        .zip(&tally.problems)
        .map(|(p, [a, b])| format!("{p} {} ({a}+{b})", a + b))
        .collect();
    let _ = writeln!(
        s,
        "Problems (engine 1 + engine 2): {}; late moves {} ({}+{})",
        problems.join(", "),
        tally.late[0] + tally.late[1],
        tally.late[0],
        tally.late[1]
    );
    s
}

/// `banmen match`.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine commands ({} given)",
            args.engines.len()
        ));
    }
    let tc = match args.tc.as_slice() {
        [one] => {
            let t = Tc::parse(one)?;
            [t, t]
        }
        [a, b] => [Tc::parse(a)?, Tc::parse(b)?],
        _ => return Err("give --tc once (both engines) or twice (engine 1's, engine 2's)".into()),
    };
    let variant: VariantName = args.variant.parse().map_err(|e| format!("{e}"))?;
    let rules_text = args.rules.clone().filter(|r| !r.trim().is_empty());
    let rules =
        rules_for(variant, rules_text.as_deref().unwrap_or("")).map_err(|e| e.to_string())?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if args.max_plies == 0 {
        return Err("--max-plies must be at least 1".into());
    }
    let adjudicate = args
        .adjudicate
        .as_deref()
        .map(Adjudication::parse)
        .transpose()?;
    if let Some(a) = adjudicate {
        if a.plies > args.max_plies as usize {
            return Err(format!(
                "--adjudicate plies={} is past --max-plies {}",
                a.plies, args.max_plies
            ));
        }
    }
    let entering_king = args
        .entering_king
        .as_deref()
        .map(str::parse::<EnteringKingRule>)
        .transpose()?;
    let mut engine_options: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    for o in &args.options {
        let (targets, nv): (&[usize], &str) = match o.split_once(':') {
            Some(("1", rest)) => (&[0], rest),
            Some(("2", rest)) => (&[1], rest),
            _ => (&[0, 1], o.as_str()),
        };
        let (name, value) = nv
            .split_once('=')
            .ok_or_else(|| format!("bad --option '{o}': expected NAME=VALUE or 1:NAME=VALUE"))?;
        for &t in targets {
            engine_options[t].push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let out = output_dir(args.out.as_deref())?;
    let mut specs = Vec::new();
    for (i, command) in args.engines.iter().enumerate() {
        let argv =
            shell_words::split(command).map_err(|e| format!("bad --engine '{command}': {e}"))?;
        if argv.is_empty() {
            return Err("an --engine command is empty".into());
        }
        specs.push(EngineSpec {
            command: command.clone(),
            argv,
            options: engine_options[i].clone(),
            log: out.join(format!("engine{}.stderr.log", i + 1)),
        });
    }
    let engines: [EngineSpec; 2] = specs.try_into().expect("two engines");
    let setup = Setup {
        variant,
        rules_text,
        tc,
        tc_text: args.tc.join(" vs "),
        entering_king,
        game_options: GameOptions {
            entering_king: entering_king.unwrap_or_default(),
            max_plies: Some(args.max_plies),
        },
        margin: args.margin,
        adjudicate,
        engines,
    };
    match rules {
        AnyRules::Nine(r) => run_match(r, args, &setup, sprt.as_ref(), &out),
        AnyRules::Seventeen(r) => run_match(r, args, &setup, sprt.as_ref(), &out),
    }
}

fn run_match<B: BitBoard>(
    rules: &'static Rules<B>,
    args: &MatchArgs,
    setup: &Setup,
    sprt: Option<&Sprt>,
    out: &Path,
) -> Result<(), String> {
    let openings = load_openings(rules, args.openings.as_deref(), setup.game_options)?;
    let workers = args.concurrency.min(args.games);
    // Start every engine first, so a bad command fails before any game.
    let mut pool = Vec::new();
    for _ in 0..workers {
        let mut w = Worker {
            setup,
            engines: [None, None],
        };
        for i in 0..2 {
            w.engine(i)?;
        }
        pool.push(w);
    }
    let names = [pool[0].name(0), pool[0].name(1)];
    let width = args.games.to_string().len().max(4);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameResult>();
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} {msg}")
            .expect("a valid template"),
    );
    let mut tally = Tally::default();
    let mut write_error: Option<String> = None;
    std::thread::scope(|scope| {
        for mut w in pool {
            let tx = tx.clone();
            let (next, stop, openings) = (&next, &stop, &openings);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= args.games {
                    break;
                }
                let opening = &openings[(index / 2) % openings.len()];
                let r = w.play(rules, index, opening);
                if tx.send(r).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for r in rx {
            tally.add(&r);
            let path = out.join(format!("game-{:0width$}.txt", r.index + 1));
            if let Err(e) = std::fs::write(&path, record_text(&r, setup)) {
                write_error.get_or_insert(format!("cannot write '{}': {e}", path.display()));
            }
            let result = match r.winner_engine() {
                None => "draw".to_string(),
                Some(e) => format!("engine {} wins", e + 1),
            };
            let line = format!(
                "game {}: {} (black) vs {} (white): {result} by {} in {} plies{}",
                r.index + 1,
                r.names[r.black],
                r.names[1 - r.black],
                r.reason,
                r.plies,
                r.note.as_ref().map_or(String::new(), |n| format!(" [{n}]"))
            );
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.println(line);
            }
            bar.inc(1);
            bar.set_message(tally.short());
            if let Some(sp) = sprt {
                let llr = sp.llr(tally.wdl);
                let (a, b) = sp.bounds();
                if (llr >= b || llr <= a) && !stop.swap(true, Ordering::Relaxed) {
                    let line = format!("SPRT bound crossed (LLR {llr:.3}): no new games");
                    if bar.is_hidden() {
                        eprintln!("{line}");
                    } else {
                        bar.println(line);
                    }
                }
            }
        }
    });
    bar.finish_and_clear();
    let text = summary(&tally, &names, sprt, setup);
    print!("{text}");
    println!("Records: {}", out.display());
    let summary_path = out.join("summary.txt");
    if let Err(e) = File::create(&summary_path).and_then(|mut f| f.write_all(text.as_bytes())) {
        write_error.get_or_insert(format!("cannot write '{}': {e}", summary_path.display()));
    }
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            Tc::parse("byoyomi=1000"),
            Ok(Tc::Byoyomi {
                base: 0,
                byoyomi: 1000
            })
        );
        assert_eq!(
            Tc::parse("byoyomi=60000+1000"),
            Ok(Tc::Byoyomi {
                base: 60000,
                byoyomi: 1000
            })
        );
        assert_eq!(
            Tc::parse("fischer=10000+100"),
            Ok(Tc::Fischer {
                base: 10000,
                inc: 100
            })
        );
        assert_eq!(Tc::parse("movetime=200"), Ok(Tc::Movetime(200)));
        assert_eq!(Tc::parse("depth=2"), Ok(Tc::Depth(2)));
        for bad in [
            "",
            "byoyomi",
            "fischer=100",
            "movetime=x",
            "blitz=5",
            "movetime=0",
        ] {
            assert!(Tc::parse(bad).is_err(), "{bad}");
        }
        let f = Tc::parse("fischer=10000+100").unwrap();
        assert_eq!(
            f.go([10000, 9000]),
            "go btime 10000 wtime 9000 binc 100 winc 100"
        );
        assert_eq!(f.after_move(10000, 600), 9500);
        assert_eq!(f.after_move(100, 600), 0);
    }

    #[test]
    fn elo_and_interval() {
        assert!((elo_of(0.5)).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.85).abs() < 0.01);
        let (e, lo, hi) = elo_interval([10, 0, 10]);
        assert!(e.abs() < 1e-9 && lo < -100.0 && hi > 100.0 && (lo + hi).abs() < 1e-6);
        let (e, _, _) = elo_interval([3, 0, 0]);
        assert!(e.is_infinite());
    }

    #[test]
    fn sprt_llr_and_bounds() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (a, b) = s.bounds();
        assert!((a + 2.944).abs() < 0.001 && (b - 2.944).abs() < 0.001);
        // A strong, steady lead accepts H1; a deficit accepts H0.
        assert!(s.llr([600, 200, 400]) > b);
        assert!(s.llr([400, 200, 600]) < a);
        assert_eq!(s.llr([0, 5, 0]), 0.0);
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
    }

    #[test]
    fn openings_parse() {
        let AnyRules::Nine(r) = rules_for(VariantName::Shogi, "").unwrap() else {
            panic!("shogi is 9x9")
        };
        let o = GameOptions::default();
        let a = parse_opening(r, "startpos moves 7g7f 3c3d", o).unwrap();
        assert_eq!((a.base.as_str(), a.moves.len()), ("startpos", 2));
        let b = parse_opening(
            r,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            o,
        )
        .unwrap();
        assert!(b.base.starts_with("sfen ") && b.moves.is_empty());
        let c = parse_opening(
            r,
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f",
            o,
        )
        .unwrap();
        assert_eq!(c.moves, vec!["2g2f".to_string()]);
        assert!(parse_opening(r, "startpos moves 5e5d", o).is_err());
        assert!(parse_opening(r, "nonsense", o).is_err());
    }

    #[test]
    fn adjudication_needs_both_engines_to_agree() {
        let a = Adjudication::parse("score=400,plies=60").unwrap();
        assert_eq!(
            a,
            Adjudication {
                score: 400,
                plies: 60
            }
        );
        assert_eq!(a.winner([Some(400), Some(-400)]), Some(Color::Black));
        assert_eq!(a.winner([Some(-MATE_CP), Some(900)]), Some(Color::White));
        // One engine disagrees, or has said nothing.
        assert_eq!(a.winner([Some(900), Some(-300)]), None);
        assert_eq!(a.winner([Some(900), Some(900)]), None);
        assert_eq!(a.winner([Some(900), None]), None);
        for bad in [
            "score=400",
            "plies=3",
            "score=0,plies=3",
            "score=x,plies=3",
            "eval=1",
        ] {
            assert!(Adjudication::parse(bad).is_err(), "{bad}");
        }
    }

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

    #[test]
    fn timestamps_look_right() {
        let t = timestamp();
        assert_eq!(t.len(), 15);
        assert!(t.starts_with("20"));
    }
}
