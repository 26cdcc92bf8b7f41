//! the SQLite store — migrations, refusing files that are not ours, several campaigns
//! per file, undo, snapshots.

use referee_campaign::core::log::RollDice;
use referee_campaign::magna_graecia::MagnaGraecia;
use std::path::Path;
use std::time::Instant;

use referee_campaign::core::engine::EngineId;
use referee_campaign::store::{APPLICATION_ID, BUSY_TIMEOUT, SCHEMA_VERSION};
use referee_campaign::{Campaign, DiceInput, DiceSpec, ExecError, NodeId, SideId, Store, StoreError, magna_graecia::order::Order};
use referee_e2e::{Mode, TempDb, scenario, sicily};
use rusqlite::Connection;

fn roll(purpose: &str) -> Order {
    Order::RollDice(RollDice { dice: DiceSpec::D6, purpose: purpose.to_owned(), side: None, hidden: false, modifiers: vec![] })
}

/// Rolls a d6 `n` times in `c`, for purposes r0, r1, and so on.
fn rolls(store: &mut Store, c: &mut Campaign<MagnaGraecia>, n: usize) {
    for i in 0..n {
        store.execute(c, sicily(), &roll(&format!("r{i}")), DiceInput::Seeded).unwrap();
    }
}

/// Campaign `name` of `scenario_id` (seed `seed`) in memory, a snapshot kept every `every`
/// events, after `n` rolls.
fn rolled_with_snapshots(name: &str, scenario_id: &str, seed: u64, every: u64, n: usize) -> (Store, Campaign<MagnaGraecia>) {
    let mut store = Store::open_in_memory().unwrap();
    store.set_snapshot_every(every);
    let mut c = store.create_as::<MagnaGraecia>(name, scenario(scenario_id), seed).unwrap();
    rolls(&mut store, &mut c, n);
    (store, c)
}

fn schema(path: &Path) -> Vec<(String, String)> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn.prepare("SELECT name, sql FROM sqlite_master ORDER BY name").unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, Option<String>>(1)?.unwrap_or_default()))).unwrap().collect::<Result<_, _>>().unwrap()
}

/// A referee database with one campaign of twenty rolls, every connection to it closed, so
/// that all of it is in the one file.
fn campaign_db() -> TempDb {
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Himera", scenario("dionysian"), 12).unwrap();
    rolls(&mut store, &mut c, 20);
    drop(store);
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    db
}

/// Another program in the middle of a write: it holds SQLite's write lock and has written a
/// campaign it has not committed. Dropping it rolls the write back.
fn writing(path: &Path) -> Connection {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(
        "BEGIN IMMEDIATE;
         INSERT INTO campaigns (name, scenario, created_at) VALUES ('Half-written', 'pyrrhic', '2026-01-01');",
    )
    .unwrap();
    conn
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
    store.create_as::<MagnaGraecia>("A", scenario("dionysian"), 1).unwrap();
    assert_eq!(store.campaigns().unwrap().len(), 1);
}

