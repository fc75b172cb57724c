//! `banmen play`: a terminal board. The human types moves in USI or Western
//! notation and commands; the engine replies; the rules core adjudicates.
//! Reads stdin line by line, so it works the same from a terminal or a pipe.

use crate::play_board::{self, side_mark, PieceStyle, View};
use crate::setup::{self, PositionArgs};
use banmen_engine::{
    search, BestMove, Control, Evaluator, HistoryEntry, Limits, Score, SearchOptions,
};
use banmen_formats::notation::{parse_western, to_western, NotationError};
use banmen_formats::{Format, GameResult, Record};
use banmen_rules::game::GameError;
use banmen_rules::with_position;
use banmen_rules::{
    BitBoard, Color, EnteringKingRule, Game, GameOptions, Move, MoveError, Outcome, Position,
    Reason, UnknownEnteringKingRule, UsiMove, VariantName,
};
use clap::{Args, ValueEnum};
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;

/// Arguments of `banmen play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Your side.
    #[arg(long, value_enum, default_value = "black")]
    pub side: Side,
    /// The engine's time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Who plays the other side: the engine, or a second person at the same keyboard.
    #[arg(long, value_enum, default_value = "engine")]
    pub opponent: Opponent,
    /// Piece style (default: kanji for shogi and cannon shogi, letters for dai dai shogi).
    #[arg(long, value_enum)]
    pub pieces: Option<PieceStyle>,
    /// Colours: auto (on for a terminal unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// No colours (same as `--color never`).
    #[arg(long)]
    pub no_color: bool,
    /// The entering-king (nyūgyoku) rule: NoEnteringKing, CSARule24, CSARule27 or TryRule.
    #[arg(long, default_value = "NoEnteringKing", value_parser = parse_entering_king)]
    pub entering_king: EnteringKingRule,
    /// Continue a saved game (KIF, KI2, CSA, SFEN or USI line; the file's game wins over --variant).
    #[arg(long, conflicts_with_all = ["sfen", "handicap", "moves"])]
    pub load: Option<PathBuf>,
}

fn parse_entering_king(s: &str) -> Result<EnteringKingRule, UnknownEnteringKingRule> {
    s.parse()
}

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Black (sente), moves first in an even game.
    Black,
    /// White (gote).
    White,
}

/// The other player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// Banmen's engine.
    Engine,
    /// Another person typing at the same terminal.
    Human,
}

/// When to colour the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On when stdout is a terminal and NO_COLOR is unset or empty.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Lines longer than this are refused unread (no move or command is near it).
const MAX_LINE: usize = 4096;

/// The game to start: variant, rule options, start SFEN and moves already played.
struct Start {
    variant: VariantName,
    rules: String,
    start: String,
    moves: Vec<String>,
}

