//! The special rules of cannon shogi (`rules/cannon-shogi.md`), one test per
//! rule, each on a small constructed position with the moves written in USI.
//! Expected move sets are worked out from the spec's words, not copied from
//! the engine.

mod common;
use banmen_rules::game::GameError;
use banmen_rules::{
    rules_9x9_with, Bb128, BitBoard, Color, Game, GameOptions, IllegalMove, MoveError, Outcome,
    Position, Reason, Rules, SfenMode, SfenProblem, Variant, VariantName,
};
use common::*;
use std::collections::{BTreeMap, BTreeSet};

fn rules() -> &'static Rules<Bb128> {
    rules_9x9_with(VariantName::CannonShogi, "").expect("cannon shogi")
}

fn leap_rules() -> &'static Rules<Bb128> {
    rules_9x9_with(VariantName::CannonShogi, "flying-cannon=leap").expect("flying-cannon=leap")
}

fn pos_in(r: &'static Rules<Bb128>, sfen: &str) -> Position<Bb128> {
    Position::from_sfen(r, sfen, SfenMode::Strict)
        .unwrap_or_else(|e| panic!("{sfen} should parse: {e}"))
}

fn pos(sfen: &str) -> Position<Bb128> {
    pos_in(rules(), sfen)
}

/// An SFEN from a list of (square, token) pairs: `[("5e", "A"), ("1a", "k")]`.
fn board(pieces: &[(&str, &str)], side: &str, hand: &str) -> String {
    format!("{} {side} {hand} 1", board_field(9, pieces))
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

/// The legal board moves starting on `from` (`"3c"`), in USI text.
fn moves_from(p: &Position<Bb128>, from: &str) -> BTreeSet<String> {
    legal(p)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m.contains('*'))
        .collect()
}

/// The squares the piece on `from` may go to, promotion or not.
fn dests(p: &Position<Bb128>, from: &str) -> BTreeSet<String> {
    moves_from(p, from)
        .into_iter()
        .map(|m| m[from.len()..].trim_end_matches('+').to_string())
        .collect()
}

fn game(sfen: &str) -> Game<Bb128> {
    Game::new(pos(sfen), GameOptions::default())
}

// ---------------------------------------------------------------------------
// Cannons.
// ---------------------------------------------------------------------------

#[test]
fn silver_cannon_needs_a_screen_to_move() {
    // Alone on 5e (kings off its lines): no move at all.
    let alone = pos(&board(&[("5e", "A"), ("8i", "K"), ("2a", "k")], "b", "-"));
    assert!(moves_from(&alone, "5e").is_empty());
    for text in ["5e5d", "5e4e", "5e6e", "5e5f", "5e5a"] {
        assert_illegal(&alone, text, IllegalMove::CannotMoveThere);
    }

    // Screens of both colours on every line but one.
    //   left:  7e white pawn (screen), 8e empty, 9e white gold (first piece beyond)
    //   right: 3e black pawn (screen), 2e empty, 1e black gold (own: no capture)
    //   down:  5g black pawn (screen), 5h, 5i empty
    //   up:    5c white pawn (screen), 5b white silver (first beyond), 5a empty
    let p = pos(&board(
        &[
            ("5e", "A"),
            ("7e", "p"),
            ("9e", "g"),
            ("3e", "P"),
            ("1e", "G"),
            ("5g", "P"),
            ("5c", "p"),
            ("5b", "s"),
            ("8i", "K"),
            ("2a", "k"),
        ],
        "b",
        "-",
    ));
    assert_eq!(dests(&p, "5e"), set(&["8e", "9e", "2e", "5h", "5i", "5b"]));
    // Hopping into the zone may promote.
    assert_legal(&p, "5e5b+");
    assert_legal(&p, "5e5b");
    // Before the screen, onto the screen, onto an own piece, past the first
    // piece beyond the screen: never.
    for text in ["5e6e", "5e4e", "5e5f", "5e5d", "5e7e", "5e5c"] {
        assert_illegal(&p, text, IllegalMove::CannotMoveThere);
    }
    for text in ["5e1e", "5e3e", "5e5g"] {
        assert_illegal(&p, text, IllegalMove::OwnPieceOnTarget);
    }
    assert_illegal(&p, "5e5a", IllegalMove::CannotMoveThere);
}

#[test]
fn iron_cannon_needs_a_screen_to_move() {
    let alone = pos(&board(&[("5e", "I"), ("8i", "K"), ("2a", "k")], "b", "-"));
    assert!(moves_from(&alone, "5e").is_empty());
    for text in ["5e4d", "5e6d", "5e4f", "5e6f", "5e3c"] {
        assert_illegal(&alone, text, IllegalMove::CannotMoveThere);
    }
    // Orthogonal neighbours never help: the iron cannon is diagonal only.
    let orth = pos(&board(
        &[
            ("5e", "I"),
            ("5d", "P"),
            ("4e", "p"),
            ("8i", "K"),
            ("2a", "k"),
        ],
        "b",
        "-",
    ));
    assert!(moves_from(&orth, "5e").is_empty());

    //   up-left:    6d empty, 7c black pawn (screen), 8b empty, 9a white lance
    //   up-right:   4d white pawn (screen), 3c, 2b, 1a empty
    //   down-left:  6f, 7g empty, 8h black silver (screen), 9i empty
    //   down-right: 4f, 3g empty, 2h white gold (screen), 1i black pawn (own)
    let p = pos(&board(
        &[
            ("5e", "I"),
            ("7c", "P"),
            ("9a", "l"),
            ("4d", "p"),
            ("8h", "S"),
            ("2h", "g"),
            ("1i", "P"),
            ("8i", "K"),
            ("2a", "k"),
        ],
        "b",
        "-",
    ));
    assert_eq!(dests(&p, "5e"), set(&["8b", "9a", "3c", "2b", "1a", "9i"]));
    for text in ["5e6d", "5e4f", "5e3g", "5e6f", "5e7g", "5e4d"] {
        assert_illegal(&p, text, IllegalMove::CannotMoveThere);
    }
    assert_illegal(&p, "5e1i", IllegalMove::OwnPieceOnTarget);
}

