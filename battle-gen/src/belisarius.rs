//! The Belisarius adapter: a battle under way in a Belisarius campaign, sent to the
//! tabletop (BE-17), as [`BattleSpec`]s and an [`UmpireSpec`] for the pack's writers.
//!
//! - The ground is drawn from the zone: its terrain (a plain gets a few gentle features, a
//!   mountain zone steep hills and rough ground), its coast on the side the sea lies, its
//!   city (a walled city where the fortification is 3 or more, a town otherwise) and a road
//!   to each neighbouring zone, by the same generator as Magna Graecia's battle maps.
//! - The forces become DBM elements by the conversion table `data/belisarius/tabletop.toml`
//!   (reconstructed, each entry with its reason): two elements a combat point, the largest
//!   side at most 50 elements and every side scaled by the same factor above that, so the
//!   odds of the campaign reach the table. DBSA rosters are drawn from the same elements by
//!   the DBSA converter's own per-battle scaling.
//! - A side's spec comes from its own view: inside a battle both forces are face up
//!   (BE-53), so its brief shows the enemy as deployed on the tactical display, and nothing
//!   of any other force, action points or stratagem.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

use referee_campaign::belisarius::Setup;
use referee_campaign::belisarius::event::{Event, Logged};
use referee_campaign::belisarius::map::{Terrain as ZoneTerrain, ZoneId};
use referee_campaign::belisarius::pieces::{Morale, Unit, UnitKind};
use referee_campaign::belisarius::state::{Location, State};
use referee_campaign::belisarius::tables::Interception;
use referee_campaign::belisarius::view::{BattleBoard, Board, ForceFace, view_for};
use referee_campaign::core::engine::EngineId;
use referee_campaign::core::table::{Area, Battlefield, Edge, Feature, FeatureKind, Settlement, SettlementKind, Size};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::army::{ElementSpec, ElementTable, Mobility};
use referee_data::{DataError, DataSource, SourceText};
use serde::Deserialize;

use crate::adapter::BattleSource;
use crate::ground::{Ground, Site, ground, road_exits};
use crate::pack::{PackError, PackFile, PackOptions};
use crate::section::{Defence, MAP_FEET, Rect, SECTION_DEPTH_FEET, Section, section};
use crate::spec::{
    BattleSpec, EnemyKnowledge, Exit, Field, GroundSpec, Notes, Rank, Seen, SpecHead, SpecSide, TableSet, TroopGroup, TroopLine,
    UmpireSide, UmpireSpec,
};

