//! The rules of dai dai shogi (`rules/dai-dai-shogi.md`), one test per rule or
//! piece type, each on a small constructed position with the moves written in
//! USI. Expected destination sets are computed from the spec's words (section
//! 5: directions and ranges per piece), never copied from the engine.

mod common;
use banmen_rules::{
    rules_17x17_with, Bb320, Color, Game, GameOptions, IllegalMove, Move, Outcome, Position,
    Reason, Rules, SfenMode, SfenProblem, VariantName,
};
use common::*;
use std::collections::{BTreeMap, BTreeSet};

fn rules_with(options: &str) -> &'static Rules<Bb320> {
    rules_17x17_with(VariantName::DaiDaiShogi, options)
        .unwrap_or_else(|e| panic!("daidaishogi with '{options}': {e}"))
}

fn rules() -> &'static Rules<Bb320> {
    rules_with("")
}

fn pos_in(r: &'static Rules<Bb320>, sfen: &str) -> Position<Bb320> {
    Position::from_sfen(r, sfen, SfenMode::Strict)
        .unwrap_or_else(|e| panic!("{sfen} should parse: {e}"))
}

fn pos(sfen: &str) -> Position<Bb320> {
    pos_in(rules(), sfen)
}

/// (file, rank index) of a square name: `9i` -> (9, 8).
fn coords(name: &str) -> (i32, i32) {
    let (file, rank) = name.split_at(name.len() - 1);
    (
        file.parse().expect("file number"),
        (rank.as_bytes()[0] - b'a') as i32,
    )
}

fn name(file: i32, rank: i32) -> String {
    format!("{file}{}", (b'a' + rank as u8) as char)
}

fn on_board(file: i32, rank: i32) -> bool {
    (1..=17).contains(&file) && (0..17).contains(&rank)
}

/// A DSFEN from (square, token) pairs: `[("9i", "LN"), ("2a", "kg")]`.
fn dsfen(pieces: &[(&str, &str)], side: &str) -> String {
    format!("{} {side} - 1", board_field(17, pieces))
}

/// The usual kings, far from the centre and off its lines: Black 16q, White 2a.
fn with_kings<'a>(pieces: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = pieces.to_vec();
    v.push(("16q", "KG"));
    v.push(("2a", "kg"));
    v
}

/// Kings as in the movement tests: White's in the corner behind three pawns,
/// so that pieces reaching everywhere (hook movers) do not attack it.
fn with_shielded_kings<'a>(pieces: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = pieces.to_vec();
    v.extend([
        ("16q", "KG"),
        ("1a", "kg"),
        ("1b", "pa"),
        ("2a", "pa"),
        ("2b", "pa"),
    ]);
    v
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn square(name: &str) -> banmen_rules::Square {
    rules().geometry.parse_square(name).expect("square")
}

/// Legal moves of the piece on `from`.
fn moves_of(p: &Position<Bb320>, from: &str) -> Vec<Move> {
    let sq = square(from);
    p.legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(sq))
        .collect()
}

/// USI text of every legal move of the piece on `from`.
fn moves_from(p: &Position<Bb320>, from: &str) -> BTreeSet<String> {
    moves_of(p, from)
        .into_iter()
        .map(|m| p.move_to_usi(m))
        .collect()
}

/// Destinations of the plain (single-step, jump or slide) moves from `from`.
fn dests(p: &Position<Bb320>, from: &str) -> BTreeSet<String> {
    let g = rules().geometry;
    moves_of(p, from)
        .into_iter()
        .filter(|m| m.mid().is_none())
        .map(|m| g.name(m.to()).to_string())
        .collect()
}

/// The moves through a middle square (double moves, igui, pass) from `from`.
fn mid_moves(p: &Position<Bb320>, from: &str) -> BTreeSet<String> {
    moves_of(p, from)
        .into_iter()
        .filter(|m| m.mid().is_some())
        .map(|m| p.move_to_usi(m))
        .collect()
}

#[track_caller]
fn assert_refused(p: &Position<Bb320>, text: &str) {
    assert!(p.parse_move(text).is_err(), "{text} should be refused");
    assert!(!legal(p).contains(text), "{text} is listed as legal");
}

fn token_at(p: &Position<Bb320>, sq: &str) -> Option<String> {
    p.piece_at(square(sq)).map(|pc| p.token(pc))
}

// ---------------------------------------------------------------------------
// The spec's words as data (section 5), and a small independent model of them.
// ---------------------------------------------------------------------------

/// Owner-relative directions: forward, back, left, right and the diagonals.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum D {
    F,
    B,
    L,
    R,
    FL,
    FR,
    BL,
    BR,
}
use D::*;

const ORTH: &[D] = &[F, B, L, R];
const DIAG: &[D] = &[FL, FR, BL, BR];
const ALL8: &[D] = &[F, B, L, R, FL, FR, BL, BR];
const SIDE: &[D] = &[L, R];
const VERT: &[D] = &[F, B];
const FDIAG: &[D] = &[FL, FR];
const BDIAG: &[D] = &[BL, BR];

