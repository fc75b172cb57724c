//! A [`Variant`] compiled into attack tables for one board type.
//!
//! Built once per variant and kept for the life of the process (`&'static`), so
//! positions carry a plain reference.

use crate::bitboard::{Bb128, Bb320, BitBoard};
use crate::movement::{parse_betza, Atom, Modality};
use crate::piece::{Color, Kind};
use crate::position::HAND_KEYS;
use crate::square::{Geometry, Square};
use crate::variant::RulesError;
use crate::variant::{PieceNames, PromotionRule, Variant, VariantName};
use std::sync::Mutex;

/// The eight line directions as (file delta, rank delta) on the board.
/// Rank delta -1 is toward rank `a` (Black's forward).
pub(crate) const DIRS: [(i32, i32); 8] = [
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (-1, -1),
    (1, 1),
    (-1, 1),
];

/// The opposite of each direction in [`DIRS`].
pub(crate) const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

/// [`Rules::direction`] entry for squares not on one line.
pub(crate) const NO_DIRECTION: u8 = 8;

/// Facts about one piece kind, base or promoted ([`Rules::kind`]).
///
/// ```
/// use banmen_rules::{rules_9x9, KindInfo, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let rook = rules.kind_by_code("R").unwrap();
/// let dragon: &KindInfo = rules.kind(rules.kind(rook).promotes_to.unwrap());
/// assert_eq!((dragon.code.as_str(), dragon.name, dragon.western.as_str()), ("+R", "dragon", "+R"));
/// assert_eq!((dragon.names.japanese, dragon.names.csa), ("龍", Some("RY")));
/// assert!(dragon.promoted && !dragon.royal);
/// assert_eq!((dragon.base, dragon.impasse_points), (rook, 5));
/// ```
#[derive(Clone, Debug)]
pub struct KindInfo {
    /// SFEN token: `P`, `+P`, `LN`, `+LN`.
    pub code: String,
    /// English name.
    pub name: &'static str,
    /// Western letters: `P`, `+R`, `GC`, `+GC`, `LN`, `+LN`.
    pub western: String,
    /// Japanese name, board form and CSA code.
    pub names: PieceNames,
    /// The base type this kind is or was.
    pub base: Kind,
    /// Whether this is a promoted form.
    pub promoted: bool,
    /// The kind it promotes to, if any.
    pub promotes_to: Option<Kind>,
    /// Whether it is royal.
    pub royal: bool,
    /// Impasse points.
    pub impasse_points: u8,
}

/// A line movement of one kind for one colour: a slide or a hop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineMove {
    pub dir: u8,
    /// 0 = unlimited.
    pub range: u8,
    pub modality: Modality,
    pub hop: bool,
}

/// A kind's slide and hop along one direction, merged so that one walk serves
/// both. Modality bits: 1 = to empty squares, 2 = captures; ranges 0 = unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineDir {
    pub dir: u8,
    pub slide: u8,
    pub slide_range: u8,
    pub hop: u8,
    pub hop_range: u8,
}

/// The table look-ups of one movement class for one colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClassInfo<B> {
    /// Where the class's steps start in `Rules::shift_steps`, and how many
    /// there are: 0 unless the class only steps, and by the same pattern from
    /// every square (cut at the edges), so that its moves can be counted a
    /// whole set at a time by shifting the set.
    pub shift_from: u16,
    pub shift_len: u8,
    /// Offset of the class's step table (`ck * squares`).
    pub step_base: usize,
    /// Directions of unlimited slides (bit `d`: direction `d`).
    pub slide_mask: u8,
    /// Whether the class may promote.
    pub promotes: bool,
    /// Squares it may not move to without promoting (dead-piece rule), or empty.
    pub dead: B,
}

