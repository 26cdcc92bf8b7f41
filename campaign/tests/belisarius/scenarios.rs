//! The Belisarius pieces (BE-03), leader ratings (BE-42, BE-54) and the four scenarios
//! (BE-49 to BE-52) as the data files give them, each set-up line checked against the rules.

use std::collections::BTreeMap;

use referee_campaign::belisarius::World;
use referee_campaign::belisarius::map::{CityId, ZoneId};
use referee_campaign::belisarius::pieces::{DECOY_STRATEGIC, LeaderBook, Morale, Unit, UnitKind, parse_units, take_losses};
use referee_campaign::belisarius::scenario::{FreeRule, PlaceKind, Scenario, ScenarioLine, Season, SpecialKey, Victory, load_scenarios};
use referee_campaign::belisarius::state::State;
use referee_campaign::rule::RuleId;
use referee_data::DataSource;

/// Land zones of the Belisarius map with their regions, as fixed in the map's id list.
const ZONES: &[(&str, &str)] = &[
    ("tripolitania", "africa"),
    ("byzacium-south", "africa"),
    ("byzacium-north", "africa"),
    ("zeugitana", "africa"),
    ("proconsularis", "africa"),
    ("numidia-coast", "africa"),
    ("numidia", "africa"),
    ("aurasius", "africa"),
    ("mauretania", "africa"),
    ("sardinia-south", "sardinia"),
    ("sardinia-north", "sardinia"),
    ("corsica", "corsica"),
    ("sicilia-east", "sicilia"),
    ("sicilia-north", "sicilia"),
    ("sicilia-west", "sicilia"),
    ("sicilia-centre", "sicilia"),
    ("bruttii", "italy"),
    ("lucania", "italy"),
    ("calabria", "italy"),
    ("apulia", "italy"),
    ("samnium", "italy"),
    ("campania", "italy"),
    ("latium", "italy"),
    ("valeria", "italy"),
    ("picenum-suburbicarium", "italy"),
    ("picenum", "italy"),
    ("umbria", "italy"),
    ("tuscia", "italy"),
    ("tuscia-maritima", "italy"),
    ("pentapolis", "italy"),
    ("flaminia", "italy"),
    ("aemilia", "italy"),
    ("ticinensis", "italy"),
    ("liguria", "italy"),
    ("alpes-cottiae", "italy"),
    ("venetia", "italy"),
    ("venetia-maritima", "italy"),
    ("histria", "histria"),
    ("liburnia", "dalmatia"),
    ("dalmatia", "dalmatia"),
    ("dalmatia-interior", "dalmatia"),
    ("praevalitana", "praevalitana"),
    ("alpes-maritimae", "gaul"),
];
/// The city of each land zone.
const CITIES: &[&str] = &[
    "leptis-magna",
    "thaenae",
    "hadrumetum",
    "carthago",
    "sicca-veneria",
    "hippo-regius",
    "cirta",
    "theveste",
    "sitifis",
    "caralis",
    "turris-libisonis",
    "aleria",
    "syracusae",
    "panormus",
    "lilybaeum",
    "henna",
    "rhegium",
    "grumentum",
    "hydruntum",
    "canusium",
    "beneventum",
    "neapolis",
    "roma",
    "reate",
    "asculum",
    "ancona",
    "perusia",
    "florentia",
    "pisae",
    "ariminum",
    "ravenna",
    "bononia",
    "ticinum",
    "mediolanum",
    "genua",
    "verona",
    "aquileia",
    "pola",
    "iader",
    "salona",
    "delminium",
    "scodra",
    "cemenelum",
];

fn place(id: &str) -> Option<PlaceKind> {
    if ZONES.iter().any(|(z, _)| *z == id) {
        Some(PlaceKind::Zone)
    } else if CITIES.contains(&id) {
        Some(PlaceKind::City)
    } else if BELISARIUS_SEAS.contains(&id) {
        Some(PlaceKind::Sea)
    } else {
        None
    }
}

fn zones_of(region: &str) -> Vec<&'static str> {
    ZONES.iter().filter(|(_, r)| *r == region).map(|(z, _)| *z).collect()
}

fn scenarios() -> Vec<Scenario> {
    load_scenarios(&DataSource::Embedded, &LeaderBook::embedded(), &place).unwrap()
}

fn scenario(id: &str) -> Scenario {
    scenarios().into_iter().find(|s| s.id == id).unwrap()
}

use UnitKind::{Cataphract as Cat, HeavyCavalry as Heavy, Infantry as Inf, LightCavalry as Light};

use crate::common::{BELISARIUS_SEAS, round_trip};

/// A set-up line as the rules write it: place, leaders, decoys, (kind, number of units, total
/// value) for every kind present, fleets' NPs, fleet decoys.
struct Expect<'a> {
    leaders: &'a [&'a str],
    decoys: u32,
    units: &'a [(UnitKind, usize, u32)],
    fleets: &'a [u32],
    fleet_decoys: u32,
}

const NONE: Expect<'static> = Expect { leaders: &[], decoys: 0, units: &[], fleets: &[], fleet_decoys: 0 };

fn check_line(line: &ScenarioLine, what: &str, e: &Expect<'_>) {
    assert_eq!(line.leaders, e.leaders, "{what}: leaders");
    assert_eq!(line.decoys, e.decoys, "{what}: decoys");
    for kind in UnitKind::ALL {
        let (n, v) = e.units.iter().find(|(k, _, _)| *k == kind).map_or((0, 0), |(_, n, v)| (*n, *v));
        assert_eq!(line.units_of(kind).count(), n, "{what}: number of {}", kind.label());
        assert_eq!(line.value_of(kind), v, "{what}: total value of {}", kind.label());
    }
    assert_eq!(line.fleets, e.fleets, "{what}: fleets' NPs");
    assert_eq!(line.fleet_decoys, e.fleet_decoys, "{what}: fleet decoys");
}

/// The only line of `side` at `at`.
fn line_at<'s>(s: &'s Scenario, side: &str, at: &str) -> &'s ScenarioLine {
    let lines: Vec<_> = s.side(side).unwrap().lines.iter().filter(|l| l.at.as_deref() == Some(at)).collect();
    assert_eq!(lines.len(), 1, "{}: {side} has {} lines at {at}", s.id, lines.len());
    lines[0]
}

fn line_free<'s>(s: &'s Scenario, side: &str, rule: &FreeRule) -> &'s ScenarioLine {
    let lines: Vec<_> = s.side(side).unwrap().lines.iter().filter(|l| l.free.as_ref() == Some(rule)).collect();
    assert_eq!(lines.len(), 1, "{}: {side} has {} lines placed by {rule:?}", s.id, lines.len());
    lines[0]
}

