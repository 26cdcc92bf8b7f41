//! The supply phase (BE-31, BE-38, BE-41): each side's forces checked for supply at the start
//! of the turn, the unsupplied and the besieged rolling on the attrition table's unsupplied
//! row, and their owners sharing out what they lose.
//!
//! A force is a leader with his box, or the units without a leader at one place; everyone of
//! a side shut in a besieged city is one force, with the city's militia.
//!
//! Readings of the rules this module makes:
//! - "The adjacent sea zone contains only friendly naval units" is read as: a sea zone the
//!   zone touches holds no enemy fleet (an empty sea feeds a coast; fleet decoys are no
//!   ships). A zone on two seas needs one of them.
//! - The zone itself is "free of enemy units" when no enemy unit stands in it, in the open or
//!   in a city not under siege (an enemy garrison shut in by a siege does not count).
//! - The Ostrogoths' home zones are Flaminia, Venetia, Aemilia and Liguria; "zones adjacent to
//!   the four other zones" is read as a zone free of enemy units bordering one of them (no
//!   zone of the map borders all four, so the other reading would never apply).
//! - The Byzantines' line runs through zones they control, their own zone and Praevalitana
//!   included.
//! - Location changes the die: +1 for an unsupplied force in the mountains. A besieged
//!   garrison rolls +1 when the besieger alone has ships in a sea its port touches (the
//!   blockade), −1 when its own side alone has ships in one (BE-38).
//! - Each side shares out its own losses (numbered as `show` lists them), its dues one after
//!   the other, before the operations begin.

use crate::core::log::DiceRolled;
use std::collections::{BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::map::{SeaId, Terrain, ZoneId};
use super::operations::side_name;
use super::siege::{Numbered, is_besieged, units_at};
use super::state::{Location, PieceKind, State};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// The Ostrogoths' home zones, always in supply unless scorched (BE-41).
pub const GOTHIC_HOME: [&str; 4] = ["flaminia", "venetia", "aemilia", "liguria"];

/// The zone the Byzantines trace their line of controlled zones to (BE-41).
pub const IMPERIAL_BASE: &str = "praevalitana";

/// The combat points a force in a contested zone may have and still live off the land
/// (BE-41's third case).
pub const SMALL_FORCE: u32 = 4;

/// Why a force is in supply, or that it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A coastal zone free of enemy units, on a sea free of enemy ships.
    Coast,
    /// Beside such a coastal zone, itself free of enemy units.
    Inland,
    /// Four combat points or fewer, among the enemy.
    Small,
    /// An Ostrogoth home zone, or a zone free of enemy units bordering one.
    GothicHome,
    /// A line of Byzantine-controlled zones to Praevalitana.
    ImperialLine,
    /// Shut in a besieged city (BE-31).
    Besieged,
    Unsupplied,
}

impl Status {
    pub fn supplied(self) -> bool {
        !matches!(self, Status::Besieged | Status::Unsupplied)
    }

    pub fn label(self) -> &'static str {
        match self {
            Status::Coast => "on a coast with the sea open",
            Status::Inland => "beside a supplied coast",
            Status::Small => "four combat points or fewer",
            Status::GothicHome => "in the Ostrogoths' homeland",
            Status::ImperialLine => "on a line of controlled zones to Praevalitana",
            Status::Besieged => "besieged",
            Status::Unsupplied => "out of supply",
        }
    }
}

/// A force whose supply is checked: a leader's box, or the units with no leader at a place
/// (everyone in a besieged city together).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Force {
    pub side: SideId,
    pub at: Location,
    /// The leader whose box it is; `None` for units without a leader, and for a besieged
    /// garrison (everyone inside).
    pub leader: Option<String>,
}

/// Losses a force owes for want of supply, for its owner to share out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyDue {
    pub force: Force,
    pub percent: u8,
    pub points: u32,
}

