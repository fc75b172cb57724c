//! `banmen perft`: leaf counts of the legal move tree.

use crate::setup::{position, PositionArgs};
use banmen_rules::with_position;
use banmen_rules::{BitBoard, Position};
use clap::Args;
use std::time::Instant;

/// Arguments of `banmen perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Print one line per root move: `<usi move> <count>`.
    #[arg(long)]
    pub divide: bool,
}

/// Runs perft and prints `nodes <N> time <s> nps <N>` last.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    with_position!(position(&args.position)?, pos => count(*pos, args));
    Ok(())
}

fn count<B: BitBoard>(mut pos: Position<B>, args: &PerftArgs) {
    let start = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, n) in pos.divide(args.depth) {
            println!("{} {n}", pos.move_to_usi(m));
            total += n;
        }
        if args.depth == 0 {
            1
        } else {
            total
        }
    } else {
        pos.perft(args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("nodes {nodes} time {secs:.3} nps {nps}");
}
