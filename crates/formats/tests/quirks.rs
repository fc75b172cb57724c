//! Real-world record quirks (issue 14): what other shogi programs write and
//! read, each shown by a small record text.

use banmen_formats::{read, read_games, write, EndReason, Format, GameResult};
use banmen_rules::{rules_9x9, Color, Setup, VariantName};

fn text(rec: &banmen_formats::Record, f: Format) -> String {
    String::from_utf8(write(rec, f).expect("write")).expect("utf-8")
}

#[test]
fn kif_writes_no_funari_but_reads_it() {
    // 8h2b declined: Kifu for Windows writes `２二角(88)`.
    let rec = read(b"position startpos moves 7g7f 3c3d 8h2b", None).unwrap();
    let kif = text(&rec, Format::Kifu);
    assert!(kif.contains("２二角(88)"), "{kif}");
    assert!(!kif.contains("不成"), "{kif}");
    assert_eq!(
        read(kif.as_bytes(), Some(Format::Kifu)).unwrap().moves,
        rec.moves
    );
    // The reader keeps accepting it.
    let old = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n";
    assert_eq!(
        read(old.as_bytes(), Some(Format::Kifu)).unwrap().moves,
        rec.moves
    );
    // KI2 still needs it.
    assert!(text(&rec, Format::Ki2).contains("２二角不成"));
}

fn csa(body: &str) -> banmen_formats::Record {
    read(format!("V2.2\nPI\n+\n{body}").as_bytes(), Some(Format::Csa))
        .unwrap_or_else(|e| panic!("{e}\n{body}"))
}

#[test]
fn csa_accepts_what_real_files_carry_after_the_ending() {
    let resigned = Some(GameResult {
        winner: Some(Color::Black),
        reason: EndReason::Resignation,
    });
    // ShogiHome: a `T` time after the ending.
    let rec = csa("+7776FU\nT3\n-3334FU\nT5\n+8822UM\nT1\n%TORYO\nT12\n");
    assert_eq!(rec.moves.len(), 3);
    assert_eq!(rec.result, resigned);
    // On one line, and a comment, a second `%` line and a WCSC `$END_TIME` after it.
    let rec =
        csa("+7776FU\n%CHUDAN,T51\n'summary:abnormal\n%TORYO\n$END_TIME:2024/05/05 18:00:00\n");
    assert_eq!(rec.result.map(|r| r.reason), Some(EndReason::Abort));
    assert!(rec
        .headers
        .other
        .contains(&("終了日時".to_string(), "2024/05/05 18:00:00".to_string())));
    // A move after the ending is still refused, with its line.
    let e = read(
        b"V2.2\nPI\n+\n+7776FU\n%TORYO\n-3334FU\n",
        Some(Format::Csa),
    )
    .unwrap_err();
    assert_eq!(e.line, 6, "{e}");
    // `$` fields may hold commas.
    let rec = read(b"V2.2\n$EVENT:Meijin, game 1\nPI\n+\n", Some(Format::Csa)).unwrap();
    assert_eq!(rec.headers.event.as_deref(), Some("Meijin, game 1"));
}

#[test]
fn csa_endings_keep_their_own_reasons_in_csa_and_kif() {
    for (ending, reason, kif_word) in [
        ("%MAX_MOVES", EndReason::MaxMoves, None),
        ("%FUZUMI", EndReason::NoMate, Some("不詰")),
        ("%MATTA", EndReason::Matta, None),
        ("%ERROR", EndReason::Error, None),
        ("%HIKIWAKE", EndReason::Draw, Some("引き分け")),
        ("%CHUDAN", EndReason::Abort, Some("中断")),
    ] {
        let rec = csa(&format!("+7776FU\n{ending}\n"));
        let want = Some(GameResult {
            winner: None,
            reason,
        });
        assert_eq!(rec.result, want, "{ending}");
        let back = text(&rec, Format::Csa);
        assert!(back.contains(ending), "{back}");
        if let Some(word) = kif_word {
            let kif = text(&rec, Format::Kifu);
            assert!(kif.contains(&format!("   2 {word}")), "{kif}");
            assert_eq!(
                read(kif.as_bytes(), Some(Format::Kifu)).unwrap().result,
                want
            );
        }
    }
    // KIF 不詰 is not 中断.
    let kif = "手合割：平手\n   1 ７六歩(77)\n   2 不詰\n";
    assert_eq!(
        read(kif.as_bytes(), Some(Format::Kifu))
            .unwrap()
            .result
            .map(|r| r.reason),
        Some(EndReason::NoMate)
    );
}

