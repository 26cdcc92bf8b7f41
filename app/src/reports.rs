//! Turn reports for the command line and the window alike: each reader's report built
//! from that reader's view of a campaign of either engine, the log lines since the reader's
//! last report, and the file written.
//!
//! Where each reader's last report ended is kept in the database's settings, per campaign,
//! reader and output — the PDF report and the JSON export each have their own mark, so that
//! exporting a side's report moves nothing of its next PDF — as the first and last log line
//! it held. Writing the same output again before anything new happens gives the same lines.

use std::path::Path;

use anyhow::{Context, anyhow};
use referee_battle_gen::Paper;
use referee_battle_gen::pack::WrittenFile;
use referee_battle_gen::report::{ReportSpec, report_file};
use referee_campaign::any::AnyCampaign;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::state::State;
use referee_campaign::core::engine::{Engine, Logged};
use referee_campaign::core::history::{Chart, history};
use referee_campaign::core::verify::sha256_hex;
use referee_campaign::core::viewer::{LogLine, Viewer};
use referee_campaign::ids::{CampaignId, SideId};
use referee_campaign::magna_graecia as mg;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::state::CampaignState;
use referee_campaign::store::{Campaign, Store};
use serde::Serialize;

/// Which log lines a report holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Since {
    /// Those after the reader's last report, which the report then becomes.
    LastReport,
    /// From this line of the reader's log on; the mark of the last report is left alone.
    Line(u64),
}

/// The two outputs a reader's report is written to, each remembering where its last one
/// ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// The PDF of `referee report` and the app's Turn reports.
    Pdf,
    /// The JSON of `referee export`.
    Json,
    /// A side's packet (`referee packet`): its report holds the log since the side's last
    /// packet.
    Packet,
}

/// A report and the view it was built from, as `referee export` writes it for play by
/// e-mail: the report's content, and the view with the ids an order names.
#[derive(Debug, Serialize)]
pub struct Export {
    pub report: ReportSpec,
    pub view: serde_json::Value,
}

/// A campaign read once for its reports: its state, its events, what its rules read besides
/// (Magna Graecia: the map it is played on) and the commitment to its seed. Every reader's
/// report and charts are built from it.
#[derive(Debug)]
pub struct Opened {
    story: Story,
    commitment: Option<String>,
}

/// The campaign as read, of whichever engine plays it.
#[derive(Debug)]
enum Story {
    MagnaGraecia(Read<MagnaGraecia>),
    Belisarius(Read<Belisarius>),
}

/// Runs `$body` on the campaign as read, whichever engine plays it: the one place the reports
/// go from the engine to its rules.
macro_rules! by_engine {
    ($story:expr, $read:ident => $body:expr) => {
        match $story {
            Story::MagnaGraecia($read) => $body,
            Story::Belisarius($read) => $body,
        }
    };
}

/// What the reports ask of an engine, besides its rules.
trait Reported: Engine<View: Serialize> {
    /// What the rules read besides the campaign, from the catalogue.
    fn context(state: &Self::State, catalog: &Catalog) -> anyhow::Result<Self::Context>;
    /// The campaign's sides, in order.
    fn sides(state: &Self::State) -> Vec<SideId>;
    /// The scenario's name, for a refusal.
    fn scenario_name(state: &Self::State) -> &str;
    /// What every side may read of the campaign besides its view, for its packet: the map
    /// (and Belisarius's tables).
    fn public(state: &Self::State, context: &Self::Context) -> anyhow::Result<serde_json::Value>;
    /// What a side's desk draws its order buttons from besides its view and the public part,
    /// for its packet: Magna Graecia's points table (the roster editor's, MG-03); the side's
    /// own leaders' cards and what the rules work out about its own pieces in Belisarius.
    fn desk(state: &Self::State, side: &SideId) -> anyhow::Result<serde_json::Value>;
    /// The report of `view`, with its charts and the commitment to the seed.
    fn report_spec(
        view: &Self::View,
        state: &Self::State,
        context: &Self::Context,
        charts: Vec<Chart>,
        commitment: Option<String>,
    ) -> ReportSpec;
}

impl Reported for MagnaGraecia {
    fn context(state: &CampaignState, catalog: &Catalog) -> anyhow::Result<Map> {
        Ok(state.map(catalog.map(&state.scenario.map))?.clone())
    }

    fn sides(state: &CampaignState) -> Vec<SideId> {
        state.scenario.move_order.clone()
    }

    fn scenario_name(state: &CampaignState) -> &str {
        &state.scenario.name
    }

