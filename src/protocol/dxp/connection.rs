//! One DXP connection, one task: the match it carries, in either protocol
//! role. The follower waits for game requests (`R`) and answers them (`A`);
//! the initiator proposes the games of its plan one after another. The
//! games themselves are played by `play.rs`; this file holds what every
//! state shares: reading with deadlines, sending, chats, complaints about
//! bad input, and closing the connection so that a last message arrives.

use super::cli::Config;
use super::codec::{Incoming, ReadError, Reader, Writer};
use super::game::GameSpec;
use super::game::set_up;
use super::message::{
    AcceptCode, BackCode, GameAccept, GameRequest, MAX_CHAT, Message, ParseError,
};
use super::record::PdnFile;
use super::tally::Tally;
use crate::engine::{Engine, EngineError};
use crate::printable::escape;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::OwnedSemaphorePermit;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Malformed messages in a row after which the peer is given up on.
const MAX_BAD_IN_A_ROW: u32 = 32;
/// Chats one explanation may take (longer ones are cut).
const MAX_CHATS: usize = 3;
/// Longest quote of a received message in a chat.
const QUOTE: usize = 40;
/// How long to read what the peer still sends before closing.
const DRAIN: Duration = Duration::from_secs(2);

/// What every connection of a run shares.
#[derive(Debug)]
pub struct Shared {
    pub config: Config,
    pub pdn: PdnFile,
}

/// Why a connection's match stopped early.
#[derive(Debug)]
pub(super) enum Stop {
    /// The peer closed the connection.
    Closed,
    /// Tiao ends the connection; the text is chatted to the peer first.
    Abort(String),
    /// The connection failed; nothing more can be sent.
    Failed(String),
}

impl Stop {
    /// A phrase for the Termination tag of a game it interrupted.
    pub(super) fn describe(&self) -> String {
        match self {
            Stop::Closed => "abandoned: the peer closed the connection".to_string(),
            Stop::Abort(why) => format!("abandoned: {why}"),
            Stop::Failed(why) => format!("abandoned: connection failed ({why})"),
        }
    }
}

/// A connection's state.
pub(super) struct Connection<R, W> {
    pub(super) reader: Reader<R>,
    pub(super) writer: Writer<W>,
    pub(super) shared: Arc<Shared>,
    /// The engine; `None` while a search holds it (or if it was lost).
    pub(super) engine: Option<Engine>,
    /// The peer's socket address.
    pub(super) peer_addr: String,
    /// The peer's name, from its `R` or `A`.
    pub(super) peer_name: String,
    pub(super) tally: Tally,
    /// Games started on this connection (the PDN Round).
    pub(super) round: u32,
    bad_in_a_row: u32,
    /// A message read ahead, to be handled by the next state.
    pushed_back: Option<Incoming>,
    /// The connection ended after a game's result was already settled:
    /// the game is recorded with its result, then the match stops.
    pub(super) ended_after_game: Option<Stop>,
    /// The listener's slot this connection holds (`--max-connections`):
    /// given back as soon as the peer is seen to be gone or the match is
    /// over, not only when the task ends, so that a peer reconnecting at
    /// once is served.
    slot: Option<OwnedSemaphorePermit>,
}

