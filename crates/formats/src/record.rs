//! The record type: a game's variant, start, moves, result and headers, and
//! the variations that branch off its moves (a record is a tree).

use banmen_rules::{
    rules_9x9_with, rules_for, with_rules, AnyRules, Bb128, BitBoard, Color, Game, GameOptions,
    Outcome, Position, Reason, Rules, Setup, SfenMode, VariantName,
};
use std::fmt;

/// A problem reading a record: the line (1-based; 0 when not tied to a line) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line, 1-based.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        ParseError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Why a recorded game ended. Covers the rules' [`Reason`]s and the endings
/// only records know (abort, time, illegal move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Resignation (`投了`, `%TORYO`).
    Resignation,
    /// Checkmate (`詰み`, `%TSUMI`).
    Checkmate,
    /// No legal move, not in check.
    NoLegalMoves,
    /// Fourfold repetition, a draw (`千日手`, `%SENNICHITE`).
    Repetition,
    /// Fourfold repetition lost by the side giving perpetual check.
    PerpetualCheck,
    /// A winning entering-king declaration (`入玉勝ち`, `%KACHI`).
    Declaration,
    /// Impasse (`持将棋`, `%JISHOGI`).
    Impasse,
    /// The king reached the try square.
    Try,
    /// The ply limit.
    MaxMoves,
    /// The game was stopped (`中断`, `%CHUDAN`).
    Abort,
    /// An illegal move (`反則勝ち`, `反則負け`, `%ILLEGAL_MOVE`).
    IllegalMove,
    /// Time ran out (`切れ負け`, `%TIME_UP`).
    Timeout,
    /// The king was captured.
    KingCaptured,
    /// Perpetual chasing lost.
    PerpetualChase,
    /// A draw by agreement (`%HIKIWAKE`; KIF `引き分け`).
    Draw,
    /// A tsume problem found to have no mate (`不詰`, `%FUZUMI`).
    NoMate,
    /// A move taken back (`%MATTA`).
    Matta,
    /// The game stopped on an error (`%ERROR`).
    Error,
    /// Adjourned with a sealed move (`封じ手`); CSA writes `%CHUDAN`.
    Sealed,
}

impl EndReason {
    /// A stable lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Resignation => "resignation",
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMoves => "no-legal-moves",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::Declaration => "declaration",
            EndReason::Impasse => "impasse",
            EndReason::Try => "try",
            EndReason::MaxMoves => "max-moves",
            EndReason::Abort => "abort",
            EndReason::IllegalMove => "illegal-move",
            EndReason::Timeout => "timeout",
            EndReason::KingCaptured => "king-captured",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Draw => "draw",
            EndReason::NoMate => "no-mate",
            EndReason::Matta => "matta",
            EndReason::Error => "error",
            EndReason::Sealed => "sealed-move",
        }
    }

    /// Every reason, in declaration order.
    pub const ALL: [EndReason; 19] = [
        EndReason::Resignation,
        EndReason::Checkmate,
        EndReason::NoLegalMoves,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::Declaration,
        EndReason::Impasse,
        EndReason::Try,
        EndReason::MaxMoves,
        EndReason::Abort,
        EndReason::IllegalMove,
        EndReason::Timeout,
        EndReason::KingCaptured,
        EndReason::PerpetualChase,
        EndReason::Draw,
        EndReason::NoMate,
        EndReason::Matta,
        EndReason::Error,
        EndReason::Sealed,
    ];

    /// Parses [`EndReason::as_str`].
    pub fn parse(s: &str) -> Option<EndReason> {
        Self::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

impl From<Reason> for EndReason {
    fn from(r: Reason) -> Self {
        match r {
            Reason::Checkmate => EndReason::Checkmate,
            Reason::NoLegalMoves => EndReason::NoLegalMoves,
            Reason::Repetition => EndReason::Repetition,
            Reason::PerpetualCheck => EndReason::PerpetualCheck,
            Reason::Declaration => EndReason::Declaration,
            Reason::ImpassePoints => EndReason::Impasse,
            Reason::Try => EndReason::Try,
            Reason::MaxMoves => EndReason::MaxMoves,
            Reason::Resignation => EndReason::Resignation,
            Reason::KingCaptured => EndReason::KingCaptured,
            Reason::PerpetualChase => EndReason::PerpetualChase,
        }
    }
}

/// How a recorded game ended: the winner (`None`: draw or no result) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner; `None` for a draw or an aborted game.
    pub winner: Option<Color>,
    /// Why.
    pub reason: EndReason,
}

