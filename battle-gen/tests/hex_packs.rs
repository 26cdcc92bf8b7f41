//! The hex wargames' packs (Ars Bellum, A la Charge!) for a battle of each campaign: every file
//! reads back with its scenario in the rulebooks' form, the map files hold the numbered hexes,
//! and a side's copy holds nothing of the enemy (a differential over its forces).

mod support;

use referee_battle_gen::TabletopSystem;
use referee_battle_gen::magna_graecia::{side_spec, umpire_spec};
use referee_battle_gen::pack::{PackFile, PackOptions, Reader};
use referee_battle_gen::pdf::extract_text;
use referee_battle_gen::spec::{BattleSpec, UmpireSpec};
use referee_battle_gen::{campaign_pack, spec_pack};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::event::Logged;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::view::{side_view, umpire_view};
use referee_campaign::store::{Campaign, DiceInput, Store};
use support::{carthage, himera, syracuse};

const HEX: [TabletopSystem; 2] = [TabletopSystem::ArsBellum, TabletopSystem::ALaCharge];

/// Himera's battle pack in each hex system, the table set if `table`.
fn hex_packs(table: bool) -> Vec<(TabletopSystem, Vec<PackFile>)> {
    let (_, c, map, events) = himera(table);
    HEX.into_iter()
        .map(|system| (system, campaign_pack(&c.state, &map, &events, 1, &PackOptions { system, ..PackOptions::default() }).unwrap()))
        .collect()
}

fn text(f: &PackFile) -> String {
    extract_text(&f.bytes).unwrap().join("\n")
}

fn specs(c: &Campaign<MagnaGraecia>, map: &Map, events: &[Logged]) -> (UmpireSpec, Vec<BattleSpec>) {
    let umpire = umpire_spec(&umpire_view(&c.state, map, events), map, &c.state.scenario.elements, 1).unwrap();
    let sides = [syracuse(), carthage()]
        .iter()
        .map(|s| side_spec(&side_view(&c.state, map, &[], s).unwrap(), map, &c.state.scenario.elements, 1).unwrap())
        .collect();
    (umpire, sides)
}

/// AB-08, AC-07: a Magna Graecia battle in either hex system: the umpire's file, a file per
/// side and the two map files, each reading back with the scenario's parts in the rulebooks'
/// order; the umpire's copy gives both sides' breaking points, each side's its own only.
#[test]
fn ab_08_ac_07_a_magna_graecia_battle_in_both_hex_systems() {
    for (system, files) in hex_packs(true) {
        let readers: Vec<&Reader> = files.iter().map(|f| &f.reader).collect();
        assert_eq!(readers.len(), 5, "{system:?}: {readers:?}");
        assert_eq!(readers[0], &Reader::Umpire);
        assert!(matches!(readers[1], Reader::Side(_)) && matches!(readers[2], Reader::Side(_)));
        assert_eq!(files[3].file_name, format!("battle-01-{}-map-a3.pdf", system.key()));
        assert_eq!(files[4].file_name, format!("battle-01-{}-map-sheets.pdf", system.key()));
        let umpire = text(&files[0]);
        for part in ["Map", "Set-up", "Duration", "Victory conditions"] {
            assert!(umpire.contains(part), "{system:?}: no {part}");
        }
        match system {
            TabletopSystem::ArsBellum => {
                assert!(umpire.contains("Initiative (AB-02)") && umpire.contains("Skills in play (AB-07)"), "{umpire}");
                assert!(umpire.contains("Melee resolution table") && umpire.contains("Terrain table"));
                assert!(umpire.contains("Fury (AB-02)"), "{umpire}");
                assert!(umpire.contains("8 turns"));
            }
            _ => {
                assert!(umpire.contains("First player (AC-02)") && umpire.contains("Special traits in play (AC-08)"), "{umpire}");
                assert!(
                    umpire.contains("Combat results table") && umpire.contains("Terrain effects chart") && umpire.contains("Retreat chart")
                );
                assert!(umpire.contains("army morale threshold"), "{umpire}");
                assert!(umpire.contains("10 turns"));
            }
        }
        assert!(umpire.contains("Strength on the table"), "{umpire}");
        assert_eq!(umpire.matches("beaten when").count(), 2, "both sides' breaking points in the scenario");
        for f in &files[1..3] {
            let t = text(f);
            assert!(t.contains("Set-up") && t.contains("Victory conditions"), "{}", f.file_name);
            assert!(
                !t.contains("Strength on the table") && !t.contains("The battle's factor"),
                "{}: the factor is the umpire's",
                f.file_name
            );
            assert_eq!(t.matches("beaten when").count(), 1, "{}: its own breaking point only", f.file_name);
            assert!(t.contains("counters, fronts"), "{}: a counter sheet", f.file_name);
        }
        // The map files: every land hex's number, at full size.
        let sheets = text(&files[4]);
        let first = if system == TabletopSystem::ArsBellum { "001" } else { "0101" };
        assert!(sheets.contains(first) && sheets.contains("Joining the sheets"), "{sheets}");
        let a3 = extract_text(&files[3].bytes).unwrap();
        assert_eq!(a3.len(), 1, "the whole map and its key on one A3 sheet");
        assert!(a3[0].contains(&format!("Key — {}", system.name())), "{}", a3[0]);
    }
}

