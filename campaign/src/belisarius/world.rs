//! The Belisarius world: the zone map, the leaders, the tables and the scenarios read
//! together, and a scenario turned into a [`Setup`] ready to start a campaign from.

use referee_data::{DataError, DataSource, Problem};

use super::map::{CityId, ZoneId, ZoneMap};
use super::pieces::LeaderBook;
use super::scenario::{FreeRule, PlaceKind, Scenario, ScenarioLine, load_scenarios};
use super::setup::{FreePlace, Line, Setup, SideSetup};
use super::state::Location;
use super::tables::Tables;

/// Everything a Belisarius campaign is played with.
#[derive(Debug, Clone, PartialEq)]
pub struct World {
    pub map: ZoneMap,
    pub tables: Tables,
    pub leaders: LeaderBook,
    /// In the order they are played, earliest first.
    pub scenarios: Vec<Scenario>,
}

impl World {
    /// Reads the map, the leaders, the tables and the scenarios from `source`, reporting
    /// every problem of every file at once. A referee's folder not laid out like `data/` is
    /// refused first, in one sentence ([`DataSource::check_layout`]).
    pub fn load(source: &DataSource) -> Result<World, DataError> {
        source.check_layout()?;
        let mut problems: Vec<Problem> = Vec::new();
        let map = ZoneMap::load(source).map_err(|e| problems.extend(e.problems)).ok();
        let tables = Tables::load(source).map_err(|e| problems.extend(e.problems)).ok();
        let leaders = LeaderBook::load(source).map_err(|e| problems.extend(e.problems)).ok();
        let (Some(map), Some(tables), Some(leaders)) = (map, tables, leaders) else {
            return Err(DataError { problems });
        };
        let places = |id: &str| place_kind(&map, id);
        let scenarios = load_scenarios(source, &leaders, &places)?;
        let world = World { map, tables, leaders, scenarios };
        // A scenario that names a place or a port the map cannot hold is refused here, so a
        // referee learns of it when the data is read, not when a campaign is started.
        let problems: Vec<Problem> = world
            .scenarios
            .iter()
            .filter_map(|s| world.setup(&s.id).err())
            .map(|e| Problem { file: source.name_of(super::scenario::SCENARIO_DIR), line: 0, message: e.to_string() })
            .collect();
        if problems.is_empty() { Ok(world) } else { Err(DataError { problems }) }
    }

    /// The world built into the program. Its files are checked by the tests, so reading
    /// them cannot fail in a released build.
    pub fn embedded() -> World {
        #[allow(clippy::expect_used)]
        World::load(&DataSource::Embedded).expect("the built-in Belisarius data files are valid")
    }

    pub fn scenario(&self, id: &str) -> Option<&Scenario> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    /// The scenario `id` made ready to play: places resolved on the map, fleets of a line
    /// set up on land put in its port, the cup filled with the AP chits and the scenario's
    /// stratagems.
    pub fn setup(&self, id: &str) -> Result<Setup, SetupError> {
        let scenario = self.scenario(id).ok_or_else(|| {
            let ids: Vec<&str> = self.scenarios.iter().map(|s| s.id.as_str()).collect();
            SetupError::NoScenario { id: id.to_owned(), known: ids.join(", ") }
        })?;
        let mut sides = Vec::new();
        for side in &scenario.sides {
            let lines = side
                .lines
                .iter()
                .map(|line| self.line(line))
                .collect::<Result<Vec<_>, LineError>>()
                .map_err(|error| SetupError::Line { scenario: scenario.id.clone(), side: side.name.clone(), error })?;
            let controls = side.controls.iter().map(|z| ZoneId::new(z.as_str())).collect();
            let holds = side.holds.iter().map(|c| CityId::new(c.as_str())).collect();
            let must_hold = side.must_hold.iter().map(|c| CityId::new(c.as_str())).collect();
            sides.push(SideSetup {
                id: side.id.clone(),
                name: side.name.clone(),
                cinc: side.cinc.clone(),
                succession: side.succession.clone(),
                lines,
                hand: side.hand.clone(),
                controls,
                holds: Some(holds),
                must_hold,
            });
        }
        let mut cup = self.tables.ap_chit_ids();
        cup.extend(scenario.cup_stratagems.iter().cloned());
        // The leaders of the set-up, the successions and the reinforcements to come.
        let named: Vec<&String> = scenario
            .sides
            .iter()
            .flat_map(|s| s.cinc.iter().chain(&s.succession).chain(s.lines.iter().flat_map(|l| &l.leaders)))
            .chain(scenario.reinforcements.iter().flat_map(|r| &r.line.leaders))
            .collect();
        // The Frankish king, wherever the Franks may come (event G or the stratagem, BE-48).
        let franks = super::franks::STRATAGEM;
        let may_come = scenario.events.contains(&'G')
            || scenario.cup_stratagems.iter().any(|s| s == franks)
            || scenario.sides.iter().any(|s| s.hand.iter().any(|h| h == franks));
        let king = super::franks::KING.to_owned();
        let named: Vec<&String> = named.into_iter().chain(may_come.then_some(&king)).collect();
        let leaders = self.leaders.leaders.iter().filter(|l| named.contains(&&l.id)).cloned().collect();
        Ok(Setup { scenario: scenario.clone(), sides, cup, map: self.map.clone(), leaders, tables: self.tables.clone() })
    }

