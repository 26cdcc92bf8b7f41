//! A Belisarius battle sent to the tabletop in DBM or DBSA (BE-17, BE-22, BE-53): the table
//! drawn to scale over the zone's city, the side that marched in on the edge it came in by,
//! a road off the table to every neighbouring zone, each brief naming its base edge and the
//! roads behind it, and the pack speaking of this campaign's rules only.

use referee_battle_gen::TabletopSystem;
use referee_battle_gen::belisarius::{Conversion, table_section, zone_ground};
use referee_battle_gen::pack::{PackFile, PackOptions, Reader};
use referee_battle_gen::pdf::extract_text;
use referee_campaign::Store;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::map::ZoneId;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::Location;
use referee_campaign::belisarius::tables::Interception;
use referee_campaign::magna_graecia::map::Edge;
use referee_campaign::store::{Campaign, DiceInput};
use referee_e2e::staging::{byz, goths, hold, run, stage};

fn zone(id: &str) -> ZoneId {
    ZoneId(id.to_owned())
}

/// Italy in 535: Bessas marches from Campania into Lucania, where Uraias stands in the open
/// and the Goths hold Grumentum; the Goths intercept and the battle, in line, goes to the
/// table. Campania and Bruttii are Byzantine. `bessas` and `uraias` are their units.
fn lucania(bessas: &str, uraias: &str) -> (Store, Campaign<Belisarius>) {
    let (mut store, mut c) = referee_e2e::staging::italy_under_vitiges("ap-d", [6, 1]);
    stage(
        &mut c,
        &[(byz(), "bessas", bessas, Location::Zone(zone("campania"))), (goths(), "uraias", uraias, Location::Zone(zone("lucania")))],
    );
    hold(&mut c, &zone("lucania"), &goths());
    for z in ["campania", "bruttii"] {
        c.state.control.insert(zone(z), byz());
    }
    c.state.control.insert(zone("lucania"), goths());
    run(&mut store, &mut c, &Order::Activate { side: byz(), leader: "bessas".into(), with: vec![] }, DiceInput::Seeded);
    let march = Order::Move { side: byz(), leader: "bessas".into(), path: vec!["lucania".into()], attrition_from: vec![] };
    run(&mut store, &mut c, &march, DiceInput::Manual(vec![1]));
    let rating = |id: &str| i32::from(c.state.setup.leader(id).unwrap().strategic);
    let difference = rating("uraias") - rating("bessas");
    // Lucania is mountains: the die counts one less (BE-14).
    let die = (1..=6u8)
        .find(|d| c.state.setup.tables.interception(difference, (i32::from(*d) - 1).max(1), 0) == Interception::LineOfBattle)
        .expect("a die that gives a battle in line");
    let intercept = Order::Intercept { side: goths(), leaders: vec!["uraias".into()], target: None, reconnaissance: false };
    run(&mut store, &mut c, &intercept, DiceInput::Manual(vec![die]));
    run(&mut store, &mut c, &Order::SendToTable {}, DiceInput::Seeded);
    (store, c)
}

fn pack(store: &Store, c: &Campaign<Belisarius>, system: TabletopSystem) -> Vec<PackFile> {
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let elements = referee_campaign::magna_graecia::catalog::Catalog::embedded().elements;
    let options = PackOptions { system, ..Default::default() };
    referee_battle_gen::belisarius::campaign_pack(&c.state, &events, &elements, &Conversion::embedded(), &options).unwrap()
}

fn text(f: &PackFile) -> Vec<String> {
    extract_text(&f.bytes).unwrap()
}

fn file<'a>(files: &'a [PackFile], reader: &Reader) -> &'a PackFile {
    files.iter().find(|f| &f.reader == reader).unwrap()
}

