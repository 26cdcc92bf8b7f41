//! The SQLite store (X-03): several campaigns in one file, every command and its events,
//! one transaction per command, snapshots so long campaigns open quickly.
//!
//! A file that is not SQLite, belongs to another program, was written by a newer version of
//! this program, or is damaged, is refused before anything is written to it, and without
//! leaving SQLite's `-wal` and `-shm` files beside it.
//!
//! Reading never waits for a writer: [`Store::open`] only takes the write lock to migrate an
//! older schema, and [`Store::open_read_only`] never takes it. A write that cannot have the
//! lock within [`BUSY_TIMEOUT`] is refused with [`StoreError::Busy`].

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use serde::{Deserialize, Serialize};

use crate::any::AnyCampaign;
use crate::belisarius::Belisarius;
use crate::core::dice::Dice;
use crate::core::engine::{BattleRow, Engine, EngineId, Logged, UnknownEngine, read_event};
use crate::core::error::RuleError;
use crate::core::log::kind_of;
use crate::core::verify::{Commitment, Verification, fresh_salt, verify};
use crate::core::viewer::Viewer;
use crate::ids::CampaignId;
use crate::magna_graecia::engine::MagnaGraecia;

/// Marks a SQLite file as a referee database (`PRAGMA application_id`): "REFR".
pub const APPLICATION_ID: i32 = 0x5245_4652;