/// Attack tables for one variant on one board type, with the variant and
/// its kinds. Get one from [`rules_9x9`], [`rules_9x9_with`],
/// [`rules_17x17_with`] or [`rules_for`], which compile each rule set once.
///
/// ```
/// use banmen_rules::{rules_9x9, Bb128, BitBoard, Color, Geometry, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// assert_eq!(rules.geometry, Geometry::NINE);
/// assert_eq!((rules.n_base, rules.kind_count()), (8, 14));
/// let rook = rules.kind_by_code("R").unwrap();
/// let center = rules.geometry.parse_square("5e").unwrap();
/// let on_empty_board = rules.attacks(Color::Black, rook, center, Bb128::EMPTY);
/// assert_eq!(on_empty_board.count(), 16);
/// ```
#[derive(Debug)]
pub struct Rules<B: BitBoard> {
    /// The variant these tables were made from.
    pub variant: Variant,
    /// Board size.
    pub geometry: Geometry,
    /// Every kind, base types first.
    pub kinds: Vec<KindInfo>,
    /// Number of base types (= hand slots).
    pub n_base: usize,
    pub(crate) squares: usize,
    pub(crate) board: B,
    pub(crate) delta: [i32; 8],
    pub(crate) ray: Vec<B>,
    /// Per square: the union of its eight rays (a quick test for alignment).
    pub(crate) star: Vec<B>,
    /// `between[a * S + b]`: squares strictly between two aligned squares.
    pub(crate) between: Vec<B>,
    /// `direction[a * S + b]`: the direction from `a` toward `b`, or [`NO_DIRECTION`].
    pub(crate) direction: Vec<u8>,
    /// `line[a * S + b]`: the whole line through two aligned squares.
    pub(crate) line: Vec<B>,
    /// `[(color * K + kind) * S + sq]`: leaps that move and capture.
    pub(crate) step: Vec<B>,
    pub(crate) step_move: Vec<B>,
    pub(crate) step_capture: Vec<B>,
    /// `[color * K + kind]`: directions of unlimited slides that move and capture.
    pub(crate) slide_mask: Vec<u8>,
    /// `[color * K + kind]`: limited or restricted slides, and hops.
    pub(crate) line_moves: Vec<Vec<LineMove>>,
    /// `[color * K + kind]`: `line_moves` merged per direction.
    pub(crate) line_dirs: Vec<Vec<LineDir>>,
    /// `[(dir * S + sq) * (R + 1) + n]`: the first `n` squares of a ray.
    pub(crate) ray_within: Vec<B>,
    pub(crate) max_range: usize,
    /// `[color * K + kind]`: whether the kind has move-only or capture-only leaps.
    pub(crate) restricted_leaps: Vec<bool>,
    /// `[color * K + kind]`: whether the kind has the lion's double moves.
    pub(crate) lion: Vec<bool>,
    /// `[color * K + kind]`: whether the kind has the Japanese lion dog's line moves.
    pub(crate) lion_line: Vec<bool>,
    /// `[color * K + kind]`: hook moves, bit 0 orthogonal, bit 1 diagonal.
    pub(crate) hook: Vec<u8>,
    /// Per square, every square from which some kind's capturing leap reaches it.
    pub(crate) leap_sources: Vec<B>,
    /// `[(color * K + kind) * 8 + dir]`: how far the kind captures by sliding
    /// along a board direction (0: not at all, 255: without limit).
    pub(crate) slide_reach: Vec<u8>,
    /// The same for capturing hops (total distance).
    pub(crate) hop_reach: Vec<u8>,
    /// Whether any kind hops.
    pub(crate) any_hop: bool,
    /// `distance[a * S + b]`: king-step distance between two squares.
    pub(crate) distance_table: Vec<u8>,
    /// King-step neighbours of each square.
    pub(crate) neighbours: Vec<B>,
    /// Whether pieces promote on capture (dai dai shogi) rather than in a zone.
    pub(crate) promote_on_capture: bool,
    /// Whether any kind has hook moves (then legality is tested in full).
    pub(crate) any_hook: bool,
    /// Whether every movement is a plain leap or unlimited slide that moves and
    /// captures: then pins and checks decide legality without making the move.
    pub(crate) simple: bool,
    /// Kinds (per colour) that slide without limit in each board direction,
    /// moving and capturing (the plain-slider path's pins and checks).
    pub(crate) dir_sliders: [[Vec<Kind>; 8]; 2],
    /// Non-royal kinds grouped by identical movement and promotion behaviour
    /// (gold and the pieces that move as gold), with a representative.
    pub(crate) move_classes: Vec<(Vec<Kind>, Kind)>,
    /// Per colour, per movement class: what the simple generator looks up for
    /// every piece of the class, gathered in one place.
    pub(crate) class_info: [Vec<ClassInfo<B>>; 2],
    /// The steps of shift-countable classes: (index difference, squares the
    /// step starts from without leaving the board). See [`ClassInfo::shift_len`].
    pub(crate) shift_steps: Vec<(i32, B)>,
    /// Whether positions keep `KindSets` (plain-slider variants whose groups
    /// and classes fit).
    pub(crate) incremental: bool,
    /// Per kind: its index in `step_groups` (`u8::MAX`: none).
    pub(crate) group_of: Vec<u8>,
    /// Per kind: its index in `move_classes` (`u8::MAX`: the king).
    pub(crate) class_of: Vec<u8>,
    /// Per colour and group: the offset of the group's reverse leap table.
    pub(crate) group_offset: [Vec<usize>; 2],
    /// Groups of kinds with identical capturing leaps, with a representative.
    pub(crate) step_groups: Vec<(Vec<Kind>, Kind)>,
    /// Promotion zone per colour.
    pub(crate) zone: [B; 2],
    /// `[color * K + kind]`: squares where the kind could never move again.
    pub(crate) dead: Vec<B>,
    /// The file containing each square.
    pub(crate) file_mask: Vec<B>,
    pub(crate) royal: Option<Kind>,
    pub(crate) pawn: Option<Kind>,
    pub(crate) zobrist_board: Vec<u64>,
    pub(crate) zobrist_hand: [Vec<u64>; 2],
    pub(crate) zobrist_side: u64,
}

