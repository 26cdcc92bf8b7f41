//! The hex battlefield (issue: hex tabletops) laid on the ground of every node of Sicily and
//! every land zone of the Belisarius map, for both hex systems, on every section a battle can
//! be fought on: each terrain feature lands on hexes, roads and rivers run unbroken from hex
//! to hex, roads leave by the map's edge where they leave the table, and each side's set-up
//! hexes lie along its own edge and never at sea.

use std::collections::BTreeSet;

use referee_battle_gen::ground::{Ground, clip_polygon, clip_polyline, ground};
use referee_battle_gen::hexmap::{Cover, HexMap, HexSystem, to_table};
use referee_battle_gen::section::{Defence, Flank, Section, section};
use referee_campaign::Catalog;
use referee_campaign::map::Edge;

fn area(poly: &[(f32, f32)]) -> f32 {
    let mut a = 0.0;
    for (i, p) in poly.iter().enumerate() {
        let q = poly[(i + 1) % poly.len()];
        a += p.0 * q.1 - q.0 * p.1;
    }
    (a / 2.0).abs()
}

/// Everything the map must hold for `ground` on `section`; `what` names the case.
fn check(map: &HexMap, ground: &Ground, section: &Section, what: &str) {
    let n = map.cells.len();
    assert_eq!(n, usize::try_from(map.cols * map.rows).unwrap(), "{what}");
    // Numbers: unique, in the system's form.
    let labels: BTreeSet<&str> = map.cells.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels.len(), n, "{what}: numbers repeat");
    for c in &map.cells {
        match map.system {
            HexSystem::ArsBellum => {
                assert_eq!(c.label.parse::<u32>().unwrap(), c.row * map.cols + c.col + 1, "{what}");
                assert!(c.label.len() >= 3, "{what}: {}", c.label);
            }
            HexSystem::ALaCharge => assert_eq!(c.label, format!("{:02}{:02}", c.col + 1, c.row + 1), "{what}"),
        }
        // Every hex has the system's terrain, and none of it cuts the map: the campaign's rivers
        // are the crossable kind.
        match map.system {
            HexSystem::ArsBellum => {
                let t = c.cover.ars_bellum();
                assert_eq!(t.is_none(), c.off_map(), "{what}");
                assert!(t.is_none_or(|t| t.effect().half_mp.is_some()), "{what}: {} is impassable", c.label);
            }
            HexSystem::ALaCharge => {
                let t = c.cover.a_la_charge();
                assert_eq!(t.is_none(), c.off_map(), "{what}");
                assert!(t.is_none_or(|t| t.effect().half_mp.is_some()), "{what}: {} is impassable", c.label);
            }
        }
    }
    // Every piece of terrain and the settlement that lies on the section has hexes, and keeps at
    // least one of them unless a river runs over every one.
    let mut expected = Vec::new();
    for t in ground.terrain.iter().chain(ground.settlement.iter()) {
        let clipped = clip_polygon(&t.outline, section.rect);
        if clipped.len() >= 3 && area(&clipped) >= 1e-4 {
            expected.push((t.kind.name(), t.name.clone()));
        }
    }
    assert_eq!(map.pieces.len(), expected.len(), "{what}: {:?} against {expected:?}", map.pieces);
    for p in &map.pieces {
        assert!(!p.hexes.is_empty(), "{what}: {} {} has no hex", p.cover.name(), p.name);
        let kept = p.hexes.iter().any(|&i| map.cells[i].cover == p.cover);
        let drowned = p.hexes.iter().all(|&i| matches!(map.cells[i].cover, Cover::River | Cover::Ford));
        let covered = p.hexes.iter().all(|&i| map.cells[i].cover != Cover::Open && map.cells[i].cover != p.cover);
        assert!(kept || drowned || covered, "{what}: {} {} lost its hexes", p.cover.name(), p.name);
    }
    // Roads and rivers: an unbroken chain of neighbouring hexes.
    for r in &map.roads {
        for w in r.hexes.windows(2) {
            assert!(
                map.adjacent(w[0], w[1]),
                "{what}: road to {} jumps from {} to {}",
                r.to_name,
                map.cells[w[0]].label,
                map.cells[w[1]].label
            );
        }
        for &i in &r.hexes {
            assert!(map.cells[i].road, "{what}");
            assert_ne!(
                map.cells[i].cover,
                Cover::River,
                "{what}: the road to {} crosses a river at {} without a ford",
                r.to_name,
                map.cells[i].label
            );
        }
        if let Some(e) = r.exit {
            assert!(map.on_edge(e), "{what}");
            assert_eq!(r.hexes.last(), Some(&e), "{what}");
        }
    }
    for r in &map.rivers {
        for w in r.hexes.windows(2) {
            assert!(map.adjacent(w[0], w[1]), "{what}: river {} jumps", r.name);
        }
    }
    // Each road that crosses the section is on the map, and one that leaves the table leaves
    // by a hex on the map's edge.
    let crossing = ground.roads.iter().filter(|r| clip_polyline(&r.points, section.rect).iter().any(|p| p.len() >= 2)).count();
    let names: BTreeSet<&str> = map.roads.iter().map(|r| r.to_name.as_str()).collect();
    assert!(names.len() <= crossing, "{what}");
    for road in &ground.roads {
        let pieces = clip_polyline(&road.points, section.rect);
        let Some(last) = pieces.last() else { continue };
        let end = to_table(section, *last.last().unwrap());
        let (w, d) = referee_battle_gen::hexmap::turned_size(section);
        let leaves = end.0 < 1e-3 || end.1 < 1e-3 || end.0 > w - 1e-3 || end.1 > d - 1e-3;
        let on_map = map.roads.iter().filter(|r| r.to_name == road.to_name).any(|r| !r.hexes.is_empty());
        if leaves && on_map && road.points.len() > 1 {
            assert!(
                map.roads.iter().filter(|r| r.to_name == road.to_name).any(|r| r.exit.is_some()),
                "{what}: the road to {} leaves the table but by no edge hex",
                road.to_name
            );
        }
    }
    // Set-up hexes along each side's own edge, on land, in its half of the map, and enough of
    // them for an army unless the sea takes that half.
    for (attacker, hexes) in [(true, &map.attacker_setup), (false, &map.defender_setup)] {
        let who = if attacker { "attacker" } else { "defender" };
        // The rows a side may be given: up to the row before the middle.
        let most = ((map.rows - 1) / 2).max(1);
        let half: Vec<usize> = (0..n)
            .filter(|&i| {
                let c = &map.cells[i];
                !c.off_map() && if attacker { c.row + most >= map.rows } else { c.row < most }
            })
            .collect();
        assert!(!hexes.is_empty(), "{what}: no {who} set-up hex");
        assert!(hexes.len() >= 10 || hexes.len() >= half.len(), "{what}: {} {who} set-up hexes", hexes.len());
        for &i in hexes.iter() {
            let c = &map.cells[i];
            assert!(!c.off_map(), "{what}: {who} at sea at {}", c.label);
            let own_half = if attacker { c.row * 2 >= map.rows } else { (c.row + 1) * 2 <= map.rows };
            assert!(own_half, "{what}: {who} sets up at {}, past the middle", c.label);
        }
        let first_rows = hexes.iter().filter(|&&i| {
            let r = map.cells[i].row;
            if attacker { r + HexSystem::SETUP_ROWS >= map.rows } else { r < HexSystem::SETUP_ROWS }
        });
        assert!(first_rows.count() > 0 || hexes.len() >= 10, "{what}");
    }
    // However large the army, a row or more stays between the two sides.
    let (a, d) = (map.setup_for(true, 500), map.setup_for(false, 500));
    let lowest_d = d.iter().map(|&i| map.cells[i].row).max().unwrap_or(0);
    let highest_a = a.iter().map(|&i| map.cells[i].row).min().unwrap_or(map.rows);
    assert!(highest_a > lowest_d + 1, "{what}: the set-up zones touch ({lowest_d}, {highest_a})");
}

