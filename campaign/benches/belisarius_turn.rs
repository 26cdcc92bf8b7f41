//! A whole Belisarius turn through the store (BE-02 … BE-45): the first turn of the
//! Reconquest of Africa and of the first reconquest of Italy as a script plays it — the
//! supply phase and its losses, the chits drawn, each side activating its
//! leaders with troops one by one and marching each a zone, the interceptions answered and
//! the battles fought in the program, the losses shared out as the program suggests — each
//! order one transaction on an in-memory database. The orders are found once, then replayed
//! on a fresh campaign for every measurement.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use referee_campaign::Store;
use referee_campaign::belisarius::battle::{Step, retreats, roster};
use referee_campaign::belisarius::fight::suggested_share;
use referee_campaign::belisarius::operations::attrition_share;
use referee_campaign::belisarius::operations::zone_of;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Phase, PieceKind, State};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::store::{Campaign, DiceInput};

fn share(state: &State, side: &referee_campaign::ids::SideId, owed: &referee_campaign::belisarius::fight::Owed) -> Order {
    let b = state.ops.as_ref().unwrap().battle.as_ref().unwrap();
    let f: Vec<_> = roster(state, b.force(side).unwrap()).iter().map(|u| u.fighter).collect();
    let losses = suggested_share(&f, owed).into_iter().map(|(i, p)| (u32::try_from(i + 1).unwrap(), p)).collect();
    Order::TakeLosses { side: side.clone(), losses, militia: 0 }
}

/// The next order of the script, or `None` when the phase is over.
fn next(state: &State) -> Option<Order> {
    let ops = state.ops.as_ref()?;
    if state.phase != Phase::Operations {
        return None;
    }
    if let Some(b) = &ops.battle {
        return Some(match &b.step {
            Step::Roll => Order::Fight {},
            Step::Decide => Order::BreakOff { side: b.forces[1].side.clone() },
            Step::Losses { owed, taken } => {
                let (s, o) = owed.iter().find(|(s, o)| o.points > 0 && !taken.contains(*s))?;
                share(state, s, o)
            }
            Step::Pursuit { side, owed } => share(state, side, owed),
            Step::Retreat { side } => {
                let (to, _) = retreats(state, b, side).into_iter().find(|(_, ok)| ok.is_ok())?;
                Order::Retreat { side: side.clone(), to: to.id().to_owned() }
            }
        });
    }
    if let Some(due) = &ops.attrition {
        return Some(Order::TakeLosses { side: due.side.clone(), losses: attrition_share(state, due), militia: 0 });
    }
    if let Some(c) = &ops.contact {
        let side = c.turn_of.clone();
        return Some(Order::Decline { side });
    }
    let side = ops.segment.clone();
    match ops.active.clone().filter(|a| a.side == side) {
        Some(a) if !ops.moved.contains_key(&a.leader) && !ops.halted.contains(&a.leader) => {
            let here = zone_of(state, &a.at)?;
            let n = state.setup.map.zone(&here)?.neighbours.first()?.clone();
            Some(Order::Move { side, leader: a.leader, path: vec![n.0], attrition_from: vec![] })
        }
        _ => {
            let leader = state.pieces_of(&side).find_map(|p| match &p.kind {
                PieceKind::Leader { leader, units } if !units.is_empty() && !ops.activated.contains(leader) && !p.at.is_sea() => {
                    Some(leader.clone())
                }
                _ => None,
            });
            Some(match leader.filter(|_| ops.left(&side) > 0) {
                Some(leader) => Order::Activate { side, leader, with: vec![] },
                None => Order::Pass { side },
            })
        }
    }
}

/// Scenario `id` set up, each free line placed whole at the first place the rules allow,
/// play begun.
fn fresh(id: &str) -> (Store, Campaign<Belisarius>) {
    let setup = World::embedded().setup(id).unwrap();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<Belisarius>("Bench", &setup, 7).unwrap();
    loop {
        let due = c.state.lines_due.iter().find_map(|(s, d)| d.first().map(|l| (s.clone(), l.rest.clone())));
        let Some((side, line)) = due else { break };
        let at = c.state.setup.free_places(&side, &line).into_iter().next().expect("somewhere to place the line");
        store.execute(&mut c, &(), &referee_campaign::fixtures::belisarius::place(&side, 1, at.id()), DiceInput::Seeded).unwrap();
    }
    store.execute(&mut c, &(), &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
    (store, c)
}

/// The script's orders for the turn, found once; a refused order is replaced by a pass.
fn turn_orders(id: &str) -> Vec<Order> {
    let (mut store, mut c) = fresh(id);
    // The events phase of a summer or winter (BE-47), the supply phase, its losses shared
    // out as suggested, then the operations.
    let mut orders = Vec::new();
    if referee_campaign::belisarius::random_events::pending(&c.state) {
        store.execute(&mut c, &(), &Order::PlayEvents {}, DiceInput::Seeded).unwrap();
        orders.push(Order::PlayEvents {});
    }
    store.execute(&mut c, &(), &Order::CheckSupply {}, DiceInput::Seeded).unwrap();
    orders.push(Order::CheckSupply {});
    while let Some(due) = c.state.supply_dues.first() {
        let side = due.force.side.clone();
        let (losses, militia) = referee_campaign::belisarius::supply::suggested_share(&c.state, &side).unwrap();
        let take = Order::TakeLosses { side, losses, militia };
        store.execute(&mut c, &(), &take, DiceInput::Seeded).unwrap();
        orders.push(take);
    }
    orders.push(Order::BeginOperations {});
    store.execute(&mut c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
    while let Some(order) = next(&c.state) {
        let order = match store.execute(&mut c, &(), &order, DiceInput::Seeded) {
            Ok(_) => order,
            Err(_) => {
                let side = c.state.ops.as_ref().unwrap().segment.clone();
                let pass = Order::Pass { side };
                store.execute(&mut c, &(), &pass, DiceInput::Seeded).unwrap();
                pass
            }
        };
        orders.push(order);
        assert!(orders.len() < 400, "the scripted turn never ends");
    }
    orders.push(Order::EndTurn {});
    orders
}

fn turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("belisarius_turn");
    group.sample_size(20);
    for id in ["africa-533", "italy-535"] {
        let orders = turn_orders(id);
        group.bench_function(format!("{id}_turn_1_{}_orders_through_the_store", orders.len()), |b| {
            b.iter_batched(
                || fresh(id),
                |(mut store, mut c)| {
                    for o in &orders {
                        store.execute(&mut c, &(), o, DiceInput::Seeded).unwrap();
                    }
                },
                BatchSize::LargeInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, turn);
criterion_main!(benches);