/// Schema migrations, in order. Never edit one that has been released; add a new one.
///
/// [`Store::open_read_only`] reads an older schema as it is, since reading must not write: a
/// migration must keep what `campaigns`, `commands`, `events` and `snapshots` hold readable by
/// the queries of this file (`x_03_a_version_1_database_is_read_without_migrating` checks it).
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE campaigns (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    scenario    TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
-- Every command given to a campaign, with the number of events it produced.
CREATE TABLE commands (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    issued_at    TEXT NOT NULL,
    summary      TEXT NOT NULL,
    body         TEXT NOT NULL,
    event_count  INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, seq)
) WITHOUT ROWID;
-- The story of each campaign; replaying it in seq order rebuilds the campaign.
CREATE TABLE events (
    campaign_id  INTEGER NOT NULL,
    seq          INTEGER NOT NULL,
    command_seq  INTEGER NOT NULL,
    kind         TEXT NOT NULL,
    body         TEXT NOT NULL,
    PRIMARY KEY (campaign_id, seq),
    FOREIGN KEY (campaign_id, command_seq) REFERENCES commands(campaign_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX events_by_command ON events(campaign_id, command_seq);
-- Battles raised on the campaign map, and the results typed in after the tabletop game.
CREATE TABLE battles (
    id               INTEGER PRIMARY KEY,
    campaign_id      INTEGER NOT NULL,
    raised_by_event  INTEGER NOT NULL,
    node             INTEGER NOT NULL,
    turn             INTEGER NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('due', 'fought')),
    body             TEXT NOT NULL,
    FOREIGN KEY (campaign_id, raised_by_event) REFERENCES events(campaign_id, seq) ON DELETE CASCADE
);
CREATE TABLE battle_results (
    battle_id          INTEGER PRIMARY KEY REFERENCES battles(id) ON DELETE CASCADE,
    recorded_by_event  INTEGER NOT NULL,
    body               TEXT NOT NULL
);
-- The state after a given event, so opening a long campaign replays only what follows.
CREATE TABLE snapshots (
    campaign_id    INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    event_seq      INTEGER NOT NULL,
    state_version  INTEGER NOT NULL,
    body           TEXT NOT NULL,
    PRIMARY KEY (campaign_id, event_seq)
) WITHOUT ROWID;
"#,
    // Battles keyed by their number within the campaign, and every result entered for each
    // (a drawn first day and a second day make two); both vanish with the events they came
    // from when a command is undone. The tables of migration 1 were never written to.
    r#"
DROP TABLE battle_results;
DROP TABLE battles;
CREATE TABLE battles (
    campaign_id      INTEGER NOT NULL,
    number           INTEGER NOT NULL,
    raised_by_event  INTEGER NOT NULL,
    node             INTEGER NOT NULL,
    turn             INTEGER NOT NULL,
    body             TEXT NOT NULL,
    PRIMARY KEY (campaign_id, number),
    FOREIGN KEY (campaign_id, raised_by_event) REFERENCES events(campaign_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TABLE battle_results (
    campaign_id        INTEGER NOT NULL,
    number             INTEGER NOT NULL,
    recorded_by_event  INTEGER NOT NULL,
    kind               TEXT NOT NULL,
    body               TEXT NOT NULL,
    PRIMARY KEY (campaign_id, number, recorded_by_event),
    FOREIGN KEY (campaign_id, number) REFERENCES battles(campaign_id, number) ON DELETE CASCADE,
    FOREIGN KEY (campaign_id, recorded_by_event) REFERENCES events(campaign_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;
-- Battles raised and not yet decided, for a referee reading the file with any SQLite tool.
CREATE VIEW battles_due AS
    SELECT b.* FROM battles b
    WHERE NOT EXISTS (
        SELECT 1 FROM battle_results r
        WHERE r.campaign_id = b.campaign_id AND r.number = b.number AND r.kind IN ('battle_resolved', 'siege_begun')
    );
"#,
    // Two campaigns, one store: each campaign is played by one engine's rules, and its
    // events and snapshots say whose, with the version of the event's shape. Campaigns begun
    // before there was a second engine are Magna Graecia's. A battle's place is the engine's
    // own (a node number, a zone's id).
    r#"
ALTER TABLE campaigns ADD COLUMN engine TEXT NOT NULL DEFAULT 'magna-graecia';
ALTER TABLE events ADD COLUMN engine TEXT NOT NULL DEFAULT 'magna-graecia';
ALTER TABLE events ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE snapshots ADD COLUMN engine TEXT NOT NULL DEFAULT 'magna-graecia';
ALTER TABLE battles RENAME COLUMN node TO place;
"#,
    // The dice each order was given — the seeded stream, or the values the referee typed in
    // — so that an undone order can be given again with the very same dice (NULL for orders
    // stored before, and for the start and imported commands). And the referee's settings
    // for this file, such as the passphrase that hands a side's screen back.
    r#"
ALTER TABLE commands ADD COLUMN dice TEXT;
CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
-- Each campaign's published commitment to its secret seed: the SHA-256 of the seed with a
-- random salt, the first event it covers, and when the seed was revealed.
CREATE TABLE seed_commitments (
    campaign_id  INTEGER PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
    salt         TEXT NOT NULL,
    digest       TEXT NOT NULL,
    from_event   INTEGER NOT NULL,
    revealed_at  TEXT
);
"#,
    // The text of each data table a battle's pack was counted by (the hex wargames'
    // conversion table, Belisarius's conversion to elements), so that the result is read back
    // by the same table whatever the data folder holds later. Written with each pack that
    // needs one, the last pack's kept; it vanishes with the orders given before the pack
    // was written, when they are undone.
    r#"
CREATE TABLE battle_tables (
    campaign_id    INTEGER NOT NULL,
    number         INTEGER NOT NULL,
    path           TEXT NOT NULL,
    text           TEXT NOT NULL,
    kept_at_event  INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, number, path),
    FOREIGN KEY (campaign_id, kept_at_event) REFERENCES events(campaign_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;
"#,
];

/// The first schema with an `engine` column; older files hold Magna Graecia campaigns only.
const ENGINE_SCHEMA: i32 = 3;

/// The first schema with the dice kept with each order and a `settings` table.
const SETTINGS_SCHEMA: i32 = 4;

/// The first schema that keeps the tables a battle's pack was counted by.
const BATTLE_TABLES_SCHEMA: i32 = 5;

/// One data table kept with a battle: its path under the data folder (as
/// `tabletop/hex-units.toml`) and the text its pack was counted by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptTable {
    pub path: String,
    pub text: String,
}

impl KeptTable {
    /// The table as a source to parse, named as the copy kept with battle `battle`.
    pub fn source(&self, battle: u32) -> referee_data::SourceText {
        referee_data::SourceText { file: format!("{} (as kept with battle {battle})", self.path), text: self.text.clone() }
    }
}

/// The schema's migrations, oldest first: for tests and tools that build databases of an
/// older version.
pub fn migrations() -> &'static [&'static str] {
    MIGRATIONS
}

/// The schema version this program writes.
pub const SCHEMA_VERSION: i32 = MIGRATIONS.len() as i32;

/// A snapshot is written once this many events have been stored since the last one.
pub const DEFAULT_SNAPSHOT_EVERY: u64 = 1000;

/// How long a write waits for another program's write to end before it is refused.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(3);

/// What went wrong with the database, as opposed to what the rules refused.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file is not a SQLite database at all.
    #[error("{} is not a referee database (not a SQLite file); it was left untouched", .0.display())]
    NotSqlite(PathBuf),
    /// The file is damaged: shorter than its header says, or SQLite cannot read it.
    #[error("{} is damaged ({detail}); it was left untouched", path.display())]
    Damaged { path: PathBuf, detail: String },
    /// The file is SQLite but belongs to another program.
    #[error("{} is a SQLite database of some other program, not a referee database; it was left untouched", .0.display())]
    NotOurs(PathBuf),
    /// The file was written by a newer version of this program.
    #[error("{} was written by a newer version of referee (schema {found}; this version reads up to {supported}); it was left untouched", .path.display())]
    Newer { path: PathBuf, found: i32, supported: i32 },
    /// The file is marked as a referee database with a schema version no version wrote.
    #[error("{} has schema version {found}, which no version of referee wrote; it was left untouched", path.display())]
    UnknownVersion { path: PathBuf, found: i32 },
    /// There is no file to read (reading never creates one).
    #[error("there is no database at {}", .0.display())]
    Missing(PathBuf),
    /// The file is marked read-only, or the system will not let this program write it.
    #[error("{} is read-only, so referee will not write to it; it was left untouched", .0.display())]
    ReadOnly(PathBuf),
    /// The file's folder is read-only: SQLite writes its journal (`-wal`, `-shm`) beside the
    /// database, and a new database is a new file there.
    #[error("{} is in a read-only folder, where referee cannot write; nothing was written", .0.display())]
    FolderReadOnly(PathBuf),
    /// Another program holds the write lock and did not let go within [`BUSY_TIMEOUT`].
    #[error("another program is writing to {}; try again when it has finished", .0.display())]
    Busy(PathBuf),
    /// A write asked of a database opened with [`Store::open_read_only`].
    #[error("{} was opened for reading only; nothing was written", .0.display())]
    OpenedForReading(PathBuf),
    /// SQLite could not open the file, for a reason none of the above names.
    /// Its cause is in the sentence, not a source of its own: printed as a chain, it would
    /// be said twice.
    #[error("cannot open {}: {error}", path.display())]
    Open { path: PathBuf, error: rusqlite::Error },
    #[error("there is no campaign `{}` in this database", crate::core::words::shown(.0))]
    UnknownCampaign(String),
    #[error("a campaign named `{}` exists already", crate::core::words::shown(.0))]
    CampaignExists(String),
    #[error("campaign `{0}` has no commitment to its seed: it was begun before commitments were made, and none was made since")]
    NoCommitment(String),
    #[error("campaign `{0}` has nothing to undo: only its start is left")]
    NothingToUndo(String),
    #[error("campaign `{campaign}`: “{order}” cannot be redone, because the dice it was given were not kept with it; give it again")]
    CannotRedo { campaign: String, order: String },
    /// Another program wrote to the campaign since it was opened here.
    #[error("campaign `{0}` was changed by another program since it was opened; open it again")]
    Changed(String),
    #[error("campaign `{campaign}` cannot be read: {detail}")]
    Corrupt { campaign: String, detail: String },
    /// A campaign opened as one engine's that another engine plays.
    #[error("campaign `{campaign}` is a {found} campaign, not a {wanted} one")]
    WrongEngine { campaign: String, found: &'static str, wanted: &'static str },
    /// A list of events to import that does not make a campaign.
    #[error("the events to import as campaign `{name}` do not make a campaign: {detail}; nothing was written")]
    Import { name: String, detail: String },
    /// A name no campaign may have (X-03).
    #[error(transparent)]
    Name(#[from] RuleError),
    #[error("cannot read {}: {error}", path.display())]
    Io { path: PathBuf, error: std::io::Error },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// A command that could not be carried out: refused by the rules, or not stored.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// An order of a list that could not be carried out; nothing of the list was stored.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub struct BatchError {
    /// Which order, from 0; the list's length when storing the whole list failed.
    pub index: usize,
    pub error: ExecError,
}

/// The name a campaign had before a rename, read from the stored event.
#[derive(Deserialize)]
struct Renamed {
    was: String,
}

/// Keeps the campaign's name in the file as its log has it, inside the transaction that
/// changes it: refused if another campaign of the file has the name.
fn rename_in(tx: &rusqlite::Transaction<'_>, campaign: CampaignId, was: &str, name: &str) -> Result<(), StoreError> {
    if was == name {
        return Ok(());
    }
    let taken: i64 =
        tx.query_row("SELECT count(*) FROM campaigns WHERE name = ?1 AND id <> ?2", params![name, campaign.0], |r| r.get(0))?;
    if taken > 0 {
        return Err(StoreError::CampaignExists(name.to_owned()));
    }
    tx.execute("UPDATE campaigns SET name = ?1 WHERE id = ?2", params![name, campaign.0])?;
    Ok(())
}

/// Applies events to a state that the rules just decided them on. The rules never emit a
/// second start; if one ever did, the command is refused rather than stored.
fn apply_all<E: Engine>(state: &mut E::State, events: &[E::Event], name: &str) -> Result<(), StoreError> {
    for e in events {
        E::apply(state, e)
            .map_err(|_| StoreError::Corrupt { campaign: name.to_owned(), detail: "an order tried to start it again".into() })?;
    }
    Ok(())
}

/// Where a command's dice come from. Kept with each stored order, as JSON: `"seeded"`,
/// `{"manual": [3, 5]}`, `{"manual-with-chits": {"dice": [], "chits": ["8"]}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum DiceInput {
    /// The campaign's seeded stream.
    Seeded,
    /// Values the referee typed in from physical dice, used in order.
    Manual(Vec<u8>),
    /// Dice values and chits (by id) the referee typed in from real dice and a real cup.
    ManualWithChits { dice: Vec<u8>, chits: Vec<String> },
}

impl DiceInput {
    fn dice(&self, (seed, stream_pos): (u64, u64)) -> Dice {
        match self {
            DiceInput::Seeded => Dice::seeded(seed, stream_pos),
            DiceInput::Manual(values) => Dice::manual(values.iter().copied()),
            DiceInput::ManualWithChits { dice, chits } => Dice::manual_with_chits(dice.iter().copied(), chits.iter().cloned()),
        }
    }
}

/// An order the rules allowed, about to be stored: what was ordered, in a few words for the
/// referee, the dice it was given, and what happened.
struct Decided<'a, E: Engine> {
    order: &'a E::Order,
    summary: String,
    dice: DiceInput,
    events: Vec<E::Event>,
}

/// The events one order just stored for `campaign` (as [`Store::execute`] returned them),
/// numbered as the store numbered them: for a view that follows the campaign order by order
/// without reading its story again.
pub fn numbered<E: Engine>(campaign: &Campaign<E>, events: Vec<E::Event>) -> Vec<Logged<E::Event>> {
    let first = campaign.head + 1 - events.len() as u64;
    events.into_iter().zip(first..).map(|(event, seq)| Logged { seq, command_seq: campaign.commands, event }).collect()
}

/// An open campaign of engine `E`: its state and where its story stands in the database.
#[derive(Debug, Clone)]
pub struct Campaign<E: Engine> {
    pub id: CampaignId,
    pub state: E::State,
    /// Seq of the last stored event.
    pub head: u64,
    /// Seq of the last stored command.
    pub commands: u64,
    last_snapshot: u64,
}

/// One line of `referee list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CampaignSummary {
    pub id: CampaignId,
    pub name: String,
    pub engine: EngineId,
    pub scenario: String,
    pub created_at: String,
    pub commands: u64,
    pub events: u64,
}

