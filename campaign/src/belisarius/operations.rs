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
//!   (BE-05, BE-06). A side with no action points left passes its segments.
//! - A leader activated with a superior in his zone is spent with him (BE-07): he may not be
//!   activated on his own later in the phase. Equal ranks may not go together.

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
}

impl Operations {
    /// Action points `side` has left.
    pub fn left(&self, side: &SideId) -> u32 {
        self.ap.get(side).map_or(0, |a| a.left)
    }
}

/// A side's name for the log.
fn side_name(state: &State, side: &SideId) -> String {
    state.setup.side(side).map_or_else(|| side.to_string(), |s| s.name.clone())
}

/// "the Byzantines'", "the Franks'": the sides' names are plural.
fn whose(state: &State, side: &SideId) -> String {
    let name = side_name(state, side);
    if name.ends_with('s') { format!("the {name}'") } else { format!("{name}'s") }
}

/// The rating a side adds to its chit and its initiative die: its commander-in-chief's
/// strategic rating, or 6 without one (BE-04), with his name for the log.
pub fn cinc_rating(state: &State, side: &SideId) -> (u8, String) {
    let cinc = state.setup.side(side).and_then(|s| s.cinc.as_deref()).and_then(|id| state.setup.leader(id));
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
            events.push(Event::ChitDrawn { side: side.clone(), draw, stratagem });
            if stratagem {
                continue;
            }
            let value = state.setup.tables.chit_value(&chit, is_byzantine(side)).ok_or_else(|| {
                RuleError::new(RuleId::BE_04, format!("`{chit}` is neither an AP chit nor a stratagem of the scenario's tables"))
            })?;
            let (rating, _) = cinc_rating(state, side);
            let total = u32::from(value) + u32::from(rating);
            events.push(Event::ActionPointsSet { side: side.clone(), ap: ActionPoints { chit, chit_value: value, total, left: total } });
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
            events.push(Event::DiceRolled { roll, side: Some((*side).clone()), visibility: Visibility::Public });
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
fn ops(state: &State, rule: RuleId) -> Result<&Operations, RuleError> {
    match (&state.phase, &state.ops) {
        (Phase::Operations, Some(ops)) => Ok(ops),
        _ => Err(RuleError::new(rule, "it is not the operations phase: begin operations first")),
    }
}

/// Where a side's leader stands, if he is on the map.
fn leader_at<'a>(state: &'a State, side: &SideId, leader: &str) -> Option<&'a Location> {
    state.pieces_of(side).find(|p| matches!(&p.kind, PieceKind::Leader { leader: l, .. } if l == leader)).map(|p| &p.at)
}

/// The land zone a place on land belongs to (a city's zone).
fn zone_of(state: &State, at: &Location) -> Option<super::map::ZoneId> {
    match at {
        Location::Zone(z) => Some(z.clone()),
        Location::City(c) => state.setup.map.zone_of_city(c).map(|z| z.id.clone()),
        Location::Sea(_) => None,
    }
}

/// BE-06, BE-07: `side` activates `leader` (with inferior leaders of his zone) in its
/// segment; the leader acting before him is done.
pub fn activate(state: &State, side: &SideId, leader: &str, with: &[String]) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_06)?;
    let name = side_name(state, side);
    if &ops.segment != side {
        return Err(RuleError::new(RuleId::BE_06, format!("it is {} segment, not {}", whose(state, &ops.segment), whose(state, side))));
    }
    if ops.left(side) == 0 {
        return Err(RuleError::new(RuleId::BE_06, format!("{name} have no action points left: they pass")));
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

/// BE-05, BE-06: `side` ends its segment; the other side takes the next, a side out of action
/// points passing at once; two passes in a row, or both sides out of points, end the phase.
pub fn pass(state: &State, side: &SideId) -> Result<Vec<Event>, RuleError> {
    let ops = ops(state, RuleId::BE_06)?;
    if &ops.segment != side {
        return Err(RuleError::new(RuleId::BE_06, format!("it is {} segment, not {}", whose(state, &ops.segment), whose(state, side))));
    }
    let mut events = vec![Event::SegmentEnded { side: side.clone(), acted: ops.acted }];
    let mut passes = if ops.acted { 0 } else { ops.passes.saturating_add(1) };
    let mut next = other_side(state, side);
    // A side with nothing left to spend passes its segment as it comes.
    loop {
        if passes >= 2 || state.setup.sides.iter().all(|s| ops.left(&s.id) == 0) {
            events.push(Event::OperationsEnded);
            break;
        }
        if ops.left(&next) > 0 {
            break;
        }
        events.push(Event::SegmentEnded { side: next.clone(), acted: false });
        passes = passes.saturating_add(1);
        next = other_side(state, &next);
    }
    Ok(events)
}

/// The side after `side` in the alternation of segments.
pub fn other_side(state: &State, side: &SideId) -> SideId {
    let sides = &state.setup.sides;
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
    Ok(vec![Event::ChitsRevealed { chits }, Event::TurnEnded { turn: state.turn }])
}

impl State {
    /// Applies the events of the operations phase (see [`State::apply`]).
    pub(crate) fn apply_operations(&mut self, event: &Event) {
        match event {
            Event::ChitDrawn { side, draw, stratagem } => {
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
                });
            }
            Event::LeaderActivated { activation } => {
                if let Some(ops) = &mut self.ops {
                    ops.activated.insert(activation.leader.clone());
                    ops.activated.extend(activation.with.iter().cloned());
                    ops.acted = true;
                    ops.active = Some(activation.clone());
                }
            }
            Event::SegmentEnded { side, acted } => {
                let next = other_side(self, side);
                if let Some(ops) = &mut self.ops {
                    ops.passes = if *acted { 0 } else { ops.passes.saturating_add(1) };
                    ops.active = None;
                    ops.acted = false;
                    ops.segment = next;
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
            Event::TurnEnded { .. } => {
                self.turn += 1;
                self.phase = Phase::Play;
                self.ops = None;
            }
            _ => {}
        }
    }
}
