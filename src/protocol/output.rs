//! Protocol output: whole lines to stdout, from any thread, flushed at once.
//! Stdout belongs to the protocol (logs go to stderr). When the reader of
//! stdout is gone there is nobody left to serve, so a failed write ends the
//! process. Every line goes through [`crate::printable::escape_lines`], so
//! text echoed from the input can never forge a line or reach a terminal
//! as a control sequence.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A cloneable handle that writes complete lines.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn stdout() -> Self {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Write one line (a newline is added) and flush.
    pub fn line(&self, text: &str) {
        let text = crate::printable::escape_lines(text);
        log::debug!("> {text}");
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        if writeln!(sink, "{text}").and_then(|_| sink.flush()).is_err() {
            std::process::exit(0);
        }
    }
}
