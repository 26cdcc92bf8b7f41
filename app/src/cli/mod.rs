//! The `referee` command line (X-06): the same campaigns as the app, with JSON in and out
//! for scripting and play by e-mail.
//!
//! Arguments are checked before the database is opened, and commands that only read never
//! create a database, so bad input leaves every file as it was. Commands that only read open
//! the database for reading ([`Store::open_read_only`]): they go on while another program
//! writes, and work on a read-only file.

use referee_campaign::core::log::RollDice;
use referee_campaign::core::words::{count, possessive};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use clap::{Args, Parser, Subcommand};
use referee_battle_gen::dbsa::Scaling;
use referee_battle_gen::pack::PackOptions;
use referee_campaign::any::AnyCampaign;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::core::engine::EngineId;
use referee_campaign::core::verify::{Commitment, Verdict, Verification};
use referee_campaign::dice::DiceSpec;
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use referee_campaign::view::{self, View, Viewer};
use referee_campaign::{Campaign, Catalog, DiceInput, ExecError, Map, Modifier, Order, SideId, Store, StoreError};
use referee_data::DataSource;
use serde::Serialize;

use crate::gui::GuiOptions;
use crate::reports;

mod belisarius;
mod magna_graecia;

use magna_graecia::{LogOnly, Rosters, Shown, Written};

/// Referee's assistant for historical miniatures campaigns. With no command, opens the app.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, long_about = None)]
pub struct Cli {
    /// Campaign database file [default: referee.sqlite in your data folder]
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Print JSON instead of text
    #[arg(long, global = true)]
    pub json: bool,
    /// Read maps and scenarios from this folder instead of the built-in copies; it is laid out
    /// like data/: magna-graecia/… and/or belisarius/…
    #[arg(long, global = true, value_name = "DIR")]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub window: WindowArgs,
    #[command(subcommand)]
    pub command: Option<CliCommand>,
}

