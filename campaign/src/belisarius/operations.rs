//! The operations phase (BE-02, BE-04 … BE-08): each side's action points drawn blind and
//! kept secret, the first player, segments of activations alternating until both sides are
//! out of action points or pass in a row, and the turn's end, when the chits are shown.
//!
//! Readings of the rules this module makes:
//! - A side that draws a stratagem keeps it and draws again at once, before the other side
//!   draws (BE-04); the Byzantines draw first.
//! - A side without a commander-in-chief adds 6 to its chit (BE-04) and, for the same want
//!   of a rating, 6 to its initiative die (BE-05 names only the CinC's rating).
//! - Ties on the initiative are rolled again, both dice, as often as it takes.
//! - A segment is one or more activations of the side's leaders, ended by passing; a
//!   segment in which no leader was activated is a pass, and two such in a row end the phase
//!   (BE-05, BE-06). A side passes by its own order, whatever its points: were a side with
//!   none left passed at once, the other side would learn the moment it ran dry (BE-53).
//! - A leader activated with a superior in his zone is spent with him (BE-07): he may not be
//!   activated on his own later in the phase. Equal ranks may not go together.

use crate::core::log::{ChitDrawn, DiceRolled};
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::event::Event;
use super::state::{Location, Phase, PieceKind, State};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// What a side without a commander-in-chief adds to its chit (BE-04).
pub const NO_CINC_RATING: u8 = 6;

/// A side's action points this turn: secret to the other side until the turn's end (BE-53).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionPoints {
    /// The AP chit drawn, by id, and what it is worth to the side.
    pub chit: String,
    pub chit_value: u8,
    /// Whose rating was added to the chit ("Belisarius", "no commander-in-chief"); the
    /// rating itself is the total less the chit. Empty in points set before it was kept.
    #[serde(default)]
    pub rated_by: String,
    /// Chit plus the commander-in-chief's strategic rating (or 6).
    pub total: u32,
    pub left: u32,
}

/// A leader acting, with the inferior leaders activated with him (BE-07).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub side: SideId,
    pub leader: String,
    pub with: Vec<String>,
    /// Where his marker stands: what the other side sees activated.
    pub at: Location,
}

impl Activation {
    /// The acting leader, then those activated with him: the force that marches.
    pub fn force(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.leader).chain(&self.with)
    }
}

/// Losses a force owes after marching, for its owner to take from the units that moved
/// (BE-12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttritionDue {
    pub side: SideId,
    /// The leader whose force marched; the leaders activated with him marched too.
    pub leader: String,
    pub percent: u8,
    /// Combat points to lose.
    pub points: u32,
    /// Of those, the points lost entering scorched zones out of supply (BE-44).
    #[serde(default)]
    pub scorched: u32,
}

/// The most zones a force moves in a turn (BE-10).
pub const MAX_ZONES: u32 = 6;

/// The operations phase under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operations {
    pub ap: BTreeMap<SideId, ActionPoints>,
    /// The side that won the initiative (BE-05).
    pub first: SideId,
    /// Whose segment it is.
    pub segment: SideId,
    /// Whether a leader has been activated in the segment under way.
    pub acted: bool,
    /// Segments ended in a row without an activation (BE-06).
    pub passes: u8,
    pub active: Option<Activation>,
    /// Leaders activated this phase, alone or with a superior, by id (BE-07).
    pub activated: BTreeSet<String>,
    /// Zones each leader's force has moved this turn (BE-10, BE-12).
    #[serde(default)]
    pub moved: BTreeMap<String, u32>,
    /// Attrition a force owes from its last march (BE-12).
    #[serde(default)]
    pub attrition: Option<AttritionDue>,
    /// A march halted where the enemy stands, interceptions to come (BE-13).
    #[serde(default)]
    pub contact: Option<super::interception::Contact>,
    /// (interceptor, target) pairs tried this turn: once per enemy force (BE-13).
    #[serde(default)]
    pub tried: BTreeSet<(String, String)>,
    /// The battle being fought (BE-17).
    #[serde(default)]
    pub battle: Option<super::battle::Battle>,
    /// Leaders whose march is over this phase: beaten in battle (BE-10).
    #[serde(default)]
    pub halted: BTreeSet<String>,
    /// Places where a force activated this phase left units: they may not go on with
    /// another force this phase (BE-11).
    #[serde(default)]
    pub left_units: BTreeSet<Location>,
    /// The city whose siege the acting leader declared in this activation: his first
    /// assault on it costs nothing more (BE-27).
    #[serde(default)]
    pub declared: Option<super::map::CityId>,
    /// Cities stormed this phase: one assault a siege, at its declaring or by a later
    /// activation (BE-27).
    #[serde(default)]
    pub stormed: BTreeSet<super::map::CityId>,
    /// An assault's losses still to be shared out (BE-27).
    #[serde(default)]
    pub assault: Option<super::siege::AssaultDue>,
    /// A city whose besiegers a relief beat this phase: its garrison may join the victors
    /// (BE-29).
    #[serde(default)]
    pub relieved: Option<super::map::CityId>,
    /// A sortie under way (BE-28).
    #[serde(default)]
    pub sortie: Option<super::siege::SortieDue>,
    /// Sea zones each ship has sailed this turn (BE-33, BE-34).
    #[serde(default)]
    pub sailed: BTreeMap<String, u32>,
    /// Ships whose voyage was halted and let through: they sail on without paying again
    /// (BE-35), sorted by id.
    #[serde(default)]
    pub voyage_on: Option<Vec<String>>,
    /// A voyage halted where the enemy's ships are (BE-35).
    #[serde(default)]
    pub naval_contact: Option<super::naval::NavalContact>,
    /// A naval battle under way (BE-36).
    #[serde(default)]
    pub naval_battle: Option<super::naval::NavalBattle>,
}

impl Operations {
    /// Action points `side` has left.
    pub fn left(&self, side: &SideId) -> u32 {
        self.ap.get(side).map_or(0, |a| a.left)
    }
}

/// A side's name for the log.
pub(crate) fn side_name(state: &State, side: &SideId) -> String {
    state.setup.side_name(side)
}

/// "the Byzantines'": a side's name in the possessive.
fn whose(state: &State, side: &SideId) -> String {
    crate::core::words::possessive(&side_name(state, side))
}

/// The rating a side adds to its chit and its initiative die: its commander-in-chief's
/// strategic rating, or 6 without one (BE-04), with his name for the log.
pub fn cinc_rating(state: &State, side: &SideId) -> (u8, String) {
    let cinc = state.cinc.get(side).cloned().flatten();
    let cinc = cinc.as_deref().and_then(|id| state.setup.leader(id));
    match cinc {
        Some(l) => (l.strategic, l.name.clone()),
        None => (NO_CINC_RATING, "no commander-in-chief".to_owned()),
    }
}

fn is_byzantine(side: &SideId) -> bool {
    side.as_str() == "byzantines"
}