/// The conversion table's file.
pub const CONVERSION_FILE: &str = "belisarius/tabletop.toml";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConversion {
    version: u32,
    #[expect(dead_code, reason = "read so that the file is refused without it; the program's notices say the data is reconstructed")]
    reconstructed: bool,
    reasoning: String,
    element: Vec<RawElement>,
    scale: RawScale,
    morale: RawMorale,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawElement {
    kind: UnitKind,
    #[serde(default)]
    missile: Option<bool>,
    #[serde(default)]
    skirmish: Option<bool>,
    morale: Vec<String>,
    #[serde(default)]
    people: Option<String>,
    dbm: String,
    dbsa: String,
    reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScale {
    #[expect(dead_code, reason = "documents the file; checked for presence only")]
    reconstructed: bool,
    dbm_elements_per_point: u32,
    dbm_largest_side_elements: u32,
    reasoning: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMorale {
    #[expect(dead_code, reason = "documents the file; checked for presence only")]
    reconstructed: bool,
    grade: BTreeMap<String, String>,
    reasoning: String,
}

/// One line of the conversion table: the units it fits and the element they become.
#[derive(Debug, Clone, PartialEq)]
pub struct ElementRule {
    pub kind: UnitKind,
    pub missile: Option<bool>,
    pub skirmish: Option<bool>,
    pub morale: Vec<Morale>,
    /// The nation of the leader the unit serves under (his side in the leaders' file).
    pub people: Option<String>,
    pub dbm: ElementSpec,
    /// The DBSA type's code, as the DBSA converter reads it.
    pub dbsa: String,
    pub reason: String,
}

impl ElementRule {
    fn fits(&self, unit: &Unit) -> bool {
        self.kind == unit.kind
            && self.missile.is_none_or(|m| m == unit.missile)
            && self.skirmish.is_none_or(|s| s == unit.skirmish)
            && self.morale.contains(&unit.morale)
    }
}

/// The conversion of Belisarius units to tabletop elements.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversion {
    pub reasoning: String,
    pub elements: Vec<ElementRule>,
    pub per_point: u32,
    pub largest_side: u32,
    pub scale_reasoning: String,
    /// The grade each morale letter gives by default, and why.
    pub grades: BTreeMap<String, String>,
    pub morale_reasoning: String,
    /// The text it was read from, kept with a battle whose hex pack it counted.
    pub text: String,
}

fn morale_of(letter: &str) -> Option<Morale> {
    match letter {
        "A" => Some(Morale::A),
        "B" => Some(Morale::B),
        "C" => Some(Morale::C),
        "D" => Some(Morale::D),
        _ => None,
    }
}

impl Conversion {
    pub fn load(source: &DataSource) -> Result<Conversion, DataError> {
        let text = source.read(CONVERSION_FILE)?;
        Conversion::parse(&text)
    }

    /// The table a battle's hex pack was counted by, kept with the battle; `None` when its
    /// pack kept none (written before tables were kept).
    pub fn kept(tables: &[referee_campaign::store::KeptTable], battle: u32) -> Option<Result<Conversion, DataError>> {
        tables.iter().find(|t| t.path == CONVERSION_FILE).map(|t| Conversion::parse(&t.source(battle)))
    }

    /// The built-in table, which the test suite checks and so always loads.
    pub fn embedded() -> Conversion {
        Conversion::load(&DataSource::Embedded).expect("the built-in conversion table is valid")
    }

    pub fn parse(source: &SourceText) -> Result<Conversion, DataError> {
        let raw: RawConversion = referee_data::parse_toml(source)?;
        let file = &source.file;
        let line = |header: &str, n: usize| crate::hexunits::entry_line(&source.text, header, n);
        if raw.version != 1 {
            return Err(DataError::single(file, line("version", 0), format!("version {} is not one this program reads (1)", raw.version)));
        }
        let mut elements = Vec::new();
        for (i, e) in raw.element.into_iter().enumerate() {
            let n = i + 1;
            let dbm = ElementSpec::from_str(&e.dbm).map_err(|why| {
                DataError::single(file, line("[[element]]", i), format!("element {n}: `{}` is not a DBM element ({why})", e.dbm))
            })?;
            let mut morale = Vec::new();
            for m in &e.morale {
                morale.push(morale_of(m).ok_or_else(|| {
                    DataError::single(file, line("[[element]]", i), format!("element {n}: `{m}` is not a morale letter (A, B, C or D)"))
                })?);
            }
            if morale.is_empty() {
                return Err(DataError::single(file, line("[[element]]", i), format!("element {n} names no morale letter")));
            }
            elements.push(ElementRule {
                kind: e.kind,
                missile: e.missile,
                skirmish: e.skirmish,
                morale,
                people: e.people,
                dbm,
                dbsa: e.dbsa,
                reason: e.reason,
            });
        }
        if raw.scale.dbm_elements_per_point == 0 || raw.scale.dbm_largest_side_elements == 0 {
            return Err(DataError::single(file, line("[scale]", 0), "the scale needs at least one element a point and one element a side"));
        }
        Ok(Conversion {
            reasoning: raw.reasoning,
            elements,
            per_point: raw.scale.dbm_elements_per_point,
            largest_side: raw.scale.dbm_largest_side_elements,
            scale_reasoning: raw.scale.reasoning,
            grades: raw.morale.grade,
            morale_reasoning: raw.morale.reasoning,
            text: source.text.clone(),
        })
    }

    /// The rule for `unit` of `people`: one naming the people first, then one naming none.
    pub fn rule(&self, unit: &Unit, people: &str) -> Option<&ElementRule> {
        self.elements
            .iter()
            .find(|r| r.people.as_deref() == Some(people) && r.fits(unit))
            .or_else(|| self.elements.iter().find(|r| r.people.is_none() && r.fits(unit)))
    }
}

/// Why a battle cannot be sent to the tabletop.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TablePackError {
    #[error("there is no battle under way — BE-17")]
    NoBattle,
    #[error("the conversion table has no element for {unit} of the {people} — {file}")]
    NoElement { unit: String, people: String, file: String },
    #[error("{0} is not a zone of the map — BE-17")]
    NoZone(String),
    #[error("{0}")]
    Pack(String),
    #[error("{0} — BE-17")]
    Result(String),
}

/// One force's units grouped per leader and DBM element: (leader id, element, points).
fn points_by_element(conv: &Conversion, setup: &Setup, force: &ForceFace) -> Result<Vec<(String, ElementSpec, u32)>, TablePackError> {
    let mut out: Vec<(String, ElementSpec, u32)> = Vec::new();
    for u in force.units.iter().filter(|u| u.fighter.unit.value > 0) {
        let people = setup.leader(&u.leader).map_or_else(|| force.side.to_string(), |l| l.side.clone());
        let rule = conv.rule(&u.fighter.unit, &people).ok_or_else(|| TablePackError::NoElement {
            unit: format!("{} {}", u.fighter.unit, u.fighter.unit.kind.label()),
            people: people.clone(),
            file: format!("data/{CONVERSION_FILE}"),
        })?;
        let points = u32::from(u.fighter.unit.value);
        match out.iter_mut().find(|(l, e, _)| *l == u.leader && *e == rule.dbm) {
            Some(entry) => entry.2 += points,
            None => out.push((u.leader.clone(), rule.dbm.clone(), points)),
        }
    }
    Ok(out)
}

/// The elements each (leader, element) group of each force fields: two a point, the largest
/// side at most `largest_side`, and above that one factor for the whole battle, each side
/// rounded to the nearest element (never below one) and shared among its groups by largest
/// remainder.
pub fn element_counts(conv: &Conversion, groups: &[Vec<(String, ElementSpec, u32)>]) -> Vec<Vec<u32>> {
    let raw: Vec<Vec<u32>> = groups.iter().map(|g| g.iter().map(|(_, _, p)| p * conv.per_point).collect()).collect();
    let largest = raw.iter().map(|g| g.iter().sum::<u32>()).max().unwrap_or(0);
    if largest <= conv.largest_side {
        return raw;
    }
    let factor = f64::from(conv.largest_side) / f64::from(largest);
    raw.iter()
        .map(|g| {
            let total: u32 = g.iter().sum();
            // Whole elements for the side, never below one.
            let target = ((f64::from(total) * factor).round() as u32).max(1).min(total);
            let exact: Vec<f64> = g.iter().map(|&e| f64::from(e) * factor).collect();
            let mut counts: Vec<u32> = exact.iter().map(|x| x.floor() as u32).collect();
            let mut order: Vec<usize> = (0..g.len()).collect();
            order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())).then(a.cmp(&b)));
            let mut left = target.saturating_sub(counts.iter().sum());
            for &i in order.iter().cycle().take(g.len() * 2) {
                if left == 0 {
                    break;
                }
                counts[i] += 1;
                left -= 1;
            }
            counts
        })
        .collect()
}

