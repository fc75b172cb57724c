//! `banmen play` as a process: moves and commands through piped stdin, the
//! board and messages read back from stdout.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs `banmen play ARGS` with `input` on stdin; returns (stdout, stderr, success).
fn play_with_bytes(args: &[&str], input: &[u8]) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .arg("play")
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start banmen play");
    let mut stdin = child.stdin.take().expect("stdin");
    // The process may end (quit) before reading everything: ignore a broken pipe.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "banmen play panicked:\n{stderr}"
    );
    (stdout, stderr, out.status.success())
}

fn play(args: &[&str], input: &str) -> String {
    let (out, err, ok) = play_with_bytes(args, input.as_bytes());
    assert!(ok, "banmen play failed:\n{out}\n{err}");
    out
}

fn assert_contains(out: &str, needle: &str) {
    assert!(out.contains(needle), "missing {needle:?} in:\n{out}");
}

/// A file in the temp directory, unique to this process and test.
fn temp_file(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("banmen-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// The board lines (inside the frame) of the last board printed.
fn last_board(out: &str) -> Vec<String> {
    let start = out.rfind('┌').expect("a board");
    out[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.contains('└'))
        .map(str::to_string)
        .collect()
}

const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// Black to move; after any quiet move White mates with G*5h.
const WHITE_MATES: &str = "4k4/9/9/9/9/9/4p3P/9/4K4 b g 1";

#[test]
fn human_mates_in_one_and_wins() {
    let out = play(
        &[
            "--sfen",
            MATE_IN_ONE,
            "--pieces",
            "letters",
            "--movetime",
            "50",
        ],
        "G*5b\nquit\n",
    );
    assert_contains(&out, "☗ black plays G*5b");
    assert_contains(&out, "game over: ☗ Black wins by checkmate — you win");
    let board = last_board(&out);
    // The checked king is marked `!`, the last move's square `*`.
    assert!(board[0].contains("! k"), "{}", board[0]);
    assert!(board[1].contains("* G"), "{}", board[1]);
    assert!(!out.contains("Banmen plays"), "{out}");
}

#[test]
fn engine_replies_and_mates_the_human() {
    let out = play(
        &[
            "--sfen",
            WHITE_MATES,
            "--pieces",
            "letters",
            "--movetime",
            "300",
        ],
        "1g1f\nmoves\n5i4h\n",
    );
    assert_contains(&out, "☗ black plays 1g1f (P-1f)");
    assert_contains(&out, "☖ Banmen plays G*5h");
    assert_contains(&out, "mate in 1]");
    assert_contains(&out, "last move: ☖ G*5h");
    assert_contains(&out, "game over: ☖ White wins by checkmate — Banmen wins");
    // After the end, moves are refused with the reason.
    assert_contains(&out, "the game is over (checkmate)");
    assert_contains(&out, "end of input: goodbye");
}

#[test]
fn human_resigns_against_the_engine() {
    let out = play(
        &["--movetime", "50", "--pieces", "letters"],
        "7g7f\nresign\n2g2f\nresign\nquit\n",
    );
    assert_contains(&out, "☗ black plays 7g7f (P-7f)");
    assert_contains(&out, "☖ Banmen plays");
    assert_contains(&out, "☗ black resigns");
    assert_contains(&out, "game over: ☖ White wins by resignation — Banmen wins");
    assert_contains(
        &out,
        "the game is over (resignation); 'undo', 'save FILE' or 'quit'",
    );
    assert_contains(&out, "the game is over (resignation)\n");
    assert_contains(&out, "goodbye");
}

#[test]
fn illegal_moves_get_the_rules_reason() {
    let out = play(
        &["--opponent", "human", "--pieces", "letters"],
        "7g7e\n5i5g\n3c3d\nP*5e\n4e4d\n8h2b+\n7g7f+\n99z1a\nP-7e\nBx2b\nK-3c\nquit\n",
    );
    for (input, reason) in [
        ("7g7e", "illegal move: the piece cannot move there"),
        ("5i5g", "illegal move: the destination holds your own piece"),
        (
            "3c3d",
            "illegal move: the piece on 3c belongs to the opponent",
        ),
        ("P*5e", "illegal move: no pawn in hand"),
        ("4e4d", "illegal move: no piece on 4e"),
        ("8h2b+", "illegal move: the piece cannot move there"),
        (
            "7g7f+",
            "illegal move: the piece cannot promote on this move",
        ),
        ("99z1a", "illegal move: square 99z is not on the board"),
        ("P-7e", "illegal move: none of your pieces P can move to 7e"),
        ("Bx2b", "illegal move: the piece cannot move there"),
        ("K-3c", "illegal move: the piece cannot move there"),
    ] {
        assert_contains(&out, &format!("{input}: {reason}"));
    }
    // Nothing was played.
    assert!(!out.contains("black plays"), "{out}");
    // Nifu and uchifuzume, named by the rules core.
    let out = play(
        &[
            "--opponent",
            "human",
            "--sfen",
            "4k4/9/9/9/9/9/4P4/9/K8 b P 1",
        ],
        "P*5f\nquit\n",
    );
    assert_contains(
        &out,
        "P*5f: illegal move: two unpromoted pawns on one file (nifu)",
    );
    let out = play(
        &[
            "--opponent",
            "human",
            "--sfen",
            "3lkl3/9/4G4/9/9/9/9/9/K8 b P 1",
        ],
        "P*5b\nquit\n",
    );
    assert_contains(
        &out,
        "P*5b: illegal move: a pawn drop may not give checkmate (uchifuzume)",
    );
}

#[test]
fn western_input_plays_the_same_moves() {
    let out = play(
        &["--opponent", "human", "--pieces", "letters"],
        "P-7f\nP-3d\nBx2b+\nSx2b\nB*5e\nmoves\nquit\n",
    );
    assert_contains(&out, "☗ black plays 7g7f (P-7f)");
    assert_contains(&out, "☖ white plays 3c3d (P-3d)");
    assert_contains(&out, "☗ black plays 8h2b+ (Bx2b+)");
    assert_contains(&out, "☖ white plays 3a2b (Sx2b)");
    assert_contains(&out, "☗ black plays B*5e");
    assert_contains(&out, "☖ white (human) in hand: b");
    // The move list pairs USI with Western.
    assert_contains(&out, "2b3a (S-3a)");
}

#[test]
fn undo_takes_back_the_engine_reply_and_your_move() {
    let out = play(
        &["--movetime", "50", "--pieces", "letters"],
        "undo\n7g7f\nundo\nquit\n",
    );
    assert_contains(&out, "nothing to undo");
    assert_contains(&out, "took back: 7g7f (P-7f), ");
    let board = last_board(&out);
    assert_eq!(board[6].trim_end(), "  │  P  P  P  P  P  P  P  P  P │ g");
    assert_eq!(board[2].trim_end(), "  │  p  p  p  p  p  p  p  p  p │ c");
    // Between two people, undo takes back one move.
    let out = play(
        &["--opponent", "human", "--pieces", "letters"],
        "7g7f\n3c3d\nundo\nquit\n",
    );
    assert_contains(&out, "took back: 3c3d (P-3d)\n");
    assert_contains(&out, "last move: ☗ 7g7f (P-7f)");
}

#[test]
fn flip_turns_the_board_and_white_starts_turned() {
    let out = play(
        &["--opponent", "human", "--pieces", "letters"],
        "flip\nquit\n",
    );
    let board = last_board(&out);
    assert_eq!(board[0].trim_end(), "  │  L  N  S  G  K  G  S  N  L │ i");
    assert_eq!(board[8].trim_end(), "  │  l  n  s  g  k  g  s  n  l │ a");
    assert_contains(&out, "    1  2  3  4  5  6  7  8  9\n");
    // Playing White: the board starts turned and the engine moves first.
    let out = play(&["--side", "white", "--movetime", "50"], "quit\n");
    assert_contains(&out, "☗ Banmen plays");
    assert_contains(&out, "☖ white to move> ");
    let board = last_board(&out);
    // Kanji: the side at the bottom stands upright, the other is marked v.
    assert!(board[0].contains("v香"), "{}", board[0]);
    assert!(board[8].ends_with("│ a"), "{}", board[8]);
    assert!(board[8].contains(" 玉"), "{}", board[8]);
}

#[test]
fn save_and_reload_kif_csa_jkf_and_sfen() {
    let moves = "7g7f\n3c3d\n8h2b+\n3a2b\n";
    for (name, format) in [
        ("game.kif", "kif"),
        ("game.csa", "csa"),
        ("game.jkf", "jkf"),
        ("game.txt", "SFEN + USI moves"),
    ] {
        let path = temp_file(name);
        let p = path.to_str().unwrap();
        let out = play(
            &["--opponent", "human", "--pieces", "letters"],
            &format!("{moves}save {p}\nquit\n"),
        );
        assert_contains(&out, &format!("saved 4 moves to {p} as {format}"));
        let bytes = std::fs::read(&path).unwrap();
        let record = banmen_formats::read(&bytes, banmen_formats::Format::from_extension(p))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(record.moves, ["7g7f", "3c3d", "8h2b+", "3a2b"], "{name}");
        // `--load` continues the game where it stopped.
        let out = play(
            &["--load", p, "--opponent", "human", "--pieces", "letters"],
            "quit\n",
        );
        assert_contains(&out, "last move: ☖ 3a2b (Sx2b)");
        assert_contains(&out, "☗ black (human) in hand: B\n");
        assert_contains(&out, "☖ white (human) in hand: b\n");
        let _ = std::fs::remove_file(&path);
    }
    let out = play(
        &["--opponent", "human"],
        "save /nonexistent-dir/x.kif\nsave\nquit\n",
    );
    assert_contains(&out, "cannot save to /nonexistent-dir/x.kif");
    assert_contains(&out, "save needs a file name");
}

#[test]
fn a_finished_game_saves_its_result() {
    let path = temp_file("mate.kifu");
    let p = path.to_str().unwrap();
    let out = play(&["--sfen", MATE_IN_ONE], &format!("G*5b\nsave {p}\n"));
    assert_contains(&out, "Black wins by checkmate");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("詰み"), "{text}");
    let record = banmen_formats::read(text.as_bytes(), None).unwrap();
    assert_eq!(record.moves, ["G*5b"]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn help_lists_commands_and_notations() {
    let out = play(&["--opponent", "human"], "help\nquit\n");
    for needle in [
        "USI: 7g7f",
        "Western: P-7f",
        "moves ",
        "undo ",
        "flip ",
        "save FILE",
        "resign ",
        "quit ",
    ] {
        assert_contains(&out, needle);
    }
}

#[test]
fn malformed_input_never_panics() {
    let mut input: Vec<u8> = Vec::new();
    for line in [
        "",
        "   ",
        "7g",
        "7g7f7e7d7c",
        "P*",
        "*5e",
        "99z99z",
        "+",
        "x",
        "P-",
        "P-0a",
        "Gx",
        "unknown",
        "P*5e+",
        "10a10b",
        "0a0b",
        "G*5b=",
        "Kx",
        "++P-7f",
        "１２",
        "🙂",
        "PP*5e",
        "LN-13o",
        "7g7f=",
        "7g 7f",
        "Q-5e",
        "P-5e5e",
        "+P-5e",
        "GC-5e",
        "p-7f",
        "save ",
        "\t7g\t",
        "P*10j",
        "P-99a",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\x1b[A\n\xff\xfe7g7f\n\x00\n");
    input.extend(vec![b'7'; 10_000]);
    input.extend_from_slice(b"\n7g7f\n");
    // No final newline, no quit: end of input ends the game.
    input.extend_from_slice(b"3c3d");
    let (out, _, ok) = play_with_bytes(&["--opponent", "human", "--pieces", "letters"], &input);
    assert!(ok, "{out}");
    assert_contains(
        &out,
        "'unknown' is neither a move (7g7f, P-7f) nor a command",
    );
    assert_contains(&out, "'🙂' is neither a move");
    assert_contains(&out, "unreadable input");
    assert_contains(&out, "unknown piece 'Q' in 'Q-5e'");
    // The good moves among the junk were played.
    assert_contains(&out, "☗ black plays 7g7f (P-7f)");
    assert_contains(&out, "☖ white plays 3c3d (P-3d)");
    assert_contains(&out, "end of input: goodbye");
}

#[test]
fn end_of_input_ends_cleanly() {
    let out = play(&["--movetime", "50"], "");
    assert_contains(&out, "end of input: goodbye");
}

#[test]
fn bad_arguments_are_errors() {
    for args in [
        &["--variant", "chess"][..],
        &["--handicap", "queen"],
        &["--sfen", "not a position"],
        &["--moves", "7g7f 7g7f"],
        &["--load", "/nonexistent/game.kif"],
    ] {
        let (out, err, ok) = play_with_bytes(args, b"quit\n");
        assert!(!ok, "{args:?} should fail:\n{out}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn repetition_ends_the_game_in_a_draw() {
    let cycle = "5i4h\n5a4b\n4h5i\n4b5a\n";
    let out = play(
        &["--opponent", "human", "--pieces", "letters"],
        &format!("{cycle}{cycle}{cycle}quit\n"),
    );
    assert_contains(&out, "game over: draw by repetition");
}

#[test]
fn handicap_games_start_with_white() {
    let out = play(
        &[
            "--handicap",
            "two-pieces",
            "--movetime",
            "50",
            "--pieces",
            "letters",
        ],
        "quit\n",
    );
    assert_contains(&out, "☖ Banmen plays");
    let board = last_board(&out);
    assert!(!out.is_empty());
    assert_eq!(board.len(), 9);
}

#[test]
fn cannon_shogi_against_the_engine_and_in_western() {
    let out = play(
        &["--variant", "cannonshogi", "--movetime", "100"],
        "7g7f\nquit\n",
    );
    assert_contains(&out, "☗ black plays 7g7f (P-7f)");
    assert_contains(&out, "☖ Banmen plays");
    // Kanji board: the cannons are written in two kanji.
    assert_contains(&out, "金砲");
    let out = play(
        &[
            "--variant",
            "cannonshogi",
            "--opponent",
            "human",
            "--pieces",
            "letters",
        ],
        "7g7f\n3c3d\nGC-6g\nquit\n",
    );
    assert_contains(&out, "☗ black plays 6h6g (GC-6g)");
    let board = last_board(&out);
    assert!(board[6].contains("* U"), "{}", board[6]);
}

#[test]
fn dai_dai_lion_moves_and_engine_reply() {
    let out = play(
        &["--variant", "daidaishogi", "--movetime", "100"],
        "15p16o15o\n15p15o15p\nmoves\nquit\n",
    );
    // Two-digit file labels and two-letter codes.
    assert_contains(
        &out,
        "    17  16  15  14  13  12  11  10   9   8   7   6   5   4   3   2   1\n",
    );
    assert_contains(&out, "LN");
    assert_contains(
        &out,
        "15p16o15o: illegal move: the piece cannot make that double move",
    );
    assert_contains(&out, "☗ black plays 15p15o15p (LN)");
    assert_contains(&out, "☖ Banmen plays");
    assert_contains(&out, "(no drops in this game)");
    assert_contains(&out, "legal moves (");
    // Every board line fits an 80-column terminal.
    for line in last_board(&out) {
        assert!(line.chars().count() <= 80, "{line}");
    }
    // The kanji board uses the one-kanji abbreviations.
    let out = play(
        &[
            "--variant",
            "daidaishogi",
            "--opponent",
            "human",
            "--pieces",
            "kanji",
        ],
        "quit\n",
    );
    assert_contains(&out, "v獅");
    assert_contains(&out, " 獅");
}

#[test]
fn cannon_and_dai_dai_save_and_reload() {
    // Where the formats crate cannot write a game in the file's format, the
    // file gets an SFEN + USI moves line instead; either way it reloads.
    for (variant, input, last, name) in [
        (
            "cannonshogi",
            "7g7f\n3c3d\n",
            "last move: ☖ 3c3d (P-3d)",
            "c.kif",
        ),
        (
            "cannonshogi",
            "7g7f\n3c3d\n",
            "last move: ☖ 3c3d (P-3d)",
            "c.csa",
        ),
        (
            "daidaishogi",
            "15p15o15p\n3b3c3b\n",
            "last move: ☖ 3b3c3b (LN)",
            "dd.sfen",
        ),
        (
            "daidaishogi",
            "15p15o15p\n3b3c3b\n",
            "last move: ☖ 3b3c3b (LN)",
            "dd.kif",
        ),
        (
            "daidaishogi",
            "15p15o15p\n3b3c3b\n",
            "last move: ☖ 3b3c3b (LN)",
            "dd.csa",
        ),
    ] {
        let path = temp_file(name);
        let p = path.to_str().unwrap();
        let out = play(
            &["--variant", variant, "--opponent", "human"],
            &format!("{input}save {p}\nquit\n"),
        );
        assert_contains(&out, &format!("saved 2 moves to {p} as "));
        let out = play(&["--load", p, "--opponent", "human"], "quit\n");
        assert_contains(&out, &format!("Banmen {variant}"));
        assert_contains(&out, last);
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn colours_follow_the_flags() {
    let plain = play(&["--opponent", "human"], "quit\n");
    assert!(!plain.contains('\x1b'), "piped output has no colours");
    let coloured = play(
        &["--opponent", "human", "--color", "always"],
        "7g7f\nquit\n",
    );
    assert_contains(&coloured, "\x1b[1;33m");
    assert_contains(&coloured, "\x1b[1;36m");
    // The last move's squares get a background.
    assert_contains(&coloured, ";44m");
    let off = play(
        &["--opponent", "human", "--color", "always", "--no-color"],
        "quit\n",
    );
    assert!(!off.contains('\x1b'));
}

#[test]
fn check_is_announced_and_impasse_and_declaration_follow_the_rules() {
    let out = play(
        &[
            "--sfen",
            MATE_IN_ONE,
            "--opponent",
            "human",
            "--pieces",
            "letters",
        ],
        "G*4b\nquit\n",
    );
    assert_contains(&out, "check: white is in check");
    assert!(last_board(&out)[0].contains("! k"), "{out}");
    // Both kings in their zones: the impasse is scored by points.
    let out = play(
        &[
            "--opponent",
            "human",
            "--sfen",
            "9/4K4/9/9/9/9/9/4k4/9 b 2R2B4G4S4N4L9P9p 1",
        ],
        "impasse\nundo\nquit\n",
    );
    assert_contains(&out, "impasse: black has 45 points, white 9");
    assert_contains(&out, "game over: ☗ Black wins by impasse points");
    assert_contains(
        &out,
        "the game ended by impasse points; it cannot be taken back",
    );
    let out = play(
        &["--opponent", "human", "--entering-king", "CSARule27"],
        "impasse\ndeclare\nquit\n",
    );
    assert_contains(
        &out,
        "impasse refused: black's king is not in the promotion zone",
    );
    assert_contains(
        &out,
        "declaration refused: the king is not in the enemy camp",
    );
}

/// Runs `banmen play ARGS` on a pseudo-terminal through util-linux `script`;
/// `None` when `script` is not installed.
fn play_on_a_terminal(args: &str, no_color: bool) -> Option<String> {
    let command = format!("{} play {args}", env!("CARGO_BIN_EXE_banmen"));
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if no_color {
        cmd.env("NO_COLOR", "1");
    } else {
        cmd.env_remove("NO_COLOR");
    }
    let mut child = cmd.spawn().ok()?;
    let mut stdin = child.stdin.take()?;
    let _ = stdin.write_all(b"7g7f\nquit\n");
    drop(stdin);
    let out = child.wait_with_output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn colours_are_on_for_a_terminal_unless_no_color_is_set() {
    let Some(coloured) = play_on_a_terminal("--opponent human", false) else {
        eprintln!("skipped: util-linux `script` is not available");
        return;
    };
    assert_contains(&coloured, "☗ black plays 7g7f");
    assert_contains(&coloured, "\x1b[1;33m");
    let plain = play_on_a_terminal("--opponent human", true).expect("script ran before");
    assert_contains(&plain, "☗ black plays 7g7f");
    assert!(!plain.contains("\x1b["), "NO_COLOR is set:\n{plain}");
    let plain = play_on_a_terminal("--opponent human --no-color", false).expect("script");
    assert!(!plain.contains("\x1b["), "--no-color:\n{plain}");
}

#[test]
fn minishogi_is_played_on_five_by_five() {
    let out = play(
        &[
            "--variant",
            "minishogi",
            "--opponent",
            "human",
            "--pieces",
            "letters",
        ],
        "5d5c\n1b1c\n5c5b+\n5c5b\nquit\n",
    );
    assert_contains(&out, "Banmen minishogi");
    assert_contains(&out, "    5  4  3  2  1\n");
    assert_contains(&out, "│  r  b  s  g  k │ a\n");
    assert_contains(&out, "│  K  G  S  B  R │ e\n");
    // Rank b is not minishogi's promotion zone: only rank a is.
    assert_contains(&out, "illegal move: the piece cannot promote on this move");
    assert_contains(&out, "black plays 5c5b (P-5b)");
}
