//! JKF (JSON Kifu Format): Banmen's records written and read back, and the
//! specification's samples read with the moves they hold.

use banmen_formats::{read, write, EndReason, Format, GameResult, Record};
use banmen_rules::{Color, VariantName};
use std::path::PathBuf;

fn data(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn jkf(text: &str) -> Record {
    read(text.as_bytes(), Some(Format::Jkf)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn round_trip(rec: &Record) -> String {
    let bytes = write(rec, Format::Jkf).expect("write jkf");
    let text = String::from_utf8(bytes).unwrap();
    assert_eq!(jkf(&text), *rec, "{text}");
    assert_eq!(Format::guess(text.as_bytes()), Format::Jkf);
    text
}

#[test]
fn nested_variations_round_trip_as_forks() {
    let rec = read(&data("nested-variations.kifu"), Some(Format::Kifu)).unwrap();
    assert_eq!(rec.variations.len(), 3);
    let text = round_trip(&rec);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The alternative to move 3 sits on move 3's entry, as the spec says.
    let forks = v["moves"][3]["forks"].as_array().expect("forks on move 3");
    assert_eq!(forks.len(), 2);
    assert_eq!(forks[0][0]["move"]["piece"], "FU");
    assert_eq!(forks[0][0]["move"]["from"]["x"], 6);
    assert_eq!(forks[0][1]["forks"][0][0]["move"]["to"]["x"], 4);
    assert_eq!(v["moves"][2]["forks"][0][0]["move"]["to"]["x"], 8);
    assert_eq!(v["moves"][5]["special"], "TORYO");
    assert_eq!(v["moves"][1]["time"]["now"]["s"], 1);
    assert_eq!(v["moves"][1]["comments"][0], "角道を開ける");
    assert_eq!(v["header"]["先手"], "先手さん");
    assert_eq!(v["initial"]["preset"], "HIRATE");
}

#[test]
fn handicaps_set_ups_and_headers_round_trip() {
    // 二枚落ち: a preset.
    let mut rec = read(
        b"position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b 7g7f",
        Some(Format::Usi),
    )
    .unwrap();
    rec.headers.black = Some("下手".into());
    rec.headers.other.push(("場所".into(), "東京".into()));
    rec.result = Some(GameResult {
        winner: Some(Color::Black),
        reason: EndReason::Resignation,
    });
    let text = round_trip(&rec);
    assert!(text.contains(r#""initial":{"preset":"2"}"#), "{text}");
    // 三枚落ち: Kakinoki's, which tsshogi lacks: written as OTHER.
    let mut three = read(
        b"position sfen lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b",
        Some(Format::Usi),
    )
    .unwrap();
    three.start = "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1".into();
    let text = round_trip(&three);
    assert!(text.contains(r#""preset":"OTHER""#), "{text}");
    // A tsume position with pieces in hand.
    let tsume = read(
        b"sfen 7nl/7k1/9/7P1/9/9/9/9/9 b GS2r2b3g3s3n3l17p 1 moves S*2c",
        Some(Format::Sfen),
    )
    .unwrap();
    let text = round_trip(&tsume);
    assert!(text.contains(r#""hands":[{"GI":1,"KI":1}"#), "{text}");
}

#[test]
fn cannon_shogi_is_written_with_the_kif_and_csa_convention() {
    let rec = read(
        b"setoption name USI_Variant value cannonshogi\nposition startpos moves 7g7f",
        Some(Format::Usi),
    )
    .unwrap();
    assert_eq!(rec.variant, VariantName::CannonShogi);
    let text = round_trip(&rec);
    assert!(text.contains(r#""将棋種類":"cannonshogi""#), "{text}");
}

#[test]
fn dai_dai_shogi_and_minishogi_are_refused() {
    for v in [VariantName::DaiDaiShogi, VariantName::MiniShogi] {
        let err = write(&Record::new(v), Format::Jkf).expect_err("not 9x9");
        assert!(err.contains("JKF holds 9x9 games only"), "{err}");
    }
    let err = read(
        r#"{"header":{"将棋種類":"daidaishogi"},"moves":[{}]}"#.as_bytes(),
        Some(Format::Jkf),
    )
    .expect_err("not 9x9");
    assert!(err.message.contains("9x9"), "{err}");
}

#[test]
fn the_spec_samples_read_with_their_moves() {
    let rec = read(&data("jkf/same_move_minimal.jkf"), None).expect("same_move_minimal");
    assert_eq!(rec.moves, ["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f"]);
    let rec = read(&data("jkf/ryuou201409020101.jkf"), None).expect("ryuou");
    assert_eq!(rec.moves.len(), 117);
    assert_eq!(rec.moves[..3], ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(rec.moves[116], "B*7c");
    assert_eq!(rec.headers.black.as_deref(), Some("羽生善治"));
    assert_eq!(
        rec.headers.event.as_deref(),
        Some("第２７期竜王戦挑戦者決定三番勝負　第２局")
    );
    assert_eq!(
        rec.result,
        Some(GameResult {
            winner: Some(Color::Black),
            reason: EndReason::Resignation
        })
    );
    assert!(rec.comments_at(0).count() > 0);
    // What Banmen writes of it reads back the same.
    round_trip(&rec);
}

/// The README's branch example: ７七桂 at move 3 has a fork ２二角 (unpromoted) 同銀 ４五角.
#[test]
fn the_spec_branch_example_reads_its_fork() {
    let rec = jkf(r#"{
  "header": {},
  "moves": [
    {"comments":["分岐の例"]},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}, "comments":["次の手で二種類が考えられる：７七桂か２二角成である．","２二角成を選ぶと筋違い角となる．"]},
    {"move":{"from":{"x":8,"y":9},"to":{"x":7,"y":7},"color":0,"piece":"KE"}, "forks":[
      [
        {"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"color":0,"piece":"KA","capture":"KA","promote":false}},
        {"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"color":1,"piece":"GI","capture":"KA","same":true}},
        {"move":{"to":{"x":4,"y":5},"color":0,"piece":"KA"}}
      ]
    ]},
    {"move":{"from":{"x":2,"y":2},"to":{"x":7,"y":7},"color":1,"piece":"KA","capture":"KE","promote":true,"same":true}},
    {"move":{"from":{"x":8,"y":8},"to":{"x":7,"y":7},"color":0,"piece":"KA","capture":"UM","same":true}},
    {"move":{"to":{"x":3,"y":3},"color":1,"piece":"KE","relative":"H"}}
  ]
}"#);
    assert_eq!(rec.moves, ["7g7f", "3c3d", "8i7g", "2b7g+", "8h7g", "N*3c"]);
    assert_eq!(rec.variations.len(), 1);
    assert_eq!(rec.variations[0].ply, 3);
    assert_eq!(rec.variations[0].moves, ["8h2b", "3a2b", "B*4e"]);
    assert_eq!(rec.comments_at(0).collect::<Vec<_>>(), ["分岐の例"]);
    assert_eq!(rec.comments_at(2).count(), 2);
    // And through KIF: the fork becomes `変化：3手`.
    let kif = String::from_utf8(write(&rec, Format::Kifu).unwrap()).unwrap();
    assert!(kif.contains("変化：3手\n   3 ２二角(88)"), "{kif}");
    assert_eq!(read(kif.as_bytes(), Some(Format::Kifu)).unwrap(), rec);
}

/// The README's handicap and set-up examples.
#[test]
fn the_spec_handicap_and_set_up_examples_read() {
    let six = jkf(r#"{
  "header": {},
  "initial": {"preset": "6"},
  "moves": [
    {},
    {"move":{"from":{"x":5,"y":1},"to":{"x":4,"y":2},"color":1,"piece":"OU"}},
    {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},
    {"move":{"from":{"x":6,"y":1},"to":{"x":7,"y":2},"color":1,"piece":"KI"}}
  ]
}"#);
    assert!(
        six.start.starts_with("2sgkgs2/9/ppppppppp/"),
        "{}",
        six.start
    );
    assert_eq!(six.moves, ["5a4b", "7g7f", "6a7b"]);
    let set_up = jkf(r#"{
  "header": {},
  "initial": {
    "preset": "OTHER",
    "data": {
      "board": [
        [{"color":1, "kind":"KY"}, {                      },{"color":1, "kind":"FU"}, {}, {}, {}, {"color":0, "kind":"FU"}, {                      }, {"color":0, "kind":"KY"}],
        [{"color":1, "kind":"KE"}, {"color":1, "kind":"KA"},{"color":1, "kind":"FU"}, {}, {}, {}, {                      }, {"color":0, "kind":"HI"}, {"color":0, "kind":"KE"}],
        [{"color":1, "kind":"GI"}, {                      },{"color":1, "kind":"FU"}, {}, {}, {}, {"color":0, "kind":"FU"}, {                      }, {"color":0, "kind":"GI"}],
        [{"color":1, "kind":"KI"}, {                      },{"color":1, "kind":"FU"}, {}, {}, {}, {"color":0, "kind":"FU"}, {                      }, {"color":0, "kind":"KI"}],
        [{"color":1, "kind":"OU"}, {                      },{"color":1, "kind":"FU"}, {}, {}, {}, {"color":0, "kind":"FU"}, {                      }, {"color":0, "kind":"OU"}],
        [{"color":1, "kind":"KI"}, {                      },{"color":1, "kind":"FU"}, {}, {}, {}, {"color":0, "kind":"FU"}, {                      }, {"color":0, "kind":"KI"}],
        [{"color":1, "kind":"GI"}, {                      },{"color":1, "kind":"FU"}, {}, {}, {}, {                      }, {                      }, {"color":0, "kind":"GI"}],
        [{"color":1, "kind":"KE"}, {"color":1, "kind":"HI"},{"color":1, "kind":"FU"}, {}, {}, {}, {"color":0, "kind":"FU"}, {"color":0, "kind":"KA"}, {"color":0, "kind":"KE"}],
        [{"color":1, "kind":"KY"}, {                      },{"color":1, "kind":"FU"}, {}, {}, {}, {"color":0, "kind":"FU"}, {                      }, {"color":0, "kind":"KY"}]
      ],
      "color": 0,
      "hands":[
        {"FU":0,"KY":0,"KE":0,"GI":0,"KI":0,"KA":0,"HI":0},
        {"FU":0,"KY":0,"KE":0,"GI":0,"KI":0,"KA":0,"HI":0}
      ]
    }
  },
  "moves": [
    {"comments": ["飛車角先落ち．"]},
    {"move":{"from":{"x":2,"y":8},"to":{"x":2,"y":3},"color":0,"piece":"HI","promote":true,"capture":"FU"}}
  ]
}"#);
    assert_eq!(
        set_up.start,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PP1PPPP1P/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(set_up.moves, ["2h2c+"]);
    assert_eq!(
        set_up.comments_at(0).collect::<Vec<_>>(),
        ["飛車角先落ち．"]
    );
    round_trip(&set_up);
}

#[test]
fn bad_jkf_is_refused_with_a_reason() {
    let cases: [(&str, &str); 7] = [
        ("{\n\"header\": {},\n\"moves\": [\n{]\n}", "line 4"),
        (
            r#"{"header":{},"initial":{"preset":"9"},"moves":[]}"#,
            "unknown preset",
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":5},"color":0,"piece":"FU"}}]}"#,
            "moves[1].move",
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":1,"piece":"FU"}}]}"#,
            "moves[1].move",
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"XX"}}]}"#,
            "unknown piece 'XX'",
        ),
        (
            r#"{"header":{},"moves":[{},{"special":"NO_SUCH"}]}"#,
            "unknown special 'NO_SUCH'",
        ),
        (
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"},"forks":[[{"move":{"from":{"x":5,"y":5},"to":{"x":5,"y":4},"color":0,"piece":"FU"}}]]}]}"#,
            "moves[1].forks[0][0].move",
        ),
    ];
    for (text, why) in cases {
        let err = read(text.as_bytes(), Some(Format::Jkf)).expect_err(text);
        assert!(err.to_string().contains(why), "{text}: {err}");
    }
}

#[test]
fn the_first_jkf_versions_boolean_colors_are_read() {
    // json-kifu-format's example files of 2014 wrote `"color": true` for
    // black and `false` for white (the corpus holds one).
    let text = r#"{"header":{},"initial":{"preset":"HIRATE"},"moves":[{},
        {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU","color":true}},
        {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","color":false}}]}"#;
    assert_eq!(jkf(text).moves, ["7g7f", "3c3d"]);
}
