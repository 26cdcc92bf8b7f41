//! MG-21: a place's 8'×8' battle map, worked out from the short description a map file gives
//! (coast edges, settlement, rivers, terrain features, roads) into shapes on a table measured
//! in feet: x east and y south from the north-west corner, the same frame as [`Section`].
//! The place comes as a [`Site`], in the core's words: no engine is read here.
//!
//! The map is generated, not drawn by hand, but it is fixed: the same place always gives the
//! same map, whatever the campaign, because the generator's random numbers are seeded from the
//! place's number and name only. Roads are routed after rivers and cross them at fords, so a
//! side that retires (MG-26) can see which table edges a road leaves by.
//!
//! [`Section`]: crate::section::Section

use std::collections::{BTreeMap, BTreeSet};
use std::f32::consts::{PI, TAU};

use referee_campaign::core::table::{Area, Battlefield, Edge, FeatureKind, RiverEnd, SettlementKind, Size};
use referee_campaign::ids::NodeId;

use crate::section::{MAP_FEET, Rect};
use serde::Serialize;

/// A point on the battle map, in feet: x east, y south from the north-west corner.
pub type Point = (f32, f32);

/// A piece of terrain waiting to be placed.
type Piece = (usize, TerrainKind, Area, (f32, f32), String);

const M: f32 = MAP_FEET;
/// Spacing of the samples of a shoreline, in feet.
const SHORE_STEP: f32 = 0.25;
/// Clear ground kept between two terrain pieces, in feet.
const PIECE_GAP: f32 = 0.2;
/// Clear ground kept between terrain and the sea, in feet.
const SEA_GAP: f32 = 0.1;
/// A road meets a river within this distance of a ford, in feet.
pub const FORD_REACH: f32 = 0.2;

/// How troops move over a piece of ground, in the sense of the De Bellis rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Going {
    Good,
    Rough,
    Difficult,
}

impl Going {
    pub fn name(self) -> &'static str {
        match self {
            Going::Good => "good going",
            Going::Rough => "rough going",
            Going::Difficult => "difficult going",
        }
    }
}

/// What a piece of terrain on the battle map is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum TerrainKind {
    Hill,
    SteepHill,
    Wood,
    Marsh,
    Rough,
    OliveGroves,
    City,
    Town,
    Village,
}

impl TerrainKind {
    pub const ALL: [TerrainKind; 9] = [
        TerrainKind::Hill,
        TerrainKind::SteepHill,
        TerrainKind::Wood,
        TerrainKind::Marsh,
        TerrainKind::Rough,
        TerrainKind::OliveGroves,
        TerrainKind::City,
        TerrainKind::Town,
        TerrainKind::Village,
    ];

    pub fn from_feature(kind: FeatureKind) -> TerrainKind {
        match kind {
            FeatureKind::Hill => TerrainKind::Hill,
            FeatureKind::SteepHill => TerrainKind::SteepHill,
            FeatureKind::Wood => TerrainKind::Wood,
            FeatureKind::Marsh => TerrainKind::Marsh,
            FeatureKind::Rough => TerrainKind::Rough,
            FeatureKind::OliveGroves => TerrainKind::OliveGroves,
        }
    }

    pub fn from_settlement(kind: SettlementKind) -> TerrainKind {
        match kind {
            SettlementKind::City => TerrainKind::City,
            SettlementKind::Town => TerrainKind::Town,
            SettlementKind::Village => TerrainKind::Village,
        }
    }

    /// The going, as the De Bellis rules class it: a gentle hill is good going; rough ground,
    /// olive groves and a village's gardens and walls are rough; a steep hill, a wood, a marsh
    /// and a built-up town or walled city are difficult.
    pub fn going(self) -> Going {
        match self {
            TerrainKind::Hill => Going::Good,
            TerrainKind::Rough | TerrainKind::OliveGroves | TerrainKind::Village => Going::Rough,
            TerrainKind::SteepHill | TerrainKind::Wood | TerrainKind::Marsh | TerrainKind::City | TerrainKind::Town => Going::Difficult,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TerrainKind::Hill => "gentle hill",
            TerrainKind::SteepHill => "steep hill",
            TerrainKind::Wood => "wood",
            TerrainKind::Marsh => "marsh",
            TerrainKind::Rough => "rough ground",
            TerrainKind::OliveGroves => "olive groves",
            TerrainKind::City => "walled city",
            TerrainKind::Town => "town",
            TerrainKind::Village => "village",
        }
    }

    pub fn is_settlement(self) -> bool {
        matches!(self, TerrainKind::City | TerrainKind::Town | TerrainKind::Village)
    }
}

/// One piece of terrain: its outline is a closed polygon (the last point joins the first).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Terrain {
    pub kind: TerrainKind,
    /// The feature's name from the map file (often empty); a settlement carries the node's name.
    pub name: String,
    pub outline: Vec<Point>,
    pub going: Going,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiverCourse {
    pub name: String,
    /// From its entry on the `from` edge to the edge it leaves by, or a little into the sea.
    pub points: Vec<Point>,
    pub fords: Vec<Point>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoadCourse {
    pub to: NodeId,
    pub to_name: String,
    /// The map edge the road leaves by.
    pub edge: Edge,
    /// From the settlement (or the middle of the map) to a point on `edge`.
    pub points: Vec<Point>,
    /// What the overview prints where the road leaves: the destination's node number, or
    /// the zone's name where the campaign has no numbers.
    pub label: String,
}

/// A node's whole 8'×8' battle map (MG-21).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ground {
    pub node: NodeId,
    pub name: String,
    /// One polygon per run of adjacent coast edges: where two coast edges meet, one sea.
    pub sea: Vec<Vec<Point>>,
    /// One piece per feature of the map file, in the file's order.
    pub terrain: Vec<Terrain>,
    pub settlement: Option<Terrain>,
    pub rivers: Vec<RiverCourse>,
    /// One per neighbouring node, in node order.
    pub roads: Vec<RoadCourse>,
}

/// Where a road leaves a section of the map (MG-26: a table edge with a road to a friendly or
/// neutral node is a way to retire).
#[derive(Debug, Clone, PartialEq)]
pub struct RoadExit {
    pub to: NodeId,
    pub to_name: String,
    /// The side of the section the road leaves by.
    pub side: Edge,
    /// Distance along that side in feet, from its west end (north and south sides) or its north
    /// end (east and west sides).
    pub along_feet: f32,
    /// Whether that side of the section lies on the edge of the whole map.
    pub map_edge: bool,
    /// Where the road crosses the side, in map feet.
    pub at: Point,
    /// What the road is labelled by: the destination's number, or its name where the
    /// campaign numbers no places.
    pub label: String,
}

impl RoadExit {
    /// "to 23 Leontini", or "to Campania" where places have no numbers.
    pub fn words(&self) -> String {
        if self.label == self.to_name { format!("to {}", self.to_name) } else { format!("to {} {}", self.to, self.to_name) }
    }
}

/// A place a battle is fought at, as its ground needs it: an engine's adapter gives one.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    /// The place's number, which with its name seeds the ground and labels nothing else.
    pub id: NodeId,
    pub name: String,
    /// Where the place lies on the campaign map, in km: x east, y south.
    pub at_km: (f32, f32),
    pub battlefield: Battlefield,
    /// Where each of the battlefield's roads leads: the place's name, and where it lies in km.
    pub road_ends: BTreeMap<NodeId, (String, (f32, f32))>,
}

impl Site {
    /// The name of the place a road leads to, or its number if the site does not say.
    fn road_end(&self, to: NodeId) -> String {
        self.road_ends.get(&to).map_or_else(|| to.to_string(), |(name, _)| name.clone())
    }
}

