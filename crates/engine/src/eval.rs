//! Static evaluation, from the side to move's point of view, in centipawns.
//!
//! The evaluation is linear in its parameters: a position activates a set of
//! features (a piece of a kind on a square, a piece near its own or the enemy
//! king, the n-th piece of a kind in hand, pieces in hand against an open
//! enemy king, the move), each with a count, and the score is the sum of the
//! counts times the parameters. [`Evaluator::features`] lists the features of
//! a position, so a tuner ([`crate::tune`]) can fit the parameters to game
//! data with the very code the search uses.
//!
//! The features, for a piece of colour `c` and kind `k` (coordinates seen from
//! `c`'s side, files mirrored onto one half of the board):
//! - `mat k`: its material;
//! - `psq k i`: its square (9x9 boards: rank and mirrored file together;
//!   larger boards: `rank k r` and `file k f` separately, which fit in far
//!   fewer parameters);
//! - `kpo k i` / `kpe k i` (9x9 boards): its offset from its own / the enemy
//!   king (rank offset and mirrored file offset): defenders and attackers;
//! - `dist k d` (9x9 boards): its distance in king steps from the enemy king;
//! - `hand k n`: the n-th piece of base kind `k` in hand (capped at 8);
//! - `handx k`: pieces of kind `k` in hand (up to 2) times the empty squares
//!   around the enemy king (drop threats);
//! - `tempo`: having the move;
//! - `danger` (boards larger than 9x9 only): each king's danger from enemy
//!   pieces within two steps, growing with their square, less own pieces
//!   there (the count; its parameter starts at 1).
//!
//! Parameters start from values built from the rule tables (standard shogi's
//! pieces take the values engines use; every other kind is valued by its
//! mobility) and are replaced by the tuned values of `params/<game>.txt`
//! where that file names them.

use crate::nnue::Net;
use banmen_rules::{BitBoard, Color, Kind, Move, Position, Rules, Square, VariantName};
use std::sync::Arc;

/// Extra value of a piece in hand over the same piece on the board (initial values).
const HAND_BONUS_PERCENT: i32 = 115;

/// The initial value of having the move.
const TEMPO: i32 = 20;

/// Pieces of one kind in hand that have a value of their own.
const HAND_CAP: usize = 8;

/// How far from a king a piece counts as near it (8: every offset on a 9x9 board).
const KING_REACH: i32 = 8;

/// Distances from the enemy king (in king steps) told apart; farther counts as the last.
const DISTANCES: usize = 17;

/// Offsets near a king: rank offset by mirrored file offset.
const NEAR: usize = ((2 * KING_REACH + 1) * (KING_REACH + 1)) as usize;

/// Dai dai shogi's mop-up (boards larger than 9x9, see [`Evaluator::mop_up`]):
/// the material lead (centipawns) from which it starts.
const MOPUP_LEAD: i32 = 3000;
/// It starts only when the weaker side has at most this share (n/d) of the
/// stronger side's material.
const MOPUP_SHARE: (i32, i32) = (2, 3);
/// Pieces closer than this many king steps to the weaker king count (on
/// 17x17 every piece: dai dai shogi's pieces mostly step, and walk far).
const MOPUP_REACH: i32 = 17;
/// Centipawns per step of closeness of each such piece (the stronger king
/// left out): enough to outweigh the other terms' noise, so that the army
/// walks to the king (session 24; 4 before, with a pull that grew with the
/// lead, left it at home: `bench/results/2026-12-06-s24/`).
const MOPUP_NEAR: i32 = 15;
/// Centipawns per square the weaker king could step to unattacked (50
/// before: chasing the king with one piece paid more than bringing others).
const MOPUP_ESCAPE: i32 = 20;
/// What the stronger side gains, at most, for the weaker side's material
/// gone below the share the mop-up starts at (in proportion: nothing at the
/// start, all of it against a bare king), so that it trades: an exchange of
/// equal pieces leaves the lead as it was but brings the bare king nearer.
const MOPUP_TRADE: i32 = 3000;

/// Values of standard shogi's pieces (P L N S G B R and promoted forms), and
/// of cannon shogi's cannons: mobility counts only the squares a piece may
/// capture on, which undervalues the cannons (a gold cannon moves as a rook
/// but captures only by hopping) to about a pawn each. By analogy: the gold
/// cannon (mRcpR) below a rook, the copper cannon (mBcpB) below a bishop, the
/// hop-only silver (pR) and iron (pB) cannons below those, and their
/// promotions (a rook or bishop mover that also hops and steps) near a
/// promoted rook or bishop.
const STANDARD: [(&str, i32); 21] = [
    ("U", 560),
    ("A", 420),
    ("C", 480),
    ("I", 340),
    ("+U", 850),
    ("+A", 850),
    ("+C", 780),
    ("+I", 780),
    ("P", 90),
    ("L", 260),
    ("N", 290),
    ("S", 410),
    ("G", 490),
    ("B", 630),
    ("R", 710),
    ("+P", 530),
    ("+L", 510),
    ("+N", 520),
    ("+S", 500),
    ("+B", 900),
    ("+R", 1030),
];

/// The tuned parameters shipped for each game (`name value` lines).
fn shipped_params(name: VariantName) -> &'static str {
    match name {
        VariantName::Shogi => include_str!("../params/shogi.txt"),
        VariantName::CannonShogi => include_str!("../params/cannonshogi.txt"),
        VariantName::DaiDaiShogi => include_str!("../params/daidaishogi.txt"),
        VariantName::MiniShogi => include_str!("../params/minishogi.txt"),
    }
}

/// The network shipped for each game (`crates/engine/nets/<game>.nnue`), if any.
fn shipped_net_bytes(name: VariantName) -> Option<&'static [u8]> {
    match name {
        // bench/nnue.sh shogi reproduces it; its provenance is in the file.
        VariantName::Shogi => Some(include_bytes!("../nets/shogi.nnue")),
        // bench/nnue.sh cannonshogi reproduces it.
        VariantName::CannonShogi => Some(include_bytes!("../nets/cannonshogi.nnue")),
        VariantName::DaiDaiShogi | VariantName::MiniShogi => None,
    }
}

type NetCache = Vec<(VariantName, Option<Arc<Net>>)>;

