//! After the tabletop battle: the result record the referee enters, recovery rolls (MG-30),
//! lost commanders (MG-31), the loser's retreat (MG-15) and victory points (MG-33).
//!
//! The record is the shape the results form fills. A battle without a loser (MG-25: stay or
//! retire, a second day) is refused for now with its rule.

use crate::core::log::DiceRolled;
use crate::core::rule::RuleId;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::army::{CommandRoster, ElementGroup, Grade, Rank};
use super::event::{Event, Visibility};
use super::map::Map;
use super::state::CampaignState;
use super::turn::{Battle, Phase, STACK_LIMIT};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::ids::{NodeId, SideId};

/// Recovery needs this on a d6, modified (MG-30).
pub const RECOVERY_ROLL: i32 = 5;

/// How the battle ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Outcome {
    Won {
        winner: SideId,
    },
    /// Night, both armies broken in one bound, or mutual consent (MG-25).
    NoResult {},
}

/// What one command lost on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandLosses {
    pub side: SideId,
    pub command: String,
    /// Elements destroyed (not the general's: see `general_killed`).
    #[serde(default)]
    pub destroyed: Vec<ElementGroup>,
    /// Inferior elements that fled off a table edge (MG-26): counted destroyed, and rolled for.
    #[serde(default)]
    pub fled: Vec<ElementGroup>,
    #[serde(default)]
    pub general_killed: bool,
    #[serde(default)]
    pub demoralised: bool,
    /// Declared demoralised by its own side at the end of a bound (MG-23): demoralised for
    /// good. Only a side's own commands, not allied ones, may be.
    #[serde(default)]
    pub voluntary: bool,
    /// The friendly command in the node that takes the elements if the general is lost for
    /// good (MG-31); without one the command fights on leaderless.
    #[serde(default)]
    pub join: Option<String>,
}

impl CommandLosses {
    /// Demoralised on the table, whether by the enemy or by its own side's declaration (MG-23).
    pub fn is_demoralised(&self) -> bool {
        self.demoralised || self.voluntary
    }

    /// Every one of the command's `elements` (its general's apart) is listed destroyed or
    /// fled, and its general killed or long gone (`headless`): the recovery dice may leave
    /// nothing of it, so it cannot be counted on to take in a lost general's men (MG-31).
    pub fn loses_whole(&self, elements: &[ElementGroup], headless: bool) -> bool {
        let listed: u32 = self.destroyed.iter().chain(&self.fled).map(|g| g.count).sum();
        (self.general_killed || headless) && listed >= elements.iter().map(|g| g.count).sum::<u32>()
    }
}

/// The result of a battle as the referee types it in after the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleResult {
    pub battle: u32,
    pub outcome: Outcome,
    /// The side that held the field: +2 to its recovery rolls (MG-30). Normally the winner.
    #[serde(default)]
    pub held_field: Option<SideId>,
    /// Every command that lost anything; commands not listed lost nothing.
    #[serde(default)]
    pub losses: Vec<CommandLosses>,
    /// For each side, the neighbouring nodes whose roads were still open at the end of the
    /// battle (MG-15); a side not listed may retreat by any road.
    #[serde(default)]
    pub open_roads: BTreeMap<SideId, Vec<NodeId>>,
    /// A side that attacked the neutral city of the node during the battle (MG-08): the city
    /// joins the side it did not attack.
    #[serde(default)]
    pub city_attacked_by: Option<SideId>,
}

/// What became of one command after recovery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandAftermath {
    pub side: SideId,
    pub command: String,
    /// Elements lost for good after the recovery rolls.
    pub lost: Vec<ElementGroup>,
    pub general_lost: bool,
    /// Where its elements went when the general was lost (MG-31).
    pub joined: Option<String>,
    pub leaderless: bool,
    /// Nothing is left of the command.
    pub destroyed: bool,
    /// The enemy who beat it, for victory points (MG-33).
    pub by: Option<SideId>,
    /// One of the commands of the city at this node (MG-05, MG-07), not a side's own.
    #[serde(default)]
    pub city: Option<NodeId>,
    /// Demoralised on the table, and whether its own side declared it so (MG-23).
    #[serde(default)]
    pub demoralised: bool,
    #[serde(default)]
    pub voluntary: bool,
}

/// A commander lost for good, and who beat him (MG-33 scores it for that side).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommanderLost {
    pub side: SideId,
    pub command: String,
    pub by: Option<SideId>,
}

/// Victory points and what they are for (MG-33).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    /// Cities allied now that were neutral or hostile at the start.
    pub cities: Vec<NodeId>,
    pub commanders: u32,
    pub enemy_np_destroyed: u32,
    /// Enemy capitals held, with what each is worth.
    pub capitals: Vec<(NodeId, u32)>,
    /// Commands led off the map through Messena, 2 VP each (MG-34).
    pub exits: u32,
    pub total: u32,
}

/// Standard points for taking an enemy capital (MG-33).
pub const CAPITAL_VP: u32 = 10;
/// Points for each Pyrrhic command led off the map through Messena (MG-34).
pub const EXIT_VP: u32 = 2;

