//! `banmen mate`: the tsume solver on one problem or a file of many.
//!
//! One problem (`--sfen`, or a KIF/KI2/CSA/SFEN file whose start position is
//! the diagram, `P-00AL` included) prints the mate in USI, Western and
//! Japanese notation with its length. A file of many problems (one SFEN per
//! line, or a TSV with `sfen` and optionally `id`, `class` and `length`
//! columns, as `tests/data/tsume/standard.tsv`) prints one line per problem
//! and a summary per class.

use crate::setup::{position, PositionArgs};
use banmen_engine::mate::{
    alternative_mates, brute_force_mate, solve_mate, MateOptions, MateReport, MateTable,
};
use banmen_engine::{Control, MateResult};
use banmen_formats::notation::{mark, to_japanese, to_western};
use banmen_rules::with_position;
use banmen_rules::{BitBoard, Move, Position};
use clap::Args;
use std::time::{Duration, Instant};

/// Arguments of `banmen mate`.
#[derive(Args, Debug)]
pub struct MateArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// A problem as a record (KIF, KI2, CSA, SFEN: its start position), or a
    /// file of problems (one SFEN per line, or a TSV with an `sfen` column).
    pub file: Option<std::path::PathBuf>,
    /// Time limit per problem in milliseconds (0: none).
    #[arg(long, default_value_t = 10_000)]
    pub time: u64,
    /// Table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// The longest mate looked for, in plies.
    #[arg(long, default_value_t = 4095)]
    pub max_plies: u16,
    /// Return the first mate found, without looking for a shorter one.
    #[arg(long)]
    pub first: bool,
    /// Also list other first moves that mate as quickly (alternative solutions).
    #[arg(long)]
    pub all: bool,
    /// With a file of problems: also run the brute-force search (iterative
    /// deepening over checks, no proof numbers) up to this many plies and
    /// print its length, as an independent check.
    #[arg(long, value_name = "PLIES")]
    pub brute_force: Option<u32>,
}

/// One problem of a file.
struct Problem {
    id: String,
    class: String,
    length: Option<usize>,
    sfen: String,
}

pub fn run(args: &MateArgs) -> Result<(), String> {
    let mut table = MateTable::try_new(args.hash)
        .map_err(|e| format!("a table of {} MiB cannot be had: {e}", args.hash))?;
    let options = MateOptions {
        max_plies: args.max_plies,
        shortest: !args.first,
    };
    let Some(path) = &args.file else {
        let mut pargs = args.position.clone();
        pargs.tsume = true;
        with_position!(position(&pargs)?, pos => solve_one(&pos, args, &options, &mut table));
        return Ok(());
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(problems) = problem_list(&bytes)? {
        return solve_many(&problems, args, &options, &mut table);
    }
    let record =
        banmen_formats::read(&bytes, None).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut pargs = args.position.clone();
    pargs.variant = record.variant.to_string();
    if !record.rules.is_empty() {
        pargs.rules = Some(record.rules.clone());
    }
    pargs.sfen = Some(record.start.clone());
    pargs.moves = None;
    pargs.tsume = true;
    with_position!(position(&pargs)?, pos => solve_one(&pos, args, &options, &mut table));
    Ok(())
}

/// The problems of a list file, or `None` if the file is a single record.
fn problem_list(bytes: &[u8]) -> Result<Option<Vec<Problem>>, String> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(None);
    };
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let Some(first) = lines.first() else {
        return Err("the file is empty".into());
    };
    if first.contains('\t') && first.split('\t').any(|c| c == "sfen") {
        let cols: Vec<&str> = first.split('\t').collect();
        let col = |name: &str| cols.iter().position(|c| *c == name);
        let sfen_col = col("sfen").expect("checked");
        let (id_col, class_col, len_col) = (col("id"), col("class"), col("length"));
        let mut out = Vec::new();
        for (n, line) in lines[1..].iter().enumerate() {
            let f: Vec<&str> = line.split('\t').collect();
            let get = |c: Option<usize>| c.and_then(|c| f.get(c)).map(|s| s.trim().to_string());
            let sfen =
                get(Some(sfen_col)).ok_or_else(|| format!("line {}: no sfen column", n + 2))?;
            out.push(Problem {
                id: get(id_col).unwrap_or_else(|| format!("{}", n + 1)),
                class: get(class_col).unwrap_or_default(),
                length: get(len_col).and_then(|s| s.parse().ok()),
                sfen,
            });
        }
        return Ok(Some(out));
    }
    let is_sfen = |l: &str| {
        let l = l
            .trim()
            .trim_start_matches("position ")
            .trim_start_matches("sfen ");
        l.split_whitespace().count() >= 3 && l.split('/').count() >= 5
    };
    if lines.len() > 1 && lines.iter().all(|l| is_sfen(l)) {
        return Ok(Some(
            lines
                .iter()
                .enumerate()
                .map(|(i, l)| Problem {
                    id: format!("{}", i + 1),
                    class: String::new(),
                    length: None,
                    sfen: l
                        .trim()
                        .trim_start_matches("position ")
                        .trim_start_matches("sfen ")
                        .to_string(),
                })
                .collect(),
        ));
    }
    Ok(None)
}

