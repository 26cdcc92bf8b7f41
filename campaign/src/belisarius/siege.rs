//! Sieges (BE-24 … BE-27, BE-30, BE-32) and Treachery (BE-43): a city held by the enemy is
//! taken by a siege declared by a leader, by the duration marker reaching 4 in the siege
//! phase, by an assault, or by treachery; the garrison and the city's militia share the
//! defence; works raise the assault's die or the city's defence.
//!
//! Readings of the rules this module makes (each a choice where the rules are silent):
//! - A siege is kept while the besieging side has units in the open zone, with or without a
//!   leader: a leader is needed to declare it and to assault, not to hold the lines (the
//!   relief rule speaks of the force left behind, not of its leader). When the last of them
//!   leave, the siege ends at once (BE-30).
//! - The duration marker goes up in the siege phase of every turn after the one the siege was
//!   declared in ("each following turn"), so a city not relieved falls in the siege phase of
//!   the third turn after.
//! - An assault is made by the leader activated and the leaders with him, with their units;
//!   the other besiegers in the zone hold the lines. One assault per activation; the first one
//!   of the activation that declared the siege costs nothing more.
//! - The defenders are every unit of the holding side inside the city and its militia; each
//!   owner shares out its own losses, the militia absorbing as much as the defender likes.
//! - The leader's tactical rating is added to the assault's 2d6; the defenders' leaders add
//!   nothing (the city's defence stands for them).
//! - Siege works count at most two for each besieging leader present when the assault is
//!   made; more may not be built.
//! - Treachery is played by the leader activated at a siege he is making; "modified by his
//!   tactical rating" is read as subtracting it, the only reading in which a better general
//!   helps (2 to 8 succeeds).
//! - The militia comes back to full strength whenever a siege ends, however it ends (the rules
//!   say so for a city that falls and for a port whose garrison sails away).
//! - Defence works stay when a city changes hands: the new holder may pull them down with the
//!   fortifications (1 AP).
//! - Combat points destroyed by an assault or lost with a falling city count, like battle
//!   losses, toward the scenarios' "destroyed" conditions; the militia does not.

use crate::core::log::DiceRolled;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::Steps;
use super::event::Event;
use super::map::{CityId, ZoneId};
use super::operations::side_name;
use super::pieces::Unit;
use super::state::{Location, PieceKind, State};
use super::tables::{MAX_CITY_DEFENCE, SIEGE_FALLS_AT, SIEGE_WORKS_PER_LEADER};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// Two six-sided dice: the assault's and treachery's roll.
pub const TWO_D6: DiceSpec = DiceSpec { count: 2, sides: 6 };

/// A siege under way (BE-24, BE-26). Everything in it is on the map for both sides to see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Siege {
    pub zone: ZoneId,
    pub besieger: SideId,
    /// The duration marker: 1 when declared, one more in each later siege phase.
    pub duration: u8,
    /// The turn the siege was declared in.
    pub declared: u32,
    /// Siege works markers (BE-32).
    pub works: u8,
}

/// Works a leader builds (BE-32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Works {
    /// Siege engines and lines: each adds 1 to the assault's die.
    Siege,
    /// Walls strengthened: each adds 1 to the city's defence, which stays at most 5.
    Defence,
}

/// How a city fell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fall {
    /// The duration marker reached 4 (BE-26).
    Starved,
    /// Stormed (BE-27).
    Stormed,
    /// Opened by treachery (BE-43).
    Betrayed,
}

/// Why a siege ended without the city falling (BE-30).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lifted {
    /// No unit of the besieging side is left in the zone.
    BesiegersGone,
    /// The besieger met a relief with too few left in the lines (BE-29).
    LinesEmptied,
}

/// What an assault left each side to share out (BE-27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssaultDue {
    pub city: CityId,
    pub attacker: SideId,
    /// The leader who assaulted and the leaders with him, whose units take the attacker's
    /// losses.
    pub leader: String,
    pub with: Vec<String>,
    /// Points each side still owes.
    pub owed: BTreeMap<SideId, u32>,
}

/// A sortie under way (BE-28): the garrison's units that sally, the besieger's answer with as
/// many unmodified points, then what each side owes from those who fought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SortieDue {
    pub city: CityId,
    pub zone: ZoneId,
    /// The side that sallies, and its leader.
    pub side: SideId,
    pub leader: String,
    /// The sallying units, as the garrison numbers them: (leader's box or `None`, index).
    pub units: Vec<(Option<String>, u32)>,
    pub points: u32,
    /// The besieger's answer: (leader's box or `None`, index, points committed).
    #[serde(default)]
    pub answer: Vec<(Option<String>, u32, u8)>,
    /// After the melee: the points each side owes.
    #[serde(default)]
    pub owed: BTreeMap<SideId, u32>,
}

/// One unit of a side as orders number it in a siege: a leader's box, or the units with no
/// leader at the place (`None`), numbered among them in the order they came into play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbered<'a> {
    pub leader: Option<&'a str>,
    pub index: u32,
    pub unit: Unit,
}

/// Whether the piece at `at` is shut in a besieged city.
pub fn is_besieged(state: &State, at: &Location) -> bool {
    matches!(at, Location::City(c) if state.sieges.contains_key(c))
}

/// The city of `zone` and its siege, if it is besieged.
pub fn siege_in<'a>(state: &'a State, zone: &ZoneId) -> Option<(&'a CityId, &'a Siege)> {
    state.sieges.iter().find(|(_, s)| &s.zone == zone)
}

/// BE-25, BE-32: a city's defence: its fortifications (unless pulled down) and defence works,
/// at most 5.
pub fn defence(state: &State, city: &CityId) -> u8 {
    let hold = state.cities.get(city);
    let walls = if hold.is_some_and(|h| h.razed) { 0 } else { state.setup.map.city(city).map_or(0, |c| c.fortification) };
    walls.saturating_add(hold.map_or(0, |h| h.defence_works)).min(MAX_CITY_DEFENCE)
}

/// The city's full militia (the red rating).
pub fn full_militia(state: &State, city: &CityId) -> u8 {
    state.setup.map.city(city).map_or(0, |c| c.militia)
}

/// The besieging side's leaders in the open zone: two siege works each (BE-32).
pub fn besieging_leaders(state: &State, siege: &Siege) -> Vec<String> {
    let open = Location::Zone(siege.zone.clone());
    state
        .pieces_of(&siege.besieger)
        .filter(|p| p.at == open)
        .filter_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } => Some(leader.clone()),
            _ => None,
        })
        .collect()
}

/// `side`'s units at `at`, numbered from 1 in this order: the boxes of the leaders there, each
/// in the order they came into play, then the units without a leader.
pub fn units_at<'a>(state: &'a State, side: &SideId, at: &Location) -> Vec<Numbered<'a>> {
    let here = || state.pieces_of(side).filter(move |p| &p.at == at);
    let mut out = Vec::new();
    for p in here() {
        if let PieceKind::Leader { leader, units } = &p.kind {
            out.extend(units.iter().enumerate().map(|(i, u)| Numbered {
                leader: Some(leader.as_str()),
                index: u32::try_from(i).unwrap_or(u32::MAX),
                unit: *u,
            }));
        }
    }
    let mut k = 0u32;
    for p in here() {
        if let PieceKind::Group { units } = &p.kind {
            for u in units {
                out.push(Numbered { leader: None, index: k, unit: *u });
                k = k.saturating_add(1);
            }
        }
    }
    out
}

/// The units of an assaulting force, numbered from 1: the leader's box, then each leader's
/// with him.
pub fn assault_units<'a>(state: &'a State, due: &'a AssaultDue) -> Vec<Numbered<'a>> {
    std::iter::once(&due.leader)
        .chain(&due.with)
        .flat_map(|id| {
            state.pieces_of(&due.attacker).filter_map(move |p| match &p.kind {
                PieceKind::Leader { leader, units } if leader == id => Some(units.iter().enumerate().map(move |(i, u)| Numbered {
                    leader: Some(leader.as_str()),
                    index: u32::try_from(i).unwrap_or(u32::MAX),
                    unit: *u,
                })),
                _ => None,
            })
        })
        .flatten()
        .collect()
}

