//! `banmen usi`: the USI protocol, as ShogiGUI, ShogiHome and Shogidokoro speak it.
//!
//! Stdin is read by its own thread and passed over a channel, so commands
//! (`stop`, `ponderhit`, `isready`) are answered while a search runs in
//! another thread. Every line written is flushed at once. A line that cannot
//! be understood gets an `info string` saying why and changes nothing, except
//! that every `go` gets exactly one answer: what cannot be read is left out,
//! and without a valid position the answer is `bestmove resign`.

use crate::lines::read_lines;
use banmen_engine::mate::{solve_mate, MateOptions, MateProgress, MateTable};
use banmen_engine::{
    search, BestMove, Bound, Control, Evaluator, HistoryEntry, Info, Limits, MateResult, Score,
    SearchOptions, Table,
};
use banmen_rules::{
    rules_for, AnyRules, Bb128, Bb320, BitBoard, EnteringKingRule, Move, Position, PositionCommand,
    Rules, SfenMode, VariantName,
};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const ENTERING_KING_RULES: [&str; 4] = ["NoEnteringKing", "CSARule24", "CSARule27", "TryRule"];
const DEFAULT_HASH_MB: usize = 64;
const MAX_HASH_MB: usize = 65536;
const MAX_THREADS: usize = 256;
const MAX_MULTIPV: usize = 64;
/// The largest `Contempt`, either way, in centipawns.
const MAX_CONTEMPT: i32 = 1000;
/// How long a `go` thinks when its limits could not be read and nothing else
/// bounds it (a GUI that sent `go depth x` waits for a `bestmove`, not `stop`).
const FALLBACK_MOVETIME_MS: u64 = 1000;

/// Writes one line to stdout and flushes it.
fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout (the GUI went away) leaves nothing to do.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn info_string(text: &str) {
    // One line: a newline inside would be read by the GUI as a command.
    send(&format!("info string {}", text.replace(['\n', '\r'], " ")));
}

/// The position being analysed, with its game history, on its board type.
struct Session<B: BitBoard> {
    rules: &'static Rules<B>,
    eval: Arc<Evaluator<B>>,
    /// The `EvalParams` and `EvalFile` the evaluator was built with ([`Settings::eval_key`]).
    eval_key: String,
    pos: Position<B>,
    /// Every position of the game up to and including `pos`.
    history: Vec<HistoryEntry>,
    /// The `position` command's start (its SFEN) and moves that gave `pos`:
    /// the next command that only adds moves to them (as GUIs send one
    /// each turn) plays just the new ones.
    start: String,
    moves: Vec<String>,
}

impl<B: BitBoard> Clone for Session<B> {
    fn clone(&self) -> Self {
        Session {
            rules: self.rules,
            eval: Arc::clone(&self.eval),
            eval_key: self.eval_key.clone(),
            pos: self.pos.clone(),
            history: self.history.clone(),
            start: self.start.clone(),
            moves: self.moves.clone(),
        }
    }
}

enum AnySession {
    Nine(Box<Session<Bb128>>),
    Seventeen(Box<Session<Bb320>>),
}

/// Settings from `setoption`.
#[derive(Clone, Debug)]
struct Settings {
    variant: VariantName,
    rules: String,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    entering_king: EnteringKingRule,
    ponder: bool,
    /// Centipawns a drawn repetition counts against the engine (`Contempt`).
    contempt: i32,
    /// A parameter file for the evaluation (`banmen tune`'s output); empty: the built-in one.
    eval_params: String,
    /// A net file (`banmen train-nnue`'s output); empty: the built-in evaluation.
    eval_file: String,
    /// Whether a network evaluates (the built-in one or `eval_file`); false:
    /// the linear evaluation alone.
    use_nnue: bool,
}

impl Settings {
    /// What the evaluator is built from: sessions with the same key share it.
    fn eval_key(&self) -> String {
        format!(
            "{}\0{}\0{}",
            self.eval_params, self.eval_file, self.use_nnue
        )
    }
}

/// A search or mate search running in its own thread.
struct Running {
    handle: JoinHandle<()>,
    control: Arc<Control>,
}

