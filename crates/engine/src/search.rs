//! Iterative deepening PVS alpha-beta with a transposition table, quiescence
//! over captures, null-move pruning, late-move reductions and aspiration
//! windows; Lazy SMP over [`SearchOptions::threads`].

use crate::eval::Evaluator;
use crate::time::{Budget, Limits};
use crate::tt::{Bound, Histories, Table};
use crate::{
    BestMove, Control, HistoryEntry, Info, Score, SearchOptions, SearchResult, INFINITE, MATE,
    MATE_BOUND,
};
use banmen_rules::game::declaration_ok;
use banmen_rules::{BitBoard, Color, EnteringKingRule, Move, MoveList, Position, SfenMode};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The deepest ply the search reaches (quiescence included).
const MAX_PLY: usize = 96;
/// The least depth at which the 9x9 search tests the table's move for a
/// singular extension.
const SINGULAR_DEPTH: i32 = 7;

/// A repetition where one side checked with every move: the checker loses.
/// Kept below the mate range so it is reported in centipawns.
const PERPETUAL_CHECK: i32 = 20_000;

/// Entries per side of the correction history (a power of two).
const CORRECTION_SIZE: usize = 16_384;
/// Correction history units per centipawn.
const CORRECTION_GRAIN: i32 = 64;
/// The largest correction, in correction history units (256 centipawns).
const CORRECTION_LIMIT: i32 = 256 * CORRECTION_GRAIN;

/// How far back repetitions are looked for, in plies.
const REPETITION_WINDOW: usize = 100;

/// Searches `pos` and returns the move to play. `history` holds the game's
/// positions before `pos` (oldest first; `pos` itself need not be included)
/// for repetition detection. `report` receives one [`Info`] per completed
/// iteration and principal variation.
#[allow(clippy::too_many_arguments)]
pub fn search<B: BitBoard>(
    pos: &Position<B>,
    history: &[HistoryEntry],
    eval: &Evaluator<B>,
    tt: &Table,
    limits: &Limits,
    options: &SearchOptions,
    control: &Control,
    report: &(dyn Fn(&Info) + Sync),
) -> SearchResult {
    let start = limits.start.unwrap_or_else(Instant::now);
    let moves = root_moves(pos, &limits.searchmoves);
    // Decided without a search: under `go ponder` or `go infinite` the answer
    // still waits for `ponderhit` or `stop`.
    let decided = |best: BestMove, score: i32| {
        wait_while_unbounded(limits, control);
        SearchResult {
            best,
            score,
            nodes: 0,
            depth: 0,
        }
    };
    if let Some(m) = try_rule_win(pos, options.entering_king, &moves) {
        return decided(BestMove::Move(m, None), MATE - 1);
    }
    if declaration_ok(pos, options.entering_king).is_ok() {
        return decided(BestMove::Win, MATE - 1);
    }
    if moves.is_empty() {
        return decided(BestMove::Resign, -MATE);
    }
    tt.new_search();
    let mut stack: Vec<HistoryEntry> = history.to_vec();
    let here = HistoryEntry {
        hash: pos.hash(),
        check: pos.in_check(),
    };
    if stack.last() != Some(&here) {
        stack.push(here);
    }
    let shared = Shared {
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        control,
        start,
    };
    let threads = options.threads.max(1);
    let draw = draw_scores(pos.side_to_move(), options.contempt);
    std::thread::scope(|scope| {
        for id in 1..threads {
            let stack = stack.clone();
            let shared = &shared;
            let moves = moves.clone();
            scope.spawn(move || {
                let mut helper = Searcher::new(pos, stack, eval, tt, limits, shared, id);
                helper.draw = draw;
                helper.iterate(&moves, 1, &|_| {});
                helper.keep_histories();
            });
        }
        let mut main = Searcher::new(pos, stack, eval, tt, limits, &shared, 0);
        main.draw = draw;
        let result = main.iterate(&moves, options.multipv.max(1), report);
        shared.abort.store(true, Ordering::Relaxed);
        main.keep_histories();
        result
    })
}

/// What a drawn repetition scores for the side to move, by its colour, with
/// `contempt` against `root` (the side to move at the root): below 0 for it
/// when the contempt is positive, as much above 0 for the other side.
fn draw_scores(root: Color, contempt: i32) -> [i32; 2] {
    let mut draw = [contempt; 2];
    draw[root.index()] = -contempt;
    draw
}

/// The legal moves, restricted to `searchmoves` where any of those is legal.
fn root_moves<B: BitBoard>(pos: &Position<B>, searchmoves: &[Move]) -> MoveList {
    let mut moves = pos.legal_moves();
    if moves.iter().any(|m| searchmoves.contains(m)) {
        moves.retain(|m| searchmoves.contains(m));
    }
    moves
}

/// USI: with `go infinite` or `go ponder`, the best move is sent only after
/// `stop` (or `ponderhit`, for pondering).
fn wait_while_unbounded(limits: &Limits, control: &Control) {
    while !control.stop.load(Ordering::Relaxed)
        && (limits.infinite || control.pondering.load(Ordering::Relaxed))
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Under the try rule, a legal king move onto the enemy king's start square wins at once.
fn try_rule_win<B: BitBoard>(
    pos: &Position<B>,
    rule: EnteringKingRule,
    moves: &MoveList,
) -> Option<Move> {
    if rule != EnteringKingRule::TryRule {
        return None;
    }
    let rules = pos.rules();
    let start = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).ok()?;
    let target = start.king_square(!pos.side_to_move())?;
    let king = pos.king_square(pos.side_to_move())?;
    moves
        .iter()
        .copied()
        .find(|m| m.from() == Some(king) && m.to() == target)
}

/// State shared by the threads of one search.
struct Shared<'a> {
    /// Set by the main thread when it is done, so helpers stop too.
    abort: AtomicBool,
    nodes: AtomicU64,
    control: &'a Control,
    start: Instant,
}

/// One thread's search.
struct Searcher<'a, B: BitBoard> {
    pos: Position<B>,
    eval: &'a Evaluator<B>,
    tt: &'a Table,
    limits: &'a Limits,
    shared: &'a Shared<'a>,
    id: usize,
    budget: Option<Budget>,
    /// The clock's start; reset on `ponderhit`.
    start: Instant,
    was_pondering: bool,
    stack: Vec<HistoryEntry>,
    /// Nodes not yet added to the shared count.
    local_nodes: u64,
    nodes: u64,
    stopped: bool,
    seldepth: usize,
    root_depth: i32,
    killers: Vec<[Option<Move>; 2]>,
    /// `[side][(origin or S + dropped kind) * S + to]`: quiet moves that cut off.
    history: Vec<i32>,
    squares: usize,
    /// Origins in the butterfly history: squares, then kinds dropped.
    history_slots: usize,
    lists: Vec<MoveList>,
    scores: Vec<Vec<i32>>,
    /// Scratch space for sorting the late moves of a node.
    sort_buf: Vec<(i32, Move)>,
    pv: Vec<Vec<Move>>,
    /// Static evaluation per ply (`-INFINITE` when in check), for "improving".
    evals: Vec<i32>,
    /// Whether this is the search of the small games (no lion or hook
    /// moves): exchanges resolved by [`Self::see`], checks judged by
    /// [`Self::may_check`], Stockfish's pruning.
    use_see: bool,
    /// Whether a piece hops over a screen (cannon shogi): asked of the
    /// variant once, since the answer reads every piece's movement.
    hoppers: bool,
    /// Stockfish's pruning and reductions (the 9x9 games; dai dai shogi
    /// without the parts that need [`Self::see`]).
    shape: bool,
    /// Who loses a plain repetition (minishogi: Black); `None`: a draw.
    repetition_loser: Option<Color>,
    /// What a drawn repetition scores for the side to move, by its colour:
    /// [`SearchOptions::contempt`] against the root's side to move.
    draw: [i32; 2],
    /// Drop mates looked for at the quiescence horizon (the 9x9 games).
    drop_mates: Option<DropMates<B>>,
    /// Continuation history (the 9x9 games; empty on 17x17, where it would
    /// need billions of entries): `[previous piece-to][piece-to]`, how often
    /// a quiet move cut off after that earlier move (one or two plies before).
    cont: Vec<i16>,
    /// Piece-to keys: kinds times squares.
    piece_to: usize,
    /// Per ply, the piece-to key of the move that led to it (`NO_KEY` for
    /// the root or a null move).
    keys: Vec<usize>,
    /// Per piece-to key of the opponent's last move, the quiet reply that cut off.
    counter: Vec<Option<Move>>,
    /// Capture history: `[piece-to][captured kind]`, how
    /// often a capture cut off; orders captures of the same victim.
    capture_history: Vec<i16>,
    /// Per ply, the move left out by a singular-extension search of that node.
    excluded: Vec<Option<Move>>,
    /// Correction history (the 9x9 games; empty on larger boards):
    /// `[side][pawn-structure key]`, how far searches found the static
    /// evaluation off, in 1/[`CORRECTION_GRAIN`] centipawns.
    correction: Vec<i32>,
    /// The pawn's kind, whose squares key `correction`.
    pawn: Option<banmen_rules::Kind>,
    /// Per move made in the search (the root first), the board part of the
    /// evaluation ([`Evaluator::board_sum`]), kept move by move; empty
    /// with a net that is the whole evaluation.
    sums: Vec<crate::eval::BoardSum>,
    /// The evaluation's network, if it has one.
    net: Option<&'a crate::nnue::Net>,
    /// Per move made in the search (the root first), both sides'
    /// accumulators of the net (`2 * hidden` values each), kept move by move.
    acc: Vec<i16>,
    /// Entries of `acc` in use.
    acc_len: usize,
}

