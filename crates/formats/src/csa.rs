//! CSA records, V2.2 and V3.0.
//!
//! `%TORYO`, `%TSUMI`, `%TIME_UP` and `%ILLEGAL_MOVE` are read as a loss of
//! the side to move; `%KACHI` as its win; `%+ILLEGAL_ACTION` as a loss of `+`.

use crate::record::{
    mode_for, sfen_sans_number, Comment, EndReason, GameResult, ParseError, Record,
};
use banmen_rules::{Bb128, Color, Piece, Position, VariantName};

const CODES: [(&str, &str); 14] = [
    ("FU", "P"),
    ("KY", "L"),
    ("KE", "N"),
    ("GI", "S"),
    ("KI", "G"),
    ("KA", "B"),
    ("HI", "R"),
    ("OU", "K"),
    ("TO", "+P"),
    ("NY", "+L"),
    ("NK", "+N"),
    ("NG", "+S"),
    ("UM", "+B"),
    ("RY", "+R"),
];

fn to_sfen_code(csa: &str) -> Option<&'static str> {
    CODES.iter().find(|(c, _)| *c == csa).map(|(_, s)| *s)
}

fn to_csa_code(sfen: &str) -> Option<&'static str> {
    CODES.iter().find(|(_, s)| *s == sfen).map(|(c, _)| *c)
}

fn result_line(r: GameResult, to_move: Color) -> Option<String> {
    let mover_wins = r.winner == Some(to_move);
    let mover_loses = r.winner == Some(!to_move);
    Some(
        match r.reason {
            EndReason::Resignation if mover_loses => "%TORYO",
            EndReason::Checkmate if mover_loses => "%TSUMI",
            EndReason::Repetition | EndReason::PerpetualCheck => "%SENNICHITE",
            EndReason::Impasse if r.winner.is_none() => "%JISHOGI",
            EndReason::Abort => "%CHUDAN",
            EndReason::Declaration if mover_wins => "%KACHI",
            EndReason::Timeout if mover_loses => "%TIME_UP",
            EndReason::Draw => "%HIKIWAKE",
            EndReason::IllegalMove => match r.winner {
                Some(Color::White) => "%+ILLEGAL_ACTION",
                Some(Color::Black) => "%-ILLEGAL_ACTION",
                None => return None,
            },
            _ => return None,
        }
        .to_string(),
    )
}

fn sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

fn position_lines(record: &Record, pos: &Position<Bb128>) -> Result<String, String> {
    let v = banmen_rules::Variant::standard();
    let key = sfen_sans_number(&record.start);
    if key == sfen_sans_number(v.start_sfen) {
        return Ok("PI\n+\n".into());
    }
    let rules = pos.rules();
    let g = rules.geometry;
    let mut s = String::new();
    for r in 0..9 {
        s.push_str(&format!("P{}", r + 1));
        for f in (1..=9).rev() {
            let sq = g.square(f, r).ok_or("off board")?;
            match pos.piece_at(sq) {
                None => s.push_str(" * "),
                Some(p) => {
                    let code = &rules.kind(p.kind).code;
                    s.push(sign(p.color));
                    s.push_str(
                        to_csa_code(code).ok_or_else(|| format!("CSA has no piece {code}"))?,
                    );
                }
            }
        }
        s.push('\n');
    }
    for c in Color::ALL {
        let mut line = String::new();
        for k in 0..rules.n_base {
            let code = to_csa_code(&rules.kinds[k].code).ok_or("CSA has no such piece")?;
            for _ in 0..pos.hand_count(c, banmen_rules::Kind(k as u8)) {
                line.push_str("00");
                line.push_str(code);
            }
        }
        if !line.is_empty() {
            s.push_str(&format!("P{}{line}\n", sign(c)));
        }
    }
    s.push(sign(pos.side_to_move()));
    s.push('\n');
    Ok(s)
}

