//! Training a [`Net`]: a float model of the same shape, fitted to positions
//! with targets (the win probability blended from a search score and the
//! game's result) by Adam on the cross-entropy of `sigmoid(y)`, then
//! quantised.
//!
//! Samples are sparse (a few dozen active features per perspective), so
//! each batch touches few rows of the feature transformer: gradients are
//! kept per thread in dense rows with a list of the rows touched, and Adam
//! updates only those rows (as a sparse Adam does); the output layer and
//! the biases are updated every batch. Weights are clipped so that the
//! quantised accumulator cannot overflow int16 (see [`TrainOptions::ft_clip`]).

use super::{Features, Net, QA, QB};
use banmen_rules::testing::XorShift;
use banmen_rules::VariantName;

/// Positions as active features of the side to move and of the other side, with targets.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    feats: Vec<u32>,
    /// Per sample: where its side to move's features start, where the
    /// other side's start, where they end.
    bounds: Vec<(usize, usize, usize)>,
    target: Vec<f32>,
    /// Per sample, what is added to the net's output (the linear
    /// evaluation over the scale, for a residual net; else empty: 0).
    offset: Vec<f32>,
}

impl Dataset {
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Adds a position: the active features of the side to move and of
    /// the other side, and the side to move's target in `0..=1`.
    pub fn push(&mut self, us: &[u32], them: &[u32], target: f32) {
        let a = self.feats.len();
        self.feats.extend_from_slice(us);
        let b = self.feats.len();
        self.feats.extend_from_slice(them);
        self.bounds.push((a, b, self.feats.len()));
        self.target.push(target);
    }

    /// Like [`Self::push`], with an offset added to the net's output (the
    /// linear evaluation over the scale, for a residual net). Either every
    /// sample has one or none.
    pub fn push_with_offset(&mut self, us: &[u32], them: &[u32], target: f32, offset: f32) {
        assert_eq!(
            self.offset.len(),
            self.target.len(),
            "offsets for every sample or none"
        );
        self.push(us, them, target);
        self.offset.push(offset);
    }

    /// The offset of sample `i`.
    pub fn offset_of(&self, i: usize) -> f32 {
        self.offset.get(i).copied().unwrap_or(0.0)
    }

    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The target of sample `i`.
    pub fn target_of(&self, i: usize) -> f32 {
        self.target[i]
    }

    /// The active features of sample `i`: the side to move's, the other side's.
    pub fn features_of(&self, i: usize) -> (&[u32], &[u32]) {
        let (us, them, _) = self.sample(i);
        (us, them)
    }

    fn sample(&self, i: usize) -> (&[u32], &[u32], f32) {
        let (a, b, c) = self.bounds[i];
        (&self.feats[a..b], &self.feats[b..c], self.target[i])
    }

    fn sample_with_offset(&self, i: usize) -> (&[u32], &[u32], f32, f32) {
        let (us, them, t) = self.sample(i);
        (us, them, t, self.offset_of(i))
    }
}

/// The float model a [`Net`] is quantised from.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub variant: VariantName,
    pub features: Features,
    pub hidden: usize,
    /// Centipawns of an output of 1.0.
    pub scale: i32,
    pub ft: Vec<f32>,
    pub ft_bias: Vec<f32>,
    pub out: Vec<f32>,
    pub out_bias: f32,
    /// Whether the net is added to the linear evaluation ([`Net::residual`]).
    pub residual: bool,
    /// Whether `ft` has, after the features' rows, one shared row per
    /// feature of a bucket ([`Self::factorise`]).
    pub factored: bool,
}

/// The output weights' bound, so that `|out| · QB` fits the quantised limits.
const OUT_CLIP: f32 = 1.98;

