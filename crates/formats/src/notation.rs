//! Move text: Japanese (`▲７六歩`, `△同　角成`, `▲５八金右`) and Western
//! (Hodges: `P-7f`, `Bx8h+`, `G6i-5h`, `P*5e`, `=` for a declined promotion)
//! for the 9x9 games, and move lists in either style.

use crate::record::{GameResult, ParseError, Record};
use banmen_rules::{BitBoard, Color, Kind, Move, Position, Square, VariantName};

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The Japanese name of a piece by its SFEN code, as KIF moves write it.
pub fn japanese_name(code: &str) -> Option<&'static str> {
    Some(match code {
        "P" => "歩",
        "L" => "香",
        "N" => "桂",
        "S" => "銀",
        "G" => "金",
        "B" => "角",
        "R" => "飛",
        "K" => "玉",
        "+P" => "と",
        "+L" => "成香",
        "+N" => "成桂",
        "+S" => "成銀",
        "+B" => "馬",
        "+R" => "龍",
        "U" => "金砲",
        "A" => "銀砲",
        "C" => "銅砲",
        "I" => "鉄砲",
        "+U" => "成金砲",
        "+A" => "成銀砲",
        "+C" => "成銅砲",
        "+I" => "成鉄砲",
        _ => return None,
    })
}

/// Japanese piece names and aliases read, longest first.
const JAPANESE_ALIASES: [(&str, &str); 29] = [
    ("成金砲", "+U"),
    ("成銀砲", "+A"),
    ("成銅砲", "+C"),
    ("成鉄砲", "+I"),
    ("金砲", "U"),
    ("銀砲", "A"),
    ("銅砲", "C"),
    ("鉄砲", "I"),
    ("成香", "+L"),
    ("成桂", "+N"),
    ("成銀", "+S"),
    ("歩", "P"),
    ("香", "L"),
    ("桂", "N"),
    ("銀", "S"),
    ("金", "G"),
    ("角", "B"),
    ("飛", "R"),
    ("玉", "K"),
    ("王", "K"),
    ("と", "+P"),
    ("杏", "+L"),
    ("圭", "+N"),
    ("全", "+S"),
    ("馬", "+B"),
    ("龍", "+R"),
    ("竜", "+R"),
    ("个", "+L"),
    ("仝", "+N"),
];

/// Reads a Japanese piece name at the start of `s`: the SFEN code and the rest.
pub fn parse_japanese_piece(s: &str) -> Option<(&'static str, &str)> {
    JAPANESE_ALIASES
        .iter()
        .find(|(name, _)| s.starts_with(name))
        .map(|(name, code)| (*code, &s[name.len()..]))
}

/// The Western letters of a piece by its SFEN code (`P`, `+R`, `GC`, `+IC`).
pub fn western_name(code: &str) -> String {
    let (plus, base) = match code.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", code),
    };
    let letters = match base {
        "U" => "GC",
        "A" => "SC",
        "C" => "CC",
        "I" => "IC",
        other => other,
    };
    format!("{plus}{letters}")
}

fn western_to_code(letters: &str) -> String {
    let (plus, base) = match letters.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", letters),
    };
    let code = match base {
        "GC" => "U",
        "SC" => "A",
        "CC" => "C",
        "IC" => "I",
        other => other,
    };
    format!("{plus}{code}")
}

/// `７六`.
pub fn japanese_square<B: BitBoard>(pos: &Position<B>, sq: Square) -> String {
    let g = pos.rules().geometry;
    let f = g.file(sq) as usize;
    let r = g.rank(sq) as usize;
    match (FILES.get(f.wrapping_sub(1)), RANKS.get(r)) {
        (Some(a), Some(b)) => format!("{a}{b}"),
        _ => format!("{f}{}", r + 1),
    }
}

fn digit(c: char) -> Option<i32> {
    if let Some(i) = FILES.iter().position(|&x| x == c) {
        return Some(i as i32 + 1);
    }
    if let Some(i) = RANKS.iter().position(|&x| x == c) {
        return Some(i as i32 + 1);
    }
    c.to_digit(10).filter(|&d| d > 0).map(|d| d as i32)
}

