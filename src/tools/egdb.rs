//! Command-line pieces of `tiao egdb`: `gen` generates the tables, `probe`
//! prints the value of a position and of each of its legal moves, `bench`
//! measures probes per second.
//!
//! ```text
//! tiao egdb gen   --variant international --pieces 5 [--dir egdb] [--threads 2]
//! tiao egdb probe --variant international --fen "W:WK46:BK5" [--dir egdb]
//! tiao egdb bench --variant international [--dir egdb] [--probes 2000000]
//! ```

use crate::board::{Colour, Geometry, Position, Rules, Variant};
use crate::endgame::Egdb;
use crate::endgame::{Distance, Wdl};
use crate::endgame::{GenOptions, generate};
use crate::notation::{MoveFormat, read_fen, write_fen, write_move};
use crate::outln;
use std::path::PathBuf;
use tiao_draughts::with_rules;

/// `tiao egdb ...`
#[derive(clap::Args, Debug, Clone)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub command: EgdbCommand,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum EgdbCommand {
    /// Generate the endgame tables of a variant (resumes an interrupted run).
    Gen(GenArgs),
    /// Print the value of a position and of each legal move.
    Probe(ProbeArgs),
    /// Measure probes per second on random positions the tables cover.
    Bench(BenchArgs),
}

#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// Database directory.
    #[arg(long, default_value = crate::endgame::DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Largest number of pieces to open tables for (default: all there are, up to 7).
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Probes to time.
    #[arg(long, default_value_t = 2_000_000)]
    pub probes: u64,
    /// Distinct random positions probed in turn (more: fewer cache hits).
    #[arg(long, default_value_t = 100_000)]
    pub positions: usize,
}

#[derive(clap::Args, Debug, Clone)]
pub struct GenArgs {
    /// international, brazilian, russian or canadian.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// Generate every slice with up to this many pieces.
    #[arg(long)]
    pub pieces: u32,
    /// Database directory.
    #[arg(long, default_value = crate::endgame::DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Store distances to win for slices with up to this many pieces.
    #[arg(long, default_value_t = 4)]
    pub dtw_pieces: u32,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(clap::Args, Debug, Clone)]
pub struct ProbeArgs {
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// The position, as PDN FEN (`W:WK46:BK5`).
    #[arg(long)]
    pub fen: String,
    /// Database directory.
    #[arg(long, default_value = crate::endgame::DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Largest number of pieces to open tables for (default: all there are, up to 7).
    #[arg(long)]
    pub pieces: Option<u32>,
}

/// Run `tiao egdb ...`; the error is a message for the user.
pub fn run(args: EgdbArgs) -> Result<(), String> {
    match args.command {
        EgdbCommand::Gen(g) => {
            let opts = GenOptions {
                dir: g.dir,
                threads: g.threads,
                distance_pieces: g.dtw_pieces,
                progress: !g.quiet,
                ..GenOptions::new(g.variant, g.pieces)
            };
            let report = generate(&opts).map_err(|e| e.to_string())?;
            outln!("{report}");
            Ok(())
        }
        EgdbCommand::Probe(p) => {
            let text = with_rules!(p.variant, R => {
                let egdb = Egdb::<R>::open_available(&p.dir, p.pieces.unwrap_or(7))
                    .map_err(|e| e.to_string())?;
                describe(&egdb, &p.fen)
            })?;
            print!("{text}");
            Ok(())
        }
        EgdbCommand::Bench(b) => {
            let report = with_rules!(b.variant, R => {
                let egdb = Egdb::<R>::open_available(&b.dir, b.pieces.unwrap_or(7))
                    .map_err(|e| e.to_string())?;
                bench(&egdb, &b)
            });
            outln!("{report}");
            Ok(())
        }
    }
}

