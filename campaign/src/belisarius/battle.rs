//! A land battle fought in the program (BE-17 … BE-23, BE-09): passages of arms of missile
//! fire then melee, both sides rolling at once; losses shared out by their owners; morale
//! checks; break-off and pursuit; ambush; retreat; leaders killed and succession.
//!
//! The battle is a small state machine kept in the operations ([`Battle`]): each order moves
//! it one step, and the rolls that follow without anyone's choice are made in the same order.
//! Inside a battle both forces are face up to both sides (BE-53); after it their leaders are
//! face down again.
//!
//! Readings of the rules this module makes:
//! - Fire and melee results are read by the enemy of the side rolling, both at once; losses
//!   are shared out by both owners before anyone checks morale (BE-17, BE-19).
//! - A leader's tactical rating is added to the 2d6 of his units' morale checks (BE-20,
//!   BE-21: the commander's rating "for morale checks").
//! - A side all of whose units are disordered still stands: it breaks off, or the sides
//!   agree to part.
//! - A leader dies when every unit of his own box is gone by the battle's end (BE-09, BE-21);
//!   a leader in a combined force whose box was empty from the start survives with the others.
//! - After a passage, breaking off is a side's order; fighting on is the referee's, given
//!   when neither side breaks off (the app asks both).

use crate::core::log::DiceRolled;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::fight::{self, Fighter, Owed, Stage};
use super::map::ZoneId;
use super::state::{Location, PieceKind, State};
use super::tables::Interception;
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::core::words::possessive;
use crate::ids::SideId;

/// Two dice.
pub const TWO_D6: DiceSpec = DiceSpec { count: 2, sides: 6 };

/// One side's force in a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleForce {
    pub side: SideId,
    /// Its leaders, the commander first (BE-21).
    pub leaders: Vec<String>,
    /// Came out of the zone's city to intercept (BE-16).
    pub from_city: bool,
    /// Combat points at the start.
    pub start: u32,
    /// Units in the disordered box, by (leader, index in his box) (BE-20).
    pub disordered: BTreeSet<(String, u32)>,
    /// Leaders whose box held units at the start: they die if it empties (BE-09).
    pub had_units: BTreeSet<String>,
}

/// Where a battle stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "step")]
pub enum Step {
    /// Both sides roll the stage (`fight`).
    Roll,
    /// Losses to share out after a roll; morale is checked once every side has taken its own.
    Losses { owed: BTreeMap<SideId, Owed>, taken: BTreeSet<SideId> },
    /// A passage is over: a side breaks off, the sides agree to part, or they fight on.
    Decide,
    /// The side breaking off takes the pursuit's losses.
    Pursuit { side: SideId, owed: Owed },
    /// The beaten side picks where to retreat.
    Retreat { side: SideId },
}

/// A battle under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub zone: ZoneId,
    /// In line or an ambush (BE-14).
    pub kind: Interception,
    /// The side that laid the ambush.
    pub ambusher: Option<SideId>,
    /// The side whose march brought the battle about.
    pub mover: SideId,
    /// Where the mover came from (see [`super::interception::Contact::came_from`]).
    pub came_from: Option<Location>,
    pub mountains: bool,
    /// The interceptor's force first, then the target's.
    pub forces: Vec<BattleForce>,
    pub passage: u32,
    pub stage: Stage,
    pub step: Step,
    /// The side that broke off, if one did (BE-22).
    pub broke_off: Option<SideId>,
    /// Sent to the tabletop: fought there, and only its result comes back.
    #[serde(default)]
    pub at_table: bool,
    /// A relief of this city attacking its besiegers (BE-29).
    #[serde(default)]
    pub relief: Option<super::map::CityId>,
}

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum How {
    /// The loser broke off and retreated after the pursuit.
    BrokeOff,
    /// The loser was ambushed, pursued and retreated.
    Ambushed,
    /// A force was destroyed (or both).
    Destroyed,
    /// Both sides agreed to part; nobody pursued.
    Agreed,
}

/// The end of a battle, for the log and the turn's record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub zone: ZoneId,
    pub winner: Option<SideId>,
    pub loser: Option<SideId>,
    pub how: How,
    /// Combat points each side lost in the battle.
    pub lost: Vec<(SideId, u32)>,
}

impl Battle {
    pub fn force(&self, side: &SideId) -> Option<&BattleForce> {
        self.forces.iter().find(|f| &f.side == side)
    }

    pub fn force_mut(&mut self, side: &SideId) -> Option<&mut BattleForce> {
        self.forces.iter_mut().find(|f| &f.side == side)
    }

    pub fn enemy_of(&self, side: &SideId) -> Option<&SideId> {
        self.forces.iter().map(|f| &f.side).find(|s| *s != side)
    }

    /// The passages an ambush lasts before the ambusher pursues (BE-23).
    pub const AMBUSH_PASSAGES: u32 = 2;
}

/// A unit of a side in a battle, numbered from 1 in this order: the commander's box first,
/// then each other leader's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleUnit {
    pub leader: String,
    pub index: u32,
    pub fighter: Fighter,
}

/// A side's units in the battle, in their numbering for orders.
pub fn roster(state: &State, force: &BattleForce) -> Vec<BattleUnit> {
    let mut out = Vec::new();
    for id in &force.leaders {
        for p in state.pieces_of(&force.side) {
            if let PieceKind::Leader { leader, units } = &p.kind
                && leader == id
            {
                for (i, u) in units.iter().enumerate() {
                    let index = u32::try_from(i).unwrap_or(u32::MAX);
                    let disordered = force.disordered.contains(&(leader.clone(), index));
                    out.push(BattleUnit { leader: leader.clone(), index, fighter: Fighter { unit: *u, disordered } });
                }
            }
        }
    }
    out
}