/// Reads a Japanese or ASCII square (`７六`, `76`) at the start of `s`.
pub(crate) fn parse_japanese_square(s: &str) -> Option<((i32, i32), &str)> {
    let mut it = s.char_indices();
    let (_, a) = it.next()?;
    let (_, b) = it.next()?;
    let rest = it.next().map(|(i, _)| &s[i..]).unwrap_or("");
    Some(((digit(a)?, digit(b)?), rest))
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

/// Legal board moves of the same kind to the same square (one per origin).
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
/// without relative words.
pub fn to_japanese<B: BitBoard>(
    pos: &Position<B>,
    m: Move,
    previous: Option<Square>,
    kif: bool,
) -> String {
    let mut s = if previous == Some(m.to()) {
        "同".to_string()
    } else {
        japanese_square(pos, m.to())
    };
    let kind = pos.moving_piece(m).map(|p| p.kind);
    let name = kind
        .and_then(|k| japanese_name(piece_code(pos, k)))
        .unwrap_or("？");
    if s == "同" && name.chars().count() == 1 {
        s.push('　');
    }
    s.push_str(name);
    if !kif {
        s.push_str(&disambiguation(pos, m));
    }
    if m.is_promotion() {
        s.push('成');
    } else if promotion_optional(pos, m) {
        s.push_str("不成");
    }
    match m.from() {
        None => {
            let board_rival = kind.is_some_and(|k| {
                pos.legal_moves().iter().any(|x| {
                    x.to() == m.to()
                        && x.from().is_some()
                        && pos.moving_piece(*x).map(|p| p.kind) == Some(k)
                })
            });
            if kif || board_rival {
                s.push('打');
            }
        }
        Some(from) if kif => {
            let g = pos.rules().geometry;
            s.push_str(&format!("({}{})", g.file(from), g.rank(from) + 1));
        }
        Some(_) => {}
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

/// Parses Japanese move text (`▲７六歩`, `△同　角成`, `５八金右`, `７六歩(77)`)
/// against the legal moves. `previous` is the last move's destination.
///
/// # Errors
/// Why the text is not one legal move.
pub fn parse_japanese<B: BitBoard>(
    pos: &Position<B>,
    text: &str,
    previous: Option<Square>,
) -> Result<Move, String> {
    let g = pos.rules().geometry;
    let c = pos.side_to_move();
    let mut s = text.trim();
    for m in ['▲', '△', '☗', '☖', '▽', '▼'] {
        s = s.trim_start_matches(m);
    }
    let (to, rest) = if let Some(r) = s.strip_prefix('同') {
        let to = previous.ok_or("同 with no previous move")?;
        (to, r.trim_start_matches(['　', ' ']))
    } else {
        let ((f, r), rest) =
            parse_japanese_square(s).ok_or_else(|| format!("no square in '{text}'"))?;
        let to = g
            .square(f, r - 1)
            .ok_or_else(|| format!("square off the board in '{text}'"))?;
        (to, rest.trim_start_matches(['　', ' ']))
    };
    let (code, mut rest) =
        parse_japanese_piece(rest).ok_or_else(|| format!("no piece name in '{text}'"))?;
    let kind = pos
        .rules()
        .kind_by_code(code)
        .ok_or_else(|| format!("this game has no {code} piece"))?;
    // An origin in parentheses (KIF).
    let mut origin = None;
    if let Some(open) = rest.find('(') {
        let inner = rest[open + 1..].trim_end().trim_end_matches(')');
        let d: Vec<i32> = inner
            .chars()
            .filter_map(|ch| ch.to_digit(10))
            .map(|d| d as i32)
            .collect();
        if d.len() != 2 {
            return Err(format!("bad origin in '{text}'"));
        }
        origin = Some(
            g.square(d[0], d[1] - 1)
                .ok_or_else(|| format!("origin off the board in '{text}'"))?,
        );
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
                    return Err(format!("'不' without '成' in '{text}'"));
                }
                promote = Some(false);
            }
            '生' => promote = Some(false),
            '成' => promote = Some(true),
            '打' => drop = true,
            '右' | '左' | '直' | '上' | '引' | '寄' | '行' | '入' => words.push(ch),
            ' ' | '　' => {}
            _ => return Err(format!("unexpected '{ch}' in '{text}'")),
        }
    }
    let mut cands: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m.to() == to && pos.moving_piece(m).map(|p| p.kind) == Some(kind))
        .filter(|&m| origin.is_none() || m.from() == origin)
        .collect();
    if drop {
        cands.retain(|m| m.is_drop());
    } else if cands.iter().any(|m| !m.is_drop()) {
        cands.retain(|m| !m.is_drop());
    }
    match promote {
        Some(p) => cands.retain(|m| m.is_promotion() == p),
        None => {
            if cands.iter().any(|m| !m.is_promotion()) {
                cands.retain(|m| !m.is_promotion());
            }
        }
    }
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
    match cands.len() {
        1 => Ok(cands[0]),
        0 => Err(format!("'{text}' is not a legal move")),
        _ => Err(format!("'{text}' is ambiguous")),
    }
}

