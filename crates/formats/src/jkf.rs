//! JKF, the JSON Kifu Format of Kifu for JS
//! (<https://github.com/na2hiro/json-kifu-format>, version 1.0), with its
//! forks, comments, times, header, preset or set-up start and special moves.
//!
//! The header keys are KIF's (`先手`, `開始日時`, `棋戦` …). A start that is a
//! JKF preset is written as one (`HIRATE`, `KY`, `2` …); Kakinoki's other
//! handicaps (`3`, `5`, `5_L`, `7_L`, `7_R`, which tsshogi does not know) and
//! every other position as `OTHER` with its board and hands. The special
//! moves are CSA's endings without the `%` (`TORYO`, `SENNICHITE`,
//! `+ILLEGAL_ACTION` …) and are read as the CSA reader reads them. Every move
//! is written normalized: `from`, `to`, `piece` (before the move), `same`,
//! `promote` (`false` where the piece could have promoted), `capture` and
//! `relative` (the KI2 words 左直右上寄引打 as `L C R U M D H`).
//!
//! Cannon shogi follows the convention of the crate's other formats: the
//! header `将棋種類：cannonshogi` (and `ルール：` for options), its pieces
//! with their CSA codes (`GC`, `+SC` …), its own start position as
//! `HIRATE`. Dai dai shogi (17x17, lion double moves) and minishogi (5x5)
//! have no place in JKF's nine-by-nine squares and single-step moves, and
//! are refused.

use crate::csa::{csa_code, ending_result, parse_move, result_line, take_code};
use crate::kif::kakinoki_handicaps;
use crate::notation::to_japanese;
use crate::record::{
    mode_for_setup, sfen_sans_number, Comment, GameResult, ParseError, Record, Variation,
};
use banmen_rules::with_rules;
use banmen_rules::{
    rules_for, BitBoard, Color, Geometry, Kind, Move, Position, Rules, Setup, Square, Variant,
    VariantName,
};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// The JKF presets and the 手合割 names they stand for.
const PRESETS: [(&str, &str); 16] = [
    ("HIRATE", "平手"),
    ("KY", "香落ち"),
    ("KY_R", "右香落ち"),
    ("KA", "角落ち"),
    ("HI", "飛車落ち"),
    ("HIKY", "飛香落ち"),
    ("2", "二枚落ち"),
    ("3", "三枚落ち"),
    ("4", "四枚落ち"),
    ("5", "五枚落ち"),
    ("5_L", "左五枚落ち"),
    ("6", "六枚落ち"),
    ("7_L", "左七枚落ち"),
    ("7_R", "右七枚落ち"),
    ("8", "八枚落ち"),
    ("10", "十枚落ち"),
];

/// The header, in its order (a JSON object).
#[derive(Debug, Default)]
struct Header(Vec<(String, String)>);

impl Serialize for Header {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Header {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Header;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Header, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    out.push((k, v));
                }
                Ok(Header(out))
            }
        }
        d.deserialize_map(Pairs)
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Jkf {
    #[serde(default)]
    header: Header,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial: Option<Initial>,
    #[serde(default)]
    moves: Vec<Entry>,
}

/// A color as JKF writes it, 0 (black) or 1 (white), or as its first
/// version (2014; json-kifu-format's early example files) wrote it: `true`
/// for black, `false` for white.
#[derive(Deserialize)]
#[serde(untagged)]
enum ColorNumber {
    Number(u8),
    Bool(bool),
}

impl ColorNumber {
    fn number(self) -> u8 {
        match self {
            ColorNumber::Number(n) => n,
            ColorNumber::Bool(black) => u8::from(!black),
        }
    }
}

fn color_number<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    ColorNumber::deserialize(d).map(ColorNumber::number)
}

fn optional_color_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
    Option::<ColorNumber>::deserialize(d).map(|c| c.map(ColorNumber::number))
}

#[derive(Debug, Serialize, Deserialize)]
struct Initial {
    preset: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<InitialData>,
}

#[derive(Debug, Serialize, Deserialize)]
struct InitialData {
    #[serde(deserialize_with = "color_number")]
    color: u8,
    /// `board[x-1][y-1]`: file x, rank y.
    board: Vec<Vec<Cell>>,
    hands: Vec<BTreeMap<String, u32>>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Cell {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "optional_color_number"
    )]
    color: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Entry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comments: Option<Vec<String>>,
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    mv: Option<JkfMove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<Consumption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    special: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forks: Option<Vec<Vec<Entry>>>,
}

