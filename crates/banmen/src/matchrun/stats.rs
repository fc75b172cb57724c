//! Statistics of `banmen match`: Elo and its interval from wins, draws and
//! losses, the SPRT, the running tally and the closing summary.

use super::game::GameResult;
use super::Setup;
use std::fmt::Write as _;

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

impl Sprt {
    pub(super) fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("bad --sprt part '{part}': expected key=value"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("bad --sprt value '{v}' for {k}"))?;
            match k.trim() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => {
                    return Err(format!(
                        "unknown --sprt key '{other}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err("--sprt alpha and beta must be between 0 and 0.5".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt elo1 must be greater than elo0".into());
        }
        Ok(s)
    }

    /// (lower, upper) bounds of the log-likelihood ratio.
    pub(super) fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0, by the normal approximation
    /// of the score with the trinomial variance (the GSPRT without BayesElo).
    pub(super) fn llr(&self, wdl: [u64; 3]) -> f64 {
        let n = (wdl[0] + wdl[1] + wdl[2]) as f64;
        if n == 0.0 {
            return 0.0;
        }
        let (s, var) = score_and_variance(wdl);
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// The logistic expected score of an Elo difference.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score (infinite at 0 and 1).
fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Mean score and per-game variance of wins, draws, losses.
fn score_and_variance(wdl: [u64; 3]) -> (f64, f64) {
    let [w, d, l] = wdl.map(|x| x as f64);
    let n = w + d + l;
    if n == 0.0 {
        return (0.5, 0.0);
    }
    let s = (w + 0.5 * d) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    (s, var)
}

/// Elo with its 95% interval: (elo, low, high).
fn elo_interval(wdl: [u64; 3]) -> (f64, f64, f64) {
    let n = (wdl[0] + wdl[1] + wdl[2]) as f64;
    let (s, var) = score_and_variance(wdl);
    let se = if n > 0.0 { (var / n).sqrt() } else { 0.0 };
    let z = 1.959_964;
    (
        elo_of(s),
        elo_of((s - z * se).max(0.0)),
        elo_of((s + z * se).min(1.0)),
    )
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // `+ 0.0` turns -0.0 into 0.0.
        format!("{:+.1}", e + 0.0)
    }
}

/// Why an engine lost without the rules ending the game.
const PROBLEMS: [&str; 4] = ["illegal-move", "crash", "time-forfeit", "bad-declaration"];

/// Running totals.
#[derive(Debug, Default)]
pub(super) struct Tally {
    /// Wins, draws, losses of engine 1.
    pub(super) wdl: [u64; 3],
    reasons: Vec<(String, u64)>,
    /// Per problem kind (PROBLEMS order), per losing engine.
    problems: [[u64; 2]; 4],
    late: [u64; 2],
    /// The most milliseconds over the allowance, per engine.
    over: [u64; 2],
}

impl Tally {
    pub(super) fn add(&mut self, r: &GameResult) {
        match r.winner_engine() {
            Some(0) => self.wdl[0] += 1,
            Some(_) => self.wdl[2] += 1,
            None => self.wdl[1] += 1,
        }
        match self.reasons.iter_mut().find(|(k, _)| *k == r.reason) {
            Some((_, n)) => *n += 1,
            None => self.reasons.push((r.reason.clone(), 1)),
        }
        if let Some(p) = PROBLEMS.iter().position(|p| *p == r.reason) {
            if let Some(w) = r.winner_engine() {
                self.problems[p][1 - w] += 1;
            }
        }
        self.late[0] += u64::from(r.late[0]);
        self.late[1] += u64::from(r.late[1]);
        for e in 0..2 {
            self.over[e] = self.over[e].max(r.over[e]);
        }
    }

    pub(super) fn short(&self) -> String {
        let (elo, _, _) = elo_interval(self.wdl);
        format!(
            "W {} D {} L {}  Elo {}",
            self.wdl[0],
            self.wdl[1],
            self.wdl[2],
            fmt_elo(elo)
        )
    }
}

/// The closing summary (also `summary.txt`).
pub(super) fn summary(
    tally: &Tally,
    names: &[String; 2],
    sprt: Option<&Sprt>,
    setup: &Setup,
) -> String {
    let [w, d, l] = tally.wdl;
    let n = w + d + l;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} vs {} ({}, {}): {n} games",
        names[0], names[1], setup.variant, setup.tc_text
    );
    let _ = writeln!(s, "W/D/L (first engine): {w} / {d} / {l}");
    let (score, _) = score_and_variance(tally.wdl);
    let _ = writeln!(s, "Score: {:.1}%", score * 100.0);
    let (elo, lo, hi) = elo_interval(tally.wdl);
    let _ = writeln!(
        s,
        "Elo: {} (95% interval {} .. {})",
        fmt_elo(elo),
        fmt_elo(lo),
        fmt_elo(hi)
    );
    if let Some(sp) = sprt {
        let llr = sp.llr(tally.wdl);
        let (a, b) = sp.bounds();
        let verdict = if llr >= b {
            format!("H1 accepted (elo >= {})", sp.elo1)
        } else if llr <= a {
            format!("H0 accepted (elo <= {})", sp.elo0)
        } else {
            "inconclusive".to_string()
        };
        let _ = writeln!(
            s,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.3} (bounds {a:.3} .. {b:.3}): {verdict}",
            sp.elo0, sp.elo1, sp.alpha, sp.beta
        );
    }
    let reasons: Vec<String> = tally
        .reasons
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(s, "Reasons: {}", reasons.join(", "));
    let problems: Vec<String> = PROBLEMS
        .iter()
        .zip(&tally.problems)
        .map(|(p, [a, b])| format!("{p} {} ({a}+{b})", a + b))
        .collect();
    let _ = writeln!(
        s,
        "Problems (engine 1 + engine 2): {}; late moves {} ({}+{}); most over the allowance \
         {} / {} ms",
        problems.join(", "),
        tally.late[0] + tally.late[1],
        tally.late[0],
        tally.late[1],
        tally.over[0],
        tally.over[1]
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_interval() {
        assert!((elo_of(0.5)).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.85).abs() < 0.01);
        let (e, lo, hi) = elo_interval([10, 0, 10]);
        assert!(e.abs() < 1e-9 && lo < -100.0 && hi > 100.0 && (lo + hi).abs() < 1e-6);
        let (e, _, _) = elo_interval([3, 0, 0]);
        assert!(e.is_infinite());
    }

    #[test]
    fn sprt_llr_and_bounds() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (a, b) = s.bounds();
        assert!((a + 2.944).abs() < 0.001 && (b - 2.944).abs() < 0.001);
        // A strong, steady lead accepts H1; a deficit accepts H0.
        assert!(s.llr([600, 200, 400]) > b);
        assert!(s.llr([400, 200, 600]) < a);
        assert_eq!(s.llr([0, 5, 0]), 0.0);
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
    }
}
