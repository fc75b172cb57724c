//! Rule options: one `--rules` argument, a preset name or `key=value` pairs
//! separated by commas (`--rules flying-cannon=leap`).

use super::cannon::FlyingCannon;
use super::{Variant, VariantName};
use std::fmt;

/// Rule options that could not be applied.
///
/// ```
/// use banmen_rules::{rules_9x9_with, RulesError, VariantName};
/// let err: RulesError = rules_9x9_with(VariantName::CannonShogi, "flying-cannon=fly").unwrap_err();
/// assert_eq!(err.to_string(), "flying-cannon must be 'hop' (default) or 'leap', not 'fly'");
/// assert!(rules_9x9_with(VariantName::DaiDaiShogi, "").is_err()); // not a 9x9 game
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
                return Err(RulesError(format!(
                    "rule option '{part}' needs a key and a value"
                )))
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
            Some((k, v)) => Err(RulesError(format!(
                "shogi has no rule options (got {k}={v}); the entering-king rule is a game option"
            ))),
        },
        VariantName::MiniShogi => match pairs.first() {
            None => Ok((super::minishogi::minishogi(), String::new())),
            Some((k, v)) => Err(RulesError(format!(
                "minishogi has no rule options (got {k}={v})"
            ))),
        },
        VariantName::CannonShogi => {
            let mut flying = FlyingCannon::Hop;
            for (k, v) in &pairs {
                match (k.as_str(), v.as_str()) {
                    ("flying-cannon", "hop") => flying = FlyingCannon::Hop,
                    ("flying-cannon", "leap") => flying = FlyingCannon::Leap,
                    ("flying-cannon", other) => {
                        return Err(RulesError(format!(
                            "flying-cannon must be 'hop' (default) or 'leap', not '{other}'"
                        )))
                    }
                    ("preset", "default" | "hop") => flying = FlyingCannon::Hop,
                    ("preset", other) => {
                        return Err(RulesError(format!(
                            "cannonshogi has no preset '{other}' (options: flying-cannon=hop|leap)"
                        )))
                    }
                    (other, _) => {
                        return Err(RulesError(format!(
                            "cannonshogi has no rule option '{other}' (options: flying-cannon=hop|leap)"
                        )))
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
}
