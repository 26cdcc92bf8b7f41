//! The command line of a player holding a side's packet: `referee --packet FILE
//! COMMAND`. It reads the packet and nothing else — no database, no data folder — so a player
//! can run nothing that reaches past what the side knows. The player reads where the campaign
//! stands, the side's view and log, and the report; builds a plan of orders, each checked as
//! far as the side's own knowledge goes; and writes it as an orders file for the referee.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use referee_campaign::belisarius::Belisarius;
use referee_campaign::core::engine::EngineId;
use referee_campaign::core::error::RuleError;
use referee_campaign::core::plan::Checked;
use referee_campaign::core::view::HasLog;
use referee_campaign::core::viewer::LogLine;
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Launch;
use super::campaign::CliEngine;
use super::output::{ErasedOutput, Output};
use super::read::{named, order_text, parse_orders};
use crate::packet::{Header, Packet, PlannedOrder};

/// A player's command line, on a side's packet.
#[derive(Debug, Parser)]
#[command(
    name = "referee --packet FILE",
    version,
    about = "A player's desk on a side's packet: read what the side knows, plan its orders, send them to the referee"
)]
pub struct PlayerCli {
    /// The side's packet, as the referee sent it
    #[arg(long, value_name = "FILE")]
    pub packet: PathBuf,
    /// Print JSON instead of text
    #[arg(long, global = true)]
    pub json: bool,
    /// Close the window by itself after this many frames (smoke test)
    #[arg(long, value_name = "N", hide = true)]
    pub smoke_frames: Option<u32>,
    /// Save a PNG of the window before closing (with --smoke-frames)
    #[arg(long, value_name = "FILE", hide = true, requires = "smoke_frames")]
    pub screenshot: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<PlayerCommand>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum PlayerCommand {
    /// Where the campaign stands, what the side sees of it, and the plan so far
    Show,
    /// The side's log, numbered on its own
    Log,
    /// The map: every place with its neighbours, and who holds it as the side sees it
    Map,
    /// The side's own forces with the numbers orders name: Belisarius's Table of Organisation
    /// (units by number, lines still to place), Magna Graecia's army
    Roster,
    /// Add orders to the plan: one order object or a list, as JSON; each is checked as far as
    /// the side knows, and what it cannot check is marked for the referee
    Order {
        /// The order as JSON text; `-` reads it from standard input
        #[arg(required_unless_present = "file", conflicts_with = "file")]
        order: Option<String>,
        /// Read the order from this JSON file instead
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// A word for the referee on this order
        #[arg(long)]
        comment: Option<String>,
    },
    /// Show the plan, or change it: drop an order, move one, or comment one
    Plan {
        /// Take this order (by its number in the plan) out of it
        #[arg(long, value_name = "N", conflicts_with_all = ["move_order", "comment"])]
        drop: Option<u32>,
        /// Move this order to the place --to names
        #[arg(long = "move", value_name = "N", requires = "to", conflicts_with = "comment")]
        move_order: Option<u32>,
        /// Where --move puts the order
        #[arg(long, value_name = "N", requires = "move_order")]
        to: Option<u32>,
        /// Comment this order, with --text (an empty text takes the comment away)
        #[arg(long, value_name = "N", requires = "text")]
        comment: Option<u32>,
        /// The comment's text
        #[arg(long, requires = "comment")]
        text: Option<String>,
    },
    /// Take the last order out of the plan
    Undo,
    /// Write the plan as an orders file for the referee (orders-SIDE-turnN.json)
    Orders {
        /// The file, or a folder to write it into under its own name
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        /// Replace a file of that name
        #[arg(long)]
        overwrite: bool,
    },
    /// Write the side's turn report from the packet as a PDF
    Report {
        /// Folder to write the PDF into (made if missing)
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[arg(long, default_value = "a4", value_parser = ["a4", "letter"])]
        paper: String,
    },
}

/// Whether the arguments are a player's, on a packet.
pub(crate) fn is_player(args: &[OsString]) -> bool {
    args.iter().skip(1).any(|a| a.to_str().is_some_and(|a| a == "--packet" || a.starts_with("--packet=")))
}

/// Runs a player's command on a packet; with none, the player's desk opens.
pub(crate) fn run(args: Vec<OsString>, out: &mut dyn Write, err: &mut dyn Write) -> Launch {
    let cli = match PlayerCli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return super::clap_refusal(&e, out, err),
    };
    let Some(command) = cli.command else {
        return Launch::PlayerDesk(crate::gui::PlayerOptions {
            packet: cli.packet,
            smoke_frames: cli.smoke_frames,
            screenshot: cli.screenshot,
        });
    };
    match execute(&cli.packet, cli.json, command, out) {
        Ok(()) => Launch::Exit(0),
        Err(e) => {
            let _ = writeln!(err, "error: {}", super::refusal_line(&format!("{e:#}")));
            Launch::Exit(1)
        }
    }
}

