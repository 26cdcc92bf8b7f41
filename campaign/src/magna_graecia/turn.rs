//! The Magna Graecia turn on the map: deployment, the player-turn's phases (MG-09),
//! movement (MG-11, MG-13, MG-16), stacking (MG-12), alliance rolls (MG-06) and raising
//! battles where opposing counters meet (MG-10, MG-20).

use crate::core::log::DiceRolled;
use crate::core::rule::RuleId;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::army::ElementGroup;
use super::event::{Event, Visibility};
use super::map::{Map, Node};
use super::scenario::DeployArea;
use super::state::CampaignState;
use crate::core::dice::{Dice, DiceSpec};
use crate::core::error::RuleError;
use crate::ids::{NodeId, SideId};

/// The name a side's fleet counter goes by.
pub const FLEET: &str = "fleet";
/// MP of a fleet counter (MG-11).
pub const FLEET_MP: u8 = 3;
/// Land counters of one side a node may hold at the end of movement (MG-12).
pub const STACK_LIMIT: usize = 4;
/// The alliance roll a neutral city needs to join (MG-06).
pub const ALLIANCE_ROLL: i32 = 6;

/// Where the campaign stands in its turn (MG-09).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Before play: rosters and deployment.
    Setup,
    Movement,
    Combat,
    /// Losing commands retreat.
    PostCombat,
    /// After the last campaign turn (MG-32).
    Ended,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Movement => "movement",
            Phase::Combat => "combat",
            Phase::PostCombat => "post-combat movement",
            Phase::Ended => "campaign over",
        }
    }
}

/// A counter on the map: one command, or a side's fleet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counter {
    pub side: SideId,
    /// The command's name, or [`FLEET`].
    pub name: String,
    pub node: NodeId,
    /// Movement points spent this phase.
    pub mp_spent: u8,
    /// The node the counter last came from this player-turn: its entry path into a battle.
    pub entered_from: Option<NodeId>,
    /// A command carried by its side's fleet (MG-14, MG-17): it moves with the fleet and does
    /// not stand on land.
    #[serde(default)]
    pub aboard: bool,
    /// A command wholly inside a besieged city (MG-27): it neither halts enemies nor fights
    /// in the field.
    #[serde(default)]
    pub inside: bool,
    /// A fleet sheltered in a friendly, garrisoned, walled port (MG-19): it cannot be made to
    /// fight.
    #[serde(default)]
    pub sheltered: bool,
}

impl Counter {
    /// A counter just set on the map, with all its MP.
    pub fn placed(side: &SideId, name: &str, node: NodeId) -> Counter {
        Counter {
            side: side.clone(),
            name: name.to_owned(),
            node,
            mp_spent: 0,
            entered_from: None,
            aboard: false,
            inside: false,
            sheltered: false,
        }
    }

    pub fn is_fleet(&self) -> bool {
        self.name == FLEET
    }

    /// A command standing on land: it halts enemies, fights battles and counts for stacking.
    pub fn on_land(&self) -> bool {
        !self.is_fleet() && !self.aboard && !self.inside
    }
}

/// A battle raised on the map, waiting for its result (MG-10, MG-20).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub id: u32,
    pub turn: u32,
    pub node: NodeId,
    /// The side that moved in (MG-21: the attacker).
    pub attacker: SideId,
    pub defenders: Vec<SideId>,
    /// Each attacking counter's name and the node it entered from.
    pub entries: Vec<(String, Option<NodeId>)>,
    /// Day of the battle: 2 after both sides chose to stay (MG-25).
    #[serde(default = "first_day")]
    pub day: u8,
    /// Fought without a loser: waiting for each side's secret stay-or-retire choice (MG-25).
    #[serde(default)]
    pub awaiting_choices: bool,
    /// The choices written so far (true: stay); secret until all are in.
    #[serde(default)]
    pub choices: BTreeMap<SideId, bool>,
    /// The city at the node whose own commands fight, allied to one of the sides (MG-05).
    #[serde(default)]
    pub city: Option<NodeId>,
    /// The battle is an attack on a neutral city (MG-07).
    #[serde(default)]
    pub city_attack: bool,
    /// The table set for the current day, once the referee has set it (MG-21, MG-22).
    #[serde(default)]
    pub table: Option<super::table::BattleTable>,
}

fn first_day() -> u8 {
    1
}

impl Battle {
    /// Battle `id`, raised now at `node`: `attacker`'s land counters there attack
    /// `defenders` on their first day, with `city`'s own commands where a city joins in
    /// (MG-05, MG-07, MG-10).
    pub fn raised(state: &CampaignState, id: u32, node: NodeId, attacker: &SideId, defenders: Vec<SideId>, city: Option<NodeId>) -> Battle {
        let entries = state
            .counters
            .iter()
            .filter(|c| &c.side == attacker && c.node == node && c.on_land())
            .map(|c| (c.name.clone(), c.entered_from))
            .collect();
        Battle {
            id,
            turn: state.turn,
            node,
            attacker: attacker.clone(),
            defenders,
            entries,
            day: 1,
            awaiting_choices: false,
            choices: BTreeMap::new(),
            city,
            city_attack: false,
            table: None,
        }
    }

    /// Every side fighting in it.
    pub fn sides(&self) -> Vec<SideId> {
        std::iter::once(self.attacker.clone()).chain(self.defenders.iter().cloned()).collect()
    }
}

impl CampaignState {
    pub fn counter(&self, side: &SideId, name: &str) -> Option<&Counter> {
        self.counters.iter().find(|c| &c.side == side && c.name == name)
    }