/// The units a side shares its assault losses from, as `take_losses` numbers them, and
/// where they stand.
pub fn losers<'a>(state: &'a State, due: &'a AssaultDue, side: &SideId) -> (Vec<Numbered<'a>>, Location) {
    if side == &due.attacker {
        let at = state.marker(side, &due.leader).map_or_else(|| Location::City(due.city.clone()), |p| p.at.clone());
        (assault_units(state, due), at)
    } else {
        let at = Location::City(due.city.clone());
        (units_at(state, side, &at), at)
    }
}

fn points(units: &[Numbered<'_>]) -> u32 {
    units.iter().map(|n| u32::from(n.unit.value)).sum()
}

/// How many units the force of `leader` and the leaders `with` him have.
fn force_units(state: &State, side: &SideId, leader: &str, with: &[String]) -> usize {
    std::iter::once(leader).chain(with.iter().map(String::as_str)).filter_map(|l| state.marker(side, l)).map(|p| p.kind.units().len()).sum()
}

/// How many units the acting force of `leader` has, the leaders activated with him included.
fn acting_units(state: &State, side: &SideId, leader: &str) -> usize {
    let with = state.ops.as_ref().and_then(|o| o.active.as_ref()).map(|a| a.with.clone()).unwrap_or_default();
    force_units(state, side, leader, &with)
}

/// The action points `action` costs, from the scenario's tables.
pub(crate) fn cost(state: &State, action: &str) -> u32 {
    u32::from(state.setup.tables.cost(action).unwrap_or(1))
}

/// Spends `ap` of `side`'s action points on `on`, or says why it cannot.
fn spend(state: &State, side: &SideId, ap: u32, on: &str, rule: RuleId) -> Result<Option<Event>, RuleError> {
    if ap == 0 {
        return Ok(None);
    }
    let left = state.ops.as_ref().map_or(0, |o| o.left(side));
    if ap > left {
        return Err(RuleError::new(
            rule,
            format!("{on} costs {} and the {} have {left} left", crate::core::words::count(ap, "action point"), side_name(state, side)),
        ));
    }
    Ok(Some(Event::ActionPointsSpent { side: side.clone(), ap, left: left - ap, on: on.to_owned() }))
}

/// The acting leader's zone and the enemy-held city in it he may besiege, with its siege.
fn at_enemy_city(state: &State, side: &SideId, leader: &str, rule: RuleId) -> Result<(ZoneId, CityId), RuleError> {
    let (_, active) = super::operations::acting(state, side, leader, rule)?;
    let chief = super::state::piece_name(&state.setup, leader);
    if super::state::is_decoy(leader) {
        return Err(RuleError::new(RuleId::BE_42, "a decoy carries out no action: it cannot besiege"));
    }
    let Location::Zone(zone) = &active.at else {
        return Err(RuleError::new(rule, format!("{chief} must stand in the open zone before the city to besiege it")));
    };
    let city = state.setup.map.zone(zone).map(|z| z.city.id.clone()).ok_or_else(|| RuleError::new(rule, "the zone is off the map"))?;
    let city_name = state.setup.place_name(&Location::City(city.clone()));
    match state.cities.get(&city).and_then(|h| h.holder.as_ref()) {
        Some(h) if h != side => Ok((zone.clone(), city)),
        _ => Err(RuleError::new(rule, format!("{city_name} is not held by the enemy: there is nothing to besiege"))),
    }
}

/// BE-24: the acting leader declares a siege of the enemy city of his zone (1 AP); the
/// duration marker goes on at 1, and the zone is his side's (BE-46).
pub fn besiege(state: &State, side: &SideId, leader: &str) -> Result<Vec<Event>, RuleError> {
    let (zone, city) = at_enemy_city(state, side, leader, RuleId::BE_24)?;
    let city_name = state.setup.place_name(&Location::City(city.clone()));
    if state.sieges.contains_key(&city) {
        return Err(RuleError::new(RuleId::BE_24, format!("{city_name} is besieged already: assault it, or build siege works")));
    }
    let rival = state.pieces.iter().any(|p| &p.side != side && p.at == Location::Zone(zone.clone()) && p.kind.has_marker());
    if rival {
        return Err(RuleError::new(
            RuleId::BE_24,
            format!("an enemy marker stands in the open before {city_name}: the field is won before a siege is laid"),
        ));
    }
    let units = acting_units(state, side, leader);
    if units == 0 {
        let chief = super::state::piece_name(&state.setup, leader);
        return Err(RuleError::new(RuleId::BE_24, format!("{chief}'s force has no units: leaders alone lay no siege")));
    }
    let mut events: Vec<Event> =
        spend(state, side, cost(state, "start-siege"), &format!("the siege of {city_name}"), RuleId::BE_24)?.into_iter().collect();
    let siege = Siege { zone: zone.clone(), besieger: side.clone(), duration: 1, declared: state.turn, works: 0 };
    events.push(Event::SiegeDeclared { city, siege });
    if state.control.get(&zone) != Some(side) {
        events.push(Event::ZoneControlled { zone, side: side.clone() });
    }
    Ok(events)
}

/// The siege the acting leader is making, or why he makes none.
fn own_siege<'a>(state: &'a State, side: &SideId, leader: &str, rule: RuleId) -> Result<(CityId, &'a Siege), RuleError> {
    let (_, city) = at_enemy_city(state, side, leader, rule)?;
    let city_name = state.setup.place_name(&Location::City(city.clone()));
    match state.sieges.get(&city) {
        Some(s) if &s.besieger == side => Ok((city, s)),
        _ => Err(RuleError::new(rule, format!("{city_name} is not under siege: declare the siege first (BE-24)"))),
    }
}

