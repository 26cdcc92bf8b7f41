//! BE-01: the Belisarius zone map — every fixed id, every place the scenarios name, a map whose
//! land and sea graphs let every zone be reached, and a loader that refuses a damaged copy with
//! the file and line a referee would fix. BE-41: the Ostrogoth home zones and the Byzantine
//! supply line to Praevalitana exist.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use referee_campaign::belisarius::map::{CityId, REGIONS, SeaId, Terrain, ZoneId, ZoneMap};
use referee_data::belisarius::map::RawZoneMap;
use referee_data::{DataError, DataSource, SourceText, line_of};

use crate::common::{BELISARIUS_SEAS, round_trip};

const FILE: &str = "belisarius/map.toml";

/// The fixed ids every Belisarius file uses: zone, region, terrain, city, port.
const ZONES: [(&str, &str, &str, &str, bool); 43] = [
    ("tripolitania", "africa", "plain", "leptis-magna", true),
    ("byzacium-south", "africa", "plain", "thaenae", true),
    ("byzacium-north", "africa", "plain", "hadrumetum", true),
    ("zeugitana", "africa", "plain", "carthago", true),
    ("proconsularis", "africa", "plain", "sicca-veneria", false),
    ("numidia-coast", "africa", "plain", "hippo-regius", true),
    ("numidia", "africa", "mountain", "cirta", false),
    ("aurasius", "africa", "mountain", "theveste", false),
    ("mauretania", "africa", "mountain", "sitifis", false),
    ("sardinia-south", "sardinia", "plain", "caralis", true),
    ("sardinia-north", "sardinia", "mountain", "turris-libisonis", true),
    ("corsica", "corsica", "mountain", "aleria", true),
    ("sicilia-east", "sicilia", "plain", "syracusae", true),
    ("sicilia-north", "sicilia", "plain", "panormus", true),
    ("sicilia-west", "sicilia", "plain", "lilybaeum", true),
    ("sicilia-centre", "sicilia", "mountain", "henna", false),
    ("bruttii", "italy", "mountain", "rhegium", true),
    ("lucania", "italy", "mountain", "grumentum", false),
    ("calabria", "italy", "plain", "hydruntum", true),
    ("apulia", "italy", "plain", "canusium", false),
    ("samnium", "italy", "mountain", "beneventum", false),
    ("campania", "italy", "plain", "neapolis", true),
    ("latium", "italy", "plain", "roma", true),
    ("valeria", "italy", "mountain", "reate", false),
    ("picenum-suburbicarium", "italy", "mountain", "asculum", false),
    ("picenum", "italy", "plain", "ancona", true),
    ("umbria", "italy", "mountain", "perusia", false),
    ("tuscia", "italy", "plain", "florentia", false),
    ("tuscia-maritima", "italy", "plain", "pisae", true),
    ("pentapolis", "italy", "plain", "ariminum", true),
    ("flaminia", "italy", "plain", "ravenna", true),
    ("aemilia", "italy", "plain", "bononia", false),
    ("ticinensis", "italy", "plain", "ticinum", false),
    ("liguria", "italy", "plain", "mediolanum", false),
    ("alpes-cottiae", "italy", "mountain", "genua", true),
    ("venetia", "italy", "plain", "verona", false),
    ("venetia-maritima", "italy", "plain", "aquileia", true),
    ("histria", "histria", "plain", "pola", true),
    ("liburnia", "dalmatia", "mountain", "iader", true),
    ("dalmatia", "dalmatia", "plain", "salona", true),
    ("dalmatia-interior", "dalmatia", "mountain", "delminium", false),
    ("praevalitana", "praevalitana", "mountain", "scodra", true),
    ("alpes-maritimae", "gaul", "mountain", "cemenelum", true),
];

fn map() -> ZoneMap {
    ZoneMap::load(&DataSource::Embedded).unwrap_or_else(|e| panic!("{e}"))
}

fn z(id: &str) -> ZoneId {
    ZoneId::new(id)
}

fn zones_of(map: &ZoneMap, regions: &[&str]) -> BTreeSet<ZoneId> {
    map.zones.iter().filter(|z| regions.contains(&z.region.as_str())).map(|z| z.id.clone()).collect()
}

