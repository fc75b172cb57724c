//! `banmen bench`: a fixed-depth search of fixed positions of each game, one
//! thread, a cleared table per position: the node count is the same on every
//! run and every machine (a signature of the search), the speed is not.

use banmen_engine::{search, Control, Evaluator, Limits, SearchOptions, Table};
use banmen_rules::{rules_for, with_rules, BitBoard, Position, Rules, SfenMode, VariantName};
use clap::Args;
use std::io::Write;
use std::time::{Duration, Instant};

/// Arguments of `banmen bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Add this many plies to every position's depth.
    #[arg(long, default_value_t = 0)]
    pub extra_depth: i32,
}

/// (game, SFEN, depth). Positions from the rules crate's perft data and the start positions.
const POSITIONS: [(&str, &str, i32); 8] = [
    ("shogi", "startpos", 7),
    (
        "shogi",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        7,
    ),
    ("shogi", "4k4/9/9/9/4r3b/9/9/9/4K4 b GSNLP 1", 6),
    (
        "shogi",
        "4k4/9/p1p3p1p/4+p4/9/4+P4/P1P3P1P/9/4K4 b RBGSNLPrbgsnlp 1",
        4,
    ),
    ("cannonshogi", "startpos", 5),
    (
        "cannonshogi",
        "2c1kgsnl/l1gi1u1b1/p1n2pp1p/9/4S4/4P4/+a1P5P/4GI1R1/LN+rGK1SNL b Ca3pusb 21",
        4,
    ),
    (
        "cannonshogi",
        "lns+Ukgsn1/+Crc2u1b1/p1p1pppp1/9/2I6/9/PGP1P1+a1+i/1BA4R1/LNSGKGS1L b Lpn 11",
        4,
    ),
    ("daidaishogi", "startpos", 3),
];

/// Runs the benchmark and prints one line per position and a total.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for (i, (game, sfen, depth)) in POSITIONS.iter().enumerate() {
        let name: VariantName = game.parse().map_err(|e| format!("{e}"))?;
        let depth = (depth + args.extra_depth).max(1);
        let (nodes, time, best) = with_rules!(rules_for(name, "").map_err(|e| e.to_string())?, r => bench_one(r, sfen, depth)?);
        // A closed pipe (`banmen bench | head`) ends the run quietly.
        if writeln!(
            out,
            "position {} {game} depth {depth} nodes {nodes} time {} bestmove {best}",
            i + 1,
            time.as_millis()
        )
        .is_err()
        {
            return Ok(());
        }
        total_nodes += nodes;
        total_time += time;
    }
    let ms = total_time.as_millis().max(1) as u64;
    let _ = writeln!(
        out,
        "nodes {total_nodes} time {} nps {}",
        ms,
        total_nodes * 1000 / ms
    );
    Ok(())
}

fn bench_one<B: BitBoard>(
    rules: &'static Rules<B>,
    sfen: &str,
    depth: i32,
) -> Result<(u64, Duration, String), String> {
    let sfen = if sfen == "startpos" {
        rules.variant.start_sfen
    } else {
        sfen
    };
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).map_err(|e| e.to_string())?;
    let eval = Evaluator::new(rules);
    let tt = Table::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let result = search(
        &pos,
        &[],
        &eval,
        &tt,
        &limits,
        &SearchOptions::default(),
        &Control::default(),
        &|_| {},
    );
    let best = match result.best {
        banmen_engine::BestMove::Move(m, _) => pos.move_to_usi(m),
        banmen_engine::BestMove::Resign => "resign".into(),
        banmen_engine::BestMove::Win => "win".into(),
    };
    Ok((result.nodes, start.elapsed(), best))
}
