//! Random events (BE-47): the events phase that opens a turn in summer and winter (or, in the
//! reconquest of Africa, the first turn only), the 2d6 on the event table, each event's effect
//! and how long it lasts, the leaders called away and their return.
//!
//! Readings of the rules this module makes:
//! - The events phase comes before the supply phase, which waits for it. It is also played in
//!   any turn when a leader called away is due back, to roll for him or bring him back.
//! - A red event that has happened gives no event when rolled again; so does a letter the
//!   scenario does not allow, and an event whose condition fails (B once the Byzantines hold
//!   all Africa, H after the first turn, I with no Vandal ships, G with the Franks in Italy).
//! - A leader called away leaves his units where he stood, without a leader, except in B,
//!   where six combat points of his own box go with him, cavalry first until three, then the
//!   others in order — in whole units, so a little more than six when the units do not add up
//!   to it exactly. A commander-in-chief called away hands over to the first of the
//!   succession still on the map; Narses, when he replaces Belisarius (A, F), takes command.
//! - Leaders who come back are placed by their side like reinforcements: B in Sicily (anywhere
//!   the Byzantines hold if they hold nothing there), A, E and F in any zone they control.
//!   A leader who comes back as commander-in-chief (Belisarius in A and F, the
//!   commander-in-chief in E) takes command again.
//! - A: Belisarius may come back from the fourth turn after he left, on a d6 of 5 or 6 rolled
//!   in each events phase; until then the Byzantines receive no reinforcements. F: 2d6 each
//!   summer and winter after the event, +1 for each period after the first, 11 or more.
//! - D holds back the Byzantine reinforcements of the next spring by a year.
//! - J halves the Byzantine chit, K their total, both rounded up, this turn only. L and M
//!   change supply rolls (the besieged's included) for one turn drawn in summer, two in
//!   winter. N adds 2 to naval attrition this turn. O keeps every ship in port this turn and
//!   sends each ship at sea, with whoever is aboard, to the nearest port its side holds (by
//!   sea zones; the first in the map's order on a tie); a ship with no such port stays out.
//! - C (the Goths and Vandals allied) is refused by the scenario check: no scenario of the
//!   rules allows it and its effects are not in this version.

use crate::core::log::DiceRolled;
use serde::{Deserialize, Serialize};

use super::event::Event;
use super::map::SeaId;
use super::pieces::Unit;
use super::scenario::{Season, SpecialKey};
use super::state::{Location, PieceKind, State};
use super::tables::STORM_NAVAL_ATTRITION_DIE;
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// An event drawn and still in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InForce {
    pub letter: char,
    /// The turn it was drawn.
    pub drawn: u32,
    /// The last turn it lasts.
    pub until: u32,
}

/// How a leader called away comes back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "how")]
pub enum Back {
    /// By himself at the start of turn `turn`, placed by his side in `regions` (anywhere it
    /// controls when empty).
    On { turn: u32, regions: Vec<String> },
    /// From turn `from`, on a d6 of `need` or more in each events phase (event A).
    Roll { from: u32, need: u8 },
    /// 2d6 in each summer and winter events phase after the event, +1 for each period after
    /// the first, 11 or more (event F).
    Recall { since: u32 },
}

/// A leader out of the game for a while (events A, B, E, F), or one due to arrive (Narses).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Away {
    pub side: SideId,
    pub leader: String,
    /// Units that went with him (event B).
    pub units: Vec<Unit>,
    pub back: Back,
    /// He takes command when he comes back.
    pub command: bool,
    /// The event that called him away.
    pub letter: char,
}

/// Whether event `letter` is in force this turn.
pub fn in_force(state: &State, letter: char) -> bool {
    state.in_force.iter().any(|e| e.letter == letter && e.drawn <= state.turn && state.turn <= e.until)
}

/// BE-47 (event N): what storms add to the naval attrition die this turn.
pub fn storm_die(state: &State) -> i32 {
    if in_force(state, 'N') { STORM_NAVAL_ATTRITION_DIE } else { 0 }
}

/// BE-47 (event O): great storms keep every ship in port this turn.
pub fn no_naval_action(state: &State) -> bool {
    in_force(state, 'O')
}

/// BE-47 (events L, M): the harvest's modifier to supply rolls this turn, with its reason.
pub fn harvest(state: &State) -> Option<Modifier> {
    let tables = &state.setup.tables;
    let pick = |letter: char, id: &str, reason: &str| {
        in_force(state, letter)
            .then(|| tables.attrition_modifier(id).map(|m| Modifier { value: i32::from(m.die), reason: reason.to_owned() }))
    };
    pick('L', "bad-harvest", "bad harvest (event L)")
        .flatten()
        .or_else(|| pick('M', "excellent-harvest", "excellent harvest (event M)").flatten())
}

