//! Tsume: a df-pn solver (depth-first proof-number search with thresholds)
//! for every game, with a fixed-size table.
//!
//! - The attacker (the side to move at the root) plays only checks; the
//!   defender every legal move. Proof and disproof numbers start from the
//!   defender's number of replies (df-pn+), and interposing drops on one
//!   square are searched one after another (the next only once the last is
//!   mated), so that they do not count many times over.
//! - The table is keyed by the board alone and compares the attacker's hand:
//!   a mate found holds for every larger hand (proof hand), a refutation for
//!   every smaller one (disproof hand). It has a fixed number of entries; new
//!   ones replace the cheapest of their bucket. See [`table`].
//! - A repetition is not a mate. A refutation that leans on a repetition is
//!   stored for its path only, so another path to the same position is
//!   searched again (the graph-history interaction).
//! - A search may be bounded in plies; a refutation found under a bound says
//!   so ("no mate within n plies") and is not taken for "no mate at all", so
//!   [`MateResult::NoMate`] is answered only when no mate exists.
//! - After the first mate, searches bounded by the last length minus two find
//!   shorter ones until none is left: the line returned is the shortest mate,
//!   with the defender's longest resistance (lengths count every ply, useless
//!   interpositions included, as KomoringHeights does).
//!
//! ```
//! use banmen_engine::mate::{solve_mate, MateOptions, MateResult, MateTable};
//! use banmen_engine::Control;
//! use banmen_rules::{rules_9x9, Position, SfenMode, VariantName};
//! let rules = rules_9x9(VariantName::Shogi).unwrap();
//! // B*3c, 1a2a, G*2b: mate in three.
//! let pos = Position::from_sfen(rules, "8k/8s/7p1/9/7N1/9/9/9/4K4 b BG 1", SfenMode::Strict).unwrap();
//! let mut table = MateTable::try_new(1).unwrap();
//! let report = solve_mate(&pos, &mut table, None, &Control::default(), &MateOptions::default(), &mut |_| {});
//! assert!(matches!(report.result, MateResult::Mate(ref line) if line.len() == 3));
//! assert!(report.shortest);
//! ```

mod brute;
pub mod table;

pub use brute::brute_force_mate;
pub use table::MateTable;

use crate::Control;
use banmen_rules::{BitBoard, Color, Hand, Move, Position};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use table::{Entry, Found, State, ANY, INF, NO_LIMIT};

/// The answer of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A forced mate: attacker's and defender's moves alternately.
    Mate(Vec<Move>),
    /// No mate exists.
    NoMate,
    /// Stopped, out of time or beyond the ply bound before an answer.
    Timeout,
}

/// Settings of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateOptions {
    /// The longest mate looked for, in plies. A position with no mate within
    /// it is answered [`MateResult::Timeout`], not [`MateResult::NoMate`].
    pub max_plies: u16,
    /// Whether to look for shorter mates once one is found.
    pub shortest: bool,
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            max_plies: 4095,
            shortest: true,
        }
    }
}

/// Progress, for `info` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateProgress {
    /// Nodes searched.
    pub nodes: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// Table use, per mille.
    pub hashfull: u32,
    /// The shortest mate known so far, in plies.
    pub best_len: Option<usize>,
}

