//! Lines read on a thread into a channel: what `usi` reads from its GUI and
//! what `match` reads from each engine, so that neither blocks on a read.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver};

/// Reads the lines of the reader `open` makes (on the reading thread), each
/// passed through `wrap`, until the end of input, a read error, or the
/// receiver is dropped. A line that is not UTF-8 is still a line (lossy);
/// its end of line is kept.
pub fn read_lines<R, T>(
    open: impl FnOnce() -> R + Send + 'static,
    wrap: impl Fn(String) -> T + Send + 'static,
) -> Receiver<T>
where
    R: BufRead,
    T: Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = open();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(wrap(line)).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}
