//! Minishogi in KIF and KI2: `手合割：5五将棋` names the game, as lishogi
//! (shogiops `kifHandicaps.ts`, `kif.ts`) writes and reads it, and a set-up
//! position follows as a 5x5 diagram.

use banmen_formats::{read, write, EndReason, Format, GameResult, Record};
use banmen_rules::{Color, VariantName};

const START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";

/// A short game as lishogi exports it: the game only in the 手合割 line.
const LISHOGI_GAME: &str = "\
開始日時：2021/09/18 12:00:00
手合割：5五将棋
先手：Alice
後手：Bob
手数----指手---------消費時間--
   1 ５三歩(54)   ( 0:01/00:00:01)
   2 １三歩(12)   ( 0:02/00:00:02)
   3 ３四角(25)   ( 0:01/00:00:02)
   4 投了   ( 0:03/00:00:05)
まで3手で先手の勝ち
";

fn text(rec: &Record, f: Format) -> String {
    String::from_utf8(write(rec, f).expect("write")).expect("utf-8")
}

#[test]
fn kif_with_5go_shogi_handicap_is_read_as_minishogi() {
    let rec = read(LISHOGI_GAME.as_bytes(), Some(Format::Kifu)).unwrap();
    assert_eq!(rec.variant, VariantName::MiniShogi);
    assert_eq!(rec.start, START);
    assert_eq!(rec.moves, ["5d5c", "1b1c", "2e3d"]);
    assert_eq!(
        rec.result,
        Some(GameResult {
            winner: Some(Color::Black),
            reason: EndReason::Resignation
        })
    );
    assert_eq!(rec.headers.black.as_deref(), Some("Alice"));
    // Shift-JIS `.kif` alike.
    let sjis = write(&rec, Format::Kif).unwrap();
    assert_eq!(read(&sjis, Some(Format::Kif)).unwrap().moves, rec.moves);
}

#[test]
fn other_spellings_of_the_5go_shogi_handicap_are_read() {
    for name in ["５五将棋", "五々将棋", "五五将棋"] {
        let kif = LISHOGI_GAME.replace("5五将棋", name);
        let rec =
            read(kif.as_bytes(), Some(Format::Kifu)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rec.variant, VariantName::MiniShogi, "{name}");
        assert_eq!(rec.moves.len(), 3, "{name}");
    }
    // KI2 carries the same header.
    let ki2 = "手合割：五々将棋\n\n▲５三歩 △１三歩 ▲３四角\nまで3手で先手の勝ち\n";
    let rec = read(ki2.as_bytes(), Some(Format::Ki2)).unwrap();
    assert_eq!(rec.variant, VariantName::MiniShogi);
    assert_eq!(rec.moves, ["5d5c", "1b1c", "2e3d"]);
}

#[test]
fn minishogi_kif_and_ki2_are_written_with_the_5go_shogi_handicap() {
    let rec = read(LISHOGI_GAME.as_bytes(), Some(Format::Kifu)).unwrap();
    for format in [Format::Kifu, Format::Ki2] {
        let out = text(&rec, format);
        assert!(out.contains("手合割：5五将棋\n"), "{format}:\n{out}");
        assert!(!out.contains("将棋種類"), "{format}:\n{out}");
        let back = read(out.as_bytes(), Some(format)).unwrap();
        assert_eq!(back.variant, VariantName::MiniShogi, "{format}");
        assert_eq!(back.start, rec.start, "{format}");
        assert_eq!(back.moves, rec.moves, "{format}");
        assert_eq!(back.result, rec.result, "{format}");
    }
    assert!(text(&rec, Format::Kifu).contains("   1 ５三歩(54)"));
}

/// A set-up minishogi position, as shogiops' test `make minishogi kif
/// header` writes it.
const LISHOGI_SETUP: &str = "\
手合割：5五将棋
後手の持駒：なし
  ５ ４ ３ ２ １
+---------------+
|v飛v角v銀v金v玉|一
| ・ ・ ・ ・v歩|二
| 歩 ・ ・ ・ ・|三
| ・ ・ ・ ・ ・|四
| 玉 金 銀 角 飛|五
+---------------+
先手の持駒：なし
後手番
";

#[test]
fn a_minishogi_setup_is_a_5x5_diagram_both_ways() {
    let kif = format!("{LISHOGI_SETUP}手数----指手---------消費時間--\n   1 １三歩(12)\n");
    let rec = read(kif.as_bytes(), Some(Format::Kifu)).unwrap();
    assert_eq!(rec.variant, VariantName::MiniShogi);
    assert_eq!(rec.start, "rbsgk/4p/P4/5/KGSBR w - 1");
    assert_eq!(rec.moves, ["1b1c"]);
    let out = text(&rec, Format::Kifu);
    assert!(out.starts_with(LISHOGI_SETUP), "{out}");
    let back = read(out.as_bytes(), Some(Format::Kifu)).unwrap();
    assert_eq!((back.start, back.moves), (rec.start, rec.moves));
}

#[test]
fn a_handicap_that_contradicts_the_named_game_is_refused_with_its_line() {
    let kif = format!("将棋種類：cannonshogi\n{LISHOGI_GAME}");
    let err = read(kif.as_bytes(), Some(Format::Kifu)).unwrap_err();
    assert_eq!(err.line, 3, "{err}");
    assert!(
        err.message.contains("5五将棋") || err.message.contains("minishogi"),
        "{err}"
    );
    // Banmen's own spelling agrees with it.
    let kif = format!("将棋種類：minishogi\n{LISHOGI_GAME}");
    assert_eq!(
        read(kif.as_bytes(), Some(Format::Kifu)).unwrap().variant,
        VariantName::MiniShogi
    );
}

#[test]
fn a_9x9_diagram_in_a_minishogi_record_is_refused() {
    let kif = "手合割：5五将棋\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n";
    let err = read(kif.as_bytes(), Some(Format::Kifu)).unwrap_err();
    assert_eq!(err.line, 3, "{err}");
    assert!(err.message.contains("5 squares"), "{err}");
}
