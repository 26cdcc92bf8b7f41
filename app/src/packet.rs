//! A side's packet, for play by e-mail (X-01, X-06): one file holding what one side knows of a
//! campaign now — its view with its log numbered on its own, its turn report with its charts,
//! the public map, what the desk's panels draw from besides (the points table; a Belisarius
//! side's own leaders' cards and what the rules work out about its own pieces), the
//! commitment to the seed and where the campaign stands — and the plan of
//! orders its player builds in it, which leaves as an orders file for the referee to take in.
//!
//! A packet is a small SQLite file. The player changes the plan order by order (adds, takes
//! back, moves, comments), and each change is whole or not at all, as SQLite's transactions
//! make it; it is one file to attach to an e-mail; and the program already carries SQLite, so
//! a packet is read by the same library as the campaign, and by any SQLite tool a wary player
//! opens it with. Everything in it is what the side knows, and nothing in it
//! says when, where or by whom it was written, so the same knowledge gives the same bytes:
//! the differential test compares packets whole.

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use referee_campaign::core::engine::{Engine, EngineId};
use referee_campaign::core::plan::Checked;
use referee_campaign::core::view::HasLog;
use referee_campaign::core::viewer::{LogLine, Viewer};
use referee_campaign::core::words::{count, possessive, shown};
use referee_campaign::ids::{CampaignId, SideId};
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::store::{BatchError, Campaign, ExecError, Store, StoreError};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::reports::{self, Output, Since};

/// The packet format this program writes and reads; a newer packet is refused.
pub const FORMAT: u32 = 1;

/// SQLite's application id for a packet ("RfPk"), by which a packet is told from a campaign
/// database or any other SQLite file.
const APPLICATION_ID: i32 = 0x5266_506b;

const SCHEMA: &str = r#"
-- Who the packet is for and where the campaign stood when it was written.
CREATE TABLE packet (
    engine          TEXT NOT NULL,
    -- The campaign's public fingerprint: the commitment to its seed.
    campaign        TEXT NOT NULL,
    name            TEXT NOT NULL,
    side            TEXT NOT NULL,
    side_name       TEXT NOT NULL,
    turn            INTEGER NOT NULL,
    standing        TEXT NOT NULL,
    -- The last line of the side's log when the packet was written, which its orders answer.
    answers_line    INTEGER NOT NULL,
    answers_digest  TEXT NOT NULL,
    program         TEXT NOT NULL
);
-- The side's view, its turn report and what every side may read of the map, as JSON.
CREATE TABLE parts (
    name  TEXT PRIMARY KEY,
    body  TEXT NOT NULL
) WITHOUT ROWID;
-- The orders the player plans, in the order they are to be given.
CREATE TABLE plan (
    position  INTEGER PRIMARY KEY,
    body      TEXT NOT NULL,
    checked   TEXT NOT NULL,
    comment   TEXT NOT NULL
);
"#;

/// The point of a side's log that orders answer: its last line when the packet was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answers {
    /// The line's number in the side's own numbering; 0 for an empty log.
    pub line: u64,
    /// A digest of the line's number and text, by which a log rewritten under it (orders
    /// undone, others given) is told from one that stands.
    pub digest: String,
}

impl Answers {
    /// The point `log` has reached.
    pub fn of(log: &[LogLine]) -> Answers {
        let last = log.last();
        Answers { line: last.map_or(0, |l| l.seq), digest: reports::line_digest(last) }
    }
}

/// Who a packet is for, and where the campaign stood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Header {
    pub engine: EngineId,
    /// The campaign's public fingerprint: the commitment to its seed (X-08).
    pub campaign: String,
    pub name: String,
    pub side: SideId,
    pub side_name: String,
    pub turn: u32,
    /// "turn 3 of 18, Carthage to move (movement)".
    pub standing: String,
    pub answers: Answers,
    /// The version of the program that wrote it.
    pub program: String,
}

