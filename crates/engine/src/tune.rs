//! Fitting the evaluation's parameters to game data (logistic "Texel" tuning).
//!
//! Each sample is a position's features ([`crate::Evaluator::features`]) and a
//! target: the probability that Black wins, blended from the game's result
//! and the search score recorded with the position. The model predicts
//! `sigmoid(eval / scale)`; full-batch Adam descends the cross-entropy, with
//! an L2 pull towards the starting parameters so that features the data
//! rarely shows stay where they were. No I/O: the caller reads the data and
//! writes the result.

/// Samples in compact form: features of all samples end to end.
#[derive(Debug, Default, Clone)]
pub struct Samples {
    index: Vec<u32>,
    count: Vec<i16>,
    /// Where each sample's features start in `index`/`count` (one past the last at the end).
    start: Vec<u32>,
    target: Vec<f32>,
}

impl Samples {
    /// No samples.
    pub fn new() -> Samples {
        Samples {
            start: vec![0],
            ..Samples::default()
        }
    }

    /// Adds a sample: `features` with counts from Black's point of view,
    /// `target` the probability that Black wins (0..=1).
    pub fn push(&mut self, features: &[(u32, i32)], target: f32) {
        for &(i, c) in features {
            self.index.push(i);
            self.count
                .push(c.clamp(i16::MIN as i32, i16::MAX as i32) as i16);
        }
        self.start.push(self.index.len() as u32);
        self.target.push(target.clamp(0.0, 1.0));
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    fn eval(&self, s: usize, w: &[f64]) -> f64 {
        let (a, b) = (self.start[s] as usize, self.start[s + 1] as usize);
        let mut e = 0.0;
        for j in a..b {
            e += f64::from(self.count[j]) * w[self.index[j] as usize];
        }
        e
    }
}

/// Settings of [`tune`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TuneOptions {
    /// Centipawns per unit of log-odds.
    pub scale: f64,
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Strength of the pull towards the starting parameters.
    pub l2: f64,
    /// Worker threads for the gradient.
    pub threads: usize,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            scale: 600.0,
            epochs: 400,
            learning_rate: 2.0,
            l2: 1e-7,
            threads: 2,
        }
    }
}

/// The mean cross-entropy of `w` over `data` (what [`tune`] lowers), and the
/// mean squared error of the predicted probability.
pub fn loss(data: &Samples, w: &[i32], scale: f64) -> (f64, f64) {
    let w: Vec<f64> = w.iter().map(|&x| f64::from(x)).collect();
    loss_f64(data, &w, scale)
}

fn loss_f64(data: &Samples, w: &[f64], scale: f64) -> (f64, f64) {
    let (mut ce, mut se) = (0.0, 0.0);
    for s in 0..data.len() {
        let p = sigmoid(data.eval(s, w) / scale).clamp(1e-9, 1.0 - 1e-9);
        let t = f64::from(data.target[s]);
        ce -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
        se += (p - t) * (p - t);
    }
    let n = data.len().max(1) as f64;
    (ce / n, se / n)
}

