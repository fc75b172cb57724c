//! `sfen <start> moves ...` and USI `position` lines.

use crate::record::{ParseError, Record};
use banmen_rules::{Variant, VariantName};

fn variant_of(board: &str) -> VariantName {
    if board.split('/').count() > 9 {
        VariantName::DaiDaiShogi
    } else if board.chars().any(|c| "uaciUACI".contains(c)) {
        VariantName::CannonShogi
    } else {
        VariantName::Shogi
    }
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
    let body = line.strip_prefix("position ").unwrap_or(&line).trim();
    let (pos_part, moves_part) = match body.split_once(" moves") {
        Some((p, m)) => (p.trim(), Some(m)),
        None => (body.strip_suffix(" moves").unwrap_or(body).trim(), None),
    };
    let start = if pos_part == "startpos" {
        None
    } else {
        let s = pos_part.strip_prefix("sfen ").unwrap_or(pos_part).trim();
        if s.is_empty() {
            return Err(ParseError::new(n, "empty SFEN"));
        }
        Some(s.to_string())
    };
    let variant = variant.unwrap_or_else(|| {
        start
            .as_deref()
            .map(|s| variant_of(s.split_whitespace().next().unwrap_or("")))
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
    if let Some(m) = moves_part {
        if !m.is_empty() && !m.starts_with(' ') {
            return Err(ParseError::new(n, "expected ' moves '"));
        }
        rec.moves = m.split_whitespace().map(str::to_string).collect();
    }
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
    if record.variant != VariantName::Shogi {
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