/// A force's troop lines: one per leader, the commander first, with the elements its units
/// become and their DBM points (the general's surcharge included).
fn troop_lines(setup: &Setup, elements: &ElementTable, groups: &[(String, ElementSpec, u32)], counts: &[u32]) -> Vec<TroopLine> {
    let mut leaders: Vec<String> = Vec::new();
    for (l, _, _) in groups {
        if !leaders.contains(l) {
            leaders.push(l.clone());
        }
    }
    leaders
        .iter()
        .enumerate()
        .filter_map(|(n, id)| {
            let mut own: Vec<(ElementSpec, u32)> =
                groups.iter().zip(counts).filter(|((l, _, _), c)| l == id && **c > 0).map(|((_, e, _), c)| (e.clone(), *c)).collect();
            if own.is_empty() {
                return None;
            }
            // The general stands with an element of his best mounted kind, or his first.
            let mounted = own.iter().position(|(e, _)| elements.mobility(e) == Some(Mobility::Mounted)).unwrap_or(0);
            let leader_element = own[mounted].0.clone();
            own[mounted].1 -= 1;
            let count: u32 = own.iter().map(|(_, c)| c).sum::<u32>() + 1;
            let rank = if n == 0 { Rank::CInC } else { Rank::SubGeneral };
            let prices = crate::magna_graecia::line_prices(
                elements,
                rank,
                &leader_element,
                own.iter().filter(|(_, c)| *c > 0).map(|(e, c)| (e, *c)),
            );
            let points = prices.general + prices.groups.iter().sum::<u32>();
            let name = setup.leader(id).map_or_else(|| id.clone(), |l| l.name.clone());
            Some(TroopLine {
                name,
                rank,
                general: true,
                leader: leader_element.to_string(),
                groups: own.into_iter().filter(|(_, c)| *c > 0).map(|(e, c)| TroopGroup { count: c, kind: e.to_string() }).collect(),
                count,
                points,
                ally_of: None,
                prices: Some(prices),
            })
        })
        .collect()
}

/// The compass edge nearest the direction (dx east, dy south).
fn edge_towards(dx: f32, dy: f32) -> Edge {
    if dx.abs() >= dy.abs() {
        if dx >= 0.0 { Edge::East } else { Edge::West }
    } else if dy >= 0.0 {
        Edge::South
    } else {
        Edge::North
    }
}

/// The edge nearest the direction (dx east, dy south) that is not in `taken`: a road to a
/// neighbour that lies across the water from the battle's ground runs round by the nearest
/// edge the sea leaves open.
fn land_edge_towards(dx: f32, dy: f32, taken: &BTreeSet<Edge>) -> Option<Edge> {
    let mut edges: Vec<(Edge, f32)> = Edge::ALL
        .iter()
        .filter(|e| !taken.contains(e))
        .map(|&e| {
            let (ox, oy) = e.outward();
            (e, ox * dx + oy * dy)
        })
        .collect();
    edges.sort_by(|a, b| b.1.total_cmp(&a.1));
    edges.first().map(|(e, _)| *e)
}

fn centre(outline: &[[f32; 2]]) -> (f32, f32) {
    let n = outline.len().max(1) as f32;
    let (x, y) = outline.iter().fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
    (x / n, y / n)
}

/// A number from a zone's id, so that its ground is the same every time.
fn zone_seed(id: &str) -> u32 {
    id.bytes().fold(2_166_136_261u32, |h, b| (h ^ u32::from(b)).wrapping_mul(16_777_619))
}

/// How near, in km, a point of a zone's border lies to a sea zone's to be on its coast: the
/// two outlines are drawn apart, not on one line.
const COAST_KM: f32 = 12.0;

/// The edges of the zone's battle map the sea lies on: each toward the stretch of its border
/// a sea zone it touches runs along, seen from the middle of the zone's area, at most two,
/// for the armies need a way in. (The middle of a sea zone is no guide: a large sea's lies
/// off another shore.)
fn coast_edges(setup: &Setup, zone: &ZoneId) -> BTreeSet<Edge> {
    let map = &setup.map;
    let Some(z) = map.zone(zone) else { return BTreeSet::new() };
    let here = area_centre(&z.outline_km);
    let mut coast = BTreeSet::new();
    for sea in &z.coast {
        if let Some(s) = map.seas.iter().find(|s| &s.id == sea) {
            let shore: Vec<[f32; 2]> = z
                .outline_km
                .iter()
                .copied()
                .filter(|v| {
                    let n = nearest_on(&s.outline_km, (v[0], v[1]));
                    (n.0 - v[0]).hypot(n.1 - v[1]) < COAST_KM
                })
                .collect();
            let toward = if shore.is_empty() { nearest_on(&s.outline_km, here) } else { centre(&shore) };
            coast.insert(edge_towards(toward.0 - here.0, toward.1 - here.1));
        }
    }
    coast.into_iter().take(2).collect()
}

/// The middle of an outline's area; its corners' mean for an outline with none.
fn area_centre(outline: &[[f32; 2]]) -> (f32, f32) {
    let (mut area, mut x, mut y) = (0.0f32, 0.0f32, 0.0f32);
    for (i, p) in outline.iter().enumerate() {
        let q = outline[(i + 1) % outline.len()];
        let cross = p[0] * q[1] - q[0] * p[1];
        area += cross;
        x += (p[0] + q[0]) * cross;
        y += (p[1] + q[1]) * cross;
    }
    if area.abs() < f32::EPSILON { centre(outline) } else { (x / (3.0 * area), y / (3.0 * area)) }
}

/// The point of an outline's border nearest `p`.
fn nearest_on(outline: &[[f32; 2]], p: (f32, f32)) -> (f32, f32) {
    let border: Vec<crate::ground::Point> = outline.iter().chain(outline.first()).map(|v| (v[0], v[1])).collect();
    crate::ground::point_at(&border, crate::ground::project_on(&border, p))
}