/// Options for the app's window.
#[derive(Debug, Args)]
pub struct WindowArgs {
    /// Open this campaign (name or id) at once
    #[arg(long, value_name = "CAMPAIGN")]
    pub open: Option<String>,
    /// Start in this view: `umpire` or a side id
    #[arg(long, value_name = "VIEWER")]
    pub view_as: Option<String>,
    /// Close the window by itself after this many frames (smoke test)
    #[arg(long, value_name = "N", hide = true)]
    pub smoke_frames: Option<u32>,
    /// Save a PNG of the window before closing (with --smoke-frames)
    #[arg(long, value_name = "FILE", hide = true, requires = "smoke_frames")]
    pub screenshot: Option<PathBuf>,
    /// Open this window over the desk (with --smoke-frames): charts, reports, dice, or the
    /// first battle's result form or pack window
    #[arg(long, value_name = "WINDOW", hide = true, requires = "smoke_frames", value_parser = ["charts", "reports", "dice", "result", "pack"])]
    pub smoke_window: Option<String>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum CliCommand {
    /// List the scenarios that campaigns can start from
    Scenarios,
    /// Start a new campaign from a scenario
    New {
        /// Scenario id, as listed by `referee scenarios`
        scenario: String,
        /// Campaign name [default: the scenario's name and a number]
        #[arg(long)]
        name: Option<String>,
        /// Seed of the campaign's dice [default: a fresh one, kept secret]
        #[arg(long)]
        seed: Option<u64>,
        /// Start from where this campaign (name or id) ended: control, allies, armies, fleets
        #[arg(long, value_name = "CAMPAIGN")]
        from: Option<String>,
    },
    /// List the campaigns in the database
    List,
    /// Show a campaign as the umpire or as one side sees it
    Show(ViewArgs),
    /// Print a campaign's log as the umpire or as one side sees it
    Log(ViewArgs),
    /// Show the rosters a viewer may see, or replace a side's roster from a file before play
    Roster {
        #[command(flatten)]
        view: ViewArgs,
        /// Replace a side's roster with the army in this TOML file (side, list, [[command]]…)
        #[arg(long, value_name = "FILE", conflicts_with_all = ["umpire", "side"])]
        import: Option<PathBuf>,
    },
    /// Give orders as JSON: one command object, or an array run in order and stored whole or
    /// not at all. E.g. '{"type":"move","side":"carthage","counter":"Hanno","path":[7,11]}'
    Order {
        /// Campaign name or id
        campaign: String,
        /// The order as JSON text; `-` reads it from standard input
        #[arg(required_unless_present = "file", conflicts_with = "file")]
        order: Option<String>,
        /// Read the order from this JSON file instead
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Dice rolled on the table for this order, in the order the rules roll them
        #[arg(long = "value", value_delimiter = ',')]
        values: Vec<u8>,
        /// Chits drawn from a real cup for this order, by id, in the order drawn (Belisarius)
        #[arg(long = "chit", value_delimiter = ',')]
        chits: Vec<String>,
        /// The orders are this side's, as from its player: every one must be the side's own
        /// (or none is stored), and what comes back is what the side may read
        #[arg(long = "as", value_name = "SIDE", conflicts_with_all = ["values", "chits"])]
        side: Option<String>,
    },
    /// Set a battle's table: the defender's section, the attacker's cut for a 4'×6' table;
    /// rolls the weather and time of day (MG-21, MG-22, MG-25)
    Table {
        /// Campaign name or id
        campaign: String,
        /// Battle number, as `show` lists it
        battle: u32,
        /// The defender's choice
        #[arg(long, value_parser = ["forward", "central", "rear"])]
        defence: String,
        /// For a 4'×6' table: the flank the attacker cuts 2' off, as it faces the enemy
        #[arg(long, value_parser = ["left", "right"])]
        cut: Option<String>,
        /// The map edge the attacker fights from, where it did not come in by road
        #[arg(long, value_parser = ["north", "east", "south", "west"])]
        edge: Option<String>,
        /// The dice rolled on the table: weather, then time of day, then for a strong wind
        /// (weather 2) a d4 for where it blows from
        #[arg(long = "value", value_delimiter = ',')]
        values: Vec<u8>,
    },
    /// Write a battle's pack: the umpire's sheet and each side's brief, roster and table as PDFs
    Pack {
        /// Campaign name or id
        campaign: String,
        /// Battle number
        battle: u32,
        /// Folder to write the PDFs into (made if missing)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[arg(long, default_value = "a4", value_parser = ["a4", "letter"])]
        paper: String,
        /// Tabletop rules the rosters are written for
        #[arg(long, default_value = "dbm", value_parser = ["dbm", "dbsa", "ars-bellum", "a-la-charge"])]
        system: String,
        /// DBSA: the whole battle by one factor (the largest side gets --size, the others in
        /// proportion), one army per side or per command of --size each, or one DBSA element
        /// per campaign element
        #[arg(long, default_value = "per-battle", value_parser = ["per-battle", "per-side", "per-command", "one-to-one"])]
        scaling: String,
        /// DBSA: elements of the largest side's army (per-battle), or of each army (per-side,
        /// per-command)
        #[arg(long, default_value_t = 12)]
        size: u32,
        /// Figure scale, for distances in inches and centimetres
        #[arg(long, default_value = "15mm", value_parser = ["6mm", "15mm", "25mm"])]
        figures: String,
        /// Replace files of the pack's names already in the folder (without it, nothing is
        /// written when one is there)
        #[arg(long)]
        overwrite: bool,
    },
    /// Write turn reports (PDF): each side's situation from its own view (its map, forces,
    /// the log since its last report, what is coming, victory as it may know it, its charts)
    /// and the umpire's with every side; all of them unless --as or --umpire picks one
    Report {
        /// Campaign name or id
        campaign: String,
        /// Only this side's report
        #[arg(long = "as", value_name = "SIDE", conflicts_with = "umpire")]
        side: Option<String>,
        /// Only the umpire's report
        #[arg(long)]
        umpire: bool,
        /// Folder to write the PDFs into (made if missing)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[arg(long, default_value = "a4", value_parser = ["a4", "letter"])]
        paper: String,
        /// The log from this line of the reader's own numbering [default: after its last report]
        #[arg(long, value_name = "LINE")]
        since: Option<u64>,
    },
    /// Print a side's turn report as JSON, for play by e-mail: the report and the side's view
    /// with the ids its orders name; orders come back with `referee order --file`
    Export {
        /// Campaign name or id
        campaign: String,
        /// The side whose report it is
        #[arg(long = "as", value_name = "SIDE")]
        side: String,
        /// The log from this line of the side's own numbering [default: after its last export, which keeps its own mark apart from the PDF report's]
        #[arg(long, value_name = "LINE")]
        since: Option<u64>,
    },
    /// Enter a battle's result from a JSON file (see README): checked against the battle,
    /// then recovery, lost generals, retreats and victory points follow
    Result {
        /// Campaign name or id
        campaign: String,
        /// Battle number
        battle: u32,
        /// The result as JSON; `-` reads standard input
        #[arg(long, value_name = "FILE")]
        file: PathBuf,
        /// Recovery dice rolled on the table, in the order the rules roll them
        #[arg(long = "value", value_delimiter = ',')]
        values: Vec<u8>,
        /// The battle was fought under a hex wargame: the file lists the counters each side
        /// lost (see README: Hex tabletops), turned into the campaign's result here
        #[arg(long, value_parser = ["ars-bellum", "a-la-charge"])]
        system: Option<String>,
        /// Belisarius, with --system: the zone (or the city) the beaten side retreats to
        #[arg(long, value_name = "ZONE")]
        retreat: Option<String>,
        /// Refused: a battle's result names both sides' losses, and is the referee's to enter
        #[arg(long = "as", value_name = "SIDE")]
        side: Option<String>,
    },
    /// Bring in a campaign from the events `referee log CAMPAIGN --json` printed for the umpire,
    /// e.g. to move it into another database; they are checked by replaying them first
    Import {
        /// The JSON file of events; `-` reads standard input
        file: PathBuf,
        /// The name of the campaign in this database
        #[arg(long)]
        name: String,
    },
    /// Print a campaign's dice seed: the umpire's secret, with which every seeded roll can be
    /// replayed and every roll to come foreseen. `show` and `log` never print it.
    Seed {
        /// Campaign name or id
        campaign: String,
    },
    /// Reveal a campaign's dice seed to the players, with the salt that opens the commitment
    /// published when it began; from then on anyone may check every seeded roll with `verify`
    Reveal {
        /// Campaign name or id
        campaign: String,
    },
    /// Check a revealed seed: that it opens the commitment published when the campaign began,
    /// and that every seeded roll and chit draw in the log is what the seed gives (typed-in
    /// rolls are not checked). Exits with status 1 if anything does not match
    Verify {
        /// Campaign name or id
        campaign: String,
        /// The seed the referee revealed
        #[arg(long)]
        seed: u64,
        /// Check as this side does once the seed is revealed: its own rolls by its log's
        /// lines, every other seeded roll only as a stretch of the dice stream
        #[arg(long = "as", value_name = "SIDE")]
        side: Option<String>,
    },
    /// Count the odds of the Belisarius battle under way (umpire only): the battle played over
    /// and over from where it stands, losses owed included, each side breaking off by its
    /// policy (BE-17 … BE-23)
    Odds {
        /// Campaign name or id
        campaign: String,
        /// How many battles to count
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        battles: u32,
        /// When each force breaks off, in the battle's order: a share of its strength lost
        /// (`25`, `50`, `75`) or `never`; one value for both [default: 50]
        #[arg(long = "break-off", value_delimiter = ',', value_parser = ["25", "50", "75", "never"])]
        break_off: Vec<String>,
    },
    /// Take back the last command of a campaign
    Undo {
        /// Campaign name or id
        campaign: String,
    },
    /// Roll dice for a purpose and log the roll (or log a physical roll with --value)
    Roll {
        /// Campaign name or id
        campaign: String,
        /// Dice to roll: d6, 2d6, d20 …
        dice: String,
        /// What the roll is for, as the log should say it
        #[arg(long)]
        purpose: String,
        /// A die's value rolled on the table, once per die (or comma-separated)
        #[arg(long = "value", value_delimiter = ',')]
        values: Vec<u8>,
        /// The side the roll is for
        #[arg(long)]
        side: Option<String>,
        /// Show the roll only to the umpire (and to --side)
        #[arg(long)]
        secret: bool,
        /// A modifier with its reason, e.g. "+1:held the field" (repeatable)
        #[arg(long = "modifier", value_name = "±N:REASON", allow_hyphen_values = true)]
        modifiers: Vec<String>,
    },
}

#[derive(Debug, Clone, Args)]
pub struct ViewArgs {
    /// Campaign name or id
    pub campaign: String,
    /// See everything (the default)
    #[arg(long, conflicts_with = "side")]
    pub umpire: bool,
    /// See only what this side knows
    #[arg(long = "as", value_name = "SIDE")]
    pub side: Option<String>,
}

/// What `main` should do after reading the arguments.
#[derive(Debug)]
pub enum Launch {
    /// Open the window.
    Gui(GuiOptions),
    /// A command ran; exit with this code.
    Exit(u8),
}

/// Reads the arguments and runs a command, writing its output to `out` and one error line to
/// `err`. Returns [`Launch::Gui`] when no command was given.
pub fn run(args: impl IntoIterator<Item = impl Into<OsString> + Clone>, out: &mut dyn Write, err: &mut dyn Write) -> Launch {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            let code = u8::try_from(e.exit_code()).unwrap_or(2);
            if e.use_stderr() {
                // One line, as for every other refusal; the usage is a `--help` away.
                let first = text.lines().next().unwrap_or("error: bad arguments");
                let _ = writeln!(err, "{first} (see `referee --help`)");
            } else {
                let _ = write!(out, "{text}");
            }
            return Launch::Exit(code);
        }
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
        Err(e) => {
            let e = name_damage(e, ctx.db.as_deref());
            let _ = writeln!(err, "error: {}", refusal_line(&format!("{e:#}")));
            Launch::Exit(1)
        }
    }
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

