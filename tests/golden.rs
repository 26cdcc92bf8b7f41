//! MG-09 and the turn rules: a scripted game of each scenario over several turns, its log
//! (as the umpire reads it) kept as an insta snapshot in tests/snapshots/golden__<scenario>.snap.
//! A change of behaviour shows up as a diff there and fails the test.
//!
//! A missing or different snapshot always fails: insta writes the new log beside it as a
//! `.snap.new` file (not on CI, where nothing is written). After a deliberate change of the
//! rules, look the new logs over and accept them with `cargo insta review` (from
//! `cargo install cargo-insta`), or rewrite them all at once with
//! `INSTA_UPDATE=always cargo test -p referee-e2e --test golden` and read the diff before
//! committing it.

use referee_campaign::fixtures::won_outright;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::scenario::DeployArea;
use referee_campaign::magna_graecia::turn::{FLEET, Phase, STACK_LIMIT};
use referee_campaign::magna_graecia::view::umpire_view;
use referee_campaign::{DiceInput, NodeId, SideId, Store, magna_graecia::order::Order};
use referee_e2e::{scenario, sicily};

const TURNS: u32 = 4;

/// Deploys every counter at the lowest-numbered node it may use (the first command at the
/// node the scenario requires), then plays `TURNS` turns in which each counter makes the
/// first legal move that keeps clear of enemies.
fn scripted_log(id: &str) -> String {
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Golden", scenario(id), 1_000 + u64::from(id.len() as u8)).unwrap();
    let map = sicily();
    let sides = c.state.scenario.sides.clone();
    for setup in sides.iter().filter(|s| !matches!(s.deploy.area, DeployArea::Landing)) {
        let mut names: Vec<String> = c.state.armies[&setup.id].commands.iter().map(|x| x.name.clone()).collect();
        if setup.fleet_np > 0 {
            names.push(FLEET.to_owned());
        }
        for (i, name) in names.into_iter().enumerate() {
            let mut nodes = c.state.deploy_nodes(map, &setup.id, &name);
            if let (0, Some(at)) = (i, setup.deploy.command_at) {
                nodes.insert(0, at);
            }
            let node = nodes
                .into_iter()
                .find(|&n| {
                    name == FLEET
                        || c.state.counters.iter().filter(|x| x.side == setup.id && x.on_land() && x.node == n).count() < STACK_LIMIT
                })
                .unwrap_or_else(|| panic!("{id}: nowhere to deploy {name}"));
            let deploy = Order::Deploy { side: setup.id.clone(), counter: name, node };
            store.execute(&mut c, map, &deploy, DiceInput::Seeded).unwrap();
        }
    }
    store.execute(&mut c, map, &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
    while c.state.turn <= TURNS && c.state.phase != Phase::Ended {
        let side: SideId = c.state.moving_side().clone();
        if c.state.phase == Phase::Movement {
            let landing = c.state.scenario.side(&side).is_some_and(|s| matches!(s.deploy.area, DeployArea::Landing));
            let mut names: Vec<String> = c.state.armies[&side].commands.iter().map(|x| x.name.clone()).collect();
            names.push(FLEET.to_owned());
            for name in names {
                if landing && c.state.turn == 1 {
                    let south = map.nodes.values().filter(|n| n.south_coast).map(|n| n.id).collect::<Vec<NodeId>>();
                    for node in south {
                        let land = Order::Land { side: side.clone(), counter: name.clone(), node };
                        if store.execute(&mut c, map, &land, DiceInput::Seeded).is_ok() {
                            break;
                        }
                    }
                    continue;
                }
                let state = &c.state;
                let clear = |n: &NodeId| !state.counters.iter().any(|x| x.node == *n && state.are_enemies(&side, &x.side));
                let crowded =
                    |n: &NodeId| state.counters.iter().filter(|x| x.side == side && x.on_land() && x.node == *n).count() >= STACK_LIMIT;
                let path = state
                    .destinations(map, &side, &name)
                    .into_iter()
                    .find(|(n, path)| path.iter().all(clear) && (name == FLEET || !crowded(n)))
                    .map(|(_, path)| path);
                if let Some(path) = path {
                    let mv = Order::Move { side: side.clone(), counter: name, path };
                    store.execute(&mut c, map, &mv, DiceInput::Seeded).unwrap();
                }
            }
        }
        // The script keeps clear of enemy counters; a city allied to an enemy meets the
        // marchers with its own commands (MG-10), and they beat it.
        if c.state.phase == Phase::Combat {
            let won: Vec<_> = c.state.battles.iter().map(|b| won_outright(b.id, b.attacker.as_str())).collect();
            for result in won {
                store.execute(&mut c, map, &Order::RecordBattleResult { result }, DiceInput::Seeded).unwrap();
            }
        }
        store.execute(&mut c, map, &Order::EndPhase { side }, DiceInput::Seeded).unwrap();
    }
    let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
    umpire_view(&c.state, map, &events).log.iter().map(|l| format!("{:>4}  {}\n", l.seq, l.text)).collect()
}

fn check(id: &str) {
    insta::assert_snapshot!(id, scripted_log(id));
}

#[test]
fn mg_09_golden_dionysian() {
    check("dionysian");
}

#[test]
fn mg_09_golden_pyrrhic() {
    check("pyrrhic");
}

#[test]
fn mg_09_golden_first_punic() {
    check("first-punic");
}

#[test]
fn mg_09_golden_second_punic() {
    check("second-punic");
}