/// The zone's battle map, drawn by the ground generator from a battlefield the zone
/// implies: features by terrain, the coast toward the sea, the city, roads to every
/// neighbour (BE-17: "the zone's ground").
pub fn zone_ground(setup: &Setup, zone: &ZoneId) -> Result<Ground, TablePackError> {
    let map = &setup.map;
    let z = map.zone(zone).ok_or_else(|| TablePackError::NoZone(zone.to_string()))?;
    let here = centre(&z.outline_km);
    let seed = zone_seed(&zone.0);
    let areas = [Area::NorthWest, Area::NorthEast, Area::SouthWest, Area::SouthEast, Area::North, Area::South, Area::East, Area::West];
    let pick = |k: u32| areas[((seed >> (k * 3)) as usize + k as usize) % areas.len()];
    let features = match z.terrain {
        ZoneTerrain::Mountain => vec![
            Feature { kind: FeatureKind::SteepHill, area: pick(0), size: Size::Large, name: format!("the heights of {}", z.name) },
            Feature { kind: FeatureKind::Hill, area: pick(1), size: Size::Medium, name: "a spur".to_owned() },
            Feature { kind: FeatureKind::Rough, area: pick(2), size: Size::Medium, name: "broken ground".to_owned() },
            Feature { kind: FeatureKind::Wood, area: pick(3), size: Size::Small, name: "a wooded slope".to_owned() },
        ],
        ZoneTerrain::Plain => vec![
            Feature { kind: FeatureKind::Hill, area: pick(0), size: Size::Medium, name: "a low rise".to_owned() },
            Feature { kind: FeatureKind::OliveGroves, area: pick(1), size: Size::Small, name: "orchards".to_owned() },
        ],
    };
    let coast = coast_edges(setup, zone);
    let kind = if z.city.fortification >= 3 { SettlementKind::City } else { SettlementKind::Town };
    let mut road_ends = BTreeMap::new();
    let mut roads = BTreeMap::new();
    let id_of = |zone: &ZoneId| NodeId(u8::try_from(map.zones.iter().position(|x| &x.id == zone).unwrap_or(0) + 1).unwrap_or(u8::MAX));
    for n in &z.neighbours {
        let Some(other) = map.zone(n) else { continue };
        let c = centre(&other.outline_km);
        // BE-22: every neighbouring zone is a way to retreat, so every one has its road.
        let Some(edge) = land_edge_towards(c.0 - here.0, c.1 - here.1, &coast) else { continue };
        roads.insert(id_of(n), edge);
        road_ends.insert(id_of(n), (other.name.clone(), c));
    }
    let settlement_area = if coast.contains(&Edge::South) { Area::North } else { Area::South };
    let battlefield = Battlefield {
        coast,
        settlement: Some(Settlement { kind, area: settlement_area }),
        rivers: Vec::new(),
        features: features.into_iter().filter(|f| f.area != settlement_area).collect(),
        roads,
    };
    let site = Site { id: id_of(zone), name: z.name.clone(), at_km: here, battlefield, road_ends };
    let mut ground = ground(&site);
    // The campaign has no node numbers: the roads are labelled with the zones they lead to.
    for r in &mut ground.roads {
        r.label.clone_from(&r.to_name);
    }
    // The walls on the ground are the zone's city's.
    if let Some(t) = &mut ground.settlement {
        t.name.clone_from(&z.city.name);
    }
    Ok(ground)
}

fn side_name(board: &Board, id: &SideId) -> String {
    board.side_name(id)
}

fn notes(zone: &str) -> Notes {
    Notes {
        map_title: format!("the battle map of {zone}"),
        map_unset: "The table is laid over the zone's city, the side that marched in entering by the edge it came from (BE-17).".to_owned(),
        no_exits: "No road leaves the table: the beaten side retreats by any edge to a neighbouring zone (BE-22).".to_owned(),
        leaderless: "none".to_owned(),
        no_rolls: "How the armies came to battle, by an interception, by consent or by an attack on siege lines, is in the campaign's log (BE-13, BE-14, BE-29).".to_owned(),
        table_rule: "BE-17".to_owned(),
        roster_rule: "BE-17".to_owned(),
        table_set_when: "once the table is laid over the zone's city".to_owned(),
    }
}

/// Everything the pack needs of the battle, built once for the umpire and the sides.
struct Battle<'a> {
    setup: &'a Setup,
    board: &'a Board,
    battle: &'a BattleBoard,
    ground: Ground,
    head: SpecHead,
    lines: Vec<Vec<TroopLine>>,
}

fn prepare<'a>(
    setup: &'a Setup,
    board: &'a Board,
    elements: &ElementTable,
    conv: &Conversion,
    number: u32,
) -> Result<Battle<'a>, TablePackError> {
    let battle = board.battle.as_ref().ok_or(TablePackError::NoBattle)?;
    let ground = zone_ground(setup, &battle.zone)?;
    let groups: Vec<Vec<(String, ElementSpec, u32)>> =
        battle.forces.iter().map(|f| points_by_element(conv, setup, f)).collect::<Result<_, _>>()?;
    let counts = element_counts(conv, &groups);
    let lines = battle.forces.iter().zip(&groups).zip(&counts).map(|((_, g), c)| troop_lines(setup, elements, g, c)).collect();
    let place = setup.place_name(&Location::Zone(battle.zone.clone()));
    // The side whose march brought the battle about is the attacker on the table.
    let mover = battle.mover.clone();
    let sides: Vec<SpecSide> = battle
        .forces
        .iter()
        .map(|f| SpecSide {
            id: f.side.clone(),
            name: side_name(board, &f.side),
            role: if f.side == mover { crate::spec::Role::Attacker } else { crate::spec::Role::Defender },
        })
        .collect();
    let mut sides_sorted = sides.clone();
    sides_sorted.sort_by_key(|s| s.role != crate::spec::Role::Attacker);
    let head = SpecHead {
        campaign: board.campaign.clone(),
        scenario: board.scenario_name.clone(),
        turn: board.turn,
        battle: number,
        day: 1,
        place: place.clone(),
        location: format!("{place} ({}), {}", board.date, zone_terrain(setup, &battle.zone)),
        attacker: side_name(board, &mover),
        defenders: sides_sorted.iter().skip(1).map(|s| s.name.clone()).collect(),
        sides: sides_sorted,
    };
    Ok(Battle { setup, board, battle, ground, head, lines })
}

