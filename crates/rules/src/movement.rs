//! Piece movement as data: a small Betza dialect parsed once into atoms.
//!
//! Vectors are owner-relative: `dy > 0` is forward (toward the opponent),
//! `dx > 0` is toward the owner's left. White's moves are Black's turned 180°.
//!
//! Supported: atoms `W F D A N H` (leaps), `K` (= `WF`), `R` (= `WW`), `B` (= `FF`),
//! `Q` (= `RB`); a doubled atom or a trailing range (`R2`, `W3`) makes a rider
//! along one of the eight king directions; prefixes `m` (move only), `c` (capture
//! only), `p` (hop over exactly one screen), and direction prefixes `f b l r v s`
//! with the two-letter forms `ff bb ll rr fs bs lv rv fl fr bl br`.

use std::fmt;

/// Whether a movement may go to an empty square, capture, or both.
///
/// ```
/// use banmen_rules::movement::{parse_betza, Atom, Modality};
/// // The gold cannon: slides without capturing, captures by hopping.
/// let atoms = parse_betza("mRcpR").unwrap();
/// assert!(atoms.iter().all(|a| match a {
///     Atom::Slide { modality, .. } => *modality == Modality::MoveOnly,
///     Atom::Hop { modality, .. } => *modality == Modality::CaptureOnly,
///     _ => false,
/// }));
/// assert!(Modality::MoveOnly.moves() && !Modality::MoveOnly.captures());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Modality {
    /// Move or capture.
    Both,
    /// Only to an empty square (`m`).
    MoveOnly,
    /// Only to capture (`c`).
    CaptureOnly,
}

impl Modality {
    /// Whether the movement may end on an empty square.
    pub fn moves(self) -> bool {
        self != Modality::CaptureOnly
    }
    /// Whether the movement may capture.
    pub fn captures(self) -> bool {
        self != Modality::MoveOnly
    }
}

/// One kind of movement along one vector, as [`parse_betza`] reads it.
///
/// ```
/// use banmen_rules::movement::{parse_betza, Atom, Modality};
/// let knight = parse_betza("ffN").unwrap();
/// assert_eq!(knight.len(), 2);
/// assert!(knight.contains(&Atom::Leap { dx: 1, dy: 2, modality: Modality::Both }));
/// assert_eq!(parse_betza("[lion]").unwrap(), [Atom::Lion]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Atom {
    /// Jump straight to `(dx, dy)`, whatever stands between.
    Leap {
        /// Owner-relative vector.
        dx: i8,
        /// Owner-relative vector.
        dy: i8,
        /// Move/capture restriction.
        modality: Modality,
    },
    /// Slide along a king direction through empty squares, at most `range` steps (0 = unlimited).
    Slide {
        /// Unit direction.
        dx: i8,
        /// Unit direction.
        dy: i8,
        /// Maximum distance; 0 for no limit.
        range: u8,
        /// Move/capture restriction.
        modality: Modality,
    },
    /// The lion's move (rules/dai-dai-shogi.md §6.1): a step or jump to any
    /// square within two, or two steps capturing on the first (double capture,
    /// igui), or a pass. Written `[lion]`.
    Lion,
    /// The Japanese lion dog (§6.4, `lion-dog=ja`): along one of the eight lines,
    /// to the 1st, 2nd or 3rd square, jumping or capturing on the squares
    /// passed, igui and pass on the 1st. Written `[lion-line]`.
    LionLine,
    /// A hook move (§4): slide, optionally turn 90° once on an empty square,
    /// slide again; ends on a capture. Orthogonal `[hook-orth]`, diagonal `[hook-diag]`.
    Hook {
        /// Diagonal (long-nosed goblin) rather than orthogonal (hook mover).
        diagonal: bool,
    },
    /// Travel along a king direction over exactly one piece (the screen), then to
    /// an empty square beyond it or onto the first piece beyond it; total distance
    /// at most `range` (0 = unlimited).
    Hop {
        /// Unit direction.
        dx: i8,
        /// Unit direction.
        dy: i8,
        /// Maximum total distance; 0 for no limit.
        range: u8,
        /// Move/capture restriction.
        modality: Modality,
    },
}

