//! `GET /api/variants`: every game as the rules crate declares it (names,
//! board size, capabilities, rule options and presets, handicaps, and each
//! piece's names), so that the page keeps no tables of its own.

use banmen_rules::{rules_for, with_rules, BitBoard, KindInfo, Rules, VariantName};
use serde_json::{json, Value};

/// A piece kind's identity: SFEN code, Western letters and the names of
/// `banmen-rules` ([`banmen_rules::PieceNames`]).
pub(crate) fn piece_identity(info: &KindInfo) -> Value {
    json!({
        "code": info.code,
        "western": info.western,
        "name": info.name,
        "japanese": info.names.japanese,
        "abbreviation": info.names.abbreviation,
        "white_abbreviation": info.names.white_abbreviation,
        "csa": info.names.csa,
        "promoted": info.promoted,
        "promotes": info.promotes_to.is_some(),
        "royal": info.royal,
    })
}

fn game<B: BitBoard>(name: VariantName, rules: &Rules<B>) -> Value {
    let v = &rules.variant;
    let options: Vec<Value> = name
        .rule_options()
        .iter()
        .map(|o| json!({ "key": o.key, "values": o.values, "default": o.default_value() }))
        .collect();
    let presets: Vec<Value> = name
        .presets()
        .iter()
        .map(|p| json!({ "rules": p.rules, "label": p.label }))
        .collect();
    let handicaps: Vec<Value> = v
        .handicaps
        .iter()
        .map(|h| json!({ "name": h.name, "japanese": h.japanese, "sfen": h.sfen }))
        .collect();
    json!({
        "name": name.as_str(),
        "title": name.title(),
        "files": rules.geometry.files,
        "ranks": rules.geometry.ranks,
        "drops": v.has_drops(),
        "hoppers": v.has_hoppers(),
        "lion_moves": v.has_lion_moves(),
        "multi_leg_moves": v.has_multi_leg_moves(),
        "promotion_on_capture": v.promotes_on_capture(),
        "start_sfen": v.start_sfen,
        "presets": presets,
        "options": options,
        "handicaps": handicaps,
        "pieces": rules.kinds.iter().map(piece_identity).collect::<Vec<_>>(),
    })
}

/// Every game with its default rules, in [`VariantName::ALL`] order.
pub(crate) fn variants() -> Value {
    let games: Vec<Value> = VariantName::ALL
        .iter()
        .filter_map(|&name| with_rules!(rules_for(name, "").ok()?, r => Some(game(name, r))))
        .collect();
    json!({ "variants": games })
}
