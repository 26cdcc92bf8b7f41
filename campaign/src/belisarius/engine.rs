//! Belisarius behind the core's [`Engine`] trait, and the rules of set-up.

use super::event::{Event, Logged};
use super::order::Order;
use super::setup::{Line, Setup};
use super::state::{Location, Phase, STATE_VERSION, State};
use super::view::{View, view_for};
use crate::core::dice::Dice;
use crate::core::engine::{Engine, EngineId, StartedAgain, Upcaster};
use crate::core::error::RuleError;
use crate::core::log::CampaignStarted;
use crate::core::rule::RuleId;
use crate::core::verify::Drawn;
use crate::core::view::Numbering;
use crate::core::viewer::{LogLine, Viewer};

/// The Belisarius campaign's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Belisarius;

impl Engine for Belisarius {
    const ID: EngineId = EngineId::Belisarius;
    const STATE_VERSION: u32 = STATE_VERSION;
    const EVENT_VERSION: u32 = 3;
    const UPCASTERS: &'static [Upcaster] = super::event::UPCASTERS;
    const UMPIRE_NUMBERING: Numbering = Numbering::Own;

    type Setup = Setup;
    type State = State;
    type Order = Order;
    type Event = Event;
    type View = View;
    /// A Belisarius campaign keeps its map, leaders and tables in its start event.
    type Context = ();

    fn started(event: &Event) -> Option<&CampaignStarted<Setup>> {
        match event {
            Event::CampaignStarted(started) => Some(started),
            _ => None,
        }
    }

    fn started_mut(event: &mut Event) -> Option<&mut CampaignStarted<Setup>> {
        match event {
            Event::CampaignStarted(started) => Some(started),
            _ => None,
        }
    }

    fn start(event: &Event) -> Option<State> {
        Self::started(event).map(|s| State::new(&s.name, &s.scenario, s.seed))
    }

    fn decide(state: &State, _: &(), order: &Order, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
        let mut events = decide(state, order, dice)?;
        dice.all_used()?;
        // BE-30: a siege whose besiegers have all gone ends at once, whatever took them away.
        if !state.sieges.is_empty() {
            let mut after = state.clone();
            for e in &events {
                let _ = after.apply(e);
            }
            events.extend(super::siege::lifted(&after));
        }
        Ok(events)
    }

    /// The verdict of [`Engine::decide`] without its last step: lifting a siege left without
    /// besiegers (BE-30) adds events to an order the rules took, and refuses nothing, but
    /// costs a copy of the whole campaign.
    fn allows(state: &State, _: &(), order: &Order, dice: &mut Dice) -> Result<(), RuleError> {
        decide(state, order, dice)?;
        dice.all_used()
    }

    fn apply(state: &mut State, event: &Event) -> Result<(), StartedAgain> {
        state.apply(event)
    }

    fn view_for(state: &State, _: &(), events: &[Logged], viewer: &Viewer) -> Option<View> {
        view_for(state, events, viewer)
    }

    fn refresh(state: &State, _: &(), viewer: &Viewer, _: &View, log: Vec<LogLine>) -> Result<View, Vec<LogLine>> {
        Ok(super::view::refresh(state, viewer, log))
    }

    fn describe(state: &State, _: &(), event: &Event, viewer: &Viewer) -> Option<String> {
        super::view::describe(state, event, viewer)
    }

    fn name(state: &State) -> &str {
        &state.name
    }

    fn dice(state: &State) -> (u64, u64) {
        (state.seed, state.stream_pos)
    }

    /// A side knows its own leaders' names; an id of another's stays as it was typed.
    fn summary(state: &State, _: &(), order: &Order, viewer: &Viewer) -> String {
        let side = |s: &crate::ids::SideId| super::operations::side_name(state, s);
        let known = state.setup.leaders.iter().filter(|l| match viewer {
            Viewer::Umpire => true,
            Viewer::Side(s) => l.side == s.as_str(),
        });
        order.summary(&super::order::Names::new(&state.setup.map, &side, known))
    }

    fn order_side(order: &Order) -> Option<&crate::ids::SideId> {
        order.side()
    }

    /// A chit drawn is its side's to know until the turn's end (BE-53).
    fn draws(event: &Event) -> Vec<(Drawn<'_>, crate::core::viewer::Visibility)> {
        match event {
            Event::DiceRolled(rolled) => vec![rolled.drawn()],
            Event::ChitDrawn(chit) => vec![chit.drawn()],
            _ => Vec::new(),
        }
    }

