//! `tiao perft`: count the leaves of the legal move tree, depth by depth,
//! with timing — the check of the move generator against published counts
//! and the measure of its speed.

use crate::engine::{GameKind, new_game_session};
use crate::outln;
use std::time::Instant;

/// Arguments of `tiao perft`.
#[derive(clap::Args, Debug, Clone)]
pub struct PerftArgs {
    /// Game: international, brazilian, russian, canadian, halma8, halma10, gewu, gewu-dice.
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// Start position (FEN); default: the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count of each root move at DEPTH.
    #[arg(long)]
    pub divide: bool,
    /// Search threads (root moves are split over a thread pool).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Play every leaf move instead of counting the last ply from the move list.
    #[arg(long)]
    pub make_all: bool,
    /// Only this depth, not 1..=DEPTH.
    #[arg(long)]
    pub only: bool,
    /// Depth in plies.
    pub depth: u32,
}

/// Run `tiao perft`, printing to stdout.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    if args.depth > 30 {
        return Err("perft depth must be at most 30".into());
    }
    let mut session = new_game_session(args.variant);
    if let Some(fen) = &args.fen {
        session.set_fen(fen)?;
    }
    let pool = if args.threads > 1 {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(args.threads.min(256))
                .build()
                .map_err(|e| format!("cannot start {} threads: {e}", args.threads))?,
        )
    } else {
        None
    };
    let bulk = !args.make_all;
    if args.divide {
        let start = Instant::now();
        let lines = session.perft(args.depth, true, bulk, pool.as_ref());
        for l in &lines {
            match &l.mv {
                Some(m) => outln!("{m:<12} {}", l.nodes),
                None => outln!(
                    "total        {} ({:.3} s)",
                    l.nodes,
                    start.elapsed().as_secs_f64()
                ),
            }
        }
        return Ok(());
    }
    outln!(
        "{:>5} {:>15} {:>10} {:>14}",
        "depth",
        "leaves",
        "seconds",
        "leaves/s"
    );
    let first = if args.only { args.depth } else { 1 };
    for d in first..=args.depth {
        let start = Instant::now();
        let nodes = session
            .perft(d, false, bulk, pool.as_ref())
            .last()
            .map_or(0, |l| l.nodes);
        let secs = start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        outln!("{d:>5} {nodes:>15} {secs:>10.3} {rate:>14.0}");
    }
    Ok(())
}
