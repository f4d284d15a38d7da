//! A draughts game of one rule set as a [`Session`]: the bridge between
//! text (FEN, Hub strings, move notation) and the typed game and search.

use super::{GameKind, Knowledge, MoveReading, PerftLine, Session, TablesOpen};
use std::path::Path;
use std::sync::Arc;
use tiao_core::game::Evaluate;
use tiao_core::game::Verdict;
use tiao_draughts::board::{Colour, Move, Outcome as GameOutcome, Position, Rules, Word, diagram};
use tiao_draughts::movegen::{Counting, perft, perft_divide, perft_parallel};
use tiao_draughts::notation::{
    MoveError, MoveFormat, legal_moves_text, read_fen, read_hub_move, read_hub_position, read_move,
    write_fen, write_hub_position, write_move,
};
use tiao_draughts::record::GameHistory;
use tiao_knowledge::endgame::{Distance, Egdb, EgdbRules, VariantEgdb, Wdl};
use tiao_knowledge::eval::Term;
use tiao_knowledge::eval::pattern_select::WithEvaluator;
use tiao_search::{Extras, Info, Params, Root, SearchResult, Searcher, Tablebase};

/// A game of rule set `R`, with the endgame tables of `R` when they are open.
pub struct DraughtsSession<R: Rules> {
    game: GameHistory<R>,
    egdb: Option<Arc<Egdb<R>>>,
}

impl<R: Rules> Default for DraughtsSession<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> DraughtsSession<R> {
    pub fn new() -> Self {
        DraughtsSession {
            game: GameHistory::new(Position::start()),
            egdb: None,
        }
    }

    pub fn game(&self) -> &GameHistory<R> {
        &self.game
    }

    fn read(
        &self,
        pos: &Position<R>,
        text: &str,
        reading: MoveReading,
    ) -> Result<Move<Word<R>>, MoveError> {
        match reading {
            MoveReading::Hub => read_hub_move(pos, text),
            MoveReading::Any => read_move(pos, text),
        }
    }

    /// A list of moves played in turn from `pos`, as text.
    fn line(pos: &Position<R>, moves: &[Move<Word<R>>], format: MoveFormat) -> Vec<String> {
        let mut p = *pos;
        moves
            .iter()
            .map(|mv| {
                let t = write_move(&p, mv, format);
                p = p.play(mv);
                t
            })
            .collect()
    }

    fn root(&self) -> Root<Position<R>> {
        Root {
            position: *self.game.position(),
            counters: self.game.counters(),
            history: self.game.reversible_hashes(),
        }
    }
}

