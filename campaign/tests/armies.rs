//! MG-03, MG-05, MG-11: armies bought at the scenario's points, rosters hidden from the other
//! sides, movement points by composition.

use std::sync::OnceLock;

use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::army::{Army, CommandRoster, ElementGroup, Rank};
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::scenario::Scenario;
use referee_campaign::magna_graecia::view::side_view;
use referee_campaign::{Campaign, DiceInput, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::order::Order};

/// The built-in data, loaded once.
fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::load(&referee_data::DataSource::Embedded).unwrap_or_else(|e| panic!("{e}")))
}

fn sicily() -> &'static Map {
    catalog().map("sicily").unwrap()
}

/// A campaign of `scenario` in a store of its own, before its deployment.
fn created(scenario: &Scenario, name: &str, seed: u64) -> (Store, Campaign<MagnaGraecia>) {
    let mut store = Store::open_in_memory().unwrap();
    let campaign = store.create_as::<MagnaGraecia>(name, scenario, seed).unwrap();
    (store, campaign)
}

/// Gives a side's roster as `army`, with the refusal's text if it is refused.
fn set_army(store: &mut Store, campaign: &mut Campaign<MagnaGraecia>, army: Army) -> Result<(), String> {
    store.execute(campaign, sicily(), &Order::SetArmy { army }, DiceInput::Seeded).map(drop).map_err(|e| e.to_string())
}

fn command(name: &str, rank: Rank, general: &str, elements: &[&str]) -> CommandRoster {
    CommandRoster {
        name: name.to_owned(),
        rank,
        general: general.parse().unwrap(),
        elements: elements.iter().map(|e| e.parse::<ElementGroup>().unwrap()).collect(),
    }
}

/// MG-03: every side of every scenario has a default army of one C-in-C and a few commands,
/// costing no more than the scenario allows and not much less.
#[test]
fn mg_03_default_armies_fit_their_points() {
    let c = catalog();
    assert!(c.elements.reconstructed, "the points table is ours and must say so");
    for s in &c.scenarios {
        assert_eq!(s.armies.len(), s.sides.len(), "{}", s.id);
        for army in &s.armies {
            let allowed = s.side(&army.side).unwrap().army_points;
            let cost = c.elements.army_points(army);
            assert!(cost <= allowed && cost * 100 >= allowed * 95, "{} {}: {cost} of {allowed}", s.id, army.side);
            assert!(c.elements.check(army, allowed).is_empty());
            assert_eq!(army.commands.iter().filter(|c| c.rank == Rank::CInC).count(), 1);
            assert!((2..=4).contains(&army.commands.len()), "{} {}: {} commands", s.id, army.side, army.commands.len());
        }
    }
}

/// MG-03: a roster may be replaced before play, but never over the points, and a refused
/// roster changes nothing.
#[test]
fn mg_03_roster_replacement_is_checked() {
    let scenario = catalog().scenario("pyrrhic").unwrap();
    let (mut store, mut campaign) = created(scenario, "Rosters", 1);
    let pyrrhus = SideId::new("pyrrhus");
    let mut army: Army = campaign.state.armies[&pyrrhus].clone();
    army.commands[0].elements.push("30 Reg El(O)".parse().unwrap());
    let text = set_army(&mut store, &mut campaign, army).unwrap_err();
    assert!(text.contains("more than the 350 the scenario allows") && text.ends_with("— MG-03"), "{text}");
    assert_eq!(store.events_as::<MagnaGraecia>(campaign.id).unwrap().len(), 1);

    let small = Army {
        side: pyrrhus.clone(),
        list: "Pyrrhic, 278 BC".into(),
        note: String::new(),
        commands: vec![
            command("Pyrrhus", Rank::CInC, "Reg Kn(O)", &["12 Reg Pk(O)", "2 Reg Ps(O)"]),
            command("Milo", Rank::SubGeneral, "Reg Cv(O)", &["4 Reg LH(O)"]),
        ],
    };
    set_army(&mut store, &mut campaign, small.clone()).unwrap();
    assert_eq!(campaign.state.armies[&pyrrhus], small);
    // A roster typed as JSON needs no note, as an army file has none.
    let typed: Army = serde_json::from_str(
        r#"{"side":"pyrrhus","list":"Pyrrhic, 278 BC","commands":[{"name":"Pyrrhus","rank":"c-in-c","general":"Reg Kn(O)","elements":["12 Reg Pk(O)","2 Reg Ps(O)"]},{"name":"Milo","rank":"sub-general","general":"Reg Cv(O)","elements":["4 Reg LH(O)"]}]}"#,
    )
    .unwrap();
    assert_eq!(typed, small);

    let unknown = Army { commands: vec![command("Pyrrhus", Rank::CInC, "Reg Zz(O)", &[])], ..small.clone() };
    let err = set_army(&mut store, &mut campaign, unknown).unwrap_err();
    assert!(err.contains("Zz is not an element type"), "{err}");
    let two_chiefs = Army {
        commands: vec![small.commands[0].clone(), CommandRoster { name: "Other".into(), ..small.commands[0].clone() }],
        ..small.clone()
    };
    let err = set_army(&mut store, &mut campaign, two_chiefs).unwrap_err();
    assert!(err.contains("exactly one C-in-C, not 2"), "{err}");
    // The fleet's counter is called `fleet` in orders: no command may share the name.
    let fleet =
        Army { commands: vec![small.commands[0].clone(), CommandRoster { name: "Fleet".into(), ..small.commands[1].clone() }], ..small };
    let err = set_army(&mut store, &mut campaign, fleet).unwrap_err();
    assert!(err.starts_with("Pyrrhus' army cannot be fielded") && err.contains("a command may not be called Fleet"), "{err}");
}