fn fighters(roster: &[BattleUnit]) -> Vec<Fighter> {
    roster.iter().map(|b| b.fighter).collect()
}

/// The commander's tactical rating (BE-21).
pub fn tactical(state: &State, force: &BattleForce) -> u8 {
    // A leader whose units are all gone has no effect (BE-21): the first, by rank, who still
    // has some commands.
    let has_units = |id: &String| {
        state
            .pieces_of(&force.side)
            .any(|p| matches!(&p.kind, PieceKind::Leader { leader, units } if leader == id && units.iter().any(|u| u.value > 0)))
    };
    force.leaders.iter().find(|l| has_units(l)).and_then(|l| state.setup.leader(l)).map_or(0, |l| l.tactical)
}

use super::operations::side_name;

fn leader_name(state: &State, id: &str) -> String {
    super::state::piece_name(&state.setup, id)
}

/// A copy of the campaign that follows the events an order makes, so that one order can
/// chain the steps nobody chooses.
pub(crate) struct Steps {
    pub state: State,
    pub events: Vec<Event>,
}

impl Steps {
    pub fn new(state: &State) -> Steps {
        Steps { state: state.clone(), events: Vec::new() }
    }

    pub fn push(&mut self, event: Event) {
        // A second start is the only failure, and no battle event is one.
        let _ = self.state.apply(&event);
        self.events.push(event);
    }

    pub fn battle(&self) -> Option<&Battle> {
        self.state.ops.as_ref().and_then(|o| o.battle.as_ref())
    }
}

/// The battle under way, or why a battle order cannot be given now.
fn battle(state: &State, rule: RuleId) -> Result<&Battle, RuleError> {
    state.ops.as_ref().and_then(|o| o.battle.as_ref()).ok_or_else(|| RuleError::new(rule, "there is no battle under way"))
}

/// The battle under way, fought here, or why an order of its fight cannot be given.
fn here(state: &State, rule: RuleId) -> Result<&Battle, RuleError> {
    let b = battle(state, rule)?;
    if b.at_table {
        return Err(RuleError::new(rule, "this battle is fought on the table: record its result (`record_battle`)"));
    }
    Ok(b)
}

/// The die modifiers of `force` in `battle`, as the roll records them.
fn modifiers(state: &State, battle: &Battle, force: &BattleForce, units: &[Fighter]) -> Vec<Modifier> {
    let ambushed = battle.ambusher.as_ref().is_some_and(|a| a != &force.side);
    let commander = force.leaders.first().map(|l| leader_name(state, l)).unwrap_or_default();
    fight::die_modifiers(tactical(state, force), units, battle.mountains, ambushed)
        .into_iter()
        .map(|(value, why)| Modifier {
            value,
            reason: if why == "tactical rating" { format!("{commander}'s tactical rating") } else { why.to_owned() },
        })
        .collect()
}

/// BE-17, BE-18, BE-19: the referee has both sides roll the next stage, or, after a
/// passage, fight on into the next.
pub fn fight_on(state: &State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let b = here(state, RuleId::BE_17)?;
    if let Some(due) = state.ops.as_ref().and_then(|o| o.attrition.as_ref()) {
        return Err(RuleError::new(
            RuleId::BE_12,
            format!(
                "{} first take the {} points lost to attrition: attrition comes before any combat",
                side_name(state, &due.side),
                due.points
            ),
        ));
    }
    let mut steps = Steps::new(state);
    match &b.step {
        Step::Roll => {}
        Step::Decide => steps.push(Event::PassageBegan { passage: b.passage.saturating_add(1) }),
        Step::Losses { owed, taken } => {
            let waiting: Vec<String> = owed.keys().filter(|s| !taken.contains(*s)).map(|s| side_name(state, s)).collect();
            return Err(RuleError::new(RuleId::BE_19, format!("{} first share out their losses", waiting.join(" and "))));
        }
        Step::Pursuit { side, .. } => {
            return Err(RuleError::new(RuleId::BE_22, format!("{} first take the pursuit's losses", side_name(state, side))));
        }
        Step::Retreat { side } => {
            return Err(RuleError::new(RuleId::BE_22, format!("{} first retreat", side_name(state, side))));
        }
    }
    roll_stage(&mut steps, dice)?;
    Ok(steps.events)
}

/// Both sides roll the stage at once; then, if nobody owes anything, the battle moves on.
fn roll_stage(steps: &mut Steps, dice: &mut Dice) -> Result<(), RuleError> {
    let Some(b) = steps.battle().cloned() else { return Ok(()) };
    let state = steps.state.clone();
    let mut owed = Vec::new();
    for force in &b.forces {
        let Some(enemy) = b.enemy_of(&force.side).and_then(|e| b.force(e)) else { continue };
        let mine = fighters(&roster(&state, force));
        let theirs = fighters(&roster(&state, enemy));
        let factor = fight::combat_factor(&mine, b.stage);
        if factor == 0 {
            // Nobody to shoot or strike: no roll (BE-18).
            owed.push((enemy.side.clone(), Owed::default()));
            continue;
        }
        let shift = if b.ambusher.as_ref() == Some(&force.side) { 2 } else { 0 };
        let ambush = if shift > 0 { ", two columns right for the ambush" } else { "" };
        let purpose = format!(
            "{} {} at {} (factor {factor}{ambush})",
            possessive(&side_name(&state, &force.side)),
            b.stage.label(),
            zone_name(&state, &b.zone)
        );
        let roll = dice.roll(DiceSpec::D6, &purpose, Some(RuleId::BE_18), modifiers(&state, &b, force, &mine))?;
        let result = state.setup.tables.combat(factor, roll.total(), shift);
        steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(force.side.clone()), visibility: Visibility::Public }));
        owed.push((enemy.side.clone(), fight::owed(&theirs, result)));
    }
    steps.push(Event::CombatRolled { stage: b.stage, owed });
    after_losses(steps, dice)
}

