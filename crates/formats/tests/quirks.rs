//! Real-world record quirks (issue 14): what other shogi programs write and
//! read, each shown by a small record text.

use banmen_formats::{read, write, Format};

fn text(rec: &banmen_formats::Record, f: Format) -> String {
    String::from_utf8(write(rec, f).expect("write")).expect("utf-8")
}

#[test]
fn kif_writes_no_funari_but_reads_it() {
    // 8h2b declined: Kifu for Windows writes `２二角(88)`.
    let rec = read(b"position startpos moves 7g7f 3c3d 8h2b", None).unwrap();
    let kif = text(&rec, Format::Kifu);
    assert!(kif.contains("２二角(88)"), "{kif}");
    assert!(!kif.contains("不成"), "{kif}");
    assert_eq!(
        read(kif.as_bytes(), Some(Format::Kifu)).unwrap().moves,
        rec.moves
    );
    // The reader keeps accepting it.
    let old = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n";
    assert_eq!(
        read(old.as_bytes(), Some(Format::Kifu)).unwrap().moves,
        rec.moves
    );
    // KI2 still needs it.
    assert!(text(&rec, Format::Ki2).contains("２二角不成"));
}
