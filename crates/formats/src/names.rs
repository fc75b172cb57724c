//! Piece names per game as records read them: the kanji that KIF, KI2 and
//! Japanese move text write, the CSA codes and the Western letters, indexed
//! from each piece's identity in `banmen-rules` ([`banmen_rules::PieceNames`]),
//! which holds the one spelling of every piece.
//!
//! Standard shogi uses the names every tool knows. For cannon shogi and dai
//! dai shogi, which KIF and CSA do not define, Banmen's convention is:
//!
//! - Japanese (KIF, KI2, move text): the kanji of `rules/cannon-shogi.md`
//!   (金砲 銀砲 銅砲 鉄砲, promoted 成金砲 …) and the two-kanji names of
//!   `rules/dai-dai-shogi.md` §5 (獅子, 奔王, 鉤行 …). A promoted dai dai piece
//!   is 成 followed by the name it started as (成行鳥 moves as a free demon),
//!   except the four promotion-only types, which have names of their own:
//!   奮迅 (`+LN`), 大象 (`+LD`), 山母 (`+BM`), 仙鶴 (`+OR`); 成獅子 … are read too.
//!   The howling dog 𠵇犬 has no Shift-JIS code: `.kif` files write 吠犬, and
//!   both are read.
//! - CSA: the standard two-letter codes for the standard pieces; every other
//!   piece is written with its Western letters (cannons `GC SC CC IC`, dai dai
//!   the two-letter DSFEN codes `LN`, `KG` …) and a promoted piece without a
//!   CSA code of its own as `+` and the code it started as (`+GC`, `+LN`).

use banmen_rules::{PieceNames, Variant, VariantName};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The Shift-JIS stand-in for the howling dog's first character (𠵇 has no
/// Shift-JIS code; the piece's aliases read the result, 吠犬).
pub(crate) const SJIS_SUBSTITUTES: [(&str, &str); 1] = [("𠵇", "吠")];

/// One game's names, indexed for reading and writing.
#[derive(Default)]
pub(crate) struct Names {
    /// SFEN code -> the kanji written.
    kanji: HashMap<String, &'static str>,
    /// (kanji or alias, SFEN code), longest first.
    read: Vec<(&'static str, String)>,
    /// SFEN code -> CSA code.
    csa: HashMap<String, String>,
    /// CSA code -> SFEN code.
    csa_read: HashMap<String, String>,
    /// Western letters (and seed abbreviations) -> SFEN code.
    western_read: HashMap<String, String>,
}

impl Names {
    fn build(variant: &Variant) -> Names {
        let mut n = Names::default();
        // (SFEN code, Western letters, names, the base type's names if promoted)
        let mut all: Vec<(String, String, PieceNames, Option<PieceNames>)> = Vec::new();
        for p in &variant.pieces {
            all.push((p.code.to_string(), p.western.to_string(), p.names, None));
            if let Some(pr) = &p.promoted {
                let promoted = (format!("+{}", p.code), format!("+{}", p.western));
                all.push((promoted.0, promoted.1, pr.names, Some(p.names)));
            }
        }
        for (code, western, names, _) in &all {
            n.kanji.insert(code.clone(), names.japanese);
            n.read.push((names.japanese, code.clone()));
            // A piece without a CSA code is written with its Western letters.
            let csa = names.csa.map_or(western.clone(), str::to_string);
            n.csa.insert(code.clone(), csa.clone());
            n.csa_read.insert(csa, code.clone());
            n.western_read.insert(western.clone(), code.clone());
        }
        // Other spellings never shadow a name: kanji ones are read as names,
        // ASCII ones as Western letters (with `+` for the promoted form).
        for (code, _, names, base) in &all {
            for alias in names.aliases {
                if alias.is_ascii() {
                    n.western_read
                        .entry(alias.to_string())
                        .or_insert(code.clone());
                } else {
                    n.read.push((alias, code.clone()));
                }
            }
            for alias in base.iter().flat_map(|b| b.aliases) {
                if alias.is_ascii() {
                    n.western_read
                        .entry(format!("+{alias}"))
                        .or_insert(code.clone());
                }
            }
        }
        n.read
            .sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        n
    }