/// MG-03: a side sees its own roster and none of the others'.
#[test]
fn mg_03_rosters_are_hidden_from_other_sides() {
    let map = sicily();
    for scenario in &catalog().scenarios {
        let (store, campaign) = created(scenario, "Hidden", 5);
        let events = store.events_as::<MagnaGraecia>(campaign.id).unwrap();
        for side in &scenario.move_order {
            let view = side_view(&campaign.state, map, &events, side).unwrap();
            let json = serde_json::to_string(&view).unwrap();
            for army in &scenario.armies {
                // A command named like a side or a place ("Pyrrhus") is public by that name.
                let public = |name: &str| scenario.sides.iter().any(|s| s.name == name) || map.nodes.values().any(|n| n.name == name);
                for cmd in army.commands.iter().filter(|c| !public(&c.name)) {
                    let quoted = format!("\"{}\"", cmd.name);
                    assert_eq!(json.contains(&quoted), &army.side == side, "{} seeing {}'s {}", side, army.side, cmd.name);
                }
            }
        }
    }
}

/// MG-11: only mounted and/or psiloi commands, with no elephants or expendables, have 2 MP.
#[test]
fn mg_11_movement_points_by_composition() {
    let t = &catalog().elements;
    let mp = |general: &str, elements: &[&str]| t.movement_points(&command("C", Rank::SubGeneral, general, elements));
    assert_eq!(mp("Reg Cv(O)", &["4 Irr LH(O)", "2 Reg Ps(O)"]), 2);
    assert_eq!(mp("Irr LH(O)", &[]), 2);
    assert_eq!(mp("Reg Cv(O)", &["4 Reg Sp(O)"]), 1);
    assert_eq!(mp("Reg Cv(O)", &["2 Reg El(O)"]), 1);
    assert_eq!(mp("Reg Cv(O)", &["2 Irr Exp(I)"]), 1);
    assert_eq!(mp("Reg Kn(O)", &["2 Reg Ps(S)"]), 2);
}

/// MG-37: a new season starts from where the last one ended: control, allied cities, armies
/// after their losses and fleets carry over for the sides both scenarios share.
#[test]
fn mg_37_a_scenario_continues_from_the_end_of_another() {
    let c = catalog();
    let map = sicily();
    let dionysian = c.scenario("dionysian").unwrap();
    let (mut store, mut first) = created(dionysian, "398 BC", 1);
    store
        .execute(
            &mut first,
            map,
            &Order::AdjustControl { node: referee_campaign::NodeId(9), side: Some(SideId::new("carthage")), reason: "taken".into() },
            DiceInput::Seeded,
        )
        .unwrap();
    let mut smaller = first.state.armies[&SideId::new("syracuse")].clone();
    smaller.commands.pop();
    set_army(&mut store, &mut first, smaller.clone()).unwrap();

    let next = dionysian.continued_from(&first.state).unwrap();
    let second = store.create_as::<MagnaGraecia>("397 BC", &next, 2).unwrap();
    let s = &second.state;
    assert_eq!(s.control[&referee_campaign::NodeId(9)], SideId::new("carthage"));
    assert_eq!(s.armies[&SideId::new("syracuse")], smaller);
    assert!(!next.side(&SideId::new("syracuse")).unwrap().controls.contains(&referee_campaign::NodeId(9)));
    assert!(next.summary.contains("Continued from “398 BC”"));

    // Pyrrhus is new in the Pyrrhic War: he lands at Messena as his scenario says, and
    // Syracuse, carried over, gives it up.
    let pyrrhic = c.scenario("pyrrhic").unwrap();
    let carried = pyrrhic.continued_from(&first.state).unwrap();
    assert_eq!(carried.side(&SideId::new("pyrrhus")).unwrap().controls, pyrrhic.side(&SideId::new("pyrrhus")).unwrap().controls);
    assert!(!carried.side(&SideId::new("syracuse")).unwrap().controls.contains(&referee_campaign::NodeId(28)));
    assert!(carried.side(&SideId::new("carthage")).unwrap().controls.contains(&referee_campaign::NodeId(9)));
}
