//! X-02 / X-06: input is refused or taken exactly. Every refusal is one sentence naming the
//! field or the rule, the database is left byte for byte as it was, and nothing panics —
//! not the order, and not the `show` and `log` that follow it.

use referee_e2e::{TempDb, cli, himera_db};

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Runs `args`, which must be refused with a line containing `expected`, and checks that the
/// database did not change and still reads.
fn refused(db: &TempDb, args: &[&str], expected: &str) {
    let before = db.bytes();
    let line = cli(&db.path, args).refused();
    assert!(line.contains(expected), "{args:?}: {line}");
    assert!(line.len() < 800, "the refusal is too long to read: {line}");
    assert_eq!(db.bytes(), before, "{args:?} changed the database");
    cli(&db.path, &["show", args[1]]).ok();
    cli(&db.path, &["log", args[1]]).ok();
}

/// X-02: a modifier past any sensible size is refused before anything is rolled or stored,
/// from the command line and from a JSON order alike.
#[test]
fn x_02_a_huge_modifier_is_refused_before_the_roll() {
    let db = TempDb::new();
    cli(&db.path, &["new", "dionysian", "--name", "M", "--seed", "1"]).ok();
    refused(&db, &["roll", "M", "d6", "--purpose", "x", "--modifier", "+2147483647:a"], "a modifier is a whole number from -100 to +100");
    refused(&db, &["roll", "M", "d6", "--purpose", "x", "--modifier", "-2147483648:a"], "from -100 to +100");
    let order = r#"{"type":"roll_dice","dice":{"count":1,"sides":6},"purpose":"x","modifiers":[{"value":2147483647,"reason":"a"},{"value":5,"reason":"b"}]}"#;
    refused(&db, &["order", "M", order], "from -100 to +100");
    let order = r#"{"type":"roll_dice","dice":{"count":1,"sides":6},"purpose":"x","modifiers":[{"value":1,"reason":" "}]}"#;
    refused(&db, &["order", "M", order], "needs a reason");
    // The largest modifier allowed is taken and shows.
    let out = cli(&db.path, &["roll", "M", "d6", "--purpose", "x", "--modifier", "+100:a", "--value", "3"]).ok();
    assert_eq!(out.trim(), "d6 = 3 +100 (a) = 103 [typed in] for x");
}

