//! Tsume "solve it yourself": the player makes the attacker's moves, the
//! server judges each with the mate solver and answers with the defence.
//!
//! A tsume's attacker moves only with checks, and every check must keep a
//! forced mate: after the move, each of the defender's replies still leaves
//! a mate (the solver is run on the position after each reply). The
//! defender then plays its longest resistance (the reply whose shortest
//! mate is longest; a reply on the board before an interposing drop).

use crate::bounds::spawn_search;
use crate::editor::{
    described, position, refused, shogi, PositionRequest, DEFAULT_TSUME_MS, MAX_TSUME_MS,
};
use crate::{board_json, body_json, err, notation, ApiError, Shared};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use banmen_engine::mate::{solve_mate, MateOptions, MateResult, MateTable};
use banmen_engine::Control;
use banmen_rules::with_position;
use banmen_rules::{BitBoard, Move, Position, Square};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    #[serde(default = "shogi")]
    variant: String,
    #[serde(default)]
    rules: String,
    /// The problem, attacker to move (read as a tsume: the defender holds
    /// every piece not shown).
    sfen: String,
    /// The moves played so far from the problem, attacker's and
    /// defender's in turn; an odd number: the last (the attacker's) is judged.
    #[serde(default)]
    moves: Vec<String>,
    /// The solver's time for the whole judgement.
    #[serde(default)]
    movetime_ms: Option<u64>,
}

/// What the solver says of the attacker's last move.
enum Verdict {
    /// The defender is mated.
    Solved,
    /// Still a forced mate: the defender's longest reply and the plies of
    /// mate left after it.
    Correct { reply: Move, mate_in: usize },
    /// No mate after the move: why, and a reply that escapes (if any).
    Wrong {
        reason: &'static str,
        escape: Option<Move>,
    },
    /// No answer in the time given.
    Unknown,
}

/// The judgement of an attacker's move, from the position after it
/// (defender to move).
fn judge<B: BitBoard>(after: &Position<B>, deadline: Instant, control: &Control) -> Verdict {
    if !after.in_check() {
        return Verdict::Wrong {
            reason: "not a check: in a tsume every attacker move gives check",
            escape: None,
        };
    }
    let replies = after.legal_moves();
    if replies.is_empty() {
        return Verdict::Solved;
    }
    let Ok(mut table) = MateTable::try_new(16) else {
        return Verdict::Unknown;
    };
    // The longest resistance; on equal lengths a move on the board before
    // a drop (interposing drops are mostly useless, 無駄合).
    let mut best: Option<(usize, bool, Move)> = None;
    for &reply in replies.iter() {
        let mut p = after.clone();
        p.make_move(reply);
        let report = solve_mate(
            &p,
            &mut table,
            Some(deadline),
            control,
            &MateOptions::default(),
            &mut |_| {},
        );
        match report.result {
            MateResult::Mate(line) => {
                let key = (line.len(), !reply.is_drop());
                if best.is_none_or(|(n, board, _)| key > (n, board)) {
                    best = Some((key.0, key.1, reply));
                }
            }
            MateResult::NoMate => {
                return Verdict::Wrong {
                    reason: "no mate after this: the defender escapes",
                    escape: Some(reply),
                }
            }
            MateResult::Timeout => return Verdict::Unknown,
        }
    }
    match best {
        Some((mate_in, _, reply)) => Verdict::Correct { reply, mate_in },
        None => Verdict::Unknown,
    }
}

/// A move as text, with the position after it: `{usi, western, japanese,
/// sfen, position}`.
fn move_json<B: BitBoard>(before: &Position<B>, m: Move, previous: Option<Square>) -> Value {
    let (western, japanese) = notation::both(before, m, previous);
    let mut after = before.clone();
    after.make_move(m);
    json!({
        "usi": before.move_to_usi(m),
        "western": western,
        "japanese": japanese,
        "sfen": after.to_sfen(),
        "position": board_json(&after),
    })
}

/// The last move of a line: the position before it, the square the move
/// before it went to (for `同`), the move.
struct Last<B: BitBoard> {
    before: Position<B>,
    previous: Option<Square>,
    m: Move,
}