    /// Whether two sides are enemies: different and not allied by the scenario.
    pub fn are_enemies(&self, a: &SideId, b: &SideId) -> bool {
        a != b && !self.politics.alliances.contains(&(a.clone().min(b.clone()), a.clone().max(b.clone())))
    }

    /// Movement points of a counter (MG-11).
    pub fn movement_points(&self, counter: &Counter) -> u8 {
        if counter.is_fleet() {
            return FLEET_MP;
        }
        self.armies
            .get(&counter.side)
            .and_then(|a| a.commands.iter().find(|c| c.name == counter.name))
            .map_or(1, |c| self.scenario.elements.movement_points(c))
    }

    pub(crate) fn enemy_land_at(&self, side: &SideId, node: NodeId) -> bool {
        self.counters.iter().any(|c| c.node == node && c.on_land() && self.are_enemies(side, &c.side))
    }

    /// An enemy fleet that would stop this side's fleet: a sheltered one does not (MG-16).
    fn enemy_fleet_at(&self, side: &SideId, node: NodeId) -> bool {
        self.counters.iter().any(|c| c.node == node && c.is_fleet() && !c.sheltered && self.are_enemies(side, &c.side))
    }

    /// Nodes breaking the stacking limit for `side` (MG-12): node → land counters there.
    pub fn overstacked(&self, side: &SideId) -> BTreeMap<NodeId, usize> {
        let mut land: BTreeMap<NodeId, usize> = BTreeMap::new();
        for c in self.counters.iter().filter(|c| &c.side == side && c.on_land()) {
            *land.entry(c.node).or_default() += 1;
        }
        land.retain(|_, n| *n > STACK_LIMIT);
        land
    }

    /// Why a counter of the moving side may not move by itself at all now, if it may not:
    /// aboard the fleet (MG-14), leaderless (MG-31), besieged, or come out to give battle
    /// (MG-27).
    fn held_in_place(&self, map: &Map, counter: &Counter) -> Option<RuleError> {
        let name = &counter.name;
        if counter.aboard {
            return Some(RuleError::new(RuleId::MG_14, format!("{name} is aboard the fleet: move the fleet, or disembark first")));
        }
        if self.losses.leaderless.contains(&(counter.side.clone(), name.clone())) {
            return Some(RuleError::new(RuleId::MG_31, format!("{name} has lost its leader and cannot move")));
        }
        if counter.inside {
            return Some(RuleError::new(RuleId::MG_27, format!("{name} is besieged: it must sally before it can move")));
        }
        // A fleet may still put out to fight the ships at sea (a sally's naval battle).
        if self.siege.sallied.contains(&counter.node) && !counter.is_fleet() {
            return Some(stands_to_fight(map, counter));
        }
        None
    }

    /// Where a counter may go this phase: each reachable node with the path there (MG-11,
    /// MG-13, MG-16). Empty outside its side's movement phase.
    pub fn destinations(&self, map: &Map, side: &SideId, name: &str) -> BTreeMap<NodeId, Vec<NodeId>> {
        let mut out = BTreeMap::new();
        let Some(counter) = self.counter(side, name) else { return out };
        if self.phase != Phase::Movement || self.moving_side() != side {
            return out;
        }
        if self.held_in_place(map, counter).is_some() {
            return out;
        }
        let budget = self.movement_points(counter).saturating_sub(counter.mp_spent);
        let mut frontier = vec![(counter.node, Vec::new())];
        for _ in 0..budget {
            let mut next = Vec::new();
            for (at, path) in frontier {
                for n in map.neighbours(at) {
                    let mut p: Vec<NodeId> = path.clone();
                    p.push(n);
                    if n == counter.node || out.contains_key(&n) || self.check_path(map, counter, &p, false).is_err() {
                        continue;
                    }
                    out.insert(n, p.clone());
                    if !self.must_halt(counter, n) {
                        next.push((n, p));
                    }
                }
            }
            frontier = next;
        }
        // A fleet may pass enemy land counters but not stop with them (MG-16).
        out.retain(|n, _| !(counter.is_fleet() && self.enemy_land_at(side, *n)));
        out
    }

    /// MG-06: the cities whose alliance `side` rolls for if its movement ended now, in the
    /// order the dice are rolled: every fortified city, not a capital, where it has a land
    /// counter, unless the city is allied to it or to a side beside it already, or allied to
    /// an opponent with a command there.
    pub fn alliance_rolls_due(&self, map: &Map, side: &SideId) -> Vec<NodeId> {
        let nodes: BTreeSet<NodeId> = self.counters.iter().filter(|c| &c.side == side && c.on_land()).map(|c| c.node).collect();
        nodes
            .into_iter()
            .filter(|&node| {
                let fortified = map.node(node).is_some_and(|n| n.is_fortified());
                let capital = self.scenario.sides.iter().any(|s| s.capital.is_some_and(|c| c.node == node));
                let ally = self.politics.city_allies.get(&node);
                // A command inside the walls is present in the node too.
                let held_by_ally =
                    ally.is_some_and(|a| self.counters.iter().any(|c| &c.side == a && !c.is_fleet() && !c.aboard && c.node == node));
                // A city on the side's own side of the war is no one's to win over.
                let friendly = ally.is_some_and(|a| !self.are_enemies(side, a));
                // A city under siege holds its own: nobody rolls for it.
                fortified && !capital && !friendly && !held_by_ally && self.siege_at(node).is_none()
            })
            .collect()
    }

    /// Where a counter of `side` may be deployed now (MG-02); empty outside setup.
    pub fn deploy_nodes(&self, map: &Map, side: &SideId, name: &str) -> Vec<NodeId> {
        map.nodes.keys().copied().filter(|&n| deploy_as(self, map, side, name, n, false).is_ok()).collect()
    }

