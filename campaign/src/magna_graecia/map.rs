//! A validated campaign node map (MG-01); each node carries its tabletop battlefield, described
//! in the core's words ([`crate::core::table`]).

use std::collections::{BTreeMap, BTreeSet};

use referee_data::raw::{RawBattlefield, RawMap, RawNode};
use referee_data::{DataError, Report, SourceText};
use serde::{Deserialize, Serialize};

pub use crate::core::table::{Area, Battlefield, Edge, Feature, FeatureKind, River, RiverEnd, Settlement, SettlementKind, Size};
use crate::ids::NodeId;

/// A node of the campaign map (MG-01).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub id: NodeId,
    pub name: String,
    pub x_km: f32,
    pub y_km: f32,
    pub coastal: bool,
    pub south_coast: bool,
    /// Commands a fortified city fields while neutral (1–3); `None` if the node has no walls.
    pub city_commands: Option<u8>,
    pub siege_modifier: i8,
    pub battlefield: Battlefield,
}

impl Node {
    pub fn is_fortified(&self) -> bool {
        self.city_commands.is_some()
    }

    /// "24 Catana".
    pub fn label(&self) -> String {
        format!("{} {}", self.id, self.name)
    }
}

/// A validated node map: every path joins two known nodes, every battlefield is consistent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Map {
    pub id: String,
    pub name: String,
    pub reconstructed: bool,
    pub note: String,
    pub width_km: f32,
    pub height_km: f32,
    pub outline: Vec<(f32, f32)>,
    pub nodes: BTreeMap<NodeId, Node>,
    pub paths: BTreeSet<(NodeId, NodeId)>,
}

/// Largest angle, in degrees, between the direction of a neighbour and the table edge its
/// road leaves by. Roads may bend, but one leaving away from its destination is an error.
const MAX_ROAD_BEND_DEG: f32 = 100.0;

impl Map {
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(&id)
    }

    /// The node's name, or its number if the map has no such node.
    pub fn name(&self, id: NodeId) -> String {
        self.nodes.get(&id).map_or_else(|| id.to_string(), |n| n.name.clone())
    }

    pub fn neighbours(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.paths.iter().filter_map(move |&(a, b)| {
            if a == id {
                Some(b)
            } else if b == id {
                Some(a)
            } else {
                None
            }
        })
    }

    pub fn is_path(&self, a: NodeId, b: NodeId) -> bool {
        self.paths.contains(&(a.min(b), a.max(b)))
    }

    /// Nodes reachable from `from` without entering any node of `blocked`.
    pub fn reachable_avoiding(&self, from: NodeId, blocked: &BTreeSet<NodeId>) -> BTreeSet<NodeId> {
        let mut seen = BTreeSet::from([from]);
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            for m in self.neighbours(n) {
                if !blocked.contains(&m) && seen.insert(m) {
                    stack.push(m);
                }
            }
        }
        seen
    }

    /// Checks a raw map, reporting every problem at once.
    pub fn from_raw(raw: RawMap, source: &SourceText) -> Result<Map, DataError> {
        let mut report = Report::new(source);
        let mut nodes = BTreeMap::new();
        for node in &raw.nodes {
            let id = NodeId(*node.id.get_ref());
            if nodes.contains_key(&id) {
                report.at(node.id.span().start, format!("node {id} is defined twice"));
                continue;
            }
            nodes.insert(id, node);
        }
        for (i, id) in nodes.keys().enumerate() {
            if usize::from(id.0) != i {
                report.file(format!("nodes must be numbered from 00 with no gap, but {:02} is missing", i));
                break;
            }
        }
        let mut names = BTreeMap::new();
        for node in nodes.values() {
            if let Some(other) = names.insert(node.name.get_ref().clone(), *node.id.get_ref()) {
                report.at(node.name.span().start, format!("the name {} is used by node {:02} already", node.name.get_ref(), other));
            }
        }
        let mut paths = BTreeSet::new();
        for path in &raw.paths {
            let [a, b] = *path.get_ref();
            let at = path.span().start;
            let (a, b) = (NodeId(a.min(b)), NodeId(a.max(b)));
            if a == b {
                report.at(at, format!("the path [{a}, {b}] joins node {a} to itself"));
                continue;
            }
            let mut known = true;
            for n in [a, b] {
                if !nodes.contains_key(&n) {
                    report.at(at, format!("the path [{a}, {b}] leads to node {n}, which the map does not have"));
                    known = false;
                }
            }
            if known && !paths.insert((a, b)) {
                report.at(at, format!("the path between {a} and {b} is listed twice"));
            }
        }
        let mut checked = BTreeMap::new();
        for (&id, raw_node) in &nodes {
            let neighbours: BTreeSet<NodeId> =
                paths.iter().filter_map(|&(a, b)| (a == id).then_some(b).or((b == id).then_some(a))).collect();
            if neighbours.is_empty() {
                report.at(raw_node.id.span().start, format!("node {id} has no path to any other node"));
            }
            if let Some(node) = check_node(raw_node, &raw, &nodes, &neighbours, &mut report) {
                checked.insert(id, node);
            }
        }
        if !report.problems.is_empty() {
            return Err(DataError { problems: report.problems });
        }
        Ok(Map {
            id: raw.id.into_inner(),
            name: raw.name,
            reconstructed: raw.reconstructed,
            note: raw.note,
            width_km: raw.width_km,
            height_km: raw.height_km,
            outline: raw.outline.iter().map(|p| (p[0], p[1])).collect(),
            nodes: checked,
            paths,
        })
    }
}