#[test]
fn gold_cannon_slides_but_captures_only_over_a_screen() {
    //   left:  6e, 7e empty, 8e white pawn (no direct capture), 9e empty
    //   right: 4e empty, 3e black pawn (screen), 2e empty, 1e white gold
    //   up:    5d..5a empty
    //   down:  5f black pawn (screen), 5g, 5h empty, 5i white silver
    let p = pos(&board(
        &[
            ("5e", "U"),
            ("8e", "p"),
            ("3e", "P"),
            ("1e", "g"),
            ("5f", "P"),
            ("5i", "s"),
            ("8i", "K"),
            ("2a", "k"),
        ],
        "b",
        "-",
    ));
    assert_eq!(
        dests(&p, "5e"),
        set(&["6e", "7e", "4e", "1e", "5d", "5c", "5b", "5a", "5i"])
    );
    // A slide never captures; a hop never ends on an empty square.
    assert_illegal(&p, "5e8e", IllegalMove::CannotMoveThere);
    for text in ["5e9e", "5e2e", "5e5g", "5e5h"] {
        assert_illegal(&p, text, IllegalMove::CannotMoveThere);
    }
    // An enemy piece next to the cannon with nothing behind it is safe.
    let adjacent = pos(&board(
        &[("5e", "U"), ("5d", "p"), ("8i", "K"), ("2a", "k")],
        "b",
        "-",
    ));
    assert_illegal(&adjacent, "5e5d", IllegalMove::CannotMoveThere);
    assert!(!dests(&adjacent, "5e").contains("5c"));
}

#[test]
fn copper_cannon_slides_diagonally_but_captures_only_over_a_screen() {
    //   up-left:    6d, 7c, 8b, 9a empty
    //   up-right:   4d white pawn (no direct capture); 3c, 2b, 1a empty
    //   down-left:  6f empty, 7g black pawn (screen), 8h empty, 9i white gold
    //   down-right: 4f, 3g, 2h, 1i empty
    let p = pos(&board(
        &[
            ("5e", "C"),
            ("4d", "p"),
            ("7g", "P"),
            ("9i", "g"),
            ("7i", "K"),
            ("2a", "k"),
        ],
        "b",
        "-",
    ));
    assert_eq!(
        dests(&p, "5e"),
        set(&["6d", "7c", "8b", "9a", "6f", "9i", "4f", "3g", "2h", "1i"])
    );
    for text in ["5e4d", "5e3c", "5e2b", "5e1a", "5e8h"] {
        assert_illegal(&p, text, IllegalMove::CannotMoveThere);
    }
    // Orthogonal lines are not the copper cannon's.
    assert!(!dests(&p, "5e").contains("5d"));
    assert!(!dests(&p, "5e").contains("4e"));
}

#[test]
fn cannons_promote_optionally_in_the_zone() {
    let p = pos(&board(
        &[("5d", "U"), ("9d", "C"), ("8i", "K"), ("2a", "k")],
        "b",
        "-",
    ));
    assert_legal(&p, "5d5c");
    assert_legal(&p, "5d5c+");
    assert_legal(&p, "9d8c+");
    assert_legal(&p, "9d8c");
    assert_illegal(&p, "5d5e+", IllegalMove::CannotPromote);
    let after = p.after(p.parse_move("5d5c+").unwrap());
    assert_eq!(
        after.to_sfen(),
        board(
            &[("5c", "+U"), ("9d", "C"), ("8i", "K"), ("2a", "k")],
            "w",
            "-"
        )
        .replace(" 1", " 2")
    );
    // A flying cannon does not promote again.
    let flying = pos(&board(&[("5d", "+U"), ("8i", "K"), ("2a", "k")], "b", "-"));
    assert_legal(&flying, "5d5c");
    assert_illegal(&flying, "5d5c+", IllegalMove::CannotPromote);
}

/// Flying gold/silver cannon on 5e: orthogonal lines empty; diagonal
/// neighbours 6d empty, 4d white pawn, 6f black pawn, 4f empty; 7g a white
/// gold behind the black pawn.
fn flying_orthogonal_position(token: &str) -> String {
    board(
        &[
            ("5e", token),
            ("4d", "p"),
            ("6f", "P"),
            ("7g", "g"),
            ("8i", "K"),
            ("2a", "k"),
        ],
        "b",
        "-",
    )
}

const ORTHOGONAL_FROM_5E: [&str; 16] = [
    "5d", "5c", "5b", "5a", "5f", "5g", "5h", "5i", "4e", "3e", "2e", "1e", "6e", "7e", "8e", "9e",
];

