//! Game records: how a DXP game ended, its PDN text (GameType 20, the
//! seven-tag roster, TimeControl, FEN for a set-up start, Termination), and
//! the PDN file every game is appended to as soon as it ends, so that a
//! match that is cut short keeps what it played.

use crate::board::Variant;
use crate::notation::pdn::today;
use crate::notation::{PdnGame, write_game};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;
use tiao_core::GameResult;

/// The PDN result token of a DXP game (international style; `*` when
/// the game is unfinished: abandoned, or ended by the peer without a
/// result the board confirms).
pub fn pdn_result(result: Option<GameResult>) -> &'static str {
    result.map_or("*", |r| r.pdn(true))
}

/// Everything the PDN record of one game says besides the moves.
#[derive(Clone, Debug)]
pub struct GameInfo {
    pub event: String,
    pub site: String,
    pub round: u32,
    pub white: String,
    pub black: String,
    /// Thinking time per player and the moves it is for (0: the game).
    pub time: Duration,
    pub moves: u32,
    /// The FEN of the start, when it is not the normal start.
    pub start_fen: Option<String>,
}

/// The PDN game of a finished DXP game.
pub fn pdn_game(
    info: &GameInfo,
    moves: Vec<String>,
    result: Option<GameResult>,
    termination: &str,
) -> PdnGame {
    let mut g = PdnGame::default();
    g.set_tag("Event", info.event.clone());
    g.set_tag("Site", info.site.clone());
    g.set_tag("Date", today());
    g.set_tag("Round", info.round.to_string());
    g.set_tag("White", info.white.clone());
    g.set_tag("Black", info.black.clone());
    g.set_tag("Result", pdn_result(result));
    g.set_tag("GameType", Variant::International.pdn_game_type_tag());
    if let Some(fen) = &info.start_fen {
        g.set_tag("FEN", fen.clone());
    }
    g.set_tag("TimeControl", time_control(info.time, info.moves));
    g.set_tag("Termination", termination);
    g.moves = moves;
    g.result = Some(pdn_result(result).to_string());
    g
}

/// PGN-style time control: `moves/seconds`, or `seconds` for the whole game.
fn time_control(time: Duration, moves: u32) -> String {
    let secs = time.as_secs_f64().round() as u64;
    if moves > 0 {
        format!("{moves}/{secs}")
    } else {
        secs.to_string()
    }
}

/// The PDN file of a run: games are appended one at a time, whole, by any
/// connection.
#[derive(Debug)]
pub struct PdnFile {
    path: PathBuf,
    lock: Mutex<()>,
}

impl PdnFile {
    pub fn new(path: &Path) -> Self {
        PdnFile {
            path: path.to_path_buf(),
            lock: Mutex::new(()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one game (blocking: call it off the async runtime).
    pub fn append(&self, game: &PdnGame) -> std::io::Result<()> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        // A blank line between games; the file may already hold some.
        let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
        let mut text = String::new();
        if !empty {
            text.push('\n');
        }
        text.push_str(&write_game(game));
        file.write_all(text.as_bytes())?;
        file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(time_control(Duration::from_secs(3600), 65), "65/3600");
        assert_eq!(time_control(Duration::from_secs(30), 0), "30");
    }
}