/// Groups kinds whose leap tables (for both colours) are identical.
fn leap_groups<B: BitBoard>(table: &[B], nk: usize, s: usize) -> Vec<(Vec<Kind>, Kind)> {
    let slice = |k: usize| {
        (
            &table[k * s..(k + 1) * s],
            &table[(nk + k) * s..(nk + k + 1) * s],
        )
    };
    let mut groups: Vec<(Vec<Kind>, Kind)> = Vec::new();
    for k in 0..nk {
        if slice(k).0.iter().all(B::is_empty) {
            continue;
        }
        match groups
            .iter_mut()
            .find(|(_, rep)| slice(rep.index()) == slice(k))
        {
            Some((members, _)) => members.push(Kind(k as u8)),
            None => groups.push((vec![Kind(k as u8)], Kind(k as u8))),
        }
    }
    groups
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl<B: BitBoard> Rules<B> {
    /// Compiles a variant. Panics if the variant's own data is inconsistent
    /// (a bad Betza string in a built-in table is a programming error).
    pub fn new(variant: Variant) -> Rules<B> {
        let g = variant.geometry;
        let s = g.squares();
        assert!(s <= B::CAPACITY, "board does not fit the bitboard");
        let h = g.ranks as i32;
        let delta = DIRS.map(|(df, dr)| df * h + dr);
        let mut board = B::EMPTY;
        for sq in g.all() {
            board.set(sq);
        }

        // Kinds: base types, then promoted forms.
        let n_base = variant.pieces.len();
        let mut kinds: Vec<KindInfo> = Vec::new();
        let mut betzas: Vec<&str> = Vec::new();
        for (i, p) in variant.pieces.iter().enumerate() {
            kinds.push(KindInfo {
                code: p.code.to_string(),
                name: p.name,
                western: p.western.to_string(),
                names: p.names,
                base: Kind(i as u8),
                promoted: false,
                promotes_to: None,
                royal: p.royal,
                impasse_points: p.impasse_points,
            });
            betzas.push(p.betza);
        }
        for (i, p) in variant.pieces.iter().enumerate() {
            if let Some(pr) = &p.promoted {
                let k = Kind(kinds.len() as u8);
                kinds[i].promotes_to = Some(k);
                kinds.push(KindInfo {
                    code: format!("+{}", p.code),
                    name: pr.name,
                    western: format!("+{}", p.western),
                    names: pr.names,
                    base: Kind(i as u8),
                    promoted: true,
                    promotes_to: None,
                    royal: false,
                    impasse_points: p.impasse_points,
                });
                betzas.push(pr.betza);
            }
        }
        let nk = kinds.len();
        assert!(
            nk <= B::MAX_KINDS,
            "too many piece kinds for this board type"
        );

        let sq_at = |sq: Square, df: i32, dr: i32| -> Option<Square> {
            g.square(g.file(sq) + df, g.rank(sq) + dr)
        };

        // Rays, between, line.
        let mut ray = vec![B::EMPTY; 8 * s];
        let max_range = g.files.max(g.ranks) as usize;
        let mut ray_within = vec![B::EMPTY; 8 * s * (max_range + 1)];
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            for sq in g.all() {
                let mut b = B::EMPTY;
                let mut cur = sq;
                let mut n = 0;
                while let Some(next) = sq_at(cur, df, dr) {
                    b.set(next);
                    cur = next;
                    n += 1;
                    ray_within[(d * s + sq.index()) * (max_range + 1) + n] = b;
                }
                for m in n + 1..=max_range {
                    ray_within[(d * s + sq.index()) * (max_range + 1) + m] = b;
                }
                ray[d * s + sq.index()] = b;
            }
        }
        let star: Vec<B> = g
            .all()
            .map(|sq| (0..8).fold(B::EMPTY, |b, d| b | ray[d * s + sq.index()]))
            .collect();
        let mut between = vec![B::EMPTY; s * s];
        let mut line = vec![B::EMPTY; s * s];
        let mut direction = vec![NO_DIRECTION; s * s];
        for a in g.all() {
            for d in 0..8 {
                let mut cur = a;
                let mut btw = B::EMPTY;
                let full =
                    ray[d * s + a.index()] | ray[OPPOSITE[d] * s + a.index()] | B::from_square(a);
                while let Some(next) = sq_at(cur, DIRS[d].0, DIRS[d].1) {
                    between[a.index() * s + next.index()] = btw;
                    line[a.index() * s + next.index()] = full;
                    direction[a.index() * s + next.index()] = d as u8;
                    btw.set(next);
                    cur = next;
                }
            }
        }

        // Movement tables.
        let board_dir = |color: Color, dx: i8, dy: i8| -> (i32, i32) {
            match color {
                Color::Black => (dx as i32, -(dy as i32)),
                Color::White => (-(dx as i32), dy as i32),
            }
        };
        let mut step = vec![B::EMPTY; 2 * nk * s];
        let mut step_move = vec![B::EMPTY; 2 * nk * s];
        let mut step_capture = vec![B::EMPTY; 2 * nk * s];
        let mut slide_mask = vec![0u8; 2 * nk];
        let mut line_moves = vec![Vec::new(); 2 * nk];
        let mut simple = true;
        let mut lion = vec![false; 2 * nk];
        let mut lion_line = vec![false; 2 * nk];
        let mut hook = vec![0u8; 2 * nk];
        let mut dir_sliders: [[Vec<Kind>; 8]; 2] = Default::default();
        for (k, betza) in betzas.iter().enumerate() {
            let atoms = parse_betza(betza).unwrap_or_else(|e| panic!("{}: {e}", kinds[k].code));
            for color in Color::ALL {
                let ck = color.index() * nk + k;
                for atom in &atoms {
                    match *atom {
                        Atom::Lion => {
                            // Its steps and jumps: every square within two.
                            simple = false;
                            lion[ck] = true;
                            for sq in g.all() {
                                for df in -2..=2 {
                                    for dr in -2..=2 {
                                        if (df, dr) == (0, 0) {
                                            continue;
                                        }
                                        if let Some(t) = sq_at(sq, df, dr) {
                                            step[ck * s + sq.index()].set(t);
                                        }
                                    }
                                }
                            }
                        }
                        Atom::LionLine => {
                            // Its plain moves: jumps to the 1st, 2nd and 3rd squares of each line.
                            simple = false;
                            lion_line[ck] = true;
                            for sq in g.all() {
                                for (df, dr) in DIRS {
                                    for n in 1..=3 {
                                        if let Some(t) = sq_at(sq, df * n, dr * n) {
                                            step[ck * s + sq.index()].set(t);
                                        }
                                    }
                                }
                            }
                        }
                        Atom::Hook { diagonal } => {
                            simple = false;
                            hook[ck] |= if diagonal { 2 } else { 1 };
                        }
                        Atom::Leap { dx, dy, modality } => {
                            let (df, dr) = board_dir(color, dx, dy);
                            let table = match modality {
                                Modality::Both => &mut step,
                                Modality::MoveOnly => &mut step_move,
                                Modality::CaptureOnly => &mut step_capture,
                            };
                            if modality != Modality::Both {
                                simple = false;
                            }
                            for sq in g.all() {
                                if let Some(t) = sq_at(sq, df, dr) {
                                    table[ck * s + sq.index()].set(t);
                                }
                            }
                        }
                        Atom::Slide {
                            dx,
                            dy,
                            range,
                            modality,
                        }
                        | Atom::Hop {
                            dx,
                            dy,
                            range,
                            modality,
                        } => {
                            let hop = matches!(atom, Atom::Hop { .. });
                            let bd = board_dir(color, dx, dy);
                            let dir = DIRS.iter().position(|&d| d == bd).expect("king direction");
                            if !hop && range == 0 && modality == Modality::Both {
                                slide_mask[ck] |= 1 << dir;
                                dir_sliders[color.index()][dir].push(Kind(k as u8));
                            } else {
                                simple = false;
                                line_moves[ck].push(LineMove {
                                    dir: dir as u8,
                                    range,
                                    modality,
                                    hop,
                                });
                            }
                        }
                    }
                }
            }
        }
        // Kinds whose capturing leaps are identical share one group (gold and its likes).
        let step_groups = leap_groups(&step, nk, s);
        let mut move_classes: Vec<(Vec<Kind>, Kind)> = Vec::new();
        for k in 0..nk {
            if kinds[k].royal {
                continue;
            }
            let same = |a: usize, b: usize| {
                (0..2).all(|c| {
                    let (ca, cb) = (c * nk + a, c * nk + b);
                    step[ca * s..(ca + 1) * s] == step[cb * s..(cb + 1) * s]
                        && step_move[ca * s..(ca + 1) * s] == step_move[cb * s..(cb + 1) * s]
                        && step_capture[ca * s..(ca + 1) * s] == step_capture[cb * s..(cb + 1) * s]
                        && slide_mask[ca] == slide_mask[cb]
                        && line_moves[ca] == line_moves[cb]
                        && lion[ca] == lion[cb]
                        && lion_line[ca] == lion_line[cb]
                        && hook[ca] == hook[cb]
                }) && kinds[a].promotes_to.is_some() == kinds[b].promotes_to.is_some()
            };
            match move_classes
                .iter_mut()
                .find(|(_, rep)| same(rep.index(), k))
            {
                Some((members, _)) => members.push(Kind(k as u8)),
                None => move_classes.push((vec![Kind(k as u8)], Kind(k as u8))),
            }
        }

        // Zones and dead squares.
        let mut rank_mask = vec![B::EMPTY; g.ranks as usize];
        let mut file_mask = vec![B::EMPTY; s];
        for sq in g.all() {
            rank_mask[g.rank(sq) as usize].set(sq);
        }
        for sq in g.all() {
            for t in g.all() {
                if g.file(t) == g.file(sq) {
                    file_mask[sq.index()].set(t);
                }
            }
        }
        let mut zone = [B::EMPTY; 2];
        if let PromotionRule::Zone { depth } = variant.promotion {
            for r in 0..depth as usize {
                zone[0] |= rank_mask[r];
                zone[1] |= rank_mask[g.ranks as usize - 1 - r];
            }
        }
        let mut dead = vec![B::EMPTY; 2 * nk];
        for color in Color::ALL {
            for k in 0..nk {
                let ck = color.index() * nk + k;
                for sq in g.all() {
                    let i = ck * s + sq.index();
                    let any_leap =
                        !(step[i] | step_move[i] | step_capture[i]).is_empty() || hook[ck] != 0;
                    let any_line = (0..8).any(|d| {
                        (slide_mask[ck] >> d) & 1 == 1 && !ray[d * s + sq.index()].is_empty()
                    }) || line_moves[ck].iter().any(|m| {
                        let r = ray[m.dir as usize * s + sq.index()];
                        // A hop needs at least two squares on its line.
                        if m.hop {
                            r.more_than_one()
                        } else {
                            !r.is_empty()
                        }
                    });
                    if !any_leap && !any_line {
                        dead[ck].set(sq);
                    }
                }
            }
        }

        // Zobrist keys, fixed per variant so hashes are stable across runs.
        let mut rng = SplitMix(0x6261_6E6D_656E ^ (variant.name as u64) << 48);
        let zobrist_board = (0..2 * nk * s).map(|_| rng.next()).collect();
        // Per colour, kind and count; holding none has key zero.
        let mut hand_keys = || -> Vec<u64> {
            (0..n_base * HAND_KEYS)
                .map(|i| if i % HAND_KEYS == 0 { 0 } else { rng.next() })
                .collect()
        };
        let zobrist_hand = [hand_keys(), hand_keys()];
        let zobrist_side = rng.next();

        let royal = kinds.iter().position(|k| k.royal).map(|i| Kind(i as u8));
        let pawn = variant
            .pawn
            .and_then(|code| kinds.iter().position(|k| k.code == code))
            .map(|i| Kind(i as u8));

        let line_dirs: Vec<Vec<LineDir>> = line_moves
            .iter()
            .map(|moves| {
                let mut dirs: Vec<LineDir> = Vec::new();
                for m in moves {
                    let bits = u8::from(m.modality.moves()) | u8::from(m.modality.captures()) << 1;
                    let i = match dirs.iter().position(|l| l.dir == m.dir) {
                        Some(i) => i,
                        None => {
                            dirs.push(LineDir {
                                dir: m.dir,
                                slide: 0,
                                slide_range: 0,
                                hop: 0,
                                hop_range: 0,
                            });
                            dirs.len() - 1
                        }
                    };
                    let l = &mut dirs[i];
                    // Two slides (or hops) along one direction would need two entries.
                    if m.hop {
                        assert!(l.hop == 0, "two hops along one direction");
                        (l.hop, l.hop_range) = (bits, m.range);
                    } else {
                        assert!(l.slide == 0, "two slides along one direction");
                        (l.slide, l.slide_range) = (bits, m.range);
                    }
                }
                dirs
            })
            .collect();
        let mut slide_reach = vec![0u8; 2 * nk * 8];
        let mut hop_reach = vec![0u8; 2 * nk * 8];
        for ck in 0..2 * nk {
            for d in 0..8 {
                if (slide_mask[ck] >> d) & 1 == 1 {
                    slide_reach[ck * 8 + d] = 255;
                }
            }
            for m in &line_moves[ck] {
                if m.modality.captures() {
                    let table = if m.hop {
                        &mut hop_reach
                    } else {
                        &mut slide_reach
                    };
                    let reach = if m.range == 0 { 255 } else { m.range };
                    let slot = &mut table[ck * 8 + m.dir as usize];
                    *slot = (*slot).max(reach);
                }
            }
        }
        let any_hop = hop_reach.iter().any(|&h| h > 0);
        let mut distance_table = vec![0u8; s * s];
        for a in g.all() {
            for b in g.all() {
                let d = (g.file(a) - g.file(b))
                    .abs()
                    .max((g.rank(a) - g.rank(b)).abs());
                distance_table[a.index() * s + b.index()] = d as u8;
            }
        }
        let restricted_leaps = (0..2 * nk)
            .map(|ck| {
                (0..s).any(|i| {
                    !step_move[ck * s + i].is_empty() || !step_capture[ck * s + i].is_empty()
                })
            })
            .collect();
        let leap_sources = {
            let mut src = vec![B::EMPTY; s];
            for ck in 0..2 * nk {
                for x in g.all() {
                    let mut t = step[ck * s + x.index()] | step_capture[ck * s + x.index()];
                    while let Some(sq) = t.pop() {
                        src[sq.index()].set(x);
                    }
                }
            }
            src
        };
        let mut group_of = vec![u8::MAX; nk];
        for (i, (members, _)) in step_groups.iter().enumerate() {
            for k in members {
                group_of[k.index()] = i as u8;
            }
        }
        let mut class_of = vec![u8::MAX; nk];
        for (i, (members, _)) in move_classes.iter().enumerate() {
            for k in members {
                class_of[k.index()] = i as u8;
            }
        }
        let group_offset = [Color::Black, Color::White].map(|by| {
            step_groups
                .iter()
                .map(|(_, rep)| ((!by).index() * nk + rep.index()) * s)
                .collect()
        });
        let mut shift_steps: Vec<(i32, B)> = Vec::new();
        let class_info = [Color::Black, Color::White].map(|by| {
            move_classes
                .iter()
                .map(|(_, kind)| {
                    let ck = by.index() * nk + kind.index();
                    let (shift_from, shift_len) = match step_offsets(g, &step[ck * s..(ck + 1) * s])
                    {
                        Some(offsets) if slide_mask[ck] == 0 => {
                            let from = shift_steps.len() as u16;
                            shift_steps.extend(offsets);
                            (from, (shift_steps.len() - from as usize) as u8)
                        }
                        _ => (0, 0),
                    };
                    ClassInfo {
                        shift_from,
                        shift_len,
                        step_base: ck * s,
                        slide_mask: slide_mask[ck],
                        promotes: kinds[kind.index()].promotes_to.is_some(),
                        dead: if variant.dead_pieces_illegal {
                            dead[ck]
                        } else {
                            B::EMPTY
                        },
                    }
                })
                .collect()
        });
        let incremental = simple
            && step_groups.len() <= crate::position::MAX_SETS
            && move_classes.len() <= crate::position::MAX_SETS;
        Rules {
            incremental,
            group_of,
            class_of,
            group_offset,
            geometry: g,
            n_base,
            squares: s,
            board,
            delta,
            ray,
            star,
            between,
            direction,
            line,
            step,
            step_move,
            step_capture,
            slide_mask,
            line_moves,
            ray_within,
            max_range,
            simple,
            any_hook: hook.iter().any(|&h| h != 0),
            leap_sources,
            restricted_leaps,
            line_dirs,
            slide_reach,
            hop_reach,
            any_hop,
            distance_table,
            neighbours: g
                .all()
                .map(|sq| {
                    let mut b = B::EMPTY;
                    for (df, dr) in DIRS {
                        if let Some(t) = sq_at(sq, df, dr) {
                            b.set(t);
                        }
                    }
                    b
                })
                .collect(),
            promote_on_capture: variant.promotion == PromotionRule::OnCapture,
            lion,
            lion_line,
            hook,
            dir_sliders,
            step_groups,
            move_classes,
            class_info,
            shift_steps,
            zone,
            dead,
            file_mask,
            royal,
            pawn,
            zobrist_board,
            zobrist_hand,
            zobrist_side,
            kinds,
            variant,
        }
    }

    /// Number of kinds.
    #[inline(always)]
    pub fn kind_count(&self) -> usize {
        self.kinds.len()
    }

    /// The kind with this SFEN token (`P`, `+R`), upper case.
    pub fn kind_by_code(&self, code: &str) -> Option<Kind> {
        self.kinds
            .iter()
            .position(|k| k.code == code)
            .map(|i| Kind(i as u8))
    }

    /// Facts about a kind.
    #[inline(always)]
    pub fn kind(&self, k: Kind) -> &KindInfo {
        &self.kinds[k.index()]
    }

    /// All squares of the board.
    #[inline(always)]
    pub fn board_mask(&self) -> B {
        self.board
    }

    /// The promotion zone of `color` (empty when promotion is on capture).
    #[inline(always)]
    pub fn zone(&self, color: Color) -> B {
        self.zone[color.index()]
    }

    #[inline(always)]
    pub(crate) fn ck(&self, color: Color, kind: Kind) -> usize {
        color.index() * self.kinds.len() + kind.index()
    }

    /// Squares where `kind` of `color` could never move again.
    #[inline(always)]
    pub fn dead_squares(&self, color: Color, kind: Kind) -> B {
        self.dead[self.ck(color, kind)]
    }

    /// The unlimited slide along direction `d` from `sq`, stopping at (and
    /// including) the first occupied square.
    #[inline(always)]
    pub(crate) fn slide(&self, d: usize, sq: Square, occ: B) -> B {
        let r = self.ray[d * self.squares + sq.index()];
        let blockers = r & occ;
        if blockers.is_empty() {
            r
        } else {
            let first = if self.delta[d] > 0 {
                blockers.lsb()
            } else {
                blockers.msb()
            };
            r ^ self.ray[d * self.squares + first.index()]
        }
    }

    /// The first occupied square along direction `d` from `sq`.
    #[inline(always)]
    pub(crate) fn first_blocker(&self, d: usize, sq: Square, occ: B) -> Option<Square> {
        let blockers = self.ray[d * self.squares + sq.index()] & occ;
        if blockers.is_empty() {
            None
        } else if self.delta[d] > 0 {
            Some(blockers.lsb())
        } else {
            Some(blockers.msb())
        }
    }

    /// The first `n` squares of the ray along `d` from `sq` (`n` = 0: the whole ray).
    #[inline(always)]
    pub(crate) fn within(&self, d: usize, sq: Square, n: u8) -> B {
        let n = if n == 0 {
            self.max_range
        } else {
            (n as usize).min(self.max_range)
        };
        self.ray_within[(d * self.squares + sq.index()) * (self.max_range + 1) + n]
    }

    /// The first square of a set in SFEN reading order (rank `a` first, then
    /// from the highest file): how a lion's pass names its middle square.
    pub(crate) fn first_in_reading_order(&self, set: B) -> Option<Square> {
        let g = self.geometry;
        set.squares().min_by_key(|&sq| (g.rank(sq), -g.file(sq)))
    }

    /// King-step (Chebyshev) distance between two squares.
    #[inline(always)]
    pub(crate) fn distance(&self, a: Square, b: Square) -> u8 {
        self.distance_table[a.index() * self.squares + b.index()]
    }

    /// Squares strictly between two aligned squares (empty if not aligned).
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> B {
        self.between[a.index() * self.squares + b.index()]
    }

    /// The line through two aligned squares (empty if not aligned).
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> B {
        self.line[a.index() * self.squares + b.index()]
    }

    /// The squares `kind` of `color` on `sq` attacks (may capture on) given the occupancy.
    pub fn attacks(&self, color: Color, kind: Kind, sq: Square, occ: B) -> B {
        let ck = self.ck(color, kind);
        let i = ck * self.squares + sq.index();
        let mut a = self.step[i] | self.step_capture[i];
        let mut mask = self.slide_mask[ck];
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            a |= self.slide(d, sq, occ);
        }
        for m in &self.line_moves[ck] {
            if !m.modality.captures() {
                continue;
            }
            a |= self.line_targets(*m, sq, occ, true);
        }
        a
    }

    /// Squares reached by a slide or hop: with `captures`, the square it could
    /// capture on (whoever stands there); otherwise the empty squares it may move to.
    #[inline]
    pub(crate) fn line_targets(&self, m: LineMove, sq: Square, occ: B, captures: bool) -> B {
        let d = m.dir as usize;
        let limit = self.within(d, sq, m.range);
        if !m.hop {
            let reach = self.slide(d, sq, occ) & limit;
            return if captures { reach & occ } else { reach & !occ };
        }
        let Some(screen) = self.first_blocker(d, sq, occ) else {
            return B::EMPTY;
        };
        let beyond = self.slide(d, screen, occ) & limit;
        if captures {
            beyond & occ
        } else {
            beyond & !occ
        }
    }
}