const DIAGONAL_FROM_5E: [&str; 16] = [
    "6d", "7c", "8b", "9a", "4d", "3c", "2b", "1a", "6f", "7g", "8h", "9i", "4f", "3g", "2h", "1i",
];

fn with(base: &[&str], extra: &[&str]) -> BTreeSet<String> {
    base.iter().chain(extra).map(|s| s.to_string()).collect()
}

#[test]
fn flying_gold_and_silver_cannons_step_diagonally_without_capturing() {
    for token in ["+U", "+A"] {
        let p = pos(&flying_orthogonal_position(token));
        // mR on the empty lines; mF to the empty diagonal neighbours; pB2 over
        // the occupied neighbours 4d (to empty 3c) and 6f (capturing on 7g).
        assert_eq!(
            dests(&p, "5e"),
            with(&ORTHOGONAL_FROM_5E, &["6d", "4f", "3c", "7g"]),
            "{token}"
        );
        // The one-square diagonal step never captures.
        assert_illegal(&p, "5e4d", IllegalMove::CannotMoveThere);
        // The two-square diagonal move needs an occupied adjacent square.
        assert_illegal(&p, "5e7c", IllegalMove::CannotMoveThere);
        assert_illegal(&p, "5e3g", IllegalMove::CannotMoveThere);
        assert_legal(&p, "5e3c");
        assert_legal(&p, "5e7g");
        // No longer diagonal moves.
        assert_illegal(&p, "5e2b", IllegalMove::CannotMoveThere);
        assert_illegal(&p, "5e8h", IllegalMove::CannotMoveThere);
    }
}

#[test]
fn flying_gold_and_silver_cannons_hop_and_slide_orthogonally() {
    // Slides without capturing, hops over one screen to move or capture.
    //   up: 5d empty, 5c black pawn (screen), 5b empty, 5a white lance
    //   left: 6e white pawn (no slide capture); 7e empty, 8e white gold
    for token in ["+U", "+A"] {
        let p = pos(&board(
            &[
                ("5e", token),
                ("5c", "P"),
                ("5a", "l"),
                ("6e", "p"),
                ("8e", "g"),
                ("8i", "K"),
                ("2a", "k"),
            ],
            "b",
            "-",
        ));
        let d = dests(&p, "5e");
        for sq in ["5d", "5b", "5a", "7e", "8e", "4e", "1e", "5f", "5i"] {
            assert!(d.contains(sq), "{token} to {sq}: {d:?}");
        }
        for sq in ["5c", "6e", "9e"] {
            assert!(!d.contains(sq), "{token} to {sq}: {d:?}");
        }
    }
}

#[test]
fn flying_copper_and_iron_cannons_step_orthogonally_without_capturing() {
    // +C/+I on 5e: diagonals empty; orthogonal neighbours 5d empty, 5f white
    // pawn, 4e black pawn, 6e empty; 3e a white silver behind the black pawn.
    for token in ["+C", "+I"] {
        let sfen = board(
            &[
                ("5e", token),
                ("5f", "p"),
                ("4e", "P"),
                ("3e", "s"),
                ("8i", "K"),
                ("2a", "k"),
            ],
            "b",
            "-",
        );
        let p = pos(&sfen);
        assert_eq!(
            dests(&p, "5e"),
            with(&DIAGONAL_FROM_5E, &["5d", "6e", "5g", "3e"]),
            "{token}"
        );
        assert_illegal(&p, "5e5f", IllegalMove::CannotMoveThere);
        assert_illegal(&p, "5e5c", IllegalMove::CannotMoveThere);
        assert_illegal(&p, "5e7e", IllegalMove::CannotMoveThere);
        assert_legal(&p, "5e5g");
        assert_legal(&p, "5e3e");

        // flying-cannon=leap: the step captures and the two-square leap
        // needs no piece in between.
        let q = pos_in(leap_rules(), &sfen);
        assert_eq!(
            dests(&q, "5e"),
            with(
                &DIAGONAL_FROM_5E,
                &["5d", "6e", "5f", "5c", "7e", "5g", "3e"]
            ),
            "{token} leap"
        );
    }
}

#[test]
fn flying_cannon_leap_option_steps_capture_and_leaps_ignore_the_middle() {
    for token in ["+U", "+A"] {
        let sfen = flying_orthogonal_position(token);
        let p = pos_in(leap_rules(), &sfen);
        // F: 6d, 4d (capture), 4f; A: 3c, 7c, 3g, 7g (capture) whatever is between.
        assert_eq!(
            dests(&p, "5e"),
            with(
                &ORTHOGONAL_FROM_5E,
                &["6d", "4d", "4f", "3c", "7c", "3g", "7g"]
            ),
            "{token}"
        );
        assert_legal(&p, "5e4d");
        assert_legal(&p, "5e7c");
        // The hop default refuses both.
        let d = pos(&sfen);
        assert_illegal(&d, "5e4d", IllegalMove::CannotMoveThere);
        assert_illegal(&d, "5e7c", IllegalMove::CannotMoveThere);
    }
    // The unpromoted cannons are the same under both readings.
    let sfen = board(
        &[
            ("5e", "A"),
            ("5c", "P"),
            ("7e", "p"),
            ("3g", "I"),
            ("5g", "U"),
            ("8i", "K"),
            ("2a", "k"),
        ],
        "b",
        "-",
    );
    assert_eq!(legal(&pos(&sfen)), legal(&pos_in(leap_rules(), &sfen)));
}

