//! Positions and games over any board size, dispatched once.
//!
//! The rules core is generic over the bitboard type (`Bb128` for boards of
//! up to 81 squares, `Bb320` for dai dai shogi's 289). Code above the core
//! that holds a game chosen at run time keeps an [`AnyRules`],
//! [`AnyPosition`] or [`AnyGame`] and runs its generic code on whichever
//! board type it holds with [`with_rules!`](crate::with_rules),
//! [`with_position!`](crate::with_position) or [`with_game!`](crate::with_game):
//! one match, written here, instead of one per crate.
//!
//! ```
//! use banmen_rules::{rules_for, with_position, AnyPosition, SfenMode, VariantName};
//! let rules = rules_for(VariantName::DaiDaiShogi, "").unwrap();
//! let pos: AnyPosition = rules.start_position().unwrap();
//! // Generic code, run on the 17x17 board this position has.
//! let moves = with_position!(&pos, p => p.legal_moves().len());
//! assert!(moves > 0);
//! assert_eq!(pos.side_to_move(), banmen_rules::Color::Black);
//! ```

use crate::{
    AnyRules, Bb128, Bb320, Color, Game, GameOptions, Outcome, Position, SfenError, SfenMode,
    Variant,
};

/// Runs `$body` with `$r` bound to the `&'static Rules<B>` an [`AnyRules`]
/// holds, whichever its board type.
///
/// ```
/// use banmen_rules::{rules_for, with_rules, VariantName};
/// let rules = rules_for(VariantName::MiniShogi, "").unwrap();
/// assert_eq!(with_rules!(rules, r => r.geometry.squares()), 25);
/// ```
#[macro_export]
macro_rules! with_rules {
    ($any:expr, $r:ident => $body:expr) => {
        match $any {
            $crate::AnyRules::Nine($r) => $body,
            $crate::AnyRules::Seventeen($r) => $body,
        }
    };
}

/// Runs `$body` with `$p` bound to the boxed `Position<B>` an
/// [`AnyPosition`] holds (by value, `&` or `&mut` as `$any` is).
///
/// ```
/// use banmen_rules::{rules_for, with_position, VariantName};
/// let mut pos = rules_for(VariantName::Shogi, "").unwrap().start_position().unwrap();
/// assert_eq!(with_position!(&mut pos, p => p.perft(2)), 900);
/// ```
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Nine($p) => $body,
            $crate::AnyPosition::Seventeen($p) => $body,
        }
    };
}

/// Runs `$body` with `$g` bound to the boxed `Game<B>` an [`AnyGame`]
/// holds (by value, `&` or `&mut` as `$any` is).
///
/// ```
/// use banmen_rules::{rules_for, with_game, AnyGame, GameOptions, VariantName};
/// let start = rules_for(VariantName::Shogi, "").unwrap().start_position().unwrap();
/// let mut game = AnyGame::new(start, GameOptions::default());
/// with_game!(&mut game, g => {
///     let m = g.position().parse_move("7g7f").unwrap();
///     g.play(m).unwrap();
/// });
/// assert_eq!(game.ply_count(), 1);
/// ```
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::AnyGame::Nine($g) => $body,
            $crate::AnyGame::Seventeen($g) => $body,
        }
    };
}

impl AnyRules {
    /// The game these rules play.
    pub fn variant(&self) -> &'static Variant {
        with_rules!(*self, r => &r.variant)
    }

    /// A position of these rules from SFEN (`startpos` is the game's start).
    ///
    /// # Errors
    /// Every reason the text is not a position of this game.
    pub fn position(&self, sfen: &str, mode: SfenMode) -> Result<AnyPosition, SfenError> {
        with_rules!(*self, r => Position::from_sfen(r, sfen, mode).map(AnyPosition::from))
    }

    /// The game's start position.
    ///
    /// # Errors
    /// Never for the shipped games (their start positions are checked by tests).
    pub fn start_position(&self) -> Result<AnyPosition, SfenError> {
        self.position(self.variant().start_sfen, SfenMode::Strict)
    }
}

/// A position of any game, on the board type its game needs (the 17x17
/// one is boxed like the other: a dai dai position is about 11 KB).
///
/// ```
/// use banmen_rules::{rules_for, AnyPosition, SfenMode, VariantName};
/// let rules = rules_for(VariantName::MiniShogi, "").unwrap();
/// let pos = rules.position("rbsgk/4p/5/P4/KGSBR b - 1", SfenMode::Strict).unwrap();
/// assert!(matches!(pos, AnyPosition::Nine(_)));
/// assert_eq!(pos.rules().variant().name, VariantName::MiniShogi);
/// ```
#[derive(Clone, Debug)]
pub enum AnyPosition {
    /// Up to 81 squares: shogi, cannon shogi, minishogi.
    Nine(Box<Position<Bb128>>),
    /// 289 squares: dai dai shogi.
    Seventeen(Box<Position<Bb320>>),
}

