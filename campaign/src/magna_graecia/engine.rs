//! Magna Graecia behind the core's [`Engine`] trait.

use super::event::{Event, Logged};
use super::map::Map;
use super::order::Order;
use super::rules;
use super::scenario::Scenario;
use super::state::{CampaignState, STATE_VERSION, StartedAgain};
use super::view::{View, view_for};
use crate::core::dice::Dice;
use crate::core::engine::{BattleRow, Engine, EngineId};
use crate::core::error::RuleError;
use crate::core::history::Reading;
use crate::core::log::CampaignStarted;
use crate::core::verify::Drawn;
use crate::core::view::Numbering;
use crate::core::viewer::{LogLine, Viewer};

/// The Magna Graecia campaign's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MagnaGraecia;

impl Engine for MagnaGraecia {
    const ID: EngineId = EngineId::MagnaGraecia;
    const STATE_VERSION: u32 = STATE_VERSION;
    const EVENT_VERSION: u32 = 1;
    const UMPIRE_NUMBERING: Numbering = Numbering::ByEvent;

    type Setup = Scenario;
    type State = CampaignState;
    type Order = Order;
    type Event = Event;
    type View = View;
    type Context = Map;

    fn started(event: &Event) -> Option<&CampaignStarted<Scenario>> {
        match event {
            Event::CampaignStarted(started) => Some(started),
            _ => None,
        }
    }

    fn started_mut(event: &mut Event) -> Option<&mut CampaignStarted<Scenario>> {
        match event {
            Event::CampaignStarted(started) => Some(started),
            _ => None,
        }
    }

    fn start(event: &Event) -> Option<CampaignState> {
        Self::started(event).map(|s| CampaignState::new(&s.name, &s.scenario, s.seed))
    }

    fn decide(state: &CampaignState, map: &Map, order: &Order, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
        rules::decide(state, map, order, dice)
    }

    fn apply(state: &mut CampaignState, event: &Event) -> Result<(), StartedAgain> {
        state.apply(event)
    }

    fn view_for(state: &CampaignState, map: &Map, events: &[Logged], viewer: &Viewer) -> Option<View> {
        view_for(state, map, events, viewer)
    }

    fn refresh(state: &CampaignState, map: &Map, viewer: &Viewer, previous: &View, log: Vec<LogLine>) -> Result<View, Vec<LogLine>> {
        super::view::refresh(state, map, viewer, previous, log)
    }

    fn describe(state: &CampaignState, map: &Map, event: &Event, viewer: &Viewer) -> Option<String> {
        event.describe(map, &state.scenario, viewer)
    }

    fn name(state: &CampaignState) -> &str {
        &state.name
    }

    fn dice(state: &CampaignState) -> (u64, u64) {
        (state.seed, state.stream_pos)
    }

    /// The sides and the map are every side's to know, and counters go by their names.
    fn summary(state: &CampaignState, map: &Map, order: &Order, _: &Viewer) -> String {
        let battle_at = |id: u32| state.battles.iter().find(|b| b.id == id).map(|b| b.node);
        order.summary(map, &|s| super::turn::side_name(state, s), &battle_at)
    }

    fn order_side(order: &Order) -> Option<&crate::ids::SideId> {
        order.side()
    }

    fn battle_row(event: &Event) -> Option<BattleRow> {
        match event {
            Event::BattleRaised { battle } | Event::CityAttacked { battle, .. } => Some(BattleRow::Raised {
                number: battle.id,
                place: battle.node.0.to_string(),
                turn: battle.turn,
                body: serde_json::to_string(battle).expect("a battle serialises to JSON"),
            }),
            Event::BattleResolved { battle, .. } | Event::BattleDrawn { battle, .. } | Event::SiegeBegun { battle: Some(battle), .. } => {
                Some(BattleRow::Settled { number: *battle })
            }
            _ => None,
        }
    }

    fn draws(event: &Event) -> Vec<(Drawn<'_>, crate::core::viewer::Visibility)> {
        match event {
            Event::DiceRolled(rolled) => vec![rolled.drawn()],
            _ => Vec::new(),
        }
    }

    /// The turn counter moves past the last turn as the campaign ends (MG-32): the last
    /// turn played is the campaign's last.
    fn turn(state: &CampaignState) -> u32 {
        if state.phase == super::turn::Phase::Ended { state.turn.min(state.scenario.turns) } else { state.turn }
    }

    fn in_play(state: &CampaignState) -> bool {
        state.phase != super::turn::Phase::Setup
    }

    fn ended(state: &CampaignState) -> bool {
        state.phase == super::turn::Phase::Ended
    }

    fn readings(view: &View) -> Vec<Reading> {
        view.readings()
    }
}
