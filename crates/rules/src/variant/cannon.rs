//! Cannon shogi, `rules/cannon-shogi.md`: standard shogi with four cannons, a
//! sideways-moving pawn and three switches (no nifu, pawn-drop mate allowed,
//! 38-point impasse). Letters and moves as Fairy-Stockfish writes them.

use super::{Handicap, PieceNames, PieceType, PromotedForm, Variant, VariantName};

/// How the flying (promoted) cannons move: `flying-cannon=hop|leap`.
///
/// ```
/// use banmen_rules::{FlyingCannon, Variant, VariantName};
/// assert_eq!(FlyingCannon::default(), FlyingCannon::Hop);
/// let flying_gold = |v: &Variant| v.pieces.iter().find(|p| p.code == "U").unwrap().promoted.clone().unwrap().betza;
/// let leap = Variant::with_rules(VariantName::CannonShogi, "flying-cannon=leap").unwrap();
/// assert_eq!(flying_gold(&leap), "mRpRFA");
/// assert_eq!(flying_gold(&Variant::get(VariantName::CannonShogi).unwrap()), "mRpRmFpB2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FlyingCannon {
    /// The prose reading, Fairy-Stockfish's since 2024: `mRpRmFpB2` / `mBpBmWpR2`.
    #[default]
    Hop,
    /// The seed's bracketed Betza strings: `mRpRFA` / `mBpBWD`.
    Leap,
}

/// Cannon shogi's rules, pieces and handicaps.
pub(super) fn cannon(flying: FlyingCannon) -> Variant {
    let mut v = super::standard::standard();
    let (orth_flying, diag_flying) = match flying {
        FlyingCannon::Hop => ("mRpRmFpB2", "mBpBmWpR2"),
        FlyingCannon::Leap => ("mRpRFA", "mBpBWD"),
    };
    // rules/cannon-shogi.md §Pieces: SFEN letter, Western letters, kanji. The
    // spec gives the flying cannons no kanji; records write 成 and the
    // cannon's name (成金砲), and with no shorter form a board shows the same.
    let cannon = |code, western, name, japanese, betza, promoted| {
        let (promoted_name, promoted_japanese, promoted_betza) = promoted;
        PieceType {
            code,
            name,
            western,
            names: PieceNames::plain(japanese),
            betza,
            promoted: Some(PromotedForm {
                name: promoted_name,
                names: PieceNames::plain(promoted_japanese),
                betza: promoted_betza,
            }),
            royal: false,
            impasse_points: 5,
        }
    };
    let cannons = [
        cannon(
            "U",
            "GC",
            "gold cannon",
            "金砲",
            "mRcpR",
            ("flying gold cannon", "成金砲", orth_flying),
        ),
        cannon(
            "A",
            "SC",
            "silver cannon",
            "銀砲",
            "pR",
            ("flying silver cannon", "成銀砲", orth_flying),
        ),
        cannon(
            "C",
            "CC",
            "copper cannon",
            "銅砲",
            "mBcpB",
            ("flying copper cannon", "成銅砲", diag_flying),
        ),
        cannon(
            "I",
            "IC",
            "iron cannon",
            "鉄砲",
            "pB",
            ("flying iron cannon", "成鉄砲", diag_flying),
        ),
    ];
    // Hand order R B U A C I G S N L P.
    let at = v.pieces.iter().position(|p| p.code == "G").expect("gold");
    for (i, c) in cannons.into_iter().enumerate() {
        v.pieces.insert(at + i, c);
    }
    let pawn = v.pieces.iter_mut().find(|p| p.code == "P").expect("pawn");
    pawn.betza = "fsW";
    let h = |name, japanese, sfen| Handicap {
        name,
        japanese,
        sfen,
    };
    Variant {
        name: VariantName::CannonShogi,
        nifu: false,
        pawn_drop_mate_illegal: false,
        impasse_threshold: Some(38),
        start_sfen: "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1",
        // The seed gives only the principle; this list is Banmen's convention.
        handicaps: vec![
            h(
                "lance",
                "香落ち",
                "lnsgkgsn1/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1",
            ),
            h(
                "bishop",
                "角落ち",
                "lnsgkgsnl/1rci1ua2/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1",
            ),
            h(
                "rook",
                "飛車落ち",
                "lnsgkgsnl/2ci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1",
            ),
            h(
                "rook-lance",
                "飛香落ち",
                "lnsgkgsn1/2ci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1",
            ),
            h(
                "two-pieces",
                "二枚落ち",
                "lnsgkgsnl/2ci1ua2/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1",
            ),
            h(
                "four-pieces",
                "四枚落ち",
                "1nsgkgsn1/2ci1ua2/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1",
            ),
            h(
                "six-pieces",
                "六枚落ち",
                "2sgkgs2/2ci1ua2/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1",
            ),
        ],
        ..v
    }
}
