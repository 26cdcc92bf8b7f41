//! Turn reports: a side's situation on paper, and the umpire's with every side and
//! the campaign's charts.
//!
//! Like a battle pack, a report is drawn from an engine-neutral description, a
//! [`ReportSpec`], which each campaign's adapter ([`magna_graecia`], [`belisarius`]) builds
//! from one viewer's view and nothing else: the side's map with its own forces named and the
//! others as they are seen across the table, its forces, the log lines it may read since
//! its last report, what is coming, victory as far as it may know it, and its charts. The
//! same spec is what `referee export` writes as JSON for play by e-mail.

pub mod belisarius;
pub mod magna_graecia;
pub mod sketch;

use referee_campaign::core::history::Chart;
use referee_campaign::core::viewer::LogLine;
use referee_campaign::ids::SideId;
use serde::{Deserialize, Serialize};

use crate::Paper;
use crate::layout::{Column, Flow, MARGIN, col, num};
use crate::pack::{PackFile, Reader};
use crate::pdf::{Document, Face, Ink, Page};

/// A point on the campaign map, in kilometres east and south of its corner.
pub type Km = [f32; 2];

/// A side as the report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSide {
    pub id: SideId,
    pub name: String,
}

/// Who a report is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportReader {
    /// The side, or `None` for the umpire.
    pub side: Option<SideId>,
    /// "Carthage", "the umpire".
    pub name: String,
}

/// The campaign map as one reader may see it, in kilometres.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Sketch {
    pub width_km: f32,
    pub height_km: f32,
    /// Land outlines drawn under everything (Magna Graecia's island).
    pub land: Vec<Vec<Km>>,
    /// Regions shaded by who holds them (Belisarius's zones).
    pub areas: Vec<SketchArea>,
    /// Roads or paths between places.
    pub links: Vec<[Km; 2]>,
    pub places: Vec<SketchPlace>,
    pub pieces: Vec<SketchPiece>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SketchArea {
    pub outline: Vec<Km>,
    /// Index into [`ReportSpec::sides`] of who holds it.
    pub held_by: Option<usize>,
    pub label: String,
    pub label_at: Km,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SketchPlace {
    pub at: Km,
    pub label: String,
    /// Index into [`ReportSpec::sides`] of who holds it.
    pub held_by: Option<usize>,
    /// Walled: drawn as a square rather than a dot.
    pub city: bool,
}

/// A counter or marker on the map: the reader's own named, the others only as what
/// anyone sees of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SketchPiece {
    pub at: Km,
    /// Index into [`ReportSpec::sides`].
    pub side: usize,
    /// "Hanno", "fleet", "command", "marker".
    pub text: String,
    /// Index into [`Sketch::areas`] of the zone or sea it stands in: its box stays inside
    /// that outline.
    #[serde(default)]
    pub area: Option<usize>,
    /// A fleet or a sea marker: drawn as a circle.
    #[serde(default)]
    pub naval: bool,
    /// Another side's face-down marker: drawn without a name.
    #[serde(default)]
    pub face_down: bool,
}

/// A titled table of the report: forces, victory points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportTable {
    pub heading: String,
    pub columns: Vec<String>,
    /// Columns set right-aligned, as figures.
    pub figures: Vec<bool>,
    pub rows: Vec<Vec<String>>,
    /// Lines under the table.
    pub notes: Vec<String>,
}

/// Everything a turn report holds, for one reader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSpec {
    pub campaign: String,
    pub scenario: String,
    pub turn: u32,
    /// "turn 3 of 10, Carthage to move (movement)", "spring 535, turn 2 of 16".
    pub when: String,
    pub reader: ReportReader,
    pub sides: Vec<ReportSide>,
    /// The SHA-256 commitment to the dice seed published when the campaign began.
    pub commitment: Option<String>,
    /// A note on the map, e.g. that it is a reconstruction.
    pub map_note: Option<String>,
    pub sketch: Sketch,
    pub forces: Vec<ReportTable>,
    /// Battles, sieges and other things coming, one line each.
    pub coming: Vec<String>,
    pub victory: Option<ReportTable>,
    /// The first log line this report holds, in the reader's numbering.
    pub log_from: u64,
    pub log: Vec<LogLine>,
    pub charts: Vec<Chart>,
}