/// `problem` after `moves`, and their last.
///
/// # Errors
/// An illegal move, with its number and the rules core's reason.
fn replay<B: BitBoard>(
    problem: &Position<B>,
    moves: &[String],
) -> Result<(Position<B>, Option<Last<B>>), String> {
    let mut pos = problem.clone();
    let mut last: Option<Last<B>> = None;
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_move(text.trim())
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        let previous = last.as_ref().map(|l| l.m.to());
        last = Some(Last {
            before: pos.clone(),
            previous,
            m,
        });
        pos.make_move(m);
    }
    Ok((pos, last))
}

/// The answer for the problem after `moves`: the position now with its
/// legal moves, and for an odd number of moves the verdict on the last.
///
/// # Errors
/// An illegal move, with its number and the rules core's reason.
fn answer<B: BitBoard>(problem: &Position<B>, moves: &[String], ms: u64) -> Result<Value, String> {
    let (mut pos, last) = replay(problem, moves)?;
    let previous = last.as_ref().map(|l| l.m.to());
    let mut out = json!({ "verdict": null, "reason": null, "move": null, "reply": null, "escape": null, "mate_in": null });
    if moves.len() % 2 == 1 {
        let last = last.expect("an odd number of moves");
        out["move"] = move_json(&last.before, last.m, last.previous);
        let deadline = Instant::now() + Duration::from_millis(ms);
        match judge(&pos, deadline, &Control::default()) {
            Verdict::Solved => out["verdict"] = json!("solved"),
            Verdict::Correct { reply, mate_in } => {
                out["verdict"] = json!("correct");
                out["reply"] = move_json(&pos, reply, previous);
                out["mate_in"] = json!(mate_in);
                pos.make_move(reply);
            }
            Verdict::Wrong { reason, escape } => {
                out["verdict"] = json!("wrong");
                out["reason"] = json!(reason);
                out["escape"] = escape.map_or(Value::Null, |e| move_json(&pos, e, previous));
            }
            Verdict::Unknown => {
                out["verdict"] = json!("unknown");
                out["reason"] = json!("the solver found no answer in the time given");
            }
        }
    }
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_to_usi(m))
        .collect();
    let now = described(&pos);
    for key in ["sfen", "side_to_move", "position"] {
        out[key] = now[key].clone();
    }
    out["legal_moves"] = json!(legal);
    Ok(out)
}

/// `POST /api/tsume/check {variant, rules, sfen, moves, movetime_ms}`: the
/// problem after `moves`; for an odd number of moves the verdict on the
/// last (the attacker's): `solved` (mate), `correct` (a check that keeps a
/// forced mate; `reply` is the defence, `mate_in` the plies left after it),
/// `wrong` (not a check, or the defender escapes: `escape`) or `unknown`
/// (out of time). The solver runs in the engine pool.
pub(crate) async fn check(State(s): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    let req: CheckRequest = body_json(&body)?;
    let ms = req.movetime_ms.unwrap_or(DEFAULT_TSUME_MS);
    if ms == 0 || ms > MAX_TSUME_MS {
        return Err(err(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("movetime_ms must be 1..={MAX_TSUME_MS}, not {ms}"),
        ));
    }
    let problem = PositionRequest {
        variant: req.variant,
        rules: req.rules,
        sfen: req.sfen,
        tsume: Some(true),
        movetime_ms: None,
    };
    let pos = match position(&problem, true)? {
        Ok(p) => p,
        Err(problems) => return Ok(refused(problems)),
    };
    let moves = req.moves;
    // An illegal move is refused before the solver's turn in the pool comes.
    with_position!(&pos, p => replay(p, &moves).map(|_| ()))
        .map_err(|e| err(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    spawn_search(s, move |_| {
        Some(move || {
            let _ = tx.send(with_position!(&pos, p => answer(p, &moves, ms)));
        })
    });
    let answer = rx
        .await
        .map_err(|_| err(StatusCode::SERVICE_UNAVAILABLE, "the solver stopped"))?;
    answer
        .map(|v| Json(v).into_response())
        .map_err(|e| err(StatusCode::UNPROCESSABLE_ENTITY, e))
}
