//! The page and the files it loads (the pieces' font, the sounds' script),
//! built into the binary. Each file is served under a name that carries a
//! hash of its bytes, so browsers may keep it for a year: a new build that
//! changes the file changes its name, and the page names the new one.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::sync::OnceLock;

const PAGE: &str = include_str!("../static/index.html");

/// A file the page loads.
struct Asset {
    /// The name the page writes, under `/assets/` (`banmen-pieces.woff2`).
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

/// The pieces' font (Noto Serif JP SemiBold cut to the characters the page
/// shows, with 𠵇 drawn: `tools/font/make-font.sh`; OFL 1.1,
/// `static/font/OFL.txt`), the move, capture and check sounds, the
/// analysis panel, the board editor and its tsume solving.
const ASSETS: [Asset; 5] = [
    Asset {
        name: "banmen-pieces.woff2",
        content_type: "font/woff2",
        bytes: include_bytes!("../static/font/banmen-pieces.woff2"),
    },
    script("sound.js", include_bytes!("../static/sound.js")),
    script("analysis.js", include_bytes!("../static/analysis.js")),
    script("editor.js", include_bytes!("../static/editor.js")),
    script("tsume.js", include_bytes!("../static/tsume.js")),
];

/// A script the page loads.
const fn script(name: &'static str, bytes: &'static [u8]) -> Asset {
    Asset {
        name,
        content_type: "text/javascript; charset=utf-8",
        bytes,
    }
}

/// FNV-1a, 64 bits: enough to tell two builds of a file apart.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `banmen-pieces.woff2` → `banmen-pieces-<hash>.woff2`.
fn hashed_name(a: &Asset) -> String {
    let (stem, ext) = a.name.split_once('.').unwrap_or((a.name, ""));
    format!("{stem}-{:016x}.{ext}", fnv1a(a.bytes))
}

fn hashed_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| ASSETS.iter().map(hashed_name).collect())
}

/// The page, naming each asset by its hashed name.
pub(crate) fn page() -> &'static str {
    static PAGE_HASHED: OnceLock<String> = OnceLock::new();
    PAGE_HASHED.get_or_init(|| {
        ASSETS
            .iter()
            .zip(hashed_names())
            .fold(PAGE.to_string(), |page, (a, hashed)| {
                page.replace(&format!("/assets/{}", a.name), &format!("/assets/{hashed}"))
            })
    })
}

/// `GET /`.
pub(crate) async fn index() -> Html<&'static str> {
    Html(page())
}

/// `GET /assets/{name}`: by its hashed name, kept a year; by its plain name
/// (an old page, a person typing it), revalidated every time.
pub(crate) async fn asset(Path(name): Path<String>) -> Response {
    let found = ASSETS
        .iter()
        .zip(hashed_names())
        .find(|(a, hashed)| **hashed == name || a.name == name);
    match found {
        Some((a, hashed)) => {
            let cache = if *hashed == name {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            (
                [
                    (header::CONTENT_TYPE, a.content_type),
                    (header::CACHE_CONTROL, cache),
                ],
                a.bytes,
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use std::collections::BTreeSet;

    /// The characters of `static/font/glyphs.txt`: what the font holds.
    fn font_chars() -> BTreeSet<char> {
        include_str!("../static/font/glyphs.txt")
            .trim_end()
            .chars()
            .collect()
    }

    fn strings(v: &Value, keys: &[&str], out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match x {
                        Value::String(s) if keys.contains(&k.as_str()) => out.push(s.clone()),
                        _ => strings(x, keys, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| strings(x, keys, out)),
            _ => {}
        }
    }

    #[test]
    fn font_covers_every_piece_name_and_the_page() {
        let have = font_chars();
        let mut names = Vec::new();
        // Board and hand labels, the legend's Japanese names, handicaps.
        let keys = ["abbreviation", "white_abbreviation", "japanese"];
        strings(&crate::variants::variants(), &keys, &mut names);
        assert!(
            names.iter().any(|n| n == "𠵇犬"),
            "the howling dog is named"
        );
        // Japanese move text (`▲７六歩`, `△同　角成`, dai dai's `１２十`).
        let notation = "▲△　同成不打右左上引寄直行０１２３４５６７８９一二三四五六七八九十";
        let page = PAGE
            .chars()
            .filter(|c| !c.is_ascii())
            .chain(notation.chars());
        let lacking: BTreeSet<char> = names
            .iter()
            .flat_map(|n| n.chars())
            .chain(page)
            .filter(|c| !have.contains(c))
            .collect();
        assert!(
            lacking.is_empty(),
            "not in the font: {lacking:?} (run tools/font/make-font.sh)"
        );
    }

    #[tokio::test]
    async fn assets_are_served_by_hashed_name_and_kept_a_year() {
        let page = page();
        for (a, hashed) in ASSETS.iter().zip(hashed_names()) {
            assert!(page.contains(&format!("/assets/{hashed}")), "{}", a.name);
            let r = asset(Path(hashed.clone())).await;
            assert_eq!(r.status(), StatusCode::OK);
            assert_eq!(r.headers()[header::CONTENT_TYPE], a.content_type);
            assert!(r.headers()[header::CACHE_CONTROL]
                .to_str()
                .unwrap()
                .contains("max-age=31536000"));
            let plain = asset(Path(a.name.to_string())).await;
            assert_eq!(plain.headers()[header::CACHE_CONTROL], "no-cache");
        }
        assert!(ASSETS[0].bytes.starts_with(b"wOF2"), "a woff2 file");
        let missing = asset(Path("banmen-pieces-0.woff2".into())).await;
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    }
}
