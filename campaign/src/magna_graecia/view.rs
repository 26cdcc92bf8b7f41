//! Views: what one viewer may know. A [`SideView`] is built from the state with only
//! what that side knows, and has no field that could hold anything else; every side's
//! screen and export is drawn from it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::army::{Army, CommandRoster, ElementGroup};
use super::battle::Victory;
use super::event::Logged;
use super::map::{Edge, Map};
use super::scenario::{Capital, Pattern};
use super::siege::{LossesDue, Siege};
use super::state::CampaignState;
use super::table::BattleTable;
use super::turn::{Counter, Phase};
use crate::core::history::{Measure, Reading};
pub use crate::core::viewer::Viewer;
use crate::ids::{NodeId, SideId};

/// Public facts about a node: control and alliance are known to all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeStatus {
    pub id: NodeId,
    pub controller: Option<SideId>,
    pub allied_to: Option<SideId>,
    /// The side whose capital this is.
    pub capital_of: Option<SideId>,
    /// Commands the city fields (MG-05), where the node is fortified.
    pub city_commands: Option<u8>,
}

impl NodeStatus {
    /// Whether `side` holds the place, as its own, its ally's or its capital: a defender
    /// attacked there may withdraw inside the walls (MG-27).
    pub fn held_by(&self, side: &SideId) -> bool {
        [&self.controller, &self.allied_to, &self.capital_of].into_iter().any(|s| s.as_ref() == Some(side))
    }
}

/// Public facts about a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SidePublic {
    pub id: SideId,
    pub name: String,
    pub colour: [u8; 3],
    pub pattern: Pattern,
    pub capital: Option<Capital>,
}

/// What everyone at the table may know: the campaign's map position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub campaign: String,
    pub scenario: String,
    pub scenario_name: String,
    pub turn: u32,
    pub turns: u32,
    pub moving: SideId,
    pub phase: Phase,
    pub sides: Vec<SidePublic>,
    pub nodes: Vec<NodeStatus>,
    /// Every counter on the map, as anyone can see it: whose, where, land or fleet (MG-03).
    pub counters: Vec<CounterMark>,
    /// Battles due, without who fights in them beyond the sides.
    pub battles: Vec<BattleMark>,
    /// During movement, the cities whose alliance the moving side rolls for when it ends the
    /// phase, in rolling order (MG-06): how many dice to roll at the table.
    pub alliance_rolls_due: Vec<NodeId>,
    /// Sides fighting on the same side of the war now.
    pub alliances: Vec<(SideId, SideId)>,
    /// A side that may change sides at once because its ally just lost a land battle, and
    /// that ally (MG-35).
    pub switch_offer: Option<(SideId, SideId)>,
    /// Victory points of each side, from what everyone has seen happen (MG-33).
    pub victory: BTreeMap<SideId, Victory>,
    /// Cities under siege (MG-27).
    pub sieges: Vec<Siege>,
    /// Sides out of the campaign (MG-32).
    pub eliminated: Vec<SideId>,
    /// Battles raised so far: their numbers are public.
    pub battles_raised: u32,
    /// Sides with land retreats still to make and a way out, as everyone saw their battles
    /// end and their counters go (MG-15, MG-25): the side not moving retreats first; a
    /// counter with no way out waits only to be destroyed, and holds up nobody.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreating: Vec<SideId>,
}

/// A counter as seen across the table: no name, no composition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterMark {
    pub side: SideId,
    pub node: NodeId,
    pub fleet: bool,
    /// Inside the walls of a besieged city (MG-27).
    pub inside: bool,
}

/// A battle as everyone knows it: where, and which sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleMark {
    pub id: u32,
    pub node: NodeId,
    pub attacker: SideId,
    pub defenders: Vec<SideId>,
    pub day: u8,
    /// Fought without a loser and waiting for stay-or-retire choices (MG-25).
    pub awaiting_choices: bool,
    /// Sides that have written their choice (what they chose stays secret).
    pub chosen: Vec<SideId>,
    /// The edges of the node's battle map the attacker came in by (MG-21).
    pub entry_edges: Vec<Edge>,
    /// The table set for the current day, with its weather and time of day (MG-21, MG-22).
    pub table: Option<BattleTable>,
    /// The city at the node whose own commands fight, and whether it is the one attacked
    /// (MG-05, MG-07).
    pub city: Option<NodeId>,
    pub city_attack: bool,
}

impl Board {
    pub fn side(&self, id: &SideId) -> Option<&SidePublic> {
        self.sides.iter().find(|s| &s.id == id)
    }

