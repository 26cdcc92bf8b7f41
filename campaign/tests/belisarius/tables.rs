//! The Belisarius tables (`data/belisarius/tables.toml`): every number the rules text gives
//! is met by the reconstruction, the tables behave the way their use in the rules needs
//! (better odds never give a worse result), and a damaged copy is refused with its lines.

use std::fs;

use referee_campaign::belisarius::tables::{
    self, AssaultResult, CombatResult, Interception, NavalAttrition, Tables, action_points, assault_modifier, percent_of,
};
use referee_data::{DataSource, EMBEDDED, line_of};

use crate::common::round_trip;

fn t() -> Tables {
    Tables::embedded()
}

/// BE-54: the operations example replays with these tables.
#[test]
fn be_54_operations_example_numbers() {
    let t = t();
    // A chit worth 8 to the Byzantines and one worth 3 to the barbarians exist.
    let byz8 = t.chits.iter().find(|c| c.byzantine == 8).expect("a Byzantine 8 chit");
    let barb3 = t.chits.iter().find(|c| c.barbarian == 3).expect("a barbarian 3 chit");
    assert_eq!(t.chit_value(&byz8.id, true), Some(8));
    assert_eq!(t.chit_value(&barb3.id, false), Some(3));
    // Belisarius (strategic 8) and Vitiges (strategic 6).
    let byzantine = action_points(8, Some(8));
    let goth = action_points(3, Some(6));
    assert_eq!((byzantine, goth), (16, 9));
    // First force: three mountain zones, one plain zone, an interception.
    let mountain = u32::from(t.cost("move-mountain").unwrap());
    let plain = u32::from(t.cost("move-plain").unwrap());
    let intercept = u32::from(t.cost("intercept").unwrap());
    assert_eq!(3 * mountain, 6);
    assert_eq!(plain, 1);
    // Four zones moved and a 4 on the die: 10 % lost.
    assert_eq!(t.attrition_percent(4, 4), 10);
    // Second force: one mountain and one plain zone, 3 AP in all.
    assert_eq!(mountain + plain, 3);
    let spent = 3 * mountain + plain + intercept + (mountain + plain);
    assert_eq!(spent, 11);
    assert_eq!(byzantine - spent, 5);
    // The Goth paid for two interceptions (one failed, one at Neapolis).
    assert_eq!(goth - intercept - intercept, 7);
}

/// BE-04, BE-43: the cup's chits are worth different points to each side, and the three
/// stratagems are in the table without action points.
#[test]
fn be_04_chits_and_stratagems() {
    let t = t();
    assert!(t.chits.len() >= 8, "about ten action point chits");
    for id in ["treachery", "reconnaissance", "frankish-intervention"] {
        assert!(t.is_stratagem(id), "{id}");
        assert_eq!(t.chit_value(id, true), None, "a stratagem is worth no action points");
        assert!(!t.stratagem(id).unwrap().name.is_empty());
    }
    assert!(!t.is_stratagem("ap-a"));
    assert_eq!(t.ap_chit_ids().len(), t.chits.len());
    assert!(t.ap_chit_ids().iter().all(|id| !t.is_stratagem(id)));
    // The Byzantines are generally richer, and each chit is worth no less to them.
    let byz: u32 = t.chits.iter().map(|c| u32::from(c.byzantine)).sum();
    let bar: u32 = t.chits.iter().map(|c| u32::from(c.barbarian)).sum();
    assert!(byz > bar);
    assert!(t.chits.iter().all(|c| c.byzantine >= c.barbarian));
    assert!(t.chits.iter().any(|c| c.byzantine != c.barbarian), "the same chit reads differently for each side");
    // BE-51: no commander-in-chief means chit + 6.
    assert_eq!(action_points(5, None), 11);
}