impl<R: EgdbRules> Session for DraughtsSession<R> {
    fn kind(&self) -> GameKind {
        GameKind::Draughts(R::VARIANT)
    }

    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(DraughtsSession {
            game: self.game.clone(),
            egdb: self.egdb.clone(),
        })
    }

    fn reset(&mut self) {
        self.game = GameHistory::new(Position::start());
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        let pos = read_fen::<R>(fen).map_err(|e| e.to_string())?;
        self.game = GameHistory::new(pos);
        Ok(())
    }

    fn set_hub_position(&mut self, text: &str) -> Result<(), String> {
        let pos = read_hub_position::<R>(text).map_err(|e| e.to_string())?;
        self.game = GameHistory::new(pos);
        Ok(())
    }

    fn play(&mut self, text: &str, reading: MoveReading) -> Result<String, MoveError> {
        let pos = *self.game.position();
        let mv = self.read(&pos, text, reading)?;
        let written = write_move(&pos, &mv, MoveFormat::pdn_for(R::VARIANT));
        self.game.play(mv);
        Ok(written)
    }

    fn play_all(&mut self, moves: &[&str], reading: MoveReading) -> Result<(), (usize, MoveError)> {
        let mut game = self.game.clone();
        for (i, text) in moves.iter().enumerate() {
            let mv = self
                .read(game.position(), text, reading)
                .map_err(|e| (i, e))?;
            game.play(mv);
        }
        self.game = game;
        Ok(())
    }

    fn undo(&mut self) -> Option<String> {
        let mv = self.game.undo()?;
        Some(write_move(
            self.game.position(),
            &mv,
            MoveFormat::pdn_for(R::VARIANT),
        ))
    }

    fn side(&self) -> Colour {
        self.game.position().side()
    }

    fn fen(&self) -> String {
        write_fen(self.game.position())
    }

    fn hub_position(&self) -> String {
        write_hub_position(self.game.position())
    }

    fn diagram(&self) -> String {
        diagram(self.game.position())
    }

    fn legal_moves(&self, format: MoveFormat) -> Vec<String> {
        legal_moves_text(self.game.position(), format)
            .into_iter()
            .map(|(_, t)| t)
            .collect()
    }

    fn history(&self, format: MoveFormat) -> Vec<String> {
        Self::line(self.game.start(), self.game.moves(), format)
    }

    fn book_key(&self) -> Option<(u64, u32)> {
        Some((self.game.position().hash(), self.game.moves().len() as u32))
    }

    fn open_tables(&mut self, dir: &Path, pieces: u32) -> TablesOpen {
        self.egdb = None;
        let (egdb, damaged) = match Egdb::<R>::open_checked(dir, pieces) {
            Ok(checked) => (checked.egdb, checked.damaged),
            Err(e) => (Err(e), Vec::new()),
        };
        let damaged = damaged.iter().map(ToString::to_string).collect();
        match egdb {
            Ok(db) => {
                let pieces = db.pieces();
                self.egdb = Some(Arc::new(db));
                TablesOpen::Opened { pieces, damaged }
            }
            Err(e) => TablesOpen::Failed {
                error: e.to_string(),
                damaged,
            },
        }
    }

    fn attach_tables(&mut self, tables: &VariantEgdb) -> bool {
        self.egdb = R::tables(tables).cloned();
        self.egdb.is_some()
    }

    fn close_tables(&mut self) {
        self.egdb = None;
    }

    fn tables_verdict(&self) -> Option<Verdict> {
        let db = self.egdb.as_deref()?;
        Tablebase::probe(db, self.game.position(), &self.game.counters())
    }

    fn database_move(&self, format: MoveFormat) -> Option<(String, Verdict, i32)> {
        let db = self.egdb.as_deref()?;
        let pos = self.game.position();
        match database_choice(db, pos)? {
            (moves, Some(score)) if moves.len() == 1 => {
                let verdict = if score > 0 {
                    Verdict::Win
                } else {
                    Verdict::Loss
                };
                Some((write_move(pos, &moves[0], format), verdict, score))
            }
            _ => None,
        }
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.game.outcome()
    }

    fn convert(
        &self,
        text: &str,
        reading: MoveReading,
        format: MoveFormat,
    ) -> Result<String, MoveError> {
        let pos = self.game.position();
        let mv = self.read(pos, text, reading)?;
        Ok(write_move(pos, &mv, format))
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        know: &Knowledge,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> SearchResult<String> {
        let root = self.root();
        let pos = root.position;
        let egdb = self.egdb.as_deref();
        // The moves the databases keep, if they cover the position (the
        // move they name as the one best is [`Session::database_move`]'s).
        let choice = egdb.and_then(|db| database_choice(db, &pos));
        let only = choice.map(|(moves, _)| moves);
        let extras = Extras {
            tablebase: egdb.map(|db| db as &dyn Tablebase<Position<R>>),
            root_moves: only.as_deref(),
        };
        let report =
            |info: &Info<Move<Word<R>>>| report(&info.with_pv(Self::line(&pos, &info.pv, format)));
        // The search is compiled per evaluator: the choice is made here, once.
        let out = know.eval.with_evaluator(Search {
            searcher,
            root: &root,
            extras: &extras,
            params,
            report: &report,
        });
        out.with_pv(Self::line(&pos, &out.pv, format))
    }

    fn evaluate(&self, know: &Knowledge) -> (i32, Vec<Term>) {
        use tiao_core::game::Evaluate;
        let eval = &*know.eval;
        let pos = self.game.position();
        (eval.evaluate(pos), eval.terms(pos))
    }

    fn perft(
        &self,
        depth: u32,
        divide: bool,
        bulk: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        let pos = self.game.position();
        let counting = if bulk {
            Counting::Bulk
        } else {
            Counting::MakeEveryMove
        };
        if divide {
            let lines = perft_divide(pos, depth, counting, pool);
            let total = lines.iter().map(|(_, n)| n).sum();
            let mut out: Vec<PerftLine> = lines
                .into_iter()
                .map(|(mv, n)| PerftLine {
                    mv: Some(write_move(pos, &mv, MoveFormat::pdn_for(R::VARIANT))),
                    nodes: n,
                })
                .collect();
            out.push(PerftLine {
                mv: None,
                nodes: total,
            });
            out
        } else {
            let nodes = match pool {
                Some(pool) => perft_parallel(pos, depth, counting, pool),
                None => perft(pos, depth, counting),
            };
            vec![PerftLine { mv: None, nodes }]
        }
    }
}

