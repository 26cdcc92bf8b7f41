//! The battle's ground on a hex grid, for the two hex wargames: the same ground the DBM and
//! DBSA table is drawn from ([`crate::ground`]), the same section of it, turned the same way
//! (the attacker's base edge at the bottom, the defender's at the top), laid on hexes at each
//! system's scale and numbered the way each system's own scenarios number them.
//!
//! The hex geometry is [`hexx`]'s (Red Blob Games conventions): a [`HexLayout`] turns hexes
//! into points on the table and back, offset coordinates give each hex its column and row.
//!
//! - **Ars Bellum**: pointy-topped hexes in rows, numbered 001, 002, … along each row from the
//!   top left, as its scenarios do ("hexes 007 à 011"). A hex is about 200 m. The rows of its
//!   own maps are 21 hexes long, and the rules' worked examples fix which rows are pushed to
//!   the right: 096 touches 075, 076, 095, 097, 117 and 118. We take the campaign's ground at
//!   its 15mm scale (100 paces to 40 mm) and a pace as a single step of about 0.7 m, so the
//!   8' side of a table is about 4.3 km: 21½ hexes of 200 m, the rules' own row length.
//! - **A la Charge!**: flat-topped hexes in columns, numbered column then row, `CCRR`, as its
//!   scenarios do ("0709, 0608"); column 02 sits half a hex lower than 01. The rules give no
//!   ground scale, only an A3 or A4 map; we lay 19 columns across 8' (8 rows over the 4' depth),
//!   a map of the same size as the rules' own (12 × 15 hexes) that fills an A3 sheet.
//!
//! Each hex takes the ground at its centre: sea (off the map), a river, the settlement, a piece
//! of terrain, or open ground; roads are marked on the hexes they pass through. A piece of
//! terrain, a river or a road too small or too thin to hold a hex centre still gets hexes: the
//! one nearest its middle, and the unbroken chain of hexes along its course. A river's chain
//! keeps its line: no hex of it touches any of it but the one before and the one after. Each of
//! the ground's fords is one hex of its river, and a road goes into a river only at the fords
//! it crosses on the ground, one hex each, out on the far bank. Each system then reads its own
//! terrain from the hex ([`Cover::ars_bellum`], [`Cover::a_la_charge`]), and no side sets up
//! where its terrain chart puts water, marsh or worse ([`HexSystem::may_set_up`]).

use hexx::{Hex, HexLayout, HexOrientation, OffsetHexMode, Vec2};
use referee_campaign::core::table::Edge;
use serde::Serialize;

use crate::ground::{
    FORD_REACH, Ground, Point, TerrainKind, centroid, clip_polygon, clip_polyline, contains, fl, inside_rect, point_segment_distance,
    polyline_crossings,
};
use crate::section::Section;
use crate::{a_la_charge, ars_bellum};

/// The hex wargame a grid is laid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HexSystem {
    ArsBellum,
    ALaCharge,
}

impl HexSystem {
    pub const ALL: [HexSystem; 2] = [HexSystem::ArsBellum, HexSystem::ALaCharge];

    pub fn name(self) -> &'static str {
        match self {
            HexSystem::ArsBellum => "Ars Bellum",
            HexSystem::ALaCharge => "A la Charge!",
        }
    }

    fn orientation(self) -> HexOrientation {
        match self {
            HexSystem::ArsBellum => HexOrientation::Pointy,
            HexSystem::ALaCharge => HexOrientation::Flat,
        }
    }

    fn offset_mode(self) -> OffsetHexMode {
        match self {
            // Pointy: the first row (and every other one) is pushed half a hex to the right.
            HexSystem::ArsBellum => OffsetHexMode::Even,
            // Flat: the second column (and every other one) is pushed half a hex down.
            HexSystem::ALaCharge => OffsetHexMode::Odd,
        }
    }

    /// Hexes (rows for Ars Bellum, columns for A la Charge!) across the 8' side of a table.
    pub fn across_eight_feet(self) -> u32 {
        match self {
            HexSystem::ArsBellum => 21,
            HexSystem::ALaCharge => 19,
        }
    }

    /// Rows nearest its own edge where a side sets up, before widening for a large army.
    pub const SETUP_ROWS: u32 = 3;
    /// Set-up hexes a side has at least, where its half of the map allows (a coast can take
    /// most of its rows): its rows are widened until it has.
    pub const SETUP_LEAST: u32 = 12;

    /// Whether a unit may start the battle on `cover`: not where its terrain chart says no unit
    /// goes, nor in the water (Ars Bellum's little river and ford, A la Charge!'s stream and
    /// ford) or a marsh (Ars Bellum's swamp), which no army draws up in.
    pub fn may_set_up(self, cover: Cover) -> bool {
        match self {
            HexSystem::ArsBellum => {
                use ars_bellum::Terrain as T;
                cover
                    .ars_bellum()
                    .is_some_and(|t| t.effect().half_mp.is_some() && !matches!(t, T::LittleRiver | T::River | T::Ford | T::Swamp))
            }
            HexSystem::ALaCharge => {
                use a_la_charge::Terrain as T;
                cover
                    .a_la_charge()
                    .is_some_and(|t| t.effect().half_mp.is_some() && !matches!(t, T::Stream | T::River | T::Ford | T::Marsh | T::Mountain))
            }
        }
    }

    /// What the printed map says a hex is on the ground.
    pub fn scale_note(self) -> &'static str {
        match self {
            HexSystem::ArsBellum => "a hex is about 200 m (21 hexes across the 8' side of the campaign's table)",
            HexSystem::ALaCharge => "19 hexes across the 8' side of the campaign's table, a map the size of the rules' own",
        }
    }

    /// The hex's number as the system's scenarios write it: `007` (Ars Bellum, counted along
    /// the rows) or `0709` (A la Charge!, column then row). `col` and `row` count from 0.
    pub fn label(self, col: u32, row: u32, cols: u32) -> String {
        match self {
            HexSystem::ArsBellum => format!("{:03}", u64::from(row) * u64::from(cols) + u64::from(col) + 1),
            HexSystem::ALaCharge => format!("{:02}{:02}", col + 1, row + 1),
        }
    }
}

