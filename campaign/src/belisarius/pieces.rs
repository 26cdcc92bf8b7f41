//! Belisarius: pieces.