/// Zones reachable from `from` by land alone, never leaving `within`.
fn land_reach(map: &ZoneMap, from: &ZoneId, within: &BTreeSet<ZoneId>) -> BTreeSet<ZoneId> {
    let mut seen = BTreeSet::from([from.clone()]);
    let mut queue = VecDeque::from([from.clone()]);
    while let Some(id) = queue.pop_front() {
        for n in &map.zone(&id).unwrap().neighbours {
            if within.contains(n) && seen.insert(n.clone()) {
                queue.push_back(n.clone());
            }
        }
    }
    seen
}

/// The text of the built-in map.
fn text() -> String {
    DataSource::Embedded.read(FILE).unwrap().text
}

/// Loads a copy of the map under the name `test.toml`.
fn check(text: String) -> Result<ZoneMap, DataError> {
    let source = SourceText { file: "test.toml".into(), text };
    let raw: RawZoneMap = referee_data::parse(&source)?;
    ZoneMap::from_raw(raw, &source)
}

/// The built-in text with the first `from` after `anchor` replaced by `to`, and the line where
/// the replacement starts.
fn edit(anchor: &str, from: &str, to: &str) -> (String, usize) {
    let text = text();
    let start = text.find(anchor).unwrap_or_else(|| panic!("the map holds no {anchor:?}"));
    let at = start + text[start..].find(from).unwrap_or_else(|| panic!("no {from:?} after {anchor:?}"));
    let edited = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
    let line = line_of(&edited, at);
    (edited, line)
}

/// The built-in text with the whole line starting with `start` after `anchor` replaced by
/// `to`, and that line's number.
fn edit_line(anchor: &str, start: &str, to: &str) -> (String, usize) {
    let text = text();
    let from = text.find(anchor).unwrap_or_else(|| panic!("the map holds no {anchor:?}"));
    let at = from + text[from..].find(start).unwrap_or_else(|| panic!("no {start:?} after {anchor:?}"));
    let end = at + text[at..].find('\n').unwrap();
    let edited = format!("{}{to}{}", &text[..at], &text[end..]);
    let line = line_of(&edited, at);
    (edited, line)
}

/// Asserts that the edited copy is refused, with among its problems one at `line` of
/// test.toml whose message contains `words` (renaming a zone also orphans its pairs).
fn refused_at((text, line): (String, usize), words: &str) {
    let err = check(text).expect_err("a damaged map must be refused");
    assert!(
        err.problems.iter().any(|p| p.file == "test.toml" && p.line == line && p.message.contains(words)),
        "expected {words:?} at test.toml:{line}, got: {err}"
    );
}

/// Asserts that the edited copy is refused with exactly one problem, at `line` of test.toml,
/// whose message contains `words`.
fn refused_once((text, line): (String, usize), words: &str) {
    let err = check(text).expect_err("a damaged map must be refused");
    assert_eq!(err.problems.len(), 1, "{err}");
    let p = &err.problems[0];
    assert_eq!((p.file.as_str(), p.line), ("test.toml", line), "{err}");
    assert!(p.message.contains(words), "{:?} should say {words:?}", p.message);
}

/// BE-01: every fixed id is on the map with its region, terrain, city and port, and nothing
/// else is.
#[test]
fn be_01_every_fixed_id_is_present_with_its_region_terrain_and_port() {
    let map = map();
    for (zone, region, terrain, city, port) in ZONES {
        let found = map.zone(&z(zone)).unwrap_or_else(|| panic!("no zone {zone}"));
        assert_eq!(found.region, region, "{zone}");
        assert_eq!(found.terrain.to_string(), terrain, "{zone}");
        assert_eq!(found.city.id, CityId::new(city), "{zone}");
        assert_eq!(found.city.port, port, "{city}");
        assert_eq!(map.zone_of_city(&CityId::new(city)).map(|z| z.id.as_str()), Some(zone));
        assert!(REGIONS.contains(&found.region.as_str()));
    }
    let ids: Vec<&str> = map.zones.iter().map(|z| z.id.as_str()).collect();
    assert_eq!(ids, ZONES.map(|z| z.0), "zones in the fixed order, no more");
    let seas: BTreeSet<&str> = map.seas.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(seas, BTreeSet::from(BELISARIUS_SEAS));
    assert_eq!(map.seas.len(), BELISARIUS_SEAS.len());
    for sea in BELISARIUS_SEAS {
        assert!(map.sea(&SeaId::new(sea)).is_some(), "{sea}");
    }
    assert_eq!(map.zones.iter().filter(|z| z.terrain == Terrain::Mountain).count(), 17);
    assert_eq!(map.zones_in("italy").count(), 21);
    assert_eq!(map.zones_in("africa").count(), 9);
    assert_eq!(map.ports().count(), ZONES.iter().filter(|z| z.4).count());
}

