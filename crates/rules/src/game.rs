//! A game: a start position and the moves played, adjudicated after every move.

use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::square::Square;
use crate::usi::MoveError;
use std::fmt;
use std::str::FromStr;

/// The declaration (nyūgyoku) rule for play between programs (USI `EnteringKingRule`).
///
/// ```
/// use banmen_rules::EnteringKingRule;
/// let rule: EnteringKingRule = "CSARule27".parse().unwrap();
/// assert_eq!(rule, EnteringKingRule::CsaRule27);
/// assert_eq!(rule.as_str(), "CSARule27");
/// assert_eq!(EnteringKingRule::default(), EnteringKingRule::NoEnteringKing);
/// assert!("CSARule28".parse::<EnteringKingRule>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EnteringKingRule {
    /// No declaration.
    #[default]
    NoEnteringKing,
    /// CSA 24-point declaration: 31 points for either side (as YaneuraOu and
    /// cshogi count it: 24 to 30 is a draw by the count, not a win).
    CsaRule24,
    /// CSA 27-point declaration: 28 points for Black, 27 for White.
    CsaRule27,
    /// The try rule: a king that reaches the enemy king's start square wins.
    TryRule,
}

impl EnteringKingRule {
    /// The USI option spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            EnteringKingRule::NoEnteringKing => "NoEnteringKing",
            EnteringKingRule::CsaRule24 => "CSARule24",
            EnteringKingRule::CsaRule27 => "CSARule27",
            EnteringKingRule::TryRule => "TryRule",
        }
    }
}

impl EnteringKingRule {
    /// Every rule, the default first.
    pub const ALL: [EnteringKingRule; 4] = [
        EnteringKingRule::NoEnteringKing,
        EnteringKingRule::CsaRule24,
        EnteringKingRule::CsaRule27,
        EnteringKingRule::TryRule,
    ];
}

/// A declaration rule name that is none of the USI spellings.
///
/// ```
/// use banmen_rules::{EnteringKingRule, UnknownEnteringKingRule};
/// let err = "CSARule28".parse::<EnteringKingRule>().unwrap_err();
/// assert_eq!(err, UnknownEnteringKingRule("CSARule28".into()));
/// assert_eq!(
///     err.to_string(),
///     "unknown EnteringKingRule 'CSARule28' (NoEnteringKing, CSARule24, CSARule27, TryRule)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEnteringKingRule(pub String);

impl fmt::Display for UnknownEnteringKingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = EnteringKingRule::ALL.iter().map(|r| r.as_str()).collect();
        write!(
            f,
            "unknown EnteringKingRule '{}' ({})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownEnteringKingRule {}

impl FromStr for EnteringKingRule {
    type Err = UnknownEnteringKingRule;
    fn from_str(s: &str) -> Result<Self, UnknownEnteringKingRule> {
        EnteringKingRule::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownEnteringKingRule(s.to_string()))
    }
}

/// Options of a game beyond the variant's rules.
///
/// ```
/// use banmen_rules::{rules_9x9, Game, GameOptions, Outcome, Position, Reason, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let start = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let options = GameOptions { max_plies: Some(2), ..GameOptions::default() };
/// let mut game = Game::new(start, options);
/// game.play_usi("7g7f").unwrap();
/// game.play_usi("3c3d").unwrap();
/// assert_eq!(game.outcome(), Some(Outcome { winner: None, reason: Reason::MaxMoves }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GameOptions {
    /// The declaration rule.
    pub entering_king: EnteringKingRule,
    /// A draw after this many plies (off by default).
    pub max_plies: Option<u32>,
}