/// The battles whose map files are read back for their layout: Himera as the campaign sets it
/// up, and the same battle laid on other ground — Sicilian nodes whose roads leave by every
/// edge of the map or run between a river and the map's edge, and Belisarius zones whose road
/// to Northern Byzacium leaves by the foot of the map.
fn battles() -> Vec<UmpireSpec> {
    use referee_battle_gen::section::{Defence, Flank, section};
    use referee_campaign::magna_graecia::map::Edge;
    let (_, c, map, events) = himera(true);
    let (himera, _) = specs(&c, &map, &events);
    let mut out = vec![himera.clone()];
    let sicily = [
        (31, Edge::West, Defence::Central, None),
        (24, Edge::North, Defence::Forward, None),
        (11, Edge::East, Defence::Rear, None),
        (3, Edge::East, Defence::Central, Some(Flank::Left)),
    ];
    for (node, edge, defence, cut) in sicily {
        let mut b = himera.clone();
        b.ground.map = referee_battle_gen::magna_graecia::node_ground(&map, referee_campaign::ids::NodeId(node)).unwrap();
        b.ground.section = Some(section(edge, defence, cut));
        b.head.place.clone_from(&b.ground.map.name);
        b.head.location = format!("node {node:02} {}", b.ground.map.name);
        out.push(b);
    }
    let world = referee_campaign::belisarius::World::embedded();
    let setup = world.setup(&world.scenarios[0].id).unwrap();
    for (zone, edge) in [("byzacium-south", Edge::North), ("proconsularis", Edge::East)] {
        let mut b = himera.clone();
        let zone = setup.map.zones.iter().find(|z| z.id.0 == zone).unwrap();
        b.ground.map = referee_battle_gen::belisarius::zone_ground(&setup, &zone.id).unwrap();
        b.ground.section = Some(referee_battle_gen::belisarius::table_section(&b.ground.map, edge, 8.0));
        b.head.campaign = "Belisarius".to_owned();
        b.head.turn = 3;
        b.head.battle = 2;
        b.head.place.clone_from(&zone.name);
        b.head.location.clone_from(&zone.name);
        out.push(b);
    }
    out
}