impl FloatNet {
    /// A model with small random weights.
    pub fn new(
        variant: VariantName,
        features: Features,
        hidden: usize,
        scale: i32,
        seed: u64,
    ) -> FloatNet {
        let mut rng = XorShift::new(seed);
        let mut uniform = |r: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * r
        };
        let n = features.len();
        let ft = (0..n * hidden).map(|_| uniform(0.08)).collect();
        let ft_bias = (0..hidden).map(|_| uniform(0.08) + 0.2).collect();
        let r = 1.0 / (2.0 * hidden as f32).sqrt();
        let out = (0..2 * hidden).map(|_| uniform(r)).collect();
        FloatNet {
            variant,
            features,
            hidden,
            scale,
            ft,
            ft_bias,
            out,
            out_bias: 0.0,
            residual: false,
            factored: false,
        }
    }

    /// Adds a row per feature of one bucket that every bucket shares (zero
    /// at first; a "factoriser"): a feature's weight is its own row plus
    /// the shared one, so what is learnt of a piece on a square in one king
    /// bucket serves the others. [`Self::quantise`] merges them. Nothing
    /// changes with one bucket.
    pub fn factorise(&mut self) {
        if self.features.buckets > 1 && !self.factored {
            self.ft.extend(std::iter::repeat_n(
                0.0,
                self.features.per_bucket() * self.hidden,
            ));
            self.factored = true;
        }
    }

    /// The rows a feature adds: its own, and the shared one when factored.
    #[inline(always)]
    fn rows(&self, f: u32) -> (usize, Option<usize>) {
        let f = f as usize;
        let shared = self
            .factored
            .then(|| self.features.len() + f % self.features.per_bucket());
        (f, shared)
    }

    fn accumulate(&self, feats: &[u32], acc: &mut [f32]) {
        acc.copy_from_slice(&self.ft_bias);
        let h = self.hidden;
        for &f in feats {
            let (own, shared) = self.rows(f);
            for r in std::iter::once(own).chain(shared) {
                for (a, w) in acc.iter_mut().zip(&self.ft[r * h..(r + 1) * h]) {
                    *a += *w;
                }
            }
        }
    }

    /// The output (`score / scale`) for the side to move.
    pub fn forward(&self, us: &[u32], them: &[u32]) -> f32 {
        let h = self.hidden;
        let mut a = vec![0.0; h];
        let mut y = self.out_bias;
        self.accumulate(us, &mut a);
        y += a
            .iter()
            .zip(&self.out[..h])
            .map(|(a, w)| a.clamp(0.0, 1.0) * w)
            .sum::<f32>();
        self.accumulate(them, &mut a);
        y += a
            .iter()
            .zip(&self.out[h..])
            .map(|(a, w)| a.clamp(0.0, 1.0) * w)
            .sum::<f32>();
        y
    }

    /// The quantised net.
    pub fn quantise(&self, about: &str) -> Net {
        let q16 = |v: f32, s: i32| (v * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        Net {
            variant: self.variant,
            features: self.features.clone(),
            hidden: self.hidden,
            scale: self.scale,
            ft_bias: self.ft_bias.iter().map(|&v| q16(v, QA)).collect(),
            ft: (0..self.features.len() as u32)
                .flat_map(|f| {
                    let (own, shared) = self.rows(f);
                    (0..self.hidden).map(move |i| {
                        let w = self.ft[own * self.hidden + i]
                            + shared.map_or(0.0, |r| self.ft[r * self.hidden + i]);
                        q16(w, QA)
                    })
                })
                .collect(),
            out: self.out.iter().map(|&v| q16(v, QB)).collect(),
            out_bias: (self.out_bias * (QA * QB) as f32).round() as i32,
            residual: self.residual,
            about: about.to_string(),
        }
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// The learning rate of the last epoch, as a share of the first
    /// (it falls geometrically in between).
    pub final_share: f32,
    pub threads: usize,
    /// Bound of the feature transformer's weights and biases: with at most
    /// `m` features active, `(m + 1) · ft_clip · QA` must stay below 32767
    /// ([`ft_clip_for`]).
    pub ft_clip: f32,
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            epochs: 10,
            batch: 8192,
            learning_rate: 1e-3,
            final_share: 0.1,
            threads: 2,
            ft_clip: 1.98,
            seed: 1,
        }
    }
}