/// BE-04, BE-05: each side draws its AP chit blind (a stratagem is kept and another drawn),
/// its total set secretly, and the first player rolled for.
pub fn begin(state: &State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    match state.phase {
        Phase::Play => {}
        Phase::SetUp => return Err(RuleError::new(RuleId::BE_02, "set-up is not over: begin play first")),
        Phase::Operations => return Err(RuleError::new(RuleId::BE_02, "the operations phase is under way already")),
        Phase::TurnEnd => return Err(RuleError::new(RuleId::BE_02, "this turn's operations are over: end the turn first")),
        Phase::Over => return Err(RuleError::new(RuleId::BE_02, "the campaign is over")),
    }
    // BE-41: the supply phase comes first, and its losses are shared out.
    if state.supplied != state.turn {
        return Err(RuleError::new(RuleId::BE_41, "play the supply phase first (`supply`)"));
    }
    if let Some(due) = state.supply_dues.first() {
        return Err(RuleError::new(
            RuleId::BE_41,
            format!("the {} first share out the {} points lost for want of supply", side_name(state, &due.force.side), due.points),
        ));
    }
    // BE-45: in spring, the reinforcement phase, and whatever it brought placed.
    if super::reinforce::pending(state) {
        return Err(RuleError::new(RuleId::BE_45, "play the reinforcement phase first (`reinforcements`)"));
    }
    if let Some(due) = state.reinforcements_due.first() {
        return Err(RuleError::new(
            RuleId::BE_45,
            format!("the {} first place their reinforcements (`raise` or `place_reinforcements`)", side_name(state, due.side())),
        ));
    }
    let mut events = Vec::new();
    let mut cup = state.cup.clone();
    // The Byzantines draw first (BE-04).
    let mut order: Vec<&SideId> = state.setup.sides.iter().map(|s| &s.id).collect();
    order.sort_by_key(|s| !is_byzantine(s));
    for side in order {
        let purpose = format!("{} action points", whose(state, side));
        loop {
            let draw = dice.draw(&cup, &purpose, Some(RuleId::BE_04))?;
            cup.take(&draw.chit);
            let stratagem = state.setup.tables.is_stratagem(&draw.chit);
            let chit = draw.chit.clone();
            events.push(Event::ChitDrawn(ChitDrawn { side: side.clone(), draw, kept: stratagem }));
            if stratagem {
                continue;
            }
            let value = state.setup.tables.chit_value(&chit, is_byzantine(side)).ok_or_else(|| {
                RuleError::new(RuleId::BE_04, format!("`{chit}` is neither an AP chit nor a stratagem of the scenario's tables"))
            })?;
            let (rating, rated_by) = cinc_rating(state, side);
            // BE-47: events J and K halve the Byzantine points this turn.
            let (value, total) = super::random_events::halved_action_points(state, side, value, rating);
            let ap = ActionPoints { chit, chit_value: value, rated_by, total, left: total };
            events.push(Event::ActionPointsSet { side: side.clone(), ap });
            break;
        }
    }
    let first = initiative(state, dice, &mut events)?;
    events.push(Event::OperationsBegan { first });
    Ok(events)
}

/// BE-05: d6 plus the CinC's strategic rating for each side, again on a tie.
fn initiative(state: &State, dice: &mut Dice, events: &mut Vec<Event>) -> Result<SideId, RuleError> {
    let sides: Vec<&SideId> = state.setup.sides.iter().map(|s| &s.id).collect();
    // A tie as often as twenty times running is no die anyone rolls.
    for _ in 0..20 {
        let mut best: Option<(i32, &SideId)> = None;
        let mut tied = false;
        for side in &sides {
            let (rating, who) = cinc_rating(state, side);
            let modifier = Modifier { value: i32::from(rating), reason: who };
            let purpose = format!("{} initiative", whose(state, side));
            let roll = dice.roll(DiceSpec::D6, &purpose, Some(RuleId::BE_05), vec![modifier])?;
            let total = roll.total();
            events.push(Event::DiceRolled(DiceRolled { roll, side: Some((*side).clone()), visibility: Visibility::Public }));
            match best {
                Some((b, _)) if total == b => tied = true,
                Some((b, _)) if total < b => {}
                _ => {
                    best = Some((total, side));
                    tied = false;
                }
            }
        }
        if let (Some((_, side)), false) = (best, tied) {
            return Ok(side.clone());
        }
    }
    Err(RuleError::new(RuleId::BE_05, "the initiative was tied twenty times running: roll again"))
}

/// The operations under way, or why an order of them cannot be given now.
pub(crate) fn ops(state: &State, rule: RuleId) -> Result<&Operations, RuleError> {
    match (&state.phase, &state.ops) {
        (Phase::Operations, Some(ops)) => Ok(ops),
        _ => Err(RuleError::new(rule, "it is not the operations phase: begin operations first")),
    }
}

/// Refuses any order but the interceptions while a contact or a battle is open.
pub(crate) fn nothing_pending(state: &State, ops: &Operations) -> Result<(), RuleError> {
    super::naval::naval_pending(state, ops)?;
    if let Some(s) = &ops.sortie {
        let at = state.setup.place_name(&Location::City(s.city.clone()));
        return Err(RuleError::new(
            RuleId::BE_28,
            format!("the sortie from {at} is not over: the besieger answers, then both sides take their losses"),
        ));
    }
    if let Some(a) = &ops.assault {
        let owing: Vec<String> = a.owed.keys().map(|s| side_name(state, s)).collect();
        let at = state.setup.place_name(&Location::City(a.city.clone()));
        return Err(RuleError::new(
            RuleId::BE_27,
            format!("the assault on {at} is not settled: the {} first take their losses", owing.join(" and the ")),
        ));
    }
    if let Some(b) = &ops.battle {
        let at = state.setup.place_name(&Location::Zone(b.zone.clone()));
        return Err(RuleError::new(RuleId::BE_17, format!("the battle at {at} is under way: it is fought to its end first")));
    }
    if let Some(c) = &ops.contact {
        let at = state.setup.place_name(&Location::Zone(c.zone.clone()));
        return Err(RuleError::new(
            RuleId::BE_13,
            format!("a force has marched into {at}: the {} first intercept or decline", side_name(state, &c.turn_of)),
        ));
    }
    Ok(())
}

/// Where a side's leader stands, if he is on the map.
fn leader_at<'a>(state: &'a State, side: &SideId, leader: &str) -> Option<&'a Location> {
    state.marker(side, leader).map(|p| &p.at)
}

/// The land zone a place on land belongs to (a city's zone).
pub fn zone_of(state: &State, at: &Location) -> Option<super::map::ZoneId> {
    state.setup.map.zone_of(at)
}

/// The places, from 0 and sorted, of the items an order numbers from 1 among `len`, each
/// named once; `missing(n)` says why a number names nothing.
fn numbered(numbers: &[u32], len: usize, rule: RuleId, missing: impl Fn(u32) -> String) -> Result<Vec<usize>, RuleError> {
    let mut indices = Vec::new();
    for &n in numbers {
        let i =
            usize::try_from(n).ok().and_then(|n| n.checked_sub(1)).filter(|&i| i < len).ok_or_else(|| RuleError::new(rule, missing(n)))?;
        if indices.contains(&i) {
            return Err(RuleError::new(rule, format!("unit {n} is named twice")));
        }
        indices.push(i);
    }
    indices.sort_unstable();
    Ok(indices)
}

