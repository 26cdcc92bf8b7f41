//! Ships (BE-33 … BE-40): voyages of up to six sea zones, paid per move and not per leader,
//! naval attrition, interception at sea, naval battles, troops carried by sea, naval support
//! of an assault and fleet decoys.
//!
//! Readings of the rules this module makes:
//! - Each naval piece is a naval unit with an id (`fleet-byzantines-2`). Ships standing at one
//!   place sail together as a fleet when one `sail` names them all: 2 AP for the fleet, 1 for
//!   a ship alone (BE-33). A fleet decoy sails like a ship and pays the same (BE-42).
//! - Ships need no leader and no activation; they sail in their side's segment, as often as
//!   the side pays, even while one of its leaders is acting — which is how his force is
//!   carried. A segment with a voyage in it is not a pass.
//! - The six sea zones are counted over the whole turn for each ship (BE-33, BE-34). Leaving a
//!   port or entering one is not a sea zone; a ship enters only a port its side holds.
//! - Naval attrition is rolled once per voyage for the ships that sailed together, on the row
//!   of the most zones any of them has sailed this turn, when the voyage ends or halts
//!   (BE-34). The roll is the owner's; a voyage of decoys rolls too, so the other side learns
//!   nothing from the number of rolls.
//! - Naval points lost are taken by the owner's ships in a fixed order so no form is needed:
//!   ships carrying nobody first, then those carrying the fewest points, the smaller ship
//!   first. A ship at 0 sinks with all aboard; the leaders aboard are lost (BE-34).
//! - A voyage halts in the first sea zone holding an enemy sea marker (ships in a port are in
//!   sanctuary and do not count, BE-40). Only the side not sailing may intercept there, with
//!   ships of that zone, for 1 AP; a decoy carries out no action (BE-35, BE-42). If it
//!   declines or fails, the voyage may go on without paying again.
//! - Intercepted decoys leave the map; if real ships were intercepted, a naval battle follows
//!   with its first passage at once (BE-36). After each passage either side may retire to a
//!   sea zone beside the battle or to a port of its own on the battle's sea; otherwise the
//!   referee rolls the next passage. Both sides roll in a passage on the strengths before it.
//! - Troops embark and land within their leader's activation: the acting force and the
//!   leaders activated with it board the named ships, each leader's box on the first ship
//!   with room (BE-37). In a port the side holds (or from a ship inside a port) it costs the
//!   port price, elsewhere on the coast the coast price. A besieged garrison boards ships in
//!   its port only; its militia stays and is whole again (BE-30).
//! - A force landing in an open zone enters it as a march does: it takes the zone, or halts
//!   for interception where the enemy stands (BE-13, BE-46).

use crate::core::log::DiceRolled;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::battle::{Steps, kill_where};
use super::event::Event;
use super::map::{CityId, SeaId};
use super::operations::{Operations, ops, side_name};
use super::siege::cost;
use super::state::{Location, PieceKind, State};
use super::tables::{EMBARKED_POINTS_PER_NAVAL_PIP, NavalAttrition};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// The most sea zones a ship sails in a turn (BE-33).
pub const MAX_SEA_ZONES: u32 = 6;

const TWO_D6: DiceSpec = DiceSpec { count: 2, sides: 6 };

/// A voyage halted where the enemy's ships are (BE-35).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavalContact {
    pub sea: SeaId,
    /// The side whose ships sailed in.
    pub mover: SideId,
    /// Its ships, by id.
    pub ships: Vec<String>,
}

/// One side's ships in a naval battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Squadron {
    pub side: SideId,
    pub ships: Vec<String>,
    /// Naval points as the battle began.
    pub start: u32,
}

/// A naval battle (BE-36).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavalBattle {
    pub sea: SeaId,
    /// The side whose voyage was intercepted.
    pub mover: SideId,
    pub squadrons: Vec<Squadron>,
    pub passages: u32,
}

/// One side's roll in a passage of a naval battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassageRoll {
    pub side: SideId,
    /// Own naval points less the enemy's: the column.
    pub difference: i32,
    /// The d6 with the admiral's tactical rating and the troops aboard: the row.
    pub modified: i32,
    /// Naval points the enemy loses.
    pub inflicted: u32,
}

/// Why ships lost naval points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShipLoss {
    /// Naval attrition after a voyage (BE-34).
    Attrition,
    /// A passage of a naval battle (BE-36).
    Combat,
}

/// Refuses another order while a naval contact or battle is open.
pub(crate) fn naval_pending(state: &State, ops: &Operations) -> Result<(), RuleError> {
    if let Some(b) = &ops.naval_battle {
        let at = state.setup.place_name(&Location::Sea(b.sea.clone()));
        return Err(RuleError::new(
            RuleId::BE_36,
            format!("the naval battle in {at} is under way: fight the next passage or retire first"),
        ));
    }
    if let Some(c) = &ops.naval_contact {
        let at = state.setup.place_name(&Location::Sea(c.sea.clone()));
        let other = super::operations::other_side(state, &c.mover);
        return Err(RuleError::new(
            RuleId::BE_35,
            format!("ships have sailed into {at}: the {} first intercept them or let them pass", side_name(state, &other)),
        ));
    }
    Ok(())
}

/// `side`'s ships (not its fleet decoys) among `ships`.
fn real<'a>(state: &'a State, side: &'a SideId, ships: &'a [String]) -> impl Iterator<Item = (&'a str, u32)> + 'a {
    ships.iter().filter_map(move |id| match state.ship(side, id).map(|p| &p.kind) {
        Some(PieceKind::Fleet { np, .. }) => Some((id.as_str(), *np)),
        _ => None,
    })
}

/// Naval points of `side`'s ships among `ships`.
pub fn naval_points(state: &State, side: &SideId, ships: &[String]) -> u32 {
    real(state, side, ships).map(|(_, np)| np).fold(0, u32::saturating_add)
}

/// The pieces aboard a ship.
pub fn aboard<'a>(state: &'a State, side: &'a SideId, ship: &'a str) -> impl Iterator<Item = &'a super::state::Piece> + 'a {
    state.pieces_of(side).filter(move |p| matches!(&p.at, Location::Aboard(s) if s == ship))
}

