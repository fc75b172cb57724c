//! Helpers shared by the rule tests: move sets as USI text, assertions on
//! legal and refused moves, and the colour-flipped SFEN of a position.
#![allow(dead_code)]

use banmen_rules::{BitBoard, Game, IllegalMove, MoveError, Position};
use std::collections::BTreeSet;

/// Every legal move as USI text.
pub fn legal<B: BitBoard>(p: &Position<B>) -> BTreeSet<String> {
    p.legal_moves()
        .into_iter()
        .map(|m| p.move_to_usi(m))
        .collect()
}

/// Asserts that `text` is legal: parsed, listed, and its USI text round-trips.
#[track_caller]
pub fn assert_legal<B: BitBoard>(p: &Position<B>, text: &str) {
    let m = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} should be legal in {}: {e}", p.to_sfen()));
    assert!(p.legal_moves().contains(&m), "{text} not listed");
    assert_eq!(p.move_to_usi(m), text);
}

/// Asserts that `text` is refused with exactly `why`, and is not listed.
#[track_caller]
pub fn assert_illegal<B: BitBoard>(p: &Position<B>, text: &str, why: IllegalMove) {
    assert_eq!(
        p.parse_move(text),
        Err(MoveError::Illegal(why)),
        "{text} in {}",
        p.to_sfen()
    );
    assert!(!legal(p).contains(text), "{text} is listed as legal");
}

/// Plays USI moves, panicking on the first that is refused.
#[track_caller]
pub fn play<B: BitBoard>(g: &mut Game<B>, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_usi(m)
            .unwrap_or_else(|e| panic!("{m} should be playable: {e}"));
    }
}

/// The same position seen from the other side: board turned 180 degrees,
/// colours, hands and side to move swapped.
pub fn flip_sfen(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let rows: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|row| {
            let mut cells: Vec<Option<String>> = Vec::new();
            let mut plus = false;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    cells.extend((0..n).map(|_| None));
                } else if c == '+' {
                    plus = true;
                } else {
                    let t = if plus { "+" } else { "" };
                    cells.push(Some(format!("{t}{}", swap(c))));
                    plus = false;
                }
            }
            cells.reverse();
            let mut out = String::new();
            let mut empty = 0;
            for cell in cells {
                match cell {
                    None => empty += 1,
                    Some(t) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&t);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let side = if f[1] == "b" { "w" } else { "b" };
    let hand = if f[2] == "-" {
        "-".to_string()
    } else {
        // Tokens (count + letter), case swapped, Black's (upper case) first.
        let mut tokens: Vec<String> = Vec::new();
        let mut cur = String::new();
        for c in f[2].chars() {
            if c.is_ascii_digit() {
                cur.push(c);
            } else {
                cur.push(swap(c));
                tokens.push(std::mem::take(&mut cur));
            }
        }
        let (mut upper, lower): (Vec<String>, Vec<String>) = tokens
            .into_iter()
            .partition(|t| t.chars().last().is_some_and(|c| c.is_ascii_uppercase()));
        upper.extend(lower);
        upper.concat()
    };
    format!("{} {side} {hand} 1", rows.join("/"))
}

/// The board field of an SFEN (ranks `a` first, files from the highest) for
/// a `size` x `size` board, from (square, token) pairs: `[("5e", "A"), ("1a", "k")]`.
pub fn board_field(size: i32, pieces: &[(&str, &str)]) -> String {
    let mut cells: std::collections::BTreeMap<(i32, i32), &str> = Default::default();
    for &(sq, token) in pieces {
        let (file, rank) = sq.split_at(sq.len() - 1);
        let rank = (rank.as_bytes()[0] - b'a') as i32;
        let file: i32 = file.parse().expect("file number");
        assert!(
            (1..=size).contains(&file) && (0..size).contains(&rank),
            "{sq}"
        );
        assert!(
            cells.insert((rank, file), token).is_none(),
            "{sq} given twice"
        );
    }
    let rows: Vec<String> = (0..size)
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for file in (1..=size).rev() {
                match cells.get(&(rank, file)) {
                    Some(t) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(t);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    rows.join("/")
}
