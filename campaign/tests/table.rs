//! Setting a battle's table: the attacker's edge from its road of entry and the defender's
//! section (MG-21), the weather and time of day (MG-22), the second day's shift (MG-25), and
//! a command its own side declares demoralised (MG-23).

use referee_campaign::core::log::DiceRolled;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::battle::{BattleResult, CommandLosses, Outcome};
use referee_campaign::magna_graecia::map::Edge;
use referee_campaign::magna_graecia::table::{Defence, Flank};
use referee_campaign::{DiceInput, magna_graecia::event::Event, magna_graecia::order::Order};

mod common;
use common::{Game, STANDARD, matching, side};

fn set(defence: Defence, cut: Option<Flank>, edge: Option<Edge>) -> Order {
    Order::SetUpTable { battle: 1, defence, cut, attacker_edge: edge }
}

fn result(outcome: Outcome, losses: Vec<CommandLosses>) -> Order {
    Order::RecordBattleResult {
        result: BattleResult { battle: 1, outcome, held_field: None, losses, open_roads: Default::default(), city_attacked_by: None },
    }
}

fn choose(s: &str, stay: bool) -> Order {
    Order::ChooseStayOrRetire { side: side(s), battle: 1, stay }
}

/// MG-21: Himilco marched in from Panormus, whose road leaves Himera's map by the west edge:
/// that is Carthage's base edge, and no other edge is accepted.
#[test]
fn mg_21_the_attacker_fights_from_the_edge_it_came_in_by() {
    let mut g = Game::himera(STANDARD);
    assert_eq!(g.map.node(referee_campaign::NodeId(8)).unwrap().battlefield.roads[&referee_campaign::NodeId(4)], Edge::West);
    g.refused(&set(Defence::Rear, None, Some(Edge::East)), "the attacker entered Himera by the west edge, not the east");
    g.ok(&set(Defence::Rear, Some(Flank::Left), None));
    let table = g.c.state.battle_table(1).unwrap().clone();
    assert_eq!((table.attacker_edge, table.defence, table.cut, table.day), (Edge::West, Defence::Rear, Some(Flank::Left), 1));
    g.refused(&set(Defence::Forward, None, None), "the table at Himera is already set for day 1");
    // Everyone sees the table: it is public, like the battle.
    let events = g.store.events_as::<MagnaGraecia>(g.c.id).unwrap();
    let view = referee_campaign::magna_graecia::view::side_view(&g.c.state, &g.map, &events, &side("syracuse")).unwrap();
    assert_eq!(view.board.battles[0].table.as_ref(), Some(&table));
    assert_eq!(view.board.battles[0].entry_edges, vec![Edge::West]);
    assert!(view.log.last().unwrap().text.contains("rear section, attacker's base edge west, 4'×6' table"), "{:?}", view.log.last());
}

/// MG-22: the weather and the time of day are two d6 rolls, logged with their rule, and the
/// referee can type in the physical dice.
#[test]
fn mg_22_weather_and_time_of_day_are_rolled_and_logged() {
    let mut g = Game::himera(STANDARD);
    let events = g.go(&set(Defence::Central, None, None), DiceInput::Manual(vec![1, 6])).unwrap();
    let rolls: Vec<_> = events.iter().filter_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) => roll.clone())).collect();
    assert_eq!(rolls.len(), 2);
    assert!(rolls.iter().all(|r| r.rule.as_deref() == Some("MG-22")));
    assert!(rolls[0].purpose.starts_with("weather, battle 1 at Himera"));
    let table = g.c.state.battle_table(1).unwrap();
    assert_eq!((table.weather.as_str(), table.time_of_day.as_str()), ("summer storm: rain", "late afternoon"));
    let public: Vec<referee_campaign::dice::PublicRoll> = rolls.iter().map(Into::into).collect();
    assert_eq!(table.rolls, public);
    assert!(table.rolls.iter().all(|r| r.typed_in));

    // Seeded, the same campaign rolls the same weather.
    let mut a = Game::himera(STANDARD);
    let mut b = Game::himera(STANDARD);
    a.ok(&set(Defence::Central, None, None));
    b.ok(&set(Defence::Central, None, None));
    assert_eq!(a.c.state.battle_table(1), b.c.state.battle_table(1));
}