#[test]
fn csa_files_with_several_games() {
    let file =
        "V2.2\nN+A\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nN+B\nPI\n+\n+2726FU\n-8384FU\n%CHUDAN\n/\n";
    let games = read_games(file.as_bytes(), Some(Format::Csa)).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].headers.black.as_deref(), Some("A"));
    assert_eq!(games[1].moves, ["2g2f", "8c8d"]);
    // `read` gives the first game.
    assert_eq!(read(file.as_bytes(), Some(Format::Csa)).unwrap(), games[0]);
    // An error in the second game names its line in the whole file.
    let bad = "V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n+7775FU\n";
    assert_eq!(
        read_games(bad.as_bytes(), Some(Format::Csa))
            .unwrap_err()
            .line,
        8
    );
}

fn ki2(text: &str) -> banmen_formats::Record {
    read(text.as_bytes(), Some(Format::Ki2)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn ki2_reads_the_made_result_line() {
    let moves = "手合割：平手\n▲７六歩    △３四歩\n";
    let rec = |line: &str| ki2(&format!("{moves}{line}\n")).result;
    let win = |c, reason| {
        Some(GameResult {
            winner: Some(c),
            reason,
        })
    };
    let draw = |reason| {
        Some(GameResult {
            winner: None,
            reason,
        })
    };
    assert_eq!(
        rec("まで2手で後手の勝ち"),
        win(Color::White, EndReason::Resignation)
    );
    assert_eq!(
        rec("まで、2手で先手の勝ち"),
        win(Color::Black, EndReason::Resignation)
    );
    assert_eq!(rec("まで2手で千日手"), draw(EndReason::Repetition));
    assert_eq!(rec("まで2手で中断"), draw(EndReason::Abort));
    assert_eq!(rec("まで2手で持将棋"), draw(EndReason::Impasse));
    assert_eq!(
        rec("まで2手で時間切れにより後手の勝ち"),
        win(Color::White, EndReason::Timeout)
    );
    assert_eq!(
        rec("まで2手で先手の反則勝ち"),
        win(Color::Black, EndReason::IllegalMove)
    );
    assert_eq!(
        rec("まで2手で先手の反則負け"),
        win(Color::White, EndReason::IllegalMove)
    );
    assert_eq!(
        rec("まで2手で先手の入玉勝ち"),
        win(Color::Black, EndReason::Declaration)
    );
    // A mate is written as a win: the rules make it a checkmate.
    let mate = ki2("SFEN：4k4/9/4P4/9/9/9/9/9/4K4 b G 1\n▲５二金打\nまで1手で先手の勝ち\n");
    assert_eq!(mate.result, win(Color::Black, EndReason::Checkmate));
}

#[test]
fn ki2_writes_the_result_line_peers_read() {
    for (kif_end, ki2_line) in [
        ("投了", "まで2手で後手の勝ち"),
        ("切れ負け", "まで2手で時間切れにより後手の勝ち"),
        ("反則勝ち", "まで2手で先手の反則勝ち"),
        ("反則負け", "まで2手で先手の反則負け"),
        ("千日手", "まで2手で千日手"),
        ("中断", "まで2手で中断"),
    ] {
        let kif = format!("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {kif_end}\n");
        let rec = read(kif.as_bytes(), Some(Format::Kifu)).unwrap();
        let out = text(&rec, Format::Ki2);
        assert!(out.lines().any(|l| l == ki2_line), "{kif_end}: {out}");
        assert!(!out.contains("終局"), "{out}");
        assert_eq!(ki2(&out).result, rec.result, "{out}");
    }
}

#[test]
fn ki2_keeps_the_relative_word_when_the_twin_is_pinned() {
    // The gold on 4i is pinned by the rook on 5i; tsshogi and cshogi still
    // look at both golds, so 6i-5h is ５八金左.
    let rec = read(b"sfen 4k4/9/9/9/9/9/9/9/3GrGK2 b - 1 moves 6i5h", None).unwrap();
    let out = text(&rec, Format::Ki2);
    assert!(out.contains("▲５八金左"), "{out}");
    assert_eq!(ki2(&out).moves, rec.moves);
    // A drop where a pinned piece could also go says 打.
    let rec = read(b"sfen 4k4/9/9/9/9/9/9/9/4rGK2 b G 1 moves G*5h", None).unwrap();
    let out = text(&rec, Format::Ki2);
    assert!(out.contains("▲５八金打"), "{out}");
    assert_eq!(ki2(&out).moves, rec.moves);
}

#[test]
fn kif_reads_sealed_moves_and_a_named_foul() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 封じ手\n";
    let rec = read(kif.as_bytes(), Some(Format::Kifu)).unwrap();
    assert_eq!(rec.result.map(|r| r.reason), Some(EndReason::Sealed));
    let out = text(&rec, Format::Kifu);
    assert!(out.contains("   2 封じ手"), "{out}");
    assert!(text(&rec, Format::Csa).contains("%CHUDAN"));
    assert_eq!(ki2(&text(&rec, Format::Ki2)).result, rec.result);
    // Shogi Club 24: the side that fouled is named; here Black, though White is to move.
    let kif = "手合割：平手\n手数----指手---------消費時間--\n1 ７六歩(77)    ( 0:01/00:00:01)\n2 先手 反則負け ( 0:01/00:00:01)\n";
    let rec = read(kif.as_bytes(), Some(Format::Kifu)).unwrap();
    assert_eq!(
        rec.result,
        Some(GameResult {
            winner: Some(Color::White),
            reason: EndReason::IllegalMove
        })
    );
    // Written back, it is the side to move's 反則勝ち, which peers read.
    let out = text(&rec, Format::Kifu);
    assert!(out.contains("   2 反則勝ち"), "{out}");
    assert_eq!(
        read(out.as_bytes(), Some(Format::Kifu)).unwrap().result,
        rec.result
    );
}

#[test]
fn kakinokis_other_handicaps() {
    // Each start, built here from the even game by taking off the pieces
    // the name removes (the uwate, White, is on ranks a-b; its left is
    // files 1-4), independently of the reader's table.
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let without = |squares: &[&str]| {
        let even = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
        let mut setup = Setup::from_sfen(rules, even).unwrap();
        for sq in squares {
            let sq = rules.geometry.parse_square(sq).unwrap();
            setup.board[sq.index()] = None;
        }
        setup.to_sfen(rules)
    };
    let rook_bishop = ["8b", "2b"];
    let six = ["8b", "2b", "1a", "9a", "2a", "8a"];
    for (name, sfen) in [
        ("三枚落ち", without(&[&rook_bishop[..], &["1a"]].concat())),
        (
            "五枚落ち",
            without(&[&rook_bishop[..], &["1a", "9a", "8a"]].concat()),
        ),
        (
            "左五枚落ち",
            without(&[&rook_bishop[..], &["1a", "9a", "2a"]].concat()),
        ),
        ("左七枚落ち", without(&[&six[..], &["3a"]].concat())),
        ("右七枚落ち", without(&[&six[..], &["7a"]].concat())),
    ] {
        let kif = format!(
            "手合割：{name}\n上手：A\n下手：B\n手数----指手---------消費時間--\n   1 ５四歩(53)\n"
        );
        let rec =
            read(kif.as_bytes(), Some(Format::Kifu)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rec.start, sfen, "{name}");
        assert_eq!(rec.moves, ["5c5d"]);
        let out = text(&rec, Format::Kifu);
        // Written as a diagram, which tsshogi and cshogi read.
        assert!(out.contains("上手番"), "{out}");
        assert!(out.contains("上手：A"), "{out}");
        assert_eq!(read(out.as_bytes(), Some(Format::Kifu)).unwrap(), rec);
    }
}

#[test]
fn free_text_after_the_end_and_odd_header_lines() {
    // Shogi Wars: text after 投了.
    let kif = "開始日時:2024/01/02 10:00:00\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n\n先手の勝ち 詳細はこちら https://example.org/game/1\n▲先手の勝ち\n";
    let rec = read(kif.as_bytes(), Some(Format::Kifu)).unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.result.map(|r| r.winner), Some(Some(Color::White)));
    assert_eq!(
        rec.headers.start_date.as_deref(),
        Some("2024/01/02 10:00:00")
    );
    assert!(rec.comments_at(2).any(|c| c.contains("example.org")));
    // A KI2 header line that is not `key：value` (Gekisashi).
    let rec = ki2(
        "激指 棋譜ファイル\n先手：A\n後手：B\n手合割：平手\n▲７六歩    △３四歩\nまで2手で中断\n",
    );
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.headers.black.as_deref(), Some("A"));
    assert_eq!(rec.result.map(|r| r.reason), Some(EndReason::Abort));
    // Moves after a mid-game line are still an error with its line.
    let bad = "手合割：平手\n   1 ７六歩(77)\nnot a move\n";
    assert_eq!(
        read(bad.as_bytes(), Some(Format::Kifu)).unwrap_err().line,
        3
    );
}