/// Whether an enemy of `side` has units in `zone` that count against supply: in the open, or
/// in a city not under siege.
fn enemy_units_in(state: &State, side: &SideId, zone: &ZoneId) -> bool {
    state.pieces.iter().any(|p| {
        &p.side != side
            && !p.kind.units().is_empty()
            && super::operations::zone_of(state, &p.at).as_ref() == Some(zone)
            && !is_besieged(state, &p.at)
    })
}

/// Whether an enemy of `side` has a fleet in `sea`.
fn enemy_ships_in(state: &State, side: &SideId, sea: &SeaId) -> bool {
    state.pieces.iter().any(|p| &p.side != side && matches!(p.kind, PieceKind::Fleet { .. }) && p.at == Location::Sea(sea.clone()))
}

/// The side alone with fleets in `sea` (BE-38: it controls it), if any.
pub fn sea_controller(state: &State, sea: &SeaId) -> Option<SideId> {
    let mut sides: BTreeSet<&SideId> = BTreeSet::new();
    for p in &state.pieces {
        if matches!(p.kind, PieceKind::Fleet { .. }) && p.at == Location::Sea(sea.clone()) {
            sides.insert(&p.side);
        }
    }
    (sides.len() == 1).then(|| sides.into_iter().next().cloned()).flatten()
}

/// BE-41's first case for `zone`: on a coast, free of enemy units, a sea beside it free of
/// enemy ships.
fn open_coast(state: &State, side: &SideId, zone: &ZoneId) -> bool {
    let Some(z) = state.setup.map.zone(zone) else { return false };
    !z.coast.is_empty() && !enemy_units_in(state, side, zone) && z.coast.iter().any(|s| !enemy_ships_in(state, side, s))
}

/// Whether `zone` joins Praevalitana by zones the Byzantines control (BE-41).
fn imperial_line(state: &State, side: &SideId, zone: &ZoneId) -> bool {
    let ours = |z: &ZoneId| state.control.get(z) == Some(side);
    if !ours(zone) {
        return false;
    }
    let goal = ZoneId::new(IMPERIAL_BASE);
    let mut seen: BTreeSet<ZoneId> = BTreeSet::from([zone.clone()]);
    let mut queue = VecDeque::from([zone.clone()]);
    while let Some(z) = queue.pop_front() {
        if z == goal {
            return true;
        }
        for n in state.setup.map.zone(&z).map(|z| z.neighbours.clone()).unwrap_or_default() {
            if ours(&n) && seen.insert(n.clone()) {
                queue.push_back(n);
            }
        }
    }
    false
}

/// BE-41, BE-31: the supply of a force of `side` at `at` with `points` combat points.
pub fn status(state: &State, side: &SideId, at: &Location, points: u32) -> Status {
    if is_besieged(state, at) {
        return Status::Besieged;
    }
    let Some(zone) = super::operations::zone_of(state, at) else { return Status::Coast };
    let scorched = state.scorched.contains(&zone);
    let free = !enemy_units_in(state, side, &zone);
    if side.as_str() == "ostrogoths" {
        let home = GOTHIC_HOME.contains(&zone.as_str());
        let near = state.setup.map.zone(&zone).is_some_and(|z| z.neighbours.iter().any(|n| GOTHIC_HOME.contains(&n.as_str())));
        if (home && !scorched) || (!home && near && free) {
            return Status::GothicHome;
        }
    }
    if side.as_str() == "byzantines" && imperial_line(state, side, &zone) {
        return Status::ImperialLine;
    }
    if open_coast(state, side, &zone) {
        return Status::Coast;
    }
    let map = &state.setup.map;
    let inland = map.zone(&zone).is_some_and(|z| z.coast.is_empty());
    if inland && free && map.zone(&zone).is_some_and(|z| z.neighbours.iter().any(|n| open_coast(state, side, n))) {
        return Status::Inland;
    }
    if !scorched && points <= SMALL_FORCE {
        return Status::Small;
    }
    Status::Unsupplied
}

