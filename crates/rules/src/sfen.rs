//! SFEN (and dai dai shogi's DSFEN) parsing and writing, with validation that
//! reports every problem at once.

use crate::bitboard::BitBoard;
use crate::piece::{Color, Kind, Piece};
use crate::position::{Hand, Position};
use crate::rules::Rules;
use crate::setup::Setup;
use crate::square::Square;
use std::fmt;

/// How strictly to check a position.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Position, SfenMode, SfenProblem, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let tsume = "4k4/9/4P4/9/9/9/9/9/9 b G 1"; // the attacker has no king
/// let err = Position::from_sfen(rules, tsume, SfenMode::Strict).unwrap_err();
/// assert_eq!(err.problems, [SfenProblem::MissingKing(Color::Black)]);
/// let pos = Position::from_sfen(rules, tsume, SfenMode::Tsume).unwrap();
/// let rook = rules.kind_by_code("R").unwrap();
/// assert_eq!(pos.hand_count(Color::White, rook), 2); // the rest go to the defender
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SfenMode {
    /// Game positions: both kings present, no impossible counts.
    #[default]
    Strict,
    /// Tsume problems: the side to move may have no king; if it has none, the
    /// defender's unlisted pieces are put in the defender's hand.
    Tsume,
}

/// One thing wrong with an SFEN.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Position, SfenMode, SfenProblem, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let nifu = "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1";
/// let err = Position::from_sfen(rules, nifu, SfenMode::Strict).unwrap_err();
/// let problem = SfenProblem::TwoPawns { color: Color::Black, file: 5 };
/// assert_eq!(err.problems, [problem.clone()]);
/// assert_eq!(problem.to_string(), "black has two unpromoted pawns on file 5 (nifu)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenProblem {
    /// Not four space-separated fields.
    FieldCount(usize),
    /// Wrong number of ranks.
    RankCount { expected: usize, found: usize },
    /// A rank does not cover the board exactly.
    RankLength {
        rank: char,
        expected: usize,
        found: usize,
    },
    /// A run of empty squares written as 0 or with a leading zero.
    BadEmptyRun(String),
    /// A piece token the variant does not have.
    UnknownPiece(String),
    /// A `+` before a piece that cannot promote, or a dangling `+`.
    BadPromotion(String),
    /// The side field is not `b` or `w`.
    BadSide(String),
    /// The hand field is malformed.
    BadHand(String),
    /// The move number is not a positive integer.
    BadMoveNumber(String),
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    ExtraKing(Color),
    /// A piece stands where it could never move (pawn or lance on the last rank...).
    DeadPiece { piece: String, square: String },
    /// Two unpromoted pawns of one side on a file.
    TwoPawns { color: Color, file: i32 },
    /// The side not to move is in check.
    OpponentInCheck,
    /// More pieces of a type than the game has.
    TooMany {
        piece: String,
        count: usize,
        max: usize,
    },
    /// Pieces in hand in a game without drops.
    HandWithoutDrops,
    /// A [`Setup`] whose board has the wrong number of squares.
    BoardSize { expected: usize, found: usize },
}

impl fmt::Display for SfenProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SfenProblem::*;
        match self {
            FieldCount(n) => write!(
                f,
                "expected 4 fields (board side hand move-number), found {n}"
            ),
            RankCount { expected, found } => write!(f, "expected {expected} ranks, found {found}"),
            RankLength {
                rank,
                expected,
                found,
            } => {
                write!(f, "rank {rank} covers {found} squares, expected {expected}")
            }
            UnknownPiece(t) => write!(f, "unknown piece '{t}'"),
            BadEmptyRun(t) => write!(
                f,
                "'{t}' is not a count of empty squares (1 or more, no leading zero)"
            ),
            BadPromotion(t) => write!(f, "'{t}' cannot be promoted"),
            BadSide(s) => write!(f, "side to move must be 'b' or 'w', found '{s}'"),
            BadHand(s) => write!(f, "bad hand: {s}"),
            BadMoveNumber(s) => write!(f, "move number must be a positive integer, found '{s}'"),
            MissingKing(c) => write!(f, "{} has no king", c.name()),
            ExtraKing(c) => write!(f, "{} has more than one king", c.name()),
            DeadPiece { piece, square } => write!(f, "{piece} on {square} could never move"),
            TwoPawns { color, file } => {
                write!(
                    f,
                    "{} has two unpromoted pawns on file {file} (nifu)",
                    color.name()
                )
            }
            OpponentInCheck => write!(f, "the side not to move is in check"),
            TooMany { piece, count, max } => {
                write!(
                    f,
                    "{count} pieces of type {piece}, but the game has only {max}"
                )
            }
            HandWithoutDrops => write!(f, "this game has no pieces in hand"),
            BoardSize { expected, found } => {
                write!(f, "the board has {found} squares, expected {expected}")
            }
        }
    }
}