/// a database from a newer version is refused and left byte for byte as it was.
#[test]
fn x_03_newer_database_is_refused_untouched() {
    let db = TempDb::new();
    {
        let mut store = Store::open(&db.path).unwrap();
        store.create_as::<MagnaGraecia>("Old", scenario("pyrrhic"), 5).unwrap();
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
    let err = Store::open(&db.path).unwrap_err();
    assert!(matches!(err, StoreError::Damaged { .. }), "{err}");
    assert_eq!(db.bytes(), bytes);
}

/// several campaigns live in one file, each with its own story.
#[test]
fn x_03_several_campaigns_per_file() {
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    let mut a = store.create_as::<MagnaGraecia>("Syracuse 398", scenario("dionysian"), 1).unwrap();
    let b = store.create_as::<MagnaGraecia>("Pyrrhus 278", scenario("pyrrhic"), 2).unwrap();
    store.execute(&mut a, sicily(), &roll("A only"), DiceInput::Seeded).unwrap();
    assert!(matches!(store.create_as::<MagnaGraecia>("Pyrrhus 278", scenario("pyrrhic"), 3), Err(StoreError::CampaignExists(_))));
    drop(store);
    let store = Store::open(&db.path).unwrap();
    let list = store.campaigns().unwrap();
    assert_eq!(list.iter().map(|c| (c.name.as_str(), c.events)).collect::<Vec<_>>(), [("Syracuse 398", 2), ("Pyrrhus 278", 1)]);
    assert_eq!(store.find("Pyrrhus 278").unwrap(), b.id);
    assert_eq!(store.find(&b.id.to_string()).unwrap(), b.id);
    assert!(matches!(store.find("Hannibal"), Err(StoreError::UnknownCampaign(_))));
    assert_eq!(store.load_as::<MagnaGraecia>(a.id).unwrap().state.rolls, 1);
    assert_eq!(store.load_as::<MagnaGraecia>(b.id).unwrap().state.scenario.id, "pyrrhic");
}

/// deleting a campaign takes every row kept of it — orders, events, snapshots,
/// battles, its commitment and its settings — in one transaction, and leaves the file's other
/// campaigns as they were; a file opened for reading refuses.
#[test]
fn x_03_a_campaign_is_deleted_whole_and_the_others_stay() {
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    store.set_snapshot_every(2);
    let keep = store.create_as::<MagnaGraecia>("Keep", scenario("dionysian"), 1).unwrap();
    let mut gone = store.create_as::<MagnaGraecia>("Gone", scenario("pyrrhic"), 2).unwrap();
    for i in 0..5 {
        store.execute(&mut gone, sicily(), &roll(&format!("roll {i}")), DiceInput::Seeded).unwrap();
    }
    store.set_setting(&format!("pack_folder/{}", gone.id.0), Some("/tmp/packs")).unwrap();
    store.set_setting(&format!("pack_folder/{}", keep.id.0), Some("/tmp/keep")).unwrap();
    let keep_before = serde_json::to_string(&store.load_as::<MagnaGraecia>(keep.id).unwrap().state).unwrap();
    let rows = |store: &Store, table: &str, id: i64| -> i64 {
        store.connection().query_row(&format!("SELECT count(*) FROM {table} WHERE campaign_id = ?1"), [id], |r| r.get(0)).unwrap()
    };
    for table in ["commands", "events", "snapshots", "seed_commitments"] {
        assert!(rows(&store, table, gone.id.0) > 0, "{table} holds the campaign before");
    }
    drop(store);

    let mut reader = Store::open_read_only(&db.path).unwrap();
    assert!(reader.delete_campaign(gone.id).is_err(), "a file opened for reading keeps its campaigns");
    drop(reader);

    let mut store = Store::open(&db.path).unwrap();
    assert_eq!(store.delete_campaign(gone.id).unwrap(), "Gone");
    assert!(matches!(store.find("Gone"), Err(StoreError::UnknownCampaign(_))));
    for table in ["commands", "events", "snapshots", "seed_commitments", "battles", "battle_results", "battle_tables"] {
        assert_eq!(rows(&store, table, gone.id.0), 0, "{table} keeps nothing of the deleted campaign");
    }
    assert_eq!(store.setting(&format!("pack_folder/{}", gone.id.0)).unwrap(), None);
    assert_eq!(store.setting(&format!("pack_folder/{}", keep.id.0)).unwrap().as_deref(), Some("/tmp/keep"));
    assert_eq!(store.campaigns().unwrap().iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Keep"]);
    let keep_after = serde_json::to_string(&store.load_as::<MagnaGraecia>(keep.id).unwrap().state).unwrap();
    assert_eq!(keep_after, keep_before, "the other campaign is as it was");
    assert!(matches!(store.delete_campaign(gone.id), Err(StoreError::UnknownCampaign(_))), "deleted once only");
}

/// undo removes exactly the last command's events; the start cannot be undone.
#[test]
fn x_03_undo_removes_the_last_command() {
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("U", scenario("first-punic"), 9).unwrap();
    let fresh = c.state.clone();
    store.execute(&mut c, sicily(), &roll("one"), DiceInput::Seeded).unwrap();
    let after_one = c.state.clone();
    let give = Order::AdjustControl { node: NodeId(5), side: Some(SideId::new("rome")), reason: "a rising".into() };
    store.execute(&mut c, sicily(), &give, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.control[&NodeId(5)], SideId::new("rome"));
    let undone = store.undo(&mut c).unwrap();
    assert_eq!((undone.command_seq, undone.events), (3, 1));
    assert_eq!(c.state, after_one);
    store.undo(&mut c).unwrap();
    assert_eq!(c.state, fresh);
    assert!(matches!(store.undo(&mut c), Err(StoreError::NothingToUndo(_))));
    assert_eq!(store.events_as::<MagnaGraecia>(c.id).unwrap().len(), 1);
}

/// undoing a roll and rolling again gives the same number — undo cannot be
/// used to fish for better dice.
#[test]
fn x_02_undo_then_reroll_gives_the_same_roll() {
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Fair", scenario("dionysian"), 77).unwrap();
    let first = store.execute(&mut c, sicily(), &roll("siege"), DiceInput::Seeded).unwrap();
    store.undo(&mut c).unwrap();
    let again = store.execute(&mut c, sicily(), &roll("siege"), DiceInput::Seeded).unwrap();
    assert_eq!(first, again);
}

/// an undone order given again by redo rolls what it rolled — seeded or typed
/// in — and leaves the campaign exactly as it was before the undo; an order whose dice were
/// not kept cannot be redone.
#[test]
fn x_03_redo_gives_the_undone_order_again_with_its_dice() {
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Again", scenario("dionysian"), 41).unwrap();
    let seeded = store.execute(&mut c, sicily(), &roll("seeded"), DiceInput::Seeded).unwrap();
    let typed = store.execute(&mut c, sicily(), &roll("typed"), DiceInput::Manual(vec![2])).unwrap();
    let (state, events) = (c.state.clone(), store.events_as::<MagnaGraecia>(c.id).unwrap());
    let second = store.undo(&mut c).unwrap();
    let first = store.undo(&mut c).unwrap();
    assert_eq!((first.dice.clone(), second.dice.clone()), (Some(DiceInput::Seeded), Some(DiceInput::Manual(vec![2]))));
    assert_eq!(store.redo(&mut c, sicily(), &first).unwrap(), seeded);
    assert_eq!(store.redo(&mut c, sicily(), &second).unwrap(), typed);
    assert_eq!(c.state, state);
    assert_eq!(store.events_as::<MagnaGraecia>(c.id).unwrap(), events);
    // The same campaign read afresh from the file agrees.
    assert_eq!(store.load_as::<MagnaGraecia>(c.id).unwrap().state, state);

    let old = referee_campaign::store::Undone { dice: None, ..second };
    store.undo(&mut c).unwrap();
    let e = store.redo(&mut c, sicily(), &old).unwrap_err();
    assert!(e.to_string().contains("cannot be redone, because the dice it was given were not kept"), "{e}");
    assert_eq!(store.events_as::<MagnaGraecia>(c.id).unwrap().len(), 2, "a refused redo writes nothing");
}

/// a refused command writes nothing.
#[test]
fn x_03_refused_command_writes_nothing() {
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.create_as::<MagnaGraecia>("R", scenario("dionysian"), 3).unwrap();
    let bad = Order::AdjustControl { node: NodeId(40), side: None, reason: "x".into() };
    let err = store.execute(&mut c, sicily(), &bad, DiceInput::Seeded).unwrap_err();
    assert!(err.to_string().ends_with("— MG-01"), "{err}");
    let manual = store.execute(&mut c, sicily(), &roll("p"), DiceInput::Manual(vec![9])).unwrap_err();
    assert!(manual.to_string().contains("9 cannot be rolled on a d6"), "{manual}");
    assert_eq!(store.events_as::<MagnaGraecia>(c.id).unwrap().len(), 1);
    assert_eq!(c.head, 1);
}

/// opening from a snapshot gives the same state as replaying every event, and undo
/// past a snapshot drops it.
#[test]
fn x_03_snapshots_match_full_replay() {
    let (mut store, mut c) = rolled_with_snapshots("S", "second-punic", 11, 10, 34);
    let snapshots: i64 = store.connection().query_row("SELECT count(*) FROM snapshots", [], |r| r.get(0)).unwrap();
    assert_eq!(snapshots, 3);
    let loaded = store.load_as::<MagnaGraecia>(c.id).unwrap();
    let replayed = referee_campaign::magna_graecia::state::CampaignState::replay(
        store.events_as::<MagnaGraecia>(c.id).unwrap().iter().map(|l| &l.event),
    )
    .unwrap();
    assert_eq!(loaded.state, replayed);
    assert_eq!(loaded.state, c.state);
    for _ in 0..5 {
        store.undo(&mut c).unwrap();
    }
    let left: i64 = store.connection().query_row("SELECT max(event_seq) FROM snapshots", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 30);
    assert_eq!(store.load_as::<MagnaGraecia>(c.id).unwrap().state.rolls, 29);
}

/// a campaign changed by another program since it was opened is not overwritten.
#[test]
fn x_03_stale_campaign_is_refused() {
    let db = TempDb::new();
    let mut one = Store::open(&db.path).unwrap();
    let mut two = Store::open(&db.path).unwrap();
    let mut c1 = one.create_as::<MagnaGraecia>("Shared", scenario("dionysian"), 4).unwrap();
    let mut c2 = two.load_as::<MagnaGraecia>(c1.id).unwrap();
    one.execute(&mut c1, sicily(), &roll("first"), DiceInput::Seeded).unwrap();
    let err = two.execute(&mut c2, sicily(), &roll("second"), DiceInput::Seeded).unwrap_err();
    assert!(err.to_string().contains("changed by another program"), "{err}");
    assert_eq!(one.events_as::<MagnaGraecia>(c1.id).unwrap().len(), 2);
}

/// a snapshot that no longer reads back is passed over; the events are the truth.
#[test]
fn x_03_unreadable_snapshot_falls_back_to_the_events() {
    let (store, c) = rolled_with_snapshots("Cache", "dionysian", 8, 2, 5);
    store.connection().execute("UPDATE snapshots SET body = '{\"broken\": true}'", []).unwrap();
    assert_eq!(store.load_as::<MagnaGraecia>(c.id).unwrap().state, c.state);
}

/// A database as version 1 of the schema wrote it, with one campaign, `Old`.
fn write_version_1(path: &Path) {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(referee_campaign::store::migrations()[0]).unwrap();
    conn.pragma_update(None, "user_version", 1).unwrap();
    conn.pragma_update(None, "application_id", APPLICATION_ID).unwrap();
    conn.execute("INSERT INTO campaigns (name, scenario, created_at) VALUES ('Old', 'dionysian', '2026-01-01')", []).unwrap();
}

/// a database written at schema version 1 is migrated in place, its campaigns kept.
#[test]
fn x_03_a_version_1_database_is_migrated() {
    let db = TempDb::new();
    write_version_1(&db.path);
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
    assert!(columns.contains(&"place".to_owned()), "a battle's place is the engine's own: {columns:?}");
    // Campaigns begun before there were two engines are Magna Graecia's (schema 3).
    let old = &store.campaigns().unwrap()[0];
    assert_eq!(old.engine, EngineId::MagnaGraecia);
    assert_eq!(store.engine_of(old.id).unwrap(), EngineId::MagnaGraecia);
    let engine: String = store.connection().query_row("SELECT engine FROM campaigns", [], |r| r.get(0)).unwrap();
    assert_eq!(engine, "magna-graecia");
}

/// while another program writes, the campaigns are read, and the database is opened
/// for writing, at once: only a write waits for the lock.
#[test]
fn x_03_reading_goes_on_while_another_program_writes() {
    let db = campaign_db();
    let writer = writing(&db.path);
    let started = Instant::now();
    let reader = Store::open_read_only(&db.path).unwrap();
    let names: Vec<String> = reader.campaigns().unwrap().into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["Himera"], "the other program's campaign is not committed");
    let c = reader.load_as::<MagnaGraecia>(reader.find("Himera").unwrap()).unwrap();
    assert_eq!(c.state.rolls, 20);
    assert_eq!(reader.events_as::<MagnaGraecia>(c.id).unwrap().len(), 21);
    let store = Store::open(&db.path).unwrap();
    assert_eq!(store.load_as::<MagnaGraecia>(c.id).unwrap().state, c.state);
    assert!(started.elapsed() < BUSY_TIMEOUT, "reading waited {:?} for the writer", started.elapsed());
    drop(writer);
}

/// a write that cannot have the lock is refused in one sentence naming the file and the
/// other program, and writes nothing; once the other program is done, it goes through.
#[test]
fn x_03_a_write_while_another_program_writes_is_refused() {
    let db = campaign_db();
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.load_as::<MagnaGraecia>(store.find("Himera").unwrap()).unwrap();
    let writer = writing(&db.path);
    let before = db.bytes();
    let started = Instant::now();
    let err = store.execute(&mut c, sicily(), &roll("while locked"), DiceInput::Seeded).unwrap_err();
    assert!(started.elapsed() >= BUSY_TIMEOUT / 2, "gave up after {:?}", started.elapsed());
    assert!(matches!(err, ExecError::Store(StoreError::Busy(_))), "{err}");
    assert_eq!(err.to_string(), format!("another program is writing to {}; try again when it has finished", db.path.display()));
    assert!(matches!(store.undo(&mut c), Err(StoreError::Busy(_))));
    assert_eq!((c.head, c.state.rolls), (21, 20));
    assert_eq!(db.bytes(), before);
    drop(writer);
    store.execute(&mut c, sicily(), &roll("after"), DiceInput::Seeded).unwrap();
    assert_eq!(store.events_as::<MagnaGraecia>(c.id).unwrap().len(), 22);
}

/// a database of an older schema is read as it is, with no write and no lock; opening
/// it for writing migrates it, and so must wait for the write lock.
#[test]
fn x_03_a_version_1_database_is_read_without_migrating() {
    let db = TempDb::new();
    write_version_1(&db.path);
    let before = db.bytes();
    let writer = writing(&db.path);
    let reader = Store::open_read_only(&db.path).unwrap();
    assert_eq!(reader.campaigns().unwrap()[0].name, "Old");
    // A file older than the engine column reads as Magna Graecia's without being changed.
    assert_eq!(reader.campaigns().unwrap()[0].engine, EngineId::MagnaGraecia);
    let version: i32 = reader.connection().pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, 1);
    drop(reader);
    let err = Store::open(&db.path).unwrap_err();
    assert!(matches!(err, StoreError::Busy(_)), "{err}");
    drop(writer);
    assert_eq!(db.bytes(), before);
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    let store = Store::open(&db.path).unwrap();
    let version: i32 = store.connection().pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

/// a referee database cut short, or with a byte of its header changed, is called
/// damaged by both ways of opening it, and is left byte for byte as it was, with no `-wal`
/// or `-shm` beside it.
#[test]
fn x_03_damaged_database_is_refused_untouched() {
    let db = campaign_db();
    let whole = db.bytes();
    let changed = |at: usize, to: u8| {
        let mut bytes = whole.clone();
        bytes[at] = to;
        bytes
    };
    let cases = [
        ("cut in half", whole[..whole.len() / 2].to_vec(), "it is cut short"),
        ("short of its last 100 bytes", whole[..whole.len() - 100].to_vec(), "it is cut short"),
        ("cut inside its header", whole[..60].to_vec(), "it is cut short"),
        ("first byte changed", changed(0, b's'), "marked as a referee database"),
        ("page size changed", changed(16, 0x77), "SQLite cannot read it"),
    ];
    for (case, bytes, detail) in cases {
        std::fs::write(&db.path, &bytes).unwrap();
        for (how, err) in [("open", Store::open(&db.path).unwrap_err()), ("open_read_only", Store::open_read_only(&db.path).unwrap_err())] {
            let text = err.to_string();
            assert!(matches!(err, StoreError::Damaged { .. }), "{case}, {how}: {text}");
            assert!(text.starts_with(&format!("{} is damaged (", db.path.display())), "{case}, {how}: {text}");
            assert!(text.contains(detail) && text.ends_with("; it was left untouched"), "{case}, {how}: {text}");
            assert_eq!(text.lines().count(), 1, "{case}, {how}: {text}");
            assert_eq!(db.bytes(), bytes, "{case}, {how}");
            assert_eq!(db.files(), ["campaigns.sqlite"], "{case}, {how}");
        }
    }
}

/// a referee database with a schema version below 1 is refused with a sentence, not
/// migrated from scratch on top of its tables.
#[test]
fn x_03_a_negative_schema_version_is_refused_untouched() {
    let db = campaign_db();
    Connection::open(&db.path).unwrap().pragma_update(None, "user_version", -3).unwrap();
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    let before = db.bytes();
    for err in [Store::open(&db.path).unwrap_err(), Store::open_read_only(&db.path).unwrap_err()] {
        assert!(matches!(err, StoreError::UnknownVersion { found: -3, .. }), "{err}");
        assert_eq!(
            err.to_string(),
            format!("{} has schema version -3, which no version of referee wrote; it was left untouched", db.path.display())
        );
        assert_eq!(db.bytes(), before);
        assert_eq!(db.files(), ["campaigns.sqlite"]);
    }
}

/// a file marked read-only is not written, and says so in one sentence, but is read.
/// The mark is honoured as it reads, so this holds for root too, whom the system lets write.
#[test]
fn x_03_read_only_file_is_read_but_not_written() {
    let db = campaign_db();
    let before = db.bytes();
    let _mode = Mode::set(&db.path, 0o444);
    let err = Store::open(&db.path).unwrap_err();
    assert!(matches!(err, StoreError::ReadOnly(_)), "{err}");
    assert_eq!(err.to_string(), format!("{} is read-only, so referee will not write to it; it was left untouched", db.path.display()));
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    assert_eq!(db.bytes(), before);
    let reader = Store::open_read_only(&db.path).unwrap();
    assert_eq!(reader.load_as::<MagnaGraecia>(reader.find("Himera").unwrap()).unwrap().state.rolls, 20);
    drop(reader);
    assert_eq!(db.bytes(), before);
}

/// in a folder marked read-only no database is written or made, but one there is read.
#[test]
fn x_03_read_only_folder_is_read_but_not_written() {
    let db = campaign_db();
    let before = db.bytes();
    let _mode = Mode::set(db.folder(), 0o555);
    let err = Store::open(&db.path).unwrap_err();
    assert!(matches!(err, StoreError::FolderReadOnly(_)), "{err}");
    assert_eq!(err.to_string(), format!("{} is in a read-only folder, where referee cannot write; nothing was written", db.path.display()));
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    let reader = Store::open_read_only(&db.path).unwrap();
    assert_eq!(reader.load_as::<MagnaGraecia>(reader.find("Himera").unwrap()).unwrap().state.rolls, 20);
    drop(reader);
    let new = db.folder().join("new.sqlite");
    assert!(matches!(Store::open(&new), Err(StoreError::FolderReadOnly(_))));
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    assert_eq!(db.bytes(), before);
}

/// reading works where SQLite can neither make nor open its `-wal` and `-shm` beside the
/// database, as for a user who may not write in its folder: the file is read without them.
#[test]
fn x_03_reading_needs_no_journal_beside_the_database() {
    let db = campaign_db();
    let before = db.bytes();
    for suffix in ["-wal", "-shm"] {
        std::fs::create_dir(format!("{}{suffix}", db.path.display())).unwrap();
    }
    let reader = Store::open_read_only(&db.path).unwrap();
    assert_eq!(reader.campaigns().unwrap().len(), 1);
    assert_eq!(reader.load_as::<MagnaGraecia>(reader.find("Himera").unwrap()).unwrap().state.rolls, 20);
    drop(reader);
    assert_eq!(db.bytes(), before);
}

/// read, an empty file is a database without campaigns and stays empty; a missing one
/// is not made. Opened for writing, the empty file becomes a database.
#[test]
fn x_03_reading_an_empty_file_leaves_it_empty() {
    let db = TempDb::new();
    let err = Store::open_read_only(&db.path).unwrap_err();
    assert_eq!(err.to_string(), format!("there is no database at {}", db.path.display()));
    assert!(!db.path.exists());
    std::fs::write(&db.path, b"").unwrap();
    let reader = Store::open_read_only(&db.path).unwrap();
    assert!(reader.campaigns().unwrap().is_empty());
    assert!(matches!(reader.find("Himera"), Err(StoreError::UnknownCampaign(_))));
    drop(reader);
    assert_eq!(db.bytes(), b"");
    assert_eq!(db.files(), ["campaigns.sqlite"]);
    let mut store = Store::open(&db.path).unwrap();
    store.create_as::<MagnaGraecia>("First", scenario("pyrrhic"), 2).unwrap();
    assert_eq!(store.campaigns().unwrap().len(), 1);
}

/// a store opened for reading refuses every write, and the file stays as it was.
#[test]
fn x_03_a_store_opened_for_reading_writes_nothing() {
    let db = campaign_db();
    let before = db.bytes();
    let mut reader = Store::open_read_only(&db.path).unwrap();
    let mut c = reader.load_as::<MagnaGraecia>(reader.find("Himera").unwrap()).unwrap();
    let err = reader.execute(&mut c, sicily(), &roll("refused"), DiceInput::Seeded).unwrap_err();
    assert!(matches!(err, ExecError::Store(StoreError::OpenedForReading(_))), "{err}");
    assert!(matches!(reader.undo(&mut c), Err(StoreError::OpenedForReading(_))));
    assert!(matches!(reader.create_as::<MagnaGraecia>("New", scenario("pyrrhic"), 1), Err(StoreError::OpenedForReading(_))));
    assert!(reader.connection().execute("DELETE FROM events", []).is_err(), "SQLite's query_only is on");
    assert_eq!(c.state.rolls, 20);
    drop(reader);
    assert_eq!(db.bytes(), before);
    assert_eq!(db.files(), ["campaigns.sqlite"]);
}

/// Copies the built-in Magna Graecia data to `to/magna-graecia/`, laid out like `data/`, with
/// the map changed by `edit`.
fn data_folder_with_map(to: &Path, edit: impl Fn(String) -> String) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/magna-graecia");
    let to = to.join("magna-graecia");
    for sub in ["maps", "scenarios", "armies", "tables"] {
        std::fs::create_dir_all(to.join(sub)).unwrap();
        for entry in std::fs::read_dir(from.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let text = if sub == "maps" { edit(text) } else { text };
            std::fs::write(to.join(sub).join(path.file_name().unwrap()), text).unwrap();
        }
    }
}