struct Engine {
    settings: Settings,
    session: Option<AnySession>,
    /// Whether `session` was set by a `position` command (not the implicit
    /// start position), so resetting it is worth saying.
    from_position: bool,
    /// Why the last `position` was refused, until a valid one: `go` then
    /// answers from no position rather than the one before.
    position_error: Option<String>,
    /// The table, keyed by the `USI_Hash` it was made for.
    tt: Option<(usize, Arc<Table>)>,
    /// Whether a search has written to the table since it was last cleared.
    tt_used: bool,
    /// The tsume solver's table, keyed by its `USI_Hash`; it and `tt` are
    /// never held at once, so memory stays within `USI_Hash`.
    mate_tt: Option<(usize, Arc<Mutex<MateTable>>)>,
    /// Set by `gameover`: the next `isready` clears the table, so that
    /// `usinewgame`, sent just before the first `go`, has nothing to do.
    game_over: bool,
    running: Option<Running>,
}

/// Runs the protocol until `quit` or the end of input.
pub fn run() -> Result<(), String> {
    // Each line with the moment it arrived: a `go` starts the clock then,
    // however long the line waited behind others.
    // Not UTF-8 is still a line: it gets an error reply, not a crash.
    let rx = read_lines(|| std::io::stdin().lock(), |line| (line, Instant::now()));
    let mut engine = Engine {
        settings: Settings {
            variant: VariantName::default(),
            rules: String::new(),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            entering_king: EnteringKingRule::NoEnteringKing,
            ponder: false,
            contempt: 0,
            eval_params: String::new(),
            eval_file: String::new(),
            use_nnue: true,
        },
        session: None,
        from_position: false,
        position_error: None,
        tt: None,
        tt_used: false,
        mate_tt: None,
        game_over: false,
        running: None,
    };
    // End of input is a quit.
    while let Ok((line, received)) = rx.recv() {
        if !engine.handle(line.trim(), received) {
            break;
        }
    }
    engine.stop();
    Ok(())
}

