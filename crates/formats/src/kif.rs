//! KIF (`.kif` Shift-JIS, `.kifu` UTF-8) and KI2, for all three games.
//!
//! Cannon and dai dai shogi records carry `将棋種類：cannonshogi` (or
//! `daidaishogi`) and, with rule options, `ルール：flying-cannon=leap`; their
//! pieces have the kanji names listed in the crate's conventions (金砲, 獅子 …).
//! On 17x17 a square is written `１２十一` and an origin `(1211)` (two digits
//! for the file, two for the rank); a lion's double move lists its middle
//! squares after the origin: `９七獅子成(0909,0908)`. A start position other
//! than the game's own is a board diagram in standard shogi and minishogi and
//! an `SFEN：` line in the other games.
//!
//! Minishogi is `手合割：5五将棋`, as lishogi writes and reads it (`５五将棋`
//! and `五々将棋` are read too), with a 5x5 diagram after it for a set-up
//! position; its squares are standard shogi's (`５三歩(54)`).

use crate::names::names;
use crate::notation::{mark, parse_japanese, to_japanese, NotationError};
use crate::record::{
    mode_for, mode_for_setup, sfen_sans_number, Comment, EndReason, GameResult, LineRef,
    ParseError, Record, Variation,
};
use banmen_rules::with_rules;
use banmen_rules::{
    rules_for, BitBoard, Color, Geometry, Kind, Move, Piece, PieceNames, Position, Rules, Setup,
    Square, Variant, VariantName,
};

const NUMS: [&str; 19] = [
    "", "", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];

fn kanji_number(s: &str) -> Option<u32> {
    if s.is_empty() {
        return Some(1);
    }
    if s == "一" {
        return Some(1);
    }
    NUMS.iter()
        .skip(2)
        .position(|&x| x == s)
        .map(|i| i as u32 + 2)
}

/// The character a KIF board diagram writes for a piece: its Japanese name
/// where that is one kanji (`歩`, `玉`, `と`), else its one-kanji board form
/// (`杏` for 成香); none for pieces with neither (the cannons).
fn diagram_char(names: &PieceNames) -> Option<char> {
    [names.japanese, names.abbreviation]
        .iter()
        .find_map(|name| {
            let mut chars = name.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        })
}

/// Whether a KIF board diagram can show this game: a 9x9 or 5x5 board
/// whose every piece has a one-kanji form (standard shogi and minishogi;
/// not the cannons).
fn diagram_fits<B: BitBoard>(rules: &Rules<B>) -> bool {
    matches!(rules.geometry, Geometry::NINE | Geometry::FIVE)
        && rules.kinds.iter().all(|k| diagram_char(&k.names).is_some())
}

/// The 手合割 that names minishogi, as Banmen writes it: lishogi (shogiops
/// `kifHandicaps.ts`) writes `5五将棋` (the file an ASCII digit) and
/// bioshogi spells it so too. Kakinoki's KIF has no 将棋種類 header, so the
/// 手合割 line is where a KIF says which game it is.
pub(crate) const MINISHOGI_HANDICAP: &str = "5五将棋";

/// The game a 手合割 value names, where it names one: minishogi by
/// `5五将棋`, `５五将棋`, `五五将棋` or `五々将棋` (lishogi reads all four;
/// its old exports wrote `五々将棋`).
fn game_of_handicap(value: &str) -> Option<VariantName> {
    matches!(value, "5五将棋" | "５五将棋" | "五五将棋" | "五々将棋")
        .then_some(VariantName::MiniShogi)
}

/// The terminal word of a result, if KIF has one (the side to move is `to_move`).
fn terminal_word(r: GameResult, to_move: Color) -> Option<&'static str> {
    let mover_wins = r.winner == Some(to_move);
    let mover_loses = r.winner == Some(!to_move);
    Some(match r.reason {
        EndReason::Resignation if mover_loses => "投了",
        EndReason::Checkmate if mover_loses => "詰み",
        // A perpetual check loses (JSA rules): a foul by the checking side,
        // not a drawn 千日手 with a winner that contradicts it.
        EndReason::PerpetualCheck if mover_wins => "反則勝ち",
        EndReason::PerpetualCheck if mover_loses => "反則負け",
        EndReason::Repetition | EndReason::PerpetualCheck => "千日手",
        EndReason::Impasse if r.winner.is_none() => "持将棋",
        EndReason::Abort => "中断",
        EndReason::IllegalMove if mover_wins => "反則勝ち",
        EndReason::IllegalMove if mover_loses => "反則負け",
        EndReason::Declaration if mover_wins => "入玉勝ち",
        EndReason::Try if mover_wins => "トライ",
        EndReason::Timeout if mover_loses => "切れ負け",
        EndReason::NoMate => "不詰",
        EndReason::Sealed => "封じ手",
        // Kakinoki's KIF has no word for a draw by agreement; tsshogi and
        // cshogi read an unknown terminal word without an error.
        EndReason::Draw => "引き分け",
        _ => return None,
    })
}

/// Kakinoki's 手合割 names that the rules crate's handicap list lacks, with
/// their start positions (uwate, White, to move); read by name, written as a
/// board diagram with 上手/下手 (tsshogi does not know these names, cshogi
/// 1.1.0 knows the first three). Taken from two other
/// projects' tables and cshogi 1.1.0's `KIF.Parser.HANDYCAP_SFENS` (the first
/// three), which agree (a JavaScript shogi board's `startInfos` and a Qt
/// KIF/JKF converter's presets), and checked against the pieces
/// each name removes: 三枚落ち = 飛 角 左香 (香落ち plus 飛車角), 五枚落ち =
/// 飛 角 両香 右桂, 左五枚落ち = 飛 角 両香 左桂, 左七枚落ち = 六枚落ち plus
/// the left silver (3a), 右七枚落ち = 六枚落ち plus the right silver (7a);
/// the uwate's left is files 1-4.
const KAKINOKI_HANDICAPS: [(&str, &str); 5] = [
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The extra Kakinoki handicaps of a game: standard shogi's only.
pub(crate) fn kakinoki_handicaps(variant: VariantName) -> &'static [(&'static str, &'static str)] {
    if variant == VariantName::Shogi {
        &KAKINOKI_HANDICAPS
    } else {
        &[]
    }
}

