//! One game on a connection, in either role: whose turn it is decides
//! everything. On Tiao's turn it ends the game with `E` if the rules say it
//! is over (`E10` without a move, `E20` for a draw), or searches on a
//! blocking thread while still reading the socket; on the peer's turn it
//! waits for a move, bounded by the peer's clock plus a grace period.
//! Either way an `E` from the peer is acknowledged, a `B` takes moves back,
//! and anything else is answered with a chat and left without effect.
//! With `--ponder`, Tiao searches on the peer's time the position after the
//! reply it expects; when the peer plays that reply the search goes on as
//! Tiao's own, its pondering counted toward the move's time (so a long
//! enough ponder is answered at once), and any other message ends it.
//! When the game ends, however it ends, it is appended to the PDN file and
//! counted.

use super::clock::Clocks;
use super::connection::{Connection, Stop};
use super::game::GameSpec;
use super::game::{
    back_ply, ended_by_rules, hub_text, move_message, moves_made, play_peer_move, reason_for,
    result_of_peer_end, setup_of,
};
use super::message::{
    AcceptCode, BackCode, BackRequest, EndReason, GameEnd, Message, MoveMessage, ParseError,
};
use super::record::{GameInfo, pdn_game};
use super::search::Thinking;
use crate::board::{Colour, Variant};
use crate::engine::{Decision, Engine, MoveReading};
use crate::notation::MoveFormat;
use crate::search::time::allocate;
use crate::search::{Limits, Mode, Params};
use tiao_core::GameResult;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Instant;

/// How a game ended.
struct Ending {
    /// Who won; `None`: unfinished.
    result: Option<GameResult>,
    termination: String,
}

/// What a turn led to.
enum Turn {
    /// A move was played or taken back: look at the position again.
    Continue,
    Ended(Ending),
}

/// A game in progress.
struct Board {
    spec: GameSpec,
    start_side: Colour,
    clocks: Clocks,
    /// The search on the peer's time, while there is one (it holds the
    /// engine, with the expected reply played).
    pondering: Option<Pondering>,
}

/// A search on the peer's time (`--ponder`): the position after the reply
/// Tiao expects, searched while the peer thinks.
struct Pondering {
    thinking: Thinking,
    /// The expected reply, in Hub form and as the peer would send it.
    expected: String,
    message: MoveMessage,
    started: Instant,
    /// The limits of Tiao's move after that reply.
    limits: Limits,
}

/// Whether the peer's move is the expected one: the same squares and the
/// same captured pieces, in any order.
fn same_move(sent: &MoveMessage, expected: &MoveMessage) -> bool {
    let mut a = sent.captured.clone();
    let mut b = expected.captured.clone();
    a.sort_unstable();
    b.sort_unstable();
    sent.from == expected.from && sent.to == expected.to && a == b
}

impl<R, W> Connection<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send,
{
    /// Play one game from the engine's current position (already
    /// set up) and record it.
    pub(super) async fn play(&mut self, spec: GameSpec) -> Result<(), Stop> {
        let engine = self.ensure_engine().await?;
        engine.new_game();
        let start_side = engine.side_to_move();
        let start_fen = setup_of(&engine.hub_position()).map(|_| engine.fen());
        self.round += 1;
        // PDN writes an unknown name as "?" (a peer may send a blank name).
        let peer = match self.peer_name.trim() {
            "" => "?".to_string(),
            name => name.to_string(),
        };
        let (white, black) = match spec.tiao {
            Colour::White => (self.config().name.clone(), peer),
            Colour::Black => (peer, self.config().name.clone()),
        };
        let info = GameInfo {
            event: self.config().event.clone(),
            site: format!("DXP, {}", self.peer_addr),
            round: self.round,
            white,
            black,
            time: spec.time,
            moves: spec.moves,
            start_fen,
        };
        log::info!(
            "dxp: game {} starts, Tiao plays {}",
            self.round,
            spec.tiao.name()
        );
        let mut board = Board {
            spec,
            start_side,
            clocks: Clocks::new(spec.time, spec.moves),
            pondering: None,
        };
        board.clocks.start(start_side, Instant::now());
        let played = self.game_loop(&mut board).await;
        let (result, termination) = match &played {
            Ok(e) => (e.result, e.termination.clone()),
            Err(stop) => (None, stop.describe()),
        };
        log::info!(
            "dxp: clocks at the end: {}",
            board.clocks.describe(Instant::now())
        );
        self.record(&info, result, &termination).await;
        self.tally.add(result, spec.tiao);
        played?;
        match self.ended_after_game.take() {
            Some(stop) => Err(stop),
            None => Ok(()),
        }
    }