/// Every force of every side, as the supply phase checks them: leaders' boxes, units without
/// a leader by place, and each besieged garrison whole, its militia included (BE-31), though
/// no unit be left inside.
pub fn forces(state: &State) -> Vec<(Force, u32)> {
    let mut out: Vec<(Force, u32)> = Vec::new();
    for side in state.setup.sides.iter().map(|s| &s.id) {
        let mut besieged: BTreeSet<Location> = BTreeSet::new();
        let mut loose: BTreeSet<Location> = BTreeSet::new();
        for p in state.pieces_of(side).filter(|p| !p.kind.units().is_empty()) {
            if is_besieged(state, &p.at) {
                besieged.insert(p.at.clone());
                continue;
            }
            match &p.kind {
                PieceKind::Leader { leader, units } => out.push((
                    Force { side: side.clone(), at: p.at.clone(), leader: Some(leader.clone()) },
                    units.iter().map(|u| u32::from(u.value)).sum(),
                )),
                _ => {
                    loose.insert(p.at.clone());
                }
            }
        }
        for (city, hold) in &state.cities {
            let at = Location::City(city.clone());
            if hold.holder.as_ref() == Some(side) && hold.militia > 0 && is_besieged(state, &at) {
                besieged.insert(at);
            }
        }
        for at in loose.into_iter().chain(besieged) {
            let force = Force { side: side.clone(), at, leader: None };
            let points = units_of(state, &force).iter().map(|n| u32::from(n.unit.value)).sum();
            out.push((force, points));
        }
    }
    out
}

/// A force's units as `take_losses` numbers them.
pub fn units_of<'a>(state: &'a State, force: &Force) -> Vec<Numbered<'a>> {
    let all = units_at(state, &force.side, &force.at);
    if is_besieged(state, &force.at) {
        return all;
    }
    all.into_iter().filter(|n| n.leader == force.leader.as_deref()).collect()
}

/// The modifiers to a force's supply die for where it is (BE-38, BE-41).
fn modifiers(state: &State, force: &Force) -> Vec<Modifier> {
    let tables = &state.setup.tables;
    let modifier =
        |id: &str, reason: &str| tables.attrition_modifier(id).map(|m| Modifier { value: i32::from(m.die), reason: reason.to_owned() });
    let mut out = Vec::new();
    // BE-47: a bad or excellent harvest, the besieged included.
    out.extend(super::random_events::harvest(state));
    if let Location::City(city) = &force.at
        && let Some(siege) = state.sieges.get(city)
    {
        // The seas beside the city's zone: who alone has ships there (BE-38).
        let seas = state.setup.map.zone_of_city(city).map(|z| z.coast.clone()).unwrap_or_default();
        let held = |side: &SideId| seas.iter().any(|s| sea_controller(state, s).as_ref() == Some(side));
        let port = state.setup.map.city(city).is_some_and(|c| c.port);
        if port && held(&siege.besieger) {
            out.extend(modifier("blockade", "the port is blockaded"));
        }
        if held(&force.side) {
            out.extend(modifier("friendly-ships-adjacent", "own ships hold the sea beside"));
        }
        return out;
    }
    let mountains = super::operations::zone_of(state, &force.at)
        .and_then(|z| state.setup.map.zone(&z).map(|z| z.terrain))
        .is_some_and(|t| t == Terrain::Mountain);
    if mountains {
        out.extend(modifier("unsupplied-mountains", "mountains"));
    }
    out
}