fn side_name(c: Color, handicap: bool) -> &'static str {
    match (c, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

fn hand_text<B: BitBoard>(pos: &Position<B>, c: Color) -> String {
    let rules = pos.rules();
    let mut s = String::new();
    for k in 0..rules.n_base {
        let n = pos.hand_count(c, Kind(k as u8)) as usize;
        if n == 0 {
            continue;
        }
        let name = names(rules.variant.name)
            .kanji(&rules.kinds[k].code)
            .unwrap_or("？");
        s.push_str(name);
        s.push_str(NUMS.get(n).copied().unwrap_or("十八"));
        s.push('　');
    }
    if s.is_empty() {
        "なし".into()
    } else {
        s
    }
}

fn diagram<B: BitBoard>(pos: &Position<B>, handicap: bool) -> Result<String, String> {
    let g = pos.rules().geometry;
    let mut s = format!(
        "{}の持駒：{}\n",
        side_name(Color::White, handicap),
        hand_text(pos, Color::White)
    );
    // A 5x5 diagram as lishogi writes minishogi's: files ５…１, ranks 一…五.
    const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
    const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let files = usize::from(g.files).min(9);
    s.push(' ');
    for f in FILES[..files].iter().rev() {
        s.push(' ');
        s.push(*f);
    }
    let rule = format!("+{}+\n", "-".repeat(files * 3));
    s.push('\n');
    s.push_str(&rule);
    for (r, rank) in RANKS[..usize::from(g.ranks).min(9)].iter().enumerate() {
        s.push('|');
        for f in (1..=files as i32).rev() {
            let sq = g.square(f, r as i32).ok_or("off board")?;
            match pos.piece_at(sq) {
                None => s.push_str(" ・"),
                Some(p) => {
                    s.push(if p.color == Color::White { 'v' } else { ' ' });
                    let info = pos.rules().kind(p.kind);
                    let code = &info.code;
                    s.push(diagram_char(&info.names).ok_or_else(|| {
                        format!("a KIF board diagram has no character for {code}")
                    })?);
                }
            }
        }
        s.push('|');
        s.push(*rank);
        s.push('\n');
    }
    s.push_str(&rule);
    s.push_str(&format!(
        "{}の持駒：{}\n",
        side_name(Color::Black, handicap),
        hand_text(pos, Color::Black)
    ));
    if pos.side_to_move() == Color::White {
        s.push_str(&format!("{}番\n", side_name(Color::White, handicap)));
    }
    Ok(s)
}

fn header_block<B: BitBoard>(
    record: &Record,
    start: &Position<B>,
) -> Result<(String, bool), String> {
    let mut s = String::new();
    let variant = Variant::get(record.variant).ok_or("unknown variant")?;
    // Minishogi is named by its 手合割, as lishogi writes it; the other
    // games by Banmen's 将棋種類.
    let minishogi = record.variant == VariantName::MiniShogi;
    if record.variant != VariantName::default() && !minishogi {
        s.push_str(&format!("将棋種類：{}\n", record.variant));
    }
    if !record.rules.is_empty() {
        s.push_str(&format!("ルール：{}\n", record.rules));
    }
    let hd = &record.headers;
    if let Some(d) = &hd.start_date {
        s.push_str(&format!("開始日時：{d}\n"));
    }
    if let Some(e) = &hd.event {
        s.push_str(&format!("棋戦：{e}\n"));
    }
    for (k, v) in &hd.other {
        s.push_str(&format!("{k}：{v}\n"));
    }
    let start_key = sfen_sans_number(&record.start);
    let handicap = variant
        .handicaps
        .iter()
        .find(|h| sfen_sans_number(h.sfen) == start_key);
    // Kakinoki's other handicaps are read by name, but written as a diagram:
    // tsshogi refuses their names and cshogi knows only some.
    let other_handicap = kakinoki_handicaps(record.variant)
        .iter()
        .any(|(_, sfen)| sfen_sans_number(sfen) == start_key);
    let even = sfen_sans_number(variant.start_sfen) == start_key;
    let is_handicap = handicap.is_some() || other_handicap;
    if minishogi {
        // A set-up position follows as a diagram (lishogi's layout).
        s.push_str(&format!("手合割：{MINISHOGI_HANDICAP}\n"));
        if !even {
            s.push_str(&diagram(start, false)?);
        }
    } else if even {
        s.push_str("手合割：平手\n");
    } else if let Some(h) = handicap {
        s.push_str(&format!("手合割：{}\n", h.japanese));
    } else if other_handicap && diagram_fits(start.rules()) {
        s.push_str(&diagram(start, true)?);
    } else if diagram_fits(start.rules()) {
        s.push_str(&diagram(start, false)?);
    } else {
        s.push_str(&format!("SFEN：{}\n", record.start));
    }
    if let Some(b) = &hd.black {
        s.push_str(&format!("{}：{b}\n", side_name(Color::Black, is_handicap)));
    }
    if let Some(w) = &hd.white {
        s.push_str(&format!("{}：{w}\n", side_name(Color::White, is_handicap)));
    }
    for c in record.comments_at(0) {
        s.push_str(&format!("*{c}\n"));
    }
    Ok((s, is_handicap))
}

/// The `まで…` result line, in the words Kifu for Windows and tsshogi write
/// and tsshogi and cshogi read: `まで64手で後手の勝ち` (resignation and
/// checkmate alike), `時間切れにより先手の勝ち`, `先手の反則勝ち` and
/// `先手の反則負け` (the side to move), `後手の入玉勝ち`, `千日手`, `持将棋`,
/// `中断`, `不詰`, `引き分け`. `to_move` is the side to move after the last move.
fn summary(result: Option<GameResult>, n: usize, handicap: bool, to_move: Color) -> Option<String> {
    let r = result?;
    let side = |c| side_name(c, handicap);
    let text = match (r.winner, r.reason) {
        (Some(w), EndReason::Timeout) => format!("時間切れにより{}の勝ち", side(w)),
        (Some(w), EndReason::IllegalMove | EndReason::PerpetualCheck) if w == to_move => {
            format!("{}の反則勝ち", side(to_move))
        }
        (Some(_), EndReason::IllegalMove | EndReason::PerpetualCheck) => {
            format!("{}の反則負け", side(to_move))
        }
        (Some(w), EndReason::Declaration) => format!("{}の入玉勝ち", side(w)),
        (Some(w), _) => format!("{}の勝ち", side(w)),
        (None, EndReason::Repetition | EndReason::PerpetualCheck) => "千日手".into(),
        (None, EndReason::Impasse) => "持将棋".into(),
        (None, EndReason::Abort) => "中断".into(),
        (None, EndReason::NoMate) => "不詰".into(),
        (None, EndReason::Sealed) => "封じ手".into(),
        (None, EndReason::Draw) => "引き分け".into(),
        (None, _) => return None,
    };
    Some(format!("まで{n}手で{text}\n"))
}

/// Reads a `まで…` result line (`まで64手で後手の勝ち`, `まで、100手で千日手`,
/// `まで77手で時間切れにより先手の勝ち`): the words [`summary`] writes and
/// the terminal words; `None` for anything else. `to_move` is the side to
/// move after the last move; `by_rules` the result the moves give.
fn read_summary(line: &str, to_move: Color, by_rules: Option<GameResult>) -> Option<GameResult> {
    let clean: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let rest = clean.strip_prefix("まで")?.trim_start_matches('、');
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = rest.strip_prefix("手で").unwrap_or(rest);
    let named = if rest.contains("先手の") || rest.contains("下手の") {
        Some(Color::Black)
    } else if rest.contains("後手の") || rest.contains("上手の") {
        Some(Color::White)
    } else {
        None
    };
    let res = |winner, reason| Some(GameResult { winner, reason });
    if rest.starts_with("時間切れ") {
        return res(Some(named.unwrap_or(!to_move)), EndReason::Timeout);
    }
    if rest.ends_with("反則勝ち") {
        return foul(Some(named.unwrap_or(to_move)), by_rules);
    }
    if rest.ends_with("反則負け") {
        return foul(Some(!named.unwrap_or(to_move)), by_rules);
    }
    if rest.ends_with("入玉勝ち") || rest.ends_with("宣言勝ち") {
        return res(Some(named.unwrap_or(to_move)), EndReason::Declaration);
    }
    if rest.ends_with("勝ち") {
        let winner = named.unwrap_or(!to_move);
        // Kifu for Windows writes a mate as a win too: the rules tell.
        return match by_rules {
            Some(r) if r.winner == Some(winner) => Some(r),
            _ => res(Some(winner), EndReason::Resignation),
        };
    }
    terminal_result(rest, to_move, by_rules)
}

fn clock(secs: u32) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Writes KIF (as text; [`crate::write`] encodes `.kif` as Shift-JIS).
///
/// # Errors
/// Illegal moves, or a game KIF cannot show.
pub fn write_kif(record: &Record) -> Result<String, String> {
    with_rules!(record.any_rules()?, r => write_kif_on(r, record))
}

fn write_kif_on<B: BitBoard>(rules: &'static Rules<B>, record: &Record) -> Result<String, String> {
    let (start, _) = crate::record::replay(rules, &record.start, &[])?;
    let (mut s, handicap) = header_block(record, &start)?;
    s.push_str("手数----指手---------消費時間--\n");
    for line in record.lines()? {
        let LineStart {
            mut pos,
            mut prev,
            mut total,
        } = line_start(&start, &line)?;
        if !line.main {
            s.push_str(&format!("\n変化：{}手\n", line.first_ply));
            for c in line.comments_at(line.first_ply - 1) {
                s.push_str(&format!("*{c}\n"));
            }
        }
        let plus = |i: usize| if line.branches[i] { "+" } else { "" };
        for (i, text) in line.moves.iter().enumerate() {
            let ply = line.first_ply + i;
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("move {ply} ({text}): {e}"))?;
            let text = to_japanese(&pos, m, prev, true);
            let t = line.time(i).unwrap_or(0);
            let side = pos.side_to_move().index();
            total[side] = total[side].saturating_add(t);
            let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
            let pad = " ".repeat(14usize.saturating_sub(width).max(1));
            s.push_str(&format!(
                "{ply:>4} {text}{pad}({:>2}:{:02}/{}){}\n",
                t / 60,
                t % 60,
                clock(total[side]),
                plus(i)
            ));
            for c in line.comments_at(ply) {
                s.push_str(&format!("*{c}\n"));
            }
            prev = Some(m.to());
            pos.make_move(m);
        }
        let end = line.first_ply + line.moves.len();
        let word = line
            .result
            .and_then(|r| terminal_word(r, pos.side_to_move()));
        // Kifu for Windows writes the `まで…` line after every line's end.
        let summary_line = summary(line.result, end - 1, handicap, pos.side_to_move());
        if word.is_none() && summary_line.is_none() && line.branches[line.moves.len()] {
            // Read back, the variation would continue the line instead.
            return Err(format!(
                "a variation branches at move {end}, after an ending KIF has no word for"
            ));
        }
        match word {
            // tsshogi reads a terminal word up to the next space: a `+` goes
            // after a time field, as Kifu for Windows and tsshogi write it.
            Some(word) if line.branches[line.moves.len()] => {
                let pad = " ".repeat(14usize.saturating_sub(2 * word.chars().count()).max(1));
                let side = pos.side_to_move().index();
                s.push_str(&format!(
                    "{end:>4} {word}{pad}( 0:00/{})+\n",
                    clock(total[side])
                ));
            }
            Some(word) => s.push_str(&format!("{end:>4} {word}\n")),
            None => {}
        }
        if let Some(text) = summary_line {
            s.push_str(&text);
        }
    }
    Ok(s)
}

