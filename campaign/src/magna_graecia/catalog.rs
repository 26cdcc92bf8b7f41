//! Loading every data file at once into validated maps and scenarios.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use referee_data::raw::{RawArmyFile, RawElementTable, RawMap, RawScenario};
use referee_data::{DataError, DataSource, MAGNA_GRAECIA, Problem, Report, SourceText};

use super::army::{ElementTable, army_from_raw};
use super::map::Map;
use super::scenario::Scenario;
use crate::ids::SideId;

/// Where the points table lives in the data folder.
pub const ELEMENT_TABLE: &str = "magna-graecia/tables/elements.toml";
/// The folders of the maps, the scenarios and their default armies in the data folder.
pub const MAP_DIR: &str = "magna-graecia/maps";
pub const SCENARIO_DIR: &str = "magna-graecia/scenarios";
pub const ARMY_DIR: &str = "magna-graecia/armies";

/// Every map and scenario, validated.
#[derive(Debug, Clone)]
pub struct Catalog {
    pub maps: BTreeMap<String, Map>,
    /// Scenarios in file-name order, each with its default armies.
    pub scenarios: Vec<Scenario>,
    /// The points table armies are bought with.
    pub elements: ElementTable,
}

impl Catalog {
    /// Reads and checks every file; if any is wrong, reports the problems of all of them.
    ///
    /// A referee's folder not laid out like `data/` is refused first, in one sentence
    /// ([`DataSource::check_layout`]); one without a `magna-graecia` folder (made for
    /// Belisarius alone) has no Magna Graecia maps or scenarios.
    ///
    /// The built-in files are read once per process, as they cannot change while it runs; a
    /// folder is read again each time, so that a referee's edits are seen.
    pub fn load(source: &DataSource) -> Result<Catalog, DataError> {
        match source {
            DataSource::Embedded => {
                static EMBEDDED: OnceLock<Result<Catalog, DataError>> = OnceLock::new();
                EMBEDDED.get_or_init(|| Catalog::read(source)).clone()
            }
            DataSource::Folder(_) => Catalog::read(source),
        }
    }

    fn read(source: &DataSource) -> Result<Catalog, DataError> {
        source.check_layout()?;
        if !source.has(MAGNA_GRAECIA) {
            return Ok(Catalog { maps: BTreeMap::new(), scenarios: Vec::new(), elements: ElementTable::default() });
        }
        let mut problems: Vec<Problem> = Vec::new();
        let mut maps = BTreeMap::new();
        for path in source.list(MAP_DIR)? {
            let loaded = source.read(&path).and_then(|text| Map::from_raw(referee_data::parse::<RawMap>(&text)?, &text));
            match loaded {
                Ok(map) => {
                    if maps.contains_key(&map.id) {
                        problems.push(Problem {
                            file: source.name_of(&path),
                            line: 0,
                            message: format!("map id `{}` is used by another map file already", map.id),
                        });
                    }
                    maps.insert(map.id.clone(), map);
                }
                Err(e) => problems.extend(e.problems),
            }
        }
        let elements =
            source.read(ELEMENT_TABLE).and_then(|text| ElementTable::from_raw(referee_data::parse::<RawElementTable>(&text)?, &text));
        let elements = match elements {
            Ok(t) => Some(t),
            Err(e) => {
                problems.extend(e.problems);
                None
            }
        };
        let mut army_files: BTreeMap<String, (SourceText, RawArmyFile)> = BTreeMap::new();
        // Army files that could not be read: their problems are listed, and the scenario of
        // the same name is not told again that it has no army file.
        let mut unread: Vec<String> = Vec::new();
        for path in source.list(ARMY_DIR)? {
            let parsed = source.read(&path).and_then(|text| {
                let raw = referee_data::parse::<RawArmyFile>(&text)?;
                Ok((text, raw))
            });
            match parsed {
                Ok((text, raw)) => {
                    army_files.insert(raw.scenario.get_ref().clone(), (text, raw));
                }
                Err(e) => {
                    problems.extend(e.problems);
                    unread.push(path);
                }
            }
        }
        let mut scenarios = Vec::new();
        for path in source.list(SCENARIO_DIR)? {
            let loaded = source.read(&path).and_then(|text| Scenario::from_raw(referee_data::parse::<RawScenario>(&text)?, &text, &maps));
            match loaded {
                Ok(mut s) => {
                    if let Some(table) = &elements {
                        let own_file = format!("{ARMY_DIR}/{}.toml", s.id);
                        match army_files.remove(&s.id) {
                            Some((text, raw)) => attach_armies(&mut s, table, &raw, &text, &mut problems),
                            None if unread.contains(&own_file) => {}
                            None => problems.push(Problem {
                                file: source.name_of(&own_file),
                                line: 0,
                                message: format!("scenario `{}` has no army file; every side needs a default army", s.id),
                            }),
                        }
                    }
                    scenarios.push(s);
                }
                Err(e) => problems.extend(e.problems),
            }
        }
        // Armies of a scenario that failed to load say nothing more: its problems are listed.
        let scenario_files = source.list(SCENARIO_DIR)?;
        let has_file = |id: &str| scenario_files.iter().any(|p| p.trim_end_matches(".toml").rsplit('/').next() == Some(id));
        for (id, (text, raw)) in army_files.into_iter().filter(|(id, _)| !has_file(id)) {
            let mut report = Report::new(&text);
            report.at(raw.scenario.span().start, format!("the armies are for scenario `{id}`, which is not loaded"));
            problems.extend(report.problems);
        }
        if !problems.is_empty() {
            return Err(DataError { problems });
        }
        Ok(Catalog { maps, scenarios, elements: elements.unwrap_or_default() })
    }

