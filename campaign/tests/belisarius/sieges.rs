//! Belisarius sieges (BE-24 … BE-28, BE-30, BE-32, BE-40, BE-43): laying a siege, the
//! duration marker and the fall, assaults and the losses each side shares out, the militia,
//! works, the siege lifted when the besiegers leave, Treachery, and what the besieged side
//! may not do.

use referee_campaign::Store;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::map::{CityId, ZoneId};
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::siege::{Fall, Works};
use referee_campaign::belisarius::state::{Location, Phase, Piece, PieceKind};
use referee_campaign::belisarius::tables::percent_of;
use referee_campaign::belisarius::view::view_for;
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::log::DiceRolled;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::fixtures::belisarius::{
    africa, battle_order, byz, city_of, goths, hold, italy_under_vitiges, left, refused, run, siege_ground, stage, supply_phase, typed,
    units_of, view_json,
};
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

use crate::common::matching;

/// The First Reconquest of Italy with Vitiges king, operations begun with the Byzantines
/// first on 16 AP; `goth_chit` is the Goths' chit.
fn italy(goth_chit: &str) -> (Store, Campaign<Belisarius>) {
    italy_under_vitiges(goth_chit, [6, 1])
}

fn activate(store: &mut Store, c: &mut Campaign<Belisarius>, who: SideId, leader: &str) {
    run(store, c, &Order::Activate { side: who, leader: leader.into(), with: vec![] }, DiceInput::Seeded);
}

/// Belisarius with `units` before the Gothic city of `zone`, Uraias inside with `garrison`,
/// Belisarius activated.
fn before_city(store: &mut Store, c: &mut Campaign<Belisarius>, zone: &ZoneId, units: &str, garrison: &str) {
    let city = city_of(c, zone);
    stage(c, &[(byz(), "belisarius", units, Location::Zone(zone.clone())), (goths(), "uraias", garrison, city)]);
    hold(c, zone, &goths());
    c.state.control.insert(zone.clone(), goths());
    activate(store, c, byz(), "belisarius");
}

/// Italy with Belisarius (`units`) besieging an empty walled city (a port if `port`) that
/// Uraias holds with `garrison`, the siege just laid in his activation.
fn besieged(port: bool, units: &str, garrison: &str) -> (Store, Campaign<Belisarius>, ZoneId, CityId) {
    let (mut store, mut c) = italy("ap-d");
    let (zone, _, city) = siege_ground(&c, port);
    before_city(&mut store, &mut c, &zone, units, garrison);
    run(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    (store, c, zone, city)
}

/// What is added to Belisarius's assault dice at `city`: his tactical rating less its walls.
fn assault_modifier(c: &Campaign<Belisarius>, city: &CityId) -> i32 {
    i32::from(c.state.setup.leader("belisarius").unwrap().tactical) - i32::from(c.state.setup.map.city(city).unwrap().fortification)
}

/// The rolls among `events`, in order.
fn rolls_in(events: &[Event]) -> Vec<referee_campaign::core::dice::Roll> {
    events.iter().filter_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) => roll.clone())).collect()
}

/// The first roll among `events`.
fn first_roll(events: &[Event]) -> referee_campaign::core::dice::Roll {
    rolls_in(events).into_iter().next().expect("a roll")
}

/// Passes until the operations are over, then ends the turn (its siege phase included).
fn finish_turn(store: &mut Store, c: &mut Campaign<Belisarius>) -> Vec<Event> {
    let mut events = Vec::new();
    while c.state.phase == Phase::Operations {
        let side = c.state.ops.as_ref().unwrap().segment.clone();
        events.extend(run(store, c, &Order::Pass { side }, DiceInput::Seeded));
    }
    events.extend(run(store, c, &Order::EndTurn {}, DiceInput::Seeded));
    events
}