impl From<Position<Bb128>> for AnyPosition {
    fn from(p: Position<Bb128>) -> Self {
        AnyPosition::Nine(Box::new(p))
    }
}

impl From<Position<Bb320>> for AnyPosition {
    fn from(p: Position<Bb320>) -> Self {
        AnyPosition::Seventeen(Box::new(p))
    }
}

impl AnyPosition {
    /// The rules of the position.
    pub fn rules(&self) -> AnyRules {
        match self {
            AnyPosition::Nine(p) => AnyRules::Nine(p.rules()),
            AnyPosition::Seventeen(p) => AnyRules::Seventeen(p.rules()),
        }
    }

    /// The position as SFEN.
    pub fn to_sfen(&self) -> String {
        with_position!(self, p => p.to_sfen())
    }

    /// Whose move it is.
    pub fn side_to_move(&self) -> Color {
        with_position!(self, p => p.side_to_move())
    }
}

/// A game (moves, repetition, outcome) of any game, on the board type it needs.
///
/// ```
/// use banmen_rules::{rules_for, AnyGame, Color, GameOptions, VariantName};
/// let start = rules_for(VariantName::DaiDaiShogi, "").unwrap().start_position().unwrap();
/// let mut game = AnyGame::new(start, GameOptions::default());
/// assert_eq!(game.side_to_move(), Color::Black);
/// game.resign(Color::Black);
/// assert!(game.outcome().is_some());
/// ```
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Up to 81 squares: shogi, cannon shogi, minishogi.
    Nine(Box<Game<Bb128>>),
    /// 289 squares: dai dai shogi.
    Seventeen(Box<Game<Bb320>>),
}

impl From<Game<Bb128>> for AnyGame {
    fn from(g: Game<Bb128>) -> Self {
        AnyGame::Nine(Box::new(g))
    }
}

impl From<Game<Bb320>> for AnyGame {
    fn from(g: Game<Bb320>) -> Self {
        AnyGame::Seventeen(Box::new(g))
    }
}

impl AnyGame {
    /// A game from `start` with `options`.
    pub fn new(start: AnyPosition, options: GameOptions) -> AnyGame {
        with_position!(start, p => Game::new(*p, options).into())
    }

    /// The rules of the game.
    pub fn rules(&self) -> AnyRules {
        match self {
            AnyGame::Nine(g) => AnyRules::Nine(g.position().rules()),
            AnyGame::Seventeen(g) => AnyRules::Seventeen(g.position().rules()),
        }
    }

    /// The moves played so far.
    pub fn ply_count(&self) -> usize {
        with_game!(self, g => g.moves().len())
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }

    /// Who moves in the current position.
    pub fn side_to_move(&self) -> Color {
        with_game!(self, g => g.position().side_to_move())
    }

    /// Who moved first.
    pub fn first_to_move(&self) -> Color {
        with_game!(self, g => g.start().side_to_move())
    }

    /// The current position as SFEN.
    pub fn sfen(&self) -> String {
        with_game!(self, g => g.position().to_sfen())
    }

    /// `loser` resigns.
    pub fn resign(&mut self, loser: Color) {
        with_game!(self, g => g.resign(loser))
    }

    /// Takes back the last move, if any; says whether one was taken back.
    pub fn undo(&mut self) -> bool {
        with_game!(self, g => g.undo().is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{rules_for, VariantName};

    #[test]
    fn every_game_dispatches_to_its_board() {
        for name in VariantName::ALL {
            let rules = rules_for(name, "").unwrap();
            let pos = rules.start_position().unwrap();
            let expect_big = name == VariantName::DaiDaiShogi;
            assert_eq!(
                matches!(pos, AnyPosition::Seventeen(_)),
                expect_big,
                "{name}"
            );
            assert_eq!(pos.rules().variant().name, name);
            assert_eq!(pos.to_sfen(), rules.variant().start_sfen, "{name}");
            let mut game = AnyGame::new(pos, GameOptions::default());
            assert_eq!(game.rules().variant().name, name);
            assert_eq!(game.ply_count(), 0);
            assert!(!game.undo());
            let first = game.first_to_move();
            game.resign(first);
            assert!(game.outcome().is_some(), "{name}");
        }
    }

    #[test]
    fn a_bad_sfen_is_refused_on_either_board() {
        for name in [VariantName::Shogi, VariantName::DaiDaiShogi] {
            let rules = rules_for(name, "").unwrap();
            assert!(rules.position("not a position", SfenMode::Strict).is_err());
        }
    }
}