#[derive(Debug, Serialize, Deserialize)]
struct JkfMove {
    #[serde(deserialize_with = "color_number")]
    color: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<Place>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<Place>,
    piece: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    same: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    promote: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    capture: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    relative: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Place {
    x: i64,
    y: i64,
}

#[derive(Debug, Serialize, Deserialize)]
struct Consumption {
    now: Time,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    total: Option<Time>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Time {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    h: Option<u32>,
    #[serde(default)]
    m: u32,
    #[serde(default)]
    s: u32,
}

impl Time {
    fn seconds(&self) -> Option<u32> {
        self.h
            .unwrap_or(0)
            .checked_mul(3600)?
            .checked_add(self.m.checked_mul(60)?)?
            .checked_add(self.s)
    }
}

/// Refuses the games JKF cannot hold.
fn check_game<B: BitBoard>(rules: &Rules<B>) -> Result<(), String> {
    if rules.geometry != Geometry::NINE {
        return Err(format!(
            "JKF holds 9x9 games only, not {}",
            rules.variant.name
        ));
    }
    Ok(())
}

/// Writes JKF (one line of JSON).
///
/// # Errors
/// Illegal moves, a game JKF cannot hold (dai dai shogi, minishogi), or a
/// variation after the end of a line that has no JKF special.
pub fn write(record: &Record) -> Result<String, String> {
    with_rules!(record.any_rules()?, r => write_on(r, record))
}

/// A line of the tree to write: the main line or a variation.
struct LineData<'a> {
    first_ply: usize,
    moves: &'a [String],
    times: &'a [Option<u32>],
    comments: &'a [Comment],
    result: Option<GameResult>,
    variations: &'a [Variation],
}

impl<'a> LineData<'a> {
    fn of(v: &'a Variation) -> LineData<'a> {
        LineData {
            first_ply: v.ply,
            moves: &v.moves,
            times: &v.times,
            comments: &v.comments,
            result: v.result,
            variations: &v.variations,
        }
    }

    fn comments_at(&self, ply: usize) -> Vec<String> {
        self.comments
            .iter()
            .filter(|c| c.ply == ply)
            .map(|c| c.text.clone())
            .collect()
    }
}

fn write_on<B: BitBoard>(rules: &'static Rules<B>, record: &Record) -> Result<String, String> {
    check_game(rules)?;
    // The tree's shape and every move, checked once.
    record.validate()?;
    let (start, _) = crate::record::replay(rules, &record.start, &[])?;
    let mut jkf = Jkf {
        header: header(record),
        initial: Some(initial(record, &start)?),
        moves: Vec::new(),
    };
    let main = LineData {
        first_ply: 1,
        moves: &record.moves,
        times: &record.times,
        comments: &record.headers.comments,
        result: record.result,
        variations: &record.variations,
    };
    let opening = main.comments_at(0);
    jkf.moves.push(Entry {
        comments: (!opening.is_empty()).then_some(opening),
        ..Entry::default()
    });
    let any_times = has_times(record);
    jkf.moves
        .extend(write_line(&start, None, [0, 0], &main, any_times)?);
    serde_json::to_string(&jkf).map_err(|e| e.to_string())
}

/// Whether any line of the record has times (then every move gets one).
fn has_times(record: &Record) -> bool {
    fn any(vs: &[Variation]) -> bool {
        vs.iter()
            .any(|v| v.times.iter().any(Option::is_some) || any(&v.variations))
    }
    record.times.iter().any(Option::is_some) || any(&record.variations)
}

fn header(record: &Record) -> Header {
    let hd = &record.headers;
    let mut out = Vec::new();
    if record.variant != VariantName::default() {
        out.push(("将棋種類".to_string(), record.variant.to_string()));
    }
    if !record.rules.is_empty() {
        out.push(("ルール".to_string(), record.rules.clone()));
    }
    let named = [
        ("先手", &hd.black),
        ("後手", &hd.white),
        ("開始日時", &hd.start_date),
        ("棋戦", &hd.event),
    ];
    for (k, v) in named {
        if let Some(v) = v {
            out.push((k.to_string(), v.clone()));
        }
    }
    out.extend(hd.other.iter().cloned());
    Header(out)
}

fn initial<B: BitBoard>(record: &Record, start: &Position<B>) -> Result<Initial, String> {
    let variant = Variant::get(record.variant).ok_or("unknown variant")?;
    let key = sfen_sans_number(&record.start);
    let preset = if key == sfen_sans_number(variant.start_sfen) {
        Some("HIRATE")
    } else {
        variant
            .handicaps
            .iter()
            .find(|h| sfen_sans_number(h.sfen) == key)
            .and_then(|h| PRESETS.iter().find(|(_, j)| *j == h.japanese))
            .map(|(p, _)| *p)
    };
    if let Some(p) = preset {
        return Ok(Initial {
            preset: p.to_string(),
            data: None,
        });
    }
    let rules = start.rules();
    let g = rules.geometry;
    let mut board = Vec::new();
    for x in 1..=9 {
        let mut column = Vec::new();
        for y in 0..9 {
            let sq = g.square(x, y).ok_or("off the board")?;
            column.push(match start.piece_at(sq) {
                None => Cell::default(),
                Some(p) => Cell {
                    color: Some(p.color.index() as u8),
                    kind: Some(csa_code(rules, p.kind)?.to_string()),
                },
            });
        }
        board.push(column);
    }
    let mut hands = Vec::new();
    for c in [Color::Black, Color::White] {
        let mut hand = BTreeMap::new();
        for k in 0..rules.n_base {
            let n = start.hand_count(c, Kind(k as u8));
            if n > 0 {
                hand.insert(csa_code(rules, Kind(k as u8))?.to_string(), u32::from(n));
            }
        }
        hands.push(hand);
    }
    Ok(Initial {
        preset: "OTHER".into(),
        data: Some(InitialData {
            color: start.side_to_move().index() as u8,
            board,
            hands,
        }),
    })
}

/// The entries of one line from `pos` (where its first move is played),
/// each with the forks that branch off it.
fn write_line<B: BitBoard>(
    pos: &Position<B>,
    prev: Option<Square>,
    mut total: [u32; 2],
    line: &LineData<'_>,
    times: bool,
) -> Result<Vec<Entry>, String> {
    let mut pos = pos.clone();
    let mut prev = prev;
    let mut out = Vec::new();
    let forks_at = |ply: usize, pos: &Position<B>, prev, total| -> Result<_, String> {
        let mut forks = Vec::new();
        for v in line.variations.iter().filter(|v| v.ply == ply) {
            forks.push(write_line(pos, prev, total, &LineData::of(v), times)?);
        }
        Ok((!forks.is_empty()).then_some(forks))
    };
    // Comments before a variation's first move have no entry of their own:
    // they go with its first entry.
    let mut lead = if line.first_ply > 1 {
        line.comments_at(line.first_ply - 1)
    } else {
        Vec::new()
    };
    for (i, text) in line.moves.iter().enumerate() {
        let ply = line.first_ply + i;
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("move {ply} ({text}): {e}"))?;
        let forks = forks_at(ply, &pos, prev, total)?;
        let mv = jkf_move(&pos, m, prev)?;
        let side = pos.side_to_move().index();
        let t = line.times.get(i).copied().flatten().unwrap_or(0);
        total[side] = total[side].saturating_add(t);
        let mut comments = std::mem::take(&mut lead);
        comments.extend(line.comments_at(ply));
        out.push(Entry {
            comments: (!comments.is_empty()).then_some(comments),
            mv: Some(mv),
            time: times.then(|| Consumption {
                now: Time {
                    h: None,
                    m: t / 60,
                    s: t % 60,
                },
                total: Some(Time {
                    h: Some(total[side] / 3600),
                    m: total[side] / 60 % 60,
                    s: total[side] % 60,
                }),
            }),
            special: None,
            forks,
        });
        prev = Some(m.to());
        pos.make_move(m);
    }
    let end = line.first_ply + line.moves.len();
    let special = line
        .result
        .and_then(|r| result_line(r, pos.side_to_move()))
        .map(|s| s.trim_start_matches('%').to_string());
    let forks = forks_at(end, &pos, prev, total)?;
    match special {
        Some(special) => out.push(Entry {
            comments: (!lead.is_empty()).then_some(lead),
            special: Some(special),
            forks,
            ..Entry::default()
        }),
        None if forks.is_some() => {
            return Err(format!(
                "a variation at move {end} branches after an ending JKF cannot name"
            ))
        }
        None => {}
    }
    Ok(out)
}

/// A move as JKF writes it, normalized.
fn jkf_move<B: BitBoard>(
    pos: &Position<B>,
    m: Move,
    prev: Option<Square>,
) -> Result<JkfMove, String> {
    let rules = pos.rules();
    let g = rules.geometry;
    if !crate::notation::mids(m).is_empty() {
        return Err("JKF has no double moves".into());
    }
    let piece = pos.moving_piece(m).ok_or("no moving piece")?;
    let place = |sq: Square| Place {
        x: i64::from(g.file(sq)),
        y: i64::from(g.rank(sq)) + 1,
    };
    let from = m.from();
    // `false` where the piece could have promoted (the same move with `+`).
    let promote = if m.is_promotion() {
        Some(true)
    } else if from.is_some() && pos.parse_move(&format!("{}+", pos.move_to_usi(m))).is_ok() {
        Some(false)
    } else {
        None
    };
    let capture = match from {
        Some(_) => pos
            .piece_at(m.to())
            .map(|p| csa_code(rules, p.kind).map(String::from))
            .transpose()?,
        None => None,
    };
    // The KI2 text's words that tell pieces apart, as JKF's letters.
    let text = to_japanese(pos, m, prev, false);
    let relative: String = text
        .chars()
        .filter_map(|c| match c {
            '左' => Some('L'),
            '直' => Some('C'),
            '右' => Some('R'),
            '上' => Some('U'),
            '寄' => Some('M'),
            '引' => Some('D'),
            '打' => Some('H'),
            _ => None,
        })
        .collect();
    Ok(JkfMove {
        color: pos.side_to_move().index() as u8,
        from: from.map(place),
        to: Some(place(m.to())),
        piece: csa_code(rules, piece.kind)?.to_string(),
        same: (from.is_some() && prev == Some(m.to())).then_some(true),
        promote,
        capture,
        relative: (!relative.is_empty()).then_some(relative),
    })
}

/// Reads JKF.
///
/// # Errors
/// Bad JSON (with its line), an unknown preset, piece or special, or an
/// illegal move (named by its place in the JSON: `moves[3].forks[0][1]`).
pub fn read(text: &str) -> Result<Record, ParseError> {
    let jkf: Jkf = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| ParseError::new(e.line(), format!("JKF: {e}")))?;
    let game = value(&jkf.header, "将棋種類").trim();
    let mut rec = Record::new(if game.is_empty() {
        VariantName::Shogi
    } else {
        game.parse()
            .map_err(|e| ParseError::new(0, format!("header 将棋種類: {e}")))?
    });
    rec.rules = value(&jkf.header, "ルール").trim().to_string();
    let any = rules_for(rec.variant, &rec.rules)
        .map_err(|e| ParseError::new(0, format!("header ルール: {e}")))?;
    with_rules!(any, r => read_on(r, rec, jkf))
}

