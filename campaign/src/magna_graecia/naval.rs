//! Naval combat (MG-18) and the loser's retreat (MG-15): fleets that meet at the end of
//! movement fight at once; each side rolls d6 and adds its NPs; the loser loses the difference
//! in NPs, spare NPs first and then one carried element per NP, chosen by its owner, and
//! retreats in post-combat movement.

use crate::core::log::DiceRolled;
use crate::core::rule::RuleId;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::army::ElementGroup;
use super::event::{Event, Visibility};
use super::map::Map;
use super::state::CampaignState;
use super::turn::{FLEET, Phase};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::words::possessive;
use crate::ids::{NodeId, SideId};

/// What a naval battle decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavalOutcome {
    pub node: NodeId,
    pub winner: SideId,
    pub loser: SideId,
    /// NPs the loser lost (MG-18: the difference of the modified rolls, at most its NPs).
    pub np_lost: u32,
    /// Of those, the NPs its recovery rolls brought back (MG-30).
    #[serde(default)]
    pub np_recovered: u32,
    /// The loser's fleet sank with everything aboard.
    pub fleet_destroyed: bool,
    /// Carried elements the loser must now choose to lose.
    pub elements_to_lose: u32,
    /// Commands lost with a sunken fleet.
    pub commands_lost: Vec<String>,
}

impl NavalOutcome {
    /// NPs lost for good: those lost in the fight and not recovered (MG-30), as every side
    /// counts them for victory (MG-33).
    pub fn np_sunk(&self) -> u32 {
        self.np_lost.saturating_sub(self.np_recovered)
    }
}

impl CampaignState {
    /// A side's fleet strength now (MG-16).
    pub fn fleet_np(&self, side: &SideId) -> u32 {
        self.naval.fleet_np.get(side).copied().unwrap_or(0)
    }

    /// Elements aboard a side's fleet.
    pub fn elements_aboard(&self, side: &SideId) -> u32 {
        let Some(army) = self.armies.get(side) else { return 0 };
        self.counters
            .iter()
            .filter(|c| &c.side == side && c.aboard)
            .filter_map(|c| army.commands.iter().find(|r| r.name == c.name))
            .map(|r| self.command_elements(side, r))
            .sum()
    }

    /// MG-15: the paths by which a side's fleet may retreat now: 1 to 3 coastal nodes, never
    /// into or through a node with an enemy fleet.
    pub fn fleet_retreats(&self, map: &Map, side: &SideId) -> BTreeMap<NodeId, Vec<NodeId>> {
        let mut out = BTreeMap::new();
        let Some(fleet) = self.counter(side, FLEET) else { return out };
        let mut seen = BTreeSet::from([fleet.node]);
        let mut frontier = vec![(fleet.node, Vec::new())];
        for _ in 0..super::turn::FLEET_MP {
            let mut next = Vec::new();
            for (at, path) in frontier {
                for n in map.neighbours(at) {
                    if !self.fleet_may_retreat_through(map, side, n) || !seen.insert(n) {
                        continue;
                    }
                    let mut p: Vec<NodeId> = path.clone();
                    p.push(n);
                    // It may pass enemy land counters but not stop with them (MG-16).
                    if !self.enemy_land_at(side, n) {
                        out.insert(n, p.clone());
                    }
                    next.push((n, p));
                }
            }
            frontier = next;
        }
        out
    }

    /// MG-15, MG-16: whether `side`'s beaten fleet may sail through `node` as it retreats: a
    /// coastal node without an enemy fleet.
    fn fleet_may_retreat_through(&self, map: &Map, side: &SideId, node: NodeId) -> bool {
        let enemy_fleet = self.counters.iter().any(|c| c.node == node && c.is_fleet() && self.are_enemies(side, &c.side));
        map.node(node).is_some_and(|x| x.coastal) && !enemy_fleet
    }
}