    /// A side's name ("Carthage"), or its id for a side the campaign does not have.
    pub fn side_name(&self, id: &SideId) -> String {
        self.side(id).map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    /// A fortified city allied to no side and nobody's capital (MG-07, MG-08): the board
    /// knows a node is fortified by the commands it fields. Screens and packs ask this
    /// rather than work it out again.
    pub fn is_neutral_city(&self, node: NodeId) -> bool {
        self.node(node).is_some_and(|s| s.city_commands.is_some() && s.allied_to.is_none() && s.capital_of.is_none())
    }

    /// Whether two sides stand together: the same side, or allied as the board's
    /// alliances say today (MG-35 may change them).
    pub fn on_same_side(&self, a: &SideId, b: &SideId) -> bool {
        a == b || self.alliances.iter().any(|(x, y)| (x == a && y == b) || (x == b && y == a))
    }

    /// Whether two sides fight each other.
    pub fn are_enemies(&self, a: &SideId, b: &SideId) -> bool {
        !self.on_same_side(a, b)
    }

    pub fn node(&self, id: NodeId) -> Option<&NodeStatus> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

/// A side's own forces, which the other sides do not see (MG-03).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forces {
    pub side: SideId,
    /// Points the scenario allows the army.
    pub army_points: u32,
    /// Points the roster costs.
    pub points_spent: u32,
    pub fleet_np: u32,
    pub army: Option<Army>,
    /// Movement points of each command, in roster order (MG-11).
    pub movement_points: Vec<u8>,
    /// The side's counters on the map, by name, with MP spent this phase.
    pub counters: Vec<Counter>,
    /// Elements held in the side's strength-0 capital by its inherent sub-general (MG-04).
    pub garrison: Vec<ElementGroup>,
    /// Full movement points of each counter, by name, the fleet included (MG-11).
    pub counter_mp: BTreeMap<String, u8>,
    /// During setup, where each command (and the fleet) may be deployed (MG-02).
    pub deployable: BTreeMap<String, Vec<NodeId>>,
    /// Carried elements the side must choose to lose after a naval defeat (MG-18).
    pub naval_losses_due: u32,
    /// Where the side's beaten fleet may retreat, when it owes a retreat (MG-15).
    pub fleet_retreats: BTreeMap<NodeId, Vec<NodeId>>,
    /// For each of the side's land counters owing a retreat, where it may go (MG-15).
    pub land_retreats: BTreeMap<String, BTreeMap<NodeId, Vec<NodeId>>>,
    /// Elements the side must choose to lose after a siege or disease (MG-28, MG-29).
    pub siege_losses_due: Option<LossesDue>,
    /// Where each of these counters may move now, with the path (empty outside the side's
    /// movement phase; MG-11, MG-13, MG-16).
    pub moves: BTreeMap<String, BTreeMap<NodeId, Vec<NodeId>>>,
    /// The side's commands that lost their general and fight on without one (MG-31).
    pub leaderless: Vec<String>,
    /// For each battle the side fights in beside the commands of a city allied to it, those
    /// commands as they stand now (MG-05): the side commands them on the table.
    pub allied_city_commands: BTreeMap<u32, Vec<CommandRoster>>,
    /// Elements the side has lost so far, in battle, at sea, to sieges and disease.
    pub elements_lost: u32,
    /// The side's counters still at sea on its first turn that could land, and so must before
    /// its movement ends (MG-36): commands by name, then the fleet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub at_sea: Vec<String>,
}

impl Forces {
    /// Elements the side fields: its commands' and its capital's garrison.
    pub fn elements(&self) -> u32 {
        let army = self.army.as_ref().map_or(0, |a| a.commands.iter().map(|c| self.elements_of(c)).sum());
        army + self.garrison.iter().map(|g| g.count).sum::<u32>()
    }

    /// Whether one of the side's commands lost its general and fights on without him (MG-31).
    pub fn is_leaderless(&self, command: &str) -> bool {
        self.leaderless.iter().any(|c| c == command)
    }

    /// Elements of one of the side's commands now: a leaderless command's general is gone
    /// (MG-31).
    pub fn elements_of(&self, command: &CommandRoster) -> u32 {
        command.elements_fielded(self.is_leaderless(&command.name))
    }
}

pub use crate::core::viewer::LogLine;

/// What one side knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    pub side: SideId,
    pub board: Board,
    pub own: Forces,
    pub log: Vec<LogLine>,
}

/// What the umpire knows: everything but the dice seed, which a referee asks for on purpose
/// (`CampaignState::seed`) so that it is never on a screen or in an export by accident.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UmpireView {
    pub board: Board,
    pub forces: Vec<Forces>,
    pub log: Vec<LogLine>,
}

/// Either view, for code that draws both.
pub type View = crate::core::view::View<UmpireView, SideView>;

crate::core::view::seen!(Board: UmpireView, SideView);

