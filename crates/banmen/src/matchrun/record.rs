//! Records of `banmen match`: the output folder and the text of each game.

use super::game::GameResult;
use super::Setup;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// A UTC time stamp `YYYYMMDD-HHMMSS`.
fn timestamp() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The folder the records go to, made if needed.
pub(super) fn output_dir(out: Option<&Path>) -> Result<PathBuf, String> {
    let dir = match out {
        Some(d) => d.to_path_buf(),
        None => {
            let base = PathBuf::from("matches").join(timestamp());
            let mut dir = base.clone();
            let mut n = 2;
            while dir.exists() {
                dir = PathBuf::from(format!("{}-{n}", base.display()));
                n += 1;
            }
            dir
        }
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    Ok(dir)
}

/// The record of one game.
pub(super) fn record_text(r: &GameResult, setup: &Setup) -> String {
    let white = 1 - r.black;
    let mut s = String::new();
    let _ = writeln!(s, "# game: {}", r.index + 1);
    let _ = writeln!(s, "# variant: {}", setup.variant);
    if let Some(rules) = &setup.rules_text {
        let _ = writeln!(s, "# rules: {rules}");
    }
    let _ = writeln!(s, "# time-control: {}", setup.tc_text);
    let _ = writeln!(s, "# black: {} (engine {})", r.names[r.black], r.black + 1);
    let _ = writeln!(s, "# white: {} (engine {})", r.names[white], white + 1);
    let result = match r.winner {
        None => "draw".to_string(),
        Some(c) => format!("{} wins", c.name()),
    };
    let _ = writeln!(s, "# result: {result}");
    let _ = writeln!(s, "# reason: {}", r.reason);
    if let Some(note) = &r.note {
        let _ = writeln!(s, "# note: {}", note.replace(['\n', '\r'], " "));
    }
    let _ = writeln!(s, "# plies: {}", r.plies);
    let _ = writeln!(s, "{}", r.position);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_look_right() {
        let t = timestamp();
        assert_eq!(t.len(), 15);
        assert!(t.starts_with("20"));
    }
}