/// The result of an undo.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Undone {
    pub command_seq: u64,
    pub summary: String,
    pub events: u64,
    /// The order as it was stored (JSON), to give it again with [`Store::redo`].
    #[serde(skip)]
    pub order: String,
    /// The dice it was given; `None` for an order stored before dice were kept with orders.
    #[serde(skip)]
    pub dice: Option<DiceInput>,
}

/// A command row: the order in a few words and whole, and the dice it was given.
struct CommandRow<'a> {
    seq: u64,
    now: &'a str,
    summary: &'a str,
    body: &'a str,
    dice: Option<&'a DiceInput>,
}

/// The body of a command brought in by [`Store::import`]: what was ordered is not in a log.
#[derive(Serialize)]
struct ImportedCommand {
    r#type: &'static str,
    command: u64,
}

#[derive(Serialize)]
struct StartCommand<'a> {
    engine: EngineId,
    r#type: &'static str,
    scenario: &'a str,
    name: &'a str,
}

/// A referee database file.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    snapshot_every: u64,
    /// The file, for the errors that name it.
    path: PathBuf,
    /// Opened with [`Store::open_read_only`]: every write is refused.
    read_only: bool,
    /// The schema the file holds: the current one, except for an older file opened for
    /// reading, which is read as it is.
    schema: i32,
}

const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

