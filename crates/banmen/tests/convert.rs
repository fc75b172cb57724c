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

/// Runs bench/records-cshogi.py when cshogi is installed.
#[test]
fn cshogi_reads_back_our_kif_and_csa() {
    let has_cshogi = Command::new("python3")
        .args(["-c", "import cshogi"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_cshogi {
        println!("skipped: python3 with cshogi is not available (pip install cshogi)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/records-cshogi.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_banmen"))
        .output()
        .expect("run the peer script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