    fn public(_: &CampaignState, map: &Map) -> anyhow::Result<serde_json::Value> {
        Ok(serde_json::to_value(map)?)
    }

    fn desk(state: &CampaignState, _: &SideId) -> anyhow::Result<serde_json::Value> {
        Ok(serde_json::to_value(crate::gui::player::MagnaGraeciaDeskPart { elements: state.scenario.elements.clone() })?)
    }

    fn report_spec(view: &mg::view::View, _: &CampaignState, map: &Map, charts: Vec<Chart>, commitment: Option<String>) -> ReportSpec {
        referee_battle_gen::report::magna_graecia::report_spec(view, map, charts, commitment)
    }
}

impl Reported for Belisarius {
    fn context(_: &State, _: &Catalog) -> anyhow::Result<()> {
        Ok(())
    }

    fn sides(state: &State) -> Vec<SideId> {
        state.setup.sides.iter().map(|s| s.id.clone()).collect()
    }

    fn scenario_name(state: &State) -> &str {
        state.setup.name()
    }

    fn public(state: &State, _: &()) -> anyhow::Result<serde_json::Value> {
        let public = referee_campaign::belisarius::setup::Public::of(&state.setup);
        Ok(serde_json::json!({ "map": public.map(), "tables": public.tables() }))
    }

    fn desk(state: &State, side: &SideId) -> anyhow::Result<serde_json::Value> {
        // The side's own leaders, and the allied Franks' while they march with it (BE-48).
        let commands = |id: &str| {
            state
                .pieces_of(side)
                .any(|p| matches!(&p.kind, referee_campaign::belisarius::state::PieceKind::Leader { leader, .. } if leader == id))
        };
        let part = crate::gui::player::BelisariusDeskPart {
            leaders: state.setup.leaders.iter().filter(|l| l.side == side.as_str() || commands(&l.id)).cloned().collect(),
            facts: crate::gui::belisarius::facts::Facts::of(state, &Viewer::Side(side.clone())),
        };
        Ok(serde_json::to_value(part)?)
    }

    fn report_spec(
        view: &referee_campaign::belisarius::view::View,
        state: &State,
        _: &(),
        charts: Vec<Chart>,
        commitment: Option<String>,
    ) -> ReportSpec {
        referee_battle_gen::report::belisarius::report_spec(view, &state.setup.map, charts, commitment)
    }
}

/// What a Belisarius side's packet carries for its desk besides its view (its own leaders'
/// cards and what the rules work out about its own pieces), from `state`: the differential
/// tests compare it at each moment they play.
pub fn belisarius_desk(state: &State, side: &SideId) -> anyhow::Result<serde_json::Value> {
    <Belisarius as Reported>::desk(state, side)
}

/// One engine's campaign as its reports read it.
#[derive(Debug)]
struct Read<E: Reported> {
    campaign: Box<Campaign<E>>,
    context: E::Context,
    events: Vec<Logged<E::Event>>,
}

impl<E: Reported> Read<E> {
    fn new(store: &Store, campaign: Box<Campaign<E>>, catalog: &Catalog) -> anyhow::Result<Read<E>> {
        let context = E::context(&campaign.state, catalog)?;
        let events = store.events_as::<E>(campaign.id)?;
        Ok(Read { campaign, context, events })
    }

    fn readers(&self) -> Vec<Viewer> {
        std::iter::once(Viewer::Umpire).chain(E::sides(&self.campaign.state).into_iter().map(Viewer::Side)).collect()
    }

    fn build(&self, viewer: &Viewer, commitment: Option<String>) -> anyhow::Result<Export> {
        let state = &self.campaign.state;
        let view = E::view_for(state, &self.context, &self.events, viewer).ok_or_else(|| {
            let name = E::scenario_name(state);
            match viewer {
                Viewer::Side(s) => anyhow!("{name} has no side `{s}`"),
                Viewer::Umpire => anyhow!("{name} cannot be read"),
            }
        })?;
        let charts = self.charts(viewer)?;
        let report = E::report_spec(&view, state, &self.context, charts, commitment);
        Ok(Export { report, view: serde_json::to_value(&view)? })
    }

    fn public(&self) -> anyhow::Result<serde_json::Value> {
        E::public(&self.campaign.state, &self.context)
    }

    fn desk(&self, side: &SideId) -> anyhow::Result<serde_json::Value> {
        E::desk(&self.campaign.state, side)
    }

    fn charts(&self, viewer: &Viewer) -> anyhow::Result<Vec<Chart>> {
        Ok(history::<E>(&self.events, &self.context, viewer)?.charts())
    }
}

