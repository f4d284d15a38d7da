//! Values of positions that are not read from a table as they stand:
//! positions where the side to move has no pieces (lost), where the other
//! side has none (won at once by any move), and positions where the side to
//! move must capture. The latter are searched: each capture is played and
//! its result looked up, recursively (every capture removes a piece, so the
//! recursion is short). Their slots in the files are "don't care", which
//! compresses better; this search is what makes that safe. The generator
//! and the prober share this code, each with its own way of reading tables.

use super::error::EgdbError;
use super::symmetry::{Sides, can_capture, canonical, to_position};
use super::value::{Code, LOSS_ANY, Negamax};
use tiao_core::bits::BitWord;
use tiao_draughts::board::{Geometry, Rules};
use tiao_draughts::movegen::{MoveList, generate};

/// A source of stored values.
pub(crate) trait Lookup<R: Rules> {
    /// The stored code of a White-to-move position in which both sides have
    /// pieces and White has no capture, and whether its distance is exact
    /// (false for tables without distances).
    fn stored(&self, s: &Sides) -> Result<(Code, bool), EgdbError>;

    /// The value of any position with both sides on the board, if this
    /// source holds the true value of every position of its slice (capture
    /// positions included), which saves the capture search.
    fn exact(&self, _s: &Sides) -> Result<Option<(Code, bool)>, EgdbError> {
        Ok(None)
    }
}

/// Whether `s` (White to move) is read from a table as it stands.
#[inline]
pub(crate) fn is_stored<R: Rules>(s: &Sides) -> bool {
    let white = s.white();
    let black = s.black();
    if white == 0 || black == 0 {
        return false;
    }
    let w = |x: u128| <R::Geometry as Geometry>::W::from_u128(x);
    let empty = <R::Geometry as Geometry>::ALL & !w(white | black);
    !can_capture::<R::Geometry>(w(s.wm), w(s.wk), w(black), empty)
}

/// The value of a White-to-move position and whether its distance is exact.
pub(crate) fn value<R: Rules, L: Lookup<R>>(l: &L, s: &Sides) -> Result<(Code, bool), EgdbError> {
    if s.white() == 0 {
        // No piece, no move: lost, at distance 0.
        return Ok((LOSS_ANY, true));
    }
    if s.black() != 0
        && let Some(v) = l.exact(s)?
    {
        return Ok(v);
    }
    if is_stored::<R>(s) {
        return l.stored(s);
    }
    let pos = to_position::<R>(s)
        .ok_or_else(|| EgdbError::Internal(format!("invalid position {s:?}")))?;
    let mut list = MoveList::<R>::new();
    generate(&pos, &mut list);
    let mut best = Negamax::default();
    let mut exact = true;
    for mv in &list {
        let succ = pos.play(mv);
        let (c, e) = value::<R, L>(l, &canonical(&succ))?;
        best.add(c);
        exact &= e;
    }
    let code = best
        .code()
        .ok_or_else(|| EgdbError::Internal("distance too large".into()))?;
    Ok((code, exact))
}
