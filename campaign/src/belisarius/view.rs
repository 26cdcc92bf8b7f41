//! What one viewer may know of a Belisarius campaign (X-01, BE-53).
//!
//! To a side, the other side's leaders, decoys and leaderless groups do not exist as such:
//! there is a face-down land marker where each leader or decoy stands, and a face-down sea
//! marker where each fleet or fleet decoy is. A [`Marker`] of the other side has no field that
//! could say more, and the markers are listed in an order that depends only on where they
//! are. Units stand on their own side's Table of Organisation ([`Organisation`]) only.

use serde::{Deserialize, Serialize};

use super::event::{Event, Logged};
use super::map::{CityId, ZoneId};
use super::pieces::Unit;
use super::state::{Location, Phase, PieceKind, State};
use crate::core::error::RuleError;
use crate::core::history::{Measure, Reading};
use crate::core::log::{CampaignStarted, ChitDrawn};
use crate::core::viewer::Viewer;
use crate::core::words::{capitalised, count};
use crate::ids::SideId;

/// A face-down marker, or one of the viewer's own pieces seen face up.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Marker {
    pub side: SideId,
    pub at: Location,
    /// A sea marker (fleet or fleet decoy) rather than a land one.
    pub naval: bool,
    /// What the marker is, for its own side and the referee only: "Belisarius",
    /// "decoy", "fleet of 12 NPs". `None` for the other side's markers.
    pub face: Option<String>,
    /// Turned head down: its leader has been activated this phase (BE-07). Everyone sees it.
    #[serde(default)]
    pub spent: bool,
}

/// Public facts about a land zone: who controls it (BE-46).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneStatus {
    pub id: ZoneId,
    pub controller: Option<SideId>,
    /// Under a scorched earth marker (BE-44).
    #[serde(default)]
    pub scorched: bool,
}

/// Public facts about a city: its holder, militia (red) and fortification (black).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CityStatus {
    pub id: CityId,
    pub holder: Option<SideId>,
    pub militia: u8,
    /// The printed fortification rating.
    pub fortification: u8,
    /// The defence now: fortifications (0 once pulled down) and defence works, at most 5
    /// (BE-25, BE-32).
    #[serde(default)]
    pub defence: u8,
    #[serde(default)]
    pub defence_works: u8,
    /// The siege laid to it, if any: on the map for everyone (BE-24).
    #[serde(default)]
    pub siege: Option<SiegeBoard>,
}

/// A siege as everyone sees it: the duration marker and the works beside the city.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeBoard {
    pub besieger: SideId,
    pub duration: u8,
    pub siege_works: u8,
}

/// An assault's losses still owed, as everyone sees them (BE-27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssaultBoard {
    pub city: CityId,
    pub attacker: SideId,
    /// Points each side still owes.
    pub owed: Vec<(SideId, u32)>,
}

/// Losses a side owes and shares out itself — after an assault (BE-27) or for want of
/// supply (BE-41) — with the units numbered for `take_losses`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossesToShare {
    /// What the losses are for: "in the assault on Neapolis", "for want of supply at Roma".
    pub what: String,
    pub points: u32,
    /// The units, numbered from 1 in this order, with the leader whose box holds each (empty
    /// for units without a leader).
    pub units: Vec<(String, Unit)>,
    /// The militia's points, which may take losses for the defender; 0 for the attacker.
    pub militia: u8,
    /// A lawful share: (unit number, points) and the militia's part.
    pub suggested: (Vec<(u32, u8)>, u8),
}

/// A side as everyone knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SidePublic {
    pub id: SideId,
    pub name: String,
}

/// What everyone sees on the table, with the viewer's own pieces face up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub campaign: String,
    pub scenario_id: String,
    pub scenario_name: String,
    pub turn: u32,
    pub turns: u32,
    /// "autumn 533".
    pub date: String,
    pub phase: Phase,
    pub sides: Vec<SidePublic>,
    pub zones: Vec<ZoneStatus>,
    pub cities: Vec<CityStatus>,
    pub markers: Vec<Marker>,
    /// The operations phase as everyone sees it: who won the initiative, whose segment it
    /// is, and where the force acting now stands. No side's action points (BE-53).
    pub operations: Option<OperationsBoard>,
    /// A march halted where the enemy stands (BE-13).
    #[serde(default)]
    pub contact: Option<ContactBoard>,
    /// The battle being fought, both forces face up (BE-17, BE-53).
    #[serde(default)]
    pub battle: Option<BattleBoard>,
    /// An assault whose losses are being shared out (BE-27).
    #[serde(default)]
    pub assault: Option<AssaultBoard>,
    /// The last turn whose supply phase was played (BE-41).
    #[serde(default)]
    pub supplied: u32,
    /// A sortie under way (BE-28), as everyone sees it.
    #[serde(default)]
    pub sortie: Option<SortieBoard>,
    /// A spring's reinforcement phase is still to be played (BE-45).
    #[serde(default)]
    pub reinforcements_to_play: bool,
    /// The campaign's end: the victory conditions judged, for everyone (BE-49 … BE-52).
    #[serde(default)]
    pub result: Option<super::victory::Judgement>,
    /// The scenario's victory conditions, and where each stands as the map shows it.
    #[serde(default)]
    pub victory: Vec<super::victory::Condition>,
    /// Ships halted in the enemy's sea zone, to be intercepted or let pass (BE-35).
    #[serde(default)]
    pub naval_contact: Option<NavalContactBoard>,
    /// A naval battle under way, both sides' ships face up (BE-36).
    #[serde(default)]
    pub naval_battle: Option<NavalBattleBoard>,
    /// This turn's events phase is still to be played (BE-47).
    #[serde(default)]
    pub events_to_play: bool,
    /// Events in force now, with the last turn each lasts (BE-47).
    #[serde(default)]
    pub events_in_force: Vec<(char, String, u32)>,
    /// Leaders away, or on their way, and how they come back (BE-47).
    #[serde(default)]
    pub away: Vec<String>,
    /// The Franks in Italy: whose pieces they are, whom they fight, their last turn (BE-48).
    #[serde(default)]
    pub franks: Option<super::franks::Franks>,
}

/// Ships halted where the enemy's ships are, as everyone sees them: sea markers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavalContactBoard {
    pub sea: super::map::SeaId,
    pub mover: SideId,
    /// The sea markers that sailed in.
    pub markers: u32,
}

/// One side in a naval battle, face up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquadronFace {
    pub side: SideId,
    /// Ships still afloat and their naval points.
    pub ships: u32,
    pub np: u32,
    pub start: u32,
    /// The leader aboard with the best tactical rating, and the rating (BE-36).
    pub admiral: Option<(String, u8)>,
    /// Combat points aboard.
    pub embarked: u32,
}

/// A naval battle as both sides see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavalBattleBoard {
    pub sea: super::map::SeaId,
    pub mover: SideId,
    pub passages: u32,
    pub squadrons: Vec<SquadronFace>,
}

/// A sortie as both sides see it: who sallied and with how many points, the answer, what
/// each side owes. Which boxes the units came from is their owners' business.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SortieBoard {
    pub city: CityId,
    pub side: SideId,
    /// The sallying leader's name: he acts in the open.
    pub leader: String,
    pub points: u32,
    /// The points the besiegers met it with, once they have.
    pub answered: Option<u32>,
    pub owed: Vec<(SideId, u32)>,
}

/// A contact as everyone sees it (BE-13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactBoard {
    pub zone: ZoneId,
    /// The side that marched in.
    pub mover: SideId,
    /// The side that may intercept or decline now.
    pub turn_of: SideId,
    /// Enemy markers in the open zone the mover may aim at, numbered from 1.
    pub targets: u32,
    /// Sides that have tried and failed here.
    pub failed: Vec<SideId>,
    pub agreed: Vec<SideId>,
    /// The marching force attacks the lines of a siege its side suffers here (BE-29).
    #[serde(default)]
    pub relief: bool,
    /// Leaders who have tried a force this contact offers them, and may not try it again here
    /// (BE-13: once per enemy force a turn). A side reads its own leaders' tries in this
    /// contact only: which of the other side's leaders tried is not its to know (BE-53), nor
    /// which marker here hides a force it tried elsewhere (BE-42). The referee reads both
    /// sides' tries this turn.
    #[serde(default)]
    pub tried: Vec<TriedHere>,
}

/// A leader who has tried to intercept a force this contact offers him (BE-13).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TriedHere {
    pub side: SideId,
    /// The leader's id, for orders, and his name.
    pub leader: String,
    pub name: String,
    /// The force he tried, as an interception names it: 1, the marching force, for the side
    /// not moving; for the mover, the marker's number among the targets.
    pub target: u32,
}

impl ContactBoard {
    /// Whether `leader` may still try to intercept target number `target` here (1 for the
    /// side not moving), as far as his side's earlier tries go: the rules' own refusal if he
    /// has tried that force this turn already (BE-13). The other checks are the rules' when
    /// the order is given.
    pub fn may_try(&self, leader: &str, target: u32) -> Result<(), RuleError> {
        match self.tried.iter().find(|t| t.leader == leader && t.target == target) {
            Some(t) => Err(super::interception::tried_already(&t.name)),
            None => Ok(()),
        }
    }
}