/// Where a line starts: the position, the last move's square (for `同`)
/// and each side's total time.
struct LineStart<B: BitBoard> {
    pos: Position<B>,
    prev: Option<Square>,
    total: [u32; 2],
}

fn line_start<B: BitBoard>(
    start: &Position<B>,
    line: &LineRef<'_>,
) -> Result<LineStart<B>, String> {
    let mut at = LineStart {
        pos: start.clone(),
        prev: None,
        total: [0; 2],
    };
    for (i, text) in line.path.iter().enumerate() {
        let m = at
            .pos
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        let t = line.path_times.get(i).copied().flatten().unwrap_or(0);
        let side = at.pos.side_to_move().index();
        at.total[side] = at.total[side].saturating_add(t);
        at.prev = Some(m.to());
        at.pos.make_move(m);
    }
    Ok(at)
}

/// Writes KI2: KIF headers, then Japanese moves without origins, six a line,
/// and each variation after a `変化：N手` line.
///
/// # Errors
/// Illegal moves, or a game KI2 cannot show.
pub fn write_ki2(record: &Record) -> Result<String, String> {
    with_rules!(record.any_rules()?, r => write_ki2_on(r, record))
}

fn write_ki2_on<B: BitBoard>(rules: &'static Rules<B>, record: &Record) -> Result<String, String> {
    let (start, _) = crate::record::replay(rules, &record.start, &[])?;
    let (mut s, handicap) = header_block(record, &start)?;
    for line in record.lines()? {
        let LineStart {
            mut pos, mut prev, ..
        } = line_start(&start, &line)?;
        if !line.main {
            s.push_str(&format!("\n変化：{}手\n", line.first_ply));
            for c in line.comments_at(line.first_ply - 1) {
                s.push_str(&format!("*{c}\n"));
            }
        }
        let mut row: Vec<String> = Vec::new();
        for (i, text) in line.moves.iter().enumerate() {
            let ply = line.first_ply + i;
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("move {ply} ({text}): {e}"))?;
            row.push(format!(
                "{}{}",
                mark(pos.side_to_move()),
                to_japanese(&pos, m, prev, false)
            ));
            let comments: Vec<&str> = line.comments_at(ply).collect();
            if row.len() == 6 || !comments.is_empty() {
                s.push_str(&row.join("    "));
                s.push('\n');
                row.clear();
            }
            for c in comments {
                s.push_str(&format!("*{c}\n"));
            }
            prev = Some(m.to());
            pos.make_move(m);
        }
        if !row.is_empty() {
            s.push_str(&row.join("    "));
            s.push('\n');
        }
        // KI2 has no terminal move line: the `まで…` line carries the
        // reason, in a variation too (as tsshogi writes and reads it).
        let end = line.first_ply - 1 + line.moves.len();
        let summary_line = summary(line.result, end, handicap, pos.side_to_move());
        if summary_line.is_none() && line.branches[line.moves.len()] {
            return Err(format!(
                "a variation branches at move {}, after an ending KI2 has no words for",
                end + 1
            ));
        }
        if let Some(text) = summary_line {
            s.push_str(&text);
        }
    }
    Ok(s)
}

