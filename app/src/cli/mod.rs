//! The `referee` command line: the same campaigns as the app, with JSON in and out
//! for scripting and play by e-mail.
//!
//! This module is the shell: it reads the arguments (`args`) and the files they name
//! (`read`), opens the database, prints text or JSON (`output`) and runs what needs no campaign or any campaign alike (scenarios,
//! new, list, import, reports). A command on a campaign goes to the campaign's engine, picked
//! by the engine id the database keeps: `campaign` runs the commands every engine has,
//! generic over the engine, and each engine's module (`magna_graecia`, `belisarius`) what
//! only it has.
//!
//! Arguments are checked before the database is opened, and commands that only read never
//! create a database, so bad input leaves every file as it was. Commands that only read open
//! the database for reading ([`Store::open_read_only`]): they go on while another program
//! writes, and work on a read-only file.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Parser;
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::engine::{EngineId, Logged};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::SideId;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use referee_campaign::store::{ExecError, Store, StoreError};
use referee_data::DataSource;

use crate::gui::GuiOptions;
use crate::reports;

mod args;
mod belisarius;
mod campaign;
mod examples;
mod magna_graecia;
mod output;
pub(crate) mod player;
mod read;

pub use args::{Cli, CliCommand, ViewArgs, WindowArgs};
use args::{engine_commands, shared_commands};
use campaign::CliEngine;
use output::{AllScenarios, CampaignList, Created, ErasedOutput, Written};
pub(crate) use read::parse_orders;
use read::{named, read_events};

/// What `main` should do after reading the arguments.
#[derive(Debug)]
pub enum Launch {
    /// Open the window.
    Gui(GuiOptions),
    /// Open the player's desk on a side's packet.
    PlayerDesk(crate::gui::PlayerOptions),
    /// A command ran; exit with this code.
    Exit(u8),
}

/// Reads the arguments and runs a command, writing its output to `out` and one error line to
/// `err`. Returns [`Launch::Gui`] when no command was given.
pub fn run(args: impl IntoIterator<Item = impl Into<OsString> + Clone>, out: &mut dyn Write, err: &mut dyn Write) -> Launch {
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if player::is_player(&args) {
        return player::run(args, out, err);
    }
    if let Some(kind) = order_help(&args) {
        return match examples::help(&kind) {
            Ok(text) => {
                let _ = write!(out, "{text}");
                Launch::Exit(0)
            }
            Err(refusal) => {
                let _ = writeln!(err, "error: {}", refusal_line(&refusal));
                Launch::Exit(1)
            }
        };
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_refusal(&e, out, err),
    };
    let data = cli.data.map_or(DataSource::Embedded, DataSource::Folder);
    let Some(command) = cli.command else {
        return match db_path(cli.db.as_deref()) {
            Ok(db) => Launch::Gui(GuiOptions {
                db,
                open: cli.window.open,
                view_as: cli.window.view_as,
                smoke_frames: cli.window.smoke_frames,
                screenshot: cli.window.screenshot,
                smoke_window: cli.window.smoke_window,
                smoke_empty: cli.window.smoke_empty,
                data,
            }),
            Err(e) => {
                let _ = writeln!(err, "error: {e:#}");
                Launch::Exit(1)
            }
        };
    };
    let ctx = Session { db: cli.db, json: cli.json, data };
    // A campaign another program wrote to between this command's reading it and writing to
    // it is read again and the command given again, as a wait for the lock would; after as
    // long as that wait, the command says another program is writing, and to try again.
    let started = std::time::Instant::now();
    let result = loop {
        match ctx.execute(command.clone(), out) {
            Err(e) if changed(&e) && started.elapsed() < referee_campaign::store::BUSY_TIMEOUT => {
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            Err(e) if changed(&e) => {
                let path = db_path(ctx.db.as_deref()).unwrap_or_default();
                break Err(StoreError::Busy(path).into());
            }
            other => break other,
        }
    };
    match result {
        Ok(()) => Launch::Exit(0),
        // The reader stopped reading (`referee log X | head`): nothing more to say.
        Err(e) if broken_pipe(&e) => Launch::Exit(0),
        Err(e) => {
            let e = name_damage(e, ctx.db.as_deref());
            let _ = writeln!(err, "error: {}", refusal_line(&format!("{e:#}")));
            Launch::Exit(1)
        }
    }
}

/// Whether the output was closed by its reader, as a pipe into `head` is.
fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// Prints `value` as JSON, or as text for a reader (nothing for empty text).
fn print(json: bool, out: &mut dyn Write, value: &dyn ErasedOutput) -> anyhow::Result<()> {
    if json {
        writeln!(out, "{}", value.json())?;
    } else {
        let text = value.text();
        if !text.is_empty() {
            writeln!(out, "{}", text.trim_end())?;
        }
    }
    Ok(())
}

/// The order type of `referee order --help TYPE`, if that is what was asked.
fn order_help(args: &[OsString]) -> Option<String> {
    let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let at = words.iter().position(|w| *w == "order")?;
    match words.get(at + 1..)? {
        [help, kind] if (*help == "--help" || *help == "-h") && !kind.starts_with('-') => Some((*kind).to_owned()),
        _ => None,
    }
}

/// What clap says of arguments it cannot read: a refusal in one line, as for every other
/// (the usage is a `--help` away), or the help or version asked for. The line is clap's
/// first paragraph, whose later lines say which arguments are missing or which values an
/// option takes.
fn clap_refusal(e: &clap::Error, out: &mut dyn Write, err: &mut dyn Write) -> Launch {
    let text = e.render().to_string();
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    if e.use_stderr() {
        let first: Vec<&str> = text.lines().map(str::trim).take_while(|l| !l.is_empty()).collect();
        let first = if first.is_empty() { "error: bad arguments".to_owned() } else { first.join(" ") };
        let _ = writeln!(err, "{first} (see `referee --help`)");
    } else {
        let _ = write!(out, "{text}");
    }
    Launch::Exit(code)
}

/// Whether the command failed because another program changed the campaign after it was
/// read here.
fn changed(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        matches!(cause.downcast_ref::<StoreError>(), Some(StoreError::Changed(_)))
            || matches!(cause.downcast_ref::<ExecError>(), Some(ExecError::Store(StoreError::Changed(_))))
    })
}