/// BE-01: every city and zone the four scenarios name can be found.
#[test]
fn be_01_every_place_the_scenarios_name_exists() {
    let map = map();
    for city in [
        "carthago",
        "hadrumetum",
        "hippo-regius",
        "caralis",
        "ravenna",
        "salona",
        "ticinum",
        "verona",
        "roma",
        "neapolis",
        "panormus",
        "syracusae",
        "pola",
        "genua",
        "mediolanum",
        "ancona",
        "ariminum",
    ] {
        assert!(map.city(&CityId::new(city)).is_some(), "no city {city}");
    }
    for zone in [
        "byzacium-north",
        "byzacium-south",
        "corsica",
        "liguria",
        "campania",
        "flaminia",
        "venetia",
        "aemilia",
        "praevalitana",
        "dalmatia",
        "alpes-maritimae",
    ] {
        assert!(map.zone(&z(zone)).is_some(), "no zone {zone}");
    }
    // Scenario 1: the Byzantine fleet waits "in the adjacent zone" to the landing.
    assert_eq!(map.zone(&z("byzacium-north")).unwrap().coast.len(), 1, "the landing has one adjacent sea zone");
    // Scenario 2's victory cities are all in Italy, Dalmatia or Histria.
    for (city, region) in [("salona", "dalmatia"), ("pola", "histria"), ("genua", "italy"), ("roma", "italy")] {
        assert_eq!(map.zone_of_city(&CityId::new(city)).unwrap().region, region);
    }
}

/// BE-01: adjacency goes both ways, is sorted, never joins a zone to itself.
#[test]
fn be_01_adjacency_is_symmetric() {
    let map = map();
    for zone in &map.zones {
        assert!(!zone.neighbours.contains(&zone.id), "{}", zone.id);
        assert!(zone.neighbours.windows(2).all(|w| w[0] < w[1]), "{} neighbours unsorted", zone.id);
        for n in &zone.neighbours {
            assert!(map.adjacent(n, &zone.id), "{n} does not list {}", zone.id);
        }
    }
    for sea in &map.seas {
        assert!(!sea.neighbours.contains(&sea.id));
        assert!(sea.neighbours.windows(2).all(|w| w[0] < w[1]));
        for n in &sea.neighbours {
            assert!(map.seas_adjacent(n, &sea.id), "{n} does not list {}", sea.id);
        }
    }
    assert!(map.adjacent(&z("flaminia"), &z("aemilia")) && map.adjacent(&z("aemilia"), &z("flaminia")));
    assert!(!map.adjacent(&z("flaminia"), &z("zeugitana")));
    assert!(!map.adjacent(&z("atlantis"), &z("flaminia")));
}

/// BE-01: Italy, Histria, Dalmatia, Praevalitana and the Frankish border are one land mass,
/// joined to nothing else by land.
#[test]
fn be_01_the_mainland_is_connected_by_land() {
    let map = map();
    let mainland = zones_of(&map, &["italy", "histria", "dalmatia", "praevalitana", "gaul"]);
    assert_eq!(land_reach(&map, &z("latium"), &mainland), mainland);
    for id in &mainland {
        for n in &map.zone(id).unwrap().neighbours {
            assert!(mainland.contains(n), "{id} touches {n} by land");
        }
    }
    // The chain round the head of the Adriatic, and the Frankish road.
    for (a, b) in [
        ("venetia-maritima", "histria"),
        ("histria", "liburnia"),
        ("liburnia", "dalmatia"),
        ("dalmatia", "praevalitana"),
        ("dalmatia", "dalmatia-interior"),
        ("alpes-maritimae", "alpes-cottiae"),
    ] {
        assert!(map.adjacent(&z(a), &z(b)), "{a}–{b}");
    }
}

