//! Replays the reference games of `tests/data/games` through [`Game`] and
//! checks the results stated in their headers.

use banmen_rules::{
    rules_9x9, Bb128, Color, EnteringKingRule, Game, GameOptions, Outcome, Position, Reason,
    SfenMode, VariantName,
};

struct Reference {
    start: String,
    final_sfen: String,
    moves: Vec<String>,
}

fn load(name: &str) -> Reference {
    let path = format!("{}/tests/data/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let header = |key: &str| -> String {
        text.lines()
            .find_map(|l| l.strip_prefix('#')?.trim().strip_prefix(key))
            .unwrap_or_else(|| panic!("{name}: no '{key}' header"))
            .trim()
            .to_string()
    };
    let moves = text
        .lines()
        .rfind(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap_or_else(|| panic!("{name}: no moves line"))
        .split_whitespace()
        .map(str::to_string)
        .collect();
    Reference {
        start: header("start:"),
        final_sfen: header("final-sfen:"),
        moves,
    }
}

fn new_game(start: &str) -> Game<Bb128> {
    let rules = rules_9x9(VariantName::Shogi).expect("standard shogi");
    let pos = Position::from_sfen(rules, start, SfenMode::Strict).expect("start position");
    Game::new(
        pos,
        GameOptions {
            entering_king: EnteringKingRule::CsaRule27,
            max_plies: None,
        },
    )
}

/// Plays every move, checking that the game is not over before `end_ply`
/// (1-based) and returns the game.
fn replay(r: &Reference, end_ply: usize) -> Game<Bb128> {
    let mut g = new_game(&r.start);
    assert_eq!(g.outcome(), None, "over at the start");
    for (i, m) in r.moves.iter().enumerate() {
        let ply = i + 1;
        g.play_usi(m)
            .unwrap_or_else(|e| panic!("ply {ply} {m}: {e}"));
        if ply < end_ply {
            assert_eq!(g.outcome(), None, "over early, after ply {ply} {m}");
        }
    }
    assert_eq!(g.moves().len(), r.moves.len());
    g
}

#[test]
fn fourfold_repetition_is_a_draw_at_ply_12() {
    let r = load("standard-fourfold-repetition-draw.txt");
    assert_eq!(r.start, "startpos");
    assert_eq!(r.moves.len(), 12);
    let mut g = replay(&r, 12);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
    assert_eq!(g.position().to_sfen(), r.final_sfen);
    // The final position is the start position again.
    assert_eq!(g.position(), g.start());
    assert_eq!(g.position().hash(), g.start().hash());
    // Taking back the last move reopens the game; replaying it ends it again.
    g.undo().expect("a move to undo");
    assert_eq!(g.outcome(), None);
    g.play_usi(&r.moves[11]).unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
}

#[test]
fn perpetual_check_loses_at_ply_18() {
    let r = load("standard-perpetual-check-loss.txt");
    assert_eq!(r.moves.len(), 18);
    let g = replay(&r, 18);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::PerpetualCheck
        })
    );
    assert_eq!(g.position().to_sfen(), r.final_sfen);

    // Sente's horse checks on every sente move of the cycle (plies 7..=17).
    let mut h = new_game(&r.start);
    for (i, m) in r.moves.iter().enumerate() {
        h.play_usi(m).unwrap();
        let ply = i + 1;
        if ply >= 7 {
            let checked = h.position().in_check();
            assert_eq!(checked, ply % 2 == 1, "ply {ply} {m}: check = {checked}");
        }
    }
}

#[test]
fn both_kings_in_camp_game_is_not_over_and_scores_a_draw() {
    let r = load("standard-both-kings-in-camp.txt");
    assert_eq!(r.moves.len(), 20);
    let mut g = replay(&r, usize::MAX);
    assert_eq!(g.outcome(), None);
    let pos = g.position();
    assert_eq!(pos.to_sfen(), r.final_sfen);
    assert!(!pos.in_check(), "nobody is in check");
    let rules = pos.rules();
    let sq = |name: &str| rules.geometry.parse_square(name).unwrap();
    assert_eq!(pos.king_square(Color::Black), Some(sq("5c")));
    assert_eq!(pos.king_square(Color::White), Some(sq("5g")));
    assert_eq!(g.impasse_points(Color::Black), 27);
    assert_eq!(g.impasse_points(Color::White), 27);
    // The CSA declaration needs 10 pieces in the camp: not here.
    assert!(g.can_declare().is_err());
    assert_eq!(
        g.score_impasse(),
        Ok(Outcome {
            winner: None,
            reason: Reason::ImpassePoints
        })
    );
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::ImpassePoints
        })
    );
}

#[test]
fn reference_game_final_positions_parse_back() {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    for name in [
        "standard-fourfold-repetition-draw.txt",
        "standard-perpetual-check-loss.txt",
        "standard-both-kings-in-camp.txt",
    ] {
        let r = load(name);
        let p = Position::from_sfen(rules, &r.final_sfen, SfenMode::Strict)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.to_sfen(), r.final_sfen);
        let g = replay(&r, r.moves.len());
        assert_eq!(g.position(), &p, "{name}");
    }
}