impl Engine {
    /// Handles one line, received at `received`; false on `quit`.
    fn handle(&mut self, line: &str, received: Instant) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            info_string("empty line ignored");
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "usi" => self.usi(),
            "isready" => {
                if let Err(e) = self.prepare() {
                    info_string(&e);
                }
                if self.game_over && self.running.is_none() {
                    self.clear_table();
                }
                send("readyok");
            }
            "setoption" => self.setoption(&rest),
            "usinewgame" => {
                self.stop();
                // Usually done already by the `isready` after `gameover`.
                self.clear_table();
                self.game_over = false;
                self.position_error = None;
            }
            "position" => {
                if self.running.is_some() {
                    // A GUI sends position only between searches; finish the old one first.
                    self.stop();
                }
                match self.position(&rest) {
                    Ok(s) => {
                        self.session = Some(s);
                        self.from_position = true;
                        self.position_error = None;
                    }
                    Err(e) => {
                        info_string(&format!("position ignored: {e}"));
                        self.session = None;
                        self.from_position = false;
                        self.position_error = Some(e);
                    }
                }
            }
            "go" => self.go(&rest, received),
            "stop" => self.stop(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.control.pondering.store(false, Ordering::Relaxed);
                }
            }
            "gameover" => {
                self.stop();
                self.game_over = true;
            }
            "quit" => return false,
            other => info_string(&format!("unknown command '{}'", printable(other))),
        }
        true
    }

    fn usi(&self) {
        send(&format!("id name Banmen {}", env!("CARGO_PKG_VERSION")));
        send("id author the Banmen authors");
        let games: String = VariantName::ALL
            .iter()
            .map(|v| format!(" var {v}"))
            .collect();
        send(&format!(
            "option name USI_Variant type combo default {}{games}",
            VariantName::default()
        ));
        send(&format!(
            "option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        send("option name USI_Ponder type check default false");
        send(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        send(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        send(&format!(
            "option name Contempt type spin default 0 min -{MAX_CONTEMPT} max {MAX_CONTEMPT}"
        ));
        send(&format!(
            "option name EnteringKingRule type combo default NoEnteringKing{}",
            ENTERING_KING_RULES
                .iter()
                .map(|r| format!(" var {r}"))
                .collect::<String>()
        ));
        send("option name Rules type string default <empty>");
        send("option name EvalParams type string default <empty>");
        send("option name EvalFile type string default <empty>");
        send("option name UseNNUE type check default true");
        send("usiok");
    }

    /// The heavy set-up: the rules tables, the evaluation and the hash table.
    fn prepare(&mut self) -> Result<(), String> {
        self.table();
        if self.session.is_none() {
            self.session = Some(self.position(&["startpos"])?);
            self.from_position = false;
        }
        Ok(())
    }

    /// The table for `USI_Hash`, allocated (and every page written) when the
    /// size changed. A size that cannot be had is clamped, with an `info string`.
    fn table(&mut self) -> Arc<Table> {
        let wanted = self.settings.hash_mb;
        if let Some((mb, tt)) = &self.tt {
            if *mb == wanted {
                return Arc::clone(tt);
            }
        }
        // The old table goes first: the new one may need its memory.
        self.tt = None;
        let (ask, limit) = hash_ask(wanted);
        let tt = Arc::new(Table::new_at_most(ask));
        say_clamped("hash table", wanted, tt.megabytes().max(1), limit);
        self.tt = Some((wanted, Arc::clone(&tt)));
        self.tt_used = false;
        tt
    }

    /// The tsume solver's table for `USI_Hash` (clamped like the search table).
    fn mate_table(&mut self) -> Arc<Mutex<MateTable>> {
        let wanted = self.settings.hash_mb;
        if let Some((mb, tt)) = &self.mate_tt {
            if *mb == wanted {
                return Arc::clone(tt);
            }
        }
        self.mate_tt = None;
        let (mut ask, limit) = hash_ask(wanted);
        let table = loop {
            match MateTable::try_new(ask) {
                Ok(t) => break t,
                Err(_) if ask > 1 => ask /= 2,
                Err(_) => break MateTable::try_new(0).expect("a table of a few entries"),
            }
        };
        say_clamped("mate table", wanted, ask, limit);
        let tt = Arc::new(Mutex::new(table));
        self.mate_tt = Some((wanted, Arc::clone(&tt)));
        tt
    }

    /// Empties the table if a search has used it since it was last emptied.
    fn clear_table(&mut self) {
        if let (true, Some((_, tt))) = (self.tt_used, &self.tt) {
            tt.clear();
        }
        self.tt_used = false;
    }

    /// After a change of game or rules the position is the start position
    /// again; said when the GUI had set one.
    fn reset_position(&mut self, option: &str) {
        if self.from_position && self.session.is_some() {
            info_string(&format!(
                "{option} changed: the position is reset to the start position; \
                 send 'position' again"
            ));
        }
        self.session = None;
        self.from_position = false;
    }

    fn setoption(&mut self, words: &[&str]) {
        let (name, value) = match parse_setoption(words) {
            Ok(nv) => nv,
            Err(e) => return info_string(&format!("setoption ignored: {e}")),
        };
        let spin = |max: usize| -> Result<usize, String> {
            match value.parse::<usize>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "{name} must be a number from 1 to {max}, not '{}'",
                    printable(&value)
                )),
            }
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "usi_variant" => value
                .parse::<VariantName>()
                .map_err(|e| e.to_string())
                .map(|v| {
                    if v != self.settings.variant {
                        self.settings.variant = v;
                        self.reset_position("USI_Variant");
                    }
                }),
            "usi_hash" | "hash" => spin(MAX_HASH_MB).map(|n| self.settings.hash_mb = n),
            "threads" => spin(MAX_THREADS).map(|n| self.settings.threads = n),
            "multipv" => spin(MAX_MULTIPV).map(|n| self.settings.multipv = n),
            "contempt" => match value.parse::<i32>() {
                Ok(n) if (-MAX_CONTEMPT..=MAX_CONTEMPT).contains(&n) => {
                    self.settings.contempt = n;
                    Ok(())
                }
                _ => Err(format!(
                    "Contempt must be a number from -{MAX_CONTEMPT} to {MAX_CONTEMPT}, not '{}'",
                    printable(&value)
                )),
            },
            "usi_ponder" => match value.as_str() {
                "true" | "false" => {
                    self.settings.ponder = value == "true";
                    Ok(())
                }
                _ => Err(format!(
                    "USI_Ponder must be true or false, not '{}'",
                    printable(&value)
                )),
            },
            "enteringkingrule" => value
                .parse::<EnteringKingRule>()
                .map(|r| self.settings.entering_king = r)
                .map_err(|e| e.to_string()),
            "rules" => {
                let text = if value == "<empty>" {
                    ""
                } else {
                    value.as_str()
                };
                // GUIs send options in any order: rules for another game are
                // kept until USI_Variant names that game.
                match rules_for(self.settings.variant, text) {
                    Err(e) if !VariantName::ALL.iter().any(|&n| rules_for(n, text).is_ok()) => {
                        Err(e.to_string())
                    }
                    _ => {
                        if self.settings.rules != text {
                            self.settings.rules = text.to_string();
                            self.reset_position("Rules");
                        }
                        Ok(())
                    }
                }
            }
            "evalparams" => {
                let path = if value == "<empty>" {
                    ""
                } else {
                    value.as_str()
                };
                match std::fs::read_to_string(path) {
                    Err(e) if !path.is_empty() => Err(format!(
                        "EvalParams: cannot read '{}': {e}; the built-in parameters stay",
                        printable(path)
                    )),
                    _ => {
                        self.settings.eval_params = path.to_string();
                        Ok(())
                    }
                }
            }
            "usennue" => match value.as_str() {
                "true" | "false" => {
                    self.settings.use_nnue = value == "true";
                    Ok(())
                }
                _ => Err(format!(
                    "UseNNUE must be true or false, not '{}'",
                    printable(&value)
                )),
            },
            "evalfile" => {
                let path = if value == "<empty>" {
                    ""
                } else {
                    value.as_str()
                };
                match std::fs::metadata(path) {
                    Err(e) if !path.is_empty() => Err(format!(
                        "EvalFile: cannot read '{}': {e}; the built-in evaluation stays",
                        printable(path)
                    )),
                    _ => {
                        self.settings.eval_file = path.to_string();
                        Ok(())
                    }
                }
            }
            _ => Err(format!("unknown option '{}'", printable(&name))),
        };
        if let Err(e) = result {
            info_string(&format!("setoption ignored: {e}"));
        }
    }

    /// Builds the position of a `position` command (words after `position`).
    fn position(&self, words: &[&str]) -> Result<AnySession, String> {
        let variant = self.settings.variant;
        let rules = rules_for(variant, &self.settings.rules).or_else(|e| {
            info_string(&format!(
                "Rules '{}' do not apply to {variant} ({e}); playing with its default rules",
                printable(&self.settings.rules)
            ));
            rules_for(variant, "")
        });
        let rules = rules.map_err(|e| e.to_string())?;
        Ok(match rules {
            AnyRules::Nine(r) => {
                let key = self.settings.eval_key();
                let eval = match &self.session {
                    Some(AnySession::Nine(s)) if std::ptr::eq(s.rules, r) && s.eval_key == key => {
                        Arc::clone(&s.eval)
                    }
                    _ => Arc::new(evaluator(r, &self.settings)),
                };
                let prev = match &self.session {
                    Some(AnySession::Nine(s)) => Some(&**s),
                    _ => None,
                };
                let mut session = build_session(r, eval, words, prev)?;
                session.eval_key = key;
                AnySession::Nine(Box::new(session))
            }
            AnyRules::Seventeen(r) => {
                let key = self.settings.eval_key();
                let eval = match &self.session {
                    Some(AnySession::Seventeen(s))
                        if std::ptr::eq(s.rules, r) && s.eval_key == key =>
                    {
                        Arc::clone(&s.eval)
                    }
                    _ => Arc::new(evaluator(r, &self.settings)),
                };
                let prev = match &self.session {
                    Some(AnySession::Seventeen(s)) => Some(&**s),
                    _ => None,
                };
                let mut session = build_session(r, eval, words, prev)?;
                session.eval_key = key;
                AnySession::Seventeen(Box::new(session))
            }
        })
    }

    /// Every `go` gets exactly one answer (`bestmove`, or `checkmate` for
    /// `go mate`), whatever was wrong with it or with the position.
    fn go(&mut self, words: &[&str], received: Instant) {
        self.stop();
        let (mut go, complaints) = parse_go(words);
        for c in &complaints {
            info_string(c);
        }
        go.limits.start = Some(received);
        let refused = match &self.position_error {
            Some(e) => Some(format!(
                "no valid position: the last 'position' was refused ({e})"
            )),
            None => self
                .prepare()
                .err()
                .map(|e| format!("no valid position: {e}")),
        };
        if let Some(why) = refused {
            info_string(&why);
            send(if go.mate.is_some() {
                "checkmate timeout"
            } else {
                "bestmove resign"
            });
            return;
        }
        let mate_tt = if go.mate.is_some() {
            self.tt = None;
            self.tt_used = false;
            Some(self.mate_table())
        } else {
            self.mate_tt = None;
            None
        };
        let tt = if mate_tt.is_some() {
            Arc::new(Table::new(0))
        } else {
            self.tt_used = true;
            self.table()
        };
        let control = Arc::new(Control::default());
        control.pondering.store(go.limits.ponder, Ordering::Relaxed);
        let options = SearchOptions {
            multipv: self.settings.multipv,
            threads: self.settings.threads,
            entering_king: self.settings.entering_king,
            contempt: self.settings.contempt,
        };
        let handle = match self.session.as_ref().expect("prepared") {
            AnySession::Nine(s) => spawn(
                s.as_ref().clone(),
                tt,
                mate_tt,
                go,
                options,
                Arc::clone(&control),
            ),
            AnySession::Seventeen(s) => spawn(
                s.as_ref().clone(),
                tt,
                mate_tt,
                go,
                options,
                Arc::clone(&control),
            ),
        };
        self.running = Some(Running { handle, control });
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.pondering.store(false, Ordering::Relaxed);
            r.control.stop.store(true, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }
}

/// A `go` command: a search, or a mate search with its time limit.
#[derive(Debug, Clone)]
struct Go {
    limits: Limits,
    /// `go mate`: `Some(None)` without a time limit.
    mate: Option<Option<Duration>>,
    /// The moves after `searchmoves`, read against the position when it searches.
    searchmoves: Vec<String>,
}

fn spawn<B: BitBoard>(
    session: Session<B>,
    tt: Arc<Table>,
    mate_tt: Option<Arc<Mutex<MateTable>>>,
    mut go: Go,
    options: SearchOptions,
    control: Arc<Control>,
) -> JoinHandle<()> {
    go.limits.searchmoves = searchmoves(&session.pos, &go.searchmoves);
    std::thread::spawn(move || {
        if let (Some(limit), Some(mate_tt)) = (go.mate, mate_tt) {
            let start = go.limits.start.unwrap_or_else(Instant::now);
            let deadline = limit.map(|d| start + d);
            let mut table = mate_tt.lock().unwrap_or_else(|e| e.into_inner());
            let mut progress = |p: &MateProgress| {
                let ms = p.elapsed.as_millis().max(1);
                send(&format!(
                    "info time {ms} nodes {} nps {} hashfull {}",
                    p.nodes,
                    p.nodes as u128 * 1000 / ms,
                    p.hashfull
                ));
            };
            let report = solve_mate(
                &session.pos,
                &mut table,
                deadline,
                &control,
                &MateOptions::default(),
                &mut progress,
            );
            let ms = report.elapsed.as_millis().max(1);
            send(&format!(
                "info time {ms} nodes {} nps {}",
                report.nodes,
                report.nodes as u128 * 1000 / ms
            ));
            let answer = match report.result {
                MateResult::Mate(line) => {
                    if !report.shortest {
                        info_string(&format!(
                            "time ran out before the shortest mate was proven: this line has {} \
                             plies, the shortest mate at most {}",
                            line.len(),
                            report.bound.unwrap_or(line.len())
                        ));
                    }
                    format!("checkmate {}", usi_line(&session.pos, &line))
                }
                MateResult::NoMate => "checkmate nomate".to_string(),
                MateResult::Timeout => "checkmate timeout".to_string(),
            };
            send(&answer);
            return;
        }
        let pos = &session.pos;
        let report = |info: &Info| send(&info_line(pos, info));
        let result = search(
            pos,
            &session.history,
            &session.eval,
            &tt,
            &go.limits,
            &options,
            &control,
            &report,
        );
        let line = match result.best {
            BestMove::Move(m, Some(p)) => {
                let after = pos.after(m);
                if after.is_legal(p) {
                    format!(
                        "bestmove {} ponder {}",
                        pos.move_to_usi(m),
                        after.move_to_usi(p)
                    )
                } else {
                    format!("bestmove {}", pos.move_to_usi(m))
                }
            }
            BestMove::Move(m, None) => format!("bestmove {}", pos.move_to_usi(m)),
            BestMove::Resign => "bestmove resign".to_string(),
            BestMove::Win => "bestmove win".to_string(),
        };
        send(&line);
    })
}

/// Moves in USI notation, each on the position the previous one left.
fn usi_line<B: BitBoard>(pos: &Position<B>, line: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(p.move_to_usi(m));
        p.make_move(m);
    }
    out.join(" ")
}