    /// MG-13 / MG-16: whether a counter entering `node` must stop there.
    fn must_halt(&self, counter: &Counter, node: NodeId) -> bool {
        if counter.is_fleet() { self.enemy_fleet_at(&counter.side, node) } else { self.enemy_land_at(&counter.side, node) }
    }

    /// Checks a path for a counter, step by step; `stops` when the counter ends its move at
    /// the path's last node (a fleet may pass enemy land counters but not stop with them).
    fn check_path(&self, map: &Map, counter: &Counter, path: &[NodeId], stops: bool) -> Result<(), RuleError> {
        let mp = self.movement_points(counter);
        let left = mp.saturating_sub(counter.mp_spent);
        if path.len() > usize::from(left) {
            return Err(RuleError::new(
                RuleId::MG_11,
                format!("{} has {left} MP left this phase and cannot move {}", counter.name, crate::core::words::count(path.len(), "node")),
            ));
        }
        let mut at = counter.node;
        for (i, &next) in path.iter().enumerate() {
            if map.node(next).is_none() {
                let last = map.nodes.keys().next_back().map_or_else(String::new, ToString::to_string);
                return Err(RuleError::new(RuleId::MG_01, format!("the map has no node {next}; its nodes are numbered 00 to {last}")));
            }
            if next == at {
                return Err(RuleError::new(
                    RuleId::MG_11,
                    format!(
                        "{} is at {} already: each step goes to another node",
                        crate::core::words::capitalised(&counter_label(&counter.name)),
                        map.name(at)
                    ),
                ));
            }
            if !map.is_path(at, next) {
                return Err(RuleError::new(RuleId::MG_11, format!("no path joins {} and {}", map.name(at), map.name(next))));
            }
            if counter.is_fleet() && !map.node(next).is_some_and(|n| n.coastal) {
                return Err(RuleError::new(RuleId::MG_16, format!("fleets sail to coastal nodes only, and {} is inland", map.name(next))));
            }
            let last = i + 1 == path.len();
            if !last && self.must_halt(counter, next) {
                let (what, rule) =
                    if counter.is_fleet() { ("the enemy fleet lies", RuleId::MG_16) } else { ("enemy land counters stand", RuleId::MG_13) };
                let who = crate::core::words::capitalised(&counter_label(&counter.name));
                return Err(RuleError::new(rule, format!("{who} must halt at {}, where {what}", map.name(next))));
            }
            if stops && last && counter.is_fleet() && self.enemy_land_at(&counter.side, next) {
                return Err(fleet_may_not_stop(map, next));
            }
            at = next;
        }
        Ok(())
    }
}

pub(crate) fn side_name(state: &CampaignState, side: &SideId) -> String {
    state.scenario.side(side).map_or_else(|| side.to_string(), |s| s.name.clone())
}

/// MG-02: places a counter before play.
pub fn deploy(state: &CampaignState, map: &Map, side: &SideId, name: &str, node: NodeId) -> Result<Vec<Event>, RuleError> {
    deploy_as(state, map, side, name, node, true)
}

/// [`deploy`], its refusal of a node outside the side's area saying where the counter may go
/// when `list`.
fn deploy_as(state: &CampaignState, map: &Map, side: &SideId, name: &str, node: NodeId, list: bool) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Setup {
        return Err(RuleError::new(RuleId::MG_02, "counters are deployed before play begins, not after"));
    }
    let setup = state.scenario.side(side).ok_or_else(|| RuleError::new(RuleId::MG_02, format!("there is no side `{side}`")))?;
    let place = map.node(node).ok_or_else(|| RuleError::new(RuleId::MG_01, format!("the map has no node {node}")))?;
    let fleet = name == FLEET;
    if fleet && setup.fleet_np == 0 {
        return Err(RuleError::new(RuleId::MG_02, format!("{} has no fleet", setup.name)));
    }
    if !fleet && !state.armies.get(side).is_some_and(|a| a.commands.iter().any(|c| c.name == name)) {
        return Err(RuleError::new(RuleId::MG_03, format!("{} has no command called {name}", setup.name)));
    }
    let deploy = &setup.deploy;
    let allowed = match &deploy.area {
        DeployArea::Controlled => state.control.get(&node) == Some(side),
        DeployArea::Nodes { nodes } => nodes.contains(&node),
        DeployArea::Landing => false,
    };
    if matches!(deploy.area, DeployArea::Landing) {
        return Err(RuleError::new(
            RuleId::MG_36,
            format!("{} starts at sea and lands on its first turn instead of deploying", setup.name),
        ));
    }
    if !allowed {
        let mut refusal = format!("{} may not deploy at {}", setup.name, place.label());
        if list {
            let nodes: Vec<String> = state.deploy_nodes(map, side, name).into_iter().filter_map(|n| map.node(n)).map(Node::label).collect();
            if !nodes.is_empty() {
                refusal.push_str(&format!("; {name} may deploy at {}", nodes.join(", ")));
            }
        }
        return Err(RuleError::new(RuleId::MG_02, refusal));
    }
    if deploy.not_in_unallied_cities
        && place.is_fortified()
        && state.politics.city_allies.get(&node) != Some(side)
        && setup.capital.is_none_or(|c| c.node != node)
    {
        return Err(RuleError::new(
            RuleId::MG_02,
            format!("{} counters may not start in {}, a fortified city not allied to it", setup.name, place.name),
        ));
    }
    if fleet && !place.coastal {
        return Err(RuleError::new(RuleId::MG_16, format!("a fleet must start on a coastal node, and {} is inland", place.name)));
    }
    if let Some(at) = deploy.fleet_at
        && fleet
        && at != node
    {
        return Err(RuleError::new(RuleId::MG_02, format!("{}'s fleet starts at {}", setup.name, map.name(at))));
    }
    Ok(vec![Event::CounterDeployed { side: side.clone(), counter: name.to_owned(), node }])
}

