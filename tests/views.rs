//! a side's view — and so every screen and export built from it — holds nothing that
//! side may not know: not the dice seed, not secret rolls of others, not the umpire's notes
//! or reasons, not another side's forces.

use proptest::prelude::*;
use referee_campaign::core::log::{AddNote, RollDice};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::view::{side_view, umpire_view};
use referee_campaign::{DiceInput, DiceSpec, ExecError, NodeId, SideId, Store, magna_graecia::order::Order};
use referee_e2e::{catalog, sicily};

const SEED: u64 = 9_876_543_210_123;

#[derive(Debug, Clone)]
enum Step {
    SecretRoll(Option<usize>),
    PublicRoll,
    Note,
    Control(u8, Option<usize>),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        prop::option::of(0usize..3).prop_map(Step::SecretRoll),
        Just(Step::PublicRoll),
        Just(Step::Note),
        (0u8..32, prop::option::of(0usize..3)).prop_map(|(n, s)| Step::Control(n, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn x_01_side_views_never_leak(
        scenario in prop::sample::select(vec!["dionysian", "pyrrhic", "first-punic", "second-punic"]),
        steps in prop::collection::vec(step(), 1..30),
    ) {
        let scenario = catalog().scenario(scenario).unwrap();
        let sides: Vec<SideId> = scenario.move_order.clone();
        let side_at = |i: usize| sides[i % sides.len()].clone();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<MagnaGraecia>("Leak test", scenario, SEED).unwrap();
        // Marker text for each secret, and who may read it (None: the umpire only).
        let mut secrets: Vec<(String, Option<SideId>)> = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            let command = match step {
                Step::SecretRoll(side) => {
                    let side = side.map(side_at);
                    secrets.push((format!("SECRET-ROLL-{i}-END"), side.clone()));
                    Order::RollDice(RollDice { dice: DiceSpec::D6, purpose: format!("SECRET-ROLL-{i}-END"), side, hidden: true, modifiers: vec![] })
                }
                Step::PublicRoll => Order::RollDice(RollDice { dice: DiceSpec::D6, purpose: format!("public{i}"), side: None, hidden: false, modifiers: vec![] }),
                Step::Note => {
                    secrets.push((format!("NOTE-{i}-END"), None));
                    Order::AddNote(AddNote { text: format!("NOTE-{i}-END") })
                }
                Step::Control(n, side) => {
                    secrets.push((format!("REASON-{i}-END"), None));
                    Order::AdjustControl { node: NodeId(*n), side: side.map(side_at), reason: format!("REASON-{i}-END") }
                }
            };
            // The rules may refuse a step (a node given to the side that holds it already);
            // the store must not fail.
            if let Err(e) = store.execute(&mut c, sicily(), &command, DiceInput::Seeded) {
                prop_assert!(matches!(e, ExecError::Rule(_)), "the store failed: {}", e);
            }
        }
        // Deploy every counter where it may go, so the views have counters to hide.
        let setups = c.state.scenario.sides.clone();
        for setup in &setups {
            let mut names: Vec<String> = c.state.armies[&setup.id].commands.iter().map(|x| x.name.clone()).collect();
            names.push("fleet".to_owned());
            for name in names {
                for node in sicily().nodes.keys() {
                    let deploy = Order::Deploy { side: setup.id.clone(), counter: name.clone(), node: *node };
                    if store.execute(&mut c, sicily(), &deploy, DiceInput::Seeded).is_ok() {
                        break;
                    }
                }
            }
        }
        let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
        let umpire = serde_json::to_string(&umpire_view(&c.state, sicily(), &events)).unwrap();
        for side in &sides {
            let view = side_view(&c.state, sicily(), &events, side).unwrap();
            let json = serde_json::to_string(&view).unwrap();
            let text: String = view.log.iter().map(|l| l.text.clone() + "\n").collect();
            prop_assert!(!json.contains(&SEED.to_string()), "{side} sees the seed");
            prop_assert_eq!(json.matches("army_points").count(), 1, "{} sees another side's army", side);
            prop_assert_eq!(&view.own.side, side);
            // MG-03: other sides' counters are marks without names or make-up.
            for army in c.state.armies.values().filter(|a| &a.side != side) {
                for command in &army.commands {
                    let public = scenario.sides.iter().any(|s| s.name == command.name);
                    prop_assert!(public || !json.contains(&format!("\"{}\"", command.name)), "{} sees {}", side, command.name);
                    prop_assert!(!text.contains(&command.name) || public, "{} reads {} in the log", side, command.name);
                }
            }
            prop_assert_eq!(view.board.counters.len(), c.state.counters.len());
            for (marker, reader) in &secrets {
                let visible = events.iter().any(|e| serde_json::to_string(&e.event).unwrap().contains(marker));
                if !visible {
                    continue; // the command was refused, so the secret never existed
                }
                prop_assert!(umpire.contains(marker.as_str()), "the umpire misses {}", marker);
                let may = reader.as_ref() == Some(side);
                prop_assert_eq!(json.contains(marker.as_str()), may, "{} and {}: {}", side, marker, text);
            }
        }
    }
}

/// the other sides' counters come in the order the table shows them — by side, node and
/// kind — never in the order they were set up, which would give each a lasting number that
/// follows it round the map.
#[test]
fn x_01_counters_carry_no_order_of_their_own() {
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Order", catalog().scenario("dionysian").unwrap(), 3).unwrap();
    let syracuse = SideId::new("syracuse");
    for (counter, node) in [("Dionysius", 31), ("fleet", 31), ("Leptines", 8), ("Thearides", 22), ("Agyris", 10)] {
        let deploy = Order::Deploy { side: syracuse.clone(), counter: counter.into(), node: NodeId(node) };
        store.execute(&mut c, sicily(), &deploy, DiceInput::Seeded).unwrap();
    }
    let view = side_view(&c.state, sicily(), &[], &SideId::new("carthage")).unwrap();
    let seen: Vec<(u8, bool)> = view.board.counters.iter().map(|m| (m.node.0, m.fleet)).collect();
    assert_eq!(seen, [(8, false), (10, false), (22, false), (31, false), (31, true)]);
}

/// a view followed order by order — only each order's new events described —
/// is the view built from the whole story, for the umpire and for each side, through
/// deployment, play, secret and public rolls, and undos.
#[test]
fn x_03_a_followed_view_is_the_view_of_the_whole_story() {
    use referee_campaign::Viewer;
    use referee_campaign::fixtures::{DIONYSIAN, deploy_orders};
    use referee_campaign::magna_graecia::view::{Followed, view_for};
    use referee_campaign::store::numbered;

    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Followed", catalog().scenario("dionysian").unwrap(), 13).unwrap();
    let viewers = [Viewer::Umpire, Viewer::Side(SideId::new("carthage")), Viewer::Side(SideId::new("syracuse"))];
    let mut followed: Vec<Followed> = viewers
        .iter()
        .map(|v| Followed::new(&c.state, sicily(), store.events_as::<MagnaGraecia>(c.id).unwrap(), v.clone()).unwrap())
        .collect();
    let roll = |purpose: &str, hidden: bool| {
        Order::RollDice(RollDice {
            dice: DiceSpec::D6,
            purpose: purpose.into(),
            side: Some(SideId::new("syracuse")),
            hidden,
            modifiers: vec![],
        })
    };
    let mut orders = deploy_orders(&DIONYSIAN);
    orders.push(Order::BeginPlay {});
    orders.extend([roll("a secret", true), roll("a public one", false), Order::EndPhase { side: SideId::new("carthage") }]);
    for (i, order) in orders.iter().enumerate() {
        let events = store.execute(&mut c, sicily(), order, DiceInput::Seeded).unwrap_or_else(|e| panic!("{order:?}: {e}"));
        let stored = numbered(&c, events);
        for f in &mut followed {
            f.advance(&c.state, sicily(), stored.clone());
        }
        if i % 3 == 2 {
            store.undo(&mut c).unwrap();
            for f in &mut followed {
                f.undo(&c.state, sicily());
            }
            store
                .execute(&mut c, sicily(), order, DiceInput::Seeded)
                .map(|e| numbered(&c, e))
                .map(|stored| {
                    for f in &mut followed {
                        f.advance(&c.state, sicily(), stored.clone());
                    }
                })
                .unwrap();
        }
        let all = store.events_as::<MagnaGraecia>(c.id).unwrap();
        for f in &followed {
            assert_eq!(f.events, all, "after {order:?}");
            assert_eq!(Some(&f.view), view_for(&c.state, sicily(), &all, &f.viewer).as_ref(), "{:?} after {order:?}", f.viewer);
        }
    }
}

/// a campaign's history turn by turn, as a side may know it: a sample at the
/// start, at every turn's end and for the turn under way; every side's victory points and
/// nodes held (public), the side's own strength and losses and no one else's; and its last
/// sample the side's view now. The umpire's holds every side's strength.
#[test]
fn x_04_a_sides_history_holds_its_own_forces_and_what_is_public() {
    use referee_campaign::core::history::{Measure, history};
    use referee_campaign::magna_graecia::engine::MagnaGraecia;
    use referee_campaign::magna_graecia::view::{View, view_for};
    let played = referee_e2e::play::play("pyrrhic", 3, false);
    let cut = played.events.len() * 2 / 3;
    let events = &played.events[..cut];
    let state = referee_campaign::magna_graecia::state::CampaignState::replay(events.iter().map(|l| &l.event)).unwrap();
    let map = sicily();
    let carthage = SideId::new("carthage");
    let viewer = referee_campaign::Viewer::Side(carthage.clone());
    let h = history::<MagnaGraecia>(events, map, &viewer).unwrap();
    let turns: Vec<u32> = h.samples.iter().map(|s| s.turn).collect();
    assert_eq!(turns, (0..=state.turn).collect::<Vec<_>>(), "start, each turn's end, the turn under way");
    assert_eq!(h.samples[0].label, "start");
    for sample in &h.samples {
        for r in &sample.readings {
            if matches!(r.measure, Measure::Strength | Measure::Losses) {
                assert_eq!(r.side.as_ref(), Some(&carthage), "{}: another side's {:?} reached Carthage", sample.label, r.measure);
            }
        }
        let vp = sample.readings.iter().filter(|r| r.measure == Measure::VictoryPoints).count();
        assert_eq!(vp, 3, "every side's victory points are public");
    }
    let Some(View::Side(now)) = view_for(&state, map, &[], &viewer) else { panic!("Carthage's view") };
    let last = h.samples.last().unwrap();
    let value = |m: Measure, side: &SideId| last.readings.iter().find(|r| r.measure == m && r.side.as_ref() == Some(side)).unwrap().value;
    assert_eq!(value(Measure::Strength, &carthage), f64::from(now.own.elements()));
    assert_eq!(value(Measure::Losses, &carthage), f64::from(now.own.elements_lost));
    for (side, v) in &now.board.victory {
        assert_eq!(value(Measure::VictoryPoints, side), f64::from(v.total));
    }
    let charts = h.charts();
    let strength = charts.iter().find(|c| c.measure == Measure::Strength).unwrap();
    assert_eq!(strength.series.len(), 1);
    assert_eq!(strength.series[0].points.len(), h.samples.len());
    let umpire = history::<MagnaGraecia>(events, map, &referee_campaign::Viewer::Umpire).unwrap().charts();
    let strength = umpire.iter().find(|c| c.measure == Measure::Strength).unwrap();
    assert_eq!(strength.series.len(), 3, "the umpire's charts hold every side");

    // The campaign played out: its last sample is the end of its last turn, not of a turn
    // past it (the counter moves on as the campaign ends, MG-32).
    let whole = history::<MagnaGraecia>(&played.events, map, &viewer).unwrap();
    let end = referee_campaign::magna_graecia::state::CampaignState::replay(played.events.iter().map(|l| &l.event)).unwrap();
    let last = whole.samples.last().unwrap();
    let last_turn = end.turn.min(end.scenario.turns);
    assert_eq!((last.turn, last.label.as_str()), (last_turn, format!("end of turn {last_turn}").as_str()));
    assert_eq!(whole.samples.iter().filter(|s| s.turn == last_turn).count(), 1);
}
