//! Helpers shared by the end-to-end tests in `tests/`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use referee_campaign::{Catalog, Map, Scenario};

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
    cli(db, &["new", "dionysian", "--name", name, "--seed", "9"]).ok();
    cli(db, &["order", name, &referee_campaign::fixtures::dionysian_json()]).ok();
    cli(db, &["order", name, r#"{"type":"move","side":"carthage","counter":"Himilco","path":[8]}"#]).ok();
    let out = cli(db, &["order", name, r#"{"type":"end_phase","side":"carthage"}"#]).ok();
    assert!(out.contains("Battle 1 at Himera: Carthage attacks Syracuse"), "{out}");
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

    pub fn json(self) -> serde_json::Value {
        serde_json::from_str(&self.ok()).expect("the command printed JSON")
    }
}

/// Runs `referee --db DB ARGS…` in this process.
pub fn cli(db: &Path, args: &[&str]) -> CliRun {
    let mut all = vec!["referee".to_owned(), "--db".to_owned(), db.display().to_string()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = match referee::cli::run(all, &mut out, &mut err) {
        referee::cli::Launch::Exit(code) => code,
        referee::cli::Launch::Gui(_) => panic!("the window was asked for in a test"),
    };
    CliRun { code, stdout: String::from_utf8(out).expect("UTF-8 output"), stderr: String::from_utf8(err).expect("UTF-8 errors") }
}

/// Every string drawn in a frame of the app, in drawing order: what a screen tells its reader.
pub fn drawn_text(shapes: &[egui::epaint::ClippedShape]) -> Vec<String> {
    fn walk(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.text().to_owned()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in shapes {
        walk(&s.shape, &mut out);
    }
    out
}

/// Ends a Belisarius campaign's set-up as a player might: a unit of the first free land line
/// into each city the side must hold, then every line's rest where the rules first allow it;
/// then play begins.
pub fn finish_belisarius_setup(
    store: &mut referee_campaign::Store,
    c: &mut referee_campaign::Campaign<referee_campaign::belisarius::Belisarius>,
) {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::ids::SideId;
    use referee_campaign::store::DiceInput;
    // A unit of the first free land line into each city the side must hold, as a player
    // would split his forces; then every line's rest where the rules first allow. Both runs
    // place alike.
    for side in &c.state.setup.sides.clone() {
        for city in &side.must_hold {
            let order = Order::Place {
                side: side.id.clone(),
                line: 1,
                at: city.to_string(),
                leaders: None,
                units: Some(vec![1]),
                decoys: None,
                fleets: None,
                fleet_decoys: None,
            };
            store.execute(c, &(), &order, DiceInput::Seeded).unwrap();
        }
    }
    loop {
        let due: Vec<(SideId, usize)> = c.state.lines_due.iter().filter_map(|(s, d)| d.first().map(|_| (s.clone(), 0))).collect();
        let Some((side, index)) = due.into_iter().next() else { break };
        let line = &c.state.lines_due[&side][index].rest;
        let at = c.state.setup.free_places(&side, line).into_iter().next().expect("a free line has somewhere to go");
        let order = Order::Place {
            side: side.clone(),
            line: 1,
            at: at.to_string(),
            leaders: None,
            units: None,
            decoys: None,
            fleets: None,
            fleet_decoys: None,
        };
        store.execute(c, &(), &order, DiceInput::Seeded).unwrap();
    }
    store.execute(c, &(), &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
}

/// The next order of a Belisarius battle under way, as its players would give it: each side
/// takes the losses the program suggests; after a passage `breaker` breaks off (`None`: the
/// sides fight on); the beaten side retreats to the first place open to it. `None` when no
/// battle is being fought.
pub fn battle_order(
    state: &referee_campaign::belisarius::state::State,
    breaker: Option<&referee_campaign::ids::SideId>,
) -> Option<referee_campaign::belisarius::order::Order> {
    use referee_campaign::belisarius::battle::{Step, retreats, roster};
    use referee_campaign::belisarius::fight::{Owed, suggested_share};
    use referee_campaign::belisarius::order::Order;
    let b = state.ops.as_ref()?.battle.clone()?;
    let share = |side: &referee_campaign::ids::SideId, owed: &Owed| {
        let units = roster(state, b.force(side)?);
        let f: Vec<_> = units.iter().map(|u| u.fighter).collect();
        let losses = suggested_share(&f, owed).into_iter().map(|(i, p)| (u32::try_from(i + 1).unwrap_or(u32::MAX), p)).collect();
        Some(Order::TakeLosses { side: side.clone(), losses, militia: 0 })
    };
    match &b.step {
        Step::Roll => Some(Order::Fight {}),
        Step::Decide => Some(match breaker {
            Some(s) => Order::BreakOff { side: s.clone() },
            None => Order::Fight {},
        }),
        Step::Losses { owed, taken } => {
            let (s, o) = owed.iter().find(|(s, o)| o.points > 0 && !taken.contains(*s))?;
            share(s, o)
        }
        Step::Pursuit { side, owed } => share(side, owed),
        Step::Retreat { side } => {
            let (to, _) = retreats(state, &b, side).into_iter().find(|(_, ok)| ok.is_ok())?;
            Some(Order::Retreat { side: side.clone(), to: to.id().to_owned() })
        }
    }
}

/// Plays the events phase of a Belisarius turn if it has one (BE-47), seeded, each leader
/// coming back placed as [`settle_reinforcements`] places reinforcements.
pub fn events_phase(store: &mut referee_campaign::Store, c: &mut referee_campaign::Campaign<referee_campaign::belisarius::Belisarius>) {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    if referee_campaign::belisarius::random_events::pending(&c.state) {
        store.execute(c, &(), &Order::PlayEvents {}, DiceInput::Seeded).unwrap();
        settle_reinforcements(store, c);
    }
}

/// Plays the events phase (if any) and the supply phase of a Belisarius turn (BE-41, BE-47)
/// with seeded dice, each side sharing out what it owes as the program suggests: what a
/// referee does before the operations.
pub fn supply_phase(store: &mut referee_campaign::Store, c: &mut referee_campaign::Campaign<referee_campaign::belisarius::Belisarius>) {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    events_phase(store, c);
    store.execute(c, &(), &Order::CheckSupply {}, DiceInput::Seeded).unwrap();
    while let Some(due) = c.state.supply_dues.first() {
        let side = due.force.side.clone();
        let (losses, militia) = referee_campaign::belisarius::supply::suggested_share(&c.state, &side).unwrap();
        store.execute(c, &(), &Order::TakeLosses { side, losses, militia }, DiceInput::Seeded).unwrap();
    }
    reinforcement_phase(store, c);
}

/// Plays one quiet Belisarius turn with seeded dice: its events, supply and reinforcements as
/// [`supply_phase`] plays them, operations in which both sides only pass, and the turn's end.
pub fn quiet_turn(store: &mut referee_campaign::Store, c: &mut referee_campaign::Campaign<referee_campaign::belisarius::Belisarius>) {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::belisarius::state::Phase;
    use referee_campaign::store::DiceInput;
    supply_phase(store, c);
    store.execute(c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
    while c.state.phase == Phase::Operations {
        let side = c.state.ops.as_ref().unwrap().segment.clone();
        store.execute(c, &(), &Order::Pass { side }, DiceInput::Seeded).unwrap();
    }
    store.execute(c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
}

/// Plays a spring's reinforcement phase if one is due (BE-45): the Goths buy infantry (1C) at
/// the first zone they control, as long as their points last; scheduled reinforcements go to
/// the first zone their side controls in the regions allowed.
pub fn reinforcement_phase(
    store: &mut referee_campaign::Store,
    c: &mut referee_campaign::Campaign<referee_campaign::belisarius::Belisarius>,
) {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    if !referee_campaign::belisarius::reinforce::pending(&c.state) {
        return;
    }
    store.execute(c, &(), &Order::BringReinforcements {}, DiceInput::Seeded).unwrap();
    settle_reinforcements(store, c);
}

/// Buys and places what the reinforcement phase left due, as [`reinforcement_phase`] does.
pub fn settle_reinforcements(
    store: &mut referee_campaign::Store,
    c: &mut referee_campaign::Campaign<referee_campaign::belisarius::Belisarius>,
) {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::belisarius::reinforce::Due;
    use referee_campaign::belisarius::setup::FreePlace;
    use referee_campaign::store::DiceInput;
    while let Some(due) = c.state.reinforcements_due.first().cloned() {
        let side = due.side().clone();
        let regions = match &due {
            Due::Line { line, .. } => match &line.place_rule {
                FreePlace::OwnLandIn { regions } => regions.clone(),
                _ => Vec::new(),
            },
            Due::Purchase { .. } => Vec::new(),
        };
        // A line with ships goes to a port the side holds.
        let ships = matches!(&due, Due::Line { line, .. } if !line.fleets.is_empty() || line.fleet_decoys > 0);
        let ours = |z: &&referee_campaign::belisarius::map::Zone| {
            c.state.control.get(&z.id) == Some(&side)
                && !c.state.scorched.contains(&z.id)
                && (!ships || (z.city.port && c.state.cities[&z.city.id].holder.as_ref() == Some(&side)))
        };
        let zones = &c.state.setup.map.zones;
        let zone = zones
            .iter()
            .filter(ours)
            .find(|z| regions.is_empty() || regions.contains(&z.region))
            .or_else(|| zones.iter().find(ours))
            .map(|z| z.id.to_string());
        let order = match (&due, zone) {
            (Due::Purchase { half_points, .. }, Some(at)) => {
                Order::Raise { side, at, units: vec!["1C".to_owned(); usize::try_from(*half_points / 2).unwrap()] }
            }
            (Due::Purchase { .. }, None) => Order::Raise { side, at: String::new(), units: Vec::new() },
            (Due::Line { .. }, Some(at)) => Order::PlaceReinforcements { side, at },
            (Due::Line { .. }, None) => panic!("{side} control no zone to receive their reinforcements"),
        };
        store.execute(c, &(), &order, DiceInput::Seeded).unwrap();
        // Whatever is left over after whole 1C units is given up.
        if let Some(Due::Purchase { side, .. }) = c.state.reinforcements_due.first().cloned() {
            store.execute(c, &(), &Order::Raise { side, at: String::new(), units: Vec::new() }, DiceInput::Seeded).unwrap();
        }
    }
}
