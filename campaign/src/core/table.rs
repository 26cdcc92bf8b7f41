//! The tabletop, in words every engine and every tabletop system share: the battle map a
//! place gives (its edges, areas, coast, settlement, rivers and terrain, MG-21), where the
//! defender stands on it and its flanks (MG-21, MG-25), and the kinds of element armies are
//! made of (`Reg Sp(O)`, MG-03). An engine describes its battles in these words; the battle
//! packs read nothing else of it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ids::NodeId;

/// One of the four edges of a battle map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Edge {
    North,
    East,
    South,
    West,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::North, Edge::East, Edge::South, Edge::West];

    /// The edge across the table.
    pub fn opposite(self) -> Edge {
        match self {
            Edge::North => Edge::South,
            Edge::East => Edge::West,
            Edge::South => Edge::North,
            Edge::West => Edge::East,
        }
    }

    /// Unit vector pointing out of the table through this edge (x east, y south).
    pub fn outward(self) -> (f32, f32) {
        match self {
            Edge::North => (0.0, -1.0),
            Edge::East => (1.0, 0.0),
            Edge::South => (0.0, 1.0),
            Edge::West => (-1.0, 0.0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::East => "east",
            Edge::South => "south",
            Edge::West => "west",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Edge> {
        Edge::ALL.into_iter().find(|e| e.name() == s)
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the nine areas of a battle map (a 3×3 grid of 32"×32" squares at 8'×8').
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Area {
    NorthWest,
    North,
    NorthEast,
    West,
    Centre,
    East,
    SouthWest,
    South,
    SouthEast,
}

impl Area {
    pub const ALL: [Area; 9] = [
        Area::NorthWest,
        Area::North,
        Area::NorthEast,
        Area::West,
        Area::Centre,
        Area::East,
        Area::SouthWest,
        Area::South,
        Area::SouthEast,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Area::NorthWest => "north-west",
            Area::North => "north",
            Area::NorthEast => "north-east",
            Area::West => "west",
            Area::Centre => "centre",
            Area::East => "east",
            Area::SouthWest => "south-west",
            Area::South => "south",
            Area::SouthEast => "south-east",
        }
    }

    /// Column and row in the 3×3 grid, (0, 0) being north-west.
    pub fn cell(self) -> (u8, u8) {
        let i = Area::ALL.iter().position(|a| *a == self).unwrap_or(4) as u8;
        (i % 3, i / 3)
    }

    pub(crate) fn parse(s: &str) -> Option<Area> {
        Area::ALL.into_iter().find(|a| a.name() == s)
    }
}

/// What stands at a node: a walled city, an open town or a village.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettlementKind {
    City,
    Town,
    Village,
}

/// A general's rank, highest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rank {
    /// The army's commander-in-chief.
    CInC,
    SubGeneral,
    /// A general of an allied contingent.
    AllyGeneral,
}

impl Rank {
    pub fn name(self) -> &'static str {
        match self {
            Rank::CInC => "C-in-C",
            Rank::SubGeneral => "sub-general",
            Rank::AllyGeneral => "ally-general",
        }
    }
}

/// Terrain pieces of a battle map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FeatureKind {
    Hill,
    SteepHill,
    Wood,
    Marsh,
    Rough,
    OliveGroves,
}