/// MG-02 / MG-12: play begins once every counter that must be on the map is, and no node is
/// overstacked.
pub fn begin_play(state: &CampaignState, map: &Map) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Setup {
        return Err(RuleError::new(RuleId::MG_09, "play has begun already"));
    }
    for setup in &state.scenario.sides {
        if matches!(setup.deploy.area, DeployArea::Landing) {
            continue;
        }
        let mut missing: Vec<String> =
            state.armies.get(&setup.id).map(|a| a.commands.iter().map(|c| c.name.clone()).collect()).unwrap_or_default();
        if setup.fleet_np > 0 {
            missing.push(FLEET.to_owned());
        }
        missing.retain(|name| state.counter(&setup.id, name).is_none());
        if !missing.is_empty() {
            return Err(RuleError::new(RuleId::MG_02, format!("{} has not deployed: {}", setup.name, missing.join(", "))));
        }
        if let Some(node) = setup.deploy.command_at
            && !state.counters.iter().any(|c| c.side == setup.id && c.on_land() && c.node == node)
        {
            return Err(RuleError::new(RuleId::MG_02, format!("at least one {} command must start at {}", setup.name, map.name(node))));
        }
        if let Some((node, n)) = state.overstacked(&setup.id).into_iter().next() {
            return Err(RuleError::new(
                RuleId::MG_12,
                format!("{} has {n} counters at {}; at most {STACK_LIMIT} may share a node", setup.name, map.name(node)),
            ));
        }
    }
    Ok(vec![Event::PlayBegan])
}

/// MG-11, MG-13, MG-16: moves a counter of the moving side along a path.
pub fn move_counter(
    state: &CampaignState,
    map: &Map,
    side: &SideId,
    name: &str,
    path: &[NodeId],
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    check_mover(state, side, Phase::Movement)?;
    let counter = own_counter(state, side, name)?;
    if path.is_empty() {
        return Err(RuleError::new(RuleId::MG_11, "a move needs at least one node to move to"));
    }
    if let Some(held) = state.held_in_place(map, counter) {
        return Err(held);
    }
    state.check_path(map, counter, path, true)?;
    let mut events = vec![Event::CounterMoved { side: side.clone(), counter: name.to_owned(), from: counter.node, path: path.to_vec() }];
    events.extend(disease_in_passing(state, map, side, counter, path, dice)?);
    Ok(events)
}

/// MG-29: a land command marching through a node where disease has come to a siege rolls
/// for it there, as the forces at the siege do; on a 1 it loses a tenth of its elements,
/// rounded up. A command that ends its move in the node rolls with the rest of its side's
/// force there when the movement ends; fleets, and the troops they carry, never roll.
fn disease_in_passing(
    state: &CampaignState,
    map: &Map,
    side: &SideId,
    counter: &Counter,
    path: &[NodeId],
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let Some((_, through)) = path.split_last() else { return Ok(Vec::new()) };
    let diseased: Vec<NodeId> = through.iter().copied().filter(|n| state.siege_at(*n).is_some_and(|s| s.disease)).collect();
    if counter.is_fleet() || diseased.is_empty() {
        return Ok(Vec::new());
    }
    if state.siege.siege_losses_due.contains_key(side) {
        return Err(RuleError::new(
            RuleId::MG_29,
            format!("{} must choose the losses it owes to siege or disease before marching through disease again", side_name(state, side)),
        ));
    }
    let of = state.elements_of(side, &counter.name);
    let mut events = Vec::new();
    let mut struck: Option<NodeId> = None;
    let mut elements = 0u32;
    for node in diseased {
        let purpose = format!("disease, {} marching through {}", counter.name, map.name(node));
        let roll = dice.roll(DiceSpec::D6, &purpose, Some(RuleId::MG_29), Vec::new())?;
        if roll.natural() == 1 {
            struck.get_or_insert(node);
            elements = elements.saturating_add(of.div_ceil(10));
        }
        // The roll names the command, which only its side may know by name.
        events.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Side(side.clone()) }));
    }
    if let Some(node) = struck {
        events.push(Event::DiseaseStruck { node, side: side.clone(), elements: elements.min(of), of, command: Some(counter.name.clone()) });
    }
    Ok(events)
}

/// The side's command on the map called `name`, or a refusal.
fn own_counter<'a>(state: &'a CampaignState, side: &SideId, name: &str) -> Result<&'a Counter, RuleError> {
    state.counter(side, name).ok_or_else(|| {
        let own: Vec<&str> = state.counters.iter().filter(|c| &c.side == side).map(|c| c.name.as_str()).collect();
        let theirs = if own.is_empty() { String::new() } else { format!("; its counters there are {}", own.join(", ")) };
        RuleError::new(RuleId::MG_03, format!("{} has no counter called {name} on the map{theirs}", side_name(state, side)))
    })
}

