//! Move text for the page's move list, Western and Japanese, and the piece
//! legend (names, Betza and the squares a piece reaches on an empty board).

use crate::variants::piece_identity;
use banmen_formats::notation::{mark, to_japanese, to_western};
use banmen_rules::{BitBoard, Color, Kind, Move, Position, Square};
use serde_json::{json, Value};

/// A move written both ways by the records crate, from the position before
/// it. `previous` is the last move's destination (for 同).
pub(crate) fn both<B: BitBoard>(
    pos: &Position<B>,
    m: Move,
    previous: Option<Square>,
) -> (String, String) {
    let western = to_western(pos, m);
    let japanese = format!(
        "{}{}",
        mark(pos.side_to_move()),
        to_japanese(pos, m, previous, false)
    );
    (western, japanese)
}

/// The legend of every piece kind of a rule set: its identity (SFEN code,
/// Western letters, names; see [`piece_identity`]), Betza text and the offsets (columns right, rows down, as Black sees the board)
/// of the squares it attacks from the centre of an empty board; and where
/// pieces may promote (each side's zone, or on a capture), so that the page
/// can ask about a premove's promotion when it is made.
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
            // A square counts when the piece could capture a lone enemy
            // piece there: limited slides keep their range, hops (which
            // need a screen) do not show.
            let attacks: Vec<[i32; 2]> = centre
                .map(|c| {
                    geo.all()
                        .filter(|&t| {
                            t != c
                                && rules
                                    .attacks(Color::Black, Kind(k as u8), c, B::from_square(t))
                                    .has(t)
                        })
                        .map(|t| [cf - geo.file(t), geo.rank(t) - cr])
                        .filter(|[dx, dy]| dx.abs() <= 4 && dy.abs() <= 4)
                        .collect()
                })
                .unwrap_or_default();
            let mut piece = piece_identity(info);
            piece["betza"] = json!(betza);
            piece["attacks"] = json!(attacks);
            piece
        })
        .collect();
    let handicaps: Vec<&str> = rules.variant.handicaps.iter().map(|h| h.name).collect();
    let zone = |c: Color| -> Vec<String> {
        rules
            .zone(c)
            .squares()
            .map(|s| geo.name(s).to_string())
            .collect()
    };
    json!({
        "files": geo.files,
        "ranks": geo.ranks,
        "drops": rules.variant.drops,
        "handicaps": handicaps,
        "pieces": pieces,
        "promotion_zone": { "black": zone(Color::Black), "white": zone(Color::White) },
        "promotion_on_capture": rules.variant.promotes_on_capture(),
    })
}
