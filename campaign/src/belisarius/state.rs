//! A Belisarius campaign's state: where every piece is, who holds what, the cup and the
//! hands of stratagems. Rebuilt from the events; the rules read it, views draw from it.

use crate::core::log::NoteAdded;
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::map::{CityId, SeaId, ZoneId};
use super::operations::{ActionPoints, Operations};
use super::pieces::Unit;
use super::setup::{Line, Setup};
use crate::core::dice::Cup;
use crate::core::engine::StartedAgain;
use crate::ids::SideId;

/// The shape of [`State`] that snapshots store.
pub const STATE_VERSION: u32 = 8;

/// Where a piece stands: in a land zone's open country, inside its city, at sea, or aboard
/// one of its side's ships (BE-37), wherever the ship is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "in", content = "id")]
pub enum Location {
    Zone(ZoneId),
    City(CityId),
    Sea(SeaId),
    /// Aboard the ship with this id (`fleet-byzantines-2`): off the map, on the ship's box of
    /// the Table of Organisation.
    Aboard(String),
}

impl Location {
    /// The place's id, as orders name it (`byzacium-south`, `carthago`, `mare-africum`).
    pub fn id(&self) -> &str {
        match self {
            Location::Zone(z) => &z.0,
            Location::City(c) => &c.0,
            Location::Sea(s) => &s.0,
            Location::Aboard(ship) => ship,
        }
    }

    /// Whether this is the sea, where only fleets and fleet decoys go.
    pub fn is_sea(&self) -> bool {
        matches!(self, Location::Sea(_))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Zone(z) => write!(f, "{z}"),
            Location::City(c) => write!(f, "{c}"),
            Location::Sea(s) => write!(f, "{s}"),
            Location::Aboard(ship) => write!(f, "aboard {ship}"),
        }
    }
}

/// What a piece is. To the other side every leader, decoy and leaderless group is the same
/// face-down land marker, and every fleet and fleet decoy the same sea marker (BE-53).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum PieceKind {
    /// A leader with the units in his box of the Table of Organisation.
    Leader { leader: String, units: Vec<Unit> },
    /// Units with no leader: they may hold a city, not move (BE-03, BE-24).
    Group { units: Vec<Unit> },
    /// A blank leader marker (BE-42), `decoy-byzantines-1`, `decoy-byzantines-2` … in the
    /// order its side's came into play: it moves like a leader, for the same action points,
    /// and does nothing else.
    LeaderDecoy {
        #[serde(default)]
        id: String,
    },
    /// A naval unit of naval points (BE-33), `fleet-byzantines-1`, `fleet-byzantines-2` … in
    /// the order its side's ships and fleet decoys came into play. Several at one place sail
    /// together as a fleet.
    Fleet {
        np: u32,
        #[serde(default)]
        id: String,
    },
    /// A blank fleet marker (BE-42), numbered with the side's ships.
    FleetDecoy {
        #[serde(default)]
        id: String,
    },
}

impl PieceKind {
    /// Whether the other side sees a marker for it on the map. Units without a leader stand
    /// only on their side's Table of Organisation.
    pub fn has_marker(&self) -> bool {
        !matches!(self, PieceKind::Group { .. })
    }

    /// Whether its marker is a sea marker.
    pub fn is_naval(&self) -> bool {
        matches!(self, PieceKind::Fleet { .. } | PieceKind::FleetDecoy { .. })
    }

    /// A ship's or fleet decoy's id.
    pub fn ship_id(&self) -> Option<&str> {
        match self {
            PieceKind::Fleet { id, .. } | PieceKind::FleetDecoy { id } => Some(id),
            _ => None,
        }
    }

    /// The units it holds.
    pub fn units(&self) -> &[Unit] {
        match self {
            PieceKind::Leader { units, .. } | PieceKind::Group { units } => units,
            _ => &[],
        }
    }
}

/// One piece of a side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    pub side: SideId,
    pub at: Location,
    pub kind: PieceKind,
}

/// Where the campaign stands in its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Free set-up lines are being placed (BE-49…BE-52).
    SetUp,
    /// A turn before its operations: the events phase in summer and winter, the supply phase,
    /// and the reinforcements in spring (BE-41, BE-45, BE-47).
    Play,
    /// Segments alternate (BE-05, BE-06).
    Operations,
    /// The operations are over; the siege phase (BE-26) and the turn's end come with
    /// `end_turn`.
    TurnEnd,
    /// The last turn has ended and the victory conditions are judged (BE-49 … BE-52).
    Over,
}