/// A Betza string that could not be read.
///
/// ```
/// use banmen_rules::movement::{parse_betza, BetzaError};
/// let err: BetzaError = parse_betza("fZ").unwrap_err();
/// assert_eq!(err.to_string(), "bad Betza movement: unknown atom 'Z' in 'fZ'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError(pub String);

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad Betza movement: {}", self.0)
    }
}

impl std::error::Error for BetzaError {}

fn base_vector(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'A' => (2, 2),
        'N' => (2, 1),
        'H' => (3, 0),
        _ => return None,
    })
}

/// All eight symmetric images of `(a, b)`, deduplicated.
fn images(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// Whether a vector matches one direction group (`f`, `fs`, `ll`, ...).
fn matches(group: &str, dx: i8, dy: i8) -> bool {
    let (ax, ay) = (dx.abs(), dy.abs());
    match group {
        "f" => dy > 0,
        "b" => dy < 0,
        "l" => dx > 0,
        "r" => dx < 0,
        "v" => ay > ax || (dx == 0 && dy != 0),
        "s" => ax > ay || (dy == 0 && dx != 0),
        "ff" => dy > 0 && ay > ax,
        "bb" => dy < 0 && ay > ax,
        "ll" => dx > 0 && ax > ay,
        "rr" => dx < 0 && ax > ay,
        "fs" => dy > 0 && ax > ay,
        "bs" => dy < 0 && ax > ay,
        "lv" => dx > 0 && ay > ax,
        "rv" => dx < 0 && ay > ax,
        "fl" | "lf" => dy > 0 && dx > 0,
        "fr" | "rf" => dy > 0 && dx < 0,
        "bl" | "lb" => dy < 0 && dx > 0,
        "br" | "rb" => dy < 0 && dx < 0,
        _ => false,
    }
}

/// Splits a direction prefix into groups. Two-letter forms exist only where
/// Betza gives them a meaning: all of them for oblique atoms (N), the
/// diagonal quarters (`fl`...) for diagonal atoms, none for orthogonal ones
/// (where `fs` is forward plus sideways).
fn direction_groups(prefix: &str, a: i8, b: i8) -> Result<Vec<String>, BetzaError> {
    const OBLIQUE: [&str; 16] = [
        "ff", "bb", "ll", "rr", "fs", "bs", "lv", "rv", "fl", "fr", "bl", "br", "lf", "rf", "lb",
        "rb",
    ];
    const DIAGONAL: [&str; 8] = ["fl", "fr", "bl", "br", "lf", "rf", "lb", "rb"];
    let pairs: &[&str] = if b == 0 {
        &[]
    } else if a == b {
        &DIAGONAL
    } else {
        &OBLIQUE
    };
    let mut out = Vec::new();
    let mut rest = prefix;
    while !rest.is_empty() {
        if rest.len() >= 2 && pairs.contains(&&rest[..2]) {
            out.push(rest[..2].to_string());
            rest = &rest[2..];
        } else {
            let c = &rest[..1];
            if !"fblrvs".contains(c) {
                return Err(BetzaError(format!("unknown direction '{c}'")));
            }
            out.push(c.to_string());
            rest = &rest[1..];
        }
    }
    Ok(out)
}

/// Parses a Betza string into atoms. Besides Betza letters, the bracketed
/// words `[lion]`, `[hook-orth]` and `[hook-diag]` name the multi-leg moves.
///
/// ```
/// use banmen_rules::movement::{parse_betza, Atom, Modality};
/// let lance = parse_betza("fR").unwrap();
/// assert_eq!(lance, vec![Atom::Slide { dx: 0, dy: 1, range: 0, modality: Modality::Both }]);
/// ```
///
/// # Errors
/// An unknown letter, a rider along a non-king direction, or a direction
/// prefix that selects nothing.
pub fn parse_betza(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '[' {
            let end = chars[i..]
                .iter()
                .position(|&c| c == ']')
                .ok_or_else(|| BetzaError(format!("unclosed '[' in '{text}'")))?;
            let word: String = chars[i + 1..i + end].iter().collect();
            atoms.push(match word.as_str() {
                "lion" => Atom::Lion,
                "lion-line" => Atom::LionLine,
                "hook-orth" => Atom::Hook { diagonal: false },
                "hook-diag" => Atom::Hook { diagonal: true },
                other => return Err(BetzaError(format!("unknown move '[{other}]' in '{text}'"))),
            });
            i += end + 1;
            continue;
        }
        // Prefix letters: modality and direction.
        let mut modality = Modality::Both;
        let mut hop = false;
        let mut dirs = String::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'm' => modality = Modality::MoveOnly,
                'c' => modality = Modality::CaptureOnly,
                'p' => hop = true,
                c => dirs.push(c),
            }
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(BetzaError(format!("'{text}' ends without a piece letter")));
        };
        i += 1;
        // Expand compound letters.
        let (base, mut rider): (Vec<char>, bool) = match letter {
            'K' => (vec!['W', 'F'], false),
            'R' => (vec!['W'], true),
            'B' => (vec!['F'], true),
            'Q' => (vec!['W', 'F'], true),
            c if base_vector(c).is_some() => (vec![c], false),
            c => return Err(BetzaError(format!("unknown atom '{c}' in '{text}'"))),
        };
        if i < chars.len() && chars[i] == letter && !rider {
            rider = true;
            i += 1;
        }
        let mut range = 0u8;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i > start {
            let digits: String = chars[start..i].iter().collect();
            range = digits
                .parse()
                .map_err(|_| BetzaError(format!("bad range in '{text}'")))?;
            rider = true;
        }
        let mut selected = 0;
        for b in base {
            let (a, c) = base_vector(b).expect("checked above");
            let groups = direction_groups(&dirs, a, c)?;
            for (dx, dy) in images(a, c) {
                if !groups.is_empty() && !groups.iter().any(|g| matches(g, dx, dy)) {
                    continue;
                }
                selected += 1;
                let atom = if rider || hop {
                    if dx.abs() > 1 || dy.abs() > 1 {
                        return Err(BetzaError(format!(
                            "'{letter}' rides along a non-king direction in '{text}'"
                        )));
                    }
                    // A plain `pW`/`pF` is a one-step hop: meaningless; treat hops as riders.
                    if hop {
                        Atom::Hop {
                            dx,
                            dy,
                            range,
                            modality,
                        }
                    } else {
                        Atom::Slide {
                            dx,
                            dy,
                            range,
                            modality,
                        }
                    }
                } else {
                    Atom::Leap { dx, dy, modality }
                };
                atoms.push(atom);
            }
        }
        if selected == 0 {
            return Err(BetzaError(format!(
                "'{dirs}' selects no direction in '{text}'"
            )));
        }
    }
    Ok(atoms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaps(text: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<(i8, i8)> = parse_betza(text)
            .unwrap()
            .into_iter()
            .map(|a| match a {
                Atom::Leap { dx, dy, .. } => (dx, dy),
                other => panic!("{other:?}"),
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn shogi_pieces_parse() {
        assert_eq!(leaps("fW"), vec![(0, 1)]);
        assert_eq!(leaps("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(leaps("WfF").len(), 6);
        assert_eq!(leaps("FfW").len(), 5);
        assert_eq!(leaps("K").len(), 8);
        assert_eq!(leaps("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(parse_betza("R").unwrap().len(), 4);
        assert_eq!(parse_betza("FR").unwrap().len(), 8);
    }

    #[test]
    fn cannon_modalities_parse() {
        let atoms = parse_betza("mRcpR").unwrap();
        assert_eq!(atoms.len(), 8);
        assert!(atoms.contains(&Atom::Hop {
            dx: 0,
            dy: 1,
            range: 0,
            modality: Modality::CaptureOnly
        }));
        assert!(atoms.contains(&Atom::Slide {
            dx: 1,
            dy: 0,
            range: 0,
            modality: Modality::MoveOnly
        }));
        let flying = parse_betza("mRpRmFpB2").unwrap();
        assert!(flying.contains(&Atom::Hop {
            dx: 1,
            dy: 1,
            range: 2,
            modality: Modality::Both
        }));
        assert!(flying.contains(&Atom::Leap {
            dx: -1,
            dy: -1,
            modality: Modality::MoveOnly
        }));
    }

    #[test]
    fn bad_betza_is_an_error() {
        assert!(parse_betza("X").is_err());
        assert!(parse_betza("f").is_err());
        assert!(parse_betza("NN").is_err());
        assert!(parse_betza("zW").is_err());
    }
}
