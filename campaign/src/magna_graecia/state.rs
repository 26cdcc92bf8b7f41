//! Campaign state, built only by applying events in order.

use crate::core::log::{CampaignStarted, NoteAdded};
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::army::{Army, CommandRoster, ElementGroup};
use super::battle::{CommanderLost, RetreatDue};
use super::event::Event;
use super::map::Map;
use super::scenario::Scenario;
use super::siege::{LossesDue, Siege};
use super::turn::{Battle, Counter, Phase};
use crate::ids::{NodeId, SideId};

/// Bumped whenever the serialised shape of [`CampaignState`] changes, or what an event does
/// to it, so stored snapshots of an older state are ignored and the events replayed instead.
pub const STATE_VERSION: u32 = 22;

/// Everything true of a campaign at one moment, the umpire's whole knowledge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignState {
    pub name: String,
    pub scenario: Scenario,
    /// The dice stream's seed: the umpire's secret.
    pub seed: u64,
    /// Position of the dice stream after the last seeded roll.
    pub stream_pos: u64,
    /// Campaign turn, from 1 to the scenario's number of turns (MG-09).
    pub turn: u32,
    /// Index into the scenario's move order of the side whose player-turn it is.
    pub mover: usize,
    /// Who controls each node; a node missing here is uncontrolled.
    pub control: BTreeMap<NodeId, SideId>,
    pub rolls: u64,
    pub notes: u64,
    /// Where the turn stands; rosters may change only in [`Phase::Setup`] (MG-03).
    pub phase: Phase,
    /// Counters on the map.
    pub counters: Vec<Counter>,
    /// Battles raised and waiting for their results.
    pub battles: Vec<Battle>,
    /// Battles raised so far, for numbering them.
    pub battles_raised: u32,
    /// Each side's field army, by side (MG-03).
    pub armies: BTreeMap<SideId, Army>,
    /// Elements left in a strength-0 capital under its inherent sub-general (MG-04).
    pub garrisons: BTreeMap<SideId, Vec<ElementGroup>>,
    /// Fleets at sea and after naval battles (MG-15…MG-19, MG-33, MG-36).
    pub naval: NavalState,
    /// Cities under siege and what sieges leave to settle (MG-05, MG-07, MG-24, MG-27…MG-29).
    pub siege: SiegeState,
    /// What land battles have cost and still owe (MG-15, MG-31, MG-33).
    pub losses: LossState,
    /// Who stands with whom, who is out, who left the map (MG-24, MG-32, MG-34, MG-35).
    pub politics: PoliticsState,
}

/// Fleets at sea and after naval battles (MG-15…MG-19, MG-33, MG-36).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NavalState {
    /// Each side's fleet strength in NPs (MG-16, MG-18).
    pub fleet_np: BTreeMap<SideId, u32>,
    /// Carried elements a side must choose to lose after a naval defeat (MG-18).
    pub naval_losses_due: BTreeMap<SideId, u32>,
    /// Sides whose beaten fleet must retreat in post-combat movement (MG-15).
    pub retreats_due: Vec<SideId>,
    /// Enemy NPs each side has destroyed (MG-33).
    pub np_destroyed: BTreeMap<SideId, u32>,
    /// Who won the naval battle whose losses a side still has to choose (MG-18).
    pub naval_victor: BTreeMap<SideId, SideId>,
    /// Salvaged NPs waiting at a node for their side's fleet to come for them (MG-19).
    pub salvage: BTreeMap<SideId, (NodeId, u32)>,
    /// Allied fleets joined as one (MG-36): the commanding side and its partner.
    pub combined_fleet: Option<(SideId, SideId)>,
    /// Enemy NPs the combined fleet has sunk, shared by the two allies (MG-36).
    pub np_destroyed_combined: u32,
    /// Fleets put under an ally's command, not yet combined: the offering side and the ally
    /// (MG-36).
    #[serde(default)]
    pub fleet_offers: BTreeMap<SideId, SideId>,
}

/// Cities under siege and what sieges leave to settle (MG-05, MG-07, MG-24, MG-27…MG-29).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiegeState {
    /// Cities under siege (MG-27).
    pub sieges: Vec<Siege>,
    /// The commands of cities that have fought, as their battles left them (MG-05, MG-07).
    pub city_forces_left: BTreeMap<NodeId, Vec<CommandRoster>>,
    /// Cities that change sides when the next campaign turn begins (MG-24).
    pub city_turns_next: BTreeMap<NodeId, SideId>,
    /// Losses a side must choose after a city fell or disease struck (MG-28, MG-29).
    pub siege_losses_due: BTreeMap<SideId, LossesDue>,
    /// Cities whose besieged came out this movement phase to fight the besiegers there
    /// (MG-27): their land commands stand in the node until the battle.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub sallied: BTreeSet<NodeId>,
}