impl From<Outcome> for GameResult {
    fn from(o: Outcome) -> Self {
        GameResult {
            winner: o.winner,
            reason: o.reason.into(),
        }
    }
}

/// A comment attached after ply `ply` (0 = before the first move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The ply it follows.
    pub ply: usize,
    /// The text, one line.
    pub text: String,
}

/// Who played, when, where, and free comments.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Headers {
    /// Black (sente; shitate in handicap games).
    pub black: Option<String>,
    /// White (gote; uwate in handicap games).
    pub white: Option<String>,
    /// Start date and time as written (`2024/01/02 10:00:00`).
    pub start_date: Option<String>,
    /// Event (`棋戦`, `$EVENT`).
    pub event: Option<String>,
    /// Other headers, in order.
    pub other: Vec<(String, String)>,
    /// Comments.
    pub comments: Vec<Comment>,
}

/// The header keys KIF and CSA share, beyond players, start date and event:
/// the KIF key (as [`Headers::other`] holds it) and the CSA V2.2 `$` field.
/// A KIF key without a CSA field is written to CSA as a `'key：value`
/// comment, which the CSA reader takes back as that header.
pub const HEADER_KEYS: [(&str, &str); 4] = [
    ("終了日時", "END_TIME"),
    ("場所", "SITE"),
    ("戦型", "OPENING"),
    ("持ち時間", "TIME_LIMIT"),
];

/// The KIF key of a CSA `$` field, where [`HEADER_KEYS`] has one.
pub(crate) fn kif_key_of_csa(csa: &str) -> Option<&'static str> {
    HEADER_KEYS.iter().find(|(_, c)| *c == csa).map(|(k, _)| *k)
}

/// The CSA `$` field of a KIF key, where [`HEADER_KEYS`] has one.
pub(crate) fn csa_key_of_kif(kif: &str) -> Option<&'static str> {
    HEADER_KEYS.iter().find(|(k, _)| *k == kif).map(|(_, c)| *c)
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game.
    pub variant: VariantName,
    /// Rule options as `--rules` takes them (`flying-cannon=leap`); empty for defaults.
    pub rules: String,
    /// The start position as SFEN.
    pub start: String,
    /// The moves, as USI.
    pub moves: Vec<String>,
    /// Seconds spent on each move, where known (empty, or one per move).
    pub times: Vec<Option<u32>>,
    /// The result, if the game ended.
    pub result: Option<GameResult>,
    /// Players, dates, comments.
    pub headers: Headers,
    /// The variations that branch off the main line, by ply (`変化：N手` in
    /// KIF and KI2, `forks` in JKF); the other formats keep the main line only.
    pub variations: Vec<Variation>,
}

/// A variation: moves played instead of its parent line's move at `ply`, and
/// the variations that branch off them in turn.
///
/// `ply` (1-based) is at most one past the parent's last move, and then only
/// when the parent line has a result (the variation is played instead of
/// resigning, say). Several variations at one ply come in the order the
/// record lists them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Variation {
    /// The ply of its first move (1-based).
    pub ply: usize,
    /// The moves, as USI.
    pub moves: Vec<String>,
    /// Seconds spent on each move, where known (empty, or one per move).
    pub times: Vec<Option<u32>>,
    /// Comments, each after ply [`Comment::ply`] counted from the start of
    /// the game (at least `ply`: after this variation's own moves).
    pub comments: Vec<Comment>,
    /// How the variation ends, if it does.
    pub result: Option<GameResult>,
    /// The variations that branch off this one's moves (each at a ply after
    /// `ply`).
    pub variations: Vec<Variation>,
}

impl Variation {
    /// The time of the variation's move `i` (0-based).
    pub fn time(&self, i: usize) -> Option<u32> {
        self.times.get(i).copied().flatten()
    }
}

/// One line of a record's tree, as the writers walk it: the main line or a
/// variation, with the moves that lead to it.
#[derive(Clone, Debug)]
pub(crate) struct LineRef<'a> {
    /// The moves before `first_ply`, from the start.
    pub path: Vec<&'a str>,
    /// Their times.
    pub path_times: Vec<Option<u32>>,
    /// The ply of `moves[0]`.
    pub first_ply: usize,
    /// Whether this is the main line.
    pub main: bool,
    pub moves: &'a [String],
    pub times: &'a [Option<u32>],
    pub comments: &'a [Comment],
    pub result: Option<GameResult>,
    /// Per move (and one more for the end of the line): whether a variation
    /// written later branches there, which Kifu for Windows marks with `+`.
    pub branches: Vec<bool>,
}