/// The ground in a hex, before any system reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cover {
    Open,
    Hill,
    SteepHill,
    Wood,
    Marsh,
    Rough,
    OliveGroves,
    City,
    Town,
    Village,
    River,
    Ford,
    /// Off the map: no unit may enter it.
    Sea,
}

impl Cover {
    pub const ALL: [Cover; 13] = [
        Cover::Open,
        Cover::Hill,
        Cover::SteepHill,
        Cover::Wood,
        Cover::Marsh,
        Cover::Rough,
        Cover::OliveGroves,
        Cover::City,
        Cover::Town,
        Cover::Village,
        Cover::River,
        Cover::Ford,
        Cover::Sea,
    ];

    fn of(kind: TerrainKind) -> Cover {
        match kind {
            TerrainKind::Hill => Cover::Hill,
            TerrainKind::SteepHill => Cover::SteepHill,
            TerrainKind::Wood => Cover::Wood,
            TerrainKind::Marsh => Cover::Marsh,
            TerrainKind::Rough => Cover::Rough,
            TerrainKind::OliveGroves => Cover::OliveGroves,
            TerrainKind::City => Cover::City,
            TerrainKind::Town => Cover::Town,
            TerrainKind::Village => Cover::Village,
        }
    }

    /// The ground's own name for it.
    pub fn name(self) -> &'static str {
        match self {
            Cover::Open => "open ground",
            Cover::Hill => "gentle hill",
            Cover::SteepHill => "steep hill",
            Cover::Wood => "wood",
            Cover::Marsh => "marsh",
            Cover::Rough => "rough ground",
            Cover::OliveGroves => "olive groves",
            Cover::City => "walled city",
            Cover::Town => "town",
            Cover::Village => "village",
            Cover::River => "river",
            Cover::Ford => "ford",
            Cover::Sea => "sea",
        }
    }

    /// Ars Bellum's terrain for the ground (AB-03); `None` for the sea, which is off the map.
    ///
    /// The campaign's rivers can be crossed (the De Bellis rules grade them), so they are the
    /// rules' crossable "little river", never the impassable river; its fords are fords.
    /// Rough ground and olive groves are broken ground as dunes are (2 MP, −1 column). A walled
    /// city is walls; a town is built up like a village.
    pub fn ars_bellum(self) -> Option<ars_bellum::Terrain> {
        use ars_bellum::Terrain as T;
        Some(match self {
            Cover::Open => T::Plain,
            Cover::Hill => T::Elevation1,
            Cover::SteepHill => T::Elevation2,
            Cover::Wood => T::Forest,
            Cover::Marsh => T::Swamp,
            Cover::Rough | Cover::OliveGroves => T::Dunes,
            Cover::City => T::Walls,
            Cover::Town | Cover::Village => T::Village,
            Cover::River => T::LittleRiver,
            Cover::Ford => T::Ford,
            Cover::Sea => return None,
        })
    }

    /// A la Charge!'s terrain for the ground (its terrain effects chart); `None` for the sea.
    ///
    /// Rivers are streams (crossable, +1 MP, +1 to the die against a defender behind one),
    /// never the uncrossable river; fords are fords. A steep hill is a hill (the chart's
    /// mountain cannot be entered, the campaign's steep hill can). Rough ground and olive
    /// groves read as the chart's vineyards, a walled city as a palisade.
    pub fn a_la_charge(self) -> Option<a_la_charge::Terrain> {
        use a_la_charge::Terrain as T;
        Some(match self {
            Cover::Open => T::Plain,
            Cover::Hill | Cover::SteepHill => T::Hill,
            Cover::Wood => T::Woods,
            Cover::Marsh => T::Marsh,
            Cover::Rough | Cover::OliveGroves => T::Vineyard,
            Cover::City => T::Palisade,
            Cover::Town | Cover::Village => T::Village,
            Cover::River => T::Stream,
            Cover::Ford => T::Ford,
            Cover::Sea => return None,
        })
    }
}

/// One hex of the map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HexCell {
    /// Column and row, from 0 at the top left.
    pub col: u32,
    pub row: u32,
    /// Its number as the system writes it.
    pub label: String,
    /// Its centre on the table, in feet: across from the left, down from the top (the
    /// defender's edge).
    pub centre: (f32, f32),
    pub cover: Cover,
    /// A road passes through it.
    pub road: bool,
}

impl HexCell {
    /// Off the map (sea): no unit may enter it.
    pub fn off_map(&self) -> bool {
        self.cover == Cover::Sea
    }
}

/// A road across the map, as the hexes it passes through.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HexRoad {
    /// What the road leads to, as the ground labels it (a node's number, or a zone's name).
    pub label: String,
    pub to_name: String,
    /// Indexes into [`HexMap::cells`], each a neighbour of the one before, in the road's order.
    pub hexes: Vec<usize>,
    /// The hex on the map's edge where the road leaves it, if it does.
    pub exit: Option<usize>,
}

