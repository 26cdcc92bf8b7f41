//! What a Belisarius campaign starts from: the scenario's set-up turned into pieces to put
//! on the map, with the map, the leaders and the tables it is played with. A campaign keeps
//! its [`Setup`] whole in its start event.

use serde::{Deserialize, Serialize};

use super::map::{CityId, ZoneId, ZoneMap};
use super::pieces::{Leader, Unit};
use super::scenario::Scenario;
use super::state::Location;
use super::tables::Tables;
use super::world::UnknownPlace;
use crate::core::rule::RuleId;
use crate::ids::SideId;

/// One line of a side's set-up: pieces that start together, at a fixed place or where the
/// player chooses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// Where the pieces start; `None` for a line the player places (see `free`).
    pub at: Option<Location>,
    /// What the scenario allows for a free line, in words, e.g. "any sea zone".
    pub free: Option<String>,
    pub place_rule: FreePlace,
    /// Leader ids, most senior first.
    pub leaders: Vec<String>,
    pub decoys: u32,
    pub units: Vec<Unit>,
    /// Each fleet's naval points.
    pub fleets: Vec<u32>,
    pub fleet_decoys: u32,
    /// For a line set up on land with fleets: the zone's port, where they wait.
    pub port: Option<CityId>,
}

/// Where a free set-up line may go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum FreePlace {
    /// Not a free line.
    Fixed,
    /// Any sea zone, or a port of a city the side holds.
    AnySeaOrOwnPort,
    /// A sea zone next to this land zone.
    SeaNextTo { zone: ZoneId },
    /// A land zone (or its city) the side controls in these regions.
    OwnLandIn { regions: Vec<String> },
}

/// A side of the scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideSetup {
    pub id: SideId,
    pub name: String,
    /// The commander-in-chief or king, if the side has one (goths-541's Byzantines have none).
    pub cinc: Option<String>,
    /// Who takes over when the commander-in-chief dies, in order (BE-09).
    pub succession: Vec<String>,
    pub lines: Vec<Line>,
    /// Stratagems held at the start, secret from the other side.
    pub hand: Vec<String>,
    /// Land zones controlled at the start (BE-46).
    pub controls: Vec<ZoneId>,
    /// Cities held at the start (BE-25, BE-49…BE-52), apart from the zones: a side may
    /// control a zone whose city the enemy still holds. `None` only in a campaign begun
    /// before scenarios named their cities; see [`SideSetup::holds_at_start`].
    #[serde(default)]
    pub holds: Option<Vec<CityId>>,
    /// Cities the side must have troops in before play begins.
    pub must_hold: Vec<CityId>,
}

impl SideSetup {
    /// The cities the side holds as the campaign starts. A campaign begun before scenarios
    /// named their cities gave each city to whoever controlled its zone; it keeps that
    /// reading, so that its stored history replays as it was played.
    pub fn holds_at_start(&self, map: &ZoneMap) -> Vec<CityId> {
        match &self.holds {
            Some(cities) => cities.clone(),
            None => self.controls.iter().filter_map(|z| map.zone(z)).map(|z| z.city.id.clone()).collect(),
        }
    }
}

/// A scenario ready to play, with everything it is played with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The scenario as its data file gives it: dates, special rules, victory, reinforcements.
    pub scenario: Scenario,
    /// Its sides with their set-up resolved to places of the map.
    pub sides: Vec<SideSetup>,
    /// The chits in the cup at the start (AP markers and stratagems), by id.
    pub cup: Vec<String>,
    pub map: ZoneMap,
    /// Every leader the scenario names, with his ratings.
    pub leaders: Vec<Leader>,
    pub tables: Tables,
}

impl crate::core::engine::Identified for Setup {
    fn id(&self) -> &str {
        &self.scenario.id
    }
}

impl Setup {
    pub fn id(&self) -> &str {
        &self.scenario.id
    }

    pub fn name(&self) -> &str {
        &self.scenario.name
    }

    pub fn turns(&self) -> u32 {
        self.scenario.turns
    }

    /// "autumn 533 – spring 534".
    pub fn period(&self) -> String {
        self.scenario.period()
    }

    pub fn side(&self, id: &SideId) -> Option<&SideSetup> {
        self.sides.iter().find(|s| &s.id == id)
    }