impl LineRef<'_> {
    /// The time of the line's move `i` (0-based).
    pub fn time(&self, i: usize) -> Option<u32> {
        self.times.get(i).copied().flatten()
    }

    /// The comments after ply `ply`.
    pub fn comments_at(&self, ply: usize) -> impl Iterator<Item = &str> {
        self.comments
            .iter()
            .filter(move |c| c.ply == ply)
            .map(|c| c.text.as_str())
    }
}

impl Record {
    /// An empty record of standard shogi from the start position.
    pub fn new(variant: VariantName) -> Record {
        let start = banmen_rules::Variant::get(variant)
            .map(|v| v.start_sfen.to_string())
            .unwrap_or_default();
        Record {
            variant,
            rules: String::new(),
            start,
            moves: Vec::new(),
            times: Vec::new(),
            result: None,
            headers: Headers::default(),
            variations: Vec::new(),
        }
    }

    /// The record without its variations: the main line only.
    pub fn mainline(&self) -> Record {
        Record {
            variations: Vec::new(),
            ..self.clone()
        }
    }

    /// Whether the record has variations.
    pub fn has_variations(&self) -> bool {
        !self.variations.is_empty()
    }

    /// The lines of the tree in the order Kifu for Windows and tsshogi write
    /// them: the main line, then, from each line's last branch back to its
    /// first, each variation followed by its own variations. A reader that
    /// takes `変化：N手` back to ply N-1 on the line read last rebuilds the
    /// same tree from this order.
    ///
    /// # Errors
    /// A variation that does not branch off its parent line (its ply is 0,
    /// or not after the parent's first move, or past the parent's end, or at
    /// the end of a line without a result).
    pub(crate) fn lines(&self) -> Result<Vec<LineRef<'_>>, String> {
        let mut out = Vec::new();
        let main = LineRef {
            path: Vec::new(),
            path_times: Vec::new(),
            first_ply: 1,
            main: true,
            moves: &self.moves,
            times: &self.times,
            comments: &self.headers.comments,
            result: self.result,
            branches: Vec::new(),
        };
        push_line(main, &self.variations, false, &mut out)?;
        Ok(out)
    }

    /// The rules of a 9x9 record.
    ///
    /// # Errors
    /// The variant is not a 9x9 game or the options are unknown.
    pub fn rules_9x9(&self) -> Result<&'static Rules<Bb128>, String> {
        rules_9x9_with(self.variant, &self.rules).map_err(|e| e.to_string())
    }

    /// The rules of the record's game, on either board size.
    ///
    /// # Errors
    /// The options are unknown.
    pub fn any_rules(&self) -> Result<AnyRules, String> {
        rules_for(self.variant, &self.rules).map_err(|e| e.to_string())
    }

    /// Replays the moves on a 9x9 board: the start position and each move.
    ///
    /// # Errors
    /// The start position or a move is not legal (the ply is named).
    pub fn replay_9x9(&self) -> Result<(Position<Bb128>, Vec<banmen_rules::Move>), String> {
        let rules = self.rules_9x9()?;
        replay(rules, &self.start, &self.moves)
    }

    /// Checks that the start position and every move are legal, on any
    /// board, in the main line and in every variation.
    ///
    /// # Errors
    /// The first problem.
    pub fn validate(&self) -> Result<(), String> {
        let any = rules_for(self.variant, &self.rules).map_err(|e| e.to_string())?;
        for line in self.lines()? {
            let moves: Vec<String> = line
                .path
                .iter()
                .map(|m| m.to_string())
                .chain(line.moves.iter().cloned())
                .collect();
            let checked = with_rules!(any, r => replay(r, &self.start, &moves).map(|_| ()));
            checked.map_err(|e| {
                if line.main {
                    e
                } else {
                    format!("the variation at move {}: {e}", line.first_ply)
                }
            })?;
        }
        Ok(())
    }

    /// The result the rules give for the moves (checkmate, repetition...), if any.
    pub fn rules_result(&self) -> Option<GameResult> {
        self.rules_result_of(&self.moves)
    }

    /// The result the rules give after `moves` from the record's start.
    pub(crate) fn rules_result_of<S: AsRef<str>>(&self, moves: &[S]) -> Option<GameResult> {
        fn go<B: BitBoard, S: AsRef<str>>(
            rules: &'static Rules<B>,
            start: &str,
            moves: &[S],
        ) -> Option<GameResult> {
            let start = Position::from_sfen(rules, start, mode_for(rules, start)).ok()?;
            let mut game = Game::new(start, GameOptions::default());
            for m in moves {
                game.play_usi(m.as_ref()).ok()?;
            }
            game.outcome().map(GameResult::from)
        }
        with_rules!(rules_for(self.variant, &self.rules).ok()?, r => go(r, &self.start, moves))
    }

    /// The comments after ply `ply`.
    pub fn comments_at(&self, ply: usize) -> impl Iterator<Item = &str> {
        self.headers
            .comments
            .iter()
            .filter(move |c| c.ply == ply)
            .map(|c| c.text.as_str())
    }

    /// The time of move `i` (0-based).
    pub fn time(&self, i: usize) -> Option<u32> {
        self.times.get(i).copied().flatten()
    }
}

