//! X-06: arbitrary input thrown at the command line's writing commands — JSON values and
//! orders with fields changed, result files (a hex game's counters lost among them), dice and
//! modifiers, roster files, and argument lists of any shape. Nothing panics, every refusal is one line, and a refused command
//! leaves the database byte for byte as it was.

use std::sync::OnceLock;

use proptest::prelude::*;
use referee_e2e::{TempDb, cli, himera_db};
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
    let db = TempDb::new();
    std::fs::write(&db.path, template()).unwrap();
    let mut all = vec!["--db", db.path.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = cli(&db.path, args);
    if run.code != 0 {
        prop_assert_eq!(run.stderr.lines().count(), 1, "{:?}: not one line: {}", all, run.stderr);
        prop_assert!(db.bytes() == template(), "{:?} was refused ({}) but changed the database", all, run.stderr.trim());
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
];

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
    (0..ORDERS.len(), any::<prop::sample::Index>(), 0..3u8, json(), "[a-z_]{1,8}").prop_map(|(i, place, how, new, key)| {
        let mut order: Value = serde_json::from_str(ORDERS[i]).unwrap();
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
