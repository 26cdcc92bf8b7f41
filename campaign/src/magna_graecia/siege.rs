//! Sieges (MG-27, MG-28) and disease (MG-29): a defender who takes every element inside its
//! walls is besieged instead of fought; after each full turn of siege the besieger rolls,
//! and on a modified 8 the city falls.

use crate::core::log::DiceRolled;
use crate::core::rule::RuleId;
use serde::{Deserialize, Serialize};

use super::army::ElementGroup;
use super::event::{Event, KnockOn, Visibility};
use super::map::Map;
use super::naval::{Pool, check_losses};
use super::scenario::SpecialRule;
use super::state::CampaignState;
use super::turn::{FLEET, Phase};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::ids::{NodeId, SideId};

/// The modified siege roll that takes the city (MG-28).
pub const CITY_FALLS: i32 = 8;

/// A city under siege.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Siege {
    pub node: NodeId,
    pub besieger: SideId,
    pub defender: SideId,
    /// The campaign turn the siege began: the first roll comes a full turn later.
    pub begun_turn: u32,
    /// Siege rolls made so far; each after the first adds 1 (MG-28).
    pub rolls: u32,
    /// Disease has come to the node (MG-29).
    pub disease: bool,
}

/// Losses a side must choose among its commands in a node (MG-28, MG-29).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossesDue {
    pub node: NodeId,
    pub elements: u32,
    pub rule: RuleId,
    pub by: Option<SideId>,
    /// The one command they come from, wherever it stands now: one that caught disease
    /// passing through a siege (MG-29). Otherwise any of the side's commands in the node.
    #[serde(default)]
    pub command: Option<String>,
}

impl LossesDue {
    /// Whether the losses may be taken from this counter of the side that owes them: the
    /// command that caught disease on the march, wherever it is now, or else any of the
    /// side's commands in the node, inside the walls or out, but not at sea.
    pub fn may_take_from(&self, counter: &super::turn::Counter) -> bool {
        match &self.command {
            Some(name) => &counter.name == name && !counter.is_fleet(),
            None => counter.node == self.node && !counter.is_fleet() && !counter.aboard,
        }
    }
}

impl CampaignState {
    /// Elements of a side's land counters in a node, those inside the walls included.
    pub fn elements_at(&self, side: &SideId, node: NodeId, inside: bool) -> u32 {
        let Some(army) = self.armies.get(side) else { return 0 };
        self.counters
            .iter()
            .filter(|c| &c.side == side && c.node == node && !c.is_fleet() && !c.aboard && c.inside == inside)
            .filter_map(|c| army.commands.iter().find(|r| r.name == c.name))
            .map(|r| self.command_elements(side, r))
            .sum()
    }

    /// MG-28: the besieger's effective elements: its land elements in the node, and at a
    /// coastal city the NPs of its fleet there.
    pub fn besieging_strength(&self, map: &Map, side: &SideId, node: NodeId) -> u32 {
        let fleet = self
            .counter(side, FLEET)
            .filter(|f| f.node == node && map.node(node).is_some_and(|n| n.coastal))
            .map_or(0, |_| self.fleet_np(side));
        self.elements_at(side, node, false) + fleet
    }

    /// MG-27 / MG-28: the elements of `side` within the walls at `node` — or that would be,
    /// if its commands there went in (`inside` false) — all of whom a siege shuts in and a fall
    /// destroys: its commands', the city's own commands where the city is its ally (MG-05),
    /// and the garrison of its capital (MG-04).
    pub fn defenders_within(&self, map: &Map, side: &SideId, node: NodeId, inside: bool) -> u32 {
        let beside = self.beside_the_commands(side, node);
        let city: u32 = if beside.city_commands { self.city_forces(map, node).iter().map(|c| c.elements_fielded(false)).sum() } else { 0 };
        let garrison = if beside.garrison { self.garrison_elements(side) } else { 0 };
        self.elements_at(side, node, inside) + city + garrison
    }