    /// A side's name ("Byzantines"), or its id for a side the scenario does not have.
    pub fn side_name(&self, id: &SideId) -> String {
        self.side(id).map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    /// Why `id` names no side of the scenario, with the sides it has.
    pub fn no_such_side(&self, id: &str) -> String {
        let sides: Vec<&str> = self.sides.iter().map(|x| x.id.as_str()).collect();
        format!("{} has no side `{id}`; its sides are {}", self.name(), sides.join(", "))
    }

    pub fn leader(&self, id: &str) -> Option<&Leader> {
        self.leaders.iter().find(|l| l.id == id)
    }

    /// The scenario's rule, which names its set-up.
    pub fn rule_of(&self, _side: &SideId) -> RuleId {
        self.scenario.rule
    }

    /// "summer 535" for turn `turn`, counting one season a turn from the first.
    pub fn date_of_turn(&self, turn: u32) -> String {
        let (season, year) = self.scenario.date_of_turn(turn);
        format!("{season} {year}")
    }

    /// A place's name for reading: "Carthago", "Zeugitana (open country)", "Ionian Sea".
    pub fn place_name(&self, at: &Location) -> String {
        self.map.place_name(at)
    }

    /// The place an id names: a land zone, a city or a sea zone of the map.
    pub fn place(&self, id: &str) -> Result<Location, UnknownPlace> {
        super::world::locate(&self.map, id)
    }

    /// Whether a free line of `side` may be placed at `at` (BE-49…BE-52).
    pub fn check_free_place(&self, side: &SideId, line: &Line, at: &Location) -> Result<(), PlaceError> {
        let name = self.place_name(at);
        let naval_only = line.leaders.is_empty() && line.units.is_empty() && line.decoys == 0;
        let controls = |zone: &ZoneId| self.side(side).is_some_and(|s| s.controls.contains(zone));
        let holds = |city: &CityId| self.side(side).is_some_and(|s| s.holds_at_start(&self.map).contains(city));
        let zone_of = |at: &Location| self.map.zone_of(at);
        match &line.place_rule {
            FreePlace::Fixed => Err(PlaceError::Fixed),
            FreePlace::AnySeaOrOwnPort => match at {
                Location::Sea(_) => Ok(()),
                Location::City(c) if self.map.city(c).is_some_and(|c| c.port) && holds(c) => Ok(()),
                _ => Err(PlaceError::NotSeaOrPort(name)),
            },
            FreePlace::SeaNextTo { zone } => {
                let next = self.map.zone(zone).is_some_and(|z| matches!(at, Location::Sea(s) if z.coast.contains(s)));
                if next { Ok(()) } else { Err(PlaceError::NotSeaNextTo { zone: self.place_name(&Location::Zone(zone.clone())), name }) }
            }
            FreePlace::OwnLandIn { regions } => {
                if naval_only {
                    return Err(PlaceError::FleetsOnLand);
                }
                let zone = zone_of(at).ok_or_else(|| PlaceError::NotLand(name.clone()))?;
                let region = self.map.zone(&zone).map(|z| z.region.to_string()).unwrap_or_default();
                if !regions.contains(&region) {
                    return Err(PlaceError::OutsideRegions { regions: regions.join(" or "), name });
                }
                if !controls(&zone) {
                    return Err(PlaceError::NotControlled(name));
                }
                // Inside the walls only of a city the side holds: the enemy's is besieged.
                if let Location::City(c) = at
                    && !holds(c)
                {
                    return Err(PlaceError::NotHeld(name));
                }
                Ok(())
            }
        }
    }

    /// Every place a free line of `side` may go, in the map's order.
    pub fn free_places(&self, side: &SideId, line: &Line) -> Vec<Location> {
        let all = self
            .map
            .zones
            .iter()
            .flat_map(|z| [Location::Zone(z.id.clone()), Location::City(z.city.id.clone())])
            .chain(self.map.seas.iter().map(|s| Location::Sea(s.id.clone())));
        all.filter(|at| self.check_free_place(side, line, at).is_ok()).collect()
    }
}

/// Why a free line may not be placed where the referee puts it (BE-49…BE-52); `name` is the
/// place's name as a referee reads it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error("this line starts where the scenario puts it")]
    Fixed,
    #[error("fleets go to a sea zone or a port the side holds, not {0}")]
    NotSeaOrPort(String),
    #[error("this line goes to a sea zone next to {zone}, not {name}")]
    NotSeaNextTo { zone: String, name: String },
    #[error("a line of fleets goes to sea")]
    FleetsOnLand,
    #[error("land forces go on land, not {0}")]
    NotLand(String),
    #[error("this line goes to {regions}, and {name} is not there")]
    OutsideRegions { regions: String, name: String },
    #[error("{0} is not a zone the side controls")]
    NotControlled(String),
    #[error("{0} is not a city the side holds")]
    NotHeld(String),
}