impl ReportSpec {
    /// The file the report is written to, named for the campaign so that two campaigns'
    /// reports can share a folder: `dionysius-turn-03-carthage.pdf`, `…-turn-03-umpire.pdf`.
    pub fn file_name(&self, extension: &str) -> String {
        format!("{}.{extension}", self.file_stem())
    }

    /// The file name without its extension: `dionysius-turn-03-side-carthage`.
    pub fn file_stem(&self) -> String {
        let slug = |text: &str| -> String {
            let s: String = text.chars().map(|c| if c.is_alphanumeric() { c.to_lowercase().next().unwrap_or(c) } else { '-' }).collect();
            s.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-")
        };
        // A side is named by its id, which no other side of the campaign has; the umpire's
        // file by a word no id is (ids are the scenario's, lower case).
        let who = self.reader.side.as_ref().map_or_else(|| "umpire".to_owned(), |s| format!("side-{}", slug(s.as_str())));
        format!("{}-turn-{:02}-{who}", slug(&self.campaign), self.turn)
    }

    fn footer(&self, what: &str) -> String {
        format!("{}, turn {} — {what} — for {}", self.campaign, self.turn, self.reader.name)
    }

    fn side_name(&self, side: Option<&SideId>) -> String {
        match side {
            None => "the campaign".to_owned(),
            Some(id) => self.sides.iter().find(|s| &s.id == id).map_or_else(|| id.to_string(), |s| s.name.clone()),
        }
    }

    /// The log lines after `from`, in the reader's numbering: the lines since the last report.
    pub fn keep_log_from(&mut self, from: u64) {
        self.log_from = from;
        self.log.retain(|l| l.seq >= from);
    }
}

/// Shades of the sides' places and pieces, in side order: far enough apart to tell on a
/// black-and-white printout, each with the name the key gives it. No campaign has more
/// than four sides.
const SIDE_INK: [f32; 4] = [0.85, 0.5, 0.25, 0.68];
const SIDE_INK_NAMES: [&str; 4] = ["black", "mid grey", "light grey", "dark grey"];
/// Lighter shades for the zones a side holds, so that names on them stay legible.
const AREA_INK: [f32; 4] = [0.30, 0.14, 0.05, 0.22];

fn side_ink(i: usize) -> Ink {
    Ink(SIDE_INK[i % SIDE_INK.len()])
}