impl CampaignState {
    /// MG-33: each side's victory points, computed from the campaign as it stands.
    pub fn victory_points(&self) -> BTreeMap<SideId, Victory> {
        let start = self.scenario.initial_city_allies();
        self.scenario
            .sides
            .iter()
            .map(|s| {
                let side = &s.id;
                // An enemy capital taken scores its own points below and not also as a city
                // now allied: the rules price taking Syracuse at "20 VP rather than the usual
                // 10", a whole, not 10 and 1 (MG-33, MG-36).
                let enemy_capitals: Vec<NodeId> = self
                    .scenario
                    .sides
                    .iter()
                    .filter(|o| self.are_enemies(side, &o.id))
                    .filter_map(|o| o.capital.map(|c| c.node))
                    .collect();
                let cities: Vec<NodeId> = self
                    .politics
                    .city_allies
                    .iter()
                    .filter(|(n, a)| *a == side && start.get(*n) != Some(side))
                    .filter(|(n, _)| !(enemy_capitals.contains(n) && self.control.get(*n) == Some(side)))
                    .map(|(n, _)| *n)
                    .collect();
                let commanders = u32::try_from(
                    self.losses.commanders_lost.iter().filter(|l| l.by.as_ref() == Some(side) && self.are_enemies(side, &l.side)).count(),
                )
                .unwrap_or(u32::MAX);
                // A combined fleet's sinkings are split between the allies, fractions lost (MG-36).
                let shared = match &self.naval.combined_fleet {
                    Some((a, b)) if a == side || b == side => self.naval.np_destroyed_combined / 5 / 2,
                    _ => 0,
                };
                let np = self.naval.np_destroyed.get(side).copied().unwrap_or(0);
                let capitals: Vec<(NodeId, u32)> = enemy_capitals
                    .iter()
                    .copied()
                    .filter(|n| self.control.get(n) == Some(side))
                    .map(|n| {
                        let vp = self.scenario.capture_vps.iter().find(|c| c.node == n && &c.side == side).map_or(CAPITAL_VP, |c| c.vp);
                        (n, vp)
                    })
                    .collect();
                let exits = u32::try_from(self.politics.exits.iter().filter(|(s, _)| s == side).count()).unwrap_or(0);
                let total = u32::try_from(cities.len()).unwrap_or(u32::MAX)
                    + commanders
                    + np / 5
                    + shared
                    + capitals.iter().map(|(_, v)| v).sum::<u32>()
                    + EXIT_VP * exits;
                (side.clone(), Victory { cities, commanders, enemy_np_destroyed: np, capitals, exits, total })
            })
            .collect()
    }

    /// MG-15: where a beaten land counter may retreat now: 1 node up to its MP, along paths,
    /// through and into nodes free of enemy land counters, first toward a node whose road was
    /// open, ending where its side has fewer than four land counters.
    pub fn land_retreats(&self, map: &Map, side: &SideId, name: &str) -> BTreeMap<NodeId, Vec<NodeId>> {
        let mut out = BTreeMap::new();
        let Some(due) = self.losses.land_retreats_due.iter().find(|r| &r.side == side && r.command == name) else { return out };
        let Some(counter) = self.counter(side, name) else { return out };
        let enemy_land = |n: NodeId| self.counters.iter().any(|c| c.node == n && c.on_land() && self.are_enemies(side, &c.side));
        let own = |n: NodeId| self.counters.iter().filter(|c| &c.side == side && c.on_land() && c.node == n && c.name != name).count();
        let mut frontier = vec![(counter.node, Vec::new())];
        for step in 0..self.movement_points(counter).max(1) {
            let mut next = Vec::new();
            for (at, path) in frontier {
                for n in map.neighbours(at) {
                    let first_ok = step > 0 || due.open_roads.as_ref().is_none_or(|open| open.contains(&n));
                    if n == counter.node || out.contains_key(&n) || enemy_land(n) || !first_ok {
                        continue;
                    }
                    let mut p: Vec<NodeId> = path.clone();
                    p.push(n);
                    if own(n) < STACK_LIMIT {
                        out.insert(n, p.clone());
                    }
                    next.push((n, p));
                }
            }
            frontier = next;
        }
        out
    }

    /// MG-15 / MG-25: the sides with a land retreat still to make and a way out, in order; a
    /// counter with no way out waits only to be destroyed, and holds up nobody.
    pub fn sides_to_retreat(&self, map: &Map) -> Vec<SideId> {
        let mut sides: Vec<SideId> = self
            .losses
            .land_retreats_due
            .iter()
            .filter(|r| !self.land_retreats(map, &r.side, &r.command).is_empty())
            .map(|r| r.side.clone())
            .collect();
        sides.sort();
        sides.dedup();
        sides
    }
}

/// A land counter that owes a retreat after losing a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetreatDue {
    pub side: SideId,
    pub command: String,
    /// The neighbouring nodes whose roads were open; `None` for all.
    pub open_roads: Option<Vec<NodeId>>,
    /// The winner, who scores the commander if the counter cannot get away (MG-33).
    pub by: SideId,
}