/// A river across the map, as the hexes it passes through.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HexRiver {
    pub name: String,
    /// Which of the ground's rivers it is (an index into [`Ground::rivers`]): a river the
    /// section's edge cuts in two is two of these.
    pub ground_river: usize,
    /// Indexes into [`HexMap::cells`], each a neighbour of the one before and touching no
    /// other hex of the river.
    pub hexes: Vec<usize>,
    /// Its hexes that are fords, one for each of the ground's fords on the section.
    pub fords: Vec<usize>,
}

/// Where a piece of the ground (a terrain feature, the settlement) landed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placed {
    pub cover: Cover,
    pub name: String,
    pub hexes: Vec<usize>,
}

/// The battle's section of the ground on hexes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HexMap {
    pub system: HexSystem,
    pub section: Section,
    pub cols: u32,
    pub rows: u32,
    /// Width of a hex across its flat sides, in feet of the table.
    pub flat_feet: f32,
    /// Row by row from the top, each row from the left.
    pub cells: Vec<HexCell>,
    pub roads: Vec<HexRoad>,
    pub rivers: Vec<HexRiver>,
    /// Every piece of terrain and the settlement that lies on the section, with its hexes.
    pub pieces: Vec<Placed>,
    /// Hexes where the attacker's side sets up: the rows nearest its base edge (the bottom),
    /// but for the hexes no unit may start in.
    pub attacker_setup: Vec<usize>,
    /// Hexes where the defender's side sets up: the rows nearest the top, likewise.
    pub defender_setup: Vec<usize>,
    /// Where hex (0, 0)'s centre would be, and the hexes' size (centre to corner), in feet:
    /// what the [`HexLayout`] is built from.
    #[serde(skip)]
    origin: (f32, f32),
    #[serde(skip)]
    size: f32,
}

/// The section turned so the attacker's base edge is at the bottom: width and depth in feet.
pub fn turned_size(section: &Section) -> (f32, f32) {
    let r = section.rect;
    match section.attacker_base {
        Edge::North | Edge::South => (r.width_feet, r.height_feet),
        Edge::East | Edge::West => (r.height_feet, r.width_feet),
    }
}

/// A point of the map (feet, x east, y south) as a point on the turned table (feet across
/// from the left, down from the top), the attacker's base edge at the bottom.
pub fn to_table(section: &Section, p: Point) -> Point {
    crate::section::turn(section.rect, section.attacker_base, p)
}

/// A point of the turned table back on the map: the inverse of [`to_table`].
pub fn to_map(section: &Section, t: Point) -> Point {
    let r = section.rect;
    match section.attacker_base {
        Edge::South => (r.x_feet + t.0, r.y_feet + t.1),
        Edge::North => (r.x_feet + r.width_feet - t.0, r.y_feet + r.height_feet - t.1),
        Edge::West => (r.x_feet + r.width_feet - t.1, r.y_feet + t.0),
        Edge::East => (r.x_feet + t.1, r.y_feet + r.height_feet - t.0),
    }
}

/// The nearest whole number to a small positive `x`, at least `min`.
fn round_count(x: f32, min: u32) -> u32 {
    let mut n = min;
    while fl(n) + 0.5 <= x && n < 1000 {
        n += 1;
    }
    n
}

