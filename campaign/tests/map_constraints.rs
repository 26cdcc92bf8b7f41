//! MG-01 / MG-02: the built-in Sicily map and the four scenarios satisfy every line of
//! "Map constraints" in the rules checklist.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::scenario::{DeployArea, Scenario};
use referee_campaign::{NodeId, SideId, magna_graecia::catalog::Catalog};

/// The built-in data, loaded once.
fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::load(&referee_data::DataSource::Embedded).unwrap_or_else(|e| panic!("{e}")))
}

fn sicily() -> &'static Map {
    catalog().map("sicily").expect("the Sicily map is built in")
}

fn scenario(id: &str) -> &'static Scenario {
    catalog().scenario(id).unwrap_or_else(|| panic!("scenario {id} is built in"))
}

fn nodes(ids: impl IntoIterator<Item = u8>) -> BTreeSet<NodeId> {
    ids.into_iter().map(NodeId).collect()
}

fn controls(s: &Scenario, side: &str) -> BTreeSet<NodeId> {
    s.side(&SideId::new(side)).unwrap_or_else(|| panic!("{} has side {side}", s.id)).controls.clone()
}

/// The nodes west of a north–south line, the line included: everything reachable from
/// node 00 without crossing the line, plus the line itself. The line must run across the
/// island.
fn west_of_inclusive(map: &Map, line: &[u8]) -> BTreeSet<NodeId> {
    assert_line_crosses_island(map, line);
    let line = nodes(line.iter().copied());
    let mut west = map.reachable_avoiding(NodeId(0), &line);
    west.extend(line);
    west
}

/// A line "runs across the island from north to south": consecutive nodes are joined by
/// paths, it starts on the north coast and ends on the south coast, and taking it away
/// cuts the map in two.
fn assert_line_crosses_island(map: &Map, line: &[u8]) {
    for pair in line.windows(2) {
        assert!(map.is_path(NodeId(pair[0]), NodeId(pair[1])), "line {line:?}: no path {:02}–{:02}", pair[0], pair[1]);
    }
    let first = map.node(NodeId(line[0])).unwrap();
    let last = map.node(NodeId(*line.last().unwrap())).unwrap();
    assert!(first.coastal && !first.south_coast, "line {line:?} must start on the north coast");
    assert!(
        last.coastal && last.battlefield.coast.contains(&referee_campaign::magna_graecia::map::Edge::South) || last.south_coast,
        "line {line:?} must end on the south coast"
    );
    let cut = nodes(line.iter().copied());
    let west = map.reachable_avoiding(NodeId(0), &cut);
    let east: BTreeSet<NodeId> = map.nodes.keys().copied().filter(|n| !west.contains(n) && !cut.contains(n)).collect();
    assert!(!east.is_empty(), "line {line:?} does not cut the island in two");
    for &n in &east {
        for m in map.neighbours(n) {
            assert!(!west.contains(&m), "line {line:?}: {n} (east) has a path to {m} (west) that avoids the line");
        }
    }
    assert!(first.y_km < last.y_km, "line {line:?} runs from north to south");
}

/// MG-01: 32 nodes numbered 00 to 31.
#[test]
fn mg_01_map_has_nodes_00_to_31() {
    let map = sicily();
    assert_eq!(map.nodes.keys().copied().collect::<Vec<_>>(), (0..32).map(NodeId).collect::<Vec<_>>());
    assert!(map.reconstructed, "the map is our reconstruction and must say so");
}

/// MG-01: the named nodes.
#[test]
fn mg_01_fixed_names() {
    let map = sicily();
    for (id, name) in [(0, "Motya"), (1, "Lilybaeum"), (8, "Himera"), (22, "Paliki"), (24, "Catana"), (26, "Naxos"), (28, "Messena")] {
        assert_eq!(map.name(NodeId(id)), name, "node {id:02}");
    }
    let syracuse = map.nodes.values().find(|n| n.name == "Syracuse").expect("Syracuse is on the map");
    assert!(syracuse.id == NodeId(23) || syracuse.id == NodeId(31));
}

/// MG-01: fortified cities field 1–3 neutral commands; fleets need coastal nodes, and the
/// coastal nodes ring the island so a fleet can sail all the way round.
#[test]
fn mg_01_cities_and_coast() {
    let map = sicily();
    let cities = map.nodes.values().filter(|n| n.is_fortified()).count();
    assert!(cities >= 20, "only {cities} fortified cities");
    assert!(map.nodes.values().filter_map(|n| n.city_commands).all(|c| (1..=3).contains(&c)));
    let coastal: BTreeSet<NodeId> = map.nodes.values().filter(|n| n.coastal).map(|n| n.id).collect();
    let inland: BTreeSet<NodeId> = map.nodes.keys().copied().filter(|n| !coastal.contains(n)).collect();
    let by_sea = map.reachable_avoiding(NodeId(0), &inland);
    assert_eq!(by_sea, coastal, "every coastal node can be reached by sea from Motya");
    for n in &coastal {
        let sea_neighbours = map.neighbours(*n).filter(|m| coastal.contains(m)).count();
        assert!(sea_neighbours >= 2, "coastal node {n} has {sea_neighbours} coastal neighbours");
    }
    assert_eq!(map.node(NodeId(31)).unwrap().siege_modifier, -4, "MG-28: −4 besieging Syracuse");
}

