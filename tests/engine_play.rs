//! The search plays by the rules: it returns only legal moves, in random
//! positions of every variant; self-play games end by the rules; a
//! one-thread fixed-depth search is deterministic; decisive scores count the
//! distance to the end, and a lost position is defended by the move that
//! loses slowest (the endgame tables' distances are the referee); a depth
//! is reported as soon as its first move is searched, and a search cut
//! short plays the last line it reported.

use std::sync::OnceLock;
use tiao::board::{Brazilian, Canadian, International, Outcome, Position, Rules, Russian, Variant};
use tiao::endgame::{Distance, Egdb, GenOptions, generate as generate_tables};
use tiao::eval::Evaluator;
use tiao::movegen::{MoveList, generate};
use tiao::notation::{read_fen, write_hub_move};
use tiao::record::GameHistory;
use tiao::search::score::{WIN, is_decisive, plies_to_end};
use tiao::search::{Info, Limits, Mode, Params, Root, SearchResult, Searcher};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

type MoveOf<R> = tiao::board::Move<tiao::board::Word<R>>;

/// A search of `game` by `s` with `params`, with the info lines it reported.
fn search_with<R: Rules>(
    s: &mut Searcher,
    game: &GameHistory<R>,
    params: &Params,
) -> (SearchResult<MoveOf<R>>, Vec<Info<MoveOf<R>>>) {
    let root = Root {
        position: *game.position(),
        counters: game.counters(),
        history: game.reversible_hashes(),
    };
    s.prepare(params.mode);
    let infos = std::sync::Mutex::new(Vec::new());
    let out = s.search(&root, &Evaluator::default(), params, &|i| {
        infos.lock().expect("lock").push(i.clone())
    });
    (out, infos.into_inner().expect("lock"))
}

fn search<R: Rules>(
    s: &mut Searcher,
    game: &GameHistory<R>,
    limits: Limits,
) -> SearchResult<MoveOf<R>> {
    search_with(s, game, &Params::think(limits)).0
}

/// 1000 random positions (random play-outs from the start): the search's move is legal.
fn only_legal_moves<R: Rules>(seed: u64) {
    let mut rng = Rng(seed);
    let mut s = Searcher::new(1, 4).expect("searcher");
    let mut checked = 0;
    while checked < 1000 {
        let mut game = GameHistory::new(Position::<R>::start());
        let plies = rng.below(120);
        for _ in 0..plies {
            let mut list = MoveList::<R>::new();
            generate(game.position(), &mut list);
            if list.is_empty() {
                break;
            }
            game.play(list[rng.below(list.len())]);
        }
        let mut list = MoveList::<R>::new();
        generate(game.position(), &mut list);
        let out = search(&mut s, &game, Limits::nodes(200 + rng.below(800) as u64));
        match out.best {
            Some(mv) => assert!(
                list.contains(&mv),
                "illegal move {mv:?} in {:?}",
                game.position()
            ),
            None => assert!(
                list.is_empty(),
                "no move although moves exist in {:?}",
                game.position()
            ),
        }
        checked += 1;
    }
}

#[test]
fn international_search_plays_only_legal_moves() {
    only_legal_moves::<International>(11);
}

#[test]
fn brazilian_search_plays_only_legal_moves() {
    only_legal_moves::<Brazilian>(12);
}

#[test]
fn russian_search_plays_only_legal_moves() {
    only_legal_moves::<Russian>(13);
}

#[test]
fn canadian_search_plays_only_legal_moves() {
    only_legal_moves::<Canadian>(14);
}

/// Self-play at a fast node limit: every game ends by the rules.
fn self_play_ends_by_the_rules<R: Rules>(seed: u64, games: usize) {
    let mut rng = Rng(seed);
    let mut s = Searcher::new(1, 8).expect("searcher");
    for g in 0..games {
        let mut game = GameHistory::new(Position::<R>::start());
        let mut plies = 0;
        let outcome = loop {
            if let Some(o) = game.outcome() {
                break o;
            }
            assert!(
                plies < 600,
                "game {g} of {:?} did not end in 600 plies",
                R::VARIANT
            );
            let mut list = MoveList::<R>::new();
            generate(game.position(), &mut list);
            let mv = if plies < 4 {
                list[rng.below(list.len())]
            } else {
                let best = search(&mut s, &game, Limits::nodes(3000))
                    .best
                    .expect("a move");
                assert!(list.contains(&best));
                best
            };
            game.play(mv);
            plies += 1;
        };
        if let Outcome::Win(c) = outcome {
            assert_eq!(c, !game.position().side(), "the side to move is the loser");
        }
    }
}