fn zone_name(state: &State, zone: &ZoneId) -> String {
    state.setup.place_name(&Location::Zone(zone.clone()))
}

/// BE-19: a side shares out what it owes: `losses` names units by their number in the
/// battle (see [`roster`]) and the points each loses.
pub fn take_losses(state: &State, side: &SideId, losses: &[(u32, u8)], dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let b = here(state, RuleId::BE_19)?;
    let name = side_name(state, side);
    let owed = match &b.step {
        Step::Losses { owed, taken } => match owed.get(side) {
            Some(_) if taken.contains(side) => {
                return Err(RuleError::new(RuleId::BE_19, format!("{name} have taken their losses already")));
            }
            Some(o) if o.points > 0 => *o,
            _ => return Err(RuleError::new(RuleId::BE_19, format!("{name} owe no losses now"))),
        },
        Step::Pursuit { side: s, owed } if s == side => *owed,
        _ => return Err(RuleError::new(RuleId::BE_19, format!("{name} owe no losses now"))),
    };
    let force = b.force(side).ok_or_else(|| RuleError::new(RuleId::BE_19, format!("{name} have no force in the battle")))?;
    let units = roster(state, force);
    let share = by_index(losses, units.len())?;
    let rule = if owed.pursuit { RuleId::BE_22 } else { RuleId::BE_19 };
    let share = fight::check_share(&fighters(&units), &owed, &share).map_err(|e| RuleError::new(rule, e))?;
    let losses = share.iter().filter_map(|&(i, p)| units.get(i).map(|u| (u.leader.clone(), u.index, p))).collect();
    let mut steps = Steps::new(state);
    steps.push(Event::BattleLossesTaken { side: side.clone(), losses });
    after_losses(&mut steps, dice)?;
    Ok(steps.events)
}

/// A share of a battle's losses by unit number (from 1), as indices into a force of `units`
/// units (BE-19).
pub(crate) fn by_index(losses: &[(u32, u8)], units: usize) -> Result<Vec<(usize, u8)>, RuleError> {
    losses
        .iter()
        .map(|&(n, p)| {
            let i =
                usize::try_from(n).ok().and_then(|n| n.checked_sub(1)).filter(|&i| i < units).ok_or_else(|| {
                    RuleError::new(RuleId::BE_19, format!("the force has no unit {n}; its units are numbered 1 to {units}"))
                })?;
            Ok((i, p))
        })
        .collect()
}

/// What follows once a roll's losses are all taken: morale checks, then the next stage,
/// the passage's end, the ambusher's pursuit, or the battle's end.
fn after_losses(steps: &mut Steps, dice: &mut Dice) -> Result<(), RuleError> {
    let Some(b) = steps.battle().cloned() else { return Ok(()) };
    match &b.step {
        Step::Losses { owed, taken } => {
            if owed.iter().any(|(s, o)| o.points > 0 && !taken.contains(s)) {
                return Ok(());
            }
            // BE-20: every unit still fighting of a side told to, on 2d6.
            for (side, o) in owed {
                let Some(check) = o.check else { continue };
                morale(steps, dice, side, check)?;
            }
            steps.push(Event::StageEnded { stage: b.stage });
        }
        Step::Pursuit { .. } | Step::Retreat { .. } => {
            end_if_destroyed(steps);
            return Ok(());
        }
        _ => return Ok(()),
    }
    if end_if_destroyed(steps) {
        return Ok(());
    }
    let Some(b) = steps.battle().cloned() else { return Ok(()) };
    match (b.stage, &b.step) {
        // The melee follows the fire at once.
        (Stage::Melee, Step::Roll) => roll_stage(steps, dice),
        // An ambush: a second passage, then the ambusher pursues (BE-23).
        (_, Step::Decide) if b.kind == Interception::Ambush => {
            if b.passage < Battle::AMBUSH_PASSAGES {
                steps.push(Event::PassageBegan { passage: b.passage + 1 });
                roll_stage(steps, dice)
            } else {
                let ambushed = b.ambusher.as_ref().and_then(|a| b.enemy_of(a)).cloned();
                match ambushed {
                    Some(side) => pursue(steps, dice, &side),
                    None => Ok(()),
                }
            }
        }
        _ => Ok(()),
    }
}

