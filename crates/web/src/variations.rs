//! The variations of a game's record: an imported record's, and the side
//! lines its players save while analysing it (`POST /api/games/{id}/variations`).
//! Stored as JSON in the game's row, shown in its state with each move's
//! text, and written back by the exports that hold them (KIF, KI2, JKF).

use crate::{
    blocking, body_json, change, color_from, color_name, err, notation, seat, storage,
    stored_or_conflict, ApiError, Shared,
};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use banmen_formats::{Comment, EndReason, GameResult, Variation};
use banmen_rules::{with_game, AnyGame};
use banmen_rules::{BitBoard, Position, Square};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// A game's variations and the main line they branch off, as imported.
#[derive(Debug)]
pub(crate) struct Variations {
    /// The imported main line. The game may go on, or be taken back and
    /// played otherwise: a variation at ply `p` belongs to the game while
    /// its first `p - 1` moves are still these.
    base: Vec<String>,
    /// The variations off `base`, as the record has them (saved side lines
    /// after the imported ones at the same ply).
    tree: Vec<Variation>,
    /// Each of `tree` as the state shows it (computed once).
    shown: Vec<Value>,
}

impl Variations {
    /// The variations of a game from its start, off the main line `base`.
    ///
    /// # Errors
    /// A variation that does not branch off its line, or an illegal move.
    pub(crate) fn new(
        game: &AnyGame,
        base: Vec<String>,
        tree: Vec<Variation>,
    ) -> Result<Variations, String> {
        let shown = with_game!(game, g => show_all(g.start(), &base, &tree))?;
        Ok(Variations { base, tree, shown })
    }

    /// Reads [`Self::stored`] back.
    ///
    /// # Errors
    /// Malformed JSON, or as [`Self::new`].
    pub(crate) fn from_stored(game: &AnyGame, text: &str) -> Result<Variations, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let base = strings(&v["base"]);
        let tree = v["variations"]
            .as_array()
            .map(|a| a.iter().map(variation_from).collect::<Result<_, _>>())
            .transpose()?
            .unwrap_or_default();
        Variations::new(game, base, tree)
    }

    /// The JSON kept in the game's row: the main line and the tree of USI moves.
    pub(crate) fn stored(&self) -> String {
        let tree: Vec<Value> = self.tree.iter().map(variation_json).collect();
        json!({ "base": self.base, "variations": tree }).to_string()
    }

    /// Whether variation `i` still branches off the game's moves `usi`.
    fn belongs(&self, i: usize, usi: &[String]) -> bool {
        let before = self.tree[i].ply.saturating_sub(1);
        before <= usi.len() && before <= self.base.len() && usi[..before] == self.base[..before]
    }

    /// The variations the state shows for a game whose moves are `usi`.
    pub(crate) fn shown(&self, usi: &[String]) -> Value {
        Value::Array(
            (0..self.tree.len())
                .filter(|&i| self.belongs(i, usi))
                .map(|i| self.shown[i].clone())
                .collect(),
        )
    }

    /// The record tree with `line` (USI moves from the game's start) in it,
    /// for a game whose moves are `usi`: the line follows the main line and
    /// the variations as far as it can, then branches off as a new
    /// variation (or lengthens a variation it continues past its end). The
    /// tree is rebuilt on the game's moves: variations that no longer
    /// branch off them (taken back and played otherwise) are left out.
    /// `Ok(None)`: the line is in the record already.
    ///
    /// # Errors
    /// An illegal move, or a tree beyond [`MAX_SAVED_MOVES`] moves.
    pub(crate) fn with_line(
        old: Option<&Variations>,
        game: &AnyGame,
        usi: &[String],
        line: &[String],
    ) -> Result<Option<Variations>, String> {
        let mut tree: Vec<Variation> = old.map_or_else(Vec::new, |v| {
            (0..v.tree.len())
                .filter(|&i| v.belongs(i, usi))
                .map(|i| v.tree[i].clone())
                .collect()
        });
        if !add_line(usi, 1, &mut tree, line) {
            return Ok(None);
        }
        let size: usize = tree.iter().map(moves_in).sum();
        if size > MAX_SAVED_MOVES {
            return Err(format!(
                "the record's variations may hold at most {MAX_SAVED_MOVES} moves"
            ));
        }
        Variations::new(game, usi.to_vec(), tree).map(Some)
    }

    /// The variations to export with the game's moves `usi`; one after the
    /// last move (played instead of resigning, say) only when the game has
    /// ended.
    pub(crate) fn tree(&self, usi: &[String], ended: bool) -> Vec<Variation> {
        (0..self.tree.len())
            .filter(|&i| self.belongs(i, usi) && (self.tree[i].ply <= usi.len() || ended))
            .map(|i| self.tree[i].clone())
            .collect()
    }
}

/// The most moves a game's variations may hold, all together.
pub const MAX_SAVED_MOVES: usize = 20_000;

