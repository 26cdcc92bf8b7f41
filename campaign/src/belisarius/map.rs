//! The Belisarius campaign's zone map (BE-01): land zones, each with one city, sea zones, and
//! which of them touch.
//!
//! The data file gives places in degrees so a referee can check it against any atlas; the
//! loader projects them to kilometres once, so drawing and distances never deal with degrees.
//! The map is kept inside a campaign's start event, so every type here round-trips through
//! serde and a campaign keeps the map it began with even if the file is edited later.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use referee_data::belisarius::map::{LonLat, RawZoneMap};
use referee_data::raw::Spanned;
use referee_data::{DataError, DataSource, Report, SourceText};
use serde::{Deserialize, Serialize};

/// The regions zones belong to: scenarios hand out control and count victory by region.
pub const REGIONS: [&str; 9] = ["africa", "sardinia", "corsica", "sicilia", "italy", "histria", "dalmatia", "praevalitana", "gaul"];

/// Where the built-in map and a referee's own copy live inside the data folder.
const FILE: &str = "belisarius/map.toml";

/// Kilometres per degree of latitude, and of longitude at the equator.
const KM_PER_DEG_LAT: f64 = 110.57;
const KM_PER_DEG_LON: f64 = 111.32;
/// The latitude where the projection keeps true scale: the middle of the map, near Rome and
/// Carthage, so neither Africa nor the Alps are badly stretched.
const PROJECTION_LAT_DEG: f64 = 40.0;
/// Room left around the outermost outline, so borders are not drawn on the frame.
const MARGIN_KM: f64 = 50.0;

/// Ratings allowed by the rules: a city always has militia (BE-24) and its total defence,
/// fortification included, never passes 5 (BE-25, BE-32).
const MILITIA: std::ops::RangeInclusive<u8> = 1..=5;
const FORTIFICATION: std::ops::RangeInclusive<u8> = 0..=5;

macro_rules! string_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            pub fn new(id: impl Into<String>) -> Self {
                $name(id.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

string_id!(
    /// A land zone, by its id in the map file (`flaminia`, `zeugitana`, …): ids rather than
    /// numbers because the printed map's numbering is unknown.
    ZoneId
);
string_id!(
    /// A city, by its id in the map file (`ravenna`, `carthago`, …): scenarios place forces in
    /// cities and victory counts cities, so they are named apart from their zones.
    CityId
);
string_id!(
    /// A sea zone, by its id in the map file (`ionium`, `mare-africum`, …).
    SeaId
);

/// A zone's ground: mountains cost more APs to cross (BE-10) and hamper interception and
/// combat (BE-14, BE-18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    Plain,
    Mountain,
}

impl Terrain {
    pub const ALL: [Terrain; 2] = [Terrain::Plain, Terrain::Mountain];

    /// The word used in the map file and on screen.
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plain => "plain",
            Terrain::Mountain => "mountain",
        }
    }

    fn parse(s: &str) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.name() == s)
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A zone's city with its red (militia) and black (fortification) ratings (BE-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct City {
    pub id: CityId,
    pub name: String,
    /// The city's own defenders, who take losses first in a siege and return when it falls.
    pub militia: u8,
    /// The walls' modifier to assaults.
    pub fortification: u8,
    /// Fleets shelter, embark and land here without the cost of an open coast (BE-37, BE-40).
    pub port: bool,
    /// The city's place on the drawing, kilometres east and south of the map's corner.
    pub at_km: [f32; 2],
}

/// A land zone: forces move, fight and trace supply zone by zone (BE-10, BE-41).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub id: ZoneId,
    pub name: String,
    /// One of [`REGIONS`].
    pub region: String,
    pub terrain: Terrain,
    pub city: City,
    /// Sea zones touched, in the file's order: where fleets may land troops and where coastal
    /// supply is traced (BE-37, BE-41). Empty inland.
    pub coast: Vec<SeaId>,
    /// Land zones sharing a border, sorted by id.
    pub neighbours: Vec<ZoneId>,
    /// Border on the drawing, in kilometres (x east, y south).
    pub outline_km: Vec<[f32; 2]>,
    pub label_km: [f32; 2],
}