#[test]
fn flying_cannon_option_values() {
    assert!(std::ptr::eq(
        rules(),
        rules_9x9_with(VariantName::CannonShogi, "flying-cannon=hop").unwrap()
    ));
    assert!(!std::ptr::eq(rules(), leap_rules()));
    let err = rules_9x9_with(VariantName::CannonShogi, "flying-cannon=jump").unwrap_err();
    assert!(err.to_string().contains("flying-cannon"), "{err}");
    let err = rules_9x9_with(VariantName::CannonShogi, "nifu=on").unwrap_err();
    assert!(err.to_string().contains("nifu"), "{err}");
    assert!(rules_9x9_with(VariantName::CannonShogi, "flying-cannon").is_err());
}

// ---------------------------------------------------------------------------
// Checks through hops.
// ---------------------------------------------------------------------------

#[test]
fn silver_cannon_checks_over_a_screen() {
    // White silver cannon 5a, Black gold 5e as the screen, Black king 5i.
    let sfen = board(
        &[
            ("5a", "a"),
            ("5e", "G"),
            ("4g", "S"),
            ("5i", "K"),
            ("9a", "k"),
        ],
        "b",
        "P",
    );
    let p = pos(&sfen);
    assert!(p.in_check());
    let a = rules().geometry.parse_square("5a").unwrap();
    assert!(p.checkers().has(a));
    // Moving the screen off the line resolves it.
    for text in ["5e4e", "5e6e", "5e4d", "5e6d"] {
        assert_legal(&p, text);
    }
    // Moving it along the line leaves it a screen.
    assert_illegal(&p, "5e5d", IllegalMove::IgnoresCheck);
    assert_illegal(&p, "5e5f", IllegalMove::IgnoresCheck);
    // A second piece on the line (two screens) also resolves it, on either
    // side of the first.
    assert_legal(&p, "4g5h");
    assert_legal(&p, "4g5f");
    for sq in ["5b", "5c", "5d", "5f", "5g", "5h"] {
        assert_legal(&p, &format!("P*{sq}"));
    }
    assert_illegal(&p, "4g4f", IllegalMove::IgnoresCheck);
    assert_illegal(&p, "P*4h", IllegalMove::IgnoresCheck);
    // The king leaves the file, but not along it.
    for text in ["5i4h", "5i6h", "5i4i", "5i6i"] {
        assert_legal(&p, text);
    }
    assert_illegal(&p, "5i5h", IllegalMove::IgnoresCheck);

    // A white piece is as good a screen.
    let q = pos(&board(
        &[("5a", "a"), ("5e", "p"), ("5i", "K"), ("9a", "k")],
        "b",
        "-",
    ));
    assert!(q.in_check());
    // Without a screen there is no check.
    let r = pos(&board(&[("5a", "a"), ("5i", "K"), ("9a", "k")], "b", "-"));
    assert!(!r.in_check());
}

#[test]
fn capturing_the_screen_resolves_the_check_only_if_the_line_is_left_open() {
    // White silver cannon 5a checks the king on 5i over a white iron cannon on 5h.
    let p = pos(&board(
        &[
            ("5a", "a"),
            ("5h", "i"),
            ("4h", "G"),
            ("5i", "K"),
            ("9a", "k"),
        ],
        "b",
        "-",
    ));
    assert!(p.in_check());
    // The king takes the screen: nothing stands between it and the cannon.
    assert_legal(&p, "5i5h");
    // The gold takes the screen and becomes the screen.
    assert_illegal(&p, "4h5h", IllegalMove::IgnoresCheck);
    // The gold adds a second screen.
    assert_legal(&p, "4h5g");
}

#[test]
fn putting_a_piece_in_front_of_an_unscreened_cannon_is_illegal() {
    // White silver cannon 5a, nothing on the file down to the Black king 5i.
    let p = pos(&board(
        &[
            ("5a", "a"),
            ("4e", "G"),
            ("6c", "I"),
            ("5i", "K"),
            ("9a", "k"),
        ],
        "b",
        "P",
    ));
    assert!(!p.in_check());
    // Any own piece on the file becomes the screen that checks its own king.
    assert_illegal(&p, "4e5e", IllegalMove::IgnoresCheck);
    assert_illegal(&p, "4e5d", IllegalMove::IgnoresCheck);
    for sq in ["5b", "5c", "5d", "5e", "5f", "5g", "5h"] {
        assert_illegal(&p, &format!("P*{sq}"), IllegalMove::IgnoresCheck);
    }
    // Off the file it is fine, and so is the king stepping along the file.
    assert_legal(&p, "4e4d");
    assert_legal(&p, "P*4f");
    assert_legal(&p, "5i5h");
    // Likewise for the king walking onto a screened line.
    let q = pos(&board(
        &[("5a", "a"), ("5e", "G"), ("4i", "K"), ("9a", "k")],
        "b",
        "-",
    ));
    assert!(!q.in_check());
    assert_illegal(&q, "4i5i", IllegalMove::IgnoresCheck);
    assert_illegal(&q, "4i5h", IllegalMove::IgnoresCheck);
    assert_legal(&q, "4i3h");
    // A white piece stepping onto the file gives check.
    let w = pos(&board(
        &[("5a", "a"), ("6d", "g"), ("5i", "K"), ("9a", "k")],
        "w",
        "-",
    ));
    let m = w.parse_move("6d5e").unwrap();
    assert!(w.gives_check(m));
    assert!(!w.gives_check(w.parse_move("6d7e").unwrap()));
}

