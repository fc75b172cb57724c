//! Round trips record -> text -> record in every format, for the reference
//! games, a handicap game and the corpus under tests/data.

use banmen_formats::{read, write, EndReason, Format, GameResult, Record};
use banmen_rules::{Color, VariantName};
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
        Format::Ki2 => e.times.clear(),
        _ => {}
    }
    e
}

fn round_trip(name: &str, rec: &Record) {
    for f in Format::ALL {
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
fn cannon_shogi_in_the_formats_that_have_its_pieces() {
    let rec = read(
        b"setoption name USI_Variant value cannonshogi\nposition startpos moves 7g7f 3c3d 8h7g 2b3c",
        None,
    )
    .unwrap();
    assert_eq!(rec.variant, VariantName::CannonShogi);
    for f in [
        Format::Kifu,
        Format::Ki2,
        Format::Sfen,
        Format::Usi,
        Format::Western,
        Format::Japanese,
    ] {
        let bytes = write(&rec, f).unwrap_or_else(|e| panic!("{f}: {e}"));
        let back = read(&bytes, Some(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(back.moves, rec.moves, "{f}");
        assert_eq!(back.variant, VariantName::CannonShogi, "{f}");
    }
    assert!(write(&rec, Format::Csa).is_err());
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
        assert!(err.to_string().starts_with("line "), "{name}: {err}");
        // Read in every other format too: an error or a record, never a panic.
        for f in Format::ALL {
            let _ = read(&bytes, Some(f));
        }
        n += 1;
    }
    assert!(n >= 20);
}

#[test]
fn truncated_and_mangled_inputs_never_panic() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for name in [
        "sjis-comments-branch.kif",
        "utf8-game.kifu",
        "v22-no-encoding.csa",
        "tsume.kifu",
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
