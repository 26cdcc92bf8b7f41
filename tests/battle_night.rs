//! A battle night from the command line, end to end: a scenario, the moves that raise a
//! battle, the table set, the pack printed and read back, the result typed in (wrongly, then
//! rightly), undone and typed again, and the campaign going on from it.

use std::path::Path;

use referee_e2e::{TempDb, cli, himera_db};

/// The night's campaign in a fresh database, Himilco marched from Panormus onto Leptines at
/// Himera: battle 1; and a fresh folder for the night's files.
fn night() -> (TempDb, tempfile::TempDir) {
    (himera_db("Night"), tempfile::tempdir().unwrap())
}

fn text_of(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    referee_battle_gen::pdf::extract_text(&bytes).unwrap().join("\n").replace('\n', " ")
}

fn write(dir: &Path, name: &str, json: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, json).unwrap();
    path.display().to_string()
}

/// "Night", seed 9, deployed as `deployment` says, Himilco marched from Panormus into Himera:
/// battle 1 due.
fn himilco_attacks_himera(deployment: &[(&str, &str, u8)]) -> TempDb {
    let db = TempDb::new();
    referee_e2e::raise_himera_deployed(&db.path, "Night", deployment);
    db
}

/// Each result file of `bad` (its JSON, and what its refusal says), written in `dir` and
/// entered for battle 1 with `args` besides, is refused and leaves the database as it was;
/// `what` heads each failure's message.
fn results_refused(db: &TempDb, dir: &Path, bad: &[(String, &str)], args: &[&str], what: &str) {
    let before = db.bytes();
    for (i, (json, expected)) in bad.iter().enumerate() {
        let file = write(dir, &format!("bad-{i}.json"), json);
        let line = cli(&db.path, &[&["result", "Night", "1", "--file", &file][..], args].concat()).refused();
        assert!(line.contains(expected), "{what}{json}: {line}");
        assert_eq!(db.bytes(), before, "{what}{json} changed the database");
    }
}

/// X-04 / MG-21 / MG-22: before the defender has chosen, the pack shows the whole map to
/// choose from; once the table is set, each side's file has its brief, roster and table, on
/// the paper asked for, and only its own forces.
#[test]
fn x_04_pack_from_the_command_line() {
    let (db, dir) = night();
    let out = dir.path().display().to_string();
    cli(&db.path, &["pack", "Night", "1", "--out", &out]).ok();
    assert!(text_of(&dir.path().join("battle-01-dbm-syracuse.pdf")).contains("The table is not set yet"));
    cli(&db.path, &["pack", "Night", "1", "--out", &out])
        .refused_saying("nothing was written: write the pack into another folder, or ask to replace them with --overwrite");

    let set = cli(&db.path, &["table", "Night", "1", "--defence", "rear", "--cut", "left", "--value", "1,6"]).ok();
    assert!(set.contains("weather, battle 1 at Himera, day 1") && set.contains("summer storm: rain"), "{set}");
    assert!(set.contains("rear section, attacker's base edge west, 4'×6' table"), "{set}");

    let listed = cli(&db.path, &["pack", "Night", "1", "--out", &out, "--paper", "letter", "--system", "dbsa", "--json"]).json();
    let files = listed.as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["reader"], "umpire");
    let carthage = text_of(&dir.path().join("battle-01-dbsa-carthage.pdf"));
    let syracuse = text_of(&dir.path().join("battle-01-dbsa-syracuse.pdf"));
    let umpire = text_of(&dir.path().join("battle-01-dbsa-umpire.pdf"));
    assert!(carthage.contains("Himilco") && !carthage.contains("Leptines"), "{carthage}");
    assert!(syracuse.contains("Leptines") && !syracuse.contains("Himilco"), "{syracuse}");
    assert!(carthage.contains("DBSA roster") && carthage.contains("summer storm: rain") && carthage.contains("late afternoon"));
    assert!(umpire.contains("Himilco") && umpire.contains("Leptines") && umpire.contains("MG-22"), "{umpire}");
    // The default DBSA scaling keeps Himera's odds (20 against 50); twelve a side is warned of.
    assert!(
        umpire.contains("20 : 50 (1 : 2.50) in the campaign, 5 : 12 (1 : 2.40) on the table") && !umpire.contains("WARNING"),
        "{umpire}"
    );
    assert!(carthage.contains("5 DBSA elements stand for 20 campaign elements") && !carthage.contains("50 campaign"), "{carthage}");
    let per_side = dir.path().join("per-side");
    cli(&db.path, &["pack", "Night", "1", "--out", &per_side.display().to_string(), "--system", "dbsa", "--scaling", "per-side"]).ok();
    let umpire = text_of(&per_side.join("battle-01-dbsa-umpire.pdf"));
    assert!(umpire.contains("WARNING: the scaling moves the odds between Carthage and Syracuse by 150 %"), "{umpire}");
    // US Letter is 612 × 792 points.
    let bytes = std::fs::read(dir.path().join("battle-01-dbsa-carthage.pdf")).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("612") && text.contains("792"), "not on Letter paper");

    let refusals: &[(&[&str], &str)] = &[
        (&["pack", "Night", "7", "--out", &out], "there is no battle 7 waiting to be fought — MG-20"),
        (&["pack", "Night", "1", "--out", &out, "--system", "ars"], "invalid value 'ars'"),
        (&["pack", "Night", "1", "--out", &out, "--scaling", "per-army"], "invalid value 'per-army'"),
        (&["table", "Night", "1", "--defence", "forward"], "the table at Himera is already set for day 1"),
    ];
    for (args, expected) in refusals {
        db.refuses(args, expected);
    }
}

