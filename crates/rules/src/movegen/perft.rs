//! Perft: leaf counts (bulk-counted at the last ply) and per-move divides.

use super::MoveList;
use crate::bitboard::BitBoard;
use crate::moves::Move;
use crate::position::Position;

impl<B: BitBoard> Position<B> {
    /// Counts leaf nodes `depth` plies deep (bulk-counted at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
        self.perft_with(depth, &mut lists)
    }

    fn perft_with(&mut self, depth: u32, lists: &mut [MoveList]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal_moves();
        }
        let (list, rest) = lists.split_first_mut().expect("one list per ply");
        self.legal_moves_into(list);
        let mut n = 0;
        for &m in list.iter() {
            let undo = self.make_move(m);
            n += self.perft_with(depth - 1, rest);
            self.unmake_move(m, undo);
        }
        n
    }

    /// Per-root-move counts (`--divide`).
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        moves
            .into_iter()
            .map(|m| {
                let undo = self.make_move(m);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake_move(m, undo);
                (m, n)
            })
            .collect()
    }
}
