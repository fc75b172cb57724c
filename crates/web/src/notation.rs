//! Move text for the page's move list, Western and Japanese, and the piece
//! legend (names, Betza and the squares a piece reaches on an empty board).

use banmen_formats::notation::{mark, to_japanese, to_western};
use banmen_rules::{BitBoard, Color, Kind, Move, Position, Square};
use serde_json::{json, Value};

/// A move written both ways, from the position before it. `previous` is the
/// last move's destination (for 同). The 9x9 games use the records crate's
/// notation; dai dai shogi, which it does not cover, gets the piece's letters
/// and every square of the move (`LN9i-8hx9g+`) both ways.
pub(crate) fn both<B: BitBoard>(
    pos: &Position<B>,
    m: Move,
    previous: Option<Square>,
) -> (String, String) {
    let geo = pos.rules().geometry;
    if geo.files <= 9 {
        let western = to_western(pos, m);
        let japanese = format!(
            "{}{}",
            mark(pos.side_to_move()),
            to_japanese(pos, m, previous, false)
        );
        return (western, japanese);
    }
    let usi = pos.move_to_usi(m);
    let code = pos
        .moving_piece(m)
        .map(|p| pos.token(p).to_uppercase())
        .unwrap_or_default();
    let mut text = code;
    for (i, sq) in squares(&usi)
        .iter()
        .filter_map(|s| geo.parse_square(s))
        .enumerate()
    {
        if i > 0 {
            text.push(if pos.piece_at(sq).is_some() { 'x' } else { '-' });
        }
        text.push_str(&geo.name(sq).to_string());
    }
    if usi.ends_with('+') {
        text.push('+');
    }
    let japanese = format!("{}{text}", mark(pos.side_to_move()));
    (text, japanese)
}

/// The squares named in USI move text (`9i8h9g+` → `9i`, `8h`, `9g`).
fn squares(usi: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in usi.chars() {
        if c.is_ascii_digit() {
            cur.push(c);
        } else if c.is_ascii_lowercase() && !cur.is_empty() {
            cur.push(c);
            out.push(std::mem::take(&mut cur));
        } else {
            cur.clear();
        }
    }
    out
}

/// The legend of every piece kind of a rule set: its SFEN code, name, Betza
/// text and the offsets (columns right, rows down, as Black sees the board)
/// of the squares it attacks from the centre of an empty board.
pub(crate) fn legend<B: BitBoard>(rules: &'static banmen_rules::Rules<B>) -> Value {
    let geo = rules.geometry;
    let (cf, cr) = ((geo.files as i32 + 1) / 2, geo.ranks as i32 / 2);
    let centre = geo.square(cf, cr);
    let pieces: Vec<Value> = (0..rules.kind_count())
        .map(|k| {
            let info = rules.kind(Kind(k as u8));
            let base = &rules.variant.pieces[info.base.0 as usize];
            let betza = if info.promoted {
                base.promoted.as_ref().map_or("", |p| p.betza)
            } else {
                base.betza
            };
            let attacks: Vec<[i32; 2]> = centre
                .map(|c| {
                    rules
                        .attacks(Color::Black, Kind(k as u8), c, B::EMPTY)
                        .squares()
                        .map(|sq| [cf - geo.file(sq), geo.rank(sq) - cr])
                        .collect()
                })
                .unwrap_or_default();
            json!({
                "code": info.code,
                "name": info.name,
                "betza": betza,
                "promoted": info.promoted,
                "royal": info.royal,
                "attacks": attacks,
            })
        })
        .collect();
    let handicaps: Vec<&str> = rules.variant.handicaps.iter().map(|h| h.name).collect();
    json!({
        "files": geo.files,
        "ranks": geo.ranks,
        "drops": rules.variant.drops,
        "handicaps": handicaps,
        "pieces": pieces,
    })
}

#[cfg(test)]
mod tests {
    use super::squares;

    #[test]
    fn squares_of_usi_text() {
        assert_eq!(squares("7g7f"), ["7g", "7f"]);
        assert_eq!(squares("P*5e"), ["5e"]);
        assert_eq!(squares("17q16p+"), ["17q", "16p"]);
        assert_eq!(squares("9i8h9g+"), ["9i", "8h", "9g"]);
    }
}
