//! The engine-neutral description of one battle, as one reader may know it.
//!
//! Each campaign engine's adapter ([`crate::magna_graecia`], [`crate::belisarius`], reached
//! through [`crate::adapter::BattleSource`]) builds a [`BattleSpec`] for each side from that
//! side's view alone, and an [`UmpireSpec`] from the umpire's view. The pack's writers and
//! the [`crate::tabletop::Tabletop`] systems read these and nothing of the campaign, so a
//! battle of either engine is printed by the same writers.
//!
//! What a side's spec holds is what its view holds: its own forces line by line, the sides in
//! the battle by name and role, and of the enemy only what the view says (counters seen, an
//! allied city's number of commands). Wording that belongs to the campaign's rules (rule
//! tags, what to do while the table is not set) comes ready written in [`Notes`] and
//! [`GroundSpec::lines`], so the writers add no campaign's rules of their own.

use std::fmt;

use referee_campaign::core::table::Edge;
use referee_campaign::ids::SideId;
use serde::{Deserialize, Serialize};

use crate::ground::Ground;
use crate::section::Section;

/// Which side of the table a player is on: the attacker is the side that moved in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    Attacker,
    Defender,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        }
    }
}

/// A side in the battle: public to everyone in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpecSide {
    pub id: SideId,
    pub name: String,
    pub role: Role,
}

/// The battle as everyone in it knows it: which, when, where, who.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpecHead {
    pub campaign: String,
    pub scenario: String,
    /// The campaign's turn (its date, as the campaign counts time).
    pub turn: u32,
    pub battle: u32,
    /// 1, or more when a battle goes on over several days on the same ground.
    pub day: u8,
    /// The place's name, e.g. `Himera`.
    pub place: String,
    /// Where on the campaign's map, as the campaign names it, e.g. `node 08 Himera`.
    pub location: String,
    /// The side that moved in, and the sides it attacks, by name, as the battle lists them.
    pub attacker: String,
    pub defenders: Vec<String>,
    /// Every side in the battle, the attacker first, in the battle's order, with the role it
    /// plays on the table (a friend of the attacker attacks beside it).
    pub sides: Vec<SpecSide>,
}

/// A label and its text, as a form prints it: `Weather: ` `clear; …`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Field {
    pub label: String,
    pub text: String,
}

/// The table once it is set: where it lies on the battle map, its size, the conditions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableSet {
    /// The campaign's description, e.g. `central section, attacker's base edge west, 4'×8' table`.
    pub description: String,
    /// Width and depth of the table, in feet.
    pub width_feet: f32,
    pub depth_feet: f32,
    /// The edge of the battle map the attacker enters from; the defender's is the opposite.
    pub attacker_edge: Edge,
    pub weather: String,
    pub time_of_day: String,
}

/// The ground of the battle: the whole battle map, the part of it on the table, the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroundSpec {
    /// The place's battle map, features with their outlines in map feet.
    pub map: Ground,
    /// The part of the map on the table, once the table is set.
    pub section: Option<Section>,
    pub table: Option<TableSet>,
    /// The table, its weather and time of day as the campaign words them, rule tags included.
    pub lines: Vec<Field>,
}

/// A road or way that leaves the table, and whether the reader may retire along it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exit {
    /// The place it leads to: its number on the campaign map (empty where places have none)
    /// and its name.
    pub to: String,
    pub to_name: String,
    /// The side of the table (as a compass edge of the battle map) it leaves by.
    pub edge: Edge,
    /// It leaves by the battle map's own edge, not just the edge of the table.
    pub map_edge: bool,
    /// Who holds the place it leads to.
    pub held_by: Option<String>,
    /// The reader may retire that way.
    pub retire: bool,
}

impl Exit {
    /// The place it leads to as the table names it: `23 Leontini`, or `Campania` where places
    /// have no numbers.
    pub fn place(&self) -> String {
        if self.to.is_empty() { self.to_name.clone() } else { format!("{} {}", self.to, self.to_name) }
    }

    /// Who holds the place it leads to, in words.
    pub fn holder(&self) -> &str {
        self.held_by.as_deref().unwrap_or("nobody")
    }
}

/// The rank of a line's leader: the same ranks in every campaign.
pub use referee_campaign::core::table::Rank;

/// A number of like troops, the kind in the campaign's notation (`4 Reg Sp(O)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopGroup {
    pub count: u32,
    /// The kind as text, e.g. `Reg Sp(O)`; the tabletop systems read it.
    pub kind: String,
}

impl fmt::Display for TroopGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.count, self.kind)
    }
}

