//! Dai dai shogi, `rules/dai-dai-shogi.md`: 17x17, 64 starting types, lion and
//! hook moves, promotion on capture, no drops. Default: the TSA rule set.

use super::options::{Preset, RuleOption};
use super::{PieceNames, PieceType, PromotedForm, PromotionRule, RulesError, Variant, VariantName};
use crate::square::Geometry;

/// One row of §5: code, name, kanji, one-kanji abbreviation (§13, or the
/// kanji where there is none), Betza (TSA), and what it promotes to (a code,
/// or `+` and its own code for the four promotion-only types) with the
/// promoted piece's Japanese name (成 and its kanji, or the type's own).
struct Row {
    code: &'static str,
    name: &'static str,
    kanji: &'static str,
    abbreviation: &'static str,
    betza: &'static str,
    promotes_to: Option<(&'static str, &'static str)>,
}

const fn row(
    code: &'static str,
    name: &'static str,
    kanji: &'static str,
    abbreviation: &'static str,
    betza: &'static str,
    promotes_to: Option<(&'static str, &'static str)>,
) -> Row {
    Row {
        code,
        name,
        kanji,
        abbreviation,
        betza,
        promotes_to,
    }
}

/// Other spellings read, by code: kanji variants, the howling dog's
/// Shift-JIS stand-ins (𠵇 has no Shift-JIS code), and the seed's
/// abbreviation where it is not the code.
fn aliases(code: &str) -> &'static [&'static str] {
    match code {
        "KG" => &["王将", "K"],
        "FK" => &["Q"],
        "FR" => &["Fr"],
        "DK" => &["竜王"],
        "DH" => &["竜馬"],
        "SQ" => &["Sq"],
        "RA" => &["Ra"],
        "RO" => &["R"],
        "BI" => &["B"],
        "GD" => &["大竜"],
        "LN" => &["Ln"],
        "DV" => &["Dv"],
        "PH" => &["Ph"],
        "KR" => &["Kr"],
        "PO" => &["Po"],
        "LO" => &["Lo"],
        "NO" => &["No"],
        "SO" => &["So"],
        "EA" => &["Ea"],
        "WR" => &["We"],
        "GG" => &["G"],
        "SG" => &["S"],
        "CG" => &["C"],
        "IG" => &["鐵将", "I"],
        "WG" => &["W"],
        "SN" => &["St"],
        "CS" => &["猫刃"],
        "LA" => &["L"],
        "HD" => &["吠犬", "口奇犬"],
        "PA" => &["P"],
        _ => &[],
    }
}

/// Other spellings read for the promoted form of `code`: 成 and the old name
/// for the promotion-only types, which are written by their own names.
fn promoted_aliases(code: &str) -> &'static [&'static str] {
    match code {
        "LN" => &["成獅子"],
        "LD" => &["成狛犬"],
        "BM" => &["成盲猿"],
        "OR" => &["成老鼠"],
        "CS" => &["成猫刃"],
        _ => &[],
    }
}

