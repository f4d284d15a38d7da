//! `tiao openings`: generate a ballot file. Every opening of `plies` plies
//! is enumerated from the start position (transpositions kept once, in the
//! order the move generator gives them), each is scored by a fixed-depth
//! search, and those within ±margin are written (format in
//! `docs/openings.md`).
//!
//! Scoring runs one engine per thread (`tools::workers`), each thread
//! taking the next unscored opening. The table is cleared before
//! every search, so each score depends only on its position and the file is
//! the same whatever the threads and their timing: regenerating it with the
//! same Tiao gives no diff.

use super::cli::{OpeningsArgs, cores};
use super::progress::Progress;
use crate::board::Variant;
use crate::engine::{
    Engine, MoveReading, Options, PositionError, PositionText, Session, new_session,
};
use crate::notation::MoveFormat;
use crate::search::score::format_men;
use crate::search::{Limits, Params};
use crate::tools::workers::on_threads;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// An opening found by the enumeration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The moves in PDN notation.
    pub moves: Vec<String>,
    /// The position after them (the key for transpositions).
    pub fen: String,
}

/// All openings of `plies` plies of `variant`, one per resulting position;
/// also returns how many move sequences there were.
pub fn enumerate(variant: Variant, plies: u32) -> (Vec<Candidate>, usize) {
    fn walk(
        s: &mut dyn Session,
        left: u32,
        path: &mut Vec<String>,
        seen: &mut HashSet<String>,
        out: &mut Vec<Candidate>,
        sequences: &mut usize,
    ) {
        if s.outcome().is_some() {
            return;
        }
        if left == 0 {
            *sequences += 1;
            let fen = s.fen();
            if seen.insert(fen.clone()) {
                out.push(Candidate {
                    moves: path.clone(),
                    fen,
                });
            }
            return;
        }
        for hub in s.legal_moves(MoveFormat::Hub) {
            // The move comes from the legal list, so it plays.
            let Ok(pdn) = s.play(&hub, MoveReading::Hub) else {
                continue;
            };
            path.push(pdn);
            walk(s, left - 1, path, seen, out, sequences);
            path.pop();
            s.undo();
        }
    }
    let mut session = new_session(variant);
    let (mut seen, mut out, mut sequences) = (HashSet::new(), Vec::new(), 0);
    walk(
        session.as_mut(),
        plies,
        &mut Vec::new(),
        &mut seen,
        &mut out,
        &mut sequences,
    );
    (out, sequences)
}

/// Score each candidate (centi-men, White's view) with a `depth` search.
pub fn score_all(
    variant: Variant,
    candidates: &[Candidate],
    depth: u32,
    threads: usize,
    hash_mib: usize,
    progress: &Mutex<Progress>,
) -> Result<Vec<i32>, String> {
    let next = AtomicUsize::new(0);
    let scores: Mutex<Vec<Option<i32>>> = Mutex::new(vec![None; candidates.len()]);
    on_threads(threads.max(1), "openings", || {
        let options = Options {
            variant,
            threads: 1,
            hash_mib,
            ..Options::default()
        };
        let mut engine = Engine::new(options).map_err(|e| e.to_string())?;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(c) = candidates.get(i) else {
                return Ok(());
            };
            let moves: Vec<&str> = c.moves.iter().map(String::as_str).collect();
            if let Err(PositionError::Move { index, error, .. }) =
                engine.set_position(PositionText::Start, &moves, MoveReading::Any)
            {
                return Err(format!("opening {}: move {}: {error}", i + 1, index + 1));
            }
            engine.new_game();
            let white_to_move = engine.side_to_move() == crate::board::Colour::White;
            // Analysis mode: a `think` search plays a single legal move at
            // once with no score, and forced captures are common here.
            let params = Params::analyze(Limits::depth(depth));
            let out = engine.search(&params, MoveFormat::Hub, &|_| {});
            let score = if white_to_move { out.score } else { -out.score };
            if let Ok(mut s) = scores.lock() {
                s[i] = Some(score);
            }
            if let Ok(mut p) = progress.lock() {
                p.advance("");
            }
        }
    })?;
    scores
        .into_inner()
        .map_err(|_| "a scoring thread failed".to_string())?
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.ok_or_else(|| format!("opening {} was not scored", i + 1)))
        .collect()
}

