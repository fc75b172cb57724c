//! The page and the files it loads (the pieces' font, its scripts), built
//! into the binary. Each file is served under a name that carries a hash of
//! its bytes, so browsers may keep it for a year: a new build that changes
//! the file changes its name, and the page names the new one.
//!
//! The scripts are ES modules that import one another by relative name
//! (`import { ui } from "./state.js"`), with no bundler: served, an import
//! names the hashed name (`"./state-<hash>.js"`). A module's name cannot
//! carry the hashes of the modules it imports when they import it back, so
//! the scripts share one hash, of all their bytes.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::borrow::Cow;
use std::sync::OnceLock;

const PAGE: &str = include_str!("../static/index.html");

/// A file the page loads.
struct Asset {
    /// The name the page writes, under `/assets/` (`banmen-pieces.woff2`).
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const SCRIPT: &str = "text/javascript; charset=utf-8";

/// A module of the page's script, `static/<name>`.
macro_rules! script {
    ($name:literal) => {
        Asset {
            name: $name,
            content_type: SCRIPT,
            bytes: include_bytes!(concat!("../static/", $name)),
        }
    };
}

/// The pieces' font (Noto Serif JP SemiBold cut to the characters the page
/// shows, with 𠵇 drawn: `tools/font/make-font.sh`; OFL 1.1,
/// `static/font/OFL.txt`), then the page's script, one job a module:
/// `main.js` (the entry, which imports the rest), the DOM helpers, the
/// server's API, the page's state, the board, the clocks, the move list,
/// the status line, the legend, making a move, premoves, the board's
/// pointer and keys, replay, the seat's buttons, the view controls and
/// keys, the header's panels, export and invitation, the open game, the
/// sounds, the board editor, the analysis panel and tsume solving.
const ASSETS: [Asset; 23] = [
    Asset {
        name: "banmen-pieces.woff2",
        content_type: "font/woff2",
        bytes: include_bytes!("../static/font/banmen-pieces.woff2"),
    },
    script!("main.js"),
    script!("dom.js"),
    script!("api.js"),
    script!("state.js"),
    script!("board.js"),
    script!("clock.js"),
    script!("moves.js"),
    script!("status.js"),
    script!("legend.js"),
    script!("moving.js"),
    script!("premove.js"),
    script!("input.js"),
    script!("replay.js"),
    script!("actions.js"),
    script!("controls.js"),
    script!("panels.js"),
    script!("share.js"),
    script!("game.js"),
    script!("sound.js"),
    script!("editor.js"),
    script!("analysis.js"),
    script!("tsume.js"),
];

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, from `h` on: enough to tell two builds of a file apart.
fn fnv1a(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn is_script(a: &Asset) -> bool {
    a.content_type == SCRIPT
}

/// An asset as served: its hashed name and its bytes (a script's imports
/// rewritten to the hashed names).
struct Served {
    hashed: String,
    bytes: Cow<'static, [u8]>,
}

fn served() -> &'static [Served] {
    static SERVED: OnceLock<Vec<Served>> = OnceLock::new();
    SERVED.get_or_init(|| {
        let scripts = ASSETS
            .iter()
            .filter(|a| is_script(a))
            .fold(FNV_OFFSET, |h, a| {
                fnv1a(fnv1a(h, a.name.as_bytes()), a.bytes)
            });
        // `banmen-pieces.woff2` → `banmen-pieces-<hash>.woff2`.
        let hashed: Vec<String> = ASSETS
            .iter()
            .map(|a| {
                let hash = if is_script(a) {
                    scripts
                } else {
                    fnv1a(FNV_OFFSET, a.bytes)
                };
                let (stem, ext) = a.name.split_once('.').unwrap_or((a.name, ""));
                format!("{stem}-{hash:016x}.{ext}")
            })
            .collect();
        ASSETS
            .iter()
            .zip(&hashed)
            .map(|(a, h)| Served {
                hashed: h.clone(),
                bytes: if is_script(a) {
                    Cow::Owned(with_hashed_imports(a, &hashed).into_bytes())
                } else {
                    Cow::Borrowed(a.bytes)
                },
            })
            .collect()
    })
}

/// A script whose imports of the other scripts (`"./state.js"`) name their
/// hashed names.
fn with_hashed_imports(a: &Asset, hashed: &[String]) -> String {
    let text = std::str::from_utf8(a.bytes).expect("a script is UTF-8");
    ASSETS
        .iter()
        .zip(hashed)
        .filter(|(b, _)| is_script(b))
        .fold(text.to_string(), |text, (b, h)| {
            text.replace(&format!("\"./{}\"", b.name), &format!("\"./{h}\""))
        })
}

/// The page, naming each asset by its hashed name.
pub(crate) fn page() -> &'static str {
    static PAGE_HASHED: OnceLock<String> = OnceLock::new();
    PAGE_HASHED.get_or_init(|| {
        ASSETS
            .iter()
            .zip(served())
            .fold(PAGE.to_string(), |page, (a, s)| {
                page.replace(
                    &format!("/assets/{}", a.name),
                    &format!("/assets/{}", s.hashed),
                )
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
        .zip(served())
        .find(|(a, s)| s.hashed == name || a.name == name);
    match found {
        Some((a, s)) => {
            let cache = if s.hashed == name {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            (
                [
                    (header::CONTENT_TYPE, a.content_type),
                    (header::CACHE_CONTROL, cache),
                ],
                &s.bytes[..],
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
        // The page's text: the HTML and its scripts.
        let scripts = ASSETS
            .iter()
            .filter(|a| is_script(a))
            .map(|a| std::str::from_utf8(a.bytes).unwrap());
        let page = std::iter::once(PAGE)
            .chain(scripts)
            .flat_map(str::chars)
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
        for (a, s) in ASSETS.iter().zip(served()) {
            assert!(
                page.contains(&format!("/assets/{}", s.hashed)),
                "{}",
                a.name
            );
            assert!(!page.contains(&format!("/assets/{}", a.name)), "{}", a.name);
            let r = asset(Path(s.hashed.clone())).await;
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

    /// The page loads its script as a module, main.js, and names every
    /// module (modulepreload); nothing else runs a script.
    #[test]
    fn the_page_loads_main_js_as_a_module() {
        let main = &served()[ASSETS.iter().position(|a| a.name == "main.js").unwrap()];
        let tag = format!(
            "<script type=\"module\" src=\"/assets/{}\"></script>",
            main.hashed
        );
        assert!(page().contains(&tag), "{tag}");
        assert_eq!(page().matches("<script").count(), 1, "one script tag");
        assert!(!page().contains(" onclick="), "no inline handlers");
        let preloads = page().matches("<link rel=\"modulepreload\"").count();
        assert_eq!(preloads, ASSETS.iter().filter(|a| is_script(a)).count() - 1);
    }

    /// Each import of a served module names another module's hashed name,
    /// so that the modules of one build load together.
    #[test]
    fn modules_import_each_other_by_hashed_name() {
        let hashed: BTreeSet<&str> = served().iter().map(|s| s.hashed.as_str()).collect();
        let mut imports = 0;
        for (a, s) in ASSETS.iter().zip(served()).filter(|(a, _)| is_script(a)) {
            let text = std::str::from_utf8(&s.bytes).unwrap();
            for (i, _) in text
                .match_indices("from \"")
                .chain(text.match_indices("import \""))
            {
                let rest = &text[i..];
                let start = rest.find('"').unwrap() + 1;
                let len = rest[start..].find('"').unwrap();
                let spec = &rest[start..start + len];
                let name = spec.strip_prefix("./").unwrap_or(spec);
                assert!(hashed.contains(name), "{}: import {spec}", a.name);
                imports += 1;
            }
        }
        assert!(imports > 40, "{imports} imports");
    }

    /// Every script in `static/` is served (a module left out would be
    /// imported, then missing).
    #[test]
    fn every_script_is_served() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/static");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".js") {
                assert!(ASSETS.iter().any(|a| a.name == name), "{name}");
            }
        }
    }
}