fn zone_terrain(setup: &Setup, zone: &ZoneId) -> String {
    setup.map.zone(zone).map_or_else(String::new, |z| format!("{} zone", z.terrain))
}

/// DBM points a side may field on the 6'-wide table; a larger army gets the 8' one.
pub const SIX_FOOT_TABLE_POINTS: u32 = 400;

/// The table's width along the base edges, in feet, for the armies of `lines`: DBM's
/// standard table for 15mm armies is 6' by 4' for about 400 points a side, so a battle
/// whose larger side fields no more is fought on 6' and a larger one on 8', the whole width
/// of the zone's map. Both forces are face up to both sides in battle (BE-53), so each side
/// works the width out alike.
pub fn table_width_feet(lines: &[Vec<TroopLine>]) -> f32 {
    let largest = lines.iter().map(|l| l.iter().map(|t| t.points).sum::<u32>()).max().unwrap_or(0);
    if largest <= SIX_FOOT_TABLE_POINTS { 6.0 } else { MAP_FEET }
}

/// Where a stretch `len` long is laid on `0..=MAP_FEET` so that `keep` lies inside it (half
/// a foot in where it can), as near the middle of the map as that allows.
fn lay(len: f32, keep: f32) -> f32 {
    let middle = (MAP_FEET - len) / 2.0;
    let margin = 0.75f32.min(len / 2.0);
    middle.clamp(keep + margin - len, keep - margin).clamp(0.0, MAP_FEET - len)
}

/// The table on the zone's map: 4' deep with the attacker's base edge along `base`, `width`
/// across, over the zone's city and as near the middle of the map as the city allows. With
/// the city on the table every road to a neighbouring zone leaves by a side of it.
pub fn table_section(ground: &Ground, base: Edge, width: f32) -> Section {
    let mut s = section(base, Defence::Central, None);
    let Some(city) = ground.settlement.as_ref().map(|t| crate::ground::centroid(&t.outline)) else { return s };
    let depth = SECTION_DEPTH_FEET;
    s.rect = match base {
        Edge::North | Edge::South => Rect { x_feet: lay(width, city.0), y_feet: lay(depth, city.1), width_feet: width, height_feet: depth },
        Edge::East | Edge::West => Rect { x_feet: lay(depth, city.0), y_feet: lay(width, city.1), width_feet: depth, height_feet: width },
    };
    s
}

/// The zone a road of the zone's ground leads to.
fn road_zone(setup: &Setup, to: NodeId) -> Option<&referee_campaign::belisarius::map::Zone> {
    setup.map.zones.get(usize::from(to.0).checked_sub(1)?)
}

/// The edge of the zone's map the side that brought the battle about enters by, and whence:
/// the road from the zone it marched out of, or the coast of the sea it landed from (BE-10,
/// BE-17). In a campaign begun before the way in was kept, the first road to a zone it holds.
fn attacker_edge(b: &Battle<'_>) -> (Edge, String) {
    let setup = b.setup;
    let road_to = |zone: &ZoneId| b.ground.roads.iter().find(|r| road_zone(setup, r.to).is_some_and(|z| &z.id == zone));
    match &b.battle.came_from {
        Some(Location::Zone(z)) => {
            if let Some(r) = road_to(z) {
                return (r.edge, format!("by the road from {}", r.to_name));
            }
        }
        Some(from @ (Location::Sea(_) | Location::City(_))) => {
            if let Some(&e) = coast_edges(setup, &b.battle.zone).iter().next() {
                return (e, format!("from the sea, landed from {}", setup.place_name(from)));
            }
        }
        _ => {}
    }
    let held = |to: NodeId| {
        road_zone(setup, to).and_then(|z| b.board.zones.iter().find(|s| s.id == z.id)).and_then(|s| s.controller.as_ref())
            == Some(&b.battle.mover)
    };
    match b.ground.roads.iter().find(|r| held(r.to)) {
        Some(r) => (r.edge, format!("by the road from {}, which its side holds", r.to_name)),
        None => (Edge::South, "by the south edge, having no road from a zone its side holds".to_owned()),
    }
}

fn ground_spec(b: &Battle<'_>) -> GroundSpec {
    let kind = match (&b.battle.kind, &b.battle.ambusher) {
        (Interception::Ambush, Some(a)) => format!("an ambush laid by the {} (BE-23)", side_name(b.board, a)),
        _ => "a battle in line (BE-17)".to_owned(),
    };
    let (base, whence) = attacker_edge(b);
    let width = table_width_feet(&b.lines);
    let section = table_section(&b.ground, base, width);
    let city = b.setup.map.zone(&b.battle.zone).map_or_else(String::new, |z| z.city.name.clone());
    let description =
        format!("{width:.0}'×{SECTION_DEPTH_FEET:.0}' table over {city} and the ground round it, attacker's base edge {base}");
    let size_rule = format!(
        "{width:.0}' wide, as the larger army fields {} {SIX_FOOT_TABLE_POINTS} DBM points",
        if width < MAP_FEET { "no more than" } else { "more than" }
    );
    let attacker = side_name(b.board, &b.battle.mover);
    GroundSpec {
        map: b.ground.clone(),
        section: Some(section),
        table: Some(TableSet {
            description: description.clone(),
            width_feet: width,
            depth_feet: SECTION_DEPTH_FEET,
            attacker_edge: base,
            weather: "not rolled: the campaign has no weather".to_owned(),
            time_of_day: "not rolled: the armies are ready when they meet".to_owned(),
        }),
        lines: vec![
            Field { label: "Battle: ".to_owned(), text: format!("{kind}.") },
            Field {
                label: "Ground: ".to_owned(),
                text: format!("{}, drawn from the zone's terrain, coast and city (reconstructed).", zone_terrain(b.setup, &b.battle.zone)),
            },
            Field {
                label: "Table: ".to_owned(),
                text: format!(
                    "{description} ({size_rule}). The {attacker} came in {whence} and enter by the {base} edge; the other side stands on \
                     the {} edge (BE-17).",
                    base.opposite()
                ),
            },
        ],
    }
}