fn moves_in(v: &Variation) -> usize {
    v.moves.len() + v.variations.iter().map(moves_in).sum::<usize>()
}

/// Adds `path` (its first move is ply `first`) to the line `moves` and the
/// variations off it; whether anything was added.
fn add_line(
    moves: &[String],
    first: usize,
    children: &mut Vec<Variation>,
    path: &[String],
) -> bool {
    let k = moves.iter().zip(path).take_while(|(a, b)| a == b).count();
    if k == path.len() {
        return false;
    }
    let ply = first + k;
    if let Some(child) = children
        .iter_mut()
        .find(|c| c.ply == ply && c.moves.first() == Some(&path[k]))
    {
        return add_to_variation(child, &path[k..]);
    }
    // After the variations already at this ply, in the record's order.
    let at = children
        .iter()
        .position(|c| c.ply > ply)
        .unwrap_or(children.len());
    children.insert(
        at,
        Variation {
            ply,
            moves: path[k..].to_vec(),
            ..Variation::default()
        },
    );
    true
}

/// Adds `path` (from the variation's first move) to a variation: it goes
/// on past the end of one without a result, else branches off.
fn add_to_variation(v: &mut Variation, path: &[String]) -> bool {
    let k = v.moves.iter().zip(path).take_while(|(a, b)| a == b).count();
    if k == v.moves.len() && k < path.len() && v.result.is_none() {
        if !v.times.is_empty() {
            v.times.resize(path.len(), None);
        }
        v.moves.extend_from_slice(&path[k..]);
        return true;
    }
    let moves = v.moves.clone();
    add_line(&moves, v.ply, &mut v.variations, path)
}

/// The top-level variations, each from the position after `base`'s moves
/// before it.
fn show_all<B: BitBoard>(
    start: &Position<B>,
    base: &[String],
    tree: &[Variation],
) -> Result<Vec<Value>, String> {
    let line = Line::play(start, None, base, 1)?;
    tree.iter()
        .map(|v| {
            let (pos, previous) = line.before(v.ply, 1)?;
            show(pos, previous, v)
        })
        .collect()
}

/// A line played out: the position before each move and after the last,
/// with the square the move before went to (for `同`).
struct Line<B: BitBoard> {
    positions: Vec<(Position<B>, Option<Square>)>,
    moves: Vec<Value>,
}

impl<B: BitBoard> Line<B> {
    /// Plays `moves`, the first of which is ply `first`.
    fn play(
        pos: &Position<B>,
        previous: Option<Square>,
        moves: &[String],
        first: usize,
    ) -> Result<Line<B>, String> {
        let mut pos = pos.clone();
        let mut previous = previous;
        let mut out = Line {
            positions: Vec::with_capacity(moves.len() + 1),
            moves: Vec::with_capacity(moves.len()),
        };
        for (i, text) in moves.iter().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("move {} ({text}): {e}", first + i))?;
            let (western, japanese) = notation::both(&pos, m, previous);
            out.moves.push(json!({
                "usi": pos.move_to_usi(m),
                "western": western,
                "japanese": japanese,
            }));
            out.positions.push((pos.clone(), previous));
            pos.make_move(m);
            previous = Some(m.to());
        }
        out.positions.push((pos, previous));
        Ok(out)
    }

    /// The position before ply `ply` of a line whose first move is ply `first`.
    fn before(&self, ply: usize, first: usize) -> Result<(&Position<B>, Option<Square>), String> {
        ply.checked_sub(first)
            .and_then(|i| self.positions.get(i))
            .map(|(p, s)| (p, *s))
            .ok_or_else(|| format!("a variation at move {ply} does not branch off its line"))
    }
}

/// One variation as the state shows it: `{ply, moves: [{usi, western,
/// japanese}], result, variations}`, from the position before its first move.
fn show<B: BitBoard>(
    pos: &Position<B>,
    previous: Option<Square>,
    v: &Variation,
) -> Result<Value, String> {
    let line = Line::play(pos, previous, &v.moves, v.ply)
        .map_err(|e| format!("the variation at move {}: {e}", v.ply))?;
    let children = v
        .variations
        .iter()
        .map(|c| {
            if c.ply <= v.ply {
                return Err(format!(
                    "a variation at move {} does not branch off its line",
                    c.ply
                ));
            }
            let (p, s) = line.before(c.ply, v.ply)?;
            show(p, s, c)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "ply": v.ply,
        "moves": line.moves,
        "result": v.result.map(result_json),
        "variations": children,
    }))
}

