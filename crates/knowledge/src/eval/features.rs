//! Evaluation features of a draughts position: the quantities the
//! evaluation weighs. They are counted for each side and returned as White
//! minus Black, so the same vector serves the evaluation, the `eval` command
//! (which shows each term) and training (which fits the weights).

use std::sync::OnceLock;
use tiao_core::bits::BitWord;
use tiao_draughts::board::{Colour, Dir, Geometry, Position, Rules, Word};

/// The terms of evaluation v1, in weight-file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Men on the board.
    Man,
    /// Kings on the board.
    King,
    /// Sum over men of the rows they have advanced.
    Tempo,
    /// Men on the central squares.
    Centre,
    /// How unevenly the men are spread over the two wings (|left - right|).
    Imbalance,
    /// Advanced men with both rear squares held by friendly pieces.
    Outpost,
    /// Men with a free path to the crowning row, weighted by closeness.
    Runaway,
    /// Men that cannot move forward (both squares ahead taken or off the board).
    Locked,
    /// Squares the kings can move to.
    KingMobility,
    /// Men still on their own back row (they stop enemy men from crowning).
    BackRank,
}

impl Feature {
    pub const ALL: [Feature; 10] = [
        Feature::Man,
        Feature::King,
        Feature::Tempo,
        Feature::Centre,
        Feature::Imbalance,
        Feature::Outpost,
        Feature::Runaway,
        Feature::Locked,
        Feature::KingMobility,
        Feature::BackRank,
    ];
    pub const COUNT: usize = Self::ALL.len();

    /// Name in the weights file and the `eval` command.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Man => "man",
            Feature::King => "king",
            Feature::Tempo => "tempo",
            Feature::Centre => "centre",
            Feature::Imbalance => "imbalance",
            Feature::Outpost => "outpost",
            Feature::Runaway => "runaway",
            Feature::Locked => "locked",
            Feature::KingMobility => "king-mobility",
            Feature::BackRank => "back-rank",
        }
    }

    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Feature values, White minus Black.
pub type Features = [i32; Feature::COUNT];

/// Square tables of one board size, built once.
struct Tables {
    /// Rows advanced from the own back row, per colour and bit.
    advance: [Vec<u8>; 2],
    /// Squares a man could reach on its way to the crowning row (its forward cone), per colour and bit.
    cone: [Vec<u128>; 2],
    /// Rows of the board, counted from each colour's back row.
    rows: [Vec<u128>; 2],
    centre: u128,
    left: u128,
    right: u128,
}

impl Tables {
    fn build<G: Geometry>() -> Tables {
        let n = G::SIZE as i32;
        let mut t = Tables {
            advance: [vec![0; 128], vec![0; 128]],
            cone: [vec![0; 128], vec![0; 128]],
            rows: [vec![0; n as usize], vec![0; n as usize]],
            centre: 0,
            left: 0,
            right: 0,
        };
        for sq in 0..G::SQUARES {
            let bit = G::bit_of(sq);
            let (row, file) = G::row_file(bit);
            let (row, file) = (row as i32, file as i32);
            let b = 1u128 << bit;
            // White advances upwards (towards row 0), Black downwards.
            let adv = [n - 1 - row, row];
            for (c, &adv) in adv.iter().enumerate() {
                t.advance[c][bit as usize] = adv as u8;
                t.rows[c][adv as usize] |= b;
                let step = if c == 0 { -1 } else { 1 };
                let mut cone = 0u128;
                let mut k = 1;
                loop {
                    let r = row + step * k;
                    if !(0..n).contains(&r) {
                        break;
                    }
                    for f in (file - k)..=(file + k) {
                        if let Some(x) = G::bit_at(r, f) {
                            cone |= 1u128 << x;
                        }
                    }
                    k += 1;
                }
                t.cone[c][bit as usize] = cone;
            }
            if (2..n - 2).contains(&file) && (n / 2 - 2..=n / 2 + 1).contains(&row) {
                t.centre |= b;
            }
            if file < n / 2 {
                t.left |= b;
            } else {
                t.right |= b;
            }
        }
        t
    }
}