fn exits(b: &Battle<'_>, side: &SideId, section: Option<&Section>) -> Vec<Exit> {
    let Some(section) = section else { return Vec::new() };
    if !b.battle.forces.iter().any(|f| &f.side == side) {
        return Vec::new();
    }
    road_exits(&b.ground, section.rect)
        .into_iter()
        .filter_map(|r| {
            let zone = road_zone(b.setup, r.to)?;
            let held = b.board.zones.iter().find(|s| s.id == zone.id).and_then(|s| s.controller.clone());
            Some(Exit {
                // The zone's name says it all; its id is for orders, not for the table.
                to: String::new(),
                to_name: zone.name.clone(),
                edge: r.side,
                map_edge: r.map_edge,
                held_by: held.as_ref().map(|h| side_name(b.board, h)),
                // BE-22: the beaten side retreats to any neighbouring zone, among the enemy
                // too (where it may be intercepted again).
                retire: true,
            })
        })
        .collect()
}

fn objectives(b: &Battle<'_>) -> Vec<String> {
    let mut o = vec![
        "Destroy the enemy, or make him break off: the side that breaks off is pursued by the enemy's cavalry and retreats to a \
         neighbouring zone or a city it holds (BE-22)."
            .to_owned(),
        "The result goes back to the referee as each unit's losses in combat points, the leaders killed, and who broke off and \
         where to (BE-17)."
            .to_owned(),
    ];
    if b.battle.kind == Interception::Ambush {
        o.push("An ambush: the ambushed side fights two rounds at a disadvantage and then retreats (BE-23).".to_owned());
    }
    o
}

fn special_rules(conv: &Conversion) -> Vec<String> {
    vec![format!(
        "The campaign's units are fielded as elements by the conversion table (data/{CONVERSION_FILE}, reconstructed): {} elements a \
         combat point, the largest side at most {} elements, one factor for the whole battle above that, so the odds of the \
         campaign reach the table.",
        conv.per_point, conv.largest_side
    )]
}

/// The umpire's spec and each fighting side's, for battle `number` under way.
pub fn specs(
    setup: &Setup,
    umpire: &Board,
    sides: &[(SideId, Board)],
    elements: &ElementTable,
    conv: &Conversion,
    number: u32,
) -> Result<(UmpireSpec, Vec<BattleSpec>), TablePackError> {
    let b = prepare(setup, umpire, elements, conv, number)?;
    let ground = ground_spec(&b);
    let umpire_spec = UmpireSpec {
        head: b.head.clone(),
        sides: b
            .battle
            .forces
            .iter()
            .zip(&b.lines)
            .map(|(f, lines)| UmpireSide {
                side: b.head.sides.iter().find(|s| s.id == f.side).cloned().unwrap_or_else(|| SpecSide {
                    id: f.side.clone(),
                    name: side_name(umpire, &f.side),
                    role: crate::spec::Role::Defender,
                }),
                troops: lines.clone(),
                exits: exits(&b, &f.side, ground.section.as_ref()),
            })
            .collect(),
        ground,
        rolls: Vec::new(),
        log: Vec::new(),
        notes: notes(&b.head.place),
    };
    let mut out = Vec::new();
    for (side, board) in sides {
        // Each side's spec from its own board: the battle's forces are face up on it.
        let mine = prepare(setup, board, elements, conv, number)?;
        let Some(i) = mine.battle.forces.iter().position(|f| &f.side == side) else { continue };
        let enemy: Vec<(usize, &ForceFace)> = mine.battle.forces.iter().enumerate().filter(|(j, _)| *j != i).collect();
        let ground = ground_spec(&mine);
        let base_edge =
            ground.table.as_ref().map(|t| if side == &mine.battle.mover { t.attacker_edge } else { t.attacker_edge.opposite() });
        let exits = exits(&mine, side, ground.section.as_ref());
        out.push(BattleSpec {
            head: mine.head.clone(),
            ground,
            side: mine.head.sides.iter().find(|s| &s.id == side).cloned().unwrap_or_else(|| SpecSide {
                id: side.clone(),
                name: side_name(board, side),
                role: crate::spec::Role::Defender,
            }),
            base_edge,
            own: mine.lines[i].clone(),
            friends: Vec::new(),
            friendly_cities: Vec::new(),
            enemy: EnemyKnowledge {
                sides: enemy
                    .iter()
                    .map(|(_, f)| Seen { name: side_name(board, &f.side), counters: u32::try_from(f.leaders.len()).unwrap_or(u32::MAX) })
                    .collect(),
                allies: Vec::new(),
                deployed: enemy.iter().flat_map(|(j, _)| mine.lines[*j].clone()).collect(),
            },
            exits,
            objectives: objectives(&mine),
            special_rules: special_rules(conv),
            notes: notes(&mine.head.place),
        });
    }
    Ok((umpire_spec, out))
}

/// The number of the battle under way: battles are numbered in the order they were joined,
/// which everyone saw.
pub fn battle_number(events: &[Logged]) -> u32 {
    let joined = events.iter().filter(|l| matches!(l.event, Event::BattleJoined { .. })).count();
    u32::try_from(joined).unwrap_or(u32::MAX)
}

/// The battle under way in a Belisarius campaign, as the adapter reads it: the umpire's
/// board and each fighting side's own board are built from the campaign's state, its units
/// fielded as elements by the conversion table.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub state: &'a State,
    pub events: &'a [Logged],
    pub elements: &'a ElementTable,
    pub conv: &'a Conversion,
}

