//! The command line on Belisarius campaigns: listing, starting, showing per side, the Tables
//! of Organisation, the log, set-up orders, and reopening (BE-49…BE-53, X-06).

use referee_e2e::{TempDb, cli};

const SCENARIOS: [&str; 4] = ["africa-533", "italy-535", "goths-541", "final-551"];

#[test]
fn x_06_scenarios_lists_both_campaigns() {
    let db = TempDb::new();
    let json = cli(&db.path, &["scenarios", "--json"]).json();
    let rows = json.as_array().unwrap();
    let of =
        |campaign: &str| -> Vec<&str> { rows.iter().filter(|s| s["campaign"] == campaign).map(|s| s["id"].as_str().unwrap()).collect() };
    assert_eq!(of("magna-graecia"), ["dionysian", "first-punic", "pyrrhic", "second-punic"]);
    assert_eq!(of("belisarius"), SCENARIOS);
    let text = cli(&db.path, &["scenarios"]).ok();
    assert!(text.contains("Belisarius"), "{text}");
    assert!(text.contains("africa-533"), "{text}");
    assert!(text.contains("autumn 533 – spring 534"), "{text}");
    assert!(!db.path.exists(), "listing scenarios must not create a database");
}

/// BE-49…BE-52: every scenario starts, reopens and shows to each side.
#[test]
fn be_49_to_be_52_every_scenario_starts_and_reopens() {
    let db = TempDb::new();
    for id in SCENARIOS {
        let created = cli(&db.path, &["new", id, "--name", id, "--seed", "5", "--json"]).json();
        assert_eq!(created["scenario"], id);
        let umpire = cli(&db.path, &["show", id, "--json"]).json();
        assert_eq!(umpire["viewer"], "umpire");
        assert!(umpire["board"]["zones"].as_array().unwrap().len() >= 40);
        let log = cli(&db.path, &["log", id]).ok();
        assert!(log.contains("begins"), "{log}");
    }
    let list = cli(&db.path, &["list", "--json"]).json();
    let engines: Vec<&str> = list.as_array().unwrap().iter().map(|c| c["engine"].as_str().unwrap()).collect();
    assert_eq!(engines, ["belisarius"; 4]);
}

/// BE-49, BE-53: in Africa, the Byzantines see their own leaders by name and the Vandals'
/// only as face-down markers; the text names zones and cities.
#[test]
fn be_53_show_as_a_side_names_places_and_hides_the_other_side() {
    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Africa", "--seed", "9"]).ok();
    let shown = cli(&db.path, &["show", "Africa", "--as", "byzantines"]).ok();
    assert!(shown.contains("Seen by: Byzantines") || shown.contains("Seen by: Byzantine"), "{shown}");
    assert!(shown.contains("Carthago"), "{shown}");
    assert!(shown.contains("Zeugitana"), "{shown}");
    assert!(shown.contains("face-down"), "the Vandals stand as face-down markers: {shown}");
    for secret in ["Gelimer", "Ammatas", "Tzazon", "Gibamund"] {
        assert!(!shown.contains(secret), "{secret} reached the Byzantines: {shown}");
    }
    let roster = cli(&db.path, &["roster", "Africa", "--as", "byzantines"]).ok();
    assert!(roster.contains("Belisarius"), "{roster}");
    assert!(roster.contains("1*A"), "the cataphracts in the rules' notation: {roster}");
    assert!(!roster.contains("Gelimer"), "{roster}");
    let theirs = cli(&db.path, &["roster", "Africa", "--as", "vandals"]).ok();
    assert!(theirs.contains("Gelimer"), "{theirs}");
    assert!(!theirs.contains("Belisarius"), "{theirs}");
    let json = cli(&db.path, &["--json", "show", "Africa", "--as", "byzantines"]).json();
    for m in json["board"]["markers"].as_array().unwrap() {
        if m["side"] == "vandals" {
            assert!(m["face"].is_null(), "a Vandal marker shows its face: {m}");
        }
    }
}