/// One force in a battle, face up to both sides while the battle lasts (BE-53).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForceFace {
    pub side: SideId,
    /// Leader names, the commander first.
    pub leaders: Vec<String>,
    /// Their ids, in the same order, for orders.
    pub leader_ids: Vec<String>,
    /// The commander's tactical rating (BE-21).
    pub tactical: u8,
    /// The units, numbered from 1 in this order for `take_losses`.
    pub units: Vec<super::battle::BattleUnit>,
    pub points: u32,
    pub start: u32,
}

/// A battle as both sides see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleBoard {
    pub zone: ZoneId,
    /// The side whose march brought the battle about.
    pub mover: SideId,
    /// Where the mover came from, as everyone saw it march or land (BE-10).
    #[serde(default)]
    pub came_from: Option<Location>,
    /// Sent to the tabletop: its result comes back as a form (BE-17).
    pub at_table: bool,
    pub kind: super::tables::Interception,
    pub ambusher: Option<SideId>,
    pub passage: u32,
    pub stage: super::fight::Stage,
    pub step: super::battle::Step,
    pub forces: Vec<ForceFace>,
}

impl Board {
    /// A side's name ("Byzantines"), or its id for a side the campaign does not have.
    pub fn side_name(&self, id: &SideId) -> String {
        self.sides.iter().find(|s| &s.id == id).map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    /// What everyone sees of a city: its holder, militia, defence and siege.
    pub fn city(&self, id: &CityId) -> Option<&CityStatus> {
        self.cities.iter().find(|c| &c.id == id)
    }
}

/// The public face of the operations phase (BE-05, BE-06).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperationsBoard {
    pub first: SideId,
    pub segment: SideId,
    /// Where the force activated now stands.
    pub acting_at: Option<Location>,
    /// Segments passed in a row: two end the phase.
    pub passes: u8,
    /// Cities stormed this phase, which no siege may assault again until the next (BE-27):
    /// an assault is made in everyone's sight.
    #[serde(default)]
    pub stormed: Vec<CityId>,
}

/// A leader's card in a box of the Table of Organisation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderCard {
    pub id: String,
    pub name: String,
    pub strategic: u8,
    pub tactical: u8,
    pub rank: u8,
    pub cinc: bool,
}

/// One box of a side's Table of Organisation: a leader and his units, a group of units
/// with no leader, a fleet, or a decoy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrgBox {
    pub at: Location,
    /// The place's name, for reading.
    pub place: String,
    pub leader: Option<LeaderCard>,
    pub units: Vec<Unit>,
    /// Combat points of the units.
    pub points: u32,
    /// Naval points, for a fleet.
    pub np: Option<u32>,
    pub decoy: bool,
    /// A land decoy's id (`decoy-byzantines-1`), for its orders: it moves like a leader
    /// (BE-42).
    #[serde(default)]
    pub decoy_id: Option<String>,
    /// A fleet or a fleet decoy, at sea or in port.
    pub naval: bool,
    /// A ship's or fleet decoy's id (`fleet-byzantines-2`), for its orders (BE-33).
    #[serde(default)]
    pub ship: Option<String>,
    /// Sea zones the ship has sailed this turn (BE-33, BE-34).
    #[serde(default)]
    pub sailed: u32,
    /// Combat points aboard the ship, and the room left in quarters of a naval point (an
    /// infantry point takes 2, a skirmisher's 1, a cavalry point 4) (BE-37).
    #[serde(default)]
    pub carrying: u32,
    #[serde(default)]
    pub room: u32,
}

/// A free set-up line still to place, as its side reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineDue {
    /// Its number for the `place` order, from 1.
    pub number: u32,
    pub what: String,
    pub rule: String,
    /// Leader ids still to place.
    pub leaders: Vec<String>,
    /// The units still to place, numbered from 1 in this order for a `place` order.
    pub units: Vec<Unit>,
    /// The fleets' naval points, numbered from 1 in this order.
    pub fleets: Vec<u32>,
    pub decoys: u32,
    pub fleet_decoys: u32,
}

/// A side's Table of Organisation, with its secrets: stratagems held, lines to place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Organisation {
    pub side: SideId,
    /// The side's name, for reading.
    pub name: String,
    pub boxes: Vec<OrgBox>,
    pub stratagems: Vec<String>,
    pub lines_due: Vec<LineDue>,
    /// The side's action points this turn, secret from the other side (BE-04, BE-53).
    pub action_points: Option<super::operations::ActionPoints>,
    /// The side's leaders activated this phase, by id (BE-07), and the one acting now.
    pub activated: Vec<String>,
    pub acting: Option<String>,
    /// The leaders activated with the one acting (BE-07): they march with him.
    #[serde(default)]
    pub acting_with: Vec<String>,
    /// The side's leaders beaten in battle this phase, by id: their march is over (BE-10).
    /// Public, as the battle was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub halted: Vec<String>,
    /// Losses the side's force owes after its last march (BE-12).
    pub attrition: Option<super::operations::AttritionDue>,
    /// Land decoys intercepted and out of play, which may come back (BE-42).
    #[serde(default)]
    pub decoys_out: u32,
    /// Losses the side owes after an assault (BE-27).
    #[serde(default)]
    pub assault_losses: Option<LossesToShare>,
    /// The first of the losses the side owes for want of supply (BE-41), and how many such
    /// dues it has in all.
    #[serde(default)]
    pub supply_losses: Option<LossesToShare>,
    #[serde(default)]
    pub supply_dues: u32,
    /// Losses the side owes after a sortie, from the units that fought (BE-28).
    #[serde(default)]
    pub sortie_losses: Option<LossesToShare>,
    /// Reinforcement points the side has to spend, in half-points (BE-45).
    #[serde(default)]
    pub raise_half_points: u32,
    /// The scenario's reinforcements waiting for the side to place them, in words (BE-45).
    #[serde(default)]
    pub reinforcements_to_place: Vec<String>,
    /// The points the side, besieging, must meet a sortie with, and its units in the zone
    /// numbered for `answer_sortie` (BE-28).
    #[serde(default)]
    pub sortie_answer: Option<LossesToShare>,
}

pub use crate::core::viewer::LogLine;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    pub side: SideId,
    pub board: Board,
    pub own: Organisation,
    pub log: Vec<LogLine>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UmpireView {
    pub board: Board,
    pub sides: Vec<Organisation>,
    /// The scenario's victory conditions and where each side stands on them (BE-49 …
    /// BE-52), a running check for the umpire.
    #[serde(default)]
    pub victory: Vec<super::victory::Standing>,
    /// What the cup holds, sorted.
    pub cup: Vec<String>,
    pub log: Vec<LogLine>,
}

/// Either view, for code that draws both.
pub type View = crate::core::view::View<UmpireView, SideView>;

crate::core::view::seen!(Board: UmpireView, SideView);

impl Organisation {
    /// The side's leaders and land decoys on the map, by the id orders name them (a leader's,
    /// `decoy-byzantines-1`), with where each stands.
    pub fn pieces(&self) -> impl Iterator<Item = (&str, &Location)> {
        self.boxes.iter().filter_map(|b| Some((b.leader.as_ref().map(|l| l.id.as_str()).or(b.decoy_id.as_deref())?, &b.at)))
    }

    /// The box of leader `id`, if he is on the map.
    pub fn leader_box(&self, id: &str) -> Option<&OrgBox> {
        self.boxes.iter().find(|b| b.leader.as_ref().is_some_and(|l| l.id == id))
    }
}

impl View {
    /// The numbers this view holds for charts: the zones each side holds and the cities under
    /// siege (both public on the map, BE-24), and the land combat points of the Tables of
    /// Organisation the viewer may read. Belisarius has no victory points (the conditions are
    /// judged at the end, BE-49 … BE-52); losses and battles are not kept by the views.
    pub fn readings(&self) -> Vec<Reading> {
        let board = self.board();
        let count = |n: usize| f64::from(u32::try_from(n).unwrap_or(u32::MAX));
        let mut out = Vec::new();
        for s in &board.sides {
            let zones = board.zones.iter().filter(|z| z.controller.as_ref() == Some(&s.id)).count();
            out.push(Reading { measure: Measure::Held, side: Some(s.id.clone()), value: count(zones), unit: "zones".to_owned() });
        }
        for org in self.organisations() {
            let points: u32 = org.boxes.iter().filter(|b| !b.naval).map(|b| b.points).sum();
            out.push(Reading {
                measure: Measure::Strength,
                side: Some(org.side.clone()),
                value: f64::from(points),
                unit: "combat points".to_owned(),
            });
        }
        let besieged = board.cities.iter().filter(|c| c.siege.is_some()).count();
        out.push(Reading { measure: Measure::Sieges, side: None, value: count(besieged), unit: "cities".to_owned() });
        out
    }

    /// The Tables of Organisation the viewer may read.
    pub fn organisations(&self) -> Vec<&Organisation> {
        match self {
            View::Umpire(v) => v.sides.iter().collect(),
            View::Side(v) => vec![&v.own],
        }
    }
}

