//! Minishogi's rules (Fairy-Stockfish's `minishogi`): one test per rule that
//! differs from standard shogi's or depends on the 5x5 board.

use banmen_rules::{
    rules_9x9, rules_for, AnyRules, Bb128, Color, Game, GameOptions, Outcome, Position, Reason,
    Rules, SfenMode, VariantName,
};

fn rules() -> &'static Rules<Bb128> {
    rules_9x9(VariantName::MiniShogi).expect("minishogi fits the 81-square board type")
}

fn pos(sfen: &str) -> Position<Bb128> {
    Position::from_sfen(rules(), sfen, SfenMode::Strict)
        .unwrap_or_else(|e| panic!("{sfen} should parse: {e}"))
}

fn legal(p: &Position<Bb128>) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.move_to_usi(m)).collect()
}

#[test]
fn the_start_position_is_fairy_stockfishs() {
    let p = pos("startpos");
    assert_eq!(p.to_sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(legal(&p).len(), 14);
    assert!(matches!(
        rules_for(VariantName::MiniShogi, ""),
        Ok(AnyRules::Nine(_))
    ));
    assert!(rules_for(VariantName::MiniShogi, "flying-cannon=leap").is_err());
}

#[test]
fn promotion_is_on_the_last_rank_only() {
    // The silver on 3c may not promote going to 3b; the rook entering rank a may.
    let p = pos("4k/5/2S2/5/R3K b - 1");
    let moves = legal(&p);
    assert!(moves.contains(&"3c3b".to_string()));
    assert!(!moves.contains(&"3c3b+".to_string()));
    assert!(moves.contains(&"5e5b".to_string()));
    assert!(!moves.contains(&"5e5b+".to_string()));
    assert!(moves.contains(&"5e5a+".to_string()));
}

#[test]
fn a_pawn_reaching_the_last_rank_must_promote() {
    let p = pos("4k/P4/5/5/4K b - 1");
    let moves = legal(&p);
    assert!(moves.contains(&"5b5a+".to_string()));
    assert!(!moves.contains(&"5b5a".to_string()));
}

#[test]
fn nifu_is_refused() {
    let p = pos("4k/5/5/P4/4K b P 1");
    let moves = legal(&p);
    assert!(!moves.iter().any(|m| m.starts_with("P*5")));
    assert!(moves.contains(&"P*4c".to_string()));
    // No pawn drop on the last rank either.
    assert!(!moves.contains(&"P*4a".to_string()));
}

#[test]
fn pawn_drop_mate_is_refused() {
    // P*5b would mate: the gold on 3b covers 4a and 4b, the silver on 4c
    // guards 5b.
    let p = pos("k4/2G2/1S3/5/4K b P 1");
    assert!(!legal(&p).contains(&"P*5b".to_string()));
    assert!(p.parse_move("P*5b").is_err());
}

#[test]
fn there_is_no_impasse_rule() {
    assert_eq!(rules().variant.impasse_threshold, None);
    assert!(rules().variant.handicaps.is_empty());
}

/// Plays `moves` from the start; the game must stay open until the last.
fn play(moves: &[&str]) -> Game<Bb128> {
    let mut g = Game::new(pos("startpos"), GameOptions::default());
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(g.outcome(), None, "over before ply {}", i + 1);
        g.play_usi(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

#[test]
fn fourfold_repetition_loses_for_black() {
    // Fairy-Stockfish (pyffish): after these 12 plies, or the 13 that begin
    // with Black's rook move and repeat with White to move, the game ends
    // and Black (sente) has lost whoever is to move.
    let cycle = ["1e1d", "5a5b", "1d1e", "5b5a"];
    let black_to_move: Vec<&str> = cycle.repeat(3);
    let win = Some(Outcome {
        winner: Some(Color::White),
        reason: Reason::Repetition,
    });
    let g = play(&black_to_move);
    assert_eq!(g.outcome(), win);
    let mut white_to_move = vec!["1e1d"];
    white_to_move.extend(["5a5b", "1d1c", "5b5a", "1c1d"].repeat(3));
    let g = play(&white_to_move);
    assert_eq!(g.position().side_to_move(), Color::White);
    assert_eq!(g.outcome(), win);
    // Standard shogi keeps sennichite a draw.
    assert_eq!(
        rules_9x9(VariantName::Shogi)
            .unwrap()
            .variant
            .repetition_loser,
        None
    );
}
