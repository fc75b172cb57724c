//! What a piece is called: one spelling per piece, taken from the piece tables
//! of `rules/*.md`, for every crate that writes or reads a piece (records,
//! the terminal board, the web page).

use crate::piece::Color;

/// How a piece type or a promoted form is written outside SFEN.
///
/// Standard shogi's spellings are the ones every tool knows. Cannon shogi and
/// dai dai shogi are not covered by KIF or CSA; their Japanese names are the
/// kanji of `rules/cannon-shogi.md` and the two-kanji names of
/// `rules/dai-dai-shogi.md` §5, and they have no CSA code.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, VariantName};
/// let rules = rules_9x9(VariantName::CannonShogi).unwrap();
/// let silver = rules.kind(rules.kind_by_code("+S").unwrap());
/// assert_eq!(silver.names.japanese, "成銀");
/// assert_eq!(silver.names.abbreviation_for(Color::Black), "全");
/// assert_eq!(silver.names.csa, Some("NG"));
/// let cannon = rules.kind(rules.kind_by_code("+U").unwrap());
/// assert_eq!(cannon.names.japanese, "成金砲");
/// assert_eq!(cannon.western, "+GC");
/// assert_eq!(cannon.names.csa, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceNames {
    /// The name records write (KIF, KI2, Japanese move text): `歩`, `成銀`,
    /// `金砲`, `成金砲`, `獅子`, `成行鳥`, `奮迅`.
    pub japanese: &'static str,
    /// What a board shows: one kanji where the rules give one (`歩`, `全`,
    /// `獅`), else the Japanese name (`金砲`, `白象`). A promoted dai dai piece
    /// shows the type it moves as (`rules/dai-dai-shogi.md` §13: `+RB` shows
    /// the free demon's `鬼`).
    pub abbreviation: &'static str,
    /// White's board form where it differs from Black's (the king: Black's
    /// `王`, White's `玉`).
    pub white_abbreviation: Option<&'static str>,
    /// The CSA code, where the CSA standard has one (`FU`, `NG`).
    pub csa: Option<&'static str>,
    /// Other spellings that are read but never written: Japanese variants
    /// (`竜` for `龍`, `吠犬`, the Shift-JIS stand-in for `𠵇犬`) and, in ASCII,
    /// Western ones (the dai dai seed's `Ln`).
    pub aliases: &'static [&'static str],
}

impl PieceNames {
    /// A piece whose board form is its Japanese name and that has no CSA code
    /// or other spelling (the cannons, most dai dai pieces).
    pub const fn plain(japanese: &'static str) -> PieceNames {
        PieceNames {
            japanese,
            abbreviation: japanese,
            white_abbreviation: None,
            csa: None,
            aliases: &[],
        }
    }

    /// What a board shows for a piece of `color`.
    ///
    /// ```
    /// use banmen_rules::{rules_9x9, Color, VariantName};
    /// let rules = rules_9x9(VariantName::Shogi).unwrap();
    /// let king = &rules.kind(rules.kind_by_code("K").unwrap()).names;
    /// assert_eq!(king.abbreviation_for(Color::Black), "王");
    /// assert_eq!(king.abbreviation_for(Color::White), "玉");
    /// ```
    pub fn abbreviation_for(&self, color: Color) -> &'static str {
        match (color, self.white_abbreviation) {
            (Color::White, Some(w)) => w,
            _ => self.abbreviation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Variant, VariantName};
    use std::collections::HashSet;

    /// Every kind of a game: (SFEN code, Western letters, names, promoted).
    fn kinds(v: &Variant) -> Vec<(String, String, PieceNames, bool)> {
        let mut out = Vec::new();
        for p in &v.pieces {
            out.push((p.code.to_string(), p.western.to_string(), p.names, false));
            if let Some(pr) = &p.promoted {
                let (code, western) = (format!("+{}", p.code), format!("+{}", p.western));
                out.push((code, western, pr.names, true));
            }
        }
        out
    }

    #[test]
    fn every_piece_of_every_game_has_one_complete_name_set() {
        for name in VariantName::ALL {
            let v = Variant::get(name).expect("built-in game");
            let kinds = kinds(&v);
            let mut japanese = HashSet::new();
            let mut western = HashSet::new();
            let mut csa = HashSet::new();
            for (code, letters, names, promoted) in &kinds {
                let what = format!("{name} {code}");
                assert!(!names.japanese.is_empty(), "{what}: no Japanese name");
                assert!(!names.abbreviation.is_empty(), "{what}: no board form");
                assert!(
                    letters
                        .trim_start_matches('+')
                        .chars()
                        .all(|c| c.is_ascii_uppercase())
                        && !letters.is_empty(),
                    "{what}: Western letters '{letters}'"
                );
                assert_eq!(letters.starts_with('+'), *promoted, "{what}");
                assert!(
                    japanese.insert(names.japanese),
                    "{what}: Japanese name twice"
                );
                assert!(
                    western.insert(letters.clone()),
                    "{what}: Western letters twice"
                );
                if let Some(c) = names.csa {
                    assert!(csa.insert(c), "{what}: CSA code twice");
                }
                for alias in names.aliases {
                    assert!(!alias.is_empty(), "{what}: empty alias");
                }
            }
            // An alias never names another piece.
            for (code, _, names, _) in &kinds {
                for alias in names.aliases {
                    assert!(
                        !kinds
                            .iter()
                            .any(|(c, w, n, _)| c != code && (n.japanese == *alias || w == alias)),
                        "{name} {code}: alias {alias} is another piece's name"
                    );
                }
            }
            // The unpromoted types can be told apart on a board.
            let shown: HashSet<&str> = kinds
                .iter()
                .filter(|k| !k.3)
                .map(|k| k.2.abbreviation)
                .collect();
            assert_eq!(shown.len(), v.pieces.len(), "{name}: board forms repeat");
        }
    }

    #[test]
    fn standard_pieces_have_csa_codes_and_others_do_not() {
        for name in VariantName::ALL {
            let v = Variant::get(name).expect("built-in game");
            for (code, _, names, _) in kinds(&v) {
                let standard = name != VariantName::DaiDaiShogi
                    && ["K", "R", "B", "G", "S", "N", "L", "P"]
                        .contains(&code.trim_start_matches('+'));
                assert_eq!(names.csa.is_some(), standard, "{name} {code}");
            }
        }
    }

    #[test]
    fn the_flying_cannons_are_named_once() {
        let v = Variant::get(VariantName::CannonShogi).expect("cannon shogi");
        let gold = v
            .pieces
            .iter()
            .find(|p| p.code == "U")
            .expect("gold cannon");
        assert_eq!((gold.western, gold.names.japanese), ("GC", "金砲"));
        let flying = gold.promoted.as_ref().expect("flying gold cannon");
        assert_eq!(flying.names.japanese, "成金砲");
        assert_eq!(flying.names.abbreviation, "成金砲");
        let silver = v
            .pieces
            .iter()
            .find(|p| p.code == "A")
            .expect("silver cannon");
        assert_eq!(silver.western, "SC");
    }
}
