//! The reinforcement phase (BE-45), in spring only: the Ostrogoths buy units with 2d6 halved
//! (rounded up) plus a point for every five zones they control, at the printed prices; the
//! Byzantines receive what their scenario sends that spring; the Vandals nothing. Everything
//! arrives in a zone (or its city) the side controls.
//!
//! Readings of the rules this module makes:
//! - The Gothic units bought are, like the scenarios' Gothic units, heavy cavalry for A and B,
//!   infantry for C and the bracketed D (light foot archers). The counter mix limits nothing
//!   here: the rules do not give its counts.
//! - The Goths may split their purchase between places and leave points unspent (they are
//!   lost); they may not raise troops in a scorched zone (BE-44).
//! - A Byzantine reinforcement the scenario puts at a named place arrives there; one it lets
//!   the player place waits for `place_reinforcements` at a zone or city the side controls
//!   now, in the regions the scenario names — or anywhere the side controls, if it controls
//!   nothing there.
//! - The phase is played each spring that anyone is due something; the operations wait for
//!   it.

use crate::core::log::DiceRolled;
use serde::{Deserialize, Serialize};

use super::event::Event;
use super::operations::side_name;
use super::pieces::{Unit, UnitKind};
use super::scenario::{Season, SpecialKey};
use super::setup::{FreePlace, Line};
use super::state::{Location, State};
use crate::core::dice::{Dice, DiceSpec};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// Zones controlled for each extra Gothic reinforcement point (BE-45).
pub const ZONES_PER_POINT: u32 = 5;

/// What a side is due in the reinforcement phase, until it has placed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Due {
    /// Points to buy units with, in half-points (the bracketed D costs a half).
    Purchase { side: SideId, half_points: u32 },
    /// A scenario's reinforcement for the player to place.
    Line { side: SideId, line: Line },
}

impl Due {
    pub fn side(&self) -> &SideId {
        match self {
            Due::Purchase { side, .. } | Due::Line { side, .. } => side,
        }
    }
}

/// Half-points as a number reads: `½`, `1`, `2½`.
pub fn half_points_number(half_points: u32) -> String {
    match (half_points / 2, half_points % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 0) => whole.to_string(),
        (whole, _) => format!("{whole}½"),
    }
}

/// Half-points in words: `half a point`, `1 point`, `2½ points`.
pub fn points(half_points: u32) -> String {
    match half_points {
        1 => "half a point".to_owned(),
        2 => "1 point".to_owned(),
        half => format!("{} points", half_points_number(half)),
    }
}

fn is_spring(state: &State) -> bool {
    state.setup.scenario.date_of_turn(state.turn).0 == Season::Spring
}

/// Whether `side` buys units in spring: the Ostrogoths, unless the scenario gives nobody
/// reinforcements.
fn buys(state: &State, side: &SideId) -> bool {
    side.as_str() == "ostrogoths" && !state.setup.scenario.has(SpecialKey::NoReinforcements)
}

/// The years whose spring Byzantine reinforcements event D held back (BE-47): the spring
/// after each time it was drawn.
fn held_springs(state: &State) -> Vec<i32> {
    let scenario = &state.setup.scenario;
    state
        .happened
        .iter()
        .filter(|(_, l)| *l == 'D')
        .filter_map(|(t, _)| (t + 1..t + 5).map(|n| scenario.date_of_turn(n)).find(|(s, _)| *s == Season::Spring).map(|(_, year)| year))
        .collect()
}

/// The scenario's reinforcements for this spring, as lines of the map: those held back a
/// year by event D come a spring later; none come to the Byzantines while event A keeps
/// Belisarius away; a leader already in play, or away, does not come twice (BE-45, BE-47).
fn scheduled(state: &State) -> Vec<(SideId, Line)> {
    let when = state.setup.scenario.date_of_turn(state.turn);
    let held = held_springs(state);
    let arrives = |(season, year): (Season, i32), byzantine: bool| {
        let mut year = year;
        while byzantine && season == Season::Spring && held.contains(&year) {
            year += 1;
        }
        (season, year) == when
    };
    let recalled = state.away.iter().any(|a| a.letter == 'A' && a.leader == "belisarius");
    let here = |side: &SideId, leader: &String| state.marker(side, leader).is_some() || state.away.iter().any(|a| &a.leader == leader);
    state
        .setup
        .scenario
        .reinforcements
        .iter()
        .filter(|r| arrives(r.when, r.side.as_str() == "byzantines"))
        .filter(|r| {
            !(state.setup.scenario.has(SpecialKey::NoReinforcements)
                || (state.setup.scenario.has(SpecialKey::NoByzantineReinforcements) && r.side.as_str() == "byzantines")
                || (recalled && r.side.as_str() == "byzantines"))
        })
        .filter_map(|r| super::world::line_on(&state.setup.map, &r.line).ok().map(|l| (r.side.clone(), l)))
        .filter_map(|(side, mut line)| {
            line.leaders.retain(|l| !here(&side, l));
            (!line.is_empty()).then_some((side, line))
        })
        .collect()
}