/// The view for `viewer`, or `None` for a side the campaign does not have.
pub fn view_for(state: &State, events: &[Logged], viewer: &Viewer) -> Option<View> {
    if let Viewer::Side(side) = viewer {
        state.setup.side(side)?;
    }
    Some(refresh(state, viewer, log(state, events, viewer)))
}

/// Everything, as the referee sees it.
pub fn umpire_view(state: &State, events: &[Logged]) -> UmpireView {
    umpire(state, log(state, events, &Viewer::Umpire))
}

fn umpire(state: &State, log: Vec<LogLine>) -> UmpireView {
    UmpireView {
        board: board(state, &Viewer::Umpire),
        sides: state.setup.sides.iter().map(|s| organisation(state, &s.id)).collect(),
        victory: super::victory::standings(state),
        cup: state.cup.contents().to_vec(),
        log,
    }
}

fn sees_faces(viewer: &Viewer, side: &SideId) -> bool {
    match viewer {
        Viewer::Umpire => true,
        Viewer::Side(s) => s == side,
    }
}

fn board(state: &State, viewer: &Viewer) -> Board {
    let setup = &state.setup;
    let mut markers: Vec<Marker> = state
        .pieces
        .iter()
        // A force aboard ships is on its side's Table of Organisation, not on the map (BE-37).
        .filter(|p| (p.kind.has_marker() || sees_faces(viewer, &p.side)) && !matches!(p.at, Location::Aboard(_)))
        .map(|p| Marker {
            side: p.side.clone(),
            at: p.at.clone(),
            naval: p.kind.is_naval(),
            face: sees_faces(viewer, &p.side).then(|| face(state, &p.kind)),
            spent: match (&p.kind, &state.ops) {
                (PieceKind::Leader { leader: id, .. } | PieceKind::LeaderDecoy { id }, Some(ops)) => {
                    ops.activated.contains(id) && ops.active.as_ref().is_none_or(|a| &a.leader != id)
                }
                _ => false,
            },
        })
        .collect();
    markers.sort();
    let operations = state.ops.as_ref().filter(|_| state.phase == Phase::Operations).map(|o| OperationsBoard {
        first: o.first.clone(),
        segment: o.segment.clone(),
        // Where the ship carrying an acting force is stays its side's own.
        acting_at: o
            .active
            .as_ref()
            .filter(|a| sees_faces(viewer, &a.side) || !matches!(a.at, Location::Aboard(_)))
            .map(|a| super::naval::whereabouts(state, &a.at)),
        passes: o.passes,
        stormed: o.stormed.iter().cloned().collect(),
    });
    let contact = state.ops.as_ref().and_then(|o| o.contact.as_ref()).map(|c| ContactBoard {
        zone: c.zone.clone(),
        mover: c.mover.side.clone(),
        turn_of: c.turn_of.clone(),
        targets: u32::try_from(super::interception::mover_targets(state, c).len()).unwrap_or(u32::MAX),
        failed: c.failed.iter().cloned().collect(),
        agreed: c.agreed.iter().cloned().collect(),
        relief: c.relief,
        tried: setup
            .sides
            .iter()
            .filter(|s| sees_faces(viewer, &s.id))
            .flat_map(|s| {
                let this_contact = !matches!(viewer, Viewer::Umpire);
                super::interception::tried_here(state, c, &s.id, this_contact).into_iter().map(|(leader, target)| TriedHere {
                    side: s.id.clone(),
                    name: super::state::piece_name(setup, &leader),
                    leader,
                    target,
                })
            })
            .collect(),
    });
    let battle = state.ops.as_ref().and_then(|o| o.battle.as_ref()).map(|b| BattleBoard {
        zone: b.zone.clone(),
        mover: b.mover.clone(),
        came_from: b.came_from.clone(),
        at_table: b.at_table,
        kind: b.kind,
        ambusher: b.ambusher.clone(),
        passage: b.passage,
        stage: b.stage,
        step: b.step.clone(),
        forces: b
            .forces
            .iter()
            .map(|f| {
                let units = super::battle::roster(state, f);
                ForceFace {
                    side: f.side.clone(),
                    leaders: f.leaders.iter().map(|id| super::state::piece_name(setup, id)).collect(),
                    leader_ids: f.leaders.clone(),
                    tactical: super::battle::tactical(state, f),
                    points: units.iter().map(|u| u32::from(u.fighter.unit.value)).sum(),
                    units,
                    start: f.start,
                }
            })
            .collect(),
    });
    let assault = state.ops.as_ref().and_then(|o| o.assault.as_ref()).map(|a| AssaultBoard {
        city: a.city.clone(),
        attacker: a.attacker.clone(),
        owed: a.owed.iter().map(|(s, p)| (s.clone(), *p)).collect(),
    });
    let naval_contact = state.ops.as_ref().and_then(|o| o.naval_contact.as_ref()).map(|c| NavalContactBoard {
        sea: c.sea.clone(),
        mover: c.mover.clone(),
        markers: u32::try_from(c.ships.len()).unwrap_or(u32::MAX),
    });
    let naval_battle = state.ops.as_ref().and_then(|o| o.naval_battle.as_ref()).map(|b| NavalBattleBoard {
        sea: b.sea.clone(),
        mover: b.mover.clone(),
        passages: b.passages,
        squadrons: b
            .squadrons
            .iter()
            .map(|s| {
                let afloat: Vec<String> = s.ships.iter().filter(|id| state.ship(&s.side, id).is_some()).cloned().collect();
                SquadronFace {
                    side: s.side.clone(),
                    ships: u32::try_from(afloat.len()).unwrap_or(u32::MAX),
                    np: super::naval::naval_points(state, &s.side, &afloat),
                    start: s.start,
                    admiral: super::naval::admiral(state, &s.side, &afloat),
                    embarked: super::naval::embarked_points(state, &s.side, &afloat),
                }
            })
            .collect(),
    });
    let events_in_force = state
        .in_force
        .iter()
        .filter(|e| e.drawn <= state.turn && state.turn <= e.until)
        .map(|e| (e.letter, setup.tables.event(e.letter).map_or_else(String::new, |x| x.name.clone()), e.until))
        .collect();
    let away = state.away.iter().map(|a| away_text(state, a)).collect();
    Board {
        naval_contact,
        naval_battle,
        events_to_play: super::random_events::pending(state),
        events_in_force,
        away,
        franks: state.franks.clone(),
        contact,
        battle,
        assault,
        supplied: state.supplied,
        reinforcements_to_play: super::reinforce::pending(state),
        result: state.result.clone(),
        victory: super::victory::conditions(state),
        sortie: state.ops.as_ref().and_then(|o| o.sortie.as_ref()).map(|d| SortieBoard {
            city: d.city.clone(),
            side: d.side.clone(),
            leader: super::state::piece_name(setup, &d.leader),
            points: d.points,
            answered: (!d.answer.is_empty()).then(|| d.answer.iter().map(|(_, _, p)| u32::from(*p)).sum()),
            owed: d.owed.iter().map(|(s, p)| (s.clone(), *p)).collect(),
        }),
        campaign: state.name.clone(),
        scenario_id: setup.id().to_owned(),
        scenario_name: setup.name().to_owned(),
        turn: state.turn,
        turns: setup.turns(),
        date: state.date(),
        phase: state.phase,
        sides: setup.sides.iter().map(|s| SidePublic { id: s.id.clone(), name: s.name.clone() }).collect(),
        zones: setup
            .map
            .zones
            .iter()
            .map(|z| ZoneStatus {
                id: z.id.clone(),
                controller: state.control.get(&z.id).cloned(),
                scorched: state.scorched.contains(&z.id),
            })
            .collect(),
        cities: setup
            .map
            .zones
            .iter()
            .map(|z| {
                let hold = state.cities.get(&z.city.id);
                CityStatus {
                    id: z.city.id.clone(),
                    holder: hold.and_then(|h| h.holder.clone()),
                    militia: hold.map_or(z.city.militia, |h| h.militia),
                    fortification: z.city.fortification,
                    defence: super::siege::defence(state, &z.city.id),
                    defence_works: hold.map_or(0, |h| h.defence_works),
                    siege: state.sieges.get(&z.city.id).map(|s| SiegeBoard {
                        besieger: s.besieger.clone(),
                        duration: s.duration,
                        siege_works: s.works,
                    }),
                }
            })
            .collect(),
        markers,
        operations,
    }
}

