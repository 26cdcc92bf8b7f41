//! Writing a side's packet for play by e-mail: what the referee waits for at the end
//! of each side's turn. The Ostrogoths' packet of italy-535 at its start (the largest map and
//! Table of Organisation of the scenarios), written whole; beside it, in the same run, the
//! side's view and turn report built alone, which every packet starts from.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use referee_campaign::magna_graecia::catalog::Catalog;

fn referee(args: &[&str]) {
    let mut all = vec!["referee".to_owned()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    match referee::cli::run(all, &mut out, &mut err) {
        referee::cli::Launch::Exit(0) => {}
        _ => panic!("{args:?}: {}", String::from_utf8_lossy(&err)),
    }
}

/// italy-535 as it starts.
fn italy(db: &Path) {
    let db = db.to_str().unwrap();
    referee(&["--db", db, "new", "italy-535", "--name", "Italy", "--seed", "3"]);
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bench.sqlite");
    italy(&db);
    let catalog = Catalog::embedded();
    let mut store = referee_campaign::Store::open(&db).unwrap();
    let id = store.find("Italy").unwrap();
    let out = dir.path().join("ostrogoths.packet");
    let mut group = c.benchmark_group("packet");
    group.bench_function("write the Ostrogoths' packet of italy-535", |b| {
        b.iter(|| referee::packet::make(&mut store, id, &catalog, "ostrogoths", &out, true).unwrap());
    });
    group.bench_function("build the Ostrogoths' view and report alone", |b| {
        b.iter(|| {
            let opened = referee::reports::open(&store, id, &catalog).unwrap();
            opened.build(&referee_campaign::core::viewer::Viewer::Side(referee_campaign::SideId::new("ostrogoths"))).unwrap()
        });
    });
    group.finish();
    let bytes = std::fs::metadata(&out).unwrap().len();
    println!("packet: {bytes} bytes");
}

criterion_group!(benches, bench);
criterion_main!(benches);
