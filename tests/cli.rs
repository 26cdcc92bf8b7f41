//! X-06: the `referee` command line end to end, in text and JSON; bad input is refused with
//! one line and leaves the database as it was.

use std::time::Instant;

use referee_campaign::fixtures::dionysian_json;
use referee_campaign::store::BUSY_TIMEOUT;
use referee_e2e::{Mode, TempDb, cli, himera_db};
use rusqlite::Connection;

fn new_campaign(db: &TempDb, scenario: &str, name: &str) {
    cli(&db.path, &["new", scenario, "--name", name, "--seed", "42"]).ok();
}

/// A fresh database holding campaign `name` of `scenario`, started with seed 42.
fn db_with(scenario: &str, name: &str) -> TempDb {
    let db = TempDb::new();
    new_campaign(&db, scenario, name);
    db
}

#[test]
fn x_06_scenarios_lists_all_four() {
    let db = TempDb::new();
    let out = cli(&db.path, &["scenarios"]).ok();
    for id in ["dionysian", "pyrrhic", "first-punic", "second-punic"] {
        assert!(out.contains(id), "{out}");
    }
    let json = cli(&db.path, &["scenarios", "--json"]).json();
    let ids: Vec<&str> =
        json.as_array().unwrap().iter().filter(|s| s["campaign"] == "magna-graecia").map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["dionysian", "first-punic", "pyrrhic", "second-punic"]);
    assert!(!db.path.exists(), "listing scenarios must not create a database");
}

#[test]
fn x_06_new_list_show_log_roll_undo() {
    let db = TempDb::new();
    let created = cli(&db.path, &["new", "dionysian", "--seed", "42", "--json"]).json();
    assert_eq!(created["name"], "Dionysian War 1");
    new_campaign(&db, "pyrrhic", "Epirus");
    let list = cli(&db.path, &["list", "--json"]).json();
    let names: Vec<&str> = list.as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Dionysian War 1", "Epirus"]);

    let shown = cli(&db.path, &["show", "Epirus"]).ok_saying("Epirus · Pyrrhic War · turn 1 of 18 · setup");
    assert!(shown.contains("Pyrrhus: army of 350 points"), "{shown}");

    let rolled =
        cli(&db.path, &["roll", "Epirus", "2d6", "--purpose", "alliance of Enna", "--modifier", "+1:held the field", "--json"]).json();
    let roll = &rolled["events"][0]["roll"];
    assert_eq!(roll["purpose"], "alliance of Enna");
    assert_eq!(roll["modifiers"][0]["value"], 1);
    assert_eq!(roll["values"].as_array().unwrap().len(), 2);
    let typed = cli(&db.path, &["roll", "Epirus", "d6", "--purpose", "siege of Catana", "--value", "6"]).ok();
    assert_eq!(typed.trim(), "d6 = 6 [typed in] for siege of Catana");

    let log = cli(&db.path, &["log", "Epirus"]).ok();
    assert_eq!(log.lines().count(), 3, "{log}");
    assert!(log.lines().last().unwrap().ends_with("d6 = 6 [typed in] for siege of Catana"), "{log}");
    let raw = cli(&db.path, &["log", "Epirus", "--json"]).json();
    assert_eq!(raw.as_array().unwrap().len(), 3);

    let undone = cli(&db.path, &["undo", "Epirus"]).ok();
    assert!(undone.starts_with("Undid “roll d6 for siege of Catana”"), "{undone}");
    assert_eq!(cli(&db.path, &["log", "Epirus"]).ok().lines().count(), 2);
}