#[test]
fn kif_headers_survive_csa_and_back() {
    let kif = "開始日時：2024/01/02 10:00:00\n終了日時：2024/01/02 18:30:00\n表題：第1局\n棋戦：名人戦\n持ち時間：各9時間\n場所：東京・将棋会館\n戦型：相掛かり\n手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    let rec = read(kif.as_bytes(), Some(Format::Kifu)).unwrap();
    let csa = text(&rec, Format::Csa);
    for line in [
        "$END_TIME:2024/01/02 18:30:00",
        "$SITE:東京・将棋会館",
        "$OPENING:相掛かり",
        "'表題：第1局",
        "'持ち時間：各9時間",
    ] {
        assert!(csa.lines().any(|l| l == line), "{line}\n{csa}");
    }
    let back = read(csa.as_bytes(), Some(Format::Csa)).unwrap();
    assert_eq!(back.headers, rec.headers);
    // CSA keys become KIF keys, not raw `SITE：`.
    let csa = "V2.2\n$SITE:関西将棋会館\n$END_TIME:2024/05/05 18:00:00\n$TIME_LIMIT:00:25+30\nPI\n+\n+7776FU\n%TORYO\n";
    let rec = read(csa.as_bytes(), Some(Format::Csa)).unwrap();
    let kif = text(&rec, Format::Kifu);
    for line in [
        "場所：関西将棋会館",
        "終了日時：2024/05/05 18:00:00",
        "持ち時間：00:25+30",
    ] {
        assert!(kif.lines().any(|l| l == line), "{line}\n{kif}");
    }
    assert!(!kif.contains("SITE") && !kif.contains("END_TIME"), "{kif}");
    assert!(text(&rec, Format::Csa).contains("$TIME_LIMIT:00:25+30"));
}

