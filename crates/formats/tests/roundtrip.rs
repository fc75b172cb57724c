//! Round trips record -> text -> record in every format, for the reference
//! games, a handicap game and the corpus under tests/data.

use banmen_formats::{read, write, Comment, EndReason, Format, GameResult, Record, Variation};
use banmen_rules::{AnyRules, BitBoard, Color, Move, Position, Rules, SfenMode, VariantName};
use std::path::PathBuf;

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rules/tests/data/games")
}

fn data(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The three reference games as records (start position, moves).
fn reference_games() -> Vec<(String, Record)> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(games_dir())
        .expect("games dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).expect("read");
        let moves: String = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let line = format!("position startpos moves {moves}");
        let rec = read(line.as_bytes(), Some(Format::Usi)).expect("reference game");
        out.push((p.file_name().unwrap().to_string_lossy().into_owned(), rec));
    }
    assert_eq!(out.len(), 3);
    out
}

fn handicap_game() -> Record {
    // 香落ち: White (the giver) moves first.
    let mut rec = read(
        b"position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d 7g7f 2b7g+ 8h7g",
        Some(Format::Usi),
    )
    .expect("handicap");
    rec.headers.black = Some("下手さん".into());
    rec.headers.white = Some("上手さん".into());
    // White is to move after four moves and resigns.
    rec.result = Some(GameResult {
        winner: Some(Color::Black),
        reason: EndReason::Resignation,
    });
    rec
}

/// What each format keeps.
fn expected_after(rec: &Record, f: Format) -> Record {
    let mut e = rec.clone();
    match f {
        Format::Sfen | Format::Usi => {
            e.headers = Default::default();
            e.times.clear();
            e.result = rec.rules_result();
        }
        Format::Western | Format::Japanese => {
            e.headers.comments.clear();
            e.times.clear();
        }
        Format::Ki2 => {
            e.times.clear();
            clear_times(&mut e.variations);
        }
        // CSA keeps every header: as a `$` field or a `'key：value` comment.
        _ => {}
    }
    if !f.holds_variations() {
        e.variations.clear();
    }
    // CSA, JKF and the KIF board diagram have no move number.
    let diagram = matches!(f, Format::Csa | Format::Jkf)
        || matches!(f, Format::Kif | Format::Kifu | Format::Ki2)
            && rec.variant == VariantName::Shogi;
    if diagram {
        let mut fields: Vec<&str> = e.start.split_whitespace().collect();
        if fields.len() == 4 {
            fields[3] = "1";
            e.start = fields.join(" ");
        }
    }
    e
}

/// KI2 has no times, in variations either.
fn clear_times(variations: &mut [Variation]) {
    for v in variations {
        v.times.clear();
        clear_times(&mut v.variations);
    }
}

fn round_trip(name: &str, rec: &Record) {
    for f in Format::ALL {
        if f == Format::Jkf && !matches!(rec.variant, VariantName::Shogi | VariantName::CannonShogi)
        {
            let err = write(rec, f).expect_err("JKF refuses boards other than 9x9");
            assert!(err.contains("JKF holds 9x9 games only"), "{err}");
            continue;
        }
        let bytes = write(rec, f).unwrap_or_else(|e| panic!("{name} {f}: write: {e}"));
        let back = read(&bytes, Some(f)).unwrap_or_else(|e| {
            panic!("{name} {f}: read: {e}\n{}", String::from_utf8_lossy(&bytes))
        });
        let shown = banmen_formats::read(&bytes, Some(Format::Kif))
            .map(|_| ())
            .err();
        assert_eq!(
            back,
            expected_after(rec, f),
            "{name} {f}:\n{}{shown:?}",
            String::from_utf8_lossy(
                &write(rec, if f == Format::Kif { Format::Kifu } else { f }).unwrap()
            )
        );
        // Guessing the format from the content gives the same record.
        if f != Format::Kif {
            let guessed = read(&bytes, None).unwrap_or_else(|e| panic!("{name} {f} guessed: {e}"));
            assert_eq!(
                guessed.moves,
                rec.moves,
                "{name} {f} guessed as {}",
                Format::guess(&bytes)
            );
        }
    }
}