/// How a line of the tree ends, as read.
enum End {
    /// A terminal move line (`投了`, `*終局：…`) and the side it names, if any.
    Word(String, Option<Color>),
    /// A `まで…` line (KI2; KIF after a terminal line is read from the latter).
    Summary(String),
    /// An illegal move that the file says ended the game (Shogi Club 24's
    /// `*反則手にて終局`, or a `反則勝ち`/`反則負け` line after it): the side to
    /// move played it and loses; the move itself is not kept.
    Illegal,
}

/// A node of the tree being read: the start (node 0), a move, or the end of a line.
struct Node {
    parent: usize,
    /// The plies played to reach it (an end has its parent's).
    ply: usize,
    mv: Option<Move>,
    usi: String,
    time: Option<u32>,
    end: Option<End>,
    comments: Vec<String>,
    /// The first child continues the line; the others are its variations.
    children: Vec<usize>,
}

impl Node {
    fn new(parent: usize, ply: usize) -> Node {
        Node {
            parent,
            ply,
            mv: None,
            usi: String::new(),
            time: None,
            end: None,
            comments: Vec::new(),
            children: Vec::new(),
        }
    }
}

struct Reader<B: BitBoard> {
    rules: &'static Rules<B>,
    rec: Record,
    board: Option<Vec<Option<Piece>>>,
    hands: [Vec<(Kind, u32)>; 2],
    white_to_move: bool,
    /// The position at `current` (at its parent for an end).
    pos: Option<Position<B>>,
    start_pos: Option<Position<B>>,
    /// The tree read so far; node 0 is the start.
    nodes: Vec<Node>,
    /// The node the next move follows.
    current: usize,
}