/// What a ship carries, in quarters of a naval point: an infantry point is two quarters, a
/// skirmisher's one, a cavalry point four (BE-37: 1 NP carries 2 infantry or 1 cavalry).
pub fn load(units: &[super::pieces::Unit]) -> u32 {
    units
        .iter()
        .map(|u| {
            let per = if u.is_cavalry() {
                4
            } else if u.skirmish {
                1
            } else {
                2
            };
            u32::from(u.value) * per
        })
        .fold(0, u32::saturating_add)
}

/// The quarters of naval points a ship's cargo takes.
fn cargo_load(state: &State, side: &SideId, ship: &str) -> u32 {
    aboard(state, side, ship).map(|p| load(p.kind.units())).fold(0, u32::saturating_add)
}

/// Combat points aboard `ships`, unmodified.
pub fn embarked_points(state: &State, side: &SideId, ships: &[String]) -> u32 {
    ships
        .iter()
        .flat_map(|s| aboard(state, side, s))
        .flat_map(|p| p.kind.units().iter().map(|u| u32::from(u.value)))
        .fold(0, u32::saturating_add)
}

/// The best tactical rating of a leader aboard `ships`: the admiral's (BE-35, BE-36).
pub fn admiral(state: &State, side: &SideId, ships: &[String]) -> Option<(String, u8)> {
    ships
        .iter()
        .flat_map(|s| aboard(state, side, s))
        .filter_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } => state.setup.leader(leader).map(|l| (l.name.clone(), l.tactical)),
            _ => None,
        })
        .max_by_key(|(_, t)| *t)
}

/// Where a place is on the map: a piece aboard a ship is where the ship is.
pub fn whereabouts(state: &State, at: &Location) -> Location {
    match at {
        Location::Aboard(ship) => state.pieces.iter().find(|p| p.kind.ship_id() == Some(ship)).map_or_else(|| at.clone(), |p| p.at.clone()),
        other => other.clone(),
    }
}

/// Whether the enemy of `side` has a sea marker in `sea` (not in a port: BE-40).
pub fn enemy_at_sea(state: &State, side: &SideId, sea: &SeaId) -> bool {
    state.pieces.iter().any(|p| &p.side != side && p.kind.is_naval() && p.at == Location::Sea(sea.clone()))
}

/// The order in which a side's ships take naval losses: ships carrying nobody first, then
/// those carrying the fewest points, the smaller ship first.
fn loss_order(state: &State, side: &SideId, ships: &[String]) -> Vec<(String, u32)> {
    let mut out: Vec<(u32, u32, String)> =
        real(state, side, ships).map(|(id, np)| (cargo_load(state, side, id), np, id.to_owned())).collect();
    out.sort();
    out.into_iter().map(|(_, np, id)| (id, np)).collect()
}

/// Takes `lost` naval points from `side`'s `ships`: the leaders aboard a ship that sinks are
/// lost with it (BE-34, BE-36).
fn damage(steps: &mut Steps, side: &SideId, ships: &[String], lost: u32, cause: ShipLoss) {
    if lost == 0 {
        return;
    }
    let mut left = lost;
    let mut losses = Vec::new();
    let mut sunk = Vec::new();
    for (id, np) in loss_order(&steps.state, side, ships) {
        if left == 0 {
            break;
        }
        let take = left.min(np);
        left -= take;
        losses.push((id.clone(), take));
        if take == np {
            sunk.push(id);
        }
    }
    for ship in &sunk {
        let leaders: Vec<String> = aboard(&steps.state, side, ship)
            .filter_map(|p| match &p.kind {
                PieceKind::Leader { leader, .. } => Some(leader.clone()),
                _ => None,
            })
            .collect();
        for leader in leaders {
            kill_where(steps, side, &leader, cause == ShipLoss::Attrition, false);
        }
    }
    steps.push(Event::ShipsDamaged { side: side.clone(), losses, sunk, cause });
}

/// BE-47 (event O): great storms stop every naval action this turn.
fn no_storm(state: &State) -> Result<(), RuleError> {
    if super::random_events::no_naval_action(state) {
        return Err(RuleError::new(RuleId::BE_47, "great storms this turn: no naval action (event O)"));
    }
    Ok(())
}

