//! `banmen match` end to end: the built binary against itself and against a
//! fake engine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn banmen() -> &'static str {
    env!("CARGO_BIN_EXE_banmen")
}

/// A fresh directory under Cargo's temporary folder for integration tests.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("match_runner-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_match(args: &[&str]) -> Output {
    Command::new(banmen())
        .arg("match")
        .args(args)
        .output()
        .expect("run banmen match")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn banmen_engine() -> String {
    format!("'{}' usi", banmen())
}

fn records(dir: &Path) -> Vec<String> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("game-")
        })
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn banmen_plays_itself_and_writes_records() {
    let out = temp_dir("self");
    let engine = banmen_engine();
    let o = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--variant",
        "shogi",
        "--games",
        "2",
        "--tc",
        "movetime=50",
        "--max-plies",
        "40",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    let wdl = stdout
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L (first engine): "))
        .unwrap_or_else(|| panic!("no W/D/L line in:\n{stdout}"));
    let n: u32 = wdl
        .split(" / ")
        .map(|x| x.trim().parse::<u32>().unwrap())
        .sum();
    assert_eq!(n, 2, "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("Elo: ")), "{stdout}");
    assert!(stdout.contains("illegal-move 0 "), "{stdout}");
    assert!(stdout.contains("crash 0 "), "{stdout}");
    assert!(stdout.contains("time-forfeit 0 "), "{stdout}");
    let games = records(&out);
    assert_eq!(games.len(), 2);
    for (i, g) in games.iter().enumerate() {
        for header in ["# black: ", "# white: ", "# result: ", "# reason: "] {
            assert!(g.contains(header), "game {}: no '{header}' in\n{g}", i + 1);
        }
        let position = g.lines().last().unwrap();
        assert!(position.starts_with("position startpos moves "), "{g}");
        let plies = position.split_whitespace().count() - 3;
        assert!(plies <= 40, "{g}");
        if plies < 40 {
            assert!(!g.contains("# reason: max-moves"), "{g}");
        }
    }
    // Colours alternate: engine 1 is Black in game 1 and White in game 2.
    assert!(games[0].contains("# black: Banmen") && games[0].contains("(engine 1)\n# white"));
    assert!(games[1].contains("(engine 2)\n# white"));
    assert!(out.join("summary.txt").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn minishogi_matches_play_out_with_openings() {
    let out = temp_dir("mini");
    let openings = out.join("openings.txt");
    std::fs::write(
        &openings,
        "startpos moves 5d5c\nposition sfen rbsgk/4p/5/P4/KGSBR w - 1\n",
    )
    .unwrap();
    let engine = banmen_engine();
    let o = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--variant",
        "minishogi",
        "--games",
        "4",
        "--tc",
        "depth=2",
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    assert!(stdout.contains("(minishogi, depth=2): 4 games"), "{stdout}");
    assert!(
        stdout.contains("illegal-move 0 (0+0), crash 0 (0+0)"),
        "{stdout}"
    );
    let games = records(&out);
    assert_eq!(games.len(), 4);
    assert!(
        games[0].contains("position startpos moves 5d5c "),
        "{}",
        games[0]
    );
    assert!(
        games[2].contains("position sfen rbsgk/4p/5/P4/KGSBR w - 1 moves "),
        "{}",
        games[2]
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// Banmen against itself from a position where White lacks its rook and
/// bishop, with `--adjudicate adjudicate` and at most `max_plies`.
fn lopsided_match(name: &str, adjudicate: &str, max_plies: &str) -> (String, Vec<String>) {
    let dir = temp_dir(name);
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
    )
    .unwrap();
    let out = dir.join("records");
    let engine = banmen_engine();
    let o = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--variant",
        "shogi",
        "--games",
        "2",
        "--tc",
        "movetime=50",
        "--openings",
        openings.to_str().unwrap(),
        "--adjudicate",
        adjudicate,
        "--max-plies",
        max_plies,
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    let games = records(&out);
    let _ = std::fs::remove_dir_all(&dir);
    (stdout, games)
}

#[test]
fn both_engines_agreeing_on_a_big_lead_adjudicate_the_game() {
    // Both see Black two pieces up: Black wins at ply 2, in both games.
    let (stdout, games) = lopsided_match("adjudicate", "score=500,plies=2", "40");
    assert!(
        stdout.contains("W/D/L (first engine): 1 / 0 / 1"),
        "{stdout}"
    );
    assert!(stdout.contains("adjudication 2"), "{stdout}");
    for g in &games {
        assert!(g.contains("# result: black wins"), "{g}");
        assert!(g.contains("# reason: adjudication"), "{g}");
        assert!(
            g.contains("# note: after ply 2: black's engine scores +"),
            "{g}"
        );
        assert!(g.contains("# plies: 2"), "{g}");
    }
    // No such lead: the games go on to the ply limit.
    let (stdout, games) = lopsided_match("no-adjudication", "score=30000,plies=2", "6");
    assert!(
        stdout.contains("W/D/L (first engine): 0 / 2 / 0"),
        "{stdout}"
    );
    for g in &games {
        assert!(g.contains("# reason: max-moves"), "{g}");
        assert!(g.contains("# plies: 6"), "{g}");
    }
    // `final=F`: the same games, at the ply limit, go to the side both
    // engines put F or more ahead instead of being drawn.
    let (stdout, games) = lopsided_match("final", "score=30000,plies=2,final=500", "6");
    assert!(
        stdout.contains("W/D/L (first engine): 1 / 0 / 1"),
        "{stdout}"
    );
    for g in &games {
        assert!(g.contains("# result: black wins"), "{g}");
        assert!(g.contains("# reason: adjudication"), "{g}");
        assert!(g.contains("final=500 at the ply limit"), "{g}");
        assert!(g.contains("# plies: 6"), "{g}");
    }
}

/// Writes a fake USI engine: a shell script that answers `usi` and `isready`
/// and runs `on_go` (shell code) for every `go`.
#[cfg(unix)]
fn fake_engine(dir: &Path, on_go: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("fake-engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 usi) echo 'id name Fake'; echo usiok ;;\n\
                 isready) echo readyok ;;\n\
                 go*) {on_go} ;;\n\
                 quit) exit 0 ;;\n\
               esac\n\
             done\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("'{}'", script.display())
}

/// Two games of shogi, the fake engine first; returns stdout and the records.
#[cfg(unix)]
fn match_against_fake(name: &str, on_go: &str) -> (String, Vec<String>) {
    let dir = temp_dir(name);
    let fake = fake_engine(&dir, on_go);
    let out = dir.join("records");
    let engine = banmen_engine();
    let o = run_match(&[
        "--engine",
        &fake,
        "--engine",
        &engine,
        "--variant",
        "shogi",
        "--games",
        "2",
        "--tc",
        "movetime=50",
        "--margin",
        "300",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    let games = records(&out);
    assert_eq!(games.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
    (stdout, games)
}

/// `--tc` given twice: each engine gets its own (a depth ladder).
#[cfg(unix)]
#[test]
fn each_engine_may_have_its_own_time_control() {
    let dir = temp_dir("ladder");
    let log = dir.join("go.log");
    // The fake engine logs its `go` lines and resigns.
    let fake = fake_engine(
        &dir,
        &format!(
            "echo \"$line\" >> '{}'; echo 'bestmove resign'",
            log.display()
        ),
    );
    let out = dir.join("records");
    let engine = banmen_engine();
    let o = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &fake,
        "--variant",
        "shogi",
        "--games",
        "2",
        "--tc",
        "depth=1",
        "--tc",
        "depth=3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}\n{}", text(&o.stderr));
    assert!(
        stdout.contains("W/D/L (first engine): 2 / 0 / 0"),
        "{stdout}"
    );
    let gos = std::fs::read_to_string(&log).unwrap();
    assert!(gos.lines().count() >= 1, "{gos}");
    assert!(gos.lines().all(|l| l == "go depth 3"), "{gos}");
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("depth=1 vs depth=3"), "{summary}");
    // Three are too many.
    let o = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--variant",
        "shogi",
        "--tc",
        "depth=1",
        "--tc",
        "depth=2",
        "--tc",
        "depth=3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--tc once"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn an_engine_that_plays_an_illegal_move_loses() {
    let (stdout, games) = match_against_fake("illegal", "echo 'bestmove 5e5d'");
    assert!(
        stdout.contains("W/D/L (first engine): 0 / 0 / 2"),
        "{stdout}"
    );
    assert!(stdout.contains("illegal-move 2 (2+0)"), "{stdout}");
    // Game 1: the fake engine is Black and loses at once; game 2: it is White.
    assert!(games[0].contains("# result: white wins"), "{}", games[0]);
    assert!(games[1].contains("# result: black wins"), "{}", games[1]);
    for g in &games {
        assert!(g.contains("# reason: illegal-move"), "{g}");
        assert!(g.contains("# note: engine 1: '5e5d'"), "{g}");
    }
}

#[cfg(unix)]
#[test]
fn silent_crashing_resigning_and_declaring_engines_lose() {
    for (name, on_go, reason) in [
        ("silent", ":", "time-forfeit"),
        ("crash", "exit 1", "crash"),
        ("resign", "echo 'bestmove resign'", "resignation"),
        ("declare", "echo 'bestmove win'", "bad-declaration"),
    ] {
        let (stdout, games) = match_against_fake(name, on_go);
        assert!(
            stdout.contains("W/D/L (first engine): 0 / 0 / 2"),
            "{name}: {stdout}"
        );
        for g in &games {
            assert!(g.contains(&format!("# reason: {reason}")), "{name}: {g}");
        }
    }
}

/// A reply later than its time counts as late (over 50 ms past it), and the
/// summary says by how much the slowest one went over, per engine.
#[cfg(unix)]
#[test]
fn late_replies_are_counted_and_the_worst_reported() {
    let (stdout, _) = match_against_fake("late", "sleep 0.2; echo 'bestmove resign'");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Problems"))
        .unwrap_or_else(|| panic!("no Problems line in:\n{stdout}"));
    assert!(line.contains("late moves 2 (2+0)"), "{line}");
    let (fake, ours) = line
        .split_once("most over the allowance ")
        .and_then(|(_, rest)| rest.strip_suffix(" ms"))
        .and_then(|rest| rest.split_once(" / "))
        .unwrap_or_else(|| panic!("no worst delay in: {line}"));
    let fake: u64 = fake.parse().unwrap();
    // 200 ms of sleep at movetime 50, and below the 300 ms margin.
    assert!((140..350).contains(&fake), "{line}");
    // Banmen moved once (as Black in game 2), within its time or nearly.
    assert!(ours.parse::<u64>().is_ok_and(|ms| ms < 140), "{line}");
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let dir = temp_dir("bad");
    let out = dir.join("records");
    let engine = banmen_engine();
    let cases: [(&[&str], &str); 7] = [
        (
            &["--tc", "blitz=5", "--variant", "shogi"],
            "bad --tc 'blitz=5'",
        ),
        (&["--tc", "movetime=50", "--variant", "chess"], "chess"),
        (
            &[
                "--tc",
                "movetime=50",
                "--variant",
                "shogi",
                "--sprt",
                "elo0=1,elo1=0",
            ],
            "elo1",
        ),
        (
            &["--tc", "movetime=50", "--variant", "shogi", "--games", "0"],
            "--games",
        ),
        (
            &[
                "--tc",
                "movetime=50",
                "--variant",
                "shogi",
                "--adjudicate",
                "score=400",
            ],
            "bad --adjudicate",
        ),
        (
            &[
                "--tc",
                "movetime=50",
                "--variant",
                "shogi",
                "--adjudicate",
                "score=400,plies=600",
            ],
            "past --max-plies",
        ),
        (
            &[
                "--tc",
                "movetime=50",
                "--variant",
                "shogi",
                "--eval-file",
                "1:no-such-net.nnue",
            ],
            "--eval-file '1:no-such-net.nnue': cannot read 'no-such-net.nnue'",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["--engine", &engine, "--engine", &engine];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let o = run_match(&args);
        let stderr = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // An engine that cannot start.
    let missing = dir.join("no-such-engine");
    let missing = missing.to_str().unwrap();
    let o = run_match(&[
        "--engine",
        missing,
        "--engine",
        &engine,
        "--variant",
        "shogi",
        "--tc",
        "movetime=50",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot start engine 1"), "{stderr}");
    // Only one engine.
    let o = run_match(&[
        "--engine",
        &engine,
        "--variant",
        "shogi",
        "--tc",
        "movetime=50",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("exactly two"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--eval-file 2:FILE` reaches the second engine as `setoption name
/// EvalFile` with the file's full path (the engines may start elsewhere).
#[cfg(unix)]
#[test]
fn eval_file_is_sent_to_the_engine_it_names_with_its_full_path() {
    let dir = temp_dir("eval-file");
    let log = dir.join("input.log");
    // Logs every line it is sent and resigns every game.
    let fake = fake_engine(&dir, "echo 'bestmove resign'");
    let script = fake.trim_matches('\'');
    let text_of = std::fs::read_to_string(script).unwrap().replace(
        "while read -r line; do\n",
        &format!(
            "while read -r line; do\necho \"$line\" >> '{}'\n",
            log.display()
        ),
    );
    std::fs::write(script, text_of).unwrap();
    let net = dir.join("some.nnue");
    std::fs::write(&net, "any bytes: the engine judges the file").unwrap();
    let out = dir.join("records");
    let engine = banmen_engine();
    let o = Command::new(banmen())
        .current_dir(&dir)
        .args([
            "match",
            "--engine",
            &engine,
            "--engine",
            &fake,
            "--variant",
            "shogi",
            "--games",
            "2",
            "--tc",
            "movetime=50",
            "--eval-file",
            "2:some.nnue",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .expect("run banmen match");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let sent = std::fs::read_to_string(&log).unwrap();
    let full = std::fs::canonicalize(&net).unwrap();
    assert!(
        sent.contains(&format!("setoption name EvalFile value {}", full.display())),
        "{sent}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
