//! Move text: Japanese (`▲７六歩`, `△同　角成`, `▲５八金右`) and Western
//! (Hodges: `P-7f`, `Bx8h+`, `G6i-5h`, `P*5e`, `=` for a declined promotion)
//! for all three games, and move lists in either style.
//!
//! Dai dai shogi (`rules/dai-dai-shogi.md` §8, §12): Western text uses the
//! two-letter codes (`LNx3h-2i`; the seed's abbreviations such as `Ln` are
//! read too), `!` for igui (`LNx!9d`) and for a pass (`LN-!9h`, written with the
//! neighbour the USI text uses), both squares for a double capture
//! (`LNx3hx2i`), and a trailing `+` when the move promotes. Japanese text
//! writes squares as `１２十一` (file in full-width digits, rank in kanji) and
//! a lion's double move with its origin and middle squares in parentheses, as
//! KIF writes every origin: `９七獅子成(0909,0908)`, igui `９九獅子成(0909,0908)`.

use crate::names::names;
use crate::record::{GameResult, ParseError, Record};
use banmen_rules::with_rules;
use banmen_rules::{
    rules_for, BitBoard, Color, Geometry, IllegalMove, Kind, Move, MoveError, Position, Rules,
    Square, VariantName,
};

/// Why move text (Japanese or Western) is not one legal move in the
/// position: the text cannot be read, names a piece or square the game does
/// not have, fits no legal move (with the rules core's reason when the text
/// names one move), or fits several.
///
/// ```
/// use banmen_formats::notation::{parse_japanese, parse_western, NotationError};
/// use banmen_rules::{rules_9x9, IllegalMove, Position, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
/// assert!(matches!(parse_western(&pos, "Q-5e"),
///     Err(NotationError::UnknownPiece { piece, .. }) if piece == "Q"));
/// let err = parse_western(&pos, "Bx2b").unwrap_err();
/// assert!(matches!(err, NotationError::Illegal { reason: IllegalMove::CannotMoveThere, .. }));
/// assert_eq!(err.to_string(), "'Bx2b' is not a legal move: the piece cannot move there");
/// assert!(matches!(parse_western(&pos, "P-7e"), Err(NotationError::NoneCanMove { .. })));
/// let err = parse_japanese(&pos, "▲５八金", None).unwrap_err();
/// assert!(matches!(&err, NotationError::Ambiguous { candidates, .. }
///     if candidates == &["５八金右", "５八金左"]));
/// assert!(!err.is_not_legal()); // read, and it fits two legal moves
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotationError {
    /// The side mark (▲/△) names the side not to move.
    #[error("'{text}': it is {}'s move", .to_move.name())]
    WrongSide {
        /// The move text.
        text: String,
        /// The side to move.
        to_move: Color,
    },
    /// `同` (same square) before any move.
    #[error("同 with no previous move in '{text}'")]
    NoPreviousMove {
        /// The move text.
        text: String,
    },
    /// Japanese text that does not start with a square.
    #[error("no square in '{text}'")]
    NoSquare {
        /// The move text.
        text: String,
    },
    /// A square that is not on this board.
    #[error("square off the board in '{text}'")]
    OffBoard {
        /// The move text.
        text: String,
    },
    /// Western text with a square that cannot be read or is off the board.
    #[error("bad square in '{text}'")]
    BadSquare {
        /// The move text.
        text: String,
    },
    /// Japanese text without a piece name after the square.
    #[error("no piece name in '{text}'")]
    NoPieceName {
        /// The move text.
        text: String,
    },
    /// A piece name that the game does not have (`Q`, or a dai dai shogi
    /// name in a shogi game).
    #[error("unknown piece '{piece}' in '{text}'")]
    UnknownPiece {
        /// The move text.
        text: String,
        /// The piece as written.
        piece: String,
    },
    /// A KIF origin in parentheses that names no squares of this board.
    #[error("bad origin in '{text}'")]
    BadOrigin {
        /// The move text.
        text: String,
    },
    /// `不` without `成` after it.
    #[error("'不' without '成' in '{text}'")]
    IncompleteNonPromotion {
        /// The move text.
        text: String,
    },
    /// A character that Japanese move text does not use there.
    #[error("unexpected '{found}' in '{text}'")]
    Unexpected {
        /// The move text.
        text: String,
        /// The character.
        found: char,
    },
    /// Text that is not Western move text (no piece letter, no destination,
    /// or something after the move).
    #[error("'{text}' is not Western move text")]
    NotWestern {
        /// The move text.
        text: String,
    },
    /// The text names one move, and the rules refuse it for this reason.
    #[error("'{text}' is not a legal move: {reason}")]
    Illegal {
        /// The move text.
        text: String,
        /// Why the rules refuse the move.
        reason: IllegalMove,
    },
    /// None of the side's pieces of the kind written can make the move.
    #[error("'{text}' is not a legal move: none of your pieces {piece} can move to {to}")]
    NoneCanMove {
        /// The move text.
        text: String,
        /// The piece as written.
        piece: String,
        /// The destination as written.
        to: String,
    },
    /// No legal move fits the text.
    #[error("'{text}' is not a legal move")]
    NoLegalMove {
        /// The move text.
        text: String,
    },
    /// Several legal moves fit the text.
    #[error("'{text}' is ambiguous: it could be {}", .candidates.join(" or "))]
    Ambiguous {
        /// The move text.
        text: String,
        /// The moves it fits, each written in full in the same notation.
        candidates: Vec<String>,
    },
}

