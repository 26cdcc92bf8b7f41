//! The odds of a Belisarius battle (BE-17 … BE-23): 100,000 battles simulated on one core,
//! for a battle of the size the seed's armies fight (Belisarius's field army against a
//! Gothic host of twice the points), the sides breaking off at half their strength, and the
//! same battle after a melee whose losses are still owed. The goal is under a second; the
//! battle window and `referee odds` count 10,000, on a thread of their own in the window.

use criterion::{Criterion, criterion_group, criterion_main};
use referee_campaign::belisarius::odds::{Policy, Side, Start, simulate};
use referee_campaign::belisarius::pieces::{UnitKind, parse_units};
use referee_campaign::belisarius::tables::Tables;
use referee_campaign::ids::SideId;

fn side(id: &str, groups: &[(UnitKind, &str)], tactical: u8) -> Side {
    Side::fresh(SideId::new(id), groups.iter().flat_map(|(kind, text)| parse_units(*kind, text).unwrap()).collect(), tactical)
}

fn odds(c: &mut Criterion) {
    let tables = Tables::embedded();
    let sides = [
        side(
            "byzantines",
            &[
                (UnitKind::Cataphract, "2 x 2A"),
                (UnitKind::HeavyCavalry, "3 x 2B"),
                (UnitKind::LightCavalry, "2 x 1*C"),
                (UnitKind::Infantry, "3 x 2C, 2 x [1]*D"),
            ],
            3,
        ),
        side("ostrogoths", &[(UnitKind::HeavyCavalry, "6 x 3B"), (UnitKind::Infantry, "6 x 2C, 4 x 1*D")], 1),
    ];
    let start = Start::opening(sides, None, false);
    let policies = [Policy::AtLoss(50), Policy::AtLoss(50)];
    let mut group = c.benchmark_group("belisarius_odds");
    group.sample_size(10);
    group.bench_function("100k_battles", |b| b.iter(|| simulate(&tables, &start, policies, 100_000, 1)));
    group.bench_function("10k_battles_window", |b| b.iter(|| simulate(&tables, &start, policies, 10_000, 1)));
    // After a melee that cost the Goths a quarter of their strength, the losses not yet
    // shared out and the morale checks still owed: the count settles them first.
    let owed = referee_campaign::belisarius::fight::Owed { percent: 25, points: 12, from_cavalry: 0, check: Some(1), pursuit: false };
    let mid = Start { owed: [None, Some(owed)], checks: [None, Some(1)], stage: None, ..start.clone() };
    group.bench_function("10k_battles_losses_owed", |b| b.iter(|| simulate(&tables, &mid, policies, 10_000, 1)));
    group.finish();
}

criterion_group!(benches, odds);
criterion_main!(benches);