/// The feature transformer's bound for positions with at most `max_active`
/// features active per perspective (the game's piece count).
pub fn ft_clip_for(max_active: usize) -> f32 {
    (32_000.0 / (QA as f32 * (max_active as f32 + 1.0))).min(OUT_CLIP)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of the model on `data` (0 for no data).
pub fn loss(net: &FloatNet, data: &Dataset) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let mut total = 0.0f64;
    for i in 0..data.len() {
        let (us, them, t, o) = data.sample_with_offset(i);
        let p = sigmoid(o + net.forward(us, them)).clamp(1e-6, 1.0 - 1e-6) as f64;
        let t = t as f64;
        total -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
    }
    total / data.len() as f64
}

/// One thread's gradient.
struct Grad {
    ft: Vec<f32>,
    touched: Vec<bool>,
    rows: Vec<u32>,
    ft_bias: Vec<f32>,
    out: Vec<f32>,
    out_bias: f32,
    loss: f64,
}

impl Grad {
    fn new(net: &FloatNet) -> Grad {
        Grad {
            ft: vec![0.0; net.ft.len()],
            touched: vec![false; net.ft.len() / net.hidden],
            rows: Vec::new(),
            ft_bias: vec![0.0; net.hidden],
            out: vec![0.0; 2 * net.hidden],
            out_bias: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self, h: usize) {
        for &r in &self.rows {
            let r = r as usize;
            self.ft[r * h..(r + 1) * h].fill(0.0);
            self.touched[r] = false;
        }
        self.rows.clear();
        self.ft_bias.fill(0.0);
        self.out.fill(0.0);
        self.out_bias = 0.0;
        self.loss = 0.0;
    }

    /// Adds the gradient of one sample.
    fn add(
        &mut self,
        net: &FloatNet,
        (us, them, t, offset): (&[u32], &[u32], f32, f32),
        scratch: &mut [f32],
    ) {
        let h = net.hidden;
        let (a_us, a_them) = scratch.split_at_mut(h);
        net.accumulate(us, a_us);
        net.accumulate(them, a_them);
        let mut y = net.out_bias + offset;
        for i in 0..h {
            y += a_us[i].clamp(0.0, 1.0) * net.out[i] + a_them[i].clamp(0.0, 1.0) * net.out[h + i];
        }
        let p = sigmoid(y);
        let pc = p.clamp(1e-6, 1.0 - 1e-6) as f64;
        self.loss -= t as f64 * pc.ln() + (1.0 - t as f64) * (1.0 - pc).ln();
        let g = p - t;
        self.out_bias += g;
        for i in 0..h {
            self.out[i] += g * a_us[i].clamp(0.0, 1.0);
            self.out[h + i] += g * a_them[i].clamp(0.0, 1.0);
            // The accumulators now hold the gradients reaching them.
            a_us[i] = if a_us[i] > 0.0 && a_us[i] < 1.0 {
                g * net.out[i]
            } else {
                0.0
            };
            a_them[i] = if a_them[i] > 0.0 && a_them[i] < 1.0 {
                g * net.out[h + i]
            } else {
                0.0
            };
            self.ft_bias[i] += a_us[i] + a_them[i];
        }
        for (feats, d) in [(us, &*a_us), (them, &*a_them)] {
            for &f in feats {
                let (own, shared) = net.rows(f);
                for r in std::iter::once(own).chain(shared) {
                    if !self.touched[r] {
                        self.touched[r] = true;
                        self.rows.push(r as u32);
                    }
                    for (gw, d) in self.ft[r * h..(r + 1) * h].iter_mut().zip(d) {
                        *gw += *d;
                    }
                }
            }
        }
    }

    /// Adds another thread's gradient into this one.
    fn merge(&mut self, other: &Grad, h: usize) {
        for &f in &other.rows {
            let r = f as usize;
            if !self.touched[r] {
                self.touched[r] = true;
                self.rows.push(f);
            }
            for (a, b) in self.ft[r * h..(r + 1) * h]
                .iter_mut()
                .zip(&other.ft[r * h..(r + 1) * h])
            {
                *a += *b;
            }
        }
        for (a, b) in self.ft_bias.iter_mut().zip(&other.ft_bias) {
            *a += *b;
        }
        for (a, b) in self.out.iter_mut().zip(&other.out) {
            *a += *b;
        }
        self.out_bias += other.out_bias;
        self.loss += other.loss;
    }
}

/// Adam's moments of one parameter vector.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

#[inline(always)]
fn adam(w: &mut f32, g: f32, m: &mut f32, v: &mut f32, lr: f32, clip: f32) {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    *w = (*w - lr * *m / (v.sqrt() + EPS)).clamp(-clip, clip);
}

/// Trains `net` on `train`, reporting each epoch's mean training loss and
/// the loss on `valid` to `progress`. With held-out data, `net` ends as it
/// was after the epoch with the least held-out loss (early stopping).
pub fn train(
    net: &mut FloatNet,
    train: &Dataset,
    valid: &Dataset,
    options: &TrainOptions,
    progress: &mut dyn FnMut(usize, f64, f64),
) {
    let h = net.hidden;
    let threads = options.threads.max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(net)).collect();
    let mut ft_m = Moments::new(net.ft.len());
    let mut bias_m = Moments::new(h);
    let mut out_m = Moments::new(2 * h);
    let mut ob_m = Moments::new(1);
    let mut rng = XorShift::new(options.seed);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let batch = options.batch.max(1);
    let mut step = 0i32;
    let mut best: Option<(f64, FloatNet)> = None;
    for epoch in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let share = if options.epochs > 1 {
            options
                .final_share
                .powf(epoch as f32 / (options.epochs - 1) as f32)
        } else {
            1.0
        };
        let lr = options.learning_rate * share;
        let mut epoch_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            let per = chunk.len().div_ceil(threads);
            let model = &*net;
            std::thread::scope(|s| {
                for (g, part) in grads.iter_mut().zip(chunk.chunks(per)) {
                    s.spawn(move || {
                        let mut scratch = vec![0.0f32; 2 * h];
                        g.clear(h);
                        for &i in part {
                            g.add(model, train.sample_with_offset(i as usize), &mut scratch);
                        }
                    });
                }
            });
            let used = chunk.chunks(per).count();
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                first[0].merge(other, h);
            }
            let g = &mut first[0];
            epoch_loss += g.loss;
            step += 1;
            // Adam's bias correction folded into the rate.
            let correction = (1.0 - BETA2.powi(step)).sqrt() / (1.0 - BETA1.powi(step));
            let rate = lr * correction;
            let n = chunk.len() as f32;
            // A factored feature's weight is the sum of two rows.
            let clip = if net.factored {
                options.ft_clip / 2.0
            } else {
                options.ft_clip
            };
            for &f in &g.rows {
                let r = f as usize;
                for i in r * h..(r + 1) * h {
                    adam(
                        &mut net.ft[i],
                        g.ft[i] / n,
                        &mut ft_m.m[i],
                        &mut ft_m.v[i],
                        rate,
                        clip,
                    );
                }
            }
            for i in 0..h {
                adam(
                    &mut net.ft_bias[i],
                    g.ft_bias[i] / n,
                    &mut bias_m.m[i],
                    &mut bias_m.v[i],
                    rate,
                    clip,
                );
            }
            for i in 0..2 * h {
                adam(
                    &mut net.out[i],
                    g.out[i] / n,
                    &mut out_m.m[i],
                    &mut out_m.v[i],
                    rate,
                    OUT_CLIP,
                );
            }
            adam(
                &mut net.out_bias,
                g.out_bias / n,
                &mut ob_m.m[0],
                &mut ob_m.v[0],
                rate,
                64.0,
            );
        }
        let train_loss = epoch_loss / train.len().max(1) as f64;
        let valid_loss = loss(net, valid);
        progress(epoch + 1, train_loss, valid_loss);
        if !valid.is_empty() && best.as_ref().is_none_or(|(b, _)| valid_loss < *b) {
            best = Some((valid_loss, net.clone()));
        }
    }
    if let Some((_, kept)) = best {
        *net = kept;
    }
}