/// BE-17, BE-22: at Lucania the Byzantines, marching in from Campania, enter by the edge the
/// road from Campania leaves by; the table lies over Grumentum; every one of Lucania's
/// neighbours — Campania and Bruttii behind the Byzantines included — has a road off it,
/// named on the table page and in each brief's list of roads.
#[test]
fn be_17_be_22_the_table_lies_over_the_city_with_a_road_to_every_neighbour() {
    let (store, c) = lucania("4B 4B 3C", "3B 3C");
    let battle = c.state.ops.as_ref().and_then(|o| o.battle.as_ref()).unwrap();
    assert_eq!(battle.came_from, Some(Location::Zone(zone("campania"))), "the battle keeps the way the Byzantines came in");
    let setup = &c.state.setup;
    let ground = zone_ground(setup, &zone("lucania")).unwrap();
    let neighbours: Vec<String> =
        setup.map.zone(&zone("lucania")).unwrap().neighbours.iter().map(|n| setup.map.zone(n).unwrap().name.clone()).collect();
    assert!(neighbours.len() >= 5 && neighbours.iter().any(|n| n == "Campania") && neighbours.iter().any(|n| n == "Bruttii"));
    for n in &neighbours {
        assert!(ground.roads.iter().any(|r| &r.to_name == n), "Lucania's ground has no road to {n}");
    }
    let from_campania = ground.roads.iter().find(|r| r.to_name == "Campania").unwrap().edge;
    for system in [TabletopSystem::Dbm, TabletopSystem::Dbsa] {
        let files = pack(&store, &c, system);
        for f in &files {
            let pages = text(f);
            let table = pages.iter().find(|p| p.contains("day 1: the table")).unwrap_or_else(|| {
                panic!("{}: no table page in {pages:#?}", f.file_name);
            });
            assert!(table.contains("over Grumentum") && table.contains("Grumentum"), "{table}");
            assert!(table.contains(&format!("attacker's base edge {}", from_campania.name())), "{table}");
            assert!(table.contains("attacker's base: Byzantines") && table.contains("defender's base: Ostrogoths"), "{table}");
            assert!(table.contains("1 ft = ") && table.contains("scale 1 :"), "a table to scale: {table}");
            assert!(table.contains("deployment zone"), "{table}");
            for n in &neighbours {
                assert!(table.contains(&format!("to {n}")), "{}: the table page has no road to {n}: {table}", f.file_name);
            }
            // Nothing on the table page or anywhere else of Magna Graecia's rules.
            let all = pages.join("\n");
            assert!(!all.contains("MG-"), "{}: cites a Magna Graecia rule: {all}", f.file_name);
            assert!(!all.contains("defender has chosen"), "{}", f.file_name);
        }
        for (side, edge) in [(byz(), from_campania), (goths(), from_campania.opposite())] {
            let brief = text(file(&files, &Reader::Side(side.clone()))).join("\n");
            let base = format!("Your base edge:\nthe {} edge of the table; deploy", edge.name());
            assert!(brief.contains(&base), "{side}: {brief}");
            for n in &neighbours {
                assert!(brief.contains(n), "{side}: the brief's roads leave out {n}: {brief}");
            }
        }
        let byzantine = text(file(&files, &Reader::Side(byz()))).join("\n").replace('\n', " ");
        assert!(byzantine.contains("behind you") && byzantine.contains("Campania (held by Byzantines)"), "{byzantine}");
        // Every side may retire by every road here: the umpire's sheet lists them once.
        let umpire = text(file(&files, &Reader::Umpire)).join("\n");
        assert_eq!(umpire.matches("Roads off the table, the same for every side").count(), 1, "{umpire}");
        assert!(!umpire.contains("Roads off the table for"), "{umpire}");
    }
}