/// The report as a PDF.
pub fn report_file(spec: &ReportSpec, paper: Paper) -> PackFile {
    let mut doc = Document::new(&format!("{}, turn {}: report for {}", spec.campaign, spec.turn, spec.reader.name), paper);
    let mut map_page = None;
    {
        let mut flow = Flow::new(&mut doc, spec.footer("situation"));
        let only = match &spec.reader.side {
            Some(_) => format!("For {} player only.", referee_campaign::core::words::possessive(&spec.reader.name)),
            None => "For the umpire only: every side's secrets.".to_owned(),
        };
        flow.title(
            &format!("Turn {} report for {}", spec.turn, spec.reader.name),
            &format!("{}, {}: {}. {only}", spec.campaign, spec.scenario, spec.when),
        );
        if let Some(c) = &spec.commitment {
            // In a fixed-width face on a line of its own: in the proportional face the
            // digest's width, and so where the lines around it break, would follow the seed.
            flow.field("Dice commitment: ", "the SHA-256 of the dice seed, published when the campaign began.");
            flow.mono(c);
            flow.para("The referee reveals the seed later; `referee verify` then checks every seeded roll against it.");
        }
        flow.heading("The map");
        match map_layout(spec, paper) {
            (MapPlace::InFlow, layout) => {
                flow.drawing(layout.height + 4.0, |page, x, y, _| draw_map(page, x, y, spec, &layout));
                flow.field("Key: ", &key(spec, &layout));
                if let Some(note) = &spec.map_note {
                    flow.para(note);
                }
            }
            (MapPlace::OwnPage { paper: sheet_paper, landscape }, layout) => {
                // Too crowded for the text's width: the map gets a page of its own after this one.
                flow.para(&format!(
                    "The map has a page of its own, the next one, on {} paper for room; printed on smaller paper it shrinks to fit.",
                    paper_name(sheet_paper)
                ));
                map_page = Some((flow.page_index() + 1, sheet_paper, landscape, layout));
            }
        }
        for t in &spec.forces {
            report_table(&mut flow, t);
        }
        flow.heading("Coming");
        if spec.coming.is_empty() {
            flow.para("Nothing is coming: no battle, siege or losses are due, nothing waits to be placed.");
        } else {
            flow.bullets(&spec.coming);
        }
        if let Some(v) = &spec.victory {
            report_table(&mut flow, v);
        }
        flow.set_footer(spec.footer("log"));
        flow.heading(&if spec.log_from > 1 { format!("The log from line {}", spec.log_from) } else { "The log".to_owned() });
        if spec.log.is_empty() {
            flow.para(&if spec.log_from > 1 {
                format!("Nothing in the log from line {} on: nothing new since the last report.", spec.log_from)
            } else {
                "Nothing in the log yet.".to_owned()
            });
        } else {
            let rows: Vec<Vec<String>> = spec.log.iter().map(|l| vec![l.seq.to_string(), l.text.clone()]).collect();
            flow.table(&[num("No.", 0.08), col("What happened", 0.92)], &rows);
        }
        if !spec.charts.is_empty() {
            flow.set_footer(spec.footer("charts"));
            flow.heading("Charts");
            flow.para(match &spec.reader.side {
                Some(_) => "Turn by turn: your own forces, and what every side can see on the map.",
                None => "Turn by turn, every side: turn 0 is the start.",
            });
            // Two charts to a row, half a page each.
            for pair in spec.charts.chunks(2) {
                flow.drawing(66.0, |page, x, y, w| {
                    let half = (w - 8.0) / 2.0;
                    for (i, chart) in pair.iter().enumerate() {
                        let names: Vec<String> = chart.series.iter().map(|s| spec.side_name(s.side.as_ref())).collect();
                        let left = x + (half + 8.0) * i as f32;
                        draw_chart(page, left, y, half, 60.0, chart, &names);
                    }
                });
            }
        }
        flow.finish();
    }
    if let Some((index, sheet_paper, landscape, layout)) = map_page {
        let page = map_sheet(&doc, spec, sheet_paper, landscape, &layout);
        doc.insert(index, page);
    }
    let reader = spec.reader.side.clone().map_or(Reader::Umpire, Reader::Side);
    PackFile::new(doc, spec.file_name("pdf"), reader)
}

fn shade_name(i: usize) -> &'static str {
    SIDE_INK_NAMES[i % SIDE_INK_NAMES.len()]
}

fn report_table(flow: &mut Flow<'_>, t: &ReportTable) {
    flow.heading(&t.heading);
    if t.rows.is_empty() {
        flow.para("None.");
    } else {
        // Each column as wide as its longest cell asks, within bounds, so that a make-up of
        // twenty elements gets the room and a figure does not.
        let weights: Vec<f32> = t
            .columns
            .iter()
            .enumerate()
            .map(|(i, title)| {
                let longest = t.rows.iter().filter_map(|r| r.get(i)).map(|c| c.chars().count()).max().unwrap_or(0);
                let longest = longest.max(title.chars().count()).clamp(6, 48);
                f32::from(u8::try_from(longest).unwrap_or(48))
            })
            .collect();
        let columns: Vec<Column<'_>> = t
            .columns
            .iter()
            .zip(&weights)
            .enumerate()
            .map(|(i, (c, &w))| if t.figures.get(i).copied().unwrap_or(false) { num(c, w) } else { col(c, w) })
            .collect();
        flow.table(&columns, &t.rows);
    }
    for n in &t.notes {
        flow.para(n);
    }
}

