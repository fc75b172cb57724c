//! USI move text: syntax first ([`UsiMove`]), then legality against a position
//! ([`UsiMove::to_move`]) with a typed reason when illegal ([`IllegalMove`]).

use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::square::{Geometry, Square};
use std::fmt;
use std::str::FromStr;

/// A square as written: file number and rank letter, not yet checked against a board.
///
/// ```
/// use banmen_rules::usi::UsiSquare;
/// use banmen_rules::UsiMove;
/// let Ok(UsiMove::Drop { to, .. }) = "P*12k".parse::<UsiMove>() else { panic!() };
/// assert_eq!(to, UsiSquare { file: 12, rank: 10 });
/// assert_eq!(to.to_string(), "12k");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsiSquare {
    /// File number (1..=99).
    pub file: u8,
    /// Rank index (`a` = 0).
    pub rank: u8,
}

impl fmt::Display for UsiSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file, (b'a' + self.rank) as char)
    }
}

/// The grammar of a USI move, independent of any position;
/// [`UsiMove::to_move`] then checks it against one.
///
/// ```
/// use banmen_rules::usi::UsiSquare;
/// use banmen_rules::{rules_9x9, Position, SfenMode, UsiMove, VariantName};
/// let usi: UsiMove = "8h2b+".parse().unwrap();
/// let (from, to) = (UsiSquare { file: 8, rank: 7 }, UsiSquare { file: 2, rank: 1 });
/// assert_eq!(usi, UsiMove::Normal { from, to, promote: true });
/// assert!(matches!("9i8h9g".parse(), Ok(UsiMove::Double { .. })));
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let m = "7g7f".parse::<UsiMove>().unwrap().to_move(&pos).unwrap();
/// assert_eq!(pos.move_to_usi(m), "7g7f");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum UsiMove {
    /// `7g7f`, `8h2b+`.
    Normal {
        /// Origin.
        from: UsiSquare,
        /// Destination.
        to: UsiSquare,
        /// Trailing `+`.
        promote: bool,
    },
    /// A lion double move or pass, `9i8h9g`.
    Double {
        /// Origin.
        from: UsiSquare,
        /// The middle square.
        mid: UsiSquare,
        /// Destination.
        to: UsiSquare,
        /// Trailing `+`.
        promote: bool,
    },
    /// A Japanese lion dog's line move capturing on both squares passed,
    /// `9i9h9g9f`.
    Triple {
        /// Origin.
        from: UsiSquare,
        /// The first square passed.
        mid: UsiSquare,
        /// The second square passed.
        mid2: UsiSquare,
        /// Destination.
        to: UsiSquare,
        /// Trailing `+`.
        promote: bool,
    },
    /// `P*5e`.
    Drop {
        /// The piece letters, upper case.
        piece: String,
        /// Destination.
        to: UsiSquare,
    },
}

/// Text that is not a USI move at all.
///
/// ```
/// use banmen_rules::{UsiMove, UsiSyntaxError};
/// let err = "7g".parse::<UsiMove>().unwrap_err();
/// assert_eq!(err, UsiSyntaxError("7g".into()));
/// assert!("p*5e".parse::<UsiMove>().is_err()); // drops are upper case
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiSyntaxError(pub String);

impl fmt::Display for UsiSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a USI move (expected e.g. 7g7f, 8h2b+, P*5e)",
            self.0
        )
    }
}

impl std::error::Error for UsiSyntaxError {}

fn parse_square(s: &[u8]) -> Option<(UsiSquare, usize)> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || s[0] == b'0' {
        return None;
    }
    let letter = *s.get(digits)?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let file: u8 = std::str::from_utf8(&s[..digits]).ok()?.parse().ok()?;
    Some((
        UsiSquare {
            file,
            rank: letter - b'a',
        },
        digits + 1,
    ))
}