/// MG-18: every naval battle due at the end of `mover`'s movement, with its dice.
pub(crate) fn naval_battles(state: &CampaignState, map: &Map, mover: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    // MG-19: a fleet sheltered in its port fights only if it puts out, whoever lies off it.
    let Some(fleet) = state.counter(mover, FLEET).filter(|f| !f.sheltered) else { return Ok(events) };
    let enemies: Vec<SideId> = state
        .counters
        .iter()
        .filter(|c| c.is_fleet() && !c.sheltered && c.node == fleet.node && state.are_enemies(mover, &c.side))
        .map(|c| c.side.clone())
        .collect();
    for enemy in enemies {
        let place = map.name(fleet.node);
        let (mover_np, enemy_np) = (state.fleet_np(mover), state.fleet_np(&enemy));
        // a fleet's NPs are its side's secret, and each roll carries its fleet's NPs as a
        // modifier, so each side sees its own roll only. Who won is public, and so is what
        // the loser lost for good (below), since every side counts it for victory (MG-33).
        let roll = |dice: &mut Dice, side: &SideId, np: u32| {
            let purpose = format!("naval combat at {place}");
            let bonus = Modifier { value: i32::try_from(np).unwrap_or(i32::MAX), reason: "NPs".to_owned() };
            dice.roll(DiceSpec::D6, &purpose, Some(RuleId::MG_18), vec![bonus]).map(|r| {
                let total = r.total();
                let event = Event::DiceRolled(DiceRolled { roll: r, side: Some(side.clone()), visibility: Visibility::Side(side.clone()) });
                (total, event)
            })
        };
        // The rules name no tie: both roll again until one is higher.
        let (m, e) = loop {
            let (m, me) = roll(dice, mover, mover_np)?;
            let (e, ee) = roll(dice, &enemy, enemy_np)?;
            events.push(me);
            events.push(ee);
            if m != e {
                break (m, e);
            }
        };
        let (winner, loser, diff) = if m > e { (mover.clone(), enemy.clone(), m - e) } else { (enemy.clone(), mover.clone(), e - m) };
        let loser_np = state.fleet_np(&loser);
        let np_lost = u32::try_from(diff).unwrap_or(0).min(loser_np);
        let left = loser_np - np_lost;
        let aboard = state.elements_aboard(&loser);
        // MG-18 / MG-30: the NPs lost may be recovered, d6 of 5 or more each, though the men
        // they carried may not. The loser did not hold the sea, and the other modifiers are
        // for land elements, so the roll is unmodified. Carried elements go down with the NPs
        // lost in the fight, before any come back; a fleet left with none sinks with all aboard
        // unless some are recovered.
        let mut np_recovered = 0;
        for _ in 0..np_lost {
            let roll = dice.roll(DiceSpec::D6, &format!("recovery of an NP lost at {place}"), Some(RuleId::MG_30), Vec::new())?;
            if roll.total() >= super::battle::RECOVERY_ROLL {
                np_recovered += 1;
            }
            events.push(Event::DiceRolled(DiceRolled { roll, side: Some(loser.clone()), visibility: Visibility::Side(loser.clone()) }));
        }
        let fleet_destroyed = left + np_recovered == 0;
        let commands_lost = if fleet_destroyed {
            state.counters.iter().filter(|c| c.side == loser && c.aboard).map(|c| c.name.clone()).collect()
        } else {
            Vec::new()
        };
        events.push(Event::NavalBattleFought {
            outcome: NavalOutcome {
                node: fleet.node,
                winner,
                loser,
                np_lost,
                np_recovered,
                fleet_destroyed,
                elements_to_lose: if fleet_destroyed { 0 } else { aboard.saturating_sub(left) },
                commands_lost,
            },
        });
    }
    Ok(events)
}

/// MG-18: the owner chooses which carried elements went down with the lost NPs. Generals'
/// elements are lost only with their whole command (`sunk`).
pub fn allocate_losses(
    state: &CampaignState,
    side: &SideId,
    lost: &[(String, ElementGroup)],
    sunk: &[String],
) -> Result<Vec<Event>, RuleError> {
    let due = state.naval.naval_losses_due.get(side).copied().unwrap_or(0);
    if due == 0 {
        return Err(RuleError::new(RuleId::MG_18, format!("{} has no elements to lose at sea", super::turn::side_name(state, side))));
    }
    let pool = Pool { rule: RuleId::MG_18, what: "aboard the fleet", holds: &|c| c.aboard };
    check_losses(state, side, due, &pool, lost, sunk)?;
    Ok(vec![Event::NavalLossesTaken { side: side.clone(), lost: lost.to_vec(), sunk: sunk.to_vec() }])
}

