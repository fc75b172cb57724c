//! Japanese and Western move text against known positions.

use banmen_formats::notation::{
    parse_japanese, parse_western, to_japanese, to_western, NotationError,
};
use banmen_rules::{rules_9x9, Color, IllegalMove, Position, SfenMode, VariantName};

fn pos(sfen: &str) -> Position<banmen_rules::Bb128> {
    let rules = rules_9x9(VariantName::Shogi).unwrap();
    Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap()
}

#[test]
fn relative_words_and_origins() {
    let p = pos("startpos");
    for (usi, ja, west) in [
        ("6i5h", "５八金左", "G6i-5h"),
        ("4i5h", "５八金右", "G4i-5h"),
        ("7g7f", "７六歩", "P-7f"),
    ] {
        let m = p.parse_move(usi).unwrap();
        assert_eq!(to_japanese(&p, m, None, false), ja);
        assert_eq!(to_western(&p, m), west);
        assert_eq!(parse_japanese(&p, &format!("▲{ja}"), None), Ok(m));
        assert_eq!(parse_western(&p, west), Ok(m));
    }
    // 直: a gold moving straight up while another could also reach the square.
    let p = pos("4k4/9/9/9/9/9/9/4G4/3G1K3 b - 1");
    let m = p.parse_move("6i6h").unwrap();
    assert_eq!(to_japanese(&p, m, None, false), "６八金直");
    // Promotion taken and declined, and drops.
    let p = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    let m = p.parse_move("8h2b").unwrap();
    assert_eq!(to_western(&p, m), "Bx2b=");
    assert_eq!(to_japanese(&p, m, None, false), "２二角不成");
    let m = p.parse_move("8h2b+").unwrap();
    assert_eq!(to_western(&p, m), "Bx2b+");
    assert_eq!(to_japanese(&p, m, None, true), "２二角成(88)");
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let m = p.parse_move("P*5e").unwrap();
    assert_eq!(to_western(&p, m), "P*5e");
    assert_eq!(to_japanese(&p, m, None, false), "５五歩");
    assert_eq!(to_japanese(&p, m, None, true), "５五歩打");
}

/// Each way move text can fail has its variant; the rules core's reason
/// comes along when the text names one move.
#[test]
fn errors_name_the_reason() {
    let p = pos("startpos");
    let west = |t: &str| parse_western(&p, t).unwrap_err();
    let ja = |t: &str| parse_japanese(&p, t, None).unwrap_err();
    assert!(matches!(west("Q-5e"), NotationError::UnknownPiece { piece, .. } if piece == "Q"));
    assert!(matches!(west("P-7z"), NotationError::BadSquare { .. }));
    assert!(matches!(west("7g7f"), NotationError::NotWestern { .. }));
    assert!(matches!(west("P-7f?"), NotationError::NotWestern { .. }));
    assert!(matches!(
        west("P*5e"),
        NotationError::Illegal {
            reason: IllegalMove::NotInHand(_),
            ..
        }
    ));
    assert!(matches!(
        west("K-3c"),
        NotationError::Illegal {
            reason: IllegalMove::CannotMoveThere,
            ..
        }
    ));
    assert!(matches!(
        west("P-7e"),
        NotationError::NoneCanMove { piece, to, .. } if piece == "P" && to == "7e"
    ));
    match west("G-5h") {
        NotationError::Ambiguous { text, candidates } => {
            assert_eq!(text, "G-5h");
            let mut c = candidates.clone();
            c.sort();
            assert_eq!(c, ["G4i-5h", "G6i-5h"]);
        }
        e => panic!("{e:?}"),
    }
    assert!(matches!(
        ja("△３四歩"),
        NotationError::WrongSide {
            to_move: Color::Black,
            ..
        }
    ));
    assert!(matches!(ja("同　歩"), NotationError::NoPreviousMove { .. }));
    assert!(matches!(ja("歩"), NotationError::NoSquare { .. }));
    assert!(matches!(ja("５五"), NotationError::NoPieceName { .. }));
    assert!(matches!(ja("７六歩(7x)"), NotationError::BadOrigin { .. }));
    assert!(matches!(
        ja("２二角不"),
        NotationError::IncompleteNonPromotion { .. }
    ));
    assert!(matches!(
        ja("７六歩x"),
        NotationError::Unexpected { found: 'x', .. }
    ));
    assert!(matches!(
        ja("▲２二角成"),
        NotationError::Illegal {
            reason: IllegalMove::CannotMoveThere,
            ..
        }
    ));
    // Both golds reach ５八, neither straight up.
    assert!(matches!(ja("▲５八金直"), NotationError::NoLegalMove { .. }));
    let err = ja("▲５八金");
    assert!(matches!(&err, NotationError::Ambiguous { candidates, .. } if candidates.len() == 2));
    assert!(!err.is_not_legal());
    assert!(ja("▲２二角成").is_not_legal());
}
