//! Endgame databases: generation, compressed storage and probing.