/// Reads campaign `id` for its reports.
pub fn open(store: &Store, id: CampaignId, catalog: &Catalog) -> anyhow::Result<Opened> {
    let story = match store.load_any(id)? {
        AnyCampaign::MagnaGraecia(campaign) => Story::MagnaGraecia(Read::new(store, campaign, catalog)?),
        AnyCampaign::Belisarius(campaign) => Story::Belisarius(Read::new(store, campaign, catalog)?),
    };
    Ok(Opened { story, commitment: store.commitment(id)?.map(|c| c.digest) })
}

impl Opened {
    /// The readers of the campaign: the umpire and each side, by id.
    pub fn readers(&self) -> Vec<Viewer> {
        by_engine!(&self.story, read => read.readers())
    }

    /// The report `viewer` reads, with the view it comes from, every log line included.
    pub fn build(&self, viewer: &Viewer) -> anyhow::Result<Export> {
        by_engine!(&self.story, read => read.build(viewer, self.commitment.clone()))
    }

    /// The campaign's engine.
    pub fn engine(&self) -> referee_campaign::core::engine::EngineId {
        match &self.story {
            Story::MagnaGraecia(_) => referee_campaign::core::engine::EngineId::MagnaGraecia,
            Story::Belisarius(_) => referee_campaign::core::engine::EngineId::Belisarius,
        }
    }

    /// What every side may read besides its view: the map, and Belisarius's tables.
    pub fn public(&self) -> anyhow::Result<serde_json::Value> {
        by_engine!(&self.story, read => read.public())
    }

    /// What side `side`'s desk draws its order buttons from besides its view and the
    /// public part.
    pub fn desk(&self, side: &SideId) -> anyhow::Result<serde_json::Value> {
        by_engine!(&self.story, read => read.desk(side))
    }

    /// The commitment to the campaign's seed, if one was published.
    pub fn commitment(&self) -> Option<&str> {
        self.commitment.as_deref()
    }

    /// The charts of the campaign as `viewer` may know them.
    pub fn charts(&self, viewer: &Viewer) -> anyhow::Result<Vec<Chart>> {
        by_engine!(&self.story, read => read.charts(viewer))
    }
}

fn mark_key(id: CampaignId, viewer: &Viewer, output: Output) -> String {
    // The PDF's key is the one every mark had before the export kept its own.
    let what = match output {
        Output::Pdf => "report_mark",
        Output::Json => "export_mark",
        Output::Packet => "packet_mark",
    };
    match viewer {
        Viewer::Umpire => format!("{what}/{}/umpire", id.0),
        Viewer::Side(s) => format!("{what}/{}/side/{s}", id.0),
    }
}

/// Where a reader's last report ended: its first and last log lines, and a digest of the
/// last line's text, by which a log changed under it (orders undone and others given) is
/// told from one that only grew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    from: u64,
    to: u64,
    digest: String,
}

impl Mark {
    fn parse(text: &str) -> Option<Mark> {
        let mut parts = text.splitn(3, ':');
        let from = parts.next()?.parse().ok()?;
        let to = parts.next()?.parse().ok()?;
        Some(Mark { from, to, digest: parts.next()?.to_owned() })
    }

    fn text(&self) -> String {
        format!("{}:{}:{}", self.from, self.to, self.digest)
    }
}

/// The digest of a log line as a mark keeps it.
pub(crate) fn line_digest(line: Option<&LogLine>) -> String {
    line.map_or_else(String::new, |l| sha256_hex(&format!("{}:{}", l.seq, l.text))[..16].to_owned())
}

/// The first line of the reader's `log` a report since its last one holds.
fn from_mark(kept: Option<&Mark>, log: &[LogLine]) -> u64 {
    let last = log.last().map_or(0, |l| l.seq);
    let Some(kept) = kept else { return 1 };
    let same_line = line_digest(log.iter().find(|l| l.seq == kept.to)) == kept.digest;
    match (same_line, kept.to == last) {
        // Nothing new since: the same report again.
        (true, true) => kept.from,
        // The log grew after the last report: what came since.
        (true, false) => kept.to + 1,
        // The lines the last report ended with are gone or changed (orders undone, others
        // given): from where the last report began, so that no line is skipped.
        (false, _) => kept.from.min(last + 1).max(1),
    }
}

