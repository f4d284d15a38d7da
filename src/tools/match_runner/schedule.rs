//! Who plays whom, with which opening, in which order.
//!
//! The unit of work is a game *pair*: one opening played twice, the colours
//! swapped, by one worker. Pairs of all pairings are interleaved (pair 1 of
//! every pairing, then pair 2, ...), so that a match stopped early — by the
//! SPRT, or by the user — has results for every pairing, and every pairing
//! meets the same openings in the same order.

/// The shape of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Two engines.
    HeadToHead,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::HeadToHead => "head-to-head",
            Format::Gauntlet => "gauntlet",
            Format::RoundRobin => "round robin",
        }
    }
}

/// Two engines that meet; results are kept from `first`'s point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub first: usize,
    pub second: usize,
}

/// The pairings of a match of `engines` engines.
pub fn pairings(engines: usize, format: Format) -> Vec<Pairing> {
    match format {
        Format::HeadToHead | Format::Gauntlet => (1..engines)
            .map(|second| Pairing { first: 0, second })
            .collect(),
        Format::RoundRobin => (0..engines)
            .flat_map(|first| (first + 1..engines).map(move |second| Pairing { first, second }))
            .collect(),
    }
}

/// One game pair to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairJob {
    /// Index into the pairings.
    pub pairing: usize,
    /// Index of the opening in the ballot.
    pub opening: usize,
    /// Number of the pair's first game in the whole match (1-based); the
    /// second game is the next number. The first engine has White in the
    /// first game.
    pub first_game: u32,
    /// Which of the two games to play: a resumed match (`--resume`) plays
    /// only the one an earlier run did not finish.
    pub play: [bool; 2],
}

impl PairJob {
    /// How many games the job plays.
    pub fn games(&self) -> u64 {
        self.play.iter().filter(|&&p| p).count() as u64
    }
}

/// The order in which openings are used: as in the file, or shuffled with
/// a seed (the same seed gives the same order).
pub fn opening_order(count: usize, seed: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if let Some(seed) = seed {
        // Fisher-Yates on the crate's SplitMix64, reduced by modulo (as
        // since the first release, so a seed keeps its order).
        let mut rng = crate::rng::Rng::new(seed);
        for i in (1..count).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
    order
}

/// All pairs of the match, in playing order.
pub fn schedule(pairings: usize, pairs_per_pairing: usize, order: &[usize]) -> Vec<PairJob> {
    let mut jobs = Vec::with_capacity(pairings * pairs_per_pairing);
    for k in 0..pairs_per_pairing {
        for pairing in 0..pairings {
            let first_game = (2 * jobs.len() + 1) as u32;
            jobs.push(PairJob {
                pairing,
                opening: if order.is_empty() {
                    0
                } else {
                    order[k % order.len()]
                },
                first_game,
                play: [true, true],
            });
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_by_format() {
        assert_eq!(pairings(2, Format::HeadToHead).len(), 1);
        let g = pairings(4, Format::Gauntlet);
        assert_eq!(g.len(), 3);
        assert!(g.iter().all(|p| p.first == 0));
        let r = pairings(4, Format::RoundRobin);
        assert_eq!(r.len(), 6);
        assert!(r.contains(&Pairing {
            first: 2,
            second: 3
        }));
    }

    #[test]
    fn pairs_interleave_and_reuse_openings() {
        let jobs = schedule(2, 3, &[5, 7]);
        let seen: Vec<(usize, usize, u32)> = jobs
            .iter()
            .map(|j| (j.pairing, j.opening, j.first_game))
            .collect();
        assert_eq!(
            seen,
            vec![
                (0, 5, 1),
                (1, 5, 3),
                (0, 7, 5),
                (1, 7, 7),
                (0, 5, 9),
                (1, 5, 11)
            ]
        );
    }

    #[test]
    fn shuffling_is_a_reproducible_permutation() {
        let a = opening_order(50, Some(7));
        assert_eq!(a, opening_order(50, Some(7)));
        assert_ne!(a, opening_order(50, None));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
