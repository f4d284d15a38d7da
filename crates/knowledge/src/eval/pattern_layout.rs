//! The regions of the board that the pattern evaluation reads, and how a
//! region's contents become a table index.
//!
//! A region is a 4x4 block of the board: 4 rows and 4 files, so 8 dark
//! squares, 2 in each row. Blocks start on every row and every file (49
//! on 10x10, 25 on 8x8), and overlap; the set is closed under the half
//! turn of the board (which maps a block onto another block), which is
//! what makes the evaluation exactly colour-symmetric (see `pattern.rs`).
//!
//! Each square is empty, a white man or a black man (kings read as empty:
//! material, mobility and the rest of the king terms come from the hand-set
//! features), so a region has 3^8 = 6561 configurations. Its index is
//! `sum(state(square j) * 3^j)` over the squares in reading order (rows from
//! the top, left to right). It is computed without a loop over squares: the
//! two squares of a row in a block are adjacent bits of the board word (the
//! layout keeps a row's squares contiguous), so four shifts gather the
//! block's men of one colour into an 8-bit number, and a 256-entry table
//! turns those bits into base-3 digits (`Region::index`, used by training).
//!
//! The engine, which evaluates all regions of a position at once, shares
//! that work between the regions (`RowPairs`): each row is read once as a
//! base-3 number, and a table gives the values of its pairs of neighbouring
//! squares; a region's index is then four of those pair values, one per
//! row, as the digits of a base-9 number. That is a third of the operations
//! of gathering every region's bits separately.
//!
//! Beside the 4x4 blocks, a layout may have *tall windows*: 4 files and 5
//! rows, 10 dark squares, 3^10 configurations, whose index is five
//! row-pair values as base-9 digits. A tall window's table is too large
//! to have one per place, so the windows with the same top row (a *band*:
//! the same distance from both crowning rows) share one; the blocks' own
//! tables say what the edges change. (Scan 3.1's windows are 6 rows tall;
//! here their 10.6 MB of tables slowed the search more than they gained:
//! docs/strength.md, "Tall windows".)

use tiao_draughts::board::{Geometry, Variant};

/// Dark squares in a region.
pub const REGION_SQUARES: usize = 8;
/// Configurations of a region: 3 states per square.
pub const CONFIGS: usize = 6561;
/// Rows and files of a region.
const REGION_SIZE: u32 = 4;
/// Files between the left edges of neighbouring regions.
const FILE_STRIDE: u32 = 1;

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (bit j gives 3^j).
pub const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut j = 0;
        while j < REGION_SQUARES {
            if b & (1 << j) != 0 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// `SWAP[i]`: the configuration seen from the other side of the board: the
/// squares in reverse order (the half turn reverses reading order) and the
/// colours exchanged.
pub static SWAP: [u16; CONFIGS] = {
    let mut t = [0u16; CONFIGS];
    let mut i = 0;
    while i < CONFIGS {
        t[i] = swapped(i, REGION_SQUARES) as u16;
        i += 1;
    }
    t
};

/// One region: where it lies and how to gather its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Top row and left file of the block (row 0 is Black's back row).
    pub top: u32,
    pub left: u32,
    /// For each of the 4 rows, the bit index of the left one of its two
    /// dark squares (the right one is the next bit).
    pub shifts: [u32; 4],
    /// The 0-based square indices of the 8 squares, in reading order.
    pub squares: [u32; REGION_SQUARES],
    /// For each of the 4 rows, where its pair value is in `RowPairs`:
    /// `4 * row + j`, j the left square's place in its row.
    pub pairs: [u8; 4],
}

impl Region {
    /// The index of the region's configuration: `white` and `black` are the
    /// men of each colour as board words.
    #[inline(always)]
    pub fn index(&self, white: u64, black: u64) -> usize {
        let s = &self.shifts;
        let gather = |x: u64| {
            (((x >> s[0]) & 3)
                | (((x >> s[1]) & 3) << 2)
                | (((x >> s[2]) & 3) << 4)
                | (((x >> s[3]) & 3) << 6)) as usize
        };
        TERNARY[gather(white)] as usize + 2 * TERNARY[gather(black)] as usize
    }