/// Takes a battle result: checks it against the battle, rolls recovery for every lost
/// element (MG-30), settles lost commanders (MG-31) and sets the loser's retreats (MG-15).
pub fn record_result(state: &CampaignState, map: &Map, result: &BattleResult, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Combat {
        return Err(RuleError::new(RuleId::MG_20, "battle results are entered in the combat phase"));
    }
    let battle = state
        .battles
        .iter()
        .find(|b| b.id == result.battle)
        .ok_or_else(|| RuleError::new(RuleId::MG_20, format!("there is no battle {} waiting for its result", result.battle)))?;
    let place = map.name(battle.node);
    let sides: BTreeSet<&SideId> = std::iter::once(&battle.attacker).chain(&battle.defenders).collect();
    if battle.awaiting_choices {
        return Err(RuleError::new(RuleId::MG_25, format!("battle {} waits for each side's choice to stay or retire", battle.id)));
    }
    let winner = match &result.outcome {
        Outcome::Won { winner } => Some(winner),
        Outcome::NoResult {} => None,
    };
    if let Some(w) = winner
        && !sides.contains(w)
    {
        return Err(RuleError::new(RuleId::MG_20, format!("{} did not fight at {place}", super::turn::side_name(state, w))));
    }
    if let Some(by) = &result.city_attacked_by {
        if !sides.contains(by) {
            return Err(RuleError::new(RuleId::MG_08, format!("{} did not fight at {place}", super::turn::side_name(state, by))));
        }
        if !state.is_neutral_city(map, battle.node) {
            return Err(RuleError::new(RuleId::MG_08, format!("there is no neutral city at {place} to attack")));
        }
    }
    // MG-25: after a battle without a loser nobody holds the field.
    let held = match (winner, &result.held_field) {
        (None, Some(h)) => {
            return Err(RuleError::new(RuleId::MG_25, format!("nobody holds the field after a battle without a loser, not {h}")));
        }
        (None, None) => None,
        (Some(w), h) => Some(h.as_ref().unwrap_or(w)),
    };
    if let Some(h) = held
        && !sides.contains(h)
    {
        return Err(RuleError::new(
            RuleId::MG_30,
            format!("{} did not fight at {place}, so cannot have held the field", super::turn::side_name(state, h)),
        ));
    }
    // MG-15: the loser retreats, so the field is held by the winner or a side beside it.
    if let (Some(w), Some(h)) = (winner, held)
        && state.are_enemies(w, h)
    {
        return Err(RuleError::new(
            RuleId::MG_30,
            format!(
                "{} lost at {place} and retreats, so cannot have held the field; {} won",
                super::turn::side_name(state, h),
                super::turn::side_name(state, w)
            ),
        ));
    }
    for (s, roads) in &result.open_roads {
        if !sides.contains(s) {
            return Err(RuleError::new(RuleId::MG_15, format!("{} did not fight at {place}", super::turn::side_name(state, s))));
        }
        // An open road leads from the battle's node to a neighbour along a path of the map.
        if let Some(n) = roads.iter().find(|n| !map.is_path(battle.node, **n)) {
            let what =
                if map.node(*n).is_some() { format!("{} ({n})", map.name(*n)) } else { format!("node {n}, which is not on the map") };
            return Err(RuleError::new(
                RuleId::MG_15,
                format!(
                    "{} open roads lead to the neighbours of {place}, and {what} is not one",
                    crate::core::words::possessive(&super::turn::side_name(state, s))
                ),
            ));
        }
    }
    let city_forces = battle.city.map(|n| state.city_forces(map, n)).unwrap_or_default();
    let city_side = battle.city.and_then(|n| state.politics.city_allies.get(&n)).filter(|s| sides.contains(s));
    let is_city = |side: &SideId, name: &str| city_side == Some(side) && city_forces.iter().any(|c| c.name == name);
    let there = |side: &SideId, name: &str| {
        is_city(side, name) || state.counters.iter().any(|c| &c.side == side && c.name == name && c.node == battle.node && c.on_land())
    };
    let mut seen = BTreeSet::new();
    let mut aftermath = Vec::new();
    let mut events = Vec::new();
    // MG-05: the first time a city's commands fight, they take the field at full strength.
    if let Some(node) = battle.city
        && !state.siege.city_forces_left.contains_key(&node)
    {
        events.push(Event::CityForcesMustered { node, forces: city_forces.clone() });
    }
    // Every line is checked before any die is rolled, so that where a lost general's men go
    // (MG-31) is checked against what the result does to every command at the node.
    let mut entries = Vec::new();
    for l in &result.losses {
        if !sides.contains(&l.side) || !there(&l.side, &l.command) {
            return Err(RuleError::new(
                RuleId::MG_20,
                format!("{} of {} did not fight at {place}", l.command, super::turn::side_name(state, &l.side)),
            ));
        }
        if !seen.insert((&l.side, &l.command)) {
            return Err(RuleError::new(RuleId::MG_20, format!("{} is listed twice", l.command)));
        }
        let roster = if is_city(&l.side, &l.command) {
            city_forces.iter().find(|c| c.name == l.command)
        } else {
            state.armies.get(&l.side).and_then(|a| a.commands.iter().find(|c| c.name == l.command))
        };
        let Some(roster) = roster else {
            return Err(RuleError::new(RuleId::MG_03, format!("{} has no roster", l.command)));
        };
        let mut have = roster.elements.clone();
        if let Err(g) = super::army::take_groups(&mut have, &l.destroyed).and_then(|()| super::army::take_groups(&mut have, &l.fled)) {
            let n: u32 = roster.elements.iter().filter(|h| h.spec == g.spec).map(|h| h.count).sum();
            return Err(RuleError::new(
                RuleId::MG_30,
                format!("{} had {n} {} and cannot have lost {} (destroyed and fled together)", l.command, g.spec, g.count),
            ));
        }
        if let Some(g) = l.fled.iter().find(|g| g.spec.grade != Grade::I) {
            return Err(RuleError::new(RuleId::MG_26, format!("only inferior elements count as lost when they flee, not {}", g.spec)));
        }
        // MG-23: only a side's own commands may be declared demoralised, not allied ones.
        if l.voluntary && (is_city(&l.side, &l.command) || roster.rank == Rank::AllyGeneral) {
            return Err(RuleError::new(
                RuleId::MG_23,
                format!("{} is an allied command, and only a side's own commands may be declared demoralised", l.command),
            ));
        }
        // A leaderless command has no general left to lose (MG-31).
        let headless = !is_city(&l.side, &l.command) && state.losses.leaderless.contains(&(l.side.clone(), l.command.clone()));
        if headless && l.general_killed {
            return Err(RuleError::new(RuleId::MG_31, format!("{} has no general left to be killed", l.command)));
        }
        if let Some(j) = &l.join {
            if !l.general_killed {
                return Err(RuleError::new(RuleId::MG_31, format!("{} joins {j} only if its general is lost", l.command)));
            }
            if j == &l.command || !there(&l.side, j) {
                return Err(RuleError::new(
                    RuleId::MG_31,
                    format!("{j} is not another {} command at {place}", super::turn::side_name(state, &l.side)),
                ));
            }
            // A side's men go to one of its own commands, and a city's to another of the city's:
            // the two rosters are kept apart (MG-05).
            if is_city(&l.side, j) != is_city(&l.side, &l.command) {
                return Err(RuleError::new(
                    RuleId::MG_31,
                    format!("{} and {j} are not of one army: a city's commands and a side's own do not merge", l.command),
                ));
            }
        }
        entries.push(Entry { l, roster, headless, city: is_city(&l.side, &l.command) });
    }
    // The commands standing at the node that a lost general's men could join: each side's
    // counters there, and the city's commands fighting beside their ally.
    let standing: Vec<Standing<'_>> = state
        .counters
        .iter()
        .filter(|c| c.node == battle.node && c.on_land() && sides.contains(&c.side))
        .map(|c| Standing {
            side: &c.side,
            name: &c.name,
            city: false,
            headless: state.losses.leaderless.contains(&(c.side.clone(), c.name.clone())),
        })
        .chain(
            city_side
                .into_iter()
                .flat_map(|s| city_forces.iter().map(move |c| Standing { side: s, name: &c.name, city: true, headless: false })),
        )
        .collect();
    check_joins(&entries, &standing, &place)?;
    for &Entry { l, roster, headless, .. } in &entries {
        // MG-30: every lost element and fled inferior element rolls d6; 5 or more recovers it.
        // Reading of the modifiers: "command element" is the general's own element, and
        // "elements of a command whose leader was killed" are the others of that command. Read
        // so, each modifier changes some roll; were the -1 to fall on the general's element too,
        // the +1 (which only ever applies when the general fell) would never change anything.
        // An allied element is an ally-general's or a city's command's (MG-05: they fight as
        // allied commands).
        let mut common = Vec::new();
        if held == Some(&l.side) {
            common.push(Modifier { value: 2, reason: "held the field".into() });
        }
        if roster.rank == Rank::AllyGeneral || is_city(&l.side, &l.command) {
            common.push(Modifier { value: -1, reason: "allied element".into() });
        }
        let mut others = common.clone();
        if l.general_killed {
            others.push(Modifier { value: -1, reason: "its leader was killed".into() });
        }
        // what a command lost and got back is its own side's business (MG-03 keeps the
        // composition of commands hidden): the rolls, which name the command and its elements,
        // are shown to that side and the umpire only. The other sides learn what the table and
        // the rules make public — destroyed commands and lost generals — from the result itself.
        let secret = Visibility::Side(l.side.clone());
        let mut lost = Vec::new();
        for g in l.destroyed.iter().chain(&l.fled) {
            let mut gone = 0;
            for _ in 0..g.count {
                let roll =
                    dice.roll(DiceSpec::D6, &format!("recovery of {} of {}", g.spec, l.command), Some(RuleId::MG_30), others.clone())?;
                if roll.total() < RECOVERY_ROLL {
                    gone += 1;
                }
                events.push(Event::DiceRolled(DiceRolled { roll, side: Some(l.side.clone()), visibility: secret.clone() }));
            }
            if gone > 0 {
                lost.push(ElementGroup { count: gone, spec: g.spec.clone() });
            }
        }
        let mut general_lost = false;
        if l.general_killed {
            let mut mods = common.clone();
            mods.push(Modifier { value: 1, reason: "command element".into() });
            let roll = dice.roll(DiceSpec::D6, &format!("recovery of {}'s general", l.command), Some(RuleId::MG_30), mods)?;
            general_lost = roll.total() < RECOVERY_ROLL;
            events.push(Event::DiceRolled(DiceRolled { roll, side: Some(l.side.clone()), visibility: secret.clone() }));
        }
        let lost_count: u32 = lost.iter().map(|g| g.count).sum();
        let left = roster.element_count() - lost_count - u32::from(general_lost) - u32::from(headless);
        let by = if l.side == battle.attacker {
            battle.defenders.iter().find(|d| state.are_enemies(&l.side, d)).cloned()
        } else {
            Some(battle.attacker.clone())
        };
        aftermath.push(CommandAftermath {
            city: is_city(&l.side, &l.command).then_some(battle.node),
            by,
            side: l.side.clone(),
            command: l.command.clone(),
            lost,
            general_lost,
            // Settled below, once every general's recovery roll is known.
            leaderless: false,
            joined: None,
            destroyed: left == 0,
            demoralised: l.is_demoralised(),
            voluntary: l.voluntary,
        });
    }
    let hosts: Vec<Option<String>> = (0..aftermath.len()).map(|i| host(i, &entries, &aftermath)).collect();
    for (a, joined) in aftermath.iter_mut().zip(hosts) {
        a.leaderless = a.general_lost && joined.is_none() && !a.destroyed;
        a.joined = joined;
    }
    let Some(winner) = winner else {
        events.push(Event::BattleDrawn { battle: result.battle, node: battle.node, aftermath });
        return Ok(events);
    };
    let losers: Vec<SideId> = sides.iter().filter(|s| state.are_enemies(winner, s)).map(|s| (*s).clone()).collect();
    let retreats = retreats_from(state, battle, &losers, &aftermath, &result.open_roads, |_| winner.clone());
    // MG-24: a city's demoralised commands flee into their city; where the enemy holds it
    // they surrender, and the city turns next campaign turn to the side holding it.
    let holder = state.control.get(&battle.node).filter(|h| city_side.is_some_and(|c| state.are_enemies(c, h)));
    let surrendered: Vec<String> =
        result.losses.iter().filter(|l| l.is_demoralised() && is_city(&l.side, &l.command)).map(|l| l.command.clone()).collect();
    if let (Some(holder), false) = (holder, surrendered.is_empty()) {
        events.push(Event::CityCommandsSurrendered { node: battle.node, commands: surrendered, to: holder.clone() });
    }
    // MG-07: a city's beaten forces become allies of the victor. MG-08: a city attacked in a
    // battle between others joins the side that did not attack it.
    let city_joins = match (battle.city, &result.city_attacked_by) {
        (Some(_), _) if battle.city_attack && winner == &battle.attacker => Some(winner.clone()),
        (None, Some(by)) => sides.iter().find(|s| state.are_enemies(by, s)).map(|s| (*s).clone()),
        _ => None,
    };
    events.push(Event::BattleResolved { battle: result.battle, node: battle.node, winner: winner.clone(), aftermath, retreats });
    if let Some(side) = city_joins {
        // MG-32: a capital whose own commands are beaten is taken with them.
        let owner = state.scenario.sides.iter().find(|o| {
            o.capital.is_some_and(|c| c.node == battle.node)
                && state.are_enemies(&side, &o.id)
                && !state.politics.eliminated.contains(&o.id)
                && state.politics.city_allies.get(&battle.node) == Some(&o.id)
        });
        let taken = owner.map(|o| Event::CapitalTaken {
            node: battle.node,
            by: side.clone(),
            from: o.id.clone(),
            knock_on: state.knock_on(battle.node, &side, &o.id),
        });
        events.push(Event::CityJoined { node: battle.node, side: side.clone(), takes_node: true });
        events.extend(taken);
        // MG-19: ships its enemies had sheltered in the city are lost with it.
        events.extend(super::siege::sheltered_fleets_lost(state, battle.node, &side, &map.name(battle.node), dice)?);
    }
    Ok(events)
}

