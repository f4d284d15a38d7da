//! Running a match: check the engines, schedule the game pairs, play them on
//! `concurrency` worker threads, and collect the results on the main thread
//! (tallies, PDN, progress, the SPRT's stop) until all work is done.
//!
//! Each worker owns its engine processes, so no process is ever shared
//! between games at the same time. Results travel over a channel; only the
//! main thread writes the PDN and the display, so their order is simple.

use super::adjudication::Adjudication;
use super::arbiter::{GameConfig, GameRecord, play_game};
use super::ballot::Ballot;
use super::pdn_out::{GameInfo, PdnWriter, header, to_pdn};
use super::picture::render_svg;
use super::player::Player;
use super::process::EngineProcess;
use super::progress::Progress;
use super::report::{Heading, render};
use super::results::PairingResults;
use super::resume;
use super::schedule::{Format, PairJob, Pairing, opening_order, pairings, schedule};
use super::spec::EngineSpec;
use super::sprt::Sprt;
use super::tc::TimeControl;
use crate::board::Colour;
use crate::engine::GameKind;
use crate::notation::pdn::today;
use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Starts of one engine that may fail in a row before the match is given up.
const MAX_FAILED_STARTS: u32 = 3;

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub variant: GameKind,
    pub tc: TimeControl,
    /// Games per pairing (even: openings are played in pairs).
    pub games: u32,
    pub concurrency: usize,
    pub ballot: Ballot,
    /// Shuffle the openings with this seed.
    pub shuffle: Option<u64>,
    pub pdn: Option<PathBuf>,
    /// Go on from the games the PDN file holds (`--resume`).
    pub resume: bool,
    /// Where the picture of the result goes (`None`: no picture).
    pub svg: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudication,
    pub format: Format,
    pub margin: Duration,
    pub move_timeout: Duration,
    pub start_timeout: Duration,
    pub event: String,
    pub quiet: bool,
    /// Endgame databases for adjudication.
    pub egdb: Option<super::adjudication::Tables>,
}

/// What a finished match hands back.
pub struct MatchOutcome {
    pub names: Vec<String>,
    pub pairings: Vec<PairingResults>,
    pub report: String,
    /// Set when the match had to stop (an engine that cannot be started,
    /// a PDN file that cannot be written), or its picture cannot be written.
    pub error: Option<String>,
}

enum Message {
    Game {
        job: PairJob,
        /// 0: the first engine has White; 1: colours swapped.
        second_game: bool,
        record: GameRecord,
    },
    Fatal(String),
}

/// Start each engine once, to check it works before any game, and learn
/// the names they give themselves.
fn probe(cfg: &MatchConfig) -> Result<Vec<String>, String> {
    let mut names = Vec::with_capacity(cfg.engines.len());
    for spec in &cfg.engines {
        let p = EngineProcess::start(spec, cfg.variant, cfg.start_timeout)
            .map_err(|e| e.to_string())?;
        let name = spec
            .name
            .clone()
            .or_else(|| p.id_name.clone().filter(|n| !n.trim().is_empty()))
            .unwrap_or_else(|| spec.label());
        names.push(name);
        p.quit();
    }
    // Names must tell the engines apart in tables and PDN.
    let original = names.clone();
    for (i, name) in names.iter_mut().enumerate() {
        if original.iter().filter(|n| *n == name).count() > 1 {
            *name = format!("{name}-{}", i + 1);
        }
    }
    Ok(names)
}

/// What the workers share.
struct Shared<'a> {
    cfg: &'a MatchConfig,
    names: &'a [String],
    pairings: &'a [Pairing],
    specs: Vec<Arc<EngineSpec>>,
    queue: Mutex<VecDeque<PairJob>>,
    /// No new pairs (the SPRT decided, or a fatal error).
    stop: AtomicBool,
    /// No new games at all, not even the second of a pair.
    fatal: AtomicBool,
    /// Restarts of each engine, counted after every game: a match ended by
    /// SIGTERM reports them without waiting for the workers.
    restarts: Vec<AtomicU32>,
}

impl MatchConfig {
    /// The time control of engine `engine` (its own, or the match's).
    fn tc_of(&self, engine: usize) -> TimeControl {
        self.engines[engine].tc.unwrap_or(self.tc)
    }
}

impl Shared<'_> {
    fn next_job(&self) -> Option<PairJob> {
        if self.stop.load(Ordering::Acquire) {
            return None;
        }
        self.queue.lock().ok()?.pop_front()
    }
}