/// BE-06, BE-07: `side` activates `leader` (with inferior leaders of his zone) in its
/// segment; the leader acting before him is done.
pub fn activate(state: &State, side: &SideId, leader: &str, with: &[String]) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_06)?;
    nothing_pending(state, ops)?;
    let name = side_name(state, side);
    if &ops.segment != side {
        return Err(RuleError::new(RuleId::BE_06, format!("it is {} segment, not {}", whose(state, &ops.segment), whose(state, side))));
    }
    if ops.attrition.as_ref().is_some_and(|d| &d.side == side) {
        return Err(RuleError::new(RuleId::BE_12, format!("{name} first take the losses of the last march")));
    }
    if ops.left(side) == 0 {
        return Err(RuleError::new(RuleId::BE_06, format!("{name} have no action points left: they pass")));
    }
    franks_first(state, side)?;
    if super::franks::on_their_own(state, leader) {
        return Err(RuleError::new(RuleId::BE_48, "the Franks fight on their own: they march by themselves (`franks_march`)"));
    }
    // BE-42: a decoy is activated and moves like a leader, alone.
    if super::state::is_decoy(leader) {
        let at = leader_at(state, side, leader)
            .cloned()
            .ok_or_else(|| RuleError::new(RuleId::BE_42, format!("{name} have no marker `{leader}` on the map")))?;
        if !with.is_empty() {
            return Err(RuleError::new(RuleId::BE_42, "a decoy moves alone: no leader goes with it"));
        }
        if ops.activated.contains(leader) {
            return Err(RuleError::new(
                RuleId::BE_07,
                format!("{} has been activated this phase already", super::state::piece_name(&state.setup, leader)),
            ));
        }
        return Ok(vec![Event::LeaderActivated {
            activation: Activation { side: side.clone(), leader: leader.to_owned(), with: Vec::new(), at },
        }]);
    }
    let card = |id: &str| state.setup.leader(id).filter(|_| leader_at(state, side, id).is_some());
    let Some(chief) = card(leader) else {
        return Err(RuleError::new(RuleId::BE_07, format!("{name} have no leader `{leader}` on the map")));
    };
    if ops.activated.contains(leader) {
        return Err(RuleError::new(RuleId::BE_07, format!("{} has been activated this phase already", chief.name)));
    }
    let at = leader_at(state, side, leader).cloned();
    let here = at.as_ref().and_then(|at| zone_of(state, at));
    let mut seen = BTreeSet::new();
    for id in with {
        let Some(l) = card(id) else {
            return Err(RuleError::new(RuleId::BE_07, format!("{name} have no leader `{id}` on the map")));
        };
        if !seen.insert(id.as_str()) || id == leader {
            return Err(RuleError::new(RuleId::BE_07, format!("{} is named twice", l.name)));
        }
        if leader_at(state, side, id).and_then(|at| zone_of(state, at)) != here || here.is_none() {
            return Err(RuleError::new(RuleId::BE_07, format!("{} is not in {}'s zone", l.name, chief.name)));
        }
        if l.rank >= chief.rank {
            return Err(RuleError::new(
                RuleId::BE_07,
                format!(
                    "{} (rank {}) may go only with a leader of higher rank than his own; {} is rank {}: each is activated on his own",
                    l.name, l.rank, chief.name, chief.rank
                ),
            ));
        }
        if ops.activated.contains(id) {
            return Err(RuleError::new(RuleId::BE_07, format!("{} has been activated this phase already", l.name)));
        }
    }
    let at = at.ok_or_else(|| RuleError::new(RuleId::BE_07, format!("{} is not on the map", chief.name)))?;
    Ok(vec![Event::LeaderActivated { activation: Activation { side: side.clone(), leader: leader.to_owned(), with: with.to_vec(), at } }])
}

/// BE-08: before the first activation of the operations phase, units pass freely from one
/// leader's box to another's in the same zone (a city counts with its zone). `units` are
/// numbered in `from`'s box, from 1.
pub fn reorganise(state: &State, side: &SideId, from: &str, to: &str, units: &[u32]) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_08)?;
    if !ops.activated.is_empty() {
        return Err(RuleError::new(RuleId::BE_08, "forces are shared out before the first activation of the phase"));
    }
    let name = side_name(state, side);
    if [from, to].iter().any(|l| super::franks::on_their_own(state, l)) {
        return Err(RuleError::new(RuleId::BE_48, "the Franks fight on their own: nobody shares out their units"));
    }
    let box_of = |id: &str| {
        state.pieces_of(side).find_map(|p| match &p.kind {
            PieceKind::Leader { leader, units } if leader == id => Some((p, units)),
            _ => None,
        })
    };
    let leader_name = |id: &str| state.setup.leader(id).map_or_else(|| id.to_owned(), |l| l.name.clone());
    let Some((from_piece, from_units)) = box_of(from) else {
        return Err(RuleError::new(RuleId::BE_08, format!("{name} have no leader `{from}` on the map")));
    };
    let Some((to_piece, _)) = box_of(to) else {
        return Err(RuleError::new(RuleId::BE_08, format!("{name} have no leader `{to}` on the map")));
    };
    if from == to {
        return Err(RuleError::new(RuleId::BE_08, "units pass between two different leaders"));
    }
    if zone_of(state, &from_piece.at) != zone_of(state, &to_piece.at) || zone_of(state, &from_piece.at).is_none() {
        return Err(RuleError::new(
            RuleId::BE_08,
            format!("{} and {} are not in the same zone: units pass only between leaders of one zone", leader_name(from), leader_name(to)),
        ));
    }
    if units.is_empty() {
        return Err(RuleError::new(RuleId::BE_08, "name the units to pass, by their number in the box"));
    }
    let indices = numbered(units, from_units.len(), RuleId::BE_08, |n| {
        format!("{} has no unit {n}; his units are numbered 1 to {}", leader_name(from), from_units.len())
    })?;
    let moved = indices.iter().map(|&i| from_units[i]).collect();
    Ok(vec![Event::UnitsReorganised {
        side: side.clone(),
        from: from.to_owned(),
        to: to.to_owned(),
        indices: indices.iter().map(|&i| u32::try_from(i).unwrap_or(u32::MAX)).collect(),
        units: moved,
    }])
}

/// BE-05, BE-06: `side` ends its segment and the other side takes the next; two segments
/// in a row without an activation end the phase. A side out of action points passes by its
/// own order like any other: nothing the other side reads may tell when its points ran out.
pub fn pass(state: &State, side: &SideId) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_06)?;
    nothing_pending(state, ops)?;
    if &ops.segment != side {
        return Err(RuleError::new(RuleId::BE_06, format!("it is {} segment, not {}", whose(state, &ops.segment), whose(state, side))));
    }
    franks_first(state, side)?;
    let mut events = vec![Event::SegmentEnded { side: side.clone(), acted: ops.acted }];
    let passes = if ops.acted { 0 } else { ops.passes.saturating_add(1) };
    if passes >= 2 {
        events.push(Event::OperationsEnded);
    }
    Ok(events)
}

/// BE-48: the hostile Franks march before the side leading them does anything else.
pub(crate) fn franks_first(state: &State, side: &SideId) -> Result<(), RuleError> {
    if super::franks::march_due(state, side) {
        return Err(RuleError::new(
            RuleId::BE_48,
            format!("the Franks the {} lead march first this turn (`franks_march`)", side_name(state, side)),
        ));
    }
    Ok(())
}

/// The side after `side` in the alternation of segments.
pub fn other_side(state: &State, side: &SideId) -> SideId {
    other_side_of(&state.setup, side)
}

/// The side after `side` among the set-up's sides.
pub(crate) fn other_side_of(setup: &super::setup::Setup, side: &SideId) -> SideId {
    let sides = &setup.sides;
    let i = sides.iter().position(|s| &s.id == side).unwrap_or(0);
    sides[(i + 1) % sides.len().max(1)].id.clone()
}

/// BE-02: the turn ends: every side's AP chit is shown and goes back into the cup, and the
/// season moves on.
pub fn end_turn(state: &State) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::TurnEnd {
        return Err(RuleError::new(RuleId::BE_02, "the turn ends once the operations phase is over"));
    }
    let chits: Vec<(SideId, String, u8)> =
        state.ops.as_ref().map(|o| o.ap.iter().map(|(s, a)| (s.clone(), a.chit.clone(), a.chit_value)).collect()).unwrap_or_default();
    // BE-26: the siege phase comes before the turn's end.
    let mut events = super::siege::siege_phase(state);
    events.push(Event::ChitsRevealed { chits });
    // BE-50: Theodahad is king to the end of turn 3; then Vitiges.
    let theodahad = state.setup.scenario.has(super::scenario::SpecialKey::TheodahadUntilTurn3);
    if theodahad && state.turn == 3 {
        let goths = SideId::new("ostrogoths");
        if state.cinc.get(&goths).cloned().flatten().as_deref() == Some("theodahad") {
            events.push(Event::KingReplaced { side: goths, old: "theodahad".to_owned(), new: "vitiges".to_owned() });
        }
    }
    // BE-48, BE-52: the Franks go home after their last turn.
    events.extend(super::franks::leaving(state));
    events.push(Event::TurnEnded { turn: state.turn });
    // BE-49 … BE-52: after the scenario's last turn, the conditions are judged.
    if state.turn >= state.setup.turns() {
        let mut after = state.clone();
        for e in &events {
            let _ = after.apply(e);
        }
        events.push(Event::CampaignEnded { judgement: super::victory::judge(&after) });
    }
    Ok(events)
}

