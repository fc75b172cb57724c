//! `banmen`: the command-line front door.

mod board_text;
mod perft;
mod setup;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Play, check and analyse shogi, cannon shogi and dai dai shogi.
#[derive(Parser, Debug)]
#[command(name = "banmen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator check and benchmark).
    Perft(perft::PerftArgs),
    /// Print a position as a board with its legal moves and status.
    Show(setup::ShowArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Show(args) => setup::show(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