    /// The same index as [`Region::index`], from the board's pair values.
    #[inline(always)]
    pub fn index_from(&self, rows: &RowPairs) -> usize {
        // Every slot is below 40 (`4 * row + j`, row < 10, j < 4); the mask
        // tells the compiler the read is inside the 64-byte array, so the
        // 49 regions' 196 reads need no bounds checks.
        let v = |k: usize| rows.0[usize::from(self.pairs[k]) & (ROW_PAIR_SLOTS - 1)] as usize;
        v(0) + 9 * v(1) + 81 * v(2) + 729 * v(3)
    }
}

/// Most dark squares in a row of a supported board (10x10).
const MAX_HALF: usize = 5;
/// Most rows of a supported board.
const MAX_ROWS: usize = 10;

/// `PAIRS[t]`: for a row whose contents read `t` in base 3 (digit i: the
/// row's i-th dark square from the left), byte j is the value of squares j
/// and j + 1 as a region reads them: `digit j + 3 * digit (j + 1)`.
static PAIRS: [[u8; 4]; 243] = {
    let mut t = [[0u8; 4]; 243];
    let mut v = 0;
    while v < 243 {
        let mut digits = [0u8; MAX_HALF];
        let mut x = v;
        let mut i = 0;
        while i < MAX_HALF {
            digits[i] = (x % 3) as u8;
            x /= 3;
            i += 1;
        }
        let mut j = 0;
        while j < 4 {
            t[v][j] = digits[j] + 3 * digits[j + 1];
            j += 1;
        }
        v += 1;
    }
    t
};

/// Slots of `RowPairs`: `4 * MAX_ROWS` rounded up to a power of two.
const ROW_PAIR_SLOTS: usize = 64;
const _: () = assert!(4 * MAX_ROWS <= ROW_PAIR_SLOTS && ROW_PAIR_SLOTS.is_power_of_two());

/// The pair values of every row of a position (`4 * row + j`, see
/// `PAIRS`): what `Region::index_from` reads.
pub struct RowPairs([u8; ROW_PAIR_SLOTS]);

impl RowPairs {
    /// Read the rows of geometry `G` (8x8 or 10x10), given the men of
    /// each colour as board words.
    #[inline(always)]
    pub fn new<G: Geometry>(white: u64, black: u64) -> RowPairs {
        let mut out = [0u8; ROW_PAIR_SLOTS];
        let mask = (1u64 << G::HALF) - 1;
        let rows = (G::SIZE as usize).min(MAX_ROWS);
        for (row, pairs) in out.chunks_exact_mut(4).take(rows).enumerate() {
            let bit = G::bit_of(row as u32 * G::HALF);
            let w = ((white >> bit) & mask) as usize;
            let b = ((black >> bit) & mask) as usize;
            let t = TERNARY[w] as usize + 2 * TERNARY[b] as usize;
            pairs.copy_from_slice(&PAIRS[t]);
        }
        RowPairs(out)
    }
}

/// Most regions of a supported board (49 on 10x10).
pub const MAX_REGIONS: usize = 49;
/// Slots of `RegionIndices`: `MAX_REGIONS` rounded up to whole 128-bit
/// vectors of u16, so that an update is a few vector multiply-adds.
const INDEX_SLOTS: usize = 56;
const _: () = assert!(MAX_REGIONS <= INDEX_SLOTS && INDEX_SLOTS.is_multiple_of(8));

