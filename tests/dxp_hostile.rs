//! Hostile and careless peers against `tiao dxp --listen`, through a raw
//! TCP test peer: each bad input gets its documented reply (docs/dxp.md),
//! never a crash or a hang, leaves no state behind on the connection, and
//! the listener accepts a new connection right after.

mod dxp_support;

use dxp_support::{
    Got, Peer, Scratch, Tiao, board, is_accept, is_move, request, request_from, scratch_dir,
};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tiao::notation::{PdnGame, parse_pdn};

const WAIT: Duration = Duration::from_secs(10);

/// A listener with short timeouts; returns it, its address, its PDN file
/// and its scratch directory (first, so that it outlives the listener).
fn listener(name: &str, move_time: &str) -> (Scratch, Tiao, String, PathBuf) {
    let dir = scratch_dir(name);
    let pdn = dir.join("games.pdn");
    let pdn_s = pdn.to_string_lossy().into_owned();
    // No book: some tests need Tiao to be searching from the start position.
    let args = [
        "--no-book",
        "--timeout",
        "1",
        "--idle-timeout",
        "60",
        "--move-time",
        move_time,
        "--hash",
        "16",
        "--name",
        "Tiao",
        "--pdn",
        &pdn_s,
    ];
    let (t, addr) = Tiao::listen(&args, &dir.join("stderr.txt"));
    (dir, t, addr, pdn)
}

/// A new connection plays: request, accept, a move and Tiao's answer.
fn plays_normally(addr: &str) {
    let mut p = Peer::connect(addr);
    p.send(&request("Check", 'Z', 10));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'), "{:?}", p.chats);
    p.send("M0000322800");
    let reply = p.expect_non_chat(WAIT);
    assert!(is_move(&reply), "{reply:?} {:?}", p.chats);
    p.close();
}

/// Start a game with Tiao playing Black (the peer moves first).
fn start_game(p: &mut Peer) {
    p.send(&request("Peer", 'Z', 10));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
}

fn chats_mention(p: &Peer, words: &str) -> bool {
    p.chats.iter().any(|c| c.contains(words))
}

