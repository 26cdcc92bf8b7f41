//! The scenario's victory conditions (BE-46, BE-49 … BE-52): a running check for the umpire
//! while the campaign lasts, and the judgement when its last turn ends — zones each side
//! controls (the control markers as they lie: a scorched zone keeps its marker, BE-44),
//! cities it holds, and the enemy combat points it has destroyed in battle, assault, sortie
//! and a city's fall.
//!
//! Reading: each scenario gives conditions for one side only; that side wins if it meets
//! them all when the last turn ends, and the other side wins if it does not.

use serde::{Deserialize, Serialize};

use super::scenario::Victory;
use super::state::State;
use crate::ids::SideId;

/// One condition and where the side stands on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub side: SideId,
    /// The condition, in words: "hold Carthago, Hadrumetum and Hippo Regius".
    pub condition: String,
    /// Where the side stands: "holds 2 of 3 (not Hippo Regius)".
    pub now: String,
    pub met: bool,
}

impl Standing {
    /// The standing in one line, its side called `side`: "Byzantines: hold Carthago — holds 1
    /// of 1", with "(met)" after a condition met.
    pub fn line(&self, side: &str) -> String {
        format!("{side}: {} — {}{}", self.condition, self.now, if self.met { " (met)" } else { "" })
    }
}

/// The campaign's end: where each side stood on every condition, and who won.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    pub standings: Vec<Standing>,
    pub winner: Option<SideId>,
}

/// A victory condition as every reader may know it: the scenario's words, and where its side
/// stands on it where the map shows that — zones controlled and cities held (BE-46). The
/// enemy combat points a side has destroyed are not counted for the sides while the campaign
/// lasts: some fall out of sight (troops drowned aboard, a garrison as its city falls), and
/// the count would tell what they were (BE-53). The umpire has every standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    pub side: SideId,
    /// The condition, in words: "control 15 zones anywhere".
    pub condition: String,
    /// Where the side stands, when the map shows it: "controls 14".
    #[serde(default)]
    pub now: Option<String>,
    #[serde(default)]
    pub met: Option<bool>,
}

/// The scenario's victory conditions as everyone may read them (see [`Condition`]).
pub fn conditions(state: &State) -> Vec<Condition> {
    standings(state)
        .into_iter()
        .zip(&state.setup.scenario.victory)
        .map(|(s, v)| {
            let public = !matches!(v, Victory::Destroy { .. });
            Condition { side: s.side, condition: s.condition, now: public.then_some(s.now), met: public.then_some(s.met) }
        })
        .collect()
}

/// BE-49 … BE-52: the conditions judged now: the side they are set for wins if it meets
/// them all; otherwise the other side does.
pub fn judge(state: &State) -> Judgement {
    let standings = standings(state);
    let set_for: Option<&SideId> = standings.first().map(|s| &s.side);
    let winner = set_for.map(|side| {
        let all = standings.iter().filter(|s| &s.side == side).all(|s| s.met);
        if all { side.clone() } else { super::operations::other_side(state, side) }
    });
    Judgement { standings, winner }
}

fn regions_text(regions: &[String]) -> String {
    // The map's regions are named by their ids, which are their Latin names in small letters.
    let named: Vec<String> = regions.iter().map(|r| crate::core::words::capitalised(r)).collect();
    if regions.is_empty() { "anywhere".to_owned() } else { format!("in {}", named.join(", ")) }
}

/// Every victory condition of the scenario and where its side stands.
pub fn standings(state: &State) -> Vec<Standing> {
    let map = &state.setup.map;
    let holds = |side: &SideId, city: &str| state.cities.iter().any(|(id, h)| id.0 == city && h.holder.as_ref() == Some(side));
    let city_name = |id: &str| map.zones.iter().find(|z| z.city.id.0 == id).map_or_else(|| id.to_owned(), |z| z.city.name.clone());
    let in_regions = |region: &str, regions: &[String]| regions.is_empty() || regions.iter().any(|r| r == region);
    state
        .setup
        .scenario
        .victory
        .iter()
        .map(|v| match v {
            Victory::HoldCities { side, cities } => {
                let missing: Vec<String> = cities.iter().filter(|c| !holds(side, c)).map(|c| city_name(c)).collect();
                let names: Vec<String> = cities.iter().map(|c| city_name(c)).collect();
                Standing {
                    side: side.clone(),
                    condition: format!("hold {}", names.join(", ")),
                    now: if missing.is_empty() {
                        "all held".to_owned()
                    } else {
                        format!("holds {} of {} (not {})", cities.len() - missing.len(), cities.len(), missing.join(", "))
                    },
                    met: missing.is_empty(),
                }
            }
            Victory::Zones { side, count, regions } => {
                let n = map.zones.iter().filter(|z| in_regions(&z.region, regions) && state.control.get(&z.id) == Some(side)).count();
                let n = u32::try_from(n).unwrap_or(u32::MAX);
                Standing {
                    side: side.clone(),
                    condition: format!("control {count} zones {}", regions_text(regions)),
                    now: format!("controls {n}"),
                    met: n >= *count,
                }
            }
            Victory::OtherCities { side, count, regions } => {
                let named: Vec<&String> = state
                    .setup
                    .scenario
                    .victory
                    .iter()
                    .filter_map(|v| match v {
                        Victory::HoldCities { side: s, cities } if s == side => Some(cities),
                        _ => None,
                    })
                    .flatten()
                    .collect();
                let n = map
                    .zones
                    .iter()
                    .filter(|z| in_regions(&z.region, regions) && !named.contains(&&z.city.id.0) && holds(side, &z.city.id.0))
                    .count();
                let n = u32::try_from(n).unwrap_or(u32::MAX);
                Standing {
                    side: side.clone(),
                    condition: format!("hold {count} other cities {}", regions_text(regions)),
                    now: format!("holds {n}"),
                    met: n >= *count,
                }
            }
            Victory::Destroy { side, combat_points } => {
                let n: u32 = state.lost_in_battle.iter().filter(|(s, _)| *s != side).map(|(_, p)| *p).sum();
                Standing {
                    side: side.clone(),
                    condition: format!("destroy {combat_points} enemy combat points"),
                    now: format!("has destroyed {n}"),
                    met: n >= *combat_points,
                }
            }
        })
        .collect()
}