/// One command (or unit) of a side in the battle, at its strength now, neutrally described.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TroopLine {
    /// Its name, e.g. `Himilco`.
    pub name: String,
    pub rank: Rank,
    /// Led by its general now; `false` when it fights on without one.
    pub general: bool,
    /// The leader's own element or unit, in the campaign's notation, e.g. `Irr Cv(O)`. Kept
    /// when the general is lost, for its kind only: DBSA gives every army a general's
    /// element, and takes a leaderless army's from it.
    pub leader: String,
    /// Its troops besides the leader's own.
    pub groups: Vec<TroopGroup>,
    /// Elements or units it fields, the leader's included while it has one.
    pub count: u32,
    /// Its points in the campaign's points system, the general's cost included while it has
    /// one.
    pub points: u32,
    /// The allied city (or contingent) whose command this is, when it is not the side's own.
    pub ally_of: Option<String>,
    /// Its points element by element, where the campaign prices them: the DBM roster prints
    /// them.
    pub prices: Option<LinePrices>,
}

/// A line's points by its parts, adding up to its [`TroopLine::points`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinePrices {
    /// The general's own element with his rank's cost.
    pub general: u32,
    /// Each group of [`TroopLine::groups`], all its elements.
    pub groups: Vec<u32>,
}

/// What a side may know of another side in the battle: its name and what was seen there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seen {
    pub name: String,
    /// Counters (or markers) of it seen at the place.
    pub counters: u32,
}

/// A city's army fighting on the reader's side, commanded by the side it is allied to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FriendlyCity {
    pub name: String,
    pub commands: u32,
    pub commanded_by: String,
}

/// What a side may know of the enemy: only what its view says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct EnemyKnowledge {
    /// Each enemy side and the counters of it seen at the place: no names, no strengths.
    pub sides: Vec<Seen>,
    /// An allied city (or contingent) fighting for the enemy, by name and number of commands.
    pub allies: Vec<Seen>,
    /// The enemy's forces as deployed in front of the reader, where the campaign shows them
    /// (a Belisarius battle's tactical display, BE-53); empty where it does not.
    pub deployed: Vec<TroopLine>,
}

/// Sentences in the campaign's words the writers print where they are needed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notes {
    /// The heading of the whole-map page printed while the table is not set.
    pub map_title: String,
    /// The text under it: who chooses the table, by which rule.
    pub map_unset: String,
    /// Said when no road leaves the table.
    pub no_exits: String,
    /// The general column of a line that fights without its general.
    pub leaderless: String,
    /// Said on the umpire's sheet while no die was rolled for the battle.
    pub no_rolls: String,
    /// The campaign's rule that sets the table and its base edges (`MG-21`).
    pub table_rule: String,
    /// The campaign's rule by which its forces become the roster's elements (`MG-03`).
    pub roster_rule: String,
    /// When the table is set, so that the sides' copies may go out (`after the defender has
    /// chosen its section`).
    pub table_set_when: String,
}

/// What one side may know of one battle, built from that side's view only.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleSpec {
    pub head: SpecHead,
    pub ground: GroundSpec,
    /// The reader's side.
    pub side: SpecSide,
    /// The edge of the battle map the reader's base edge lies on, once the table is set.
    pub base_edge: Option<Edge>,
    /// The reader's own forces in the battle.
    pub own: Vec<TroopLine>,
    /// Friendly sides in the same battle, with their counters there.
    pub friends: Vec<Seen>,
    /// Cities whose armies fight beside the reader under another friendly side's command.
    pub friendly_cities: Vec<FriendlyCity>,
    pub enemy: EnemyKnowledge,
    /// The ways off the table and whether the reader may retire by them.
    pub exits: Vec<Exit>,
    pub objectives: Vec<String>,
    pub special_rules: Vec<String>,
    pub notes: Notes,
}

/// One die rolled for the battle, as the umpire's sheet lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RollLine {
    pub purpose: String,
    pub roll: String,
    pub rule: String,
}

/// One side of the battle on the umpire's sheet: all of its forces there, its exits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UmpireSide {
    pub side: SpecSide,
    pub troops: Vec<TroopLine>,
    pub exits: Vec<Exit>,
}

/// Everything about the battle, for the umpire.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UmpireSpec {
    pub head: SpecHead,
    pub ground: GroundSpec,
    /// Every side, in the battle's order, as [`SpecHead::sides`].
    pub sides: Vec<UmpireSide>,
    /// The dice rolled to set the table.
    pub rolls: Vec<RollLine>,
    /// Lines of the umpire's log about this battle.
    pub log: Vec<String>,
    pub notes: Notes,
}
