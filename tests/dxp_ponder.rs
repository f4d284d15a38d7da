//! Pondering over DXP (`tiao dxp --ponder`): after each move Tiao searches
//! the position after the reply it expects (and says so in its log, with
//! the `M` it expects). When the peer plays that reply, the search goes on
//! as Tiao's own with the pondering counted toward the move's time, so a
//! ponder as long as the move's time is answered at once; any other reply
//! ends the ponder search and Tiao searches the real position afresh.

mod dxp_support;

use dxp_support::{Got, Peer, Tiao, is_accept, is_move, request, scratch_dir};
use std::path::Path;
use std::time::{Duration, Instant};
use tiao::board::Variant;
use tiao::engine::{MoveReading, Session, new_session};
use tiao::notation::MoveFormat;
use tiao::protocol::dxp::game::move_message;
use tiao::protocol::dxp::message::{Message, MoveMessage, parse};

const WAIT: Duration = Duration::from_secs(10);
/// Tiao's time per move in these games.
const MOVE_TIME: Duration = Duration::from_secs(1);

/// The `M` text Tiao expects from the log line `pondering on X (M...)`
/// after `after` earlier such lines, waiting for it to be written.
fn expected_reply(stderr: &Path, after: usize) -> (String, String) {
    let until = Instant::now() + WAIT;
    loop {
        let log = std::fs::read_to_string(stderr).unwrap_or_default();
        let found: Vec<&str> = log
            .lines()
            .filter_map(|l| l.split("dxp: pondering on ").nth(1))
            .collect();
        if let Some(line) = found.get(after) {
            let (hub, rest) = line.split_once(" (").expect("move and M");
            return (hub.to_string(), rest.trim_end_matches(')').to_string());
        }
        assert!(Instant::now() < until, "no ponder line:\n{log}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Tiao's move `reply` played on `session` (found among the legal moves by
/// its squares, as DXP gives them).
fn play_dxp(session: &mut Box<dyn Session>, reply: &Got) {
    let Got::Message(text) = reply else {
        panic!("not a move: {reply:?}");
    };
    let Ok(Message::Move(m)) = parse(text.as_bytes()) else {
        panic!("not a move: {text}");
    };
    let hub = legal_as_dxp(session.as_ref())
        .into_iter()
        .find(|(_, d)| d.from == m.from && d.to == m.to && d.captured == sorted(&m.captured))
        .unwrap_or_else(|| panic!("{text} is not legal here"))
        .0;
    session.play(&hub, MoveReading::Hub).expect("legal");
}

fn sorted(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

fn legal_as_dxp(session: &dyn Session) -> Vec<(String, MoveMessage)> {
    session
        .legal_moves(MoveFormat::Hub)
        .into_iter()
        .map(|h| {
            let m = move_message(&h, 0).expect("a DXP move");
            (h, m)
        })
        .collect()
}

#[test]
fn a_hit_is_answered_at_once_and_a_miss_is_searched_afresh() {
    let dir = scratch_dir("ponder");
    let stderr = dir.join("stderr.txt");
    let pdn = dir.join("games.pdn").to_string_lossy().into_owned();
    let move_time = MOVE_TIME.as_secs_f64().to_string();
    let args = [
        "--ponder",
        "--no-book",
        "--move-time",
        &move_time,
        "--hash",
        "16",
        "--pdn",
        &pdn,
    ];
    let (_tiao, addr) = Tiao::listen(&args, &stderr);
    let mut peer = Peer::connect(&addr);
    let mut session = new_session(Variant::International);
    peer.send(&request("Peer", 'W', 10));
    assert!(
        is_accept(&peer.expect_non_chat(WAIT), '0'),
        "{:?}",
        peer.chats
    );

    // Tiao's first move, then the reply it expects, after a ponder as long
    // as its move time: the answer comes at once.
    let first = peer.expect_non_chat(WAIT);
    assert!(is_move(&first), "{first:?}");
    let moved_at = Instant::now();
    play_dxp(&mut session, &first);
    let (hub, expected) = expected_reply(&stderr, 0);
    std::thread::sleep((MOVE_TIME + Duration::from_millis(300)).saturating_sub(moved_at.elapsed()));
    session
        .play(&hub, MoveReading::Hub)
        .expect("the expected reply is legal");
    let sent = Instant::now();
    peer.send(&expected);
    let answer = peer.expect_non_chat(WAIT);
    let took = sent.elapsed();
    assert!(is_move(&answer), "{answer:?} {:?}", peer.chats);
    assert!(
        took < MOVE_TIME / 2,
        "a ponder hit after the move's time took {took:?}"
    );
    play_dxp(&mut session, &answer);
    let log = std::fs::read_to_string(&stderr).expect("log");
    assert!(log.contains(&format!("ponder hit on {hub}")), "{log}");
    assert!(log.contains("answered at once"), "{log}");

    // Another reply than the expected one: Tiao thinks about the real
    // position, for about its move time, and answers a legal move there.
    // (While the peer's move is forced, it is played: a hit.)
    let mut ponders = 1;
    let other = loop {
        let (hub, expected) = expected_reply(&stderr, ponders);
        ponders += 1;
        if let Some(other) = legal_as_dxp(session.as_ref())
            .into_iter()
            .find(|(_, m)| Message::Move(m.clone()).encode() != expected)
        {
            break other;
        }
        session
            .play(&hub, MoveReading::Hub)
            .expect("the forced reply");
        peer.send(&expected);
        let answer = peer.expect_non_chat(WAIT);
        play_dxp(&mut session, &answer);
    };
    session.play(&other.0, MoveReading::Hub).expect("legal");
    let sent = Instant::now();
    peer.send(&Message::Move(other.1).encode());
    let answer = peer.expect_non_chat(WAIT);
    let took = sent.elapsed();
    assert!(is_move(&answer), "{answer:?} {:?}", peer.chats);
    play_dxp(&mut session, &answer);
    assert!(
        took > MOVE_TIME / 2,
        "a miss is searched afresh for the move's time, not answered in {took:?}"
    );
    let log = std::fs::read_to_string(&stderr).expect("log");
    assert!(log.contains("ponder miss: expected "), "{log}");
    peer.close();
}
