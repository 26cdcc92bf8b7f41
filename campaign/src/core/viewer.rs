//! Who is looking at a campaign, and who may see a logged fact.

use serde::{Deserialize, Serialize};

use crate::ids::SideId;

/// Who is looking.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// The referee, who sees everything.
    Umpire,
    /// One side's player.
    Side(SideId),
}

/// Who may see a roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "to", content = "side")]
pub enum Visibility {
    /// Every side and the umpire.
    Public,
    /// The umpire only.
    Umpire,
    /// The umpire and this side.
    Side(SideId),
}

impl Visibility {
    pub fn shown_to(&self, viewer: &Viewer) -> bool {
        match (self, viewer) {
            (_, Viewer::Umpire) | (Visibility::Public, _) => true,
            (Visibility::Umpire, Viewer::Side(_)) => false,
            (Visibility::Side(s), Viewer::Side(v)) => s == v,
        }
    }
}

/// One line of a campaign's log as a viewer reads it: the umpire's numbered by the store's
/// events (Magna Graecia) or, for a side, in that reader's own sequence, 1, 2, 3…, so that
/// gaps do not count what is hidden from it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogLine {
    pub seq: u64,
    pub text: String,
}