/// A sea zone: fleets move from one to the next (BE-33).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sea {
    pub id: SeaId,
    pub name: String,
    /// Sea zones sharing open water, sorted by id.
    pub neighbours: Vec<SeaId>,
    pub outline_km: Vec<[f32; 2]>,
    pub label_km: [f32; 2],
}

/// The checked zone map: every id is unique, every coast and pair names a zone that exists,
/// every rating is within the rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ZoneMap {
    pub id: String,
    pub name: String,
    /// True when the map is the project's reconstruction rather than the printed original,
    /// so the program can say so wherever the map is shown.
    pub reconstructed: bool,
    pub note: String,
    /// The printed scale, for printouts at the original's size.
    pub km_per_cm: f32,
    /// Size of the drawing: every outline lies within `0..=width_km` × `0..=height_km`.
    pub width_km: f32,
    pub height_km: f32,
    /// In the file's order, which is the order lists and printouts show them in.
    pub zones: Vec<Zone>,
    pub seas: Vec<Sea>,
}

/// Turns degrees into kilometres on the drawing: equirectangular about 40°N, with the map's
/// north-west corner (plus a margin) at the origin and y growing southwards.
#[derive(Debug, Clone, Copy)]
struct Projection {
    west_deg: f64,
    north_deg: f64,
    km_per_deg_lon: f64,
}

impl Projection {
    /// The projection framing every point given, and the drawing's width and height.
    fn framing<'a>(points: impl Iterator<Item = &'a LonLat>) -> (Projection, f32, f32) {
        let km_per_deg_lon = KM_PER_DEG_LON * PROJECTION_LAT_DEG.to_radians().cos();
        let (mut west, mut east, mut south, mut north) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for &[lon, lat] in points {
            west = west.min(lon);
            east = east.max(lon);
            south = south.min(lat);
            north = north.max(lat);
        }
        if west > east || south > north {
            // No outline at all: a blank drawing the size of the margins.
            (west, east, south, north) = (0.0, 0.0, 0.0, 0.0);
        }
        let projection =
            Projection { west_deg: west - MARGIN_KM / km_per_deg_lon, north_deg: north + MARGIN_KM / KM_PER_DEG_LAT, km_per_deg_lon };
        let width = (east - west) * km_per_deg_lon + 2.0 * MARGIN_KM;
        let height = (north - south) * KM_PER_DEG_LAT + 2.0 * MARGIN_KM;
        (projection, width as f32, height as f32)
    }

    fn km(&self, [lon, lat]: LonLat) -> [f32; 2] {
        [((lon - self.west_deg) * self.km_per_deg_lon) as f32, ((self.north_deg - lat) * KM_PER_DEG_LAT) as f32]
    }

    fn outline(&self, points: &[LonLat]) -> Vec<[f32; 2]> {
        points.iter().map(|&p| self.km(p)).collect()
    }
}

/// What an id in the map file names, for messages about clashing ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Zone,
    Sea,
    City,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Zone => "land zone",
            Kind::Sea => "sea zone",
            Kind::City => "city",
        }
    }
}

