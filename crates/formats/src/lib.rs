//! Game records for Banmen: KIF (`.kif` Shift-JIS, `.kifu` UTF-8), KI2, CSA
//! (V2.2 and V3.0), JKF (the JSON Kifu Format; see [`jkf`]), SFEN and USI `position` lines, and move text in Japanese
//! (`▲７六歩`, `△同　角成`, `▲５八金右`) and Western (Hodges: `P-7f`,
//! `Bx8h+`, `G6i-5h`) notation, for standard shogi, cannon shogi and dai dai
//! shogi.
//!
//! Readers are lenient and report the first problem with its line number;
//! writers are canonical. Nothing here panics on bad input.
//!
//! # Variations
//!
//! A [`Record`] is a tree: the main line and its [`Variation`]s, each with
//! its moves, times, comments, result and variations in turn. KIF and KI2
//! read and write them as Kifu for Windows and tsshogi do: a `変化：N手`
//! block goes back to ply N-1 on the line read last; the writer puts the
//! variations from each line's last branch back to its first, and marks a
//! KIF move line after which another variation follows with `+`. Every
//! variation's moves are checked by the rules. The other formats write the
//! main line only ([`Record::mainline`]; `banmen convert --mainline`).
//!
//! # Cannon and dai dai shogi in KIF, CSA and JKF
//!
//! KIF, CSA and JKF define standard shogi only. Banmen writes and reads the other
//! two games with this convention (every record round-trips):
//!
//! | | cannon shogi | dai dai shogi |
//! |---|---|---|
//! | game, options | KIF `将棋種類：cannonshogi`, `ルール：flying-cannon=leap`; CSA `$VARIANT:cannonshogi`, `$RULES:…` | `将棋種類：daidaishogi`; `$VARIANT:daidaishogi` |
//! | KIF/KI2 piece names | 金砲 銀砲 銅砲 鉄砲, promoted 成金砲 成銀砲 成銅砲 成鉄砲 (`rules/cannon-shogi.md`) | the two-kanji names of `rules/dai-dai-shogi.md` §5 (獅子, 奔王, 鉤行 …); a promoted piece is 成 and its original name (成行鳥), except 奮迅 (`+LN`), 大象 (`+LD`), 山母 (`+BM`), 仙鶴 (`+OR`); 𠵇犬 is 吠犬 in Shift-JIS `.kif` (both read) |
//! | CSA piece codes | FU…RY as usual; `GC SC CC IC`, promoted `+GC +SC +CC +IC` | the two-letter DSFEN codes (`KG`, `LN`, `PA`); promoted `+LN`, `+RB` … |
//! | squares | as standard shogi | KIF `１２十一` (full-width file, kanji rank), origin `(1211)`; CSA four digits `1211` (file, rank); rank lines `P1`…`P17` |
//! | lion double moves | — | KIF origin then middle squares: `９七獅子成(0909,0908)`; igui `９九獅子成(0909,0908)`; CSA origin, middle square(s), destination: `+090908080907+LN` |
//! | start position | `PI` or `手合割：平手` for the game's own; otherwise `SFEN：` (KIF) or `P1`… (CSA) | the same |
//! | JKF | header `将棋種類`/`ルール`, pieces by their CSA codes, the game's own start as preset `HIRATE`, others as `OTHER` | refused: JKF's squares are 1-9 and its moves single steps ([`jkf`]) |
//!
//! Minishogi (5x5) is KIF's and KI2's `手合割：5五将棋`, as lishogi writes
//! and reads it (`５五将棋` and `五々将棋` read too), with a 5x5 board
//! diagram after it for a set-up position; its squares are standard
//! shogi's (`５三歩(54)`). JKF refuses it.
//!
//! Western notation for dai dai shogi follows `rules/dai-dai-shogi.md`: the
//! two-letter codes (`LNx3h-2i`; the seed's `Ln`, `St` … are read too), `!`
//! for igui (`LNx!9d`) and pass (`LN-!9h`), both squares of a double capture
//! (`LNx3hx2i`), `+` for a promotion. Japanese move text writes a double move
//! with its origin and middle squares as KIF does.
//!
//! ```
//! use banmen_formats::{read, write, Format};
//! let rec = read(b"position startpos moves 7g7f 3c3d 8h2b+", None).unwrap();
//! let kif = write(&rec, Format::Kifu).unwrap();
//! let text = String::from_utf8(kif).unwrap();
//! assert!(text.contains("２二角成(88)"));
//! assert_eq!(read(text.as_bytes(), Some(Format::Kifu)).unwrap().moves, rec.moves);
//! ```