/// X-01 / X-06: `show --as` and `log --as` print only what that side knows.
#[test]
fn x_01_side_output_hides_what_the_side_must_not_know() {
    let db = db_with("pyrrhic", "Hidden");
    cli(&db.path, &["roll", "Hidden", "d6", "--purpose", "Carthaginian ambush at Gela", "--secret", "--side", "carthage"]).ok();
    cli(&db.path, &["roll", "Hidden", "d6", "--purpose", "umpire weather", "--secret"]).ok();
    let side = cli(&db.path, &["show", "Hidden", "--as", "syracuse"]).ok_saying("Syracuse: army of 300 points");
    for secret in ["army of 500", "army of 350", "fleet of 15"] {
        assert!(!side.contains(secret), "Syracuse sees `{secret}`:\n{side}");
    }
    let json = cli(&db.path, &["show", "Hidden", "--as", "syracuse", "--json"]).ok();
    assert!(!json.contains("\"seed\""), "{json}");
    assert!(!json.contains("42"), "the seed leaks: {json}");
    for viewer in ["syracuse", "pyrrhus"] {
        let log = cli(&db.path, &["log", "Hidden", "--as", viewer]).ok();
        assert!(!log.contains("ambush") && !log.contains("weather"), "{viewer} reads secrets:\n{log}");
    }
    let carthage = cli(&db.path, &["log", "Hidden", "--as", "carthage"]).ok();
    assert!(carthage.contains("ambush") && !carthage.contains("weather"), "{carthage}");
}

