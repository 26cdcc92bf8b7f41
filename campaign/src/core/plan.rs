//! How far a side checks its own orders before the referee sees them: a player plans from a
//! packet, which holds the side's view and nothing else. Each engine checks a
//! planned order against that view — the side's own pieces, the paths of the map, the movement
//! and action points the side knows it has — and says where the check has to stop.

use serde::{Deserialize, Serialize};

/// What a side's own check made of a planned order that it did not refuse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "checked", content = "why")]
pub enum Checked {
    /// Nothing the side knows is against it. What the side cannot see may still stop it (an
    /// enemy it meets, a roll), and the referee's rules have the last word.
    AsFarAsKnown,
    /// The side cannot check it, for this reason: the referee's rules do.
    ForReferee(String),
}

impl Checked {
    /// The note a plan shows beside the order: "checked as far as Carthage can tell", "for
    /// the referee to check: …".
    pub fn note(&self, side: &str) -> String {
        match self {
            Checked::AsFarAsKnown => format!("checked as far as {side} can tell"),
            Checked::ForReferee(why) => format!("for the referee to check: {why}"),
        }
    }
}