/// The units of `side`'s force under `chief`, numbered as attrition numbers them: his own
/// box first, then each leader `with` him in the order named; each as (leader, index in his
/// box, unit).
fn force_units(state: &State, side: &SideId, chief: &str, with: &[String]) -> Vec<(String, usize, super::pieces::Unit)> {
    let mut out = Vec::new();
    for who in std::iter::once(chief).chain(with.iter().map(String::as_str)) {
        let box_of = state.pieces_of(side).find_map(|p| match &p.kind {
            PieceKind::Leader { leader, units } if leader == who => Some(units),
            _ => None,
        });
        out.extend(box_of.into_iter().flatten().enumerate().map(|(i, u)| (who.to_owned(), i, *u)));
    }
    out
}

/// BE-12: `points` of attrition shared out over `units` (numbered from 1 as
/// [`force_units`] numbers them): point by point from the units `first` names, in that
/// order, then from the others in the force's order. Each entry (unit number, points).
fn attrition_losses(units: &[(String, usize, super::pieces::Unit)], points: u32, first: &[u32]) -> Vec<(u32, u8)> {
    let named = first.iter().filter_map(|&n| usize::try_from(n).ok()?.checked_sub(1)).filter(|&i| i < units.len());
    let mut order: Vec<usize> = Vec::new();
    for i in named.chain(0..units.len()) {
        if !order.contains(&i) {
            order.push(i);
        }
    }
    let mut owed = points;
    let mut losses = Vec::new();
    for i in order {
        let take = owed.min(u32::from(units[i].2.value));
        if take > 0 {
            losses.push((u32::try_from(i + 1).unwrap_or(u32::MAX), u8::try_from(take).unwrap_or(u8::MAX)));
        }
        owed -= take;
    }
    losses.sort_unstable();
    losses
}

/// BE-10, BE-11, BE-12, BE-46: the acting leader marches his force — and the leaders
/// activated with him — zone by zone along `path`, paying each zone's terrain; the zones he
/// enters with no enemy in them become his side's; attrition is rolled for the march.
pub fn march(
    state: &State,
    side: &SideId,
    leader: &str,
    path: &[super::map::ZoneId],
    attrition_from: &[u32],
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_10)?;
    let name = side_name(state, side);
    let map = &state.setup.map;
    let activation =
        ops.active.as_ref().filter(|a| &a.side == side && a.leader == leader).ok_or_else(|| {
            RuleError::new(RuleId::BE_06, format!("{name} move the leader they have activated: activate `{leader}` first"))
        })?;
    if let Some(due) = &ops.attrition {
        return Err(RuleError::new(
            RuleId::BE_12,
            format!("{} first take the {} points lost to attrition", side_name(state, &due.side), due.points),
        ));
    }
    nothing_pending(state, ops)?;
    if super::franks::on_their_own(state, leader) {
        return Err(RuleError::new(RuleId::BE_48, "the Franks fight on their own: they march by themselves (`franks_march`)"));
    }
    let chief = super::state::piece_name(&state.setup, leader);
    if ops.halted.contains(leader) {
        return Err(RuleError::new(RuleId::BE_10, format!("{chief} lost his battle: his march is over for this phase")));
    }
    if path.is_empty() {
        return Err(RuleError::new(RuleId::BE_10, "name the zones to move through, one after the other"));
    }
    let from =
        leader_at(state, side, leader).cloned().ok_or_else(|| RuleError::new(RuleId::BE_10, format!("{chief} is not on the map")))?;
    if super::siege::is_besieged(state, &from) {
        return Err(RuleError::new(
            RuleId::BE_28,
            format!("{chief} is besieged: the garrison leaves the city only by a sortie (`sortie`) or by sea (`embark`)"),
        ));
    }
    let mut here =
        zone_of(state, &from).ok_or_else(|| RuleError::new(RuleId::BE_10, format!("{chief} is at sea: a force lands by ship (BE-37)")))?;
    let moved = ops.moved.get(leader).copied().unwrap_or(0);
    let steps = u32::try_from(path.len()).unwrap_or(u32::MAX);
    if moved.saturating_add(steps) > MAX_ZONES {
        return Err(RuleError::new(
            RuleId::BE_10,
            format!(
                "{chief} has moved {} this turn: at most {MAX_ZONES} in all, so {} more",
                crate::core::words::count(moved, "zone"),
                MAX_ZONES - moved.min(MAX_ZONES)
            ),
        ));
    }
    let numbered = force_units(state, side, leader, &activation.with);
    if let Some(&n) = attrition_from.iter().find(|&&n| n == 0 || usize::try_from(n).map_or(true, |n| n > numbered.len())) {
        return Err(RuleError::new(
            RuleId::BE_12,
            format!("{chief}'s force has no unit {n} to take attrition first; its units are numbered 1 to {}", numbered.len()),
        ));
    }
    let units: Vec<super::pieces::Unit> = numbered.iter().map(|(_, _, u)| *u).collect();
    let one_zone = state.setup.scenario.has(super::scenario::SpecialKey::ByzantineInfantryOneZone);
    if one_zone && is_byzantine(side) && units.iter().any(|u| !u.is_cavalry()) && moved.saturating_add(steps) > 1 {
        return Err(RuleError::new(
            RuleId::BE_49,
            format!("Byzantine infantry moves one zone a turn in this scenario, and {chief}'s force has infantry"),
        ));
    }
    let enemy_here = |zone: &super::map::ZoneId| super::interception::enemy_in(state, side, zone);
    let mut cost = 0u32;
    let mut contact = None;
    for (i, zone) in path.iter().enumerate() {
        let z = map.zone(zone).ok_or_else(|| RuleError::new(RuleId::BE_10, map.no_zone(zone.as_str())))?;
        if !map.adjacent(&here, zone) {
            let at = map.zone(&here).map_or_else(|| here.to_string(), |z| z.name.clone());
            return Err(RuleError::new(RuleId::BE_10, format!("{} does not border {at}", z.name)));
        }
        if enemy_here(zone) {
            // BE-13: the march halts where the enemy stands.
            if i + 1 < path.len() {
                return Err(RuleError::new(
                    RuleId::BE_13,
                    format!(
                        "an enemy marker stands in {}: the march halts there for interception; name the zones beyond it in a later move",
                        z.name
                    ),
                ));
            }
            contact = Some((zone.clone(), here.clone()));
        }
        let action = match z.terrain {
            super::map::Terrain::Mountain => "move-mountain",
            super::map::Terrain::Plain => "move-plain",
        };
        cost = cost.saturating_add(u32::from(state.setup.tables.cost(action).unwrap_or(1)));
        here = zone.clone();
    }
    let left = ops.left(side);
    if cost > left {
        return Err(RuleError::new(RuleId::BE_10, format!("the march costs {cost} action points and {name} have {left} left")));
    }
    let mut events = vec![Event::ForceMarched { activation: activation.clone(), from, path: path.to_vec(), ap: cost, left: left - cost }];
    // BE-46: a zone entered with nobody of the enemy in it is the mover's; one where enemy
    // units stand, even without a leader, is not.
    let mut gained: Vec<super::map::ZoneId> = Vec::new();
    for zone in
        path.iter().filter(|z| contact.as_ref().is_none_or(|(c, _)| c != *z) && !super::interception::enemy_units_in(state, side, z))
    {
        if state.control.get(zone) != Some(side) && !gained.contains(zone) {
            gained.push(zone.clone());
        }
    }
    events.extend(gained.into_iter().map(|zone| Event::ZoneControlled { zone, side: side.clone() }));
    // BE-12: attrition by zones moved this turn, from the units that moved.
    let zones = moved.saturating_add(steps);
    let roll = dice.roll(
        DiceSpec::D6,
        &format!("attrition of {chief}'s march ({} this turn)", crate::core::words::count(zones, "zone")),
        Some(RuleId::BE_12),
        Vec::new(),
    )?;
    let percent = state.setup.tables.attrition_percent(zones, roll.total());
    let total: u32 = units.iter().map(|u| u32::from(u.value)).sum();
    let points = super::tables::percent_of(total, percent);
    events.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Side(side.clone()) }));
    // BE-44: entering a scorched zone without supply costs a roll on the unsupplied row.
    let mut scorched = 0u32;
    for zone in path.iter().filter(|z| state.scorched.contains(*z)) {
        let place = Location::Zone(zone.clone());
        if super::supply::status(state, side, &place, total).supplied() {
            continue;
        }
        let roll = dice.roll(
            DiceSpec::D6,
            &format!("{chief}'s force entering scorched {} out of supply", state.setup.place_name(&place)),
            Some(RuleId::BE_44),
            Vec::new(),
        )?;
        let lost = super::tables::percent_of(total, state.setup.tables.unsupplied_attrition_percent(roll.total()));
        events.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Side(side.clone()) }));
        scorched = scorched.saturating_add(lost);
    }
    let points = points.saturating_add(scorched).min(total);
    // BE-12, BE-53: the losses are taken with the march, before anyone may answer it, so
    // that nothing the other side reads — an interception, a battle's strength — waits on
    // them or shows the force as it stood before them.
    if points > 0 {
        events.push(Event::AttritionSuffered {
            due: AttritionDue { side: side.clone(), leader: leader.to_owned(), percent, points, scorched },
        });
        let losses = attrition_losses(&numbered, points, attrition_from)
            .into_iter()
            .filter_map(|(n, p)| {
                let (who, i, _) = numbered.get(usize::try_from(n).ok()?.checked_sub(1)?)?;
                Some((who.clone(), u32::try_from(*i).ok()?, p))
            })
            .collect();
        events.push(Event::LossesTaken { side: side.clone(), losses });
    }
    if let Some((zone, came_from)) = contact {
        let mut mover = activation.clone();
        mover.at = Location::Zone(zone.clone());
        let came_from = Some(Location::Zone(came_from));
        events.push(Event::ContactMade { contact: super::interception::Contact::new(state, zone, mover, came_from) });
    }
    Ok(events)
}