impl NotationError {
    /// Whether the text was read but is no legal move (as opposed to text that
    /// cannot be read, or that fits several moves).
    pub fn is_not_legal(&self) -> bool {
        matches!(
            self,
            NotationError::Illegal { .. }
                | NotationError::NoneCanMove { .. }
                | NotationError::NoLegalMove { .. }
        )
    }
}

/// Why no legal move fits text that was read: the rules core's reason when
/// the text names one move (a drop, a move with its origin, or the only piece
/// of its kind), else [`NotationError::NoneCanMove`] or
/// [`NotationError::NoLegalMove`].
#[allow(clippy::too_many_arguments)]
fn not_legal<B: BitBoard>(
    pos: &Position<B>,
    text: &str,
    piece: &str,
    kind: Kind,
    origin: Option<Square>,
    to: Square,
    to_text: String,
    drop: bool,
    promote: bool,
) -> NotationError {
    let rules = pos.rules();
    let g = rules.geometry;
    let usi = if drop {
        format!("{}*{}", rules.kind(kind).code, g.name(to))
    } else {
        let from = match origin {
            Some(f) => f,
            None => {
                let own: Vec<Square> = pos.pieces(pos.side_to_move(), kind).squares().collect();
                match own.as_slice() {
                    [one] => *one,
                    [] => {
                        return NotationError::NoLegalMove {
                            text: text.to_string(),
                        }
                    }
                    // Some can, but not as written (a direction word, a
                    // promotion): no reason to give.
                    _ if pos.legal_moves().iter().any(|m| {
                        m.to() == to
                            && !m.is_drop()
                            && pos.moving_piece(*m).map(|p| p.kind) == Some(kind)
                    }) =>
                    {
                        return NotationError::NoLegalMove {
                            text: text.to_string(),
                        }
                    }
                    _ => {
                        return NotationError::NoneCanMove {
                            text: text.to_string(),
                            piece: piece.to_string(),
                            to: to_text,
                        }
                    }
                }
            }
        };
        format!(
            "{}{}{}",
            g.name(from),
            g.name(to),
            if promote { "+" } else { "" }
        )
    };
    match pos.parse_move(&usi) {
        Err(MoveError::Illegal(reason)) => NotationError::Illegal {
            text: text.to_string(),
            reason,
        },
        _ => NotationError::NoLegalMove {
            text: text.to_string(),
        },
    }
}

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A rank in kanji numerals (`七`, `十`, `十七`).
fn kanji_rank(n: i32) -> String {
    let ones = |d: i32| RANKS[(d - 1) as usize];
    match n {
        1..=9 => ones(n).to_string(),
        10 => "十".into(),
        11..=19 => format!("十{}", ones(n - 10)),
        _ => n.to_string(),
    }
}

/// `７六`, and on 17x17 `１２十一`.
pub fn japanese_square<B: BitBoard>(pos: &Position<B>, sq: Square) -> String {
    let g = pos.rules().geometry;
    let f = g.file(sq);
    let r = g.rank(sq) + 1;
    let file: String = f
        .to_string()
        .chars()
        .map(|c| match c {
            '1'..='9' => FILES[(c as u8 - b'1') as usize],
            _ => '０',
        })
        .collect();
    format!("{file}{}", kanji_rank(r))
}

fn digit(c: char) -> Option<i32> {
    if c == '０' {
        return Some(0);
    }
    if let Some(i) = FILES.iter().position(|&x| x == c) {
        return Some(i as i32 + 1);
    }
    if let Some(i) = RANKS.iter().position(|&x| x == c) {
        return Some(i as i32 + 1);
    }
    c.to_digit(10).map(|d| d as i32)
}

/// Reads a Japanese or ASCII square (`７六`, `76`) at the start of `s`.
pub(crate) fn parse_japanese_square(s: &str) -> Option<((i32, i32), &str)> {
    let mut it = s.char_indices();
    let (_, a) = it.next()?;
    let (_, b) = it.next()?;
    let rest = it.next().map(|(i, _)| &s[i..]).unwrap_or("");
    Some((
        (digit(a).filter(|&d| d > 0)?, digit(b).filter(|&d| d > 0)?),
        rest,
    ))
}