/// MG-14 / MG-17: a command boards its side's fleet in the same node; 1 MP each, and only if
/// all its elements fit beside those already aboard (1 NP per element).
pub fn embark(state: &CampaignState, map: &Map, side: &SideId, name: &str) -> Result<Vec<Event>, RuleError> {
    check_mover(state, side, Phase::Movement)?;
    let counter = own_counter(state, side, name)?;
    if counter.inside {
        return Err(RuleError::new(RuleId::MG_27, format!("{name} is besieged: it must sally before it can embark")));
    }
    if state.siege.sallied.contains(&counter.node) {
        return Err(stands_to_fight(map, counter));
    }
    if counter.is_fleet() || counter.aboard {
        return Err(RuleError::new(
            RuleId::MG_14,
            format!("{name} cannot embark: it is {}", if counter.aboard { "aboard already" } else { "the fleet" }),
        ));
    }
    let fleet = state
        .counter(side, FLEET)
        .ok_or_else(|| RuleError::new(RuleId::MG_16, format!("{} has no fleet on the map", side_name(state, side))))?;
    if fleet.sheltered {
        return Err(RuleError::new(RuleId::MG_19, "no troops may stay aboard a sheltered fleet"));
    }
    if fleet.node != counter.node {
        return Err(RuleError::new(
            RuleId::MG_14,
            format!("{name} is at {} and the fleet at {}; they must share a node to embark", map.name(counter.node), map.name(fleet.node)),
        ));
    }
    for c in [counter, fleet] {
        if state.movement_points(c) <= c.mp_spent {
            return Err(RuleError::new(
                RuleId::MG_14,
                format!("embarking costs 1 MP and {} has none left", if c.is_fleet() { "the fleet" } else { name }),
            ));
        }
    }
    let aboard = state.elements_aboard(side);
    let needed = state.elements_of(side, name);
    let np = state.fleet_np(side);
    if aboard + needed > np {
        return Err(RuleError::new(
            RuleId::MG_17,
            format!("{name} has {needed} elements and the fleet's {np} NP carry {} more", np.saturating_sub(aboard)),
        ));
    }
    Ok(vec![Event::CounterEmbarked { side: side.clone(), counter: name.to_owned() }])
}

/// MG-14: two commands in one node trade elements (never a general); 1 MP each.
pub fn exchange(
    state: &CampaignState,
    map: &Map,
    side: &SideId,
    from: &str,
    to: &str,
    elements: &[ElementGroup],
) -> Result<Vec<Event>, RuleError> {
    check_mover(state, side, Phase::Movement)?;
    if from == to {
        return Err(RuleError::new(RuleId::MG_14, "elements are exchanged between two different commands"));
    }
    let a = own_counter(state, side, from)?;
    let b = own_counter(state, side, to)?;
    if a.is_fleet() || b.is_fleet() {
        return Err(RuleError::new(RuleId::MG_14, "elements are exchanged between commands, not with the fleet"));
    }
    if a.node != b.node || a.aboard != b.aboard {
        return Err(RuleError::new(
            RuleId::MG_14,
            format!("{from} ({}) and {to} ({}) must stand in the same node to exchange elements", map.name(a.node), map.name(b.node)),
        ));
    }
    for c in [a, b] {
        if state.movement_points(c) <= c.mp_spent {
            return Err(RuleError::new(RuleId::MG_14, format!("exchanging costs 1 MP and {} has none left", c.name)));
        }
    }
    if elements.is_empty() {
        return Err(RuleError::new(RuleId::MG_14, "name the elements to hand over"));
    }
    let roster = state
        .armies
        .get(side)
        .and_then(|army| army.commands.iter().find(|c| c.name == from))
        .ok_or_else(|| RuleError::new(RuleId::MG_03, format!("{from} has no roster")))?;
    if let Err(g) = super::army::take_groups(&mut roster.elements.clone(), elements) {
        let have = roster.elements.iter().filter(|h| h.spec == g.spec).map(|h| h.count).sum::<u32>();
        return Err(RuleError::new(
            RuleId::MG_14,
            format!("{from} has {have} {} and cannot hand over {} (its general stays with it)", g.spec, g.count),
        ));
    }
    Ok(vec![Event::ElementsExchanged { side: side.clone(), from: from.to_owned(), to: to.to_owned(), elements: elements.to_vec() }])
}

/// MG-14: a command leaves the fleet where the fleet is; it costs no MP.
pub fn disembark(state: &CampaignState, side: &SideId, name: &str) -> Result<Vec<Event>, RuleError> {
    check_mover(state, side, Phase::Movement)?;
    let counter = own_counter(state, side, name)?;
    if !counter.aboard {
        return Err(RuleError::new(RuleId::MG_14, format!("{name} is not aboard the fleet")));
    }
    Ok(vec![Event::CounterDisembarked { side: side.clone(), counter: name.to_owned() }])
}

/// MG-36: a side that starts at sea lands its counters on its first player-turn, each at a
/// southern coastal node no enemy counter occupies. Landing is the counter's move.
pub fn land(state: &CampaignState, map: &Map, side: &SideId, name: &str, node: NodeId) -> Result<Vec<Event>, RuleError> {
    check_mover(state, side, Phase::Movement)?;
    let setup = state.scenario.side(side).ok_or_else(|| RuleError::new(RuleId::MG_02, format!("there is no side `{side}`")))?;
    if !matches!(setup.deploy.area, DeployArea::Landing) {
        return Err(RuleError::new(RuleId::MG_36, format!("{} deployed before play; only a side that starts at sea lands", setup.name)));
    }
    if state.turn != 1 {
        return Err(RuleError::new(RuleId::MG_36, format!("{} lands on its first turn only", setup.name)));
    }
    if state.counter(side, name).is_some() {
        return Err(RuleError::new(RuleId::MG_36, format!("{name} has landed already")));
    }
    let known = if name == FLEET { setup.fleet_np > 0 } else { state.elements_of(side, name) > 0 };
    if !known {
        return Err(RuleError::new(RuleId::MG_03, format!("{} has no command called {name}", setup.name)));
    }
    let place = map.node(node).ok_or_else(|| RuleError::new(RuleId::MG_01, format!("the map has no node {node}")))?;
    if !place.south_coast {
        let coast: Vec<String> = map.nodes.values().filter(|n| n.south_coast).map(|n| n.label()).collect();
        return Err(RuleError::new(
            RuleId::MG_36,
            format!("{} is not on the southern coast, from 00 round to 30; a landing may be made at {}", place.label(), coast.join(", ")),
        ));
    }
    if state.counters.iter().any(|c| c.node == node && state.are_enemies(side, &c.side)) {
        return Err(RuleError::new(RuleId::MG_36, format!("{} is occupied by an enemy counter", place.name)));
    }
    let ashore = state.counters.iter().filter(|c| &c.side == side && c.node == node && c.on_land()).count();
    if name != FLEET && ashore >= STACK_LIMIT {
        return Err(RuleError::new(
            RuleId::MG_12,
            format!("{} has {ashore} counters ashore at {} already; at most {STACK_LIMIT} may share a node", setup.name, place.name),
        ));
    }
    Ok(vec![Event::CounterLanded { side: side.clone(), counter: name.to_owned(), node }])
}

