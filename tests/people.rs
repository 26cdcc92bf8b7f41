//! X-06: a command line for people: the map listed with its ids, `show` ending with the
//! orders the rules expect now (ready to edit, and taken as they are), what is owed, and a
//! refused id answered with the nearest ones.

use referee_e2e::{TempDb, cli};

/// The JSON lines of `show`'s **Next:**, after the caption `who`.
fn next_orders(shown: &str, who: &str) -> Vec<String> {
    let next = shown.split("\nNext:\n").nth(1).unwrap_or_else(|| panic!("show ends with Next:\n{shown}"));
    let mut lines = next.lines().skip_while(|l| !l.trim_start().starts_with(who));
    lines.next().unwrap_or_else(|| panic!("no `{who}` in Next:\n{next}"));
    lines.take_while(|l| l.starts_with("    ")).map(|l| l.trim().to_owned()).collect()
}

/// X-06, MG-02, MG-09, MG-11: `show` ends with what the rules expect of the viewer — in
/// set-up, each side's deployments and the referee's `begin_play`; in movement, the moving
/// side's moves and the end of its phase — and each line is an order the program takes as it
/// stands.
#[test]
fn x_06_show_ends_with_the_orders_the_rules_expect_of_the_viewer() {
    let db = TempDb::new();
    cli(&db.path, &["new", "dionysian", "--name", "Next", "--seed", "9"]).ok();
    let shown = cli(&db.path, &["show", "Next"]).ok();
    assert!(!shown.contains("The referee begins play"), "not before every side has deployed: {shown}");
    let carthage = cli(&db.path, &["show", "Next", "--as", "carthage"]).ok();
    assert!(
        !carthage.contains("Syracuse deploys its counters") && !carthage.contains("The referee begins play"),
        "a side reads its own orders: {carthage}"
    );
    for side in ["carthage", "syracuse"] {
        let shown = cli(&db.path, &["show", "Next", "--as", side]).ok();
        let orders = next_orders(&shown, if side == "carthage" { "Carthage deploys" } else { "Syracuse deploys" });
        assert_eq!(orders.len(), 5, "four commands and a fleet: {orders:?}");
        for order in orders {
            cli(&db.path, &["order", "Next", "--as", side, &order]).ok();
        }
    }
    let shown = cli(&db.path, &["show", "Next"]).ok();
    assert_eq!(next_orders(&shown, "The referee begins play"), [r#"{"type":"begin_play"}"#], "{shown}");
    cli(&db.path, &["order", "Next", r#"{"type":"begin_play"}"#]).ok();
    let shown = cli(&db.path, &["show", "Next", "--as", "carthage"]).ok();
    let orders = next_orders(&shown, "Carthage moves its counters");
    assert!(orders.iter().any(|o| o.contains(r#""type":"move""#)), "{orders:?}");
    assert_eq!(orders.last().unwrap(), r#"{"type":"end_phase","side":"carthage"}"#);
    cli(&db.path, &["order", "Next", "--as", "carthage", &orders[0]]).ok();
    cli(&db.path, &["show", "Next", "--as", "syracuse"]).ok_saying("Carthage is to move; Syracuse waits");
}

/// X-06, MG-15: a beaten command's retreat is owed in `show`'s text, with where it may go, and
/// its order is among the next.
#[test]
fn mg_15_show_says_which_retreat_is_owed_and_where_it_may_go() {
    let db = referee_e2e::himera_db("Due");
    cli(&db.path, &["table", "Due", "1", "--defence", "central"]).ok();
    let file = db.folder().join("result.json");
    std::fs::write(&file, r#"{"outcome":{"kind":"won","winner":"carthage"},"losses":[]}"#).unwrap();
    cli(&db.path, &["result", "Due", "1", "--file", file.to_str().unwrap()]).ok();
    cli(&db.path, &["order", "Due", r#"{"type":"end_phase","side":"carthage"}"#]).ok();
    let shown = cli(&db.path, &["show", "Due", "--as", "syracuse"])
        .ok_saying("Syracuse: Leptines owes a retreat, to 09 Cephaloedium or 10 Petra (MG-15)");
    let orders = next_orders(&shown, "Syracuse retreats");
    cli(&db.path, &["order", "Due", "--as", "syracuse", &orders[0]]).ok();
    let shown = cli(&db.path, &["show", "Due", "--as", "syracuse"]).ok();
    assert!(!shown.contains("owes a retreat"), "{shown}");
}

/// X-06, BE-04 … BE-06, BE-41: in Belisarius the referee reads which phase to play next; a
/// side owing supply losses reads the order with a share suggested, which the rules take; in
/// the operations the side in its segment reads its leaders to activate, the other that it
/// waits.
#[test]
fn x_06_belisarius_show_ends_with_the_orders_the_rules_expect() {
    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Next", "--seed", "5"]).ok();
    let shown = cli(&db.path, &["show", "Next", "--as", "byzantines"]).ok();
    let place = next_orders(&shown, "The Byzantines place their set-up lines");
    assert_eq!(place, [r#"{"type":"place","side":"byzantines","line":1,"at":"<place>"}"#], "{shown}");
    cli(&db.path, &["order", "Next", &place[0].replace("<place>", "mare-africum")]).ok();
    for phase in ["begin_play", "events", "supply"] {
        let shown = cli(&db.path, &["show", "Next"]).ok();
        if phase != "begin_play" {
            assert_eq!(next_orders(&shown, "The referee plays")[0], format!(r#"{{"type":"{phase}"}}"#), "{shown}");
        }
        cli(&db.path, &["order", "Next", &format!(r#"{{"type":"{phase}"}}"#)]).ok();
    }
    let vandals = cli(&db.path, &["show", "Next", "--as", "vandals"]).ok();
    let losses = next_orders(&vandals, "The Vandals share out the losses they owe");
    cli(&db.path, &["order", "Next", "--as", "vandals", &losses[0]]).ok();
    let shown = cli(&db.path, &["show", "Next"]).ok();
    cli(&db.path, &["order", "Next", &next_orders(&shown, "The referee begins the operations")[0]]).ok();
    let byzantines = cli(&db.path, &["show", "Next", "--as", "byzantines"]).ok();
    let orders = next_orders(&byzantines, "The Byzantines activate a leader, or pass");
    assert!(orders.iter().any(|o| o.contains(r#""type":"activate""#)) && orders.last().unwrap().contains(r#""type":"pass""#), "{orders:?}");
    cli(&db.path, &["show", "Next", "--as", "vandals"]).ok_saying("The Byzantines are in their segment; you wait");
}

/// X-06, BE-01, MG-01: `map` lists every place with the ids orders name: Belisarius's zones
/// with terrain, city, port, coast and neighbours, and its seas; Magna Graecia's nodes with
/// their paths; who holds each as the viewer sees it.
#[test]
fn x_06_map_lists_every_place_with_its_neighbours() {
    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Zones", "--seed", "5"]).ok();
    let text = cli(&db.path, &["map", "Zones", "--as", "vandals"]).ok_saying("tripolitania — Tripolitania, plain, held by the Vandals");
    assert!(text.contains("    city leptis-magna — Leptis Magna (1/1, port), held by the Vandals"), "{text}");
    assert!(text.contains("    next to byzacium-south\n"), "{text}");
    let json = cli(&db.path, &["--json", "map", "Zones"]).json();
    assert_eq!(json["zones"].as_array().unwrap().len(), 43, "{json}");
    assert!(json["seas"].as_array().unwrap().iter().any(|s| s["id"] == "mare-africum"), "{json}");

    cli(&db.path, &["new", "dionysian", "--name", "Nodes", "--seed", "9"]).ok();
    let text = cli(&db.path, &["map", "Nodes"]).ok_saying("00 Motya (coastal, walled, 0 commands, capital of Carthage, held by Carthage)");
    assert!(text.contains("    paths to 00 Motya, 05 Mazara\n"), "{text}");
}

/// X-06, MG-02, BE-10, BE-33: a refused id lists the nearest ids there are; a deployment
/// outside the side's area lists where it may deploy.
#[test]
fn x_06_a_refused_id_names_the_nearest_and_a_refused_place_where_it_may_go() {
    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Near", "--seed", "5"]).ok();
    cli(&db.path, &["order", "Near", r#"{"type":"place","side":"byzantines","line":1,"at":"mare-afrikum"}"#])
        .refused_saying("`mare-afrikum` is no zone, city or sea zone of the map; did you mean `mare-africum`?");
    cli(&db.path, &["order", "Near", r#"{"type":"place","side":"byzantines","line":1,"at":"African Sea"}"#])
        .refused_saying("did you mean `mare-africum`?");
    cli(&db.path, &["new", "dionysian", "--name", "Deploy", "--seed", "9"]).ok();
    let line = cli(&db.path, &["order", "Deploy", r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":31}"#]).refused();
    assert!(
        line.contains("Carthage may not deploy at 31 Syracuse; Himilco may deploy at 00 Motya, 01 Lilybaeum, 02 Drepanum, 03 Segesta, 04 Panormus — MG-02"),
        "{line}"
    );
}

/// BE-06, BE-07, BE-10, BE-53: an activation and its march may be one order, with the same
/// dice and the same story as the two orders, and the other side reads nothing more of it.
#[test]
fn be_06_an_activation_and_its_march_may_be_one_order() {
    let [two, one] = [TempDb::new(), TempDb::new()];
    for db in [&two, &one] {
        cli(&db.path, &["new", "africa-533", "--name", "March", "--seed", "5"]).ok();
        for order in [
            r#"{"type":"place","side":"byzantines","line":1,"at":"mare-africum"}"#,
            r#"{"type":"begin_play"}"#,
            r#"{"type":"events"}"#,
            r#"{"type":"supply"}"#,
            r#"{"type":"take_losses","side":"vandals","losses":[[5,2],[6,2]]}"#,
            r#"{"type":"begin_operations"}"#,
        ] {
            cli(&db.path, &["order", "March", order]).ok();
        }
    }
    cli(&two.path, &["order", "March", r#"{"type":"activate","side":"byzantines","leader":"belisarius"}"#]).ok();
    cli(&two.path, &["order", "March", r#"{"type":"move","side":"byzantines","leader":"belisarius","path":["byzacium-south"]}"#]).ok();
    let out = cli(
        &one.path,
        &[
            "order",
            "March",
            "--as",
            "byzantines",
            r#"{"type":"activate_and_move","side":"byzantines","leader":"belisarius","path":["byzacium-south"]}"#,
        ],
    )
    .ok();
    assert!(out.contains("Belisarius halts at Southern Byzacium"), "{out}");
    for args in
        [vec!["log", "March"], vec!["log", "March", "--as", "vandals"], vec!["show", "March", "--as", "vandals"], vec!["show", "March"]]
    {
        assert_eq!(cli(&two.path, &args).ok(), cli(&one.path, &args).ok(), "{args:?}");
    }
    // Refused as the activation would be, with nothing stored: the contact waits for the
    // Vandals' answer.
    let before = one.bytes();
    let line =
        cli(&one.path, &["order", "March", r#"{"type":"activate_and_move","side":"vandals","leader":"gelimer","path":["tripolitania"]}"#])
            .refused();
    assert!(line.contains("the Vandals first intercept or decline — BE-13"), "{line}");
    assert_eq!(one.bytes(), before);
}

/// X-06, BE-08, BE-11: a side's roster names each leader, decoy and ship by the id orders take,
/// and numbers each box's units as `reorganise`, `drop` and a march's `attrition_from` count
/// them.
#[test]
fn x_06_a_belisarius_roster_numbers_what_orders_name() {
    let db = TempDb::new();
    cli(&db.path, &["new", "africa-533", "--name", "Roster", "--seed", "5"]).ok();
    let roster = cli(&db.path, &["roster", "Roster", "--as", "byzantines"])
        .ok_saying("Belisarius, commander-in-chief (strategic 8, tactical 3, rank 5) [belisarius]");
    assert!(roster.contains("    units by number: 1. 1*A cataphracts, 2. 1*A cataphracts"), "{roster}");
    assert!(roster.contains("decoy [decoy-byzantines-1]"), "{roster}");
    assert!(!roster.contains("[gelimer]"), "a side's roster is its own: {roster}");
}