/// Whether this turn has a reinforcement phase still to play (BE-45).
pub fn pending(state: &State) -> bool {
    is_spring(state)
        && state.reinforced != state.turn
        && (state.setup.sides.iter().any(|s| buys(state, &s.id)) || !scheduled(state).is_empty())
}

/// BE-45: the reinforcement phase: the Goths' dice for their points (their own to read), the
/// Byzantines' scheduled forces placed or waiting to be placed.
pub fn reinforcement_phase(state: &State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    if state.phase != super::state::Phase::Play {
        return Err(RuleError::new(RuleId::BE_45, "the reinforcement phase comes at the start of a turn, before its operations"));
    }
    if state.supplied != state.turn {
        return Err(RuleError::new(RuleId::BE_45, "the supply phase comes first (`supply`)"));
    }
    if !pending(state) {
        let why = if is_spring(state) { "nobody is due reinforcements, or they have come" } else { "reinforcements come in spring only" };
        return Err(RuleError::new(RuleId::BE_45, format!("there is no reinforcement phase to play: {why}")));
    }
    let mut events = vec![Event::ReinforcementPhaseBegan { turn: state.turn }];
    for side in state.setup.sides.iter().map(|s| &s.id).filter(|s| buys(state, s)) {
        let roll = dice.roll(
            DiceSpec { count: 2, sides: 6 },
            &format!("{} reinforcements", crate::core::words::possessive(&side_name(state, side))),
            Some(RuleId::BE_45),
            Vec::new(),
        )?;
        let zones = u32::try_from(state.control.values().filter(|s| *s == side).count()).unwrap_or(u32::MAX);
        let points = u32::try_from(roll.total().max(0)).unwrap_or(0).div_ceil(2) + zones / ZONES_PER_POINT;
        events.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Side(side.clone()) }));
        events.push(Event::ReinforcementsDue { due: Due::Purchase { side: side.clone(), half_points: points * 2 } });
    }
    for (side, line) in scheduled(state) {
        match (&line.at, &line.place_rule) {
            (Some(at), FreePlace::Fixed) => events.push(Event::ReinforcementsArrived { side, at: at.clone(), line }),
            _ => events.push(Event::ReinforcementsDue { due: Due::Line { side, line } }),
        }
    }
    Ok(events)
}

/// The place `at` if `side` controls its zone now and it is not scorched (BE-44, BE-45).
fn own_place(state: &State, side: &SideId, at: &str, rule: RuleId) -> Result<Location, RuleError> {
    let place = state.setup.place(at).map_err(|e| RuleError::new(rule, e.to_string()))?;
    let name = state.setup.place_name(&place);
    let zone = super::operations::zone_of(state, &place)
        .ok_or_else(|| RuleError::new(rule, format!("reinforcements arrive on land, not at {name}")))?;
    if state.control.get(&zone) != Some(side) {
        return Err(RuleError::new(RuleId::BE_45, format!("{name} is not in a zone the {} control", side_name(state, side))));
    }
    if let Location::City(c) = &place
        && state.cities.get(c).and_then(|h| h.holder.as_ref()).is_some_and(|h| h != side)
    {
        return Err(RuleError::new(RuleId::BE_45, format!("{name} is held by the enemy")));
    }
    Ok(place)
}

/// The unit a Gothic purchase names: `1A`, `1B`, `1C` or `[1]D`.
fn gothic_unit(text: &str) -> Result<Unit, String> {
    let kind = match text.trim().chars().last() {
        Some('A' | 'B') => UnitKind::HeavyCavalry,
        Some('C' | 'D') => UnitKind::Infantry,
        _ => return Err(format!("`{text}` is not a unit the Goths buy (1A, 1B, 1C or [1]D)")),
    };
    let units = super::pieces::parse_units(kind, text.trim())?;
    match units.as_slice() {
        [u] => Ok(*u),
        _ => Err(format!("name one unit at a time, not `{text}`")),
    }
}

/// BE-45: the Goths buy units with their spring points and put them at a place they control
/// (not scorched): `units` written as the price list writes them. An empty list gives up what
/// is left.
pub fn raise(state: &State, side: &SideId, at: &str, units: &[String]) -> Result<Vec<Event>, RuleError> {
    let half = state
        .reinforcements_due
        .iter()
        .find_map(|d| match d {
            Due::Purchase { side: s, half_points } if s == side => Some(*half_points),
            _ => None,
        })
        .ok_or_else(|| RuleError::new(RuleId::BE_45, format!("the {} have no reinforcement points to spend", side_name(state, side))))?;
    if units.is_empty() {
        return Ok(vec![Event::UnitsRaised { side: side.clone(), at: None, units: Vec::new(), half_points: half }]);
    }
    let place = own_place(state, side, at, RuleId::BE_45)?;
    if let Some(zone) = super::operations::zone_of(state, &place)
        && state.scorched.contains(&zone)
    {
        return Err(RuleError::new(
            RuleId::BE_44,
            format!("{} is scorched: the Goths raise no troops there", state.setup.place_name(&place)),
        ));
    }
    let mut cost = 0u32;
    let mut raised = Vec::new();
    for text in units {
        let price = state
            .setup
            .tables
            .price_half_points(text.trim())
            .ok_or_else(|| RuleError::new(RuleId::BE_45, format!("`{text}` is not on the price list (1A, 1B, 1C, [1]D)")))?;
        raised.push(gothic_unit(text).map_err(|e| RuleError::new(RuleId::BE_45, e))?);
        cost = cost.saturating_add(price);
    }
    if cost > half {
        return Err(RuleError::new(
            RuleId::BE_45,
            format!("those cost {} and the {} have {} left", points(cost), side_name(state, side), points(half)),
        ));
    }
    Ok(vec![Event::UnitsRaised { side: side.clone(), at: Some(place), units: raised, half_points: cost }])
}