fn info_line<B: BitBoard>(pos: &Position<B>, info: &Info) -> String {
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} time {ms} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        usi_line(pos, &info.pv)
    )
}

/// The evaluator for `rules`: the built-in parameters, replaced by those of
/// the file `EvalParams` names, and the net of the file `EvalFile` names (an
/// `info string` says what was loaded, or why not).
fn evaluator<B: BitBoard>(rules: &'static Rules<B>, settings: &Settings) -> Evaluator<B> {
    let mut eval = Evaluator::new(rules);
    let file = settings.eval_file.as_str();
    if !settings.use_nnue {
        let _ = eval.set_net(None);
    } else if !file.is_empty() {
        match load_net(rules, file) {
            Ok(net) => {
                let about = format!(
                    "EvalFile: {} for {}, hidden {}, {} king buckets",
                    printable(file),
                    net.variant,
                    net.hidden,
                    net.features.buckets
                );
                match eval.set_net(Some(Arc::new(net))) {
                    Ok(()) => info_string(&about),
                    Err(e) => info_string(&format!(
                        "EvalFile: cannot use {}: {e}; the built-in evaluation stays",
                        printable(file)
                    )),
                }
            }
            Err(e) => info_string(&format!(
                "EvalFile: cannot use {}: {e}; the built-in evaluation stays",
                printable(file)
            )),
        }
    }
    let params = settings.eval_params.as_str();
    if params.is_empty() {
        return eval;
    }
    match std::fs::read_to_string(params) {
        Ok(text) => {
            let n = eval.load(&text);
            info_string(&format!(
                "EvalParams: {n} of {} parameters from {}",
                eval.weights().len(),
                printable(params)
            ));
        }
        Err(e) => info_string(&format!(
            "EvalParams: cannot read {}: {e}; the built-in parameters stay",
            printable(params)
        )),
    }
    eval
}