/// Rows of a tall window (its files are a block's 4).
const TALL_ROWS: u32 = 5;
/// Dark squares in a tall window.
pub const TALL_SQUARES: usize = 2 * TALL_ROWS as usize;
/// Configurations of a tall window.
pub const TALL_CONFIGS: usize = 3usize.pow(TALL_SQUARES as u32);
/// Files between the left edges of neighbouring tall windows of a band.
const TALL_STRIDE: u32 = 1;
/// Most tall windows of a supported board (10x10: a band per top row,
/// windows at every `TALL_STRIDE` files of the 7 places in a band).
pub const MAX_TALL: usize = (11 - TALL_ROWS as usize) * (6 / TALL_STRIDE as usize + 1);
/// The index of every block of a position, as the search carries them
/// from a position to its children (`Layout::update`) instead of reading
/// the board again at every node, as Scan does. Unused slots (8x8 has 25
/// regions, and every board pads to `INDEX_SLOTS`) stay 0.
///
/// Tall windows are not in this state: weights that have them carry
/// [`TallIndices`] beside it. Carrying them in one state for all weights
/// made it 288 bytes instead of 112, and copying it to each child cost the
/// search about a tenth of its time even with weights that have no tall
/// windows (`benchmarks.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionIndices {
    pub blocks: [u16; INDEX_SLOTS],
}

impl Default for RegionIndices {
    fn default() -> Self {
        RegionIndices {
            blocks: [0; INDEX_SLOTS],
        }
    }
}

/// Slots of `TallIndices`: `MAX_TALL` rounded up to whole 128-bit vectors
/// of u16.
const TALL_SLOTS: usize = 48;
const _: () = assert!(MAX_TALL <= TALL_SLOTS && TALL_SLOTS.is_multiple_of(8));
// A tall configuration fits a u16, so the carried indices wrap as the
// blocks' do.
const _: () = assert!(TALL_CONFIGS <= 1 << 16);

/// The configuration of every tall window of a position, carried from a
/// position to its children ([`Layout::tall_update`]) by the evaluator of
/// weights that have tall tables, beside the blocks' [`RegionIndices`];
/// weights without them carry the blocks alone, so that their search does
/// not copy this too at every node. Unused slots stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallIndices {
    pub windows: [u16; TALL_SLOTS],
}

impl Default for TallIndices {
    fn default() -> Self {
        TallIndices {
            windows: [0; TALL_SLOTS],
        }
    }
}

/// One tall window: 4 files by `TALL_ROWS` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tall {
    /// Top row and left file.
    pub top: u32,
    pub left: u32,
    /// The 0-based square indices of its squares, in reading order.
    pub squares: [u32; TALL_SQUARES],
    /// For each of its rows, where the row's pair value is in `RowPairs`.
    pub pairs: [u8; TALL_ROWS as usize],
}

impl Tall {
    /// The configuration, square by square (`white`, `black`: the men as
    /// board words of geometry `G`).
    pub fn index<G: Geometry>(&self, white: u64, black: u64) -> usize {
        self.squares.iter().rev().fold(0, |acc, &sq| {
            let bit = G::bit_of(sq);
            3 * acc + ((white >> bit) & 1) as usize + 2 * ((black >> bit) & 1) as usize
        })
    }

    /// The same configuration from the board's pair values.
    #[inline(always)]
    pub fn index_from(&self, rows: &RowPairs) -> usize {
        self.pairs.iter().rev().fold(0, |acc, &slot| {
            9 * acc + rows.0[usize::from(slot) & (ROW_PAIR_SLOTS - 1)] as usize
        })
    }
}

/// A configuration seen from the other side of the board: the squares in
/// reverse order and the colours exchanged (`squares` of them; 8 for a
/// block, `TALL_SQUARES` for a tall window).
pub const fn swapped(i: usize, squares: usize) -> usize {
    let (mut x, mut v, mut j) = (i, 0, 0);
    while j < squares {
        let d = x % 3;
        x /= 3;
        v = v * 3 + if d == 0 { 0 } else { 3 - d };
        j += 1;
    }
    v
}

/// `swapped` for every tall configuration, computed once.
pub fn tall_swap() -> &'static [u32] {
    static TABLE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..TALL_CONFIGS)
            .map(|i| swapped(i, TALL_SQUARES) as u32)
            .collect()
    })
}