/// The ships `ids` of `side`, all at one place: that place, or why not.
fn ships_together(state: &State, side: &SideId, ids: &[String], rule: RuleId) -> Result<Location, RuleError> {
    let name = side_name(state, side);
    let first = ids.first().ok_or_else(|| RuleError::new(rule, "name the ships, by id (`fleet-byzantines-1`)"))?;
    let mut seen = BTreeSet::new();
    let mut at = None;
    for id in ids {
        if !seen.insert(id) {
            return Err(RuleError::new(rule, format!("{} is named twice", super::setup::ship_name(id))));
        }
        let piece = state.ship(side, id).ok_or_else(|| RuleError::new(rule, format!("the {name} have no ship `{id}` (see `roster`)")))?;
        match &at {
            None => at = Some(piece.at.clone()),
            Some(a) if a != &piece.at => {
                return Err(RuleError::new(
                    rule,
                    format!(
                        "{} is at {} and {} at {}: ships sail together only from one place",
                        super::setup::ship_name(first),
                        state.setup.place_name(a),
                        super::setup::ship_name(id),
                        state.setup.place_name(&piece.at)
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    at.ok_or_else(|| RuleError::new(rule, "name the ships"))
}

/// The port `city`, if it is one, and the zone it stands in.
fn port_zone<'a>(state: &'a State, city: &CityId) -> Option<&'a super::map::Zone> {
    state.setup.map.zone_of_city(city).filter(|z| z.city.port)
}

/// BE-33, BE-34, BE-35: `side` sails `ships` along `path` (sea zones, and at the end perhaps
/// a port it holds), pays for the move, rolls naval attrition where the voyage ends or halts.
pub fn sail(state: &State, side: &SideId, ships: &[String], path: &[String], dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_33)?;
    super::operations::nothing_pending(state, ops)?;
    let name = side_name(state, side);
    if &ops.segment != side {
        return Err(RuleError::new(RuleId::BE_33, format!("ships sail in their side's segment, and it is not the {name}'")));
    }
    super::operations::franks_first(state, side)?;
    if let Some(due) = ops.attrition.as_ref().filter(|d| &d.side == side) {
        return Err(RuleError::new(RuleId::BE_12, format!("{name} first take the {} points lost to attrition", due.points)));
    }
    no_storm(state)?;
    let from = ships_together(state, side, ships, RuleId::BE_33)?;
    if path.is_empty() {
        return Err(RuleError::new(RuleId::BE_33, "name the sea zones to sail through, one after the other"));
    }
    let map = &state.setup.map;
    let mut here = from.clone();
    let mut route = Vec::new();
    let mut contact = None;
    for (i, id) in path.iter().enumerate() {
        let to = state.setup.place(id).map_err(|e| RuleError::new(RuleId::BE_33, e.to_string()))?;
        let to_name = state.setup.place_name(&to);
        let last = i + 1 == path.len();
        if to == here {
            return Err(RuleError::new(RuleId::BE_33, format!("the ships are at {to_name} already: name the next sea zone")));
        }
        match (&here, &to) {
            (Location::Sea(h), Location::Sea(s)) => {
                if !map.sea(h).is_some_and(|x| x.neighbours.contains(s)) {
                    return Err(RuleError::new(RuleId::BE_33, format!("{to_name} does not border {}", state.setup.place_name(&here))));
                }
            }
            (Location::City(c), Location::Sea(s)) => {
                if !port_zone(state, c).is_some_and(|z| z.coast.contains(s)) {
                    return Err(RuleError::new(
                        RuleId::BE_33,
                        format!("ships leave {} only for a sea on its coast, not {to_name}", state.setup.place_name(&here)),
                    ));
                }
            }
            (Location::Sea(h), Location::City(c)) => {
                let zone = port_zone(state, c).ok_or_else(|| RuleError::new(RuleId::BE_33, format!("{to_name} is not a port")))?;
                if !zone.coast.contains(h) {
                    return Err(RuleError::new(
                        RuleId::BE_33,
                        format!("{to_name} is not on the coast of {}", state.setup.place_name(&here)),
                    ));
                }
                if state.cities.get(c).and_then(|h| h.holder.as_ref()) != Some(side) {
                    return Err(RuleError::new(RuleId::BE_33, format!("{to_name} is not held by the {name}: ships enter their own ports")));
                }
                if !last {
                    return Err(RuleError::new(RuleId::BE_33, format!("a voyage that enters {to_name} ends there")));
                }
            }
            _ => {
                return Err(RuleError::new(
                    RuleId::BE_33,
                    format!("`{id}` is not a sea zone or a port: ships sail from sea zone to sea zone"),
                ));
            }
        }
        if let Location::Sea(s) = &to
            && enemy_at_sea(state, side, s)
        {
            if !last {
                return Err(RuleError::new(
                    RuleId::BE_35,
                    format!(
                        "enemy ships are in {to_name}: the voyage halts there for interception; name the zones beyond it in a later move"
                    ),
                ));
            }
            contact = Some(s.clone());
        }
        route.push(to.clone());
        here = to;
    }
    let seas = u32::try_from(route.iter().filter(|l| l.is_sea()).count()).unwrap_or(u32::MAX);
    let mut most = 0;
    for id in ships {
        let sailed = ops.sailed.get(id).copied().unwrap_or(0);
        if sailed.saturating_add(seas) > MAX_SEA_ZONES {
            return Err(RuleError::new(
                RuleId::BE_33,
                format!(
                    "{} has sailed {} this turn: at most {MAX_SEA_ZONES} in all, so {} more",
                    super::setup::ship_name(id),
                    crate::core::words::count(sailed, "sea zone"),
                    MAX_SEA_ZONES - sailed.min(MAX_SEA_ZONES)
                ),
            ));
        }
        most = most.max(sailed.saturating_add(seas));
    }
    let mut sorted = ships.to_vec();
    sorted.sort();
    let goes_on = ops.voyage_on.as_ref() == Some(&sorted);
    let ap = if goes_on {
        0
    } else if ships.len() == 1 {
        cost(state, "naval-unit-move")
    } else {
        cost(state, "fleet-move")
    };
    let left = ops.left(side);
    if ap > left {
        return Err(RuleError::new(
            RuleId::BE_33,
            format!("the voyage costs {} and the {name} have {left} left", crate::core::words::count(ap, "action point")),
        ));
    }
    let mut steps = Steps::new(state);
    steps.push(Event::ShipsSailed { side: side.clone(), ships: ships.to_vec(), from, path: route, ap, left: left - ap });
    // BE-34: naval attrition for the ships that sailed, before any fight.
    let storm = super::random_events::storm_die(state);
    let mut modifiers = Vec::new();
    if storm != 0 {
        modifiers.push(Modifier { value: storm, reason: "storms (event N)".to_owned() });
    }
    let roll = dice.roll(
        DiceSpec::D6,
        &format!("naval attrition ({} this turn)", crate::core::words::count(most, "sea zone")),
        Some(RuleId::BE_34),
        modifiers,
    )?;
    let result: NavalAttrition = state.setup.tables.naval_attrition(most, roll.total());
    steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Side(side.clone()) }));
    let np = naval_points(&steps.state, side, ships);
    damage(&mut steps, side, ships, result.points_lost(np), ShipLoss::Attrition);
    if let Some(sea) = contact {
        let afloat: Vec<String> = ships.iter().filter(|s| steps.state.ship(side, s).is_some()).cloned().collect();
        if !afloat.is_empty() && enemy_at_sea(&steps.state, side, &sea) {
            steps.push(Event::NavalContactMade { contact: NavalContact { sea, mover: side.clone(), ships: afloat } });
        }
    }
    Ok(steps.events)
}

/// The naval contact open now, or why there is none.
fn contact(state: &State) -> Result<&NavalContact, RuleError> {
    state
        .ops
        .as_ref()
        .and_then(|o| o.naval_contact.as_ref())
        .ok_or_else(|| RuleError::new(RuleId::BE_35, "no ships have sailed into the enemy's sea zone"))
}