/// MG-19: a fleet shelters in a friendly, garrisoned, walled port in its side's movement
/// phase; it cannot then be made to fight, and every command aboard must first disembark.
pub fn shelter(state: &CampaignState, map: &Map, side: &SideId) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Movement || state.moving_side() != side {
        return Err(RuleError::new(RuleId::MG_19, "a fleet shelters in its side's movement phase"));
    }
    let fleet = state
        .counter(side, FLEET)
        .ok_or_else(|| RuleError::new(RuleId::MG_16, format!("{} has no fleet on the map", super::turn::side_name(state, side))))?;
    let node = fleet.node;
    let port = map.node(node).ok_or_else(|| RuleError::new(RuleId::MG_01, "the fleet's node is not on the map"))?;
    if !port.is_fortified() || !port.coastal {
        return Err(RuleError::new(RuleId::MG_19, format!("{} is not a walled port", port.name)));
    }
    let capital = state.scenario.side(side).and_then(|s| s.capital).is_some_and(|c| c.node == node);
    let friendly = capital || state.control.get(&node) == Some(side) || state.politics.city_allies.get(&node) == Some(side);
    if !friendly {
        return Err(RuleError::new(RuleId::MG_19, format!("{} is not friendly to {}", port.name, super::turn::side_name(state, side))));
    }
    if state.counters.iter().any(|c| &c.side == side && c.aboard) {
        return Err(RuleError::new(RuleId::MG_19, "every command aboard must disembark before the fleet shelters"));
    }
    let garrisoned = state.counters.iter().any(|c| &c.side == side && c.node == node && !c.is_fleet() && !c.aboard)
        || (capital && state.garrisons.get(side).is_some_and(|g| !g.is_empty()));
    if !garrisoned {
        return Err(RuleError::new(
            RuleId::MG_19,
            format!("{} has no garrison of {} to shelter the fleet", port.name, super::turn::side_name(state, side)),
        ));
    }
    if fleet.sheltered {
        return Err(RuleError::new(RuleId::MG_19, "the fleet is sheltered already"));
    }
    Ok(vec![Event::FleetSheltered { side: side.clone(), node }])
}

/// MG-36: allied fleets in one node join as one counter under the side that commands it; it
/// moves in that side's phase and carries only its troops.
pub fn combine_fleets(state: &CampaignState, side: &SideId, with: &SideId) -> Result<Vec<Event>, RuleError> {
    if !state.scenario.special_rules.contains(&super::scenario::SpecialRule::CombinedFleets) {
        return Err(RuleError::new(RuleId::MG_36, format!("fleets do not combine in {}", state.scenario.name)));
    }
    if state.phase != Phase::Movement || state.moving_side() != side {
        return Err(RuleError::new(RuleId::MG_36, "fleets combine in the commanding side's movement phase"));
    }
    if side == with || state.are_enemies(side, with) {
        return Err(RuleError::new(
            RuleId::MG_36,
            format!("{} and {} are not allies", super::turn::side_name(state, side), super::turn::side_name(state, with)),
        ));
    }
    let (Some(a), Some(b)) = (state.counter(side, FLEET), state.counter(with, FLEET)) else {
        return Err(RuleError::new(RuleId::MG_36, "both allies need a fleet on the map"));
    };
    if a.node != b.node {
        return Err(RuleError::new(RuleId::MG_36, "the two fleets must be brought together in one node"));
    }
    if state.naval.fleet_offers.get(with) != Some(side) {
        return Err(RuleError::new(
            RuleId::MG_36,
            format!(
                "{} has not put its fleet under {} command (`offer_fleet`): the allies choose the commander together",
                super::turn::side_name(state, with),
                possessive(&super::turn::side_name(state, side))
            ),
        ));
    }
    if state.counters.iter().any(|c| &c.side == with && c.aboard) {
        return Err(RuleError::new(
            RuleId::MG_36,
            format!(
                "{} troops must disembark first: the combined fleet carries only {}",
                possessive(&super::turn::side_name(state, with)),
                possessive(&super::turn::side_name(state, side))
            ),
        ));
    }
    Ok(vec![Event::FleetsCombined { commander: side.clone(), partner: with.clone(), np: state.fleet_np(with) }])
}