impl Source<'_> {
    fn umpire_board(&self) -> Result<Board, TablePackError> {
        Ok(view_for(self.state, &[], &Viewer::Umpire).ok_or(TablePackError::NoBattle)?.board().clone())
    }
}

impl BattleSource for Source<'_> {
    const ENGINE: EngineId = EngineId::Belisarius;
    type Error = TablePackError;

    fn number(&self) -> u32 {
        battle_number(self.events)
    }

    fn umpire_spec(&self) -> Result<UmpireSpec, TablePackError> {
        table_spec(self.state, self.elements, self.conv, self.number())
    }

    /// The umpire's spec from the umpire's board, each side's from its own board.
    fn specs(&self) -> Result<(UmpireSpec, Vec<BattleSpec>), TablePackError> {
        let umpire = self.umpire_board()?;
        let fighting: Vec<SideId> = umpire.battle.as_ref().ok_or(TablePackError::NoBattle)?.forces.iter().map(|f| f.side.clone()).collect();
        // A brief reads no log: the sides' boards are built without one.
        let sides: Vec<(SideId, Board)> = fighting
            .iter()
            .filter_map(|s| view_for(self.state, &[], &Viewer::Side(s.clone())).map(|v| (s.clone(), v.board().clone())))
            .collect();
        specs(&self.state.setup, &umpire, &sides, self.elements, self.conv, self.number())
    }
}

impl From<PackError> for TablePackError {
    fn from(e: PackError) -> TablePackError {
        TablePackError::Pack(e.to_string())
    }
}

/// The pack for the battle under way ([`Source`]): the umpire's file from the umpire's
/// board, each side's from its own board.
pub fn campaign_pack(
    state: &State,
    events: &[Logged],
    elements: &ElementTable,
    conv: &Conversion,
    options: &PackOptions,
) -> Result<Vec<PackFile>, TablePackError> {
    Source { state, events, elements, conv }.pack(options)
}

/// A hex wargame's result for the battle under way as the campaign's table result (BE-17):
/// the counters lost become each command's elements destroyed ([`crate::hexresult`]), and a
/// command's elements destroyed become combat points lost by its leader's units, in the same
/// share (`destroyed ÷ elements` of the leader's points, the element he stands with counted,
/// to the nearest point, halves up), shared over his units by largest remainder and never more
/// than a unit has. A leader counter eliminated is the leader killed; the beaten side broke
/// off (to `retreat`, unless nothing of it is left), and no result means the sides parted.
pub fn hex_table_result(
    state: &State,
    events: &[Logged],
    elements: &ElementTable,
    conv: &Conversion,
    tabletop: &crate::hexpack::HexTabletop,
    result: &crate::hexresult::HexResult,
    retreat: Option<String>,
) -> Result<referee_campaign::belisarius::battle::TableResult, TablePackError> {
    let spec = table_spec(state, elements, conv, battle_number(events))?;
    hex_table_result_for(state, &spec, tabletop, result, retreat)
}

/// The umpire's spec of the battle under way, number `number`: what its pack is printed from.
pub fn table_spec(state: &State, elements: &ElementTable, conv: &Conversion, number: u32) -> Result<UmpireSpec, TablePackError> {
    let umpire = view_for(state, &[], &Viewer::Umpire).ok_or(TablePackError::NoBattle)?;
    Ok(specs(&state.setup, umpire.board(), &[], elements, conv, number)?.0)
}

