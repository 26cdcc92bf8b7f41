//! Opening a campaign of 5,000 events, beside a raw SELECT of the same rows in the same run.
//!
//! Three numbers: opening with snapshots (the last one ~1,000 events back, close to the worst
//! case), opening by replaying all 5,000 events (no snapshot), and the raw read of the
//! event rows that either way must at least do.

use criterion::{Criterion, criterion_group, criterion_main};
use referee_campaign::belisarius::order::Order as BelisariusOrder;
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::log::AddNote;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::{CampaignId, DiceInput, NodeId, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::order::Order};

const EVENTS: u64 = 5_000;

fn fill(store: &mut Store, catalog: &Catalog, name: &str, snapshot_every: u64) -> CampaignId {
    store.set_snapshot_every(snapshot_every);
    let scenario = catalog.scenario("dionysian").unwrap();
    let map = catalog.map("sicily").unwrap();
    let mut c = store.create_as::<MagnaGraecia>(name, scenario, 7).unwrap();
    let mut i = 0u64;
    while c.head < EVENTS {
        let command = if i.is_multiple_of(4) {
            let to = if c.state.control.contains_key(&NodeId(6)) { None } else { Some(SideId::new("syracuse")) };
            Order::AdjustControl { node: NodeId(6), side: to, reason: format!("benchmark correction {i}") }
        } else {
            Order::RollDice(referee_campaign::fixtures::benchmark_roll(i, "carthage"))
        };
        store.execute(&mut c, map, &command, DiceInput::Seeded).unwrap();
        i += 1;
    }
    c.id
}

/// A Belisarius campaign of italy-535 with `EVENTS` events: rolls for each side, some secret,
/// and the referee's notes.
fn fill_belisarius(store: &mut Store, world: &World, name: &str, snapshot_every: u64) -> CampaignId {
    store.set_snapshot_every(snapshot_every);
    let setup = world.setup("italy-535").unwrap();
    let mut c = store.create_as::<Belisarius>(name, &setup, 7).unwrap();
    let mut i = 0u64;
    while c.head < EVENTS {
        let order = if i.is_multiple_of(5) {
            BelisariusOrder::AddNote(AddNote { text: format!("benchmark note {i}") })
        } else {
            BelisariusOrder::RollDice(referee_campaign::fixtures::benchmark_roll(
                i,
                if i.is_multiple_of(2) { "byzantines" } else { "ostrogoths" },
            ))
        };
        store.execute(&mut c, &(), &order, DiceInput::Seeded).unwrap();
        i += 1;
    }
    c.id
}

fn bench(c: &mut Criterion) {
    let catalog = Catalog::embedded();
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("bench.sqlite")).unwrap();
    let snapshotted = fill(&mut store, &catalog, "with snapshots", 1001);
    let replayed = fill(&mut store, &catalog, "no snapshots", 0);

    let mut group = c.benchmark_group("open 5000 events");
    group.bench_function("raw SELECT of the event rows", |b| b.iter(|| raw_read(&store, replayed)));
    group.bench_function("Store::load with snapshots", |b| b.iter(|| store.load_as::<MagnaGraecia>(snapshotted).unwrap()));
    group.bench_function("Store::load replaying every event", |b| b.iter(|| store.load_as::<MagnaGraecia>(replayed).unwrap()));
    group.finish();

    let world = World::embedded();
    let snapshotted = fill_belisarius(&mut store, &world, "Belisarius with snapshots", 1001);
    let replayed = fill_belisarius(&mut store, &world, "Belisarius, no snapshots", 0);
    let mut group = c.benchmark_group("open 5000 Belisarius events");
    group.bench_function("raw SELECT of the event rows", |b| b.iter(|| raw_read(&store, replayed)));
    group.bench_function("Store::load_any with snapshots", |b| b.iter(|| store.load_any(snapshotted).unwrap()));
    group.bench_function("Store::load_any replaying every event", |b| b.iter(|| store.load_any(replayed).unwrap()));
    group.finish();
}

/// The event rows of a campaign, read and touched, and nothing more: what opening it must do
/// at the least.
fn raw_read(store: &Store, campaign: CampaignId) -> usize {
    let mut stmt =
        store.connection().prepare_cached("SELECT seq, command_seq, kind, body FROM events WHERE campaign_id = ?1 ORDER BY seq").unwrap();
    let mut rows = stmt.query([campaign.0]).unwrap();
    let mut bytes = 0usize;
    while let Some(row) = rows.next().unwrap() {
        let seq: i64 = row.get(0).unwrap();
        let command: i64 = row.get(1).unwrap();
        bytes += row.get_ref(2).unwrap().as_str().unwrap().len() + row.get_ref(3).unwrap().as_str().unwrap().len();
        bytes += usize::try_from(seq + command).unwrap_or(0) & 1;
    }
    bytes
}

criterion_group!(benches, bench);
criterion_main!(benches);
