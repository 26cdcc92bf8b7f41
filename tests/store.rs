//! the SQLite store — migrations, refusing files that are not ours, several campaigns
//! per file, undo, snapshots.

use referee_campaign::store::{APPLICATION_ID, SCHEMA_VERSION};
use referee_campaign::{Command, DiceInput, DiceSpec, NodeId, SideId, Store, StoreError};
use referee_e2e::{TempDb, scenario, sicily};
use rusqlite::Connection;

fn roll(purpose: &str) -> Command {
    Command::RollDice { dice: DiceSpec::D6, purpose: purpose.to_owned(), side: None, hidden: false, modifiers: vec![] }
}

fn schema(path: &std::path::Path) -> Vec<(String, String)> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn.prepare("SELECT name, sql FROM sqlite_master ORDER BY name").unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, Option<String>>(1)?.unwrap_or_default()))).unwrap().collect::<Result<_, _>>().unwrap()
}

/// opening twice applies the migrations once; the file says whose it is and which
/// version wrote it.
#[test]
fn x_03_migrations_applied_twice_change_nothing() {
    let db = TempDb::new();
    drop(Store::open(&db.path).unwrap());
    let first = schema(&db.path);
    drop(Store::open(&db.path).unwrap());
    assert_eq!(schema(&db.path), first);
    let conn = Connection::open(&db.path).unwrap();
    let version: i32 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    let app: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0)).unwrap();
    assert_eq!((version, app), (SCHEMA_VERSION, APPLICATION_ID));
    let tables: Vec<String> = first.iter().map(|(n, _)| n.clone()).collect();
    for t in ["campaigns", "commands", "events", "battles", "battle_results", "snapshots"] {
        assert!(tables.contains(&t.to_owned()), "table {t} in {tables:?}");
    }
    let journal: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
    assert_eq!(journal, "wal");
}

/// a blank SQLite file (schema version 0, no tables) is migrated like a new one.
#[test]
fn x_03_blank_sqlite_file_is_migrated() {
    let db = TempDb::new();
    {
        let conn = Connection::open(&db.path).unwrap();
        conn.execute_batch("PRAGMA user_version = 0; VACUUM;").unwrap();
    }
    let mut store = Store::open(&db.path).unwrap();
    store.create("A", scenario("dionysian"), 1).unwrap();
    assert_eq!(store.campaigns().unwrap().len(), 1);
}