/// BE-20: the morale checks of `side`'s units still fighting, at −`check`.
fn morale(steps: &mut Steps, dice: &mut Dice, side: &SideId, check: u8) -> Result<(), RuleError> {
    let Some(b) = steps.battle().cloned() else { return Ok(()) };
    let Some(force) = b.force(side) else { return Ok(()) };
    let state = steps.state.clone();
    let tactical = tactical(&state, force);
    let ambush = match &b.ambusher {
        Some(a) if a == side => 1,
        Some(_) => -1,
        None => 0,
    };
    let mut failed = Vec::new();
    let fighting: Vec<BattleUnit> = roster(&state, force).into_iter().filter(|u| u.fighter.fighting()).collect();
    if fighting.is_empty() {
        return Ok(());
    }
    for u in &fighting {
        let mut mods = Vec::new();
        if tactical > 0 {
            mods.push(Modifier { value: i32::from(tactical), reason: "tactical rating".to_owned() });
        }
        if ambush != 0 {
            mods.push(Modifier { value: ambush, reason: if ambush > 0 { "ambusher" } else { "ambushed" }.to_owned() });
        }
        if check > 0 {
            mods.push(Modifier { value: -i32::from(check), reason: format!("combat result T{check}") });
        }
        let purpose = format!("morale of {} ({} of {})", u.fighter.unit, u.fighter.unit.kind.label(), leader_name(&state, &u.leader));
        let roll = dice.roll(TWO_D6, &purpose, Some(RuleId::BE_20), mods)?;
        let morale = match u.fighter.unit.morale {
            super::pieces::Morale::A => 'A',
            super::pieces::Morale::B => 'B',
            super::pieces::Morale::C => 'C',
            super::pieces::Morale::D => 'D',
        };
        // The modifiers are in the roll's total already.
        let passed = state.setup.tables.morale_passes(morale, roll.total(), 0, 0).unwrap_or(false);
        steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Public }));
        if !passed {
            failed.push((u.leader.clone(), u.index));
        }
    }
    steps.push(Event::MoraleChecked { side: side.clone(), disordered: failed });
    Ok(())
}

/// Ends the battle if a force is destroyed; whether it did.
fn end_if_destroyed(steps: &mut Steps) -> bool {
    let Some(b) = steps.battle().cloned() else { return false };
    let gone: Vec<SideId> =
        b.forces.iter().filter(|f| fight::destroyed(&fighters(&roster(&steps.state, f)))).map(|f| f.side.clone()).collect();
    if gone.is_empty() {
        return false;
    }
    let winner = if gone.len() == 1 { b.enemy_of(&gone[0]).cloned() } else { None };
    let loser = if gone.len() == 1 { Some(gone[0].clone()) } else { None };
    finish(steps, winner, loser, How::Destroyed);
    restore_contact(steps, &b);
    true
}

/// BE-22, BE-23: the pursuer's cavalry against every unit of `side`, which then retreats.
fn pursue(steps: &mut Steps, dice: &mut Dice, side: &SideId) -> Result<(), RuleError> {
    let Some(b) = steps.battle().cloned() else { return Ok(()) };
    let state = steps.state.clone();
    let (Some(retreating), Some(pursuer)) = (b.force(side), b.enemy_of(side).and_then(|e| b.force(e))) else { return Ok(()) };
    let chasers = fighters(&roster(&state, pursuer));
    let factor = fight::pursuit_factor(&chasers);
    let owed = if factor == 0 {
        fight::owed_in_pursuit(&fighters(&roster(&state, retreating)), 0)
    } else {
        let shift = if b.ambusher.as_ref() == Some(&pursuer.side) { 2 } else { 0 };
        let ambush = if shift > 0 { ", two columns right for the ambush" } else { "" };
        let purpose = format!(
            "{} pursuit at {} (cavalry factor {factor}{ambush})",
            possessive(&side_name(&state, &pursuer.side)),
            zone_name(&state, &b.zone)
        );
        let roll = dice.roll(DiceSpec::D6, &purpose, Some(RuleId::BE_22), modifiers(&state, &b, pursuer, &chasers))?;
        let percent = state.setup.tables.pursuit_percent(factor, roll.total(), shift);
        steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(pursuer.side.clone()), visibility: Visibility::Public }));
        fight::owed_in_pursuit(&fighters(&roster(&state, retreating)), percent)
    };
    steps.push(Event::PursuitRolled { side: side.clone(), owed });
    Ok(())
}

/// BE-22: after a passage, `side` breaks off; the enemy pursues once.
pub fn break_off(state: &State, side: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let b = here(state, RuleId::BE_22)?;
    if b.force(side).is_none() {
        return Err(RuleError::new(RuleId::BE_22, format!("{} have no force in the battle", side_name(state, side))));
    }
    if b.kind == Interception::Ambush {
        return Err(RuleError::new(RuleId::BE_23, "an ambush lasts two passages and ends in the ambusher's pursuit: nobody breaks off"));
    }
    if b.step != Step::Decide {
        return Err(RuleError::new(RuleId::BE_17, "a side breaks off at the end of a passage of arms"));
    }
    let mut steps = Steps::new(state);
    steps.push(Event::BrokeOff { side: side.clone() });
    pursue(&mut steps, dice, side)?;
    Ok(steps.events)
}

/// BE-17: both sides agree to part at the end of a passage; nobody pursues.
pub fn part(state: &State) -> Result<Vec<Event>, RuleError> {
    let b = here(state, RuleId::BE_17)?;
    if b.kind == Interception::Ambush {
        return Err(RuleError::new(RuleId::BE_23, "an ambush lasts two passages and ends in the ambusher's pursuit"));
    }
    if b.step != Step::Decide {
        return Err(RuleError::new(RuleId::BE_17, "the sides part at the end of a passage of arms"));
    }
    let mut steps = Steps::new(state);
    finish(&mut steps, None, None, How::Agreed);
    restore_contact(&mut steps, b);
    Ok(steps.events)
}