#[test]
fn every_cannon_checks_only_over_a_screen() {
    // (cannon, its square, screen square) against the Black king on 5i or,
    // for the diagonal ones, on 5e with the cannon on 1a and screen on 3c.
    let cases: [(&str, &str, &str, &str); 8] = [
        ("u", "5a", "5e", "5i"),
        ("a", "5a", "5e", "5i"),
        ("+u", "5a", "5e", "5i"),
        ("+a", "5a", "5e", "5i"),
        ("c", "1a", "3c", "5e"),
        ("i", "1a", "3c", "5e"),
        ("+c", "1a", "3c", "5e"),
        ("+i", "1a", "3c", "5e"),
    ];
    for (cannon, at, screen, king) in cases {
        let without = pos(&board(&[(at, cannon), (king, "K"), ("9b", "k")], "b", "-"));
        assert!(!without.in_check(), "{cannon} without a screen");
        let with = pos(&board(
            &[(at, cannon), (screen, "S"), (king, "K"), ("9b", "k")],
            "b",
            "-",
        ));
        assert!(with.in_check(), "{cannon} over a screen");
        let two = pos(&board(
            &[
                (at, cannon),
                (screen, "S"),
                (if king == "5i" { "5g" } else { "4d" }, "P"),
                (king, "K"),
                ("9b", "k"),
            ],
            "b",
            "-",
        ));
        assert!(!two.in_check(), "{cannon} over two screens");
    }
    // A gold cannon next to the king: it slides there but cannot capture.
    let next = pos(&board(&[("5h", "u"), ("5i", "K"), ("9b", "k")], "b", "-"));
    assert!(!next.in_check());
    // A flying cannon diagonally next to the king: the mF step does not check,
    // the F step of flying-cannon=leap does.
    let sfen = board(&[("4h", "+a"), ("5i", "K"), ("9b", "k")], "b", "-");
    assert!(!pos(&sfen).in_check());
    assert!(pos_in(leap_rules(), &sfen).in_check());
    // The two-square diagonal hop checks over an adjacent screen only.
    let screened = board(
        &[("3g", "+a"), ("4h", "P"), ("5i", "K"), ("9b", "k")],
        "b",
        "-",
    );
    assert!(pos(&screened).in_check());
    let open = board(&[("3g", "+a"), ("5i", "K"), ("9b", "k")], "b", "-");
    assert!(!pos(&open).in_check());
    assert!(pos_in(leap_rules(), &open).in_check());
}

// ---------------------------------------------------------------------------
// Pawns and drops.
// ---------------------------------------------------------------------------

#[test]
fn pawn_moves_forward_and_sideways_not_back() {
    let p = pos(&board(&[("5e", "P"), ("8i", "K"), ("2a", "k")], "b", "-"));
    assert_eq!(moves_from(&p, "5e"), set(&["5e5d", "5e4e", "5e6e"]));
    assert_illegal(&p, "5e5f", IllegalMove::CannotMoveThere);
    // It captures sideways too.
    let c = pos(&board(
        &[("5e", "P"), ("4e", "p"), ("8i", "K"), ("2a", "k")],
        "b",
        "-",
    ));
    assert_legal(&c, "5e4e");
    let w = pos(&board(&[("5e", "p"), ("8i", "K"), ("2a", "k")], "w", "-"));
    assert_eq!(moves_from(&w, "5e"), set(&["5e5f", "5e4e", "5e6e"]));
    assert_illegal(&w, "5e5d", IllegalMove::CannotMoveThere);
}

#[test]
fn pawn_on_last_rank_moves_sideways_and_is_not_forced_to_promote() {
    let sfen = board(
        &[("5a", "P"), ("7b", "P"), ("8i", "K"), ("2c", "k")],
        "b",
        "-",
    );
    let p = pos(&sfen);
    assert_eq!(
        moves_from(&p, "5a"),
        set(&["5a4a", "5a4a+", "5a6a", "5a6a+"])
    );
    assert_legal(&p, "7b7a");
    assert_legal(&p, "7b7a+");
    let after = p.after(p.parse_move("7b7a").unwrap());
    assert_eq!(
        after.to_sfen().split(' ').next(),
        Some("2P1P4/9/7k1/9/9/9/9/9/1K7")
    );
    // White, on rank i.
    let w = pos(&flip_sfen(&sfen));
    assert_eq!(
        moves_from(&w, "5i"),
        set(&["5i4i", "5i4i+", "5i6i", "5i6i+"])
    );
    assert_legal(&w, "3h3i");
    assert_legal(&w, "3h3i+");
}

#[test]
fn pawn_drop_on_last_rank_is_legal() {
    let p = pos(&board(&[("8i", "K"), ("2c", "k")], "b", "P"));
    for f in 1..=9 {
        assert_legal(&p, &format!("P*{f}a"));
    }
    let drops = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("P*"))
        .count();
    assert_eq!(drops, 81 - 2, "every empty square");
    let w = pos(&board(&[("8g", "K"), ("2a", "k")], "w", "p"));
    for f in 1..=9 {
        assert_legal(&w, &format!("P*{f}i"));
    }
}

