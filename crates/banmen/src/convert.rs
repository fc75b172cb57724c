//! `banmen convert`: game records from one format to another.

use banmen_formats::{read_games, write, Format};
use clap::Args;
use std::io::{Read, Write};

/// Arguments of `banmen convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The record to read (`-` = stdin).
    pub input: String,
    /// Its format (kif, kifu, ki2, csa, jkf, sfen, usi, western, japanese); guessed
    /// from the extension or the content when absent.
    #[arg(long)]
    pub from: Option<String>,
    /// The format to write.
    #[arg(long)]
    pub to: String,
    /// Write here instead of stdout.
    #[arg(long)]
    pub out: Option<String>,
    /// Which game of a file with several (CSA games separated by `/` lines),
    /// counting from 1.
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Write the main line only, without the variations (`変化`, JKF forks).
    /// Formats that cannot hold variations (CSA, SFEN, USI, Western,
    /// Japanese) always get the main line; KIF, KI2 and JKF keep them.
    #[arg(long)]
    pub mainline: bool,
}

/// Runs `banmen convert`.
pub fn run(args: &ConvertArgs) -> Result<(), String> {
    let to: Format = args.to.parse()?;
    let (from, how): (Option<Format>, &str) = match &args.from {
        Some(f) => (Some(f.parse()?), "as --from says"),
        None => match Format::from_extension(&args.input) {
            Some(f) => (Some(f), "from the file name"),
            None => (None, "guessed from the content; --from chooses"),
        },
    };
    let mut bytes = Vec::new();
    if args.input == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("stdin: {e}"))?;
    } else {
        bytes = std::fs::read(&args.input).map_err(|e| format!("{}: {e}", args.input))?;
    }
    let format = from.unwrap_or_else(|| Format::guess(&bytes));
    // `path: line N: reason (read as csa, from the file name)`.
    let games = read_games(&bytes, Some(format))
        .map_err(|e| format!("{}: {e} (read as {format}, {how})", args.input))?;
    let record = args
        .game
        .checked_sub(1)
        .and_then(|i| games.get(i))
        .ok_or_else(|| {
            format!(
                "{}: no game {} (the file holds {}; --game counts from 1)",
                args.input,
                args.game,
                games.len()
            )
        })?;
    let flat;
    let record = if record.has_variations() && (args.mainline || !to.holds_variations()) {
        if !args.mainline {
            eprintln!(
                "note: {to} holds no variations; writing the main line only (--mainline says so)"
            );
        }
        flat = record.mainline();
        &flat
    } else {
        record
    };
    let out = write(record, to).map_err(|e| format!("cannot write {to}: {e}"))?;
    match &args.out {
        Some(path) => std::fs::write(path, out).map_err(|e| format!("{path}: {e}")),
        None => std::io::stdout()
            .write_all(&out)
            .map_err(|e| format!("stdout: {e}")),
    }
}