/// X-03 / MG-01: a campaign keeps the map it started on. Read with another data folder whose
/// map differs, it is still drawn on its own; a campaign from before maps were kept is drawn on
/// the data's map only if it has every node the campaign stands on.
#[test]
fn x_03_a_campaign_keeps_its_map() {
    let db = referee_e2e::himera_db("Kept");
    let dir = tempfile::tempdir().unwrap();
    data_folder_with_map(dir.path(), |t| t.replacen("name = \"Himera\"", "name = \"Thermae\"", 1));
    let data = dir.path().to_str().unwrap();
    let shown = referee_e2e::cli(&db.path, &["--data", data, "log", "Kept"]).ok();
    assert!(shown.contains("Battle 1 at Himera") && !shown.contains("Thermae"), "{shown}");
    // A new campaign takes the data folder's map.
    referee_e2e::cli(&db.path, &["--data", data, "new", "dionysian", "--name", "New", "--seed", "1"]).ok();
    let json = referee_e2e::cli(&db.path, &["log", "New", "--json"]).json();
    assert_eq!(json[0]["event"]["scenario"]["map_data"]["nodes"]["8"]["name"], "Thermae");

    // Before maps were kept: the map is taken from the data, and refused if a node is missing.
    let store = Store::open(&db.path).unwrap();
    let mut c = store.load_as::<MagnaGraecia>(store.find("Kept").unwrap()).unwrap();
    let map = c.state.scenario.map_data.take().unwrap();
    assert!(c.state.map(Some(&map)).is_ok());
    let mut shrunk = (*map).clone();
    shrunk.nodes.remove(&NodeId(8));
    let err = c.state.map(Some(&shrunk)).unwrap_err().to_string();
    assert!(err.contains("stands on node 08, which the map `sicily` in the data does not have"), "{err}");
    assert!(c.state.map(None).unwrap_err().to_string().contains("which is not in the data"));
}

