//! A record is a tree: variations (`変化：N手`) in KIF and KI2 are read,
//! checked move by move, written back in Kifu for Windows' layout, and
//! dropped by the formats that hold the main line only.

use banmen_formats::{read, write, EndReason, Format, GameResult, Record, Variation};
use banmen_rules::Color;

/// Main line 7g7f 3c3d 2g2f 8c8d, resigned; at move 3 two alternatives, the
/// first with its own branch at move 4; at move 2 one alternative.
const NESTED_KIF: &str = include_str!("data/nested-variations.kifu");

fn var(ply: usize, moves: &[&str]) -> Variation {
    Variation {
        ply,
        moves: moves.iter().map(|m| m.to_string()).collect(),
        ..Variation::default()
    }
}

fn resigned(winner: Color) -> Option<GameResult> {
    Some(GameResult {
        winner: Some(winner),
        reason: EndReason::Resignation,
    })
}

fn nested() -> Record {
    read(NESTED_KIF.as_bytes(), Some(Format::Kifu)).expect("the nested KIF reads")
}

#[test]
fn kif_variations_are_read_as_a_tree() {
    let rec = nested();
    assert_eq!(rec.moves, ["7g7f", "3c3d", "2g2f", "8c8d"]);
    assert_eq!(rec.result, resigned(Color::White));
    let mut first = var(3, &["6g6f", "8c8d"]);
    first.times = vec![Some(5), Some(0)];
    first.comments = vec![banmen_formats::Comment {
        ply: 3,
        text: "振り飛車".into(),
    }];
    let mut inner = var(4, &["4c4d"]);
    inner.result = resigned(Color::White);
    first.variations = vec![inner];
    let second = var(3, &["5g5f"]);
    let third = var(2, &["8c8d", "2g2f"]);
    // By ply; at one ply in the order read.
    assert_eq!(rec.variations, [third, first, second]);
}

#[test]
fn kif_with_nested_variations_round_trips() {
    let rec = nested();
    for f in [Format::Kifu, Format::Kif] {
        let bytes = write(&rec, f).expect("write");
        let back = read(&bytes, Some(f)).expect("read back");
        assert_eq!(back, rec, "{f}");
        assert_eq!(write(&back, f).unwrap(), bytes, "{f} writes the same again");
    }
    let text = String::from_utf8(write(&rec, Format::Kifu).unwrap()).unwrap();
    // Kifu for Windows' layout: `+` where a later variation branches, the
    // variations from the last branch back to the first.
    let lines: Vec<&str> = text.lines().collect();
    let at = |prefix: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line {prefix}\n{text}"))
    };
    assert!(lines[at("   2 ３四歩")].ends_with('+'), "{text}");
    assert!(lines[at("   3 ２六歩")].ends_with('+'), "{text}");
    assert!(lines[at("   3 ６六歩")].ends_with('+'), "{text}");
    assert!(!lines[at("   4 ８四歩")].ends_with('+'), "{text}");
    let branches: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("変化"))
        .copied()
        .collect();
    assert_eq!(
        branches,
        ["変化：3手", "変化：4手", "変化：3手", "変化：2手"]
    );
    // The time totals of a variation go on from its branch point.
    assert!(
        text.contains("   3 ６六歩(67)    ( 0:05/00:00:06)+"),
        "{text}"
    );
}

#[test]
fn ki2_with_nested_variations_round_trips() {
    let rec = nested();
    let bytes = write(&rec, Format::Ki2).expect("write ki2");
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(
        text.contains("\n変化：4手\n△４四歩\nまで4手で後手の勝ち\n"),
        "{text}"
    );
    let back = read(&bytes, Some(Format::Ki2)).expect("read ki2");
    let mut expected = rec.clone();
    expected.times.clear();
    expected.variations[1].times.clear();
    assert_eq!(back, expected);
    assert_eq!(write(&back, Format::Ki2).unwrap(), bytes);
}

