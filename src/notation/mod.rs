//! Notation: squares, FEN, Hub position strings, move text and PDN.