/// A city: who holds it and its militia (BE-25).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CityHold {
    pub holder: Option<SideId>,
    pub militia: u8,
    /// Defence works built (BE-32): the city's defence is its fortifications plus these, at
    /// most 5.
    #[serde(default)]
    pub defence_works: u8,
    /// The fortifications were pulled down to 0 (BE-32).
    #[serde(default)]
    pub razed: bool,
}

/// What is left to place of a free set-up line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DueLine {
    /// The line's index in the side's set-up.
    pub index: usize,
    pub rest: Line,
}

/// A Belisarius campaign as the rules see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub name: String,
    pub setup: Box<Setup>,
    /// The dice's seed: the referee's secret, in no view.
    pub seed: u64,
    pub stream_pos: u64,
    /// From 1; the season and year follow from the scenario's first season.
    pub turn: u32,
    pub phase: Phase,
    /// Every piece, in the order it came into play. Views never show this order to a side
    /// for the other side's pieces.
    pub pieces: Vec<Piece>,
    /// Land zones and who controls them (BE-46).
    pub control: BTreeMap<ZoneId, SideId>,
    pub cities: BTreeMap<CityId, CityHold>,
    /// The AP markers and stratagems drawn blind (BE-04).
    pub cup: Cup,
    /// The stratagems each side holds, secret from the other (BE-43, BE-53).
    pub hands: BTreeMap<SideId, Vec<String>>,
    /// Each side's free set-up lines still (wholly or partly) to place.
    pub lines_due: BTreeMap<SideId, Vec<DueLine>>,
    pub rolls: u32,
    pub notes: u32,
    /// The operations phase under way, and after it until the turn ends.
    #[serde(default)]
    pub ops: Option<Operations>,
    /// Action points set as the operations phase begins, before the first player is known.
    #[serde(default)]
    pub pending_ap: BTreeMap<SideId, ActionPoints>,
    /// Each side's commander-in-chief or king now, by leader id (BE-04, BE-09, BE-50);
    /// `None` for a side without one.
    #[serde(default)]
    pub cinc: BTreeMap<SideId, Option<String>>,
    /// Land decoys intercepted and out of play, per side: they may come back (BE-42).
    #[serde(default)]
    pub decoys_out: BTreeMap<SideId, u32>,
    /// Land decoys each side has brought into play, for their ids.
    #[serde(default)]
    pub decoys_made: BTreeMap<SideId, u32>,
    /// Combat points each side has lost in battle, pursuit included (for the scenarios'
    /// "destroy" conditions, BE-49).
    #[serde(default)]
    pub lost_in_battle: BTreeMap<SideId, u32>,
    /// Sieges under way, by city (BE-24).
    #[serde(default)]
    pub sieges: BTreeMap<CityId, super::siege::Siege>,
    /// The last turn whose supply phase was played (BE-41).
    #[serde(default)]
    pub supplied: u32,
    /// Losses forces owe for want of supply, for their owners to share out (BE-41).
    #[serde(default)]
    pub supply_dues: Vec<super::supply::SupplyDue>,
    /// The last turn whose reinforcement phase was played (BE-45).
    #[serde(default)]
    pub reinforced: u32,
    /// Reinforcements waiting to be bought or placed (BE-45).
    #[serde(default)]
    pub reinforcements_due: Vec<super::reinforce::Due>,
    /// The judgement of the victory conditions, once the last turn has ended.
    #[serde(default)]
    pub result: Option<super::victory::Judgement>,
    /// Zones under a scorched earth marker (BE-44).
    #[serde(default)]
    pub scorched: std::collections::BTreeSet<ZoneId>,
    /// Ships and fleet decoys each side has brought into play, for their ids.
    #[serde(default)]
    pub ships_made: BTreeMap<SideId, u32>,
    /// Fleet decoys intercepted and out of play, per side: they may come back (BE-42).
    #[serde(default)]
    pub fleet_decoys_out: BTreeMap<SideId, u32>,
    /// Random events drawn and still in force (BE-47).
    #[serde(default)]
    pub in_force: Vec<super::random_events::InForce>,
    /// The last turn whose events phase was played (BE-47).
    #[serde(default)]
    pub events_played: u32,
    /// Events that happened, with their turn (BE-47: red events once only).
    #[serde(default)]
    pub happened: Vec<(u32, char)>,
    /// Leaders an event called away, and those on their way (BE-47).
    #[serde(default)]
    pub away: Vec<super::random_events::Away>,
    /// The Franks, while they are in Italy (BE-48, BE-52).
    #[serde(default)]
    pub franks: Option<super::franks::Franks>,
    /// Leaders killed, by id: they do not come back (BE-09, BE-47).
    #[serde(default)]
    pub killed: Vec<String>,
}