    /// The built-in data, which is checked by the test suite and so always loads.
    pub fn embedded() -> Catalog {
        Catalog::load(&DataSource::Embedded).expect("the built-in data files are valid")
    }

    pub fn scenario(&self, id: &str) -> Option<&Scenario> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    pub fn map(&self, id: &str) -> Option<&Map> {
        self.maps.get(id)
    }

    /// The scenario with `id`, or an error listing the ones there are.
    pub fn require_scenario(&self, id: &str) -> Result<&Scenario, UnknownScenario> {
        self.scenario(id).ok_or_else(|| UnknownScenario {
            id: id.to_owned(),
            known: self.scenarios.iter().map(|s| s.id.as_str()).collect::<Vec<_>>().join(", "),
        })
    }
}

/// A scenario asked for by an id the catalog does not hold; `known` lists the ids it does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no scenario `{id}`; the scenarios are {known}")]
pub struct UnknownScenario {
    pub id: String,
    pub known: String,
}

/// MG-03: checks a scenario's default armies against its sides and points, and attaches them
/// in move order.
fn attach_armies(scenario: &mut Scenario, table: &ElementTable, raw: &RawArmyFile, text: &SourceText, problems: &mut Vec<Problem>) {
    let mut report = Report::new(text);
    let mut armies = BTreeMap::new();
    for raw_army in &raw.armies {
        let side = SideId::new(raw_army.side.get_ref().clone());
        let at = raw_army.side.span().start;
        let Some(setup) = scenario.side(&side) else {
            report.at(at, format!("{} has no side `{side}`", scenario.name));
            continue;
        };
        let points = setup.army_points;
        let Some(army) = army_from_raw(raw_army, &mut report) else { continue };
        for p in table.check(&army, points) {
            let line_at = p.command.and_then(|i| raw_army.commands.get(i)).map_or(at, |c| c.name.span().start);
            report.at(line_at, format!("{side}'s army: {}", p.message));
        }
        if armies.insert(side.clone(), army).is_some() {
            report.at(at, format!("side `{side}` has two armies"));
        }
    }
    for side in &scenario.move_order {
        if !armies.contains_key(side) {
            report.file(format!("side `{side}` of {} has no default army", scenario.name));
        }
    }
    problems.extend(report.problems);
    scenario.elements = table.clone();
    scenario.armies = scenario.move_order.iter().filter_map(|s| armies.remove(s)).collect();
}