/// BE-35: the side not sailing tries to intercept the ships that sailed in, with its own
/// ships of that zone: 2d6 plus the best tactical rating aboard, 7 or more.
pub fn intercept(state: &State, side: &SideId, ships: &[String], dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let c = contact(state)?;
    let name = side_name(state, side);
    if side == &c.mover {
        return Err(RuleError::new(RuleId::BE_35, "the ships that sailed in are not the ones to intercept"));
    }
    let sea_name = state.setup.place_name(&Location::Sea(c.sea.clone()));
    no_storm(state)?;
    let at = ships_together(state, side, ships, RuleId::BE_35)?;
    if at != Location::Sea(c.sea.clone()) {
        return Err(RuleError::new(RuleId::BE_35, format!("the ships that intercept must be in {sea_name}")));
    }
    if let Some(decoy) = ships.iter().find(|s| matches!(state.ship(side, s).map(|p| &p.kind), Some(PieceKind::FleetDecoy { .. }))) {
        return Err(RuleError::new(RuleId::BE_42, format!("{} is a decoy: it carries out no action", super::setup::ship_name(decoy))));
    }
    let ap = cost(state, "naval-intercept");
    let left = state.ops.as_ref().map_or(0, |o| o.left(side));
    if ap > left {
        return Err(RuleError::new(
            RuleId::BE_35,
            format!("an interception costs {} and the {name} have {left} left", crate::core::words::count(ap, "action point")),
        ));
    }
    let mut modifiers = Vec::new();
    if let Some((admiral, tactical)) = admiral(state, side, ships).filter(|(_, t)| *t > 0) {
        modifiers.push(Modifier { value: i32::from(tactical), reason: format!("{admiral}'s tactical rating") });
    }
    let roll = dice.roll(TWO_D6, &format!("naval interception in {sea_name}"), Some(RuleId::BE_35), modifiers)?;
    let success = super::tables::naval_interception_succeeds(roll.total());
    let mut steps = Steps::new(state);
    // As on land, the referee alone reads the die: with the result it would tell who is
    // aboard. Everyone reads the result.
    steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Umpire }));
    steps.push(Event::NavalInterceptionTried { side: side.clone(), sea: c.sea.clone(), success, ap, left: left - ap });
    if !success {
        steps.push(Event::NavalContactEnded { sea: c.sea.clone(), voyage_on: Some(c.ships.clone()) });
        return Ok(steps.events);
    }
    // BE-42: the decoys among the ships intercepted are found out and leave the map.
    for id in &c.ships {
        if matches!(state.ship(&c.mover, id).map(|p| &p.kind), Some(PieceKind::FleetDecoy { .. })) {
            steps.push(Event::FleetDecoyRemoved { side: c.mover.clone(), id: id.clone(), at: Location::Sea(c.sea.clone()) });
        }
    }
    let theirs: Vec<String> = real(state, &c.mover, &c.ships).map(|(id, _)| id.to_owned()).collect();
    if theirs.is_empty() {
        steps.push(Event::NavalContactEnded { sea: c.sea.clone(), voyage_on: None });
        return Ok(steps.events);
    }
    let battle = NavalBattle {
        sea: c.sea.clone(),
        mover: c.mover.clone(),
        squadrons: vec![
            Squadron { side: c.mover.clone(), start: naval_points(state, &c.mover, &theirs), ships: theirs },
            Squadron { side: side.clone(), start: naval_points(state, side, ships), ships: ships.to_vec() },
        ],
        passages: 0,
    };
    steps.push(Event::NavalBattleJoined { battle });
    passage(&mut steps, dice)?;
    Ok(steps.events)
}

/// BE-35: the side not sailing lets the ships pass; their voyage may go on.
pub fn let_pass(state: &State, side: &SideId) -> Result<Vec<Event>, RuleError> {
    let c = contact(state)?;
    if side == &c.mover {
        return Err(RuleError::new(
            RuleId::BE_35,
            format!("it is for the {} to intercept or let the ships pass", side_name(state, &super::operations::other_side(state, side))),
        ));
    }
    Ok(vec![
        Event::ShipsLetPass { side: side.clone(), sea: c.sea.clone() },
        Event::NavalContactEnded { sea: c.sea.clone(), voyage_on: Some(c.ships.clone()) },
    ])
}

/// The naval battle under way, or why there is none.
fn battle(state: &State) -> Result<&NavalBattle, RuleError> {
    state.ops.as_ref().and_then(|o| o.naval_battle.as_ref()).ok_or_else(|| RuleError::new(RuleId::BE_36, "there is no naval battle"))
}

/// Whether a naval battle is under way.
pub fn battle_on(state: &State) -> bool {
    state.ops.as_ref().is_some_and(|o| o.naval_battle.is_some())
}

/// Whether ships wait to be intercepted or let pass.
pub fn contact_on(state: &State) -> bool {
    state.ops.as_ref().is_some_and(|o| o.naval_contact.is_some())
}

/// The ships of a squadron still afloat.
fn afloat(state: &State, squadron: &Squadron) -> Vec<String> {
    squadron.ships.iter().filter(|s| state.ship(&squadron.side, s).is_some()).cloned().collect()
}

/// One passage of arms (BE-36): each side's own naval points less the enemy's and a d6 with
/// its admiral's tactical rating and +1 per 3 combat points aboard; losses at once.
fn passage(steps: &mut Steps, dice: &mut Dice) -> Result<(), RuleError> {
    let Some(b) = steps.state.ops.as_ref().and_then(|o| o.naval_battle.clone()) else { return Ok(()) };
    let sea_name = steps.state.setup.place_name(&Location::Sea(b.sea.clone()));
    let fleets: Vec<(SideId, Vec<String>)> = b.squadrons.iter().map(|s| (s.side.clone(), afloat(&steps.state, s))).collect();
    let strength: Vec<u32> = fleets.iter().map(|(side, ships)| naval_points(&steps.state, side, ships)).collect();
    let mut rolls = Vec::new();
    for (i, (side, ships)) in fleets.iter().enumerate() {
        let own = i64::from(strength[i]);
        let enemy = i64::from(strength[1 - i]);
        let difference = i32::try_from(own - enemy).unwrap_or(if own > enemy { i32::MAX } else { i32::MIN });
        let mut modifiers = Vec::new();
        if let Some((admiral, tactical)) = admiral(&steps.state, side, ships).filter(|(_, t)| *t > 0) {
            modifiers.push(Modifier { value: i32::from(tactical), reason: format!("{admiral}'s tactical rating") });
        }
        let troops = embarked_points(&steps.state, side, ships) / EMBARKED_POINTS_PER_NAVAL_PIP;
        if troops > 0 {
            modifiers.push(Modifier {
                value: i32::try_from(troops).unwrap_or(i32::MAX),
                reason: "troops aboard (+1 per 3 combat points)".to_owned(),
            });
        }
        let roll = dice.roll(
            DiceSpec::D6,
            &format!("naval battle in {sea_name}, passage {}: {}", b.passages + 1, side_name(&steps.state, side)),
            Some(RuleId::BE_36),
            modifiers,
        )?;
        let modified = roll.total();
        let inflicted = u32::from(steps.state.setup.tables.naval_combat(difference, modified));
        steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Public }));
        rolls.push(PassageRoll { side: side.clone(), difference, modified, inflicted });
    }
    steps.push(Event::NavalPassage { passage: b.passages + 1, rolls: rolls.clone() });
    for (i, r) in rolls.iter().enumerate() {
        let (enemy, ships) = &fleets[1 - i];
        damage(steps, enemy, ships, r.inflicted, ShipLoss::Combat);
    }
    // A side with no ship left has lost; the battle is over.
    let gone: Vec<bool> = b.squadrons.iter().map(|s| afloat(&steps.state, s).is_empty()).collect();
    if gone.iter().any(|g| *g) {
        let winner = b.squadrons.iter().zip(&gone).find(|(_, g)| !**g).map(|(s, _)| s.side.clone());
        steps.push(Event::NavalBattleEnded { sea: b.sea.clone(), winner });
    }
    Ok(())
}

