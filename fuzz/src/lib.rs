//! The properties the fuzz targets check, as plain functions so that they can
//! also be run on stable Rust (the tests below replay the seed corpus, the
//! bad-input corpora of `banmen-rules` and a few thousand cheap mutations of
//! them) without cargo-fuzz or libFuzzer.
//!
//! Every function here panics if and only if a property fails; a parser error
//! is never a failure.

pub use banmen_formats::Format;
use banmen_rules::{rules_9x9, Bb128, Position, Rules, SfenMode, UsiMove, VariantName};
use std::sync::OnceLock;

/// Targets `kif`, `ki2`, `csa`, `usi`, `western`, `japanese`: arbitrary bytes
/// are read as a record of `format` (KIF also decodes Shift-JIS). A refusal
/// must name a line of the input (1 to the number of lines, or 1 for an empty
/// input) and a reason. A record that is read must write in the same format
/// (KIF may refuse a character Shift-JIS lacks) and in USI, and what is
/// written must read back to the same game, start and moves.
pub fn check_record(data: &[u8], format: Format) {
    let lines = String::from_utf8_lossy(data)
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .lines()
        .count()
        .max(1);
    let rec = match banmen_formats::read(data, Some(format)) {
        Err(e) => {
            assert!(
                (1..=lines).contains(&e.line),
                "{format}: error on line {} of {lines}: {e}",
                e.line
            );
            assert!(
                !e.message.trim().is_empty(),
                "{format}: an error without a reason"
            );
            return;
        }
        Ok(rec) => rec,
    };
    for f in [format, Format::Usi] {
        let bytes = match banmen_formats::write(&rec, f) {
            Ok(b) => b,
            Err(e) if f == Format::Kif && e.contains("Shift-JIS") => continue,
            Err(e) => panic!("{format} read but {f} does not write: {e}\n{rec:?}"),
        };
        let back = banmen_formats::read(&bytes, Some(f)).unwrap_or_else(|e| {
            panic!(
                "{format} read, {f} written but not read back: {e}\n{}",
                String::from_utf8_lossy(&bytes)
            )
        });
        assert_eq!(back.variant, rec.variant, "{format} -> {f}");
        assert_eq!(back.rules, rec.rules, "{format} -> {f}");
        assert_eq!(back.moves, rec.moves, "{format} -> {f}");
        let board = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(
            board(&back.start),
            board(&rec.start),
            "{format} -> {f}: {:?}",
            String::from_utf8_lossy(data)
        );
    }
}

/// The position every `usi_move` input is also resolved against, besides the
/// start: a middlegame with promoted pieces on the board and pieces in both
/// hands (the well-known second perft position).
pub const MIDGAME_SFEN: &str =
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

/// Standard shogi's rules.
pub fn rules() -> &'static Rules<Bb128> {
    rules_9x9(VariantName::Shogi).expect("standard shogi is built in")
}

fn positions() -> &'static [Position<Bb128>; 2] {
    static POSITIONS: OnceLock<[Position<Bb128>; 2]> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let rules = rules();
        [
            Position::from_sfen(rules, "startpos", SfenMode::Strict).expect("startpos"),
            Position::from_sfen(rules, MIDGAME_SFEN, SfenMode::Strict).expect("midgame"),
        ]
    })
}

/// Target `sfen`: arbitrary bytes (lossily decoded as UTF-8) are parsed in both
/// modes. A refusal must name at least one problem and display as non-empty
/// text. A position that is accepted must write an SFEN that parses back (in
/// the same mode) to an equal position, and its legal moves must be generated
/// without panicking, agree with the slow reference generator, round-trip
/// through USI text, and make/unmake back to the same position.
pub fn check_sfen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let rules = rules();
    for mode in [SfenMode::Strict, SfenMode::Tsume] {
        match Position::from_sfen(rules, &text, mode) {
            Err(e) => {
                assert!(
                    !e.problems.is_empty(),
                    "{text:?} ({mode:?}): an error with no problem"
                );
                assert!(!e.to_string().is_empty());
                for p in &e.problems {
                    assert!(!p.to_string().is_empty(), "{p:?} displays as nothing");
                }
            }
            Ok(pos) => check_position(&pos, mode, &text),
        }
    }
}