#[test]
fn reference_games_round_trip_in_every_format() {
    for (name, mut rec) in reference_games() {
        rec.headers.black = Some("Sente".into());
        rec.headers.white = Some("Gote".into());
        rec.headers.start_date = Some("2024/01/02 10:00:00".into());
        round_trip(&name, &rec);
    }
}

#[test]
fn reference_results_come_from_the_rules() {
    let games = reference_games();
    let find = |s: &str| {
        games
            .iter()
            .find(|(n, _)| n.contains(s))
            .expect(s)
            .1
            .clone()
    };
    assert_eq!(
        find("fourfold").result.map(|r| r.reason),
        Some(EndReason::Repetition)
    );
    let pc = find("perpetual").result.expect("result");
    assert_eq!(
        (pc.winner, pc.reason),
        (Some(Color::White), EndReason::PerpetualCheck)
    );
    assert_eq!(find("kings-in-camp").result, None);
}

#[test]
fn handicap_game_round_trips() {
    let rec = handicap_game();
    round_trip("handicap", &rec);
    let kif = String::from_utf8(write(&rec, Format::Kifu).unwrap()).unwrap();
    assert!(kif.contains("手合割：香落ち"), "{kif}");
    assert!(
        kif.contains("下手：下手さん") && kif.contains("上手：上手さん"),
        "{kif}"
    );
    let csa = String::from_utf8(write(&rec, Format::Csa).unwrap()).unwrap();
    assert!(csa.contains("P1-KY-KE-GI-KI-OU-KI-GI-KE * \n"), "{csa}");
    assert!(csa.contains("\n-\n-3334FU\n"), "{csa}");
    assert!(csa.ends_with("%TORYO\n"), "{csa}");
}

#[test]
fn every_handicap_is_read_from_kif() {
    let v = banmen_rules::Variant::standard();
    for h in &v.handicaps {
        let text = format!("手合割：{}\n手数----指手---------消費時間--\n", h.japanese);
        let rec = read(text.as_bytes(), Some(Format::Kifu)).expect(h.name);
        assert_eq!(rec.start, h.sfen, "{}", h.name);
        let back = read(&write(&rec, Format::Kifu).unwrap(), None).unwrap();
        assert_eq!(back.start, h.sfen);
    }
}

#[test]
fn times_and_comments_round_trip_in_kif_and_csa() {
    let mut rec = read(b"position startpos moves 7g7f 3c3d 8h2b+ 3a2b", None).unwrap();
    rec.times = vec![Some(3), Some(65), Some(1), Some(0)];
    rec.headers.comments = vec![
        banmen_formats::Comment {
            ply: 0,
            text: "opening".into(),
        },
        banmen_formats::Comment {
            ply: 3,
            text: "bishop trade".into(),
        },
    ];
    rec.result = Some(GameResult {
        winner: Some(Color::White),
        reason: EndReason::Resignation,
    });
    for f in [Format::Kif, Format::Kifu, Format::Csa] {
        let back = read(&write(&rec, f).unwrap(), Some(f)).unwrap();
        assert_eq!(back, rec, "{f}");
    }
    let v3 = banmen_formats::csa::write_v3(&rec).unwrap();
    assert!(v3.starts_with("'CSA encoding=UTF-8\nV3.0\n"));
    assert_eq!(read(v3.as_bytes(), None).unwrap(), rec);
}

