//! The hex wargames' conversion table (`tabletop/hex-units.toml`) read from the referee's
//! data folder, and kept with the battle whose pack it counted: the pack's counters follow the
//! folder's table, and the result is read back by the table the pack was written with, even
//! after the folder changed again.

use std::path::Path;

use referee_e2e::{TempDb, cli, raise_himera};

/// Copies the folder `from` into `to`, file by file.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A referee's data folder: the program's own files, with `hex-units.toml` as `edit` makes it.
fn data_folder(edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"), dir.path());
    set_hex_units(dir.path(), edit);
    dir
}

/// Rewrites the folder's `tabletop/hex-units.toml` by `edit`, from the program's own copy.
fn set_hex_units(dir: &Path, edit: impl Fn(&str) -> String) {
    let own = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/tabletop/hex-units.toml")).unwrap();
    let changed = edit(&own);
    std::fs::write(dir.join("tabletop/hex-units.toml"), changed).unwrap();
}

/// Ars Bellum's largest side as `n` counters instead of the table's 20.
fn ars_bellum_largest(n: u32) -> impl Fn(&str) -> String {
    move |text: &str| {
        assert!(text.contains("largest_side_units = 20"), "the built-in table gives Ars Bellum's largest side 20 counters");
        text.replacen("largest_side_units = 20", &format!("largest_side_units = {n}"), 1)
    }
}

fn umpire_text(dir: &Path) -> String {
    let bytes = std::fs::read(dir.join("battle-01-ars-bellum-umpire.pdf")).unwrap();
    referee_battle_gen::pdf::extract_text(&bytes).unwrap().join("\n").replace('\n', " ")
}

/// Himera raised and its table set, in a fresh database.
fn himera_set(db: &TempDb) {
    raise_himera(&db.path, "Kept");
    cli(&db.path, &["table", "Kept", "1", "--defence", "central", "--value", "1,6"]).ok();
}

/// AB-01: a referee's own `hex-units.toml` in `--data` changes the counters of the pack
/// written with it: Ars Bellum's largest side becomes 8 counters where the built-in table
/// gives 20.
#[test]
fn ab_01_the_data_folders_hex_table_sets_the_packs_counters() {
    let db = TempDb::new();
    himera_set(&db);
    let built_in = tempfile::tempdir().unwrap();
    cli(&db.path, &["pack", "Kept", "1", "--out", built_in.path().to_str().unwrap(), "--system", "ars-bellum"]).ok();
    let text = umpire_text(built_in.path());
    assert!(text.contains("The battle's factor: 20 counters for the largest side's"), "{text}");

    let data = data_folder(ars_bellum_largest(8));
    let out = tempfile::tempdir().unwrap();
    let data_arg = data.path().to_str().unwrap();
    cli(&db.path, &["--data", data_arg, "pack", "Kept", "1", "--out", out.path().to_str().unwrap(), "--system", "ars-bellum"]).ok();
    let text = umpire_text(out.path());
    assert!(text.contains("The battle's factor: 8 counters for the largest side's"), "{text}");
    assert!(text.contains(&data.path().join("tabletop/hex-units.toml").display().to_string()), "the pack names the table it used: {text}");
}

/// AB-08, MG-20: the result of a pack written with the folder's 8-counter table is read back
/// by that table after the folder has changed to 30 counters: Syracuse, the largest side, has
/// 8 unit counters and its 3 generals' under the kept table, so its counter 20 does not exist
/// (under the folder's table now it would), and a result naming it is refused with nothing
/// stored; one naming its counter 2 is taken.
#[test]
fn ab_08_a_result_is_read_back_by_the_table_kept_with_its_battle() {
    let db = TempDb::new();
    himera_set(&db);
    let data = data_folder(ars_bellum_largest(8));
    let data_arg = data.path().to_str().unwrap().to_owned();
    let out = tempfile::tempdir().unwrap();
    cli(&db.path, &["--data", &data_arg, "pack", "Kept", "1", "--out", out.path().to_str().unwrap(), "--system", "ars-bellum"]).ok();
    set_hex_units(data.path(), ars_bellum_largest(30));
    let won = |counter: u32| {
        let file = out.path().join(format!("result-{counter}.json"));
        let json = format!(
            r#"{{"outcome":{{"kind":"won","winner":"carthage"}},"sides":[{{"side":"syracuse","lost":[{{"counter":{counter}}}]}}]}}"#
        );
        std::fs::write(&file, json).unwrap();
        file.display().to_string()
    };
    let before = db.bytes();
    cli(&db.path, &["--data", &data_arg, "result", "Kept", "1", "--file", &won(20), "--system", "ars-bellum"])
        .refused_saying("no counter 20");
    assert_eq!(db.bytes(), before, "a refused result changed the database");
    // The folder's table now would have the counter: only the kept table refuses it.
    let fresh = TempDb::new();
    himera_set(&fresh);
    let later = tempfile::tempdir().unwrap();
    cli(&fresh.path, &["--data", &data_arg, "pack", "Kept", "1", "--out", later.path().to_str().unwrap(), "--system", "ars-bellum"]).ok();
    cli(&fresh.path, &["--data", &data_arg, "result", "Kept", "1", "--file", &won(20), "--system", "ars-bellum"]).ok();

    cli(&db.path, &["--data", &data_arg, "result", "Kept", "1", "--file", &won(2), "--system", "ars-bellum"])
        .ok_saying("Battle 1 at Himera: Carthage wins");
}