fn check_position(pos: &Position<Bb128>, mode: SfenMode, text: &str) {
    let rules = pos.rules();
    let sfen = pos.to_sfen();
    let again = Position::from_sfen(rules, &sfen, mode)
        .unwrap_or_else(|e| panic!("{text:?} ({mode:?}) parsed, but its SFEN {sfen:?} not: {e}"));
    assert_eq!(&again, pos, "{text:?} ({mode:?}) -> {sfen:?}");
    assert_eq!(again.to_sfen(), sfen, "{text:?} ({mode:?})");
    assert_eq!(
        again.hash(),
        pos.hash(),
        "{text:?} ({mode:?}): hash differs"
    );
    assert_eq!(again.move_number(), pos.move_number());

    let mut legal = pos.legal_moves();
    let mut reference = pos.legal_moves_reference();
    legal.sort_unstable();
    reference.sort_unstable();
    assert_eq!(
        legal, reference,
        "{sfen:?}: fast and reference movegen differ"
    );
    let mut scratch = pos.clone();
    for &m in &legal {
        let usi = pos.move_to_usi(m);
        assert_eq!(
            pos.parse_move(&usi),
            Ok(m),
            "{sfen:?}: {usi} does not round-trip"
        );
        let undo = scratch.make_move(m);
        scratch.unmake_move(m, undo);
        assert!(
            &scratch == pos,
            "{sfen:?}: make/unmake {usi} changed the position"
        );
        assert_eq!(
            scratch.hash(),
            pos.hash(),
            "{sfen:?}: make/unmake {usi} changed the hash"
        );
    }
}

/// Target `usi_move`: arbitrary bytes (lossily decoded as UTF-8) are parsed as
/// a USI move. A refusal must display as non-empty text. An accepted move must
/// display as the same text and parse back to the same value; resolving it
/// against the start position and a middlegame position must not panic, an
/// `Ok` must be a legal move, and `Position::parse_move` must agree.
pub fn check_usi_move(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match text.parse::<UsiMove>() {
        Err(e) => {
            assert!(!e.to_string().is_empty());
            for pos in positions() {
                assert!(pos.parse_move(&text).is_err(), "{text:?}");
            }
        }
        Ok(usi) => {
            let shown = usi.to_string();
            let back: UsiMove = shown
                .parse()
                .unwrap_or_else(|e| panic!("{text:?} parsed as {usi:?}, shown as {shown:?}: {e}"));
            assert_eq!(back, usi, "{text:?} shown as {shown:?}");
            assert_eq!(shown, text, "the USI grammar has one spelling per move");
            for pos in positions() {
                let resolved = usi.to_move(pos);
                match resolved {
                    Ok(m) => {
                        assert!(pos.legal_moves().contains(&m), "{text:?}: Ok but not legal");
                        let written = pos.move_to_usi(m);
                        if written != shown {
                            // A double move may resolve to another spelling (a
                            // plain move when the middle square is empty, a lion
                            // pass through another empty neighbour), but the
                            // ends and the promotion are the ones written.
                            assert!(
                                matches!(usi, UsiMove::Double { .. }),
                                "{text:?} -> {written}"
                            );
                            assert_eq!(ends(&usi), ends(&written.parse().expect("own USI")));
                        }
                    }
                    Err(ref e) => assert!(!e.to_string().is_empty()),
                }
                let via_text = pos.parse_move(&text);
                match (&resolved, &via_text) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b),
                    (Err(_), Err(e)) => assert!(!e.to_string().is_empty()),
                    _ => panic!("{text:?}: to_move {resolved:?} but parse_move {via_text:?}"),
                }
            }
        }
    }
}

