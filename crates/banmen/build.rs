//! Records the commit the binary is built from (`BANMEN_COMMIT`), which
//! `banmen tune` and `banmen train-nnue` write into their files' headers:
//! the commit checked out when the binary was built, not that of whatever
//! repository the command runs in; `unknown` outside git.

use std::path::Path;
use std::process::Command;

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let commit = git(&root, &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=BANMEN_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // A new commit or checkout moves HEAD (in the work tree's git folder)
    // or a branch (in the common one, which a `git worktree` shares).
    // Only paths that exist: cargo reruns the script on every build for
    // one that does not.
    let dirs = [
        git(&root, &["rev-parse", "--absolute-git-dir"]),
        git(
            &root,
            &["rev-parse", "--path-format=absolute", "--git-common-dir"],
        ),
    ];
    for dir in dirs.iter().flatten() {
        for f in ["HEAD", "packed-refs", "refs/heads"] {
            let path = Path::new(dir).join(f);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}