/// MG-20 / MG-23 / MG-25 / MG-26 / MG-30 / MG-31: the results form refuses every kind of
/// entry that does not fit the battle, one sentence each, leaving the database as it was;
/// a good result applies the rules, can be undone and typed in again, and play goes on; the
/// battle's pack is printed again afterwards as the battle stood.
#[test]
fn mg_30_results_typed_in_checked_applied_undone_and_retyped() {
    let (db, dir) = night();
    let d = dir.path();
    let won = |losses: &str| format!(r#"{{"outcome":{{"kind":"won","winner":"carthage"}},"losses":[{losses}]}}"#);
    let leptines = |extra: &str| format!(r#"{{"side":"syracuse","command":"Leptines"{extra}}}"#);
    let bad: Vec<(String, &str)> = vec![
        (
            r#"{"outcome":{"kind":"won","winner":"rome"}}"#.to_owned(),
            "`outcome.winner`: Dionysian War has no side `rome`; its sides are carthage, syracuse — MG-02",
        ),
        (won(&leptines(r#","destroyed":["15 Reg Sp(O)"]"#)), "Leptines had 14 Reg Sp(O) and cannot have lost 15"),
        (won(r#"{"side":"carthage","command":"Mago","destroyed":["1 Reg Sp(O)"]}"#), "Mago of Carthage did not fight at Himera"),
        (won(&leptines(r#","fled":["2 Reg Sp(O)"]"#)), "only inferior elements count as lost when they flee, not Reg Sp(O) — MG-26"),
        (won(&leptines(r#","join":"Himilco","general_killed":true"#)), "Himilco is not another Syracuse command at Himera — MG-31"),
        (won(&leptines(r#","join":"Dionysius""#)), "Leptines joins Dionysius only if its general is lost — MG-31"),
        (format!("[{},{}]", won(""), won("")), "the result must be a JSON object"),
        (won(&format!("{},{}", leptines(""), leptines(""))), "Leptines is listed twice"),
        (r#"{"outcome":{"kind":"no_result"},"held_field":"carthage"}"#.to_owned(), "nobody holds the field after a battle without a loser"),
        (r#"{"battle":2,"outcome":{"kind":"no_result"}}"#.to_owned(), "the file is the result of battle 2, not battle 1"),
        (r#"{"outcome":{"kind":"lost"}}"#.to_owned(), "does not read as a battle result"),
        ("{not json".to_owned(), "the result is not valid JSON"),
    ];
    results_refused(&db, d, &bad, &[], "");

    // Leptines loses two spearmen and is declared demoralised by his own side; the recovery
    // dice are typed in: a 6 brings one back, a 1 does not.
    let good = write(d, "good.json", &won(&leptines(r#","destroyed":["2 Reg Sp(O)"],"voluntary":true"#)));
    let out = cli(&db.path, &["result", "Night", "1", "--file", &good, "--value", "6,1"])
        .ok_saying("recovery of Reg Sp(O) of Leptines (secret) — MG-30");
    assert!(out.contains("Battle 1 at Himera: Carthage wins") && out.contains("declared demoralised — MG-23"), "{out}");
    cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok_saying("13 Reg Sp(O)");

    // A wrong entry is undone and typed again.
    cli(&db.path, &["undo", "Night"]).ok_saying("enter the result of battle 1 at Himera");
    cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok_saying("14 Reg Sp(O)");
    cli(&db.path, &["result", "Night", "1", "--file", &good, "--value", "6,6"]).ok();
    cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok_saying("14 Reg Sp(O)");

    // The campaign goes on: the beaten Leptines retreats in post-combat movement.
    cli(&db.path, &["order", "Night", r#"{"type":"end_phase","side":"carthage"}"#]).ok();
    cli(&db.path, &["order", "Night", r#"{"type":"retreat","side":"syracuse","counter":"Leptines","path":[9]}"#])
        .ok_saying("Leptines retreats");
    let shown = cli(&db.path, &["show", "Night", "--json"]).json();
    assert_eq!(shown["board"]["battles"].as_array().map(Vec::len), Some(0));

    // A lost umpire's sheet is printed again after the battle, as the battle stood.
    let again = tempfile::tempdir().unwrap();
    let out = again.path().display().to_string();
    cli(&db.path, &["pack", "Night", "1", "--out", &out]).ok_saying("battle-01-dbm-umpire.pdf");
    let sheet = text_of(&again.path().join("battle-01-dbm-umpire.pdf"));
    assert!(sheet.contains("Battle 1 at Himera") && sheet.contains("Leptines"), "{sheet}");
    let brief = text_of(&again.path().join("battle-01-dbm-syracuse.pdf"));
    assert!(brief.contains("14 Reg Sp(O)"), "Leptines's men as they stood before the battle: {brief}");
    db.refuses(&["pack", "Night", "1", "--out", &out, "--system", "ars-bellum"], "battle 1's result is in");
}

/// MG-31: Thearides stands beside Leptines at Himera. A result file that leaves the men of
/// Thearides, whose general was killed, leaderless is refused in one line naming Leptines,
/// the database byte for byte as it was; naming Leptines, and the general lost on the
/// recovery die, Thearides's men join Leptines.
#[test]
fn mg_31_a_result_leaving_a_lost_generals_men_leaderless_beside_leptines_is_refused() {
    use referee_campaign::fixtures::{DIONYSIAN, moved};
    let db = himilco_attacks_himera(&moved(&DIONYSIAN, "syracuse", "Thearides", 8));

    let dir = tempfile::tempdir().unwrap();
    let result = |join: &str| {
        format!(
            r#"{{"outcome":{{"kind":"won","winner":"carthage"}},"losses":[{{"side":"syracuse","command":"Thearides","general_killed":true{join}}}]}}"#
        )
    };
    let leaderless = write(dir.path(), "leaderless.json", &result(""));
    let before = db.bytes();
    let line = cli(&db.path, &["result", "Night", "1", "--file", &leaderless, "--value", "1"]).refused();
    assert!(
        line.contains("Thearides's general was killed and Leptines stands with his men at Himera, so the result must name Leptines for them to join should he not be recovered, not leave them leaderless — MG-31"),
        "{line}"
    );
    assert_eq!(db.bytes(), before, "the refused result changed the database");

    let joined = write(dir.path(), "joined.json", &result(r#","join":"Leptines""#));
    cli(&db.path, &["result", "Night", "1", "--file", &joined, "--value", "1"])
        .ok_saying("Thearides's general is lost and his men join Leptines — MG-31");
    let roster = cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok();
    assert!(!roster.contains("Thearides"), "{roster}");
}

/// MG-31: Leptines, alone at Himera, loses his general for good: his roster says so, counts
/// his command without the general, and names the side as the log does.
#[test]
fn mg_31_a_leaderless_command_reads_so_in_the_roster() {
    let db = himilco_attacks_himera(&referee_campaign::fixtures::DIONYSIAN);
    let before = cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok_saying("Syracuse: ");
    let counted = |roster: &str| roster.lines().find(|l| l.trim_start().starts_with("Leptines (")).unwrap().to_owned();
    assert!(counted(&before).contains("20 elements"), "{before}");
    let dir = tempfile::tempdir().unwrap();
    let result = write(
        dir.path(),
        "result.json",
        r#"{"outcome":{"kind":"won","winner":"carthage"},"losses":[{"side":"syracuse","command":"Leptines","general_killed":true}]}"#,
    );
    cli(&db.path, &["result", "Night", "1", "--file", &result, "--value", "1"]).ok_saying("fights on leaderless");
    let after = cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok();
    let line = counted(&after);
    assert!(line.contains("19 elements") && line.contains("general lost (") && line.contains("leaderless (MG-31)"), "{after}");
}

/// MG-31 / X-04: Leptines loses his general for good on Himera's first day and both sides
/// stay: on the second day's roster his command sets out no general, pays for none, and
/// counts its men as the side's own roster does.
#[test]
fn mg_31_a_leaderless_command_fields_no_general_in_its_pack() {
    let (db, dir) = night();
    let out = dir.path().display().to_string();
    cli(&db.path, &["table", "Night", "1", "--defence", "central"]).ok();
    let drawn = write(
        dir.path(),
        "drawn.json",
        r#"{"outcome":{"kind":"no_result"},"losses":[{"side":"syracuse","command":"Leptines","general_killed":true}]}"#,
    );
    cli(&db.path, &["result", "Night", "1", "--file", &drawn, "--value", "1"]).ok_saying("for recovery of Leptines's general");
    for side in ["syracuse", "carthage"] {
        let stay = format!(r#"{{"type":"choose_stay_or_retire","side":"{side}","battle":1,"stay":true}}"#);
        cli(&db.path, &["order", "Night", &stay]).ok();
    }
    cli(&db.path, &["table", "Night", "1", "--defence", "rear"]).ok();
    cli(&db.path, &["pack", "Night", "1", "--out", &out]).ok();
    let brief = text_of(&dir.path().join("battle-01-day-2-dbm-syracuse.pdf"));
    assert!(brief.contains("No general (leaderless) 0 0"), "{brief}");
    assert!(brief.contains("Command total (19 elements) 19 98"), "{brief}");
    assert!(brief.contains("Leptines none: leaderless (MG-31) 14 Reg Sp(O), 3 Reg Cv(O), 2 Reg Ps(O) 19 98"), "{brief}");
    let roster = cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok();
    assert!(roster.lines().any(|l| l.trim_start().starts_with("Leptines (") && l.contains("19 elements")), "{roster}");
}

/// MG-25 / X-04: after a battle without a loser in which both sides stay, the second day's
/// pack waits for its own table, which may only move toward the defender's rear.
#[test]
fn mg_25_the_second_days_pack_has_its_own_table() {
    let (db, dir) = night();
    let out = dir.path().display().to_string();
    cli(&db.path, &["table", "Night", "1", "--defence", "central"]).ok();
    let drawn = write(dir.path(), "drawn.json", r#"{"outcome":{"kind":"no_result"}}"#);
    cli(&db.path, &["result", "Night", "1", "--file", &drawn]).ok();
    for side in ["syracuse", "carthage"] {
        let stay = format!(r#"{{"type":"choose_stay_or_retire","side":"{side}","battle":1,"stay":true}}"#);
        cli(&db.path, &["order", "Night", &stay]).ok();
    }
    cli(&db.path, &["pack", "Night", "1", "--out", &out]).ok();
    let brief = text_of(&dir.path().join("battle-01-day-2-dbm-syracuse.pdf"));
    assert!(brief.contains("day 2") && brief.contains("The table is not set yet"), "{brief}");
    assert!(brief.contains("Second day"), "the second day's special rule is missing: {brief}");
    cli(&db.path, &["table", "Night", "1", "--defence", "forward"])
        .refused_saying("only toward its own rear, not from central to forward — MG-25");
    cli(&db.path, &["table", "Night", "1", "--defence", "rear"]).ok();
    cli(&db.path, &["pack", "Night", "1", "--out", &out, "--overwrite"]).ok();
    let brief = text_of(&dir.path().join("battle-01-day-2-dbm-syracuse.pdf"));
    assert!(brief.contains("rear section") && !brief.contains("The table is not set yet"), "{brief}");
}

/// AB-08, AC-07, MG-20: a battle night in a hex wargame: the pack from the command line (the
/// umpire's file, a file per side, the map on A3 and on sheets for every player), then the
/// counters lost typed in: a counter the side has not is refused with the database as it was,
/// and the good result becomes the campaign's, its recovery rolled.
#[test]
fn ab_08_ac_07_a_hex_battle_night_from_the_command_line() {
    for (system, counters) in [("ars-bellum", "SPEAR"), ("a-la-charge", "Sp Strength")] {
        let (db, dir) = night();
        let d = dir.path();
        let out = d.display().to_string();
        cli(&db.path, &["table", "Night", "1", "--defence", "central", "--value", "1,6"]).ok();
        let listed = cli(&db.path, &["pack", "Night", "1", "--out", &out, "--system", system, "--json"]).json();
        let files = listed.as_array().unwrap();
        let readers: Vec<&str> = files.iter().map(|f| f["reader"].as_str().unwrap_or("side")).collect();
        assert_eq!(readers, ["umpire", "side", "side", "everyone", "everyone"], "{listed}");
        let syracuse = text_of(&d.join(format!("battle-01-{system}-syracuse.pdf")));
        assert!(syracuse.contains("Leptines") && !syracuse.contains("Himilco") && syracuse.contains(counters), "{syracuse}");
        assert!(text_of(&d.join(format!("battle-01-{system}-map-sheets.pdf"))).contains("Joining the sheets"));

        // Leptines's counters are numbered from 1 on the Syracusans' sheet: he is counter 1.
        let won =
            |lost: &str| format!(r#"{{"outcome":{{"kind":"won","winner":"carthage"}},"sides":[{{"side":"syracuse","lost":[{lost}]}}]}}"#);
        let bad = [
            (won(r#"{"counter":99}"#), "the Syracuse have no counter 99"),
            (won(r#"{"counter":2,"steps":3}"#), "counter 2 of the Syracuse"),
            (won(r#"{"counter":2,"stepz":1}"#), "does not read as a hex wargame's result"),
            (r#"{"battle":3,"outcome":{"kind":"no_result"}}"#.to_owned(), "the file is the result of battle 3, not battle 1"),
        ];
        results_refused(&db, d, &bad, &["--system", system], &format!("{system}: "));
        let good = write(d, "good.json", &won(r#"{"counter":2},{"counter":3}"#));
        let done = cli(&db.path, &["result", "Night", "1", "--file", &good, "--system", system]).ok();
        assert!(done.contains("Battle 1 at Himera: Carthage wins"), "{system}: {done}");
        let roster = cli(&db.path, &["roster", "Night", "--as", "syracuse"]).ok();
        assert!(!roster.contains("14 Reg Sp(O)"), "{system}: Leptines lost spearmen: {roster}");
    }
}

/// MG-22: a strong wind is rolled with where it blows from, a d4 logged with the weather, and
/// every file of the pack says from which edge of the table; typed-in dice take the d4 third,
/// and a strong wind without it is refused with nothing stored.
#[test]
fn mg_22_a_strong_wind_says_from_which_edge_it_blows() {
    let (db, dir) = night();
    let before = db.bytes();
    let short = cli(&db.path, &["table", "Night", "1", "--defence", "central", "--value", "2,3"]).refused();
    assert!(!short.is_empty());
    assert_eq!(db.bytes(), before, "a table with too few dice was stored");
    let set = cli(&db.path, &["table", "Night", "1", "--defence", "central", "--value", "2,3,2"]).ok();
    assert!(set.contains("wind's direction, battle 1 at Himera, day 1"), "the d4 is logged: {set}");
    cli(&db.path, &["pack", "Night", "1", "--out", dir.path().to_str().unwrap()]).ok();
    for who in ["umpire", "carthage", "syracuse"] {
        let text = text_of(&dir.path().join(format!("battle-01-dbm-{who}.pdf")));
        assert!(text.contains("strong wind from the attacker's left"), "{who}: {text}");
    }
}