/// BE-27: the acting leader storms the city he besieges: the ratio of unmodified points,
/// rounded for the defender, and 2d6 with his tactical rating and the siege works, less the
/// city's defence, give each side's losses and whether the city falls.
pub fn assault(state: &State, side: &SideId, leader: &str, ships: &[String], dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let (city, siege) = own_siege(state, side, leader, RuleId::BE_27)?;
    let (ops, active) = super::operations::acting(state, side, leader, RuleId::BE_27)?;
    let chief = super::state::piece_name(&state.setup, leader);
    let city_name = state.setup.place_name(&Location::City(city.clone()));
    // One assault a siege each operations phase: the limit is the siege's, not the leader's,
    // so a leader who stormed one city may still storm the next he lays siege to.
    if ops.stormed.contains(&city) {
        return Err(RuleError::new(RuleId::BE_27, format!("{city_name} has been assaulted once this phase")));
    }
    let due = AssaultDue {
        city: city.clone(),
        attacker: side.clone(),
        leader: leader.to_owned(),
        with: active.with.clone(),
        owed: BTreeMap::new(),
    };
    let attacker = points(&assault_units(state, &due));
    if attacker == 0 {
        return Err(RuleError::new(RuleId::BE_27, format!("{chief} has no units to storm {city_name} with")));
    }
    let holder = state.cities.get(&city).and_then(|h| h.holder.clone()).unwrap_or_else(|| super::operations::other_side(state, side));
    let militia = state.cities.get(&city).map_or(0, |h| h.militia);
    let defender = points(&units_at(state, &holder, &Location::City(city.clone()))).saturating_add(u32::from(militia));
    // The assault that goes with the declaring is paid for by the siege's point.
    let free = ops.declared.as_ref() == Some(&city);
    let ap = if free { 0 } else { cost(state, "assault-later") };
    // BE-39: ships off the port support the assault, for their own price.
    let (naval, naval_ap) =
        if ships.is_empty() { (0, 0) } else { (super::naval::support(state, side, &city, ships)?, cost(state, "naval-support")) };
    let mut steps = Steps::new(state);
    if let Some(e) = spend(state, side, ap.saturating_add(naval_ap), &format!("the assault on {city_name}"), RuleId::BE_27)? {
        steps.push(e);
    }
    let tactical = state.setup.leader(leader).map_or(0, |l| l.tactical);
    let works =
        siege.works.min(SIEGE_WORKS_PER_LEADER.saturating_mul(u8::try_from(besieging_leaders(state, siege).len()).unwrap_or(u8::MAX)));
    let wall = defence(state, &city);
    let mut modifiers = Vec::new();
    if tactical > 0 {
        modifiers.push(Modifier { value: i32::from(tactical), reason: format!("{chief}'s tactical rating") });
    }
    if works > 0 {
        modifiers.push(Modifier { value: i32::from(works), reason: "siege works".to_owned() });
    }
    if wall > 0 {
        modifiers.push(Modifier { value: -i32::from(wall), reason: format!("{city_name}'s defence") });
    }
    let naval_pips = naval / super::tables::NAVAL_POINTS_PER_ASSAULT_PIP;
    if naval_pips > 0 {
        modifiers.push(Modifier {
            value: i32::try_from(naval_pips).unwrap_or(i32::MAX),
            reason: format!("{naval} naval points in support (+1 per 3)"),
        });
    }
    let roll = dice.roll(TWO_D6, &format!("assault on {city_name}"), Some(RuleId::BE_27), modifiers)?;
    let result = state.setup.tables.assault(attacker, defender, roll.total());
    let row = state.setup.tables.assault_label(attacker, defender);
    steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Public }));
    let mut owed = BTreeMap::new();
    owed.insert(side.clone(), super::tables::percent_of(attacker, result.attacker_percent));
    if !result.falls {
        owed.insert(holder.clone(), super::tables::percent_of(defender, result.defender_percent));
    }
    let due = AssaultDue { owed, ..due };
    steps.push(Event::AssaultRolled { due: due.clone(), attacker_points: attacker, defender_points: defender, row, result });
    if result.falls {
        fall(&mut steps, &city, side, Fall::Stormed);
    }
    settle_militia_only(&mut steps);
    Ok(steps.events)
}

/// A defender with nothing but the militia left has no choice to make: its militia takes
/// the losses at once.
fn settle_militia_only(steps: &mut Steps) {
    let Some(due) = steps.state.ops.as_ref().and_then(|o| o.assault.clone()) else { return };
    for (side, &points) in &due.owed {
        if side == &due.attacker {
            continue;
        }
        let (units, at) = losers(&steps.state, &due, side);
        if units.is_empty() || points == 0 {
            let militia = u8::try_from(points).unwrap_or(u8::MAX);
            steps.push(Event::SiegeLossesTaken { side: side.clone(), at, losses: Vec::new(), militia, sortie: false });
        }
    }
    // An attacker owing nothing is done as well.
    if due.owed.get(&due.attacker) == Some(&0) {
        let at = steps.state.marker(&due.attacker, &due.leader).map_or_else(|| Location::City(due.city.clone()), |p| p.at.clone());
        steps.push(Event::SiegeLossesTaken { side: due.attacker.clone(), at, losses: Vec::new(), militia: 0, sortie: false });
    }
}

/// BE-27: a side shares out what it owes after an assault: units by their number (see
/// [`losers`]) and the points each loses, and the militia's share for the defender.
pub fn take_losses(state: &State, side: &SideId, losses: &[(u32, u8)], militia: u8) -> Result<Vec<Event>, RuleError> {
    let name = side_name(state, side);
    let due =
        state.ops.as_ref().and_then(|o| o.assault.as_ref()).ok_or_else(|| RuleError::new(RuleId::BE_27, "no assault is owed losses"))?;
    let owed = *due.owed.get(side).ok_or_else(|| RuleError::new(RuleId::BE_27, format!("the {name} owe nothing for the assault")))?;
    let (units, at) = losers(state, due, side);
    if militia > 0 && side == &due.attacker {
        return Err(RuleError::new(RuleId::BE_25, "the militia defends its own city: the attacker's losses come from his units"));
    }
    let has = state.cities.get(&due.city).map_or(0, |h| h.militia);
    let losses = share(&units, losses, (militia, has), owed, RuleId::BE_27, "for the assault")?;
    Ok(vec![Event::SiegeLossesTaken { side: side.clone(), at, losses, militia, sortie: false }])
}

/// Checks a side's share of `owed` points — `losses` by unit number among `units`, and
/// `militia.0` points of the city's `militia.1` — and turns it into what the event records:
/// (leader or `None`, index, points).
pub(crate) fn share(
    units: &[Numbered<'_>],
    losses: &[(u32, u8)],
    (militia, has): (u8, u8),
    owed: u32,
    rule: RuleId,
    what: &str,
) -> Result<Vec<(Option<String>, u32, u8)>, RuleError> {
    if militia > has {
        return Err(RuleError::new(RuleId::BE_25, format!("the militia has {}, not {militia}", crate::core::words::count(has, "point"))));
    }
    let mut taken: BTreeMap<u32, u8> = BTreeMap::new();
    for &(n, p) in losses {
        let Some(u) = usize::try_from(n).ok().and_then(|i| i.checked_sub(1)).and_then(|i| units.get(i)) else {
            return Err(RuleError::new(rule, format!("there is no unit {n} here; the units are numbered 1 to {}", units.len())));
        };
        let sum = taken.entry(n).or_default();
        *sum = sum.saturating_add(p);
        if *sum > u.unit.value {
            return Err(RuleError::new(
                rule,
                format!("unit {n} ({}) has {}, not {}", u.unit, crate::core::words::count(u.unit.value, "point"), *sum),
            ));
        }
    }
    let total = taken.values().map(|&p| u32::from(p)).sum::<u32>().saturating_add(u32::from(militia));
    if total != owed {
        return Err(RuleError::new(rule, format!("{owed} points are owed {what}, and {total} were named")));
    }
    Ok(taken
        .into_iter()
        .filter_map(|(n, p)| {
            let u = units.get(usize::try_from(n).ok()?.checked_sub(1)?)?;
            Some((u.leader.map(str::to_owned), u.index, p))
        })
        .collect())
}

/// A lawful share of `owed` points that keeps as much fighting strength as it can, as a
/// battle's suggestion does: the militia's `has` points first, who fight only for their
/// city; then the units whose points are worth least in battle (infantry and medium cavalry
/// before heavy cavalry and cataphracts), the smallest first. Units by their number in
/// `units`, from 1.
pub fn suggest(units: &[Numbered<'_>], mut owed: u32, has: u8) -> (Vec<(u32, u8)>, u8) {
    let militia = u8::try_from(owed.min(u32::from(has))).unwrap_or(u8::MAX);
    owed -= u32::from(militia);
    let mut order: Vec<usize> = (0..units.len()).filter(|&i| units[i].unit.value > 0).collect();
    order.sort_by_key(|&i| (units[i].unit.multiplier(), units[i].unit.value, i));
    let mut taken = vec![0u8; units.len()];
    for i in order {
        let take = u8::try_from(owed.min(u32::from(units[i].unit.value))).unwrap_or(u8::MAX);
        taken[i] = take;
        owed -= u32::from(take);
    }
    let out = (1u32..).zip(taken).filter(|(_, t)| *t > 0).collect();
    (out, militia)
}

/// A lawful share of an assault's losses (see [`suggest`]), the militia first for the
/// defender.
pub fn suggested_share(state: &State, side: &SideId) -> Option<(Vec<(u32, u8)>, u8)> {
    let due = state.ops.as_ref()?.assault.as_ref()?;
    let owed = *due.owed.get(side)?;
    let has = if side == &due.attacker { 0 } else { state.cities.get(&due.city).map_or(0, |h| h.militia) };
    let (units, _) = losers(state, due, side);
    Some(suggest(&units, owed, has))
}

/// The events of a city's fall to `to`: every leader inside killed (a commander-in-chief
/// succeeded), every decoy inside out of play, then the city's new holder (BE-26, BE-27,
/// BE-40: the ships in its port change hands).
pub(crate) fn fall(steps: &mut Steps, city: &CityId, to: &SideId, how: Fall) {
    let inside = Location::City(city.clone());
    let from =
        steps.state.cities.get(city).and_then(|h| h.holder.clone()).unwrap_or_else(|| super::operations::other_side(&steps.state, to));
    let leaders: Vec<String> = steps
        .state
        .pieces_of(&from)
        .filter(|p| p.at == inside)
        .filter_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } => Some(leader.clone()),
            _ => None,
        })
        .collect();
    // Stormed, the city is taken in a fight and its defenders are seen; starved or betrayed,
    // its markers are lost face down (BE-53).
    let face_down = how != Fall::Stormed;
    for leader in leaders {
        super::battle::kill_where(steps, &from, &leader, false, face_down);
    }
    let decoys: Vec<String> = steps
        .state
        .pieces_of(&from)
        .filter(|p| p.at == inside)
        .filter_map(|p| match &p.kind {
            PieceKind::LeaderDecoy { id } => Some(id.clone()),
            _ => None,
        })
        .collect();
    for id in decoys {
        steps.push(Event::DecoyRemoved { side: from.clone(), at: inside.clone(), id, face_down });
    }
    steps.push(Event::CityFell { city: city.clone(), from, to: to.clone(), how });
    if let Some(zone) = steps.state.setup.map.zone_of_city(city).map(|z| z.id.clone())
        && steps.state.control.get(&zone) != Some(to)
        && !steps.state.pieces.iter().any(|p| &p.side != to && p.at == Location::Zone(zone.clone()) && !p.kind.units().is_empty())
    {
        steps.push(Event::ZoneControlled { zone, side: to.clone() });
    }
}