/// One line of a result, checked: the command's roster and whether it had lost its general
/// before this battle.
struct Entry<'a> {
    l: &'a CommandLosses,
    roster: &'a CommandRoster,
    headless: bool,
    /// One of the city's commands, not the side's own.
    city: bool,
}

/// A command standing at the battle's node, listed in the result or not.
struct Standing<'a> {
    side: &'a SideId,
    name: &'a str,
    city: bool,
    /// Leaderless since an earlier battle (MG-31).
    headless: bool,
}

/// MG-31: a general killed on the table may not be recovered, and his men must then join
/// another friendly command at the node: another of his side's, or for a city's command
/// another of the city's. The dice are not rolled yet, so the result names the command for
/// each general killed, and the join holds only if he is lost. A command the result loses
/// whole (every element, and its general) cannot take them in, since the dice may leave
/// nothing of it; every other one can, even one whose own general fell, which may yet be
/// recovered. So the men may be left leaderless only when no command but those lost whole
/// stands beside them; and commands whose generals all fell may not send their men round a
/// ring of one another while a command still led stands there to take them.
fn check_joins(entries: &[Entry<'_>], standing: &[Standing<'_>], place: &str) -> Result<(), RuleError> {
    let entry = |side: &SideId, name: &str| entries.iter().find(|e| &e.l.side == side && e.l.command == name);
    let whole = |s: &Standing<'_>| entry(s.side, s.name).is_some_and(|e| e.l.loses_whole(&e.roster.elements, e.headless));
    let is_led = |s: &Standing<'_>| !s.headless && entry(s.side, s.name).is_none_or(|e| !e.l.general_killed);
    let peers = |e: &Entry<'_>| -> Vec<&Standing<'_>> {
        standing.iter().filter(|s| s.side == &e.l.side && s.city == e.city && s.name != e.l.command).collect()
    };
    for e in entries.iter().filter(|e| e.l.general_killed) {
        let command = &e.l.command;
        let open: Vec<&str> = peers(e).into_iter().filter(|s| !whole(s)).map(|s| s.name).collect();
        match &e.l.join {
            None if !open.is_empty() => {
                let (verb, which) = if open.len() == 1 { ("stands", open[0].to_owned()) } else { ("stand", "one of them".to_owned()) };
                return Err(RuleError::new(
                    RuleId::MG_31,
                    format!(
                        "{command}'s general was killed and {} {verb} with his men at {place}, so the result must name {which} for them to join should he not be recovered, not leave them leaderless",
                        listed(&open, "and")
                    ),
                ));
            }
            Some(j) if peers(e).into_iter().any(|s| s.name == j && whole(s)) => {
                let instead = if open.is_empty() {
                    ", so they fight on leaderless should their general not be recovered".to_owned()
                } else {
                    format!(": they may join {}", listed(&open, "or"))
                };
                return Err(RuleError::new(
                    RuleId::MG_31,
                    format!("{j} loses every element in this result and cannot take in {command}'s men{instead}"),
                ));
            }
            _ => {}
        }
    }
    // Follow each join through commands whose generals fell too; coming back to the start
    // is a ring.
    for e in entries.iter().filter(|e| e.l.general_killed) {
        let mut ring = vec![e.l.command.as_str()];
        let mut at = e;
        while let Some(next) = at.l.join.as_deref().and_then(|j| entry(&e.l.side, j)).filter(|n| n.l.general_killed) {
            if next.l.command == e.l.command {
                let led: Vec<&str> = peers(e).into_iter().filter(|s| is_led(s)).map(|s| s.name).collect();
                if !led.is_empty() {
                    let verb = if led.len() == 1 { "stands" } else { "stand" };
                    return Err(RuleError::new(
                        RuleId::MG_31,
                        format!(
                            "the men of {} are to join one another, so should all their generals be lost they would be left leaderless while {} {verb} at {place} to take them in",
                            listed(&ring, "and"),
                            listed(&led, "and")
                        ),
                    ));
                }
                break;
            }
            if ring.contains(&next.l.command.as_str()) {
                // A ring further on, found again from one of its own commands.
                break;
            }
            ring.push(&next.l.command);
            at = next;
        }
    }
    Ok(())
}