fn check_node(
    raw: &RawNode,
    map: &RawMap,
    nodes: &BTreeMap<NodeId, &RawNode>,
    neighbours: &BTreeSet<NodeId>,
    report: &mut Report<'_>,
) -> Option<Node> {
    let id = NodeId(*raw.id.get_ref());
    let before = report.problems.len();
    let (x, y) = (*raw.x_km.get_ref(), *raw.y_km.get_ref());
    let x_inside = (0.0..=map.width_km).contains(&x);
    if !x_inside || !(0.0..=map.height_km).contains(&y) {
        report.at(
            if x_inside { raw.y_km.span() } else { raw.x_km.span() }.start,
            format!("node {id} at ({x}, {y}) km lies outside the {} × {} km map", map.width_km, map.height_km),
        );
    }
    if let Some(c) = &raw.city_commands
        && !(1..=3).contains(c.get_ref())
    {
        report.at(c.span().start, format!("node {id}: a fortified city fields 1 to 3 neutral commands, not {}", c.get_ref()));
    }
    if raw.south_coast && !raw.coastal {
        report.at(raw.id.span().start, format!("node {id} is marked south_coast but not coastal"));
    }
    let battlefield = check_battlefield(id, &raw.battlefield, raw, nodes, neighbours, report);
    if report.problems.len() > before {
        return None;
    }
    Some(Node {
        id,
        name: raw.name.get_ref().clone(),
        x_km: x,
        y_km: y,
        coastal: raw.coastal,
        south_coast: raw.south_coast,
        city_commands: raw.city_commands.as_ref().map(|c| *c.get_ref()),
        siege_modifier: raw.siege_modifier,
        battlefield: battlefield?,
    })
}

