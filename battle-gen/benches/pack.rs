//! One whole battle pack: the umpire's sheet, and for each side its brief, roster and the
//! table section, as PDFs, for the battle of Himera in the Dionysian War (Himilco marched
//! from Panormus onto Leptines). Goal: under 50 ms and under 200 KB. The hex wargames'
//! packs (their scenario, hex map, counter sheets and tables, and the two map files) are
//! timed beside DBM's and DBSA's.

use criterion::{Criterion, criterion_group, criterion_main};
use referee_battle_gen::pack::PackOptions;
use referee_battle_gen::{TabletopSystem, campaign_pack};
use referee_campaign::fixtures::{DIONYSIAN, deploy_orders, moved};
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::event::Logged;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::table::{Defence, Flank};
use referee_campaign::store::{Campaign, DiceInput, Store};

fn himera(catalog: &Catalog) -> (Campaign<MagnaGraecia>, Map, Vec<Logged>) {
    let map = catalog.map("sicily").unwrap().clone();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Bench", catalog.scenario("dionysian").unwrap(), 9).unwrap();
    let mut go = |c: &mut Campaign<MagnaGraecia>, command: Order| {
        store.execute(c, &map, &command, DiceInput::Seeded).unwrap();
    };
    // The usual deployment but for Agyris, who stands at Himera with Leptines.
    for order in deploy_orders(&moved(&DIONYSIAN, "syracuse", "Agyris", 8)) {
        go(&mut c, order);
    }
    go(&mut c, Order::BeginPlay {});
    go(&mut c, Order::Move { side: SideId::new("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] });
    go(&mut c, Order::Move { side: SideId::new("carthage"), counter: "Mago".into(), path: vec![NodeId(8)] });
    go(&mut c, Order::EndPhase { side: SideId::new("carthage") });
    go(&mut c, Order::SetUpTable { battle: 1, defence: Defence::Central, cut: Some(Flank::Left), attacker_edge: None });
    let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
    (c, map, events)
}

fn pack(c: &mut Criterion) {
    let catalog = Catalog::embedded();
    let (campaign, map, events) = himera(&catalog);
    let mut group = c.benchmark_group("battle_pack");
    for system in [TabletopSystem::Dbm, TabletopSystem::Dbsa, TabletopSystem::ArsBellum, TabletopSystem::ALaCharge] {
        let options = PackOptions { system, ..PackOptions::default() };
        let files = campaign_pack(&campaign.state, &map, &events, 1, &options).unwrap();
        let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
        let pages: usize = files.iter().map(|f| f.pages).sum();
        println!("{} pack: {} files, {pages} pages, {bytes} bytes ({:.0} KB)", system.name(), files.len(), bytes as f64 / 1024.0);
        group.bench_function(system.name(), |b| b.iter(|| campaign_pack(&campaign.state, &map, &events, 1, &options).unwrap()));
    }
    group.finish();
}

criterion_group!(benches, pack);
criterion_main!(benches);