/// BE-24, BE-46: an activated leader with units, standing before an enemy city, lays siege
/// for 1 AP; the duration marker goes on at 1 and the zone is his side's though the enemy
/// holds the city. A city of his own, a second siege, a leader alone and an enemy in the
/// open are refused.
#[test]
fn be_24_a_leader_lays_siege_for_one_action_point() {
    let (mut store, mut c) = italy("ap-d");
    let (zone, _, city) = siege_ground(&c, false);
    before_city(&mut store, &mut c, &zone, "4B 4B 3C", "2B");
    let ap = left(&c, &byz());
    // An enemy marker in the open comes first.
    c.state.pieces.push(Piece {
        side: goths(),
        at: Location::Zone(zone.clone()),
        kind: PieceKind::LeaderDecoy { id: "decoy-ostrogoths-9".into() },
    });
    refused(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, "enemy marker stands in the open");
    c.state.pieces.pop();
    let events = run(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    assert!(
        events.iter().any(
            |e| matches!(e, Event::SiegeDeclared { city: c2, siege } if c2 == &city && siege.duration == 1 && siege.besieger == byz())
        )
    );
    assert!(events.iter().any(|e| matches!(e, Event::ZoneControlled { zone: z, side } if z == &zone && side == &byz())));
    assert_eq!(left(&c, &byz()), ap - 1, "a siege costs 1 AP");
    assert_eq!(c.state.control.get(&zone), Some(&byz()));
    // the siege is on the map, so every viewer's charts count it.
    for viewer in [Viewer::Umpire, Viewer::Side(goths()), Viewer::Side(byz())] {
        let view = view_for(&c.state, &store.events_as::<Belisarius>(c.id).unwrap(), &viewer).unwrap();
        let sieges = view.readings().into_iter().find(|r| r.measure == referee_campaign::core::history::Measure::Sieges).unwrap();
        assert_eq!((sieges.side, sieges.value), (None, 1.0), "{viewer:?} counts one city under siege");
    }
    refused(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, "besieged already");

    // A leader alone, and a city his side holds.
    let (mut store, mut c) = italy("ap-d");
    before_city(&mut store, &mut c, &zone, "", "2B");
    refused(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, "leaders alone lay no siege");
    hold(&mut c, &zone, &byz());
    refused(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, "nothing to besiege");
}

/// BE-26, BE-25, BE-40: the duration marker stays at 1 in the siege phase of the turn the
/// siege was laid, then rises one a turn; at 4 the city falls: the leader inside is killed,
/// his units lost, the ships in the port change hands, the militia is whole for the new
/// holder.
#[test]
fn be_26_the_duration_marker_rises_and_the_city_falls_at_four() {
    let (mut store, mut c, zone, city) = besieged(true, "4B 4B 3C", "2B 2C");
    c.state.pieces.push(Piece { side: goths(), at: city_of(&c, &zone), kind: PieceKind::Fleet { np: 4, id: String::new() } });
    c.state.cities.get_mut(&city).unwrap().militia = 1;
    finish_turn(&mut store, &mut c);
    assert_eq!(c.state.sieges[&city].duration, 1, "not in the turn it was laid");
    for want in [2, 3] {
        supply_phase(&mut store, &mut c);
        run(&mut store, &mut c, &Order::BeginOperations {}, DiceInput::Seeded);
        let events = finish_turn(&mut store, &mut c);
        assert!(events.iter().any(|e| matches!(e, Event::SiegeAdvanced { duration, .. } if *duration == want)));
        assert_eq!(c.state.sieges[&city].duration, want);
    }
    supply_phase(&mut store, &mut c);
    run(&mut store, &mut c, &Order::BeginOperations {}, DiceInput::Seeded);
    // The garrison has gone hungry three supply phases (BE-31): what is left of it falls.
    let garrison: u32 = referee_campaign::belisarius::siege::units_at(&c.state, &goths(), &city_of(&c, &zone))
        .iter()
        .map(|n| u32::from(n.unit.value))
        .sum();
    let lost_before = c.state.lost_in_battle.get(&goths()).copied().unwrap_or(0);
    let events = finish_turn(&mut store, &mut c);
    assert!(events.iter().any(|e| matches!(e, Event::CityFell { how: Fall::Starved, to, .. } if to == &byz())), "{events:?}");
    assert!(events.iter().any(|e| matches!(e, Event::LeaderKilled { leader, face_down: true, .. } if leader == "uraias")));
    // BE-53: starved, the city is taken with no fight: the Byzantines read that it fell and
    // whoever was inside is lost, never who; the Goths read their leader's death.
    let all = store.events_as::<Belisarius>(c.id).unwrap();
    let read = |side: SideId| {
        let view = view_for(&c.state, &all, &Viewer::Side(side)).unwrap();
        view.log().iter().map(|l| l.text.clone()).collect::<Vec<_>>().join("\n")
    };
    assert!(!read(byz()).contains("Uraias"), "{}", read(byz()));
    assert!(read(byz()).contains("falls to the Byzantines at the fourth mark"), "{}", read(byz()));
    assert!(read(goths()).contains("Uraias (Ostrogoths) is killed"), "{}", read(goths()));
    assert!(!c.state.sieges.contains_key(&city));
    let hold = &c.state.cities[&city];
    assert_eq!(hold.holder, Some(byz()));
    assert_eq!(hold.militia, c.state.setup.map.city(&city).unwrap().militia, "the militia is whole again");
    assert!(!c.state.pieces.iter().any(|p| p.side == goths() && p.at == city_of(&c, &zone)), "everyone inside is lost");
    assert!(c.state.pieces.iter().any(|p| p.side == byz() && matches!(p.kind, PieceKind::Fleet { np: 4, .. })), "the ships are salvaged");
    assert_eq!(c.state.lost_in_battle[&goths()], lost_before + garrison, "the garrison's points count as destroyed");
}

/// The first dice (2d6, as typed) that give an assault result matching `want`.
fn dice_for(
    c: &Campaign<Belisarius>,
    attacker: u32,
    defender: u32,
    modifier: i32,
    want: impl Fn(&referee_campaign::belisarius::tables::AssaultResult) -> bool,
) -> [u8; 2] {
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            let r = c.state.setup.tables.assault(attacker, defender, i32::from(a + b) + modifier);
            if want(&r) {
                return [a, b];
            }
        }
    }
    panic!("no dice give that result")
}