/// No piece-to key: the root, a null move.
const NO_KEY: usize = usize::MAX;
/// Bound of the history tables (the gravity formula keeps entries within it).
const HISTORY_MAX: i32 = 16_384;

/// A history entry moved by `bonus` (negative: a malus), the more slowly
/// the nearer it already is to [`HISTORY_MAX`] on that side.
#[inline]
fn gravity(v: i32, bonus: i32) -> i32 {
    v + bonus - v * bonus.abs() / HISTORY_MAX
}

/// What the quiescence search needs to see a mate by a drop next to the
/// enemy king: drops are not in the quiescence moves, so a position where
/// the side to move mates with one would stand as merely good.
struct DropMates<B> {
    /// Per square, the squares within two king steps.
    near: Vec<B>,
    /// Per square, the squares one king step away.
    steps: Vec<B>,
    /// The pawn, whose dropped mate is illegal in shogi (never counted).
    pawn: Option<banmen_rules::Kind>,
}

impl<B: BitBoard> DropMates<B> {
    fn new(pos: &Position<B>) -> Option<Self> {
        let rules = pos.rules();
        let king = rules.kind_by_code("K")?;
        let color = banmen_rules::Color::Black;
        let step = |sq: banmen_rules::Square| rules.attacks(color, king, sq, B::EMPTY);
        let near = rules
            .geometry
            .all()
            .map(|sq| {
                let mut n = step(sq);
                for s in step(sq).squares() {
                    n |= step(s);
                }
                n
            })
            .collect();
        Some(DropMates {
            near,
            steps: rules.geometry.all().map(step).collect(),
            pawn: rules.kind_by_code("P"),
        })
    }
}

impl<'a, B: BitBoard> Searcher<'a, B> {
    fn new(
        pos: &Position<B>,
        stack: Vec<HistoryEntry>,
        eval: &'a Evaluator<B>,
        tt: &'a Table,
        limits: &'a Limits,
        shared: &'a Shared<'a>,
        id: usize,
    ) -> Self {
        let squares = pos.rules().geometry.squares();
        let slots = squares + pos.rules().kind_count();
        // The search of the small games (shogi, cannon shogi, minishogi):
        // every piece's moves are single steps, slides or hops, which
        // `attacks` covers, so checks and exchanges can be judged without
        // making the move. Dai dai shogi's lions and hooks are not.
        let nine = !pos.rules().variant.has_multi_leg_moves();
        let piece_to = pos.rules().kind_count() * squares;
        let cont_len = if nine { piece_to * piece_to } else { 0 };
        // The move-ordering statistics go from one search of a game to the
        // next (the table forgets them with the game). Dai dai shogi with a
        // correction history, or a hashed continuation history, ended no
        // more games (session 27, bench/results/2026-12-07-s27/).
        let corrections = if nine { 2 * CORRECTION_SIZE } else { 0 };
        let captures = piece_to * pos.rules().kind_count();
        let kept = tt.take_histories(id).filter(|h| {
            h.history.len() == 2 * slots * squares
                && h.cont.len() == cont_len
                && h.counter.len() == piece_to
                && h.correction.len() == corrections
                && h.capture.len() == captures
        });
        let (history, cont, counter, correction, capture_history) = match kept {
            Some(h) => (h.history, h.cont, h.counter, h.correction, h.capture),
            None => (
                vec![0; 2 * slots * squares],
                vec![0; cont_len],
                vec![None; piece_to],
                vec![0; corrections],
                vec![0; captures],
            ),
        };
        let rules = pos.rules();
        let pawn = rules.variant.pawn.and_then(|code| {
            (0..rules.kind_count())
                .map(|k| banmen_rules::Kind(k as u8))
                .find(|k| rules.kinds[k.index()].code == code)
        });
        Searcher {
            pos: pos.clone(),
            eval,
            tt,
            limits,
            shared,
            id,
            budget: Budget::new(limits, pos.side_to_move()),
            start: shared.start,
            was_pondering: limits.ponder,
            stack,
            local_nodes: 0,
            nodes: 0,
            stopped: false,
            seldepth: 0,
            root_depth: 0,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history,
            squares,
            history_slots: slots,
            lists: vec![MoveList::new(); MAX_PLY + 2],
            scores: vec![Vec::new(); MAX_PLY + 2],
            sort_buf: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            evals: vec![-INFINITE; MAX_PLY + 2],
            use_see: nine,
            hoppers: pos.rules().variant.has_hoppers(),
            // Dai dai shogi with this shape (less the SEE parts) scored 9/3/8
            // against its own reductions in 20 games at movetime 100, and
            // against banmen-2026-12-01 no better than them (session 27,
            // bench/results/2026-12-07-s27/): not kept.
            shape: nine,
            repetition_loser: pos.rules().variant.repetition_loser,
            draw: [0; 2],
            drop_mates: if nine { DropMates::new(pos) } else { None },
            cont,
            piece_to,
            keys: vec![NO_KEY; MAX_PLY + 2],
            counter,
            capture_history,
            excluded: vec![None; MAX_PLY + 2],
            correction,
            pawn,
            sums: match eval.net() {
                Some(net) if !net.residual => Vec::new(),
                _ => {
                    let mut v = Vec::with_capacity(MAX_PLY + 2);
                    v.push(eval.board_sum(pos));
                    v
                }
            },
            net: eval.net(),
            acc: match eval.net() {
                Some(net) => {
                    let mut acc = vec![0i16; (MAX_PLY + 3) * 2 * net.hidden];
                    net.refresh_both(pos, &mut acc[..2 * net.hidden]);
                    acc
                }
                None => Vec::new(),
            },
            acc_len: 1,
        }
    }

    /// Makes `m`, keeping the board part of the linear evaluation and the
    /// net's accumulators (whichever the evaluation uses).
    #[inline]
    fn make(&mut self, m: Move) -> banmen_rules::Undo {
        let change = self.net.map(|net| net.change(&self.pos, m));
        let delta = (!self.sums.is_empty()).then(|| self.eval.move_delta(&self.pos, m));
        let undo = self.pos.make_move(m);
        if let (Some(net), Some(change)) = (self.net, change) {
            let n = 2 * net.hidden;
            let at = self.acc_len * n;
            if at + n > self.acc.len() {
                // Deeper than the stack was made for (never within MAX_PLY).
                self.acc.resize(at + n, 0);
            }
            self.acc.copy_within(at - n..at, at);
            net.apply(&change, &self.pos, &mut self.acc[at..at + n]);
            self.acc_len += 1;
        }
        if let Some(delta) = delta {
            let sum = match delta {
                Some(d) => {
                    let mut sum = self.sums[self.sums.len() - 1];
                    sum.add(d);
                    sum
                }
                None => self.eval.board_sum(&self.pos),
            };
            self.sums.push(sum);
        }
        undo
    }

    /// Takes back `m`, the last move made by [`Self::make`].
    #[inline]
    fn unmake(&mut self, m: Move, undo: banmen_rules::Undo) {
        self.pos.unmake_move(m, undo);
        if self.net.is_some() {
            self.acc_len -= 1;
        }
        if !self.sums.is_empty() {
            self.sums.pop();
        }
    }

    /// Leaves this thread's move-ordering statistics to the next search of the game.
    fn keep_histories(&mut self) {
        self.tt.keep_histories(
            self.id,
            Histories {
                history: std::mem::take(&mut self.history),
                cont: std::mem::take(&mut self.cont),
                counter: std::mem::take(&mut self.counter),
                correction: std::mem::take(&mut self.correction),
                capture: std::mem::take(&mut self.capture_history),
            },
        );
    }

    /// This position's slot in the correction history: the side to move
    /// and a hash of both sides' pawn squares. `None` without one.
    fn correction_slot(&self) -> Option<usize> {
        if self.correction.is_empty() {
            return None;
        }
        let pawn = self.pawn?;
        let mut key = 0u64;
        for c in Color::ALL {
            let mut bb = self.pos.pieces(c, pawn);
            while let Some(sq) = bb.pop() {
                let x = (sq.index() as u64 + 1) * (2 * c.index() as u64 + 1);
                key ^= x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
            }
        }
        key = key.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let side = self.pos.side_to_move().index();
        Some(side * CORRECTION_SIZE + (key >> 40) as usize % CORRECTION_SIZE)
    }