/// A share of the attrition `due` that a referee in a hurry would make: point by point from
/// the force's first units (the leader's box first), as `take_losses` numbers them (BE-12).
/// Marches take their attrition at once now; this serves a campaign stored while a march's
/// losses still waited to be shared out.
pub fn attrition_share(state: &State, due: &AttritionDue) -> Vec<(u32, u8)> {
    let with =
        state.ops.as_ref().and_then(|o| o.active.as_ref()).filter(|a| a.leader == due.leader).map(|a| a.with.clone()).unwrap_or_default();
    attrition_losses(&force_units(state, &due.side, &due.leader, &with), due.points, &[])
}

/// BE-12: the owner takes the points its force owes after a march from the units that
/// marched: `losses` names units by their number in the force (the leader's box first, then
/// the leaders with him, each from 1) and the points each loses. Only a campaign stored
/// while marches still waited for their losses owes them this way.
pub fn take_losses(state: &State, side: &SideId, losses: &[(u32, u8)]) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_12)?;
    let due = ops
        .attrition
        .as_ref()
        .filter(|d| &d.side == side)
        .ok_or_else(|| RuleError::new(RuleId::BE_12, format!("{} owe no attrition losses now", side_name(state, side))))?;
    let with = ops.active.as_ref().filter(|a| a.leader == due.leader).map(|a| a.with.as_slice()).unwrap_or_default();
    let units = force_units(state, side, &due.leader, with);
    let mut taken: BTreeMap<u32, u8> = BTreeMap::new();
    for &(n, points) in losses {
        let Some((_, _, unit)) = usize::try_from(n).ok().and_then(|n| n.checked_sub(1)).and_then(|i| units.get(i)) else {
            return Err(RuleError::new(RuleId::BE_12, format!("the force has no unit {n}; its units are numbered 1 to {}", units.len())));
        };
        let sum = taken.entry(n).or_default();
        *sum = sum.saturating_add(points);
        if *sum > unit.value {
            return Err(RuleError::new(
                RuleId::BE_12,
                format!("unit {n} ({unit}) has {}, not {}", crate::core::words::count(unit.value, "point"), *sum),
            ));
        }
    }
    let total: u32 = taken.values().map(|&p| u32::from(p)).sum();
    if total != due.points {
        return Err(RuleError::new(
            RuleId::BE_12,
            format!("the force owes {} to attrition, and {total} were named", crate::core::words::count(due.points, "point")),
        ));
    }
    let losses: Vec<(String, u32, u8)> = taken
        .into_iter()
        .filter_map(|(n, p)| {
            let (who, i, _) = units.get(usize::try_from(n).ok()?.checked_sub(1)?)?;
            Some((who.clone(), u32::try_from(*i).ok()?, p))
        })
        .collect();
    Ok(vec![Event::LossesTaken { side: side.clone(), losses }])
}

/// The acting force of `side` under `leader`, or why it may not act now (BE-06).
pub(crate) fn acting<'a>(
    state: &'a State,
    side: &SideId,
    leader: &str,
    rule: RuleId,
) -> Result<(&'a Operations, &'a Activation), RuleError> {
    let ops = ops(state, rule)?;
    nothing_pending(state, ops)?;
    let name = side_name(state, side);
    let active = ops.active.as_ref().filter(|a| &a.side == side && a.leader == leader).ok_or_else(|| {
        RuleError::new(RuleId::BE_06, format!("{name} act with the leader they have activated: activate `{leader}` first"))
    })?;
    if let Some(due) = ops.attrition.as_ref().filter(|d| &d.side == side) {
        return Err(RuleError::new(RuleId::BE_12, format!("{name} first take the {} points lost to attrition", due.points)));
    }
    if super::franks::on_their_own(state, leader) {
        return Err(RuleError::new(RuleId::BE_48, "the Franks fight on their own: nobody gives them orders"));
    }
    Ok((ops, active))
}

/// Units with no leader of `side` in `zone`, the open zone's first, each group in the order
/// it came into play: the numbering of a pick-up (BE-11).
pub fn loose_units(state: &State, side: &SideId, zone: &super::map::ZoneId) -> Vec<(Location, super::pieces::Unit)> {
    let open = Location::Zone(zone.clone());
    let city = state.setup.map.zone(zone).map(|z| Location::City(z.city.id.clone()));
    let mut out = Vec::new();
    for place in std::iter::once(Some(open)).chain(std::iter::once(city)).flatten() {
        for p in state.pieces_of(side).filter(|p| p.at == place) {
            if let PieceKind::Group { units } = &p.kind {
                out.extend(units.iter().map(|u| (place.clone(), *u)));
            }
        }
    }
    out
}

/// Whether `side` may put troops into `city`: it holds it, or nobody does (BE-11; an
/// enemy city is besieged, BE-24).
fn city_open(state: &State, side: &SideId, city: &super::map::CityId) -> Result<(), RuleError> {
    match state.cities.get(city).and_then(|h| h.holder.as_ref()) {
        Some(h) if h != side => Err(held_by_enemy(&state.setup.place_name(&Location::City(city.clone())), &side_name(state, h))),
        _ => Ok(()),
    }
}