impl Store {
    /// Opens (creating if need be) the database at `path` for reading and writing, migrating
    /// it to the current schema. Only a migration takes the write lock; opening a database of
    /// the current schema reads it, and waits for nobody.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let found = inspect(path)?;
        refuse_read_only(path, !matches!(found, Found::Missing))?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| StoreError::Open { path: path.to_owned(), error: e })?;
        // SQLite opens a file it may not write for reading only, and says so.
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            return Err(StoreError::ReadOnly(path.to_owned()));
        }
        conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| unreadable(&conn, path, e))?;
        // A no-op when the file is in WAL mode already, as every file this program wrote is.
        let _: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0)).map_err(|e| unreadable(&conn, path, e))?;
        Store::init(conn, path)
    }

    /// Opens the database at `path` for reading only: what it holds is never changed, not
    /// even by a schema written into an empty file, and no lock is taken that would keep a
    /// writer waiting. Every write through the store is refused with [`StoreError::OpenedForReading`].
    /// An empty file reads as a database without campaigns; a missing one is
    /// [`StoreError::Missing`].
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        match inspect(path)? {
            Found::Missing => return Err(StoreError::Missing(path.to_owned())),
            Found::Empty | Found::Blank => return Store::blank(path),
            Found::Referee(_) => {}
        }
        let conn = reading_connection(path)?;
        let schema = match classify(&conn, path)? {
            Found::Referee(version) => version,
            _ => return Store::blank(path),
        };
        Ok(Store { conn, snapshot_every: DEFAULT_SNAPSHOT_EVERY, path: path.to_owned(), read_only: true, schema })
    }

    /// A database in memory, for tests and benchmarks.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?, Path::new(":memory:"))
    }

    /// What reading a file with no referee schema yet gives: a database without campaigns, in
    /// memory, so that the file itself stays as it is.
    fn blank(path: &Path) -> Result<Store, StoreError> {
        let mut store = Store::init(Connection::open_in_memory()?, path)?;
        store.conn.pragma_update(None, "query_only", true)?;
        store.read_only = true;
        Ok(store)
    }

    /// Sets up the connection and migrates an older schema, under the write lock.
    fn init(mut conn: Connection, path: &Path) -> Result<Store, StoreError> {
        conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| unreadable(&conn, path, e))?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(|e| unreadable(&conn, path, e))?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(|e| unreadable(&conn, path, e))?;
        if needs_migrating(classify(&conn, path)?) {
            // What SQLite says without naming the file, said with its name.
            let opening = |e| match e {
                StoreError::Sqlite(error) => StoreError::Open { path: path.to_owned(), error },
                e => e,
            };
            let tx = begin_write(&mut conn, path, false).map_err(opening)?;
            // Another program may have migrated it since: look again, under the lock.
            let found = classify(&tx, path)?;
            if needs_migrating(found) {
                let from = match found {
                    Found::Referee(version) => usize::try_from(version).unwrap_or(0),
                    _ => 0,
                };
                let fail = |e| StoreError::Open { path: path.to_owned(), error: e };
                for migration in &MIGRATIONS[from..] {
                    tx.execute_batch(migration).map_err(fail)?;
                }
                tx.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(fail)?;
                tx.pragma_update(None, "application_id", APPLICATION_ID).map_err(fail)?;
            }
            tx.commit().map_err(write_failed(path)).map_err(opening)?;
        }
        Ok(Store { conn, snapshot_every: DEFAULT_SNAPSHOT_EVERY, path: path.to_owned(), read_only: false, schema: SCHEMA_VERSION })
    }

    /// Changes how often snapshots are written (0: never). For tests and benchmarks.
    pub fn set_snapshot_every(&mut self, events: u64) {
        self.snapshot_every = events;
    }

    /// The underlying connection, for read-only inspection by tests and tools.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Starts a new campaign of engine `E` from `setup`.
    pub fn create_as<E: Engine>(&mut self, name: &str, setup: &E::Setup, seed: u64) -> Result<Campaign<E>, StoreError> {
        let name = crate::core::log::campaign_name(name)?;
        let start = E::start_event(name, setup, seed);
        let scenario = E::scenario_of(&start).unwrap_or_default();
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let now = chrono::Utc::now().to_rfc3339();
        let id = insert_campaign(&tx, name, E::ID, scenario, &now)?;
        let state =
            E::start(&start).ok_or_else(|| StoreError::Corrupt { campaign: name.to_owned(), detail: "its start is not a start".into() })?;
        let body = json(&StartCommand { engine: E::ID, r#type: "start_campaign", scenario, name });
        let summary = format!("start {name} from {scenario}");
        insert_command::<E>(&tx, id, &CommandRow { seq: 1, now: &now, summary: &summary, body: &body, dice: None }, &[start])?;
        insert_commitment(&tx, id, seed, 1)?;
        tx.commit().map_err(write_failed(&self.path))?;
        Ok(Campaign { id, state, head: 1, commands: 1, last_snapshot: 0 })
    }

    /// Brings in a whole campaign from its events (as `referee log --json` prints them for the
    /// umpire), under the name `name`: checked by replaying them first, so a list that does not
    /// make a campaign is refused and nothing is written. The events keep their grouping into
    /// commands, so undo takes back one command at a time as it did where they came from.
    pub fn import_as<E: Engine>(&mut self, name: &str, events: &[Logged<E::Event>]) -> Result<Campaign<E>, StoreError> {
        let name = crate::core::log::campaign_name(name)?;
        let invalid = |detail: String| StoreError::Import { name: name.to_owned(), detail };
        // Consecutive events of one command stay one command.
        let mut groups: Vec<(u64, Vec<E::Event>)> = Vec::new();
        for l in events {
            match groups.last_mut() {
                Some((seq, group)) if *seq == l.command_seq => group.push(l.event.clone()),
                _ => groups.push((l.command_seq, vec![l.event.clone()])),
            }
        }
        let Some(first) = groups.first_mut().and_then(|(_, g)| g.first_mut()) else {
            return Err(invalid("its first event is not the start of a campaign".into()));
        };
        if !E::rename_start(first, name) {
            return Err(invalid("its first event is not the start of a campaign".into()));
        }
        if groups[0].1.len() != 1 {
            return Err(invalid("its start is a command of its own, with no other event".into()));
        }
        let state = E::replay(groups.iter().flat_map(|(_, g)| g)).map_err(|e| invalid(e.to_string()))?;
        // The battles are kept in rows of their own as the events raise and settle them: a
        // log that raises a battle twice, or settles one no event raised, was not written by
        // the rules, and is refused in words rather than by the database's constraints.
        let mut raised = std::collections::BTreeSet::new();
        for (k, event) in groups.iter().flat_map(|(_, g)| g).enumerate() {
            match E::battle_row(event) {
                Some(BattleRow::Raised { number, .. }) if !raised.insert(number) => {
                    return Err(invalid(format!("its event {} raises battle {number}, which an event before it raised already", k + 1)));
                }
                Some(BattleRow::Settled { number }) if !raised.contains(&number) => {
                    return Err(invalid(format!("its event {} settles battle {number}, which no event before it raised", k + 1)));
                }
                _ => {}
            }
        }
        // A log that renames the campaign ends under the name it gave last; the name the
        // campaign is kept under in the file is that one.
        if E::name(&state) != name {
            return Err(invalid(format!("its log renames the campaign “{}”: import it under that name", E::name(&state))));
        }
        let scenario = E::scenario_of(&groups[0].1[0]).unwrap_or_default().to_owned();
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let now = chrono::Utc::now().to_rfc3339();
        let id = insert_campaign(&tx, name, E::ID, &scenario, &now)?;
        for (i, (_, group)) in groups.iter().enumerate() {
            let seq = i as u64 + 1;
            let body = json(&ImportedCommand { r#type: "imported", command: seq });
            let summary = format!("imported command {seq}");
            insert_command::<E>(&tx, id, &CommandRow { seq, now: &now, summary: &summary, body: &body, dice: None }, group)?;
        }
        let head = groups.iter().map(|(_, g)| g.len() as u64).sum();
        // The rolls brought in were made before this file's commitment: it covers what follows.
        insert_commitment(&tx, id, E::dice(&state).0, head + 1)?;
        tx.commit().map_err(write_failed(&self.path))?;
        Ok(Campaign { id, state, head, commands: groups.len() as u64, last_snapshot: 0 })
    }

    /// The campaign's published commitment to its seed, if one was made (a campaign begun
    /// before commitments were made has none until [`Store::commit_seed`]).
    pub fn commitment(&self, id: CampaignId) -> Result<Option<Commitment>, StoreError> {
        self.name_of(id)?;
        if self.schema < SETTINGS_SCHEMA {
            return Ok(None);
        }
        let row = self
            .conn
            .query_row("SELECT salt, digest, from_event, revealed_at FROM seed_commitments WHERE campaign_id = ?1", [id.0], |r| {
                Ok(Commitment { salt: r.get(0)?, digest: r.get(1)?, from_event: r.get(2)?, revealed_at: r.get(3)? })
            })
            .optional()?;
        Ok(row)
    }

    /// The campaign's commitment, made now if it has none: it then covers only the events
    /// still to come, since the seed was already in the referee's hands.
    pub fn commit_seed<E: Engine>(&mut self, campaign: &Campaign<E>) -> Result<Commitment, StoreError> {
        if let Some(c) = self.commitment(campaign.id)? {
            return Ok(c);
        }
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let commitment = insert_commitment(&tx, campaign.id, E::dice(&campaign.state).0, campaign.head + 1)?;
        tx.commit().map_err(write_failed(&self.path))?;
        Ok(commitment)
    }

    /// Reveals the campaign's seed: from now on every side may be told the seed and the salt,
    /// and check the rolls with them. Revealing twice keeps the first time.
    pub fn reveal_seed(&mut self, id: CampaignId) -> Result<Commitment, StoreError> {
        let name = self.name_of(id)?;
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let now = chrono::Utc::now().to_rfc3339();
        let changed =
            tx.execute("UPDATE seed_commitments SET revealed_at = coalesce(revealed_at, ?2) WHERE campaign_id = ?1", params![id.0, now])?;
        if changed == 0 {
            return Err(StoreError::NoCommitment(name));
        }
        tx.commit().map_err(write_failed(&self.path))?;
        self.commitment(id)?.ok_or(StoreError::NoCommitment(name))
    }

    /// Checks `seed` against the campaign's commitment and replays every seeded roll and chit
    /// draw of its log from it (X-02).
    pub fn verify_seed<E: Engine>(&self, id: CampaignId, seed: u64) -> Result<Verification, StoreError> {
        let name = self.name_of(id)?;
        let commitment = self.commitment(id)?.ok_or(StoreError::NoCommitment(name))?;
        let events = self.events_as::<E>(id)?;
        Ok(verify::<E>(seed, &commitment, &events))
    }

    /// [`Store::verify_seed`] as `viewer` makes the check: its own and the public rolls
    /// numbered by `line` (the line of its own log that holds the event), every other seeded
    /// roll only as the stretch of the stream it took (X-01, X-02).
    pub fn verify_seed_as<E: Engine>(
        &self,
        id: CampaignId,
        seed: u64,
        viewer: &Viewer,
        line: impl Fn(&Logged<E::Event>) -> Option<u64>,
    ) -> Result<Verification, StoreError> {
        let name = self.name_of(id)?;
        let commitment = self.commitment(id)?.ok_or(StoreError::NoCommitment(name))?;
        let events = self.events_as::<E>(id)?;
        Ok(crate::core::verify::verify_as::<E>(seed, &commitment, &events, viewer, line))
    }

    /// One of the referee's settings for this file, if set. An older file read as it is has
    /// none.
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        if self.schema < SETTINGS_SCHEMA {
            return Ok(None);
        }
        Ok(self.conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0)).optional()?)
    }

    /// Sets one of the referee's settings for this file, or clears it with `None`.
    pub fn set_setting(&mut self, key: &str, value: Option<&str>) -> Result<(), StoreError> {
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        match value {
            Some(value) => tx.execute(
                "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )?,
            None => tx.execute("DELETE FROM settings WHERE key = ?1", [key])?,
        };
        tx.commit().map_err(write_failed(&self.path))?;
        Ok(())
    }

    /// Keeps `tables` with battle `number` of campaign `id`, in place of any kept before:
    /// the tables its pack was just counted by.
    pub fn keep_battle_tables(&mut self, id: CampaignId, number: u32, tables: &[KeptTable]) -> Result<(), StoreError> {
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let head: u64 = tx.query_row("SELECT coalesce(max(seq), 0) FROM events WHERE campaign_id = ?1", [id.0], |r| r.get(0))?;
        tx.execute("DELETE FROM battle_tables WHERE campaign_id = ?1 AND number = ?2", params![id.0, number])?;
        for t in tables {
            tx.execute(
                "INSERT INTO battle_tables (campaign_id, number, path, text, kept_at_event) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id.0, number, t.path, t.text, head],
            )?;
        }
        tx.commit().map_err(write_failed(&self.path))?;
        Ok(())
    }

    /// The tables kept with battle `number` of campaign `id`, by path; none for a battle
    /// whose pack kept none, and in a file older than the kept tables.
    pub fn battle_tables(&self, id: CampaignId, number: u32) -> Result<Vec<KeptTable>, StoreError> {
        if self.schema < BATTLE_TABLES_SCHEMA {
            return Ok(Vec::new());
        }
        let mut stmt = self.conn.prepare("SELECT path, text FROM battle_tables WHERE campaign_id = ?1 AND number = ?2 ORDER BY path")?;
        let rows = stmt.query_map(params![id.0, number], |r| Ok(KeptTable { path: r.get(0)?, text: r.get(1)? }))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every campaign in the file, oldest first.
    pub fn campaigns(&self) -> Result<Vec<CampaignSummary>, StoreError> {
        let engine = if self.schema >= ENGINE_SCHEMA { "c.engine" } else { "'magna-graecia'" };
        let mut stmt = self.conn.prepare(&format!(
            "SELECT c.id, c.name, {engine}, c.scenario, c.created_at,
                    (SELECT count(*) FROM commands WHERE campaign_id = c.id),
                    (SELECT count(*) FROM events WHERE campaign_id = c.id)
             FROM campaigns c ORDER BY c.id"
        ))?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, name, engine, scenario, created_at, commands, events) = row?;
            let engine =
                engine.parse().map_err(|e: UnknownEngine| StoreError::Corrupt { campaign: name.clone(), detail: e.to_string() })?;
            out.push(CampaignSummary { id: CampaignId(id), name, engine, scenario, created_at, commands, events });
        }
        Ok(out)
    }

    /// The campaign named `key`, or with id `key`.
    pub fn find(&self, key: &str) -> Result<CampaignId, StoreError> {
        let by_name = self.conn.query_row("SELECT id FROM campaigns WHERE name = ?1", [key.trim()], |r| r.get(0)).optional()?;
        let by_id = || -> Result<Option<i64>, StoreError> {
            let Ok(n) = key.trim().parse::<i64>() else { return Ok(None) };
            Ok(self.conn.query_row("SELECT id FROM campaigns WHERE id = ?1", [n], |r| r.get(0)).optional()?)
        };
        match by_name {
            Some(id) => Ok(CampaignId(id)),
            None => by_id()?.map(CampaignId).ok_or_else(|| StoreError::UnknownCampaign(key.to_owned())),
        }
    }

    /// The column that holds each event's shape; a file from before there was one holds
    /// events of the first shape.
    fn version_column(&self) -> &'static str {
        if self.schema >= ENGINE_SCHEMA { "version" } else { "1" }
    }

    fn name_of(&self, id: CampaignId) -> Result<String, StoreError> {
        self.conn
            .query_row("SELECT name FROM campaigns WHERE id = ?1", [id.0], |r| r.get(0))
            .optional()?
            .ok_or_else(|| StoreError::UnknownCampaign(id.to_string()))
    }

    /// Which engine plays campaign `id`.
    pub fn engine_of(&self, id: CampaignId) -> Result<EngineId, StoreError> {
        let name = self.name_of(id)?;
        if self.schema < ENGINE_SCHEMA {
            return Ok(EngineId::MagnaGraecia);
        }
        let engine: String = self.conn.query_row("SELECT engine FROM campaigns WHERE id = ?1", [id.0], |r| r.get(0))?;
        engine.parse().map_err(|e: UnknownEngine| StoreError::Corrupt { campaign: name, detail: e.to_string() })
    }

    /// Opens a campaign, whichever engine plays it.
    pub fn load_any(&self, id: CampaignId) -> Result<AnyCampaign, StoreError> {
        Ok(match self.engine_of(id)? {
            EngineId::MagnaGraecia => AnyCampaign::MagnaGraecia(Box::new(self.load_as::<MagnaGraecia>(id)?)),
            EngineId::Belisarius => AnyCampaign::Belisarius(Box::new(self.load_as::<Belisarius>(id)?)),
        })
    }

    /// Opens a campaign of engine `E`: its latest snapshot, then the events stored after it.
    pub fn load_as<E: Engine>(&self, id: CampaignId) -> Result<Campaign<E>, StoreError> {
        let name = self.name_of(id)?;
        let found = self.engine_of(id)?;
        if found != E::ID {
            return Err(StoreError::WrongEngine { campaign: name, found: found.title(), wanted: E::ID.title() });
        }
        let corrupt = |detail: String| StoreError::Corrupt { campaign: name.clone(), detail };
        let by_engine = if self.schema >= ENGINE_SCHEMA { " AND engine = ?3" } else { " AND ?3 = ?3" };
        let snapshot: Option<(u64, String)> = self
            .conn
            .query_row(
                &format!(
                    "SELECT event_seq, body FROM snapshots WHERE campaign_id = ?1 AND state_version = ?2{by_engine}
                     ORDER BY event_seq DESC LIMIT 1"
                ),
                params![id.0, E::STATE_VERSION, E::ID.key()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        // A snapshot is only a cache of the events: one that does not read back is passed over
        // and the events replayed from the start.
        let (mut state, from) = match snapshot.and_then(|(seq, body)| serde_json::from_str::<E::State>(&body).ok().map(|s| (s, seq))) {
            Some((state, seq)) => (Some(state), seq),
            None => (None, 0),
        };
        let mut head = from;
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT seq, kind, {}, body FROM events WHERE campaign_id = ?1 AND seq > ?2 ORDER BY seq",
            self.version_column()
        ))?;
        let mut rows = stmt.query(params![id.0, from])?;
        while let Some(row) = rows.next()? {
            let seq: u64 = row.get(0)?;
            let kind = row.get_ref(1)?.as_str().map_err(|e| corrupt(format!("event {seq}: {e}")))?;
            let body = row.get_ref(3)?.as_str().map_err(|e| corrupt(format!("event {seq}: {e}")))?;
            let event: E::Event = read_event::<E>(kind, row.get(2)?, body).map_err(|e| corrupt(format!("event {seq}: {e}")))?;
            match &mut state {
                None => state = Some(E::start(&event).ok_or_else(|| corrupt("its first event is not its start".into()))?),
                Some(s) => E::apply(s, &event).map_err(|_| corrupt(format!("event {seq} starts the campaign again")))?,
            }
            head = seq;
        }
        let state = state.ok_or_else(|| corrupt("it has no events".into()))?;
        let commands: u64 =
            self.conn.query_row("SELECT coalesce(max(seq), 0) FROM commands WHERE campaign_id = ?1", [id.0], |r| r.get(0))?;
        Ok(Campaign { id, state, head, commands, last_snapshot: from })
    }

    /// Every stored event of a campaign of engine `E`, in order.
    pub fn events_as<E: Engine>(&self, id: CampaignId) -> Result<Vec<Logged<E::Event>>, StoreError> {
        let name = self.name_of(id)?;
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT seq, command_seq, kind, {}, body FROM events WHERE campaign_id = ?1 ORDER BY seq",
            self.version_column()
        ))?;
        let rows = stmt.query_map([id.0], |r| {
            Ok((r.get::<_, u64>(0)?, r.get::<_, u64>(1)?, r.get::<_, String>(2)?, r.get::<_, u32>(3)?, r.get::<_, String>(4)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, command_seq, kind, version, body) = row?;
            let event = read_event::<E>(&kind, version, &body)
                .map_err(|e| StoreError::Corrupt { campaign: name.clone(), detail: format!("event {seq}: {e}") })?;
            out.push(Logged { seq, command_seq, event });
        }
        Ok(out)
    }

    /// Runs `order` through the rules and, if they allow it, stores its events in one
    /// transaction and applies them. On any error nothing is written and `campaign` is
    /// unchanged.
    pub fn execute<E: Engine>(
        &mut self,
        campaign: &mut Campaign<E>,
        context: &E::Context,
        order: &E::Order,
        dice: DiceInput,
    ) -> Result<Vec<E::Event>, ExecError> {
        let mut roller = dice.dice(E::dice(&campaign.state));
        let events = E::decide(&campaign.state, context, order, &mut roller)?;
        let mut next = campaign.state.clone();
        apply_all::<E>(&mut next, &events, E::name(&campaign.state))?;
        let summary = E::summary(&campaign.state, context, order, &Viewer::Umpire);
        let decided = [Decided::<E> { order, summary, dice, events }];
        self.store_commands(campaign, next, &decided)?;
        let [Decided { events, .. }] = decided;
        Ok(events)
    }

    /// Runs a list of orders with the seeded dice, each after the one before, and stores
    /// them all in one transaction, or none: if the rules refuse one, the error says which,
    /// and nothing is written. Each order stays a command of its own, for undo.
    pub fn execute_all<E: Engine>(
        &mut self,
        campaign: &mut Campaign<E>,
        context: &E::Context,
        orders: &[E::Order],
    ) -> Result<Vec<E::Event>, BatchError> {
        let mut next = campaign.state.clone();
        let mut decided = Vec::with_capacity(orders.len());
        for (index, order) in orders.iter().enumerate() {
            let refused = |error: ExecError| BatchError { index, error };
            let dice = DiceInput::Seeded;
            let mut roller = dice.dice(E::dice(&next));
            let events = E::decide(&next, context, order, &mut roller).map_err(|e| refused(e.into()))?;
            let summary = E::summary(&next, context, order, &Viewer::Umpire);
            apply_all::<E>(&mut next, &events, E::name(&campaign.state)).map_err(|e| refused(e.into()))?;
            decided.push(Decided::<E> { order, summary, dice, events });
        }
        self.store_commands(campaign, next, &decided).map_err(|e| BatchError { index: orders.len(), error: e.into() })?;
        Ok(decided.into_iter().flat_map(|d| d.events).collect())
    }

    /// Writes orders and their events in one transaction, and moves `campaign` on to `next`.
    fn store_commands<E: Engine>(
        &mut self,
        campaign: &mut Campaign<E>,
        next: E::State,
        orders: &[Decided<'_, E>],
    ) -> Result<(), StoreError> {
        let count: u64 = orders.iter().map(|d| d.events.len() as u64).sum();
        let head = campaign.head + count;
        let snapshot = self.snapshot_every > 0 && head - campaign.last_snapshot >= self.snapshot_every;
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let stored_head: u64 =
            tx.query_row("SELECT coalesce(max(seq), 0) FROM events WHERE campaign_id = ?1", [campaign.id.0], |r| r.get(0))?;
        if stored_head != campaign.head {
            return Err(StoreError::Changed(E::name(&campaign.state).to_owned()));
        }
        rename_in(&tx, campaign.id, E::name(&campaign.state), E::name(&next))?;
        let now = chrono::Utc::now().to_rfc3339();
        for (i, Decided { order, summary, dice, events }) in orders.iter().enumerate() {
            let body = json(order);
            let row = CommandRow { seq: campaign.commands + 1 + i as u64, now: &now, summary, body: &body, dice: Some(dice) };
            insert_command::<E>(&tx, campaign.id, &row, events)?;
        }
        if snapshot {
            tx.execute(
                "INSERT INTO snapshots (campaign_id, event_seq, state_version, body, engine) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![campaign.id.0, head, E::STATE_VERSION, json(&next), E::ID.key()],
            )?;
        }
        tx.commit().map_err(write_failed(&self.path))?;
        campaign.state = next;
        campaign.head = head;
        campaign.commands += orders.len() as u64;
        if snapshot {
            campaign.last_snapshot = head;
        }
        Ok(())
    }

    /// Deletes a campaign with everything kept of it — its orders, events, snapshots,
    /// battles, kept tables, commitment to its seed and its settings (those keyed
    /// `…/<id>`) — in one transaction, and returns its name. Other campaigns of the file are
    /// untouched; a file opened for reading refuses.
    pub fn delete_campaign(&mut self, campaign: CampaignId) -> Result<String, StoreError> {
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let name: Option<String> = tx.query_row("SELECT name FROM campaigns WHERE id = ?1", [campaign.0], |r| r.get(0)).optional()?;
        let name = name.ok_or_else(|| StoreError::UnknownCampaign(campaign.0.to_string()))?;
        // The foreign keys take every row of the campaign with it, events and battles
        // through its commands.
        tx.execute("DELETE FROM campaigns WHERE id = ?1", [campaign.0])?;
        tx.execute("DELETE FROM settings WHERE key LIKE '%/' || ?1", [campaign.0])?;
        tx.commit().map_err(write_failed(&self.path))?;
        Ok(name)
    }

    /// The last order given in a campaign, in a few words (what `undo` would take back), or
    /// `None` before any.
    pub fn last_summary(&self, campaign: CampaignId) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT summary FROM commands WHERE campaign_id = ?1 AND seq > 1 ORDER BY seq DESC LIMIT 1", [campaign.0], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Removes the campaign's last command and its events, and reopens the campaign.
    pub fn undo<E: Engine>(&mut self, campaign: &mut Campaign<E>) -> Result<Undone, StoreError> {
        let name = E::name(&campaign.state).to_owned();
        let tx = begin_write(&mut self.conn, &self.path, self.read_only)?;
        let last: Option<(u64, String, u64, String, Option<String>)> = tx
            .query_row(
                "SELECT seq, summary, event_count, body, dice FROM commands WHERE campaign_id = ?1 ORDER BY seq DESC LIMIT 1",
                [campaign.id.0],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()?;
        let Some((seq, summary, events, order, dice)) = last else {
            return Err(StoreError::UnknownCampaign(name));
        };
        // Dice that do not read back are as good as not kept: the order cannot be redone.
        let dice = dice.and_then(|d| serde_json::from_str(&d).ok());
        if seq != campaign.commands {
            return Err(StoreError::Changed(name));
        }
        if seq <= 1 {
            return Err(StoreError::NothingToUndo(name));
        }
        // An order that renamed the campaign taken back: the name it had before comes back.
        let renamed: Option<String> = tx
            .query_row(
                "SELECT body FROM events WHERE campaign_id = ?1 AND command_seq = ?2 AND kind = 'campaign_renamed' ORDER BY seq LIMIT 1",
                params![campaign.id.0, seq],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(body) = renamed {
            let before = serde_json::from_str::<Renamed>(&body)
                .map_err(|e| StoreError::Corrupt { campaign: name.clone(), detail: format!("its former name cannot be read: {e}") })?;
            rename_in(&tx, campaign.id, &name, &before.was)?;
        }
        tx.execute("DELETE FROM commands WHERE campaign_id = ?1 AND seq = ?2", params![campaign.id.0, seq])?;
        let head: u64 = tx.query_row("SELECT coalesce(max(seq), 0) FROM events WHERE campaign_id = ?1", [campaign.id.0], |r| r.get(0))?;
        tx.execute("DELETE FROM snapshots WHERE campaign_id = ?1 AND event_seq > ?2", params![campaign.id.0, head])?;
        tx.commit().map_err(write_failed(&self.path))?;
        *campaign = self.load_as::<E>(campaign.id)?;
        Ok(Undone { command_seq: seq, summary, events, order, dice })
    }

    /// Gives an undone order again with the dice it was given: the seeded stream stands where
    /// it stood, and typed-in values are typed in again, so it rolls what it rolled. Refused
    /// if the order was stored before dice were kept with orders, or is not one at all (the
    /// start, an imported command).
    pub fn redo<E: Engine>(
        &mut self,
        campaign: &mut Campaign<E>,
        context: &E::Context,
        undone: &Undone,
    ) -> Result<Vec<E::Event>, ExecError> {
        let name = || E::name(&campaign.state).to_owned();
        let Some(dice) = undone.dice.clone() else {
            return Err(StoreError::CannotRedo { campaign: name(), order: undone.summary.clone() }.into());
        };
        let order: E::Order =
            serde_json::from_str(&undone.order).map_err(|_| StoreError::CannotRedo { campaign: name(), order: undone.summary.clone() })?;
        self.execute(campaign, context, &order, dice)
    }
}

/// Publishes a commitment to `seed` for campaign `id`, covering the events from `from_event`.
fn insert_commitment(tx: &rusqlite::Transaction<'_>, id: CampaignId, seed: u64, from_event: u64) -> Result<Commitment, rusqlite::Error> {
    let salt = fresh_salt();
    let digest = Commitment::digest_of(seed, &salt);
    tx.execute(
        "INSERT INTO seed_commitments (campaign_id, salt, digest, from_event) VALUES (?1, ?2, ?3, ?4)",
        params![id.0, salt, digest, from_event],
    )?;
    Ok(Commitment { salt, digest, from_event, revealed_at: None })
}

/// Adds a campaign called `name`, refusing a name the file has already.
fn insert_campaign(
    tx: &rusqlite::Transaction<'_>,
    name: &str,
    engine: EngineId,
    scenario: &str,
    now: &str,
) -> Result<CampaignId, StoreError> {
    let exists: bool = tx.query_row("SELECT EXISTS (SELECT 1 FROM campaigns WHERE name = ?1)", [name], |r| r.get(0))?;
    if exists {
        return Err(StoreError::CampaignExists(name.to_owned()));
    }
    tx.execute(
        "INSERT INTO campaigns (name, engine, scenario, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![name, engine.key(), scenario, now],
    )?;
    Ok(CampaignId(tx.last_insert_rowid()))
}

/// Inserts a command row and its events; returns the seq of the first event.
fn insert_command<E: Engine>(
    tx: &rusqlite::Transaction<'_>,
    campaign: CampaignId,
    row: &CommandRow<'_>,
    events: &[E::Event],
) -> Result<u64, rusqlite::Error> {
    let CommandRow { seq, now, summary, body, dice } = *row;
    tx.execute(
        "INSERT INTO commands (campaign_id, seq, issued_at, summary, body, event_count, dice) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![campaign.0, seq, now, summary, body, events.len() as u64, dice.map(json)],
    )?;
    let head: u64 = tx.query_row("SELECT coalesce(max(seq), 0) FROM events WHERE campaign_id = ?1", [campaign.0], |r| r.get(0))?;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO events (campaign_id, seq, command_seq, kind, body, engine, version) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (i, e) in events.iter().enumerate() {
        let event_seq = head + 1 + i as u64;
        let body = json(e);
        let kind = kind_of(&body).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        stmt.execute(params![campaign.0, event_seq, seq, kind, body, E::ID.key(), E::EVENT_VERSION])?;
        // The battles and their results, readable on their own.
        match E::battle_row(e) {
            Some(BattleRow::Raised { number, place, turn, body }) => {
                tx.prepare_cached(
                    "INSERT INTO battles (campaign_id, number, raised_by_event, place, turn, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?
                .execute(params![campaign.0, number, event_seq, place, turn, body])?;
            }
            Some(BattleRow::Settled { number }) => {
                tx.prepare_cached(
                    "INSERT INTO battle_results (campaign_id, number, recorded_by_event, kind, body) VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![campaign.0, number, event_seq, kind, body])?;
            }
            None => {}
        }
    }
    Ok(head + 1)
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("campaign types serialise to JSON")
}

/// Begins a write: refused at once on a store opened for reading, and in one sentence when
/// another program keeps the write lock past [`BUSY_TIMEOUT`].
fn begin_write<'c>(conn: &'c mut Connection, path: &Path, read_only: bool) -> Result<rusqlite::Transaction<'c>, StoreError> {
    if read_only {
        return Err(StoreError::OpenedForReading(path.to_owned()));
    }
    conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(write_failed(path))
}

/// Names why a write could not begin or commit.
fn write_failed(path: &Path) -> impl FnOnce(rusqlite::Error) -> StoreError {
    move |e| match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy(path.to_owned()),
        Some(ErrorCode::ReadOnly) => read_only_error(path, &e),
        _ => StoreError::Sqlite(e),
    }
}

/// A file or a folder that SQLite found it may not write.
fn read_only_error(path: &Path, e: &rusqlite::Error) -> StoreError {
    match e.sqlite_error() {
        Some(err) if err.extended_code == rusqlite::ffi::SQLITE_READONLY_DIRECTORY => StoreError::FolderReadOnly(path.to_owned()),
        _ => StoreError::ReadOnly(path.to_owned()),
    }
}

/// Names what went wrong reading `path` through `conn` while opening it.
fn unreadable(conn: &Connection, path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
            let detail = integrity(conn).unwrap_or_else(|| format!("SQLite cannot read it: {e}"));
            StoreError::Damaged { path: path.to_owned(), detail }
        }
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy(path.to_owned()),
        Some(ErrorCode::ReadOnly) => read_only_error(path, &e),
        _ => StoreError::Open { path: path.to_owned(), error: e },
    }
}

