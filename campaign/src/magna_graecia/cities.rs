//! Cities: the commands a fortified city fields (MG-05) and the garrison of a capital of
//! strength 0 under its inherent sub-general (MG-04).

use super::army::{CommandRoster, ElementGroup, neutral_city_command, take_groups};
use super::event::Event;
use super::map::Map;
use super::state::CampaignState;
use super::turn::Phase;
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::ids::{NodeId, SideId};

impl CampaignState {
    /// How many commands the city at `node` fields (MG-05): a capital's scenario strength, the
    /// scenario's number for a side's allied cities where it sets one, else the map's.
    pub fn city_command_count(&self, map: &Map, node: NodeId) -> Option<u8> {
        let city = map.node(node).filter(|n| n.is_fortified())?;
        if let Some(capital) = self.scenario.sides.iter().find_map(|s| s.capital.filter(|c| c.node == node)) {
            return Some(capital.strength);
        }
        let ally_override =
            self.politics.city_allies.get(&node).and_then(|side| self.scenario.side(side)).and_then(|s| s.allied_city_commands);
        ally_override.or(city.city_commands)
    }

    /// The city's own commands: each of the fixed make-up of MG-05 until it has fought, and
    /// as its battles left it after.
    pub fn city_forces(&self, map: &Map, node: NodeId) -> Vec<CommandRoster> {
        if let Some(forces) = self.siege.city_forces_left.get(&node) {
            return forces.clone();
        }
        let name = map.name(node);
        (1..=self.city_command_count(map, node).unwrap_or(0)).map(|i| neutral_city_command(&format!("{name} {i}"))).collect()
    }

    /// A fortified city allied to no side and nobody's capital.
    pub fn is_neutral_city(&self, map: &Map, node: NodeId) -> bool {
        map.node(node).is_some_and(|n| n.is_fortified())
            && !self.politics.city_allies.contains_key(&node)
            && !self.scenario.sides.iter().any(|s| s.capital.is_some_and(|c| c.node == node))
    }

    /// Elements in the side's capital's garrison (MG-04).
    pub fn garrison_elements(&self, side: &SideId) -> u32 {
        self.garrisons.get(side).map_or(0, |g| g.iter().map(|e| e.count).sum())
    }

    /// The side's capital, if it has strength 0 and so an inherent sub-general (MG-04).
    pub fn garrisoned_capital(&self, side: &SideId) -> Option<NodeId> {
        self.scenario.side(side)?.capital.filter(|c| c.strength == 0).map(|c| c.node)
    }
}

/// MG-07: the moving side attacks a neutral city where its counters stand; the city becomes
/// the ally of `ally`, an enemy of the attacker, and its commands fight the battle.
pub fn attack_city(state: &CampaignState, map: &Map, side: &SideId, node: NodeId, ally: &SideId) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Combat || state.moving_side() != side {
        return Err(RuleError::new(RuleId::MG_07, "a side attacks a neutral city in its own combat phase"));
    }
    if !state.is_neutral_city(map, node) {
        return Err(RuleError::new(RuleId::MG_07, format!("{} is not a neutral walled city", map.name(node))));
    }
    if !state.counters.iter().any(|c| &c.side == side && c.node == node && c.on_land()) {
        return Err(RuleError::new(
            RuleId::MG_07,
            format!("{} has no command at {} to attack with", super::turn::side_name(state, side), map.name(node)),
        ));
    }
    if !state.is_side(ally) || !state.are_enemies(side, ally) {
        return Err(RuleError::new(
            RuleId::MG_07,
            format!(
                "the attacked city turns to an enemy of {}, and {} is not one",
                super::turn::side_name(state, side),
                super::turn::side_name(state, ally)
            ),
        ));
    }
    if state.battles.iter().any(|b| b.node == node) || state.siege.sieges.iter().any(|s| s.node == node) {
        return Err(RuleError::new(RuleId::MG_07, format!("there is a battle or siege at {} already", map.name(node))));
    }
    let battle = super::turn::Battle::raised(state, state.battles_raised + 1, node, side, vec![ally.clone()], Some(node));
    Ok(vec![Event::CityAttacked { battle: super::turn::Battle { city_attack: true, ..battle }, forces: state.city_forces(map, node) }])
}

