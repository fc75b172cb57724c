//! The rules of standard shogi, cannon shogi, dai dai shogi and minishogi.
//!
//! Games are data ([`Variant`]), compiled once into attack tables ([`Rules`]);
//! a [`Position`] follows one set of rules and generates legal moves, makes and
//! unmakes them, and reads and writes SFEN and USI moves. No I/O.
//!
//! Where to start: [`rules_9x9`], [`rules_17x17_with`] or [`rules_for`] (any
//! game, [`AnyRules`]) give a game's compiled rules; [`Setup`] is a position
//! as plain data and [`Position::from_setup`] or [`Position::from_sfen`]
//! check it ([`SfenError`] lists every reason not); [`UsiMove`] is a move's
//! syntax and [`Position::parse_move`] its legality ([`IllegalMove`]); a
//! [`Game`] adds repetition, declaration and the [`Outcome`];
//! [`PositionCommand`] reads the USI `position` line; [`AnyPosition`] and
//! [`AnyGame`] hold a game chosen at run time, and [`with_rules!`],
//! [`with_position!`] and [`with_game!`] run generic code on them.
//!
//! ```
//! use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};
//! let rules = rules_9x9(VariantName::Shogi).unwrap();
//! let mut pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
//! assert_eq!(pos.legal_moves().len(), 30);
//! assert_eq!(pos.perft(2), 900);
//! let m = pos.parse_move("7g7f").unwrap();
//! pos.make_move(m);
//! assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! ```

pub mod bitboard;
pub mod dynamic;
pub mod game;
pub mod movegen;
pub mod movement;
pub mod moves;
pub mod piece;
pub mod position;
pub mod position_command;
pub mod rules;
pub mod setup;
pub mod sfen;
pub mod square;
#[doc(hidden)]
pub mod testing;
pub mod usi;
pub mod variant;

pub use bitboard::{Bb128, Bb320, BitBoard};
pub use dynamic::{AnyGame, AnyPosition};
pub use game::{EnteringKingRule, Game, GameOptions, Outcome, Reason, UnknownEnteringKingRule};
pub use movegen::MoveList;
pub use moves::Move;
pub use piece::{Color, Kind, Piece};
pub use position::{Hand, Position, Undo, MAX_HAND_KINDS};
pub use position_command::{PositionCommand, PositionCommandError, StartPosition};
pub use rules::{
    rules_17x17_with, rules_9x9, rules_9x9_with, rules_for, AnyRules, KindInfo, Rules,
};
pub use setup::Setup;
pub use sfen::{SfenError, SfenMode, SfenProblem};
pub use square::{Geometry, Square};
pub use usi::{IllegalMove, MoveError, UsiMove, UsiSyntaxError};
pub use variant::{
    FlyingCannon, Handicap, PieceNames, Preset, RuleOption, RulesError, Variant, VariantName,
};
