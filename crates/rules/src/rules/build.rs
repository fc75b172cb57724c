//! [`Rules::new`]: a variant compiled table by table. Each builder below
//! makes one group of tables from the variant and the tables made before it.

use super::{ClassInfo, KindInfo, LineDir, LineMove, Rules, DIRS, NO_DIRECTION, OPPOSITE};
use crate::bitboard::BitBoard;
use crate::movement::{parse_betza, Atom, Modality};
use crate::piece::{Color, Kind};
use crate::position::HAND_KEYS;
use crate::square::{Geometry, Square};
use crate::variant::{PromotionRule, Variant, VariantName};

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

        let (kinds, betzas) = kind_table(&variant);
        let n_base = variant.pieces.len();
        let nk = kinds.len();
        assert!(
            nk <= B::MAX_KINDS,
            "too many piece kinds for this board type"
        );
        let lines = line_tables::<B>(g);
        let mv = movement_tables::<B>(g, &kinds, &betzas);
        // Kinds whose capturing leaps are identical share one group (gold and its likes).
        let step_groups = leap_groups(&mv.step, nk, s);
        let move_classes = move_classes(&kinds, &mv, s);
        let file_mask = file_masks(g);
        let zone = zones(g, variant.promotion);
        let dead = dead_squares(g, nk, &mv, &lines.ray);
        let (zobrist_board, zobrist_hand, zobrist_side) =
            zobrist_keys(variant.name, nk * s, n_base);
        let royal = kinds.iter().position(|k| k.royal).map(|i| Kind(i as u8));
        let pawn = variant
            .pawn
            .and_then(|code| kinds.iter().position(|k| k.code == code))
            .map(|i| Kind(i as u8));
        let line_dirs = line_dirs(&mv.line_moves);
        let (slide_reach, hop_reach) = reach_tables(&mv.slide_mask, &mv.line_moves);
        let any_hop = hop_reach.iter().any(|&h| h > 0);
        let restricted_leaps = (0..2 * nk)
            .map(|ck| {
                (0..s).any(|i| {
                    !mv.step_move[ck * s + i].is_empty() || !mv.step_capture[ck * s + i].is_empty()
                })
            })
            .collect();
        let group_offset = [Color::Black, Color::White].map(|by| {
            step_groups
                .iter()
                .map(|(_, rep)| ((!by).index() * nk + rep.index()) * s)
                .collect()
        });
        let dead_if_illegal = |ck: usize| {
            if variant.dead_pieces_illegal {
                dead[ck]
            } else {
                B::EMPTY
            }
        };
        let (class_info, shift_steps) = class_info(g, &kinds, &mv, &move_classes, dead_if_illegal);
        let Movement {
            step,
            step_move,
            step_capture,
            slide_mask,
            line_moves,
            simple,
            lion,
            lion_line,
            hook,
            dir_sliders,
        } = mv;
        let incremental = simple
            && step_groups.len() <= crate::position::MAX_SETS
            && move_classes.len() <= crate::position::MAX_SETS;
        Rules {
            incremental,
            group_of: index_of(&step_groups, nk),
            class_of: index_of(&move_classes, nk),
            group_offset,
            geometry: g,
            n_base,
            squares: s,
            board,
            delta,
            leap_sources: leap_sources(g, &step, &step_capture),
            ray: lines.ray,
            star: lines.star,
            between: lines.between,
            direction: lines.direction,
            line: lines.line,
            step,
            step_move,
            step_capture,
            slide_mask,
            line_moves,
            ray_within: lines.ray_within,
            max_range: lines.max_range,
            simple,
            any_hook: hook.iter().any(|&h| h != 0),
            hook_kinds: [Color::Black, Color::White].map(|c| {
                (0..nk)
                    .filter(|&k| hook[c.index() * nk + k] != 0)
                    .map(|k| (Kind(k as u8), hook[c.index() * nk + k]))
                    .collect()
            }),
            restricted_leaps,
            line_dirs,
            slide_reach,
            hop_reach,
            any_hop,
            distance_table: distance_table(g),
            neighbours: neighbours(g),
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
}

/// The square `(df, dr)` away from `sq`, if on the board.
fn sq_at(g: Geometry, sq: Square, df: i32, dr: i32) -> Option<Square> {
    g.square(g.file(sq) + df, g.rank(sq) + dr)
}

/// Every kind, base types first and then their promoted forms, with each
/// kind's Betza movement string.
fn kind_table(variant: &Variant) -> (Vec<KindInfo>, Vec<&str>) {
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
    (kinds, betzas)
}