impl ZoneMap {
    /// Checks a raw map, reporting every problem at once with its file and line, so a referee
    /// typing in the printed map fixes them in one pass.
    pub fn from_raw(raw: RawZoneMap, source: &SourceText) -> Result<ZoneMap, DataError> {
        let mut report = Report::new(source);
        let km_per_cm = *raw.km_per_cm.get_ref();
        if !(km_per_cm.is_finite() && km_per_cm > 0.0) {
            report.at(
                raw.km_per_cm.span().start,
                format!("the scale must be a positive number of kilometres per centimetre, not {km_per_cm}"),
            );
        }

        // Zones, seas and cities share one set of names, so an id always means one thing.
        let mut names: BTreeMap<&str, Kind> = BTreeMap::new();
        for zone in &raw.zones {
            claim(&mut names, &zone.id, Kind::Zone, &mut report);
        }
        for sea in &raw.seas {
            claim(&mut names, &sea.id, Kind::Sea, &mut report);
        }
        for zone in &raw.zones {
            claim(&mut names, &zone.city.id, Kind::City, &mut report);
        }
        let is = |id: &str, kind: Kind| names.get(id) == Some(&kind);

        let mut terrains = Vec::with_capacity(raw.zones.len());
        for zone in &raw.zones {
            let id = zone.id.get_ref();
            if !REGIONS.contains(&zone.region.get_ref().as_str()) {
                report.at(
                    zone.region.span().start,
                    format!("zone {id}: `{}` is not a region ({})", zone.region.get_ref(), REGIONS.join(", ")),
                );
            }
            let terrain = Terrain::parse(zone.terrain.get_ref());
            if terrain.is_none() {
                report
                    .at(zone.terrain.span().start, format!("zone {id}: `{}` is not a terrain (plain or mountain)", zone.terrain.get_ref()));
            }
            terrains.push(terrain);
            let mut seen = BTreeSet::new();
            for sea in &zone.coast {
                if !is(sea.get_ref(), Kind::Sea) {
                    report
                        .at(sea.span().start, format!("zone {id} has a coast on `{}`, which is not a sea zone of the map", sea.get_ref()));
                } else if !seen.insert(sea.get_ref()) {
                    report.at(sea.span().start, format!("zone {id} lists its coast on {} twice", sea.get_ref()));
                }
            }
            check_outline(&format!("zone {id}"), &zone.outline, &mut report);
            let city = &zone.city;
            let (militia, fortification) = (*city.militia.get_ref(), *city.fortification.get_ref());
            if !MILITIA.contains(&militia) {
                report.at(
                    city.militia.span().start,
                    format!("city {}: militia is rated {} to {}, not {militia}", city.id.get_ref(), MILITIA.start(), MILITIA.end()),
                );
            }
            if !FORTIFICATION.contains(&fortification) {
                report.at(
                    city.fortification.span().start,
                    format!(
                        "city {}: fortification is rated {} to {}, not {fortification}",
                        city.id.get_ref(),
                        FORTIFICATION.start(),
                        FORTIFICATION.end()
                    ),
                );
            }
            if *city.port.get_ref() && zone.coast.is_empty() {
                report.at(city.port.span().start, format!("city {} is a port, but zone {id} has no coast", city.id.get_ref()));
            }
        }
        for sea in &raw.seas {
            check_outline(&format!("sea zone {}", sea.id.get_ref()), &sea.outline, &mut report);
        }

        let land = pairs(&raw.adjacency.land, Kind::Zone, &is, &mut report);
        let sea = pairs(&raw.adjacency.sea, Kind::Sea, &is, &mut report);
        for zone in &raw.zones {
            let id = zone.id.get_ref().as_str();
            if zone.coast.is_empty() && !land.contains_key(id) {
                report.at(zone.id.span().start, format!("zone {id} has neither a land neighbour nor a coast, so nothing can reach it"));
            }
        }

        if !report.problems.is_empty() {
            return Err(DataError { problems: report.problems });
        }
        let all_points = raw.zones.iter().flat_map(|z| z.outline.get_ref()).chain(raw.seas.iter().flat_map(|s| s.outline.get_ref()));
        let (projection, width_km, height_km) = Projection::framing(all_points);
        let neighbours_of = |pairs: &BTreeMap<&str, BTreeSet<&str>>, id: &str| -> Vec<String> {
            pairs.get(id).map(|set| set.iter().map(|s| (*s).to_owned()).collect()).unwrap_or_default()
        };
        let zones = raw
            .zones
            .iter()
            .zip(terrains)
            .filter_map(|(zone, terrain)| {
                let city = &zone.city;
                Some(Zone {
                    id: ZoneId::new(zone.id.get_ref()),
                    name: zone.name.clone(),
                    region: zone.region.get_ref().clone(),
                    terrain: terrain?,
                    city: City {
                        id: CityId::new(city.id.get_ref()),
                        name: city.name.clone(),
                        militia: *city.militia.get_ref(),
                        fortification: *city.fortification.get_ref(),
                        port: *city.port.get_ref(),
                        at_km: projection.km(city.at),
                    },
                    coast: zone.coast.iter().map(|s| SeaId::new(s.get_ref())).collect(),
                    neighbours: neighbours_of(&land, zone.id.get_ref()).into_iter().map(ZoneId).collect(),
                    outline_km: projection.outline(zone.outline.get_ref()),
                    label_km: projection.km(zone.label),
                })
            })
            .collect();
        let seas = raw
            .seas
            .iter()
            .map(|s| Sea {
                id: SeaId::new(s.id.get_ref()),
                name: s.name.clone(),
                neighbours: neighbours_of(&sea, s.id.get_ref()).into_iter().map(SeaId).collect(),
                outline_km: projection.outline(s.outline.get_ref()),
                label_km: projection.km(s.label),
            })
            .collect();
        Ok(ZoneMap {
            id: raw.id.into_inner(),
            name: raw.name,
            reconstructed: raw.reconstructed,
            note: raw.note.trim().to_owned(),
            km_per_cm,
            width_km,
            height_km,
            zones,
            seas,
        })
    }