/// MG-31: the command that takes in the men of line `start` once the recovery dice are
/// known, or `None` when they stay where they are (their general came back, or they fight
/// on leaderless). A join is followed on while the command it names lost its general too
/// and sends its own men on, so nobody is handed to a command that is itself going; round a
/// ring of commands whose generals were all lost the men gather in the one listed first, as
/// one leaderless command. `check_joins` keeps joins off commands the result loses whole,
/// so each command on the way still stands.
fn host(start: usize, entries: &[Entry<'_>], aftermath: &[CommandAftermath]) -> Option<String> {
    if !aftermath[start].general_lost || aftermath[start].destroyed {
        return None;
    }
    let mut path = vec![start];
    let mut at = start;
    while let Some(j) = &entries[at].l.join {
        let Some(next) = entries.iter().position(|e| e.l.side == entries[at].l.side && &e.l.command == j) else {
            // A command that lost nothing stands, led.
            return Some(j.clone());
        };
        if aftermath[next].destroyed {
            break;
        }
        if !aftermath[next].general_lost {
            return Some(j.clone());
        }
        if let Some(k) = path.iter().position(|p| *p == next) {
            let first = path[k..].iter().copied().min().unwrap_or(next);
            return (first != start).then(|| entries[first].l.command.clone());
        }
        path.push(next);
        at = next;
    }
    (at != start).then(|| entries[at].l.command.clone())
}

/// Names as a referee writes them: "A", "A and B", "A, B and C".
fn listed(names: &[&str], conjunction: &str) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} {conjunction} {last}", rest.join(", ")),
    }
}