/// BE-32: the acting leader builds works: siege works at a siege he is making (at most two
/// for each of his side's leaders there), or defence works at a city his side holds (its
/// defence at most 5).
pub fn build_works(state: &State, side: &SideId, leader: &str, works: Works, count: u8) -> Result<Vec<Event>, RuleError> {
    if count == 0 {
        return Err(RuleError::new(RuleId::BE_32, "build at least one works marker"));
    }
    let (city, action) = match works {
        Works::Siege => {
            let (city, siege) = own_siege(state, side, leader, RuleId::BE_32)?;
            let leaders = u8::try_from(besieging_leaders(state, siege).len()).unwrap_or(u8::MAX);
            let cap = SIEGE_WORKS_PER_LEADER.saturating_mul(leaders);
            if siege.works.saturating_add(count) > cap {
                return Err(RuleError::new(
                    RuleId::BE_32,
                    format!(
                        "at most {SIEGE_WORKS_PER_LEADER} siege works for each leader present: {leaders} leader(s) here allow {cap}, and {} are built",
                        siege.works
                    ),
                ));
            }
            (city, "siege-works")
        }
        Works::Defence => {
            let city = own_city(state, side, leader, RuleId::BE_32)?;
            let now = defence(state, &city);
            if u32::from(now) + u32::from(count) > u32::from(MAX_CITY_DEFENCE) {
                let name = state.setup.place_name(&Location::City(city.clone()));
                return Err(RuleError::new(
                    RuleId::BE_32,
                    format!(
                        "{name}'s defence is {now}: it may rise to {MAX_CITY_DEFENCE} at most, so {} more",
                        MAX_CITY_DEFENCE - now.min(MAX_CITY_DEFENCE)
                    ),
                ));
            }
            (city, "defence-works")
        }
    };
    let name = state.setup.place_name(&Location::City(city.clone()));
    let ap = cost(state, action).saturating_mul(u32::from(count));
    let what = match works {
        Works::Siege => format!("siege works before {name}"),
        Works::Defence => format!("defence works at {name}"),
    };
    let mut events: Vec<Event> = spend(state, side, ap, &what, RuleId::BE_32)?.into_iter().collect();
    events.push(Event::WorksBuilt { city, side: side.clone(), works, count });
    Ok(events)
}

/// The city of the acting leader's place that his side holds, or why there is none.
fn own_city(state: &State, side: &SideId, leader: &str, rule: RuleId) -> Result<CityId, RuleError> {
    let (_, active) = super::operations::acting(state, side, leader, rule)?;
    if super::state::is_decoy(leader) {
        return Err(RuleError::new(RuleId::BE_42, "a decoy carries out no action"));
    }
    let city = match &active.at {
        Location::City(c) => c.clone(),
        Location::Zone(z) => {
            state.setup.map.zone(z).map(|z| z.city.id.clone()).ok_or_else(|| RuleError::new(rule, "the zone is off the map"))?
        }
        Location::Sea(_) | Location::Aboard(_) => return Err(RuleError::new(rule, "the force is at sea")),
    };
    if state.cities.get(&city).and_then(|h| h.holder.as_ref()) != Some(side) {
        let name = state.setup.place_name(&Location::City(city.clone()));
        return Err(RuleError::new(rule, format!("{name} is not held by the {}", side_name(state, side))));
    }
    Ok(city)
}

/// BE-32: the acting leader pulls down a city his side holds: its fortifications go to 0 and
/// its defence works with them, for 1 AP however much is destroyed.
pub fn destroy_fortifications(state: &State, side: &SideId, leader: &str) -> Result<Vec<Event>, RuleError> {
    let city = own_city(state, side, leader, RuleId::BE_32)?;
    let name = state.setup.place_name(&Location::City(city.clone()));
    if defence(state, &city) == 0 {
        return Err(RuleError::new(RuleId::BE_32, format!("{name} has no walls or works left to pull down")));
    }
    let mut events: Vec<Event> =
        spend(state, side, cost(state, "destroy-fortifications"), &format!("pulling down {name}'s walls"), RuleId::BE_32)?
            .into_iter()
            .collect();
    events.push(Event::FortificationsDestroyed { city, side: side.clone() });
    Ok(events)
}

/// BE-44: the acting leader lays waste to the zone he stands in (in the open or in its city),
/// with units of his side there, for the scenario's price in action points: the scorched
/// earth marker goes on it, and the zone stays his side's for victory.
pub fn scorch(state: &State, side: &SideId, leader: &str) -> Result<Vec<Event>, RuleError> {
    let (_, active) = super::operations::acting(state, side, leader, RuleId::BE_44)?;
    if super::state::is_decoy(leader) {
        return Err(RuleError::new(RuleId::BE_42, "a decoy carries out no action"));
    }
    let zone = super::operations::zone_of(state, &active.at).ok_or_else(|| RuleError::new(RuleId::BE_44, "the force is at sea"))?;
    let name = state.setup.place_name(&Location::Zone(zone.clone()));
    if state.scorched.contains(&zone) {
        return Err(RuleError::new(RuleId::BE_44, format!("{name} is scorched already")));
    }
    let units = acting_units(state, side, leader);
    if units == 0 {
        return Err(RuleError::new(
            RuleId::BE_44,
            format!("a zone is laid waste by a leader with units, and {} has none", super::state::piece_name(&state.setup, leader)),
        ));
    }
    let mut events: Vec<Event> =
        spend(state, side, cost(state, "scorched-earth"), &format!("laying waste to {name}"), RuleId::BE_44)?.into_iter().collect();
    events.push(Event::EarthScorched { zone: zone.clone(), side: side.clone() });
    if state.control.get(&zone) != Some(side) {
        events.push(Event::ZoneControlled { zone, side: side.clone() });
    }
    Ok(events)
}

