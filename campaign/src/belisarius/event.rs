//! Belisarius events: what happened, in the past tense; replaying them rebuilds the state.

use crate::core::log::{CampaignRenamed, CampaignStarted, ChitDrawn, DiceRolled, NoteAdded};
use serde::{Deserialize, Serialize};

use super::battle::{Battle, Outcome};
use super::fight::{Owed, Stage};
use super::franks::Franks;
use super::interception::{Attempt, Contact};
use super::map::{CityId, SeaId, ZoneId};
use super::naval::{NavalBattle, NavalContact, PassageRoll, ShipLoss};
use super::operations::{ActionPoints, Activation, AttritionDue};
use super::random_events::{Back, InForce};
use super::setup::{Line, Setup};
use super::siege::{AssaultDue, Fall, Lifted, Siege, Works};
use super::state::Location;
use super::tables::AssaultResult;
use crate::core::engine::Upcaster;
use crate::ids::SideId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// The campaign began from a scenario, kept whole with the map, the leaders and the
    /// tables it is played with, so later edits of the data files never change it.
    CampaignStarted(CampaignStarted<Setup>),
    /// Dice were rolled, by the generator or typed in.
    DiceRolled(DiceRolled),
    /// The referee wrote a note; only the referee reads it.
    NoteAdded(NoteAdded),
    /// The campaign was given another name.
    CampaignRenamed(CampaignRenamed),
    /// Pieces of one of a side's free set-up lines went where its player chose. Only that
    /// side and the referee learn which pieces; the other side sees face-down markers arrive.
    LinePlaced {
        side: SideId,
        /// The line's index in the scenario's set-up of that side.
        line: usize,
        at: Location,
        /// What was placed: the whole rest of the line, or a part of it.
        placed: Line,
    },
    /// Set-up ended; the first turn begins.
    PlayBegan,
    /// A side drew a chit blind for its action points (BE-04): a stratagem is kept, secretly,
    /// and another drawn. Only that side and the referee read which chit.
    ChitDrawn(ChitDrawn),
    /// A side's action points for the turn: its chit plus its CinC's strategic rating,
    /// secret from the other side until the turn's end (BE-04, BE-53).
    ActionPointsSet { side: SideId, ap: ActionPoints },
    /// The operations phase began, `first` having won the initiative (BE-05).
    OperationsBegan { first: SideId },
    /// A leader was activated, with inferior leaders of his zone (BE-06, BE-07). The other
    /// side learns only that a force was activated, and where.
    LeaderActivated { activation: Activation },
    /// A side's segment ended, with an activation in it or as a pass (BE-06).
    SegmentEnded { side: SideId, acted: bool },
    /// The acting leader's force marched along `path` (BE-10); the other side sees a
    /// marker go by. `ap` spent and `left` are the side's own.
    ForceMarched { activation: Activation, from: Location, path: Vec<ZoneId>, ap: u32, left: u32 },
    /// Units passed from one leader's box to another's in one zone before the phase's first
    /// activation (BE-08): on the Table of Organisation, the side's own business.
    UnitsReorganised { side: SideId, from: String, to: String, indices: Vec<u32>, units: Vec<super::pieces::Unit> },
    /// A zone passed to a side: sole presence, or last through it (BE-46).
    ZoneControlled { zone: ZoneId, side: SideId },
    /// A force owes losses after its march (BE-12), the side's own to know.
    AttritionSuffered { due: AttritionDue },
    /// The owner took the losses: (leader whose box, unit's index in it, points).
    LossesTaken { side: SideId, losses: Vec<(String, u32, u8)> },
    /// Both sides passed in a row, or neither has action points left (BE-06).
    OperationsEnded,
    /// The turn's end: each side's AP chit shown (BE-02, BE-53); they go back into the cup.
    ChitsRevealed { chits: Vec<(SideId, String, u8)> },
    /// A king left the game and another took his place (BE-50: Theodahad after turn 3);
    /// the units with him stay where he stood, without a leader.
    KingReplaced { side: SideId, old: String, new: String },
    /// The turn ended; the season moves on (BE-02).
    TurnEnded { turn: u32 },
    /// A march halted in a zone where the enemy stands; interception may follow (BE-13).
    ContactMade { contact: Contact },
    /// An interception was tried, for `cost` AP (BE-13, BE-14). The other side reads the
    /// result, not the ratings behind it.
    InterceptionTried { attempt: Attempt, cost: u32 },
    /// A side made no (more) attempts at a contact (BE-13).
    InterceptionDeclined { side: SideId, zone: ZoneId },
    /// The interceptions at a contact are over; the mover may march on.
    ContactEnded { zone: ZoneId },
    /// A side agreed to a battle by consent after both failed (BE-13).
    BattleAgreed { side: SideId },
    /// An intercepted decoy left the map (BE-42), or one lost in a city that fell.
    DecoyRemoved {
        side: SideId,
        at: Location,
        id: String,
        /// Lost in a city that fell without a fight: the other side never saw it turned over.
        #[serde(default)]
        face_down: bool,
    },
    /// A decoy out of play came back beside a leader of its side (BE-42).
    DecoyReturned { side: SideId, at: Location },
    /// A stratagem was played and is spent (BE-43).
    StratagemPlayed { side: SideId, stratagem: String },
    /// Reconnaissance turned a marker face up for `to` alone (BE-43).
    ForceRevealed { to: SideId, at: Location, face: String },
    /// A battle began: both forces face up to both sides while it lasts (BE-17, BE-53).
    BattleJoined { battle: Battle },
    /// Both sides rolled a stage; what each side owes (BE-18, BE-19).
    CombatRolled { stage: Stage, owed: Vec<(SideId, Owed)> },
    /// A side shared out its losses in a battle: (leader, unit's index in his box, points).
    BattleLossesTaken { side: SideId, losses: Vec<(String, u32, u8)> },
    /// A side's morale checks: the units that failed go to the disordered box (BE-20).
    MoraleChecked { side: SideId, disordered: Vec<(String, u32)> },
    /// A stage of the passage is over.
    StageEnded { stage: Stage },
    /// Another passage of arms begins (BE-17).
    PassageBegan { passage: u32 },
    /// The referee sent the battle to the tabletop (BE-17).
    SentToTable { zone: ZoneId },
    /// A side broke off the battle (BE-22).
    BrokeOff { side: SideId },
    /// The pursuit was rolled; the retreating side owes its losses (BE-22).
    PursuitRolled { side: SideId, owed: Owed },
    /// A beaten force retreated (BE-22).
    Retreated { side: SideId, leaders: Vec<String>, to: Location },
    /// A battle ended.
    BattleEnded { outcome: Outcome },
    /// The acting force left units (from `leader`'s box, by index) and leaders on its way
    /// (BE-11); the units stand without a leader at `at`.
    Dropped { side: SideId, leader: String, indices: Vec<u32>, units: Vec<super::pieces::Unit>, leaders: Vec<String>, at: Location },
    /// The acting force took along units with no leader (by index among them, as
    /// [`super::operations::loose_units`] lists them) and inferior leaders (BE-11).
    PickedUp { side: SideId, leader: String, indices: Vec<u32>, units: Vec<super::pieces::Unit>, leaders: Vec<String>, at: Location },
    /// The acting force stepped between its zone and the zone's city (BE-11).
    Shifted { activation: Activation, to: Location },
    /// A leader was killed (BE-09); a commander-in-chief's successor takes over.
    LeaderKilled {
        side: SideId,
        leader: String,
        successor: Option<String>,
        was_cinc: bool,
        /// Lost with his ship to the sea (BE-34): the other side reads only that a sea marker
        /// was lost, not who was aboard.
        #[serde(default)]
        at_sea: bool,
        /// Lost face down, with no fight to show him: at sea, or in a city that fell to its
        /// fourth siege mark or to treachery (BE-53). The other side reads nothing of him.
        #[serde(default)]
        face_down: bool,
    },
    /// A side spent action points on `on`, its own business; `left` is what it has now.
    ActionPointsSpent { side: SideId, ap: u32, left: u32, on: String },
    /// A siege was declared: the duration marker goes on the city at 1 (BE-24, BE-26).
    SiegeDeclared { city: CityId, siege: Siege },
    /// An assault was rolled (BE-27): both sides' unmodified points, the ratio's row, the
    /// result, and what each side owes.
    AssaultRolled { due: AssaultDue, attacker_points: u32, defender_points: u32, row: String, result: AssaultResult },
    /// A side shared out its losses of an assault, or of a sortie (`sortie`): (leader whose
    /// box, or `None` for the units without a leader at `at`, unit's index, points), and the
    /// militia's share (BE-25, BE-27, BE-28).
    SiegeLossesTaken {
        side: SideId,
        at: Location,
        losses: Vec<(Option<String>, u32, u8)>,
        militia: u8,
        /// Stored only when true, so an assault's losses read as they always did.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        sortie: bool,
    },
    /// A city fell to `to`: everyone of `from` inside is lost, the ships in its port change
    /// hands, its militia is full again for its new holder (BE-25, BE-26, BE-27, BE-40).
    CityFell { city: CityId, from: SideId, to: SideId, how: Fall },
    /// Works were built (BE-32).
    WorksBuilt { city: CityId, side: SideId, works: Works, count: u8 },
    /// A city's walls and works were pulled down (BE-32).
    FortificationsDestroyed { city: CityId, side: SideId },
    /// The siege phase moved a duration marker up (BE-26).
    SiegeAdvanced { city: CityId, duration: u8 },
    /// A siege ended without the city falling (BE-30).
    SiegeEnded { city: CityId, why: Lifted },
    /// Treachery was tried at a siege and came to nothing (BE-43).
    TreacheryFailed { city: CityId },
    /// A marching force attacks the lines of the siege at `zone`: interception is automatic
    /// (BE-29).
    ReliefDeclared { zone: ZoneId },
    /// A relief beat the besiegers of `city`: its garrison may join the victors (BE-29).
    SiegeRelieved { city: CityId },
    /// The besieged sallied (BE-28); the points are everyone's to see.
    SortieMade { due: super::siege::SortieDue },
    /// The besieger met the sortie with these units and points (BE-28).
    SortieAnswered { answer: Vec<(Option<String>, u32, u8)> },
    /// The sortie's melee was rolled: what each side owes (BE-28).
    SortieRolled { owed: Vec<(SideId, u32)> },
    /// The reinforcement phase of a spring began (BE-45).
    ReinforcementPhaseBegan { turn: u32 },
    /// A side is due reinforcements to buy or to place: its own business.
    ReinforcementsDue { due: super::reinforce::Due },
    /// A side's reinforcements arrived at `at`; the other side sees only the markers.
    ReinforcementsArrived { side: SideId, at: Location, line: Line },
    /// The Goths bought units, placed without a leader at `at`, for `half_points`; `at` is
    /// `None` when they give up the points left (BE-45).
    UnitsRaised { side: SideId, at: Option<Location>, units: Vec<super::pieces::Unit>, half_points: u32 },
    /// The last turn ended: the victory conditions judged, for everyone to read (BE-49 …
    /// BE-52).
    CampaignEnded { judgement: super::victory::Judgement },
    /// A zone was laid waste: the scorched earth marker goes on it (BE-44).
    EarthScorched { zone: ZoneId, side: SideId },
    /// The supply phase of a turn was played (BE-41).
    SupplyChecked { turn: u32 },
    /// A force out of supply, or besieged, owes losses (BE-31, BE-41): its side's own.
    OutOfSupply { due: super::supply::SupplyDue },
    /// A side shared out a supply due: (leader or `None`, index, points), and the militia's
    /// part in a besieged city.
    SupplyLossesTaken { side: SideId, at: Location, losses: Vec<(Option<String>, u32, u8)>, militia: u8 },
    /// Ships sailed from `from` along `path` (BE-33): everyone sees the sea markers go; which
    /// ships, and the action points, are their side's own.
    ShipsSailed { side: SideId, ships: Vec<String>, from: Location, path: Vec<Location>, ap: u32, left: u32 },
    /// Ships lost naval points (ship, points); a ship at 0 sank with all aboard (BE-34, BE-36).
    ShipsDamaged { side: SideId, losses: Vec<(String, u32)>, sunk: Vec<String>, cause: ShipLoss },
    /// A voyage halted in a sea zone where the enemy's ships are (BE-35).
    NavalContactMade { contact: NavalContact },
    /// The side not sailing tried to intercept, for `ap` (BE-35).
    NavalInterceptionTried { side: SideId, sea: SeaId, success: bool, ap: u32, left: u32 },
    /// The side not sailing let the ships pass (BE-35).
    ShipsLetPass { side: SideId, sea: SeaId },
    /// The interception at sea is over; `voyage_on` may sail on without paying again.
    NavalContactEnded { sea: SeaId, voyage_on: Option<Vec<String>> },
    /// An intercepted fleet decoy left the map (BE-42).
    FleetDecoyRemoved { side: SideId, id: String, at: Location },
    /// A fleet decoy out of play came back beside a ship of its side (BE-42).
    FleetDecoyReturned { side: SideId, at: Location },
    /// A naval battle began (BE-36): both sides' ships face up while it lasts.
    NavalBattleJoined { battle: NavalBattle },
    /// A passage of arms at sea: both sides' rolls (BE-36).
    NavalPassage { passage: u32, rolls: Vec<PassageRoll> },
    /// A side's ships retired from a naval battle (BE-36).
    ShipsRetired { side: SideId, ships: Vec<String>, to: Location },
    /// A naval battle ended, with the side left holding the sea.
    NavalBattleEnded { sea: SeaId, winner: Option<SideId> },
    /// The acting force went aboard ships: (leader or decoy, ship) (BE-37, BE-30).
    Embarked { side: SideId, boarded: Vec<(String, String)>, from: Location, ships_at: Location, ap: u32, left: u32 },
    /// The acting force came ashore from its ships at `from` (BE-37).
    Landed { side: SideId, leaders: Vec<String>, from: Location, at: Location, ap: u32, left: u32 },
    /// The events phase of a turn began (BE-47).
    EventsPhaseBegan { turn: u32 },
    /// The event table gave `letter`, or nothing; `why_not` says why it has no effect.
    EventDrawn { letter: Option<char>, why_not: Option<String> },
    /// An event in force for a while (BE-47).
    EventInForce { event: InForce },
    /// A leader was called away by an event: `taking` are the indices of the units in his box
    /// that go with him; the others stay where he stood without a leader.
    LeaderWithdrawn { side: SideId, leader: String, at: Option<Location>, taking: Vec<u32>, back: Back, command: bool, letter: char },
    /// A leader not in play is on his way (Narses replacing Belisarius).
    LeaderSent { side: SideId, leader: String, back: Back, command: bool, letter: char },
    /// A leader away is back, for his side to place (BE-47).
    LeaderReturned { side: SideId, leader: String },
    /// A force and its ships stand elsewhere than the set-up said (event H).
    ExpeditionMoved { side: SideId, from: Location, to: Location },
    /// Every ship of one side passed to the other (event I).
    ShipsChangedSides { from: SideId, to: SideId },
    /// Great storms sent each ship at sea to a port of its side: (side, ship, port) (event O).
    ShipsSheltered { moves: Vec<(SideId, String, Location)> },
    /// The Franks came down into Liguria (BE-48).
    FranksArrived { franks: Franks, at: Location },
    /// The Franks marched by themselves this turn (BE-48).
    FranksMarched { turn: u32 },
    /// The Franks went home (BE-48, BE-52).
    FranksLeft { side: SideId },
}