pub(crate) struct Session {
    pub(crate) db: Option<PathBuf>,
    pub(crate) json: bool,
    pub(crate) data: DataSource,
}

/// Something printed as text or as JSON.
pub(crate) trait Output: Serialize {
    fn text(&self) -> String;
}

impl Session {
    pub(crate) fn print(&self, out: &mut dyn Write, value: &dyn ErasedOutput) -> anyhow::Result<()> {
        if self.json {
            writeln!(out, "{}", value.json())?;
        } else {
            let text = value.text();
            if !text.is_empty() {
                writeln!(out, "{}", text.trim_end())?;
            }
        }
        Ok(())
    }

    /// The Belisarius world, or `None` when a referee's own data folder has no
    /// `belisarius` folder (a folder made for Magna Graecia alone).
    fn belisarius_world(&self) -> anyhow::Result<Option<referee_campaign::belisarius::World>> {
        if !self.data.has(referee_data::BELISARIUS) {
            return Ok(None);
        }
        referee_campaign::belisarius::World::load(&self.data).map(Some).map_err(|e| anyhow!("{e}"))
    }

    /// `referee new` for a scenario that is not Magna Graecia's: Belisarius's, or none.
    fn new_belisarius(
        &self,
        catalog: &Catalog,
        scenario: &str,
        name: Option<String>,
        seed: Option<u64>,
        from: bool,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let world = self.belisarius_world()?;
        let Some(world) = world.as_ref().filter(|w| w.scenario(scenario).is_some()) else {
            let all = AllScenarios::new(catalog, world.as_ref());
            let ids: Vec<&str> = all.0.iter().map(|s| s.id.as_str()).collect();
            bail!("there is no scenario `{scenario}`; the scenarios are {}", ids.join(", "));
        };
        if from {
            bail!("a Belisarius scenario starts from its own set-up; --from continues a Magna Graecia campaign (MG-37)");
        }
        let setup = world.setup(scenario).map_err(|e| anyhow!(e))?;
        if name.as_deref().is_some_and(|n| n.trim().is_empty()) {
            bail!("a campaign name cannot be empty");
        }
        let mut store = self.store(Access::Create)?;
        let name = match name {
            Some(n) => n,
            None => crate::suggested_name(setup.name(), &store.campaigns()?),
        };
        let campaign = store.create_as::<Belisarius>(&name, &setup, seed.unwrap_or_else(crate::fresh_seed))?;
        self.print(out, &Created { id: campaign.id.0, name: campaign.state.name.clone(), scenario: setup.id().to_owned() })
    }