/// BE-43: the acting leader at a siege he is making plays Treachery: 2d6 less his tactical
/// rating, 2 to 8 and the city is his.
pub fn treachery(state: &State, side: &SideId, leader: &str, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let (city, _) = own_siege(state, side, leader, RuleId::BE_43)?;
    let name = side_name(state, side);
    if !state.hands.get(side).is_some_and(|h| h.iter().any(|s| s == "treachery")) {
        return Err(RuleError::new(RuleId::BE_43, format!("the {name} hold no Treachery stratagem")));
    }
    let chief = super::state::piece_name(&state.setup, leader);
    let city_name = state.setup.place_name(&Location::City(city.clone()));
    let tactical = state.setup.leader(leader).map_or(0, |l| l.tactical);
    let modifiers = if tactical > 0 {
        vec![Modifier { value: -i32::from(tactical), reason: format!("{chief}'s tactical rating") }]
    } else {
        Vec::new()
    };
    let mut steps = Steps::new(state);
    steps.push(Event::StratagemPlayed { side: side.clone(), stratagem: "treachery".to_owned() });
    let roll = dice.roll(TWO_D6, &format!("treachery at {city_name}"), Some(RuleId::BE_43), modifiers)?;
    let betrayed = super::tables::treachery_succeeds(roll.total());
    // Treachery is no combat: the besieger's leader stays face down (BE-53), and his rating
    // is on the roll. The besieged read what came of it.
    steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Side(side.clone()) }));
    if betrayed {
        fall(&mut steps, &city, side, Fall::Betrayed);
    } else {
        steps.push(Event::TreacheryFailed { city });
    }
    Ok(steps.events)
}

/// The contact at a siege the mover's side suffers, with the city and the siege.
fn relief_contact(state: &State, rule: RuleId) -> Result<(&super::interception::Contact, CityId, &Siege), RuleError> {
    let c = state
        .ops
        .as_ref()
        .and_then(|o| o.contact.as_ref())
        .ok_or_else(|| RuleError::new(rule, "there is no force marching into a siege's zone now"))?;
    let (city, siege) = siege_in(state, &c.zone)
        .filter(|(_, s)| s.besieger != c.mover.side)
        .ok_or_else(|| RuleError::new(rule, "no siege of the marching side's city is laid here: there are no lines to attack"))?;
    Ok((c, city.clone(), siege))
}

/// BE-29: at a contact in the zone of a siege its side suffers, the marching force attacks
/// the besiegers' lines when its turn comes: no roll; the besieger then names who fights.
pub fn relieve(state: &State, side: &SideId) -> Result<Vec<Event>, RuleError> {
    let (c, _, _) = relief_contact(state, RuleId::BE_29)?;
    if &c.mover.side != side || c.turn_of != *side {
        return Err(RuleError::new(RuleId::BE_29, "the marching force attacks the lines when its turn at the contact comes"));
    }
    if c.relief {
        return Err(RuleError::new(RuleId::BE_29, "the lines are attacked already"));
    }
    if super::state::is_decoy(&c.mover.leader) {
        return Err(RuleError::new(RuleId::BE_42, "a decoy cannot attack anyone"));
    }
    let units = force_units(state, side, &c.mover.leader, &c.mover.with);
    if units == 0 {
        return Err(RuleError::new(RuleId::BE_29, "the marching force has no units to attack the lines with"));
    }
    Ok(vec![Event::ReliefDeclared { zone: c.zone.clone() }])
}

/// BE-29: the besieger names the leaders in the open who fight the relief; the rest hold the
/// lines. Unless what holds them (units without a leader in the zone included) is at least
/// the besieged force with its militia, the siege is lifted as the battle begins.
pub fn hold_lines(state: &State, side: &SideId, fight: &[String]) -> Result<Vec<Event>, RuleError> {
    let (c, city, siege) = relief_contact(state, RuleId::BE_29)?;
    if !c.relief || &siege.besieger != side {
        return Err(RuleError::new(RuleId::BE_29, "only the besieger answers an attack on the lines, once it is made"));
    }
    let open = Location::Zone(siege.zone.clone());
    let leaders = besieging_leaders(state, siege);
    if fight.is_empty() {
        return Err(RuleError::new(RuleId::BE_29, "name at least one leader to meet the relief"));
    }
    for (i, l) in fight.iter().enumerate() {
        if !leaders.contains(l) {
            return Err(RuleError::new(
                RuleId::BE_29,
                format!("`{l}` is not among the besiegers' leaders in the open ({})", leaders.join(", ")),
            ));
        }
        if fight[..i].contains(l) {
            return Err(RuleError::new(RuleId::BE_29, format!("`{l}` is named twice")));
        }
    }
    let fighting: u32 = fight.iter().filter_map(|l| state.marker(side, l)).flat_map(|p| p.kind.units()).map(|u| u32::from(u.value)).sum();
    if fighting == 0 {
        return Err(RuleError::new(RuleId::BE_29, "the leaders named have no units to fight with"));
    }
    let held: u32 = points(&units_at(state, side, &open)).saturating_sub(fighting);
    let holder = super::operations::other_side(state, side);
    let inside = Location::City(city.clone());
    let besieged = points(&units_at(state, &holder, &inside)).saturating_add(u32::from(state.cities.get(&city).map_or(0, |h| h.militia)));
    let mut events = Vec::new();
    if held < besieged {
        events.push(Event::SiegeEnded { city: city.clone(), why: Lifted::LinesEmptied });
    }
    // The besiegers' leaders in order of rank, the commander first.
    let mut ordered = fight.to_vec();
    ordered.sort_by_key(|l| std::cmp::Reverse(state.setup.leader(l).map_or(0, |x| x.rank)));
    let mover: Vec<String> = std::iter::once(c.mover.leader.clone()).chain(c.mover.with.iter().cloned()).collect();
    let mut battle = super::interception::new_battle(
        state,
        c,
        super::tables::Interception::LineOfBattle,
        None,
        (&c.mover.side, &mover, false),
        (side, &ordered, false),
    );
    battle.relief = Some(city);
    events.push(Event::BattleJoined { battle });
    Ok(events)
}

/// The sortie under way, or why a sortie order cannot be given now.
fn sortie_due(state: &State) -> Result<&SortieDue, RuleError> {
    state.ops.as_ref().and_then(|o| o.sortie.as_ref()).ok_or_else(|| RuleError::new(RuleId::BE_28, "there is no sortie under way"))
}

/// BE-28: the acting leader, shut in a besieged city of his side, sallies with the garrison's
/// units named (numbered as the city's units are, see `show`), for 1 AP; the militia stays.
pub fn sortie(state: &State, side: &SideId, leader: &str, units: &[u32]) -> Result<Vec<Event>, RuleError> {
    let (_, active) = super::operations::acting(state, side, leader, RuleId::BE_28)?;
    if super::state::is_decoy(leader) {
        return Err(RuleError::new(RuleId::BE_42, "a decoy carries out no action: it cannot sally"));
    }
    let chief = super::state::piece_name(&state.setup, leader);
    let Location::City(city) = &active.at else {
        return Err(RuleError::new(RuleId::BE_28, format!("{chief} is not in a city: a sortie is made by the besieged")));
    };
    let siege = state.sieges.get(city).filter(|s| &s.besieger != side).ok_or_else(|| {
        RuleError::new(RuleId::BE_28, format!("{} is not besieged: march out instead", state.setup.place_name(&active.at)))
    })?;
    if units.is_empty() {
        return Err(RuleError::new(RuleId::BE_28, "name the garrison's units that sally (the militia may not)"));
    }
    let garrison = units_at(state, side, &active.at);
    let mut chosen = Vec::new();
    let mut points = 0u32;
    for (i, n) in units.iter().enumerate() {
        if units[..i].contains(n) {
            return Err(RuleError::new(RuleId::BE_28, format!("unit {n} is named twice")));
        }
        let u = usize::try_from(*n).ok().and_then(|k| k.checked_sub(1)).and_then(|k| garrison.get(k)).ok_or_else(|| {
            RuleError::new(RuleId::BE_28, format!("the garrison has no unit {n}; its units are numbered 1 to {}", garrison.len()))
        })?;
        chosen.push((u.leader.map(str::to_owned), u.index));
        points += u32::from(u.unit.value);
    }
    let name = state.setup.place_name(&active.at);
    let mut events: Vec<Event> =
        spend(state, side, cost(state, "sortie"), &format!("a sortie from {name}"), RuleId::BE_28)?.into_iter().collect();
    let due = SortieDue {
        city: city.clone(),
        zone: siege.zone.clone(),
        side: side.clone(),
        leader: leader.to_owned(),
        units: chosen,
        points,
        answer: Vec::new(),
        owed: BTreeMap::new(),
    };
    events.push(Event::SortieMade { due });
    Ok(events)
}

