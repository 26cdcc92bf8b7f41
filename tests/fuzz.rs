//! X-06: arbitrary input thrown at the command line's writing commands — JSON values and
//! orders with fields changed, result files (a hex game's counters lost among them), dice and
//! modifiers, roster files, and argument lists of any shape — in a Magna Graecia campaign and
//! in a Belisarius one at each of its moments (set-up, operations, a contact, a battle here
//! and at the table, a siege and an assault), orders given as the referee and as a side, with
//! chits and dice typed in; and either campaign's log, changed, to import. Nothing panics, every refusal is one line, and a refused command
//! leaves the database byte for byte as it was.

use std::sync::OnceLock;

use proptest::prelude::*;
use referee_e2e::{TempDb, africa_battle, africa_begun, africa_in_operations, africa_marched, cli, himera_db};
use serde_json::{Map, Value};

/// The database of a campaign waiting for the result of battle 1 at Himera, built once.
fn template() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let db = himera_db("F");
        db.bytes()
    })
}

/// Runs `args` on a fresh copy of the template database.
fn run(args: &[&str]) -> Result<(), TestCaseError> {
    run_on(template(), args)
}

/// Runs `args` on a fresh copy of the database `template`.
fn run_on(template: &[u8], args: &[&str]) -> Result<(), TestCaseError> {
    let db = TempDb::new();
    std::fs::write(&db.path, template).unwrap();
    let mut all = vec!["--db", db.path.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = cli(&db.path, args);
    if run.code != 0 {
        prop_assert_eq!(run.stderr.lines().count(), 1, "{:?}: not one line: {}", all, run.stderr);
        prop_assert!(db.bytes() == template, "{:?} was refused ({}) but changed the database", all, run.stderr.trim());
    }
    Ok(())
}

/// Strings a campaign's orders and results name, and the empty one.
const STRINGS: &[&str] = &["", "carthage", "syracuse", "Leptines", "Himilco", "fleet", "4 Reg Sp(O)", "999 Irr Cv(I)", "won", "no_result"];

/// Arguments the command line reads, and numbers at its limits, between spaces.
const ARGS: &str = concat!(
    "F 1 0 4294967296 -1 d6 0d0 255d255 --purpose --modifier +2147483647:a -9: --value 6,6,6 300 ",
    "--side --secret --json --as carthage --defence rear --file",
);

/// One of `words`, each as likely as the others.
fn one_of(words: Vec<&'static str>) -> impl Strategy<Value = String> {
    prop::sample::select(words).prop_map(str::to_owned)
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        prop_oneof![
            Just(0i64),
            Just(-1),
            Just(1),
            Just(255),
            Just(256),
            Just(i64::from(i32::MAX)),
            Just(i64::from(u32::MAX)),
            Just(i64::MIN)
        ]
        .prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop_oneof![STRINGS.len() as u32 => one_of(STRINGS.to_vec()), 1 => ".{0,12}"].prop_map(Value::String),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,10}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Orders of every kind that fit the campaign more or less, to be changed by [`mutated`].
const ORDERS: &[&str] = &[
    r#"{"type":"roll_dice","dice":{"count":2,"sides":6},"purpose":"x","side":"carthage","hidden":true,"modifiers":[{"value":1,"reason":"r"}]}"#,
    r#"{"type":"add_note","text":"a note"}"#,
    r#"{"type":"deploy","side":"carthage","counter":"Mago","node":4}"#,
    r#"{"type":"move","side":"carthage","counter":"Mago","path":[7,11]}"#,
    r#"{"type":"exchange","side":"carthage","from":"Mago","to":"Hanno","elements":["1 Reg Sp(O)"]}"#,
    r#"{"type":"garrison","side":"carthage","command":"Mago","elements":["1 Reg Sp(O)"],"into_garrison":true}"#,
    r#"{"type":"embark","side":"syracuse","counter":"Dionysius"}"#,
    r#"{"type":"land","side":"carthage","counter":"Mago","node":5}"#,
    r#"{"type":"allocate_naval_losses","side":"syracuse","lost":[["Leptines","1 Reg Sp(O)"]],"sunk":["Agyris"]}"#,
    r#"{"type":"retreat_fleet","side":"syracuse","path":[30]}"#,
    r#"{"type":"record_battle_result","result":{"battle":1,"outcome":{"kind":"won","winner":"carthage"},"losses":[{"side":"syracuse","command":"Leptines","destroyed":["2 Reg Sp(O)"],"general_killed":true,"join":"Himera 1"}],"open_roads":{"syracuse":[9]}}}"#,
    r#"{"type":"retreat","side":"syracuse","counter":"Leptines","path":[9]}"#,
    r#"{"type":"withdraw_into_city","side":"syracuse","battle":1}"#,
    r#"{"type":"attack_city","side":"carthage","node":8,"ally":"syracuse"}"#,
    r#"{"type":"set_up_table","battle":1,"defence":"rear","cut":"left","attacker_edge":"west"}"#,
    r#"{"type":"choose_stay_or_retire","side":"syracuse","battle":1,"stay":true}"#,
    r#"{"type":"end_phase","side":"carthage"}"#,
    r#"{"type":"adjust_control","node":5,"side":"syracuse","reason":"r"}"#,
    r#"{"type":"end_campaign","reason":"peace"}"#,
    r#"{"type":"set_army","army":{"side":"carthage","list":"l","note":"","commands":[{"name":"A","rank":"c-in-c","general":"Irr Cv(O)","elements":["4 Reg Sp(O)"]}]}}"#,
    r#"{"type":"disembark","side":"carthage","counter":"Hanno"}"#,
    r#"{"type":"combine_fleets","side":"syracuse","with":"carthage"}"#,
    r#"{"type":"offer_fleet","side":"carthage","to":"syracuse"}"#,
    r#"{"type":"shelter","side":"syracuse"}"#,
    r#"{"type":"sally","side":"syracuse","node":8}"#,
    r#"{"type":"allocate_siege_losses","side":"carthage","lost":[["Himilco","2 Reg Sp(O)"]]}"#,
    r#"{"type":"exit_map","side":"carthage","counter":"Mago"}"#,
    r#"{"type":"switch_sides","side":"syracuse","to":"carthage"}"#,
    r#"{"type":"rename_campaign","name":"Himera"}"#,
    r#"{"type":"begin_play"}"#,
];

/// X-06: the orders the fuzzing changes are of every type each engine has, and each reads
/// as an order of its engine before it is changed: an order type added later is thrown at
/// the command line with the others.
#[test]
fn x_06_the_fuzzed_orders_are_every_order_type_of_each_engine() {
    use referee_campaign::fixtures::order_kinds;
    use referee_campaign::{belisarius::order::Order as BelisariusOrder, magna_graecia::order::Order as MagnaGraeciaOrder};
    let kinds = |orders: &[&str]| -> std::collections::BTreeSet<String> {
        orders.iter().map(|o| serde_json::from_str::<Value>(o).unwrap()["type"].as_str().unwrap().to_owned()).collect()
    };
    for order in ORDERS {
        serde_json::from_str::<MagnaGraeciaOrder>(order).unwrap_or_else(|e| panic!("{order}: {e}"));
    }
    for order in AFRICA_ORDERS {
        serde_json::from_str::<BelisariusOrder>(order).unwrap_or_else(|e| panic!("{order}: {e}"));
    }
    assert_eq!(kinds(ORDERS), order_kinds::<MagnaGraeciaOrder>(), "Magna Graecia");
    assert_eq!(kinds(AFRICA_ORDERS), order_kinds::<BelisariusOrder>(), "Belisarius");
}

/// Every place in a JSON value, as a list of keys and indices.
fn places(value: &Value, at: &mut Vec<Vec<Value>>, path: &mut Vec<Value>) {
    at.push(path.clone());
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(Value::from(i));
                places(v, at, path);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                path.push(Value::String(k.clone()));
                places(v, at, path);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(value: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(value, |v, key| match key {
        Value::String(k) => &mut v[k.as_str()],
        _ => &mut v[usize::try_from(key.as_u64().unwrap_or(0)).unwrap_or(0)],
    })
}

/// A valid-looking order with one place changed: replaced by any value, given an unknown
/// field, or taken out.
fn mutated() -> impl Strategy<Value = String> {
    mutated_from(ORDERS, json())
}

/// One of `orders` with one place changed: replaced by one of `values`, given an unknown
/// field, or taken out.
fn mutated_from(orders: &'static [&'static str], values: impl Strategy<Value = Value>) -> impl Strategy<Value = String> {
    (0..orders.len(), any::<prop::sample::Index>(), 0..3u8, values, "[a-z_]{1,8}").prop_map(|(i, place, how, new, key)| {
        let mut order: Value = serde_json::from_str(orders[i]).unwrap();
        let mut all = Vec::new();
        places(&order, &mut all, &mut Vec::new());
        let path = all[place.index(all.len())].clone();
        match how {
            0 => *at_mut(&mut order, &path) = new,
            1 => {
                if let Value::Object(map) = at_mut(&mut order, &path) {
                    map.insert(key, new);
                }
            }
            _ => {
                if let (Some(Value::String(last)), Some(parent)) = (path.last(), path.split_last().map(|(_, p)| p))
                    && let Value::Object(map) = at_mut(&mut order, parent)
                {
                    map.remove(last);
                }
            }
        }
        order.to_string()
    })
}

fn arg() -> impl Strategy<Value = String> {
    let args: Vec<&str> = ARGS.split(' ').collect();
    prop_oneof![args.len() as u32 => one_of(args), 1 => "[ -~]{0,10}"]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn x_06_any_json_order(value in json()) {
        run(&["order", "F", &value.to_string()])?;
    }

    #[test]
    fn x_06_orders_with_a_field_changed(order in mutated()) {
        run(&["order", "F", &order])?;
        run(&["order", "F", &format!("[{{\"type\":\"add_note\",\"text\":\"first\"}},{order}]")])?;
    }

    #[test]
    fn x_06_any_result_file(value in prop_oneof![json(), mutated().prop_map(|o| {
        let v: Value = serde_json::from_str(&o).unwrap();
        v.get("result").cloned().unwrap_or(v)
    })]) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("result.json");
        std::fs::write(&file, value.to_string()).unwrap();
        run(&["result", "F", "1", "--file", file.to_str().unwrap()])?;
    }

    #[test]
    fn x_06_any_hex_result_file(
        value in prop_oneof![
            json(),
            (prop::sample::select(vec!["carthage", "syracuse", "rome", ""]), any::<u32>(), any::<u8>(), 0u32..30, any::<bool>())
                .prop_map(|(side, big, steps, counter, won)| {
                    let outcome = if won { r#"{"kind":"won","winner":"carthage"}"# } else { r#"{"kind":"no_result"}"# };
                    let lost = format!(r#"[{{"counter":{counter},"steps":{steps}}},{{"counter":{big}}}]"#);
                    serde_json::from_str(&format!(r#"{{"outcome":{outcome},"sides":[{{"side":"{side}","lost":{lost}}}]}}"#)).unwrap()
                }),
        ],
        system in prop::sample::select(vec!["ars-bellum", "a-la-charge"]),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("hex.json");
        std::fs::write(&file, value.to_string()).unwrap();
        run(&["result", "F", "1", "--file", file.to_str().unwrap(), "--system", system])?;
    }

    #[test]
    fn x_06_any_roll(dice in "[0-9d]{0,6}", purpose in ".{0,8}", modifiers in prop::collection::vec("[-+]?[0-9]{0,11}:?.{0,4}", 0..3),
                     values in prop::collection::vec(0u16..400, 0..4), secret in any::<bool>()) {
        let mut args = vec!["roll".to_owned(), "F".to_owned(), dice, "--purpose".to_owned(), purpose];
        for m in modifiers {
            args.push(format!("--modifier={m}"));
        }
        for v in values {
            args.push(format!("--value={v}"));
        }
        if secret {
            args.push("--secret".to_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&args)?;
    }

    #[test]
    fn x_06_any_roster_file(text in prop_oneof![
        ".{0,80}",
        (0..6usize, "[ -~]{0,12}").prop_map(|(line, junk)| {
            let mut lines: Vec<String> = ROSTER.lines().map(str::to_owned).collect();
            let i = line % lines.len();
            lines[i] = junk;
            lines.join("\n")
        }),
    ]) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("roster.toml");
        std::fs::write(&file, text).unwrap();
        run(&["roster", "F", "--import", file.to_str().unwrap()])?;
    }

    #[test]
    fn x_06_any_argument_list(command in prop_oneof![Just("order"), Just("result"), Just("roll"), Just("roster"), Just("table"), Just("undo")],
                              args in prop::collection::vec(arg(), 0..7)) {
        let mut all = vec![command];
        all.extend(args.iter().map(String::as_str).filter(|a| *a != "-"));
        run(&all)?;
    }
}

const ROSTER: &str = r#"side = "carthage"
list = "Later Carthaginian"
[[command]]
name = "Himilco"
rank = "c-in-c"
general = "Reg Cv(O)"
elements = ["8 Reg Sp(O)", "4 Reg Ps(O)"]"#;

/// The moments of Belisarius campaign "Africa" (seed 5) at which its orders are refused for
/// different reasons, each database built once: in set-up; begun; in operations with
/// Belisarius activated; at a contact, the Vandals to intercept or decline; in a battle; the
/// battle at the table; a siege laid; an assault whose losses are owed; the turn's events and
/// supply played, the operations to begin.
fn africa() -> &'static [Vec<u8>] {
    static MOMENTS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    MOMENTS.get_or_init(|| {
        fn besieged(db: &TempDb) {
            africa_marched(db, "proconsularis");
            cli(&db.path, &["order", "Africa", r#"{"type":"besiege","side":"byzantines","leader":"belisarius"}"#]).ok();
        }
        let moments: [fn(&TempDb); 9] = [
            |db| {
                cli(&db.path, &["new", "africa-533", "--name", "Africa", "--seed", "5"]).ok();
            },
            |db| africa_begun(db, "5"),
            |db| {
                africa_in_operations(db, "5");
                cli(&db.path, &["order", "Africa", r#"{"type":"activate","side":"byzantines","leader":"belisarius"}"#]).ok();
            },
            |db| africa_marched(db, "byzacium-south"),
            africa_battle,
            |db| {
                africa_battle(db);
                cli(&db.path, &["order", "Africa", r#"{"type":"send_to_table"}"#]).ok();
            },
            besieged,
            |db| {
                besieged(db);
                cli(&db.path, &["order", "Africa", r#"{"type":"assault","side":"byzantines","leader":"belisarius"}"#, "--value", "3,3"])
                    .ok();
            },
            |db| {
                africa_begun(db, "5");
                cli(&db.path, &["order", "Africa", r#"{"type":"events"}"#, "--value", "3,4"]).ok();
                cli(&db.path, &["order", "Africa", r#"{"type":"supply"}"#, "--value", "1"]).ok();
            },
        ];
        moments
            .iter()
            .map(|make| {
                let db = TempDb::new();
                make(&db);
                db.bytes()
            })
            .collect()
    })
}

/// The umpire's logs, as `log --json` prints them, of the campaign at Himera's battle and of
/// Africa in battle: the files `import` takes.
fn logs() -> &'static [Value] {
    static LOGS: OnceLock<Vec<Value>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let printed = |bytes: &[u8], name: &str| {
            let db = TempDb::new();
            std::fs::write(&db.path, bytes).unwrap();
            serde_json::from_str(&cli(&db.path, &["log", name, "--json"]).ok()).unwrap()
        };
        vec![printed(template(), "F"), printed(&africa()[IN_BATTLE], "Africa")]
    })
}

/// Which of [`africa`]'s moments.
const IN_BATTLE: usize = 4;
const AT_THE_TABLE: usize = 5;
const SUPPLIED: usize = 8;

/// Every Belisarius order type, in Africa's names where it has them, to be changed by
/// [`mutated_from`]; those of Italy's scenarios alone (raising troops, the Franks) are
/// refused here for what they are.
const AFRICA_ORDERS: &[&str] = &[
    r#"{"type":"place","side":"byzantines","line":1,"at":"mare-africum","leaders":["bessas"],"units":[1,2,3]}"#,
    r#"{"type":"begin_play"}"#,
    r#"{"type":"events"}"#,
    r#"{"type":"supply"}"#,
    r#"{"type":"reinforcements"}"#,
    r#"{"type":"raise","side":"vandals","at":"zeugitana","units":["1A","1B","[1]D"]}"#,
    r#"{"type":"place_reinforcements","side":"byzantines","at":"carthago"}"#,
    r#"{"type":"begin_operations"}"#,
    r#"{"type":"reorganise","side":"byzantines","from":"belisarius","to":"bessas","units":[5,6]}"#,
    r#"{"type":"activate","side":"byzantines","leader":"belisarius","with":["ildiger"]}"#,
    r#"{"type":"activate_and_move","side":"vandals","leader":"ammatas","path":["byzacium-north"]}"#,
    r#"{"type":"move","side":"byzantines","leader":"belisarius","path":["byzacium-south"],"attrition_from":[4]}"#,
    r#"{"type":"pick_up","side":"byzantines","leader":"belisarius","leaders":["iohannes"]}"#,
    r#"{"type":"drop","side":"byzantines","leader":"belisarius","units":[14],"leaders":["ildiger"]}"#,
    r#"{"type":"shift","side":"byzantines","leader":"belisarius","into_city":true}"#,
    r#"{"type":"scorch_earth","side":"byzantines","leader":"belisarius"}"#,
    r#"{"type":"return_decoy","side":"byzantines","at":"byzacium-south"}"#,
    r#"{"type":"pass","side":"byzantines"}"#,
    r#"{"type":"end_turn"}"#,
    r#"{"type":"intercept","side":"vandals","leaders":["gelimer"],"target":1,"reconnaissance":true}"#,
    r#"{"type":"decline","side":"vandals"}"#,
    r#"{"type":"agree_to_battle","side":"vandals"}"#,
    r#"{"type":"reconnoitre","side":"vandals","zone":"byzacium-north","marker":1}"#,
    r#"{"type":"fight"}"#,
    r#"{"type":"take_losses","side":"vandals","losses":[[1,2],[2,2],[5,2]]}"#,
    r#"{"type":"break_off","side":"vandals"}"#,
    r#"{"type":"part"}"#,
    r#"{"type":"retreat","side":"vandals","to":"tripolitania"}"#,
    r#"{"type":"send_to_table"}"#,
    r#"{"type":"record_battle","result":{"losses":{"vandals":[[1,2]],"byzantines":[[1,1]]},"broke_off":"vandals","retreat":"tripolitania"}}"#,
    r#"{"type":"besiege","side":"byzantines","leader":"belisarius"}"#,
    r#"{"type":"assault","side":"byzantines","leader":"belisarius","ships":["fleet-byzantines-1"]}"#,
    r#"{"type":"build_works","side":"byzantines","leader":"belisarius","works":"siege","count":2}"#,
    r#"{"type":"destroy_fortifications","side":"byzantines","leader":"belisarius"}"#,
    r#"{"type":"treachery","side":"byzantines","leader":"belisarius"}"#,
    r#"{"type":"sortie","side":"vandals","leader":"gibamund","units":[1,2]}"#,
    r#"{"type":"answer_sortie","side":"byzantines","units":[[1,4]]}"#,
    r#"{"type":"relieve","side":"vandals"}"#,
    r#"{"type":"hold_lines","side":"byzantines","fight":["belisarius"]}"#,
    r#"{"type":"sail","side":"vandals","ships":["fleet-vandals-1"],"path":["mare-sardoum"]}"#,
    r#"{"type":"intercept_at_sea","side":"vandals","ships":["fleet-vandals-1"]}"#,
    r#"{"type":"let_pass","side":"vandals"}"#,
    r#"{"type":"fight_at_sea"}"#,
    r#"{"type":"retire_at_sea","side":"vandals","to":"tyrrhenum-south"}"#,
    r#"{"type":"embark","side":"byzantines","leader":"bessas","ships":["fleet-byzantines-1"]}"#,
    r#"{"type":"land","side":"byzantines","leader":"bessas","at":"byzacium-north"}"#,
    r#"{"type":"frankish_intervention","side":"byzantines"}"#,
    r#"{"type":"franks_march","side":"byzantines"}"#,
    r#"{"type":"roll_dice","dice":{"count":1,"sides":6},"purpose":"the mood in Carthago"}"#,
    r#"{"type":"add_note","text":"Gelimer is short of grain"}"#,
    r#"{"type":"rename_campaign","name":"The Vandal War"}"#,
];

/// The names Africa's orders take, right and wrong ones, and the sides.
const AFRICA_WORDS: &[&str] = &[
    "byzantines",
    "vandals",
    "ostrogoths",
    "belisarius",
    "bessas",
    "iohannes",
    "ildiger",
    "gelimer",
    "ammatas",
    "gibamund",
    "tzazon",
    "byzacium-north",
    "byzacium-south",
    "tripolitania",
    "zeugitana",
    "proconsularis",
    "hadrumetum",
    "carthago",
    "mare-africum",
    "mare-sardoum",
    "latium",
    "fleet-byzantines-1",
    "fleet-vandals-1",
    "siege",
    "defence",
    "ap-i",
    "",
];

/// What a changed place of a Belisarius order becomes: any JSON, one of Africa's names, or
/// a number near the limits of a unit's, a line's or a marker's.
fn africa_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => json(),
        2 => one_of(AFRICA_WORDS.to_vec()).prop_map(Value::String),
        1 => prop::sample::select(vec![0i64, 1, 2, 6, 7, 14, 24, 25, 255, 256, i64::from(u32::MAX), -1]).prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn x_06_belisarius_orders_with_a_field_changed(
        moment in any::<prop::sample::Index>(),
        order in mutated_from(AFRICA_ORDERS, africa_value()),
        // Given by the referee, by the referee with dice typed in, or by a side (who types none).
        given in prop_oneof![
            Just(vec![]),
            prop::sample::select(vec!["1", "6", "0", "7", "3,4", "1,1,1,1,1,1,1,1,1", "99999999999"]).prop_map(|d| vec!["--value", d]),
            prop::sample::select(vec!["byzantines", "vandals"]).prop_map(|side| vec!["--as", side]),
        ],
    ) {
        let moments = africa();
        let mut args = vec!["order", "Africa", &order];
        args.extend(given);
        run_on(&moments[moment.index(moments.len())], &args)?;
    }

    #[test]
    fn x_06_any_belisarius_result_file(
        value in prop_oneof![
            json(),
            (prop::collection::btree_map(one_of(AFRICA_WORDS.to_vec()), prop::collection::vec((0u32..30, 0u8..12), 0..4), 0..3),
             prop::option::of(one_of(AFRICA_WORDS.to_vec())), prop::option::of(one_of(AFRICA_WORDS.to_vec())))
                .prop_map(|(losses, broke_off, retreat)| {
                    let mut result = serde_json::json!({ "losses": losses });
                    if let Some(side) = broke_off {
                        result["broke_off"] = Value::String(side);
                    }
                    if let Some(zone) = retreat {
                        result["retreat"] = Value::String(zone);
                    }
                    result
                }),
            (one_of(AFRICA_WORDS.to_vec()), prop::collection::vec((0u32..30, any::<u8>()), 0..4), any::<bool>()).prop_map(|(side, lost, won)| {
                let outcome = if won { serde_json::json!({"kind": "won", "winner": "byzantines"}) } else { serde_json::json!({"kind": "no_result"}) };
                let lost: Vec<Value> = lost.into_iter().map(|(counter, steps)| serde_json::json!({"counter": counter, "steps": steps})).collect();
                serde_json::json!({"outcome": outcome, "sides": [{"side": side, "lost": lost}]})
            }),
        ],
        table in prop::option::of((prop::sample::select(vec!["ars-bellum", "a-la-charge"]), prop::option::of(one_of(AFRICA_WORDS.to_vec())))),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("result.json");
        std::fs::write(&file, value.to_string()).unwrap();
        let mut args = vec!["result".to_owned(), "Africa".to_owned(), "1".to_owned(), "--file".to_owned(), file.to_str().unwrap().to_owned()];
        if let Some((system, retreat)) = table {
            args.extend(["--system".to_owned(), system.to_owned()]);
            if let Some(zone) = retreat {
                args.extend(["--retreat".to_owned(), zone]);
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // The battle at the table, and the battle fought here, which takes no result file.
        run_on(&africa()[AT_THE_TABLE], &args)?;
        run_on(&africa()[IN_BATTLE], &args)?;
    }

    #[test]
    fn x_06_any_chits_and_dice_for_the_operations(
        chits in prop::collection::vec(prop_oneof![4 => one_of(vec!["ap-a", "ap-d", "ap-i", "ap-z", ""]), 1 => "[ -~]{0,6}"], 0..4),
        values in prop::collection::vec(prop_oneof![4 => 0u16..8, 1 => 0u16..400], 0..4),
    ) {
        let mut args = vec!["order".to_owned(), "Africa".to_owned(), r#"{"type":"begin_operations"}"#.to_owned()];
        if !chits.is_empty() {
            args.extend(["--chit".to_owned(), chits.join(",")]);
        }
        for v in values {
            args.push(format!("--value={v}"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_on(&africa()[SUPPLIED], &args)?;
    }
}

proptest! {
    // Each case replays a whole campaign: fewer of them.
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// Events to import with one place of one event changed (the start's included), or one
    /// event dropped or given twice: the import takes them or refuses them in one line.
    #[test]
    fn x_06_any_events_to_import(
        log in any::<prop::sample::Index>(),
        event in any::<prop::sample::Index>(),
        place in any::<prop::sample::Index>(),
        how in 0..5u8,
        new in prop_oneof![json(), africa_value()],
    ) {
        let logs = logs();
        let mut events = logs[log.index(logs.len())].as_array().unwrap().clone();
        let i = event.index(events.len());
        match how {
            0 => {
                events.remove(i);
            }
            1 => events.insert(i, events[i].clone()),
            _ => {
                let mut all = Vec::new();
                places(&events[i]["event"], &mut all, &mut Vec::new());
                let path = all[place.index(all.len())].clone();
                *at_mut(&mut events[i]["event"], &path) = new;
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("events.json");
        std::fs::write(&file, Value::Array(events).to_string()).unwrap();
        run(&["import", file.to_str().unwrap(), "--name", "I"])?;
    }
}
