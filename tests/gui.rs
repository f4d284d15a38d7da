//! `tiao gui` over real sockets: the binary is started with `--port 0`,
//! its address read from stdout, the page fetched over HTTP and the game
//! played over a WebSocket (tokio-tungstenite), as the page does. Bad input
//! gets an `error` reply and the connection goes on; a socket closed in the
//! middle of a search leaves the server serving others.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long any reply may take (the searches asked for are small).
const REPLY: Duration = Duration::from_secs(60);

/// A running `tiao gui`, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .args(["gui", "--port", "0", "--set", "hash=4"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tiao gui");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("read");
        let address = line
            .strip_prefix("tiao gui: http://")
            .and_then(|rest| rest.trim_end().strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Server { child, address }
    }

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    async fn connect(&self) -> Socket {
        let (mut socket, _) = connect_async(format!("ws://{}/ws", self.address))
            .await
            .expect("websocket");
        let hello = next(&mut socket).await;
        assert_eq!(hello["type"], "hello", "{hello}");
        let state = next(&mut socket).await;
        assert_eq!(state["type"], "state", "{state}");
        socket
    }

    /// One HTTP GET: the status line and the body.
    fn get(&self, path: &str) -> (String, String) {
        let mut stream = std::net::TcpStream::connect(&self.address).expect("connect");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .expect("request");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("response");
        let status = response.lines().next().unwrap_or_default().to_string();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }
}

async fn next(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(REPLY, socket.next())
            .await
            .expect("a reply in time")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).expect("JSON");
        }
    }
}

/// The next reply of `kind`, skipping the others (search lines, states).
async fn until(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let m = next(socket).await;
        if m["type"] == kind {
            return m;
        }
    }
}

async fn send(socket: &mut Socket, message: Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .expect("send");
}

/// The next state in which no search runs.
async fn settled(socket: &mut Socket) -> Value {
    loop {
        let m = until(socket, "state").await;
        if m["searching"].is_null() {
            return m;
        }
    }
}