/// A packet written.
#[derive(Debug, Clone, Serialize)]
pub struct Made {
    pub path: PathBuf,
    pub bytes: u64,
    #[serde(flatten)]
    pub header: Header,
}

/// Writes side `side`'s packet of campaign `id` to `out`, or into the folder `out` under its
/// own name (`dionysius-turn-03-side-carthage-line-45.packet`, at line 45 of the side's log):
/// refused if the file is there, unless `overwrite`. The report in it holds the log since the side's last packet.
pub fn make(store: &mut Store, id: CampaignId, catalog: &Catalog, side: &str, out: &Path, overwrite: bool) -> anyhow::Result<Made> {
    let opened = reports::open(store, id, catalog)?;
    let side_id = SideId::new(side);
    let viewer = Viewer::Side(side_id.clone());
    let readers = opened.readers();
    if !readers.contains(&viewer) {
        bail!("the campaign has no side `{}`; its sides are {}", shown(side), crate::cli::side_list(&readers));
    }
    let mut export = opened.build(&viewer)?;
    let answers = Answers::of(&export.report.log);
    // Named for the line of the side's log it answers too, so that the packets of several
    // exchanges in one turn lie side by side; the side's numbering is its own.
    let name = format!("{}-line-{}.packet", export.report.file_stem(), answers.line);
    let out = if out.is_dir() { out.join(name) } else { out.to_owned() };
    if out.exists() && !overwrite {
        bail!("{} is there already; give --overwrite to replace it", out.display());
    }
    let commitment = match opened.commitment() {
        Some(digest) => digest.to_owned(),
        // A campaign begun before commitments were made commits now, once nothing else
        // refuses the packet: the packet names the campaign by it.
        None => {
            let digest = match store.load_any(id)? {
                referee_campaign::any::AnyCampaign::MagnaGraecia(c) => store.commit_seed(&c)?,
                referee_campaign::any::AnyCampaign::Belisarius(c) => store.commit_seed(&c)?,
            }
            .digest;
            export.report.commitment = Some(digest.clone());
            digest
        }
    };
    let mark = reports::keep_since(store, id, &viewer, Output::Packet, &mut export, Since::LastReport)?;
    let header = Header {
        engine: opened.engine(),
        campaign: commitment,
        name: export.report.campaign.clone(),
        side: side_id.clone(),
        side_name: export.report.reader.name.clone(),
        turn: export.report.turn,
        standing: export.report.when.clone(),
        answers,
        program: env!("CARGO_PKG_VERSION").to_owned(),
    };
    let parts = [
        ("view", serde_json::to_string(&export.view)?),
        ("report", serde_json::to_string(&export.report)?),
        ("public", serde_json::to_string(&opened.public()?)?),
        ("desk", serde_json::to_string(&opened.desk(&side_id)?)?),
    ];
    let bytes = write_file(&out, &header, &parts)?;
    reports::record(store, id, &viewer, mark.as_ref())?;
    Ok(Made { path: out, bytes, header })
}

/// Writes a packet's file whole: to a file beside `out` first, then moved over it, so a packet
/// is never left half written.
fn write_file(out: &Path, header: &Header, parts: &[(&str, String)]) -> anyhow::Result<u64> {
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let part = out.with_file_name(format!(".{name}.{}.part", std::process::id()));
    let _ = std::fs::remove_file(&part);
    let written = (|| -> anyhow::Result<()> {
        let mut db = Connection::open(&part)?;
        db.pragma_update(None, "application_id", APPLICATION_ID)?;
        db.pragma_update(None, "user_version", FORMAT)?;
        let tx = db.transaction()?;
        tx.execute_batch(SCHEMA)?;
        tx.execute(
            "INSERT INTO packet (engine, campaign, name, side, side_name, turn, standing, answers_line, answers_digest, program)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                header.engine.key(),
                header.campaign,
                header.name,
                header.side.as_str(),
                header.side_name,
                header.turn,
                header.standing,
                header.answers.line,
                header.answers.digest,
                header.program
            ],
        )?;
        for (name, body) in parts {
            tx.execute("INSERT INTO parts (name, body) VALUES (?1, ?2)", params![name, body])?;
        }
        tx.commit()?;
        db.close().map_err(|(_, e)| e)?;
        Ok(())
    })();
    let moved = written.and_then(|()| std::fs::rename(&part, out).map_err(anyhow::Error::from));
    if let Err(e) = moved {
        let _ = std::fs::remove_file(&part);
        return Err(e.context(format!("cannot write the packet {}", out.display())));
    }
    Ok(std::fs::metadata(out)?.len())
}

