//! The Franks (BE-48, BE-43, BE-52): Theudebert and four 4C units come down into Liguria on
//! event G or the Frankish intervention stratagem; a d6 says whom they fight; hostile, they
//! march by themselves toward the nearest land force, led by the player they do not fight;
//! they leave after four turns at most.
//!
//! Readings of the rules this module makes:
//! - On 1–2 (after the stratagem's −1 for the Goths or +1 for the Byzantines) the Franks are
//!   the Goths' allies, on 6 the Byzantines'; an ally's Franks are its own pieces, activated
//!   and moved as its other leaders (the restrictions of event C on mixed armies are not
//!   applied: no scenario puts Vandals beside them).
//! - On 3–5 they fight the side of the nearest land force from Liguria (the d6 chooses on a
//!   tie, 1–3 the Goths) for as long as they stay; the other side holds their pieces and plays
//!   their part. Each turn, in that side's first segment and before it does anything else, they
//!   march (`franks_march`, no action points, no attrition) up to two zones along the shortest
//!   way to the nearest zone holding a marker of the side they fight; every zone they enter
//!   becomes their leading side's, and the last is scorched. Reaching the enemy, they halt for
//!   interception like any march, and when their turn at the contact comes they always try
//!   (not when their king has tried that force already this turn, nor when their side has no
//!   action point left to pay for the try). Inside a city — their side's, or besieged — they
//!   stay. Nothing else is done with them: they are not activated, and their units are not
//!   shared out. Their march is their side's activation; it may activate a leader of its own
//!   after it in the same segment.
//! - Come by event G in the events phase, they march that very turn; called in by the
//!   stratagem during the operations, from the next.
//! - They leave at the end of the fourth turn counting the one they came in (final-551: the
//!   end of turn 4), whatever they still have; the units are not counted destroyed. They may
//!   come again later.

use crate::core::log::DiceRolled;
use serde::{Deserialize, Serialize};

use super::battle::Steps;
use super::event::Event;
use super::map::ZoneId;
use super::operations::{Activation, side_name};
use super::pieces::{UnitKind, parse_units};
use super::state::{Location, PieceKind, State};
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// The Frankish king.
pub const KING: &str = "theudebert";
/// Where the Franks come down.
pub const LIGURIA: &str = "liguria";
/// How many turns the Franks stay, the one they came in included.
pub const TURNS: u32 = 4;
/// The most zones they march in a turn.
pub const ZONES: usize = 2;
/// The stratagem that brings them (BE-43).
pub const STRATAGEM: &str = "frankish-intervention";

/// The Franks in Italy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Franks {
    /// The side whose pieces they are: their ally, or the side opposite the one they fight.
    pub side: SideId,
    /// The side they fight, when they are nobody's allies.
    pub against: Option<SideId>,
    /// The turn they came, and the last turn they stay.
    pub arrived: u32,
    pub until: u32,
    /// The last turn they marched by themselves.
    #[serde(default)]
    pub marched: u32,
}

/// The Franks as `final-551` starts: allies of the Goths for its first four turns.
pub fn allied_from_the_start() -> Franks {
    Franks { side: SideId::new("ostrogoths"), against: None, arrived: 1, until: TURNS, marched: 0 }
}

/// Zones with a land marker of `side`, in the open or in their city.
fn occupied(state: &State, side: &SideId) -> Vec<ZoneId> {
    let mut out: Vec<ZoneId> = state
        .pieces_of(side)
        .filter(|p| p.kind.has_marker() && !p.kind.is_naval())
        .filter_map(|p| super::operations::zone_of(state, &p.at))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The shortest way by land from `from` to the nearest zone in `targets`, `from` excluded;
/// empty when `from` is one of them or none can be reached. Neighbours are tried in the map's
/// order, so the way is always the same.
fn way(state: &State, from: &ZoneId, targets: &[ZoneId]) -> Option<Vec<ZoneId>> {
    if targets.contains(from) {
        return Some(Vec::new());
    }
    let map = &state.setup.map;
    let mut back: std::collections::BTreeMap<ZoneId, ZoneId> = std::collections::BTreeMap::new();
    let mut frontier = vec![from.clone()];
    let mut seen = vec![from.clone()];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for z in &frontier {
            for n in map.zone(z).map(|x| x.neighbours.clone()).unwrap_or_default() {
                if seen.contains(&n) {
                    continue;
                }
                seen.push(n.clone());
                back.insert(n.clone(), z.clone());
                if targets.contains(&n) {
                    let mut path = vec![n.clone()];
                    let mut at = n;
                    while let Some(prev) = back.get(&at).filter(|p| *p != from) {
                        path.push(prev.clone());
                        at = prev.clone();
                    }
                    path.reverse();
                    return Some(path);
                }
                next.push(n);
            }
        }
        frontier = next;
    }
    None
}