/// Serve one connection until its match ends, and print its summary.
/// `Err` says why it ended badly: Tiao had to end it, the connection
/// failed, or, as initiator or `--once` follower, no game was completed (a peer closing the
/// connection after a completed game is no error). `slot` is the listener's permit for the connection, if any.
/// Never panics on input.
pub async fn serve<R, W>(
    reader: R,
    writer: W,
    peer_addr: String,
    shared: Arc<Shared>,
    slot: Option<OwnedSemaphorePermit>,
) -> Result<(), String>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send,
{
    let timeout = shared.config.timeout;
    let mut c = Connection {
        reader: Reader::new(reader, timeout),
        writer: Writer::new(writer, timeout),
        shared,
        engine: None,
        peer_addr,
        peer_name: String::new(),
        tally: Tally::default(),
        round: 0,
        bad_in_a_row: 0,
        pushed_back: None,
        ended_after_game: None,
        slot,
    };
    log::info!("dxp: connection with {}", c.peer_addr);
    let result = c.run().await;
    // As initiator, or as a follower serving one connection (`--once`), a
    // match without a completed game is a failure a script must be able to
    // see (the exit status), however it ended.
    let answerable = c.config().is_initiator() || c.config().once;
    let no_game = (answerable && c.tally.decided() == 0).then(|| {
        let ended = match &result {
            Ok(()) if c.tally.unfinished == 0 => "the peer refused every game".to_string(),
            Ok(()) => "no game was played to a result".to_string(),
            Err(Stop::Closed) => "the peer closed the connection".to_string(),
            Err(Stop::Abort(why) | Stop::Failed(why)) => why.clone(),
        };
        format!("{ended}; no game was completed")
    });
    // The match is over: what is left (a last chat, reading until the peer
    // closes) needs neither the slot nor the engine.
    c.slot = None;
    c.engine = None;
    let error = match result {
        Ok(()) => {
            c.close().await;
            None
        }
        Err(Stop::Closed) => {
            log::info!("dxp: {} closed the connection", c.peer_addr);
            None
        }
        Err(Stop::Abort(why)) => {
            log::warn!("dxp: closing the connection with {}: {why}", c.peer_addr);
            let _ = c.chat(&why).await;
            c.close().await;
            Some(why)
        }
        Err(Stop::Failed(why)) => {
            log::warn!("dxp: connection with {} failed: {why}", c.peer_addr);
            Some(why)
        }
    };
    let peer = if c.peer_name.is_empty() {
        c.peer_addr.clone()
    } else {
        c.peer_name.clone()
    };
    super::stdout_line(&c.tally.summary(&c.shared.config.name, &peer));
    match no_game.or(error) {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

impl<R, W> Connection<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send,
{
    pub(super) fn config(&self) -> &Config {
        &self.shared.config
    }

    async fn run(&mut self) -> Result<(), Stop> {
        self.first_engine().await?;
        match self.config().plan.clone() {
            Some(plan) => self.initiate(&plan).await,
            None => self.follow().await,
        }
    }

    /// Close our side and read what is left, so that a last message we sent
    /// is not destroyed by a reset.
    async fn close(&mut self) {
        self.writer.shutdown().await;
        let drain = self.config().timeout.min(DRAIN);
        self.reader.drain(Instant::now() + drain).await;
    }

    /// Start making an engine on a blocking thread (allocating the hash
    /// table and reading the book take a moment: not on the runtime's thread).
    fn make_engine(&self) -> JoinHandle<Result<Engine, EngineError>> {
        let options = self.config().engine.clone();
        let eval_file = self.config().eval_file.clone();
        tokio::task::spawn_blocking(move || {
            let mut engine = Engine::new(options)?;
            if let Some(file) = eval_file {
                // Read once already (`Config`); a file changed since is
                // said, and the built-in weights are kept.
                if let Err(e) = engine.set_option("eval-file", &file) {
                    log::warn!("dxp: {e}");
                }
            }
            for opened in engine.open_knowledge() {
                match opened {
                    Ok(msg) => log::info!("dxp: {msg}"),
                    Err(e) => log::warn!("dxp: {e}"),
                }
            }
            Ok(engine)
        })
    }

    /// The connection's first engine, made while the socket is watched: a
    /// peer that closes meanwhile is seen at once (and its slot freed). A
    /// message that arrives first is kept for the state that follows.
    async fn first_engine(&mut self) -> Result<(), Stop> {
        let mut making = self.make_engine();
        loop {
            tokio::select! {
                made = &mut making => {
                    self.engine = Some(engine_made(made)?);
                    return Ok(());
                }
                read = self.read(None), if self.pushed_back.is_none() => {
                    if let Some(incoming) = read? {
                        self.push_back(incoming);
                    }
                }
            }
        }
    }

    /// Make sure there is an engine (the first, or a new one after a failed search).
    pub(super) async fn ensure_engine(&mut self) -> Result<&mut Engine, Stop> {
        if self.engine.is_none() {
            let made = self.make_engine().await;
            self.engine = Some(engine_made(made)?);
        }
        self.engine
            .as_mut()
            .ok_or_else(|| Stop::Abort("the engine is not available".into()))
    }

    // ------------------------------------------------------------ I/O

    /// The next message; `Ok(None)` when `deadline` passes first.
    pub(super) async fn read(
        &mut self,
        deadline: Option<Instant>,
    ) -> Result<Option<Incoming>, Stop> {
        if let Some(i) = self.pushed_back.take() {
            return Ok(Some(i));
        }
        match self.reader.next(deadline).await {
            Ok(i) => {
                if let Ok(message) = &i.message {
                    self.bad_in_a_row = 0;
                    // Every field received, in words (chats are logged
                    // where they are handled).
                    if !matches!(message, Message::Chat(_)) {
                        log::info!("dxp: {} sent {}", self.peer_addr, escape(&message.fields()));
                    }
                }
                Ok(Some(i))
            }
            Err(ReadError::Timeout) => Ok(None),
            Err(ReadError::Closed) => {
                // The peer is gone: its slot is free for the next connection
                // now, not after the game is recorded.
                self.slot = None;
                Err(Stop::Closed)
            }
            Err(e @ (ReadError::Incomplete { .. } | ReadError::Overflow)) => {
                Err(Stop::Abort(format!("{e}; closing")))
            }
            Err(ReadError::Io(e)) => {
                self.slot = None;
                Err(Stop::Failed(e.to_string()))
            }
        }
    }

    /// Hand a message to the next state (the `R` that also ends a wait for an acknowledgement).
    pub(super) fn push_back(&mut self, incoming: Incoming) {
        self.pushed_back = Some(incoming);
    }

    pub(super) async fn send(&mut self, message: Message) -> Result<(), Stop> {
        self.writer
            .send(&message)
            .await
            .map_err(|e| Stop::Failed(format!("cannot send: {e}")))
    }

    /// Say something to the peer, in as many chats as it takes (up to a
    /// few). The text is escaped first (it may quote the peer), then cut.
    pub(super) async fn chat(&mut self, text: &str) -> Result<(), Stop> {
        for piece in chat_pieces(&escape(text)) {
            self.send(Message::Chat(piece)).await?;
        }
        Ok(())
    }

    /// Answer a message that cannot be used here: a chat saying why; too
    /// many in a row and the peer is given up on.
    pub(super) async fn complain(&mut self, text: &str, why: &str) -> Result<(), Stop> {
        self.bad_in_a_row += 1;
        log::warn!(
            "dxp: {} sent \"{}\": {}",
            self.peer_addr,
            escape(text),
            escape(why)
        );
        if self.bad_in_a_row > MAX_BAD_IN_A_ROW {
            return Err(Stop::Abort(format!(
                "{MAX_BAD_IN_A_ROW} unusable messages in a row; closing"
            )));
        }
        self.chat(&format!("{why}; ignored: {}", quote(text))).await
    }

    /// Log a chat from the peer (its text as received, `C` and all).
    pub(super) fn log_chat(&self, text: &str) {
        let said = text.strip_prefix('C').unwrap_or(text);
        log::info!("dxp: {} says: {}", self.peer_addr, escape(said));
    }

    pub(super) async fn answer_request(&mut self, code: AcceptCode) -> Result<(), Stop> {
        let name = self.config().name.clone();
        self.send(Message::Accept(GameAccept { name, code })).await
    }

    /// Messages with no game in progress (and no game being proposed).
    pub(super) async fn outside_game(&mut self, incoming: Incoming) -> Result<(), Stop> {
        let text = incoming.text;
        match incoming.message {
            Ok(Message::Chat(_)) => self.log_chat(&text),
            Ok(Message::Request(_)) => {
                // Only reached as initiator: a follower handles R itself.
                self.chat("Tiao is the initiator on this connection; game request refused")
                    .await?;
                self.answer_request(AcceptCode::RefuseThis).await?;
            }
            Err(ParseError::BadVersion(v)) => {
                self.chat(&ParseError::BadVersion(v).to_string()).await?;
                self.answer_request(AcceptCode::WrongVersion).await?;
            }
            Err(ParseError::BadRequest(why)) => {
                self.chat(&format!("game request refused: {why}")).await?;
                self.answer_request(AcceptCode::RefuseThis).await?;
            }
            Err(e) => self.complain(&text, &e.to_string()).await?,
            Ok(Message::Move(_)) => self.complain(&text, "no game in progress").await?,
            Ok(Message::End(_)) => {
                // A late acknowledgement, most likely: nothing to answer.
                log::info!(
                    "dxp: {} sent {text:?} with no game in progress",
                    self.peer_addr
                );
            }
            Ok(Message::BackRequest(_)) => {
                self.chat("no game in progress: nothing to take back")
                    .await?;
                self.send(Message::BackAccept(BackCode::Declined)).await?;
            }
            Ok(Message::BackAccept(_)) => {
                self.complain(&text, "Tiao asked for no take-back").await?
            }
            Ok(Message::Accept(_)) => self.complain(&text, "no game was proposed").await?,
        }
        Ok(())
    }

    // ------------------------------------------------------------ follower

    async fn follow(&mut self) -> Result<(), Stop> {
        loop {
            let idle = self.config().idle_timeout;
            let Some(incoming) = self.read(Some(Instant::now() + idle)).await? else {
                return Err(Stop::Abort(format!(
                    "no game request for {} s; closing",
                    idle.as_secs()
                )));
            };
            match incoming.message {
                Ok(Message::Request(req)) => self.on_request(req).await?,
                _ => self.outside_game(incoming).await?,
            }
        }
    }

    /// A game request: accept it when its position can be played.
    async fn on_request(&mut self, req: GameRequest) -> Result<(), Stop> {
        let engine = self.ensure_engine().await?;
        if let Err(e) = set_up(engine, req.setup.as_ref()) {
            // Scan's wording: `bad position: ...`.
            self.chat(&format!("game request refused: {e}")).await?;
            return self.answer_request(AcceptCode::RefuseThis).await;
        }
        self.answer_request(AcceptCode::Accept).await?;
        self.peer_name = req.name.clone();
        let spec = GameSpec {
            tiao: req.follower,
            time: req.time,
            moves: req.moves,
            // A follower always welcomes another game; the initiator decides.
            stop_after: false,
        };
        self.play(spec).await
    }

    // ------------------------------------------------------------ initiator

    async fn initiate(&mut self, plan: &super::cli::Plan) -> Result<(), Stop> {
        for n in 1..=plan.games {
            let (tiao, setup) = plan.game(n);
            let engine = self.ensure_engine().await?;
            set_up(engine, setup.as_ref())
                .map_err(|e| Stop::Abort(format!("cannot set up game {n}: {e}")))?;
            let name = self.config().name.clone();
            self.send(Message::Request(GameRequest {
                name,
                follower: !tiao,
                time: plan.time,
                moves: plan.moves,
                setup,
            }))
            .await?;
            let accept = self.await_accept().await?;
            self.peer_name = accept.name.clone();
            match accept.code {
                AcceptCode::Accept => {
                    let spec = GameSpec {
                        tiao,
                        time: plan.time,
                        moves: plan.moves,
                        stop_after: n == plan.games,
                    };
                    self.play(spec).await?;
                }
                AcceptCode::WrongVersion => {
                    return Err(Stop::Abort(
                        "the peer does not speak DXP version 01; closing".into(),
                    ));
                }
                AcceptCode::RefuseThis => {
                    log::warn!("dxp: {} refused game {n}", self.peer_addr);
                    self.tally.refused += 1;
                }
                AcceptCode::RefuseAll => {
                    log::warn!("dxp: {} refuses all games; the match ends", self.peer_addr);
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Wait for the answer to our `R`.
    async fn await_accept(&mut self) -> Result<GameAccept, Stop> {
        let timeout = self.config().timeout;
        let deadline = Instant::now() + timeout;
        loop {
            let Some(incoming) = self.read(Some(deadline)).await? else {
                return Err(Stop::Abort(format!(
                    "no answer to the game request in {} s; closing",
                    timeout.as_secs_f64()
                )));
            };
            match incoming.message {
                Ok(Message::Accept(a)) => return Ok(a),
                _ => self.outside_game(incoming).await?,
            }
        }
    }
}

/// The engine from [`Connection::make_engine`], or why there is none.
fn engine_made(
    made: Result<Result<Engine, EngineError>, tokio::task::JoinError>,
) -> Result<Engine, Stop> {
    made.map_err(|e| Stop::Abort(format!("cannot start the engine: {e}")))?
        .map_err(|e| Stop::Abort(format!("cannot start the engine: {e}")))
}

/// A text cut into chats of at most [`MAX_CHAT`] characters, at blanks
/// where possible, and at most [`MAX_CHATS`] of them (the last one then
/// ends with `...`).
pub(super) fn chat_pieces(text: &str) -> Vec<String> {
    let mut rest: Vec<char> = text.trim().chars().collect();
    let mut pieces = Vec::new();
    while !rest.is_empty() {
        if pieces.len() == MAX_CHATS - 1 && rest.len() > MAX_CHAT {
            let mut last: String = rest[..MAX_CHAT - 3].iter().collect();
            last.push_str("...");
            pieces.push(last);
            break;
        }
        let mut cut = rest.len().min(MAX_CHAT);
        if cut < rest.len()
            && let Some(blank) = rest[MAX_CHAT / 2..cut].iter().rposition(|c| *c == ' ')
        {
            cut = MAX_CHAT / 2 + blank;
        }
        pieces.push(
            rest[..cut]
                .iter()
                .collect::<String>()
                .trim_end()
                .to_string(),
        );
        rest.drain(..cut);
        while rest.first() == Some(&' ') {
            rest.remove(0);
        }
    }
    pieces
}

/// A received message for a chat: escaped, then shortened to [`QUOTE`]
/// characters (at whole escapes: an escape is never cut in two).
pub(super) fn quote(text: &str) -> String {
    let mut head = String::new();
    let mut shown = 0;
    for (at, c) in text.char_indices() {
        let shape = escape(&text[at..at + c.len_utf8()]);
        let width = shape.chars().count();
        if shown + width > QUOTE {
            return format!("'{head}...'");
        }
        head.push_str(&shape);
        shown += width;
    }
    format!("'{head}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chats_are_cut_at_blanks_and_bounded() {
        assert_eq!(chat_pieces("short"), ["short"]);
        let words = "word ".repeat(60);
        let pieces = chat_pieces(&words);
        assert_eq!(pieces.len(), 3);
        assert!(
            pieces
                .iter()
                .all(|p| p.len() <= MAX_CHAT && !p.starts_with(' '))
        );
        assert!(pieces[0].ends_with("word") && pieces[1].ends_with("word"));
        let long = "x".repeat(1000);
        let pieces = chat_pieces(&long);
        assert_eq!(pieces.len(), MAX_CHATS);
        assert!(pieces[2].ends_with("...") && pieces[2].len() == MAX_CHAT);
    }

    #[test]
    fn quotes_are_escaped_then_cut_at_whole_escapes() {
        assert_eq!(quote("M00\r00"), "'M00\\r00'");
        let long = format!("X{}", "\u{1b}".repeat(50));
        let q = quote(&long);
        assert_eq!(q, format!("'X{}...'", "\\x1b".repeat(9)));
        assert_eq!(
            quote(&"x".repeat(QUOTE)),
            format!("'{}'", "x".repeat(QUOTE))
        );
        assert!(quote(&"x".repeat(QUOTE + 1)).ends_with("x...'"));
    }
}
