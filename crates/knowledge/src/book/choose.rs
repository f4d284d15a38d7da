//! Choosing a book move, with Scan's semantics: during the first `book-ply`
//! plies of a game, a random move among those within `book-margin`
//! centi-men of the best (weighted by the moves' weights); afterwards, and
//! always with margin 0, the best move; from `book-max-ply` on, none (the
//! search plays). The random choice is a pure function of a seed, so tests
//! and replays are reproducible.

use super::format::BookMove;
use tiao_search::score::format_men;

/// The book options of the Hub protocol (`book`, `book-ply`, `book-margin`,
/// `book-max-ply`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// Use the book at all.
    pub enabled: bool,
    /// Choose at random during the first `ply` plies of the game.
    pub ply: u32,
    /// Random choice among moves at most this many centi-men worse than the best.
    pub margin: i32,
    /// Play from the book only while the game ply is below this; 0: as deep
    /// as the book goes. A book's deep lines rest on the shallow searches
    /// that built it, and once those are shallower than what the engine
    /// searches in its own time, its search plays better than its book.
    pub max_ply: u32,
}

impl BookSettings {
    /// Tiao's defaults, the one definition the engine's option table reads:
    /// book on, random for 4 plies within 4 centi-men as Scan does, and the
    /// search from game ply 4 on (measured: `docs/book.md`; 0 would play the
    /// book to its end as Scan does).
    pub const DEFAULT: BookSettings = BookSettings {
        enabled: true,
        ply: 4,
        margin: 4,
        max_ply: 4,
    };

    /// Whether the book is consulted at this game ply.
    pub fn plays_at(&self, ply: u32) -> bool {
        self.enabled && (self.max_ply == 0 || ply < self.max_ply)
    }
}

impl Default for BookSettings {
    fn default() -> Self {
        BookSettings::DEFAULT
    }
}

/// The move a book probe chose, with what a front end shows about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookChoice {
    /// The move in Hub form.
    pub mv: String,
    /// Its score (centi-men, side to move), if scored.
    pub score: Option<i32>,
    pub weight: u32,
    /// How many moves the choice was made among (1: no randomness).
    pub candidates: usize,
    /// How many moves the book has in the position.
    pub moves: usize,
    /// Whether the choice was random (within the first `book-ply` plies).
    pub random: bool,
}

impl BookChoice {
    /// The Hub `info` line for a book move: depth 0, the book's score, the
    /// move as the principal variation, and `book=yes` (an unknown pair,
    /// which GUIs ignore, telling readers that no search was made).
    pub fn hub_info(&self) -> String {
        let score = self
            .score
            .map(|s| format!(" score={}", format_men(s)))
            .unwrap_or_default();
        format!(
            "info depth=0{score} nodes=0 time=0.000 nps=0.00 pv=\"{}\" book=yes",
            self.mv
        )
    }

    /// A line for people (text mode): `book move 32-28 (score 0.04, 3 of 9 book moves within the margin)`.
    pub fn text(&self) -> String {
        let score = self
            .score
            .map(|s| format!("score {}", format_men(s)))
            .unwrap_or_else(|| format!("played in {} games", self.weight));
        let how = if self.random {
            format!(
                "chosen at random among {} of {} book moves",
                self.candidates, self.moves
            )
        } else {
            format!("best of {} book moves", self.moves)
        };
        format!("book move {} ({score}, {how})", self.mv)
    }
}

/// What [`pick`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Picked {
    pub index: usize,
    pub candidates: usize,
    pub random: bool,
}

/// The book move to play among `moves`, or `None` if none is playable.
///
/// - Moves of weight 0 are never played.
/// - Moves without a score are ignored if any playable move has one; a
///   position whose moves are all unscored (imported from games, not yet
///   searched) is played by weight: the most played move is the "best".
/// - While `ply < book_ply` and `margin > 0`, the move is drawn at random
///   among those within `margin` centi-men of the best, with probability
///   proportional to weight. Otherwise it is the best move (ties: higher
///   weight, then the earlier move).
pub fn choose(
    moves: &[BookMove],
    ply: u32,
    book_ply: u32,
    margin: i32,
    rng_seed: u64,
) -> Option<&BookMove> {
    pick(moves, ply, book_ply, margin, rng_seed).map(|p| &moves[p.index])
}

pub(crate) fn pick(
    moves: &[BookMove],
    ply: u32,
    book_ply: u32,
    margin: i32,
    rng_seed: u64,
) -> Option<Picked> {
    let playable: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].weight > 0).collect();
    let scored: Vec<usize> = playable
        .iter()
        .copied()
        .filter(|&i| moves[i].score.is_some())
        .collect();
    // The value that ranks moves: the score, or the weight in an unscored position.
    let by_score = !scored.is_empty();
    let (pool, value): (Vec<usize>, fn(&BookMove) -> i64) = if by_score {
        (scored, |m| m.score.map_or(i64::MIN, i64::from))
    } else {
        (playable, |m| i64::from(m.weight))
    };
    let best = pool.iter().map(|&i| value(&moves[i])).max()?;
    let random = ply < book_ply && margin > 0;
    if !random {
        // The best; among equals the heavier, then the first.
        let index = pool
            .iter()
            .copied()
            .filter(|&i| value(&moves[i]) == best)
            .max_by(|&a, &b| moves[a].weight.cmp(&moves[b].weight).then(b.cmp(&a)))?;
        return Some(Picked {
            index,
            candidates: 1,
            random: false,
        });
    }
    let floor = if by_score {
        best - i64::from(margin)
    } else {
        // Unscored: every move played in games is a candidate.
        i64::MIN
    };
    let candidates: Vec<usize> = pool
        .into_iter()
        .filter(|&i| value(&moves[i]) >= floor)
        .collect();
    let total: u64 = candidates.iter().map(|&i| u64::from(moves[i].weight)).sum();
    // One SplitMix64 step: consecutive seeds (a move counter) give unrelated choices.
    let mut r = tiao_core::rng::splitmix(rng_seed).1 % total.max(1);
    let mut index = candidates[0];
    for &i in &candidates {
        let w = u64::from(moves[i].weight);
        if r < w {
            index = i;
            break;
        }
        r -= w;
    }
    Some(Picked {
        index,
        candidates: candidates.len(),
        random: candidates.len() > 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str, score: Option<i32>, weight: u32) -> BookMove {
        BookMove {
            mv: text.into(),
            score,
            weight,
            results: None,
        }
    }

    #[test]
    fn weight_zero_is_never_played() {
        let moves = [mv("32-28", Some(50), 0), mv("33-28", Some(10), 1)];
        for seed in 0..50 {
            assert_eq!(choose(&moves, 0, 10, 100, seed).unwrap().mv, "33-28");
        }
    }

    #[test]
    fn unscored_positions_play_by_weight() {
        let moves = [mv("32-28", None, 3), mv("33-28", None, 9)];
        assert_eq!(choose(&moves, 10, 4, 4, 1).unwrap().mv, "33-28");
        let mut seen = [false; 2];
        for seed in 0..200 {
            let m = choose(&moves, 0, 4, 4, seed).unwrap();
            seen[usize::from(m.mv == "33-28")] = true;
        }
        assert_eq!(seen, [true, true]);
    }
}