fn value<'a>(header: &'a Header, key: &str) -> &'a str {
    header
        .0
        .iter()
        .find(|(k, _)| k == key)
        .map_or("", |(_, v)| v.as_str())
}

fn read_on<B: BitBoard>(
    rules: &'static Rules<B>,
    mut rec: Record,
    jkf: Jkf,
) -> Result<Record, ParseError> {
    check_game(rules).map_err(|e| ParseError::new(0, e))?;
    let variant = Variant::get(rec.variant).ok_or_else(|| ParseError::new(0, "unknown game"))?;
    let mut handicap_header = None;
    for (k, v) in jkf.header.0 {
        match k.as_str() {
            "将棋種類" | "ルール" => {}
            "先手" | "下手" => rec.headers.black = Some(v),
            "後手" | "上手" => rec.headers.white = Some(v),
            "開始日時" => rec.headers.start_date = Some(v),
            "棋戦" => rec.headers.event = Some(v),
            // The start is `initial`'s; a 手合割 header names it again.
            "手合割" => handicap_header = Some(v.trim().to_string()),
            _ => rec.headers.other.push((k, v)),
        }
    }
    rec.start = match &jkf.initial {
        Some(init) => start_of(rules, &variant, init)?,
        None => match handicap_header.as_deref() {
            Some(name) if name != "平手" => handicap_sfen(&variant, name)
                .ok_or_else(|| ParseError::new(0, format!("unknown handicap '{name}'")))?,
            _ => variant.start_sfen.to_string(),
        },
    };
    let start = Position::from_sfen(
        rules,
        &rec.start,
        crate::record::mode_for(rules, &rec.start),
    )
    .map_err(|e| ParseError::new(0, format!("start position: {e}")))?;
    let reader = LineReader {
        rec: &rec,
        start_side: start.side_to_move(),
    };
    let main = reader.line(&start, None, &[], 1, &jkf.moves, "moves")?;
    rec.moves = main.moves;
    rec.times = main.times;
    rec.headers.comments = main.comments;
    rec.result = main.result;
    rec.variations = main.variations;
    // The tree's shape (a fork after the end of a line that has not ended).
    rec.lines().map_err(|e| ParseError::new(0, e))?;
    Ok(rec)
}

