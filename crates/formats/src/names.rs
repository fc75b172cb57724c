//! Piece names per game: the kanji that KIF, KI2 and Japanese move text write,
//! the CSA codes, and the Western letters.
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

use banmen_rules::VariantName;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Standard shogi: SFEN code, KIF name, diagram character, CSA code.
const STANDARD: [(&str, &str, &str); 14] = [
    ("P", "歩", "FU"),
    ("L", "香", "KY"),
    ("N", "桂", "KE"),
    ("S", "銀", "GI"),
    ("G", "金", "KI"),
    ("B", "角", "KA"),
    ("R", "飛", "HI"),
    ("K", "玉", "OU"),
    ("+P", "と", "TO"),
    ("+L", "成香", "NY"),
    ("+N", "成桂", "NK"),
    ("+S", "成銀", "NG"),
    ("+B", "馬", "UM"),
    ("+R", "龍", "RY"),
];

/// Aliases read in the 9x9 games.
const STANDARD_ALIASES: [(&str, &str); 7] = [
    ("王", "K"),
    ("杏", "+L"),
    ("圭", "+N"),
    ("全", "+S"),
    ("竜", "+R"),
    ("个", "+L"),
    ("仝", "+N"),
];

/// Cannon shogi's cannons: SFEN code, kanji, Western letters.
const CANNONS: [(&str, &str, &str); 4] = [
    ("U", "金砲", "GC"),
    ("A", "銀砲", "SC"),
    ("C", "銅砲", "CC"),
    ("I", "鉄砲", "IC"),
];

/// Dai dai shogi (`rules/dai-dai-shogi.md` §5): DSFEN code, kanji, seed abbreviation.
const DAI_DAI: [(&str, &str, &str); 64] = [
    ("KG", "玉将", "K"),
    ("FK", "奔王", "Q"),
    ("RB", "行鳥", "RB"),
    ("FR", "奔鬼", "Fr"),
    ("FT", "奔獏", "FT"),
    ("WB", "水牛", "WB"),
    ("DK", "龍王", "DK"),
    ("DH", "龍馬", "DH"),
    ("SQ", "方行", "Sq"),
    ("RA", "走車", "Ra"),
    ("RO", "飛車", "R"),
    ("BI", "角行", "B"),
    ("GB", "金翅", "GB"),
    ("GD", "大龍", "GD"),
    ("SB", "前旗", "SB"),
    ("FE", "香象", "FE"),
    ("WE", "白象", "WE"),
    ("LN", "獅子", "Ln"),
    ("LD", "狛犬", "LD"),
    ("DV", "鳩槃", "Dv"),
    ("SD", "夜叉", "SD"),
    ("BD", "青龍", "BD"),
    ("WT", "白虎", "WT"),
    ("RC", "右車", "RC"),
    ("LC", "左車", "LC"),
    ("PH", "鳳凰", "Ph"),
    ("KR", "麒麟", "Kr"),
    ("PO", "毒蛇", "Po"),
    ("OK", "古鵄", "OK"),
    ("VO", "猛牛", "VO"),
    ("FD", "飛龍", "FD"),
    ("EF", "変狐", "EF"),
    ("OR", "老鼠", "OR"),
    ("EB", "変狸", "EB"),
    ("FH", "馬麟", "FH"),
    ("PS", "踊鹿", "PS"),
    ("ST", "猛虎", "ST"),
    ("HM", "鉤行", "HM"),
    ("LO", "天狗", "Lo"),
    ("NO", "北狄", "No"),
    ("SO", "南蛮", "So"),
    ("EA", "東夷", "Ea"),
    ("WR", "西戎", "We"),
    ("NK", "近王", "NK"),
    ("BM", "盲猿", "BM"),
    ("FL", "猛豹", "FL"),
    ("EW", "悪狼", "EW"),
    ("VB", "猛熊", "VB"),
    ("RG", "右将", "RG"),
    ("LG", "左将", "LG"),
    ("GG", "金将", "G"),
    ("SG", "銀将", "S"),
    ("CG", "銅将", "C"),
    ("IG", "鉄将", "I"),
    ("WG", "木将", "W"),
    ("SN", "石将", "St"),
    ("AB", "嗔猪", "AB"),
    ("CS", "猫刄", "CS"),
    ("RV", "反車", "RV"),
    ("LA", "香車", "L"),
    ("SM", "横行", "SM"),
    ("VM", "竪行", "VM"),
    ("HD", "𠵇犬", "HD"),
    ("PA", "歩兵", "P"),
];

/// The promotion-only dai dai types, with names of their own.
const DAI_DAI_PROMOTED: [(&str, &str); 4] = [
    ("+LN", "奮迅"),
    ("+LD", "大象"),
    ("+BM", "山母"),
    ("+OR", "仙鶴"),
];

