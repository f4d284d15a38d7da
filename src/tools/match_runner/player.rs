//! A seat at the board: one engine of the match on one worker, with its
//! process started on demand and restarted after a failure.
//!
//! The rule is simple and uniform: an engine that fails a game (crash, hang,
//! time forfeit, illegal or unreadable move) is killed at once, so that a
//! runaway process stops eating a core, and a fresh one is started before
//! its next game. Only a process that survived its last game is reused.

use super::process::{EngineError, EngineProcess};
use super::spec::EngineSpec;
use crate::engine::GameKind;
use std::sync::Arc;
use std::time::Duration;

/// One engine of the match, as seen by one worker.
pub struct Player {
    /// Index of the engine in the match.
    pub index: usize,
    /// The name used in tables and PDN.
    pub name: String,
    spec: Arc<EngineSpec>,
    variant: GameKind,
    start_timeout: Duration,
    process: Option<EngineProcess>,
    started_before: bool,
    /// Processes started after the first.
    pub restarts: u32,
    /// Failed starts in a row (reset by a successful one).
    pub failed_starts: u32,
}

impl Player {
    pub fn new(
        index: usize,
        name: String,
        spec: Arc<EngineSpec>,
        variant: GameKind,
        start_timeout: Duration,
    ) -> Player {
        Player {
            index,
            name,
            spec,
            variant,
            start_timeout,
            process: None,
            started_before: false,
            restarts: 0,
            failed_starts: 0,
        }
    }

    fn start(&mut self) -> Result<(), EngineError> {
        if self.started_before {
            self.restarts += 1;
            log::info!("restarting engine {}", self.name);
        }
        self.started_before = true;
        match EngineProcess::start(&self.spec, self.variant, self.start_timeout) {
            Ok(p) => {
                self.failed_starts = 0;
                self.process = Some(p);
                Ok(())
            }
            Err(e) => {
                self.failed_starts += 1;
                Err(e)
            }
        }
    }

    /// Get the engine ready for a new game: start it if needed, then
    /// `new-game` and a `ping` round trip. A process that does not answer is
    /// replaced once.
    pub fn prepare_game(&mut self, sync_timeout: Duration) -> Result<(), EngineError> {
        if self.process.as_mut().is_some_and(|p| p.is_dead()) {
            self.process = None;
        }
        if let Some(p) = self.process.as_mut() {
            match p.new_game(sync_timeout) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    log::warn!("engine {}: {e}; restarting it", self.name);
                    self.discard();
                }
            }
        }
        self.start()?;
        match self.process.as_mut() {
            Some(p) => p.new_game(sync_timeout),
            None => Err(EngineError::Crashed(format!(
                "engine {} is not running",
                self.name
            ))),
        }
    }

    /// The running process.
    pub fn process(&mut self) -> Option<&mut EngineProcess> {
        self.process.as_mut()
    }

    /// Kill the process after a failure; the next game starts a new one.
    pub fn discard(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }

    /// Quit the process politely (end of the match or of this pairing).
    pub fn close(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}
