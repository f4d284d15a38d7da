//! Draughts of one rule set `R` as a [`SessionGame`]: the bridge between
//! text (FEN, Hub strings, move notation) and the typed position, what a
//! session of `R` knows ([`DraughtsKnowledge<R>`]: `R`'s evaluation weights
//! and endgame tables) and the search.

use crate::GameKind;
use crate::session::{
    Current, MoveReading, PerftLine, PositionForm, SessionGame, TablesMove, TablesOpen,
};
use crate::view::{self, BoardView, MoveView};
use std::path::Path;
use std::sync::Arc;
use tiao_core::GameResult;
use tiao_core::game::{Evaluate, Verdict};
use tiao_draughts::board::{Colour, DrawCounters, Move, Position, Rules, Word, diagram};
use tiao_draughts::movegen::{Counting, perft, perft_divide, perft_parallel};
use tiao_draughts::notation::{
    MoveError, MoveFormat, legal_moves_text, read_fen, read_hub_move, read_hub_position, read_move,
    write_fen, write_hub_position, write_move,
};
use tiao_draughts::record;
use tiao_knowledge::endgame::{Distance, Egdb, EgdbRules, VariantEgdb, Wdl};
use tiao_knowledge::eval::Term;
use tiao_knowledge::eval::pattern_select::{EvalChoice, EvalOf, WithEvaluator};
use tiao_search::{Extras, Info, Params, Root, SearchResult, Searcher, Tablebase};

/// What a session of rule set `R` knows besides the rules.
pub struct DraughtsKnowledge<R: Rules> {
    /// `R`'s part of the evaluation the engine chose; `None`: the built-in one.
    eval: Option<EvalOf<R>>,
    /// The endgame tables of `R`, once opened.
    egdb: Option<Arc<Egdb<R>>>,
}

impl<R: Rules> Default for DraughtsKnowledge<R> {
    fn default() -> Self {
        DraughtsKnowledge {
            eval: None,
            egdb: None,
        }
    }
}

impl<R: Rules> Clone for DraughtsKnowledge<R> {
    fn clone(&self) -> Self {
        DraughtsKnowledge {
            eval: self.eval.clone(),
            egdb: self.egdb.clone(),
        }
    }
}

impl<R: Rules> DraughtsKnowledge<R> {
    fn eval(&self) -> EvalOf<R> {
        match &self.eval {
            Some(e) => e.clone(),
            None => EvalChoice::builtin().of_rules(),
        }
    }
}

impl<R: EgdbRules> SessionGame for Position<R> {
    const KIND: GameKind = GameKind::Draughts(R::VARIANT);
    const STOPS_AT_RESULT: bool = false;
    type Move = Move<Word<R>>;
    type Counters = DrawCounters;
    type Knowledge = DraughtsKnowledge<R>;

    fn start() -> (Self, DrawCounters) {
        let pos = Position::start();
        (pos, DrawCounters::initial(&pos))
    }

    fn read_position(text: &str, form: PositionForm) -> Result<(Self, DrawCounters), String> {
        let pos = match form {
            PositionForm::Fen => read_fen::<R>(text).map_err(|e| e.to_string())?,
            PositionForm::Hub => read_hub_position::<R>(text).map_err(|e| e.to_string())?,
        };
        Ok((pos, DrawCounters::initial(&pos)))
    }

    fn write_position(&self, _: &DrawCounters, form: PositionForm) -> String {
        match form {
            PositionForm::Fen => write_fen(self),
            PositionForm::Hub => write_hub_position(self),
        }
    }

    fn read_move(&self, text: &str, reading: MoveReading) -> Result<Self::Move, MoveError> {
        match reading {
            MoveReading::Hub => read_hub_move(self, text),
            MoveReading::Any => read_move(self, text),
        }
    }

    fn write_move(&self, mv: &Self::Move, format: MoveFormat) -> String {
        write_move(self, mv, format)
    }

    fn notation() -> MoveFormat {
        MoveFormat::pdn_for(R::VARIANT)
    }

    fn legal_moves(&self, format: MoveFormat) -> Vec<String> {
        legal_moves_text(self, format)
            .into_iter()
            .map(|(_, t)| t)
            .collect()
    }