/// The SFEN of a 手合割 name: the game's handicaps, then Kakinoki's others.
fn handicap_sfen(variant: &Variant, name: &str) -> Option<String> {
    if name == "平手" {
        return Some(variant.start_sfen.to_string());
    }
    variant
        .handicap(name)
        .map(|h| h.sfen.to_string())
        .or_else(|| {
            kakinoki_handicaps(variant.name)
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| s.to_string())
        })
}

fn start_of<B: BitBoard>(
    rules: &'static Rules<B>,
    variant: &Variant,
    init: &Initial,
) -> Result<String, ParseError> {
    if init.preset != "OTHER" {
        let name = PRESETS
            .iter()
            .find(|(p, _)| *p == init.preset)
            .map(|(_, n)| *n)
            .ok_or_else(|| ParseError::new(0, format!("unknown preset '{}'", init.preset)))?;
        return handicap_sfen(variant, name).ok_or_else(|| {
            ParseError::new(
                0,
                format!(
                    "preset '{}' is not a handicap of {}",
                    init.preset, variant.name
                ),
            )
        });
    }
    let data = init
        .data
        .as_ref()
        .ok_or_else(|| ParseError::new(0, "preset OTHER without data"))?;
    let g = rules.geometry;
    let mut setup = Setup::empty(g);
    setup.side = color(data.color, "initial.data.color")?;
    for (x, column) in data.board.iter().enumerate() {
        for (y, cell) in column.iter().enumerate() {
            let Some(kind) = &cell.kind else { continue };
            let at = format!("initial.data.board[{x}][{y}]");
            let c = color(cell.color.unwrap_or(0), &at)?;
            let k = piece_kind(rules, kind, &at)?;
            let sq = g
                .square(x as i32 + 1, y as i32)
                .filter(|_| x < 9 && y < 9)
                .ok_or_else(|| ParseError::new(0, format!("{at}: off the board")))?;
            setup.put(sq, c, k);
        }
    }
    for (c, hand) in data.hands.iter().enumerate().take(2) {
        for (code, &n) in hand {
            if n == 0 {
                continue;
            }
            let at = format!("initial.data.hands[{c}].{code}");
            let k = piece_kind(rules, code, &at)?;
            let slot = setup.hands[c]
                .get_mut(k.index())
                .filter(|_| k.index() < rules.n_base)
                .ok_or_else(|| ParseError::new(0, format!("{at}: not a piece in hand")))?;
            *slot = slot.saturating_add(n.min(255) as u8);
        }
    }
    Position::from_setup(rules, &setup, mode_for_setup(rules, &setup))
        .map(|p| p.to_sfen())
        .map_err(|e| ParseError::new(0, format!("start position: {e}")))
}

