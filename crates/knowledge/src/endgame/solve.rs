//! The retrograde solver for one *group*: the positions of a unit that share
//! one placement of the men (and the mirrored placement in the swapped
//! slice).
//!
//! Men only move forwards, so a man move always leads to a placement with
//! more advancement (see `SliceIndex::advancement`); the generator solves
//! groups from the most advanced down, and inside a group only king moves
//! without capture stay inside. Everything else (captures, promotions, man
//! moves) leads to positions already solved: those are "external" and read
//! once, when the group is set up.
//!
//! Inside the group the solver is the classical retrograde analysis, with
//! distances. Each position holds a counter of its unresolved internal
//! moves. Resolved positions are processed in order of distance (a bucket
//! per distance): a lost position makes every predecessor a win one ply
//! longer; a won position takes one from each predecessor's counter, and a
//! predecessor whose counter reaches zero (and that has no drawing or
//! winning external move) is lost, one ply longer than its slowest
//! successor. A won external move makes a position "pending": it wins at
//! that distance unless an internal move wins faster. Whatever is
//! unresolved at the end is a draw. Predecessors come from un-moving the
//! kings of the side that just moved; a predecessor in which that side had a
//! capture is skipped, because the quiet move was not legal there.
//!
//! The state of a position is one `AtomicU32`, updated by compare-and-swap,
//! so large groups (positions with kings only) run in parallel with rayon.

use super::codec::DONT_CARE;
use super::error::EgdbError;
use super::index::{KingsLayout, SliceIndex};
use super::material::Material;
use super::memtable::MemTables;
use super::resolve;
use super::symmetry::{Sides, can_capture, canonical, mirror, to_position};
use super::value::{Code, DRAW, LOSS_ANY, Negamax, WIN_ANY, loss_code, wdl_only, win_code};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};
use tiao_core::bits::BitWord;
use tiao_draughts::board::{Colour, Dir, Geometry, Position, Rules, Word};
use tiao_draughts::movegen::{MoveList, generate};

/// A result slot not yet computed.
pub(crate) const UNSET: u16 = 0xFFFF;

const CNT_MASK: u32 = 0xFF;
const TAG_MASK: u32 = 0x7 << 8;
const UNRES: u32 = 0;
const PENDING: u32 = 1 << 8;
const WIN: u32 = 2 << 8;
const LOSS: u32 = 3 << 8;
const DRAWN: u32 = 4 << 8;
const EXT_DRAW: u32 = 1 << 11;
const CAPTURE: u32 = 1 << 12;
const DEPTH_SHIFT: u32 = 16;
/// Largest distance the solver tracks (a code must fit in 15 bits).
const MAX_DEPTH: u32 = 0x7FF0;

/// Groups at least this large are set up and propagated in parallel.
const PAR_MIN: usize = 1 << 14;
const CHUNK: usize = 1 << 12;