/// The ballot file's text.
pub fn render(
    args: &OpeningsArgs,
    variant: Variant,
    kept: &[(&Candidate, i32)],
    distinct: usize,
    sequences: usize,
) -> String {
    let margin = format!("{:.2}", args.margin);
    let mut out = String::new();
    let _ = writeln!(out, "# Tiao opening ballot (format: docs/openings.md)");
    let _ = writeln!(out, "# variant: {variant}");
    let _ = writeln!(out, "# plies: {}", args.plies);
    let _ = writeln!(out, "# depth: {}", args.depth);
    let _ = writeln!(out, "# margin: {margin}");
    let _ = writeln!(
        out,
        "# openings: {} kept of {distinct} distinct positions ({sequences} move sequences)",
        kept.len()
    );
    let _ = writeln!(
        out,
        "# command: tiao openings --variant {variant} --plies {} --depth {} --margin {margin}",
        args.plies, args.depth
    );
    let _ = writeln!(
        out,
        "# Each line: the moves from the start position, then the score for White in men."
    );
    let width = kept
        .iter()
        .map(|(c, _)| c.moves.join(" ").len())
        .max()
        .unwrap_or(0);
    for (c, score) in kept {
        let sign = if *score >= 0 { "+" } else { "" };
        let _ = writeln!(
            out,
            "{:<width$}  # {sign}{}",
            c.moves.join(" "),
            format_men(*score)
        );
    }
    out
}

/// Run `tiao openings`.
pub fn run(args: &OpeningsArgs) -> Result<(), String> {
    let variant = args.variant;
    if !(1..=12).contains(&args.plies) {
        return Err("--plies must be from 1 to 12".into());
    }
    if !(1..=crate::search::MAX_DEPTH).contains(&args.depth) {
        return Err(format!(
            "--depth must be from 1 to {}",
            crate::search::MAX_DEPTH
        ));
    }
    if !(args.margin.is_finite() && args.margin >= 0.0) {
        return Err("--margin must be a number of men, 0 or more".into());
    }
    let (candidates, sequences) = enumerate(variant, args.plies);
    let progress = Mutex::new(Progress::new(
        candidates.len() as u64,
        "openings",
        args.quiet,
    ));
    let threads = args.threads.unwrap_or_else(cores);
    let scores = score_all(
        variant,
        &candidates,
        args.depth,
        threads,
        args.hash.max(1),
        &progress,
    )?;
    if let Ok(p) = progress.lock() {
        p.finish();
    }
    let limit = (args.margin * 100.0).round() as i32;
    let kept: Vec<(&Candidate, i32)> = candidates
        .iter()
        .zip(scores)
        .filter(|(_, s)| s.abs() <= limit)
        .collect();
    if kept.is_empty() {
        return Err(format!(
            "no opening is within ±{:.2}; try a larger --margin",
            args.margin
        ));
    }
    let text = render(args, variant, &kept, candidates.len(), sequences);
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    if !args.quiet {
        eprintln!(
            "{} openings kept of {} ({sequences} move sequences)",
            kept.len(),
            candidates.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumeration_counts_match_perft() {
        // perft(2) = 81 and perft(3) = 658 for international draughts; all
        // 81 two-ply positions differ, and some three-ply ones transpose.
        let (two, seq2) = enumerate(Variant::International, 2);
        assert_eq!((two.len(), seq2), (81, 81));
        let (three, seq3) = enumerate(Variant::International, 3);
        assert_eq!(seq3, 658);
        assert!(three.len() < 658);
        // Russian: perft(2) = 49.
        assert_eq!(enumerate(Variant::Russian, 2).1, 49);
    }
}