    fn turn(state: &State) -> u32 {
        state.turn
    }

    fn in_play(state: &State) -> bool {
        state.phase == Phase::Play
    }

    /// The last turn has ended and the victory conditions are judged (BE-49 … BE-52).
    fn ended(state: &State) -> bool {
        state.phase == Phase::Over
    }

    fn readings(view: &View) -> Vec<crate::core::history::Reading> {
        view.readings()
    }
}

/// Decides what `order` does to the campaign.
pub fn decide(state: &State, order: &Order, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let setup = &state.setup;
    // Once the campaign is over, only dice and notes remain (BE-49 … BE-52).
    if state.phase == Phase::Over && !matches!(order, Order::RollDice(_) | Order::AddNote(_) | Order::RenameCampaign(_)) {
        let winner = state.result.as_ref().and_then(|r| r.winner.as_ref()).map_or_else(|| "nobody".to_owned(), |w| setup.side_name(w));
        return Err(RuleError::new(
            setup.scenario.rule,
            format!("the campaign is over: {} ended it, and the {winner} won", setup.date_of_turn(setup.turns())),
        ));
    }
    let known_side =
        |s: &crate::ids::SideId| setup.side(s).map(|_| ()).ok_or_else(|| RuleError::new(RuleId::BE_53, setup.no_such_side(s.as_str())));
    // Every order of a side names a side of the scenario.
    if let Some(side) = order.side() {
        known_side(side)?;
    }
    match order {
        Order::RollDice(roll) => Ok(vec![Event::DiceRolled(roll.decide(dice, known_side)?)]),
        Order::AddNote(note) => Ok(vec![Event::NoteAdded(note.decide(RuleId::X_06)?)]),
        Order::RenameCampaign(rename) => Ok(vec![Event::CampaignRenamed(rename.decide(&state.name)?)]),
        Order::Place { side, line, at, leaders, units, decoys, fleets, fleet_decoys } => {
            let rule = setup.rule_of(side);
            if state.phase != Phase::SetUp {
                return Err(RuleError::new(rule, "set-up is over; pieces move by operations now"));
            }
            let due = state.lines_due.get(side).map(Vec::as_slice).unwrap_or_default();
            let d = usize::try_from(*line).ok().and_then(|n| n.checked_sub(1)).and_then(|n| due.get(n)).ok_or_else(|| {
                RuleError::new(
                    rule,
                    format!(
                        "{} have no set-up line {line} to place; they have {} (see `roster`)",
                        crate::core::words::capitalised(&crate::core::words::the_side(&super::operations::side_name(state, side))),
                        due.len()
                    ),
                )
            })?;
            let whole = leaders.is_none() && units.is_none() && decoys.is_none() && fleets.is_none() && fleet_decoys.is_none();
            let part = if whole {
                d.rest.clone()
            } else {
                let part = Part { leaders, units, decoys, fleets, fleet_decoys };
                part.of(&d.rest, *line).map_err(|e| RuleError::new(rule, e))?
            };
            let at = setup.place(at).map_err(|e| RuleError::new(rule, e.to_string()))?;
            setup.check_free_place(side, &part, &at).map_err(|e| RuleError::new(rule, e.to_string()))?;
            Ok(vec![Event::LinePlaced { side: side.clone(), line: d.index, at, placed: part }])
        }
        Order::BeginPlay {} => {
            if state.phase != Phase::SetUp {
                return Err(RuleError::new(RuleId::BE_53, "play has begun already"));
            }
            for (side, due) in &state.lines_due {
                if !due.is_empty() {
                    let name = setup.side_name(side);
                    return Err(RuleError::new(
                        setup.rule_of(side),
                        format!("{name} have {} still to place (see `roster`)", crate::core::words::count(due.len(), "set-up line")),
                    ));
                }
            }
            for side in &setup.sides {
                for city in &side.must_hold {
                    let held = state.pieces_of(&side.id).any(|p| {
                        !p.kind.units().is_empty()
                            && match &p.at {
                                Location::City(c) => c == city,
                                Location::Zone(z) => setup.map.zone(z).is_some_and(|z| &z.city.id == city),
                                Location::Sea(_) | Location::Aboard(_) => false,
                            }
                    });
                    if !held {
                        return Err(RuleError::new(
                            setup.rule_of(&side.id),
                            format!(
                                "{} must have troops at {} before play begins",
                                side.name,
                                setup.place_name(&Location::City(city.clone()))
                            ),
                        ));
                    }
                }
            }
            Ok(vec![Event::PlayBegan])
        }
        Order::BeginOperations {} => super::operations::begin(state, dice),
        Order::Activate { side, leader, with } => super::operations::activate(state, side, leader, with),
        Order::ActivateAndMove { side, leader, with, path, attrition_from } => {
            let mut events = super::operations::activate(state, side, leader, with)?;
            let mut activated = state.clone();
            for e in &events {
                let _ = activated.apply(e);
            }
            let path: Vec<super::map::ZoneId> = path.iter().map(|z| super::map::ZoneId(z.clone())).collect();
            events.extend(super::operations::march(&activated, side, leader, &path, attrition_from, dice)?);
            Ok(events)
        }
        Order::Pass { side } => {
            if state.ops.as_ref().and_then(|o| o.attrition.as_ref()).is_some_and(|d| &d.side == side) {
                return Err(RuleError::new(RuleId::BE_12, "take the attrition losses before the segment ends"));
            }
            super::operations::pass(state, side)
        }
        Order::Move { side, leader, path, attrition_from } => {
            let path: Vec<super::map::ZoneId> = path.iter().map(|z| super::map::ZoneId(z.clone())).collect();
            super::operations::march(state, side, leader, &path, attrition_from, dice)
        }
        Order::Reorganise { side, from, to, units } => super::operations::reorganise(state, side, from, to, units),
        Order::TakeLosses { side, losses, militia } => {
            if super::supply::due_of(state, side).is_some() {
                return super::supply::take_losses(state, side, losses, *militia);
            }
            if state.ops.as_ref().and_then(|o| o.sortie.as_ref()).is_some_and(|d| d.owed.contains_key(side)) {
                if *militia > 0 {
                    return Err(RuleError::new(RuleId::BE_28, "the militia takes no part in a sortie"));
                }
                return super::siege::take_sortie_losses(state, side, losses);
            }
            if state.ops.as_ref().and_then(|o| o.assault.as_ref()).is_some_and(|a| a.owed.contains_key(side)) {
                return super::siege::take_losses(state, side, losses, *militia);
            }
            if *militia > 0 {
                return Err(RuleError::new(RuleId::BE_25, "the militia takes losses only in an assault on its city"));
            }
            let in_battle = state.ops.as_ref().and_then(|o| o.battle.as_ref()).is_some_and(|b| match &b.step {
                super::battle::Step::Losses { owed, .. } => owed.contains_key(side),
                super::battle::Step::Pursuit { side: s, .. } => s == side,
                _ => false,
            });
            if in_battle {
                super::battle::take_losses(state, side, losses, dice)
            } else {
                super::operations::take_losses(state, side, losses)
            }
        }
        Order::Intercept { side, leaders, target, reconnaissance } => {
            super::interception::intercept(state, side, leaders, *target, *reconnaissance, dice)
        }
        Order::Decline { side } => super::interception::decline(state, side),
        Order::AgreeToBattle { side } => super::interception::agree(state, side),
        Order::Reconnoitre { side, zone, marker } => super::interception::reconnoitre(state, side, zone, *marker),
        Order::Drop { side, leader, units, leaders, city } => super::operations::drop_off(state, side, leader, units, leaders, *city),
        Order::PickUp { side, leader, units, leaders } => super::operations::pick_up(state, side, leader, units, leaders),
        Order::Shift { side, leader, into_city } => super::operations::shift(state, side, leader, *into_city),
        Order::ReturnDecoy { side, at, fleet } => super::interception::return_decoy(state, side, at, *fleet),
        Order::Sail { side, ships, path } => super::naval::sail(state, side, ships, path, dice),
        Order::InterceptAtSea { side, ships } => super::naval::intercept(state, side, ships, dice),
        Order::LetPass { side } => super::naval::let_pass(state, side),
        Order::FightAtSea {} => super::naval::fight_on(state, dice),
        Order::RetireAtSea { side, to } => super::naval::retire(state, side, to),
        Order::Embark { side, leader, ships } => super::naval::embark(state, side, leader, ships),
        Order::Land { side, leader, at } => super::naval::land(state, side, leader, at),
        Order::PlayEvents {} => super::random_events::events_phase(state, dice),
        Order::FranksMarch { side } => super::franks::march(state, side),
        Order::PlayFrankishIntervention { side } => super::franks::intervention(state, side, dice),
        Order::Fight {} => super::battle::fight_on(state, dice),
        Order::BreakOff { side } => super::battle::break_off(state, side, dice),
        Order::Part {} => super::battle::part(state),
        Order::SendToTable {} => super::battle::send_to_table(state),
        Order::RecordBattle { result } => {
            for side in result.losses.keys().chain(result.broke_off.iter()) {
                known_side(side)?;
            }
            super::battle::record(state, result)
        }
        Order::Retreat { side, to } => super::battle::retreat(state, side, to),
        Order::EndTurn {} => super::operations::end_turn(state),
        Order::CheckSupply {} => super::supply::supply_phase(state, dice),
        Order::ScorchEarth { side, leader } => super::siege::scorch(state, side, leader),
        Order::BringReinforcements {} => super::reinforce::reinforcement_phase(state, dice),
        Order::Raise { side, at, units } => super::reinforce::raise(state, side, at, units),
        Order::PlaceReinforcements { side, at } => super::reinforce::place(state, side, at),
        Order::Sally { side, leader, units } => super::siege::sortie(state, side, leader, units),
        Order::AnswerSortie { side, units } => super::siege::answer_sortie(state, side, units, dice),
        Order::Relieve { side } => super::siege::relieve(state, side),
        Order::HoldLines { side, fight } => super::siege::hold_lines(state, side, fight),
        Order::Besiege { side, leader } => super::siege::besiege(state, side, leader),
        Order::Assault { side, leader, ships } => super::siege::assault(state, side, leader, ships, dice),
        Order::BuildWorks { side, leader, works, count } => super::siege::build_works(state, side, leader, *works, *count),
        Order::DestroyFortifications { side, leader } => super::siege::destroy_fortifications(state, side, leader),
        Order::AttemptTreachery { side, leader } => super::siege::treachery(state, side, leader, dice),
    }
}