fn deadline(args: &MateArgs) -> Option<Instant> {
    (args.time > 0).then(|| Instant::now() + Duration::from_millis(args.time))
}

fn solve<B: BitBoard>(
    pos: &Position<B>,
    args: &MateArgs,
    options: &MateOptions,
    table: &mut MateTable,
) -> MateReport {
    let control = Control::default();
    solve_mate(pos, table, deadline(args), &control, options, &mut |_| {})
}

fn solve_one<B: BitBoard>(
    pos: &Position<B>,
    args: &MateArgs,
    options: &MateOptions,
    table: &mut MateTable,
) {
    let report = solve(pos, args, options, table);
    let ms = report.elapsed.as_secs_f64() * 1000.0;
    match &report.result {
        MateResult::Mate(line) => {
            if report.shortest {
                println!("mate in {} plies", line.len());
            } else {
                println!(
                    "mate, the shortest not proven (time ran out, or --first): a line of {} plies; \
                     the shortest mate takes at most {} plies",
                    line.len(),
                    report.bound.unwrap_or(line.len())
                );
            }
            print_line(pos, line);
            if args.all {
                let control = Control::default();
                let others =
                    alternative_mates(pos, line[0], line.len(), table, deadline(args), &control);
                if others.is_empty() {
                    println!(
                        "alternatives: none (no other first move mates in {} plies)",
                        line.len()
                    );
                }
                for other in others {
                    println!("alternative in {} plies:", other.len());
                    print_line(pos, &other);
                }
            }
        }
        MateResult::NoMate => println!("no mate"),
        MateResult::Timeout if report.stopped => println!("unknown (time ran out)"),
        MateResult::Timeout => println!(
            "unknown: no mate within {} plies (--max-plies); a longer one may exist",
            args.max_plies
        ),
    }
    println!(
        "nodes {} time {:.3} nps {}",
        report.nodes,
        ms / 1000.0,
        nps(report.nodes, report.elapsed)
    );
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        (nodes as f64 / s) as u64
    } else {
        0
    }
}

/// The line in USI, Western and Japanese notation.
fn print_line<B: BitBoard>(pos: &Position<B>, line: &[Move]) {
    let mut p = pos.clone();
    let (mut usi, mut western, mut japanese) = (Vec::new(), Vec::new(), Vec::new());
    let mut previous = None;
    for &m in line {
        usi.push(p.move_to_usi(m));
        western.push(to_western(&p, m));
        japanese.push(format!(
            "{}{}",
            mark(p.side_to_move()),
            to_japanese(&p, m, previous, false)
        ));
        previous = Some(m.to());
        p.make_move(m);
    }
    println!("usi: {}", usi.join(" "));
    println!("western: {}", western.join(" "));
    println!("japanese: {}", japanese.join(" "));
}