impl State {
    /// The state right after the campaign starts from `setup`.
    pub fn new(name: &str, setup: &Setup, seed: u64) -> State {
        let mut state = State {
            name: name.to_owned(),
            setup: Box::new(setup.clone()),
            seed,
            stream_pos: 0,
            turn: 1,
            phase: Phase::SetUp,
            pieces: Vec::new(),
            control: BTreeMap::new(),
            cities: setup
                .map
                .zones
                .iter()
                .map(|z| (z.city.id.clone(), CityHold { holder: None, militia: z.city.militia, defence_works: 0, razed: false }))
                .collect(),
            cup: Cup::new("AP", setup.cup.iter().cloned()),
            hands: BTreeMap::new(),
            lines_due: BTreeMap::new(),
            rolls: 0,
            notes: 0,
            ops: None,
            pending_ap: BTreeMap::new(),
            cinc: setup.sides.iter().map(|s| (s.id.clone(), s.cinc.clone())).collect(),
            decoys_out: BTreeMap::new(),
            decoys_made: BTreeMap::new(),
            lost_in_battle: BTreeMap::new(),
            sieges: BTreeMap::new(),
            supplied: 0,
            reinforced: 0,
            result: None,
            reinforcements_due: Vec::new(),
            supply_dues: Vec::new(),
            scorched: std::collections::BTreeSet::new(),
            ships_made: BTreeMap::new(),
            fleet_decoys_out: BTreeMap::new(),
            in_force: Vec::new(),
            events_played: 0,
            happened: Vec::new(),
            away: Vec::new(),
            killed: Vec::new(),
            franks: setup.scenario.has(super::scenario::SpecialKey::FranksAllied4Turns).then(super::franks::allied_from_the_start),
        };
        for side in &setup.sides {
            for zone in &side.controls {
                state.control.insert(zone.clone(), side.id.clone());
            }
            // Cities as the scenario gives them, not with their zones: the Byzantines who land
            // in northern Byzacium control the zone, and Hadrumetum is still the Vandals'.
            for city in side.holds_at_start(&setup.map) {
                if let Some(hold) = state.cities.get_mut(&city) {
                    hold.holder = Some(side.id.clone());
                }
            }
            state.hands.insert(side.id.clone(), side.hand.clone());
            let mut due = Vec::new();
            for (i, line) in side.lines.iter().enumerate() {
                match &line.at {
                    Some(at) => {
                        state.pieces.extend(pieces_of(&side.id, line, at));
                        state.name_decoys(&side.id);
                    }
                    None => due.push(DueLine { index: i, rest: line.clone() }),
                }
            }
            state.lines_due.insert(side.id.clone(), due);
        }
        state
    }