    /// What stands within the walls of `node` with `side`'s commands there.
    fn beside_the_commands(&self, side: &SideId, node: NodeId) -> Beside {
        Beside { city_commands: self.politics.city_allies.get(&node) == Some(side), garrison: self.garrisoned_capital(side) == Some(node) }
    }

    pub fn siege_at(&self, node: NodeId) -> Option<&Siege> {
        self.siege.sieges.iter().find(|s| s.node == node)
    }
}

/// MG-04 / MG-05: who shares the walls with a side's commands.
struct Beside {
    /// The city's own commands, where the city is the side's ally.
    city_commands: bool,
    /// The garrison of the side's capital of strength 0.
    garrison: bool,
}

/// MG-27: instead of fighting a battle raised at its fortified city, the defender takes all
/// its elements inside the walls; the besieger needs at least as many effective elements.
pub fn withdraw_into_city(state: &CampaignState, map: &Map, side: &SideId, battle_id: u32) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Combat {
        return Err(RuleError::new(RuleId::MG_27, "a defender withdraws into its city in the combat phase, instead of the battle"));
    }
    let battle = state
        .battles
        .iter()
        .find(|b| b.id == battle_id && !b.awaiting_choices && b.day == 1)
        .ok_or_else(|| RuleError::new(RuleId::MG_27, format!("there is no battle {battle_id} still to be fought")))?;
    let place = map.node(battle.node).ok_or_else(|| RuleError::new(RuleId::MG_01, "the battle's node is not on the map"))?;
    if !battle.defenders.contains(side) {
        return Err(RuleError::new(
            RuleId::MG_27,
            format!("only a defender may withdraw into the city; {} attacked", super::turn::side_name(state, &battle.attacker)),
        ));
    }
    if !place.is_fortified() {
        return Err(RuleError::new(RuleId::MG_27, format!("{} has no walls to withdraw behind", place.name)));
    }
    let holds = state.control.get(&battle.node) == Some(side)
        || state.politics.city_allies.get(&battle.node) == Some(side)
        || state.scenario.side(side).and_then(|s| s.capital).is_some_and(|c| c.node == battle.node);
    if !holds {
        return Err(RuleError::new(
            RuleId::MG_27,
            format!("{} is not {} to defend", place.name, crate::core::words::possessive(&super::turn::side_name(state, side))),
        ));
    }
    let inside = state.defenders_within(map, side, battle.node, false);
    let strength = state.besieging_strength(map, &battle.attacker, battle.node);
    if strength < inside {
        return Err(RuleError::new(
            RuleId::MG_27,
            format!(
                // Not the besieger's strength itself: a side's view shows this sentence, and
                // the defender may know only that it falls short.
                "{} has fewer effective elements than the {inside} that would be inside {}, too few to besiege them: the battle must be fought",
                super::turn::side_name(state, &battle.attacker),
                place.name
            ),
        ));
    }
    let commands =
        state.counters.iter().filter(|c| &c.side == side && c.node == battle.node && c.on_land()).map(|c| c.name.clone()).collect();
    Ok(vec![Event::SiegeBegun {
        battle: Some(battle_id),
        siege: Siege {
            node: battle.node,
            besieger: battle.attacker.clone(),
            defender: side.clone(),
            begun_turn: state.turn,
            rolls: 0,
            disease: false,
        },
        inside: commands,
    }])
}

