//! Rule options: one `--rules` argument, a preset name or `key=value` pairs
//! separated by commas (`--rules flying-cannon=leap`).

use super::cannon::FlyingCannon;
use super::{Variant, VariantName};
use crate::square::Geometry;
use std::fmt;

/// Rule options that could not be applied: the `--rules` text names an
/// option, value or preset the game does not have, or the game is not played
/// on the board type asked for. Each variant names what is accepted.
///
/// ```
/// use banmen_rules::{rules_9x9_with, rules_for, RulesError, VariantName};
/// let err: RulesError = rules_9x9_with(VariantName::CannonShogi, "flying-cannon=fly").unwrap_err();
/// assert!(matches!(&err, RulesError::BadValue { key, value, allowed }
///     if key == "flying-cannon" && value == "fly" && *allowed == ["hop", "leap"]));
/// assert_eq!(err.to_string(), "flying-cannon must be 'hop' (default) or 'leap', not 'fly'");
/// let err = rules_for(VariantName::DaiDaiShogi, "edo").unwrap_err();
/// assert!(matches!(err, RulesError::UnknownPreset { ref preset, .. } if preset == "edo"));
/// assert!(matches!(
///     rules_9x9_with(VariantName::DaiDaiShogi, ""), // not a 9x9 game
///     Err(RulesError::WrongBoard { variant: VariantName::DaiDaiShogi, .. })
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// A `key=value` part without its key or its value (`lion-dog=`).
    MissingKeyOrValue {
        /// The part as written.
        part: String,
    },
    /// The game has no rule options at all (shogi, minishogi).
    NoOptions {
        /// The game.
        variant: VariantName,
        /// The first key given (`preset` for a bare word).
        key: String,
        /// Its value.
        value: String,
    },
    /// The game has no option of that name.
    UnknownOption {
        /// The game.
        variant: VariantName,
        /// The key as given (lower case).
        key: String,
        /// The options the game has.
        options: &'static [RuleOption],
    },
    /// The option does not take that value.
    BadValue {
        /// The option.
        key: String,
        /// The value as given (lower case).
        value: String,
        /// The values it takes, the default first.
        allowed: &'static [&'static str],
    },
    /// The game has no preset of that name.
    UnknownPreset {
        /// The game.
        variant: VariantName,
        /// The preset as given (lower case).
        preset: String,
        /// The preset names the game takes, the default first.
        presets: &'static [&'static str],
        /// The game's options, which a preset name may have been meant as.
        options: &'static [RuleOption],
    },
    /// The game is played on another board than the one asked for (dai dai
    /// shogi's rules on the 81-square board type).
    WrongBoard {
        /// The game.
        variant: VariantName,
        /// Its board.
        played_on: Geometry,
        /// The boards that were asked for.
        boards: Vec<Geometry>,
    },
}

/// `'hop' (default) or 'leap'`, `'tsa' (default), 'ja' or 'none'`.
fn quoted_choices(values: &[&str]) -> String {
    let quoted: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if i == 0 {
                format!("'{v}' (default)")
            } else {
                format!("'{v}'")
            }
        })
        .collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// `flying-cannon=hop|leap, ...`.
fn option_list(options: &[RuleOption]) -> String {
    let parts: Vec<String> = options
        .iter()
        .map(|o| format!("{}={}", o.key, o.values.join("|")))
        .collect();
    parts.join(", ")
}

fn board(g: Geometry) -> String {
    format!("{}x{}", g.files, g.ranks)
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::MissingKeyOrValue { part } => {
                write!(f, "rule option '{part}' needs a key and a value")
            }
            RulesError::NoOptions {
                variant: VariantName::Shogi,
                key,
                value,
            } => write!(
                f,
                "shogi has no rule options (got {key}={value}); the entering-king rule is a game option"
            ),
            RulesError::NoOptions {
                variant,
                key,
                value,
            } => write!(f, "{variant} has no rule options (got {key}={value})"),
            RulesError::UnknownOption {
                variant,
                key,
                options,
            } => write!(
                f,
                "{variant} has no rule option '{key}' (options: {})",
                option_list(options)
            ),
            RulesError::BadValue {
                key,
                value,
                allowed,
            } => write!(f, "{key} must be {}, not '{value}'", quoted_choices(allowed)),
            RulesError::UnknownPreset {
                variant,
                preset,
                presets,
                options,
            } => write!(
                f,
                "{variant} has no preset '{preset}' (presets: {}; options: {})",
                quoted_choices(presets),
                option_list(options)
            ),
            RulesError::WrongBoard {
                variant,
                played_on,
                boards,
            } => {
                let boards: Vec<String> = boards.iter().map(|&g| board(g)).collect();
                write!(
                    f,
                    "{variant} is played on {}, not {}",
                    board(*played_on),
                    boards.join(" or ")
                )
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// A rule option of a game: its key and the values it takes, the default
/// first (`flying-cannon`: `hop`, `leap`).
///
/// ```
/// use banmen_rules::{RuleOption, VariantName};
/// let option: &RuleOption = &VariantName::CannonShogi.rule_options()[0];
/// assert_eq!((option.key, option.values), ("flying-cannon", &["hop", "leap"][..]));
/// assert_eq!(option.default_value(), Some("hop"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    /// The key, as `--rules` writes it.
    pub key: &'static str,
    /// The values, the default first.
    pub values: &'static [&'static str],
}

