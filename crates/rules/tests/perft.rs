//! Perft against independent reference data (`tests/data/perft-*.tsv`, each row
//! with its source). Rows up to 25M nodes run in every test run; deeper rows
//! with `cargo test -- --ignored`.

use banmen_rules::{
    rules_9x9_with, rules_for, AnyRules, BitBoard, Position, Rules, SfenMode, VariantName,
};

struct Row {
    variant: VariantName,
    sfen: String,
    depth: u32,
    nodes: u64,
    source: String,
}

/// Reads a TSV whose columns end with `sfen, depth, nodes, source` (the
/// cannon file has an `id` column first; the dai dai file is `id, dsfen, depth,
/// nodes` and names its source in the README: an independent implementation).
fn rows(file: &str, variant: VariantName) -> Vec<Row> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("perft data");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 4, "bad row: {l}");
            if variant == VariantName::DaiDaiShogi {
                return Row {
                    variant,
                    sfen: f[1].to_string(),
                    depth: f[2].parse().expect("depth"),
                    nodes: f[3].parse().expect("nodes"),
                    source: format!("independent implementation, row {}", f[0]),
                };
            }
            let f = &f[f.len() - 4..];
            Row {
                variant,
                sfen: f[0].to_string(),
                depth: f[1].parse().expect("depth"),
                nodes: f[2].parse().expect("nodes"),
                source: f[3].to_string(),
            }
        })
        .collect()
}

fn standard_rows() -> Vec<Row> {
    rows("perft-standard.tsv", VariantName::Shogi)
}

fn cannon_rows() -> Vec<Row> {
    rows("perft-cannon.tsv", VariantName::CannonShogi)
}

/// Fairy-Stockfish's `minishogi` (`bench/minishogi_perft_fsf.sh`).
fn minishogi_rows() -> Vec<Row> {
    rows("perft-minishogi.tsv", VariantName::MiniShogi)
}

fn daidai_rows() -> Vec<Row> {
    rows("perft-daidai.tsv", VariantName::DaiDaiShogi)
}

fn check_rows(all: Vec<Row>, keep: impl Fn(&Row) -> bool) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in all.iter().filter(|r| keep(r)) {
        let got = match rules_for(row.variant, "").unwrap() {
            AnyRules::Nine(rules) => perft(rules, row),
            AnyRules::Seventeen(rules) => perft(rules, row),
        };
        checked += 1;
        if got != row.nodes {
            failures.push(format!(
                "{} depth {}: expected {} ({}), got {got}",
                row.sfen, row.depth, row.nodes, row.source
            ));
        }
    }
    assert!(checked > 0, "no rows selected");
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

fn perft<B: BitBoard>(rules: &'static Rules<B>, row: &Row) -> u64 {
    let mut pos = Position::from_sfen(rules, &row.sfen, SfenMode::Strict)
        .unwrap_or_else(|e| panic!("{}: {e}", row.sfen));
    pos.perft(row.depth)
}

#[test]
fn daidai_perft_up_to_3m_nodes() {
    check_rows(daidai_rows(), |r| r.nodes <= 3_000_000);
}

#[test]
fn daidai_start_position_depths_1_to_3() {
    let rows = daidai_rows();
    let start: Vec<u64> = rows
        .iter()
        .filter(|r| r.source.ends_with("row start"))
        .map(|r| r.nodes)
        .collect();
    assert_eq!(start, vec![58, 3346, 196_084, 11_440_526]);
    check_rows(rows, |r| r.source.ends_with("row start") && r.depth <= 3);
}

#[test]
#[ignore = "deep: the start position at depth 4, 11.4M nodes on 17x17; run with --ignored in release"]
fn daidai_perft_deep_rows() {
    check_rows(daidai_rows(), |r| r.nodes > 3_000_000);
}

const QUICK_LIMIT: u64 = 25_000_000;

#[test]
fn standard_perft_up_to_25m_nodes() {
    check_rows(standard_rows(), |r| r.nodes <= QUICK_LIMIT);
}