/// The games of the listener's PDN file, waiting a little for `n` of them.
fn recorded(pdn: &Path, n: usize) -> Vec<PdnGame> {
    for _ in 0..100 {
        if let Ok(text) = std::fs::read_to_string(pdn) {
            let games: Vec<PdnGame> = parse_pdn(&text).into_iter().flatten().collect();
            if games.len() >= n {
                return games;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{} has fewer than {n} games", pdn.display());
}

#[test]
fn unknown_header_gets_a_chat_and_is_ignored() {
    let (_dir, mut tiao, addr, _) = listener("unknown", "0.05");
    let mut p = Peer::connect(&addr);
    p.send("X hello");
    assert!(p.expect_chat(WAIT).contains("unknown message type"));
    p.send("\r\nQ\r\n");
    assert!(p.expect_chat(WAIT).contains("unknown message type"));
    // The connection is unharmed: a game request is accepted.
    p.send(&request("Peer", 'Z', 10));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
    p.close();
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn a_message_without_its_nul_is_given_up_after_the_timeout() {
    let (_dir, mut tiao, addr, _) = listener("nonul", "0.05");
    let mut p = Peer::connect(&addr);
    p.send_raw(request("Peer", 'Z', 10).as_bytes())
        .expect("send");
    let chat = p.expect_chat(Duration::from_secs(5));
    assert!(chat.contains("NUL"), "{chat}");
    p.expect_closed(WAIT);
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn a_mebibyte_without_a_nul_is_cut_off_at_4_kib() {
    let (_dir, mut tiao, addr, _) = listener("flood", "0.05");
    let mut p = Peer::connect(&addr);
    let mut writer = p.stream.try_clone().expect("clone");
    let flood = std::thread::spawn(move || {
        use std::io::Write;
        // Tiao may close before all of it is written: errors are expected.
        let _ = writer.write_all(&vec![b'x'; 1 << 20]);
    });
    let chat = p.expect_chat(WAIT);
    assert!(chat.contains("4096 bytes without a NUL"), "{chat}");
    p.expect_closed(WAIT);
    let _ = flood.join();
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn random_bytes_never_crash_it() {
    let (_dir, mut tiao, addr, _) = listener("random", "0.05");
    for seed in [1u64, 2, 3] {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let bytes: Vec<u8> = (0..20_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        let mut p = Peer::connect(&addr);
        let mut writer = p.stream.try_clone().expect("clone");
        let sender = std::thread::spawn(move || {
            use std::io::Write;
            let _ = writer.write_all(&bytes);
        });
        // Chats about each piece of garbage, until Tiao gives up on the
        // connection (too much garbage) or the input is used up.
        while let Got::Message(m) = p.recv(Duration::from_secs(3)) {
            assert!(m.starts_with('C') || m.starts_with('A'), "{m}");
            p.chats.push(m);
        }
        let _ = sender.join();
        assert!(!p.chats.is_empty(), "seed {seed}: no chat at all");
        p.close();
        assert!(tiao.alive(), "seed {seed}");
        plays_normally(&addr);
    }
}

#[test]
fn a_request_of_another_version_is_answered_with_a1() {
    let (_dir, mut tiao, addr, _) = listener("version", "0.05");
    let mut p = Peer::connect(&addr);
    p.send(&request("Peer", 'Z', 10).replacen("R01", "R02", 1));
    assert!(is_accept(&p.expect_non_chat(WAIT), '1'));
    assert!(chats_mention(&p, "version"), "{:?}", p.chats);
    p.send(&request("Peer", 'Z', 10));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
    p.close();
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn bad_colours_and_positions_are_refused_with_a2() {
    let (_dir, mut tiao, addr, _) = listener("refuse", "0.05");
    let mut p = Peer::connect(&addr);
    let bad = [
        (request("Peer", 'X', 10), "colour"),
        (
            request_from("Peer", 'Z', 'W', &board(&[(3, 'q'), (40, 'w')])),
            "bad position",
        ),
        (
            request_from("Peer", 'Z', 'W', &board(&[(3, 'w'), (30, 'z')])),
            "crowning row",
        ),
        (
            request_from("Peer", 'Z', 'Q', &board(&[(33, 'w'), (18, 'z')])),
            "colour to move",
        ),
        (
            request("Peer", 'Z', 10).replace("010000A", "010000B"),
            "bad position",
        ),
        (request("Peer", 'Z', 10).replace("Z010", "Zabc"), "minutes"),
    ];
    for (r, why) in bad {
        p.chats.clear();
        p.send(&r);
        assert!(is_accept(&p.expect_non_chat(WAIT), '2'), "{r}");
        assert!(chats_mention(&p, why), "{r}: {:?}", p.chats);
    }
    // Nothing of it stuck: a good request with a set-up position is accepted.
    p.send(&request_from(
        "Peer",
        'Z',
        'W',
        &board(&[(33, 'w'), (18, 'z')]),
    ));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
    p.send("M0000332900");
    assert!(is_move(&p.expect_non_chat(WAIT)));
    p.close();
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn an_illegal_move_gets_a_chat_and_the_game_goes_on() {
    let (_dir, mut tiao, addr, _) = listener("illegal", "0.05");
    let mut p = Peer::connect(&addr);
    start_game(&mut p);
    for (bad, why) in [
        ("M0000061100", "illegal move"),
        ("M0000322200", "illegal move"),
        ("M0000992800", "malformed move"),
        ("M0000322801", "malformed M message"),
        ("M000032", "malformed M message"),
    ] {
        p.send(bad);
        let chat = p.expect_chat(WAIT);
        assert!(chat.contains(why), "{bad}: {chat}");
        while matches!(p.recv(Duration::from_millis(200)), Got::Message(ref m) if m.starts_with('C'))
        {
        }
    }
    p.send("M0000322800");
    assert!(is_move(&p.expect_non_chat(WAIT)), "{:?}", p.chats);
    p.close();
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn a_capture_without_its_captured_squares() {
    let (_dir, mut tiao, addr, pdn) = listener("capture", "0.05");
    // Unambiguous: 46x5 and 46x10 both take 14, 23, 32 and 41, but only
    // one capture goes from 46 to 5. Black is then left without pieces,
    // so Tiao (Black) ends the game with E10 on its turn.
    let mut p = Peer::connect(&addr);
    p.send(&request_from(
        "Peer",
        'Z',
        'W',
        &board(&[(46, 'W'), (41, 'z'), (32, 'z'), (23, 'z'), (14, 'z')]),
    ));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
    p.send("M0000460500");
    assert_eq!(
        p.expect_non_chat(WAIT),
        Got::Message("E10".into()),
        "{:?}",
        p.chats
    );
    p.send("E00");
    // Ambiguous: 45x3 takes 9, 40 and either 19 or 24.
    p.send(&request_from(
        "Peer",
        'Z',
        'W',
        &board(&[(45, 'W'), (40, 'z'), (24, 'z'), (19, 'z'), (9, 'z')]),
    ));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
    p.send("M0000450300");
    let chat = p.expect_chat(WAIT);
    assert!(chat.contains("ambiguous"), "{chat}");
    // Nothing was played: the full move is still accepted and answered.
    p.send("M0000450303401909");
    let reply = p.expect_non_chat(WAIT);
    assert!(is_move(&reply), "{reply:?} {:?}", p.chats);
    if let Got::Message(m) = reply {
        assert!(
            m.starts_with("M") && m[5..7] == *"24",
            "Black's only piece moves: {m}"
        );
    }
    p.close();
    let games = recorded(&pdn, 2);
    assert_eq!(games[0].result.as_deref(), Some("2-0"));
    assert_eq!(games[0].moves, ["46x5"]);
    // Written with its path, since two captures go from 45 to 3.
    let first = games[1].moves.first().cloned().unwrap_or_default();
    assert!(first.starts_with("45x") && first.ends_with("x3"), "{first}");
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn a_request_during_a_game_is_refused_and_the_game_goes_on() {
    let (_dir, mut tiao, addr, _) = listener("rgame", "0.05");
    let mut p = Peer::connect(&addr);
    start_game(&mut p);
    p.send(&request("Peer", 'W', 10));
    assert!(is_accept(&p.expect_non_chat(WAIT), '2'));
    assert!(chats_mention(&p, "in progress"), "{:?}", p.chats);
    p.send("M0000322800");
    assert!(is_move(&p.expect_non_chat(WAIT)));
    p.close();
    plays_normally(&addr);
    assert!(tiao.alive());
}

#[test]
fn game_end_out_of_turn_and_unproven_claims() {
    // A long move time: the peer's E must stop Tiao's search at once.
    let (_dir, mut tiao, addr, pdn) = listener("end", "30");
    let mut p = Peer::connect(&addr);
    // E with no game in progress: no answer, no harm.
    p.send("E00");
    assert_eq!(p.recv(Duration::from_millis(500)), Got::Silent);
    // Tiao plays White and is thinking; the peer resigns out of turn.
    p.send(&request("Peer", 'W', 10));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
    p.send("E10");
    let started = std::time::Instant::now();
    assert_eq!(p.expect_non_chat(WAIT), Got::Message("E00".into()));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the search was stopped"
    );
    // The peer, on its own turn, claims a draw the rules do not support.
    p.send(&request("Peer", 'Z', 10));
    assert!(is_accept(&p.expect_non_chat(WAIT), '0'));
    p.send("E21");
    assert_eq!(p.expect_non_chat(WAIT), Got::Message("E00".into()));
    p.close();
    let games = recorded(&pdn, 2);
    assert_eq!(
        games[0].result.as_deref(),
        Some("2-0"),
        "a resignation counts"
    );
    assert_eq!(games[0].tag("Termination"), Some("black resigned"));
    assert_eq!(
        games[1].result.as_deref(),
        Some("*"),
        "an unproven draw does not"
    );
    assert!(tiao.alive());
}

#[test]
fn take_back_restores_the_position() {
    let (_dir, mut tiao, addr, pdn) = listener("back", "0.05");
    let mut p = Peer::connect(&addr);
    start_game(&mut p);
    p.send("M0000322800");
    assert!(is_move(&p.expect_non_chat(WAIT)));
    // Back to move 1, White to move: the start position.
    p.send("B001W");
    assert_eq!(p.expect_non_chat(WAIT), Got::Message("K0".into()));
    p.send("M0000332800");
    assert!(is_move(&p.expect_non_chat(WAIT)));
    // A point the game has not reached is declined.
    p.send("B009Z");
    assert_eq!(p.expect_non_chat(WAIT), Got::Message("K2".into()));
    assert!(chats_mention(&p, "not reached"), "{:?}", p.chats);
    p.close();
    let games = recorded(&pdn, 1);
    assert_eq!(games[0].moves.first().map(String::as_str), Some("33-28"));
    assert_eq!(games[0].moves.len(), 2);
    assert!(tiao.alive());
}

#[test]
fn a_connection_dropped_mid_game_is_recorded_and_the_listener_goes_on() {
    let (_dir, mut tiao, addr, pdn) = listener("drop", "0.05");
    let mut p = Peer::connect(&addr);
    start_game(&mut p);
    p.send("M0000322800");
    assert!(is_move(&p.expect_non_chat(WAIT)));
    p.close();
    plays_normally(&addr);
    let games = recorded(&pdn, 1);
    assert_eq!(games[0].result.as_deref(), Some("*"));
    assert!(
        games[0]
            .tag("Termination")
            .is_some_and(|t| t.contains("closed the connection")),
        "{:?}",
        games[0].tags
    );
    assert_eq!(games[0].moves.len(), 2);
    assert!(tiao.alive());
}

#[test]
fn with_one_slot_a_reconnect_right_after_a_close_is_served() {
    // One connection at a time, with the opening book and a real hash
    // table, so that a connection's engine takes a moment to be made.
    let dir = scratch_dir("reconnect");
    let pdn = dir.join("games.pdn").to_string_lossy().into_owned();
    let args = [
        "--max-connections",
        "1",
        "--move-time",
        "0.05",
        "--timeout",
        "1",
        "--name",
        "Tiao",
        "--pdn",
        &pdn,
    ];
    let (mut tiao, addr) = Tiao::listen(&args, &dir.join("stderr.txt"));
    let served = |p: &mut Peer, what: &str| {
        p.send(&request("Peer", 'Z', 10));
        let got = p.expect_non_chat(WAIT);
        assert!(is_accept(&got, '0'), "{what}: {got:?} {:?}", p.chats);
    };
    // A second connection while the first is in use is refused as busy.
    let mut first = Peer::connect(&addr);
    served(&mut first, "the first connection");
    let mut second = Peer::connect(&addr);
    second.expect_closed(WAIT);
    assert!(chats_mention(&second, "busy"), "{:?}", second.chats);
    first.close();
    for round in 1..=3 {
        // Closed at once, before Tiao has said anything; the next
        // connection, made at once (0 ms), gets the slot.
        Peer::connect(&addr).close();
        let mut p = Peer::connect(&addr);
        served(&mut p, &format!("round {round}, after an idle close"));
        // Closed in the middle of a game, while Tiao reads its socket.
        p.send("M0000322800");
        assert!(is_move(&p.expect_non_chat(WAIT)), "{:?}", p.chats);
        p.close();
        let mut p = Peer::connect(&addr);
        served(&mut p, &format!("round {round}, after a close mid-game"));
        p.close();
    }
    assert!(tiao.alive());
}

#[test]
fn control_characters_from_the_peer_are_echoed_escaped() {
    let (dir, mut tiao, addr, _) = listener("escape", "0.05");
    let mut p = Peer::connect(&addr);
    // A quoted message: its control characters are shown, as escapes.
    p.send("X\x1b[2J\rforged");
    let chat = p.expect_chat(WAIT);
    assert!(chat.ends_with("; ignored: 'X\\x1b[2J\\rforged'"), "{chat}");
    // Escaping lengthens the text: the quote is cut after escaping, at
    // whole escapes, and the chat keeps within its length.
    p.send(&format!("X{}", "\x07".repeat(60)));
    let chat = p.expect_chat(WAIT);
    let quoted = chat.split("; ignored: ").nth(1).expect("a quote");
    assert_eq!(quoted, format!("'X{}...'", "\\x07".repeat(9)), "{chat}");
    // The peer's own chat, in the log.
    p.send("Chello\x1b[31m red");
    p.send("X");
    p.expect_chat(WAIT);
    let log = std::fs::read_to_string(dir.join("stderr.txt")).expect("log");
    assert!(log.contains("says: hello\\x1b[31m red"), "{log}");
    assert!(!log.contains('\x1b'), "{log}");
    p.close();
    // Part of a message that never gets its NUL, quoted when Tiao gives up.
    let mut p = Peer::connect(&addr);
    p.send_raw(b"Xab\x1bcd").expect("send");
    let chat = p.expect_chat(Duration::from_secs(5));
    assert!(chat.contains(": \"Xab\\x1bcd\"; closing"), "{chat}");
    p.expect_closed(WAIT);
    plays_normally(&addr);
    assert!(tiao.alive());
}