impl<B: BitBoard> Reader<B> {
    fn rules(&self, _n: usize) -> Result<&'static Rules<B>, ParseError> {
        Ok(self.rules)
    }

    /// The position at the first move: built from the diagram if there was one.
    fn start(&mut self, n: usize) -> Result<&mut Position<B>, ParseError> {
        if self.pos.is_none() {
            let mut setup = None;
            if let Some(board) = &self.board {
                // The diagram: rows from White's side, the highest file first
                // (nine of nine; minishogi's five of five).
                let rules = self.rules(n)?;
                let g = rules.geometry;
                let files = i32::from(g.files);
                let mut diagram = Setup::empty(g);
                for (i, p) in board.iter().enumerate() {
                    let (rank, column) = (i as i32 / files, i as i32 % files);
                    if let (Some(p), Some(sq)) = (p, g.square(files - column, rank)) {
                        diagram.put(sq, p.color, p.kind);
                    }
                }
                if self.white_to_move {
                    diagram.side = Color::White;
                }
                for (c, list) in self.hands.iter().enumerate() {
                    for &(k, count) in list {
                        let slot = diagram.hands[c]
                            .get_mut(k.index())
                            .ok_or_else(|| ParseError::new(n, "a piece that cannot be in hand"))?;
                        *slot = slot.saturating_add(count.min(255) as u8);
                    }
                }
                setup = Some(diagram);
            } else if self.white_to_move {
                // 後手番 without a diagram: the same board, White to move.
                let mut f: Vec<String> = self
                    .rec
                    .start
                    .split_whitespace()
                    .map(String::from)
                    .collect();
                if f.len() >= 2 {
                    f[1] = "w".into();
                }
                self.rec.start = f.join(" ");
            }
            let rules = self.rules(n)?;
            let p = match &setup {
                Some(s) => Position::from_setup(rules, s, mode_for_setup(rules, s)),
                None => {
                    Position::from_sfen(rules, &self.rec.start, mode_for(rules, &self.rec.start))
                }
            }
            .map_err(|e| ParseError::new(n, format!("start position: {e}")))?;
            if setup.is_some() {
                // The SFEN of the diagram read: a tsume problem's defender
                // holds the pieces not shown (SfenMode::Tsume).
                self.rec.start = p.to_sfen();
            }
            self.start_pos = Some(p.clone());
            self.pos = Some(p);
        }
        self.pos
            .as_mut()
            .ok_or_else(|| ParseError::new(n, "no position"))
    }

    fn play(&mut self, n: usize, text: &str) -> Result<(), ParseError> {
        self.try_play(n, text)?
            .map_err(|e| ParseError::new(n, e.to_string()))
    }

    /// Plays a move; the inner error is the move text's (which a caller may
    /// keep when the text is read but not legal).
    fn try_play(&mut self, n: usize, text: &str) -> Result<Result<(), NotationError>, ParseError> {
        if self.ended() {
            return Err(ParseError::new(n, "a move after the end of the game"));
        }
        let at = self.current;
        let prev = self.nodes[at].mv.map(|m| m.to());
        let pos = self.start(n)?;
        let m = match parse_japanese(pos, text, prev) {
            Ok(m) => m,
            Err(e) => return Ok(Err(e)),
        };
        let usi = pos.move_to_usi(m);
        pos.make_move(m);
        let mut node = Node::new(at, self.nodes[at].ply + 1);
        node.mv = Some(m);
        node.usi = usi;
        self.add(node);
        Ok(Ok(()))
    }

    /// Adds a node after the current one and makes it current.
    fn add(&mut self, node: Node) {
        let id = self.nodes.len();
        let parent = node.parent;
        self.nodes.push(node);
        self.nodes[parent].children.push(id);
        self.current = id;
    }

    /// Ends the current line.
    fn end(&mut self, end: End) {
        let at = self.current;
        let mut node = Node::new(at, self.nodes[at].ply);
        node.end = Some(end);
        self.add(node);
    }

    /// Whether the current line has ended (a terminal or `まで…` line).
    fn ended(&self) -> bool {
        self.nodes[self.current].end.is_some()
    }

    fn comment(&mut self, text: &str) {
        let at = self.current;
        self.nodes[at].comments.push(text.to_string());
    }

    /// `変化：N手`: back to ply N-1 on the line read last, as Kifu for
    /// Windows and tsshogi read it; the moves that follow branch off there.
    fn branch(&mut self, n: usize, text: &str) -> Result<(), ParseError> {
        if self.nodes[0].children.is_empty() {
            // Some programs write a `変化：` line among the headers (tsshogi
            // passes over it there).
            return Ok(());
        }
        let digits: String = text
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        let ply: usize = digits.parse().ok().filter(|&p| p > 0).ok_or_else(|| {
            ParseError::new(n, format!("a variation without its move number: '{text}'"))
        })?;
        let mut at = self.current;
        while at != 0 && (self.nodes[at].end.is_some() || self.nodes[at].ply >= ply) {
            at = self.nodes[at].parent;
        }
        if self.nodes[at].ply + 1 != ply {
            return Err(ParseError::new(
                n,
                format!(
                    "a variation at move {ply}, but the line read last has {} moves",
                    self.nodes[at].ply
                ),
            ));
        }
        // Replay the line to the branch point.
        let mut path = Vec::new();
        let mut p = at;
        while p != 0 {
            path.extend(self.nodes[p].mv);
            p = self.nodes[p].parent;
        }
        self.start(n)?;
        let mut pos = self
            .start_pos
            .clone()
            .ok_or_else(|| ParseError::new(n, "no position"))?;
        for &m in path.iter().rev() {
            pos.make_move(m);
        }
        self.pos = Some(pos);
        self.current = at;
        Ok(())
    }

    fn header(&mut self, n: usize, key: &str, value: &str) -> Result<(), ParseError> {
        let v = value.trim().to_string();
        match key.trim() {
            "手合割" => {
                let variant = Variant::get(self.rec.variant)
                    .ok_or_else(|| ParseError::new(n, "unknown variant"))?;
                if v == "平手" || game_of_handicap(&v) == Some(self.rec.variant) {
                    self.rec.start = variant.start_sfen.to_string();
                } else if let Some(h) = variant.handicap(&v) {
                    self.rec.start = h.sfen.to_string();
                } else if let Some((_, sfen)) = kakinoki_handicaps(self.rec.variant)
                    .iter()
                    .find(|(name, _)| *name == v)
                {
                    self.rec.start = sfen.to_string();
                } else if v != "その他" && v != "詰将棋" {
                    return Err(ParseError::new(n, format!("unknown handicap '{v}'")));
                }
            }
            // Read before the rest (see `prescan`).
            "将棋種類" | "ルール" => {}
            "SFEN" => self.rec.start = v,
            "先手" | "下手" => self.rec.headers.black = Some(v),
            "後手" | "上手" => self.rec.headers.white = Some(v),
            "開始日時" => self.rec.headers.start_date = Some(v),
            "棋戦" => self.rec.headers.event = Some(v),
            "先手の持駒" | "下手の持駒" | "後手の持駒" | "上手の持駒" => {
                let c = if key.starts_with('先') || key.starts_with('下') {
                    0
                } else {
                    1
                };
                let rules = self.rules(n)?;
                let mut list = Vec::new();
                for t in v
                    .split(['　', ' '])
                    .filter(|t| !t.is_empty() && *t != "なし")
                {
                    let (code, rest) = names(rules.variant.name)
                        .parse_kanji(t)
                        .ok_or_else(|| ParseError::new(n, format!("bad hand piece '{t}'")))?;
                    let k = rules
                        .kind_by_code(code)
                        .ok_or_else(|| ParseError::new(n, format!("bad hand piece '{t}'")))?;
                    let count = kanji_number(rest)
                        .or_else(|| rest.parse().ok())
                        .ok_or_else(|| ParseError::new(n, format!("bad count in '{t}'")))?;
                    list.push((k, count));
                }
                self.hands[c] = list;
            }
            _ => self.rec.headers.other.push((key.trim().to_string(), v)),
        }
        Ok(())
    }

    fn board_row(&mut self, n: usize, line: &str) -> Result<(), ParseError> {
        let rules = self.rules(n)?;
        if !diagram_fits(rules) {
            return Err(ParseError::new(
                n,
                "board diagrams are for 9x9 and 5x5 games (write an SFEN： line)",
            ));
        }
        let files = usize::from(rules.geometry.files);
        let inner = line.trim_start_matches('|');
        let inner = inner.split('|').next().unwrap_or("");
        let chars: Vec<char> = inner.chars().collect();
        if chars.len() != 2 * files {
            return Err(ParseError::new(
                n,
                format!("a board row must have {files} squares"),
            ));
        }
        let board = self.board.get_or_insert_with(Vec::new);
        if board.len() >= files * usize::from(rules.geometry.ranks) {
            return Err(ParseError::new(n, format!("more than {files} board rows")));
        }
        for cell in chars.chunks(2) {
            let (side, ch) = (cell[0], cell[1]);
            if ch == '・' {
                board.push(None);
                continue;
            }
            let color = match side {
                'v' | 'V' => Color::White,
                ' ' | '^' | '　' => Color::Black,
                _ => return Err(ParseError::new(n, format!("bad square '{side}{ch}'"))),
            };
            let (code, _) = names(rules.variant.name)
                .parse_kanji(&ch.to_string())
                .ok_or_else(|| ParseError::new(n, format!("unknown piece '{ch}'")))?;
            let kind = rules
                .kind_by_code(code)
                .ok_or_else(|| ParseError::new(n, format!("unknown piece '{ch}'")))?;
            board.push(Some(Piece { color, kind }));
        }
        Ok(())
    }
}

