//! The one move decision every front end plays by: a book move if the
//! opening book has the position, else the endgame databases' move if they
//! name the one best move, else a search.

use super::{Engine, MoveReading};
use tiao_core::game::Verdict;
use tiao_draughts::notation::MoveFormat;
use tiao_knowledge::book::BookChoice;
use tiao_search::{Info, Mode, Params, SearchResult};

/// What a decision is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A move to play: the book may answer (unless the search mode is
    /// analysis), and so may the databases (when thinking).
    Play,
    /// Analysis: never the book (the databases still may, when thinking).
    Analyze,
}

/// The move of a position the endgame databases cover, when they name the
/// one best move (the fastest win, the slowest loss).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatabaseMove {
    /// The move, in the format asked for.
    pub mv: String,
    /// The position's value for the side to move.
    pub verdict: Verdict,
    /// Its score (a database score: the plies to the end are in it).
    pub score: i32,
}

impl DatabaseMove {
    /// The search report of the answer: depth 0, the database's score, the move.
    pub fn info(&self) -> Info<String> {
        Info {
            depth: 0,
            mean_depth: 0.0,
            sel_depth: 0,
            score: self.score,
            nodes: 0,
            time: std::time::Duration::ZERO,
            pv: vec![self.mv.clone()],
            multipv: 1,
        }
    }
}

/// How the engine chose its move.
#[derive(Clone, Debug)]
pub enum Decision {
    /// From the opening book (the move in the format asked for).
    Book(BookChoice),
    /// From the endgame databases.
    Database(DatabaseMove),
    /// Found by a search.
    Search(SearchResult<String>),
}

impl Decision {
    /// The move chosen (`None` only when a search found none).
    pub fn best(&self) -> Option<&str> {
        match self {
            Decision::Book(c) => Some(&c.mv),
            Decision::Database(d) => Some(&d.mv),
            Decision::Search(o) => o.best.as_deref(),
        }
    }

    /// The move expected in reply (a search's second move).
    pub fn ponder(&self) -> Option<&str> {
        match self {
            Decision::Search(o) => o.ponder.as_deref(),
            _ => None,
        }
    }
}