/// Retreats owed by the counters of `sides` standing in the battle's node, but for commands
/// destroyed or merged away.
fn retreats_from(
    state: &CampaignState,
    battle: &Battle,
    sides: &[SideId],
    aftermath: &[CommandAftermath],
    open_roads: &BTreeMap<SideId, Vec<NodeId>>,
    by: impl Fn(&SideId) -> SideId,
) -> Vec<RetreatDue> {
    state
        .counters
        .iter()
        .filter(|c| c.node == battle.node && c.on_land() && sides.contains(&c.side))
        .filter(|c| !aftermath.iter().any(|a| a.side == c.side && a.command == c.name && (a.destroyed || a.joined.is_some())))
        .map(|c| RetreatDue {
            side: c.side.clone(),
            command: c.name.clone(),
            open_roads: open_roads.get(&c.side).cloned(),
            by: by(&c.side),
        })
        .collect()
}

/// MG-26: whether a side may retire into a node held by `holder` whose city is allied to
/// `ally`: one it or a friend holds, or one nobody holds whose city is no enemy's ally.
/// `friend` says whether a side is the retiring side or stands with it. The rules ask it of
/// the campaign, and the pack's "May retire" column of the board the side sees.
pub fn may_retire_into(holder: Option<&SideId>, ally: Option<&SideId>, friend: impl Fn(&SideId) -> bool) -> bool {
    match holder {
        Some(holder) => friend(holder),
        None => ally.is_none_or(friend),
    }
}

/// MG-26: whether `side` may retire from a battle into node `n`, as the campaign stands.
fn retires_into(state: &CampaignState, side: &SideId, n: NodeId) -> bool {
    may_retire_into(state.control.get(&n), state.politics.city_allies.get(&n), |other| other == side || !state.are_enemies(side, other))
}

/// MG-25: after a battle without a loser each side secretly writes stay or retire; when the
/// last choice is in they are revealed together: retirers owe a retreat, and if every side
/// stays the battle goes on to a second day.
pub fn choose_stay_or_retire(state: &CampaignState, map: &Map, side: &SideId, battle_id: u32, stay: bool) -> Result<Vec<Event>, RuleError> {
    let battle = state
        .battles
        .iter()
        .find(|b| b.id == battle_id && b.awaiting_choices)
        .ok_or_else(|| RuleError::new(RuleId::MG_25, format!("battle {battle_id} is not waiting for stay-or-retire choices")))?;
    let sides = battle.sides();
    if !sides.contains(side) {
        return Err(RuleError::new(RuleId::MG_25, format!("{} did not fight in battle {battle_id}", super::turn::side_name(state, side))));
    }
    if battle.choices.contains_key(side) {
        return Err(RuleError::new(RuleId::MG_25, format!("{} has written its choice already", super::turn::side_name(state, side))));
    }
    if !stay && !map.neighbours(battle.node).any(|n| retires_into(state, side, n)) {
        return Err(RuleError::new(
            RuleId::MG_26,
            format!(
                "no road leads from {} to a node {} or a friend holds, or a neutral one: it cannot retire, only stay",
                map.name(battle.node),
                super::turn::side_name(state, side)
            ),
        ));
    }
    let mut events = vec![Event::StayOrRetireChosen { battle: battle_id, side: side.clone(), stay }];
    let mut choices = battle.choices.clone();
    choices.insert(side.clone(), stay);
    if sides.iter().all(|s| choices.contains_key(s)) {
        let retiring: Vec<SideId> = choices.iter().filter(|(_, stay)| !**stay).map(|(s, _)| s.clone()).collect();
        // MG-26: a side retires only by a road to a friendly or neutral node.
        let open_roads: BTreeMap<SideId, Vec<NodeId>> =
            retiring.iter().map(|s| (s.clone(), map.neighbours(battle.node).filter(|&n| retires_into(state, s, n)).collect())).collect();
        let retreats = retreats_from(state, battle, &retiring, &[], &open_roads, |s| {
            sides.iter().find(|o| state.are_enemies(s, o)).cloned().unwrap_or_else(|| s.clone())
        });
        events.push(Event::ChoicesRevealed {
            battle: battle_id,
            choices: choices.into_iter().collect(),
            second_day: retiring.is_empty(),
            retreats,
        });
    }
    Ok(events)
}

