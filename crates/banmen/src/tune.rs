//! `banmen tune`: fits the evaluation's parameters to `banmen selfplay` data
//! and writes them as a parameter file (`crates/engine/params/<game>.txt` is
//! what the engine ships).
//!
//! Positions are read from the selfplay format (`sfen \t score \t bestmove \t
//! ply \t result`, `#` comments). Kept are the quiet ones: not in check, the
//! recorded best move neither a capture nor a promotion, the score not a mate
//! and within ±3000. The target blends the game result (weight `--lambda`)
//! with the search score through the same sigmoid.

use banmen_engine::tune::{loss, tune, Samples, TuneOptions};
use banmen_engine::Evaluator;
use banmen_rules::{
    rules_for, with_rules, BitBoard, Color, Position, Rules, SfenMode, VariantName,
};
use clap::Args;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

/// Arguments of `banmen tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game: shogi, cannonshogi, daidaishogi or minishogi.
    #[arg(long)]
    pub variant: String,
    /// Rule options (as for the other commands).
    #[arg(long, default_value = "")]
    pub rules: String,
    /// A selfplay data file (give it more than once for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Where the parameters go.
    #[arg(long)]
    pub out: PathBuf,
    /// Full passes over the data.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Centipawns per unit of log-odds.
    #[arg(long, default_value_t = 600.0)]
    pub scale: f64,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// Share of games held out to measure the fit (every n-th game).
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Start from the shipped parameters instead of the initial ones.
    #[arg(long)]
    pub from_shipped: bool,
    /// Use at most this many positions (0: all).
    #[arg(long, default_value_t = 0)]
    pub max_positions: usize,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Fit only the parameters whose names start with one of these
    /// (comma-separated, e.g. `mob,katt`); the others stay as they start.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Keep the parameters of the check (every 10 epochs) with the lowest
    /// held-out loss, not the last epoch's (early stopping)
    #[arg(long)]
    pub keep_best: bool,
    /// Strength of the pull towards the starting parameters (L2, per
    /// centipawn squared)
    #[arg(long, default_value_t = 1e-7, allow_negative_numbers = true)]
    pub l2: f64,
}

/// Runs the tuner.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let name: VariantName = args.variant.parse().map_err(|e| format!("{e}"))?;
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.validation) {
        return Err("--lambda must be within 0..=1 and --validation within 0..1".into());
    }
    if !(args.l2.is_finite() && args.l2 >= 0.0) {
        return Err("--l2 must be a number 0 or more".into());
    }
    if args.keep_best && args.validation == 0.0 {
        return Err("--keep-best needs held-out games (--validation above 0)".into());
    }
    with_rules!(rules_for(name, &args.rules).map_err(|e| e.to_string())?, r => run_game(r, args))
}

fn run_game<B: BitBoard>(rules: &'static Rules<B>, args: &TuneArgs) -> Result<(), String> {
    let mut eval = if args.from_shipped {
        Evaluator::new(rules)
    } else {
        Evaluator::untuned(rules)
    };
    let mut train = Samples::new();
    let mut valid = Samples::new();
    let data = read_quiet_positions(
        rules,
        &args.data,
        args.validation,
        args.max_positions,
        |q, held_out| {
            let mover = target(q.score, q.result, args.lambda, args.scale);
            let black = if q.pos.side_to_move() == Color::Black {
                mover
            } else {
                1.0 - mover
            };
            let features = eval.features(&q.pos);
            if held_out {
                valid.push(&features, black as f32);
            } else {
                train.push(&features, black as f32);
            }
        },
    )?;
    let (read, kept, sources) = (data.read, data.kept, data.sources);
    if train.is_empty() {
        return Err(format!("no usable positions among the {read} read"));
    }
    eprintln!(
        "{read} positions read, {kept} kept: {} to fit, {} to check",
        train.len(),
        valid.len()
    );
    let start = eval.weights().to_vec();
    let before = loss(&valid, &start, args.scale);
    let options = TuneOptions {
        scale: args.scale,
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
        threads: args.threads.max(1),
    };
    let names = eval.names();
    if let Some(p) = args
        .only
        .iter()
        .find(|p| !names.iter().any(|n| n.starts_with(p.as_str())))
    {
        return Err(format!(
            "--only {p}: no parameter's name starts so (names look like 'mat P', 'psq G 23', 'hand R 1')"
        ));
    }
    let fixed: Vec<bool> = names
        .iter()
        .map(|n| {
            n == "tempo"
                || n == "danger"
                || (!args.only.is_empty() && !args.only.iter().any(|p| n.starts_with(p.as_str())))
        })
        .collect();
    let time = std::time::Instant::now();
    if args.keep_best && valid.is_empty() {
        return Err(
            "--keep-best needs held-out games (--validation above 0, and data of more games)"
                .into(),
        );
    }
    let check = args.keep_best.then_some(&valid);
    let (tuned, epoch) = tune(
        &train,
        check,
        &start,
        &fixed,
        &options,
        &mut |epoch, ce, held| {
            if held.is_nan() {
                eprintln!("epoch {epoch}: training loss {ce:.5}");
            } else {
                eprintln!("epoch {epoch}: training loss {ce:.5}, held-out loss {held:.5}");
            }
        },
    );
    if args.keep_best {
        eprintln!("kept the parameters of epoch {epoch}");
    }
    let after = loss(&valid, &tuned, args.scale);
    eprintln!(
        "held-out loss {:.5} -> {:.5} (squared error {:.5} -> {:.5}) in {:.0} s",
        before.0,
        after.0,
        before.1,
        after.1,
        time.elapsed().as_secs_f64()
    );
    eval.set_weights(&tuned);
    let mut text = String::new();
    text.push_str(&format!(
        "# Evaluation parameters of {} (`name value` lines), written by `banmen tune`.\n",
        rules.variant.name
    ));
    let command: Vec<String> = std::env::args().skip(1).collect();
    text.push_str(&format!("# command: banmen {}\n", command.join(" ")));
    text.push_str(&format!("# commit: {}\n", commit()));
    for s in &sources {
        text.push_str(&format!("# data: {s}\n"));
    }
    text.push_str(&format!(
        "# positions: {read} read, {kept} kept, {} fitted, {} held out\n",
        train.len(),
        valid.len()
    ));
    text.push_str(&format!(
        "# held-out cross-entropy {:.5} -> {:.5}{}\n",
        before.0,
        after.0,
        if args.keep_best {
            format!(
                " (epoch {epoch} of {}, kept as the best held-out check)",
                args.epochs
            )
        } else {
            String::new()
        }
    ));
    for (n, w) in eval.names().iter().zip(eval.weights()) {
        text.push_str(&format!("{n} {w}\n"));
    }
    write_atomically(&args.out, &text)?;
    println!(
        "wrote {} parameters to {}: held-out loss {:.5} -> {:.5}",
        tuned.len(),
        args.out.display(),
        before.0,
        after.0
    );
    Ok(())
}

