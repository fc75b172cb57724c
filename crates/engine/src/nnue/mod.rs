//! An efficiently updatable neural network evaluation (NNUE).
//!
//! The network has one hidden layer seen from each side ("perspective"):
//! a position activates sparse input features per perspective (below), the
//! feature transformer sums their weight rows into an accumulator of
//! `hidden` int16 values per perspective, and the output is a dense layer
//! over both accumulators clipped to `0..=QA` (the side to move's first):
//!
//! ```text
//! y = out_bias + Σ out[i]·clamp(acc_us[i]) + Σ out[hidden+i]·clamp(acc_them[i])
//! score = y · scale / (QA · QB)            (centipawns for the side to move)
//! ```
//!
//! Features of a perspective `p` (squares turned 180° for White, so that each
//! side sees the board from its own side; colours relative: own or enemy):
//! - a piece: (own king's bucket, own/enemy, kind, square) for every piece on
//!   the board, kings included;
//! - a hand (games with drops): (own king's bucket, own/enemy, base kind, n)
//!   for each n below the count of that kind in hand (at most
//!   [`HAND_SLOTS`] of one kind count).
//!
//! The king buckets ([`Buckets`]) split the own king's squares into a few
//! regions, each with its own feature weights (HalfKP with few buckets);
//! on 17x17 one bucket, so the features are per-side piece-square ones.
//!
//! The accumulator is kept move by move ([`Net::change`] before a move,
//! [`Net::apply`] after it): only the squares a move touches and the hand
//! counts it changes are subtracted and added, and a perspective whose
//! king changed bucket is counted again. Integer sums are exact, so the kept
//! accumulator equals a fresh one bit for bit (a test checks it).
//!
//! The file format ([`Net::to_bytes`]) starts with [`MAGIC`] and
//! [`VERSION`], names its game and dimensions, and ends with a checksum:
//! a file for another game, of other dimensions, cut short or altered is
//! refused with a reason. [`train`] fits a float model to selfplay data
//! and quantises it to this format.

pub mod train;

use banmen_rules::{BitBoard, Color, Kind, Move, Piece, Position, Rules, Square, VariantName};
use std::fmt;

/// The first bytes of a net file.
pub const MAGIC: &[u8; 8] = b"BANMENNN";
/// The version of the format.
pub const VERSION: u32 = 1;
/// Quantisation of the accumulator: a float 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights (int16): a float 1.0 is `QB`.
pub const QB: i32 = 1024;
/// Pieces of one base kind in hand that are features of their own.
pub const HAND_SLOTS: usize = 19;
/// Largest accumulator width a file may have.
pub const MAX_HIDDEN: usize = 2048;

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(pub String);

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

fn err<T>(text: impl Into<String>) -> Result<T, NetError> {
    Err(NetError(text.into()))
}

/// How the own king's square picks a set of feature weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buckets {
    /// One set for every square.
    One,
    /// Nine: the board's files in thirds times the king's rank (its own
    /// back rank, the next two, the rest), seen from its side.
    Nine,
}

impl Buckets {
    /// The bucket of every square, seen from the king's side (index: the
    /// square as [`Features`] turns it).
    fn table(self, files: i32, ranks: i32) -> Vec<u8> {
        let mut t = Vec::with_capacity((files * ranks) as usize);
        for file in 1..=files {
            for rank in 0..ranks {
                let b = match self {
                    Buckets::One => 0,
                    Buckets::Nine => {
                        let f = ((file - 1) * 3 / files) as u8;
                        let from_back = ranks - 1 - rank;
                        let r = match from_back {
                            0 => 0,
                            1 | 2 => 1,
                            _ => 2,
                        };
                        r * 3 + f
                    }
                };
                t.push(b);
            }
        }
        t
    }

    /// The name used by the trainer's `--buckets`.
    pub fn parse(text: &str) -> Result<Buckets, String> {
        match text {
            "1" | "one" => Ok(Buckets::One),
            "9" | "nine" => Ok(Buckets::Nine),
            _ => Err(format!("unknown buckets '{text}' (1 or 9)")),
        }
    }
}

/// The input features of one game: their layout and how a position activates them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub kinds: usize,
    pub squares: usize,
    pub n_base: usize,
    /// Hand features per base kind and side (0 in games without drops).
    pub hand_slots: usize,
    pub buckets: usize,
    /// The bucket of each square of the own king (turned to its side).
    pub bucket_of: Vec<u8>,
    /// Ranks of the board (to mirror squares).
    ranks: usize,
    /// The base kind of each kind.
    base: Vec<u8>,
    royal: Vec<bool>,
}