/// One order of a player's plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlannedOrder {
    /// From 1, in the order the orders are to be given.
    pub position: u32,
    /// The order, in the command line's JSON.
    pub order: serde_json::Value,
    /// How far the side could check it.
    #[serde(flatten)]
    pub checked: Checked,
    /// The player's comment, for the referee.
    pub comment: String,
}

/// A packet opened by its player.
#[derive(Debug)]
pub struct Packet {
    path: PathBuf,
    db: Connection,
    pub header: Header,
}

impl Packet {
    /// Opens the packet at `path`, refusing a file that is not one, or one written by a newer
    /// program.
    pub fn open(path: &Path) -> anyhow::Result<Packet> {
        let not = |why: &str| anyhow!("{} is not a side's packet: {why}", path.display());
        if !path.is_file() {
            bail!("there is no packet at {}", path.display());
        }
        let db = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .map_err(|_| not("it cannot be opened as a SQLite file"))?;
        let app: i32 = db.pragma_query_value(None, "application_id", |r| r.get(0)).map_err(|_| not("it is not a SQLite file"))?;
        if app != APPLICATION_ID {
            bail!("{} is not a side's packet (a referee writes one with `referee packet`)", path.display());
        }
        let format: u32 =
            db.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(|e| not(&format!("its format cannot be read ({e})")))?;
        if format > FORMAT {
            bail!("{} is a packet of format {format}, written by a newer referee; this one reads format {FORMAT}", path.display());
        }
        let header = db
            .query_row(
                "SELECT engine, campaign, name, side, side_name, turn, standing, answers_line, answers_digest, program FROM packet",
                [],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        Header {
                            engine: EngineId::MagnaGraecia,
                            campaign: r.get(1)?,
                            name: r.get(2)?,
                            side: SideId::new(r.get::<_, String>(3)?),
                            side_name: r.get(4)?,
                            turn: r.get(5)?,
                            standing: r.get(6)?,
                            answers: Answers { line: r.get(7)?, digest: r.get(8)? },
                            program: r.get(9)?,
                        },
                    ))
                },
            )
            .map_err(|e| not(&format!("its header cannot be read ({e})")))?;
        let (engine, mut header) = header;
        header.engine = engine.parse().map_err(|_| not(&format!("it names no campaign this program plays (`{engine}`)")))?;
        Ok(Packet { path: path.to_owned(), db, header })
    }

    /// The file the packet is in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A part of the packet as JSON: `view`, `report` or `public`.
    pub fn part(&self, name: &str) -> anyhow::Result<String> {
        self.optional_part(name)?.with_context(|| format!("{} has no {name} in it", self.path.display()))
    }

    /// A part of the packet, if it has it: a packet written before the part was, has not.
    fn optional_part(&self, name: &str) -> anyhow::Result<Option<String>> {
        let body = self.db.query_row("SELECT body FROM parts WHERE name = ?1", [name], |r| r.get(0)).optional();
        body.map_err(self.damaged(&format!("its {name} part")))
    }

    /// The refusal of a packet damaged where `what` is kept: said in one line, with the file.
    /// (The database's own error is folded into the sentence, not chained after it, where it
    /// would be said twice.)
    fn damaged<'a>(&'a self, what: &'a str) -> impl Fn(rusqlite::Error) -> anyhow::Error + 'a {
        move |e| anyhow!("{} is damaged: {what} cannot be read ({e})", self.path.display())
    }

    /// A part of the packet, read into the program's types.
    pub fn read<T: serde::de::DeserializeOwned>(&self, name: &str) -> anyhow::Result<T> {
        serde_json::from_str(&self.part(name)?).with_context(|| format!("the {name} part of {} cannot be read", self.path.display()))
    }

    /// What the player's desk draws its order buttons from besides the view and the public
    /// part; `None` in a packet written before packets carried it.
    pub fn desk_part<T: serde::de::DeserializeOwned>(&self) -> anyhow::Result<Option<T>> {
        let body = self.optional_part("desk")?;
        body.map(|b| serde_json::from_str(&b).with_context(|| format!("the desk part of {} cannot be read", self.path.display())))
            .transpose()
    }

    /// The plan, in order.
    pub fn plan(&self) -> anyhow::Result<Vec<PlannedOrder>> {
        let damaged = self.damaged("its plan");
        let mut statement = self.db.prepare("SELECT position, body, checked, comment FROM plan ORDER BY position").map_err(&damaged)?;
        let rows = statement
            .query_map([], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?)))
            .map_err(&damaged)?;
        let mut plan = Vec::new();
        for row in rows {
            let (position, body, checked, comment) = row.map_err(&damaged)?;
            let broken = |e: serde_json::Error| anyhow!("order {position} of the plan in {} cannot be read: {e}", self.path.display());
            plan.push(PlannedOrder {
                position,
                order: serde_json::from_str(&body).map_err(broken)?,
                checked: serde_json::from_str(&checked).map_err(broken)?,
                comment,
            });
        }
        Ok(plan)
    }

    /// Replaces the whole plan, as the player rearranged it; whole or not at all.
    pub fn replace(&mut self, plan: &[(serde_json::Value, Checked, String)]) -> anyhow::Result<()> {
        let path = self.path.display().to_string();
        let written = (|| -> anyhow::Result<()> {
            let tx = self.db.transaction()?;
            tx.execute("DELETE FROM plan", [])?;
            for (i, (order, checked, comment)) in plan.iter().enumerate() {
                tx.execute(
                    "INSERT INTO plan (position, body, checked, comment) VALUES (?1, ?2, ?3, ?4)",
                    params![i + 1, order.to_string(), serde_json::to_string(checked)?, comment],
                )?;
            }
            tx.commit()?;
            Ok(())
        })();
        // One sentence, the file named; the plan as it was.
        written.map_err(|e| anyhow!("cannot write the plan into {path}: {e}"))
    }

    /// The orders file of the plan, for the referee.
    pub fn orders_file(&self) -> anyhow::Result<OrdersFile> {
        let plan = self.plan()?;
        let comments =
            plan.iter().filter(|p| !p.comment.is_empty()).map(|p| Comment { order: p.position, text: p.comment.clone() }).collect();
        Ok(OrdersFile {
            format: FORMAT,
            campaign: self.header.campaign.clone(),
            name: self.header.name.clone(),
            side: self.header.side.clone(),
            turn: self.header.turn,
            answers: self.header.answers.clone(),
            orders: plan.into_iter().map(|p| p.order).collect(),
            comments,
        })
    }
}