/// BE-47 (events J, K): the Byzantine chit and total, halved as this turn's events say.
pub fn halved_action_points(state: &State, side: &SideId, chit: u8, rating: u8) -> (u8, u32) {
    if side.as_str() != "byzantines" {
        return (chit, u32::from(chit) + u32::from(rating));
    }
    let chit = if in_force(state, 'J') && both_generals(state) { chit.div_ceil(2) } else { chit };
    let total = u32::from(chit) + u32::from(rating);
    (chit, if in_force(state, 'K') { total.div_ceil(2) } else { total })
}

/// Whether Belisarius and Narses are both on the map (event J).
fn both_generals(state: &State) -> bool {
    ["belisarius", "narses"].iter().all(|l| state.marker(&SideId::new("byzantines"), l).is_some())
}

fn season(state: &State) -> Season {
    state.setup.scenario.date_of_turn(state.turn).0
}

/// Whether this turn has an event roll (BE-47): summer and winter, or only the first turn in
/// a scenario that says so.
fn roll_due(state: &State) -> bool {
    if state.setup.scenario.events.is_empty() {
        return false;
    }
    if state.setup.scenario.has(SpecialKey::EventHFirstTurnOnly) {
        return state.turn == 1;
    }
    matches!(season(state), Season::Summer | Season::Winter)
}

/// Whether a leader away is due to come back, or to roll for it, this turn.
fn return_due(state: &State, away: &Away) -> bool {
    match &away.back {
        Back::On { turn, .. } => *turn <= state.turn,
        Back::Roll { from, .. } => *from <= state.turn,
        Back::Recall { since } => *since < state.turn && matches!(season(state), Season::Summer | Season::Winter),
    }
}

/// Whether this turn's events phase is still to be played (BE-47).
pub fn pending(state: &State) -> bool {
    state.phase == super::state::Phase::Play
        && state.events_played != state.turn
        && (roll_due(state) || state.away.iter().any(|a| return_due(state, a)))
}

/// Why event `letter` cannot happen now, if it cannot.
fn cannot(state: &State, letter: char) -> Option<String> {
    let byz = SideId::new("byzantines");
    if !state.setup.scenario.events.contains(&letter) {
        return Some(format!("event {letter} cannot happen in this scenario"));
    }
    let red = state.setup.tables.event(letter).is_some_and(|e| e.red);
    if red && state.happened.iter().any(|(_, l)| *l == letter) {
        return Some(format!("event {letter} has happened once already"));
    }
    match letter {
        'A' | 'F' if state.marker(&byz, "belisarius").is_none() => Some("Belisarius is not on the map".to_owned()),
        'B' => {
            let africa: Vec<_> = state.setup.map.zones.iter().filter(|z| z.region == "africa").collect();
            let reconquered = !africa.is_empty() && africa.iter().all(|z| state.control.get(&z.id) == Some(&byz));
            if reconquered {
                Some("the Byzantines hold all Africa".to_owned())
            } else if state.marker(&byz, "belisarius").is_none() {
                Some("Belisarius is not on the map".to_owned())
            } else {
                None
            }
        }
        'E' if highest_byzantine(state).is_none() => Some("no Byzantine leader is on the map".to_owned()),
        'G' if state.franks.is_some() => Some("the Franks are in Italy already".to_owned()),
        'H' if state.turn != 1 => Some("event H happens on the first turn only".to_owned()),
        'I' if !state.pieces.iter().any(|p| p.side.as_str() == "vandals" && p.kind.is_naval()) => {
            Some("the Vandals have no ships in play".to_owned())
        }
        _ => None,
    }
}

/// The highest-ranked Byzantine leader on the map, the first in the succession on a tie.
fn highest_byzantine(state: &State) -> Option<String> {
    let byz = SideId::new("byzantines");
    let order = state.setup.side(&byz).map(|s| s.succession.clone()).unwrap_or_default();
    state
        .pieces_of(&byz)
        .filter_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } => state.setup.leader(leader).map(|l| (l.rank, leader.clone())),
            _ => None,
        })
        .max_by_key(|(rank, id)| (*rank, std::cmp::Reverse(order.iter().position(|o| o == id).unwrap_or(usize::MAX))))
        .map(|(_, id)| id)
}