/// a referee's data folder is laid out like `data/`. One with `magna-graecia/`
/// alone offers the Magna Graecia scenarios and no Belisarius ones; one made before each
/// campaign had its own folder (`maps/`, `scenarios/` … at its top) is refused by every
/// command in one line naming the folder and where to move them, and the database is left as
/// it was.
#[test]
fn x_03_a_data_folder_is_laid_out_like_data() {
    let db = referee_e2e::himera_db("Kept");
    let dir = tempfile::tempdir().unwrap();
    data_folder_with_map(dir.path(), |t| t);
    let data = dir.path().to_str().unwrap();
    let json = referee_e2e::cli(&db.path, &["--data", data, "scenarios", "--json"]).json();
    let campaigns: Vec<&str> = json.as_array().unwrap().iter().map(|s| s["campaign"].as_str().unwrap()).collect();
    assert_eq!(campaigns, ["magna-graecia"; 4], "{json}");

    let new = dir.path().join("magna-graecia");
    for sub in ["maps", "scenarios", "armies", "tables"] {
        std::fs::rename(new.join(sub), dir.path().join(sub)).unwrap();
    }
    std::fs::remove_dir(&new).unwrap();
    let before = db.bytes();
    for args in [&["scenarios"][..], &["log", "Kept"], &["new", "dionysian", "--name", "Old", "--seed", "1"]] {
        let line = referee_e2e::cli(&db.path, &[&["--data", data][..], args].concat()).refused();
        let want = format!(
            "{data}: Magna Graecia's `maps`, `scenarios`, `armies`, `tables` folders are at the top of this data folder, as before \
             each campaign had a folder of its own; move them into {}/",
            new.display()
        );
        assert!(line.ends_with(&want), "{args:?}: {line}");
        assert_eq!(db.bytes(), before, "{args:?} changed the database");
    }
}

