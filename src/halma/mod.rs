//! Halma on a square board (8x8 and 10x10).