/// A counter in running text: its command's name, or "the fleet".
pub fn counter_label(name: &str) -> String {
    if name == FLEET { "the fleet".to_owned() } else { name.to_owned() }
}

/// MG-36: the counters of a side that starts at sea still to come ashore, commands first and
/// the fleet last; none once its first turn is past.
pub fn still_at_sea(state: &CampaignState, side: &SideId) -> Vec<String> {
    let Some(setup) = state.scenario.side(side).filter(|s| matches!(s.deploy.area, DeployArea::Landing)) else {
        return Vec::new();
    };
    if state.turn != 1 {
        return Vec::new();
    }
    let mut names: Vec<String> = state.armies.get(side).map(|a| a.commands.iter().map(|c| c.name.clone()).collect()).unwrap_or_default();
    if setup.fleet_np > 0 {
        names.push(FLEET.to_owned());
    }
    names.retain(|name| state.counter(side, name).is_none());
    names
}

/// MG-36: the counters still at sea that could land now, and so must before the side's first
/// movement ends; a coast held all along by the enemy lets the rest stay at sea.
pub fn to_land(state: &CampaignState, map: &Map, side: &SideId) -> Vec<String> {
    let mut names = still_at_sea(state, side);
    names.retain(|name| map.nodes.values().any(|n| land(state, map, side, name, n.id).is_ok()));
    names
}

fn check_mover(state: &CampaignState, side: &SideId, phase: Phase) -> Result<(), RuleError> {
    if state.phase != phase {
        return Err(RuleError::new(RuleId::MG_09, format!("it is the {} phase, not {}", state.phase.name(), phase.name())));
    }
    if state.moving_side() != side {
        return Err(RuleError::new(
            RuleId::MG_09,
            format!("it is {}'s player-turn, not {}'s", side_name(state, state.moving_side()), side_name(state, side)),
        ));
    }
    Ok(())
}

/// MG-09: ends the moving side's current phase, with what the rules do at its end:
/// stacking is checked and alliance rolls made after movement (MG-12, MG-06), battles are
/// raised (MG-10); combat ends only when every battle has its result.
pub fn end_phase(state: &CampaignState, map: &Map, side: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let phase = state.phase;
    if !matches!(phase, Phase::Movement | Phase::Combat | Phase::PostCombat) {
        return Err(RuleError::new(RuleId::MG_09, format!("there is no phase to end during {}", phase.name())));
    }
    check_mover(state, side, phase)?;
    let mut events = Vec::new();
    match phase {
        Phase::Movement => {
            let at_sea = to_land(state, map, side);
            if !at_sea.is_empty() {
                let names: Vec<String> = at_sea.iter().map(|n| counter_label(n)).collect();
                return Err(RuleError::new(
                    RuleId::MG_36,
                    format!(
                        "{} {} still at sea and must land this movement phase, {} first, at a southern coastal node (`land`)",
                        crate::core::words::and_list(&names),
                        if names.len() == 1 { "is" } else { "are" },
                        crate::core::words::possessive(&side_name(state, side))
                    ),
                ));
            }
            if let Some((node, n)) = state.overstacked(side).into_iter().next() {
                return Err(RuleError::new(
                    RuleId::MG_12,
                    format!(
                        "{n} {} counters stand at {}; at most {STACK_LIMIT} may end movement in one node",
                        side_name(state, side),
                        map.name(node)
                    ),
                ));
            }
            events.extend(alliance_rolls(state, map, side, dice)?);
            events.extend(super::naval::naval_battles(state, map, side, dice)?);
            events.extend(super::siege::siege_rolls(state, map, side, dice)?);
            // Capitals are taken, and battles raised, where the forces stand once the phase's
            // alliances, sea fights and sieges are settled: a fleet sunk off a capital does not
            // pass with it, a city won over marches with the mover (MG-06), a side put out of
            // the campaign fights no more (MG-32).
            let mut settled = state.clone();
            let settle = |settled: &mut CampaignState, events: &[Event]| {
                events.iter().try_for_each(|e| settled.apply(e)).map_err(|_| RuleError::new(RuleId::MG_09, "a campaign cannot start again"))
            };
            settle(&mut settled, &events)?;
            let mut more = super::siege::capitals_taken(&settled, map, side, dice)?;
            more.push(Event::PhaseEnded { side: side.clone(), phase });
            settle(&mut settled, &more)?;
            events.extend(more);
            if settled.phase != Phase::Ended {
                events.extend(raise_battles(&settled, map, side));
            }
        }
        Phase::Combat => {
            // The refusal is read by the side ending the phase: how many elements another
            // side lost is that side's own to know.
            if let Some((owing, due)) = state.siege.siege_losses_due.iter().next() {
                let what = if owing == side { format!("which {} elements", due.elements) } else { "the elements".to_owned() };
                return Err(RuleError::new(
                    if due.rule == RuleId::MG_29 { RuleId::MG_29 } else { RuleId::MG_28 },
                    format!("{} must first choose {what} it lost at {}", side_name(state, owing), map.name(due.node)),
                ));
            }
            if let Some((loser, n)) = state.naval.naval_losses_due.iter().next() {
                let what =
                    if loser == side { format!("which {n} carried elements were lost") } else { "the carried elements it lost".to_owned() };
                return Err(RuleError::new(RuleId::MG_18, format!("{} must first choose {what} at sea", side_name(state, loser))));
            }
            if let Some(b) = state.battles.first() {
                if b.awaiting_choices {
                    return Err(RuleError::new(
                        RuleId::MG_25,
                        format!(
                            "battle {} at {} ended with nobody beaten and awaits each side's choice to stay or retire (`choose_stay_or_retire`)",
                            b.id,
                            map.name(b.node)
                        ),
                    ));
                }
                return Err(RuleError::new(RuleId::MG_20, format!("battle {} at {} awaits its result", b.id, map.name(b.node))));
            }
            events.push(Event::PhaseEnded { side: side.clone(), phase });
        }
        _ => {
            events.extend(super::battle::trapped_commands(state, map, side)?);
            events.extend(super::naval::trapped_fleets(state, map)?);
            events.push(Event::PhaseEnded { side: side.clone(), phase });
        }
    }
    Ok(events)
}