/// BE-01: Africa's zones are connected among themselves and to nothing else by land.
#[test]
fn be_01_africa_is_connected_by_land_and_only_to_itself() {
    let map = map();
    let africa = zones_of(&map, &["africa"]);
    assert_eq!(land_reach(&map, &z("zeugitana"), &africa), africa);
    for id in &africa {
        assert!(map.zone(id).unwrap().neighbours.iter().all(|n| africa.contains(n)), "{id}");
    }
}

/// BE-01: Sicily, Sardinia and Corsica are reached only by sea.
#[test]
fn be_01_islands_have_no_land_neighbours_off_their_island() {
    let map = map();
    for island in ["sicilia", "sardinia", "corsica"] {
        let zones = zones_of(&map, &[island]);
        let first = zones.iter().next().unwrap();
        assert_eq!(land_reach(&map, first, &zones), zones, "{island} is one island");
        for id in &zones {
            let zone = map.zone(id).unwrap();
            assert!(zone.neighbours.iter().all(|n| zones.contains(n)), "{id} touches land off {island}");
            assert!(!zone.coast.is_empty(), "{id} is on an island and must have a coast");
        }
    }
    assert!(!map.adjacent(&z("sicilia-north"), &z("bruttii")), "the strait of Messina is crossed by sea");
}

/// BE-01: a fleet can sail from any sea zone to any other.
#[test]
fn be_01_all_sea_zones_are_connected() {
    let map = map();
    let mut seen = BTreeSet::from([map.seas[0].id.clone()]);
    let mut queue = VecDeque::from([map.seas[0].id.clone()]);
    while let Some(id) = queue.pop_front() {
        for n in &map.sea(&id).unwrap().neighbours {
            if seen.insert(n.clone()) {
                queue.push_back(n.clone());
            }
        }
    }
    assert_eq!(seen.len(), map.seas.len());
}

/// BE-01: coasts name real seas, every sea zone touches land, and every port is on a coast.
#[test]
fn be_01_coasts_and_ports_agree() {
    let map = map();
    let mut touched: BTreeSet<&SeaId> = BTreeSet::new();
    for zone in &map.zones {
        for sea in &zone.coast {
            assert!(map.sea(sea).is_some(), "{} has a coast on {sea}", zone.id);
            touched.insert(sea);
        }
        assert_eq!(map.is_coastal(&zone.id), !zone.coast.is_empty());
    }
    assert_eq!(touched.len(), map.seas.len(), "every sea zone touches some land zone");
    for (zone, city) in map.ports() {
        assert!(city.port);
        assert!(map.is_coastal(&zone.id), "the port {} is in inland zone {}", city.id, zone.id);
    }
    for inland in ["tuscia", "umbria", "valeria", "aemilia", "ticinensis", "liguria", "venetia", "dalmatia-interior"] {
        assert!(!map.is_coastal(&z(inland)), "{inland}");
    }
}

/// BE-01: every land zone can be reached from every other, by land or across the sea.
#[test]
fn be_01_every_zone_reaches_every_other_by_land_or_sea() {
    let map = map();
    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
    enum Place {
        Land(ZoneId),
        Sea(SeaId),
    }
    let mut edges: BTreeMap<Place, Vec<Place>> = BTreeMap::new();
    for zone in &map.zones {
        let here = Place::Land(zone.id.clone());
        let out = edges.entry(here.clone()).or_default();
        out.extend(zone.neighbours.iter().cloned().map(Place::Land));
        out.extend(zone.coast.iter().cloned().map(Place::Sea));
        for sea in &zone.coast {
            edges.entry(Place::Sea(sea.clone())).or_default().push(here.clone());
        }
    }
    for sea in &map.seas {
        edges.entry(Place::Sea(sea.id.clone())).or_default().extend(sea.neighbours.iter().cloned().map(Place::Sea));
    }
    for start in &map.zones {
        let first = Place::Land(start.id.clone());
        let mut seen = BTreeSet::from([first.clone()]);
        let mut queue = VecDeque::from([first]);
        while let Some(p) = queue.pop_front() {
            for n in edges.get(&p).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    queue.push_back(n.clone());
                }
            }
        }
        for zone in &map.zones {
            assert!(seen.contains(&Place::Land(zone.id.clone())), "{} cannot reach {}", start.id, zone.id);
        }
    }
}