/// §5, in the spec's order (which is also the DSFEN code list).
const ROWS: [Row; 64] = [
    row("KG", "king", "玉将", "王", "K", None),
    row("FK", "queen", "奔王", "奔", "Q", None),
    row(
        "RB",
        "rushing bird",
        "行鳥",
        "鳥",
        "BfsR",
        Some(("FR", "成行鳥")),
    ),
    row("FR", "free demon", "奔鬼", "鬼", "sRBvR5", None),
    row("FT", "free dream-eater", "奔獏", "獏", "vRBsR5", None),
    row(
        "WB",
        "water buffalo",
        "水牛",
        "水",
        "sRBvR2",
        Some(("FT", "成水牛")),
    ),
    row("DK", "dragon king", "龍王", "竜", "RF", None),
    row("DH", "dragon horse", "龍馬", "馬", "BW", None),
    row("SQ", "square mover", "方行", "方", "RfF", None),
    row("RA", "racing chariot", "走車", "走", "RbF", None),
    row("RO", "rook", "飛車", "飛", "R", None),
    row("BI", "bishop", "角行", "角", "B", None),
    row("GB", "golden bird", "金翅", "翅", "vRB3sR2", None),
    row("GD", "great dragon", "大龍", "大", "sRB3vR2", None),
    row("SB", "standard bearer", "前旗", "前", "fRfBsR2bR2bB2", None),
    row("FE", "fragrant elephant", "香象", "象", "fBR2bB2", None),
    row("WE", "white elephant", "白象", "白象", "bBR2fB2", None),
    row("LN", "lion", "獅子", "獅", "[lion]", Some(("+LN", "奮迅"))),
    row("LD", "lion dog", "狛犬", "狛", "Q3", Some(("+LD", "大象"))),
    row("DV", "dove", "鳩槃", "鳩", "B5R2", None),
    row("SD", "she-devil", "夜叉", "叉", "R5B2", None),
    row("BD", "blue dragon", "青龍", "青", "sRrfBvR2lfF", None),
    row("WT", "white tiger", "白虎", "白虎", "vRlfBsR2rfF", None),
    row("RC", "right chariot", "右車", "右車", "fRrflbBbW", None),
    row("LC", "left chariot", "左車", "左車", "fRlfrbBbW", None),
    row("PH", "phoenix", "鳳凰", "鳳", "WA", Some(("GB", "成鳳凰"))),
    row("KR", "kirin", "麒麟", "麒", "FD", Some(("GD", "成麒麟"))),
    row(
        "PO",
        "poisonous snake",
        "毒蛇",
        "蛇",
        "sWfDbA",
        Some(("HM", "成毒蛇")),
    ),
    row(
        "OK",
        "old kite",
        "古鵄",
        "古",
        "R2fF",
        Some(("LO", "成古鵄")),
    ),
    row("VO", "violent ox", "猛牛", "牛", "R2", None),
    row(
        "FD",
        "flying dragon",
        "飛龍",
        "龍",
        "B2",
        Some(("DK", "成飛龍")),
    ),
    row(
        "EF",
        "enchanted fox",
        "変狐",
        "狐",
        "fB2bR2",
        Some(("SD", "成変狐")),
    ),
    row(
        "OR",
        "old rat",
        "老鼠",
        "鼠",
        "fB2bR2",
        Some(("+OR", "仙鶴")),
    ),
    row(
        "EB",
        "enchanted badger",
        "変狸",
        "狸",
        "fsR2",
        Some(("DV", "成変狸")),
    ),
    row(
        "FH",
        "flying horse",
        "馬麟",
        "麟",
        "WfB2",
        Some(("FK", "成馬麟")),
    ),
    row(
        "PS",
        "prancing stag",
        "踊鹿",
        "鹿",
        "FfWsR2",
        Some(("SQ", "成踊鹿")),
    ),
    row("ST", "savage tiger", "猛虎", "虎", "vR2fF", None),
    row("HM", "hook mover", "鉤行", "行", "[hook-orth]", None),
    row(
        "LO",
        "long-nosed goblin",
        "天狗",
        "天",
        "W[hook-diag]",
        None,
    ),
    row(
        "NO",
        "northern barbarian",
        "北狄",
        "北",
        "fB2sWbF",
        Some(("FE", "成北狄")),
    ),
    row(
        "SO",
        "southern barbarian",
        "南蛮",
        "南",
        "bB2sWfF",
        Some(("WE", "成南蛮")),
    ),
    row(
        "EA",
        "eastern barbarian",
        "東夷",
        "東",
        "vR2sWfF",
        Some(("LN", "成東夷")),
    ),
    row(
        "WR",
        "western barbarian",
        "西戎",
        "西",
        "sR2vWfF",
        Some(("LD", "成西戎")),
    ),
    row(
        "NK",
        "neighboring king",
        "近王",
        "近",
        "FfsW",
        Some(("SB", "成近王")),
    ),
    row(
        "BM",
        "blind monkey",
        "盲猿",
        "猿",
        "FsW",
        Some(("+BM", "山母")),
    ),
    row("FL", "ferocious leopard", "猛豹", "豹", "FvW", None),
    row("EW", "evil wolf", "悪狼", "狼", "fsWfF", None),
    row("VB", "violent bear", "猛熊", "熊", "fB2sW", None),
    row("RG", "right general", "右将", "右将", "FvlW", None),
    row("LG", "left general", "左将", "左将", "FvrW", None),
    row("GG", "gold general", "金将", "金", "WfF", None),
    row("SG", "silver general", "銀将", "銀", "FfW", None),
    row("CG", "copper general", "銅将", "銅", "vWfF", None),
    row("IG", "iron general", "鉄将", "鐵", "fWfF", None),
    row("WG", "wood general", "木将", "木", "fB2", None),
    row("SN", "stone general", "石将", "石", "fF", None),
    row("AB", "angry boar", "嗔猪", "猪", "W", None),
    row("CS", "cat sword", "猫刄", "猫", "F", Some(("DH", "成猫刄"))),
    row("RV", "reverse chariot", "反車", "反", "vR", None),
    row("LA", "lance", "香車", "香", "fR", None),
    row("SM", "side mover", "横行", "横", "sRvW", None),
    row("VM", "vertical mover", "竪行", "竪", "vRsW", None),
    row("HD", "howling dog", "𠵇犬", "𠵇", "fRbW", None),
    row("PA", "pawn", "歩兵", "歩", "fW", None),
];