    /// Append the game to the PDN file and report it on stdout.
    async fn record(&mut self, info: &GameInfo, result: Option<GameResult>, termination: &str) {
        let moves = self
            .engine
            .as_ref()
            .map(|e| e.history(MoveFormat::pdn_for(Variant::International)))
            .unwrap_or_default();
        let game = pdn_game(info, moves, result, termination);
        let shared = self.shared.clone();
        let written = tokio::task::spawn_blocking(move || shared.pdn.append(&game)).await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => log::error!(
                "dxp: cannot write {}: {e}",
                self.shared.pdn.path().display()
            ),
            Err(e) => log::error!("dxp: cannot write the game record: {e}"),
        }
        super::stdout_line(&format!(
            "game {}: {} - {} {} ({termination})",
            info.round,
            info.white,
            info.black,
            super::record::pdn_result(result)
        ));
    }

    async fn game_loop(&mut self, board: &mut Board) -> Result<Ending, Stop> {
        loop {
            if board.pondering.is_some() {
                // The engine is pondering: it is the peer's turn.
                if let Turn::Ended(e) = self.await_peer(board).await? {
                    return Ok(e);
                }
                continue;
            }
            let engine = self.ensure_engine().await?;
            let side = engine.side_to_move();
            let by_rules = ended_by_rules(engine);
            let turn = if side == board.spec.tiao {
                match by_rules {
                    Some(o) => Turn::Ended(self.end_game(board, o).await?),
                    None => self.think(board).await?,
                }
            } else {
                self.await_peer(board).await?
            };
            if let Turn::Ended(e) = turn {
                return Ok(e);
            }
        }
    }

    /// The limits of Tiao's move once `plies` plies are played.
    fn limits_for(&self, board: &Board, plies: usize) -> Limits {
        match self.config().move_time {
            Some(t) => Limits::move_time(t),
            None => board.clocks.limits(
                board.spec.tiao,
                moves_made(board.start_side, plies, board.spec.tiao),
                Instant::now(),
            ),
        }
    }

    /// Tiao's turn: search, and meanwhile keep answering the peer.
    async fn think(&mut self, board: &mut Board) -> Result<Turn, Stop> {
        let engine = self.ensure_engine().await?;
        let plies = engine.history(MoveFormat::Hub).len();
        let limits = self.limits_for(board, plies);
        let Some(engine) = self.engine.take() else {
            return Err(Stop::Abort("the engine is not available".into()));
        };
        let thinking = Thinking::start(engine, Params::think(limits));
        self.finish_thinking(board, thinking, None).await
    }

    /// Wait for a search's decision while answering the peer (stopping the
    /// search at `stop_at`, if given), then play its move; with `--ponder`,
    /// start pondering on the reply it expects.
    async fn finish_thinking(
        &mut self,
        board: &mut Board,
        mut thinking: Thinking,
        mut stop_at: Option<Instant>,
    ) -> Result<Turn, Stop> {
        loop {
            let timer = async move {
                match stop_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                done = thinking.finished() => {
                    let (engine, decision) = done
                        .map_err(|e| Stop::Abort(format!("the search failed: {e}")))?;
                    self.engine = Some(engine);
                    if let Decision::Book(choice) = &decision {
                        log::info!("dxp: {}", choice.text());
                    }
                    let expected = decision.ponder().map(str::to_string);
                    let turn = self.play_our_move(board, decision.best().map(str::to_string)).await?;
                    if self.config().engine.ponder {
                        self.start_pondering(board, expected);
                    }
                    return Ok(turn);
                }
                () = timer => {
                    thinking.stop();
                    stop_at = None;
                }
                read = self.read(None) => {
                    let incoming = match read {
                        Ok(Some(i)) => i,
                        Ok(None) => continue,
                        Err(stop) => {
                            self.take_engine_back(&mut thinking).await;
                            return Err(stop);
                        }
                    };
                    match incoming.message {
                        Ok(Message::End(end)) => {
                            self.take_engine_back(&mut thinking).await;
                            return Ok(Turn::Ended(self.peer_ended(board, end).await?));
                        }
                        Ok(Message::BackRequest(req)) => {
                            self.take_engine_back(&mut thinking).await;
                            self.take_back(board, req).await?;
                            return Ok(Turn::Continue);
                        }
                        Ok(Message::Move(_)) => {
                            self.complain(&incoming.text, "not your turn: Tiao is to move").await?;
                        }
                        _ => self.in_game_other(incoming).await?,
                    }
                }
            }
        }
    }

    /// After Tiao's move: search on the peer's time the position after the
    /// reply Tiao expects, unless there is nothing to think about (no
    /// expected reply, a game the move or the reply ends).
    fn start_pondering(&mut self, board: &mut Board, expected: Option<String>) {
        let Some(expected) = expected else {
            return;
        };
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let message = move_message(&expected, 0);
        let playable = message.is_some()
            && ended_by_rules(&engine).is_none()
            && engine.play(&expected, MoveReading::Hub).is_ok();
        let Some(message) = message.filter(|_| playable) else {
            self.engine = Some(engine);
            return;
        };
        if ended_by_rules(&engine).is_some() {
            engine.undo();
            self.engine = Some(engine);
            return;
        }
        let plies = engine.history(MoveFormat::Hub).len();
        let limits = self.limits_for(board, plies);
        log::info!(
            "dxp: pondering on {expected} ({})",
            Message::Move(message.clone()).encode()
        );
        let params = Params {
            mode: Mode::Ponder,
            ..Params::think(limits.clone())
        };
        board.pondering = Some(Pondering {
            thinking: Thinking::start(engine, params),
            expected,
            message,
            started: Instant::now(),
            limits,
        });
    }

    /// End the search on the peer's time, if there is one, and take the
    /// engine back as it was before the expected reply.
    async fn stop_pondering(&mut self, board: &mut Board) {
        let Some(mut pondering) = board.pondering.take() else {
            return;
        };
        self.take_engine_back(&mut pondering.thinking).await;
        if let Some(engine) = self.engine.as_mut() {
            engine.undo();
        }
    }

    /// The peer played the expected reply: the ponder search becomes
    /// Tiao's, with what is left of the move's time once the pondering is
    /// counted (none left: answered at once).
    async fn ponder_hit(&mut self, board: &mut Board) -> Result<Turn, Stop> {
        let Some(pondering) = board.pondering.take() else {
            return Ok(Turn::Continue);
        };
        let pondered = pondering.started.elapsed();
        let deadlines = allocate(&pondering.limits);
        pondering.thinking.ponder_hit();
        let stop_at = match deadlines.soft.or(deadlines.hard) {
            Some(budget) if pondered < budget => Some(Instant::now() + (budget - pondered)),
            _ => {
                pondering.thinking.stop();
                None
            }
        };
        log::info!(
            "dxp: ponder hit on {} after {:.2} s of pondering{}",
            pondering.expected,
            pondered.as_secs_f64(),
            if stop_at.is_none() {
                "; answered at once"
            } else {
                ""
            }
        );
        self.finish_thinking(board, pondering.thinking, stop_at)
            .await
    }

    /// Stop the search and take the engine back (its answer is not wanted).
    async fn take_engine_back(&mut self, thinking: &mut Thinking) {
        thinking.stop();
        match thinking.finished().await {
            Ok((engine, _)) => self.engine = Some(engine),
            Err(e) => log::error!("dxp: the search failed: {e}"),
        }
    }

    /// Play the search's move on the board and send it.
    async fn play_our_move(
        &mut self,
        board: &mut Board,
        best: Option<String>,
    ) -> Result<Turn, Stop> {
        let used = board.clocks.stop(Instant::now());
        let engine: &mut Engine = self.ensure_engine().await?;
        // The search's move is legal; the first legal move is only a
        // safety net so that a surprise never stalls a game.
        let legal = engine.legal_moves(MoveFormat::Hub);
        let hub = best
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().cloned())
            .ok_or_else(|| Stop::Abort("Tiao has no move to play".into()))?;
        engine
            .play(&hub, MoveReading::Hub)
            .map_err(|e| Stop::Abort(format!("cannot play Tiao's own move {hub}: {e}")))?;
        let seconds = used.as_secs_f64().round() as u32;
        let message = move_message(&hub, seconds)
            .ok_or_else(|| Stop::Abort(format!("cannot write Tiao's move {hub} for DXP")))?;
        self.send(Message::Move(message)).await?;
        board.clocks.start(!board.spec.tiao, Instant::now());
        Ok(Turn::Continue)
    }

    /// The peer's turn: wait for its move, within its clock plus the grace
    /// period. However the wait ends, a ponder search is over with it (a
    /// hit hands it on as Tiao's search).
    async fn await_peer(&mut self, board: &mut Board) -> Result<Turn, Stop> {
        let turn = self.await_peer_move(board).await;
        if turn.is_err() {
            self.stop_pondering(board).await;
        }
        turn
    }

    async fn await_peer_move(&mut self, board: &mut Board) -> Result<Turn, Stop> {
        let timeout = self.config().timeout;
        let now = Instant::now();
        let deadline = now + board.clocks.left(!board.spec.tiao, now) + timeout;
        loop {
            let Some(incoming) = self.read(Some(deadline)).await? else {
                return Err(Stop::Abort(format!(
                    "no move from the peer within its clock and {} s more; game abandoned",
                    timeout.as_secs_f64()
                )));
            };
            match incoming.message {
                Ok(Message::Move(m)) => {
                    if let Some(pondering) = &board.pondering {
                        if same_move(&m, &pondering.message) {
                            board.clocks.start(board.spec.tiao, Instant::now());
                            return self.ponder_hit(board).await;
                        }
                        log::info!(
                            "dxp: ponder miss: expected {}, the peer played {}",
                            pondering.expected,
                            hub_text(&m)
                        );
                        self.stop_pondering(board).await;
                    }
                    let engine = self.ensure_engine().await?;
                    if let Some(o) = ended_by_rules(engine) {
                        // The rules ended the game before this move: say so, as
                        // Tiao would have on its turn.
                        self.complain(
                            &incoming.text,
                            &format!("the game is already over ({})", o.1),
                        )
                        .await?;
                        return Ok(Turn::Ended(self.end_game(board, o).await?));
                    }
                    match play_peer_move(engine, &m) {
                        Ok(_) => {
                            board.clocks.start(board.spec.tiao, Instant::now());
                            return Ok(Turn::Continue);
                        }
                        Err(e) => {
                            let why = format!("{e}; send a legal move with its captured squares");
                            self.complain(&incoming.text, &why).await?;
                        }
                    }
                }
                Ok(Message::End(end)) => {
                    self.stop_pondering(board).await;
                    return Ok(Turn::Ended(self.peer_ended(board, end).await?));
                }
                Ok(Message::BackRequest(req)) => {
                    self.stop_pondering(board).await;
                    self.take_back(board, req).await?;
                    return Ok(Turn::Continue);
                }
                _ => self.in_game_other(incoming).await?,
            }
        }
    }

    /// Messages during a game other than M, E and B.
    async fn in_game_other(&mut self, incoming: super::codec::Incoming) -> Result<(), Stop> {
        match incoming.message {
            Ok(Message::Chat(_)) => self.log_chat(&incoming.text),
            Ok(Message::Request(_)) | Err(ParseError::BadRequest(_)) => {
                self.chat("a game is in progress; game request refused")
                    .await?;
                self.answer_request(AcceptCode::RefuseThis).await?;
            }
            Err(ParseError::BadVersion(v)) => {
                self.chat(&ParseError::BadVersion(v).to_string()).await?;
                self.answer_request(AcceptCode::WrongVersion).await?;
            }
            Ok(Message::Accept(_)) => {
                self.complain(&incoming.text, "a game is already in progress")
                    .await?
            }
            Ok(Message::BackAccept(_)) => {
                self.complain(&incoming.text, "Tiao asked for no take-back")
                    .await?
            }
            Err(e) => self.complain(&incoming.text, &e.to_string()).await?,
            // M, E and B are the caller's.
            Ok(Message::Move(_) | Message::End(_) | Message::BackRequest(_)) => {}
        }
        Ok(())
    }

    /// The peer ended the game: acknowledge, and let the board decide.
    async fn peer_ended(&mut self, board: &mut Board, end: GameEnd) -> Result<Ending, Stop> {
        board.clocks.stop(Instant::now());
        if end.stop {
            log::info!(
                "dxp: {} asks to stop the match after this game",
                self.peer_addr
            );
        }
        let engine = self.ensure_engine().await?;
        let (result, termination) =
            result_of_peer_end(ended_by_rules(engine), end.reason, board.spec.tiao);
        let ack = Message::End(GameEnd {
            reason: EndReason::None,
            stop: board.spec.stop_after,
        });
        // The game is over whether or not the acknowledgement gets through.
        if let Err(stop) = self.send(ack).await {
            self.ended_after_game = Some(stop);
        }
        Ok(Ending {
            result,
            termination,
        })
    }

    /// The rules ended the game on Tiao's turn: send `E` and wait for the acknowledgement.
    async fn end_game(
        &mut self,
        board: &mut Board,
        (result, why): (GameResult, String),
    ) -> Result<Ending, Stop> {
        board.clocks.stop(Instant::now());
        let ending = Ending {
            result: Some(result),
            termination: why,
        };
        let end = Message::End(GameEnd {
            reason: reason_for(result, board.spec.tiao),
            stop: board.spec.stop_after,
        });
        if let Err(stop) = self.send(end).await {
            // The rules have spoken; only the news did not get through.
            self.ended_after_game = Some(stop);
            return Ok(ending);
        }
        let timeout = self.config().timeout;
        let deadline = Instant::now() + timeout;
        loop {
            let incoming = match self.read(Some(deadline)).await {
                Ok(Some(i)) => i,
                Ok(None) => {
                    // The result stands; a peer that does not confirm it only loses time.
                    log::warn!(
                        "dxp: {} did not acknowledge the end of the game",
                        self.peer_addr
                    );
                    return Ok(ending);
                }
                Err(stop) => {
                    // Gone without acknowledging: the result stands all the same.
                    self.ended_after_game = Some(stop);
                    return Ok(ending);
                }
            };
            match incoming.message {
                Ok(Message::End(e)) => {
                    if e.stop {
                        log::info!("dxp: {} asks to stop the match", self.peer_addr);
                    }
                    return Ok(ending);
                }
                // The next game's request: the peer took the game as over.
                Ok(Message::Request(_))
                | Err(ParseError::BadRequest(_) | ParseError::BadVersion(_)) => {
                    self.push_back(incoming);
                    return Ok(ending);
                }
                Ok(Message::Chat(_)) => self.log_chat(&incoming.text),
                Ok(Message::BackRequest(_)) => {
                    self.chat("the game is over: nothing to take back").await?;
                    self.send(Message::BackAccept(BackCode::Declined)).await?;
                }
                Ok(Message::Move(_)) => {
                    let why = format!("the game is over ({})", ending.termination);
                    self.complain(&incoming.text, &why).await?;
                }
                _ => self.in_game_other(incoming).await?,
            }
        }
    }

    /// A take-back request: go back to the position it names, if the game reached it.
    async fn take_back(&mut self, board: &mut Board, req: BackRequest) -> Result<(), Stop> {
        let engine = self.ensure_engine().await?;
        let plies = engine.history(MoveFormat::Hub).len();
        match back_ply(board.start_side, &req) {
            Some(target) if target <= plies => {
                for _ in target..plies {
                    engine.undo();
                }
                let side = engine.side_to_move();
                board.clocks.start(side, Instant::now());
                log::info!(
                    "dxp: took back {} plies, to move {} for {}",
                    plies - target,
                    req.move_number,
                    req.colour.name()
                );
                self.send(Message::BackAccept(BackCode::Accepted)).await
            }
            _ => {
                self.chat(&format!(
                    "cannot take back to move {} for {}: the game has not reached it; declined",
                    req.move_number,
                    req.colour.name(),
                ))
                .await?;
                self.send(Message::BackAccept(BackCode::Declined)).await
            }
        }
    }
}
