//! `banmen`: the command-line front door.

mod bench;
mod board_text;
mod convert;
mod lines;
mod matchrun;
mod mate;
mod nnue;
mod perft;
mod play;
mod play_board;
mod selfplay;
mod setup;
mod tune;
mod usi;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Play, check and analyse shogi, cannon shogi, dai dai shogi and minishogi.
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
    /// Speak the USI protocol on stdin/stdout (for shogi GUIs).
    Usi,
    /// Search fixed positions to a fixed depth: a deterministic node count and the speed.
    Bench(bench::BenchArgs),
    /// Play a match between two USI engines, adjudicated by the rules.
    Match(matchrun::MatchArgs),
    /// The engine plays itself and writes the searched positions with their results.
    Selfplay(selfplay::SelfplayArgs),
    /// Convert a game record between KIF, KI2, CSA, SFEN, USI, Western and Japanese notation.
    Convert(convert::ConvertArgs),
    /// Play at the terminal against the engine or a second person.
    Play(play::PlayArgs),
    /// Fit the evaluation's parameters to `banmen selfplay` data.
    Tune(tune::TuneArgs),
    /// Train a network evaluation (NNUE) on `banmen selfplay` data.
    TrainNnue(nnue::TrainNnueArgs),
    /// Solve tsume (mate problems): one position or a file of many.
    Mate(mate::MateArgs),
    /// Serve the web board and its JSON API (games kept in SQLite or PostgreSQL).
    Serve(ServeArgs),
    /// Play the engine sides' moves of `banmen serve --workers` servers, from
    /// a queue in their PostgreSQL database.
    Worker(WorkerArgs),
}

/// Arguments of `banmen worker`.
#[derive(clap::Args, Debug)]
struct WorkerArgs {
    /// The servers' database: postgres://USER[:PASSWORD]@HOST[:PORT]/DB.
    #[arg(long, value_parser = banmen_web::Database::parse)]
    db: banmen_web::Database,
    /// Searches at once (default: the cores).
    #[arg(long)]
    engines: Option<usize>,
    /// The name this worker takes searches under (default: host:pid:random).
    #[arg(long)]
    name: Option<String>,
    /// A network file (`banmen train-nnue`) the engine evaluates its game
    /// with instead of the built-in one; once per game.
    #[arg(long = "eval-file")]
    eval_files: Vec<PathBuf>,
}

/// Arguments of `banmen serve`.
#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// TCP port (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Where the games are kept: an SQLite file, or a PostgreSQL database as
    /// postgres://USER[:PASSWORD]@HOST[:PORT]/DB.
    #[arg(long, default_value = "banmen.sqlite", value_parser = banmen_web::Database::parse)]
    db: banmen_web::Database,
    /// At most this many engine searches at once, the others queued (default: the cores).
    #[arg(long)]
    engines: Option<usize>,
    /// At most this many unfinished engine games created from one address (0: no limit).
    #[arg(long, default_value_t = 8)]
    engine_games_per_client: usize,
    /// At most this many games created or imported from one address a minute (0: no limit).
    #[arg(long, default_value_t = 30)]
    games_per_minute: u32,
    /// Leave the engine sides' moves to `banmen worker` processes (PostgreSQL
    /// only); `--engines` then bounds only this server's tsume solving.
    #[arg(long)]
    workers: bool,
    /// A network file (`banmen train-nnue`) the engine evaluates its game
    /// with instead of the built-in one, on the board, in analysis and in
    /// reviews; once per game (the file says which game it is for).
    #[arg(long = "eval-file")]
    eval_files: Vec<PathBuf>,
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Show(args) => setup::show(&args),
        Command::Usi => usi::run(),
        Command::Bench(args) => bench::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::TrainNnue(args) => nnue::run(&args),
        Command::Mate(args) => mate::run(&args),
        Command::Match(args) => matchrun::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Serve(args) => nnue::use_nets(&args.eval_files).and_then(|()| {
            banmen_web::run(&banmen_web::ServeOptions {
                bind: args.bind,
                port: args.port,
                db: args.db,
                bounds: banmen_web::Bounds {
                    engines: args.engines.unwrap_or_else(banmen_web::cores),
                    engine_games_per_client: Some(args.engine_games_per_client).filter(|&n| n > 0),
                    games_per_minute: Some(args.games_per_minute).filter(|&n| n > 0),
                    workers: args.workers,
                },
            })
        }),
        Command::Worker(args) => nnue::use_nets(&args.eval_files).and_then(|()| {
            let mut opts = banmen_web::WorkerOptions::new(
                args.db,
                args.engines.unwrap_or_else(banmen_web::cores),
            );
            if let Some(name) = args.name {
                opts.name = name;
            }
            banmen_web::run_worker(&opts)
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `banmen mate … | head` and the like: printing to a stdout that was closed
/// ends the process quietly instead of with a panic message.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
