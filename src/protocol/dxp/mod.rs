//! DXP (DamExchange, protocols.md §3): engine-vs-engine games of
//! international draughts over TCP, `tiao dxp`. See `docs/dxp.md`.
//!
//! Layers, from the wire up: `message` (the message types, written
//! strictly, read leniently), `codec` (NUL framing with a bounded buffer
//! and deadlines), `connection` (one task per connection: the follower and
//! initiator roles), `play` (one game: turns, `E`, take-backs), with
//! `game` (translation to the engine's Hub text), `search` (the engine on a
//! blocking thread), `clock` (both clocks), `record` (PDN), `tally`
//! (W/D/L), `starts` (FEN and ballot starts), `cli` (options) and `net`
//! (listener, connector, runtime). Rules and search stay in the engine.

pub mod cli;
pub mod clock;
pub mod codec;
mod connection;
pub mod game;
pub mod message;
mod net;
mod play;
pub mod record;
mod search;
pub mod starts;
pub mod tally;

pub use cli::DxpArgs;

/// Run `tiao dxp`.
pub fn run(args: &DxpArgs) -> Result<(), String> {
    let config = cli::Config::from_args(args)?;
    // Each connection makes its own engine: find out now, not when the
    // first peer connects, whether one can be made (a table too large for
    // the machine, threads that cannot start).
    crate::engine::Engine::new(config.engine.clone())
        .map_err(|e| format!("cannot make the engine: {e}"))?;
    net::run(config)
}

/// A line of the run's report on stdout (listening address, game results,
/// summaries), flushed at once. Unlike `println!` it never panics: with
/// nobody reading stdout any more, the games still go on and into the PDN.
/// Names in it come from the peer: the line is escaped, so that it stays one line.
fn stdout_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let text = crate::printable::escape(text);
    let _ = writeln!(out, "{text}").and_then(|_| out.flush());
}
