//! The Gewu evaluation (both forms), in centi-units from the side to
//! move's view.
//!
//! - **progress**: cells each piece has advanced (every move is progress,
//!   and a piece further on is nearer a breakthrough);
//! - **front**: the leading piece's nearness to the enemy's home (one piece
//!   getting through wins, so the spearhead matters more than the average);
//! - **race**: a piece with no enemy piece ahead of it is *passed*: nothing
//!   can stop it, and it needs exactly its distance in unit moves. If the
//!   side to move's best passed piece needs no more moves than the opponent
//!   could possibly need (a jump gains at most two cells per move), the side
//!   to move wins the race (and the reverse for the opponent, who moves
//!   second). In the throw form this is an estimate, not a certainty.

use super::position::GewuPosition;
use super::track::{CELLS, FULL, distance_home};
use tiao_core::Colour;
use tiao_core::game::Evaluate;

/// The Gewu evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct GewuEval;

/// Per cell advanced by a piece.
const PROGRESS: i32 = 10;
/// Per cell the leading piece has left to go, subtracted.
const FRONT: i32 = 8;
/// A race won by a passed piece.
const RACE: i32 = 600;

/// Cells advanced by a piece of `c` on `cell`, from its own end.
fn advanced(c: Colour, cell: u32) -> i32 {
    match c {
        Colour::White => cell as i32,
        Colour::Black => (CELLS - 1 - cell) as i32,
    }
}

/// Cells of the pieces of `c`, lowest first.
fn cells(set: u32) -> impl Iterator<Item = u32> {
    (0..CELLS).filter(move |&i| set >> i & 1 == 1)
}

/// Whether no enemy piece stands ahead of `c`'s piece on `cell`.
fn is_passed(pos: &GewuPosition, c: Colour, cell: u32) -> bool {
    let enemy = pos.pieces(!c);
    let ahead = match c {
        Colour::White => FULL & !((2u32 << cell) - 1),
        Colour::Black => (1u32 << cell) - 1,
    };
    enemy & ahead == 0
}

/// Unit moves `c` needs at best to win with a passed piece, if any.
fn passed_race(pos: &GewuPosition, c: Colour) -> Option<u32> {
    cells(pos.pieces(c))
        .filter(|&cell| is_passed(pos, c, cell))
        .map(|cell| distance_home(c, cell))
        .min()
}

/// A lower bound on the unit moves `c` needs to win at all.
fn fastest(pos: &GewuPosition, c: Colour) -> u32 {
    cells(pos.pieces(c))
        .map(|cell| distance_home(c, cell).div_ceil(2))
        .min()
        .unwrap_or(u32::MAX)
}

/// Progress and front terms for one side.
fn side_score(pos: &GewuPosition, c: Colour) -> i32 {
    let set = pos.pieces(c);
    let progress: i32 = cells(set).map(|cell| advanced(c, cell)).sum();
    let front = cells(set)
        .map(|cell| distance_home(c, cell))
        .min()
        .unwrap_or(CELLS) as i32;
    PROGRESS * progress - FRONT * front
}

impl Evaluate<GewuPosition> for GewuEval {
    type State = ();

    fn evaluate(&self, pos: &GewuPosition) -> i32 {
        let me = pos.side();
        let mut score = side_score(pos, me) - side_score(pos, !me);
        // At most one of the two holds: `fastest` never exceeds a passed
        // piece's distance, so both would need d_me <= d_them < d_me.
        if let Some(d) = passed_race(pos, me).filter(|&d| d <= fastest(pos, !me)) {
            score += RACE - PROGRESS * d as i32;
        } else if let Some(d) = passed_race(pos, !me).filter(|&d| d < fastest(pos, me)) {
            score -= RACE - PROGRESS * d as i32;
        }
        score
    }
}