    /// The static evaluation, corrected by what searches of positions with
    /// the same pawns found.
    fn corrected_eval(&self, slot: Option<usize>) -> i32 {
        let raw = match (self.net, self.sums.last()) {
            (Some(net), board) => {
                let n = 2 * net.hidden;
                let at = (self.acc_len - 1) * n;
                let linear = board.map(|&b| self.eval.evaluate_with(&self.pos, b));
                let raw = self
                    .eval
                    .evaluate_net(net, &self.pos, &self.acc[at..at + n], linear);
                debug_assert_eq!(raw, self.eval.evaluate(&self.pos), "incremental network");
                raw
            }
            (None, Some(&board)) => {
                let raw = self.eval.evaluate_with(&self.pos, board);
                debug_assert_eq!(raw, self.eval.evaluate(&self.pos), "incremental evaluation");
                raw
            }
            (None, None) => self.eval.evaluate(&self.pos),
        };
        match slot {
            Some(i) => raw + self.correction[i] / CORRECTION_GRAIN,
            None => raw,
        }
    }

    /// Moves the correction of `slot` towards what a search of `depth` found.
    fn update_correction(&mut self, slot: usize, diff: i32, depth: i32) {
        let bonus = (diff * CORRECTION_GRAIN * depth / 8)
            .clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        let e = &mut self.correction[slot];
        *e += bonus - *e * bonus.abs() / CORRECTION_LIMIT;
    }

    /// The piece-to key of `m` in the current position (before it is made).
    fn key_of(&self, m: Move) -> usize {
        match self.pos.moving_piece(m) {
            Some(p) => p.kind.index() * self.squares + m.to().index(),
            None => NO_KEY,
        }
    }

    /// The capture-history slot of `m`: its piece-to key and the kind it
    /// takes on its destination, or else on the square a lion passes
    /// (`None` for a move that takes nothing).
    fn capture_slot(&self, m: Move) -> Option<usize> {
        let key = self.key_of(m);
        if key == NO_KEY || m.is_drop() {
            return None;
        }
        let them = !self.pos.side_to_move();
        let enemy = |s| self.pos.piece_at(s).filter(|p| p.color == them);
        let victim = enemy(m.to()).or_else(|| m.mid().and_then(enemy))?;
        Some(key * self.pos.rules().kind_count() + victim.kind.index())
    }

    /// Rewards the capture `best` that cut off (if it is one) and lowers the
    /// captures tried before the move that did.
    fn reward_captures(&mut self, best: Move, depth: i32, tried: &[Move]) {
        let bonus = (32 * depth * depth + 64 * depth).min(2400);
        let others = tried.iter().filter(|&&c| c != best).map(|&c| (c, -bonus));
        let moves = std::iter::once((best, bonus)).chain(others);
        for (m, b) in moves {
            if let Some(i) = self.capture_slot(m) {
                let e = &mut self.capture_history[i];
                *e = gravity(i32::from(*e), b) as i16;
            }
        }
    }

    /// The continuation histories of a quiet move with key `key` at `ply`:
    /// after the opponent's last move and after our own move before it.
    fn cont_score(&self, ply: usize, key: usize) -> i32 {
        if key == NO_KEY || self.cont.is_empty() {
            return 0;
        }
        let mut s = 0;
        for back in [ply, ply.wrapping_sub(1)] {
            if let Some(&prev) = self.keys.get(back) {
                if prev != NO_KEY {
                    s += i32::from(self.cont[prev * self.piece_to + key]);
                }
            }
        }
        s
    }

    /// Adds `bonus` (negative: a malus) to the continuation histories of
    /// the quiet move with key `key` at `ply`.
    fn cont_update(&mut self, ply: usize, key: usize, bonus: i32) {
        if key == NO_KEY || self.cont.is_empty() {
            return;
        }
        for back in [ply, ply.wrapping_sub(1)] {
            if let Some(&prev) = self.keys.get(back) {
                if prev != NO_KEY {
                    let e = &mut self.cont[prev * self.piece_to + key];
                    *e = gravity(i32::from(*e), bonus) as i16;
                }
            }
        }
    }

    /// Whether the side to move (not in check) mates at once by dropping a
    /// piece other than a pawn within two steps of the enemy king, checking
    /// with the dropped piece itself (a drop that mates as a cannon's screen
    /// is not looked for: `false` then, and the search finds it).
    fn drop_mate(&mut self) -> bool {
        let Some(dm) = &self.drop_mates else {
            return false;
        };
        let us = self.pos.side_to_move();
        let Some(king) = self.pos.king_square(!us) else {
            return false;
        };
        let hand = *self.pos.hand(us);
        let rules = self.pos.rules();
        let occ = self.pos.occupied();
        let empty_near = dm.near[king.index()] & !occ & rules.board_mask();
        let pawn = dm.pawn;
        let kinds = rules.n_base.min(banmen_rules::MAX_HAND_KINDS);
        let king_bb = B::from_square(king);
        // The king's steps that none of our pieces attacks now (with the
        // king off the board), found at the first candidate drop. Without
        // hoppers a drop only adds its own attacks and blocks lines, so such
        // a square stays an escape unless the dropped piece attacks it (on
        // the drop's own square, unguarded, the king takes the piece): most
        // candidates are refuted without making them. (A drop can be a
        // cannon's screen: games with hoppers make each one.)
        let mut safe: Option<B> = if self.hoppers { Some(B::EMPTY) } else { None };
        for (k, &count) in hand.iter().enumerate().take(kinds) {
            let kind = banmen_rules::Kind(k as u8);
            if count == 0 || Some(kind) == pawn {
                continue;
            }
            // Where the piece would attack the king: where the king, moving
            // as that piece of the other side, would attack (the 9x9 games'
            // moves are symmetric so).
            let squares =
                empty_near & rules.attacks(!us, kind, king, occ) & !rules.dead_squares(us, kind);
            for sq in squares.squares() {
                let safe = *safe.get_or_insert_with(|| {
                    let free = dm.steps[king.index()] & !self.pos.color_bb(!us);
                    let mut safe = B::EMPTY;
                    for e in free.squares() {
                        if self.pos.attackers_to(e, us, occ ^ king_bb).is_empty() {
                            safe |= B::from_square(e);
                        }
                    }
                    safe
                });
                let hit = rules.attacks(us, kind, sq, (occ ^ king_bb) | B::from_square(sq));
                if !(safe & !hit).is_empty() {
                    continue;
                }
                let m = Move::drop(kind, sq);
                let undo = self.pos.make_move(m);
                // A free square next to the king (the dropped piece's own,
                // if unguarded) is an escape: no need to count the replies.
                let occ_after = self.pos.occupied() ^ B::from_square(king);
                let free = dm.steps[king.index()] & !self.pos.color_bb(!us);
                let escape = free
                    .squares()
                    .any(|e| self.pos.attackers_to(e, us, occ_after).is_empty());
                let mate = !escape && !self.pos.has_legal_move();
                self.pos.unmake_move(m, undo);
                if mate {
                    return true;
                }
            }
        }
        false
    }

    /// Iterative deepening at the root.
    fn iterate(
        &mut self,
        moves: &MoveList,
        multipv: usize,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        let mut root: Vec<(Move, i32, Vec<Move>)> =
            moves.iter().map(|&m| (m, -INFINITE, vec![m])).collect();
        // Order the first iteration by the same heuristics as inner nodes.
        if let Some(e) = self.tt.probe(self.pos.hash()) {
            if let Some(i) = root.iter().position(|r| Some(r.0) == e.best) {
                root.swap(0, i);
            }
        }
        let multipv = multipv.min(root.len());
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut completed = 0;
        let mut best_score = -INFINITE;
        // Helpers start at staggered depths so the threads diverge.
        let first = 1 + (self.id % 2) as i32;
        for depth in first..=max_depth {
            self.root_depth = depth;
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let previous = root[pv_index].1;
                let (mut alpha, mut beta) = (-INFINITE, INFINITE);
                let mut delta = 40;
                if depth >= 5 && previous.abs() < MATE_BOUND {
                    alpha = (previous - delta).max(-INFINITE);
                    beta = (previous + delta).min(INFINITE);
                }
                loop {
                    let score = self.root_search(&mut root, pv_index, depth, alpha, beta);
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        if self.id == 0 {
                            self.report(report, depth, pv_index, &root, Some(Bound::Upper), score);
                        }
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                    } else if score >= beta {
                        if self.id == 0 {
                            self.report(report, depth, pv_index, &root, Some(Bound::Lower), score);
                        }
                        beta = (score + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 20;
                }
                if self.stopped {
                    break;
                }
                // Stable: moves already placed above pv_index stay.
                root[pv_index..].sort_by_key(|r| -r.1);
                if self.id == 0 {
                    self.report(report, depth, pv_index, &root, None, root[pv_index].1);
                }
            }
            if self.stopped {
                break;
            }
            completed = depth;
            best_score = root[0].1;
            if self.id != 0 {
                continue;
            }
            if self.should_stop_iterating(depth, best_score, root.len()) {
                break;
            }
        }
        self.flush_nodes();
        if self.id == 0 {
            wait_while_unbounded(self.limits, self.shared.control);
        }
        if completed == 0 {
            best_score = root[0].1;
        }
        let best = root[0].0;
        let ponder = root[0].2.get(1).copied();
        SearchResult {
            best: BestMove::Move(best, ponder),
            score: best_score,
            nodes: self.shared.nodes.load(Ordering::Relaxed),
            depth: completed,
        }
    }