/// An SFEN that was refused, with every reason.
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Position, SfenError, SfenMode, SfenProblem, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let err: SfenError = Position::from_sfen(rules, "9/9/9/9/9/9/9/9/9 x - 1", SfenMode::Strict).unwrap_err();
/// assert_eq!(err.problems[0], SfenProblem::BadSide("x".into()));
/// assert!(err.problems.contains(&SfenProblem::MissingKing(Color::White)));
/// assert!(err.to_string().starts_with("invalid SFEN: side to move must be 'b' or 'w'"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenError {
    /// Every problem found, in the order found.
    pub problems: Vec<SfenProblem>,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid SFEN: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SfenError {}

/// Reads a piece token (`P`, `+p`, `LN`, `+ln`) at the start of `s`.
fn read_token<B: BitBoard>(
    rules: &Rules<B>,
    s: &[u8],
) -> Result<(Piece, usize), (SfenProblem, usize)> {
    let promoted = s.first() == Some(&b'+');
    let start = usize::from(promoted);
    let len = rules
        .variant
        .pieces
        .iter()
        .map(|p| p.code.len())
        .max()
        .unwrap_or(1);
    let end = (start + len).min(s.len());
    let letters = &s[start..end];
    let text = String::from_utf8_lossy(&s[..end]).into_owned();
    if letters.len() < len || !letters.iter().all(u8::is_ascii_alphabetic) {
        let bad_len = end.max(1);
        return Err((SfenProblem::UnknownPiece(text), bad_len));
    }
    let upper = letters.iter().all(u8::is_ascii_uppercase);
    let lower = letters.iter().all(u8::is_ascii_lowercase);
    if !upper && !lower {
        return Err((SfenProblem::UnknownPiece(text), end));
    }
    let code = String::from_utf8_lossy(letters).to_ascii_uppercase();
    let Some(base) = rules.kind_by_code(&code) else {
        return Err((SfenProblem::UnknownPiece(text), end));
    };
    let kind = if promoted {
        match rules.kind(base).promotes_to {
            Some(k) => k,
            None => return Err((SfenProblem::BadPromotion(text), end)),
        }
    } else {
        base
    };
    let color = if upper { Color::Black } else { Color::White };
    Ok((Piece { color, kind }, end))
}

/// Reads an SFEN (or `startpos`) into a [`Setup`], pushing every syntax
/// problem; `None` only when there is nothing to read.
pub(crate) fn parse_setup<B: BitBoard>(
    rules: &Rules<B>,
    sfen: &str,
    problems: &mut Vec<SfenProblem>,
) -> Option<Setup> {
    let sfen = sfen.trim();
    let sfen = if sfen == "startpos" {
        rules.variant.start_sfen
    } else {
        sfen
    };
    let fields: Vec<&str> = sfen.split_ascii_whitespace().collect();
    if fields.len() != 4 && fields.len() != 3 {
        problems.push(SfenProblem::FieldCount(fields.len()));
        if fields.is_empty() {
            return None;
        }
    }
    let g = rules.geometry;
    let mut setup = Setup::empty(g);

    // Board.
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != g.ranks as usize {
        problems.push(SfenProblem::RankCount {
            expected: g.ranks as usize,
            found: rows.len(),
        });
    }
    for (r, row) in rows.iter().enumerate().take(g.ranks as usize) {
        let bytes = row.as_bytes();
        let mut i = 0;
        let mut file = g.files as i32; // leftmost first
        let mut covered = 0usize;
        let mut row_ok = true;
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let n: usize = row[start..i].parse().unwrap_or(usize::MAX);
                if n == 0 || row[start..i].starts_with('0') {
                    problems.push(SfenProblem::BadEmptyRun(row[start..i].to_string()));
                    row_ok = false;
                }
                covered = covered.saturating_add(n);
                file = file.saturating_sub(n.min(1000) as i32);
                continue;
            }
            match read_token(rules, &bytes[i..]) {
                Ok((piece, len)) => {
                    i += len;
                    covered = covered.saturating_add(1);
                    if let Some(sq) = g.square(file, r as i32) {
                        setup.put(sq, piece.color, piece.kind);
                    }
                    file = file.saturating_sub(1);
                }
                Err((problem, len)) => {
                    problems.push(problem);
                    i += len.max(1);
                    covered = covered.saturating_add(1);
                    file = file.saturating_sub(1);
                    row_ok = false;
                }
            }
        }
        if covered != g.files as usize && row_ok {
            problems.push(SfenProblem::RankLength {
                rank: (b'a' + r as u8) as char,
                expected: g.files as usize,
                found: covered,
            });
        }
    }

    // Side.
    match fields.get(1).copied() {
        Some("b") => setup.side = Color::Black,
        Some("w") => setup.side = Color::White,
        Some(s) => problems.push(SfenProblem::BadSide(s.to_string())),
        None => problems.push(SfenProblem::BadSide(String::new())),
    }

    // Hand.
    if let Some(&hand) = fields.get(2) {
        if hand != "-" {
            if !rules.variant.drops {
                problems.push(SfenProblem::HandWithoutDrops);
            } else {
                parse_hand(rules, hand, &mut setup.hands, problems);
            }
        }
    }

    // Move number.
    if let Some(&n) = fields.get(3) {
        match n.parse::<u32>() {
            Ok(v) if v >= 1 && n.bytes().all(|b| b.is_ascii_digit()) => setup.move_number = v,
            _ => problems.push(SfenProblem::BadMoveNumber(n.to_string())),
        }
    }
    Some(setup)
}