/// AB-08, AC-02: the hex map of every node of Sicily, on every section a battle there can be
/// fought on (each edge a road enters by, each depth, the full and the cut table), in both
/// systems.
#[test]
fn ab_08_ac_02_every_sicilian_node_lays_on_hexes() {
    let map = Catalog::embedded().map("sicily").unwrap().clone();
    let mut maps = 0;
    for (id, node) in &map.nodes {
        let g = ground(&map, *id).unwrap();
        let edges: BTreeSet<Edge> = node.battlefield.roads.values().copied().collect();
        for edge in edges {
            for defence in [Defence::Forward, Defence::Central, Defence::Rear] {
                for cut in [None, Some(Flank::Left), Some(Flank::Right)] {
                    let s = section(edge, defence, cut);
                    for system in HexSystem::ALL {
                        let hexes = HexMap::new(system, &g, s);
                        check(&hexes, &g, &s, &format!("{} node {id} {edge} {defence:?} {cut:?}", system.name()));
                        maps += 1;
                    }
                }
            }
        }
    }
    assert!(maps > 300, "{maps}");
}

/// The same for every land zone of the Belisarius map: its battle is laid across the middle of
/// the zone's map, from whichever edge the side that marched in came.
#[test]
fn ab_08_ac_02_every_belisarius_zone_lays_on_hexes() {
    let world = referee_campaign::belisarius::World::embedded();
    let scenario = &world.scenarios[0].id;
    let setup = world.setup(scenario).unwrap();
    let mut maps = 0;
    for zone in &setup.map.zones {
        let g = referee_battle_gen::belisarius::zone_ground(&setup, &zone.id).unwrap();
        for edge in Edge::ALL {
            let s = section(edge, Defence::Central, None);
            for system in HexSystem::ALL {
                let hexes = HexMap::new(system, &g, s);
                check(&hexes, &g, &s, &format!("{} zone {} {edge}", system.name(), zone.id));
                maps += 1;
            }
        }
    }
    assert!(maps > 100, "{maps}");
}