/// `banmen play`.
///
/// # Errors
/// Bad arguments: unknown game, rules, handicap, SFEN, moves or file.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let start = match &args.load {
        Some(path) => load(path)?,
        None => {
            let variant: VariantName = args.position.variant.parse().map_err(|e| format!("{e}"))?;
            let mut plain = args.position.clone();
            plain.moves = None;
            let sfen = with_position!(setup::position(&plain)?, p => p.to_sfen());
            Start {
                variant,
                rules: args.position.rules.clone().unwrap_or_default(),
                start: sfen,
                moves: args
                    .position
                    .moves
                    .as_deref()
                    .unwrap_or("")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            }
        }
    };
    let position_args = PositionArgs {
        variant: start.variant.to_string(),
        rules: (!start.rules.is_empty()).then(|| start.rules.clone()),
        sfen: Some(start.start.clone()),
        handicap: None,
        moves: None,
        tsume: args.position.tsume || args.load.is_some(),
    };
    let color = match (args.no_color, args.color) {
        (true, _) | (false, ColorChoice::Never) => false,
        (false, ColorChoice::Always) => true,
        (false, ColorChoice::Auto) => {
            io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let human_side = match args.side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let settings = Settings {
        variant: start.variant,
        rules: start.rules.clone(),
        view: View {
            // Chosen below, once the game's pieces are known.
            style: args.pieces.unwrap_or(PieceStyle::Kanji),
            color,
            bottom: human_side,
        },
        human: match args.opponent {
            Opponent::Engine => [human_side == Color::Black, human_side == Color::White],
            Opponent::Human => [true, true],
        },
        movetime: args.movetime.max(1),
        entering_king: args.entering_king,
    };
    with_position!(setup::position(&position_args)?, pos => {
        let mut settings = settings;
        settings.view.style = args
            .pieces
            .unwrap_or_else(|| play_board::default_style(pos.rules()));
        let options = GameOptions {
            entering_king: args.entering_king,
            ..GameOptions::default()
        };
        let mut game = Game::new(*pos, options);
        for (i, text) in start.moves.iter().enumerate() {
            game.play_usi(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        let stdin = io::stdin();
        let stdout = io::stdout();
        let mut session = Session::new(game, settings, stdin.lock(), stdout.lock());
        // A closed stdout (a pipe that went away) just ends the session.
        let _ = session.run();
    });
    Ok(())
}

/// Reads a saved game.
fn load(path: &PathBuf) -> Result<Start, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let format = Format::from_extension(&path.to_string_lossy());
    let record = banmen_formats::read(&bytes, format)
        .or_else(|e| match format {
            // A file named .kif may hold an SFEN line (the fallback of `save`).
            Some(_) => banmen_formats::read(&bytes, None).map_err(|_| e),
            None => Err(e),
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Start {
        variant: record.variant,
        rules: record.rules,
        start: record.start,
        moves: record.moves,
    })
}

/// The fixed choices of a session.
struct Settings {
    variant: VariantName,
    rules: String,
    view: View,
    /// Whether each side (by colour index) is played by a person.
    human: [bool; 2],
    movetime: u64,
    entering_king: EnteringKingRule,
}

/// What to do after a line.
enum Flow {
    Continue,
    Quit,
}

/// A game at the terminal.
struct Session<B: BitBoard, R, W> {
    game: Game<B>,
    settings: Settings,
    view: View,
    input: R,
    out: W,
    engine: Option<Evaluator<B>>,
    table: banmen_engine::Table,
    /// The board changed since it was last printed.
    dirty: bool,
    /// The result was printed.
    announced: bool,
}

impl<B: BitBoard, R: BufRead, W: Write> Session<B, R, W> {
    fn new(game: Game<B>, settings: Settings, input: R, out: W) -> Self {
        let engine = if settings.human.iter().all(|&h| h) {
            None
        } else {
            Some(Evaluator::new(game.position().rules()))
        };
        // The engine's hash table in MB (a token one between two people).
        let table_mb = if engine.is_some() { 16 } else { 1 };
        Session {
            view: settings.view,
            game,
            settings,
            input,
            out,
            engine,
            table: banmen_engine::Table::new(table_mb),
            dirty: true,
            announced: false,
        }
    }

    fn run(&mut self) -> io::Result<()> {
        let human_sides: Vec<&str> = Color::ALL
            .into_iter()
            .filter(|c| self.settings.human[c.index()])
            .map(|c| c.name())
            .collect();
        writeln!(
            self.out,
            "Banmen {} — you play {}; type a move (7g7f, P-7f) or 'help'.",
            self.settings.variant,
            human_sides.join(" and ")
        )?;
        loop {
            if self.game.outcome().is_none() && self.engine_to_move() {
                self.engine_move()?;
                continue;
            }
            if self.dirty {
                self.show()?;
            }
            self.announce()?;
            let prompt = match self.game.outcome() {
                Some(_) => "game over".to_string(),
                None => {
                    let c = self.game.position().side_to_move();
                    format!("{} {} to move", side_mark(c), c.name())
                }
            };
            write!(self.out, "{prompt}> ")?;
            self.out.flush()?;
            let Some(line) = self.read_line()? else {
                writeln!(self.out)?;
                writeln!(self.out, "end of input: goodbye")?;
                break;
            };
            writeln!(self.out)?;
            if let Flow::Quit = self.handle(&line)? {
                break;
            }
        }
        self.out.flush()
    }

    /// One line of input, lossily decoded; `None` at end of input.
    fn read_line(&mut self) -> io::Result<Option<String>> {
        let mut buf = Vec::new();
        let n = Read::take(&mut self.input, MAX_LINE as u64 + 1).read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // Skip the rest of the overlong line.
            let mut rest = Vec::new();
            self.input.read_until(b'\n', &mut rest)?;
            return Ok(Some(String::from("\u{0}overlong")));
        }
        Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
    }

    fn engine_to_move(&self) -> bool {
        !self.settings.human[self.game.position().side_to_move().index()]
    }

    fn labels(&self) -> [&'static str; 2] {
        let both = self.settings.human.iter().all(|&h| h);
        let name = |c: Color| match (self.settings.human[c.index()], both) {
            (true, true) => "human",
            (true, false) => "you",
            (false, _) => "Banmen",
        };
        [name(Color::Black), name(Color::White)]
    }

    fn show(&mut self) -> io::Result<()> {
        let pos = self.game.position();
        let last = self.game.moves().last().copied();
        let board = play_board::render(pos, &self.view, last, self.labels());
        write!(self.out, "{board}")?;
        if let Some(m) = last {
            let before = self.before_last();
            let mover = before.side_to_move();
            writeln!(
                self.out,
                "last move: {} {}",
                side_mark(mover),
                describe(&before, m)
            )?;
        }
        if pos.in_check() && self.game.outcome().is_none() {
            writeln!(self.out, "check: {} is in check", pos.side_to_move().name())?;
        }
        self.dirty = false;
        Ok(())
    }

    /// The position before the last move.
    fn before_last(&self) -> Position<B> {
        let mut p = self.game.start().clone();
        let moves = self.game.moves();
        for &m in &moves[..moves.len().saturating_sub(1)] {
            p.make_move(m);
        }
        p
    }

    fn announce(&mut self) -> io::Result<()> {
        let Some(o) = self.game.outcome() else {
            self.announced = false;
            return Ok(());
        };
        if self.announced {
            return Ok(());
        }
        self.announced = true;
        writeln!(self.out, "game over: {}", result_text(o, self.labels()))?;
        writeln!(
            self.out,
            "(type 'save FILE' to keep the game, 'undo' to take back, 'quit' to leave)"
        )
    }

    fn engine_move(&mut self) -> io::Result<()> {
        let Some(eval) = &self.engine else {
            return Ok(());
        };
        let pos = self.game.position().clone();
        let mover = pos.side_to_move();
        writeln!(
            self.out,
            "Banmen is thinking ({} ms)...",
            self.settings.movetime
        )?;
        self.out.flush()?;
        let mut history = Vec::with_capacity(self.game.moves().len() + 1);
        let mut p = self.game.start().clone();
        history.push(HistoryEntry {
            hash: p.hash(),
            check: p.in_check(),
        });
        for &m in self.game.moves() {
            p.make_move(m);
            history.push(HistoryEntry {
                hash: p.hash(),
                check: p.in_check(),
            });
        }
        let limits = Limits {
            movetime: Some(self.settings.movetime),
            ..Limits::default()
        };
        let result = search(
            &pos,
            &history,
            eval,
            &self.table,
            &limits,
            &SearchOptions {
                entering_king: self.settings.entering_king,
                ..SearchOptions::default()
            },
            &Control::default(),
            &|_| {},
        );
        match result.best {
            BestMove::Move(m, _) => {
                let text = describe(&pos, m);
                if self.game.play(m).is_ok() {
                    let score = match Score::from_internal(result.score) {
                        Score::Cp(cp) => format!("score {cp:+}"),
                        Score::Mate(n) if n > 0 => format!("mate in {}", (n + 1) / 2),
                        Score::Mate(n) => format!("mated in {}", (1 - n) / 2),
                    };
                    writeln!(
                        self.out,
                        "{} Banmen plays {text}   [depth {}, {score}]",
                        side_mark(mover),
                        result.depth
                    )?;
                } else {
                    writeln!(
                        self.out,
                        "Banmen chose an illegal move ({text}) and resigns"
                    )?;
                    self.game.resign(mover);
                }
            }
            BestMove::Resign => {
                writeln!(self.out, "{} Banmen resigns", side_mark(mover))?;
                self.game.resign(mover);
            }
            BestMove::Win => {
                if self.game.declare().is_ok() {
                    writeln!(self.out, "{} Banmen declares a win", side_mark(mover))?;
                } else {
                    self.game.resign(mover);
                }
            }
        }
        self.dirty = true;
        Ok(())
    }

    fn handle(&mut self, raw: &str) -> io::Result<Flow> {
        let line = raw.trim();
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        if line.contains('\u{0}') || line.chars().any(|c| c.is_control() && c != '\t') {
            writeln!(
                self.out,
                "unreadable input (control characters or a line over {MAX_LINE} bytes); type 'help'"
            )?;
            return Ok(Flow::Continue);
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => {
                writeln!(self.out, "goodbye")?;
                return Ok(Flow::Quit);
            }
            "help" | "?" | "h" => self.help()?,
            "board" | "show" => self.show()?,
            "flip" => {
                self.view.bottom = !self.view.bottom;
                self.show()?;
            }
            "moves" => self.list_moves()?,
            "undo" => self.undo()?,
            "resign" => self.resign()?,
            "declare" => self.declare()?,
            "impasse" => self.impasse()?,
            "save" => self.save(rest)?,
            _ => self.human_move(line)?,
        }
        Ok(Flow::Continue)
    }

    fn help(&mut self) -> io::Result<()> {
        let lion = if self.game.position().rules().variant.has_lion_moves() {
            "\n  lion moves name three squares: from, middle, to (15p15o15n; igui 15p15o15p)"
        } else {
            ""
        };
        writeln!(
            self.out,
            "moves:\n  USI: 7g7f, 8h2b+ (promote), P*5e (drop){lion}\n  \
             Western: P-7f, Bx2b+, N-7c= (decline promotion), G6i-5h (origin), P*5e\n\
             commands:\n  \
             moves      list the legal moves\n  \
             undo       take back your last move (and the engine's reply)\n  \
             flip       turn the board around\n  \
             board      print the board again\n  \
             save FILE  save the game: .kif (KIF), .kifu, .ki2, .csa, otherwise SFEN + USI moves\n  \
             resign     give up the game\n  \
             declare    claim a win by entering king (with --entering-king CSARule24/CSARule27)\n  \
             impasse    both kings in their zones: score the impasse by points (jishogi)\n  \
             help       this text\n  \
             quit       leave (so does end of input)\n\
             board: ☗ Black, ☖ White; * marks the last move, ! a king in check; \
             kanji pieces marked v face the top"
        )
    }

    fn list_moves(&mut self) -> io::Result<()> {
        if let Some(o) = self.game.outcome() {
            writeln!(self.out, "the game is over ({})", reason_text(o.reason))?;
            return Ok(());
        }
        let pos = self.game.position();
        // Games with lion moves list moves by their squares only (their
        // lists are long; `describe` would add the piece code).
        let western = !pos.rules().variant.has_lion_moves();
        let mut items: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                if western {
                    describe(pos, m)
                } else {
                    pos.move_to_usi(m)
                }
            })
            .collect();
        // Natural order: 2g2f before 10g10f, board moves before drops.
        items.sort_by_key(|text| {
            let mut key = String::new();
            let mut digits = String::new();
            for c in text.chars().chain(std::iter::once(' ')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                } else {
                    if !digits.is_empty() {
                        key.push_str(&format!("{digits:0>2}"));
                        digits.clear();
                    }
                    key.push(c);
                }
            }
            (text.contains('*'), key)
        });
        writeln!(self.out, "legal moves ({}):", items.len())?;
        let mut line = String::new();
        for item in items {
            if !line.is_empty() && line.len() + item.len() + 2 > 78 {
                writeln!(self.out, " {line}")?;
                line.clear();
            }
            line.push(' ');
            line.push_str(&item);
        }
        if !line.is_empty() {
            writeln!(self.out, " {line}")?;
        }
        Ok(())
    }

    fn undo(&mut self) -> io::Result<()> {
        if let Some(Outcome {
            reason: Reason::Resignation | Reason::Declaration | Reason::ImpassePoints,
            ..
        }) = self.game.outcome()
        {
            writeln!(
                self.out,
                "the game ended by {}; it cannot be taken back",
                reason_text(
                    self.game
                        .outcome()
                        .map_or(Reason::Resignation, |o| o.reason)
                )
            )?;
            return Ok(());
        }
        let moves = self.game.moves().len();
        let start_side = self.game.start().side_to_move();
        let mover_of = |ply: usize| {
            // Ply 1 is played by the start position's side to move.
            if ply % 2 == 1 {
                start_side
            } else {
                !start_side
            }
        };
        // Take back to just before the most recent human move.
        let Some(last_human) = (1..=moves)
            .rev()
            .find(|&p| self.settings.human[mover_of(p).index()])
        else {
            writeln!(self.out, "nothing to undo")?;
            return Ok(());
        };
        let count = moves - last_human + 1;
        let mut taken = Vec::new();
        for _ in 0..count {
            if let Some(m) = self.game.undo() {
                taken.push(m);
            }
        }
        let pos = self.game.position();
        let mut p = pos.clone();
        let texts: Vec<String> = taken
            .iter()
            .rev()
            .map(|&m| {
                let t = describe(&p, m);
                p.make_move(m);
                t
            })
            .collect();
        writeln!(self.out, "took back: {}", texts.join(", "))?;
        self.dirty = true;
        Ok(())
    }

    fn resign(&mut self) -> io::Result<()> {
        if let Some(o) = self.game.outcome() {
            writeln!(self.out, "the game is over ({})", reason_text(o.reason))?;
            return Ok(());
        }
        let side = self.game.position().side_to_move();
        self.game.resign(side);
        writeln!(self.out, "{} {} resigns", side_mark(side), side.name())?;
        Ok(())
    }

    fn declare(&mut self) -> io::Result<()> {
        match self.game.declare() {
            Ok(_) => {
                let side = self.game.position().side_to_move();
                writeln!(
                    self.out,
                    "{} {} declares a win",
                    side_mark(side),
                    side.name()
                )
            }
            Err(e) => writeln!(self.out, "{e}"),
        }
    }

    fn impasse(&mut self) -> io::Result<()> {
        let points = Color::ALL.map(|c| self.game.impasse_points(c));
        match self.game.score_impasse() {
            Ok(_) => writeln!(
                self.out,
                "impasse: black has {} points, white {}",
                points[0], points[1]
            ),
            Err(GameError::BadDeclaration(why)) => writeln!(self.out, "impasse refused: {why}"),
            Err(e) => writeln!(self.out, "{e}"),
        }
    }

    fn record(&self) -> Record {
        let mut record = Record::new(self.settings.variant);
        record.rules = self.settings.rules.clone();
        record.start = self.game.start().to_sfen();
        let pos = self.game.start();
        let mut p = pos.clone();
        for &m in self.game.moves() {
            record.moves.push(p.move_to_usi(m));
            p.make_move(m);
        }
        record.result = self.game.outcome().map(GameResult::from);
        let labels = self.labels();
        record.headers.black = Some(player_name(labels[0]));
        record.headers.white = Some(player_name(labels[1]));
        record
    }

    fn save(&mut self, path: &str) -> io::Result<()> {
        if path.is_empty() {
            writeln!(self.out, "save needs a file name: save game.kif")?;
            return Ok(());
        }
        let record = self.record();
        let wanted = Format::from_extension(path).filter(|f| {
            matches!(
                f,
                Format::Kif | Format::Kifu | Format::Ki2 | Format::Csa | Format::Jkf
            )
        });
        let (bytes, note) = match wanted.map(|f| (f, banmen_formats::write(&record, f))) {
            Some((f, Ok(bytes))) => (Ok(bytes), format!("{f}")),
            Some((f, Err(why))) => (
                banmen_formats::write(&record, Format::Sfen),
                format!("SFEN + USI moves ({f} cannot hold this game: {why})"),
            ),
            None => (
                banmen_formats::write(&record, Format::Sfen),
                "SFEN + USI moves".to_string(),
            ),
        };
        match bytes {
            Err(why) => writeln!(self.out, "cannot save: {why}")?,
            Ok(bytes) => match std::fs::write(path, bytes) {
                Ok(()) => writeln!(
                    self.out,
                    "saved {} move{} to {path} as {note}",
                    record.moves.len(),
                    if record.moves.len() == 1 { "" } else { "s" }
                )?,
                Err(e) => writeln!(self.out, "cannot save to {path}: {e}")?,
            },
        }
        Ok(())
    }

    fn human_move(&mut self, text: &str) -> io::Result<()> {
        if let Some(o) = self.game.outcome() {
            writeln!(
                self.out,
                "the game is over ({}); 'undo', 'save FILE' or 'quit'",
                reason_text(o.reason)
            )?;
            return Ok(());
        }
        if self.engine_to_move() {
            // Not reachable: the engine moves before the prompt.
            writeln!(self.out, "it is the engine's turn")?;
            return Ok(());
        }
        let pos = self.game.position().clone();
        match parse_any(&pos, text) {
            Ok(m) => {
                let desc = describe(&pos, m);
                match self.game.play(m) {
                    Ok(()) => {
                        writeln!(
                            self.out,
                            "{} {} plays {desc}",
                            side_mark(pos.side_to_move()),
                            pos.side_to_move().name()
                        )?;
                        self.dirty = true;
                    }
                    Err(e) => writeln!(self.out, "{text}: {e}")?,
                }
            }
            Err(why) => writeln!(self.out, "{why}")?,
        }
        Ok(())
    }
}