/// Reads a net file for `rules`' game.
pub(crate) fn load_net<B: BitBoard>(
    rules: &'static Rules<B>,
    path: &str,
) -> Result<banmen_engine::nnue::Net, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    banmen_engine::nnue::Net::from_bytes(&bytes, rules).map_err(|e| e.to_string())
}

fn build_session<B: BitBoard>(
    rules: &'static Rules<B>,
    eval: Arc<Evaluator<B>>,
    words: &[&str],
    prev: Option<&Session<B>>,
) -> Result<Session<B>, String> {
    let command = PositionCommand::parse(&words.join(" ")).map_err(|e| e.to_string())?;
    let sfen = command.sfen(rules);
    // The previous position when this command only adds moves to its own:
    // replaying a long game (a dai dai game of 650 plies took some 4 ms)
    // would come out of the next search's time.
    let extends = prev.filter(|p| {
        std::ptr::eq(p.rules, rules)
            && p.start == sfen
            && command.moves.len() >= p.moves.len()
            && command.moves[..p.moves.len()] == p.moves[..]
    });
    let (mut pos, mut history, done) = match extends {
        Some(p) => (p.pos.clone(), p.history.clone(), p.moves.len()),
        None => {
            // A tsume problem may leave out the attacker's king.
            let pos = Position::from_sfen(rules, sfen, SfenMode::Strict)
                .or_else(|strict| {
                    Position::from_sfen(rules, sfen, SfenMode::Tsume).map_err(|_| strict)
                })
                .map_err(|e| format!("bad SFEN '{}': {e}", printable(sfen)))?;
            let history = vec![HistoryEntry {
                hash: pos.hash(),
                check: pos.in_check(),
            }];
            (pos, history, 0)
        }
    };
    for (i, text) in command.moves.iter().enumerate().skip(done) {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, printable(text)))?;
        pos.make_move(m);
        history.push(HistoryEntry {
            hash: pos.hash(),
            check: pos.in_check(),
        });
    }
    Ok(Session {
        rules,
        eval,
        eval_key: String::new(),
        pos,
        history,
        start: sfen.to_string(),
        moves: command.moves,
    })
}