fn color(c: u8, at: &str) -> Result<Color, ParseError> {
    match c {
        0 => Ok(Color::Black),
        1 => Ok(Color::White),
        _ => Err(ParseError::new(0, format!("{at}: color {c} is not 0 or 1"))),
    }
}

fn piece_kind<B: BitBoard>(rules: &Rules<B>, code: &str, at: &str) -> Result<Kind, ParseError> {
    match take_code(rules, code) {
        Some((k, "")) => Ok(k),
        _ => Err(ParseError::new(0, format!("{at}: unknown piece '{code}'"))),
    }
}

struct LineReader<'a> {
    rec: &'a Record,
    start_side: Color,
}

impl LineReader<'_> {
    /// Reads the entries of a line whose first move is ply `first_ply`,
    /// played from `pos` (reached by `path`); `at` names it in messages.
    fn line<B: BitBoard>(
        &self,
        pos: &Position<B>,
        prev: Option<Square>,
        path: &[String],
        first_ply: usize,
        entries: &[Entry],
        at: &str,
    ) -> Result<Variation, ParseError> {
        let mut pos = pos.clone();
        let mut prev = prev;
        let mut line = Variation {
            ply: first_ply,
            ..Variation::default()
        };
        let mut special: Option<(String, String)> = None;
        for (i, e) in entries.iter().enumerate() {
            let here = format!("{at}[{i}]");
            let ply = first_ply - 1 + line.moves.len();
            if let Some(forks) = &e.forks {
                let mut branch_path = path.to_vec();
                branch_path.extend(line.moves.iter().cloned());
                for (j, fork) in forks.iter().enumerate() {
                    let v = self.line(
                        &pos,
                        prev,
                        &branch_path,
                        ply + 1,
                        fork,
                        &format!("{here}.forks[{j}]"),
                    )?;
                    line.variations.push(v);
                }
            }
            if let Some(mv) = &e.mv {
                if special.is_some() {
                    return Err(ParseError::new(0, format!("{here}: a move after the end")));
                }
                let m = read_move(&pos, mv, prev, &here)?;
                line.moves.push(pos.move_to_usi(m));
                line.times
                    .push(e.time.as_ref().and_then(|t| t.now.seconds()));
                prev = Some(m.to());
                pos.make_move(m);
            }
            if let Some(s) = &e.special {
                if special.is_none() {
                    special = Some((here.clone(), s.clone()));
                }
            }
            let ply = first_ply - 1 + line.moves.len();
            for c in e.comments.iter().flatten() {
                line.comments.push(Comment {
                    ply,
                    text: c.clone(),
                });
            }
        }
        if !line.times.iter().any(|t| t.is_some_and(|x| x > 0)) {
            line.times.clear();
        }
        let mut full = path.to_vec();
        full.extend(line.moves.iter().cloned());
        let to_move = if full.len() % 2 == 0 {
            self.start_side
        } else {
            !self.start_side
        };
        let by_rules = self.rec.rules_result_of(&full);
        line.result = match special {
            None => by_rules,
            Some((here, s)) => Some(
                ending_result(&format!("%{s}"), to_move, by_rules)
                    .ok_or_else(|| ParseError::new(0, format!("{here}: unknown special '{s}'")))?,
            ),
        };
        Ok(line)
    }
}

