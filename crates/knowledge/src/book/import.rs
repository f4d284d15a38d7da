//! `tiao book import`: what people play. Games of PDN collections are
//! replayed, and for each position of their first plies the moves played
//! are counted (the count becomes the move's weight) with the results that
//! followed. Imported moves have no score until `tiao book build` searches
//! their positions.
//!
//! Real collections are messy, so nothing here stops at a bad game: an
//! unreadable game is skipped, a game with an illegal move is used up to the
//! move before it, a game of another variant is passed over, and the report
//! counts each kind (with the first few messages as examples).

use super::format::BookMove;
use super::format::Results;
use super::store::{Book, Entry, compact_fen};
use std::collections::HashMap;
use std::path::PathBuf;
use tiao_core::GameResult;
use tiao_draughts::board::{Colour, Position, Rules, Variant};
use tiao_draughts::notation::{PdnGame, Replay, ReplayError, parse_pdn, replay, write_hub_move};
use tiao_draughts::with_rules;

/// How many problem messages a report keeps as examples.
const EXAMPLES: usize = 10;

/// Settings of an import.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    pub variant: Variant,
    /// The book to add to (created if missing).
    pub book: PathBuf,
    pub files: Vec<PathBuf>,
    /// Only the first this many plies of each game.
    pub max_ply: u32,
    /// A move enters the book only if played in at least this many games
    /// (of this import).
    pub min_games: u32,
}

/// What an import found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Games (and unreadable stretches) in the files.
    pub games: usize,
    /// Games whose moves were counted (wholly or up to an illegal move).
    pub used: usize,
    /// Of those, games cut short at an illegal or unreadable move.
    pub truncated: usize,
    /// Unreadable games (PDN syntax).
    pub unreadable: usize,
    /// Games with a bad start position or an illegal first move.
    pub unplayable: usize,
    /// Games of another variant (by their GameType tag).
    pub other_variant: usize,
    /// (position, move) pairs counted, over all games.
    pub plies: usize,
    pub positions_added: usize,
    pub positions_updated: usize,
    pub moves_added: usize,
    /// The first few problems, as examples.
    pub examples: Vec<String>,
}

impl ImportReport {
    fn note(&mut self, message: String) {
        if self.examples.len() < EXAMPLES {
            self.examples.push(message);
        }
    }

    /// Games skipped for any reason.
    pub fn skipped(&self) -> usize {
        self.unreadable + self.unplayable + self.other_variant
    }
}

/// Import PDN files into a book file (read first if it exists, then saved).
pub fn import_pdn(opts: &ImportOptions) -> Result<ImportReport, String> {
    let mut book = if opts.book.exists() {
        Book::load(&opts.book, opts.variant).map_err(|e| e.to_string())?
    } else {
        Book::new(opts.variant)
    };
    let mut report = ImportReport::default();
    for file in &opts.files {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        // Old collections are often Latin-1: names may suffer, moves are ASCII.
        let text = String::from_utf8_lossy(&bytes);
        let r = import_games(&mut book, &text, opts.max_ply, opts.min_games);
        merge_reports(&mut report, r, &file.display().to_string());
    }
    let comments = vec![
        format!(
            "Tiao opening book for {} draughts (format: docs/book.md).",
            opts.variant.name()
        ),
        "Moves with '?' scores come from games (tiao book import); tiao book build scores them."
            .to_string(),
    ];
    book.save(&opts.book, &comments)
        .map_err(|e| e.to_string())?;
    Ok(report)
}

fn merge_reports(total: &mut ImportReport, r: ImportReport, file: &str) {
    total.games += r.games;
    total.used += r.used;
    total.truncated += r.truncated;
    total.unreadable += r.unreadable;
    total.unplayable += r.unplayable;
    total.other_variant += r.other_variant;
    total.plies += r.plies;
    total.positions_added += r.positions_added;
    total.positions_updated += r.positions_updated;
    total.moves_added += r.moves_added;
    for e in r.examples {
        total.note(format!("{file}: {e}"));
    }
}

/// Count the moves of every game of a PDN text into `book` (its variant's
/// games only), up to `max_ply` plies per game; moves played in fewer than
/// `min_games` games are left out.
pub fn import_games(book: &mut Book, text: &str, max_ply: u32, min_games: u32) -> ImportReport {
    with_rules!(book.variant(), R => import_typed::<R>(book, text, max_ply, min_games))
}

/// Counts for one (position, move).
struct Tally {
    hub: String,
    games: u32,
    results: Results,
    /// Whether any counted game had a known result.
    any_result: bool,
}

