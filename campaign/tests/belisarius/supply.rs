//! Belisarius supply (BE-31, BE-38, BE-41): the three cases of automatic supply, the
//! Ostrogoths' homeland and the Byzantines' line to Praevalitana, the besieged out of supply
//! with their militia, the blockade, the rolls each side reads alone, and the operations
//! waiting for the supply phase.

use referee_campaign::Store;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::map::{SeaId, Terrain, ZoneId};
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, Piece, PieceKind, State};
use referee_campaign::belisarius::supply::{Status, status};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::log::DiceRolled;
use referee_campaign::fixtures::belisarius::{all_dice, byz, created, goths, hold, left, refused, run, stage, typed, units_of};
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

use crate::common::matching;

/// Italy in play before its first supply phase, every marker and garrison cleared, no zone
/// controlled, so that each case is built by hand.
fn italy() -> (Store, Campaign<Belisarius>) {
    let (store, mut c) = created(&World::embedded().setup("italy-535").unwrap(), "Italy", 41);
    stage(&mut c, &[]);
    c.state.pieces.clear();
    c.state.control.clear();
    // Summer 535's events phase, as if played with no event (BE-47).
    c.state.events_played = c.state.turn;
    (store, c)
}

fn at(zone: &str) -> Location {
    Location::Zone(ZoneId::new(zone))
}

fn put(state: &mut State, side: SideId, leader: &str, units: &str, at: Location) {
    state.pieces.push(Piece { side, at, kind: PieceKind::Leader { leader: leader.into(), units: units_of(units) } });
}

fn fleet(state: &mut State, side: SideId, sea: &SeaId) {
    state.pieces.push(Piece { side, at: Location::Sea(sea.clone()), kind: PieceKind::Fleet { np: 4, id: String::new() } });
}

/// A coastal zone on one sea only, and an inland zone beside it, neither mountain nor a
/// Gothic home zone nor next to one.
fn coast_and_inland(state: &State) -> (ZoneId, SeaId, ZoneId) {
    let map = &state.setup.map;
    let home = |z: &ZoneId| {
        referee_campaign::belisarius::supply::GOTHIC_HOME.contains(&z.as_str())
            || map.zone(z).unwrap().neighbours.iter().any(|n| referee_campaign::belisarius::supply::GOTHIC_HOME.contains(&n.as_str()))
    };
    for z in &map.zones {
        if z.coast.len() != 1 || home(&z.id) {
            continue;
        }
        for n in &z.neighbours {
            let inland = map.zone(n).unwrap();
            if inland.coast.is_empty() && inland.terrain == Terrain::Plain && !home(n) {
                return (z.id.clone(), z.coast[0].clone(), n.clone());
            }
        }
    }
    panic!("no coast with an inland plain beside it")
}

/// BE-41: a coastal zone free of enemy units, its sea free of enemy ships, feeds a force; an
/// inland zone beside it does too; an enemy fleet offshore or enemy troops in the zone cut
/// it, and then only a force of four combat points or fewer lives off the land.
#[test]
fn be_41_the_three_cases_of_automatic_supply() {
    let (_, mut c) = italy();
    let (coast, sea, inland) = coast_and_inland(&c.state);
    let s = &mut c.state;
    assert_eq!(status(s, &byz(), &Location::Zone(coast.clone()), 12), Status::Coast);
    assert_eq!(status(s, &byz(), &Location::Zone(inland.clone()), 12), Status::Inland);
    // Gothic fleets offshore, on every sea: the coast no longer feeds, nor the zone behind it.
    fleet(s, goths(), &sea);
    assert_eq!(status(s, &byz(), &Location::Zone(coast.clone()), 12), Status::Unsupplied);
    for other in s.setup.map.seas.iter().map(|x| x.id.clone()).collect::<Vec<_>>() {
        fleet(s, goths(), &other);
    }
    assert_eq!(status(s, &byz(), &Location::Zone(coast.clone()), 12), Status::Unsupplied);
    assert_eq!(status(s, &byz(), &Location::Zone(inland.clone()), 12), Status::Unsupplied);
    assert_eq!(status(s, &byz(), &Location::Zone(inland.clone()), 4), Status::Small, "four points live off the land");
    s.pieces.clear();
    // Gothic troops in the inland zone: it is contested; a Gothic decoy would not be.
    put(s, goths(), "teia", "2B", Location::Zone(inland.clone()));
    assert_eq!(status(s, &byz(), &Location::Zone(inland.clone()), 5), Status::Unsupplied);
    assert_eq!(status(s, &byz(), &Location::Zone(coast.clone()), 5), Status::Coast, "the next zone is not");
    s.pieces.clear();
    s.pieces.push(Piece {
        side: goths(),
        at: Location::Zone(inland.clone()),
        kind: PieceKind::LeaderDecoy { id: "decoy-ostrogoths-1".into() },
    });
    assert_eq!(status(s, &byz(), &Location::Zone(inland), 12), Status::Inland);
}