/// One unit being solved: a slice and its swap (the same slice twice when
/// it is its own swap), their results so far, and the finished tables.
pub(crate) struct Unit<'a, R: Rules> {
    pub mats: [Material; 2],
    pub index: [&'a SliceIndex<R::Geometry>; 2],
    pub results: [&'a [AtomicU16]; 2],
    pub deps: &'a MemTables<R>,
    /// Whether distances are kept (otherwise only win/loss/draw is exact).
    pub distances: bool,
}

/// One block of a group: the positions of one slice with one men placement.
struct Block {
    /// Where the kings can stand.
    lay: KingsLayout,
    sel: usize,
    men_rank: u64,
    wm: u128,
    bm: u128,
    base: usize,
}

/// Reusable buffers of one worker thread.
#[derive(Default)]
pub(crate) struct Workspace {
    state: Vec<AtomicU32>,
    buckets: Vec<Vec<u32>>,
}

type Pushes = Vec<(u32, u32)>;

fn internal(msg: String) -> EgdbError {
    EgdbError::Internal(msg)
}

#[inline(always)]
fn w<R: Rules>(x: u128) -> Word<R> {
    Word::<R>::from_u128(x)
}

impl<R: Rules> Unit<'_, R> {
    fn sel_of(&self, m: Material) -> Option<usize> {
        if m == self.mats[0] {
            Some(0)
        } else if m == self.mats[1] {
            Some(1)
        } else {
            None
        }
    }

    /// Value of a successor position (the opponent to move), from the opponent's view.
    #[inline]
    fn successor(&self, succ: &Position<R>) -> Result<Code, EgdbError> {
        let s = canonical(succ);
        let c = match self.sel_of(s.material()) {
            Some(sel) => {
                // A man move inside the unit: the group it leads to is done.
                let i = self.index[sel].index(s.wm, s.wk, s.bm, s.bk);
                let raw = self.results[sel]
                    .get(i as usize)
                    .ok_or_else(|| internal(format!("index {i} outside {}", self.mats[sel])))?
                    .load(Relaxed);
                if raw == UNSET {
                    return Err(internal(format!(
                        "{} index {i} read before it was solved",
                        self.mats[sel]
                    )));
                }
                raw & 0x7FFF
            }
            None => resolve::value::<R, _>(self.deps, &s)?.0,
        };
        Ok(if self.distances { c } else { wdl_only(c) })
    }

    /// Solve the group of men rank `m0` of slice 0 and `m1` of slice 1 (for a
    /// self-symmetric unit, `m1` is the mirror placement in the same slice,
    /// and the group has one block when `m0 == m1`). Returns the number of
    /// positions solved.
    pub fn solve(&self, ws: &mut Workspace, m0: u64, m1: u64) -> Result<u64, EgdbError> {
        let k = self.index[0].kings_count() as usize;
        let symmetric = self.mats[0] == self.mats[1];
        let mut blocks: Vec<Block> = Vec::with_capacity(2);
        let specs: &[(usize, u64)] = if symmetric && m0 == m1 {
            &[(0, m0)]
        } else if symmetric {
            &[(0, m0), (0, m1)]
        } else {
            &[(0, m0), (1, m1)]
        };
        for (n, &(sel, mr)) in specs.iter().enumerate() {
            let (wm, bm) = self.index[sel]
                .men_unrank(mr)
                .ok_or_else(|| internal(format!("men rank {mr} outside {}", self.mats[sel])))?;
            blocks.push(Block {
                lay: self.index[sel].kings_layout(wm | bm),
                sel,
                men_rank: mr,
                wm,
                bm,
                base: n * k,
            });
        }
        let total = blocks.len() * k;
        if total > u32::MAX as usize {
            return Err(EgdbError::Unsupported("group too large".into()));
        }
        ws.state.clear();
        ws.state.resize_with(total, || AtomicU32::new(0));
        for b in ws.buckets.iter_mut() {
            b.clear();
        }

        // Set up every position from its external moves.
        let parallel = k >= PAR_MIN;
        let mut pushes: Pushes = Vec::new();
        for blk in &blocks {
            if parallel {
                let parts: Vec<Pushes> = (0..k.div_ceil(CHUNK))
                    .into_par_iter()
                    .map(|c| {
                        let mut p = Vec::new();
                        self.init_range(
                            &ws.state,
                            blk,
                            c * CHUNK,
                            ((c + 1) * CHUNK).min(k),
                            &mut p,
                        )?;
                        Ok(p)
                    })
                    .collect::<Result<_, EgdbError>>()?;
                parts.into_iter().for_each(|p| pushes.extend(p));
            } else {
                self.init_range(&ws.state, blk, 0, k, &mut pushes)?;
            }
        }
        push_all(&mut ws.buckets, &pushes);

        // Propagate by increasing distance.
        let other = |b: usize| if blocks.len() == 2 { 1 - b } else { b };
        let mut d = 0;
        while d < ws.buckets.len() {
            let items = std::mem::take(&mut ws.buckets[d]);
            let mut pushes: Pushes = Vec::new();
            if items.len() >= PAR_MIN {
                let parts: Vec<Pushes> = items
                    .par_chunks(CHUNK)
                    .map(|ch| {
                        let mut p = Vec::new();
                        for &q in ch {
                            self.propagate(
                                &ws.state, &blocks, other, k, q as usize, d as u32, &mut p,
                            )?;
                        }
                        Ok(p)
                    })
                    .collect::<Result<_, EgdbError>>()?;
                parts.into_iter().for_each(|p| pushes.extend(p));
            } else {
                for &q in &items {
                    self.propagate(
                        &ws.state,
                        &blocks,
                        other,
                        k,
                        q as usize,
                        d as u32,
                        &mut pushes,
                    )?;
                }
            }
            // Give the buffer back so its capacity is reused.
            let mut items = items;
            items.clear();
            ws.buckets[d] = items;
            push_all(&mut ws.buckets, &pushes);
            d += 1;
        }

        // Store the results.
        for blk in &blocks {
            let out = self.results[blk.sel];
            let start = blk.men_rank as usize * k;
            for r in 0..k {
                let st = ws.state[blk.base + r].load(Relaxed);
                let depth = st >> DEPTH_SHIFT;
                let code = match st & TAG_MASK {
                    WIN if self.distances => {
                        win_code(depth).ok_or_else(|| internal("distance overflow".into()))?
                    }
                    WIN => WIN_ANY,
                    LOSS if self.distances => {
                        loss_code(depth).ok_or_else(|| internal("distance overflow".into()))?
                    }
                    LOSS => LOSS_ANY,
                    PENDING => {
                        return Err(internal("pending position left after propagation".into()));
                    }
                    _ => DRAW,
                };
                let flag = if st & CAPTURE != 0 { DONT_CARE } else { 0 };
                out.get(start + r)
                    .ok_or_else(|| internal("result slot out of range".into()))?
                    .store(code | flag, Relaxed);
            }
        }
        Ok(total as u64)
    }

    /// Set up positions `lo..hi` (kings ranks) of a block.
    fn init_range(
        &self,
        state: &[AtomicU32],
        blk: &Block,
        lo: usize,
        hi: usize,
        pushes: &mut Pushes,
    ) -> Result<(), EgdbError> {
        let index = self.index[blk.sel];
        let mut list = MoveList::<R>::new();
        for r in lo..hi {
            let (wk, bk) = index.kings_unrank_in(&blk.lay, r as u64).ok_or_else(|| {
                internal(format!("kings rank {r} outside {}", self.mats[blk.sel]))
            })?;
            let s = Sides {
                wm: blk.wm,
                wk,
                bm: blk.bm,
                bk,
            };
            let pos =
                to_position::<R>(&s).ok_or_else(|| internal(format!("invalid position {s:?}")))?;
            generate(&pos, &mut list);
            let q = blk.base + r;
            let (st, push) = if list.is_empty() {
                (LOSS, Some(0))
            } else {
                let capture = list[0].is_capture();
                let kings = pos.kings(Colour::White);
                let mut best = Negamax::default();
                let mut inside = 0u32;
                for mv in &list {
                    if !capture && kings.has(mv.from_bit()) {
                        inside += 1;
                    } else {
                        best.add(self.successor(&pos.play(mv))?);
                    }
                }
                let flag = if capture { CAPTURE } else { 0 };
                if inside > CNT_MASK {
                    return Err(internal("too many king moves for the counter".into()));
                }
                match best.win() {
                    Some(d) if inside == 0 => (WIN | flag | d << DEPTH_SHIFT, Some(d)),
                    Some(d) => (PENDING | flag | d << DEPTH_SHIFT, Some(d)),
                    None if inside == 0 && best.draw() => (DRAWN | flag, None),
                    None if inside == 0 => {
                        (LOSS | flag | best.loss() << DEPTH_SHIFT, Some(best.loss()))
                    }
                    None => {
                        let ext_draw = if best.draw() { EXT_DRAW } else { 0 };
                        (
                            UNRES | flag | ext_draw | inside | best.loss() << DEPTH_SHIFT,
                            None,
                        )
                    }
                }
            };
            if (st >> DEPTH_SHIFT) > MAX_DEPTH {
                return Err(internal("distance overflow".into()));
            }
            state[q].store(st, Relaxed);
            if let Some(d) = push {
                pushes.push((d, q as u32));
            }
        }
        Ok(())
    }

    /// Process position `q` from the bucket of distance `d`: if it is
    /// resolved at that distance, update its predecessors.
    #[allow(clippy::too_many_arguments)]
    fn propagate(
        &self,
        state: &[AtomicU32],
        blocks: &[Block],
        other: impl Fn(usize) -> usize,
        k: usize,
        q: usize,
        d: u32,
        pushes: &mut Pushes,
    ) -> Result<(), EgdbError> {
        let st = state[q].load(Relaxed);
        if st >> DEPTH_SHIFT != d {
            return Ok(()); // resolved faster since it was queued
        }
        let won = match st & TAG_MASK {
            PENDING => {
                // No internal move won faster: the external win stands.
                state[q].store((st & !TAG_MASK) | WIN, Relaxed);
                true
            }
            WIN => true,
            LOSS => false,
            _ => return Ok(()),
        };
        let b = q / k;
        let blk = &blocks[b];
        let ob = &blocks[other(b)];
        let index = self.index[blk.sel];
        let (wk, bk) = index
            .kings_unrank_in(&blk.lay, (q % k) as u64)
            .ok_or_else(|| internal("kings rank out of range".into()))?;
        let other_index = self.index[ob.sel];
        let all = R::Geometry::ALL;
        let white = w::<R>(blk.wm | wk);
        let bm = w::<R>(blk.bm);
        let bkw = w::<R>(bk);
        let empty = all & !(white | bm | bkw);
        // In the flipped predecessor the white kings of this position are black.
        let their_kings = mirror::<R::Geometry>(wk);
        for from in bkw.iter() {
            let origin = Word::<R>::bit(from);
            for dir in Dir::ALL {
                for e in (R::Geometry::slide(origin, dir, empty) & empty).iter() {
                    // Black's king came from `e` to `from`.
                    let moved = origin | Word::<R>::bit(e);
                    let qk = bkw ^ moved;
                    if can_capture::<R::Geometry>(bm, qk, white, empty ^ moved) {
                        continue; // capture was compulsory there
                    }
                    let r = other_index.kings_rank_in(
                        &ob.lay,
                        mirror::<R::Geometry>(qk.to_u128()),
                        their_kings,
                    );
                    let p = ob.base + r as usize;
                    if won {
                        lose_one(state, p, d, pushes)?;
                    } else {
                        win_now(state, p, d, pushes);
                    }
                }
            }
        }
        Ok(())
    }
}