/// MG-28 / MG-29: at the end of the besieger's movement, each siege it has kept a full turn
/// without moving is rolled for; a siege it walked away from is lifted. Disease strikes each
/// side it has reached.
pub(crate) fn siege_rolls(state: &CampaignState, map: &Map, mover: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    for siege in state.siege.sieges.iter().filter(|s| &s.besieger == mover) {
        let place = map.name(siege.node);
        let outside: Vec<_> = state.counters.iter().filter(|c| &c.side == mover && c.node == siege.node && c.on_land()).collect();
        if outside.is_empty() {
            events.push(Event::SiegeLifted { node: siege.node });
            continue;
        }
        let moved = outside.iter().any(|c| c.mp_spent > 0);
        if state.turn <= siege.begun_turn || moved {
            continue;
        }
        let inside = state.defenders_within(map, &siege.defender, siege.node, true);
        // MG-28: the roll comes after a full turn of siege in which the besiegers made no
        // movement, so a fleet that sailed in this turn is no part of it yet.
        let fleet_moved = state.counter(mover, FLEET).is_some_and(|f| f.node == siege.node && f.mp_spent > 0);
        let strength =
            if fleet_moved { state.elements_at(mover, siege.node, false) } else { state.besieging_strength(map, mover, siege.node) };
        let mut mods = Vec::new();
        if strength >= 3 * inside {
            mods.push(Modifier { value: 2, reason: "3:1 effective elements".into() });
        } else if strength >= 2 * inside {
            mods.push(Modifier { value: 1, reason: "2:1 effective elements".into() });
        }
        let city = map.node(siege.node).map_or(0, |n| i32::from(n.siege_modifier));
        if city != 0 {
            mods.push(Modifier { value: city, reason: format!("the walls of {place}") });
        }
        for m in state.scenario.siege_modifiers.iter().filter(|m| m.node == siege.node) {
            mods.push(Modifier { value: i32::from(m.modifier), reason: m.reason.clone() });
        }
        if siege.rolls > 0 {
            mods.push(Modifier { value: i32::try_from(siege.rolls).unwrap_or(0), reason: "consecutive turns of siege".into() });
        }
        let roll = dice.roll(DiceSpec::D6, &format!("siege of {place}"), Some(RuleId::MG_28), mods)?;
        let (natural, total) = (roll.natural(), roll.total());
        // the modifiers tell the besieger's strength against the garrison's, which the
        // other sides do not know: the besieger rolls, and the others learn only whether the
        // city fell, and whether disease came (an unmodified 1, MG-29).
        events.push(Event::DiceRolled(DiceRolled { roll, side: Some(mover.clone()), visibility: Visibility::Side(mover.clone()) }));
        if total >= CITY_FALLS {
            let destroyed = state
                .counters
                .iter()
                .filter(|c| c.side == siege.defender && c.node == siege.node && c.inside)
                .map(|c| c.name.clone())
                .collect();
            events.push(Event::CityFell {
                node: siege.node,
                besieger: mover.clone(),
                defender: siege.defender.clone(),
                destroyed,
                // 20 % of the defender's force, rounded up.
                besieger_losses: inside.div_ceil(5),
                defender_elements: inside,
                knock_on: state.knock_on(siege.node, mover, &siege.defender),
            });
            events.extend(sheltered_fleets_lost(state, siege.node, mover, &place, dice)?);
        } else {
            events.push(Event::SiegeRolled { node: siege.node, disease: natural == 1 });
        }
    }
    events.extend(disease(state, map, mover, dice)?);
    Ok(events)
}

/// MG-19: ships sheltered in a city that falls are destroyed, to the taker's credit; the
/// taker rolls for each NP, 5 or more salvaging it for its own fleet.
pub(crate) fn sheltered_fleets_lost(
    state: &CampaignState,
    node: NodeId,
    besieger: &SideId,
    place: &str,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let fleets: Vec<(SideId, u32)> = state
        .counters
        .iter()
        .filter(|c| c.is_fleet() && c.sheltered && c.node == node && state.are_enemies(besieger, &c.side))
        .map(|c| (c.side.clone(), state.fleet_np(&c.side)))
        .collect();
    if fleets.is_empty() {
        return Ok(Vec::new());
    }
    let mut events = Vec::new();
    let mut salvaged = 0;
    for _ in 0..fleets.iter().map(|(_, np)| np).sum::<u32>() {
        let roll = dice.roll(DiceSpec::D6, &format!("salvage at {place}"), Some(RuleId::MG_19), Vec::new())?;
        if roll.total() >= super::battle::RECOVERY_ROLL {
            salvaged += 1;
        }
        // what is salvaged joins the taker's fleet, whose NPs are its secret; how many
        // ships were destroyed is public (each side counts them for victory, MG-33).
        events.push(Event::DiceRolled(DiceRolled { roll, side: Some(besieger.clone()), visibility: Visibility::Side(besieger.clone()) }));
    }
    events.push(Event::ShelteredFleetsLost { node, besieger: besieger.clone(), fleets, salvaged });
    Ok(events)
}

