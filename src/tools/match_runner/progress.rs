//! Live progress on stderr: an `indicatif` bar on a terminal; on anything
//! else (a CI log, a pipe) a plain line every tenth of the work or every
//! half minute, whichever comes first, since a bar would be invisible
//! there (and a long SPRT may decide before its first tenth). Notes (engine failures, the SPRT decision)
//! are printed above the bar as they happen. Stdout is left to the results.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The longest wait between two plain progress lines.
const PLAIN_INTERVAL: Duration = Duration::from_secs(30);

/// The progress display of a match or of an opening generation.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Plain lines instead of a bar.
    plain: bool,
    quiet: bool,
    total: u64,
    done: u64,
    next_plain: u64,
    last_plain: Instant,
    what: &'static str,
}

impl Progress {
    /// A display for `total` units of `what` (e.g. "games").
    pub fn new(total: u64, what: &'static str, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (terminal && !quiet).then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
            let template = format!(
                "{{elapsed_precise}} [{{bar:30.cyan/blue}}] {{pos}}/{{len}} {what} (eta {{eta}})  {{msg}}"
            );
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        Progress {
            bar,
            plain: !terminal && !quiet,
            quiet,
            total,
            done: 0,
            next_plain: 0,
            last_plain: Instant::now(),
            what,
        }
    }

    /// Lower the total (work cancelled, e.g. by the SPRT).
    pub fn set_total(&mut self, total: u64) {
        self.total = total;
        if let Some(b) = &self.bar {
            b.set_length(total);
        }
    }

    /// One more unit done; `message` is the current standing.
    pub fn advance(&mut self, message: &str) {
        self.done += 1;
        if let Some(b) = &self.bar {
            b.set_message(message.to_string());
            b.inc(1);
        } else if self.plain
            && (self.done >= self.next_plain
                || self.done == self.total
                || self.last_plain.elapsed() >= PLAIN_INTERVAL)
        {
            eprintln!("{}/{} {}  {message}", self.done, self.total, self.what);
            self.next_plain = self.done + (self.total / 10).max(1);
            self.last_plain = Instant::now();
        }
    }

    /// A line above the bar.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(b) => b.println(line),
            None if !self.quiet => eprintln!("{line}"),
            None => {}
        }
    }

    /// Remove the bar (the final report follows).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