/// Where a beaten side may retreat (BE-22, BE-16): an adjacent land zone, or a city of the
/// battle's zone that it holds — not if it came out of that city and was ambushed. In a
/// zone where the enemy stands the retreating force may be intercepted, as a march would.
pub fn retreats(state: &State, b: &Battle, side: &SideId) -> Vec<(Location, Result<(), RetreatBarred>)> {
    let map = &state.setup.map;
    let Some(zone) = map.zone(&b.zone) else { return Vec::new() };
    let mut out = Vec::new();
    let holder = state.cities.get(&zone.city.id).and_then(|h| h.holder.as_ref());
    let force = b.force(side);
    let ambushed_from_city = force.is_some_and(|f| f.from_city) && b.ambusher.as_ref().is_some_and(|a| a != side);
    let city = Location::City(zone.city.id.clone());
    out.push((
        city,
        if holder != Some(side) {
            Err(RetreatBarred::NotHeld { city: zone.city.name.clone(), side: side_name(state, side) })
        } else if ambushed_from_city {
            Err(RetreatBarred::Ambushed { city: zone.city.name.clone() })
        } else {
            Ok(())
        },
    ));
    // A zone with the enemy in it is open too: the enemy may intercept there (BE-22).
    for n in &zone.neighbours {
        out.push((Location::Zone(n.clone()), Ok(())));
    }
    out
}

/// Why a beaten side may not retreat into the city of the battle's zone (BE-22, BE-16): it
/// does not hold the city, or it came out of it and was ambushed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum RetreatBarred {
    #[error("{city} is not a city {side} hold")]
    NotHeld { city: String, side: String },
    #[error("ambushed on coming out of {city}, the force must leave the zone (BE-16)")]
    Ambushed { city: String },
}

/// BE-22: the beaten side retreats to `to`, a zone or city id; the battle ends.
pub fn retreat(state: &State, side: &SideId, to: &str) -> Result<Vec<Event>, RuleError> {
    let b = here(state, RuleId::BE_22)?;
    if b.step != (Step::Retreat { side: side.clone() }) {
        return Err(RuleError::new(RuleId::BE_22, format!("{} have no retreat to make now", side_name(state, side))));
    }
    let at = retreat_to(state, b, side, to)?;
    let mut steps = Steps::new(state);
    retreat_made(&mut steps, b, side, &at);
    Ok(steps.events)
}

/// Where `to` puts `side` on retreating from `b`, or why it may not go there (BE-22).
fn retreat_to(state: &State, b: &Battle, side: &SideId, to: &str) -> Result<Location, RuleError> {
    let place = state.setup.place(to).map_err(|e| RuleError::new(RuleId::BE_22, e.to_string()))?;
    let options = retreats(state, b, side);
    match options.iter().find(|(at, _)| at == &place) {
        None => {
            let names: Vec<String> = options.iter().filter(|(_, ok)| ok.is_ok()).map(|(at, _)| state.setup.place_name(at)).collect();
            Err(RuleError::new(
                RuleId::BE_22,
                format!(
                    "{} is neither a zone next to {} nor its city; the force may go to {}",
                    state.setup.place_name(&place),
                    zone_name(state, &b.zone),
                    if names.is_empty() { "nowhere".to_owned() } else { names.join(", ") }
                ),
            ))
        }
        Some((_, Err(why))) => Err(RuleError::new(RuleId::BE_22, why.to_string())),
        Some((at, Ok(()))) => Ok(at.clone()),
    }
}

/// The retreat made and the battle over; among the enemy, the force may be intercepted
/// again (BE-22).
fn retreat_made(steps: &mut Steps, b: &Battle, side: &SideId, at: &Location) {
    let leaders = b.force(side).map(|f| f.leaders.clone()).unwrap_or_default();
    steps.push(Event::Retreated { side: side.clone(), leaders, to: at.clone() });
    let winner = b.enemy_of(side).cloned();
    let how = if b.kind == Interception::Ambush { How::Ambushed } else { How::BrokeOff };
    finish(steps, winner, Some(side.clone()), how);
    let alive =
        |steps: &Steps, l: &String| steps.state.pieces_of(side).any(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == l));
    // BE-46: a zone the beaten force falls back into with nobody of the enemy's there is its
    // own, as one it marched into would be; among the enemy it is not.
    if let Location::Zone(z) = at
        && super::interception::takes_zone(&steps.state, side, z)
        && b.force(side).is_some_and(|f| f.leaders.iter().any(|l| alive(steps, l)))
    {
        steps.push(Event::ZoneControlled { zone: z.clone(), side: side.clone() });
    }
    if let Location::Zone(z) = at
        && super::interception::enemy_in(&steps.state, side, z)
        && let Some(force) = b.force(side)
        && let Some(chief) = force.leaders.iter().find(|l| alive(steps, l)).cloned()
    {
        let with = force.leaders.iter().filter(|l| **l != chief && alive(steps, l)).cloned().collect();
        let mover = super::operations::Activation { side: side.clone(), leader: chief, with, at: at.clone() };
        let contact = super::interception::Contact::new(&steps.state, z.clone(), mover, Some(Location::Zone(b.zone.clone())));
        steps.push(Event::ContactMade { contact });
    } else {
        restore_contact(steps, b);
    }
}