/// The scale, in mm to the kilometre, at which `sketch` fills a box `w` by at most `h` mm.
fn fit_scale(sketch: &Sketch, w: f32, h: f32) -> f32 {
    (w / sketch.width_km.max(1.0)).min(h / sketch.height_km.max(1.0))
}

fn paper_name(paper: Paper) -> &'static str {
    match paper {
        Paper::A4 => "A4",
        Paper::Letter => "Letter",
        Paper::A3 => "A3",
    }
}

/// The paper a crowded map is printed on: A3, the larger sheet every copy shop has.
fn larger(_paper: Paper) -> Paper {
    Paper::A3
}

/// The map laid out as the report prints it: in the flow of the text on `paper` when it has
/// room there, or else on a page of its own of the larger paper — where it is printed, and
/// the layout with its corner at (0, 0).
pub fn map_layout(spec: &ReportSpec, paper: Paper) -> (MapPlace, sketch::MapLayout) {
    let named = |i: usize| spec.sketch.pieces.get(i).is_some_and(|p| !p.face_down);
    let in_flow = sketch::lay_out(&spec.sketch, fit_scale(&spec.sketch, paper.size_mm().0 - 2.0 * MARGIN, 185.0), 1.0, &named);
    if !in_flow.crowded() {
        return (MapPlace::InFlow, in_flow);
    }
    let sheet = larger(paper);
    let scale_for = |landscape: bool| {
        let (w, h) = sheet.size_mm();
        let (w, h) = if landscape { (h, w) } else { (w, h) };
        fit_scale(&spec.sketch, w - 2.0 * MARGIN, h - SHEET_MAP_TOP - SHEET_KEY - MARGIN)
    };
    let landscape = scale_for(true) > scale_for(false);
    (MapPlace::OwnPage { paper: sheet, landscape }, sketch::lay_out(&spec.sketch, scale_for(landscape), SHEET_UNIT, &named))
}

/// Where the map is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapPlace {
    InFlow,
    OwnPage { paper: Paper, landscape: bool },
}

/// How much larger names and counters are on a map's own page than in the text's flow.
const SHEET_UNIT: f32 = 1.2;
/// Where the map starts on its own page, under its heading, and the room kept under it for
/// the key, the notes and the page's foot.
pub const SHEET_MAP_TOP: f32 = MARGIN + 14.0;
const SHEET_KEY: f32 = 48.0;

/// The map laid out in `layout` on a page of its own of `paper`: a heading, the map, and the
/// key under it.
fn map_sheet(doc: &Document, spec: &ReportSpec, paper: Paper, landscape: bool, layout: &sketch::MapLayout) -> Page {
    let mut page = doc.page_on(paper, landscape);
    let width = page.width - 2.0 * MARGIN;
    page.text(MARGIN, MARGIN + 6.0, 13.0, Face::Bold, &format!("The map, turn {}, for {}", spec.turn, spec.reader.name));
    page.line(&[(MARGIN, MARGIN + 7.5), (MARGIN + width, MARGIN + 7.5)], Ink(0.4), 0.25, None);
    draw_map(&mut page, MARGIN, SHEET_MAP_TOP, spec, layout);
    let mut y = SHEET_MAP_TOP + layout.height + 6.0;
    y = page.paragraph(MARGIN, y, width, 9.0, Face::Regular, &format!("Key: {}", key(spec, layout)));
    if let Some(note) = &spec.map_note {
        page.paragraph(MARGIN, y + 1.0, width, 9.0, Face::Regular, note);
    }
    page.footer = Some(spec.footer("map"));
    page
}

