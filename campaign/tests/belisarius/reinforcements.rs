//! Belisarius reinforcements (BE-45): the Goths' spring points and purchases at the printed
//! prices, the Byzantines' schedule in the first reconquest of Italy, nobody's in Africa, and
//! the operations waiting for the phase.

use referee_campaign::Store;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::map::ZoneId;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::reinforce::Due;
use referee_campaign::belisarius::state::{Location, PieceKind};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::fixtures::belisarius::{all_dice, at_turn, byz, goths, refused, run};
use referee_campaign::store::{Campaign, DiceInput};

/// `id` set up and brought to turn `turn`, its supply played with typed 1s (nobody hungry).
fn supplied_at_turn(id: &str, turn: u32) -> (Store, Campaign<Belisarius>) {
    let (mut store, mut c) = at_turn(id, turn, 45);
    let ones = all_dice(&c, &Order::CheckSupply {}, 1);
    run(&mut store, &mut c, &Order::CheckSupply {}, ones);
    (store, c)
}

fn goth_points(c: &Campaign<Belisarius>) -> u32 {
    c.state
        .reinforcements_due
        .iter()
        .find_map(|d| match d {
            Due::Purchase { side, half_points } if side == &goths() => Some(*half_points),
            _ => None,
        })
        .unwrap_or(0)
}

/// BE-45: in spring the Goths roll 2d6, halve it rounding up, add one for every five zones
/// they control, and buy units at 3 for 1A, 2 for 1B, 1 for 1C and a half for [1]D, placed
/// at a zone they control that is not scorched; the operations wait until they are done.
#[test]
fn be_45_the_goths_buy_reinforcements_in_spring() {
    // Turn 4 of the first reconquest of Italy is spring 536.
    let (mut store, mut c) = supplied_at_turn("italy-535", 4);
    assert_eq!(c.state.date(), "spring 536");
    refused(&mut store, &mut c, &Order::BeginOperations {}, "play the reinforcement phase first");
    let zones = u32::try_from(c.state.control.values().filter(|s| **s == goths()).count()).unwrap();
    run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Manual(vec![5, 4]));
    // 9 halved is 5 (rounded up), and a point for every five zones.
    assert_eq!(goth_points(&c), (5 + zones / 5) * 2);
    let home = c.state.control.iter().find(|(_, s)| **s == goths()).map(|(z, _)| z.to_string()).unwrap();
    let theirs = c.state.control.iter().find(|(_, s)| **s == byz()).map(|(z, _)| z.to_string()).unwrap();
    refused(&mut store, &mut c, &Order::BeginOperations {}, "first place their reinforcements");
    refused(
        &mut store,
        &mut c,
        &Order::Raise { side: goths(), at: theirs, units: vec!["1C".into()] },
        "not in a zone the Ostrogoths control",
    );
    refused(&mut store, &mut c, &Order::Raise { side: goths(), at: home.clone(), units: vec!["2A".into()] }, "not on the price list");
    let too_many = vec!["1A".to_owned(); 20];
    refused(&mut store, &mut c, &Order::Raise { side: goths(), at: home.clone(), units: too_many }, "those cost 60 points");
    c.state.scorched.insert(ZoneId::new(home.as_str()));
    refused(&mut store, &mut c, &Order::Raise { side: goths(), at: home.clone(), units: vec!["1C".into()] }, "scorched");
    c.state.scorched.clear();
    let before = goth_points(&c);
    let events = run(
        &mut store,
        &mut c,
        &Order::Raise { side: goths(), at: home.clone(), units: vec!["1A".into(), "1B".into(), "[1]D".into()] },
        DiceInput::Seeded,
    );
    assert!(events.iter().any(|e| matches!(e, Event::UnitsRaised { half_points: 11, .. })), "3 + 2 + ½ points");
    assert_eq!(goth_points(&c), before - 11);
    let raised: Vec<String> = c
        .state
        .pieces
        .iter()
        .filter(|p| p.side == goths() && p.at == Location::Zone(ZoneId::new(home.as_str())))
        .flat_map(|p| p.kind.units().iter().map(ToString::to_string))
        .collect();
    assert!(raised.contains(&"1A".to_owned()) && raised.contains(&"[1]D".to_owned()), "{raised:?}");
    // The Byzantines read none of it.
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let theirs = referee_campaign::belisarius::view::log(&c.state, &events, &Viewer::Side(byz()));
    assert!(!theirs.iter().any(|l| l.text.contains("raise") || l.text.contains("points to buy")), "{theirs:?}");
    // The Goths read the half point as the price list writes it.
    let own = referee_campaign::belisarius::view::log(&c.state, &events, &Viewer::Side(goths()));
    assert!(own.iter().any(|l| l.text.contains("at") && l.text.ends_with("for 5½ points — BE-45")), "{own:?}");
    // the Goths' packet knows the points they have, and that giving up the rest spends
    // them all.
    let plan = |c: &Campaign<Belisarius>, store: &Store, earlier: &[Order], order: &Order| {
        let side = referee_campaign::fixtures::belisarius::side_view(c, store, &goths());
        referee_campaign::belisarius::plan::check(&side, &c.state.setup.map, earlier, order)
    };
    let give_up = Order::Raise { side: goths(), at: String::new(), units: vec![] };
    let more = Order::Raise { side: goths(), at: home.clone(), units: vec!["1C".into()] };
    assert!(plan(&c, &store, &[], &more).is_ok_and(|checked| matches!(checked, referee_campaign::core::plan::Checked::ForReferee(_))));
    let refusal = plan(&c, &store, std::slice::from_ref(&give_up), &more).unwrap_err();
    assert_eq!(refusal.to_string(), "the Ostrogoths have no reinforcement points to spend — BE-45");
    run(&mut store, &mut c, &give_up, DiceInput::Seeded);
    assert_eq!(goth_points(&c), 0, "what is left is given up");
    assert_eq!(plan(&c, &store, &[], &more).unwrap_err().to_string(), "the Ostrogoths have no reinforcement points to spend — BE-45");
    // Spring 536 also brings the Byzantines' Dalmatian army (below), placed where the
    // scenario says; then the operations may begin.
    run(&mut store, &mut c, &Order::BeginOperations {}, DiceInput::Seeded);
}

