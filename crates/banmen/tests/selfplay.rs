//! `banmen selfplay` end to end: the file it writes (README "Selfplay") is
//! read back and checked against the rules core, and reruns resume it.

use banmen_rules::{rules_for, AnyRules, BitBoard, Color, Position, Rules, SfenMode, VariantName};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn banmen() -> &'static str {
    env!("CARGO_BIN_EXE_banmen")
}

/// A fresh directory under Cargo's temporary folder for integration tests.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("selfplay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn selfplay<S: AsRef<OsStr>>(args: &[S], out: &Path) -> Output {
    Command::new(banmen())
        .arg("selfplay")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run banmen selfplay")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs and insists on success; returns stdout.
fn selfplay_ok<S: AsRef<OsStr> + std::fmt::Debug>(args: &[S], out: &Path) -> String {
    let o = selfplay(args, out);
    assert!(
        o.status.success(),
        "selfplay {args:?} failed: {}",
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// One `# game` line.
#[derive(Debug, PartialEq)]
struct GameLine {
    index: usize,
    winner: Option<Color>,
    reason: String,
    plies: usize,
}

fn parse_game_line(line: &str) -> GameLine {
    let w: Vec<&str> = line.split(' ').collect();
    assert_eq!(w.len(), 11, "game line: {line}");
    assert_eq!(
        (w[0], w[1], w[3], w[5], w[7], w[9]),
        ("#", "game", "seed", "result", "reason", "plies"),
        "game line: {line}"
    );
    w[4].parse::<u64>().expect("seed");
    GameLine {
        index: w[2].parse().unwrap(),
        winner: match w[6] {
            "black" => Some(Color::Black),
            "white" => Some(Color::White),
            "draw" => None,
            other => panic!("result {other}"),
        },
        reason: w[8].to_string(),
        plies: w[10].parse().unwrap(),
    }
}

/// Checks every line of a file against the rules; returns its games in file order.
fn check_file(path: &Path, variant: &str, max_plies: usize) -> Vec<GameLine> {
    let name: VariantName = variant.parse().unwrap();
    match rules_for(name, "").unwrap() {
        AnyRules::Nine(r) => check_lines(r, path, variant, max_plies),
        AnyRules::Seventeen(r) => check_lines(r, path, variant, max_plies),
    }
}

fn check_lines<B: BitBoard>(
    rules: &'static Rules<B>,
    path: &Path,
    variant: &str,
    max_plies: usize,
) -> Vec<GameLine> {
    let content = std::fs::read_to_string(path).unwrap();
    assert!(content.ends_with('\n'));
    let mut lines = content.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with(&format!("# banmen selfplay v1 variant={variant} rules=- ")),
        "header: {header}"
    );
    assert!(header.contains(" random-plies=8 seed="), "{header}");
    assert!(
        header.contains(&format!(" max-plies={max_plies} ")),
        "{header}"
    );
    let mut games = Vec::new();
    // (side to move, result, ply) of the current game's lines.
    let mut block: Vec<(Color, i32, usize)> = Vec::new();
    for line in lines {
        if line.starts_with("# game ") {
            let game = parse_game_line(line);
            assert!(game.plies <= max_plies && game.plies > 8, "{line}");
            assert!(!block.is_empty(), "a game without positions: {line}");
            for &(side, result, ply) in &block {
                let expected = match game.winner {
                    None => 0,
                    Some(w) if w == side => 1,
                    Some(_) => -1,
                };
                assert_eq!(result, expected, "result of ply {ply} in {line}");
                assert!(ply >= 8 && ply <= game.plies, "ply {ply} in {line}");
            }
            if game.winner.is_none() {
                assert!(["max-moves", "repetition"].contains(&game.reason.as_str()));
            }
            block.clear();
            games.push(game);
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [sfen, score, best, ply, result] = fields[..] else {
            panic!("not five fields: {line}");
        };
        let pos = Position::from_sfen(rules, sfen, SfenMode::Strict)
            .unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert!(!pos.in_check(), "a position in check was written: {line}");
        pos.parse_move(best)
            .unwrap_or_else(|e| panic!("{best} in {sfen}: {e}"));
        match score.strip_prefix('#') {
            Some(n) => assert_ne!(n.parse::<i32>().unwrap(), 0, "{line}"),
            None => {
                score.parse::<i32>().unwrap();
            }
        }
        let ply: usize = ply.parse().unwrap();
        assert_eq!(ply as u32 + 1, pos.move_number(), "{line}");
        block.push((pos.side_to_move(), result.parse().unwrap(), ply));
    }
    assert!(block.is_empty(), "positions after the last game line");
    games
}

fn indices(games: &[GameLine]) -> Vec<usize> {
    games.iter().map(|g| g.index).collect()
}

/// The summary line's counts agree with the file's game lines.
fn check_summary(stdout: &str, games: &[GameLine], path: &Path) {
    let positions = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .count();
    let count = |w: Option<Color>| games.iter().filter(|g| g.winner == w).count();
    let expected = format!(
        "games {} positions {positions} black {} white {} draws {} time ",
        games.len(),
        count(Some(Color::Black)),
        count(Some(Color::White)),
        count(None)
    );
    assert!(stdout.starts_with(&expected), "{stdout} vs {expected}");
}

/// Plays `games` games of `variant` at depth 1 up to `plies` plies and checks
/// every line of the file and the summary.
fn plays_legal_games(variant: &str, games: usize, plies: usize, extra: &[&str]) {
    let dir = temp_dir(variant);
    let out = dir.join(format!("{variant}.txt"));
    let (games_arg, plies_arg) = (games.to_string(), plies.to_string());
    let mut args = vec![
        "--variant",
        variant,
        "--games",
        &games_arg,
        "--depth",
        "1",
        "--max-plies",
        &plies_arg,
    ];
    args.extend_from_slice(extra);
    let stdout = selfplay_ok(&args, &out);
    let written = check_file(&out, variant, plies);
    assert_eq!(indices(&written), (0..games).collect::<Vec<_>>());
    check_summary(&stdout, &written, &out);
}

#[test]
fn shogi_games_are_legal_and_closed_by_their_game_lines() {
    plays_legal_games("shogi", 2, 40, &["--threads", "2"]);
}

#[test]
fn cannon_shogi_games_are_legal() {
    plays_legal_games("cannonshogi", 2, 40, &[]);
}

#[test]
fn dai_dai_shogi_games_are_legal() {
    plays_legal_games("daidaishogi", 1, 20, &[]);
}

#[test]
fn a_node_limit_is_written_in_the_header() {
    let dir = temp_dir("nodes");
    let out = dir.join("nodes.txt");
    let args = [
        "--variant",
        "shogi",
        "--games",
        "1",
        "--nodes",
        "300",
        "--max-plies",
        "30",
    ];
    selfplay_ok(&args, &out);
    let content = std::fs::read_to_string(&out).unwrap();
    assert!(content.lines().next().unwrap().contains(" nodes=300 "));
    check_file(&out, "shogi", 30);
}

/// Short shogi games at depth 2 (seed 7), `games` of them on `threads` threads.
fn short(games: usize, threads: usize) -> Vec<String> {
    let args = format!(
        "--variant shogi --depth 2 --max-plies 60 --random-plies 8 --seed 7 --games {games} --threads {threads}"
    );
    args.split(' ').map(String::from).collect()
}

/// `args` with the value after `flag` replaced.
fn with(mut args: Vec<String>, flag: &str, value: &str) -> Vec<String> {
    let i = args.iter().position(|a| a == flag).expect("flag") + 1;
    args[i] = value.to_string();
    args
}

#[test]
fn the_same_seed_writes_the_same_file_on_one_thread_or_two() {
    let dir = temp_dir("determinism");
    let one = dir.join("one.txt");
    let two = dir.join("two.txt");
    selfplay_ok(&short(4, 1), &one);
    selfplay_ok(&short(4, 2), &two);
    let a = std::fs::read(&one).unwrap();
    assert_eq!(a, std::fs::read(&two).unwrap());
    assert_eq!(indices(&check_file(&one, "shogi", 60)), [0, 1, 2, 3]);
    let other = dir.join("other.txt");
    selfplay_ok(&with(short(4, 2), "--seed", "8"), &other);
    assert_ne!(
        a,
        std::fs::read(&other).unwrap(),
        "another seed, other games"
    );
}

#[test]
fn a_rerun_plays_only_the_missing_games_and_repairs_a_torn_end() {
    let dir = temp_dir("resume");
    let whole = dir.join("whole.txt");
    selfplay_ok(&short(3, 2), &whole);
    let expected = std::fs::read(&whole).unwrap();

    // Two games, then three: exactly one more game, the same as in one run.
    let resumed = dir.join("resumed.txt");
    selfplay_ok(&short(2, 2), &resumed);
    let two_games = std::fs::read(&resumed).unwrap();
    assert!(expected.starts_with(&two_games));
    let stdout = selfplay_ok(&short(3, 2), &resumed);
    assert_eq!(std::fs::read(&resumed).unwrap(), expected);
    let games = check_file(&resumed, "shogi", 60);
    assert_eq!(indices(&games), [0, 1, 2]);
    check_summary(&stdout, &games, &resumed);

    // Nothing missing: nothing written.
    selfplay_ok(&short(3, 1), &resumed);
    assert_eq!(std::fs::read(&resumed).unwrap(), expected);

    // A torn last game (a kill during its write): cut off and played again.
    for cut in [1, 7, 100] {
        let torn = dir.join(format!("torn-{cut}.txt"));
        std::fs::write(&torn, &expected[..expected.len() - cut]).unwrap();
        let o = selfplay(&short(3, 2), &torn);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stderr).contains("cutting"), "{}", text(&o.stderr));
        assert_eq!(std::fs::read(&torn).unwrap(), expected, "cut {cut}");
    }

    // A torn header: written again.
    let header_only = dir.join("header.txt");
    let header_end = expected.iter().position(|&b| b == b'\n').unwrap();
    std::fs::write(&header_only, &expected[..header_end / 2]).unwrap();
    selfplay_ok(&short(3, 2), &header_only);
    assert_eq!(std::fs::read(&header_only).unwrap(), expected);
}

