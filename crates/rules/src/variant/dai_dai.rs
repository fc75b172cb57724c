//! Dai dai shogi, `rules/dai-dai-shogi.md`: 17x17, 64 starting types, lion and
//! hook moves, promotion on capture, no drops. Default: the TSA rule set.

use super::{PieceType, PromotedForm, PromotionRule, RulesError, Variant, VariantName};
use crate::square::Geometry;

/// One row of §5: code, name, Betza (TSA), and the code it promotes to.
struct Row {
    code: &'static str,
    name: &'static str,
    betza: &'static str,
    promotes_to: Option<&'static str>,
}

const fn row(
    code: &'static str,
    name: &'static str,
    betza: &'static str,
    promotes_to: Option<&'static str>,
) -> Row {
    Row {
        code,
        name,
        betza,
        promotes_to,
    }
}

/// §5, in the spec's order (which is also the DSFEN code list).
const ROWS: [Row; 64] = [
    row("KG", "king", "K", None),
    row("FK", "queen", "Q", None),
    row("RB", "rushing bird", "BfsR", Some("FR")),
    row("FR", "free demon", "sRBvR5", None),
    row("FT", "free dream-eater", "vRBsR5", None),
    row("WB", "water buffalo", "sRBvR2", Some("FT")),
    row("DK", "dragon king", "RF", None),
    row("DH", "dragon horse", "BW", None),
    row("SQ", "square mover", "RfF", None),
    row("RA", "racing chariot", "RbF", None),
    row("RO", "rook", "R", None),
    row("BI", "bishop", "B", None),
    row("GB", "golden bird", "vRB3sR2", None),
    row("GD", "great dragon", "sRB3vR2", None),
    row("SB", "standard bearer", "fRfBsR2bR2bB2", None),
    row("FE", "fragrant elephant", "fBR2bB2", None),
    row("WE", "white elephant", "bBR2fB2", None),
    row("LN", "lion", "[lion]", Some("+LN")),
    row("LD", "lion dog", "Q3", Some("+LD")),
    row("DV", "dove", "B5R2", None),
    row("SD", "she-devil", "R5B2", None),
    row("BD", "blue dragon", "sRrfBvR2lfF", None),
    row("WT", "white tiger", "vRlfBsR2rfF", None),
    row("RC", "right chariot", "fRrflbBbW", None),
    row("LC", "left chariot", "fRlfrbBbW", None),
    row("PH", "phoenix", "WA", Some("GB")),
    row("KR", "kirin", "FD", Some("GD")),
    row("PO", "poisonous snake", "sWfDbA", Some("HM")),
    row("OK", "old kite", "R2fF", Some("LO")),
    row("VO", "violent ox", "R2", None),
    row("FD", "flying dragon", "B2", Some("DK")),
    row("EF", "enchanted fox", "fB2bR2", Some("SD")),
    row("OR", "old rat", "fB2bR2", Some("+OR")),
    row("EB", "enchanted badger", "fsR2", Some("DV")),
    row("FH", "flying horse", "WfB2", Some("FK")),
    row("PS", "prancing stag", "FfWsR2", Some("SQ")),
    row("ST", "savage tiger", "vR2fF", None),
    row("HM", "hook mover", "[hook-orth]", None),
    row("LO", "long-nosed goblin", "W[hook-diag]", None),
    row("NO", "northern barbarian", "fB2sWbF", Some("FE")),
    row("SO", "southern barbarian", "bB2sWfF", Some("WE")),
    row("EA", "eastern barbarian", "vR2sWfF", Some("LN")),
    row("WR", "western barbarian", "sR2vWfF", Some("LD")),
    row("NK", "neighboring king", "FfsW", Some("SB")),
    row("BM", "blind monkey", "FsW", Some("+BM")),
    row("FL", "ferocious leopard", "FvW", None),
    row("EW", "evil wolf", "fsWfF", None),
    row("VB", "violent bear", "fB2sW", None),
    row("RG", "right general", "FvlW", None),
    row("LG", "left general", "FvrW", None),
    row("GG", "gold general", "WfF", None),
    row("SG", "silver general", "FfW", None),
    row("CG", "copper general", "vWfF", None),
    row("IG", "iron general", "fWfF", None),
    row("WG", "wood general", "fB2", None),
    row("SN", "stone general", "fF", None),
    row("AB", "angry boar", "W", None),
    row("CS", "cat sword", "F", Some("DH")),
    row("RV", "reverse chariot", "vR", None),
    row("LA", "lance", "fR", None),
    row("SM", "side mover", "sRvW", None),
    row("VM", "vertical mover", "vRsW", None),
    row("HD", "howling dog", "fRbW", None),
    row("PA", "pawn", "fW", None),
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

fn pick(key: &str, value: &str, allowed: &[&'static str]) -> Result<&'static str, RulesError> {
    allowed
        .iter()
        .find(|a| **a == value)
        .copied()
        .ok_or_else(|| {
            RulesError(format!(
                "{key} must be one of {} (got '{value}')",
                allowed.join(", ")
            ))
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
                _ => return Err(RulesError(format!("daidaishogi presets: tsa (default), ja, hachu; got '{v}'"))),
            },
            "lion-dog" => o.lion_dog = pick(k, v, &["q3", "ja"])?,
            "furious-fiend" => o.furious_fiend = pick(k, v, &["lion-or-q3", "lion+liondog"])?,
            "great-elephant" => o.great_elephant = pick(k, v, &["tsa", "ja", "none"])?,
            "eastern-barbarian" => o.eastern_barbarian = pick(k, v, &["tsa", "sz", "sz-diagram"])?,
            "free-pieces" => o.free_pieces = pick(k, v, &["all-diagonals", "forward-diagonals"])?,
            "neighboring-king" => o.neighboring_king = pick(k, v, &["no-back", "k"])?,
            "wizard-stork" => o.wizard_stork = pick(k, v, &["ssz", "sz", "srz"])?,
            "great-dragon" => o.great_dragon = pick(k, v, &["tsa", "tai"])?,
            "chariots" => o.chariots = pick(k, v, &["tsa", "sz"])?,
            "perpetual-chase" => o.perpetual_chase = pick(k, v, &["off", "loss"])?,
            "king-capture" => o.king_capture = pick(k, v, &["off", "on"])?,
            other => {
                return Err(RulesError(format!(
                    "daidaishogi has no rule option '{other}' (options: lion-dog, great-elephant, furious-fiend, \
                     eastern-barbarian, free-pieces, neighboring-king, wizard-stork, great-dragon, chariots, \
                     perpetual-chase, king-capture)"
                )))
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
    let promoted_form = |target: &str| -> PromotedForm {
        match target {
            "+LN" => PromotedForm {
                name: "furious fiend",
                betza: if o.furious_fiend == "lion+liondog" {
                    "[lion][lion-line]"
                } else {
                    "[lion]Q3"
                },
            },
            "+LD" => PromotedForm {
                name: "great elephant",
                betza: if o.great_elephant == "ja" {
                    "RbBfB2"
                } else {
                    "vR3fB3sR5bB5"
                },
            },
            "+BM" => PromotedForm {
                name: "mountain witch",
                betza: "BbRfW",
            },
            "+OR" => PromotedForm {
                name: "wizard stork",
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
            PieceType {
                code: r.code,
                name: r.name,
                betza: betza_of(r.code),
                promoted: promotes.map(promoted_form),
                royal: r.code == "KG",
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
        start_sfen: START,
        handicaps: Vec::new(),
    }
}