/// BE-41: the Ostrogoths are fed in their four home zones whatever the enemy does, and in a
/// zone beside one free of enemy units; the Byzantines along a line of zones they control to
/// Praevalitana.
#[test]
fn be_41_the_gothic_homeland_and_the_imperial_line() {
    let (_, mut c) = italy();
    let s = &mut c.state;
    // An enemy fleet on every sea, so that no coast feeds anyone.
    let seas: Vec<SeaId> = s.setup.map.seas.iter().map(|x| x.id.clone()).collect();
    for sea in &seas {
        fleet(s, byz(), sea);
    }
    put(s, byz(), "bessas", "4B", at("liguria"));
    assert_eq!(status(s, &goths(), &at("liguria"), 20), Status::GothicHome, "among the enemy, at home");
    let near = s
        .setup
        .map
        .zone(&ZoneId::new("liguria"))
        .unwrap()
        .neighbours
        .iter()
        .find(|n| !referee_campaign::belisarius::supply::GOTHIC_HOME.contains(&n.as_str()))
        .unwrap()
        .clone();
    assert_eq!(status(s, &goths(), &Location::Zone(near.clone()), 20), Status::GothicHome);
    put(s, byz(), "ildiger", "4B", Location::Zone(near.clone()));
    assert_eq!(status(s, &goths(), &Location::Zone(near), 20), Status::Unsupplied, "beside home, but contested");
    // A scorched home zone feeds no one by right.
    s.scorched.insert(ZoneId::new("liguria"));
    assert_eq!(status(s, &goths(), &at("liguria"), 20), Status::Unsupplied);

    let (_, mut c) = italy();
    let s = &mut c.state;
    for sea in s.setup.map.seas.iter().map(|x| x.id.clone()).collect::<Vec<_>>() {
        fleet(s, goths(), &sea);
    }
    // A line of Byzantine zones from Praevalitana outwards, three long.
    let mut line = vec![ZoneId::new("praevalitana")];
    for _ in 0..2 {
        let last = line.last().unwrap().clone();
        let next = s.setup.map.zone(&last).unwrap().neighbours.iter().find(|n| !line.contains(n)).unwrap().clone();
        line.push(next);
    }
    let end = line.last().unwrap().clone();
    assert_eq!(status(s, &byz(), &Location::Zone(end.clone()), 20), Status::Unsupplied, "no line yet");
    for z in &line {
        s.control.insert(z.clone(), byz());
    }
    assert_eq!(status(s, &byz(), &Location::Zone(end.clone()), 20), Status::ImperialLine);
    s.control.insert(ZoneId::new("praevalitana"), goths());
    assert_eq!(status(s, &byz(), &Location::Zone(end), 20), Status::Unsupplied, "the line is cut");
}

/// BE-31: a besieged city with no unit left inside, its militia alone, goes hungry too.
#[test]
fn be_31_a_besieged_militia_alone_rolls_for_its_supply() {
    let (mut store, mut c) = italy();
    let map = c.state.setup.map.clone();
    let zone =
        map.zones.iter().find(|z| z.city.militia >= 2 && !c.state.pieces.iter().any(|p| p.at == city_of_state(&c.state, &z.id))).unwrap();
    let s = &mut c.state;
    put(s, byz(), "belisarius", "4B 4B", Location::Zone(zone.id.clone()));
    hold(&mut c, &zone.id, &goths());
    c.state.sieges.insert(
        zone.city.id.clone(),
        referee_campaign::belisarius::siege::Siege { zone: zone.id.clone(), besieger: byz(), duration: 1, declared: 0, works: 0 },
    );
    // Every die a 6: the unsupplied row's 50 %.
    let sixes = all_dice(&c, &Order::CheckSupply {}, 6);
    let events = run(&mut store, &mut c, &Order::CheckSupply {}, sixes);
    let garrison = events
        .iter()
        .filter_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) => roll))
        .find(|r| r.purpose.contains("the garrison"))
        .expect("the militia rolls");
    assert_eq!(garrison.rule.as_ref().map(ToString::to_string).as_deref(), Some("BE-31"));
    let militia = u32::from(c.state.cities[&zone.city.id].militia);
    let due = c.state.supply_dues.iter().find(|d| d.force.side == goths() && d.force.at == city_of_state(&c.state, &zone.id));
    let due = due.expect("the militia owes losses");
    assert_eq!((due.percent, due.points), (50, referee_campaign::belisarius::tables::percent_of(militia, 50)));
    assert!(due.points > 0, "{due:?}");
}

