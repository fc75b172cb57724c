//! A brute-force mate search: iterative deepening over checking moves, with
//! no proof numbers and no hands compared. It is slow but simple, and it is
//! kept as the independent check of the df-pn solver ([`super::solve_mate`]):
//! the generated cannon and dai dai shogi problems are verified with it.
//!
//! The attacker tries only moves that give check; the defender tries every
//! legal move, and the longest resistance is kept, so the reported line is a
//! forced mate with the best defence. Positions already shown not to be mated
//! within some depth are remembered to cut transpositions.

use super::MateResult;
use crate::Control;
use banmen_rules::{BitBoard, Move, Position};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Looks for the shortest mate by the side to move within `max_plies`, until
/// `deadline` or `control.stop`. [`MateResult::NoMate`] means no line of
/// checks goes on at all; a mate longer than `max_plies` is reported as
/// [`MateResult::Timeout`] (not known).
pub fn brute_force_mate<B: BitBoard>(
    pos: &Position<B>,
    max_plies: u32,
    deadline: Option<Instant>,
    control: &Control,
) -> MateResult {
    let mut solver = Solver {
        pos: pos.clone(),
        deadline,
        control,
        nodes: 0,
        stopped: false,
        refuted: HashMap::new(),
        cut_by_depth: false,
    };
    let mut depth = 1;
    while depth <= max_plies {
        solver.cut_by_depth = false;
        if let Some(line) = solver.attack(depth) {
            return MateResult::Mate(line);
        }
        if solver.stopped {
            return MateResult::Timeout;
        }
        if !solver.cut_by_depth {
            // Every line of checks ended without mate: there is none at any depth.
            return MateResult::NoMate;
        }
        depth += 2;
    }
    MateResult::Timeout
}

struct Solver<'a, B: BitBoard> {
    pos: Position<B>,
    deadline: Option<Instant>,
    control: &'a Control,
    nodes: u64,
    stopped: bool,
    /// Attacker positions with no mate within the stored number of plies.
    refuted: HashMap<u64, u32>,
    /// Whether this iteration left some line unfinished for lack of depth.
    cut_by_depth: bool,
}

impl<B: BitBoard> Solver<'_, B> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self.control.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// A mate in at most `depth` plies (odd) by the side to move.
    fn attack(&mut self, depth: u32) -> Option<Vec<Move>> {
        if self.tick() {
            return None;
        }
        let hash = self.pos.hash();
        if self.refuted.get(&hash).is_some_and(|&d| d >= depth) {
            return None;
        }
        let moves = self.pos.legal_moves();
        let mut result = None;
        for m in moves {
            let undo = self.pos.make_move(m);
            let line = if self.pos.in_check() {
                self.defend(depth - 1)
            } else {
                None
            };
            self.pos.unmake_move(m, undo);
            if self.stopped {
                return None;
            }
            if let Some(mut rest) = line {
                rest.insert(0, m);
                result = Some(rest);
                break;
            }
        }
        if result.is_none() && !self.stopped {
            self.refuted.insert(hash, depth);
        }
        result
    }

    /// Whether every defence is mated within `depth` plies; the longest line if so.
    fn defend(&mut self, depth: u32) -> Option<Vec<Move>> {
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return Some(Vec::new());
        }
        if depth == 0 {
            self.cut_by_depth = true;
            return None;
        }
        let mut longest: Option<Vec<Move>> = None;
        for m in moves {
            let undo = self.pos.make_move(m);
            let line = self.attack(depth - 1);
            self.pos.unmake_move(m, undo);
            let mut rest = line?;
            rest.insert(0, m);
            if longest.as_ref().is_none_or(|l| rest.len() > l.len()) {
                longest = Some(rest);
            }
        }
        longest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_9x9, SfenMode, VariantName};

    fn solve(sfen: &str) -> MateResult {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let pos = Position::from_sfen(rules, sfen, SfenMode::Tsume).unwrap();
        let r = brute_force_mate(&pos, 31, None, &Control::default());
        if let MateResult::Mate(line) = &r {
            let text: Vec<String> = {
                let mut p = pos.clone();
                line.iter()
                    .map(|&m| {
                        let t = p.move_to_usi(m);
                        p.make_move(m);
                        t
                    })
                    .collect()
            };
            eprintln!("{sfen}: {}", text.join(" "));
        }
        r
    }

    #[test]
    fn head_gold_mate_in_one() {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let sfen = "7nk/9/7G1/9/9/9/9/9/4K4 b G 1";
        let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
        match solve(sfen) {
            MateResult::Mate(line) => {
                assert_eq!(line.len(), 1);
                // G*1b and G*2b both mate.
                assert!(["G*1b", "G*2b"].contains(&pos.move_to_usi(line[0]).as_str()));
                assert!(pos.after(line[0]).legal_moves().is_empty());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lone_king_is_no_mate() {
        assert_eq!(solve("4k4/9/9/9/9/9/9/9/4K4 b - 1"), MateResult::NoMate);
    }
}