fn parse_time(s: &str) -> Option<u32> {
    let inner = s.trim().trim_start_matches('(').trim_end_matches(')');
    let per = inner.split('/').next()?.trim();
    let (m, sec) = per.split_once(':')?;
    // Checked: an absurd time is no time, not an overflow.
    m.trim()
        .parse::<u32>()
        .ok()?
        .checked_mul(60)?
        .checked_add(sec.trim().parse::<u32>().ok()?)
}

/// The marks before a KI2 move: ▲△, ☗☖, and ▼▽ (mog-core-scala's KI2
/// files write ▽ for White).
const MARKS: [char; 6] = ['▲', '△', '☗', '☖', '▼', '▽'];

/// Whether a line after an illegal move says the game ended with it: a
/// comment that names a foul (`*反則手にて終局`, Shogi Club 24) or a
/// `反則勝ち`/`反則負け` line.
fn ends_by_foul(line: &str) -> bool {
    match line.strip_prefix('*') {
        Some(comment) => comment.contains("反則"),
        None => {
            let body = line.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
            let word = split_side(body).1;
            word.starts_with("反則勝ち") || word.starts_with("反則負け")
        }
    }
}

const TERMINALS: [&str; 16] = [
    "投了",
    "中断",
    "千日手",
    "詰み",
    "持将棋",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "切れ負け",
    "不詰",
    "引き分け",
    "封じ手",
    "宣言勝ち",
    "トライ",
    "詰",
    // 81Dojo's word for a loss on time (mog-core-scala reads it so).
    "Time-up",
];

/// The game and rule options named in the headers (`将棋種類`, `ルール`),
/// which decide how everything else is read.
fn prescan(text: &str) -> Result<Record, ParseError> {
    let mut rec = Record::new(VariantName::Shogi);
    let mut rules_line = 1;
    // The game named by 将棋種類 and by 手合割 (minishogi's `5五将棋`), with
    // their lines: they must agree.
    let mut named: Option<(usize, VariantName)> = None;
    let mut by_handicap: Option<(usize, VariantName)> = None;
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if t.starts_with("変化") {
            break;
        }
        let Some((k, v)) = t.split_once('：') else {
            continue;
        };
        match k.trim() {
            "将棋種類" => {
                let game = v
                    .trim()
                    .parse()
                    .map_err(|e| ParseError::new(i + 1, format!("{e}")))?;
                named = Some((i + 1, game));
            }
            "手合割" => {
                by_handicap = game_of_handicap(v.trim())
                    .map(|g| (i + 1, g))
                    .or(by_handicap);
            }
            "ルール" => {
                rec.rules = v.trim().to_string();
                rules_line = i + 1;
            }
            _ => {}
        }
    }
    match (named, by_handicap) {
        (Some((_, a)), Some((line, b))) if a != b => {
            return Err(ParseError::new(
                line,
                format!("手合割 names {b}, but 将棋種類 names {a}"),
            ));
        }
        (Some((_, game)), _) | (None, Some((_, game))) => {
            let options = std::mem::take(&mut rec.rules);
            rec = Record::new(game);
            rec.rules = options;
        }
        (None, None) => {}
    }
    // Validate the options here, naming their line.
    rules_for(rec.variant, &rec.rules).map_err(|e| ParseError::new(rules_line, e.to_string()))?;
    Ok(rec)
}

fn read(text: &str) -> Result<Record, ParseError> {
    let rec = prescan(text)?;
    let any = rules_for(rec.variant, &rec.rules).map_err(|e| ParseError::new(1, e.to_string()))?;
    with_rules!(any, r => read_on(r, rec, text))
}

