//! The command line's arguments, as clap reads them: the options every command takes, the
//! app window's, and each command's. Nothing here opens a file; [`super::run`] reads them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
    /// Open this window over the desk (with --smoke-frames): charts, reports, dice, mail, or the
    /// first battle's result form or pack window, or the window of a past battle's pack
    #[arg(long, value_name = "WINDOW", hide = true, requires = "smoke_frames", value_parser = ["charts", "reports", "dice", "mail", "result", "pack", "past-pack"])]
    pub smoke_window: Option<String>,
    /// With --smoke-frames: an empty window of the app's size instead of the app, the floor
    /// the app's start-up is measured against
    #[arg(long, hide = true, requires = "smoke_frames")]
    pub smoke_empty: bool,
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
    /// Print the campaign's map: every place with its neighbours (Belisarius: terrain, city,
    /// port and seas; Magna Graecia: nodes and paths), and who holds it as the viewer sees it
    Map(ViewArgs),
    /// Show the rosters a viewer may see, or replace a side's roster from a file before play
    Roster {
        #[command(flatten)]
        view: ViewArgs,
        /// Replace a side's roster with the army in this TOML file (side, list, [[command]]…)
        #[arg(long, value_name = "FILE", conflicts_with_all = ["umpire", "side"])]
        import: Option<PathBuf>,
    },
    /// Give orders as JSON: one command object, or an array run in order and stored whole or
    /// not at all. E.g. '{"type":"move","side":"carthage","counter":"Hanno","path":[7,11]}';
    /// `referee order --help TYPE` shows what an order of TYPE does, whose it is, and an example
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
        #[arg(long = "value", value_delimiter = ',', value_parser = die_value)]
        values: Vec<u8>,
        /// Chits drawn from a real cup for this order, by id, in the order drawn (Belisarius)
        #[arg(long = "chit", value_delimiter = ',')]
        chits: Vec<String>,
        /// The orders are this side's, as from its player: every one must be the side's own
        /// (or none is stored), and what comes back is what the side may read
        #[arg(long = "as", value_name = "SIDE", conflicts_with_all = ["values", "chits"])]
        side: Option<String>,
        /// With an orders file from a side's packet: apply them although the side's log has
        /// moved on since the packet was written
        #[arg(long, requires = "side")]
        anyway: bool,
    },
    /// Write a side's packet for play by e-mail: one file with what the side knows now (its
    /// view and log, its turn report and charts, the map, the commitment to the seed, where
    /// the campaign stands), in which its player plans orders (`referee --packet FILE`)
    Packet {
        /// Campaign name or id
        campaign: String,
        /// The side the packet is for
        #[arg(long = "as", value_name = "SIDE")]
        side: String,
        /// The packet's file, or a folder to write it into under its own name
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        /// Replace a file of that name
        #[arg(long)]
        overwrite: bool,
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
        #[arg(long = "value", value_delimiter = ',', value_parser = die_value)]
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
    /// Enter a battle's result from a JSON file (see docs/battle-night.md): checked against the battle,
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
        #[arg(long = "value", value_delimiter = ',', value_parser = die_value)]
        values: Vec<u8>,
        /// The battle was fought under a hex wargame: the file lists the counters each side
        /// lost (see docs/hex-tabletops.md), turned into the campaign's result here
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
        #[arg(long = "value", value_delimiter = ',', value_parser = die_value)]
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
impl CliCommand {
    /// The campaign a command is run on by the campaign's engine; `None` for the commands the
    /// shell runs: those without a campaign, and the reports, read from any engine's campaign.
    pub(crate) fn campaign(&self) -> Option<&str> {
        match self {
            CliCommand::Show(a) | CliCommand::Log(a) | CliCommand::Map(a) | CliCommand::Roster { view: a, .. } => Some(&a.campaign),
            CliCommand::Order { campaign, .. }
            | CliCommand::Table { campaign, .. }
            | CliCommand::Pack { campaign, .. }
            | CliCommand::Result { campaign, .. }
            | CliCommand::Seed { campaign }
            | CliCommand::Reveal { campaign }
            | CliCommand::Verify { campaign, .. }
            | CliCommand::Undo { campaign }
            | CliCommand::Odds { campaign, .. }
            | CliCommand::Roll { campaign, .. } => Some(campaign),
            shell_commands!() => None,
        }
    }
}

/// The commands the shell runs itself, as a pattern: those without a campaign, and the
/// reports, read from any engine's campaign.
macro_rules! shell_commands {
    () => {
        CliCommand::Scenarios
            | CliCommand::New { .. }
            | CliCommand::List
            | CliCommand::Import { .. }
            | CliCommand::Report { .. }
            | CliCommand::Export { .. }
            | CliCommand::Packet { .. }
    };
}

/// The commands every engine has, as a pattern: run generic over the engine by
/// [`super::campaign`].
macro_rules! shared_commands {
    () => {
        CliCommand::Log(_)
            | CliCommand::Order { .. }
            | CliCommand::Roll { .. }
            | CliCommand::Undo { .. }
            | CliCommand::Seed { .. }
            | CliCommand::Reveal { .. }
            | CliCommand::Verify { .. }
    };
}

/// The commands each engine runs in its own way, as a pattern: by its module.
macro_rules! engine_commands {
    () => {
        CliCommand::Show(_)
            | CliCommand::Map(_)
            | CliCommand::Roster { .. }
            | CliCommand::Table { .. }
            | CliCommand::Pack { .. }
            | CliCommand::Result { .. }
            | CliCommand::Odds { .. }
    };
}

pub(crate) use {engine_commands, shared_commands, shell_commands};

/// A die's value as typed after `--value`, spaces around it allowed ("5, 2, 6").
fn die_value(text: &str) -> Result<u8, String> {
    let text = text.trim();
    text.parse().map_err(|_| format!("`{text}` is not what a die shows: give the numbers the dice show, like 5,2,6"))
}