impl Features {
    /// The features of `rules`' game with the given king buckets.
    pub fn new<B: BitBoard>(rules: &Rules<B>, buckets: Buckets) -> Features {
        let g = rules.geometry;
        let bucket_of = buckets.table(g.files as i32, g.ranks as i32);
        Features::with_table(rules, bucket_of)
    }

    fn with_table<B: BitBoard>(rules: &Rules<B>, bucket_of: Vec<u8>) -> Features {
        let buckets = bucket_of.iter().map(|&b| b as usize + 1).max().unwrap_or(1);
        Features {
            kinds: rules.kinds.len(),
            squares: rules.geometry.squares(),
            n_base: rules.n_base,
            hand_slots: if rules.variant.drops { HAND_SLOTS } else { 0 },
            buckets,
            bucket_of,
            ranks: rules.geometry.ranks as usize,
            base: rules.kinds.iter().map(|k| k.base.0).collect(),
            royal: rules.kinds.iter().map(|k| k.royal).collect(),
        }
    }

    /// Features per bucket.
    pub fn per_bucket(&self) -> usize {
        2 * self.kinds * self.squares + 2 * self.n_base * self.hand_slots
    }

    /// Number of features.
    pub fn len(&self) -> usize {
        self.buckets * self.per_bucket()
    }

    /// Whether there are none (never for a real game).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// At most how many features of one perspective are active at once:
    /// every piece of the position on the board or in hand is one.
    pub fn max_active<B: BitBoard>(pos: &Position<B>) -> usize {
        let rules = pos.rules();
        let mut n = pos.occupied().count() as usize;
        for c in Color::ALL {
            for k in 0..rules.n_base {
                n += pos.hand_count(c, Kind(k as u8)) as usize;
            }
        }
        n
    }

    #[inline(always)]
    fn orient(&self, p: Color, sq: Square) -> usize {
        match p {
            Color::Black => sq.index(),
            Color::White => self.squares - 1 - sq.index(),
        }
    }

    #[inline(always)]
    fn bucket_base_at(&self, king: Option<Square>, p: Color) -> usize {
        let b = king.map_or(0, |k| self.bucket_of[self.orient(p, k)] as usize);
        b * self.per_bucket()
    }

    #[inline(always)]
    fn piece(&self, base: usize, p: Color, piece: Piece, sq: Square) -> usize {
        let rel = usize::from(piece.color != p);
        base + (rel * self.kinds + piece.kind.index()) * self.squares + self.orient(p, sq)
    }

    #[inline(always)]
    fn hand(&self, base: usize, p: Color, c: Color, k: usize, n: usize) -> usize {
        let rel = usize::from(c != p);
        base + 2 * self.kinds * self.squares + (rel * self.n_base + k) * self.hand_slots + n
    }

    /// The active features of `pos` from `p`'s perspective, appended to `out`.
    pub fn active<B: BitBoard>(&self, pos: &Position<B>, p: Color, out: &mut Vec<u32>) {
        self.collect(pos, p, |sq| sq, out);
    }

    /// The active features of `pos` with its files mirrored (file 1 seen
    /// as file 9): a second sample of the same value in games whose rules
    /// are symmetric, for training.
    pub fn active_mirrored<B: BitBoard>(&self, pos: &Position<B>, p: Color, out: &mut Vec<u32>) {
        let (files, ranks) = (self.squares / self.ranks, self.ranks);
        self.collect(
            pos,
            p,
            |sq| {
                let (f, r) = (sq.index() / ranks, sq.index() % ranks);
                Square(((files - 1 - f) * ranks + r) as u16)
            },
            out,
        );
    }

    fn collect<B: BitBoard>(
        &self,
        pos: &Position<B>,
        p: Color,
        map: impl Fn(Square) -> Square,
        out: &mut Vec<u32>,
    ) {
        let base = self.bucket_base_at(pos.king_square(p).map(&map), p);
        for c in Color::ALL {
            let mut bb = pos.color_bb(c);
            while let Some(sq) = bb.pop() {
                let piece = pos.piece_at(sq).expect("occupied");
                out.push(self.piece(base, p, piece, map(sq)) as u32);
            }
        }
        if self.hand_slots > 0 {
            for c in Color::ALL {
                for k in 0..self.n_base {
                    let n = (pos.hand_count(c, Kind(k as u8)) as usize).min(self.hand_slots);
                    for i in 0..n {
                        out.push(self.hand(base, p, c, k, i) as u32);
                    }
                }
            }
        }
    }
}

