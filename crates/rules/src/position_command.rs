//! The USI `position` line (`position startpos|sfen <SFEN> [moves ...]`),
//! read once for the engine, the match runner and the record readers. Syntax
//! only: the SFEN and the moves are checked against a game by their users.

use crate::bitboard::BitBoard;
use crate::rules::Rules;
use std::fmt;

/// Where a `position` line starts.
///
/// ```
/// use banmen_rules::{rules_9x9, PositionCommand, StartPosition, VariantName};
/// let rules = rules_9x9(VariantName::MiniShogi).unwrap();
/// let c = PositionCommand::parse("position startpos").unwrap();
/// assert_eq!(c.start, StartPosition::Startpos);
/// assert_eq!(c.sfen(rules), "rbsgk/4p/5/P4/KGSBR b - 1");
/// let c = PositionCommand::parse("position sfen 4k/5/5/5/K4 b - 1").unwrap();
/// assert_eq!(c.start, StartPosition::Sfen("4k/5/5/5/K4 b - 1".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `startpos`: the game's even start position.
    Startpos,
    /// `sfen <SFEN>`: the SFEN's fields joined by single spaces.
    Sfen(String),
}

/// A USI `position` line read into its start and its move texts.
///
/// ```
/// use banmen_rules::{PositionCommand, StartPosition};
/// let c: PositionCommand = "position startpos moves 7g7f 3c3d".parse().unwrap();
/// assert_eq!(c.start, StartPosition::Startpos);
/// assert_eq!(c.moves, ["7g7f", "3c3d"]);
/// let c: PositionCommand = "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1".parse().unwrap();
/// assert_eq!(c.to_string(), "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1");
/// assert!("position sfen moves 7g7f".parse::<PositionCommand>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The start position.
    pub start: StartPosition,
    /// The moves after `moves`, as written.
    pub moves: Vec<String>,
}

/// Why a `position` line could not be read.
///
/// ```
/// use banmen_rules::{PositionCommand, PositionCommandError};
/// assert_eq!(PositionCommand::parse("position"), Err(PositionCommandError::Empty));
/// let err = PositionCommand::parse("startpos 7g7f").unwrap_err();
/// assert_eq!(err, PositionCommandError::NotMoves("7g7f".into()));
/// assert_eq!(err.to_string(), "expected 'moves', not '7g7f'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    /// Nothing after `position`.
    Empty,
    /// A first word that is neither `startpos` nor `sfen`.
    NotAStart(String),
    /// `sfen` with no SFEN before `moves` or the end.
    MissingSfen,
    /// A word after `startpos` other than `moves`.
    NotMoves(String),
}

/// A word of a refused line, as it is quoted back: at most 80 characters,
/// control characters escaped (a GUI shows the text on one line).
fn quoted(text: &str) -> String {
    let mut s: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        s.push('…');
    }
    s.escape_debug().to_string()
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCommandError::Empty => write!(f, "expected 'startpos' or 'sfen'"),
            PositionCommandError::NotAStart(w) => {
                write!(f, "expected 'startpos' or 'sfen', not '{}'", quoted(w))
            }
            PositionCommandError::MissingSfen => write!(f, "'position sfen' needs an SFEN"),
            PositionCommandError::NotMoves(w) => {
                write!(f, "expected 'moves', not '{}'", quoted(w))
            }
        }
    }
}

impl std::error::Error for PositionCommandError {}

impl PositionCommand {
    /// Reads `[position] startpos [moves ...]` or `[position] sfen <SFEN>
    /// [moves ...]`, as a USI GUI sends it.
    ///
    /// # Errors
    /// The line has no start, or a word where `moves` belongs.
    pub fn parse(text: &str) -> Result<PositionCommand, PositionCommandError> {
        let words = words_after_position(text);
        match words.first() {
            Some(&"startpos") => Ok(PositionCommand {
                start: StartPosition::Startpos,
                moves: moves_after(&words[1..])?,
            }),
            Some(&"sfen") => {
                let end = moves_at(&words);
                if end == 1 {
                    return Err(PositionCommandError::MissingSfen);
                }
                Ok(PositionCommand {
                    start: StartPosition::Sfen(words[1..end].join(" ")),
                    moves: moves_after(&words[end..])?,
                })
            }
            Some(other) => Err(PositionCommandError::NotAStart(other.to_string())),
            None => Err(PositionCommandError::Empty),
        }
    }

