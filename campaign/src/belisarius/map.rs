//! Belisarius: map.