/// Why a game ended.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Game, GameOptions, Position, Reason, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let start = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let mut game = Game::new(start, GameOptions::default());
/// game.resign(Color::White);
/// let reason = game.outcome().unwrap().reason;
/// assert_eq!(reason, Reason::Resignation);
/// assert_eq!(reason.to_string(), "resignation");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The loser is in check with no legal move.
    Checkmate,
    /// The loser has no legal move (not in check).
    NoLegalMoves,
    /// Fourfold repetition (sennichite).
    Repetition,
    /// Fourfold repetition in which the loser checked with every move.
    PerpetualCheck,
    /// A valid impasse declaration (CSA rules).
    Declaration,
    /// The impasse was scored by points (jishogi).
    ImpassePoints,
    /// The king reached the try square.
    Try,
    /// The maximum game length was reached.
    MaxMoves,
    /// A player resigned.
    Resignation,
    /// The king was captured (dai dai shogi with `king-capture=on`).
    KingCaptured,
    /// Fourfold repetition in which the loser chased an enemy piece with
    /// every move (dai dai shogi with `perpetual-chase=loss`).
    PerpetualChase,
}

impl Reason {
    /// A stable lower-case name for APIs and records.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::NoLegalMoves => "no-legal-moves",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::Declaration => "declaration",
            Reason::ImpassePoints => "impasse-points",
            Reason::Try => "try",
            Reason::MaxMoves => "max-moves",
            Reason::Resignation => "resignation",
            Reason::KingCaptured => "king-captured",
            Reason::PerpetualChase => "perpetual-chase",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game ended: the winner (`None` for a draw) and why.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Game, GameOptions, Outcome, Position, Reason, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// // A pawn on 5c guards 5b: a gold dropped there mates.
/// let start = Position::from_sfen(rules, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", SfenMode::Strict).unwrap();
/// let mut game = Game::new(start, GameOptions::default());
/// assert_eq!(game.outcome(), None);
/// game.play_usi("G*5b").unwrap();
/// let mate = Outcome { winner: Some(Color::Black), reason: Reason::Checkmate };
/// assert_eq!(game.outcome(), Some(mate));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: Reason,
}

/// A move that could not be added to a game.
///
/// ```
/// use banmen_rules::game::GameError;
/// use banmen_rules::{rules_9x9, Color, Game, GameOptions, MoveError, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let start = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let mut game = Game::new(start, GameOptions::default());
/// assert!(matches!(game.play_usi("7g7e"), Err(GameError::Move(MoveError::Illegal(_)))));
/// game.resign(Color::Black);
/// assert!(matches!(game.play_usi("7g7f"), Err(GameError::GameOver(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is already over.
    GameOver(Outcome),
    /// The move is malformed or illegal.
    Move(MoveError),
    /// A declaration that the rules do not allow now.
    BadDeclaration(DeclarationError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(o) => write!(f, "the game is over ({})", o.reason),
            GameError::Move(e) => e.fmt(f),
            GameError::BadDeclaration(s) => write!(f, "declaration refused: {s}"),
        }
    }
}

impl std::error::Error for GameError {}

/// Why a declaration is refused: an entering-king win ([`Game::declare`],
/// [`declaration_ok`]) or impasse scoring ([`Game::score_impasse`]).
///
/// ```
/// use banmen_rules::game::{declaration_ok, DeclarationError};
/// use banmen_rules::{rules_9x9, EnteringKingRule, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let why = declaration_ok(&pos, EnteringKingRule::CsaRule24).unwrap_err();
/// assert_eq!(why, DeclarationError::KingNotInCamp);
/// assert_eq!(why.to_string(), "the king is not in the enemy camp");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationError {
    /// The entering-king rule is `NoEnteringKing`.
    Off,
    /// The try rule: a king wins by moving, not by declaring.
    TryRule,
    /// The side to move has no king.
    NoKing,
    /// The king is not in the enemy camp.
    KingNotInCamp,
    /// The king is in check.
    InCheck,
    /// Fewer than ten other pieces in the enemy camp.
    TooFewPieces {
        /// The side's other pieces in the camp.
        others: u32,
    },
    /// Fewer points than the rule needs.
    TooFewPoints {
        /// The side's points.
        points: u32,
        /// The points needed.
        needed: u32,
    },
    /// Impasse scoring in a game that has no impasse rule.
    NoImpasseRule,
    /// Impasse scoring while this side's king is not in its promotion zone.
    KingNotInZone(Color),
}