/// BE-17: the table is 6' wide while the larger army fields no more than 400 DBM points, 8'
/// above; either way it lies on the zone's map with the city on it, 4' deep.
#[test]
fn be_17_the_table_is_sized_from_the_armies() {
    let (small, c_small) = lucania("4B 3C", "3B");
    let (large, c_large) = lucania("5A 5A 5A 5A 5A 5A 4B 4B 4B 4B", "5A 5A 5A 5A 5A 4B 4B 4B 4B 3C");
    let table = |store: &Store, c: &Campaign<Belisarius>| {
        let files = pack(store, c, TabletopSystem::Dbm);
        text(file(&files, &Reader::Umpire)).join("\n")
    };
    let small = table(&small, &c_small);
    let large = table(&large, &c_large);
    assert!(small.contains("6'×4' table over Grumentum") && small.contains("no more than 400 DBM points"), "{small}");
    assert!(large.contains("8'×4' table over Grumentum") && large.contains("more than 400 DBM points"), "{large}");
    let setup = &c_small.state.setup;
    for z in &setup.map.zones {
        let ground = zone_ground(setup, &z.id).unwrap();
        let city = referee_battle_gen::ground::centroid(&ground.settlement.as_ref().unwrap().outline);
        for edge in Edge::ALL {
            for width in [6.0, 8.0] {
                let r = table_section(&ground, edge, width).rect;
                let (w, d) =
                    if matches!(edge, Edge::North | Edge::South) { (r.width_feet, r.height_feet) } else { (r.height_feet, r.width_feet) };
                assert!((w - width).abs() < 1e-4 && (d - 4.0).abs() < 1e-4, "{} {edge:?}: {r:?}", z.name);
                assert!(r.x_feet >= 0.0 && r.y_feet >= 0.0 && r.x_feet + r.width_feet <= 8.0 && r.y_feet + r.height_feet <= 8.0);
                let inside =
                    city.0 > r.x_feet && city.0 < r.x_feet + r.width_feet && city.1 > r.y_feet && city.1 < r.y_feet + r.height_feet;
                assert!(inside, "{}: the city is off the {edge:?} table {r:?}", z.name);
                // With the city on the table, every road leaves by a side of it.
                let exits = referee_battle_gen::ground::road_exits(&ground, r);
                assert_eq!(exits.len(), ground.roads.len(), "{} {edge:?}: a road never reaches the table", z.name);
            }
        }
    }
}

/// DS-06, BE-17: DBSA scales a small battle up as well as a large one down — 6 elements
/// against 2 become 12 against 4 — and each army's break point with it, a third of the
/// army; every brief and the umpire's sheet give the rule, and the sheet says the table keeps
/// the campaign's odds only where rounding leaves them within 10 %.
#[test]
fn ds_06_be_17_dbsa_scales_up_and_breaks_at_a_third() {
    let (store, c) = lucania("3B", "1C");
    let files = pack(&store, &c, TabletopSystem::Dbsa);
    let umpire = text(file(&files, &Reader::Umpire)).join("\n");
    assert!(umpire.contains("12 DBSA elements for 6 campaign elements, scaled up"), "{umpire}");
    assert!(umpire.contains("Break point") && umpire.contains("a third of its elements"), "{umpire}");
    assert!(umpire.contains("The table keeps the campaign's odds"), "6 : 2 became 12 : 4: {umpire}");
    let byzantines = text(file(&files, &Reader::Side(byz()))).join("\n");
    assert!(byzantines.contains("4 elements of its 12"), "{byzantines}");
    let goths = text(file(&files, &Reader::Side(goths()))).join("\n");
    assert!(goths.contains("1 element of its 4"), "{goths}");
    for brief in [&byzantines, &goths] {
        assert!(brief.contains("Break point (DS-06, scaled)"), "{brief}");
        assert!(!brief.contains("keeps the campaign's odds"), "a side cannot know it: {brief}");
    }
    // 10 against 2 become 12 against 2: the odds move by a fifth, and the sheet says so.
    let (store, c) = lucania("5B", "1C");
    let umpire = text(file(&pack(&store, &c, TabletopSystem::Dbsa), &Reader::Umpire)).join("\n");
    assert!(umpire.contains("WARNING") || umpire.contains("does not show the campaign's odds"), "{umpire}");
    assert!(!umpire.contains("The table keeps the campaign's odds"), "{umpire}");
}