fn check_battlefield(
    id: NodeId,
    raw: &RawBattlefield,
    node: &RawNode,
    nodes: &BTreeMap<NodeId, &RawNode>,
    neighbours: &BTreeSet<NodeId>,
    report: &mut Report<'_>,
) -> Option<Battlefield> {
    let before = report.problems.len();
    let edge = |s: &referee_data::raw::Spanned<String>, report: &mut Report<'_>| {
        let e = Edge::parse(s.get_ref());
        if e.is_none() {
            report.at(s.span().start, format!("node {id}: `{}` is not a table edge (north, east, south or west)", s.get_ref()));
        }
        e
    };
    let area = |s: &referee_data::raw::Spanned<String>, report: &mut Report<'_>| {
        let a = Area::parse(s.get_ref());
        if a.is_none() {
            report.at(
                s.span().start,
                format!("node {id}: `{}` is not an area of the battle map (north-west … south-east, centre)", s.get_ref()),
            );
        }
        a
    };
    let coast: BTreeSet<Edge> = raw.coast.iter().filter_map(|s| edge(s, report)).collect();
    if node.coastal && raw.coast.is_empty() {
        report.at(node.id.span().start, format!("node {id} is coastal but its battle map has no coast edge"));
    }
    if !node.coastal && !raw.coast.is_empty() {
        report.at(node.id.span().start, format!("node {id} is inland but its battle map has a coast edge"));
    }
    // `None` when there is no settlement, `Some(None)` when its kind is misspelt.
    let kind = raw.settlement.as_ref().map(|s| match s.kind.get_ref().as_str() {
        "city" => Some(SettlementKind::City),
        "town" => Some(SettlementKind::Town),
        "village" => Some(SettlementKind::Village),
        other => {
            report.at(s.kind.span().start, format!("node {id}: `{other}` is not a settlement (city, town or village)"));
            None
        }
    });
    let settlement = raw.settlement.as_ref().and_then(|s| Some(Settlement { kind: kind??, area: area(&s.area, report)? }));
    let walled = kind == Some(Some(SettlementKind::City));
    if kind != Some(None) && node.city_commands.is_some() != walled {
        report.at(
            node.id.span().start,
            if walled {
                format!("node {id} draws a walled city on its battle map but has no city_commands")
            } else {
                format!("node {id} is a fortified city but its battle map has no settlement of kind \"city\"")
            },
        );
    }
    let mut rivers = Vec::new();
    for r in &raw.rivers {
        let from = edge(&r.from, report);
        let to = if r.to.get_ref() == "sea" {
            if raw.coast.is_empty() {
                report.at(r.to.span().start, format!("node {id}: the {} reaches the sea, but the map has no coast", r.name));
            }
            Some(RiverEnd::Sea)
        } else {
            edge(&r.to, report).map(RiverEnd::Edge)
        };
        if *r.fords.get_ref() > 4 {
            report.at(r.fords.span().start, format!("node {id}: the {} has {} fords; at most 4 fit the table", r.name, r.fords.get_ref()));
        }
        if let (Some(from), Some(to)) = (from, to) {
            rivers.push(River { name: r.name.clone(), from, to, fords: *r.fords.get_ref() });
        }
    }
    let mut features = Vec::new();
    for f in &raw.features {
        let kind = FeatureKind::NAMES.iter().find(|(n, _)| n == f.kind.get_ref()).map(|(_, k)| *k);
        if kind.is_none() {
            report.at(
                f.kind.span().start,
                format!("node {id}: `{}` is not a kind of terrain (hill, steep-hill, wood, marsh, rough, olive-groves)", f.kind.get_ref()),
            );
        }
        let size = match f.size.get_ref().as_str() {
            "small" => Some(Size::Small),
            "medium" => Some(Size::Medium),
            "large" => Some(Size::Large),
            other => {
                report.at(f.size.span().start, format!("node {id}: `{other}` is not a size (small, medium or large)"));
                None
            }
        };
        if let (Some(kind), Some(area), Some(size)) = (kind, area(&f.area, report), size) {
            features.push(Feature { kind, area, size, name: f.name.clone() });
        }
    }
    let mut roads = BTreeMap::new();
    for road in &raw.roads {
        let to = NodeId(*road.to.get_ref());
        let at = road.to.span().start;
        let Some(e) = edge(&road.edge, report) else { continue };
        if !neighbours.contains(&to) {
            report.at(at, format!("node {id} has a road to {to}, but no movement path joins them"));
            continue;
        }
        if roads.insert(to, e).is_some() {
            report.at(at, format!("node {id} lists its road to {to} twice"));
            continue;
        }
        if coast.contains(&e) {
            report.at(at, format!("node {id}: the road to {to} leaves by the {e} edge, which is sea"));
        }
        if let Some(other) = nodes.get(&to) {
            let (dx, dy) = (other.x_km.get_ref() - node.x_km.get_ref(), other.y_km.get_ref() - node.y_km.get_ref());
            let (ex, ey) = e.outward();
            let len = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
            let angle = ((dx * ex + dy * ey) / len).clamp(-1.0, 1.0).acos().to_degrees();
            if angle > MAX_ROAD_BEND_DEG {
                report.at(at, format!("node {id}: the road to {to} leaves by the {e} edge, {angle:.0}° away from where {to} lies"));
            }
        }
    }
    for n in neighbours {
        if !raw.roads.iter().any(|r| *r.to.get_ref() == n.0) {
            report.at(
                node.battlefield.roads.first().map_or(node.id.span().start, |r| r.to.span().start),
                format!("node {id} has a path to {n} but its battle map has no road toward it"),
            );
        }
    }
    if report.problems.len() > before {
        return None;
    }
    Some(Battlefield { coast, settlement, rivers, features, roads })
}