/// Tsume positions (no attacker king) are accepted as such: the kings are
/// looked for in the parsed board (dai dai codes such as `FK` contain a K).
pub(crate) fn mode_for<B: BitBoard>(rules: &Rules<B>, sfen: &str) -> SfenMode {
    Setup::from_sfen(rules, sfen).map_or(SfenMode::Strict, |s| mode_for_setup(rules, &s))
}

/// How to check a set-up position: as a game's when both kings stand on the
/// board, else as a tsume problem's (as [`mode_for`] reads an SFEN).
pub(crate) fn mode_for_setup<B: BitBoard>(rules: &Rules<B>, setup: &Setup) -> SfenMode {
    if setup.has_both_kings(rules) {
        SfenMode::Strict
    } else {
        SfenMode::Tsume
    }
}

/// Parses `start` and plays `moves`.
pub(crate) fn replay<B: BitBoard>(
    rules: &'static Rules<B>,
    start: &str,
    moves: &[String],
) -> Result<(Position<B>, Vec<banmen_rules::Move>), String> {
    let mut pos = Position::from_sfen(rules, start, mode_for(rules, start))
        .map_err(|e| format!("start position: {e}"))?;
    let start_pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos.make_move(m);
        out.push(m);
    }
    Ok((start_pos, out))
}

/// The SFEN of a position without its move number, for comparing start positions.
pub(crate) fn sfen_sans_number(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    fields.iter().take(3).copied().collect::<Vec<_>>().join(" ")
}

/// Appends `line` (a later sibling of which exists when `sibling_follows`)
/// and its variations, in Kakinoki order.
fn push_line<'a>(
    mut line: LineRef<'a>,
    variations: &'a [Variation],
    sibling_follows: bool,
    out: &mut Vec<LineRef<'a>>,
) -> Result<(), String> {
    let end = line.first_ply + line.moves.len();
    let mut branches = vec![false; line.moves.len() + 1];
    branches[0] = sibling_follows;
    for v in variations {
        if (v.ply <= line.first_ply && !line.main) || v.ply == 0 || v.ply > end {
            return Err(format!(
                "a variation at move {} does not branch off its line (moves {} to {})",
                v.ply,
                line.first_ply,
                end - 1
            ));
        }
        if v.ply == end && line.result.is_none() {
            return Err(format!(
                "a variation at move {} follows a line that has not ended: it is no branch",
                v.ply
            ));
        }
        branches[v.ply - line.first_ply] = true;
    }
    line.branches = branches;
    let path_here = line.path.clone();
    let first_ply = line.first_ply;
    let own = line.moves;
    let times_here = line.path_times.clone();
    let own_times = line.times;
    out.push(line);
    // From the last branch back to the first; siblings in their order.
    let mut order: Vec<usize> = (0..variations.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(variations[i].ply));
    for (k, &i) in order.iter().enumerate() {
        let v = &variations[i];
        let mut path = path_here.clone();
        path.extend(own[..v.ply - first_ply].iter().map(String::as_str));
        let mut path_times = times_here.clone();
        path_times.extend((0..v.ply - first_ply).map(|i| own_times.get(i).copied().flatten()));
        let follows = order[k + 1..].iter().any(|&j| variations[j].ply == v.ply);
        let child = LineRef {
            path,
            path_times,
            first_ply: v.ply,
            main: false,
            moves: &v.moves,
            times: &v.times,
            comments: &v.comments,
            result: v.result,
            branches: Vec::new(),
        };
        push_line(child, &v.variations, follows, out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::EndReason;

    #[test]
    fn every_end_reason_name_parses_back() {
        for r in EndReason::ALL {
            assert_eq!(EndReason::parse(r.as_str()), Some(r));
        }
        assert_eq!(EndReason::parse("no-such-ending"), None);
    }
}