impl FeatureKind {
    pub(crate) const NAMES: [(&'static str, FeatureKind); 6] = [
        ("hill", FeatureKind::Hill),
        ("steep-hill", FeatureKind::SteepHill),
        ("wood", FeatureKind::Wood),
        ("marsh", FeatureKind::Marsh),
        ("rough", FeatureKind::Rough),
        ("olive-groves", FeatureKind::OliveGroves),
    ];

    pub fn name(self) -> &'static str {
        FeatureKind::NAMES.iter().find(|(_, k)| *k == self).map_or("terrain", |(n, _)| n)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Size {
    Small,
    Medium,
    Large,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settlement {
    pub kind: SettlementKind,
    pub area: Area,
}

/// Where a river leaves the table: through an edge, or into the sea on a coast edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RiverEnd {
    Edge(Edge),
    Sea,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct River {
    pub name: String,
    pub from: Edge,
    pub to: RiverEnd,
    pub fords: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    pub kind: FeatureKind,
    pub area: Area,
    pub size: Size,
    pub name: String,
}

/// The 8'×8' battle map of a place, as a map file describes it (MG-21).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battlefield {
    pub coast: BTreeSet<Edge>,
    pub settlement: Option<Settlement>,
    pub rivers: Vec<River>,
    pub features: Vec<Feature>,
    /// The table edge by which the road toward each neighbouring node leaves.
    pub roads: BTreeMap<NodeId, Edge>,
}

/// The defender's choice of where on the node's 8'×8' map to fight (MG-21), in order from
/// the attacker's edge toward the defender's rear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Defence {
    /// The 4' strip at the attacker's entry edge.
    Forward,
    /// The middle 4' of the map.
    Central,
    /// The 4' strip furthest from the attacker.
    Rear,
}

impl Defence {
    pub const ALL: [Defence; 3] = [Defence::Forward, Defence::Central, Defence::Rear];

    pub fn name(self) -> &'static str {
        match self {
            Defence::Forward => "forward",
            Defence::Central => "central",
            Defence::Rear => "rear",
        }
    }
}

impl fmt::Display for Defence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A flank as the attacker sees it, standing on its base edge and facing into the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Flank {
    Left,
    Right,
}

impl Flank {
    pub fn name(self) -> &'static str {
        match self {
            Flank::Left => "left",
            Flank::Right => "right",
        }
    }
}

/// Regular or irregular.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Class {
    Reg,
    Irr,
}

/// Superior, ordinary, inferior, fast, exception.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Grade {
    S,
    O,
    I,
    F,
    X,
}

impl Grade {
    pub(crate) fn parse(s: &str) -> Option<Grade> {
        match s {
            "S" => Some(Grade::S),
            "O" => Some(Grade::O),
            "I" => Some(Grade::I),
            "F" => Some(Grade::F),
            "X" => Some(Grade::X),
            _ => None,
        }
    }
}

/// One kind of element: `Reg Sp(O)`, written that way in files and JSON too.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ElementSpec {
    pub class: Class,
    /// The DBM abbreviation, e.g. `Sp`.
    pub code: String,
    pub grade: Grade,
}

impl fmt::Display for ElementSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {}({:?})", self.class, self.code, self.grade)
    }
}

/// Text that names no element, or no group of elements: the sentence says what is wrong
/// with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ElementError {
    #[error("`{0}` is not an element like \"Reg Sp(O)\" (class, type, grade in brackets)")]
    NotAnElement(String),
    #[error("`{0}` is not a group like \"4 Reg Sp(O)\"")]
    NotAGroup(String),
    #[error("`{0}` must start with a number of elements, like \"4 Reg Sp(O)\"")]
    NoCount(String),
    #[error("`{0}`: a group has at least one element")]
    EmptyGroup(String),
    #[error("`{0}`: a group has at most {max} elements", max = MAX_GROUP)]
    GroupTooLarge(String),
}

impl FromStr for ElementSpec {
    type Err = ElementError;
    /// Reads `Reg Sp(O)`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ElementError::NotAnElement(s.to_owned());
        let (class, rest) = s.trim().split_once(' ').ok_or_else(bad)?;
        let class = match class {
            "Reg" => Class::Reg,
            "Irr" => Class::Irr,
            _ => return Err(bad()),
        };
        let (code, grade) = rest.trim().strip_suffix(')').and_then(|r| r.split_once('(')).ok_or_else(bad)?;
        let grade = Grade::parse(grade).ok_or_else(bad)?;
        if code.is_empty() || !code.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(bad());
        }
        Ok(ElementSpec { class, code: code.to_owned(), grade })
    }
}

/// The most elements one group may hold: far more than any army fields, and few enough that
/// no sum of groups read from a file or an order can overflow.
pub const MAX_GROUP: u32 = 999;

impl TryFrom<String> for ElementSpec {
    type Error = ElementError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<ElementSpec> for String {
    fn from(spec: ElementSpec) -> String {
        spec.to_string()
    }
}