/// an event stored in an older shape is lifted as it is read (the events phase's
/// opening, named `events_phase` in the first shape of Belisarius's events), and the
/// campaign replays to the very state it had; the same row claiming today's shape does not
/// read, and a shape newer than this program's is refused by name.
#[test]
fn x_03_an_event_of_an_older_shape_is_lifted_as_it_is_read() {
    use referee_campaign::belisarius::Belisarius;
    use referee_campaign::belisarius::event::Event;
    let setup = referee_campaign::belisarius::World::embedded().setup("italy-535").unwrap();
    let (mut store, mut c) = referee_e2e::staging::created(&setup, "Italy", 535);
    store.execute(&mut c, &(), &referee_campaign::belisarius::order::Order::PlayEvents {}, DiceInput::Seeded).unwrap();
    let today = serde_json::to_string(&store.load_as::<Belisarius>(c.id).unwrap().state).unwrap();
    let rewrite = |version: u32| {
        let changed = store
            .connection()
            .execute(
                "UPDATE events SET version = ?2, kind = 'events_phase', body = json_set(body, '$.type', 'events_phase')
                 WHERE campaign_id = ?1 AND kind IN ('events_phase', 'events_phase_began')",
                rusqlite::params![c.id.0, version],
            )
            .unwrap();
        assert_eq!(changed, 1, "one events phase was played");
    };

    rewrite(1);
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    assert!(events.iter().any(|l| l.event == Event::EventsPhaseBegan { turn: 1 }), "the first-shape row reads as today's event");
    let lifted = serde_json::to_string(&store.load_as::<Belisarius>(c.id).unwrap().state).unwrap();
    assert_eq!(lifted, today, "the campaign replays from the lifted event to the state it had");

    rewrite(2);
    let refused = store.events_as::<Belisarius>(c.id).unwrap_err().to_string();
    assert!(refused.contains("events_phase"), "unlifted, the old row does not read: {refused}");

    rewrite(3);
    let refused = store.events_as::<Belisarius>(c.id).unwrap_err().to_string();
    assert!(refused.contains("events_phase"), "claiming today's shape, the old row does not read: {refused}");

    rewrite(4);
    let refused = store.load_as::<Belisarius>(c.id).unwrap_err().to_string();
    assert!(refused.contains("version 4") && refused.contains("up to version 3"), "{refused}");
}