/// One worker: take pairs off the queue and play them.
fn worker(shared: &Shared, tx: Sender<Message>) {
    let cfg = shared.cfg;
    let mut players: HashMap<usize, Player> = HashMap::new();
    let count_restarts = |p: &mut Player| {
        shared.restarts[p.index].fetch_add(std::mem::take(&mut p.restarts), Ordering::Relaxed);
    };
    let retire = |p: &mut Player| {
        count_restarts(p);
        p.close();
    };
    'jobs: while let Some(job) = shared.next_job() {
        let pairing = shared.pairings[job.pairing];
        // Keep only this pair's engines running.
        let idle: Vec<usize> = players
            .keys()
            .copied()
            .filter(|&i| i != pairing.first && i != pairing.second)
            .collect();
        for i in idle {
            if let Some(mut p) = players.remove(&i) {
                retire(&mut p);
            }
        }
        let opening = &cfg.ballot.openings[job.opening];
        for second_game in [false, true] {
            if shared.fatal.load(Ordering::Acquire) {
                break 'jobs;
            }
            if !job.play[usize::from(second_game)] {
                continue;
            }
            let (w, b) = if second_game {
                (pairing.second, pairing.first)
            } else {
                (pairing.first, pairing.second)
            };
            let mut take = |i: usize| {
                players.remove(&i).unwrap_or_else(|| {
                    Player::new(
                        i,
                        shared.names[i].clone(),
                        shared.specs[i].clone(),
                        cfg.variant,
                        cfg.start_timeout,
                    )
                })
            };
            let mut white = take(w);
            let mut black = take(b);
            let game_cfg = GameConfig {
                variant: cfg.variant,
                tc: [cfg.tc_of(w), cfg.tc_of(b)],
                margin: cfg.margin,
                move_timeout: cfg.move_timeout,
                sync_timeout: cfg.start_timeout,
                adjudication: cfg.adjudication,
                egdb: cfg.egdb.clone(),
            };
            let played = play_game(&mut white, &mut black, opening, &game_cfg);
            count_restarts(&mut white);
            count_restarts(&mut black);
            let hopeless = [&white, &black]
                .into_iter()
                .find(|p| p.failed_starts >= MAX_FAILED_STARTS)
                .map(|p| p.name.clone());
            players.insert(w, white);
            players.insert(b, black);
            match played {
                Ok(record) => {
                    let detail = record.detail.clone();
                    let _ = tx.send(Message::Game {
                        job,
                        second_game,
                        record,
                    });
                    if let Some(name) = hopeless {
                        let _ = tx.send(Message::Fatal(format!(
                            "engine {name} failed to start {MAX_FAILED_STARTS} times in a row; \
                             the match is stopped ({detail})"
                        )));
                        break 'jobs;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Message::Fatal(format!(
                        "opening at line {} of {}: {e}",
                        opening.line, cfg.ballot.source
                    )));
                    break 'jobs;
                }
            }
        }
    }
    for (_, mut p) in players.drain() {
        retire(&mut p);
    }
}

/// How the match may be stopped from outside (`run` sets these from signals).
pub struct Stops<'a> {
    /// No game starts; the games under way are finished, and the report
    /// covers what was played (the user's Ctrl-C).
    pub interrupt: &'a AtomicBool,
    /// Stop now (SIGTERM): the games under way are abandoned, and
    /// `terminated` is handed the report of the finished games at once,
    /// without waiting for the workers (a batch system's grace period
    /// after SIGTERM is short). It does not return.
    pub terminate: &'a AtomicBool,
    pub terminated: fn(MatchOutcome) -> !,
}