/// Units as a side's own form lists them: the name of the leader whose box holds each
/// (empty without one), and the unit.
fn numbered(setup: &super::setup::Setup, units: &[super::siege::Numbered<'_>]) -> Vec<(String, Unit)> {
    units.iter().map(|n| (n.leader.map(|l| super::state::piece_name(setup, l)).unwrap_or_default(), n.unit)).collect()
}

/// A piece's face, as its own side reads it.
fn face(state: &State, kind: &PieceKind) -> String {
    match kind {
        PieceKind::Leader { leader, .. } => state.setup.leader(leader).map_or_else(|| leader.clone(), |l| l.name.clone()),
        PieceKind::Group { units } => format!("{}, no leader", count(units.len(), "unit")),
        PieceKind::LeaderDecoy { id } => super::state::piece_name(&state.setup, id),
        PieceKind::Fleet { np, id } => format!("{} of {np} NPs", super::setup::ship_name(id)),
        PieceKind::FleetDecoy { id } => format!("{}, a decoy", super::setup::ship_name(id)),
    }
}

/// A side's Table of Organisation, its boxes ordered by place and then by seniority.
pub fn organisation(state: &State, side: &SideId) -> Organisation {
    let setup = &state.setup;
    let cinc = state.cinc.get(side).cloned().flatten();
    let mut boxes: Vec<OrgBox> = state
        .pieces_of(side)
        .map(|p| {
            let leader = match &p.kind {
                PieceKind::Leader { leader, .. } => setup.leader(leader).map(|l| LeaderCard {
                    id: l.id.clone(),
                    name: l.name.clone(),
                    strategic: l.strategic,
                    tactical: l.tactical,
                    rank: l.rank,
                    cinc: cinc.as_deref() == Some(l.id.as_str()),
                }),
                _ => None,
            };
            let units = p.kind.units().to_vec();
            OrgBox {
                // A force aboard is where its ship is.
                place: match &p.at {
                    Location::Aboard(_) => {
                        format!("{} ({})", setup.place_name(&p.at), setup.place_name(&super::naval::whereabouts(state, &p.at)))
                    }
                    at => setup.place_name(at),
                },
                at: p.at.clone(),
                leader,
                points: units.iter().map(|u| u32::from(u.value)).sum(),
                units,
                np: match p.kind {
                    PieceKind::Fleet { np, .. } => Some(np),
                    _ => None,
                },
                decoy: matches!(p.kind, PieceKind::LeaderDecoy { .. } | PieceKind::FleetDecoy { .. }),
                decoy_id: match &p.kind {
                    PieceKind::LeaderDecoy { id } => Some(id.clone()),
                    _ => None,
                },
                naval: p.kind.is_naval(),
                ship: p.kind.ship_id().map(str::to_owned),
                sailed: p.kind.ship_id().and_then(|id| state.ops.as_ref().and_then(|o| o.sailed.get(id).copied())).unwrap_or(0),
                carrying: p.kind.ship_id().map_or(0, |id| super::naval::embarked_points(state, side, std::slice::from_ref(&id.to_owned()))),
                room: match &p.kind {
                    PieceKind::Fleet { np, id } => np
                        .saturating_mul(4)
                        .saturating_sub(super::naval::aboard(state, side, id).map(|q| super::naval::load(q.kind.units())).sum::<u32>()),
                    _ => 0,
                },
            }
        })
        .collect();
    // By place; in a place the senior leader first, then the others, units without a leader,
    // fleets and decoys.
    let key = |b: &OrgBox| (b.at.clone(), b.naval, b.decoy, std::cmp::Reverse(b.leader.as_ref().map(|l| (l.rank, l.id.clone()))), b.np);
    boxes.sort_by_key(key);
    let lines_due = state
        .lines_due
        .get(side)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(n, d)| LineDue {
            number: u32::try_from(n).map_or(u32::MAX, |n| n.saturating_add(1)),
            what: d.rest.describe(setup),
            rule: d.rest.free.clone().unwrap_or_default(),
            leaders: d.rest.leaders.clone(),
            units: d.rest.units.clone(),
            fleets: d.rest.fleets.clone(),
            decoys: d.rest.decoys,
            fleet_decoys: d.rest.fleet_decoys,
        })
        .collect();
    let name = setup.side_name(side);
    let ops = state.ops.as_ref();
    Organisation {
        side: side.clone(),
        name,
        boxes,
        stratagems: state.hands.get(side).cloned().unwrap_or_default(),
        lines_due,
        action_points: ops.and_then(|o| o.ap.get(side).cloned()),
        activated: ops
            .map(|o| {
                let mine = |id: &String| state.marker(side, id).is_some();
                o.activated.iter().filter(|id| mine(id)).cloned().collect()
            })
            .unwrap_or_default(),
        acting: ops.and_then(|o| o.active.as_ref()).filter(|a| &a.side == side).map(|a| a.leader.clone()),
        acting_with: ops.and_then(|o| o.active.as_ref()).filter(|a| &a.side == side).map(|a| a.with.clone()).unwrap_or_default(),
        halted: ops.map(|o| o.halted.iter().filter(|id| state.marker(side, id).is_some()).cloned().collect()).unwrap_or_default(),
        attrition: ops.and_then(|o| o.attrition.clone()).filter(|d| &d.side == side),
        decoys_out: state.decoys_out.get(side).copied().unwrap_or(0),
        supply_losses: super::supply::due_of(state, side).map(|due| {
            let units = super::supply::units_of(state, &due.force);
            let militia = match &due.force.at {
                Location::City(c) if super::siege::is_besieged(state, &due.force.at) => state.cities.get(c).map_or(0, |h| h.militia),
                _ => 0,
            };
            LossesToShare {
                what: format!("for want of supply at {}", setup.place_name(&due.force.at)),
                points: due.points,
                units: numbered(setup, &units),
                militia,
                suggested: super::supply::suggested_share(state, side).unwrap_or_default(),
            }
        }),
        sortie_losses: ops.and_then(|o| o.sortie.as_ref()).and_then(|due| {
            let points = *due.owed.get(side)?;
            let (units, _) = super::siege::sortie_units(state, due, side);
            Some(LossesToShare {
                what: format!("in the sortie at {}", setup.place_name(&Location::City(due.city.clone()))),
                points,
                units: numbered(setup, &units),
                militia: 0,
                suggested: (super::siege::suggested_sortie_share(state, side).unwrap_or_default(), 0),
            })
        }),
        sortie_answer: ops.and_then(|o| o.sortie.as_ref()).filter(|d| &d.side != side && d.answer.is_empty()).map(|due| {
            let (units, need) = super::siege::answering(state, due, side);
            LossesToShare {
                what: format!("to meet the sortie from {}", setup.place_name(&Location::City(due.city.clone()))),
                points: need,
                units: numbered(setup, &units),
                militia: 0,
                suggested: (super::siege::suggest(&units, need, 0).0, 0),
            }
        }),
        raise_half_points: state
            .reinforcements_due
            .iter()
            .map(|d| match d {
                super::reinforce::Due::Purchase { side: s, half_points } if s == side => *half_points,
                _ => 0,
            })
            .sum(),
        reinforcements_to_place: state
            .reinforcements_due
            .iter()
            .filter_map(|d| match d {
                super::reinforce::Due::Line { side: s, line } if s == side => Some(line.describe(setup)),
                _ => None,
            })
            .collect(),
        supply_dues: u32::try_from(state.supply_dues.iter().filter(|d| &d.force.side == side).count()).unwrap_or(u32::MAX),
        assault_losses: ops.and_then(|o| o.assault.as_ref()).and_then(|due| {
            let points = *due.owed.get(side)?;
            let (units, _) = super::siege::losers(state, due, side);
            Some(LossesToShare {
                what: format!("in the assault on {}", setup.place_name(&Location::City(due.city.clone()))),
                points,
                units: numbered(setup, &units),
                militia: if side == &due.attacker { 0 } else { state.cities.get(&due.city).map_or(0, |h| h.militia) },
                suggested: super::siege::suggested_share(state, side).unwrap_or_default(),
            })
        }),
    }
}

/// The log as `viewer` reads it, numbered 1, 2, 3… in the viewer's own sequence.
pub fn log(state: &State, events: &[Logged], viewer: &Viewer) -> Vec<LogLine> {
    crate::core::view::log_lines::<super::engine::Belisarius>(state, &(), events, viewer, 1)
}

/// What one viewer sees of a Belisarius campaign, kept up to date order by order.
pub type Followed = crate::core::view::Followed<super::engine::Belisarius>;

/// `viewer`'s view built again from the state around a log already described.
pub(super) fn refresh(state: &State, viewer: &Viewer, log: Vec<LogLine>) -> View {
    match viewer {
        Viewer::Umpire => View::Umpire(umpire(state, log)),
        Viewer::Side(side) => View::Side(SideView { side: side.clone(), board: board(state, viewer), own: organisation(state, side), log }),
    }
}