/// BE-27, BE-25: an assault made with the declaring costs nothing more; the ratio of
/// unmodified points, the garrison's with the militia, picks the row, 2d6 with the leader's
/// tactical rating and the siege works less the city's defence the column. Each side shares
/// out what it owes, the defender's militia absorbing part; orders wait until both have. A
/// second assault in the activation is refused.
#[test]
fn be_27_an_assault_and_the_losses_each_side_shares_out() {
    let (mut store, mut c, _, city) = besieged(false, "4B 4B 4B 3C", "2B 2C");
    let ap = left(&c, &byz());
    let militia = c.state.cities[&city].militia;
    let defender = 4 + u32::from(militia);
    let modifier = assault_modifier(&c, &city);
    let dice = dice_for(&c, 15, defender, modifier, |r| !r.falls && r.defender_percent > 0);
    let events = run(
        &mut store,
        &mut c,
        &Order::Assault { side: byz(), leader: "belisarius".into(), ships: Vec::new() },
        DiceInput::Manual(dice.to_vec()),
    );
    let roll = first_roll(&events);
    assert_eq!(roll.total(), i32::from(dice[0] + dice[1]) + modifier, "tactical rating added, the defence taken off");
    let expected = c.state.setup.tables.assault(15, defender, roll.total());
    let (result, row) = events
        .iter()
        .find_map(|e| match e {
            Event::AssaultRolled { result, row, attacker_points: 15, defender_points, .. } if *defender_points == defender => {
                Some((*result, row.clone()))
            }
            _ => None,
        })
        .expect("the assault, 15 points against the garrison and militia");
    assert_eq!(result, expected);
    assert_eq!(row, c.state.setup.tables.assault_label(15, defender));
    assert_eq!(left(&c, &byz()), ap, "the assault with the declaring is free");
    let owed_g = percent_of(defender, result.defender_percent);
    let owed_b = percent_of(15, result.attacker_percent);
    let due = c.state.ops.as_ref().unwrap().assault.clone().unwrap();
    assert_eq!(due.owed.get(&goths()).copied(), Some(owed_g));
    assert_eq!(due.owed.get(&byz()).copied(), Some(owed_b));
    refused(&mut store, &mut c, &Order::Pass { side: byz() }, "not settled");
    // The militia cannot give more than it has, the sum must be right, the attacker has no militia.
    refused(&mut store, &mut c, &Order::TakeLosses { side: goths(), losses: vec![], militia: militia + 1 }, "the militia has");
    refused(&mut store, &mut c, &Order::TakeLosses { side: goths(), losses: vec![(9, 1)], militia: 0 }, "no unit 9");
    refused(&mut store, &mut c, &Order::TakeLosses { side: byz(), losses: vec![], militia: 1 }, "the militia defends its own city");
    let from_militia = u8::try_from(owed_g.min(u32::from(militia))).unwrap();
    let rest = owed_g - u32::from(from_militia);
    let goth_losses: Vec<(u32, u8)> = if rest == 0 {
        vec![]
    } else {
        vec![(1, u8::try_from(rest.min(2)).unwrap()), (2, u8::try_from(rest.saturating_sub(2)).unwrap())]
            .into_iter()
            .filter(|l| l.1 > 0)
            .collect()
    };
    run(&mut store, &mut c, &Order::TakeLosses { side: goths(), losses: goth_losses, militia: from_militia }, DiceInput::Seeded);
    assert_eq!(c.state.cities[&city].militia, militia - from_militia);
    let (share, _) = referee_campaign::belisarius::siege::suggested_share(&c.state, &byz()).unwrap();
    run(&mut store, &mut c, &Order::TakeLosses { side: byz(), losses: share, militia: 0 }, DiceInput::Seeded);
    assert!(c.state.ops.as_ref().unwrap().assault.is_none(), "both sides have settled");
    let points: u32 = c.state.marker(&byz(), "belisarius").unwrap().kind.units().iter().map(|u| u32::from(u.value)).sum();
    assert_eq!(points, 15 - owed_b);
    refused(&mut store, &mut c, &Order::Assault { side: byz(), leader: "belisarius".into(), ships: Vec::new() }, "once this phase");
}

/// BE-27, BE-40: an assault that carries the city destroys everyone inside, the attacker
/// still paying his share; the city and its port's ships are his.
#[test]
fn be_27_a_city_stormed_falls_with_everyone_inside() {
    let (mut store, mut c, zone, city) = besieged(true, "4B 4B 4B 4B 4B 4B", "1C");
    c.state.pieces.push(Piece { side: goths(), at: city_of(&c, &zone), kind: PieceKind::Fleet { np: 3, id: String::new() } });
    let defender = 1 + u32::from(c.state.cities[&city].militia);
    let dice = dice_for(&c, 24, defender, assault_modifier(&c, &city), |r| r.falls);
    let events = run(
        &mut store,
        &mut c,
        &Order::Assault { side: byz(), leader: "belisarius".into(), ships: Vec::new() },
        DiceInput::Manual(dice.to_vec()),
    );
    assert!(events.iter().any(|e| matches!(e, Event::CityFell { how: Fall::Stormed, .. })));
    // Stormed, the city is taken in a fight: the defender killed is named to both (BE-53).
    assert!(events.iter().any(|e| matches!(e, Event::LeaderKilled { leader, face_down: false, .. } if leader == "uraias")));
    let all = store.events_as::<Belisarius>(c.id).unwrap();
    let view = view_for(&c.state, &all, &Viewer::Side(byz())).unwrap();
    assert!(view.log().iter().any(|l| l.text.contains("Uraias (Ostrogoths) is killed")));
    assert_eq!(c.state.cities[&city].holder, Some(byz()));
    assert!(c.state.pieces.iter().any(|p| p.side == byz() && matches!(p.kind, PieceKind::Fleet { np: 3, .. })));
    let due = c.state.ops.as_ref().unwrap().assault.clone().unwrap();
    assert_eq!(due.owed.keys().collect::<Vec<_>>(), vec![&byz()], "only the attacker still owes");
}