#[derive(Default)]
struct ClassSummary {
    total: usize,
    solved: usize,
    times: Vec<f64>,
    equal: usize,
    longer: usize,
    shorter: usize,
    nomate: usize,
}

fn solve_many(
    problems: &[Problem],
    args: &MateArgs,
    options: &MateOptions,
    table: &mut MateTable,
) -> Result<(), String> {
    let mut classes: Vec<(String, ClassSummary)> = Vec::new();
    let brute_head = if args.brute_force.is_some() {
        "\tbrute"
    } else {
        ""
    };
    println!("id\tclass\tresult\tlength\tpublished\tms\tnodes\tline{brute_head}");
    for p in problems {
        let mut pargs = args.position.clone();
        pargs.sfen = Some(p.sfen.clone());
        pargs.moves = None;
        pargs.tsume = true;
        let row = match position(&pargs) {
            Err(e) => {
                println!("{}\t{}\terror\t-\t-\t-\t-\t{e}", p.id, p.class);
                None
            }
            Ok(any) => Some(with_position!(any, pos => {
                let r = solve(&pos, args, options, table);
                let mut line = match &r.result {
                    MateResult::Mate(l) => {
                        let mut q = pos.clone();
                        l.iter().map(|&m| { let t = q.move_to_usi(m); q.make_move(m); t }).collect::<Vec<_>>().join(" ")
                    }
                    _ => String::new(),
                };
                if let Some(plies) = args.brute_force {
                    let b = brute_force_mate(&pos, plies, deadline(args), &Control::default());
                    let text = match b {
                        MateResult::Mate(l) => l.len().to_string(),
                        MateResult::NoMate => "nomate".into(),
                        MateResult::Timeout => "-".into(),
                    };
                    line = format!("{line}\t{text}");
                }
                (r, line)
            })),
        };
        let Some((r, line)) = row else { continue };
        let ms = r.elapsed.as_secs_f64() * 1000.0;
        let (result, len) = match &r.result {
            // Not proven shortest: the proven bound, not the line's length.
            MateResult::Mate(l) if r.shortest => ("mate", Some(l.len())),
            MateResult::Mate(l) => ("mate?", Some(r.bound.unwrap_or(l.len()))),
            MateResult::NoMate => ("nomate", None),
            MateResult::Timeout => ("timeout", None),
        };
        println!(
            "{}\t{}\t{result}\t{}\t{}\t{ms:.1}\t{}\t{line}",
            p.id,
            p.class,
            len.map_or("-".into(), |l| l.to_string()),
            p.length.map_or("-".into(), |l| l.to_string()),
            r.nodes
        );
        let i = match classes.iter().position(|(c, _)| *c == p.class) {
            Some(i) => i,
            None => {
                classes.push((p.class.clone(), ClassSummary::default()));
                classes.len() - 1
            }
        };
        let s = &mut classes[i].1;
        s.total += 1;
        if result == "nomate" {
            s.nomate += 1;
        }
        if let Some(l) = len {
            s.solved += 1;
            s.times.push(ms);
            if let Some(want) = p.length {
                match l.cmp(&want) {
                    std::cmp::Ordering::Equal => s.equal += 1,
                    std::cmp::Ordering::Greater => s.longer += 1,
                    std::cmp::Ordering::Less => s.shorter += 1,
                }
            }
        }
    }
    println!("# class\tsolved\tof\tmedian ms\tequal\tlonger\tshorter\tnomate");
    for (class, s) in &mut classes {
        s.times.sort_by(f64::total_cmp);
        let median = s.times.get(s.times.len() / 2).copied().unwrap_or(f64::NAN);
        println!(
            "# {}\t{}\t{}\t{median:.1}\t{}\t{}\t{}\t{}",
            if class.is_empty() { "all" } else { class },
            s.solved,
            s.total,
            s.equal,
            s.longer,
            s.shorter,
            s.nomate
        );
    }
    Ok(())
}
