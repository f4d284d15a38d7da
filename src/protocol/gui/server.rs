//! The GUI's web server: the page's three files, embedded in the binary,
//! and one WebSocket per page (`/ws`) that carries JSON intents in and
//! replies out. Each socket has its own [`Game`]; nothing a page sends can
//! end the server: bad messages get an `error` reply, and a page that goes
//! away mid-search stops its search and nothing else. Sockets are opened
//! for this server's own page only (see [`local_page`]).

use super::game::{Event, Game, Settings};
use super::messages::{Reply, read_intent};
use crate::engine::GameKind;
use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::sync::Arc;
use tokio::sync::mpsc;

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// The largest message a page may send (a PDN file, say), in bytes.
const MAX_MESSAGE: usize = 1 << 20;

/// Serve pages on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, settings: Settings) -> std::io::Result<()> {
    let app = Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route("/ws", get(upgrade))
        .with_state(Arc::new(settings));
    axum::serve(listener, app).await
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    // No caching: a page reloaded after an update gets the new script.
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

async fn upgrade(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    State(settings): State<Arc<Settings>>,
) -> Response {
    if let Err(why) = local_page(&headers) {
        log::warn!("websocket refused: {why}");
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    ws.max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| connection(socket, settings))
}

/// Only this server's own page may open a socket. A browser lets any web
/// site open a WebSocket to 127.0.0.1, saying where it comes from in
/// `Origin`: a socket whose origin is not the address it asks for is
/// refused, and so is one asked for by another name than this machine's
/// (a site's name made to point here). Clients other than browsers send
/// no `Origin` and are served.
fn local_page(headers: &HeaderMap) -> Result<(), String> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let name = host.rsplit_once(':').map_or(host, |(name, _port)| name);
    if !matches!(name, "127.0.0.1" | "localhost" | "[::1]") {
        return Err(format!("host '{host}' is not this machine"));
    }
    match headers.get(header::ORIGIN).map(|o| o.to_str()) {
        None => Ok(()),
        Some(Ok(origin)) if origin == format!("http://{host}") => Ok(()),
        Some(origin) => Err(format!(
            "origin '{}' is not this server's page",
            origin.unwrap_or("?")
        )),
    }
}

/// Send replies in order; an error means the page is gone.
async fn send_all(socket: &mut WebSocket, replies: Vec<Reply>) -> Result<(), axum::Error> {
    for reply in replies {
        socket.send(Message::Text(reply.to_json().into())).await?;
    }
    Ok(())
}

/// Serve one page until its socket closes.
async fn connection(mut socket: WebSocket, settings: Arc<Settings>) {
    log::info!("page connected");
    let engine = match settings.engine() {
        Ok(engine) => engine,
        Err(e) => {
            let _ = send_all(&mut socket, vec![Reply::error(e)]).await;
            return;
        }
    };
    let (events_in, mut events) = mpsc::unbounded_channel::<Event>();
    let mut game = Game::new(engine, events_in);
    let hello = Reply::Hello {
        version: env!("CARGO_PKG_VERSION"),
        variants: GameKind::ALL
            .iter()
            .filter(|g| g.variant().is_some())
            .map(|g| g.name())
            .collect(),
    };
    if send_all(&mut socket, vec![hello, game.state()])
        .await
        .is_err()
    {
        return;
    }
    loop {
        let replies = tokio::select! {
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(Message::Text(text))) => match read_intent(text.as_str()) {
                    Ok(intent) => game.handle(intent, &mut events).await,
                    Err(e) => vec![Reply::error(e)],
                },
                Some(Ok(Message::Binary(_))) => {
                    vec![Reply::error("binary messages are not understood: send JSON text")]
                }
                // Pings are answered by the socket itself.
                Some(Ok(_)) => continue,
            },
            Some(event) = events.recv() => game.on_event(event),
        };
        if send_all(&mut socket, replies).await.is_err() {
            break;
        }
    }
    // Dropping the game stops its search; the server goes on.
    log::info!("page disconnected");
}