/// Where a window whose left file is `left` meets row `row` of geometry
/// `G`: the left one of its two dark squares there (the right one is the
/// next square), and where that row's pair value is in `RowPairs`.
fn window_row<G: Geometry>(row: u32, left: u32) -> (u32, u8) {
    let file = if (row + left) % 2 == 1 {
        left
    } else {
        left + 1
    };
    (row * G::HALF + file / 2, (4 * row + file / 2) as u8)
}

/// For windows of one shape at `corners` (top row, left file), the window
/// the half turn maps each onto: its top row is `last_top` minus the
/// window's, its left file the last left file minus the window's
/// (`usize::MAX` if the set were not closed: tests check it is).
fn half_turn(corners: &[(u32, u32)], last_top: u32) -> Vec<usize> {
    let last_left = corners.iter().map(|c| c.1).max().unwrap_or(0);
    corners
        .iter()
        .map(|&(top, left)| {
            let image = (last_top - top, last_left - left);
            corners
                .iter()
                .position(|&c| c == image)
                .unwrap_or(usize::MAX)
        })
        .collect()
}

/// Add to each window's index the change of every square that differs
/// between the men `before` and `after` (white, black), times the square's
/// place value in that window (`places[bit]`, 0 where the window does not
/// hold it).
#[inline(always)]
fn add_changes<const N: usize>(
    slots: &mut [u16; N],
    places: &[[u16; N]],
    before: (u64, u64),
    after: (u64, u64),
) {
    let mut changed = (before.0 ^ after.0) | (before.1 ^ after.1);
    while changed != 0 {
        let bit = changed.trailing_zeros() as usize;
        changed &= changed - 1;
        let state = |(w, b): (u64, u64)| ((w >> bit) & 1) as i32 + 2 * ((b >> bit) & 1) as i32;
        // Arithmetic modulo 2^16: a negative change wraps, and the sums
        // are the true indices (all below 2^16) at the end.
        let delta = (state(after) - state(before)) as u16;
        for (slot, &place) in slots.iter_mut().zip(&places[bit]) {
            *slot = slot.wrapping_add(place.wrapping_mul(delta));
        }
    }
}

/// The regions of one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Files (and rows) of the board.
    pub size: u32,
    pub regions: Vec<Region>,
    /// `rotated[r]`: the region that the half turn maps region `r` onto.
    pub rotated: Vec<usize>,
    /// `places[b][r]`: the place value (3^j) of the square of board bit
    /// `b` in region `r`'s index, 0 when the region does not hold it.
    places: Vec<[u16; INDEX_SLOTS]>,
    /// The tall windows, in order of top row, then left file (none when
    /// the weights have no tall tables: see [`Layout::without_tall`]).
    pub tall: Vec<Tall>,
    /// `tall_places[b][t]`: as `places`, for tall window `t`.
    tall_places: Vec<[u16; TALL_SLOTS]>,
}