#[test]
fn international_self_play_ends_by_the_rules() {
    self_play_ends_by_the_rules::<International>(21, 3);
}

#[test]
fn brazilian_self_play_ends_by_the_rules() {
    self_play_ends_by_the_rules::<Brazilian>(22, 3);
}

#[test]
fn russian_self_play_ends_by_the_rules() {
    self_play_ends_by_the_rules::<Russian>(23, 3);
}

#[test]
fn canadian_self_play_ends_by_the_rules() {
    self_play_ends_by_the_rules::<Canadian>(24, 2);
}

#[test]
fn one_thread_fixed_depth_search_is_deterministic() {
    let game = GameHistory::new(Position::<International>::start());
    let run = || {
        let mut s = Searcher::new(1, 16).expect("searcher");
        let out = search(&mut s, &game, Limits::depth(9));
        (out.best, out.score, out.nodes, out.pv)
    };
    assert_eq!(run(), run());
}

#[test]
fn lazy_smp_fixed_depth_search_reaches_the_depth_and_reports_the_line_it_plays() {
    let game = GameHistory::new(Position::<International>::start());
    for threads in [2, 3] {
        let mut s = Searcher::new(threads, 16).expect("searcher");
        let (out, infos) = search_with(&mut s, &game, &Params::think(Limits::depth(9)));
        assert!(out.depth >= 9, "{threads} threads: depth {}", out.depth);
        let last = infos.last().expect("info lines");
        // Whichever thread finished the depth, the last info is the played line.
        assert_eq!(last.depth, out.depth, "{threads} threads");
        assert_eq!(last.pv.first().copied(), out.best, "{threads} threads");
        let mut legal = MoveList::<International>::new();
        generate(game.position(), &mut legal);
        assert!(out.best.is_some_and(|m| legal.as_slice().contains(&m)));
    }
}

/// One thread's search from the start, with its info lines.
fn search_from_start(
    limits: Limits,
) -> (
    SearchResult<MoveOf<International>>,
    Vec<Info<MoveOf<International>>>,
) {
    let game = GameHistory::new(Position::<International>::start());
    search_with(
        &mut Searcher::new(1, 16).expect("searcher"),
        &game,
        &Params::think(limits),
    )
}

/// The node counts of the info lines reported at depth `d`.
fn nodes_at<M>(infos: &[Info<M>], d: u32) -> Vec<u64> {
    infos
        .iter()
        .filter(|i| i.depth == d)
        .map(|i| i.nodes)
        .collect()
}

#[test]
fn a_depth_is_reported_as_soon_as_its_first_move_is_searched() {
    // As Scan counts a depth: the first move's line at depth d comes before
    // the other root moves are searched, so before the iteration's last line.
    let (_, infos) = search_from_start(Limits::depth(9));
    for d in 1..=9 {
        let at = nodes_at(&infos, d);
        assert!(at.len() >= 2, "depth {d}: {at:?}");
        assert!(at[0] < at[at.len() - 1], "depth {d}: {at:?}");
    }
}

#[test]
fn a_search_cut_short_plays_the_deepest_line_it_reported() {
    // Node limits that fall between a depth's first line and its iteration's
    // end: the line played is that depth's, the last one reported.
    let (_, full) = search_from_start(Limits::depth(12));
    let mut cut_short = 0;
    for d in 6..=12 {
        let at = nodes_at(&full, d);
        let (first, end) = (at[0], at[at.len() - 1]);
        // The limit is looked at every 1,024 nodes.
        if end - first < 4_096 {
            continue;
        }
        let (out, infos) = search_from_start(Limits::nodes((first + end) / 2));
        let last = infos.last().expect("info lines");
        assert_eq!(out.depth, d, "limit between depth {d}'s lines");
        assert_eq!(
            (last.depth, last.pv.first().copied()),
            (out.depth, out.best),
            "depth {d}"
        );
        cut_short += 1;
    }
    assert!(cut_short >= 2, "only {cut_short} depths to cut short");
}

#[test]
fn more_lines_asked_for_than_there_are_moves_report_as_one_line_does() {
    // White must take 28x19, its only move: analysis asked for three lines
    // has one to show, and reports it as a one-line analysis does (each
    // depth as soon as the move is searched, then as the iteration ends).
    let pos = read_fen::<International>("W:W28,33,34,35,40,45:B1,2,3,4,5,10,15,23").expect("fen");
    let game = GameHistory::new(pos);
    let depths = |multipv: usize| {
        let mut s = Searcher::new(1, 16).expect("searcher");
        let params = Params {
            multipv,
            ..Params::analyze(Limits::depth(8))
        };
        let (out, infos) = search_with(&mut s, &game, &params);
        assert!(
            infos.iter().all(|i| i.multipv == 1),
            "{multipv} lines asked"
        );
        (out.best, infos.iter().map(|i| i.depth).collect::<Vec<_>>())
    };
    let (one, three) = (depths(1), depths(3));
    assert_eq!(one, three);
    for d in 1..=8 {
        let n = one.1.iter().filter(|&&x| x == d).count();
        assert_eq!(n, 2, "depth {d} reported {n} times: {:?}", one.1);
    }
}