    /// Reads and checks `belisarius/map.toml` from the built-in data or a referee's folder.
    pub fn load(source: &DataSource) -> Result<ZoneMap, DataError> {
        let text = source.read(FILE)?;
        let raw: RawZoneMap = referee_data::parse(&text)?;
        ZoneMap::from_raw(raw, &text)
    }

    /// The map built into the program, for new campaigns and tests that need no folder.
    pub fn embedded() -> ZoneMap {
        ZoneMap::load(&DataSource::Embedded).expect("the built-in Belisarius map is proved to load by a unit test")
    }

    /// `None` for an id from another map, e.g. a campaign saved against an older file.
    pub fn zone(&self, id: &ZoneId) -> Option<&Zone> {
        self.zones.iter().find(|z| &z.id == id)
    }

    /// Cities are found through their zone, since every zone has exactly one.
    pub fn city(&self, id: &CityId) -> Option<&City> {
        self.zone_of_city(id).map(|z| &z.city)
    }

    /// `None` for an id from another map.
    pub fn sea(&self, id: &SeaId) -> Option<&Sea> {
        self.seas.iter().find(|s| &s.id == id)
    }

    /// The refusal of a land zone id the map does not have, with the nearest it has: "there
    /// is no zone `zeugitanna` on the map; did you mean `zeugitana`?".
    pub fn no_zone(&self, typed: &str) -> String {
        let ids = self.zones.iter().map(|z| z.id.as_str());
        let names = self.zones.iter().map(|z| (z.name.as_str(), z.id.as_str()));
        format!(
            "there is no zone `{typed}` on the map{}",
            crate::core::words::did_you_mean(&crate::core::words::nearest(typed, ids, names))
        )
    }

    /// A place's name: "Campania", "Neapolis", "Mare Tyrrhenum", "aboard the Byzantine fleet 2".
    pub fn place_name(&self, at: &super::state::Location) -> String {
        use super::state::Location;
        match at {
            Location::Zone(z) => self.zone(z).map_or_else(|| z.to_string(), |z| z.name.clone()),
            Location::City(c) => self.city(c).map_or_else(|| c.to_string(), |c| c.name.clone()),
            Location::Sea(s) => self.sea(s).map_or_else(|| s.to_string(), |s| s.name.clone()),
            Location::Aboard(ship) => format!("aboard {}", super::setup::ship_name(ship)),
        }
    }

    /// The land zone a place on land belongs to: itself, or the zone of its city.
    pub fn zone_of(&self, at: &super::state::Location) -> Option<ZoneId> {
        use super::state::Location;
        match at {
            Location::Zone(z) => Some(z.clone()),
            Location::City(c) => self.zone_of_city(c).map(|z| z.id.clone()),
            Location::Sea(_) | Location::Aboard(_) => None,
        }
    }

    /// The zone a city stands in: sieges, supply and control are settled by zone.
    pub fn zone_of_city(&self, id: &CityId) -> Option<&Zone> {
        self.zones.iter().find(|z| &z.city.id == id)
    }

    /// Whether a land force may step from one zone straight into the other (BE-10).
    pub fn adjacent(&self, a: &ZoneId, b: &ZoneId) -> bool {
        self.zone(a).is_some_and(|z| z.neighbours.contains(b))
    }

    /// Whether a fleet may sail from one sea zone straight into the other (BE-33).
    pub fn seas_adjacent(&self, a: &SeaId, b: &SeaId) -> bool {
        self.sea(a).is_some_and(|s| s.neighbours.contains(b))
    }

    /// Whether the zone touches a sea, which decides landings and coastal supply (BE-37, BE-41).
    pub fn is_coastal(&self, z: &ZoneId) -> bool {
        self.zone(z).is_some_and(|z| !z.coast.is_empty())
    }