impl Layout {
    /// The regions of geometry `G`, in order of top row, then left file.
    pub fn new<G: Geometry>() -> Layout {
        let n = G::SIZE;
        let mut regions = Vec::new();
        for top in 0..=n - REGION_SIZE {
            for left in (0..=n - REGION_SIZE).step_by(FILE_STRIDE as usize) {
                let mut shifts = [0; 4];
                let mut squares = [0; REGION_SQUARES];
                let mut pairs = [0; 4];
                for k in 0..REGION_SIZE as usize {
                    let (sq, pair) = window_row::<G>(top + k as u32, left);
                    shifts[k] = G::bit_of(sq);
                    squares[2 * k] = sq;
                    squares[2 * k + 1] = sq + 1;
                    pairs[k] = pair;
                }
                regions.push(Region {
                    top,
                    left,
                    shifts,
                    squares,
                    pairs,
                });
            }
        }
        let corners: Vec<_> = regions.iter().map(|r| (r.top, r.left)).collect();
        let rotated = half_turn(&corners, n - REGION_SIZE);
        let mut places = vec![[0u16; INDEX_SLOTS]; 64];
        for (r, region) in regions.iter().enumerate() {
            for (j, &sq) in region.squares.iter().enumerate() {
                places[G::bit_of(sq) as usize][r] = 3u16.pow(j as u32);
            }
        }
        let mut tall = Vec::new();
        for top in 0..=n - TALL_ROWS {
            for left in (0..=n - REGION_SIZE).step_by(TALL_STRIDE as usize) {
                let mut squares = [0; TALL_SQUARES];
                let mut pairs = [0; TALL_ROWS as usize];
                for k in 0..TALL_ROWS as usize {
                    let (sq, pair) = window_row::<G>(top + k as u32, left);
                    squares[2 * k] = sq;
                    squares[2 * k + 1] = sq + 1;
                    pairs[k] = pair;
                }
                tall.push(Tall {
                    top,
                    left,
                    squares,
                    pairs,
                });
            }
        }
        let mut tall_places = vec![[0u16; TALL_SLOTS]; 64];
        for (t, window) in tall.iter().enumerate() {
            for (j, &sq) in window.squares.iter().enumerate() {
                tall_places[G::bit_of(sq) as usize][t] = 3u16.pow(j as u32);
            }
        }
        Layout {
            size: n,
            regions,
            rotated,
            places,
            tall,
            tall_places,
        }
    }

    /// This layout without its tall windows: what weights without tall
    /// tables read.
    pub fn without_tall(mut self) -> Layout {
        self.tall.clear();
        self.tall_places
            .iter_mut()
            .for_each(|p| *p = [0; TALL_SLOTS]);
        self
    }

    /// Bands of tall windows (distinct top rows; 0 without tall windows).
    pub fn tall_bands(&self) -> usize {
        self.tall.last().map_or(0, |t| t.top as usize + 1)
    }

    /// The first entry of band `top`'s table in the tall tables.
    #[inline(always)]
    fn tall_base(top: u32) -> u32 {
        top * TALL_CONFIGS as u32
    }

    /// The indices of every region, read from the board: `white` and
    /// `black` are the men of each colour as board words of geometry `G`
    /// (the layout's own).
    #[inline]
    pub fn indices<G: Geometry>(&self, white: u64, black: u64) -> RegionIndices {
        let rows = RowPairs::new::<G>(white, black);
        let mut out = RegionIndices::default();
        for (slot, region) in out.blocks.iter_mut().zip(&self.regions) {
            *slot = region.index_from(&rows) as u16;
        }
        out
    }

    /// Each tall window's configuration, read from the board: the state
    /// [`Layout::tall_update`] carries.
    #[inline]
    pub fn tall_state<G: Geometry>(&self, white: u64, black: u64) -> TallIndices {
        let rows = RowPairs::new::<G>(white, black);
        let mut out = TallIndices::default();
        for (slot, w) in out.windows.iter_mut().zip(&self.tall) {
            *slot = w.index_from(&rows) as u16;
        }
        out
    }

    /// Each tall window's entry in the tall tables (its band's first entry
    /// plus its configuration), from configurations carried or read with
    /// [`Layout::tall_state`].
    #[inline(always)]
    pub fn tall_entries<'a>(&'a self, state: &'a TallIndices) -> impl Iterator<Item = u32> + 'a {
        (self.tall.iter().zip(&state.windows))
            .map(|(w, &c)| Layout::tall_base(w.top) + u32::from(c))
    }

    /// Bring the tall configurations from the men `before` to the men
    /// `after`, as [`Layout::update`] does the blocks'.
    #[inline]
    pub fn tall_update(&self, state: &mut TallIndices, before: (u64, u64), after: (u64, u64)) {
        add_changes(&mut state.windows, &self.tall_places, before, after);
    }