pub mod csa;
pub mod jkf;
pub mod kif;
mod names;
pub mod notation;
pub mod record;
pub mod sfen;
mod text;

pub use record::{
    Comment, EndReason, GameResult, Headers, ParseError, Record, Variation, HEADER_KEYS,
};

use std::fmt;
use std::str::FromStr;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// KIF in Shift-JIS (`.kif`).
    Kif,
    /// KIF in UTF-8 (`.kifu`).
    Kifu,
    /// KI2: Japanese moves without origins (UTF-8).
    Ki2,
    /// CSA V2.2 (V3.0 read too; Banmen's extension for cannon and dai dai shogi).
    Csa,
    /// JKF, the JSON Kifu Format of Kifu for JS (`.jkf`).
    Jkf,
    /// `sfen <start> moves ...`.
    Sfen,
    /// `position startpos|sfen ... moves ...` (with `setoption name USI_Variant` for other games).
    Usi,
    /// Western (Hodges) move list with `[Key "value"]` headers.
    Western,
    /// Japanese move list with `[Key "value"]` headers.
    Japanese,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 9] = [
        Format::Kif,
        Format::Kifu,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Sfen,
        Format::Usi,
        Format::Western,
        Format::Japanese,
    ];

    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Kifu => "kifu",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Jkf => "jkf",
            Format::Sfen => "sfen",
            Format::Usi => "usi",
            Format::Western => "western",
            Format::Japanese => "japanese",
        }
    }

    /// Whether the format keeps a record's variations (KIF, KI2, JKF); the
    /// others write the main line only.
    pub fn holds_variations(self) -> bool {
        matches!(self, Format::Kif | Format::Kifu | Format::Ki2 | Format::Jkf)
    }

    /// The format a file name's extension suggests.
    pub fn from_extension(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "kif" => Some(Format::Kif),
            "kifu" => Some(Format::Kifu),
            "ki2" | "ki2u" => Some(Format::Ki2),
            "csa" => Some(Format::Csa),
            "jkf" => Some(Format::Jkf),
            "sfen" => Some(Format::Sfen),
            "usi" => Some(Format::Usi),
            _ => None,
        }
    }

    /// Guesses the format of a record from its content.
    pub fn guess(bytes: &[u8]) -> Format {
        let text = text::decode(bytes).0;
        if text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{')
        {
            return Format::Jkf;
        }
        let mut kif_like = false;
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if line.starts_with("position ") || line.starts_with("setoption ") {
                return Format::Usi;
            }
            if line.starts_with("sfen ") || line.starts_with("startpos") {
                return Format::Sfen;
            }
            if line.starts_with("'CSA")
                || line.starts_with("V2")
                || line.starts_with("V3")
                || line == "PI"
                || line.starts_with("P1")
                || line.starts_with("N+")
                || line.starts_with("+")
                    && line.len() >= 7
                    && line[1..].bytes().take(4).all(|b| b.is_ascii_digit())
            {
                return Format::Csa;
            }
            if line.starts_with('[') {
                // Headers of the move-list formats: decide by the moves.
                continue;
            }
            if line.starts_with("手数") {
                return Format::Kifu;
            }
            let body =
                line.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ');
            if body.starts_with(['▲', '△', '☗', '☖', '▼', '▽']) {
                return if kif_like {
                    Format::Ki2
                } else {
                    Format::Japanese
                };
            }
            if line.contains('：') {
                kif_like = true;
                continue;
            }
            if line.starts_with("+-") || line.starts_with('|') || line.starts_with('９') {
                kif_like = true;
                continue;
            }
            if line.starts_with('#') || line.starts_with('*') {
                continue;
            }
            if line.split_whitespace().count() == 4
                && line.split('/').count() >= 9
                && !line.contains(' ')
            {
                return Format::Sfen;
            }
            if line.split_whitespace().count() >= 3 && line.split('/').count() >= 9 {
                return Format::Sfen;
            }
            if line
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ')
                .starts_with(|c: char| c.is_ascii_uppercase() || c == '+')
            {
                return Format::Western;
            }
            if kif_like && line.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
                return Format::Kifu;
            }
        }
        if kif_like {
            Format::Kifu
        } else {
            Format::Sfen
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s.to_ascii_lowercase())
            .ok_or_else(|| {
                format!(
                    "unknown format '{s}' (kif, kifu, ki2, csa, jkf, sfen, usi, western, japanese)"
                )
            })
    }
}