/// Reads a square on a board of any size: on 9x9 as [`parse_japanese_square`];
/// on larger boards one or two (full-width) digits for the file and a kanji
/// numeral for the rank (`１２十一`).
fn parse_square_in(g: Geometry, s: &str) -> Option<((i32, i32), &str)> {
    if g.coordinate_digits() == 1 {
        return parse_japanese_square(s);
    }
    let is_num_digit = |c: char| c.is_ascii_digit() || ('０'..='９').contains(&c);
    let file_end = s
        .char_indices()
        .find(|(_, c)| !is_num_digit(*c))
        .map_or(s.len(), |(i, _)| i);
    let file_text = &s[..file_end];
    if file_text.is_empty() || file_text.chars().count() > 2 {
        return None;
    }
    let mut file = 0;
    for c in file_text.chars() {
        file = file * 10 + digit(c)?;
    }
    let rest = &s[file_end..];
    let rank_end = rest
        .char_indices()
        .find(|(_, c)| *c != '十' && !RANKS.contains(c))
        .map_or(rest.len(), |(i, _)| i);
    let rank_text = &rest[..rank_end];
    let rank = match rank_text.chars().collect::<Vec<_>>().as_slice() {
        [c] if *c == '十' => 10,
        [c] => digit(*c)?,
        ['十', c] => 10 + digit(*c)?,
        _ => return None,
    };
    (file > 0).then_some(((file, rank), &rest[rank_end..]))
}

/// The middle squares of a move (a lion's double move, a lion dog's line move).
pub(crate) fn mids(m: Move) -> Vec<Square> {
    m.mid().into_iter().chain(m.mid2()).collect()
}

/// A lion's pass: back to its square through an empty neighbour.
fn is_pass<B: BitBoard>(pos: &Position<B>, m: Move) -> bool {
    m.from() == Some(m.to()) && m.mid().is_some_and(|x| pos.piece_at(x).is_none())
}

fn adjacent(g: Geometry, a: Square, b: Square) -> bool {
    a != b && (g.file(a) - g.file(b)).abs() <= 1 && (g.rank(a) - g.rank(b)).abs() <= 1
}

/// Whether `m` passes through the `written` middle squares (a pass may name any
/// empty neighbour).
pub(crate) fn same_mids<B: BitBoard>(pos: &Position<B>, m: Move, written: &[Square]) -> bool {
    if mids(m) == written {
        return true;
    }
    let g = pos.rules().geometry;
    is_pass(pos, m)
        && matches!(written, [w] if pos.piece_at(*w).is_none()
            && m.from().is_some_and(|f| adjacent(g, f, *w)))
}

/// The digits KIF writes for a square in an origin: `77` on 9x9, `0909` on 17x17.
fn origin_digits(g: Geometry, sq: Square) -> String {
    let d = g.coordinate_digits();
    format!("{:0d$}{:0d$}", g.file(sq), g.rank(sq) + 1)
}

/// `(77)`, `(0909,0908)`.
fn origin_group(g: Geometry, m: Move) -> String {
    let mut parts = vec![];
    if let Some(f) = m.from() {
        parts.push(origin_digits(g, f));
    }
    parts.extend(mids(m).into_iter().map(|x| origin_digits(g, x)));
    format!("({})", parts.join(","))
}

/// Reads the inside of an origin group: the squares it names.
fn parse_origin_group(g: Geometry, inner: &str) -> Option<Vec<Square>> {
    let mut out = vec![];
    for part in inner.split([',', '，', ' ']).filter(|p| !p.is_empty()) {
        let d: Vec<i32> = part
            .chars()
            .map(|c| digit(c).filter(|_| !RANKS.contains(&c)))
            .collect::<Option<_>>()?;
        let (f, r) = match d.as_slice() {
            [f, r] => (*f, *r),
            [f1, f2, r1, r2] if g.coordinate_digits() == 2 => (f1 * 10 + f2, r1 * 10 + r2),
            _ => return None,
        };
        out.push(g.square(f, r - 1)?);
    }
    (!out.is_empty()).then_some(out)
}

fn piece_code<B: BitBoard>(pos: &Position<B>, k: Kind) -> &str {
    &pos.rules().kind(k).code
}

fn forward<B: BitBoard>(pos: &Position<B>, c: Color, from: Square, to: Square) -> i32 {
    let g = pos.rules().geometry;
    let d = g.rank(from) - g.rank(to);
    match c {
        Color::Black => d,
        Color::White => -d,
    }
}

/// How far to the mover's right a square is (larger = more to the right).
fn rightness<B: BitBoard>(pos: &Position<B>, c: Color, sq: Square) -> i32 {
    let f = pos.rules().geometry.file(sq);
    match c {
        Color::Black => -f,
        Color::White => f,
    }
}