/// The battle map of `site`.
pub fn ground(site: &Site) -> Ground {
    let node = site.id;
    let bf = &site.battlefield;
    let seed = seed_of(node, &site.name);

    // The sea, one shoreline per coast edge.
    let shores: BTreeMap<Edge, Vec<f32>> = bf.coast.iter().map(|&e| (e, shoreline(&mut stream(seed, "shore", edge_index(e))))).collect();
    let sea: Vec<Vec<Point>> = coast_chains(&bf.coast).iter().map(|chain| sea_polygon(chain, &shores)).collect();

    // Terrain: the settlement first, then the features largest first; each in its own cell.
    // (feature index, or `usize::MAX` for the settlement; kind; area; width × height; name)
    let mut pieces: Vec<Piece> = Vec::new();
    if let Some(s) = &bf.settlement {
        let kind = TerrainKind::from_settlement(s.kind);
        let dims = match s.kind {
            SettlementKind::City => (1.0, 0.8),
            SettlementKind::Town => (0.8, 0.6),
            SettlementKind::Village => (0.55, 0.45),
        };
        pieces.push((usize::MAX, kind, s.area, dims, site.name.clone()));
    }
    for (i, f) in bf.features.iter().enumerate() {
        let kind = TerrainKind::from_feature(f.kind);
        let (w, h) = match f.size {
            Size::Small => (1.0, 0.8),
            Size::Medium => (1.6, 1.2),
            Size::Large => (2.2, 1.6),
        };
        // A marsh lies long and low; a steep hill is a little more compact than a gentle one.
        let dims = match kind {
            TerrainKind::Marsh => (w * 1.15, h * 0.7),
            TerrainKind::SteepHill => (w * 0.95, h * 0.95),
            _ => (w, h),
        };
        pieces.push((i, kind, f.area, dims, f.name.clone()));
    }
    let settlement_first = usize::from(bf.settlement.is_some());
    pieces[settlement_first..].sort_by(|a, b| (b.3.0 * b.3.1).total_cmp(&(a.3.0 * a.3.1)).then(a.0.cmp(&b.0)));

    let mut per_cell: BTreeMap<Area, usize> = BTreeMap::new();
    for p in &pieces {
        *per_cell.entry(p.2).or_default() += 1;
    }
    let mut slot_of_cell: BTreeMap<Area, usize> = BTreeMap::new();
    let mut placed: Vec<(usize, Terrain)> = Vec::new();
    for (index, kind, area, dims, name) in pieces {
        let mut rng = stream(seed, "piece", if index == usize::MAX { 99 } else { index });
        let sharing = per_cell.get(&area).copied().unwrap_or(1);
        let slot = slot_of_cell.entry(area).or_default();
        let cell = cell_bounds(area);
        let centre = ((cell.0 + cell.2) / 2.0, (cell.1 + cell.3) / 2.0);
        // Pieces sharing a cell start from different points around its middle.
        let turn = stream(seed, "cell", area_index(area)).range(0.0, TAU);
        let preferred = if sharing > 1 {
            let a = turn + fl(*slot) * TAU / fl(sharing);
            (centre.0 + 0.8 * a.cos() + rng.range(-0.15, 0.15), centre.1 + 0.8 * a.sin() + rng.range(-0.15, 0.15))
        } else {
            (centre.0 + rng.range(-0.3, 0.3), centre.1 + rng.range(-0.3, 0.3))
        };
        *slot += 1;
        let rot = if kind.is_settlement() { rng.range(-0.3, 0.3) } else { rng.range(-0.6, 0.6) + if rng.coin() { PI / 2.0 } else { 0.0 } };
        let base = outline(&mut rng, kind, dims, rot);
        let others: Vec<&[Point]> = placed.iter().map(|(_, t)| t.outline.as_slice()).collect();
        let outline = place(&base, preferred, cell, &others, &sea);
        placed.push((index, Terrain { kind, name, outline, going: kind.going() }));
    }
    let mut settlement = None;
    let mut terrain: Vec<(usize, Terrain)> = Vec::new();
    for (index, t) in placed {
        if index == usize::MAX {
            settlement = Some(t);
        } else {
            terrain.push((index, t));
        }
    }
    terrain.sort_by_key(|(i, _)| *i);
    let terrain: Vec<Terrain> = terrain.into_iter().map(|(_, t)| t).collect();

    // Rivers, each routed around the settlement and, where it can, the hills.
    let mut rivers: Vec<RiverCourse> = Vec::new();
    let mut starts: BTreeMap<Edge, usize> = BTreeMap::new();
    for r in &bf.rivers {
        *starts.entry(r.from).or_default() += 1;
    }
    let mut start_slot: BTreeMap<Edge, usize> = BTreeMap::new();
    for (i, r) in bf.rivers.iter().enumerate() {
        let mut rng = stream(seed, "river", i);
        let n_from = starts.get(&r.from).copied().unwrap_or(1);
        let slot = start_slot.entry(r.from).or_default();
        let third = M / 3.0;
        let along = third + third * (fl(*slot) + 0.5) / fl(n_from) + rng.range(-0.25, 0.25) * third / fl(n_from);
        *slot += 1;
        let start = edge_point(r.from, along, 0.0);
        let ends = river_ends(r.from, r.to, &bf.coast, &shores, &mut rng);
        let points = route_river(seed, i, start, r.from, &ends, settlement.as_ref(), &terrain, &rivers, &sea);
        rivers.push(RiverCourse { name: r.name.clone(), points, fords: Vec::new() });
    }

    // Roads: exits spread along each edge in the order their destinations lie.
    let origin = settlement.as_ref().map_or((M / 2.0, M / 2.0), |s| centroid(&s.outline));
    let mut by_edge: BTreeMap<Edge, Vec<(NodeId, f32)>> = BTreeMap::new();
    for (&to, &edge) in &bf.roads {
        let along = site.road_ends.get(&to).map_or(M / 2.0, |(_, other)| {
            let (dx, dy) = (other.0 - site.at_km.0, other.1 - site.at_km.1);
            let len = dx.fast_hypot(dy).max(f32::EPSILON);
            let t = tangent(edge);
            M / 2.0 + 2.5 * (dx * t.0 + dy * t.1) / len
        });
        by_edge.entry(edge).or_default().push((to, along));
    }
    let mut exits: BTreeMap<NodeId, (Edge, f32)> = BTreeMap::new();
    for (edge, mut wanted) in by_edge {
        let lo = if bf.coast.contains(&prev(edge)) { depth_at(&shores[&prev(edge)], M) + 0.4 } else { 0.6 };
        let hi = if bf.coast.contains(&next(edge)) { M - depth_at(&shores[&next(edge)], 0.0) - 0.4 } else { M - 0.6 };
        wanted.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let gap = (1.2f32).min((hi - lo) / fl(wanted.len()));
        let mut at: Vec<f32> = wanted.iter().map(|w| w.1.clamp(lo, hi)).collect();
        for k in 1..at.len() {
            at[k] = at[k].max(at[k - 1] + gap);
        }
        for k in (0..at.len()).rev() {
            let limit = if k + 1 < at.len() { at[k + 1] - gap } else { hi };
            at[k] = at[k].min(limit);
        }
        for k in 0..at.len() {
            let limit = if k > 0 { at[k - 1] + gap } else { lo };
            at[k] = at[k].max(limit).min(hi);
        }
        // Keep clear of the places rivers run off this edge, so no road fords at the very edge.
        let mouths: Vec<f32> = rivers
            .iter()
            .flat_map(|r| [r.points[0], r.points[r.points.len() - 1]])
            .filter(|p| on_edge(*p, edge))
            .map(|p| along_edge(edge, p))
            .collect();
        for k in 0..at.len() {
            let Some(m) = mouths.iter().copied().find(|m| (at[k] - m).abs() < 0.7) else { continue };
            let mut options = [m - 0.7, m + 0.7];
            options.sort_by(|a, b| (a - at[k]).abs().total_cmp(&(b - at[k]).abs()));
            let others: Vec<f32> = at.iter().enumerate().filter(|(i, _)| *i != k).map(|(_, a)| *a).collect();
            if let Some(o) = options.into_iter().find(|o| {
                (lo..=hi).contains(o) && others.iter().all(|a| (a - o).abs() >= gap * 0.6) && mouths.iter().all(|m| (m - o).abs() >= 0.69)
            }) {
                at[k] = o;
            }
        }
        for (w, a) in wanted.iter().zip(at) {
            exits.insert(w.0, (edge, a));
        }
    }
    // Each road first runs straight for its exit; where those lines cross rivers the fords go.
    // Then every road takes the shortest way from the settlement to its exit that crosses
    // rivers only at fords.
    let plans: Vec<RoadPlan> = exits.iter().map(|(&to, &(edge, along))| RoadPlan { to, edge, along, stops: Vec::new() }).collect();
    let straight: Vec<RoadCourse> = plans.iter().map(|p| lay_road(seed, origin, p, site, &[], &[])).collect();
    for (i, r) in bf.rivers.iter().enumerate() {
        rivers[i].fords = ford_points(&rivers[i].points, r.fords, &straight, &sea, settlement.as_ref());
    }
    let mut roads = Vec::new();
    for mut plan in plans {
        let target = edge_point(plan.edge, plan.along, 0.6);
        plan.stops = ford_route(origin, target, &rivers, &sea);
        roads.push(lay_road(seed, origin, &plan, site, &rivers, &sea));
    }
    // Where a road has no sensible way round by the fords there are, the river gets a ford
    // where the road crosses.
    for river in &mut rivers {
        for (_, _, at) in road_crossings(river, &roads) {
            if !near_ford(river, at) {
                river.fords.push(at);
            }
        }
    }

    Ground { node, name: site.name.clone(), sea, terrain, settlement, rivers, roads }
}

/// Where each road leaves `rect` on its way to its destination (MG-26). A road that starts
/// outside the section, runs through it and ends outside gives the side it leaves by last;
/// roads that never touch the section give nothing.
pub fn road_exits(ground: &Ground, rect: Rect) -> Vec<RoadExit> {
    ground.roads.iter().filter_map(|road| road_exit(road, rect)).collect()
}