/// What [`solve_mate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateReport {
    /// The answer.
    pub result: MateResult,
    /// Whether a mate returned is known to be the shortest (the searches for a
    /// shorter one all finished). When it is not, the line is a forced mate
    /// but the defender's replies in it may not be the longest.
    pub shortest: bool,
    /// The length of the shortest mate is at most this (a proven bound; with
    /// `shortest`, the length itself).
    pub bound: Option<usize>,
    /// Whether the clock or `stop` ended the search (else a
    /// [`MateResult::Timeout`] means no mate within `max_plies`).
    pub stopped: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Looks for a mate with a table of 16 MiB and the default options (the
/// shortest mate, up to 4,095 plies), until `deadline` or `control.stop`.
pub fn find_mate<B: BitBoard>(
    pos: &Position<B>,
    deadline: Option<Instant>,
    control: &Control,
) -> MateResult {
    match MateTable::try_new(16) {
        Ok(mut table) => {
            solve_mate(
                pos,
                &mut table,
                deadline,
                control,
                &MateOptions::default(),
                &mut |_| {},
            )
            .result
        }
        Err(_) => MateResult::Timeout,
    }
}

/// The stack the solver runs on: deep mates recurse a few thousand plies.
const STACK_BYTES: usize = 512 << 20;

/// Looks for a mate by the side to move with `table` (cleared first), until
/// `deadline` or `control.stop`; `progress` is called about once a second.
pub fn solve_mate<B: BitBoard>(
    pos: &Position<B>,
    table: &mut MateTable,
    deadline: Option<Instant>,
    control: &Control,
    options: &MateOptions,
    progress: &mut (dyn FnMut(&MateProgress) + Send),
) -> MateReport {
    table.clear();
    let start = Instant::now();
    std::thread::scope(|scope| {
        let run = std::thread::Builder::new()
            .name("mate".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                let mut solver = Solver::new(pos, table, deadline, control, start, progress);
                solver.run(options)
            });
        match run.map(|handle| handle.join()) {
            Ok(Ok(report)) => report,
            _ => MateReport {
                result: MateResult::Timeout,
                shortest: false,
                bound: None,
                stopped: true,
                nodes: 0,
                elapsed: start.elapsed(),
            },
        }
    })
}

/// Other first moves that mate within `len` plies (余詰, alternative
/// solutions), each with its line, searched with `table` (not cleared).
pub fn alternative_mates<B: BitBoard>(
    pos: &Position<B>,
    first: Move,
    len: usize,
    table: &mut MateTable,
    deadline: Option<Instant>,
    control: &Control,
) -> Vec<Vec<Move>> {
    let start = Instant::now();
    let mut quiet = |_: &MateProgress| {};
    std::thread::scope(|scope| {
        let run = std::thread::Builder::new()
            .name("mate".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                let mut solver = Solver::new(pos, table, deadline, control, start, &mut quiet);
                let mut found = Vec::new();
                let depth = len.min(NO_LIMIT as usize - 1) as u16;
                for m in solver.children_moves(true) {
                    if m == first || solver.stopped {
                        continue;
                    }
                    let full = solver.pos.hash();
                    let undo = solver.pos.make_move(m);
                    solver.push(full);
                    let r = solver.solve_node(false, depth.saturating_sub(1));
                    let line = if r.pn == 0 {
                        solver.pv(false, depth.saturating_sub(1), false)
                    } else {
                        None
                    };
                    solver.pop();
                    solver.pos.unmake_move(m, undo);
                    if let Some(mut line) = line {
                        line.insert(0, m);
                        found.push(line);
                    }
                }
                found
            });
        match run.map(|handle| handle.join()) {
            Ok(Ok(found)) => found,
            _ => Vec::new(),
        }
    })
}

/// A node's result.
#[derive(Clone, Copy, Debug)]
struct Res {
    pn: u32,
    dn: u32,
    /// Proof hand (`pn == 0`) or disproof hand (`dn == 0`).
    hand: Hand,
    /// Mate length (proven) or the depth with no mate (disproven).
    len: u16,
    /// A disproof that leans on a repetition.
    rep: bool,
}

/// One move of an expanded node and what is known of the position after it.
#[derive(Clone, Copy, Debug)]
struct Child {
    m: Move,
    /// The attacker's hand after the move.
    hand: Hand,
    pn: u32,
    dn: u32,
    res_hand: Hand,
    len: u16,
    rep: bool,
    /// The previous drop onto the same square (searched first), if any.
    prev: u16,
}

const NONE: u16 = u16::MAX;
/// A nonzero start for path keys (zero marks "any path" in the table).
const PATH_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

struct Solver<'a, B: BitBoard> {
    pos: Position<B>,
    attacker: Color,
    kinds: usize,
    table: &'a mut MateTable,
    deadline: Option<Instant>,
    control: &'a Control,
    start: Instant,
    progress: &'a mut (dyn FnMut(&MateProgress) + Send),
    next_report: Instant,
    nodes: u64,
    stopped: bool,
    /// Full hashes of the positions from the root to the current one's parent.
    path: Vec<u64>,
    /// XOR of `path` (over [`PATH_SEED`]).
    path_key: u64,
    best_len: Option<usize>,
}

