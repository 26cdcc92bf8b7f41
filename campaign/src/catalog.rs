//! Loading every data file at once into validated maps and scenarios.

use std::collections::BTreeMap;

use referee_data::raw::{RawMap, RawScenario};
use referee_data::{DataError, DataSource, Problem};

use crate::map::Map;
use crate::scenario::Scenario;

/// Every map and scenario, validated.
#[derive(Debug, Clone)]
pub struct Catalog {
    pub maps: BTreeMap<String, Map>,
    /// Scenarios in file-name order.
    pub scenarios: Vec<Scenario>,
}

impl Catalog {
    /// Reads and checks every file; if any is wrong, reports the problems of all of them.
    pub fn load(source: &DataSource) -> Result<Catalog, DataError> {
        let mut problems: Vec<Problem> = Vec::new();
        let mut maps = BTreeMap::new();
        for path in source.list("maps")? {
            let loaded = source
                .read(&path)
                .and_then(|text| Map::from_raw(referee_data::parse::<RawMap>(&text)?, &text));
            match loaded {
                Ok(map) => {
                    if maps.contains_key(&map.id) {
                        problems.push(Problem {
                            file: path.clone(),
                            line: 0,
                            message: format!("map id `{}` is used by another map file already", map.id),
                        });
                    }
                    maps.insert(map.id.clone(), map);
                }
                Err(e) => problems.extend(e.problems),
            }
        }
        let mut scenarios = Vec::new();
        for path in source.list("scenarios")? {
            let loaded = source
                .read(&path)
                .and_then(|text| Scenario::from_raw(referee_data::parse::<RawScenario>(&text)?, &text, &maps));
            match loaded {
                Ok(s) => scenarios.push(s),
                Err(e) => problems.extend(e.problems),
            }
        }
        if !problems.is_empty() {
            return Err(DataError { problems });
        }
        Ok(Catalog { maps, scenarios })
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

    /// The scenario with `id`, or a sentence listing the ones there are.
    pub fn require_scenario(&self, id: &str) -> Result<&Scenario, String> {
        self.scenario(id).ok_or_else(|| {
            format!(
                "there is no scenario `{id}`; the scenarios are {}",
                self.scenarios.iter().map(|s| s.id.as_str()).collect::<Vec<_>>().join(", ")
            )
        })
    }
}