fn execute(path: &Path, json: bool, command: PlayerCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    let packet = Packet::open(path)?;
    match packet.header.engine {
        EngineId::MagnaGraecia => Player { seat: Seat::<MagnaGraecia>::new(packet)?, json }.execute(command, out),
        EngineId::Belisarius => Player { seat: Seat::<Belisarius>::new(packet)?, json }.execute(command, out),
    }
}

/// What a player's desk asks of an engine: the part of the campaign every side may read, a
/// planned order checked against the side's view, and the view as `show` prints it.
pub(crate) trait PlayerEngine: CliEngine<View: DeserializeOwned, Order: Clone> {
    /// What every side may read besides its view: the map (and Belisarius's tables).
    type Public: DeserializeOwned + Clone;
    /// The side's view, from the packet's JSON.
    fn read_view(json: serde_json::Value) -> serde_json::Result<Self::View>;
    /// What every side may read, from the packet.
    fn read_public(packet: &Packet) -> anyhow::Result<Self::Public> {
        packet.read("public")
    }
    /// How far the side's view checks `order`, planned after `earlier`.
    fn check(view: &Self::View, public: &Self::Public, earlier: &[Self::Order], order: &Self::Order) -> Result<Checked, RuleError>;
    /// A side as a sentence names it: "Carthage", "the Byzantines".
    fn the_side(name: &str) -> String {
        referee_campaign::core::words::the_side(name)
    }
    /// The order in a few words, naming what it names as the side knows it: the map's
    /// places, the sides, and the side's own leaders.
    fn plan_line(view: &Self::View, public: &Self::Public, order: &Self::Order) -> String;
    /// The view, as `show` prints it.
    fn shown(view: Self::View, public: Self::Public) -> Box<dyn ErasedOutput>;
    /// The map, as `map` prints it, with who holds each place as the view shows it.
    fn map_listing(view: &Self::View, public: &Self::Public) -> Box<dyn ErasedOutput>;
    /// The side's own forces, as the referee's `roster --as` prints them.
    fn roster(view: &Self::View) -> Box<dyn ErasedOutput>;
}

/// A change a player makes to the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// Take out order N (from 1).
    Drop(u32),
    /// Move order N to place M.
    Move(u32, u32),
    /// Comment order N; an empty text takes the comment away.
    Comment(u32, String),
    /// Take out the last order.
    Undo,
}

/// A side's packet opened by its player, read as its engine's: the view and the public map
/// it holds, and its plan. The command line and the player's desk in the app both work
/// through it.
pub(crate) struct Seat<E: PlayerEngine> {
    pub(crate) packet: Packet,
    pub(crate) view: E::View,
    pub(crate) public: E::Public,
}

impl<E: PlayerEngine> Seat<E> {
    pub(crate) fn new(packet: Packet) -> anyhow::Result<Self> {
        let view =
            E::read_view(packet.read("view")?).with_context(|| format!("the view part of {} cannot be read", packet.path().display()))?;
        let public = E::read_public(&packet)?;
        Ok(Seat { packet, view, public })
    }

    pub(crate) fn header(&self) -> &Header {
        &self.packet.header
    }

    /// The side as a sentence names it: "Carthage", "the Byzantines".
    pub(crate) fn the_side(&self) -> String {
        E::the_side(&self.header().side_name)
    }

    /// The side's view, as `show` prints it.
    pub(crate) fn shown(&self) -> Box<dyn ErasedOutput> {
        E::shown(self.view.clone(), self.public.clone())
    }

    /// The plan, each order with its one-line summary.
    pub(crate) fn plan(&self) -> anyhow::Result<Vec<(PlannedOrder, String)>> {
        Ok(self.summaries(&self.packet.plan()?))
    }