/// MG-15: a beaten land counter retreats along a legal path in post-combat movement.
pub fn retreat(state: &CampaignState, map: &Map, side: &SideId, name: &str, path: &[NodeId]) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::PostCombat {
        return Err(RuleError::new(RuleId::MG_15, "retreats are made in post-combat movement"));
    }
    if !state.losses.land_retreats_due.iter().any(|r| &r.side == side && r.command == name) {
        return Err(RuleError::new(RuleId::MG_15, format!("{name} has no retreat to make")));
    }
    if side == state.moving_side() && state.sides_to_retreat(map).iter().any(|s| s != side) {
        return Err(RuleError::new(RuleId::MG_25, "the sides not moving retreat first, as retiring sides do"));
    }
    let legal = state.land_retreats(map, side, name);
    let from = state.counter(side, name).map(|c| c.node);
    let ok = path.last().is_some_and(|last| legal.get(last).is_some_and(|p| p == path));
    if !ok {
        let options: Vec<String> = legal.keys().map(|n| map.name(*n)).collect();
        return Err(RuleError::new(
            RuleId::MG_15,
            format!(
                "{name} may retreat only to empty, neutral or friendly nodes by a road still open, up to its MP: {}",
                if options.is_empty() { "it has nowhere to go".to_owned() } else { options.join(", ") }
            ),
        ));
    }
    Ok(vec![Event::CounterRetreated { side: side.clone(), counter: name.to_owned(), from: from.unwrap_or(path[0]), path: path.to_vec() }])
}

/// MG-15: counters owing a retreat with nowhere to go are destroyed as post-combat movement
/// ends; one that could still retreat must do so first. `reader`, the side ending the phase,
/// reads another side's counter as the counter at its node, never by name.
pub(crate) fn trapped_commands(state: &CampaignState, map: &Map, reader: &SideId) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    for due in &state.losses.land_retreats_due {
        if !state.land_retreats(map, &due.side, &due.command).is_empty() {
            let who = if &due.side == reader {
                due.command.clone()
            } else {
                let at = state.counter(&due.side, &due.command).map_or_else(String::new, |c| {
                    format!(" at {}", map.node(c.node).map_or_else(|| c.node.to_string(), super::map::Node::label))
                });
                format!("a {} counter{at}", super::turn::side_name(state, &due.side))
            };
            return Err(RuleError::new(RuleId::MG_15, format!("{who} must retreat before post-combat movement ends")));
        }
        events.push(Event::CommandDestroyed { side: due.side.clone(), command: due.command.clone(), by: Some(due.by.clone()) });
    }
    Ok(events)
}

impl CampaignState {
    pub(crate) fn apply_battle(&mut self, event: &Event) {
        match event {
            Event::BattleResolved { battle, winner, aftermath, retreats, .. } => {
                let fought: Vec<SideId> = self
                    .battles
                    .iter()
                    .find(|b| b.id == *battle)
                    .map(|b| std::iter::once(b.attacker.clone()).chain(b.defenders.iter().cloned()).collect())
                    .unwrap_or_default();
                self.battles.retain(|b| b.id != *battle);
                // MG-35: when a side's ally loses a land battle, the side may change sides.
                if self.scenario.special_rules.contains(&super::scenario::SpecialRule::HieroMaySwitch) {
                    let fickle = self.scenario.move_order.iter().find(|s| s.as_str() == "syracuse").cloned();
                    if let Some(fickle) = fickle {
                        let ally = self.scenario.move_order.iter().find(|o| *o != &fickle && !self.are_enemies(&fickle, o)).cloned();
                        if let Some(ally) = ally
                            && self.are_enemies(winner, &ally)
                            && fought.contains(&ally)
                        {
                            self.politics.switch_offer = Some((fickle, ally));
                        }
                    }
                }
                for a in aftermath {
                    self.settle(a);
                }
                self.losses.land_retreats_due.extend(retreats.iter().cloned());
            }
            Event::BattleDrawn { battle, aftermath, .. } => {
                for a in aftermath {
                    self.settle(a);
                }
                if let Some(b) = self.battles.iter_mut().find(|b| b.id == *battle) {
                    b.awaiting_choices = true;
                    b.choices.clear();
                }
            }
            Event::StayOrRetireChosen { battle, side, stay } => {
                if let Some(b) = self.battles.iter_mut().find(|b| b.id == *battle) {
                    b.choices.insert(side.clone(), *stay);
                }
            }
            Event::ChoicesRevealed { battle, second_day, retreats, .. } => {
                if *second_day {
                    if let Some(b) = self.battles.iter_mut().find(|b| b.id == *battle) {
                        b.day += 1;
                        b.awaiting_choices = false;
                        b.choices.clear();
                    }
                } else {
                    self.battles.retain(|b| b.id != *battle);
                    self.losses.land_retreats_due.extend(retreats.iter().cloned());
                }
            }
            Event::CounterRetreated { side, counter, path, .. } => {
                self.losses.land_retreats_due.retain(|r| !(&r.side == side && &r.command == counter));
                if let (Some(c), Some(&last)) = (self.counters.iter_mut().find(|c| &c.side == side && &c.name == counter), path.last()) {
                    c.node = last;
                }
                self.lift_abandoned_sieges();
            }
            Event::CommandDestroyed { side, command, by } => {
                self.losses.land_retreats_due.retain(|r| !(&r.side == side && &r.command == command));
                self.lose_command(side, command, by.clone());
                self.lift_abandoned_sieges();
            }
            _ => {}
        }
    }

