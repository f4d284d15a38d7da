//! The game abstraction the search core is generic over.
//!
//! Draughts (every rule set), Halma and Gewu implement [`Game`]; the search,
//! the transposition table and Lazy SMP know nothing else about a game.
//! Everything is monomorphised: a search over `Position<International>` is
//! compiled separately from one over a Halma board, with no dynamic dispatch
//! inside the tree.

use crate::Colour;
use arrayvec::ArrayVec;
use std::fmt::Debug;

/// The value of a finished game for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
}

/// A fixed-capacity move buffer that lives on the stack.
pub trait MoveBuffer<M>: Default {
    fn clear(&mut self);
    fn push(&mut self, m: M);
    fn as_slice(&self) -> &[M];
    fn as_mut_slice(&mut self) -> &mut [M];
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
}

impl<M, const N: usize> MoveBuffer<M> for ArrayVec<M, N> {
    #[inline(always)]
    fn clear(&mut self) {
        ArrayVec::clear(self)
    }
    #[inline(always)]
    fn push(&mut self, m: M) {
        // Every generator sizes its list for the most moves a position of its
        // game can have. A move that did not fit would be a legal move lost,
        // so debug builds (and the tests) stop there; release builds keep
        // playing rather than crash a game.
        let fitted = self.try_push(m);
        debug_assert!(
            fitted.is_ok(),
            "move list full ({N} moves): a legal move was lost"
        );
    }
    #[inline(always)]
    fn as_slice(&self) -> &[M] {
        ArrayVec::as_slice(self)
    }
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [M] {
        ArrayVec::as_mut_slice(self)
    }
}

/// A two-player, perfect-information game position with alternating moves.
pub trait Game: Copy + Send + Sync + Debug + 'static {
    type Move: Copy + Eq + Default + Send + Sync + Debug;
    type MoveList: MoveBuffer<Self::Move>;
    /// History-dependent rule state (move counters), advanced along the search path.
    type Counters: Copy + Default + Send + Sync + Debug;

    /// Whether a repeated position counts as a draw (threefold in the game, at
    /// once in the search).
    const REPETITION_DRAWS: bool;

    /// Whether the search reduces late quiet moves as Scan does (one ply
    /// from the second move, two from the seventh; measured for draughts:
    /// +50 Elo), and one ply more at an expected cut node (+9). Games with
    /// few moves and little to order them by keep the gentler logarithmic
    /// reductions (from the third move, growing with depth and move
    /// number).
    const EARLY_REDUCTIONS: bool = false;

    /// Whether a non-PV node with no move in the table is searched a ply
    /// shallower (internal iterative reduction; measured for draughts:
    /// +16.8 Elo with the table's fail-low rule). Off for the games it was
    /// not measured on.
    const ITERATIVE_REDUCTION: bool = false;

    fn side(&self) -> Colour;
    fn hash(&self) -> u64;
    /// All legal moves. An empty list means the side to move cannot move.
    fn generate(&self, list: &mut Self::MoveList);
    fn play(&self, mv: &Self::Move) -> Self;
    fn next_counters(
        &self,
        counters: &Self::Counters,
        mv: &Self::Move,
        after: &Self,
    ) -> Self::Counters;
    /// Counters for a position taken as the start of a game.
    fn initial_counters(&self) -> Self::Counters;
    /// Plies back to the last irreversible move (how far repetitions can reach).
    fn reversible_plies(counters: &Self::Counters) -> u32;
    /// A result by the rules, before looking at the moves (e.g. a draw by a
    /// move-count rule, or a Halma yard rule loss); `None` plays on.
    fn rule_verdict(&self, counters: &Self::Counters) -> Option<Verdict>;
    /// The result when the side to move has no legal move.
    fn no_move_verdict(&self) -> Verdict;
    /// Whether the static evaluation can be trusted here: false when a
    /// forced sequence (a capture in draughts) is pending.
    fn is_quiet(&self) -> bool;
    /// Whether the opponent, if it were to move now, would have a forcing
    /// move (a capture in draughts): the static evaluation is then doubtful
    /// and the quiescence search looks one move further.
    fn is_threatened(&self) -> bool {
        false
    }
    /// Quiet moves of a quiet position that the quiescence search looks
    /// at after standing pat (promotions and exchanges in draughts); none
    /// by default.
    fn horizon_moves(&self, list: &mut Self::MoveList) {
        list.clear();
    }
    /// Captures and other moves the search must not reduce or prune.
    fn is_tactical(&self, mv: &Self::Move) -> bool;
    /// A compact identity of a move for the transposition table; distinct
    /// moves of one position should have distinct keys (a collision only
    /// costs move ordering, never legality: the move is looked up in the
    /// generated list).
    fn move_key(mv: &Self::Move) -> u32;
}

/// A static evaluation of a game's positions, in centi-men (100 = one man)
/// from the side to move's point of view.
///
/// An evaluation may carry a [`State`](Evaluate::State) down the search
/// tree: what it would otherwise rebuild from the position at every node
/// (the pattern evaluation's region indices), brought up to date from the
/// parent's at each move. The search asks for it at the root
/// ([`Evaluate::state`]), derives each child's ([`Evaluate::state_after`])
/// and evaluates with it ([`Evaluate::evaluate_with`]), which must give
/// exactly [`Evaluate::evaluate`]'s value. An evaluation without one says
/// `type State = ();` and the search carries nothing.
pub trait Evaluate<G: Game>: Send + Sync {
    type State: Clone + Default;

    fn evaluate(&self, pos: &G) -> i32;

    /// The state of `pos`, from scratch.
    #[inline(always)]
    fn state(&self, _pos: &G) -> Self::State {
        Self::State::default()
    }

    /// The state of `child`, reached from `parent` (whose state is
    /// `state`) by one move.
    #[inline(always)]
    fn state_after(&self, state: &Self::State, _parent: &G, _child: &G) -> Self::State {
        state.clone()
    }

    /// [`Evaluate::evaluate`] of `pos`, whose state is `state`.
    #[inline(always)]
    fn evaluate_with(&self, _state: &Self::State, pos: &G) -> i32 {
        self.evaluate(pos)
    }
}