/// The log line `viewer` reads for an event, or `None` if the viewer may not see it.
pub fn describe(state: &State, event: &Event, viewer: &Viewer) -> Option<String> {
    let setup = &state.setup;
    let side_name = |s: &SideId| setup.side_name(s);
    match event {
        Event::CampaignStarted(CampaignStarted { name, scenario: setup, .. }) => {
            Some(format!("Campaign “{name}” begins: {} ({}), {} turns", setup.name(), setup.period(), setup.turns()))
        }
        Event::DiceRolled(rolled) => rolled.describe(viewer, side_name),
        Event::NoteAdded(note) => note.describe(viewer),
        Event::CampaignRenamed(renamed) => Some(renamed.describe()),
        Event::LinePlaced { side, at, placed, .. } => {
            let place = setup.place_name(at);
            let who = side_name(side);
            if sees_faces(viewer, side) {
                Some(format!("{who} set up {} at {place}", placed.describe(setup)))
            } else {
                // Units placed without a leader stand on their Table of Organisation only:
                // the other side learns nothing of them, not even that something was placed.
                let n = super::state::pieces_of(side, placed, at).iter().filter(|p| p.kind.has_marker()).count();
                (n > 0).then(|| format!("{who} set up {} at {place} — BE-53", count(n, "marker")))
            }
        }
        Event::PlayBegan => Some(format!("Set-up is over: turn 1, {}", state.setup.date_of_turn(1))),
        Event::ChitDrawn(ChitDrawn { side, draw, kept: stratagem }) => {
            let who = side_name(side);
            Some(match (sees_faces(viewer, side), stratagem) {
                (true, true) => {
                    let name = setup.tables.stratagem(&draw.chit).map_or_else(|| draw.chit.clone(), |s| s.name.clone());
                    format!("{who} draw the stratagem {name}, keep it hidden and draw again — BE-43")
                }
                (true, false) => {
                    let value = setup.tables.chit_value(&draw.chit, side.as_str() == "byzantines").unwrap_or_default();
                    let typed = if draw.source == crate::core::dice::RollSource::Manual { " [typed in]" } else { "" };
                    format!("{who} draw the AP chit {} ({value}){typed} — BE-04", draw.chit)
                }
                (false, true) => format!("{who} draw a stratagem, keep it face down and draw again — BE-43"),
                (false, false) => format!("{who} draw their AP chit — BE-04"),
            })
        }
        Event::ActionPointsSet { side, ap } => sees_faces(viewer, side).then(|| {
            let rating = ap.total.saturating_sub(u32::from(ap.chit_value));
            let by = if ap.rated_by.is_empty() { String::new() } else { format!(", {}", ap.rated_by) };
            format!("{}: {} action points this turn ({} on the chit + {rating}{by}) — BE-04", side_name(side), ap.total, ap.chit_value)
        }),
        Event::OperationsBegan { first } => {
            Some(format!("Operations: {} have the initiative and the first segment — BE-05", side_name(first)))
        }
        Event::LeaderActivated { activation } => {
            let (who, place) = (side_name(&activation.side), setup.place_name(&activation.at));
            if sees_faces(viewer, &activation.side) {
                let name = |id: &str| super::state::piece_name(setup, id);
                let with: Vec<String> = activation.with.iter().map(|id| name(id)).collect();
                let with = if with.is_empty() { String::new() } else { format!(", {} with him", with.join(" and ")) };
                Some(format!("{who} activate {} at {place}{with} — BE-06", name(&activation.leader)))
            } else if matches!(activation.at, Location::Aboard(_)) {
                // Which ship carries the force is its side's own.
                Some(format!("{who} activate a force aboard ships — BE-06"))
            } else {
                Some(format!("{who} activate a force at {place} — BE-06"))
            }
        }
        Event::SegmentEnded { side, acted } => Some(if *acted {
            format!("{} end their segment — BE-06", side_name(side))
        } else {
            format!("{} pass — BE-06", side_name(side))
        }),
        Event::OperationsEnded => Some("The operations phase is over — BE-06".to_owned()),
        Event::ForceMarched { activation, from, path, ap, left } => {
            let names: Vec<String> = path.iter().map(|z| setup.place_name(&Location::Zone(z.clone()))).collect();
            let route = format!("from {} through {}", setup.place_name(from), names.join(", "));
            let who = side_name(&activation.side);
            Some(if sees_faces(viewer, &activation.side) {
                let chief = super::state::piece_name(setup, &activation.leader);
                format!("{who}: {chief} marches {route} ({ap} AP, {left} left) — BE-10")
            } else {
                format!("{who}: a force marches {route} — BE-10")
            })
        }
        Event::UnitsReorganised { side, from, to, units, .. } => sees_faces(viewer, side).then(|| {
            let name = |id: &str| super::state::piece_name(setup, id);
            format!("{}: {} pass from {} to {} — BE-08", side_name(side), super::pieces::summary(units), name(from), name(to))
        }),
        Event::ZoneControlled { zone, side } => {
            Some(format!("{} now control {} — BE-46", side_name(side), setup.place_name(&Location::Zone(zone.clone()))))
        }
        Event::AttritionSuffered { due } => sees_faces(viewer, &due.side).then(|| {
            let chief = super::state::piece_name(setup, &due.leader);
            let scorched = if due.scorched > 0 { format!(" ({} of them in scorched country, BE-44)", due.scorched) } else { String::new() };
            format!(
                "{}: {chief}'s force loses {} % to attrition, {}{scorched}, from the units that marched — BE-12",
                side_name(&due.side),
                due.percent,
                count(due.points, "combat point")
            )
        }),
        Event::LossesTaken { side, losses } => sees_faces(viewer, side).then(|| {
            let each: Vec<String> = losses
                .iter()
                .map(|(l, i, p)| format!("{p} from unit {} in {}'s box", i.saturating_add(1), super::state::piece_name(setup, l)))
                .collect();
            format!("{} take the attrition: {} — BE-12", side_name(side), each.join(", "))
        }),
        Event::ChitsRevealed { chits } => {
            let shown: Vec<String> = chits.iter().map(|(s, chit, v)| format!("{} {chit} ({v})", side_name(s))).collect();
            Some(format!("Turn end: the AP chits are shown — {}; they go back into the cup — BE-02", shown.join(", ")))
        }
        Event::KingReplaced { side, old, new } => {
            let name = |id: &str| super::state::piece_name(setup, id);
            Some(format!("{} leaves the game; {} is king of the {} — BE-50", name(old), name(new), side_name(side)))
        }
        Event::TurnEnded { turn } if *turn >= setup.turns() => Some(format!("Turn {turn} ends, the scenario's last — BE-02")),
        Event::TurnEnded { turn } => Some(format!("Turn {turn} ends; turn {}, {} — BE-02", turn + 1, setup.date_of_turn(turn + 1))),
        _ => describe_fighting(state, event, viewer),
    }
}

