//! Import and export of game records through `banmen-formats`: KIF, KI2,
//! CSA, SFEN and USI lines, Western and Japanese move lists.

use crate::{
    blocking, body_json, check_players, client_ip, err, insert_game, parse_id, ApiError, Client,
    NewGame, Player, Shared,
};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use banmen_formats::{read, write, EndReason, Format, GameResult, Headers, Record};
use banmen_rules::{Color, Variant, VariantName};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImportRequest {
    /// The record's text.
    text: String,
    /// `kif`, `kifu`, `ki2`, `jkf`, `csa`, `sfen`, `usi`, `western`, `japanese`; guessed when absent.
    #[serde(default)]
    format: Option<String>,
    #[serde(default = "human")]
    black: Player,
    #[serde(default = "human")]
    white: Player,
}

fn human() -> Player {
    Player::Human
}

/// The handicap whose start position this is, if any.
fn handicap_of(variant: VariantName, start: &str) -> Option<String> {
    let fields = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let v = Variant::get(variant)?;
    v.handicaps
        .iter()
        .find(|h| fields(h.sfen) == fields(start))
        .map(|h| h.name.to_string())
}

/// `POST /api/games/import` `{text, format?, black?, white?}`: a new game
/// with the record's start, rules and moves (and its resignation); both seats
/// human unless told otherwise. Its variations are kept with the game (shown
/// in its state, exported); the game goes on from the main line.
pub(crate) async fn import(
    State(s): State<Shared>,
    client: Client,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: ImportRequest = body_json(&body)?;
    let bad = |m: String| err(StatusCode::UNPROCESSABLE_ENTITY, m);
    let format = req
        .format
        .as_deref()
        .filter(|f| !f.is_empty() && *f != "auto")
        .map(str::parse::<Format>)
        .transpose()
        .map_err(bad)?;
    let players = [req.black, req.white];
    check_players(&players)?;
    let rec = read(req.text.as_bytes(), format).map_err(|e| bad(format!("record: {e}")))?;
    let resigned = match rec.result {
        Some(GameResult {
            winner: Some(w),
            reason: EndReason::Resignation,
        }) => Some(!w),
        _ => None,
    };
    blocking(|| {
        insert_game(
            &s,
            NewGame {
                variant: rec.variant.as_str().to_string(),
                handicap: handicap_of(rec.variant, &rec.start),
                rules: rec.rules,
                start_sfen: rec.start,
                players,
                time_control: None,
                consent: false,
                moves: rec.moves,
                resigned,
                variations: rec.variations,
            },
            client_ip(client),
        )
    })
}

fn player_name(p: Player) -> String {
    match p {
        Player::Human => "human".to_string(),
        Player::Engine {
            movetime_ms,
            level: None,
        } => format!("banmen engine ({movetime_ms} ms/move)"),
        Player::Engine {
            movetime_ms,
            level: Some(l),
        } => format!("banmen engine level {l} ({movetime_ms} ms/move)"),
    }
}

/// `GET /api/games/{id}/export?format=F[&download=1]`: the game as a record
/// (`kif` is Shift-JIS, the others UTF-8), with the imported variations in
/// the formats that hold them.
pub(crate) async fn export(
    State(s): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let id = parse_id(&id)?;
    let bad = |m: String| err(StatusCode::UNPROCESSABLE_ENTITY, m);
    let format: Format = q
        .get("format")
        .map_or("kifu", String::as_str)
        .parse()
        .map_err(bad)?;
    let rec = {
        let inner = s.inner.lock().expect("lock");
        let e = inner
            .games
            .get(&id)
            .ok_or_else(|| err(StatusCode::NOT_FOUND, format!("no game {id}")))?;
        let variant: VariantName = e.variant.parse().map_err(|e| bad(format!("{e}")))?;
        let mut rec = Record {
            variant,
            rules: e.rules.clone(),
            start: e.start_sfen.clone(),
            moves: e.usi.clone(),
            times: e.times.iter().map(|&ms| Some((ms / 1000) as u32)).collect(),
            result: match (e.flagged, e.ended) {
                (Some(loser), _) => Some(GameResult {
                    winner: Some(!loser),
                    reason: EndReason::Timeout,
                }),
                (None, Some(ended)) => Some(GameResult {
                    winner: None,
                    reason: if ended == crate::consent::ABORTED {
                        EndReason::Abort
                    } else {
                        EndReason::Draw
                    },
                }),
                (None, None) => e.outcome().map(GameResult::from),
            },
            headers: Headers {
                black: Some(player_name(e.players[Color::Black.index()])),
                white: Some(player_name(e.players[Color::White.index()])),
                ..Headers::default()
            },
            variations: Vec::new(),
        };
        if let Some(v) = e.variations.as_ref().filter(|_| format.holds_variations()) {
            rec.variations = v.tree(&e.usi, rec.result.is_some());
        }
        rec
    };
    let bytes = write(&rec, format).map_err(|m| bad(format!("{format}: {m}")))?;
    let charset = if format == Format::Kif {
        "text/plain; charset=shift_jis"
    } else {
        "text/plain; charset=utf-8"
    };
    let mut res = bytes.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(charset));
    if q.get("download").is_some_and(|d| d == "1") {
        let name = format!("attachment; filename=\"banmen-{id}.{}\"", format.as_str());
        if let Ok(v) = HeaderValue::from_str(&name) {
            h.insert(header::CONTENT_DISPOSITION, v);
        }
    }
    Ok(res)
}