/// BE-15: after a battle the marching force still standing in the zone may meet the enemy's
/// other forces there: the interceptions go on, the other side first, each leader still once
/// against the force.
fn restore_contact(steps: &mut Steps, b: &Battle) {
    let Some(force) = b.force(&b.mover) else { return };
    let alive = |steps: &Steps, l: &String| {
        steps.state.marker(&b.mover, l).is_some_and(|p| super::interception::in_zone(&steps.state, &p.at, &b.zone))
    };
    let Some(chief) = force.leaders.iter().find(|l| alive(steps, l)).cloned() else { return };
    if !super::interception::enemy_in(&steps.state, &b.mover, &b.zone) {
        return;
    }
    let with = force.leaders.iter().filter(|l| **l != chief && alive(steps, l)).cloned().collect();
    let at = Location::Zone(b.zone.clone());
    let mover = super::operations::Activation { side: b.mover.clone(), leader: chief, with, at };
    let contact = super::interception::Contact::new(&steps.state, b.zone.clone(), mover, b.came_from.clone());
    steps.push(Event::ContactMade { contact });
}

/// BE-17: the referee sends the battle to the tabletop; it is fought there, and only its
/// result comes back (`record`). Refused once a roll has been made here.
pub fn send_to_table(state: &State) -> Result<Vec<Event>, RuleError> {
    let b = battle(state, RuleId::BE_17)?;
    if b.at_table {
        return Err(RuleError::new(RuleId::BE_17, "the battle is on the table already"));
    }
    if b.passage > 1 || b.stage != Stage::Fire || b.step != Step::Roll {
        return Err(RuleError::new(RuleId::BE_17, "the battle has begun here: it is fought to its end here"));
    }
    Ok(vec![Event::SentToTable { zone: b.zone.clone() }])
}

/// A battle's result from the tabletop, as the result form gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableResult {
    /// Each side's losses in combat points: a unit's number in the battle (see [`roster`])
    /// and the points it lost.
    pub losses: BTreeMap<SideId, Vec<(u32, u8)>>,
    /// Leaders killed on the table besides those whose units are all gone (BE-09).
    #[serde(default)]
    pub leaders_killed: Vec<String>,
    /// The side that broke off and left the field, if one did (BE-22).
    #[serde(default)]
    pub broke_off: Option<SideId>,
    /// Where it retreated: a zone next to the battle, or the zone's city if it holds it.
    #[serde(default)]
    pub retreat: Option<String>,
    /// Both sides agreed to part (BE-17).
    #[serde(default)]
    pub parted: bool,
}

/// BE-17 … BE-22: the tabletop result applied: each side's losses, leaders killed, and the
/// break-off with its retreat, or the sides parting, or a force destroyed.
pub fn record(state: &State, result: &TableResult) -> Result<Vec<Event>, RuleError> {
    let b = battle(state, RuleId::BE_17)?;
    if !b.at_table {
        return Err(RuleError::new(RuleId::BE_17, "this battle is fought here: send it to the table first, or fight it out"));
    }
    for side in result.losses.keys() {
        if b.force(side).is_none() {
            return Err(RuleError::new(RuleId::BE_19, format!("the {} have no force in this battle", side_name(state, side))));
        }
    }
    let mut steps = Steps::new(state);
    let mut left: BTreeMap<SideId, u32> = BTreeMap::new();
    for force in &b.forces {
        let units = roster(state, force);
        let named = result.losses.get(&force.side).map(Vec::as_slice).unwrap_or_default();
        let mut per: BTreeMap<usize, u32> = BTreeMap::new();
        for &(n, p) in named {
            let i = usize::try_from(n).ok().and_then(|n| n.checked_sub(1)).filter(|&i| i < units.len()).ok_or_else(|| {
                RuleError::new(
                    RuleId::BE_19,
                    format!(
                        "the {} have no unit {n} in the battle; theirs are numbered 1 to {}",
                        side_name(state, &force.side),
                        units.len()
                    ),
                )
            })?;
            let sum = per.entry(i).or_default();
            *sum = sum.saturating_add(u32::from(p));
            if *sum > u32::from(units[i].fighter.unit.value) {
                return Err(RuleError::new(
                    RuleId::BE_19,
                    format!(
                        "unit {n} of the {} ({}) has {}, not {}",
                        side_name(state, &force.side),
                        units[i].fighter.unit,
                        crate::core::words::count(units[i].fighter.unit.value, "point"),
                        *sum
                    ),
                ));
            }
        }
        let lost: u32 = per.values().sum();
        let total: u32 = units.iter().map(|u| u32::from(u.fighter.unit.value)).sum();
        left.insert(force.side.clone(), total - lost);
        if !per.is_empty() {
            let losses = per.iter().map(|(&i, &p)| (units[i].leader.clone(), units[i].index, u8::try_from(p).unwrap_or(u8::MAX))).collect();
            steps.push(Event::BattleLossesTaken { side: force.side.clone(), losses });
        }
    }
    let mut killed = Vec::new();
    for l in &result.leaders_killed {
        let Some(force) = b.forces.iter().find(|f| f.leaders.contains(l)) else {
            return Err(RuleError::new(RuleId::BE_09, format!("`{l}` is not a leader in this battle")));
        };
        killed.push((force.side.clone(), l.clone()));
    }
    let gone: Vec<SideId> = left.iter().filter(|(_, p)| **p == 0).map(|(s, _)| s.clone()).collect();
    match (&result.broke_off, result.parted, gone.as_slice()) {
        (Some(_), true, _) => return Err(RuleError::new(RuleId::BE_17, "a side broke off, or both parted: not both")),
        (_, _, [_, ..]) if result.retreat.is_some() => {
            return Err(RuleError::new(RuleId::BE_22, "a destroyed force does not retreat: leave the retreat out"));
        }
        (_, _, [one]) => {
            let winner = b.enemy_of(one).cloned();
            finish(&mut steps, winner, Some(one.clone()), How::Destroyed);
            restore_contact(&mut steps, b);
        }
        (_, _, [_, _, ..]) => finish(&mut steps, None, None, How::Destroyed),
        (None, true, []) => {
            if result.retreat.is_some() {
                return Err(RuleError::new(RuleId::BE_17, "parting sides do not retreat: leave the retreat out"));
            }
            finish(&mut steps, None, None, How::Agreed);
            restore_contact(&mut steps, b);
        }
        (Some(side), false, []) => {
            if b.force(side).is_none() {
                return Err(RuleError::new(RuleId::BE_22, format!("the {} have no force in this battle", side_name(state, side))));
            }
            let to = result.retreat.as_deref().ok_or_else(|| {
                RuleError::new(RuleId::BE_22, format!("the {} broke off: name where they retreated (`retreat`)", side_name(state, side)))
            })?;
            let at = retreat_to(state, b, side, to)?;
            steps.push(Event::BrokeOff { side: side.clone() });
            let b = steps.battle().cloned().unwrap_or_else(|| b.clone());
            retreat_made(&mut steps, &b, side, &at);
        }
        (None, false, []) => {
            return Err(RuleError::new(
                RuleId::BE_17,
                "say how the battle ended: the side that broke off (with its retreat), the sides parting, or a force destroyed",
            ));
        }
    }
    // Leaders who fell on the table, after the battle's losses are counted; their units
    // stand on without them (BE-09).
    for (side, l) in killed {
        if steps.state.pieces_of(&side).any(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if *leader == l)) {
            kill(&mut steps, &side, &l);
        }
    }
    Ok(steps.events)
}