/// The units of a sortie's side as `take_losses` numbers them: the sallying units, or the
/// besieger's that answered, each at its full value.
pub fn sortie_units<'a>(state: &'a State, due: &SortieDue, side: &SideId) -> (Vec<Numbered<'a>>, Location) {
    let (at, picked): (Location, Vec<(Option<String>, u32)>) = if side == &due.side {
        (Location::City(due.city.clone()), due.units.clone())
    } else {
        (Location::Zone(due.zone.clone()), due.answer.iter().map(|(l, i, _)| (l.clone(), *i)).collect())
    };
    let all = units_at(state, side, &at);
    let units = picked.iter().filter_map(|(l, i)| all.iter().find(|n| n.leader == l.as_deref() && n.index == *i).copied()).collect();
    (units, at)
}

/// The besieger's units in the zone, numbered for `answer_sortie`, and the points it meets
/// the sortie with: as many as sallied, or all it has if fewer (BE-28).
pub fn answering<'a>(state: &'a State, due: &SortieDue, side: &SideId) -> (Vec<Numbered<'a>>, u32) {
    let mine = units_at(state, side, &Location::Zone(due.zone.clone()));
    let need = due.points.min(points(&mine));
    (mine, need)
}

/// BE-28: the besieger answers a sortie with as many unmodified points as sallied (all it has
/// in the open if fewer): units numbered as the besiegers in the zone are, and the points each
/// commits. Both sides then roll one melee; morale is not checked.
pub fn answer_sortie(state: &State, side: &SideId, answer: &[(u32, u8)], dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let due = sortie_due(state)?;
    if side == &due.side || !due.answer.is_empty() || !due.owed.is_empty() {
        return Err(RuleError::new(RuleId::BE_28, "the besieger answers the sortie, once"));
    }
    let open = Location::Zone(due.zone.clone());
    let (mine, need) = answering(state, due, side);
    let mut committed: BTreeMap<u32, u8> = BTreeMap::new();
    for &(n, p) in answer {
        let u = usize::try_from(n).ok().and_then(|k| k.checked_sub(1)).and_then(|k| mine.get(k)).ok_or_else(|| {
            RuleError::new(RuleId::BE_28, format!("the besiegers have no unit {n} here; they are numbered 1 to {}", mine.len()))
        })?;
        let sum = committed.entry(n).or_default();
        *sum = sum.saturating_add(p);
        if *sum > u.unit.value {
            return Err(RuleError::new(
                RuleId::BE_28,
                format!("unit {n} ({}) has {}, not {}", u.unit, crate::core::words::count(u.unit.value, "point"), *sum),
            ));
        }
    }
    let total: u32 = committed.values().map(|&p| u32::from(p)).sum();
    if total != need {
        return Err(RuleError::new(RuleId::BE_28, format!("the sortie is met with {need} unmodified points, and {total} were named")));
    }
    let answer: Vec<(Option<String>, u32, u8)> = committed
        .iter()
        .filter(|(_, p)| **p > 0)
        .filter_map(|(n, p)| {
            let u = mine.get(usize::try_from(*n).ok()?.checked_sub(1)?)?;
            Some((u.leader.map(str::to_owned), u.index, *p))
        })
        .collect();
    let mut steps = Steps::new(state);
    steps.push(Event::SortieAnswered { answer: answer.clone() });
    // Each side's fighters: the sallying units whole, the answering ones at the points
    // committed.
    let sally: Vec<super::fight::Fighter> =
        sortie_units(state, due, &due.side).0.iter().map(|n| super::fight::Fighter { unit: n.unit, disordered: false }).collect();
    let lines: Vec<super::fight::Fighter> = answer
        .iter()
        .filter_map(|(l, i, p)| {
            let n = mine.iter().find(|n| n.leader == l.as_deref() && n.index == *i)?;
            Some(super::fight::Fighter { unit: Unit { value: *p, ..n.unit }, disordered: false })
        })
        .collect();
    let besieger_chief = answer
        .iter()
        .filter_map(|(l, _, _)| l.as_deref())
        .filter_map(|l| state.setup.leader(l))
        .max_by_key(|l| l.rank)
        .map(|l| (l.tactical, l.name.clone()));
    let mountains = state.setup.map.zone(&due.zone).is_some_and(|z| z.terrain == super::map::Terrain::Mountain);
    let city_name = state.setup.place_name(&Location::City(due.city.clone()));
    let sallier = state.setup.leader(&due.leader).map(|l| (l.tactical, l.name.clone()));
    let mut owed = BTreeMap::new();
    for (who, fighters, chief, enemy) in [(&due.side, &sally, sallier, &lines), (side, &lines, besieger_chief, &sally)] {
        let (tactical, name) = chief.unwrap_or((0, String::new()));
        let modifiers = super::fight::die_modifiers(tactical, fighters, mountains, false)
            .into_iter()
            .map(|(value, reason)| Modifier {
                value,
                reason: if reason == "tactical rating" { format!("{name}'s tactical rating") } else { reason.to_owned() },
            })
            .collect();
        let factor = super::fight::combat_factor(fighters, super::fight::Stage::Melee);
        let roll = dice.roll(
            DiceSpec::D6,
            &format!("the {} melee in the sortie at {city_name} (factor {factor})", side_name(state, who)),
            Some(RuleId::BE_28),
            modifiers,
        )?;
        let result = state.setup.tables.combat(factor, roll.total(), 0);
        steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(who.clone()), visibility: Visibility::Public }));
        let enemy_points: u32 = enemy.iter().map(|f| u32::from(f.unit.value)).sum();
        let enemy_side = if who == &due.side { side.clone() } else { due.side.clone() };
        owed.insert(enemy_side, super::tables::percent_of(enemy_points, result.percent));
    }
    steps.push(Event::SortieRolled { owed: owed.clone().into_iter().collect() });
    // A side that owes nothing is done at once.
    for (who, points) in owed {
        if points == 0 {
            let at = if who == due.side { Location::City(due.city.clone()) } else { open.clone() };
            steps.push(Event::SiegeLossesTaken { side: who, at, losses: Vec::new(), militia: 0, sortie: true });
        }
    }
    Ok(steps.events)
}

/// BE-28: a side shares out what it owes after a sortie, from the units that fought only.
pub fn take_sortie_losses(state: &State, side: &SideId, losses: &[(u32, u8)]) -> Result<Vec<Event>, RuleError> {
    let due = sortie_due(state)?;
    let owed = *due
        .owed
        .get(side)
        .ok_or_else(|| RuleError::new(RuleId::BE_28, format!("the {} owe nothing for the sortie", side_name(state, side))))?;
    let (units, at) = sortie_units(state, due, side);
    let losses = share(&units, losses, (0, 0), owed, RuleId::BE_28, "for the sortie, from those who fought")?;
    Ok(vec![Event::SiegeLossesTaken { side: side.clone(), at, losses, militia: 0, sortie: true }])
}