impl View {
    /// The numbers this view holds for charts: every side's victory points and nodes
    /// controlled, the battles raised and sieges under way (all public), and the strength
    /// and losses of the forces the viewer may see.
    pub fn readings(&self) -> Vec<Reading> {
        let board = self.board();
        let reading = |measure, side: Option<&SideId>, value: u32, unit: &str| Reading {
            measure,
            side: side.cloned(),
            value: f64::from(value),
            unit: unit.to_owned(),
        };
        let mut out = Vec::new();
        for s in &board.sides {
            let vp = board.victory.get(&s.id).map_or(0, |v| v.total);
            out.push(reading(Measure::VictoryPoints, Some(&s.id), vp, "points"));
            let held = u32::try_from(board.nodes.iter().filter(|n| n.controller.as_ref() == Some(&s.id)).count()).unwrap_or(u32::MAX);
            out.push(reading(Measure::Held, Some(&s.id), held, "nodes"));
        }
        for f in self.forces() {
            out.push(reading(Measure::Strength, Some(&f.side), f.elements(), "elements"));
            out.push(reading(Measure::Losses, Some(&f.side), f.elements_lost, "elements"));
        }
        out.push(reading(Measure::Battles, None, board.battles_raised, "battles"));
        let sieges = u32::try_from(board.sieges.len()).unwrap_or(u32::MAX);
        out.push(reading(Measure::Sieges, None, sieges, "cities"));
        out
    }

    /// The forces this viewer may see: all for the umpire, its own for a side.
    pub fn forces(&self) -> Vec<&Forces> {
        match self {
            View::Umpire(v) => v.forces.iter().collect(),
            View::Side(v) => vec![&v.own],
        }
    }
}

fn board(state: &CampaignState, map: &Map) -> Board {
    let scenario = &state.scenario;
    let sides = scenario
        .sides
        .iter()
        .map(|s| SidePublic { id: s.id.clone(), name: s.name.clone(), colour: s.colour, pattern: s.pattern, capital: s.capital })
        .collect::<Vec<_>>();
    let nodes = map
        .nodes
        .keys()
        .map(|&id| NodeStatus {
            id,
            controller: state.control.get(&id).cloned(),
            allied_to: state.politics.city_allies.get(&id).cloned(),
            capital_of: sides.iter().find(|s| s.capital.is_some_and(|c| c.node == id)).map(|s| s.id.clone()),
            city_commands: state.city_command_count(map, id),
        })
        .collect();
    Board {
        campaign: state.name.clone(),
        scenario: scenario.id.clone(),
        scenario_name: scenario.name.clone(),
        turn: state.turn,
        turns: scenario.turns,
        moving: state.moving_side().clone(),
        phase: state.phase,
        sides,
        nodes,
        counters: {
            // ordered by what the table shows (side, node, kind), never by deployment,
            // so that a counter's place in the list is no name that follows it round the map.
            let mut marks: Vec<CounterMark> = state
                .counters
                .iter()
                .map(|c| CounterMark { side: c.side.clone(), node: c.node, fleet: c.is_fleet(), inside: c.inside })
                .collect();
            marks.sort_by(|a, b| (&a.side, a.node, a.fleet, a.inside).cmp(&(&b.side, b.node, b.fleet, b.inside)));
            marks
        },
        alliances: state.politics.alliances.iter().cloned().collect(),
        switch_offer: state.politics.switch_offer.clone(),
        victory: state.victory_points(),
        sieges: state.siege.sieges.clone(),
        eliminated: state.politics.eliminated.iter().cloned().collect(),
        battles_raised: state.battles_raised,
        retreating: state.sides_to_retreat(map),
        alliance_rolls_due: if state.phase == Phase::Movement { state.alliance_rolls_due(map, state.moving_side()) } else { Vec::new() },
        battles: state
            .battles
            .iter()
            .map(|b| BattleMark {
                id: b.id,
                node: b.node,
                attacker: b.attacker.clone(),
                defenders: b.defenders.clone(),
                day: b.day,
                awaiting_choices: b.awaiting_choices,
                chosen: b.choices.keys().cloned().collect(),
                entry_edges: super::table::entry_edges(map, b),
                table: b.table.clone(),
                city: b.city,
                city_attack: b.city_attack,
            })
            .collect(),
    }
}