/// AB-08, AC-02: where each road leads is printed whole on every map file: each road's label
/// lies inside the part of the map a sheet shows (its clip) on the one A3 sheet and on at least
/// one of the joining sheets, A4 and Letter, in both systems, for every battle of [`battles`]
/// — among them the road to 09 Cephaloedium at Himera, which leaves by the top, and the road to
/// Northern Byzacium, which leaves by the foot.
#[test]
fn ab_08_ac_02_every_road_label_is_printed_whole_on_every_map_file() {
    use referee_battle_gen::Paper;
    use referee_battle_gen::hexmap::HexSystem;
    use referee_battle_gen::hexpack::{HexTabletop, map_files};
    use referee_battle_gen::hexpage::road_label;
    use referee_battle_gen::hexunits::HexUnits;
    use referee_battle_gen::pdf::placed_text;
    let mut seen = std::collections::BTreeSet::new();
    for battle in battles() {
        for system in HexSystem::ALL {
            let tabletop = HexTabletop::new(system, HexUnits::embedded());
            let map = tabletop.map(&battle.ground).unwrap();
            let labels: Vec<String> = map.roads.iter().filter(|r| r.exit.is_some()).map(road_label).collect();
            assert!(!labels.is_empty(), "{}: no road leaves the map", battle.head.place);
            for paper in [Paper::A4, Paper::Letter] {
                for (name, doc) in map_files(&tabletop, &battle, paper) {
                    let what = format!("{} {} {paper:?} {name}", battle.head.place, system.name());
                    let pages = placed_text(&doc.finish()).unwrap();
                    for label in &labels {
                        let whole = pages.iter().any(|p| {
                            p.texts.iter().filter(|t| &t.text == label).any(|t| {
                                let [x0, y0, x1, y1] = t.bbox;
                                let on_paper = x0 >= 0.0 && y0 >= 0.0 && x1 <= p.width && y1 <= p.height;
                                on_paper
                                    && t.clip
                                        .is_some_and(|c| x0 >= c[0] - 0.01 && y0 >= c[1] - 0.01 && x1 <= c[2] + 0.01 && y1 <= c[3] + 0.01)
                            })
                        });
                        assert!(whole, "{what}: {label:?} is cut or off the map");
                        seen.insert(label.clone());
                    }
                }
            }
        }
    }
    assert!(seen.contains("to 09 Cephaloedium") && seen.contains("to Northern Byzacium"), "{seen:?}");
}

/// every page of a map file names the campaign, its turn, the battle and the place at its
/// foot; the A3 file is one sheet, its key beside or below the map and clear of it.
#[test]
fn x_04_map_files_name_their_battle_and_the_a3_map_is_one_sheet() {
    use referee_battle_gen::Paper;
    use referee_battle_gen::hexmap::HexSystem;
    use referee_battle_gen::hexpack::{HexTabletop, map_files};
    use referee_battle_gen::hexunits::HexUnits;
    use referee_battle_gen::pdf::placed_text;
    for battle in battles() {
        let h = &battle.head;
        let foot = format!("{}, turn {} — battle {} at {}", h.campaign, h.turn, h.battle, h.location);
        for system in HexSystem::ALL {
            let tabletop = HexTabletop::new(system, HexUnits::embedded());
            for (name, doc) in map_files(&tabletop, &battle, Paper::Letter) {
                let pages = placed_text(&doc.finish()).unwrap();
                for (k, p) in pages.iter().enumerate() {
                    let footer = p.texts.iter().find(|t| t.text.starts_with(&foot));
                    let footer = footer.unwrap_or_else(|| panic!("{name} page {}: no footer naming {foot:?}", k + 1));
                    assert!(footer.bbox[1] > p.height - 20.0, "{name}: the footer is at the foot");
                }
                if name.ends_with("map-a3.pdf") {
                    assert_eq!(pages.len(), 1, "{} {}: the A3 map is one sheet", h.place, system.name());
                    let page = &pages[0];
                    let clip = page.texts.iter().find_map(|t| t.clip).unwrap();
                    let key = page.texts.iter().find(|t| t.text == format!("Key — {}", system.name())).unwrap();
                    for t in page.texts.iter().filter(|t| t.clip.is_none()) {
                        let [x0, y0, x1, y1] = t.bbox;
                        let overlaps = x0 < clip[2] && x1 > clip[0] && y0 < clip[3] && y1 > clip[1];
                        assert!(!overlaps, "{}: {:?} lies over the map", h.place, t.text);
                        assert!(x1 <= page.width - 5.0 && y1 <= page.height - 5.0, "{}: {:?} runs off the sheet", h.place, t.text);
                    }
                    assert!(key.bbox[0] >= clip[2] || key.bbox[1] >= clip[3], "the key is beside or below the map");
                }
            }
        }
    }
}