/// BE-41, BE-31: the supply phase: every force checked; the unsupplied and the besieged roll a
/// d6 on the unsupplied row, each side's dice its own; what each owes is set for its owner.
pub fn supply_phase(state: &State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    match state.phase {
        super::state::Phase::Play => {}
        _ => return Err(RuleError::new(RuleId::BE_41, "the supply phase comes at the start of a turn, before its operations")),
    }
    if state.supplied == state.turn {
        return Err(RuleError::new(RuleId::BE_41, format!("the supply of turn {} has been checked already", state.turn)));
    }
    if super::random_events::pending(state) {
        return Err(RuleError::new(RuleId::BE_47, "the events phase comes first (`events`)"));
    }
    let mut events = vec![Event::SupplyChecked { turn: state.turn }];
    for (force, points) in forces(state) {
        let status = status(state, &force.side, &force.at, points);
        if status.supplied() {
            continue;
        }
        let place = state.setup.place_name(&force.at);
        let who = match &force.leader {
            Some(l) => format!("{}'s force", super::state::piece_name(&state.setup, l)),
            None if status == Status::Besieged => "the garrison".to_owned(),
            None => "units without a leader".to_owned(),
        };
        let rule = if status == Status::Besieged { RuleId::BE_31 } else { RuleId::BE_41 };
        let roll =
            dice.roll(DiceSpec::D6, &format!("supply of {who} at {place} ({})", status.label()), Some(rule), modifiers(state, &force))?;
        let percent = state.setup.tables.unsupplied_attrition_percent(roll.total());
        let militia = match &force.at {
            Location::City(c) if status == Status::Besieged => u32::from(state.cities.get(c).map_or(0, |h| h.militia)),
            _ => 0,
        };
        let owed = super::tables::percent_of(points.saturating_add(militia), percent);
        events.push(Event::DiceRolled(DiceRolled {
            roll,
            side: Some(force.side.clone()),
            visibility: Visibility::Side(force.side.clone()),
        }));
        if owed > 0 {
            events.push(Event::OutOfSupply { due: SupplyDue { force, percent, points: owed } });
        }
    }
    Ok(events)
}

/// The first due of `side`, which its next `take_losses` settles.
pub fn due_of<'a>(state: &'a State, side: &SideId) -> Option<&'a SupplyDue> {
    state.supply_dues.iter().find(|d| &d.force.side == side)
}

/// BE-41: a side shares out the first of its supply dues: units by number in the force, and
/// for a besieged garrison the militia's part.
pub fn take_losses(state: &State, side: &SideId, losses: &[(u32, u8)], militia: u8) -> Result<Vec<Event>, RuleError> {
    let name = side_name(state, side);
    let due = due_of(state, side).ok_or_else(|| RuleError::new(RuleId::BE_41, format!("the {name} owe nothing for supply")))?;
    let units = units_of(state, &due.force);
    let city = match &due.force.at {
        Location::City(c) if is_besieged(state, &due.force.at) => Some(c.clone()),
        _ => None,
    };
    let has = city.as_ref().and_then(|c| state.cities.get(c)).map_or(0, |h| h.militia);
    let losses = super::siege::share(&units, losses, (militia, has), due.points, RuleId::BE_41, "for want of supply")?;
    Ok(vec![Event::SupplyLossesTaken { side: side.clone(), at: due.force.at.clone(), losses, militia }])
}

/// A lawful share of `side`'s first supply due: the militia first in a besieged city, then
/// the force's units as [`super::siege::suggest`] takes them, the strongest kept.
pub fn suggested_share(state: &State, side: &SideId) -> Option<(Vec<(u32, u8)>, u8)> {
    let due = due_of(state, side)?;
    let has = match &due.force.at {
        Location::City(c) if is_besieged(state, &due.force.at) => state.cities.get(c).map_or(0, |h| h.militia),
        _ => 0,
    };
    Some(super::siege::suggest(&units_of(state, &due.force), due.points, has))
}

impl State {
    /// Applies the events of the supply phase (see [`State::apply`]).
    pub(crate) fn apply_supply(&mut self, event: &Event) {
        match event {
            Event::SupplyChecked { turn } => self.supplied = *turn,
            Event::OutOfSupply { due } => self.supply_dues.push(due.clone()),
            Event::SupplyLossesTaken { side, at, losses, militia } => {
                super::siege::hit_units(self, side, at, losses);
                if let Location::City(c) = at
                    && let Some(h) = self.cities.get_mut(c)
                {
                    h.militia = h.militia.saturating_sub(*militia);
                }
                if let Some(i) = self.supply_dues.iter().position(|d| &d.force.side == side) {
                    self.supply_dues.remove(i);
                }
            }
            _ => {}
        }
    }
}