crate::core::log::started_from!(Event, Setup);

/// A Belisarius event as stored.
pub type Logged = crate::core::engine::Logged<Event>;

/// What lifts a Belisarius event stored in an older shape (see [`Upcaster`]).
///
/// Version 2 names the two phases' opening events in the past tense, like every other
/// event: `events_phase` became `events_phase_began` and `reinforcement_phase`
/// `reinforcement_phase_began`.
///
/// Version 3 starts a campaign with the core's start entry, whose scenario is called
/// `scenario` in every engine: the start's `setup` became `scenario`.
pub const UPCASTERS: &[Upcaster] = &[
    Upcaster { from: 1, kinds: &["events_phase", "reinforcement_phase"], lift: phases_began },
    Upcaster { from: 2, kinds: &["campaign_started"], lift: scenario_named },
];

fn phases_began(event: &mut serde_json::Value) {
    if let Some(serde_json::Value::String(tag)) = event.get_mut("type")
        && (tag == "events_phase" || tag == "reinforcement_phase")
    {
        tag.push_str("_began");
    }
}

fn scenario_named(event: &mut serde_json::Value) {
    if event.get("type").and_then(serde_json::Value::as_str) == Some("campaign_started")
        && let Some(fields) = event.as_object_mut()
        && !fields.contains_key("scenario")
        && let Some(setup) = fields.remove("setup")
    {
        fields.insert("scenario".to_owned(), setup);
    }
}
