//! Perft against independent reference data (`tests/data/perft-*.tsv`, each row
//! with its source). Rows up to 25M nodes run in every test run; deeper rows
//! with `cargo test -- --ignored`.

use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};

struct Row {
    sfen: String,
    depth: u32,
    nodes: u64,
    source: String,
}

fn standard_rows() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft-standard.tsv");
    let text = std::fs::read_to_string(path).expect("perft data");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "bad row: {l}");
            Row {
                sfen: f[0].to_string(),
                depth: f[1].parse().expect("depth"),
                nodes: f[2].parse().expect("nodes"),
                source: f[3].to_string(),
            }
        })
        .collect()
}

fn check_rows(keep: impl Fn(&Row) -> bool) {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in standard_rows().iter().filter(|r| keep(r)) {
        let mut pos = Position::from_sfen(rules, &row.sfen, SfenMode::Strict)
            .unwrap_or_else(|e| panic!("{}: {e}", row.sfen));
        let got = pos.perft(row.depth);
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

const QUICK_LIMIT: u64 = 25_000_000;

#[test]
fn standard_perft_up_to_25m_nodes() {
    check_rows(|r| r.nodes <= QUICK_LIMIT);
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
    check_rows(|r| r.nodes > QUICK_LIMIT);
}