/// A quantised network for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub variant: VariantName,
    pub features: Features,
    pub hidden: usize,
    /// Centipawns of a float output of 1.0.
    pub scale: i32,
    /// `[hidden]`, in `QA` units.
    pub ft_bias: Vec<i16>,
    /// `[feature * hidden + i]`, in `QA` units.
    pub ft: Vec<i16>,
    /// `[2 * hidden]` (the side to move's half first), in `QB` units.
    pub out: Vec<i16>,
    /// In `QA · QB` units.
    pub out_bias: i32,
    /// Whether the net's output is added to the linear evaluation (it was
    /// trained on what that evaluation leaves over: a fixed linear path
    /// beside the network, as Stockfish's nets have a piece-square path)
    /// rather than being the whole score.
    pub residual: bool,
    /// Free text kept in the file (how it was made).
    pub about: String,
}

/// What a move will change in the accumulators, read before it is made.
#[derive(Clone, Copy, Debug)]
pub struct Change {
    squares: [Option<Square>; 4],
    before: [Option<Piece>; 4],
    /// (colour, base kind, count before).
    hands: [Option<(Color, u8, u8)>; 3],
    kings: [Option<Square>; 2],
}

impl Net {
    /// Checks that the net is for `rules`' game and that its tables have
    /// the sizes its dimensions say (what evaluating relies on).
    pub fn check_for<B: BitBoard>(&self, rules: &Rules<B>) -> Result<(), NetError> {
        if self.variant != rules.variant.name {
            return err(format!(
                "the net is for {}, not {}",
                self.variant, rules.variant.name
            ));
        }
        let want = Features::with_table(rules, self.features.bucket_of.clone());
        let f = &self.features;
        let h = self.hidden;
        if (f.kinds, f.squares, f.n_base, f.hand_slots, f.buckets)
            != (
                want.kinds,
                want.squares,
                want.n_base,
                want.hand_slots,
                want.buckets,
            )
            || f.bucket_of.len() != want.squares
            || h == 0
            || self.ft_bias.len() != h
            || self.ft.len() != f.len() * h
            || self.out.len() != 2 * h
        {
            return err("the net's tables do not fit its dimensions or this game");
        }
        Ok(())
    }

    /// The accumulator of `pos` from `p`'s perspective, counted afresh.
    pub fn refresh<B: BitBoard>(&self, pos: &Position<B>, p: Color, acc: &mut [i16]) {
        acc.copy_from_slice(&self.ft_bias);
        let mut active = Vec::with_capacity(64);
        self.features.active(pos, p, &mut active);
        for f in active {
            self.add_row(acc, f as usize);
        }
    }