/// MG-06: a d6 for each neutral (or opposing) city where the moving side has a land counter
/// at the end of its movement; a 6 brings the city over.
fn alliance_rolls(state: &CampaignState, map: &Map, side: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    for node in state.alliance_rolls_due(map, side) {
        let city = map.name(node);
        let roll = dice.roll(DiceSpec::D6, &format!("alliance of {city}"), Some(RuleId::MG_06), Vec::new())?;
        let joins = roll.total() >= ALLIANCE_ROLL;
        // Public: the roll names a city where a counter stands for all to see, takes no
        // modifier, and its result — the city joining or not — is public anyway.
        events.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Public }));
        if joins {
            events.push(Event::CityJoined { node, side: side.clone(), takes_node: true });
        }
    }
    Ok(events)
}

/// MG-10 / MG-20: a battle in every node where the moving side's counters stand with an
/// enemy's, or in a city allied to an enemy whose own commands meet them there; read off the
/// campaign as the phase's alliance rolls left it, so a city that came over to the mover as
/// its movement ended marches with it (MG-06).
fn raise_battles(state: &CampaignState, map: &Map, mover: &SideId) -> Vec<Event> {
    let mut nodes: BTreeMap<NodeId, BTreeSet<SideId>> = BTreeMap::new();
    for c in state.counters.iter().filter(|c| c.on_land()) {
        nodes.entry(c.node).or_default().insert(c.side.clone());
    }
    let mut next_id = state.battles_raised + 1;
    let mut events = Vec::new();
    for (node, sides) in nodes {
        if !sides.contains(mover) {
            continue;
        }
        let mut defenders: Vec<SideId> = sides.into_iter().filter(|s| state.are_enemies(mover, s)).collect();
        // MG-10: a city allied to an enemy of the mover meets it with its own commands, beside
        // that enemy's counters or alone (then as an attack on the city, MG-07: beaten, it
        // comes over).
        let city_ally = state.politics.city_allies.get(&node).filter(|ally| {
            state.are_enemies(mover, ally)
                && !state.politics.eliminated.contains(*ally)
                && state.siege_at(node).is_none()
                && !state.city_forces(map, node).is_empty()
        });
        let city_alone = defenders.is_empty() && city_ally.is_some();
        if let Some(ally) = city_ally.filter(|a| !defenders.contains(a)) {
            defenders.push(ally.clone());
        }
        if defenders.is_empty() {
            continue;
        }
        // MG-05 / MG-08: a city allied to one of the sides sends its commands into the battle.
        let city = state.politics.city_allies.get(&node).filter(|a| *a == mover || defenders.contains(a)).map(|_| node);
        let battle = Battle { city_attack: city_alone, ..Battle::raised(state, next_id, node, mover, defenders, city) };
        events.push(Event::BattleRaised { battle });
        next_id += 1;
    }
    events
}

impl CampaignState {
    /// Whether every side still in the campaign is on one side of the war (MG-32).
    pub fn one_camp_left(&self) -> bool {
        let left: Vec<&SideId> = self.scenario.move_order.iter().filter(|s| !self.politics.eliminated.contains(*s)).collect();
        left.iter().all(|a| left.iter().all(|b| !self.are_enemies(a, b)))
    }

    /// A siege whose besieger has no land counter left outside the walls is over (MG-28).
    pub(crate) fn lift_abandoned_sieges(&mut self) {
        let abandoned: Vec<NodeId> = self
            .siege
            .sieges
            .iter()
            .filter(|s| !self.counters.iter().any(|c| c.side == s.besieger && c.node == s.node && c.on_land()))
            .map(|s| s.node)
            .collect();
        for node in abandoned {
            self.apply_siege(&Event::SiegeLifted { node });
        }
    }