impl fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeclarationError::Off => f.write_str("declaration is off (NoEnteringKing)"),
            DeclarationError::TryRule => f.write_str(
                "under the try rule a king wins by moving to the enemy king's start square",
            ),
            DeclarationError::NoKing => f.write_str("no king"),
            DeclarationError::KingNotInCamp => f.write_str("the king is not in the enemy camp"),
            DeclarationError::InCheck => f.write_str("the king is in check"),
            DeclarationError::TooFewPieces { others } => write!(
                f,
                "only {others} other pieces in the enemy camp (10 needed)"
            ),
            DeclarationError::TooFewPoints { points, needed } => {
                write!(f, "{points} points, {needed} needed")
            }
            DeclarationError::NoImpasseRule => f.write_str("this game has no impasse rule"),
            DeclarationError::KingNotInZone(c) => {
                write!(f, "{}'s king is not in the promotion zone", c.name())
            }
        }
    }
}

impl std::error::Error for DeclarationError {}

/// A game in progress or finished: a start position, the moves played, and
/// the outcome once the rules (mate, repetition, declaration...) end it.
///
/// ```
/// use banmen_rules::{rules_9x9, Game, GameOptions, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let start = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let mut game = Game::new(start, GameOptions::default());
/// let m = game.play_usi("7g7f").unwrap();
/// assert_eq!(game.moves(), [m]);
/// assert_eq!(game.position().to_sfen(), game.start().after(m).to_sfen());
/// assert_eq!(game.undo(), Some(m));
/// assert_eq!(game.position(), game.start());
/// assert_eq!(game.outcome(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Game<B: BitBoard> {
    start: Position<B>,
    position: Position<B>,
    moves: Vec<Move>,
    /// Hash after each ply, index 0 = start.
    hashes: Vec<u64>,
    /// Whether the move of ply `i` (1-based; index 0 unused) gave check.
    checks: Vec<bool>,
    /// Whether the move of ply `i` chased a piece (only with perpetual-chase rules).
    chases: Vec<bool>,
    outcome: Option<Outcome>,
    options: GameOptions,
}

impl<B: BitBoard> Game<B> {
    /// A new game from `start`.
    pub fn new(start: Position<B>, options: GameOptions) -> Self {
        let mut g = Game {
            hashes: vec![start.hash()],
            checks: vec![false],
            chases: vec![false],
            position: start.clone(),
            start,
            moves: Vec::new(),
            outcome: None,
            options,
        };
        g.adjudicate();
        g
    }

    /// The start position.
    pub fn start(&self) -> &Position<B> {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position<B> {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The options.
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// The game is over, or the move is illegal.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        if !self.position.is_legal(m) {
            let text = self.position.move_to_usi(m);
            return Err(GameError::Move(
                self.position
                    .parse_move(&text)
                    .err()
                    .unwrap_or(MoveError::Illegal(crate::usi::IllegalMove::CannotMoveThere)),
            ));
        }
        self.push(m);
        Ok(())
    }

    /// Parses and plays a USI move.
    ///
    /// # Errors
    /// The game is over, or the text is not a legal move.
    pub fn play_usi(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        let m = self.position.parse_move(text).map_err(GameError::Move)?;
        self.push(m);
        Ok(m)
    }

    fn push(&mut self, m: Move) {
        let mover = self.position.side_to_move();
        let king_move = self
            .position
            .moving_piece(m)
            .map(|p| Some(p.kind) == self.position.rules().royal);
        let chase =
            self.position.rules().variant.perpetual_chase_loses && chases(&self.position, m);
        self.position.make_move(m);
        self.moves.push(m);
        self.hashes.push(self.position.hash());
        self.checks.push(self.position.in_check());
        self.chases.push(chase);
        if self.options.entering_king == EnteringKingRule::TryRule
            && king_move == Some(true)
            && Some(m.to()) == self.try_square(mover)
        {
            self.outcome = Some(Outcome {
                winner: Some(mover),
                reason: Reason::Try,
            });
            return;
        }
        self.adjudicate();
    }