/// SQLite's "database disk image is malformed", met while reading a database that opened
/// well, becomes what SQLite's integrity check finds wrong with the file.
fn name_damage(e: anyhow::Error, db: Option<&Path>) -> anyhow::Error {
    let damage = e.chain().any(|cause| {
        cause.downcast_ref::<StoreError>().is_some_and(StoreError::is_damage)
            || matches!(cause.downcast_ref::<ExecError>(), Some(ExecError::Store(s)) if s.is_damage())
    });
    match (damage, db_path(db)) {
        (true, Ok(path)) => referee_campaign::store::diagnose(&path).map_or(e, anyhow::Error::from),
        _ => e,
    }
}

fn db_path(db: Option<&Path>) -> anyhow::Result<PathBuf> {
    match db {
        Some(p) => Ok(p.to_owned()),
        None => crate::default_db_path(),
    }
}

/// What a command does with the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Only reads: never writes, never waits for a writer.
    Read,
    /// Writes to a database that must exist.
    Write,
    /// Writes, creating the database if need be.
    Create,
}

/// What every command runs with: the database, the output format and the data folder.
pub(crate) struct Session {
    pub(crate) db: Option<PathBuf>,
    pub(crate) json: bool,
    pub(crate) data: DataSource,
}

impl Session {
    pub(crate) fn print(&self, out: &mut dyn Write, value: &dyn ErasedOutput) -> anyhow::Result<()> {
        print(self.json, out, value)
    }