    /// Applies one event. Pure and deterministic; fails only on a second start.
    pub fn apply(&mut self, event: &Event) -> Result<(), StartedAgain> {
        match event {
            Event::CampaignStarted(_) => return Err(StartedAgain),
            Event::DiceRolled(rolled) => rolled.count(&mut self.rolls, &mut self.stream_pos),
            Event::NoteAdded(NoteAdded { .. }) => self.notes += 1,
            Event::CampaignRenamed(renamed) => self.name.clone_from(&renamed.name),
            Event::LinePlaced { side, line, at, placed } => {
                self.pieces.extend(pieces_of(side, placed, at));
                self.name_decoys(side);
                if let Some(due) = self.lines_due.get_mut(side) {
                    if let Some(d) = due.iter_mut().find(|d| d.index == *line) {
                        d.rest.take(placed);
                    }
                    due.retain(|d| !d.rest.is_empty());
                }
            }
            Event::PlayBegan => self.phase = Phase::Play,
            Event::ChitDrawn(_)
            | Event::ActionPointsSet { .. }
            | Event::OperationsBegan { .. }
            | Event::LeaderActivated { .. }
            | Event::SegmentEnded { .. }
            | Event::ForceMarched { .. }
            | Event::ZoneControlled { .. }
            | Event::UnitsReorganised { .. }
            | Event::AttritionSuffered { .. }
            | Event::LossesTaken { .. }
            | Event::OperationsEnded
            | Event::ChitsRevealed { .. }
            | Event::Dropped { .. }
            | Event::PickedUp { .. }
            | Event::Shifted { .. }
            | Event::KingReplaced { .. }
            | Event::TurnEnded { .. } => self.apply_operations(event),
            Event::CampaignEnded { judgement } => {
                self.phase = Phase::Over;
                // The campaign ended with its last turn: the calendar stops there.
                self.turn = self.turn.saturating_sub(1).max(1);
                self.result = Some(judgement.clone());
            }
            Event::ContactMade { .. }
            | Event::InterceptionTried { .. }
            | Event::InterceptionDeclined { .. }
            | Event::ContactEnded { .. }
            | Event::BattleAgreed { .. }
            | Event::DecoyRemoved { .. }
            | Event::StratagemPlayed { .. }
            | Event::ForceRevealed { .. }
            | Event::DecoyReturned { .. }
            | Event::ReliefDeclared { .. } => self.apply_interception(event),
            Event::BattleJoined { .. }
            | Event::CombatRolled { .. }
            | Event::BattleLossesTaken { .. }
            | Event::MoraleChecked { .. }
            | Event::StageEnded { .. }
            | Event::PassageBegan { .. }
            | Event::SentToTable { .. }
            | Event::BrokeOff { .. }
            | Event::PursuitRolled { .. }
            | Event::Retreated { .. }
            | Event::BattleEnded { .. }
            | Event::LeaderKilled { .. } => self.apply_battle(event),
            Event::ActionPointsSpent { .. }
            | Event::SiegeDeclared { .. }
            | Event::AssaultRolled { .. }
            | Event::SiegeLossesTaken { .. }
            | Event::CityFell { .. }
            | Event::WorksBuilt { .. }
            | Event::FortificationsDestroyed { .. }
            | Event::SiegeAdvanced { .. }
            | Event::SiegeEnded { .. }
            | Event::TreacheryFailed { .. }
            | Event::SiegeRelieved { .. }
            | Event::EarthScorched { .. }
            | Event::SortieMade { .. }
            | Event::SortieAnswered { .. }
            | Event::SortieRolled { .. } => self.apply_siege(event),
            Event::SupplyChecked { .. } | Event::OutOfSupply { .. } | Event::SupplyLossesTaken { .. } => self.apply_supply(event),
            Event::ReinforcementPhaseBegan { .. }
            | Event::ReinforcementsDue { .. }
            | Event::ReinforcementsArrived { .. }
            | Event::UnitsRaised { .. } => self.apply_reinforce(event),
            Event::ShipsSailed { .. }
            | Event::ShipsDamaged { .. }
            | Event::NavalContactMade { .. }
            | Event::NavalInterceptionTried { .. }
            | Event::ShipsLetPass { .. }
            | Event::NavalContactEnded { .. }
            | Event::FleetDecoyRemoved { .. }
            | Event::FleetDecoyReturned { .. }
            | Event::NavalBattleJoined { .. }
            | Event::NavalPassage { .. }
            | Event::ShipsRetired { .. }
            | Event::NavalBattleEnded { .. }
            | Event::Embarked { .. }
            | Event::Landed { .. } => self.apply_naval(event),
            Event::EventsPhaseBegan { .. }
            | Event::EventDrawn { .. }
            | Event::EventInForce { .. }
            | Event::LeaderWithdrawn { .. }
            | Event::LeaderSent { .. }
            | Event::LeaderReturned { .. }
            | Event::ExpeditionMoved { .. }
            | Event::ShipsChangedSides { .. }
            | Event::ShipsSheltered { .. } => self.apply_random_events(event),
            Event::FranksArrived { .. } | Event::FranksMarched { .. } | Event::FranksLeft { .. } => self.apply_franks(event),
        }
        Ok(())
    }

    /// One of `side`'s decoys out of play comes back at `at`: a fleet decoy or a leader's
    /// (BE-42), named as the next of its kind.
    pub(crate) fn return_decoy(&mut self, side: &SideId, at: &Location, fleet: bool) {
        let out = if fleet { &mut self.fleet_decoys_out } else { &mut self.decoys_out };
        if let Some(n) = out.get_mut(side) {
            *n = n.saturating_sub(1);
        }
        let kind = if fleet { PieceKind::FleetDecoy { id: String::new() } } else { PieceKind::LeaderDecoy { id: String::new() } };
        self.pieces.push(Piece { side: side.clone(), at: at.clone(), kind });
        self.name_decoys(side);
    }