/// Board moves of the same kind to the same square (one per origin): the
/// legal ones, and those a pin or a check makes illegal. A pinned twin still
/// counts, as tsshogi, Kifu for Windows and cshogi count it: their KI2
/// readers look for every piece that attacks the square, so `５八金右` stays
/// `右` when the left gold is pinned.
fn rivals<B: BitBoard>(pos: &Position<B>, m: Move) -> Vec<Move> {
    let kind = pos.moving_piece(m).map(|p| p.kind);
    let mut out: Vec<Move> = Vec::new();
    for &x in pos.legal_moves().iter() {
        if x.to() == m.to()
            && x.from().is_some()
            && pos.moving_piece(x).map(|p| p.kind) == kind
            && !out.iter().any(|y| y.from() == x.from())
        {
            out.push(x);
        }
    }
    let Some(kind) = kind else {
        return out;
    };
    let c = pos.side_to_move();
    let twins = pos.attackers_to(m.to(), c, pos.occupied()) & pos.pieces(c, kind);
    for from in twins.squares() {
        if out.iter().any(|y| y.from() == Some(from)) || m.from() == Some(from) {
            continue;
        }
        let pinned = [false, true].into_iter().find_map(|promote| {
            let x = Move::board(from, m.to(), promote);
            let refused = pos.parse_move(&pos.move_to_usi(x));
            matches!(refused, Err(MoveError::Illegal(IllegalMove::IgnoresCheck))).then_some(x)
        });
        out.extend(pinned);
    }
    out
}

fn promotion_optional<B: BitBoard>(pos: &Position<B>, m: Move) -> bool {
    match m.from() {
        None => false,
        Some(from) => {
            let legal = pos.legal_moves();
            legal.contains(&Move::board(from, m.to(), true))
                && legal.contains(&Move::board(from, m.to(), false))
        }
    }
}

fn direction_char(fwd: i32) -> char {
    match fwd.signum() {
        1 => '上',
        -1 => '引',
        _ => '寄',
    }
}

/// The relative-position words (右 左 直 上 引 寄) that tell `m` from other
/// moves of the same kind to the same square; empty if none are needed.
fn disambiguation<B: BitBoard>(pos: &Position<B>, m: Move) -> String {
    let Some(from) = m.from() else {
        return String::new();
    };
    let c = pos.side_to_move();
    let all = rivals(pos, m);
    if all.len() <= 1 {
        return String::new();
    }
    let code = pos
        .moving_piece(m)
        .map(|p| piece_code(pos, p.kind).to_string())
        .unwrap_or_default();
    let big = code == "+R" || code == "+B";
    let g = pos.rules().geometry;
    let dir = |x: Move| x.from().map_or(0, |f| forward(pos, c, f, x.to())).signum();
    let straight = |x: Move| {
        x.from()
            .is_some_and(|f| g.file(f) == g.file(x.to()) && forward(pos, c, f, x.to()) > 0)
    };
    let my_dir = dir(m);
    // 直: straight forward, when another could also move forward.
    if !big && straight(m) {
        return "直".into();
    }
    let same_dir: Vec<Move> = all.iter().copied().filter(|&x| dir(x) == my_dir).collect();
    if same_dir.len() == 1 {
        return direction_char(my_dir).to_string();
    }
    let mine = rightness(pos, c, from);
    let others: Vec<i32> = same_dir
        .iter()
        .filter(|x| x.from() != Some(from))
        .filter_map(|x| x.from())
        .map(|f| rightness(pos, c, f))
        .collect();
    let side = if others.iter().all(|&o| o < mine) {
        "右"
    } else if others.iter().all(|&o| o > mine) {
        "左"
    } else {
        // In the middle of three: only the direction can tell.
        ""
    };
    let need_dir = same_dir.len() < all.len();
    let mut s = side.to_string();
    if need_dir || side.is_empty() {
        s.push(direction_char(my_dir));
    }
    s
}

/// A move in Japanese notation without the side mark: `７六歩`, `同　角成`,
/// `５八金右`, `５五角打`. `previous` is the last move's destination (for 同).
/// `kif` writes the KIF form: origin in parentheses and 打 on every drop,
/// without relative words and without `不成`. A lion's double move always carries its origin and
/// middle squares (`(0909,0908)`); so does any move the relative words cannot
/// tell from the others.
pub fn to_japanese<B: BitBoard>(
    pos: &Position<B>,
    m: Move,
    previous: Option<Square>,
    kif: bool,
) -> String {
    let rules = pos.rules();
    let g = rules.geometry;
    let mut s = if previous == Some(m.to()) {
        "同".to_string()
    } else {
        japanese_square(pos, m.to())
    };
    let kind = pos.moving_piece(m).map(|p| p.kind);
    let name = kind
        .and_then(|k| names(rules.variant.name).kanji(piece_code(pos, k)))
        .unwrap_or("？");
    // KIF always writes 同 and a full-width space (`同　成銀(31)`, as Kifu for
    // Windows and cshogi do); move text only before a one-character name.
    if s == "同" && (kif || name.chars().count() == 1) {
        s.push('　');
    }
    s.push_str(name);
    let double = m.mid().is_some();
    if !kif && !double {
        s.push_str(&disambiguation(pos, m));
    }
    // KIF writes no 不成: the origin already says the piece stayed
    // unpromoted, and Kifu for Windows writes `８二銀(71)`; tsshogi, cshogi and
    // json-kifu-format do not read `不成` there. KI2 and move text need it.
    if m.is_promotion() {
        s.push('成');
    } else if !kif && promotion_optional(pos, m) {
        s.push_str("不成");
    }
    match m.from() {
        None => {
            // 打 when a piece on the board could go there too, pinned or not
            // (as `rivals` counts).
            let board_rival = !rivals(pos, m).is_empty();
            if kif || board_rival {
                s.push('打');
            }
        }
        Some(_) if kif || double => s.push_str(&origin_group(g, m)),
        Some(_) => {
            if parse_japanese(pos, &s, previous).ok() != Some(m) {
                s.push_str(&origin_group(g, m));
            }
        }
    }
    s
}

