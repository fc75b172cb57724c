//! A plain-text board diagram.

use banmen_rules::{BitBoard, Color, Kind, Piece, Position};

/// Renders the board as Black sees it, with both hands.
pub fn render<B: BitBoard>(pos: &Position<B>) -> String {
    let rules = pos.rules();
    let g = rules.geometry;
    let width = rules
        .variant
        .pieces
        .iter()
        .map(|p| p.code.len())
        .max()
        .unwrap_or(1)
        + 2;
    let hand = |c: Color| {
        let mut parts = Vec::new();
        for k in 0..rules.n_base {
            let n = pos.hand_count(c, Kind(k as u8));
            if n > 0 {
                let code = pos.token(Piece {
                    color: c,
                    kind: Kind(k as u8),
                });
                parts.push(if n > 1 { format!("{code}{n}") } else { code });
            }
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(" ")
        }
    };
    let mut out = format!("white hand: {}\n", hand(Color::White));
    let mut header = String::from(" ");
    for file in (1..=g.files as i32).rev() {
        header.push_str(&format!("{file:>width$}"));
    }
    out.push_str(&header);
    out.push('\n');
    for r in 0..g.ranks as i32 {
        let mut line = String::from(" ");
        for file in (1..=g.files as i32).rev() {
            let sq = g.square(file, r).expect("on board");
            let cell = match pos.piece_at(sq) {
                Some(p) => pos.token(p),
                None => ".".to_string(),
            };
            line.push_str(&format!("{cell:>width$}"));
        }
        line.push_str(&format!("  {}\n", (b'a' + r as u8) as char));
        out.push_str(&line);
    }
    out.push_str(&format!("black hand: {}\n", hand(Color::Black)));
    out.push_str(&format!("{} to move\n", pos.side_to_move().name()));
    out
}