    pub(crate) fn catalog(&self) -> anyhow::Result<Catalog> {
        Catalog::load(&self.data).map_err(|e| anyhow!("{e}"))
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

    fn open(&self, store: &Store, key: &str, catalog: &Catalog) -> anyhow::Result<(Campaign, Map)> {
        let campaign = store.load(store.find(key)?)?;
        let map = campaign.state.map(catalog.map(&campaign.state.scenario.map)).map_err(|e| anyhow!(e))?.clone();
        Ok((campaign, map))
    }

    /// Reveals a campaign's seed, of either engine.
    pub(crate) fn reveal(&self, campaign: &str, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut store = self.store(Access::Write)?;
        let id = store.find(campaign)?;
        let seed = match store.load_any(id)? {
            AnyCampaign::MagnaGraecia(c) => c.state.seed,
            AnyCampaign::Belisarius(c) => c.state.seed,
        };
        let commitment = store.reveal_seed(id)?;
        self.print(out, &Revealed::new(campaign.trim().to_owned(), seed, commitment))
    }

    /// Checks a seed against a campaign of engine `E`; a check that fails is an error, after
    /// the report is printed.
    /// `lines` gives, for a side, the line of its log each event it reads is on.
    pub(crate) fn verify<E: referee_campaign::core::engine::Engine>(
        &self,
        campaign: &str,
        seed: u64,
        side: Option<&str>,
        lines: impl FnOnce(&Store, referee_campaign::CampaignId, &Viewer) -> anyhow::Result<std::collections::BTreeMap<u64, u64>>,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let store = self.store(Access::Read)?;
        let id = store.find(campaign)?;
        let verification = match side {
            None => store.verify_seed::<E>(id, seed)?,
            Some(side) => {
                // Before the reveal a side may not try seeds against the commitment's salt.
                if store.commitment(id)?.is_none_or(|c| c.revealed_at.is_none()) {
                    bail!("a side checks the rolls once the referee has revealed the seed (`referee reveal`)");
                }
                let viewer = Viewer::Side(SideId::new(side));
                let lines = lines(&store, id, &viewer)?;
                store.verify_seed_as::<E>(id, seed, &viewer, |l| lines.get(&l.seq).copied())?
            }
        };
        self.print(out, &Verified(verification.clone()))?;
        if !verification.holds() {
            bail!("{}", verification.summary());
        }
        Ok(())
    }

    /// The engine of the campaign a command names, if it names one.
    fn engine_of(&self, command: &CliCommand) -> anyhow::Result<Option<EngineId>> {
        let key = match command {
            CliCommand::Show(a) | CliCommand::Log(a) | CliCommand::Roster { view: a, .. } => &a.campaign,
            CliCommand::Order { campaign, .. }
            | CliCommand::Table { campaign, .. }
            | CliCommand::Pack { campaign, .. }
            | CliCommand::Result { campaign, .. }
            | CliCommand::Seed { campaign }
            | CliCommand::Reveal { campaign }
            | CliCommand::Verify { campaign, .. }
            | CliCommand::Undo { campaign }
            | CliCommand::Odds { campaign, .. }
            | CliCommand::Roll { campaign, .. } => campaign,
            CliCommand::Report { .. } | CliCommand::Export { .. } => return Ok(None),
            CliCommand::Scenarios | CliCommand::New { .. } | CliCommand::List | CliCommand::Import { .. } => return Ok(None),
        };
        let store = self.store(Access::Read)?;
        Ok(Some(store.engine_of(store.find(key)?)?))
    }

    fn execute(&self, command: CliCommand, out: &mut dyn Write) -> anyhow::Result<()> {
        let engine = self.engine_of(&command)?;
        match engine {
            Some(EngineId::Belisarius) => return belisarius::execute(self, command, out),
            Some(EngineId::MagnaGraecia) | None => {}
        }
        match command {
            CliCommand::Scenarios => {
                let catalog = self.catalog()?;
                let world = self.belisarius_world()?;
                self.print(out, &AllScenarios::new(&catalog, world.as_ref()))
            }
            CliCommand::New { scenario, name, seed, from } => {
                let catalog = self.catalog()?;
                if catalog.scenario(&scenario).is_none() {
                    return self.new_belisarius(&catalog, &scenario, name, seed, from.is_some(), out);
                }
                let scenario = catalog.require_scenario(&scenario).map_err(|e| anyhow!(e))?;
                if name.as_deref().is_some_and(|n| n.trim().is_empty()) {
                    bail!("a campaign name cannot be empty");
                }
                let mut store = self.store(if from.is_none() { Access::Create } else { Access::Write })?;
                let continued;
                let scenario = match &from {
                    Some(key) => {
                        let previous = store.load(store.find(key)?)?;
                        continued = scenario.continued_from(&previous.state).map_err(|e| anyhow!("{e} — MG-37"))?;
                        &continued
                    }
                    None => scenario,
                };
                let name = match name {
                    Some(n) => n,
                    None => crate::suggested_name(&scenario.name, &store.campaigns()?),
                };
                let campaign = store.create(&name, scenario, seed.unwrap_or_else(crate::fresh_seed))?;
                self.print(out, &Created { id: campaign.id.0, name: campaign.state.name.clone(), scenario: scenario.id.clone() })
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
            CliCommand::Show(args) => {
                let (view, _, map) = self.view(&args)?;
                self.print(out, &Shown { view, map })
            }
            CliCommand::Log(args) => {
                let (view, events, _) = self.view(&args)?;
                if self.json && matches!(view, View::Umpire(_)) {
                    writeln!(out, "{}", serde_json::to_string_pretty(&events)?)?;
                    return Ok(());
                }
                self.print(out, &LogOnly(view))
            }
            CliCommand::Roster { view, import: Some(file) } => {
                let text = read_input(&file, "the roster")?;
                let source = referee_data::SourceText { file: file.display().to_string(), text };
                let army = referee_campaign::army::army_from_toml(&source).map_err(|e| anyhow!("{e}"))?;
                self.run_one(&view.campaign, &Order::SetArmy { army }, Vec::new(), out)
            }
            CliCommand::Roster { view, import: None } => {
                let (view, _, _) = self.view(&view)?;
                self.print(out, &Rosters(view.forces().into_iter().cloned().collect()))
            }
            CliCommand::Order { campaign, order, file, values, chits, side } => {
                if !chits.is_empty() {
                    bail!("a Magna Graecia campaign draws no chits from a cup: --chit is for Belisarius");
                }
                let text = order_text(order.as_deref(), file.as_deref())?;
                let commands: Vec<Order> = parse_orders(&text)?;
                let from = match &side {
                    Some(side) => {
                        let store = self.store(Access::Read)?;
                        let c = store.load(store.find(&campaign)?)?;
                        let sides: Vec<(SideId, String)> = c.state.scenario.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect();
                        Some(own_orders::<MagnaGraecia>(&commands, side, &sides)?)
                    }
                    None => None,
                };
                if !values.is_empty() && commands.len() != 1 {
                    bail!("typed-in dice (--value) go with a single order, not a list of {}", commands.len());
                }
                let catalog = self.catalog()?;
                let mut store = self.store(Access::Write)?;
                let (mut c, map) = self.open(&store, &campaign, &catalog)?;
                let all = match commands.as_slice() {
                    [one] => {
                        let input = if values.is_empty() { DiceInput::Seeded } else { DiceInput::Manual(values) };
                        store.execute(&mut c, &map, one, input)?
                    }
                    // A list is taken whole or not at all, so a player's turn is never half stored.
                    many => store.execute_all(&mut c, &map, many).map_err(|e| {
                        match many.get(e.index).filter(|_| !matches!(e.error, ExecError::Store(StoreError::Changed(_)))) {
                            Some(command) => {
                                anyhow!(
                                    "order {} of {} ({}) refused, so none of the list was stored: {}",
                                    e.index + 1,
                                    many.len(),
                                    command.summary(),
                                    e.error
                                )
                            }
                            None => anyhow!(e.error),
                        }
                    })?,
                };
                let viewer = from.map_or(Viewer::Umpire, Viewer::Side);
                let lines = all.iter().filter_map(|e| e.describe(&map, &c.state.scenario, &viewer)).collect();
                match viewer {
                    Viewer::Umpire => self.print(out, &Executed { events: all, lines }),
                    Viewer::Side(_) => self.print(out, &SideRead { lines }),
                }
            }
            CliCommand::Table { campaign, battle, defence, cut, edge, values } => {
                let defence = named(&defence)?;
                let cut = cut.as_deref().map(named).transpose()?;
                let attacker_edge = edge.as_deref().map(named).transpose()?;
                if !values.is_empty() && !(2..=3).contains(&values.len()) {
                    bail!(
                        "setting a table rolls two dice (weather, then time of day) and for a strong wind a d4 for where it blows from, but {} were given",
                        values.len()
                    );
                }
                let command = Order::SetUpTable { battle, defence, cut, attacker_edge };
                self.run_one(&campaign, &command, values, out)
            }
            CliCommand::Pack { campaign, battle, out: dir, paper, system, scaling, size, figures, overwrite } => {
                let mut options = pack_options(&paper, &system, &scaling, size, &figures)?;
                let kept = crate::tables::for_pack(&mut options, &self.data, None)?;
                let catalog = self.catalog()?;
                // A hex pack keeps its table with the battle; other packs only read.
                let mut store = self.store(if kept.is_empty() { Access::Read } else { Access::Write })?;
                let (c, map) = self.open(&store, &campaign, &catalog)?;
                let events = store.events(c.id)?;
                let written =
                    referee_battle_gen::pack::write_pack(&c.state, &map, &events, battle, &options, destination(&dir, overwrite), || {
                        crate::tables::keep(&mut store, c.id, battle, &kept)
                    })?;
                self.print(out, &Written(written))
            }
            CliCommand::Result { campaign, battle, file, values, system, retreat, side } => {
                refuse_side_result(side.as_deref())?;
                let text = read_input(&file, "the result")?;
                if retreat.is_some() {
                    bail!(
                        "--retreat is for a Belisarius battle's hex result; in Magna Graecia the loser's roads open are in the file (MG-26)"
                    );
                }
                if let Some(system) = system {
                    let result = hex_result(&text, battle, &file)?;
                    let catalog = self.catalog()?;
                    let store = self.store(Access::Read)?;
                    let (c, map) = self.open(&store, &campaign, &catalog)?;
                    let events = store.events(c.id)?;
                    let view = view::umpire_view(&c.state, &map, &events);
                    let spec = referee_battle_gen::magna_graecia::umpire_spec(&view, &map, &c.state.scenario.elements, battle)
                        .map_err(|e| anyhow!("{e}"))?;
                    let (table, _) = crate::tables::kept(&store, c.id, battle)?;
                    drop(store);
                    let tabletop = hex_tabletop(&system, table)?;
                    let neutral = referee_battle_gen::hexresult::tabletop_result(&tabletop, &spec, &result)
                        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
                    let order = referee_battle_gen::magna_graecia::result_order(&neutral, &view.board, &map).map_err(|e| anyhow!("{e}"))?;
                    return self.run_one(&campaign, &order, values, out);
                }
                let result = numbered_result(&text, battle, r#"{"outcome": …, "losses": […]}"#, || {
                    format!("{} does not read as a battle result (see README: Entering a result)", file.display())
                })?;
                self.run_one(&campaign, &Order::RecordBattleResult { result }, values, out)
            }
            CliCommand::Import { file, name } => {
                let text = crate::input::read_limited(&file, "the events", crate::input::IMPORT_BYTES)?;
                let what = || format!("{} is not a campaign's events as `referee log --json` prints them", file.display());
                crate::input::no_key_twice(&text).with_context(what)?;
                let given: serde_json::Value = serde_json::from_str(&text).with_context(what)?;
                // A Belisarius campaign's start event keeps a `setup`; Magna Graecia's a `scenario`.
                let belisarius = given.pointer("/0/event/setup").is_some();
                let mut store = self.store(Access::Create)?;
                let (id, name, scenario) = if belisarius {
                    let events: Vec<referee_campaign::belisarius::event::Logged> = read_events(&file, &text, &given, what)?;
                    let c = store.import_as::<Belisarius>(&name, &events)?;
                    (c.id.0, c.state.name.clone(), c.state.setup.id().to_owned())
                } else {
                    let events: Vec<referee_campaign::Logged> = read_events(&file, &text, &given, what)?;
                    let c = store.import(&name, &events)?;
                    (c.id.0, c.state.name.clone(), c.state.scenario.id.clone())
                };
                self.print(out, &Created { id, name, scenario })
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
            CliCommand::Reveal { campaign } => self.reveal(&campaign, out),
            CliCommand::Verify { campaign, seed, side } => {
                let catalog = self.catalog()?;
                let lines = |store: &Store, _: referee_campaign::CampaignId, viewer: &Viewer| {
                    let (c, map) = self.open(store, &campaign, &catalog)?;
                    if let Viewer::Side(s) = viewer
                        && !c.state.is_side(s)
                    {
                        let sides: Vec<&str> = c.state.scenario.move_order.iter().map(SideId::as_str).collect();
                        bail!("{} has no side `{s}`; its sides are {}", c.state.scenario.name, sides.join(", "));
                    }
                    let events = store.events(c.id)?;
                    Ok(referee_campaign::core::verify::log_lines::<MagnaGraecia>(&c.state, &map, &events, viewer, false))
                };
                self.verify::<MagnaGraecia>(&campaign, seed, side.as_deref(), lines, out)
            }
            CliCommand::Seed { campaign } => {
                let store = self.store(Access::Read)?;
                let c = store.load(store.find(&campaign)?)?;
                self.print(out, &Seed { campaign: c.state.name.clone(), seed: c.state.seed })
            }
            CliCommand::Odds { .. } => {
                bail!("odds are counted for a Belisarius battle fought in the program; a Magna Graecia battle is fought on the table")
            }
            CliCommand::Undo { campaign } => {
                let catalog = self.catalog()?;
                let mut store = self.store(Access::Write)?;
                let (mut c, _) = self.open(&store, &campaign, &catalog)?;
                let undone = store.undo(&mut c)?;
                self.print(out, &undone)
            }
            CliCommand::Roll { campaign, dice, purpose, values, side, secret, modifiers } => {
                let (spec, modifiers) = roll_parts(&dice, &values, &modifiers)?;
                let command = Order::RollDice(RollDice { dice: spec, purpose, side: side.map(SideId::new), hidden: secret, modifiers });
                self.run_one(&campaign, &command, values, out)
            }
        }
    }

    /// Runs one command on a campaign and prints what happened.
    fn run_one(&self, campaign: &str, command: &Order, values: Vec<u8>, out: &mut dyn Write) -> anyhow::Result<()> {
        let catalog = self.catalog()?;
        let mut store = self.store(Access::Write)?;
        let (mut c, map) = self.open(&store, campaign, &catalog)?;
        let input = if values.is_empty() { DiceInput::Seeded } else { DiceInput::Manual(values) };
        let events = store.execute(&mut c, &map, command, input)?;
        let lines = events.iter().filter_map(|e| e.describe(&map, &c.state.scenario, &Viewer::Umpire)).collect();
        self.print(out, &Executed { events, lines })
    }

    fn view(&self, args: &ViewArgs) -> anyhow::Result<(View, Vec<referee_campaign::Logged>, Map)> {
        let catalog = self.catalog()?;
        let store = self.store(Access::Read)?;
        let (c, map) = self.open(&store, &args.campaign, &catalog)?;
        let events = store.events(c.id)?;
        let viewer = match &args.side {
            Some(s) => Viewer::Side(SideId::new(s.clone())),
            None => Viewer::Umpire,
        };
        let view = view::view_for(&c.state, &map, &events, &viewer).ok_or_else(|| {
            anyhow!(
                "{} has no side `{}`; its sides are {}",
                c.state.scenario.name,
                args.side.clone().unwrap_or_default(),
                c.state.scenario.move_order.iter().map(SideId::as_str).collect::<Vec<_>>().join(", ")
            )
        })?;
        Ok((view, events, map))
    }
}

/// The sides among `readers`, for a refusal: "carthage, syracuse".
fn side_list(readers: &[Viewer]) -> String {
    let sides: Vec<&str> = readers
        .iter()
        .filter_map(|v| match v {
            Viewer::Side(s) => Some(s.as_str()),
            Viewer::Umpire => None,
        })
        .collect();
    sides.join(", ")
}

/// A value of one of the engine's kebab-case enums from its name, as clap already checked it.
fn named<T: serde::de::DeserializeOwned>(name: &str) -> anyhow::Result<T> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).with_context(|| format!("`{name}` is not a choice here"))
}