    /// Whether the main thread should end after completing `depth`.
    fn should_stop_iterating(&mut self, depth: i32, score: i32, n_moves: usize) -> bool {
        // A mate found and confirmed by deeper iterations: searching on adds nothing.
        if score.abs() > MATE_BOUND && depth > (MATE - score.abs()) + 4 {
            return true;
        }
        if self.pondering() {
            return false;
        }
        if let Some(b) = self.budget {
            let elapsed = self.start.elapsed();
            if n_moves == 1 && self.limits.movetime.is_none() {
                return true;
            }
            if elapsed > b.soft {
                return true;
            }
        }
        false
    }

    fn pondering(&self) -> bool {
        self.shared.control.pondering.load(Ordering::Relaxed)
    }

    fn report(
        &self,
        report: &(dyn Fn(&Info) + Sync),
        depth: i32,
        pv_index: usize,
        root: &[(Move, i32, Vec<Move>)],
        bound: Option<Bound>,
        score: i32,
    ) {
        let nodes = self.shared.nodes.load(Ordering::Relaxed) + self.local_nodes;
        report(&Info {
            depth,
            seldepth: self.seldepth.max(depth as usize) as i32,
            multipv: pv_index + 1,
            score: Score::from_internal(score),
            bound,
            nodes,
            time: self.shared.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: root[pv_index].2.clone(),
        });
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.local_nodes, Ordering::Relaxed);
        self.local_nodes = 0;
    }

    /// Counts a node and, every 256, checks the clock and the stop signals:
    /// 256 dai dai shogi nodes take about 2 ms at 130k nodes/s (1024 took
    /// 8 ms, much of a short byoyomi's margin); a clock read costs ~25 ns.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.local_nodes += 1;
        if self.nodes & 255 == 0 {
            self.flush_nodes();
            self.check_limits();
        }
        self.stopped
    }

    fn check_limits(&mut self) {
        let control = self.shared.control;
        if control.stop.load(Ordering::Relaxed) || self.shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        let pondering = self.pondering();
        if self.was_pondering && !pondering {
            // ponderhit: our own clock starts now.
            self.start = Instant::now();
            self.was_pondering = false;
        }
        // Every iteration is bounded, the first included: a first iteration
        // over many root moves (MultiPV in dai dai shogi) can outlast the
        // clock, and `iterate` then plays the best root move searched so far.
        if pondering {
            return;
        }
        if let Some(n) = self.limits.nodes {
            if self.shared.nodes.load(Ordering::Relaxed) >= n {
                self.stopped = true;
            }
        }
        if let Some(b) = self.budget {
            if self.start.elapsed() >= b.hard {
                self.stopped = true;
            }
        }
    }

    /// The root: searches `root[pv_index..]`, keeping them sorted best first
    /// as far as they have been searched.
    fn root_search(
        &mut self,
        root: &mut [(Move, i32, Vec<Move>)],
        pv_index: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITE;
        for i in pv_index..root.len() {
            let m = root[i].0;
            self.keys[1] = self.key_of(m);
            let undo = self.make(m);
            let check = self.pos.in_check();
            self.stack.push(HistoryEntry {
                hash: self.pos.hash(),
                check,
            });
            let ext = i32::from(check);
            let score = if i == pv_index {
                -self.negamax(depth - 1 + ext, -beta, -alpha, 1, true, false)
            } else {
                let mut s = -self.negamax(depth - 1 + ext, -alpha - 1, -alpha, 1, true, true);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(depth - 1 + ext, -beta, -alpha, 1, true, false);
                }
                s
            };
            self.stack.pop();
            self.unmake(m, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha || i == pv_index {
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1]);
                root[i].1 = score;
                root[i].2 = pv;
                // Move it up to pv_index, keeping the others' order.
                root[pv_index..=i].rotate_right(1);
                if score > alpha {
                    alpha = score;
                }
                if score >= beta {
                    break;
                }
            } else {
                root[i].1 = -INFINITE;
            }
        }
        if best > -INFINITE {
            let m = root[pv_index].0;
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if pv_index == 0 && !self.stopped {
                self.tt.store(self.pos.hash(), Some(m), best, depth, bound);
            }
        }
        best
    }

    /// Whether the current position repeats an earlier one; if so its score.
    fn repetition(&self) -> Option<i32> {
        let n = self.stack.len();
        let here = self.stack[n - 1].hash;
        let lowest = n.saturating_sub(REPETITION_WINDOW);
        for i in (lowest..n - 1).rev() {
            let e = self.stack[i];
            if e.hash == 0 {
                // A null move: positions before it are not reachable by play.
                return None;
            }
            if e.hash != here || (n - 1 - i) % 2 != 0 {
                continue;
            }
            // Entries after i: the last is the opponent's move, then ours, alternately.
            let them_checked = (i + 1..n).rev().step_by(2).all(|j| self.stack[j].check);
            let we_checked = (i + 1..n - 1).rev().step_by(2).all(|j| self.stack[j].check);
            return Some(if them_checked {
                PERPETUAL_CHECK
            } else if we_checked {
                -PERPETUAL_CHECK
            } else {
                match self.repetition_loser {
                    // Minishogi: sennichite loses for Black.
                    Some(c) if c == self.pos.side_to_move() => -PERPETUAL_CHECK,
                    Some(_) => PERPETUAL_CHECK,
                    None => self.draw[self.pos.side_to_move().index()],
                }
            });
        }
        None
    }

    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
        cut: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply);
        }
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.repetition() {
            return score;
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let hash = self.pos.hash();
        let in_check = self.stack.last().is_some_and(|e| e.check);
        // A singular-extension search of this node leaves out one move: the
        // table's entry is of the whole node, so neither read nor written.
        let excluded = self.excluded[ply];
        let entry = if excluded.is_some() {
            None
        } else {
            self.tt.probe(hash)
        };
        let tt_move = entry.and_then(|e| e.best);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth {
                if let Some(s) = tt_cutoff(&e, ply, alpha, beta) {
                    return s;
                }
            }
        }
        // A drop that mates at once ends the node (the move-count and
        // futility pruning below might otherwise skip the drop).
        if !pv_node && !in_check && excluded.is_none() && self.drop_mate() {
            return MATE - ply as i32 - 1;
        }
        let slot = self.correction_slot();
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.corrected_eval(slot)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        // Internal iterative reduction: without a table move, a deep node is
        // probably not worth its full depth (and will have one next time).
        let depth = if tt_move.is_none() && depth >= 5 {
            depth - 1
        } else {
            depth
        };
        let nine = self.use_see;
        let shape = self.shape;
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta near the leaves.
            if shape {
                if depth <= 6 && static_eval - 140 * (depth - i32::from(improving)) >= beta {
                    return static_eval;
                }
            } else if depth <= 3 && static_eval - 150 * depth >= beta {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if allow_null && excluded.is_none() && depth >= 3 && static_eval >= beta {
                let r = if shape {
                    3 + depth / 4 + ((static_eval - beta) / 125).min(3)
                } else {
                    3 + depth / 6
                };
                self.keys[ply + 1] = NO_KEY;
                self.pos.make_null_move();
                self.stack.push(HistoryEntry {
                    hash: 0,
                    check: false,
                });
                let s = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false, !cut);
                self.stack.pop();
                self.pos.make_null_move();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s > MATE_BOUND { beta } else { s };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        // The search tries the table's move before generating the others:
        // most nodes with one are cut off by it. A table hit means the same
        // position (the whole 64-bit key matches, and legality there depends
        // on the position alone), so its move is legal; 9x9 nodes deep
        // enough for a singular-extension test generate at once.
        let tt_first = tt_move.filter(|&m| {
            (!nine || depth < SINGULAR_DEPTH) && excluded.is_none() && self.plausible(m)
        });
        let mut generated = tt_first.is_none();
        if let Some(m) = tt_first {
            moves.clear();
            moves.push(m);
            scores.clear();
            scores.push(1 << 30);
        } else {
            self.pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                // No legal move loses, in check or not.
                return -MATE + ply as i32;
            }
            self.score_moves(&moves, &mut scores, tt_move, ply);
        }

        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried: [Move; 32] = [Move::default(); 32];
        let mut n_quiets = 0;
        let mut captures_tried: [Move; 16] = [Move::default(); 16];
        let mut n_captures = 0;
        // Pruning of quiet moves near the leaves (not at PV nodes, not in check).
        let prune = !pv_node && !in_check && depth <= 4 && alpha.abs() < MATE_BOUND;
        let late_limit = 4 + 2 * (depth * depth) as usize;
        let futility_margin = 100 + 120 * depth;
        let futile = prune && depth <= 3 && static_eval + futility_margin <= alpha;
        // The 9x9 games prune by move count, futility of the reduced depth
        // and static exchange, deeper than dai dai shogi does.
        let shallow = !pv_node && !in_check && shape && alpha.abs() < MATE_BOUND;
        let move_count_limit = ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize;
        let mut quiets_skipped = false;
        // Singular extension (9x9): when the table's move is the only one
        // that reaches near its stored score, it is searched a ply deeper;
        // when even without it the node fails high, it is cut off.
        let mut singular = None;
        if nine
            && ply > 0
            && depth >= SINGULAR_DEPTH
            && excluded.is_none()
            && ply < 2 * self.root_depth as usize
        {
            if let (Some(e), Some(tm)) = (entry, tt_move) {
                let tt_score = score_from_tt(e.score, ply);
                if e.depth >= depth - 3 && e.bound != Bound::Upper && tt_score.abs() < MATE_BOUND {
                    let singular_beta = tt_score - 2 * depth;
                    self.excluded[ply] = Some(tm);
                    self.lists[ply] = moves;
                    self.scores[ply] = scores;
                    let s = self.negamax(
                        (depth - 1) / 2,
                        singular_beta - 1,
                        singular_beta,
                        ply,
                        false,
                        cut,
                    );
                    self.excluded[ply] = None;
                    moves = std::mem::take(&mut self.lists[ply]);
                    scores = std::mem::take(&mut self.scores[ply]);
                    if self.stopped {
                        self.lists[ply] = moves;
                        self.scores[ply] = scores;
                        return 0;
                    }
                    if s < singular_beta {
                        singular = Some(tm);
                    } else if singular_beta >= beta {
                        self.lists[ply] = moves;
                        self.scores[ply] = scores;
                        return singular_beta;
                    }
                }
            }
        }
        let mut next = 0;
        loop {
            if next == moves.len() {
                if generated {
                    break;
                }
                // The table's move did not cut off: now the others, behind it.
                generated = true;
                let tm = moves[0];
                self.pos.legal_moves_into(&mut moves);
                let found = moves.iter().position(|&x| x == tm);
                debug_assert!(found.is_some(), "table move {tm:?} is not legal");
                match found {
                    Some(j) => moves.swap(0, j),
                    None => moves.insert(0, tm),
                }
                self.score_moves(&moves, &mut scores, Some(tm), ply);
                if next == moves.len() {
                    break;
                }
            }
            let i = next;
            next += 1;
            let m = next_move(&mut moves, &mut scores, i, &mut self.sort_buf);
            if Some(m) == excluded {
                continue;
            }
            let capture = self.is_capture(m);
            let quiet = !capture && !m.is_promotion();
            if shallow && i > 0 && best > -MATE_BOUND {
                // What would prune this move; checks are exempt (tested
                // last, as most moves are pruned by count before).
                let mut pruned = false;
                let mut by_count = false;
                let mut futility_bound = None;
                if quiet {
                    if quiets_skipped || (depth <= 8 && i >= move_count_limit) {
                        pruned = true;
                        by_count = true;
                    } else {
                        let lmr_depth = (depth - 1 - lmr(depth, i)).max(0);
                        let hist = self.history[self.history_index(m)]
                            + self.cont_score(ply, self.key_of(m));
                        let margin = static_eval + 150 + 110 * lmr_depth;
                        if lmr_depth < 6 && margin <= alpha && hist < 12_000 {
                            pruned = true;
                            futility_bound = Some(margin);
                        } else {
                            pruned = (lmr_depth < 3 && hist < -4_000 * depth)
                                || (nine
                                    && lmr_depth < 8
                                    && self.see(m) < -20 * lmr_depth * lmr_depth);
                        }
                    }
                    pruned = pruned && !self.may_check(m);
                } else if nine && capture && depth <= 6 && self.see(m) < -120 * depth {
                    pruned = !self.may_check(m);
                }
                if pruned {
                    quiets_skipped |= by_count;
                    if let Some(b) = futility_bound {
                        best = best.max(b);
                    }
                    continue;
                }
            }
            // The child's table entry is read while the move is tested and made.
            self.tt.prefetch(self.pos.hash_after(m));
            let may_check = self.may_check(m);
            if !shape {
                let prunable = prune && quiet && i > 0 && (futile || i >= late_limit);
                if prunable && !may_check {
                    if futile {
                        best = best.max(static_eval + futility_margin);
                    }
                    continue;
                }
            }
            let prunable = !shape && prune && quiet && i > 0 && (futile || i >= late_limit);
            // Whether a check is worth extending: the checking piece is safe.
            let safe_check = may_check && (!self.use_see || self.see(m) >= 0);
            let key = self.key_of(m);
            self.keys[ply + 1] = key;
            let undo = self.make(m);
            let check = may_check && self.pos.in_check();
            if prunable && !shape && !check {
                self.unmake(m, undo);
                if futile {
                    best = best.max(static_eval + futility_margin);
                }
                continue;
            }
            self.stack.push(HistoryEntry {
                hash: self.pos.hash(),
                check,
            });
            // Checks are extended only when the checking piece is safe and
            // the path is not already long (drops give many checks in shogi).
            let ext = if Some(m) == singular {
                1
            } else {
                i32::from(check && safe_check && ply < self.root_depth as usize)
            };
            let new_depth = depth - 1 + ext;
            let score = if i == 0 {
                -self.negamax(new_depth, -beta, -alpha, ply + 1, true, !pv_node && !cut)
            } else {
                let mut r = 0;
                if !shape {
                    // Dai dai shogi keeps the reductions it had: the ones
                    // below were measured on 9x9 boards only.
                    if depth >= 3 && i >= 3 && quiet && !in_check && !check {
                        r = lmr(depth, i) + if pv_node { -1 } else { 1 };
                        if Some(m) == self.killers[ply][0] || Some(m) == self.killers[ply][1] {
                            r -= 1;
                        }
                        r -= self.history[self.history_index_for(!self.pos.side_to_move(), m)]
                            / 8192;
                        r = r.clamp(0, new_depth - 1);
                    }
                } else if depth >= 3 && i >= 2 && !in_check && (quiet || i >= 8) {
                    r = lmr(depth, i);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if check {
                        r -= 1;
                    }
                    if !quiet {
                        r -= 1;
                    }
                    if cut {
                        // An expected cut node: its late moves matter little.
                        r += 2;
                    }
                    if Some(m) == self.killers[ply][0] || Some(m) == self.killers[ply][1] {
                        r -= 1;
                    }
                    if quiet {
                        // History (after the move: the mover is the side not to move).
                        let h = self.history[self.history_index_for(!self.pos.side_to_move(), m)]
                            + self.cont_score(ply, key);
                        r -= h / 12_000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, true, true);
                if r > 0 && s > alpha && !self.stopped {
                    s = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, true, !cut);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(new_depth, -beta, -alpha, ply + 1, true, false);
                }
                s
            };
            self.stack.pop();
            self.unmake(m, undo);
            if self.stopped {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            self.reward(m, depth, ply, &quiets_tried[..n_quiets]);
                        }
                        self.reward_captures(m, depth, &captures_tried[..n_captures]);
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = m;
                n_quiets += 1;
            } else if capture && n_captures < captures_tried.len() {
                captures_tried[n_captures] = m;
                n_captures += 1;
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        if excluded.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The correction history learns from quiet nodes whose bound says
        // which way the static evaluation was off.
        if let Some(slot) = slot.filter(|_| !in_check && best.abs() < MATE_BOUND) {
            let quiet_best = best_move.is_none_or(|m| !self.is_capture(m) && !m.is_promotion());
            let wrong_way = (bound == Bound::Lower && best <= static_eval)
                || (bound == Bound::Upper && best >= static_eval);
            if quiet_best && !wrong_way {
                self.update_correction(slot, best - static_eval, depth);
            }
        }
        self.tt
            .store(hash, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    /// Captures only (evasions when in check); never drops.
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.stack.last().is_some_and(|e| e.check);
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        let hash = self.pos.hash();
        let entry = self.tt.probe(hash);
        if let Some(s) = entry.and_then(|e| tt_cutoff(&e, ply, alpha, beta)) {
            return s;
        }
        let tt_move = entry.and_then(|e| e.best);
        if !in_check && self.drop_mate() {
            return MATE - ply as i32 - 1;
        }
        // The 9x9 games keep what the quiescence search finds in the table
        // (at depth 0: a main-search node never takes it as its result).
        let keep = self.use_see;
        let stand_pat = if in_check {
            -INFINITE
        } else {
            let s = self.corrected_eval(self.correction_slot());
            if s >= beta {
                if keep {
                    self.tt
                        .store(hash, None, score_to_tt(s, ply), 0, Bound::Lower);
                }
                return s;
            }
            alpha = alpha.max(s);
            s
        };
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let nine = self.use_see;
        let generated = !in_check;
        if generated {
            // The captures alone (lion double captures, igui and hook
            // movers' captures included), without generating every legal
            // move: drops are most of them in shogi.
            self.pos.capture_moves_into(&mut moves);
        } else {
            self.pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                self.lists[ply] = moves;
                return -MATE + ply as i32;
            }
        }
        if in_check {
            // Evasions without drops: an interposed drop is assumed to hold.
            moves.retain(|m| !m.is_drop());
            if moves.is_empty() {
                self.lists[ply] = moves;
                return self.corrected_eval(None);
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.score_moves(&moves, &mut scores, tt_move, ply);
        let mut best = stand_pat;
        let mut best_move = None;
        for i in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, i);
            if !in_check {
                // Delta pruning: even winning the piece cannot reach alpha.
                let gain = self.captured_value(m);
                if stand_pat + gain + 200 < alpha {
                    continue;
                }
                // A bigger piece taking a defended smaller one loses material.
                let attacker = self
                    .pos
                    .moving_piece(m)
                    .map_or(0, |p| self.eval.order_value(p.kind));
                if attacker > gain + 50
                    && if nine {
                        self.see(m) < 0
                    } else {
                        self.defended(m)
                    }
                {
                    continue;
                }
            }
            self.tt.prefetch(self.pos.hash_after(m));
            let may_check = self.may_check(m);
            let undo = self.make(m);
            if generated && self.pos.is_king_attacked(!self.pos.side_to_move()) {
                // A capture by a pinned piece or a king into check.
                self.unmake(m, undo);
                continue;
            }
            let check = may_check && self.pos.in_check();
            self.stack.push(HistoryEntry {
                hash: self.pos.hash(),
                check,
            });
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.stack.pop();
            self.unmake(m, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        if self.stopped {
            return 0;
        }
        if keep {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Upper
            };
            self.tt
                .store(hash, best_move, score_to_tt(best, ply), 0, bound);
        }
        best
    }

    /// Whether a table move can be made here without harm: its piece is
    /// ours (or in our hand, onto an empty square) and it does not capture
    /// our own piece (a lion's pass or igui ends where it started). A guard
    /// against a damaged entry, not a legality test.
    fn plausible(&self, m: Move) -> bool {
        let us = self.pos.side_to_move();
        let to = self.pos.piece_at(m.to());
        match m.dropped() {
            Some(kind) => to.is_none() && self.pos.hand_count(us, kind) > 0,
            None => {
                m.from()
                    .and_then(|f| self.pos.piece_at(f))
                    .is_some_and(|p| p.color == us)
                    && (to.is_none_or(|p| p.color != us)
                        || (m.mid().is_some() && m.from() == Some(m.to())))
            }
        }
    }

    /// Whether `m` might give check, without making it (`false` only when it
    /// certainly does not).
    fn may_check(&self, m: Move) -> bool {
        if !self.use_see {
            // Dai dai shogi's lions and hooks are not covered by `attacks`:
            // the rules core's quick test of the lines through the king.
            return self.pos.may_give_check(m);
        }
        let rules = self.pos.rules();
        // Without hoppers (shogi, minishogi) only the first piece seen from
        // the king can give a discovered check.
        let shogi = !self.hoppers;
        let us = self.pos.side_to_move();
        let Some(king) = self.pos.king_square(!us) else {
            return false;
        };
        let Some(piece) = self.pos.moving_piece(m) else {
            return true;
        };
        let mut kind = piece.kind;
        if m.is_promotion() {
            kind = rules.kinds[kind.index()].promotes_to.expect("a promotion");
        }
        let to = m.to();
        if !shogi {
            // Games with hoppers (cannon shogi): exact (a move along any
            // line through the king may open or make a screen): our
            // pieces (but the mover) that attack the king once the move is
            // made, or the mover itself. Attacks other than the mover's run
            // along lines through the king, so a move that neither leaves nor
            // reaches such a line changes none of them.
            let aligned = |sq: banmen_rules::Square| !rules.line(sq, king).is_empty();
            let mut occ = self.pos.occupied();
            if let Some(from) = m.from() {
                occ ^= B::from_square(from);
            }
            occ |= B::from_square(to);
            let on_a_line = aligned(to) || m.from().is_some_and(aligned);
            if on_a_line
                && !(self.pos.attackers_to(king, us, occ) & self.pos.color_bb(us)).is_empty()
            {
                return true;
            }
            return rules.attacks(us, kind, to, occ).has(king);
        }
        if let Some(from) = m.from() {
            // A discovered check (through the square left): in shogi only
            // by the first piece seen from the king; cannons hop, so any.
            if !rules.line(from, king).is_empty()
                && (!shogi || (rules.between(from, king) & self.pos.occupied()).is_empty())
            {
                return true;
            }
        }
        // A new screen for a cannon.
        if !shogi && !rules.line(to, king).is_empty() {
            return true;
        }
        let mut occ = self.pos.occupied();
        if let Some(from) = m.from() {
            occ ^= B::from_square(from);
        }
        occ |= B::from_square(to);
        rules.attacks(us, kind, to, occ).has(king)
    }

    /// Whether `m` takes an enemy piece: on its destination or (a lion's
    /// move) on a square it passes. A lion's pass and igui end on the
    /// lion's own square, which is no capture.
    fn is_capture(&self, m: Move) -> bool {
        self.pos.is_capture(m)
    }

    /// Static exchange evaluation of `m`: the material the side to move
    /// gains on `m`'s destination if both sides then capture there with their
    /// least valuable piece while it pays (pins and promotions during the
    /// exchange ignored). A quiet move or drop scores 0 or the loss of the
    /// moved piece.
    fn see(&self, m: Move) -> i32 {
        let pos = &self.pos;
        let rules = pos.rules();
        let to = m.to();
        let us = pos.side_to_move();
        let Some(piece) = pos.moving_piece(m) else {
            return 0;
        };
        let mut kind = piece.kind;
        let mut gain = [0i32; 40];
        gain[0] = self.captured_value(m);
        if m.is_promotion() {
            let promoted = rules.kinds[kind.index()].promotes_to.expect("a promotion");
            gain[0] += self.eval.value(promoted) - self.eval.value(kind);
            kind = promoted;
        }
        let mut occ = pos.occupied();
        if let Some(from) = m.from() {
            occ ^= B::from_square(from);
        }
        if let Some(mid) = m.mid() {
            occ &= !B::from_square(mid);
        }
        occ |= B::from_square(to);
        // The value standing on `to`, which the next capture wins.
        let mut on_square = self.eval.order_value(kind);
        let mut side = !us;
        let mut d = 0;
        loop {
            let attackers = pos.attackers_to(to, side, occ) & pos.color_bb(side);
            let mut least: Option<(i32, banmen_rules::Square)> = None;
            let mut a = attackers;
            while let Some(sq) = a.pop() {
                if sq == to {
                    continue;
                }
                let v = pos
                    .piece_at(sq)
                    .map_or(0, |p| self.eval.order_value(p.kind));
                if least.is_none_or(|(lv, _)| v < lv) {
                    least = Some((v, sq));
                }
            }
            let Some((v, sq)) = least else { break };
            if d + 1 >= gain.len() {
                break;
            }
            // Capture `d + 1` happens (it may still be declined below):
            // what the side making it gains if the exchange stops there.
            d += 1;
            gain[d] = on_square - gain[d - 1];
            occ ^= B::from_square(sq);
            on_square = v;
            side = !side;
        }
        // Each side takes a capture only when it gains more than stopping.
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// Whether the opponent could recapture on the square `m` moves to.
    fn defended(&self, m: Move) -> bool {
        let them = !self.pos.side_to_move();
        let mut occ = self.pos.occupied();
        if let Some(from) = m.from() {
            occ ^= B::from_square(from);
        }
        !self.pos.attackers_to(m.to(), them, occ).is_empty()
    }

    /// The ordering value of the enemy pieces `m` takes (a lion's moves may
    /// take on one or two squares they pass; their own square, where a pass
    /// or an igui ends, is not taken).
    fn captured_value(&self, m: Move) -> i32 {
        if m.is_drop() {
            return 0;
        }
        let them = !self.pos.side_to_move();
        let value = |s: banmen_rules::Square| match self.pos.piece_at(s) {
            Some(p) if p.color == them => self.eval.order_value(p.kind),
            _ => 0,
        };
        let mut v = value(m.to());
        if let Some(mid) = m.mid() {
            v += value(mid);
            v += m.mid2().map_or(0, value);
        }
        v
    }

    fn history_index(&self, m: Move) -> usize {
        self.history_index_for(self.pos.side_to_move(), m)
    }

    fn history_index_for(&self, side: banmen_rules::Color, m: Move) -> usize {
        let side = side.index();
        let origin = match (m.from(), m.dropped()) {
            (Some(f), _) => f.index(),
            (None, Some(k)) => self.squares + k.index(),
            (None, None) => 0,
        };
        (side * self.history_slots + origin) * self.squares + m.to().index()
    }

    /// Orders: table move, captures by MVV/LVA, promotions, killers, history.
    fn score_moves(
        &self,
        moves: &MoveList,
        scores: &mut Vec<i32>,
        tt_move: Option<Move>,
        ply: usize,
    ) {
        scores.clear();
        let killers = self.killers[ply];
        let counter = match self.keys.get(ply) {
            Some(&k) if k != NO_KEY => self.counter[k],
            _ => None,
        };
        // The continuation-history rows of the last two moves (as `cont_score`).
        let row = |back: usize| match self.keys.get(back) {
            Some(&prev) if prev != NO_KEY => Some(prev * self.piece_to),
            _ => None,
        };
        let rows = [row(ply), row(ply.wrapping_sub(1))];
        for &m in moves.iter() {
            let s = if Some(m) == tt_move {
                1 << 30
            } else {
                let victim = self.captured_value(m);
                if victim > 0 {
                    let attacker = self
                        .pos
                        .moving_piece(m)
                        .map_or(0, |p| self.eval.order_value(p.kind));
                    let history = self
                        .capture_slot(m)
                        .map_or(0, |i| i32::from(self.capture_history[i]) / 8);
                    let s = victim * 16 - attacker / 16
                        + history
                        + if m.is_promotion() { 500 } else { 0 };
                    if attacker > victim + 50 && self.defended(m) {
                        // Probably loses material: after the killers.
                        (1 << 26) + s
                    } else {
                        (1 << 28) + s
                    }
                } else if m.is_promotion() {
                    (1 << 27) + 1
                } else if Some(m) == killers[0] {
                    (1 << 27) - 1
                } else if Some(m) == killers[1] {
                    (1 << 27) - 2
                } else if Some(m) == counter {
                    (1 << 27) - 3
                } else if !self.cont.is_empty() {
                    let key = self.key_of(m);
                    let cont = if key == NO_KEY {
                        0
                    } else {
                        rows.iter()
                            .flatten()
                            .map(|&r| i32::from(self.cont[r + key]))
                            .sum()
                    };
                    self.history[self.history_index(m)] + cont
                } else {
                    self.history[self.history_index(m)]
                }
            };
            scores.push(s);
        }
    }

    /// A quiet move cut off: make it a killer and raise its history, lower the
    /// quiet moves tried before it.
    fn reward(&mut self, m: Move, depth: i32, ply: usize, tried: &[Move]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(&prev) = self.keys.get(ply) {
            if prev != NO_KEY {
                self.counter[prev] = Some(m);
            }
        }
        if self.cont.is_empty() {
            // Dai dai shogi: the history bonuses it was measured with.
            let bonus = (depth * depth).min(400);
            let i = self.history_index(m);
            self.history[i] = gravity(self.history[i], bonus);
            for &q in tried {
                let j = self.history_index(q);
                self.history[j] = gravity(self.history[j], -bonus);
            }
            return;
        }
        // The 9x9 games: larger bonuses and continuation histories.
        let bonus = (32 * depth * depth + 64 * depth).min(2400);
        let i = self.history_index(m);
        self.history[i] = gravity(self.history[i], bonus);
        self.cont_update(ply, self.key_of(m), bonus);
        for &q in tried {
            let j = self.history_index(q);
            self.history[j] = gravity(self.history[j], -bonus);
            self.cont_update(ply, self.key_of(q), -bonus);
        }
    }
}

/// Swaps the best-scored remaining move into place `i` and returns it.
#[inline]
fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}