/// The cells of the table whose head row is `heads`, read back from where its text lies on
/// the page: `rows` rows, each cell's lines joined, an empty cell empty.
fn table_back(pages: &[referee_battle_gen::pdf::PlacedPage], heads: &[&str], rows: usize) -> Vec<Vec<String>> {
    for p in pages {
        let found: Option<Vec<_>> = heads.iter().map(|h| p.texts.iter().find(|t| t.text == *h)).collect();
        let Some(found) = found else { continue };
        if found.iter().any(|t| (t.bbox[1] - found[0].bbox[1]).abs() > 0.3) {
            continue;
        }
        let xs: Vec<f32> = found.iter().map(|t| t.bbox[0]).collect();
        let below = found[0].bbox[3];
        let mut starts: Vec<f32> =
            p.texts.iter().filter(|t| t.bbox[1] > below && (t.bbox[0] - xs[0]).abs() < 0.3).map(|t| t.bbox[1]).collect();
        starts.sort_by(f32::total_cmp);
        assert!(starts.len() >= rows, "{heads:?}: {} rows", starts.len());
        return (0..rows)
            .map(|k| {
                // The last row is taken as deep as the one before it: what follows the table is not
                // part of it.
                let next = starts.get(k + 1).copied().filter(|_| k + 1 < rows);
                let deep = if k > 0 { starts[k] - starts[k - 1] } else { 10.0 };
                let (top, end) = (starts[k] - 0.3, next.unwrap_or(starts[k] + deep) - 0.3);
                (0..xs.len())
                    .map(|j| {
                        let (left, right) = (xs[j] - 0.5, xs.get(j + 1).map_or(f32::INFINITY, |x| x - 0.5));
                        let mut lines: Vec<_> = p
                            .texts
                            .iter()
                            .filter(|t| t.bbox[1] >= top && t.bbox[1] < end && t.bbox[0] >= left && t.bbox[0] < right)
                            .collect();
                        lines.sort_by(|a, b| a.bbox[1].total_cmp(&b.bbox[1]));
                        lines.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ")
                    })
                    .collect()
            })
            .collect();
    }
    panic!("no table headed {heads:?}");
}

/// AB-05, AC-05: the tables page prints the combat tables' heads as the rules do ("1/3 or
/// less" … "4/1 or more"; "1/2 or less" … "4/1 or more", down to "7 or more") and A la
/// Charge!'s terrain effects chart cell by cell as the rules print it, read back from where
/// each cell's text lies on the page.
#[test]
fn ab_05_ac_05_the_tables_page_prints_the_rules_tables_cell_by_cell() {
    use referee_battle_gen::pdf::placed_text;
    for (system, files) in hex_packs(true) {
        let pages = placed_text(&files[0].bytes).unwrap();
        if system == TabletopSystem::ArsBellum {
            let heads = ["d6", "1/3 or less", "1/2", "2/3", "1/1", "3/2", "2/1", "3/1", "4/1 or more"];
            let melee = table_back(&pages, &heads, 8);
            assert_eq!(melee[0], ["1", "AE", "AD", "AD", "AT", "AR", "DR", "DR", "DT"]);
            continue;
        }
        let heads = ["Die", "1/2 or less", "1/1.5", "1/1", "1.5/1", "2/1", "3/1", "4/1 or more"];
        let crt = table_back(&pages, &heads, 7);
        assert_eq!(crt[0], ["1", "DR", "DT", "D1", "D1", "D1R", "D2", "D2"]);
        assert_eq!(crt[6], ["7 or more", "A2", "A1R", "A1R", "AT", "AT", "AT", "AR"]);
        let chart = table_back(&pages, &["Terrain", "Cost per hex", "Effects in combat"], 12);
        assert!(chart.iter().any(|r| r[0] == "Fortifications" && r[1].is_empty() && r[2].is_empty()), "{chart:?}");
        assert!(chart.iter().any(|r| r[0] == "Stream" && r[1] == "+1 (0 if road)"), "{chart:?}");
        // The chart cell by cell as the rules print it (a_la_charge_rules checks it against them).
        let printed = referee_battle_gen::a_la_charge::terrain_chart();
        assert_eq!(chart.len(), printed.len());
        for (row, want) in chart.iter().zip(&printed) {
            assert_eq!(row.as_slice(), want.as_slice(), "the {} row", want[0]);
        }
    }
}

