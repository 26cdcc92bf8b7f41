//! Raw shapes of the Belisarius leader roster (`belisarius/leaders.toml`) and scenarios
//! (`belisarius/scenarios/*.toml`), exactly as written. Units stay in the rules' own notation
//! (`"4 x 1*A, 2 x 2*C"`); `referee-campaign` parses and checks them.

use serde::Deserialize;

use crate::raw::{Spanned, Versioned};

/// `belisarius/leaders.toml`: every historical commander of the game with his ratings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLeaderBook {
    pub version: Spanned<u32>,
    /// True when the ratings are the project's reconstruction rather than the printed counters.
    #[serde(default)]
    pub reconstructed: bool,
    /// How the ratings were chosen, for the referee who checks them.
    #[serde(default)]
    pub reasoning: String,
    #[serde(rename = "leader")]
    pub leaders: Vec<RawLeader>,
}

impl Versioned for RawLeaderBook {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLeader {
    pub id: Spanned<String>,
    pub name: String,
    /// `byzantines`, `ostrogoths`, `vandals` or `franks`.
    pub side: Spanned<String>,
    pub strategic: Spanned<u8>,
    pub tactical: Spanned<u8>,
    pub rank: Spanned<u8>,
    #[serde(default)]
    pub note: String,
}

/// `belisarius/scenarios/*.toml`: one scenario of the Belisarius campaign.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBeScenario {
    pub version: Spanned<u32>,
    pub id: Spanned<String>,
    pub name: String,
    /// The rule of the rule list the scenario implements, e.g. `BE-49`.
    pub rule: Spanned<String>,
    /// The first campaign turn.
    pub first: Spanned<RawDate>,
    /// The last campaign turn, played in full.
    pub last: Spanned<RawDate>,
    /// Number of turns; must agree with `first` and `last`.
    pub turns: Spanned<u32>,
    #[serde(default)]
    pub summary: String,
    /// Stratagem chits mixed with the AP chits in the cup at the start.
    #[serde(default)]
    pub cup_stratagems: Vec<Spanned<String>>,
    /// Letters of the random events that may happen; any other letter rolled gives no event.
    #[serde(default)]
    pub events: Vec<Spanned<String>>,
    #[serde(default)]
    pub special: Vec<RawSpecial>,
    #[serde(default)]
    pub victory: Vec<RawVictory>,
    #[serde(default, rename = "reinforcement")]
    pub reinforcements: Vec<RawReinforcement>,
    #[serde(rename = "side")]
    pub sides: Vec<RawBeSide>,
}

impl Versioned for RawBeScenario {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

/// A season and a year, e.g. `{ season = "autumn", year = 533 }`. Winter carries the year
/// of the autumn before it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDate {
    pub season: Spanned<String>,
    pub year: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBeSide {
    /// `byzantines`, `vandals` or `ostrogoths`.
    pub id: Spanned<String>,
    pub name: String,
    /// The commander-in-chief's leader id; absent when the side has none.
    pub cinc: Option<Spanned<String>>,
    /// Who takes over when the commander-in-chief dies, in order (the CinC first).
    #[serde(default)]
    pub succession: Vec<Spanned<String>>,
    /// Stratagem chits the side holds at the start.
    #[serde(default)]
    pub hand: Vec<Spanned<String>>,
    /// Land zones the side controls at the start (BE-46).
    #[serde(default)]
    pub controls: Vec<Spanned<String>>,
    /// Cities the side holds at the start, each named whatever zone it stands in: controlling
    /// a zone does not give its city (a landing zone keeps the enemy's city in it). Required,
    /// so that a scenario always says who holds what; `holds = []` for a side with no city.
    pub holds: Vec<Spanned<String>>,
    /// Cities where the side must have units when it sets up.
    #[serde(default)]
    pub must_hold: Vec<Spanned<String>>,
    #[serde(rename = "line")]
    pub lines: Vec<Spanned<RawSetupLine>>,
}

/// One line of a set-up: who and what starts at one place, or freely under one rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSetupLine {
    /// A zone, city or sea id of the map.
    pub at: Option<Spanned<String>>,
    /// A free placement, instead of `at`.
    pub free: Option<Spanned<RawFree>>,
    #[serde(default)]
    pub leaders: Vec<Spanned<String>>,
    /// Decoy leader counters.
    #[serde(default)]
    pub decoys: u32,
    /// Units in the rules' notation, per kind, e.g. `"4 x 1*A, 2 x 2*C"`.
    pub cataphracts: Option<Spanned<String>>,
    pub heavy_cavalry: Option<Spanned<String>>,
    pub medium_cavalry: Option<Spanned<String>>,
    pub light_cavalry: Option<Spanned<String>>,
    pub infantry: Option<Spanned<String>>,
    /// Number of fleet counters.
    pub fleets: Option<Spanned<u32>>,
    /// Naval points of all those fleets together.
    pub fleet_np: Option<Spanned<u32>>,
    #[serde(default)]
    pub fleet_decoys: u32,
}

/// A free placement: `{ rule = "any-sea" }`, `{ rule = "sea-next-to", zone = "…" }` or
/// `{ rule = "own-land-in", regions = ["italy"] }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFree {
    pub rule: Spanned<String>,
    pub zone: Option<Spanned<String>>,
    #[serde(default)]
    pub regions: Vec<Spanned<String>>,
}

/// A scenario rule beyond the general ones, by key, with its wording for the referee.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSpecial {
    pub key: Spanned<String>,
    pub text: String,
}

/// One victory condition; a side wins when it meets every condition written for it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVictory {
    pub side: Spanned<String>,
    /// `hold-cities`, `zones`, `other-cities` or `destroy`.
    pub kind: Spanned<String>,
    #[serde(default)]
    pub cities: Vec<Spanned<String>>,
    pub count: Option<Spanned<u32>>,
    /// Regions where the zones or cities count; empty for anywhere.
    #[serde(default)]
    pub regions: Vec<Spanned<String>>,
}

/// Forces a side receives in one reinforcement phase.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReinforcement {
    pub side: Spanned<String>,
    pub when: Spanned<RawDate>,
    pub line: Spanned<RawSetupLine>,
}