type Cache<B> = Vec<(VariantName, String, &'static Rules<B>)>;
static CACHE_9: Mutex<Cache<Bb128>> = Mutex::new(Vec::new());
static CACHE_17: Mutex<Cache<Bb320>> = Mutex::new(Vec::new());

/// Compiles (once) and returns the rules of `name` with options, for board type `B`.
/// `geometries` are the boards that board type serves.
fn cached<B: BitBoard>(
    cache: &Mutex<Cache<B>>,
    geometries: &[Geometry],
    name: VariantName,
    options: &str,
) -> Result<&'static Rules<B>, RulesError> {
    let (variant, canonical) = crate::variant::options::with_rules(name, options)?;
    if !geometries.contains(&variant.geometry) {
        let served: Vec<String> = geometries
            .iter()
            .map(|g| format!("{}x{}", g.files, g.ranks))
            .collect();
        return Err(RulesError(format!(
            "{name} is played on {}x{}, not {}",
            variant.geometry.files,
            variant.geometry.ranks,
            served.join(" or ")
        )));
    }
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, r)) = cache.iter().find(|(n, c, _)| *n == name && *c == canonical) {
        return Ok(r);
    }
    let rules: &'static Rules<B> = Box::leak(Box::new(Rules::new(variant)));
    cache.push((name, canonical, rules));
    Ok(rules)
}