/// The network [`Evaluator::new`] gives each game: the shipped one, read
/// once, unless [`Evaluator::set_default_net`] named another.
fn default_nets() -> std::sync::MutexGuard<'static, NetCache> {
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<NetCache>> = OnceLock::new();
    CACHE
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The network of `rules`' game that [`Evaluator::new`] uses.
fn shipped_net<B: BitBoard>(rules: &Rules<B>) -> Option<Arc<Net>> {
    let name = rules.variant.name;
    let mut cache = default_nets();
    if let Some((_, net)) = cache.iter().find(|(n, _)| *n == name) {
        return net.clone();
    }
    // A shipped net that does not read is a build defect, caught by a test;
    // the linear evaluation plays meanwhile.
    let net = shipped_net_bytes(name)
        .and_then(|bytes| Net::from_bytes(bytes, rules).ok())
        .map(Arc::new);
    cache.push((name, net.clone()));
    net
}

/// Where each group of features starts in the parameter vector.
#[derive(Clone, Copy, Debug)]
struct Layout {
    kinds: usize,
    n_base: usize,
    /// Squares per kind in `psq` (9x9: ranks x mirrored files; larger: ranks + mirrored files).
    psq_per_kind: usize,
    /// Whether `psq` is one table of squares (9x9) or rank and file tables.
    joint: bool,
    half_files: usize,
    mat: usize,
    psq: usize,
    kpo: usize,
    kpe: usize,
    dist: usize,
    hand: usize,
    handx: usize,
    tempo: usize,
    danger: usize,
    len: usize,
}

impl Layout {
    fn new<B: BitBoard>(rules: &Rules<B>) -> Layout {
        let g = rules.geometry;
        let kinds = rules.kinds.len();
        let n_base = rules.n_base;
        let half_files = (g.files as usize).div_ceil(2);
        let joint = g.files <= 9;
        let psq_per_kind = if joint {
            g.ranks as usize * half_files
        } else {
            g.ranks as usize + half_files
        };
        let mat = 0;
        let psq = mat + kinds;
        let kpo = psq + kinds * psq_per_kind;
        let kpe = kpo + kinds * NEAR;
        let dist = kpe + kinds * NEAR;
        let hand = dist + kinds * DISTANCES;
        let handx = hand + n_base * HAND_CAP;
        let tempo = handx + n_base;
        Layout {
            kinds,
            n_base,
            psq_per_kind,
            joint,
            half_files,
            mat,
            psq,
            kpo,
            kpe,
            dist,
            hand,
            handx,
            tempo,
            danger: tempo + 1,
            len: tempo + 2,
        }
    }
}

/// Receives the features of a position (`count` from Black's point of view).
trait Sink {
    fn add(&mut self, index: usize, count: i32);
}

/// Sums parameters: the evaluation itself.
struct Sum<'a> {
    weights: &'a [i32],
    total: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.total += count * self.weights[index];
    }
}

/// The board part of the linear evaluation ([`Evaluator::board_sum`]),
/// kept move by move by a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardSum {
    /// Square tables, material and (9x9) near-king terms, Black's point of view.
    pub board: i32,
    /// Each colour's material (boards larger than 9x9 only; kings 0).
    pub material: [i32; 2],
}

impl BoardSum {
    #[inline(always)]
    pub fn add(&mut self, o: BoardSum) {
        self.board += o.board;
        self.material[0] += o.material[0];
        self.material[1] += o.material[1];
    }

    #[inline(always)]
    pub fn sub(&mut self, o: BoardSum) {
        self.board -= o.board;
        self.material[0] -= o.material[0];
        self.material[1] -= o.material[1];
    }
}

/// Lists features: what a tuner needs.
struct Collect(Vec<(u32, i32)>);

impl Sink for Collect {
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index as u32, count));
    }
}

/// A square seen from one side: rank counted from that side's far edge
/// (0 = the enemy's back rank), file mirrored onto one half.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    rank: i8,
    /// File from that side's point of view (0-based).
    file: i8,
    /// Mirrored file (0 = edge, half_files - 1 = centre).
    half: i8,
}

/// Tables for evaluating positions of one rule set.
#[derive(Debug)]
pub struct Evaluator<B: BitBoard> {
    rules: &'static Rules<B>,
    layout: Layout,
    weights: Vec<i32>,
    /// Board value of each kind for exchanges and ordering (kings: 0).
    value: Vec<i32>,
    /// `[color * squares + sq]`.
    seen: Vec<Seen>,
    /// The eight neighbours of each square.
    neighbours: Vec<B>,
    /// The squares within two king steps of each square.
    zone: Vec<B>,
    /// `[(color * kinds + kind) * squares + sq]`: material and square
    /// together, signed (Black +), for the fast path of [`Self::evaluate`].
    board: Vec<i32>,
    /// `[(color * squares + king) * squares + sq]`: the near-king offset index
    /// of a piece of `color` on `sq` from a king on `king`, or `u8::MAX`.
    near: Vec<u8>,
    /// `[king * squares + sq]`: king steps between the squares, capped.
    distance: Vec<u8>,
    /// A neural network that replaces the linear evaluation ([`Self::set_net`]).
    net: Option<Arc<Net>>,
}

impl<B: BitBoard> Evaluator<B> {
    /// Builds the tables for `rules` with the shipped parameters of its game
    /// and its shipped network, if it has one (a few milliseconds even for
    /// dai dai shogi).
    pub fn new(rules: &'static Rules<B>) -> Evaluator<B> {
        let mut e = Evaluator::linear(rules);
        e.net = shipped_net(rules);
        e
    }

    /// Builds the tables for `rules` with the shipped parameters of its
    /// game and no network: the tuned linear evaluation.
    pub fn linear(rules: &'static Rules<B>) -> Evaluator<B> {
        let mut e = Evaluator::untuned(rules);
        e.load(shipped_params(rules.variant.name));
        e
    }

    /// Makes `net` the network every later [`Evaluator::new`] of `rules`'
    /// game gets in this process (`None`: the linear evaluation alone), in
    /// place of the shipped one: what `banmen serve --eval-file` does. A net
    /// for another game or of other dimensions is refused and nothing changes.
    pub fn set_default_net(
        rules: &'static Rules<B>,
        net: Option<Arc<Net>>,
    ) -> Result<(), crate::nnue::NetError> {
        if let Some(n) = &net {
            n.check_for(rules)?;
        }
        let name = rules.variant.name;
        let mut cache = default_nets();
        cache.retain(|(n, _)| *n != name);
        cache.push((name, net));
        Ok(())
    }