/// Where a road running out from the settlement, which lies off the section, first crosses
/// the section's border: the road leaves the table there toward the settlement still on the
/// battle map, not toward another node, so it is no way to retire (MG-26). One a side of the
/// section at most, where roads leave it together; none where the settlement is on it.
pub fn roads_to_settlement(ground: &Ground, rect: Rect) -> Vec<(Edge, Point)> {
    if ground.settlement.as_ref().is_none_or(|town| town.name.is_empty()) {
        return Vec::new();
    }
    let mut out: Vec<(Edge, Point)> = Vec::new();
    for road in &ground.roads {
        let Some(&start) = road.points.first() else { continue };
        if inside_rect(start, rect, 1e-3) {
            continue;
        }
        let Some(&(_, _, at)) = crossings(road, rect).first() else { continue };
        let side = side_of(at, rect);
        // Roads from the town that leave the table together are one way back to it.
        let near = out.iter().any(|(e, p)| *e == side && (p.0 - at.0).hypot(p.1 - at.1) < 1.0);
        if !near {
            out.push((side, at));
        }
    }
    out
}

/// Where a road crosses a rectangle's boundary, in order along the road: the segment, how far
/// along it, and the point.
fn crossings(road: &RoadCourse, rect: Rect) -> Vec<(usize, f32, Point)> {
    let (x0, y0, x1, y1) = (rect.x_feet, rect.y_feet, rect.x_feet + rect.width_feet, rect.y_feet + rect.height_feet);
    let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
    let mut out: Vec<(usize, f32, Point)> = Vec::new();
    for (k, w) in road.points.windows(2).enumerate() {
        for s in 0..4 {
            if let Some((t, _)) = seg_intersection(w[0], w[1], corners[s], corners[(s + 1) % 4]) {
                out.push((k, t, lerp(w[0], w[1], t)));
            }
        }
    }
    out.sort_by(|a, b| (a.0, a.1).partial_cmp(&(b.0, b.1)).unwrap_or(std::cmp::Ordering::Equal));
    out
}

/// The side of a rectangle a point on its boundary lies on.
fn side_of(at: Point, rect: Rect) -> Edge {
    let (x0, y0, x1, y1) = (rect.x_feet, rect.y_feet, rect.x_feet + rect.width_feet, rect.y_feet + rect.height_feet);
    let d = [
        (Edge::North, (at.1 - y0).abs()),
        (Edge::South, (at.1 - y1).abs()),
        (Edge::West, (at.0 - x0).abs()),
        (Edge::East, (at.0 - x1).abs()),
    ];
    d.iter().min_by(|a, b| a.1.total_cmp(&b.1)).map_or(Edge::North, |s| s.0)
}

fn road_exit(road: &RoadCourse, rect: Rect) -> Option<RoadExit> {
    let (x0, y0, x1, y1) = (rect.x_feet, rect.y_feet, rect.x_feet + rect.width_feet, rect.y_feet + rect.height_feet);
    let end = *road.points.last()?;
    // The road's end, or else the last crossing of the rectangle's boundary along it.
    let at = if inside_rect(end, rect, 1e-3) { end } else { crossings(road, rect).last()?.2 };
    let side = side_of(at, rect);
    let along_feet = match side {
        Edge::North | Edge::South => at.0 - x0,
        Edge::East | Edge::West => at.1 - y0,
    };
    let map_edge = match side {
        Edge::North => y0 <= 1e-3,
        Edge::South => y1 >= M - 1e-3,
        Edge::West => x0 <= 1e-3,
        Edge::East => x1 >= M - 1e-3,
    };
    Some(RoadExit { to: road.to, to_name: road.to_name.clone(), side, along_feet, map_edge, at, label: road.label.clone() })
}

/// The corners of an area's cell: (west, north, east, south) in feet.
pub fn cell_bounds(area: Area) -> (f32, f32, f32, f32) {
    let (c, r) = area.cell();
    let side = M / 3.0;
    (f32::from(c) * side, f32::from(r) * side, f32::from(c + 1) * side, f32::from(r + 1) * side)
}

// ---------------------------------------------------------------------------------------------
// Random numbers: SplitMix64, seeded from the node alone.