/// MG-25: after both sides stay, the second day's table keeps the attacker's edge; the
/// defender may move the field toward its own rear, never toward the attacker.
#[test]
fn mg_25_the_second_day_shifts_only_toward_the_defenders_rear() {
    let mut g = Game::himera(STANDARD);
    g.ok(&set(Defence::Central, None, None));
    g.ok(&result(Outcome::NoResult {}, vec![]));
    g.refused(&set(Defence::Rear, None, None), "battle 1 waits for each side's choice to stay or retire");
    g.ok(&choose("syracuse", true));
    g.ok(&choose("carthage", true));
    assert_eq!(g.c.state.battles[0].day, 2);
    g.refused(&set(Defence::Forward, None, None), "the defender may shift the field only toward its own rear, not from central to forward");
    g.refused(&set(Defence::Rear, None, Some(Edge::North)), "the attacker keeps its base edge on the west");
    g.ok(&set(Defence::Rear, Some(Flank::Right), None));
    let t = g.c.state.battle_table(1).unwrap();
    assert_eq!((t.day, t.defence, t.attacker_edge, t.cut), (2, Defence::Rear, Edge::West, Some(Flank::Right)));

    // Staying where it was is allowed too.
    let mut h = Game::himera(STANDARD);
    h.ok(&set(Defence::Forward, None, None));
    h.ok(&result(Outcome::NoResult {}, vec![]));
    h.ok(&choose("syracuse", true));
    h.ok(&choose("carthage", true));
    h.ok(&set(Defence::Forward, None, None));
}

/// MG-21: an attacker that did not march in by road (here a city it already stood at) fights
/// from the edge the referee names, and must be given one.
#[test]
fn mg_21_an_attacker_that_came_by_no_road_is_given_its_edge() {
    let mut g = Game::deployed("dionysian", 9, STANDARD);
    g.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![referee_campaign::NodeId(7)] });
    g.end("carthage", DiceInput::Manual(vec![2]));
    // Hanno entered Entella by road this turn, so its edge is known.
    g.ok(&Order::AttackCity { side: side("carthage"), node: referee_campaign::NodeId(7), ally: side("syracuse") });
    let edges = referee_campaign::magna_graecia::table::entry_edges(&g.map, &g.c.state.battles[0]);
    assert_eq!(edges.len(), 1);
    g.ok(&set(Defence::Forward, None, None));
    assert_eq!(g.c.state.battle_table(1).unwrap().attacker_edge, edges[0]);

    // Landed from the sea at Himera: no road of entry.
    let mut s = Game::deployed("dionysian", 9, STANDARD);
    let mut battle = s.c.state.battles.first().cloned();
    assert!(battle.is_none());
    s.ok(&Order::Move { side: side("carthage"), counter: "Himilco".into(), path: vec![referee_campaign::NodeId(8)] });
    s.ok(&Order::EndPhase { side: side("carthage") });
    battle = s.c.state.battles.first().cloned();
    assert!(battle.is_some());
    let mut state = s.c.state.clone();
    state.battles[0].entries.iter_mut().for_each(|e| e.1 = None);
    assert!(referee_campaign::magna_graecia::table::entry_edges(&s.map, &state.battles[0]).is_empty());
    let set_up = |edge| {
        referee_campaign::magna_graecia::table::set_up_table(
            &state,
            &s.map,
            1,
            Defence::Forward,
            None,
            edge,
            &mut referee_campaign::Dice::manual([3, 3]),
        )
    };
    let err = set_up(None).unwrap_err();
    assert_eq!(err.to_string(), "the attacker did not come into Himera by road: name the edge it fights from — MG-21");
    let events = set_up(Some(Edge::North)).unwrap();
    assert!(matches!(events.last(), Some(Event::TableSet { table, .. }) if table.attacker_edge == Edge::North));
}

/// MG-23: a side may declare its own command demoralised; an allied command may not be.
#[test]
fn mg_23_only_a_sides_own_commands_are_declared_demoralised() {
    let deployment: Vec<(&str, &str, u8)> = STANDARD.iter().map(|&(s, c, n)| if c == "Agyris" { (s, c, 8) } else { (s, c, n) }).collect();
    let mut g = Game::himera(&deployment);
    let declared = |command: &str| CommandLosses {
        side: side("syracuse"),
        command: command.into(),
        destroyed: vec![],
        fled: vec![],
        general_killed: false,
        demoralised: false,
        voluntary: true,
        join: None,
    };
    let won = |l: CommandLosses| result(Outcome::Won { winner: side("carthage") }, vec![l]);
    g.refused(&won(declared("Agyris")), "Agyris is an allied command, and only a side's own commands may be declared demoralised — MG-23");
    let events = g.ok(&won(declared("Leptines")));
    let aftermath = events.iter().find_map(matching!(Event::BattleResolved { aftermath, .. } => aftermath.clone())).unwrap();
    assert!(aftermath.iter().any(|a| a.command == "Leptines" && a.demoralised && a.voluntary));
    let log = g.store.events_as::<MagnaGraecia>(g.c.id).unwrap();
    let view = referee_campaign::magna_graecia::view::side_view(&g.c.state, &g.map, &log, &side("carthage")).unwrap();
    assert!(view.log.iter().any(|l| l.text.contains("a Syracuse command was declared demoralised — MG-23")), "{:?}", view.log);
}