    /// Whether `rules`' game has a shipped network.
    pub fn has_shipped_net(rules: &'static Rules<B>) -> bool {
        shipped_net_bytes(rules.variant.name).is_some()
    }

    /// Builds the tables with the initial parameters only (what tuning starts from).
    pub fn untuned(rules: &'static Rules<B>) -> Evaluator<B> {
        let g = rules.geometry;
        let squares = g.squares();
        let layout = Layout::new(rules);
        // Boards of at most 9x9 (shogi, minishogi) have shogi's piece values
        // and the joint tables: one square table per kind and the near-king
        // and distance features (`Layout::joint`; without the tables a 5x5
        // board indexed past them).
        let nine = layout.joint;
        // A fixed sparse filling: every third diagonal.
        let mut sparse = B::EMPTY;
        for sq in g.all() {
            if (g.file(sq) + g.rank(sq)) % 3 == 0 {
                sparse.set(sq);
            }
        }
        let mut value = vec![0i32; layout.kinds];
        for (k, info) in rules.kinds.iter().enumerate() {
            if info.royal {
                continue;
            }
            let known = STANDARD.iter().find(|(c, _)| *c == info.code).map(|p| p.1);
            value[k] = match known {
                Some(v) if nine => v,
                _ => {
                    let mut total = 0u32;
                    for sq in g.all() {
                        let kind = Kind(k as u8);
                        total += (rules.attacks(Color::Black, kind, sq, B::EMPTY)
                            & rules.board_mask())
                        .count();
                        total += (rules.attacks(Color::Black, kind, sq, sparse)
                            & rules.board_mask())
                        .count();
                    }
                    let mobility = total as f64 / (2 * squares) as f64;
                    (100.0 * mobility.max(0.5).powf(0.8)) as i32
                }
            };
        }
        let mut seen = vec![Seen::default(); 2 * squares];
        let half = layout.half_files as i32;
        for c in Color::ALL {
            for sq in g.all() {
                let (file, rank) = match c {
                    Color::Black => (g.file(sq) - 1, g.rank(sq)),
                    Color::White => (g.files as i32 - g.file(sq), g.ranks as i32 - 1 - g.rank(sq)),
                };
                let mirrored = file.min(g.files as i32 - 1 - file);
                seen[c.index() * squares + sq.index()] = Seen {
                    rank: rank as i8,
                    file: file as i8,
                    half: mirrored.min(half - 1) as i8,
                };
            }
        }
        let mut neighbours = Vec::with_capacity(squares);
        for sq in g.all() {
            let mut z = B::EMPTY;
            for df in -1..=1 {
                for dr in -1..=1 {
                    if (df, dr) == (0, 0) {
                        continue;
                    }
                    if let Some(t) = g.square(g.file(sq) + df, g.rank(sq) + dr) {
                        z.set(t);
                    }
                }
            }
            neighbours.push(z);
        }
        let mut zone = Vec::with_capacity(squares);
        for sq in g.all() {
            let mut z = B::EMPTY;
            for df in -2..=2 {
                for dr in -2..=2 {
                    if let Some(t) = g.square(g.file(sq) + df, g.rank(sq) + dr) {
                        z.set(t);
                    }
                }
            }
            zone.push(z);
        }
        let mut weights = vec![0i32; layout.len];
        let ranks = g.ranks as i32;
        for (k, info) in rules.kinds.iter().enumerate() {
            weights[layout.mat + k] = value[k];
            for r in 0..ranks {
                // Ranks advanced from the owner's back rank.
                let advance = ranks - 1 - r;
                for h in 0..half {
                    let off_centre = half - 1 - h;
                    let placement = if info.royal {
                        // A king is safest at home and off the centre file.
                        let home = if advance <= 1 { 25 } else { -8 * advance };
                        home + 3 * off_centre.min(3)
                    } else if value[k] < 450 && !info.promoted {
                        // Small pieces gain by advancing, up to the middle.
                        3 * advance.min(ranks / 2)
                    } else {
                        0
                    };
                    if layout.joint {
                        weights[layout.psq + k * layout.psq_per_kind + (r * half + h) as usize] =
                            placement;
                    } else if h == 0 {
                        // Separable tables: the rank part carries the placement.
                        weights[layout.psq + k * layout.psq_per_kind + r as usize] = placement;
                    }
                }
            }
            if !info.royal {
                for dr in -KING_REACH..=KING_REACH {
                    for df in 0..=KING_REACH {
                        let i = near_index(dr, df);
                        let close = dr.abs().max(df) <= 2;
                        weights[layout.kpo + k * NEAR + i] = if close { 8 } else { 0 };
                        weights[layout.kpe + k * NEAR + i] = if close { 20 } else { 0 };
                    }
                }
            }
        }
        for k in 0..layout.n_base {
            for n in 0..HAND_CAP {
                weights[layout.hand + k * HAND_CAP + n] = value[k] * HAND_BONUS_PERCENT / 100;
            }
        }
        weights[layout.tempo] = TEMPO;
        weights[layout.danger] = 1;
        // The near-king and distance features are of joint boards only.
        let table = if nine { squares * squares } else { 0 };
        let mut near = vec![u8::MAX; 2 * table];
        for c in Color::ALL.into_iter().filter(|_| nine) {
            for king in g.all() {
                let ks = seen[c.index() * squares + king.index()];
                for sq in g.all() {
                    let s = seen[c.index() * squares + sq.index()];
                    let dr = i32::from(s.rank) - i32::from(ks.rank);
                    let df = (i32::from(s.file) - i32::from(ks.file)).abs();
                    if dr.abs() <= KING_REACH && df <= KING_REACH {
                        near[(c.index() * squares + king.index()) * squares + sq.index()] =
                            near_index(dr, df) as u8;
                    }
                }
            }
        }
        let mut distance = vec![0u8; table];
        for king in g.all().filter(|_| nine) {
            for sq in g.all() {
                let d = (g.file(sq) - g.file(king))
                    .abs()
                    .max((g.rank(sq) - g.rank(king)).abs());
                distance[king.index() * squares + sq.index()] = d.min(DISTANCES as i32 - 1) as u8;
            }
        }
        let mut e = Evaluator {
            rules,
            layout,
            weights,
            value,
            seen,
            neighbours,
            zone,
            board: Vec::new(),
            near,
            distance,
            net: None,
        };
        e.refresh();
        e
    }