/// A successor of `p` is won (for the side to move there) at distance `d`.
#[inline]
fn lose_one(state: &[AtomicU32], p: usize, d: u32, pushes: &mut Pushes) -> Result<(), EgdbError> {
    let a = &state[p];
    let mut cur = a.load(Relaxed);
    loop {
        if cur & TAG_MASK != UNRES || cur & EXT_DRAW != 0 {
            return Ok(());
        }
        let cnt = cur & CNT_MASK;
        if cnt == 0 {
            return Err(internal("move counter below zero".into()));
        }
        let depth = (cur >> DEPTH_SHIFT).max(d + 1);
        if depth > MAX_DEPTH {
            return Err(internal("distance overflow".into()));
        }
        let keep = cur & (CAPTURE | EXT_DRAW);
        let new = if cnt == 1 {
            LOSS | keep | depth << DEPTH_SHIFT
        } else {
            UNRES | keep | (cnt - 1) | depth << DEPTH_SHIFT
        };
        match a.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
            Ok(_) => {
                if cnt == 1 {
                    pushes.push((depth, p as u32));
                }
                return Ok(());
            }
            Err(x) => cur = x,
        }
    }
}

/// A successor of `p` is lost (for the side to move there) at distance `d`.
#[inline]
fn win_now(state: &[AtomicU32], p: usize, d: u32, pushes: &mut Pushes) {
    let a = &state[p];
    let mut cur = a.load(Relaxed);
    loop {
        let tag = cur & TAG_MASK;
        let better = tag == UNRES || (tag == PENDING && cur >> DEPTH_SHIFT > d + 1);
        if !better {
            return;
        }
        let new = WIN | (cur & CAPTURE) | (d + 1) << DEPTH_SHIFT;
        match a.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
            Ok(_) => {
                pushes.push((d + 1, p as u32));
                return;
            }
            Err(x) => cur = x,
        }
    }
}

fn push_all(buckets: &mut Vec<Vec<u32>>, pushes: &[(u32, u32)]) {
    for &(d, q) in pushes {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(q);
    }
}
