//! Raw shapes of the data files, exactly as written. Field-level checks (unknown fields,
//! types) happen here; everything that needs to look across fields or files — a path to a
//! node that does not exist, a side controlling a node twice — is checked by
//! `referee-campaign` when it turns these into validated types.

use serde::Deserialize;
pub use toml::Spanned;

/// A data file that carries a format `version`.
pub trait Versioned {
    fn version(&self) -> &Spanned<u32>;
}

/// `maps/*.toml`: a campaign node map.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMap {
    pub version: Spanned<u32>,
    pub id: Spanned<String>,
    pub name: String,
    /// True when the map is the project's reconstruction rather than the printed original.
    #[serde(default)]
    pub reconstructed: bool,
    #[serde(default)]
    pub note: String,
    /// Size of the drawing area, in kilometres.
    pub width_km: f32,
    pub height_km: f32,
    /// The island's outline as `[x, y]` points in kilometres, for drawing only.
    #[serde(default)]
    pub outline: Vec<[f32; 2]>,
    #[serde(rename = "node")]
    pub nodes: Vec<RawNode>,
    /// Movement paths as pairs of node numbers.
    pub paths: Vec<Spanned<[u8; 2]>>,
}

impl Versioned for RawMap {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

/// One node of a campaign map.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNode {
    pub id: Spanned<u8>,
    pub name: Spanned<String>,
    /// Position on the drawing, kilometres east of the map's west edge.
    pub x_km: Spanned<f32>,
    /// Position on the drawing, kilometres south of the map's north edge.
    pub y_km: Spanned<f32>,
    /// Fleets may enter coastal nodes only.
    #[serde(default)]
    pub coastal: bool,
    /// Part of the southern coast (a landing place for a side that lands from the sea).
    #[serde(default)]
    pub south_coast: bool,
    /// Number of commands a fortified city fields while neutral (1–3); absent if unfortified.
    pub city_commands: Option<Spanned<u8>>,
    /// Modifier to every siege roll against this city, whatever the scenario.
    #[serde(default)]
    pub siege_modifier: i8,
    pub battlefield: RawBattlefield,
}

/// Description of the 8'×8' tabletop battle map of a node, from which battle tables are drawn.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBattlefield {
    /// Table edges that are sea.
    #[serde(default)]
    pub coast: Vec<Spanned<String>>,
    /// Where the town or city stands, as one of the nine areas.
    pub settlement: Option<RawSettlement>,
    #[serde(default, rename = "river")]
    pub rivers: Vec<RawRiver>,
    #[serde(default, rename = "feature")]
    pub features: Vec<RawFeature>,
    #[serde(rename = "road")]
    pub roads: Vec<RawRoad>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettlement {
    /// `city` (walled), `town` or `village`.
    pub kind: Spanned<String>,
    pub area: Spanned<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRiver {
    pub name: String,
    /// Edge the river enters from.
    pub from: Spanned<String>,
    /// Edge it leaves by (or `sea` for a mouth on a coast edge).
    pub to: Spanned<String>,
    pub fords: Spanned<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFeature {
    /// `hill`, `steep-hill`, `wood`, `marsh`, `rough` or `olive-groves`.
    pub kind: Spanned<String>,
    pub area: Spanned<String>,
    /// `small`, `medium` or `large`.
    pub size: Spanned<String>,
    #[serde(default)]
    pub name: String,
}

/// The road that leaves the battle map toward a neighbouring node.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRoad {
    pub to: Spanned<u8>,
    /// `north`, `east`, `south` or `west`.
    pub edge: Spanned<String>,
}

/// `scenarios/*.toml`: one scenario of a campaign.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub version: Spanned<u32>,
    pub id: Spanned<String>,
    pub name: String,
    /// Years covered, as text, e.g. "398–367 BC".
    pub period: String,
    pub map: Spanned<String>,
    pub turns: Spanned<u32>,
    /// Side ids in the order they move each campaign turn.
    pub move_order: Spanned<Vec<String>>,
    #[serde(default)]
    pub summary: String,
    #[serde(rename = "side")]
    pub sides: Vec<RawSide>,
    /// Pairs of sides fighting on the same side of the war (they never attack each other).
    #[serde(default)]
    pub alliances: Vec<Spanned<[String; 2]>>,
    /// Scenario special rules, by key (see the scenario module of `referee-campaign`).
    #[serde(default)]
    pub special_rules: Vec<Spanned<String>>,
    /// Siege-roll modifiers added by this scenario on top of the map's own.
    #[serde(default)]
    pub siege_modifier: Vec<RawSiegeModifier>,
    /// Victory points for capturing a city that differ from the usual.
    #[serde(default)]
    pub capture_vp: Vec<RawCaptureVp>,
}