/// MG-29: a side with a force in a diseased siege rolls d6 in its own turn; on a 1 it loses a
/// tenth of its elements there.
fn disease(state: &CampaignState, map: &Map, mover: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    for siege in state.siege.sieges.iter().filter(|s| s.disease) {
        let here = state.elements_at(mover, siege.node, false) + state.elements_at(mover, siege.node, true);
        if here == 0 {
            continue;
        }
        let roll =
            dice.roll(DiceSpec::D6, &format!("disease at the siege of {}", map.name(siege.node)), Some(RuleId::MG_29), Vec::new())?;
        let struck = roll.natural() == 1;
        // The roll itself tells nothing hidden: every side sees it. How many elements the
        // disease took would tell the force's size, and is shown to its side only.
        events.push(Event::DiceRolled(DiceRolled { roll, side: Some(mover.clone()), visibility: Visibility::Public }));
        if struck {
            events.push(Event::DiseaseStruck {
                node: siege.node,
                side: mover.clone(),
                elements: here.div_ceil(10),
                of: here,
                command: None,
            });
        }
    }
    Ok(events)
}

/// MG-28 / MG-29: the side chooses which of its elements in the node the siege or the disease
/// took; a general goes only with his whole command.
pub fn allocate_siege_losses(
    state: &CampaignState,
    map: &Map,
    side: &SideId,
    lost: &[(String, ElementGroup)],
    sunk: &[String],
) -> Result<Vec<Event>, RuleError> {
    let due = state.siege.siege_losses_due.get(side).ok_or_else(|| {
        RuleError::new(RuleId::MG_28, format!("{} has no siege or disease losses to take", super::turn::side_name(state, side)))
    })?;
    let what = match &due.command {
        Some(_) => format!("the command that marched through {}", map.name(due.node)),
        None => format!("at {}", map.name(due.node)),
    };
    let holds = |c: &super::turn::Counter| due.may_take_from(c);
    let rule = if due.rule == RuleId::MG_29 { RuleId::MG_29 } else { RuleId::MG_28 };
    check_losses(state, side, due.elements, &Pool { rule, what: &what, holds: &holds }, lost, sunk)?;
    Ok(vec![Event::SiegeLossesTaken { side: side.clone(), lost: lost.to_vec(), sunk: sunk.to_vec() }])
}

/// MG-32 / MG-27: at the end of `mover`'s movement, each enemy capital its side still holds
/// where `mover` stands with nobody of that side or its friends to meet it: one with nobody
/// at all within its walls is taken; one held by its garrison alone (MG-04) is besieged, if
/// `mover` has as many effective elements as the garrison. A capital whose own commands still
/// stand meets the march in battle instead (MG-10).
pub(crate) fn capitals_taken(state: &CampaignState, map: &Map, mover: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    for owner in state.scenario.sides.iter().filter(|s| state.are_enemies(mover, &s.id) && !state.politics.eliminated.contains(&s.id)) {
        let Some(node) = owner.capital.map(|c| c.node) else { continue };
        let held = state.control.get(&node) == Some(&owner.id) || state.politics.city_allies.get(&node) == Some(&owner.id);
        let here = |side: &SideId| state.counters.iter().any(|c| &c.side == side && c.node == node && c.on_land());
        let met = state.scenario.sides.iter().any(|s| state.are_enemies(mover, &s.id) && here(&s.id));
        let beside = state.beside_the_commands(&owner.id, node);
        // A capital with commands of its own still standing meets the march (MG-10), or, in a
        // campaign stored before capitals stood with their sides, stays as it was.
        if !held || !here(mover) || met || state.siege_at(node).is_some() || !state.city_forces(map, node).is_empty() {
            continue;
        }
        let garrison = if beside.garrison { state.garrison_elements(&owner.id) } else { 0 };
        if garrison == 0 {
            let knock_on = state.knock_on(node, mover, &owner.id);
            events.push(Event::CapitalTaken { node, by: mover.clone(), from: owner.id.clone(), knock_on });
            // MG-19: ships sheltered there are lost with the city.
            events.extend(sheltered_fleets_lost(state, node, mover, &map.name(node), dice)?);
        } else if state.besieging_strength(map, mover, node) >= garrison {
            let siege =
                Siege { node, besieger: mover.clone(), defender: owner.id.clone(), begun_turn: state.turn, rolls: 0, disease: false };
            events.push(Event::SiegeBegun { battle: None, siege, inside: Vec::new() });
        }
    }
    Ok(events)
}