    /// Rebuilds the tables derived from the parameters.
    fn refresh(&mut self) {
        let l = self.layout;
        let squares = self.rules.geometry.squares();
        let ranks = self.rules.geometry.ranks as usize;
        self.board = vec![0; 2 * l.kinds * squares];
        for c in Color::ALL {
            let sign = if c == Color::Black { 1 } else { -1 };
            for k in 0..l.kinds {
                for sq in self.rules.geometry.all() {
                    let s = self.seen(c, sq);
                    let base = l.psq + k * l.psq_per_kind;
                    let placement = if l.joint {
                        self.weights[base + s.rank as usize * l.half_files + s.half as usize]
                    } else {
                        self.weights[base + s.rank as usize]
                            + self.weights[base + ranks + s.half as usize]
                    };
                    self.board[(c.index() * l.kinds + k) * squares + sq.index()] =
                        sign * (self.weights[l.mat + k] + placement);
                }
            }
        }
        for k in 0..l.kinds {
            if self.rules.kinds[k].royal {
                // Kings have no near-king features.
                for i in 0..NEAR {
                    self.weights[l.kpo + k * NEAR + i] = 0;
                    self.weights[l.kpe + k * NEAR + i] = 0;
                }
                for d in 0..DISTANCES {
                    self.weights[l.dist + k * DISTANCES + d] = 0;
                }
            } else {
                self.value[k] = self.weights[l.mat + k].max(10);
            }
        }
    }