/// A player's comment on one order of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Comment {
    /// The order's number in the list, from 1.
    pub order: u32,
    pub text: String,
}

/// What a player sends the referee: the orders of one side, and what they answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrdersFile {
    pub format: u32,
    /// The campaign's public fingerprint, as its packet named it.
    pub campaign: String,
    /// The campaign's name, for reading.
    pub name: String,
    pub side: SideId,
    pub turn: u32,
    /// The point of the side's log the orders were given from.
    pub answers: Answers,
    /// The orders, in the command line's own JSON, to be given in this order.
    pub orders: Vec<serde_json::Value>,
    #[serde(default)]
    pub comments: Vec<Comment>,
}

impl OrdersFile {
    /// The file name a side's orders go by, with the line of its log they answer:
    /// `orders-carthage-turn3-line45.json`.
    pub fn file_name(&self) -> String {
        format!("orders-{}-turn{}-line{}.json", self.side, self.turn, self.answers.line)
    }

    /// Whether `text` (read as JSON) is an orders file rather than orders: an object with
    /// `orders` and no `type`.
    pub fn is_one(value: &serde_json::Value) -> bool {
        value.get("orders").is_some() && value.get("type").is_none()
    }
}

/// Reads an orders file: exactly (a key given twice, a field it has not are refused), and
/// of a format this program reads.
pub fn read_orders(text: &str) -> anyhow::Result<OrdersFile> {
    crate::input::no_key_twice(text).context("the orders file is not valid JSON")?;
    let file: OrdersFile = serde_json::from_str(text)
        .map_err(|e| anyhow!("the orders file cannot be read: {}", crate::input::plain_numbers(&e.to_string())))?;
    if file.format > FORMAT {
        bail!("the orders file is of format {}, written by a newer referee; this one reads format {FORMAT}", file.format);
    }
    Ok(file)
}