#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from 24 random bits (exactly representable in an f32).
    fn unit(&mut self) -> f32 {
        let v = self.next() >> 40;
        let hi = u16::try_from(v >> 8).unwrap_or(0);
        let lo = u8::try_from(v & 0xff).unwrap_or(0);
        (f32::from(hi) * 256.0 + f32::from(lo)) / 16_777_216.0
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// The node's seed: FNV-1a over a tag, its number and its name.
fn seed_of(node: NodeId, name: &str) -> u64 {
    let h = fnv(0xCBF2_9CE4_8422_2325, b"referee battle map");
    let h = fnv(h, &[node.0]);
    fnv(h, name.as_bytes())
}

/// A separate stream for each part of the map, so adding a feature does not move the others.
fn stream(seed: u64, tag: &str, index: usize) -> Rng {
    let h = fnv(seed, tag.as_bytes());
    Rng(fnv(h, &u64::try_from(index).unwrap_or(u64::MAX).to_le_bytes()))
}

/// A count as a float (counts here are small: beyond 65 535 it is 65 535).
pub(crate) fn fl(n: impl TryInto<u16>) -> f32 {
    f32::from(n.try_into().unwrap_or(u16::MAX))
}

// ---------------------------------------------------------------------------------------------
// Edges walked clockwise: north (west to east), east (north to south), south (east to west),
// west (south to north).

fn edge_index(e: Edge) -> usize {
    Edge::ALL.iter().position(|x| *x == e).unwrap_or(0)
}

fn area_index(a: Area) -> usize {
    Area::ALL.iter().position(|x| *x == a).unwrap_or(0)
}

fn next(e: Edge) -> Edge {
    Edge::ALL[(edge_index(e) + 1) % 4]
}

fn prev(e: Edge) -> Edge {
    Edge::ALL[(edge_index(e) + 3) % 4]
}

/// Unit vector along `e`, clockwise.
fn tangent(e: Edge) -> Point {
    match e {
        Edge::North => (1.0, 0.0),
        Edge::East => (0.0, 1.0),
        Edge::South => (-1.0, 0.0),
        Edge::West => (0.0, -1.0),
    }
}

/// The point `along` feet clockwise along `edge` from its first corner and `depth` feet in.
fn edge_point(edge: Edge, along: f32, depth: f32) -> Point {
    match edge {
        Edge::North => (along, depth),
        Edge::East => (M - depth, along),
        Edge::South => (M - along, M - depth),
        Edge::West => (depth, M - along),
    }
}

/// How far clockwise along `e` the point `p` lies (its distance from the edge's first corner).
fn along_edge(e: Edge, p: Point) -> f32 {
    match e {
        Edge::North => p.0,
        Edge::East => p.1,
        Edge::South => M - p.0,
        Edge::West => M - p.1,
    }
}

/// Whether `p` lies on the map edge `e`.
pub(crate) fn on_edge(p: Point, e: Edge) -> bool {
    let eps = 1e-3;
    match e {
        Edge::North => p.1.abs() < eps,
        Edge::East => (p.0 - M).abs() < eps,
        Edge::South => (p.1 - M).abs() < eps,
        Edge::West => p.0.abs() < eps,
    }
}

// ---------------------------------------------------------------------------------------------
// The sea.

/// Depth of the sea from one coast edge, sampled every [`SHORE_STEP`] feet clockwise.
fn shoreline(rng: &mut Rng) -> Vec<f32> {
    let base = rng.range(1.0, 1.25);
    let waves: Vec<(f32, f32, f32)> = [(0.18, 0.6, 1.4), (0.1, 1.8, 3.2), (0.05, 4.5, 7.5)]
        .iter()
        .map(|&(a, k0, k1)| (a, rng.range(k0, k1), rng.range(0.0, TAU)))
        .collect();
    let n = steps();
    (0..=n)
        .map(|i| {
            let t = fl(i) * SHORE_STEP / M;
            let d = base + waves.iter().map(|(a, k, ph)| a * (TAU * k * t + ph).sin()).sum::<f32>();
            d.clamp(0.8, 1.5)
        })
        .collect()
}

fn steps() -> usize {
    32
}

fn depth_at(depths: &[f32], along: f32) -> f32 {
    let x = (along / SHORE_STEP).clamp(0.0, fl(depths.len() - 1));
    let mut i = 0;
    while i + 2 < depths.len() && fl(i + 1) <= x {
        i += 1;
    }
    let f = x - fl(i);
    depths[i] * (1.0 - f) + depths[(i + 1).min(depths.len() - 1)] * f
}

/// Runs of adjacent coast edges, each listed clockwise. A table with sea all round is split
/// in two runs that overlap at their corners.
fn coast_chains(coast: &BTreeSet<Edge>) -> Vec<Vec<Edge>> {
    if coast.len() == 4 {
        return vec![vec![Edge::North, Edge::East], vec![Edge::South, Edge::West]];
    }
    let mut chains = Vec::new();
    for &e in coast {
        if coast.contains(&prev(e)) {
            continue;
        }
        let mut chain = vec![e];
        let mut c = next(e);
        while coast.contains(&c) {
            chain.push(c);
            c = next(c);
        }
        chains.push(chain);
    }
    chains
}

fn sea_polygon(chain: &[Edge], shores: &BTreeMap<Edge, Vec<f32>>) -> Vec<Point> {
    let mut outer = vec![edge_point(chain[0], 0.0, 0.0)];
    for &e in chain {
        outer.push(edge_point(e, M, 0.0));
    }
    let mut shore = Vec::new();
    for (i, &e) in chain.iter().enumerate() {
        let d = &shores[&e];
        let from = if i > 0 { depth_at(&shores[&chain[i - 1]], M) } else { 0.0 };
        let to = if i + 1 < chain.len() { M - depth_at(&shores[&chain[i + 1]], 0.0) } else { M };
        // The inner corner where this edge's sea meets the previous one's, or the map edge.
        shore.push(edge_point(e, from, depth_at(d, from)));
        for (k, depth) in d.iter().enumerate() {
            let along = fl(k) * SHORE_STEP;
            if along > from + 0.05 && along < to - 0.05 {
                shore.push(edge_point(e, along, *depth));
            }
        }
        if i + 1 == chain.len() {
            shore.push(edge_point(e, M, depth_at(d, M)));
        }
    }
    shore.reverse();
    outer.extend(shore);
    outer
}

// ---------------------------------------------------------------------------------------------
// Terrain shapes.

/// A closed outline of `kind` about `dims` feet across, turned `rot` radians, its centroid at
/// the origin.
fn outline(rng: &mut Rng, kind: TerrainKind, dims: (f32, f32), rot: f32) -> Vec<Point> {
    // Vertices, superellipse exponent (2 an ellipse, higher squarer), waves (harmonic,
    // amplitude) on the radius, and jitter of each vertex.
    let (n, p, waves, jitter): (usize, f32, &[(f32, f32)], f32) = match kind {
        TerrainKind::Hill => (40, 2.0, &[(2.0, 0.06), (3.0, 0.05)], 0.0),
        TerrainKind::SteepHill => (40, 2.2, &[(2.0, 0.07), (3.0, 0.06), (5.0, 0.03)], 0.01),
        TerrainKind::Wood => (48, 2.6, &[(3.0, 0.05), (7.0, 0.05), (11.0, 0.035)], 0.02),
        TerrainKind::Marsh => (40, 2.0, &[(2.0, 0.05), (4.0, 0.06), (9.0, 0.02)], 0.02),
        TerrainKind::Rough => (11, 2.3, &[(2.0, 0.08)], 0.14),
        TerrainKind::OliveGroves => (20, 5.0, &[(2.0, 0.03)], 0.03),
        TerrainKind::City => (11, 3.5, &[], 0.07),
        TerrainKind::Town => (9, 3.0, &[], 0.1),
        TerrainKind::Village => (8, 2.5, &[], 0.12),
    };
    let (a, b) = (dims.0 / 2.0, dims.1 / 2.0);
    let phases: Vec<(f32, f32, f32)> = waves.iter().map(|&(k, amp)| (k, amp, rng.range(0.0, TAU))).collect();
    let (s, c) = rot.sin_cos();
    let pts: Vec<Point> = (0..n)
        .map(|i| {
            let th = fl(i) * TAU / fl(n);
            let (ct, st) = (th.cos(), th.sin());
            let r = ((ct / a).abs().powf(p) + (st / b).abs().powf(p)).powf(-1.0 / p);
            let wobble = 1.0 + phases.iter().map(|(k, amp, ph)| amp * (k * th + ph).sin()).sum::<f32>() + rng.range(-jitter, jitter);
            let (x, y) = (r * wobble * ct, r * wobble * st);
            (x * c - y * s, x * s + y * c)
        })
        .collect();
    let o = centroid(&pts);
    pts.into_iter().map(|(x, y)| (x - o.0, y - o.1)).collect()
}

/// Puts `base` (centred on the origin) with its centroid in `cell`, as near `preferred` as it
/// will go, clear of the sea and of the pieces already placed; shrinks it if it must.
fn place(base: &[Point], preferred: Point, cell: (f32, f32, f32, f32), others: &[&[Point]], sea: &[Vec<Point>]) -> Vec<Point> {
    let margin = 0.12;
    let mut candidates = vec![preferred];
    let grid = 10u8;
    for i in 0..=grid {
        for j in 0..=grid {
            let fx = f32::from(i) / f32::from(grid);
            let fy = f32::from(j) / f32::from(grid);
            candidates
                .push((cell.0 + margin + (cell.2 - cell.0 - 2.0 * margin) * fx, cell.1 + margin + (cell.3 - cell.1 - 2.0 * margin) * fy));
        }
    }
    let dist = |p: &Point| (p.0 - preferred.0).fast_hypot(p.1 - preferred.1);
    candidates.sort_by(|a, b| dist(a).total_cmp(&dist(b)));
    for scale in [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3] {
        for c in &candidates {
            let poly: Vec<Point> = base.iter().map(|&(x, y)| (c.0 + x * scale, c.1 + y * scale)).collect();
            let (lo, hi) = bbox(&poly);
            if lo.0 < 0.05 || lo.1 < 0.05 || hi.0 > M - 0.05 || hi.1 > M - 0.05 {
                continue;
            }
            if sea.iter().any(|s| polygon_distance(&poly, s) < SEA_GAP) {
                continue;
            }
            if others.iter().any(|o| polygon_distance(&poly, o) < PIECE_GAP) {
                continue;
            }
            return poly;
        }
    }
    base.iter().map(|&(x, y)| (preferred.0 + x * 0.3, preferred.1 + y * 0.3)).collect()
}

// ---------------------------------------------------------------------------------------------
// Rivers.

/// Where a river may end: points on its `to` edge, or a little way into the sea off a coast
/// edge other than the one it rises on (the opposite edge first).
fn river_ends(from: Edge, to: RiverEnd, coast: &BTreeSet<Edge>, shores: &BTreeMap<Edge, Vec<f32>>, rng: &mut Rng) -> Vec<(Edge, Point)> {
    let alongs = [4.0, 3.0, 5.0, 2.2, 5.8, 1.6, 6.4];
    let usable = |e: Edge, a: f32| {
        let lo = if coast.contains(&prev(e)) { depth_at(&shores[&prev(e)], M) + 0.4 } else { 0.5 };
        let hi = if coast.contains(&next(e)) { M - depth_at(&shores[&next(e)], 0.0) - 0.4 } else { M - 0.5 };
        (lo..=hi).contains(&a)
    };
    let mut ends = Vec::new();
    match to {
        RiverEnd::Edge(e) => {
            for a in alongs {
                let a = a + rng.range(-0.2, 0.2);
                if usable(e, a) || !coast.contains(&e) && (0.5..=M - 0.5).contains(&a) {
                    ends.push((e, edge_point(e, a, 0.0)));
                }
            }
        }
        RiverEnd::Sea => {
            let mut edges: Vec<Edge> = coast.iter().copied().filter(|&e| e != from).collect();
            edges.sort_by_key(|&e| if e == from.opposite() { 0 } else { 1 });
            if edges.is_empty() {
                edges.extend(coast.iter().copied());
            }
            for e in edges {
                let d = &shores[&e];
                for a in alongs {
                    let a = a + rng.range(-0.2, 0.2);
                    ends.push((e, edge_point(e, a, depth_at(d, a) - 0.3)));
                }
            }
        }
    }
    if ends.is_empty() {
        let e = match to {
            RiverEnd::Edge(e) => e,
            RiverEnd::Sea => from.opposite(),
        };
        ends.push((e, edge_point(e, M / 2.0, 0.0)));
    }
    ends
}

fn inward(e: Edge) -> Point {
    let (x, y) = e.outward();
    (-x, -y)
}

#[allow(clippy::too_many_arguments)]
fn route_river(
    seed: u64,
    index: usize,
    start: Point,
    from: Edge,
    ends: &[(Edge, Point)],
    settlement: Option<&Terrain>,
    terrain: &[Terrain],
    rivers: &[RiverCourse],
    sea: &[Vec<Point>],
) -> Vec<Point> {
    let mut best: Option<(f32, Vec<Point>)> = None;
    let mut rng = stream(seed, "river-route", index);
    let into = inward(from);
    let a = (start.0 + into.0 * 0.5, start.1 + into.1 * 0.5);
    for &(end_edge, end) in ends {
        let into_end = inward(end_edge);
        let b = (end.0 + into_end.0 * 0.6, end.1 + into_end.1 * 0.6);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = dx.fast_hypot(dy).max(f32::EPSILON);
        let perp = (-dy / len, dx / len);
        for bulge in [0.0, 0.8, -0.8, 1.6, -1.6, 2.4, -2.4] {
            for _variant in 0..2 {
                let mut control = vec![start, a];
                for k in 1..6u8 {
                    let f = f32::from(k) / 6.0;
                    let off = bulge * (PI * f).sin() + rng.range(-0.4, 0.4);
                    let p = (a.0 + dx * f + perp.0 * off, a.1 + dy * f + perp.1 * off);
                    control.push((p.0.clamp(0.3, M - 0.3), p.1.clamp(0.3, M - 0.3)));
                }
                control.push(b);
                control.push(end);
                let line = chaikin(&control, 3);
                let score = river_score(&line, settlement, terrain, rivers, sea);
                if best.as_ref().is_none_or(|(s, _)| score < *s) {
                    best = Some((score, line));
                }
            }
        }
    }
    best.map(|(_, l)| l).unwrap_or_else(|| vec![start, (M / 2.0, M / 2.0)])
}

fn river_score(line: &[Point], settlement: Option<&Terrain>, terrain: &[Terrain], rivers: &[RiverCourse], sea: &[Vec<Point>]) -> f32 {
    let mut score = 0.1 * length(line);
    if let Some(s) = settlement
        && polyline_within(line, &s.outline, 0.25)
    {
        score += 1000.0;
    }
    for r in rivers {
        score += 200.0 * fl(polyline_crossings(line, &r.points).len());
    }
    // Only the mouth may be in the sea.
    let inland = &line[..line.len().saturating_sub(6)];
    if inland.iter().any(|p| sea.iter().any(|s| contains(s, *p))) {
        score += 300.0;
    }
    for t in terrain {
        if polyline_within(line, &t.outline, 0.05) {
            score += match t.kind {
                TerrainKind::SteepHill => 8.0,
                TerrainKind::Hill => 4.0,
                TerrainKind::Marsh => 0.0,
                _ => 1.0,
            };
        }
    }
    score
}

/// The crossings of each road with `river`: (road index, distance along the river, point).
fn road_crossings(river: &RiverCourse, roads: &[RoadCourse]) -> Vec<(usize, f32, Point)> {
    let mut out = Vec::new();
    for (j, road) in roads.iter().enumerate() {
        for (s, p) in polyline_crossings(&river.points, &road.points) {
            out.push((j, s, p));
        }
    }
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

fn near_ford(river: &RiverCourse, p: Point) -> bool {
    river.fords.iter().any(|f| dist(*f, p) <= FORD_REACH)
}

/// Where a road goes: its exit and the fords it passes on the way, in order.
#[derive(Debug, Clone)]
struct RoadPlan {
    to: NodeId,
    edge: Edge,
    along: f32,
    stops: Vec<Point>,
}

/// The road of `plan` from `origin`: a gently bending leg to each ford in turn, then to a point
/// just short of its edge, then straight off the table. A bend that would take a leg across a
/// river (or into the sea) off a ford is straightened.
fn lay_road(seed: u64, origin: Point, plan: &RoadPlan, site: &Site, rivers: &[RiverCourse], sea: &[Vec<Point>]) -> RoadCourse {
    let end = edge_point(plan.edge, plan.along, 0.0);
    let before_end = edge_point(plan.edge, plan.along, 0.6);
    let mut stops = vec![origin];
    stops.extend(plan.stops.iter().copied());
    stops.push(before_end);
    let mut line = vec![origin];
    for (leg, w) in stops.windows(2).enumerate() {
        let mut rng = stream(seed, "road", usize::from(plan.to.0) * 16 + leg);
        let (p, q) = (w[0], w[1]);
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let len = dx.fast_hypot(dy);
        if len < 1e-4 {
            continue;
        }
        let perp = (-dy / len, dx / len);
        let sway = 0.25 * (len / 2.0).min(1.0);
        let mut control = vec![p];
        for k in 1..4u8 {
            let f = f32::from(k) / 4.0;
            let off = rng.range(-sway, sway);
            control.push((p.0 + dx * f + perp.0 * off, p.1 + dy * f + perp.1 * off));
        }
        control.push(q);
        let curved = chaikin(&control, 2);
        let clean = curved.windows(2).all(|s| leg_is_clear(s[0], s[1], p, q, rivers, sea));
        if clean {
            line.extend(curved.into_iter().skip(1));
        } else {
            line.push(q);
        }
    }
    line.push(end);
    RoadCourse { to: plan.to, to_name: site.road_end(plan.to), edge: plan.edge, points: line, label: plan.to.to_string() }
}

/// Whether the segment a–b stays out of the sea and crosses no river except at a ford or at the
/// leg's own ends `p` and `q` (which are fords or the road's ends).
fn leg_is_clear(a: Point, b: Point, p: Point, q: Point, rivers: &[RiverCourse], sea: &[Vec<Point>]) -> bool {
    leg_penalty(a, b, p, q, rivers, sea) == 0.0
}

/// What a straight leg a–b costs beyond its length: for each river it crosses off a ford (and
/// not at the leg's ends `p` and `q`), a new ford to be made; much more for entering the sea.
fn leg_penalty(a: Point, b: Point, p: Point, q: Point, rivers: &[RiverCourse], sea: &[Vec<Point>]) -> f32 {
    let mut penalty = 0.0;
    for r in rivers {
        for (_, x) in polyline_crossings(&[a, b], &r.points) {
            if dist(x, p) > 0.02 && dist(x, q) > 0.02 && !r.fords.iter().any(|f| dist(*f, x) < FORD_REACH / 2.0) {
                penalty += 4.0;
            }
        }
    }
    if (0..=8u8).any(|k| {
        let m = lerp(a, b, f32::from(k) / 8.0);
        sea.iter().any(|s| contains(s, m))
    }) {
        penalty += 100.0;
    }
    penalty
}

/// The fords a road from `from` to `to` passes, in order: the shortest way, counting each
/// river crossed off a ford as 4' of extra road (so a road goes round by a ford unless that is
/// a long way about) and the sea as all but impassable.
fn ford_route(from: Point, to: Point, rivers: &[RiverCourse], sea: &[Vec<Point>]) -> Vec<Point> {
    let mut nodes = vec![from, to];
    nodes.extend(rivers.iter().flat_map(|r| r.fords.iter().copied()));
    let n = nodes.len();
    let mut best = vec![f32::MAX; n];
    let mut came: Vec<Option<usize>> = vec![None; n];
    let mut done = vec![false; n];
    best[0] = 0.0;
    while let Some(cur) = (0..n).filter(|&i| !done[i] && best[i] < f32::MAX).min_by(|&a, &b| best[a].total_cmp(&best[b])) {
        if cur == 1 {
            break;
        }
        done[cur] = true;
        for k in 0..n {
            if done[k] {
                continue;
            }
            let (p, q) = (nodes[cur], nodes[k]);
            let d = best[cur] + dist(p, q) + leg_penalty(p, q, p, q, rivers, sea);
            if d < best[k] {
                best[k] = d;
                came[k] = Some(cur);
            }
        }
    }
    let mut path = Vec::new();
    let mut at = came[1];
    while let Some(i) = at {
        if i == 0 {
            break;
        }
        path.push(nodes[i]);
        at = came[i];
    }
    path.reverse();
    path
}

/// `declared` fords along the river `line`: first where the roads cross it (crossings close
/// together share one, and if there are more crossings than fords the nearest are grouped),
/// then the rest spread over the river's length on land, clear of the settlement.
fn ford_points(line: &[Point], declared: u8, roads: &[RoadCourse], sea: &[Vec<Point>], settlement: Option<&Terrain>) -> Vec<Point> {
    // (distance along the river, road, distance along the road)
    let mut crossings: Vec<(f32, usize, f32)> = Vec::new();
    for (j, road) in roads.iter().enumerate() {
        for (s_road, p) in polyline_crossings(&road.points, line) {
            crossings.push((project_on(line, p), j, s_road));
        }
    }
    crossings.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut clusters: Vec<Vec<(f32, usize, f32)>> = Vec::new();
    for c in crossings {
        match clusters.last_mut() {
            Some(group) if group.last().is_some_and(|l| c.0 - l.0 < 0.6) => group.push(c),
            _ => clusters.push(vec![c]),
        }
    }
    let want = usize::from(declared).max(if declared == 0 { clusters.len() } else { 0 });
    while clusters.len() > want {
        let gap = |i: usize| clusters[i + 1][0].0 - clusters[i].last().map_or(0.0, |l| l.0);
        let k = (0..clusters.len() - 1).min_by(|&i, &j| gap(i).total_cmp(&gap(j))).unwrap_or(0);
        let tail = clusters.remove(k + 1);
        clusters[k].extend(tail);
    }
    let total = length(line);
    // Where the river reaches the sea it is no longer fordable.
    let mut land_end = total;
    while land_end > 0.0 && sea.iter().any(|s| contains(s, point_at(line, land_end))) {
        land_end -= 0.1;
    }
    // The middle crossing of each group, so that at least one road needs no bend.
    let mut at: Vec<f32> = clusters.iter().map(|group| group[group.len() / 2].0.min(land_end - 0.2)).collect();
    let ok = |s: f32| {
        let p = point_at(line, s);
        settlement.is_none_or(|t| !contains(&t.outline, p) && polygon_point_distance(&t.outline, p) > 0.3)
    };
    while at.len() < want {
        let mut best: Option<(f32, f32)> = None;
        let mut s = 0.6;
        while s < land_end - 0.6 {
            if ok(s) {
                let gap = at.iter().map(|f| (s - f).abs()).fold(s.min(land_end - s), f32::min);
                if best.is_none_or(|(_, g)| gap > g) {
                    best = Some((s, gap));
                }
            }
            s += 0.1;
        }
        at.push(best.map_or(total / 2.0, |b| b.0));
    }
    at.sort_by(f32::total_cmp);
    at.into_iter().map(|s| point_at(line, s)).collect()
}

/// How far along `line` the point nearest `p` lies.
pub(crate) fn project_on(line: &[Point], p: Point) -> f32 {
    let mut best = (f32::MAX, 0.0);
    let mut s = 0.0;
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        let t = if len2 < 1e-12 { 0.0 } else { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0) };
        let d = dist(p, lerp(a, b, t));
        if d < best.0 {
            best = (d, s + len2.sqrt() * t);
        }
        s += len2.sqrt();
    }
    best.1
}