/// A city the enemy holds is not entered but by a siege (BE-24).
fn held_by_enemy(city: &str, holder: &str) -> RuleError {
    RuleError::new(RuleId::BE_24, format!("{city} is held by the {holder}: it is taken by a siege (`besiege`, then `assault` or time)"))
}

/// BE-11, BE-24, BE-28: whether a force standing `at` may step into its zone's city
/// (`into_city`) or out of it, from what a side sees: the city's name, whether it is
/// besieged, and the name of its holder if that is the enemy. The rules ask it of the
/// campaign, and a side's packet of its own view.
pub(crate) fn may_shift(at: &Location, into_city: bool, city: &str, besieged: bool, enemy_holder: Option<&str>) -> Result<(), RuleError> {
    if matches!(at, Location::Sea(_) | Location::Aboard(_)) {
        return Err(RuleError::new(RuleId::BE_11, "the force is at sea"));
    }
    if besieged {
        return Err(RuleError::new(
            RuleId::BE_28,
            format!("{city} is besieged: nobody passes the lines but by a sortie (BE-28) or by beating the besiegers (BE-29)"),
        ));
    }
    match (at, into_city) {
        (Location::City(_), true) => Err(RuleError::new(RuleId::BE_11, "the force is in the city already")),
        (Location::Zone(_), false) => Err(RuleError::new(RuleId::BE_11, "the force is in the open already")),
        (_, true) => enemy_holder.map_or(Ok(()), |holder| Err(held_by_enemy(city, holder))),
        _ => Ok(()),
    }
}