/// BE-10, BE-11, BE-13, BE-24, BE-27, BE-32, BE-33, BE-39: the costs the text prints.
#[test]
fn be_10_be_33_printed_costs() {
    let t = t();
    for (action, ap) in [
        ("move-plain", 1),
        ("move-mountain", 2),
        ("intercept", 1),
        ("start-siege", 1),
        ("assault-later", 1),
        ("naval-support", 1),
        ("destroy-fortifications", 1),
        ("fleet-move", 2),
        ("naval-unit-move", 1),
        ("city-zone", 0),
        ("reorganise", 0),
    ] {
        assert_eq!(t.cost(action), Some(ap), "{action}");
        assert!(t.costs[action].printed, "{action} is printed in the rules");
    }
    // BE-37: landing on a coast costs more than in a port.
    assert!(t.cost("embark-coast").unwrap() > t.cost("embark-port").unwrap());
    for id in tables::ACTIONS {
        assert!(t.cost(id).is_some(), "{id}");
        assert!(!t.costs[*id].reason.is_empty(), "{id} has a reason");
    }
    assert_eq!(t.cost("teleport"), None);
}

/// BE-12: attrition grows with the zones moved and with the die, and a die off the table
/// reads the edge.
#[test]
fn be_12_attrition_monotone() {
    let t = t();
    for zones in 0..=8 {
        for die in -2..=9 {
            let p = t.attrition_percent(zones, die);
            assert!(t.attrition_percent(zones + 1, die) >= p, "zones {zones} die {die}");
            assert!(t.attrition_percent(zones, die + 1) >= p, "zones {zones} die {die}");
        }
        assert_eq!(t.attrition_percent(zones, 9), t.attrition_percent(zones, 6));
        assert_eq!(t.attrition_percent(zones, -3), t.attrition_percent(zones, 1));
    }
    assert!((1..=6).all(|d| t.attrition_percent(0, d) == 0), "standing still costs nothing");
    assert_eq!(t.attrition_percent(6, 6), 50);
    for die in 0..=7 {
        assert!(t.unsupplied_attrition_percent(die + 1) >= t.unsupplied_attrition_percent(die));
    }
    // BE-31, BE-38, BE-47 (L, M): the modifiers the text implies, positive is worse.
    assert_eq!(t.attrition_modifier("bad-harvest").unwrap().die, 1);
    assert_eq!(t.attrition_modifier("excellent-harvest").unwrap().die, -1);
    assert_eq!(t.attrition_modifier("blockade").unwrap().die, 1);
    assert_eq!(t.attrition_modifier("friendly-ships-adjacent").unwrap().die, -1);
}

