//! The end of a Belisarius campaign (BE-49 … BE-52): every scenario played from its first
//! season to its last, its victory conditions judged when the last turn ends, the result
//! public, and nothing more to order.

use referee_campaign::Store;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::map::{CityId, ZoneId};
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::Phase;
use referee_campaign::core::engine::Engine;
use referee_campaign::core::log::AddNote;
use referee_campaign::fixtures::belisarius::{quiet_turn, refused, set_up};
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

use crate::common::matching;

/// Plays one quiet turn as [`quiet_turn`] does; the events it stored.
fn quiet_turn_events(store: &mut Store, c: &mut Campaign<Belisarius>) -> Vec<Event> {
    let before = store.events_as::<Belisarius>(c.id).unwrap().len();
    quiet_turn(store, c);
    store.events_as::<Belisarius>(c.id).unwrap()[before..].iter().map(|l| l.event.clone()).collect()
}

/// BE-49, BE-50, BE-51, BE-52: each scenario runs its turns — 3, 20, 12 and 7 — from its
/// first season to its last; when the last turn ends the conditions are judged: nobody
/// having done anything, the side the conditions are set for has not met them and the other
/// side wins. The campaign is over: orders are refused, notes are still taken, the events
/// replay to the same end.
#[test]
fn be_49_to_be_52_every_scenario_plays_to_its_last_season_and_is_judged() {
    for (id, turns, last, set_for, other) in [
        ("africa-533", 3, "spring 534", "byzantines", "vandals"),
        ("italy-535", 20, "spring 540", "byzantines", "ostrogoths"),
        ("goths-541", 12, "winter 543", "ostrogoths", "byzantines"),
        ("final-551", 7, "spring 553", "byzantines", "ostrogoths"),
    ] {
        let (mut store, mut c) = set_up(id, 49);
        assert_eq!(c.state.setup.turns(), turns, "{id}");
        let mut end = Vec::new();
        for turn in 1..=turns {
            assert_eq!(c.state.turn, turn, "{id}");
            if turn == turns {
                assert_eq!(c.state.date(), last, "{id}");
            }
            end = quiet_turn_events(&mut store, &mut c);
            if turn < turns {
                assert!(!end.iter().any(|e| matches!(e, Event::CampaignEnded { .. })), "{id}: ended early at turn {turn}");
            }
        }
        let judgement = end
            .iter()
            .find_map(matching!(Event::CampaignEnded { judgement } => judgement.clone()))
            .unwrap_or_else(|| panic!("{id}: no judgement after the last turn"));
        assert!(judgement.standings.iter().all(|s| s.side.as_str() == set_for), "{id}: conditions for one side");
        assert!(judgement.standings.iter().any(|s| !s.met), "{id}: nothing was done, so something is unmet");
        assert_eq!(judgement.winner, Some(SideId::new(other)), "{id}");
        assert_eq!(c.state.phase, Phase::Over);
        assert_eq!((c.state.turn, c.state.date().as_str()), (turns, last), "{id}: the calendar stops at the last turn");
        assert!(<Belisarius as Engine>::ended(&c.state));
        refused(&mut store, &mut c, &Order::CheckSupply {}, "the campaign is over");
        store.execute(&mut c, &(), &Order::AddNote(AddNote { text: "a good game".into() }), DiceInput::Seeded).unwrap();
        let events = store.events_as::<Belisarius>(c.id).unwrap();
        let replayed = Belisarius::replay(events.iter().map(|l| &l.event)).unwrap();
        assert_eq!(replayed, c.state, "{id}: the events replay to the same end");
        // The result is public: each side reads it.
        for side in c.state.setup.sides.clone() {
            let view = referee_campaign::belisarius::view::view_for(
                &c.state,
                &events,
                &referee_campaign::core::viewer::Viewer::Side(side.id.clone()),
            )
            .unwrap();
            assert_eq!(view.board().result.as_ref(), Some(&judgement), "{id}: {} read the result", side.id);
        }
    }
}

/// BE-49: the reconquest of Africa won: Carthage, Hadrumetum and Hippo Regius held, four
/// zones controlled and twelve Vandal combat points destroyed when spring 534 ends.
#[test]
fn be_49_the_byzantines_win_africa_by_its_conditions() {
    let (mut store, mut c) = set_up("africa-533", 49);
    quiet_turn_events(&mut store, &mut c);
    quiet_turn_events(&mut store, &mut c);
    let byz = SideId::new("byzantines");
    for city in ["carthago", "hadrumetum", "hippo-regius"] {
        c.state.cities.get_mut(&CityId::new(city)).unwrap().holder = Some(byz.clone());
    }
    for zone in ["byzacium-north", "byzacium-south", "zeugitana"] {
        c.state.control.insert(ZoneId::new(zone), byz.clone());
    }
    c.state.lost_in_battle.insert(SideId::new("vandals"), 12);
    // Three zones only: not yet.
    let standings = referee_campaign::belisarius::victory::standings(&c.state);
    assert!(standings.iter().any(|s| !s.met && s.condition.contains("zones")), "{standings:?}");
    c.state.control.insert(ZoneId::new("numidia-coast"), byz.clone());
    let end = quiet_turn_events(&mut store, &mut c);
    let judgement = end.iter().find_map(matching!(Event::CampaignEnded { judgement } => judgement.clone())).unwrap();
    assert!(judgement.standings.iter().all(|s| s.met), "{judgement:?}");
    assert_eq!(judgement.winner, Some(byz));
}
