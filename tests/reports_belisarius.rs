//! X-04 for Belisarius: a turn report says what is coming and what its reader may know of
//! victory, from that reader's view only, and its map keeps every marker inside its zone and
//! every name clear of the others.

use referee_battle_gen::report::ReportSpec;
use referee_battle_gen::report::belisarius::report_spec;
use referee_campaign::Store;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::map::Terrain;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, Phase, Piece, PieceKind};
use referee_campaign::belisarius::view::view_for;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};
use referee_e2e::staging::{byz, goths, hold, run, units_of};

/// `viewer`'s report of the campaign as it stands, and its PDF's text.
fn report(store: &Store, c: &Campaign<Belisarius>, viewer: &Viewer) -> (ReportSpec, String) {
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let view = view_for(&c.state, &events, viewer).unwrap();
    let spec = report_spec(&view, &c.state.setup.map, Vec::new(), None);
    let file = referee_battle_gen::report::report_file(&spec, referee_battle_gen::Paper::A4);
    let text = referee_battle_gen::pdf::extract_text(&file.bytes).unwrap().join("\n");
    (spec, text)
}

/// The text of the report's `heading` section, up to the next of `ends`, its lines joined.
fn section(text: &str, heading: &str, ends: &[&str]) -> String {
    let start = text.find(heading).unwrap_or_else(|| panic!("no {heading:?} in {text}"));
    let rest = &text[start..];
    let end = ends.iter().filter_map(|e| rest[heading.len()..].find(e).map(|i| i + heading.len())).min().unwrap_or(rest.len());
    rest[..end].replace('\n', " ")
}

fn coming(text: &str) -> String {
    section(text, "Coming", &["Victory", "The log"])
}

fn put(c: &mut Campaign<Belisarius>, side: SideId, leader: &str, units: &str, at: Location) {
    c.state.pieces.push(Piece { side, at, kind: PieceKind::Leader { leader: leader.into(), units: units_of(units) } });
}

/// BE-24, BE-26, BE-41, BE-53, X-04: the Byzantines besiege a Gothic port and a Byzantine
/// force stands among the enemy in the mountains, before the supply phase. Every report's
/// Coming lists the phases still to play and the siege with its duration marker and works;
/// after the supply phase each side's lists the losses it owes for want of supply and never
/// the other's, and the umpire's lists both.
#[test]
fn be_41_a_report_lists_the_sieges_and_only_its_own_losses_owed() {
    let setup = referee_campaign::belisarius::World::embedded().setup("italy-535").unwrap();
    let (mut store, mut c) = referee_e2e::staging::created(&setup, "Italy", 41);
    c.state.pieces.clear();
    c.state.control.clear();
    c.state.events_played = c.state.turn;
    let map = c.state.setup.map.clone();
    let port = map.zones.iter().find(|z| z.city.port && z.coast.len() == 1 && z.city.militia >= 2).unwrap();
    let mountain = map.zones.iter().find(|z| z.terrain == Terrain::Mountain && z.id != port.id && !map.adjacent(&z.id, &port.id)).unwrap();
    put(&mut c, byz(), "belisarius", "4B 4B", Location::Zone(port.id.clone()));
    put(&mut c, goths(), "uraias", "2B 2C", Location::City(port.city.id.clone()));
    put(&mut c, byz(), "bessas", "4B 2B", Location::Zone(mountain.id.clone()));
    put(&mut c, goths(), "teia", "2B", Location::Zone(mountain.id.clone()));
    hold(&mut c, &port.id, &goths());
    c.state.sieges.insert(
        port.city.id.clone(),
        referee_campaign::belisarius::siege::Siege { zone: port.id.clone(), besieger: byz(), duration: 2, declared: 0, works: 1 },
    );
    let siege = format!(
        "Siege of {} ({}), held by the Ostrogoths: besieged by the Byzantines, duration marker at 2 of 4 (BE-26); siege works 1",
        port.city.name, port.name
    );
    for viewer in [Viewer::Umpire, Viewer::Side(byz()), Viewer::Side(goths())] {
        let (spec, text) = report(&store, &c, &viewer);
        let coming = coming(&text);
        assert!(coming.contains(&siege), "{viewer:?}: {coming}");
        assert!(coming.contains("Still to play this turn: the supply phase (BE-41), the operations phase"), "{viewer:?}: {coming}");
        assert!(spec.coming.iter().any(|l| l.starts_with(&siege)), "{viewer:?}: {:?}", spec.coming);
    }
    // The besieged go hungry, and Bessas among the enemy in the mountains.
    run(&mut store, &mut c, &Order::CheckSupply {}, DiceInput::Manual(vec![5, 4]));
    let owed = |side: &SideId| c.state.supply_dues.iter().find(|d| &d.force.side == side).map(|d| d.points).unwrap();
    let (byz_owes, goths_owe) = (owed(&byz()), owed(&goths()));
    assert!(byz_owes > 0 && goths_owe > 0, "both sides owe losses");
    let points = |n: u32| referee_campaign::core::words::count(n, "combat point");
    let byz_line = format!("Byzantines owe {} for want of supply at {}", points(byz_owes), mountain.name);
    let goth_line = format!("Ostrogoths owe {} for want of supply at {}", points(goths_owe), port.city.name);
    let (_, umpire) = report(&store, &c, &Viewer::Umpire);
    let (_, mine) = report(&store, &c, &Viewer::Side(byz()));
    let (_, theirs) = report(&store, &c, &Viewer::Side(goths()));
    let (umpire, mine, theirs) = (coming(&umpire), coming(&mine), coming(&theirs));
    assert!(umpire.contains(&byz_line) && umpire.contains(&goth_line), "{umpire}");
    assert!(mine.contains(&byz_line) && !mine.contains("Ostrogoths owe"), "{mine}");
    assert!(theirs.contains(&goth_line) && !theirs.contains("Byzantines owe"), "{theirs}");
    assert!(mine.contains(&siege) && theirs.contains(&siege));
}

