//! A side's packet, for play by e-mail (X-01, X-06): one file holding what one side knows of a
//! campaign now — its view with its log numbered on its own, its turn report with its charts,
//! the public map, the commitment to the seed and where the campaign stands — and the plan of
//! orders its player builds in it, which leaves as an orders file for the referee to take in.
//!
//! A packet is a small SQLite file. The player changes the plan order by order (adds, takes
//! back, moves, comments), and each change is whole or not at all, as SQLite's transactions
//! make it; it is one file to attach to an e-mail; and the program already carries SQLite, so
//! a packet is read by the same library as the campaign, and by any SQLite tool a wary player
//! opens it with. Everything in it is built from the side's view alone, and nothing in it
//! says when, where or by whom it was written, so the same knowledge gives the same bytes:
//! the differential test compares packets whole.

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use referee_campaign::core::engine::EngineId;
use referee_campaign::core::plan::Checked;
use referee_campaign::core::viewer::{LogLine, Viewer};
use referee_campaign::ids::{CampaignId, SideId};
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::store::Store;
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
/// own name (`dionysius-turn-03-side-carthage.packet`): refused if the file is there, unless
/// `overwrite`. The report in it holds the log since the side's last packet.
pub fn make(store: &mut Store, id: CampaignId, catalog: &Catalog, side: &str, out: &Path, overwrite: bool) -> anyhow::Result<Made> {
    if store.commitment(id)?.is_none() {
        // A campaign begun before commitments were made commits now: the packet names the
        // campaign by it.
        match store.load_any(id)? {
            referee_campaign::any::AnyCampaign::MagnaGraecia(c) => store.commit_seed(&c)?,
            referee_campaign::any::AnyCampaign::Belisarius(c) => store.commit_seed(&c)?,
        };
    }
    let opened = reports::open(store, id, catalog)?;
    let viewer = Viewer::Side(SideId::new(side));
    if !opened.readers().contains(&viewer) {
        let sides: Vec<String> = opened
            .readers()
            .into_iter()
            .filter_map(|v| match v {
                Viewer::Side(s) => Some(s.to_string()),
                Viewer::Umpire => None,
            })
            .collect();
        bail!("the campaign has no side `{}`; its sides are {}", referee_campaign::core::words::shown(side), sides.join(", "));
    }
    let mut export = opened.build(&viewer)?;
    let out = if out.is_dir() { out.join(export.report.file_name("packet")) } else { out.to_owned() };
    if out.exists() && !overwrite {
        bail!("{} is there already; give --overwrite to replace it", out.display());
    }
    let answers = Answers::of(&export.report.log);
    let mark = reports::keep_since(store, id, &viewer, Output::Packet, &mut export, Since::LastReport)?;
    let header = Header {
        engine: opened.engine(),
        campaign: opened.commitment().map(str::to_owned).context("the campaign has no commitment to its seed")?,
        name: export.report.campaign.clone(),
        side: SideId::new(side),
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
        let format: u32 = db.pragma_query_value(None, "user_version", |r| r.get(0))?;
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
        self.db
            .query_row("SELECT body FROM parts WHERE name = ?1", [name], |r| r.get(0))
            .optional()?
            .with_context(|| format!("{} has no {name} in it", self.path.display()))
    }

    /// A part of the packet, read into the program's types.
    pub fn read<T: serde::de::DeserializeOwned>(&self, name: &str) -> anyhow::Result<T> {
        serde_json::from_str(&self.part(name)?).with_context(|| format!("the {name} in {} cannot be read", self.path.display()))
    }

    /// The plan, in order.
    pub fn plan(&self) -> anyhow::Result<Vec<PlannedOrder>> {
        let mut statement = self.db.prepare("SELECT position, body, checked, comment FROM plan ORDER BY position")?;
        let rows = statement
            .query_map([], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?)))?;
        let mut plan = Vec::new();
        for row in rows {
            let (position, body, checked, comment) = row?;
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
    /// The file name a side's orders go by: `orders-carthage-turn3.json`.
    pub fn file_name(&self) -> String {
        format!("orders-{}-turn{}.json", self.side, self.turn)
    }

    /// Whether `text` (read as JSON) is an orders file rather than orders: an object with
    /// `orders` and no `type`.
    pub fn is_one(value: &serde_json::Value) -> bool {
        value.get("orders").is_some() && value.get("type").is_none()
    }
}