/// The compiled rules of a variant on the 81-square board type (9x9, and
/// 5x5 minishogi, which fits it) with default options.
pub fn rules_9x9(name: VariantName) -> Option<&'static Rules<Bb128>> {
    rules_9x9_with(name, "").ok()
}

/// The compiled rules of a variant on the 81-square board type (9x9 or 5x5)
/// with rule options (`flying-cannon=leap`).
/// Each rule set is compiled once and kept for the life of the process.
///
/// # Errors
/// Unknown options, or a variant that is not played on 9x9 or 5x5.
pub fn rules_9x9_with(
    name: VariantName,
    options: &str,
) -> Result<&'static Rules<Bb128>, RulesError> {
    cached(&CACHE_9, &[Geometry::NINE, Geometry::FIVE], name, options)
}

/// The compiled rules of a 17x17 variant (dai dai shogi) with rule options.
///
/// # Errors
/// Unknown options, or a variant that is not played on 17x17.
pub fn rules_17x17_with(
    name: VariantName,
    options: &str,
) -> Result<&'static Rules<Bb320>, RulesError> {
    cached(&CACHE_17, &[Geometry::SEVENTEEN], name, options)
}

/// A game's compiled rules on the board type it needs, from [`rules_for`].
///
/// ```
/// use banmen_rules::{rules_for, AnyRules, Geometry, VariantName};
/// let Ok(AnyRules::Nine(mini)) = rules_for(VariantName::MiniShogi, "") else { panic!() };
/// assert_eq!(mini.geometry, Geometry::FIVE);
/// let Ok(AnyRules::Nine(cannon)) = rules_for(VariantName::CannonShogi, "flying-cannon=leap") else { panic!() };
/// assert_eq!(cannon.variant.name, VariantName::CannonShogi);
/// assert!(rules_for(VariantName::DaiDaiShogi, "no-such-option=on").is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub enum AnyRules {
    /// Up to 81 squares: shogi, cannon shogi, minishogi.
    Nine(&'static Rules<Bb128>),
    /// 289 squares: dai dai shogi.
    Seventeen(&'static Rules<Bb320>),
}

/// The rules of any variant, with rule options.
///
/// # Errors
/// Unknown options.
pub fn rules_for(name: VariantName, options: &str) -> Result<AnyRules, RulesError> {
    match name {
        VariantName::DaiDaiShogi => rules_17x17_with(name, options).map(AnyRules::Seventeen),
        _ => rules_9x9_with(name, options).map(AnyRules::Nine),
    }
}

/// The steps of a piece whose step table (one set per square) is one pattern
/// of (file, rank) offsets cut at the board's edges, as (index difference,
/// squares each step starts from); `None` when the table is not such a pattern.
fn step_offsets<B: BitBoard>(g: Geometry, table: &[B]) -> Option<Vec<(i32, B)>> {
    let mut offsets: Vec<(i32, i32)> = Vec::new();
    for sq in g.all() {
        for t in table[sq.index()].squares() {
            let o = (g.file(t) - g.file(sq), g.rank(t) - g.rank(sq));
            if !offsets.contains(&o) {
                offsets.push(o);
            }
        }
    }
    let mut steps = Vec::new();
    for &(df, dr) in &offsets {
        let mut from = B::EMPTY;
        for sq in g.all() {
            if g.square(g.file(sq) + df, g.rank(sq) + dr).is_some() {
                from.set(sq);
            }
        }
        steps.push((df * g.ranks as i32 + dr, from));
    }
    // The pattern must reproduce the table exactly on every square.
    let exact = g.all().all(|sq| {
        let mut b = B::EMPTY;
        for &(df, dr) in &offsets {
            if let Some(t) = g.square(g.file(sq) + df, g.rank(sq) + dr) {
                b.set(t);
            }
        }
        b == table[sq.index()]
    });
    exact.then_some(steps)
}
