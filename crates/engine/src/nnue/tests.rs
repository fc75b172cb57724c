use super::train::{self, Dataset, FloatNet, TrainOptions};
use super::*;
use banmen_rules::testing::XorShift;
use banmen_rules::{rules_17x17_with, rules_9x9, SfenMode};

fn tiny<B: BitBoard>(rules: &'static Rules<B>, buckets: Buckets, seed: u64) -> FloatNet {
    let features = Features::new(rules, buckets);
    let mut f = FloatNet::new(rules.variant.name, features, 16, 600, seed);
    // Larger weights than a fresh model's, so that clipping and the
    // accumulators' whole range are exercised.
    for w in &mut f.ft {
        *w *= 4.0;
    }
    f
}

/// Plays random games, checking after every move that the accumulators
/// kept move by move equal fresh ones; returns the positions seen.
fn random_games<B: BitBoard>(
    net: &Net,
    rules: &'static Rules<B>,
    games: usize,
) -> Vec<Position<B>> {
    let mut rng = XorShift::new(7);
    let mut seen = Vec::new();
    let h = net.hidden;
    for _ in 0..games {
        let mut pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
        let mut acc = vec![0i16; 2 * h];
        net.refresh_both(&pos, &mut acc);
        for _ in 0..160 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let text = pos.move_to_usi(m);
            let change = net.change(&pos, m);
            pos.make_move(m);
            net.apply(&change, &pos, &mut acc);
            let mut fresh = vec![0i16; 2 * h];
            net.refresh_both(&pos, &mut fresh);
            assert_eq!(acc, fresh, "after {text}: {}", pos.to_sfen());
            assert_eq!(net.output(&acc, pos.side_to_move()), net.evaluate(&pos));
            seen.push(pos.clone());
        }
    }
    seen
}

#[test]
fn kept_accumulators_equal_fresh_ones() {
    for (variant, buckets) in [
        (VariantName::Shogi, Buckets::Nine),
        (VariantName::CannonShogi, Buckets::Nine),
        (VariantName::MiniShogi, Buckets::One),
    ] {
        let rules = rules_9x9(variant).unwrap();
        let net = tiny(rules, buckets, 3).quantise("test");
        assert!(random_games(&net, rules, 6).len() > 200);
    }
    let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
    let net = tiny(rules, Buckets::One, 3).quantise("test");
    random_games(&net, rules, 2);
}

#[test]
fn features_see_the_board_from_each_side() {
    // The start position is symmetric: both perspectives activate the
    // same features, and so both sides' accumulators are equal.
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let f = Features::new(rules, Buckets::Nine);
    let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
    let (mut b, mut w) = (Vec::new(), Vec::new());
    f.active(&pos, Color::Black, &mut b);
    f.active(&pos, Color::White, &mut w);
    b.sort_unstable();
    w.sort_unstable();
    assert_eq!(b, w);
    assert_eq!(b.len(), 40);
    // Hands: two pawns in Black's hand are two features of Black's hand
    // for Black and of the enemy's hand for White.
    let pos = Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b 2P 1", SfenMode::Strict).unwrap();
    let (mut b, mut w) = (Vec::new(), Vec::new());
    f.active(&pos, Color::Black, &mut b);
    f.active(&pos, Color::White, &mut w);
    assert_eq!((b.len(), w.len()), (4, 4));
    assert_ne!(b, w);
    // Nine buckets: the king on its back rank's middle third.
    assert_eq!(
        f.bucket_of[pos.king_square(Color::Black).unwrap().index()],
        1
    );
}

#[test]
fn quantised_output_agrees_with_the_float_model() {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let float = tiny(rules, Buckets::Nine, 5);
    let net = float.quantise("test");
    let positions = random_games(&net, rules, 3);
    let mut worst = 0;
    for pos in &positions {
        let (mut us, mut them) = (Vec::new(), Vec::new());
        net.features.active(pos, pos.side_to_move(), &mut us);
        net.features.active(pos, !pos.side_to_move(), &mut them);
        let f = (float.forward(&us, &them) * net.scale as f32).round() as i32;
        worst = worst.max((f - net.evaluate(pos)).abs());
    }
    // Each weight is rounded to 1/255 (accumulator) and 1/1024 (output).
    assert!(
        worst <= 8,
        "quantised and float outputs differ by {worst} cp"
    );
}

