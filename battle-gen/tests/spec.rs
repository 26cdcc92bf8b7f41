//! The engine-neutral battle description: what a side's `BattleSpec` may hold, that the
//! packs written from the specs are the packs the campaign gets, the tabletop systems,
//! and a tabletop result back as Magna Graecia's order (MG-20).

mod support;

use referee_battle_gen::dbsa::{Scaling, SideScaling};
use referee_battle_gen::magna_graecia::{result_order, side_spec, umpire_spec};
use referee_battle_gen::pack::{PackFile, PackOptions};
use referee_battle_gen::spec::{BattleSpec, Role, UmpireSpec};
use referee_battle_gen::tabletop::{FieldScope, LineResult, SideResult, TableOutcome, TabletopResult};
use referee_battle_gen::{Paper, TabletopSystem, campaign_pack, spec_pack};
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::army::ElementGroup;
use referee_campaign::magna_graecia::battle::{BattleResult, CommandLosses, Outcome};
use referee_campaign::magna_graecia::event::Logged;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::view::{side_view, umpire_view};
use referee_campaign::store::{Campaign, DiceInput};
use support::{carthage, himera, syracuse};

fn spec_of(c: &Campaign<MagnaGraecia>, map: &Map, side: &SideId) -> BattleSpec {
    let view = side_view(&c.state, map, &[], side).unwrap();
    side_spec(&view, map, &c.state.scenario.elements, 1).unwrap()
}

fn umpire_of(c: &Campaign<MagnaGraecia>, map: &Map, events: &[Logged]) -> UmpireSpec {
    umpire_spec(&umpire_view(&c.state, map, events), map, &c.state.scenario.elements, 1).unwrap()
}

/// a side's spec is built from its view only. Changing the enemy's forces, which its
/// view does not hold, changes nothing of it, to the byte; the enemy's own spec and the
/// umpire's do change, so the change was one that mattered.
#[test]
fn x_01_a_sides_battle_spec_holds_only_its_view() {
    for table in [false, true] {
        let (_, mut c, map, events) = himera(table);
        let before = serde_json::to_string(&spec_of(&c, &map, &carthage())).unwrap();
        let syracuse_before = serde_json::to_string(&spec_of(&c, &map, &syracuse())).unwrap();
        let umpire_before = serde_json::to_string(&umpire_of(&c, &map, &events)).unwrap();
        for name in ["Leptines", "Agyris"] {
            assert!(syracuse_before.contains(name), "Syracuse's own spec names its {name}");
            assert!(!before.contains(name), "Carthage's spec names the enemy's {name}: {before}");
        }

        let army = c.state.armies.get_mut(&syracuse()).unwrap();
        for command in &mut army.commands {
            command.elements.push("7 Reg Kn(S)".parse::<ElementGroup>().unwrap());
            command.elements.remove(0);
        }
        let after = serde_json::to_string(&spec_of(&c, &map, &carthage())).unwrap();
        assert_eq!(before, after, "Carthage's spec moved with Syracuse's hidden forces");
        assert!(!after.contains("Kn(S)"), "{after}");
        assert_ne!(syracuse_before, serde_json::to_string(&spec_of(&c, &map, &syracuse())).unwrap());
        assert_ne!(umpire_before, serde_json::to_string(&umpire_of(&c, &map, &events)).unwrap());
    }
}

/// what a side's spec says of the enemy is what its view says: the enemy sides by name
/// with their counters at the place, and the allied city with its number of commands.
#[test]
fn x_01_a_sides_spec_sees_the_enemy_as_counters_only() {
    let (_, c, map, _) = himera(true);
    let spec = spec_of(&c, &map, &carthage());
    assert_eq!(spec.side.role, Role::Attacker);
    assert_eq!(spec.own.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["Himilco", "Mago"]);
    assert_eq!(spec.enemy.sides.len(), 1);
    assert_eq!((spec.enemy.sides[0].name.as_str(), spec.enemy.sides[0].counters), ("Syracuse", 2));
    assert!(spec.friends.is_empty());
    assert_eq!(
        spec.head.sides.iter().map(|s| (s.id.as_str(), s.role)).collect::<Vec<_>>(),
        [("carthage", Role::Attacker), ("syracuse", Role::Defender)]
    );
    let table = spec.ground.table.as_ref().expect("the table is set");
    assert_eq!((table.width_feet, table.depth_feet), (6.0, 4.0));
    assert!(spec.base_edge.is_some() && spec.ground.section.is_some());
    assert!(spec.own.iter().all(|l| l.count == 1 + l.groups.iter().map(|g| g.count).sum::<u32>() && l.points > 0));
}