// ---------------------------------------------------------------------------------------------
// Geometry.

pub(crate) fn dist(a: Point, b: Point) -> f32 {
    (a.0 - b.0).fast_hypot(a.1 - b.1)
}

pub(crate) fn lerp(a: Point, b: Point, t: f32) -> Point {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

pub(crate) fn bbox(pts: &[Point]) -> (Point, Point) {
    pts.iter()
        .fold(((f32::MAX, f32::MAX), (f32::MIN, f32::MIN)), |(lo, hi), p| ((lo.0.min(p.0), lo.1.min(p.1)), (hi.0.max(p.0), hi.1.max(p.1))))
}

/// The centroid of a closed polygon (the mean of its points if it has no area).
pub fn centroid(poly: &[Point]) -> Point {
    let (mut a, mut cx, mut cy) = (0.0, 0.0, 0.0);
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let cross = p.0 * q.1 - q.0 * p.1;
        a += cross;
        cx += (p.0 + q.0) * cross;
        cy += (p.1 + q.1) * cross;
    }
    if a.abs() < 1e-6 {
        let n = fl(poly.len().max(1));
        return (poly.iter().map(|p| p.0).sum::<f32>() / n, poly.iter().map(|p| p.1).sum::<f32>() / n);
    }
    (cx / (3.0 * a), cy / (3.0 * a))
}