/// The side mark: ▲ for Black, △ for White.
pub fn mark(c: Color) -> char {
    match c {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// Keeps the candidates of the promotion written (`Some`), or without one the
/// non-promotions if there are any.
fn filter_promotion(cands: &mut Vec<Move>, promote: Option<bool>) {
    match promote {
        Some(p) => cands.retain(|m| m.is_promotion() == p),
        None => {
            if cands.iter().any(|m| !m.is_promotion()) {
                cands.retain(|m| !m.is_promotion());
            }
        }
    }
}

/// Parses Japanese move text (`▲７六歩`, `△同　角成`, `５八金右`, `７六歩(77)`,
/// `９七獅子成(0909,0908)`) against the legal moves. `previous` is the last
/// move's destination.
///
/// # Errors
/// Why the text is not one legal move.
pub fn parse_japanese<B: BitBoard>(
    pos: &Position<B>,
    text: &str,
    previous: Option<Square>,
) -> Result<Move, NotationError> {
    let rules = pos.rules();
    let g = rules.geometry;
    let c = pos.side_to_move();
    let text_of = || text.to_string();
    let mut s = text.trim();
    let marked = match s.chars().next() {
        Some('▲' | '☗' | '▼') => Some(Color::Black),
        Some('△' | '☖' | '▽') => Some(Color::White),
        _ => None,
    };
    if marked.is_some_and(|m| m != c) {
        return Err(NotationError::WrongSide {
            text: text_of(),
            to_move: c,
        });
    }
    for m in ['▲', '△', '☗', '☖', '▽', '▼'] {
        s = s.trim_start_matches(m);
    }
    let (to, rest) = if let Some(r) = s.strip_prefix('同') {
        let to = previous.ok_or_else(|| NotationError::NoPreviousMove { text: text_of() })?;
        (to, r.trim_start_matches(['　', ' ']))
    } else {
        let ((f, r), rest) =
            parse_square_in(g, s).ok_or_else(|| NotationError::NoSquare { text: text_of() })?;
        let to = g
            .square(f, r - 1)
            .ok_or_else(|| NotationError::OffBoard { text: text_of() })?;
        (to, rest.trim_start_matches(['　', ' ']))
    };
    let (code, after_name) = names(rules.variant.name)
        .parse_kanji(rest)
        .ok_or_else(|| NotationError::NoPieceName { text: text_of() })?;
    let piece = &rest[..rest.len() - after_name.len()];
    let mut rest = after_name;
    let kind = rules
        .kind_by_code(code)
        .ok_or_else(|| NotationError::UnknownPiece {
            text: text_of(),
            piece: piece.to_string(),
        })?;
    // An origin in parentheses (KIF), with a double move's middle squares.
    let mut origin = None;
    let mut written_mids: Option<Vec<Square>> = None;
    if let Some(open) = rest.find(['(', '（']) {
        let inner = rest[open..]
            .trim_start_matches(['(', '（'])
            .trim_end()
            .trim_end_matches([')', '）']);
        let squares = parse_origin_group(g, inner)
            .ok_or_else(|| NotationError::BadOrigin { text: text_of() })?;
        origin = Some(squares[0]);
        written_mids = Some(squares[1..].to_vec());
        rest = rest[..open].trim_end();
    }
    let mut promote = None;
    let mut drop = false;
    let mut words: Vec<char> = Vec::new();
    let mut chars = rest.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '不' => {
                if chars.next() != Some('成') {
                    return Err(NotationError::IncompleteNonPromotion { text: text_of() });
                }
                promote = Some(false);
            }
            '生' => promote = Some(false),
            '成' => promote = Some(true),
            '打' => drop = true,
            '右' | '左' | '直' | '上' | '引' | '寄' | '行' | '入' => words.push(ch),
            ' ' | '　' => {}
            _ => {
                return Err(NotationError::Unexpected {
                    text: text_of(),
                    found: ch,
                })
            }
        }
    }
    let mut cands: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m.to() == to && pos.moving_piece(m).map(|p| p.kind) == Some(kind))
        .filter(|&m| origin.is_none() || m.from() == origin)
        .filter(|&m| match &written_mids {
            Some(w) => same_mids(pos, m, w),
            None => m.mid().is_none(),
        })
        .collect();
    if drop {
        cands.retain(|m| m.is_drop());
    } else if cands.iter().any(|m| !m.is_drop()) {
        cands.retain(|m| !m.is_drop());
    }
    filter_promotion(&mut cands, promote);
    // Direction words first, then right/left among what is left.
    words.sort_by_key(|w| matches!(w, '右' | '左'));
    for w in words {
        let dir = |m: &Move| m.from().map_or(0, |f| forward(pos, c, f, m.to()));
        match w {
            '上' | '行' | '入' => cands.retain(|m| dir(m) > 0),
            '引' => cands.retain(|m| dir(m) < 0),
            '寄' => cands.retain(|m| dir(m) == 0),
            '直' => cands
                .retain(|m| dir(m) > 0 && m.from().is_some_and(|f| g.file(f) == g.file(m.to()))),
            '右' | '左' => {
                let key = |m: &Move| m.from().map_or(0, |f| rightness(pos, c, f));
                let best = if w == '右' {
                    cands.iter().map(key).max()
                } else {
                    cands.iter().map(key).min()
                };
                cands.retain(|m| Some(key(m)) == best);
            }
            _ => {}
        }
    }
    match cands.as_slice() {
        [m] => Ok(*m),
        [] => {
            // Without 打, a drop when no piece of the kind stands on the board.
            let drop = drop || pos.pieces(c, kind).is_empty() && pos.hand_count(c, kind) > 0;
            let named = written_mids.as_ref().is_none_or(|w| w.is_empty());
            Err(if named {
                not_legal(
                    pos,
                    text,
                    piece,
                    kind,
                    origin,
                    to,
                    japanese_square(pos, to),
                    drop,
                    promote == Some(true),
                )
            } else {
                NotationError::NoLegalMove { text: text_of() }
            })
        }
        _ => Err(NotationError::Ambiguous {
            text: text_of(),
            candidates: cands
                .iter()
                .map(|&m| to_japanese(pos, m, previous, false))
                .collect(),
        }),
    }
}