#[test]
fn cannon_shogi_in_every_format() {
    let rec = read(
        b"setoption name USI_Variant value cannonshogi\nposition startpos moves 7g7f 3c3d 8h7g 2b3c",
        None,
    )
    .unwrap();
    assert_eq!(rec.variant, VariantName::CannonShogi);
    for f in Format::ALL {
        let bytes = write(&rec, f).unwrap_or_else(|e| panic!("{f}: {e}"));
        let back = read(&bytes, Some(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(back.moves, rec.moves, "{f}");
        assert_eq!(back.variant, VariantName::CannonShogi, "{f}");
    }
    let csa = String::from_utf8(write(&rec, Format::Csa).unwrap()).unwrap();
    assert!(
        csa.contains("$VARIANT:cannonshogi\nPI\n+\n+7776FU\n"),
        "{csa}"
    );
}

use banmen_rules::testing::XorShift as Rng;

/// Random legal moves, biased toward double moves, captures and promotions so
/// that the short games reach the notations' special cases.
fn random_moves<B: BitBoard>(
    rules: &'static Rules<B>,
    start: &str,
    seed: u64,
    plies: usize,
) -> Vec<String> {
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut pos = Position::from_sfen(rules, start, SfenMode::Strict).expect("start");
    let mut out = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let pick = |rng: &mut Rng, set: Vec<Move>| set[rng.below(set.len())];
        // Double moves that capture on the way (not passes).
        let doubles: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.mid().is_some_and(|x| pos.piece_at(x).is_some()))
            .collect();
        let captures: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                pos.piece_at(m.to())
                    .is_some_and(|p| p.color != pos.side_to_move())
                    || m.is_promotion()
            })
            .collect();
        let m = match rng.below(10) {
            0..=2 if !doubles.is_empty() => pick(&mut rng, doubles),
            3..=5 if !captures.is_empty() => pick(&mut rng, captures),
            _ => pick(&mut rng, legal.to_vec()),
        };
        out.push(pos.move_to_usi(m));
        pos.make_move(m);
    }
    out
}

/// A random game with headers, comments, times and a result.
fn random_record(variant: VariantName, rules: &str, seed: u64, plies: usize) -> Record {
    random_record_from(variant, rules, None, seed, plies)
}

fn random_record_from(
    variant: VariantName,
    rules: &str,
    start: Option<&str>,
    seed: u64,
    plies: usize,
) -> Record {
    let mut rec = Record::new(variant);
    rec.rules = rules.to_string();
    if let Some(s) = start {
        rec.start = s.to_string();
    }
    rec.moves = match rec.any_rules().expect("rules") {
        AnyRules::Nine(r) => random_moves(r, &rec.start, seed, plies),
        AnyRules::Seventeen(r) => random_moves(r, &rec.start, seed, plies),
    };
    rec.headers.black = Some(format!("Black {seed}"));
    rec.headers.white = Some("White".into());
    rec.headers.start_date = Some("2024/05/06 07:08:09".into());
    rec.headers.event = Some(format!("{variant} test"));
    rec.headers.comments = vec![
        Comment {
            ply: 0,
            text: "before the first move".into(),
        },
        Comment {
            ply: 3.min(rec.moves.len()),
            text: "after three".into(),
        },
    ];
    rec.times = (0..rec.moves.len())
        .map(|i| Some((i as u32 * 7) % 90))
        .collect();
    let first = if rec.start.contains(" w ") {
        Color::White
    } else {
        Color::Black
    };
    let to_move = if rec.moves.len() % 2 == 0 {
        first
    } else {
        !first
    };
    rec.result = rec.rules_result().or(Some(GameResult {
        winner: Some(!to_move),
        reason: EndReason::Resignation,
    }));
    rec
}