    /// Takes back the last move; returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.hashes.pop();
        self.checks.pop();
        self.chases.pop();
        let mut p = self.start.clone();
        for &mv in &self.moves {
            p.make_move(mv);
        }
        self.position = p;
        self.outcome = None;
        self.adjudicate();
        Some(m)
    }

    /// Ends the game by resignation of `loser`.
    pub fn resign(&mut self, loser: Color) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome {
                winner: Some(!loser),
                reason: Reason::Resignation,
            });
        }
    }

    fn adjudicate(&mut self) {
        let pos = &self.position;
        let mover = !pos.side_to_move();
        if pos.rules().variant.king_capture && pos.king_square(pos.side_to_move()).is_none() {
            self.outcome = Some(Outcome {
                winner: Some(mover),
                reason: Reason::KingCaptured,
            });
            return;
        }
        if !pos.has_legal_move() {
            let reason = if pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::NoLegalMoves
            };
            self.outcome = Some(Outcome {
                winner: Some(mover),
                reason,
            });
            return;
        }
        // Sennichite (rules/standard-shogi.md §Game end): the fourth occurrence.
        let now = *self.hashes.last().expect("start hash");
        let occurrences: Vec<usize> = self
            .hashes
            .iter()
            .enumerate()
            .filter(|(_, &h)| h == now)
            .map(|(i, _)| i)
            .collect();
        if occurrences.len() >= 4 {
            let first = occurrences[occurrences.len() - 4];
            let last = self.hashes.len() - 1;
            // Plies first+1..=last; ply p was played by the side to move at ply p-1.
            let start_side = self.start.side_to_move();
            let side_of = |p: usize| {
                if (p - 1) % 2 == 0 {
                    start_side
                } else {
                    !start_side
                }
            };
            for side in Color::ALL {
                let mut any = false;
                let all_checks = (first + 1..=last).filter(|&p| side_of(p) == side).all(|p| {
                    any = true;
                    self.checks[p]
                });
                if any && all_checks {
                    self.outcome = Some(Outcome {
                        winner: Some(!side),
                        reason: Reason::PerpetualCheck,
                    });
                    return;
                }
            }
            if self.position.rules().variant.perpetual_chase_loses {
                let chasers: Vec<Color> = Color::ALL
                    .into_iter()
                    .filter(|&side| {
                        (first + 1..=last)
                            .filter(|&p| side_of(p) == side)
                            .all(|p| self.chases[p])
                    })
                    .collect();
                if let [loser] = chasers[..] {
                    self.outcome = Some(Outcome {
                        winner: Some(!loser),
                        reason: Reason::PerpetualChase,
                    });
                    return;
                }
            }
            self.outcome = Some(Outcome {
                winner: self.position.rules().variant.repetition_loser.map(|c| !c),
                reason: Reason::Repetition,
            });
            return;
        }
        if let Some(max) = self.options.max_plies {
            if self.moves.len() as u32 >= max {
                self.outcome = Some(Outcome {
                    winner: None,
                    reason: Reason::MaxMoves,
                });
            }
        }
    }

    /// The enemy king's start square (the try rule's goal) for `c`.
    fn try_square(&self, c: Color) -> Option<Square> {
        let rules = self.position.rules();
        let start =
            Position::from_sfen(rules, rules.variant.start_sfen, crate::SfenMode::Strict).ok()?;
        start.king_square(!c)
    }

    /// Impasse points of `c` (rules/standard-shogi.md §Jishogi): every piece
    /// on the board and in hand, kings excluded.
    pub fn impasse_points(&self, c: Color) -> u32 {
        impasse_points(&self.position, c, None)
    }

    /// Scores an impasse when both kings stand in their promotion zones: a side
    /// below the variant's threshold (24 in shogi) loses; otherwise a draw. Ends the game.
    ///
    /// # Errors
    /// The game is over, the variant has no impasse rule, or a king is not in its zone.
    pub fn score_impasse(&mut self) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        let pos = &self.position;
        let rules = pos.rules();
        let threshold = rules
            .variant
            .impasse_threshold
            .ok_or(GameError::BadDeclaration(DeclarationError::NoImpasseRule))?;
        for c in Color::ALL {
            let in_zone = pos.king_square(c).is_some_and(|k| rules.zone(c).has(k));
            if !in_zone {
                return Err(GameError::BadDeclaration(DeclarationError::KingNotInZone(
                    c,
                )));
            }
        }
        let short: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| self.impasse_points(c) < threshold as u32)
            .collect();
        let outcome = match short[..] {
            [loser] => Outcome {
                winner: Some(!loser),
                reason: Reason::ImpassePoints,
            },
            _ => Outcome {
                winner: None,
                reason: Reason::ImpassePoints,
            },
        };
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// Whether the side to move may declare a win under the entering-king rule.
    ///
    /// # Errors
    /// Why the declaration is not allowed.
    pub fn can_declare(&self) -> Result<(), DeclarationError> {
        declaration_ok(&self.position, self.options.entering_king)
    }

    /// The side to move declares a win (USI `bestmove win`). Ends the game.
    ///
    /// # Errors
    /// The game is over or the declaration is not valid.
    pub fn declare(&mut self) -> Result<Outcome, GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::GameOver(o));
        }
        self.can_declare().map_err(GameError::BadDeclaration)?;
        let o = Outcome {
            winner: Some(self.position.side_to_move()),
            reason: Reason::Declaration,
        };
        self.outcome = Some(o);
        Ok(o)
    }
}