/// BE-36: the next passage of the naval battle.
pub fn fight_on(state: &State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    battle(state)?;
    let mut steps = Steps::new(state);
    passage(&mut steps, dice)?;
    Ok(steps.events)
}

/// BE-36: after a passage, `side` retires its ships to a sea zone beside the battle or into a
/// port of its own on the battle's sea; the other side has the sea.
pub fn retire(state: &State, side: &SideId, to: &str) -> Result<Vec<Event>, RuleError> {
    let b = battle(state)?;
    let squadron = b
        .squadrons
        .iter()
        .find(|s| &s.side == side)
        .ok_or_else(|| RuleError::new(RuleId::BE_36, format!("the {} have no ships in this battle", side_name(state, side))))?;
    if b.passages == 0 {
        return Err(RuleError::new(RuleId::BE_36, "a naval battle has at least one passage of arms"));
    }
    let place = state.setup.place(to).map_err(|e| RuleError::new(RuleId::BE_36, e.to_string()))?;
    let place_name = state.setup.place_name(&place);
    let ok = match &place {
        Location::Sea(s) => state.setup.map.sea(&b.sea).is_some_and(|x| x.neighbours.contains(s)),
        Location::City(c) => {
            port_zone(state, c).is_some_and(|z| z.coast.contains(&b.sea))
                && state.cities.get(c).and_then(|h| h.holder.as_ref()) == Some(side)
        }
        _ => false,
    };
    if !ok {
        return Err(RuleError::new(
            RuleId::BE_36,
            format!("ships retire to a sea zone beside the battle or to a port of their own on its coast, not {place_name}"),
        ));
    }
    let winner = b.squadrons.iter().find(|s| &s.side != side).map(|s| s.side.clone());
    Ok(vec![
        Event::ShipsRetired { side: side.clone(), ships: afloat(state, squadron), to: place },
        Event::NavalBattleEnded { sea: b.sea.clone(), winner },
    ])
}

/// The acting force's pieces: the leader's and those activated with him.
fn acting_force(state: &State, active: &super::operations::Activation) -> Vec<(String, Location)> {
    active.force().filter_map(|id| state.marker(&active.side, id).map(|p| (id.clone(), p.at.clone()))).collect()
}

/// BE-37, BE-30: the acting force boards `ships` of its side: in its zone's port, or off its
/// coast. Each leader's box goes on the first of the ships with room.
pub fn embark(state: &State, side: &SideId, leader: &str, ships: &[String]) -> Result<Vec<Event>, RuleError> {
    let (ops, active) = super::operations::acting(state, side, leader, RuleId::BE_37)?;
    naval_pending(state, ops)?;
    no_storm(state)?;
    let name = side_name(state, side);
    let chief = super::state::piece_name(&state.setup, leader);
    let (zone, in_city) = match &active.at {
        Location::Zone(z) => (z.clone(), false),
        Location::City(c) => (
            state
                .setup
                .map
                .zone_of_city(c)
                .map(|z| z.id.clone())
                .ok_or_else(|| RuleError::new(RuleId::BE_37, "the city is off the map"))?,
            true,
        ),
        _ => return Err(RuleError::new(RuleId::BE_37, format!("{chief}'s force is at sea already"))),
    };
    let z = state.setup.map.zone(&zone).ok_or_else(|| RuleError::new(RuleId::BE_37, "the zone is off the map"))?;
    let city = Location::City(z.city.id.clone());
    let at = ships_together(state, side, ships, RuleId::BE_37)?;
    let besieged = in_city && super::siege::is_besieged(state, &city);
    let held = state.cities.get(&z.city.id).and_then(|h| h.holder.as_ref()) == Some(side);
    let in_port = at == city && z.city.port;
    let off_coast = matches!(&at, Location::Sea(s) if z.coast.contains(s));
    if besieged && !in_port {
        return Err(RuleError::new(
            RuleId::BE_30,
            format!("{} is besieged: its garrison boards ships in its own port only", state.setup.place_name(&city)),
        ));
    }
    if !in_port && !off_coast {
        return Err(RuleError::new(
            RuleId::BE_37,
            format!("the ships are at {}, not in the port or off the coast of {}", state.setup.place_name(&at), z.name),
        ));
    }
    let port = in_port || (z.city.port && held);
    let ap = cost(state, if port { "embark-port" } else { "embark-coast" });
    // Each leader's box on the first ship with room; decoys anywhere.
    let mut room: BTreeMap<&str, u32> = BTreeMap::new();
    for id in ships {
        let free = match state.ship(side, id).map(|p| &p.kind) {
            Some(PieceKind::Fleet { np, .. }) => np.saturating_mul(4).saturating_sub(cargo_load(state, side, id)),
            _ => 0,
        };
        room.insert(id.as_str(), free);
    }
    let mut boarded = Vec::new();
    for (id, _) in acting_force(state, active) {
        let units = state.marker(side, &id).map(|p| p.kind.units().to_vec()).unwrap_or_default();
        let need = load(&units);
        let decoy = super::state::is_decoy(&id);
        let ship = ships.iter().find(|s| {
            decoy
                || room
                    .get(s.as_str())
                    .is_some_and(|r| *r >= need && (need > 0 || real(state, side, std::slice::from_ref(s)).next().is_some()))
        });
        let ship = ship.ok_or_else(|| {
            RuleError::new(
                RuleId::BE_37,
                format!(
                    "no ship named has room for {}'s force: a naval point carries 2 infantry points or 1 cavalry point",
                    super::state::piece_name(&state.setup, &id)
                ),
            )
        })?;
        if let Some(r) = room.get_mut(ship.as_str()) {
            *r = r.saturating_sub(need);
        }
        boarded.push((id, ship.clone()));
    }
    let left = ops.left(side);
    if ap > left {
        return Err(RuleError::new(
            RuleId::BE_37,
            format!("embarking costs {} and the {name} have {left} left", crate::core::words::count(ap, "action point")),
        ));
    }
    Ok(vec![Event::Embarked { side: side.clone(), boarded, from: active.at.clone(), ships_at: at, ap, left: left - ap }])
}

