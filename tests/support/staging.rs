//! Staging a Belisarius situation the way a referee tries one out: the map cleared of
//! markers, leaders put where the test needs them, cities handed over. Written once, in the
//! campaign crate's fixtures, which its own rule tests use too.

pub use referee_campaign::fixtures::belisarius::*;