/// What every side may read of a campaign's set-up: the map, the tables and the leaders'
/// cards the scenario names — none of the sides' lines, stratagems or cup. A side's desk
/// draws from this and its view, never from the set-up whole (BE-53). A player's desk holds
/// only its own side's cards, so it is made of its parts too ([`Public::new`]).
#[derive(Debug, Clone, Copy)]
pub struct Public<'a> {
    map: &'a ZoneMap,
    tables: &'a Tables,
    leaders: &'a [Leader],
}

impl<'a> Public<'a> {
    pub fn of(setup: &'a Setup) -> Public<'a> {
        Public { map: &setup.map, tables: &setup.tables, leaders: &setup.leaders }
    }

    /// The public part made of its parts: a side's packet carries the map, the tables and
    /// its own leaders' cards.
    pub fn new(map: &'a ZoneMap, tables: &'a Tables, leaders: &'a [Leader]) -> Public<'a> {
        Public { map, tables, leaders }
    }

    pub fn map(&self) -> &'a ZoneMap {
        self.map
    }

    pub fn tables(&self) -> &'a Tables {
        self.tables
    }

    /// A leader's card: his name and ratings are printed on the counter.
    pub fn leader(&self, id: &str) -> Option<&'a Leader> {
        self.leaders.iter().find(|l| l.id == id)
    }

    /// A place's name: "Campania", "Neapolis", "Mare Tyrrhenum".
    pub fn place_name(&self, at: &Location) -> String {
        self.map.place_name(at)
    }

    /// The place an id names, or why it names none.
    pub fn place(&self, id: &str) -> Result<Location, UnknownPlace> {
        super::world::locate(self.map, id)
    }

    /// A leader's or decoy's name, as its own side reads it.
    pub fn piece_name(&self, id: &str) -> String {
        if let Some((_, number)) = super::state::decoy_of(id) {
            format!("decoy {number}")
        } else {
            self.leader(id).map_or_else(|| id.to_owned(), |l| l.name.clone())
        }
    }

    /// The land zone a place on land belongs to: itself, or the zone of its city.
    pub fn zone_of(&self, at: &Location) -> Option<ZoneId> {
        self.map.zone_of(at)
    }
}

impl Line {
    /// Whether nothing is left of the line to place.
    pub fn is_empty(&self) -> bool {
        self.leaders.is_empty() && self.decoys == 0 && self.units.is_empty() && self.fleets.is_empty() && self.fleet_decoys == 0
    }

    /// Takes `part` out of the line: its leaders by id, its units and fleets one for one by
    /// value (equal units are interchangeable), its decoys by count.
    pub fn take(&mut self, part: &Line) {
        self.leaders.retain(|l| !part.leaders.contains(l));
        for u in &part.units {
            if let Some(i) = self.units.iter().position(|x| x == u) {
                self.units.remove(i);
            }
        }
        for f in &part.fleets {
            if let Some(i) = self.fleets.iter().position(|x| x == f) {
                self.fleets.remove(i);
            }
        }
        self.decoys = self.decoys.saturating_sub(part.decoys);
        self.fleet_decoys = self.fleet_decoys.saturating_sub(part.fleet_decoys);
    }

    /// The line in a few words: "Belisarius, Iohannes, 2 decoys, 18 units (26 CP), 2 fleets
    /// (15 NPs)".
    pub fn describe(&self, setup: &Setup) -> String {
        let mut parts: Vec<String> = self.leaders.iter().map(|l| setup.leader(l).map_or_else(|| l.clone(), |l| l.name.clone())).collect();
        if self.decoys > 0 {
            parts.push(crate::core::words::count(self.decoys, "decoy"));
        }
        if !self.units.is_empty() {
            let cp: u32 = self.units.iter().map(|u| u32::from(u.value)).sum();
            parts.push(format!("{} ({cp} CP)", crate::core::words::count(self.units.len(), "unit")));
        }
        if !self.fleets.is_empty() {
            let np: u32 = self.fleets.iter().sum();
            parts.push(format!("{} fleet(s) ({np} NPs)", self.fleets.len()));
        }
        if self.fleet_decoys > 0 {
            parts.push(format!("{} fleet decoy(s)", self.fleet_decoys));
        }
        parts.join(", ")
    }
}

/// A ship's name as its own side reads it: "fleet 2" for `fleet-byzantines-2`.
pub fn ship_name(id: &str) -> String {
    format!("fleet {}", id.rsplit('-').next().unwrap_or_default())
}