impl<'a, B: BitBoard> Solver<'a, B> {
    fn new(
        pos: &Position<B>,
        table: &'a mut MateTable,
        deadline: Option<Instant>,
        control: &'a Control,
        start: Instant,
        progress: &'a mut (dyn FnMut(&MateProgress) + Send),
    ) -> Self {
        Solver {
            pos: pos.clone(),
            attacker: pos.side_to_move(),
            kinds: pos.rules().n_base.min(banmen_rules::MAX_HAND_KINDS),
            table,
            deadline,
            control,
            start,
            progress,
            next_report: start + Duration::from_secs(1),
            nodes: 0,
            stopped: false,
            path: Vec::new(),
            path_key: PATH_SEED,
            best_len: None,
        }
    }

    fn run(&mut self, options: &MateOptions) -> MateReport {
        let max = options.max_plies.min(NO_LIMIT - 1);
        let r = self.solve_node(true, max);
        let mut shortest = false;
        let result = if r.pn == 0 {
            // The proven length is an upper bound: bounded searches bring it
            // down until none shorter exists.
            let mut len = r.len;
            self.best_len = Some(len as usize);
            shortest = !options.shortest || len <= 1;
            while options.shortest && !shortest && !self.stopped {
                let r = self.solve_node(true, len - 2);
                if self.stopped {
                    break;
                }
                if r.pn == 0 {
                    len = r.len.min(len - 2);
                    self.best_len = Some(len as usize);
                    shortest = len <= 1;
                } else {
                    shortest = true;
                }
            }
            // With the exact length known, the line shows the defender's
            // longest resistance; else any mate within the bound.
            let exact = shortest && options.shortest;
            match self.pv(true, len, exact) {
                Some(line) => MateResult::Mate(line),
                None => MateResult::Timeout,
            }
        } else if self.stopped {
            MateResult::Timeout
        } else if r.len == NO_LIMIT {
            MateResult::NoMate
        } else {
            MateResult::Timeout
        };
        MateReport {
            bound: matches!(result, MateResult::Mate(_))
                .then_some(self.best_len)
                .flatten(),
            result,
            shortest: shortest && options.shortest,
            stopped: self.stopped,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }

    /// Counts a node; checks the clock and `stop` every 1,024 nodes.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && !self.stopped {
            let now = Instant::now();
            if self.control.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| now >= d)
            {
                self.stopped = true;
            } else if now >= self.next_report {
                self.next_report = now + Duration::from_secs(1);
                let p = MateProgress {
                    nodes: self.nodes,
                    elapsed: now - self.start,
                    hashfull: self.table.hashfull(),
                    best_len: self.best_len,
                };
                (self.progress)(&p);
            }
        }
        self.stopped
    }

    fn hand(&self) -> Hand {
        *self.pos.hand(self.attacker)
    }

    /// The moves of the node: checks for the attacker, every move for the defender.
    fn children_moves(&mut self, or: bool) -> Vec<Move> {
        let mut moves = self.pos.legal_moves();
        if or {
            moves.retain(|&m| self.gives_check(m));
        }
        moves
    }

    /// Whether `m` gives check (made and unmade: no copy of the position).
    #[inline]
    fn gives_check(&mut self, m: Move) -> bool {
        let undo = self.pos.make_move(m);
        let check = self.pos.in_check();
        self.pos.unmake_move(m, undo);
        check
    }

    fn push(&mut self, full: u64) {
        self.path.push(full);
        self.path_key ^= full;
    }

    fn pop(&mut self) {
        if let Some(full) = self.path.pop() {
            self.path_key ^= full;
        }
    }

    /// Whether the current position repeats one on the path before its
    /// parent (the parent not yet pushed; the same side to move).
    fn repeats(&self) -> bool {
        let full = self.pos.hash();
        self.path.iter().rev().step_by(2).any(|&h| h == full)
    }

    /// The defender's replies as the search will count them: drops onto one
    /// square are one (they are searched one after another).
    fn evasion_estimate(&self) -> u64 {
        let moves = self.pos.legal_moves();
        let mut drop_squares = B::EMPTY;
        let mut n = 0;
        for m in moves {
            if m.is_drop() {
                if !drop_squares.has(m.to()) {
                    drop_squares.set(m.to());
                    n += 1;
                }
            } else {
                n += 1;
            }
        }
        n
    }

    /// Whether the defender (to move, in check) could drop a piece between a
    /// checker and the king.
    fn interposable(&self) -> bool {
        let side = self.pos.side_to_move();
        let Some(king) = self.pos.king_square(side) else {
            return false;
        };
        let empty = !self.pos.occupied();
        self.pos
            .checkers()
            .squares()
            .any(|sq| !(self.pos.rules().between(sq, king) & empty).is_empty())
    }

    /// The proof hand of a mated defender: nothing, but every piece the
    /// defender lacks and could interpose must stay out of its hand.
    fn mated_proof_hand(&self, mut proof: Hand) -> Hand {
        if self.interposable() {
            let defender = self.pos.hand(!self.attacker);
            let hand = self.hand();
            for k in 0..self.kinds {
                if defender[k] == 0 {
                    proof[k] = hand[k];
                }
            }
        }
        proof
    }

    /// Searches the current position until it is decided (or stopped).
    fn solve_node(&mut self, or: bool, depth: u16) -> Res {
        self.mid(or, INF, INF, depth)
    }

    /// The df-pn step: searches the current position until its proof number
    /// reaches `th_pn`, its disproof number `th_dn`, or it is decided.
    fn mid(&mut self, or: bool, th_pn: u32, th_dn: u32, depth: u16) -> Res {
        let depth = parity(or, depth);
        let hand = self.hand();
        if self.tick() {
            return unknown(1, 1, hand);
        }
        let nodes_before = self.nodes;
        let key = self.pos.board_hash();
        let full = self.pos.hash();
        let kinds = self.kinds;

        if or && depth == 0 {
            return disproven(hand, 0, false);
        }
        let moves = self.pos.legal_moves();
        if !or && moves.is_empty() {
            let p = self.mated_proof_hand([0; banmen_rules::MAX_HAND_KINDS]);
            self.store_proof(key, p, 0, nodes_before);
            return proven(p, 0);
        }
        if depth == 0 {
            return disproven(hand, 0, false);
        }
        if or && depth == 1 {
            return self.mate_in_one(key, &hand, &moves, nodes_before);
        }
        if or && depth == 3 {
            return self.mate_in_three(key, &hand, &moves, nodes_before);
        }

        // Expand.
        let child_path = self.path_key ^ full;
        let mut children: Vec<Child> = Vec::with_capacity(moves.len());
        let mut last_drop_on: Vec<(u16, u16)> = Vec::new();
        for m in moves {
            let captures = self.pos.piece_at(m.to()).is_some();
            let undo = self.pos.make_move(m);
            if or && !self.pos.in_check() {
                self.pos.unmake_move(m, undo);
                continue;
            }
            let ckey = self.pos.board_hash();
            let chand = self.hand();
            let mut c = Child {
                m,
                hand: chand,
                pn: 1,
                dn: 1,
                res_hand: chand,
                len: 0,
                rep: false,
                prev: NONE,
            };
            if self.repeats() {
                c.pn = INF;
                c.dn = 0;
                c.len = NO_LIMIT;
                c.rep = true;
            } else {
                match self
                    .table
                    .look_up(ckey, &chand, kinds, parity(!or, depth - 1), child_path)
                {
                    Some(Found::Proven { hand, len }) => {
                        c.pn = 0;
                        c.dn = INF;
                        c.res_hand = hand;
                        c.len = len;
                    }
                    Some(Found::Disproven { hand, len, rep }) => {
                        c.pn = INF;
                        c.dn = 0;
                        c.res_hand = hand;
                        c.len = len;
                        c.rep = rep;
                    }
                    Some(Found::Unknown { pn, dn }) => {
                        c.pn = pn;
                        c.dn = dn;
                    }
                    None => {
                        if or {
                            // The defender's replies: none is mate.
                            let n = self.evasion_estimate();
                            if n == 0 {
                                let p = self.mated_proof_hand([0; banmen_rules::MAX_HAND_KINDS]);
                                self.store_proof(ckey, p, 0, 0);
                                c.pn = 0;
                                c.dn = INF;
                                c.res_hand = p;
                            } else {
                                c.pn = (n as u32).min(64);
                                // A check the attacker supports more than the
                                // defender covers is harder to refute.
                                let occ = self.pos.occupied();
                                let to = m.to();
                                let attack =
                                    self.pos.attackers_to(to, self.attacker, occ).count() + 1;
                                let defence =
                                    self.pos.attackers_to(to, !self.attacker, occ).count();
                                if attack > defence {
                                    c.dn = 2;
                                }
                                // Kept, so that a later visit need not count again.
                                self.table.store(
                                    Entry {
                                        key: ckey,
                                        hand: chand,
                                        pn: c.pn,
                                        dn: c.dn,
                                        len: 0,
                                        state: State::Unknown,
                                        path: 0,
                                        amount: 0,
                                        generation: 0,
                                    },
                                    kinds,
                                );
                            }
                        } else if captures {
                            // Taking a piece is the defender's likeliest escape.
                            // (Weighing a block square's attackers and defenders,
                            // as KomoringHeights does, cost nodes here.)
                            c.pn = 2;
                        }
                    }
                }
            }
            self.pos.unmake_move(m, undo);
            if !or && m.is_drop() {
                let to = m.to().index() as u16;
                let i = children.len() as u16;
                match last_drop_on.iter_mut().find(|(sq, _)| *sq == to) {
                    Some(entry) => {
                        c.prev = entry.1;
                        entry.1 = i;
                    }
                    None => last_drop_on.push((to, i)),
                }
            }
            children.push(c);
        }
        if children.is_empty() {
            return self.no_check(key, &hand, nodes_before);
        }

        loop {
            // The node's numbers from its children.
            let (mut pn, mut dn) = if or { (INF, 0u32) } else { (0u32, INF) };
            let mut best = usize::MAX;
            let mut second = INF;
            for (i, c) in children.iter().enumerate() {
                if or {
                    dn = sat_add(dn, c.dn);
                    if c.pn < pn {
                        second = pn;
                        pn = c.pn;
                        best = i;
                    } else if c.pn < second {
                        second = c.pn;
                    }
                } else {
                    let active = c.dn == 0 || is_active(&children, i);
                    if !active {
                        continue;
                    }
                    pn = sat_add(pn, c.pn);
                    if c.dn < dn {
                        second = dn;
                        dn = c.dn;
                        best = i;
                    } else if c.dn < second {
                        second = c.dn;
                    }
                }
            }
            if pn == 0 || dn == 0 {
                return self.finish(or, key, &hand, &children, nodes_before);
            }
            if pn >= th_pn || dn >= th_dn {
                let amount = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
                self.table.store(
                    Entry {
                        key,
                        hand,
                        pn,
                        dn,
                        len: 0,
                        state: State::Unknown,
                        path: 0,
                        amount,
                        generation: 0,
                    },
                    kinds,
                );
                return unknown(pn, dn, hand);
            }
            let c = children[best];
            let (c_th_pn, c_th_dn) = if or {
                (th_pn.min(widen(second)), sat_add(th_dn - dn, c.dn))
            } else {
                (sat_add(th_pn - pn, c.pn), th_dn.min(widen(second)))
            };
            let undo = self.pos.make_move(c.m);
            self.push(full);
            let r = self.mid(!or, c_th_pn, c_th_dn, depth - 1);
            self.pop();
            self.pos.unmake_move(c.m, undo);
            if self.stopped {
                return unknown(pn, dn, hand);
            }
            let child = &mut children[best];
            child.pn = r.pn;
            child.dn = r.dn;
            child.res_hand = r.hand;
            child.len = r.len;
            child.rep = r.rep;
        }
    }

    /// The attacker has no check: refuted at any depth, whatever it holds
    /// more of the kinds it has (the same drops); a kind it lacks would add drops.
    fn no_check(&mut self, key: u64, hand: &Hand, nodes_before: u64) -> Res {
        let mut d = *hand;
        for x in d.iter_mut().take(self.kinds) {
            if *x > 0 {
                *x = ANY;
            }
        }
        self.store_disproof(key, d, NO_LIMIT, false, nodes_before);
        disproven(d, NO_LIMIT, false)
    }

    /// One ply left: a check that leaves no reply, or no mate within one ply.
    fn mate_in_one(&mut self, key: u64, hand: &Hand, moves: &[Move], nodes_before: u64) -> Res {
        let kinds = self.kinds;
        let mut checks = false;
        for &m in moves {
            let undo = self.pos.make_move(m);
            if self.pos.in_check() {
                checks = true;
                if !self.pos.has_legal_move() {
                    let child_hand = self.hand();
                    let pc = self.mated_proof_hand([0; banmen_rules::MAX_HAND_KINDS]);
                    // The mated position too: the line is read from the table.
                    let child_key = self.pos.board_hash();
                    self.store_proof(child_key, pc, 0, self.nodes);
                    self.pos.unmake_move(m, undo);
                    let p = proof_before(&pc, &child_hand, hand, kinds);
                    self.store_proof(key, p, 1, nodes_before);
                    return proven(p, 1);
                }
            }
            self.pos.unmake_move(m, undo);
        }
        if !checks {
            return self.no_check(key, hand, nodes_before);
        }
        // No mate in one, for this hand or a smaller one (a larger one leaves
        // the defender fewer pieces to interpose).
        self.store_disproof(key, *hand, 1, false, nodes_before);
        disproven(*hand, 1, false)
    }

    /// Three plies left: every check tried against every reply with
    /// [`Self::mate_in_one`], without the proof-number machinery (near the
    /// bound df-pn spends most of its effort here).
    fn mate_in_three(&mut self, key: u64, hand: &Hand, moves: &[Move], nodes_before: u64) -> Res {
        let kinds = self.kinds;
        let mut checks = false;
        let mut best: Option<(Hand, u16)> = None;
        for &m in moves {
            let undo = self.pos.make_move(m);
            if !self.pos.in_check() {
                self.pos.unmake_move(m, undo);
                continue;
            }
            checks = true;
            let child_hand = self.hand();
            let child_key = self.pos.board_hash();
            let replies = self.pos.legal_moves();
            let mut proof = [0u8; banmen_rules::MAX_HAND_KINDS];
            let mut len = 0u16;
            let mut mated = true;
            for &e in &replies {
                if self.tick() {
                    mated = false;
                    break;
                }
                let undo_e = self.pos.make_move(e);
                let grand_key = self.pos.board_hash();
                let grand_hand = self.hand();
                let grand_moves = self.pos.legal_moves();
                let r = self.mate_in_one(grand_key, &grand_hand, &grand_moves, self.nodes);
                self.pos.unmake_move(e, undo_e);
                if r.pn != 0 {
                    mated = false;
                    break;
                }
                for (x, &y) in proof.iter_mut().zip(&r.hand).take(kinds) {
                    *x = (*x).max(y);
                }
                len = len.max(r.len);
            }
            if mated {
                let pc = self.mated_proof_hand(proof);
                let child_len = if replies.is_empty() { 0 } else { len + 1 };
                self.store_proof(child_key, pc, child_len, self.nodes);
                let p = proof_before(&pc, &child_hand, hand, kinds);
                if best.is_none_or(|(_, l)| child_len + 1 < l) {
                    best = Some((p, child_len + 1));
                }
            }
            self.pos.unmake_move(m, undo);
            if self.stopped {
                return unknown(1, 1, *hand);
            }
            if best.is_some_and(|(_, l)| l == 1) {
                break;
            }
        }
        if let Some((p, len)) = best {
            self.store_proof(key, p, len, nodes_before);
            return proven(p, len);
        }
        if !checks {
            return self.no_check(key, hand, nodes_before);
        }
        // No mate within three plies, for this hand or a smaller one.
        self.store_disproof(key, *hand, 3, false, nodes_before);
        disproven(*hand, 3, false)
    }

    /// A decided node: its proof or disproof hand, length, and the store.
    fn finish(
        &mut self,
        or: bool,
        key: u64,
        hand: &Hand,
        children: &[Child],
        nodes_before: u64,
    ) -> Res {
        let kinds = self.kinds;
        let proven_or = or && children.iter().any(|c| c.pn == 0);
        let proven_and = !or && children.iter().all(|c| c.pn == 0);
        if proven_or {
            let c = children
                .iter()
                .filter(|c| c.pn == 0)
                .min_by_key(|c| c.len)
                .expect("a proven child");
            let p = proof_before(&c.res_hand, &c.hand, hand, kinds);
            let len = c.len.saturating_add(1).min(NO_LIMIT - 1);
            self.store_proof(key, p, len, nodes_before);
            return proven(p, len);
        }
        if proven_and {
            let mut p = [0u8; banmen_rules::MAX_HAND_KINDS];
            let mut len = 0u16;
            for c in children {
                for (x, &y) in p.iter_mut().zip(&c.res_hand).take(kinds) {
                    *x = (*x).max(y);
                }
                len = len.max(c.len);
            }
            let p = self.mated_proof_hand(p);
            let len = len.saturating_add(1).min(NO_LIMIT - 1);
            self.store_proof(key, p, len, nodes_before);
            return proven(p, len);
        }
        if or {
            // Every check refuted.
            let mut d = [0u8; banmen_rules::MAX_HAND_KINDS];
            for k in 0..kinds {
                if hand[k] == 0 {
                    continue;
                }
                let mut v = ANY;
                for c in children {
                    let adj = if c.res_hand[k] == ANY {
                        ANY
                    } else {
                        let x = c.res_hand[k] as i32 - (c.hand[k] as i32 - hand[k] as i32);
                        x.clamp(hand[k] as i32, ANY as i32 - 1) as u8
                    };
                    v = v.min(adj);
                }
                d[k] = v;
            }
            let len = children.iter().map(|c| c.len).min().unwrap_or(NO_LIMIT);
            let len = if len == NO_LIMIT { NO_LIMIT } else { len + 1 };
            let rep = children.iter().any(|c| c.rep);
            self.store_disproof(key, d, len, rep, nodes_before);
            return disproven(d, len, rep);
        }
        // A defence refutes every attack: the best refutation (no repetition,
        // deepest).
        let c = children
            .iter()
            .filter(|c| c.dn == 0)
            .max_by_key(|c| (!c.rep, c.len))
            .expect("a refuting child");
        let mut d = c.res_hand;
        if let Some(k) = c.m.dropped() {
            // The defender must still hold the piece it drops.
            let k = k.index();
            if k < kinds {
                let defender = self.pos.hand(!self.attacker)[k] as i32;
                let bound = (hand[k] as i32 + defender - 1).clamp(hand[k] as i32, ANY as i32);
                d[k] = d[k].min(bound as u8);
            }
        }
        let len = if c.len == NO_LIMIT {
            NO_LIMIT
        } else {
            c.len + 1
        };
        self.store_disproof(key, d, len, c.rep, nodes_before);
        disproven(d, len, c.rep)
    }

    fn store_proof(&mut self, key: u64, hand: Hand, len: u16, nodes_before: u64) {
        let amount = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
        self.table.store(
            Entry {
                key,
                hand,
                pn: 0,
                dn: INF,
                len,
                state: State::Proven,
                path: 0,
                amount,
                generation: 0,
            },
            self.kinds,
        );
    }

    fn store_disproof(&mut self, key: u64, hand: Hand, len: u16, rep: bool, nodes_before: u64) {
        let amount = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
        self.table.store(
            Entry {
                key,
                hand,
                pn: INF,
                dn: 0,
                len,
                state: State::Disproven,
                path: if rep { self.path_key } else { 0 },
                amount,
                generation: 0,
            },
            self.kinds,
        );
    }

    /// The mate line from the current (proven) node within `depth` plies:
    /// the attacker's quickest mate, the defender's longest resistance.
    ///
    /// With `exact` (the node's shortest mate is known to be `depth` plies),
    /// the defender's reply is one with no mate within `depth - 3` plies, found
    /// by bounded searches, so the line is as long as the mate really is.
    fn pv(&mut self, or: bool, depth: u16, exact: bool) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut undos = Vec::new();
        let mut or = or;
        let mut depth = depth;
        let mut retries = 0;
        let result = loop {
            let moves = self.children_moves(or);
            if moves.is_empty() {
                break if or { None } else { Some(()) };
            }
            if depth == 0 {
                break None;
            }
            let full = self.pos.hash();
            let child_path = self.path_key ^ full;
            let mut best: Option<(Move, u16)> = None;
            let mut proven_replies: Vec<(Move, u16)> = Vec::new();
            let mut missing = None;
            for &m in &moves {
                let undo = self.pos.make_move(m);
                let found = if self.repeats() {
                    None
                } else {
                    self.table.look_up(
                        self.pos.board_hash(),
                        self.pos.hand(self.attacker),
                        self.kinds,
                        depth - 1,
                        child_path,
                    )
                };
                self.pos.unmake_move(m, undo);
                match found {
                    Some(Found::Proven { len, .. }) => {
                        proven_replies.push((m, len));
                        let better = match best {
                            None => true,
                            Some((_, l)) => {
                                if or {
                                    len < l
                                } else {
                                    len > l
                                }
                            }
                        };
                        if better {
                            best = Some((m, len));
                        }
                    }
                    _ if !or => {
                        missing = Some(m);
                    }
                    _ => {}
                }
            }
            if let Some(m) = missing {
                // A reply whose mate the table lost: search it again.
                retries += 1;
                if retries > 64 {
                    break None;
                }
                let undo = self.pos.make_move(m);
                self.push(full);
                let r = self.solve_node(true, depth - 1);
                self.pop();
                self.pos.unmake_move(m, undo);
                if r.pn != 0 {
                    break None;
                }
                continue;
            }
            if exact && !or && depth >= 3 && !self.stopped {
                // The longest resistance: a reply not mated within depth - 3.
                proven_replies.sort_by_key(|&(_, len)| std::cmp::Reverse(len));
                for &(m, len) in &proven_replies {
                    if len <= depth - 3 {
                        continue;
                    }
                    let undo = self.pos.make_move(m);
                    self.push(full);
                    let r = self.solve_node(true, depth - 3);
                    self.pop();
                    self.pos.unmake_move(m, undo);
                    if self.stopped {
                        break;
                    }
                    if r.pn != 0 {
                        best = Some((m, len));
                        break;
                    }
                }
            }
            let Some((m, _)) = best else {
                retries += 1;
                if retries > 64 {
                    break None;
                }
                let r = self.solve_node(true, depth);
                if r.pn != 0 {
                    break None;
                }
                continue;
            };
            line.push(m);
            let undo = self.pos.make_move(m);
            self.push(full);
            undos.push((m, undo));
            or = !or;
            depth -= 1;
        };
        while let Some((m, undo)) = undos.pop() {
            self.pop();
            self.pos.unmake_move(m, undo);
        }
        result.map(|()| line)
    }
}

