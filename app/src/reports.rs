//! Turn reports for the command line and the window alike: each reader's report built
//! from that reader's view of a campaign of either engine, the log lines since the reader's
//! last report, and the file written.
//!
//! Where each reader's last report ended is kept in the database's settings, per campaign
//! and reader, as the first and last log line it held. Writing the same report again before
//! anything new happens (the JSON after the PDF, a second copy) gives the same lines.

use std::path::Path;

use anyhow::{Context, anyhow};
use referee_battle_gen::Paper;
use referee_battle_gen::pack::WrittenFile;
use referee_battle_gen::report::{ReportSpec, report_file};
use referee_campaign::any::AnyCampaign;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::core::history::{Chart, history};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use referee_campaign::{CampaignId, Catalog, Store};
use serde::Serialize;

/// Which log lines a report holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Since {
    /// Those after the reader's last report, which the report then becomes.
    LastReport,
    /// From this line of the reader's log on; the mark of the last report is left alone.
    Line(u64),
}

/// A report and the view it was built from, as `referee export` writes it for play by
/// e-mail: the report's content, and the view with the ids an order names.
#[derive(Debug, Serialize)]
pub struct Export {
    pub report: ReportSpec,
    pub view: serde_json::Value,
}

/// The readers of a campaign: the umpire and each side, by id.
pub fn readers(store: &Store, id: CampaignId) -> anyhow::Result<Vec<Viewer>> {
    let sides: Vec<referee_campaign::SideId> = match store.load_any(id)? {
        AnyCampaign::MagnaGraecia(c) => c.state.scenario.move_order.clone(),
        AnyCampaign::Belisarius(c) => c.state.setup.sides.iter().map(|s| s.id.clone()).collect(),
    };
    Ok(std::iter::once(Viewer::Umpire).chain(sides.into_iter().map(Viewer::Side)).collect())
}

/// The report `viewer` reads of campaign `id`, with the view it comes from, every log line
/// included.
pub fn build(store: &Store, id: CampaignId, catalog: &Catalog, viewer: &Viewer) -> anyhow::Result<Export> {
    let commitment = store.commitment(id)?.map(|c| c.digest);
    let no_side = |name: &str| match viewer {
        Viewer::Side(s) => anyhow!("{name} has no side `{s}`"),
        Viewer::Umpire => anyhow!("{name} cannot be read"),
    };
    match store.load_any(id)? {
        AnyCampaign::MagnaGraecia(c) => {
            let map = c.state.map(catalog.map(&c.state.scenario.map)).map_err(|e| anyhow!(e))?.clone();
            let events = store.events(id)?;
            let view = referee_campaign::view::view_for(&c.state, &map, &events, viewer).ok_or_else(|| no_side(&c.state.scenario.name))?;
            let charts = history::<MagnaGraecia>(&events, &map, viewer).map(|h| h.charts()).unwrap_or_default();
            let report = referee_battle_gen::report::magna_graecia::report_spec(&view, &map, charts, commitment);
            Ok(Export { report, view: serde_json::to_value(&view)? })
        }
        AnyCampaign::Belisarius(c) => {
            let events = store.events_as::<Belisarius>(id)?;
            let view =
                referee_campaign::belisarius::view::view_for(&c.state, &events, viewer).ok_or_else(|| no_side(c.state.setup.name()))?;
            let charts = history::<Belisarius>(&events, &(), viewer).map(|h| h.charts()).unwrap_or_default();
            let report = referee_battle_gen::report::belisarius::report_spec(&view, &c.state.setup.map, charts, commitment);
            Ok(Export { report, view: serde_json::to_value(&view)? })
        }
    }
}

/// The charts of campaign `id` as `viewer` may know them.
pub fn charts(store: &Store, id: CampaignId, catalog: &Catalog, viewer: &Viewer) -> anyhow::Result<Vec<Chart>> {
    Ok(build(store, id, catalog, viewer)?.report.charts)
}

fn mark_key(id: CampaignId, viewer: &Viewer) -> String {
    match viewer {
        Viewer::Umpire => format!("report_mark/{}/umpire", id.0),
        Viewer::Side(s) => format!("report_mark/{}/side/{s}", id.0),
    }
}

/// The first line of the reader's log a report since its last one holds, `last` being the
/// last line there is now; and the mark to keep for it.
fn from_mark(kept: Option<(u64, u64)>, last: u64) -> u64 {
    match kept {
        None => 1,
        // Nothing new since: the same report again.
        Some((from, to)) if to == last => from,
        Some((_, to)) if to < last => to + 1,
        // Orders were undone since: go back as far as the log now reaches.
        Some((from, _)) => from.min(last + 1),
    }
}

/// Keeps only the lines `since` asks for, recording the report as the reader's last where
/// it is one.
pub fn keep_since(store: &mut Store, id: CampaignId, viewer: &Viewer, export: &mut Export, since: Since) -> anyhow::Result<()> {
    let last = export.report.log.last().map_or(0, |l| l.seq);
    let from = match since {
        Since::Line(n) => n.max(1),
        Since::LastReport => {
            let key = mark_key(id, viewer);
            let kept = store.setting(&key)?.and_then(|v| {
                let (a, b) = v.split_once(':')?;
                Some((a.parse().ok()?, b.parse().ok()?))
            });
            let from = from_mark(kept, last);
            store.set_setting(&key, Some(&format!("{from}:{last}")))?;
            from
        }
    };
    export.report.keep_log_from(from);
    Ok(())
}

/// Writes `report` as a PDF into `folder` (made if missing).
pub fn write(report: &ReportSpec, paper: Paper, folder: &Path) -> anyhow::Result<WrittenFile> {
    let file = report_file(report, paper);
    std::fs::create_dir_all(folder).with_context(|| format!("cannot make the folder {}", folder.display()))?;
    let path = folder.join(&file.file_name);
    std::fs::write(&path, &file.bytes).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(WrittenFile::of(path, &file))
}

/// Every reader's report of campaign `id` since its last one, written into `folder`: the
/// umpire's first, then each side's.
pub fn write_all(store: &mut Store, id: CampaignId, catalog: &Catalog, paper: Paper, folder: &Path) -> anyhow::Result<Vec<WrittenFile>> {
    let mut written = Vec::new();
    for viewer in readers(store, id)? {
        let mut export = build(store, id, catalog, &viewer)?;
        keep_since(store, id, &viewer, &mut export, Since::LastReport)?;
        written.push(write(&export.report, paper, folder)?);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::from_mark;

    #[test]
    fn a_report_starts_after_the_last_one_or_repeats_it() {
        assert_eq!(from_mark(None, 40), 1);
        assert_eq!(from_mark(Some((1, 40)), 40), 1, "the same report again");
        assert_eq!(from_mark(Some((1, 40)), 55), 41);
        assert_eq!(from_mark(Some((41, 55)), 50), 41, "orders undone since");
        assert_eq!(from_mark(Some((41, 55)), 30), 31);
    }
}