impl FromStr for UsiMove {
    type Err = UsiSyntaxError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = || UsiSyntaxError(text.chars().take(40).collect());
        let s = text.as_bytes();
        if let Some(star) = s.iter().position(|&b| b == b'*') {
            let piece = &s[..star];
            if piece.is_empty() || piece.len() > 2 || !piece.iter().all(u8::is_ascii_uppercase) {
                return Err(err());
            }
            let (to, len) = parse_square(&s[star + 1..]).ok_or_else(err)?;
            if star + 1 + len != s.len() {
                return Err(err());
            }
            return Ok(UsiMove::Drop {
                piece: String::from_utf8_lossy(piece).into_owned(),
                to,
            });
        }
        let (body, promote) = match s.last() {
            Some(b'+') => (&s[..s.len() - 1], true),
            _ => (s, false),
        };
        let mut squares = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let (sq, len) = parse_square(&body[i..]).ok_or_else(err)?;
            squares.push(sq);
            i += len;
            if squares.len() > 4 {
                return Err(err());
            }
        }
        match squares[..] {
            [from, to] => Ok(UsiMove::Normal { from, to, promote }),
            [from, mid, to] => Ok(UsiMove::Double {
                from,
                mid,
                to,
                promote,
            }),
            [from, mid, mid2, to] => Ok(UsiMove::Triple {
                from,
                mid,
                mid2,
                to,
                promote,
            }),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for UsiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiMove::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if *promote { "+" } else { "" })
            }
            UsiMove::Double {
                from,
                mid,
                to,
                promote,
            } => {
                write!(f, "{from}{mid}{to}{}", if *promote { "+" } else { "" })
            }
            UsiMove::Triple {
                from,
                mid,
                mid2,
                to,
                promote,
            } => {
                write!(
                    f,
                    "{from}{mid}{mid2}{to}{}",
                    if *promote { "+" } else { "" }
                )
            }
            UsiMove::Drop { piece, to } => write!(f, "{piece}*{to}"),
        }
    }
}

/// Why a well-formed move is not legal here.
///
/// ```
/// use banmen_rules::{rules_9x9, IllegalMove, Position, SfenMode, UsiMove, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// let why = |text: &str| text.parse::<UsiMove>().unwrap().to_move(&pos).unwrap_err();
/// assert_eq!(why("3c3d"), IllegalMove::NotYourPiece("3c".into()));
/// assert_eq!(why("7g7e"), IllegalMove::CannotMoveThere);
/// assert_eq!(why("7g7f+"), IllegalMove::CannotPromote);
/// assert_eq!(why("P*5e"), IllegalMove::NotInHand("pawn".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// A square is not on this board.
    OffBoard(String),
    /// No piece stands on the origin square.
    EmptySquare(String),
    /// The piece on the origin square belongs to the opponent.
    NotYourPiece(String),
    /// The piece does not move that way (or the path is blocked).
    CannotMoveThere,
    /// The destination holds one's own piece.
    OwnPieceOnTarget,
    /// The piece cannot promote, or not on this move.
    CannotPromote,
    /// The piece would have no move later, so it must promote.
    MustPromote,
    /// The game has no such piece.
    UnknownPiece(String),
    /// The game has no drops.
    NoDrops,
    /// The piece is not in hand.
    NotInHand(String),
    /// A drop onto an occupied square.
    DropOnOccupied,
    /// A drop where the piece could never move.
    DeadPiece,
    /// Nifu: a second unpromoted pawn on the file.
    TwoPawns,
    /// Uchifuzume: a pawn drop that checkmates.
    DropPawnMate,
    /// The move leaves (or puts) one's own king in check.
    IgnoresCheck,
    /// A double move that the piece cannot make.
    BadDoubleMove,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalMove::*;
        match self {
            OffBoard(s) => write!(f, "square {s} is not on the board"),
            EmptySquare(s) => write!(f, "no piece on {s}"),
            NotYourPiece(s) => write!(f, "the piece on {s} belongs to the opponent"),
            CannotMoveThere => write!(f, "the piece cannot move there"),
            OwnPieceOnTarget => write!(f, "the destination holds your own piece"),
            CannotPromote => write!(f, "the piece cannot promote on this move"),
            MustPromote => write!(f, "the piece must promote (it could never move again)"),
            UnknownPiece(s) => write!(f, "this game has no piece '{s}'"),
            NoDrops => write!(f, "this game has no drops"),
            NotInHand(s) => write!(f, "no {s} in hand"),
            DropOnOccupied => write!(f, "cannot drop on an occupied square"),
            DeadPiece => write!(f, "the dropped piece could never move there"),
            TwoPawns => write!(f, "two unpromoted pawns on one file (nifu)"),
            DropPawnMate => write!(f, "a pawn drop may not give checkmate (uchifuzume)"),
            IgnoresCheck => write!(f, "the move leaves your king in check"),
            BadDoubleMove => write!(f, "the piece cannot make that double move"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A move text that could not be played: bad syntax or illegal
/// ([`Position::parse_move`]).
///
/// ```
/// use banmen_rules::{rules_9x9, IllegalMove, MoveError, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// assert!(matches!(pos.parse_move("7g-7f"), Err(MoveError::Syntax(_))));
/// let err = pos.parse_move("5e5d").unwrap_err();
/// assert_eq!(err, MoveError::Illegal(IllegalMove::EmptySquare("5e".into())));
/// assert_eq!(err.to_string(), "illegal move: no piece on 5e");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move at all.
    Syntax(UsiSyntaxError),
    /// A move, but not a legal one.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::Illegal(e) => write!(f, "illegal move: {e}"),
        }
    }
}

