//! Raw shapes of `belisarius/map.toml`, the Belisarius zone map (BE-01), exactly as written.
//!
//! Places are given in degrees of longitude and latitude so the file can be checked against
//! any atlas; `referee-campaign` projects them onto the drawing and checks that every name
//! used in a coast or an adjacency pair exists.

use serde::Deserialize;

use crate::raw::{Spanned, Versioned};

/// `[lon, lat]` in degrees.
pub type LonLat = [f64; 2];

/// `belisarius/map.toml`: land zones, sea zones and which of them touch.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawZoneMap {
    pub version: Spanned<u32>,
    pub id: Spanned<String>,
    pub name: String,
    /// True when the map is the project's reconstruction rather than the printed original.
    #[serde(default)]
    pub reconstructed: bool,
    /// Why and how the map was reconstructed, shown to the referee.
    #[serde(default)]
    pub note: String,
    /// The printed scale (1 cm = 30 km), kept so printouts can match the original's size.
    pub km_per_cm: Spanned<f32>,
    #[serde(rename = "zone")]
    pub zones: Vec<RawZone>,
    #[serde(rename = "sea")]
    pub seas: Vec<RawSea>,
    pub adjacency: RawAdjacency,
}

impl Versioned for RawZoneMap {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

/// A land zone: a late-Roman province or part of one, with its one city.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawZone {
    pub id: Spanned<String>,
    pub name: String,
    /// `africa`, `sardinia`, `corsica`, `sicilia`, `italy`, `histria`, `dalmatia`,
    /// `praevalitana` or `gaul`: scenarios and victory conditions count zones by region.
    pub region: Spanned<String>,
    /// `plain` or `mountain`: mountains cost more to cross and hamper interception and combat.
    pub terrain: Spanned<String>,
    /// Sea zones the zone touches; empty for an inland zone.
    #[serde(default)]
    pub coast: Vec<Spanned<String>>,
    /// The zone's border, for drawing and for finding the zone under a click.
    pub outline: Spanned<Vec<LonLat>>,
    /// Where the zone's name is written.
    pub label: LonLat,
    pub city: RawCity,
}

/// The city of a zone, with its red and black ratings (BE-25).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCity {
    pub id: Spanned<String>,
    pub name: String,
    /// Red rating: the city's own defenders, who absorb losses in a siege.
    pub militia: Spanned<u8>,
    /// Black rating: walls, modifying assaults.
    pub fortification: Spanned<u8>,
    /// A port has harbour room for fleets; only a city on a coast can be one.
    pub port: Spanned<bool>,
    /// The city's real position.
    pub at: LonLat,
}

/// A sea zone: fleets move from one to the next.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSea {
    pub id: Spanned<String>,
    pub name: String,
    pub outline: Spanned<Vec<LonLat>>,
    pub label: LonLat,
}

/// Which zones touch, as pairs of ids in either order.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAdjacency {
    /// Land zones sharing a border.
    pub land: Vec<Spanned<[String; 2]>>,
    /// Sea zones sharing open water.
    pub sea: Vec<Spanned<[String; 2]>>,
}