/// MG-36: a side puts its fleet under an ally's command; the ally combines them in its own
/// movement phase, where the two fleets meet.
pub fn offer_fleet(state: &CampaignState, side: &SideId, to: &SideId) -> Result<Vec<Event>, RuleError> {
    if !state.scenario.special_rules.contains(&super::scenario::SpecialRule::CombinedFleets) {
        return Err(RuleError::new(RuleId::MG_36, format!("fleets do not combine in {}", state.scenario.name)));
    }
    let name = |s: &SideId| super::turn::side_name(state, s);
    if side == to || !state.is_side(to) || state.are_enemies(side, to) {
        return Err(RuleError::new(RuleId::MG_36, format!("{} and {} are not allies", name(side), name(to))));
    }
    if state.naval.combined_fleet.is_some() {
        return Err(RuleError::new(RuleId::MG_36, "the allied fleets are combined already"));
    }
    if state.counter(side, FLEET).is_none() {
        return Err(RuleError::new(RuleId::MG_36, format!("{} has no fleet on the map to offer", name(side))));
    }
    if state.naval.fleet_offers.get(side) == Some(to) {
        return Err(RuleError::new(
            RuleId::MG_36,
            format!("{} fleet is under {} command already", possessive(&name(side)), possessive(&name(to))),
        ));
    }
    Ok(vec![Event::FleetOffered { side: side.clone(), to: to.clone() }])
}

/// The commands a side may take chosen losses from.
pub(crate) struct Pool<'a> {
    pub rule: RuleId,
    /// Where the commands are, for the refusal: "aboard the fleet", "at Motya".
    pub what: &'a str,
    pub holds: &'a dyn Fn(&super::turn::Counter) -> bool,
}

/// Checks a choice of losses: groups from commands in the pool (never a general's element
/// but with his whole command, `sunk`), adding up to exactly `due` elements.
pub(crate) fn check_losses(
    state: &CampaignState,
    side: &SideId,
    due: u32,
    pool: &Pool<'_>,
    lost: &[(String, ElementGroup)],
    sunk: &[String],
) -> Result<(), RuleError> {
    let army = state
        .armies
        .get(side)
        .ok_or_else(|| RuleError::new(RuleId::MG_03, format!("{} has no army", super::turn::side_name(state, side))))?;
    let in_pool = |name: &str| state.counter(side, name).is_some_and(|c| (pool.holds)(c));
    let roster = |name: &String| {
        army.commands
            .iter()
            .find(|c| &c.name == name && in_pool(name))
            .ok_or_else(|| RuleError::new(pool.rule, format!("{name} is not {}", pool.what)))
    };
    let mut total = 0;
    for name in sunk {
        // A leaderless command's general is gone already (MG-31).
        total += state.command_elements(side, roster(name)?);
    }
    let mut left: BTreeMap<&str, Vec<ElementGroup>> = BTreeMap::new();
    for (name, group) in lost {
        if sunk.contains(name) {
            return Err(RuleError::new(pool.rule, format!("{name} is lost whole already")));
        }
        let r = roster(name)?;
        let have = left.entry(name.as_str()).or_insert_with(|| r.elements.clone());
        if super::army::take_groups(have, std::slice::from_ref(group)).is_err() {
            return Err(RuleError::new(
                pool.rule,
                format!("{name} has too few {} to lose {} (a general goes down only with his whole command)", group.spec, group.count),
            ));
        }
        total += group.count;
    }
    if total != due {
        return Err(RuleError::new(
            pool.rule,
            format!("{} must lose exactly {due} elements, not {total}", super::turn::side_name(state, side)),
        ));
    }
    Ok(())
}