impl std::error::Error for MoveError {}

fn square(g: Geometry, s: UsiSquare) -> Result<Square, IllegalMove> {
    g.square(s.file as i32, s.rank as i32)
        .ok_or_else(|| IllegalMove::OffBoard(s.to_string()))
}

impl UsiMove {
    /// Resolves the move against `pos`.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn to_move<B: BitBoard>(&self, pos: &Position<B>) -> Result<Move, IllegalMove> {
        let r = pos.rules();
        let g = r.geometry;
        let legal = pos.legal_moves();
        match self {
            UsiMove::Drop { piece, to } => {
                if !r.variant.drops {
                    return Err(IllegalMove::NoDrops);
                }
                let to = square(g, *to)?;
                let kind = r
                    .kind_by_code(piece)
                    .filter(|k| k.index() < r.n_base && !r.kind(*k).royal)
                    .ok_or_else(|| IllegalMove::UnknownPiece(piece.clone()))?;
                let m = Move::drop(kind, to);
                if legal.contains(&m) {
                    return Ok(m);
                }
                let us = pos.side_to_move();
                if pos.hand_count(us, kind) == 0 {
                    return Err(IllegalMove::NotInHand(r.kind(kind).name.to_string()));
                }
                if pos.piece_at(to).is_some() {
                    return Err(IllegalMove::DropOnOccupied);
                }
                if r.variant.dead_pieces_illegal && r.dead_squares(us, kind).has(to) {
                    return Err(IllegalMove::DeadPiece);
                }
                if Some(kind) == r.pawn {
                    if r.variant.nifu {
                        let file = r.file_mask[to.index()];
                        if !(pos.pieces(us, kind) & file).is_empty() {
                            return Err(IllegalMove::TwoPawns);
                        }
                    }
                    if r.variant.pawn_drop_mate_illegal && pos.drop_mates(kind, to) {
                        return Err(IllegalMove::DropPawnMate);
                    }
                }
                Err(IllegalMove::IgnoresCheck)
            }
            UsiMove::Triple {
                from,
                mid,
                mid2,
                to,
                promote,
            } => {
                let (from, mid, mid2, to) = (
                    square(g, *from)?,
                    square(g, *mid)?,
                    square(g, *mid2)?,
                    square(g, *to)?,
                );
                let m = Move::double_both(from, mid, to, *promote);
                if m.mid2() == Some(mid2) && legal.contains(&m) {
                    return Ok(m);
                }
                if pos.piece_at(from).is_none() {
                    return Err(IllegalMove::EmptySquare(g.name(from).to_string()));
                }
                let pseudo = pos.pseudo_moves();
                Err(if m.mid2() == Some(mid2) && pseudo.contains(&m) {
                    IllegalMove::IgnoresCheck
                } else {
                    IllegalMove::BadDoubleMove
                })
            }
            UsiMove::Normal { from, to, promote }
            | UsiMove::Double {
                from, to, promote, ..
            } => {
                let from_sq = square(g, *from)?;
                let to_sq = square(g, *to)?;
                let m = match self {
                    UsiMove::Double { mid, .. } => {
                        let mid_sq = square(g, *mid)?;
                        if let Some(found) =
                            resolve_double(pos, &legal, from_sq, mid_sq, to_sq, *promote)
                        {
                            return Ok(found);
                        }
                        Move::double(from_sq, mid_sq, to_sq, *promote)
                    }
                    _ => Move::board(from_sq, to_sq, *promote),
                };
                if legal.contains(&m) {
                    return Ok(m);
                }
                let piece = pos
                    .piece_at(from_sq)
                    .ok_or_else(|| IllegalMove::EmptySquare(from.to_string()))?;
                if piece.color != pos.side_to_move() {
                    return Err(IllegalMove::NotYourPiece(from.to_string()));
                }
                if let UsiMove::Double { mid, .. } = self {
                    // Legal as a piece move but not here: it leaves the king attacked.
                    let mid_sq = square(g, *mid)?;
                    let pseudo = pos.pseudo_moves();
                    return Err(
                        if resolve_double(pos, &pseudo, from_sq, mid_sq, to_sq, *promote).is_some()
                        {
                            IllegalMove::IgnoresCheck
                        } else {
                            IllegalMove::BadDoubleMove
                        },
                    );
                }
                if pos.piece_at(to_sq).is_some_and(|p| p.color == piece.color) {
                    return Err(IllegalMove::OwnPieceOnTarget);
                }
                let pseudo = pos.pseudo_moves();
                let other = Move::board(from_sq, to_sq, !promote);
                if pseudo.contains(&m) {
                    return Err(IllegalMove::IgnoresCheck);
                }
                if pseudo.contains(&other) {
                    return Err(if *promote {
                        IllegalMove::CannotPromote
                    } else {
                        IllegalMove::MustPromote
                    });
                }
                Err(IllegalMove::CannotMoveThere)
            }
        }
    }
}