    fn line(&self, line: &ScenarioLine) -> Result<Line, LineError> {
        line_on(&self.map, line)
    }
}

/// Why a scenario cannot be set up: the world has no scenario of the id (`known` lists the
/// ones it has), or a line of one of its sides does not stand on the map.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("there is no Belisarius scenario `{id}`; there are {known}")]
    NoScenario { id: String, known: String },
    #[error("{scenario}: {side}: {error}")]
    Line { scenario: String, side: String, error: LineError },
}

/// Why a scenario's set-up line does not stand on the map: a place or zone the map lacks,
/// neither a place nor a rule for placing it, or fleets set up away from a port.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error(transparent)]
    Place(#[from] UnknownPlace),
    #[error("no land zone `{0}`")]
    NoZone(String),
    #[error("no city `{0}`")]
    NoCity(String),
    #[error("a set-up line needs a place or a rule for placing it")]
    Unplaced,
    #[error("fleets set up at {zone}, whose city {city} is no port")]
    ZoneWithoutPort { zone: String, city: String },
    #[error("fleets set up at {0}, which is no port")]
    CityWithoutPort(String),
}

/// An id that names no land zone, city or sea zone of the map, with the ids nearest to it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{id}` is no zone, city or sea zone of the map{}", crate::core::words::did_you_mean(nearest))]
pub struct UnknownPlace {
    pub id: String,
    /// The map's ids nearest to the one given, the nearest first.
    pub nearest: Vec<String>,
}

/// A scenario's line resolved on `map`: its place, or the rule for placing it, and the port
/// its fleets wait in.
pub fn line_on(map: &ZoneMap, line: &ScenarioLine) -> Result<Line, LineError> {
    let at = line.at.as_deref().map(|id| locate(map, id)).transpose()?;
    let (place_rule, free) = match &line.free {
        None => (FreePlace::Fixed, None),
        Some(FreeRule::AnySea) => (FreePlace::AnySeaOrOwnPort, Some("any sea zone, or a port the side holds".to_owned())),
        Some(FreeRule::SeaNextTo { zone }) => {
            let z = map.zone(&ZoneId::new(zone.as_str())).ok_or_else(|| LineError::NoZone(zone.clone()))?;
            (FreePlace::SeaNextTo { zone: z.id.clone() }, Some(format!("a sea zone next to {}", z.name)))
        }
        Some(FreeRule::OwnLandIn { regions }) => {
            let words = regions.join(" or ");
            (FreePlace::OwnLandIn { regions: regions.clone() }, Some(format!("a zone or city the side holds in {words}")))
        }
    };
    if at.is_none() && free.is_none() {
        return Err(LineError::Unplaced);
    }
    let port = match (&at, line.fleets.is_empty() && line.fleet_decoys == 0) {
        (Some(Location::Zone(z)), false) => {
            let zone = map.zone(z).ok_or_else(|| LineError::NoZone(z.to_string()))?;
            if !zone.city.port {
                return Err(LineError::ZoneWithoutPort { zone: zone.name.clone(), city: zone.city.name.clone() });
            }
            Some(zone.city.id.clone())
        }
        (Some(Location::City(c)), false) => {
            let city = map.city(c).ok_or_else(|| LineError::NoCity(c.to_string()))?;
            if !city.port {
                return Err(LineError::CityWithoutPort(city.name.clone()));
            }
            Some(c.clone())
        }
        _ => None,
    };
    Ok(Line {
        at,
        free,
        place_rule,
        leaders: line.leaders.clone(),
        decoys: line.decoys,
        units: line.units.clone(),
        fleets: line.fleets.clone(),
        fleet_decoys: line.fleet_decoys,
        port,
    })
}

/// What kind of place `id` names on `map`, if any.
pub fn place_kind(map: &ZoneMap, id: &str) -> Option<PlaceKind> {
    if map.zones.iter().any(|z| z.id.as_str() == id) {
        Some(PlaceKind::Zone)
    } else if map.zones.iter().any(|z| z.city.id.as_str() == id) {
        Some(PlaceKind::City)
    } else if map.seas.iter().any(|s| s.id.as_str() == id) {
        Some(PlaceKind::Sea)
    } else {
        None
    }
}

/// The place `id` names on `map`: a land zone, a city or a sea zone.
pub fn locate(map: &ZoneMap, id: &str) -> Result<Location, UnknownPlace> {
    let id = id.trim();
    match place_kind(map, id) {
        Some(PlaceKind::Zone) => Ok(Location::Zone(ZoneId::new(id))),
        Some(PlaceKind::City) => Ok(Location::City(CityId::new(id))),
        Some(PlaceKind::Sea) => Ok(Location::Sea(super::map::SeaId::new(id))),
        None => {
            let ids = map.zones.iter().flat_map(|z| [z.id.as_str(), z.city.id.as_str()]).chain(map.seas.iter().map(|s| s.id.as_str()));
            let names = map.zones.iter().flat_map(|z| [(z.name.as_str(), z.id.as_str()), (z.city.name.as_str(), z.city.id.as_str())]);
            let names = names.chain(map.seas.iter().map(|s| (s.name.as_str(), s.id.as_str())));
            Err(UnknownPlace { id: id.to_owned(), nearest: crate::core::words::nearest(id, ids, names) })
        }
    }
}
