//! `banmen convert`, and the cshogi peer test of its KIF and CSA output.

use std::io::Write;
use std::process::{Command, Stdio};

fn convert(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .arg("convert")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn banmen");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn converts_usi_to_kifu_and_back_guessing_the_format() {
    let (code, kifu, err) = convert(
        &["-", "--to", "kifu"],
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(kifu.contains("   4 同　銀(31)"), "{kifu}");
    let (code, usi, err) = convert(&["-", "--to", "usi"], &kifu);
    assert_eq!(code, 0, "{err}");
    assert_eq!(usi, "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n");
    let (code, western, _) = convert(&["-", "--from", "usi", "--to", "western"], &usi);
    assert_eq!(code, 0);
    assert!(western.contains("3. Bx2b+"), "{western}");
}

#[test]
fn game_picks_one_game_of_a_csa_file_with_several() {
    let file = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nV2.2\nPI\n+\n+2726FU\n%CHUDAN\n";
    let (code, first, err) = convert(&["-", "--from", "csa", "--to", "usi"], file);
    assert_eq!(code, 0, "{err}");
    assert_eq!(first, "position startpos moves 7g7f\n");
    let (code, second, err) = convert(&["-", "--from", "csa", "--to", "usi", "--game", "2"], file);
    assert_eq!(code, 0, "{err}");
    assert_eq!(second, "position startpos moves 2g2f\n");
    let (code, _, err) = convert(&["-", "--from", "csa", "--to", "usi", "--game", "3"], file);
    assert_eq!(code, 2);
    assert!(err.contains("no game 3 (the file holds 2"), "{err}");
}

const KIF_WITH_A_BRANCH: &str = "\
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)+
   3 ２六歩(27)

変化：2手
   2 ８四歩(83)
   3 ２六歩(27)
";

#[test]
fn mainline_flattens_the_variations() {
    let (code, kifu, err) = convert(&["-", "--from", "kifu", "--to", "kifu"], KIF_WITH_A_BRANCH);
    assert_eq!(code, 0, "{err}");
    assert!(kifu.contains("変化：2手\n   2 ８四歩(83)"), "{kifu}");
    let (code, flat, err) = convert(
        &["-", "--from", "kifu", "--to", "kifu", "--mainline"],
        KIF_WITH_A_BRANCH,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        !flat.contains("変化") && flat.contains("   3 ２六歩(27)"),
        "{flat}"
    );
    assert!(err.is_empty(), "{err}");
    // A format without variations gets the main line, and a note says so.
    let (code, usi, err) = convert(&["-", "--from", "kifu", "--to", "usi"], KIF_WITH_A_BRANCH);
    assert_eq!(code, 0, "{err}");
    assert_eq!(usi, "position startpos moves 7g7f 3c3d 2g2f\n");
    assert!(err.contains("main line only"), "{err}");
}

#[test]
fn converts_kif_with_a_branch_to_jkf_and_back() {
    let (code, jkf, err) = convert(&["-", "--from", "kifu", "--to", "jkf"], KIF_WITH_A_BRANCH);
    assert_eq!(code, 0, "{err}");
    assert!(
        jkf.starts_with('{') && jkf.contains(r#""forks":[["#),
        "{jkf}"
    );
    let (code, kifu, err) = convert(&["-", "--to", "kifu"], &jkf);
    assert_eq!(code, 0, "{err}");
    let (_, direct, _) = convert(&["-", "--from", "kifu", "--to", "kifu"], KIF_WITH_A_BRANCH);
    assert_eq!(kifu, direct);
    // By the extension too.
    let dir = std::env::temp_dir().join(format!("banmen-jkf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.jkf");
    std::fs::write(&path, &jkf).unwrap();
    let (code, usi, err) = convert(&[path.to_str().unwrap(), "--to", "usi", "--mainline"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(usi, "position startpos moves 7g7f 3c3d 2g2f\n");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_name_the_line_and_exit_2() {
    let (code, _, err) = convert(
        &["-", "--from", "kifu", "--to", "csa"],
        "手合割：平手\n   1 ７六歩(77)\n   2 ７五歩(76)\n",
    );
    assert_eq!(code, 2);
    assert!(err.contains("line 3"), "{err}");
    let (code, _, err) = convert(&["-", "--to", "nonsense"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown format"), "{err}");
}

#[test]
fn errors_say_the_line_the_reason_and_the_format() {
    let csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2822KA\n%TORYO\n";
    let (code, _, err) = convert(&["-", "--to", "kifu"], csa);
    assert_eq!(code, 2);
    assert!(
        err.contains("-: line 6: '+2822KA'") && err.contains("read as csa, guessed"),
        "{err}"
    );
    let (code, _, err) = convert(
        &["-", "--from", "western", "--to", "kifu"],
        "1. P-7f\n2. Q-3d\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("line 2: unknown piece 'Q'")
            && err.contains("read as western, as --from says"),
        "{err}"
    );
    let (code, _, err) = convert(&["-", "--from", "kifu", "--to", "csa"], "将棋種類：chess\n");
    assert_eq!(code, 2);
    assert!(err.contains("line 1: unknown variant 'chess'"), "{err}");
}

#[test]
fn converts_dai_dai_shogi_through_csa_kif_and_western() {
    let line =
        "setoption name USI_Variant value daidaishogi\nposition startpos moves 9l9k 9f9g 12k12j\n";
    let (code, csa, err) = convert(&["-", "--to", "csa"], line);
    assert_eq!(code, 0, "{err}");
    assert!(
        csa.contains("$VARIANT:daidaishogi\nPI\n+\n+09120911PA\n-09060907PA\n+12111210HD\n"),
        "{csa}"
    );
    let (code, kifu, err) = convert(&["-", "--to", "kifu"], &csa);
    assert_eq!(code, 0, "{err}");
    assert!(kifu.contains("１２十𠵇犬(1211)"), "{kifu}");
    let (code, western, err) = convert(&["-", "--to", "western"], &kifu);
    assert_eq!(code, 0, "{err}");
    assert!(western.contains("3. HD-12j"), "{western}");
    let (code, usi, err) = convert(&["-", "--to", "usi"], &western);
    assert_eq!(code, 0, "{err}");
    assert_eq!(usi, line);
}

#[test]
fn converts_minishogi_through_csa_kif_western_and_japanese() {
    let line = "setoption name USI_Variant value minishogi\nposition startpos moves 5d5c 1b1c 5c5b 1c1d 5b5a+ 1d1e+ R*3c\n";
    let (code, csa, err) = convert(&["-", "--to", "csa"], line);
    assert_eq!(code, 0, "{err}");
    assert!(
        csa.contains("$VARIANT:minishogi\nPI\n+\n+5453FU\n"),
        "{csa}"
    );
    assert!(csa.contains("+5251TO\n-1415TO\n+0033HI\n"), "{csa}");
    let (code, kifu, err) = convert(&["-", "--to", "kifu"], &csa);
    assert_eq!(code, 0, "{err}");
    // Minishogi's KIF names the game by its 手合割, as lishogi does.
    assert!(kifu.contains("手合割：5五将棋\n"), "{kifu}");
    let (code, western, err) = convert(&["-", "--to", "western"], &kifu);
    assert_eq!(code, 0, "{err}");
    assert!(western.contains("5. Px5a+"), "{western}");
    let (code, japanese, err) = convert(&["-", "--to", "japanese"], &western);
    assert_eq!(code, 0, "{err}");
    assert!(japanese.contains("▲５一歩成"), "{japanese}");
    let (code, usi, err) = convert(&["-", "--to", "usi"], &japanese);
    assert_eq!(code, 0, "{err}");
    assert_eq!(usi, line);
}

mod common;
use common::random_game;

/// The reference games as `position` lines.
fn reference_games() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/tests/data/games");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("games dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).expect("read");
        let moves: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect();
        let name = p.file_stem().expect("name").to_string_lossy().into_owned();
        out.push((name, format!("position startpos moves {}", moves.join(" "))));
    }
    assert_eq!(out.len(), 3);
    out
}

/// Writes KIF and CSA with `banmen convert` for the reference games and 100
/// random games, and runs bench/records-cshogi.py over them when python3 has
/// cshogi (`pip install cshogi`); otherwise says it was skipped.
#[test]
fn cshogi_reads_back_our_kif_and_csa() {
    let Some(dir) = common::cshogi_dir("banmen-cshogi") else {
        return;
    };
    let started = std::time::Instant::now();
    let mut games = reference_games();
    games.extend((0..100).map(|seed| (format!("random-{seed:03}"), random_game(seed))));
    for (name, line) in &games {
        let usi = dir.join(format!("{name}.usi"));
        std::fs::write(&usi, format!("{line}\n")).expect("write usi");
        for to in ["kif", "csa"] {
            let out = dir.join(format!("{name}.{to}"));
            let status = Command::new(env!("CARGO_BIN_EXE_banmen"))
                .arg("convert")
                .arg(&usi)
                .args(["--to", to, "--out"])
                .arg(&out)
                .status()
                .expect("run banmen convert");
            assert!(status.success(), "banmen convert {name} --to {to}");
        }
    }
    let stdout = common::check_with_cshogi("--dir", &dir, &dir);
    println!("{stdout}");
    println!(
        "(written and checked in {:.1} s)",
        started.elapsed().as_secs_f64()
    );
    assert!(stdout.contains("103 games"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}