/// BE-49, BE-53, X-04: a report says what its reader may know of victory. While the Reconquest
/// of Africa lasts a side reads the scenario's conditions, where each stands as the map shows
/// it, and that the enemy points destroyed are counted at the end; the umpire reads every
/// standing. Once its last turn has ended every reader reads the judgement and who won.
#[test]
fn be_49_a_report_says_what_its_reader_may_know_of_victory() {
    let (mut store, mut c) = referee_e2e::staging::at_turn("africa-533", 1, 49);
    let vandals = Viewer::Side(SideId::new("vandals"));
    for viewer in [Viewer::Side(byz()), vandals.clone()] {
        let (_, text) = report(&store, &c, &viewer);
        let victory = section(&text, "Victory conditions", &["The log"]);
        assert!(!victory.contains("later version"), "{victory}");
        for want in [
            "hold Carthago (Carthage), Hadrumetum, Hippo Regius",
            "control 4 zones anywhere",
            "destroy 12 enemy combat points",
            "counted at the end",
            "Judged when turn 3 ends: the Byzantines win if they meet every condition, the Vandals otherwise (BE-49",
            "On the map now, as everyone sees it: the Byzantines control",
        ] {
            assert!(victory.contains(want), "{viewer:?}: {want:?} missing from {victory}");
        }
        assert!(!victory.contains("has destroyed"), "{viewer:?}: the count of points destroyed is the umpire's: {victory}");
    }
    let (_, umpire) = report(&store, &c, &Viewer::Umpire);
    let victory = section(&umpire, "Victory conditions", &["The log"]);
    assert!(victory.contains("has destroyed 0") && !victory.contains("counted at the end"), "{victory}");
    // Three quiet turns: the Byzantines, having done nothing, lose.
    for _ in 0..3 {
        referee_e2e::quiet_turn(&mut store, &mut c);
    }
    assert_eq!(c.state.phase, Phase::Over);
    for viewer in [Viewer::Umpire, Viewer::Side(byz()), vandals] {
        let (spec, text) = report(&store, &c, &viewer);
        let victory = section(&text, "Victory: the campaign is over, the Vandals win", &["The log"]);
        assert!(victory.contains("has destroyed 0") && victory.contains("Judged as turn 3 ended"), "{viewer:?}: {victory}");
        assert_eq!(spec.victory.unwrap().rows.len(), 3, "{viewer:?}: every condition judged");
    }
}

