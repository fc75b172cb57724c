//! The board of `banmen play`: a framed Unicode diagram with kanji or letter
//! pieces, both hands, the last move and a checked king marked, and ANSI
//! colours for the two sides when the terminal takes them.

use banmen_rules::{BitBoard, Color, Kind, Move, Piece, Position, Rules, Square, VariantName};

/// How pieces are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PieceStyle {
    /// Kanji as on real pieces (`歩`, `v飛`; dai dai shogi's one-kanji abbreviations).
    Kanji,
    /// SFEN letters: upper case Black, lower case White (`P`, `+r`, `LN`).
    Letters,
}

/// What the board looks like.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// Kanji or letters.
    pub style: PieceStyle,
    /// ANSI colours on.
    pub color: bool,
    /// The side shown at the bottom (the board is turned for White).
    pub bottom: Color,
}

const RESET: &str = "\x1b[0m";
/// Black's pieces: bold yellow; White's: bold cyan. Promoted pieces are underlined.
const SIDE_COLOR: [&str; 2] = ["1;33", "1;36"];
const PROMOTED: &str = "4";
/// The last move's squares: blue background; a king in check: red background.
const LAST_MOVE_BG: &str = "44";
const CHECK_BG: &str = "41";

/// Terminal columns of `s`: CJK and other wide characters take two.
pub fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| if (c as u32) >= 0x1100 { 2 } else { 1 })
        .sum()
}

fn pad_right(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(display_width(s))))
}

fn pad_left(s: &str, width: usize) -> String {
    format!("{}{s}", " ".repeat(width.saturating_sub(display_width(s))))
}

/// Dai dai shogi's one-kanji abbreviations (rules/dai-dai-shogi.md §13); the
/// types without one show their two-kanji name.
const DAI_DAI_KANJI: [(&str, &str); 64] = [
    ("KG", "王"),
    ("FK", "奔"),
    ("RB", "鳥"),
    ("FR", "鬼"),
    ("FT", "獏"),
    ("WB", "水"),
    ("DK", "竜"),
    ("DH", "馬"),
    ("SQ", "方"),
    ("RA", "走"),
    ("RO", "飛"),
    ("BI", "角"),
    ("GB", "翅"),
    ("GD", "大"),
    ("SB", "前"),
    ("FE", "象"),
    ("WE", "白象"),
    ("LN", "獅"),
    ("LD", "狛"),
    ("DV", "鳩"),
    ("SD", "叉"),
    ("BD", "青"),
    ("WT", "白虎"),
    ("RC", "右車"),
    ("LC", "左車"),
    ("PH", "鳳"),
    ("KR", "麒"),
    ("PO", "蛇"),
    ("OK", "古"),
    ("VO", "牛"),
    ("FD", "龍"),
    ("EF", "狐"),
    ("OR", "鼠"),
    ("EB", "狸"),
    ("FH", "麟"),
    ("PS", "鹿"),
    ("ST", "虎"),
    ("HM", "行"),
    ("LO", "天"),
    ("NO", "北"),
    ("SO", "南"),
    ("EA", "東"),
    ("WR", "西"),
    ("NK", "近"),
    ("BM", "猿"),
    ("FL", "豹"),
    ("EW", "狼"),
    ("VB", "熊"),
    ("RG", "右将"),
    ("LG", "左将"),
    ("GG", "金"),
    ("SG", "銀"),
    ("CG", "銅"),
    ("IG", "鐵"),
    ("WG", "木"),
    ("SN", "石"),
    ("AB", "猪"),
    ("CS", "猫"),
    ("RV", "反"),
    ("LA", "香"),
    ("SM", "横"),
    ("VM", "竪"),
    ("HD", "𠵇"),
    ("PA", "歩"),
];

/// The four promotion-only types of dai dai shogi, by name.
const DAI_DAI_PROMOTION_ONLY: [(&str, &str); 4] = [
    ("furious fiend", "迅"),
    ("great elephant", "大象"),
    ("mountain witch", "母"),
    ("wizard stork", "仙"),
];

