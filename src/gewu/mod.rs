//! Gewu (格五), the historical Chinese race game, with and without throws.