fn result_json(r: GameResult) -> Value {
    json!({ "winner": r.winner.map(color_name), "reason": r.reason.as_str() })
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A variation as stored: its moves as USI, times, comments, result and variations.
fn variation_json(v: &Variation) -> Value {
    let comments: Vec<Value> = v
        .comments
        .iter()
        .map(|c| json!({ "ply": c.ply, "text": c.text }))
        .collect();
    let children: Vec<Value> = v.variations.iter().map(variation_json).collect();
    json!({
        "ply": v.ply,
        "moves": v.moves,
        "times": v.times,
        "comments": comments,
        "result": v.result.map(result_json),
        "variations": children,
    })
}

/// Reads [`variation_json`] back.
fn variation_from(v: &Value) -> Result<Variation, String> {
    let ply = v["ply"].as_u64().ok_or("a variation without its ply")? as usize;
    let result = match &v["result"] {
        Value::Null => None,
        r => Some(GameResult {
            winner: r["winner"].as_str().and_then(color_from),
            reason: r["reason"]
                .as_str()
                .and_then(EndReason::parse)
                .ok_or_else(|| format!("unknown ending {}", r["reason"]))?,
        }),
    };
    Ok(Variation {
        ply,
        moves: strings(&v["moves"]),
        times: v["times"]
            .as_array()
            .map(|a| a.iter().map(|t| t.as_u64().map(|t| t as u32)).collect())
            .unwrap_or_default(),
        comments: v["comments"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|c| Comment {
                        ply: c["ply"].as_u64().unwrap_or(0) as usize,
                        text: c["text"].as_str().unwrap_or_default().to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        result,
        variations: v["variations"]
            .as_array()
            .map(|a| a.iter().map(variation_from).collect::<Result<_, _>>())
            .transpose()?
            .unwrap_or_default(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    /// The side line as USI moves from the game's start.
    line: Vec<String>,
}

/// `line` replayed from `start`, each move in its USI spelling.
fn normalized<B: BitBoard>(start: &Position<B>, line: &[String]) -> Result<Vec<String>, String> {
    let mut pos = start.clone();
    line.iter()
        .enumerate()
        .map(|(i, text)| {
            let m = pos
                .parse_move(text.trim())
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            let usi = pos.move_to_usi(m);
            pos.make_move(m);
            Ok(usi)
        })
        .collect()
}

/// `POST /api/games/{id}/variations {line}` (a seat's token): keeps a side
/// line (USI moves from the game's start, as analysed) in the game's
/// record tree; the new state. A line already in the record changes nothing.
pub(crate) async fn save_line(
    State(s): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: SaveRequest = body_json(&body)?;
    let bad = |m: String| err(StatusCode::UNPROCESSABLE_ENTITY, m);
    blocking(|| {
        change(&s, &id, |conn, e| {
            seat(&headers, e)?;
            if req.line.is_empty() {
                return Err(bad(
                    "line: give the side line's moves from the game's start".into(),
                ));
            }
            let line = with_game!(&e.game, g => normalized(g.start(), &req.line)).map_err(bad)?;
            let Some(v) = Variations::with_line(e.variations.as_deref(), &e.game, &e.usi, &line)
                .map_err(bad)?
            else {
                return Ok(());
            };
            let saved = (e.variations.replace(Arc::new(v)), e.version);
            e.version += 1;
            match storage::store_variations(conn, e) {
                Ok(now) => {
                    e.updated = now;
                    Ok(())
                }
                Err(dbe) => {
                    (e.variations, e.version) = saved;
                    Err(stored_or_conflict(e, dbe))
                }
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    /// `[ply, moves, children]`, recursively.
    fn shape(tree: &[Variation]) -> Value {
        tree.iter()
            .map(|v| json!([v.ply, v.moves.join(" "), shape(&v.variations)]))
            .collect()
    }

    #[test]
    fn a_line_follows_the_tree_then_branches_off_or_goes_on() {
        let main = line("a b c d");
        let mut tree = Vec::new();
        assert!(add_line(&main, 1, &mut tree, &line("a x")));
        assert!(add_line(&main, 1, &mut tree, &line("a x y z")));
        assert!(add_line(&main, 1, &mut tree, &line("a x w")));
        assert!(add_line(&main, 1, &mut tree, &line("a b c e")));
        assert!(add_line(&main, 1, &mut tree, &line("v")));
        // Already there: the main line, a variation, a part of one.
        for known in ["a b", "a b c d", "a x y", "a x w", "v"] {
            assert!(!add_line(&main, 1, &mut tree, &line(known)), "{known}");
        }
        assert_eq!(
            shape(&tree),
            json!([[1, "v", []], [2, "x y z", [[3, "w", []]]], [4, "e", []]])
        );
    }

    #[test]
    fn a_variation_with_a_result_is_branched_off_not_lengthened() {
        let main = line("a b");
        let mut tree = vec![Variation {
            ply: 2,
            moves: line("x"),
            result: Some(GameResult {
                winner: None,
                reason: EndReason::Resignation,
            }),
            ..Variation::default()
        }];
        assert!(add_line(&main, 1, &mut tree, &line("a x y")));
        assert_eq!(shape(&tree), json!([[2, "x", [[3, "y", []]]]]));
        assert_eq!(moves_in(&tree[0]), 2);
    }
}