#[test]
fn files_round_trip_and_bad_files_are_refused() {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let net = tiny(rules, Buckets::Nine, 9).quantise("made by a test");
    let bytes = net.to_bytes();
    assert_eq!(Net::from_bytes(&bytes, rules).unwrap(), net);
    let refused = |b: &[u8]| Net::from_bytes(b, rules).unwrap_err().0;
    assert!(refused(&bytes[..bytes.len() - 1]).contains("checksum"));
    assert!(
        refused(&bytes[..20]).contains("cut short") || refused(&bytes[..20]).contains("checksum")
    );
    let mut altered = bytes.clone();
    altered[100] ^= 1;
    assert!(refused(&altered).contains("checksum"));
    assert!(refused(b"hello").contains("not a Banmen net"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(refused(&version).contains("version 9"));
    let cannon = rules_9x9(VariantName::CannonShogi).unwrap();
    let e = Net::from_bytes(&bytes, cannon).unwrap_err().0;
    assert!(e.contains("for shogi"), "{e}");
    // The game is read from the header, after the checksum.
    assert_eq!(Net::game_of(&bytes).unwrap(), VariantName::Shogi);
    assert!(Net::game_of(&altered).unwrap_err().0.contains("checksum"));
    assert!(Net::game_of(b"hello").is_err());
    // Every prefix is refused without a panic.
    for n in (0..bytes.len()).step_by(97) {
        assert!(Net::from_bytes(&bytes[..n], rules).is_err());
        assert!(Net::game_of(&bytes[..n]).is_err());
    }
}

#[test]
fn training_fits_a_material_target() {
    // The target: a win probability from the material balance.
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let features = Features::new(rules, Buckets::One);
    let mut rng = XorShift::new(11);
    let value = |k: Kind| -> f32 {
        match rules.kinds[k.index()].code.as_str() {
            "P" => 1.0,
            "K" => 0.0,
            _ => 4.0,
        }
    };
    let mut data = Dataset::new();
    let mut valid = Dataset::new();
    for g in 0..200 {
        let mut pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
        for ply in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
            let us = pos.side_to_move();
            let mut m = 0.0;
            for c in Color::ALL {
                let sign = if c == us { 1.0 } else { -1.0 };
                let mut bb = pos.color_bb(c);
                while let Some(sq) = bb.pop() {
                    m += sign * value(pos.piece_at(sq).unwrap().kind);
                }
                for k in 0..rules.n_base {
                    m += sign * value(Kind(k as u8)) * f32::from(pos.hand_count(c, Kind(k as u8)));
                }
            }
            let t = 1.0 / (1.0 + (-m / 3.0f32).exp());
            let (mut a, mut b) = (Vec::new(), Vec::new());
            features.active(&pos, us, &mut a);
            features.active(&pos, !us, &mut b);
            if (g + ply) % 10 == 0 {
                valid.push(&a, &b, t);
            } else {
                data.push(&a, &b, t);
            }
        }
    }
    let mut net = FloatNet::new(VariantName::Shogi, features, 8, 600, 1);
    let before = train::loss(&net, &valid);
    let options = TrainOptions {
        epochs: 8,
        batch: 256,
        learning_rate: 0.01,
        ..TrainOptions::default()
    };
    let mut epochs = 0;
    train::train(&mut net, &data, &valid, &options, &mut |_, _, _| {
        epochs += 1
    });
    let after = train::loss(&net, &valid);
    assert_eq!(epochs, 8);
    // The floor is the targets' own entropy; a model that learnt nothing
    // stays near the start.
    let floor = {
        let mut e = 0.0;
        for i in 0..valid.len() {
            let t = valid.target_of(i) as f64;
            if t > 0.0 && t < 1.0 {
                e -= t * t.ln() + (1.0 - t) * (1.0 - t).ln();
            }
        }
        e / valid.len() as f64
    };
    assert!(
        after - floor < 0.3 * (before - floor),
        "loss {before:.4} -> {after:.4}, floor {floor:.4}"
    );
}

/// A search with a net keeps its accumulators move by move (in debug
/// builds every node's is checked against a fresh count) and answers a
/// legal move, in a 9x9 game and in dai dai shogi.
#[test]
fn a_search_with_a_net_plays_legal_moves() {
    use crate::{search, BestMove, Control, Evaluator, Limits, SearchOptions, Table};
    use std::sync::Arc;
    fn check<B: BitBoard>(rules: &'static Rules<B>, buckets: Buckets, depth: i32) {
        let mut eval = Evaluator::new(rules);
        let mut net = tiny(rules, buckets, 21).quantise("test");
        let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
        net.residual = true;
        eval.set_net(Some(Arc::new(net.clone()))).unwrap();
        // A residual net adds the linear evaluation.
        assert_eq!(
            eval.evaluate(&pos),
            net.evaluate(&pos) + eval.evaluate_linear(&pos)
        );
        let bytes = net.to_bytes();
        assert!(Net::from_bytes(&bytes, rules).unwrap().residual);
        // A net that does not fit is refused and the evaluation stays.
        let mut broken = net.clone();
        broken.out.pop();
        assert!(eval.set_net(Some(Arc::new(broken))).is_err());
        assert!(eval.net().unwrap().residual);
        for residual in [true, false] {
            net.residual = residual;
            eval.set_net(Some(Arc::new(net.clone()))).unwrap();
            play(&eval, pos.clone(), depth);
        }
    }
    fn play<B: BitBoard>(eval: &Evaluator<B>, mut pos: Position<B>, depth: i32) {
        let tt = Table::new(4);
        for _ in 0..6 {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = search(
                &pos,
                &[],
                eval,
                &tt,
                &limits,
                &SearchOptions::default(),
                &Control::default(),
                &|_| {},
            );
            let BestMove::Move(m, _) = r.best else {
                panic!("no move: {:?}", r.best);
            };
            assert!(pos.legal_moves().contains(&m));
            pos.make_move(m);
        }
    }
    check(rules_9x9(VariantName::Shogi).unwrap(), Buckets::Nine, 4);
    check(
        rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap(),
        Buckets::One,
        2,
    );
}

/// An SFEN with its files mirrored (each rank read backwards).
fn mirror_sfen(sfen: &str) -> String {
    let mut parts: Vec<String> = sfen.split(' ').map(str::to_string).collect();
    let ranks: Vec<String> = parts[0]
        .split('/')
        .map(|rank| {
            let mut cells: Vec<String> = Vec::new();
            let mut chars = rank.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    cells.extend((0..d).map(|_| String::new()));
                } else if c == '+' {
                    cells.push(format!("+{}", chars.next().unwrap()));
                } else {
                    cells.push(c.to_string());
                }
            }
            cells.reverse();
            let mut out = String::new();
            let mut empty = 0;
            for cell in cells {
                if cell.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&cell);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    parts[0] = ranks.join("/");
    parts.join(" ")
}

#[test]
fn mirrored_features_are_those_of_the_mirrored_position() {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let f = Features::new(rules, Buckets::Nine);
    let mut pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
    for m in ["7g7f", "3c3d", "5i6h", "5a4b", "8h2b+", "3a2b", "B*5e"] {
        let m = pos.parse_move(m).unwrap();
        pos.make_move(m);
    }
    let sfen = pos.to_sfen();
    let mirrored = Position::from_sfen(rules, &mirror_sfen(&sfen), SfenMode::Strict).unwrap();
    assert_ne!(mirrored.to_sfen(), sfen);
    for p in Color::ALL {
        let (mut a, mut b, mut plain) = (Vec::new(), Vec::new(), Vec::new());
        f.active_mirrored(&pos, p, &mut a);
        f.active(&mirrored, p, &mut b);
        f.active(&pos, p, &mut plain);
        a.sort_unstable();
        b.sort_unstable();
        plain.sort_unstable();
        assert_eq!(a, b, "{p:?}");
        assert_ne!(a, plain);
    }
}

/// The shipped nets read, and `Evaluator::new` evaluates with them (a
/// residual net: the linear evaluation plus its own output).
#[test]
fn shipped_nets_are_read_and_used() {
    use crate::Evaluator;
    for variant in [VariantName::Shogi, VariantName::CannonShogi] {
        let rules = rules_9x9(variant).unwrap();
        assert!(Evaluator::has_shipped_net(rules), "{variant}");
        let eval = Evaluator::new(rules);
        let net = eval.net().expect("the shipped net reads");
        assert!(net.residual, "{variant}");
        assert!(net.about.contains("train-nnue"), "{}", net.about);
        assert!(Evaluator::linear(rules).net().is_none());
        let mut pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
        let m = pos.legal_moves()[3];
        pos.make_move(m);
        assert_eq!(
            eval.evaluate(&pos),
            eval.evaluate_linear(&pos) + net.evaluate(&pos),
            "{variant}"
        );
    }
    let mini = rules_9x9(VariantName::MiniShogi).unwrap();
    assert_eq!(
        Evaluator::has_shipped_net(mini),
        Evaluator::new(mini).net().is_some()
    );
    let dd = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
    assert_eq!(
        Evaluator::has_shipped_net(dd),
        Evaluator::new(dd).net().is_some()
    );
}
