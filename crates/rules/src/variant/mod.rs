//! Games as data: a [`Variant`] lists the board, the pieces by their movement
//! and the switches that make each game different (DESIGN.md: "A game is data").

mod cannon;
mod capabilities;
mod dai_dai;
mod minishogi;
mod names;
pub mod options;
mod standard;

pub use cannon::FlyingCannon;
pub use names::PieceNames;
pub use options::{Preset, RuleOption, RulesError};

use crate::piece::Color;
use crate::square::Geometry;
use std::fmt;
use std::str::FromStr;

/// A base piece type of a variant, declared by its movement.
///
/// ```
/// use banmen_rules::variant::PieceType;
/// use banmen_rules::Variant;
/// let shogi = Variant::standard();
/// let knight: &PieceType = shogi.pieces.iter().find(|p| p.code == "N").unwrap();
/// assert_eq!((knight.name, knight.betza, knight.names.japanese), ("knight", "ffN", "桂"));
/// assert!(knight.promoted.is_some() && !knight.royal);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// SFEN letters, upper case (`P`, `LN`).
    pub code: &'static str,
    /// English name.
    pub name: &'static str,
    /// Western letters (`P`, `GC` for the gold cannon `U`, `LN`); a promoted
    /// form writes `+` before them.
    pub western: &'static str,
    /// How it is written in Japanese and in CSA.
    pub names: PieceNames,
    /// Movement in Betza notation (see [`crate::movement`]).
    pub betza: &'static str,
    /// The promoted form, if the piece promotes.
    pub promoted: Option<PromotedForm>,
    /// Whether losing it loses the game (the king).
    pub royal: bool,
    /// Impasse (jishogi) points for this piece, promoted or not.
    pub impasse_points: u8,
}

/// A promoted form of a base type.
///
/// ```
/// use banmen_rules::variant::PromotedForm;
/// use banmen_rules::Variant;
/// let shogi = Variant::standard();
/// let rook = shogi.pieces.iter().find(|p| p.code == "R").unwrap();
/// let dragon: &PromotedForm = rook.promoted.as_ref().unwrap();
/// assert_eq!((dragon.name, dragon.betza, dragon.names.japanese), ("dragon", "RF", "龍"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotedForm {
    /// English name.
    pub name: &'static str,
    /// How it is written in Japanese and in CSA, and what a board shows.
    pub names: PieceNames,
    /// Movement in Betza notation.
    pub betza: &'static str,
}

/// When pieces promote.
///
/// ```
/// use banmen_rules::variant::PromotionRule;
/// use banmen_rules::{Variant, VariantName};
/// assert_eq!(Variant::standard().promotion, PromotionRule::Zone { depth: 3 });
/// let mini = Variant::get(VariantName::MiniShogi).unwrap();
/// assert_eq!(mini.promotion, PromotionRule::Zone { depth: 1 });
/// let dai_dai = Variant::get(VariantName::DaiDaiShogi).unwrap();
/// assert_eq!(dai_dai.promotion, PromotionRule::OnCapture);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionRule {
    /// Optional on a move that starts or ends within `depth` ranks of the far side.
    Zone {
        /// How many ranks the zone has.
        depth: u8,
    },
    /// Mandatory at the end of a capturing move (dai dai shogi).
    OnCapture,
}

/// A named handicap start position.
///
/// ```
/// use banmen_rules::{rules_9x9, Handicap, Position, SfenMode, Variant, VariantName};
/// let shogi = Variant::standard();
/// let rook: &Handicap = shogi.handicap("rook").unwrap();
/// assert_eq!(shogi.handicap("飛車落ち"), Some(rook));
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, rook.sfen, SfenMode::Strict).unwrap();
/// assert_eq!(pos.to_sfen(), rook.sfen);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// The name used on the command line and in the API (`rook`, `two-pieces`).
    pub name: &'static str,
    /// The Japanese name, as in KIF `手合割`.
    pub japanese: &'static str,
    /// Its SFEN.
    pub sfen: &'static str,
}

/// The game names used everywhere: CLI `--variant`, USI `USI_Variant`, web API.
///
/// The default is standard shogi: the game that USI, KIF and CSA mean when
/// they name none.
///
/// ```
/// use banmen_rules::VariantName;
/// let name: VariantName = "daidaishogi".parse().unwrap();
/// assert_eq!(name, VariantName::DaiDaiShogi);
/// assert_eq!((name.as_str(), name.title()), ("daidaishogi", "dai dai shogi"));
/// assert_eq!(VariantName::default(), VariantName::Shogi);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VariantName {
    /// Standard shogi (`shogi`).
    #[default]
    Shogi,
    /// Cannon shogi (`cannonshogi`).
    CannonShogi,
    /// Dai dai shogi (`daidaishogi`).
    DaiDaiShogi,
    /// Minishogi, 5x5 (`minishogi`).
    MiniShogi,
}

