//! Lion moves beyond a step or jump: double captures, igui and passes
//! (rules/dai-dai-shogi.md §6).

use super::sink::Sink;
use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::piece::Kind;
use crate::position::Position;
use crate::square::Square;

impl<B: BitBoard> Position<B> {
    /// The Japanese lion dog's moves that capture on a square passed, igui and
    /// pass (rules/dai-dai-shogi.md §6.4): along one line, S1..S3 from `from`.
    /// For a piece that also has the lion's moves (`lion`), the moves they
    /// share (igui, capture on S1 then S2, pass) come from the lion alone.
    pub(super) fn lion_line_moves<S: Sink<B>>(
        &self,
        out: &mut S,
        kind: Kind,
        from: Square,
        lion: bool,
    ) {
        let r = self.rules;
        let g = r.geometry;
        let us = self.side;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let promote = r.kinds[kind.index()].promotes_to.is_some();
        let (f, rank) = (g.file(from), g.rank(from));
        for (df, dr) in crate::rules::DIRS {
            let Some(s1) = g.square(f + df, rank + dr) else {
                continue;
            };
            let s2 = g.square(f + 2 * df, rank + 2 * dr);
            let s3 = g.square(f + 3 * df, rank + 3 * dr);
            let e1 = enemy.has(s1);
            let e2 = s2.is_some_and(|x| enemy.has(x));
            if e1 && !lion {
                out.one(Move::double(from, s1, from, promote));
            }
            if let Some(s2) = s2 {
                if e2 && !own.has(s1) {
                    out.one(Move::double(from, s2, s1, promote));
                }
                if e1 && !own.has(s2) && !lion {
                    out.one(Move::double(from, s1, s2, promote));
                }
            }
            if let Some(s3) = s3.filter(|&x| !own.has(x)) {
                if e1 {
                    out.one(Move::double(from, s1, s3, promote));
                }
                if e2 {
                    out.one(Move::double(from, s2.expect("inside s3"), s3, promote));
                }
                if e1 && e2 {
                    out.one(Move::double_both(from, s1, s3, promote));
                }
            }
        }
        if !lion {
            let empty_neighbours = r.neighbours[from.index()] & !self.occupied();
            if let Some(e) = r.first_in_reading_order(empty_neighbours) {
                out.one(Move::double(from, e, from, false));
            }
        }
    }

    /// A lion's moves that are more than a step or jump (rules/dai-dai-shogi.md
    /// §6.1, §12): a capture on an adjacent square followed by a second step
    /// (double capture, igui), and one pass.
    pub(super) fn lion_double_moves<S: Sink<B>>(&self, out: &mut S, kind: Kind, from: Square) {
        let r = self.rules;
        let us = self.side;
        let from_bit = B::from_square(from);
        let own_after = self.by_color[us.index()] ^ from_bit;
        let enemy = self.by_color[(!us).index()];
        let promote = r.kinds[kind.index()].promotes_to.is_some();
        let mut victims = r.neighbours[from.index()] & enemy;
        while let Some(a) = victims.pop() {
            let mut seconds = r.neighbours[a.index()] & !own_after;
            while let Some(x) = seconds.pop() {
                out.one(Move::double(from, a, x, promote));
            }
        }
        let empty_neighbours = r.neighbours[from.index()] & !self.occupied();
        if let Some(e) = r.first_in_reading_order(empty_neighbours) {
            out.one(Move::double(from, e, from, false));
        }
    }
}