#[test]
fn random_games_of_every_game_round_trip_in_every_format() {
    let cases: [(VariantName, &str, Option<&str>, u64, usize); 10] = [
        (VariantName::Shogi, "", None, 4, 120),
        (VariantName::Shogi, "", None, 5, 200),
        (VariantName::Shogi, "", Some(TWO_PIECES), 6, 100),
        (VariantName::CannonShogi, "", None, 3, 150),
        (VariantName::CannonShogi, "flying-cannon=leap", None, 4, 150),
        (VariantName::CannonShogi, "", Some(CANNON_MIDGAME), 5, 100),
        (VariantName::DaiDaiShogi, "", None, 1, 300),
        (VariantName::DaiDaiShogi, "", None, 2, 300),
        (VariantName::DaiDaiShogi, "lion-dog=ja", None, 3, 300),
        (VariantName::DaiDaiShogi, "", Some(DAI_DAI_CROWDED), 9, 150),
    ];
    let mut doubles = 0;
    for (variant, rules, start, seed, plies) in cases {
        let rec = random_record_from(variant, rules, start, seed, plies);
        let squares = |m: &String| m.matches(char::is_alphabetic).count();
        doubles += rec.moves.iter().filter(|m| squares(m) == 3).count();
        println!(
            "{variant} {rules} seed {seed}: {} plies, {} double, {} triple, {} promoting, result {:?}",
            rec.moves.len(),
            rec.moves.iter().filter(|m| squares(m) == 3).count(),
            rec.moves.iter().filter(|m| squares(m) == 4).count(),
            rec.moves.iter().filter(|m| m.ends_with('+')).count(),
            rec.result
        );
        round_trip(&format!("{variant} {rules} seed {seed}"), &rec);
    }
    assert!(
        doubles >= 5,
        "the dai dai games made {doubles} double moves"
    );
}

/// Two-piece handicap (White moves first).
const TWO_PIECES: &str = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
/// A cannon shogi position with pieces in hand, Black to move.
const CANNON_MIDGAME: &str =
    "lnsgkgsnl/1rci1u1b1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1IC2/LNSGKGSNL b Ra 1";
/// `game-a32-p250` of crates/rules/tests/data/perft-daidai.tsv: a crowded dai dai middle game.
const DAI_DAI_CROWDED: &str = "dv2rosqdk1nklg2frdhra1lola/1po2fdrbft1kgggfkcs4rv/3ebbmfhggrg2ph2effevm1/1weso1krsn3cgsd1wgwrnook1/3ab3cg2fl1snab1smbd/3pa1gd4ig4palc/4pa1igwg4ew3pa/1vo2eafl5pa5/17/17/2PA1PA3VB6PA1/1PAVOPA1PACG5PAPA1SMPA/3ABEW2IG2IGSGLDABEA1RC/1FE1WR1SNGG1KR2SNWGEBSO2/1VMOREFWBPSPHSGGDNK1FHFTFD1BIRV/1OKLODH1CS1LG1GGRGSQ1BM1PO1/2SDRA1FRFKKG3DKRO1DVHMLA b - 251";

/// White king 9a, Black king 9q, Black lion 9i facing a white gold on 10h and
/// pawns on 9h and 8h.
const LION: &str = "8kg8/17/17/17/17/17/17/7ggpapa7/8LN8/17/17/17/17/17/17/17/8KG8 b - 1";