/// BE-48: the Franks come down into Liguria; a d6 (shifted by the stratagem) says whom they
/// fight.
pub(crate) fn arrive(steps: &mut Steps, played_by: Option<&SideId>, dice: &mut Dice) -> Result<(), RuleError> {
    let state = steps.state.clone();
    if state.franks.is_some() {
        return Err(RuleError::new(RuleId::BE_48, "the Franks are in Italy already"));
    }
    let mut modifiers = Vec::new();
    if let Some(side) = played_by {
        let value = if side.as_str() == "byzantines" { 1 } else { -1 };
        modifiers.push(Modifier { value, reason: format!("played by the {}", side_name(&state, side)) });
    }
    let roll = dice.roll(DiceSpec::D6, "whom the Franks fight", Some(RuleId::BE_48), modifiers)?;
    let total = roll.total();
    steps.push(Event::DiceRolled(DiceRolled { roll, side: None, visibility: Visibility::Public }));
    let goths = SideId::new("ostrogoths");
    let byz = SideId::new("byzantines");
    let liguria = ZoneId::new(LIGURIA);
    let (side, against) = if total <= 2 {
        (goths, None)
    } else if total >= 6 {
        (byz, None)
    } else {
        // The nearest land force from Liguria, by the number of zones.
        let distance = |s: &SideId| way(&state, &liguria, &occupied(&state, s)).map(|p| p.len());
        let against = match (distance(&goths), distance(&byz)) {
            (Some(g), Some(b)) if g < b => goths.clone(),
            (Some(g), Some(b)) if b < g => byz.clone(),
            (None, Some(_)) => byz.clone(),
            (Some(_), None) => goths.clone(),
            _ => {
                let roll = dice.roll(DiceSpec::D6, "which of two forces the Franks make for", Some(RuleId::BE_48), Vec::new())?;
                let pick = if roll.total() <= 3 { goths.clone() } else { byz.clone() };
                steps.push(Event::DiceRolled(DiceRolled { roll, side: None, visibility: Visibility::Public }));
                pick
            }
        };
        let side = if against == goths { byz } else { goths };
        (side, Some(against))
    };
    // Called in during the operations (the stratagem), they march from the next turn; come
    // in the events phase, they march in this one.
    let marched = if state.phase == super::state::Phase::Operations { state.turn } else { 0 };
    let franks = Franks { side, against, arrived: state.turn, until: state.turn + TURNS - 1, marched };
    steps.push(Event::FranksArrived { franks, at: Location::Zone(liguria) });
    Ok(())
}

/// BE-43, BE-48: a side plays its Frankish intervention stratagem in its segment.
pub fn intervention(state: &State, side: &SideId, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    in_segment(state, side, RuleId::BE_43)?;
    if !state.hands.get(side).is_some_and(|h| h.iter().any(|s| s == STRATAGEM)) {
        return Err(RuleError::new(RuleId::BE_43, format!("the {} do not hold the Frankish intervention", side_name(state, side))));
    }
    let mut steps = Steps::new(state);
    steps.push(Event::StratagemPlayed { side: side.clone(), stratagem: STRATAGEM.to_owned() });
    arrive(&mut steps, Some(side), dice)?;
    Ok(steps.events)
}

/// The operations under way, in `side`'s segment with nothing pending, or why not.
fn in_segment<'a>(state: &'a State, side: &SideId, rule: RuleId) -> Result<&'a super::operations::Operations, RuleError> {
    let ops = super::operations::ops(state, rule)?;
    super::operations::nothing_pending(state, ops)?;
    if &ops.segment != side {
        return Err(RuleError::new(rule, format!("the {} act in their own segment, and it is not theirs", side_name(state, side))));
    }
    Ok(ops)
}

/// Whether the Franks are hostile and still to march this turn, led by `side`.
pub fn march_due(state: &State, side: &SideId) -> bool {
    state.franks.as_ref().is_some_and(|f| &f.side == side && f.against.is_some() && f.marched != state.turn && king_on_map(state, f))
}

fn king_on_map(state: &State, franks: &Franks) -> bool {
    state.marker(&franks.side, KING).is_some()
}

/// Whether `leader` is the king of Franks who fight on their own: nobody gives him orders.
pub fn on_their_own(state: &State, leader: &str) -> bool {
    leader == KING && state.franks.as_ref().is_some_and(|f| f.against.is_some())
}

