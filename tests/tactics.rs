//! The tactics suite: every forced shot of `tests/data/tactics-international.txt`
//! (compiled by `tiao tactics find`) is found by a search at a fixed depth,
//! shallower than the depth that confirmed it, with one thread and with
//! two (whose helper defers the moves the other thread is searching).

use tiao::board::International;
use tiao::notation::read_fen;
use tiao::search::Searcher;
use tiao::tools::tactics::{best_move, parse_suite};

const SUITE: &str = include_str!("data/tactics-international.txt");
const DEPTH: u32 = 10;

/// The shots of the suite a search with `threads` threads misses.
fn missed(threads: usize) -> Vec<String> {
    let suite = parse_suite(SUITE).expect("suite parses");
    assert!(suite.len() >= 25, "suite has {} shots", suite.len());
    let mut s = Searcher::new(threads, 16).expect("searcher");
    let mut missed = Vec::new();
    for shot in &suite {
        let pos = read_fen::<International>(&shot.fen).expect("fen");
        let got = best_move(&mut s, &pos, DEPTH).unwrap_or_default();
        if got != shot.mv {
            missed.push(format!("{} : expected {} got {got}", shot.fen, shot.mv));
        }
    }
    missed
}

#[test]
fn every_shot_of_the_suite_is_found_at_depth_10() {
    let missed = missed(1);
    assert!(missed.is_empty(), "missed shots:\n{}", missed.join("\n"));
}

#[test]
fn every_shot_of_the_suite_is_found_at_depth_10_by_two_threads() {
    let missed = missed(2);
    assert!(missed.is_empty(), "missed shots:\n{}", missed.join("\n"));
}

#[test]
fn a_malformed_suite_is_an_error() {
    assert!(parse_suite("W:W31 ; 31-26").is_ok());
    assert!(parse_suite("W:W31").is_err());
    assert!(parse_suite("W:W99 ; 1-2").is_err());
    assert!(parse_suite("W:W31 ; 31-20").is_err());
}

/// A suite's move is compared in the form the engine writes: a capture
/// whose captured squares the file lists in another order still matches.
#[test]
fn a_suite_move_is_kept_in_canonical_hub_form() {
    use tiao::movegen::{MoveList, generate};
    use tiao::notation::write_hub_move;
    let fen = "W:W46:B41,32";
    let pos = read_fen::<International>(fen).expect("fen");
    let mut list = MoveList::<International>::new();
    generate(&pos, &mut list);
    let canonical = write_hub_move::<International>(&list[0]);
    let mut parts: Vec<&str> = canonical.split('x').collect();
    assert_eq!(parts.len(), 4, "a capture of two men: {canonical}");
    parts[2..].reverse();
    let listed = parts.join("x");
    assert_ne!(listed, canonical);
    let suite = parse_suite(&format!("{fen} ; {listed}")).expect("a legal move");
    assert_eq!(suite[0].mv, canonical);
}
