//! A [`Variant`] compiled into attack tables for one board type.
//!
//! Built once per variant and kept for the life of the process (`&'static`), so
//! positions carry a plain reference.

use crate::bitboard::{Bb128, Bb320, BitBoard};
use crate::movement::Modality;
use crate::piece::{Color, Kind};
use crate::square::{Geometry, Square};
use crate::variant::RulesError;
use crate::variant::{PieceNames, Variant, VariantName};
use std::sync::Mutex;

mod build;

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
    /// Per colour, the kinds with hook moves and their `hook` bits.
    pub(crate) hook_kinds: [Vec<(Kind, u8)>; 2],
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

impl<B: BitBoard> Rules<B> {
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
        return Err(RulesError::WrongBoard {
            variant: name,
            played_on: variant.geometry,
            boards: geometries.to_vec(),
        });
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
