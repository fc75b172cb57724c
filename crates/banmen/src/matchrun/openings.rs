//! Openings of `banmen match`: the `--openings` file, each line checked on
//! the rules.

use banmen_rules::{
    BitBoard, Game, GameOptions, Position, PositionCommand, PositionCommandError, Rules, SfenMode,
    StartPosition,
};
use std::path::Path;

/// A start position: `startpos` or `sfen ...`, and moves.
#[derive(Clone, Debug)]
pub(super) struct Opening {
    /// `startpos` or `sfen <SFEN>`.
    pub(super) base: String,
    /// Canonical USI moves.
    pub(super) moves: Vec<String>,
}

impl Opening {
    /// The USI `position` command of this opening followed by `moves` (the
    /// whole game's moves, the opening's own included).
    pub(super) fn position(&self, moves: &[String]) -> String {
        let mut position = format!("position {}", self.base);
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        position
    }
}

/// Parses one openings line (an SFEN, `startpos moves ...`, `sfen ... moves ...`,
/// optionally after `position`) and checks it on the rules.
fn parse_opening<B: BitBoard>(
    rules: &'static Rules<B>,
    line: &str,
    options: GameOptions,
) -> Result<Opening, String> {
    let command = PositionCommand::parse_lenient(line).map_err(|e| match e {
        PositionCommandError::Empty => "empty opening".to_string(),
        e => e.to_string(),
    })?;
    let sfen = command.sfen(rules);
    let base = match &command.start {
        StartPosition::Startpos => "startpos".to_string(),
        StartPosition::Sfen(s) => format!("sfen {s}"),
    };
    let pos = Position::from_sfen(rules, sfen, SfenMode::Strict)
        .map_err(|e| format!("bad SFEN '{sfen}': {e}"))?;
    let mut game = Game::new(pos, options);
    let mut moves = Vec::new();
    for text in &command.moves {
        let usi = {
            let p = game.position();
            let m = p
                .parse_move(text)
                .map_err(|e| format!("move '{text}': {e}"))?;
            p.move_to_usi(m)
        };
        game.play_usi(&usi)
            .map_err(|e| format!("move '{text}': {e}"))?;
        moves.push(usi);
    }
    if let Some(o) = game.outcome() {
        return Err(format!("the opening has already ended ({})", o.reason));
    }
    Ok(Opening { base, moves })
}

/// The openings of the file at `path`, or the start position without one.
pub(super) fn load_openings<B: BitBoard>(
    rules: &'static Rules<B>,
    path: Option<&Path>,
    options: GameOptions,
) -> Result<Vec<Opening>, String> {
    let Some(path) = path else {
        return Ok(vec![Opening {
            base: "startpos".into(),
            moves: Vec::new(),
        }]);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(
            parse_opening(rules, line, options)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?,
        );
    }
    if out.is_empty() {
        return Err(format!("no openings in '{}'", path.display()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_for, AnyRules, VariantName};

    #[test]
    fn openings_parse() {
        let AnyRules::Nine(r) = rules_for(VariantName::Shogi, "").unwrap() else {
            panic!("shogi is 9x9")
        };
        let o = GameOptions::default();
        let a = parse_opening(r, "startpos moves 7g7f 3c3d", o).unwrap();
        assert_eq!((a.base.as_str(), a.moves.len()), ("startpos", 2));
        let b = parse_opening(
            r,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            o,
        )
        .unwrap();
        assert!(b.base.starts_with("sfen ") && b.moves.is_empty());
        let c = parse_opening(
            r,
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f",
            o,
        )
        .unwrap();
        assert_eq!(c.moves, vec!["2g2f".to_string()]);
        assert!(parse_opening(r, "startpos moves 5e5d", o).is_err());
        assert!(parse_opening(r, "nonsense", o).is_err());
    }
}