/// Origin, destination and promotion of a board move.
fn ends(m: &UsiMove) -> Option<(String, String, bool)> {
    match m {
        UsiMove::Normal { from, to, promote }
        | UsiMove::Double {
            from, to, promote, ..
        }
        | UsiMove::Triple {
            from, to, promote, ..
        } => Some((from.to_string(), to.to_string(), *promote)),
        UsiMove::Drop { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    //! Replays on stable: the seed corpora, the rules crate's bad-input lists,
    //! and cheap byte-level mutations of all of them.
    use super::*;
    use std::path::{Path, PathBuf};

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }

    /// The files of a seed corpus folder, each one input.
    fn corpus(target: &str) -> Vec<Vec<u8>> {
        let dir = root().join("corpus").join(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} is empty", dir.display());
        files
            .iter()
            .map(|p| std::fs::read(p).expect("read"))
            .collect()
    }

    /// One input per line of a rules-crate data file.
    fn lines(path: &Path) -> Vec<Vec<u8>> {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        text.lines().map(|l| l.as_bytes().to_vec()).collect()
    }

    fn rules_data(name: &str) -> PathBuf {
        root().join("../crates/rules/tests/data").join(name)
    }

    use banmen_rules::testing::XorShift as Rng;

    const INTERESTING: &[u8] = b"0123456789+-*/ bwKkPpLlNnSsGgBbRrXx\0\xff\xc3";

    fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
        let mut v = input.to_vec();
        for _ in 0..1 + rng.below(3) {
            let pick = INTERESTING[rng.below(INTERESTING.len())];
            match rng.below(4) {
                0 if !v.is_empty() => {
                    let i = rng.below(v.len());
                    v.remove(i);
                }
                1 => {
                    let i = rng.below(v.len() + 1);
                    v.insert(i, pick);
                }
                2 if !v.is_empty() => {
                    let i = rng.below(v.len());
                    v[i] = pick;
                }
                _ if !v.is_empty() => {
                    let i = rng.below(v.len());
                    v.truncate(i);
                }
                _ => v.push(pick),
            }
        }
        v
    }

    fn replay(inputs: &[Vec<u8>], check: fn(&[u8]), mutations: usize) {
        for input in inputs {
            check(input);
        }
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..mutations {
            let base = &inputs[rng.below(inputs.len())];
            check(&mutate(&mut rng, base));
        }
    }

    #[test]
    fn sfen_corpus_and_mutations() {
        let mut inputs = corpus("sfen");
        inputs.extend(lines(&rules_data("bad-sfen.txt")));
        replay(&inputs, check_sfen, 3_000);
    }

    #[test]
    fn usi_move_corpus_and_mutations() {
        let mut inputs = corpus("usi_move");
        inputs.extend(lines(&rules_data("bad-usi.txt")));
        replay(&inputs, check_usi_move, 20_000);
    }

    /// Pieces of record syntax to splice into the record inputs.
    const RECORD_TOKENS: &[&str] = &[
        "\n",
        "同　",
        "成",
        "不成",
        "打",
        "(",
        ")",
        "(0909,0908)",
        "：",
        "手合割：",
        "将棋種類：daidaishogi\n",
        "将棋種類：cannonshogi\n",
        "ルール：lion-dog=ja\n",
        "+",
        "-",
        "%TORYO",
        "PI",
        "P1",
        "P+00AL",
        "P-",
        "$VARIANT:daidaishogi\n",
        "T",
        "▲",
        "△",
        "x",
        "!",
        "*",
        "=",
        "７六",
        "１７十七",
        "獅子",
        "金砲",
        "歩",
        "変化：3手\n",
        "|",
        "v",
        "・",
        "[SFEN \"",
        "\"]",
        "moves ",
        "sfen ",
        "startpos",
        "00",
        "0909",
        "99",
        "\u{1F600}",
        "\u{20547}",
        "\u{FF}",
    ];

    fn mutate_record(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
        let mut v = input.to_vec();
        for _ in 0..1 + rng.below(3) {
            let token = RECORD_TOKENS[rng.below(RECORD_TOKENS.len())].as_bytes();
            let i = rng.below(v.len() + 1);
            match rng.below(5) {
                0 if !v.is_empty() => {
                    let end = (i + 1 + rng.below(8)).min(v.len());
                    v.drain(i.min(v.len() - 1)..end);
                }
                1 | 2 => {
                    v.splice(i..i, token.iter().copied());
                }
                3 if !v.is_empty() => {
                    let end = (i + token.len()).min(v.len());
                    v.splice(i.min(v.len())..end, token.iter().copied());
                }
                _ => {
                    // Duplicate a line: moves after the end, repeated headers.
                    let text = String::from_utf8_lossy(&v).into_owned();
                    let ls: Vec<&str> = text.lines().collect();
                    if !ls.is_empty() {
                        let l = ls[rng.below(ls.len())].to_string();
                        let at = rng.below(ls.len() + 1);
                        let mut out: Vec<String> = ls.iter().map(|x| x.to_string()).collect();
                        out.insert(at, l);
                        v = out.join("\n").into_bytes();
                    }
                }
            }
        }
        v
    }

    /// The records crate's corpus: real-world style files and broken files.
    fn formats_data() -> Vec<Vec<u8>> {
        let base = root().join("../crates/formats/tests/data");
        let mut out = Vec::new();
        for dir in [base.clone(), base.join("broken")] {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.expect("dir entry").path())
                .filter(|p| p.is_file())
                .collect();
            files.sort();
            out.extend(files.iter().map(|p| std::fs::read(p).expect("read")));
        }
        out
    }

    fn replay_record(target: &str, format: Format, mutations: usize) {
        let mut inputs = corpus(target);
        inputs.extend(formats_data());
        for input in &inputs {
            check_record(input, format);
        }
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D ^ target.len() as u64);
        for _ in 0..mutations {
            let base = &inputs[rng.below(inputs.len())];
            check_record(&mutate_record(&mut rng, base), format);
        }
    }

    #[test]
    fn kif_corpus_and_mutations() {
        replay_record("kif", Format::Kif, 5_000);
    }

    #[test]
    fn ki2_corpus_and_mutations() {
        replay_record("ki2", Format::Ki2, 5_000);
    }

    #[test]
    fn csa_corpus_and_mutations() {
        replay_record("csa", Format::Csa, 5_000);
    }

    #[test]
    fn usi_corpus_and_mutations() {
        replay_record("usi", Format::Usi, 5_000);
    }

    #[test]
    fn western_corpus_and_mutations() {
        replay_record("western", Format::Western, 5_000);
    }

    #[test]
    fn japanese_corpus_and_mutations() {
        replay_record("japanese", Format::Japanese, 5_000);
    }

    #[test]
    fn midgame_position_is_valid() {
        assert!(!positions()[1].legal_moves().is_empty());
    }
}
