//! The hex battlefield (issue: hex tabletops) laid on the ground of every node of Sicily and
//! every land zone of the Belisarius map, for both hex systems, on every section a battle can
//! be fought on: each terrain feature lands on hexes, roads and rivers run unbroken from hex
//! to hex, roads leave by the map's edge where they leave the table, and each side's set-up
//! hexes lie along its own edge and never at sea.

use std::collections::BTreeSet;

use referee_battle_gen::ground::{Ground, clip_polygon, clip_polyline};
use referee_battle_gen::hexmap::{Cover, HexMap, HexSystem, to_table};
use referee_battle_gen::magna_graecia::node_ground;
use referee_battle_gen::section::{Defence, Flank, Section, section};
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::map::Edge;

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
    rivers_keep_their_line(map, what);
    fords_and_crossings(map, ground, section, what);
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
    setup_on_dry_ground(map, what);
    // Set-up hexes along each side's own edge, on land, in its half of the map, and enough of
    // them for an army unless the sea, rivers and marsh take that half.
    for (attacker, hexes) in [(true, &map.attacker_setup), (false, &map.defender_setup)] {
        let who = if attacker { "attacker" } else { "defender" };
        // The rows a side may be given: up to the row before the middle.
        let most = ((map.rows - 1) / 2).max(1);
        let half: Vec<usize> = (0..n)
            .filter(|&i| {
                let c = &map.cells[i];
                let dry = !matches!(c.cover, Cover::River | Cover::Ford | Cover::Marsh | Cover::Sea);
                dry && if attacker { c.row + most >= map.rows } else { c.row < most }
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

/// A river's hexes follow its line: none repeats, and none touches any hex of the same river
/// but the one before and the one after it, so the chain never doubles back, runs two hexes
/// abreast or zigzags between two rows.
fn rivers_keep_their_line(map: &HexMap, what: &str) {
    for r in &map.rivers {
        let unique: BTreeSet<usize> = r.hexes.iter().copied().collect();
        assert_eq!(unique.len(), r.hexes.len(), "{what}: river {} passes a hex twice", r.name);
        for (k, &i) in r.hexes.iter().enumerate() {
            for (j, &other) in r.hexes.iter().enumerate() {
                if j + 1 < k || j > k + 1 {
                    assert!(
                        !map.adjacent(i, other),
                        "{what}: river {} turns back on itself: {} touches {}",
                        r.name,
                        map.cells[i].label,
                        map.cells[other].label
                    );
                }
            }
        }
    }
}

/// AB-03, AC-05: each of the ground's fords on the section is one ford hex, and there are no
/// others; a road goes into a river only at a ford, one hex of it, and comes out on the far
/// bank (where the river parts the land), never running along the river.
fn fords_and_crossings(map: &HexMap, ground: &Ground, section: &Section, what: &str) {
    let on_map: BTreeSet<usize> = map.rivers.iter().map(|r| r.ground_river).collect();
    let fords_on_section: usize = ground
        .rivers
        .iter()
        .enumerate()
        .filter(|(k, _)| on_map.contains(k))
        .map(|(_, r)| r.fords.iter().filter(|f| inside(section, **f)).count())
        .sum();
    let ford_hexes = map.cells.iter().filter(|c| c.cover == Cover::Ford).count();
    assert_eq!(ford_hexes, fords_on_section, "{what}: {ford_hexes} ford hexes for the ground's {fords_on_section} fords");
    let listed: usize = map.rivers.iter().map(|r| r.fords.len()).sum();
    assert_eq!(listed, ford_hexes, "{what}");
    let bank = map.banks();
    for r in &map.roads {
        for (k, &i) in r.hexes.iter().enumerate() {
            let cover = map.cells[i].cover;
            assert_ne!(cover, Cover::River, "{what}: the road to {} runs into the river at {}", r.to_name, map.cells[i].label);
            if cover != Cover::Ford {
                continue;
            }
            let (before, after) = (k.checked_sub(1).map(|b| r.hexes[b]), r.hexes.get(k + 1).copied());
            for n in [before, after].into_iter().flatten() {
                assert!(
                    !matches!(map.cells[n].cover, Cover::River | Cover::Ford),
                    "{what}: the road to {} runs along the river from {} to {}",
                    r.to_name,
                    map.cells[i].label,
                    map.cells[n].label
                );
            }
            if let (Some(b), Some(a)) = (before, after) {
                // A river that parts the land is crossed; one that does not (it runs into the sea
                // beside the road's way round) may be forded and left on the same bank.
                let parted = map.rivers.iter().filter(|v| v.fords.contains(&i)).any(|v| {
                    let sides: BTreeSet<Option<usize>> =
                        v.hexes.iter().flat_map(|&h| map.neighbours(h)).map(|n| bank[n]).filter(Option::is_some).collect();
                    sides.len() > 1
                });
                assert!(
                    !parted || bank[b] != bank[a] || bank[b].is_none(),
                    "{what}: the road to {} steps into the ford at {} and back out on the same bank",
                    r.to_name,
                    map.cells[i].label
                );
            }
        }
    }
}

fn inside(section: &Section, p: (f32, f32)) -> bool {
    let r = section.rect;
    p.0 >= r.x_feet && p.0 <= r.x_feet + r.width_feet && p.1 >= r.y_feet && p.1 <= r.y_feet + r.height_feet
}

/// AB-03, AC-05: no side sets up in the water (a river or stream, a ford), a marsh or the sea;
/// where they take some of a side's rows, its zone is widened to the size it would have on dry
/// ground, as far as the middle of the map allows.
fn setup_on_dry_ground(map: &HexMap, what: &str) {
    let most = ((map.rows - 1) / 2).max(1);
    let first = HexSystem::SETUP_ROWS.min(most);
    for (attacker, hexes) in [(true, &map.attacker_setup), (false, &map.defender_setup)] {
        for &i in hexes.iter() {
            let c = &map.cells[i];
            assert!(
                !matches!(c.cover, Cover::River | Cover::Ford | Cover::Marsh | Cover::Sea),
                "{what}: a set-up hex on {} at {}",
                c.cover.name(),
                c.label
            );
        }
        let rows = |n: u32| map.cells.iter().filter(move |c| if attacker { c.row + n >= map.rows } else { c.row < n });
        let land = rows(first).filter(|c| !c.off_map()).count();
        let dry = rows(most).filter(|c| !matches!(c.cover, Cover::River | Cover::Ford | Cover::Marsh | Cover::Sea)).count();
        assert!(hexes.len() >= land.min(dry), "{what}: {} set-up hexes where {land} were wanted and {dry} are dry", hexes.len());
    }
}

/// AB-08, AC-02: the hex map of every node of Sicily, on every section a battle there can be
/// fought on (each edge a road enters by, each depth, the full and the cut table), in both
/// systems.
#[test]
fn ab_08_ac_02_every_sicilian_node_lays_on_hexes() {
    let map = Catalog::embedded().map("sicily").unwrap().clone();
    let mut maps = 0;
    for (id, node) in &map.nodes {
        let g = node_ground(&map, *id).unwrap();
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