/// Random positions with 2 to `pieces` pieces (at least one a side, men
/// never on their crowning row, either side to move), drawn from a fixed
/// seed so that every run probes the same positions.
fn random_positions<R: Rules>(count: usize, pieces: u32) -> Vec<Position<R>> {
    let squares = R::Geometry::SQUARES;
    let row = R::Geometry::HALF;
    let mut rng = crate::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move |n: u32| (rng.next_u64() % u64::from(n)) as u32;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let n = 2 + next(pieces.max(2) - 1);
        let mut taken = vec![false; squares as usize + 1];
        let (mut white, mut black) = (Vec::new(), Vec::new());
        for i in 0..n {
            let white_piece = match i {
                0 => true,
                1 => false,
                _ => next(2) == 0,
            };
            let king = next(2) == 0;
            // White men crown on squares 1..=HALF, Black men on the last row.
            let (lo, hi) = match (king, white_piece) {
                (true, _) => (1, squares),
                (false, true) => (row + 1, squares),
                (false, false) => (1, squares - row),
            };
            let sq = lo + next(hi - lo + 1);
            if taken[sq as usize] {
                continue;
            }
            taken[sq as usize] = true;
            let text = if king {
                format!("K{sq}")
            } else {
                sq.to_string()
            };
            if white_piece { &mut white } else { &mut black }.push(text);
        }
        if white.is_empty() || black.is_empty() {
            continue;
        }
        let side = if next(2) == 0 { "W" } else { "B" };
        let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
        if let Ok(pos) = read_fen::<R>(&fen) {
            out.push(pos);
        }
    }
    out
}

/// The report of `tiao egdb bench`.
fn bench<R: Rules>(egdb: &Egdb<R>, args: &BenchArgs) -> String {
    let positions = random_positions::<R>(args.positions.max(1), egdb.pieces());
    let start = std::time::Instant::now();
    let mut answered = 0u64;
    for i in 0..args.probes {
        let pos = &positions[(i % positions.len() as u64) as usize];
        answered += u64::from(egdb.probe(pos).is_some());
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let (hits, misses) = egdb.cache_stats();
    format!(
        "egdb bench: {} tables up to {} pieces; {} probes of {} random positions in {seconds:.3} s: \
         {:.0} probes/s, {:.1}% answered (the rest: not covered); \
         block cache {hits} hits, {misses} misses, {:.1} MB held",
        egdb.variant(),
        egdb.pieces(),
        args.probes,
        positions.len(),
        args.probes as f64 / seconds,
        100.0 * answered as f64 / args.probes.max(1) as f64,
        egdb.cache_bytes() as f64 / 1e6
    )
}

fn value_text(wdl: Wdl, d: Option<Distance>) -> String {
    match d {
        Some(d) => d.to_string(),
        None => wdl.to_string(),
    }
}

/// The report of `tiao egdb probe`: the position's value for the side to
/// move, then every legal move with its value for the mover, best first.
pub fn describe<R: Rules>(egdb: &Egdb<R>, fen: &str) -> Result<String, String> {
    let pos = read_fen::<R>(fen).map_err(|e| e.to_string())?;
    let mut out = format!("position {}\n", write_fen(&pos));
    let side = if pos.side() == Colour::White {
        "white"
    } else {
        "black"
    };
    let wdl = egdb.try_probe(&pos).map_err(|e| e.to_string())?;
    let Some(wdl) = wdl else {
        return Err(format!(
            "the position has {} pieces; the {} tables opened cover up to {}",
            pos.piece_count(),
            egdb.variant(),
            egdb.pieces()
        ));
    };
    let d = egdb.try_probe_dtw(&pos).map_err(|e| e.to_string())?;
    out += &format!("value: {} for {side} to move\n", value_text(wdl, d));
    let mut moves = egdb.move_values(&pos).map_err(|e| e.to_string())?;
    if moves.is_empty() {
        out += "no legal move\n";
        return Ok(out);
    }
    let key = |m: &crate::endgame::MoveValue<R>| match (m.wdl, m.distance) {
        (Wdl::Win, Some(Distance::Win(d))) => (0, i64::from(d)),
        (Wdl::Win, _) => (0, 0),
        (Wdl::Draw, _) => (1, 0),
        (Wdl::Loss, Some(Distance::Loss(d))) => (2, -i64::from(d)),
        (Wdl::Loss, _) => (2, 0),
    };
    moves.sort_by_key(key);
    let format = MoveFormat::pdn_for(R::VARIANT);
    out += "moves:\n";
    for m in &moves {
        out += &format!(
            "  {:<16} {}\n",
            write_move(&pos, &m.mv, format),
            value_text(m.wdl, m.distance)
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{International, Russian};

    #[test]
    fn bench_positions_are_legal_covered_and_repeatable() {
        let a = random_positions::<International>(500, 4);
        assert_eq!(a, random_positions::<International>(500, 4));
        for pos in &a {
            let n = pos.piece_count();
            assert!((2..=4).contains(&n), "{n} pieces");
            let text = write_fen(pos);
            assert!(text.contains(":W") && !text.contains(":W:"), "{text}");
            assert!(!text.ends_with(":B"), "{text}");
        }
        let eight = random_positions::<Russian>(200, 5);
        assert!(eight.iter().all(|p| (2..=5).contains(&p.piece_count())));
    }
}