/// The log lines of interception and battle.
fn describe_fighting(state: &State, event: &Event, viewer: &Viewer) -> Option<String> {
    use super::interception::Target;
    use super::tables::Interception;
    let setup = &state.setup;
    let side_name = |s: &SideId| setup.side_name(s);
    let name = |id: &str| super::state::piece_name(setup, id);
    let names = |ids: &[String]| ids.iter().map(|id| name(id)).collect::<Vec<_>>().join(" and ");
    let zone = |z: &ZoneId| setup.place_name(&Location::Zone(z.clone()));
    // Units and leaders left or taken along on the way, in words (BE-11).
    let carried = |units: &[Unit], leaders: &[String]| {
        let mut what = Vec::new();
        if !units.is_empty() {
            what.push(super::pieces::summary(units));
        }
        if !leaders.is_empty() {
            what.push(names(leaders));
        }
        what
    };
    let result = |r: Interception| match r {
        Interception::Fail => "it fails",
        Interception::LineOfBattle => "battle in line",
        Interception::Ambush => "an ambush",
    };
    match event {
        Event::ContactMade { contact } => {
            let mover = &contact.mover;
            let whose = if sees_faces(viewer, &mover.side) {
                names(std::slice::from_ref(&mover.leader))
            } else {
                format!("A force of the {}", side_name(&mover.side))
            };
            Some(format!(
                "{whose} halts at {}, where the {} stand: they may intercept, then the {} — BE-13",
                zone(&contact.zone),
                side_name(&contact.turn_of),
                side_name(&mover.side)
            ))
        }
        Event::InterceptionTried { attempt, cost } => {
            let target = match &attempt.target {
                Target::Force { side, leader, .. } if sees_faces(viewer, side) => format!("{}'s force", name(leader)),
                Target::Decoy { side, id } if sees_faces(viewer, side) => name(id),
                Target::Force { side, .. } | Target::Decoy { side, .. } => format!("a marker of the {}", side_name(side)),
            };
            let who = if sees_faces(viewer, &attempt.side) {
                format!("{}: {}", side_name(&attempt.side), names(&attempt.leaders))
            } else if attempt.from_city {
                format!("{}: a force coming out of the city", side_name(&attempt.side))
            } else {
                format!("{}: a force", side_name(&attempt.side))
            };
            let recon = if attempt.reconnaissance { ", with Reconnaissance" } else { "" };
            let diff = if matches!(viewer, Viewer::Umpire) {
                format!(", strategic difference {:+}", attempt.difference).replace('-', "−")
            } else {
                String::new()
            };
            let spent = if sees_faces(viewer, &attempt.side) { format!(" ({cost} AP)") } else { String::new() };
            let tries = if sees_faces(viewer, &attempt.side) && attempt.leaders.len() > 1 { "try" } else { "tries" };
            // A second try at a force its side could not tell is rolled as any other; only
            // the referee reads that it was one (BE-13).
            let again = if attempt.repeated && matches!(viewer, Viewer::Umpire) {
                ", a second try at that force this turn, made where his side could not tell it"
            } else {
                ""
            };
            Some(format!(
                "{who} {tries} to intercept {target} at {}{spent}{recon}{diff}{again}: {} — BE-14",
                zone(&attempt.zone),
                result(attempt.result)
            ))
        }
        Event::InterceptionDeclined { side, zone: z } => Some(format!("{} decline to intercept at {} — BE-13", side_name(side), zone(z))),
        Event::ContactEnded { zone: z } => Some(format!("The interceptions at {} are over — BE-13", zone(z))),
        Event::BattleAgreed { side } => Some(format!("{} agree to give battle — BE-13", side_name(side))),
        Event::DecoyRemoved { side, at, id, face_down: true } => {
            sees_faces(viewer, side).then(|| format!("{}: {} is lost with {} — BE-42", side_name(side), name(id), setup.place_name(at)))
        }
        // In a city: turned over in a storm, or by Reconnaissance; in the open, intercepted.
        Event::DecoyRemoved { side, at, .. } => Some(format!(
            "{} marker {} {} was a decoy: it leaves the map — BE-42",
            capitalised(&crate::core::words::possessive(&side_name(side))),
            if matches!(at, Location::City(_)) { "in" } else { "intercepted at" },
            setup.place_name(at)
        )),
        Event::DecoyReturned { side, at } => Some(format!("{} place a marker at {} — BE-42", side_name(side), setup.place_name(at))),
        Event::StratagemPlayed { side, stratagem } => {
            let s = setup.tables.stratagem(stratagem).map_or_else(|| stratagem.clone(), |s| s.name.clone());
            Some(format!("{} play the stratagem {s} — BE-43", side_name(side)))
        }
        Event::ForceRevealed { to, at, face } => Some(if sees_faces(viewer, to) {
            format!("Reconnaissance: the marker at {} is {face} — BE-43", setup.place_name(at))
        } else {
            format!("{} reconnoitre a marker at {} — BE-43", side_name(to), setup.place_name(at))
        }),
        Event::BattleJoined { battle } => {
            // Names and points as they stood at the start: the line reads the same later.
            let forces: Vec<String> = battle
                .forces
                .iter()
                .map(|f| format!("{}: {} ({})", side_name(&f.side), names(&f.leaders), count(f.start, "combat point")))
                .collect();
            let kind = match (&battle.kind, &battle.ambusher) {
                (Interception::Ambush, Some(a)) => format!("an ambush laid by the {}", side_name(a)),
                _ => "a battle in line".to_owned(),
            };
            Some(format!("Battle at {}, {kind}: {} — BE-17", zone(&battle.zone), forces.join(" against ")))
        }
        Event::CombatRolled { stage, owed } => {
            let parts: Vec<String> = owed
                .iter()
                .map(|(s, o)| {
                    let check = match o.check {
                        Some(0) => ", then a morale check",
                        Some(1) => ", then a morale check at −1",
                        Some(_) => ", then a morale check at −2",
                        None => "",
                    };
                    if o.points == 0 && o.check.is_none() {
                        format!("{} lose nothing", side_name(s))
                    } else if o.points == 0 && o.percent > 0 {
                        format!("{} have no unit left fighting to lose anything", side_name(s))
                    } else {
                        format!("{} lose {} % — {}{check}", side_name(s), o.percent, count(o.points, "combat point"))
                    }
                })
                .collect();
            Some(format!("{}: {} — BE-19", capitalised(stage.label()), parts.join("; ")))
        }
        Event::BattleLossesTaken { side, losses } => {
            let total: u32 = losses.iter().map(|(_, _, p)| u32::from(*p)).sum();
            Some(format!("{} take {} of losses — BE-19", side_name(side), count(total, "combat point")))
        }
        Event::MoraleChecked { side, disordered } => Some(if disordered.is_empty() {
            format!("{}: every unit holds — BE-20", side_name(side))
        } else {
            format!("{}: {} disordered for the rest of the battle — BE-20", side_name(side), count(disordered.len(), "unit"))
        }),
        Event::StageEnded { stage: super::fight::Stage::Melee } => {
            Some("The passage of arms is over: a side may break off, or both part, or they fight on — BE-17".to_owned())
        }
        Event::StageEnded { .. } => None,
        Event::PassageBegan { passage } => Some(format!("Passage of arms {passage} — BE-17")),
        Event::BrokeOff { side } => Some(format!("{} break off — BE-22", side_name(side))),
        Event::SentToTable { zone: z } => Some(format!("The battle at {} goes to the tabletop — BE-17", zone(z))),
        Event::PursuitRolled { side, owed } => Some(format!(
            "Pursuit: {} lose {} % — {}, disordered units included — BE-22",
            side_name(side),
            owed.percent,
            count(owed.points, "combat point")
        )),
        Event::Retreated { side, to, .. } => Some(format!("{} retreat to {} — BE-22", side_name(side), setup.place_name(to))),
        Event::BattleEnded { outcome } => {
            let how = match (&outcome.how, &outcome.winner) {
                (super::battle::How::Agreed, _) => "the sides part".to_owned(),
                (super::battle::How::Destroyed, None) => "both forces are destroyed".to_owned(),
                (super::battle::How::Destroyed, Some(w)) => format!("the {} win, their enemy destroyed", side_name(w)),
                (_, Some(w)) => format!("the {} win", side_name(w)),
                (_, None) => "nobody wins".to_owned(),
            };
            let lost: Vec<String> = outcome.lost.iter().map(|(s, p)| format!("{} {p}", side_name(s))).collect();
            Some(format!("The battle at {} is over: {how}; combat points lost: {} — BE-17", zone(&outcome.zone), lost.join(", ")))
        }
        Event::Dropped { side, leader, units, leaders, at, .. } => {
            if sees_faces(viewer, side) {
                let what = carried(units, leaders);
                // In the open, or in the city (`"city": true`): say which.
                let place = match at {
                    Location::Zone(_) => format!("in the open at {}", setup.place_name(at)),
                    _ => format!("in {}", setup.place_name(at)),
                };
                Some(format!("{}: {} leaves {} {place} — BE-11", side_name(side), name(leader), what.join(" and ")))
            } else {
                // Units without a leader are on the Table of Organisation only; a leader left
                // behind is a marker that stays.
                (!leaders.is_empty()).then(|| format!("{}: a force leaves a marker at {} — BE-11", side_name(side), setup.place_name(at)))
            }
        }
        Event::PickedUp { side, leader, units, leaders, at, .. } => {
            if sees_faces(viewer, side) {
                let what = carried(units, leaders);
                Some(format!(
                    "{}: {} takes along {} at {} — BE-11",
                    side_name(side),
                    name(leader),
                    what.join(" and "),
                    setup.place_name(at)
                ))
            } else {
                (!leaders.is_empty()).then(|| format!("{}: a marker joins a force at {} — BE-11", side_name(side), setup.place_name(at)))
            }
        }
        Event::Shifted { activation, to } => {
            let who = if sees_faces(viewer, &activation.side) { name(&activation.leader) } else { "a force".to_owned() };
            let what = match to {
                Location::City(_) => format!("enters {}", setup.place_name(to)),
                _ => format!("comes out into {}", setup.place_name(to)),
            };
            Some(format!("{}: {who} {what} — BE-11", side_name(&activation.side)))
        }
        // Lost at sea by attrition: the other side sees only the sea marker go.
        Event::LeaderKilled { side, at_sea, face_down, .. } if (*at_sea || *face_down) && !sees_faces(viewer, side) => None,
        Event::LeaderKilled { side, leader, successor, .. } => {
            let next = match successor {
                Some(n) if sees_faces(viewer, side) => format!("; {} takes command", name(n)),
                _ => String::new(),
            };
            Some(format!("{} ({}) is killed{next} — BE-09", name(leader), side_name(side)))
        }
        _ => describe_siege(state, event, viewer),
    }
}