/// BE-37: the acting force, aboard its ships, lands in a zone on the ships' sea, or in a port
/// city its side holds, or from a port into its city or zone.
pub fn land(state: &State, side: &SideId, leader: &str, at: &str) -> Result<Vec<Event>, RuleError> {
    let (ops, active) = super::operations::acting(state, side, leader, RuleId::BE_37)?;
    naval_pending(state, ops)?;
    no_storm(state)?;
    let name = side_name(state, side);
    let chief = super::state::piece_name(&state.setup, leader);
    let force = acting_force(state, active);
    let Some(Location::Aboard(first)) = force.first().map(|(_, l)| l.clone()) else {
        return Err(RuleError::new(RuleId::BE_37, format!("{chief}'s force is not aboard ships")));
    };
    let ships_at = whereabouts(state, &Location::Aboard(first));
    for (id, l) in &force {
        if !matches!(l, Location::Aboard(_)) || whereabouts(state, l) != ships_at {
            return Err(RuleError::new(
                RuleId::BE_37,
                format!("{} is not aboard with {chief}: the force lands together", super::state::piece_name(&state.setup, id)),
            ));
        }
    }
    let to = state.setup.place(at).map_err(|e| RuleError::new(RuleId::BE_37, e.to_string()))?;
    let to_name = state.setup.place_name(&to);
    let zone = super::operations::zone_of(state, &to)
        .and_then(|z| state.setup.map.zone(&z))
        .ok_or_else(|| RuleError::new(RuleId::BE_37, format!("a force lands on land, not at {to_name}")))?;
    let city = Location::City(zone.city.id.clone());
    let held = state.cities.get(&zone.city.id).and_then(|h| h.holder.as_ref()) == Some(side);
    let in_port = ships_at == city;
    let off_coast = matches!(&ships_at, Location::Sea(s) if zone.coast.contains(s));
    if !in_port && !off_coast {
        return Err(RuleError::new(
            RuleId::BE_37,
            format!("the ships are at {}, not in the port or off the coast of {}", state.setup.place_name(&ships_at), zone.name),
        ));
    }
    if to == city && !held {
        return Err(RuleError::new(RuleId::BE_37, format!("{to_name} is not held by the {name}: land in the open zone")));
    }
    if in_port && super::siege::is_besieged(state, &city) && to != city {
        return Err(RuleError::new(RuleId::BE_30, format!("{to_name} is under siege: troops landing in the port stay inside the walls")));
    }
    let port = in_port || (zone.city.port && held);
    let ap = cost(state, if port { "embark-port" } else { "embark-coast" });
    let left = ops.left(side);
    if ap > left {
        return Err(RuleError::new(
            RuleId::BE_37,
            format!("landing costs {} and the {name} have {left} left", crate::core::words::count(ap, "action point")),
        ));
    }
    let mut events = vec![Event::Landed {
        side: side.clone(),
        leaders: force.iter().map(|(id, _)| id.clone()).collect(),
        from: ships_at.clone(),
        at: to.clone(),
        ap,
        left: left - ap,
    }];
    // A landing in the open enters the zone as a march does (BE-13, BE-46).
    if let Location::Zone(z) = &to {
        if super::interception::enemy_in(state, side, z) {
            let mut mover = active.clone();
            mover.at = to.clone();
            let came_from = Some(ships_at.clone());
            events.push(Event::ContactMade { contact: super::interception::Contact::new(state, z.clone(), mover, came_from) });
        } else if super::interception::takes_zone(state, side, z) {
            events.push(Event::ZoneControlled { zone: z.clone(), side: side.clone() });
        }
    }
    Ok(events)
}

/// BE-39: the ships among `ships` that may support an assault on `city` by `side`, and their
/// naval points, or why they may not.
pub(crate) fn support(state: &State, side: &SideId, city: &CityId, ships: &[String]) -> Result<u32, RuleError> {
    let city_name = state.setup.place_name(&Location::City(city.clone()));
    no_storm(state)?;
    let zone = port_zone(state, city)
        .ok_or_else(|| RuleError::new(RuleId::BE_39, format!("{city_name} is not a port: ships cannot support the assault")))?;
    let at = ships_together(state, side, ships, RuleId::BE_39)?;
    if !matches!(&at, Location::Sea(s) if zone.coast.contains(s)) {
        return Err(RuleError::new(RuleId::BE_39, format!("the supporting ships must be at sea off {city_name}")));
    }
    if let Some(decoy) = ships.iter().find(|s| matches!(state.ship(side, s).map(|p| &p.kind), Some(PieceKind::FleetDecoy { .. }))) {
        return Err(RuleError::new(RuleId::BE_42, format!("{} is a decoy: it carries out no action", super::setup::ship_name(decoy))));
    }
    Ok(naval_points(state, side, ships))
}