/// The battle's end: leaders whose boxes emptied die (BE-09), the commander-in-chief's
/// successor takes over, and the zone goes to the side left alone in it (BE-46).
fn finish(steps: &mut Steps, winner: Option<SideId>, loser: Option<SideId>, how: How) {
    let Some(b) = steps.battle().cloned() else { return };
    let state = steps.state.clone();
    let mut lost = Vec::new();
    for force in &b.forces {
        let now: u32 = roster(&state, force).iter().map(|u| u32::from(u.fighter.unit.value)).sum();
        lost.push((force.side.clone(), force.start.saturating_sub(now)));
    }
    steps.push(Event::BattleEnded { outcome: Outcome { zone: b.zone.clone(), winner: winner.clone(), loser, how, lost } });
    for force in &b.forces {
        for id in &force.had_units {
            let empty = steps
                .state
                .pieces_of(&force.side)
                .any(|p| matches!(&p.kind, PieceKind::Leader { leader, units } if leader == id && units.is_empty()));
            if empty {
                kill(steps, &force.side, id);
            }
        }
    }
    // BE-29: a relief that beats the besiegers lets the garrison join it.
    if let (Some(city), Some(w)) = (&b.relief, &winner)
        && w == &b.mover
    {
        steps.push(Event::SiegeRelieved { city: city.clone() });
    }
    if let Some(w) = winner {
        let state = &steps.state;
        let rival = state.pieces.iter().any(|p| p.side != w && p.kind.has_marker() && super::interception::in_zone(state, &p.at, &b.zone))
            || super::interception::enemy_units_in(state, &w, &b.zone);
        if !rival && steps.state.control.get(&b.zone) != Some(&w) {
            steps.push(Event::ZoneControlled { zone: b.zone.clone(), side: w });
        }
    }
}

/// BE-09: `leader` is killed; if he was commander-in-chief, the next living leader of the
/// succession takes over.
pub(crate) fn kill(steps: &mut Steps, side: &SideId, leader: &str) {
    kill_where(steps, side, leader, false, false);
}

/// [`kill`], `at_sea` for a leader lost with his ship to naval attrition (BE-34), `face_down`
/// for one lost where the other side sees no fight (at sea, in a city starved or betrayed).
pub(crate) fn kill_where(steps: &mut Steps, side: &SideId, leader: &str, at_sea: bool, face_down: bool) {
    let cinc = steps.state.cinc.get(side).cloned().flatten();
    let successor = if cinc.as_deref() == Some(leader) {
        let alive = |id: &str| {
            id != leader && steps.state.pieces_of(side).any(|p| matches!(&p.kind, PieceKind::Leader { leader: l, .. } if l == id))
        };
        steps.state.setup.side(side).and_then(|s| s.succession.iter().find(|id| alive(id)).cloned())
    } else {
        None
    };
    let was_cinc = cinc.as_deref() == Some(leader);
    steps.push(Event::LeaderKilled {
        side: side.clone(),
        leader: leader.to_owned(),
        successor,
        was_cinc,
        at_sea,
        face_down: face_down || at_sea,
    });
}