/// MG-27: the besieged defender comes out to fight in its own movement phase; the battle is
/// raised when its movement ends, with the defender attacking.
pub fn sally(state: &CampaignState, map: &Map, side: &SideId, node: NodeId) -> Result<Vec<Event>, RuleError> {
    if !state.siege.sieges.iter().any(|s| s.node == node && &s.defender == side) {
        return Err(RuleError::new(
            RuleId::MG_27,
            format!("{} is not besieged at {}", super::turn::side_name(state, side), map.name(node)),
        ));
    }
    if state.phase != Phase::Movement || state.moving_side() != side {
        return Err(RuleError::new(RuleId::MG_27, "the besieged sally in their own movement phase"));
    }
    // A garrison or a city's own commands hold the walls; only a side's commands come out.
    if !state.counters.iter().any(|c| &c.side == side && c.node == node && c.inside) {
        return Err(RuleError::new(
            RuleId::MG_27,
            format!(
                "{} has no command inside {} to sally: what holds its walls stays there",
                super::turn::side_name(state, side),
                map.name(node)
            ),
        ));
    }
    Ok(vec![Event::SallyMade { side: side.clone(), node }])
}

impl CampaignState {
    pub(crate) fn apply_siege(&mut self, event: &Event) {
        match event {
            Event::SiegeBegun { battle, siege, inside } => {
                self.battles.retain(|b| Some(b.id) != *battle);
                for c in self.counters.iter_mut().filter(|c| c.side == siege.defender && inside.contains(&c.name)) {
                    c.inside = true;
                }
                self.siege.sieges.push(siege.clone());
            }
            Event::SiegeRolled { node, disease } => {
                if let Some(s) = self.siege.sieges.iter_mut().find(|s| s.node == *node) {
                    s.rolls += 1;
                    s.disease |= *disease;
                }
            }
            Event::SiegeLifted { node } => self.end_siege(*node),
            Event::CapitalTaken { node, by, from, .. } => self.city_taken(*node, by, from),
            Event::CityFell { node, besieger, defender, destroyed, besieger_losses, .. } => {
                for name in destroyed {
                    self.lose_command(defender, name, Some(besieger.clone()));
                }
                self.city_taken(*node, besieger, defender);
                if *besieger_losses > 0 {
                    self.siege.siege_losses_due.insert(
                        besieger.clone(),
                        LossesDue {
                            node: *node,
                            elements: *besieger_losses,
                            rule: RuleId::MG_28,
                            by: Some(defender.clone()),
                            command: None,
                        },
                    );
                }
            }
            Event::DiseaseStruck { node, side, elements, command, .. } => {
                self.siege.siege_losses_due.insert(
                    side.clone(),
                    LossesDue { node: *node, elements: *elements, rule: RuleId::MG_29, by: None, command: command.clone() },
                );
            }
            Event::SiegeLossesTaken { side, lost, sunk } => {
                let due = self.siege.siege_losses_due.remove(side);
                self.take_losses(side, lost, sunk, due.as_ref().and_then(|d| d.by.as_ref()));
            }
            Event::SallyMade { node, .. } => {
                self.end_siege(*node);
                self.siege.sallied.insert(*node);
            }
            Event::CommandExited { side, command, elements } => {
                self.counters.retain(|c| !(&c.side == side && &c.name == command));
                if let Some(army) = self.armies.get_mut(side) {
                    army.commands.retain(|c| &c.name != command);
                }
                self.politics.exits.push((side.clone(), *elements));
                self.politics.exit_turns.insert(self.turn);
            }
            _ => {}
        }
    }

