//! The command line on Belisarius campaigns: listing, starting, showing per side, the Tables
//! of Organisation, the log, set-up orders, and reopening (BE-49…BE-53, X-06).

use referee_e2e::{TempDb, africa_battle, africa_begun, africa_in_operations, africa_marched, cli};

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
    let text = cli(&db.path, &["scenarios"]).ok_saying("Belisarius");
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
        cli(&db.path, &["log", id]).ok_saying("begins");
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
    let roster = cli(&db.path, &["roster", "Africa", "--as", "byzantines"]).ok_saying("Belisarius");
    assert!(roster.contains("1*A"), "the cataphracts in the rules' notation: {roster}");
    assert!(!roster.contains("Gelimer"), "{roster}");
    let theirs = cli(&db.path, &["roster", "Africa", "--as", "vandals"]).ok_saying("Gelimer");
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
    cli(&db.path, &["order", "Africa", r#"{"type":"place","side":"byzantines","line":1,"at":"roma"}"#]).refused_saying("BE-49");
    assert_eq!(db.bytes(), before, "a refused order left the database changed");
    cli(&db.path, &["order", "Africa", r#"{"type":"place","side":"byzantines","line":1,"at":"x","speed":3}"#]).refused_saying("speed");
    let roster = cli(&db.path, &["--json", "roster", "Africa", "--as", "byzantines"]).json();
    let due = roster[0]["lines_due"].as_array().unwrap().len();
    let early = cli(&db.path, &["order", "Africa", r#"{"type":"begin_play"}"#]).refused();
    if due > 0 {
        assert!(early.contains("still to place"), "{early}");
    }
}

/// Battle commands on a Belisarius campaign with no battle under way are refused, naming the
/// rule that joins battles (interception); rolls and undo work as anywhere.
#[test]
fn x_06_battle_commands_refuse_without_a_battle_under_way() {
    let db = TempDb::new();
    cli(&db.path, &["new", "italy-535", "--name", "Italy", "--seed", "1"]).ok();
    cli(&db.path, &["pack", "Italy", "1", "--out", db.folder().join("packs").to_str().unwrap()]).refused_saying("BE-13");
    cli(&db.path, &["roll", "Italy", "2d6", "--purpose", "weather", "--value", "3,4"]).ok_saying("7");
    cli(&db.path, &["undo", "Italy"]).ok_saying("roll");
}

/// BE-17, BE-53: a battle sent to the table: `pack` writes the umpire's sheet and each
/// side's brief and roster (the enemy it fights as deployed, its own forces as elements);
/// `result` brings the table's outcome back, and a result that does not add up, or names a
/// field the form does not have, is refused with nothing stored.
#[test]
fn be_17_a_battle_goes_to_the_table_and_its_result_comes_back() {
    let db = TempDb::new();
    africa_battle(&db);
    let out = db.folder().join("packs");
    cli(&db.path, &["result", "Africa", "1", "--file", "-"]).refused_saying("Africa has no battle on the table now");
    cli(&db.path, &["order", "Africa", r#"{"type":"send_to_table"}"#]).ok();
    let shown = cli(&db.path, &["show", "Africa"]).ok();
    assert!(shown.contains(": fought on the table: the referee types its result in") && !shown.contains("to roll (`fight`)"), "{shown}");
    cli(&db.path, &["order", "Africa", r#"{"type":"fight"}"#]).refused_saying("fought on the table");
    cli(&db.path, &["pack", "Africa", "2", "--out", out.to_str().unwrap()]).refused_saying("battle 1, not battle 2");
    cli(&db.path, &["pack", "Africa", "1", "--out", out.to_str().unwrap(), "--system", "dbm"]).ok_saying("battle-01-dbm-vandals.pdf");
    let vandals = referee_battle_gen::pdf::extract_text(&std::fs::read(out.join("battle-01-dbm-vandals.pdf")).unwrap()).unwrap().join("\n");
    assert!(vandals.contains("the Vandals' brief"), "{vandals}");
    assert!(vandals.contains("The Byzantines deployed in front of you"), "{vandals}");
    assert!(vandals.contains("Belisarius") && vandals.contains("Reg Cv(S)"), "{vandals}");
    for hidden in ["Iohannes", "Bessas", "Ildiger", "ap-i", "action points"] {
        assert!(!vandals.contains(hidden), "the Vandals' brief names {hidden}: {vandals}");
    }
    let before = cli(&db.path, &["log", "Africa"]).ok();
    let file = db.folder().join("result.json");
    std::fs::write(&file, r#"{"losses":{"vandals":[[1,2]]},"broke_off":"vandals","retreat":"byzacium-south","typo":1}"#).unwrap();
    let refused = cli(&db.path, &["result", "Africa", "1", "--file", file.to_str().unwrap()]).refused();
    assert!(refused.contains("typo"), "unknown fields are refused: {refused}");
    std::fs::write(&file, r#"{"losses":{"vandals":[[1,9]]},"broke_off":"vandals","retreat":"tripolitania"}"#).unwrap();
    cli(&db.path, &["result", "Africa", "1", "--file", file.to_str().unwrap()]).refused_saying("has 2 points, not 9");
    assert_eq!(cli(&db.path, &["log", "Africa"]).ok(), before, "nothing stored");
    std::fs::write(&file, r#"{"losses":{"vandals":[[1,2],[2,2]],"byzantines":[[13,1]]},"broke_off":"vandals","retreat":"tripolitania"}"#)
        .unwrap();
    let done = cli(&db.path, &["result", "Africa", "1", "--file", file.to_str().unwrap()]).ok();
    assert!(done.contains("Vandals retreat to Tripolitania") && done.contains("the Byzantines win"), "{done}");
    let shown = cli(&db.path, &["show", "Africa"]).ok();
    assert!(!shown.contains("Battle at"), "{shown}");
    db.refuses(&["result", "Africa", "2", "--file", file.to_str().unwrap()], "Africa has no battle on the table now");
    // BE-46, BE-49: the umpire's running check counts the points destroyed in battle and the
    // zones controlled; the sides' views carry no such check.
    assert!(shown.contains("Byzantines: destroy 12 enemy combat points — has destroyed 4"), "{shown}");
    assert!(shown.contains("Byzantines: control 4 zones anywhere — controls"), "{shown}");
    let side = cli(&db.path, &["show", "Africa", "--as", "vandals"]).ok();
    assert!(!side.contains("Victory conditions"), "{side}");

    // A brief lost after the game is printed again as the battle went to the table: the
    // Vandals' units at their strength then, not after the losses just entered.
    let again = db.folder().join("again");
    cli(&db.path, &["pack", "Africa", "1", "--out", again.to_str().unwrap(), "--system", "dbm"]).ok_saying("battle-01-dbm-vandals.pdf");
    let reprinted =
        referee_battle_gen::pdf::extract_text(&std::fs::read(again.join("battle-01-dbm-vandals.pdf")).unwrap()).unwrap().join("\n");
    assert_eq!(reprinted, vandals, "the brief printed again is the brief as it was");
    db.refuses(&["pack", "Africa", "1", "--out", again.to_str().unwrap(), "--system", "ars-bellum"], "battle 1's result is in");
    db.refuses(&["pack", "Africa", "2", "--out", again.to_str().unwrap()], "Africa has had one battle, battle 1; there is no battle 2");
    db.refuses(&["pack", "Africa", "0", "--out", again.to_str().unwrap()], "there is no battle 0");
}

/// BE-17: a battle fought out in the program never went to the table, so it has no pack to
/// print again; the refusal says so, and a campaign with no battle yet says that.
#[test]
fn be_17_a_battle_fought_in_the_program_has_no_pack_to_print_again() {
    use referee_campaign::belisarius::Belisarius;
    let db = TempDb::new();
    let out = db.folder().join("packs");
    let out = out.to_str().unwrap();
    africa_in_operations(&db, "5");
    db.refuses(&["pack", "Africa", "1", "--out", out], "Africa has had no battle yet");
    drop(db);

    let db = TempDb::new();
    africa_battle(&db);
    {
        let mut store = referee_campaign::Store::open(&db.path).unwrap();
        let mut c = store.load_as::<Belisarius>(store.find("Africa").unwrap()).unwrap();
        // The Vandals break off after the first passage and retreat.
        let vandals = referee_campaign::ids::SideId::new("vandals");
        for _ in 0..50 {
            let Some(order) = referee_campaign::fixtures::belisarius::battle_order(&c.state, Some(&vandals)) else { break };
            store.execute(&mut c, &(), &order, referee_campaign::DiceInput::Seeded).unwrap();
        }
        assert!(c.state.ops.as_ref().is_some_and(|o| o.battle.is_none()), "the battle is over");
    }
    db.refuses(
        &["pack", "Africa", "1", "--out", out],
        "battle 1 of Africa was fought in the program, not on the table: it has no pack to print again (BE-17)",
    );
}

/// BE-04, BE-05, BE-06, X-02: the operations from the command line: chits drawn from a real
/// cup and dice typed in, each side's action points shown to it alone, a leader activated
/// and a segment passed; a wrong chit is refused and nothing stored.
#[test]
fn be_04_operations_begin_from_the_command_line_with_a_real_cup() {
    let db = TempDb::new();
    africa_begun(&db, "5");
    cli(&db.path, &["order", "Africa", r#"{"type":"begin_operations"}"#]).refused_saying("play the supply phase first");
    cli(&db.path, &["show", "Africa"]).ok_saying("Before operations: the events phase is to be played (`events`, BE-47)");
    cli(&db.path, &["order", "Africa", r#"{"type":"supply"}"#]).refused_saying("the events phase comes first");
    // Africa's one event roll, a 7: event N, which Africa does not allow.
    cli(&db.path, &["order", "Africa", r#"{"type":"events"}"#, "--value", "3,4"]).ok();
    cli(&db.path, &["log", "Africa", "--as", "vandals"]).ok_saying("event N, Storms — no event, as event N cannot happen in this scenario");
    cli(&db.path, &["show", "Africa"]).ok_saying("Before operations: the supply phase is to be played (`supply`, BE-41)");
    // Typed-in 1s: nobody goes hungry.
    cli(&db.path, &["order", "Africa", r#"{"type":"supply"}"#, "--value", "1"]).ok();
    let before = cli(&db.path, &["log", "Africa"]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"begin_operations"}"#, "--chit", "ap-z", "--value", "2,3"])
        .refused_saying("`ap-z` is not in the AP cup");
    assert_eq!(cli(&db.path, &["log", "Africa"]).ok(), before, "nothing stored");
    cli(&db.path, &["order", "Africa", r#"{"type":"begin_operations"}"#, "--chit", "ap-i,ap-d", "--value", "2,3"]).ok();
    let byz = cli(&db.path, &["show", "Africa", "--as", "byzantines"]).ok_saying("Byzantines: 16 of 16 action points left (chit ap-i, 8)");
    assert!(!byz.contains("Vandals: 7 of"), "{byz}");
    let vandals = cli(&db.path, &["show", "Africa", "--as", "vandals"]).ok();
    assert!(vandals.contains("Vandals: 7 of 7 action points left") && !vandals.contains("16 of 16"), "{vandals}");
    assert!(vandals.contains("Operations: the segment of the Byzantines"), "{vandals}");
    cli(&db.path, &["order", "Africa", r#"{"type":"activate","side":"byzantines","leader":"belisarius"}"#]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"pass","side":"vandals"}"#]).refused_saying("it is the Byzantines' segment");
    cli(&db.path, &["order", "Africa", r#"{"type":"pass","side":"byzantines"}"#]).ok();
    let log = cli(&db.path, &["log", "Africa", "--as", "vandals"]).ok();
    let activation = log.lines().find(|l| l.contains(" activate ")).unwrap();
    assert!(activation.contains("Byzantines activate a force at Northern Byzacium") && !activation.contains("Belisarius"), "{log}");
}

/// BE-24, BE-27, BE-32: a siege from the command line: laid and worked on by JSON orders,
/// `show` prints the siege with its marker, works, defence and militia; an assault leaves
/// the attackers' losses numbered for `take_losses`, and an unknown field is refused.
#[test]
fn be_24_a_siege_from_the_command_line() {
    let db = TempDb::new();
    africa_marched(&db, "proconsularis");
    let unknown =
        cli(&db.path, &["order", "Africa", r#"{"type":"besiege","side":"byzantines","leader":"belisarius","engines":9}"#]).refused();
    assert!(unknown.contains("engines"), "{unknown}");
    cli(&db.path, &["order", "Africa", r#"{"type":"besiege","side":"byzantines","leader":"belisarius"}"#]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"build_works","side":"byzantines","leader":"belisarius","works":"siege","count":2}"#])
        .ok();
    cli(&db.path, &["show", "Africa", "--as", "vandals"])
        .ok_saying("Siege of Sicca Veneria by the Byzantines: duration 1 of 4, siege works 2, defence 1, militia 1");
    cli(&db.path, &["order", "Africa", r#"{"type":"assault","side":"byzantines","leader":"belisarius"}"#, "--value", "3,3"]).ok();
    let shown = cli(&db.path, &["show", "Africa", "--as", "byzantines"]).ok_saying("Assault on Sicca Veneria: the Byzantines owe");
    assert!(shown.contains("1. 1*A cataphracts (Belisarius)"), "{shown}");
    cli(&db.path, &["log", "Africa", "--as", "vandals"]).ok_saying("Sicca Veneria falls to the Byzantines by storm");
}

/// BE-33, BE-37, BE-53: ships from the command line — the side's ships listed with their
/// ids, a leader boarding, the ships sailing with a typed attrition die, an unknown field
/// refused — and the other side reading only sea markers.
#[test]
fn be_33_ships_sail_from_the_command_line() {
    let db = TempDb::new();
    africa_in_operations(&db, "7");
    cli(&db.path, &["show", "Africa", "--as", "byzantines"]).ok_saying("fleet-byzantines-1 (8 NPs) at African Sea");
    cli(&db.path, &["order", "Africa", r#"{"type":"activate","side":"byzantines","leader":"iohannes"}"#]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"embark","side":"byzantines","leader":"iohannes","ships":["fleet-byzantines-1"]}"#]).ok();
    let unknown = cli(
        &db.path,
        &["order", "Africa", r#"{"type":"sail","side":"byzantines","ships":["fleet-byzantines-1"],"path":["syrtis"],"wind":"north"}"#],
    )
    .refused();
    assert!(unknown.contains("wind"), "{unknown}");
    cli(
        &db.path,
        &["order", "Africa", r#"{"type":"sail","side":"byzantines","ships":["fleet-byzantines-1"],"path":["syrtis"]}"#, "--value", "6"],
    )
    .ok();
    let shown = cli(&db.path, &["show", "Africa", "--as", "byzantines"]).ok();
    assert!(
        shown.contains("fleet-byzantines-1 (7 NPs) at Gulf of Syrtis, 1 sea zone this turn"),
        "a 6 after one zone costs a point: {shown}"
    );
    let theirs = cli(&db.path, &["show", "Africa", "--as", "vandals"]).ok_saying("Gulf of Syrtis: 1 face-down sea marker of Byzantines");
    assert!(!theirs.contains("fleet-byzantines") && !theirs.contains("Iohannes"), "{theirs}");
}

/// BE-17, AC-07: a Belisarius battle sent to an A la Charge! table: the pack carries the
/// scenario, the map files and the counters; the counters lost come back as combat points lost
/// by the leader's units, his counter eliminated as the leader killed; the beaten side breaks
/// off to the zone `--retreat` names. Joins for lost generals' men (MG-31) are refused.
#[test]
fn be_17_a_hex_tables_result_comes_back_as_combat_points() {
    let db = TempDb::new();
    africa_battle(&db);
    cli(&db.path, &["order", "Africa", r#"{"type":"send_to_table"}"#]).ok();
    // Both hex games' packs read back with their scenario, map and counters, each side's its
    // own; the map files are every player's.
    // The hex map covers the battle's table: its last hex, as the program lays it.
    let last_hex = |system: referee_battle_gen::hexmap::HexSystem| {
        let store = referee_campaign::Store::open(&db.path).unwrap();
        let c = store.load_as::<referee_campaign::belisarius::Belisarius>(store.find("Africa").unwrap()).unwrap();
        let elements = referee_campaign::magna_graecia::catalog::Catalog::embedded().elements;
        let conv = referee_battle_gen::belisarius::Conversion::embedded();
        let spec = referee_battle_gen::belisarius::table_spec(&c.state, &elements, &conv, 1).unwrap();
        let tabletop = referee_battle_gen::hexpack::HexTabletop::new(system, referee_battle_gen::hexunits::HexUnits::embedded());
        let map = tabletop.map(&spec.ground).unwrap();
        map.cells.iter().map(|h| h.label.clone()).max().unwrap()
    };
    for (system, name, last) in [
        ("ars-bellum", "Ars Bellum", last_hex(referee_battle_gen::hexmap::HexSystem::ArsBellum)),
        ("a-la-charge", "A la Charge!", last_hex(referee_battle_gen::hexmap::HexSystem::ALaCharge)),
    ] {
        let out = db.folder().join(system);
        let written = cli(&db.path, &["pack", "Africa", "1", "--out", out.to_str().unwrap(), "--system", system, "--json"]).json();
        assert_eq!(written.as_array().map(Vec::len), Some(5), "{written}");
        let read = |file: &str| referee_battle_gen::pdf::extract_text(&std::fs::read(out.join(file)).unwrap()).unwrap().join("\n");
        for side in ["vandals", "byzantines"] {
            let text = read(&format!("battle-01-{system}-{side}.pdf"));
            for part in
                [format!("the {name} scenario"), "Set-up".to_owned(), "Victory conditions".to_owned(), "counters, fronts".to_owned()]
            {
                assert!(text.contains(&part), "{system}, {side}: no {part}");
            }
            assert_eq!(text.matches("beaten when").count(), 1, "{system}, {side}: its own breaking point only");
        }
        // The last hex (bottom right, inland on this zone's map) carries its number.
        let sheets = read(&format!("battle-01-{system}-map-sheets.pdf"));
        assert!(sheets.contains(&last) && sheets.contains("Joining the sheets"), "{system}: the numbered map, {last} last");
    }
    let file = db.folder().join("hex.json");
    // The Vandals' first counter is Gelimer's commander, then his units.
    std::fs::write(
        &file,
        r#"{"outcome":{"kind":"won","winner":"byzantines"},"sides":[{"side":"vandals","lost":[{"counter":2,"steps":2}]}]}"#,
    )
    .unwrap();
    let before = cli(&db.path, &["log", "Africa"]).ok();
    let refused = cli(&db.path, &["result", "Africa", "1", "--file", file.to_str().unwrap(), "--system", "a-la-charge"]).refused();
    assert!(refused.contains("retreat"), "the beaten side must retreat somewhere: {refused}");
    // Roads still open lead to the zones beside the battle, and nowhere else: a hundred
    // thousand made-up ones are refused at the first, in one line.
    let garbage: Vec<String> = (0..100_000).map(|i| format!("\"nowhere-{i}\"")).collect();
    let junk = db.folder().join("junk.json");
    std::fs::write(
        &junk,
        format!(
            r#"{{"outcome":{{"kind":"won","winner":"byzantines"}},"sides":[{{"side":"vandals","lost":[],"open_exits":[{}]}}]}}"#,
            garbage.join(",")
        ),
    )
    .unwrap();
    let db_before = db.bytes();
    let line =
        cli(&db.path, &["result", "Africa", "1", "--file", junk.to_str().unwrap(), "--system", "a-la-charge", "--retreat", "tripolitania"])
            .refused();
    assert!(line.contains("`nowhere-0`, a road open to the Vandals, is not a zone beside Southern Byzacium"), "{line}");
    assert!(line.len() < 400, "{line}");
    assert_eq!(db.bytes(), db_before, "nothing stored");
    assert_eq!(cli(&db.path, &["log", "Africa"]).ok(), before, "nothing stored");
    // A people that did not fight is named as typed, and the sides that did are listed.
    let stranger = db.folder().join("stranger.json");
    std::fs::write(&stranger, r#"{"outcome":{"kind":"no_result"},"sides":[{"side":"ostrogoths","lost":[]}]}"#).unwrap();
    cli(&db.path, &["result", "Africa", "1", "--file", stranger.to_str().unwrap(), "--system", "a-la-charge", "--retreat", "tripolitania"])
        .refused_saying("`ostrogoths` did not fight battle 1; its sides are ");
    assert_eq!(db.bytes(), db_before, "nothing stored");
    // MG-31: where a lost general's men go is a Magna Graecia result's, not Belisarius's.
    let joins = db.folder().join("joins.json");
    std::fs::write(
        &joins,
        r#"{"outcome":{"kind":"won","winner":"byzantines"},"sides":[{"side":"vandals","lost":[{"counter":2,"steps":2}],"joins":{"Gelimer":"Ammatas"}}]}"#,
    )
    .unwrap();
    let args = ["result", "Africa", "1", "--file", joins.to_str().unwrap(), "--system", "a-la-charge", "--retreat", "tripolitania"];
    cli(&db.path, &args).refused_saying("name commands to join, which only a Magna Graecia result does (MG-31)");
    assert_eq!(cli(&db.path, &["log", "Africa"]).ok(), before, "nothing stored");
    let done =
        cli(&db.path, &["result", "Africa", "1", "--file", file.to_str().unwrap(), "--system", "a-la-charge", "--retreat", "tripolitania"])
            .ok();
    assert!(done.contains("Vandals retreat to Tripolitania") && done.contains("the Byzantines win"), "{done}");
    assert!(done.contains("Vandals take") && done.contains("combat points lost: Byzantines 0"), "{done}");
}

/// BE-17, BE-19, BE-22: `odds` counts the battle under way from where it stands, as text and
/// as JSON, for the policies named; losses owed count before they are shared out; a wrong
/// policy, a count of nothing and a campaign without a battle are refused, and nothing is
/// written.
#[test]
fn be_17_odds_are_counted_from_the_command_line() {
    let db = TempDb::new();
    let none = {
        africa_marched(&db, "proconsularis");
        cli(&db.path, &["odds", "Africa"]).refused()
    };
    assert!(none.contains("no battle under way"), "{none}");
    let db = TempDb::new();
    africa_battle(&db);
    let before = db.bytes();
    let text = cli(&db.path, &["odds", "Africa", "--battles", "2000", "--break-off", "75,never"]).ok();
    assert!(text.contains("The battle at Southern Byzacium") && text.contains("counted 2000 times"), "{text}");
    assert!(text.contains("break off at 75 % lost") && text.contains("fight to the end"), "{text}");
    let json = cli(&db.path, &["--json", "odds", "Africa", "--battles", "2000"]).json();
    assert_eq!(json["battles"], 2000);
    let sides = json["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    let total: u64 = sides.iter().map(|s| s["retreated"].as_u64().unwrap() + s["destroyed"].as_u64().unwrap()).sum::<u64>()
        + json["parted"].as_u64().unwrap();
    assert_eq!(total, 2000, "every battle ends one way: {json}");
    for bad in [&["--break-off", "40"][..], &["--battles", "0"], &["--break-off", "50,50,50"]] {
        let mut args = vec!["odds", "Africa"];
        args.extend_from_slice(bad);
        cli(&db.path, &args).refused();
    }
    assert_eq!(db.bytes(), before, "counting odds writes nothing");
    // Roll until somebody owes losses: the count starts with them paid.
    for _ in 0..6 {
        let shown = cli(&db.path, &["show", "Africa"]).ok();
        if shown.contains("share out") {
            let owed: u32 = shown
                .lines()
                .find(|l| l.contains("share out"))
                .and_then(|l| l.split("share out ").nth(1))
                .and_then(|r| r.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap();
            let json = cli(&db.path, &["--json", "odds", "Africa", "--battles", "500", "--break-off", "never"]).json();
            let lost: f64 = json["sides"].as_array().unwrap().iter().map(|s| s["expected_lost"].as_f64().unwrap()).fold(0.0, f64::max);
            assert!(lost >= f64::from(owed), "the {owed} points owed count in the mean lost: {json}");
            return;
        }
        cli(&db.path, &["order", "Africa", r#"{"type":"fight"}"#]).ok();
    }
    panic!("nobody lost anything in three passages");
}

/// X-07 / BE-14: a referee's data folder whose interception table has lost its `die = 6` row
/// starts no campaign: `new` refuses it in one line naming the file, the line and the missing
/// die, and the database is left as it was (a database not yet made is not made).
#[test]
fn x_07_be_14_a_table_with_a_row_missing_starts_no_campaign() {
    let dir = tempfile::tempdir().unwrap();
    for f in referee_data::EMBEDDED {
        let path = dir.path().join(f.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, f.text).unwrap();
    }
    let tables = dir.path().join("belisarius/tables.toml");
    let text = std::fs::read_to_string(&tables).unwrap();
    let row = "  { die = 6, results = [\"L\", \"L\", \"L\", \"A\", \"A\", \"A\", \"A\"] },\n";
    assert_eq!(text.matches(row).count(), 1, "the interception table's die 6 row");
    let title = referee_data::line_of(&text, text.find("title = \"Interception\"").unwrap());
    std::fs::write(&tables, text.replacen(row, "", 1)).unwrap();
    let data = dir.path().to_str().unwrap();
    let want = format!(
        "{}:{title}: the interception table has no row for a die of 6; every die from 1 to 6 needs a row of its own",
        tables.display()
    );

    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Kept", "--seed", "1"]).ok();
    let before = db.bytes();
    let line = cli(&db.path, &["--data", data, "new", "goths-541", "--name", "X"]).refused();
    assert!(line.ends_with(&want), "{line}");
    assert_eq!(db.bytes(), before, "a refused data folder changed the database");
    let list = cli(&db.path, &["list", "--json"]).json();
    let names: Vec<&str> = list.as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Kept"]);

    let fresh = TempDb::new();
    let line = cli(&fresh.path, &["--data", data, "new", "goths-541", "--name", "X"]).refused();
    assert!(line.ends_with(&want), "{line}");
    assert!(!fresh.path.exists(), "a refused data folder made a database");

    // A count typed a million times too large, in two scenarios: both are said, in one
    // line, each with its file and line and nothing that follows from them, and no million
    // counters are made.
    std::fs::write(&tables, &text).unwrap();
    let mut counted = Vec::new();
    for (file, group, slip, words) in [
        (
            "final-551",
            "heavy_cavalry = \"1x(1A), 4x(2B)\"",
            "heavy_cavalry = \"1x(1A), 4000000x(2B)\"",
            "heavy cavalry: `4000000x(2B)`: a count of 4000000 units",
        ),
        ("italy-535", "cataphracts = \"2 x (2*C)\"", "cataphracts = \"200 x (2*C)\"", "cataphracts: `200 x (2*C)`: a count of 200 units"),
    ] {
        let scenario = dir.path().join(format!("belisarius/scenarios/{file}.toml"));
        let text = std::fs::read_to_string(&scenario).unwrap();
        assert_eq!(text.matches(group).count(), 1, "{file}: {group}");
        let at = referee_data::line_of(&text, text.find(group).unwrap());
        std::fs::write(&scenario, text.replacen(group, slip, 1)).unwrap();
        counted.push(format!("{}:{at}: {words}, where a group counts 99 at most", scenario.display()));
    }
    let line = cli(&fresh.path, &["--data", data, "new", "goths-541", "--name", "X"]).refused();
    assert!(line.contains(&format!("2 problems in the data files: {}; {}", counted[0], counted[1])), "{line}");
    assert!(!line.contains("\\u{a}"), "{line}");
}

/// X-03, X-06: a Belisarius campaign moves to another database through `log --json` and
/// `import`, in the middle of a battle: the umpire's board and each side's log read the same
/// there, and it goes on from where it stood. A log printed before the start event's set-up
/// was called `scenario` (it was `setup`) comes in too, and a file that starts no campaign is
/// refused with the database untouched.
#[test]
fn x_03_a_belisarius_campaign_moves_to_another_database_through_its_log() {
    let from = TempDb::new();
    africa_battle(&from);
    let events = cli(&from.path, &["log", "Africa", "--json"]).ok();
    let vandals = cli(&from.path, &["log", "Africa", "--as", "vandals"]).ok();
    let file = from.folder().join("africa.json");
    std::fs::write(&file, &events).unwrap();
    let to = TempDb::new();
    let done = cli(&to.path, &["import", file.to_str().unwrap(), "--name", "Africa"]).ok();
    assert!(done.contains("from africa-533"), "{done}");
    for args in
        [&["show", "Africa"][..], &["log", "Africa", "--as", "vandals"], &["log", "Africa", "--as", "byzantines"], &["seed", "Africa"]]
    {
        assert_eq!(cli(&to.path, args).ok(), cli(&from.path, args).ok(), "{args:?}");
    }
    for db in [&from, &to] {
        cli(&db.path, &["order", "Africa", r#"{"type":"send_to_table"}"#]).ok();
    }
    assert_eq!(cli(&to.path, &["show", "Africa"]).ok(), cli(&from.path, &["show", "Africa"]).ok());

    let mut older: serde_json::Value = serde_json::from_str(&events).unwrap();
    let start = older[0]["event"].as_object_mut().unwrap();
    let setup = start.remove("scenario").unwrap();
    start.insert("setup".to_owned(), setup);
    let file = from.folder().join("older.json");
    std::fs::write(&file, older.to_string()).unwrap();
    cli(&to.path, &["import", file.to_str().unwrap(), "--name", "Older"]).ok_saying("from africa-533");
    let older = cli(&to.path, &["log", "Older", "--as", "vandals"]).ok();
    assert_eq!(older.replacen("“Older”", "“Africa”", 1), vandals);

    let before = to.bytes();
    let headless = serde_json::Value::Array(serde_json::from_str::<serde_json::Value>(&events).unwrap().as_array().unwrap()[1..].to_vec());
    std::fs::write(&file, headless.to_string()).unwrap();
    cli(&to.path, &["import", file.to_str().unwrap(), "--name", "Headless"])
        .refused_saying("its first event is not the start of a campaign");
    assert_eq!(to.bytes(), before, "a refused import changed the database");
}

/// A people named in the plural owns with an apostrophe alone: the Vandals' turn report is
/// "For the Vandals' player only", its forces "Vandals' Table of Organisation", and no page
/// of it or of the battle pack reads "Vandals's" or "Byzantines's".
#[test]
fn a_plural_peoples_possessive_takes_an_apostrophe_alone() {
    let db = TempDb::new();
    africa_battle(&db);
    let out = db.folder().join("reports");
    cli(&db.path, &["report", "Africa", "--as", "vandals", "--out", out.to_str().unwrap()]).ok();
    let file = std::fs::read_dir(&out).unwrap().next().unwrap().unwrap().path();
    let text = referee_battle_gen::pdf::extract_text(&std::fs::read(&file).unwrap()).unwrap().join(" ").replace('\n', " ");
    assert!(text.contains("For the Vandals' player only"), "{text}");
    assert!(text.contains("Vandals' Table of Organisation"), "{text}");
    let plural = |text: &str| ["Vandals's", "Byzantines's"].iter().any(|p| text.contains(p));
    assert!(!plural(&text), "{text}");
    cli(&db.path, &["order", "Africa", r#"{"type":"send_to_table"}"#]).ok();
    let packs = db.folder().join("packs");
    cli(&db.path, &["pack", "Africa", "1", "--out", packs.to_str().unwrap()]).ok();
    for f in std::fs::read_dir(&packs).unwrap() {
        let path = f.unwrap().path();
        let text = referee_battle_gen::pdf::extract_text(&std::fs::read(&path).unwrap()).unwrap().join(" ");
        assert!(!plural(&text), "{}: {text}", path.display());
    }
}
