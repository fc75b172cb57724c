//! The board editor's server side: a position set up on the page is checked
//! by the rules core (every typed reason it is not a position, nifu
//! included), and a tsume problem is answered by the mate solver.

use crate::bounds::spawn_search;
use crate::{board_json, body_json, err, notation, ApiError, Shared};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use banmen_engine::mate::find_mate;
use banmen_engine::{Control, MateResult};
use banmen_rules::{
    rules_for, with_position, AnyPosition, BitBoard, Position, SfenMode, VariantName,
};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The longest the tsume solver may think.
pub const MAX_TSUME_MS: u64 = 30_000;
pub(crate) const DEFAULT_TSUME_MS: u64 = 5_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionRequest {
    #[serde(default = "shogi")]
    pub(crate) variant: String,
    #[serde(default)]
    pub(crate) rules: String,
    pub(crate) sfen: String,
    /// Checked as a tsume problem: the attacker (to move) may have no king,
    /// and the defender then holds every piece not shown.
    /// (Default: no for `/api/positions`, yes for `/api/tsume`.)
    #[serde(default)]
    pub(crate) tsume: Option<bool>,
    /// The solver's time (`POST /api/tsume` only).
    #[serde(default)]
    pub(crate) movetime_ms: Option<u64>,
}

pub(crate) fn shogi() -> String {
    "shogi".into()
}

/// A refusal listing the reasons: `422 {error, problems}`.
pub(crate) fn refused(problems: Vec<String>) -> Response {
    let error = problems.join("; ");
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        Json(json!({ "error": error, "problems": problems })),
    )
        .into_response()
}

/// The position the request describes, checked (as a tsume problem when
/// `tsume`, by default `tsume_default`); `Err(problems)`: the rules core's
/// reasons when it is not one.
pub(crate) fn position(
    req: &PositionRequest,
    tsume_default: bool,
) -> Result<Result<AnyPosition, Vec<String>>, ApiError> {
    let bad = |m: String| err(StatusCode::UNPROCESSABLE_ENTITY, m);
    let name: VariantName = req.variant.parse().map_err(|e| bad(format!("{e}")))?;
    let mode = if req.tsume.unwrap_or(tsume_default) {
        SfenMode::Tsume
    } else {
        SfenMode::Strict
    };
    let rules = rules_for(name, &req.rules).map_err(|e| bad(e.to_string()))?;
    Ok(rules
        .position(req.sfen.trim(), mode)
        .map_err(|e| e.problems.iter().map(ToString::to_string).collect()))
}

/// The page's view of a checked position.
pub(crate) fn described<B: BitBoard>(p: &Position<B>) -> Value {
    json!({
        "sfen": p.to_sfen(),
        "side_to_move": p.side_to_move().name(),
        "legal_moves": p.legal_moves().len(),
        "position": board_json(p),
    })
}

/// `POST /api/positions {variant, rules, sfen, tsume}`: the position checked
/// by the rules core, or `422` with every reason it is not one.
pub(crate) async fn check_position(body: Bytes) -> Result<Response, ApiError> {
    let req: PositionRequest = body_json(&body)?;
    Ok(match position(&req, false)? {
        Ok(p) => Json(with_position!(&p, p => described(p))).into_response(),
        Err(problems) => refused(problems),
    })
}

/// The solver's line: each move as text, with the position after it.
pub(crate) fn mate_line<B: BitBoard>(pos: &Position<B>, moves: &[banmen_rules::Move]) -> Value {
    let mut p = pos.clone();
    let mut previous = None;
    let line: Vec<Value> = moves
        .iter()
        .map(|&m| {
            let (western, japanese) = notation::both(&p, m, previous);
            let usi = p.move_to_usi(m);
            previous = Some(m.to());
            p.make_move(m);
            json!({
                "usi": usi,
                "western": western,
                "japanese": japanese,
                "sfen": p.to_sfen(),
                "position": board_json(&p),
            })
        })
        .collect();
    json!(line)
}

/// The solver's answer, with the problem as checked (a tsume's defender
/// holding the pieces not shown).
fn solve<B: BitBoard>(pos: &Position<B>, deadline: Instant, control: &Control) -> Value {
    let (result, moves) = match find_mate(pos, Some(deadline), control) {
        MateResult::Mate(moves) => ("mate", moves),
        MateResult::NoMate => ("nomate", Vec::new()),
        MateResult::Timeout => ("unknown", Vec::new()),
    };
    let mut answer = described(pos);
    answer["result"] = json!(result);
    answer["plies"] = json!(moves.len());
    answer["line"] = mate_line(pos, &moves);
    answer
}

/// `POST /api/tsume {variant, rules, sfen, movetime_ms}`: the side to move
/// looks for a mate (checked as a tsume problem unless `"tsume": false`);
/// `{result: mate|nomate|unknown, plies, line: [{usi, western, japanese, sfen}]}`.
/// The solver runs in the engine pool.
pub(crate) async fn tsume(State(s): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    let req: PositionRequest = body_json(&body)?;
    let ms = req.movetime_ms.unwrap_or(DEFAULT_TSUME_MS);
    if ms == 0 || ms > MAX_TSUME_MS {
        return Err(err(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("movetime_ms must be 1..={MAX_TSUME_MS}, not {ms}"),
        ));
    }
    let pos = match position(&req, true)? {
        Ok(p) => p,
        Err(problems) => return Ok(refused(problems)),
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    spawn_search(s, move |_| {
        Some(move || {
            let deadline = Instant::now() + Duration::from_millis(ms);
            let control = Control::default();
            let _ = tx.send(with_position!(&pos, p => solve(p, deadline, &control)));
        })
    });
    let answer = rx
        .await
        .map_err(|_| err(StatusCode::SERVICE_UNAVAILABLE, "the solver stopped"))?;
    Ok(Json(answer).into_response())
}
