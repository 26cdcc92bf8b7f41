//! Helpers shared by the end-to-end tests in `tests/`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use referee_campaign::{magna_graecia::catalog::Catalog, magna_graecia::map::Map, magna_graecia::scenario::Scenario};

pub mod play;
pub mod staging;

/// The built-in data, loaded once per test binary.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(Catalog::embedded)
}

pub fn scenario(id: &str) -> &'static Scenario {
    catalog().scenario(id).unwrap_or_else(|| panic!("scenario {id} is built in"))
}

pub fn sicily() -> &'static Map {
    catalog().map("sicily").expect("the Sicily map is built in")
}

/// Starts campaign `name` of the Dionysian War (seed 9), deploys it, and marches Himilco
/// from Panormus onto Leptines at Himera: battle 1 is due, Carthage attacking.
pub fn raise_himera(db: &Path, name: &str) {
    raise_himera_deployed(db, name, &referee_campaign::fixtures::DIONYSIAN);
}

/// [`raise_himera`], the sides deployed as `deployment` says.
pub fn raise_himera_deployed(db: &Path, name: &str, deployment: &[(&str, &str, u8)]) {
    use referee_campaign::{NodeId, SideId, magna_graecia::order::Order};
    cli(db, &["new", "dionysian", "--name", name, "--seed", "9"]).ok();
    let mut deployed = referee_campaign::fixtures::deploy_orders(deployment);
    deployed.push(Order::BeginPlay {});
    cli(db, &["order", name, &serde_json::to_string(&deployed).unwrap()]).ok();
    let himilco = Order::Move { side: SideId::new("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] };
    cli(db, &["order", name, &serde_json::to_string(&himilco).unwrap()]).ok();
    let end = Order::EndPhase { side: SideId::new("carthage") };
    cli(db, &["order", name, &serde_json::to_string(&end).unwrap()]).ok_saying("Battle 1 at Himera: Carthage attacks Syracuse");
}

/// A fresh database where campaign `name` has battle 1 at Himera due, as [`raise_himera`]
/// leaves it.
pub fn himera_db(name: &str) -> TempDb {
    let db = TempDb::new();
    raise_himera(&db.path, name);
    db
}

/// Campaign "Africa" of the Vandal War started with `seed`, the Byzantines' fleets placed in
/// the African Sea and play begun.
pub fn africa_begun(db: &TempDb, seed: &str) {
    cli(&db.path, &["new", "africa-533", "--name", "Africa", "--seed", seed]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"place","side":"byzantines","line":1,"at":"mare-africum"}"#]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"begin_play"}"#]).ok();
}

/// Africa begun, its events (a 7) and supply (typed-in 1s) played, and its operations begun
/// with the Byzantines first.
pub fn africa_in_operations(db: &TempDb, seed: &str) {
    africa_begun(db, seed);
    cli(&db.path, &["order", "Africa", r#"{"type":"events"}"#, "--value", "3,4"]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"supply"}"#, "--value", "1"]).ok();
    cli(&db.path, &["order", "Africa", r#"{"type":"begin_operations"}"#, "--chit", "ap-i,ap-d", "--value", "6,1"]).ok();
}

/// Africa in operations, the Byzantines first, Belisarius activated and marched into zone
/// `to` (attrition on a 1).
pub fn africa_marched(db: &TempDb, to: &str) {
    africa_in_operations(db, "5");
    cli(&db.path, &["order", "Africa", r#"{"type":"activate","side":"byzantines","leader":"belisarius"}"#]).ok();
    let march = format!(r#"{{"type":"move","side":"byzantines","leader":"belisarius","path":["{to}"]}}"#);
    cli(&db.path, &["order", "Africa", &march, "--value", "1"]).ok();
}

/// Africa in operations, Belisarius's march halted at Gelimer's zone, the Vandals declined
/// and Belisarius intercepting: a battle in line (a 2 against Gelimer's 4 at +4).
pub fn africa_battle(db: &TempDb) {
    africa_marched(db, "byzacium-south");
    cli(&db.path, &["show", "Africa", "--as", "vandals"]).ok_saying("Contact at Southern Byzacium");
    cli(&db.path, &["order", "Africa", r#"{"type":"decline","side":"vandals"}"#]).ok();
    let joined =
        cli(&db.path, &["order", "Africa", r#"{"type":"intercept","side":"byzantines","leaders":["belisarius"]}"#, "--value", "2"]).ok();
    assert!(joined.contains("Battle at Southern Byzacium"), "{joined}");
}

/// A database path in a fresh temporary folder, removed when dropped.
#[derive(Debug)]
pub struct TempDb {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl TempDb {
    pub fn new() -> TempDb {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("campaigns.sqlite");
        TempDb { _dir: dir, path }
    }

    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.path).unwrap_or_default()
    }

    /// Asserts that `referee --db DB ARGS…` is refused in one line saying `words`, leaving the
    /// database byte for byte as it was, and returns the line.
    pub fn refuses(&self, args: &[&str], words: &str) -> String {
        let before = self.bytes();
        let line = cli(&self.path, args).refused();
        assert!(line.contains(words), "{args:?}: {line}");
        assert_eq!(self.bytes(), before, "{args:?} changed the database");
        line
    }

    /// The folder the database is in.
    pub fn folder(&self) -> &Path {
        self._dir.path()
    }

    /// The names of the files in the database's folder, sorted: SQLite's `-wal` and `-shm`
    /// show here when left behind.
    pub fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.folder())
            .expect("the temporary folder can be listed")
            .map(|entry| entry.expect("a folder entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// Permission bits set on a file or folder until dropped, when the old ones are put back (so
/// that a user who is not root can remove the temporary folder).
#[cfg(unix)]
#[derive(Debug)]
pub struct Mode {
    path: PathBuf,
    old: std::fs::Permissions,
}

#[cfg(unix)]
impl Mode {
    pub fn set(path: &Path, mode: u32) -> Mode {
        use std::os::unix::fs::PermissionsExt;
        let old = std::fs::metadata(path).expect("the path exists").permissions();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("permissions can be set");
        Mode { path: path.to_owned(), old }
    }
}

#[cfg(unix)]
impl Drop for Mode {
    fn drop(&mut self) {
        let _ = std::fs::set_permissions(&self.path, self.old.clone());
    }
}

impl Default for TempDb {
    fn default() -> Self {
        TempDb::new()
    }
}

/// What one run of the command line printed.
#[derive(Debug)]
pub struct CliRun {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

impl CliRun {
    /// Asserts success and returns stdout.
    pub fn ok(self) -> String {
        assert_eq!(self.code, 0, "command failed: {}", self.stderr);
        self.stdout
    }

    /// Asserts failure with exactly one line on stderr, and returns it.
    pub fn refused(self) -> String {
        assert_ne!(self.code, 0, "command should have been refused; printed {}", self.stdout);
        assert_eq!(self.stderr.lines().count(), 1, "one line of error, not: {}", self.stderr);
        self.stderr.trim_end().to_owned()
    }

    /// Asserts success with `words` in what was printed, and returns it.
    pub fn ok_saying(self, words: &str) -> String {
        let out = self.ok();
        assert!(out.contains(words), "expected `{words}` in:\n{out}");
        out
    }

    /// Asserts a one-line refusal saying `words`, and returns it.
    pub fn refused_saying(self, words: &str) -> String {
        let line = self.refused();
        assert!(line.contains(words), "expected `{words}` in: {line}");
        line
    }

    pub fn json(self) -> serde_json::Value {
        serde_json::from_str(&self.ok()).expect("the command printed JSON")
    }
}

/// Runs `referee --db DB ARGS…` in this process.
pub fn cli(db: &Path, args: &[&str]) -> CliRun {
    run(&["--db", &db.display().to_string()], args)
}

/// Runs `referee FIRST… ARGS…` in this process.
fn run(first: &[&str], args: &[&str]) -> CliRun {
    let mut all = vec!["referee".to_owned()];
    all.extend(first.iter().chain(args).map(|a| (*a).to_owned()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = match referee::cli::run(all, &mut out, &mut err) {
        referee::cli::Launch::Exit(code) => code,
        referee::cli::Launch::Gui(_) | referee::cli::Launch::PlayerDesk(_) => panic!("the window was asked for in a test"),
    };
    CliRun { code, stdout: String::from_utf8(out).expect("UTF-8 output"), stderr: String::from_utf8(err).expect("UTF-8 errors") }
}

/// Runs `referee --packet PACKET ARGS…` in this process: a player's command on a side's
/// packet, with no database.
pub fn player(packet: &Path, args: &[&str]) -> CliRun {
    run(&["--packet", &packet.display().to_string()], args)
}

/// Side `side`'s packet of campaign `name` (X-01, X-06), as the differential tests compare
/// it: its bytes, 32 to a line under their offset, with the commitment to the seed `digest`
/// — the one thing in it that changes with the seed, by design — written over with zeros of
/// the same length, so that nothing else of the file moves; and what its player reads of it.
pub fn packet_outputs(db: &Path, name: &str, side: &str, digest: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("side.packet");
    cli(db, &["packet", name, "--as", side, "--out", path.to_str().unwrap()]).ok();
    let mut bytes = std::fs::read(&path).unwrap();
    let (hidden, zeros) = (digest.as_bytes(), vec![b'0'; digest.len()]);
    let mut masked = 0;
    let mut i = 0;
    while i + hidden.len() <= bytes.len() {
        if &bytes[i..i + hidden.len()] == hidden {
            bytes[i..i + hidden.len()].copy_from_slice(&zeros);
            masked += 1;
            i += hidden.len();
        } else {
            i += 1;
        }
    }
    assert!(masked >= 2, "the packet names its campaign by the commitment, and its report prints it");
    let lines: Vec<String> = bytes
        .chunks(32)
        .enumerate()
        .map(|(n, chunk)| format!("{:06x} {}", n * 32, chunk.iter().map(|b| format!("{b:02x}")).collect::<String>()))
        .collect();
    let shown = |text: String| text.replace(digest, "<commitment>");
    vec![
        ("packet bytes".to_owned(), lines.join("\n")),
        ("packet show".to_owned(), shown(player(&path, &["show"]).ok())),
        ("packet show --json".to_owned(), shown(player(&path, &["--json", "show"]).ok())),
        ("packet log".to_owned(), shown(player(&path, &["log"]).ok())),
    ]
}

/// Every string drawn in a frame of the app, in drawing order: what a screen tells its reader.
pub fn drawn_text(shapes: &[egui::epaint::ClippedShape]) -> Vec<String> {
    referee::gui::drawn_texts(shapes).into_iter().map(|(_, text)| text).collect()
}

/// The Belisarius phases a referee plays before the operations, and the end of a set-up as
/// a player might make it: written once, in the campaign crate's fixtures.
pub use referee_campaign::fixtures::belisarius::{
    battle_order, events_phase, finish_belisarius_setup, quiet_turn, reinforcement_phase, settle_reinforcements, supply_phase,
};

/// The differential no-leak test of each engine (X-01), by file: a new engine does not
/// compile here until it names its own, and `x_01_every_engine_has_its_no_leak_test` checks
/// that the file is there.
pub fn no_leak_test(engine: referee_campaign::core::engine::EngineId) -> &'static str {
    use referee_campaign::core::engine::EngineId;
    match engine {
        EngineId::MagnaGraecia => "leaks.rs",
        EngineId::Belisarius => "leaks_belisarius.rs",
    }
}
