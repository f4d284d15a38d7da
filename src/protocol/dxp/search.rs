//! Tiao's thinking during a DXP game: the engine is moved onto a blocking
//! thread (`spawn_blocking`) for the search and handed back with the
//! answer, so the connection's task keeps reading the socket meanwhile
//! (an `E`, a `B` or a dropped connection stops the search at once).

use crate::engine::Engine;
use crate::notation::MoveFormat;
use crate::search::{Control, Info, Mode, Outcome, Params};
use std::sync::Arc;
use tokio::task::{JoinError, JoinHandle};

/// A search running on a blocking thread.
pub struct Thinking {
    handle: JoinHandle<(Engine, Outcome<String>)>,
    control: Arc<Control>,
}

impl Thinking {
    /// Start searching the engine's current position. The searcher is
    /// armed before the thread starts, so a `stop` right after this call
    /// cannot be lost.
    pub fn start(mut engine: Engine, params: Params) -> Thinking {
        let control = engine.control();
        engine.prepare(Mode::Think);
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
            let outcome = engine.search_prepared(&params, MoveFormat::Hub, &report);
            (engine, outcome)
        });
        Thinking { handle, control }
    }

    /// Ask the search to finish now (it still returns its best move).
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The engine and the search's answer, once the search ends.
    /// (`&mut self` so that it can be awaited in `select!` more than once.)
    pub async fn finished(&mut self) -> Result<(Engine, Outcome<String>), JoinError> {
        (&mut self.handle).await
    }
}