/// Whether `p` lies inside the closed polygon (even–odd rule).
pub fn contains(poly: &[Point], p: Point) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            inside = !inside;
        }
    }
    inside
}

/// Where segments ab and cd cross: the fraction along each.
pub(crate) fn seg_intersection(a: Point, b: Point, c: Point, d: Point) -> Option<(f32, f32)> {
    let r = (b.0 - a.0, b.1 - a.1);
    let s = (d.0 - c.0, d.1 - c.1);
    let den = r.0 * s.1 - r.1 * s.0;
    if den.abs() < 1e-9 {
        return None;
    }
    let t = ((c.0 - a.0) * s.1 - (c.1 - a.1) * s.0) / den;
    let u = ((c.0 - a.0) * r.1 - (c.1 - a.1) * r.0) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some((t, u))
}

pub(crate) fn point_segment_distance(p: Point, a: Point, b: Point) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 < 1e-12 { 0.0 } else { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0) };
    dist(p, (a.0 + dx * t, a.1 + dy * t))
}

fn segment_distance(a: Point, b: Point, c: Point, d: Point) -> f32 {
    if seg_intersection(a, b, c, d).is_some() {
        return 0.0;
    }
    point_segment_distance(a, c, d)
        .min(point_segment_distance(b, c, d))
        .min(point_segment_distance(c, a, b))
        .min(point_segment_distance(d, a, b))
}

pub(crate) fn polygon_point_distance(poly: &[Point], p: Point) -> f32 {
    (0..poly.len()).map(|i| point_segment_distance(p, poly[i], poly[(i + 1) % poly.len()])).fold(f32::MAX, f32::min)
}

/// Distance between two closed polygons: zero if they overlap.
pub fn polygon_distance(a: &[Point], b: &[Point]) -> f32 {
    let (alo, ahi) = bbox(a);
    let (blo, bhi) = bbox(b);
    let gap = (blo.0 - ahi.0).max(alo.0 - bhi.0).max(blo.1 - ahi.1).max(alo.1 - bhi.1);
    if gap > 0.5 {
        return gap;
    }
    if a.first().is_some_and(|p| contains(b, *p)) || b.first().is_some_and(|p| contains(a, *p)) {
        return 0.0;
    }
    let mut best = f32::MAX;
    for i in 0..a.len() {
        for j in 0..b.len() {
            best = best.min(segment_distance(a[i], a[(i + 1) % a.len()], b[j], b[(j + 1) % b.len()]));
        }
    }
    best
}

/// Whether an open line comes nearer than `reach` to a closed polygon. Each river's course is
/// scored against every piece of terrain many times over, and most pieces lie far from it:
/// where their boxes are more than `reach` apart (with room to spare for rounding) the line
/// cannot come that near, and the distance is not worked out.
fn polyline_within(line: &[Point], poly: &[Point], reach: f32) -> bool {
    let (llo, lhi) = bbox(line);
    let (plo, phi) = bbox(poly);
    let gap = (plo.0 - lhi.0).max(llo.0 - phi.0).max(plo.1 - lhi.1).max(llo.1 - phi.1);
    gap <= reach + 0.01 && polyline_polygon_distance(line, poly) < reach
}

/// Distance from an open line to a closed polygon: zero if it enters it.
fn polyline_polygon_distance(line: &[Point], poly: &[Point]) -> f32 {
    if line.iter().any(|p| contains(poly, *p)) {
        return 0.0;
    }
    let mut best = f32::MAX;
    for w in line.windows(2) {
        for j in 0..poly.len() {
            best = best.min(segment_distance(w[0], w[1], poly[j], poly[(j + 1) % poly.len()]));
        }
    }
    best
}

pub(crate) fn length(line: &[Point]) -> f32 {
    line.windows(2).map(|w| dist(w[0], w[1])).sum()
}

/// The point `s` feet along an open line.
pub(crate) fn point_at(line: &[Point], s: f32) -> Point {
    let mut left = s.max(0.0);
    for w in line.windows(2) {
        let d = dist(w[0], w[1]);
        if left <= d && d > 0.0 {
            return lerp(w[0], w[1], left / d);
        }
        left -= d;
    }
    line.last().copied().unwrap_or((0.0, 0.0))
}

/// Where open line `a` crosses open line `b`: distance along `a`, and the point.
pub(crate) fn polyline_crossings(a: &[Point], b: &[Point]) -> Vec<(f32, Point)> {
    let mut out = Vec::new();
    let mut s = 0.0;
    for wa in a.windows(2) {
        let d = dist(wa[0], wa[1]);
        for wb in b.windows(2) {
            if let Some((t, _)) = seg_intersection(wa[0], wa[1], wb[0], wb[1]) {
                out.push((s + d * t, lerp(wa[0], wa[1], t)));
            }
        }
        s += d;
    }
    // A crossing exactly at a shared vertex shows up in two segments.
    out.dedup_by(|x, y| (x.0 - y.0).abs() < 1e-3);
    out
}

/// Corner cutting: rounds an open line, keeping its two ends.
fn chaikin(line: &[Point], rounds: u8) -> Vec<Point> {
    let mut pts = line.to_vec();
    for _ in 0..rounds {
        if pts.len() < 3 {
            break;
        }
        let mut out = vec![pts[0]];
        for w in pts.windows(2) {
            out.push(lerp(w[0], w[1], 0.25));
            out.push(lerp(w[0], w[1], 0.75));
        }
        out.push(pts[pts.len() - 1]);
        // The first and last quarter-points sit on the end segments; drop them to keep the ends
        // leaving their edges straight.
        out.remove(1);
        out.remove(out.len() - 2);
        pts = out;
    }
    pts
}

/// Whether `p` lies in `r` widened by `eps` on every side (narrowed, for a negative `eps`).
pub(crate) fn inside_rect(p: Point, r: Rect, eps: f32) -> bool {
    p.0 >= r.x_feet - eps && p.0 <= r.x_feet + r.width_feet + eps && p.1 >= r.y_feet - eps && p.1 <= r.y_feet + r.height_feet + eps
}