impl VariantName {
    /// Every game, in the order menus and help list them.
    ///
    /// ```
    /// use banmen_rules::VariantName;
    /// let names: Vec<&str> = VariantName::ALL.iter().map(|v| v.as_str()).collect();
    /// assert_eq!(names, ["shogi", "cannonshogi", "daidaishogi", "minishogi"]);
    /// ```
    pub const ALL: [VariantName; 4] = [
        VariantName::Shogi,
        VariantName::CannonShogi,
        VariantName::DaiDaiShogi,
        VariantName::MiniShogi,
    ];

    /// The name in English prose and menus (`dai dai shogi`).
    pub fn title(self) -> &'static str {
        match self {
            VariantName::Shogi => "shogi",
            VariantName::CannonShogi => "cannon shogi",
            VariantName::DaiDaiShogi => "dai dai shogi",
            VariantName::MiniShogi => "minishogi",
        }
    }

    /// The name as users type it.
    pub fn as_str(self) -> &'static str {
        match self {
            VariantName::Shogi => "shogi",
            VariantName::CannonShogi => "cannonshogi",
            VariantName::DaiDaiShogi => "daidaishogi",
            VariantName::MiniShogi => "minishogi",
        }
    }
}

impl fmt::Display for VariantName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown game name.
///
/// ```
/// use banmen_rules::variant::UnknownVariant;
/// use banmen_rules::VariantName;
/// let err = "chess".parse::<VariantName>().unwrap_err();
/// assert_eq!(err, UnknownVariant("chess".into()));
/// assert!(err.to_string().starts_with("unknown variant 'chess'"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected shogi, cannonshogi, daidaishogi or minishogi)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for VariantName {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "shogi" => Ok(VariantName::Shogi),
            "cannonshogi" => Ok(VariantName::CannonShogi),
            "daidaishogi" => Ok(VariantName::DaiDaiShogi),
            "minishogi" => Ok(VariantName::MiniShogi),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// A complete description of one game: the board, the pieces by their
/// movement, and the switches that set it apart. [`Rules::new`](crate::Rules::new)
/// compiles it into tables.
///
/// ```
/// use banmen_rules::{Geometry, Variant, VariantName};
/// let shogi = Variant::standard();
/// let cannon = Variant::get(VariantName::CannonShogi).unwrap();
/// assert_eq!((shogi.geometry, shogi.pieces.len()), (Geometry::NINE, 8));
/// // Cannon shogi: standard shogi with more pieces and three switches.
/// assert_eq!(cannon.pieces.len(), 12);
/// assert!(shogi.nifu && !cannon.nifu);
/// assert!(shogi.pawn_drop_mate_illegal && !cannon.pawn_drop_mate_illegal);
/// assert_eq!((shogi.impasse_threshold, cannon.impasse_threshold), (Some(24), Some(38)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The game's name.
    pub name: VariantName,
    /// Board size.
    pub geometry: Geometry,
    /// Base piece types; their order is the SFEN hand order.
    pub pieces: Vec<PieceType>,
    /// When pieces promote.
    pub promotion: PromotionRule,
    /// Whether captured pieces go to hand and may be dropped.
    pub drops: bool,
    /// The code of the pawn, for the pawn rules below.
    pub pawn: Option<&'static str>,
    /// Nifu: no drop of a pawn on a file with an unpromoted own pawn.
    pub nifu: bool,
    /// Uchifuzume: a pawn drop may not give checkmate.
    pub pawn_drop_mate_illegal: bool,
    /// No move or drop may leave a piece where it can never move again
    /// (compulsory promotion; no pawn drop on the last rank...).
    pub dead_pieces_illegal: bool,
    /// Impasse points a side needs not to lose (24 in shogi, 38 in cannon shogi).
    pub impasse_threshold: Option<u8>,
    /// Moves may leave the king attacked; capturing the king wins (dai dai
    /// shogi's `king-capture=on`).
    pub king_capture: bool,
    /// A side that chased an enemy piece with every move of a fourfold
    /// repetition loses (dai dai shogi's `perpetual-chase=loss`).
    pub perpetual_chase_loses: bool,
    /// The side that loses a fourfold repetition without perpetual check or
    /// chase (minishogi: Black, as in Fairy-Stockfish and the 5五将棋
    /// rules); `None`: such a repetition is a draw.
    pub repetition_loser: Option<Color>,
    /// The even-game start position.
    pub start_sfen: &'static str,
    /// Named handicap start positions.
    pub handicaps: Vec<Handicap>,
}

impl Variant {
    /// The variant of that name with its default rules.
    pub fn get(name: VariantName) -> Option<Variant> {
        match name {
            VariantName::Shogi => Some(standard::standard()),
            VariantName::CannonShogi => Some(cannon::cannon(FlyingCannon::Hop)),
            VariantName::DaiDaiShogi => dai_dai::dai_dai(&[]).ok().map(|(v, _)| v),
            VariantName::MiniShogi => Some(minishogi::minishogi()),
        }
    }

    /// Standard shogi.
    pub fn standard() -> Variant {
        standard::standard()
    }

    /// The handicap of that name (`rook`, `two-pieces`...) or Japanese name.
    pub fn handicap(&self, name: &str) -> Option<&Handicap> {
        self.handicaps
            .iter()
            .find(|h| h.name == name || h.japanese == name)
    }
}