/// Other spellings read in dai dai shogi.
const DAI_DAI_ALIASES: [(&str, &str); 8] = [
    ("王将", "KG"),
    ("竜王", "DK"),
    ("竜馬", "DH"),
    ("大竜", "GD"),
    ("鐵将", "IG"),
    ("猫刃", "CS"),
    ("吠犬", "HD"),
    ("口奇犬", "HD"),
];

/// The Shift-JIS stand-in for the howling dog's first character.
pub(crate) const SJIS_SUBSTITUTES: [(&str, &str); 1] = [("𠵇", "吠")];

/// One game's names.
pub(crate) struct Names {
    /// SFEN code -> the kanji written.
    kanji: HashMap<String, String>,
    /// (kanji or alias, SFEN code), longest first.
    read: Vec<(String, String)>,
    /// SFEN code -> CSA code.
    csa: HashMap<String, String>,
    /// CSA code -> SFEN code.
    csa_read: HashMap<String, String>,
    /// Western letters (and seed abbreviations) -> SFEN code.
    western_read: HashMap<String, String>,
}

impl Names {
    fn build(variant: VariantName) -> Names {
        let mut n = Names {
            kanji: HashMap::new(),
            read: Vec::new(),
            csa: HashMap::new(),
            csa_read: HashMap::new(),
            western_read: HashMap::new(),
        };
        let add = |n: &mut Names, code: &str, kanji: &str, csa: &str| {
            n.kanji.insert(code.into(), kanji.into());
            n.read.push((kanji.into(), code.into()));
            n.csa.insert(code.into(), csa.into());
            n.csa_read.insert(csa.into(), code.into());
            n.western_read.insert(western_letters(code), code.into());
        };
        match variant {
            VariantName::Shogi | VariantName::CannonShogi => {
                for (code, kanji, csa) in STANDARD {
                    add(&mut n, code, kanji, csa);
                }
                for (alias, code) in STANDARD_ALIASES {
                    n.read.push((alias.into(), code.into()));
                }
                if variant == VariantName::CannonShogi {
                    for (code, kanji, west) in CANNONS {
                        add(&mut n, code, kanji, west);
                        let promoted = format!("+{code}");
                        add(
                            &mut n,
                            &promoted,
                            &format!("成{kanji}"),
                            &format!("+{west}"),
                        );
                    }
                }
            }
            VariantName::DaiDaiShogi => {
                for (code, kanji, seed) in DAI_DAI {
                    add(&mut n, code, kanji, code);
                    let promoted = format!("+{code}");
                    let own = DAI_DAI_PROMOTED.iter().find(|(c, _)| *c == promoted);
                    let name = own.map_or(format!("成{kanji}"), |(_, k)| k.to_string());
                    add(&mut n, &promoted, &name, &promoted);
                    if own.is_some() {
                        n.read.push((format!("成{kanji}"), promoted.clone()));
                    }
                    n.western_read.entry(seed.into()).or_insert(code.into());
                    n.western_read
                        .entry(format!("+{seed}"))
                        .or_insert(promoted.clone());
                }
                for (alias, code) in DAI_DAI_ALIASES {
                    n.read.push((alias.into(), code.into()));
                    n.read.push((format!("成{alias}"), format!("+{code}")));
                }
            }
        }
        n.read
            .sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        n
    }

    /// The kanji of a piece by its SFEN code.
    pub(crate) fn kanji(&self, code: &str) -> Option<&str> {
        self.kanji.get(code).map(String::as_str)
    }

    /// Reads a piece name at the start of `s`: the SFEN code and the rest.
    pub(crate) fn parse_kanji<'a>(&self, s: &'a str) -> Option<(&str, &'a str)> {
        self.read
            .iter()
            .find(|(name, _)| s.starts_with(name.as_str()))
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

/// The Western letters of a piece by its SFEN code (`P`, `+R`, `GC`, `+IC`, `LN`).
pub(crate) fn western_letters(code: &str) -> String {
    let (plus, base) = match code.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", code),
    };
    let letters = CANNONS
        .iter()
        .find(|(c, _, _)| *c == base)
        .map_or(base, |(_, _, w)| *w);
    format!("{plus}{letters}")
}

/// The names of a game.
pub(crate) fn names(variant: VariantName) -> &'static Names {
    static TABLES: OnceLock<[Names; 3]> = OnceLock::new();
    let t = TABLES.get_or_init(|| {
        [
            Names::build(VariantName::Shogi),
            Names::build(VariantName::CannonShogi),
            Names::build(VariantName::DaiDaiShogi),
        ]
    });
    match variant {
        VariantName::Shogi => &t[0],
        VariantName::CannonShogi => &t[1],
        VariantName::DaiDaiShogi => &t[2],
    }
}