/// A closed polygon cut to a rectangle (Sutherland–Hodgman); empty if nothing is left.
pub fn clip_polygon(poly: &[Point], r: Rect) -> Vec<Point> {
    let (x0, y0, x1, y1) = (r.x_feet, r.y_feet, r.x_feet + r.width_feet, r.y_feet + r.height_feet);
    // Each boundary: a test for "inside" and the crossing of a segment with it.
    let mut pts = poly.to_vec();
    for side in 0..4u8 {
        if pts.is_empty() {
            break;
        }
        let inside = |p: Point| match side {
            0 => p.0 >= x0,
            1 => p.0 <= x1,
            2 => p.1 >= y0,
            _ => p.1 <= y1,
        };
        let cross = |a: Point, b: Point| {
            let t = match side {
                0 => (x0 - a.0) / (b.0 - a.0),
                1 => (x1 - a.0) / (b.0 - a.0),
                2 => (y0 - a.1) / (b.1 - a.1),
                _ => (y1 - a.1) / (b.1 - a.1),
            };
            lerp(a, b, t)
        };
        let mut out = Vec::with_capacity(pts.len() + 4);
        for i in 0..pts.len() {
            let cur = pts[i];
            let before = pts[(i + pts.len() - 1) % pts.len()];
            match (inside(before), inside(cur)) {
                (true, true) => out.push(cur),
                (true, false) => out.push(cross(before, cur)),
                (false, true) => {
                    out.push(cross(before, cur));
                    out.push(cur);
                }
                (false, false) => {}
            }
        }
        pts = out;
    }
    if pts.len() < 3 { Vec::new() } else { pts }
}