    /// Magna Graecia's catalogue of maps, scenarios and elements.
    pub(crate) fn catalog(&self) -> anyhow::Result<Catalog> {
        Catalog::load(&self.data).map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// Opens the database; only [`Access::Create`] may bring a new file into being.
    pub(crate) fn store(&self, access: Access) -> anyhow::Result<Store> {
        let path = db_path(self.db.as_deref())?;
        if access != Access::Create && !path.exists() {
            bail!("there is no database at {}; start a campaign with `referee new`", path.display());
        }
        Ok(match access {
            Access::Read => Store::open_read_only(&path)?,
            Access::Write | Access::Create => Store::open(&path)?,
        })
    }

    /// Runs a command: on a campaign, by the campaign's engine; else here.
    fn execute(&self, command: CliCommand, out: &mut dyn Write) -> anyhow::Result<()> {
        let Some(key) = command.campaign() else { return self.run_shell(command, out) };
        let engine = {
            let store = self.store(Access::Read)?;
            store.engine_of(store.find(key)?)?
        };
        match engine {
            EngineId::MagnaGraecia => campaign::execute::<MagnaGraecia>(self, command, out),
            EngineId::Belisarius => campaign::execute::<Belisarius>(self, command, out),
        }
    }

    /// Runs a command that no engine runs: those without a campaign, and the reports, which
    /// [`reports`] reads from a campaign of any engine.
    fn run_shell(&self, command: CliCommand, out: &mut dyn Write) -> anyhow::Result<()> {
        match command {
            CliCommand::Scenarios => {
                let all = Catalogues::new(&self.data).all()?;
                self.print(out, &all)
            }
            CliCommand::New { scenario, name, seed, from } => {
                let mut catalogues = Catalogues::new(&self.data);
                let new = NewCampaign { scenario: &scenario, name, seed, from: from.as_deref() };
                let created = match catalogues.holder(&scenario)? {
                    Some(EngineId::MagnaGraecia) => magna_graecia::new(self, catalogues.magna_graecia()?, &new)?,
                    Some(EngineId::Belisarius) => {
                        let world = catalogues.belisarius()?.context("the data folder has no Belisarius world")?;
                        belisarius::new(self, world, &new)?
                    }
                    None => {
                        let all = catalogues.all()?;
                        let ids: Vec<&str> = all.0.iter().map(|s| s.id.as_str()).collect();
                        bail!("there is no scenario `{scenario}`; the scenarios are {}", ids.join(", "));
                    }
                };
                self.print(out, &created)
            }
            CliCommand::List => {
                let store = self.store(Access::Read)?;
                let campaigns = store.campaigns()?;
                // The list reads one table; a file damaged elsewhere is said so here too, as
                // `show` would say it, rather than listed as if it were whole.
                if let Some(damage) = referee_campaign::store::diagnose(&db_path(self.db.as_deref())?) {
                    return Err(damage.into());
                }
                self.print(out, &CampaignList(campaigns))
            }
            CliCommand::Import { file, name } => {
                let text = crate::input::read_limited(&file, "the events", crate::input::IMPORT_BYTES)?;
                let what = || format!("{} is not a campaign's events as `referee log --json` prints them", file.display());
                crate::input::no_key_twice(&text).with_context(what)?;
                let given: serde_json::Value = serde_json::from_str(&text).with_context(what)?;
                let mut store = self.store(Access::Create)?;
                let events = Events { file: &file, text: &text, given: &given, what: &what };
                let created = match imported_engine(&given) {
                    EngineId::MagnaGraecia => events.import::<MagnaGraecia>(&mut store, &name)?,
                    EngineId::Belisarius => events.import::<Belisarius>(&mut store, &name)?,
                };
                self.print(out, &created)
            }
            CliCommand::Report { campaign, side, umpire, out: dir, paper, since } => {
                let catalog = self.catalog()?;
                // A look back with --since records nothing, so a read-only file will do.
                let mut store = self.store(if since.is_some() { Access::Read } else { Access::Write })?;
                let id = store.find(&campaign)?;
                let opened = reports::open(&store, id, &catalog)?;
                let readers = opened.readers();
                let chosen: Vec<Viewer> = match (&side, umpire) {
                    (Some(s), _) => {
                        let wanted = Viewer::Side(SideId::new(s.clone()));
                        if !readers.contains(&wanted) {
                            bail!("{campaign} has no side `{s}`; its sides are {}", side_list(&readers));
                        }
                        vec![wanted]
                    }
                    (None, true) => vec![Viewer::Umpire],
                    (None, false) => readers,
                };
                let since = since.map_or(reports::Since::LastReport, reports::Since::Line);
                let paper = named(&paper)?;
                let mut written = Vec::new();
                for viewer in &chosen {
                    let mut export = opened.build(viewer)?;
                    let mark = reports::keep_since(&store, id, viewer, reports::Output::Pdf, &mut export, since)?;
                    written.push(reports::write(&export.report, paper, &dir)?);
                    reports::record(&mut store, id, viewer, mark.as_ref())?;
                }
                self.print(out, &Written(written))
            }
            CliCommand::Export { campaign, side, since } => {
                let catalog = self.catalog()?;
                let mut store = self.store(if since.is_some() { Access::Read } else { Access::Write })?;
                let id = store.find(&campaign)?;
                let viewer = Viewer::Side(SideId::new(side.clone()));
                let opened = reports::open(&store, id, &catalog)?;
                let readers = opened.readers();
                if !readers.contains(&viewer) {
                    bail!("{campaign} has no side `{side}`; its sides are {}", side_list(&readers));
                }
                let mut export = opened.build(&viewer)?;
                let since = since.map_or(reports::Since::LastReport, reports::Since::Line);
                // The export keeps a mark of its own: it moves nothing of the PDF report's.
                let mark = reports::keep_since(&store, id, &viewer, reports::Output::Json, &mut export, since)?;
                writeln!(out, "{}", serde_json::to_string_pretty(&export)?)?;
                reports::record(&mut store, id, &viewer, mark.as_ref())?;
                Ok(())
            }
            CliCommand::Packet { campaign, side, out: path, overwrite } => {
                let catalog = self.catalog()?;
                let mut store = self.store(Access::Write)?;
                let id = store.find(&campaign)?;
                let made = crate::packet::make(&mut store, id, &catalog, &side, &path, overwrite)?;
                self.print(out, &output::PacketMade(made))
            }
            shared_commands!() | engine_commands!() => unreachable!("a command on a campaign is run by the campaign's engine"),
        }
    }
}

/// Every engine's scenarios, each engine's read from the data folder when first asked for,
/// so that a command that finds its scenario in the first reads no other.
struct Catalogues<'a> {
    data: &'a DataSource,
    magna_graecia: Option<Catalog>,
    /// `Some(None)`: the data folder has no Belisarius world.
    belisarius: Option<Option<World>>,
}

