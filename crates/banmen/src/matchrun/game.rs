//! The game loop of `banmen match`: one worker plays a game between its two
//! engines, checks every move on the rules core, keeps the clocks, and ends
//! the game on the rules' outcome, an engine's failure or an adjudication.

use super::client::{Engine, LineError, MATE_CP};
use super::openings::Opening;
use super::tc::LATE_SLACK_MS;
use super::Setup;
use banmen_rules::{BitBoard, Color, Game, Position, Reason, Rules, SfenMode};
use std::time::{Duration, Instant};

/// `--adjudicate`: when both engines' scores end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Adjudication {
    /// Centipawns both engines must agree on.
    pub(super) score: i64,
    /// The first ply after which the scores are looked at.
    pub(super) plies: usize,
    /// `final=N`: a game that reaches --max-plies goes to the side both
    /// engines say is ahead by N or more (instead of being a draw).
    pub(super) at_limit: Option<i64>,
}

impl Adjudication {
    pub(super) fn parse(text: &str) -> Result<Adjudication, String> {
        let bad = |why: String| {
            format!("bad --adjudicate '{text}': {why} (expected score=N,plies=M[,final=F])")
        };
        let (mut score, mut plies, mut at_limit) = (None, None, None);
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("'{part}' has no '='")))?;
            let v: u64 = v
                .trim()
                .parse()
                .map_err(|_| bad(format!("'{v}' is not a number")))?;
            match k.trim() {
                "score" => score = Some(v),
                "plies" => plies = Some(v),
                "final" => at_limit = Some(v),
                other => return Err(bad(format!("unknown key '{other}'"))),
            }
        }
        let cp = |v: u64| v.min(MATE_CP as u64) as i64;
        match (score, plies) {
            (Some(0), _) => Err(bad("score must be at least 1".into())),
            _ if at_limit == Some(0) => Err(bad("final must be at least 1".into())),
            (Some(score), Some(plies)) => Ok(Adjudication {
                score: cp(score),
                plies: plies as usize,
                at_limit: at_limit.map(cp),
            }),
            _ => Err(bad("both score and plies are needed".into())),
        }
    }

    /// The side both engines say is ahead by at least `score`, from the last
    /// scores of the engines playing Black and White, each for its own side.
    fn winner(&self, scores: [Option<i64>; 2]) -> Option<Color> {
        agreed(self.score, scores)
    }

    /// At --max-plies (`final=N`): the side both engines say is ahead by N.
    fn winner_at_limit(&self, scores: [Option<i64>; 2]) -> Option<Color> {
        self.at_limit.and_then(|n| agreed(n, scores))
    }
}

/// The side both engines say is ahead by at least `n`, from the last scores
/// of the engines playing Black and White, each for its own side.
fn agreed(n: i64, scores: [Option<i64>; 2]) -> Option<Color> {
    let [Some(black), Some(white)] = scores else {
        return None;
    };
    if black >= n && white <= -n {
        Some(Color::Black)
    } else if white >= n && black <= -n {
        Some(Color::White)
    } else {
        None
    }
}

/// A finished game.
#[derive(Debug, Clone)]
pub(super) struct GameResult {
    /// 0-based game number.
    pub(super) index: usize,
    /// Which engine played Black.
    pub(super) black: usize,
    pub(super) winner: Option<Color>,
    pub(super) reason: String,
    /// More about an engine's failure, if any.
    pub(super) note: Option<String>,
    pub(super) names: [String; 2],
    pub(super) position: String,
    pub(super) plies: usize,
    /// Moves that took over 50 ms longer than allowed (but not past the margin), per engine.
    pub(super) late: [u32; 2],
    /// The most milliseconds a move took beyond what it was allowed, per
    /// engine (0: never over).
    pub(super) over: [u64; 2],
}

impl GameResult {
    /// The winning engine (0 or 1).
    pub(super) fn winner_engine(&self) -> Option<usize> {
        self.winner.map(|c| match c {
            Color::Black => self.black,
            Color::White => 1 - self.black,
        })
    }
}

/// One worker: its two engines, restarted when needed.
pub(super) struct Worker<'a> {
    pub(super) setup: &'a Setup,
    pub(super) engines: [Option<Engine>; 2],
}