/// Fits parameters to `train`, starting from `initial`; `fixed[i]` keeps
/// parameter `i` as it is. `progress` receives (epoch, training loss,
/// held-out loss or NaN) every few epochs. With `valid`, the parameters of
/// the check (every 10 epochs, and the last) with the lowest cross-entropy
/// on `valid` are returned (early stopping: more epochs then cannot overfit
/// the held-out games); without, those of the last epoch. Returns the
/// rounded parameters and the epoch they come from.
pub fn tune(
    train: &Samples,
    valid: Option<&Samples>,
    initial: &[i32],
    fixed: &[bool],
    options: &TuneOptions,
    progress: &mut dyn FnMut(usize, f64, f64),
) -> (Vec<i32>, usize) {
    let n = initial.len();
    let prior: Vec<f64> = initial.iter().map(|&x| f64::from(x)).collect();
    let mut w = prior.clone();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let threads = options.threads.max(1);
    let samples = train.len();
    let chunk = samples.div_ceil(threads).max(1);
    let mut best = valid.map(|v| (loss_f64(v, &w, options.scale).0, w.clone(), 0));
    for epoch in 1..=options.epochs {
        let parts: Vec<(Vec<f64>, f64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let w = &w;
                    scope.spawn(move || {
                        let mut g = vec![0.0; n];
                        let mut ce = 0.0;
                        let end = ((t + 1) * chunk).min(samples);
                        for s in t * chunk..end {
                            let p = sigmoid(train.eval(s, w) / options.scale);
                            let y = f64::from(train.target[s]);
                            let pc = p.clamp(1e-9, 1.0 - 1e-9);
                            ce -= y * pc.ln() + (1.0 - y) * (1.0 - pc).ln();
                            let d = (p - y) / options.scale;
                            let (a, b) = (train.start[s] as usize, train.start[s + 1] as usize);
                            for j in a..b {
                                g[train.index[j] as usize] += d * f64::from(train.count[j]);
                            }
                        }
                        (g, ce)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("gradient thread"))
                .collect()
        });
        let mut g = vec![0.0; n];
        let mut ce = 0.0;
        for (part, c) in parts {
            for (a, b) in g.iter_mut().zip(part) {
                *a += b;
            }
            ce += c;
        }
        let inv = 1.0 / samples.max(1) as f64;
        let t = epoch as i32;
        for i in 0..n {
            if fixed.get(i).copied().unwrap_or(false) {
                continue;
            }
            let gi = g[i] * inv + options.l2 * (w[i] - prior[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - f64::powi(b1, t));
            let vh = v[i] / (1.0 - f64::powi(b2, t));
            w[i] -= options.learning_rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 10 == 0 || epoch == options.epochs {
            let mut held = f64::NAN;
            if let (Some(v), Some(b)) = (valid, best.as_mut()) {
                held = loss_f64(v, &w, options.scale).0;
                if held < b.0 {
                    *b = (held, w.clone(), epoch);
                }
            }
            progress(epoch, ce * inv, held);
        }
    }
    let (w, epoch) = match best {
        Some((_, w, epoch)) => (w, epoch),
        None => (w, options.epochs),
    };
    (w.iter().map(|&x| x.round() as i32).collect(), epoch)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up game: feature 0 is worth 300, feature 1 nothing; the tuner
    /// finds that from outcomes drawn with those odds.
    #[test]
    fn recovers_a_known_value() {
        let mut data = Samples::new();
        let mut rng = Lcg(7);
        for _ in 0..4000 {
            let a = (rng.next() % 5) as i32 - 2;
            let b = (rng.next() % 5) as i32 - 2;
            let p = sigmoid(f64::from(300 * a) / 600.0);
            let won = (rng.next() % 10_000) as f64 / 10_000.0 < p;
            data.push(&[(0, a), (1, b)], if won { 1.0 } else { 0.0 });
        }
        let before = loss(&data, &[0, 0], 600.0).0;
        let options = TuneOptions {
            epochs: 600,
            learning_rate: 5.0,
            ..TuneOptions::default()
        };
        let (w, _) = tune(
            &data,
            None,
            &[0, 0],
            &[false, false],
            &options,
            &mut |_, _, _| {},
        );
        assert!((220..=380).contains(&w[0]), "{w:?}");
        assert!(w[1].abs() < 60, "{w:?}");
        assert!(loss(&data, &w, 600.0).0 < before);
        let (kept, _) = tune(
            &data,
            None,
            &[0, 0],
            &[true, false],
            &options,
            &mut |_, _, _| {},
        );
        assert_eq!(kept[0], 0);
    }

    /// Few games and many noise features: the last epoch has fitted the
    /// noise, the kept check has not; it is never worse on the held-out set.
    #[test]
    fn keeps_the_best_held_out_check() {
        let mut rng = Lcg(11);
        let mut sample = |data: &mut Samples| {
            let a = (rng.next() % 5) as i32 - 2;
            let noise = 1 + (rng.next() % 60) as u32;
            let p = sigmoid(f64::from(300 * a) / 600.0);
            let won = (rng.next() % 10_000) as f64 / 10_000.0 < p;
            data.push(&[(0, a), (noise, 1)], if won { 1.0 } else { 0.0 });
        };
        let (mut train, mut valid) = (Samples::new(), Samples::new());
        for _ in 0..300 {
            sample(&mut train);
        }
        for _ in 0..3000 {
            sample(&mut valid);
        }
        let options = TuneOptions {
            epochs: 800,
            learning_rate: 10.0,
            ..TuneOptions::default()
        };
        let start = vec![0; 61];
        let fixed = vec![false; 61];
        let (last, e) = tune(&train, None, &start, &fixed, &options, &mut |_, _, _| {});
        assert_eq!(e, 800);
        let mut checks = 0;
        let (kept, epoch) = tune(
            &train,
            Some(&valid),
            &start,
            &fixed,
            &options,
            &mut |_, _, v| {
                assert!(v.is_finite());
                checks += 1;
            },
        );
        assert_eq!(checks, 80);
        assert!(epoch < 800, "kept epoch {epoch}");
        let (k, l) = (loss(&valid, &kept, 600.0).0, loss(&valid, &last, 600.0).0);
        assert!(k < l, "kept {k} against last {l}");
    }

    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }
}