/// A search of a draughts position, waiting for its evaluator.
struct Search<'a, R: Rules> {
    searcher: &'a mut Searcher,
    root: &'a Root<Position<R>>,
    extras: &'a Extras<'a, Position<R>>,
    params: &'a Params,
    report: &'a Report<'a, R>,
}

/// What the search reports to, in typed moves.
type Report<'a, R> = dyn Fn(&Info<Move<Word<R>>>) + Sync + 'a;

impl<R: Rules> WithEvaluator<R> for Search<'_, R> {
    type Output = SearchResult<Move<Word<R>>>;
    fn run<E: Evaluate<Position<R>>>(self, eval: &E) -> Self::Output {
        self.searcher
            .search_with(self.root, eval, self.extras, self.params, self.report)
    }
}

/// The moves a database keeps, and the score when it names the one best move.
type DatabaseChoice<R> = (Vec<Move<Word<R>>>, Option<i32>);

/// The root moves a database proves best: those keeping the position's
/// value, and when distances are known, the one fastest win or slowest
/// loss (with its score). `None` when the database does not cover the position.
fn database_choice<R: Rules>(db: &Egdb<R>, pos: &Position<R>) -> Option<DatabaseChoice<R>> {
    if pos.piece_count() > db.pieces() {
        return None;
    }
    let values = db.move_values(pos).ok().filter(|v| !v.is_empty())?;
    let best = values.iter().map(|v| v.wdl).max()?;
    let kept: Vec<_> = values.iter().filter(|v| v.wdl == best).collect();
    // Plies to the end: fewest for a win, most for a loss.
    let rank = |d: Option<Distance>| match d {
        Some(Distance::Win(p)) => Some(i64::from(p)),
        Some(Distance::Loss(p)) => Some(-i64::from(p)),
        _ => None,
    };
    if best != Wdl::Draw
        && let Some(fastest) = kept
            .iter()
            .filter(|v| rank(v.distance).is_some())
            .min_by_key(|v| rank(v.distance))
        && kept.iter().all(|v| rank(v.distance).is_some())
    {
        // Distances count from this position, the move included.
        let score = match fastest.distance {
            Some(Distance::Win(p)) => {
                tiao_search::score::db_score(tiao_core::game::Verdict::Win, p as usize)
            }
            Some(Distance::Loss(p)) => {
                tiao_search::score::db_score(tiao_core::game::Verdict::Loss, p as usize)
            }
            _ => 0,
        };
        return Some((vec![fastest.mv], Some(score)));
    }
    Some((kept.iter().map(|v| v.mv).collect(), None))
}