    /// The zones of one region, in file order, for scenario set-up and victory counts.
    pub fn zones_in(&self, region: &str) -> impl Iterator<Item = &Zone> {
        self.zones.iter().filter(move |z| z.region == region)
    }

    /// Every port with its zone, in file order: where fleets shelter and embark (BE-37, BE-40).
    pub fn ports(&self) -> impl Iterator<Item = (&Zone, &City)> {
        self.zones.iter().filter(|z| z.city.port).map(|z| (z, &z.city))
    }
}

/// Records `id` as naming a `kind`, or reports it if the name is taken.
fn claim<'a>(names: &mut BTreeMap<&'a str, Kind>, id: &'a Spanned<String>, kind: Kind, report: &mut Report<'_>) {
    match names.get(id.get_ref().as_str()) {
        Some(&other) if other == kind => {
            report.at(id.span().start, format!("the {} `{}` is defined twice", kind.name(), id.get_ref()));
        }
        Some(&other) => {
            report.at(id.span().start, format!("the {} `{}` has the same id as a {}", kind.name(), id.get_ref(), other.name()));
        }
        None => {
            names.insert(id.get_ref().as_str(), kind);
        }
    }
}

fn check_outline(what: &str, outline: &Spanned<Vec<LonLat>>, report: &mut Report<'_>) {
    let points = outline.get_ref();
    if points.len() < 3 {
        report.at(outline.span().start, format!("{what}: an outline needs at least 3 points, not {}", points.len()));
    }
    if let Some([lon, lat]) = points.iter().find(|[lon, lat]| !lon.is_finite() || !lat.is_finite()) {
        report.at(outline.span().start, format!("{what}: the outline point [{lon}, {lat}] is not a place"));
    }
}

/// Checks adjacency pairs of one kind and returns each id's neighbours (both directions).
fn pairs<'a>(
    raw: &'a [Spanned<[String; 2]>],
    kind: Kind,
    is: &impl Fn(&str, Kind) -> bool,
    report: &mut Report<'_>,
) -> BTreeMap<&'a str, BTreeSet<&'a str>> {
    let mut seen: BTreeSet<(&str, &str)> = BTreeSet::new();
    let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for pair in raw {
        let [a, b] = pair.get_ref();
        let at = pair.span().start;
        let mut known = true;
        for n in [a, b] {
            if !is(n, kind) {
                let other = [Kind::Zone, Kind::Sea, Kind::City].into_iter().find(|&k| k != kind && is(n, k));
                let why = other.map_or_else(|| "the map has none".to_owned(), |k| format!("it is a {}", k.name()));
                report.at(at, format!("the pair [{a}, {b}] names `{n}`, which is not a {}: {why}", kind.name()));
                known = false;
            }
        }
        if !known {
            continue;
        }
        if a == b {
            report.at(at, format!("the pair [{a}, {b}] joins {a} to itself"));
            continue;
        }
        let key = if a < b { (a.as_str(), b.as_str()) } else { (b.as_str(), a.as_str()) };
        if !seen.insert(key) {
            report.at(at, format!("the pair of {a} and {b} is listed twice"));
            continue;
        }
        out.entry(a.as_str()).or_default().insert(b.as_str());
        out.entry(b.as_str()).or_default().insert(a.as_str());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BE-01: `embedded()` may panic only if this fails.
    #[test]
    fn be_01_the_built_in_map_loads() {
        let map = ZoneMap::load(&DataSource::Embedded).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(map.id, "belisarius");
        assert_eq!(map, ZoneMap::embedded());
    }

    #[test]
    fn the_projection_keeps_true_scale_at_40_degrees() {
        let points = [[10.0, 40.0], [11.0, 39.0]];
        let (p, width, height) = Projection::framing(points.iter());
        let [x0, y0] = p.km(points[0]);
        let [x1, y1] = p.km(points[1]);
        assert!((x0 - 50.0).abs() < 1e-3 && (y0 - 50.0).abs() < 1e-3);
        assert!((x1 - x0 - 85.27).abs() < 0.01, "one degree of longitude at 40°N is about 85.3 km, got {}", x1 - x0);
        assert!((y1 - y0 - 110.57).abs() < 0.01);
        assert!((width - (85.27 + 100.0)).abs() < 0.01 && (height - 210.57).abs() < 0.01);
    }
}