#[test]
fn two_unpromoted_pawns_on_a_file_are_legal() {
    let p = pos(&board(
        &[("5g", "P"), ("5c", "p"), ("8i", "K"), ("2a", "k")],
        "b",
        "P",
    ));
    for sq in ["5e", "5h", "5b", "5a", "5d"] {
        assert_legal(&p, &format!("P*{sq}"));
    }
    let drops = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("P*"))
        .count();
    assert_eq!(drops, 81 - 4);
    // On the board, any number of pawns of a side may share a file.
    let three = pos("4k4/4p4/4p4/9/4P4/4P4/4P4/9/4K4 b - 1");
    assert_eq!(three.to_sfen(), "4k4/4p4/4p4/9/4P4/4P4/4P4/9/4K4 b - 1");
    // White drops too.
    let w = pos(&board(&[("5c", "p"), ("8i", "K"), ("2a", "k")], "w", "p"));
    assert_legal(&w, "P*5e");
}

#[test]
fn pawn_drop_mate_is_legal() {
    // White king 1a, knight 2a, silver 2b; Black gold 2c guards 1b.
    let sfen = "7nk/7s1/7G1/9/9/9/9/9/K8 b 2Pp 1";
    let p = pos(sfen);
    assert_legal(&p, "P*1b");
    let mut g = game(sfen);
    play(&mut g, "P*1b");
    assert!(g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Checkmate
        })
    );
    // White mates the same way.
    let mut w = game(&flip_sfen(sfen));
    play(&mut w, "P*9h");
    assert_eq!(
        w.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn knight_and_lance_drop_limits() {
    let b = pos(&board(&[("5i", "K"), ("5a", "k")], "b", "NL"));
    for f in [1, 4, 9] {
        assert_illegal(&b, &format!("N*{f}a"), IllegalMove::DeadPiece);
        assert_illegal(&b, &format!("N*{f}b"), IllegalMove::DeadPiece);
        assert_legal(&b, &format!("N*{f}c"));
        assert_illegal(&b, &format!("L*{f}a"), IllegalMove::DeadPiece);
        assert_legal(&b, &format!("L*{f}b"));
    }
    let count = |prefix: &str| legal(&b).iter().filter(|m| m.starts_with(prefix)).count();
    assert_eq!(count("N*"), 7 * 9 - 1, "ranks c..i minus the king's square");
    assert_eq!(count("L*"), 8 * 9 - 1, "ranks b..i minus the king's square");
    let w = pos(&board(&[("5i", "K"), ("5a", "k")], "w", "nl"));
    assert_illegal(&w, "N*4i", IllegalMove::DeadPiece);
    assert_illegal(&w, "N*4h", IllegalMove::DeadPiece);
    assert_illegal(&w, "L*4i", IllegalMove::DeadPiece);
    assert_legal(&w, "N*4g");
    assert_legal(&w, "L*4h");
    // On the board, a knight must promote on the last two ranks and a lance on the last.
    let m = pos(&board(
        &[("4d", "N"), ("9b", "L"), ("5i", "K"), ("5a", "k")],
        "b",
        "-",
    ));
    assert_illegal(&m, "4d3b", IllegalMove::MustPromote);
    assert_legal(&m, "4d3b+");
    assert_illegal(&m, "9b9a", IllegalMove::MustPromote);
    assert_legal(&m, "9b9a+");
    // SFEN refuses them where they could never move; a pawn there is fine.
    let problems = Position::from_sfen(rules(), "N3k4/9/9/9/9/9/9/9/4K4 b - 1", SfenMode::Strict)
        .unwrap_err()
        .problems;
    assert_eq!(
        problems,
        vec![SfenProblem::DeadPiece {
            piece: "N".into(),
            square: "9a".into()
        }]
    );
    pos("P3k4/9/9/9/9/9/9/9/4K3p b - 1");
}

// ---------------------------------------------------------------------------
// Game end.
// ---------------------------------------------------------------------------

/// Black: +A 9c, +I 8c on the board, R B U C 2G 2S N L and `black_pawns` P in
/// hand; White: +U 1g, C 2g, r b a i 2g 2s 3n 3l and the other pawns in hand.
/// Kings 5b and 5h, both in their zones.
fn impasse_sfen(black_pawns: u8) -> String {
    let count = |n: u8, c: char| match n {
        0 => String::new(),
        1 => c.to_string(),
        _ => format!("{n}{c}"),
    };
    board(
        &[
            ("5b", "K"),
            ("9c", "+A"),
            ("8c", "+I"),
            ("2g", "c"),
            ("1g", "+u"),
            ("5h", "k"),
        ],
        "b",
        &format!(
            "RBUC2G2SNL{}rbai2g2s3n3l{}",
            count(black_pawns, 'P'),
            count(10 - black_pawns, 'p')
        ),
    )
}

#[test]
fn impasse_points_count_cannons_as_five() {
    // 6 five-point pieces (two of them flying cannons on the board) + 6 + pawns.
    let g = game(&impasse_sfen(1));
    assert_eq!(g.impasse_points(Color::Black), 30 + 6 + 1);
    assert_eq!(g.impasse_points(Color::White), 30 + 10 + 9);
    assert_eq!(
        g.impasse_points(Color::Black) + g.impasse_points(Color::White),
        86
    );
    // The start position: 43 each.
    let s = game("startpos");
    assert_eq!(s.impasse_points(Color::Black), 43);
    assert_eq!(s.impasse_points(Color::White), 43);
    // A cannon in hand counts 5 too; a king counts nothing.
    let h = game(&board(&[("5i", "K"), ("5a", "k")], "b", "UAa"));
    assert_eq!(h.impasse_points(Color::Black), 10);
    assert_eq!(h.impasse_points(Color::White), 5);
}

#[test]
fn impasse_is_scored_at_38_points() {
    // Black 37: Black loses.
    let mut g = game(&impasse_sfen(1));
    assert_eq!(g.impasse_points(Color::Black), 37);
    assert_eq!(
        g.score_impasse(),
        Ok(Outcome {
            winner: Some(Color::White),
            reason: Reason::ImpassePoints
        })
    );
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Color::White)));
    // Black 38, White 48: no contest.
    let mut g = game(&impasse_sfen(2));
    assert_eq!(g.impasse_points(Color::Black), 38);
    assert_eq!(
        g.score_impasse(),
        Ok(Outcome {
            winner: None,
            reason: Reason::ImpassePoints
        })
    );
    // White 37 (the same position turned round): White loses.
    let mut w = game(&flip_sfen(&impasse_sfen(1)));
    assert_eq!(w.impasse_points(Color::White), 37);
    assert_eq!(w.score_impasse().map(|o| o.winner), Ok(Some(Color::Black)));
    // Only with both kings in their zones: Black's king on 5d is not.
    let mut out = game(&board(
        &[
            ("5d", "K"),
            ("9c", "+A"),
            ("8c", "+I"),
            ("2g", "c"),
            ("1g", "+u"),
            ("5h", "k"),
        ],
        "b",
        "RBUC2G2SNLPrbai2g2s3n3l9p",
    ));
    assert!(matches!(
        out.score_impasse(),
        Err(GameError::BadDeclaration(_))
    ));
    assert_eq!(out.outcome(), None);
}