/// A JKF move, read through the CSA move reader (`+7776FU`).
fn read_move<B: BitBoard>(
    pos: &Position<B>,
    mv: &JkfMove,
    prev: Option<Square>,
    at: &str,
) -> Result<Move, ParseError> {
    let rules = pos.rules();
    let g = rules.geometry;
    let side = color(mv.color, &format!("{at}.move.color"))?;
    let to = match (mv.to, mv.same, prev) {
        (Some(p), _, _) => p,
        (None, Some(true), Some(sq)) => Place {
            x: i64::from(g.file(sq)),
            y: i64::from(g.rank(sq)) + 1,
        },
        _ => return Err(ParseError::new(0, format!("{at}.move: no destination"))),
    };
    let digits = |p: Place| -> Result<String, ParseError> {
        if (1..=9).contains(&p.x) && (1..=9).contains(&p.y) {
            Ok(format!("{}{}", p.x, p.y))
        } else {
            Err(ParseError::new(
                0,
                format!("{at}.move: square ({}, {}) is off the board", p.x, p.y),
            ))
        }
    };
    let from = match mv.from {
        Some(p) => digits(p)?,
        None => "00".to_string(),
    };
    let mut kind = piece_kind(rules, &mv.piece, &format!("{at}.move.piece"))?;
    if mv.promote == Some(true) && mv.from.is_some() {
        // `piece` is the piece before the move.
        if let Some(promoted) = rules.kind(kind).promotes_to {
            kind = promoted;
        }
    }
    let code = csa_code(rules, kind).map_err(|e| ParseError::new(0, format!("{at}: {e}")))?;
    let sign = if side == Color::Black { '+' } else { '-' };
    let statement = format!("{sign}{from}{}{code}", digits(to)?);
    parse_move(pos, 0, &statement)
        .map_err(|e| ParseError::new(0, format!("{at}.move: {}", e.message)))
}
