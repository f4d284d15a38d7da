//! The tools' results on stdout. `println!` panics when stdout is closed
//! (`tiao bench | head -1`); a tool is a filter, and a filter whose reader
//! has gone away stops quietly, as Unix tools do. The front ends do not use
//! this: Hub and text mode write through their own writers, and a DXP
//! server keeps playing whoever reads its stdout.

use std::io::{ErrorKind, Write};

/// Write one line of a tool's output, or end the process if stdout is gone.
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|_| out.write_all(b"\n")) {
        if e.kind() != ErrorKind::BrokenPipe {
            eprintln!("tiao: cannot write to stdout: {e}");
        }
        std::process::exit(if e.kind() == ErrorKind::BrokenPipe {
            0
        } else {
            1
        });
    }
}

/// `println!` for the tools' results: see the module.
#[macro_export]
macro_rules! outln {
    () => { $crate::tools::stdout::line(format_args!("")) };
    ($($arg:tt)*) => { $crate::tools::stdout::line(format_args!($($arg)*)) };
}