/// The text of a file, or of standard input for `-`.
fn read_input(path: &Path, what: &str) -> anyhow::Result<String> {
    crate::input::read_limited(path, what, crate::input::INPUT_BYTES)
}

/// The text of an order: given on the command line, `-` for standard input, or a file.
fn order_text(order: Option<&str>, file: Option<&Path>) -> anyhow::Result<String> {
    Ok(match (order, file) {
        (_, Some(path)) => read_input(path, "the order")?,
        (Some("-"), None) => read_input(Path::new("-"), "the order")?,
        (Some(json), None) => crate::input::limited_text(json, "the order")?.to_owned(),
        (None, None) => bail!("give the order as JSON text, `-` for standard input, or --file"),
    })
}

/// JSON from outside read exactly: a key given twice is refused, not left to the last.
pub(crate) fn strict_json(text: &str, what: &str) -> anyhow::Result<()> {
    crate::input::no_key_twice(text).with_context(|| format!("{what} is not valid JSON"))
}

/// Reads one order object or an array of them, in the orders of the campaign's engine.
fn parse_orders<T: serde::de::DeserializeOwned>(text: &str) -> anyhow::Result<Vec<T>> {
    strict_json(text, "the order")?;
    let value: serde_json::Value = serde_json::from_str(text).context("the order is not valid JSON")?;
    let one = |v: serde_json::Value, which: String| -> anyhow::Result<T> {
        let shown = echo(&v.to_string());
        serde_json::from_value(v).with_context(|| format!("{which}`{shown}` is not an order this program knows"))
    };
    match value {
        serde_json::Value::Array(items) if items.is_empty() => bail!("the list of orders is empty"),
        serde_json::Value::Array(items) => {
            let n = items.len();
            items.into_iter().enumerate().map(|(i, v)| one(v, format!("order {} of {n}, ", i + 1))).collect()
        }
        other => Ok(vec![one(other, String::new())?]),
    }
}