/// The SFEN token of a piece (`+P`, `ln`).
fn token<B: BitBoard>(rules: &Rules<B>, p: Piece) -> String {
    let code = &rules.kind(p.kind).code;
    match p.color {
        Color::Black => code.clone(),
        Color::White => code.to_ascii_lowercase(),
    }
}

/// Writes a board, hands, side and move number as SFEN.
pub(crate) fn write_sfen<B: BitBoard>(
    rules: &Rules<B>,
    piece_at: impl Fn(Square) -> Option<Piece>,
    hands: &[Hand; 2],
    side: Color,
    move_number: u32,
) -> String {
    let g = rules.geometry;
    let mut s = String::new();
    for r in 0..g.ranks as i32 {
        if r > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for file in (1..=g.files as i32).rev() {
            let sq = g.square(file, r).expect("on board");
            match piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&token(rules, p));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
    }
    s.push(' ');
    s.push(side.sfen_char());
    s.push(' ');
    let mut hand = String::new();
    for c in Color::ALL {
        let held = hands[c.index()].iter().take(rules.n_base);
        for (k, &n) in held.enumerate() {
            if n == 0 {
                continue;
            }
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            hand.push_str(&token(
                rules,
                Piece {
                    color: c,
                    kind: Kind(k as u8),
                },
            ));
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    s.push_str(&hand);
    s.push(' ');
    s.push_str(&move_number.to_string());
    s
}

impl<B: BitBoard> Position<B> {
    /// Parses an SFEN. Also accepts the keyword `startpos`. The SFEN is read
    /// into a [`Setup`], which is then checked as by [`Position::from_setup`].
    ///
    /// # Errors
    /// Every problem found, at once.
    pub fn from_sfen(
        rules: &'static Rules<B>,
        sfen: &str,
        mode: SfenMode,
    ) -> Result<Self, SfenError> {
        let mut problems = Vec::new();
        let Some(setup) = parse_setup(rules, sfen, &mut problems) else {
            return Err(SfenError { problems });
        };
        Position::build_checked(rules, &setup, mode, problems)
    }

    /// Checks kings, dead pieces, nifu, counts and check; fills a tsume defender's hand.
    pub(crate) fn validate(&mut self, mode: SfenMode, problems: &mut Vec<SfenProblem>) {
        let r = self.rules;
        let g = r.geometry;
        if let Some(royal) = r.royal {
            for c in Color::ALL {
                let n = self.pieces(c, royal).count();
                if n > 1 {
                    problems.push(SfenProblem::ExtraKing(c));
                } else if n == 0 {
                    let excused = mode == SfenMode::Tsume && c == self.side;
                    if !excused {
                        problems.push(SfenProblem::MissingKing(c));
                    }
                }
            }
        }
        if r.variant.dead_pieces_illegal {
            for sq in g.all() {
                if let Some(p) = self.piece_at(sq) {
                    if r.dead_squares(p.color, p.kind).has(sq) {
                        problems.push(SfenProblem::DeadPiece {
                            piece: self.token(p),
                            square: g.name(sq).to_string(),
                        });
                    }
                }
            }
        }
        if let (true, Some(pawn)) = (r.variant.nifu, r.pawn) {
            for c in Color::ALL {
                for file in 1..=g.files as i32 {
                    let sq = g.square(file, 0).expect("on board");
                    if (self.pieces(c, pawn) & r.file_mask[sq.index()]).count() > 1 {
                        problems.push(SfenProblem::TwoPawns { color: c, file });
                    }
                }
            }
        }
        // Counts against the full set (taken from the start position).
        let full = full_set(r);
        let mut have = vec![0usize; r.n_base.max(1)];
        for sq in g.all() {
            if let Some(p) = self.piece_at(sq) {
                have[r.kind(p.kind).base.index()] += 1;
            }
        }
        for c in Color::ALL {
            for (k, n) in self.hands[c.index()].iter().enumerate().take(r.n_base) {
                have[k] += *n as usize;
            }
        }
        let attacker_kingless = mode == SfenMode::Tsume && self.king_square(self.side).is_none();
        for k in 0..r.n_base.min(have.len()) {
            // Without drops, composed positions (more lions than the game has) are
            // fine: there is no hand whose count could be impossible.
            if r.variant.drops && have[k] > full[k] && Some(Kind(k as u8)) != r.royal {
                problems.push(SfenProblem::TooMany {
                    piece: r.kinds[k].code.clone(),
                    count: have[k],
                    max: full[k],
                });
            } else if attacker_kingless && r.variant.drops && Some(Kind(k as u8)) != r.royal {
                // Tsume convention: the defender holds every piece not shown.
                self.hands[(!self.side).index()][k] += (full[k] - have[k]) as u8;
            }
        }
        // Reported with any other problem, as long as each side has one king.
        let one_king_each = r
            .royal
            .is_some_and(|k| Color::ALL.iter().all(|&c| self.pieces(c, k).count() == 1));
        if one_king_each && self.is_king_attacked(!self.side) {
            problems.push(SfenProblem::OpponentInCheck);
        }
    }

    /// The SFEN token of a piece (`+P`, `ln`).
    pub fn token(&self, p: Piece) -> String {
        token(self.rules, p)
    }

    /// Writes the position as SFEN.
    pub fn to_sfen(&self) -> String {
        write_sfen(
            self.rules,
            |sq| self.piece_at(sq),
            &self.hands,
            self.side,
            self.move_number,
        )
    }
}

/// How many of each base type the game has (both sides together).
pub(crate) fn full_set<B: BitBoard>(rules: &Rules<B>) -> Vec<usize> {
    let mut counts = vec![0usize; rules.n_base.max(1)];
    let board = rules.variant.start_sfen.split(' ').next().unwrap_or("");
    let bytes = board.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() || bytes[i] == b'+' {
            if let Ok((p, len)) = read_token(rules, &bytes[i..]) {
                counts[rules.kind(p.kind).base.index()] += 1;
                i += len;
                continue;
            }
        }
        i += 1;
    }
    counts
}

fn parse_hand<B: BitBoard>(
    rules: &Rules<B>,
    hand: &str,
    hands: &mut [Hand; 2],
    problems: &mut Vec<SfenProblem>,
) {
    let bytes = hand.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let count: usize = if i > start {
            match hand[start..i].parse() {
                Ok(n) if (1..=200).contains(&n) => n,
                _ => {
                    problems.push(SfenProblem::BadHand(format!(
                        "bad count '{}'",
                        &hand[start..i]
                    )));
                    return;
                }
            }
        } else {
            1
        };
        if i >= bytes.len() {
            problems.push(SfenProblem::BadHand(format!("'{hand}' ends with a count")));
            return;
        }
        match read_token(rules, &bytes[i..]) {
            Ok((p, len)) => {
                i += len;
                let info = rules.kind(p.kind);
                if info.promoted || info.royal {
                    problems.push(SfenProblem::BadHand(format!(
                        "'{}' cannot be in hand",
                        &hand[i - len..i]
                    )));
                    continue;
                }
                let slot = &mut hands[p.color.index()][p.kind.index()];
                *slot = slot.saturating_add(count.min(255) as u8);
            }
            Err((_, len)) => {
                problems.push(SfenProblem::BadHand(format!(
                    "unknown piece '{}'",
                    String::from_utf8_lossy(&bytes[i..(i + len.max(1)).min(bytes.len())])
                )));
                i += len.max(1);
            }
        }
    }
}