/// AB-03, AC-05, MG-21: Himera's ground on hexes as the pack prints it. The Himeras has the
/// ground's two fords and no more ford hexes, each road crosses it at one of them and goes
/// into no other hex of it; the river keeps its line (no hex of it touches any but the one
/// before and the one after); and no side sets up in the river, the defender's zone holding
/// as many hexes as its rows would on dry ground, as far as the middle of the map allows.
#[test]
fn ab_03_ac_05_himera_keeps_its_fords_and_its_river() {
    use referee_battle_gen::hexmap::{Cover, HexSystem};
    use referee_battle_gen::hexpack::HexTabletop;
    use referee_battle_gen::hexunits::HexUnits;
    let (_, c, map, events) = himera(true);
    let (umpire, _) = specs(&c, &map, &events);
    let rect = umpire.ground.section.unwrap().rect;
    let fords = umpire.ground.map.rivers.iter().flat_map(|r| &r.fords).filter(|f| {
        f.0 >= rect.x_feet && f.0 <= rect.x_feet + rect.width_feet && f.1 >= rect.y_feet && f.1 <= rect.y_feet + rect.height_feet
    });
    assert_eq!(fords.count(), 2, "the ground's fords on the table");
    for system in HexSystem::ALL {
        let hexes = HexTabletop::new(system, HexUnits::embedded()).map(&umpire.ground).unwrap();
        let wet = |i: usize| matches!(hexes.cells[i].cover, Cover::River | Cover::Ford);
        assert_eq!(hexes.cells.iter().filter(|c| c.cover == Cover::Ford).count(), 2, "{}", system.name());
        assert_eq!(hexes.roads.len(), 2);
        for r in &hexes.roads {
            let crossing: Vec<usize> = r.hexes.iter().copied().filter(|&i| wet(i)).collect();
            assert_eq!(crossing.len(), 1, "{}: the road to {} in the river at {crossing:?}", system.name(), r.to_name);
            assert_eq!(hexes.cells[crossing[0]].cover, Cover::Ford);
        }
        let river = &hexes.rivers[0].hexes;
        for (k, &i) in river.iter().enumerate() {
            let touching = river.iter().filter(|&&j| j != i && hexes.adjacent(i, j)).count();
            assert!(
                touching <= 2 && (touching == 2 || k == 0 || k + 1 == river.len()),
                "{}: the river zigzags at {}",
                system.name(),
                hexes.cells[i].label
            );
        }
        for &i in hexes.defender_setup.iter().chain(&hexes.attacker_setup) {
            assert!(!wet(i), "{}: a side sets up in the river at {}", system.name(), hexes.cells[i].label);
        }
        let dry_rows = hexes.cells.iter().filter(|c| c.row < 3 && !matches!(c.cover, Cover::River | Cover::Ford)).count();
        assert!(hexes.defender_setup.len() >= dry_rows, "{}", system.name());
    }
}