/// What the map's shades and shapes mean, and what was left off it for room.
fn key(spec: &ReportSpec, layout: &sketch::MapLayout) -> String {
    let sides: Vec<String> = spec.sides.iter().enumerate().map(|(i, s)| format!("{} ({})", s.name, shade_name(i))).collect();
    let mut out = format!("{}. ", sides.join("; "));
    out.push_str(if spec.sketch.areas.is_empty() {
        "Squares are walled cities and dots other places; small squares are commands and small circles fleets, the reader's own named."
    } else {
        "Squares are walled cities; small squares are land markers and small circles sea markers, the reader's own named. Markers beside a city's square, or tied to it by a thin line, are inside its walls; the others stand in the zone's open country or at sea."
    });
    if !layout.left_off.is_empty() {
        out.push_str(&format!(" Names left off for room: {}.", layout.left_off.join(", ")));
    }
    if layout.unnamed > 0 {
        let table = if spec.sketch.areas.is_empty() { "forces table" } else { "Table of Organisation" };
        out.push_str(&format!(" Some of the reader's own counters are not named for room: the {table} says where each stands."));
    }
    out
}

/// The map laid out in `layout`, its corner at (x, y).
fn draw_map(page: &mut Page, x: f32, y: f32, spec: &ReportSpec, layout: &sketch::MapLayout) {
    let s = &spec.sketch;
    let scale = layout.scale;
    let at = |p: Km| (x + p[0] * scale, y + p[1] * scale);
    let moved = |pts: &[(f32, f32)]| -> Vec<(f32, f32)> { pts.iter().map(|&(px, py)| (x + px, y + py)).collect() };
    page.rect(x, y, layout.width, layout.height, None, Some((Ink(0.5), 0.2)));
    for land in &s.land {
        let pts: Vec<(f32, f32)> = land.iter().map(|&p| at(p)).collect();
        page.polygon(&pts, Some(Ink(0.04)), Some((Ink(0.6), 0.25, None)));
    }
    for (a, outline) in s.areas.iter().zip(&layout.outlines) {
        let fill = a.held_by.map_or(Ink(0.0), |i| Ink(AREA_INK[i % AREA_INK.len()]));
        page.polygon(&moved(outline), Some(fill), Some((Ink(0.55), 0.15, None)));
    }
    for [a, b] in &s.links {
        page.line(&[at(*a), at(*b)], Ink(0.45), 0.2, None);
    }
    for tie in &layout.ties {
        page.line(&moved(tie), Ink(0.8), 0.15, None);
    }
    for (p, r) in s.places.iter().zip(&layout.symbols) {
        let fill = p.held_by.map_or(Ink::WHITE, side_ink);
        if p.city {
            page.rect(x + r.x, y + r.y, r.w, r.h, Some(fill), Some((Ink::BLACK, 0.25)));
        } else {
            let (cx, cy) = r.centre();
            page.circle(x + cx, y + cy, r.w / 2.0, Some(fill), Some((Ink::BLACK, 0.2)));
        }
    }
    for m in &layout.markers {
        let Some(piece) = s.pieces.get(m.piece) else { continue };
        let r = m.rect;
        if piece.naval {
            let (cx, cy) = r.centre();
            page.circle(x + cx, y + cy, r.w / 2.0, Some(side_ink(piece.side)), Some((Ink::BLACK, 0.15)));
        } else {
            page.rect(x + r.x, y + r.y, r.w, r.h, Some(side_ink(piece.side)), Some((Ink::BLACK, 0.15)));
        }
    }
    for l in &layout.labels {
        for (text, lx, ly) in &l.lines {
            page.text(x + lx, y + ly, l.size, Face::Regular, text);
        }
    }
}

