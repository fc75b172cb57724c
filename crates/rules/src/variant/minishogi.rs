//! Minishogi (5-go shogi), as Fairy-Stockfish's `minishogi`: standard
//! shogi's king, rook, bishop, gold, silver and pawn on a 5x5 board,
//! promotion on the last rank, drops with nifu and no pawn-drop mate, no
//! impasse rule; a fourfold repetition (sennichite) is a loss for Black.

use super::{PromotionRule, Variant, VariantName};
use crate::piece::Color;
use crate::square::Geometry;

/// Minishogi's rules and pieces: standard shogi's, less the knight and
/// the lance, on 5x5 (no handicaps).
pub(super) fn minishogi() -> Variant {
    let mut v = super::standard::standard();
    // Hand order R B G S P, as in standard shogi.
    v.pieces.retain(|p| p.code != "N" && p.code != "L");
    Variant {
        name: VariantName::MiniShogi,
        geometry: Geometry::FIVE,
        promotion: PromotionRule::Zone { depth: 1 },
        impasse_threshold: None,
        start_sfen: "rbsgk/4p/5/P4/KGSBR b - 1",
        handicaps: Vec::new(),
        // Sennichite loses for Black (Fairy-Stockfish: nFoldValue loss,
        // absolute); perpetual check still loses for the checker.
        repetition_loser: Some(Color::Black),
        ..v
    }
}