/// the hex pack written from the specs is the campaign's pack, word for word.
#[test]
fn x_04_the_hex_pack_from_the_specs_is_the_campaigns_pack() {
    let (_, c, map, events) = himera(true);
    let (umpire, sides) = specs(&c, &map, &events);
    for system in HEX {
        let options = PackOptions { system, ..PackOptions::default() };
        let a = spec_pack(&umpire, &sides, &options).unwrap();
        let b = campaign_pack(&c.state, &map, &events, 1, &options).unwrap();
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(text(x), text(y), "{}", x.file_name);
        }
    }
}

/// a side's hex copy is drawn from its own spec and its own number of counters: the
/// enemy's forces changed (kinds and grades, not the number of elements, which sets the
/// battle's one factor as under DBSA), its copy is word for word the same.
#[test]
fn x_01_a_sides_hex_copy_holds_nothing_of_the_enemy() {
    let (_, c, map, events) = himera(true);
    let (umpire, sides) = specs(&c, &map, &events);
    let mut changed = umpire.clone();
    for side in changed.sides.iter_mut().filter(|s| s.side.id == syracuse()) {
        for line in &mut side.troops {
            line.name = format!("Kanar{}", line.name);
            for g in &mut line.groups {
                g.kind = if g.kind.contains("Sp") { "Irr Wb(S)".to_owned() } else { "Reg Kn(O)".to_owned() };
            }
        }
    }
    for system in HEX {
        let options = PackOptions { system, ..PackOptions::default() };
        let a = spec_pack(&umpire, &sides, &options).unwrap();
        let b = spec_pack(&changed, &sides, &options).unwrap();
        let carthage_file = |files: &[PackFile]| files.iter().find(|f| f.reader == Reader::Side(carthage())).map(text).unwrap();
        assert_eq!(carthage_file(&a), carthage_file(&b), "{system:?}");
        for (x, y) in a.iter().zip(&b).filter(|(f, _)| f.reader == Reader::Everyone) {
            assert_eq!(text(x), text(y), "{system:?}: {}", x.file_name);
        }
        // The umpire's copy did change: the change was one that mattered.
        assert_ne!(text(&a[0]), text(&b[0]), "{system:?}");
    }
}

/// While the table is not set, the hex pack says the map comes once it is, and prints no map.
#[test]
fn before_the_table_is_set_the_hex_map_waits() {
    for (system, files) in hex_packs(false) {
        assert_eq!(files.len(), 3, "{system:?}: no map files yet");
        assert!(text(&files[1]).contains("The hex map is drawn once the table's section is set"), "{system:?}");
    }
}

