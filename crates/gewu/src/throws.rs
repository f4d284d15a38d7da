//! The throw form of Gewu (塞戏): the four faces of the throwing stick (簺)
//! and the moves a throw allows (`docs/gewu.md` §5).

use super::moves::GewuMove;
use super::position::GewuPosition;
use std::fmt;
use std::str::FromStr;
use tiao_core::game::MoveBuffer;

/// A face of the 簺.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Throw {
    /// 塞, one stroke: move 1.
    Sai,
    /// 白, two strokes: move 2.
    Bai,
    /// 黑, three strokes: move 3.
    Hei,
    /// 五, blank: the turn is lost.
    Wu,
}

impl Throw {
    /// The four faces.
    pub const ALL: [Throw; 4] = [Throw::Sai, Throw::Bai, Throw::Hei, Throw::Wu];

    /// The chance of each face (the four long faces of a symmetric stick).
    pub const PROBABILITY: f64 = 0.25;

    /// Unit moves the face allows (0 for 五).
    pub fn units(self) -> u32 {
        match self {
            Throw::Sai => 1,
            Throw::Bai => 2,
            Throw::Hei => 3,
            Throw::Wu => 0,
        }
    }

    /// The face's name in the notation (`sai`, `bai`, `hei`, `wu`).
    pub fn name(self) -> &'static str {
        match self {
            Throw::Sai => "sai",
            Throw::Bai => "bai",
            Throw::Hei => "hei",
            Throw::Wu => "wu",
        }
    }

    /// The face's character on the stick.
    pub fn hanzi(self) -> char {
        match self {
            Throw::Sai => '塞',
            Throw::Bai => '白',
            Throw::Hei => '黑',
            Throw::Wu => '五',
        }
    }

    /// The face for a uniformly random number: faces in order for `r % 4`.
    pub fn from_random(r: u64) -> Throw {
        Throw::ALL[(r % 4) as usize]
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Throw {
    type Err = String;
    /// A face by name, character or number of strokes (`0` for 五).
    fn from_str(s: &str) -> Result<Throw, String> {
        match s.trim() {
            "sai" | "塞" | "1" => Ok(Throw::Sai),
            "bai" | "白" | "2" => Ok(Throw::Bai),
            "hei" | "黑" | "3" => Ok(Throw::Hei),
            "wu" | "五" | "0" => Ok(Throw::Wu),
            other => Err(format!(
                "unknown throw '{other}': expected sai, bai, hei or wu (or 1, 2, 3, 0)"
            )),
        }
    }
}

impl GewuPosition {
    /// The moves a throw allows the side to move: each piece that can make
    /// all the throw's unit moves (or enters the enemy's home on the way),
    /// in cell order; the single move `PASS` (the turn is lost) after 五 or
    /// when no piece can use the throw.
    pub fn throw_moves<L: MoveBuffer<GewuMove>>(&self, throw: Throw, list: &mut L) {
        list.clear();
        let units = throw.units();
        if units > 0 {
            let c = self.side();
            let mut set = self.pieces(c);
            while set != 0 {
                let cell = set.trailing_zeros();
                set &= set - 1;
                if let Some(to) = self.advance(c, cell, units) {
                    list.push(GewuMove {
                        from: cell as u8,
                        to: to as u8,
                    });
                }
            }
        }
        if list.is_empty() {
            list.push(GewuMove::PASS);
        }
    }
}
