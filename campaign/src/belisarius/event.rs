//! Belisarius events: what happened, in the past tense; replaying them rebuilds the state.

use serde::{Deserialize, Serialize};

use super::map::ZoneId;
use super::operations::{ActionPoints, Activation, AttritionDue};
use super::setup::{Line, Setup};
use super::state::Location;
use crate::core::dice::{Draw, Roll};
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
    /// A side drew a chit blind for its action points (BE-04): a stratagem is kept, secretly,
    /// and another drawn. Only that side and the referee read which chit.
    ChitDrawn { side: SideId, draw: Draw, stratagem: bool },
    /// A side's action points for the turn: its chit plus its CinC's strategic rating,
    /// secret from the other side until the turn's end (BE-04, BE-53).
    ActionPointsSet { side: SideId, ap: ActionPoints },
    /// The operations phase began, `first` having won the initiative (BE-05).
    OperationsBegan { first: SideId },
    /// A leader was activated, with inferior leaders of his zone (BE-06, BE-07). The other
    /// side learns only that a force was activated, and where.
    LeaderActivated { activation: Activation },
    /// A side's segment ended, with an activation in it or as a pass (BE-06).
    SegmentEnded { side: SideId, acted: bool },
    /// The acting leader's force marched along `path` (BE-10); the other side sees a
    /// marker go by. `ap` spent and `left` are the side's own.
    ForceMarched { activation: Activation, from: Location, path: Vec<ZoneId>, ap: u32, left: u32 },
    /// Units passed from one leader's box to another's in one zone before the phase's first
    /// activation (BE-08): on the Table of Organisation, the side's own business.
    UnitsReorganised { side: SideId, from: String, to: String, indices: Vec<u32>, units: Vec<super::pieces::Unit> },
    /// A zone passed to a side: sole presence, or last through it (BE-46).
    ZoneControlled { zone: ZoneId, side: SideId },
    /// A force owes losses after its march (BE-12), the side's own to know.
    AttritionSuffered { due: AttritionDue },
    /// The owner took the losses: (leader whose box, unit's index in it, points).
    LossesTaken { side: SideId, losses: Vec<(String, u32, u8)> },
    /// Both sides passed in a row, or neither has action points left (BE-06).
    OperationsEnded,
    /// The turn's end: each side's AP chit shown (BE-02, BE-53); they go back into the cup.
    ChitsRevealed { chits: Vec<(SideId, String, u8)> },
    /// A king left the game and another took his place (BE-50: Theodahad after turn 3);
    /// the units with him stay where he stood, without a leader.
    KingReplaced { side: SideId, old: String, new: String },
    /// The turn ended; the season moves on (BE-02).
    TurnEnded { turn: u32 },
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
            Event::ChitDrawn { .. } => "chit_drawn",
            Event::ActionPointsSet { .. } => "action_points_set",
            Event::OperationsBegan { .. } => "operations_began",
            Event::LeaderActivated { .. } => "leader_activated",
            Event::SegmentEnded { .. } => "segment_ended",
            Event::OperationsEnded => "operations_ended",
            Event::ForceMarched { .. } => "force_marched",
            Event::ZoneControlled { .. } => "zone_controlled",
            Event::UnitsReorganised { .. } => "units_reorganised",
            Event::AttritionSuffered { .. } => "attrition_suffered",
            Event::LossesTaken { .. } => "losses_taken",
            Event::ChitsRevealed { .. } => "chits_revealed",
            Event::KingReplaced { .. } => "king_replaced",
            Event::TurnEnded { .. } => "turn_ended",
        }
    }
}

/// A Belisarius event as stored.
pub type Logged = crate::core::engine::Logged<Event>;
