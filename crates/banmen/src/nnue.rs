//! `banmen train-nnue`: fits a network evaluation ([`banmen_engine::nnue`])
//! to `banmen selfplay` data and writes it as a net file, which `banmen usi`
//! loads with the option `EvalFile` (and `match`, `serve` with `--eval-file`).
//!
//! The positions kept are those `banmen tune` keeps (quiet, score within
//! ±3000); the target blends the game result (weight `--lambda`) with the
//! search score through `sigmoid(score / scale)`. Whole games are held out
//! to measure the fit. Everything that shapes the net (command, commit,
//! data, losses) is written into the file's `about` text.

use crate::tune::{commit, read_quiet_positions, target, write_atomically};
use banmen_engine::nnue::train::{self, ft_clip_for, Dataset, FloatNet, TrainOptions};
use banmen_engine::nnue::{Buckets, Features, Net};
use banmen_engine::Evaluator;
use banmen_rules::{rules_for, with_rules, BitBoard, Position, Rules, SfenMode, VariantName};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `banmen train-nnue`.
#[derive(Args, Debug)]
pub struct TrainNnueArgs {
    /// The game: shogi, cannonshogi, daidaishogi or minishogi.
    #[arg(long)]
    pub variant: String,
    /// Rule options the data was played with.
    #[arg(long, default_value = "")]
    pub rules: String,
    /// Selfplay files (`banmen selfplay --out`).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// The net file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Accumulator width per side.
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// King buckets: 1, or 9 (thirds of files by back rank / next two / rest);
    /// default 9 on 9x9 boards, 1 otherwise.
    #[arg(long)]
    pub buckets: Option<String>,
    /// Also fit each position with its files mirrored (default: on in the
    /// games whose rules are symmetric, shogi, cannon shogi and minishogi;
    /// off in dai dai shogi, whose left and right pieces differ).
    #[arg(long)]
    pub mirror: Option<bool>,
    /// Share what is learnt of a piece on a square between the king
    /// buckets (a factoriser, merged into the net when it is written).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub factorise: bool,
    /// Train the net on what the shipped linear evaluation leaves over and
    /// add the two in play (a fixed linear path beside the network).
    #[arg(long)]
    pub residual: bool,
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    #[arg(long, default_value_t = 8192)]
    pub batch: usize,
    #[arg(long, default_value_t = 0.001)]
    pub learning_rate: f32,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Centipawns of an output of 1.0 (the sigmoid's scale).
    #[arg(long, default_value_t = 600)]
    pub scale: i32,
    /// Share of the games held out to measure the fit.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Use at most this many positions (0: all).
    #[arg(long, default_value_t = 0)]
    pub max_positions: usize,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `banmen train-nnue`.
pub fn run(args: &TrainNnueArgs) -> Result<(), String> {
    let name: VariantName = args.variant.parse().map_err(|e| format!("{e}"))?;
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.validation) {
        return Err("--lambda must be within 0..=1 and --validation within 0..1".into());
    }
    if !(1..=100_000).contains(&args.scale) {
        return Err("--scale must be within 1..=100000 centipawns".into());
    }
    if args.hidden == 0 || args.hidden > banmen_engine::nnue::MAX_HIDDEN || args.epochs == 0 {
        return Err(format!(
            "--hidden must be within 1..={} and --epochs at least 1",
            banmen_engine::nnue::MAX_HIDDEN
        ));
    }
    with_rules!(rules_for(name, &args.rules).map_err(|e| e.to_string())?, r => train_game(r, args))
}

fn train_game<B: BitBoard>(rules: &'static Rules<B>, args: &TrainNnueArgs) -> Result<(), String> {
    let buckets = match &args.buckets {
        Some(b) => Buckets::parse(b)?,
        None if rules.geometry.squares() <= 81 => Buckets::Nine,
        None => Buckets::One,
    };
    let features = Features::new(rules, buckets);
    let mirror = args
        .mirror
        .unwrap_or(rules.variant.name != VariantName::DaiDaiShogi);
    let (train_set, valid_set, sources, read) = read_data(rules, &features, mirror, args)?;
    if train_set.is_empty() {
        return Err(format!("no usable positions among the {read} read"));
    }
    eprintln!(
        "{read} positions read: {} samples to fit{}, {} held out; {} features, hidden {}",
        train_set.len(),
        if mirror { " (mirrored too)" } else { "" },
        valid_set.len(),
        features.len(),
        args.hidden
    );
    let start =
        Position::from_sfen(rules, "startpos", SfenMode::Strict).map_err(|e| e.to_string())?;
    let options = TrainOptions {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        threads: args.threads.max(1),
        ft_clip: ft_clip_for(Features::max_active(&start)),
        seed: args.seed,
        ..TrainOptions::default()
    };
    let mut net = FloatNet::new(
        rules.variant.name,
        features,
        args.hidden,
        args.scale,
        args.seed,
    );
    if args.factorise {
        net.factorise();
    }
    net.residual = args.residual;
    let time = Instant::now();
    let before = train::loss(&net, &valid_set);
    let mut last = before;
    let mut best_epoch = 0;
    train::train(
        &mut net,
        &train_set,
        &valid_set,
        &options,
        &mut |e, t, v| {
            if best_epoch == 0 || v < last {
                last = v;
                best_epoch = e;
            }
            eprintln!(
                "epoch {e}: training loss {t:.5}, held-out loss {v:.5} ({:.0} s)",
                time.elapsed().as_secs_f64()
            );
        },
    );
    let command: Vec<String> = std::env::args().skip(1).collect();
    let about = format!(
        "banmen {}\ncommit {}\ndata {}\npositions {} fitted, {} held out\nheld-out cross-entropy {before:.5} -> {last:.5} (epoch {best_epoch}, kept)\ntraining time {:.0} s\n",
        command.join(" "),
        commit(),
        sources.join(", "),
        train_set.len(),
        valid_set.len(),
        time.elapsed().as_secs_f64()
    );
    let quantised = net.quantise(&about);
    let bytes = quantised.to_bytes();
    // What is written must read back.
    let back = Net::from_bytes(&bytes, rules)
        .map_err(|e| format!("the net written does not read back: {e}"))?;
    let (worst, mean) = agreement(&net, &back, &valid_set);
    write_atomically(&args.out, &bytes)?;
    println!(
        "wrote {} ({} bytes): held-out loss {before:.5} -> {last:.5} (epoch {best_epoch}); quantised vs float on {} held-out positions: mean {mean:.1} cp, worst {worst} cp",
        args.out.display(),
        bytes.len(),
        valid_set.len().min(AGREEMENT_SAMPLES)
    );
    Ok(())
}

/// Held-out positions on which the quantised net is compared with the float one.
const AGREEMENT_SAMPLES: usize = 2000;

/// The worst and mean difference (centipawns) between the float model and
/// its quantised net on up to [`AGREEMENT_SAMPLES`] positions.
fn agreement(float: &FloatNet, net: &Net, data: &Dataset) -> (i32, f64) {
    let n = data.len().min(AGREEMENT_SAMPLES);
    let (mut worst, mut sum) = (0, 0i64);
    for i in 0..n {
        let (us, them) = data.features_of(i);
        let f = (float.forward(us, them) * net.scale as f32).round() as i32;
        let q = net.output_from_features(us, them);
        worst = worst.max((f - q).abs());
        sum += i64::from((f - q).abs());
    }
    (worst, sum as f64 / n.max(1) as f64)
}

type Data = (Dataset, Dataset, Vec<String>, usize);

fn read_data<B: BitBoard>(
    rules: &'static Rules<B>,
    features: &Features,
    mirror: bool,
    args: &TrainNnueArgs,
) -> Result<Data, String> {
    let mut train_set = Dataset::new();
    let mut valid_set = Dataset::new();
    let (mut us, mut them) = (Vec::with_capacity(256), Vec::with_capacity(256));
    let linear = Evaluator::linear(rules);
    let scale = args.scale as f32;
    let data = read_quiet_positions(
        rules,
        &args.data,
        args.validation,
        args.max_positions,
        |q, held_out| {
            let side = q.pos.side_to_move();
            us.clear();
            them.clear();
            features.active(&q.pos, side, &mut us);
            features.active(&q.pos, !side, &mut them);
            let t = target(q.score, q.result, args.lambda, f64::from(args.scale)) as f32;
            // A residual net's output is added to the linear evaluation.
            let offset = if args.residual {
                Some(linear.evaluate_linear(&q.pos) as f32 / scale)
            } else {
                None
            };
            let push = |set: &mut Dataset, us: &[u32], them: &[u32]| match offset {
                Some(o) => set.push_with_offset(us, them, t, o),
                None => set.push(us, them, t),
            };
            if held_out {
                push(&mut valid_set, &us, &them);
            } else {
                push(&mut train_set, &us, &them);
                if mirror {
                    us.clear();
                    them.clear();
                    features.active_mirrored(&q.pos, side, &mut us);
                    features.active_mirrored(&q.pos, !side, &mut them);
                    push(&mut train_set, &us, &them);
                }
            }
        },
    )?;
    Ok((train_set, valid_set, data.sources, data.read))
}

/// `serve`/`worker --eval-file`: makes each file's net the one its game's
/// engine evaluates with in this process. A file that cannot be read or is
/// not a net is an error before anything starts.
pub fn use_nets(files: &[PathBuf]) -> Result<(), String> {
    let mut games = Vec::new();
    for path in files {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("--eval-file: cannot read {}: {e}", path.display()))?;
        let fail = |e: String| format!("--eval-file {}: {e}", path.display());
        let game = Net::game_of(&bytes).map_err(|e| fail(e.to_string()))?;
        if games.contains(&game) {
            return Err(fail(format!("a second net for {game}: give one per game")));
        }
        games.push(game);
        with_rules!(rules_for(game, "").map_err(|e| fail(e.to_string()))?, r => {
            let net = Net::from_bytes(&bytes, r).map_err(|e| fail(e.to_string()))?;
            eprintln!(
                "--eval-file {}: {game}, hidden {}, {} king buckets{}",
                path.display(),
                net.hidden,
                net.features.buckets,
                if net.residual { ", residual" } else { "" }
            );
            Evaluator::set_default_net(r, Some(std::sync::Arc::new(net))).map_err(|e| fail(e.to_string()))
        })?;
    }
    Ok(())
}