/// BE-01: enough zones that scenario 4's "35 zones" is a real bar, and enough Italian and
/// Sicilian cities for scenario 2's seven named plus five more.
#[test]
fn be_01_enough_zones_and_cities_for_the_victory_conditions() {
    let map = map();
    assert!(map.zones.len() >= 40, "{} land zones", map.zones.len());
    let italy_sicily = map.zones.iter().filter(|z| z.region == "italy" || z.region == "sicilia").count();
    assert!(italy_sicily >= 25, "{italy_sicily} cities in Italy and Sicily");
    let cities: BTreeSet<&CityId> = map.zones.iter().map(|z| &z.city.id).collect();
    assert_eq!(cities.len(), map.zones.len(), "one city per zone, none shared");
}

/// BE-01: Sicily's coasts reach the Tyrrhenian and Ionian seas, and Carthage's zone the
/// African Sea, so the invasions of 533 and 535 can be sailed.
#[test]
fn be_01_sicily_and_zeugitana_touch_the_seas_of_the_invasions() {
    let map = map();
    let sicily: BTreeSet<&str> = map.zones_in("sicilia").flat_map(|z| z.coast.iter().map(SeaId::as_str)).collect();
    assert!(sicily.iter().any(|s| s.starts_with("tyrrhenum")), "{sicily:?}");
    assert!(sicily.contains("ionium"), "{sicily:?}");
    assert!(sicily.contains("mare-africum"), "{sicily:?}");
    assert!(map.zone(&z("zeugitana")).unwrap().coast.contains(&SeaId::new("mare-africum")));
    assert!(map.zone(&z("sicilia-east")).unwrap().coast.contains(&SeaId::new("ionium")), "Syracuse faces the Ionian Sea");
}

/// BE-41: the four Ostrogoth home zones are Italian, hang together by land, and the Byzantines
/// can trace a line of zones from Italy to Praevalitana.
#[test]
fn be_41_ostrogoth_home_zones_and_the_road_to_praevalitana() {
    let map = map();
    let home: BTreeSet<ZoneId> = ["flaminia", "venetia", "aemilia", "liguria"].into_iter().map(z).collect();
    for id in &home {
        assert_eq!(map.zone(id).unwrap().region, "italy", "{id}");
    }
    assert_eq!(land_reach(&map, &z("flaminia"), &home), home, "the home zones form one block");
    let all: BTreeSet<ZoneId> = map.zones.iter().map(|z| z.id.clone()).collect();
    assert!(land_reach(&map, &z("latium"), &all).contains(&z("praevalitana")));
}

/// BE-01: the ratings the rules' sieges suggest, and that the rules allow.
#[test]
fn be_01_city_ratings() {
    let map = map();
    let rating = |c: &str| {
        let city = map.city(&CityId::new(c)).unwrap();
        (city.militia, city.fortification)
    };
    assert_eq!(rating("ravenna").1, 4, "marsh-protected capital");
    for (city, expected) in [
        ("roma", (4, 3)),
        ("carthago", (3, 3)),
        ("neapolis", (2, 3)),
        ("syracusae", (2, 3)),
        ("salona", (2, 3)),
        ("ticinum", (2, 3)),
        ("verona", (2, 3)),
        ("panormus", (2, 2)),
    ] {
        assert_eq!(rating(city), expected, "{city}");
    }
    let strongest = map.zones.iter().map(|z| z.city.fortification).max().unwrap();
    assert_eq!(strongest, rating("ravenna").1, "no city has stronger walls than Ravenna");
    for zone in &map.zones {
        assert!((1..=5).contains(&zone.city.militia) && zone.city.fortification <= 5, "{}", zone.city.id);
    }
}

/// BE-01: the map says it is a reconstruction, at the printed scale.
#[test]
fn be_01_the_map_is_marked_as_reconstructed() {
    let map = map();
    assert!(map.reconstructed);
    assert!(map.note.contains("reconstruction"), "{}", map.note);
    assert_eq!(map.km_per_cm, 30.0);
}