/// The log lines of sieges: all public but the action points spent and the way a side shares
/// out its losses (BE-53).
fn describe_siege(state: &State, event: &Event, viewer: &Viewer) -> Option<String> {
    use super::siege::{Fall, Works};
    let setup = &state.setup;
    let side_name = |s: &SideId| setup.side_name(s);
    let city_name = |c: &CityId| setup.place_name(&Location::City(c.clone()));
    match event {
        Event::ActionPointsSpent { side, ap, left, on } => {
            sees_faces(viewer, side).then(|| format!("{}: {ap} AP on {on} ({left} left)", side_name(side)))
        }
        Event::SiegeDeclared { city, siege } => Some(format!(
            "{} lay siege to {}; the duration marker stands at {} — BE-24",
            side_name(&siege.besieger),
            city_name(city),
            siege.duration
        )),
        Event::AssaultRolled { due, attacker_points, defender_points, row, result } => {
            let chief = super::state::piece_name(setup, &due.leader);
            let outcome = if result.falls {
                format!("the city falls; the attackers lose {} %", result.attacker_percent)
            } else {
                format!("the attackers lose {} %, the defenders {} %", result.attacker_percent, result.defender_percent)
            };
            Some(format!(
                "{}: {chief} storms {} with {attacker_points} points against {defender_points} ({row}): {outcome} — BE-27",
                side_name(&due.attacker),
                city_name(&due.city)
            ))
        }
        Event::SiegeLossesTaken { side, at, losses, militia, sortie } => {
            let units: u32 = losses.iter().map(|(_, _, p)| u32::from(*p)).sum();
            let place = setup.place_name(at);
            let rule = if *sortie { "BE-28" } else { "BE-27" };
            if sees_faces(viewer, side) {
                let militia = if *militia > 0 { format!(", the militia {militia}") } else { String::new() };
                Some(format!("{} take {} of losses at {place}{militia} — {rule}", side_name(side), count(units, "combat point")))
            } else {
                Some(format!("{} take their losses at {place} — {rule}", side_name(side)))
            }
        }
        Event::CityFell { city, from, to, how } => {
            let (how, rule) = match how {
                Fall::Starved => ("at the fourth mark of its siege", "BE-26"),
                Fall::Stormed => ("by storm", "BE-27"),
                Fall::Betrayed => ("by treachery", "BE-43"),
            };
            Some(format!(
                "{} falls to the {} {how}: whoever of the {} was inside is lost, and its militia, whole again, serves its new masters — {rule}",
                city_name(city),
                side_name(to),
                side_name(from)
            ))
        }
        Event::WorksBuilt { city, side, works, count } => Some(match works {
            Works::Siege => format!("{} build {count} siege works before {} — BE-32", side_name(side), city_name(city)),
            Works::Defence => format!("{} build {count} defence works at {} — BE-32", side_name(side), city_name(city)),
        }),
        Event::FortificationsDestroyed { city, side } => {
            Some(format!("{} pull down the walls of {} — BE-32", side_name(side), city_name(city)))
        }
        Event::SiegeAdvanced { city, duration } => {
            Some(format!("Siege phase: the duration marker on {} moves to {duration} — BE-26", city_name(city)))
        }
        Event::SiegeEnded { city, why } => Some(match why {
            super::siege::Lifted::BesiegersGone => {
                format!("The siege of {} is lifted: the besiegers have gone; its militia is whole again — BE-30", city_name(city))
            }
            super::siege::Lifted::LinesEmptied => format!(
                "The siege of {} is lifted: too few hold the lines against the relief; its militia is whole again — BE-29",
                city_name(city)
            ),
        }),
        Event::SortieMade { due } => Some(format!(
            "{}: {} sallies from {} with {}; the besiegers meet them with as many — BE-28",
            side_name(&due.side),
            super::state::piece_name(setup, &due.leader),
            city_name(&due.city),
            count(due.points, "combat point")
        )),
        Event::SortieAnswered { answer } => {
            let points: u32 = answer.iter().map(|(_, _, p)| u32::from(*p)).sum();
            Some(format!("The besiegers meet the sortie with {} — BE-28", count(points, "combat point")))
        }
        Event::SortieRolled { owed } => {
            let each: Vec<String> = owed.iter().map(|(s, p)| format!("the {} lose {p}", side_name(s))).collect();
            Some(format!("The sortie's melee: {} combat points, from those who fought — BE-28", each.join(", ")))
        }
        Event::ReliefDeclared { zone } => Some(format!(
            "The marching force attacks the siege lines at {}: no interception roll is needed — BE-29",
            setup.place_name(&Location::Zone(zone.clone()))
        )),
        Event::SiegeRelieved { city } => {
            Some(format!("The relief has beaten the besiegers of {}: its garrison may join the victors — BE-29", city_name(city)))
        }
        Event::TreacheryFailed { city } => Some(format!("Treachery at {} comes to nothing — BE-43", city_name(city))),
        Event::EarthScorched { zone, side } => Some(format!(
            "{} lay waste to {}: a scorched earth marker goes on it — BE-44",
            side_name(side),
            setup.place_name(&Location::Zone(zone.clone()))
        )),
        Event::ReinforcementPhaseBegan { .. } => Some("Reinforcement phase: the spring's new troops — BE-45".to_owned()),
        Event::ReinforcementsDue { due } => sees_faces(viewer, due.side()).then(|| match due {
            super::reinforce::Due::Purchase { side, half_points } => {
                format!("{}: {} to buy reinforcements with (`raise`) — BE-45", side_name(side), super::reinforce::points(*half_points))
            }
            super::reinforce::Due::Line { side, line } => {
                format!("{}: {} wait to be placed (`place_reinforcements`) — BE-45", side_name(side), line.describe(setup))
            }
        }),
        Event::ReinforcementsArrived { side, at, line } => {
            let place = setup.place_name(at);
            if sees_faces(viewer, side) {
                Some(format!("{}: reinforcements arrive at {place}: {} — BE-45", side_name(side), line.describe(setup)))
            } else {
                let n = super::state::pieces_of(side, line, at).iter().filter(|p| p.kind.has_marker()).count();
                (n > 0).then(|| {
                    format!("{}: {} {} at {place} — BE-45", side_name(side), count(n, "marker"), if n == 1 { "arrives" } else { "arrive" })
                })
            }
        }
        Event::UnitsRaised { side, at, units, half_points } => sees_faces(viewer, side).then(|| match at {
            Some(at) => format!(
                "{} raise {} at {} for {} — BE-45",
                side_name(side),
                super::pieces::summary(units),
                setup.place_name(at),
                super::reinforce::points(*half_points)
            ),
            None => format!("{} give up the reinforcement points left — BE-45", side_name(side)),
        }),
        Event::CampaignEnded { judgement } => {
            let winner = judgement.winner.as_ref().map_or_else(|| "nobody".to_owned(), |w| format!("the {}", side_name(w)));
            let each: Vec<String> = judgement.standings.iter().map(|s| s.line(&side_name(&s.side))).collect();
            Some(format!("The campaign ends; {winner} win. {} — {}", each.join("; "), setup.scenario.rule))
        }
        Event::SupplyChecked { turn } => Some(format!("Supply phase of turn {turn}: each side checks its forces' supply — BE-41")),
        Event::OutOfSupply { due } => sees_faces(viewer, &due.force.side).then(|| {
            let who = match &due.force.leader {
                Some(l) => format!("{}'s force", super::state::piece_name(setup, l)),
                None if super::siege::is_besieged(state, &due.force.at) => "the garrison".to_owned(),
                None => "units without a leader".to_owned(),
            };
            format!(
                "{}: out of supply at {}, {who}: {} % lost, {} to share out — BE-41",
                side_name(&due.force.side),
                setup.place_name(&due.force.at),
                due.percent,
                count(due.points, "combat point")
            )
        }),
        Event::SupplyLossesTaken { side, at, losses, militia } => {
            let units: u32 = losses.iter().map(|(_, _, p)| u32::from(*p)).sum();
            let militia_text = if *militia > 0 { format!(", the militia {militia}") } else { String::new() };
            if sees_faces(viewer, side) {
                Some(format!(
                    "{} take {} lost for want of supply at {}{militia_text} — BE-41",
                    side_name(side),
                    count(units, "combat point"),
                    setup.place_name(at)
                ))
            } else {
                // A militia's losses show on its marker; nothing else of the enemy's hunger does.
                (*militia > 0).then(|| format!("The militia of {} loses {militia} — BE-31", setup.place_name(at)))
            }
        }
        _ => describe_naval(state, event, viewer),
    }
}