fn read_on<B: BitBoard>(
    rules: &'static Rules<B>,
    rec: Record,
    text: &str,
) -> Result<Record, ParseError> {
    let mut r = Reader {
        rules,
        rec,
        board: None,
        hands: [Vec::new(), Vec::new()],
        white_to_move: false,
        pos: None,
        start_pos: None,
        nodes: vec![Node::new(0, 0)],
        current: 0,
    };
    let mut last_line = 0;
    // An illegal move on a numbered line, kept until the next line says
    // whether the game ended with it (see `End::Illegal`).
    let mut illegal: Option<ParseError> = None;
    // The end node such a move made, with its error: a move after it
    // (ShogiLibSharp's 4.kifu) is refused with that error.
    let mut illegal_end: Option<(usize, ParseError)> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last_line = n;
        let line = raw.trim_end();
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('&') {
            continue;
        }
        if let Some(e) = illegal.take() {
            if t.starts_with('*') && !ends_by_foul(t) {
                // An engine's comment on the move (ShogiGUI's `**対局 …`)
                // before the line that tells.
                r.comment(&t[1..]);
                illegal = Some(e);
                continue;
            }
            if !ends_by_foul(t) {
                return Err(e);
            }
            r.end(End::Illegal);
            illegal_end = Some((r.current, e));
            if !t.starts_with('*') {
                continue;
            }
        }
        if t.starts_with("変化") {
            r.branch(n, t)?;
            continue;
        }
        if let Some(c) = t.strip_prefix('*') {
            if let Some(word) = c.strip_prefix("終局：") {
                if !r.ended() {
                    r.end(End::Word(word.trim().to_string(), None));
                }
                continue;
            }
            r.comment(c);
            continue;
        }
        if t.starts_with("まで") {
            // After a terminal line the terminal line tells (KIF). A line
            // that names no result it knows is a comment: it ends nothing.
            if read_summary(t, Color::Black, None).is_none() {
                r.comment(t);
            } else if !r.ended() {
                r.end(End::Summary(t.to_string()));
            }
            continue;
        }
        // The moves' heading, a diagram's frame and its file numbers
        // (`９ ８ …`, minishogi's `５ ４ ３ ２ １`).
        if t.starts_with("手数")
            || t.starts_with("+--")
            || t.chars()
                .all(|c| c == ' ' || c == '　' || ('１'..='９').contains(&c))
        {
            continue;
        }
        if t.starts_with('|') {
            r.board_row(n, t)?;
            continue;
        }
        if matches!(t, "後手番" | "上手番") {
            r.white_to_move = true;
            continue;
        }
        if matches!(t, "先手番" | "下手番") {
            continue;
        }
        if t.starts_with(MARKS) && r.ended() {
            // Text after the end (`▲先手の勝ち`): a comment.
            r.comment(t);
            continue;
        }
        if t.starts_with(MARKS) {
            let mut cur = String::new();
            for ch in t.chars() {
                if MARKS.contains(&ch) && !cur.trim().is_empty() {
                    r.play(n, cur.trim())?;
                    cur.clear();
                }
                cur.push(ch);
            }
            if !cur.trim().is_empty() {
                r.play(n, cur.trim())?;
            }
            continue;
        }
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            let (num, rest) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
            let word = split_side(rest.trim()).1;
            let terminal = TERMINALS.iter().any(|w| word.starts_with(*w));
            if r.ended() && terminal {
                // A second terminal line (`122 投了` then `123 中断`): the
                // first one counts, as a second `%` line in CSA.
                continue;
            }
            if let Some((_, e)) = illegal_end.as_ref().filter(|(at, _)| *at == r.current) {
                return Err(e.clone());
            }
            let expected = r.nodes[r.current].ply + 1;
            if num.parse::<usize>().ok() != Some(expected) {
                return Err(ParseError::new(
                    n,
                    format!("expected move number {expected}, found '{num}'"),
                ));
            }
            let rest = rest.trim_start().trim_end_matches('+').trim_end();
            let (mv, time) = match rest
                .find("( ")
                .or_else(|| rest.rfind("  ("))
                .or_else(|| rest.rfind(" ("))
            {
                Some(at) if rest[at..].contains('/') || rest[at..].contains(':') => {
                    (rest[..at].trim(), Some(&rest[at..]))
                }
                _ => (rest, None),
            };
            // Shogi Club 24 names the side: `先手 反則負け`.
            let (named, word_text) = split_side(mv);
            if let Some(word) = TERMINALS.iter().find(|w| word_text.starts_with(**w)) {
                r.end(End::Word(word.to_string(), named));
                continue;
            }
            if mv.is_empty() {
                return Err(ParseError::new(n, "a move number without a move"));
            }
            match r.try_play(n, mv)? {
                Err(e) if e.is_not_legal() => {
                    illegal = Some(ParseError::new(n, e.to_string()));
                    continue;
                }
                played => played.map_err(|e| ParseError::new(n, e.to_string()))?,
            }
            let at = r.current;
            r.nodes[at].time = time.and_then(parse_time);
            continue;
        }
        // `：`, or `:` before the moves (tsshogi reads both).
        let pair = t.split_once('：').or_else(|| {
            t.split_once(':')
                .filter(|(k, _)| r.pos.is_none() && !k.is_empty() && !k.contains(' '))
        });
        if let Some((k, v)) = pair {
            if r.pos.is_some() {
                // A header after the moves (e.g. 終了日時): keep it.
                r.rec.headers.other.push((k.to_string(), v.to_string()));
                continue;
            }
            r.header(n, k, v)?;
            continue;
        }
        // Free text after the end (a Shogi Wars export), or a Japanese line
        // among the headers (a Gekisashi KI2 title line, Kifu for Windows'
        // 盤面回転): kept as a comment, as tsshogi passes over it. An ASCII
        // line among the headers is still refused: likely not a KIF at all.
        if r.ended() || r.pos.is_none() && !t.is_ascii() {
            r.comment(t);
            continue;
        }
        return Err(ParseError::new(n, format!("cannot read '{t}'")));
    }
    if let Some(e) = illegal {
        return Err(e);
    }
    if let Some(b) = &r.board {
        let g = r.rules.geometry;
        if b.len() != usize::from(g.files) * usize::from(g.ranks) {
            return Err(ParseError::new(
                last_line,
                format!("the board diagram does not have {} rows", g.ranks),
            ));
        }
    }
    r.start(last_line.max(1))?;
    let start_side = r
        .start_pos
        .as_ref()
        .ok_or_else(|| ParseError::new(last_line, "no position"))?
        .side_to_move();
    let mut rec = r.rec;
    let tree = Tree {
        nodes: &r.nodes,
        start_side,
    };
    let main = tree.line(&rec, 0, &[]);
    rec.moves = main.moves;
    rec.times = main.times;
    rec.result = main.result;
    rec.headers.comments = main.comments;
    rec.variations = main.variations;
    // Every variation branches by construction; checked so that what is read
    // can be written.
    rec.lines().map_err(|e| ParseError::new(last_line, e))?;
    Ok(rec)
}