/// A move in Western (Hodges) notation: `P-7f`, `Bx8h+`, `G6i-5h`, `P*5e`, `N-7c=`.
pub fn to_western<B: BitBoard>(pos: &Position<B>, m: Move) -> String {
    let g = pos.rules().geometry;
    let code = pos
        .moving_piece(m)
        .map(|p| piece_code(pos, p.kind).to_string())
        .unwrap_or_default();
    let mut s = western_name(&code);
    match m.from() {
        None => {
            s.push('*');
            s.push_str(&g.name(m.to()).to_string());
            return s;
        }
        Some(from) => {
            if rivals(pos, m).len() > 1 {
                s.push_str(&g.name(from).to_string());
            }
            s.push(if pos.piece_at(m.to()).is_some() {
                'x'
            } else {
                '-'
            });
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

/// Parses Western move text against the legal moves.
///
/// # Errors
/// Why the text is not one legal move.
pub fn parse_western<B: BitBoard>(pos: &Position<B>, text: &str) -> Result<Move, String> {
    let g = pos.rules().geometry;
    let t = text.trim();
    let bad = || format!("'{text}' is not Western move text");
    let (plus, body) = match t.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", t),
    };
    let letters: String = body
        .chars()
        .take_while(|c| c.is_ascii_uppercase())
        .collect();
    if letters.is_empty() {
        return Err(bad());
    }
    let code = western_to_code(&format!("{plus}{letters}"));
    let kind = pos
        .rules()
        .kind_by_code(&code)
        .ok_or_else(|| format!("unknown piece '{plus}{letters}' in '{text}'"))?;
    let rest = &body[letters.len()..];
    let sep_at = rest.find(['-', 'x', '*']).ok_or_else(bad)?;
    let origin_text = &rest[..sep_at];
    let sep = rest.as_bytes()[sep_at];
    let after = &rest[sep_at + 1..];
    let (dest_text, suffix) = match after.strip_suffix('+') {
        Some(d) => (d, Some(true)),
        None => match after.strip_suffix('=') {
            Some(d) => (d, Some(false)),
            None => (after, None),
        },
    };
    let square = |s: &str| -> Option<Square> {
        g.parse_square(s).or_else(|| {
            // Lenient: a digit rank (`76`).
            let d: Vec<u32> = s.chars().map(|c| c.to_digit(10)).collect::<Option<_>>()?;
            if d.len() == 2 && d[1] > 0 {
                g.square(d[0] as i32, d[1] as i32 - 1)
            } else {
                None
            }
        })
    };
    let to = square(dest_text).ok_or_else(|| format!("bad square '{dest_text}' in '{text}'"))?;
    let origin = if origin_text.is_empty() {
        None
    } else {
        Some(square(origin_text).ok_or_else(|| format!("bad square '{origin_text}' in '{text}'"))?)
    };
    let mut cands: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m.to() == to && pos.moving_piece(m).map(|p| p.kind) == Some(kind))
        .filter(|&m| m.is_drop() == (sep == b'*'))
        .filter(|&m| origin.is_none() || m.from() == origin)
        .collect();
    match suffix {
        Some(p) => cands.retain(|m| m.is_promotion() == p),
        None => {
            if cands.iter().any(|m| !m.is_promotion()) {
                cands.retain(|m| !m.is_promotion());
            }
        }
    }
    match cands.len() {
        1 => Ok(cands[0]),
        0 => Err(format!("'{text}' is not a legal move")),
        _ => Err(format!("'{text}' is ambiguous (add the origin square)")),
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
    if record.variant != VariantName::Shogi {
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
    let (mut pos, moves) = record.replay_9x9()?;
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
    let rules = rec.rules_9x9().map_err(|e| ParseError::new(1, e))?;
    let mut pos = Position::from_sfen(rules, &rec.start, crate::record::mode_for(&rec.start))
        .map_err(|e| ParseError::new(1, format!("start position: {e}")))?;
    let mut prev = None;
    for (n, t) in tokens {
        let m = match style {
            Style::Western => parse_western(&pos, &t),
            Style::Japanese => parse_japanese(&pos, &t, prev),
        }
        .map_err(|e| ParseError::new(n, e))?;
        rec.moves.push(pos.move_to_usi(m));
        prev = Some(m.to());
        pos.make_move(m);
    }
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
