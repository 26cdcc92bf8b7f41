//! A database written by an older program (`tests/fixtures/v16-main.sqlite`: schema version 2,
//! state version 16, see `tests/fixtures/README.md`) still opens, every campaign in it replays,
//! and every log and view reads exactly as that program printed them
//! (`tests/fixtures/v16-main/`). When the schema moves on, opening the copy migrates it, and
//! this test checks the migration kept every campaign as it was.

use referee_campaign::magna_graecia::MagnaGraecia;
use std::path::{Path, PathBuf};

use referee_campaign::{Store, magna_graecia::state::CampaignState};
use referee_e2e::{TempDb, cli};

/// What the fixture's database was written with: `PRAGMA user_version`.
const FIXTURE_SCHEMA_VERSION: i32 = 2;

/// Campaign, file name stem of its golden outputs, and its sides.
const CAMPAIGNS: &[(&str, &str, &[&str])] = &[
    ("Dionysian", "dionysian", &["carthage", "syracuse"]),
    ("Pyrrhic", "pyrrhic", &["carthage", "pyrrhus", "syracuse"]),
    ("First Punic", "first-punic", &["carthage", "rome", "syracuse"]),
    ("Second Punic", "second-punic", &["rome", "syracuse", "carthage"]),
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A golden file's text; a missing one fails the test (it is never written here).
fn golden(name: &str) -> String {
    let path = fixtures().join("v16-main").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("golden file {} cannot be read: {e}", path.display()))
}

/// The lines the program words differently on purpose since the fixture was made, as the
/// older program printed them and as this one does; every other line must read as it did.
/// - "The 1 commands of Motya take the field" counts one command in the singular (MG-05).
fn reworded(line: &str) -> String {
    match line.split_once("The 1 commands of ") {
        Some((before, after)) => format!("{before}The command of {}", after.replacen(" take the field", " takes the field", 1)),
        None => line.to_owned(),
    }
}

/// Compares whole texts, and on a difference names the first line that differs.
fn same(name: &str, got: &str) {
    let want: String = golden(name).split_inclusive('\n').map(reworded).collect();
    if got != want {
        let line = got.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or_else(|| got.lines().count().min(want.lines().count()));
        panic!(
            "{name} differs from its golden file at line {}:\n  now: {:?}\n  was: {:?}\n({} lines now, {} before)",
            line + 1,
            got.lines().nth(line),
            want.lines().nth(line),
            got.lines().count(),
            want.lines().count()
        );
    }
}

/// The fixture copied into a temporary folder, so that nothing the test does changes it.
fn copy() -> TempDb {
    let db = TempDb::new();
    std::fs::copy(fixtures().join("v16-main.sqlite"), &db.path).expect("the fixture database is there");
    db
}

/// The schema as `tests/fixtures/make_v16_goldens.sh` lists it.
fn schema(conn: &rusqlite::Connection) -> String {
    let mut stmt = conn.prepare("SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name").unwrap();
    let rows = stmt
        .query_map([], |r| Ok(format!("{} {}\n{};\n", r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?)))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

#[test]
fn the_fixture_is_a_version_2_database_of_four_campaigns() {
    let db = copy();
    let conn = rusqlite::Connection::open(&db.path).unwrap();
    let version: i32 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, FIXTURE_SCHEMA_VERSION, "the fixture is not the database the older program wrote");
    let id: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0)).unwrap();
    assert_eq!(id, referee_campaign::store::APPLICATION_ID);
    same("schema.sql", &schema(&conn));
    let snapshots: Vec<u32> =
        conn.prepare("SELECT state_version FROM snapshots").unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert!(!snapshots.is_empty() && snapshots.iter().all(|&v| v == 16), "the fixture keeps snapshots of state version 16: {snapshots:?}");
    // Today's program writes this very schema, or migrates the fixture forward.
    const { assert!(referee_campaign::store::SCHEMA_VERSION >= FIXTURE_SCHEMA_VERSION) };
    if referee_campaign::store::SCHEMA_VERSION == FIXTURE_SCHEMA_VERSION {
        let fresh = TempDb::new();
        drop(Store::open(&fresh.path).unwrap());
        let fresh = rusqlite::Connection::open(&fresh.path).unwrap();
        let fresh_schema = schema(&fresh).replace("index sqlite_autoindex_campaigns_1\n;\n", "");
        assert_eq!(
            fresh_schema,
            schema(&conn).replace("index sqlite_autoindex_campaigns_1\n;\n", ""),
            "today's schema differs from the fixture's at the same version"
        );
    }
}

#[test]
fn every_campaign_of_the_old_database_replays_and_reads_as_it_did() {
    let db = copy();
    // Opening for writing migrates an older schema.
    let store = Store::open(&db.path).expect("the old database opens");
    let names: Vec<String> = store.campaigns().unwrap().into_iter().map(|c| c.name).collect();
    assert_eq!(names, CAMPAIGNS.iter().map(|c| c.0).collect::<Vec<_>>());
    for &(name, _, _) in CAMPAIGNS {
        let campaign = store.load_as::<MagnaGraecia>(store.find(name).unwrap()).unwrap();
        let events = store.events_as::<MagnaGraecia>(campaign.id).unwrap();
        let replayed = CampaignState::replay(events.iter().map(|l| &l.event)).unwrap();
        assert_eq!(replayed, campaign.state, "{name}: the events replay to another state than the stored one");
    }
    drop(store);
    for &(name, stem, sides) in CAMPAIGNS {
        same(&format!("{stem}.log.umpire.json"), &cli(&db.path, &["log", name, "--json"]).ok());
        same(&format!("{stem}.show.umpire.json"), &cli(&db.path, &["show", name, "--json"]).ok());
        for side in sides {
            same(&format!("{stem}.log.{side}.txt"), &cli(&db.path, &["log", name, "--as", side]).ok());
            same(&format!("{stem}.show.{side}.json"), &cli(&db.path, &["show", name, "--as", side, "--json"]).ok());
        }
    }
}

/// The packs of an older file's battles kept no table: a hex result of any of its battles is
/// read back by the built-in conversion table, as before tables were kept, whether the file is
/// read as it is or migrated.
#[test]
fn an_old_databases_battles_read_back_by_the_built_in_hex_table() {
    let db = copy();
    let built_in = referee_battle_gen::hexunits::HexUnits::embedded();
    let check = |store: &Store| {
        for &(name, ..) in CAMPAIGNS {
            let id = store.find(name).unwrap();
            for battle in 1..=8 {
                let (table, conversion) = referee::tables::kept(store, id, battle).unwrap();
                assert_eq!(table, built_in, "{name}, battle {battle}");
                assert!(conversion.is_none(), "{name}, battle {battle}");
            }
        }
    };
    check(&Store::open_read_only(&db.path).expect("the old database reads as it is"));
    check(&Store::open(&db.path).expect("the old database migrates"));
}