/// Whether `m` chases: after it, the moved piece attacks an enemy piece (not
/// the king) that it did not attack before. Our reading of the seed's
/// "perpetual chasing of pieces" (rules/dai-dai-shogi.md §8), which no source
/// defines more precisely.
pub fn chases<B: BitBoard>(pos: &Position<B>, m: Move) -> bool {
    let us = pos.side_to_move();
    let royal = pos.rules().royal;
    let victims = |p: &Position<B>, from: Square| -> B {
        let mut out = B::EMPTY;
        let mut enemies = p.color_bb(!us);
        while let Some(e) = enemies.pop() {
            let kind = p.piece_at(e).map(|x| x.kind);
            if kind != royal && p.attackers_to(e, us, p.occupied()).has(from) {
                out.set(e);
            }
        }
        out
    };
    let before = match m.from() {
        Some(from) => victims(pos, from),
        None => B::EMPTY,
    };
    let after = victims(&pos.after(m), m.to());
    !(after & !before).is_empty()
}

/// Impasse points of `c`: pieces on the board (only within `area` if given) and in hand.
pub fn impasse_points<B: BitBoard>(pos: &Position<B>, c: Color, area: Option<B>) -> u32 {
    let rules = pos.rules();
    let mut points = 0u32;
    let mut own = pos.color_bb(c);
    if let Some(a) = area {
        own &= a;
    }
    while let Some(sq) = own.pop() {
        let p = pos.piece_at(sq).expect("occupied");
        points += rules.kind(p.kind).impasse_points as u32;
    }
    for k in 0..rules.n_base {
        points +=
            pos.hand_count(c, crate::Kind(k as u8)) as u32 * rules.kinds[k].impasse_points as u32;
    }
    points
}

/// The CSA declaration conditions (rules/standard-shogi.md §Jishogi).
pub fn declaration_ok<B: BitBoard>(
    pos: &Position<B>,
    rule: EnteringKingRule,
) -> Result<(), DeclarationError> {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let threshold = match (rule, us) {
        (EnteringKingRule::NoEnteringKing, _) => return Err(DeclarationError::Off),
        (EnteringKingRule::TryRule, _) => return Err(DeclarationError::TryRule),
        // rules/standard-shogi.md §Jishogi: 31 for either side.
        (EnteringKingRule::CsaRule24, _) => 31,
        (EnteringKingRule::CsaRule27, Color::Black) => 28,
        (EnteringKingRule::CsaRule27, Color::White) => 27,
    };
    let zone = rules.zone(us);
    let king = pos.king_square(us).ok_or(DeclarationError::NoKing)?;
    if !zone.has(king) {
        return Err(DeclarationError::KingNotInCamp);
    }
    if pos.in_check() {
        return Err(DeclarationError::InCheck);
    }
    let others = (pos.color_bb(us) & zone).count() - 1;
    if others < 10 {
        return Err(DeclarationError::TooFewPieces { others });
    }
    let points = impasse_points(pos, us, Some(zone));
    if points < threshold {
        return Err(DeclarationError::TooFewPoints {
            points,
            needed: threshold,
        });
    }
    Ok(())
}