impl State {
    /// Applies the events of battle (see [`State::apply`]).
    pub(crate) fn apply_battle(&mut self, event: &Event) {
        match event {
            Event::BattleJoined { battle } => {
                // Leaders coming out of the city fight in the open (BE-16).
                for force in battle.forces.iter().filter(|f| f.from_city) {
                    for p in self.pieces.iter_mut().filter(|p| p.side == force.side) {
                        if matches!(&p.kind, PieceKind::Leader { leader, .. } if force.leaders.contains(leader)) {
                            p.at = Location::Zone(battle.zone.clone());
                        }
                    }
                }
                if let Some(ops) = &mut self.ops {
                    ops.contact = None;
                    ops.battle = Some(battle.clone());
                }
            }
            Event::CombatRolled { owed, .. } => {
                if let Some(b) = self.ops.as_mut().and_then(|o| o.battle.as_mut()) {
                    b.step = Step::Losses { owed: owed.iter().cloned().collect(), taken: BTreeSet::new() };
                }
            }
            Event::BattleLossesTaken { side, losses } => {
                for (leader, index, points) in losses {
                    for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                        if let PieceKind::Leader { leader: l, units } = &mut p.kind
                            && l == leader
                            && let Some(u) = usize::try_from(*index).ok().and_then(|i| units.get_mut(i))
                        {
                            u.value = u.value.saturating_sub(*points);
                        }
                    }
                }
                if let Some(b) = self.ops.as_mut().and_then(|o| o.battle.as_mut()) {
                    match &mut b.step {
                        Step::Losses { taken, .. } => {
                            taken.insert(side.clone());
                        }
                        Step::Pursuit { side: s, .. } if s == side => b.step = Step::Retreat { side: side.clone() },
                        _ => {}
                    }
                }
            }
            Event::MoraleChecked { side, disordered } => {
                if let Some(f) = self.ops.as_mut().and_then(|o| o.battle.as_mut()).and_then(|b| b.force_mut(side)) {
                    f.disordered.extend(disordered.iter().cloned());
                }
            }
            Event::StageEnded { stage } => {
                if let Some(b) = self.ops.as_mut().and_then(|o| o.battle.as_mut()) {
                    match stage {
                        Stage::Fire => {
                            b.stage = Stage::Melee;
                            b.step = Step::Roll;
                        }
                        Stage::Melee => b.step = Step::Decide,
                    }
                }
            }
            Event::PassageBegan { passage } => {
                if let Some(b) = self.ops.as_mut().and_then(|o| o.battle.as_mut()) {
                    b.passage = *passage;
                    b.stage = Stage::Fire;
                    b.step = Step::Roll;
                }
            }
            Event::SentToTable { .. } => {
                if let Some(b) = self.ops.as_mut().and_then(|o| o.battle.as_mut()) {
                    b.at_table = true;
                }
            }
            Event::BrokeOff { side } => {
                if let Some(b) = self.ops.as_mut().and_then(|o| o.battle.as_mut()) {
                    b.broke_off = Some(side.clone());
                }
            }
            Event::PursuitRolled { side, owed } => {
                if let Some(b) = self.ops.as_mut().and_then(|o| o.battle.as_mut()) {
                    b.step = if owed.points > 0 {
                        Step::Pursuit { side: side.clone(), owed: *owed }
                    } else {
                        Step::Retreat { side: side.clone() }
                    };
                }
            }
            Event::Retreated { side, leaders, to } => {
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    if matches!(&p.kind, PieceKind::Leader { leader, .. } if leaders.contains(leader)) {
                        p.at = to.clone();
                    }
                }
                // The acting force, beaten, acts on from where it retreated to (BE-22).
                if let Some(a) = self.ops.as_mut().and_then(|o| o.active.as_mut())
                    && &a.side == side
                    && leaders.contains(&a.leader)
                {
                    a.at = to.clone();
                }
            }
            Event::BattleEnded { outcome } => {
                for (side, lost) in &outcome.lost {
                    let total = self.lost_in_battle.entry(side.clone()).or_default();
                    *total = total.saturating_add(*lost);
                }
                let battle = self.ops.as_mut().and_then(|o| o.battle.take());
                if let Some(b) = &battle {
                    for force in &b.forces {
                        for p in self.pieces.iter_mut().filter(|p| p.side == force.side) {
                            if let PieceKind::Leader { leader, units } = &mut p.kind
                                && force.leaders.contains(leader)
                            {
                                units.retain(|u| u.value > 0);
                            }
                        }
                    }
                    // A beaten mover's march is over (BE-10).
                    if outcome.loser.as_ref() == Some(&b.mover)
                        && let Some(ops) = &mut self.ops
                        && let Some(a) = ops.active.clone().filter(|a| a.side == b.mover)
                    {
                        ops.halted.insert(a.leader.clone());
                    }
                }
            }
            Event::LeaderKilled { side, leader, successor, was_cinc, .. } => {
                self.killed.push(leader.clone());
                // His units, if any are left, stay where he fell without a leader.
                if let Some(i) = self
                    .pieces
                    .iter()
                    .position(|p| &p.side == side && matches!(&p.kind, PieceKind::Leader { leader: l, .. } if l == leader))
                {
                    let piece = self.pieces.remove(i);
                    let units: Vec<_> = piece.kind.units().iter().copied().filter(|u| u.value > 0).collect();
                    if !units.is_empty() {
                        self.pieces.push(super::state::Piece { side: piece.side, at: piece.at, kind: PieceKind::Group { units } });
                    }
                }
                if *was_cinc {
                    self.cinc.insert(side.clone(), successor.clone());
                }
                if let Some(ops) = &mut self.ops
                    && ops.active.as_ref().is_some_and(|a| &a.leader == leader)
                {
                    ops.halted.insert(leader.clone());
                }
            }
            _ => {}
        }
    }
}
