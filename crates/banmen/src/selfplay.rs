//! `banmen selfplay`: the Banmen engine plays itself from random openings and
//! writes every searched position with its score, best move and the game's
//! result, one line each, for tuning and training.
//!
//! The file (README "Selfplay"): a header line, then per game its position
//! lines and a closing `# game` line. Games are written whole, one write
//! each, in game-index order whatever the thread count, so the file of a
//! seed is the same on every machine and a rerun resumes after the last
//! closed game.

use banmen_engine::{
    search, BestMove, Control, Evaluator, HistoryEntry, Limits, Score, SearchOptions, Table,
    MATE_BOUND,
};
use banmen_rules::testing::XorShift;
use banmen_rules::{
    rules_for, with_rules, BitBoard, Color, EnteringKingRule, Game, GameOptions, Position, Rules,
    SfenMode, VariantName,
};
use clap::{ArgGroup, Args};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The first words of the header; the version changes with the format.
const MAGIC: &str = "# banmen selfplay v1";
/// A side whose own searches score below this many centipawns...
const RESIGN_CP: i32 = 2000;
/// ...this many times in a row resigns.
const RESIGN_PLIES: u32 = 4;
/// Random openings drawn before giving up on finding one still undecided.
const OPENING_TRIES: u32 = 100;
/// Progress lines on stderr at most this often.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Arguments of `banmen selfplay`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("limit").required(true).args(["depth", "nodes"])))]
pub struct SelfplayArgs {
    /// The game: shogi, cannonshogi, daidaishogi or minishogi.
    #[arg(long)]
    pub variant: String,
    /// Rule options (`--rules flying-cannon=leap`, `--rules tsa`).
    #[arg(long)]
    pub rules: Option<String>,
    /// Number of games the file should hold (missing ones are played).
    #[arg(long)]
    pub games: usize,
    /// Search every move to this depth.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search every move for about this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The file the positions are appended to.
    #[arg(long)]
    pub out: PathBuf,
    /// Games played at the same time (default: the available parallelism).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random legal plies from the start position before the engine plays.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// A game reaching this many plies (openings included) is a draw
    /// (default 512 on the 9x9 board, 800 on the 17x17).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Seed of the random openings; game i's seed is derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table size of each game thread in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Evaluate with the linear evaluation alone, not the game's shipped
    /// network (the header says `eval=net` when a network evaluates).
    #[arg(long)]
    pub no_net: bool,
}

/// What every game of one file is played with.
#[derive(Clone, Debug)]
struct Settings {
    limits: Limits,
    random_plies: u32,
    options: GameOptions,
    seed: u64,
    hash_mb: usize,
}

/// Runs `banmen selfplay`.
pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    let variant: VariantName = args.variant.parse().map_err(|e| format!("{e}"))?;
    let rules_text: String = args
        .rules
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let rules = rules_for(variant, &rules_text).map_err(|e| e.to_string())?;
    with_rules!(rules, r => play_file(r, args, &rules_text))
}

