//! Play by e-mail through packets (X-06, X-01): the referee writes each side a packet, its
//! player plans orders from it with nothing but what the side knows and sends an orders file,
//! and the referee takes it in. The referee types no order of a side's by hand.

use std::path::{Path, PathBuf};

use referee_campaign::fixtures::DIONYSIAN;
use referee_e2e::{TempDb, cli, player};

/// A referee's folder of packets and orders files for one campaign.
struct Mail {
    db: TempDb,
    dir: tempfile::TempDir,
    name: &'static str,
    /// Every command the referee typed, for the count the note reports.
    referee: std::cell::RefCell<Vec<String>>,
}

impl Mail {
    fn new(name: &'static str, scenario: &str, seed: &str) -> Mail {
        let mail = Mail { db: TempDb::new(), dir: tempfile::tempdir().unwrap(), name, referee: Default::default() };
        mail.referee(&["new", scenario, "--name", name, "--seed", seed]);
        mail
    }

    /// A command the referee types.
    fn referee(&self, args: &[&str]) -> String {
        self.referee.borrow_mut().push(args.join(" "));
        cli(&self.db.path, args).ok()
    }

    /// Writes `side` its packet into the folder, under its own name, which the line of the
    /// side's log it stands at tells from an earlier exchange's (one written again at the same
    /// line replaces it).
    fn packet(&self, side: &str) -> PathBuf {
        let out = self.referee(&["packet", self.name, "--as", side, "--out", self.dir.path().to_str().unwrap(), "--overwrite"]);
        let path = out.strip_prefix("Wrote ").and_then(|rest| rest.split(" (").next()).unwrap();
        assert!(out.contains(&format!("referee --packet {path}")), "{out}");
        PathBuf::from(path)
    }

    /// The player of `packet` plans `orders`, each checked as far as the side knows, and
    /// sends them: the orders file's path.
    fn plan(&self, packet: &Path, orders: &[String]) -> PathBuf {
        for order in orders {
            let out = player(packet, &["order", order]).ok();
            assert!(out.starts_with("Planned "), "{order}: {out}");
        }
        let written = player(packet, &["orders", "--out", self.dir.path().to_str().unwrap()]).ok();
        let path = written.split_whitespace().nth(1).unwrap().trim_end_matches(',');
        PathBuf::from(path)
    }

    /// The referee takes in `side`'s orders file.
    fn take_in(&self, side: &str, file: &Path, extra: &[&str]) -> String {
        let mut args = vec!["order", self.name, "--as", side, "--file", file.to_str().unwrap()];
        args.extend(extra);
        self.referee(&args)
    }
}