/// The proof hand before the attacker's move, from the proof hand `proof`
/// after it: the hand after (`child`) is ours (`hand`) plus what the move took,
/// less what it dropped.
fn proof_before(proof: &Hand, child: &Hand, hand: &Hand, kinds: usize) -> Hand {
    let mut p = [0u8; banmen_rules::MAX_HAND_KINDS];
    for k in 0..kinds {
        let v = proof[k] as i32 - (child[k] as i32 - hand[k] as i32);
        p[k] = v.clamp(0, hand[k] as i32) as u8;
    }
    p
}

/// The plies left, rounded down to what the node can use: an odd number for
/// the attacker (its mates take an odd number of plies), even for the defender.
#[inline]
fn parity(or: bool, depth: u16) -> u16 {
    if (depth % 2 == 1) == or {
        depth
    } else {
        depth.saturating_sub(1)
    }
}

/// Whether the earlier drops onto the same square are all mated.
fn is_active(children: &[Child], i: usize) -> bool {
    let mut p = children[i].prev;
    while p != NONE {
        if children[p as usize].pn != 0 {
            return false;
        }
        p = children[p as usize].prev;
    }
    true
}

/// The threshold for the best child: a little above the second best
/// (the 1 + epsilon trick of Pawlewicz and Lew), so that the search does not
/// switch back and forth between two children of almost equal numbers.
#[inline]
fn widen(second: u32) -> u32 {
    second
        .saturating_add(1)
        .max(second.saturating_add(second / 4))
        .min(INF)
}

#[inline]
fn sat_add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INF - 1)
}

fn unknown(pn: u32, dn: u32, hand: Hand) -> Res {
    Res {
        pn,
        dn,
        hand,
        len: 0,
        rep: false,
    }
}

fn proven(hand: Hand, len: u16) -> Res {
    Res {
        pn: 0,
        dn: INF,
        hand,
        len,
        rep: false,
    }
}

fn disproven(hand: Hand, len: u16, rep: bool) -> Res {
    Res {
        pn: INF,
        dn: 0,
        hand,
        len,
        rep,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_9x9, SfenMode, VariantName};

    fn solve(sfen: &str) -> MateReport {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
        let mut table = MateTable::try_new(4).unwrap();
        solve_mate(
            &pos,
            &mut table,
            None,
            &Control::default(),
            &MateOptions::default(),
            &mut |_| {},
        )
    }

    #[test]
    fn mate_in_three() {
        let r = solve("8k/8s/7p1/9/7N1/9/9/9/4K4 b BG 1");
        assert!(matches!(r.result, MateResult::Mate(ref l) if l.len() == 3));
    }
}