/// BE-45, BE-50: the Byzantines' schedule in the first reconquest of Italy: 536 in Dalmatia
/// where the scenario puts it, 537 in Italy where they choose among the zones they control
/// (anywhere they control, if they hold nothing in Italy), 538 Narses with a decoy and a
/// fleet, the fleet into a port they hold.
#[test]
fn be_45_the_byzantine_reinforcements_come_by_the_schedule() {
    let (mut store, mut c) = supplied_at_turn("italy-535", 4);
    let before = c.state.pieces_of(&byz()).filter(|p| p.at == Location::Zone(ZoneId::new("dalmatia"))).count();
    let events = run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Seeded);
    assert!(events.iter().any(
        |e| matches!(e, Event::ReinforcementsArrived { side, at, .. } if side == &byz() && at == &Location::Zone(ZoneId::new("dalmatia")))
    ));
    assert!(c.state.pieces_of(&byz()).filter(|p| p.at == Location::Zone(ZoneId::new("dalmatia"))).count() > before);

    // 537: in Italy, at a zone they control.
    let (mut store, mut c) = supplied_at_turn("italy-535", 8);
    assert_eq!(c.state.date(), "spring 537");
    run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Seeded);
    assert!(c.state.reinforcements_due.iter().any(|d| matches!(d, Due::Line { side, .. } if side == &byz())));
    let outside =
        c.state.setup.map.zones.iter().find(|z| z.region != "italy" && c.state.control.get(&z.id) == Some(&byz())).unwrap().id.to_string();
    // Holding nothing in Italy, they come ashore wherever the Byzantines hold a zone.
    let events = referee_campaign::belisarius::reinforce::place(&c.state, &byz(), &outside).expect("placed outside Italy");
    assert!(matches!(&events[..], [Event::ReinforcementsArrived { .. }]));
    // Holding a zone in Italy, they arrive there and nowhere else.
    let italy_zone = c.state.setup.map.zones.iter().find(|z| z.region == "italy").unwrap().id.clone();
    c.state.control.insert(italy_zone.clone(), byz());
    refused(&mut store, &mut c, &Order::PlaceReinforcements { side: byz(), at: outside }, "arrive in italy");
    run(&mut store, &mut c, &Order::PlaceReinforcements { side: byz(), at: italy_zone.to_string() }, DiceInput::Seeded);
    assert!(c.state.pieces_of(&byz()).any(|p| p.at == Location::Zone(italy_zone.clone())));

    // 538: Narses, a decoy and a fleet; the fleet needs a port the Byzantines hold.
    let (mut store, mut c) = supplied_at_turn("italy-535", 12);
    assert_eq!(c.state.date(), "spring 538");
    run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Seeded);
    let map = c.state.setup.map.clone();
    let inland = map.zones.iter().find(|z| !z.city.port && c.state.control.get(&z.id) == Some(&byz())).map(|z| z.id.to_string());
    if let Some(inland) = inland {
        refused(&mut store, &mut c, &Order::PlaceReinforcements { side: byz(), at: inland }, "bring ships");
    }
    let port = map
        .zones
        .iter()
        .find(|z| z.city.port && c.state.control.get(&z.id) == Some(&byz()) && c.state.cities[&z.city.id].holder == Some(byz()))
        .unwrap();
    run(&mut store, &mut c, &Order::PlaceReinforcements { side: byz(), at: port.id.to_string() }, DiceInput::Seeded);
    assert!(c.state.marker(&byz(), "narses").is_some(), "Narses has come");
    assert!(
        c.state.pieces_of(&byz()).any(|p| matches!(p.kind, PieceKind::Fleet { np: 5, .. }) && p.at == Location::City(port.city.id.clone()))
    );
}

/// BE-45, BE-49: the Vandals never receive reinforcements, nor anyone in Africa: spring 534
/// has no reinforcement phase.
#[test]
fn be_45_nobody_is_reinforced_in_africa() {
    let (mut store, mut c) = supplied_at_turn("africa-533", 3);
    assert_eq!(c.state.date(), "spring 534");
    assert!(!referee_campaign::belisarius::reinforce::pending(&c.state));
    refused(&mut store, &mut c, &Order::BringReinforcements {}, "nobody is due reinforcements");
    run(&mut store, &mut c, &Order::BeginOperations {}, DiceInput::Seeded);
}