    fn play(&self, counters: &DrawCounters, mv: &Self::Move) -> (Self, DrawCounters) {
        let after = Position::play(self, mv);
        (after, counters.next(self, mv, &after))
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn side(&self) -> Colour {
        Position::side(self)
    }

    fn result(&self, counters: &DrawCounters, earlier: &[u64]) -> Option<(GameResult, String)> {
        let o = record::outcome(self, counters, earlier)?;
        Some((o.result(), o.to_string()))
    }

    fn diagram(&self) -> String {
        diagram(self)
    }

    fn book_hash(&self) -> Option<u64> {
        Some(Position::hash(self))
    }

    fn search(
        current: &Current<'_, Self>,
        searcher: &mut Searcher,
        params: &Params,
        report: &(dyn Fn(&Info<Self::Move>) + Sync),
    ) -> SearchResult<Self::Move> {
        let root = Root {
            position: current.position,
            counters: current.counters,
            history: record::reversible(&current.counters, current.earlier).to_vec(),
        };
        let egdb = current.knowledge.egdb.as_deref();
        // The moves the databases keep, if they cover the position (the
        // move they name as the one best is [`Session::database_move`]'s).
        let choice = egdb.and_then(|db| database_choice(db, &root.position));
        let only = choice.map(|(moves, _)| moves);
        let extras = Extras {
            tablebase: egdb.map(|db| db as &dyn Tablebase<Position<R>>),
            root_moves: only.as_deref(),
        };
        // The search is compiled per evaluator: the choice is made here, once.
        current.knowledge.eval().with_evaluator(Search {
            searcher,
            root: &root,
            extras: &extras,
            params,
            report,
        })
    }

    fn evaluate(&self, knowledge: &DraughtsKnowledge<R>) -> (i32, Vec<Term>) {
        let eval = knowledge.eval();
        (eval.evaluate(self), eval.terms(self))
    }

    fn perft(
        &self,
        depth: u32,
        divide: bool,
        bulk: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        let counting = if bulk {
            Counting::Bulk
        } else {
            Counting::MakeEveryMove
        };
        if !divide {
            let nodes = match pool {
                Some(pool) => perft_parallel(self, depth, counting, pool),
                None => perft(self, depth, counting),
            };
            return vec![PerftLine { mv: None, nodes }];
        }
        let lines = perft_divide(self, depth, counting, pool);
        let total = lines.iter().map(|(_, n)| n).sum();
        let mut out: Vec<PerftLine> = lines
            .into_iter()
            .map(|(mv, n)| PerftLine {
                mv: Some(write_move(self, &mv, Self::notation())),
                nodes: n,
            })
            .collect();
        out.push(PerftLine {
            mv: None,
            nodes: total,
        });
        out
    }

    fn set_eval(knowledge: &mut DraughtsKnowledge<R>, eval: &EvalChoice) {
        knowledge.eval = Some(eval.of_rules());
    }

    fn open_tables(knowledge: &mut DraughtsKnowledge<R>, dir: &Path, pieces: u32) -> TablesOpen {
        knowledge.egdb = None;
        let (egdb, damaged) = match Egdb::<R>::open_checked(dir, pieces) {
            Ok(checked) => (checked.egdb, checked.damaged),
            Err(e) => (Err(e), Vec::new()),
        };
        let damaged = damaged.iter().map(ToString::to_string).collect();
        match egdb {
            Ok(db) => {
                let pieces = db.pieces();
                knowledge.egdb = Some(Arc::new(db));
                TablesOpen::Opened { pieces, damaged }
            }
            Err(e) => TablesOpen::Failed {
                error: e.to_string(),
                damaged,
            },
        }
    }

    fn attach_tables(knowledge: &mut DraughtsKnowledge<R>, tables: &VariantEgdb) -> bool {
        knowledge.egdb = R::tables(tables).cloned();
        knowledge.egdb.is_some()
    }

    fn close_tables(knowledge: &mut DraughtsKnowledge<R>) {
        knowledge.egdb = None;
    }

    fn tables_verdict(
        &self,
        counters: &DrawCounters,
        knowledge: &Self::Knowledge,
    ) -> Option<Verdict> {
        Tablebase::probe(knowledge.egdb.as_deref()?, self, counters)
    }

    fn board_view(&self) -> Option<BoardView> {
        Some(view::board_of(self))
    }

    fn move_views(&self, format: MoveFormat) -> Vec<MoveView> {
        view::moves_of(self, format)
    }

    fn move_view(&self, mv: &Self::Move, format: MoveFormat) -> Option<MoveView> {
        Some(view::move_of(self, mv, write_move(self, mv, format)))
    }

    fn database_move(&self, knowledge: &Self::Knowledge, format: MoveFormat) -> Option<TablesMove> {
        match database_choice(knowledge.egdb.as_deref()?, self)? {
            (moves, Some(score)) if moves.len() == 1 => {
                let verdict = if score > 0 {
                    Verdict::Win
                } else {
                    Verdict::Loss
                };
                Some((write_move(self, &moves[0], format), verdict, score))
            }
            _ => None,
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
            Some(Distance::Win(p)) => tiao_search::score::db_score(Verdict::Win, p as usize),
            Some(Distance::Loss(p)) => tiao_search::score::db_score(Verdict::Loss, p as usize),
            _ => 0,
        };
        return Some((vec![fastest.mv], Some(score)));
    }
    Some((kept.iter().map(|v| v.mv).collect(), None))
}