/// One clause of a piece's movement in words.
#[derive(Clone, Copy, Debug)]
enum Mv {
    /// Slide up to n squares through empty squares (0 = unlimited); a step is n = 1.
    Slide(&'static [D], u8),
    /// Go straight to the n-th square, whatever stands between.
    Jump(&'static [D], u8),
    /// The lion's steps and jumps: every square within two.
    Lion,
    /// Hook move: slide, optionally turn 90 degrees once on an empty square, slide.
    Hook { diagonal: bool },
}
use Mv::*;

/// (left, forward) of a direction.
fn vector(d: D) -> (i32, i32) {
    match d {
        F => (0, 1),
        B => (0, -1),
        L => (1, 0),
        R => (-1, 0),
        FL => (1, 1),
        FR => (-1, 1),
        BL => (1, -1),
        BR => (-1, -1),
    }
}

/// (file, rank) delta of an owner-relative direction. Black faces rank a, its
/// left is toward file 17; White faces rank q, its left is toward file 1.
fn delta(c: Color, d: D) -> (i32, i32) {
    let (left, fwd) = vector(d);
    match c {
        Color::Black => (left, -fwd),
        Color::White => (-left, fwd),
    }
}

fn perpendicular(d: D) -> [D; 2] {
    match d {
        F | B => [L, R],
        L | R => [F, B],
        FL => [FR, BL],
        FR => [FL, BR],
        BL => [FL, BR],
        BR => [FR, BL],
    }
}

/// The promotions of section 7, by starting code; promotion-only types by
/// their section 5 abbreviation (FF, GE, MW, WS).
const PROMOTES: [(&str, &str); 21] = [
    ("BM", "MW"),
    ("CS", "DH"),
    ("EA", "LN"),
    ("EB", "DV"),
    ("EF", "SD"),
    ("FD", "DK"),
    ("FH", "FK"),
    ("KR", "GD"),
    ("LN", "FF"),
    ("LD", "GE"),
    ("NK", "SB"),
    ("NO", "FE"),
    ("OK", "LO"),
    ("OR", "WS"),
    ("PH", "GB"),
    ("PO", "HM"),
    ("PS", "SQ"),
    ("RB", "FR"),
    ("SO", "WE"),
    ("WB", "FT"),
    ("WR", "LD"),
];

/// The 64 starting codes of section 5.
const CODES: [&str; 64] = [
    "KG", "FK", "RB", "FR", "FT", "WB", "DK", "DH", "SQ", "RA", "RO", "BI", "GB", "GD", "SB", "FE",
    "WE", "LN", "LD", "DV", "SD", "BD", "WT", "RC", "LC", "PH", "KR", "PO", "OK", "VO", "FD", "EF",
    "OR", "EB", "FH", "PS", "ST", "HM", "LO", "NO", "SO", "EA", "WR", "NK", "BM", "FL", "EW", "VB",
    "RG", "LG", "GG", "SG", "CG", "IG", "WG", "SN", "AB", "CS", "RV", "LA", "SM", "VM", "HD", "PA",
];

fn promotes_to(code: &str) -> Option<&'static str> {
    PROMOTES.iter().find(|(c, _)| *c == code).map(|(_, t)| *t)
}

/// The type a token (`LN`, `+EA`, `kg`) moves as.
fn moves_as(token: &str) -> String {
    let upper = token.to_ascii_uppercase();
    match upper.strip_prefix('+') {
        Some(base) => promotes_to(base)
            .unwrap_or_else(|| panic!("{base} does not promote"))
            .to_string(),
        None => upper,
    }
}

fn has(options: &str, pair: &str) -> bool {
    options.split(',').any(|o| o.trim() == pair)
}

/// Section 5 (and the readings of section 9 named by `options`) in words.
fn words(kind: &str, options: &str) -> Vec<Mv> {
    let fwd_diagonals = has(options, "free-pieces=forward-diagonals");
    match kind {
        "KG" => vec![Slide(ALL8, 1)],
        "FK" => vec![Slide(ALL8, 0)],
        // Slide in all directions except straight back.
        "RB" => vec![Slide(&[F, L, R, FL, FR, BL, BR], 0)],
        "FR" if fwd_diagonals => vec![Slide(SIDE, 0), Slide(FDIAG, 0), Slide(VERT, 5)],
        "FR" => vec![Slide(SIDE, 0), Slide(DIAG, 0), Slide(VERT, 5)],
        "FT" if fwd_diagonals => vec![Slide(VERT, 0), Slide(FDIAG, 0), Slide(SIDE, 5)],
        "FT" => vec![Slide(VERT, 0), Slide(DIAG, 0), Slide(SIDE, 5)],
        "WB" => vec![Slide(SIDE, 0), Slide(DIAG, 0), Slide(VERT, 2)],
        "DK" => vec![Slide(ORTH, 0), Slide(DIAG, 1)],
        "DH" => vec![Slide(DIAG, 0), Slide(ORTH, 1)],
        "SQ" => vec![Slide(ORTH, 0), Slide(FDIAG, 1)],
        "RA" => vec![Slide(ORTH, 0), Slide(BDIAG, 1)],
        "RO" => vec![Slide(ORTH, 0)],
        "BI" => vec![Slide(DIAG, 0)],
        "GB" => vec![Slide(VERT, 0), Slide(DIAG, 3), Slide(SIDE, 2)],
        // Tai shogi's: slide sideways, <=3 backward-diagonally, <=2 forward/back,
        // jump to the 2nd or 3rd square sideways.
        "GD" if has(options, "great-dragon=tai") => vec![
            Slide(SIDE, 0),
            Slide(BDIAG, 3),
            Slide(VERT, 2),
            Jump(SIDE, 2),
            Jump(SIDE, 3),
        ],
        "GD" => vec![Slide(SIDE, 0), Slide(DIAG, 3), Slide(VERT, 2)],
        "SB" => vec![Slide(&[F, FL, FR], 0), Slide(&[L, R, B, BL, BR], 2)],
        "FE" => vec![Slide(FDIAG, 0), Slide(ORTH, 2), Slide(BDIAG, 2)],
        "WE" => vec![Slide(BDIAG, 0), Slide(ORTH, 2), Slide(FDIAG, 2)],
        "LN" => vec![Lion],
        "LD" => vec![Slide(ALL8, 3)],
        "DV" => vec![Slide(DIAG, 5), Slide(ORTH, 2)],
        "SD" => vec![Slide(ORTH, 5), Slide(DIAG, 2)],
        "BD" => vec![
            Slide(SIDE, 0),
            Slide(&[FR], 0),
            Slide(VERT, 2),
            Slide(&[FL], 1),
        ],
        "WT" => vec![
            Slide(VERT, 0),
            Slide(&[FL], 0),
            Slide(SIDE, 2),
            Slide(&[FR], 1),
        ],
        // SZ/SSZ: RC slides f, fl, br and steps right; LC the mirror.
        "RC" if has(options, "chariots=sz") => {
            vec![Slide(&[F], 0), Slide(&[FL, BR], 0), Slide(&[R], 1)]
        }
        "LC" if has(options, "chariots=sz") => {
            vec![Slide(&[F], 0), Slide(&[FR, BL], 0), Slide(&[L], 1)]
        }
        "RC" => vec![Slide(&[F], 0), Slide(&[FR, BL], 0), Slide(&[B], 1)],
        "LC" => vec![Slide(&[F], 0), Slide(&[FL, BR], 0), Slide(&[B], 1)],
        "PH" => vec![Slide(ORTH, 1), Jump(DIAG, 2)],
        "KR" => vec![Slide(DIAG, 1), Jump(ORTH, 2)],
        "PO" => vec![Slide(SIDE, 1), Jump(&[F], 2), Jump(BDIAG, 2)],
        "OK" => vec![Slide(ORTH, 2), Slide(FDIAG, 1)],
        "VO" => vec![Slide(ORTH, 2)],
        "FD" => vec![Slide(DIAG, 2)],
        "EF" | "OR" => vec![Slide(FDIAG, 2), Slide(&[B], 2)],
        "EB" => vec![Slide(&[F, L, R], 2)],
        "FH" => vec![Slide(ORTH, 1), Slide(FDIAG, 2)],
        "PS" => vec![Slide(&[F, FL, FR, BL, BR], 1), Slide(SIDE, 2)],
        "ST" => vec![Slide(VERT, 2), Slide(FDIAG, 1)],
        "HM" => vec![Hook { diagonal: false }],
        "LO" => vec![Hook { diagonal: true }, Slide(ORTH, 1)],
        "NO" => vec![Slide(FDIAG, 2), Slide(&[L, R, BL, BR], 1)],
        "SO" => vec![Slide(BDIAG, 2), Slide(&[L, R, FL, FR], 1)],
        // SZ text: two forward/back, one step right; SZ diagram: one step left.
        "EA" if has(options, "eastern-barbarian=sz") => vec![Slide(VERT, 2), Slide(&[R], 1)],
        "EA" if has(options, "eastern-barbarian=sz-diagram") => {
            vec![Slide(VERT, 2), Slide(&[L], 1)]
        }
        "EA" => vec![Slide(VERT, 2), Slide(&[L, R, FL, FR], 1)],
        "WR" => vec![Slide(SIDE, 2), Slide(&[F, B, FL, FR], 1)],
        "NK" if has(options, "neighboring-king=k") => vec![Slide(ALL8, 1)],
        "NK" => vec![Slide(&[F, L, R, FL, FR, BL, BR], 1)],
        "BM" => vec![Slide(&[FL, FR, BL, BR, L, R], 1)],
        "FL" => vec![Slide(&[FL, FR, BL, BR, F, B], 1)],
        "EW" => vec![Slide(&[F, L, R, FL, FR], 1)],
        "VB" => vec![Slide(FDIAG, 2), Slide(SIDE, 1)],
        // Every direction except directly right / directly left.
        "RG" => vec![Slide(&[F, B, L, FL, FR, BL, BR], 1)],
        "LG" => vec![Slide(&[F, B, R, FL, FR, BL, BR], 1)],
        "GG" => vec![Slide(&[F, B, L, R, FL, FR], 1)],
        "SG" => vec![Slide(&[FL, FR, BL, BR, F], 1)],
        "CG" => vec![Slide(&[F, B, FL, FR], 1)],
        "IG" => vec![Slide(&[F, FL, FR], 1)],
        "WG" => vec![Slide(FDIAG, 2)],
        "SN" => vec![Slide(FDIAG, 1)],
        "AB" => vec![Slide(ORTH, 1)],
        "CS" => vec![Slide(DIAG, 1)],
        "RV" => vec![Slide(VERT, 0)],
        "LA" => vec![Slide(&[F], 0)],
        "SM" => vec![Slide(SIDE, 0), Slide(VERT, 1)],
        "VM" => vec![Slide(VERT, 0), Slide(SIDE, 1)],
        "HD" => vec![Slide(&[F], 0), Slide(&[B], 1)],
        "PA" => vec![Slide(&[F], 1)],
        // Promotion-only types.
        "FF" => vec![Lion, Slide(ALL8, 3)],
        "GE" if has(options, "great-elephant=ja") => {
            vec![Slide(ORTH, 0), Slide(BDIAG, 0), Slide(FDIAG, 2)]
        }
        "GE" => vec![Slide(&[F, B, FL, FR], 3), Slide(&[L, R, BL, BR], 5)],
        "MW" => vec![Slide(DIAG, 0), Slide(&[B], 0), Slide(&[F], 1)],
        "WS" if has(options, "wizard-stork=sz") => vec![Slide(DIAG, 0), Slide(&[B], 1)],
        "WS" if has(options, "wizard-stork=srz") => vec![Slide(VERT, 0), Slide(FDIAG, 0)],
        "WS" => vec![Slide(DIAG, 0), Slide(&[F], 0), Slide(&[B], 1)],
        other => panic!("no words for {other}"),
    }
}

/// Who stands where, for the model.
type Board = BTreeMap<(i32, i32), Color>;

fn board_of(pieces: &[(&str, &str)]) -> Board {
    pieces
        .iter()
        .map(|(sq, t)| {
            let letters = t.trim_start_matches('+');
            let c = if letters.chars().all(|c| c.is_ascii_uppercase()) {
                Color::Black
            } else {
                Color::White
            };
            (coords(sq), c)
        })
        .collect()
}

/// Destinations the words allow for a piece of colour `c` on `from`.
fn model(moves: &[Mv], c: Color, from: (i32, i32), b: &Board) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // Walks from `start` along `d` (not including it): pushes empty squares and
    // the first enemy; returns the empty squares passed.
    let ride = |start: (i32, i32), d: D, range: u8, out: &mut BTreeSet<String>| {
        let (df, dr) = delta(c, d);
        let mut empties = Vec::new();
        let (mut f, mut r) = start;
        let mut n = 0;
        loop {
            f += df;
            r += dr;
            n += 1;
            if !on_board(f, r) || (range > 0 && n > range) {
                break;
            }
            match b.get(&(f, r)) {
                Some(&owner) if owner == c => break,
                Some(_) => {
                    out.insert(name(f, r));
                    break;
                }
                None => {
                    out.insert(name(f, r));
                    empties.push((f, r));
                }
            }
        }
        empties
    };
    for &mv in moves {
        match mv {
            Slide(dirs, n) => {
                for &d in dirs {
                    ride(from, d, n, &mut out);
                }
            }
            Jump(dirs, n) => {
                for &d in dirs {
                    let (df, dr) = delta(c, d);
                    let (f, r) = (from.0 + df * n as i32, from.1 + dr * n as i32);
                    if on_board(f, r) && b.get(&(f, r)) != Some(&c) {
                        out.insert(name(f, r));
                    }
                }
            }
            Lion => {
                for df in -2..=2 {
                    for dr in -2..=2 {
                        let (f, r) = (from.0 + df, from.1 + dr);
                        if (df, dr) != (0, 0) && on_board(f, r) && b.get(&(f, r)) != Some(&c) {
                            out.insert(name(f, r));
                        }
                    }
                }
            }
            Hook { diagonal } => {
                for &d in if diagonal { DIAG } else { ORTH } {
                    for corner in ride(from, d, 0, &mut out) {
                        for t in perpendicular(d) {
                            ride(corner, t, 0, &mut out);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The standard layout for a movement test: the piece on 13m (Black) or on
/// 5e (White, the same square turned 180 degrees); the enemy king in the far
/// corner behind three pawns, the own king off every line of the piece.
fn layout(token: &str, c: Color) -> (&'static str, Vec<(&'static str, String)>) {
    let is_king = token.eq_ignore_ascii_case("KG");
    let mut v: Vec<(&'static str, String)> = Vec::new();
    let at = match c {
        Color::Black => {
            v.push(("13m", token.to_ascii_uppercase()));
            v.extend(
                [("1a", "kg"), ("1b", "pa"), ("2a", "pa"), ("2b", "pa")]
                    .map(|(s, t)| (s, t.into())),
            );
            if !is_king {
                v.push(("16q", "KG".into()));
            }
            "13m"
        }
        Color::White => {
            v.push(("5e", token.to_ascii_lowercase()));
            v.extend(
                [("17q", "KG"), ("17p", "PA"), ("16q", "PA"), ("16p", "PA")]
                    .map(|(s, t)| (s, t.into())),
            );
            if !is_king {
                v.push(("2a", "kg".into()));
            }
            "5e"
        }
    };
    (at, v)
}

/// The destinations of `token` in the standard layout for `c` under `options`:
/// (what the engine lists, what the words allow).
fn engine_and_words(
    options: &str,
    token: &str,
    c: Color,
) -> (BTreeSet<String>, BTreeSet<String>, Position<Bb320>) {
    let (at, pieces) = layout(token, c);
    let refs: Vec<(&str, &str)> = pieces.iter().map(|(s, t)| (*s, t.as_str())).collect();
    let side = if c == Color::Black { "b" } else { "w" };
    let p = pos_in(rules_with(options), &dsfen(&refs, side));
    let want = model(
        &words(&moves_as(token), options),
        c,
        coords(at),
        &board_of(&refs),
    );
    (dests(&p, at), want, p)
}

/// Checks a piece's moves for both colours against the spec's words, and
/// that a move promotes exactly when it captures with a promotable piece.
fn check_piece_with(options: &str, token: &str) {
    for c in Color::ALL {
        let (got, want, p) = engine_and_words(options, token, c);
        assert_eq!(
            got,
            want,
            "{token} for {} under '{options}'\n  extra: {:?}\n  missing: {:?}",
            c.name(),
            got.difference(&want).collect::<Vec<_>>(),
            want.difference(&got).collect::<Vec<_>>()
        );
        let (at, _) = layout(token, c);
        let promotable = !token.starts_with('+')
            && promotes_to(&token.to_ascii_uppercase()).is_some()
            && !(token.eq_ignore_ascii_case("LD") && has(options, "great-elephant=none"));
        for m in moves_of(&p, at) {
            if m.mid().is_some() {
                continue;
            }
            let captures = p.piece_at(m.to()).is_some();
            assert_eq!(
                m.is_promotion(),
                captures && promotable,
                "{token}: {}",
                p.move_to_usi(m)
            );
        }
        // Only lion-type pieces have moves through a middle square: here,
        // with no enemy next to them, exactly one pass.
        let lion = matches!(moves_as(token).as_str(), "LN" | "FF");
        let mids = mid_moves(&p, at);
        if lion {
            assert_eq!(mids.len(), 1, "{token}: one pass: {mids:?}");
        } else {
            assert!(mids.is_empty(), "{token}: {mids:?}");
        }
    }
}

fn check_piece(token: &str) {
    check_piece_with("", token);
}

macro_rules! movement_tests {
    ($($test:ident: $token:expr,)*) => {
        $(
            #[test]
            fn $test() {
                check_piece($token);
            }
        )*
    };
}

movement_tests! {
    king_moves: "KG",
    queen_moves: "FK",
    rushing_bird_moves: "RB",
    free_demon_moves: "FR",
    free_dream_eater_moves: "FT",
    water_buffalo_moves: "WB",
    dragon_king_moves: "DK",
    dragon_horse_moves: "DH",
    square_mover_moves: "SQ",
    racing_chariot_moves: "RA",
    rook_moves: "RO",
    bishop_moves: "BI",
    golden_bird_moves: "GB",
    great_dragon_moves: "GD",
    standard_bearer_moves: "SB",
    fragrant_elephant_moves: "FE",
    white_elephant_moves: "WE",
    lion_moves: "LN",
    lion_dog_moves: "LD",
    dove_moves: "DV",
    she_devil_moves: "SD",
    blue_dragon_moves: "BD",
    white_tiger_moves: "WT",
    right_chariot_moves: "RC",
    left_chariot_moves: "LC",
    phoenix_moves: "PH",
    kirin_moves: "KR",
    poisonous_snake_moves: "PO",
    old_kite_moves: "OK",
    violent_ox_moves: "VO",
    flying_dragon_moves: "FD",
    enchanted_fox_moves: "EF",
    old_rat_moves: "OR",
    enchanted_badger_moves: "EB",
    flying_horse_moves: "FH",
    prancing_stag_moves: "PS",
    savage_tiger_moves: "ST",
    hook_mover_moves: "HM",
    long_nosed_goblin_moves: "LO",
    northern_barbarian_moves: "NO",
    southern_barbarian_moves: "SO",
    eastern_barbarian_moves: "EA",
    western_barbarian_moves: "WR",
    neighboring_king_moves: "NK",
    blind_monkey_moves: "BM",
    ferocious_leopard_moves: "FL",
    evil_wolf_moves: "EW",
    violent_bear_moves: "VB",
    right_general_moves: "RG",
    left_general_moves: "LG",
    gold_general_moves: "GG",
    silver_general_moves: "SG",
    copper_general_moves: "CG",
    iron_general_moves: "IG",
    wood_general_moves: "WG",
    stone_general_moves: "SN",
    angry_boar_moves: "AB",
    cat_sword_moves: "CS",
    reverse_chariot_moves: "RV",
    lance_moves: "LA",
    side_mover_moves: "SM",
    vertical_mover_moves: "VM",
    howling_dog_moves: "HD",
    pawn_moves: "PA",
    furious_fiend_moves: "+LN",
    great_elephant_moves: "+LD",
    mountain_witch_moves: "+BM",
    wizard_stork_moves: "+OR",
}

#[test]
fn promotable_types_are_the_21_of_section_7() {
    for (options, n) in [("", 21), ("great-elephant=none", 20)] {
        let r = rules_with(options);
        assert_eq!(r.n_base, 64);
        assert_eq!(r.kind_count(), 64 + n, "{options}");
        for code in CODES {
            let k = r.kind_by_code(code).unwrap_or_else(|| panic!("no {code}"));
            let promotes = promotes_to(code).is_some() && !(code == "LD" && n == 20);
            assert_eq!(r.kind(k).promotes_to.is_some(), promotes, "{code}");
            assert_eq!(r.kind(k).royal, code == "KG", "{code}");
        }
    }
    // The promotion-only types by name.
    let name = |code: &str| rules().kind(rules().kind_by_code(code).unwrap()).name;
    assert_eq!(name("+LN"), "furious fiend");
    assert_eq!(name("+LD"), "great elephant");
    assert_eq!(name("+BM"), "mountain witch");
    assert_eq!(name("+OR"), "wizard stork");
    assert_eq!(name("NK"), "neighboring king");
}

#[test]
fn every_promoted_piece_moves_as_its_promotion() {
    for (code, _) in PROMOTES {
        check_piece(&format!("+{code}"));
    }
}

#[test]
fn non_promoting_types_cannot_be_written_promoted() {
    for code in CODES {
        let token = format!("+{code}");
        let sfen = dsfen(&with_shielded_kings(&[("9i", token.as_str())]), "b");
        let r = Position::from_sfen(rules(), &sfen, SfenMode::Strict);
        match promotes_to(code) {
            Some(_) => {
                r.unwrap_or_else(|e| panic!("+{code}: {e}"));
            }
            None => {
                let problems = r.expect_err(&format!("+{code}")).problems;
                assert!(
                    problems
                        .iter()
                        .any(|p| matches!(p, SfenProblem::BadPromotion(_))),
                    "+{code}: {problems:?}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Asymmetric pieces, spelled out.
// ---------------------------------------------------------------------------

#[test]
fn left_chariot_slides_on_its_owners_forward_left_diagonal() {
    // Black's left is toward file 17, White's toward file 1.
    let b = pos(&dsfen(&with_kings(&[("9i", "LC")]), "b"));
    let d = dests(&b, "9i");
    assert!(d.contains("13e"), "Black: forward-left is 10h, 11g...");
    assert!(d.contains("5m"), "Black: backward-right is 8j, 7k...");
    assert!(!d.contains("7g") && !d.contains("11k") && !d.contains("8h"));
    assert!(
        d.contains("9j") && !d.contains("9k"),
        "one step straight back"
    );
    let w = pos(&dsfen(&with_kings(&[("9i", "lc")]), "w"));
    let d = dests(&w, "9i");
    assert!(d.contains("5m"), "White: forward-left is 8j, 7k...");
    assert!(d.contains("13e"), "White: backward-right is 10h, 11g...");
    assert!(!d.contains("7g") && !d.contains("11k"));
    assert!(
        d.contains("9h") && !d.contains("9g"),
        "one step straight back"
    );
}

#[test]
fn right_and_left_generals_do_not_step_to_their_own_side() {
    let b = pos(&dsfen(&with_kings(&[("9i", "RG"), ("5e", "LG")]), "b"));
    assert_eq!(dests(&b, "9i").len(), 7);
    assert!(!dests(&b, "9i").contains("8i"), "Black's right is file 8");
    assert!(dests(&b, "9i").contains("10i"));
    assert!(!dests(&b, "5e").contains("6e"), "Black's left is file 6");
    assert!(dests(&b, "5e").contains("4e"));
    let w = pos(&dsfen(&with_kings(&[("9i", "rg"), ("5e", "lg")]), "w"));
    assert!(!dests(&w, "9i").contains("10i"), "White's right is file 10");
    assert!(dests(&w, "9i").contains("8i"));
    assert!(!dests(&w, "5e").contains("4e"), "White's left is file 4");
    assert!(dests(&w, "5e").contains("6e"));
}

#[test]
fn blue_dragon_and_white_tiger_mirror_each_other() {
    // Blue dragon: long forward-right diagonal, step forward-left.
    let b = pos(&dsfen(&with_kings(&[("9i", "BD")]), "b"));
    let d = dests(&b, "9i");
    assert!(d.contains("5e") && d.contains("10h") && !d.contains("11g"));
    assert!(d.contains("9g") && !d.contains("9f") && d.contains("9k") && !d.contains("9l"));
    assert!(d.contains("17i") && d.contains("1i"));
    let w = pos(&dsfen(&with_kings(&[("9i", "bd")]), "w"));
    let d = dests(&w, "9i");
    assert!(d.contains("13m") && d.contains("8j") && !d.contains("7k"));
    // White tiger: long forward-left diagonal, step forward-right.
    let b = pos(&dsfen(&with_kings(&[("9i", "WT")]), "b"));
    let d = dests(&b, "9i");
    assert!(d.contains("13e") && d.contains("8h") && !d.contains("7g"));
    assert!(d.contains("9a") && d.contains("9q") && d.contains("11i") && !d.contains("12i"));
    let w = pos(&dsfen(&with_kings(&[("9i", "wt")]), "w"));
    let d = dests(&w, "9i");
    assert!(d.contains("5m") && d.contains("10j") && !d.contains("11k"));
}

// ---------------------------------------------------------------------------
// Limited sliders and jumps.
// ---------------------------------------------------------------------------

#[test]
fn limited_sliders_do_not_jump() {
    // Violent ox (R2): an own piece on 9h stops it; an enemy there is taken,
    // and nothing beyond.
    let own = pos(&dsfen(&with_kings(&[("9i", "VO"), ("9h", "AB")]), "b"));
    assert!(!dests(&own, "9i").contains("9g"));
    assert!(dests(&own, "9i").contains("9j") && dests(&own, "9i").contains("9k"));
    let enemy = pos(&dsfen(&with_kings(&[("9i", "VO"), ("9h", "ab")]), "b"));
    assert!(dests(&enemy, "9i").contains("9h"));
    assert!(!dests(&enemy, "9i").contains("9g"));
    // Lion dog (Q3): blocked on the second square.
    let ld = pos(&dsfen(&with_kings(&[("9i", "LD"), ("10h", "pa")]), "b"));
    let d = dests(&ld, "9i");
    assert!(d.contains("10h") && !d.contains("11g") && !d.contains("12f"));
    assert_legal(&ld, "9i10h+");
    // Dove (B5R2), she-devil (R5B2), great elephant: blocked at distance 2.
    for token in ["DV", "SD", "+LD", "FE"] {
        let p = pos(&dsfen(
            &with_kings(&[("9i", token), ("11g", "AB"), ("9g", "AB")]),
            "b",
        ));
        let d = dests(&p, "9i");
        for sq in ["11g", "12f", "13e", "9g", "9f", "9e"] {
            assert!(!d.contains(sq), "{token} to {sq}");
        }
        assert!(d.contains("10h") && d.contains("9h"), "{token}");
    }
}

#[test]
fn jumping_pieces_jump_over_pieces() {
    // Kirin: jump to the second square orthogonally, over anything.
    let kr = pos(&dsfen(
        &with_kings(&[
            ("9i", "KR"),
            ("9h", "AB"),
            ("9j", "ab"),
            ("8i", "AB"),
            ("10i", "AB"),
            ("9g", "pa"),
        ]),
        "b",
    ));
    assert_eq!(
        dests(&kr, "9i"),
        set(&["9g", "9k", "7i", "11i", "8h", "10h", "8j", "10j"])
    );
    assert_legal(&kr, "9i9g+");
    // Phoenix: jump to the second square diagonally.
    let ph = pos(&dsfen(
        &with_kings(&[("9i", "PH"), ("10h", "AB"), ("8h", "ab"), ("11g", "sg")]),
        "b",
    ));
    let d = dests(&ph, "9i");
    for sq in ["11g", "7g", "11k", "7k"] {
        assert!(d.contains(sq), "phoenix to {sq}");
    }
    assert!(!d.contains("10h") && !d.contains("8h"), "no diagonal step");
    assert!(!d.contains("12f"), "only the second square");
    assert_legal(&ph, "9i11g+");
    // Poisonous snake: over 9h forward, over 10j and 8j backward-diagonally.
    let po = pos(&dsfen(
        &with_kings(&[("9i", "PO"), ("9h", "AB"), ("10j", "ab"), ("8j", "AB")]),
        "b",
    ));
    assert_eq!(dests(&po, "9i"), set(&["8i", "10i", "9g", "11k", "7k"]));
    // A jump cannot land on an own piece.
    let blocked = pos(&dsfen(&with_kings(&[("9i", "KR"), ("9g", "AB")]), "b"));
    assert!(!dests(&blocked, "9i").contains("9g"));
}

#[test]
fn great_dragon_never_jumps_by_default() {
    let p = pos(&dsfen(
        &with_kings(&[("9i", "GD"), ("10i", "AB"), ("8i", "ab")]),
        "b",
    ));
    let d = dests(&p, "9i");
    assert!(!d.contains("11i") && !d.contains("12i") && !d.contains("7i"));
    assert!(d.contains("8i"));
}

// ---------------------------------------------------------------------------
// Lion (section 6.1) and furious fiend (6.3).
// ---------------------------------------------------------------------------

fn within_two(at: &str) -> BTreeSet<String> {
    let (f, r) = coords(at);
    let mut out = BTreeSet::new();
    for df in -2..=2 {
        for dr in -2..=2 {
            if (df, dr) != (0, 0) && on_board(f + df, r + dr) {
                out.insert(name(f + df, r + dr));
            }
        }
    }
    out
}

#[test]
fn lion_steps_and_jumps_to_all_24_squares() {
    let p = pos(&dsfen(&with_kings(&[("9i", "LN")]), "b"));
    assert_eq!(dests(&p, "9i"), within_two("9i"));
    assert_eq!(dests(&p, "9i").len(), 24);
    assert!(legal(&p).contains("9i11g") && legal(&p).contains("9i10g"));
    // Surrounded by its own pieces it still jumps to the 16 outer squares.
    let mut ring: Vec<(&str, &str)> = vec![("9i", "LN")];
    for sq in ["10h", "9h", "8h", "10i", "8i", "10j", "9j", "8j"] {
        ring.push((sq, "AB"));
    }
    let q = pos(&dsfen(&with_kings(&ring), "b"));
    let outer: BTreeSet<String> = within_two("9i")
        .into_iter()
        .filter(|s| {
            let (f, r) = coords(s);
            (f - 9).abs() == 2 || (r - 8).abs() == 2
        })
        .collect();
    assert_eq!(outer.len(), 16);
    assert_eq!(dests(&q, "9i"), outer);
    // No empty neighbour: no pass; no enemy neighbour: no double move.
    assert!(mid_moves(&q, "9i").is_empty());
    // In a corner, only the squares on the board.
    let c = pos(&dsfen(&with_kings(&[("1q", "LN")]), "b"));
    assert_eq!(
        dests(&c, "1q"),
        set(&["1p", "2p", "2q", "1o", "2o", "3o", "3p", "3q"])
    );
}

#[test]
fn lion_double_capture() {
    let p = pos(&dsfen(
        &with_kings(&[("9i", "LN"), ("9h", "pa"), ("9g", "pa")]),
        "b",
    ));
    assert_legal(&p, "9i9h9g+");
    let after = p.after(p.parse_move("9i9h9g+").unwrap());
    assert_eq!(token_at(&after, "9h"), None);
    assert_eq!(token_at(&after, "9g"), Some("+LN".into()));
    assert_eq!(token_at(&after, "9i"), None);
    // The single capture, the jump capture over the pawn, and capture-then-step.
    assert_legal(&p, "9i9h+");
    assert_legal(&p, "9i9g+");
    let jumped = p.after(p.parse_move("9i9g+").unwrap());
    assert_eq!(token_at(&jumped, "9h"), Some("pa".into()));
    assert_legal(&p, "9i9h8g+");
    assert_legal(&p, "9i9h10h+");
    // Nothing written with a middle square promotes-less, or without capture.
    assert_refused(&p, "9i9h9g");
}

#[test]
fn lion_double_moves_are_exactly_a_capture_then_a_step() {
    // Enemies on 9h and 8h, an own piece on 10h; the double moves are (A, X)
    // for each adjacent enemy A and each neighbour X of A that is empty, an
    // enemy, or the lion's own square; plus one pass.
    let pieces = with_kings(&[("9i", "LN"), ("9h", "pa"), ("8h", "gg"), ("10h", "AB")]);
    let p = pos(&dsfen(&pieces, "b"));
    let b = board_of(&pieces);
    let mut want = BTreeSet::new();
    for a in ["9h", "8h"] {
        let (af, ar) = coords(a);
        for df in -1..=1 {
            for dr in -1..=1 {
                let x = (af + df, ar + dr);
                if (df, dr) == (0, 0) || !on_board(x.0, x.1) {
                    continue;
                }
                let own = b.get(&x) == Some(&Color::Black) && x != coords("9i");
                if !own {
                    want.insert(format!("9i{a}{}+", name(x.0, x.1)));
                }
            }
        }
    }
    // Two captured middle squares to the same destination are two moves.
    assert!(want.contains("9i9h8g+") && want.contains("9i8h8g+"));
    assert!(want.contains("9i9h8h+"), "both pieces taken");
    assert!(want.contains("9i8h9i+") && want.contains("9i9h9i+"), "igui");
    want.insert("9i10i9i".into());
    assert_eq!(mid_moves(&p, "9i"), want);
    // The lion cannot take its own piece on the way.
    assert_refused(&p, "9i10h11g");
}

#[test]
fn lion_igui_captures_without_moving() {
    let p = pos(&dsfen(&with_kings(&[("9i", "LN"), ("8h", "sg")]), "b"));
    assert_legal(&p, "9i8h9i+");
    let after = p.after(p.parse_move("9i8h9i+").unwrap());
    assert_eq!(token_at(&after, "9i"), Some("+LN".into()));
    assert_eq!(token_at(&after, "8h"), None);
    assert_eq!(after.side_to_move(), Color::White);
    // Igui is a capture: it must be written promoted.
    assert_refused(&p, "9i8h9i");
}

#[test]
fn lion_may_capture_a_protected_lion() {
    let p = pos(&dsfen(
        &with_kings(&[("9i", "LN"), ("9g", "ln"), ("9f", "gg")]),
        "b",
    ));
    // No lion-trading restriction: the protected lion may be taken.
    assert_legal(&p, "9i9g+");
    let after = p.after(p.parse_move("9i9g+").unwrap());
    assert_eq!(token_at(&after, "9g"), Some("+LN".into()));
    // White's lion may take Black's the same way.
    let w = pos(&dsfen(
        &with_kings(&[("9i", "LN"), ("9g", "ln"), ("9j", "GG")]),
        "w",
    ));
    assert_legal(&w, "9g9i+");
}

#[test]
fn lion_pass_is_one_move_per_lion_type_piece() {
    // A lion, a promoted eastern barbarian (moves as a lion) and a furious fiend.
    let p = pos(&dsfen(
        &with_kings(&[("9i", "LN"), ("5e", "+EA"), ("13m", "+LN")]),
        "b",
    ));
    let passes: BTreeSet<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.mid().is_some() && m.from() == Some(m.to()))
        .map(|m| p.move_to_usi(m))
        .collect();
    assert_eq!(passes, set(&["9i10h9i", "5e6d5e", "13m14l13m"]));
    // The board is unchanged by a pass, only the side to move.
    let after = p.after(p.parse_move("9i10h9i").unwrap());
    assert_eq!(
        after.to_sfen().split(' ').next(),
        p.to_sfen().split(' ').next()
    );
    assert_eq!(after.side_to_move(), Color::White);
    // Other pieces never pass.
    let q = pos(&dsfen(&with_kings(&[("9i", "LD"), ("5e", "+WR")]), "b"));
    assert!(q.legal_moves().iter().all(|m| m.mid().is_none()));
    assert_refused(&q, "9i10h9i");
}

#[test]
fn lion_pass_is_written_with_the_first_empty_neighbour() {
    // Reading order: rank a first, within a rank file 17 first.
    let cases: [(&[&str], &str); 4] = [
        (&[], "9i10h9i"),
        (&["10h"], "9i9h9i"),
        (&["10h", "9h", "8h"], "9i10i9i"),
        (&["10h", "9h", "8h", "10i", "8i", "10j", "9j"], "9i8j9i"),
    ];
    for (occupied, pass) in cases {
        let mut pieces = vec![("9i", "LN")];
        pieces.extend(occupied.iter().map(|s| (*s, "AB")));
        let p = pos(&dsfen(&with_kings(&pieces), "b"));
        let passes: Vec<String> = mid_moves(&p, "9i")
            .into_iter()
            .filter(|m| m.ends_with("9i"))
            .collect();
        assert_eq!(passes, vec![pass.to_string()], "{occupied:?}");
    }
    // Any empty neighbour is accepted when reading, and means the same pass.
    let p = pos(&dsfen(&with_kings(&[("9i", "LN"), ("10h", "AB")]), "b"));
    let listed = p.parse_move("9i9h9i").unwrap();
    for mid in ["8h", "8i", "10j", "9j", "8j"] {
        let m = p
            .parse_move(&format!("9i{mid}9i"))
            .unwrap_or_else(|e| panic!("pass via {mid}: {e}"));
        assert_eq!(m, listed, "via {mid}");
        assert_eq!(p.move_to_usi(m), "9i9h9i");
    }
    // Not via an occupied square.
    assert_refused(&p, "9i10h9i");
    // Surrounded: no pass at all.
    let mut ring: Vec<(&str, &str)> = vec![("9i", "LN")];
    for sq in ["10h", "9h", "8h", "10i", "8i", "10j", "9j", "8j"] {
        ring.push((sq, "AB"));
    }
    let s = pos(&dsfen(&with_kings(&ring), "b"));
    assert!(mid_moves(&s, "9i").is_empty());
    assert_refused(&s, "9i9h9i");
}

#[test]
fn lion_pass_is_illegal_in_check() {
    // The White rook on 16a checks the Black king on 16q down file 16.
    let p = pos(&dsfen(
        &[("9i", "LN"), ("16a", "ro"), ("16q", "KG"), ("2a", "kg")],
        "b",
    ));
    assert!(p.in_check());
    assert!(mid_moves(&p, "9i").is_empty());
    assert_refused(&p, "9i10h9i");
    // Out of check, the same pass is legal.
    let q = pos(&dsfen(
        &[("9i", "LN"), ("15a", "ro"), ("16q", "KG"), ("2a", "kg")],
        "b",
    ));
    assert_legal(&q, "9i10h9i");
}

#[test]
fn lion_double_step_through_an_empty_square_is_not_a_separate_move() {
    let p = pos(&dsfen(&with_kings(&[("9i", "LN")]), "b"));
    // 24 single moves and the pass, nothing else.
    assert_eq!(moves_of(&p, "9i").len(), 25);
    assert_eq!(mid_moves(&p, "9i"), set(&["9i10h9i"]));
    // Written through an empty middle square, it is the plain move.
    for (double, plain) in [
        ("9i9h9g", "9i9g"),
        ("9i9h8h", "9i8h"),
        ("9i10j11k", "9i11k"),
    ] {
        let m = p
            .parse_move(double)
            .unwrap_or_else(|e| panic!("{double}: {e}"));
        assert_eq!(m, p.parse_move(plain).unwrap(), "{double}");
        assert_eq!(p.move_to_usi(m), plain);
    }
    // Also onto an enemy: the capture is the jump's.
    let q = pos(&dsfen(&with_kings(&[("9i", "LN"), ("9g", "pa")]), "b"));
    assert_eq!(
        q.parse_move("9i9h9g+").unwrap(),
        q.parse_move("9i9g+").unwrap()
    );
    assert_eq!(mid_moves(&q, "9i"), set(&["9i10h9i"]));
}

#[test]
fn pinned_lion_may_igui_and_pass_but_not_leave_the_line() {
    // Black king 9q, lion 9o, White rook 9k pins it; a White pawn on 10n.
    let p = pos(&dsfen(
        &[
            ("9q", "KG"),
            ("9o", "LN"),
            ("9k", "ro"),
            ("10n", "pa"),
            ("2a", "kg"),
        ],
        "b",
    ));
    assert!(!p.in_check());
    assert_legal(&p, "9o10n9o+");
    assert_legal(&p, "9o10n9n+");
    assert_legal(&p, "9o9m");
    assert_legal(&p, "9o9n");
    assert_legal(&p, "9o9n9o");
    assert_refused(&p, "9o10n10m+");
    assert_refused(&p, "9o10n11m+");
    assert_illegal(&p, "9o10o", IllegalMove::IgnoresCheck);
    assert_illegal(&p, "9o10n+", IllegalMove::IgnoresCheck);
    assert_illegal(&p, "9o11m", IllegalMove::IgnoresCheck);
}

#[test]
fn furious_fiend_moves_as_lion_or_slides_three_but_not_both() {
    let p = pos(&dsfen(&with_kings(&[("9i", "+LN")]), "b"));
    let d = dests(&p, "9i");
    for sq in ["9f", "6i", "12i", "9l", "12f", "6f", "6l", "12l"] {
        assert!(d.contains(sq), "three-square slide to {sq}");
    }
    // Not combined: nothing beyond the lion's 24 squares and the 8 slides.
    assert_eq!(d.len(), 24 + 8);
    for sq in ["9e", "10f", "11f", "12g", "8f"] {
        assert!(!d.contains(sq), "{sq}");
    }
    // The slide does not jump; the lion's jump does.
    let near = pos(&dsfen(&with_kings(&[("9i", "+LN"), ("9h", "AB")]), "b"));
    assert!(!dests(&near, "9i").contains("9f"));
    assert!(dests(&near, "9i").contains("9g"));
    let far = pos(&dsfen(&with_kings(&[("9i", "+LN"), ("9g", "AB")]), "b"));
    assert!(!dests(&far, "9i").contains("9f"));
    assert!(dests(&far, "9i").contains("9h"));
    // It captures at three without promoting again; it has lion double moves
    // and a pass.
    let cap = pos(&dsfen(
        &with_kings(&[("9i", "+LN"), ("9f", "pa"), ("8h", "pa")]),
        "b",
    ));
    assert_legal(&cap, "9i9f");
    assert_illegal(&cap, "9i9f+", IllegalMove::CannotPromote);
    assert_legal(&cap, "9i8h7g");
    assert_legal(&cap, "9i8h9i");
    assert_legal(&cap, "9i10h9i");
}

// ---------------------------------------------------------------------------
// Hook movers (section 4).
// ---------------------------------------------------------------------------

#[test]
fn hook_mover_turns_once() {
    // Own pieces on 9h and 10i: the way up and to the left are shut.
    let pieces = with_shielded_kings(&[("9i", "HM"), ("9h", "AB"), ("10i", "AB")]);
    let p = pos(&dsfen(&pieces, "b"));
    let d = dests(&p, "9i");
    assert_eq!(
        d,
        model(
            &words("HM", ""),
            Color::Black,
            coords("9i"),
            &board_of(&pieces)
        )
    );
    // One turn: right then up, down then left.
    assert!(d.contains("8h") && d.contains("3a") && d.contains("10j") && d.contains("17p"));
    // 10h needs two turns (down, left, up) and 9g is behind the own piece.
    assert!(!d.contains("10h") && !d.contains("9g") && !d.contains("11h"));
    // On an open board it reaches every square but its own, its king's and
    // the shielded enemy king's (the shields it may take).
    let open = pos(&dsfen(
        &[
            ("9i", "HM"),
            ("16q", "KG"),
            ("1a", "kg"),
            ("1b", "pa"),
            ("2a", "pa"),
            ("2b", "pa"),
        ],
        "b",
    ));
    assert_eq!(dests(&open, "9i").len(), 289 - 3);
}

#[test]
fn hook_mover_stops_on_capture() {
    // Own pieces on 8i, 10i, 9j: only the way up, to an enemy on 9e.
    let p = pos(&dsfen(
        &with_kings(&[
            ("9i", "HM"),
            ("8i", "AB"),
            ("10i", "AB"),
            ("9j", "AB"),
            ("9e", "pa"),
        ]),
        "b",
    ));
    let mut want = set(&["9h", "9g", "9f", "9e"]);
    for rank in ["h", "g", "f"] {
        for file in (1..=17).filter(|&f| f != 9) {
            want.insert(format!("{file}{rank}"));
        }
    }
    assert_eq!(dests(&p, "9i"), want);
    // No promotion: the hook mover is not a promoting type.
    assert_legal(&p, "9i9e");
    // Nothing after the capture.
    for sq in ["10e", "8e", "9d"] {
        assert!(!dests(&p, "9i").contains(sq));
    }
}

#[test]
fn hook_mover_turns_only_on_empty_squares() {
    let p = pos(&dsfen(
        &with_kings(&[
            ("9i", "HM"),
            ("8i", "AB"),
            ("10i", "AB"),
            ("9j", "AB"),
            ("9h", "pa"),
        ]),
        "b",
    ));
    assert_eq!(moves_from(&p, "9i"), set(&["9i9h"]));
}

#[test]
fn long_nosed_goblin_hooks_diagonally_and_steps_orthogonally() {
    let pieces = with_kings(&[("9i", "LO")]);
    let p = pos(&dsfen(&pieces, "b"));
    let d = dests(&p, "9i");
    assert_eq!(
        d,
        model(
            &words("LO", ""),
            Color::Black,
            coords("9i"),
            &board_of(&pieces)
        )
    );
    // Every square of its colour, plus the four orthogonal steps.
    let same_colour = (1..=17)
        .flat_map(|f| (0..17).map(move |r| (f, r)))
        .filter(|&(f, r)| (f + r) % 2 == (9 + 8) % 2 && (f, r) != (9, 8))
        .count();
    assert_eq!(d.len(), same_colour + 4);
    assert!(d.contains("9g") && d.contains("9h") && !d.contains("9f"));
    // With both forward diagonals shut, 9g needs two turns.
    let shut = with_kings(&[("9i", "LO"), ("10h", "AB"), ("8h", "AB")]);
    let q = pos(&dsfen(&shut, "b"));
    let d = dests(&q, "9i");
    assert_eq!(
        d,
        model(
            &words("LO", ""),
            Color::Black,
            coords("9i"),
            &board_of(&shut)
        )
    );
    assert!(!d.contains("9g") && !d.contains("11g") && d.contains("9h"));
}

// ---------------------------------------------------------------------------
// Promotion (section 7).
// ---------------------------------------------------------------------------

#[test]
fn promotion_by_capture_is_compulsory() {
    let p = pos(&dsfen(&with_kings(&[("9i", "CS"), ("8h", "pa")]), "b"));
    assert_eq!(
        moves_from(&p, "9i"),
        set(&["9i8h+", "9i10h", "9i8j", "9i10j"])
    );
    assert_illegal(&p, "9i8h", IllegalMove::MustPromote);
    assert_illegal(&p, "9i10h+", IllegalMove::CannotPromote);
    // The cat sword became a dragon horse.
    let after = p.after(p.parse_move("9i8h+").unwrap());
    assert_eq!(token_at(&after, "8h"), Some("+CS".into()));
    // White's cat sword, too.
    let w = pos(&dsfen(&with_kings(&[("9i", "cs"), ("10j", "PA")]), "w"));
    assert_eq!(
        moves_from(&w, "9i"),
        set(&["9i10j+", "9i10h", "9i8h", "9i8j"])
    );
    // A non-promoting type captures without '+'.
    let g = pos(&dsfen(&with_kings(&[("9i", "GG"), ("9h", "pa")]), "b"));
    assert_legal(&g, "9i9h");
    assert_illegal(&g, "9i9h+", IllegalMove::CannotPromote);
    // Every legal move of the start position is non-capturing: no '+'.
    let s = pos("startpos");
    assert!(legal(&s).iter().all(|m| !m.ends_with('+')));
}

#[test]
fn promotion_happens_once_only() {
    // A promoted eastern barbarian moves as a lion and never becomes a furious fiend.
    let p = pos(&dsfen(
        &with_kings(&[("9i", "+EA"), ("9h", "pa"), ("8g", "pa")]),
        "b",
    ));
    assert_eq!(dests(&p, "9i"), within_two("9i"));
    for text in ["9i9h", "9i8g", "9i9h8g", "9i9h9i", "9i10h9i"] {
        assert_legal(&p, text);
    }
    assert!(legal(&p).iter().all(|m| !m.ends_with('+')));
    assert_illegal(&p, "9i9h+", IllegalMove::CannotPromote);
    let after = p.after(p.parse_move("9i9h8g").unwrap());
    assert_eq!(token_at(&after, "8g"), Some("+EA".into()));
    // A western barbarian promoted to lion dog stays one after capturing.
    let q = pos(&dsfen(&with_kings(&[("9i", "+WR"), ("9g", "pa")]), "b"));
    assert_legal(&q, "9i9g");
    let after = q.after(q.parse_move("9i9g").unwrap());
    assert_eq!(token_at(&after, "9g"), Some("+WR".into()));
    // A lion becomes a furious fiend, which then captures without '+'.
    let l = pos(&dsfen(
        &with_kings(&[("9i", "LN"), ("9h", "pa"), ("9f", "pa")]),
        "b",
    ));
    let once = l.after(l.parse_move("9i9h+").unwrap());
    assert_eq!(token_at(&once, "9h"), Some("+LN".into()));
}

#[test]
fn trapped_pieces_on_the_last_rank_stay_without_promoting() {
    let p = pos(&dsfen(
        &[
            ("5a", "PA"),
            ("7a", "IG"),
            ("11a", "SN"),
            ("13a", "LA"),
            ("15a", "WG"),
            ("3b", "PA"),
            ("16q", "KG"),
            ("1e", "kg"),
        ],
        "b",
    ));
    for sq in ["5a", "7a", "11a", "13a", "15a"] {
        assert!(moves_from(&p, sq).is_empty(), "{sq}");
    }
    assert_illegal(&p, "5a5b", IllegalMove::CannotMoveThere);
    // A pawn may move to the last rank, and does not promote.
    assert_eq!(moves_from(&p, "3b"), set(&["3b3a"]));
    assert_illegal(&p, "3b3a+", IllegalMove::CannotPromote);
    let w = pos(&dsfen(
        &[("5q", "pa"), ("7p", "pa"), ("16a", "KG"), ("1e", "kg")],
        "w",
    ));
    assert!(moves_from(&w, "5q").is_empty());
    assert_eq!(moves_from(&w, "7p"), set(&["7p7q"]));
}

// ---------------------------------------------------------------------------
// Check and the end of the game (section 8).
// ---------------------------------------------------------------------------

#[test]
fn the_king_is_the_only_royal_piece() {
    // The White rook attacks the Black neighboring king on 9i.
    let sfen = dsfen(&with_kings(&[("9i", "NK"), ("9a", "ro")]), "b");
    let p = pos(&sfen);
    assert!(!p.in_check());
    // It may be left attacked, and may step along the rook's file.
    assert_legal(&p, "16q16p");
    assert_legal(&p, "9i9h");
    let w = pos(&sfen.replace(" b ", " w "));
    assert_legal(&w, "9a9i");
    // Without a king the position is refused, whatever else stands there.
    let problems = Position::from_sfen(
        rules(),
        &dsfen(&[("9i", "NK"), ("9h", "+EA"), ("2a", "kg")], "b"),
        SfenMode::Strict,
    )
    .unwrap_err()
    .problems;
    assert_eq!(problems, vec![SfenProblem::MissingKing(Color::Black)]);
    // Two neighboring kings are fine; two kings are not.
    pos(&dsfen(&with_kings(&[("9i", "NK"), ("5i", "NK")]), "b"));
    assert!(Position::from_sfen(
        rules(),
        &dsfen(&with_kings(&[("9i", "KG")]), "b"),
        SfenMode::Strict
    )
    .is_err());
}

#[test]
fn checks_by_limited_sliders_jumps_lions_and_hooks() {
    let check = |pieces: &[(&str, &str)]| {
        let mut v = pieces.to_vec();
        v.push(("9q", "KG"));
        v.push(("2a", "kg"));
        pos(&dsfen(&v, "b")).in_check()
    };
    assert!(check(&[("9o", "vo")]), "violent ox two away");
    assert!(!check(&[("9n", "vo")]), "three away is out of range");
    assert!(!check(&[("9o", "vo"), ("9p", "PA")]), "blocked");
    assert!(check(&[("9o", "kr"), ("9p", "PA")]), "the kirin jumps");
    assert!(check(&[("11o", "ln"), ("10p", "PA")]), "the lion jumps");
    assert!(check(&[("6n", "+ln")]), "the furious fiend slides three");
    assert!(
        !check(&[("6n", "+ln"), ("7o", "PA")]),
        "but not over a piece"
    );
    // A hook mover around a corner: 3i down to 3q, then along rank q.
    assert!(check(&[("3i", "hm")]));
    assert!(
        check(&[("3i", "hm"), ("5q", "PA")]),
        "still via 9i and file 9"
    );
    assert!(!check(&[("3i", "hm"), ("5q", "PA"), ("9m", "PA")]));
    // The king may not step onto a hook mover's paths (here: every square
    // next to it), and the pawns may not open them.
    let p = pos(&dsfen(
        &[
            ("3i", "hm"),
            ("5q", "PA"),
            ("9m", "PA"),
            ("9q", "KG"),
            ("2a", "kg"),
        ],
        "b",
    ));
    for to in ["9p", "8p", "10p", "8q", "10q"] {
        assert_illegal(&p, &format!("9q{to}"), IllegalMove::IgnoresCheck);
    }
    assert_illegal(&p, "5q5p", IllegalMove::IgnoresCheck);
    assert_legal(&p, "9m9l");
    // A piece on the hook mover's first leg, off every line of the king,
    // shuts the path 3i-9i-9q: it may move along that leg but not off it.
    let q = pos(&dsfen(
        &[
            ("3i", "hm"),
            ("5q", "PA"),
            ("6i", "GG"),
            ("9q", "KG"),
            ("2a", "kg"),
        ],
        "b",
    ));
    assert!(!q.in_check());
    assert_illegal(&q, "6i6h", IllegalMove::IgnoresCheck);
    assert_illegal(&q, "6i6j", IllegalMove::IgnoresCheck);
    assert_legal(&q, "6i7i");
    assert_legal(&q, "6i5i");
}

#[test]
fn checkmate_wins() {
    // White king 1a; the Black rook on 16b holds rank b; the queen goes to 17a.
    let sfen = dsfen(
        &[("16b", "RO"), ("17c", "FK"), ("9q", "KG"), ("1a", "kg")],
        "b",
    );
    let mut g = Game::new(pos(&sfen), GameOptions::default());
    g.play_usi("17c17a").expect("17c17a");
    assert!(g.position().in_check());
    assert!(g.position().legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Checkmate
        })
    );
    // Without the rook the king escapes to rank b.
    let mut e = Game::new(
        pos(&dsfen(&[("17c", "FK"), ("9q", "KG"), ("1a", "kg")], "b")),
        GameOptions::default(),
    );
    e.play_usi("17c17a").unwrap();
    assert_eq!(e.outcome(), None);
}

#[test]
fn perpetual_check_loses() {
    // The rook checks from 3a and 3b in turn; the king shuttles 1a <-> 1b.
    let sfen = dsfen(&[("3c", "RO"), ("9q", "KG"), ("1a", "kg")], "b");
    let mut g = Game::new(pos(&sfen), GameOptions::default());
    let mut moves = vec!["3c3a"];
    for _ in 0..3 {
        moves.extend(["1a1b", "3a3b", "1b1a", "3b3a"]);
    }
    for (i, m) in moves.iter().enumerate() {
        let ply = i + 1;
        g.play_usi(m)
            .unwrap_or_else(|e| panic!("ply {ply} {m}: {e}"));
        assert_eq!(g.position().in_check(), ply % 2 == 1, "ply {ply} {m}");
        if ply < 13 {
            assert_eq!(g.outcome(), None, "over after ply {ply}");
        }
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::PerpetualCheck
        })
    );
    // The same shuttle without checks is a draw.
    let mut d = Game::new(pos(&sfen), GameOptions::default());
    let mut quiet = vec!["3c4c"];
    for _ in 0..3 {
        quiet.extend(["1a1b", "4c3c", "1b1a", "3c4c"]);
    }
    // The start position comes back after plies 4, 8 and 12.
    for (i, m) in quiet.iter().enumerate() {
        d.play_usi(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert!(!d.position().in_check());
        if i + 1 == 12 {
            break;
        }
        assert_eq!(d.outcome(), None, "over after ply {}", i + 1);
    }
    assert_eq!(
        d.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
}

// ---------------------------------------------------------------------------
// Rule options (sections 9 and 10).
// ---------------------------------------------------------------------------

/// Each affected token moves as the words say under `options` and differently
/// from the default; each unaffected token moves exactly as by default.
fn check_option(options: &str, affected: &[&str], unaffected: &[&str]) {
    for token in affected {
        check_piece_with(options, token);
        let differs = Color::ALL
            .iter()
            .any(|&c| engine_and_words(options, token, c).0 != engine_and_words("", token, c).0);
        assert!(differs, "{token} should move differently under {options}");
    }
    for token in unaffected {
        for c in Color::ALL {
            assert_eq!(
                engine_and_words(options, token, c).0,
                engine_and_words("", token, c).0,
                "{token} for {} under {options}",
                c.name()
            );
        }
    }
}

#[test]
fn option_great_elephant_none() {
    let o = "great-elephant=none";
    // The lion dog moves the same but does not promote.
    check_option(o, &[], &["LD", "+WR", "CS"]);
    let sfen = dsfen(&with_kings(&[("9i", "LD"), ("9g", "pa")]), "b");
    let p = pos_in(rules_with(o), &sfen);
    assert_legal(&p, "9i9g");
    assert_illegal(&p, "9i9g+", IllegalMove::CannotPromote);
    assert_legal(&pos(&sfen), "9i9g+");
    check_piece_with(o, "LD");
    // A great elephant cannot even be written.
    let ge = dsfen(&with_kings(&[("9i", "+LD")]), "b");
    assert!(Position::from_sfen(rules_with(o), &ge, SfenMode::Strict).is_err());
    pos(&ge);
}

#[test]
fn option_great_elephant_ja() {
    check_option(
        "great-elephant=ja",
        &["+LD"],
        &["LD", "+WR", "GB", "NK", "+LN"],
    );
}

#[test]
fn option_eastern_barbarian_sz() {
    check_option("eastern-barbarian=sz", &["EA"], &["+EA", "WR", "NO", "SO"]);
    let p = pos_in(
        rules_with("eastern-barbarian=sz"),
        &dsfen(&with_kings(&[("9i", "EA")]), "b"),
    );
    assert_eq!(dests(&p, "9i"), set(&["9h", "9g", "9j", "9k", "8i"]));
}

#[test]
fn option_eastern_barbarian_sz_diagram() {
    check_option(
        "eastern-barbarian=sz-diagram",
        &["EA"],
        &["+EA", "WR", "NO", "SO"],
    );
    let p = pos_in(
        rules_with("eastern-barbarian=sz-diagram"),
        &dsfen(&with_kings(&[("9i", "EA")]), "b"),
    );
    assert_eq!(dests(&p, "9i"), set(&["9h", "9g", "9j", "9k", "10i"]));
}

#[test]
fn option_free_pieces_forward_diagonals() {
    check_option(
        "free-pieces=forward-diagonals",
        &["FT", "FR", "+WB", "+RB"],
        &["WB", "RB", "FK", "DH", "BI"],
    );
}

#[test]
fn option_neighboring_king_k() {
    check_option("neighboring-king=k", &["NK"], &["+NK", "KG", "GG", "RG"]);
    let p = pos_in(
        rules_with("neighboring-king=k"),
        &dsfen(&with_kings(&[("9i", "NK")]), "b"),
    );
    assert!(dests(&p, "9i").contains("9j"));
    assert!(!dests(&pos(&dsfen(&with_kings(&[("9i", "NK")]), "b")), "9i").contains("9j"));
}

#[test]
fn option_wizard_stork_sz() {
    check_option("wizard-stork=sz", &["+OR"], &["OR", "EF", "+EF", "+BM"]);
}

#[test]
fn option_wizard_stork_srz() {
    check_option("wizard-stork=srz", &["+OR"], &["OR", "EF", "+EF", "+BM"]);
}

#[test]
fn option_great_dragon_tai() {
    check_option("great-dragon=tai", &["GD", "+KR"], &["KR", "GB", "+PH"]);
    // The sideways jumps go over pieces.
    let p = pos_in(
        rules_with("great-dragon=tai"),
        &dsfen(
            &with_kings(&[("9i", "GD"), ("10i", "AB"), ("8i", "ab")]),
            "b",
        ),
    );
    let d = dests(&p, "9i");
    assert!(d.contains("11i") && d.contains("12i") && d.contains("7i") && d.contains("6i"));
    assert!(
        !d.contains("10h") && !d.contains("8h"),
        "no forward diagonals"
    );
}

#[test]
fn option_chariots_sz() {
    check_option(
        "chariots=sz",
        &["RC", "LC"],
        &["BD", "WT", "RG", "LG", "HD"],
    );
}

#[test]
fn options_combine_and_defaults_name_the_same_rules() {
    let default = rules();
    for same in [
        "tsa",
        "default",
        "lion-dog=q3",
        "furious-fiend=lion-or-q3",
        "perpetual-chase=off",
        "king-capture=off",
        "great-elephant=tsa",
        "chariots=tsa",
        " chariots = tsa ",
    ] {
        assert!(std::ptr::eq(rules_with(same), default), "{same}");
    }
    assert!(std::ptr::eq(
        rules_with("chariots=sz,neighboring-king=k"),
        rules_with("neighboring-king=k, chariots=sz")
    ));
    assert!(std::ptr::eq(
        rules_with("Chariots=SZ"),
        rules_with("chariots=sz")
    ));
    // Two options at once: both apply.
    let both = "chariots=sz,neighboring-king=k";
    check_piece_with(both, "NK");
    check_piece_with(both, "RC");
}

#[test]
fn unknown_and_unimplemented_options_are_errors() {
    // (`lion-dog=ja`, `ja`, `hachu` and `furious-fiend=lion+liondog` are accepted.)
    let err = |o: &str| {
        rules_17x17_with(VariantName::DaiDaiShogi, o)
            .map(|_| ())
            .expect_err(o)
            .to_string()
    };
    // The Japanese lion dog and the presets built on it are implemented.
    for ok in ["lion-dog=ja", "ja", "hachu", "furious-fiend=lion+liondog"] {
        assert!(
            rules_17x17_with(VariantName::DaiDaiShogi, ok).is_ok(),
            "{ok}"
        );
    }
    let e = err("lion-dog=maybe");
    assert!(e.contains("lion-dog"), "{e}");
    for ok in ["perpetual-chase=loss", "king-capture=on"] {
        assert!(
            rules_17x17_with(VariantName::DaiDaiShogi, ok).is_ok(),
            "{ok}"
        );
    }
    let e = err("king-capture=maybe");
    assert!(e.contains("king-capture"), "{e}");
    let e = err("drops=on");
    assert!(e.contains("no rule option 'drops'"), "{e}");
    let e = err("chariots=xyz");
    assert!(e.contains("chariots") && e.contains("xyz"), "{e}");
    let e = err("great-elephant=maybe");
    assert!(e.contains("great-elephant"), "{e}");
    let e = err("shogi");
    assert!(e.contains("shogi"), "{e}");
    let e = err("chariots=");
    assert!(e.contains("key and a value"), "{e}");
    // Dai dai is not a 9x9 game.
    assert!(banmen_rules::rules_9x9_with(VariantName::DaiDaiShogi, "").is_err());
}

// ---------------------------------------------------------------------------
// The start position (sections 2 and 3).
// ---------------------------------------------------------------------------

const START: &str = "lahmdvrosqdkftrgkglgfkfrdhrasdlola/rvpoldbmfdrbkrggnkggphcspsorlnokrv/1bi1eb1fh1sggdsg1wb1ef1vm1/wtwesoeawgsnigcggbcgigsnwgwrnofebd/rcsmvoabewvbflstsbstflvbewabvosmlc/papapapapapapapapapapapapapapapapa/5hd5hd5/17/17/17/5HD5HD5/PAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPAPA/LCSMVOABEWVBFLSTSBSTFLVBEWABVOSMRC/BDFENOWRWGSNIGCGGBCGIGSNWGEASOWEWT/1VM1EF1WB1SGGDSG1FH1EB1BI1/RVOKLNORPSCSPHGGNKGGKRRBFDBMLDPORV/LALOSDRADHFRFKLGKGRGFTDKSQRODVHMLA b - 1";

/// Section 3's tables, rank by rank, files 17 to 1 ('.' = empty).
const BLACK_TABLE: [(char, &str); 7] = [
    ('q', "LA LO SD RA DH FR FK LG KG RG FT DK SQ RO DV HM LA"),
    ('p', "RV OK LN OR PS CS PH GG NK GG KR RB FD BM LD PO RV"),
    ('o', ". VM . EF . WB . SG GD SG . FH . EB . BI ."),
    ('n', "BD FE NO WR WG SN IG CG GB CG IG SN WG EA SO WE WT"),
    ('m', "LC SM VO AB EW VB FL ST SB ST FL VB EW AB VO SM RC"),
    ('l', "PA PA PA PA PA PA PA PA PA PA PA PA PA PA PA PA PA"),
    ('k', ". . . . . HD . . . . . HD . . . . ."),
];

const WHITE_TABLE: [(char, &str); 7] = [
    ('a', "la hm dv ro sq dk ft rg kg lg fk fr dh ra sd lo la"),
    ('b', "rv po ld bm fd rb kr gg nk gg ph cs ps or ln ok rv"),
    ('c', ". bi . eb . fh . sg gd sg . wb . ef . vm ."),
    ('d', "wt we so ea wg sn ig cg gb cg ig sn wg wr no fe bd"),
    ('e', "rc sm vo ab ew vb fl st sb st fl vb ew ab vo sm lc"),
    ('f', "pa pa pa pa pa pa pa pa pa pa pa pa pa pa pa pa pa"),
    ('g', ". . . . . hd . . . . . hd . . . . ."),
];

#[test]
fn start_position_round_trips_with_96_pieces_of_64_types_per_side() {
    let p = pos("startpos");
    assert_eq!(p.to_sfen(), START);
    assert_eq!(pos(START).to_sfen(), START);
    assert_eq!(p.side_to_move(), Color::Black);
    for c in Color::ALL {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for sq in rules().geometry.all() {
            if let Some(pc) = p.piece_at(sq) {
                if pc.color == c {
                    *counts.entry(p.token(pc).to_ascii_uppercase()).or_default() += 1;
                }
            }
        }
        assert_eq!(counts.values().sum::<usize>(), 96, "{}", c.name());
        assert_eq!(counts.len(), 64, "{}", c.name());
        let codes: BTreeSet<&str> = CODES.into_iter().collect();
        assert_eq!(
            counts.keys().map(String::as_str).collect::<BTreeSet<_>>(),
            codes
        );
        // Pieces with two copies, the pawns, and all others once.
        let twice = [
            "AB", "CG", "EW", "FL", "GG", "HD", "IG", "LA", "RV", "SG", "SM", "SN", "ST", "VB",
            "VO", "WG",
        ];
        for (code, n) in &counts {
            let want = if code == "PA" {
                17
            } else if twice.contains(&code.as_str()) {
                2
            } else {
                1
            };
            assert_eq!(*n, want, "{code} for {}", c.name());
        }
    }
    // Nothing is promoted at the start, no one is in check, and Black has moves.
    assert!(!START.contains('+'));
    assert!(!p.in_check());
    assert!(!p.legal_moves().is_empty());
}

#[test]
fn start_position_matches_the_square_by_square_tables() {
    let p = pos("startpos");
    let mut seen = 0;
    for (rank, row) in BLACK_TABLE.iter().chain(WHITE_TABLE.iter()) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells.len(), 17, "rank {rank}");
        for (i, cell) in cells.iter().enumerate() {
            let sq = format!("{}{rank}", 17 - i);
            let want = (*cell != ".").then(|| cell.to_string());
            assert_eq!(token_at(&p, &sq), want, "{sq}");
            seen += usize::from(want.is_some());
        }
    }
    assert_eq!(seen, 192);
    // Ranks h..j are empty.
    for rank in ['h', 'i', 'j'] {
        for file in 1..=17 {
            assert_eq!(token_at(&p, &format!("{file}{rank}")), None);
        }
    }
}

#[test]
fn start_position_consistency_checks() {
    let p = pos("startpos");
    let find = |token: &str| -> Vec<(i32, i32)> {
        rules()
            .geometry
            .all()
            .filter(|&sq| p.piece_at(sq).is_some_and(|pc| p.token(pc) == token))
            .map(|sq| coords(&rules().geometry.name(sq).to_string()))
            .collect()
    };
    // Owner's left: Black toward file 17 (file > 9), White toward file 1 (file < 9).
    for left in ["LG", "LC", "BD"] {
        assert!(find(left).iter().all(|&(f, _)| f > 9), "Black {left}");
        assert!(
            find(&left.to_ascii_lowercase()).iter().all(|&(f, _)| f < 9),
            "White {left}"
        );
    }
    for right in ["RG", "RC", "WT"] {
        assert!(find(right).iter().all(|&(f, _)| f < 9), "Black {right}");
        assert!(
            find(&right.to_ascii_lowercase())
                .iter()
                .all(|&(f, _)| f > 9),
            "White {right}"
        );
    }
    assert_eq!(find("KG"), vec![(9, 16)]);
    assert_eq!(find("kg"), vec![(9, 0)]);
    // The example of section 3: Black's lion on 15p, White's on 3b.
    assert_eq!(find("LN"), vec![coords("15p")]);
    assert_eq!(find("ln"), vec![coords("3b")]);
    // White's array is Black's turned 180 degrees (not mirrored).
    for sq in rules().geometry.all() {
        let (f, r) = coords(&rules().geometry.name(sq).to_string());
        let turned = square(&name(18 - f, 16 - r));
        match (p.piece_at(sq), p.piece_at(turned)) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                assert_eq!(a.kind, b.kind, "{}", name(f, r));
                assert_ne!(a.color, b.color, "{}", name(f, r));
            }
            _ => panic!("{} and its turn differ", name(f, r)),
        }
    }
    // The edge chariots' forward diagonal points off the board at once (9.K).
    let lc = moves_from(&p, "17m");
    assert!(lc.is_empty(), "Black's left chariot is boxed in: {lc:?}");
}

// ---------------------------------------------------------------------------
// Move text with a middle square (section 12).
// ---------------------------------------------------------------------------

#[test]
fn double_move_text_round_trips() {
    // Double captures, igui, capture-then-step and the pass, for a lion and a
    // furious fiend: every listed move reads back as itself.
    let p = pos(&dsfen(
        &with_kings(&[
            ("9i", "LN"),
            ("9h", "pa"),
            ("8g", "gg"),
            ("5e", "+LN"),
            ("5d", "sg"),
            ("6f", "AB"),
        ]),
        "b",
    ));
    let mut mids = 0;
    for m in p.legal_moves() {
        let text = p.move_to_usi(m);
        assert_eq!(p.parse_move(&text), Ok(m), "{text}");
        mids += usize::from(m.mid().is_some());
    }
    // Each lion has one adjacent enemy with 8 second steps, and one pass.
    assert_eq!(mids, 2 * (8 + 1));
    assert_legal(&p, "9i9h8g+");
    assert_legal(&p, "5e5d5c");
    assert_legal(&p, "5e5d5e");
}

#[test]
fn pass_text_needs_an_empty_neighbour() {
    let p = pos(&dsfen(&with_kings(&[("9i", "LN")]), "b"));
    for text in ["9i9g9i", "9i11g9i", "9i5e9i"] {
        assert_illegal(&p, text, IllegalMove::BadDoubleMove);
    }
}

#[test]
fn double_move_text_needs_a_lion_step_through_a_neighbour() {
    let r = pos(&dsfen(&with_kings(&[("9i", "RO")]), "b"));
    assert_illegal(&r, "9i9h9g", IllegalMove::BadDoubleMove);
    assert_illegal(&r, "9i9f9g", IllegalMove::BadDoubleMove);
    let l = pos(&dsfen(&with_kings(&[("9i", "LN")]), "b"));
    assert_illegal(&l, "9i9f9g", IllegalMove::BadDoubleMove);
    assert_illegal(&l, "9i8g9g", IllegalMove::BadDoubleMove);
    // Through a neighbour that is next to the destination it is the plain move.
    assert_eq!(l.parse_move("9i9h9g"), l.parse_move("9i9g"));
}

#[test]
fn double_move_that_leaves_the_king_in_check_is_refused_as_ignoring_check() {
    // The lion on 9o is pinned by the rook on 9k.
    let pinned = pos(&dsfen(
        &[
            ("9q", "KG"),
            ("9o", "LN"),
            ("9k", "ro"),
            ("10n", "pa"),
            ("2a", "kg"),
        ],
        "b",
    ));
    assert_illegal(&pinned, "9o10n10m+", IllegalMove::IgnoresCheck);
    // The king on 16q is in check: no pass.
    let check = pos(&dsfen(
        &[("9i", "LN"), ("16a", "ro"), ("16q", "KG"), ("2a", "kg")],
        "b",
    ));
    assert_illegal(&check, "9i10h9i", IllegalMove::IgnoresCheck);
}

// ---------------------------------------------------------------------------
// The Japanese lion dog (section 6.4, `lion-dog=ja`) and the presets.
// ---------------------------------------------------------------------------

/// A black lion dog on 9i with, along the line toward rank a, an enemy on 9h
/// (S1) and 9g (S2) and an empty 9f (S3); a friendly pawn on 8h.
fn lion_dog_ja_position(options: &str) -> Position<Bb320> {
    let sfen = dsfen(
        &with_shielded_kings(&[("9i", "LD"), ("9h", "pa"), ("9g", "pa"), ("8h", "PA")]),
        "b",
    );
    pos_in(rules_with(options), &sfen)
}

#[test]
fn japanese_lion_dog_captures_on_the_squares_it_passes() {
    let p = lion_dog_ja_position("lion-dog=ja");
    let m = moves_from(&p, "9i");
    for text in [
        "9i9h9i+",   // igui on S1
        "9i9h+",     // plain capture on S1
        "9i9g9h+",   // to S2 and back to S1: captures both
        "9i9h9g+",   // capture on S1, end on S2 (capturing it too)
        "9i9g+",     // jump over S1 onto S2
        "9i9f",      // jump over both to S3
        "9i9h9f+",   // S3, capturing S1 only
        "9i9g9f+",   // S3, capturing S2 only
        "9i9h9g9f+", // S3, capturing both
    ] {
        assert!(m.contains(text), "{text} missing from {m:?}");
    }
    // It jumps over its own pawn on 8h to 7g and 6f, but never ends on it.
    assert!(m.contains("9i7g") && m.contains("9i6f"), "{m:?}");
    assert!(!m.iter().any(|t| t.ends_with("8h")), "{m:?}");
    // Exactly one pass, written with the first empty neighbour in reading order.
    let passes: Vec<&String> = m
        .iter()
        .filter(|t| t.len() >= 6 && t.starts_with("9i") && t.ends_with("9i"))
        .filter(|t| !t.ends_with("9i+"))
        .collect();
    assert_eq!(passes.len(), 1, "{passes:?}");
    // Capturing both squares removes both pawns and promotes to the great elephant.
    let mut after = p.clone();
    let both = after
        .parse_move("9i9h9g9f+")
        .unwrap_or_else(|e| panic!("{e:?} {:?}", "9i9h9g9f+".parse::<banmen_rules::UsiMove>()));
    after.make_move(both);
    assert_eq!(token_at(&after, "9h"), None);
    assert_eq!(token_at(&after, "9g"), None);
    assert_eq!(token_at(&after, "9f").as_deref(), Some("+LD"));
    // Text round-trips.
    assert_eq!(p.move_to_usi(both), "9i9h9g9f+");
}

#[test]
fn default_lion_dog_is_a_plain_three_square_slider() {
    let p = lion_dog_ja_position("");
    let m = moves_from(&p, "9i");
    assert!(m.contains("9i9h+"));
    for text in ["9i9h9i+", "9i9g+", "9i9f", "9i9h9g9f+"] {
        assert!(!m.contains(text), "{text} should need lion-dog=ja: {m:?}");
    }
    // Blocked by its own pawn on 8h: nothing beyond it on that diagonal.
    assert!(!m.contains("9i7g"));
}

#[test]
fn presets_select_their_readings() {
    // ja: lion dog ja, neighboring king moves as a king, chariots as SZ.
    let ja = rules_with("ja");
    assert!(std::ptr::eq(ja, rules_with("lion-dog=ja,great-elephant=ja,furious-fiend=lion+liondog,eastern-barbarian=sz,free-pieces=forward-diagonals,neighboring-king=k,wizard-stork=sz,great-dragon=tai,chariots=sz")));
    let hachu = rules_with("hachu");
    assert!(std::ptr::eq(
        hachu,
        rules_with("lion-dog=ja,free-pieces=forward-diagonals,neighboring-king=k")
    ));
    assert!(!std::ptr::eq(ja, hachu));
    // The furious fiend under lion+liondog has both the lion's jump to a
    // knight square and the line move capturing two pieces.
    let sfen = dsfen(
        &with_shielded_kings(&[("9i", "+LN"), ("9h", "pa"), ("9g", "pa")]),
        "b",
    );
    let p = pos_in(rules_with("furious-fiend=lion+liondog"), &sfen);
    let m = moves_from(&p, "9i");
    assert!(m.contains("9i8g") && m.contains("9i9h9g9f"), "{m:?}");
    let q3 = pos_in(rules_with(""), &sfen);
    assert!(!moves_from(&q3, "9i").contains("9i9h9g9f"));
}

// ---------------------------------------------------------------------------
// The two game-end options of section 10: king-capture and perpetual-chase.
// ---------------------------------------------------------------------------

#[test]
fn king_capture_option_allows_ignoring_check_and_ends_on_the_capture() {
    let sfen = dsfen(
        &[("9q", "KG"), ("9a", "kg"), ("1q", "ro"), ("5m", "PA")],
        "b",
    );
    // Default: Black is in check and may not ignore it.
    let strict = pos_in(rules_with(""), &sfen);
    assert!(strict.in_check());
    assert_illegal(&strict, "5m5l", IllegalMove::IgnoresCheck);
    // king-capture=on: any move; taking the king ends the game.
    let loose = pos_in(rules_with("king-capture=on"), &sfen);
    let mut game = banmen_rules::Game::new(loose, banmen_rules::GameOptions::default());
    game.play_usi("5m5l").expect("ignoring check is allowed");
    assert_eq!(game.outcome(), None);
    game.play_usi("1q9q").expect("the rook takes the king");
    assert_eq!(
        game.outcome(),
        Some(banmen_rules::Outcome {
            winner: Some(Color::White),
            reason: banmen_rules::Reason::KingCaptured
        })
    );
    assert!(game.position().legal_moves().is_empty());
}

#[test]
fn perpetual_chase_option_makes_the_chaser_lose_the_repetition() {
    // Black's rook attacks White's angry boar with every move; the boar runs
    // between 1e and 1d and attacks nothing. No move gives check.
    let sfen = dsfen(
        &[("9q", "KG"), ("9a", "kg"), ("3d", "RO"), ("1e", "ab")],
        "b",
    );
    let cycle = ["3d3e", "1e1d", "3e3d", "1d1e"];
    let play = |options: &str| {
        let mut game = banmen_rules::Game::new(
            pos_in(rules_with(options), &sfen),
            banmen_rules::GameOptions::default(),
        );
        for (i, m) in cycle.iter().cycle().take(12).enumerate() {
            assert_eq!(game.outcome(), None, "over before ply {}", i + 1);
            game.play_usi(m).unwrap();
        }
        game.outcome()
    };
    assert_eq!(
        play(""),
        Some(banmen_rules::Outcome {
            winner: None,
            reason: banmen_rules::Reason::Repetition
        })
    );
    assert_eq!(
        play("perpetual-chase=loss"),
        Some(banmen_rules::Outcome {
            winner: Some(Color::White),
            reason: banmen_rules::Reason::PerpetualChase
        })
    );
}