    /// The plan, read as the engine's orders.
    fn planned(&self) -> anyhow::Result<Vec<E::Order>> {
        self.packet
            .plan()?
            .into_iter()
            .map(|p| {
                serde_json::from_value(p.order)
                    .with_context(|| format!("order {} of the plan is not an order this program knows", p.position))
            })
            .collect()
    }

    /// Adds `orders` at the end of the plan, each checked as far as the side can tell, or
    /// none of them; `comment` goes with the first. Returns those added.
    pub(crate) fn add(&mut self, orders: &[E::Order], comment: &str) -> anyhow::Result<Vec<(PlannedOrder, String)>> {
        let mut earlier = self.planned()?;
        let mut checked = Vec::new();
        let n = orders.len();
        for (i, order) in orders.iter().enumerate() {
            let which = if n == 1 { "the order".to_owned() } else { format!("order {} of {n}", i + 1) };
            let list = if n == 1 { "" } else { ", so none of the list was planned" };
            match E::order_side(order) {
                Some(s) if s == &self.header().side => {}
                // A side id that matches the packet's but for its case is a slip, not another side.
                Some(s) if s.as_str().eq_ignore_ascii_case(self.header().side.as_str()) => bail!(
                    "{which} names the side `{}`; the side's id is `{}`, in small letters{list}",
                    crate::cli::read::echo(s.as_str()),
                    self.header().side
                ),
                Some(_) => bail!("{which} is another side's to give: a side plans its own orders only{list}"),
                None => bail!("{which} is the referee's to give (a phase, a roll, a result){list}"),
            }
            let verdict = E::check(&self.view, &self.public, &earlier, order)
                .map_err(|e| anyhow::anyhow!("{which} ({}) is refused{list}: {e}", E::plan_line(&self.view, &self.public, order)))?;
            checked.push((serde_json::to_value(order)?, verdict));
            earlier.push(order.clone());
        }
        let mut plan = self.rows()?;
        let first = plan.len();
        // A comment given with a list is the list's: it goes with its first order.
        for (i, (order, verdict)) in checked.into_iter().enumerate() {
            plan.push((order, verdict, if i == 0 { comment.trim().to_owned() } else { String::new() }));
        }
        self.packet.replace(&plan)?;
        Ok(self.plan()?.into_iter().skip(first).collect())
    }

    /// An order in the command line's JSON, in words as the side knows them; `None` for text
    /// that is no order.
    pub(crate) fn in_words(&self, json: &str) -> Option<String> {
        serde_json::from_str::<E::Order>(json).ok().map(|o| E::plan_line(&self.view, &self.public, &o))
    }

    /// Each planned order with its one-line summary; one this program cannot read, as written.
    fn summaries(&self, plan: &[PlannedOrder]) -> Vec<(PlannedOrder, String)> {
        plan.iter()
            .map(|p| {
                let json = p.order.to_string();
                (p.clone(), self.in_words(&json).unwrap_or(json))
            })
            .collect()
    }

    fn rows(&self) -> anyhow::Result<Vec<(serde_json::Value, Checked, String)>> {
        Ok(self.packet.plan()?.into_iter().map(|p| (p.order, p.checked, p.comment)).collect())
    }

    /// Changes the plan; orders moved or dropped are checked again where they now stand,
    /// since the side's checks read the plan in order.
    pub(crate) fn change(&mut self, change: Change) -> anyhow::Result<()> {
        let mut plan = self.rows()?;
        let n = plan.len();
        let index = |k: u32| -> anyhow::Result<usize> {
            match usize::try_from(k).ok().filter(|k| (1..=n).contains(k)) {
                Some(k) => Ok(k - 1),
                None if n == 0 => bail!("the plan is empty: there is no order {k}"),
                None => bail!("the plan has orders 1 to {n}, not {k}"),
            }
        };
        match change {
            Change::Drop(k) => {
                plan.remove(index(k)?);
            }
            Change::Move(from, to) => {
                let (from, to) = (index(from)?, index(to)?);
                let order = plan.remove(from);
                plan.insert(to, order);
            }
            Change::Comment(k, text) => plan[index(k)?].2 = crate::input::limited_text(&text, "the comment")?.trim().to_owned(),
            Change::Undo => {
                if plan.pop().is_none() {
                    bail!("the plan is empty: there is no order to take back");
                }
            }
        }
        let orders: Vec<E::Order> = plan
            .iter()
            .map(|(o, _, _)| serde_json::from_value(o.clone()))
            .collect::<Result<_, _>>()
            .context("the plan holds an order this program does not know")?;
        for (i, order) in orders.iter().enumerate() {
            plan[i].1 = match E::check(&self.view, &self.public, &orders[..i], order) {
                Ok(checked) => checked,
                Err(e) => Checked::ForReferee(format!("where it stands now, the side's check refuses it: {e}")),
            };
        }
        self.packet.replace(&plan)
    }

