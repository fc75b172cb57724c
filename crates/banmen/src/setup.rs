//! Choosing a game and a position from command-line arguments.

use crate::board_text;
use banmen_rules::{
    rules_for, with_position, with_rules, AnyPosition, BitBoard, Position, Rules, SfenMode,
    VariantName,
};
use clap::Args;

/// The game and position arguments shared by several commands.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game: shogi, cannonshogi, daidaishogi or minishogi.
    #[arg(long, default_value = "shogi")]
    pub variant: String,
    /// Rule options (`--rules flying-cannon=leap`, `--rules tsa`, `--rules great-elephant=none`).
    #[arg(long)]
    pub rules: Option<String>,
    /// Start from this SFEN instead of the start position.
    #[arg(long)]
    pub sfen: Option<String>,
    /// Start from a named handicap (lance, bishop, rook, two-pieces, ...).
    #[arg(long, conflicts_with = "sfen")]
    pub handicap: Option<String>,
    /// USI moves to play first, separated by spaces.
    #[arg(long)]
    pub moves: Option<String>,
    /// Accept tsume positions (the attacker may have no king).
    #[arg(long)]
    pub tsume: bool,
}

/// Builds the position the arguments describe.
pub fn position(args: &PositionArgs) -> Result<AnyPosition, String> {
    let name: VariantName = args.variant.parse().map_err(|e| format!("{e}"))?;
    let options = args.rules.as_deref().unwrap_or("");
    let rules = rules_for(name, options).map_err(|e| e.to_string())?;
    with_rules!(rules, r => build(r, args).map(AnyPosition::from))
}

fn build<B: BitBoard>(
    rules: &'static Rules<B>,
    args: &PositionArgs,
) -> Result<Position<B>, String> {
    let sfen = match (&args.sfen, &args.handicap) {
        (Some(s), _) => s.clone(),
        (None, Some(h)) => {
            let handicap = rules.variant.handicap(h).ok_or_else(|| {
                let names: Vec<&str> = rules.variant.handicaps.iter().map(|h| h.name).collect();
                if names.is_empty() {
                    format!("{} has no handicaps", rules.variant.name)
                } else {
                    format!(
                        "unknown handicap '{h}' (expected one of: {})",
                        names.join(", ")
                    )
                }
            })?;
            handicap.sfen.to_string()
        }
        (None, None) => rules.variant.start_sfen.to_string(),
    };
    let mode = if args.tsume {
        SfenMode::Tsume
    } else {
        SfenMode::Strict
    };
    let mut pos = Position::from_sfen(rules, &sfen, mode).map_err(|e| e.to_string())?;
    if let Some(moves) = &args.moves {
        for (i, text) in moves.split_whitespace().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            pos.make_move(m);
        }
    }
    Ok(pos)
}

/// Arguments of `banmen show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
}

/// `banmen show`: the board, SFEN, and legal moves.
pub fn show(args: &ShowArgs) -> Result<(), String> {
    with_position!(position(&args.position)?, pos => show_position(&pos));
    Ok(())
}

fn show_position<B: BitBoard>(pos: &Position<B>) {
    print!("{}", board_text::render(pos));
    println!("sfen {}", pos.to_sfen());
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_to_usi(m))
        .collect();
    if pos.in_check() {
        println!("{} is in check", pos.side_to_move().name());
    }
    println!("legal moves ({}): {}", moves.len(), moves.join(" "));
}