/// A move in Western (Hodges) notation: `P-7f`, `Bx8h+`, `G6i-5h`, `P*5e`,
/// `N-7c=`; dai dai `LNx3h-2i`, `LNx3hx2i`, igui `LNx!9d`, pass `LN-!9h`.
pub fn to_western<B: BitBoard>(pos: &Position<B>, m: Move) -> String {
    let g = pos.rules().geometry;
    let mut s = pos
        .moving_piece(m)
        .map(|p| pos.rules().kind(p.kind).western.clone())
        .unwrap_or_default();
    let Some(from) = m.from() else {
        s.push('*');
        s.push_str(&g.name(m.to()).to_string());
        return s;
    };
    if rivals(pos, m).len() > 1 {
        s.push_str(&g.name(from).to_string());
    }
    let sep = |sq: Square| if pos.piece_at(sq).is_some() { 'x' } else { '-' };
    let ms = mids(m);
    match ms.first() {
        Some(&first) if from == m.to() => {
            s.push(sep(first));
            s.push('!');
            s.push_str(&g.name(first).to_string());
        }
        _ => {
            for &x in &ms {
                s.push(sep(x));
                s.push_str(&g.name(x).to_string());
            }
            s.push(sep(m.to()));
            s.push_str(&g.name(m.to()).to_string());
        }
    }
    if m.is_promotion() {
        s.push('+');
    } else if promotion_optional(pos, m) {
        s.push('=');
    }
    s
}

/// Reads a Western square at the start of `s`: digits and a rank letter, or
/// on 9x9 two digits (`76`).
fn western_square(g: Geometry, s: &str) -> Option<(Square, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let after = &s[digits..];
    match after.chars().next() {
        Some(c) if c.is_ascii_lowercase() && c != 'x' => {
            Some((g.parse_square(&s[..digits + 1])?, &after[1..]))
        }
        _ if digits == 2 && g.coordinate_digits() == 1 => {
            let b = s.as_bytes();
            Some((
                g.square((b[0] - b'0') as i32, (b[1] - b'0') as i32 - 1)?,
                after,
            ))
        }
        _ => None,
    }
}