#[test]
fn perpetual_check_loses() {
    // A flying silver cannon shuttles between 2i and 1i, checking the king
    // (which shuttles between 1a and 2a) over the pawns on 1e and 2e.
    let sfen = board(
        &[
            ("2i", "+A"),
            ("1e", "P"),
            ("2e", "P"),
            ("9i", "K"),
            ("1a", "k"),
        ],
        "b",
        "-",
    );
    let mut g = game(&sfen);
    let cycle = ["2i1i", "1a2a", "1i2i", "2a1a"];
    for ply in 1..=12 {
        let m = cycle[(ply - 1) % 4];
        play(&mut g, m);
        if ply % 2 == 1 {
            assert!(g.position().in_check(), "ply {ply} {m} checks");
        }
        if ply < 12 {
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
    // The same shuttle without checks (2i <-> 3i) is a plain repetition.
    let mut d = game(&sfen);
    let quiet = ["2i3i", "1a1b", "3i2i", "1b1a"];
    for ply in 1..=12 {
        play(&mut d, quiet[(ply - 1) % 4]);
        assert!(!d.position().in_check());
    }
    assert_eq!(
        d.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
}

#[test]
fn checkmate_over_a_screen_wins() {
    // White king 1a. The Black bishop on 1b (guarded by the knight on 2d)
    // covers 2a, the gold on 3c covers 2b. A silver cannon dropped on file 1
    // checks over the bishop: mate.
    let sfen = board(
        &[
            ("1b", "B"),
            ("2d", "N"),
            ("3c", "G"),
            ("9i", "K"),
            ("1a", "k"),
        ],
        "b",
        "A",
    );
    assert!(!pos(&sfen).in_check());
    let mut g = game(&sfen);
    play(&mut g, "A*1i");
    assert!(g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Checkmate
        })
    );
    // Without the screen the same drop is no check at all.
    let open = pos(&board(
        &[("2d", "N"), ("3c", "G"), ("9i", "K"), ("1a", "k")],
        "b",
        "A",
    ));
    assert!(!open.after(open.parse_move("A*1i").unwrap()).in_check());
}

// ---------------------------------------------------------------------------
// Handicaps and notation.
// ---------------------------------------------------------------------------

#[test]
fn every_cannon_handicap_parses_with_the_right_pieces_removed() {
    let v = Variant::get(VariantName::CannonShogi).expect("cannon shogi");
    let expected: [(&str, &str, &str, &[&str]); 7] = [
        ("lance", "香落ち", "1a", &["l"]),
        ("bishop", "角落ち", "2b", &["b"]),
        ("rook", "飛車落ち", "8b", &["r"]),
        ("rook-lance", "飛香落ち", "1a", &["r", "l"]),
        ("two-pieces", "二枚落ち", "8b", &["r", "b"]),
        ("four-pieces", "四枚落ち", "9a", &["r", "b", "l", "l"]),
        (
            "six-pieces",
            "六枚落ち",
            "8a",
            &["r", "b", "l", "l", "n", "n"],
        ),
    ];
    assert_eq!(v.handicaps.len(), expected.len());
    let start = pos("startpos");
    let count = |p: &Position<Bb128>| -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for sq in rules().geometry.all() {
            if let Some(pc) = p.piece_at(sq) {
                *m.entry(p.token(pc)).or_insert(0) += 1;
            }
        }
        m
    };
    let full = count(&start);
    assert_eq!(full.values().sum::<usize>(), 40);
    for (name, japanese, empty_square, removed) in expected {
        let h = v
            .handicap(name)
            .unwrap_or_else(|| panic!("handicap {name}"));
        assert_eq!(h.japanese, japanese);
        assert_eq!(v.handicap(japanese), Some(h));
        let p = pos(h.sfen);
        assert_eq!(p.side_to_move(), Color::White, "{name}: White moves first");
        assert!(!p.legal_moves().is_empty());
        for c in Color::ALL {
            assert!(p.hand(c).iter().all(|&n| n == 0), "{name}: empty hands");
        }
        let sq = rules().geometry.parse_square(empty_square).unwrap();
        assert_eq!(p.piece_at(sq), None, "{name}: {empty_square} is empty");
        let have = count(&p);
        let mut missing = full.clone();
        for (t, n) in &have {
            *missing.get_mut(t).unwrap() -= n;
        }
        missing.retain(|_, n| *n > 0);
        let mut want = BTreeMap::new();
        for t in removed {
            *want.entry(t.to_string()).or_insert(0) += 1;
        }
        assert_eq!(missing, want, "{name}");
        // Black's array is untouched.
        assert_eq!(
            h.sfen.split('/').skip(6).collect::<Vec<_>>(),
            start
                .to_sfen()
                .split('/')
                .skip(6)
                .map(|s| s.replace(" b ", " w "))
                .collect::<Vec<_>>(),
            "{name}"
        );
        assert_eq!(p.to_sfen(), h.sfen);
    }
}