/// The side `side` names among `sides` (id, name), if every one of `orders` is its own: a
/// side's input orders nothing for another side, nor what only the referee orders, and a
/// list with one such order is refused whole, before anything is decided.
pub fn own_orders<E: Engine>(orders: &[E::Order], side: &str, sides: &[(SideId, String)]) -> anyhow::Result<SideId> {
    let Some((id, name)) = sides.iter().find(|(id, _)| id.as_str() == side) else {
        let ids: Vec<&str> = sides.iter().map(|(id, _)| id.as_str()).collect();
        bail!("the campaign has no side `{}`; its sides are {}", shown(side), ids.join(", "));
    };
    let n = orders.len();
    for (i, order) in orders.iter().enumerate() {
        let which = if n == 1 { "the order".to_owned() } else { format!("order {} of {n}", i + 1) };
        let list = if n == 1 { "" } else { ", so none of the list was stored" };
        match E::order_side(order) {
            Some(s) if s == id => {}
            Some(s) => match sides.iter().find(|(x, _)| x == s) {
                Some((_, owner)) => {
                    bail!("{which} is {} to give, not {}: a side gives its own orders only{list}", possessive(owner), possessive(name))
                }
                None => bail!(
                    "{which} names `{}`, which is no side of this campaign: a side gives its own orders only{list}",
                    shown(s.as_str())
                ),
            },
            None => bail!("{which} is the referee's to give (a phase, a roll, a result), not {}{list}", possessive(name)),
        }
    }
    Ok(id.clone())
}

/// The refusal of a list of orders given to `campaign` whole or not at all: which order the
/// rules refused, in the words of `viewer`, who gave it, and that `nothing` of it was stored.
/// Another program's writing is said as it is.
pub fn list_refused<E: Engine>(
    e: BatchError,
    (campaign, context, viewer): (&Campaign<E>, &E::Context, &Viewer),
    orders: &[E::Order],
    nothing: &str,
) -> anyhow::Error {
    match orders.get(e.index).filter(|_| !matches!(e.error, ExecError::Store(StoreError::Changed(_)))) {
        Some(order) => {
            let summary = E::summary(&campaign.state, context, order, viewer);
            anyhow!("order {} of {} ({summary}) refused, so {nothing}: {}", e.index + 1, orders.len(), e.error)
        }
        None => anyhow!(e.error),
    }
}

/// An orders file checked against the campaign it came for, ready to be given: made for
/// this campaign, every order the side's own.
#[derive(Debug)]
pub struct Incoming<E: Engine> {
    pub file: OrdersFile,
    pub orders: Vec<E::Order>,
    pub side_name: String,
    /// How the side's log has moved on since the packet the orders answer, if it has.
    pub moved_on: Option<String>,
}