/// What land battles have cost and still owe (MG-15, MG-31, MG-33).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LossState {
    /// Elements each side has lost for good.
    pub elements_lost: BTreeMap<SideId, u32>,
    /// Commanders lost for good (MG-31, MG-33).
    pub commanders_lost: Vec<CommanderLost>,
    /// Beaten land counters that must retreat in post-combat movement (MG-15).
    pub land_retreats_due: Vec<RetreatDue>,
    /// Commands fighting on without a leader (MG-31): they cannot move.
    pub leaderless: BTreeSet<(SideId, String)>,
}

/// Who stands with whom, who is out, who left the map (MG-24, MG-32, MG-34, MG-35).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PoliticsState {
    /// Fortified cities allied to a side (capitals are their side's own, not listed).
    pub city_allies: BTreeMap<NodeId, SideId>,
    /// Pairs of sides on the same side of the war; starts as the scenario sets it (MG-35
    /// may change it).
    pub alliances: BTreeSet<(SideId, SideId)>,
    /// A side offered the chance to change sides because its ally just lost a land battle,
    /// and that ally (MG-35).
    pub switch_offer: Option<(SideId, SideId)>,
    /// Sides out of the campaign, their capital taken (MG-32).
    pub eliminated: BTreeSet<SideId>,
    /// Commands led off the map (MG-34): side and the elements they took.
    pub exits: Vec<(SideId, u32)>,
    /// Turns in which a command left the map: one a turn (MG-34).
    pub exit_turns: BTreeSet<u32>,
}

/// Why a list of events does not make a campaign.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the campaign's first event is not its start")]
    NoStart,
    #[error("event {0} starts the campaign a second time")]
    StartedTwice(usize),
}

pub use crate::core::engine::StartedAgain;

/// Why a campaign started before maps were kept with it cannot be drawn on the data's map:
/// the data has no map of its id, or the map lacks a node the campaign stands on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("campaign “{name}” is played on map `{map}`, which is not in the data")]
    NotInData { name: String, map: String },
    #[error(
        "campaign “{name}” stands on node {node}, which the map `{map}` in the data does not have: \
         use the data the campaign was started with"
    )]
    NodeMissing { name: String, node: NodeId, map: String },
}

impl CampaignState {
    /// The state right after the campaign starts from `scenario`.
    pub fn new(name: &str, scenario: &Scenario, seed: u64) -> CampaignState {
        let mut control = BTreeMap::new();
        for side in &scenario.sides {
            for &n in &side.controls {
                control.insert(n, side.id.clone());
            }
        }
        let city_allies = scenario.initial_city_allies();
        CampaignState {
            name: name.to_owned(),
            scenario: scenario.clone(),
            seed,
            stream_pos: 0,
            turn: 1,
            mover: 0,
            control,
            rolls: 0,
            notes: 0,
            phase: Phase::Setup,
            counters: Vec::new(),
            battles: Vec::new(),
            battles_raised: 0,
            armies: scenario.armies.iter().map(|a| (a.side.clone(), a.clone())).collect(),
            garrisons: BTreeMap::new(),
            naval: NavalState {
                fleet_np: scenario.sides.iter().filter(|s| s.fleet_np > 0).map(|s| (s.id.clone(), s.fleet_np)).collect(),
                ..NavalState::default()
            },
            siege: SiegeState::default(),
            losses: LossState::default(),
            politics: PoliticsState { city_allies, alliances: scenario.alliances.clone(), ..PoliticsState::default() },
        }
    }

