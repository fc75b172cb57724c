//! Time controls of `banmen match`: the `--tc` text, the `go` command that
//! carries the clocks, how long a move may take, and the clocks after it.

/// A move counts as late when it takes this much longer than allowed.
pub(super) const LATE_SLACK_MS: u64 = 50;
/// What a search without a clock (`depth=`, `nodes=`) may take.
const UNTIMED_ALLOWANCE_MS: u64 = 120_000;

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tc {
    Byoyomi { base: u64, byoyomi: u64 },
    Fischer { base: u64, inc: u64 },
    Movetime(u64),
    Depth(u64),
    Nodes(u64),
}

impl Tc {
    pub(super) fn parse(text: &str) -> Result<Tc, String> {
        let bad = |why: &str| {
            format!(
                "bad --tc '{text}': {why} (expected byoyomi=MS, byoyomi=BASE+MS, \
                 fischer=BASE+INC, movetime=MS, depth=N or nodes=N)"
            )
        };
        let (kind, value) = text.split_once('=').ok_or_else(|| bad("no '='"))?;
        let num = |s: &str| -> Result<u64, String> {
            s.trim()
                .parse::<u64>()
                .map_err(|_| bad(&format!("'{s}' is not a number")))
        };
        let pair = |s: &str| -> Result<(u64, u64), String> {
            let (a, b) = s.split_once('+').ok_or_else(|| bad("expected BASE+N"))?;
            Ok((num(a)?, num(b)?))
        };
        let tc = match kind.trim() {
            "byoyomi" => {
                if value.contains('+') {
                    let (base, byoyomi) = pair(value)?;
                    Tc::Byoyomi { base, byoyomi }
                } else {
                    Tc::Byoyomi {
                        base: 0,
                        byoyomi: num(value)?,
                    }
                }
            }
            "fischer" => {
                let (base, inc) = pair(value)?;
                Tc::Fischer { base, inc }
            }
            "movetime" => Tc::Movetime(num(value)?),
            "depth" => Tc::Depth(num(value)?),
            "nodes" => Tc::Nodes(num(value)?),
            other => return Err(bad(&format!("unknown kind '{other}'"))),
        };
        let zero = match tc {
            Tc::Byoyomi { base, byoyomi } => base == 0 && byoyomi == 0,
            Tc::Fischer { base, inc } => base == 0 && inc == 0,
            Tc::Movetime(n) | Tc::Depth(n) | Tc::Nodes(n) => n == 0,
        };
        if zero {
            return Err(bad("no time at all"));
        }
        Ok(tc)
    }

    /// The clocks at the start of a game.
    pub(super) fn start_clock(self) -> u64 {
        match self {
            Tc::Byoyomi { base, .. } | Tc::Fischer { base, .. } => base,
            _ => 0,
        }
    }

    /// The `go` command with the clocks (`[black, white]`).
    pub(super) fn go(self, clocks: [u64; 2]) -> String {
        let [b, w] = clocks;
        match self {
            Tc::Byoyomi { byoyomi, .. } => format!("go btime {b} wtime {w} byoyomi {byoyomi}"),
            Tc::Fischer { inc, .. } => format!("go btime {b} wtime {w} binc {inc} winc {inc}"),
            Tc::Movetime(ms) => format!("go movetime {ms}"),
            Tc::Depth(n) => format!("go depth {n}"),
            Tc::Nodes(n) => format!("go nodes {n}"),
        }
    }

    /// Milliseconds the mover may think (before the margin).
    pub(super) fn allowance(self, clock: u64) -> u64 {
        match self {
            Tc::Byoyomi { byoyomi, .. } => clock + byoyomi,
            Tc::Fischer { inc, .. } => clock + inc,
            Tc::Movetime(ms) => ms,
            Tc::Depth(_) | Tc::Nodes(_) => UNTIMED_ALLOWANCE_MS,
        }
    }

    /// The mover's clock after a move that took `used` ms.
    pub(super) fn after_move(self, clock: u64, used: u64) -> u64 {
        match self {
            Tc::Byoyomi { .. } => clock.saturating_sub(used),
            Tc::Fischer { inc, .. } => (clock + inc).saturating_sub(used),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            Tc::parse("byoyomi=1000"),
            Ok(Tc::Byoyomi {
                base: 0,
                byoyomi: 1000
            })
        );
        assert_eq!(
            Tc::parse("byoyomi=60000+1000"),
            Ok(Tc::Byoyomi {
                base: 60000,
                byoyomi: 1000
            })
        );
        assert_eq!(
            Tc::parse("fischer=10000+100"),
            Ok(Tc::Fischer {
                base: 10000,
                inc: 100
            })
        );
        assert_eq!(Tc::parse("movetime=200"), Ok(Tc::Movetime(200)));
        assert_eq!(Tc::parse("depth=2"), Ok(Tc::Depth(2)));
        for bad in [
            "",
            "byoyomi",
            "fischer=100",
            "movetime=x",
            "blitz=5",
            "movetime=0",
        ] {
            assert!(Tc::parse(bad).is_err(), "{bad}");
        }
        let f = Tc::parse("fischer=10000+100").unwrap();
        assert_eq!(
            f.go([10000, 9000]),
            "go btime 10000 wtime 9000 binc 100 winc 100"
        );
        assert_eq!(f.after_move(10000, 600), 9500);
        assert_eq!(f.after_move(100, 600), 0);
    }
}
