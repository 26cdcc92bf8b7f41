//! One order's round trip as the app makes it — the order decided and stored, then the view on
//! screen brought up to date — in a campaign of 500 events and in one of 50,000. The view
//! follows the campaign (only the order's new events are described), so the two should cost
//! about the same. The orders timed are undone in batches, untimed, so the campaign keeps
//! its length.

use referee_campaign::magna_graecia::MagnaGraecia;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use referee_campaign::belisarius::order::Order as BelisariusOrder;
use referee_campaign::belisarius::view::Followed as BelisariusFollowed;
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::magna_graecia::view::Followed;
use referee_campaign::store::numbered;
use referee_campaign::{DiceInput, SideId, Store, Viewer, magna_graecia::catalog::Catalog, magna_graecia::order::Order};

const SIZES: [u64; 2] = [500, 50_000];

/// Orders timed one after the other before they are all undone (untimed), so that the
/// campaign stays within `BATCH` events of its size however many are timed.
const BATCH: u64 = 200;

/// Undoes the orders given since the campaign was `BATCH` events shorter, and the view with them.
fn take_back<E: referee_campaign::core::engine::Engine>(
    store: &mut Store,
    campaign: &mut referee_campaign::Campaign<E>,
    mut follow: impl FnMut(&referee_campaign::Campaign<E>),
) {
    for _ in 0..BATCH {
        store.undo(campaign).unwrap();
        follow(campaign);
    }
}

fn roll(i: u64) -> Order {
    Order::RollDice(referee_campaign::fixtures::benchmark_roll(i, "carthage"))
}

fn belisarius_roll(i: u64) -> BelisariusOrder {
    BelisariusOrder::RollDice(referee_campaign::fixtures::benchmark_roll(i, if i.is_multiple_of(2) { "byzantines" } else { "ostrogoths" }))
}

fn magna_graecia(c: &mut Criterion, dir: &std::path::Path) {
    let catalog = Catalog::embedded();
    let scenario = catalog.scenario("dionysian").unwrap();
    let map = catalog.map("sicily").unwrap();
    let mut group = c.benchmark_group("order round trip, Magna Graecia");
    for size in SIZES {
        let mut store = Store::open(&dir.join(format!("magna-graecia-{size}.sqlite"))).unwrap();
        let mut campaign = store.create_as::<MagnaGraecia>(&format!("{size} events"), scenario, 7).unwrap();
        let mut i = 0;
        while campaign.head < size {
            let batch: Vec<Order> = (i..i + (size - campaign.head).min(1000)).map(roll).collect();
            i += batch.len() as u64;
            store.execute_all(&mut campaign, map, &batch).unwrap();
        }
        let events = store.events_as::<MagnaGraecia>(campaign.id).unwrap();
        let mut live = Followed::new(&campaign.state, map, events, Viewer::Side(SideId::new("carthage"))).unwrap();
        group.bench_function(format!("{size} events: store the order, follow the view"), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for n in 0..iters {
                    let started = Instant::now();
                    let stored = store.execute(&mut campaign, map, &roll(i + n), DiceInput::Seeded).unwrap();
                    live.advance(&campaign.state, map, numbered(&campaign, stored));
                    spent += started.elapsed();
                    if campaign.head >= size + BATCH {
                        take_back(&mut store, &mut campaign, |c| live.undo(&c.state, map));
                    }
                }
                spent
            });
        });
        // What following saves: reading the whole story back and describing all of it.
        let viewer = Viewer::Side(SideId::new("carthage"));
        group.bench_function(format!("{size} events: reading every event again and rebuilding the view"), |b| {
            b.iter(|| {
                let events = store.events_as::<MagnaGraecia>(campaign.id).unwrap();
                referee_campaign::magna_graecia::view::view_for(&campaign.state, map, &events, &viewer).unwrap()
            });
        });
    }
    group.finish();
}

fn belisarius(c: &mut Criterion, dir: &std::path::Path) {
    let setup = World::embedded().setup("italy-535").unwrap();
    let mut group = c.benchmark_group("order round trip, Belisarius");
    for size in SIZES {
        let mut store = Store::open(&dir.join(format!("belisarius-{size}.sqlite"))).unwrap();
        let mut campaign = store.create_as::<Belisarius>(&format!("Belisarius, {size} events"), &setup, 7).unwrap();
        let mut i = 0;
        while campaign.head < size {
            let batch: Vec<BelisariusOrder> = (i..i + (size - campaign.head).min(1000)).map(belisarius_roll).collect();
            i += batch.len() as u64;
            store.execute_all(&mut campaign, &(), &batch).unwrap();
        }
        let events = store.events_as::<Belisarius>(campaign.id).unwrap();
        let mut live = BelisariusFollowed::new(&campaign.state, &(), events, Viewer::Umpire).unwrap();
        group.bench_function(format!("{size} events: store the order, follow the view"), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for n in 0..iters {
                    let started = Instant::now();
                    let stored = store.execute(&mut campaign, &(), &belisarius_roll(i + n), DiceInput::Seeded).unwrap();
                    live.advance(&campaign.state, &(), numbered(&campaign, stored));
                    spent += started.elapsed();
                    if campaign.head >= size + BATCH {
                        take_back(&mut store, &mut campaign, |c| live.undo(&c.state, &()));
                    }
                }
                spent
            });
        });
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    // A file per campaign, as a referee keeps them.
    let dir = tempfile::tempdir().unwrap();
    magna_graecia(c, dir.path());
    belisarius(c, dir.path());
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