/// The units that go with Belisarius in event B: six combat points of his box, cavalry first
/// until three, then the others in order — by index in his box.
fn escort(units: &[Unit]) -> Vec<u32> {
    let mut taken: Vec<usize> = Vec::new();
    let mut cavalry = 0u32;
    let mut total = 0u32;
    for (i, u) in units.iter().enumerate().filter(|(_, u)| u.is_cavalry()) {
        if cavalry >= 3 {
            break;
        }
        taken.push(i);
        cavalry += u32::from(u.value);
        total += u32::from(u.value);
    }
    for (i, u) in units.iter().enumerate() {
        if total >= 6 {
            break;
        }
        if !taken.contains(&i) {
            taken.push(i);
            total += u32::from(u.value);
        }
    }
    taken.sort_unstable();
    taken.into_iter().map(|i| u32::try_from(i).unwrap_or(u32::MAX)).collect()
}

/// The events of a leader called away by event `letter`.
fn withdraw(state: &State, leader: &str, taking: Vec<u32>, back: Back, command: bool, letter: char) -> Event {
    let side = SideId::new("byzantines");
    let at = state.marker(&side, leader).map(|p| super::naval::whereabouts(state, &p.at));
    Event::LeaderWithdrawn { side, leader: leader.to_owned(), at, taking, back, command, letter }
}