/// The start position (§2), Black to move.
pub const START: &str = "lahmdvrosqdkftrgkglgfkfrdhrasdlola/rvpoldbmfdrbkrggnkggphcspsorlnokrv/1bi1eb1fh1sggdsg1wb1ef1vm1/wtwesoeawgsnigcggbcgigsnwgwrnofebd/rcsmvoabewvbflstsbstflvbewabvosmlc/papapapapapapapapapapapapapapapapa/5hd5hd5/17/17/17/5HD5HD5/PAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPA/LCSMVOABEWVBFLSTSBSTFLVBEWABVOSMRC/BDFENOWRWGSNIGCGGBCGIGSNWGEASOWEWT/1VM1EF1WB1SGGDSG1FH1EB1BI1/RVOKLNORPSCSPHGGNKGGKRRBFDBMLDPORV/LALOSDRADHFRFKLGKGRGFTDKSQRODVHMLA b - 1";

/// The readings of §9 that are rule options (§10).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Options {
    perpetual_chase: &'static str,
    king_capture: &'static str,
    lion_dog: &'static str,
    furious_fiend: &'static str,
    great_elephant: &'static str,
    eastern_barbarian: &'static str,
    free_pieces: &'static str,
    neighboring_king: &'static str,
    wizard_stork: &'static str,
    great_dragon: &'static str,
    chariots: &'static str,
}

const TSA: Options = Options {
    perpetual_chase: "off",
    king_capture: "off",
    lion_dog: "q3",
    furious_fiend: "lion-or-q3",
    great_elephant: "tsa",
    eastern_barbarian: "tsa",
    free_pieces: "all-diagonals",
    neighboring_king: "no-back",
    wizard_stork: "ssz",
    great_dragon: "tsa",
    chariots: "tsa",
};

/// §10's rule options: each key and its values, the TSA default first.
pub(super) const OPTIONS: [RuleOption; 11] = [
    RuleOption::new("lion-dog", &["q3", "ja"]),
    RuleOption::new("great-elephant", &["tsa", "ja", "none"]),
    RuleOption::new("furious-fiend", &["lion-or-q3", "lion+liondog"]),
    RuleOption::new("eastern-barbarian", &["tsa", "sz", "sz-diagram"]),
    RuleOption::new("free-pieces", &["all-diagonals", "forward-diagonals"]),
    RuleOption::new("neighboring-king", &["no-back", "k"]),
    RuleOption::new("wizard-stork", &["ssz", "sz", "srz"]),
    RuleOption::new("great-dragon", &["tsa", "tai"]),
    RuleOption::new("chariots", &["tsa", "sz"]),
    RuleOption::new("perpetual-chase", &["off", "loss"]),
    RuleOption::new("king-capture", &["off", "on"]),
];

/// §9's named readings, as `--rules` writes them.
pub(super) const PRESETS: [Preset; 3] = [
    Preset::new("", "TSA"),
    Preset::new("ja", "ja (Edo reading)"),
    Preset::new("hachu", "hachu (Muller)"),
];