/// BE-45: a side places the scenario's reinforcement waiting for it, whole, at a zone or
/// city it controls in the regions the scenario names.
pub fn place(state: &State, side: &SideId, at: &str) -> Result<Vec<Event>, RuleError> {
    let line = state
        .reinforcements_due
        .iter()
        .find_map(|d| match d {
            Due::Line { side: s, line } if s == side => Some(line.clone()),
            _ => None,
        })
        .ok_or_else(|| {
            RuleError::new(RuleId::BE_45, format!("the {} have no reinforcements waiting to be placed", side_name(state, side)))
        })?;
    let place = own_place(state, side, at, RuleId::BE_45)?;
    // A side that controls no zone in the regions named places them at any zone it controls.
    let somewhere =
        |regions: &[String]| state.setup.map.zones.iter().any(|z| regions.contains(&z.region) && state.control.get(&z.id) == Some(side));
    if let FreePlace::OwnLandIn { regions } = &line.place_rule
        && !regions.is_empty()
        && somewhere(regions)
    {
        let zone = super::operations::zone_of(state, &place);
        let region = zone.and_then(|z| state.setup.map.zone(&z).map(|z| z.region.clone())).unwrap_or_default();
        if !regions.contains(&region) {
            return Err(RuleError::new(
                RuleId::BE_45,
                format!("these reinforcements arrive in {}, and {} is not there", regions.join(" or "), state.setup.place_name(&place)),
            ));
        }
    }
    // Fleets come into the port of the zone they arrive at.
    let mut line = line;
    if !line.fleets.is_empty() || line.fleet_decoys > 0 {
        let zone = super::operations::zone_of(state, &place).and_then(|z| state.setup.map.zone(&z).cloned());
        match zone.filter(|z| z.city.port && state.cities.get(&z.city.id).and_then(|h| h.holder.as_ref()) == Some(side)) {
            Some(z) => line.port = Some(z.city.id.clone()),
            None => {
                return Err(RuleError::new(
                    RuleId::BE_45,
                    format!("these reinforcements bring ships: they arrive at a port the {} hold", side_name(state, side)),
                ));
            }
        }
    }
    Ok(vec![Event::ReinforcementsArrived { side: side.clone(), at: place, line }])
}

impl State {
    /// Applies the events of the reinforcement phase (see [`State::apply`]).
    pub(crate) fn apply_reinforce(&mut self, event: &Event) {
        match event {
            Event::ReinforcementPhaseBegan { turn } => self.reinforced = *turn,
            Event::ReinforcementsDue { due } => self.reinforcements_due.push(due.clone()),
            Event::ReinforcementsArrived { side, at, line } => {
                self.pieces.extend(super::state::pieces_of(side, line, at));
                self.name_decoys(side);
                if let Some(i) = self.reinforcements_due.iter().position(|d| matches!(d, Due::Line { side: s, .. } if s == side)) {
                    self.reinforcements_due.remove(i);
                }
            }
            Event::UnitsRaised { side, at, units, half_points } => {
                if let Some(at) = at {
                    self.add_loose(side, at, units);
                }
                for d in &mut self.reinforcements_due {
                    if let Due::Purchase { side: s, half_points: left } = d
                        && s == side
                    {
                        *left = left.saturating_sub(*half_points);
                        if at.is_none() {
                            *left = 0;
                        }
                    }
                }
                self.reinforcements_due.retain(|d| !matches!(d, Due::Purchase { half_points: 0, .. }));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{half_points_number, points};

    /// BE-45: the bracketed D costs half a point, so points are counted in halves and read
    /// as the price list writes them.
    #[test]
    fn be_45_half_points_read_as_the_price_list_writes_them() {
        let read: Vec<String> = [0, 1, 2, 3, 10, 11].into_iter().map(half_points_number).collect();
        assert_eq!(read, ["0", "½", "1", "1½", "5", "5½"]);
        let words: Vec<String> = [1, 2, 5, 8].into_iter().map(points).collect();
        assert_eq!(words, ["half a point", "1 point", "2½ points", "4 points"]);
    }
}