/// The first complaint of SQLite's integrity check, where the check runs at all.
fn integrity(conn: &Connection) -> Option<String> {
    first_complaint(&conn.query_row("PRAGMA integrity_check(1)", [], |r| r.get::<_, String>(0)).ok()?)
}

/// The first complaint in a report of `PRAGMA integrity_check`, or `None` for "ok".
fn first_complaint(report: &str) -> Option<String> {
    // The complaint may come after a line naming the database ("*** in database main ***").
    let line = report.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("***"))?;
    (line != "ok").then(|| format!("SQLite's integrity check says: {line}"))
}

impl StoreError {
    /// SQLite found the database malformed while reading it, after it opened well: damage
    /// beyond what opening reads shows only when it is read. [`diagnose`] says what it is.
    pub fn is_damage(&self) -> bool {
        matches!(self, StoreError::Sqlite(e) if matches!(e.sqlite_error_code(), Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)))
    }
}

/// What is damaged in the database at `path`, by SQLite's integrity check, read without
/// locks or journal files where no other program has the file open: for an error that
/// [`StoreError::is_damage`]. `None` when the check finds nothing wrong.
pub fn diagnose(path: &Path) -> Option<StoreError> {
    let conn = if beside(path, "-wal").is_file() {
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX).ok()?
    } else {
        immutable(path).ok()?
    };
    let detail = match conn.query_row("PRAGMA integrity_check(1)", [], |r| r.get::<_, String>(0)) {
        Ok(report) => first_complaint(&report)?,
        Err(e) => format!("SQLite cannot read it: {e}"),
    };
    Some(StoreError::Damaged { path: path.to_owned(), detail })
}

