//! DXP messages and framing: byte-exact encoding and decoding of every
//! message type, the real traces of protocols.md §3, the lenient readings
//! Tiao promises, and the NUL framing fed at every byte boundary.

use std::time::Duration;
use tiao::board::Colour;
use tiao::protocol::dxp::codec::{Framer, MAX_PENDING, ReadError, Reader};
use tiao::protocol::dxp::message::{
    AcceptCode, BackCode, BackRequest, EndReason, GameAccept, GameEnd, GameRequest, Message,
    MoveMessage, ParseError, Setup, parse,
};

fn decode(text: &str) -> Result<Message, ParseError> {
    parse(text.as_bytes())
}

/// Decoding `text` gives `message`, and encoding `message` gives `text` back.
fn round_trip(text: &str, message: Message) {
    assert_eq!(decode(text), Ok(message.clone()), "decoding {text:?}");
    assert_eq!(message.encode(), text, "encoding {message:?}");
}

fn start_board() -> String {
    format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
}

// ---------------------------------------------------------------- traces of §3

#[test]
fn trace_tornado_request() {
    round_trip(
        "R01Tornado voor Windows 4.0        W060065A",
        Message::Request(GameRequest {
            name: "Tornado voor Windows 4.0".into(),
            follower: Colour::White,
            time: Duration::from_secs(3600),
            moves: 65,
            setup: None,
        }),
    );
}

#[test]
fn trace_scan_request() {
    round_trip(
        "R01Scan 3.1                        Z001008A",
        Message::Request(GameRequest {
            name: "Scan 3.1".into(),
            follower: Colour::Black,
            time: Duration::from_secs(60),
            moves: 8,
            setup: None,
        }),
    );
}

#[test]
fn trace_accept() {
    round_trip(
        "ATornado voor Windows 4.0        0",
        Message::Accept(GameAccept {
            name: "Tornado voor Windows 4.0".into(),
            code: AcceptCode::Accept,
        }),
    );
}

#[test]
fn trace_quiet_move() {
    round_trip(
        "M0012061100",
        Message::Move(MoveMessage {
            seconds: 12,
            from: 6,
            to: 11,
            captured: vec![],
        }),
    );
}

#[test]
fn trace_capture_in_any_order_is_read_and_written_ascending() {
    let trace = "M001205250422122320";
    let read = decode(trace).expect("trace");
    assert_eq!(
        read,
        Message::Move(MoveMessage {
            seconds: 12,
            from: 5,
            to: 25,
            captured: vec![22, 12, 23, 20],
        })
    );
    // Tiao sends the same move with its captured squares ascending.
    assert_eq!(read.encode(), "M001205250412202223");
    assert_eq!(
        decode("M001205250412202223").map(|m| m.encode()),
        Ok(read.encode())
    );
}

#[test]
fn trace_capture_ascending() {
    round_trip(
        "M0000182903223233",
        Message::Move(MoveMessage {
            seconds: 0,
            from: 18,
            to: 29,
            captured: vec![22, 32, 33],
        }),
    );
}

#[test]
fn trace_game_ends() {
    let end = |reason, stop| Message::End(GameEnd { reason, stop });
    round_trip("E00", end(EndReason::None, false));
    round_trip("E10", end(EndReason::Lose, false));
    round_trip("E21", end(EndReason::Draw, true));
    round_trip("E01", end(EndReason::None, true));
    round_trip("E30", end(EndReason::Win, false));
}

#[test]
fn trace_back_request_and_answers() {
    round_trip(
        "B005Z",
        Message::BackRequest(BackRequest {
            move_number: 5,
            colour: Colour::Black,
        }),
    );
    round_trip("K0", Message::BackAccept(BackCode::Accepted));
    round_trip("K1", Message::BackAccept(BackCode::NotSupported));
    round_trip("K2", Message::BackAccept(BackCode::Declined));
}

#[test]
fn trace_start_position_as_flag_b() {
    let text = format!("R01{:<32}W010000BW{}", "Tiao", start_board());
    assert_eq!(text.len(), 94);
    round_trip(
        &text,
        Message::Request(GameRequest {
            name: "Tiao".into(),
            follower: Colour::White,
            time: Duration::from_secs(600),
            moves: 0,
            setup: Some(Setup {
                to_move: Colour::White,
                board: start_board(),
            }),
        }),
    );
}