/// a database from a newer version is refused and left byte for byte as it was.
#[test]
fn x_03_newer_database_is_refused_untouched() {
    let db = TempDb::new();
    {
        let mut store = Store::open(&db.path).unwrap();
        store.create("Old", scenario("pyrrhic"), 5).unwrap();
    }
    {
        let conn = Connection::open(&db.path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let before = db.bytes();
    let err = Store::open(&db.path).unwrap_err();
    assert!(matches!(err, StoreError::Newer { found, .. } if found == SCHEMA_VERSION + 1), "{err}");
    assert!(err.to_string().contains("newer version of referee"), "{err}");
    assert_eq!(db.bytes(), before);
}

/// a file that is not SQLite gets one sentence and is not touched.
#[test]
fn x_03_not_sqlite_is_refused_untouched() {
    let db = TempDb::new();
    let text = b"Turn 4: Syracuse moves to Catana.\nThis is a referee's notebook, not a database.\n".repeat(20);
    std::fs::write(&db.path, &text).unwrap();
    let err = Store::open(&db.path).unwrap_err();
    assert!(matches!(err, StoreError::NotSqlite(_)), "{err}");
    assert_eq!(err.to_string().lines().count(), 1);
    assert!(err.to_string().contains("left untouched"));
    assert_eq!(db.bytes(), text);
    assert!(!db.path.with_extension("sqlite-wal").exists());
}

/// another program's SQLite database is refused and not touched.
#[test]
fn x_03_foreign_sqlite_is_refused_untouched() {
    let db = TempDb::new();
    {
        let conn = Connection::open(&db.path).unwrap();
        conn.execute_batch("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('garum');").unwrap();
    }
    let before = db.bytes();
    let err = Store::open(&db.path).unwrap_err();
    assert!(matches!(err, StoreError::NotOurs(_)), "{err}");
    assert_eq!(db.bytes(), before);
}

/// a file with SQLite's header but garbage after it is refused too.
#[test]
fn x_03_corrupt_sqlite_is_refused_untouched() {
    let db = TempDb::new();
    let mut bytes = b"SQLite format 3\0".to_vec();
    bytes.extend(std::iter::repeat_n(0xA5u8, 4096));
    std::fs::write(&db.path, &bytes).unwrap();
    assert!(Store::open(&db.path).is_err());
    assert_eq!(db.bytes(), bytes);
}

/// several campaigns live in one file, each with its own story.
#[test]
fn x_03_several_campaigns_per_file() {
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    let mut a = store.create("Syracuse 398", scenario("dionysian"), 1).unwrap();
    let b = store.create("Pyrrhus 278", scenario("pyrrhic"), 2).unwrap();
    store.execute(&mut a, sicily(), &roll("A only"), DiceInput::Seeded).unwrap();
    assert!(matches!(store.create("Pyrrhus 278", scenario("pyrrhic"), 3), Err(StoreError::CampaignExists(_))));
    drop(store);
    let store = Store::open(&db.path).unwrap();
    let list = store.campaigns().unwrap();
    assert_eq!(list.iter().map(|c| (c.name.as_str(), c.events)).collect::<Vec<_>>(), [("Syracuse 398", 2), ("Pyrrhus 278", 1)]);
    assert_eq!(store.find("Pyrrhus 278").unwrap(), b.id);
    assert_eq!(store.find(&b.id.to_string()).unwrap(), b.id);
    assert!(matches!(store.find("Hannibal"), Err(StoreError::UnknownCampaign(_))));
    assert_eq!(store.load(a.id).unwrap().state.rolls, 1);
    assert_eq!(store.load(b.id).unwrap().state.scenario.id, "pyrrhic");
}

/// undo removes exactly the last command's events; the start cannot be undone.
#[test]
fn x_03_undo_removes_the_last_command() {
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create("U", scenario("first-punic"), 9).unwrap();
    let fresh = c.state.clone();
    store.execute(&mut c, sicily(), &roll("one"), DiceInput::Seeded).unwrap();
    let after_one = c.state.clone();
    let give = Command::AdjustControl { node: NodeId(5), side: Some(SideId::new("rome")), reason: "a rising".into() };
    store.execute(&mut c, sicily(), &give, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.control[&NodeId(5)], SideId::new("rome"));
    let undone = store.undo(&mut c).unwrap();
    assert_eq!((undone.command_seq, undone.events), (3, 1));
    assert_eq!(c.state, after_one);
    store.undo(&mut c).unwrap();
    assert_eq!(c.state, fresh);
    assert!(matches!(store.undo(&mut c), Err(StoreError::NothingToUndo(_))));
    assert_eq!(store.events(c.id).unwrap().len(), 1);
}

/// undoing a roll and rolling again gives the same number — undo cannot be
/// used to fish for better dice.
#[test]
fn x_02_undo_then_reroll_gives_the_same_roll() {
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create("Fair", scenario("dionysian"), 77).unwrap();
    let first = store.execute(&mut c, sicily(), &roll("siege"), DiceInput::Seeded).unwrap();
    store.undo(&mut c).unwrap();
    let again = store.execute(&mut c, sicily(), &roll("siege"), DiceInput::Seeded).unwrap();
    assert_eq!(first, again);
}

/// a refused command writes nothing.
#[test]
fn x_03_refused_command_writes_nothing() {
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.create("R", scenario("dionysian"), 3).unwrap();
    let bad = Command::AdjustControl { node: NodeId(40), side: None, reason: "x".into() };
    let err = store.execute(&mut c, sicily(), &bad, DiceInput::Seeded).unwrap_err();
    assert!(err.to_string().ends_with("— MG-01"), "{err}");
    let manual = store.execute(&mut c, sicily(), &roll("p"), DiceInput::Manual(vec![9])).unwrap_err();
    assert!(manual.to_string().contains("9 cannot be rolled on a d6"), "{manual}");
    assert_eq!(store.events(c.id).unwrap().len(), 1);
    assert_eq!(c.head, 1);
}

/// opening from a snapshot gives the same state as replaying every event, and undo
/// past a snapshot drops it.
#[test]
fn x_03_snapshots_match_full_replay() {
    let mut store = Store::open_in_memory().unwrap();
    store.set_snapshot_every(10);
    let mut c = store.create("S", scenario("second-punic"), 11).unwrap();
    for i in 0..34 {
        store.execute(&mut c, sicily(), &roll(&format!("r{i}")), DiceInput::Seeded).unwrap();
    }
    let snapshots: i64 = store.connection().query_row("SELECT count(*) FROM snapshots", [], |r| r.get(0)).unwrap();
    assert_eq!(snapshots, 3);
    let loaded = store.load(c.id).unwrap();
    let replayed = referee_campaign::CampaignState::replay(store.events(c.id).unwrap().iter().map(|l| &l.event)).unwrap();
    assert_eq!(loaded.state, replayed);
    assert_eq!(loaded.state, c.state);
    for _ in 0..5 {
        store.undo(&mut c).unwrap();
    }
    let left: i64 = store.connection().query_row("SELECT max(event_seq) FROM snapshots", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 30);
    assert_eq!(store.load(c.id).unwrap().state.rolls, 29);
}

/// a campaign changed by another program since it was opened is not overwritten.
#[test]
fn x_03_stale_campaign_is_refused() {
    let db = TempDb::new();
    let mut one = Store::open(&db.path).unwrap();
    let mut two = Store::open(&db.path).unwrap();
    let mut c1 = one.create("Shared", scenario("dionysian"), 4).unwrap();
    let mut c2 = two.load(c1.id).unwrap();
    one.execute(&mut c1, sicily(), &roll("first"), DiceInput::Seeded).unwrap();
    let err = two.execute(&mut c2, sicily(), &roll("second"), DiceInput::Seeded).unwrap_err();
    assert!(err.to_string().contains("changed by another program"), "{err}");
    assert_eq!(one.events(c1.id).unwrap().len(), 2);
}

/// a snapshot that no longer reads back is passed over; the events are the truth.
#[test]
fn x_03_unreadable_snapshot_falls_back_to_the_events() {
    let mut store = Store::open_in_memory().unwrap();
    store.set_snapshot_every(2);
    let mut c = store.create("Cache", scenario("dionysian"), 8).unwrap();
    for i in 0..5 {
        store.execute(&mut c, sicily(), &roll(&format!("r{i}")), DiceInput::Seeded).unwrap();
    }
    store.connection().execute("UPDATE snapshots SET body = '{\"broken\": true}'", []).unwrap();
    assert_eq!(store.load(c.id).unwrap().state, c.state);
}

/// a database written at schema version 1 is migrated in place, its campaigns kept.
#[test]
fn x_03_a_version_1_database_is_migrated() {
    let db = TempDb::new();
    {
        let conn = Connection::open(&db.path).unwrap();
        conn.execute_batch(referee_campaign::store::migrations()[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID).unwrap();
        conn.execute("INSERT INTO campaigns (name, scenario, created_at) VALUES ('Old', 'dionysian', '2026-01-01')", []).unwrap();
    }
    let store = Store::open(&db.path).unwrap();
    let version: i32 = store.connection().pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    assert_eq!(store.campaigns().unwrap()[0].name, "Old");
    let columns: Vec<String> = store
        .connection()
        .prepare("SELECT name FROM pragma_table_info('battles')")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(columns.contains(&"number".to_owned()), "{columns:?}");
}