impl Engine {
    /// Choose the move of the current position (arms the searcher first;
    /// see [`Engine::choose_move_prepared`]).
    pub fn choose_move(
        &mut self,
        params: &Params,
        purpose: Purpose,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> Decision {
        self.prepare(params.mode);
        self.choose_move_prepared(params, purpose, format, report)
    }

    /// Choose the move of the current position; the caller has called
    /// [`Engine::prepare`] (so that a `stop` sent meanwhile is not lost).
    ///
    /// The book answers when it is on, has the position, and the move is
    /// to be played (`purpose` [`Purpose::Play`], mode not analysis). Else,
    /// when thinking, the databases answer when they name the one best
    /// move; their answer is reported to `report` like a search's (depth 0).
    /// Else the position is searched (with the databases, if loaded,
    /// scoring the positions they cover). Moves are written in `format`.
    pub fn choose_move_prepared(
        &mut self,
        params: &Params,
        purpose: Purpose,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> Decision {
        if purpose == Purpose::Play
            && let Some(mut choice) = self.book_move(params.mode)
        {
            if format != MoveFormat::Hub
                && let Ok(mv) = self.session.convert(&choice.mv, MoveReading::Hub, format)
            {
                choice.mv = mv;
            }
            return Decision::Book(choice);
        }
        if params.mode == Mode::Think
            && let Some((mv, verdict, score)) = self.session.database_move(format)
        {
            let answer = DatabaseMove { mv, verdict, score };
            report(&answer.info());
            return Decision::Database(answer);
        }
        Decision::Search(self.search_prepared(params, format, report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, PositionText};
    use tiao_draughts::board::Variant;
    use tiao_search::Limits;

    fn engine() -> Engine {
        Engine::new(Options::default()).expect("engine")
    }

    fn with_book() -> Engine {
        let mut e = engine();
        let file = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join(tiao_knowledge::book::default_path(Variant::International));
        e.set_option("book-file", &file.display().to_string())
            .expect("book-file");
        assert!(e.open_knowledge().iter().all(Result::is_ok));
        assert!(e.book().is_some(), "the shipped book");
        e
    }

    fn choose(e: &mut Engine, mode: Mode, purpose: Purpose, format: MoveFormat) -> Decision {
        let params = Params {
            limits: Limits::depth(2),
            mode,
            multipv: 1,
        };
        e.choose_move(&params, purpose, format, &|_| {})
    }

    #[test]
    fn the_book_answers_a_book_position_in_the_format_asked_for() {
        let mut e = with_book();
        let pdn = MoveFormat::pdn_for(Variant::International);
        let d = choose(&mut e, Mode::Think, Purpose::Play, pdn);
        let Decision::Book(choice) = &d else {
            panic!("a book move at the start: {d:?}");
        };
        assert!(e.legal_moves(pdn).contains(&choice.mv), "{}", choice.mv);
        assert_eq!(d.best(), Some(choice.mv.as_str()));
        assert_eq!(d.ponder(), None);
        // Pondering plays from the book too (the move is to be played).
        let d = choose(&mut e, Mode::Ponder, Purpose::Play, MoveFormat::Hub);
        assert!(matches!(d, Decision::Book(_)), "{d:?}");
    }

    #[test]
    fn analysis_never_uses_the_book() {
        let mut e = with_book();
        for (mode, purpose) in [
            (Mode::Analyze, Purpose::Play),
            (Mode::Think, Purpose::Analyze),
            (Mode::Analyze, Purpose::Analyze),
        ] {
            let d = choose(&mut e, mode, purpose, MoveFormat::Hub);
            assert!(
                matches!(d, Decision::Search(_)),
                "{mode:?} {purpose:?}: {d:?}"
            );
            assert!(d.best().is_some());
        }
        // And a book that is off is not used either.
        e.set_option("book", "false").expect("book off");
        let d = choose(&mut e, Mode::Think, Purpose::Play, MoveFormat::Hub);
        assert!(matches!(d, Decision::Search(_)), "{d:?}");
    }

    #[test]
    fn a_position_outside_the_book_and_the_tables_is_searched() {
        let mut e = with_book();
        e.set_position(
            PositionText::Fen("W:W31,32,33:B18,19,20"),
            &[],
            MoveReading::Any,
        )
        .expect("fen");
        let d = choose(&mut e, Mode::Think, Purpose::Play, MoveFormat::Hub);
        let Decision::Search(out) = &d else {
            panic!("a search: {d:?}");
        };
        assert!(out.depth >= 1);
        assert_eq!(d.best(), out.best.as_deref());
    }

    #[test]
    fn the_tables_answer_a_covered_position_when_thinking() {
        let dir = std::env::temp_dir().join(format!("tiao-decision-egdb-{}", std::process::id()));
        let mut opts = tiao_knowledge::endgame::GenOptions::new(Variant::International, 3);
        opts.dir = dir.clone();
        opts.progress = false;
        tiao_knowledge::endgame::generate(&opts).expect("3-piece tables");
        let mut e = with_book();
        e.set_options(&[
            ("egdb-pieces", "3"),
            ("egdb-dir", &dir.display().to_string()),
        ])
        .expect("the tables open");
        // A king and a man against a man: won, and the tables name the fastest win.
        e.set_position(PositionText::Fen("W:WK46,37:B5"), &[], MoveReading::Any)
            .expect("fen");
        let reported = std::sync::Mutex::new(Vec::new());
        let d = e.choose_move(
            &Params::think(Limits::depth(6)),
            Purpose::Play,
            MoveFormat::Hub,
            &|info| reported.lock().expect("lock").push(info.clone()),
        );
        let Decision::Database(answer) = &d else {
            panic!("the tables' move: {d:?}");
        };
        assert_eq!(answer.verdict, tiao_core::game::Verdict::Win);
        assert!(
            answer.score > tiao_search::score::DB_BOUND,
            "{}",
            answer.score
        );
        assert!(e.legal_moves(MoveFormat::Hub).contains(&answer.mv));
        // Reported like a search of depth 0, so front ends print it as one.
        let reported = reported.into_inner().expect("lock");
        assert_eq!(reported.len(), 1);
        assert_eq!(reported[0].pv, vec![answer.mv.clone()]);
        assert_eq!(reported[0].depth, 0);
        // Analysis searches (with the tables scoring what they cover).
        let d = choose(&mut e, Mode::Analyze, Purpose::Analyze, MoveFormat::Hub);
        let Decision::Search(out) = &d else {
            panic!("analysis searches: {d:?}");
        };
        assert!(out.score > tiao_search::score::DB_BOUND, "{}", out.score);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