/// BE-01: every outline, label and city lies on the drawing, and each city and label inside
/// its own zone.
#[test]
fn be_01_the_drawing_holds_everything() {
    let map = map();
    let on_map = |[x, y]: [f32; 2]| (0.0..=map.width_km).contains(&x) && (0.0..=map.height_km).contains(&y);
    for zone in &map.zones {
        assert!(zone.outline_km.len() >= 3);
        assert!(zone.outline_km.iter().all(|&p| on_map(p)), "{}", zone.id);
        assert!(on_map(zone.label_km) && on_map(zone.city.at_km), "{}", zone.id);
        assert!(inside(zone.city.at_km, &zone.outline_km), "{} lies outside {}", zone.city.id, zone.id);
        assert!(inside(zone.label_km, &zone.outline_km), "the label of {} lies outside it", zone.id);
    }
    for sea in &map.seas {
        assert!(sea.outline_km.iter().all(|&p| on_map(p)), "{}", sea.id);
        assert!(inside(sea.label_km, &sea.outline_km), "the label of {} lies outside it", sea.id);
        for zone in &map.zones {
            assert!(!inside(sea.label_km, &zone.outline_km), "the label of {} lies on {}", sea.id, zone.id);
        }
    }
    // The 50 km margin on every side.
    let all = map.zones.iter().flat_map(|z| &z.outline_km).chain(map.seas.iter().flat_map(|s| &s.outline_km));
    let (min_x, min_y) = all.fold((f32::MAX, f32::MAX), |(x, y), p| (x.min(p[0]), y.min(p[1])));
    assert!((min_x - 50.0).abs() < 0.01 && (min_y - 50.0).abs() < 0.01, "{min_x} {min_y}");
    // Roughly the real distance Rome–Carthage (about 600 km).
    let [rx, ry] = map.city(&CityId::new("roma")).unwrap().at_km;
    let [cx, cy] = map.city(&CityId::new("carthago")).unwrap().at_km;
    let d = ((rx - cx).powi(2) + (ry - cy).powi(2)).sqrt();
    assert!((550.0..650.0).contains(&d), "Rome–Carthage {d} km");
}

fn inside([x, y]: [f32; 2], poly: &[[f32; 2]]) -> bool {
    let mut c = false;
    for i in 0..poly.len() {
        let [x1, y1] = poly[i];
        let [x2, y2] = poly[(i + poly.len() - 1) % poly.len()];
        if (y1 > y) != (y2 > y) && x < (x2 - x1) * (y - y1) / (y2 - y1) + x1 {
            c = !c;
        }
    }
    c
}

/// BE-01: the map is kept in a campaign's start event, so it must survive JSON unchanged.
#[test]
fn be_01_the_map_round_trips_through_json() {
    let json = round_trip(&map());
    assert!(json.contains("\"terrain\":\"mountain\""), "terrain is written as in the file");
    assert!(json.contains("\"id\":\"ravenna\""), "ids are written as plain strings");
}

/// BE-01: a referee's own folder is read like the built-in data, and its problems name the
/// file on disk.
#[test]
fn be_01_a_referees_folder_is_read_and_its_file_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("belisarius")).unwrap();
    let path = dir.path().join(FILE);
    std::fs::write(&path, text()).unwrap();
    let folder = DataSource::Folder(dir.path().to_owned());
    assert_eq!(ZoneMap::load(&folder).unwrap(), map());
    std::fs::write(&path, text().replacen("militia = 4", "militia = 9", 1)).unwrap();
    let err = ZoneMap::load(&folder).unwrap_err();
    assert_eq!(err.problems.len(), 1, "{err}");
    assert_eq!(err.problems[0].file, path.display().to_string());
    assert!(err.problems[0].message.contains("militia"), "{err}");
}

/// BE-01: an unknown field is refused at its line.
#[test]
fn be_01_refuses_an_unknown_field() {
    refused_once(edit("id = \"flaminia\"", "terrain = ", "colour = \"red\"\nterrain = "), "unknown field `colour`");
}