#[test]
fn a_file_of_other_settings_is_refused_and_left_alone() {
    let dir = temp_dir("mismatch");
    let out = dir.join("games.txt");
    selfplay_ok(&short(1, 1), &out);
    let before = std::fs::read(&out).unwrap();
    let o = selfplay(&with(short(2, 1), "--depth", "3"), &out);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("other settings") && err.contains("depth=3"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
}

#[test]
fn bad_arguments_are_refused_without_a_panic() {
    let dir = temp_dir("errors");
    let out = dir.join("x.txt");
    let cases: [(&[&str], &str, &Path); 5] = [
        (
            &["--variant", "chess", "--games", "1", "--depth", "1"],
            "unknown variant",
            &out,
        ),
        (
            &[
                "--variant",
                "shogi",
                "--games",
                "1",
                "--depth",
                "1",
                "--nodes",
                "5",
            ],
            "cannot be used with",
            &out,
        ),
        (&["--variant", "shogi", "--games", "1"], "--depth", &out),
        (
            &[
                "--variant",
                "shogi",
                "--games",
                "1",
                "--depth",
                "1",
                "--random-plies",
                "40",
                "--max-plies",
                "40",
            ],
            "--random-plies",
            &out,
        ),
        (
            &["--variant", "shogi", "--games", "1", "--depth", "1"],
            "cannot open",
            Path::new("/nonexistent-dir/selfplay.txt"),
        ),
    ];
    for (args, message, path) in cases {
        let o = selfplay(args, path);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!out.exists(), "no file for refused arguments");
}

/// `banmen tune --only` fits the named parameters and leaves every other
/// one as it started; a prefix that names no parameter is refused.
#[test]
fn tune_only_fits_the_named_parameters() {
    let dir = temp_dir("tune-only");
    let data = dir.join("data.txt");
    selfplay_ok(
        &[
            "--variant",
            "shogi",
            "--games",
            "4",
            "--depth",
            "1",
            "--seed",
            "5",
        ],
        &data,
    );
    let tune_with = |only: &str, out: &Path, extra: &[&str]| {
        Command::new(banmen())
            .args([
                "tune",
                "--variant",
                "shogi",
                "--from-shipped",
                "--epochs",
                "20",
            ])
            .args(["--threads", "1", "--only", only])
            .args(extra)
            .current_dir(std::env::temp_dir())
            .arg("--data")
            .arg(&data)
            .arg("--out")
            .arg(out)
            .output()
            .expect("run banmen tune")
    };
    let tune = |only: &str, out: &Path| tune_with(only, out, &["--validation", "0.0"]);
    let out = dir.join("params.txt");
    let o = tune("hand,handx", &out);
    assert!(o.status.success(), "tune failed: {}", text(&o.stderr));
    let values = |text: &str| -> Vec<(String, i32)> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let (name, v) = l.rsplit_once(' ').unwrap();
                (name.to_string(), v.parse().unwrap())
            })
            .collect()
    };
    let shipped = values(include_str!("../../engine/params/shogi.txt"));
    let tuned = values(&std::fs::read_to_string(&out).unwrap());
    let mut changed = 0;
    for (name, v) in &tuned {
        if let Some((_, s)) = shipped.iter().find(|(n, _)| n == name) {
            if s != v {
                assert!(name.starts_with("hand"), "{name} changed: {s} -> {v}");
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "no hand parameter moved");
    let o = tune("nosuch", &dir.join("none.txt"));
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("--only nosuch"),
        "{}",
        text(&o.stderr)
    );
    assert!(!dir.join("none.txt").exists());
    // Early stopping needs held-out games; the pull must be a number 0 or more.
    for (extra, says) in [
        (
            &["--validation", "0.0", "--keep-best"][..],
            "--keep-best needs held-out games",
        ),
        (&["--l2", "-1"][..], "--l2 must be"),
    ] {
        let o = tune_with("hand", &dir.join("none.txt"), extra);
        assert!(!o.status.success(), "{extra:?} accepted");
        assert!(text(&o.stderr).contains(says), "{}", text(&o.stderr));
        assert!(!dir.join("none.txt").exists());
    }
    // With held-out games it keeps the best check and says which.
    let kept = dir.join("kept.txt");
    let o = tune_with("hand", &kept, &["--validation", "0.5", "--keep-best"]);
    assert!(o.status.success(), "tune failed: {}", text(&o.stderr));
    let header = std::fs::read_to_string(&kept).unwrap();
    assert!(
        header.contains("of 20, kept as the best held-out check"),
        "{header}"
    );
    // The header names the commit the binary was built from, even when the
    // command runs outside the repository (the runs above ran in the
    // system's temporary folder).
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| text(&o.stdout).trim().to_string());
    if let Some(head) = head {
        assert!(header.contains(&format!("# commit: {head}\n")), "{header}");
    }
    assert!(text(&o.stderr).contains("held-out loss"));
}