    /// The rules these tables belong to.
    pub fn rules(&self) -> &'static Rules<B> {
        self.rules
    }

    /// The board value of a kind (0 for kings).
    #[inline(always)]
    pub fn value(&self, k: Kind) -> i32 {
        self.value[k.index()]
    }

    /// The value of a king for move ordering (captures of kings never happen).
    #[inline(always)]
    pub fn order_value(&self, k: Kind) -> i32 {
        if self.value[k.index()] == 0 {
            2000
        } else {
            self.value[k.index()]
        }
    }

    /// Evaluates with `net` from now on (`None`: the linear evaluation
    /// again). Piece values for exchanges and move ordering stay the
    /// linear evaluation's. A net for another game, or whose tables do not
    /// fit its own dimensions (its fields are public), is refused and the
    /// evaluation is left as it was.
    pub fn set_net(&mut self, net: Option<Arc<Net>>) -> Result<(), crate::nnue::NetError> {
        if let Some(n) = net.as_deref() {
            n.check_for(self.rules)?;
        }
        self.net = net;
        Ok(())
    }

    /// The network the evaluation uses, if any.
    pub fn net(&self) -> Option<&Net> {
        self.net.as_deref()
    }

    /// The score for the side to move of `pos` whose accumulators (both
    /// sides', as [`Net::refresh_both`] counts them) are `acc`: the net's
    /// output, plus dai dai shogi's mop-up.
    /// For a residual net, `linear` is the linear evaluation of `pos`
    /// (`None`: counted here).
    #[inline]
    pub fn evaluate_net(
        &self,
        net: &Net,
        pos: &Position<B>,
        acc: &[i16],
        linear: Option<i32>,
    ) -> i32 {
        let score = net.output(acc, pos.side_to_move());
        if net.residual {
            return score + linear.unwrap_or_else(|| self.evaluate_linear(pos));
        }
        if self.layout.joint {
            return score;
        }
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let mut material = [0i32; 2];
        for c in Color::ALL {
            let mut bb = pos.color_bb(c);
            while let Some(sq) = bb.pop() {
                material[c.index()] += self.value[pos.piece_at(sq).expect("occupied").kind.index()];
            }
        }
        let bonus = self.mop_up(pos, &kings, material);
        match pos.side_to_move() {
            Color::Black => score + bonus,
            Color::White => score - bonus,
        }
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        if let Some(net) = self.net.as_deref() {
            let mut acc = vec![0i16; 2 * net.hidden];
            net.refresh_both(pos, &mut acc);
            return self.evaluate_net(net, pos, &acc, None);
        }
        self.evaluate_linear(pos)
    }

    /// The linear evaluation of `pos` for the side to move (without a net).
    pub fn evaluate_linear(&self, pos: &Position<B>) -> i32 {
        self.evaluate_with(pos, self.board_sum(pos))
    }

    /// The board part of the evaluation (from Black's point of view), which
    /// a search keeps move by move ([`Self::move_delta`]): the square tables
    /// with the material, and with the joint tables (9x9) the pieces near
    /// either king; on larger boards also each side's material, which the
    /// dai dai mop-up reads.
    pub fn board_sum(&self, pos: &Position<B>) -> BoardSum {
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let mut sum = BoardSum::default();
        for c in Color::ALL {
            let mut bb = pos.color_bb(c);
            while let Some(sq) = bb.pop() {
                let k = pos.piece_at(sq).expect("occupied").kind;
                sum.add(self.piece_sum(c, k, sq, &kings));
            }
        }
        sum
    }

    /// How a move changes [`Self::board_sum`], asked before it is made:
    /// `None` when the whole sum must be counted again after it (with the
    /// joint tables a king move, which moves every piece's near-king
    /// features, or a lion's double move).
    #[inline]
    pub fn move_delta(&self, pos: &Position<B>, m: Move) -> Option<BoardSum> {
        let us = pos.side_to_move();
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let to = m.to();
        if let Some(k) = m.dropped() {
            return Some(self.piece_sum(us, k, to, &kings));
        }
        let from = m.from()?;
        let piece = pos.piece_at(from)?;
        if self.layout.joint && (m.mid().is_some() || self.rules.kinds[piece.kind.index()].royal) {
            return None;
        }
        let kind = if m.is_promotion() {
            self.rules.kind(piece.kind).promotes_to?
        } else {
            piece.kind
        };
        let mut d = self.piece_sum(us, kind, to, &kings);
        d.sub(self.piece_sum(us, piece.kind, from, &kings));
        // Every square the move names other than its start loses what stood
        // there (a lion's igui ends on its start: from = to).
        let named = [m.mid(), m.mid2(), Some(to)];
        for (i, sq) in named.iter().enumerate() {
            let Some(sq) = *sq else { continue };
            if sq == from || named[..i].contains(&Some(sq)) {
                continue;
            }
            if let Some(victim) = pos.piece_at(sq) {
                d.sub(self.piece_sum(victim.color, victim.kind, sq, &kings));
            }
        }
        Some(d)
    }

    /// The evaluation of `pos` for the side to move, given its
    /// [`Self::board_sum`]: the hands, the king danger, the move and dai
    /// dai shogi's mop-up added.
    #[inline]
    pub fn evaluate_with(&self, pos: &Position<B>, board: BoardSum) -> i32 {
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let mut sum = Sum {
            weights: &self.weights,
            total: board.board,
        };
        self.hand_features(pos, &kings, &mut sum);
        self.danger_feature(pos, &kings, &mut sum);
        if !self.layout.joint {
            sum.total += self.mop_up(pos, &kings, board.material);
        }
        match pos.side_to_move() {
            Color::Black => sum.total,
            Color::White => -sum.total,
        }
    }

    /// One piece's share of [`Self::board_sum`].
    #[inline(always)]
    fn piece_sum(&self, c: Color, kind: Kind, sq: Square, kings: &[Option<Square>; 2]) -> BoardSum {
        if self.layout.joint {
            return BoardSum {
                board: self.piece_term(c, kind, sq, kings),
                material: [0; 2],
            };
        }
        let squares = self.rules.geometry.squares();
        let k = kind.index();
        let mut material = [0; 2];
        material[c.index()] = self.value[k];
        BoardSum {
            board: self.board[(c.index() * self.layout.kinds + k) * squares + sq.index()],
            material,
        }
    }

    /// One piece's share of [`Self::board_sum`]: its square table (material
    /// included) and its features near its own and the enemy king.
    #[inline(always)]
    fn piece_term(&self, c: Color, kind: Kind, sq: Square, kings: &[Option<Square>; 2]) -> i32 {
        let l = &self.layout;
        let squares = self.rules.geometry.squares();
        let k = kind.index();
        let mut near = 0;
        if let Some(own) = kings[c.index()] {
            let i = self.near[(c.index() * squares + own.index()) * squares + sq.index()];
            if i != u8::MAX {
                near += self.weights[l.kpo + k * NEAR + i as usize];
            }
        }
        if let Some(enemy) = kings[(!c).index()] {
            let i = self.near[(c.index() * squares + enemy.index()) * squares + sq.index()];
            if i != u8::MAX {
                near += self.weights[l.kpe + k * NEAR + i as usize];
            }
            let d = self.distance[enemy.index() * squares + sq.index()];
            near += self.weights[l.dist + k * DISTANCES + d as usize];
        }
        let sign = if c == Color::Black { 1 } else { -1 };
        self.board[(c.index() * l.kinds + k) * squares + sq.index()] + sign * near
    }

    /// Dai dai shogi's mop-up, from Black's point of view: when one side
    /// leads by [`MOPUP_LEAD`] or more and the other has at most
    /// [`MOPUP_SHARE`] of its material, the stronger side gains for each
    /// of its pieces (its king left out) near the weaker king, for each
    /// square that king could no longer step to, and as the weaker side's
    /// material falls further ([`MOPUP_TRADE`]). Such a game is won but long
    /// to end on 17x17 (games reached 800 plies with a lone king left);
    /// before it, the evaluation is the linear one. Not a linear feature:
    /// the tuner does not see it. `material` is each colour's (kings 0).
    fn mop_up(&self, pos: &Position<B>, kings: &[Option<Square>; 2], material: [i32; 2]) -> i32 {
        let lead = material[0] - material[1];
        let strong = if lead >= 0 {
            Color::Black
        } else {
            Color::White
        };
        let weak = !strong;
        let (n, d) = MOPUP_SHARE;
        if lead.abs() < MOPUP_LEAD || material[weak.index()] * d > material[strong.index()] * n {
            return 0;
        }
        let Some(ksq) = kings[weak.index()] else {
            return 0;
        };
        let g = self.rules.geometry;
        let (kf, kr) = (g.file(ksq), g.rank(ksq));
        let mut near = 0;
        let mut bb = pos.color_bb(strong);
        if let Some(own) = kings[strong.index()] {
            bb &= !B::from_square(own);
        }
        while let Some(sq) = bb.pop() {
            let d = (g.file(sq) - kf).abs().max((g.rank(sq) - kr).abs());
            near += (MOPUP_REACH - d).max(0);
        }
        let occ = pos.occupied();
        let mut escape = 0;
        let mut steps = self.neighbours[ksq.index()] & !pos.color_bb(weak);
        while let Some(sq) = steps.pop() {
            if pos.attackers_to(sq, strong, occ).is_empty() {
                escape += 1;
            }
        }
        // The weaker side's material below the share (n/d) of the stronger
        // side's at which the mop-up starts, as a fraction of that share.
        let share = i64::from(material[strong.index()]) * i64::from(n);
        let below = share - i64::from(material[weak.index()]) * i64::from(d);
        let trade = (i64::from(MOPUP_TRADE) * below / share.max(1)) as i32;
        let bonus = near * MOPUP_NEAR - escape * MOPUP_ESCAPE + trade;
        if strong == Color::Black {
            bonus
        } else {
            -bonus
        }
    }

    /// The features of `pos` as (parameter index, count) pairs, counts from
    /// Black's point of view: `evaluate` is their dot product with
    /// [`Self::weights`], negated when White is to move.
    pub fn features(&self, pos: &Position<B>) -> Vec<(u32, i32)> {
        let mut c = Collect(Vec::with_capacity(160));
        self.accumulate(pos, &mut c);
        c.0
    }

    /// The parameters.
    pub fn weights(&self) -> &[i32] {
        &self.weights
    }

    /// The name of every parameter, in order (`mat P`, `psq G 23`, `hand R 1`...).
    pub fn names(&self) -> Vec<String> {
        let l = &self.layout;
        let code = |k: usize| self.rules.kinds[k].code.clone();
        let mut names = vec![String::new(); l.len];
        for k in 0..l.kinds {
            names[l.mat + k] = format!("mat {}", code(k));
            for i in 0..l.psq_per_kind {
                names[l.psq + k * l.psq_per_kind + i] = if l.joint {
                    format!("psq {} {i}", code(k))
                } else if i < self.rules.geometry.ranks as usize {
                    format!("rank {} {i}", code(k))
                } else {
                    format!(
                        "file {} {}",
                        code(k),
                        i - self.rules.geometry.ranks as usize
                    )
                };
            }
            for i in 0..NEAR {
                names[l.kpo + k * NEAR + i] = format!("kpo {} {i}", code(k));
                names[l.kpe + k * NEAR + i] = format!("kpe {} {i}", code(k));
            }
            for d in 0..DISTANCES {
                names[l.dist + k * DISTANCES + d] = format!("dist {} {d}", code(k));
            }
        }
        for k in 0..l.n_base {
            for n in 0..HAND_CAP {
                names[l.hand + k * HAND_CAP + n] = format!("hand {} {n}", code(k));
            }
            names[l.handx + k] = format!("handx {}", code(k));
        }
        names[l.tempo] = "tempo".to_string();
        names[l.danger] = "danger".to_string();
        names
    }

    /// Replaces the parameters with those `text` names (`name value` lines;
    /// `#` starts a comment; unknown names are skipped). Returns how many were set.
    pub fn load(&mut self, text: &str) -> usize {
        let names = self.names();
        let index: std::collections::HashMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut set = 0;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some((name, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let (Some(&i), Ok(v)) = (index.get(name.trim()), value.parse::<i32>()) else {
                continue;
            };
            self.weights[i] = v;
            set += 1;
        }
        self.refresh();
        set
    }

    /// Replaces every parameter (a tuner's result), keeping exchange values in step.
    pub fn set_weights(&mut self, weights: &[i32]) {
        assert_eq!(weights.len(), self.weights.len(), "parameter count");
        self.weights.copy_from_slice(weights);
        self.refresh();
    }

    #[inline(always)]
    fn seen(&self, c: Color, sq: Square) -> Seen {
        self.seen[c.index() * self.rules.geometry.squares() + sq.index()]
    }

    fn accumulate<S: Sink>(&self, pos: &Position<B>, sink: &mut S) {
        let l = &self.layout;
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let mut occ = pos.occupied();
        while let Some(sq) = occ.pop() {
            let p = pos.piece_at(sq).expect("occupied");
            let c = p.color;
            let sign = if c == Color::Black { 1 } else { -1 };
            let k = p.kind.index();
            let s = self.seen(c, sq);
            sink.add(l.mat + k, sign);
            if l.joint {
                let i = s.rank as usize * l.half_files + s.half as usize;
                sink.add(l.psq + k * l.psq_per_kind + i, sign);
            } else {
                let ranks = self.rules.geometry.ranks as usize;
                sink.add(l.psq + k * l.psq_per_kind + s.rank as usize, sign);
                sink.add(l.psq + k * l.psq_per_kind + ranks + s.half as usize, sign);
            }
            if self.rules.kinds[k].royal || !l.joint {
                continue;
            }
            if let Some(ksq) = kings[(!c).index()] {
                let d = self.distance[ksq.index() * self.rules.geometry.squares() + sq.index()];
                sink.add(l.dist + k * DISTANCES + d as usize, sign);
            }
            for (base, king) in [(l.kpo, kings[c.index()]), (l.kpe, kings[(!c).index()])] {
                if let Some(ksq) = king {
                    let ks = self.seen(c, ksq);
                    let dr = i32::from(s.rank) - i32::from(ks.rank);
                    let df = (i32::from(s.file) - i32::from(ks.file)).abs();
                    if dr.abs() <= KING_REACH && df <= KING_REACH {
                        sink.add(base + k * NEAR + near_index(dr, df), sign);
                    }
                }
            }
        }
        self.hand_features(pos, &kings, sink);
        self.danger_feature(pos, &kings, sink);
    }

    /// On boards larger than 9x9, where the near-king features are too thin
    /// for the few positions that reach a king: the danger of each king from
    /// enemy pieces within two steps (growing with their square) less own
    /// pieces there, as one feature whose count is that danger.
    #[inline(always)]
    fn danger_feature<S: Sink>(
        &self,
        pos: &Position<B>,
        kings: &[Option<Square>; 2],
        sink: &mut S,
    ) {
        if self.layout.joint {
            return;
        }
        let mut count = 0;
        for c in Color::ALL {
            let Some(k) = kings[c.index()] else { continue };
            let zone = self.zone[k.index()];
            let attackers = (pos.color_bb(!c) & zone).count() as i32;
            let defenders = (pos.color_bb(c) & zone).count() as i32 - 1;
            let danger = attackers * (12 + 6 * attackers) - 8 * defenders.min(6);
            count -= if c == Color::Black { danger } else { -danger };
        }
        if count != 0 {
            sink.add(self.layout.danger, count);
        }
    }

    /// The features of the hands and the move.
    #[inline(always)]
    fn hand_features<S: Sink>(&self, pos: &Position<B>, kings: &[Option<Square>; 2], sink: &mut S) {
        let l = &self.layout;
        if self.rules.variant.drops {
            for c in Color::ALL {
                let sign = if c == Color::Black { 1 } else { -1 };
                let open = kings[(!c).index()].map_or(0, |ksq| {
                    (self.neighbours[ksq.index()] & !pos.occupied()).count() as i32
                });
                for k in 0..l.n_base {
                    let n = pos.hand_count(c, Kind(k as u8)) as usize;
                    for i in 0..n.min(HAND_CAP) {
                        sink.add(l.hand + k * HAND_CAP + i, sign);
                    }
                    if n > 0 && open > 0 {
                        sink.add(l.handx + k, sign * n.min(2) as i32 * open);
                    }
                }
            }
        }
        let tempo = if pos.side_to_move() == Color::Black {
            1
        } else {
            -1
        };
        sink.add(l.tempo, tempo);
    }
}