/// MG-01: every node's battle map has a road toward each neighbour, never on a sea edge.
#[test]
fn mg_01_every_battlefield_has_roads_to_its_neighbours() {
    let map = sicily();
    for node in map.nodes.values() {
        let neighbours: BTreeSet<NodeId> = map.neighbours(node.id).collect();
        let roads: BTreeSet<NodeId> = node.battlefield.roads.keys().copied().collect();
        assert_eq!(roads, neighbours, "node {}", node.label());
        for edge in node.battlefield.roads.values() {
            assert!(!node.battlefield.coast.contains(edge), "node {}: road into the sea", node.label());
        }
    }
}

/// MG-02, Dionysian: Carthage holds 00–04; Syracuse holds everything east of the line
/// 09–10–11–12 (inclusive) plus 08; Carthage moves first; both 500 points and 20 NPs.
#[test]
fn mg_02_dionysian_control() {
    let map = sicily();
    let s = scenario("dionysian");
    assert_eq!(controls(s, "carthage"), nodes(0..=4));
    let west = west_of_inclusive(map, &[9, 10, 11, 12]);
    let mut syracuse: BTreeSet<NodeId> = map.nodes.keys().copied().filter(|n| !west.contains(n)).collect();
    syracuse.extend(nodes([9, 10, 11, 12, 8]));
    assert_eq!(controls(s, "syracuse"), syracuse);
    assert_eq!(s.move_order[0], SideId::new("carthage"));
    assert_eq!(s.side(&SideId::new("syracuse")).unwrap().allied_cities, nodes([8, 22, 24, 26]));
    for side in &s.sides {
        assert_eq!((side.army_points, side.fleet_np), (500, 20));
        assert_eq!(side.capital.unwrap().strength, 0);
    }
    assert!(s.side(&SideId::new("syracuse")).unwrap().deploy.not_in_unallied_cities);
}

/// MG-02, Pyrrhic: Carthage holds everything west of 27–17–22–30 (inclusive); Syracuse holds
/// 23, 24, 25, 26, 31; Pyrrhus holds 28.
#[test]
fn mg_02_pyrrhic_control() {
    let map = sicily();
    let s = scenario("pyrrhic");
    assert_eq!(controls(s, "carthage"), west_of_inclusive(map, &[27, 17, 22, 30]));
    assert_eq!(controls(s, "syracuse"), nodes([23, 24, 25, 26, 31]));
    assert_eq!(controls(s, "pyrrhus"), nodes([28]));
    let order: Vec<&str> = s.move_order.iter().map(SideId::as_str).collect();
    assert_eq!(order, ["carthage", "pyrrhus", "syracuse"]);
    let points: Vec<u32> = ["carthage", "pyrrhus", "syracuse"].iter().map(|id| s.side(&SideId::new(*id)).unwrap().army_points).collect();
    assert_eq!(points, [500, 350, 300]);
    let pyrrhus = s.side(&SideId::new("pyrrhus")).unwrap();
    assert_eq!(pyrrhus.capital.unwrap().node, NodeId(28));
    assert_eq!(pyrrhus.deploy.area, DeployArea::Nodes { nodes: nodes([28]) });
}

/// MG-02, First Punic: Carthage holds west of 27–17–18–19–20 (inclusive); Rome holds 28;
/// Syracuse holds the rest.
#[test]
fn mg_02_first_punic_control() {
    let map = sicily();
    let s = scenario("first-punic");
    let carthage = west_of_inclusive(map, &[27, 17, 18, 19, 20]);
    assert_eq!(controls(s, "carthage"), carthage);
    assert_eq!(controls(s, "rome"), nodes([28]));
    let rest: BTreeSet<NodeId> = map.nodes.keys().copied().filter(|n| !carthage.contains(n) && *n != NodeId(28)).collect();
    assert_eq!(controls(s, "syracuse"), rest);
    let rome = s.side(&SideId::new("rome")).unwrap();
    assert_eq!((rome.army_points, rome.fleet_np, rome.capital.unwrap().strength), (500, 12, 2));
    assert!(!rome.out_when_capital_falls);
    assert_eq!(s.side(&SideId::new("syracuse")).unwrap().army_points, 325);
}

/// MG-02, Second Punic: Syracuse holds 22, 23, 30, 31; the southern coast runs from 00 to 30.
#[test]
fn mg_02_second_punic_control_and_southern_coast() {
    let map = sicily();
    let s = scenario("second-punic");
    assert_eq!(controls(s, "syracuse"), nodes([22, 23, 30, 31]));
    let rome = controls(s, "rome");
    let all: BTreeSet<NodeId> = map.nodes.keys().copied().collect();
    assert_eq!(rome, all.difference(&nodes([22, 23, 30, 31])).copied().collect());
    assert!(controls(s, "carthage").is_empty());
    assert_eq!(s.side(&SideId::new("carthage")).unwrap().deploy.area, DeployArea::Landing);
    let south: BTreeSet<NodeId> = map.nodes.values().filter(|n| n.south_coast).map(|n| n.id).collect();
    assert!(south.contains(&NodeId(0)) && south.contains(&NodeId(30)));
    assert!(south.iter().all(|n| n.0 <= 30), "southern landing nodes lie between 00 and 30");
    let not_south: BTreeSet<NodeId> = all.difference(&south).copied().collect();
    assert!(map.reachable_avoiding(NodeId(0), &not_south).contains(&NodeId(30)), "the southern coast runs unbroken from 00 to 30");
    let syracuse_mod: i32 = s.siege_modifiers.iter().filter(|m| m.node == NodeId(31)).map(|m| i32::from(m.modifier)).sum::<i32>()
        + i32::from(map.node(NodeId(31)).unwrap().siege_modifier);
    assert_eq!(syracuse_mod, -7, "MG-36: −7 in all besieging Syracuse");
    assert_eq!(s.capture_vps[0].vp, 20);
}