/// The kanji of a piece in the 9x9 games. The flying cannons have no
/// established short form; `飛` ("flying") before the cannon's metal reads as
/// their English names.
fn kanji_9x9(code: &str, color: Color) -> Option<&'static str> {
    Some(match code {
        "K" if color == Color::Black => "王",
        "K" => "玉",
        "P" => "歩",
        "L" => "香",
        "N" => "桂",
        "S" => "銀",
        "G" => "金",
        "B" => "角",
        "R" => "飛",
        "+P" => "と",
        "+L" => "杏",
        "+N" => "圭",
        "+S" => "全",
        "+B" => "馬",
        "+R" => "龍",
        "U" => "金砲",
        "A" => "銀砲",
        "C" => "銅砲",
        "I" => "鉄砲",
        "+U" => "飛金",
        "+A" => "飛銀",
        "+C" => "飛銅",
        "+I" => "飛鉄",
        _ => return None,
    })
}

/// The kanji of a dai dai piece: a promoted piece shows the type it moves as
/// (§13), marked `+` where the cell has room.
fn kanji_dai_dai<B: BitBoard>(rules: &Rules<B>, kind: Kind, color: Color) -> Option<String> {
    let info = rules.kind(kind);
    if info.royal {
        return Some(if color == Color::Black { "王" } else { "玉" }.into());
    }
    let by_code = |code: &str| {
        DAI_DAI_KANJI
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, k)| *k)
    };
    if !info.promoted {
        return by_code(&info.code).map(str::to_string);
    }
    let moves_as = DAI_DAI_PROMOTION_ONLY
        .iter()
        .find(|(name, _)| *name == info.name)
        .map(|(_, k)| *k)
        .or_else(|| {
            let base = rules
                .kinds
                .iter()
                .find(|k| !k.promoted && k.name == info.name)?;
            by_code(&base.code)
        })?;
    Some(if display_width(moves_as) <= 2 {
        format!("+{moves_as}")
    } else {
        moves_as.to_string()
    })
}

/// The text of a piece without colour: kanji, or the SFEN token.
pub fn piece_text<B: BitBoard>(pos: &Position<B>, p: Piece, style: PieceStyle) -> String {
    let rules = pos.rules();
    if style == PieceStyle::Kanji {
        let kanji = match rules.variant.name {
            VariantName::DaiDaiShogi => kanji_dai_dai(rules, p.kind, p.color),
            _ => kanji_9x9(&rules.kind(p.kind).code, p.color).map(str::to_string),
        };
        if let Some(k) = kanji {
            return k;
        }
    }
    pos.token(p)
}

/// The widest piece text of this game (cells are this wide).
fn cell_width<B: BitBoard>(pos: &Position<B>, style: PieceStyle) -> usize {
    let n = pos.rules().kind_count();
    let mut width = if style == PieceStyle::Kanji { 2 } else { 1 };
    for k in 0..n {
        for color in Color::ALL {
            let p = Piece {
                color,
                kind: Kind(k as u8),
            };
            width = width.max(display_width(&piece_text(pos, p, style)));
        }
    }
    width
}

fn paint(text: &str, codes: &[&str], on: bool) -> String {
    if !on || codes.is_empty() {
        text.to_string()
    } else {
        format!("\x1b[{}m{text}{RESET}", codes.join(";"))
    }
}

/// A side's symbol: ☗ Black, ☖ White.
pub fn side_mark(c: Color) -> char {
    match c {
        Color::Black => '☗',
        Color::White => '☖',
    }
}

/// The hand of `c` as one line.
fn hand_line<B: BitBoard>(pos: &Position<B>, c: Color, view: &View, label: &str) -> String {
    let rules = pos.rules();
    let mut parts = Vec::new();
    for k in 0..rules.n_base {
        let kind = Kind(k as u8);
        let n = pos.hand_count(c, kind);
        if n > 0 {
            let text = piece_text(pos, Piece { color: c, kind }, view.style);
            let text = paint(&text, &[SIDE_COLOR[c.index()]], view.color);
            parts.push(if n > 1 { format!("{text}×{n}") } else { text });
        }
    }
    let hand = if !rules.variant.drops {
        "(no drops in this game)".to_string()
    } else if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    };
    format!("{} {label} in hand: {hand}", side_mark(c))
}

