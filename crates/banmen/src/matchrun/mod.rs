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

//!
//! One job a file: this one reads the arguments and runs the match;
//! [`tc`] is the time control, [`client`] the USI engine process, [`game`]
//! the game loop and adjudication, [`openings`] the start positions,
//! [`stats`] Elo, the SPRT and the summary, [`record`] the game records.

mod client;
mod game;
mod openings;
mod record;
mod stats;
mod tc;

use banmen_rules::{
    rules_for, with_rules, BitBoard, EnteringKingRule, GameOptions, Rules, VariantName,
};
use clap::Args;
use client::EngineSpec;
use game::{Adjudication, GameResult, Worker};
use indicatif::{ProgressBar, ProgressStyle};
use openings::load_openings;
use record::{output_dir, record_text};
use stats::{summary, Sprt, Tally};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use tc::Tc;

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
    /// A network file for both engines (`FILE`) or one (`1:FILE`): sent as
    /// the USI option `EvalFile` with the file's full path.
    #[arg(long = "eval-file")]
    pub eval_files: Vec<String>,
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
    /// draw). With `,final=F`, a game that reaches --max-plies goes to the
    /// side both engines say is ahead by F or more, and is a draw otherwise
    /// (score=N,plies=M,final=F). Such games have the reason `adjudication`.
    #[arg(long)]
    pub adjudicate: Option<String>,
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
        .transpose()
        .map_err(|e| e.to_string())?;
    let mut engine_options: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    for o in &args.options {
        let (targets, nv) = engines_named(o);
        let (name, value) = nv
            .split_once('=')
            .ok_or_else(|| format!("bad --option '{o}': expected NAME=VALUE or 1:NAME=VALUE"))?;
        for &t in targets {
            engine_options[t].push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    for f in &args.eval_files {
        let (targets, path) = engines_named(f);
        // The engines may start elsewhere: they get the full path.
        let path = std::fs::canonicalize(path)
            .map_err(|e| format!("--eval-file '{f}': cannot read '{path}': {e}"))?;
        for &t in targets {
            engine_options[t].push(("EvalFile".into(), path.display().to_string()));
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
    with_rules!(rules, r => run_match(r, args, &setup, sprt.as_ref(), &out))
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
            say(&bar, line);
            bar.inc(1);
            bar.set_message(tally.short());
            if let Some(sp) = sprt {
                let llr = sp.llr(tally.wdl);
                let (a, b) = sp.bounds();
                if (llr >= b || llr <= a) && !stop.swap(true, Ordering::Relaxed) {
                    let line = format!("SPRT bound crossed (LLR {llr:.3}): no new games");
                    say(&bar, line);
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

/// A line on stderr, above the progress bar when it is shown.
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// The engines an `--option`/`--eval-file` value is for (`1:…`, `2:…` or
/// both) and the rest of it.
fn engines_named(value: &str) -> (&'static [usize], &str) {
    match value.split_once(':') {
        Some(("1", rest)) => (&[0], rest),
        Some(("2", rest)) => (&[1], rest),
        _ => (&[0, 1], value),
    }
}