#[test]
fn lion_moves_in_every_notation() {
    for (usi, western, japanese, csa) in [
        (
            "9i9h9i+",
            "LNx!9h+",
            "９九獅子成(0909,0908)",
            "+090909080909+LN",
        ),
        (
            "9i9h8h+",
            "LNx9hx8h+",
            "８八獅子成(0909,0908)",
            "+090909080808+LN",
        ),
        (
            "9i9h9g+",
            "LNx9h-9g+",
            "９七獅子成(0909,0908)",
            "+090909080907+LN",
        ),
        (
            "9i10i9i",
            "LN-!10i",
            "９九獅子(0909,1009)",
            "+090910090909LN",
        ),
        ("9i10h+", "LNx10h+", "１０八獅子成", "+09091008+LN"),
        ("9i7g", "LN-7g", "７七獅子", "+09090707LN"),
    ] {
        let line = format!(
            "setoption name USI_Variant value daidaishogi\nposition sfen {LION} moves {usi}"
        );
        let mut rec = read(line.as_bytes(), None).unwrap_or_else(|e| panic!("{usi}: {e}"));
        assert_eq!(rec.moves, [usi]);
        rec.result = Some(GameResult {
            winner: Some(Color::Black),
            reason: EndReason::Resignation,
        });
        round_trip(usi, &rec);
        let text = |f| String::from_utf8(write(&rec, f).unwrap()).unwrap();
        assert!(
            text(Format::Western).contains(&format!("1. {western}\n")),
            "{}",
            text(Format::Western)
        );
        assert!(
            text(Format::Japanese).contains(&format!("1. ▲{japanese}\n")),
            "{}",
            text(Format::Japanese)
        );
        assert!(
            text(Format::Csa).contains(&format!("\n{csa}\n")),
            "{}",
            text(Format::Csa)
        );
        // KIF always gives the origin.
        let kif = text(Format::Kifu);
        let origin = if japanese.contains('(') {
            String::new()
        } else {
            "(0909)".into()
        };
        assert!(kif.contains(&format!("{japanese}{origin}")), "{kif}");
        assert!(kif.contains("将棋種類：daidaishogi\nSFEN："), "{kif}");
    }
    // The Japanese lion dog (`lion-dog=ja`) captures on both squares it passes.
    let start = "8kg8/17/17/17/17/17/8pa8/8pa8/8LD8/17/17/17/17/17/17/17/8KG8 b - 1";
    let line = format!("setoption name USI_Variant value daidaishogi\nsetoption name Rules value lion-dog=ja\nposition sfen {start} moves 9i9h9g9f+");
    let rec = read(line.as_bytes(), None).unwrap();
    assert_eq!(rec.rules, "lion-dog=ja");
    round_trip("lion dog", &rec);
    let text = |f| String::from_utf8(write(&rec, f).unwrap()).unwrap();
    assert!(
        text(Format::Western).contains("1. LDx9hx9g-9f+\n"),
        "{}",
        text(Format::Western)
    );
    assert!(
        text(Format::Csa).contains("$RULES:lion-dog=ja\n"),
        "{}",
        text(Format::Csa)
    );
    assert!(
        text(Format::Csa).contains("\n+0909090809070906+LD\n"),
        "{}",
        text(Format::Csa)
    );
    assert!(
        text(Format::Kifu).contains("ルール：lion-dog=ja\n"),
        "{}",
        text(Format::Kifu)
    );
    assert!(
        text(Format::Kifu).contains("９六狛犬成(0909,0908,0907)"),
        "{}",
        text(Format::Kifu)
    );
    // The seed's abbreviations and any empty neighbour for a pass are read too.
    let line = format!("setoption name USI_Variant value daidaishogi\nposition sfen {LION}");
    let rec = read(line.as_bytes(), None).unwrap();
    for (text, usi) in [
        ("Lnx!9h", "9i9h9i+"),
        ("Ln-!8i", "9i10i9i"),
        ("LN9ix9hx8h+", "9i9h8h+"),
    ] {
        let list = format!(
            "[Variant \"daidaishogi\"]\n[SFEN \"{}\"]\n1. {text}\n",
            rec.start
        );
        let back =
            read(list.as_bytes(), Some(Format::Western)).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.moves, [usi], "{text}");
    }
}

#[test]
fn dai_dai_kif_names_and_squares() {
    let rec = random_record(VariantName::DaiDaiShogi, "", 7, 40);
    let kif = String::from_utf8(write(&rec, Format::Kifu).unwrap()).unwrap();
    assert!(kif.starts_with("将棋種類：daidaishogi\n"), "{kif}");
    assert!(kif.contains("\n手合割：平手\n"), "{kif}");
    // Shift-JIS has no 𠵇: .kif writes 吠犬 and reads it back.
    let line = "setoption name USI_Variant value daidaishogi\nposition startpos moves 12k12j";
    let rec = read(line.as_bytes(), None).unwrap();
    let kifu = String::from_utf8(write(&rec, Format::Kifu).unwrap()).unwrap();
    assert!(kifu.contains("１２十𠵇犬(1211)"), "{kifu}");
    let kif = write(&rec, Format::Kif).unwrap();
    let (text, _, _) = encoding_rs::SHIFT_JIS.decode(&kif);
    assert!(text.contains("１２十吠犬(1211)"), "{text}");
    assert_eq!(read(&kif, None).unwrap().moves, rec.moves);
}