/// The part of a free set-up line an order names.
struct Part<'a> {
    leaders: &'a Option<Vec<String>>,
    units: &'a Option<Vec<u32>>,
    decoys: &'a Option<u32>,
    fleets: &'a Option<Vec<u32>>,
    fleet_decoys: &'a Option<u32>,
}

impl Part<'_> {
    /// The pieces of `rest` this part names, or why it names pieces the line does not have.
    fn of(&self, rest: &Line, line: u32) -> Result<Line, String> {
        let mut part =
            Line { leaders: Vec::new(), decoys: 0, units: Vec::new(), fleets: Vec::new(), fleet_decoys: 0, port: None, ..rest.clone() };
        let named = self.leaders.as_deref().unwrap_or_default();
        for l in named {
            if !rest.leaders.contains(l) {
                let left = if rest.leaders.is_empty() { "none".to_owned() } else { rest.leaders.join(", ") };
                return Err(format!("`{l}` is not among line {line}'s leaders still to place ({left})"));
            }
            if named.iter().filter(|x| *x == l).count() > 1 {
                return Err(format!("leader `{l}` is named twice"));
            }
        }
        // Kept in the line's order, the senior first, whatever order the player named them in.
        part.leaders = rest.leaders.iter().filter(|l| named.contains(l)).cloned().collect();
        part.units = pick(self.units, &rest.units, "unit", line)?;
        part.fleets = pick(self.fleets, &rest.fleets, "fleet", line)?;
        part.decoys = count(*self.decoys, rest.decoys, "decoy", line)?;
        part.fleet_decoys = count(*self.fleet_decoys, rest.fleet_decoys, "fleet decoy", line)?;
        if part.is_empty() {
            return Err(format!("name something of line {line} to place: leaders, units, decoys or fleets"));
        }
        Ok(part)
    }
}

/// The items numbered `numbers` (from 1) of `items`, each at most once.
fn pick<T: Clone>(numbers: &Option<Vec<u32>>, items: &[T], what: &str, line: u32) -> Result<Vec<T>, String> {
    let numbers = numbers.as_deref().unwrap_or_default();
    let mut out = Vec::new();
    for (i, n) in numbers.iter().enumerate() {
        if numbers[..i].contains(n) {
            return Err(format!("{what} {n} is named twice"));
        }
        let item =
            usize::try_from(*n).ok().and_then(|k| k.checked_sub(1)).and_then(|k| items.get(k)).ok_or_else(|| {
                format!("line {line} has no {what} {n} still to place; it has {} (numbered from 1 in `roster`)", items.len())
            })?;
        out.push(item.clone());
    }
    Ok(out)
}

fn count(asked: Option<u32>, left: u32, what: &str, line: u32) -> Result<u32, String> {
    match asked {
        Some(n) if n > left => Err(format!("line {line} has {left} {what}(s) still to place, not {n}")),
        Some(n) => Ok(n),
        None => Ok(0),
    }
}