/// X-06: each kind of bad input gives one line on stderr, a non-zero exit, and no change.
#[test]
fn x_06_bad_input_is_refused_and_changes_nothing() {
    let db = db_with("dionysian", "Firm");
    cli(&db.path, &["roll", "Firm", "d6", "--purpose", "one"]).ok();
    let cases: &[(&[&str], &str)] = &[
        (&["new", "atlantis"], "there is no scenario `atlantis`"),
        (&["new", "dionysian", "--name", "Firm"], "a campaign named `Firm` exists already"),
        (&["new", "dionysian", "--name", " "], "a campaign name cannot be empty"),
        (&["new", "dionysian", "--seed", "minus-one"], "invalid value 'minus-one'"),
        (&["show", "Nowhere"], "there is no campaign `Nowhere`"),
        (&["show", "Firm", "--as", "persia"], "Dionysian War has no side `persia`"),
        (&["log", "Firm", "--as", "carthage", "--umpire"], "cannot be used with"),
        (&["undo", "Nowhere"], "there is no campaign `Nowhere`"),
        (&["roll", "Firm", "7", "--purpose", "x"], "`7` is not a dice expression"),
        (&["roll", "Firm", "d6", "--purpose", " "], "every roll needs a purpose"),
        (&["roll", "Firm", "d6", "--purpose", "x", "--value", "7"], "7 cannot be rolled on a d6"),
        (&["roll", "Firm", "2d6", "--purpose", "x", "--value", "3"], "2d6 needs 2 values typed in, but 1 value was given"),
        (&["roll", "Firm", "2d6", "--purpose", "x", "--value", "3, x"], "`x` is not what a die shows"),
        (&["new", "dionysian", "--name", "7"], "commands would read 7 as a campaign's id"),
        (&["roll", "Firm", "d6", "--purpose", "x", "--side", "rome"], "Dionysian War has no side `rome`"),
        (&["roll", "Firm", "d6", "--purpose", "x", "--modifier", "plus one"], "modifier `plus one` must read like"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        // What is missing, or what an option takes, is said on the one line.
        (&["verify", "Firm"], "the following required arguments were not provided: --seed <SEED> (see `referee --help`)"),
        (&["pack", "Firm", "1", "--system", "hex"], "[possible values: dbm, dbsa, ars-bellum, a-la-charge]"),
    ];
    for (args, expected) in cases {
        db.refuses(args, expected);
    }
    let undo_start = cli(&db.path, &["undo", "Firm"]).ok();
    assert!(undo_start.contains("roll d6 for one"));
    cli(&db.path, &["undo", "Firm"]).refused_saying("nothing to undo");
    // Dice typed with spaces after the commas are read all the same.
    cli(&db.path, &["roll", "Firm", "2d6", "--purpose", "spaced", "--value", "3, 4"]).ok_saying("2d6 = 3+4 = 7");
}

/// X-06: read-only commands never create a database, and a file that is not ours is
/// refused by every command.
#[test]
fn x_06_missing_or_foreign_database() {
    let db = TempDb::new();
    cli(&db.path, &["list"]).refused_saying("there is no database at");
    assert!(!db.path.exists());
    std::fs::write(&db.path, "not a database").unwrap();
    for args in [&["list"][..], &["new", "dionysian"], &["show", "x"]] {
        cli(&db.path, args).refused_saying("is not a referee database");
    }
    assert_eq!(std::fs::read_to_string(&db.path).unwrap(), "not a database");
}

#[test]
fn x_06_help_goes_to_stdout() {
    let db = TempDb::new();
    let out = cli(&db.path, &["--help"]).ok();
    assert!(out.contains("roll") && out.contains("undo"), "{out}");
}

/// MG-03 / X-06: rosters are shown per viewer and can be replaced from a file before play.
#[test]
fn mg_03_roster_show_and_import() {
    let db = db_with("dionysian", "Rosters");
    let umpire = cli(&db.path, &["roster", "Rosters"]).ok();
    assert!(umpire.contains("Carthage:") && umpire.contains("Syracuse:"), "{umpire}");
    assert!(umpire.contains("Dionysius (C-in-C, 1 MP"), "{umpire}");
    let syracuse = cli(&db.path, &["roster", "Rosters", "--as", "syracuse"]).ok();
    assert!(!syracuse.contains("carthage") && !syracuse.contains("Himilco"), "{syracuse}");

    let file = db.path.with_file_name("leptines.toml");
    std::fs::write(
        &file,
        "side = \"syracuse\"\nlist = \"Syracusan, a small force\"\n\n[[command]]\nname = \"Leptines\"\nrank = \"c-in-c\"\ngeneral = \"Reg Cv(O)\"\nelements = [\"6 Reg LH(O)\", \"4 Reg Ps(O)\"]\n",
    )
    .unwrap();
    cli(&db.path, &["roster", "Rosters", "--import", file.to_str().unwrap()])
        .ok_saying("Syracuse's army is now Syracusan, a small force (1 commands");
    let json = cli(&db.path, &["roster", "Rosters", "--as", "syracuse", "--json"]).json();
    assert_eq!(json[0]["army"]["commands"][0]["name"], "Leptines");
    assert_eq!(json[0]["movement_points"][0], 2, "MG-11: mounted and psiloi only");

    let before = db.bytes();
    std::fs::write(&file, "side = \"syracuse\"\nlist = \"x\"\n\n[[command]]\nname = \"L\"\nrank = \"c-in-c\"\ngeneral = \"Reg Cv(O)\"\nelements = [\"300 Reg Sp(O)\"]\n").unwrap();
    let line = cli(&db.path, &["roster", "Rosters", "--import", file.to_str().unwrap()]).refused();
    assert!(line.contains("more than the 500 the scenario allows") && line.ends_with("— MG-03"), "{line}");
    std::fs::write(&file, "side = \"syracuse\"\nlist = \"x\"\n\n[[command]]\nname = \"L\"\nrank = \"c-in-c\"\ngeneral = \"Reg Cv(O)\"\nelements = [\"three Reg Sp(O)\"]\n").unwrap();
    cli(&db.path, &["roster", "Rosters", "--import", file.to_str().unwrap()])
        .refused_saying("leptines.toml:8: `three Reg Sp(O)` must start with a number");
    assert_eq!(db.bytes(), before);
}

/// X-06 / MG-09: a whole sequence of orders scripted as JSON; refusals name their rule and
/// leave the database as it was.
#[test]
fn x_06_orders_as_json() {
    let db = db_with("dionysian", "Script");
    let out = cli(&db.path, &["order", "Script", &dionysian_json()]).ok();
    assert!(out.contains("Carthage deploys Himilco at Panormus") && out.contains("Play begins: turn 1, Carthage to move"), "{out}");

    let moved = cli(&db.path, &["order", "Script", r#"{"type":"move","side":"carthage","counter":"Hanno","path":[7]}"#, "--json"]).json();
    assert_eq!(moved["events"][0]["type"], "counter_moved");
    let refusals: &[(&str, &str)] = &[
        (
            r#"{"type":"move","side":"carthage","counter":"Himilco","path":[7,11]}"#,
            "Himilco has 1 MP left this phase and cannot move 2 nodes — MG-11",
        ),
        (r#"{"type":"move","side":"syracuse","counter":"Agyris","path":[14]}"#, "it is Carthage's player-turn, not Syracuse's — MG-09"),
        (r#"{"type":"march","side":"carthage"}"#, "is not an order this program knows"),
        (
            r#"{"type":"move","side":"carthage","counter":"Himilco","path":[99]}"#,
            "the map has no node 99; its nodes are numbered 00 to 31 — MG-01",
        ),
        (
            r#"{"type":"move","side":"carthage","counter":"Himilcon","path":[7]}"#,
            "Carthage has no counter called Himilcon on the map; its counters there are Himilco, ",
        ),
        ("null", "`null` is not an order: an order is a JSON object with its \"type\""),
        (
            r#"{"type":"move","side":"carthage","counter":"Himilco","path":[7],"secret":1}"#,
            "is not a `move` order as the program reads them: unknown field `secret`",
        ),
        ("{not json", "the order is not valid JSON"),
        (r#"[{"type":"begin_play"},{"type":"add_note","text":"never"}]"#, "order 1 of 2 (begin play) refused"),
        (r#"[]"#, "the list of orders is empty"),
    ];
    for (order, expected) in refusals {
        db.refuses(&["order", "Script", order], expected);
    }
    // Hanno ends in neutral Entella: the players roll a 6 on the table.
    let out = cli(&db.path, &["order", "Script", r#"{"type":"end_phase","side":"carthage"}"#, "--value", "6"])
        .ok_saying("Carthage: d6 = 6 [typed in] for alliance of Entella — MG-06");
    assert!(out.contains("Entella joins Carthage — MG-06"), "{out}");
    let side = cli(&db.path, &["log", "Script", "--as", "syracuse"]).ok();
    assert!(side.contains("Carthage: a counter moves Segesta → Entella") && !side.contains("Hanno"), "{side}");
}

/// MG-37 / X-06: `new --from` starts a scenario where another campaign ended.
#[test]
fn mg_37_new_campaign_from_the_end_of_another() {
    let db = db_with("dionysian", "Season one");
    cli(&db.path, &["order", "Season one", r#"{"type":"adjust_control","node":9,"side":"carthage","reason":"taken"}"#]).ok();
    cli(&db.path, &["new", "dionysian", "--name", "Season two", "--from", "Season one"]).ok_saying("Season two");
    let shown = cli(&db.path, &["show", "Season two", "--json"]).json();
    let node9 = shown["board"]["nodes"].as_array().unwrap().iter().find(|n| n["id"] == 9).unwrap().clone();
    assert_eq!(node9["controller"], "carthage");
    cli(&db.path, &["new", "dionysian", "--name", "Season three", "--from", "Nowhere"]).refused_saying("there is no campaign `Nowhere`");
}

/// X-06: while another program writes to the database, `list`, `show`, `log` and `roster`
/// answer at once; a command that writes is refused in one line naming the other program,
/// and goes through once it is done.
#[test]
fn x_06_reads_go_on_while_another_program_writes() {
    let db = db_with("dionysian", "Busy");
    cli(&db.path, &["roll", "Busy", "d6", "--purpose", "before"]).ok();
    let writer = Connection::open(&db.path).unwrap();
    writer
        .execute_batch(
            "BEGIN IMMEDIATE;
             INSERT INTO campaigns (name, scenario, created_at) VALUES ('Half-written', 'pyrrhic', '2026-01-01');",
        )
        .unwrap();
    let reads: [&[&str]; 5] = [&["list"], &["show", "Busy"], &["log", "Busy"], &["log", "Busy", "--as", "carthage"], &["roster", "Busy"]];
    for args in reads {
        let started = Instant::now();
        let out = cli(&db.path, args).ok();
        assert!(started.elapsed() < BUSY_TIMEOUT, "{args:?} waited {:?} for the writer", started.elapsed());
        assert!(!out.contains("Half-written"), "{args:?}: {out}");
    }
    let before = db.bytes();
    let line = cli(&db.path, &["roll", "Busy", "d6", "--purpose", "while locked"]).refused();
    assert_eq!(line, format!("error: another program is writing to {}; try again when it has finished", db.path.display()));
    assert_eq!(db.bytes(), before);
    writer.execute_batch("ROLLBACK").unwrap();
    cli(&db.path, &["roll", "Busy", "d6", "--purpose", "after"]).ok();
    assert_eq!(cli(&db.path, &["log", "Busy"]).ok().lines().count(), 3);
}

/// X-06: a damaged database (cut short; its first byte changed) is called damaged by every
/// command, and left byte for byte as it was, with nothing beside it.
#[test]
fn x_06_damaged_database_is_named_and_left_untouched() {
    let db = db_with("dionysian", "Torn");
    let whole = db.bytes();
    let mut changed = whole.clone();
    changed[0] = b's';
    for bytes in [whole[..whole.len() / 2].to_vec(), changed] {
        std::fs::write(&db.path, &bytes).unwrap();
        let commands: [&[&str]; 4] = [&["list"], &["show", "Torn"], &["roll", "Torn", "d6", "--purpose", "x"], &["new", "pyrrhic"]];
        for args in commands {
            let line = cli(&db.path, args).refused();
            assert!(line.starts_with(&format!("error: {} is damaged (", db.path.display())), "{args:?}: {line}");
            assert!(line.ends_with("; it was left untouched"), "{args:?}: {line}");
            assert_eq!(db.bytes(), bytes, "{args:?}");
            assert_eq!(db.files(), ["campaigns.sqlite"], "{args:?}");
        }
    }
}

/// X-06: damage deep in the file, which opening does not read, is named when a command meets
/// it, with the first thing SQLite's integrity check finds.
#[test]
fn x_06_damage_met_while_reading_is_named() {
    let db = db_with("dionysian", "Deep");
    for i in 0..40 {
        cli(&db.path, &["roll", "Deep", "d6", "--purpose", &format!("roll {i} of a long campaign")]).ok();
    }
    let (root, page_size): (usize, usize) = {
        let conn = Connection::open(&db.path).unwrap();
        let root = conn.query_row("SELECT rootpage FROM sqlite_master WHERE name = 'events'", [], |r| r.get(0)).unwrap();
        (root, conn.pragma_query_value(None, "page_size", |r| r.get(0)).unwrap())
    };
    let mut bytes = db.bytes();
    let start = (root - 1) * page_size;
    bytes[start + 8..start + 200].fill(0xA5);
    std::fs::write(&db.path, &bytes).unwrap();
    let line = cli(&db.path, &["log", "Deep"]).refused();
    let expected = format!("error: {} is damaged (SQLite's integrity check says: ", db.path.display());
    assert!(line.starts_with(&expected) && line.ends_with("; it was left untouched"), "{line}");
    assert_eq!(db.bytes(), bytes);
    assert_eq!(db.files(), ["campaigns.sqlite"]);
}

/// X-06: a database marked read-only is read by the commands that read, and refused in one
/// line by those that write, left as it was and with nothing beside it.
#[test]
fn x_06_read_only_database_is_read_but_not_written() {
    let db = db_with("dionysian", "Sealed");
    let before = db.bytes();
    let _mode = Mode::set(&db.path, 0o444);
    let writes: [&[&str]; 3] = [&["roll", "Sealed", "d6", "--purpose", "x"], &["undo", "Sealed"], &["new", "pyrrhic"]];
    for args in writes {
        let line = cli(&db.path, args).refused();
        assert_eq!(line, format!("error: {} is read-only, so referee will not write to it; it was left untouched", db.path.display()));
        assert_eq!(db.bytes(), before, "{args:?}");
        assert_eq!(db.files(), ["campaigns.sqlite"], "{args:?}");
    }
    assert!(cli(&db.path, &["list"]).ok().contains("Sealed"));
    assert!(cli(&db.path, &["show", "Sealed"]).ok().contains("Seen by: the umpire"));
    assert_eq!(cli(&db.path, &["log", "Sealed"]).ok().lines().count(), 1);
    assert_eq!(db.bytes(), before);
}

/// X-06: a referee database with a schema version no referee wrote is refused by every
/// command with one sentence, untouched.
#[test]
fn x_06_unknown_schema_version_is_refused_untouched() {
    let db = db_with("dionysian", "Odd");
    Connection::open(&db.path).unwrap().pragma_update(None, "user_version", -3).unwrap();
    let before = db.bytes();
    let commands: [&[&str]; 4] = [&["list"], &["show", "Odd"], &["roll", "Odd", "d6", "--purpose", "x"], &["new", "pyrrhic"]];
    for args in commands {
        let line = cli(&db.path, args).refused();
        assert_eq!(
            line,
            format!("error: {} has schema version -3, which no version of referee wrote; it was left untouched", db.path.display())
        );
        assert_eq!(db.bytes(), before, "{args:?}");
        assert_eq!(db.files(), ["campaigns.sqlite"], "{args:?}");
    }
}

/// X-06: the commands that read find no campaigns in an empty file and leave it empty;
/// `new` makes a database of it.
#[test]
fn x_06_reading_an_empty_file_leaves_it_empty() {
    let db = TempDb::new();
    std::fs::write(&db.path, b"").unwrap();
    assert!(cli(&db.path, &["list"]).ok().contains("No campaigns yet"));
    assert_eq!(cli(&db.path, &["list", "--json"]).json(), serde_json::json!([]));
    cli(&db.path, &["show", "Nowhere"]).refused_saying("there is no campaign `Nowhere`");
    assert_eq!(db.bytes(), b"");
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    new_campaign(&db, "dionysian", "First");
    assert!(cli(&db.path, &["list"]).ok().contains("First"));
}

/// X-06, X-01: `show` in text names the nodes, lists the viewer's counters by name and the
/// others' as they are seen across the table, and the battles due, in a side's view too.
#[test]
fn x_06_show_names_places_counters_and_battles() {
    let db = himera_db("Himera");
    let carthage = cli(&db.path, &["show", "Himera", "--as", "carthage"]).ok_saying("turn 1 of 18 · Carthage to move (combat)");
    assert!(carthage.contains("Himilco        at 08 Himera"), "{carthage}");
    assert!(carthage.contains("Syracuse     a command      at 08 Himera"), "{carthage}");
    assert!(!carthage.contains("Leptines"), "Carthage does not know who it fights: {carthage}");
    assert!(carthage.contains("Battles due\n    1  at 08 Himera: Carthage against Syracuse"), "{carthage}");
    assert!(carthage.contains("  31 Syracuse "), "nodes are named: {carthage}");
    cli(&db.path, &["show", "Himera"]).ok_saying("Leptines       at 08 Himera");
}

fn pdf_text(path: &std::path::Path) -> String {
    referee_battle_gen::pdf::extract_text(&std::fs::read(path).unwrap()).unwrap().join("\n")
}

/// X-04: `report` writes every reader's turn report, each side's from its own view, with the
/// commitment to the seed; the next report holds the log since the last; `export` prints the
/// same for a side as JSON, with the view whose ids its orders name.
#[test]
fn x_04_turn_reports_and_their_export() {
    let db = himera_db("Himera");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let written = cli(&db.path, &["report", "Himera", "--out", out, "--json"]).json();
    let files: Vec<&str> = written.as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(files.len(), 3, "the umpire's and each side's: {files:?}");
    assert!(files[0].ends_with("himera-turn-01-umpire.pdf") && files[1].ends_with("himera-turn-01-side-carthage.pdf"), "{files:?}");

    let digest = {
        let store = referee_campaign::Store::open(&db.path).unwrap();
        store.commitment(store.find("Himera").unwrap()).unwrap().unwrap().digest
    };
    let carthage = pdf_text(&dir.path().join("himera-turn-01-side-carthage.pdf"));
    for want in [
        "Turn 1 report for Carthage",
        "For Carthage's player only",
        &digest,
        "Carthage's forces",
        "Himilco",
        "Battle 1 at 08 Himera: Carthage against Syracuse",
        "Victory points",
        "The log",
        "Charts",
        "page 1 of",
    ] {
        assert!(carthage.contains(want), "{want:?} missing from Carthage's report:\n{carthage}");
    }
    assert!(!carthage.contains("Syracuse's forces") && !carthage.contains("Leptines"), "{carthage}");
    let umpire = pdf_text(&dir.path().join("himera-turn-01-umpire.pdf"));
    assert!(umpire.contains("Syracuse's forces") && umpire.contains("Leptines") && umpire.contains("For the umpire only"), "{umpire}");

    // Since the last report: Carthage's next report holds what happened after it. The
    // export keeps its own mark: the first holds the whole log.
    let first = cli(&db.path, &["export", "Himera", "--as", "carthage"]).json();
    assert_eq!(first["report"]["log_from"], 1);
    let seen = first["report"]["log"].as_array().unwrap().len();
    cli(&db.path, &["roll", "Himera", "d6", "--purpose", "omens at Himera", "--value", "4"]).ok();
    let next = cli(&db.path, &["export", "Himera", "--as", "carthage"]).json();
    assert_eq!(next["report"]["log_from"], seen + 1);
    let lines: Vec<&str> = next["report"]["log"].as_array().unwrap().iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("omens at Himera"), "{lines:?}");
    assert_eq!(next["view"]["side"], "carthage");
    assert_eq!(next["report"]["commitment"], digest.as_str());
    // The same report again, before anything new: the same lines; the PDF after the JSON
    // holds the same, since its own last one ended where the first export did.
    let again = cli(&db.path, &["export", "Himera", "--as", "carthage"]).json();
    assert_eq!(again["report"], next["report"]);
    // A second report of the turn keeps the first, which may not have gone out yet.
    let written = cli(&db.path, &["report", "Himera", "--as", "carthage", "--out", out, "--json"]).json();
    let second = written[0]["path"].as_str().unwrap().to_owned();
    assert!(second.ends_with("himera-turn-01-side-carthage-2.pdf"), "{second}");
    assert!(dir.path().join("himera-turn-01-side-carthage.pdf").exists());
    let text = pdf_text(std::path::Path::new(&second));
    assert!(text.contains(&format!("The log from line {}", seen + 1)) && text.contains("omens at Himera"), "{text}");

    let refused = cli(&db.path, &["export", "Himera", "--as", "rome"]).refused();
    assert!(refused.contains("no side `rome`") && refused.contains("carthage, syracuse"), "{refused}");
}

/// X-04: the JSON export and the PDF report each keep their own mark. A side exported first
/// still gets its whole log, set-up included, in its first PDF report; each output's next one
/// starts after its own last, however the two are interleaved; `--since` moves neither.
#[test]
fn x_04_an_export_moves_nothing_of_the_pdf_reports_mark() {
    let db = himera_db("Himera");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let pdf = || {
        let written = cli(&db.path, &["report", "Himera", "--as", "carthage", "--out", out, "--json"]).json();
        pdf_text(std::path::Path::new(written[0]["path"].as_str().unwrap()))
    };
    let export = |args: &[&str]| {
        let mut all = vec!["export", "Himera", "--as", "carthage"];
        all.extend(args);
        let json = cli(&db.path, &all).json();
        let lines: Vec<String> = json["report"]["log"].as_array().unwrap().iter().map(|l| l["text"].as_str().unwrap().to_owned()).collect();
        (json["report"]["log_from"].as_u64().unwrap(), lines)
    };
    let (from, whole) = export(&[]);
    assert_eq!(from, 1, "the first export holds the whole log");
    let set_up = whole.first().unwrap().clone();
    assert!(whole.iter().any(|l| l.contains("Himilco")), "the log holds the march: {whole:?}");
    cli(&db.path, &["roll", "Himera", "d6", "--purpose", "omens at Himera", "--value", "4"]).ok();
    let first_pdf = pdf();
    assert!(!first_pdf.contains("The log from line"), "the PDF starts at line 1: {first_pdf}");
    // The log's first line (a long one, wrapped in the table: its start).
    let start: String = set_up.chars().take(24).collect();
    assert!(first_pdf.contains(&start) && first_pdf.contains("omens at Himera"), "the set-up is in the first PDF: {first_pdf}");
    // The export goes on after its own last one: the roll only.
    let (from, lines) = export(&[]);
    assert_eq!((from, lines.len()), (u64::try_from(whole.len()).unwrap() + 1, 1), "{lines:?}");
    assert!(lines[0].contains("omens at Himera"), "{lines:?}");
    // A look back moves nothing: the next export and PDF start where they would have.
    cli(&db.path, &["roll", "Himera", "d6", "--purpose", "scouts at Himera", "--value", "2"]).ok();
    let (from, _) = export(&["--since", "1"]);
    assert_eq!(from, 1);
    let (_, lines) = export(&[]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("scouts at Himera"), "{lines:?}");
    let second_pdf = pdf();
    let next = whole.len() + 2;
    assert!(second_pdf.contains(&format!("The log from line {next}")), "{second_pdf}");
    assert!(second_pdf.contains("scouts at Himera") && !second_pdf.contains("omens at Himera"), "{second_pdf}");
}

/// X-01, X-06: `order --as` takes only the side's own orders, in Magna Graecia too: a list
/// with another side's order, or the referee's, is refused whole with nothing stored; the
/// side's own order is taken and what it reads back is its own log's lines.
#[test]
fn x_06_a_sides_orders_are_its_own() {
    let db = himera_db("H");
    let before = db.bytes();
    let other =
        cli(&db.path, &["order", "H", r#"{"type":"withdraw_into_city","side":"syracuse","battle":1}"#, "--as", "carthage"]).refused();
    assert!(other.contains("the order is Syracuse's to give, not Carthage's"), "{other}");
    cli(&db.path, &["order", "H", r#"{"type":"end_campaign","reason":"we agree"}"#, "--as", "carthage"])
        .refused_saying("the referee's to give");
    assert_eq!(db.bytes(), before, "nothing stored");
    cli(&db.path, &["roll", "H", "d6", "--purpose", "Dionysius' spies", "--secret", "--side", "syracuse"]).ok_saying("Dionysius' spies");
    let json = cli(
        &db.path,
        &["--json", "order", "H", r#"{"type":"choose_stay_or_retire","side":"carthage","battle":1,"stay":true}"#, "--as", "carthage"],
    );
    // Refused or taken, it speaks only of Carthage's business.
    let text = if json.code == 0 { json.stdout } else { json.stderr };
    assert!(!text.contains("Dionysius' spies") && !text.contains("\"events\""), "{text}");
}

/// X-01, X-02: a side checks the rolls from its own log once the seed is revealed: its own
/// and the public rolls by its log's lines, the others' seeded rolls only as stretches of the
/// dice stream; before the reveal it tries no seed.
#[test]
fn x_02_verify_as_a_side() {
    let db = TempDb::new();
    cli(&db.path, &["new", "dionysian", "--name", "V", "--seed", "12"]).ok();
    cli(&db.path, &["roll", "V", "d6", "--purpose", "omens"]).ok();
    cli(&db.path, &["roll", "V", "2d6", "--purpose", "Himilco's scouts", "--secret", "--side", "carthage"]).ok();
    cli(&db.path, &["roll", "V", "d6", "--purpose", "Leptines' spies", "--secret", "--side", "syracuse"]).ok();
    cli(&db.path, &["verify", "V", "--seed", "12", "--as", "syracuse"]).refused_saying("once the referee has revealed the seed");
    cli(&db.path, &["reveal", "V"]).ok();
    let checked = cli(&db.path, &["verify", "V", "--seed", "12", "--as", "syracuse"]).ok();
    assert!(checked.contains("omens") && checked.contains("Leptines' spies"), "{checked}");
    assert!(!checked.contains("Himilco"), "{checked}");
    assert!(checked.contains("a roll this side does not see, dice stream"), "{checked}");
    assert!(checked.contains("seeded rolls and draws that match the log: 3"), "{checked}");
    cli(&db.path, &["verify", "V", "--seed", "12", "--as", "numidians"]).refused_saying("has no side `numidians`");
}

/// X-03, X-06: commands that write at the same time wait for each other, as the README
/// says: one that read the campaign before another wrote to it reads it again and goes on,
/// and none is refused with "changed by another program" for being second.
#[test]
fn x_03_orders_at_the_same_time_wait_for_each_other() {
    let db = db_with("dionysian", "Crowd");
    let path = db.path.clone();
    let threads: Vec<_> = (0..6)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                (0..5)
                    .map(|i| cli(&path, &["roll", "Crowd", "d6", "--purpose", &format!("omen {t}-{i}")]))
                    .filter(|run| run.code != 0)
                    .map(|run| run.stderr)
                    .collect::<Vec<String>>()
            })
        })
        .collect();
    let refusals: Vec<String> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    assert!(refusals.is_empty(), "each waited its turn: {refusals:?}");
    let log = cli(&db.path, &["log", "Crowd"]).ok();
    assert_eq!(log.matches("for omen ").count(), 30, "every roll is in the log once");
}