impl Worker<'_> {
    pub(super) fn engine(&mut self, i: usize) -> Result<&mut Engine, String> {
        if !self.engines[i].as_ref().is_some_and(|e| e.healthy) {
            self.engines[i] = None;
            self.engines[i] = Some(Engine::start(i, &self.setup.engines[i], self.setup)?);
        }
        Ok(self.engines[i].as_mut().expect("started"))
    }

    pub(super) fn name(&self, i: usize) -> String {
        self.engines[i]
            .as_ref()
            .map_or_else(|| self.setup.engines[i].command.clone(), |e| e.name.clone())
    }

    pub(super) fn play<B: BitBoard>(
        &mut self,
        rules: &'static Rules<B>,
        index: usize,
        opening: &Opening,
    ) -> GameResult {
        let setup = self.setup;
        let black = index % 2;
        let sfen = match opening.base.strip_prefix("sfen ") {
            Some(s) => s.to_string(),
            None => rules.variant.start_sfen.to_string(),
        };
        let start = Position::from_sfen(rules, &sfen, SfenMode::Strict).expect("checked opening");
        let mut game = Game::new(start, setup.game_options);
        let mut moves: Vec<String> = Vec::new();
        for m in &opening.moves {
            game.play_usi(m).expect("checked opening");
            moves.push(m.clone());
        }
        let mut result = GameResult {
            index,
            black,
            winner: None,
            reason: String::new(),
            note: None,
            names: [String::new(), String::new()],
            position: String::new(),
            plies: 0,
            late: [0, 0],
            over: [0, 0],
        };
        // The engine playing each colour.
        let engine_of = |c: Color| match c {
            Color::Black => black,
            Color::White => 1 - black,
        };
        let color_of = |e: usize| {
            if e == black {
                Color::Black
            } else {
                Color::White
            }
        };
        let mut failure: Option<(usize, &str, String)> = None;
        for i in 0..2 {
            let prepared = self.engine(i).and_then(|e| {
                let who = format!("engine {}", i + 1);
                e.ready(&who)?;
                e.send("usinewgame")
            });
            if let Err(e) = prepared {
                failure = Some((i, "crash", e));
                break;
            }
        }
        result.names = [self.name(0), self.name(1)];
        let mut clocks = [
            setup.tc[engine_of(Color::Black)].start_clock(),
            setup.tc[engine_of(Color::White)].start_clock(),
        ];
        // Each engine's last score, for its own side (`--adjudicate`).
        let mut scores: [Option<i64>; 2] = [None, None];
        let mut adjudicated: Option<(Color, String)> = None;
        while failure.is_none() && adjudicated.is_none() && game.outcome().is_none() {
            let side = game.position().side_to_move();
            let who = engine_of(side);
            let position = opening.position(&moves);
            let tc = &setup.tc[who];
            let go = tc.go(clocks);
            let allowance = tc.allowance(clocks[side.index()]);
            let engine = match self.engine(who) {
                Ok(e) => e,
                Err(e) => {
                    failure = Some((who, "crash", e));
                    break;
                }
            };
            let started = Instant::now();
            if let Err(e) = engine.send(&position).and_then(|()| engine.send(&go)) {
                failure = Some((who, "crash", e));
                break;
            }
            let deadline = started + Duration::from_millis(allowance + setup.margin);
            let answer = engine.bestmove(deadline, &mut scores[who]);
            let used = started.elapsed().as_millis() as u64;
            let text = match answer {
                Ok(t) => t,
                Err(LineError::Timeout) => {
                    failure = Some((
                        who,
                        "time-forfeit",
                        format!("no bestmove within {} ms", allowance + setup.margin),
                    ));
                    break;
                }
                Err(LineError::Eof) => {
                    failure = Some((who, "crash", "the engine exited during its move".into()));
                    break;
                }
            };
            if used > allowance + LATE_SLACK_MS {
                result.late[who] += 1;
            }
            result.over[who] = result.over[who].max(used.saturating_sub(allowance));
            clocks[side.index()] = tc.after_move(clocks[side.index()], used);
            match text.as_str() {
                "resign" => game.resign(side),
                "win" => {
                    if let Err(e) = game.declare() {
                        failure = Some((who, "bad-declaration", e.to_string()));
                    }
                }
                _ => {
                    let canonical = game
                        .position()
                        .parse_move(&text)
                        .map(|m| game.position().move_to_usi(m));
                    match canonical {
                        Ok(usi) => {
                            game.play_usi(&usi).expect("a legal move");
                            moves.push(usi);
                        }
                        Err(e) => {
                            failure = Some((who, "illegal-move", format!("'{text}': {e}")));
                        }
                    }
                }
            }
            if let Some(a) = setup.adjudicate {
                let playing = [
                    scores[engine_of(Color::Black)],
                    scores[engine_of(Color::White)],
                ];
                let open = failure.is_none() && game.outcome().is_none();
                let at_limit = failure.is_none()
                    && game.outcome().is_some_and(|o| o.reason == Reason::MaxMoves);
                let decided = if open && moves.len() >= a.plies {
                    a.winner(playing).map(|w| (w, format!("score={}", a.score)))
                } else if at_limit {
                    a.winner_at_limit(playing).map(|w| {
                        (
                            w,
                            format!("final={} at the ply limit", a.at_limit.unwrap_or(0)),
                        )
                    })
                } else {
                    None
                };
                if let Some((winner, rule)) = decided {
                    let [b, w] = playing.map(|s| s.unwrap_or(0));
                    let note = format!(
                        "after ply {}: black's engine scores {b:+}, white's {w:+} (each for \
                         itself; {rule})",
                        moves.len(),
                    );
                    adjudicated = Some((winner, note));
                }
            }
        }
        let outcome = game.outcome();
        let (winner, reason) = match (failure, adjudicated, outcome) {
            (Some((loser, reason, note)), _, _) => {
                result.note = Some(format!("engine {}: {note}", loser + 1));
                (Some(!color_of(loser)), reason.to_string())
            }
            (None, Some((winner, note)), _) => {
                result.note = Some(note);
                (Some(winner), "adjudication".to_string())
            }
            (None, None, Some(o)) => (o.winner, o.reason.to_string()),
            (None, None, None) => {
                unreachable!("the loop ends with an outcome, a failure or an adjudication")
            }
        };
        result.winner = winner;
        result.reason = reason;
        for (i, e) in self.engines.iter_mut().enumerate() {
            if let Some(e) = e {
                if e.healthy {
                    let word = match result.winner_engine() {
                        None => "draw",
                        Some(w) if w == i => "win",
                        Some(_) => "lose",
                    };
                    let _ = e.send(&format!("gameover {word}"));
                }
            }
        }
        result.plies = moves.len();
        result.position = opening.position(&moves);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_both_engines_to_agree() {
        let a = Adjudication::parse("score=400,plies=60").unwrap();
        assert_eq!(
            a,
            Adjudication {
                score: 400,
                plies: 60,
                at_limit: None,
            }
        );
        assert_eq!(a.winner_at_limit([Some(900), Some(-900)]), None);
        // `final=N`: at the ply limit, a smaller agreed margin decides.
        let f = Adjudication::parse("score=800, plies=120, final=100").unwrap();
        assert_eq!(f.at_limit, Some(100));
        assert_eq!(f.winner([Some(150), Some(-120)]), None);
        assert_eq!(
            f.winner_at_limit([Some(150), Some(-120)]),
            Some(Color::Black)
        );
        assert_eq!(
            f.winner_at_limit([Some(-100), Some(100)]),
            Some(Color::White)
        );
        assert_eq!(f.winner_at_limit([Some(150), Some(50)]), None);
        assert_eq!(f.winner_at_limit([Some(150), None]), None);
        assert_eq!(a.winner([Some(400), Some(-400)]), Some(Color::Black));
        assert_eq!(a.winner([Some(-MATE_CP), Some(900)]), Some(Color::White));
        // One engine disagrees, or has said nothing.
        assert_eq!(a.winner([Some(900), Some(-300)]), None);
        assert_eq!(a.winner([Some(900), Some(900)]), None);
        assert_eq!(a.winner([Some(900), None]), None);
        for bad in [
            "score=400",
            "plies=3",
            "score=0,plies=3",
            "score=400,plies=3,final=0",
            "score=x,plies=3",
            "eval=1",
        ] {
            assert!(Adjudication::parse(bad).is_err(), "{bad}");
        }
    }
}
