//! `banmen mate`: one problem from SFEN, KIF and CSA (with `P-00AL`), a file
//! of problems with its summary, and clear errors for bad input.

use std::process::Command;

fn mate(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .arg("mate")
        .args(args)
        .output()
        .expect("run banmen");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("banmen-mate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn an_sfen_prints_the_line_in_three_notations() {
    let (code, out, err) = mate(&["--sfen", "8k/9/8P/9/9/9/9/9/9 b GS 1", "--time", "5000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("mate in 1 plies\n"), "{out}");
    assert!(out.contains("usi: G*1b\n"), "{out}");
    assert!(out.contains("western: G*1b\n"), "{out}");
    assert!(out.contains("japanese: ▲１二金"), "{out}");
}

#[test]
fn a_csa_diagram_gives_the_rest_to_the_defender() {
    // Gold on 2c, knight and king in the corner; G*1b or G*2b mates, and --all lists the other.
    let csa = "V2.2\nP1 *  *  *  *  *  *  * -KE-OU\nP2 *  *  *  *  *  *  *  *  * \n\
               P3 *  *  *  *  *  *  * +KI * \nP4 *  *  *  *  *  *  *  *  * \n\
               P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
               P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
               P9 *  *  *  *  *  *  *  *  * \nP+00KI\nP-00AL\n+\n";
    let path = temp("t.csa", csa);
    let (code, out, err) = mate(&[path.to_str().unwrap(), "--all"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("mate in 1 plies\n"), "{out}");
    assert!(out.contains("alternative in 1 plies:"), "{out}");
    assert!(out.contains("G*1b") && out.contains("G*2b"), "{out}");
}

#[test]
fn a_kif_diagram_is_a_problem() {
    let kif = "後手の持駒：飛二　角二　金三　銀四　桂四　香四　歩十七　\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ 歩|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金　\n手数----指手---------消費時間--\n";
    let path = temp("t.kif", kif);
    let (code, out, err) = mate(&[path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("mate in 1 plies\nusi: G*1b\n"), "{out}");
}

#[test]
fn a_file_of_problems_gets_a_line_each_and_a_summary() {
    let tsv = "id\tclass\tlength\tsfen\n\
               a\tshort\t1\t8k/9/8P/9/9/9/9/9/9 b GS 1\n\
               b\tshort\t3\t8k/8s/7p1/9/7N1/9/9/9/4K4 b BG 1\n\
               c\tnone\t-\t4k4/9/9/9/9/9/9/9/4K4 b - 1\n";
    let path = temp("p.tsv", tsv);
    let (code, out, err) = mate(&[path.to_str().unwrap(), "--time", "5000"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<&str>> = out
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id"))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert_eq!((rows[0][0], rows[0][2], rows[0][3]), ("a", "mate", "1"));
    assert_eq!(rows[1][2], "mate");
    assert_eq!(rows[2][2], "nomate");
    assert!(out.contains("# short\t2\t2\t"), "{out}");
}

#[test]
fn bad_input_is_a_clear_error() {
    let (code, _, err) = mate(&["--sfen", "9/9/9 b - 1"]);
    assert_ne!(code, 0);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.is_empty());
    let (code, _, err) = mate(&["/no/such/file.kif"]);
    assert_ne!(code, 0);
    assert!(err.contains("/no/such/file.kif"), "{err}");
    let path = temp("bad.tsv", "id\tsfen\nx\tnot a position\n");
    let (code, out, err) = mate(&[path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("x\t\terror"), "{out}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // Many problems, one line each as it is solved.
    let mut tsv = String::from("id\tsfen\n");
    for i in 0..200 {
        tsv.push_str(&format!(
            "{i}\t8l/8k/6sPn/7pB/9/9/9/9/9 b RS2Nrb4g2sn3l16p 1\n"
        ));
    }
    let path = temp("many.tsv", &tsv);
    let mut child = Command::new(env!("CARGO_BIN_EXE_banmen"))
        .args(["mate", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the pipe is closed while problems remain.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(first.starts_with("id\t"), "{first}");
    assert!(!err.contains("panicked"), "{err}");
}