    /// MG-34: what taking `node` from `from` does beyond putting `from` out, read off the
    /// campaign as it would stand after: another side out with it, a fleet changing hands.
    pub(crate) fn knock_on(&self, node: NodeId, taker: &SideId, from: &SideId) -> Vec<KnockOn> {
        let mut after = self.clone();
        after.city_taken(node, taker, from);
        let mut knock = Vec::new();
        for fleet in self.counters.iter().filter(|c| c.is_fleet() && after.counter(&c.side, FLEET).is_none()) {
            let gained = after
                .counters
                .iter()
                .find(|c| c.is_fleet() && c.node == fleet.node && c.side != fleet.side && self.counter(&c.side, FLEET).is_none());
            if let Some(now) = gained {
                knock.push(KnockOn::FleetTo { from: fleet.side.clone(), to: now.side.clone() });
            }
        }
        let own: Vec<&SideId> = self.scenario.out_with_capital(node, taker).map(|s| &s.id).collect();
        for side in after.politics.eliminated.iter().filter(|s| !self.politics.eliminated.contains(*s) && !own.contains(s)) {
            knock.push(KnockOn::Out { side: side.clone() });
        }
        knock
    }

    /// The city at `node` taken by `besieger` from `defender`: everything still within its
    /// walls is gone, the node and the city are the taker's; a side whose capital it was is
    /// out of the campaign unless its scenario says otherwise (MG-32), and in the Pyrrhic War
    /// Syracuse's fall hands its fleet to Pyrrhus (MG-34).
    fn city_taken(&mut self, node: NodeId, besieger: &SideId, defender: &SideId) {
        // Everything inside is destroyed: the city's own commands, if it was the
        // defender's ally, and the garrison of the defender's capital.
        let beside = self.beside_the_commands(defender, node);
        if beside.city_commands {
            self.siege.city_forces_left.insert(node, Vec::new());
        }
        if beside.garrison {
            self.garrisons.remove(defender);
        }
        self.control.insert(node, besieger.clone());
        self.politics.city_allies.insert(node, besieger.clone());
        self.end_siege(node);
        // MG-32: a side whose capital falls is out of the campaign, unless its
        // scenario says otherwise.
        let fallen: Vec<SideId> = self.scenario.out_with_capital(node, besieger).map(|s| s.id.clone()).collect();
        let rules = &self.scenario.special_rules;
        let (to_pyrrhus, exit_rule) =
            (rules.contains(&SpecialRule::SyracuseFallsToPyrrhus), rules.contains(&SpecialRule::ExitThroughMessena));
        let (syracuse, pyrrhus) = (SideId::new("syracuse"), SideId::new("pyrrhus"));
        // MG-34: in the Pyrrhic War Syracuse's fleet passes to Pyrrhus when the city falls,
        // unless it lay sheltered in the city, whose fall destroys it (MG-19).
        if to_pyrrhus && fallen.contains(&syracuse) {
            let np = self.fleet_np(&syracuse);
            if let Some(f) = self.counters.iter_mut().find(|c| c.side == syracuse && c.is_fleet() && !(c.sheltered && c.node == node)) {
                f.side = pyrrhus.clone();
                f.mp_spent = 0;
                self.naval.fleet_np.insert(pyrrhus.clone(), np);
                self.naval.fleet_np.insert(syracuse.clone(), 0);
            }
        }
        for side in fallen {
            self.eliminate(&side);
        }
        // MG-34: with Syracuse out and Messena lost, whichever went first, Pyrrhus is out too.
        let messena_lost =
            self.scenario.side(&pyrrhus).and_then(|s| s.capital).is_some_and(|c| self.control.get(&c.node) != Some(&pyrrhus));
        let pyrrhus_in = !self.politics.eliminated.contains(&pyrrhus);
        if exit_rule && messena_lost && pyrrhus_in && self.politics.eliminated.contains(&syracuse) {
            self.eliminate(&pyrrhus);
        }
    }