/// BE-14: a better strategic difference or a higher die never intercepts worse; mountains
/// (−1) never help; reconnaissance's two columns change some results and worsen none.
#[test]
fn be_14_interception_monotone() {
    let t = t();
    let mut changed = 0;
    for diff in -7..=7 {
        for die in -1..=7 {
            let r = t.interception(diff, die, 0);
            assert!(t.interception(diff + 1, die, 0) >= r, "diff {diff} die {die}");
            assert!(t.interception(diff, die + 1, 0) >= r, "diff {diff} die {die}");
            assert!(t.interception(diff, die + tables::MOUNTAIN_INTERCEPTION_DIE, 0) <= r);
            let recon = t.interception(diff, die, tables::RECONNAISSANCE_COLUMN_SHIFT);
            assert!(recon >= r);
            if recon != r {
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "a 2-column shift must matter");
    // Between equals some rolls fail, some succeed, and one can ambush.
    let equal: Vec<Interception> = (1..=6).map(|d| t.interception(0, d, 0)).collect();
    assert!(equal.contains(&Interception::Fail));
    assert!(equal.contains(&Interception::LineOfBattle));
    assert!(equal.contains(&Interception::Ambush));
    assert_eq!(tables::MOUNTAIN_INTERCEPTION_DIE, -1);
    // BE-42: decoys rate 3 for interception.
    assert_eq!(tables::DECOY_STRATEGIC, 3);
}

/// BE-18, BE-19: more factors or a higher die are never worse for the enemy; BE-23: the
/// ambusher's two extra columns are never worse and sometimes better.
#[test]
fn be_18_be_23_combat_monotone() {
    let t = t();
    let mut changed = 0;
    for factor in 0..=60 {
        for die in -2..=10 {
            let r = t.combat(factor, die, 0);
            assert!(t.combat(factor + 1, die, 0).at_least(&r), "factor {factor} die {die}");
            assert!(t.combat(factor, die + 1, 0).at_least(&r), "factor {factor} die {die}");
            let ambush = t.combat(factor, die, tables::AMBUSHER_COLUMN_SHIFT);
            assert!(ambush.at_least(&r), "factor {factor} die {die}");
            if ambush != r {
                changed += 1;
            }
        }
    }
    assert!(changed > 0);
    assert_eq!(t.combat(0, 6, 0), CombatResult::default(), "nobody to fire, no losses");
    // BE-19: every percentage the rules name appears, and so do T, T1 and T2.
    let all: Vec<CombatResult> = t.combat.cells.iter().flatten().copied().collect();
    for p in [10, 25, 50, 75] {
        assert!(all.iter().any(|r| r.percent == p), "{p} %");
    }
    for m in [0, 1, 2] {
        assert!(all.iter().any(|r| r.morale_check == Some(m)), "T{m}");
    }
    assert_eq!(CombatResult::parse("25T1"), Some(CombatResult { percent: 25, morale_check: Some(1) }));
    assert_eq!(CombatResult::parse("T2"), Some(CombatResult { percent: 0, morale_check: Some(2) }));
    assert_eq!(CombatResult::parse("30"), None);
    assert_eq!(CombatResult { percent: 50, morale_check: Some(0) }.to_string(), "50T");
    assert_eq!((tables::AMBUSHEE_COMBAT_DIE, tables::MOUNTAIN_COMBAT_DIE, tables::MORALE_A_COMBAT_DIE), (-1, -1, 1));
}

/// BE-22: pursuit is read on the combat table, its morale part dropped.
#[test]
fn be_22_pursuit_uses_the_combat_table() {
    let t = t();
    for factor in [3, 12, 40] {
        for die in 1..=6 {
            assert_eq!(t.pursuit_percent(factor, die, 0), t.combat(factor, die, 0).percent);
        }
    }
}

/// BE-20: morale targets A 5, B 6, C 7, D 8 on 2d6; T1 and T2 take 1 and 2 off the dice.
#[test]
fn be_20_morale_targets() {
    let t = t();
    assert_eq!(['A', 'B', 'C', 'D'].map(|m| t.morale_target(m)), [Some(5), Some(6), Some(7), Some(8)]);
    assert_eq!(t.morale_target('E'), None);
    assert_eq!(t.morale_passes('C', 7, 0, 0), Some(true));
    assert_eq!(t.morale_passes('C', 7, 1, 0), Some(false), "T1");
    assert_eq!(t.morale_passes('C', 7, 2, 2), Some(true), "T2 with a tactical 2 leader");
    assert_eq!(tables::AMBUSHER_MORALE, 1);
}

/// BE-26 (the siege falls at 4), BE-25 (defence at most 5), BE-32 (two works per leader).
#[test]
fn be_26_be_25_be_32_constants() {
    assert_eq!(tables::SIEGE_FALLS_AT, 4);
    assert_eq!(tables::MAX_CITY_DEFENCE, 5);
    assert_eq!(tables::SIEGE_WORKS_PER_LEADER, 2);
    assert_eq!(tables::MAX_ZONES_PER_TURN, 6);
    // BE-37: one naval point carries two infantry or one cavalry point.
    assert_eq!((tables::INFANTRY_PER_NAVAL_POINT, tables::CAVALRY_PER_NAVAL_POINT), (2, 1));
}

/// BE-27: a better ratio or a higher roll never gives the attacker a worse result; the
/// ratio rounds in the defender's favour; BE-39: +1 per 3 naval points in support.
#[test]
fn be_27_assault_better_ratio_never_worse() {
    let t = t();
    for defender in 1..=12 {
        for attacker in 0..=70 {
            for roll in -4..=20 {
                let r = t.assault(attacker, defender, roll);
                assert!(t.assault(attacker + 1, defender, roll).at_least(&r), "{attacker}:{defender} roll {roll}");
                assert!(t.assault(attacker, defender, roll + 1).at_least(&r), "{attacker}:{defender} roll {roll}");
            }
        }
    }
    // 5:2 is read as 2:1, 3:4 as the worst row.
    for roll in 2..=12 {
        assert_eq!(t.assault(5, 2, roll), t.assault(2, 1, roll));
        assert_eq!(t.assault(3, 4, roll), t.assault(1, 2, roll));
        assert_eq!(t.assault(1, 9, roll), t.assault(1, 2, roll));
    }
    assert_eq!(t.assault.label(0), "1:2-");
    assert_eq!(t.assault.label(t.assault.ratios.len() - 1), "5:1+");
    // A city can fall, and storming never comes free.
    assert!(t.assault(50, 2, 12).falls);
    assert_eq!(t.assault(50, 2, 12).defender_percent, 100);
    assert!(t.assault.cells.iter().flatten().all(|r: &AssaultResult| !r.falls || r.attacker_percent > 0));
    // Defence is capped at 5; 7 naval points give +2.
    assert_eq!(assault_modifier(7, 2, 1, 7), 2 + 1 + 2 - 5);
    assert_eq!(assault_modifier(3, 0, 0, 2), -3);
}

/// BE-34: more sea zones or a higher die never sink fewer ships; storms (+2) matter.
#[test]
fn be_34_naval_attrition_monotone() {
    let t = t();
    for zones in 1..=7 {
        for die in 0..=9 {
            let r = t.naval_attrition(zones, die).severity();
            assert!(t.naval_attrition(zones + 1, die).severity() >= r);
            assert!(t.naval_attrition(zones, die + 1).severity() >= r);
        }
    }
    assert_eq!(t.naval_attrition(2, 1), NavalAttrition::None);
    assert!((1..=6).any(|d| t.naval_attrition(6, d + tables::STORM_NAVAL_ATTRITION_DIE) != t.naval_attrition(6, d)));
    assert!((1..=6).all(|d| t.naval_attrition(6, d) != NavalAttrition::Destroyed), "only storms sink a whole fleet");
    assert_eq!(NavalAttrition::Percent(25).points_lost(9), 3);
    assert_eq!(NavalAttrition::Destroyed.points_lost(9), 9);
}

/// BE-36: a stronger fleet or a higher die never inflicts fewer losses.
#[test]
fn be_36_naval_combat_monotone() {
    let t = t();
    for diff in -12..=12 {
        for die in 0..=10 {
            let r = t.naval_combat(diff, die);
            assert!(t.naval_combat(diff + 1, die) >= r);
            assert!(t.naval_combat(diff, die + 1) >= r);
        }
    }
    assert!(t.naval_combat(0, 1) >= 1, "equal fleets always hurt each other");
    assert_eq!(tables::EMBARKED_POINTS_PER_NAVAL_PIP, 3);
}

/// BE-35: naval interception succeeds on 7 or more on 2d6.
#[test]
fn be_35_naval_interception_7() {
    assert_eq!(tables::NAVAL_INTERCEPTION_TARGET, 7);
    assert!(!tables::naval_interception_succeeds(6));
    assert!(tables::naval_interception_succeeds(7));
}

/// BE-43: treachery takes the city on 2–8, not on 9 or more.
#[test]
fn be_43_treachery_2_to_8() {
    assert_eq!(tables::TREACHERY_SUCCEEDS_UP_TO, 8);
    assert!((2..=8).all(tables::treachery_succeeds));
    assert!((9..=12).all(|r| !tables::treachery_succeeds(r)));
    assert_eq!(tables::RECONNAISSANCE_COLUMN_SHIFT, 2);
}

/// BE-45: Ostrogoth prices 3 per 1A, 2 per 1B, 1 per 1C, ½ per [1]D, in half-points.
#[test]
fn be_45_reinforcement_prices() {
    let t = t();
    assert_eq!(t.price_half_points("1A"), Some(6));
    assert_eq!(t.price_half_points("1B"), Some(4));
    assert_eq!(t.price_half_points("1C"), Some(2));
    assert_eq!(t.price_half_points("[1]D"), Some(1));
    assert_eq!(t.price_half_points("1E"), None);
}

/// BE-47: every 2d6 total gives an event (a second d6 where the total is split), and every
/// letter A–O can come up.
#[test]
fn be_47_every_event_reachable() {
    let t = t();
    let mut seen = std::collections::BTreeSet::new();
    for total in 2..=12 {
        if t.event_needs_second_die(total) {
            assert!(t.event_for(total, None).is_none());
            for d in 1..=6 {
                seen.insert(t.event_for(total, Some(d)).expect("a split total gives an event").letter);
            }
            assert!(t.event_for(total, Some(7)).is_none());
        } else {
            seen.insert(t.event_for(total, None).expect("a total gives an event").letter);
            assert_eq!(t.event_for(total, Some(4)).map(|e| e.letter), t.event_for(total, None).map(|e| e.letter));
        }
    }
    assert_eq!(seen, ('A'..='O').collect());
    assert!(t.event_for(1, None).is_none() && t.event_for(13, Some(1)).is_none());
    assert_eq!(t.event_odds().values().sum::<u32>(), 216);
    assert!(t.events.iter().any(|e| e.red) && t.events.iter().any(|e| !e.red));
    assert!(t.events.iter().all(|e| !e.name.is_empty() && !e.effect.is_empty()));
    // BE-48: the Franks may come back, so their event is not red.
    assert!(!t.event('G').unwrap().red);
}

/// every table is marked as reconstructed or not and explains itself.
#[test]
fn x_07_every_table_carries_its_reasoning() {
    let t = t();
    let ids: Vec<&str> = t.notes.iter().map(|n| n.id.as_str()).collect();
    for id in [
        "chits",
        "costs",
        "attrition",
        "interception",
        "combat",
        "pursuit",
        "assault",
        "naval-attrition",
        "naval-combat",
        "events",
        "morale",
        "reinforcement-prices",
    ] {
        assert!(ids.contains(&id), "{id}");
        let n = t.note(id).unwrap();
        assert!(n.reasoning.len() > 100, "{id}'s reasoning");
        assert!(!n.title.is_empty());
    }
    for id in ["chits", "attrition", "interception", "combat", "assault", "naval-attrition", "naval-combat", "events"] {
        assert!(t.note(id).unwrap().reconstructed, "{id}");
    }
    assert!(t.note("attrition").unwrap().reasoning.contains("Hannibal"));
    assert!(t.note("interception").unwrap().reasoning.contains("Justinian"));
}

/// The tables are kept in a campaign's start event as JSON and must come back unchanged.
#[test]
fn tables_round_trip_through_json() {
    round_trip(&t());
}

/// BE-01, BE-19: fractions round up: 10 % of 11 combat points is 2.
#[test]
fn be_19_percent_of_rounds_up() {
    assert_eq!(percent_of(11, 10), 2);
    assert_eq!(percent_of(10, 10), 1);
    assert_eq!(percent_of(1, 75), 1);
    assert_eq!(percent_of(0, 50), 0);
    assert_eq!(percent_of(u32::MAX, 100), u32::MAX);
    assert_eq!(percent_of(8, 250), 8, "more than 100 % is all");
}

/// A copy of the built-in tables in a folder, with `from` replaced by `to`.
fn damaged(from: &str, to: &str) -> (tempfile::TempDir, String) {
    let original = EMBEDDED.iter().find(|f| f.path == "belisarius/tables.toml").unwrap().text;
    assert_eq!(original.matches(from).count(), 1, "{from:?} must occur once");
    let text = original.replacen(from, to, 1);
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("belisarius")).unwrap();
    fs::write(dir.path().join("belisarius/tables.toml"), &text).unwrap();
    (dir, text)
}

fn line(text: &str, needle: &str) -> usize {
    line_of(text, text.find(needle).unwrap())
}

/// an unknown field is refused with the file and line.
#[test]
fn x_07_unknown_field_is_refused_with_its_line() {
    let (dir, text) =
        damaged("{ id = \"ap-c\", byzantine = 5, barbarian = 2 }", "{ id = \"ap-c\", byzantine = 5, barbarian = 2, gold = 1 }");
    let err = Tables::load(&DataSource::Folder(dir.path().to_owned())).unwrap_err();
    assert_eq!(err.problems.len(), 1, "{err}");
    let p = &err.problems[0];
    assert!(p.file.ends_with("belisarius/tables.toml"), "{err}");
    assert_eq!(p.line, line(&text, "gold = 1"), "{err}");
    assert!(p.message.contains("gold"), "{err}");
}

/// rows of the wrong length, unknown result codes and a missing cost are all reported
/// at once, each at its own line.
#[test]
fn x_07_every_table_problem_is_reported_with_its_line() {
    let original = EMBEDDED.iter().find(|f| f.path == "belisarius/tables.toml").unwrap().text;
    let text = original
        .replacen(
            "{ die = 3, results = [\"-\", \"-\", \"10\", \"10\", \"10T\", \"25T\", \"25T\", \"25T1\"] }",
            "{ die = 3, results = [\"-\", \"-\", \"10\", \"10\", \"10T\", \"25T\", \"25T\"] }",
            1,
        )
        .replacen(
            "{ die = 4, results = [\"F\", \"F\", \"L\", \"L\", \"L\", \"L\", \"A\"] }",
            "{ die = 4, results = [\"F\", \"F\", \"L\", \"Q\", \"L\", \"L\", \"A\"] }",
            1,
        )
        .replacen("{ ratio = [3, 1], results = [\"25/10\"", "{ ratio = [3, 1], results = [\"25/11\"", 1)
        .replacen("  { id = \"sortie\",", "  { id = \"sally\",", 1)
        .replacen("{ total = 11, events = [\"G\"] }", "{ total = 11, events = [\"G\", \"G\"] }", 1);
    assert_ne!(text, original);
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("belisarius")).unwrap();
    fs::write(dir.path().join("belisarius/tables.toml"), &text).unwrap();
    let err = Tables::load(&DataSource::Folder(dir.path().to_owned())).unwrap_err();
    let found = |needle: &str, words: &str| {
        let l = line(&text, needle);
        assert!(
            err.problems.iter().any(|p| p.line == l && p.message.contains(words) && p.file.ends_with("belisarius/tables.toml")),
            "no problem at line {l} saying {words:?}:\n{err}"
        );
    };
    found("{ die = 3, results = [\"-\", \"-\", \"10\", \"10\", \"10T\", \"25T\", \"25T\"] }", "has 7 results, but the table has 8 columns");
    found("\"Q\"", "`Q` is not an interception result");
    found("\"25/11\"", "`25/11` is not an assault result");
    found("{ id = \"sally\"", "`sally` is not an action");
    found("title = \"Action point costs\"", "the cost of `sortie` is missing");
    found("{ total = 11, events = [\"G\", \"G\"] }", "lists 2 events");
    assert_eq!(err.problems.len(), 6, "{err}");
}

/// a copy declaring another format version is refused.
#[test]
fn x_07_wrong_version_is_refused() {
    let (dir, _) = damaged("version = 1\n", "version = 2\n");
    let err = Tables::load(&DataSource::Folder(dir.path().to_owned())).unwrap_err();
    assert!(err.to_string().contains("format version 2"), "{err}");
}