/// A lawful share of a sortie's losses from the units that fought (see [`suggest`]).
pub fn suggested_sortie_share(state: &State, side: &SideId) -> Option<Vec<(u32, u8)>> {
    let due = state.ops.as_ref()?.sortie.as_ref()?;
    let owed = *due.owed.get(side)?;
    Some(suggest(&sortie_units(state, due, side).0, owed, 0).0)
}

/// BE-26: the siege phase: each siege declared before this turn moves its marker up one; at
/// 4 the city falls with everyone inside.
pub fn siege_phase(state: &State) -> Vec<Event> {
    let mut steps = Steps::new(state);
    let sieges: Vec<(CityId, Siege)> = state.sieges.iter().map(|(c, s)| (c.clone(), s.clone())).collect();
    for (city, siege) in sieges {
        if siege.declared >= state.turn {
            continue;
        }
        let duration = siege.duration.saturating_add(1);
        steps.push(Event::SiegeAdvanced { city: city.clone(), duration });
        if duration >= SIEGE_FALLS_AT {
            fall(&mut steps, &city, &siege.besieger, Fall::Starved);
        }
    }
    steps.events
}

/// BE-30: the sieges that `events` leave without a besieger in the zone end at once. Called
/// after every order, on the state the order's events make.
pub fn lifted(after: &State) -> Vec<Event> {
    after
        .sieges
        .iter()
        .filter(|(_, s)| {
            let open = Location::Zone(s.zone.clone());
            !after.pieces_of(&s.besieger).any(|p| p.at == open && p.kind.units().iter().any(|u| u.value > 0))
        })
        .map(|(c, _)| Event::SiegeEnded { city: c.clone(), why: Lifted::BesiegersGone })
        .collect()
}

/// Takes `losses` — (leader whose box, or `None` for the units without a leader at `at`,
/// unit's index, points) — from `side`'s units, removes the units left with nothing, and
/// returns the points taken.
pub(crate) fn hit_units(state: &mut State, side: &SideId, at: &Location, losses: &[(Option<String>, u32, u8)]) -> u32 {
    let mut lost = 0u32;
    for (leader, index, points) in losses {
        let hit = |u: &mut Unit| {
            let p = (*points).min(u.value);
            u.value -= p;
            u32::from(p)
        };
        match leader {
            Some(l) => {
                if let Some(u) = state
                    .pieces
                    .iter_mut()
                    .find(|p| &p.side == side && matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == l))
                    .and_then(|p| match &mut p.kind {
                        PieceKind::Leader { units, .. } => usize::try_from(*index).ok().and_then(|i| units.get_mut(i)),
                        _ => None,
                    })
                {
                    lost += hit(u);
                }
            }
            None => {
                let mut k = 0u32;
                for p in state.pieces.iter_mut().filter(|p| &p.side == side && &p.at == at) {
                    if let PieceKind::Group { units } = &mut p.kind {
                        for u in units.iter_mut() {
                            if k == *index {
                                lost += hit(u);
                            }
                            k = k.saturating_add(1);
                        }
                    }
                }
            }
        }
    }
    for p in state.pieces.iter_mut().filter(|p| &p.side == side) {
        if let PieceKind::Leader { units, .. } | PieceKind::Group { units } = &mut p.kind {
            units.retain(|u| u.value > 0);
        }
    }
    state.pieces.retain(|p| !matches!(&p.kind, PieceKind::Group { units } if units.is_empty()));
    lost
}