/// `setoption name <name...> value <value...>` → (name, value).
fn parse_setoption(words: &[&str]) -> Result<(String, String), String> {
    if words.first() != Some(&"name") {
        return Err("expected 'setoption name <id> [value <x>]'".into());
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name_end = value_at.unwrap_or(words.len());
    if name_end <= 1 {
        return Err("missing option name".into());
    }
    let name = words[1..name_end].join(" ");
    let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
    Ok((name, value))
}

/// The `searchmoves` that are legal in `pos`; the others are ignored, each
/// with an `info string`.
fn searchmoves<B: BitBoard>(pos: &Position<B>, texts: &[String]) -> Vec<Move> {
    let mut moves = Vec::new();
    for text in texts {
        match pos.parse_move(text) {
            Ok(m) => moves.push(m),
            Err(e) => info_string(&format!("searchmoves: '{}' ignored: {e}", printable(text))),
        }
    }
    if !texts.is_empty() && moves.is_empty() {
        info_string("searchmoves: no legal move given; searching every move");
    }
    moves
}

/// The words of `go` that start a parameter.
const GO_WORDS: [&str; 13] = [
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "rtime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Reads `go`'s parameters. Never fails: what cannot be read is left out and
/// reported in the returned complaints, and the search still runs.
fn parse_go(words: &[&str]) -> (Go, Vec<String>) {
    let mut go = Go {
        limits: Limits::default(),
        mate: None,
        searchmoves: Vec::new(),
    };
    let mut complaints = Vec::new();
    let number = |w: Option<&&str>| {
        w.and_then(|w| w.parse::<i64>().ok())
            .map(|n| n.max(0) as u64)
    };
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        match w {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "movetime" | "rtime" | "depth"
            | "nodes" => {
                let Some(n) = number(words.get(i + 1)) else {
                    complaints.push(match words.get(i + 1) {
                        Some(next) if !GO_WORDS.contains(next) => {
                            i += 1;
                            format!("go: '{w} {}' ignored: not a number", printable(next))
                        }
                        _ => format!("go: '{w}' ignored: it needs a number"),
                    });
                    i += 1;
                    continue;
                };
                let l = &mut go.limits;
                match w {
                    "btime" => l.time[0] = Some(n),
                    "wtime" => l.time[1] = Some(n),
                    "binc" => l.increment[0] = n,
                    "winc" => l.increment[1] = n,
                    "byoyomi" => l.byoyomi = n,
                    "movetime" => l.movetime = Some(n),
                    // YaneuraOu's randomised time: here a plain movetime.
                    "rtime" => {
                        complaints.push(format!("go: 'rtime {n}' read as 'movetime {n}'"));
                        l.movetime = l.movetime.or(Some(n));
                    }
                    "depth" => l.depth = Some(n.clamp(1, 64) as i32),
                    _ => l.nodes = Some(n),
                }
                i += 1;
            }
            "mate" => match words.get(i + 1) {
                None => go.mate = Some(None),
                Some(&"infinite") => {
                    go.mate = Some(None);
                    i += 1;
                }
                Some(next) => match number(Some(next)) {
                    Some(n) => {
                        go.mate = Some(Some(Duration::from_millis(n)));
                        i += 1;
                    }
                    None => {
                        complaints.push(format!(
                            "go: 'mate {}' is not a number or 'infinite'; \
                             searching for {FALLBACK_MOVETIME_MS} ms",
                            printable(next)
                        ));
                        go.mate = Some(Some(Duration::from_millis(FALLBACK_MOVETIME_MS)));
                        if !GO_WORDS.contains(next) {
                            i += 1;
                        }
                    }
                },
            },
            "searchmoves" => {
                while let Some(m) = words.get(i + 1).filter(|m| !GO_WORDS.contains(m)) {
                    go.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            other => complaints.push(format!(
                "go: unknown parameter '{}' ignored",
                printable(other)
            )),
        }
        i += 1;
    }
    let l = &go.limits;
    let bounded =
        !l.unbounded() || l.ponder || l.depth.is_some() || l.nodes.is_some() || go.mate.is_some();
    if !bounded && complaints.iter().any(|c| !c.contains("rtime")) {
        complaints.push(format!(
            "go: nothing left to limit the search; thinking for {FALLBACK_MOVETIME_MS} ms"
        ));
        go.limits.movetime = Some(FALLBACK_MOVETIME_MS);
    }
    (go, complaints)
}

/// The MiB to ask for `USI_Hash` `wanted` on this machine, and the limit.
fn hash_ask(wanted: usize) -> (usize, Option<(usize, &'static str)>) {
    let limit = hash_limit_mb();
    (limit.map_or(wanted, |(l, _)| wanted.min(l.max(1))), limit)
}

/// The `info string` of a table (`what`) smaller than `USI_Hash` asked for.
fn say_clamped(what: &str, wanted: usize, got: usize, limit: Option<(usize, &'static str)>) {
    if got < wanted {
        let why = match limit {
            Some((l, source)) if l < wanted => format!("{source}: {l} MiB"),
            _ => "the allocation failed".to_string(),
        };
        info_string(&format!(
            "USI_Hash {wanted} MiB is more than this machine can give ({why}); \
             the {what} is clamped to {got} MiB"
        ));
    }
}

/// The most the hash table may take, in MiB, and where that figure comes
/// from: `BANMEN_HASH_LIMIT_MB` if set, else half the memory Linux reports
/// available (the rest is for the GUI, an opponent engine, the system).
/// `None` where neither is known; the allocation itself is fallible anyway.
///
/// The allocation alone is not enough: Linux promises more memory than it has
/// (overcommit) and kills the process that writes to it once it runs out.
fn hash_limit_mb() -> Option<(usize, &'static str)> {
    if let Some(mb) = std::env::var("BANMEN_HASH_LIMIT_MB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        return Some((mb, "BANMEN_HASH_LIMIT_MB"));
    }
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    Some((mem_available_mb(&text)? / 2, "half the available memory"))
}

/// `MemAvailable` of `/proc/meminfo`, in MiB.
fn mem_available_mb(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Text from the GUI, shortened and with control characters shown safely.
fn printable(text: &str) -> String {
    let mut s: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        s.push('…');
    }
    s.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            parse_setoption(&["name", "Rules", "value", "great-elephant=none,", "x=y"]),
            Ok(("Rules".to_string(), "great-elephant=none, x=y".to_string()))
        );
        assert!(parse_setoption(&["Rules"]).is_err());
    }

    #[test]
    fn go_parameters_parse() {
        let (g, complaints) = parse_go(&["btime", "1000", "wtime", "2000", "byoyomi", "500"]);
        assert_eq!(g.limits.time, [Some(1000), Some(2000)]);
        assert_eq!(g.limits.byoyomi, 500);
        assert!(complaints.is_empty());
        assert_eq!(parse_go(&["mate", "infinite"]).0.mate, Some(None));
        let (g, _) = parse_go(&["searchmoves", "7g7f", "2g2f", "byoyomi", "100"]);
        assert_eq!(g.searchmoves, ["7g7f", "2g2f"]);
        assert_eq!(g.limits.byoyomi, 100);
    }

    #[test]
    fn bad_go_parameters_are_left_out_and_the_search_stays_bounded() {
        for words in [
            &["depth", "x"][..],
            &["depth"],
            &["sideways"],
            &["nodes", "-"],
        ] {
            let (g, complaints) = parse_go(words);
            assert!(!complaints.is_empty(), "{words:?}");
            assert_eq!(g.limits.movetime, Some(FALLBACK_MOVETIME_MS), "{words:?}");
        }
        // A bad value before another parameter does not swallow it.
        let (g, complaints) = parse_go(&["depth", "byoyomi", "300", "fast"]);
        assert_eq!(g.limits.byoyomi, 300);
        assert_eq!(g.limits.movetime, None);
        assert_eq!(complaints.len(), 2, "{complaints:?}");
        let (g, complaints) = parse_go(&["rtime", "200"]);
        assert_eq!(g.limits.movetime, Some(200));
        assert_eq!(complaints.len(), 1);
        // A plain `go` is an unbounded search, as GUIs mean it.
        let (g, complaints) = parse_go(&[]);
        assert!(complaints.is_empty() && g.limits.unbounded());
    }

    #[test]
    fn mem_available_is_read_from_meminfo() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2097152 kB\n";
        assert_eq!(mem_available_mb(text), Some(2048));
        assert_eq!(mem_available_mb("MemTotal: 1 kB\n"), None);
    }
}