/// [`hex_table_result`] from the umpire's spec of the battle, built once ([`table_spec`]).
pub fn hex_table_result_for(
    state: &State,
    spec: &UmpireSpec,
    tabletop: &crate::hexpack::HexTabletop,
    result: &crate::hexresult::HexResult,
    retreat: Option<String>,
) -> Result<referee_campaign::belisarius::battle::TableResult, TablePackError> {
    use referee_campaign::belisarius::battle::{TableResult, roster};
    // Joins are Magna Graecia's: its lost generals' men go to another command (MG-31).
    if let Some(side) = result.sides.iter().find(|s| !s.joins.is_empty()) {
        return Err(TablePackError::Result(format!(
            "the {} name commands to join, which only a Magna Graecia result does (MG-31)",
            side.side
        )));
    }
    let neutral = crate::hexresult::tabletop_result(tabletop, spec, result).map_err(|e| TablePackError::Result(e.to_string()))?;
    let battle = state.ops.as_ref().and_then(|o| o.battle.as_ref()).ok_or(TablePackError::NoBattle)?;
    // The roads still open lead to the zones beside the battle; anything else is refused,
    // never kept: the retreat itself is given apart (BE-22).
    let beside: Vec<&str> =
        state.setup.map.zone(&battle.zone).map(|z| z.neighbours.iter().map(|n| n.as_str()).collect()).unwrap_or_default();
    for side in &result.sides {
        if let Some(bad) = side.open_exits.iter().flatten().find(|e| !beside.contains(&e.as_str())) {
            let name = state.setup.side(&side.side).map_or_else(|| side.side.to_string(), |s| s.name.clone());
            return Err(TablePackError::Result(format!(
                "`{}`, a road open to the {name}, is not a zone beside {}: its roads lead to {} (BE-22)",
                referee_campaign::core::words::shown(bad),
                state.setup.place_name(&Location::Zone(battle.zone.clone())),
                beside.join(", ")
            )));
        }
    }
    let mut losses: BTreeMap<SideId, Vec<(u32, u8)>> = BTreeMap::new();
    let mut leaders_killed = Vec::new();
    for side in &neutral.sides {
        let force = battle.force(&side.side).ok_or(TablePackError::NoBattle)?;
        let units = roster(state, force);
        let lines = spec.sides.iter().find(|u| u.side.id == side.side).map(|u| u.troops.as_slice()).unwrap_or_default();
        for line in &side.lines {
            let id = force
                .leaders
                .iter()
                .find(|l| state.setup.leader(l).map_or(l.as_str(), |x| x.name.as_str()) == line.line)
                .ok_or_else(|| TablePackError::Result(format!("no leader {} in the battle", line.line)))?;
            if line.general_killed {
                leaders_killed.push(id.clone());
            }
            // Every element of the command, the one the leader stands with included: his units'
            // points stand for all of them.
            let of = lines.iter().find(|t| t.name == line.line).map_or(0, |t| t.count);
            let destroyed: u32 = line.destroyed.iter().map(|g| g.count).sum();
            let mine: Vec<(usize, u32)> = units
                .iter()
                .enumerate()
                .filter(|(_, u)| &u.leader == id && u.fighter.unit.value > 0)
                .map(|(i, u)| (i, u32::from(u.fighter.unit.value)))
                .collect();
            let points: u32 = mine.iter().map(|(_, v)| v).sum();
            if of == 0 || destroyed == 0 {
                continue;
            }
            let lost = u32::try_from((u64::from(destroyed) * u64::from(points) * 2 + u64::from(of)) / (2 * u64::from(of)))
                .unwrap_or(u32::MAX)
                .min(points);
            let weights: Vec<u32> = mine.iter().map(|(_, v)| *v).collect();
            for ((i, v), n) in mine.iter().zip(crate::hexunits::share(&weights, lost)) {
                let n = n.min(*v);
                if n > 0 {
                    let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    losses.entry(side.side.clone()).or_default().push((number, u8::try_from(n).unwrap_or(u8::MAX)));
                }
            }
        }
    }
    let (broke_off, parted) = match &neutral.outcome {
        crate::tabletop::TableOutcome::Won { winner } => {
            if battle.force(winner).is_none() {
                let fought: Vec<String> = battle.forces.iter().map(|f| format!("`{}`", f.side)).collect();
                let named = if winner.as_str().trim().is_empty() {
                    "the winner is left empty".to_owned()
                } else {
                    format!("`{}` did not fight this battle", referee_campaign::core::words::shown(winner.as_str()))
                };
                return Err(TablePackError::Result(format!("{named}; the winner is one of {}", fought.join(" and "))));
            }
            (battle.forces.iter().map(|f| f.side.clone()).find(|s| s != winner), false)
        }
        crate::tabletop::TableOutcome::NoResult {} => (None, true),
    };
    // A force with nothing left is destroyed, not broken off: it retreats nowhere (BE-22).
    let gone = |side: &SideId| {
        let Some(force) = battle.force(side) else { return false };
        let points: u32 = roster(state, force).iter().map(|u| u32::from(u.fighter.unit.value)).sum();
        let lost: u32 = losses.get(side).map_or(0, |l| l.iter().map(|(_, p)| u32::from(*p)).sum());
        lost >= points
    };
    let broke_off = broke_off.filter(|s| !gone(s));
    let retreat = retreat.filter(|_| broke_off.is_some());
    Ok(TableResult { losses, leaders_killed, broke_off, retreat, parted })
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_campaign::belisarius::World;
    use referee_campaign::belisarius::pieces::parse_units;

    /// BE-17: a zone's battle map has its sea on the side of its own shore, as the map draws
    /// it: Hadrumetum's coast faces east, Sicily's middle south, Picenum's the Adriatic to the
    /// east, Liburnia's west, Histria's and the Maritime Alps' south.
    #[test]
    fn be_17_the_sea_lies_on_the_side_of_the_zones_own_shore() {
        let setup = World::embedded().setup("africa-533").unwrap();
        for (zone, edge) in [
            ("byzacium-north", Edge::East),
            ("sicilia-centre", Edge::South),
            ("picenum", Edge::East),
            ("liburnia", Edge::West),
            ("histria", Edge::South),
            ("alpes-maritimae", Edge::South),
        ] {
            let coast = coast_edges(&setup, &ZoneId::new(zone));
            assert_eq!(coast.into_iter().collect::<Vec<_>>(), [edge], "{zone}");
        }
    }

    /// BE-17: every unit of every scenario has an element, and every element is one the
    /// points table prices.
    #[test]
    fn be_17_every_unit_of_every_scenario_has_a_priced_element() {
        let conv = Conversion::embedded();
        let elements = referee_campaign::magna_graecia::catalog::Catalog::embedded().elements;
        for rule in &conv.elements {
            assert!(elements.cost(&rule.dbm).is_some(), "{} is not priced", rule.dbm);
        }
        let world = World::embedded();
        for s in &world.scenarios {
            let setup = world.setup(&s.id).unwrap();
            for side in &setup.sides {
                for line in &side.lines {
                    let people = line.leaders.first().and_then(|l| setup.leader(l)).map_or_else(|| side.id.to_string(), |l| l.side.clone());
                    for u in &line.units {
                        assert!(conv.rule(u, &people).is_some(), "{}: no element for {u} {} of the {people}", s.id, u.kind.label());
                    }
                }
            }
        }
    }

    /// BE-17: two elements a point; above 50 for the largest side, one factor for both.
    #[test]
    fn be_17_the_scale_keeps_the_odds() {
        let conv = Conversion::embedded();
        let cv = ElementSpec::from_str("Reg Cv(O)").unwrap();
        let sp = ElementSpec::from_str("Irr Sp(O)").unwrap();
        let small = vec![vec![("a".to_owned(), cv.clone(), 10)], vec![("b".to_owned(), sp.clone(), 8)]];
        assert_eq!(element_counts(&conv, &small), vec![vec![20], vec![16]]);
        let big = vec![vec![("a".to_owned(), cv.clone(), 20), ("a".to_owned(), sp.clone(), 20)], vec![("b".to_owned(), sp, 16)]];
        let counts = element_counts(&conv, &big);
        assert_eq!(counts[0].iter().sum::<u32>(), 50, "{counts:?}");
        assert_eq!(counts[1].iter().sum::<u32>(), 20, "80 to 32 becomes 50 to 20: {counts:?}");
        let _ = parse_units(UnitKind::Infantry, "1C").unwrap();
    }
}