/// The log lines of ships: voyages are seen as sea markers moving, battles face up; which
/// ships, their naval points and the action points are their side's own (BE-53).
fn describe_naval(state: &State, event: &Event, viewer: &Viewer) -> Option<String> {
    use super::setup::ship_name;
    let setup = &state.setup;
    let side_name = |s: &SideId| setup.side_name(s);
    let sea_name = |s: &super::map::SeaId| setup.place_name(&Location::Sea(s.clone()));
    let ships_named = |ships: &[String]| ships.iter().map(|s| ship_name(s)).collect::<Vec<_>>().join(", ");
    match event {
        Event::ShipsSailed { side, ships, from, path, ap, left } => {
            let route: Vec<String> = path.iter().map(|l| setup.place_name(l)).collect();
            let route = format!("from {} to {}", setup.place_name(from), route.join(", "));
            Some(if sees_faces(viewer, side) {
                let verb = if ships.len() == 1 { "sails" } else { "sail" };
                format!("{}: {} {verb} {route} ({ap} AP, {left} left) — BE-33", side_name(side), ships_named(ships))
            } else {
                format!(
                    "{}: {} {} {route} — BE-33",
                    side_name(side),
                    count(ships.len(), "sea marker"),
                    if ships.len() == 1 { "sails" } else { "sail" }
                )
            })
        }
        Event::ShipsDamaged { side, losses, sunk, cause } => {
            let why = match cause {
                super::naval::ShipLoss::Attrition => "at sea — BE-34",
                super::naval::ShipLoss::Combat => "in the fight — BE-36",
            };
            if sees_faces(viewer, side) || *cause == super::naval::ShipLoss::Combat {
                let each: Vec<String> = losses
                    .iter()
                    .map(|(id, n)| {
                        if sees_faces(viewer, side) {
                            let gone = if sunk.contains(id) { " and sinks" } else { "" };
                            format!("{} loses {n} NP{gone}", ship_name(id))
                        } else {
                            let gone = if sunk.contains(id) { " and sinks" } else { "" };
                            format!("a ship loses {n} NP{gone}")
                        }
                    })
                    .collect();
                Some(format!("{}: {} {why}", side_name(side), each.join(", ")))
            } else {
                // The other side sees only a sea marker leave the map.
                (!sunk.is_empty()).then(|| format!("{}: {} lost {why}", side_name(side), count(sunk.len(), "sea marker")))
            }
        }
        Event::NavalContactMade { contact } => Some(format!(
            "Ships of the {} sail into {}, where the {} have ships: they may intercept — BE-35",
            side_name(&contact.mover),
            sea_name(&contact.sea),
            side_name(&super::operations::other_side(state, &contact.mover))
        )),
        Event::NavalInterceptionTried { side, sea, success, ap, left } => {
            let cost = if sees_faces(viewer, side) { format!(" ({ap} AP, {left} left)") } else { String::new() };
            let how = if *success { "succeeds" } else { "fails" };
            Some(format!("{}: an interception in {} {how}{cost} — BE-35", side_name(side), sea_name(sea)))
        }
        Event::ShipsLetPass { side, sea } => Some(format!("{} let the ships in {} pass — BE-35", side_name(side), sea_name(sea))),
        Event::NavalContactEnded { .. } => None,
        Event::FleetDecoyRemoved { side, at, .. } => Some(format!(
            "{} sea marker intercepted at {} was a decoy: it leaves the map — BE-42",
            capitalised(&crate::core::words::possessive(&side_name(side))),
            setup.place_name(at)
        )),
        Event::FleetDecoyReturned { side, at } => {
            Some(format!("{} place a sea marker at {} — BE-42", side_name(side), setup.place_name(at)))
        }
        Event::NavalBattleJoined { battle } => {
            let each: Vec<String> = battle.squadrons.iter().map(|s| format!("{} {} NP", side_name(&s.side), s.start)).collect();
            Some(format!("Naval battle in {}: {} — BE-36", sea_name(&battle.sea), each.join(" against ")))
        }
        Event::NavalPassage { passage, rolls } => {
            let each: Vec<String> = rolls
                .iter()
                .map(|r| {
                    format!(
                        "the {} ({:+} NP against the enemy, {} on the die) sink {} NP",
                        side_name(&r.side),
                        r.difference,
                        r.modified,
                        r.inflicted
                    )
                })
                .collect();
            Some(format!("Passage {passage}: {} — BE-36", each.join("; ")))
        }
        Event::ShipsRetired { side, to, .. } => Some(format!(
            "{} ships retire to {} — BE-36",
            capitalised(&crate::core::words::possessive(&side_name(side))),
            setup.place_name(to)
        )),
        Event::NavalBattleEnded { sea, winner } => Some(match winner {
            Some(w) => format!("The naval battle in {} is over: the {} hold the sea — BE-36", sea_name(sea), side_name(w)),
            None => format!("The naval battle in {} is over — BE-36", sea_name(sea)),
        }),
        Event::Embarked { side, boarded, from, ships_at, ap, left } => Some(if sees_faces(viewer, side) {
            let each: Vec<String> =
                boarded.iter().map(|(l, s)| format!("{} aboard {}", super::state::piece_name(setup, l), ship_name(s))).collect();
            format!("{}: {} at {} ({ap} AP, {left} left) — BE-37", side_name(side), each.join(", "), setup.place_name(from))
        } else {
            format!(
                "{}: {} at {} {} aboard ships at {} — BE-37",
                side_name(side),
                count(boarded.len(), "marker"),
                setup.place_name(from),
                if boarded.len() == 1 { "goes" } else { "go" },
                setup.place_name(ships_at)
            )
        }),
        Event::Landed { side, leaders, from, at, ap, left } => Some(if sees_faces(viewer, side) {
            let names: Vec<String> = leaders.iter().map(|l| super::state::piece_name(setup, l)).collect();
            format!(
                "{}: {} {} from {} at {} ({ap} AP, {left} left) — BE-37",
                side_name(side),
                names.join(", "),
                if names.len() == 1 { "lands" } else { "land" },
                setup.place_name(from),
                setup.place_name(at)
            )
        } else {
            format!(
                "{}: {} {} from {} at {} — BE-37",
                side_name(side),
                count(leaders.len(), "marker"),
                if leaders.len() == 1 { "lands" } else { "land" },
                setup.place_name(from),
                setup.place_name(at)
            )
        }),
        _ => describe_events(state, event, viewer),
    }
}

/// A leader away, in words: "Belisarius (event A): back on a d6 of 5 or 6 from turn 9".
fn away_text(state: &State, a: &super::random_events::Away) -> String {
    use super::random_events::Back;
    let name = super::state::piece_name(&state.setup, &a.leader);
    let how = match &a.back {
        Back::On { turn, .. } => format!("back at the start of turn {turn}"),
        Back::Roll { from, need } => format!("back on a d6 of {need} or more, from turn {from}"),
        Back::Recall { .. } => "back on 2d6 of 11 or more each summer and winter, +1 for each six months more".to_owned(),
    };
    format!("{name} (event {}): {how}", a.letter)
}

/// The log lines of random events and the Franks: all public (BE-47, BE-48).
fn describe_events(state: &State, event: &Event, viewer: &Viewer) -> Option<String> {
    let setup = &state.setup;
    let side_name = |s: &SideId| setup.side_name(s);
    let event_name = |l: char| setup.tables.event(l).map_or_else(|| format!("event {l}"), |e| format!("event {l}, {}", e.name));
    let name = |id: &str| super::state::piece_name(setup, id);
    match event {
        Event::EventsPhaseBegan { turn } => Some(format!("Events phase of turn {turn} — BE-47")),
        Event::EventDrawn { letter: Some(l), why_not: None } => {
            let effect = setup.tables.event(*l).map_or_else(String::new, |e| format!(": {}", e.effect.trim_end_matches('.')));
            Some(format!("Random event: {}{effect} — BE-47", event_name(*l)))
        }
        Event::EventDrawn { letter: Some(l), why_not: Some(why) } => {
            Some(format!("Random event: {} — no event, as {why} — BE-47", event_name(*l)))
        }
        Event::EventDrawn { letter: None, .. } => Some("Random event: none — BE-47".to_owned()),
        Event::EventInForce { event } => {
            Some(format!("{} is in force to the end of turn {} — BE-47", capitalised(&event_name(event.letter)), event.until))
        }
        Event::LeaderWithdrawn { side, leader, taking, letter, .. } => {
            // How many units go with him is his side's business.
            let with = if taking.is_empty() { "" } else { " with part of his force" };
            Some(format!("{} ({}) leaves the game{with} ({}) — BE-47", name(leader), side_name(side), event_name(*letter)))
        }
        Event::LeaderSent { side, leader, letter, .. } => {
            Some(format!("{} is sent to the {} to take command ({}) — BE-47", name(leader), side_name(side), event_name(*letter)))
        }
        Event::LeaderReturned { side, leader } => {
            Some(format!("{} is back with the {}, who place him (`place_reinforcements`) — BE-47", name(leader), side_name(side)))
        }
        Event::ExpeditionMoved { side, from, to } => Some(format!(
            "The {} expedition stands at {} instead of {} — BE-47",
            side_name(side),
            setup.place_name(to),
            setup.place_name(from)
        )),
        Event::ShipsChangedSides { from, to } => {
            Some(format!("Every ship of the {} passes to the {} — BE-47", side_name(from), side_name(to)))
        }
        Event::ShipsSheltered { moves } => {
            // By side and port, never in the order the ships came into play: that order tells
            // a line's fleets from its decoys (BE-53). The viewer's own ships are named.
            let mut each: Vec<(usize, String, String)> = moves
                .iter()
                .map(|(s, id, at)| {
                    let rank = setup.sides.iter().position(|x| &x.id == s).unwrap_or(usize::MAX);
                    let what = if sees_faces(viewer, s) {
                        format!("{} {}", crate::core::words::possessive(&side_name(s)), super::setup::ship_name(id))
                    } else {
                        format!("a sea marker of the {}", side_name(s))
                    };
                    (rank, setup.place_name(at), what)
                })
                .collect();
            each.sort();
            let each: Vec<String> = each.into_iter().map(|(_, port, what)| format!("{what} to {port}")).collect();
            Some(if each.is_empty() {
                "Great storms: no ship is at sea — BE-47".to_owned()
            } else {
                format!("Great storms: every ship runs for port — {} — BE-47", each.join(", "))
            })
        }
        Event::FranksArrived { franks, at } => Some(match &franks.against {
            Some(enemy) => format!(
                "The Franks come down into {}: they fight the {}, and the {} lead them, until the end of turn {} — BE-48",
                setup.place_name(at),
                side_name(enemy),
                side_name(&franks.side),
                franks.until
            ),
            None => format!(
                "The Franks come down into {} as allies of the {}, until the end of turn {} — BE-48",
                setup.place_name(at),
                side_name(&franks.side),
                franks.until
            ),
        }),
        Event::FranksMarched { .. } => Some("The Franks march by themselves — BE-48".to_owned()),
        Event::FranksLeft { .. } => Some("The Franks go home — BE-48".to_owned()),
        _ => None,
    }
}