    /// Gives `side`'s new land decoys, ships and fleet decoys their ids, in the order they
    /// came into play. Ships and fleet decoys share one count, so an id says nothing of
    /// which is which.
    pub(crate) fn name_decoys(&mut self, side: &SideId) {
        let made = self.decoys_made.entry(side.clone()).or_default();
        let ships = self.ships_made.entry(side.clone()).or_default();
        for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
            match &mut p.kind {
                // Both sides have decoys: the side's id keeps them apart.
                PieceKind::LeaderDecoy { id } if id.is_empty() => {
                    *made += 1;
                    *id = format!("decoy-{side}-{made}");
                }
                PieceKind::Fleet { id, .. } | PieceKind::FleetDecoy { id } if id.is_empty() => {
                    *ships += 1;
                    *id = format!("fleet-{side}-{ships}");
                }
                _ => {}
            }
        }
    }

    /// A side's ship or fleet decoy by its id.
    pub fn ship(&self, side: &SideId, id: &str) -> Option<&Piece> {
        self.pieces_of(side).find(|p| p.kind.ship_id() == Some(id))
    }

    /// Puts `units` without a leader at `at`, with the side's units already standing there
    /// leaderless, if any.
    pub(crate) fn add_loose(&mut self, side: &SideId, at: &Location, units: &[Unit]) {
        let group = self.pieces.iter_mut().find(|p| &p.side == side && &p.at == at && matches!(p.kind, PieceKind::Group { .. }));
        match group {
            Some(Piece { kind: PieceKind::Group { units: g }, .. }) => g.extend(units.iter().copied()),
            _ => self.pieces.push(Piece { side: side.clone(), at: at.clone(), kind: PieceKind::Group { units: units.to_vec() } }),
        }
    }

    /// A side's land marker by its id: a leader's, or a decoy's (`decoy-byzantines-1`).
    pub fn marker(&self, side: &SideId, id: &str) -> Option<&Piece> {
        self.pieces_of(side).find(|p| match &p.kind {
            PieceKind::Leader { leader, .. } => leader == id,
            PieceKind::LeaderDecoy { id: d } => d == id,
            _ => false,
        })
    }

    /// The season and year of the turn, e.g. "summer 535".
    pub fn date(&self) -> String {
        self.setup.date_of_turn(self.turn)
    }

    /// The pieces of `side`.
    pub fn pieces_of(&self, side: &SideId) -> impl Iterator<Item = &Piece> {
        self.pieces.iter().filter(move |p| &p.side == side)
    }
}

/// The pieces one set-up line puts at `at`: each leader (the line's units go to the most
/// senior, to be shared out freely before the first operations, BE-08), each decoy, each
/// fleet and fleet decoy, and the units alone when there is no leader. Fleets of a line set
/// up on land wait in the zone's port.
pub(crate) fn pieces_of(side: &SideId, line: &Line, at: &Location) -> Vec<Piece> {
    let land = match at {
        Location::Sea(_) => None,
        other => Some(other.clone()),
    };
    let mut out = Vec::new();
    let piece = |at: &Location, kind| Piece { side: side.clone(), at: at.clone(), kind };
    if let Some(land) = &land {
        let mut units = Some(line.units.clone());
        for leader in &line.leaders {
            out.push(piece(land, PieceKind::Leader { leader: leader.clone(), units: units.take().unwrap_or_default() }));
        }
        if let Some(units) = units.filter(|u| !u.is_empty()) {
            out.push(piece(land, PieceKind::Group { units }));
        }
        out.extend((0..line.decoys).map(|_| piece(land, PieceKind::LeaderDecoy { id: String::new() })));
    }
    let naval = line.port.as_ref().map(|p| Location::City(p.clone())).unwrap_or_else(|| at.clone());
    out.extend(line.fleets.iter().map(|&np| piece(&naval, PieceKind::Fleet { np, id: String::new() })));
    out.extend((0..line.fleet_decoys).map(|_| piece(&naval, PieceKind::FleetDecoy { id: String::new() })));
    out
}

/// Whether an id names a land decoy rather than a leader.
pub fn is_decoy(id: &str) -> bool {
    id.starts_with("decoy-")
}

/// The side and the number a land decoy's id gives: `decoy-byzantines-2` is the Byzantines'
/// decoy 2; `None` for an id that is no decoy's.
pub fn decoy_of(id: &str) -> Option<(&str, &str)> {
    id.strip_prefix("decoy-")?.rsplit_once('-')
}

/// A leader's name, or "decoy 1" for a decoy, as its own side reads it.
pub fn piece_name(setup: &Setup, id: &str) -> String {
    super::setup::Public::of(setup).piece_name(id)
}
