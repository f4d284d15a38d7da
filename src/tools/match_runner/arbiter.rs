//! The arbiter of one game: it keeps the board, the clocks and the rules,
//! asks each engine for its move in turn, and decides the result.
//!
//! Engines are only asked; they never decide. Every move is read against
//! the legal moves of the runner's own board (anything else loses), the
//! time is measured by the runner from `go` to `done`, and the game ends by
//! the variant's rules (no legal move, repetition, the no-progress rule,
//! endgame move counts), by optional adjudication, or by a failure of the
//! engine to move: a crash, a hang, a time forfeit or an illegal or
//! unreadable move. The engine that failed loses and is restarted.

use super::adjudication::{Adjudged, Adjudication, ScoreTrack};
use super::ballot::Opening;
use super::player::Player;
use super::tc::{Clock, TimeControl, format_seconds};
use crate::board::{Colour, Variant};
use crate::engine::GameKind;
use crate::engine::MoveReading;
use crate::notation::{MoveError, MoveFormat};
use crate::protocol::hubline::{format_line, parse_line};
use std::time::{Duration, Instant};
pub use tiao_core::GameResult;

/// A game this long is ended as a draw: the draw rules end every real game
/// far sooner, so reaching it means something is wrong, and the match must
/// not hang on it.
pub const MAX_PLIES: usize = 3000;

/// How a game ended, in the words of the PDN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TerminationKind {
    /// By the rules: no legal move, or a draw rule.
    Normal,
    Adjudication,
    TimeForfeit,
    /// An illegal or unreadable move, or `done` without a move.
    IllegalMove,
    /// The engine died, closed its output or could not be started.
    Crash,
    /// No answer within the move timeout (depth and node limits).
    Hang,
}

impl TerminationKind {
    /// Every kind.
    pub const ALL: [TerminationKind; 6] = [
        TerminationKind::Normal,
        TerminationKind::Adjudication,
        TerminationKind::TimeForfeit,
        TerminationKind::IllegalMove,
        TerminationKind::Crash,
        TerminationKind::Hang,
    ];

    /// The kind whose PDN `Termination` value is `text` (`--resume` reads
    /// the runner's own PDN back).
    pub fn from_pdn(text: &str) -> Option<TerminationKind> {
        Self::ALL.into_iter().find(|k| k.pdn() == text)
    }

    /// The PDN `Termination` value (PGN's vocabulary where it has a word).
    pub fn pdn(self) -> &'static str {
        match self {
            TerminationKind::Normal => "normal",
            TerminationKind::Adjudication => "adjudication",
            TerminationKind::TimeForfeit => "time forfeit",
            TerminationKind::IllegalMove => "rules infraction",
            TerminationKind::Crash => "abandoned",
            TerminationKind::Hang => "stalled connection",
        }
    }

    /// A short name for tables.
    pub fn short(self) -> &'static str {
        match self {
            TerminationKind::Normal => "by the rules",
            TerminationKind::Adjudication => "adjudicated",
            TerminationKind::TimeForfeit => "time forfeit",
            TerminationKind::IllegalMove => "illegal move",
            TerminationKind::Crash => "crash",
            TerminationKind::Hang => "hang (no answer)",
        }
    }

    /// Whether the engine to move failed (and so is restarted).
    pub fn is_failure(self) -> bool {
        !matches!(
            self,
            TerminationKind::Normal | TerminationKind::Adjudication
        )
    }
}

/// The PDN result token of `result` in `game` (international style for
/// international and Canadian draughts, `1-0` style for the rest).
pub fn pdn_result(result: GameResult, game: GameKind) -> &'static str {
    result.pdn(two_points(game))
}

/// The result a PDN result token of `game` names: the inverse of
/// [`pdn_result`], for games read back.
pub fn read_pdn_result(token: &str, game: GameKind) -> Option<GameResult> {
    GameResult::from_pdn(token, two_points(game))
}

/// International and Canadian draughts count a win as two points (`2-0`).
fn two_points(game: GameKind) -> bool {
    game.variant().is_some_and(Variant::international_results)
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub result: GameResult,
    pub kind: TerminationKind,
    /// What happened, in words (for the PDN and the logs).
    pub detail: String,
    /// The side whose engine failed, if one did.
    pub offender: Option<Colour>,
    /// The start position's FEN when the opening gave one.
    pub start_fen: Option<String>,
    /// Every move from the start position, opening included, in PDN notation.
    pub moves: Vec<String>,
    /// How many of `moves` are the opening's.
    pub opening_plies: usize,
}

/// The settings every game of a pairing shares.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub variant: GameKind,
    /// Time controls of White and Black.
    pub tc: [TimeControl; 2],
    /// Latency forgiven before a move counts as over time.
    pub margin: Duration,
    /// How long an engine may think without a clock before it is hung.
    pub move_timeout: Duration,
    /// How long the `new-game`/`ping` check before a game may take.
    pub sync_timeout: Duration,
    pub adjudication: Adjudication,
    /// Endgame databases for adjudication, if any.
    pub egdb: Option<super::adjudication::Tables>,
}

