//! Random events (BE-47): what is in force this turn. The events drawn in summer and winter
//! stay on the campaign's state for as long as each lasts.

use serde::{Deserialize, Serialize};

use super::state::State;
use super::tables::STORM_NAVAL_ATTRITION_DIE;

/// An event drawn and still in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InForce {
    pub letter: char,
    /// The turn it was drawn.
    pub drawn: u32,
    /// The last turn it lasts.
    pub until: u32,
}

/// Whether event `letter` is in force this turn.
pub fn in_force(state: &State, letter: char) -> bool {
    state.in_force.iter().any(|e| e.letter == letter && e.drawn <= state.turn && state.turn <= e.until)
}

/// BE-47 (event N): what storms add to the naval attrition die this turn.
pub fn storm_die(state: &State) -> i32 {
    if in_force(state, 'N') { STORM_NAVAL_ATTRITION_DIE } else { 0 }
}

/// BE-47 (event O): great storms keep every ship in port this turn.
pub fn no_naval_action(state: &State) -> bool {
    in_force(state, 'O')
}