#[test]
fn shift_jis_kif_with_comments_and_a_branch() {
    let bytes = data("sjis-comments-branch.kif");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the file is Shift-JIS"
    );
    let rec = read(&bytes, None).expect("kif");
    assert_eq!(rec.moves, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(rec.headers.black.as_deref(), Some("山田"));
    assert_eq!(rec.headers.white.as_deref(), Some("佐藤"));
    assert_eq!(
        rec.headers.start_date.as_deref(),
        Some("2023/04/01 10:00:00")
    );
    assert_eq!(rec.headers.event.as_deref(), Some("練習対局"));
    let comments: Vec<(usize, &str)> = rec
        .headers
        .comments
        .iter()
        .map(|c| (c.ply, c.text.as_str()))
        .collect();
    assert_eq!(comments, [(0, "対局前のコメント"), (1, "角道を開ける")]);
    assert_eq!(rec.times, [Some(5), Some(3), Some(10), Some(2), Some(30)]);
    assert_eq!(
        rec.result,
        Some(GameResult {
            winner: Some(Color::Black),
            reason: EndReason::Resignation
        })
    );
    round_trip("sjis", &rec);
}

#[test]
fn utf8_kifu_game() {
    let rec = read(&data("utf8-game.kifu"), None).expect("kifu");
    assert_eq!(rec.moves.len(), 11);
    assert_eq!(rec.moves[9], "P*2c");
    assert_eq!(
        rec.result.map(|r| (r.winner, r.reason)),
        Some((None, EndReason::Abort))
    );
    round_trip("kifu", &rec);
}