impl<'a> Catalogues<'a> {
    fn new(data: &'a DataSource) -> Catalogues<'a> {
        Catalogues { data, magna_graecia: None, belisarius: None }
    }

    fn magna_graecia(&mut self) -> anyhow::Result<&Catalog> {
        match &mut self.magna_graecia {
            Some(catalog) => Ok(catalog),
            slot @ None => Ok(slot.insert(Catalog::load(self.data).map_err(|e| anyhow::anyhow!("{e}"))?)),
        }
    }

    fn belisarius(&mut self) -> anyhow::Result<Option<&World>> {
        match &mut self.belisarius {
            Some(world) => Ok(world.as_ref()),
            slot @ None => Ok(slot.insert(belisarius::world(self.data)?).as_ref()),
        }
    }

    /// The scenarios of `engine`'s catalogue, as `referee scenarios` lists them.
    fn scenarios(&mut self, engine: EngineId) -> anyhow::Result<Vec<output::ScenarioSummary>> {
        Ok(match engine {
            EngineId::MagnaGraecia => magna_graecia::scenarios(self.magna_graecia()?),
            EngineId::Belisarius => self.belisarius()?.map(belisarius::scenarios).unwrap_or_default(),
        })
    }

    /// Whether `engine`'s catalogue holds scenario `id`.
    fn holds(&mut self, engine: EngineId, id: &str) -> anyhow::Result<bool> {
        Ok(match engine {
            EngineId::MagnaGraecia => self.magna_graecia()?.scenario(id).is_some(),
            EngineId::Belisarius => self.belisarius()?.is_some_and(|world| world.scenario(id).is_some()),
        })
    }

    /// The engine whose catalogue holds scenario `id`, asking each engine in turn.
    fn holder(&mut self, id: &str) -> anyhow::Result<Option<EngineId>> {
        for engine in EngineId::ALL {
            if self.holds(engine, id)? {
                return Ok(Some(engine));
            }
        }
        Ok(None)
    }

    /// Every engine's scenarios, engine by engine.
    fn all(&mut self) -> anyhow::Result<AllScenarios> {
        let mut all = Vec::new();
        for engine in EngineId::ALL {
            all.extend(self.scenarios(engine)?);
        }
        Ok(AllScenarios(all))
    }
}

/// What `referee new` asks for, handed to the engine whose catalogue holds the scenario.
pub(crate) struct NewCampaign<'a> {
    pub(crate) scenario: &'a str,
    name: Option<String>,
    seed: Option<u64>,
    pub(crate) from: Option<&'a str>,
}

impl NewCampaign<'_> {
    /// Refuses a campaign name given empty.
    pub(crate) fn check_name(&self) -> anyhow::Result<()> {
        if self.name.as_deref().is_some_and(|n| n.trim().is_empty()) {
            bail!("a campaign name cannot be empty");
        }
        Ok(())
    }

    /// The name given, or "<scenario name> <n>" free in the database.
    pub(crate) fn name(&self, scenario_name: &str, store: &Store) -> anyhow::Result<String> {
        Ok(match &self.name {
            Some(n) => n.clone(),
            None => crate::suggested_name(scenario_name, &store.campaigns()?),
        })
    }

    /// The seed given, or a fresh one.
    pub(crate) fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(crate::fresh_seed)
    }
}