    /// Bring `indices` from the men `before` (white, black) to the men
    /// `after`: each square that changed adds its change of state times
    /// its place value to every region's index (a vector of place values
    /// per square, 0 where a region does not hold it: seven 8-lane
    /// multiply-adds). A quiet move changes two squares; reading the board
    /// again costs several times more.
    #[inline]
    pub fn update(&self, indices: &mut RegionIndices, before: (u64, u64), after: (u64, u64)) {
        add_changes(&mut indices.blocks, &self.places, before, after);
    }

    /// The layout of a variant's board, if the pattern evaluation supports
    /// that board (words of at most 64 bits: 8x8 and 10x10).
    pub fn for_variant(v: Variant) -> Option<Layout> {
        use tiao_draughts::board::{B8, B10};
        match v.board_size() {
            8 => Some(Layout::new::<B8>()),
            10 => Some(Layout::new::<B10>()),
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        self.regions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.regions.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiao_draughts::board::{B8, B10};

    #[test]
    fn swap_is_an_involution() {
        for i in 0..CONFIGS {
            assert_eq!(SWAP[SWAP[i] as usize] as usize, i);
        }
        assert_eq!(SWAP[0], 0);
        // A white man on square 0 becomes a black man on square 7.
        assert_eq!(SWAP[1] as usize, 2 * 3usize.pow(7));
    }

    fn check<G: Geometry>(count: usize) {
        let l = Layout::new::<G>();
        assert_eq!(l.len(), count);
        for (i, r) in l.regions.iter().enumerate() {
            let j = l.rotated[i];
            assert!(j < l.len());
            assert_eq!(l.rotated[j], i);
            // The half turn maps square s to SQUARES-1-s and reverses reading order.
            for k in 0..REGION_SQUARES {
                assert_eq!(
                    l.regions[j].squares[REGION_SQUARES - 1 - k],
                    G::SQUARES - 1 - r.squares[k]
                );
            }
            // Every square is dark and in the block.
            for &sq in &r.squares {
                let (row, file) = G::row_file(G::bit_of(sq));
                assert!((r.top..r.top + 4).contains(&row));
                assert!((r.left..r.left + 4).contains(&file));
            }
        }
    }

    #[test]
    fn regions_are_closed_under_the_half_turn() {
        check::<B10>(49);
        check::<B8>(25);
    }

    fn check_tall<G: Geometry>(count: usize, bands: usize) {
        let l = Layout::new::<G>();
        assert_eq!(l.tall.len(), count);
        assert_eq!(l.tall_bands(), bands);
        // The engine and the trainer mirror a window by its band: the half
        // turn must map every window onto one of the mirrored band.
        let corners: Vec<_> = l.tall.iter().map(|t| (t.top, t.left)).collect();
        let rotated = half_turn(&corners, G::SIZE - TALL_ROWS);
        for (i, t) in l.tall.iter().enumerate() {
            let j = rotated[i];
            assert!(j < count);
            assert_eq!(rotated[j], i);
            // The half turn maps the band onto the mirrored band.
            assert_eq!(l.tall[j].top as usize, bands - 1 - t.top as usize);
            for k in 0..TALL_SQUARES {
                assert_eq!(
                    l.tall[j].squares[TALL_SQUARES - 1 - k],
                    G::SQUARES - 1 - t.squares[k]
                );
            }
            for &sq in &t.squares {
                let (row, file) = G::row_file(G::bit_of(sq));
                assert!((t.top..t.top + TALL_ROWS).contains(&row));
                assert!((t.left..t.left + REGION_SIZE).contains(&file));
            }
        }
        assert!(l.without_tall().tall.is_empty());
    }

    #[test]
    fn tall_windows_are_4_files_by_6_rows_and_closed_under_the_half_turn() {
        let bands = |size: u32| (size + 1 - TALL_ROWS) as usize;
        check_tall::<B10>(MAX_TALL, bands(10));
        check_tall::<B8>((4 / TALL_STRIDE as usize + 1) * bands(8), bands(8));
    }

    #[test]
    fn tall_swap_is_an_involution_that_reverses_and_recolours() {
        let t = tall_swap();
        for i in (0..TALL_CONFIGS).step_by(7) {
            assert_eq!(t[t[i] as usize] as usize, i);
        }
        // A black man on the first square becomes a white man on the last.
        assert_eq!(t[2] as usize, 3usize.pow(TALL_SQUARES as u32 - 1));
    }

    #[test]
    fn tall_entries_from_row_pairs_equal_square_by_square_counts() {
        fn agree<G: Geometry>() {
            let l = Layout::new::<G>();
            let mut rng = tiao_core::rng::Rng::new(5);
            for _ in 0..500 {
                let (white, black) = random_board::<G>(&mut rng);
                let rows = RowPairs::new::<G>(white, black);
                let state = l.tall_state::<G>(white, black);
                let indices: Vec<u32> = l.tall_entries(&state).collect();
                assert_eq!(indices.len(), l.tall.len());
                for (t, w) in l.tall.iter().enumerate() {
                    let i = w.index::<G>(white, black);
                    assert_eq!(w.index_from(&rows), i);
                    assert_eq!(indices[t] as usize, w.top as usize * TALL_CONFIGS + i);
                }
            }
        }
        agree::<B10>();
        agree::<B8>();
    }

    #[test]
    fn index_matches_a_square_by_square_count() {
        let l = Layout::new::<B10>();
        let r = &l.regions[9];
        let white = 1u64 << B10::bit_of(r.squares[0]) | 1u64 << B10::bit_of(r.squares[5]);
        let black = 1u64 << B10::bit_of(r.squares[7]);
        assert_eq!(r.index(white, black), 1 + 243 + 2 * 2187);
    }

    /// Random men of each colour (white, black) on the board of `G`.
    fn random_board<G: Geometry>(rng: &mut tiao_core::rng::Rng) -> (u64, u64) {
        let (mut white, mut black) = (0u64, 0u64);
        for sq in 0..G::SQUARES {
            let bit = 1u64 << G::bit_of(sq);
            match rng.below(3) {
                1 => white |= bit,
                2 => black |= bit,
                _ => {}
            }
        }
        (white, black)
    }

    /// Every region's index from the shared row pairs equals its own
    /// gathered index, on random contents of both board sizes.
    fn row_pairs_agree<G: Geometry>() {
        let l = Layout::new::<G>();
        let mut rng = tiao_core::rng::Rng::new(7);
        for _ in 0..2000 {
            let (white, black) = random_board::<G>(&mut rng);
            let rows = RowPairs::new::<G>(white, black);
            for r in &l.regions {
                assert_eq!(r.index_from(&rows), r.index(white, black));
            }
        }
    }

    /// Indices brought up to date square by square equal the indices read
    /// from the new board, for random changes of any number of squares.
    fn updates_agree<G: Geometry>() {
        let l = Layout::new::<G>();
        let mut rng = tiao_core::rng::Rng::new(11);
        let mut board = random_board::<G>(&mut rng);
        let mut indices = l.indices::<G>(board.0, board.1);
        for step in 0..3000 {
            // Mostly a few squares change (a move), sometimes the whole board.
            let next = if step % 50 == 0 {
                random_board::<G>(&mut rng)
            } else {
                let (mut w, mut b) = board;
                for _ in 0..1 + rng.below(4) {
                    let bit = 1u64 << G::bit_of(rng.below(G::SQUARES as usize) as u32);
                    w &= !bit;
                    b &= !bit;
                    match rng.below(3) {
                        1 => w |= bit,
                        2 => b |= bit,
                        _ => {}
                    }
                }
                (w, b)
            };
            l.update(&mut indices, board, next);
            board = next;
            assert_eq!(indices, l.indices::<G>(board.0, board.1), "step {step}");
        }
    }

    #[test]
    fn indices_updated_square_by_square_equal_indices_read_from_the_board() {
        updates_agree::<B10>();
        updates_agree::<B8>();
    }

    #[test]
    fn row_pairs_give_the_same_index_as_gathering() {
        row_pairs_agree::<B10>();
        row_pairs_agree::<B8>();
    }
}
