//! Setting up a Belisarius campaign: the pieces each scenario puts on the map, free lines
//! placed whole or in parts, the places the rules allow, and replay (BE-49…BE-53).

use referee_campaign::Store;
use referee_campaign::belisarius::map::{CityId, ZoneId};
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::setup::Setup;
use referee_campaign::belisarius::state::{Location, Phase, PieceKind, State};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::engine::Engine;
use referee_campaign::core::log::RollDice;
use referee_campaign::fixtures::belisarius::{byz, goths, place};
use referee_campaign::store::{Campaign, DiceInput};

fn open(scenario: &str) -> (tempfile::TempDir, Store, Campaign<Belisarius>) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("t.sqlite")).unwrap();
    let setup = World::embedded().setup(scenario).unwrap();
    let c = store.create_as::<Belisarius>("Test", &setup, 1).unwrap();
    (dir, store, c)
}

fn refused(store: &mut Store, c: &mut Campaign<Belisarius>, order: &Order) -> String {
    let head = c.head;
    let e = store.execute(c, &(), order, DiceInput::Seeded).unwrap_err().to_string();
    assert_eq!(c.head, head, "a refused order stored something");
    e
}

/// BE-49: Africa starts with the Vandals at Caralis, Carthago and in southern Byzacium, the
/// Byzantine army in northern Byzacium and its fleets to be put in a sea next to it.
#[test]
fn be_49_africa_sets_up_as_the_scenario_says() {
    let (_dir, mut store, mut c) = open("africa-533");
    let at = |side: &str, place: Location| c.state.pieces.iter().filter(|p| p.side.as_str() == side && p.at == place).count();
    assert!(at("vandals", Location::City(CityId::new("caralis"))) >= 1);
    assert!(at("vandals", Location::City(CityId::new("carthago"))) >= 2);
    assert!(at("byzantines", Location::Zone(ZoneId::new("byzacium-north"))) >= 6);
    let e = refused(&mut store, &mut c, &place(&byz(), 1, "ionium"));
    assert!(e.contains("BE-49") && e.contains("next to Northern Byzacium"), "{e}");
    let e = refused(&mut store, &mut c, &place(&byz(), 9, "mare-africum"));
    assert!(e.starts_with("The Byzantines have no set-up line 9 to place; they have 1 (see `roster`)"), "{e}");
    let e = refused(&mut store, &mut c, &Order::BeginPlay {});
    assert!(e.contains("still to place"), "{e}");
    store.execute(&mut c, &(), &place(&byz(), 1, "mare-africum"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.phase, Phase::Play);
    let e = refused(&mut store, &mut c, &place(&byz(), 1, "mare-africum"));
    assert!(e.contains("set-up is over") || e.contains("no set-up line"), "{e}");
}

/// BE-51: the Byzantines of 541 split their free line; a part naming what the line does not
/// have is refused, and play begins only with troops in Roma and Ravenna.
#[test]
fn be_51_a_free_line_is_placed_in_parts() {
    let (_dir, mut store, mut c) = open("goths-541");
    let part = |leaders: Option<Vec<&str>>, units: Option<Vec<u32>>, decoys: Option<u32>, at: &str| Order::Place {
        side: byz(),
        line: 1,
        at: at.into(),
        leaders: leaders.map(|l| l.into_iter().map(String::from).collect()),
        units,
        decoys,
        fleets: None,
        fleet_decoys: None,
    };
    for (order, expected) in [
        (part(Some(vec!["belisarius"]), None, None, "roma"), "not among line 1's leaders"),
        (part(None, Some(vec![1, 1]), None, "roma"), "named twice"),
        (part(None, Some(vec![99]), None, "roma"), "no unit 99"),
        (part(None, None, Some(9), "roma"), "not 9"),
        (part(Some(vec![]), None, None, "roma"), "name something"),
        (part(Some(vec!["bessas"]), None, None, "verona"), "not a zone the side controls"),
        (part(Some(vec!["bessas"]), None, None, "corsica"), "italy"),
    ] {
        let e = refused(&mut store, &mut c, &order);
        assert!(e.contains(expected) && e.contains("BE-51"), "{e}");
    }
    store.execute(&mut c, &(), &part(Some(vec!["bessas"]), Some(vec![1, 2, 3]), None, "roma"), DiceInput::Seeded).unwrap();
    let rest = &c.state.lines_due[&byz()][0].rest;
    assert!(!rest.leaders.contains(&"bessas".to_owned()));
    assert_eq!(rest.units.len(), 23);
    let bessas = c.state.pieces.iter().find(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "bessas")).unwrap();
    assert_eq!(bessas.kind.units().len(), 3);
    assert_eq!(bessas.at, Location::City(CityId::new("roma")));
    // The rest goes to Latium's open country, not Ravenna: play may not begin.
    store.execute(&mut c, &(), &place(&byz(), 1, "latium"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &place(&byz(), 1, "tyrrhenum-north"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &place(&goths(), 1, "adriaticum-north"), DiceInput::Seeded).unwrap();
    let e = refused(&mut store, &mut c, &Order::BeginPlay {});
    assert!(e.contains("Ravenna") && e.contains("BE-51"), "{e}");
    store.undo(&mut c).unwrap();
    store.undo(&mut c).unwrap();
    store.undo(&mut c).unwrap();
    store.execute(&mut c, &(), &place(&byz(), 1, "ravenna"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &place(&byz(), 1, "tyrrhenum-north"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &place(&goths(), 1, "adriaticum-north"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &Order::BeginPlay {}, DiceInput::Seeded).unwrap();

    // Replayed from the stored events, the campaign is the same.
    let reopened = store.load_as::<Belisarius>(c.id).unwrap();
    assert_eq!(reopened.state, c.state);
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let mut replayed = Belisarius::start(&events[0].event).unwrap();
    for e in &events[1..] {
        Belisarius::apply(&mut replayed, &e.event).unwrap();
    }
    assert_eq!(replayed, c.state);
}

/// BE-50, BE-52: every set-up line the scenario fixes is on the map from the start, and
/// every piece stands on a place of the map.
#[test]
fn be_50_be_52_fixed_lines_stand_on_the_map() {
    let world = World::embedded();
    for scenario in &world.scenarios {
        let setup = world.setup(&scenario.id).unwrap();
        let (_dir, _store, c) = open(&scenario.id);
        for p in &c.state.pieces {
            assert_eq!(setup.place(&p.at.to_string()), Ok(p.at.clone()), "{}: {} is no place of the map", scenario.id, p.at);
        }
        let fixed: usize = setup.sides.iter().flat_map(|s| &s.lines).filter(|l| l.at.is_some()).map(|l| l.leaders.len()).sum();
        let leaders = c.state.pieces.iter().filter(|p| matches!(p.kind, PieceKind::Leader { .. })).count();
        assert_eq!(leaders, fixed, "{}", scenario.id);
    }
}

/// through the engine's `describe`, a side's secret roll reads to that side and the
/// referee, and to the other side not at all.
#[test]
fn x_01_a_secret_roll_is_described_to_its_side_only() {
    use referee_campaign::core::viewer::Viewer;
    use referee_campaign::dice::DiceSpec;
    let (_dir, mut store, mut c) = open("italy-535");
    let roll = Order::RollDice(RollDice {
        dice: DiceSpec::D6,
        purpose: "scouts at Ravenna".into(),
        side: Some(goths()),
        hidden: true,
        modifiers: vec![],
    });
    let events = store.execute(&mut c, &(), &roll, DiceInput::Manual(vec![5])).unwrap();
    let read = |viewer: Viewer| Belisarius::describe(&c.state, &(), &events[0], &viewer);
    assert!(read(Viewer::Umpire).is_some_and(|l| l.contains("scouts at Ravenna")));
    assert!(read(Viewer::Side(goths())).is_some_and(|l| l.contains("d6 = 5")));
    assert_eq!(read(Viewer::Side(byz())), None);
}

/// BE-03: a Table of Organisation reads units by kind, in the rules' own notation.
#[test]
fn be_03_units_are_summed_up_by_kind_in_the_rules_notation() {
    use referee_campaign::belisarius::pieces::{UnitKind, parse_units, summary};
    let mut units = parse_units(UnitKind::Cataphract, "4 x 1*A, 2x(2*C)").unwrap();
    units.extend(parse_units(UnitKind::Infantry, "2x([1]*C), 1C").unwrap());
    assert_eq!(summary(&units), "cataphracts 4×1*A 2×2*C; infantry 2×[1]*C 1C");
    assert_eq!(summary(&[]), "");
}

/// BE-49: a campaign begun before scenarios named the cities each side holds has no `holds`
/// in its start event. It keeps the reading it was played with, each city going with its
/// zone (Hadrumetum with the Byzantines' landing zone), so its stored history replays as it
/// was; a campaign begun now starts with Hadrumetum the Vandals'.
#[test]
fn be_49_a_campaign_begun_before_cities_were_named_keeps_its_reading() {
    let setup = World::embedded().setup("africa-533").unwrap();
    let mut json = serde_json::to_value(&setup).unwrap();
    for path in ["/sides", "/scenario/sides"] {
        for side in json.pointer_mut(path).and_then(|s| s.as_array_mut()).unwrap() {
            assert!(side.as_object_mut().unwrap().remove("holds").is_some());
        }
    }
    let old: Setup = serde_json::from_value(json).unwrap();
    let holder = |setup: &Setup| {
        let state = State::new("Old", setup, 1);
        state.cities[&CityId::new("hadrumetum")].holder.as_ref().map(|s| s.as_str().to_owned())
    };
    assert_eq!(holder(&old).as_deref(), Some("byzantines"));
    assert_eq!(holder(&setup).as_deref(), Some("vandals"));
    // Every other city of the old reading goes with its zone's controller.
    let state = State::new("Old", &old, 1);
    for zone in &old.map.zones {
        assert_eq!(state.cities[&zone.city.id].holder, state.control.get(&zone.id).cloned(), "{}", zone.city.id);
    }
}

/// BE-51, BE-24: a free line goes inside the walls only of a city its side holds, and its
/// ships only into such a port, whoever controls the zone around: with Roma and Neapolis
/// taken out of the Byzantines' cities (Latium and Campania still theirs), Roma takes no
/// troops and Neapolis no ship, while Latium's open country and Pisae's port do.
#[test]
fn be_51_free_lines_enter_only_cities_their_side_holds() {
    let mut setup = World::embedded().setup("goths-541").unwrap();
    let byzantines = setup.sides.iter_mut().find(|s| s.id.as_str() == "byzantines").unwrap();
    byzantines.holds.as_mut().unwrap().retain(|c| c.0 != "roma" && c.0 != "neapolis");
    byzantines.must_hold.clear();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<Belisarius>("Test", &setup, 1).unwrap();
    let e = refused(&mut store, &mut c, &place(&byz(), 1, "roma"));
    assert!(e.contains("Roma is not a city the side holds") && e.contains("BE-51"), "{e}");
    let e = refused(&mut store, &mut c, &place(&byz(), 2, "neapolis"));
    assert!(e.contains("a port the side holds") && e.contains("BE-51"), "{e}");
    store.execute(&mut c, &(), &place(&byz(), 2, "pisae"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &place(&byz(), 1, "latium"), DiceInput::Seeded).unwrap();
    assert!(c.state.lines_due[&byz()].is_empty());
}

/// an order is summed up, for the undo menu and the `commands` table, in the names the
/// referee reads on the map and the counters, not in the ids typed: the sides, the leaders,
/// a decoy by its side, the places by the map; an id the campaign does not know stays as
/// typed, and an order without a route or units says so.
#[test]
fn x_03_an_order_is_summed_up_in_names_not_ids() {
    let (_dir, mut store, mut c) = open("africa-533");
    let vandals = referee_campaign::ids::SideId::new("vandals");
    let said = |order: &Order| Belisarius::summary(&c.state, &(), order, &referee_campaign::Viewer::Umpire);
    let path = |to: &[&str]| to.iter().map(|&z| z.to_owned()).collect::<Vec<_>>();
    let march = |side: &referee_campaign::ids::SideId, leader: &str, to: &[&str]| Order::Move {
        side: side.clone(),
        leader: leader.into(),
        path: path(to),
        attrition_from: vec![],
    };
    let cases = [
        (march(&byz(), "belisarius", &["aurasius"]), "Belisarius marches to Mons Aurasius"),
        (march(&byz(), "decoy-byzantines-2", &["carthago"]), "the Byzantines' decoy 2 marches to Carthago (Carthage)"),
        // A decoy is its own side's, whoever typed it.
        (march(&vandals, "decoy-byzantines-2", &[]), "the Byzantines' decoy 2 marches with no route"),
        (march(&vandals, "nobody", &["zeugitana", "carthago"]), "the Vandals' nobody marches to Carthago (Carthage)"),
        (
            Order::Activate { side: vandals.clone(), leader: "gelimer".into(), with: path(&["tzazon", "ammatas", "gibamund"]) },
            "the Vandals activate Gelimer with Tzazon (Zano), Ammatas and Gibamund",
        ),
        (Order::Pass { side: vandals.clone() }, "the Vandals pass"),
        (
            Order::Sail { side: byz(), ships: vec!["fleet-byzantines-1".into()], path: path(&["mare-africum"]) },
            "the Byzantines' ships sail to African Sea",
        ),
        (
            Order::BuildWorks {
                side: byz(),
                leader: "iohannes".into(),
                works: referee_campaign::belisarius::siege::Works::Siege,
                count: 2,
            },
            "Iohannes (John) builds 2 siege works",
        ),
        (Order::Raise { side: byz(), at: String::new(), units: vec![] }, "the Byzantines raise nothing"),
        (
            Order::Raise { side: byz(), at: "carthago".into(), units: path(&["2B", "1A"]) },
            "the Byzantines raise 2 units at Carthago (Carthage)",
        ),
        (Order::ReturnDecoy { side: vandals.clone(), at: "caralis".into(), fleet: true }, "the Vandals' fleet decoy returns at Caralis"),
        (Order::Intercept { side: vandals.clone(), leaders: vec![], target: None, reconnaissance: false }, "the Vandals intercept"),
        (Order::Retreat { side: vandals, to: "no-such-zone".into() }, "the Vandals retreat to no-such-zone"),
    ];
    for (order, words) in cases {
        assert_eq!(said(&order), words);
    }
    // A list that comes in from a side is refused in that side's words: it knows its own
    // leaders' names, and an id of the other side's it typed stays as typed.
    let intercept = Order::Intercept { side: byz(), leaders: path(&["belisarius", "gelimer"]), target: None, reconnaissance: false };
    let from_side = |side: &str| {
        Belisarius::summary(&c.state, &(), &intercept, &referee_campaign::Viewer::Side(referee_campaign::ids::SideId::new(side)))
    };
    assert_eq!(from_side("byzantines"), "the Byzantines intercept with Belisarius and gelimer");
    assert_eq!(said(&intercept), "the Byzantines intercept with Belisarius and Gelimer");
    store.execute(&mut c, &(), &place(&byz(), 1, "mare-africum"), DiceInput::Seeded).unwrap();
    assert_eq!(store.last_summary(c.id).unwrap().as_deref(), Some("place the Byzantines' set-up line 1 at African Sea"));
}