/// Renders the board from `view.bottom`'s side: the top side's hand, the
/// framed board with file numbers and rank letters, the bottom side's hand.
/// Without colour the last move's destination is marked `*` and a king in
/// check `!`. `labels` names the players (`you`, `Banmen`).
pub fn render<B: BitBoard>(
    pos: &Position<B>,
    view: &View,
    last: Option<Move>,
    labels: [&str; 2],
) -> String {
    let rules = pos.rules();
    let g = rules.geometry;
    let width = cell_width(pos, view.style);
    let kanji = view.style == PieceStyle::Kanji;
    // A cell: one marker column, a facing column in kanji mode, the piece.
    let cell = 1 + usize::from(kanji) + width;
    let flipped = view.bottom == Color::White;
    let files: Vec<i32> = if flipped {
        (1..=g.files as i32).collect()
    } else {
        (1..=g.files as i32).rev().collect()
    };
    let ranks: Vec<i32> = if flipped {
        (0..g.ranks as i32).rev().collect()
    } else {
        (0..g.ranks as i32).collect()
    };
    let checked_king = if pos.in_check() {
        pos.king_square(pos.side_to_move())
    } else {
        None
    };
    let last_to = last.map(Move::to);
    let last_squares: Vec<Square> = last
        .map(|m| [m.from(), m.mid(), m.mid2(), Some(m.to())])
        .into_iter()
        .flatten()
        .flatten()
        .collect();
    let top = !view.bottom;
    let label = |c: Color| format!("{} ({})", c.name(), labels[c.index()]);
    let mut out = String::new();
    out.push_str(&hand_line(pos, top, view, &label(top)));
    out.push('\n');
    let mut header = String::from("  ");
    for &f in &files {
        header.push_str(&pad_left(&f.to_string(), cell));
    }
    out.push_str(header.trim_end());
    out.push('\n');
    let rule = "─".repeat(cell * files.len() + 1);
    out.push_str(&format!("  ┌{rule}┐\n"));
    for &r in &ranks {
        let mut line = String::from("  │");
        for &f in &files {
            let Some(sq) = g.square(f, r) else { continue };
            let marker = if Some(sq) == checked_king {
                '!'
            } else if Some(sq) == last_to {
                '*'
            } else {
                ' '
            };
            let piece = pos.piece_at(sq);
            let body = match piece {
                Some(p) if kanji => {
                    let facing = if p.color == view.bottom { ' ' } else { 'v' };
                    format!(
                        "{facing}{}",
                        pad_right(&piece_text(pos, p, view.style), width)
                    )
                }
                Some(p) => pad_left(&piece_text(pos, p, view.style), width),
                None if kanji => format!(" {}", pad_right("・", width)),
                None => pad_left(".", width),
            };
            let mut codes: Vec<&str> = Vec::new();
            if let Some(p) = piece {
                codes.push(SIDE_COLOR[p.color.index()]);
                if rules.kind(p.kind).promoted {
                    codes.push(PROMOTED);
                }
            }
            if Some(sq) == checked_king {
                codes.push(CHECK_BG);
            } else if last_squares.contains(&sq) {
                codes.push(LAST_MOVE_BG);
            }
            line.push(marker);
            line.push_str(&paint(&body, &codes, view.color));
        }
        line.push_str(&format!(" │ {}", (b'a' + r as u8) as char));
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&format!("  └{rule}┘\n"));
    out.push_str(&hand_line(pos, view.bottom, view, &label(view.bottom)));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_17x17_with, SfenMode};

    #[test]
    fn every_dai_dai_piece_has_kanji() {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let pos = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).unwrap();
        for k in 0..rules.kind_count() {
            let kind = Kind(k as u8);
            let text = piece_text(
                &pos,
                Piece {
                    color: Color::White,
                    kind,
                },
                PieceStyle::Kanji,
            );
            assert!(
                !text.chars().any(|c| c.is_ascii_alphabetic()),
                "{} shows as {text}",
                rules.kind(kind).code
            );
        }
    }
}