#[test]
fn csa_v22_without_encoding_line() {
    let rec = read(&data("v22-no-encoding.csa"), None).expect("csa");
    assert_eq!(rec.moves, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    assert_eq!(rec.times, [Some(12), Some(5), Some(3), Some(1)]);
    assert_eq!(rec.headers.event.as_deref(), Some("test"));
    assert_eq!(rec.result.map(|r| r.winner), Some(Some(Color::White)));
    round_trip("csa", &rec);
}

#[test]
fn tsume_diagram_kif() {
    let rec = read(&data("tsume.kifu"), None).expect("tsume");
    assert_eq!(rec.start, "7k1/9/7P1/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    assert_eq!(rec.moves, ["G*2b"]);
    assert_eq!(rec.result.map(|r| r.reason), Some(EndReason::Checkmate));
    round_trip("tsume", &rec);
    let kif = String::from_utf8(write(&rec, Format::Kifu).unwrap()).unwrap();
    assert!(kif.contains("| ・ ・ ・ ・ ・ ・ ・v玉 ・|一"), "{kif}");
}

#[test]
fn shift_jis_handicap_kif_with_a_branch() {
    let bytes = data("handicap-two-pieces.kif");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the file is Shift-JIS"
    );
    let rec = read(&bytes, None).expect("kif");
    let two = banmen_rules::Variant::standard();
    assert_eq!(rec.start, two.handicap("two-pieces").unwrap().sfen);
    assert_eq!(
        rec.moves,
        ["7a6b", "7g7f", "5c5d", "2g2f", "6b5c", "2f2e", "4a4b", "2e2d", "2c2d", "2h2d"]
    );
    assert_eq!(rec.headers.white.as_deref(), Some("上手太郎"));
    assert_eq!(rec.headers.black.as_deref(), Some("下手花子"));
    assert_eq!(rec.times[4], Some(6));
    let comments: Vec<(usize, &str)> = rec
        .headers
        .comments
        .iter()
        .map(|c| (c.ply, c.text.as_str()))
        .collect();
    assert_eq!(comments, [(0, "二枚落ちの定跡で"), (4, "銀多伝を目指す")]);
    assert!(rec
        .headers
        .other
        .contains(&("持ち時間".into(), "各10分".into())));
    assert_eq!(
        rec.result,
        Some(GameResult {
            winner: Some(Color::Black),
            reason: EndReason::Resignation
        })
    );
    round_trip("handicap kif", &rec);
    let kif = String::from_utf8(write(&rec, Format::Kifu).unwrap()).unwrap();
    assert!(
        kif.contains("手合割：二枚落ち\n上手：上手太郎\n")
            || kif.contains("手合割：二枚落ち\n下手：下手花子\n上手：上手太郎\n"),
        "{kif}"
    );
    assert!(kif.contains("まで10手で下手の勝ち"), "{kif}");
}

#[test]
fn csa_tsume_with_the_rest_in_white_hand() {
    let rec = read(&data("tsume-00al.csa"), None).expect("csa");
    let kif = read(&data("tsume.kifu"), None).expect("kifu");
    assert_eq!(rec.start, kif.start);
    assert_eq!(rec.moves, ["G*2b"]);
    assert_eq!(rec.result.map(|r| r.reason), Some(EndReason::Checkmate));
    round_trip("tsume csa", &rec);
    // P+00AL fills Black's hand instead, and a hand listed before it is kept.
    let text = "PI\nP-00HI\nP+00AL\n+\n";
    let text = text.replace(
        "PI\n",
        &format!(
            "P1 *  *  *  *  *  *  * -OU * \n{}P9 *  *  *  *  *  *  *  *  * \n",
            (2..9)
                .map(|r| format!("P{r} *  *  *  *  *  *  *  *  * \n"))
                .collect::<String>()
        ),
    );
    let rec = read(text.as_bytes(), Some(Format::Csa)).expect("00AL");
    assert_eq!(rec.start, "7k1/9/9/9/9/9/9/9/9 b R2B4G4S4N4L18Pr 1");
}

#[test]
fn csa_v30_with_encoding_line_and_crlf() {
    let rec = read(&data("v30-utf8.csa"), None).expect("csa");
    assert_eq!(rec.moves, ["2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"]);
    assert_eq!(
        rec.times,
        [Some(1), Some(2), Some(0), Some(3), Some(10), Some(4)]
    );
    assert_eq!(rec.headers.black.as_deref(), Some("先手名人"));
    assert_eq!(rec.headers.event.as_deref(), Some("第1期テスト戦"));
    assert!(rec
        .headers
        .other
        .contains(&("戦型".into(), "相掛かり".into())));
    assert_eq!(
        rec.result,
        Some(GameResult {
            winner: Some(Color::White),
            reason: EndReason::Resignation
        })
    );
    round_trip("csa v3", &rec);
}

#[test]
fn ki2_with_relative_words_and_a_comment() {
    let rec = read(&data("game.ki2"), None).expect("ki2");
    assert_eq!(rec.moves.len(), 26);
    assert_eq!(rec.moves[10], "6i5h");
    assert_eq!(rec.moves[11], "4a5b");
    assert_eq!(&rec.moves[24..], ["4f4e", "4b4e"]);
    assert_eq!(rec.comments_at(12).collect::<Vec<_>>(), ["右四間飛車模様"]);
    assert_eq!(rec.headers.white.as_deref(), Some("乙"));
    round_trip("ki2", &rec);
}

/// Each broken file: the line its error must name, and a word of the reason.
const BROKEN_LINES: [(&str, usize, &str); 36] = [
    ("after-end.csa", 5, "after the end"),
    ("ambiguous.western", 1, "ambiguous"),
    ("bad-al.csa", 3, "bad piece list"),
    ("bad-hand.kifu", 1, "bad hand piece"),
    ("bad-header.japanese", 1, "header"),
    ("bad-number.kifu", 3, "expected move number 2"),
    ("bad-piece.csa", 4, "unknown piece"),
    ("bad-row.csa", 2, "P1 has 2 squares, needs 9"),
    ("bad-rules.csa", 3, "flying-cannon"),
    ("bad-sfen.sfen", 1, "expected 9 ranks"),
    ("bad-square.csa", 4, "bad move"),
    ("cannon-bad-code.csa", 5, "unknown piece"),
    ("cannon-bad-move.kifu", 4, "not a legal move"),
    ("daidai-bad-lion.csa", 5, "no piece on 0909"),
    ("daidai-bad-origin.kifu", 3, "bad origin"),
    ("daidai-bad-rules.kifu", 2, "lion-dog"),
    ("daidai-bad-square.csa", 5, "bad square"),
    (
        "daidai-diagram.kifu",
        4,
        "board diagrams are for 9x9 and 5x5 games",
    ),
    ("daidai-double.usi", 2, "double move"),
    ("daidai-igui.western", 3, "not a legal move"),
    ("daidai-illegal-lion.kifu", 4, "not a legal move"),
    ("daidai-pawns.ki2", 4, "it is white's move"),
    ("daidai-unknown-piece.japanese", 3, "no piece name"),
    ("garbage.kifu", 2, "cannot read"),
    ("illegal-move.kifu", 4, "not a legal move"),
    ("illegal.csa", 4, "cannot move there"),
    ("illegal.usi", 1, "no piece on 7g"),
    ("kanji-garbage.ki2", 2, "not a legal move"),
    ("no-position.csa", 2, "before the start position"),
    ("nonsense.western", 1, "unknown piece"),
    ("not-legal.japanese", 1, "not a legal move"),
    ("short-board-row.kifu", 2, "9 squares"),
    ("truncated-board.kifu", 2, "9 rows"),
    ("unknown-handicap.kifu", 1, "unknown handicap"),
    ("unknown-variant.csa", 2, "unknown variant"),
    ("wrong-side.csa", 4, "it is black's move"),
];

#[test]
fn broken_files_are_errors_with_a_line_number() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/broken");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("broken dir") {
        let p = entry.expect("entry").path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let ext = name.rsplit('.').next().unwrap_or("");
        let format: Format = ext.parse().expect("extension names the format");
        let bytes = std::fs::read(&p).unwrap();
        let err = read(&bytes, Some(format)).expect_err(&name);
        assert!(err.line >= 1, "{name}: {err}");
        let expected = BROKEN_LINES
            .iter()
            .find(|(n, _, _)| *n == name)
            .unwrap_or_else(|| panic!("{name}: add it to BROKEN_LINES"));
        assert_eq!(err.line, expected.1, "{name}: {err}");
        assert!(err.message.contains(expected.2), "{name}: {err}");
        assert!(err.to_string().starts_with("line "), "{name}: {err}");
        // Read in every other format too: an error or a record, never a panic.
        for f in Format::ALL {
            let _ = read(&bytes, Some(f));
        }
        n += 1;
    }
    assert_eq!(n, BROKEN_LINES.len());
}