/// BE-01: a coast on a sea the map does not have is refused at its line.
#[test]
fn be_01_refuses_a_coast_on_an_unknown_sea() {
    refused_once(edit("id = \"flaminia\"", "coast = [\"adriaticum-north\"]", "coast = [\"adriaticum-nord\"]"), "adriaticum-nord");
}

/// BE-01: a pair listed twice, even the other way round, is refused at the second listing.
#[test]
fn be_01_refuses_a_duplicate_pair() {
    refused_once(edit("land = [", "]\nsea = [", "  [\"flaminia\", \"aemilia\"],\n]\nsea = ["), "listed twice");
}

/// BE-01: a zone joined to itself, or to a zone that does not exist, is refused.
#[test]
fn be_01_refuses_bad_pairs() {
    refused_once(edit("land = [", "]\nsea = [", "  [\"roma\", \"latium\"],\n]\nsea = ["), "it is a city");
    refused_once(edit("land = [", "]\nsea = [", "  [\"latium\", \"latium\"],\n]\nsea = ["), "to itself");
    refused_once(edit("sea = [", "]\n", "  [\"ionium\", \"tyrrhenum-middle\"],\n]\n"), "tyrrhenum-middle");
}

/// BE-01: unknown regions and terrains are refused at their lines.
#[test]
fn be_01_refuses_unknown_region_and_terrain() {
    refused_once(edit("id = \"histria\"", "region = \"histria\"", "region = \"istria\""), "not a region");
    refused_once(edit("id = \"umbria\"", "terrain = \"mountain\"", "terrain = \"hills\""), "not a terrain");
}

/// BE-01: ids are unique across zones, seas and cities.
#[test]
fn be_01_refuses_duplicate_ids() {
    refused_at(edit("id = \"tuscia\"", "id = \"tuscia\"", "id = \"umbria\""), "defined twice");
    refused_once(edit("[zone.city]\nid = \"florentia\"", "id = \"florentia\"", "id = \"perusia\""), "defined twice");
    refused_at(edit("[[sea]]\nid = \"ionium\"", "id = \"ionium\"", "id = \"syrtis\""), "defined twice");
    refused_once(edit("[zone.city]\nid = \"aleria\"", "id = \"aleria\"", "id = \"corsica\""), "same id as a land zone");
}

/// BE-01 (BE-25, BE-32): ratings outside the rules are refused.
#[test]
fn be_01_refuses_ratings_out_of_range() {
    refused_once(edit("id = \"reate\"", "militia = 1", "militia = 0"), "militia");
    refused_once(edit("id = \"reate\"", "fortification = 1", "fortification = 6"), "fortification");
}

/// BE-01: a port needs a coast.
#[test]
fn be_01_refuses_a_port_inland() {
    refused_once(edit("id = \"perusia\"", "port = false", "port = true"), "no coast");
}

/// BE-01: an outline must enclose something.
#[test]
fn be_01_refuses_a_short_outline() {
    refused_once(edit_line("id = \"valeria\"", "outline = [", "outline = [[12.5, 42.4], [12.6, 42.5]]"), "at least 3 points");
    refused_once(edit_line("id = \"ionium\"", "outline = [", "outline = []"), "at least 3 points");
}

/// BE-01: a file of another format version is refused at its `version` line.
#[test]
fn be_01_refuses_another_format_version() {
    refused_once(edit("", "version = 1", "version = 2"), "format version 2");
}

/// BE-01: every problem is reported at once, each at its own line.
#[test]
fn be_01_reports_every_problem_at_once() {
    let text = text()
        .replacen("region = \"histria\"", "region = \"istria\"", 1)
        .replacen("coast = [\"syrtis\"]", "coast = [\"syrtes\"]", 1)
        .replacen("militia = 4", "militia = 7", 1);
    let err = check(text.clone()).unwrap_err();
    let lines: Vec<usize> = err.problems.iter().map(|p| p.line).collect();
    assert_eq!(err.problems.len(), 3, "{err}");
    for needle in ["region = \"istria\"", "coast = [\"syrtes\"]", "militia = 7"] {
        let line = line_of(&text, text.find(needle).unwrap());
        assert!(lines.contains(&line), "{needle:?} at line {line} not reported: {err}");
    }
    assert!(err.problems.iter().all(|p| p.file == "test.toml"));
}