    #[inline(always)]
    fn add_row(&self, acc: &mut [i16], f: usize) {
        let row = &self.ft[f * self.hidden..(f + 1) * self.hidden];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(*w);
        }
    }

    #[inline(always)]
    fn sub_row(&self, acc: &mut [i16], f: usize) {
        let row = &self.ft[f * self.hidden..(f + 1) * self.hidden];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Both accumulators of `pos` (Black's, then White's), `2 * hidden` values.
    pub fn refresh_both<B: BitBoard>(&self, pos: &Position<B>, acc: &mut [i16]) {
        let (b, w) = acc.split_at_mut(self.hidden);
        self.refresh(pos, Color::Black, b);
        self.refresh(pos, Color::White, w);
    }

    /// The score for the side to move from both accumulators (Black's first).
    #[inline]
    pub fn output(&self, acc: &[i16], side: Color) -> i32 {
        let h = self.hidden;
        let (black, white) = acc.split_at(h);
        let (us, them) = match side {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        let q = QA as i16;
        let mut sum: i32 = 0;
        for (a, w) in us.iter().zip(&self.out[..h]) {
            sum = sum.wrapping_add(i32::from((*a).clamp(0, q)) * i32::from(*w));
        }
        for (a, w) in them.iter().zip(&self.out[h..]) {
            sum = sum.wrapping_add(i32::from((*a).clamp(0, q)) * i32::from(*w));
        }
        let y = i64::from(sum) + i64::from(self.out_bias);
        (y * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The score for the side to move from lists of active features (the
    /// side to move's, the other side's), as a trainer holds positions.
    pub fn output_from_features(&self, us: &[u32], them: &[u32]) -> i32 {
        let h = self.hidden;
        let mut acc = vec![0i16; 2 * h];
        for (half, feats) in acc.chunks_exact_mut(h).zip([us, them]) {
            half.copy_from_slice(&self.ft_bias);
            for &f in feats {
                self.add_row(half, f as usize);
            }
        }
        self.output(&acc, Color::Black)
    }

    /// The score of `pos` for the side to move, counted afresh.
    pub fn evaluate<B: BitBoard>(&self, pos: &Position<B>) -> i32 {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh_both(pos, &mut acc);
        self.output(&acc, pos.side_to_move())
    }

    /// Reads what `m` will change in `pos` (before it is made).
    #[inline]
    pub fn change<B: BitBoard>(&self, pos: &Position<B>, m: Move) -> Change {
        let mut c = Change {
            squares: [m.from(), m.mid(), m.mid2(), Some(m.to())],
            before: [None; 4],
            hands: [None; 3],
            kings: [pos.king_square(Color::Black), pos.king_square(Color::White)],
        };
        for (i, sq) in c.squares.iter().enumerate() {
            if let Some(sq) = sq {
                c.before[i] = pos.piece_at(*sq);
            }
        }
        if self.features.hand_slots > 0 {
            let us = pos.side_to_move();
            if let Some(k) = m.dropped() {
                c.hands[0] = Some((us, k.0, pos.hand_count(us, k)));
            }
            if let Some(victim) = c.before[3].filter(|v| v.color != us) {
                let b = Kind(self.features.base[victim.kind.index()]);
                c.hands[1] = Some((us, b.0, pos.hand_count(us, b)));
            }
        }
        c
    }

    /// Updates `acc` (both perspectives, those of the position before the
    /// move) to `pos`, the position after the move `change` was read for.
    pub fn apply<B: BitBoard>(&self, change: &Change, pos: &Position<B>, acc: &mut [i16]) {
        let h = self.hidden;
        let f = &self.features;
        for p in Color::ALL {
            let slice = &mut acc[p.index() * h..(p.index() + 1) * h];
            let king_now = pos.king_square(p);
            let base_before = f.bucket_base_at(change.kings[p.index()], p);
            let base = f.bucket_base_at(king_now, p);
            if base != base_before {
                self.refresh(pos, p, slice);
                continue;
            }
            for i in 0..4 {
                let Some(sq) = change.squares[i] else {
                    continue;
                };
                // A square named twice (a lion's igui: from = to) is counted once.
                if change.squares[..i].contains(&Some(sq)) {
                    continue;
                }
                let now = pos.piece_at(sq);
                let was = change.before[i];
                if now == was {
                    continue;
                }
                if let Some(piece) = was {
                    self.sub_row(slice, f.piece(base, p, piece, sq));
                }
                if let Some(piece) = now {
                    self.add_row(slice, f.piece(base, p, piece, sq));
                }
            }
            for (i, hand) in change.hands.iter().enumerate() {
                let Some((c, k, was)) = *hand else {
                    continue;
                };
                if change.hands[..i]
                    .iter()
                    .any(|h| matches!(h, Some((c2, k2, _)) if *c2 == c && *k2 == k))
                {
                    continue;
                }
                let now = pos.hand_count(c, Kind(k)) as usize;
                let was = was as usize;
                let slots = f.hand_slots;
                for n in now.min(slots)..was.min(slots) {
                    self.sub_row(slice, f.hand(base, p, c, k as usize, n));
                }
                for n in was.min(slots)..now.min(slots) {
                    self.add_row(slice, f.hand(base, p, c, k as usize, n));
                }
            }
        }
    }

    /// The net as bytes (little-endian; see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 2 * self.ft.len());
        b.extend_from_slice(MAGIC);
        put_u32(&mut b, VERSION);
        put_str(&mut b, self.variant.as_str());
        put_str(&mut b, &self.about);
        put_u32(&mut b, u32::from(self.residual));
        let f = &self.features;
        for v in [f.kinds, f.squares, f.n_base, f.hand_slots, self.hidden] {
            put_u32(&mut b, v as u32);
        }
        b.extend_from_slice(&f.bucket_of);
        put_u32(&mut b, self.scale as u32);
        put_u32(&mut b, QA as u32);
        put_u32(&mut b, QB as u32);
        for v in self.ft_bias.iter().chain(&self.ft).chain(&self.out) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        put_u32(&mut b, self.out_bias as u32);
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// The game a net file is for, read from its header after checking the
    /// magic, version and checksum (the rest is checked by [`Net::from_bytes`]).
    pub fn game_of(bytes: &[u8]) -> Result<VariantName, NetError> {
        Ok(Net::open(bytes)?.1)
    }

    /// Checks magic, version and checksum; returns a reader after the game's
    /// name, and the game.
    fn open(bytes: &[u8]) -> Result<(Reader<'_>, VariantName), NetError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return err("not a Banmen net file (it does not start with BANMENNN)");
        }
        if bytes.len() < MAGIC.len() + 12 {
            return err("the file is cut short");
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let version = r.u32()?;
        if version != VERSION {
            return err(format!(
                "net format version {version}; this Banmen reads version {VERSION}"
            ));
        }
        if checksum(body) != sum {
            return err("the checksum does not match: the file is cut short or altered");
        }
        let name = r.str()?;
        let variant: VariantName = name
            .parse()
            .map_err(|_| NetError(format!("unknown game '{name}'")))?;
        Ok((r, variant))
    }

    /// Reads a net for `rules`' game, refusing one for another game, of
    /// other dimensions, cut short or altered.
    pub fn from_bytes<B: BitBoard>(bytes: &[u8], rules: &Rules<B>) -> Result<Net, NetError> {
        let (mut r, variant) = Net::open(bytes)?;
        if variant != rules.variant.name {
            return err(format!(
                "the net is for {variant}, not {}",
                rules.variant.name
            ));
        }
        let about = r.str()?;
        let residual = match r.u32()? {
            0 => false,
            1 => true,
            f => return err(format!("unknown flags {f}")),
        };
        let expected = Features::with_table(rules, Vec::new());
        let dims = [r.u32()?, r.u32()?, r.u32()?, r.u32()?];
        let hidden = r.u32()? as usize;
        let want = [
            expected.kinds,
            expected.squares,
            expected.n_base,
            expected.hand_slots,
        ];
        if dims.iter().map(|&d| d as usize).ne(want) {
            return err(format!(
                "the net's kinds, squares, base kinds and hand slots are {dims:?}; {} has {want:?}",
                rules.variant.name
            ));
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return err(format!("hidden size {hidden} outside 1..={MAX_HIDDEN}"));
        }
        let table = r.take(expected.squares)?.to_vec();
        if table.iter().any(|&b| b >= 64) {
            return err("a king bucket above 63");
        }
        let features = Features::with_table(rules, table);
        let scale = r.u32()? as i32;
        let (qa, qb) = (r.u32()?, r.u32()?);
        if (qa, qb) != (QA as u32, QB as u32) {
            return err(format!(
                "quantisation {qa}/{qb}; this Banmen uses {QA}/{QB}"
            ));
        }
        if !(1..=100_000).contains(&scale) {
            return err(format!("scale {scale} outside 1..=100000"));
        }
        let ft_bias = r.i16s(hidden)?;
        let ft = r.i16s(features.len() * hidden)?;
        let out = r.i16s(2 * hidden)?;
        let out_bias = r.u32()? as i32;
        if r.at != r.bytes.len() {
            return err(format!("{} bytes after the net", r.bytes.len() - r.at));
        }
        // The output sum must not overflow: |out| · QA · 2 · hidden < 2^31.
        let limit = (i32::MAX as usize / (QA as usize * 2 * hidden)).min(i16::MAX as usize);
        if out.iter().any(|&w| w.unsigned_abs() as usize > limit) {
            return err(format!("an output weight above {limit}"));
        }
        Ok(Net {
            variant,
            features,
            hidden,
            scale,
            ft_bias,
            ft,
            out,
            out_bias,
            residual,
            about,
        })
    }
}

fn put_u32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_le_bytes());
}

fn put_str(b: &mut Vec<u8>, s: &str) {
    put_u32(b, s.len() as u32);
    b.extend_from_slice(s.as_bytes());
}

/// FNV-1a, 64 bits.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetError> {
        if self.bytes.len() - self.at < n {
            return err("the file is cut short");
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }

    fn str(&mut self) -> Result<String, NetError> {
        let n = self.u32()? as usize;
        if n > 1 << 16 {
            return err("a text field longer than 64 KiB");
        }
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| NetError("text not UTF-8".into()))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetError> {
        let bytes = self.take(
            n.checked_mul(2)
                .ok_or_else(|| NetError("too large".into()))?,
        )?;
        Ok(bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

#[cfg(test)]
mod tests;
