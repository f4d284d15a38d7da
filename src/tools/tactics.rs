//! `tiao tactics`: the tactics suite. `find` compiles forced shots
//! (sacrifices that win material) from random international positions;
//! `run` checks how many of a suite's shots the search finds at a depth.
//!
//! A shot qualifies when White's best move is quiet yet offers a capture,
//! wins at least 1.5 men by force, and every other move is at least 1.5 men
//! worse — at a shallow depth and again, with the same move, deeper.

use crate::bits::BitWord;
use crate::board::{B10, Colour, Geometry, International, Position};
use crate::eval::Evaluator;
use crate::movegen::{MoveList, count, generate, has_capture};
use crate::notation::{read_fen, read_hub_move, write_fen, write_hub_move};
use crate::outln;
use crate::search::{Limits, Mode, Params, Root, Searcher};

/// Margin (centi-men) a shot must win by, and by which it must beat the second-best move.
const MARGIN: i32 = 150;

/// Arguments of `tiao tactics`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum TacticsCommand {
    /// Compile shots from random positions (printed to stdout, one per line).
    Find {
        /// Number of shots to find.
        #[arg(long, default_value_t = 20)]
        count: usize,
        /// Depth of the confirming search.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Random seed.
        #[arg(long, default_value_t = 12345)]
        seed: u64,
        /// Keep only shots that a search of this depth misses (0: keep all),
        /// so that the suite tests seeing deep.
        #[arg(long, default_value_t = 0)]
        hidden_below: u32,
    },
    /// Search every position of a suite and report the shots found.
    Run {
        /// Suite file (`FEN ; move ; ...` lines, `#` comments).
        file: std::path::PathBuf,
        /// Search depth.
        #[arg(long, default_value_t = 10)]
        depth: u32,
    },
}

/// One suite entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    pub fen: String,
    /// The winning move, Hub form.
    pub mv: String,
}

/// Parse a suite file: `FEN ; move ; ...` per line, `#` comments and blank lines ignored.
pub fn parse_suite(text: &str) -> Result<Vec<Shot>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let (Some(fen), Some(mv)) = (fields.next(), fields.next()) else {
            return Err(format!("line {}: expected 'FEN ; move'", i + 1));
        };
        let pos = read_fen::<International>(fen).map_err(|e| format!("line {}: {e}", i + 1))?;
        let m = read_hub_move(&pos, mv).map_err(|e| format!("line {}: {e}", i + 1))?;
        // Compared with the engine's answer as written: the canonical form
        // (a capture's squares may be listed in any order in the file).
        out.push(Shot {
            fen: fen.to_string(),
            mv: write_hub_move::<International>(&m),
        });
    }
    Ok(out)
}

/// The best move of a fixed-depth search, Hub form.
pub fn best_move(s: &mut Searcher, pos: &Position<International>, depth: u32) -> Option<String> {
    s.clear();
    s.prepare(Mode::Analyze);
    let params = Params::analyze(Limits::depth(depth));
    let out = s.search(&Root::new(*pos), &Evaluator::default(), &params, &|_| {});
    out.best.map(|m| write_hub_move::<International>(&m))
}

/// Every root move with its score at `depth` (each reply searched to `depth - 1`), best first.
fn root_scores(
    s: &mut Searcher,
    pos: &Position<International>,
    depth: u32,
) -> Vec<(i32, String, bool)> {
    let eval = Evaluator::default();
    let mut list = MoveList::<International>::new();
    generate(pos, &mut list);
    let mut out = Vec::new();
    for mv in &list {
        let child = pos.play(mv);
        s.prepare(Mode::Analyze);
        let params = Params::analyze(Limits::depth(depth.saturating_sub(1).max(1)));
        let r = s.search(&Root::new(child), &eval, &params, &|_| {});
        let sacrifice = !mv.is_capture() && has_capture(&child);
        out.push((-r.score, write_hub_move::<International>(mv), sacrifice));
    }
    out.sort_by_key(|x| std::cmp::Reverse(x.0));
    out
}

fn is_shot(scores: &[(i32, String, bool)]) -> bool {
    scores.len() > 1 && scores[0].2 && scores[0].0 >= MARGIN && scores[0].0 - scores[1].0 >= MARGIN
}

/// Run a `tiao tactics` command.
pub fn run(cmd: &TacticsCommand) -> Result<(), String> {
    let mut s = Searcher::new(1, 32).map_err(|e| e.to_string())?;
    match cmd {
        TacticsCommand::Find {
            count: wanted,
            depth,
            seed,
            hidden_below,
        } => {
            let mut rng = (*seed).max(1);
            let mut next = move || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            let mut found = 0;
            while found < *wanted {
                // 7 to 11 men a side, White's on the lower 35 squares, Black's on the upper 35.
                let (mut w, mut b) = (0u64, 0u64);
                let (nw, nb) = (7 + next() % 5, 7 + next() % 5);
                while u64::from(w.count()) < nw {
                    w |= 1 << B10::bit_of(15 + (next() % 35) as u32);
                }
                while u64::from(b.count()) < nb {
                    let bit = 1 << B10::bit_of((next() % 35) as u32);
                    if w & bit == 0 {
                        b |= bit;
                    }
                }
                let Ok(pos) = Position::<International>::from_bitboards(w, 0, b, 0, Colour::White)
                else {
                    continue;
                };
                if has_capture(&pos)
                    || has_capture(&pos.with_side(Colour::Black))
                    || count(&pos) < 4
                {
                    continue;
                }
                if !is_shot(&root_scores(&mut s, &pos, 8)) {
                    continue;
                }
                let deep = root_scores(&mut s, &pos, *depth);
                let hidden = *hidden_below == 0
                    || best_move(&mut s, &pos, hidden_below.saturating_sub(1).max(1)).as_deref()
                        != Some(deep[0].1.as_str());
                if is_shot(&deep) && hidden {
                    outln!(
                        "{} ; {} ; {} ; {}",
                        write_fen(&pos),
                        deep[0].1,
                        deep[0].0,
                        deep[1].0
                    );
                    found += 1;
                }
            }
            Ok(())
        }
        TacticsCommand::Run { file, depth } => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let suite = parse_suite(&text)?;
            let mut solved = 0;
            for (i, shot) in suite.iter().enumerate() {
                let pos = read_fen::<International>(&shot.fen).map_err(|e| e.to_string())?;
                let got = best_move(&mut s, &pos, *depth).unwrap_or_default();
                let ok = got == shot.mv;
                solved += usize::from(ok);
                outln!(
                    "{:>3} {} expected {} got {}",
                    i + 1,
                    if ok { "ok  " } else { "MISS" },
                    shot.mv,
                    got
                );
            }
            outln!("solved {solved} of {} at depth {depth}", suite.len());
            Ok(())
        }
    }
}