    /// As [`PositionCommand::parse`], and also a bare SFEN (`<SFEN> [moves
    /// ...]`): the lines of openings files and SFEN records.
    ///
    /// ```
    /// use banmen_rules::{PositionCommand, StartPosition};
    /// let c = PositionCommand::parse_lenient("4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b").unwrap();
    /// assert_eq!(c.start, StartPosition::Sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1".into()));
    /// assert_eq!(c.moves, ["G*5b"]);
    /// ```
    ///
    /// # Errors
    /// As [`PositionCommand::parse`].
    pub fn parse_lenient(text: &str) -> Result<PositionCommand, PositionCommandError> {
        let words = words_after_position(text);
        match words.first() {
            Some(&"startpos") | Some(&"sfen") | None => PositionCommand::parse(text),
            Some(_) => {
                let end = moves_at(&words);
                Ok(PositionCommand {
                    start: StartPosition::Sfen(words[..end].join(" ")),
                    moves: moves_after(&words[end..])?,
                })
            }
        }
    }

    /// The SFEN of the start: the game's start position for `startpos`.
    pub fn sfen<'a, B: BitBoard>(&'a self, rules: &'a Rules<B>) -> &'a str {
        match &self.start {
            StartPosition::Startpos => rules.variant.start_sfen,
            StartPosition::Sfen(s) => s,
        }
    }
}

/// The words of a line, a leading `position` left out.
fn words_after_position(text: &str) -> Vec<&str> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    words
}

/// The index of the word `moves`, or the number of words.
fn moves_at(words: &[&str]) -> usize {
    words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len())
}

/// The move texts of `[moves ...]`.
fn moves_after(words: &[&str]) -> Result<Vec<String>, PositionCommandError> {
    match words.split_first() {
        None => Ok(Vec::new()),
        Some((&"moves", rest)) => Ok(rest.iter().map(|w| w.to_string()).collect()),
        Some((other, _)) => Err(PositionCommandError::NotMoves(other.to_string())),
    }
}

impl std::str::FromStr for PositionCommand {
    type Err = PositionCommandError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PositionCommand::parse(s)
    }
}

impl fmt::Display for PositionCommand {
    /// `startpos` or `sfen <SFEN>`, then ` moves ...` when there are moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            StartPosition::Startpos => write!(f, "startpos")?,
            StartPosition::Sfen(s) => write!(f, "sfen {s}")?,
        }
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        PositionCommand::parse(text).expect_err(text).to_string()
    }

    #[test]
    fn refused_lines_say_why() {
        assert_eq!(err("position"), "expected 'startpos' or 'sfen'");
        assert_eq!(err("foo bar"), "expected 'startpos' or 'sfen', not 'foo'");
        assert_eq!(err("sfen"), "'position sfen' needs an SFEN");
        assert_eq!(err("sfen moves 7g7f"), "'position sfen' needs an SFEN");
        assert_eq!(err("startpos 7g7f"), "expected 'moves', not '7g7f'");
        assert_eq!(
            err("x\u{7}"),
            "expected 'startpos' or 'sfen', not 'x\\u{7}'"
        );
    }

    #[test]
    fn a_line_round_trips() {
        for line in [
            "startpos",
            "startpos moves 7g7f",
            "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b",
        ] {
            assert_eq!(PositionCommand::parse(line).unwrap().to_string(), line);
        }
        // `moves` with none after it, extra blanks.
        let c = PositionCommand::parse("position  startpos  moves").unwrap();
        assert_eq!(c.to_string(), "startpos");
    }
}