#[test]
fn every_type_encodes_to_its_layout_length() {
    let name = "N".repeat(32);
    let lengths = [
        (
            Message::Request(GameRequest {
                name: name.clone(),
                follower: Colour::Black,
                time: Duration::from_secs(60),
                moves: 0,
                setup: None,
            }),
            43,
        ),
        (
            Message::Accept(GameAccept {
                name,
                code: AcceptCode::RefuseAll,
            }),
            34,
        ),
        (
            Message::Move(MoveMessage {
                seconds: 1,
                from: 46,
                to: 5,
                captured: vec![14, 23, 32, 41],
            }),
            19,
        ),
        (
            Message::End(GameEnd {
                reason: EndReason::Lose,
                stop: true,
            }),
            3,
        ),
        (Message::Chat("hello".into()), 6),
        (
            Message::BackRequest(BackRequest {
                move_number: 12,
                colour: Colour::White,
            }),
            5,
        ),
        (Message::BackAccept(BackCode::Accepted), 2),
    ];
    for (m, len) in lengths {
        let text = m.encode();
        assert_eq!(text.len(), len, "{text}");
        assert!(
            text.bytes().all(|b| b.is_ascii_graphic() || b == b' '),
            "{text}"
        );
        assert_eq!(decode(&text), Ok(m));
    }
}

#[test]
fn accept_codes() {
    for (c, code) in [
        ('0', AcceptCode::Accept),
        ('1', AcceptCode::WrongVersion),
        ('2', AcceptCode::RefuseThis),
        ('3', AcceptCode::RefuseAll),
    ] {
        round_trip(
            &format!("A{:<32}{c}", "Moby Dam"),
            Message::Accept(GameAccept {
                name: "Moby Dam".into(),
                code,
            }),
        );
    }
}

#[test]
fn fields_are_clamped_never_overflowing_their_width() {
    let m = Message::Move(MoveMessage {
        seconds: 123_456,
        from: 1,
        to: 2,
        captured: vec![],
    });
    assert_eq!(m.encode(), "M9999010200");
    let r = Message::Request(GameRequest {
        name: "Ünïcode name that is much longer than thirty-two".into(),
        follower: Colour::White,
        time: Duration::from_secs(5000 * 60),
        moves: 5000,
        setup: None,
    });
    let text = r.encode();
    assert_eq!(text.len(), 43);
    assert!(text.is_ascii());
    assert!(text.ends_with("W999999A"), "{text}");
}

// ---------------------------------------------------------------- lenient reading