/// What opening found in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// No file at the path.
    Missing,
    /// A file of no bytes, which SQLite takes for an empty database.
    Empty,
    /// A SQLite database with nothing in it yet.
    Blank,
    /// A referee database of this schema version, one this program reads.
    Referee(i32),
}

fn needs_migrating(found: Found) -> bool {
    match found {
        Found::Referee(version) => version < SCHEMA_VERSION,
        Found::Missing | Found::Empty | Found::Blank => true,
    }
}

/// Reads whose file this is and which schema it holds, and refuses what this program must not
/// open. Only reads.
fn classify(conn: &Connection, path: &Path) -> Result<Found, StoreError> {
    let read = || -> rusqlite::Result<(i32, i32, i64)> {
        let app = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
        let version = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let objects = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        Ok((app, version, objects))
    };
    let (app, version, objects) = read().map_err(|e| unreadable(conn, path, e))?;
    let path = path.to_owned();
    if app != APPLICATION_ID && (app != 0 || objects > 0 || version != 0) {
        return Err(StoreError::NotOurs(path));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::Newer { path, found: version, supported: SCHEMA_VERSION });
    }
    // Referee sets its mark and its version together, and never a version below 1.
    if version < 0 || (version == 0 && objects > 0) {
        return Err(StoreError::UnknownVersion { path, found: version });
    }
    Ok(if version == 0 { Found::Blank } else { Found::Referee(version) })
}