    /// The kanji of a piece by its SFEN code.
    pub(crate) fn kanji(&self, code: &str) -> Option<&'static str> {
        self.kanji.get(code).copied()
    }

    /// Reads a piece name at the start of `s`: the SFEN code and the rest.
    pub(crate) fn parse_kanji<'a>(&self, s: &'a str) -> Option<(&str, &'a str)> {
        self.read
            .iter()
            .find(|(name, _)| s.starts_with(name))
            .map(|(name, code)| (code.as_str(), &s[name.len()..]))
    }

    /// The CSA code of a piece by its SFEN code.
    pub(crate) fn csa(&self, code: &str) -> Option<&str> {
        self.csa.get(code).map(String::as_str)
    }

    /// The SFEN code of a CSA code.
    pub(crate) fn code_of_csa(&self, csa: &str) -> Option<&str> {
        self.csa_read.get(csa).map(String::as_str)
    }

    /// The SFEN code of Western letters (`P`, `+R`, `GC`, `LN`, `Ln`).
    pub(crate) fn code_of_western(&self, letters: &str) -> Option<&str> {
        self.western_read.get(letters).map(String::as_str)
    }
}

/// The names of a game (its pieces as the default rule set declares them;
/// rule options change movements, not names).
pub(crate) fn names(variant: VariantName) -> &'static Names {
    static TABLES: OnceLock<Vec<Names>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        VariantName::ALL
            .iter()
            .map(|&v| Variant::get(v).map_or_else(Names::default, |v| Names::build(&v)))
            .collect()
    });
    static EMPTY: OnceLock<Names> = OnceLock::new();
    VariantName::ALL
        .iter()
        .position(|&v| v == variant)
        .and_then(|i| tables.get(i))
        .unwrap_or_else(|| EMPTY.get_or_init(Names::default))
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_for, with_rules, KindInfo};

    fn kinds(name: VariantName) -> Vec<KindInfo> {
        with_rules!(rules_for(name, "").expect("default rules"), r => r.kinds.clone())
    }

    /// KIF, KI2, Japanese and Western move text and CSA write and read every
    /// piece by the one name set of `banmen-rules`.
    #[test]
    fn records_agree_with_the_rules_names() {
        for name in VariantName::ALL {
            let table = names(name);
            for k in kinds(name) {
                let what = format!("{name} {}", k.code);
                assert_eq!(table.kanji(&k.code), Some(k.names.japanese), "{what}");
                assert_eq!(
                    table.parse_kanji(k.names.japanese).map(|(c, _)| c),
                    Some(k.code.as_str()),
                    "{what}"
                );
                let csa = k.names.csa.map_or(k.western.clone(), str::to_string);
                assert_eq!(table.csa(&k.code), Some(csa.as_str()), "{what}");
                assert_eq!(table.code_of_csa(&csa), Some(k.code.as_str()), "{what}");
                assert_eq!(
                    table.code_of_western(&k.western),
                    Some(k.code.as_str()),
                    "{what}"
                );
                for alias in k.names.aliases.iter().filter(|a| !a.is_ascii()) {
                    assert_eq!(
                        table.parse_kanji(alias).map(|(c, _)| c),
                        Some(k.code.as_str()),
                        "{what}: {alias}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_flying_gold_cannon_is_one_name_in_kif_and_csa() {
        let table = names(VariantName::CannonShogi);
        assert_eq!(table.kanji("+U"), Some("成金砲"));
        assert_eq!(table.csa("+U"), Some("+GC"));
        assert_eq!(table.code_of_western("+GC"), Some("+U"));
        assert_eq!(table.kanji("+S"), Some("成銀"));
    }
}