    /// Writes the plan as an orders file at `path`, or into the folder `path` under its own
    /// name; returns where, and how many orders.
    pub(crate) fn write_orders(&self, path: &Path, overwrite: bool) -> anyhow::Result<(PathBuf, usize)> {
        let file = self.packet.orders_file()?;
        if file.orders.is_empty() {
            bail!("the plan is empty: plan the side's orders first");
        }
        // A folder, there already or named with a separator at its end (made if missing),
        // takes the file under its own name.
        let folder = path.is_dir() || path.as_os_str().to_str().is_some_and(|p| p.ends_with(std::path::MAIN_SEPARATOR) || p.ends_with('/'));
        let path = if folder {
            std::fs::create_dir_all(path).with_context(|| format!("cannot make the folder {}", path.display()))?;
            path.join(file.file_name())
        } else {
            path.to_owned()
        };
        if path.exists() && !overwrite {
            bail!(
                "{} is there already, written from this packet before; give --overwrite to replace it, or name another file with --out",
                path.display()
            );
        }
        let text = serde_json::to_string_pretty(&file)? + "\n";
        std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
        Ok((path, file.orders.len()))
    }
}

/// A packet opened for its player on the command line.
struct Player<E: PlayerEngine> {
    seat: Seat<E>,
    json: bool,
}

impl<E: PlayerEngine> Player<E> {
    fn print(&self, out: &mut dyn Write, value: &dyn ErasedOutput) -> anyhow::Result<()> {
        super::print(self.json, out, value)
    }

    fn plan_shown(&self) -> anyhow::Result<PlanShown> {
        Ok(PlanShown { side: self.seat.the_side(), plan: self.seat.plan()? })
    }

    fn execute(mut self, command: PlayerCommand, out: &mut dyn Write) -> anyhow::Result<()> {
        match command {
            PlayerCommand::Show => {
                let shown = self.seat.shown();
                let plan = self.seat.packet.plan()?;
                if self.json {
                    let value = serde_json::json!({
                        "packet": self.seat.header(),
                        "view": serde_json::from_str::<serde_json::Value>(&shown.json())?,
                        "plan": plan,
                    });
                    writeln!(out, "{}", serde_json::to_string_pretty(&value)?)?;
                    return Ok(());
                }
                let h = self.seat.header();
                let whose = referee_campaign::core::words::capitalised(&referee_campaign::core::words::possessive(&h.side_name));
                writeln!(out, "{whose} packet · {} · {}", h.name, h.standing)?;
                writeln!(out, "{}", shown.text().trim_end())?;
                let plan = self.plan_shown()?;
                writeln!(out, "{}", Output::text(&plan).trim_end())?;
                if !plan.plan.is_empty() {
                    writeln!(out, "Next, above, is what the packet's moment asks for: it does not count the plan's orders.")?;
                }
                Ok(())
            }
            PlayerCommand::Log => self.print(out, &SideLog(self.seat.view.log().to_vec())),
            PlayerCommand::Map => self.print(out, E::map_listing(&self.seat.view, &self.seat.public).as_ref()),
            PlayerCommand::Roster => self.print(out, E::roster(&self.seat.view).as_ref()),
            PlayerCommand::Order { order, file, comment } => {
                let text = order_text(order.as_deref(), file.as_deref())?;
                let orders: Vec<E::Order> = parse_orders(&text)?;
                let added = self.seat.add(&orders, comment.as_deref().unwrap_or_default())?;
                self.print(out, &Planned { side: self.seat.the_side(), added })
            }
            PlayerCommand::Plan { drop, move_order, to, comment, text } => {
                let change = match (drop, move_order.zip(to), comment.zip(text)) {
                    (Some(k), _, _) => Some(Change::Drop(k)),
                    (_, Some((from, to)), _) => Some(Change::Move(from, to)),
                    (_, _, Some((k, text))) => Some(Change::Comment(k, text)),
                    _ => None,
                };
                if let Some(change) = change {
                    self.seat.change(change)?;
                }
                self.print(out, &self.plan_shown()?)
            }
            PlayerCommand::Undo => {
                self.seat.change(Change::Undo)?;
                self.print(out, &self.plan_shown()?)
            }
            PlayerCommand::Orders { out: path, overwrite } => {
                let (path, orders) = self.seat.write_orders(&path, overwrite)?;
                self.print(out, &OrdersWritten { path, orders, side: self.seat.header().side_name.clone() })
            }
            PlayerCommand::Report { out: dir, paper } => {
                let report: referee_battle_gen::report::ReportSpec = self.seat.packet.read("report")?;
                let written = crate::reports::write(&report, named(&paper)?, &dir)?;
                self.print(out, &super::output::Written(vec![written]))
            }
        }
    }
}