fn write_version(record: &Record, v3: bool) -> Result<String, String> {
    if record.variant != VariantName::Shogi || !record.rules.is_empty() {
        return Err("CSA records are for standard shogi only".into());
    }
    let (mut pos, moves) = record.replay_9x9()?;
    let mut s = String::new();
    if v3 {
        s.push_str("'CSA encoding=UTF-8\nV3.0\n");
    } else {
        s.push_str("V2.2\n");
    }
    let hd = &record.headers;
    if let Some(b) = &hd.black {
        s.push_str(&format!("N+{b}\n"));
    }
    if let Some(w) = &hd.white {
        s.push_str(&format!("N-{w}\n"));
    }
    if let Some(e) = &hd.event {
        s.push_str(&format!("$EVENT:{e}\n"));
    }
    if let Some(d) = &hd.start_date {
        s.push_str(&format!("$START_TIME:{d}\n"));
    }
    for (k, v) in &hd.other {
        if k.chars().all(|c| c.is_ascii_uppercase() || c == '_') && !k.is_empty() {
            s.push_str(&format!("${k}:{v}\n"));
        }
    }
    s.push_str(&position_lines(record, &pos)?);
    for c in record.comments_at(0) {
        s.push_str(&format!("'*{c}\n"));
    }
    let g = pos.rules().geometry;
    for (i, &m) in moves.iter().enumerate() {
        let c = pos.side_to_move();
        let piece = pos.moving_piece(m).ok_or("no moving piece")?;
        let kind = if m.is_promotion() {
            pos.rules()
                .kind(piece.kind)
                .promotes_to
                .unwrap_or(piece.kind)
        } else {
            piece.kind
        };
        let code = &pos.rules().kind(kind).code;
        let from = m.from().map_or("00".to_string(), |f| {
            format!("{}{}", g.file(f), g.rank(f) + 1)
        });
        s.push_str(&format!(
            "{}{from}{}{}{}\n",
            sign(c),
            g.file(m.to()),
            g.rank(m.to()) + 1,
            to_csa_code(code).ok_or_else(|| format!("CSA has no piece {code}"))?
        ));
        if !record.times.is_empty() {
            s.push_str(&format!("T{}\n", record.time(i).unwrap_or(0)));
        }
        for c in record.comments_at(i + 1) {
            s.push_str(&format!("'*{c}\n"));
        }
        pos.make_move(m);
    }
    if let Some(line) = record
        .result
        .and_then(|r| result_line(r, pos.side_to_move()))
    {
        s.push_str(&line);
        s.push('\n');
    }
    Ok(s)
}

/// Writes CSA V2.2.
///
/// # Errors
/// Illegal moves, or a game that is not standard shogi.
pub fn write(record: &Record) -> Result<String, String> {
    write_version(record, false)
}

/// Writes CSA V3.0 (with the `'CSA encoding=UTF-8` line).
///
/// # Errors
/// Illegal moves, or a game that is not standard shogi.
pub fn write_v3(record: &Record) -> Result<String, String> {
    write_version(record, true)
}

