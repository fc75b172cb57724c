//! What a game has, asked of its rules value rather than guessed from its
//! name or board size (DESIGN.md: "A game is data").

use super::{PromotionRule, Variant};
use crate::movement::{parse_betza, Atom};

impl Variant {
    /// Every movement atom of every piece, unpromoted and promoted: parsed
    /// from the pieces' Betza texts at each call, so the questions below
    /// that use it cost microseconds. Ask them once (when a search or a
    /// page starts), not per move: asked in the search's check test, one of
    /// them once made shogi's search ten times slower.
    fn atoms(&self) -> impl Iterator<Item = Atom> + '_ {
        self.pieces
            .iter()
            .flat_map(|p| std::iter::once(p.betza).chain(p.promoted.as_ref().map(|pr| pr.betza)))
            .flat_map(|betza| parse_betza(betza).unwrap_or_default())
    }

    /// Whether captured pieces go to hand and may be dropped.
    ///
    /// ```
    /// use banmen_rules::{Variant, VariantName};
    /// assert!(Variant::standard().has_drops());
    /// assert!(!Variant::get(VariantName::DaiDaiShogi).unwrap().has_drops());
    /// ```
    pub fn has_drops(&self) -> bool {
        self.drops
    }

    /// Whether a piece moves by hopping over a screen (the cannons).
    ///
    /// ```
    /// use banmen_rules::{Variant, VariantName};
    /// assert!(Variant::get(VariantName::CannonShogi).unwrap().has_hoppers());
    /// assert!(!Variant::standard().has_hoppers());
    /// ```
    pub fn has_hoppers(&self) -> bool {
        self.atoms().any(|a| matches!(a, Atom::Hop { .. }))
    }

    /// Whether a piece has lion moves: two steps in one turn, whose text
    /// names the middle square (`15p15o15p`), and passes.
    ///
    /// ```
    /// use banmen_rules::{Variant, VariantName};
    /// assert!(Variant::get(VariantName::DaiDaiShogi).unwrap().has_lion_moves());
    /// assert!(!Variant::get(VariantName::CannonShogi).unwrap().has_lion_moves());
    /// ```
    pub fn has_lion_moves(&self) -> bool {
        self.atoms()
            .any(|a| matches!(a, Atom::Lion | Atom::LionLine))
    }

    /// Whether a piece moves in more than one leg: lion moves or hook moves.
    ///
    /// ```
    /// use banmen_rules::{Variant, VariantName};
    /// assert!(Variant::get(VariantName::DaiDaiShogi).unwrap().has_multi_leg_moves());
    /// assert!(!Variant::standard().has_multi_leg_moves());
    /// ```
    pub fn has_multi_leg_moves(&self) -> bool {
        self.atoms()
            .any(|a| matches!(a, Atom::Lion | Atom::LionLine | Atom::Hook { .. }))
    }

    /// Whether promotion happens at the end of a capture (dai dai shogi)
    /// rather than by choice in a zone.
    ///
    /// ```
    /// use banmen_rules::{Variant, VariantName};
    /// assert!(Variant::get(VariantName::DaiDaiShogi).unwrap().promotes_on_capture());
    /// assert!(!Variant::standard().promotes_on_capture());
    /// ```
    pub fn promotes_on_capture(&self) -> bool {
        self.promotion == PromotionRule::OnCapture
    }
}