fn play_file<B: BitBoard>(
    rules: &'static Rules<B>,
    args: &SelfplayArgs,
    rules_text: &str,
) -> Result<(), String> {
    let settings = settings(rules, args)?;
    let eval = if args.no_net {
        Evaluator::linear(rules)
    } else {
        Evaluator::new(rules)
    };
    let mut header = header(rules, rules_text, &settings);
    if eval.net().is_some() {
        header.push_str(" eval=net");
    }
    let mut file = Existing::open(&args.out, &header)?;
    let missing: Vec<usize> = (0..args.games).filter(|i| !file.done.contains(i)).collect();
    if !file.done.is_empty() {
        eprintln!(
            "selfplay: {} games already in {}, {} to play",
            file.done.len(),
            args.out.display(),
            missing.len()
        );
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(missing.len().max(1));
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let control = Control::default();
    let (tx, rx) = mpsc::channel::<(usize, Result<Played, String>)>();
    let written = std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (eval, settings, missing, next, control) =
                (&eval, &settings, &missing, &next, &control);
            scope.spawn(move || {
                let table = Table::new(settings.hash_mb);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= missing.len() || control.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    table.clear();
                    let played = play_game(rules, eval, &table, settings, missing[k], control);
                    if tx.send((k, played)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let written = write_in_order(&rx, &mut file, missing.len(), start);
        // On an error, the other games' searches end at once and are not written.
        control.stop.store(true, Ordering::Relaxed);
        written
    })?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "selfplay: {written} games played, {:.0} positions/s",
        file.new_positions as f64 / secs.max(1e-9)
    );
    println!(
        "games {} positions {} black {} white {} draws {} time {secs:.1}",
        file.done.len(),
        file.positions,
        file.wins[Color::Black.index()],
        file.wins[Color::White.index()],
        file.draws
    );
    Ok(())
}

/// Receives finished games and appends them in the order of `missing`
/// (game `k` of this run only after games `0..k`); returns how many were written.
fn write_in_order(
    rx: &mpsc::Receiver<(usize, Result<Played, String>)>,
    file: &mut Existing,
    total: usize,
    start: Instant,
) -> Result<usize, String> {
    let mut pending: BTreeMap<usize, Played> = BTreeMap::new();
    let mut next = 0;
    // Games and positions finished, written or still waiting for an earlier game.
    let (mut finished, mut positions) = (0usize, 0u64);
    let mut last_report = Instant::now();
    for (k, played) in rx {
        let played = played?;
        finished += 1;
        positions += played.positions;
        pending.insert(k, played);
        while let Some(game) = pending.remove(&next) {
            file.append(&game)?;
            next += 1;
        }
        if last_report.elapsed() >= PROGRESS_EVERY || finished == total {
            last_report = Instant::now();
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            eprintln!(
                "selfplay: {finished}/{total} games, {positions} positions, {:.0} positions/s",
                positions as f64 / secs
            );
        }
    }
    Ok(next)
}

/// Checks the arguments and fills in the defaults.
fn settings<B: BitBoard>(rules: &Rules<B>, args: &SelfplayArgs) -> Result<Settings, String> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    if args.hash == 0 {
        return Err("--hash must be at least 1 (MB)".into());
    }
    if args.depth.is_some_and(|d| d < 1) || args.nodes == Some(0) {
        return Err("--depth and --nodes must be at least 1".into());
    }
    let squares = rules.geometry.files as u32 * rules.geometry.ranks as u32;
    let max_plies = args
        .max_plies
        .unwrap_or(if squares > 81 { 800 } else { 512 });
    if args.random_plies >= max_plies {
        return Err(format!(
            "--random-plies ({}) must be below --max-plies ({max_plies})",
            args.random_plies
        ));
    }
    Ok(Settings {
        limits: Limits {
            depth: args.depth,
            nodes: args.nodes,
            ..Limits::default()
        },
        random_plies: args.random_plies,
        options: GameOptions {
            entering_king: declaration_rule(rules),
            max_plies: Some(max_plies),
        },
        seed: args.seed,
        hash_mb: args.hash,
    })
}

/// The declaration rule: CSA's 27-point rule (floodgate's) where the game
/// counts its impasse on standard shogi's 24-point scale
/// (rules/standard-shogi.md §Jishogi). Its 28/27-point thresholds mean
/// nothing on cannon shogi's 38-point scale, and dai dai shogi has no impasse
/// rule, so those games have no declaration (a stuck game ends at --max-plies).
fn declaration_rule<B: BitBoard>(rules: &Rules<B>) -> EnteringKingRule {
    if rules.variant.impasse_threshold == Some(24) {
        EnteringKingRule::CsaRule27
    } else {
        EnteringKingRule::NoEnteringKing
    }
}

/// The file's first line: every setting that changes the games (not
/// `--games` or `--threads`).
fn header<B: BitBoard>(rules: &Rules<B>, rules_text: &str, s: &Settings) -> String {
    let limit = match (s.limits.depth, s.limits.nodes) {
        (Some(d), _) => format!("depth={d}"),
        (_, Some(n)) => format!("nodes={n}"),
        _ => unreachable!("clap requires --depth or --nodes"),
    };
    let rules_field = if rules_text.is_empty() {
        "-"
    } else {
        rules_text
    };
    format!(
        "{MAGIC} variant={} rules={rules_field} {limit} random-plies={} seed={} max-plies={} hash={} declaration={}",
        rules.variant.name,
        s.random_plies,
        s.seed,
        s.options.max_plies.unwrap_or(0),
        s.hash_mb,
        s.options.entering_king.as_str(),
    )
}

/// The output file, opened for appending after its closed games were counted.
#[derive(Debug)]
struct Existing {
    file: File,
    path: PathBuf,
    /// Indices of the closed games.
    done: BTreeSet<usize>,
    /// Position lines of the closed games, this run's included.
    positions: u64,
    /// Position lines this run wrote.
    new_positions: u64,
    wins: [u64; 2],
    draws: u64,
}