/// The engine whose campaign a file of events to import is: the one whose start its first
/// event reads as, lifted from an older shape first as the import will lift it (every engine
/// keeps its set-up under `scenario` now, so the key alone no longer tells); failing that,
/// the one whose event it reads as at all, whose import then says that the file does not
/// begin with a start. A file of no engine's events is read as Magna Graecia's, whose
/// refusal says what is amiss.
fn imported_engine(given: &serde_json::Value) -> EngineId {
    /// Whether `event` reads as one of `E`'s events (`None` if not), and whether as its start.
    fn reads_as<E: referee_campaign::core::engine::Engine>(event: &serde_json::Value) -> Option<bool> {
        let mut event = event.clone();
        referee_campaign::core::engine::lift_unversioned::<E>(&mut event);
        serde_json::from_value::<E::Event>(event).ok().map(|e| E::started(&e).is_some())
    }
    let reads = |engine: &EngineId| -> Option<bool> {
        let event = given.pointer("/0/event")?;
        match engine {
            EngineId::MagnaGraecia => reads_as::<MagnaGraecia>(event),
            EngineId::Belisarius => reads_as::<Belisarius>(event),
        }
    };
    let read: Vec<(EngineId, bool)> = EngineId::ALL.into_iter().filter_map(|e| reads(&e).map(|start| (e, start))).collect();
    read.iter().find(|(_, start)| *start).or(read.first()).map_or(EngineId::MagnaGraecia, |(e, _)| *e)
}

/// A file of events to import, read once and brought in as the campaign of its engine.
struct Events<'a, W: Fn() -> String> {
    file: &'a Path,
    text: &'a str,
    given: &'a serde_json::Value,
    what: &'a W,
}

impl<W: Fn() -> String> Events<'_, W> {
    fn import<E: CliEngine>(&self, store: &mut Store, name: &str) -> anyhow::Result<Created> {
        // A log printed before its engine's events last changed shape is lifted first; one
        // that needs no lifting is read as it was written, so a refusal names its own lines.
        let mut lifted = self.given.clone();
        for logged in lifted.as_array_mut().into_iter().flatten() {
            if let Some(event) = logged.get_mut("event") {
                referee_campaign::core::engine::lift_unversioned::<E>(event);
            }
        }
        let events: Vec<Logged<E::Event>> = if &lifted == self.given {
            read_events(self.file, self.text, self.given, self.what)?
        } else {
            read_events(self.file, &serde_json::to_string(&lifted)?, &lifted, self.what)?
        };
        let c = store.import_as::<E>(name, &events)?;
        let scenario = events.first().and_then(|l| E::scenario_of(&l.event)).unwrap_or_default().to_owned();
        Ok(Created { id: c.id.0, name: E::name(&c.state).to_owned(), scenario })
    }
}

/// The sides among `readers`, for a refusal: "carthage, syracuse".
pub(crate) fn side_list(readers: &[Viewer]) -> String {
    let sides: Vec<&str> = readers
        .iter()
        .filter_map(|v| match v {
            Viewer::Side(s) => Some(s.as_str()),
            Viewer::Umpire => None,
        })
        .collect();
    sides.join(", ")
}

/// The one line a refusal prints: a message of several lines (the data files' problems, one
/// a line) joined with semicolons, every other control character written out, and whatever
/// it quotes between backticks cut to 60 characters, whichever part of the program wrote it.
fn refusal_line(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&referee_campaign::core::words::shown(part));
        } else {
            let mut chars = part.chars().peekable();
            while let Some(c) = chars.next() {
                if c == '\n' {
                    while chars.next_if(|c| *c == ' ' || *c == '\t').is_some() {}
                    out.push_str(if out.ends_with(':') { " " } else { "; " });
                } else if c.is_control() {
                    out.push_str(&c.escape_unicode().to_string());
                } else {
                    out.push(c);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Output a reader stops reading, as a pipe into `head` does.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// `referee scenarios | head -1` ends quietly, not with an error about the pipe.
    #[test]
    fn x_06_a_reader_that_stops_reading_ends_the_command_quietly() {
        let mut err = Vec::new();
        let launch = run(["referee", "scenarios"], &mut Closed, &mut err);
        assert!(matches!(launch, Launch::Exit(0)), "{launch:?}");
        assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
    }
}