fn history(state: &Value) -> Vec<String> {
    state["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_page_and_its_files_are_served_from_the_binary() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert!(status.contains("200"), "{status}");
    assert!(page.contains("<svg id=\"board\""), "{page}");
    for path in ["/app.js", "/style.css"] {
        let (status, body) = server.get(path);
        assert!(
            status.contains("200") && !body.is_empty(),
            "{path}: {status}"
        );
    }
    let (status, _) = server.get("/nothing-here");
    assert!(status.contains("404"), "{status}");
}

#[tokio::test]
async fn bad_input_gets_a_clear_error_and_the_connection_goes_on() {
    let mut server = Server::start(&[]);
    let mut ws = server.connect().await;
    let cases = [
        (
            Message::Text("{not json".into()),
            "malformed message (not JSON)",
        ),
        (Message::Text("[1, 2]".into()), "\"type\""),
        (
            Message::Text(r#"{"type":"fly"}"#.into()),
            "unknown message type 'fly'",
        ),
        (
            Message::Text(r#"{"type":"set_fen"}"#.into()),
            "bad 'set_fen' message",
        ),
        (Message::Binary(vec![1u8, 2, 3].into()), "binary messages"),
        (
            Message::Text(r#"{"type":"move","move":"33-27"}"#.into()),
            "illegal move",
        ),
        (
            Message::Text(r#"{"type":"move","move":"hello"}"#.into()),
            "hello",
        ),
        (
            Message::Text(r#"{"type":"move","path":[32,26]}"#.into()),
            "no legal move follows the path 32-26",
        ),
        (Message::Text(r#"{"type":"move"}"#.into()), "a move needs"),
        (
            Message::Text(r#"{"type":"set_fen","fen":"W:W51:B1"}"#.into()),
            "bad position",
        ),
        (
            Message::Text(r#"{"type":"load_pdn","pdn":"1. 32-28 32-28 *"}"#.into()),
            "bad PDN",
        ),
        (
            Message::Text(r#"{"type":"new_game","variant":"chess"}"#.into()),
            "unknown variant 'chess'",
        ),
        (
            Message::Text(r#"{"type":"new_game","variant":"halma8"}"#.into()),
            "draughts variants",
        ),
        (
            Message::Text(
                r#"{"type":"set_pieces","side":"white","pieces":[{"square":99,"colour":"white"}]}"#
                    .into(),
            ),
            "square 99 is not on this board",
        ),
        (
            Message::Text(r#"{"type":"undo"}"#.into()),
            "no move to take back",
        ),
        (
            Message::Text(r#"{"type":"redo"}"#.into()),
            "no move to redo",
        ),
    ];
    for (message, says) in cases {
        ws.send(message.clone()).await.expect("send");
        let reply = until(&mut ws, "error").await;
        let text = reply["message"].as_str().unwrap_or_default();
        assert!(text.contains(says), "{message:?}: {text}");
    }
    // The game is as it was (each refusal came with the state, unchanged),
    // and a good move is still played.
    send(&mut ws, json!({"type": "move", "move": "32-28"})).await;
    loop {
        let state = until(&mut ws, "state").await;
        match history(&state).as_slice() {
            [] => continue,
            moves => break assert_eq!(moves, ["32-28"]),
        }
    }
    assert!(server.alive());
}

#[tokio::test]
async fn a_socket_closed_mid_search_leaves_the_server_serving() {
    let mut server = Server::start(&[]);
    let mut first = server.connect().await;
    send(&mut first, json!({"type": "analyse", "multipv": 2})).await;
    let line = until(&mut first, "info").await;
    assert_eq!(line["search"], "analysis", "{line}");
    // Gone without a close frame, in the middle of an endless analysis.
    drop(first);
    let mut second = server.connect().await;
    send(&mut second, json!({"type": "move", "path": [32, 28]})).await;
    let state = until(&mut second, "state").await;
    assert_eq!(history(&state), ["32-28"]);
    // And one that closes properly while Tiao thinks (in a position of
    // no book: White without the man on 50).
    let fen = "W:W31-49:B1-20";
    send(&mut second, json!({"type": "set_fen", "fen": fen})).await;
    until(&mut second, "state").await;
    send(&mut second, json!({"type": "engine_move", "time": 30})).await;
    until(&mut second, "info").await;
    second.close(None).await.expect("close");
    let mut third = server.connect().await;
    send(&mut third, json!({"type": "state"})).await;
    let state = until(&mut third, "state").await;
    assert!(history(&state).is_empty());
    assert!(server.alive());
}

#[tokio::test]
async fn a_game_is_played_taken_back_analysed_and_saved() {
    let server = Server::start(&[]);
    let mut ws = server.connect().await;
    send(
        &mut ws,
        json!({"type": "new_game", "variant": "international"}),
    )
    .await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["size"], 10);
    assert_eq!(state["squares"].as_array().map(Vec::len), Some(50));
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(9));
    let m = &state["moves"][0];
    assert_eq!(m["paths"][0][0], m["from"], "{m}");

    // A capture by its path: 32-28 19-23 28x19.
    for mv in ["32-28", "19-23"] {
        send(&mut ws, json!({"type": "move", "move": mv})).await;
        until(&mut ws, "state").await;
    }
    send(&mut ws, json!({"type": "move", "path": [28, 19]})).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(history(&state), ["32-28", "19-23", "28x19"]);
    assert_eq!(state["last_move"]["captured"], json!([23]));
    assert_eq!(state["side"], "black");

    // Undo and redo.
    send(&mut ws, json!({"type": "undo"})).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(history(&state).len(), 2);
    assert_eq!(state["can_redo"], true);
    send(&mut ws, json!({"type": "redo"})).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(history(&state).len(), 3);
    assert_eq!(state["can_redo"], false);

    // Tiao answers (a search to depth 3: the book has no such position).
    send(&mut ws, json!({"type": "engine_move", "depth": 3})).await;
    let best = until(&mut ws, "bestmove").await;
    let state = settled(&mut ws).await;
    assert_eq!(history(&state).len(), 4);
    assert_eq!(
        history(&state)[3],
        best["move"].as_str().unwrap_or_default()
    );

    // Multi-PV analysis to a fixed depth: lines 1 and 2 arrive.
    send(
        &mut ws,
        json!({"type": "analyse", "multipv": 2, "depth": 4}),
    )
    .await;
    let mut seen = [false; 2];
    loop {
        let m = next(&mut ws).await;
        if m["type"] == "info" {
            let k = m["multipv"].as_u64().unwrap_or(0) as usize;
            assert!((1..=2).contains(&k), "{m}");
            assert!(!m["pv"].as_array().is_some_and(Vec::is_empty), "{m}");
            seen[k - 1] = true;
        }
        if m["type"] == "state" && m["searching"].is_null() {
            break;
        }
    }
    assert_eq!(seen, [true, true]);

    // The whole game on the graph: a point for each of the five positions.
    send(&mut ws, json!({"type": "eval_game", "depth": 2})).await;
    let state = settled(&mut ws).await;
    let plies: Vec<u64> = state["evals"]
        .as_array()
        .expect("evals")
        .iter()
        .filter_map(|p| p["ply"].as_u64())
        .collect();
    assert_eq!(plies, [0, 1, 2, 3, 4]);
    assert_eq!(
        history(&state).len(),
        4,
        "the walk leaves the game where it was"
    );

    // Saved as PDN and loaded back in another page.
    send(
        &mut ws,
        json!({"type": "save_pdn", "white": "Ann", "black": "Tiao"}),
    )
    .await;
    let pdn = until(&mut ws, "pdn").await["pdn"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        pdn.contains("[White \"Ann\"]") && pdn.contains("28x19"),
        "{pdn}"
    );
    let mut other = server.connect().await;
    send(&mut other, json!({"type": "load_pdn", "pdn": pdn})).await;
    let loaded = until(&mut other, "state").await;
    assert_eq!(loaded["fen"], state["fen"]);
    assert_eq!(history(&loaded), history(&state));
}

#[tokio::test]
async fn every_draughts_variant_has_its_board_and_notation() {
    let server = Server::start(&[]);
    let mut ws = server.connect().await;
    for (variant, size, squares, first) in [
        ("russian", 8, 32, "b8"),
        ("brazilian", 8, 32, "b8"),
        ("canadian", 12, 72, "1"),
        ("international", 10, 50, "1"),
    ] {
        send(&mut ws, json!({"type": "new_game", "variant": variant})).await;
        let state = until(&mut ws, "state").await;
        assert_eq!(state["variant"], variant);
        assert_eq!(state["size"], size);
        assert_eq!(state["squares"].as_array().map(Vec::len), Some(squares));
        assert_eq!(state["squares"][0]["name"], first, "{variant}");
    }
    // Russian moves in its own notation, by text or by path.
    send(&mut ws, json!({"type": "new_game", "variant": "russian"})).await;
    until(&mut ws, "state").await;
    send(&mut ws, json!({"type": "move", "move": "c3-d4"})).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(history(&state), ["c3-d4"]);
    // Pieces placed by hand: a white king on 1 and a black man on 32... of 8x8.
    send(
        &mut ws,
        json!({"type": "set_pieces", "side": "black", "pieces": [
            {"square": 1, "colour": "white", "king": true},
            {"square": 14, "colour": "black"}
        ]}),
    )
    .await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["side"], "black");
    assert_eq!(
        state["squares"][0]["piece"],
        json!({"colour": "white", "king": true})
    );
}

#[tokio::test]
async fn the_endgame_databases_verdict_is_shown() {
    let dir = std::env::temp_dir().join(format!("tiao-gui-egdb-{}", std::process::id()));
    let made = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["egdb", "gen", "--variant", "international", "--pieces", "2"])
        .arg("--dir")
        .arg(&dir)
        .output()
        .expect("egdb gen");
    assert!(made.status.success(), "{made:?}");
    let dir_text = dir.to_string_lossy().to_string();
    let egdb_dir = format!("egdb-dir={dir_text}");
    let server = Server::start(&["--set", "egdb-pieces=2", "--set", &egdb_dir]);
    let mut ws = server.connect().await;
    // A white king against a lone man: the king wins.
    send(&mut ws, json!({"type": "set_fen", "fen": "W:WK46:B5"})).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["verdict"], "win", "{}", state["fen"]);
    // Outside the databases there is no verdict.
    send(
        &mut ws,
        json!({"type": "new_game", "variant": "international"}),
    )
    .await;
    let state = until(&mut ws, "state").await;
    assert!(state["verdict"].is_null());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_stop_tiao_gui_at_once_with_a_message() {
    for (set, says) in [
        ("foo=1", "unknown parameter 'foo'"),
        ("hash", "--set takes NAME=VALUE"),
        ("variant=halma8", "the GUI plays the draughts variants"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .args(["gui", "--port", "0", "--set", set])
            .output()
            .expect("run tiao gui");
        assert_eq!(out.status.code(), Some(2), "{set}");
        assert!(out.stdout.is_empty(), "{set}: nothing is served");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{set}: {err}");
    }
}

#[tokio::test]
async fn an_intent_during_a_search_drops_its_move() {
    let server = Server::start(&[]);
    let mut ws = server.connect().await;
    // A position of no book (White without the man on 50), a move, and
    // Tiao thinking on the answer.
    send(&mut ws, json!({"type": "set_fen", "fen": "W:W31-49:B1-20"})).await;
    until(&mut ws, "state").await;
    send(&mut ws, json!({"type": "move", "move": "32-28"})).await;
    until(&mut ws, "state").await;
    send(&mut ws, json!({"type": "engine_move", "time": 30})).await;
    until(&mut ws, "info").await;
    // Undo while Tiao thinks: the search stops, its move is not played,
    // and the first state without a search is the one after the undo.
    send(&mut ws, json!({"type": "undo"})).await;
    loop {
        let m = next(&mut ws).await;
        assert_ne!(m["type"], "bestmove", "{m}");
        if m["type"] == "state" && m["searching"].is_null() {
            assert!(history(&m).is_empty(), "{m}");
            assert_eq!(m["can_redo"], true);
            break;
        }
    }
}

#[tokio::test]
async fn only_the_servers_own_page_may_open_a_socket() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let server = Server::start(&[]);
    let url = format!("ws://{}/ws", server.address);
    for (origin, served) in [
        (format!("http://{}", server.address), true),
        ("http://evil.example".to_string(), false),
        ("null".to_string(), false),
    ] {
        let mut request = url.as_str().into_client_request().expect("request");
        request
            .headers_mut()
            .insert("Origin", origin.parse().expect("header"));
        match connect_async(request).await {
            Ok(_) => assert!(served, "{origin} was served"),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert!(!served, "{origin} was refused");
                assert_eq!(response.status(), 403, "{origin}");
            }
            Err(e) => panic!("{origin}: {e}"),
        }
    }
    // A name other than this machine's (a site's name made to point here).
    let mut request = url.as_str().into_client_request().expect("request");
    request
        .headers_mut()
        .insert("Host", "evil.example".parse().expect("header"));
    assert!(connect_async(request).await.is_err());
}