impl Existing {
    /// Opens `path`, creating it with `header`, or checks its header and
    /// counts its closed games; cuts off an unfinished last game.
    fn open(path: &Path, header: &str) -> Result<Existing, String> {
        let shown = path.display();
        let mut existing = Existing {
            file: OpenOptions::new()
                .read(true)
                .append(true)
                .create(true)
                .open(path)
                .map_err(|e| format!("cannot open {shown}: {e}"))?,
            path: path.to_path_buf(),
            done: BTreeSet::new(),
            positions: 0,
            new_positions: 0,
            wins: [0; 2],
            draws: 0,
        };
        let keep = existing.scan(header)?;
        let len = existing
            .file
            .metadata()
            .map_err(|e| format!("cannot read {shown}: {e}"))?
            .len();
        if keep < len {
            eprintln!(
                "selfplay: cutting {} bytes of an unfinished game off {shown}",
                len - keep
            );
            existing
                .file
                .set_len(keep)
                .map_err(|e| format!("cannot truncate {shown}: {e}"))?;
        }
        if keep == 0 {
            existing.write(format!("{header}\n").as_bytes())?;
        }
        Ok(existing)
    }

    /// Reads the closed games; returns the length to keep (0: write the header).
    fn scan(&mut self, header: &str) -> Result<u64, String> {
        let shown = self.path.display().to_string();
        let file = self
            .file
            .try_clone()
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        let read = |reader: &mut BufReader<File>, line: &mut Vec<u8>| {
            line.clear();
            reader
                .read_until(b'\n', line)
                .map_err(|e| format!("cannot read {shown}: {e}"))
        };
        let n = read(&mut reader, &mut line)?;
        let first = String::from_utf8_lossy(&line);
        if n == 0 || (!first.ends_with('\n') && header.starts_with(&*first)) {
            return Ok(0);
        }
        if first.trim_end_matches('\n') != header {
            return Err(format!(
                "{shown} was written with other settings; use them again or another --out\n  file: {}\n  now:  {header}",
                first.trim_end()
            ));
        }
        let mut offset = n as u64;
        let mut keep = offset;
        let mut block = 0u64;
        let mut number = 1;
        loop {
            let n = read(&mut reader, &mut line)?;
            if n == 0 || line.last() != Some(&b'\n') {
                return Ok(keep);
            }
            offset += n as u64;
            number += 1;
            if line.starts_with(b"# game ") {
                let text = String::from_utf8_lossy(&line);
                let (index, winner) = parse_game_line(&text)
                    .ok_or_else(|| format!("{shown}:{number}: bad game line: {}", text.trim()))?;
                self.done.insert(index);
                self.count(winner, block);
                block = 0;
                keep = offset;
            } else if !line.starts_with(b"#") {
                block += 1;
            }
        }
    }

    fn count(&mut self, winner: Option<Color>, positions: u64) {
        match winner {
            Some(c) => self.wins[c.index()] += 1,
            None => self.draws += 1,
        }
        self.positions += positions;
    }