struct Setup {
    board: Vec<Option<(Color, &'static str)>>,
    hands: Vec<(Color, &'static str)>,
    touched: bool,
}

fn square_index(f: u32, r: u32) -> Option<usize> {
    if (1..=9).contains(&f) && (1..=9).contains(&r) {
        Some(((r - 1) * 9 + (9 - f)) as usize)
    } else {
        None
    }
}

fn color_of(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

fn setup_sfen(s: &Setup, side: Color) -> String {
    let mut out = String::new();
    for r in 0..9 {
        if r > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for i in 0..9 {
            match s.board[r * 9 + i] {
                None => empty += 1,
                Some((c, code)) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&if c == Color::White {
                        code.to_ascii_lowercase()
                    } else {
                        code.to_string()
                    });
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out.push(' ');
    out.push(side.sfen_char());
    out.push(' ');
    let mut hand = String::new();
    for c in Color::ALL {
        for code in ["R", "B", "G", "S", "N", "L", "P"] {
            let n = s
                .hands
                .iter()
                .filter(|(hc, k)| *hc == c && *k == code)
                .count();
            if n > 0 {
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                hand.push_str(&if c == Color::White {
                    code.to_ascii_lowercase()
                } else {
                    code.to_string()
                });
            }
        }
    }
    out.push_str(if hand.is_empty() { "-" } else { &hand });
    out.push_str(" 1");
    out
}

const STANDARD: [&str; 9] = [
    "-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    " * -HI *  *  *  *  * -KA * ",
    "-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    " *  *  *  *  *  *  *  *  * ",
    " *  *  *  *  *  *  *  *  * ",
    " *  *  *  *  *  *  *  *  * ",
    "+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    " * +KA *  *  *  *  * +HI * ",
    "+KY+KE+GI+KI+OU+KI+GI+KE+KY",
];

fn parse_row(setup: &mut Setup, n: usize, r: usize, cells: &str) -> Result<(), ParseError> {
    let mut chars: Vec<char> = cells.chars().collect();
    // Trailing blanks of an empty last square are often trimmed.
    if chars.len() >= 25 && chars.len() < 27 {
        chars.resize(27, ' ');
    }
    if chars.len() != 27 {
        return Err(ParseError::new(
            n,
            format!("P{} needs 9 squares of 3 characters", r + 1),
        ));
    }
    for i in 0..9 {
        let cell: String = chars[i * 3..i * 3 + 3].iter().collect();
        setup.board[r * 9 + i] = if cell.trim() == "*" {
            None
        } else {
            let c = chars[i * 3];
            let code: String = chars[i * 3 + 1..i * 3 + 3].iter().collect();
            let c = color_of(c);
            let code = to_sfen_code(&code);
            match (c, code) {
                (Some(c), Some(code)) => Some((c, code)),
                _ => return Err(ParseError::new(n, format!("bad square '{cell}'"))),
            }
        };
    }
    Ok(())
}

/// Reads CSA V2, V2.2 or V3.0.
///
/// # Errors
/// The first problem, with its line.
pub fn read(text: &str) -> Result<Record, ParseError> {
    let mut rec = Record::new(VariantName::Shogi);
    let rules = rec.rules_9x9().map_err(|e| ParseError::new(1, e))?;
    let mut setup = Setup {
        board: vec![None; 81],
        hands: Vec::new(),
        touched: false,
    };
    let mut pos: Option<Position<Bb128>> = None;
    let mut times: Vec<Option<u32>> = Vec::new();
    let mut ending: Option<(usize, String)> = None;
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last = n;
        let line = raw.trim_end();
        if line.is_empty() {
            continue;
        }
        if let Some(c) = line.strip_prefix('\'') {
            if let Some(c) = c.strip_prefix('*') {
                rec.headers.comments.push(Comment {
                    ply: rec.moves.len(),
                    text: c.to_string(),
                });
            }
            continue;
        }
        for stmt in line.split(',') {
            let st = stmt.trim();
            if st.is_empty() {
                continue;
            }
            if ending.is_some() {
                return Err(ParseError::new(
                    n,
                    format!("'{st}' after the end of the game"),
                ));
            }
            let first = st.chars().next().unwrap_or(' ');
            match first {
                'V' => {}
                'N' if st.starts_with("N+") => rec.headers.black = Some(st[2..].to_string()),
                'N' if st.starts_with("N-") => rec.headers.white = Some(st[2..].to_string()),
                '$' => {
                    let (k, v) = st[1..]
                        .split_once(':')
                        .ok_or_else(|| ParseError::new(n, format!("'{st}' has no ':'")))?;
                    match k {
                        "START_TIME" => rec.headers.start_date = Some(v.to_string()),
                        "EVENT" => rec.headers.event = Some(v.to_string()),
                        _ => rec.headers.other.push((k.to_string(), v.to_string())),
                    }
                }
                'P' if pos.is_none() => {
                    setup.touched = true;
                    let rest = &st[1..];
                    if let Some(removals) = rest.strip_prefix('I') {
                        for (r, row) in STANDARD.iter().enumerate() {
                            parse_row(&mut setup, n, r, row)?;
                        }
                        let b = removals.as_bytes();
                        if b.len() % 4 != 0 || !removals.is_ascii() {
                            return Err(ParseError::new(
                                n,
                                format!("bad PI removals '{removals}'"),
                            ));
                        }
                        for chunk in removals.as_bytes().chunks(4) {
                            let f = (chunk[0] as char).to_digit(10).unwrap_or(0);
                            let r = (chunk[1] as char).to_digit(10).unwrap_or(0);
                            let idx = square_index(f, r)
                                .ok_or_else(|| ParseError::new(n, "bad PI square"))?;
                            setup.board[idx] = None;
                        }
                    } else if let Some(d) = rest.chars().next().and_then(|c| c.to_digit(10)) {
                        if !(1..=9).contains(&d) {
                            return Err(ParseError::new(n, format!("bad rank line '{st}'")));
                        }
                        parse_row(&mut setup, n, d as usize - 1, &rest[1..])?;
                    } else if let Some(c) = rest.chars().next().and_then(color_of) {
                        let items = &rest[1..];
                        if items.len() % 4 != 0 || !items.is_ascii() {
                            return Err(ParseError::new(n, format!("bad piece list '{st}'")));
                        }
                        for chunk in items.as_bytes().chunks(4) {
                            let sq = std::str::from_utf8(&chunk[..2]).unwrap_or("??");
                            let code = std::str::from_utf8(&chunk[2..]).unwrap_or("??");
                            if code == "AL" {
                                return Err(ParseError::new(n, "00AL is not supported"));
                            }
                            let code = to_sfen_code(code).ok_or_else(|| {
                                ParseError::new(n, format!("unknown piece '{code}'"))
                            })?;
                            if sq == "00" {
                                let base = code.trim_start_matches('+');
                                if base == "K" {
                                    return Err(ParseError::new(n, "a king in hand"));
                                }
                                setup.hands.push((c, base));
                            } else {
                                let f = sq.chars().next().and_then(|c| c.to_digit(10)).unwrap_or(0);
                                let r = sq.chars().nth(1).and_then(|c| c.to_digit(10)).unwrap_or(0);
                                let idx = square_index(f, r).ok_or_else(|| {
                                    ParseError::new(n, format!("bad square '{sq}'"))
                                })?;
                                setup.board[idx] = Some((c, code));
                            }
                        }
                    } else {
                        return Err(ParseError::new(n, format!("cannot read '{st}'")));
                    }
                }
                '+' | '-' if st.len() == 1 => {
                    if pos.is_some() {
                        return Err(ParseError::new(n, "a second side-to-move line"));
                    }
                    let side = color_of(first).unwrap_or(Color::Black);
                    if !setup.touched {
                        return Err(ParseError::new(
                            n,
                            "no start position (PI or P1-P9) before the side to move",
                        ));
                    }
                    rec.start = setup_sfen(&setup, side);
                    let p = Position::from_sfen(rules, &rec.start, mode_for(&rec.start))
                        .map_err(|e| ParseError::new(n, format!("start position: {e}")))?;
                    pos = Some(p);
                }
                '+' | '-' => {
                    let p = pos
                        .as_mut()
                        .ok_or_else(|| ParseError::new(n, "a move before the start position"))?;
                    let side = color_of(first).unwrap_or(Color::Black);
                    if side != p.side_to_move() {
                        return Err(ParseError::new(
                            n,
                            format!("'{st}': it is {}'s move", p.side_to_move().name()),
                        ));
                    }
                    let b = st.as_bytes();
                    if b.len() < 7 || !st.is_ascii() {
                        return Err(ParseError::new(n, format!("bad move '{st}'")));
                    }
                    let d = |i: usize| (b[i] as char).to_digit(10);
                    let (Some(ff), Some(fr), Some(tf), Some(tr)) = (d(1), d(2), d(3), d(4)) else {
                        return Err(ParseError::new(n, format!("bad move '{st}'")));
                    };
                    let code = to_sfen_code(&st[5..7])
                        .ok_or_else(|| ParseError::new(n, format!("unknown piece in '{st}'")))?;
                    if !(1..=9).contains(&tf) || !(1..=9).contains(&tr) {
                        return Err(ParseError::new(n, format!("bad square in '{st}'")));
                    }
                    let to = format!("{tf}{}", (b'a' + tr as u8 - 1) as char);
                    let usi = if ff == 0 && fr == 0 {
                        format!("{code}*{to}")
                    } else {
                        if !(1..=9).contains(&ff) || !(1..=9).contains(&fr) {
                            return Err(ParseError::new(n, format!("bad square in '{st}'")));
                        }
                        let from_sq = p.rules().geometry.square(ff as i32, fr as i32 - 1);
                        let moving: Option<Piece> = from_sq.and_then(|s| p.piece_at(s));
                        let moving_code = moving
                            .map(|x| p.rules().kind(x.kind).code.clone())
                            .unwrap_or_default();
                        let promote = moving_code != code
                            && !moving_code.starts_with('+')
                            && code.starts_with('+');
                        if moving.is_some() && moving_code != code && !promote {
                            return Err(ParseError::new(
                                n,
                                format!("'{st}': the piece on {ff}{fr} is not {}", &st[5..7]),
                            ));
                        }
                        format!(
                            "{ff}{}{to}{}",
                            (b'a' + fr as u8 - 1) as char,
                            if promote { "+" } else { "" }
                        )
                    };
                    let m = p
                        .parse_move(&usi)
                        .map_err(|e| ParseError::new(n, format!("'{st}': {e}")))?;
                    p.make_move(m);
                    rec.moves.push(usi);
                    times.push(None);
                }
                'T' => {
                    let secs: u32 = st[1..]
                        .trim()
                        .split('.')
                        .next()
                        .unwrap_or("")
                        .parse()
                        .map_err(|_| ParseError::new(n, format!("bad time '{st}'")))?;
                    match times.last_mut() {
                        Some(t) => *t = Some(secs),
                        None => return Err(ParseError::new(n, "a time before any move")),
                    }
                }
                '%' => ending = Some((n, st.to_string())),
                _ => return Err(ParseError::new(n, format!("cannot read '{st}'"))),
            }
        }
    }
    let p =
        pos.ok_or_else(|| ParseError::new(last.max(1), "no start position and side to move"))?;
    if times.iter().any(|t| t.is_some_and(|x| x > 0)) {
        rec.times = times;
    }
    let to_move = p.side_to_move();
    let by_rules = rec.rules_result();
    let res = |winner, reason| Some(GameResult { winner, reason });
    rec.result = match ending {
        None => by_rules,
        Some((n, e)) => match e.as_str() {
            "%TORYO" => res(Some(!to_move), EndReason::Resignation),
            "%TSUMI" => res(Some(!to_move), EndReason::Checkmate),
            "%TIME_UP" => res(Some(!to_move), EndReason::Timeout),
            "%ILLEGAL_MOVE" => res(Some(!to_move), EndReason::IllegalMove),
            "%+ILLEGAL_ACTION" => res(Some(Color::White), EndReason::IllegalMove),
            "%-ILLEGAL_ACTION" => res(Some(Color::Black), EndReason::IllegalMove),
            "%KACHI" => res(Some(to_move), EndReason::Declaration),
            "%SENNICHITE" => by_rules.or(res(None, EndReason::Repetition)),
            "%JISHOGI" => res(None, EndReason::Impasse),
            "%HIKIWAKE" => res(None, EndReason::Draw),
            "%CHUDAN" | "%MATTA" | "%ERROR" | "%FUZUMI" => res(None, EndReason::Abort),
            _ => return Err(ParseError::new(n, format!("unknown ending '{e}'"))),
        },
    };
    Ok(rec)
}