#[test]
fn a_perpetual_check_is_a_foul_not_a_drawn_sennichite() {
    // Black checks with the rook on files 1 and 2: the position after ply 1
    // comes back a fourth time at ply 13, every Black move a check.
    let line = "sfen 8k/9/9/9/9/9/9/9/K5R2 b - 1 moves 3i1i 1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a 2i1i";
    let mut rec = read(line.as_bytes(), None).unwrap();
    rec.result = rec.rules_result();
    assert_eq!(
        rec.result,
        Some(GameResult {
            winner: Some(Color::White),
            reason: EndReason::PerpetualCheck,
        })
    );
    let kif = text(&rec, Format::Kifu);
    // White, to move after the perpetual check, wins by Black's foul.
    assert!(kif.contains("  14 反則勝ち"), "{kif}");
    assert!(kif.contains("まで13手で後手の反則勝ち"), "{kif}");
    assert!(!kif.contains("千日手"), "{kif}");
    let ki2_text = text(&rec, Format::Ki2);
    assert!(ki2_text.contains("まで13手で後手の反則勝ち"), "{ki2_text}");
    // Read back: White won by Black's foul (a perpetual check where the
    // rules see one, else an illegal move).
    for back in [
        read(kif.as_bytes(), Some(Format::Kifu)).unwrap(),
        ki2(&ki2_text),
    ] {
        let r = back.result.unwrap();
        assert_eq!(r.winner, Some(Color::White));
        assert!(matches!(
            r.reason,
            EndReason::PerpetualCheck | EndReason::IllegalMove
        ));
    }
}