    /// Appends one game in one write.
    fn append(&mut self, game: &Played) -> Result<(), String> {
        self.write(game.text.as_bytes())?;
        self.done.insert(game.index);
        self.count(game.winner, game.positions);
        self.new_positions += game.positions;
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.file
            .write_all(bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// `# game <index> seed <seed> result <black|white|draw> reason <reason> plies <n>`:
/// the index and the winner.
fn parse_game_line(line: &str) -> Option<(usize, Option<Color>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let ["#", "game", index, "seed", _, "result", result, "reason", _, "plies", _] = words[..]
    else {
        return None;
    };
    let winner = match result {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        "draw" => None,
        _ => return None,
    };
    Some((index.parse().ok()?, winner))
}

/// One finished game, as it goes into the file.
#[derive(Debug)]
struct Played {
    index: usize,
    /// The position lines and the closing `# game` line.
    text: String,
    positions: u64,
    winner: Option<Color>,
}

/// A searched position, waiting for the game's result.
struct Searched {
    sfen: String,
    score: i32,
    best: String,
    ply: usize,
    side: Color,
}

/// Plays game `index` to its end.
fn play_game<B: BitBoard>(
    rules: &'static Rules<B>,
    eval: &Evaluator<B>,
    table: &Table,
    settings: &Settings,
    index: usize,
    control: &Control,
) -> Result<Played, String> {
    let seed = game_seed(settings.seed, index);
    let mut game = opening(rules, settings, &mut XorShift::new(seed))?;
    let mut history = history(&game);
    let options = SearchOptions {
        entering_king: settings.options.entering_king,
        ..SearchOptions::default()
    };
    let mut searched: Vec<Searched> = Vec::new();
    let mut losing_streak = [0u32; 2];
    let mut resigned = None;
    while game.outcome().is_none() {
        if control.stop.load(Ordering::Relaxed) {
            return Err("stopped".into());
        }
        let pos = game.position();
        let side = pos.side_to_move();
        let result = search(
            pos,
            &history,
            eval,
            table,
            &settings.limits,
            &options,
            control,
            &|_| {},
        );
        let m = match result.best {
            BestMove::Move(m, _) => m,
            BestMove::Win => {
                game.declare().map_err(|e| {
                    format!("game {index}: the engine's declaration was refused: {e}")
                })?;
                break;
            }
            BestMove::Resign => {
                game.resign(side);
                break;
            }
        };
        // Positions in check are not written (their best move is forced
        // and their static score says little).
        if !pos.in_check() {
            searched.push(Searched {
                sfen: pos.to_sfen(),
                score: result.score,
                best: pos.move_to_usi(m),
                ply: game.moves().len(),
                side,
            });
        }
        // Adjudication: resign once mated for sure, or after RESIGN_PLIES
        // own searches in a row below -RESIGN_CP.
        let streak = &mut losing_streak[side.index()];
        *streak = if result.score < -RESIGN_CP {
            *streak + 1
        } else {
            0
        };
        if result.score <= -MATE_BOUND || *streak >= RESIGN_PLIES {
            resigned = Some(if result.score <= -MATE_BOUND {
                "resign-mate"
            } else {
                "resign-score"
            });
            game.resign(side);
            break;
        }
        let text = pos.move_to_usi(m);
        let sfen = pos.to_sfen();
        game.play(m)
            .map_err(|e| format!("game {index}: the engine chose {text} in {sfen}: {e}"))?;
        let pos = game.position();
        history.push(HistoryEntry {
            hash: pos.hash(),
            check: pos.in_check(),
        });
    }
    let outcome = game.outcome().expect("the loop ends with the game");
    let reason = resigned.unwrap_or(outcome.reason.as_str());
    let mut text = String::new();
    for s in &searched {
        let result = match outcome.winner {
            None => 0,
            Some(w) if w == s.side => 1,
            Some(_) => -1,
        };
        let _ = writeln!(
            text,
            "{}\t{}\t{}\t{}\t{result}",
            s.sfen,
            score_text(s.score),
            s.best,
            s.ply
        );
    }
    let winner = match outcome.winner {
        Some(c) => c.name(),
        None => "draw",
    };
    let _ = writeln!(
        text,
        "# game {index} seed {seed} result {winner} reason {reason} plies {}",
        game.moves().len()
    );
    Ok(Played {
        index,
        text,
        positions: searched.len() as u64,
        winner: outcome.winner,
    })
}

/// The start position and `random_plies` uniformly random legal plies;
/// an opening in which the game is already over is drawn again.
fn opening<B: BitBoard>(
    rules: &'static Rules<B>,
    settings: &Settings,
    rng: &mut XorShift,
) -> Result<Game<B>, String> {
    let start = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict)
        .map_err(|e| e.to_string())?;
    for _ in 0..OPENING_TRIES {
        let mut game = Game::new(start.clone(), settings.options);
        for _ in 0..settings.random_plies {
            if game.outcome().is_some() {
                break;
            }
            let moves = game.position().legal_moves();
            let m = moves[rng.below(moves.len())];
            game.play(m).map_err(|e| e.to_string())?;
        }
        if game.outcome().is_none() {
            return Ok(game);
        }
    }
    Err(format!(
        "no undecided opening after {OPENING_TRIES} tries of {} random plies",
        settings.random_plies
    ))
}

/// The game's positions from the start, for the search's repetition checks.
fn history<B: BitBoard>(game: &Game<B>) -> Vec<HistoryEntry> {
    let mut p = game.start().clone();
    let mut history = vec![HistoryEntry {
        hash: p.hash(),
        check: p.in_check(),
    }];
    for &m in game.moves() {
        p.make_move(m);
        history.push(HistoryEntry {
            hash: p.hash(),
            check: p.in_check(),
        });
    }
    history
}

/// Game `index`'s seed: two splitmix64 rounds, so neighbouring games and
/// seeds start far apart in the xorshift sequence.
fn game_seed(seed: u64, index: usize) -> u64 {
    splitmix64(splitmix64(seed) ^ index as u64)
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Centipawns, or `#N` / `#-N` for a mate in N plies (as USI's `score mate`).
fn score_text(score: i32) -> String {
    match Score::from_internal(score) {
        Score::Cp(cp) => cp.to_string(),
        Score::Mate(n) => format!("#{n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines_parse() {
        assert_eq!(
            parse_game_line("# game 7 seed 123 result white reason checkmate plies 91\n"),
            Some((7, Some(Color::White)))
        );
        assert_eq!(
            parse_game_line("# game 0 seed 1 result draw reason max-moves plies 512"),
            Some((0, None))
        );
        assert_eq!(parse_game_line("# game 0 seed 1 result dra"), None);
    }

    #[test]
    fn mate_scores_are_written_in_plies() {
        assert_eq!(score_text(-35), "-35");
        assert_eq!(score_text(banmen_engine::MATE - 3), "#3");
        assert_eq!(score_text(-banmen_engine::MATE + 4), "#-4");
    }

    #[test]
    fn game_seeds_differ() {
        let seeds: BTreeSet<u64> = (0..1000).map(|i| game_seed(1, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