/// Why an engine did not produce a move.
struct Failure {
    kind: TerminationKind,
    detail: String,
}

/// An engine's answer to `go`.
struct Reply {
    mv: String,
    score: Option<f64>,
}

fn index(c: Colour) -> usize {
    usize::from(c != Colour::White)
}

/// The time a move had, in words.
fn allowance(clock: &Clock, allowed: Duration) -> String {
    if clock.is_move_time() {
        format!("its move time of {} s", format_seconds(allowed))
    } else {
        format!("the {} s left on its clock", format_seconds(allowed))
    }
}

/// Ask the engine to move: `pos`, `level`, `go think`, then read until
/// `done`, within the clock (plus margin) or the move timeout.
fn ask_move(
    player: &mut Player,
    start_hub: &str,
    moves: &[String],
    clock: &mut Clock,
    cfg: &GameConfig,
) -> Result<Reply, Failure> {
    let name = player.name.clone();
    let crash = |e: super::process::EngineError| Failure {
        kind: TerminationKind::Crash,
        detail: e.to_string(),
    };
    let Some(p) = player.process() else {
        return Err(Failure {
            kind: TerminationKind::Crash,
            detail: format!("engine {name} is not running"),
        });
    };
    p.drain().map_err(crash)?;
    let mut pos = vec![("pos", start_hub.to_string())];
    if !moves.is_empty() {
        pos.push(("moves", moves.join(" ")));
    }
    let budget = clock.start_move();
    p.send(&format_line("pos", &pos)).map_err(crash)?;
    p.send(&format_line("level", &budget.level))
        .map_err(crash)?;
    p.send("go think").map_err(crash)?;
    let t0 = Instant::now();
    let limit = budget.allowed.map_or(cfg.move_timeout, |a| a + cfg.margin);
    let deadline = t0 + limit;
    let mut score = None;
    let mut errors: Vec<String> = Vec::new();
    let (mv, used) = loop {
        let line = match p.recv_until(deadline).map_err(crash)? {
            Some(l) => l,
            None => {
                return Err(match budget.allowed {
                    Some(a) => Failure {
                        kind: TerminationKind::TimeForfeit,
                        detail: format!(
                            "{name} did not move within {} (+{} s margin)",
                            allowance(clock, a),
                            format_seconds(cfg.margin)
                        ),
                    },
                    None => Failure {
                        kind: TerminationKind::Hang,
                        detail: format!(
                            "{name} did not answer within the move timeout of {} s",
                            format_seconds(cfg.move_timeout)
                        ),
                    },
                });
            }
        };
        match parse_line(&line) {
            Ok(Some(l)) => match l.command.as_str() {
                "info" => {
                    if let Some(s) = l
                        .get("score")
                        .and_then(|s| s.trim().parse::<f64>().ok())
                        .filter(|s| s.is_finite())
                    {
                        score = Some(s);
                    }
                }
                "done" => break (l.get("move").map(str::to_string), t0.elapsed()),
                "error" => errors.push(l.get("message").unwrap_or(&line).to_string()),
                _ => log::debug!("{name}: ignoring '{line}'"),
            },
            Ok(None) => {}
            Err(e) => log::debug!("{name}: unreadable line '{line}': {e}"),
        }
    };
    if !clock.finish_move(used, cfg.margin) {
        return Err(Failure {
            kind: TerminationKind::TimeForfeit,
            detail: format!(
                "{name} took {:.3} s for its move, over {} (+{} s margin)",
                used.as_secs_f64(),
                budget
                    .allowed
                    .map(|a| allowance(clock, a))
                    .unwrap_or_default(),
                format_seconds(cfg.margin)
            ),
        });
    }
    match mv.filter(|m| !m.trim().is_empty()) {
        Some(mv) => Ok(Reply { mv, score }),
        None => Err(Failure {
            kind: TerminationKind::IllegalMove,
            detail: format!(
                "{name} answered 'done' without a move{}",
                if errors.is_empty() {
                    String::new()
                } else {
                    format!(" (its errors: {})", errors.join("; "))
                }
            ),
        }),
    }
}