fn deploy(side: &str) -> Vec<String> {
    DIONYSIAN
        .iter()
        .filter(|(s, _, _)| *s == side)
        .map(|(s, counter, node)| format!(r#"{{"type":"deploy","side":"{s}","counter":"{counter}","node":{node}}}"#))
        .collect()
}

/// X-06: the Dionysian War's set-up and first turn by e-mail. Both sides deploy from their
/// packets; Carthage marches Himilco onto Himera from its own; the battle is fought on the
/// table and its result typed in by the referee; Syracuse ends its phase from a packet. The
/// referee types no side's order.
#[test]
fn x_06_a_magna_graecia_turn_goes_by_email_through_packets() {
    let mail = Mail::new("By Mail", "dionysian", "9");
    let (carthage, syracuse) = (mail.packet("carthage"), mail.packet("syracuse"));
    let carthage_orders = mail.plan(&carthage, &deploy("carthage"));
    assert!(carthage.ends_with("by-mail-turn-01-side-carthage-line-1.packet"), "{}", carthage.display());
    assert!(carthage_orders.ends_with("orders-carthage-turn1-line1.json"), "{}", carthage_orders.display());
    // A folder named with a separator at its end is made; the file is not replaced unasked.
    let sent = format!("{}/sent/", mail.dir.path().display());
    player(&carthage, &["orders", "--out", &sent]).ok_saying("orders-carthage-turn1-line1.json");
    player(&carthage, &["orders", "--out", &sent]).refused_saying("is there already, written from this packet before; give --overwrite");
    let syracuse_orders = mail.plan(&syracuse, &deploy("syracuse"));
    let out = mail.take_in("carthage", &carthage_orders, &[]);
    assert!(out.contains("Carthage deploys Himilco at Panormus"), "{out}");
    // Both sides deployed from the same moment; Carthage's counters, now on the map, are in
    // Syracuse's log, so its orders answer a log that has moved on. The referee is told so,
    // nothing is applied, and the deployment is taken in all the same, as set-up allows.
    cli(&mail.db.path, &["order", mail.name, "--as", "syracuse", "--file", syracuse_orders.to_str().unwrap()])
        .refused_saying("Syracuse's log has moved on since the packet these orders answer");
    let out = mail.take_in("syracuse", &syracuse_orders, &["--anyway"]);
    assert!(out.contains("Syracuse deploys Leptines at Himera"), "{out}");
    mail.referee(&["order", mail.name, r#"{"type":"begin_play"}"#]);

    // Turn 1: Carthage moves first (MG-09). Its new packet lies beside the set-up one.
    let set_up = carthage;
    let carthage = mail.packet("carthage");
    assert!(set_up.exists() && carthage != set_up, "{}", carthage.display());
    player(&carthage, &["show"]).ok_saying("Carthage to move (movement)");
    player(&carthage, &["roster"]).ok_saying("Himilco");
    let orders = mail.plan(
        &carthage,
        &[
            r#"{"type":"move","side":"carthage","counter":"Himilco","path":[8]}"#.to_owned(),
            r#"{"type":"end_phase","side":"carthage"}"#.to_owned(),
        ],
    );
    // Next is the packet's, as it was written; `show` says the plan is not counted in it.
    let shown = player(&carthage, &["show"]).ok();
    assert!(shown.contains("Next, above, is what the packet's moment asks for: it does not count the plan's orders."), "{shown}");
    let out = mail.take_in("carthage", &orders, &[]);
    assert!(out.contains("Battle 1 at Himera: Carthage attacks Syracuse"), "{out}");

    // The battle on the table: the referee's own work.
    mail.referee(&["table", mail.name, "1", "--defence", "central"]);
    let result = mail.dir.path().join("result.json");
    std::fs::write(&result, r#"{"outcome":{"kind":"won","winner":"carthage"},"losses":[]}"#).unwrap();
    mail.referee(&["result", mail.name, "1", "--file", result.to_str().unwrap()]);

    // The rest of the turn goes back and forth by packets: Carthage ends its combat phase,
    // Syracuse retreats the beaten Leptines (MG-15), Carthage ends its post-combat movement,
    // and Syracuse plays its player-turn, which ends the campaign turn (MG-09).
    let end = |side: &str| format!(r#"{{"type":"end_phase","side":"{side}"}}"#);
    let orders = mail.plan(&mail.packet("carthage"), &[end("carthage")]);
    mail.take_in("carthage", &orders, &[]);
    let syracuse = mail.packet("syracuse");
    player(&syracuse, &["log"]).ok_saying("Battle 1 at Himera: Carthage wins");
    // MG-15: where Leptines may retreat is on Syracuse's own map, the counters all can see.
    player(&syracuse, &["order", r#"{"type":"retreat","side":"syracuse","counter":"Leptines","path":[25]}"#])
        .refused_saying("Leptines cannot retreat to 25 Megara Hyblaea; it may retreat to ");
    player(&syracuse, &["order", r#"{"type":"retreat","side":"syracuse","counter":"Leptines","path":[9]}"#])
        .ok_saying("checked as far as Syracuse can tell");
    let orders = mail.plan(&syracuse, &[]);
    let out = mail.take_in("syracuse", &orders, &[]);
    assert!(out.contains("Leptines"), "{out}");
    let orders = mail.plan(&mail.packet("carthage"), &[end("carthage")]);
    mail.take_in("carthage", &orders, &[]);
    // MG-09: a move planned after the side's movement phase is ended comes too late.
    let syracuse = mail.packet("syracuse");
    player(&syracuse, &["order", &end("syracuse")]).ok();
    player(&syracuse, &["order", r#"{"type":"move","side":"syracuse","counter":"Thearides","path":[21]}"#])
        .refused_saying("Thearides would move after Syracuse's movement phase ends, by an order planned before this one — MG-09");
    player(&syracuse, &["plan", "--drop", "1"]).ok();
    let orders = mail.plan(&syracuse, &[end("syracuse"), end("syracuse"), end("syracuse")]);
    mail.take_in("syracuse", &orders, &[]);
    let state = cli(&mail.db.path, &["--json", "show", mail.name]).json();
    assert_eq!(state["board"]["turn"], 2, "the first turn is over: {}", state["board"]);
    assert_eq!(state["board"]["moving"], "carthage", "{}", state["board"]);
    let typed = mail.referee.borrow();
    assert!(typed.iter().all(|c| !c.contains("\"side\"")), "the referee typed a side's order: {typed:?}");
}

/// X-06, X-01: the referee takes in an orders file only from the side it is from, for the
/// campaign it was made for, while the side's log stands where the packet left it; each
/// refusal is one sentence and leaves the database as it was. `--anyway` takes in a file
/// whose side's log has moved on.
#[test]
fn x_06_an_orders_file_is_taken_in_only_from_its_side_its_campaign_and_its_moment() {
    let mail = Mail::new("Mail", "dionysian", "9");
    let other = Mail::new("Other", "dionysian", "9");
    let before = mail.db.bytes();
    let out = mail.dir.path().join("rome.packet");
    cli(&mail.db.path, &["packet", "Mail", "--as", "rome", "--out", out.to_str().unwrap()])
        .refused_saying("the campaign has no side `rome`; its sides are carthage, syracuse");
    assert!(!out.exists(), "no packet for a side the campaign does not have");
    assert_eq!(mail.db.bytes(), before, "a refused packet leaves the database as it was");
    let carthage = mail.packet("carthage");
    let orders = mail.plan(&carthage, &deploy("carthage")[..2]);
    let before = mail.db.bytes();
    let file = orders.to_str().unwrap();
    for (args, expected) in [
        (vec!["order", "Mail", "--file", file], "an orders file is taken in as the side it is from: `--as carthage`"),
        (
            vec!["order", "Mail", "--as", "syracuse", "--file", file],
            "the orders file is from `carthage`, not from `syracuse` (Syracuse): it was made from the packet of Carthage; nothing was taken in",
        ),
        (vec!["order", "Mail", "--as", "rome", "--file", file], "the campaign has no side `rome`"),
    ] {
        mail.db.refuses(&args, expected);
    }
    // Another campaign of the same scenario and seed: its commitment is its own.
    let other_before = other.db.bytes();
    cli(&other.db.path, &["order", "Other", "--as", "carthage", "--file", file])
        .refused_saying("the orders file was made for another campaign (`Mail`), not for Other");
    assert_eq!(other.db.bytes(), other_before);
    // Another campaign of the same name: not "made for Mail, not for Mail".
    let twin = Mail::new("Mail", "dionysian", "9");
    twin.db.refuses(
        &["order", "Mail", "--as", "carthage", "--file", file],
        "the orders file was made for another campaign called `Mail`: this one has its own seed and log",
    );

    // A file edited by hand: a field the orders file has not, an order of another side's.
    let text = std::fs::read_to_string(&orders).unwrap();
    for (edited, expected) in [
        (text.replacen("\"turn\"", "\"extra\": 1, \"turn\"", 1), "unknown field `extra`"),
        (text.replace("\"carthage\"", "\"syracuse\"").replacen("\"syracuse\"", "\"carthage\"", 1), "is Syracuse's to give, not Carthage's"),
        (
            text.replacen("\"comments\": []", "\"comments\": [{\"order\": 99, \"text\": \"x\"}]", 1),
            "the orders file comments on order 99, but holds 2 orders",
        ),
        (
            text.replacen("\"turn\": 1", "\"turn\": 3", 1),
            "the orders file names turn 3, but it answers Carthage's log as it stands, in turn 1: the file was changed",
        ),
    ] {
        let path = mail.dir.path().join("edited.json");
        std::fs::write(&path, edited).unwrap();
        let line = cli(&mail.db.path, &["order", "Mail", "--as", "carthage", "--file", path.to_str().unwrap()]).refused();
        assert!(line.contains(expected), "{line}");
        assert_eq!(mail.db.bytes(), before);
    }

    // The referee gives Carthage an order of his own: the packet's moment has passed.
    mail.referee(&["order", "Mail", r#"{"type":"deploy","side":"carthage","counter":"fleet","node":0}"#]);
    let before = mail.db.bytes();
    let line = cli(&mail.db.path, &["order", "Mail", "--as", "carthage", "--file", file])
        .refused_saying("Carthage's log has moved on since the packet these orders answer (its line 1 then, line 2 now");
    assert!(line.contains("nothing was applied") && line.contains("--anyway"), "{line}");
    assert_eq!(mail.db.bytes(), before);
    let out = mail.take_in("carthage", &orders, &["--anyway"]);
    assert!(out.contains("Carthage deploys Himilco at Panormus") && out.contains("Carthage deploys Mago at Panormus"), "{out}");
    // Taken in once, the same file answers a log that has moved on: it cannot be given twice
    // by mistake.
    cli(&mail.db.path, &["order", "Mail", "--as", "carthage", "--file", file]).refused_saying("has moved on");
}

/// X-06, MG-02, MG-11: a player's plan is checked as far as the side knows: a deployment
/// outside the side's area is refused with where it may deploy, a move outside its movement
/// phase is refused, another side's order is refused, and nothing refused is planned. What
/// the side cannot check goes to the referee with a note. The plan can be reordered,
/// commented and taken back.
#[test]
fn x_06_a_players_plan_is_checked_as_far_as_the_side_knows() {
    let mail = Mail::new("Plan", "dionysian", "9");
    let carthage = mail.packet("carthage");
    let before = std::fs::read(&carthage).unwrap();
    for (order, expected) in [
        (
            r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":31}"#,
            "Carthage may not deploy Himilco at 31 Syracuse; it may deploy at 00 Motya, 01 Lilybaeum, 02 Drepanum, 03 Segesta, 04 Panormus — MG-02",
        ),
        (r#"{"type":"deploy","side":"carthage","counter":"Hannibal","node":4}"#, "Carthage has no counter called Hannibal to deploy"),
        (
            r#"{"type":"move","side":"carthage","counter":"Himilco","path":[8]}"#,
            "Carthage moves in its own movement phase, and this is not it — MG-11",
        ),
        (r#"{"type":"deploy","side":"syracuse","counter":"Leptines","node":8}"#, "another side's to give"),
        (r#"{"type":"begin_play"}"#, "the referee's to give"),
        (r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":4,"at":1}"#, "unknown field `at`"),
    ] {
        let line = player(&carthage, &["order", order]).refused();
        assert!(line.contains(expected), "{order}: {line}");
    }
    assert_eq!(std::fs::read(&carthage).unwrap(), before, "a refused order left the packet as it was");

    player(&carthage, &["order", r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":4}"#])
        .ok_saying("Planned 1: deploy Carthage's Himilco at 04 Panormus — checked as far as Carthage can tell");
    player(&carthage, &["order", r#"{"type":"add_note","text":"x"}"#]).refused_saying("the referee's to give");
    let out = player(
        &carthage,
        &[
            "order",
            r#"{"type":"garrison","side":"carthage","command":"Mago","elements":[],"into_garrison":true}"#,
            "--comment",
            "keep him home",
        ],
    )
    .ok();
    assert!(out.contains("Planned 2:") && out.contains("for the referee to check"), "{out}");
    let plan = player(&carthage, &["plan", "--move", "2", "--to", "1"]).ok();
    let first = plan.lines().nth(1).unwrap();
    assert!(first.contains("1. ") && first.contains("garrison"), "{plan}");
    assert!(plan.contains("comment: keep him home"), "{plan}");
    player(&carthage, &["plan", "--comment", "2", "--text", "to Panormus"]).ok_saying("comment: to Panormus");
    player(&carthage, &["plan", "--drop", "3"]).refused_saying("the plan has orders 1 to 2, not 3");
    player(&carthage, &["undo"]).ok();
    let plan = player(&carthage, &["--json", "plan"]).json();
    assert_eq!(plan.as_array().unwrap().len(), 1, "{plan}");
    assert_eq!(plan[0]["order"]["type"], "garrison", "{plan}");
    assert_eq!(plan[0]["checked"], "for_referee", "{plan}");
}

/// X-06: a packet is read only as a packet: a campaign database, a file of another kind or
/// one that is not there are refused in one sentence, and the player's command line has no
/// way to the referee's commands.
#[test]
fn x_06_a_player_opens_nothing_but_a_packet() {
    let mail = Mail::new("Only", "dionysian", "9");
    player(&mail.db.path, &["show"]).refused_saying("is not a side's packet");
    let text = mail.dir.path().join("notes.txt");
    std::fs::write(&text, "not a packet at all, but long enough to be read as a file header by SQLite, or not").unwrap();
    player(&text, &["show"]).refused_saying("is not a side's packet");
    player(&mail.dir.path().join("missing.packet"), &["show"]).refused_saying("there is no packet at");
    let packet = mail.packet("carthage");
    player(&packet, &["seed", "Only"]).refused_saying("unrecognized subcommand");
    player(&packet, &["--db", mail.db.path.to_str().unwrap(), "show"]).refused_saying("unexpected argument");
    // A packet damaged on its way is refused in one sentence naming the file and the part:
    // bytes that are no text, text that is no JSON, a plan gone.
    let damage = |sql: &str| {
        let copy = mail.dir.path().join("damaged.packet");
        std::fs::copy(&packet, &copy).unwrap();
        rusqlite::Connection::open(&copy).unwrap().execute_batch(sql).unwrap();
        copy
    };
    let damaged = damage("UPDATE parts SET body = CAST(X'7B22FF' AS TEXT) WHERE name = 'public'");
    let line = player(&damaged, &["show"]).refused();
    assert!(line.contains("damaged.packet is damaged: its public part cannot be read (invalid utf-8"), "{line}");
    assert_eq!(line.matches("invalid utf-8").count(), 1, "said once: {line}");
    let damaged = damage("UPDATE parts SET body = '{\"no\": ' WHERE name = 'view'");
    player(&damaged, &["show"]).refused_saying("the view part of ");
    let damaged = damage("DROP TABLE plan");
    player(&damaged, &["orders", "--out", mail.dir.path().to_str().unwrap()])
        .refused_saying("is damaged: its plan cannot be read (no such table");
}

/// X-06, BE-13, BE-17, BE-41: a Belisarius turn by e-mail, with its back-and-forth. The
/// Byzantines place their fleet from their packet; the Vandals share out a supply loss from
/// theirs; Belisarius is activated and marches onto Gelimer, which halts him at a contact;
/// the Vandals' packet says they are to answer, and they decline; the Byzantines intercept
/// from a new packet and a battle is joined, fought on the table and typed in by the referee;
/// both sides pass by packet and the referee ends the turn.
#[test]
fn x_06_a_belisarius_turn_goes_by_email_through_packets() {
    let mail = Mail::new("Africa", "africa-533", "5");
    let answer = |side: &str, orders: &[&str]| -> String {
        let orders: Vec<String> = orders.iter().map(|o| (*o).to_owned()).collect();
        let file = mail.plan(&mail.packet(side), &orders);
        mail.take_in(side, &file, &[])
    };
    // At set-up the packet lists the line still to place, with what goes in it.
    player(&mail.packet("byzantines"), &["roster"]).ok_saying("to place, line 1:");
    answer("byzantines", &[r#"{"type":"place","side":"byzantines","line":1,"at":"mare-africum"}"#]);
    for phase in [r#"{"type":"begin_play"}"#, r#"{"type":"events"}"#, r#"{"type":"supply"}"#] {
        mail.referee(&["order", mail.name, phase]);
    }
    // The supply dice left the Vandals 4 points to share out: their packet says so.
    let vandals = mail.packet("vandals");
    player(&vandals, &["show"]).ok_saying("4 points lost for want of supply");
    // The units the losses are shared out from, by the numbers `take_losses` names, are in
    // the packet's own Table of Organisation; nothing of the Byzantines' is.
    let roster = player(&vandals, &["roster"]).ok_saying("Table of Organisation: Vandals");
    assert!(roster.contains("units by number: 1. ") && !roster.contains("Byzantines"), "{roster}");
    let out = answer("vandals", &[r#"{"type":"take_losses","side":"vandals","losses":[[5,2],[6,2]]}"#]);
    assert!(out.contains("Vandals take 4 combat points lost for want of supply"), "{out}");
    mail.referee(&["order", mail.name, r#"{"type":"begin_operations"}"#]);

    let out = answer(
        "byzantines",
        &[
            r#"{"type":"activate","side":"byzantines","leader":"belisarius"}"#,
            r#"{"type":"move","side":"byzantines","leader":"belisarius","path":["byzacium-south"]}"#,
        ],
    );
    assert!(out.contains("Belisarius halts at Southern Byzacium"), "{out}");
    let vandals = mail.packet("vandals");
    let shown = player(&vandals, &["show"]).ok();
    assert!(shown.contains("Contact at Southern Byzacium") && shown.contains("the Vandals intercept or decline"), "{shown}");
    answer("vandals", &[r#"{"type":"decline","side":"vandals"}"#]);
    let out = answer("byzantines", &[r#"{"type":"intercept","side":"byzantines","leaders":["belisarius"]}"#]);
    assert!(out.contains("Battle at Southern Byzacium"), "{out}");

    mail.referee(&["order", mail.name, r#"{"type":"send_to_table"}"#]);
    let result = mail.dir.path().join("result.json");
    std::fs::write(&result, r#"{"losses":{"vandals":[[1,2],[2,2]],"byzantines":[[13,1]]},"broke_off":"vandals","retreat":"tripolitania"}"#)
        .unwrap();
    let out = mail.referee(&["result", mail.name, "1", "--file", result.to_str().unwrap()]);
    assert!(out.contains("the Byzantines win"), "{out}");
    player(&mail.packet("vandals"), &["log"]).ok_saying("Vandals retreat to Tripolitania");

    for side in ["byzantines", "vandals", "byzantines"] {
        answer(side, &[&format!(r#"{{"type":"pass","side":"{side}"}}"#)]);
    }
    mail.referee(&["order", mail.name, r#"{"type":"end_turn"}"#]);
    let state = cli(&mail.db.path, &["--json", "show", mail.name]).json();
    assert_eq!(state["board"]["turn"], 2, "the first turn is over: {}", state["board"]);
    let typed = mail.referee.borrow();
    assert!(typed.iter().all(|c| !c.contains("\"side\"")), "the referee typed a side's order: {typed:?}");
}

/// X-06, BE-06, BE-07, BE-10, BE-13, BE-41: a Belisarius player's plan is checked against the
/// side's own Table of Organisation and the map: a leader the side does not have, a march that
/// skips a zone, a march of a leader not activated, an activation outside the side's segment,
/// a share of supply losses that does not add up, an answer to a contact that is not the
/// side's, an interception by a leader who is not there.
#[test]
fn x_06_a_belisarius_plan_is_checked_as_far_as_the_side_knows() {
    let mail = Mail::new("Checks", "africa-533", "5");
    mail.referee(&["order", mail.name, r#"{"type":"place","side":"byzantines","line":1,"at":"mare-africum"}"#]);
    let vandals = mail.packet("vandals");
    player(&vandals, &["order", r#"{"type":"activate","side":"vandals","leader":"gelimer"}"#])
        .refused_saying("leaders act in the operations phase, and this is not it — BE-06");
    for order in [r#"{"type":"begin_play"}"#, r#"{"type":"events"}"#, r#"{"type":"supply"}"#] {
        mail.referee(&["order", mail.name, order]);
    }
    // The supply losses the Vandals owe are theirs to see: a share that does not add up, or
    // names a unit the force has not, is refused in the packet (BE-41).
    let vandals = mail.packet("vandals");
    player(&vandals, &["order", r#"{"type":"take_losses","side":"vandals","losses":[[9,8]]}"#])
        .refused_saying("there is no unit 9 here; the units are numbered 1 to 6 — BE-41");
    player(&vandals, &["order", r#"{"type":"take_losses","side":"vandals","losses":[[5,2]]}"#])
        .refused_saying("4 points are owed for want of supply, and 2 were named — BE-41");
    player(&vandals, &["order", r#"{"type":"decline","side":"vandals"}"#]).refused_saying("there is no contact to answer now — BE-13");
    player(&vandals, &["order", r#"{"type":"decline","side":"Vandals"}"#])
        .refused_saying("the order names the side `Vandals`; the side's id is `vandals`, in small letters");
    player(&vandals, &["order", r#"{"type":"take_losses","side":"vandals","losses":[[5,2],[6,2]]}"#])
        .ok_saying("checked as far as the Vandals can tell");
    mail.referee(&["order", mail.name, r#"{"type":"take_losses","side":"vandals","losses":[[5,2],[6,2]]}"#]);
    mail.referee(&["order", mail.name, r#"{"type":"begin_operations"}"#]);
    let byzantines = mail.packet("byzantines");
    player(&byzantines, &["order", r#"{"type":"pass","side":"byzantines"}"#]).ok_saying("checked as far as the Byzantines can tell");
    player(&byzantines, &["undo"]).ok();
    for (order, expected) in [
        // The order is named in the side's words: its own leaders by name, the other's as typed.
        (
            r#"{"type":"activate","side":"byzantines","leader":"gelimer"}"#,
            "the order (the Byzantines activate gelimer) is refused: the Byzantines have no leader `gelimer` on the map",
        ),
        (
            r#"[{"type":"activate","side":"byzantines","leader":"belisarius"},{"type":"move","side":"byzantines","leader":"iohannes","path":["zeugitana"]}]"#,
            "order 2 of 2 (Iohannes (John) marches to Zeugitana) is refused",
        ),
        (r#"{"type":"move","side":"byzantines","leader":"belisarius","path":["byzacium-south"]}"#, "activate him first"),
        (
            r#"[{"type":"activate","side":"byzantines","leader":"belisarius"},{"type":"move","side":"byzantines","leader":"belisarius","path":["zeugitana","tripolitania"]}]"#,
            "Tripolitania does not border Zeugitana",
        ),
    ] {
        let line = player(&byzantines, &["order", order]).refused();
        assert!(line.contains(expected), "{order}: {line}");
    }
    let plan = player(&byzantines, &["--json", "plan"]).json();
    assert_eq!(plan.as_array().unwrap().len(), 0, "a list with a refused order is planned not at all: {plan}");
    let vandals = mail.packet("vandals");
    player(&vandals, &["order", r#"{"type":"activate","side":"vandals","leader":"gelimer"}"#])
        .refused_saying("it is the Byzantines' segment, not the Vandals' — BE-06");

    // At a contact the side answering sees who of its own stands there (BE-13).
    mail.referee(&["order", mail.name, r#"{"type":"activate","side":"byzantines","leader":"belisarius"}"#]);
    mail.referee(&["order", mail.name, r#"{"type":"move","side":"byzantines","leader":"belisarius","path":["byzacium-south"]}"#]);
    let vandals = mail.packet("vandals");
    player(&vandals, &["order", r#"{"type":"intercept","side":"vandals","leaders":["ammatas"]}"#])
        .refused_saying("Ammatas stands at Carthago (Carthage), not at the contact — BE-13");
    player(&vandals, &["order", r#"{"type":"intercept","side":"vandals","leaders":["gelimer"]}"#])
        .ok_saying("for the referee to check: the interception roll");
    let byzantines = mail.packet("byzantines");
    player(&byzantines, &["order", r#"{"type":"decline","side":"byzantines"}"#])
        .refused_saying("the Vandals answer the contact now, not the Byzantines — BE-13");
}

/// X-06, BE-06, BE-13: the first turn of italy-535 by e-mail, as the referee plays it: the
/// players place their fleets, Mundus is activated and marches into Dalmatia in one order,
/// where the Goths stand (the Byzantines' plan says the march halts, and the pass planned
/// after it waits), the Goths answer from their packet, and both sides pass. The referee
/// types the phases (read off `show`'s Next) and takes the orders in: 21 commands besides
/// reading `show`, none of them a side's order, against the 56 of a first turn typed by hand.
#[test]
fn x_06_an_italy_535_turn_by_email_takes_the_referee_a_handful_of_commands() {
    let mail = Mail::new("Italy", "italy-535", "3");
    let (byzantines, ostrogoths) = (mail.packet("byzantines"), mail.packet("ostrogoths"));
    let fleets = mail.plan(&byzantines, &[r#"{"type":"place","side":"byzantines","line":1,"at":"ionium"}"#.to_owned()]);
    let goths = mail.plan(&ostrogoths, &[r#"{"type":"place","side":"ostrogoths","line":1,"at":"adriaticum-north"}"#.to_owned()]);
    mail.take_in("byzantines", &fleets, &[]);
    mail.take_in("ostrogoths", &goths, &["--anyway"]);
    // The referee's phases, each read off `show`'s Next.
    for _ in 0..4 {
        let shown = mail.referee(&["show", mail.name]);
        let next = shown.split("\nNext:\n").nth(1).unwrap();
        let order = next.lines().nth(1).unwrap().trim().to_owned();
        assert!(next.starts_with("  The referee"), "{next}");
        mail.referee(&["order", mail.name, &order]);
    }
    let byzantines = mail.packet("byzantines");
    player(&byzantines, &["order", r#"{"type":"activate_and_move","side":"byzantines","leader":"mundus","path":["dalmatia"]}"#]).ok();
    player(&byzantines, &["order", r#"{"type":"pass","side":"byzantines"}"#])
        .ok_saying("planned after a march that halts (the march halts at Dalmatia, where the Ostrogoths stand");
    player(&byzantines, &["undo"]).ok();
    let orders = mail.plan(&byzantines, &[]);
    let out = mail.take_in("byzantines", &orders, &[]);
    assert!(out.contains("Mundus halts at Dalmatia"), "{out}");
    player(&mail.packet("ostrogoths"), &["show"]).ok_saying("The Ostrogoths intercept or decline at the contact");
    let answer = |side: &str, order: &str| {
        let file = mail.plan(&mail.packet(side), &[order.to_owned()]);
        mail.take_in(side, &file, &[])
    };
    answer("ostrogoths", r#"{"type":"decline","side":"ostrogoths"}"#);
    answer("byzantines", r#"{"type":"pass","side":"byzantines"}"#);
    answer("ostrogoths", r#"{"type":"pass","side":"ostrogoths"}"#);
    answer("byzantines", r#"{"type":"pass","side":"byzantines"}"#);
    mail.referee(&["order", mail.name, r#"{"type":"end_turn"}"#]);
    let state = cli(&mail.db.path, &["--json", "show", mail.name]).json();
    assert_eq!(state["board"]["turn"], 2, "{}", state["board"]);
    let typed = mail.referee.borrow();
    assert!(typed.iter().all(|c| !c.contains("\"side\"")), "the referee typed a side's order: {typed:?}");
    let commands: Vec<&String> = typed.iter().filter(|c| !c.starts_with("show")).collect();
    assert_eq!(commands.len(), 21, "{commands:#?}");
}