fn player_name(label: &str) -> String {
    match label {
        "Banmen" => "Banmen".into(),
        _ => "human".into(),
    }
}

/// A move as `7g7f (P-7f)`; in games with lion moves the piece code is added
/// instead (`15p15o15p (LN)`).
fn describe<B: BitBoard>(pos: &Position<B>, m: Move) -> String {
    let usi = pos.move_to_usi(m);
    if pos.rules().variant.has_lion_moves() || m.mid().is_some() {
        let code = pos
            .moving_piece(m)
            .map(|p| pos.rules().kind(p.kind).code.clone())
            .unwrap_or_default();
        format!("{usi} ({code})")
    } else {
        let western = to_western(pos, m);
        if western == usi {
            usi
        } else {
            format!("{usi} ({western})")
        }
    }
}

/// Parses USI first (the rules core's typed reasons), then Western notation.
fn parse_any<B: BitBoard>(pos: &Position<B>, text: &str) -> Result<Move, String> {
    match text.parse::<UsiMove>() {
        Ok(usi) => usi
            .to_move(pos)
            .map_err(|e| format!("{text}: {}", MoveError::Illegal(e))),
        Err(_) => {
            let western_like = text.starts_with(|c: char| c.is_ascii_uppercase() || c == '+')
                && text.contains(['-', 'x', '*']);
            if !western_like {
                return Err(format!(
                    "'{}' is neither a move (7g7f, P-7f) nor a command; type 'help'",
                    text.chars().take(40).collect::<String>()
                ));
            }
            parse_western(pos, text).map_err(|e| match e {
                NotationError::Illegal { reason, .. } => {
                    format!("{text}: {}", MoveError::Illegal(reason))
                }
                NotationError::NoneCanMove { piece, to, .. } => {
                    format!("{text}: illegal move: none of your pieces {piece} can move to {to}")
                }
                e => e.to_string(),
            })
        }
    }
}

fn reason_text(r: Reason) -> String {
    r.as_str().replace('-', " ")
}

/// `Black wins by checkmate (you win)`, `draw by repetition`.
fn result_text(o: Outcome, labels: [&str; 2]) -> String {
    let reason = reason_text(o.reason);
    match o.winner {
        Some(w) => {
            let who = match labels[w.index()] {
                "you" => " — you win".to_string(),
                "Banmen" => " — Banmen wins".to_string(),
                _ => String::new(),
            };
            format!(
                "{} {} wins by {reason}{who}",
                side_mark(w),
                capitalised(w.name())
            )
        }
        None => format!("draw by {reason}"),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