#[test]
fn a_promoted_piece_in_hand_is_refused_and_an_absurd_time_is_no_overflow() {
    let csa = "V2.2\nPI\nP+00TO\n+\n";
    let e = read(csa.as_bytes(), Some(Format::Csa)).unwrap_err();
    assert!(e.to_string().contains("promoted piece in hand"), "{e}");
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 99999999:00/00:00:00)\n";
    let rec = read(kif.as_bytes(), Some(Format::Kif)).unwrap();
    assert_eq!(rec.moves, ["7g7f"]);
    assert_eq!(rec.time(0), None);
}

#[test]
fn csa_reads_a_comment_after_a_lines_statements() {
    // GPS Shogi's 2005 records, floodgate's `%KACHI,'* …`.
    let rec =
        csa("+7776FU  ,T0       ,'T0      ,'7776\n-3334FU,T1,'* a note\n%TORYO,'* -5000 win\n");
    assert_eq!(rec.moves, ["7g7f", "3c3d"]);
    assert!(rec
        .headers
        .comments
        .iter()
        .any(|c| c.ply == 2 && c.text == " a note"));
    assert_eq!(rec.result.map(|r| r.reason), Some(EndReason::Resignation));
}

#[test]
fn csa_board_rows_may_separate_squares_by_one_blank() {
    // ShogiBoardQ's test files; tsshogi reads them.
    let text = "V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * * * * * * * * *\nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
P4 * * * * * * * * *\nP5 * * * * * * * * *\nP6 * * * * * * * * *\nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n\
P8 * +KA * * * * * +HI *\nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n-\n-3334FU\n";
    let rec = read(text.as_bytes(), Some(Format::Csa)).unwrap();
    assert_eq!(
        rec.start,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(rec.moves, ["3c3d"]);
}

#[test]
fn ki2_reads_the_hollow_triangle_marks() {
    // mog-core-scala's KI2 files write ▽ for White.
    let rec = read(
        "手合割：平手\n▲７六歩▽３四歩▼２六歩\n".as_bytes(),
        Some(Format::Ki2),
    )
    .unwrap();
    assert_eq!(rec.moves, ["7g7f", "3c3d", "2g2f"]);
}

#[test]
fn kif_reads_time_up_and_keeps_the_first_of_two_terminal_lines() {
    let head = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    // 81Dojo's `Time-up`: the side to move lost on time.
    let rec = read(
        format!("{head}   2 Time-up   ( 0:0/)\n").as_bytes(),
        Some(Format::Kifu),
    )
    .unwrap();
    let timeout = Some(GameResult {
        winner: Some(Color::Black),
        reason: EndReason::Timeout,
    });
    assert_eq!(rec.result, timeout);
    // `122 投了` then `123 中断` (mog-core-scala's 012.kif): the first counts.
    let text = format!("{head}   2 投了\n   3 中断\nまで1手で中断\n");
    let rec = read(text.as_bytes(), Some(Format::Kifu)).unwrap();
    assert_eq!(rec.result.map(|r| r.reason), Some(EndReason::Resignation));
}

#[test]
fn kif_ends_the_game_at_an_illegal_last_move_the_file_calls_a_foul() {
    // Shogi Club 24 writes the illegal move and `*反則手にて終局`: the game
    // ended there, the mover lost, and the move is not kept.
    let head = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角(77)\n";
    let foul = Some(GameResult {
        winner: Some(Color::White),
        reason: EndReason::IllegalMove,
    });
    for tail in [
        "*反則手にて終局\n",
        "   4 反則勝ち\n",
        "**engine: depth 2\n   4 反則勝ち\n",
    ] {
        let rec = read(format!("{head}{tail}").as_bytes(), Some(Format::Kifu))
            .unwrap_or_else(|e| panic!("{tail}: {e}"));
        assert_eq!(rec.moves, ["7g7f", "3c3d"], "{tail}");
        assert_eq!(rec.result, foul, "{tail}");
    }
    // Without a word of a foul it is a broken file, refused at the move.
    for tail in ["", "   4 投了\n", "*反則手にて終局\n   4 ８四歩(83)\n"] {
        let err = read(format!("{head}{tail}").as_bytes(), Some(Format::Kifu)).unwrap_err();
        assert_eq!(err.line, 5, "{tail}: {err}");
        assert!(err.message.contains("not a legal move"), "{tail}: {err}");
    }
}