#[test]
fn start_position_matches_the_spec() {
    let p = pos("startpos");
    assert_eq!(
        p.to_sfen(),
        "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1"
    );
    let at = |sq: &str| {
        let s = rules().geometry.parse_square(sq).unwrap();
        p.token(p.piece_at(s).unwrap_or_else(|| panic!("{sq} empty")))
    };
    for (sq, t) in [
        ("8h", "B"),
        ("7h", "A"),
        ("6h", "U"),
        ("4h", "I"),
        ("3h", "C"),
        ("2h", "R"),
        ("2b", "b"),
        ("3b", "a"),
        ("4b", "u"),
        ("6b", "i"),
        ("7b", "c"),
        ("8b", "r"),
    ] {
        assert_eq!(at(sq), t, "{sq}");
    }
    assert_eq!(p.legal_moves().len(), p.count_legal_moves() as usize);
}

#[test]
fn sfen_and_usi_cannon_letters_round_trip() {
    let board_sfen = "4k4/1+UA+CI4/9/9/9/9/9/4u+ac+i1/4K4 b - 1";
    assert_eq!(pos(board_sfen).to_sfen(), board_sfen);
    let sfen = "4k4/9/9/9/9/9/9/9/4K4 b UACIuaci 1";
    let p = pos(sfen);
    assert_eq!(p.to_sfen(), sfen);
    let kind = |code: &str| rules().kind_by_code(code).unwrap();
    for (code, name) in [
        ("U", "gold cannon"),
        ("A", "silver cannon"),
        ("C", "copper cannon"),
        ("I", "iron cannon"),
        ("+U", "flying gold cannon"),
        ("+A", "flying silver cannon"),
        ("+C", "flying copper cannon"),
        ("+I", "flying iron cannon"),
    ] {
        assert_eq!(rules().kind(kind(code)).name, name);
        assert_eq!(rules().kind(kind(code)).impasse_points, 5, "{code}");
    }
    for code in ["U", "A", "C", "I"] {
        assert_eq!(p.hand_count(Color::Black, kind(code)), 1);
        assert_eq!(p.hand_count(Color::White, kind(code)), 1);
        let text = format!("{code}*5e");
        assert_legal(&p, &text);
        let after = p.after(p.parse_move(&text).unwrap());
        assert_eq!(after.hand_count(Color::Black, kind(code)), 0);
        // A dropped cannon stands unpromoted.
        let sq = rules().geometry.parse_square("5e").unwrap();
        assert_eq!(after.token(after.piece_at(sq).unwrap()), code);
    }
    // Hand order R B U A C I G S N L P.
    let h = pos("4k4/9/9/9/9/9/9/9/4K4 b PLNSGICAUBR 1");
    assert_eq!(h.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b RBUACIGSNLP 1");
    // Promoted pieces in hand are refused, cannons or not.
    assert!(
        Position::from_sfen(rules(), "4k4/9/9/9/9/9/9/9/4K4 b +U 1", SfenMode::Strict).is_err()
    );
    // White drops are written upper case too.
    let w = pos("4k4/9/9/9/9/9/9/9/4K4 w u 1");
    assert_legal(&w, "U*5e");
    assert!(matches!(w.parse_move("u*5e"), Err(MoveError::Syntax(_))));
    // Promotion by a cannon move is written with '+'.
    let q = pos(&board(
        &[("5d", "A"), ("5c", "P"), ("8i", "K"), ("2a", "k")],
        "b",
        "-",
    ));
    assert_legal(&q, "5d5b+");
    let after = q.after(q.parse_move("5d5b+").unwrap());
    assert!(
        after.to_sfen().starts_with("7k1/4+A4/4P4/"),
        "{}",
        after.to_sfen()
    );
}