/// the pack written from the specs is the campaign's pack, file for file, page for page
/// and word for word, in both systems, before and after the table is set. (Not byte for
/// byte within one process: two makings of the same umpire's file in one process differ in
/// their bytes already, from the PDF library; from one process to the next they are the same.)
#[test]
fn x_04_the_pack_from_the_specs_is_the_campaigns_pack() {
    for table in [false, true] {
        let (_, c, map, events) = himera(table);
        let umpire = umpire_of(&c, &map, &events);
        let sides = [spec_of(&c, &map, &syracuse()), spec_of(&c, &map, &carthage())];
        for system in [TabletopSystem::Dbm, TabletopSystem::Dbsa] {
            let options = PackOptions { system, paper: Paper::Letter, ..PackOptions::default() };
            let from_specs = spec_pack(&umpire, &sides, &options).unwrap();
            let from_campaign = campaign_pack(&c.state, &map, &events, 1, &options).unwrap();
            assert_eq!(from_specs.len(), from_campaign.len());
            for (a, b) in from_specs.iter().zip(&from_campaign) {
                assert_eq!((&a.file_name, &a.reader, a.pages), (&b.file_name, &b.reader, b.pages), "{system:?}, table set: {table}");
                let text = |f: &PackFile| referee_battle_gen::pdf::extract_text(&f.bytes).unwrap();
                assert_eq!(text(a), text(b), "{}: {system:?}, table set: {table}", a.file_name);
            }
        }
    }
}

/// the tabletop systems. DBM fields every element and scales nothing; under DBSA's
/// per-battle scaling each side's roster lines add up to its own table size, and the sides'
/// scalings are what the umpire's side works out from both.
#[test]
fn x_04_tabletop_systems_give_rosters_and_result_fields() {
    let (_, c, map, events) = himera(true);
    let umpire = umpire_of(&c, &map, &events);
    let dbm = TabletopSystem::Dbm.tabletop(Scaling::default(), Default::default());
    let dbsa = TabletopSystem::Dbsa.tabletop(Scaling::PerBattle { elements: 12 }, Default::default());
    assert_eq!((dbm.name(), dbsa.name()), ("DBM", "DBSA"));
    assert_eq!(dbm.scale_battle(&umpire.sides), [SideScaling::OneToOne, SideScaling::OneToOne]);
    let scales = dbsa.scale_battle(&umpire.sides);
    for (side, scaling) in umpire.sides.iter().zip(&scales) {
        let all: u32 = side.troops.iter().map(|l| l.count).sum();
        let dbm_lines = dbm.roster_lines(&side.side.name, &side.troops, SideScaling::OneToOne);
        assert_eq!(dbm_lines.iter().map(|l| l.count).sum::<u32>(), all);
        let lines = dbsa.roster_lines(&side.side.name, &side.troops, *scaling);
        let SideScaling::PerBattle { elements } = scaling else { panic!("{scaling:?}") };
        assert_eq!(lines.iter().map(|l| l.count).sum::<u32>(), *elements, "{}", side.side.name);
        assert_eq!(lines.iter().filter(|l| l.general).count(), 1);
    }
    for t in [&dbm, &dbsa] {
        let fields = t.result_fields();
        for key in ["outcome", "held_field", "destroyed", "fled", "general_killed", "open_exits"] {
            assert!(fields.iter().any(|f| f.key == key), "{} has no {key} field", t.name());
        }
        assert!(fields.iter().any(|f| f.scope == FieldScope::Group));
        let scale = t.table_scale(&umpire.ground);
        assert_eq!(scale.table_feet, Some((6.0, 4.0)));
        assert!(scale.deployment_feet.is_some());
    }
}