/// BE-49: the free lines are placed by orders; a place the rules do not allow is refused
/// with the rule and the database is left as it was.
#[test]
fn be_49_set_up_orders_place_free_lines_and_refuse_wrong_places() {
    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Africa", "--seed", "9"]).ok();
    let before = db.bytes();
    let refused = cli(&db.path, &["order", "Africa", r#"{"type":"place","side":"byzantines","line":1,"at":"roma"}"#]).refused();
    assert!(refused.contains("BE-49"), "{refused}");
    assert_eq!(db.bytes(), before, "a refused order left the database changed");
    let unknown = cli(&db.path, &["order", "Africa", r#"{"type":"place","side":"byzantines","line":1,"at":"x","speed":3}"#]).refused();
    assert!(unknown.contains("speed"), "{unknown}");
    let roster = cli(&db.path, &["--json", "roster", "Africa", "--as", "byzantines"]).json();
    let due = roster[0]["lines_due"].as_array().unwrap().len();
    let early = cli(&db.path, &["order", "Africa", r#"{"type":"begin_play"}"#]).refused();
    if due > 0 {
        assert!(early.contains("still to place"), "{early}");
    }
}

/// Battle commands are refused on a Belisarius campaign, naming the rule that will raise its
/// battles (interception, in the operations still to come); rolls and undo work as anywhere.
#[test]
fn x_06_battle_commands_refuse_on_a_belisarius_campaign_until_operations_exist() {
    let db = TempDb::new();
    cli(&db.path, &["new", "italy-535", "--name", "Italy", "--seed", "1"]).ok();
    let refused = cli(&db.path, &["pack", "Italy", "1", "--out", db.folder().join("packs").to_str().unwrap()]).refused();
    assert!(refused.contains("BE-13"), "{refused}");
    let roll = cli(&db.path, &["roll", "Italy", "2d6", "--purpose", "weather", "--value", "3,4"]).ok();
    assert!(roll.contains("7"), "{roll}");
    let undone = cli(&db.path, &["undo", "Italy"]).ok();
    assert!(undone.contains("roll"), "{undone}");
}

/// BE-04, BE-05, BE-06, X-02: the operations from the command line: chits drawn from a real
/// cup and dice typed in, each side's action points shown to it alone, a leader activated
/// and a segment passed; a wrong chit is refused and nothing stored.
#[test]
fn be_04_operations_begin_from_the_command_line_with_a_real_cup() {
    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Africa", "--seed", "5"]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"place","side":"byzantines","line":1,"at":"mare-africum"}"#]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"begin_play"}"#]).ok();
    let before = cli(&db.path, &["log", "Africa"]).ok();
    let refused = cli(&db.path, &["order", "Africa", r#"{"type":"begin_operations"}"#, "--chit", "ap-z", "--value", "2,3"]).refused();
    assert!(refused.contains("`ap-z` is not in the AP cup"), "{refused}");
    assert_eq!(cli(&db.path, &["log", "Africa"]).ok(), before, "nothing stored");
    cli(&db.path, &["order", "Africa", r#"{"type":"begin_operations"}"#, "--chit", "ap-i,ap-d", "--value", "2,3"]).ok();
    let byz = cli(&db.path, &["show", "Africa", "--as", "byzantines"]).ok();
    assert!(byz.contains("Byzantines: 16 of 16 action points left (chit ap-i, 8)"), "{byz}");
    assert!(!byz.contains("Vandals: 7 of"), "{byz}");
    let vandals = cli(&db.path, &["show", "Africa", "--as", "vandals"]).ok();
    assert!(vandals.contains("Vandals: 7 of 7 action points left") && !vandals.contains("16 of 16"), "{vandals}");
    assert!(vandals.contains("Operations: the segment of the Byzantines"), "{vandals}");
    cli(&db.path, &["order", "Africa", r#"{"type":"activate","side":"byzantines","leader":"belisarius"}"#]).ok();
    let refused = cli(&db.path, &["order", "Africa", r#"{"type":"pass","side":"vandals"}"#]).refused();
    assert!(refused.contains("it is the Byzantines' segment"), "{refused}");
    cli(&db.path, &["order", "Africa", r#"{"type":"pass","side":"byzantines"}"#]).ok();
    let log = cli(&db.path, &["log", "Africa", "--as", "vandals"]).ok();
    let activation = log.lines().find(|l| l.contains(" activate ")).unwrap();
    assert!(activation.contains("Byzantines activate a force at Northern Byzacium") && !activation.contains("Belisarius"), "{log}");
}