/// A pack into a folder holding the same pack is refused, naming the files, with nothing
/// written; `--overwrite` replaces them. The kept table stays the one the files on disk
/// were counted by: the refused pack keeps nothing.
#[test]
fn a_pack_never_replaces_files_unasked_nor_keeps_a_table_it_did_not_write() {
    let db = TempDb::new();
    himera_set(&db);
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    cli(&db.path, &["pack", "Kept", "1", "--out", dir, "--system", "ars-bellum"]).ok();
    let umpire = out.path().join("battle-01-ars-bellum-umpire.pdf");
    let written = std::fs::read(&umpire).unwrap();
    let data = data_folder(ars_bellum_largest(8));
    let data_arg = data.path().to_str().unwrap();
    let refused = cli(&db.path, &["--data", data_arg, "pack", "Kept", "1", "--out", dir, "--system", "ars-bellum"]).refused();
    assert!(refused.contains("battle-01-ars-bellum-umpire.pdf") && refused.contains("nothing was written"), "{refused}");
    assert_eq!(std::fs::read(&umpire).unwrap(), written, "the refused pack changed a file");
    // The files on disk have 20 counters for Syracuse: its counter 20 is there.
    let file = out.path().join("result.json");
    let json = r#"{"outcome":{"kind":"won","winner":"carthage"},"sides":[{"side":"syracuse","lost":[{"counter":20}]}]}"#;
    std::fs::write(&file, json).unwrap();
    let file = file.display().to_string();
    // Entered and undone, so the pack can be written again over the same battle.
    cli(&db.path, &["result", "Kept", "1", "--file", &file, "--system", "ars-bellum"]).ok();
    cli(&db.path, &["undo", "Kept"]).ok();
    cli(&db.path, &["--data", data_arg, "pack", "Kept", "1", "--out", dir, "--system", "ars-bellum", "--overwrite"]).ok();
    assert_ne!(std::fs::read(&umpire).unwrap(), written, "--overwrite replaced the file");
    assert!(umpire_text(out.path()).contains("8 counters for the largest side's"));
    let refused = cli(&db.path, &["result", "Kept", "1", "--file", &file, "--system", "ars-bellum"]).refused();
    assert!(refused.contains("no counter 20"), "the new pack's table is kept: {refused}");
}

/// A broken `hex-units.toml` in the data folder is refused with its file and line, and no
/// pack is written.
#[test]
fn a_broken_hex_table_in_the_data_folder_is_refused_with_file_and_line() {
    let db = TempDb::new();
    himera_set(&db);
    type Edit = Box<dyn Fn(&str) -> String>;
    let cases: Vec<(Edit, usize, &str)> = vec![
        (Box::new(ars_bellum_largest(1)), 46, "the largest side needs at least 2 counters"),
        (
            Box::new(|t: &str| t.replacen("largest_side_units = 20", "largest_side_units = 20\nlargest_side = 3", 1)),
            47,
            "unknown field `largest_side`",
        ),
    ];
    for (edit, line, says) in cases {
        let data = data_folder(edit);
        let out = tempfile::tempdir().unwrap();
        let folder = out.path().join("packs");
        let refused = cli(
            &db.path,
            &["--data", data.path().to_str().unwrap(), "pack", "Kept", "1", "--out", folder.to_str().unwrap(), "--system", "a-la-charge"],
        )
        .refused();
        let file = data.path().join("tabletop/hex-units.toml");
        assert!(refused.contains(&format!("{}:{line}: ", file.display())) && refused.contains(says), "{refused}");
        assert!(!folder.exists(), "a pack was written with a broken table");
    }
}
