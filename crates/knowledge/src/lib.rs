//! What the engine knows of draughts besides the rules: the evaluations
//! (`eval`), the endgame databases (`endgame`: generation, files, probing)
//! and the opening book (`book`: format, choice, builder, PDN import).
//! Libraries only: the commands that build books and databases live in the
//! `tiao` binary's tools.

pub mod book;
pub mod endgame;
pub mod eval;
