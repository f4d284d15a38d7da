//! Two `tiao dxp` processes, an initiator and a follower, play a 4-game
//! match on loopback with alternating colours, from ballots (a move
//! sequence and a FEN); both PDN files must parse, replay legally, agree
//! with each other and with the results the rules give, and the summaries
//! on stdout must mirror each other.

mod dxp_support;

use dxp_support::{Tiao, scratch_dir};
use std::time::Duration;
use tiao::board::{Colour, International, Outcome};
use tiao::notation::{PdnGame, parse_pdn, replay};
use tiao::record::GameHistory;

const GAMES: usize = 4;

fn games_of(path: &std::path::Path) -> Vec<PdnGame> {
    let text = std::fs::read_to_string(path).expect("PDN file");
    parse_pdn(&text)
        .into_iter()
        .map(|g| g.expect("the PDN parses"))
        .collect()
}

/// `(W, D, L, unfinished)` from a summary line.
fn score(summary: &str) -> (u32, u32, u32, u32) {
    let words: Vec<&str> = summary.split_whitespace().collect();
    let after = |key: &str| -> u32 {
        let i = words.iter().position(|w| *w == key).expect(key);
        words[i + 1].trim_end_matches(',').parse().expect("count")
    };
    (after("W"), after("D"), after("L"), after("unfinished"))
}

#[test]
fn two_processes_play_a_match_with_alternating_colours() {
    let dir = scratch_dir("match");
    let ballots = dir.join("ballots.txt");
    std::fs::write(
        &ballots,
        "# two starts, each played twice\n\
         1. 32-28 17-21 2. 37-32\n\
         W:W31,32,33,38,39,43:B8,12,13,17,18,19\n",
    )
    .expect("ballots");
    let follower_pdn = dir.join("follower.pdn");
    let initiator_pdn = dir.join("initiator.pdn");
    let common = ["--hash", "16", "--move-time", "0.02", "--timeout", "20"];

    let mut follower_args = vec!["--once", "--name", "Beta", "--pdn"];
    let follower_pdn_s = follower_pdn.to_string_lossy().into_owned();
    follower_args.push(&follower_pdn_s);
    follower_args.extend_from_slice(&common);
    let (mut follower, addr) = Tiao::listen(&follower_args, &dir.join("follower.err"));

    let initiator_pdn_s = initiator_pdn.to_string_lossy().into_owned();
    let ballots_s = ballots.to_string_lossy().into_owned();
    let games = GAMES.to_string();
    let mut initiator_args = vec![
        "--connect",
        &addr,
        "--initiator",
        "--games",
        &games,
        "--time",
        "1",
        "--colour",
        "alternate",
        "--ballots",
        &ballots_s,
        "--name",
        "Alpha",
        "--pdn",
        &initiator_pdn_s,
    ];
    initiator_args.extend_from_slice(&common);
    let mut initiator = Tiao::start(&initiator_args, &dir.join("initiator.err"));

    let status = initiator
        .wait(Duration::from_secs(150))
        .expect("the initiator finishes its match");
    assert!(status.success(), "initiator exit: {status:?}");
    let status = follower
        .wait(Duration::from_secs(20))
        .expect("the follower (--once) exits after the match");
    assert!(status.success(), "follower exit: {status:?}");

    // Summaries mirror each other and count every game as finished.
    let summary_of = |t: &mut Tiao| {
        t.line_matching(|l| l.starts_with("summary: "), Duration::from_secs(1))
            .expect("a summary line")
    };
    let (iw, id, il, iu) = score(&summary_of(&mut initiator));
    let (fw, fd, fl, fu) = score(&summary_of(&mut follower));
    assert_eq!((iu, fu), (0, 0));
    assert_eq!(iw + id + il, GAMES as u32);
    assert_eq!((iw, id, il), (fl, fd, fw));

    // The first start is a position of the opening book, which each side
    // meets once as the side to move: both play from the book.
    for log in ["initiator.err", "follower.err"] {
        let text = std::fs::read_to_string(dir.join(log)).expect("log");
        assert!(
            text.contains("dxp: opening book: "),
            "{log}: the book loaded"
        );
        assert!(
            text.contains("dxp: book move "),
            "{log}: a book move played"
        );
    }

    let mine = games_of(&initiator_pdn);
    let theirs = games_of(&follower_pdn);
    assert_eq!(mine.len(), GAMES);
    assert_eq!(theirs.len(), GAMES);
    for (k, (g, h)) in mine.iter().zip(&theirs).enumerate() {
        let round = (k + 1).to_string();
        assert_eq!(g.tag("Round"), Some(round.as_str()));
        assert_eq!(g.moves, h.moves, "both sides recorded game {round} alike");
        assert_eq!(g.result, h.result);
        for tag in [
            "Event",
            "Site",
            "Date",
            "White",
            "Black",
            "Result",
            "TimeControl",
            "FEN",
        ] {
            assert!(
                g.tag(tag).is_some_and(|v| !v.is_empty()),
                "{tag} in game {round}"
            );
        }
        assert!(g.tag("GameType").is_some_and(|t| t.starts_with("20")));
        assert_eq!(g.tag("TimeControl"), Some("60"));
        // Alternating colours: Alpha (the initiator) is White in odd games.
        let (white, black) = if k % 2 == 0 {
            ("Alpha", "Beta")
        } else {
            ("Beta", "Alpha")
        };
        assert_eq!((g.tag("White"), g.tag("Black")), (Some(white), Some(black)));
        assert_eq!((h.tag("White"), h.tag("Black")), (Some(white), Some(black)));

        // The moves are legal, and the result is the one the rules give.
        let played = replay::<International>(g).expect("the game replays legally");
        let start = *played.start().expect("start");
        let mut game = GameHistory::new(start);
        for mv in &played.moves {
            game.play(*mv);
        }
        let expected = match game.outcome() {
            Some(Outcome::Win(Colour::White)) => "2-0",
            Some(Outcome::Win(Colour::Black)) => "0-2",
            Some(Outcome::Draw(_)) => "1-1",
            None => panic!("game {round} stopped before the rules ended it"),
        };
        assert_eq!(g.result.as_deref(), Some(expected), "game {round}");
        assert_eq!(g.tag("Result"), Some(expected));
    }
    // Each ballot is played twice, from the same start.
    assert_eq!(mine[0].tag("FEN"), mine[1].tag("FEN"));
    assert_eq!(mine[2].tag("FEN"), mine[3].tag("FEN"));
    assert_ne!(mine[0].tag("FEN"), mine[2].tag("FEN"));
}