impl HexMap {
    /// The grid of `system` laid on `section` of `ground`.
    pub fn new(system: HexSystem, ground: &Ground, section: Section) -> HexMap {
        let (width, depth) = turned_size(&section);
        let orientation = system.orientation();
        let across = fl(system.across_eight_feet());
        // The hex's size (centre to corner), in feet, and the grid's columns and rows.
        let sqrt3 = 3f32.sqrt();
        let (size, cols, rows) = match orientation {
            HexOrientation::Pointy => {
                // Rows of `across` hexes plus the half hex of the pushed rows fill 8'.
                let size = 8.0 / ((across + 0.5) * sqrt3);
                let cols = round_count(width / (size * sqrt3) - 0.5, 1);
                let rows = round_count((depth / size - 0.5) / 1.5, 1);
                (size, cols, rows)
            }
            HexOrientation::Flat => {
                let size = 8.0 / (1.5 * across + 0.5);
                let cols = round_count((width / size - 0.5) / 1.5, 1);
                let rows = round_count(depth / (size * sqrt3) - 0.5, 1);
                (size, cols, rows)
            }
        };
        // The first hex's centre sits a hex's half-width in from the top left corner (the
        // pushed rows or columns are pushed further in).
        let origin = match orientation {
            HexOrientation::Pointy => Vec2::new(size * sqrt3 / 2.0, size),
            HexOrientation::Flat => Vec2::new(size, size * sqrt3 / 2.0),
        };
        let layout = HexLayout::new(orientation).with_hex_size(size).with_origin(Vec2::ZERO);
        // Offset (0, 0) may be pushed: place the grid so that the leftmost, topmost centres
        // lie at `origin`.
        let raw: Vec<Vec2> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (c, r)))
            .map(|(c, r)| layout.hex_to_world_pos(offset_hex(system, c, r)))
            .collect();
        let min_x = raw.iter().map(|p| p.x).fold(f32::INFINITY, f32::min);
        let min_y = raw.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let origin = origin - Vec2::new(min_x, min_y);

        let mut map = HexMap {
            system,
            section,
            cols,
            rows,
            flat_feet: size * sqrt3,
            cells: Vec::new(),
            roads: Vec::new(),
            rivers: Vec::new(),
            pieces: Vec::new(),
            attacker_setup: Vec::new(),
            defender_setup: Vec::new(),
            origin: (origin.x, origin.y),
            size,
        };
        let layout = map.layout();
        for r in 0..rows {
            for c in 0..cols {
                let p = layout.hex_to_world_pos(offset_hex(system, c, r));
                map.cells.push(HexCell {
                    col: c,
                    row: r,
                    label: system.label(c, r, cols),
                    centre: (p.x, p.y),
                    cover: Cover::Open,
                    road: false,
                });
            }
        }
        map.lay_ground(ground);
        map.attacker_setup = map.setup_for(true, HexSystem::SETUP_LEAST);
        map.defender_setup = map.setup_for(false, HexSystem::SETUP_LEAST);
        map
    }

    /// The grid's geometry.
    fn layout(&self) -> HexLayout {
        HexLayout::new(self.system.orientation()).with_hex_size(self.size).with_origin(Vec2::new(self.origin.0, self.origin.1))
    }

    /// The index of the cell at `hex`, if it is on the map.
    pub fn index(&self, hex: Hex) -> Option<usize> {
        let [c, r] = hex.to_offset_coordinates(self.system.offset_mode(), self.system.orientation());
        let (c, r) = (u32::try_from(c).ok()?, u32::try_from(r).ok()?);
        (c < self.cols && r < self.rows).then(|| usize::try_from(r * self.cols + c).unwrap_or(usize::MAX))
    }

    /// The hex of cell `i`.
    pub fn hex(&self, i: usize) -> Hex {
        let cell = &self.cells[i];
        offset_hex(self.system, cell.col, cell.row)
    }

    /// The cell whose hex holds the table point `t` (feet across, down), if on the map.
    pub fn at(&self, t: Point) -> Option<usize> {
        self.index(self.layout().world_pos_to_hex(Vec2::new(t.0, t.1)))
    }

    /// The cell with number `label`.
    pub fn find(&self, label: &str) -> Option<usize> {
        self.cells.iter().position(|c| c.label == label)
    }

    /// The cells next to cell `i`.
    pub fn neighbours(&self, i: usize) -> Vec<usize> {
        self.hex(i).all_neighbors().into_iter().filter_map(|h| self.index(h)).collect()
    }

    /// Whether cells `a` and `b` touch.
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        self.hex(a).unsigned_distance_to(self.hex(b)) == 1
    }

    /// The six corners of cell `i`, on the table in feet.
    pub fn corners(&self, i: usize) -> [Point; 6] {
        self.layout().hex_corners(self.hex(i)).map(|v| (v.x, v.y))
    }

    /// Width and depth of the drawn grid in feet of the table.
    pub fn extent(&self) -> (f32, f32) {
        let mut w: f32 = 0.0;
        let mut h: f32 = 0.0;
        for i in 0..self.cells.len() {
            for (x, y) in self.corners(i) {
                w = w.max(x);
                h = h.max(y);
            }
        }
        (w, h)
    }

    /// Whether cell `i` lies on the edge of the map.
    pub fn on_edge(&self, i: usize) -> bool {
        let c = &self.cells[i];
        c.col == 0 || c.row == 0 || c.col + 1 == self.cols || c.row + 1 == self.rows
    }

    /// The hexes of the `rows` rows nearest the bottom (the attacker's) or the top where a unit
    /// may set up ([`HexSystem::may_set_up`]).
    pub fn setup_rows(&self, attacker: bool, rows: u32) -> Vec<usize> {
        let rows = rows.min(self.rows);
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| if attacker { c.row + rows >= self.rows } else { c.row < rows })
            .filter(|(_, c)| self.system.may_set_up(c.cover))
            .map(|(i, _)| i)
            .collect()
    }

    /// A side's set-up hexes: [`HexSystem::SETUP_ROWS`] rows from its edge, leaving out the
    /// hexes no unit may start in, widened row by row until they hold at least `units` hexes
    /// and as many as those rows have on land, but never to the middle of the map: at least a
    /// row lies between the two sides' hexes.
    pub fn setup_for(&self, attacker: bool, units: u32) -> Vec<usize> {
        // Never past the row before the middle: the two sides' zones keep a row or more apart.
        let most = (self.rows.saturating_sub(1) / 2).max(1);
        let mut rows = HexSystem::SETUP_ROWS.min(most);
        let first = rows;
        let land = self.cells.iter().filter(|c| !c.off_map() && if attacker { c.row + first >= self.rows } else { c.row < first }).count();
        let want = usize::try_from(units).unwrap_or(usize::MAX).max(land);
        loop {
            let hexes = self.setup_rows(attacker, rows);
            if hexes.len() >= want || rows >= most {
                return hexes;
            }
            rows += 1;
        }
    }

    fn lay_ground(&mut self, ground: &Ground) {
        let section = self.section;
        let rect = section.rect;
        let table = |p: &Point| to_table(&section, *p);
        let centres_map: Vec<Point> = self.cells.iter().map(|c| to_map(&section, c.centre)).collect();

        // The sea first: a hex whose centre is at sea is off the map.
        for (i, p) in centres_map.iter().enumerate() {
            if ground.sea.iter().any(|s| contains(s, *p)) {
                self.cells[i].cover = Cover::Sea;
            }
        }
        // Terrain pieces, then the settlement over them.
        let mut pieces: Vec<(Cover, String, &[Point])> =
            ground.terrain.iter().map(|t| (Cover::of(t.kind), t.name.clone(), t.outline.as_slice())).collect();
        if let Some(s) = &ground.settlement {
            pieces.push((Cover::of(s.kind), s.name.clone(), s.outline.as_slice()));
        }
        for (cover, name, outline) in pieces {
            let clipped = clip_polygon(outline, rect);
            if clipped.len() < 3 || polygon_area(&clipped) < 1e-4 {
                continue;
            }
            let mut hexes: Vec<usize> = centres_map
                .iter()
                .enumerate()
                .filter(|(i, p)| self.cells[*i].cover != Cover::Sea && contains(outline, **p))
                .map(|(i, _)| i)
                .collect();
            if hexes.is_empty() {
                // Too small to hold a centre: the hex at its middle (or nearest it on land).
                if let Some(i) = self.nearest_land(table(&centroid(&clipped))) {
                    hexes.push(i);
                }
            }
            for &i in &hexes {
                self.cells[i].cover = cover;
            }
            if !hexes.is_empty() {
                self.pieces.push(Placed { cover, name, hexes });
            }
        }
        // Rivers over everything on land.
        for (k, river) in ground.rivers.iter().enumerate() {
            for piece in clip_polyline(&river.points, rect) {
                let line: Vec<Point> = piece.iter().map(table).collect();
                let hexes = self.chain(&line);
                if hexes.is_empty() {
                    continue;
                }
                for &i in &hexes {
                    if self.cells[i].cover != Cover::Sea {
                        self.cells[i].cover = Cover::River;
                    }
                }
                self.rivers.push(HexRiver { name: river.name.clone(), ground_river: k, hexes, fords: Vec::new() });
            }
        }
        // Each of the ground's fords on the section becomes one hex of its river, and no other
        // ford's: the one of its course nearest the ford that has dry land on both banks, so a
        // road can cross there (or the nearest, where none near it has).
        let bank = self.banks();
        let crosses: Vec<bool> = (0..self.cells.len())
            .map(|i| {
                let sides: Vec<usize> = self.neighbours(i).into_iter().filter_map(|j| bank[j]).collect();
                sides.iter().any(|s| *s != sides[0])
            })
            .collect();
        let mut fords: Vec<(usize, Point, usize)> = Vec::new();
        for (k, river) in ground.rivers.iter().enumerate() {
            for f in river.fords.iter().filter(|f| inside_rect(**f, rect, 0.0)) {
                let t = table(f);
                let mut course: Vec<usize> = self
                    .rivers
                    .iter()
                    .filter(|r| r.ground_river == k)
                    .flat_map(|r| r.hexes.iter().copied())
                    .filter(|&i| self.cells[i].cover == Cover::River)
                    .collect();
                course.sort_by(|&a, &b| dist2(self.cells[a].centre, t).total_cmp(&dist2(self.cells[b].centre, t)));
                let reach = (2.0 * self.flat_feet).powi(2);
                let crossing = course.iter().copied().take_while(|&i| dist2(self.cells[i].centre, t) <= reach).find(|&i| crosses[i]);
                if let Some(i) = crossing.or_else(|| course.first().copied()) {
                    self.cells[i].cover = Cover::Ford;
                    fords.push((k, *f, i));
                }
            }
        }
        for r in &mut self.rivers {
            r.fords = fords.iter().filter(|(k, _, i)| *k == r.ground_river && r.hexes.contains(i)).map(|(_, _, i)| *i).collect();
        }
        // Roads over whatever they cross, and across a river only at its fords: one hex of the
        // river where the ground's road fords it.
        for road in &ground.roads {
            let pieces = clip_polyline(&road.points, rect);
            let count = pieces.len();
            for (k, piece) in pieces.into_iter().enumerate() {
                let line: Vec<Point> = piece.iter().map(table).collect();
                let raw: Vec<usize> = self.chain(&line).into_iter().filter(|&i| !self.cells[i].off_map()).collect();
                if raw.is_empty() {
                    continue;
                }
                let crossed = self.fords_crossed(ground, &piece, &fords);
                let hexes = self.route(&raw, &crossed, &line);
                if hexes.is_empty() {
                    continue;
                }
                for &i in &hexes {
                    self.cells[i].road = true;
                }
                // The road's last piece leaves the section where it ends, unless it ends inside.
                let leaves = k + 1 == count && piece.last().is_some_and(|p| !inside_rect(*p, rect, -1e-3));
                let exit = leaves.then(|| hexes.last().copied()).flatten().filter(|&i| self.on_edge(i));
                self.roads.push(HexRoad { label: road.label.clone(), to_name: road.to_name.clone(), hexes, exit });
            }
        }
    }

    /// The land either side of the rivers: for each hex, which piece of dry land it is part of
    /// (where no river's hex nor the sea lies between); `None` for the water and the sea.
    pub fn banks(&self) -> Vec<Option<usize>> {
        let dry = |i: usize| !matches!(self.cells[i].cover, Cover::River | Cover::Ford | Cover::Sea);
        let mut piece: Vec<Option<usize>> = vec![None; self.cells.len()];
        let mut next = 0;
        for start in 0..self.cells.len() {
            if !dry(start) || piece[start].is_some() {
                continue;
            }
            piece[start] = Some(next);
            let mut todo = vec![start];
            while let Some(i) = todo.pop() {
                for j in self.neighbours(i) {
                    if dry(j) && piece[j].is_none() {
                        piece[j] = Some(next);
                        todo.push(j);
                    }
                }
            }
            next += 1;
        }
        piece
    }

    /// The ford hexes a piece of road (in map feet) crosses, in its order: where it crosses a
    /// river on the section, the hex of the ground's ford there.
    fn fords_crossed(&self, ground: &Ground, road: &[Point], fords: &[(usize, Point, usize)]) -> Vec<usize> {
        let mut crossed: Vec<(f32, usize)> = Vec::new();
        for (k, river) in ground.rivers.iter().enumerate() {
            for piece in clip_polyline(&river.points, self.section.rect) {
                for (along, at) in polyline_crossings(road, &piece) {
                    let ford = fords
                        .iter()
                        .filter(|(r, f, _)| *r == k && dist2(*f, at) <= (2.0 * FORD_REACH).powi(2))
                        .min_by(|a, b| dist2(a.1, at).total_cmp(&dist2(b.1, at)));
                    if let Some(&(_, _, i)) = ford {
                        crossed.push((along, i));
                    }
                }
            }
        }
        crossed.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut out: Vec<usize> = crossed.into_iter().map(|(_, i)| i).collect();
        out.dedup();
        out
    }

    /// A road's hexes from the chain along its course `raw`: from its first hex (or, where that
    /// is wet, the dry hex or first ford nearest the start of its course) through each of the
    /// `fords` in turn, out of each on the bank it did not come from, to the dry hex nearest
    /// its end (on the map's edge, for a road that leaves by it) that it can reach, or the last
    /// ford itself where that is nearer; into no other hex of a river or the sea, and by the
    /// hexes nearest its course `line` (on the table) where there is a choice.
    ///
    /// Where the hexes leave no such way (a road squeezed between a river and the map's edge),
    /// the road crosses by whichever of the map's fords its way needs, as few as it can; where
    /// there is no way at all, the chain is kept as it is.
    fn route(&self, raw: &[usize], fords: &[usize], line: &[Point]) -> Vec<usize> {
        let bank = self.banks();
        let off: Vec<f32> = self.cells.iter().map(|c| polyline_distance(line, c.centre) / self.flat_feet).collect();
        let wet = |i: usize| matches!(self.cells[i].cover, Cover::River | Cover::Ford | Cover::Sea);
        let step = |j: usize| 1.0 + 2.0 * off[j] * off[j];
        let strict = Ways { wet: &wet, step: &step, bank: &bank };
        let deep = |i: usize| matches!(self.cells[i].cover, Cover::River | Cover::Sea);
        let toll = |j: usize| step(j) + if self.cells[j].cover == Cover::Ford { 20.0 } else { 0.0 };
        let any_ford = Ways { wet: &deep, step: &toll, bank: &bank };
        self.route_by(raw, fords, line, &strict).or_else(|| self.route_by(raw, &[], line, &any_ford)).unwrap_or_else(|| raw.to_vec())
    }

    /// [`HexMap::route`] over the hexes `ways` lets a road into.
    fn route_by(&self, raw: &[usize], fords: &[usize], line: &[Point], ways: &Ways<'_>) -> Option<Vec<usize>> {
        let wet = ways.wet;
        let (&first, &last, &begin, &finish) = (raw.first()?, raw.last()?, line.first()?, line.last()?);
        let nearest = |to: Point, among: &mut dyn Iterator<Item = usize>| {
            among.min_by(|&a, &b| dist2(self.cells[a].centre, to).total_cmp(&dist2(self.cells[b].centre, to)).then(a.cmp(&b)))
        };
        let start =
            if wet(first) { nearest(begin, &mut (0..self.cells.len()).filter(|&i| !wet(i) || fords.first() == Some(&i)))? } else { first };
        let mut way = vec![start];
        for &ford in fords {
            let at = way[way.len() - 1];
            if ford == at {
                continue;
            }
            let (cost, from) = self.costs_from(at, ways, self.came_by(&way, ways.bank));
            if !cost[ford].is_finite() {
                return None;
            }
            way.extend(walk_back(&from, at, ford));
        }
        let at = way[way.len() - 1];
        let (cost, from) = self.costs_from(at, ways, self.came_by(&way, ways.bank));
        let edge = self.on_edge(last);
        let mut reached = (0..self.cells.len()).filter(|&i| (i == at || (cost[i].is_finite() && !wet(i))) && (!edge || self.on_edge(i)));
        let end = if !wet(last) && cost[last].is_finite() { last } else { nearest(finish, &mut reached)? };
        way.extend(walk_back(&from, at, end));
        Some(way)
    }

    /// The bank a road came by to the ford it has reached (the last of `way`), where the river
    /// has another bank there: the road goes on by the other.
    fn came_by(&self, way: &[usize], bank: &[Option<usize>]) -> Option<usize> {
        let at = *way.last()?;
        let by = way.len().checked_sub(2).and_then(|k| bank[way[k]])?;
        self.neighbours(at).into_iter().any(|j| bank[j].is_some_and(|b| b != by)).then_some(by)
    }

    /// The cheapest ways from cell `a` over cells that are not wet (a wet cell is reached but
    /// not left) and not on the bank `banned`, each step costing what `ways` says: each cell's
    /// cost, and the cell it is reached from.
    fn costs_from(&self, a: usize, ways: &Ways<'_>, banned: Option<usize>) -> (Vec<f32>, Vec<usize>) {
        use std::cmp::Reverse;
        let n = self.cells.len();
        let mut cost = vec![f32::INFINITY; n];
        let mut from = vec![usize::MAX; n];
        let mut done = vec![false; n];
        cost[a] = 0.0;
        // Costs are never negative, so their bits order as they do.
        let mut queue = std::collections::BinaryHeap::from([Reverse((0f32.to_bits(), a))]);
        while let Some(Reverse((_, i))) = queue.pop() {
            if std::mem::replace(&mut done[i], true) {
                continue;
            }
            if i != a && (ways.wet)(i) {
                continue;
            }
            for j in self.neighbours(i) {
                if banned.is_some() && ways.bank[j] == banned {
                    continue;
                }
                let c = cost[i] + (ways.step)(j);
                if !done[j] && c < cost[j] {
                    cost[j] = c;
                    from[j] = i;
                    queue.push(Reverse((c.to_bits(), j)));
                }
            }
        }
        (cost, from)
    }

    /// The land hex nearest the table point `t`.
    fn nearest_land(&self, t: Point) -> Option<usize> {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.off_map())
            .min_by(|(_, a), (_, b)| dist2(a.centre, t).total_cmp(&dist2(b.centre, t)))
            .map(|(i, _)| i)
    }

    /// The unbroken chain of hexes along a line on the table: each a neighbour of the one
    /// before, from the line's first point to its last. A point just off the grid (its edges
    /// are ragged) counts in the nearest hex on it; where the line comes back to a hex it has
    /// passed, the loop between is cut out.
    fn chain(&self, line: &[Point]) -> Vec<usize> {
        let step = self.flat_feet / 6.0;
        let mut out: Vec<usize> = Vec::new();
        for w in line.windows(2) {
            let len = dist2(w[0], w[1]).sqrt();
            let n = round_count(len / step, 1);
            for k in 0..=n {
                let t = fl(k) / fl(n);
                let p = (w[0].0 + (w[1].0 - w[0].0) * t, w[0].1 + (w[1].1 - w[0].1) * t);
                let Some(i) = self.at(p).or_else(|| self.nearest(p)) else { continue };
                let Some(&last) = out.last() else {
                    out.push(i);
                    continue;
                };
                if last == i {
                    continue;
                }
                for j in self.path(last, i) {
                    match out.iter().position(|&o| o == j) {
                        Some(at) => out.truncate(at + 1),
                        None => out.push(j),
                    }
                }
            }
        }
        self.straighten(&out)
    }

    /// A chain with its detours cut: wherever a hex of it touches a later one, the hexes
    /// between go, so that no hex of the chain touches any of it but the one before and the
    /// one after it. The chain keeps its ends and never moves more than a hex off its line.
    fn straighten(&self, chain: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::with_capacity(chain.len());
        let mut k = 0;
        while k < chain.len() {
            out.push(chain[k]);
            // The last hex of the chain that touches this one: the walk goes on from there.
            k = (k + 1..chain.len()).rev().find(|&j| self.adjacent(chain[k], chain[j])).unwrap_or(k + 1);
        }
        out
    }

    /// The cell whose centre is nearest the table point `t`.
    fn nearest(&self, t: Point) -> Option<usize> {
        self.cells.iter().enumerate().min_by(|(_, a), (_, b)| dist2(a.centre, t).total_cmp(&dist2(b.centre, t))).map(|(i, _)| i)
    }

    /// The hexes from cell `a` (left out) to cell `b`, each a neighbour of the one before: the
    /// straight line where it stays on the grid, else a shortest way over the grid.
    fn path(&self, a: usize, b: usize) -> Vec<usize> {
        let straight: Vec<Option<usize>> = self.hex(a).line_to(self.hex(b)).skip(1).map(|h| self.index(h)).collect();
        if straight.iter().all(Option::is_some) {
            return straight.into_iter().flatten().collect();
        }
        let mut from = vec![usize::MAX; self.cells.len()];
        from[a] = a;
        let mut queue = std::collections::VecDeque::from([a]);
        while let Some(i) = queue.pop_front() {
            if i == b {
                break;
            }
            for j in self.neighbours(i) {
                if from[j] == usize::MAX {
                    from[j] = i;
                    queue.push_back(j);
                }
            }
        }
        let mut way = Vec::new();
        let mut i = b;
        while i != a && from[i] != usize::MAX {
            way.push(i);
            i = from[i];
        }
        way.reverse();
        way
    }
}

