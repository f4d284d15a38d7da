//! The PDN record of each game: the seven-tag roster, `GameType`, `FEN` for
//! a set-up start, the time control, the opening and how the game ended
//! (`Termination` in PGN's words, `TerminationDetails` in plain ones).
//!
//! Games are appended to the `--pdn` file as they finish (so a match that is
//! interrupted keeps what it played); `Round` is the game's number in the
//! schedule, so sorting by it restores the playing order.

use super::arbiter::{GameRecord, pdn_result};
use super::ballot::Opening;
use super::tc::TimeControl;
use crate::engine::GameKind;
use crate::notation::{PdnGame, write_game};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;

/// What the PDN needs besides the game itself.
pub struct GameInfo<'a> {
    pub event: &'a str,
    pub date: &'a str,
    pub round: u32,
    pub white: &'a str,
    pub black: &'a str,
    pub variant: GameKind,
    /// White's and Black's time controls.
    pub tc: [TimeControl; 2],
    pub opening: &'a Opening,
    /// Where the opening came from (file name), for the `Opening` tags.
    pub ballot: &'a str,
}

/// The tags a game of the match has before it is played: who, what, with
/// which opening and clocks. `--resume` compares them with the games it
/// reads back, so these are the tags that say a game belongs to a match.
pub fn header(info: &GameInfo) -> PdnGame {
    let mut g = PdnGame::default();
    g.set_tag("Event", info.event);
    g.set_tag("Site", "tiao match");
    g.set_tag("Date", info.date);
    g.set_tag("Round", info.round.to_string());
    g.set_tag("White", info.white);
    g.set_tag("Black", info.black);
    g.set_tag("Result", "*");
    match info.variant.variant() {
        Some(v) => g.set_tag("GameType", v.pdn_game_type_tag()),
        // Halma and Gewu have no PDN game type: the variant is named instead.
        None => g.set_tag("Variant", info.variant.name()),
    }
    if info.tc[0] == info.tc[1] {
        g.set_tag("TimeControl", info.tc[0].to_string());
    } else {
        g.set_tag("WhiteTimeControl", info.tc[0].to_string());
        g.set_tag("BlackTimeControl", info.tc[1].to_string());
    }
    if info.opening.line > 0 {
        g.set_tag("Opening", info.opening.text.as_str());
        g.set_tag(
            "OpeningSource",
            format!("{}:{}", info.ballot, info.opening.line),
        );
    }
    g
}

/// The PDN game of a record.
pub fn to_pdn(record: &GameRecord, info: &GameInfo) -> PdnGame {
    let result = pdn_result(record.result, info.variant);
    let mut g = header(info);
    g.set_tag("Result", result);
    if let Some(fen) = &record.start_fen {
        g.set_tag("FEN", fen.as_str());
    }
    if info.opening.line > 0 {
        g.set_tag("OpeningPlies", record.opening_plies.to_string());
    }
    g.set_tag("PlyCount", record.moves.len().to_string());
    g.set_tag("Termination", record.kind.pdn());
    if !record.detail.is_empty() {
        g.set_tag("TerminationDetails", record.detail.as_str());
    }
    g.moves = record.moves.clone();
    g.result = Some(result.to_string());
    g
}

/// Appends games to a PDN file.
pub struct PdnWriter {
    out: BufWriter<File>,
    games: usize,
}

impl PdnWriter {
    /// Create (or truncate) the file.
    pub fn create(path: &Path) -> Result<PdnWriter, String> {
        let file = File::create(path)
            .map_err(|e| format!("cannot create PDN file {}: {e}", path.display()))?;
        Ok(PdnWriter {
            out: BufWriter::new(file),
            games: 0,
        })
    }

    /// Append to the file of an earlier run (`--resume`) that holds
    /// `games` games; it is created if there is none.
    pub fn append(path: &Path, games: usize) -> Result<PdnWriter, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open PDN file {} to append: {e}", path.display()))?;
        Ok(PdnWriter {
            out: BufWriter::new(file),
            games,
        })
    }

    /// Write one game and flush, so the file is complete after each game.
    pub fn write(&mut self, game: &PdnGame) -> std::io::Result<()> {
        if self.games > 0 {
            self.out.write_all(b"\n")?;
        }
        self.out.write_all(write_game(game).as_bytes())?;
        self.out.flush()?;
        self.games += 1;
        Ok(())
    }
}