    /// Rebuilds a state from a campaign's complete event list.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<CampaignState, ReplayError> {
        let mut events = events.into_iter();
        let Some(Event::CampaignStarted(CampaignStarted { name, scenario, seed })) = events.next() else {
            return Err(ReplayError::NoStart);
        };
        let mut state = CampaignState::new(name, scenario, *seed);
        for (i, e) in events.enumerate() {
            state.apply(e).map_err(|StartedAgain| ReplayError::StartedTwice(i + 1))?;
        }
        Ok(state)
    }

    /// Applies one event. Pure and deterministic; fails only on a second start.
    pub fn apply(&mut self, event: &Event) -> Result<(), StartedAgain> {
        match event {
            Event::CampaignStarted(_) => return Err(StartedAgain),
            Event::DiceRolled(rolled) => rolled.count(&mut self.rolls, &mut self.stream_pos),
            Event::NoteAdded(NoteAdded { .. }) => self.notes += 1,
            Event::CampaignRenamed(renamed) => self.name.clone_from(&renamed.name),
            Event::ArmyReplaced { army } => {
                // Counters of commands the new roster no longer has leave the map.
                let names: Vec<&str> = army.commands.iter().map(|c| c.name.as_str()).collect();
                self.counters.retain(|c| c.side != army.side || c.is_fleet() || names.contains(&c.name.as_str()));
                self.armies.insert(army.side.clone(), army.clone());
            }
            Event::GarrisonChanged { side, command, elements, into_garrison } => {
                self.apply_garrison(side, command, elements, *into_garrison);
            }
            Event::BattleResolved { .. }
            | Event::BattleDrawn { .. }
            | Event::StayOrRetireChosen { .. }
            | Event::ChoicesRevealed { .. }
            | Event::CounterRetreated { .. }
            | Event::CommandDestroyed { .. } => self.apply_battle(event),
            Event::SidesSwitched { side, from, to } => {
                let pair = |a: &SideId, b: &SideId| (a.clone().min(b.clone()), a.clone().max(b.clone()));
                self.politics.alliances.remove(&pair(side, from));
                self.politics.alliances.insert(pair(side, to));
                self.politics.switch_offer = None;
            }
            Event::SiegeBegun { .. }
            | Event::SiegeRolled { .. }
            | Event::SiegeLifted { .. }
            | Event::CityFell { .. }
            | Event::CapitalTaken { .. }
            | Event::DiseaseStruck { .. }
            | Event::SiegeLossesTaken { .. }
            | Event::SallyMade { .. }
            | Event::CommandExited { .. } => self.apply_siege(event),
            Event::CampaignEnded { .. } => self.phase = Phase::Ended,
            Event::CityCommandsSurrendered { node, commands, to } => {
                if let Some(forces) = self.siege.city_forces_left.get_mut(node) {
                    forces.retain(|c| !commands.contains(&c.name));
                }
                self.siege.city_turns_next.insert(*node, to.clone());
            }
            Event::CityForcesMustered { node, forces } => {
                self.siege.city_forces_left.entry(*node).or_insert_with(|| forces.clone());
            }
            Event::CityAttacked { battle, forces } => {
                if let (Some(node), Some(ally)) = (battle.city, battle.defenders.first()) {
                    self.politics.city_allies.insert(node, ally.clone());
                    self.siege.city_forces_left.entry(node).or_insert_with(|| forces.clone());
                }
                self.battles_raised = self.battles_raised.max(battle.id);
                self.battles.push(battle.clone());
            }
            Event::NavalBattleFought { .. }
            | Event::NavalLossesTaken { .. }
            | Event::FleetRetreated { .. }
            | Event::FleetDestroyed { .. }
            | Event::FleetSheltered { .. }
            | Event::FleetsCombined { .. }
            | Event::FleetOffered { .. }
            | Event::ShelteredFleetsLost { .. } => self.apply_naval(event),
            Event::CounterDeployed { .. }
            | Event::PlayBegan
            | Event::CounterMoved { .. }
            | Event::CounterEmbarked { .. }
            | Event::ElementsExchanged { .. }
            | Event::CounterDisembarked { .. }
            | Event::CounterLanded { .. }
            | Event::PhaseEnded { .. }
            | Event::CityJoined { .. }
            | Event::BattleRaised { .. } => self.apply_turn(event),
            Event::TableSet { battle, table, .. } => self.apply_table(*battle, table),
            Event::ControlAdjusted { node, to, .. } => match to {
                Some(s) => {
                    self.control.insert(*node, s.clone());
                }
                None => {
                    self.control.remove(node);
                }
            },
        }
        Ok(())
    }

    /// The map the campaign is played on: the one kept with it since its start, or, for a
    /// campaign started before maps were kept, `data` (the data files' map of the scenario's
    /// map id) when every node the campaign stands on is on it. Otherwise why the campaign
    /// cannot be drawn on it.
    pub fn map<'a>(&'a self, data: Option<&'a Map>) -> Result<&'a Map, MapError> {
        if let Some(map) = &self.scenario.map_data {
            return Ok(map);
        }
        let name = &self.name;
        let id = &self.scenario.map;
        let map = data.ok_or_else(|| MapError::NotInData { name: name.clone(), map: id.clone() })?;
        let used = self
            .counters
            .iter()
            .map(|c| c.node)
            .chain(self.control.keys().copied())
            .chain(self.politics.city_allies.keys().copied())
            .chain(self.battles.iter().map(|b| b.node))
            .chain(self.siege.sieges.iter().map(|s| s.node));
        for node in used {
            if map.node(node).is_none() {
                return Err(MapError::NodeMissing { name: name.clone(), node, map: id.clone() });
            }
        }
        Ok(map)
    }

    /// The side whose player-turn it is.
    pub fn moving_side(&self) -> &SideId {
        &self.scenario.move_order[self.mover % self.scenario.move_order.len()]
    }

    pub fn is_side(&self, side: &SideId) -> bool {
        self.scenario.side(side).is_some()
    }
}