/// The hex at column `c`, row `r` of `system`'s grid.
fn offset_hex(system: HexSystem, c: u32, r: u32) -> Hex {
    let c = i32::try_from(c).unwrap_or(i32::MAX);
    let r = i32::try_from(r).unwrap_or(i32::MAX);
    Hex::from_offset_coordinates([c, r], system.offset_mode(), system.orientation())
}

/// What a road may go into on its way, and at what cost.
struct Ways<'a> {
    /// Cells a road goes into only to cross (a ford) and not along: it is not led on from them.
    wet: &'a dyn Fn(usize) -> bool,
    /// What a step into a cell costs.
    step: &'a dyn Fn(usize) -> f32,
    /// Each cell's piece of dry land ([`HexMap::banks`]).
    bank: &'a [Option<usize>],
}

/// The cells from `a` (left out) to `b`, following `from` back from `b`.
fn walk_back(from: &[usize], a: usize, b: usize) -> Vec<usize> {
    let mut way = Vec::new();
    let mut i = b;
    while i != a && i < from.len() {
        way.push(i);
        i = from[i];
    }
    way.reverse();
    way
}

/// How far the point `p` lies from the line `line`.
fn polyline_distance(line: &[Point], p: Point) -> f32 {
    match line {
        [] => f32::INFINITY,
        [only] => dist2(*only, p).sqrt(),
        _ => line.windows(2).map(|w| point_segment_distance(p, w[0], w[1])).fold(f32::INFINITY, f32::min),
    }
}