/// BE-30, BE-25: when the last besieging units march away the siege ends at once, and the
/// city's militia is whole again.
#[test]
fn be_30_the_siege_ends_when_the_besiegers_leave() {
    let (mut store, mut c, zone, city) = besieged(false, "4B 4B 3C", "2B");
    let away = c.state.setup.map.zone(&zone).unwrap().neighbours[0].clone();
    c.state.cities.get_mut(&city).unwrap().militia = 0;
    let events = run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "belisarius".into(), path: vec![away.0.clone()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
    assert!(events.iter().any(|e| matches!(e, Event::SiegeEnded { city: c2, .. } if c2 == &city)), "{events:?}");
    assert!(!c.state.sieges.contains_key(&city));
    assert_eq!(c.state.cities[&city].militia, c.state.setup.map.city(&city).unwrap().militia);
}

/// BE-32: siege works at most two for each besieging leader present, 2 AP each, each adding
/// to the assault's die; defence works up to a defence of 5; pulling down a city's walls
/// and works costs 1 AP however much goes.
#[test]
fn be_32_siege_works_defence_works_and_pulling_down_walls() {
    let (mut store, mut c, zone, city) = besieged(false, "4B 4B 3C", "2B");
    let works = |count| Order::BuildWorks { side: byz(), leader: "belisarius".into(), works: Works::Siege, count };
    refused(&mut store, &mut c, &works(3), "at most 2 siege works for each leader present");
    let ap = left(&c, &byz());
    run(&mut store, &mut c, &works(2), DiceInput::Seeded);
    assert_eq!(left(&c, &byz()), ap - 4);
    assert_eq!(c.state.sieges[&city].works, 2);
    refused(&mut store, &mut c, &works(1), "at most 2");
    let events = run(
        &mut store,
        &mut c,
        &Order::Assault { side: byz(), leader: "belisarius".into(), ships: Vec::new() },
        DiceInput::Manual(vec![3, 3]),
    );
    let roll = first_roll(&events);
    assert!(roll.modifiers.iter().any(|m| m.value == 2 && m.reason == "siege works"), "{:?}", roll.modifiers);

    // Defence works at a city of one's own, then its walls pulled down.
    let (mut store, mut c) = italy("ap-d");
    let inside = city_of(&c, &zone);
    stage(&mut c, &[(byz(), "belisarius", "4B", inside)]);
    hold(&mut c, &zone, &byz());
    activate(&mut store, &mut c, byz(), "belisarius");
    let wall = c.state.setup.map.city(&city).unwrap().fortification;
    let room = 5 - wall;
    let defence = |count| Order::BuildWorks { side: byz(), leader: "belisarius".into(), works: Works::Defence, count };
    refused(&mut store, &mut c, &defence(room + 1), "may rise to 5 at most");
    run(&mut store, &mut c, &defence(room), DiceInput::Seeded);
    assert_eq!(referee_campaign::belisarius::siege::defence(&c.state, &city), 5);
    let ap = left(&c, &byz());
    run(&mut store, &mut c, &Order::DestroyFortifications { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    assert_eq!(left(&c, &byz()), ap - 1);
    assert_eq!(referee_campaign::belisarius::siege::defence(&c.state, &city), 0);
    refused(&mut store, &mut c, &Order::DestroyFortifications { side: byz(), leader: "belisarius".into() }, "no walls or works left");
}

/// BE-43: Treachery at a siege: 2d6 less the leader's tactical rating, 2 to 8 and the city
/// is taken; 9 or more and nothing happens; either way the stratagem is spent.
#[test]
fn be_43_treachery_opens_the_gates_on_two_to_eight() {
    let tactical = World::embedded().setup("italy-535").unwrap().leader("belisarius").unwrap().tactical;
    for (dice, falls) in [([6u8, 6u8], false), ([4, 4], true)] {
        let (mut store, mut c, _, city) = besieged(false, "4B 4B 3C", "2B");
        assert!(c.state.hands[&byz()].contains(&"treachery".to_owned()));
        let events = run(
            &mut store,
            &mut c,
            &Order::AttemptTreachery { side: byz(), leader: "belisarius".into() },
            DiceInput::Manual(dice.to_vec()),
        );
        let roll = first_roll(&events);
        assert_eq!(roll.total(), i32::from(dice[0] + dice[1]) - i32::from(tactical));
        assert_eq!(events.iter().any(|e| matches!(e, Event::CityFell { how: Fall::Betrayed, .. })), falls, "{events:?}");
        assert_eq!(c.state.cities[&city].holder == Some(byz()), falls);
        assert!(!c.state.hands[&byz()].contains(&"treachery".to_owned()), "spent");
        if !falls {
            refused(&mut store, &mut c, &Order::AttemptTreachery { side: byz(), leader: "belisarius".into() }, "hold no Treachery");
        }
    }
}

/// BE-28: a besieged garrison does not march out, step out into the zone, or come out to
/// intercept; a force of the besieging side marching into the zone meets no contact.
#[test]
fn be_28_the_besieged_are_shut_in() {
    let (mut store, mut c) = italy("ap-d");
    let (zone, away, _) = siege_ground(&c, false);
    before_city(&mut store, &mut c, &zone, "4B 4B 3C", "2B");
    c.state.pieces.push(Piece {
        side: byz(),
        at: Location::Zone(away.clone()),
        kind: PieceKind::Leader { leader: "iohannes".into(), units: units_of("2B") },
    });
    run(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    run(&mut store, &mut c, &Order::Pass { side: byz() }, DiceInput::Seeded);
    activate(&mut store, &mut c, goths(), "uraias");
    refused(
        &mut store,
        &mut c,
        &Order::Move { side: goths(), leader: "uraias".into(), path: vec![away.0.clone()], attrition_from: vec![] },
        "besieged",
    );
    refused(&mut store, &mut c, &Order::Shift { side: goths(), leader: "uraias".into(), into_city: false }, "besieged");
    run(&mut store, &mut c, &Order::Pass { side: goths() }, DiceInput::Seeded);
    activate(&mut store, &mut c, byz(), "iohannes");
    let events = run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "iohannes".into(), path: vec![zone.0.clone()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
    assert!(!events.iter().any(|e| matches!(e, Event::ContactMade { .. })), "the garrison is shut in: {events:?}");
}

/// One run of the differential: a siege laid, an assault, both sides' losses, and the siege
/// phase, the Goths' chit, garrison (same points) and far force taken from `hidden`.
fn siege_run(hidden: (&str, &str, &str)) -> Vec<String> {
    let (chit, garrison, far) = hidden;
    let (mut store, mut c) = italy(chit);
    let (zone, _, _) = siege_ground(&c, false);
    let far_zone = c.state.setup.map.zones.iter().find(|z| z.id != zone && !c.state.setup.map.adjacent(&z.id, &zone)).unwrap().id.clone();
    let mut out = Vec::new();
    before_city(&mut store, &mut c, &zone, "4B 4B 4B 3C", garrison);
    c.state.pieces.push(Piece {
        side: goths(),
        at: Location::Zone(far_zone),
        kind: PieceKind::Leader { leader: "vitiges".into(), units: units_of(far) },
    });
    out.push(view_json(&c, &store, &byz()));
    let mut step = |store: &mut Store, c: &mut Campaign<Belisarius>, order: Order, dice: DiceInput| {
        run(store, c, &order, dice);
        out.push(view_json(c, store, &byz()));
    };
    step(&mut store, &mut c, Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    // The dice that hurt the garrison most without taking the city.
    let city = c.state.setup.map.zone(&zone).unwrap().city.id.clone();
    let defender = 4 + u32::from(c.state.cities[&city].militia);
    let modifier =
        i32::from(c.state.setup.leader("belisarius").unwrap().tactical) - i32::from(c.state.setup.map.city(&city).unwrap().fortification);
    let worst = (2..=12).filter(|t| !c.state.setup.tables.assault(15, defender, t + modifier).falls).max().unwrap();
    let dice = vec![u8::try_from(worst.min(7) - 1).unwrap(), u8::try_from(worst - worst.min(7) + 1).unwrap()];
    step(&mut store, &mut c, Order::Assault { side: byz(), leader: "belisarius".into(), ships: Vec::new() }, DiceInput::Manual(dice));
    // The Goths take theirs from the garrison first, a point a unit, so that how many units
    // are hit depends on its make-up; the Byzantines as the program suggests.
    if let Some(&owed) = c.state.ops.as_ref().unwrap().assault.as_ref().unwrap().owed.get(&goths()) {
        let units = referee_campaign::belisarius::siege::units_at(&c.state, &goths(), &Location::City(city.clone())).len();
        let mut losses: Vec<(u32, u8)> = Vec::new();
        let mut left = owed.min(4);
        while left > 0 {
            for n in 1..=u32::try_from(units).unwrap() {
                let value = referee_campaign::belisarius::siege::units_at(&c.state, &goths(), &Location::City(city.clone()))
                    [usize::try_from(n - 1).unwrap()]
                .unit
                .value;
                let already = losses.iter().find(|l| l.0 == n).map_or(0, |l| l.1);
                if left > 0 && already < value {
                    match losses.iter_mut().find(|l| l.0 == n) {
                        Some(l) => l.1 += 1,
                        None => losses.push((n, 1)),
                    }
                    left -= 1;
                }
            }
        }
        let militia = u8::try_from(owed - owed.min(4)).unwrap();
        step(&mut store, &mut c, Order::TakeLosses { side: goths(), losses, militia }, DiceInput::Seeded);
    }
    if let Some((losses, militia)) = referee_campaign::belisarius::siege::suggested_share(&c.state, &byz()) {
        step(&mut store, &mut c, Order::TakeLosses { side: byz(), losses, militia }, DiceInput::Seeded);
    }
    step(&mut store, &mut c, Order::Pass { side: byz() }, DiceInput::Seeded);
    while c.state.phase == Phase::Operations {
        let side = c.state.ops.as_ref().unwrap().segment.clone();
        step(&mut store, &mut c, Order::Pass { side }, DiceInput::Seeded);
    }
    step(&mut store, &mut c, Order::EndTurn {}, DiceInput::Seeded);
    out
}

/// BE-53: through a siege, an assault and the losses, the Byzantines read the same whatever
/// the Goths' chit, the make-up of the garrison (of the same points: the assault shows
/// both sides' points) and the Gothic force far away.
#[test]
fn be_53_a_siege_and_its_assault_leak_nothing() {
    // The chits differ in the Goths' value only as far as the turn's end shows them.
    let a = siege_run(("ap-d", "2B 2C", "5A 5A"));
    let b = siege_run(("ap-d", "1A 1B 2D", "1D"));
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let differs = x.lines().zip(y.lines()).find(|(p, q)| p != q);
        assert!(differs.is_none() && x.len() == y.len(), "step {i}: the Byzantines read something they may not know: {differs:?}");
    }
    assert!(a.iter().any(|v| v.contains("storms")), "the assault is public");
}

/// The besieged side's segment: the Byzantines pass after laying the siege.
fn goths_turn(store: &mut Store, c: &mut Campaign<Belisarius>) {
    run(store, c, &Order::Pass { side: byz() }, DiceInput::Seeded);
    assert_eq!(c.state.ops.as_ref().unwrap().segment, goths());
}

/// BE-28: the besieged leader sallies with units of the garrison for 1 AP; the besieger meets
/// them with as many unmodified points; one melee each, no morale checks; each side's losses
/// come from those who fought only; nothing else happens until the sortie is over.
#[test]
fn be_28_a_sortie_is_one_melee_against_as_many_points() {
    let (mut store, mut c, _, _) = besieged(false, "4B 4B 3C", "2B 2C");
    goths_turn(&mut store, &mut c);
    activate(&mut store, &mut c, goths(), "uraias");
    let ap = left(&c, &goths());
    refused(&mut store, &mut c, &Order::Sally { side: goths(), leader: "uraias".into(), units: vec![9] }, "no unit 9");
    let events = run(&mut store, &mut c, &Order::Sally { side: goths(), leader: "uraias".into(), units: vec![1, 2] }, DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::SortieMade { due } if due.points == 4)));
    assert_eq!(left(&c, &goths()), ap - 1, "a sortie costs 1 AP");
    refused(&mut store, &mut c, &Order::Pass { side: goths() }, "sortie");
    // the Byzantines' packet checks their answer as the rules will: the sortie's points
    // are public, the besiegers' units their own.
    let side = referee_campaign::fixtures::belisarius::side_view(&c, &store, &byz());
    let planned = |earlier: &[Order], units: Vec<(u32, u8)>| {
        referee_campaign::belisarius::plan::check(&side, &c.state.setup.map, earlier, &Order::AnswerSortie { side: byz(), units })
    };
    let short = planned(&[], vec![(1, 3)]).unwrap_err().to_string();
    assert!(short.contains("4 points are owed to meet the sortie") && short.ends_with("BE-28"), "{short}");
    assert!(planned(&[], vec![(3, 4)]).unwrap_err().to_string().contains("has 3 points"));
    assert_eq!(planned(&[], vec![(1, 4)]), Ok(referee_campaign::core::plan::Checked::AsFarAsKnown));
    let twice = planned(&[Order::AnswerSortie { side: byz(), units: vec![(1, 4)] }], vec![(1, 4)]).unwrap_err().to_string();
    assert!(twice.contains("answers the sortie, once"), "{twice}");
    let goth = referee_campaign::fixtures::belisarius::side_view(&c, &store, &goths());
    let theirs = referee_campaign::belisarius::plan::check(
        &goth,
        &c.state.setup.map,
        &[],
        &Order::AnswerSortie { side: goths(), units: vec![(1, 4)] },
    );
    assert!(theirs.unwrap_err().to_string().contains("have no sortie to answer"));
    refused(&mut store, &mut c, &Order::AnswerSortie { side: byz(), units: vec![(1, 3)] }, "met with 4 unmodified points");
    refused(&mut store, &mut c, &Order::AnswerSortie { side: byz(), units: vec![(3, 4)] }, "has 3 points");
    let events = run(&mut store, &mut c, &Order::AnswerSortie { side: byz(), units: vec![(1, 4)] }, DiceInput::Manual(vec![6, 5]));
    let rolls = rolls_in(&events);
    assert_eq!(rolls.len(), 2, "one melee each, no fire");
    assert!(!events.iter().any(|e| matches!(e, Event::MoraleChecked { .. })), "no morale checks");
    let tables = &c.state.setup.tables;
    // Each side's factor from the units that fought: heavy cavalry counts double.
    let factor = |units: &str| units_of(units).iter().map(|u| u.factor()).sum::<u32>();
    let (goth_factor, byz_factor) = (factor("2B 2C"), factor("4B"));
    assert_eq!((goth_factor, byz_factor), (8, 8));
    let goth_lose = percent_of(4, tables.combat(byz_factor, rolls[1].total(), 0).percent);
    let byz_lose = percent_of(4, tables.combat(goth_factor, rolls[0].total(), 0).percent);
    let due = c.state.ops.as_ref().unwrap().sortie.clone();
    if let Some(due) = due {
        assert_eq!(due.owed.get(&goths()).copied().unwrap_or(0), goth_lose);
        assert_eq!(due.owed.get(&byz()).copied().unwrap_or(0), byz_lose);
        if byz_lose > 0 {
            refused(&mut store, &mut c, &Order::TakeLosses { side: byz(), losses: vec![(2, 1)], militia: 0 }, "no unit 2");
        }
        for who in [goths(), byz()] {
            if let Some(losses) = referee_campaign::belisarius::siege::suggested_sortie_share(&c.state, &who) {
                run(&mut store, &mut c, &Order::TakeLosses { side: who, losses, militia: 0 }, DiceInput::Seeded);
            }
        }
    }
    assert!(c.state.ops.as_ref().unwrap().sortie.is_none(), "the sortie is over");
    // The losses of a sortie are the sortie's rule's, for both sides, in each side's log.
    for who in [byz(), goths()] {
        let log = referee_campaign::fixtures::belisarius::log_of(&c, &store, &who);
        let taken: Vec<&String> = log.iter().filter(|l| l.contains("losses at")).collect();
        assert!(!taken.is_empty() && taken.iter().all(|l| l.ends_with("BE-28")), "{taken:?}");
    }
    let belisarius: u32 = c.state.marker(&byz(), "belisarius").unwrap().kind.units().iter().map(|u| u32::from(u.value)).sum();
    assert_eq!(belisarius, 11 - byz_lose, "the Byzantine losses came from the unit that fought");
}

/// Vitiges with 20 points beside the siege's zone, activated in the Goths' segment, marches
/// into it: a contact with the besiegers in the open.
fn vitiges_marches_on_the_lines(store: &mut Store, c: &mut Campaign<Belisarius>, zone: &ZoneId) {
    let near = c.state.setup.map.zone(zone).unwrap().neighbours[0].clone();
    c.state.pieces.push(Piece {
        side: goths(),
        at: Location::Zone(near),
        kind: PieceKind::Leader { leader: "vitiges".into(), units: units_of("4B 4B 4B 4B 4B") },
    });
    goths_turn(store, c);
    activate(store, c, goths(), "vitiges");
    run(
        store,
        c,
        &Order::Move { side: goths(), leader: "vitiges".into(), path: vec![zone.0.clone()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
}

/// BE-29, BE-30: a relief marching into the siege's zone attacks the lines without a roll;
/// the besieger names who meets it. Holding the lines with at least the besieged and their
/// militia keeps the siege; a beaten besieger lets the garrison join the victors. Committing
/// too much lifts the siege as the battle begins.
#[test]
fn be_29_a_relief_attacks_the_lines_and_the_garrison_joins_the_victors() {
    for hold in [true, false] {
        let (mut store, mut c, zone, city) = besieged(false, "4B 4B 3C", "2B");
        let lines = if hold { "4B 4B" } else { "1C" };
        c.state.pieces.push(Piece {
            side: byz(),
            at: Location::Zone(zone.clone()),
            kind: PieceKind::Leader { leader: "iohannes".into(), units: units_of(lines) },
        });
        // Before any relief the garrison stays shut in.
        vitiges_marches_on_the_lines(&mut store, &mut c, &zone);
        assert!(c.state.ops.as_ref().unwrap().contact.is_some(), "the besiegers stand in the open");
        refused(&mut store, &mut c, &Order::Relieve { side: goths() }, "when its turn at the contact comes");
        run(&mut store, &mut c, &Order::Decline { side: byz() }, DiceInput::Seeded);
        let events = run(&mut store, &mut c, &Order::Relieve { side: goths() }, DiceInput::Seeded);
        assert!(events.iter().any(|e| matches!(e, Event::ReliefDeclared { .. })));
        assert!(!events.iter().any(|e| matches!(e, Event::DiceRolled(DiceRolled { .. }))), "no interception roll");
        refused(&mut store, &mut c, &Order::Decline { side: byz() }, "hold_lines");
        refused(&mut store, &mut c, &Order::HoldLines { side: byz(), fight: vec!["narses".into()] }, "not among the besiegers");
        let events = run(&mut store, &mut c, &Order::HoldLines { side: byz(), fight: vec!["belisarius".into()] }, DiceInput::Seeded);
        let battle = c.state.ops.as_ref().unwrap().battle.clone().expect("a battle");
        assert_eq!(battle.relief.as_ref(), Some(&city));
        assert_eq!(battle.forces[1].leaders, vec!["belisarius".to_owned()], "Iohannes holds the lines");
        assert_eq!(
            events.iter().any(|e| matches!(e, Event::SiegeEnded { .. })),
            !hold,
            "the lines held with {lines} against the besieged 2 points and their militia"
        );
        assert_eq!(c.state.sieges.contains_key(&city), hold);
        if !hold {
            continue;
        }
        // The Byzantines break off after each passage: the relief wins.
        let mut all = Vec::new();
        for _ in 0..200 {
            let Some(order) = battle_order(&c.state, Some(&byz())) else { break };
            all.extend(run(&mut store, &mut c, &order, DiceInput::Seeded));
        }
        assert!(all.iter().any(|e| matches!(e, Event::SiegeRelieved { city: x } if x == &city)), "{all:?}");
        // The interceptions go on while Iohannes holds the lines; both decline.
        while let Some(k) = c.state.ops.as_ref().unwrap().contact.clone() {
            run(&mut store, &mut c, &Order::Decline { side: k.turn_of.clone() }, DiceInput::Seeded);
        }
        assert!(c.state.sieges.contains_key(&city), "Iohannes still holds the lines");
        run(
            &mut store,
            &mut c,
            &Order::PickUp { side: goths(), leader: "vitiges".into(), units: vec![], leaders: vec!["uraias".into()] },
            DiceInput::Seeded,
        );
        assert_eq!(c.state.marker(&goths(), "uraias").unwrap().at, Location::Zone(zone.clone()), "Uraias has joined the victors");
    }
}

/// BE-29, BE-13: both sides tried to intercept at the siege's zone and failed, then the
/// marching force attacked the lines. The besieger answers the attack by naming who fights
/// it: a battle by consent is not to be had in its place.
#[test]
fn be_29_a_relief_once_made_is_answered_by_holding_the_lines_not_by_consent() {
    let (mut store, mut c, zone, _city) = besieged(false, "4B 4B 3C", "2B");
    vitiges_marches_on_the_lines(&mut store, &mut c, &zone);
    let intercept = |side: SideId, leader: &str, target: Option<u32>| Order::Intercept {
        side,
        leaders: vec![leader.to_owned()],
        target,
        reconnaissance: false,
    };
    run(&mut store, &mut c, &intercept(byz(), "belisarius", None), DiceInput::Manual(vec![1]));
    run(&mut store, &mut c, &Order::Decline { side: byz() }, DiceInput::Seeded);
    run(&mut store, &mut c, &intercept(goths(), "vitiges", Some(1)), DiceInput::Manual(vec![1]));
    let k = c.state.ops.as_ref().unwrap().contact.clone().expect("the contact is still open");
    assert!(k.failed.contains(&byz()) && k.failed.contains(&goths()), "both failed: {:?}", k.failed);
    run(&mut store, &mut c, &Order::Relieve { side: goths() }, DiceInput::Seeded);
    refused(&mut store, &mut c, &Order::AgreeToBattle { side: byz() }, "hold_lines");
    refused(&mut store, &mut c, &Order::AgreeToBattle { side: goths() }, "hold_lines");
    run(&mut store, &mut c, &Order::HoldLines { side: byz(), fight: vec!["belisarius".into()] }, DiceInput::Seeded);
    assert!(c.state.ops.as_ref().unwrap().battle.as_ref().is_some_and(|b| b.relief.is_some()), "the relief's battle");
}

/// BE-27: the limit on assaults is the siege's, not the leader's. Belisarius storms one
/// Gothic city, marches on to the next and storms it in the activation that lays its siege,
/// free; a second assault on the first city that phase is refused.
#[test]
fn be_27_one_assault_a_siege_not_one_a_leader() {
    let (mut store, mut c) = italy("ap-d");
    let map = c.state.setup.map.clone();
    let empty = |z: &referee_campaign::belisarius::map::Zone| {
        (1..=3).contains(&z.city.fortification)
            && !c.state.pieces.iter().any(|p| referee_campaign::belisarius::operations::zone_of(&c.state, &p.at).as_ref() == Some(&z.id))
    };
    let (first, second) = map
        .zones
        .iter()
        .filter(|z| empty(z))
        .find_map(|a| a.neighbours.iter().filter_map(|n| map.zone(n)).find(|b| empty(b)).map(|b| (a.id.clone(), b.id.clone())))
        .expect("two walled cities side by side, nobody in either zone");
    before_city(&mut store, &mut c, &first, "4B 4B 4B 4B 4B 4B", "1C");
    hold(&mut c, &second, &goths());
    c.state.control.insert(second.clone(), goths());
    run(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    let city = c.state.setup.map.zone(&first).unwrap().city.id.clone();
    let defender = 1 + u32::from(c.state.cities[&city].militia);
    let dice = dice_for(&c, 24, defender, assault_modifier(&c, &city), |r| r.falls);
    let assault = Order::Assault { side: byz(), leader: "belisarius".into(), ships: Vec::new() };
    let events = run(&mut store, &mut c, &assault, DiceInput::Manual(dice.to_vec()));
    assert!(events.iter().any(|e| matches!(e, Event::CityFell { how: Fall::Stormed, .. })), "{events:?}");
    if let Some((share, _)) = referee_campaign::belisarius::siege::suggested_share(&c.state, &byz()) {
        run(&mut store, &mut c, &Order::TakeLosses { side: byz(), losses: share, militia: 0 }, DiceInput::Seeded);
    }
    let on = Order::Move { side: byz(), leader: "belisarius".into(), path: vec![second.0.clone()], attrition_from: vec![] };
    run(&mut store, &mut c, &on, DiceInput::Manual(vec![1]));
    run(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    let ap = left(&c, &byz());
    let events = run(&mut store, &mut c, &assault, DiceInput::Manual(vec![1, 1]));
    assert!(events.iter().any(|e| matches!(e, Event::AssaultRolled { .. })), "the second city's own assault is allowed: {events:?}");
    assert_eq!(left(&c, &byz()), ap, "and free with its siege's declaring");
    for side in [goths(), byz()] {
        if let Some((losses, militia)) = referee_campaign::belisarius::siege::suggested_share(&c.state, &side) {
            run(&mut store, &mut c, &Order::TakeLosses { side, losses, militia }, DiceInput::Seeded);
        }
    }
    refused(&mut store, &mut c, &assault, "has been assaulted once this phase");
}

/// BE-49, BE-24, BE-46: the Byzantines land in northern Byzacium and control the zone, but its
/// city, Hadrumetum, is the Vandals' from the start: Byzantine troops may not walk in through
/// its gates, and Belisarius lays siege to it in his first activation, without a march. The
/// zone stays the Byzantines'.
#[test]
fn be_49_the_landing_army_besieges_hadrumetum_from_the_start() {
    let (mut store, mut c) = africa();
    supply_phase(&mut store, &mut c);
    // Byzantine initiative: 6 + 8 (Belisarius) against 1 + 4 (Gelimer).
    run(&mut store, &mut c, &Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-a"]));
    let (zone, city) = (ZoneId::new("byzacium-north"), CityId::new("hadrumetum"));
    assert_eq!(c.state.control.get(&zone), Some(&byz()));
    assert_eq!(c.state.cities[&city].holder, Some(SideId::new("vandals")));

    activate(&mut store, &mut c, byz(), "belisarius");
    let enter = Order::Shift { side: byz(), leader: "belisarius".into(), into_city: true };
    refused(&mut store, &mut c, &enter, "Hadrumetum is held by the Vandals: it is taken by a siege");
    let drop = Order::Drop { side: byz(), leader: "belisarius".into(), units: vec![1], leaders: vec![], city: true };
    refused(&mut store, &mut c, &drop, "Hadrumetum is held by the Vandals");

    let ap = left(&c, &byz());
    let events = run(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::SiegeDeclared { city: c2, siege } if c2 == &city && siege.besieger == byz())));
    assert!(!events.iter().any(|e| matches!(e, Event::ZoneControlled { .. })), "the zone was the Byzantines' already");
    assert_eq!(left(&c, &byz()), ap - 1);
    assert_eq!(c.state.control.get(&zone), Some(&byz()));
    assert_eq!(c.state.cities[&city].holder, Some(SideId::new("vandals")), "a siege laid takes no city");
}

/// BE-24, BE-30: while a siege stands, what a button asks of the rules (`allows`, which skips
/// lifting sieges left without besiegers) gives the verdict `decide` gives, taken or refused
/// with the same rule.
#[test]
fn be_30_the_rules_asked_before_a_button_answer_as_decide_does_during_a_siege() {
    use referee_campaign::core::dice::Dice;
    use referee_campaign::core::engine::Engine as _;
    let (mut store, mut c) = italy("ap-d");
    let (zone, _, _) = siege_ground(&c, false);
    before_city(&mut store, &mut c, &zone, "4B 4B 3C", "2B");
    run(&mut store, &mut c, &Order::Besiege { side: byz(), leader: "belisarius".into() }, DiceInput::Seeded);
    assert!(!c.state.sieges.is_empty(), "a siege stands");
    let orders = [
        Order::Besiege { side: byz(), leader: "belisarius".into() },
        Order::Assault { side: byz(), leader: "belisarius".into(), ships: Vec::new() },
        Order::BuildWorks { side: byz(), leader: "belisarius".into(), works: Works::Siege, count: 1 },
        Order::Pass { side: goths() },
        Order::Pass { side: byz() },
        Order::EndTurn {},
    ];
    let dice = || Dice::seeded(c.state.seed, c.state.stream_pos);
    let (mut taken, mut refused) = (0, 0);
    for order in &orders {
        let decided = Belisarius::decide(&c.state, &(), order, &mut dice()).map(|_| ()).map_err(|e| e.rule);
        let allowed = Belisarius::allows(&c.state, &(), order, &mut dice()).map_err(|e| e.rule);
        assert_eq!(allowed, decided, "{order:?}");
        if decided.is_ok() { taken += 1 } else { refused += 1 }
    }
    assert!(taken > 0 && refused > 0, "both verdicts are compared: {taken} taken, {refused} refused");
}

/// BE-27, BE-28, BE-41: the share of siege and supply losses offered to the referee keeps as
/// much fighting strength as it can, as a battle's does: the militia first, then infantry
/// before heavy cavalry and cataphracts, the smallest first; nothing is taken from a
/// cataphract while a foot soldier stands.
#[test]
fn be_27_the_suggested_share_of_siege_losses_keeps_the_strongest_units() {
    use referee_campaign::belisarius::siege::{Numbered, suggest};
    let units: Vec<Numbered<'_>> =
        units_of("k:1A k:1A 2B i:4C").into_iter().zip(1..).map(|(unit, index)| Numbered { leader: None, index, unit }).collect();
    assert_eq!(suggest(&units, 5, 0), (vec![(3, 1), (4, 4)], 0), "the infantry, then the heavy cavalry");
    assert_eq!(suggest(&units, 5, 2), (vec![(4, 3)], 2), "the militia first");
    assert_eq!(suggest(&units, 8, 0), (vec![(1, 1), (2, 1), (3, 2), (4, 4)], 0), "everything, at the most");
}

/// BE-28, BE-42: a decoy shut in a besieged city may be activated, as any marker may, but it
/// carries out no action: it makes no sortie, which would show the besieger what it is.
#[test]
fn be_42_a_decoy_in_a_besieged_city_makes_no_sortie() {
    let (mut store, mut c, _, city) = besieged(false, "4B 4B 3C", "2B 2C");
    let id = "decoy-ostrogoths-1".to_owned();
    c.state.pieces.retain(|p| !matches!(&p.kind, PieceKind::LeaderDecoy { id: d } if *d == id));
    c.state.pieces.push(Piece { side: goths(), at: Location::City(city), kind: PieceKind::LeaderDecoy { id: id.clone() } });
    goths_turn(&mut store, &mut c);
    activate(&mut store, &mut c, goths(), &id);
    refused(&mut store, &mut c, &Order::Sally { side: goths(), leader: id, units: vec![1] }, "a decoy carries out no action");
}
