//! CSA records, V2.2 and V3.0, for all three games.
//!
//! `%TORYO`, `%TSUMI`, `%TIME_UP` and `%ILLEGAL_MOVE` are read as a loss of
//! the side to move; `%KACHI` as its win; `%+ILLEGAL_ACTION` as a loss of `+`;
//! `%SENNICHITE`, `%JISHOGI`, `%HIKIWAKE`, `%MAX_MOVES`, `%CHUDAN`,
//! `%FUZUMI`, `%MATTA` and `%ERROR` each as its own [`EndReason`], without a
//! winner. After the ending a `T` time, a second `%` line (ignored: the first
//! one counts), comments and `N`/`$` headers are accepted; a move is not.
//! [`read_all`] reads every game of a file with several (`/` lines).
//! `P+00AL` / `P-00AL` put every piece not yet placed (kings excepted) in
//! that side's hand (tsume problems).
//!
//! CSA defines standard shogi only. Banmen's extension for the other games
//! (written and read; see the crate docs for the piece codes):
//!
//! - `$VARIANT:cannonshogi` or `$VARIANT:daidaishogi` before the position, and
//!   `$RULES:flying-cannon=leap` for rule options.
//! - `PI` is the game's own start position.
//! - Pieces are two-letter codes (`GC`, `LN`); a promoted piece without a code
//!   of its own is `+` and its original code (`+GC`, `+LN`), so a board square
//!   is ` * `, `+KG` or `-+LN`.
//! - On 17x17 a square is four digits, file then rank (`0909` is 9i, `1717`
//!   is 17q), rank lines are `P1` to `P17`, and a lion's double move lists its
//!   middle square(s) between origin and destination:
//!   `+090908080907+LN` (9i, capture on 8h, to 9g, promoting), igui
//!   `+090909080909+LN`.

use crate::names::names;
use crate::notation::same_mids;
use crate::record::{
    csa_key_of_kif, kif_key_of_csa, mode_for_setup, sfen_sans_number, Comment, EndReason,
    GameResult, ParseError, Record,
};
use banmen_rules::with_rules;
use banmen_rules::{
    rules_for, BitBoard, Color, Geometry, Kind, Move, Position, Rules, Setup, Square, VariantName,
};