/// BE-31, BE-38, BE-41: in the supply phase the unsupplied and the besieged roll on the
/// unsupplied row, +1 in the mountains, +1 for a blockaded port; the besieged garrison's
/// militia shares its losses; the owners share out what they owe before the operations
/// begin, and the other side reads nothing of it but the militia's marker.
#[test]
fn be_31_the_besieged_and_the_unsupplied_go_hungry() {
    let (mut store, mut c) = italy();
    let map = c.state.setup.map.clone();
    // A port for the siege, and a mountain zone full of enemies for a hungry army.
    let port = map.zones.iter().find(|z| z.city.port && z.coast.len() == 1 && z.city.militia >= 2).unwrap();
    let mountain = map.zones.iter().find(|z| z.terrain == Terrain::Mountain && z.id != port.id && !map.adjacent(&z.id, &port.id)).unwrap();
    let s = &mut c.state;
    put(s, byz(), "belisarius", "4B 4B", Location::Zone(port.id.clone()));
    put(s, goths(), "uraias", "2B 2C", city_of_state(s, &port.id));
    put(s, byz(), "bessas", "4B 2B", Location::Zone(mountain.id.clone()));
    put(s, goths(), "teia", "2B", Location::Zone(mountain.id.clone()));
    fleet(s, byz(), &port.coast[0]);
    hold(&mut c, &port.id, &goths());
    c.state.sieges.insert(
        port.city.id.clone(),
        referee_campaign::belisarius::siege::Siege { zone: port.id.clone(), besieger: byz(), duration: 1, declared: 0, works: 0 },
    );
    refused(&mut store, &mut c, &Order::BeginOperations {}, "play the supply phase first");
    // Dice in the order the forces are checked: the Byzantines', then the Goths'.
    let events = run(&mut store, &mut c, &Order::CheckSupply {}, DiceInput::Manual(vec![5, 4]));
    let rolls: Vec<&referee_campaign::core::dice::Roll> =
        events.iter().filter_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) => roll)).collect();
    let bessas = rolls.iter().find(|r| r.purpose.contains("Bessas")).expect("Bessas is out of supply among the enemy");
    assert!(bessas.modifiers.iter().any(|m| m.reason == "mountains" && m.value == 1), "{:?}", bessas.modifiers);
    let garrison = rolls.iter().find(|r| r.purpose.contains("the garrison")).expect("the besieged roll");
    assert_eq!(garrison.rule.as_ref().map(ToString::to_string).as_deref(), Some("BE-31"));
    assert!(garrison.modifiers.iter().any(|m| m.reason == "the port is blockaded" && m.value == 1), "{:?}", garrison.modifiers);
    assert!(!rolls.iter().any(|r| r.purpose.contains("Belisarius")), "the besiegers on their own coast are fed");
    // Teia, 2 points among the enemy, lives off the land.
    assert!(!rolls.iter().any(|r| r.purpose.contains("Teia")));
    // 4 + 1 (blockade) = 5: 25 % of the garrison's 4 points and the militia's.
    let militia = c.state.cities[&port.city.id].militia;
    let due = c.state.supply_dues.iter().find(|d| d.force.side == goths()).unwrap().clone();
    assert_eq!(due.points, referee_campaign::belisarius::tables::percent_of(4 + u32::from(militia), due.percent));
    refused(&mut store, &mut c, &Order::BeginOperations {}, "first share out");
    // The Byzantine view reads none of it.
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let theirs = referee_campaign::belisarius::view::log(&c.state, &events, &referee_campaign::core::viewer::Viewer::Side(byz()));
    assert!(!theirs.iter().any(|l| l.text.contains("garrison") || l.text.contains("Uraias")), "{theirs:?}");
    // The Goths put part of it on the militia.
    let (mut losses, _) = referee_campaign::belisarius::supply::suggested_share(&c.state, &goths()).unwrap();
    let from_militia = u8::try_from(due.points.min(1)).unwrap();
    if from_militia > 0 {
        losses = vec![];
        let mut left = due.points - 1;
        for (i, u) in referee_campaign::belisarius::supply::units_of(&c.state, &due.force).iter().enumerate() {
            let take = u8::try_from(left.min(u32::from(u.unit.value))).unwrap();
            if take > 0 {
                losses.push((u32::try_from(i + 1).unwrap(), take));
            }
            left -= u32::from(take);
        }
    }
    run(&mut store, &mut c, &Order::TakeLosses { side: goths(), losses, militia: from_militia }, DiceInput::Seeded);
    assert_eq!(c.state.cities[&port.city.id].militia, militia - from_militia);
    while let Some(due) = c.state.supply_dues.first() {
        let side = due.force.side.clone();
        let (losses, militia) = referee_campaign::belisarius::supply::suggested_share(&c.state, &side).unwrap();
        run(&mut store, &mut c, &Order::TakeLosses { side, losses, militia }, DiceInput::Seeded);
    }
    refused(&mut store, &mut c, &Order::CheckSupply {}, "checked already");
    run(&mut store, &mut c, &Order::BeginOperations {}, DiceInput::Seeded);
}