#[test]
fn cannon_perft_up_to_25m_nodes() {
    check_rows(cannon_rows(), |r| r.nodes <= QUICK_LIMIT);
}

#[test]
#[ignore = "deep: about 2.6 billion nodes; run with --ignored in release"]
fn cannon_perft_deep_rows() {
    check_rows(cannon_rows(), |r| r.nodes > QUICK_LIMIT);
}

/// rules/cannon-shogi.md: the seed's Betza reading gives 3438 at depth 2
/// (Fairy-Stockfish with those strings); the default reading 3447.
#[test]
fn flying_cannon_leap_option_changes_perft() {
    let leap = rules_9x9_with(VariantName::CannonShogi, "flying-cannon=leap").unwrap();
    let hop = rules_9x9_with(VariantName::CannonShogi, "flying-cannon=hop").unwrap();
    let mut a = Position::from_sfen(leap, "startpos", SfenMode::Strict).unwrap();
    let mut b = Position::from_sfen(hop, "startpos", SfenMode::Strict).unwrap();
    assert_eq!(a.perft(2), 3438);
    assert_eq!(b.perft(2), 3447);
}

/// The reference divides: every root move and its count must agree.
#[test]
fn reference_divides_agree() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/divide");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let header = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
                .map(str::trim)
                .unwrap_or_else(|| panic!("{}: no {key}", path.display()))
                .to_string()
        };
        let variant: VariantName = header("variant").parse().unwrap();
        let depth: u32 = header("depth").parse().unwrap();
        let rules = rules_9x9_with(variant, "").unwrap();
        let mut pos = Position::from_sfen(rules, &header("sfen"), SfenMode::Strict).unwrap();
        let mut want: Vec<(String, u64)> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let (m, n) = l.split_once('\t').unwrap();
                (m.to_string(), n.trim().parse().unwrap())
            })
            .collect();
        let mut got: Vec<(String, u64)> = pos
            .divide(depth)
            .into_iter()
            .map(|(m, n)| (pos.move_to_usi(m), n))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{}", path.display());
        files += 1;
    }
    assert!(files >= 20);
}

#[test]
fn standard_perft_start_depth_5_runs_in_ci() {
    let rows = standard_rows();
    assert!(rows
        .iter()
        .any(|r| r.depth == 5 && r.nodes == 19_861_490 && r.nodes <= QUICK_LIMIT));
}

#[test]
#[ignore = "deep: about 8.5 billion nodes; run with --ignored in release"]
fn standard_perft_deep_rows() {
    check_rows(standard_rows(), |r| r.nodes > QUICK_LIMIT);
}

#[test]
fn minishogi_perft_matches_fairy_stockfish() {
    let rows = minishogi_rows();
    let start: Vec<u64> = rows
        .iter()
        .filter(|r| r.sfen == "rbsgk/4p/5/P4/KGSBR b - 1")
        .map(|r| r.nodes)
        .collect();
    assert_eq!(start, vec![14, 181, 2512, 35_401, 533_203]);
    check_rows(rows, |r| r.nodes <= QUICK_LIMIT);
}

/// The reference's own runner, when it is installed: the data file's rows
/// again, straight from Fairy-Stockfish (`BANMEN_FSF` or the anchors path).
#[test]
#[ignore = "needs a Fairy-Stockfish binary; the tests use the copied numbers"]
fn minishogi_perft_data_is_fairy_stockfishs() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let fsf = std::env::var("BANMEN_FSF")
        .unwrap_or_else(|_| "/work/shared/anchors/bin/fairy-stockfish".into());
    for row in minishogi_rows() {
        let mut child = Command::new(&fsf)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("fairy-stockfish");
        let script = format!(
            "usi\nsetoption name USI_Variant value minishogi\nposition sfen {}\ngo perft {}\n",
            row.sfen, row.depth
        );
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(script.as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("output");
        let text = String::from_utf8_lossy(&out.stdout);
        let nodes: Option<u64> = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .and_then(|n| n.trim().parse().ok());
        assert_eq!(nodes, Some(row.nodes), "{} depth {}", row.sfen, row.depth);
    }
}