/// The `%` ending of a result, if CSA has one (the side to move is `to_move`).
pub(crate) fn result_line(r: GameResult, to_move: Color) -> Option<String> {
    let mover_wins = r.winner == Some(to_move);
    let mover_loses = r.winner == Some(!to_move);
    Some(
        match r.reason {
            EndReason::Resignation if mover_loses => "%TORYO",
            EndReason::Checkmate if mover_loses => "%TSUMI",
            EndReason::Repetition | EndReason::PerpetualCheck => "%SENNICHITE",
            EndReason::Impasse if r.winner.is_none() => "%JISHOGI",
            EndReason::Abort | EndReason::Sealed => "%CHUDAN",
            EndReason::Declaration if mover_wins => "%KACHI",
            EndReason::Timeout if mover_loses => "%TIME_UP",
            EndReason::Draw => "%HIKIWAKE",
            EndReason::MaxMoves if r.winner.is_none() => "%MAX_MOVES",
            EndReason::NoMate => "%FUZUMI",
            EndReason::Matta => "%MATTA",
            EndReason::Error => "%ERROR",
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

/// A square's digits: `77` on 9x9, `0909` on 17x17.
fn square_digits(g: Geometry, sq: Square) -> String {
    let d = g.coordinate_digits();
    format!("{:0d$}{:0d$}", g.file(sq), g.rank(sq) + 1)
}

/// Digits per square: 2 on 9x9, 4 on 17x17.
fn square_width(g: Geometry) -> usize {
    2 * g.coordinate_digits()
}

pub(crate) fn csa_code<B: BitBoard>(rules: &Rules<B>, k: Kind) -> Result<&'static str, String> {
    let code = &rules.kind(k).code;
    names(rules.variant.name)
        .csa(code)
        .ok_or_else(|| format!("CSA has no code for {code}"))
}

fn position_lines<B: BitBoard>(record: &Record, pos: &Position<B>) -> Result<String, String> {
    let rules = pos.rules();
    let v = &rules.variant;
    if sfen_sans_number(&record.start) == sfen_sans_number(v.start_sfen) {
        return Ok("PI\n+\n".into());
    }
    let g = rules.geometry;
    let mut s = String::new();
    for r in 0..g.ranks as i32 {
        s.push_str(&format!("P{}", r + 1));
        for f in (1..=g.files as i32).rev() {
            let sq = g.square(f, r).ok_or("off board")?;
            match pos.piece_at(sq) {
                None => s.push_str(" * "),
                Some(p) => {
                    s.push(sign(p.color));
                    s.push_str(csa_code(rules, p.kind)?);
                }
            }
        }
        s.push('\n');
    }
    for c in Color::ALL {
        let mut line = String::new();
        for k in 0..rules.n_base {
            for _ in 0..pos.hand_count(c, Kind(k as u8)) {
                line.push_str("00");
                line.push_str(csa_code(rules, Kind(k as u8))?);
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
    with_rules!(record.any_rules()?, r => write_on(r, record, v3))
}

fn write_on<B: BitBoard>(
    rules: &'static Rules<B>,
    record: &Record,
    v3: bool,
) -> Result<String, String> {
    let (mut pos, moves) = crate::record::replay(rules, &record.start, &record.moves)?;
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
    if record.variant != VariantName::default() {
        s.push_str(&format!("$VARIANT:{}\n", record.variant));
    }
    if !record.rules.is_empty() {
        s.push_str(&format!("$RULES:{}\n", record.rules));
    }
    if let Some(e) = &hd.event {
        s.push_str(&format!("$EVENT:{e}\n"));
    }
    if let Some(d) = &hd.start_date {
        s.push_str(&format!("$START_TIME:{d}\n"));
    }
    for (k, v) in &hd.other {
        let field = csa_key_of_kif(k).filter(|&f| f != "TIME_LIMIT" || is_v22_time_limit(v));
        if let Some(f) = field {
            s.push_str(&format!("${f}:{v}\n"));
        } else if k
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c == '+' || c == '-')
            && !k.is_empty()
        {
            s.push_str(&format!("${k}:{v}\n"));
        } else {
            // No V2.2 field (表題, a 持ち時間 in words): a comment, read back
            // as the header.
            s.push_str(&format!("'{k}：{v}\n"));
        }
    }
    s.push_str(&position_lines(record, &pos)?);
    for c in record.comments_at(0) {
        s.push_str(&format!("'*{c}\n"));
    }
    let g = rules.geometry;
    for (i, &m) in moves.iter().enumerate() {
        let c = pos.side_to_move();
        let piece = pos.moving_piece(m).ok_or("no moving piece")?;
        let kind = if m.is_promotion() {
            rules.kind(piece.kind).promotes_to.unwrap_or(piece.kind)
        } else {
            piece.kind
        };
        let mut squares = match m.from() {
            Some(f) => square_digits(g, f),
            None => "0".repeat(square_width(g)),
        };
        for x in crate::notation::mids(m) {
            squares.push_str(&square_digits(g, x));
        }
        squares.push_str(&square_digits(g, m.to()));
        s.push_str(&format!("{}{squares}{}\n", sign(c), csa_code(rules, kind)?));
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
/// Illegal moves.
pub fn write(record: &Record) -> Result<String, String> {
    write_version(record, false)
}

/// Writes CSA V3.0 (with the `'CSA encoding=UTF-8` line).
///
/// # Errors
/// Illegal moves.
pub fn write_v3(record: &Record) -> Result<String, String> {
    write_version(record, true)
}

/// The position being set up by `PI`, `P1`… and `P+` lines.
struct Diagram<B: BitBoard> {
    rules: &'static Rules<B>,
    /// Rank-major from rank a, file `files` first: as SFEN reads.
    board: Vec<Option<(Color, Kind)>>,
    hands: Vec<(Color, Kind)>,
    /// `P+00AL` / `P-00AL`: the side that gets the rest.
    rest_to: Option<Color>,
    touched: bool,
}

impl<B: BitBoard> Diagram<B> {
    fn index(&self, file: i32, rank: i32) -> Option<usize> {
        let g = self.rules.geometry;
        ((1..=g.files as i32).contains(&file) && (1..=g.ranks as i32).contains(&rank))
            .then(|| ((rank - 1) * g.files as i32 + (g.files as i32 - file)) as usize)
    }

    /// Fills the board with the game's start position.
    fn start_position(&mut self, n: usize) -> Result<(), ParseError> {
        let rules = self.rules;
        let start = Position::from_sfen(
            rules,
            rules.variant.start_sfen,
            banmen_rules::SfenMode::Strict,
        )
        .map_err(|e| ParseError::new(n, format!("start position: {e}")))?;
        let g = rules.geometry;
        for sq in g.all() {
            let idx = self
                .index(g.file(sq), g.rank(sq) + 1)
                .ok_or_else(|| ParseError::new(n, "off board"))?;
            self.board[idx] = start.piece_at(sq).map(|p| (p.color, p.kind));
        }
        Ok(())
    }

    /// The diagram as a [`Setup`], `side` to move.
    fn to_setup(&self, n: usize, side: Color) -> Result<Setup, ParseError> {
        let rules = self.rules;
        let g = rules.geometry;
        let mut hands = self.hands.clone();
        if let Some(c) = self.rest_to {
            // Every piece of the start position (both sides, by base kind) not
            // on the board or in a hand goes to `c`, kings excepted.
            let start = Position::from_sfen(
                rules,
                rules.variant.start_sfen,
                banmen_rules::SfenMode::Strict,
            )
            .map_err(|e| ParseError::new(n, format!("start position: {e}")))?;
            let mut count = vec![0i32; rules.kind_count()];
            for sq in g.all() {
                if let Some(p) = start.piece_at(sq) {
                    count[rules.kind(p.kind).base.index()] += 1;
                }
            }
            for (_, k) in self.board.iter().flatten() {
                count[rules.kind(*k).base.index()] -= 1;
            }
            for (_, k) in &hands {
                count[rules.kind(*k).base.index()] -= 1;
            }
            for (k, info) in rules.kinds.iter().enumerate().take(rules.n_base) {
                if info.royal {
                    continue;
                }
                for _ in 0..count[k].max(0) {
                    hands.push((c, Kind(k as u8)));
                }
            }
        }
        let mut out = Setup::empty(g);
        out.side = side;
        for sq in g.all() {
            let idx = self
                .index(g.file(sq), g.rank(sq) + 1)
                .ok_or_else(|| ParseError::new(n, "off board"))?;
            if let Some((c, k)) = self.board[idx] {
                out.put(sq, c, k);
            }
        }
        for (c, k) in hands {
            let slot = out.hands[c.index()]
                .get_mut(k.index())
                .ok_or_else(|| ParseError::new(n, "a piece that cannot be in hand"))?;
            *slot = slot.saturating_add(1);
        }
        Ok(out)
    }
}

fn color_of(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

/// Reads a piece code at the start of `s` (`FU`, `GC`, `+LN`): the kind and the rest.
pub(crate) fn take_code<'a, B: BitBoard>(rules: &Rules<B>, s: &'a str) -> Option<(Kind, &'a str)> {
    let len = if s.starts_with('+') { 3 } else { 2 };
    let code = s.get(..len)?;
    let sfen = names(rules.variant.name).code_of_csa(code)?;
    Some((rules.kind_by_code(sfen)?, &s[len..]))
}

/// Reads `width` digits as a square (`77`, `0909`); all zeros is `None` (in hand).
fn take_square(g: Geometry, s: &str) -> Result<Option<(i32, i32)>, ()> {
    let w = square_width(g);
    let digits = s.get(..w).ok_or(())?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    let (f, r) = digits.split_at(w / 2);
    let (f, r): (i32, i32) = (f.parse().map_err(|_| ())?, r.parse().map_err(|_| ())?);
    if f == 0 && r == 0 {
        return Ok(None);
    }
    if f < 1 || r < 1 || f > g.files as i32 || r > g.ranks as i32 {
        return Err(());
    }
    Ok(Some((f, r)))
}

fn parse_row<B: BitBoard>(
    setup: &mut Diagram<B>,
    n: usize,
    rank: i32,
    cells: &str,
) -> Result<(), ParseError> {
    let rules = setup.rules;
    let files = rules.geometry.files as i32;
    let mut rest = cells;
    for file in (1..=files).rev() {
        let idx = setup
            .index(file, rank)
            .ok_or_else(|| ParseError::new(n, "off board"))?;
        if rest.trim().is_empty() {
            return Err(ParseError::new(
                n,
                format!("P{rank} has {} squares, needs {files}", files - file),
            ));
        }
        // Trailing blanks of an empty last square are often trimmed, and
        // some writers separate the squares by one blank (`P2 * * * …`,
        // ShogiBoardQ's test files; tsshogi reads them): an empty square is
        // a `*` after any blanks.
        let cell = rest.trim_start_matches(' ');
        if let Some(after) = cell.strip_prefix('*') {
            rest = after;
            setup.board[idx] = None;
            continue;
        }
        rest = cell;
        let c = rest.chars().next().and_then(color_of);
        let piece = take_code(rules, rest.get(1..).unwrap_or(""));
        match (c, piece) {
            (Some(c), Some((k, r))) => {
                setup.board[idx] = Some((c, k));
                rest = r;
            }
            _ => {
                let cell: String = rest.chars().take(3).collect();
                return Err(ParseError::new(n, format!("bad square '{cell}'")));
            }
        }
    }
    if !rest.trim().is_empty() {
        return Err(ParseError::new(
            n,
            format!(
                "P{rank} needs {files} squares (left over: '{}')",
                rest.trim()
            ),
        ));
    }
    Ok(())
}

/// One item of a piece list: the square (file, rank; `None` = in hand) and
/// the piece (`None` = `AL`, the rest).
type PieceItem = (Option<(i32, i32)>, Option<Kind>);

/// Reads a `P+`/`P-` piece list or `PI` removals: square digits and a code, repeated.
fn piece_items<B: BitBoard>(
    rules: &Rules<B>,
    n: usize,
    st: &str,
    items: &str,
) -> Result<Vec<PieceItem>, ParseError> {
    let g = rules.geometry;
    let bad = || ParseError::new(n, format!("bad piece list '{st}'"));
    let mut out = Vec::new();
    let mut rest = items;
    while !rest.is_empty() {
        let sq = take_square(g, rest).map_err(|()| bad())?;
        rest = &rest[square_width(g)..];
        if let Some(r) = rest.strip_prefix("AL") {
            if sq.is_some() {
                return Err(bad());
            }
            out.push((None, None));
            rest = r;
            continue;
        }
        let (k, r) = take_code(rules, rest)
            .ok_or_else(|| ParseError::new(n, format!("unknown piece in '{st}'")))?;
        out.push((sq, Some(k)));
        rest = r;
    }
    Ok(out)
}

/// The game and options named by `$VARIANT` and `$RULES`.
fn prescan(text: &str) -> Result<Record, ParseError> {
    let mut rec = Record::new(VariantName::Shogi);
    let mut line = 1;
    for (i, raw) in text.lines().enumerate() {
        for st in raw.split(',') {
            let st = st.trim();
            if let Some(v) = st.strip_prefix("$VARIANT:") {
                let rules = rec.rules.clone();
                rec = Record::new(
                    v.trim()
                        .parse()
                        .map_err(|e| ParseError::new(i + 1, format!("{e}")))?,
                );
                rec.rules = rules;
            } else if let Some(v) = st.strip_prefix("$RULES:") {
                rec.rules = v.trim().to_string();
                line = i + 1;
            }
        }
    }
    rules_for(rec.variant, &rec.rules).map_err(|e| ParseError::new(line, e.to_string()))?;
    Ok(rec)
}

/// Reads CSA V2, V2.2 or V3.0: the first game of the file.
///
/// # Errors
/// The first problem, with its line.
pub fn read(text: &str) -> Result<Record, ParseError> {
    let games = split_games(text);
    let (offset, first) = games.first().copied().unwrap_or((0, text));
    read_game(first, offset)
}

/// Reads every game of a CSA file: the CSA standard (V2.2 §1) separates games
/// with a line of a single `/`.
///
/// # Errors
/// The first problem, with its line in the whole file.
pub fn read_all(text: &str) -> Result<Vec<Record>, ParseError> {
    split_games(text)
        .into_iter()
        .map(|(offset, game)| read_game(game, offset))
        .collect()
}

/// The games of a file, each with the number of lines before it. A `/` line
/// with nothing but blank lines after it ends the last game.
fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut games = Vec::new();
    let (mut start_byte, mut start_line) = (0, 0);
    let mut byte = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.trim() == "/" {
            games.push((start_line, &text[start_byte..byte]));
            start_byte = byte + line.len();
            start_line = i + 1;
        }
        byte += line.len();
    }
    let rest = &text[start_byte..];
    if games.is_empty() || !rest.trim().is_empty() {
        games.push((start_line, rest));
    }
    games
}

/// Reads one game; `offset` lines of the file come before it.
fn read_game(text: &str, offset: usize) -> Result<Record, ParseError> {
    let shift = |mut e: ParseError| {
        if e.line > 0 {
            e.line += offset;
        }
        e
    };
    let rec = prescan(text).map_err(shift)?;
    let any = rules_for(rec.variant, &rec.rules)
        .map_err(|e| ParseError::new(1, e.to_string()))
        .map_err(shift)?;
    with_rules!(any, r => read_on(r, rec, text)).map_err(shift)
}

fn read_on<B: BitBoard>(
    rules: &'static Rules<B>,
    mut rec: Record,
    text: &str,
) -> Result<Record, ParseError> {
    let g = rules.geometry;
    let mut setup = Diagram {
        rules,
        board: vec![None; g.squares()],
        hands: Vec::new(),
        rest_to: None,
        touched: false,
    };
    let mut pos: Option<Position<B>> = None;
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
            } else if let Some((k, v)) = c.split_once('：').filter(|_| pos.is_none()) {
                // A KIF header CSA has no field for, as the writer puts it.
                rec.headers.other.push((k.to_string(), v.to_string()));
            }
            continue;
        }
        // Names and `$` fields may hold commas; other lines may carry
        // several statements (`+7776FU,T12`), and a comment after them
        // (GPS Shogi's `+7776FU  ,T0  ,'T0 …`, floodgate's
        // `%KACHI,'* -5000 win`): a `'` item ends the line's statements.
        let (line, trailing_comment) = match line.find(",'") {
            Some(at) if !line.starts_with(['N', '$']) => (&line[..at], Some(&line[at + 2..])),
            _ => (line, None),
        };
        let statements: Vec<&str> = if line.starts_with(['N', '$']) {
            vec![line]
        } else {
            line.split(',').collect()
        };
        for stmt in statements {
            let st = stmt.trim();
            if st.is_empty() {
                continue;
            }
            let first = st.chars().next().unwrap_or(' ');
            if ending.is_some() {
                // What real files carry after the ending: the time of the
                // final action (ShogiHome writes `T` after every `%`;
                // `%CHUDAN,T51`), a second `%` line (the first one counts),
                // and headers such as WCSC's `$END_TIME`.
                match first {
                    'T' | '%' => continue,
                    'N' | '$' | 'V' => {}
                    _ => {
                        return Err(ParseError::new(
                            n,
                            format!("'{st}' after the end of the game"),
                        ))
                    }
                }
            }
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
                        "VARIANT" | "RULES" => {} // read by `prescan`
                        _ => {
                            let key = kif_key_of_csa(k).map_or(k.to_string(), String::from);
                            rec.headers.other.push((key, v.to_string()));
                        }
                    }
                }
                'P' if pos.is_some() => {
                    return Err(ParseError::new(
                        n,
                        format!("'{st}': a position line after the side to move"),
                    ));
                }
                'P' => {
                    setup.touched = true;
                    let rest = &st[1..];
                    if let Some(removals) = rest.strip_prefix('I') {
                        setup.start_position(n)?;
                        for (sq, _) in piece_items(rules, n, st, removals)? {
                            let (f, r) = sq.ok_or_else(|| ParseError::new(n, "bad PI square"))?;
                            let idx = setup
                                .index(f, r)
                                .ok_or_else(|| ParseError::new(n, "bad PI square"))?;
                            setup.board[idx] = None;
                        }
                    } else if rest.starts_with(|c: char| c.is_ascii_digit()) {
                        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                        let rank: i32 = rest[..digits].parse().unwrap_or(0);
                        if !(1..=g.ranks as i32).contains(&rank) {
                            return Err(ParseError::new(n, format!("bad rank line '{st}'")));
                        }
                        parse_row(&mut setup, n, rank, &rest[digits..])?;
                    } else if let Some(c) = rest.chars().next().and_then(color_of) {
                        for (sq, k) in piece_items(rules, n, st, &rest[1..])? {
                            let Some(k) = k else {
                                setup.rest_to = Some(c);
                                continue;
                            };
                            match sq {
                                None => {
                                    let info = rules.kind(k);
                                    if info.royal {
                                        return Err(ParseError::new(n, "a king in hand"));
                                    }
                                    if info.promoted {
                                        return Err(ParseError::new(
                                            n,
                                            format!("a promoted piece in hand in '{st}'"),
                                        ));
                                    }
                                    if !rules.variant.drops {
                                        return Err(ParseError::new(
                                            n,
                                            format!("{} has no pieces in hand", rules.variant.name),
                                        ));
                                    }
                                    setup.hands.push((c, info.base));
                                }
                                Some((f, r)) => {
                                    let idx = setup.index(f, r).ok_or_else(|| {
                                        ParseError::new(n, format!("bad square in '{st}'"))
                                    })?;
                                    setup.board[idx] = Some((c, k));
                                }
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
                    let start = setup.to_setup(n, side)?;
                    let p = Position::from_setup(rules, &start, mode_for_setup(rules, &start))
                        .map_err(|e| ParseError::new(n, format!("start position: {e}")))?;
                    // The SFEN of the position read: a tsume problem's
                    // defender holds the pieces not shown (SfenMode::Tsume).
                    rec.start = p.to_sfen();
                    pos = Some(p);
                }
                '+' | '-' => {
                    let p = pos
                        .as_mut()
                        .ok_or_else(|| ParseError::new(n, "a move before the start position"))?;
                    let m = parse_move(p, n, st)?;
                    rec.moves.push(p.move_to_usi(m));
                    p.make_move(m);
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
        // After the move it follows: `'*` is a move comment, as on its own line.
        if let Some(c) = trailing_comment.and_then(|c| c.strip_prefix('*')) {
            rec.headers.comments.push(Comment {
                ply: rec.moves.len(),
                text: c.to_string(),
            });
        }
    }
    let p =
        pos.ok_or_else(|| ParseError::new(last.max(1), "no start position and side to move"))?;
    if times.iter().any(|t| t.is_some_and(|x| x > 0)) {
        rec.times = times;
    }
    let to_move = p.side_to_move();
    let by_rules = rec.rules_result();
    rec.result = match ending {
        None => by_rules,
        Some((n, e)) => Some(
            ending_result(&e, to_move, by_rules)
                .ok_or_else(|| ParseError::new(n, format!("unknown ending '{e}'")))?,
        ),
    };
    Ok(rec)
}

/// The result of a `%` ending (`%TORYO`, `%+ILLEGAL_ACTION` …); `to_move` is
/// the side to move, `by_rules` what the moves give. `None`: not an ending.
pub(crate) fn ending_result(
    ending: &str,
    to_move: Color,
    by_rules: Option<GameResult>,
) -> Option<GameResult> {
    let res = |winner, reason| Some(GameResult { winner, reason });
    match ending {
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
        "%CHUDAN" => res(None, EndReason::Abort),
        "%MAX_MOVES" => res(None, EndReason::MaxMoves),
        "%FUZUMI" => res(None, EndReason::NoMate),
        "%MATTA" => res(None, EndReason::Matta),
        "%ERROR" => res(None, EndReason::Error),
        _ => None,
    }
}

/// Whether a 持ち時間 value has V2.2's `$TIME_LIMIT` form (`00:25+30`).
fn is_v22_time_limit(v: &str) -> bool {
    let Some((hm, byoyomi)) = v.split_once('+') else {
        return false;
    };
    let Some((h, m)) = hm.split_once(':') else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(h) && m.len() == 2 && digits(m) && digits(byoyomi)
}

/// Reads one move statement (`+7776FU`, `-0055KA`, `+090908080907+LN`).
pub(crate) fn parse_move<B: BitBoard>(
    p: &Position<B>,
    n: usize,
    st: &str,
) -> Result<Move, ParseError> {
    let rules = p.rules();
    let g = rules.geometry;
    let side = color_of(st.chars().next().unwrap_or(' ')).unwrap_or(Color::Black);
    if side != p.side_to_move() {
        return Err(ParseError::new(
            n,
            format!("'{st}': it is {}'s move", p.side_to_move().name()),
        ));
    }
    let bad = || ParseError::new(n, format!("bad move '{st}'"));
    let body = &st[1..];
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    let w = square_width(g);
    if digits < 2 * w || digits % w != 0 || digits > 4 * w {
        return Err(bad());
    }
    let mut squares = Vec::new();
    for i in 0..digits / w {
        let sq = take_square(g, &body[i * w..])
            .map_err(|()| ParseError::new(n, format!("bad square in '{st}'")))?;
        squares.push(sq.and_then(|(f, r)| g.square(f, r - 1)));
    }
    let (kind, rest) = take_code(rules, &body[digits..])
        .ok_or_else(|| ParseError::new(n, format!("unknown piece in '{st}'")))?;
    if !rest.is_empty() {
        return Err(bad());
    }
    let to = squares
        .last()
        .copied()
        .flatten()
        .ok_or_else(|| ParseError::new(n, format!("bad square in '{st}'")))?;
    let legal = p.legal_moves();
    let Some(from) = squares[0] else {
        if squares.len() != 2 {
            return Err(bad());
        }
        let m = Move::drop(kind, to);
        return if legal.contains(&m) {
            Ok(m)
        } else {
            Err(ParseError::new(
                n,
                format!(
                    "'{st}': {}",
                    p.parse_move(&p.move_to_usi(m))
                        .err()
                        .map_or("not a legal drop".to_string(), |e| e.to_string())
                ),
            ))
        };
    };
    let mut written_mids = Vec::new();
    for x in &squares[1..squares.len() - 1] {
        written_mids.push(x.ok_or_else(|| ParseError::new(n, format!("bad square in '{st}'")))?);
    }
    let moving = p.piece_at(from);
    let Some(moving) = moving else {
        return Err(ParseError::new(
            n,
            format!("'{st}': no piece on {}", &body[..w]),
        ));
    };
    let info = rules.kind(moving.kind);
    let promote = kind != moving.kind && info.promotes_to == Some(kind);
    if kind != moving.kind && !promote {
        return Err(ParseError::new(
            n,
            format!(
                "'{st}': the piece on {} is not {}",
                &body[..w],
                &body[digits..]
            ),
        ));
    }
    let found = legal.iter().copied().find(|&m| {
        m.from() == Some(from)
            && m.to() == to
            && m.is_promotion() == promote
            && same_mids(p, m, &written_mids)
    });
    match found {
        Some(m) => Ok(m),
        None => {
            // Ask the rules why, through the USI text of the same move.
            let mut usi = g.name(from).to_string();
            for x in &written_mids {
                usi.push_str(&g.name(*x).to_string());
            }
            usi.push_str(&g.name(to).to_string());
            if promote {
                usi.push('+');
            }
            let why = p
                .parse_move(&usi)
                .err()
                .map_or("not a legal move".to_string(), |e| e.to_string());
            Err(ParseError::new(n, format!("'{st}': {why}")))
        }
    }
}