    /// Applies the turn's events; called from [`CampaignState::apply`].
    pub(crate) fn apply_turn(&mut self, event: &Event) {
        match event {
            Event::CounterDeployed { side, counter, node } => {
                self.counters.retain(|c| !(&c.side == side && &c.name == counter));
                self.counters.push(Counter::placed(side, counter, *node));
            }
            Event::PlayBegan => {
                self.phase = Phase::Movement;
                self.turn = 1;
                self.mover = 0;
            }
            Event::CounterMoved { side, counter, path, .. } => {
                let Some(&last) = path.last() else { return };
                if let Some(c) = self.counters.iter_mut().find(|c| &c.side == side && &c.name == counter) {
                    let before = path.len().checked_sub(2).map_or(c.node, |i| path[i]);
                    c.entered_from = Some(before);
                    c.sheltered = false;
                    c.mp_spent = c.mp_spent.saturating_add(u8::try_from(path.len()).unwrap_or(u8::MAX));
                    c.node = last;
                }
                // Commands aboard sail with their fleet, and salvaged ships waiting here join it.
                if counter == FLEET {
                    for c in self.counters.iter_mut().filter(|c| &c.side == side && c.aboard) {
                        c.node = last;
                    }
                    if let Some((at, np)) = self.naval.salvage.get(side).copied()
                        && at == last
                    {
                        self.naval.salvage.remove(side);
                        *self.naval.fleet_np.entry(side.clone()).or_default() += np;
                    }
                }
                self.lift_abandoned_sieges();
            }
            Event::CounterEmbarked { side, counter } => {
                let node = self.counter(side, counter).map(|c| c.node);
                for c in self.counters.iter_mut().filter(|c| &c.side == side && (&c.name == counter || c.name == FLEET)) {
                    c.mp_spent = c.mp_spent.saturating_add(1);
                    if &c.name == counter {
                        c.aboard = true;
                        c.node = node.unwrap_or(c.node);
                    }
                }
            }
            Event::ElementsExchanged { side, from, to, elements } => {
                for c in self.counters.iter_mut().filter(|c| &c.side == side && (&c.name == from || &c.name == to)) {
                    c.mp_spent = c.mp_spent.saturating_add(1);
                }
                let Some(army) = self.armies.get_mut(side) else { return };
                let mut giver = army.commands.iter().find(|c| &c.name == from).map(|c| c.elements.clone()).unwrap_or_default();
                let mut taker = army.commands.iter().find(|c| &c.name == to).map(|c| c.elements.clone()).unwrap_or_default();
                super::cities::transfer(&mut giver, &mut taker, elements);
                for c in &mut army.commands {
                    if &c.name == from {
                        c.elements = std::mem::take(&mut giver);
                    } else if &c.name == to {
                        c.elements = std::mem::take(&mut taker);
                    }
                }
            }
            Event::CounterDisembarked { side, counter } => {
                if let Some(c) = self.counters.iter_mut().find(|c| &c.side == side && &c.name == counter) {
                    c.aboard = false;
                }
            }
            Event::CounterLanded { side, counter, node } => {
                // Landing is the counter's whole move this phase.
                let mut landed = Counter::placed(side, counter, *node);
                landed.mp_spent = self.movement_points(&landed);
                self.counters.push(landed);
            }
            // A city that joins a side brings its node under that side's control: retiring
            // from a battle may go there (MG-26).
            Event::CityJoined { node, side, takes_node } => {
                self.politics.city_allies.insert(*node, side.clone());
                if *takes_node {
                    self.control.insert(*node, side.clone());
                }
            }
            Event::BattleRaised { battle } => {
                self.battles_raised = self.battles_raised.max(battle.id);
                self.battles.push(battle.clone());
            }
            // A campaign that ended inside this command (MG-32) stays ended.
            Event::PhaseEnded { .. } if self.phase == Phase::Ended => {}
            Event::PhaseEnded { phase, .. } => match phase {
                Phase::Combat => {
                    // An offer to change sides lapses if not taken at once (MG-35).
                    self.politics.switch_offer = None;
                    self.phase = Phase::PostCombat;
                }
                Phase::Movement => {
                    self.siege.sallied.clear();
                    self.phase = Phase::Combat;
                }
                Phase::PostCombat => {
                    for c in &mut self.counters {
                        c.mp_spent = 0;
                        c.entered_from = None;
                    }
                    // Sides out of the campaign (MG-32) lose their player-turns.
                    loop {
                        self.mover += 1;
                        if self.mover >= self.scenario.move_order.len() {
                            self.mover = 0;
                            self.turn += 1;
                            // MG-24: surrendered cities change sides as the new turn begins.
                            for (node, side) in std::mem::take(&mut self.siege.city_turns_next) {
                                self.politics.city_allies.insert(node, side);
                            }
                        }
                        let out = self.politics.eliminated.contains(self.moving_side());
                        if !out || self.politics.eliminated.len() >= self.scenario.move_order.len() {
                            break;
                        }
                    }
                    self.phase = if self.turn > self.scenario.turns || self.one_camp_left() { Phase::Ended } else { Phase::Movement };
                }
                Phase::Setup | Phase::Ended => {}
            },
            _ => {}
        }
    }
}

/// MG-27: the refusal of any move but the fight for a command that sallied this phase.
fn stands_to_fight(map: &Map, counter: &Counter) -> RuleError {
    let place = map.name(counter.node);
    RuleError::new(
        RuleId::MG_27,
        format!("{} sallied out of {place} to fight the besiegers there, and stands to give battle this turn", counter.name),
    )
}

/// MG-16: the refusal of a fleet's move ending at `node`, where enemy land counters stand.
pub(crate) fn fleet_may_not_stop(map: &Map, node: NodeId) -> RuleError {
    RuleError::new(RuleId::MG_16, format!("a fleet may sail past enemy land counters at {} but not end its move there", map.name(node)))
}