/// The start of a Belisarius campaign stored before the core's start entry called its
/// scenario `setup`: it reads as today's start, and the campaign replays the same.
#[test]
fn x_03_a_start_of_the_second_shape_is_lifted_to_the_cores_start() {
    use referee_campaign::belisarius::Belisarius;
    let setup = referee_campaign::belisarius::World::embedded().setup("africa-533").unwrap();
    let (store, c) = referee_e2e::staging::created(&setup, "Africa", 533);
    let today = serde_json::to_string(&store.load_as::<Belisarius>(c.id).unwrap().state).unwrap();
    let (kind, body): (String, String) = store
        .connection()
        .query_row("SELECT kind, body FROM events WHERE campaign_id = ?1 AND seq = 1", [c.id.0], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!(kind, "campaign_started", "the kind column is the event's tag");
    assert!(body.contains("\"scenario\":") && !body.contains("\"setup\":"), "today's start names its scenario");
    let rewrite = |version: u32| {
        store
            .connection()
            .execute(
                "UPDATE events SET version = ?2,
                     body = json_set(json_remove(body, '$.scenario'), '$.setup', json(json_extract(body, '$.scenario')))
                 WHERE campaign_id = ?1 AND seq = 1",
                rusqlite::params![c.id.0, version],
            )
            .unwrap()
    };
    assert_eq!(rewrite(2), 1);
    let lifted = serde_json::to_string(&store.load_as::<Belisarius>(c.id).unwrap().state).unwrap();
    assert_eq!(lifted, today, "the second-shape start replays to the state it had");
    assert_eq!(store.events_as::<Belisarius>(c.id).unwrap()[0].event, {
        let mut again = Store::open_in_memory().unwrap();
        again.create_as::<Belisarius>("Africa", &setup, 533).unwrap();
        let first = again.find("Africa").unwrap();
        again.events_as::<Belisarius>(first).unwrap().remove(0).event
    });
}

/// a campaign is renamed by an order of its log, in either engine: the file finds it
/// by its new name, every reader's log says so, and undo gives the old name back. A name
/// another campaign of the file has, an empty one, the one it has, one too long, one with a
/// line break or a control character, or a number alone is refused (for a new campaign too),
/// with the file unchanged to the byte; a log that renames its campaign is imported under its last
/// name only.
#[test]
fn x_03_a_campaign_is_renamed_by_an_order_and_undo_gives_its_name_back() {
    use referee_campaign::belisarius::{Belisarius, World, order::Order as BOrder};
    use referee_campaign::core::log::RenameCampaign;
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    store.create_as::<MagnaGraecia>("Taken", scenario("pyrrhic"), 3).unwrap();
    let mut mg = store.create_as::<MagnaGraecia>("Himera", scenario("dionysian"), 1).unwrap();
    let world = World::embedded();
    let mut be = store.create_as::<Belisarius>("Africa", &world.setup("africa-533").unwrap(), 2).unwrap();
    let rename = |name: &str| RenameCampaign { name: name.to_owned() };
    let names = |store: &Store| store.campaigns().unwrap().into_iter().map(|c| c.name).collect::<Vec<_>>();

    store.execute(&mut mg, sicily(), &Order::from(rename("  Himera 398 ")), DiceInput::Seeded).unwrap();
    store.execute(&mut be, &(), &BOrder::from(rename("Vandal War")), DiceInput::Seeded).unwrap();
    assert_eq!(names(&store), ["Taken", "Himera 398", "Vandal War"]);
    assert_eq!(store.find("Himera 398").unwrap(), mg.id);
    assert_eq!(store.load_as::<MagnaGraecia>(mg.id).unwrap().state.name, "Himera 398");
    assert_eq!(store.load_as::<Belisarius>(be.id).unwrap().state.name, "Vandal War");
    let side = referee_campaign::Viewer::Side(SideId::new("carthage"));
    let events = store.events_as::<MagnaGraecia>(mg.id).unwrap();
    let log = referee_campaign::core::view::log_lines::<MagnaGraecia>(&mg.state, sicily(), &events, &side, 1);
    assert!(log.iter().any(|l| l.text.contains("“Himera” is called “Himera 398” from now on")), "the sides read it: {log:?}");

    drop(store);
    let before = std::fs::read(&db.path).unwrap();
    let mut store = Store::open(&db.path).unwrap();
    let long = "x".repeat(81);
    let refusals = [
        ("Taken", "exists already"),
        ("", "needs a name"),
        ("Himera 398", "already"),
        (long.as_str(), "at most 80 characters"),
        ("Himera\nday two", "without line breaks or control characters"),
        ("c\u{0}d", "without line breaks or control characters"),
        ("2", "commands would read 2 as a campaign's id"),
    ];
    for (name, why) in refusals {
        let refused = store.execute(&mut mg, sicily(), &Order::from(rename(name)), DiceInput::Seeded).unwrap_err();
        assert!(refused.to_string().contains(why), "{name:?}: {refused}");
    }
    // A new campaign's name is held to the same.
    for (name, why) in &refusals[3..] {
        let refused = store.create_as::<MagnaGraecia>(name, scenario("pyrrhic"), 4).unwrap_err();
        assert!(refused.to_string().contains(why), "{name:?}: {refused}");
    }
    drop(store);
    assert_eq!(std::fs::read(&db.path).unwrap(), before, "a refused name leaves the file as it was");

    let mut store = Store::open(&db.path).unwrap();
    store.undo(&mut mg).unwrap();
    store.undo(&mut be).unwrap();
    assert_eq!(names(&store), ["Taken", "Himera", "Africa"]);
    assert_eq!(mg.state.name, "Himera");
    assert_eq!(be.state.name, "Africa");

    // A log that renames its campaign comes in under the name it gave last.
    store.execute(&mut mg, sicily(), &Order::from(rename("Himera 398")), DiceInput::Seeded).unwrap();
    let events = store.events_as::<MagnaGraecia>(mg.id).unwrap();
    let refused = store.import_as::<MagnaGraecia>("Elsewhere", &events).unwrap_err();
    assert!(refused.to_string().contains("import it under that name"), "{refused}");
    store.delete_campaign(mg.id).unwrap();
    let again = store.import_as::<MagnaGraecia>("Himera 398", &events).unwrap();
    assert_eq!(again.state.name, "Himera 398");
}