fn pick(key: &str, value: &str) -> Result<&'static str, RulesError> {
    let allowed = OPTIONS
        .iter()
        .find(|o| o.key == key)
        .map_or(&[][..], |o| o.values);
    allowed
        .iter()
        .find(|a| **a == value)
        .copied()
        .ok_or_else(|| RulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            allowed,
        })
}

/// §9: the Japanese Wikipedia / Edo (SZ) reading.
const JA: Options = Options {
    perpetual_chase: "off",
    king_capture: "off",
    lion_dog: "ja",
    furious_fiend: "lion+liondog",
    great_elephant: "ja",
    eastern_barbarian: "sz",
    free_pieces: "forward-diagonals",
    neighboring_king: "k",
    wizard_stork: "sz",
    great_dragon: "tai",
    chariots: "sz",
};

/// §9: H. G. Muller's HaChu tables.
const HACHU: Options = Options {
    perpetual_chase: "off",
    king_capture: "off",
    lion_dog: "ja",
    furious_fiend: "lion-or-q3",
    great_elephant: "tsa",
    eastern_barbarian: "tsa",
    free_pieces: "forward-diagonals",
    neighboring_king: "k",
    wizard_stork: "ssz",
    great_dragon: "tsa",
    chariots: "tsa",
};

/// Dai dai shogi with rule options applied; returns the canonical options text.
pub(super) fn dai_dai(pairs: &[(String, String)]) -> Result<(Variant, String), RulesError> {
    let mut o = TSA.clone();
    for (k, v) in pairs {
        let v = v.as_str();
        match k.as_str() {
            "preset" => match v {
                "tsa" | "default" => o = TSA.clone(),
                "ja" => o = JA.clone(),
                "hachu" => o = HACHU.clone(),
                _ => {
                    return Err(RulesError::UnknownPreset {
                        variant: VariantName::DaiDaiShogi,
                        preset: v.to_string(),
                        presets: &["tsa", "ja", "hachu"],
                        options: &OPTIONS,
                    })
                }
            },
            "lion-dog" => o.lion_dog = pick(k, v)?,
            "furious-fiend" => o.furious_fiend = pick(k, v)?,
            "great-elephant" => o.great_elephant = pick(k, v)?,
            "eastern-barbarian" => o.eastern_barbarian = pick(k, v)?,
            "free-pieces" => o.free_pieces = pick(k, v)?,
            "neighboring-king" => o.neighboring_king = pick(k, v)?,
            "wizard-stork" => o.wizard_stork = pick(k, v)?,
            "great-dragon" => o.great_dragon = pick(k, v)?,
            "chariots" => o.chariots = pick(k, v)?,
            "perpetual-chase" => o.perpetual_chase = pick(k, v)?,
            "king-capture" => o.king_capture = pick(k, v)?,
            other => {
                return Err(RulesError::UnknownOption {
                    variant: VariantName::DaiDaiShogi,
                    key: other.to_string(),
                    options: &OPTIONS,
                });
            }
        }
    }
    let mut canonical = Vec::new();
    for (key, value, default) in [
        ("chariots", o.chariots, TSA.chariots),
        ("furious-fiend", o.furious_fiend, TSA.furious_fiend),
        ("king-capture", o.king_capture, TSA.king_capture),
        ("perpetual-chase", o.perpetual_chase, TSA.perpetual_chase),
        ("lion-dog", o.lion_dog, TSA.lion_dog),
        (
            "eastern-barbarian",
            o.eastern_barbarian,
            TSA.eastern_barbarian,
        ),
        ("free-pieces", o.free_pieces, TSA.free_pieces),
        ("great-dragon", o.great_dragon, TSA.great_dragon),
        ("great-elephant", o.great_elephant, TSA.great_elephant),
        ("neighboring-king", o.neighboring_king, TSA.neighboring_king),
        ("wizard-stork", o.wizard_stork, TSA.wizard_stork),
    ] {
        if value != default {
            canonical.push(format!("{key}={value}"));
        }
    }
    Ok((build(&o), canonical.join(",")))
}