fn skirmishers(line: &ScenarioLine) -> usize {
    line.units.iter().filter(|u| u.skirmish).count()
}

fn sorted(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v
}

// --- BE-03: the notation -------------------------------------------------------------------

#[test]
fn be_03_every_form_of_the_notation_in_the_rules_parses() {
    let u = |value, missile, morale, skirmish| Unit { kind: Inf, value, missile, morale, skirmish };
    let cases: &[(&str, usize, Unit)] = &[
        ("4 x 1*A", 4, u(1, true, Morale::A, false)),
        ("4 x 2B", 4, u(2, false, Morale::B, false)),
        ("1 x 4C", 1, u(4, false, Morale::C, false)),
        ("2 1*B", 2, u(1, true, Morale::B, false)),
        ("4 1C", 4, u(1, false, Morale::C, false)),
        ("4 [1]*C", 4, u(1, true, Morale::C, true)),
        ("1x(1A)", 1, u(1, false, Morale::A, false)),
        ("3x(2B)", 3, u(2, false, Morale::B, false)),
        ("2x([2]*D)", 2, u(2, true, Morale::D, true)),
        ("4x ([1]*C)", 4, u(1, true, Morale::C, true)),
        ("5x (2B)", 5, u(2, false, Morale::B, false)),
        ("3 x (1*B)", 3, u(1, true, Morale::B, false)),
        ("2 x ([2]*D)", 2, u(2, true, Morale::D, true)),
        ("4x(4C)", 4, u(4, false, Morale::C, false)),
        ("2B", 1, u(2, false, Morale::B, false)),
    ];
    for (text, n, unit) in cases {
        let units = parse_units(Inf, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(units.len(), *n, "{text}");
        assert!(units.iter().all(|x| x == unit), "{text}: {units:?}");
    }
    let list = parse_units(Cat, "1x(2*C), 1x(1*C)").unwrap();
    assert_eq!(list.iter().map(ToString::to_string).collect::<Vec<_>>(), ["2*C", "1*C"]);
    assert!(list.iter().all(|u| u.kind == Cat));
    let list = parse_units(Inf, "4 1C, 4 2*C, 4 [1]*C").unwrap();
    assert_eq!(list.len(), 12);
    assert_eq!(list.iter().map(|u| u32::from(u.value)).sum::<u32>(), 16);
    assert_eq!(parse_units(Inf, "").unwrap(), vec![]);
    assert_eq!(parse_units(Inf, &["99x(1A)"; 10].join(", ")).unwrap().len(), 990, "the most a group and a list hold");
}

#[test]
fn be_03_display_writes_the_rules_notation_back() {
    for text in ["1*A", "2B", "[2]*D", "4C", "[1]D"] {
        let units = parse_units(Inf, text).unwrap();
        assert_eq!(units[0].to_string(), text);
    }
}

#[test]
fn be_03_malformed_notation_is_refused_with_a_clear_message() {
    let cases = [
        ("4 x", "a count without a unit"),
        ("2x(", "without its closing `)`"),
        ("0B", "value 0"),
        ("2E", "`E` is not a morale rating"),
        ("2", "no morale rating"),
        ("x2B", "does not start with a unit value"),
        ("[2*D", "without its closing `]`"),
        ("2BB", "not a morale rating"),
        ("0 x 2B", "a count of 0"),
        ("2B,", "an empty group"),
        // A slip of the keyboard in a referee's data is refused, not counted out in memory.
        ("4294967296x(2B)", "a count of 4294967296 units, where a group counts 99 at most"),
        ("100 x 2B", "a count of 100 units, where a group counts 99 at most"),
        (&["99x(1A)"; 11].join(", "), "more than 999 units in one list"),
    ];
    for (text, part) in cases {
        let err = parse_units(Inf, text).unwrap_err();
        assert!(err.contains(part), "{text}: the message `{err}` should say `{part}`");
        assert!(err.contains('`'), "{text}: the message `{err}` should quote the text");
    }
}

#[test]
fn be_18_factors_and_be_20_morale_targets() {
    let one = |kind, text: &str| parse_units(kind, text).unwrap()[0];
    assert_eq!(one(Cat, "2*C").factor(), 6);
    assert_eq!(one(Heavy, "2B").factor(), 4);
    assert_eq!(one(Light, "2*C").factor(), 2);
    assert_eq!(one(Inf, "4C").factor(), 4);
    assert_eq!(one(UnitKind::MediumCavalry, "2C").factor(), 2);
    assert!(one(Light, "1*C").is_cavalry() && one(Cat, "1*A").is_cavalry() && !one(Inf, "1C").is_cavalry());
    assert_eq!([Morale::A, Morale::B, Morale::C, Morale::D].map(Morale::target), [5, 6, 7, 8]);
}

// --- BE-03: losses like change ---------------------------------------------------------------

fn total(units: &[Unit]) -> u32 {
    units.iter().map(|u| u32::from(u.value)).sum()
}

#[test]
fn be_03_losses_are_taken_like_change() {
    // 10 % of a force of 11 combat points, rounded up, is 2 points (BE-19, BE-01).
    let mut force = parse_units(Heavy, "1x(1A), 1x(2B)").unwrap();
    force.extend(parse_units(Inf, "2x(4C)").unwrap());
    assert_eq!(total(&force), 11);
    let loss = (total(&force) * 10).div_ceil(100);
    assert_eq!(loss, 2);
    let after = take_losses(&force, loss).unwrap();
    assert_eq!(total(&after), 9);
    assert_eq!(after.iter().map(ToString::to_string).collect::<Vec<_>>(), ["1A", "4C", "4C"]);

    // A 2B hit for 1 becomes a 1B.
    let after = take_losses(&parse_units(Heavy, "2B").unwrap(), 1).unwrap();
    assert_eq!(after, parse_units(Heavy, "1B").unwrap());

    // A 4C hit for 1 is broken into change: a 2C and a 1C.
    let after = take_losses(&parse_units(Inf, "4C").unwrap(), 1).unwrap();
    assert_eq!(after.iter().map(ToString::to_string).collect::<Vec<_>>(), ["2C", "1C"]);

    // Skirmishers stay skirmishers, missile units keep their bows.
    let after = take_losses(&parse_units(Inf, "[2]*D").unwrap(), 1).unwrap();
    assert_eq!(after[0].to_string(), "[1]*D");

    // Never more than the force holds; all of it leaves nothing.
    let err = take_losses(&force, 12).unwrap_err();
    assert!(err.contains("12") && err.contains("11"), "{err}");
    assert_eq!(take_losses(&force, 11).unwrap(), vec![]);
    assert_eq!(take_losses(&force, 0).unwrap(), force);
}

#[test]
fn be_03_losses_reduce_the_total_by_exactly_the_points_and_are_deterministic() {
    let mut force = parse_units(Cat, "4x(1*A), 2x(2*C), 2x(1*C)").unwrap();
    force.extend(parse_units(Heavy, "1x(1*B), 1x(2B)").unwrap());
    force.extend(parse_units(Inf, "4x(2*C), 2x([1]*C), 1x(4C)").unwrap());
    let before = total(&force);
    for points in 0..=before {
        let a = take_losses(&force, points).unwrap();
        assert_eq!(total(&a), before - points, "{points} points");
        assert!(a.iter().all(|u| u.value > 0), "{points} points left a unit of value 0");
        assert_eq!(a, take_losses(&force, points).unwrap(), "{points} points");
        // Nothing is made up: each kind keeps at most what it had.
        for kind in UnitKind::ALL {
            let of = |us: &[Unit]| us.iter().filter(|u| u.kind == kind).map(|u| u32::from(u.value)).sum::<u32>();
            assert!(of(&a) <= of(&force));
        }
    }
}

// --- Leaders ---------------------------------------------------------------------------------

#[test]
fn be_54_belisarius_rates_8_and_vitiges_6_as_in_the_operations_example() {
    let book = LeaderBook::embedded();
    assert_eq!(book.get("belisarius").unwrap().strategic, 8);
    assert_eq!(book.get("vitiges").unwrap().strategic, 6);
    // 8 + 8 = 16 APs and 6 + 3 = 9 APs.
    assert_eq!(8 + u32::from(book.get("belisarius").unwrap().strategic), 16);
    assert_eq!(3 + u32::from(book.get("vitiges").unwrap().strategic), 9);
}

#[test]
fn be_42_a_decoy_rates_3_and_no_real_leader_rates_less() {
    assert_eq!(DECOY_STRATEGIC, 3);
    let book = LeaderBook::embedded();
    assert!(book.reconstructed);
    assert!(!book.reasoning.is_empty());
    for l in &book.leaders {
        assert!((DECOY_STRATEGIC..=8).contains(&l.strategic), "{}", l.id);
        assert!(l.tactical <= 3 && (1..=5).contains(&l.rank), "{}", l.id);
        assert!(!l.note.is_empty(), "{} has no reason given", l.id);
    }
}

#[test]
fn be_03_every_leader_the_rules_name_is_in_the_roster() {
    let book = LeaderBook::embedded();
    let named = [
        ("belisarius", "byzantines"),
        ("iohannes", "byzantines"),
        ("bessas", "byzantines"),
        ("ildiger", "byzantines"),
        ("constantinus", "byzantines"),
        ("peranius", "byzantines"),
        ("mundus", "byzantines"),
        ("narses", "byzantines"),
        ("gelimer", "vandals"),
        ("ammatas", "vandals"),
        ("gibamund", "vandals"),
        ("tzazon", "vandals"),
        ("theodahad", "ostrogoths"),
        ("vitiges", "ostrogoths"),
        ("totila", "ostrogoths"),
        ("teia", "ostrogoths"),
        ("aligern", "ostrogoths"),
        ("uraias", "ostrogoths"),
        ("victiger", "ostrogoths"),
        ("theudebert", "franks"),
    ];
    for (id, side) in named {
        assert_eq!(book.get(id).map(|l| l.side.as_str()), Some(side), "{id}");
    }
    assert_eq!(book.leaders.len(), named.len());
    // Kings and commanders-in-chief rank highest.
    for king in ["belisarius", "narses", "gelimer", "theodahad", "vitiges", "totila"] {
        assert_eq!(book.get(king).unwrap().rank, 5, "{king}");
    }
}

// --- The scenarios ---------------------------------------------------------------------------

#[test]
fn be_49_to_52_the_four_scenarios_load_in_order_with_their_dates() {
    let all = scenarios();
    let got: Vec<_> = all.iter().map(|s| (s.id.as_str(), s.rule, s.first, s.last, s.turns)).collect();
    assert_eq!(
        got,
        [
            ("africa-533", RuleId::BE_49, (Season::Autumn, 533), (Season::Spring, 534), 3),
            ("italy-535", RuleId::BE_50, (Season::Summer, 535), (Season::Spring, 540), 20),
            ("goths-541", RuleId::BE_51, (Season::Spring, 541), (Season::Winter, 543), 12),
            ("final-551", RuleId::BE_52, (Season::Autumn, 551), (Season::Spring, 553), 7),
        ]
    );
    for s in &all {
        assert_eq!(s.date_of_turn(s.turns), s.last, "{}", s.id);
        assert_eq!(s.turn_of(s.first), Some(1));
        assert!(!s.summary.is_empty());
    }
    let italy = &all[1];
    assert_eq!(italy.date_of_turn(3), (Season::Winter, 535));
    assert_eq!(italy.turn_of((Season::Spring, 536)), Some(4));
}

#[test]
fn be_49_africa_setup_matches_the_rules() {
    let s = scenario("africa-533");
    let byz = s.side("byzantines").unwrap();
    let van = s.side("vandals").unwrap();
    assert_eq!(byz.cinc.as_deref(), Some("belisarius"));
    assert_eq!(van.cinc.as_deref(), Some("gelimer"));
    assert_eq!(byz.succession[0], "belisarius");
    assert_eq!(van.succession[0], "gelimer");

    // Vandals: Tzazon's expedition in Sardinia, Carthage, Gelimer in Byzacium.
    assert_eq!(van.lines.len(), 3);
    check_line(
        line_at(&s, "vandals", "caralis"),
        "Sardinia",
        &Expect { leaders: &["tzazon"], units: &[(Heavy, 4, 8)], fleets: &[8], fleet_decoys: 1, ..NONE },
    );
    check_line(
        line_at(&s, "vandals", "carthago"),
        "Carthage",
        &Expect { leaders: &["ammatas", "gibamund"], units: &[(Heavy, 4, 8), (Inf, 2, 8)], fleet_decoys: 1, ..NONE },
    );
    check_line(
        line_at(&s, "vandals", "byzacium-south"),
        "Byzacium",
        &Expect { leaders: &["gelimer"], units: &[(Heavy, 4, 8), (Inf, 1, 4)], ..NONE },
    );
    assert_eq!(van.hand, ["reconnaissance"]);

    // Byzantines: every land force in northern Byzacium, the fleets in a sea next to it.
    assert_eq!(byz.lines.len(), 2);
    let land = line_at(&s, "byzantines", "byzacium-north");
    check_line(
        land,
        "northern Byzacium",
        &Expect {
            leaders: &["belisarius", "iohannes", "bessas", "ildiger"],
            decoys: 2,
            units: &[(Cat, 8, 10), (Heavy, 2, 2), (Light, 2, 2), (Inf, 12, 16)],
            ..NONE
        },
    );
    assert_eq!(skirmishers(land), 4);
    assert_eq!(land.units_of(Cat).filter(|u| u.morale == Morale::A).count(), 4);
    check_line(
        line_free(&s, "byzantines", &FreeRule::SeaNextTo { zone: "byzacium-north".into() }),
        "the fleets",
        &Expect { fleets: &[8, 7], fleet_decoys: 2, ..NONE },
    );
    assert_eq!(sorted(&byz.hand), strs(&["reconnaissance", "treachery"]));

    // One reconnaissance chit in the cup; event H only, on the first turn; no reinforcements.
    assert_eq!(s.cup_stratagems, ["reconnaissance"]);
    assert_eq!(s.events, ['H']);
    for key in [SpecialKey::ByzantineInfantryOneZone, SpecialKey::EventHFirstTurnOnly, SpecialKey::NoReinforcements] {
        assert!(s.has(key), "{key:?}");
    }
    assert!(s.reinforcements.is_empty());

    // The Vandals hold Africa, Sardinia and Corsica but for the landing zone.
    let mut vandal_land: Vec<&str> = ["africa", "sardinia", "corsica"].iter().flat_map(|r| zones_of(r)).collect();
    vandal_land.retain(|z| *z != "byzacium-north");
    assert_eq!(sorted(&van.controls), strs(&vandal_land));
    assert_eq!(byz.controls, ["byzacium-north"]);

    let byzantines = referee_campaign::SideId::new("byzantines");
    assert_eq!(
        s.victory,
        [
            Victory::HoldCities { side: byzantines.clone(), cities: vec!["carthago".into(), "hadrumetum".into(), "hippo-regius".into()] },
            Victory::Zones { side: byzantines.clone(), count: 4, regions: vec![] },
            Victory::Destroy { side: byzantines, combat_points: 12 },
        ]
    );
}

#[test]
fn be_50_italy_setup_matches_the_rules() {
    let s = scenario("italy-535");
    let byz = s.side("byzantines").unwrap();
    let got = s.side("ostrogoths").unwrap();
    assert_eq!(byz.cinc.as_deref(), Some("belisarius"));
    assert_eq!(got.cinc.as_deref(), Some("theodahad"));
    assert_eq!(&got.succession[..2], ["theodahad", "vitiges"]);
    assert!(s.has(SpecialKey::TheodahadUntilTurn3));

    assert_eq!(got.lines.len(), 7);
    let goths: &[(&str, Expect<'_>)] = &[
        ("ravenna", Expect { leaders: &["theodahad", "totila", "aligern"], decoys: 1, units: &[(Heavy, 4, 7), (Inf, 2, 4)], ..NONE }),
        ("salona", Expect { leaders: &["uraias"], decoys: 1, units: &[(Heavy, 3, 6), (Inf, 5, 10)], ..NONE }),
        ("ticinum", Expect { leaders: &["vitiges"], decoys: 1, units: &[(Heavy, 3, 6), (Inf, 4, 8)], ..NONE }),
        ("roma", Expect { leaders: &["teia"], units: &[(Heavy, 2, 4), (Inf, 2, 4)], ..NONE }),
        ("neapolis", Expect { leaders: &["victiger"], units: &[(Inf, 2, 4)], ..NONE }),
        ("panormus", Expect { units: &[(Heavy, 1, 2), (Inf, 1, 2)], ..NONE }),
    ];
    for (at, e) in goths {
        check_line(line_at(&s, "ostrogoths", at), at, e);
    }
    assert_eq!(skirmishers(line_at(&s, "ostrogoths", "salona")), 3);
    check_line(line_free(&s, "ostrogoths", &FreeRule::AnySea), "Gothic fleets", &Expect { fleets: &[4, 4], fleet_decoys: 1, ..NONE });
    assert_eq!(got.hand, ["frankish-intervention"]);

    assert_eq!(byz.lines.len(), 3);
    let syr = line_at(&s, "byzantines", "syracusae");
    check_line(
        syr,
        "Syracuse",
        &Expect {
            leaders: &["belisarius", "iohannes", "bessas", "constantinus", "peranius", "ildiger"],
            decoys: 3,
            units: &[(Cat, 8, 10), (Heavy, 2, 3), (Light, 2, 2), (Inf, 6, 10)],
            ..NONE
        },
    );
    assert_eq!(skirmishers(syr), 2);
    check_line(
        line_at(&s, "byzantines", "praevalitana"),
        "Praevalitana",
        &Expect { leaders: &["mundus"], units: &[(Cat, 2, 3), (Heavy, 1, 2), (Inf, 4, 6)], ..NONE },
    );
    check_line(line_free(&s, "byzantines", &FreeRule::AnySea), "Byzantine fleets", &Expect { fleets: &[6, 6], fleet_decoys: 2, ..NONE });
    assert_eq!(sorted(&byz.hand), strs(&["reconnaissance", "treachery"]));

    // Every other stratagem chit of the game goes into the cup.
    assert_eq!(sorted(&s.cup_stratagems), strs(&["reconnaissance", "reconnaissance", "reconnaissance", "treachery", "treachery"]));
    let events: Vec<char> = ('A'..='O').filter(|c| *c != 'C' && *c != 'H').collect();
    assert_eq!(s.events, events);

    // Control: Africa, Sardinia, Corsica, Syracuse's zone (and the Empire's Praevalitana).
    let mut byz_land: Vec<&str> = ["africa", "sardinia", "corsica"].iter().flat_map(|r| zones_of(r)).collect();
    byz_land.extend(["sicilia-east", "praevalitana"]);
    assert_eq!(sorted(&byz.controls), strs(&byz_land));
    for z in zones_of("italy") {
        assert!(got.controls.iter().any(|c| c == z), "the Goths hold {z}");
    }
    assert!(got.controls.iter().any(|c| c == "dalmatia"));

    // Reinforcements: spring 536 in Dalmatia, 537 in Italy, 538 Narses.
    let r = &s.reinforcements;
    assert_eq!(r.iter().map(|r| r.when).collect::<Vec<_>>(), [(Season::Spring, 536), (Season::Spring, 537), (Season::Spring, 538)]);
    assert!(r.iter().all(|r| r.side.as_str() == "byzantines"));
    assert_eq!(r[0].line.at.as_deref(), Some("dalmatia"));
    check_line(&r[0].line, "536", &Expect { units: &[(Cat, 2, 4), (Inf, 4, 6)], ..NONE });
    assert_eq!(r[1].line.free, Some(FreeRule::OwnLandIn { regions: vec!["italy".into()] }));
    check_line(&r[1].line, "537", &Expect { units: &[(Heavy, 3, 3), (Light, 2, 4)], ..NONE });
    check_line(
        &r[2].line,
        "538",
        &Expect { leaders: &["narses"], decoys: 1, units: &[(Cat, 4, 6), (Heavy, 1, 2), (Inf, 6, 8)], fleets: &[5], ..NONE },
    );

    let byzantines = referee_campaign::SideId::new("byzantines");
    assert_eq!(s.victory.len(), 3);
    assert!(s.victory.contains(&Victory::HoldCities {
        side: byzantines.clone(),
        cities: ["ravenna", "salona", "pola", "neapolis", "roma", "genua", "mediolanum"].map(String::from).to_vec()
    }));
    assert!(s.victory.contains(&Victory::OtherCities {
        side: byzantines.clone(),
        count: 5,
        regions: vec!["italy".into(), "sicilia".into()]
    }));
    assert!(s.victory.contains(&Victory::Zones { side: byzantines, count: 15, regions: vec![] }));
}

#[test]
fn be_51_goths_counterattack_setup_matches_the_rules() {
    let s = scenario("goths-541");
    let byz = s.side("byzantines").unwrap();
    let got = s.side("ostrogoths").unwrap();
    assert_eq!(byz.cinc, None);
    assert!(s.has(SpecialKey::ByzantinesWithoutCinc));
    assert_eq!(got.cinc.as_deref(), Some("totila"));

    assert_eq!(got.lines.len(), 3);
    check_line(
        line_at(&s, "ostrogoths", "ticinum"),
        "Pavia",
        &Expect { leaders: &["teia", "aligern"], decoys: 1, units: &[(Heavy, 5, 10), (Inf, 8, 16)], ..NONE },
    );
    let verona = line_at(&s, "ostrogoths", "verona");
    check_line(
        verona,
        "Verona",
        &Expect { leaders: &["totila", "uraias", "victiger"], decoys: 2, units: &[(Heavy, 7, 12), (Inf, 8, 16)], ..NONE },
    );
    assert_eq!(skirmishers(verona), 5);
    check_line(line_free(&s, "ostrogoths", &FreeRule::AnySea), "Gothic fleets", &Expect { fleets: &[4, 4], fleet_decoys: 1, ..NONE });
    assert_eq!(sorted(&got.hand), strs(&["reconnaissance", "reconnaissance", "treachery"]));

    assert_eq!(byz.lines.len(), 2);
    check_line(
        line_free(&s, "byzantines", &FreeRule::OwnLandIn { regions: vec!["italy".into()] }),
        "Byzantines free in Italy",
        &Expect {
            leaders: &["mundus", "iohannes", "bessas", "constantinus", "peranius", "ildiger"],
            decoys: 2,
            units: &[(Cat, 7, 10), (Heavy, 4, 5), (Light, 4, 6), (Inf, 11, 14)],
            ..NONE
        },
    );
    check_line(line_free(&s, "byzantines", &FreeRule::AnySea), "Byzantine fleets", &Expect { fleets: &[5, 5], fleet_decoys: 1, ..NONE });
    assert!(byz.hand.is_empty());
    assert_eq!(sorted(&byz.must_hold), strs(&["ravenna", "roma"]));

    assert_eq!(sorted(&s.cup_stratagems), strs(&["frankish-intervention", "reconnaissance", "reconnaissance", "treachery", "treachery"]));
    assert_eq!(s.events, ['L', 'M', 'N', 'O']);
    assert!(s.has(SpecialKey::NoByzantineReinforcements));
    assert!(s.reinforcements.is_empty());
    assert_eq!(sorted(&got.controls), strs(&["ticinensis", "venetia"]));
    assert!(!byz.controls.iter().any(|z| got.controls.contains(z)));
    for z in zones_of("italy").into_iter().chain(zones_of("sicilia")).chain(zones_of("dalmatia")) {
        assert!(byz.controls.iter().any(|c| c == z) || got.controls.iter().any(|c| c == z), "{z}");
    }

    let goths = referee_campaign::SideId::new("ostrogoths");
    assert!(s.victory.iter().all(|v| v.side() == &goths));
    assert!(s.victory.contains(&Victory::HoldCities {
        side: goths.clone(),
        cities: ["neapolis", "mediolanum", "genua", "ancona"].map(String::from).to_vec()
    }));
    assert!(s.victory.contains(&Victory::Zones { side: goths.clone(), count: 15, regions: vec![] }));
    let other = s.victory.iter().find(|v| matches!(v, Victory::OtherCities { .. })).unwrap();
    let Victory::OtherCities { count: 8, regions, .. } = other else { panic!("{other:?}") };
    assert!(!regions.contains(&"africa".to_owned()) && regions.contains(&"italy".to_owned()));
}

#[test]
fn be_52_final_defeat_setup_matches_the_rules() {
    let s = scenario("final-551");
    let byz = s.side("byzantines").unwrap();
    let got = s.side("ostrogoths").unwrap();
    assert_eq!(byz.cinc.as_deref(), Some("narses"));
    assert_eq!(got.cinc.as_deref(), Some("totila"));

    // Liguria holds the Goths and, on a line of their own, the Frankish king and his 4C.
    let liguria: Vec<_> = got.lines.iter().filter(|l| l.at.as_deref() == Some("liguria")).collect();
    assert_eq!(liguria.len(), 2);
    check_line(
        liguria[0],
        "Liguria, Goths",
        &Expect { leaders: &["teia", "uraias"], decoys: 1, units: &[(Heavy, 3, 6), (Inf, 6, 12)], ..NONE },
    );
    check_line(liguria[1], "Liguria, Franks", &Expect { leaders: &["theudebert"], units: &[(Inf, 4, 16)], ..NONE });
    check_line(
        line_at(&s, "ostrogoths", "roma"),
        "Rome",
        &Expect { leaders: &["totila"], decoys: 1, units: &[(Heavy, 5, 9), (Inf, 8, 16)], ..NONE },
    );
    check_line(
        line_at(&s, "ostrogoths", "campania"),
        "Campania",
        &Expect { leaders: &["aligern"], decoys: 1, units: &[(Heavy, 2, 4), (Inf, 4, 8)], ..NONE },
    );
    check_line(line_at(&s, "ostrogoths", "ariminum"), "Ariminum", &Expect { leaders: &["victiger"], units: &[(Heavy, 4, 4)], ..NONE });
    check_line(line_free(&s, "ostrogoths", &FreeRule::AnySea), "Gothic fleets", &Expect { fleets: &[3, 3], fleet_decoys: 1, ..NONE });
    assert_eq!(got.lines.len(), 6);
    assert_eq!(got.hand, ["reconnaissance"]);

    // Salona: Narses and every leader but Belisarius and Peranius.
    let salona = line_at(&s, "byzantines", "salona");
    check_line(
        salona,
        "Salona",
        &Expect {
            leaders: &["narses", "mundus", "iohannes", "bessas", "constantinus", "ildiger"],
            decoys: 3,
            units: &[(Cat, 8, 12), (Heavy, 5, 7), (Light, 2, 4), (Inf, 8, 14)],
            ..NONE
        },
    );
    let book = LeaderBook::embedded();
    let all_but: Vec<&str> = book
        .leaders
        .iter()
        .filter(|l| l.side == "byzantines" && l.id != "belisarius" && l.id != "peranius")
        .map(|l| l.id.as_str())
        .collect();
    assert_eq!(sorted(&salona.leaders), strs(&all_but));
    let sicily = line_at(&s, "byzantines", "syracusae");
    check_line(sicily, "Sicily", &Expect { leaders: &["peranius"], decoys: 1, units: &[(Cat, 3, 4), (Heavy, 2, 3), (Inf, 4, 4)], ..NONE });
    assert_eq!(skirmishers(sicily), 2);
    check_line(line_free(&s, "byzantines", &FreeRule::AnySea), "Byzantine fleets", &Expect { fleets: &[5, 5, 5], fleet_decoys: 2, ..NONE });
    assert_eq!(byz.lines.len(), 3);
    assert_eq!(sorted(&byz.hand), strs(&["reconnaissance", "treachery"]));

    assert_eq!(sorted(&s.cup_stratagems), strs(&["reconnaissance", "reconnaissance", "treachery", "treachery"]));
    assert_eq!(s.events, ['L', 'M', 'N', 'O']);
    assert!(s.has(SpecialKey::FranksAllied4Turns) && s.has(SpecialKey::NoReinforcements));
    assert!(s.reinforcements.is_empty());

    for z in zones_of("sicilia").into_iter().chain(zones_of("dalmatia")).chain(["histria", "flaminia"]) {
        assert!(byz.controls.iter().any(|c| c == z), "the Byzantines hold {z}");
    }
    for z in zones_of("sardinia").into_iter().chain(zones_of("corsica")).chain(zones_of("italy")).filter(|z| *z != "flaminia") {
        assert!(got.controls.iter().any(|c| c == z), "the Goths hold {z}");
    }

    let byzantines = referee_campaign::SideId::new("byzantines");
    assert!(
        s.victory.contains(&Victory::HoldCities {
            side: byzantines.clone(),
            cities: ["ravenna", "roma", "neapolis"].map(String::from).to_vec()
        })
    );
    assert!(s.victory.contains(&Victory::OtherCities { side: byzantines.clone(), count: 7, regions: vec!["italy".into()] }));
    assert!(s.victory.contains(&Victory::Zones { side: byzantines, count: 35, regions: vec![] }));
}

#[test]
fn be_49_to_52_every_stratagem_chit_of_the_game_is_accounted_for() {
    // Hands and cup together never use more than the game's chits: four reconnaissance,
    // three treachery, one Frankish intervention.
    for s in scenarios() {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for c in s.cup_stratagems.iter().chain(s.sides.iter().flat_map(|side| &side.hand)) {
            *count.entry(c.as_str()).or_default() += 1;
        }
        assert!(count.get("reconnaissance").copied().unwrap_or(0) <= 4, "{}", s.id);
        assert!(count.get("treachery").copied().unwrap_or(0) <= 3, "{}", s.id);
        assert!(count.get("frankish-intervention").copied().unwrap_or(0) <= 1, "{}", s.id);
    }
}

#[test]
fn be_49_to_52_scenarios_round_trip_through_json() {
    for s in scenarios() {
        round_trip(&s);
    }
    round_trip(&LeaderBook::embedded());
    let unit = parse_units(Inf, "[2]*D").unwrap()[0];
    let json = serde_json::to_string(&unit).unwrap();
    assert_eq!(json, r#"{"kind":"infantry","value":2,"missile":true,"morale":"D","skirmish":true}"#);
}

// --- Cities held at the start -----------------------------------------------------------------

const BYZ: Option<&str> = Some("byzantines");
const VAN: Option<&str> = Some("vandals");
const GOT: Option<&str> = Some("ostrogoths");
const NOBODY: Option<&str> = None;

/// The scenarios in the order of the columns of [`HOLDERS`].
const HOLDER_COLUMNS: [&str; 4] = ["africa-533", "italy-535", "goths-541", "final-551"];

/// Who holds every city of the map when each scenario starts, column by column: BE-49
/// (africa-533), BE-50 (italy-535), BE-51 (goths-541), BE-52 (final-551). A side holds the
/// cities of the regions its scenario says it controls, and a landing zone does not bring
/// the enemy's city in it (Hadrumetum in 533). The readings where the text is silent are in
/// the scenario module's documentation and the README.
const HOLDERS: &[(&str, [Option<&str>; 4])] = &[
    // Africa: the Vandals' in 533, the Empire's from 535 on.
    ("leptis-magna", [VAN, BYZ, BYZ, BYZ]),
    ("thaenae", [VAN, BYZ, BYZ, BYZ]),
    ("hadrumetum", [VAN, BYZ, BYZ, BYZ]),
    ("carthago", [VAN, BYZ, BYZ, BYZ]),
    ("sicca-veneria", [VAN, BYZ, BYZ, BYZ]),
    ("hippo-regius", [VAN, BYZ, BYZ, BYZ]),
    ("cirta", [VAN, BYZ, BYZ, BYZ]),
    ("theveste", [VAN, BYZ, BYZ, BYZ]),
    ("sitifis", [VAN, BYZ, BYZ, BYZ]),
    // Sardinia and Corsica: the Vandals', the Empire's, then Totila's again.
    ("caralis", [VAN, BYZ, BYZ, GOT]),
    ("turris-libisonis", [VAN, BYZ, BYZ, GOT]),
    ("aleria", [VAN, BYZ, BYZ, GOT]),
    // Sicily: nobody's in 533, the Goths' but Syracuse in 535, the Empire's after.
    ("syracusae", [NOBODY, BYZ, BYZ, BYZ]),
    ("panormus", [NOBODY, GOT, BYZ, BYZ]),
    ("lilybaeum", [NOBODY, GOT, BYZ, BYZ]),
    ("henna", [NOBODY, GOT, BYZ, BYZ]),
    // Italy: the Goths' in 535 and 551 (but Ravenna), the Empire's in 541 but Ticinum and Verona.
    ("rhegium", [NOBODY, GOT, BYZ, GOT]),
    ("grumentum", [NOBODY, GOT, BYZ, GOT]),
    ("hydruntum", [NOBODY, GOT, BYZ, GOT]),
    ("canusium", [NOBODY, GOT, BYZ, GOT]),
    ("beneventum", [NOBODY, GOT, BYZ, GOT]),
    ("neapolis", [NOBODY, GOT, BYZ, GOT]),
    ("roma", [NOBODY, GOT, BYZ, GOT]),
    ("reate", [NOBODY, GOT, BYZ, GOT]),
    ("asculum", [NOBODY, GOT, BYZ, GOT]),
    ("ancona", [NOBODY, GOT, BYZ, GOT]),
    ("perusia", [NOBODY, GOT, BYZ, GOT]),
    ("florentia", [NOBODY, GOT, BYZ, GOT]),
    ("pisae", [NOBODY, GOT, BYZ, GOT]),
    ("ariminum", [NOBODY, GOT, BYZ, GOT]),
    ("ravenna", [NOBODY, GOT, BYZ, BYZ]),
    ("bononia", [NOBODY, GOT, BYZ, GOT]),
    ("ticinum", [NOBODY, GOT, GOT, GOT]),
    ("mediolanum", [NOBODY, GOT, BYZ, GOT]),
    ("genua", [NOBODY, GOT, BYZ, GOT]),
    ("verona", [NOBODY, GOT, GOT, GOT]),
    ("aquileia", [NOBODY, GOT, BYZ, GOT]),
    // Histria and Dalmatia: the Goths' in 535, the Empire's after.
    ("pola", [NOBODY, GOT, BYZ, BYZ]),
    ("iader", [NOBODY, GOT, BYZ, BYZ]),
    ("salona", [NOBODY, GOT, BYZ, BYZ]),
    ("delminium", [NOBODY, GOT, BYZ, BYZ]),
    // The Empire's own Praevalitana, from Mundus's march in 535 on.
    ("scodra", [NOBODY, BYZ, BYZ, BYZ]),
    // The Frankish border.
    ("cemenelum", [NOBODY, NOBODY, NOBODY, NOBODY]),
];

/// Compares the holder of every city in the state a campaign of `id` starts with, and in the
/// scenario's `holds` lists, with its column of [`HOLDERS`]; and checks the table names every
/// city of the map once.
fn check_holders(id: &str) {
    let column = HOLDER_COLUMNS.iter().position(|c| *c == id).unwrap();
    let want: BTreeMap<&str, Option<&str>> = HOLDERS.iter().map(|(city, by)| (*city, by[column])).collect();
    assert_eq!(want.len(), HOLDERS.len(), "a city is twice in the table");
    let mut map_cities: Vec<&str> = CITIES.to_vec();
    map_cities.sort_unstable();
    assert_eq!(want.keys().copied().collect::<Vec<_>>(), map_cities, "the table lists every city of the map");

    let setup = World::embedded().setup(id).unwrap();
    let state = State::new("Cities", &setup, 1);
    let got: BTreeMap<&str, Option<&str>> =
        state.cities.iter().map(|(c, h)| (c.0.as_str(), h.holder.as_ref().map(|s| s.as_str()))).collect();
    assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>(), "{id}: the state has every city of the map");
    let wrong: Vec<String> = want
        .iter()
        .filter(|(city, by)| got.get(*city) != Some(*by))
        .map(|(city, by)| format!("{city} starts with {:?}, not {by:?}", got[city]))
        .collect();
    assert!(wrong.is_empty(), "{id}: {}", wrong.join("; "));

    let s = scenario(id);
    let listed: BTreeMap<&str, Option<&str>> =
        CITIES.iter().map(|c| (*c, s.sides.iter().find(|side| side.holds.iter().any(|h| h == c)).map(|side| side.id.as_str()))).collect();
    assert_eq!(listed, want, "{id}: the scenario's holds lists");
}

/// BE-49: the Vandals hold every city of Africa, Sardinia and Corsica, Hadrumetum in the
/// Byzantines' landing zone included; the Byzantines hold none.
#[test]
fn be_49_africa_cities_start_with_the_vandals() {
    check_holders("africa-533");
    // The landing zone is the Byzantines', its city the Vandals': control and holding apart.
    let state = State::new("Cities", &World::embedded().setup("africa-533").unwrap(), 1);
    assert_eq!(state.control.get(&ZoneId::new("byzacium-north")).map(|s| s.as_str()), Some("byzantines"));
    assert_eq!(state.cities[&CityId::new("hadrumetum")].holder.as_ref().map(|s| s.as_str()), Some("vandals"));
}

/// BE-50: the Goths hold Italy, Sicily but Syracuse, Histria and Dalmatia; the Empire Africa,
/// Sardinia, Corsica, Syracuse and its own Praevalitana.
#[test]
fn be_50_italy_cities_start_as_the_scenario_says() {
    check_holders("italy-535");
}

/// BE-51: the Goths hold Ticinum and Verona; the Empire every other city but Cemenelum.
#[test]
fn be_51_goths_counterattack_cities_start_as_the_scenario_says() {
    check_holders("goths-541");
}

/// BE-52: the Goths hold Italy but Ravenna, Sardinia and Corsica; the Empire Ravenna, Sicily,
/// Histria, Dalmatia, Africa and Praevalitana.
#[test]
fn be_52_final_defeat_cities_start_as_the_scenario_says() {
    check_holders("final-551");
}

// --- Malformed files -------------------------------------------------------------------------

/// Loads the scenarios from a folder holding africa-533 with its first `from` made to read
/// `to`, returning the error's text and the line of `marker` in the edited file.
fn load_edited(from: &str, to: &str, marker: &str) -> (String, usize) {
    let good = DataSource::Embedded.read("belisarius/scenarios/africa-533.toml").unwrap().text;
    let bad = good.replacen(from, to, 1);
    assert_ne!(bad, good, "the edit changed nothing");
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("belisarius/scenarios");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("africa-533.toml"), &bad).unwrap();
    let err = load_scenarios(&DataSource::Folder(dir.path().to_owned()), &LeaderBook::embedded(), &place).unwrap_err();
    let line = bad.lines().position(|l| l.contains(marker)).unwrap() + 1;
    (err.to_string(), line)
}

/// Asserts that africa-533 with its first `from` made to read `to` is refused at the line of
/// `marker`: `message`.
fn refused_at(from: &str, to: &str, marker: &str, message: &str) {
    let (err, line) = load_edited(from, to, marker);
    assert!(err.contains(&format!("africa-533.toml:{line}: {message}")), "expected line {line}: {message}\nbut got: {err}");
}

/// Asserts that africa-533 with its first `from` made to read `to` is refused at the line of
/// `marker`, the error saying `words`.
fn refused_saying(from: &str, to: &str, marker: &str, words: &str) {
    let (err, line) = load_edited(from, to, marker);
    assert!(
        err.contains(&format!("africa-533.toml:{line}:")) && err.contains(words),
        "expected line {line}, saying {words}\nbut got: {err}"
    );
}

#[test]
fn be_49_to_52_an_unknown_field_is_refused_with_file_and_line() {
    refused_saying("turns = 3\n", "turns = 3\ncolour = \"purple\"\n", "colour", "colour");
}

#[test]
fn be_49_to_52_an_unknown_leader_is_refused_with_file_and_line() {
    refused_at("leaders = [\"gelimer\"]", "leaders = [\"solomon\"]", "solomon", "`solomon` is not a leader");
}

#[test]
fn be_49_to_52_an_unknown_place_is_refused_with_file_and_line() {
    refused_saying("at = \"caralis\"", "at = \"atlantis\"", "atlantis", "`atlantis`");
    refused_saying("\"corsica\",\n]", "\"caralis\",\n]", "\"caralis\",", "not a land zone");
}

#[test]
fn be_49_to_52_turns_that_disagree_with_the_dates_are_refused_with_file_and_line() {
    refused_saying("turns = 3", "turns = 4", "turns = 4", "autumn 533 to spring 534 is 3 turns");
}

#[test]
fn be_03_malformed_notation_in_a_scenario_is_refused_with_file_and_line() {
    refused_at("infantry = \"1 x 4C\"", "infantry = \"1 x 4E\"", "4E", "infantry: `1 x 4E`");
}

#[test]
fn be_49_to_52_a_leader_of_the_wrong_side_is_refused() {
    let (err, _) = load_edited("leaders = [\"gelimer\"]", "leaders = [\"totila\"]", "totila");
    assert!(err.contains("Totila is a leader of the ostrogoths, not of the vandals"), "{err}");
}

#[test]
fn be_49_to_52_a_line_without_a_place_is_refused_at_its_own_line() {
    let (err, line) = load_edited("at = \"byzacium-south\"\n", "", "leaders = [\"gelimer\"]");
    // The problem is reported within the line's table, between its header and its last field.
    let at = err.split("africa-533.toml:").nth(1).and_then(|r| r.split(':').next()).and_then(|n| n.parse::<usize>().ok()).unwrap();
    assert!((line - 1..=line + 2).contains(&at), "reported at {at}, the line's table is around {line}: {err}");
    assert!(err.contains("needs a place (`at`) or a free placement (`free`)"), "{err}");
}

/// BE-49…BE-52: `holds` names cities of the map, each once, none held by both sides.
#[test]
fn be_49_to_52_holds_names_cities_each_held_once() {
    let cirta = "\"cirta\", \"theveste\"";
    for (from, to, marker, message) in [
        (cirta, "\"cirta\", \"utica\"", "\"utica\"", "side `vandals`: holds names `utica`, which is not a place of the map"),
        (cirta, "\"cirta\", \"aurasius\"", "\"cirta\", \"aurasius\"", "side `vandals`: holds names `aurasius`, which is not a city"),
        (cirta, "\"cirta\", \"carthago\"", "\"cirta\", \"carthago\"", "side `vandals` lists `carthago` twice in holds"),
        (
            "holds = []",
            "holds = [\"hadrumetum\"]",
            "\"thaenae\", \"hadrumetum\"",
            "city `hadrumetum` is held by both `byzantines` and `vandals`",
        ),
    ] {
        refused_at(from, to, marker, message);
    }
}

/// BE-49…BE-52: a scenario says who holds the cities; a side without `holds` is refused
/// rather than left holding nothing.
#[test]
fn be_49_to_52_a_side_without_holds_is_refused() {
    refused_at("holds = []\n", "", "[[side]]", "missing field `holds`");
}

/// BE-24, BE-49…BE-52: troops start inside a city only if their side holds it, and a side's
/// city to garrison (`must_hold`) is one it holds.
#[test]
fn be_49_to_52_troops_start_only_in_cities_their_side_holds() {
    refused_at(
        "\"hadrumetum\", \"carthago\", ",
        "\"hadrumetum\", ",
        "at = \"carthago\"",
        "side `vandals` sets up inside `carthago`, a city it does not hold",
    );
    refused_at(
        "holds = []\n",
        "holds = []\nmust_hold = [\"carthago\"]\n",
        "must_hold",
        "side `byzantines` must have troops in `carthago`, a city it does not hold",
    );
}

#[test]
fn be_03_a_leader_rating_out_of_range_is_refused_with_file_and_line() {
    let good = DataSource::Embedded.read(LeaderBook::PATH).unwrap().text;
    let bad = good.replacen("tactical = 3\n", "tactical = 4\n", 1);
    let line = bad.lines().position(|l| l == "tactical = 4").unwrap() + 1;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("belisarius")).unwrap();
    std::fs::write(dir.path().join(LeaderBook::PATH), bad).unwrap();
    let err = LeaderBook::load(&DataSource::Folder(dir.path().to_owned())).unwrap_err().to_string();
    assert!(err.contains(&format!("leaders.toml:{line}: leader `belisarius`: a tactical rating is 0 to 3, not 4")), "{err}");
}