/// The `i`th move to search: the first few by selection (most nodes cut off
/// early), then the rest sorted at once (a node that searches every move would
/// otherwise spend quadratic time picking).
#[inline]
fn next_move(moves: &mut [Move], scores: &mut [i32], i: usize, buf: &mut Vec<(i32, Move)>) -> Move {
    const PICKED: usize = 6;
    if i < PICKED {
        return pick(moves, scores, i);
    }
    if i == PICKED && moves.len() > PICKED + 1 {
        buf.clear();
        buf.extend(scores[i..].iter().copied().zip(moves[i..].iter().copied()));
        buf.sort_unstable_by_key(|a| std::cmp::Reverse(a.0));
        for (j, &(s, m)) in buf.iter().enumerate() {
            scores[i + j] = s;
            moves[i + j] = m;
        }
    }
    moves[i]
}

/// Late-move reduction in plies.
fn lmr(depth: i32, index: usize) -> i32 {
    let r = (f64::from(depth).ln() * (index as f64).ln() / 2.0) as i32;
    r.max(1)
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// The table's score for this node when its bound settles the window
/// (exact, at least `beta` or at most `alpha`).
fn tt_cutoff(e: &crate::tt::Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_17x17_with, rules_9x9, SfenMode, VariantName};

    /// Runs `f` on a searcher of `sfen` in `variant`.
    fn with_searcher<R>(
        variant: VariantName,
        sfen: &str,
        f: impl FnOnce(&mut Searcher<'_, banmen_rules::Bb128>) -> R,
    ) -> R {
        let rules = rules_9x9(variant).unwrap();
        searcher_of(
            &Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap(),
            f,
        )
    }

    /// Runs `f` on a searcher of `sfen` in dai dai shogi.
    fn with_dd_searcher<R>(
        sfen: &str,
        f: impl FnOnce(&mut Searcher<'_, banmen_rules::Bb320>) -> R,
    ) -> R {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        searcher_of(
            &Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap(),
            f,
        )
    }

    /// Runs `f` on a searcher of `pos` with the linear evaluation, a fresh
    /// table and no limits.
    fn searcher_of<B: BitBoard, R>(
        pos: &Position<B>,
        f: impl FnOnce(&mut Searcher<'_, B>) -> R,
    ) -> R {
        let eval = Evaluator::new(pos.rules());
        let (tt, limits, control) = (Table::new(1), Limits::default(), Control::default());
        let shared = Shared {
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            control: &control,
            start: Instant::now(),
        };
        let mut searcher = Searcher::new(pos, Vec::new(), &eval, &tt, &limits, &shared, 0);
        f(&mut searcher)
    }

    /// A lion's pass and igui end on the lion's own square: the pass takes
    /// nothing and the igui takes only its victim, for the move ordering,
    /// the capture history and the table-move guard alike.
    #[test]
    fn a_lion_pass_is_quiet_and_an_igui_takes_only_its_victim() {
        let sfen = "8kg8/17/17/17/17/17/17/8pa8/8LN8/17/17/17/17/17/17/17/8KG8 b - 1";
        with_dd_searcher(sfen, |s| {
            let moves = s.pos.legal_moves();
            let stays = |m: &&Move, taken: bool| {
                m.from() == Some(m.to())
                    && m.mid()
                        .is_some_and(|x| s.pos.piece_at(x).is_some() == taken)
            };
            let pass = *moves.iter().find(|m| stays(m, false)).expect("a pass");
            let igui = *moves.iter().find(|m| stays(m, true)).expect("an igui");
            let pawn = s.pos.piece_at(igui.mid().unwrap()).unwrap().kind;
            assert!(!s.is_capture(pass));
            assert_eq!(s.captured_value(pass), 0);
            assert_eq!(s.capture_slot(pass), None);
            assert!(s.is_capture(igui));
            assert_eq!(s.captured_value(igui), s.eval.order_value(pawn));
            let kinds = s.pos.rules().kind_count();
            assert_eq!(s.capture_slot(igui).map(|i| i % kinds), Some(pawn.index()));
            assert!(s.plausible(pass) && s.plausible(igui));
            // Ordered: the igui with the captures, the pass with the quiet moves.
            let list: MoveList = vec![pass, igui];
            let mut scores = Vec::new();
            s.score_moves(&list, &mut scores, None, 0);
            assert!(scores[1] >= 1 << 26 && scores[0] < 1 << 26, "{scores:?}");
        });
    }

    /// Plays `moves` in the searcher as the search does (a stack entry per
    /// move) and asks whether the last position repeats.
    fn repetition_after(variant: VariantName, moves: &[&str]) -> Option<i32> {
        let start = rules_9x9(variant).unwrap().variant.start_sfen;
        with_searcher(variant, start, |s| {
            s.stack.push(HistoryEntry {
                hash: s.pos.hash(),
                check: false,
            });
            for text in moves {
                let m = s.pos.parse_move(text).unwrap();
                s.pos.make_move(m);
                s.stack.push(HistoryEntry {
                    hash: s.pos.hash(),
                    check: false,
                });
            }
            s.repetition()
        })
    }

    #[test]
    fn a_repetition_is_a_draw_in_shogi_and_a_loss_for_black_in_minishogi() {
        // Black's rook and White's king out and back: the start position
        // again, Black to move.
        let shuffle = ["1e1d", "1a2b", "1d1e", "2b1a"];
        assert_eq!(
            repetition_after(VariantName::MiniShogi, &shuffle),
            Some(-PERPETUAL_CHECK),
            "Black to move loses"
        );
        // One ply more: White to move in a repeated position wins.
        let more = ["1e1d", "1a2b", "1d1e", "2b1a", "1e1d"];
        assert_eq!(
            repetition_after(VariantName::MiniShogi, &more),
            Some(PERPETUAL_CHECK),
            "White to move wins"
        );
        let shuffle = ["2h3h", "8b7b", "3h2h", "7b8b"];
        assert_eq!(repetition_after(VariantName::Shogi, &shuffle), Some(0));
        assert_eq!(repetition_after(VariantName::Shogi, &shuffle[..3]), None);
    }

    #[test]
    fn correction_history_moves_the_evaluation_towards_search_results() {
        with_searcher(VariantName::Shogi, "startpos", |s| {
            let slot = s.correction_slot().expect("shogi has pawns");
            let raw = s.eval.evaluate(&s.pos);
            assert_eq!(s.corrected_eval(Some(slot)), raw);
            // Searches keep finding the position 300 better than it looks:
            // the correction grows, but never past its limit.
            for _ in 0..200 {
                s.update_correction(slot, 300, 10);
            }
            let corrected = s.corrected_eval(Some(slot)) - raw;
            assert!(corrected > 100, "{corrected}");
            assert!(
                corrected <= CORRECTION_LIMIT / CORRECTION_GRAIN,
                "{corrected}"
            );
            // Another pawn structure has its own slot; the other side too.
            let before = s.correction_slot();
            let m = s.pos.parse_move("7g7f").unwrap();
            let undo = s.pos.make_move(m);
            assert_ne!(s.correction_slot(), before);
            s.pos.unmake_move(m, undo);
        });
        // Dai dai shogi's search keeps no correction history.
        with_dd_searcher("startpos", |s| assert_eq!(s.correction_slot(), None));
    }

    /// The capture history: the capture that cut off gains, the captures
    /// tried before it lose, and the cut-off capture loses nothing when the
    /// tried list holds it too.
    #[test]
    fn capture_history_rewards_the_cut_off_capture_only() {
        let sfen = "4k4/9/4p4/9/4Rp3/9/9/9/4K4 b - 1";
        with_searcher(VariantName::Shogi, sfen, |s| {
            let best = s.pos.parse_move("5e5c").unwrap();
            let other = s.pos.parse_move("5e4e").unwrap();
            let (b, o) = (
                s.capture_slot(best).unwrap(),
                s.capture_slot(other).unwrap(),
            );
            assert_ne!(b, o);
            s.reward_captures(best, 4, &[other, best]);
            let gained = s.capture_history[b];
            assert!(gained > 0, "{gained}");
            assert!(s.capture_history[o] < 0, "{}", s.capture_history[o]);
            // The same reward with the best capture not listed as tried.
            s.capture_history[b] = 0;
            s.reward_captures(best, 4, &[other]);
            assert_eq!(s.capture_history[b], gained);
            // A quiet move has no slot and changes nothing.
            let quiet = s.pos.parse_move("5i5h").unwrap();
            assert_eq!(s.capture_slot(quiet), None);
        });
    }

    /// The SEE of `usi` in `sfen` (standard shogi).
    fn see(sfen: &str, usi: &str) -> i32 {
        with_searcher(VariantName::Shogi, sfen, |s| {
            let m = s.pos.parse_move(usi).unwrap();
            s.see(m)
        })
    }

    /// Whether the side to move in `sfen` mates by a drop (the quiescence test).
    fn drop_mate(variant: VariantName, sfen: &str) -> bool {
        with_searcher(variant, sfen, |s| s.drop_mate())
    }

    /// `may_check` never misses a check (games without hoppers, shogi and
    /// minishogi: a superset of the checking moves) and in cannon shogi is
    /// exact, over random playouts.
    #[test]
    fn may_check_finds_every_check() {
        for variant in [
            VariantName::Shogi,
            VariantName::CannonShogi,
            VariantName::MiniShogi,
        ] {
            let rules = rules_9x9(variant).unwrap();
            let start = rules.variant.start_sfen;
            with_searcher(variant, start, |s| {
                let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
                let mut checks = 0;
                for game in 0..20 {
                    s.pos = Position::from_sfen(rules, start, SfenMode::Strict).unwrap();
                    for _ in 0..(60 + 10 * game) {
                        let moves = s.pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        for &m in &moves {
                            let gives = s.pos.gives_check(m);
                            let may = s.may_check(m);
                            checks += usize::from(gives);
                            assert!(may || !gives, "{variant:?}: {m:?} checks, unseen");
                            if rules.variant.has_hoppers() {
                                assert_eq!(may, gives, "{variant:?}: {m:?}");
                            }
                        }
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let m = moves[(seed % moves.len() as u64) as usize];
                        s.pos.make_move(m);
                    }
                }
                assert!(checks > 100, "{variant:?}: only {checks} checks seen");
            });
        }
    }

    /// The drop-mate test agrees with trying every non-pawn drop within two
    /// steps of the enemy king (in cannon shogi it may miss a drop that
    /// mates as a cannon's screen), over random playouts that prefer captures
    /// (so that hands fill and kings are exposed). Its shortcut refutes most
    /// drops without making them.
    #[test]
    fn drop_mate_agrees_with_trying_every_drop() {
        for variant in [VariantName::Shogi, VariantName::CannonShogi] {
            let rules = rules_9x9(variant).unwrap();
            let start = rules.variant.start_sfen;
            let g = rules.geometry;
            let pawn = rules.kind_by_code("P");
            let mut seed = 0x2545_F491_4F6C_DD1D_u64;
            let mut next = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let (mut tried, mut mates) = (0, 0);
            with_searcher(variant, start, |s| {
                for _ in 0..40 {
                    s.pos = Position::from_sfen(rules, start, SfenMode::Strict).unwrap();
                    for _ in 0..160 {
                        let moves = s.pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        let us = s.pos.side_to_move();
                        if let Some(king) = s.pos.king_square(!us).filter(|_| !s.pos.in_check()) {
                            let near = |sq: banmen_rules::Square| {
                                (g.file(sq) - g.file(king))
                                    .abs()
                                    .max((g.rank(sq) - g.rank(king)).abs())
                                    <= 2
                            };
                            let brute = moves.iter().any(|&m| {
                                if !m.is_drop()
                                    || s.pos.moving_piece(m).map(|x| x.kind) == pawn
                                    || !near(m.to())
                                {
                                    return false;
                                }
                                let undo = s.pos.make_move(m);
                                let mate = s.pos.in_check() && !s.pos.has_legal_move();
                                s.pos.unmake_move(m, undo);
                                mate
                            });
                            let sfen = s.pos.to_sfen();
                            let fast = s.drop_mate();
                            if variant == VariantName::Shogi {
                                assert_eq!(fast, brute, "{variant:?}: {sfen}");
                            } else {
                                // A drop that mates as a cannon's screen is
                                // not looked for; a mate claimed is one.
                                assert!(!fast || brute, "{variant:?}: {sfen}");
                            }
                            tried += 1;
                            mates += usize::from(fast);
                        }
                        let captures: Vec<_> = moves
                            .iter()
                            .copied()
                            .filter(|&m| s.pos.piece_at(m.to()).is_some())
                            .collect();
                        let m = if !captures.is_empty() && next() % 4 != 0 {
                            captures[(next() % captures.len() as u64) as usize]
                        } else {
                            moves[(next() % moves.len() as u64) as usize]
                        };
                        s.pos.make_move(m);
                    }
                }
            });
            assert!(tried > 1000, "{variant:?}: only {tried} positions");
            assert!(
                mates > 5,
                "{variant:?}: only {mates} drop mates among {tried}"
            );
        }
    }

    #[test]
    fn drop_mates_at_the_horizon() {
        // G*2b, guarded by the pawn on 2c: mate.
        assert!(drop_mate(
            VariantName::Shogi,
            "8k/9/7P1/9/9/9/9/9/4K4 b G 1"
        ));
        // The king takes an unguarded gold.
        assert!(!drop_mate(VariantName::Shogi, "8k/9/9/9/9/9/9/9/4K4 b G 1"));
        // A knight drop from two squares away, the king boxed in by its own pieces.
        assert!(drop_mate(
            VariantName::Shogi,
            "7lk/7np/9/9/9/9/9/9/4K4 b N 1"
        ));
        // P*1b would mate but is illegal (uchifuzume): not counted.
        assert!(!drop_mate(
            VariantName::Shogi,
            "8k/6G2/9/7N1/9/9/9/9/4K4 b P 1"
        ));
        // Nothing in hand, nothing to drop.
        assert!(!drop_mate(
            VariantName::Shogi,
            "8k/9/7P1/9/9/9/9/9/4K4 b - 1"
        ));
        // Cannon shogi: the same gold drop mates there too.
        assert!(drop_mate(
            VariantName::CannonShogi,
            "8k/9/7P1/9/9/9/9/9/4K4 b G 1"
        ));
    }

    #[test]
    fn static_exchange_evaluation() {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let value = |code: &str| Evaluator::new(rules).value(rules.kind_by_code(code).unwrap());
        // A free gold.
        assert_eq!(see("4k4/9/9/4g4/4P4/9/9/9/4K4 b - 1", "5e5d"), value("G"));
        // A gold defended by a silver: pawn for gold.
        assert_eq!(
            see("4k4/9/3s5/4g4/4P4/9/9/9/4K4 b - 1", "5e5d"),
            value("G") - value("P")
        );
        // A quiet move onto a square the pawn attacks loses the rook; one
        // square short of it is safe.
        assert_eq!(see("4k4/8p/9/9/9/9/9/9/4K3R b - 1", "1i1c"), -value("R"));
        assert_eq!(see("4k4/8p/9/9/9/9/9/9/4K3R b - 1", "1i1d"), 0);
        // A drop the king takes at once; defended by a pawn, it is safe.
        assert_eq!(see("4k4/9/9/9/9/9/9/9/4K4 b G 1", "G*5b"), -value("G"));
        assert_eq!(see("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b"), 0);
        // A rook taking a pawn that a gold defends.
        assert_eq!(
            see("4k4/3g5/4p4/9/9/9/9/9/K3R4 b - 1", "5i5c"),
            value("P") - value("R")
        );
    }
}
