//! Belisarius: scenario.