impl RuleOption {
    /// An option with its values, the default first.
    pub const fn new(key: &'static str, values: &'static [&'static str]) -> RuleOption {
        RuleOption { key, values }
    }

    /// The default value (`None` only for an option declared without values).
    pub fn default_value(&self) -> Option<&'static str> {
        self.values.first().copied()
    }
}

/// A named rule set of a game, as the `--rules` argument writes it.
///
/// ```
/// use banmen_rules::{rules_9x9_with, Preset, VariantName};
/// let presets: &[Preset] = VariantName::CannonShogi.presets();
/// assert_eq!(presets[1], Preset::new("flying-cannon=leap", "flying cannon: leap"));
/// for preset in presets {
///     assert!(rules_9x9_with(VariantName::CannonShogi, preset.rules).is_ok());
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The `--rules` text (empty: the default rules).
    pub rules: &'static str,
    /// A short description for menus.
    pub label: &'static str,
}

impl Preset {
    /// A preset: its `--rules` text and a label.
    pub const fn new(rules: &'static str, label: &'static str) -> Preset {
        Preset { rules, label }
    }
}

/// Cannon shogi's one rule option (`rules/cannon-shogi.md`, flying cannons).
const CANNON_OPTIONS: [RuleOption; 1] = [RuleOption::new("flying-cannon", &["hop", "leap"])];

const CANNON_PRESETS: [Preset; 2] = [
    Preset::new("", "flying cannon: hop"),
    Preset::new("flying-cannon=leap", "flying cannon: leap"),
];

const SHOGI_PRESETS: [Preset; 1] = [Preset::new("", "standard")];

impl VariantName {
    /// The game's rule options (none for standard shogi).
    ///
    /// ```
    /// use banmen_rules::VariantName;
    /// let keys: Vec<&str> = VariantName::CannonShogi.rule_options().iter().map(|o| o.key).collect();
    /// assert_eq!(keys, ["flying-cannon"]);
    /// assert!(VariantName::Shogi.rule_options().is_empty());
    /// ```
    pub fn rule_options(self) -> &'static [RuleOption] {
        match self {
            VariantName::Shogi | VariantName::MiniShogi => &[],
            VariantName::CannonShogi => &CANNON_OPTIONS,
            VariantName::DaiDaiShogi => &super::dai_dai::OPTIONS,
        }
    }

    /// The game's named rule sets, the default (empty text) first.
    ///
    /// ```
    /// use banmen_rules::VariantName;
    /// let presets = VariantName::DaiDaiShogi.presets();
    /// assert_eq!((presets[0].rules, presets[0].label), ("", "TSA"));
    /// ```
    pub fn presets(self) -> &'static [Preset] {
        match self {
            VariantName::Shogi | VariantName::MiniShogi => &SHOGI_PRESETS,
            VariantName::CannonShogi => &CANNON_PRESETS,
            VariantName::DaiDaiShogi => &super::dai_dai::PRESETS,
        }
    }
}

/// Splits `text` into `(key, value)` pairs; a bare word is a preset, `("preset", word)`.
fn pairs(text: &str) -> Result<Vec<(String, String)>, RulesError> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => {
                out.push((k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase()))
            }
            Some(_) => {
                return Err(RulesError::MissingKeyOrValue {
                    part: part.to_string(),
                })
            }
            None => out.push(("preset".to_string(), part.to_ascii_lowercase())),
        }
    }
    Ok(out)
}

/// The variant with its rule options applied, and the canonical options text
/// (sorted, defaults dropped) that identifies the rule set.
///
/// # Errors
/// An unknown key, value or preset, naming what is accepted.
pub fn with_rules(name: VariantName, text: &str) -> Result<(Variant, String), RulesError> {
    let pairs = pairs(text)?;
    match name {
        VariantName::Shogi => match pairs.first() {
            None => Ok((super::standard::standard(), String::new())),
            Some((k, v)) => Err(RulesError::NoOptions {
                variant: name,
                key: k.clone(),
                value: v.clone(),
            }),
        },
        VariantName::MiniShogi => match pairs.first() {
            None => Ok((super::minishogi::minishogi(), String::new())),
            Some((k, v)) => Err(RulesError::NoOptions {
                variant: name,
                key: k.clone(),
                value: v.clone(),
            }),
        },
        VariantName::CannonShogi => {
            let mut flying = FlyingCannon::Hop;
            for (k, v) in &pairs {
                match (k.as_str(), v.as_str()) {
                    ("flying-cannon", "hop") => flying = FlyingCannon::Hop,
                    ("flying-cannon", "leap") => flying = FlyingCannon::Leap,
                    ("flying-cannon", other) => {
                        return Err(RulesError::BadValue {
                            key: k.clone(),
                            value: other.to_string(),
                            allowed: CANNON_OPTIONS[0].values,
                        })
                    }
                    ("preset", "default" | "hop") => flying = FlyingCannon::Hop,
                    ("preset", other) => {
                        return Err(RulesError::UnknownPreset {
                            variant: name,
                            preset: other.to_string(),
                            presets: &["hop"],
                            options: &CANNON_OPTIONS,
                        })
                    }
                    (other, _) => {
                        return Err(RulesError::UnknownOption {
                            variant: name,
                            key: other.to_string(),
                            options: &CANNON_OPTIONS,
                        })
                    }
                }
            }
            let canonical = match flying {
                FlyingCannon::Hop => String::new(),
                FlyingCannon::Leap => "flying-cannon=leap".to_string(),
            };
            Ok((super::cannon::cannon(flying), canonical))
        }
        VariantName::DaiDaiShogi => super::dai_dai::dai_dai(&pairs),
    }
}