#[test]
fn ki2_variations_as_kifu_for_windows_writes_them_are_read() {
    let text = "\
手合割：平手
▲７六歩    △３四歩    ▲２二角成    △同　銀
まで4手で中断

変化：3手
▲２六歩    △８四歩

変化：4手
△８八角成    ▲同　銀
";
    let rec = read(text.as_bytes(), Some(Format::Ki2)).expect("ki2");
    assert_eq!(rec.moves, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let mut v = var(3, &["2g2f", "8c8d"]);
    // `同` in a variation refers to the move before it on its own line.
    v.variations = vec![var(4, &["2b8h+", "7i8h"])];
    assert_eq!(rec.variations, [v]);
}

#[test]
fn an_illegal_move_in_a_variation_is_refused_with_its_line() {
    let text = "\
手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２六歩(27)

変化：2手
   2 ８四歩(83)
   3 ２二角成(88)
";
    let err = read(text.as_bytes(), Some(Format::Kifu)).expect_err("blocked bishop");
    assert_eq!(err.line, 9, "{err}");
    let text = "▲７六歩    △３四歩\n\n変化：2手\n△５五角\n";
    let err = read(text.as_bytes(), Some(Format::Ki2)).expect_err("no bishop reaches");
    assert_eq!(err.line, 4, "{err}");
}

#[test]
fn a_variation_past_the_line_read_last_is_refused() {
    let text = "\
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)

変化：4手
   4 ８四歩(83)
";
    let err = read(text.as_bytes(), Some(Format::Kifu)).expect_err("no move 3");
    assert_eq!(err.line, 5, "{err}");
    assert!(err.message.contains("move 4"), "{err}");
    let wrong_number = "   1 ７六歩(77)\n   2 ３四歩(33)\n\n変化：2手\n   3 ８四歩(83)\n";
    let err = read(wrong_number.as_bytes(), Some(Format::Kifu)).expect_err("numbered 3");
    assert_eq!(err.line, 5, "{err}");
}

#[test]
fn formats_without_variations_write_the_main_line() {
    let rec = nested();
    for f in [Format::Csa, Format::Sfen, Format::Usi, Format::Western] {
        let back = read(&write(&rec, f).unwrap(), Some(f)).unwrap();
        assert_eq!(back.moves, rec.moves, "{f}");
        assert!(back.variations.is_empty(), "{f}");
    }
    let main = rec.mainline();
    assert!(main.variations.is_empty() && main.moves == rec.moves);
    let kif = write(&main, Format::Kifu).unwrap();
    assert!(!String::from_utf8(kif).unwrap().contains("変化"));
}

#[test]
fn a_variation_instead_of_resigning_round_trips() {
    let mut rec = nested();
    rec.variations.push(var(5, &["7i6h", "4a3b"]));
    for f in [Format::Kifu, Format::Ki2, Format::Jkf] {
        let bytes = write(&rec, f).expect("write");
        let text = String::from_utf8(bytes.clone()).unwrap();
        if f == Format::Kifu {
            assert!(
                text.contains("   5 投了          ( 0:00/00:00:04)+\n"),
                "{text}"
            );
            assert!(text.contains("変化：5手\n   5 ６八銀(79)"), "{text}");
        }
        let back = read(&bytes, Some(f)).expect("read back");
        let mut expected = rec.variations.clone();
        if f == Format::Ki2 {
            // KI2 has no times.
            expected[1].times.clear();
        }
        assert_eq!(back.variations, expected, "{f}\n{text}");
    }
    // An ending neither KIF nor KI2 can write would make the variation a
    // continuation when read back: refused.
    rec.result = Some(GameResult {
        winner: None,
        reason: EndReason::MaxMoves,
    });
    for f in [Format::Kifu, Format::Ki2] {
        let err = write(&rec, f).expect_err("no word for the ending");
        assert!(err.contains("variation branches at move 5"), "{f}: {err}");
    }
}

#[test]
fn an_unknown_summary_line_is_a_comment() {
    let text = "▲７六歩    △３四歩\nまで何かがあった\n";
    let rec = read(text.as_bytes(), Some(Format::Ki2)).expect("ki2");
    assert_eq!(rec.moves, ["7g7f", "3c3d"]);
    assert_eq!(rec.result, None);
    assert_eq!(rec.comments_at(2).collect::<Vec<_>>(), ["まで何かがあった"]);
}

#[test]
fn a_variation_that_does_not_branch_is_not_written() {
    let mut rec = nested();
    rec.variations.push(var(9, &["7g7f"]));
    assert!(write(&rec, Format::Kifu).is_err());
    let mut rec = nested();
    rec.variations[0].moves[0] = "5e5d".into();
    let err = rec.validate().expect_err("illegal");
    assert!(err.contains("variation at move 2"), "{err}");
    assert!(write(&rec, Format::Kifu).is_err());
}

/// Kifu for Windows' and json-kifu-format's files with variations
/// (tests/data/variations/SOURCES.md): each is read, with the number of
/// variations it has, and round-trips in its own format.
#[test]
fn real_files_with_variations_read_and_round_trip() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/variations");
    let cases: [(&str, usize); 7] = [
        ("fork.kif", 7),
        ("fork-notime.kif", 7),
        ("fork.ki2", 7),
        ("henka.kif", 5),
        ("illegal.kif", 1),
        ("doh_branch.kifu", 2),
        ("last-fork.kifu", 1),
    ];
    fn count(vs: &[Variation]) -> usize {
        vs.iter().map(|v| 1 + count(&v.variations)).sum()
    }
    for (name, variations) in cases {
        let bytes = std::fs::read(dir.join(name)).expect(name);
        let f = Format::from_extension(name).expect("extension");
        let rec = read(&bytes, Some(f)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(count(&rec.variations), variations, "{name}: {rec:?}");
        let again = write(&rec, f).unwrap_or_else(|e| panic!("{name}: write: {e}"));
        let back = read(&again, Some(f)).unwrap_or_else(|e| panic!("{name}: read back: {e}"));
        assert_eq!(write(&back, f).unwrap(), again, "{name}");
        if f == Format::Ki2 {
            // KI2 writes a mate the rules do not see (`まで3手で詰`) as a win,
            // read back as a resignation.
            assert_eq!(back.moves, rec.moves, "{name}");
            assert_eq!(count(&back.variations), variations, "{name}");
        } else {
            assert_eq!(back, rec, "{name}");
        }
    }
}

/// Records with variations, their lines shuffled: whatever is read writes
/// in KIF, KI2 and JKF and reads back with the same tree.
#[test]
fn mangled_trees_that_read_also_write_and_read_back() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let bases: Vec<String> = ["nested-variations.kifu", "variations/doh_branch.kifu"]
        .iter()
        .map(|n| std::fs::read_to_string(dir.join(n)).expect(n))
        .chain(std::iter::once(
            String::from_utf8(write(&nested(), Format::Ki2).unwrap()).unwrap(),
        ))
        .collect();
    let mut rng = banmen_rules::testing::XorShift::new(14);
    let mut read_ok = 0;
    for _ in 0..1500 {
        let base = &bases[rng.below(bases.len())];
        let mut lines: Vec<&str> = base.lines().collect();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(lines.len());
            match rng.below(3) {
                0 => {
                    lines.remove(i);
                }
                1 => lines.insert(rng.below(lines.len()), lines[i]),
                _ => {
                    let j = rng.below(lines.len());
                    lines.swap(i, j);
                }
            }
        }
        let text = lines.join("\n");
        let f = if text.contains("手数----") {
            Format::Kifu
        } else {
            Format::Ki2
        };
        let Ok(rec) = read(text.as_bytes(), Some(f)) else {
            continue;
        };
        read_ok += 1;
        for to in [Format::Kifu, Format::Ki2, Format::Jkf] {
            let bytes = write(&rec, to).unwrap_or_else(|e| panic!("{to}: {e}\n{text}"));
            let back = read(&bytes, Some(to)).unwrap_or_else(|e| {
                panic!("{to}: {e}\n{text}\n--\n{}", String::from_utf8_lossy(&bytes))
            });
            assert_eq!(back.moves, rec.moves, "{to}\n{text}");
            fn shape(vs: &[Variation]) -> Vec<(usize, Vec<String>, usize)> {
                vs.iter()
                    .flat_map(|v| {
                        std::iter::once((v.ply, v.moves.clone(), v.variations.len()))
                            .chain(shape(&v.variations))
                    })
                    .collect()
            }
            assert_eq!(
                shape(&back.variations),
                shape(&rec.variations),
                "{to}\n{text}"
            );
        }
    }
    assert!(read_ok > 100, "only {read_ok} mangled records read");
}