/// X-02: dice given in JSON meet the same limits as on the command line: 1 to 10 dice of 2
/// to 100 sides; none is rolled, none stored, nothing panics.
#[test]
fn x_02_json_dice_meet_the_command_lines_limits() {
    let db = TempDb::new();
    cli(&db.path, &["new", "dionysian", "--name", "D", "--seed", "1"]).ok();
    for (dice, expected) in [
        (r#"{"count":1,"sides":0}"#, "a die has 2 to 100 sides, not 0"),
        (r#"{"count":1,"sides":1}"#, "a die has 2 to 100 sides, not 1"),
        (r#"{"count":0,"sides":6}"#, "roll 1 to 10 dice at a time, not 0"),
        (r#"{"count":255,"sides":255}"#, "roll 1 to 10 dice at a time, not 255"),
        (r#"{"count":2,"sides":6,"faces":3}"#, "unknown field `faces`"),
    ] {
        let order = format!(r#"{{"type":"roll_dice","dice":{dice},"purpose":"x"}}"#);
        refused(&db, &["order", "D", &order], expected);
    }
}

/// X-06: an unknown field anywhere in an order, a result file or a roster file is refused by
/// name, with the fields that are allowed; a misspelt `hidden` never makes a secret roll
/// public.
#[test]
fn x_06_unknown_fields_are_refused_by_name() {
    let db = himera_db("U");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    refused(
        &db,
        &["order", "U", r#"{"type":"roll_dice","dice":{"count":1,"sides":6},"purpose":"x","secret":true}"#],
        "unknown field `secret`, expected one of `dice`, `purpose`, `side`, `hidden`, `modifiers`",
    );
    refused(
        &db,
        &["order", "U", r#"{"type":"deploy","side":"carthage","counter":"Mago","node":4,"bogus":[1,2]}"#],
        "unknown field `bogus`",
    );
    refused(&db, &["order", "U", r#"{"type":"begin_play","at":"once"}"#], "unknown field `at`");
    refused(&db, &["order", "U", r#"[{"type":"end_phase","side":"carthage"},{"type":"end_phase","sid":"carthage"}]"#], "order 2 of 2");
    let loses = write(
        d,
        "loses.json",
        r#"{"outcome":{"kind":"won","winner":"carthage"},
            "loses":[{"side":"syracuse","command":"Leptines","destroyed":["2 Reg Sp(O)"]}]}"#,
    );
    refused(&db, &["result", "U", "1", "--file", &loses], "unknown field `loses`, expected one of `battle`, `outcome`");
    let numbered = write(
        d,
        "numbered.json",
        "{\"battle\":1,\n \"outcome\":{\"kind\":\"won\",\"winner\":\"carthage\"},\n \"losses\":[{\"side\":\"syracuse\",\"command\":\"Leptines\",\"destroyd\":[]}]}",
    );
    refused(&db, &["result", "U", "1", "--file", &numbered], "unknown field `destroyd`");
    refused(&db, &["result", "U", "1", "--file", &numbered], "line 3");
    let outcome = write(d, "outcome.json", r#"{"outcome":{"kind":"no_result","winner":"carthage"}}"#);
    refused(&db, &["result", "U", "1", "--file", &outcome], "unknown field `winner`");
    cli(&db.path, &["new", "dionysian", "--name", "R", "--seed", "2"]).ok();
    let roster = write(
        d,
        "roster.toml",
        "side = \"carthage\"\nlist = \"x\"\ncolour = \"red\"\n[[command]]\nname = \"A\"\nrank = \"c-in-c\"\ngeneral = \"Reg Cv(O)\"\nelements = [\"4 Reg Sp(O)\"]\n",
    );
    refused(&db, &["roster", "R", "--import", &roster], "colour");
}

/// X-06: an empty name is refused by naming the field, not with a sentence with a hole in
/// it; a huge unknown order is quoted by its first few words only.
#[test]
fn x_06_refusals_name_the_empty_field_and_cut_their_quotes() {
    let db = himera_db("E");
    refused(&db, &["order", "E", r#"{"type":"end_phase","side":""}"#], "the order's `side` is empty");
    refused(&db, &["order", "E", r#"{"type":"move","side":"syracuse","counter":" ","path":[9]}"#], "the order's `counter` is empty");
    let dir = tempfile::tempdir().unwrap();
    let empty =
        write(dir.path(), "empty.json", r#"{"outcome":{"kind":"won","winner":"carthage"},"losses":[{"side":"","command":"Leptines"}]}"#);
    refused(&db, &["result", "E", "1", "--file", &empty], "the order's `losses[0].side` is empty");
    let huge = format!(r#"{{"type":"shout","words":"{}"}}"#, "a".repeat(1 << 20));
    refused(&db, &["order", "E", &huge], "is not an order this program knows");
}

/// MG-15: a result's open roads are roads out of the battle's node; a node that does not
/// exist or does not border the battle is refused.
#[test]
fn mg_15_open_roads_must_lead_out_of_the_battle() {
    let db = himera_db("O");
    let dir = tempfile::tempdir().unwrap();
    for (roads, expected) in [("[99]", "node 99, which is not on the map"), ("[31]", "is not one — MG-15")] {
        let file = write(
            dir.path(),
            "roads.json",
            &format!(r#"{{"outcome":{{"kind":"won","winner":"carthage"}},"open_roads":{{"syracuse":{roads}}}}}"#),
        );
        refused(&db, &["result", "O", "1", "--file", &file], expected);
    }
    let file = write(dir.path(), "ok.json", r#"{"outcome":{"kind":"won","winner":"carthage"},"open_roads":{"syracuse":[9]}}"#);
    cli(&db.path, &["result", "O", "1", "--file", &file]).ok();
}

/// X-06: an element group of an absurd size is refused where it is read, so no sum of
/// groups can overflow.
#[test]
fn x_06_element_groups_have_a_sensible_size() {
    let db = himera_db("G");
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "big.json",
        r#"{"outcome":{"kind":"won","winner":"carthage"},"losses":[{"side":"syracuse","command":"Leptines","destroyed":["4294967295 Reg Sp(O)","4294967295 Reg Sp(O)"]}]}"#,
    );
    refused(&db, &["result", "G", "1", "--file", &file], "at most 999 elements");
    let file = write(
        dir.path(),
        "bigger.json",
        r#"{"outcome":{"kind":"won","winner":"carthage"},"losses":[{"side":"syracuse","command":"Leptines","destroyed":["99999999999 Reg Sp(O)"]}]}"#,
    );
    refused(&db, &["result", "G", "1", "--file", &file], "`99999999999 Reg Sp(O)`: a group has at most 999 elements");
}

/// X-06: a list of orders is stored whole or not at all; the refusal says which order.
#[test]
fn x_06_a_list_of_orders_is_stored_whole_or_not_at_all() {
    let db = TempDb::new();
    cli(&db.path, &["new", "dionysian", "--name", "L", "--seed", "1"]).ok();
    let list = r#"[{"type":"deploy","side":"carthage","counter":"Mago","node":4},
                   {"type":"deploy","side":"carthage","counter":"Hanno","node":28}]"#;
    refused(&db, &["order", "L", list], "order 2 of 2 (deploy Carthage's Hanno at 28 Messena) refused, so none of the list was stored");
    let list = r#"[{"type":"deploy","side":"carthage","counter":"Mago","node":4},
                   {"type":"deploy","side":"carthage","counter":"Hanno","node":4}]"#;
    cli(&db.path, &["order", "L", list]).ok();
    let undone = cli(&db.path, &["undo", "L"]).ok();
    assert!(undone.contains("deploy Carthage's Hanno"), "each order of a list is its own step for undo: {undone}");
}

/// X-01 / X-06: the dice seed is printed only when the umpire asks for it with `seed`; no
/// view, however complete, carries it.
#[test]
fn x_01_the_seed_only_on_request() {
    let db = TempDb::new();
    cli(&db.path, &["new", "dionysian", "--name", "S", "--seed", "4242424242"]).ok();
    for args in [&["show", "S", "--json"][..], &["show", "S"], &["log", "S"], &["roster", "S", "--json"]] {
        let out = cli(&db.path, args).ok();
        assert!(!out.contains("4242424242") && !out.contains("\"seed\""), "{args:?} shows the seed: {out}");
    }
    let out = cli(&db.path, &["seed", "S", "--json"]).json();
    assert_eq!(out["seed"], 4_242_424_242u64);
}

/// X-03 / X-06: a campaign's events, as `log --json` prints them, import into another
/// database as the same campaign; events that do not make a campaign, or that carry a field
/// events do not have, are refused with nothing written.
#[test]
fn x_03_a_campaign_moves_between_databases_by_its_events() {
    let from = himera_db("H");
    let events = cli(&from.path, &["log", "H", "--json"]).ok();
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "h.json", &events);
    let to = TempDb::new();
    cli(&to.path, &["new", "pyrrhic", "--name", "Other", "--seed", "1"]).ok();
    let before = to.bytes();
    let mut bad: serde_json::Value = serde_json::from_str(&events).unwrap();
    bad[3]["event"]["sid"] = "carthage".into();
    let bad_file = write(dir.path(), "bad.json", &bad.to_string());
    cli(&to.path, &["import", &bad_file, "--name", "H2"]).refused_saying("unknown field `[3].event.sid`");
    let good: serde_json::Value = serde_json::from_str(&events).unwrap();
    let headless = write(dir.path(), "headless.json", &serde_json::Value::Array(good.as_array().unwrap()[1..].to_vec()).to_string());
    cli(&to.path, &["import", &headless, "--name", "H2"]).refused_saying("its first event is not the start of a campaign");
    // A battle raised twice is refused in words, not by the database's constraint.
    let mut twice = good.as_array().unwrap().clone();
    let raised = twice.iter().position(|l| l["event"]["type"] == "battle_raised").unwrap();
    twice.insert(raised + 1, twice[raised].clone());
    let twice = write(dir.path(), "twice.json", &serde_json::Value::Array(twice).to_string());
    cli(&to.path, &["import", &twice, "--name", "H2"])
        .refused_saying(&format!("its event {} raises battle 1, which an event before it raised already", raised + 2));
    assert_eq!(to.bytes(), before, "a refused import changed the database");
    cli(&to.path, &["import", &file, "--name", "H2"]).ok();
    let a = cli(&from.path, &["show", "H", "--as", "syracuse", "--json"]).json();
    let b = cli(&to.path, &["show", "H2", "--as", "syracuse", "--json"]).json();
    assert_eq!(a["board"]["battles"], b["board"]["battles"]);
    assert_eq!(a["own"], b["own"]);
    cli(&to.path, &["import", &file, "--name", "H2"]).refused_saying("exists already");
}

/// X-06: a key given twice in any JSON the program reads — an order of either campaign, a
/// list of orders, a result file, a hex result, events to import — is refused where it
/// stands, never left to the last one given.
#[test]
fn x_06_a_key_given_twice_is_refused_in_every_json_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = himera_db("H");
    cli(&db.path, &["new", "goths-541", "--name", "G", "--seed", "7"]).ok();
    refused(&db, &["order", "G", r#"{"type":"pass","side":"ostrogoths","side":"byzantines"}"#], "the key `side` is given twice");
    refused(
        &db,
        &["order", "H", r#"[{"type":"end_phase","side":"carthage"},{"type":"end_phase","side":"carthage","side":"syracuse"}]"#],
        "given twice",
    );
    let result = write(dir.path(), "twice.json", r#"{"outcome":{"kind":"no_result"},"outcome":{"kind":"no_result"},"losses":[]}"#);
    refused(&db, &["result", "H", "1", "--file", &result], "the key `outcome` is given twice");
    let hex = write(dir.path(), "hex.json", r#"{"outcome":{"kind":"no_result"},"sides":[],"sides":[]}"#);
    refused(&db, &["result", "H", "1", "--file", &hex, "--system", "ars-bellum"], "the key `sides` is given twice");
    let log = cli(&db.path, &["log", "H", "--json"]).ok();
    let doubled = log.replacen("\"seq\": 1,", "\"seq\": 1, \"seq\": 1,", 1);
    assert_ne!(doubled, log, "the log has a first event");
    let events = write(dir.path(), "events.json", &doubled);
    let before = db.bytes();
    cli(&db.path, &["import", &events, "--name", "Twice"]).refused_saying("the key `seq` is given twice");
    assert_eq!(db.bytes(), before);
}

/// X-06: input past any real size — an endless stream, a file of megabytes — is refused in
/// one line, before it is read whole; a folder given for a file is named as one.
#[test]
fn x_06_input_has_a_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let db = himera_db("H");
    refused(&db, &["order", "H", "--file", "/dev/zero"], "holds more than 4 MiB: no order is that long");
    refused(&db, &["result", "H", "1", "--file", "/dev/zero"], "holds more than 4 MiB: no result is that long");
    let big = write(dir.path(), "big.json", &" ".repeat(5 << 20));
    refused(&db, &["order", "H", "--file", &big], "no order is that long");
    refused(&db, &["order", "H", "--file", dir.path().to_str().unwrap()], "is a folder: give the file that holds the order");
    let line = cli(dir.path(), &["list"]).refused();
    assert!(!line.contains("os error 21): Is a directory"), "the reason is said once: {line}");
}

/// X-06: a refusal quotes at most 60 characters of what it refuses and writes out control
/// characters; a result naming no battle number, or an empty winner, says so in words.
#[test]
fn x_06_refusals_quote_little_and_print_no_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let db = himera_db("H");
    let long = "x".repeat(1 << 20);
    let line = cli(&db.path, &["show", &long]).refused();
    assert!(line.contains(&format!("`{}…`", "x".repeat(60))) && line.len() < 200, "{}", &line[..line.len().min(300)]);
    let line = cli(&db.path, &["show", "a\u{0}b\u{7}c"]).refused();
    assert!(line.contains("a\\u{0}b\\u{7}c") && !line.contains('\u{0}') && !line.contains('\u{7}'), "{line:?}");
    let odd = write(dir.path(), "odd.json", r#"{"battle":"one","outcome":{"kind":"no_result"},"losses":[]}"#);
    refused(
        &db,
        &["result", "H", "1", "--file", &odd],
        "the file's `battle` must be the battle's number as `show` lists it (1), or left out",
    );
}

/// X-02: typed-in dice and chits the order does not use are refused, never dropped, in
/// Belisarius as in Magna Graecia.
#[test]
fn x_02_surplus_typed_in_dice_and_chits_are_refused() {
    let db = TempDb::new();
    cli(&db.path, &["new", "goths-541", "--name", "G", "--seed", "7"]).ok();
    cli(&db.path, &["order", "G", r#"{"type":"place","side":"byzantines","line":1,"at":"roma","units":[1]}"#]).ok();
    cli(&db.path, &["order", "G", r#"{"type":"place","side":"byzantines","line":1,"at":"ravenna","units":[1]}"#]).ok();
    cli(&db.path, &["order", "G", r#"{"type":"place","side":"byzantines","line":1,"at":"latium"}"#]).ok();
    cli(&db.path, &["order", "G", r#"{"type":"place","side":"byzantines","line":1,"at":"tyrrhenum-north"}"#]).ok();
    cli(&db.path, &["order", "G", r#"{"type":"place","side":"ostrogoths","line":1,"at":"adriaticum-north"}"#]).ok();
    cli(&db.path, &["order", "G", r#"{"type":"begin_play"}"#]).ok();
    // Spring 541: no events phase, nobody out of supply.
    refused(&db, &["order", "G", r#"{"type":"supply"}"#, "--value", "2"], "1 typed-in die was not needed by this order");
    cli(&db.path, &["order", "G", r#"{"type":"supply"}"#]).ok();
    cli(&db.path, &["order", "G", r#"{"type":"reinforcements"}"#, "--value", "3,4"]).ok();
    let shown = cli(&db.path, &["--json", "show", "G", "--as", "ostrogoths"]).json();
    let half = shown["own"]["raise_half_points"].as_u64().unwrap();
    assert!(half > 0, "{shown}");
    cli(&db.path, &["order", "G", r#"{"type":"raise","side":"ostrogoths","units":[]}"#]).ok();
    refused(
        &db,
        &["order", "G", r#"{"type":"begin_operations"}"#, "--chit", "ap-a,ap-b,ap-c", "--value", "6,1"],
        "1 typed-in chit was not needed",
    );
    refused(
        &db,
        &["order", "G", r#"{"type":"begin_operations"}"#, "--chit", "ap-a,ap-b", "--value", "6,1,5"],
        "1 typed-in die was not needed",
    );
}