fn import_typed<R: Rules>(
    book: &mut Book,
    text: &str,
    max_ply: u32,
    min_games: u32,
) -> ImportReport {
    let mut report = ImportReport::default();
    // Positions in the order first met (for a stable result), then their moves.
    let mut order: Vec<Position<R>> = Vec::new();
    let mut tallies: HashMap<u64, Vec<Tally>> = HashMap::new();
    for parsed in parse_pdn(text) {
        report.games += 1;
        let game = match parsed {
            Ok(g) => g,
            Err(e) => {
                report.unreadable += 1;
                report.note(format!("skipped: {e}"));
                continue;
            }
        };
        match game.variant() {
            Ok(v) if v == R::VARIANT => {}
            Ok(_) | Err(_) => {
                report.other_variant += 1;
                continue;
            }
        }
        let Some(played) = playable_part::<R>(&game, &mut report) else {
            continue;
        };
        report.used += 1;
        let white_result = white_result(&game);
        for (ply, (mv, pos)) in played.moves.iter().zip(&played.positions).enumerate() {
            if ply as u32 >= max_ply {
                break;
            }
            report.plies += 1;
            let hub = write_hub_move::<R>(mv);
            let list = tallies.entry(pos.hash()).or_insert_with(|| {
                order.push(*pos);
                Vec::new()
            });
            let slot = match list.iter().position(|t| t.hub == hub) {
                Some(i) => &mut list[i],
                None => {
                    list.push(Tally {
                        hub,
                        games: 0,
                        results: Results::default(),
                        any_result: false,
                    });
                    let last = list.len() - 1;
                    &mut list[last]
                }
            };
            slot.games += 1;
            if let Some(white) = white_result {
                slot.any_result = true;
                // The mover's view: a White win is a win for White's moves.
                let mover_won = if pos.side() == Colour::White {
                    white
                } else {
                    2 - white
                };
                match mover_won {
                    2 => slot.results.wins += 1,
                    1 => slot.results.draws += 1,
                    _ => slot.results.losses += 1,
                }
            }
        }
    }
    for pos in order {
        let Some(list) = tallies.remove(&pos.hash()) else {
            continue;
        };
        let kept: Vec<Tally> = list.into_iter().filter(|t| t.games >= min_games).collect();
        if kept.is_empty() {
            continue;
        }
        add_to_book(book, &pos, kept, &mut report);
    }
    report
}

/// The moves and positions of a game that can be played: all of them, or
/// those before the first illegal move (the game then counts as truncated).
/// `None` when not even the start can be used.
fn playable_part<R: Rules>(game: &PdnGame, report: &mut ImportReport) -> Option<Replay<R>> {
    match replay::<R>(game) {
        Ok(r) => Some(r),
        Err(ReplayError::Start(e)) => {
            report.unplayable += 1;
            report.note(format!("skipped: bad FEN tag: {e}"));
            None
        }
        Err(ReplayError::Move { ply: 0, .. }) => {
            report.unplayable += 1;
            report.note("skipped: the first move is illegal".to_string());
            None
        }
        Err(e @ ReplayError::Move { ply, .. }) => {
            report.truncated += 1;
            report.note(format!("used up to {e}"));
            let mut prefix = game.clone();
            prefix.moves.truncate(ply);
            // The moves before `ply` were just replayed without error.
            replay::<R>(&prefix).ok()
        }
    }
}

/// White's result as 2 (win), 1 (draw) or 0 (loss), if the game has one.
fn white_result(game: &PdnGame) -> Option<u32> {
    let token = game
        .result
        .as_deref()
        .or_else(|| game.tag("Result"))?
        .trim();
    // Either style: files from other programs write 1-0 for international too.
    let result =
        GameResult::from_pdn(token, true).or_else(|| GameResult::from_pdn(token, false))?;
    Some(u32::from(result.half_points(Colour::White)))
}

/// Add counted moves to the book: new positions get unscored moves; moves
/// already in the book get the games added to their weight and results.
fn add_to_book<R: Rules>(
    book: &mut Book,
    pos: &Position<R>,
    kept: Vec<Tally>,
    report: &mut ImportReport,
) {
    let to_move = |t: Tally| BookMove {
        mv: t.hub,
        score: None,
        weight: t.games,
        results: t.any_result.then_some(t.results),
    };
    let mut entry = match book.entry(pos.hash()) {
        Some(e) => {
            report.positions_updated += 1;
            e.clone()
        }
        None => {
            report.positions_added += 1;
            Entry {
                hash: pos.hash(),
                fen: compact_fen(pos),
                moves: Vec::new(),
            }
        }
    };
    for t in kept {
        match entry.moves.iter_mut().find(|m| m.mv == t.hub) {
            Some(m) => {
                m.weight = m.weight.saturating_add(t.games);
                if t.any_result {
                    m.results
                        .get_or_insert_with(Results::default)
                        .add(t.results);
                }
            }
            None => {
                report.moves_added += 1;
                entry.moves.push(to_move(t));
            }
        }
    }
    entry.sort_moves();
    book.insert(entry);
}
