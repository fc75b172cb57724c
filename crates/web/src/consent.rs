//! What two people agree on: draw and take-back offers the other side
//! accepts or declines, an abort before the second move, a rematch after the
//! end, and the check of a seat link's token.

use crate::{
    admit, blocking, body_json, change, client_ip, color_name, err, fresh, game_over, local_job,
    new_game, new_token, now_secs, parse_id, read_game, seat, seat_in_play, spawn_engine, state,
    storage, store_or_restore, stored_or_conflict, ApiError, Client, Entry, Head, Inner, Player,
    Shared,
};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use banmen_rules::Color;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The reason of a draw both sides agreed to.
pub(crate) const AGREEMENT: &str = "agreement";
/// The reason of a game aborted before its second move (no winner).
pub(crate) const ABORTED: &str = "aborted";

/// The ending a stored reason with no winner names, when the rules do not
/// know it (a draw agreed, an abort).
pub(crate) fn ending(reason: &str) -> Option<&'static str> {
    [AGREEMENT, ABORTED].into_iter().find(|r| *r == reason)
}

/// A side, as JSON (`"black"`, `"white"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Side {
    Black,
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl Side {
    fn color(self) -> Color {
        match self {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// What can be offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum OfferKind {
    /// A draw.
    Draw,
    /// Taking back the offering side's last move (and the reply to it).
    Takeback,
}

impl OfferKind {
    fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

/// An offer waiting for the other side: `{"kind": "draw", "by": "black"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Offer {
    pub(crate) kind: OfferKind,
    pub(crate) by: Side,
}

/// How the last offer was answered: `{"kind", "by", "accepted"}`, `by` the
/// side that answered (the offering side itself when it withdrew it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Answer {
    pub(crate) kind: OfferKind,
    pub(crate) by: Side,
    pub(crate) accepted: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OfferRequest {
    kind: OfferKind,
}

fn conflict(m: impl Into<String>) -> ApiError {
    err(StatusCode::CONFLICT, m)
}

/// How many plies taking back `by`'s last move removes (its move and the
/// replies after it); `None` when `by` has not moved.
fn takeback_plies(e: &Entry, by: Color) -> Option<usize> {
    let n = e.ply();
    (1..=n).find(|&k| e.mover(n + 1 - k) == by)
}

/// Stores the offer state of `e` (no move changed) or puts it back.
fn store_offer(conn: &mut storage::Store, e: &mut Entry, saved: Entry) -> Result<(), ApiError> {
    e.version += 1;
    let from = e.ply() + 1;
    store_or_restore(conn, e, from, saved)
}

/// `POST /api/games/{id}/offer` `{"kind": "draw" | "takeback"}`: an offer to
/// the other person, who answers with `offer/accept` or `offer/decline`.
pub(crate) async fn offer(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: OfferRequest = body_json(&body)?;
    blocking(|| {
        change(&s, &id, |conn, e| {
            let me = seat_in_play(&headers, e)?;
            if matches!(e.players[(!me).index()], Player::Engine { .. }) {
                return Err(conflict(
                    "the engine answers no offers (against the engine, take back with POST /api/games/{id}/undo)",
                ));
            }
            if let Some(o) = e.offer {
                return Err(conflict(format!(
                    "an offer is waiting for an answer ({} by {})",
                    o.kind.name(),
                    color_name(o.by.color())
                )));
            }
            if req.kind == OfferKind::Takeback && takeback_plies(e, me).is_none() {
                return Err(conflict("nothing to take back: you have not moved"));
            }
            let saved = e.snapshot();
            e.offer = Some(Offer {
                kind: req.kind,
                by: me.into(),
            });
            e.answer = None;
            store_offer(conn, e, saved)
        })
    })
}

/// The offer waiting for an answer in a game still on.
fn pending(e: &Entry) -> Result<Offer, ApiError> {
    let o = e
        .offer
        .ok_or_else(|| conflict("no offer is waiting for an answer"))?;
    if let Some((_, reason)) = e.result() {
        return Err(game_over(reason));
    }
    Ok(o)
}

/// `POST /api/games/{id}/offer/accept`: the other side accepts the offer (a
/// draw by agreement, or the take-back).
pub(crate) async fn accept(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    blocking(|| {
        change(&s, &id, |conn, e| {
            let me = seat(&headers, e)?;
            let o = pending(e)?;
            if o.by.color() == me {
                return Err(conflict(
                    "an offer is accepted by the other side, not by its maker",
                ));
            }
            let saved = e.snapshot();
            let answer = Answer {
                kind: o.kind,
                by: me.into(),
                accepted: true,
            };
            match o.kind {
                OfferKind::Draw => {
                    e.ended = Some(AGREEMENT);
                    e.offer = None;
                    e.answer = Some(answer);
                    store_offer(conn, e, saved)?;
                }
                OfferKind::Takeback => {
                    let Some(k) = takeback_plies(e, o.by.color()) else {
                        return Err(conflict("nothing to take back"));
                    };
                    e.stop_engine();
                    let n = e.ply();
                    for _ in 0..k {
                        e.pop_move();
                    }
                    e.answer = Some(answer);
                    store_or_restore(conn, e, n - k + 1, saved)?;
                }
            }
            e.stop_engine();
            Ok(())
        })
    })
}

/// `POST /api/games/{id}/offer/decline`: the other side declines the offer,
/// or its maker withdraws it.
pub(crate) async fn decline(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    blocking(|| {
        change(&s, &id, |conn, e| {
            let me = seat(&headers, e)?;
            let o = pending(e)?;
            let saved = e.snapshot();
            e.offer = None;
            e.answer = Some(Answer {
                kind: o.kind,
                by: me.into(),
                accepted: false,
            });
            store_offer(conn, e, saved)
        })
    })
}

/// `POST /api/games/{id}/abort`: ends a game before its second move with no
/// winner (reason `aborted`).
pub(crate) async fn abort(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    blocking(|| {
        change(&s, &id, |conn, e| {
            seat(&headers, e)?;
            if let Some((_, reason)) = e.result() {
                return Err(game_over(reason));
            }
            let n = e.ply();
            if n >= 2 {
                return Err(conflict(format!(
                    "too late to abort: {n} moves played (a game is aborted before its second move; resign or offer a draw)"
                )));
            }
            let saved = e.snapshot();
            e.ended = Some(ABORTED);
            e.offer = None;
            store_offer(conn, e, saved)?;
            e.stop_engine();
            Ok(())
        })
    })
}

/// The seat in the rematch of the player who held `seat`: the colours change
/// over, except in a handicap game (the same side gives the handicap).
fn rematch_seat(handicap: bool, seat: Color) -> Color {
    if handicap {
        seat
    } else {
        !seat
    }
}

/// The answer to a rematch request: the new game's state, the caller's seat
/// and that seat's token (never the other one).
fn rematch_answer(new: &Entry, seat: Color, status: StatusCode) -> Response {
    let mut v = state(new);
    v["seat"] = json!(color_name(seat));
    v["token"] = json!(new.tokens[seat.index()]);
    (status, Json(v)).into_response()
}

/// `POST /api/games/{id}/rematch`: after the end, a new game with the same
/// game, rules, handicap, clock and players, the colours changed over (not
/// in a handicap game). The first player to ask creates it (`201`), the
/// other joins it (`200`); each gets only its own seat's token. The old
/// game's state names the rematch (`"rematch": id`).
pub(crate) async fn rematch(
    State(s): State<Shared>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = parse_id(&id)?;
    let client = client_ip(client);
    blocking(|| {
        let no_game = || err(StatusCode::NOT_FOUND, format!("no game {id}"));
        // What the new game copies, read under the lock.
        let (head, me) = {
            let mut inner = s.inner.lock().expect("lock");
            let Inner { conn, games, .. } = &mut *inner;
            fresh(conn, games, id)?;
            if let Some(n) = games.get(&id).and_then(|e| e.rematch) {
                fresh(conn, games, n)?;
            }
            let e = games.get(&id).ok_or_else(no_game)?;
            let me = seat(&headers, e)?;
            if e.result().is_none() {
                return Err(conflict("the game is not over: a rematch follows its end"));
            }
            if let Some(new) = e.rematch.and_then(|n| games.get(&n)) {
                let seat = rematch_seat(e.handicap.is_some(), me);
                return Ok(rematch_answer(new, seat, StatusCode::OK));
            }
            let swap = e.handicap.is_none();
            let players = if swap {
                [e.players[1], e.players[0]]
            } else {
                e.players
            };
            (
                Head {
                    variant: e.variant.clone(),
                    rules: e.rules.clone(),
                    handicap: e.handicap.clone(),
                    start_sfen: e.start_sfen.clone(),
                    players,
                    time_control: e.time_control,
                    consent: e.consent,
                },
                me,
            )
        };
        let seat = rematch_seat(head.handicap.is_some(), me);
        let game = new_game(&head.variant, &head.rules, &head.start_sfen)
            .map_err(|m| err(StatusCode::UNPROCESSABLE_ENTITY, m))?;
        let tokens = head.players.map(|p| (p == Player::Human).then(new_token));
        let created = now_secs();
        let mut entry = Entry::new(0, head, tokens, game, created, created);
        entry.creator = client;
        let (response, job) = {
            let mut inner = s.inner.lock().expect("lock");
            let Inner { conn, games, rates } = &mut *inner;
            // Someone else may have created it meanwhile (here, or on
            // another server).
            fresh(conn, games, id)?;
            if let Some(n) = games.get(&id).and_then(|e| e.rematch) {
                fresh(conn, games, n)?;
            }
            let old = games.get(&id).ok_or_else(no_game)?;
            if let Some(new) = old.rematch.and_then(|n| games.get(&n)) {
                return Ok(rematch_answer(new, seat, StatusCode::OK));
            }
            admit(&s.bounds, rates, games.values(), client, &entry.players)?;
            let old = games.get_mut(&id).ok_or_else(no_game)?;
            let saved = old.snapshot();
            old.version += 1;
            let from = old.ply() + 1;
            if let Err(dbe) = storage::insert_rematch(conn, &mut entry, old, from) {
                old.restore(saved);
                return Err(stored_or_conflict(old, dbe));
            }
            let new_id = entry.id;
            let _ = s.events.send((id, state(old).to_string()));
            let job = local_job(&s.bounds, &mut entry);
            let response = rematch_answer(&entry, seat, StatusCode::CREATED);
            games.insert(new_id, entry);
            (response, job)
        };
        if let Some(job) = job {
            spawn_engine(s.clone(), job);
        }
        Ok(response)
    })
}

/// `GET /api/games/{id}/seat` with a seat token: `{"seat": "black"}`, or
/// `403` when the token holds no seat in the game (a seat link is checked
/// before the page keeps its token).
pub(crate) async fn seat_of(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id)?;
    read_game(&s, id, |e| {
        let me = seat(&headers, e)?;
        Ok(Json(json!({ "id": id, "seat": color_name(me) })))
    })
}