#[test]
fn a_won_ending_is_scored_as_a_win_with_its_distance() {
    // White king against a lone black man about to be caught: a forced win.
    let pos = read_fen::<International>("W:WK46,K50:B45").expect("fen");
    let game = GameHistory::new(pos);
    let mut s = Searcher::new(1, 16).expect("searcher");
    let out = search(&mut s, &game, Limits::depth(12));
    assert!(
        out.score > 0 && is_decisive(out.score),
        "score {}",
        out.score
    );
    let plies = plies_to_end(out.score).expect("a search win");
    assert!(
        plies <= 12 && !plies.is_multiple_of(2),
        "win in {plies} plies"
    );
    assert!(out.score <= WIN);
}

/// International endgame tables up to 3 pieces (with distances to win),
/// generated once: the referee of the distances the search reports.
fn tables() -> &'static Egdb<International> {
    static DB: OnceLock<Egdb<International>> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tiao-engine-play-{}", std::process::id()));
        let mut opts = GenOptions::new(Variant::International, 3);
        opts.dir = dir.clone();
        opts.progress = false;
        generate_tables(&opts).expect("generate 3-piece tables");
        let db = Egdb::<International>::open(&dir, 3).expect("open the tables");
        let _ = std::fs::remove_dir_all(&dir);
        db
    })
}

#[test]
fn a_lost_position_prefers_the_longest_defence() {
    // Black to move, a man against two kings: lost whatever Black plays,
    // but 31-36 loses in 4 plies and 31-37 only in 10.
    let pos = read_fen::<International>("B:WK1,K3:B31").expect("fen");
    let mut defences: Vec<(String, u32)> = tables()
        .move_values(&pos)
        .expect("covered by the tables")
        .iter()
        .map(|m| match m.distance {
            Some(Distance::Loss(d)) => (write_hub_move::<International>(&m.mv), d),
            other => panic!("every move loses, by the tables: {other:?}"),
        })
        .collect();
    defences.sort();
    assert_eq!(
        defences,
        [("31-36".to_string(), 4), ("31-37".to_string(), 10)]
    );
    let (longest, distance) = defences.iter().max_by_key(|(_, d)| *d).expect("moves");

    let game = GameHistory::new(pos);
    let mut s = Searcher::new(1, 16).expect("searcher");
    let root = Root {
        position: *game.position(),
        counters: game.counters(),
        history: Vec::new(),
    };
    s.prepare(Mode::Analyze);
    let params = Params::analyze(Limits::depth(14));
    let out = s.search(&root, &Evaluator::default(), &params, &|_| {});
    let best = out.best.map(|m| write_hub_move::<International>(&m));
    assert_eq!(best.as_ref(), Some(longest), "score {}", out.score);
    assert_eq!(
        plies_to_end(out.score),
        Some(*distance),
        "score {}",
        out.score
    );
    assert!(out.score < 0);
    // With no legal move at all the loss is immediate.
    let stuck = GameHistory::new(read_fen::<International>("B:WK46,K50:B45").expect("fen"));
    let out = search(&mut s, &stuck, Limits::depth(4));
    assert_eq!(out.best, None);
    assert_eq!(plies_to_end(out.score), Some(0));
}

#[test]
fn two_threads_search_and_agree_on_a_forced_capture() {
    // After 32-28 19-23 White must capture 28x19; any thread count finds only that.
    let mut game = GameHistory::new(Position::<International>::start());
    for text in ["32-28", "19-23"] {
        let mv = tiao::notation::read_move(game.position(), text).expect("move");
        game.play(mv);
    }
    let mut s = Searcher::new(2, 16).expect("searcher");
    let root = Root {
        position: *game.position(),
        counters: game.counters(),
        history: game.reversible_hashes(),
    };
    s.prepare(Mode::Analyze);
    let out = s.search(
        &root,
        &Evaluator::default(),
        &Params::analyze(Limits::depth(8)),
        &|_| {},
    );
    let best = out.best.expect("move");
    assert_eq!(
        tiao::notation::write_hub_move::<International>(&best),
        "28x19x23"
    );
    assert!(out.depth >= 8);
}