fn forces(state: &CampaignState, map: &Map, side: &SideId) -> Option<Forces> {
    let table = &state.scenario.elements;
    let army = state.armies.get(side).cloned();
    let deployable = if state.phase == Phase::Setup {
        let mut names: Vec<String> = army.iter().flat_map(|a| a.commands.iter().map(|c| c.name.clone())).collect();
        names.push(super::turn::FLEET.to_owned());
        names
            .into_iter()
            .map(|n| {
                let nodes = state.deploy_nodes(map, side, &n);
                (n, nodes)
            })
            .filter(|(_, nodes)| !nodes.is_empty())
            .collect()
    } else {
        BTreeMap::new()
    };
    state.scenario.side(side).map(|s| Forces {
        side: s.id.clone(),
        army_points: s.army_points,
        points_spent: army.as_ref().map_or(0, |a| table.army_points(a)),
        fleet_np: state.fleet_np(side),
        movement_points: army.as_ref().map_or_else(Vec::new, |a| a.commands.iter().map(|c| table.movement_points(c)).collect()),
        army,
        counters: state.counters.iter().filter(|c| &c.side == side).cloned().collect(),
        garrison: state.garrisons.get(side).cloned().unwrap_or_default(),
        counter_mp: state.counters.iter().filter(|c| &c.side == side).map(|c| (c.name.clone(), state.movement_points(c))).collect(),
        deployable,
        naval_losses_due: state.naval.naval_losses_due.get(side).copied().unwrap_or(0),
        fleet_retreats: if state.naval.retreats_due.contains(side) { state.fleet_retreats(map, side) } else { BTreeMap::new() },
        siege_losses_due: state.siege.siege_losses_due.get(side).cloned(),
        land_retreats: state
            .losses
            .land_retreats_due
            .iter()
            .filter(|r| &r.side == side)
            .map(|r| (r.command.clone(), state.land_retreats(map, side, &r.command)))
            .collect(),
        moves: state
            .counters
            .iter()
            .filter(|c| &c.side == side)
            .map(|c| (c.name.clone(), state.destinations(map, side, &c.name)))
            .filter(|(_, d)| !d.is_empty())
            .collect(),
        leaderless: state.losses.leaderless.iter().filter(|(s, _)| s == side).map(|(_, c)| c.clone()).collect(),
        allied_city_commands: state
            .battles
            .iter()
            .filter_map(|b| b.city.filter(|n| state.politics.city_allies.get(n) == Some(side)).map(|n| (b.id, state.city_forces(map, n))))
            .collect(),
        elements_lost: state.losses.elements_lost.get(side).copied().unwrap_or(0),
        at_sea: super::turn::to_land(state, map, side),
    })
}

/// The log as `viewer` reads it. The umpire's lines carry the events' numbers in the store; a
/// side's lines are numbered in their own sequence, 1, 2, 3…, since gaps in the store's
/// numbers would count the events hidden from it.
fn log(state: &CampaignState, map: &Map, events: &[Logged], viewer: &Viewer) -> Vec<LogLine> {
    crate::core::view::log_lines::<super::engine::MagnaGraecia>(state, map, events, viewer, 1)
}

/// What one viewer sees of a Magna Graecia campaign, kept up to date order by order.
pub type Followed = crate::core::view::Followed<super::engine::MagnaGraecia>;

/// `viewer`'s view built again from the state around a log already described; the log
/// comes back for a side the campaign no longer has.
pub(super) fn refresh(state: &CampaignState, map: &Map, viewer: &Viewer, previous: &View, log: Vec<LogLine>) -> Result<View, Vec<LogLine>> {
    Ok(match viewer {
        Viewer::Umpire => View::Umpire(umpire(state, map, log)),
        Viewer::Side(side) => {
            // A side the campaign has is never lost; were it, the side would keep what it
            // had, never see more.
            let own = forces(state, map, side).or_else(|| match previous {
                View::Side(v) => Some(v.own.clone()),
                View::Umpire(_) => None,
            });
            match own {
                Some(own) => View::Side(SideView { side: side.clone(), board: board(state, map), own, log }),
                None => return Err(log),
            }
        }
    })
}

/// The umpire's view of the campaign; `events` are the campaign's stored events for the log.
pub fn umpire_view(state: &CampaignState, map: &Map, events: &[Logged]) -> UmpireView {
    umpire(state, map, log(state, map, events, &Viewer::Umpire))
}

/// The umpire's view around a log already described.
fn umpire(state: &CampaignState, map: &Map, log: Vec<LogLine>) -> UmpireView {
    UmpireView { board: board(state, map), forces: state.scenario.sides.iter().filter_map(|s| forces(state, map, &s.id)).collect(), log }
}

/// One side's view, or `None` if the campaign has no such side.
pub fn side_view(state: &CampaignState, map: &Map, events: &[Logged], side: &SideId) -> Option<SideView> {
    Some(SideView {
        side: side.clone(),
        board: board(state, map),
        own: forces(state, map, side)?,
        log: log(state, map, events, &Viewer::Side(side.clone())),
    })
}

/// The view for `viewer`, or `None` for a side the campaign does not have.
pub fn view_for(state: &CampaignState, map: &Map, events: &[Logged], viewer: &Viewer) -> Option<View> {
    match viewer {
        Viewer::Umpire => Some(View::Umpire(umpire_view(state, map, events))),
        Viewer::Side(s) => side_view(state, map, events, s).map(View::Side),
    }
}