impl State {
    /// Applies the events of sieges (see [`State::apply`]).
    pub(crate) fn apply_siege(&mut self, event: &Event) {
        match event {
            Event::ActionPointsSpent { side, left, .. } => {
                if let Some(a) = self.ops.as_mut().and_then(|o| o.ap.get_mut(side)) {
                    a.left = *left;
                }
            }
            Event::SiegeDeclared { city, siege } => {
                self.sieges.insert(city.clone(), siege.clone());
                if let Some(ops) = &mut self.ops {
                    ops.declared = Some(city.clone());
                }
            }
            Event::AssaultRolled { due, .. } => {
                if let Some(ops) = &mut self.ops {
                    ops.stormed.insert(due.city.clone());
                    ops.assault = Some(due.clone());
                }
            }
            Event::SiegeLossesTaken { side, at, losses, militia, .. } => {
                let lost = hit_units(self, side, at, losses);
                let entry = self.lost_in_battle.entry(side.clone()).or_default();
                *entry = entry.saturating_add(lost);
                if let Some(ops) = &mut self.ops
                    && let Some(due) = ops.sortie.as_mut().filter(|d| !d.owed.is_empty())
                {
                    due.owed.remove(side);
                    if due.owed.is_empty() {
                        ops.sortie = None;
                    }
                } else if let Some(ops) = &mut self.ops
                    && let Some(due) = &mut ops.assault
                {
                    if let Some(h) = self.cities.get_mut(&due.city) {
                        h.militia = h.militia.saturating_sub(*militia);
                    }
                    due.owed.remove(side);
                    if due.owed.is_empty() {
                        ops.assault = None;
                    }
                }
            }
            Event::CityFell { city, from, to, .. } => {
                let inside = Location::City(city.clone());
                let in_port: Vec<String> = self
                    .pieces
                    .iter()
                    .filter(|p| &p.side == from && p.at == inside)
                    .filter_map(|p| p.kind.ship_id().map(str::to_owned))
                    .collect();
                let mut lost = 0u32;
                let mut decoys = 0u32;
                self.pieces.retain(|p| {
                    // Troops aboard the ships in the port are taken with the city.
                    let aboard = matches!(&p.at, Location::Aboard(s) if in_port.contains(s));
                    if &p.side != from || (p.at != inside && !aboard) {
                        return true;
                    }
                    match &p.kind {
                        PieceKind::Fleet { .. } => true,
                        PieceKind::FleetDecoy { .. } => {
                            decoys += 1;
                            false
                        }
                        kind => {
                            lost = lost.saturating_add(kind.units().iter().map(|u| u32::from(u.value)).sum::<u32>());
                            false
                        }
                    }
                });
                if decoys > 0 {
                    let e = self.fleet_decoys_out.entry(from.clone()).or_default();
                    *e = e.saturating_add(decoys);
                }
                // BE-40: the ships in the port are salvaged by the new holder, under its own
                // numbering.
                for p in self.pieces.iter_mut().filter(|p| &p.side == from && p.at == inside) {
                    p.side = to.clone();
                    if let PieceKind::Fleet { id, .. } = &mut p.kind {
                        id.clear();
                    }
                }
                self.name_decoys(to);
                let entry = self.lost_in_battle.entry(from.clone()).or_default();
                *entry = entry.saturating_add(lost);
                let full = full_militia(self, city);
                if let Some(h) = self.cities.get_mut(city) {
                    h.holder = Some(to.clone());
                    h.militia = full;
                }
                self.sieges.remove(city);
                if let Some(ops) = &mut self.ops {
                    if let Some(due) = &mut ops.assault
                        && &due.city == city
                    {
                        due.owed.remove(from);
                        if due.owed.is_empty() {
                            ops.assault = None;
                        }
                    }
                    if ops.declared.as_ref() == Some(city) {
                        ops.declared = None;
                    }
                }
            }
            Event::WorksBuilt { city, works, count, .. } => match works {
                Works::Siege => {
                    if let Some(s) = self.sieges.get_mut(city) {
                        s.works = s.works.saturating_add(*count);
                    }
                }
                Works::Defence => {
                    if let Some(h) = self.cities.get_mut(city) {
                        h.defence_works = h.defence_works.saturating_add(*count);
                    }
                }
            },
            Event::FortificationsDestroyed { city, .. } => {
                if let Some(h) = self.cities.get_mut(city) {
                    h.razed = true;
                    h.defence_works = 0;
                }
            }
            Event::SortieMade { due } => {
                if let Some(ops) = &mut self.ops {
                    ops.sortie = Some(due.clone());
                }
            }
            Event::SortieAnswered { answer } => {
                if let Some(d) = self.ops.as_mut().and_then(|o| o.sortie.as_mut()) {
                    d.answer.clone_from(answer);
                }
            }
            Event::SortieRolled { owed } => {
                if let Some(d) = self.ops.as_mut().and_then(|o| o.sortie.as_mut()) {
                    d.owed = owed.iter().cloned().collect();
                }
            }
            Event::EarthScorched { zone, .. } => {
                self.scorched.insert(zone.clone());
            }
            Event::SiegeRelieved { city } => {
                if let Some(ops) = &mut self.ops {
                    ops.relieved = Some(city.clone());
                }
            }
            Event::SiegeAdvanced { city, duration } => {
                if let Some(s) = self.sieges.get_mut(city) {
                    s.duration = *duration;
                }
            }
            Event::SiegeEnded { city, .. } => {
                self.sieges.remove(city);
                let full = full_militia(self, city);
                if let Some(h) = self.cities.get_mut(city) {
                    h.militia = full;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belisarius::World;
    use crate::belisarius::pieces::{UnitKind, parse_units};
    use crate::belisarius::state::Piece;

    fn side(id: &str) -> SideId {
        SideId::new(id)
    }

    /// The First Reconquest of Italy as it starts, on turn 3, with a Gothic city walled 1 to
    /// 3 (room for works) besieged by the Byzantines since turn 1 with their duration marker
    /// at `duration`; the city and its zone.
    fn besieged(duration: u8) -> (State, CityId, ZoneId) {
        let mut state = State::new("Italy", &World::embedded().setup("italy-535").unwrap(), 1);
        let zone = state.setup.map.zones.iter().find(|z| (1..=3).contains(&z.city.fortification)).unwrap().clone();
        state.turn = 3;
        state.cities.get_mut(&zone.city.id).unwrap().holder = Some(side("ostrogoths"));
        let siege = Siege { zone: zone.id.clone(), besieger: side("byzantines"), duration, declared: 1, works: 0 };
        state.sieges.insert(zone.city.id.clone(), siege);
        (state, zone.city.id, zone.id)
    }

    /// Belisarius's box: 4B, then 3C.
    fn units() -> Vec<Unit> {
        ["4B", "3C"].iter().flat_map(|u| parse_units(UnitKind::HeavyCavalry, u).unwrap()).collect()
    }

    fn numbered(units: &[Unit]) -> Vec<Numbered<'_>> {
        (0..).zip(units).map(|(index, unit)| Numbered { leader: Some("belisarius"), index, unit: *unit }).collect()
    }

    #[test]
    fn be_25_be_32_a_citys_defence_is_its_walls_and_works_at_most_5() {
        let (mut state, city, _) = besieged(1);
        let walls = state.setup.map.city(&city).unwrap().fortification;
        assert_eq!(defence(&state, &city), walls);
        state.cities.get_mut(&city).unwrap().defence_works = 1;
        assert_eq!(defence(&state, &city), walls + 1);
        state.cities.get_mut(&city).unwrap().defence_works = 5;
        assert_eq!(defence(&state, &city), 5, "never above 5");
        let hold = state.cities.get_mut(&city).unwrap();
        hold.defence_works = 1;
        hold.razed = true;
        assert_eq!(defence(&state, &city), 1, "walls pulled down leave the works");
    }

    #[test]
    fn be_26_the_duration_marker_goes_up_each_later_turn_and_the_city_falls_at_4() {
        let (state, city, _) = besieged(2);
        assert_eq!(siege_phase(&state), vec![Event::SiegeAdvanced { city: city.clone(), duration: 3 }]);
        let (state, city, _) = besieged(3);
        let events = siege_phase(&state);
        assert_eq!(events[0], Event::SiegeAdvanced { city: city.clone(), duration: 4 });
        assert!(
            events.contains(&Event::CityFell { city: city.clone(), from: side("ostrogoths"), to: side("byzantines"), how: Fall::Starved }),
            "{events:?}"
        );
        // A siege declared this turn waits for the next.
        let (mut state, city, _) = besieged(1);
        state.sieges.get_mut(&city).unwrap().declared = 3;
        assert_eq!(siege_phase(&state), Vec::new());
    }

    #[test]
    fn be_30_a_siege_with_no_besieging_unit_left_in_the_zone_is_lifted() {
        let (mut state, city, zone) = besieged(1);
        assert_eq!(lifted(&state), vec![Event::SiegeEnded { city: city.clone(), why: Lifted::BesiegersGone }]);
        // Units without a leader hold the lines.
        state.pieces.push(Piece { side: side("byzantines"), at: Location::Zone(zone), kind: PieceKind::Group { units: units() } });
        assert_eq!(lifted(&state), Vec::new());
    }

    /// BE-25, BE-27: the militia absorbs what it can first, then the units, the smaller of
    /// two alike first (which of unlike kinds goes first is campaign/tests' BE-27 test).
    #[test]
    fn be_27_a_suggested_share_takes_the_militia_first_then_the_smaller_unit() {
        let units = units();
        assert_eq!(suggest(&numbered(&units), 9, 3), (vec![(1, 3), (2, 3)], 3));
        assert_eq!(suggest(&numbered(&units), 2, 3), (Vec::new(), 2));
        assert_eq!(suggest(&numbered(&units), 20, 0), (vec![(1, 4), (2, 3)], 0), "no more than the units have");
    }

    #[test]
    fn be_27_a_share_names_exactly_the_points_owed_and_no_more_than_each_has() {
        let units = units();
        let units = numbered(&units);
        let share =
            |losses: &[(u32, u8)], militia: (u8, u8), owed: u32| share(&units, losses, militia, owed, RuleId::BE_27, "for the assault");
        assert_eq!(
            share(&[(2, 1), (1, 2), (2, 1)], (2, 3), 6).unwrap(),
            vec![(Some("belisarius".to_owned()), 0, 2), (Some("belisarius".to_owned()), 1, 2)]
        );
        assert!(share(&[(1, 2)], (4, 3), 6).unwrap_err().to_string().contains("the militia has 3 points, not 4"));
        assert!(share(&[(1, 5)], (0, 3), 5).unwrap_err().to_string().contains("has 4 points, not 5"));
        assert!(share(&[(1, 2)], (1, 3), 4).unwrap_err().to_string().contains("4 points are owed for the assault, and 3 were named"));
        assert!(share(&[(3, 1)], (0, 0), 1).unwrap_err().to_string().contains("there is no unit 3 here; the units are numbered 1 to 2"));
    }

    /// BE-43: treachery rolls 2d6 and takes the city on 2 to 8.
    #[test]
    fn be_43_treachery_takes_the_city_on_2_to_8() {
        assert_eq!((TWO_D6.count, TWO_D6.sides), (2, 6));
        assert!(super::super::tables::treachery_succeeds(2));
        assert!(super::super::tables::treachery_succeeds(8));
        assert!(!super::super::tables::treachery_succeeds(9));
    }

    /// BE-32: two siege works for each besieging leader in the open zone.
    #[test]
    fn be_32_siege_works_count_two_for_each_besieging_leader() {
        let (mut state, city, zone) = besieged(1);
        assert_eq!(SIEGE_WORKS_PER_LEADER, 2);
        for leader in ["belisarius", "mundus"] {
            let kind = PieceKind::Leader { leader: leader.to_owned(), units: units() };
            state.pieces.push(Piece { side: side("byzantines"), at: Location::Zone(zone.clone()), kind });
        }
        let siege = state.sieges[&city].clone();
        assert_eq!(besieging_leaders(&state, &siege), vec!["belisarius".to_owned(), "mundus".to_owned()]);
    }
}