#[test]
fn truncated_and_mangled_inputs_never_panic() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for name in [
        "sjis-comments-branch.kif",
        "utf8-game.kifu",
        "v22-no-encoding.csa",
        "tsume.kifu",
        "nested-variations.kifu",
        "jkf/same_move_minimal.jkf",
    ] {
        inputs.push(data(name));
    }
    for bytes in inputs {
        for cut in 0..bytes.len() {
            for f in Format::ALL {
                let _ = read(&bytes[..cut], Some(f));
            }
        }
    }
}

#[test]
fn every_ending_round_trips_in_kif_ki2_csa_and_the_lists() {
    let base = read(b"position startpos moves 7g7f 3c3d 8h2b+ 3a2b", None).unwrap();
    // Black is to move after four plies.
    let (mover, other) = (Some(Color::Black), Some(Color::White));
    let endings = [
        (other, EndReason::Resignation),
        (None, EndReason::Abort),
        (other, EndReason::Timeout),
        (mover, EndReason::IllegalMove),
        (other, EndReason::IllegalMove),
        (mover, EndReason::Declaration),
        (None, EndReason::Impasse),
    ];
    for (winner, reason) in endings {
        let mut rec = base.clone();
        rec.result = Some(GameResult { winner, reason });
        for f in [
            Format::Kif,
            Format::Kifu,
            Format::Ki2,
            Format::Csa,
            Format::Western,
            Format::Japanese,
        ] {
            let bytes = write(&rec, f).unwrap();
            let back = read(&bytes, Some(f)).unwrap();
            assert_eq!(
                back.result,
                rec.result,
                "{f} {reason:?}:\n{}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
}