/// Reads a record; `format` `None` guesses it from the content. KIF and KI2
/// accept Shift-JIS and UTF-8 alike.
///
/// # Errors
/// The first problem, with its line number.
pub fn read(bytes: &[u8], format: Option<Format>) -> Result<Record, ParseError> {
    let format = format.unwrap_or_else(|| Format::guess(bytes));
    let (text, _) = text::decode(bytes);
    match format {
        Format::Kif | Format::Kifu => kif::read_kif(&text),
        Format::Ki2 => kif::read_ki2(&text),
        Format::Csa => csa::read(&text),
        Format::Jkf => jkf::read(&text),
        Format::Sfen | Format::Usi => sfen::read(&text),
        Format::Western => notation::read_list(&text, notation::Style::Western),
        Format::Japanese => notation::read_list(&text, notation::Style::Japanese),
    }
}

/// Reads every game of a record file: a CSA file may hold several, separated
/// by `/` lines; the other formats hold one.
///
/// ```
/// use banmen_formats::{read_games, Format};
/// let two = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n%CHUDAN\n";
/// let games = read_games(two.as_bytes(), Some(Format::Csa)).unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].moves, ["2g2f"]);
/// ```
///
/// # Errors
/// The first problem, with its line number in the whole file.
pub fn read_games(bytes: &[u8], format: Option<Format>) -> Result<Vec<Record>, ParseError> {
    let format = format.unwrap_or_else(|| Format::guess(bytes));
    if format == Format::Csa {
        csa::read_all(&text::decode(bytes).0)
    } else {
        read(bytes, Some(format)).map(|r| vec![r])
    }
}

/// Writes a record. `.kif` is Shift-JIS; everything else is UTF-8.
///
/// # Errors
/// The record's moves are not legal, or a name has no Shift-JIS code (`.kif`).
pub fn write(record: &Record, format: Format) -> Result<Vec<u8>, String> {
    let text = match format {
        Format::Kif => {
            return kif::write_kif(record).and_then(|mut s| {
                for (from, to) in names::SJIS_SUBSTITUTES {
                    s = s.replace(from, to);
                }
                text::encode_sjis(&s)
            })
        }
        Format::Kifu => kif::write_kif(record)?,
        Format::Ki2 => kif::write_ki2(record)?,
        Format::Csa => csa::write(record)?,
        Format::Jkf => jkf::write(record)?,
        Format::Sfen => sfen::write_sfen(record)?,
        Format::Usi => sfen::write_usi(record)?,
        Format::Western => notation::write_list(record, notation::Style::Western)?,
        Format::Japanese => notation::write_list(record, notation::Style::Japanese)?,
    };
    Ok(text.into_bytes())
}