/// BE-48: the hostile Franks march by themselves, led by `side`, up to two zones toward the
/// nearest land force of the side they fight, taking the zones and scorching the last.
pub fn march(state: &State, side: &SideId) -> Result<Vec<Event>, RuleError> {
    let ops = in_segment(state, side, RuleId::BE_48)?;
    if !march_due(state, side) {
        return Err(RuleError::new(
            RuleId::BE_48,
            format!("the {} lead no Franks who are still to march this turn", side_name(state, side)),
        ));
    }
    let franks = state.franks.clone().ok_or_else(|| RuleError::new(RuleId::BE_48, "the Franks are not in Italy"))?;
    let against = franks.against.clone().ok_or_else(|| RuleError::new(RuleId::BE_48, "the Franks are allies, led like any force"))?;
    let piece = state.marker(side, KING).ok_or_else(|| RuleError::new(RuleId::BE_48, "the Frankish king is not on the map"))?;
    let from_zone =
        super::operations::zone_of(state, &piece.at).ok_or_else(|| RuleError::new(RuleId::BE_48, "the Franks are not on land"))?;
    let activation = Activation { side: side.clone(), leader: KING.to_owned(), with: Vec::new(), at: piece.at.clone() };
    let mut events = vec![Event::LeaderActivated { activation: activation.clone() }, Event::FranksMarched { turn: state.turn }];
    // Shut in a besieged city, or inside their side's city, they stay there this turn.
    if !matches!(piece.at, Location::Zone(_)) {
        return Ok(events);
    }
    let Some(way) = way(state, &from_zone, &occupied(state, &against)) else {
        // Nobody to march on: they stay.
        return Ok(events);
    };
    let path: Vec<ZoneId> = way.into_iter().take(ZONES).collect();
    let left = ops.left(side);
    let enemy = |z: &ZoneId| super::interception::enemy_in(state, side, z);
    let halt = path.iter().position(&enemy).map_or(path.len(), |i| i + 1);
    let path: Vec<ZoneId> = path.into_iter().take(halt).collect();
    let here = path.last().cloned().unwrap_or_else(|| from_zone.clone());
    if !path.is_empty() {
        events.push(Event::ForceMarched { activation: activation.clone(), from: piece.at.clone(), path: path.clone(), ap: 0, left });
        for z in path.iter().filter(|z| !enemy(z)) {
            if state.control.get(z) != Some(side) {
                events.push(Event::ZoneControlled { zone: z.clone(), side: side.clone() });
            }
        }
        if !state.scorched.contains(&here) {
            events.push(Event::EarthScorched { zone: here.clone(), side: side.clone() });
        }
    }
    // They halt at the enemy to intercept — unless their king has tried this force already.
    let tried = ops.tried.iter().any(|(l, _)| l == KING);
    if enemy(&here) && !tried {
        let mut mover = activation;
        mover.at = Location::Zone(here.clone());
        // They came in from the zone before the last of their way.
        let came_from = path.iter().rev().nth(1).cloned().unwrap_or_else(|| from_zone.clone());
        events.push(Event::ContactMade { contact: super::interception::Contact::new(state, here, mover, Some(Location::Zone(came_from))) });
    }
    Ok(events)
}

/// The Franks leave at the end of their last turn (BE-48, BE-52).
pub(crate) fn leaving(state: &State) -> Option<Event> {
    state.franks.as_ref().filter(|f| f.until <= state.turn).map(|f| Event::FranksLeft { side: f.side.clone() })
}

impl State {
    /// Applies the events of the Franks (see [`State::apply`]).
    pub(crate) fn apply_franks(&mut self, event: &Event) {
        match event {
            Event::FranksArrived { franks, at } => {
                let units = parse_units(UnitKind::Infantry, "4x(4C)").unwrap_or_default();
                self.pieces.push(super::state::Piece {
                    side: franks.side.clone(),
                    at: at.clone(),
                    kind: PieceKind::Leader { leader: KING.to_owned(), units },
                });
                self.franks = Some(franks.clone());
            }
            Event::FranksMarched { turn } => {
                if let Some(f) = &mut self.franks {
                    f.marched = *turn;
                }
            }
            Event::FranksLeft { side } => {
                // The king's box goes home; Frankish units given to other leaders stay with them
                // (only allies' units can be shared out).
                self.pieces.retain(|p| !(&p.side == side && matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == KING)));
                self.franks = None;
            }
            _ => {}
        }
    }
}