/// Keeps only the lines `since` asks for; returns the mark to record once the report is
/// written, when it is the reader's `output` since its last one.
pub fn keep_since(
    store: &Store,
    id: CampaignId,
    viewer: &Viewer,
    output: Output,
    export: &mut Export,
    since: Since,
) -> anyhow::Result<Option<(Output, Mark)>> {
    let (from, mark) = match since {
        Since::Line(n) => (n.max(1), None),
        Since::LastReport => {
            let kept = store.setting(&mark_key(id, viewer, output))?.as_deref().and_then(Mark::parse);
            let from = from_mark(kept.as_ref(), &export.report.log);
            let last = export.report.log.last();
            (from, Some((output, Mark { from, to: last.map_or(0, |l| l.seq), digest: line_digest(last) })))
        }
    };
    export.report.keep_log_from(from);
    Ok(mark)
}

/// Records `mark` as where the reader's last report of its output ended.
pub fn record(store: &mut Store, id: CampaignId, viewer: &Viewer, mark: Option<&(Output, Mark)>) -> anyhow::Result<()> {
    if let Some((output, mark)) = mark {
        store.set_setting(&mark_key(id, viewer, *output), Some(&mark.text()))?;
    }
    Ok(())
}

/// Writes `report` as a PDF into `folder` (made if missing).
///
/// A report already in the folder under the same name (an earlier one of the same turn, not
/// yet sent perhaps) is kept: the new one takes the name with `-2`, `-3`… added, for each
/// report covers only the log since the one before it.
pub fn write(report: &ReportSpec, paper: Paper, folder: &Path) -> anyhow::Result<WrittenFile> {
    let file = report_file(report, paper);
    std::fs::create_dir_all(folder).with_context(|| format!("cannot make the folder {}", folder.display()))?;
    let path = free_name(folder, &file.file_name);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    let mut out = options.open(&path).with_context(|| format!("cannot write {}", path.display()))?;
    std::io::Write::write_all(&mut out, &file.bytes).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(WrittenFile::of(path, &file))
}

/// `name` in `folder`, or the first of `stem-2.ext`, `stem-3.ext`… that is not there yet.
fn free_name(folder: &Path, name: &str) -> std::path::PathBuf {
    let first = folder.join(name);
    if !first.exists() {
        return first;
    }
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    (2u32..)
        .map(|n| folder.join(if ext.is_empty() { format!("{stem}-{n}") } else { format!("{stem}-{n}.{ext}") }))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

/// Every reader's report of campaign `id` since its last one, written into `folder`: the
/// umpire's first, then each side's.
pub fn write_all(store: &mut Store, id: CampaignId, catalog: &Catalog, paper: Paper, folder: &Path) -> anyhow::Result<Vec<WrittenFile>> {
    let opened = open(store, id, catalog)?;
    let mut written = Vec::new();
    for viewer in opened.readers() {
        let mut export = opened.build(&viewer)?;
        let mark = keep_since(store, id, &viewer, Output::Pdf, &mut export, Since::LastReport)?;
        written.push(write(&export.report, paper, folder)?);
        record(store, id, &viewer, mark.as_ref())?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(lines: &[&str]) -> Vec<LogLine> {
        lines.iter().zip(1..).map(|(t, seq)| LogLine { seq, text: (*t).to_owned() }).collect()
    }

    fn mark_after(log: &[LogLine], from: u64) -> Mark {
        let last = log.last();
        Mark { from, to: last.map_or(0, |l| l.seq), digest: line_digest(last) }
    }

    /// a report starts after the last one, repeats it while nothing is new, and where
    /// the lines it ended with were undone and replaced, goes back to where it began rather
    /// than skip a line.
    #[test]
    fn x_04_a_report_starts_after_the_last_one_and_never_skips_a_line() {
        let first = log(&["a", "b", "c", "d"]);
        assert_eq!(from_mark(None, &first), 1);
        let mark = mark_after(&first, 1);
        assert_eq!(from_mark(Some(&mark), &first), 1, "the same report again");
        let grown = log(&["a", "b", "c", "d", "e", "f"]);
        assert_eq!(from_mark(Some(&mark), &grown), 5);
        // d undone, then e', f', g' given: line 4 now reads otherwise.
        let redone = log(&["a", "b", "c", "e'", "f'", "g'"]);
        assert_eq!(from_mark(Some(&mark), &redone), 1, "back to where the last report began");
        let later = mark_after(&grown, 5);
        let shorter = log(&["a", "b", "c"]);
        assert_eq!(from_mark(Some(&later), &shorter), 4);
        assert_eq!(Mark::parse(&later.text()), Some(later));
        assert_eq!(Mark::parse("garbage"), None);
    }
}