/// The nearest port `side` holds from sea zone `from`, by sea zones (O).
fn nearest_port(state: &State, side: &SideId, from: &SeaId) -> Option<Location> {
    let map = &state.setup.map;
    let mut seen = vec![from.clone()];
    let mut frontier = vec![from.clone()];
    while !frontier.is_empty() {
        for zone in &map.zones {
            let held = state.cities.get(&zone.city.id).and_then(|h| h.holder.as_ref()) == Some(side);
            if zone.city.port && held && zone.coast.iter().any(|s| frontier.contains(s)) {
                return Some(Location::City(zone.city.id.clone()));
            }
        }
        let mut next = Vec::new();
        for s in &frontier {
            for n in map.sea(s).map(|x| x.neighbours.clone()).unwrap_or_default() {
                if !seen.contains(&n) {
                    seen.push(n.clone());
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    None
}

/// BE-47: the events phase: the 2d6 on the event table and the event's effect, and the
/// leaders called away rolled for or brought back.
pub fn events_phase(state: &State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    if state.phase != super::state::Phase::Play {
        return Err(RuleError::new(RuleId::BE_47, "the events phase opens a turn, before its supply and operations"));
    }
    if !pending(state) {
        return Err(RuleError::new(RuleId::BE_47, "there is no events phase to play this turn (summer and winter only)"));
    }
    let mut steps = super::battle::Steps::new(state);
    steps.push(Event::EventsPhaseBegan { turn: state.turn });
    if roll_due(state) {
        let tables = &state.setup.tables;
        let roll = dice.roll(DiceSpec { count: 2, sides: 6 }, "random event", Some(RuleId::BE_47), Vec::new())?;
        let total = u8::try_from(roll.total().clamp(2, 12)).unwrap_or(2);
        steps.push(Event::DiceRolled(DiceRolled { roll, side: None, visibility: Visibility::Public }));
        let second = if tables.event_needs_second_die(total) {
            let r = dice.roll(DiceSpec::D6, "random event, which of two", Some(RuleId::BE_47), Vec::new())?;
            let d = u8::try_from(r.total().clamp(1, 6)).unwrap_or(1);
            steps.push(Event::DiceRolled(DiceRolled { roll: r, side: None, visibility: Visibility::Public }));
            Some(d)
        } else {
            None
        };
        let letter = tables.event_for(total, second).map(|e| e.letter);
        match letter.map(|l| (l, cannot(state, l))) {
            Some((l, None)) => {
                steps.push(Event::EventDrawn { letter: Some(l), why_not: None });
                effect(&mut steps, l, dice)?;
            }
            Some((l, Some(why))) => steps.push(Event::EventDrawn { letter: Some(l), why_not: Some(why) }),
            None => steps.push(Event::EventDrawn { letter: None, why_not: Some("no event on the table".to_owned()) }),
        }
    }
    // Leaders away: rolled for, or back.
    for away in state.away.clone().iter().filter(|a| return_due(state, a)) {
        let back = match &away.back {
            Back::On { .. } => true,
            Back::Roll { need, .. } => {
                let roll = dice.roll(
                    DiceSpec::D6,
                    &format!("{}'s return", super::state::piece_name(&state.setup, &away.leader)),
                    Some(RuleId::BE_47),
                    Vec::new(),
                )?;
                let ok = roll.total() >= i32::from(*need);
                steps.push(Event::DiceRolled(DiceRolled { roll, side: None, visibility: Visibility::Public }));
                ok
            }
            Back::Recall { since } => {
                // Each six months after the event, one more.
                let periods = (state.turn.saturating_sub(*since)) / 2;
                let mut modifiers = Vec::new();
                if periods > 1 {
                    modifiers
                        .push(Modifier { value: i32::try_from(periods - 1).unwrap_or(i32::MAX), reason: "six months more".to_owned() });
                }
                let roll = dice.roll(
                    DiceSpec { count: 2, sides: 6 },
                    &format!("{}'s recall", super::state::piece_name(&state.setup, &away.leader)),
                    Some(RuleId::BE_47),
                    modifiers,
                )?;
                let ok = roll.total() >= 11;
                steps.push(Event::DiceRolled(DiceRolled { roll, side: None, visibility: Visibility::Public }));
                ok
            }
        };
        if back {
            steps.push(Event::LeaderReturned { side: away.side.clone(), leader: away.leader.clone() });
        }
    }
    Ok(steps.events)
}

/// The effect of event `letter`, drawn now.
fn effect(steps: &mut super::battle::Steps, letter: char, dice: &mut Dice) -> Result<(), RuleError> {
    let state = steps.state.clone();
    let turn = state.turn;
    let byz = SideId::new("byzantines");
    let lasting = |until: u32| Event::EventInForce { event: InForce { letter, drawn: turn, until } };
    // Narses comes unless he is on the map, on his way, or dead.
    let narses_away = state.marker(&byz, "narses").is_none()
        && !state.away.iter().any(|a| a.leader == "narses")
        && !state.killed.iter().any(|l| l == "narses");
    match letter {
        'A' => {
            steps.push(withdraw(&state, "belisarius", Vec::new(), Back::Roll { from: turn + 4, need: 5 }, true, 'A'));
            if narses_away {
                let back = Back::On { turn: turn + 1, regions: Vec::new() };
                steps.push(Event::LeaderSent { side: byz, leader: "narses".into(), back, command: true, letter });
            }
        }
        'B' => {
            let units = state.marker(&byz, "belisarius").map(|p| p.kind.units().to_vec()).unwrap_or_default();
            let back = Back::On { turn: turn + 2, regions: vec!["sicilia".to_owned()] };
            steps.push(withdraw(&state, "belisarius", escort(&units), back, true, 'B'));
        }
        'D' => steps.push(lasting(turn + 4)),
        'E' => {
            if let Some(leader) = highest_byzantine(&state) {
                let command = state.cinc.get(&byz).cloned().flatten().as_deref() == Some(leader.as_str());
                steps.push(withdraw(&state, &leader, Vec::new(), Back::On { turn: turn + 2, regions: Vec::new() }, command, 'E'));
            }
        }
        'F' => {
            steps.push(withdraw(&state, "belisarius", Vec::new(), Back::Recall { since: turn }, true, 'F'));
            if narses_away {
                // Narses takes his place at once, his side placing him.
                let back = Back::On { turn, regions: Vec::new() };
                steps.push(Event::LeaderSent { side: byz.clone(), leader: "narses".into(), back, command: true, letter });
                steps.push(Event::LeaderReturned { side: byz, leader: "narses".into() });
            }
        }
        'G' => super::franks::arrive(steps, None, dice)?,
        'H' => {
            // Zano's expedition waits at Carthage: his force and its ships move there.
            let vandals = SideId::new("vandals");
            let from = state.marker(&vandals, "tzazon").map(|p| p.at.clone());
            let to = state.setup.map.city(&super::map::CityId::new("carthago")).map(|c| Location::City(c.id.clone()));
            if let (Some(from), Some(to)) = (from, to) {
                steps.push(Event::ExpeditionMoved { side: vandals, from, to });
            }
        }
        'I' => steps.push(Event::ShipsChangedSides { from: SideId::new("vandals"), to: SideId::new("ostrogoths") }),
        'J' | 'K' | 'N' => steps.push(lasting(turn)),
        'L' | 'M' => steps.push(lasting(if season(&state) == Season::Winter { turn + 1 } else { turn })),
        'O' => {
            steps.push(lasting(turn));
            let mut moves = Vec::new();
            for p in &state.pieces {
                if let (Some(id), Location::Sea(sea)) = (p.kind.ship_id(), &p.at)
                    && let Some(port) = nearest_port(&state, &p.side, sea)
                {
                    moves.push((p.side.clone(), id.to_owned(), port));
                }
            }
            steps.push(Event::ShipsSheltered { moves });
        }
        other => {
            return Err(RuleError::new(RuleId::BE_47, format!("event {other} has no effect in this version")));
        }
    }
    Ok(())
}

/// The line a returning leader is placed with, as a reinforcement due (BE-45, BE-47).
fn return_line(away: &Away) -> super::setup::Line {
    let regions = match &away.back {
        Back::On { regions, .. } => regions.clone(),
        _ => Vec::new(),
    };
    let free = if regions.is_empty() {
        "any zone the side controls".to_owned()
    } else {
        format!("a zone the side controls in {}", regions.join(" or "))
    };
    super::setup::Line {
        at: None,
        free: Some(free),
        place_rule: super::setup::FreePlace::OwnLandIn { regions },
        leaders: vec![away.leader.clone()],
        decoys: 0,
        units: away.units.clone(),
        fleets: Vec::new(),
        fleet_decoys: 0,
        port: None,
    }
}

impl State {
    /// Applies the events of the events phase (see [`State::apply`]).
    pub(crate) fn apply_random_events(&mut self, event: &Event) {
        match event {
            Event::EventsPhaseBegan { turn } => self.events_played = *turn,
            Event::EventDrawn { letter: Some(l), why_not: None } => self.happened.push((self.turn, *l)),
            Event::EventDrawn { .. } => {}
            Event::EventInForce { event } => self.in_force.push(event.clone()),
            Event::LeaderWithdrawn { side, leader, taking, back, command, letter, .. } => {
                let mut units = Vec::new();
                if let Some(i) = self
                    .pieces
                    .iter()
                    .position(|p| &p.side == side && matches!(&p.kind, PieceKind::Leader { leader: l, .. } if l == leader))
                {
                    let piece = self.pieces.remove(i);
                    let mut rest = Vec::new();
                    for (n, u) in piece.kind.units().iter().enumerate() {
                        if taking.contains(&u32::try_from(n).unwrap_or(u32::MAX)) {
                            units.push(*u);
                        } else {
                            rest.push(*u);
                        }
                    }
                    // Those who stay stand where he stood: aboard his ship, if he was at sea.
                    if !rest.is_empty() {
                        self.add_loose(side, &piece.at, &rest);
                    }
                }
                // A commander-in-chief called away hands over to the next on the map.
                if self.cinc.get(side).cloned().flatten().as_deref() == Some(leader.as_str()) {
                    let order = self.setup.side(side).map(|s| s.succession.clone()).unwrap_or_default();
                    let next = order.into_iter().find(|l| l != leader && self.marker(side, l).is_some());
                    self.cinc.insert(side.clone(), next);
                }
                self.away.push(Away {
                    side: side.clone(),
                    leader: leader.clone(),
                    units,
                    back: back.clone(),
                    command: *command,
                    letter: *letter,
                });
            }
            Event::LeaderSent { side, leader, back, command, letter } => {
                self.away.push(Away {
                    side: side.clone(),
                    leader: leader.clone(),
                    units: Vec::new(),
                    back: back.clone(),
                    command: *command,
                    letter: *letter,
                });
            }
            Event::LeaderReturned { side, leader } => {
                if let Some(i) = self.away.iter().position(|a| &a.side == side && &a.leader == leader) {
                    let away = self.away.remove(i);
                    if away.command {
                        self.cinc.insert(side.clone(), Some(leader.clone()));
                    }
                    self.reinforcements_due.push(super::reinforce::Due::Line { side: side.clone(), line: return_line(&away) });
                }
            }
            Event::ExpeditionMoved { side, from, to } => {
                for p in self.pieces.iter_mut().filter(|p| &p.side == side && &p.at == from) {
                    p.at = to.clone();
                }
            }
            Event::ShipsChangedSides { from, to } => {
                for p in self.pieces.iter_mut().filter(|p| &p.side == from && p.kind.is_naval()) {
                    p.side = to.clone();
                    if let PieceKind::Fleet { id, .. } | PieceKind::FleetDecoy { id } = &mut p.kind {
                        id.clear();
                    }
                }
                self.name_decoys(to);
            }
            Event::ShipsSheltered { moves } => {
                for (side, id, port) in moves {
                    if let Some(p) = self.pieces.iter_mut().find(|p| &p.side == side && p.kind.ship_id() == Some(id)) {
                        p.at = port.clone();
                    }
                }
            }
            _ => {}
        }
    }
}