/// A side's view from its JSON. The view's enum is tagged by a field (`"viewer": "side"`),
/// and serde reads such an enum through a buffer that takes a map's numeric keys for text:
/// the side's own view is read straight, its tag taken off.
pub(crate) fn side_view<U, S: DeserializeOwned>(
    mut json: serde_json::Value,
) -> serde_json::Result<referee_campaign::core::view::View<U, S>> {
    if let Some(fields) = json.as_object_mut() {
        match fields.remove("viewer") {
            Some(serde_json::Value::String(viewer)) if viewer == "side" => {}
            _ => return Err(serde::de::Error::custom("a packet holds a side's view")),
        }
    }
    Ok(referee_campaign::core::view::View::Side(serde_json::from_value(json)?))
}

/// Orders added to the plan.
struct Planned {
    side: String,
    added: Vec<(PlannedOrder, String)>,
}

impl Serialize for Planned {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.added.iter().map(|(p, _)| p))
    }
}

impl Output for Planned {
    fn text(&self) -> String {
        planned_text(&self.side, &self.added)
    }
}

/// Orders just planned, a line each: "Planned 2: … — checked as far as Carthage can tell".
/// The command line and the player's desk say it alike.
pub(crate) fn planned_text(side: &str, added: &[(PlannedOrder, String)]) -> String {
    added.iter().map(|(p, summary)| format!("Planned {}: {summary} — {}", p.position, p.checked.note(side))).collect::<Vec<_>>().join("\n")
}

/// The plan, as `show` and `plan` print it.
struct PlanShown {
    side: String,
    plan: Vec<(PlannedOrder, String)>,
}

impl Serialize for PlanShown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.plan.iter().map(|(p, _)| p))
    }
}

impl Output for PlanShown {
    fn text(&self) -> String {
        if self.plan.is_empty() {
            return "Plan: no orders yet (`order '<json>'` adds one)".to_owned();
        }
        let mut s = String::from("Plan:\n");
        for (p, summary) in &self.plan {
            s.push_str(&format!("  {}. {summary} — {}\n", p.position, p.checked.note(&self.side)));
            s.push_str(&format!("     {}\n", p.order));
            if !p.comment.is_empty() {
                s.push_str(&format!("     comment: {}\n", p.comment));
            }
        }
        s
    }
}

/// The side's log.
#[derive(Serialize)]
#[serde(transparent)]
struct SideLog(Vec<LogLine>);

impl Output for SideLog {
    fn text(&self) -> String {
        self.0.iter().map(|l| format!("{:>4}  {}", l.seq, l.text)).collect::<Vec<_>>().join("\n")
    }
}

/// An orders file written.
#[derive(Serialize)]
struct OrdersWritten {
    path: PathBuf,
    orders: usize,
    side: String,
}

impl Output for OrdersWritten {
    fn text(&self) -> String {
        format!(
            "Wrote {}, {} {}: send it to the referee",
            self.path.display(),
            referee_campaign::core::words::possessive(&self.side),
            referee_campaign::core::words::count(self.orders, "order")
        )
    }
}