fn city_of_state(state: &State, zone: &ZoneId) -> Location {
    Location::City(state.setup.map.zone(zone).unwrap().city.id.clone())
}

/// BE-44: a leader with units lays his zone waste for 2 AP: the marker goes on, the zone is
/// his side's; a force entering it out of supply rolls on the unsupplied row besides its
/// march's attrition; the small no longer live off such a zone.
#[test]
fn be_44_scorched_earth() {
    let (mut store, mut c) = italy();
    let (_, _, inland) = coast_and_inland(&c.state);
    let from = c.state.setup.map.zone(&inland).unwrap().neighbours[0].clone();
    put(&mut c.state, byz(), "belisarius", "4B 4B", Location::Zone(inland.clone()));
    put(&mut c.state, goths(), "teia", "4B 4B", Location::Zone(from.clone()));
    let ones = all_dice(&c, &Order::CheckSupply {}, 1);
    run(&mut store, &mut c, &Order::CheckSupply {}, ones);
    run(&mut store, &mut c, &Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-d"]));
    run(&mut store, &mut c, &Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] }, DiceInput::Seeded);
    let ap = left(&c, &byz());
    let events = run(&mut store, &mut c, &Order::ScorchEarth { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::EarthScorched { zone, .. } if zone == &inland)));
    assert_eq!(left(&c, &byz()), ap - 2, "2 AP");
    assert!(c.state.scorched.contains(&inland));
    assert_eq!(c.state.control.get(&inland), Some(&byz()));
    refused(&mut store, &mut c, &Order::ScorchEarth { side: byz(), leader: "belisarius".into() }, "scorched already");
    // A small force among the enemy no longer lives off it.
    assert_eq!(status(&c.state, &goths(), &Location::Zone(inland.clone()), 3), Status::Unsupplied);
    // Belisarius marches out, leaving units behind without a leader: enemy units, no marker.
    let events = run(
        &mut store,
        &mut c,
        &Order::Drop { side: byz(), leader: "belisarius".into(), units: vec![1], leaders: vec![], city: false },
        DiceInput::Seeded,
    );
    assert!(!events.is_empty());
    let away = c.state.setup.map.zone(&inland).unwrap().neighbours.iter().find(|z| **z != from).unwrap().clone();
    run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "belisarius".into(), path: vec![away.to_string()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
    run(&mut store, &mut c, &Order::Pass { side: byz() }, DiceInput::Seeded);
    // Teia enters the scorched zone with the Byzantine units in it: out of supply, a 1 for
    // the march and a 6 for the scorched earth: half his 8 points.
    run(&mut store, &mut c, &Order::Activate { side: goths(), leader: "teia".into(), with: vec![] }, DiceInput::Seeded);
    let events = run(
        &mut store,
        &mut c,
        &Order::Move { side: goths(), leader: "teia".into(), path: vec![inland.to_string()], attrition_from: vec![] },
        DiceInput::Manual(vec![1, 6]),
    );
    let due = events.iter().find_map(matching!(Event::AttritionSuffered { due } => due.clone())).expect("Teia owes losses");
    let half = referee_campaign::belisarius::tables::percent_of(8, c.state.setup.tables.unsupplied_attrition_percent(6));
    assert_eq!(due.scorched, half, "{due:?}");
    assert_eq!(due.points, half + referee_campaign::belisarius::tables::percent_of(8, c.state.setup.tables.attrition_percent(1, 1)));
}
