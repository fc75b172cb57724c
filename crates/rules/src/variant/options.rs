//! Rule options: one `--rules` argument, a preset name or `key=value` pairs
//! separated by commas (`--rules flying-cannon=leap`).

use super::cannon::FlyingCannon;
use super::{Variant, VariantName};
use std::fmt;

/// Rule options that could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

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