fn build(o: &Options) -> Variant {
    let betza_of = |code: &str| -> &'static str {
        let base = ROWS
            .iter()
            .find(|r| r.code == code)
            .expect("known code")
            .betza;
        match (code, o) {
            (
                "EA",
                Options {
                    eastern_barbarian: "sz",
                    ..
                },
            ) => "vR2rW",
            (
                "EA",
                Options {
                    eastern_barbarian: "sz-diagram",
                    ..
                },
            ) => "vR2lW",
            (
                "FT",
                Options {
                    free_pieces: "forward-diagonals",
                    ..
                },
            ) => "vRfBsR5",
            (
                "FR",
                Options {
                    free_pieces: "forward-diagonals",
                    ..
                },
            ) => "sRfBvR5",
            (
                "NK",
                Options {
                    neighboring_king: "k",
                    ..
                },
            ) => "K",
            (
                "GD",
                Options {
                    great_dragon: "tai",
                    ..
                },
            ) => "sRbB3vR2sDsH",
            ("LD", Options { lion_dog: "ja", .. }) => "[lion-line]",
            ("RC", Options { chariots: "sz", .. }) => "fRlfrbBrW",
            ("LC", Options { chariots: "sz", .. }) => "fRrflbBlW",
            _ => base,
        }
    };
    // A promoted piece is written 成 and the name it started as, and shows
    // the type it moves as (§13); the four promotion-only types have names
    // of their own, and 成 with the old name is read too.
    let promoted_form = |from: &str, target: &str, japanese: &'static str| -> PromotedForm {
        let own = |abbreviation| PieceNames {
            japanese,
            abbreviation,
            white_abbreviation: None,
            csa: None,
            aliases: promoted_aliases(from),
        };
        match target {
            "+LN" => PromotedForm {
                name: "furious fiend",
                names: own("迅"),
                betza: if o.furious_fiend == "lion+liondog" {
                    "[lion][lion-line]"
                } else {
                    "[lion]Q3"
                },
            },
            "+LD" => PromotedForm {
                name: "great elephant",
                names: own("大象"),
                betza: if o.great_elephant == "ja" {
                    "RbBfB2"
                } else {
                    "vR3fB3sR5bB5"
                },
            },
            "+BM" => PromotedForm {
                name: "mountain witch",
                names: own("母"),
                betza: "BbRfW",
            },
            "+OR" => PromotedForm {
                name: "wizard stork",
                names: own("仙"),
                betza: match o.wizard_stork {
                    "sz" => "BbW",
                    "srz" => "vRfB",
                    _ => "BfRbW",
                },
            },
            code => {
                let r = ROWS
                    .iter()
                    .find(|r| r.code == code)
                    .expect("promotion target");
                PromotedForm {
                    name: r.name,
                    names: own(r.abbreviation),
                    betza: betza_of(code),
                }
            }
        }
    };
    let pieces = ROWS
        .iter()
        .map(|r| {
            let promotes = match (r.code, r.promotes_to) {
                ("LD", _) if o.great_elephant == "none" => None,
                (_, p) => p,
            };
            let royal = r.code == "KG";
            PieceType {
                code: r.code,
                name: r.name,
                western: r.code,
                names: PieceNames {
                    japanese: r.kanji,
                    abbreviation: r.abbreviation,
                    // §13: KG 王 (White's king 玉).
                    white_abbreviation: royal.then_some("玉"),
                    csa: None,
                    aliases: aliases(r.code),
                },
                betza: betza_of(r.code),
                promoted: promotes
                    .map(|(target, japanese)| promoted_form(r.code, target, japanese)),
                royal,
                impasse_points: 0,
            }
        })
        .collect();
    Variant {
        name: VariantName::DaiDaiShogi,
        geometry: Geometry::SEVENTEEN,
        pieces,
        promotion: PromotionRule::OnCapture,
        drops: false,
        pawn: Some("PA"),
        nifu: false,
        pawn_drop_mate_illegal: false,
        dead_pieces_illegal: false,
        impasse_threshold: None,
        king_capture: o.king_capture == "on",
        perpetual_chase_loses: o.perpetual_chase == "loss",
        repetition_loser: None,
        start_sfen: START,
        handicaps: Vec::new(),
    }
}