    fn settle(&mut self, a: &CommandAftermath) {
        if let Some(node) = a.city {
            self.settle_city(node, a);
            return;
        }
        let by = a.by.clone();
        if let Some(army) = self.armies.get_mut(&a.side)
            && let Some(roster) = army.commands.iter_mut().find(|c| c.name == a.command)
        {
            let mut gone = Vec::new();
            super::cities::transfer(&mut roster.elements, &mut gone, &a.lost);
            let count: u32 = gone.iter().map(|g| g.count).sum::<u32>() + u32::from(a.general_lost);
            *self.losses.elements_lost.entry(a.side.clone()).or_default() += count;
        }
        if a.destroyed {
            // Every element is counted lost already; the counter leaves the map. A leaderless
            // command's commander was scored when he fell (MG-33), not again.
            let headless = self.losses.leaderless.remove(&(a.side.clone(), a.command.clone()));
            self.counters.retain(|c| !(c.side == a.side && c.name == a.command));
            if let Some(army) = self.armies.get_mut(&a.side) {
                army.commands.retain(|c| c.name != a.command);
            }
            if !headless {
                self.losses.commanders_lost.push(CommanderLost { side: a.side.clone(), command: a.command.clone(), by });
            }
            self.check_army_destroyed(&a.side);
            return;
        }
        if !a.general_lost {
            return;
        }
        self.losses.commanders_lost.push(CommanderLost { side: a.side.clone(), command: a.command.clone(), by });
        match &a.joined {
            Some(target) => {
                if let Some(army) = self.armies.get_mut(&a.side) {
                    merge_into(&mut army.commands, &a.command, target);
                }
                self.counters.retain(|c| !(c.side == a.side && c.name == a.command));
            }
            None => {
                self.losses.leaderless.insert((a.side.clone(), a.command.clone()));
            }
        }
    }
}

impl CampaignState {
    /// Elements a command of `side` has now, by its roster: a leaderless command's general is
    /// gone (MG-31).
    pub fn command_elements(&self, side: &SideId, roster: &CommandRoster) -> u32 {
        roster.elements_fielded(self.losses.leaderless.contains(&(side.clone(), roster.name.clone())))
    }

    /// Elements of `side`'s command `name` now, as [`Self::command_elements`] counts them; 0
    /// for a command it has not.
    pub fn elements_of(&self, side: &SideId, name: &str) -> u32 {
        self.armies.get(side).and_then(|a| a.commands.iter().find(|c| c.name == name)).map_or(0, |c| self.command_elements(side, c))
    }

    /// Elements a side still has: in its commands (a leaderless command's general is gone) and
    /// in its capital's garrison.
    pub fn elements_in_play(&self, side: &SideId) -> u32 {
        let commands: u32 = self.armies.get(side).map_or(0, |a| a.commands.iter().map(|c| self.command_elements(side, c)).sum());
        commands + self.garrison_elements(side)
    }

    /// Elements that left the map through Messena (MG-34).
    pub fn elements_exited(&self, side: &SideId) -> u32 {
        self.politics.exits.iter().filter(|(s, _)| s == side).map(|(_, n)| n).sum()
    }
}

/// MG-35: the fickle ally changes sides while the offer stands (the combat phase in which its
/// ally lost), joining the side that beat it.
pub fn switch_sides(state: &CampaignState, side: &SideId, to: &SideId) -> Result<Vec<Event>, RuleError> {
    let offer = state.politics.switch_offer.as_ref();
    let enemy = |to: &SideId| state.scenario.move_order.contains(to) && state.are_enemies(side, to);
    let ally = may_switch(offer, side, to, enemy, |s| super::turn::side_name(state, s))?;
    Ok(vec![Event::SidesSwitched { side: side.clone(), from: ally.clone(), to: to.clone() }])
}

/// MG-35: whether `side` may turn to `to` under `offer` (the side that may change, and its
/// ally), `enemy` saying whether `to` is a side of the campaign fighting `side`: the ally it
/// leaves, or the refusal. The rules and a side's packet, which sees the offer on the board,
/// ask it alike.
pub(crate) fn may_switch<'a>(
    offer: Option<&'a (SideId, SideId)>,
    side: &SideId,
    to: &SideId,
    enemy: impl Fn(&SideId) -> bool,
    name: impl Fn(&SideId) -> String,
) -> Result<&'a SideId, RuleError> {
    let Some((fickle, ally)) = offer else {
        return Err(RuleError::new(RuleId::MG_35, "a side may change sides only at once when its ally has just lost a land battle"));
    };
    if fickle != side {
        return Err(RuleError::new(RuleId::MG_35, format!("only {} may change sides now", name(fickle))));
    }
    if !enemy(to) {
        return Err(RuleError::new(
            RuleId::MG_35,
            format!("{} may turn from {} to one of its enemies, not {}", name(side), name(ally), name(to)),
        ));
    }
    Ok(ally)
}

/// MG-31: the command `from`, its general lost, hands all its elements to `into` and is gone.
fn merge_into(commands: &mut Vec<CommandRoster>, from: &str, into: &str) {
    let moved = commands.iter().find(|c| c.name == from).map(|c| c.elements.clone()).unwrap_or_default();
    if let Some(t) = commands.iter_mut().find(|c| c.name == into) {
        let mut source = moved.clone();
        super::cities::transfer(&mut source, &mut t.elements, &moved);
    }
    commands.retain(|c| c.name != from);
}

impl CampaignState {
    /// A city's command after a battle: its losses stay with the city (MG-05, MG-07).
    fn settle_city(&mut self, node: NodeId, a: &CommandAftermath) {
        let Some(forces) = self.siege.city_forces_left.get_mut(&node) else {
            return;
        };
        if let Some(roster) = forces.iter_mut().find(|c| c.name == a.command) {
            let mut gone = Vec::new();
            super::cities::transfer(&mut roster.elements, &mut gone, &a.lost);
        }
        // MG-31: a city command whose general is lost hands its men to another of the city's
        // commands at the node, if the referee named one.
        match (&a.joined, a.general_lost && !a.destroyed) {
            (Some(target), true) => merge_into(forces, &a.command, target),
            _ if a.destroyed || a.general_lost => forces.retain(|c| c.name != a.command),
            _ => {}
        }
    }
}