/// The board's line geometry (see the fields of the same names in [`Rules`]).
struct Lines<B> {
    ray: Vec<B>,
    ray_within: Vec<B>,
    max_range: usize,
    star: Vec<B>,
    between: Vec<B>,
    line: Vec<B>,
    direction: Vec<u8>,
}

/// Rays, their first `n` squares, and what lies between and along two
/// aligned squares.
fn line_tables<B: BitBoard>(g: Geometry) -> Lines<B> {
    let s = g.squares();
    let mut ray = vec![B::EMPTY; 8 * s];
    let max_range = g.files.max(g.ranks) as usize;
    let mut ray_within = vec![B::EMPTY; 8 * s * (max_range + 1)];
    for (d, &(df, dr)) in DIRS.iter().enumerate() {
        for sq in g.all() {
            let mut b = B::EMPTY;
            let mut cur = sq;
            let mut n = 0;
            while let Some(next) = sq_at(g, cur, df, dr) {
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
            while let Some(next) = sq_at(g, cur, DIRS[d].0, DIRS[d].1) {
                between[a.index() * s + next.index()] = btw;
                line[a.index() * s + next.index()] = full;
                direction[a.index() * s + next.index()] = d as u8;
                btw.set(next);
                cur = next;
            }
        }
    }
    Lines {
        ray,
        ray_within,
        max_range,
        star,
        between,
        line,
        direction,
    }
}

/// Every kind's movement, per colour (see the fields of the same names in
/// [`Rules`]); `simple` when every movement is a plain leap or unlimited slide.
struct Movement<B> {
    step: Vec<B>,
    step_move: Vec<B>,
    step_capture: Vec<B>,
    slide_mask: Vec<u8>,
    line_moves: Vec<Vec<LineMove>>,
    simple: bool,
    lion: Vec<bool>,
    lion_line: Vec<bool>,
    hook: Vec<u8>,
    dir_sliders: [[Vec<Kind>; 8]; 2],
}

/// Sets, in the leap table `table` of colour-kind `ck`, every leap by
/// `(df, dr)` that stays on the board.
fn add_leaps<B: BitBoard>(g: Geometry, table: &mut [B], ck: usize, df: i32, dr: i32) {
    let s = g.squares();
    for sq in g.all() {
        if let Some(t) = sq_at(g, sq, df, dr) {
            table[ck * s + sq.index()].set(t);
        }
    }
}

/// The movement tables, from each kind's Betza string (oriented for each colour).
fn movement_tables<B: BitBoard>(g: Geometry, kinds: &[KindInfo], betzas: &[&str]) -> Movement<B> {
    let s = g.squares();
    let nk = kinds.len();
    let board_dir = |color: Color, dx: i8, dy: i8| -> (i32, i32) {
        match color {
            Color::Black => (dx as i32, -(dy as i32)),
            Color::White => (-(dx as i32), dy as i32),
        }
    };
    let mut m = Movement {
        step: vec![B::EMPTY; 2 * nk * s],
        step_move: vec![B::EMPTY; 2 * nk * s],
        step_capture: vec![B::EMPTY; 2 * nk * s],
        slide_mask: vec![0u8; 2 * nk],
        line_moves: vec![Vec::new(); 2 * nk],
        simple: true,
        lion: vec![false; 2 * nk],
        lion_line: vec![false; 2 * nk],
        hook: vec![0u8; 2 * nk],
        dir_sliders: Default::default(),
    };
    for (k, betza) in betzas.iter().enumerate() {
        let atoms = parse_betza(betza).unwrap_or_else(|e| panic!("{}: {e}", kinds[k].code));
        for color in Color::ALL {
            let ck = color.index() * nk + k;
            for atom in &atoms {
                match *atom {
                    Atom::Lion => {
                        // Its steps and jumps: every square within two.
                        m.simple = false;
                        m.lion[ck] = true;
                        for df in -2..=2 {
                            for dr in -2..=2 {
                                if (df, dr) != (0, 0) {
                                    add_leaps(g, &mut m.step, ck, df, dr);
                                }
                            }
                        }
                    }
                    Atom::LionLine => {
                        // Its plain moves: jumps to the 1st, 2nd and 3rd squares of each line.
                        m.simple = false;
                        m.lion_line[ck] = true;
                        for (df, dr) in DIRS {
                            for n in 1..=3 {
                                add_leaps(g, &mut m.step, ck, df * n, dr * n);
                            }
                        }
                    }
                    Atom::Hook { diagonal } => {
                        m.simple = false;
                        m.hook[ck] |= if diagonal { 2 } else { 1 };
                    }
                    Atom::Leap { dx, dy, modality } => {
                        let (df, dr) = board_dir(color, dx, dy);
                        let table = match modality {
                            Modality::Both => &mut m.step,
                            Modality::MoveOnly => &mut m.step_move,
                            Modality::CaptureOnly => &mut m.step_capture,
                        };
                        if modality != Modality::Both {
                            m.simple = false;
                        }
                        add_leaps(g, table, ck, df, dr);
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
                            m.slide_mask[ck] |= 1 << dir;
                            m.dir_sliders[color.index()][dir].push(Kind(k as u8));
                        } else {
                            m.simple = false;
                            m.line_moves[ck].push(LineMove {
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
    m
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

/// Non-royal kinds grouped by identical movement (for both colours) and
/// whether they promote, each group with a representative.
fn move_classes<B: BitBoard>(
    kinds: &[KindInfo],
    mv: &Movement<B>,
    s: usize,
) -> Vec<(Vec<Kind>, Kind)> {
    let nk = kinds.len();
    let mut move_classes: Vec<(Vec<Kind>, Kind)> = Vec::new();
    for k in 0..nk {
        if kinds[k].royal {
            continue;
        }
        let same = |a: usize, b: usize| {
            (0..2).all(|c| {
                let (ca, cb) = (c * nk + a, c * nk + b);
                mv.step[ca * s..(ca + 1) * s] == mv.step[cb * s..(cb + 1) * s]
                    && mv.step_move[ca * s..(ca + 1) * s] == mv.step_move[cb * s..(cb + 1) * s]
                    && mv.step_capture[ca * s..(ca + 1) * s]
                        == mv.step_capture[cb * s..(cb + 1) * s]
                    && mv.slide_mask[ca] == mv.slide_mask[cb]
                    && mv.line_moves[ca] == mv.line_moves[cb]
                    && mv.lion[ca] == mv.lion[cb]
                    && mv.lion_line[ca] == mv.lion_line[cb]
                    && mv.hook[ca] == mv.hook[cb]
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
    move_classes
}

/// Per kind, the index of the group (of `groups`) it belongs to, or `u8::MAX`.
fn index_of(groups: &[(Vec<Kind>, Kind)], nk: usize) -> Vec<u8> {
    let mut of = vec![u8::MAX; nk];
    for (i, (members, _)) in groups.iter().enumerate() {
        for k in members {
            of[k.index()] = i as u8;
        }
    }
    of
}

/// The file containing each square.
fn file_masks<B: BitBoard>(g: Geometry) -> Vec<B> {
    let mut file_mask = vec![B::EMPTY; g.squares()];
    for sq in g.all() {
        for t in g.all() {
            if g.file(t) == g.file(sq) {
                file_mask[sq.index()].set(t);
            }
        }
    }
    file_mask
}

/// The promotion zone of each colour (empty without zones).
fn zones<B: BitBoard>(g: Geometry, promotion: PromotionRule) -> [B; 2] {
    let mut rank_mask = vec![B::EMPTY; g.ranks as usize];
    for sq in g.all() {
        rank_mask[g.rank(sq) as usize].set(sq);
    }
    let mut zone = [B::EMPTY; 2];
    if let PromotionRule::Zone { depth } = promotion {
        for r in 0..depth as usize {
            zone[0] |= rank_mask[r];
            zone[1] |= rank_mask[g.ranks as usize - 1 - r];
        }
    }
    zone
}

/// `[color * K + kind]`: the squares from which the kind could never move again.
fn dead_squares<B: BitBoard>(g: Geometry, nk: usize, mv: &Movement<B>, ray: &[B]) -> Vec<B> {
    let s = g.squares();
    let mut dead = vec![B::EMPTY; 2 * nk];
    for color in Color::ALL {
        for k in 0..nk {
            let ck = color.index() * nk + k;
            for sq in g.all() {
                let i = ck * s + sq.index();
                let any_leap = !(mv.step[i] | mv.step_move[i] | mv.step_capture[i]).is_empty()
                    || mv.hook[ck] != 0;
                let any_line = (0..8).any(|d| {
                    (mv.slide_mask[ck] >> d) & 1 == 1 && !ray[d * s + sq.index()].is_empty()
                }) || mv.line_moves[ck].iter().any(|m| {
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
    dead
}

/// A SplitMix64 generator: the Zobrist keys' source.
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

/// Zobrist keys, fixed per variant so hashes are stable across runs: one per
/// colour, kind and square (`kind_squares` = kinds × squares), per colour,
/// hand kind and count, and the side to move.
fn zobrist_keys(
    name: VariantName,
    kind_squares: usize,
    n_base: usize,
) -> (Vec<u64>, [Vec<u64>; 2], u64) {
    let mut rng = SplitMix(0x6261_6E6D_656E ^ (name as u64) << 48);
    let board = (0..2 * kind_squares).map(|_| rng.next()).collect();
    // Per colour, kind and count; holding none has key zero.
    let mut hand_keys = || -> Vec<u64> {
        (0..n_base * HAND_KEYS)
            .map(|i| if i % HAND_KEYS == 0 { 0 } else { rng.next() })
            .collect()
    };
    let hand = [hand_keys(), hand_keys()];
    (board, hand, rng.next())
}

/// `line_moves` merged per direction.
fn line_dirs(line_moves: &[Vec<LineMove>]) -> Vec<Vec<LineDir>> {
    line_moves
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
        .collect()
}

/// `[(color * K + kind) * 8 + dir]`: how far each kind captures by sliding,
/// and by hopping, along each board direction (0: not at all, 255: without limit).
fn reach_tables(slide_mask: &[u8], line_moves: &[Vec<LineMove>]) -> (Vec<u8>, Vec<u8>) {
    let cks = slide_mask.len();
    let mut slide_reach = vec![0u8; cks * 8];
    let mut hop_reach = vec![0u8; cks * 8];
    for ck in 0..cks {
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
    (slide_reach, hop_reach)
}

/// `distance[a * S + b]`: the king-step distance between two squares.
fn distance_table(g: Geometry) -> Vec<u8> {
    let s = g.squares();
    let mut distance_table = vec![0u8; s * s];
    for a in g.all() {
        for b in g.all() {
            let d = (g.file(a) - g.file(b))
                .abs()
                .max((g.rank(a) - g.rank(b)).abs());
            distance_table[a.index() * s + b.index()] = d as u8;
        }
    }
    distance_table
}

/// The king-step neighbours of each square.
fn neighbours<B: BitBoard>(g: Geometry) -> Vec<B> {
    g.all()
        .map(|sq| {
            let mut b = B::EMPTY;
            for (df, dr) in DIRS {
                if let Some(t) = sq_at(g, sq, df, dr) {
                    b.set(t);
                }
            }
            b
        })
        .collect()
}

/// Per square, every square from which some capturing leap (of any kind and
/// colour) reaches it.
fn leap_sources<B: BitBoard>(g: Geometry, step: &[B], step_capture: &[B]) -> Vec<B> {
    let s = g.squares();
    let mut src = vec![B::EMPTY; s];
    for ck in 0..step.len() / s {
        for x in g.all() {
            let mut t = step[ck * s + x.index()] | step_capture[ck * s + x.index()];
            while let Some(sq) = t.pop() {
                src[sq.index()].set(x);
            }
        }
    }
    src
}

/// Per colour, per movement class, what the simple generator looks up for
/// each piece of the class (`Rules::class_info`); and the steps of the
/// shift-countable classes (`Rules::shift_steps`).
type ClassTables<B> = ([Vec<ClassInfo<B>>; 2], Vec<(i32, B)>);

/// The [`ClassTables`] of the movement classes; `dead` gives the squares a
/// colour-kind may not move to without promoting (empty when allowed).
fn class_info<B: BitBoard>(
    g: Geometry,
    kinds: &[KindInfo],
    mv: &Movement<B>,
    move_classes: &[(Vec<Kind>, Kind)],
    dead: impl Fn(usize) -> B,
) -> ClassTables<B> {
    let s = g.squares();
    let nk = kinds.len();
    let mut shift_steps: Vec<(i32, B)> = Vec::new();
    let class_info = [Color::Black, Color::White].map(|by| {
        move_classes
            .iter()
            .map(|(_, kind)| {
                let ck = by.index() * nk + kind.index();
                let (shift_from, shift_len) = match step_offsets(g, &mv.step[ck * s..(ck + 1) * s])
                {
                    Some(offsets) if mv.slide_mask[ck] == 0 => {
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
                    slide_mask: mv.slide_mask[ck],
                    promotes: kinds[kind.index()].promotes_to.is_some(),
                    dead: dead(ck),
                }
            })
            .collect()
    });
    (class_info, shift_steps)
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
            if sq_at(g, sq, df, dr).is_some() {
                from.set(sq);
            }
        }
        steps.push((df * g.ranks as i32 + dr, from));
    }
    // The pattern must reproduce the table exactly on every square.
    let exact = g.all().all(|sq| {
        let mut b = B::EMPTY;
        for &(df, dr) in &offsets {
            if let Some(t) = sq_at(g, sq, df, dr) {
                b.set(t);
            }
        }
        b == table[sq.index()]
    });
    exact.then_some(steps)
}