/// An open line cut to a rectangle (Liang–Barsky on each segment): the pieces inside it.
pub fn clip_polyline(line: &[Point], r: Rect) -> Vec<Vec<Point>> {
    let (x0, y0, x1, y1) = (r.x_feet, r.y_feet, r.x_feet + r.width_feet, r.y_feet + r.height_feet);
    let mut pieces: Vec<Vec<Point>> = Vec::new();
    let mut current: Vec<Point> = Vec::new();
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        let mut visible = true;
        for (p, q) in [(-dx, a.0 - x0), (dx, x1 - a.0), (-dy, a.1 - y0), (dy, y1 - a.1)] {
            if p.abs() < 1e-12 {
                if q < 0.0 {
                    visible = false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        if !visible || t0 > t1 {
            if current.len() > 1 {
                pieces.push(std::mem::take(&mut current));
            }
            current.clear();
            continue;
        }
        let (pa, pb) = (lerp(a, b, t0), lerp(a, b, t1));
        if current.last().is_none_or(|l| dist(*l, pa) > 1e-5) {
            if current.len() > 1 {
                pieces.push(std::mem::take(&mut current));
            }
            current = vec![pa];
        }
        current.push(pb);
        if t1 < 1.0 {
            pieces.push(std::mem::take(&mut current));
        }
    }
    if current.len() > 1 {
        pieces.push(current);
    }
    pieces
}

/// `hypot` without the C library's care for overflow, which no distance on an 8' map needs:
/// the library call was half the time of building a map. Plain square root is also exact the
/// same way on every platform, which keeps the map identical everywhere.
pub(crate) trait FastHypot {
    fn fast_hypot(self, other: f32) -> f32;
}

impl FastHypot for f32 {
    fn fast_hypot(self, other: f32) -> f32 {
        (self * self + other * other).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magna_graecia::node_ground;
    use crate::section::{Defence, section};
    use referee_campaign::magna_graecia::catalog::Catalog;
    use referee_campaign::magna_graecia::map::Map;

    fn sicily() -> Map {
        Catalog::embedded().map("sicily").unwrap().clone()
    }

    fn on_map(p: Point) -> bool {
        (-1e-3..=M + 1e-3).contains(&p.0) && (-1e-3..=M + 1e-3).contains(&p.1)
    }

    /// Overlap of two polygons, checked independently of `polygon_distance`: some edge of one
    /// crosses an edge of the other, or a sample point lies in both.
    fn overlap(a: &[Point], b: &[Point]) -> bool {
        for i in 0..a.len() {
            for j in 0..b.len() {
                if seg_intersection(a[i], a[(i + 1) % a.len()], b[j], b[(j + 1) % b.len()]).is_some() {
                    return true;
                }
            }
        }
        let (lo, hi) = bbox(a);
        for i in 0..=20u8 {
            for j in 0..=20u8 {
                let p = (lo.0 + (hi.0 - lo.0) * f32::from(i) / 20.0, lo.1 + (hi.1 - lo.1) * f32::from(j) / 20.0);
                if contains(a, p) && contains(b, p) {
                    return true;
                }
            }
        }
        false
    }

    /// The quick test of a river against a piece of terrain answers as the full distance
    /// does, on either side of its reach and with the line inside, across, or beside it.
    #[test]
    fn a_line_near_a_polygon_is_judged_as_the_full_distance_judges_it() {
        let hill = [(4.0, 4.0), (6.0, 3.5), (7.0, 5.5), (5.0, 7.0), (3.5, 6.0)];
        let mut checked = 0;
        for step in 0..400u16 {
            let d = f32::from(step) * 0.0025;
            for line in [
                vec![(7.0 + d, 0.0), (7.0 + d, 4.0), (7.2 + d, 9.0)],
                vec![(0.0, 7.0 + d), (3.0, 7.1 + d), (9.0, 7.0 + d)],
                vec![(3.5 - d, 6.0), (0.0, 6.0)],
                vec![(5.0, 5.0 + d), (5.5, 5.5)],
                vec![(0.0, d), (12.0, 12.0 - d)],
            ] {
                for reach in [0.05, 0.25] {
                    let full = polyline_polygon_distance(&line, &hill) < reach;
                    assert_eq!(polyline_within(&line, &hill, reach), full, "offset {d}, reach {reach}, {line:?}");
                    checked += usize::from(full);
                }
            }
        }
        assert!(checked > 100, "too few lines came near: {checked}");
    }

    /// MG-21: the battle map of a node is fixed: building it twice, or from a second load of
    /// the data, gives the same shapes to the last bit.
    #[test]
    fn mg_21_the_same_node_always_gives_the_same_ground() {
        let map = sicily();
        // The built-in files are parsed once per process: the second load reads their
        // folder afresh.
        let folder = referee_data::DataSource::Folder(concat!(env!("CARGO_MANIFEST_DIR"), "/../data").into());
        let again = Catalog::load(&folder).unwrap().map("sicily").unwrap().clone();
        for id in map.nodes.keys() {
            let a = node_ground(&map, *id).unwrap();
            assert_eq!(a, node_ground(&map, *id).unwrap(), "node {id}");
            assert_eq!(a, node_ground(&again, *id).unwrap(), "node {id}");
        }
        // And different nodes do differ.
        assert_ne!(node_ground(&map, NodeId(24)).unwrap().terrain, node_ground(&map, NodeId(25)).unwrap().terrain);
        assert!(node_ground(&map, NodeId(200)).is_none());
    }

    /// MG-21: every node of Sicily gets a battle map that matches its description: shapes on
    /// the table, each feature in its area, sea along each coast edge, each river rising on its
    /// edge with its fords, one road per neighbour ending on its edge and crossing rivers only
    /// at fords, and no two pieces of terrain (or the settlement) on top of each other.
    #[test]
    fn mg_21_every_node_of_sicily_has_a_consistent_ground() {
        let map = sicily();
        assert_eq!(map.nodes.len(), 32);
        let mut extras = 0;
        for (id, node) in &map.nodes {
            let g = node_ground(&map, *id).unwrap();
            let bf = &node.battlefield;
            let label = node.label();
            let mut shapes: Vec<&[Point]> = g.sea.iter().map(Vec::as_slice).collect();
            shapes.extend(g.terrain.iter().map(|t| t.outline.as_slice()));
            shapes.extend(g.settlement.iter().map(|t| t.outline.as_slice()));
            for s in &shapes {
                assert!(s.len() >= 3 && s.iter().all(|p| on_map(*p)), "{label}: a shape leaves the table");
            }
            for line in g.rivers.iter().map(|r| &r.points).chain(g.roads.iter().map(|r| &r.points)) {
                assert!(line.iter().all(|p| on_map(*p)), "{label}: a line leaves the table");
            }
            // Terrain: one piece per feature, centroid in its cell, the right going.
            assert_eq!(g.terrain.len(), bf.features.len(), "{label}");
            for (t, f) in g.terrain.iter().zip(&bf.features) {
                assert_eq!(t.kind, TerrainKind::from_feature(f.kind), "{label}");
                assert_eq!(t.name, f.name, "{label}");
                let c = centroid(&t.outline);
                let (x0, y0, x1, y1) = cell_bounds(f.area);
                assert!(c.0 > x0 && c.0 < x1 && c.1 > y0 && c.1 < y1, "{label}: {} {:?} not in {:?}", t.kind.name(), c, f.area);
            }
            match (&g.settlement, &bf.settlement) {
                (Some(t), Some(s)) => {
                    assert_eq!(t.kind, TerrainKind::from_settlement(s.kind));
                    let c = centroid(&t.outline);
                    let (x0, y0, x1, y1) = cell_bounds(s.area);
                    assert!(c.0 > x0 && c.0 < x1 && c.1 > y0 && c.1 < y1, "{label}: settlement {c:?} not in {:?}", s.area);
                }
                (None, None) => {}
                _ => panic!("{label}: settlement mismatch"),
            }
            // Nothing overlaps: terrain, settlement, sea.
            let land: Vec<&[Point]> = shapes[g.sea.len()..].to_vec();
            for (i, a) in land.iter().enumerate() {
                for b in land.iter().skip(i + 1) {
                    assert!(!overlap(a, b), "{label}: two pieces of terrain overlap");
                }
                for s in &g.sea {
                    assert!(!overlap(a, s), "{label}: terrain in the sea");
                }
            }
            // The sea: along every coast edge, and only there.
            for e in Edge::ALL {
                let mid = edge_point(e, M / 2.0, 0.3);
                assert_eq!(g.sea.iter().any(|s| contains(s, mid)), bf.coast.contains(&e), "{label}: sea on the {e} edge");
            }
            // Rivers.
            assert_eq!(g.rivers.len(), bf.rivers.len());
            for (course, river) in g.rivers.iter().zip(&bf.rivers) {
                let start = course.points[0];
                assert!(on_edge(start, river.from), "{label}: the {} rises at {start:?}, not on the {} edge", river.name, river.from);
                let along = match river.from {
                    Edge::North | Edge::South => start.0,
                    Edge::East | Edge::West => start.1,
                };
                assert!((M / 3.0..=2.0 * M / 3.0).contains(&along), "{label}: the {} rises outside the middle third", river.name);
                let end = *course.points.last().unwrap();
                match river.to {
                    RiverEnd::Edge(e) => assert!(on_edge(end, e), "{label}: the {} ends at {end:?}, not on the {e} edge", river.name),
                    RiverEnd::Sea => assert!(g.sea.iter().any(|s| contains(s, end)), "{label}: the {} does not reach the sea", river.name),
                }
                // The fords the map gives, and more only where a road had to cross without one.
                assert!(course.fords.len() >= usize::from(river.fords), "{label}: fords of the {}", river.name);
                for extra in &course.fords[usize::from(river.fords)..] {
                    let on_road =
                        g.roads.iter().any(|r| polyline_crossings(&r.points, &course.points).iter().any(|c| dist(c.1, *extra) < 1e-3));
                    assert!(on_road, "{label}: an extra ford of the {} with no road", river.name);
                    extras += 1;
                }
                if let Some(s) = &g.settlement {
                    assert!(
                        polyline_polygon_distance(&course.points, &s.outline) > 0.1,
                        "{label}: the {} runs through the town",
                        river.name
                    );
                }
                for f in &course.fords {
                    assert!(
                        course.points.windows(2).any(|w| point_segment_distance(*f, w[0], w[1]) < 1e-3),
                        "{label}: a ford off the river"
                    );
                }
            }
            // Roads: one per neighbour, ending on its edge, crossing rivers at fords, off the sea.
            let neighbours: BTreeSet<NodeId> = map.neighbours(*id).collect();
            let roads: BTreeSet<NodeId> = g.roads.iter().map(|r| r.to).collect();
            assert_eq!(roads, neighbours, "{label}");
            for road in &g.roads {
                assert_eq!(road.edge, bf.roads[&road.to]);
                assert_eq!(road.to_name, map.name(road.to));
                assert!(on_edge(*road.points.last().unwrap(), road.edge), "{label}: the road to {} misses its edge", road.to);
                for p in &road.points {
                    assert!(!g.sea.iter().any(|s| contains(s, *p)), "{label}: the road to {} runs into the sea", road.to);
                }
                for river in &g.rivers {
                    for (_, p) in polyline_crossings(&road.points, &river.points) {
                        assert!(near_ford(river, p), "{label}: the road to {} crosses the {} off a ford at {p:?}", road.to, river.name);
                    }
                }
            }
            // Roads to the same edge leave it apart.
            for a in &g.roads {
                for b in &g.roads {
                    if a.to < b.to && a.edge == b.edge {
                        let (pa, pb) = (*a.points.last().unwrap(), *b.points.last().unwrap());
                        assert!(dist(pa, pb) > 0.5, "{label}: roads to {} and {} leave together", a.to, b.to);
                    }
                }
            }
        }
        // Fords made for roads are the exception, not the rule.
        eprintln!("extra fords over Sicily: {extras}");
        assert!(extras <= 3, "{extras} fords beyond the map file's");
    }

    /// MG-26: at Himera (8), attacked from the west, the central section leaves the town off
    /// the table: the roads to Cephaloedium and Petra run out of it by the west side, toward
    /// the town still on the battle map. That is one way back to the town, not an exit to a
    /// node; the whole map, with the town on it, has none.
    #[test]
    fn mg_26_roads_back_to_a_town_off_the_table_are_no_exit() {
        let map = sicily();
        let g = node_ground(&map, NodeId(8)).unwrap();
        let central = section(Edge::West, Defence::Central, None).rect;
        let back = roads_to_settlement(&g, central);
        assert_eq!(back.iter().map(|(e, _)| *e).collect::<Vec<_>>(), [Edge::West], "{back:?}");
        assert!(road_exits(&g, central).iter().all(|e| e.side != Edge::West), "no exit to a node by the west side");
        let whole = Rect { x_feet: 0.0, y_feet: 0.0, width_feet: 8.0, height_feet: 8.0 };
        assert!(roads_to_settlement(&g, whole).is_empty());
    }

    /// MG-26: the exits listed for a section are where its roads leave it. At Catana (24) the
    /// roads to Leontini (23) and Megara (25) leave by the south map edge and the road to Naxos
    /// (26) by the north. Attacked from the south, a forward section keeps the south edge, so
    /// those roads leave by the map edge; the rear section is the north half, where Naxos's road
    /// leaves by the map edge and the southern roads leave through its south side, which is not
    /// the map edge.
    #[test]
    fn mg_26_road_exits_name_the_side_of_the_section() {
        let map = sicily();
        let g = node_ground(&map, NodeId(24)).unwrap();
        let forward = road_exits(&g, section(Edge::South, Defence::Forward, None).rect);
        let rear = road_exits(&g, section(Edge::South, Defence::Rear, None).rect);
        let find = |exits: &[RoadExit], to: u8| exits.iter().find(|e| e.to == NodeId(to)).cloned();
        for to in [23, 25] {
            let f = find(&forward, to).unwrap_or_else(|| panic!("forward: no exit to {to}: {forward:?}"));
            assert_eq!((f.side, f.map_edge), (Edge::South, true), "forward {to}");
            assert!((0.0..=8.0).contains(&f.along_feet));
            assert_eq!(f.to_name, map.name(NodeId(to)));
        }
        let naxos = find(&rear, 26).unwrap();
        assert_eq!((naxos.side, naxos.map_edge), (Edge::North, true));
        for e in &rear {
            if e.to == NodeId(23) || e.to == NodeId(25) {
                assert_eq!((e.side, e.map_edge), (Edge::South, false), "rear {e:?}");
            }
        }
        assert_ne!(forward, rear);
        // A road wholly outside the section gives nothing: a sliver in the far corner.
        let corner = Rect { x_feet: 0.0, y_feet: 0.0, width_feet: 0.01, height_feet: 0.01 };
        assert!(road_exits(&g, corner).is_empty());
        // The whole map: every road leaves by its own map edge.
        let all = road_exits(&g, Rect { x_feet: 0.0, y_feet: 0.0, width_feet: 8.0, height_feet: 8.0 });
        assert_eq!(all.len(), g.roads.len());
        for (exit, road) in all.iter().zip(&g.roads) {
            assert_eq!((exit.side, exit.map_edge), (road.edge, true));
        }
    }

    #[test]
    fn clipping_keeps_what_is_inside() {
        let r = Rect { x_feet: 0.0, y_feet: 0.0, width_feet: 4.0, height_feet: 4.0 };
        let square = [(2.0, 2.0), (6.0, 2.0), (6.0, 6.0), (2.0, 6.0)];
        let c = clip_polygon(&square, r);
        let (lo, hi) = bbox(&c);
        assert_eq!((lo, hi), ((2.0, 2.0), (4.0, 4.0)));
        assert!(clip_polygon(&[(5.0, 5.0), (6.0, 5.0), (6.0, 6.0)], r).is_empty());
        let line = [(-1.0, 1.0), (2.0, 1.0), (2.0, 6.0), (3.0, 6.0), (3.0, 2.0)];
        let pieces = clip_polyline(&line, r);
        assert_eq!(pieces.len(), 2, "{pieces:?}");
        assert_eq!(pieces[0], vec![(0.0, 1.0), (2.0, 1.0), (2.0, 4.0)]);
        assert_eq!(pieces[1], vec![(3.0, 4.0), (3.0, 2.0)]);
    }
}