/// A quiet position of a selfplay file with its search score and result,
/// both for the side to move.
pub(crate) struct Quiet<B: BitBoard> {
    pub pos: Position<B>,
    pub score: i32,
    pub result: i32,
}

/// Reads one selfplay data line: `None` when the position is not quiet
/// (in check, the best move a capture or promotion, a mate score or one
/// beyond ±3000).
pub(crate) fn quiet_position<B: BitBoard>(
    rules: &'static Rules<B>,
    line: &str,
) -> Result<Option<Quiet<B>>, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [sfen, score, best, _ply, result] = fields[..] else {
        return Err(format!(
            "expected 5 tab-separated fields, got {}",
            fields.len()
        ));
    };
    let result: i32 = result
        .trim()
        .parse()
        .map_err(|_| format!("bad result '{result}'"))?;
    if score.starts_with('#') {
        return Ok(None);
    }
    let score: i32 = score
        .trim()
        .parse()
        .map_err(|_| format!("bad score '{score}'"))?;
    if score.abs() > 3000 {
        return Ok(None);
    }
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).map_err(|e| e.to_string())?;
    if pos.in_check() {
        return Ok(None);
    }
    let m = pos
        .parse_move(best.trim())
        .map_err(|e| format!("bad move '{best}': {e}"))?;
    if m.is_promotion() || pos.is_capture(m) {
        return Ok(None);
    }
    Ok(Some(Quiet {
        pos,
        score,
        result: result.clamp(-1, 1),
    }))
}

/// The target win probability of the side to move: the game's result with
/// weight `lambda`, the rest the search score through `sigmoid(score / scale)`.
pub(crate) fn target(score: i32, result: i32, lambda: f64, scale: f64) -> f64 {
    let from_result = f64::from(result + 1) / 2.0;
    let from_score = 1.0 / (1.0 + (-f64::from(score) / scale).exp());
    lambda * from_result + (1.0 - lambda) * from_score
}

/// The commit the binary was built from (`build.rs`), `unknown` if git did not know it.
pub(crate) fn commit() -> String {
    env!("BANMEN_COMMIT").to_string()
}

/// What [`read_quiet_positions`] read: data lines, positions kept, and
/// each file with the number of positions taken from it.
pub(crate) struct DataRead {
    pub read: usize,
    pub kept: usize,
    pub sources: Vec<String>,
}

/// Reads selfplay files and hands each quiet position to `visit` with
/// whether it is held out (whole games: every `1 / validation`-th game, as
/// the positions of one game are alike). Stops after `max_positions` kept
/// (0: no limit). A torn last line (a run killed while writing) is skipped
/// with a warning; any other bad line is an error naming file and line.
pub(crate) fn read_quiet_positions<B: BitBoard>(
    rules: &'static Rules<B>,
    paths: &[PathBuf],
    validation: f64,
    max_positions: usize,
    mut visit: impl FnMut(Quiet<B>, bool),
) -> Result<DataRead, String> {
    let every = if validation > 0.0 {
        (1.0 / validation).round() as usize
    } else {
        usize::MAX
    };
    let (mut read, mut kept, mut games) = (0usize, 0usize, 0usize);
    let mut sources = Vec::new();
    'files: for path in paths {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut from_file = 0usize;
        let mut lines = BufReader::new(file).lines().enumerate().peekable();
        while let Some((n, line)) = lines.next() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            if line.starts_with("# game ") {
                games += 1;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            read += 1;
            let q = match quiet_position(rules, &line) {
                Ok(Some(q)) => q,
                Ok(None) => continue,
                Err(e) if lines.peek().is_none() => {
                    eprintln!("{}:{}: skipped: {e}", path.display(), n + 1);
                    continue;
                }
                Err(e) => return Err(format!("{}:{}: {e}", path.display(), n + 1)),
            };
            visit(q, games % every == every - 1);
            kept += 1;
            from_file += 1;
            if max_positions > 0 && kept >= max_positions {
                sources.push(format!("{} ({from_file} positions)", path.display()));
                break 'files;
            }
        }
        sources.push(format!("{} ({from_file} positions)", path.display()));
    }
    Ok(DataRead {
        read,
        kept,
        sources,
    })
}

/// Writes through a temporary file and a rename, so a kill leaves the old file whole.
pub(crate) fn write_atomically(
    path: &std::path::Path,
    text: impl AsRef<[u8]>,
) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    let mut f =
        std::fs::File::create(&tmp).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    f.write_all(text.as_ref())
        .and_then(|_| f.sync_all())
        .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
