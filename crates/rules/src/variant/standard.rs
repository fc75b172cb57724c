//! Standard shogi, `rules/standard-shogi.md`.

use super::{Handicap, PieceType, PromotedForm, PromotionRule, Variant, VariantName};
use crate::square::Geometry;

const GOLD: &str = "WfF";

fn promotes_as_gold(name: &'static str) -> Option<PromotedForm> {
    Some(PromotedForm { name, betza: GOLD })
}

/// Standard shogi's rules, pieces and handicaps.
pub(super) fn standard() -> Variant {
    // Order R B G S N L P: the SFEN hand order of YaneuraOu and cshogi.
    let pieces = vec![
        PieceType {
            code: "R",
            name: "rook",
            betza: "R",
            promoted: Some(PromotedForm {
                name: "dragon",
                betza: "RF",
            }),
            royal: false,
            impasse_points: 5,
        },
        PieceType {
            code: "B",
            name: "bishop",
            betza: "B",
            promoted: Some(PromotedForm {
                name: "horse",
                betza: "BW",
            }),
            royal: false,
            impasse_points: 5,
        },
        PieceType {
            code: "G",
            name: "gold",
            betza: GOLD,
            promoted: None,
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "S",
            name: "silver",
            betza: "FfW",
            promoted: promotes_as_gold("promoted silver"),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "N",
            name: "knight",
            betza: "ffN",
            promoted: promotes_as_gold("promoted knight"),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "L",
            name: "lance",
            betza: "fR",
            promoted: promotes_as_gold("promoted lance"),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "P",
            name: "pawn",
            betza: "fW",
            promoted: promotes_as_gold("tokin"),
            royal: false,
            impasse_points: 1,
        },
        PieceType {
            code: "K",
            name: "king",
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