impl Versioned for RawScenario {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub id: Spanned<String>,
    pub name: String,
    /// Drawing colour as `#rrggbb`.
    pub colour: Spanned<String>,
    /// Pattern drawn with the colour so sides differ in print and for colour-blind eyes:
    /// `solid`, `stripes`, `dots` or `cross`.
    pub pattern: Spanned<String>,
    pub army_points: Spanned<u32>,
    /// Naval points of the side's fleet counter; 0 for no fleet.
    #[serde(default)]
    pub fleet_np: u32,
    pub capital: Option<RawCapital>,
    /// Whether losing its capital puts the side out of the campaign.
    #[serde(default = "yes")]
    pub out_when_capital_falls: bool,
    /// Nodes the side controls at the start.
    #[serde(default)]
    pub controls: Vec<Spanned<u8>>,
    /// Fortified cities allied to the side at the start (its capital is implied).
    #[serde(default)]
    pub allied_cities: Vec<Spanned<u8>>,
    /// Commands fielded by each of the side's allied cities, where the scenario overrides the map.
    pub allied_city_commands: Option<Spanned<u8>>,
    pub deploy: RawDeploy,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCapital {
    pub node: Spanned<u8>,
    /// Number of the city's own commands (0 = none; an inherent sub-general instead).
    pub strength: Spanned<u8>,
}

/// Where a side may set its counters up.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDeploy {
    /// `controlled` (any controlled node), `nodes` (only `nodes`), or `landing`
    /// (not deployed; lands on its first turn on a southern coastal node).
    pub area: Spanned<String>,
    #[serde(default)]
    pub nodes: Vec<Spanned<u8>>,
    /// Counters may not start in a fortified city node that is not allied to the side.
    #[serde(default)]
    pub not_in_unallied_cities: bool,
    /// At least one command must start here.
    pub command_at: Option<Spanned<u8>>,
    /// The fleet must start here.
    pub fleet_at: Option<Spanned<u8>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSiegeModifier {
    pub node: Spanned<u8>,
    pub modifier: i8,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCaptureVp {
    pub node: Spanned<u8>,
    pub side: Spanned<String>,
    pub vp: u32,
}

/// `tables/elements.toml`: DBM-style element types, their grades and points.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawElementTable {
    pub version: Spanned<u32>,
    /// True when the points are the project's reconstruction, for the referee to check.
    #[serde(default)]
    pub reconstructed: bool,
    #[serde(default)]
    pub note: String,
    /// Extra points for each general, by rank, on top of his element.
    pub generals: RawGeneralCosts,
    #[serde(rename = "element")]
    pub elements: Vec<RawElementType>,
}

impl Versioned for RawElementTable {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGeneralCosts {
    pub c_in_c: u32,
    pub sub_general: u32,
    pub ally_general: u32,
}

/// One element type, e.g. `Sp` (spearmen).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawElementType {
    /// The DBM abbreviation: `Kn`, `Cv`, `Sp` …
    pub code: Spanned<String>,
    pub name: String,
    /// How the element moves on the campaign map: `mounted`, `foot`, `psiloi`, `elephant`,
    /// `expendable` or `artillery`.
    pub mobility: Spanned<String>,
    /// Points of one element by grade, for regulars and irregulars (absent: not allowed).
    pub costs: Vec<RawElementCost>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawElementCost {
    /// `S`, `O`, `I`, `F` or `X`.
    pub grade: Spanned<String>,
    pub reg: Option<u32>,
    pub irr: Option<u32>,
}

/// `armies/<scenario>.toml`: the default army of every side of a scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArmyFile {
    pub version: Spanned<u32>,
    pub scenario: Spanned<String>,
    #[serde(rename = "army")]
    pub armies: Vec<RawArmy>,
}

impl Versioned for RawArmyFile {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

/// One side's field army, split into commands (one counter each).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArmy {
    pub side: Spanned<String>,
    /// The army list it is drawn from, e.g. "Later Carthaginian, 398 BC".
    pub list: String,
    #[serde(default)]
    pub note: String,
    #[serde(rename = "command")]
    pub commands: Vec<RawCommand>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCommand {
    /// The counter's label, e.g. the general's name.
    pub name: Spanned<String>,
    /// `c-in-c`, `sub-general` or `ally-general`.
    pub rank: Spanned<String>,
    /// The general's own element, e.g. `"Reg Cv(O)"`.
    pub general: Spanned<String>,
    /// The command's other elements, each group written like `"4 Reg Sp(O)"`.
    pub elements: Vec<Spanned<String>>,
}