/// Parses Western move text against the legal moves.
///
/// # Errors
/// Why the text is not one legal move.
pub fn parse_western<B: BitBoard>(pos: &Position<B>, text: &str) -> Result<Move, NotationError> {
    let rules = pos.rules();
    let g = rules.geometry;
    let t = text.trim();
    let bad = || NotationError::NotWestern {
        text: text.to_string(),
    };
    let bad_square = || NotationError::BadSquare {
        text: text.to_string(),
    };
    let (plus, body) = match t.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", t),
    };
    // One upper-case letter, then a second letter of a code (`GC`, `LN`) or of
    // a seed abbreviation (`Ln`), but not the capture sign `x`.
    let b = body.as_bytes();
    if b.first().is_none_or(|c| !c.is_ascii_uppercase()) {
        return Err(bad());
    }
    let mut n = 1;
    if b.get(1)
        .is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_lowercase() && *c != b'x')
    {
        n = 2;
    }
    let letters = &body[..n];
    let unknown = || NotationError::UnknownPiece {
        text: text.to_string(),
        piece: format!("{plus}{letters}"),
    };
    let table = names(rules.variant.name);
    let (code, letters_len) = [n, 1]
        .into_iter()
        .find_map(|len| {
            table
                .code_of_western(&format!("{plus}{}", &body[..len]))
                .map(|c| (c, len))
        })
        .ok_or_else(unknown)?;
    let kind = rules.kind_by_code(code).ok_or_else(unknown)?;
    let mut rest = &body[letters_len..];
    let origin = match western_square(g, rest) {
        Some((sq, r)) => {
            rest = r;
            Some(sq)
        }
        None if rest.starts_with(|c: char| c.is_ascii_digit()) => return Err(bad_square()),
        None => None,
    };
    // Segments: a separator, `!` for a move that stays, a square.
    let mut segments: Vec<(u8, bool, Square)> = Vec::new();
    let mut suffix = None;
    while let Some(&sep) = rest.as_bytes().first() {
        match sep {
            b'-' | b'x' | b'*' => {
                let stay = rest[1..].starts_with('!');
                let sq_text = if stay { &rest[2..] } else { &rest[1..] };
                let (sq, r) = western_square(g, sq_text).ok_or_else(bad_square)?;
                segments.push((sep, stay, sq));
                rest = r;
            }
            b'+' | b'=' if rest.len() == 1 => {
                suffix = Some(sep == b'+');
                rest = "";
            }
            _ => return Err(bad()),
        }
    }
    let Some(&(last_sep, stay, last)) = segments.last() else {
        return Err(bad());
    };
    if (stay || last_sep == b'*') && segments.len() != 1 {
        return Err(bad());
    }
    let written_mids: Vec<Square> = if stay {
        vec![last]
    } else {
        segments[..segments.len() - 1].iter().map(|s| s.2).collect()
    };
    let mut cands: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| pos.moving_piece(m).map(|p| p.kind) == Some(kind))
        .filter(|&m| m.is_drop() == (last_sep == b'*'))
        .filter(|&m| origin.is_none() || m.from() == origin)
        .filter(|&m| {
            if stay {
                m.from() == Some(m.to()) && same_mids(pos, m, &written_mids)
            } else {
                m.to() == last && same_mids(pos, m, &written_mids)
            }
        })
        .collect();
    filter_promotion(&mut cands, suffix);
    match cands.as_slice() {
        [m] => Ok(*m),
        [] if written_mids.is_empty() && !stay => Err(not_legal(
            pos,
            text,
            &format!("{plus}{}", &body[..letters_len]),
            kind,
            origin,
            last,
            g.name(last).to_string(),
            last_sep == b'*',
            suffix == Some(true),
        )),
        [] => Err(NotationError::NoLegalMove {
            text: text.to_string(),
        }),
        _ => Err(NotationError::Ambiguous {
            text: text.to_string(),
            candidates: cands.iter().map(|&m| to_western(pos, m)).collect(),
        }),
    }
}

/// Which move notation a move list uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Hodges.
    Western,
    /// Japanese with ▲/△.
    Japanese,
}

fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes `[Key "value"]` headers: Variant, Rules, Black, White, Date, Event, SFEN, Result.
pub(crate) fn list_headers(record: &Record) -> String {
    let mut s = String::new();
    let mut h = |k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
    if record.variant != VariantName::default() {
        h("Variant", record.variant.as_str());
    }
    if !record.rules.is_empty() {
        h("Rules", &record.rules);
    }
    let hd = &record.headers;
    if let Some(v) = &hd.black {
        h("Black", v);
    }
    if let Some(v) = &hd.white {
        h("White", v);
    }
    if let Some(v) = &hd.start_date {
        h("Date", v);
    }
    if let Some(v) = &hd.event {
        h("Event", v);
    }
    for (k, v) in &hd.other {
        h(k, v);
    }
    let standard = banmen_rules::Variant::get(record.variant).map(|v| v.start_sfen);
    if standard != Some(record.start.as_str()) {
        h("SFEN", &record.start);
    }
    if let Some(r) = record.result {
        let w = match r.winner {
            Some(Color::Black) => "black",
            Some(Color::White) => "white",
            None => "none",
        };
        h("Result", &format!("{w} {}", r.reason.as_str()));
    }
    s
}

/// Writes a move list: headers, then one move per line (`1. P-7f` / `1 ▲７六歩`).
///
/// # Errors
/// The record's moves are not legal or the game is not played on 9x9.
pub fn write_list(record: &Record, style: Style) -> Result<String, String> {
    with_rules!(record.any_rules()?, r => write_list_on(r, record, style))
}