/// A double move names its middle square; a lion pass may be written with any
/// empty neighbour, and a double move through an empty middle square is the
/// plain move (rules/dai-dai-shogi.md §12).
fn resolve_double<B: BitBoard>(
    pos: &Position<B>,
    moves: &[Move],
    from: Square,
    mid: Square,
    to: Square,
    promote: bool,
) -> Option<Move> {
    let exact = Move::double(from, mid, to, promote);
    if moves.contains(&exact) {
        return Some(exact);
    }
    // Only a lion-type piece makes double steps, and only through a neighbour
    // of its square to a neighbour of that neighbour.
    let r = pos.rules();
    let lion = pos
        .piece_at(from)
        .is_some_and(|p| r.lion[r.ck(p.color, p.kind)]);
    let step = r.neighbours[from.index()].has(mid) && r.neighbours[mid.index()].has(to);
    if !lion || !step || pos.piece_at(mid).is_some() {
        return None;
    }
    if from == to {
        // A pass, named by any empty neighbour.
        return moves.iter().copied().find(|m| {
            m.from() == Some(from)
                && m.to() == to
                && m.mid().is_some()
                && m.is_promotion() == promote
        });
    }
    // Through an empty square: the plain step or jump.
    let plain = Move::board(from, to, promote);
    moves.contains(&plain).then_some(plain)
}

impl<B: BitBoard> Rules<B> {
    /// The USI text of a move (`7g7f`, `8h2b+`, `P*5e`, `9i8h9g`).
    pub fn move_to_usi(&self, m: Move) -> String {
        let g = self.geometry;
        if let Some(k) = m.dropped() {
            return format!("{}*{}", self.kind(k).code, g.name(m.to()));
        }
        let mut s = g.name(m.origin()).to_string();
        if let Some(mid) = m.mid() {
            s.push_str(&g.name(mid).to_string());
        }
        if let Some(mid2) = m.mid2() {
            s.push_str(&g.name(mid2).to_string());
        }
        s.push_str(&g.name(m.to()).to_string());
        if m.is_promotion() {
            s.push('+');
        }
        s
    }
}

impl<B: BitBoard> Position<B> {
    /// Parses and checks a USI move in one step.
    ///
    /// # Errors
    /// Bad syntax, or the reason the move is illegal.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let usi: UsiMove = text.parse().map_err(MoveError::Syntax)?;
        usi.to_move(self).map_err(MoveError::Illegal)
    }

    /// The USI text of a move.
    pub fn move_to_usi(&self, m: Move) -> String {
        self.rules.move_to_usi(m)
    }
}