/// MG-15: a beaten fleet retreats 1 to 3 coastal nodes in post-combat movement, never toward
/// an enemy fleet. A fleet with nowhere to go is destroyed when the phase ends.
pub fn retreat_fleet(state: &CampaignState, map: &Map, side: &SideId, path: &[NodeId]) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::PostCombat {
        return Err(RuleError::new(RuleId::MG_15, "retreats are made in post-combat movement"));
    }
    if !state.naval.retreats_due.contains(side) {
        return Err(RuleError::new(
            RuleId::MG_15,
            format!("{} fleet has no retreat to make", possessive(&super::turn::side_name(state, side))),
        ));
    }
    let legal = state.fleet_retreats(map, side);
    let Some(&last) = path.last() else {
        return Err(RuleError::new(RuleId::MG_15, "a retreat is at least one node"));
    };
    let from = state.counter(side, FLEET).map_or(last, |f| f.node);
    let joined = std::iter::once(from).chain(path.iter().copied()).collect::<Vec<_>>().windows(2).all(|w| map.is_path(w[0], w[1]));
    let open = legal.contains_key(&last) && path.iter().all(|&n| state.fleet_may_retreat_through(map, side, n));
    if !joined || !open || path.len() > usize::from(super::turn::FLEET_MP) {
        return Err(RuleError::new(
            RuleId::MG_15,
            format!(
                "the fleet may retreat only along paths to coastal nodes free of enemy fleets, 1 to 3 nodes, and not stop with enemy land counters: not {}",
                route(map, path)
            ),
        ));
    }
    Ok(vec![Event::FleetRetreated { side: side.clone(), from, path: path.to_vec() }])
}

fn route(map: &Map, path: &[NodeId]) -> String {
    path.iter().map(|n| map.name(*n)).collect::<Vec<_>>().join(" → ")
}

impl CampaignState {
    pub(crate) fn apply_naval(&mut self, event: &Event) {
        match event {
            Event::NavalBattleFought { outcome } => {
                let loser = &outcome.loser;
                let np = self.fleet_np(loser);
                let sunk = outcome.np_sunk();
                self.naval.fleet_np.insert(loser.clone(), np.saturating_sub(sunk));
                // NPs sunk by a combined fleet are shared by the two allies (MG-36).
                match &self.naval.combined_fleet {
                    Some((commander, _)) if commander == &outcome.winner => self.naval.np_destroyed_combined += sunk,
                    _ => *self.naval.np_destroyed.entry(outcome.winner.clone()).or_default() += sunk,
                }
                if outcome.fleet_destroyed {
                    for name in &outcome.commands_lost {
                        self.lose_command(loser, name, Some(outcome.winner.clone()));
                    }
                    self.counters.retain(|c| !(&c.side == loser && c.is_fleet()));
                } else {
                    if outcome.elements_to_lose > 0 {
                        *self.naval.naval_losses_due.entry(loser.clone()).or_default() += outcome.elements_to_lose;
                        self.naval.naval_victor.insert(loser.clone(), outcome.winner.clone());
                    }
                    if !self.naval.retreats_due.contains(loser) {
                        self.naval.retreats_due.push(loser.clone());
                    }
                }
            }
            Event::NavalLossesTaken { side, lost, sunk } => {
                self.naval.naval_losses_due.remove(side);
                let victor = self.naval.naval_victor.remove(side);
                self.take_losses(side, lost, sunk, victor.as_ref());
            }
            Event::FleetOffered { side, to } => {
                self.naval.fleet_offers.insert(side.clone(), to.clone());
            }
            Event::FleetsCombined { commander, partner, np } => {
                self.naval.fleet_offers.clear();
                self.counters.retain(|c| !(&c.side == partner && c.is_fleet()));
                self.naval.fleet_np.insert(partner.clone(), 0);
                *self.naval.fleet_np.entry(commander.clone()).or_default() += np;
                self.naval.combined_fleet = Some((commander.clone(), partner.clone()));
            }
            Event::FleetSheltered { side, .. } => {
                if let Some(f) = self.counters.iter_mut().find(|c| &c.side == side && c.is_fleet()) {
                    f.sheltered = true;
                }
            }
            Event::ShelteredFleetsLost { node, besieger, fleets, salvaged } => {
                for (side, np) in fleets {
                    self.counters.retain(|c| !(&c.side == side && c.is_fleet()));
                    self.naval.fleet_np.insert(side.clone(), 0);
                    *self.naval.np_destroyed.entry(besieger.clone()).or_default() += np;
                }
                if *salvaged > 0 {
                    match self.counters.iter().find(|c| &c.side == besieger && c.is_fleet()).map(|f| f.node) {
                        Some(at) if at == *node => *self.naval.fleet_np.entry(besieger.clone()).or_default() += salvaged,
                        Some(_) => {
                            self.naval.salvage.insert(besieger.clone(), (*node, *salvaged));
                        }
                        None => {
                            self.counters.push(super::turn::Counter::placed(besieger, FLEET, *node));
                            self.naval.fleet_np.insert(besieger.clone(), *salvaged);
                        }
                    }
                }
            }
            Event::FleetRetreated { side, path, .. } => {
                self.naval.retreats_due.retain(|s| s != side);
                if let Some(&last) = path.last() {
                    // Driven out to sea, a fleet is sheltered no more (MG-19).
                    for c in self.counters.iter_mut().filter(|c| &c.side == side && (c.is_fleet() || c.aboard)) {
                        c.node = last;
                        c.sheltered = false;
                    }
                }
            }
            Event::FleetDestroyed { side, commands_lost } => {
                self.naval.retreats_due.retain(|s| s != side);
                self.naval.fleet_np.insert(side.clone(), 0);
                for name in commands_lost {
                    self.lose_command(side, name, None);
                }
                self.counters.retain(|c| !(&c.side == side && c.is_fleet()));
            }
            _ => {}
        }
    }

