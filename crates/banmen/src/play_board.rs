//! The board of `banmen play`: a framed Unicode diagram with kanji or letter
//! pieces, both hands, the last move and a checked king marked, and ANSI
//! colours for the two sides when the terminal takes them.

use banmen_rules::{BitBoard, Color, Kind, Move, Piece, Position, Rules, Square};

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

/// The kanji of a piece: its board form as the rules declare it (one kanji
/// where the game has one, `王`/`玉` by side for the king). A promoted piece
/// that shows the same kanji as an unpromoted type (a promoted dai dai piece
/// shows the type it moves as, rules/dai-dai-shogi.md §13) is marked `+`
/// where the cell has room.
fn kanji<B: BitBoard>(rules: &Rules<B>, kind: Kind, color: Color) -> String {
    let info = rules.kind(kind);
    let text = info.names.abbreviation_for(color);
    let shared = info.promoted
        && rules
            .kinds
            .iter()
            .any(|k| !k.promoted && k.names.abbreviation == text);
    if shared && display_width(text) <= 2 {
        format!("+{text}")
    } else {
        text.to_string()
    }
}

/// The text of a piece without colour: kanji, or the SFEN token.
pub fn piece_text<B: BitBoard>(pos: &Position<B>, p: Piece, style: PieceStyle) -> String {
    match style {
        PieceStyle::Kanji => kanji(pos.rules(), p.kind, p.color),
        PieceStyle::Letters => pos.token(p),
    }
}

/// The widest piece text of this game (cells are this wide).
fn cell_width<B: BitBoard>(rules: &Rules<B>, style: PieceStyle) -> usize {
    let mut width = if style == PieceStyle::Kanji { 2 } else { 1 };
    for k in 0..rules.kind_count() {
        for color in Color::ALL {
            let kind = Kind(k as u8);
            width = width.max(match style {
                PieceStyle::Kanji => display_width(&kanji(rules, kind, color)),
                PieceStyle::Letters => rules.kind(kind).code.len(),
            });
        }
    }
    width
}

/// Terminal columns of a board line: the frame, and per file a marker, a
/// facing column in kanji mode and the widest piece, then the rank letter.
pub fn board_columns<B: BitBoard>(rules: &Rules<B>, style: PieceStyle) -> usize {
    let cell = 1 + usize::from(style == PieceStyle::Kanji) + cell_width(rules, style);
    3 + rules.geometry.files as usize * cell + 4
}

/// Kanji where the kanji board fits an 80-column terminal, else letters
/// (dai dai shogi's 17x17 kanji board needs about 110 columns).
pub fn default_style<B: BitBoard>(rules: &Rules<B>) -> PieceStyle {
    if board_columns(rules, PieceStyle::Kanji) <= 80 {
        PieceStyle::Kanji
    } else {
        PieceStyle::Letters
    }
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
    let hand = if !rules.variant.has_drops() {
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
    let width = cell_width(rules, view.style);
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
    use banmen_rules::{rules_17x17_with, rules_9x9, SfenMode, VariantName};

    fn agrees<B: BitBoard>(rules: &'static Rules<B>) {
        let pos = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).unwrap();
        for k in 0..rules.kind_count() {
            for color in Color::ALL {
                let kind = Kind(k as u8);
                let text = piece_text(&pos, Piece { color, kind }, PieceStyle::Kanji);
                assert_eq!(
                    text.trim_start_matches('+'),
                    rules.kind(kind).names.abbreviation_for(color),
                    "{} {}",
                    rules.variant.name,
                    rules.kind(kind).code
                );
            }
        }
    }

    /// The kanji board shows each piece by its board form in `banmen-rules`.
    #[test]
    fn the_board_agrees_with_the_rules_names() {
        agrees(rules_9x9(VariantName::Shogi).unwrap());
        agrees(rules_9x9(VariantName::CannonShogi).unwrap());
        agrees(rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap());
        let rules = rules_9x9(VariantName::CannonShogi).unwrap();
        let pos = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).unwrap();
        let flying = Piece {
            color: Color::Black,
            kind: rules.kind_by_code("+U").unwrap(),
        };
        assert_eq!(piece_text(&pos, flying, PieceStyle::Kanji), "成金砲");
    }

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