/// `banmen train-nnue` fits a net to selfplay data and writes a file that
/// `banmen usi` loads with `EvalFile` and searches with; bad arguments are
/// refused and nothing is written.
#[test]
fn train_nnue_writes_a_net_the_usi_engine_plays_with() {
    let dir = temp_dir("train-nnue");
    let data = dir.join("data.txt");
    selfplay_ok(
        &[
            "--variant",
            "shogi",
            "--games",
            "4",
            "--depth",
            "1",
            "--seed",
            "6",
        ],
        &data,
    );
    let train = |extra: &[&str], out: &Path| {
        Command::new(banmen())
            .args(["train-nnue", "--variant", "shogi", "--hidden", "8"])
            .args(["--epochs", "2", "--threads", "1", "--validation", "0.25"])
            .args(extra)
            .arg("--data")
            .arg(&data)
            .arg("--out")
            .arg(out)
            .output()
            .expect("run banmen train-nnue")
    };
    let net = dir.join("shogi.nnue");
    let o = train(&[], &net);
    assert!(o.status.success(), "train-nnue failed: {}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.starts_with("wrote "), "{stdout}");
    assert!(stdout.contains("quantised vs float"), "{stdout}");
    assert!(text(&o.stderr).contains("epoch 2: training loss"));
    let bytes = std::fs::read(&net).unwrap();
    assert_eq!(&bytes[..8], b"BANMENNN");

    let mut usi = Command::new(banmen())
        .arg("usi")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = usi.stdin.as_mut().unwrap();
        writeln!(
            stdin,
            "usi\nsetoption name EvalFile value {}\nisready\nposition startpos moves 7g7f\ngo depth 3\n",
            net.display()
        )
        .unwrap();
    }
    let out = std::io::BufReader::new(usi.stdout.take().unwrap());
    let mut loaded = false;
    let mut best = None;
    for line in std::io::BufRead::lines(out) {
        let line = line.unwrap();
        loaded |=
            line.starts_with("info string EvalFile: ") && line.contains("for shogi, hidden 8");
        if let Some(m) = line.strip_prefix("bestmove ") {
            best = Some(m.split(' ').next().unwrap().to_string());
            break;
        }
    }
    let _ = usi.stdin.as_mut().map(|s| {
        use std::io::Write;
        let _ = writeln!(s, "quit");
    });
    let _ = usi.wait();
    assert!(loaded, "no EvalFile line");
    let rules = rules_for(VariantName::Shogi, "").unwrap();
    let AnyRules::Nine(r) = rules else { panic!() };
    let pos = Position::from_sfen(
        r,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        SfenMode::Strict,
    )
    .unwrap();
    let best = best.expect("a bestmove");
    assert!(pos.parse_move(&best).is_ok(), "illegal {best}");

    for (extra, complaint) in [
        (&["--hidden", "0"][..], "--hidden"),
        (&["--buckets", "5"][..], "unknown buckets"),
        (&["--lambda", "2"][..], "--lambda"),
        (&["--scale", "0"][..], "--scale"),
    ] {
        let out = dir.join("bad.nnue");
        let o = train(extra, &out);
        assert!(!o.status.success(), "{extra:?} accepted");
        assert!(text(&o.stderr).contains(complaint), "{}", text(&o.stderr));
        assert!(!out.exists());
    }
}