/// the report's map of the Reconquest of Africa and of the First Reconquest of Italy at
/// their start, for the umpire and each side: every counter is drawn, its centre inside the
/// outline of the zone or sea it stands in; no two names overlap and no name lies over a
/// counter. The map, too crowded for an A4 page's width, has an A3 page of its own, the
/// second; the names read back from that page are where the layout put them, and they too
/// overlap neither one another nor a counter.
#[test]
fn x_04_the_report_map_keeps_markers_in_their_zones_and_names_apart() {
    use referee_battle_gen::Paper;
    use referee_battle_gen::report::sketch::{Rect, inside};
    use referee_battle_gen::report::{MapPlace, SHEET_MAP_TOP, map_layout};
    let overlap = |a: [f32; 4], b: [f32; 4]| a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    for id in ["africa-533", "italy-535"] {
        let (store, c) = referee_e2e::staging::at_turn(id, 1, 7);
        let readers = std::iter::once(Viewer::Umpire).chain(c.state.setup.sides.iter().map(|s| Viewer::Side(s.id.clone())));
        for viewer in readers {
            let (spec, _) = report(&store, &c, &viewer);
            let (place, layout) = map_layout(&spec, Paper::A4);
            assert_eq!(place, MapPlace::OwnPage { paper: Paper::A3, landscape: false }, "{id} {viewer:?}");
            assert_eq!(layout.markers.len(), spec.sketch.pieces.len(), "{id} {viewer:?}: every counter is drawn");
            assert!(!spec.sketch.pieces.is_empty());
            for m in &layout.markers {
                let piece = &spec.sketch.pieces[m.piece];
                let area = piece.area.unwrap_or_else(|| panic!("{id}: {} stands in no area", piece.text));
                assert!(
                    inside(&layout.outlines[area], m.rect.centre()),
                    "{id} {viewer:?}: {} strays out of {}",
                    piece.text,
                    spec.sketch.areas[area].label
                );
            }
            let edges = |r: &Rect| [r.x, r.y, r.x + r.w, r.y + r.h];
            for (i, a) in layout.labels.iter().enumerate() {
                for b in &layout.labels[i + 1..] {
                    assert!(!a.rect.overlaps(&b.rect), "{id} {viewer:?}: {:?} overprints {:?}", a.lines, b.lines);
                }
                for m in &layout.markers {
                    assert!(!a.rect.overlaps(&m.rect), "{id} {viewer:?}: {:?} overprints {}", a.lines, spec.sketch.pieces[m.piece].text);
                }
            }
            // The PDF's second page is the map: its names as printed, inside the map's frame.
            let file = referee_battle_gen::report::report_file(&spec, Paper::A4);
            let pages = referee_battle_gen::pdf::placed_text(&file.bytes).unwrap();
            let (left, top) = (referee_battle_gen::layout::MARGIN, SHEET_MAP_TOP);
            let frame = [left, top, left + layout.width, top + layout.height];
            let printed: Vec<&referee_battle_gen::pdf::PlacedText> = pages[1]
                .texts
                .iter()
                .filter(|t| t.bbox[0] >= frame[0] && t.bbox[1] >= frame[1] && t.bbox[2] <= frame[2] && t.bbox[3] <= frame[3])
                .collect();
            let mut wanted: Vec<String> = layout.labels.iter().flat_map(|l| l.lines.iter().map(|(t, _, _)| t.clone())).collect();
            let mut got: Vec<String> = printed.iter().map(|t| t.text.clone()).collect();
            wanted.sort();
            got.sort();
            assert_eq!(got, wanted, "{id} {viewer:?}: the map prints the names laid out, and only those");
            let markers: Vec<[f32; 4]> =
                layout.markers.iter().map(|m| edges(&m.rect)).map(|e| [e[0] + left, e[1] + top, e[2] + left, e[3] + top]).collect();
            // A hair's room for the glyphs' own outlines.
            let shrunk = |b: [f32; 4]| [b[0] + 0.05, b[1] + 0.05, b[2] - 0.05, b[3] - 0.05];
            for (i, a) in printed.iter().enumerate() {
                for b in &printed[i + 1..] {
                    assert!(!overlap(shrunk(a.bbox), shrunk(b.bbox)), "{id} {viewer:?}: {:?} overprints {:?} on the page", a.text, b.text);
                }
                assert!(
                    !markers.iter().any(|m| overlap(shrunk(a.bbox), *m)),
                    "{id} {viewer:?}: {:?} lies over a counter on the page",
                    a.text
                );
            }
        }
    }
}