/// A line chart of one measure, each series in its own shade and dash, with a key.
pub fn draw_chart(page: &mut Page, x: f32, y: f32, w: f32, h: f32, chart: &Chart, names: &[String]) {
    const DASHES: [Option<&[f32]>; 4] = [None, Some(&[1.6, 0.9]), Some(&[0.4, 0.7]), Some(&[2.5, 0.8, 0.5, 0.8])];
    page.text(x, y + 3.0, 9.5, Face::Bold, &format!("{} ({})", chart.title, chart.unit));
    let (left, top, right, bottom) = (x + 10.0, y + 6.0, x + w - 2.0, y + h - 11.0);
    let points = chart.series.iter().flat_map(|s| s.points.iter());
    let (mut last_turn, mut top_value) = (1u32, 0.0f64);
    for &(t, v) in points {
        last_turn = last_turn.max(t);
        top_value = top_value.max(v);
    }
    let step = nice_step(top_value);
    let ticks = (top_value / step).ceil().max(1.0);
    let y_max = ticks * step;
    let px = |t: u32| left + (right - left) * (t as f32 / last_turn as f32);
    #[allow(clippy::cast_possible_truncation, reason = "a chart's values are small counts, drawn in millimetres")]
    let py = |v: f64| bottom - (bottom - top) * (v / y_max) as f32;
    page.rect(left, top, right - left, bottom - top, None, Some((Ink(0.5), 0.2)));
    let mut k = 0.0;
    while k <= ticks {
        let v = k * step;
        let gy = py(v);
        page.line(&[(left, gy), (right, gy)], Ink(0.15), 0.1, None);
        page.text_right(left - 1.0, gy + 1.0, 6.5, Face::Regular, &format_value(v));
        k += 1.0;
    }
    let every = last_turn.div_ceil(12).max(1);
    for t in (0..=last_turn).step_by(every as usize) {
        page.text_centred(px(t), bottom + 3.5, 6.5, Face::Regular, &if t == 0 { "start".to_owned() } else { t.to_string() });
    }
    page.text_right(right, bottom + 8.5, 6.5, Face::Regular, "turn");
    for (i, series) in chart.series.iter().enumerate() {
        let ink = Ink(if chart.series.len() == 1 { 1.0 } else { SIDE_INK[i % SIDE_INK.len()].max(0.35) });
        let pts: Vec<(f32, f32)> = series.points.iter().map(|&(t, v)| (px(t), py(v))).collect();
        page.line(&pts, ink, 0.45, DASHES[i % DASHES.len()]);
        for &(cx, cy) in &pts {
            page.circle(cx, cy, 0.45, Some(ink), None);
        }
    }
    // The key under the axis, a sample of each line and its name, side by side.
    let mut kx = left;
    let ky = bottom + 8.5;
    for (i, name) in names.iter().enumerate().take(chart.series.len()) {
        let ink = Ink(if chart.series.len() == 1 { 1.0 } else { SIDE_INK[i % SIDE_INK.len()].max(0.35) });
        page.line(&[(kx, ky - 0.8), (kx + 6.0, ky - 0.8)], ink, 0.45, DASHES[i % DASHES.len()]);
        page.text(kx + 7.0, ky, 6.5, Face::Regular, name);
        kx += 10.0 + page.text_width(name, 6.5, Face::Regular);
    }
}

/// A round step for a value axis reaching `max`: 1, 2 or 5 times a power of ten, about five
/// steps in all.
fn nice_step(max: f64) -> f64 {
    if max <= 5.0 {
        return 1.0;
    }
    let raw = max / 5.0;
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power)
}

fn format_value(v: f64) -> String {
    if v.fract() == 0.0 { format!("{v:.0}") } else { format!("{v:.1}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_steps_are_round() {
        assert_eq!(nice_step(3.0), 1.0);
        assert_eq!(nice_step(12.0), 5.0);
        assert_eq!(nice_step(48.0), 10.0);
        assert_eq!(nice_step(230.0), 50.0);
        assert_eq!(format_value(2.5), "2.5");
        assert_eq!(format_value(40.0), "40");
    }
}