/// Looks at a file before opening it, refusing one this program must not open, through reads
/// that leave nothing behind: its header with plain file reads, the rest through SQLite opened
/// read-only and, unless another program has the database open, `immutable` (without locks,
/// `-wal` or `-shm`).
fn inspect(path: &Path) -> Result<Found, StoreError> {
    let io = |error| StoreError::Io { path: path.to_owned(), error };
    let damaged = |detail: String| StoreError::Damaged { path: path.to_owned(), detail };
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Missing),
        Err(e) => return Err(io(e)),
    };
    let mut header = [0u8; 100];
    let mut read = 0;
    while read < header.len() {
        match file.read(&mut header[read..]).map_err(io)? {
            0 => break,
            n => read += n,
        }
    }
    let header = &header[..read];
    if header.is_empty() {
        return Ok(Found::Empty);
    }
    if !header.starts_with(SQLITE_HEADER) {
        if header.get(68..72) == Some(&APPLICATION_ID.to_be_bytes()[..]) {
            return Err(damaged("it is marked as a referee database, but its first bytes are not SQLite's".into()));
        }
        return Err(StoreError::NotSqlite(path.to_owned()));
    }
    if header.len() < 100 {
        return Err(damaged(format!("it is cut short: {read} bytes, less than SQLite's header")));
    }
    let len = file.metadata().map_err(io)?.len();
    drop(file);
    if let Some(expected) = expected_len(header)
        && len < expected
        && !journal_beside(path)
    {
        return Err(damaged(format!("it is cut short: {len} of its {expected} bytes are there")));
    }
    if beside(path, "-wal").is_file() {
        // Another program has it open, or left its journal: read it as SQLite's readers do.
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| StoreError::Open { path: path.to_owned(), error: e })?;
        return classify(&conn, path);
    }
    let before = stamp(path);
    let found = classify(&immutable(path)?, path);
    if found.is_err() && (beside(path, "-wal").is_file() || stamp(path) != before) {
        // A writer came while the file was read without locks: read it again, with them.
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| StoreError::Open { path: path.to_owned(), error: e })?;
        return classify(&conn, path);
    }
    found
}

