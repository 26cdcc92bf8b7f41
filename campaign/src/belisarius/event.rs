//! Belisarius events: what happened, in the past tense; replaying them rebuilds the state.

use serde::{Deserialize, Serialize};

use super::setup::{Line, Setup};
use super::state::Location;
use crate::core::dice::Roll;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// The campaign began from a scenario, kept whole with the map, the leaders and the
    /// tables it is played with, so later edits of the data files never change it.
    CampaignStarted {
        name: String,
        setup: Box<Setup>,
        /// Seed of the campaign's dice and cup; the referee's secret.
        seed: u64,
    },
    /// Dice were rolled, by the generator or typed in.
    DiceRolled { roll: Roll, side: Option<SideId>, visibility: Visibility },
    /// The referee wrote a note; only the referee reads it.
    NoteAdded { text: String },
    /// Pieces of one of a side's free set-up lines went where its player chose. Only that
    /// side and the referee learn which pieces; the other side sees face-down markers arrive.
    LinePlaced {
        side: SideId,
        /// The line's index in the scenario's set-up of that side.
        line: usize,
        at: Location,
        /// What was placed: the whole rest of the line, or a part of it.
        placed: Line,
    },
    /// Set-up ended; the first turn begins.
    PlayBegan,
}

impl Event {
    /// The kind stored in the `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::CampaignStarted { .. } => "campaign_started",
            Event::DiceRolled { .. } => "dice_rolled",
            Event::NoteAdded { .. } => "note_added",
            Event::LinePlaced { .. } => "line_placed",
            Event::PlayBegan => "play_began",
        }
    }
}

/// A Belisarius event as stored.
pub type Logged = crate::core::engine::Logged<Event>;