/// The tree read, turned into the record's lines.
struct Tree<'a> {
    nodes: &'a [Node],
    start_side: Color,
}

impl Tree<'_> {
    /// The line that starts with node `first` (node 0: the main line), whose
    /// parent line reached it by `path`.
    fn line(&self, rec: &Record, first: usize, path: &[String]) -> Variation {
        let nodes = self.nodes;
        // A move node's ply is its move's; a variation that ends at once
        // (`変化：5手` then `5 投了`) branches after its end node's parent.
        let mut line = Variation {
            ply: nodes[first].ply + usize::from(nodes[first].end.is_some()),
            ..Variation::default()
        };
        let mut end = None;
        // The nodes after which variations branch off, with the line so far.
        let mut forks: Vec<(usize, usize)> = Vec::new();
        let mut at = first;
        loop {
            let node = &nodes[at];
            if let Some(e) = &node.end {
                end = Some(e);
            } else if at != 0 {
                line.moves.push(node.usi.clone());
                line.times.push(node.time);
            }
            line.comments.extend(node.comments.iter().map(|c| Comment {
                ply: node.ply,
                text: c.clone(),
            }));
            if node.end.is_some() {
                break;
            }
            forks.push((at, line.moves.len()));
            match node.children.first() {
                Some(&next) => at = next,
                None => break,
            }
        }
        if !line.times.iter().any(|t| t.is_some_and(|x| x > 0)) {
            line.times.clear();
        }
        let mut full: Vec<String> = path.to_vec();
        full.extend(line.moves.iter().cloned());
        let to_move = if full.len() % 2 == 0 {
            self.start_side
        } else {
            !self.start_side
        };
        let by_rules = rec.rules_result_of(&full);
        line.result = match end {
            Some(End::Word(w, side)) => named_terminal_result(w, *side, to_move, by_rules),
            Some(End::Summary(s)) => read_summary(s, to_move, by_rules).or(by_rules),
            Some(End::Illegal) => foul(Some(!to_move), by_rules),
            None => by_rules,
        };
        for (node, played) in forks {
            let mut branch_path: Vec<String> = path.to_vec();
            branch_path.extend(line.moves[..played].iter().cloned());
            for &child in nodes[node].children.iter().skip(1) {
                line.variations.push(self.line(rec, child, &branch_path));
            }
        }
        line
    }
}

/// A foul won by `winner`: a perpetual check where the rules see one (the
/// checking side loses), else an illegal move.
fn foul(winner: Option<Color>, by_rules: Option<GameResult>) -> Option<GameResult> {
    match by_rules {
        Some(r) if r.reason == EndReason::PerpetualCheck && r.winner == winner => Some(r),
        _ => Some(GameResult {
            winner,
            reason: EndReason::IllegalMove,
        }),
    }
}

/// A terminal word's side, when the line names one (`先手 反則負け`, as Shogi
/// Club 24 writes): the word and that side.
fn split_side(text: &str) -> (Option<Color>, &str) {
    for (name, c) in [
        ("先手", Color::Black),
        ("下手", Color::Black),
        ("後手", Color::White),
        ("上手", Color::White),
    ] {
        if let Some(rest) = text.strip_prefix(name) {
            let word = rest.trim_start_matches([' ', '　', 'の']);
            if word.len() < rest.len() {
                return (Some(c), word);
            }
        }
    }
    (None, text)
}

/// The result of a terminal word that names a side: the named side loses by
/// `反則負け`, `投了`, `切れ負け`, and wins by `反則勝ち`, `入玉勝ち`; otherwise
/// as [`terminal_result`] reads the word for the side to move.
fn named_terminal_result(
    word: &str,
    named: Option<Color>,
    to_move: Color,
    by_rules: Option<GameResult>,
) -> Option<GameResult> {
    let base = terminal_result(word, to_move, by_rules)?;
    let Some(side) = named else {
        return Some(base);
    };
    match word {
        "反則負け" => foul(Some(!side), by_rules),
        "反則勝ち" => foul(Some(side), by_rules),
        "投了" | "切れ負け" | "Time-up" => Some(GameResult {
            winner: Some(!side),
            ..base
        }),
        "入玉勝ち" | "宣言勝ち" => Some(GameResult {
            winner: Some(side),
            ..base
        }),
        _ => Some(base),
    }
}

/// The result a terminal word gives (`投了`, `千日手`, `反則負け` …); `None` for
/// a word it does not know.
fn terminal_result(word: &str, to_move: Color, by_rules: Option<GameResult>) -> Option<GameResult> {
    let res = |winner, reason| Some(GameResult { winner, reason });
    match word {
        "投了" => res(Some(!to_move), EndReason::Resignation),
        "詰み" | "詰" => res(Some(!to_move), EndReason::Checkmate),
        "千日手" => by_rules.or(res(None, EndReason::Repetition)),
        "持将棋" => res(None, EndReason::Impasse),
        "中断" => res(None, EndReason::Abort),
        "封じ手" => res(None, EndReason::Sealed),
        "不詰" => res(None, EndReason::NoMate),
        "引き分け" => res(None, EndReason::Draw),
        "反則勝ち" => foul(Some(to_move), by_rules),
        "反則負け" => foul(Some(!to_move), by_rules),
        "入玉勝ち" | "宣言勝ち" => res(Some(to_move), EndReason::Declaration),
        "トライ" => res(Some(to_move), EndReason::Try),
        "切れ負け" | "Time-up" => res(Some(!to_move), EndReason::Timeout),
        _ => None,
    }
}

/// Reads KIF (text already decoded).
///
/// # Errors
/// The first problem, with its line.
pub fn read_kif(text: &str) -> Result<Record, ParseError> {
    read(text)
}

/// Reads KI2 (text already decoded).
///
/// # Errors
/// The first problem, with its line.
pub fn read_ki2(text: &str) -> Result<Record, ParseError> {
    read(text)
}