fn tables<G: Geometry>() -> &'static Tables {
    static T8: OnceLock<Tables> = OnceLock::new();
    static T10: OnceLock<Tables> = OnceLock::new();
    static T12: OnceLock<Tables> = OnceLock::new();
    match G::SIZE {
        8 => T8.get_or_init(Tables::build::<G>),
        10 => T10.get_or_init(Tables::build::<G>),
        _ => T12.get_or_init(Tables::build::<G>),
    }
}

/// The features of one side.
fn side_features<R: Rules>(pos: &Position<R>, colour: Colour, t: &Tables) -> Features {
    let w = |m: u128| Word::<R>::from_u128(m);
    let c = colour.index();
    let white = colour == Colour::White;
    let men = pos.men(colour);
    let kings = pos.kings(colour);
    let own = pos.pieces(colour);
    let enemy = pos.pieces(!colour);
    let empty = pos.empty_squares();
    let (fwd_l, fwd_r) = if white {
        (Dir::UpLeft, Dir::UpRight)
    } else {
        (Dir::DownLeft, Dir::DownRight)
    };

    let mut f = [0i32; Feature::COUNT];
    f[Feature::Man as usize] = men.count() as i32;
    f[Feature::King as usize] = kings.count() as i32;

    let mut tempo = 0;
    for (r, &row) in t.rows[c].iter().enumerate() {
        tempo += r as i32 * (men & w(row)).count() as i32;
    }
    f[Feature::Tempo as usize] = tempo;
    f[Feature::Centre as usize] = (men & w(t.centre)).count() as i32;
    let (l, r) = (
        (men & w(t.left)).count() as i32,
        (men & w(t.right)).count() as i32,
    );
    f[Feature::Imbalance as usize] = (l - r).abs();

    // Supported from behind on both rear diagonals (the board edge counts as support).
    // A square is backed along `d` when the square behind it (against `d`) is
    // friendly or off the board: shifting those squares by `d` marks it.
    let backed = |d: Dir| R::Geometry::step(own | !R::Geometry::ALL, d);
    let supported = backed(fwd_l) & backed(fwd_r);
    let half = R::Geometry::SIZE / 2;
    let mut advanced = Word::<R>::ZERO;
    for &row in &t.rows[c][half as usize..] {
        advanced |= w(row);
    }
    f[Feature::Outpost as usize] = (men & advanced & supported & R::Geometry::ALL).count() as i32;

    // Runaways only count while the opponent has no king to chase them.
    if pos.kings(!colour).is_zero() {
        let last = R::Geometry::SIZE as i32 - 1;
        let mut runaway = 0;
        for b in men.iter() {
            if (w(t.cone[c][b as usize]) & enemy).is_zero() {
                runaway += i32::from(t.advance[c][b as usize]).min(last);
            }
        }
        f[Feature::Runaway as usize] = runaway;
    }

    let can_step =
        R::Geometry::step(empty, fwd_l.reverse()) | R::Geometry::step(empty, fwd_r.reverse());
    f[Feature::Locked as usize] = (men & !can_step).count() as i32;

    let mut mobility = 0;
    if kings.any() {
        for d in Dir::ALL {
            mobility += (R::Geometry::slide(kings, d, empty) & empty).count() as i32;
        }
    }
    f[Feature::KingMobility as usize] = mobility;
    f[Feature::BackRank as usize] = (men & w(t.rows[c][0])).count() as i32;
    f
}

/// The features of a position, White minus Black.
pub fn features<R: Rules>(pos: &Position<R>) -> Features {
    let t = tables::<R::Geometry>();
    let w = side_features(pos, Colour::White, t);
    let b = side_features(pos, Colour::Black, t);
    let mut f = [0; Feature::COUNT];
    for i in 0..Feature::COUNT {
        f[i] = w[i] - b[i];
    }
    f
}

/// Game phase from 256 (all men on the board) down to 0 (bare board).
pub fn phase<R: Rules>(pos: &Position<R>) -> i32 {
    let total = 2 * R::MEN as i32;
    (pos.piece_count() as i32 * 256 / total).min(256)
}