/// AB-08, AC-06, MG-20, MG-31: a hex result comes back as each command's losses in its own
/// troops: counters eliminated (and A la Charge! steps) as shares of the command, a leader
/// eliminated as its general killed, whose men join Mago beside him should he be lost; then as
/// Magna Graecia's order, which the campaign's rules accept.
#[test]
fn ab_08_ac_06_a_hex_result_becomes_the_campaigns_result() {
    use referee_battle_gen::hexmap::HexSystem;
    use referee_battle_gen::hexpack::HexTabletop;
    use referee_battle_gen::hexresult::{CounterLoss, HexResult, HexResultError, HexSideResult, tabletop_result};
    use referee_battle_gen::hexunits::{CounterRole, HexUnits};
    use referee_battle_gen::tabletop::{TableOutcome, Tabletop};

    let (_, c, map, events) = himera(true);
    let (umpire, _) = specs(&c, &map, &events);
    for system in HexSystem::ALL {
        let tabletop = HexTabletop::new(system, HexUnits::embedded());
        let scales = tabletop.scale_battle(&umpire.sides);
        let carthage_side = umpire.sides.iter().position(|s| s.side.id == carthage()).unwrap();
        let army = tabletop.army("Carthage", &umpire.sides[carthage_side].troops, scales[carthage_side]);
        let himilco = &army.accounts[0];
        assert_eq!(himilco.line, "Himilco");
        // Himilco's leader and two of his units eliminated (in A la Charge!, one unit only
        // reduced as well).
        let units: Vec<u32> =
            himilco.counters.iter().copied().filter(|&n| army.counters[(n - 1) as usize].role == CounterRole::Unit).collect();
        let steps = if system == HexSystem::ALaCharge { 2 } else { 1 };
        let leader = himilco.counters[0];
        let mut lost = vec![
            CounterLoss { counter: leader, steps: 1 },
            CounterLoss { counter: units[0], steps },
            CounterLoss { counter: units[1], steps },
        ];
        let reduced = units.iter().copied().find(|&n| army.counters[(n - 1) as usize].reduced.is_some() && n != units[0] && n != units[1]);
        if system == HexSystem::ALaCharge {
            lost.push(CounterLoss { counter: reduced.unwrap(), steps: 1 });
        }
        let result = HexResult {
            battle: 1,
            outcome: TableOutcome::Won { winner: syracuse() },
            held_field: None,
            sides: vec![HexSideResult {
                side: carthage(),
                lost,
                open_exits: None,
                attacked_neutral: false,
                joins: [("Himilco".to_owned(), "Mago".to_owned())].into(),
            }],
        };
        let back = tabletop_result(&tabletop, &umpire, &result).unwrap();
        let line = &back.sides[0].lines[0];
        assert_eq!(line.line, "Himilco");
        assert!(line.general_killed, "{system:?}");
        assert_eq!(line.joins.as_deref(), Some("Mago"), "{system:?}");
        // The kinds lost are those of the counters lost (or kinds too small for a counter of
        // their own, which share the command's fate); never more than the command had.
        let lost_kinds: Vec<&str> = [units[0], units[1]].iter().map(|&n| army.counters[(n - 1) as usize].source.as_str()).collect();
        assert!(!line.destroyed.is_empty(), "{system:?}");
        for g in &line.destroyed {
            let (i, had) = himilco.groups.iter().enumerate().find(|(_, h)| h.kind == g.kind).unwrap();
            assert!(g.count <= had.count);
            assert!(lost_kinds.contains(&g.kind.as_str()) || himilco.by_group[i].is_empty(), "{system:?}: {} lost", g.kind);
        }
        // The campaign's rules take it from there.
        let order = referee_battle_gen::magna_graecia::result_order(&back, &umpire_view(&c.state, &map, &events).board, &map).unwrap();
        let mut store = Store::open_in_memory().unwrap();
        let mut again = store.import_as::<MagnaGraecia>("Again", &events).unwrap();
        store.execute(&mut again, &map, &order, DiceInput::Seeded).unwrap();

        // A counter the side has not, or more steps than it has, is refused with its number.
        let bad = |lost: Vec<CounterLoss>| HexResult {
            sides: vec![HexSideResult { side: carthage(), lost, open_exits: None, attacked_neutral: false, joins: Default::default() }],
            ..result.clone()
        };
        let n = u32::try_from(army.counters.len()).unwrap();
        assert!(matches!(
            tabletop_result(&tabletop, &umpire, &bad(vec![CounterLoss { counter: n + 1, steps: 1 }])),
            Err(HexResultError::NoCounter { .. })
        ));
        let err = tabletop_result(&tabletop, &umpire, &bad(vec![CounterLoss { counter: units[0], steps: 3 }])).unwrap_err();
        assert!(err.to_string().contains(&format!("counter {} of the Carthage", units[0])), "{err}");
        let twice = HexResult { sides: vec![result.sides[0].clone(), result.sides[0].clone()], ..result.clone() };
        assert!(matches!(tabletop_result(&tabletop, &umpire, &twice), Err(HexResultError::SideTwice { .. })));
    }
}