/// Which way elements go between a command and the capital's garrison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    IntoGarrison,
    OutOfGarrison,
}

/// MG-04: a command at its side's strength-0 capital leaves elements with the inherent
/// sub-general, or takes them back. Free during setup; 1 MP in the side's movement, as an
/// exchange of elements (MG-14).
pub fn garrison(
    state: &CampaignState,
    map: &Map,
    side: &SideId,
    command: &str,
    elements: &[ElementGroup],
    direction: Direction,
) -> Result<Vec<Event>, RuleError> {
    let setup = state.scenario.side(side).ok_or_else(|| RuleError::new(RuleId::MG_02, format!("there is no side `{side}`")))?;
    let capital = state.garrisoned_capital(side).ok_or_else(|| {
        RuleError::new(RuleId::MG_04, format!("{} has no capital of strength 0, so no inherent sub-general to hold a garrison", setup.name))
    })?;
    match state.phase {
        Phase::Setup => {}
        Phase::Movement if state.moving_side() == side => {}
        _ => {
            return Err(RuleError::new(RuleId::MG_04, "the garrison changes during setup or its side's movement phase"));
        }
    }
    let counter = state
        .counter(side, command)
        .filter(|c| !c.is_fleet())
        .ok_or_else(|| RuleError::new(RuleId::MG_03, format!("{} has no command called {command} on the map", setup.name)))?;
    if counter.node != capital || !counter.on_land() {
        return Err(RuleError::new(
            RuleId::MG_04,
            format!("{command} must stand ashore at {} to hand elements to or from its garrison", map.name(capital)),
        ));
    }
    if state.phase == Phase::Movement && state.movement_points(counter) <= counter.mp_spent {
        return Err(RuleError::new(RuleId::MG_14, format!("handing over elements costs 1 MP and {command} has none left")));
    }
    if elements.is_empty() {
        return Err(RuleError::new(RuleId::MG_04, "name the elements to hand over"));
    }
    let source: Vec<ElementGroup> = match direction {
        Direction::IntoGarrison => state
            .armies
            .get(side)
            .and_then(|a| a.commands.iter().find(|c| c.name == command))
            .map(|c| c.elements.clone())
            .unwrap_or_default(),
        Direction::OutOfGarrison => state.garrisons.get(side).cloned().unwrap_or_default(),
    };
    if let Err(g) = take_groups(&mut source.clone(), elements) {
        let have: u32 = source.iter().filter(|h| h.spec == g.spec).map(|h| h.count).sum();
        let holder = match direction {
            Direction::IntoGarrison => format!("{command} has"),
            Direction::OutOfGarrison => "the garrison has".to_owned(),
        };
        return Err(RuleError::new(RuleId::MG_04, format!("{holder} {have} {} and cannot hand over {}", g.spec, g.count)));
    }
    Ok(vec![Event::GarrisonChanged {
        side: side.clone(),
        command: command.to_owned(),
        elements: elements.to_vec(),
        into_garrison: direction == Direction::IntoGarrison,
    }])
}

/// Moves `elements` from one list of groups to another, merging equal kinds.
pub(crate) fn transfer(from: &mut Vec<ElementGroup>, to: &mut Vec<ElementGroup>, elements: &[ElementGroup]) {
    for g in elements {
        // Events were checked when decided; a group missing here is still credited to `to`.
        let _ = take_groups(from, std::slice::from_ref(g));
        match to.iter_mut().find(|h| h.spec == g.spec) {
            Some(have) => have.count += g.count,
            None => to.push(g.clone()),
        }
    }
}

impl CampaignState {
    pub(crate) fn apply_garrison(&mut self, side: &SideId, command: &str, elements: &[ElementGroup], into_garrison: bool) {
        if self.phase == Phase::Movement
            && let Some(c) = self.counters.iter_mut().find(|c| &c.side == side && c.name == command)
        {
            c.mp_spent = c.mp_spent.saturating_add(1);
        }
        let Some(roster) = self.armies.get_mut(side).and_then(|a| a.commands.iter_mut().find(|c| c.name == command)) else {
            return;
        };
        let garrison = self.garrisons.entry(side.clone()).or_default();
        if into_garrison {
            transfer(&mut roster.elements, garrison, elements);
        } else {
            transfer(garrison, &mut roster.elements, elements);
        }
    }
}
