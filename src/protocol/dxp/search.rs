//! Tiao's thinking during a DXP game: the engine is moved onto a blocking
//! thread (`spawn_blocking`) for its decision (book, databases, search:
//! [`Engine::choose_move`]) and handed back with the answer, so the connection's task keeps reading the socket meanwhile
//! (an `E`, a `B` or a dropped connection stops the search at once).
//! A ponder search (`--ponder`, on the peer's time) is the same thing in
//! [`Mode::Ponder`](crate::search::Mode::Ponder), told of a hit with [`Thinking::ponder_hit`].

use crate::engine::{Decision, Engine, Purpose};
use crate::notation::MoveFormat;
use crate::search::{Control, Info, Params};
use std::sync::Arc;
use tokio::task::{JoinError, JoinHandle};

/// A search running on a blocking thread.
pub struct Thinking {
    handle: JoinHandle<(Engine, Decision)>,
    control: Arc<Control>,
}

impl Thinking {
    /// Start searching the engine's current position, in `params.mode`
    /// (think, or ponder). The searcher is armed before the thread starts,
    /// so a `stop` right after this call cannot be lost.
    pub fn start(mut engine: Engine, params: Params) -> Thinking {
        let control = engine.control();
        engine.prepare(params.mode);
        let handle = tokio::task::spawn_blocking(move || {
            let report = |info: &Info<String>| {
                log::debug!(
                    "depth {} score {:?} nodes {} pv {}",
                    info.depth,
                    info.score,
                    info.nodes,
                    info.pv.join(" ")
                );
            };
            let decision =
                engine.choose_move_prepared(&params, Purpose::Play, MoveFormat::Hub, &report);
            (engine, decision)
        });
        Thinking { handle, control }
    }

    /// Ask the search to finish now (it still returns its best move).
    pub fn stop(&self) {
        self.control.stop();
    }

    /// A ponder search: the peer played the expected move, so the search
    /// now obeys its time limits (counted from now).
    pub fn ponder_hit(&self) {
        self.control.ponder_hit();
    }

    /// The engine and its decision, once it is made.
    /// (`&mut self` so that it can be awaited in `select!` more than once.)
    pub async fn finished(&mut self) -> Result<(Engine, Decision), JoinError> {
        (&mut self.handle).await
    }
}