/// The first field of `given` that reading it into the program's types and writing it back
/// (`read`) lost: a field the types do not have. Its path, like `[3].event.roll.sorce`.
fn unknown_field(given: &serde_json::Value, read: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value;
    match (given, read) {
        (Value::Object(g), Value::Object(r)) => g.iter().find_map(|(k, v)| {
            let here = if at.is_empty() { k.clone() } else { format!("{at}.{k}") };
            match r.get(k) {
                None => Some(here),
                Some(w) => unknown_field(v, w, &here),
            }
        }),
        (Value::Array(g), Value::Array(r)) => {
            g.iter().zip(r).enumerate().find_map(|(i, (v, w))| unknown_field(v, w, &format!("{at}[{i}]")))
        }
        _ => None,
    }
}

/// What a refusal quotes of the input: its first line, cut to a length a terminal shows.
fn echo(text: &str) -> String {
    referee_campaign::core::words::shown(text)
}

/// The one line a refusal prints: every control character written out, and whatever it
/// quotes between backticks cut to 60 characters, whichever part of the program wrote it.
fn refusal_line(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&referee_campaign::core::words::shown(part));
        } else {
            for c in part.chars() {
                if c.is_control() {
                    out.push_str(&c.escape_unicode().to_string());
                } else {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// A campaign's events from the JSON of `referee log --json`. Stored events read leniently,
/// so that older campaigns open; a file to import is input, and a field it has that the
/// events do not keep is refused by name.
fn read_events<T: serde::de::DeserializeOwned + Serialize>(
    file: &Path,
    text: &str,
    given: &serde_json::Value,
    what: impl Fn() -> String,
) -> anyhow::Result<Vec<T>> {
    let events: Vec<T> = serde_json::from_str(text).with_context(&what)?;
    let read = serde_json::to_value(&events)?;
    if let Some(path) = unknown_field(given, &read, "") {
        bail!("{}: unknown field `{path}`: the events of a campaign have no such field", file.display());
    }
    Ok(events)
}

/// What an order did, of either engine: its events, and the log lines the umpire reads for
/// them.
#[derive(Serialize)]
pub(crate) struct Executed<E> {
    pub(crate) events: Vec<E>,
    pub(crate) lines: Vec<String>,
}

impl<E: Serialize> Output for Executed<E> {
    fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// What a side's orders did, as the side reads it: no events, whose fields are the
/// referee's, only the side's own lines.
#[derive(Serialize)]
pub(crate) struct SideRead {
    pub(crate) lines: Vec<String>,
}

impl Output for SideRead {
    fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// The side `side` names among `sides` (id, name), if every one of `orders` is its own: a
/// side's input orders nothing for another side, nor what only the referee orders, and a
/// list with one such order is refused whole, before anything is decided.
pub(crate) fn own_orders<E: referee_campaign::core::engine::Engine>(
    orders: &[E::Order],
    side: &str,
    sides: &[(SideId, String)],
) -> anyhow::Result<SideId> {
    let Some((id, name)) = sides.iter().find(|(id, _)| id.as_str() == side) else {
        let ids: Vec<&str> = sides.iter().map(|(id, _)| id.as_str()).collect();
        bail!("the campaign has no side `{}`; its sides are {}", echo(side), ids.join(", "));
    };
    let n = orders.len();
    for (i, order) in orders.iter().enumerate() {
        let which = if n == 1 { "the order".to_owned() } else { format!("order {} of {n}", i + 1) };
        let list = if n == 1 { "" } else { ", so none of the list was stored" };
        match E::order_side(order) {
            Some(s) if s == id => {}
            Some(s) => {
                let owner = sides.iter().find(|(x, _)| x == s).map_or_else(|| format!("`{}`'s", echo(s.as_str())), |(_, n)| possessive(n));
                bail!("{which} is {owner} to give, not {}: a side gives its own orders only{list}", possessive(name));
            }
            None => bail!("{which} is the referee's to give (a phase, a roll, a result), not {}{list}", possessive(name)),
        }
    }
    Ok(id.clone())
}

/// A battle's result names both sides' losses: no side enters it.
pub(crate) fn refuse_side_result(side: Option<&str>) -> anyhow::Result<()> {
    match side {
        Some(side) => bail!(
            "a battle's result is the referee's to enter, not `{}`'s: it names both sides' losses; a side's own choices after a battle are orders (`order --as`)",
            echo(side)
        ),
        None => Ok(()),
    }
}

/// A log as `referee log` prints it: each line with its number in the reader's sequence.
fn log_text<'a>(lines: impl Iterator<Item = (u64, &'a str)>) -> String {
    lines.map(|(seq, text)| format!("{seq:>5}  {text}\n")).collect()
}

/// One line of `referee scenarios`.
#[derive(Serialize)]
struct ScenarioSummary {
    campaign: EngineId,
    id: String,
    name: String,
    period: String,
    turns: u32,
    sides: Vec<String>,
}

/// Every scenario of every campaign, Magna Graecia's first.
#[derive(Serialize)]
#[serde(transparent)]
struct AllScenarios(Vec<ScenarioSummary>);

impl AllScenarios {
    fn new(catalog: &Catalog, world: Option<&referee_campaign::belisarius::World>) -> AllScenarios {
        let mg = catalog.scenarios.iter().map(|sc| ScenarioSummary {
            campaign: EngineId::MagnaGraecia,
            id: sc.id.clone(),
            name: sc.name.clone(),
            period: sc.period.clone(),
            turns: sc.turns,
            sides: sc
                .move_order
                .iter()
                .filter_map(|id| sc.side(id))
                .map(|side| format!("{} ({} pts)", side.name, side.army_points))
                .collect(),
        });
        let be = world.into_iter().flat_map(|w| &w.scenarios).map(|sc| ScenarioSummary {
            campaign: EngineId::Belisarius,
            id: sc.id.clone(),
            name: sc.name.clone(),
            period: sc.period(),
            turns: sc.turns,
            sides: sc.sides.iter().map(|s| s.name.clone()).collect(),
        });
        AllScenarios(mg.chain(be).collect())
    }
}

impl Output for AllScenarios {
    fn text(&self) -> String {
        let mut s = String::new();
        for sc in &self.0 {
            s.push_str(&format!(
                "{:<14} {:<13} {} ({}, {} turns): {}\n",
                sc.campaign.title(),
                sc.id,
                sc.name,
                sc.period,
                sc.turns,
                sc.sides.join(", ")
            ));
        }
        s
    }
}

/// The dice and modifiers of `referee roll`, checked against the typed-in values.
fn roll_parts(dice: &str, values: &[u8], modifiers: &[String]) -> anyhow::Result<(DiceSpec, Vec<Modifier>)> {
    let spec: DiceSpec = dice.parse().map_err(|e: String| anyhow!(e))?;
    let modifiers = modifiers.iter().map(|m| parse_modifier(m)).collect::<anyhow::Result<Vec<_>>>()?;
    if !values.is_empty() && values.len() != usize::from(spec.count) {
        bail!("{spec} needs {} typed-in value(s), but {} were given", spec.count, values.len());
    }
    Ok((spec, modifiers))
}

/// Reads "+1:held the field" or "-2:reason".
fn parse_modifier(text: &str) -> anyhow::Result<Modifier> {
    let (value, reason) = text.split_once(':').with_context(|| format!("modifier `{text}` must read like +1:held the field"))?;
    let value: i32 = value
        .trim()
        .trim_start_matches('+')
        .parse()
        .with_context(|| format!("modifier `{text}` must start with a whole number like +1 or -2"))?;
    if reason.trim().is_empty() {
        bail!("modifier `{text}` needs a reason after the colon");
    }
    Ok(Modifier { value, reason: reason.trim().to_owned() })
}

/// Lets `print` take any output by reference.
pub(crate) trait ErasedOutput {
    fn json(&self) -> String;
    fn text(&self) -> String;
}

impl<T: Output> ErasedOutput for T {
    fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
    fn text(&self) -> String {
        Output::text(self)
    }
}

#[derive(Serialize)]
struct Created {
    id: i64,
    name: String,
    scenario: String,
}

impl Output for Created {
    fn text(&self) -> String {
        format!("Started campaign “{}” (id {}) from {}.", self.name, self.id, self.scenario)
    }
}

#[derive(Serialize)]
#[serde(transparent)]
struct CampaignList(Vec<referee_campaign::store::CampaignSummary>);

impl Output for CampaignList {
    fn text(&self) -> String {
        if self.0.is_empty() {
            return "No campaigns yet; start one with `referee new <scenario>`.".to_owned();
        }
        self.0.iter().map(|c| format!("{:>3}  {:<28} {:<13} {}\n", c.id, c.name, c.scenario, count(c.commands, "command"))).collect()
    }
}

impl Output for referee_campaign::store::Undone {
    fn text(&self) -> String {
        format!("Undid command {}: {} ({} event(s) removed).", self.command_seq, self.summary, self.events)
    }
}

#[derive(Serialize)]
pub(crate) struct Seed {
    pub(crate) campaign: String,
    pub(crate) seed: u64,
}

/// A seed revealed: the seed, the salt, and the commitment they open.
#[derive(Serialize)]
pub(crate) struct Revealed {
    campaign: String,
    seed: u64,
    salt: String,
    #[serde(flatten)]
    commitment: Commitment,
}

impl Revealed {
    fn new(campaign: String, seed: u64, commitment: Commitment) -> Revealed {
        Revealed { campaign, seed, salt: commitment.salt.clone(), commitment }
    }
}

impl Output for Revealed {
    fn text(&self) -> String {
        format!(
            "The dice seed of “{}” is revealed: seed {}, salt {}.\nThey open the commitment published when it began, {}; anyone may now check every roll with `referee verify \"{}\" --seed {}`.",
            self.campaign, self.seed, self.salt, self.commitment.digest, self.campaign, self.seed
        )
    }
}

/// A seed checked against the log.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct Verified(Verification);

impl Output for Verified {
    fn text(&self) -> String {
        let mut s = String::new();
        for c in &self.0.checks {
            let what = match c.verdict {
                Verdict::Matches => "matches",
                Verdict::Differs => "DIFFERS",
                Verdict::TypedIn => "typed in, not checked",
                Verdict::BeforeCommitment => "before the commitment, not checked",
            };
            let replayed =
                c.replayed.as_ref().filter(|_| c.verdict == Verdict::Differs).map(|r| format!(" (the seed gives {r})")).unwrap_or_default();
            match (c.event, c.stream) {
                (Some(line), _) => s.push_str(&format!("{line:>5}  {}: {} — {what}{replayed}\n", c.purpose, c.logged)),
                (None, Some((from, to))) => {
                    s.push_str(&format!("    —  a roll this side does not see, dice stream {from}–{to} — {what}\n"));
                }
                (None, None) => {}
            }
        }
        s.push_str(&self.0.summary());
        s
    }
}

impl Output for Seed {
    fn text(&self) -> String {
        format!("The dice seed of “{}” is {}. Keep it from the players until the campaign ends.", self.campaign, self.seed)
    }
}

/// A result file read as `T`: the battle's number put in where the file leaves it out, and
/// refused where it names another battle. Read from the text itself where the file gives the
/// number, so that a refusal names the line; `shape` shows what the file should look like.
fn numbered_result<T: serde::de::DeserializeOwned>(text: &str, battle: u32, shape: &str, what: impl Fn() -> String) -> anyhow::Result<T> {
    strict_json(text, "the result")?;
    let mut value: serde_json::Value = serde_json::from_str(text).context("the result is not valid JSON")?;
    let Some(object) = value.as_object_mut() else { bail!("the result must be a JSON object like {shape}") };
    let numbered = match object.get("battle").map(serde_json::Value::as_u64) {
        None => {
            object.insert("battle".into(), battle.into());
            false
        }
        Some(Some(n)) if n == u64::from(battle) => true,
        Some(Some(other)) => bail!("the file is the result of battle {other}, not battle {battle}"),
        Some(None) => bail!("the file's `battle` must be the battle's number as `show` lists it ({battle}), or left out"),
    };
    if numbered { serde_json::from_str(text).with_context(what) } else { serde_json::from_value(value).with_context(what) }
}

/// A hex wargame's result file (see [`numbered_result`]).
pub(crate) fn hex_result(text: &str, battle: u32, file: &Path) -> anyhow::Result<referee_battle_gen::hexresult::HexResult> {
    numbered_result(text, battle, r#"{"outcome": …, "sides": [{"side": …, "lost": […]}]}"#, || {
        format!("{} does not read as a hex wargame's result (see README: Hex tabletops)", file.display())
    })
}

/// The options of a pack as the command line gives them.
pub(crate) fn pack_options(paper: &str, system: &str, scaling: &str, size: u32, figures: &str) -> anyhow::Result<PackOptions> {
    let scaling = dbsa_scaling(scaling, size)?;
    Ok(PackOptions { paper: named(paper)?, system: named(system)?, scaling, figures: named(figures)?, hex_units: None })
}

/// A pack's folder, and what `--overwrite` asks of files already in it.
pub(crate) fn destination(folder: &Path, overwrite: bool) -> referee_battle_gen::pack::Destination<'_> {
    use referee_battle_gen::pack::Existing;
    referee_battle_gen::pack::Destination { folder, existing: if overwrite { Existing::Replace } else { Existing::Refuse } }
}

/// The hex wargame the command line names, with the conversion table its pack was counted by.
pub(crate) fn hex_tabletop(
    system: &str,
    table: referee_battle_gen::hexunits::HexUnits,
) -> anyhow::Result<referee_battle_gen::hexpack::HexTabletop> {
    use referee_battle_gen::hexmap::HexSystem;
    let system = match system {
        "ars-bellum" => HexSystem::ArsBellum,
        "a-la-charge" => HexSystem::ALaCharge,
        other => bail!("`{other}` is not a hex wargame (ars-bellum, a-la-charge)"),
    };
    Ok(referee_battle_gen::hexpack::HexTabletop::new(system, table))
}

/// The DBSA scaling the command line names, with its army size.
pub(crate) fn dbsa_scaling(scaling: &str, size: u32) -> anyhow::Result<Scaling> {
    if size == 0 {
        bail!("a DBSA army needs at least one element (--size)");
    }
    Ok(match scaling {
        "per-side" => Scaling::PerSide { elements: size },
        "per-command" => Scaling::PerCommand { elements: size },
        "one-to-one" => Scaling::OneToOne,
        _ => Scaling::PerBattle { elements: size },
    })
}
