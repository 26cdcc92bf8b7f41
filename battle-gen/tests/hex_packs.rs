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
use referee_campaign::view::{side_view, umpire_view};
use referee_campaign::{Campaign, DiceInput, Logged, Map, Store};
use support::{carthage, himera, syracuse};

const HEX: [TabletopSystem; 2] = [TabletopSystem::ArsBellum, TabletopSystem::ALaCharge];

fn text(f: &PackFile) -> String {
    extract_text(&f.bytes).unwrap().join("\n")
}

fn specs(c: &Campaign, map: &Map, events: &[Logged]) -> (UmpireSpec, Vec<BattleSpec>) {
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
    let (_, c, map, events) = himera(true);
    for system in HEX {
        let options = PackOptions { system, ..PackOptions::default() };
        let files = campaign_pack(&c.state, &map, &events, 1, &options).unwrap();
        let readers: Vec<&Reader> = files.iter().map(|f| &f.reader).collect();
        assert_eq!(readers.len(), 5, "{system:?}: {readers:?}");
        assert_eq!(readers[0], &Reader::Umpire);
        assert!(matches!(readers[1], Reader::Side(_)) && matches!(readers[2], Reader::Side(_)));
        assert_eq!(files[3].file_name, "battle-01-map-a3.pdf");
        assert_eq!(files[4].file_name, "battle-01-map-sheets.pdf");
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
        assert_eq!(a3.len(), 2, "the whole map on one A3 sheet, then its key");
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
    let (_, c, map, events) = himera(false);
    for system in HEX {
        let options = PackOptions { system, ..PackOptions::default() };
        let files = campaign_pack(&c.state, &map, &events, 1, &options).unwrap();
        assert_eq!(files.len(), 3, "no map files yet");
        assert!(text(&files[1]).contains("The hex map is drawn once the table's section is set"));
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
        let mut again = store.import("Again", &events).unwrap();
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