fn dist2(a: Point, b: Point) -> f32 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}

fn polygon_area(poly: &[Point]) -> f32 {
    let mut a = 0.0;
    for (i, p) in poly.iter().enumerate() {
        let q = poly[(i + 1) % poly.len()];
        a += p.0 * q.1 - q.0 * p.1;
    }
    (a / 2.0).abs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::section::{Defence, section};
    use std::collections::BTreeSet;

    fn blank() -> Ground {
        Ground {
            node: referee_campaign::ids::NodeId(1),
            name: "Test".to_owned(),
            sea: Vec::new(),
            terrain: Vec::new(),
            settlement: None,
            rivers: Vec::new(),
            roads: Vec::new(),
        }
    }

    /// AB-08: hexes are numbered as the rules' scenarios number them: three figures counted
    /// along rows from the top left, the rows 21 hexes long on a full table, and the rows
    /// pushed as the rules' own worked examples have them: the Syracusans' retreat example
    /// puts 075, 076, 095, 097, 117 and 118 round 096, and 054, 055, 075, 077, 096, 097 round
    /// 076.
    #[test]
    fn ab_08_hexes_are_numbered_as_the_scenarios_number_them() {
        let map = HexMap::new(HexSystem::ArsBellum, &blank(), section(Edge::South, Defence::Central, None));
        assert_eq!(map.cols, 21);
        assert_eq!(map.rows, 12);
        assert_eq!(map.cells[0].label, "001");
        assert_eq!(map.cells[20].label, "021");
        assert_eq!(map.cells[21].label, "022");
        let around = |label: &str| -> BTreeSet<String> {
            let i = map.find(label).unwrap();
            map.neighbours(i).into_iter().map(|j| map.cells[j].label.clone()).collect()
        };
        let set = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<BTreeSet<String>>();
        assert_eq!(around("096"), set(&["075", "076", "095", "097", "117", "118"]));
        assert_eq!(around("076"), set(&["054", "055", "075", "077", "096", "097"]));
        // Rows run level: every hex of a row at the same height, the next row lower.
        assert!((map.cells[0].centre.1 - map.cells[20].centre.1).abs() < 1e-5);
        assert!(map.cells[21].centre.1 > map.cells[0].centre.1);
        // The grid fills the table and no more.
        let (w, h) = map.extent();
        assert!((w - 8.0).abs() < 0.01, "{w}");
        assert!((3.7..=4.2).contains(&h), "{h}");
    }

    /// AC-02: A la Charge! hexes are numbered column then row, four figures, as its scenarios
    /// write them (0709); the columns stand upright, every second one half a hex lower.
    #[test]
    fn ac_02_hexes_are_numbered_column_then_row() {
        let map = HexMap::new(HexSystem::ALaCharge, &blank(), section(Edge::North, Defence::Forward, None));
        assert_eq!((map.cols, map.rows), (19, 8));
        assert_eq!(map.cells[0].label, "0101");
        assert_eq!(map.cells[1].label, "0201");
        assert_eq!(map.cells[19].label, "0102");
        let i = map.find("0709").unwrap_or(usize::MAX);
        assert!(i == usize::MAX, "no row 09 on an 8-row map");
        let (a, b) = (map.find("0101").unwrap(), map.find("0201").unwrap());
        assert!(map.cells[b].centre.1 > map.cells[a].centre.1, "column 02 sits lower");
        assert!(map.adjacent(a, b));
        // The lower column's hexes touch the next column's same row and the one below it.
        let touch = |a: &str, b: &str| map.adjacent(map.find(a).unwrap(), map.find(b).unwrap());
        assert!(touch("0201", "0302") && touch("0201", "0102") && touch("0201", "0301"));
        assert!(!touch("0301", "0202"));
        assert!(!touch("0101", "0202"));
        let (w, h) = map.extent();
        assert!((w - 8.0).abs() < 0.01, "{w}");
        assert!((h - 4.0).abs() < 0.3, "{h}");
    }

    /// A 6' table (a flank cut off) is narrower, at the same scale.
    #[test]
    fn a_cut_table_keeps_the_scale() {
        let full = HexMap::new(HexSystem::ArsBellum, &blank(), section(Edge::West, Defence::Rear, None));
        let cut = HexMap::new(HexSystem::ArsBellum, &blank(), section(Edge::West, Defence::Rear, Some(crate::section::Flank::Left)));
        assert!((full.flat_feet - cut.flat_feet).abs() < 1e-6);
        assert_eq!(cut.cols, 16);
        assert_eq!(cut.rows, full.rows);
    }

    #[test]
    fn table_and_map_points_turn_both_ways() {
        for e in Edge::ALL {
            let s = section(e, Defence::Central, None);
            for p in [(1.0, 2.5), (7.5, 2.1), (4.0, 4.0)] {
                let t = to_table(&s, p);
                let back = to_map(&s, t);
                assert!(dist2(p, back) < 1e-8, "{e}: {p:?} {t:?} {back:?}");
            }
            // The attacker's base edge is the bottom of the table.
            let (w, d) = turned_size(&s);
            let base_mid = to_map(&s, (w / 2.0, d));
            let r = s.rect;
            let on = match e {
                Edge::North => (base_mid.1 - r.y_feet).abs(),
                Edge::South => (base_mid.1 - r.y_feet - r.height_feet).abs(),
                Edge::West => (base_mid.0 - r.x_feet).abs(),
                Edge::East => (base_mid.0 - r.x_feet - r.width_feet).abs(),
            };
            assert!(on < 1e-5, "{e}");
        }
    }
}