/// Index of a (rank offset, mirrored file offset) pair near a king.
#[inline(always)]
fn near_index(dr: i32, df: i32) -> usize {
    ((dr + KING_REACH) * (KING_REACH + 1) + df) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use banmen_rules::{rules_17x17_with, rules_9x9, rules_for, with_rules, SfenMode, VariantName};

    fn dot(e: &Evaluator<impl BitBoard>, f: &[(u32, i32)]) -> i32 {
        f.iter().map(|&(i, c)| c * e.weights()[i as usize]).sum()
    }

    #[test]
    fn start_positions_are_balanced() {
        for name in [VariantName::Shogi, VariantName::CannonShogi] {
            let rules = rules_9x9(name).unwrap();
            let e = Evaluator::linear(rules);
            let pos = Position::from_sfen(rules, "startpos", SfenMode::Strict).unwrap();
            let tempo = e.weights()[e.layout.tempo];
            assert_eq!(e.evaluate(&pos), tempo, "{name}");
            let white = Position::from_sfen(
                rules,
                &pos.to_sfen().replacen(" b ", " w ", 1),
                SfenMode::Strict,
            )
            .unwrap();
            assert_eq!(e.evaluate(&white), tempo, "{name}, White to move");
        }
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let e = Evaluator::linear(rules);
        let pos = Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).unwrap();
        assert_eq!(e.evaluate(&pos), e.weights()[e.layout.tempo]);
    }

    #[test]
    fn evaluation_is_the_dot_product_of_the_features() {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let e = Evaluator::linear(rules);
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GSr2p 1",
            "ln1g3nl/1r1sk1g2/p1ppppsp1/1p4p1p/9/2P1P1PPP/PPBP1P3/2GK3R1/LNS2GSNL b B 1",
        ] {
            let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
            let black = dot(&e, &e.features(&pos));
            let side = if pos.side_to_move() == Color::Black {
                black
            } else {
                -black
            };
            assert_eq!(e.evaluate(&pos), side, "{sfen}");
        }
    }

    /// Random playouts of every game: the fast path and the feature list agree.
    #[test]
    fn fast_path_agrees_with_the_features_in_every_game() {
        fn check<B: BitBoard>(rules: &'static Rules<B>, seed: u64) {
            let mut e = Evaluator::linear(rules);
            // Non-zero parameters everywhere, so every feature matters.
            let w: Vec<i32> = (0..e.weights().len() as i32).map(|i| i % 97 - 40).collect();
            e.set_weights(&w);
            let mut rng = banmen_rules::testing::XorShift::new(seed);
            let mut pos =
                Position::from_sfen(rules, rules.variant.start_sfen, SfenMode::Strict).unwrap();
            for _ in 0..120 {
                let black = dot(&e, &e.features(&pos));
                let side = if pos.side_to_move() == Color::Black {
                    black
                } else {
                    -black
                };
                assert_eq!(e.evaluate(&pos), side, "{}", pos.to_sfen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // The board sum kept move by move (as the search keeps it)
                // equals the one counted afresh, after every legal move.
                // In dai dai shogi every move's delta is known (lion
                // moves and igui included).
                let sum = e.board_sum(&pos);
                assert_eq!(e.evaluate_with(&pos, sum), e.evaluate(&pos));
                for &m in moves.iter() {
                    let after = pos.after(m);
                    let fresh = e.board_sum(&after);
                    match e.move_delta(&pos, m) {
                        Some(d) => {
                            let mut kept = sum;
                            kept.add(d);
                            assert_eq!(kept, fresh, "{} in {}", pos.move_to_usi(m), pos.to_sfen());
                        }
                        None => assert!(rules.geometry.files <= 9, "{}", pos.move_to_usi(m)),
                    }
                }
                let m = moves[rng.below(moves.len())];
                pos.make_move(m);
            }
        }
        check(rules_9x9(VariantName::Shogi).unwrap(), 1);
        check(rules_9x9(VariantName::CannonShogi).unwrap(), 2);
        check(rules_9x9(VariantName::MiniShogi).unwrap(), 4);
        check(rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap(), 3);
    }

    /// Dai dai shogi's lion moves (a capture on the way then a step, two
    /// captures, igui with a promotion) change the board sum as a fresh
    /// count says: positions of session 14's games, every legal move.
    #[test]
    fn dai_dai_lion_moves_keep_the_board_sum() {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let e = Evaluator::linear(rules);
        let mut doubles = 0;
        for sfen in [
            "lahm1rosqdkftrg1kgfkfrdhra2la/rvpodv1fdrbkrggnklgphcs2ln1rv/1bildebbmfh1sggdsggg4WT1/wtwesoeawgsnigcggbcgigsnwg3bd/rcsmvoabewvbfl3flvbewab2sm/1papapapapapapa1papapapa3ef/pa12pa3/8sb8/6st6ps3/8WG8/PA4PAPAFL5PAPA2/1PAPAPAPAEW1PAPAPAPA3VO2/LCSMVOAB3STSBST1WG1AB3/BDFENOWR1SNIGCGGBCGIGSNFDEBSOPO1/SDVMOKPSORWB1SGGDSGGGFHBM1HM2/RVLOLN2CSPHGGNK1KRRB2BI1RV/LA2RADHFRFKLGKGRGFTDKSQRO2LA w - 178",
            "lahm1rosqdkft2kgfk1dh4/rvpodv1fdrbkrrg1lgphcs5/1bildebbmfhggsg1gdgg6/wtwesoeawgsnigcg2igsn5/rcsmvoabewvbfl1cg1fl6/1papapapapapapa1pa1pa2ab2/pa12WG3/16RO/10pa6/14+ln2/PA4PAEWFL1PA3PA2DK/1PAPAPAPA2PAPASTPA2EB3/LCSMVOAB1PS1ST2SNFT5/BDFENOWR1SNIGCGGBCGIG6/SDVMOK1ORWB1SGGDSG7/RVLOLN2CSPHGGNKRGKR2BMBI2/LA2RADHFRFKLGKG4+SO3 w - 310",
            "lahm1rosqdkftrg1kgfkfrdhra2la/rvpo2fd1krggnklgphcs4rv/1bi1ebbmfhrbsggdsgggwbps2vm1/wtwedvea2igcg1cgigsnwg2bd1/rc+soldabew1sn1sbstflvb1WGsm2/papavopapapa2pa1papapa4/2pa3pa2pa7/17/17/8ST2PA1ew3/PA3PAPA4PA4WT1/1PAPAPA1EWPASBPAPA1EAPA1+lnPA1/LCSMVOAB2FL2ST3AB1SM1/BDFENOWRWGSNIGCGGBCGIGSN1EBSOWE1/SDVMOKEFORWBGGSGGDSGGGFHBMFD1BI1/RVLOLN1PSCSPHKGNKRGKR4PO1/LA2RADHFRFKLG1FTRBDKSQRO3 w - 206",
        ] {
            let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
            let sum = e.board_sum(&pos);
            for m in pos.legal_moves() {
                let after = pos.after(m);
                let mut kept = sum;
                kept.add(e.move_delta(&pos, m).expect("every dai dai move has a delta"));
                assert_eq!(kept, e.board_sum(&after), "{}", pos.move_to_usi(m));
                assert_eq!(e.evaluate_with(&after, kept), e.evaluate(&after));
                doubles += usize::from(m.mid().and_then(|x| pos.piece_at(x)).is_some());
            }
        }
        // Captures on a lion's intermediate square were among them.
        assert!(doubles >= 20, "{doubles}");
    }

    /// Dai dai shogi's mop-up: against a lone king, a free king brought next
    /// to it scores more than one far away; with material level there is none.
    #[test]
    fn dai_dai_mop_up_brings_pieces_to_a_lone_king() {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let e = Evaluator::linear(rules);
        let mop = |sfen: &str| {
            let pos = Position::from_sfen(rules, sfen, SfenMode::Strict).unwrap();
            e.evaluate(&pos) - dot(&e, &e.features(&pos))
        };
        let rows = |a: &str, c: &str, q: &str| {
            let mut r = vec!["17"; 17];
            r[0] = a;
            r[2] = c;
            r[16] = q;
            format!("{} b - 1", r.join("/"))
        };
        let far = mop(&rows("8kg8", "17", "FK7KG7FK"));
        let near = mop(&rows("8kg8", "9FK7", "8KG7FK"));
        // A bare king: the trade term in full.
        assert!(
            far - MOPUP_TRADE < 0,
            "a free king far away leaves the king its squares: {far}"
        );
        assert!(near > far + 20, "{near} against {far}");
        assert_eq!(mop(&rows("8kg7fk", "17", "FK7KG7FK")), 0);
        // The stronger king does not walk to the weaker one for the mop-up.
        let mut r = vec!["17"; 17];
        r[0] = "8kg8";
        r[14] = "8KG8";
        r[16] = "FK15FK";
        assert_eq!(mop(&format!("{} b - 1", r.join("/"))), far);
        // The less the weaker side keeps, the more the mop-up pays (an iron
        // general far from its king, which takes no square from it; a pawn,
        // which the mop-up counts at the floor of 10 since generation 4's
        // values put it at -1, moves it too little to tell; with generation
        // 5's values a gold (266) against two free kings (1629 each) leaves
        // a lead of 2992, short of the mop-up's 3000).
        let with_iron = mop(&rows("8kg7ig", "17", "FK7KG7FK"));
        assert!(
            with_iron > 0 && far > with_iron + 50,
            "{with_iron} against {far}"
        );
    }

    #[test]
    fn parameters_load_by_name() {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let mut e = Evaluator::untuned(rules);
        let names = e.names();
        assert_eq!(names.len(), e.weights().len());
        let set = e.load("# a comment\nmat R 999\nnonsense 5\ntempo 7 # why\nmat G x\n");
        assert_eq!(set, 2);
        assert_eq!(e.value(rules.kind_by_code("R").unwrap()), 999);
        assert_eq!(e.weights()[e.layout.tempo], 7);
    }

    /// Every line of every shipped parameter file names a parameter of its
    /// game (a renamed feature or a typo would silently leave a value out).
    #[test]
    fn shipped_parameters_all_apply() {
        for name in VariantName::ALL {
            let text = shipped_params(name);
            let lines = text
                .lines()
                .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
                .count();
            let set =
                with_rules!(rules_for(name, "").unwrap(), r => Evaluator::untuned(r).load(text));
            assert_eq!(set, lines, "{name}");
        }
        // Dai dai shogi's tuned values differ from the initial ones.
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let (tuned, initial) = (Evaluator::linear(rules), Evaluator::untuned(rules));
        assert_ne!(tuned.weights(), initial.weights());
    }

    #[test]
    fn mobility_values_are_ordered() {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let e = Evaluator::untuned(rules);
        let value = |code: &str| e.value(rules.kind_by_code(code).unwrap());
        assert!(value("PA") < value("GG"));
        assert!(value("GG") < value("RO"));
        assert!(value("RO") < value("FK"));
    }

    /// Dai dai shogi's fitted pawn value is below 0 (generation 4: -1;
    /// generation 5 fitted -19 and was held at -1, as this test asks);
    /// a pawn on its start square is still worth more than none (its rank
    /// table), and exchanges and the mop-up count it at the floor of 10.
    #[test]
    fn a_dai_dai_pawn_still_counts() {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").unwrap();
        let e = Evaluator::linear(rules);
        let pawn = rules.kinds.iter().position(|k| k.code == "PA").unwrap();
        assert_eq!(e.value[pawn], e.weights()[e.layout.mat + pawn].max(10));
        assert!(e.value[pawn] >= 10);
        let mut r = vec!["17"; 17];
        r[0] = "8kg8";
        r[16] = "8KG8";
        let bare = Position::from_sfen(rules, &format!("{} b - 1", r.join("/")), SfenMode::Strict)
            .unwrap();
        r[11] = "PA16";
        let pawn_up =
            Position::from_sfen(rules, &format!("{} b - 1", r.join("/")), SfenMode::Strict)
                .unwrap();
        assert!(
            e.evaluate(&pawn_up) > e.evaluate(&bare),
            "{} against {}",
            e.evaluate(&pawn_up),
            e.evaluate(&bare)
        );
    }

    #[test]
    fn a_piece_up_scores_higher() {
        let rules = rules_9x9(VariantName::Shogi).unwrap();
        let e = Evaluator::linear(rules);
        let even =
            Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b - 1", SfenMode::Strict).unwrap();
        let rook_up =
            Position::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b R 1", SfenMode::Strict).unwrap();
        assert!(e.evaluate(&rook_up) > e.evaluate(&even) + 500);
    }
}
