//! Command-line pieces of `tiao egdb`: `gen` generates the tables, `probe`
//! prints the value of a position and of each of its legal moves.
//!
//! ```text
//! tiao egdb gen   --variant international --pieces 5 [--dir egdb] [--threads 2]
//! tiao egdb probe --variant international --fen "W:WK46:BK5" [--dir egdb]
//! ```

use super::generate::{GenOptions, generate};
use super::probe::Egdb;
use super::value::{Distance, Wdl};
use crate::board::{Brazilian, Canadian, Colour, International, Rules, Russian, Variant};
use crate::notation::{MoveFormat, read_fen, write_fen, write_move};
use std::path::PathBuf;

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
    #[arg(long, default_value = super::DEFAULT_DIR)]
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
    #[arg(long, default_value = super::DEFAULT_DIR)]
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
            println!("{report}");
            Ok(())
        }
        EgdbCommand::Probe(p) => {
            let egdb = Egdb::open_available(&p.dir, p.variant, p.pieces.unwrap_or(7))
                .map_err(|e| e.to_string())?;
            let text = match p.variant {
                Variant::International => describe::<International>(&egdb, &p.fen),
                Variant::Brazilian => describe::<Brazilian>(&egdb, &p.fen),
                Variant::Russian => describe::<Russian>(&egdb, &p.fen),
                Variant::Canadian => describe::<Canadian>(&egdb, &p.fen),
            }?;
            print!("{text}");
            Ok(())
        }
    }
}

fn value_text(wdl: Wdl, d: Option<Distance>) -> String {
    match d {
        Some(d) => d.to_string(),
        None => wdl.to_string(),
    }
}

/// The report of `tiao egdb probe`: the position's value for the side to
/// move, then every legal move with its value for the mover, best first.
pub fn describe<R: Rules>(egdb: &Egdb, fen: &str) -> Result<String, String> {
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
    let key = |m: &super::MoveValue<R>| match (m.wdl, m.distance) {
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