    /// Takes a side out of the campaign (MG-32): its counters leave the map and its turns are
    /// skipped; its victory points stand.
    pub(crate) fn eliminate(&mut self, side: &SideId) {
        self.politics.eliminated.insert(side.clone());
        self.counters.retain(|c| &c.side != side);
        self.losses.land_retreats_due.retain(|r| &r.side != side);
        self.naval.retreats_due.retain(|s| s != side);
        if self.one_camp_left() {
            self.phase = Phase::Ended;
        }
    }

    fn end_siege(&mut self, node: NodeId) {
        if let Some(i) = self.siege.sieges.iter().position(|s| s.node == node) {
            let siege = self.siege.sieges.remove(i);
            for c in self.counters.iter_mut().filter(|c| c.side == siege.defender && c.node == node) {
                c.inside = false;
            }
        }
    }
}

/// MG-34: once Syracuse has fallen, Pyrrhus may lead one command a turn off the map through
/// Messena, for 2 VP each, while no Carthaginian force stands there.
pub fn exit_through_messena(state: &CampaignState, map: &Map, side: &SideId, name: &str) -> Result<Vec<Event>, RuleError> {
    if !state.scenario.special_rules.contains(&SpecialRule::ExitThroughMessena) {
        return Err(RuleError::new(RuleId::MG_34, format!("{} has no exit from the map", state.scenario.name)));
    }
    if state.phase != Phase::Movement || state.moving_side() != side {
        return Err(RuleError::new(RuleId::MG_34, "a command leaves the map in its side's movement phase"));
    }
    if side.as_str() != "pyrrhus" || !state.politics.eliminated.contains(&SideId::new("syracuse")) {
        return Err(RuleError::new(RuleId::MG_34, "only Pyrrhus may leave the map, and only after Syracuse has fallen"));
    }
    let messena = state
        .scenario
        .side(side)
        .and_then(|s| s.capital)
        .map(|c| c.node)
        .ok_or_else(|| RuleError::new(RuleId::MG_34, "Pyrrhus has no port to leave from"))?;
    let counter = state
        .counter(side, name)
        .filter(|c| c.on_land() && c.node == messena)
        .ok_or_else(|| RuleError::new(RuleId::MG_34, format!("{name} must stand at {} to leave the map", map.name(messena))))?;
    if state.counters.iter().any(|c| c.node == messena && state.are_enemies(side, &c.side)) {
        return Err(RuleError::new(RuleId::MG_34, format!("no command may leave while enemy forces are at {}", map.name(messena))));
    }
    if state.politics.exit_turns.contains(&state.turn) {
        return Err(RuleError::new(RuleId::MG_34, "only one command may leave the map each turn"));
    }
    let elements = state.elements_of(side, &counter.name);
    Ok(vec![Event::CommandExited { side: side.clone(), command: name.to_owned(), elements }])
}

/// MG-32: the campaign ends early when the sides agree.
pub fn end_by_agreement(state: &CampaignState, reason: &str) -> Result<Vec<Event>, RuleError> {
    if matches!(state.phase, Phase::Setup | Phase::Ended) {
        return Err(RuleError::new(RuleId::MG_32, "only a campaign under way can be ended by agreement"));
    }
    if reason.trim().is_empty() {
        return Err(RuleError::new(RuleId::MG_32, "say what the sides agreed, for the log"));
    }
    Ok(vec![Event::CampaignEnded { reason: reason.trim().to_owned() }])
}
