//! Standard shogi, `rules/standard-shogi.md`.

use super::{Handicap, PieceNames, PieceType, PromotedForm, PromotionRule, Variant, VariantName};
use crate::square::Geometry;

const GOLD: &str = "WfF";

/// A standard-shogi name: one kanji, shown as it is written, with a CSA code.
const fn csa(japanese: &'static str, csa: &'static str) -> PieceNames {
    PieceNames {
        csa: Some(csa),
        ..PieceNames::plain(japanese)
    }
}

/// A promoted piece that moves as a gold: written `成銀`, shown `全` (which
/// is read too, with the other one-kanji forms in `aliases`).
fn promotes_as_gold(
    name: &'static str,
    japanese: &'static str,
    abbreviation: &'static str,
    csa: &'static str,
    aliases: &'static [&'static str],
) -> Option<PromotedForm> {
    Some(PromotedForm {
        name,
        names: PieceNames {
            japanese,
            abbreviation,
            white_abbreviation: None,
            csa: Some(csa),
            aliases,
        },
        betza: GOLD,
    })
}

/// Standard shogi's rules, pieces and handicaps.
pub(super) fn standard() -> Variant {
    // Order R B G S N L P: the SFEN hand order of YaneuraOu and cshogi.
    // Names: rules/standard-shogi.md §Pieces; KIF and CSA as every tool writes them.
    let pieces = vec![
        PieceType {
            code: "R",
            name: "rook",
            western: "R",
            names: csa("飛", "HI"),
            betza: "R",
            promoted: Some(PromotedForm {
                name: "dragon",
                names: PieceNames {
                    aliases: &["竜"],
                    ..csa("龍", "RY")
                },
                betza: "RF",
            }),
            royal: false,
            impasse_points: 5,
        },
        PieceType {
            code: "B",
            name: "bishop",
            western: "B",
            names: csa("角", "KA"),
            betza: "B",
            promoted: Some(PromotedForm {
                name: "horse",
                names: csa("馬", "UM"),
                betza: "BW",
            }),
            royal: false,
            impasse_points: 5,
        },
        PieceType {
            code: "G",
            name: "gold",
            western: "G",
            names: csa("金", "KI"),
            betza: GOLD,
            promoted: None,
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "S",
            name: "silver",
            western: "S",
            names: csa("銀", "GI"),
            betza: "FfW",
            promoted: promotes_as_gold("promoted silver", "成銀", "全", "NG", &["全"]),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "N",
            name: "knight",
            western: "N",
            names: csa("桂", "KE"),
            betza: "ffN",
            promoted: promotes_as_gold("promoted knight", "成桂", "圭", "NK", &["圭", "仝"]),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "L",
            name: "lance",
            western: "L",
            names: csa("香", "KY"),
            betza: "fR",
            promoted: promotes_as_gold("promoted lance", "成香", "杏", "NY", &["杏", "个"]),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "P",
            name: "pawn",
            western: "P",
            names: csa("歩", "FU"),
            betza: "fW",
            promoted: Some(PromotedForm {
                name: "tokin",
                names: csa("と", "TO"),
                betza: GOLD,
            }),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "K",
            name: "king",
            western: "K",
            // 玉 / 王: records write 玉; a board shows Black's king as 王.
            names: PieceNames {
                japanese: "玉",
                abbreviation: "王",
                white_abbreviation: Some("玉"),
                csa: Some("OU"),
                aliases: &["王"],
            },
            betza: "K",
            promoted: None,
            royal: true,
            impasse_points: 0,
        },
    ];
    let h = |name, japanese, sfen| Handicap {
        name,
        japanese,
        sfen,
    };
    Variant {
        name: VariantName::Shogi,
        geometry: Geometry::NINE,
        pieces,
        promotion: PromotionRule::Zone { depth: 3 },
        drops: true,
        pawn: Some("P"),
        nifu: true,
        pawn_drop_mate_illegal: true,
        dead_pieces_illegal: true,
        impasse_threshold: Some(24),
        king_capture: false,
        perpetual_chase_loses: false,
        repetition_loser: None,
        start_sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        handicaps: vec![
            h(
                "lance",
                "香落ち",
                "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "right-lance",
                "右香落ち",
                "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "bishop",
                "角落ち",
                "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "rook",
                "飛車落ち",
                "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "rook-lance",
                "飛香落ち",
                "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "two-pieces",
                "二枚落ち",
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "four-pieces",
                "四枚落ち",
                "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "six-pieces",
                "六枚落ち",
                "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "eight-pieces",
                "八枚落ち",
                "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
            h(
                "ten-pieces",
                "十枚落ち",
                "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            ),
        ],
    }
}