impl<E: Engine> Incoming<E> {
    /// Checks `file` against `campaign`, whose sides are `sides` (id, name).
    pub fn check(
        store: &Store,
        campaign: &Campaign<E>,
        context: &E::Context,
        file: OrdersFile,
        sides: &[(SideId, String)],
    ) -> anyhow::Result<Incoming<E>> {
        if store.commitment(campaign.id)?.is_none_or(|commitment| commitment.digest != file.campaign) {
            let named = shown(&file.name);
            let campaign_name = E::name(&campaign.state);
            if file.name == campaign_name {
                bail!(
                    "the orders file was made for another campaign called `{named}`: this one has its own seed and log, so its packets and orders files are its own"
                );
            }
            bail!("the orders file was made for another campaign (`{named}`), not for {campaign_name}");
        }
        let n = file.orders.len();
        let orders: Vec<E::Order> = file
            .orders
            .iter()
            .enumerate()
            .map(|(i, v)| {
                serde_json::from_value(v.clone()).map_err(|e| {
                    anyhow!(
                        "order {} of {n} in the orders file (`{}`) is not an order this program knows: {}",
                        i + 1,
                        shown(&v.to_string()),
                        crate::input::plain_numbers(&e.to_string())
                    )
                })
            })
            .collect::<anyhow::Result<_>>()?;
        if orders.is_empty() {
            bail!("the orders file holds no orders");
        }
        if let Some(c) = file.comments.iter().find(|c| c.order == 0 || usize::try_from(c.order).is_ok_and(|o| o > n)) {
            bail!("the orders file comments on order {}, but holds {}", c.order, count(n, "order"));
        }
        let side = own_orders::<E>(&orders, file.side.as_str(), sides)?;
        let side_name = sides.iter().find(|(s, _)| s == &side).map(|(_, n)| n.clone()).unwrap_or_default();
        let events = store.events_as::<E>(campaign.id)?;
        let view = E::view_for(&campaign.state, context, &events, &Viewer::Side(side))
            .ok_or_else(|| anyhow!("the campaign has no side `{}`", shown(file.side.as_str())))?;
        let now = Answers::of(view.log());
        let moved_on = (now != file.answers).then(|| {
            let how = if now.line > file.answers.line {
                format!("{} since", count(now.line - file.answers.line, "new line"))
            } else {
                "lines taken back or rewritten since".to_owned()
            };
            format!(
                "{} log has moved on since the packet these orders answer (its line {} then, line {} now: {how})",
                possessive(&side_name),
                file.answers.line,
                now.line
            )
        });
        // Where the log stands as the packet had it, the campaign is at the packet's turn: a
        // file naming another was written by hand.
        if moved_on.is_none() && file.turn != E::turn(&campaign.state) {
            bail!(
                "the orders file names turn {}, but it answers {} log as it stands, in turn {}: the file was changed after it was written",
                file.turn,
                possessive(&side_name),
                E::turn(&campaign.state)
            );
        }
        Ok(Incoming { file, orders, side_name, moved_on })
    }

    /// Gives the orders, in order, all or nothing; refused where the side's log has moved on,
    /// unless `anyway` (`how_anyway` says how to ask for it). Returns the events, and what
    /// they did as the side reads it, with the player's comments.
    pub fn apply(
        &self,
        store: &mut Store,
        campaign: &mut Campaign<E>,
        context: &E::Context,
        anyway: bool,
        how_anyway: &str,
    ) -> anyhow::Result<(Vec<E::Event>, Vec<String>)> {
        if let Some(moved_on) = self.moved_on.as_ref().filter(|_| !anyway) {
            bail!("{moved_on}; nothing was applied — write the side a new packet, or {how_anyway} to apply the orders all the same");
        }
        let viewer = Viewer::Side(self.file.side.clone());
        let given = store
            .execute_all(campaign, context, &self.orders)
            .map_err(|e| list_refused::<E>(e, (campaign, context, &viewer), &self.orders, "none of the orders file was applied"))?;
        let mut lines: Vec<String> = given.iter().filter_map(|e| E::describe(&campaign.state, context, e, &viewer)).collect();
        for comment in &self.file.comments {
            let text: String = comment.text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            lines.push(format!("{} comments order {}: {text}", self.side_name, comment.order));
        }
        Ok((given, lines))
    }
}
