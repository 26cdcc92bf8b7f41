//! MG-04 and MG-05: the commands a city fields, and the garrison of a strength-0 capital.

use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::view::side_view;
use referee_campaign::{Campaign, DiceInput, NodeId, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::order::Order};

fn side(id: &str) -> SideId {
    SideId::new(id)
}

fn start(catalog: &Catalog, scenario: &str) -> (Store, Campaign<MagnaGraecia>) {
    let mut store = Store::open_in_memory().unwrap();
    let campaign = store.create_as::<MagnaGraecia>("Cities", catalog.scenario(scenario).unwrap(), 2).unwrap();
    (store, campaign)
}

/// MG-05: a city fields 1–3 commands of 1 Irr Cv(I) general and 14 elements; capitals field
/// their scenario strength, and a scenario may set the number for a side's allied cities.
#[test]
fn mg_05_city_commands() {
    let catalog = Catalog::embedded();
    let map = catalog.map("sicily").unwrap();
    let (_, d) = start(&catalog, "dionysian");
    assert_eq!(d.state.city_command_count(map, NodeId(14)), Some(2), "Enna, from the map");
    assert_eq!(d.state.city_command_count(map, NodeId(0)), Some(0), "Motya, Carthage's capital of strength 0");
    assert_eq!(d.state.city_command_count(map, NodeId(10)), None, "Petra has no walls");
    let enna = d.state.city_forces(map, NodeId(14));
    assert_eq!(enna.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Enna 1", "Enna 2"]);
    assert!(enna.iter().all(|c| c.element_count() == 15 && c.general.to_string() == "Irr Cv(I)"));
    let (_, p) = start(&catalog, "second-punic");
    assert_eq!(p.state.city_command_count(map, NodeId(13)), Some(1), "Acragas, allied to Rome: 1 command");
    assert_eq!(p.state.city_command_count(map, NodeId(28)), Some(1), "Messena, Rome's capital");
    let (_, f) = start(&catalog, "first-punic");
    assert_eq!(f.state.city_command_count(map, NodeId(28)), Some(2));
    let view = side_view(&f.state, map, &[], &side("rome")).unwrap();
    assert_eq!(view.board.node(NodeId(28)).unwrap().city_commands, Some(2));
}

/// MG-04: at a capital of strength 0 a command leaves elements with the inherent
/// sub-general and takes them back; only its own side sees the garrison.
#[test]
fn mg_04_garrison_of_a_strength_0_capital() {
    let catalog = Catalog::embedded();
    let map = catalog.map("sicily").unwrap();
    let (mut store, mut c) = start(&catalog, "dionysian");
    let garrison = |command: &str, what: &str, into: bool| Order::Garrison {
        side: side("syracuse"),
        command: command.into(),
        elements: vec![what.parse().unwrap()],
        into_garrison: into,
    };
    let deploy = |s: &str, counter: &str, node: u8| Order::Deploy { side: side(s), counter: counter.into(), node: NodeId(node) };
    store.execute(&mut c, map, &deploy("syracuse", "Dionysius", 31), DiceInput::Seeded).unwrap();
    store.execute(&mut c, map, &deploy("syracuse", "Leptines", 8), DiceInput::Seeded).unwrap();
    store.execute(&mut c, map, &garrison("Dionysius", "4 Reg Sp(O)", true), DiceInput::Seeded).unwrap();
    assert_eq!(c.state.garrisons[&side("syracuse")].iter().map(ToString::to_string).collect::<Vec<_>>(), ["4 Reg Sp(O)"]);
    let dionysius = c.state.armies[&side("syracuse")].commands.iter().find(|x| x.name == "Dionysius").unwrap();
    assert!(dionysius.elements.iter().any(|e| e.to_string() == "2 Reg Sp(O)"));
    let refuse = |store: &mut Store, c: &mut Campaign<MagnaGraecia>, command: &Order, words: &str| {
        let err = store.execute(c, map, command, DiceInput::Seeded).unwrap_err().to_string();
        assert!(err.contains(words), "{err}");
    };
    refuse(&mut store, &mut c, &garrison("Leptines", "1 Reg Sp(O)", true), "Leptines must stand ashore at Syracuse");
    refuse(&mut store, &mut c, &garrison("Dionysius", "5 Reg Sp(O)", false), "the garrison has 4 Reg Sp(O) and cannot hand over 5");
    store.execute(&mut c, map, &garrison("Dionysius", "1 Reg Sp(O)", false), DiceInput::Seeded).unwrap();
    assert_eq!(c.state.garrisons[&side("syracuse")][0].count, 3);

    let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
    let own = side_view(&c.state, map, &events, &side("syracuse")).unwrap();
    assert_eq!(own.own.garrison.len(), 1);
    let carthage = side_view(&c.state, map, &events, &side("carthage")).unwrap();
    assert!(carthage.log.iter().all(|l| !l.text.contains("garrison")), "Carthage learns nothing of it, not even that it changed");
    let other = serde_json::to_string(&carthage).unwrap();
    assert!(!other.contains("\"3 Reg Sp(O)\"") && !other.contains("Dionysius"), "{other}");

    let (mut store, mut p) = start(&catalog, "pyrrhic");
    store
        .execute(&mut p, map, &Order::Deploy { side: side("pyrrhus"), counter: "Pyrrhus".into(), node: NodeId(28) }, DiceInput::Seeded)
        .unwrap();
    let err = store
        .execute(
            &mut p,
            map,
            &Order::Garrison {
                side: side("pyrrhus"),
                command: "Pyrrhus".into(),
                elements: vec!["1 Reg Kn(O)".parse().unwrap()],
                into_garrison: true,
            },
            DiceInput::Seeded,
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("Pyrrhus has no capital of strength 0") && err.ends_with("MG-04"), "{err}");
}