    /// Chosen losses: groups off their commands, whole commands lost with their commanders.
    pub(crate) fn take_losses(&mut self, side: &SideId, lost: &[(String, ElementGroup)], sunk: &[String], by: Option<&SideId>) {
        for name in sunk {
            self.lose_command(side, name, by.cloned());
        }
        if let Some(army) = self.armies.get_mut(side) {
            let mut count = 0;
            for (name, group) in lost {
                if let Some(roster) = army.commands.iter_mut().find(|c| &c.name == name)
                    && super::army::take_groups(&mut roster.elements, std::slice::from_ref(group)).is_ok()
                {
                    count += group.count;
                }
            }
            *self.losses.elements_lost.entry(side.clone()).or_default() += count;
        }
    }

    /// A whole command lost: its counter leaves the map, its elements are counted lost, and
    /// its commander is scored to `by` (MG-33).
    pub(crate) fn lose_command(&mut self, side: &SideId, name: &str, by: Option<SideId>) {
        self.counters.retain(|c| !(&c.side == side && c.name == name));
        if let Some(army) = self.armies.get_mut(side)
            && let Some(i) = army.commands.iter().position(|c| c.name == name)
        {
            let roster = army.commands.remove(i);
            // A leaderless command's general is counted lost already (MG-31), and scored to
            // whoever beat him then (MG-33).
            let lost = self.command_elements(side, &roster);
            let headless = self.losses.leaderless.remove(&(side.clone(), name.to_owned()));
            *self.losses.elements_lost.entry(side.clone()).or_default() += lost;
            if !headless {
                self.losses.commanders_lost.push(super::battle::CommanderLost { side: side.clone(), command: name.to_owned(), by });
            }
        }
        self.check_army_destroyed(side);
    }

    /// MG-36: a side with no capital is beaten only when its whole army is destroyed.
    pub(crate) fn check_army_destroyed(&mut self, side: &SideId) {
        let capital = self.scenario.side(side).is_some_and(|s| s.capital.is_some());
        let gone = self.armies.get(side).is_none_or(|a| a.commands.is_empty());
        if !capital && gone && !self.politics.eliminated.contains(side) {
            self.eliminate(side);
        }
    }
}

/// MG-15: fleets owing a retreat with nowhere to go are destroyed as post-combat movement ends.
pub(crate) fn trapped_fleets(state: &CampaignState, map: &Map) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    for side in &state.naval.retreats_due {
        if !state.fleet_retreats(map, side).is_empty() {
            return Err(RuleError::new(
                RuleId::MG_15,
                format!("{} beaten fleet must retreat before post-combat movement ends", possessive(&super::turn::side_name(state, side))),
            ));
        }
        events.push(Event::FleetDestroyed {
            side: side.clone(),
            commands_lost: state.counters.iter().filter(|c| &c.side == side && c.aboard).map(|c| c.name.clone()).collect(),
        });
    }
    Ok(events)
}