/// The length SQLite's header gives the file, where the header vouches for it: writers that
/// keep the page count (offset 28) up to date copy the change counter (24) to offset 92.
/// SQLite keeps the file that long whenever no journal is beside it.
fn expected_len(header: &[u8]) -> Option<u64> {
    let be32 = |at: usize| u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]]);
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65_536,
        n => u64::from(n),
    };
    let pages = u64::from(be32(28));
    let vouched = be32(24) == be32(92) && pages > 0 && page_size >= 512 && page_size.is_power_of_two();
    vouched.then_some(pages * page_size)
}

/// Whether SQLite left a journal beside the database that may hold part of it.
fn journal_beside(path: &Path) -> bool {
    ["-wal", "-journal"].iter().any(|suffix| std::fs::metadata(beside(path, suffix)).is_ok_and(|m| m.is_file() && m.len() > 0))
}

/// SQLite's file beside the database: `-wal`, `-shm` or `-journal`.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(suffix);
    PathBuf::from(name)
}

/// Length and time of last change of a file, to tell whether it changed while being read.
fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// The file opened by SQLite without locks, `-wal` or `-shm` (`immutable=1`): for a file no
/// writer has open, as none has when there is no `-wal` beside it.
fn immutable(path: &Path) -> Result<Connection, StoreError> {
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut uri = String::from("file:");
    if path.is_absolute() {
        uri.push_str("//");
        if !bytes.starts_with(b"/") {
            uri.push('/');
        }
    }
    for &b in bytes {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => uri.push(char::from(b)),
            b'\\' if cfg!(windows) => uri.push('/'),
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri.push_str("?immutable=1");
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    Connection::open_with_flags(uri, flags).map_err(|e| StoreError::Open { path: path.to_owned(), error: e })
}

/// The connection of a store opened for reading. Read-write where the system allows it, with
/// SQLite's `query_only` on, because SQLite then takes its `-wal` and `-shm` away when the
/// last connection closes, which a read-only connection never does; read-only where the
/// system will not let the file be written (SQLite's `-wal` and `-shm` then stay beside it
/// until a program that may write opens it); and `immutable` where SQLite cannot make its `-wal` or `-shm` beside the
/// database (a read-only folder), where no writer can either.
fn reading_connection(path: &Path) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| StoreError::Open { path: path.to_owned(), error: e })?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| unreadable(&conn, path, e))?;
    conn.pragma_update(None, "query_only", true).map_err(|e| unreadable(&conn, path, e))?;
    // The first read opens the journal.
    match conn.pragma_query_value(None, "schema_version", |r| r.get::<_, i64>(0)) {
        Ok(_) => Ok(conn),
        Err(e) if cannot_make_journal(&e) && !beside(path, "-wal").is_file() => {
            drop(conn);
            immutable(path)
        }
        Err(e) => Err(unreadable(&conn, path, e)),
    }
}

/// SQLite could not open or create its `-wal` or `-shm` beside the database.
fn cannot_make_journal(e: &rusqlite::Error) -> bool {
    use rusqlite::ffi::{SQLITE_CANTOPEN, SQLITE_READONLY_CANTINIT, SQLITE_READONLY_CANTLOCK, SQLITE_READONLY_DIRECTORY};
    e.sqlite_error().is_some_and(|err| {
        err.extended_code & 0xff == SQLITE_CANTOPEN
            || [SQLITE_READONLY_CANTINIT, SQLITE_READONLY_CANTLOCK, SQLITE_READONLY_DIRECTORY].contains(&err.extended_code)
    })
}

/// Refuses to write to a file or into a folder marked read-only. The marks are read, not
/// tried, so that they hold even for a user the system would let write anyway (root); a
/// file the system will not let this user write is found by SQLite when it opens it.
fn refuse_read_only(path: &Path, exists: bool) -> Result<(), StoreError> {
    let marked = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.permissions().readonly());
    if exists && marked(path) {
        return Err(StoreError::ReadOnly(path.to_owned()));
    }
    // Windows' read-only mark on a folder does not keep files from being written in it.
    let folder = path.parent().filter(|f| !f.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if cfg!(unix) && marked(folder) {
        return Err(StoreError::FolderReadOnly(path.to_owned()));
    }
    Ok(())
}
