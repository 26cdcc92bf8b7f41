//! One whole campaign turn of the three-sided First Punic War: every side moves each of its
//! counters, ends its phases (alliance rolls at the end of movement), and the next side
//! follows. Measured through the rules alone, and through the store (one transaction per
//! command, in memory). Sieges and battle results are not in the engine yet.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::turn::FLEET;
use referee_campaign::{
    Campaign, Dice, DiceInput, NodeId, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::map::Map,
    magna_graecia::order::Order, magna_graecia::rules, magna_graecia::state::CampaignState,
};

const DEPLOYMENT: &[(&str, &str, u8)] = &[
    ("carthage", "Hanno", 1),
    ("carthage", "Hannibal", 13),
    ("carthage", "Hamilcar", 16),
    ("carthage", "Zelalsan", 14),
    ("carthage", FLEET, 1),
    ("rome", "Appius Claudius Caudex", 28),
    ("rome", "Gaius Claudius", 28),
    ("rome", "Quintus Caedicius", 28),
    ("rome", "Marcus Calpurnius Flamma", 28),
    ("rome", FLEET, 28),
    ("syracuse", "Hiero", 31),
    ("syracuse", "Leptines", 23),
    ("syracuse", "Artemon", 21),
    ("syracuse", FLEET, 31),
];

fn deployed(catalog: &Catalog) -> (Store, Campaign<MagnaGraecia>) {
    let map = catalog.map("sicily").unwrap();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Bench", catalog.scenario("first-punic").unwrap(), 3).unwrap();
    for &(side, counter, node) in DEPLOYMENT {
        let deploy = Order::Deploy { side: SideId::new(side), counter: counter.into(), node: NodeId(node) };
        store.execute(&mut c, map, &deploy, DiceInput::Seeded).unwrap();
    }
    store.execute(&mut c, map, &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
    (store, c)
}

/// The orders of a whole turn: each side moves every counter to its first legal
/// destination, then ends its three phases.
fn turn_orders(state: &CampaignState, map: &Map) -> Vec<Order> {
    let mut state = state.clone();
    let mut orders = Vec::new();
    let apply = |state: &mut CampaignState, command: Order, orders: &mut Vec<Order>| {
        let mut dice = Dice::seeded(state.seed, state.stream_pos);
        if let Ok(events) = rules::decide(state, map, &command, &mut dice) {
            for e in &events {
                state.apply(e).unwrap();
            }
            orders.push(command);
        }
    };
    for _ in 0..state.scenario.move_order.len() {
        let side = state.moving_side().clone();
        let names: Vec<String> = state.counters.iter().filter(|c| c.side == side).map(|c| c.name.clone()).collect();
        for name in names {
            if let Some(path) = state.destinations(map, &side, &name).into_values().next() {
                apply(&mut state, Order::Move { side: side.clone(), counter: name, path }, &mut orders);
            }
        }
        for _ in 0..3 {
            apply(&mut state, Order::EndPhase { side: side.clone() }, &mut orders);
        }
    }
    orders
}

fn bench(c: &mut Criterion) {
    let catalog = Catalog::embedded();
    let map = catalog.map("sicily").unwrap().clone();
    let (_, start) = deployed(&catalog);
    let orders = turn_orders(&start.state, &map);
    assert!(orders.len() > 15, "a whole turn has moves and phase ends: {}", orders.len());

    let mut group = c.benchmark_group("one turn of the First Punic War");
    group.bench_function("rules only", |b| {
        b.iter(|| {
            let mut state = start.state.clone();
            for command in &orders {
                let mut dice = Dice::seeded(state.seed, state.stream_pos);
                for e in rules::decide(&state, &map, command, &mut dice).unwrap() {
                    state.apply(&e).unwrap();
                }
            }
            state
        });
    });
    group.bench_function("rules and store", |b| {
        b.iter_batched(
            || deployed(&catalog),
            |(mut store, mut campaign)| {
                for command in &orders {
                    store.execute(&mut campaign, &map, command, DiceInput::Seeded).unwrap();
                }
                campaign
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