/// MG-20: a tabletop result becomes the `RecordBattleResult` order the result form builds for
/// the same entries, and the rules take it.
#[test]
fn mg_20_a_tabletop_result_becomes_the_forms_order() {
    let (mut store, mut c, map, events) = himera(true);
    let board = umpire_view(&c.state, &map, &events).board;
    let himilco = c.state.armies[&carthage()].commands.iter().find(|r| r.name == "Himilco").unwrap().clone();
    let first = &himilco.elements[0];
    let neighbours: Vec<NodeId> = map.neighbours(NodeId(8)).collect();
    assert!(neighbours.len() >= 2);
    let open: Vec<NodeId> = neighbours[1..].to_vec();
    let result = TabletopResult {
        battle: 1,
        outcome: TableOutcome::Won { winner: syracuse() },
        held_field: None,
        sides: vec![
            SideResult {
                side: carthage(),
                lines: vec![
                    LineResult {
                        line: "Himilco".into(),
                        destroyed: vec![referee_battle_gen::spec::TroopGroup { count: 2, kind: first.spec.to_string() }],
                        general_killed: true,
                        joins: Some("Mago".into()),
                        ..LineResult::default()
                    },
                    LineResult { line: "Mago".into(), demoralised: true, declared_demoralised: true, ..LineResult::default() },
                ],
                open_exits: Some(open.iter().map(ToString::to_string).collect()),
                attacked_neutral: false,
            },
            SideResult {
                side: syracuse(),
                // Nothing lost, and a winner's roads are not asked for.
                lines: vec![LineResult { line: "Leptines".into(), ..LineResult::default() }],
                open_exits: Some(Vec::new()),
                attacked_neutral: false,
            },
        ],
    };
    let command = result_order(&result, &board, &map).unwrap();
    let expected = Order::RecordBattleResult {
        result: BattleResult {
            battle: 1,
            outcome: Outcome::Won { winner: syracuse() },
            held_field: None,
            losses: vec![
                CommandLosses {
                    side: carthage(),
                    command: "Himilco".into(),
                    destroyed: vec![ElementGroup { count: 2, spec: first.spec.clone() }],
                    fled: Vec::new(),
                    general_killed: true,
                    demoralised: false,
                    voluntary: false,
                    join: Some("Mago".into()),
                },
                CommandLosses {
                    side: carthage(),
                    command: "Mago".into(),
                    destroyed: Vec::new(),
                    fled: Vec::new(),
                    general_killed: false,
                    demoralised: true,
                    voluntary: true,
                    join: None,
                },
            ],
            open_roads: [(carthage(), open)].into_iter().collect(),
            city_attacked_by: None,
        },
    };
    assert_eq!(command, expected);
    store.execute(&mut c, &map, &command, DiceInput::Seeded).expect("the rules take the order");

    // Every road open is what the rules assume: the form lists none, and neither does this.
    let mut all_open = result.clone();
    all_open.sides[0].open_exits = Some(neighbours.iter().map(ToString::to_string).collect());
    let Order::RecordBattleResult { result: r } = result_order(&all_open, &board, &map).unwrap() else { unreachable!() };
    assert!(r.open_roads.is_empty());
    // Himera's city is Syracuse's ally, not neutral: no attack on it is recorded.
    all_open.sides[0].attacked_neutral = true;
    let Order::RecordBattleResult { result: r } = result_order(&all_open, &board, &map).unwrap() else { unreachable!() };
    assert_eq!(r.city_attacked_by, None);
    // A kind that is not the campaign's notation is refused, in words.
    let mut bad = result;
    bad.sides[0].lines[0].destroyed[0].kind = "two spearmen".into();
    let e = result_order(&bad, &board, &map).unwrap_err();
    assert!(e.to_string().starts_with("Himilco: "), "{e}");
}

/// MG-05, X-04: a city's army fighting beside the reader under a friendly side's command is
/// named in the reader's brief — by name, commands and who commands it — and is not listed as
/// the reader's own. (Syracuse's brief at Himera, had Himera been allied to a third side
/// fighting with Syracuse, as Catana is to Syracuse when Pyrrhus fights beside it.)
#[test]
fn mg_05_a_city_army_beside_the_reader_under_an_allys_command_is_in_its_brief() {
    let (_, c, map, _) = himera(true);
    let mut view = side_view(&c.state, &map, &[], &syracuse()).unwrap();
    let own_before = side_spec(&view, &map, &c.state.scenario.elements, 1).unwrap().own.len();
    let italiots = SideId::new("italiots");
    let mut third = view.board.sides[0].clone();
    (third.id, third.name, third.capital) = (italiots.clone(), "Italiots".to_owned(), None);
    view.board.sides.push(third);
    view.board.alliances.push((syracuse(), italiots.clone()));
    let himera = view.board.nodes.iter_mut().find(|n| n.id == NodeId(8)).unwrap();
    himera.allied_to = Some(italiots);
    let commands = himera.city_commands.unwrap();
    // The city is the Italiots' ally, so Syracuse's own forces no longer hold its commands.
    let city_lines = view.own.allied_city_commands.remove(&1).map_or(0, |c| c.len());
    assert!(city_lines > 0, "the test needs Himera's army in Syracuse's forces to begin with");
    let spec = side_spec(&view, &map, &c.state.scenario.elements, 1).unwrap();
    assert_eq!(spec.friendly_cities.len(), 1);
    let city = &spec.friendly_cities[0];
    assert_eq!((city.name.as_str(), city.commands, city.commanded_by.as_str()), ("Himera", u32::from(commands), "Italiots"));
    assert_eq!(spec.own.len(), own_before - city_lines, "the city's commands are not Syracuse's own");
    // In the brief's words.
    let files = spec_pack(&umpire_of(&c, &map, &[]), &[spec.clone(), spec_of(&c, &map, &carthage())], &PackOptions::default());
    let syracuse_file = files.unwrap().into_iter().find(|f| f.file_name.ends_with("-syracuse.pdf")).unwrap();
    let text = referee_battle_gen::pdf::extract_text(&syracuse_file.bytes).unwrap().join("\n");
    assert!(
        text.contains(&format!("Beside you: the army of Himera, {commands} command")) && text.contains("commanded by Italiots"),
        "{text}"
    );
}