/// Play the match, until its games are done, the SPRT decides, or `stops`
/// says so.
pub fn run_match(cfg: &MatchConfig, stops: &Stops) -> Result<MatchOutcome, String> {
    cfg.ballot.check(cfg.variant)?;
    let names = probe(cfg)?;
    let pairings = pairings(cfg.engines.len(), cfg.format);
    let order = opening_order(cfg.ballot.openings.len(), cfg.shuffle);
    let pairs_per_pairing = (cfg.games as usize).div_ceil(2);
    let all_jobs = schedule(pairings.len(), pairs_per_pairing, &order);
    let date = today();
    // Game `round` of the schedule: its pair, whether it is the pair's
    // second game, and what the PDN says of it before it is played.
    let game_of = |round: u32| {
        let job = *all_jobs.get((round as usize).checked_sub(1)? / 2)?;
        let second_game = round.is_multiple_of(2);
        let pairing = pairings[job.pairing];
        let (w, b) = if second_game {
            (pairing.second, pairing.first)
        } else {
            (pairing.first, pairing.second)
        };
        let info = GameInfo {
            event: &cfg.event,
            date: &date,
            round,
            white: &names[w],
            black: &names[b],
            variant: cfg.variant,
            tc: [cfg.tc_of(w), cfg.tc_of(b)],
            opening: &cfg.ballot.openings[job.opening],
            ballot: &cfg.ballot.source,
        };
        Some((job, second_game, info))
    };
    let past = match cfg.pdn.as_deref() {
        Some(path) if cfg.resume => resume::read(path, cfg.variant, |round| {
            game_of(round).map(|(_, _, info)| header(&info))
        })?,
        _ => Vec::new(),
    };
    let mut results: Vec<PairingResults> = pairings
        .iter()
        .map(|&p| PairingResults::new(p, cfg.sprt))
        .collect();
    let mut decided = None;
    let mut jobs = all_jobs.clone();
    for g in &past {
        let Some((job, second_game, _)) = game_of(g.round) else {
            continue;
        };
        jobs[(job.first_game / 2) as usize].play[usize::from(second_game)] = false;
        let first_colour = if second_game {
            Colour::Black
        } else {
            Colour::White
        };
        let r = &mut results[job.pairing];
        if let Some(stop) = r.add_past(job.first_game, first_colour, g.result, g.kind) {
            decided.get_or_insert(stop);
        }
    }
    // An SPRT that the earlier games decided plays nothing more.
    if decided.is_some() {
        jobs.clear();
    }
    jobs.retain(|j| j.games() > 0);
    let total_games: u64 = jobs.iter().map(PairJob::games).sum();
    let mut pdn = match cfg.pdn.as_deref() {
        Some(path) if cfg.resume => Some(PdnWriter::append(path, past.len())?),
        Some(path) => Some(PdnWriter::create(path)?),
        None => None,
    };
    let shared = Shared {
        cfg,
        names: &names,
        pairings: &pairings,
        specs: cfg.engines.iter().cloned().map(Arc::new).collect(),
        queue: Mutex::new(jobs.into_iter().collect()),
        stop: AtomicBool::new(false),
        fatal: AtomicBool::new(false),
        restarts: cfg.engines.iter().map(|_| AtomicU32::new(0)).collect(),
    };
    let workers = cfg.concurrency.clamp(1, (total_games as usize / 2).max(1));
    let mut progress = Progress::new(total_games, "games", cfg.quiet);
    if let (Some(stop), false) = (decided, cfg.quiet) {
        eprintln!(
            "SPRT: {} after {} pairs (LLR {:.2}) by the games of the earlier run",
            stop.decision.describe(),
            stop.pairs,
            stop.llr
        );
    }
    let started = Instant::now();
    let mut error: Option<String> = None;
    let mut played = 0u32;
    let mut scheduled = total_games;
    let mut ending = Ending::Done;
    // The report of what was played: at the end, or at once on SIGTERM.
    let conclude = |results: Vec<PairingResults>,
                    played: u32,
                    how: Ending,
                    error: Option<String>| {
        let restarts: Vec<u32> = shared
            .restarts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .collect();
        let tcs: Vec<String> = (0..cfg.engines.len())
            .map(|i| cfg.tc_of(i).to_string())
            .collect();
        let tc_text = if tcs.iter().all(|t| *t == tcs[0]) {
            tcs[0].clone()
        } else {
            names
                .iter()
                .zip(&tcs)
                .map(|(n, t)| format!("{n} {t}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let heading = Heading {
            names: &names,
            description: format!(
                "{}, {}, tc {tc_text}, openings {} ({})",
                cfg.format.name(),
                cfg.variant,
                cfg.ballot.source,
                plural_openings(cfg.ballot.openings.len())
            ),
            games: played + past.len() as u32,
            resumed: past.len() as u32,
            seconds: started.elapsed().as_secs_f64(),
            restarts: &restarts,
        };
        let mut report = render(&heading, &results);
        let mut error = error;
        if let (Some(path), false) = (&cfg.pdn, past.is_empty()) {
            let _ = writeln!(
                report,
                "\nresumed: {} games read back from {}, {played} played now (the time above is this run's)",
                past.len(),
                path.display()
            );
        }
        let stopped = match how {
            Ending::Done => None,
            Ending::Interrupted => Some(("interrupted (Ctrl-C)", "interrupted")),
            Ending::Terminated => Some(("terminated (SIGTERM)", "terminated by SIGTERM")),
        };
        if let Some((line, what)) = stopped {
            let _ = writeln!(report, "\n{line}: {played} of {total_games} games played");
            error.get_or_insert(format!(
                "the match was {what} after {played} games (the report covers them)"
            ));
        }
        if let Some(path) = &cfg.svg {
            match std::fs::write(path, render_svg(&heading, &results)) {
                Ok(()) => {
                    let _ = writeln!(report, "\npicture: {}", path.display());
                }
                Err(e) => {
                    error
                        .get_or_insert(format!("cannot write the picture {}: {e}", path.display()));
                }
            }
        }
        MatchOutcome {
            names: names.clone(),
            pairings: results,
            report,
            error,
        }
    };

    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        let handles: Vec<_> = (0..workers)
            .map(|i| {
                let tx = tx.clone();
                let shared = &shared;
                std::thread::Builder::new()
                    .name(format!("match-worker-{i}"))
                    .spawn_scoped(scope, move || worker(shared, tx))
            })
            .collect();
        drop(tx);
        if handles.iter().any(Result::is_err) {
            error = Some("cannot start the worker threads".into());
            shared.fatal.store(true, Ordering::Release);
            shared.stop.store(true, Ordering::Release);
        }
        // Nothing more will start: count only what is under way.
        let drain = |progress: &mut Progress, scheduled: &mut u64| {
            if let Ok(mut q) = shared.queue.lock()
                && !q.is_empty()
            {
                *scheduled -= q.iter().map(PairJob::games).sum::<u64>();
                q.clear();
                progress.set_total(*scheduled);
            }
        };
        loop {
            if stops.terminate.load(Ordering::Acquire) {
                progress.note("terminated (SIGTERM): abandoning the games under way");
                progress.finish();
                shared.fatal.store(true, Ordering::Release);
                shared.stop.store(true, Ordering::Release);
                // The PDN writer flushes after each game: nothing is lost.
                (stops.terminated)(conclude(
                    results.clone(),
                    played,
                    Ending::Terminated,
                    error.clone(),
                ));
            }
            if matches!(ending, Ending::Done) && stops.interrupt.load(Ordering::Acquire) {
                ending = Ending::Interrupted;
                progress.note(
                    "interrupted: finishing the games under way (Ctrl-C again stops at once)",
                );
                shared.stop.store(true, Ordering::Release);
                drain(&mut progress, &mut scheduled);
            }
            let msg = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(msg) => msg,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            match msg {
                Message::Fatal(e) => {
                    progress.note(&format!("match stopped: {e}"));
                    error.get_or_insert(e);
                    shared.fatal.store(true, Ordering::Release);
                    shared.stop.store(true, Ordering::Release);
                }
                Message::Game {
                    job,
                    second_game,
                    record,
                } => {
                    played += 1;
                    let pairing = pairings[job.pairing];
                    let round = job.first_game + u32::from(second_game);
                    if record.kind.is_failure() {
                        progress.note(&format!("game {round}: {}", record.detail));
                    }
                    if let (Some(writer), Some((_, _, info))) = (pdn.as_mut(), game_of(round))
                        && let Err(e) = writer.write(&to_pdn(&record, &info))
                    {
                        let e = format!("cannot write the PDN file: {e}");
                        progress.note(&e);
                        error.get_or_insert(e);
                        shared.fatal.store(true, Ordering::Release);
                        shared.stop.store(true, Ordering::Release);
                    }
                    let first_colour = if second_game {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let r = &mut results[job.pairing];
                    if let Some(stop) = r.add(job.first_game, first_colour, &record) {
                        progress.note(&format!(
                            "SPRT: {} after {} pairs (LLR {:.2}); finishing the games under way",
                            stop.decision.describe(),
                            stop.pairs,
                            stop.llr
                        ));
                        shared.stop.store(true, Ordering::Release);
                    }
                    if shared.stop.load(Ordering::Acquire) {
                        drain(&mut progress, &mut scheduled);
                    }
                    let status = if results.len() == 1 {
                        results[0].status()
                    } else {
                        format!(
                            "{} vs {}: {}",
                            names[pairing.first],
                            names[pairing.second],
                            results[job.pairing].status()
                        )
                    };
                    progress.advance(&status);
                }
            }
        }
        for h in handles.into_iter().flatten() {
            if h.join().is_err() {
                error.get_or_insert("a match worker failed".into());
            }
        }
    });
    progress.finish();
    Ok(conclude(results, played, ending, error))
}

/// How a match ended, for its report.
#[derive(Clone, Copy)]
enum Ending {
    Done,
    Interrupted,
    Terminated,
}

fn plural_openings(n: usize) -> String {
    if n == 1 {
        "1 opening".into()
    } else {
        format!("{n} openings")
    }
}