/// Play one game from `opening` between `white` and `black`.
/// Errors only when the opening cannot be set up (checked before the match).
pub fn play_game(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    cfg: &GameConfig,
) -> Result<GameRecord, String> {
    let setup = opening.setup(cfg.variant)?;
    let mut session = setup.session;
    if let Some(tables) = &cfg.egdb {
        session.attach_tables(&tables.0);
    }
    let start_hub = setup.start_hub;
    let mut hub_moves = setup.hub_moves;
    // Games other than draughts write their own notation whatever the format.
    let pdn_format = MoveFormat::pdn_for(cfg.variant.variant().unwrap_or(Variant::International));
    // Gewu with throws: the arbiter throws, the same sequence for both games
    // of an opening pair (seeded by the opening), and tells the engine.
    let mut dice = Dice::new(opening.line as u64 ^ hash_text(&start_hub));
    let mut record = GameRecord {
        result: GameResult::Draw,
        kind: TerminationKind::Normal,
        detail: String::new(),
        offender: None,
        start_fen: setup.start_fen,
        moves: session.history(pdn_format),
        opening_plies: hub_moves.len(),
    };
    let lose = |mut record: GameRecord, side: Colour, f: Failure| {
        record.result = GameResult::Win(!side);
        record.kind = f.kind;
        record.detail = f.detail;
        record.offender = Some(side);
        record
    };

    for (side, player) in [(Colour::White, &mut *white), (Colour::Black, &mut *black)] {
        if let Err(e) = player.prepare_game(cfg.sync_timeout) {
            player.discard();
            let f = Failure {
                kind: TerminationKind::Crash,
                detail: format!("{} could not be made ready for the game: {e}", player.name),
            };
            return Ok(lose(record, side, f));
        }
    }

    let black_first = start_hub.starts_with('B');
    let mut clocks = [Clock::new(cfg.tc[0]), Clock::new(cfg.tc[1])];
    let mut scores = ScoreTrack::default();
    loop {
        if let Some(outcome) = session.outcome() {
            let detail = session.result_text().unwrap_or_default();
            record.result = outcome;
            record.detail = detail;
            return Ok(record);
        }
        if let Some(v) = session.tables_verdict() {
            let side = session.side();
            record.kind = TerminationKind::Adjudication;
            (record.result, record.detail) = match v {
                crate::game::Verdict::Win => (
                    GameResult::Win(side),
                    format!("endgame database: {} wins", side.name()),
                ),
                crate::game::Verdict::Loss => (
                    GameResult::Win(!side),
                    format!("endgame database: {} wins", (!side).name()),
                ),
                crate::game::Verdict::Draw => {
                    (GameResult::Draw, "endgame database: draw".to_string())
                }
            };
            return Ok(record);
        }
        let plies = hub_moves.len();
        let move_number = ((plies + usize::from(black_first)) / 2 + 1) as u32;
        if let Some(Adjudged { result, reason }) = scores.adjudge(&cfg.adjudication, move_number) {
            record.kind = TerminationKind::Adjudication;
            (record.result, record.detail) = (result, reason);
            return Ok(record);
        }
        if plies >= MAX_PLIES {
            record.kind = TerminationKind::Adjudication;
            record.detail = format!("draw: the game reached {MAX_PLIES} plies");
            return Ok(record);
        }
        if cfg.variant == GameKind::GewuDice {
            let throw = dice.throw();
            if let Err(e) = session.play(throw, MoveReading::Hub) {
                return Err(format!("the arbiter's throw was refused: {e}"));
            }
            hub_moves.push(throw.to_string());
        }
        let side = session.side();
        let player = if side == Colour::White {
            &mut *white
        } else {
            &mut *black
        };
        let reply = match ask_move(
            player,
            &start_hub,
            &hub_moves,
            &mut clocks[index(side)],
            cfg,
        ) {
            Ok(r) => r,
            Err(f) => {
                player.discard();
                return Ok(lose(record, side, f));
            }
        };
        // Canonical Hub text first (engines may list captured squares in
        // any order, or leave them out when unambiguous), then play it.
        let played = session
            .convert(&reply.mv, MoveReading::Hub, MoveFormat::Hub)
            .and_then(|hub| session.play(&hub, MoveReading::Hub).map(|pdn| (hub, pdn)));
        match played {
            Ok((hub, pdn)) => {
                hub_moves.push(hub);
                record.moves.push(pdn);
                if let Some(s) = reply.score {
                    scores.record(side, s);
                }
            }
            Err(e) => {
                let what = match e {
                    MoveError::Malformed { .. } => "an unreadable move",
                    MoveError::Illegal { .. } => "an illegal move",
                    MoveError::Ambiguous { .. } => "an ambiguous move",
                };
                let f = Failure {
                    kind: TerminationKind::IllegalMove,
                    detail: format!("{} played {what}: {e}", player.name),
                };
                player.discard();
                return Ok(lose(record, side, f));
            }
        }
    }
}

/// The arbiter's throws for Gewu with throws, seeded per opening.
struct Dice(crate::rng::Rng);

impl Dice {
    fn new(seed: u64) -> Dice {
        Dice(crate::rng::Rng::new(seed))
    }

    fn throw(&mut self) -> &'static str {
        // The high bits are SplitMix64's best as everywhere; a face is 1 in 4.
        crate::gewu::Throw::from_random(self.0.next_u64() >> 32).name()
    }
}

/// FNV-1a, to seed the dice from a position string.
fn hash_text(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
