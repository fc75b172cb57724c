//! `sfen <start> moves ...` and USI `position` lines.

use crate::record::{ParseError, Record};
use banmen_rules::{
    rules_for, with_rules, BitBoard, Position, PositionCommand, Rules, SfenMode, SfenProblem,
    StartPosition, Variant, VariantName,
};

/// Whether an SFEN is written for this game: its board has the game's size
/// and every piece token is one of the game's (other faults, such as nifu,
/// are the position's, not the game's).
fn fits<B: BitBoard>(rules: &'static Rules<B>, sfen: &str) -> bool {
    match Position::from_sfen(rules, sfen, SfenMode::Tsume) {
        Ok(_) => true,
        Err(e) => !e.problems.iter().any(|p| {
            matches!(
                p,
                SfenProblem::FieldCount(_)
                    | SfenProblem::RankCount { .. }
                    | SfenProblem::RankLength { .. }
                    | SfenProblem::UnknownPiece(_)
                    | SfenProblem::BadPromotion(_)
            )
        }),
    }
}

/// The game of an SFEN without a `USI_Variant` line: the first game (in
/// [`VariantName::ALL`] order, so standard shogi before cannon shogi, whose
/// pieces include shogi's) whose board and pieces it fits; shogi if none.
fn variant_of(sfen: &str) -> VariantName {
    VariantName::ALL
        .into_iter()
        .find(|&name| rules_for(name, "").is_ok_and(|any| with_rules!(any, r => fits(r, sfen))))
        .unwrap_or(VariantName::Shogi)
}

/// Reads `position startpos moves ...`, `position sfen ... moves ...`,
/// `sfen ... moves ...`, `startpos moves ...` or a bare SFEN, optionally after
/// `setoption name USI_Variant value cannonshogi` and `setoption name Rules value …`.
///
/// # Errors
/// The first problem, with its line.
pub fn read(text: &str) -> Result<Record, ParseError> {
    let mut variant: Option<VariantName> = None;
    let mut rules = String::new();
    let mut found: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("setoption name USI_Variant value ") {
            variant = Some(
                rest.trim()
                    .parse()
                    .map_err(|e| ParseError::new(n, format!("{e}")))?,
            );
            continue;
        }
        if let Some(rest) = line.strip_prefix("setoption name Rules value ") {
            rules = rest.trim().to_string();
            continue;
        }
        if line.starts_with("setoption ") || line == "usinewgame" {
            continue;
        }
        if found.is_some() {
            return Err(ParseError::new(n, "more than one position line"));
        }
        found = Some((n, line.to_string()));
    }
    let (n, line) = found.ok_or_else(|| ParseError::new(1, "no position"))?;
    let command =
        PositionCommand::parse_lenient(&line).map_err(|e| ParseError::new(n, e.to_string()))?;
    let start = match command.start {
        StartPosition::Startpos => None,
        StartPosition::Sfen(s) if s.is_empty() => return Err(ParseError::new(n, "empty SFEN")),
        StartPosition::Sfen(s) => Some(s),
    };
    let variant = variant.unwrap_or_else(|| {
        start
            .as_deref()
            .map(|s| match s.split_whitespace().count() {
                3 => variant_of(&format!("{s} 1")),
                _ => variant_of(s),
            })
            .unwrap_or(VariantName::Shogi)
    });
    let mut rec = Record::new(variant);
    rec.rules = rules;
    if let Some(s) = start {
        let fields: Vec<&str> = s.split_whitespace().collect();
        rec.start = if fields.len() == 3 {
            format!("{s} 1")
        } else {
            s
        };
    } else if rec.start.is_empty() {
        return Err(ParseError::new(
            n,
            format!("{variant} has no start position"),
        ));
    }
    rec.moves = command.moves;
    rec.validate().map_err(|e| ParseError::new(n, e))?;
    rec.result = rec.rules_result();
    Ok(rec)
}

fn is_standard_start(record: &Record) -> bool {
    Variant::get(record.variant).is_some_and(|v| v.start_sfen == record.start)
}

fn moves_suffix(record: &Record) -> String {
    if record.moves.is_empty() {
        String::new()
    } else {
        format!(" moves {}", record.moves.join(" "))
    }
}

/// `setoption name Rules value …` when the record has rule options.
fn rules_line(record: &Record) -> String {
    if record.rules.is_empty() {
        String::new()
    } else {
        format!("setoption name Rules value {}\n", record.rules)
    }
}

/// `sfen <start> moves ...` (`sfen` in full, even for the start position),
/// after `setoption name Rules value …` when the record has rule options.
///
/// # Errors
/// The record's moves are not legal.
pub fn write_sfen(record: &Record) -> Result<String, String> {
    record.validate()?;
    Ok(format!(
        "{}sfen {}{}\n",
        rules_line(record),
        record.start,
        moves_suffix(record)
    ))
}

/// `position startpos|sfen ... moves ...`, after `setoption name USI_Variant`
/// for games other than shogi.
///
/// # Errors
/// The record's moves are not legal.
pub fn write_usi(record: &Record) -> Result<String, String> {
    record.validate()?;
    let mut s = String::new();
    if record.variant != VariantName::default() {
        s.push_str(&format!(
            "setoption name USI_Variant value {}\n",
            record.variant
        ));
    }
    s.push_str(&rules_line(record));
    if is_standard_start(record) {
        s.push_str("position startpos");
    } else {
        s.push_str(&format!("position sfen {}", record.start));
    }
    s.push_str(&moves_suffix(record));
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_of_an_sfen_is_the_first_whose_board_and_pieces_it_fits() {
        let game = |s: &str| variant_of(s);
        let shogi = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(game(shogi), VariantName::Shogi);
        let cannon = "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1";
        assert_eq!(game(cannon), VariantName::CannonShogi);
        let dai = Variant::get(VariantName::DaiDaiShogi).unwrap().start_sfen;
        assert_eq!(game(dai), VariantName::DaiDaiShogi);
        assert_eq!(game("rbsgk/4p/5/P4/KGSBR b - 1"), VariantName::MiniShogi);
        // Nifu is the position's fault, not a sign of cannon shogi.
        let nifu = "4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1";
        assert_eq!(game(nifu), VariantName::Shogi);
        assert_eq!(game("garbage"), VariantName::Shogi);
    }
}