impl Variant {
    /// The variant with rule options applied (see [`with_rules`]).
    ///
    /// # Errors
    /// Unknown options.
    pub fn with_rules(name: VariantName, text: &str) -> Result<Variant, RulesError> {
        with_rules(name, text).map(|(v, _)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The declared options are the ones the parser takes, defaults first.
    #[test]
    fn every_declared_option_and_preset_parses() {
        for name in VariantName::ALL {
            for o in name.rule_options() {
                for (i, value) in o.values.iter().enumerate() {
                    let (_, canonical) = with_rules(name, &format!("{}={value}", o.key))
                        .unwrap_or_else(|e| panic!("{name} {}={value}: {e}", o.key));
                    let expected = if i == 0 {
                        String::new()
                    } else {
                        format!("{}={value}", o.key)
                    };
                    assert_eq!(canonical, expected, "{name} {}={value}", o.key);
                }
            }
            assert_eq!(name.presets().first().map(|p| p.rules), Some(""));
            for p in name.presets() {
                assert!(with_rules(name, p.rules).is_ok(), "{name} {}", p.rules);
            }
        }
    }

    /// Each kind of mistake has its own variant, naming what is accepted.
    #[test]
    fn errors_name_the_mistake() {
        use VariantName::*;
        let err = |name, text| with_rules(name, text).unwrap_err();
        assert!(matches!(err(CannonShogi, "flying-cannon="),
            RulesError::MissingKeyOrValue { part } if part == "flying-cannon="));
        assert!(matches!(err(Shogi, "ja"),
            RulesError::NoOptions { variant: Shogi, key, value } if key == "preset" && value == "ja"));
        assert!(matches!(
            err(MiniShogi, "a=b"),
            RulesError::NoOptions {
                variant: MiniShogi,
                ..
            }
        ));
        match err(DaiDaiShogi, "Lion-Dog=q4") {
            RulesError::BadValue {
                key,
                value,
                allowed,
            } => {
                assert_eq!((key.as_str(), value.as_str()), ("lion-dog", "q4"));
                assert_eq!(allowed, ["q3", "ja"]);
            }
            e => panic!("{e:?}"),
        }
        match err(DaiDaiShogi, "lion=q3") {
            RulesError::UnknownOption {
                variant,
                key,
                options,
            } => {
                assert_eq!((variant, key.as_str()), (DaiDaiShogi, "lion"));
                assert_eq!(options, DaiDaiShogi.rule_options());
            }
            e => panic!("{e:?}"),
        }
        assert!(matches!(
            err(CannonShogi, "flying=leap"),
            RulesError::UnknownOption {
                variant: CannonShogi,
                ..
            }
        ));
        match err(DaiDaiShogi, "edo") {
            RulesError::UnknownPreset {
                variant,
                preset,
                presets,
                ..
            } => {
                assert_eq!((variant, preset.as_str()), (DaiDaiShogi, "edo"));
                assert_eq!(presets, ["tsa", "ja", "hachu"]);
            }
            e => panic!("{e:?}"),
        }
        assert!(matches!(
            err(CannonShogi, "leap"),
            RulesError::UnknownPreset {
                variant: CannonShogi,
                ..
            }
        ));
        // The messages keep naming the choices.
        assert_eq!(
            err(DaiDaiShogi, "great-elephant=x").to_string(),
            "great-elephant must be 'tsa' (default), 'ja' or 'none', not 'x'"
        );
        assert_eq!(
            err(CannonShogi, "leap").to_string(),
            "cannonshogi has no preset 'leap' (presets: 'hop' (default); options: flying-cannon=hop|leap)"
        );
    }

    #[test]
    fn a_game_on_the_wrong_board_type() {
        let err = crate::rules_17x17_with(VariantName::Shogi, "").unwrap_err();
        assert_eq!(
            err,
            RulesError::WrongBoard {
                variant: VariantName::Shogi,
                played_on: Geometry::NINE,
                boards: vec![Geometry::SEVENTEEN],
            }
        );
        assert_eq!(err.to_string(), "shogi is played on 9x9, not 17x17");
    }
}