#[test]
fn minutes_may_be_a_decimal() {
    match decode("R01Scan 3.1                        Z0.5000A") {
        Ok(Message::Request(r)) => assert_eq!(r.time, Duration::from_secs(30)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn positions_accept_b_for_black_and_dot_for_empty() {
    let board = format!(
        "{}{}{}",
        "b".repeat(19) + "B",
        ".".repeat(10),
        "w".repeat(20)
    );
    let text = format!("R01{:<32}Z010000Bb{board}", "x");
    match decode(&text) {
        Ok(Message::Request(r)) => {
            let setup = r.setup.expect("setup");
            assert_eq!(setup.to_move, Colour::Black);
            assert_eq!(
                setup.board,
                format!("{}Z{}{}", "z".repeat(19), "e".repeat(10), "w".repeat(20))
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn trailing_bytes_and_missing_stop_code() {
    assert_eq!(
        decode("E1"),
        Ok(Message::End(GameEnd {
            reason: EndReason::Lose,
            stop: false
        }))
    );
    assert_eq!(
        decode("K0 and more"),
        Ok(Message::BackAccept(BackCode::Accepted))
    );
    assert_eq!(
        decode("M0012061100junk"),
        decode("M0012061100"),
        "bytes after the last field are ignored"
    );
    assert_eq!(
        decode("ATiao0"),
        Ok(Message::Accept(GameAccept {
            name: "Tiao".into(),
            code: AcceptCode::Accept
        })),
        "a short name still ends with the code"
    );
    assert_eq!(decode("C"), Ok(Message::Chat(String::new())));
}

#[test]
fn bad_requests_say_which_answer_they_need() {
    assert_eq!(
        decode("R02Scan 3.1                        Z001008A"),
        Err(ParseError::BadVersion("02".into()))
    );
    assert!(matches!(decode("R"), Err(ParseError::BadVersion(_))));
    for bad in [
        "R01Scan 3.1                        X001008A",
        "R01Scan 3.1                        Z0x1008A",
        "R01Scan 3.1                        Z001008Q",
        "R01Scan 3.1                        Z001008B",
        "R01Scan 3.1                        Z001008BWzzzzq",
        "R01Scan",
    ] {
        assert!(
            matches!(decode(bad), Err(ParseError::BadRequest(_))),
            "{bad}: {:?}",
            decode(bad)
        );
    }
}

#[test]
fn malformed_and_unknown() {
    assert_eq!(decode("X12"), Err(ParseError::UnknownType('X')));
    assert_eq!(decode("\u{1}"), Err(ParseError::UnknownType('?')));
    for bad in [
        "M00",
        "M0012xx1100",
        "M00120525042212",
        "E",
        "E9",
        "B05",
        "B005Q",
        "K",
        "K7",
        "A",
    ] {
        assert!(
            matches!(decode(bad), Err(ParseError::Malformed { .. })),
            "{bad}: {:?}",
            decode(bad)
        );
    }
    // The seconds are informational: unreadable seconds do not lose the move.
    assert!(matches!(decode("M??12061100"), Ok(Message::Move(_))));
    // Non-ASCII bytes never panic and keep the field offsets.
    assert!(
        parse(&[
            b'M', 0xff, 0xfe, b'1', b'2', b'0', b'6', b'1', b'1', b'0', b'0'
        ])
        .is_ok()
    );
}

// ---------------------------------------------------------------- framing

fn stream_messages() -> Vec<&'static str> {
    vec![
        "R01Tornado voor Windows 4.0        W060065A",
        "ATornado voor Windows 4.0        0",
        "M0012061100",
        "M001205250422122320",
        "M0000182903223233",
        "C hello there",
        "E10",
        "E01",
        "B005Z",
        "K0",
    ]
}

fn stream_bytes() -> Vec<u8> {
    let mut bytes = Vec::new();
    for m in stream_messages() {
        bytes.extend_from_slice(m.as_bytes());
        bytes.push(0);
    }
    bytes
}

fn frames_of(framer: &mut Framer, out: &mut Vec<String>) {
    while let Some(f) = framer.next_frame() {
        out.push(String::from_utf8(f.expect("no overflow")).expect("ascii"));
    }
}

#[test]
fn glued_messages_come_apart() {
    let mut f = Framer::new();
    f.push(&stream_bytes());
    let mut out = Vec::new();
    frames_of(&mut f, &mut out);
    assert_eq!(out, stream_messages());
    assert!(!f.has_partial());
}

#[test]
fn split_at_every_byte_boundary() {
    let bytes = stream_bytes();
    for cut in 0..=bytes.len() {
        let mut f = Framer::new();
        let mut out = Vec::new();
        f.push(&bytes[..cut]);
        frames_of(&mut f, &mut out);
        f.push(&bytes[cut..]);
        frames_of(&mut f, &mut out);
        assert_eq!(out, stream_messages(), "cut at {cut}");
    }
}

#[test]
fn split_at_every_pair_of_boundaries() {
    let bytes = stream_bytes();
    for a in 0..=bytes.len() {
        for b in a..=bytes.len() {
            let mut f = Framer::new();
            let mut out = Vec::new();
            for part in [&bytes[..a], &bytes[a..b], &bytes[b..]] {
                f.push(part);
                frames_of(&mut f, &mut out);
            }
            assert_eq!(out, stream_messages(), "cuts at {a} and {b}");
        }
    }
}

#[test]
fn one_byte_at_a_time_every_message_parses() {
    let mut f = Framer::new();
    let mut out = Vec::new();
    for b in stream_bytes() {
        f.push(&[b]);
        frames_of(&mut f, &mut out);
    }
    assert_eq!(out, stream_messages());
    for text in out {
        assert!(decode(&text).is_ok(), "{text}");
    }
}

#[test]
fn line_ends_and_empty_messages_around_messages_are_ignored() {
    let mut f = Framer::new();
    f.push(b"\0\0E00\r\n\0\r\nK1\0\n\0\r\0M0012061100\n");
    let mut out = Vec::new();
    frames_of(&mut f, &mut out);
    assert_eq!(out, ["E00", "K1"]);
    f.push(b"\0");
    frames_of(&mut f, &mut out);
    assert_eq!(out, ["E00", "K1", "M0012061100"]);
}

#[test]
fn the_buffer_is_bounded() {
    let mut f = Framer::new();
    let mut overflowed = false;
    for _ in 0..256 {
        f.push(&[b'x'; 4096]);
        match f.next_frame() {
            Some(Err(_)) => {
                overflowed = true;
                break;
            }
            Some(Ok(frame)) => panic!("no NUL, yet a frame of {} bytes", frame.len()),
            None => {}
        }
    }
    assert!(overflowed);
    // A message just under the limit is still a message.
    let mut g = Framer::new();
    let mut long = vec![b'C'];
    long.extend(std::iter::repeat_n(b'y', MAX_PENDING - 1));
    g.push(&long);
    assert_eq!(g.next_frame(), None);
    g.push(b"\0");
    assert!(matches!(g.next_frame(), Some(Ok(m)) if m.len() == MAX_PENDING));
}

// ---------------------------------------------------------------- the async reader

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn reader_over_a_trickling_stream() {
    runtime().block_on(async {
        use tokio::io::AsyncWriteExt;
        let (client, server) = tokio::io::duplex(64);
        let mut reader = Reader::new(server, Duration::from_secs(5));
        let writer = tokio::spawn(async move {
            let mut client = client;
            for chunk in stream_bytes().chunks(3) {
                client.write_all(chunk).await.expect("write");
                tokio::task::yield_now().await;
            }
            client
        });
        for expected in stream_messages() {
            let incoming = reader.next(None).await.expect("message");
            assert_eq!(incoming.text, expected);
            assert!(incoming.message.is_ok());
        }
        drop(writer.await.expect("writer"));
        assert!(matches!(reader.next(None).await, Err(ReadError::Closed)));
    });
}

#[test]
fn reader_reports_overflow_and_a_missing_nul() {
    runtime().block_on(async {
        use tokio::io::AsyncWriteExt;
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let mut reader = Reader::new(server, Duration::from_millis(200));
        client.write_all(b"E00\0R01 no NUL").await.expect("write");
        assert_eq!(reader.next(None).await.expect("E").text, "E00");
        match reader.next(None).await {
            Err(ReadError::Incomplete { text }) => assert_eq!(text, "R01 no NUL"),
            other => panic!("{other:?}"),
        }

        let (mut client, server) = tokio::io::duplex(1 << 16);
        let mut reader = Reader::new(server, Duration::from_secs(5));
        let flood = tokio::spawn(async move {
            let _ = client.write_all(&vec![b'x'; 1 << 20]).await;
        });
        assert!(matches!(reader.next(None).await, Err(ReadError::Overflow)));
        drop(reader);
        let _ = flood.await;
    });
}

// ---------------------------------------------------------------- the log's words

#[test]
fn every_field_received_is_said_in_words_for_the_log() {
    // pydraughts' request: its fixed name, the follower's colour, whole
    // minutes, the move count and always flag B with the position.
    let request = format!("R01{:<32}W001000BW{}", "DXP Client", start_board());
    let said = decode(&request).expect("pydraughts' R").fields();
    assert_eq!(
        said,
        format!(
            "game request: version 01, initiator name 'DXP Client', follower plays white, \
             1 minutes, moves 0 (the whole game), start: white to move on {} (B)",
            start_board()
        )
    );
    let said = decode("R01Scan 3.1                        Z0.5040A")
        .expect("Scan's R")
        .fields();
    assert!(
        said.contains("follower plays black, 0.5 minutes, moves 40, start: the normal start (A)"),
        "{said}"
    );
    for (text, words) in [
        (
            "ATiao 0.1.0                      2",
            "game accept: follower name 'Tiao 0.1.0', code 2 (not this game)",
        ),
        (
            "M001205250412202223",
            "move: from 5 to 25, 4 captured (12, 20, 22, 23), 12 s (the sender's count)",
        ),
        (
            "E10",
            "game end: reason 1 (the sender loses), stop 0 (another game welcome)",
        ),
        (
            "E01",
            "game end: reason 0 (no reason: an acknowledgement, or unknown), stop 1 (no more games)",
        ),
        ("B005Z", "take-back request: to move 5 with black to move"),
        ("K2", "take-back answer: code 2 (declined)"),
    ] {
        assert_eq!(decode(text).expect(text).fields(), words, "{text}");
    }
}