fn write_list_on<B: BitBoard>(
    rules: &'static Rules<B>,
    record: &Record,
    style: Style,
) -> Result<String, String> {
    let (mut pos, moves) = crate::record::replay(rules, &record.start, &record.moves)?;
    let mut s = list_headers(record);
    if !s.is_empty() {
        s.push('\n');
    }
    let mut prev = None;
    for (i, &m) in moves.iter().enumerate() {
        let text = match style {
            Style::Western => to_western(&pos, m),
            Style::Japanese => format!(
                "{}{}",
                mark(pos.side_to_move()),
                to_japanese(&pos, m, prev, false)
            ),
        };
        s.push_str(&format!("{}. {text}\n", i + 1));
        prev = Some(m.to());
        pos.make_move(m);
    }
    Ok(s)
}

fn unquote(v: &str) -> String {
    v.replace("\\\"", "\"").replace("\\\\", "\\")
}

/// Reads a move list written by [`write_list`] or by hand: `[Key "value"]`
/// headers, then moves separated by white space or numbers (`1. P-7f 2. P-3d`, `▲７六歩 △３四歩`).
///
/// # Errors
/// The first problem, with its line.
pub fn read_list(text: &str, style: Style) -> Result<Record, ParseError> {
    let mut rec = Record::new(VariantName::Shogi);
    let mut result: Option<(usize, String)> = None;
    let mut tokens: Vec<(usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| ParseError::new(n, "header without ']'"))?;
            let (k, v) = inner
                .split_once(' ')
                .ok_or_else(|| ParseError::new(n, "header without a value"))?;
            let v = unquote(v.trim().trim_matches('"'));
            match k {
                "Variant" => {
                    rec.variant = v.parse().map_err(|e| ParseError::new(n, format!("{e}")))?;
                    rec.start = banmen_rules::Variant::get(rec.variant)
                        .map(|x| x.start_sfen.to_string())
                        .unwrap_or_default();
                }
                "Rules" => rec.rules = v,
                "Black" | "Sente" => rec.headers.black = Some(v),
                "White" | "Gote" => rec.headers.white = Some(v),
                "Date" => rec.headers.start_date = Some(v),
                "Event" => rec.headers.event = Some(v),
                "SFEN" => rec.start = v,
                "Result" => result = Some((n, v)),
                _ => rec.headers.other.push((k.to_string(), v)),
            }
            continue;
        }
        match style {
            Style::Western => {
                for t in line.split_whitespace() {
                    let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    if !t.is_empty() {
                        tokens.push((n, t.to_string()));
                    }
                }
            }
            Style::Japanese => {
                let mut cur = String::new();
                for ch in line.chars() {
                    if matches!(ch, '▲' | '△' | '☗' | '☖') {
                        if !cur.trim().is_empty() {
                            tokens.push((n, cur.trim().to_string()));
                        }
                        cur.clear();
                        cur.push(ch);
                    } else if !cur.is_empty() {
                        cur.push(ch);
                    }
                }
                if !cur.trim().is_empty() {
                    tokens.push((n, cur.trim().to_string()));
                }
                if !line.contains(['▲', '△', '☗', '☖']) {
                    return Err(ParseError::new(n, format!("no move in '{line}'")));
                }
            }
        }
    }
    let any = rules_for(rec.variant, &rec.rules).map_err(|e| ParseError::new(1, e.to_string()))?;
    rec.moves = with_rules!(any, r => list_moves(r, &rec.start, &tokens, style))?;
    rec.result = match result {
        Some((n, v)) => Some(parse_result_header(&v).ok_or_else(|| {
            ParseError::new(
                n,
                format!("bad result '{v}' (expected e.g. 'black resignation')"),
            )
        })?),
        None => rec.rules_result(),
    };
    Ok(rec)
}

/// Resolves the move tokens of a list against the start position.
fn list_moves<B: BitBoard>(
    rules: &'static Rules<B>,
    start: &str,
    tokens: &[(usize, String)],
    style: Style,
) -> Result<Vec<String>, ParseError> {
    let mut pos = Position::from_sfen(rules, start, crate::record::mode_for(rules, start))
        .map_err(|e| ParseError::new(1, format!("start position: {e}")))?;
    let mut prev = None;
    let mut out = Vec::with_capacity(tokens.len());
    for (n, t) in tokens {
        let m = match style {
            Style::Western => parse_western(&pos, t),
            Style::Japanese => parse_japanese(&pos, t, prev),
        }
        .map_err(|e| ParseError::new(*n, e.to_string()))?;
        out.push(pos.move_to_usi(m));
        prev = Some(m.to());
        pos.make_move(m);
    }
    Ok(out)
}

fn parse_result_header(v: &str) -> Option<GameResult> {
    let (w, r) = v.split_once(' ')?;
    let winner = match w {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        "none" => None,
        _ => return None,
    };
    Some(GameResult {
        winner,
        reason: crate::record::EndReason::parse(r.trim())?,
    })
}