/// BE-11: the acting force leaves units of `leader`'s box and leaders activated with it
/// where it stands, in the open or in the zone's city.
pub fn drop_off(
    state: &State,
    side: &SideId,
    leader: &str,
    units: &[u32],
    leaders: &[String],
    city: bool,
) -> Result<Vec<Event>, RuleError> {
    let (_, active) = acting(state, side, leader, RuleId::BE_11)?;
    if units.is_empty() && leaders.is_empty() {
        return Err(RuleError::new(RuleId::BE_11, "name the units (by their number in the box) or the leaders to leave"));
    }
    let here = zone_of(state, &active.at).ok_or_else(|| RuleError::new(RuleId::BE_11, "the force is at sea"))?;
    let zone = state.setup.map.zone(&here).ok_or_else(|| RuleError::new(RuleId::BE_11, "the force is off the map"))?;
    let at = if city {
        city_open(state, side, &zone.city.id)?;
        Location::City(zone.city.id.clone())
    } else {
        Location::Zone(here.clone())
    };
    let own: Vec<super::pieces::Unit> = state
        .pieces_of(side)
        .find_map(|p| match &p.kind {
            PieceKind::Leader { leader: l, units } if l == leader => Some(units.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let chief = super::state::piece_name(&state.setup, leader);
    let indices =
        numbered(units, own.len(), RuleId::BE_11, |n| format!("{chief} has no unit {n}; his units are numbered 1 to {}", own.len()))?;
    for l in leaders {
        if !active.with.contains(l) {
            let name = state.setup.leader(l).map_or_else(|| l.clone(), |x| x.name.clone());
            return Err(RuleError::new(
                RuleId::BE_11,
                format!("{name} is not activated with {chief}: only leaders with the force are left on the way"),
            ));
        }
    }
    Ok(vec![Event::Dropped {
        side: side.clone(),
        leader: leader.to_owned(),
        indices: indices.iter().map(|&i| u32::try_from(i).unwrap_or(u32::MAX)).collect(),
        units: indices.iter().map(|&i| own[i]).collect(),
        leaders: leaders.to_vec(),
        at,
    }])
}

/// BE-11: the acting force takes along units with no leader where it stands and inferior
/// leaders there not yet activated this phase.
pub fn pick_up(state: &State, side: &SideId, leader: &str, units: &[u32], leaders: &[String]) -> Result<Vec<Event>, RuleError> {
    let (ops, active) = acting(state, side, leader, RuleId::BE_11)?;
    if super::state::is_decoy(leader) {
        return Err(RuleError::new(RuleId::BE_42, "a decoy carries no troops and takes nobody along"));
    }
    if units.is_empty() && leaders.is_empty() {
        return Err(RuleError::new(
            RuleId::BE_11,
            "name the units (by their number among those with no leader here) or the leaders to take along",
        ));
    }
    let here = zone_of(state, &active.at).ok_or_else(|| RuleError::new(RuleId::BE_11, "the force is at sea"))?;
    let place = state.setup.place_name(&Location::Zone(here.clone()));
    let loose = loose_units(state, side, &here);
    let indices = numbered(units, loose.len(), RuleId::BE_11, |n| {
        format!("{place} has {} with no leader, not a unit {n}", crate::core::words::count(loose.len(), "unit"))
    })?;
    // BE-29: a besieged garrison joins a force outside only when a relief has beaten the
    // besiegers; a leader inside gathers the garrison's units freely.
    let shut = |at: &Location| {
        super::siege::is_besieged(state, at) && at != &active.at && ops.relieved.as_ref().is_none_or(|c| at != &Location::City(c.clone()))
    };
    if indices.iter().any(|&i| shut(&loose[i].0)) || leaders.iter().any(|l| leader_at(state, side, l).is_some_and(shut)) {
        return Err(RuleError::new(
            RuleId::BE_29,
            format!("the city at {place} is besieged: its garrison joins a force outside only after a relief has beaten the besiegers"),
        ));
    }
    if let Some(&i) = indices.iter().find(|&&i| ops.left_units.contains(&loose[i].0)) {
        return Err(RuleError::new(
            RuleId::BE_11,
            format!(
                "units were left at {} by a force activated this phase: they may not go on with another",
                state.setup.place_name(&loose[i].0)
            ),
        ));
    }
    let chief = state.setup.leader(leader);
    for l in leaders {
        let card = state.setup.leader(l).filter(|_| leader_at(state, side, l).is_some());
        let Some(card) = card else {
            return Err(RuleError::new(RuleId::BE_11, format!("{} have no leader `{l}` on the map", side_name(state, side))));
        };
        if leader_at(state, side, l).and_then(|at| zone_of(state, at)).as_ref() != Some(&here) {
            return Err(RuleError::new(RuleId::BE_11, format!("{} is not at {place}", card.name)));
        }
        if ops.activated.contains(l) {
            return Err(RuleError::new(
                RuleId::BE_11,
                format!("{} has been activated this phase already: he may not go on with another force", card.name),
            ));
        }
        if chief.is_some_and(|c| card.rank >= c.rank) {
            return Err(RuleError::new(
                RuleId::BE_11,
                format!("{} is not of lower rank: only inferior leaders are taken along (BE-07)", card.name),
            ));
        }
    }
    Ok(vec![Event::PickedUp {
        side: side.clone(),
        leader: leader.to_owned(),
        indices: indices.iter().map(|&i| u32::try_from(i).unwrap_or(u32::MAX)).collect(),
        units: indices.iter().map(|&i| loose[i].1).collect(),
        leaders: leaders.to_vec(),
        at: Location::Zone(here),
    }])
}

/// BE-11: the acting force steps between its zone and the zone's city, for nothing.
pub fn shift(state: &State, side: &SideId, leader: &str, into_city: bool) -> Result<Vec<Event>, RuleError> {
    let (_, active) = acting(state, side, leader, RuleId::BE_11)?;
    let zone = zone_of(state, &active.at).and_then(|z| state.setup.map.zone(&z));
    let (city, besieged, holder) = match zone {
        Some(z) => {
            let city = Location::City(z.city.id.clone());
            let holder = state.cities.get(&z.city.id).and_then(|h| h.holder.as_ref()).filter(|h| *h != side);
            (state.setup.place_name(&city), super::siege::is_besieged(state, &city), holder.map(|h| side_name(state, h)))
        }
        None => (String::new(), false, None),
    };
    may_shift(&active.at, into_city, &city, besieged, holder.as_deref())?;
    let to = match (zone, into_city) {
        (Some(z), true) => Location::City(z.city.id.clone()),
        (Some(z), false) => Location::Zone(z.id.clone()),
        (None, _) => return Err(RuleError::new(RuleId::BE_11, "the force is off the map")),
    };
    Ok(vec![Event::Shifted { activation: active.clone(), to }])
}

impl State {
    /// The acting leader and the leaders marching with him (or their decoys) stand at `to`.
    fn move_force(&mut self, activation: &Activation, to: &Location) {
        let names: Vec<&String> = activation.force().collect();
        for p in self.pieces.iter_mut().filter(|p| p.side == activation.side) {
            let moves = match &p.kind {
                PieceKind::Leader { leader, .. } => names.contains(&leader),
                PieceKind::LeaderDecoy { id } => names.contains(&id),
                _ => false,
            };
            if moves {
                p.at = to.clone();
            }
        }
    }

    /// Applies the events of the operations phase (see [`State::apply`]).
    pub(crate) fn apply_operations(&mut self, event: &Event) {
        match event {
            Event::ChitDrawn(ChitDrawn { side, draw, kept: stratagem }) => {
                self.cup.take(&draw.chit);
                if let crate::core::dice::RollSource::Seeded { stream_pos } = draw.source {
                    self.stream_pos = stream_pos;
                }
                if *stratagem {
                    self.hands.entry(side.clone()).or_default().push(draw.chit.clone());
                }
            }
            Event::ActionPointsSet { side, ap } => {
                self.pending_ap.insert(side.clone(), ap.clone());
            }
            Event::OperationsBegan { first } => {
                self.phase = Phase::Operations;
                self.ops = Some(Operations {
                    ap: std::mem::take(&mut self.pending_ap),
                    first: first.clone(),
                    segment: first.clone(),
                    acted: false,
                    passes: 0,
                    active: None,
                    activated: BTreeSet::new(),
                    moved: BTreeMap::new(),
                    attrition: None,
                    contact: None,
                    tried: BTreeSet::new(),
                    battle: None,
                    halted: BTreeSet::new(),
                    left_units: BTreeSet::new(),
                    declared: None,
                    stormed: BTreeSet::new(),
                    assault: None,
                    relieved: None,
                    sortie: None,
                    sailed: BTreeMap::new(),
                    voyage_on: None,
                    naval_contact: None,
                    naval_battle: None,
                });
            }
            Event::LeaderActivated { activation } => {
                if let Some(ops) = &mut self.ops {
                    ops.activated.insert(activation.leader.clone());
                    ops.activated.extend(activation.with.iter().cloned());
                    ops.acted = true;
                    ops.active = Some(activation.clone());
                    ops.declared = None;
                }
            }
            Event::SegmentEnded { side, acted } => {
                let next = other_side(self, side);
                if let Some(ops) = &mut self.ops {
                    ops.passes = if *acted { 0 } else { ops.passes.saturating_add(1) };
                    ops.active = None;
                    ops.acted = false;
                    ops.segment = next;
                    // A voyage let through goes on in the same segment only (BE-35).
                    ops.voyage_on = None;
                }
            }
            Event::OperationsEnded => {
                self.phase = Phase::TurnEnd;
                if let Some(ops) = &mut self.ops {
                    ops.active = None;
                }
            }
            Event::ChitsRevealed { chits } => {
                // The AP chits go back into the cup for the next turn's draw.
                for (_, chit, _) in chits {
                    self.cup.put(chit.clone());
                }
            }
            Event::ForceMarched { activation, path, ap, .. } => {
                let Some(last) = path.last() else { return };
                self.move_force(activation, &Location::Zone(last.clone()));
                if let Some(ops) = &mut self.ops {
                    let steps = u32::try_from(path.len()).unwrap_or(u32::MAX);
                    for name in activation.force() {
                        let moved = ops.moved.entry(name.clone()).or_default();
                        *moved = moved.saturating_add(steps);
                    }
                    if let Some(a) = ops.ap.get_mut(&activation.side) {
                        a.left = a.left.saturating_sub(*ap);
                    }
                    if let Some(active) = &mut ops.active {
                        active.at = Location::Zone(last.clone());
                    }
                }
            }
            Event::UnitsReorganised { side, from, to, indices, units } => {
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    if let PieceKind::Leader { leader, units: own } = &mut p.kind
                        && leader == from
                    {
                        // From the last, so that each index still names the unit it named.
                        for &i in indices.iter().rev() {
                            if let Some(i) = usize::try_from(i).ok().filter(|&i| i < own.len()) {
                                own.remove(i);
                            }
                        }
                    }
                }
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    if let PieceKind::Leader { leader, units: own } = &mut p.kind
                        && leader == to
                    {
                        own.extend(units.iter().copied());
                    }
                }
            }
            Event::ZoneControlled { zone, side } => {
                self.control.insert(zone.clone(), side.clone());
            }
            Event::Dropped { side, leader, indices, units, leaders, at } => {
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    match &mut p.kind {
                        PieceKind::Leader { leader: l, units: own } if l == leader => {
                            for &i in indices.iter().rev() {
                                if let Some(i) = usize::try_from(i).ok().filter(|&i| i < own.len()) {
                                    own.remove(i);
                                }
                            }
                        }
                        PieceKind::Leader { leader: l, .. } if leaders.contains(l) => p.at = at.clone(),
                        _ => {}
                    }
                }
                if !units.is_empty() {
                    self.add_loose(side, at, units);
                }
                if let Some(ops) = &mut self.ops {
                    if !units.is_empty() {
                        ops.left_units.insert(at.clone());
                    }
                    if let Some(a) = &mut ops.active {
                        a.with.retain(|l| !leaders.contains(l));
                    }
                }
            }
            Event::PickedUp { side, leader, indices, units, leaders, at } => {
                // The loose units in the numbering of the order: open zone first, then city.
                let Location::Zone(zone) = at else { return };
                let city = self.setup.map.zone(zone).map(|z| Location::City(z.city.id.clone()));
                let mut n = 0u32;
                for place in std::iter::once(Some(at.clone())).chain(std::iter::once(city)).flatten() {
                    for p in self.pieces.iter_mut().filter(|p| &p.side == side && p.at == place) {
                        if let PieceKind::Group { units: g } = &mut p.kind {
                            let first = n;
                            n += u32::try_from(g.len()).unwrap_or(u32::MAX);
                            let mut k = 0u32;
                            g.retain(|_| {
                                let keep = !indices.contains(&(first + k));
                                k += 1;
                                keep
                            });
                        }
                    }
                }
                self.pieces.retain(|p| !matches!(&p.kind, PieceKind::Group { units } if units.is_empty()));
                let to = self
                    .pieces
                    .iter()
                    .find(|p| &p.side == side && matches!(&p.kind, PieceKind::Leader { leader: l, .. } if l == leader))
                    .map(|p| p.at.clone());
                for p in self.pieces.iter_mut().filter(|p| &p.side == side) {
                    match &mut p.kind {
                        PieceKind::Leader { leader: l, units: own } if l == leader => own.extend(units.iter().copied()),
                        PieceKind::Leader { leader: l, .. } if leaders.contains(l) => {
                            if let Some(to) = &to {
                                p.at = to.clone();
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(ops) = &mut self.ops {
                    ops.activated.extend(leaders.iter().cloned());
                    if let Some(a) = &mut ops.active {
                        a.with.extend(leaders.iter().cloned());
                    }
                }
            }
            Event::Shifted { activation, to } => {
                self.move_force(activation, to);
                if let Some(a) = self.ops.as_mut().and_then(|o| o.active.as_mut()) {
                    a.at = to.clone();
                }
            }
            Event::AttritionSuffered { due } => {
                if let Some(ops) = &mut self.ops {
                    ops.attrition = Some(due.clone());
                }
            }
            Event::LossesTaken { side, losses } => {
                let boxed: Vec<(Option<String>, u32, u8)> = losses.iter().map(|(l, i, p)| (Some(l.clone()), *i, *p)).collect();
                let at = self.marker(side, losses.first().map_or("", |(l, _, _)| l.as_str())).map(|p| p.at.clone());
                if let Some(at) = at {
                    super::siege::hit_units(self, side, &at, &boxed);
                }
                if let Some(ops) = &mut self.ops {
                    ops.attrition = None;
                    // Attrition taken once a battle is joined is not a loss of the battle.
                    let points: u32 = losses.iter().map(|(_, _, p)| u32::from(*p)).sum();
                    if let Some(f) = ops.battle.as_mut().and_then(|b| b.force_mut(side)) {
                        f.start = f.start.saturating_sub(points);
                    }
                }
            }
            Event::KingReplaced { side, old, new } => {
                self.cinc.insert(side.clone(), Some(new.clone()));
                if let Some(i) =
                    self.pieces.iter().position(|p| &p.side == side && matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == old))
                {
                    let piece = self.pieces.remove(i);
                    let units = piece.kind.units().to_vec();
                    if !units.is_empty() {
                        self.pieces.push(super::state::Piece { side: piece.side, at: piece.at, kind: PieceKind::Group { units } });
                    }
                }
            }
            Event::TurnEnded { .. } => {
                self.turn += 1;
                self.phase = Phase::Play;
                self.ops = None;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belisarius::World;
    use crate::belisarius::pieces::{Unit, UnitKind, parse_units};

    /// The First Reconquest of Italy as it starts: Belisarius (strategic 8) against
    /// Theodahad (strategic 3).
    fn italy() -> State {
        State::new("Italy", &World::embedded().setup("italy-535").unwrap(), 1)
    }

    fn side(id: &str) -> SideId {
        SideId::new(id)
    }

    fn unit(kind: UnitKind, text: &str) -> Unit {
        parse_units(kind, text).unwrap()[0]
    }

    /// Belisarius's box (4B, 3C) and Mundus's (2B) as attrition numbers them: 1, 2, 3.
    fn force() -> Vec<(String, usize, Unit)> {
        vec![
            ("belisarius".to_owned(), 0, unit(UnitKind::HeavyCavalry, "4B")),
            ("belisarius".to_owned(), 1, unit(UnitKind::HeavyCavalry, "3C")),
            ("mundus".to_owned(), 0, unit(UnitKind::HeavyCavalry, "2B")),
        ]
    }

    #[test]
    fn be_12_attrition_comes_first_from_the_units_named_then_in_the_forces_order() {
        // 5 points, unit 3 named first: its 2, then 3 from unit 1.
        assert_eq!(attrition_losses(&force(), 5, &[3]), vec![(1, 3), (3, 2)]);
        // Named in the order 2, 1: unit 2's 3 points, then 1 of unit 1.
        assert_eq!(attrition_losses(&force(), 4, &[2, 1]), vec![(1, 1), (2, 3)]);
        // Numbers naming no unit (0, 9) are passed over.
        assert_eq!(attrition_losses(&force(), 2, &[0, 9]), vec![(1, 2)]);
    }

    #[test]
    fn be_12_attrition_takes_no_more_than_each_unit_has_nor_more_than_is_owed() {
        assert_eq!(attrition_losses(&force(), 20, &[]), vec![(1, 4), (2, 3), (3, 2)]);
        assert_eq!(attrition_losses(&force(), 0, &[1]), Vec::<(u32, u8)>::new());
    }

    /// BE-12, BE-54: the operations example: four zones moved and a 4 on the die lose 10 %.
    #[test]
    fn be_12_four_zones_and_a_4_lose_ten_percent() {
        let state = italy();
        assert_eq!(state.setup.tables.attrition_percent(4, 4), 10);
        assert_eq!(super::super::tables::percent_of(19, 10), 2, "a part of a point is a point lost");
    }

    /// BE-10: the example's costs: a mountain zone 2 AP, a plain zone 1; at most six zones a
    /// turn.
    #[test]
    fn be_10_a_mountain_zone_costs_two_action_points_and_a_plain_one() {
        let tables = &italy().setup.tables;
        assert_eq!((tables.cost("move-mountain"), tables.cost("move-plain")), (Some(2), Some(1)));
        assert_eq!(MAX_ZONES, 6);
    }

    #[test]
    fn be_04_a_side_adds_its_commanders_strategic_rating_or_six_without_one() {
        let mut state = italy();
        assert_eq!(cinc_rating(&state, &side("byzantines")), (8, "Belisarius".to_owned()));
        assert_eq!(cinc_rating(&state, &side("ostrogoths")), (3, "Theodahad".to_owned()));
        state.cinc.insert(side("ostrogoths"), None);
        assert_eq!(cinc_rating(&state, &side("ostrogoths")), (NO_CINC_RATING, "no commander-in-chief".to_owned()));
        assert_eq!(NO_CINC_RATING, 6);
    }

    /// BE-05: d6 plus the commander's strategic rating, rolled again on a tie.
    #[test]
    fn be_05_a_tied_initiative_is_rolled_again() {
        let state = italy();
        let mut events = Vec::new();
        // 1 + 8 against 6 + 3 ties; then 1 + 8 against 6 + 3 again; then 2 + 8 beats 6 + 3.
        let mut dice = Dice::manual([1, 6, 1, 6, 2, 6]);
        assert_eq!(initiative(&state, &mut dice, &mut events).unwrap(), side("byzantines"));
        assert_eq!(events.len(), 6, "three rounds of two dice");
        let mut events = Vec::new();
        let mut dice = Dice::manual([1, 6, 1, 6, 1, 6, 1, 6, 1, 6, 1, 6]);
        let mut state = state;
        state.cinc.insert(side("ostrogoths"), None);
        // Without a commander the Goths add 6: 1 + 8 against 6 + 6.
        assert_eq!(initiative(&state, &mut dice, &mut events).unwrap(), side("ostrogoths"));
        assert_eq!(events.len(), 2);
    }

    #[test]
    fn be_12_units_are_numbered_from_one_each_named_once() {
        let missing = |n: u32| format!("no unit {n}");
        assert_eq!(numbered(&[3, 1], 3, RuleId::BE_12, missing).unwrap(), vec![0, 2]);
        assert_eq!(
            numbered(&[0], 3, RuleId::BE_12, missing).unwrap_err().to_string(),
            RuleError::new(RuleId::BE_12, "no unit 0").to_string()
        );
        assert!(numbered(&[4], 3, RuleId::BE_12, missing).unwrap_err().to_string().contains("no unit 4"));
        assert!(numbered(&[2, 2], 3, RuleId::BE_12, missing).unwrap_err().to_string().contains("unit 2 is named twice"));
    }

    /// BE-11: a city and the zone around it are one place for a march.
    #[test]
    fn be_11_a_city_is_in_its_zone_and_the_sea_in_none() {
        let state = italy();
        let zone = &state.setup.map.zones[0];
        assert_eq!(zone_of(&state, &Location::City(zone.city.id.clone())), Some(zone.id.clone()));
        assert_eq!(zone_of(&state, &Location::Zone(zone.id.clone())), Some(zone.id.clone()));
        let sea = state.setup.map.seas[0].id.clone();
        assert_eq!(zone_of(&state, &Location::Sea(sea)), None);
    }
}