impl State {
    /// Applies the events of ships (see [`State::apply`]).
    pub(crate) fn apply_naval(&mut self, event: &Event) {
        match event {
            Event::ShipsSailed { side, ships, path, left, .. } => {
                let Some(to) = path.last() else { return };
                let seas = u32::try_from(path.iter().filter(|l| l.is_sea()).count()).unwrap_or(u32::MAX);
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    if p.kind.ship_id().is_some_and(|id| ships.iter().any(|s| s == id)) {
                        p.at = to.clone();
                    }
                }
                if let Some(ops) = &mut self.ops {
                    for s in ships {
                        let n = ops.sailed.entry(s.clone()).or_default();
                        *n = n.saturating_add(seas);
                    }
                    if let Some(a) = ops.ap.get_mut(side) {
                        a.left = *left;
                    }
                    ops.acted = true;
                    ops.voyage_on = None;
                }
            }
            Event::ShipsDamaged { side, losses, sunk, cause } => {
                for (id, lost) in losses {
                    for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                        if let PieceKind::Fleet { np, id: i } = &mut p.kind
                            && i == id
                        {
                            *np = np.saturating_sub(*lost);
                        }
                    }
                }
                // Everything aboard a ship that sinks goes down with it.
                let mut drowned = 0u32;
                let mut decoys = 0u32;
                self.pieces.retain(|p| {
                    let gone = match (&p.kind, &p.at) {
                        (PieceKind::Fleet { id, .. }, _) => sunk.contains(id),
                        (_, Location::Aboard(ship)) => sunk.contains(ship),
                        _ => false,
                    };
                    if gone && &p.side == side {
                        drowned = drowned.saturating_add(p.kind.units().iter().map(|u| u32::from(u.value)).sum::<u32>());
                        if matches!(p.kind, PieceKind::LeaderDecoy { .. }) {
                            decoys += 1;
                        }
                    }
                    !gone
                });
                if *cause == ShipLoss::Combat && drowned > 0 {
                    let e = self.lost_in_battle.entry(side.clone()).or_default();
                    *e = e.saturating_add(drowned);
                }
                if decoys > 0 {
                    let e = self.decoys_out.entry(side.clone()).or_default();
                    *e = e.saturating_add(decoys);
                }
            }
            Event::NavalContactMade { contact } => {
                if let Some(ops) = &mut self.ops {
                    ops.naval_contact = Some(contact.clone());
                }
            }
            Event::NavalInterceptionTried { side, left, .. } => {
                if let Some(a) = self.ops.as_mut().and_then(|o| o.ap.get_mut(side)) {
                    a.left = *left;
                }
            }
            Event::NavalContactEnded { voyage_on, .. } => {
                if let Some(ops) = &mut self.ops {
                    ops.naval_contact = None;
                    ops.voyage_on = voyage_on.clone().map(|mut v| {
                        v.sort();
                        v
                    });
                }
            }
            Event::FleetDecoyRemoved { side, id, .. } => {
                // Land decoys pretending to sail aboard it go out of play with it.
                let aboard = Location::Aboard(id.clone());
                let decoys = u32::try_from(self.pieces.iter().filter(|p| &p.side == side && p.at == aboard).count()).unwrap_or(0);
                if decoys > 0 {
                    let e = self.decoys_out.entry(side.clone()).or_default();
                    *e = e.saturating_add(decoys);
                }
                self.pieces
                    .retain(|p| !(&p.side == side && (p.at == aboard || matches!(&p.kind, PieceKind::FleetDecoy { id: d } if d == id))));
                let e = self.fleet_decoys_out.entry(side.clone()).or_default();
                *e = e.saturating_add(1);
            }
            Event::FleetDecoyReturned { side, at } => self.return_decoy(side, at, true),
            Event::NavalBattleJoined { battle } => {
                if let Some(ops) = &mut self.ops {
                    ops.naval_contact = None;
                    ops.naval_battle = Some(battle.clone());
                }
            }
            Event::NavalPassage { passage, .. } => {
                if let Some(b) = self.ops.as_mut().and_then(|o| o.naval_battle.as_mut()) {
                    b.passages = *passage;
                }
            }
            Event::ShipsRetired { side, ships, to } => {
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    if p.kind.ship_id().is_some_and(|id| ships.iter().any(|s| s == id)) {
                        p.at = to.clone();
                    }
                }
            }
            Event::NavalBattleEnded { .. } => {
                if let Some(ops) = &mut self.ops {
                    ops.naval_battle = None;
                    ops.voyage_on = None;
                }
            }
            Event::Embarked { side, boarded, from, left, .. } => {
                for (leader, ship) in boarded {
                    if let Some(p) = self.pieces.iter_mut().find(|p| {
                        &p.side == side
                            && match &p.kind {
                                PieceKind::Leader { leader: l, .. } => l == leader,
                                PieceKind::LeaderDecoy { id } => id == leader,
                                _ => false,
                            }
                    }) {
                        p.at = Location::Aboard(ship.clone());
                    }
                }
                // BE-30: a besieged garrison sailing away leaves its militia, whole again.
                if let Location::City(c) = from
                    && self.sieges.contains_key(c)
                {
                    let full = super::siege::full_militia(self, c);
                    if let Some(h) = self.cities.get_mut(c) {
                        h.militia = full;
                    }
                }
                if let Some(ops) = &mut self.ops {
                    if let Some(a) = ops.ap.get_mut(side) {
                        a.left = *left;
                    }
                    if let (Some(a), Some((_, ship))) = (&mut ops.active, boarded.first()) {
                        a.at = Location::Aboard(ship.clone());
                    }
                }
            }
            Event::Landed { side, leaders, at, left, .. } => {
                // Units left aboard without a leader land with him (BE-37).
                let ships: Vec<Location> = self
                    .pieces
                    .iter()
                    .filter(|p| &p.side == side)
                    .filter(|p| match &p.kind {
                        PieceKind::Leader { leader, .. } => leaders.contains(leader),
                        _ => false,
                    })
                    .filter(|p| matches!(p.at, Location::Aboard(_)))
                    .map(|p| p.at.clone())
                    .collect();
                let mut loose = Vec::new();
                self.pieces.retain(|p| {
                    let stranded = &p.side == side && ships.contains(&p.at) && matches!(p.kind, PieceKind::Group { .. });
                    if stranded {
                        loose.extend(p.kind.units().iter().copied());
                    }
                    !stranded
                });
                if !loose.is_empty() {
                    self.add_loose(side, at, &loose);
                }
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    let id = match &p.kind {
                        PieceKind::Leader { leader, .. } => leader,
                        PieceKind::LeaderDecoy { id } => id,
                        _ => continue,
                    };
                    if leaders.contains(id) {
                        p.at = at.clone();
                    }
                }
                if let Some(ops) = &mut self.ops {
                    if let Some(a) = ops.ap.get_mut(side) {
                        a.left = *left;
                    }
                    if let Some(a) = &mut ops.active {
                        a.at = at.clone();
                    }
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
    use crate::belisarius::pieces::{Unit, UnitKind, parse_units};
    use crate::belisarius::state::Piece;

    fn byz() -> SideId {
        SideId::new("byzantines")
    }

    fn unit(kind: UnitKind, text: &str) -> Unit {
        parse_units(kind, text).unwrap()[0]
    }

    fn ids(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| (*s).to_owned()).collect()
    }

    /// The First Reconquest of Italy as it starts, its pieces cleared, with three Byzantine
    /// ships in the first sea zone — 1 (3 NP) carrying Belisarius with 2B and Mundus with
    /// nothing, 2 (4 NP) empty, 3 (2 NP) carrying 2C of infantry without a leader — and a
    /// fleet decoy; and that sea zone.
    fn at_sea() -> (State, SeaId) {
        let mut state = State::new("Italy", &World::embedded().setup("italy-535").unwrap(), 1);
        state.pieces.clear();
        let sea = state.setup.map.seas[0].id.clone();
        let mut put = |at: Location, kind: PieceKind| state.pieces.push(Piece { side: byz(), at, kind });
        for (id, np) in [("fleet-byzantines-1", 3), ("fleet-byzantines-2", 4), ("fleet-byzantines-3", 2)] {
            put(Location::Sea(sea.clone()), PieceKind::Fleet { np, id: id.to_owned() });
        }
        put(Location::Sea(sea.clone()), PieceKind::FleetDecoy { id: "fleet-byzantines-4".to_owned() });
        let aboard = |ship: &str| Location::Aboard(ship.to_owned());
        put(
            aboard("fleet-byzantines-1"),
            PieceKind::Leader { leader: "belisarius".to_owned(), units: vec![unit(UnitKind::HeavyCavalry, "2B")] },
        );
        put(aboard("fleet-byzantines-1"), PieceKind::Leader { leader: "mundus".to_owned(), units: Vec::new() });
        put(aboard("fleet-byzantines-3"), PieceKind::Group { units: vec![unit(UnitKind::Infantry, "2C")] });
        (state, sea)
    }

    /// BE-37: 1 NP carries 2 infantry points or 1 cavalry point; a skirmisher's point counts
    /// half. The load is in quarters of a naval point.
    #[test]
    fn be_37_a_naval_point_carries_two_infantry_points_or_one_cavalry_point() {
        assert_eq!(load(&[unit(UnitKind::HeavyCavalry, "2B")]), 2 * 4, "2 cavalry points: 2 NP");
        assert_eq!(load(&[unit(UnitKind::Infantry, "2C")]), 4, "2 infantry points: 1 NP");
        let skirmishers = Unit { skirmish: true, ..unit(UnitKind::Infantry, "2D") };
        assert_eq!(load(&[skirmishers]), 2, "2 skirmisher points: half an NP");
        assert_eq!(load(&[]), 0);
    }

    /// BE-36, BE-42: a fleet's strength is its ships' naval points; a decoy has none.
    #[test]
    fn be_36_naval_points_count_the_ships_and_not_the_decoys() {
        let (state, _) = at_sea();
        assert_eq!(naval_points(&state, &byz(), &ids(&["fleet-byzantines-1", "fleet-byzantines-2", "fleet-byzantines-4"])), 7);
        assert_eq!(naval_points(&state, &byz(), &ids(&["fleet-byzantines-4"])), 0);
        assert_eq!(naval_points(&state, &SideId::new("ostrogoths"), &ids(&["fleet-byzantines-1"])), 0, "not the enemy's ships");
    }

    /// BE-34, BE-36: ships carrying nobody take naval losses first, then those carrying the
    /// fewest points.
    #[test]
    fn be_34_ships_carrying_nobody_take_losses_first_then_the_lightest_laden() {
        let (state, _) = at_sea();
        let order =
            loss_order(&state, &byz(), &ids(&["fleet-byzantines-1", "fleet-byzantines-2", "fleet-byzantines-3", "fleet-byzantines-4"]));
        assert_eq!(
            order,
            vec![("fleet-byzantines-2".to_owned(), 4), ("fleet-byzantines-3".to_owned(), 2), ("fleet-byzantines-1".to_owned(), 3)]
        );
    }

    /// BE-36: the best tactical rating aboard (Belisarius's 3 over Mundus's 2) and +1 per 3
    /// combat points embarked.
    #[test]
    fn be_36_the_admiral_is_the_best_tactical_rating_aboard_and_troops_count_by_threes() {
        let (state, _) = at_sea();
        let all = ids(&["fleet-byzantines-1", "fleet-byzantines-2", "fleet-byzantines-3"]);
        assert_eq!(admiral(&state, &byz(), &all), Some(("Belisarius".to_owned(), 3)));
        assert_eq!(admiral(&state, &byz(), &ids(&["fleet-byzantines-3"])), None, "no leader aboard");
        assert_eq!(embarked_points(&state, &byz(), &all), 4);
        assert_eq!(EMBARKED_POINTS_PER_NAVAL_PIP, 3);
    }

    /// BE-37, BE-40: a force aboard is where its ship is; ships in a port are not at sea.
    #[test]
    fn be_40_ships_in_a_port_are_not_at_sea_and_a_force_aboard_is_where_its_ship_is() {
        let (mut state, sea) = at_sea();
        let goths = SideId::new("ostrogoths");
        assert_eq!(whereabouts(&state, &Location::Aboard("fleet-byzantines-1".to_owned())), Location::Sea(sea.clone()));
        assert!(enemy_at_sea(&state, &goths, &sea));
        assert!(!enemy_at_sea(&state, &byz(), &sea), "one's own ships are no enemy");
        let port = state.setup.map.zones.iter().find(|z| z.city.port).unwrap().city.id.clone();
        for p in state.pieces.iter_mut().filter(|p| p.kind.is_naval()) {
            p.at = Location::City(port.clone());
        }
        assert!(!enemy_at_sea(&state, &goths, &sea), "in port, in sanctuary");
    }

    /// BE-33, BE-35: up to six sea zones a turn; a fleet moves for 2 AP, a ship alone for 1;
    /// interception at sea succeeds on 7 or more.
    #[test]
    fn be_33_ships_sail_six_sea_zones_a_fleet_for_2_ap_and_a_ship_for_1() {
        let tables = &at_sea().0.setup.tables;
        assert_eq!(MAX_SEA_ZONES, 6);
        assert_eq!((tables.cost("fleet-move"), tables.cost("naval-unit-move")), (Some(2), Some(1)));
        assert!(!super::super::tables::naval_interception_succeeds(6));
        assert!(super::super::tables::naval_interception_succeeds(7));
    }
}
