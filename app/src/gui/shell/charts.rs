//! The Charts window: the campaign turn by turn — victory points, strength, losses,
//! what each side holds, battles and sieges — as the viewer on screen may know it. A side's
//! charts come from its own view at the end of each turn, so they hold its own strength
//! and losses and the public counts only.
//!
//! Also the Turn reports window: every reader's report written with one click, the files
//! listed, and the folder opened.

use egui::{Color32, RichText};
use egui_plot::{Line, LineStyle, MarkerShape, Plot, Points, log_grid_spacer, uniform_grid_spacer};
use referee_campaign::core::history::Chart;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::store::Store;
use referee_campaign::{CampaignId, SideId, magna_graecia::catalog::Catalog};

use crate::gui::engine::CampaignDesk;
use crate::gui::shell::command::AppCommand;
use crate::gui::widgets::packs::{PackSettings, WrittenFile, files_grid_ui};
use crate::gui::widgets::words;

/// The charts on screen, and the viewer and log length they were made for: made again when
/// either changes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ChartsForm {
    pub viewer: Viewer,
    pub log_lines: usize,
    pub charts: Result<Vec<Chart>, String>,
}

/// The Charts and Turn reports windows, while they are open, and the turn they follow.
#[derive(Debug, Default)]
pub(crate) struct TurnWindows {
    pub charts: Option<ChartsForm>,
    pub reports: Option<ReportsForm>,
    /// The campaign and turn last drawn: a turn's end opens the Turn reports window.
    turn_seen: Option<(CampaignId, u32)>,
    /// A turn that ended while a side's view was on screen: its reports are offered once the
    /// referee has the screen back.
    turn_over: Option<u32>,
}

impl TurnWindows {
    /// Makes the Charts window's charts again, for the viewer on screen and the log as it
    /// stands.
    pub fn refresh_charts(&mut self, store: &Store, catalog: &Catalog, desk: &dyn CampaignDesk) {
        let (id, viewer, log_lines) = (desk.campaign_id(), desk.viewer().clone(), desk.log().lines.len());
        let charts = crate::reports::open(store, id, catalog).and_then(|o| o.charts(&viewer)).map_err(|e| e.to_string());
        self.charts = Some(ChartsForm { viewer, log_lines, charts });
    }

    /// Writes every reader's turn report of campaign `id` into the settings' folder, and
    /// shows what was written or why not; whether it was.
    pub fn write_reports(&mut self, store: &mut Store, catalog: &Catalog, id: CampaignId, settings: &PackSettings) -> bool {
        let written = settings
            .folder()
            .and_then(|dir| crate::reports::write_all(store, id, catalog, settings.paper, &dir).map_err(|e| e.to_string()));
        let ok = written.is_ok();
        let form = self.reports.get_or_insert_with(|| ReportsForm { turn_over: None, folder: settings.folder.clone(), written: None });
        form.written = Some(written);
        ok
    }

    /// Opens the Turn reports window when the campaign on screen has moved on to another
    /// turn — at once in the umpire's view, or when the referee takes the screen back from a
    /// side — offering `folder`; refreshes the open Charts window when the log or the viewer
    /// changed.
    pub fn follow(&mut self, store: &Store, catalog: &Catalog, desk: &dyn CampaignDesk, folder: &str) {
        let now = (desk.campaign_id(), desk.turn());
        if let Some((id, turn)) = self.turn_seen
            && id == now.0
            && now.1 > turn
        {
            self.turn_over = Some(turn);
        }
        self.turn_seen = Some(now);
        if matches!(desk.viewer(), Viewer::Umpire)
            && let Some(turn) = self.turn_over.take()
            && self.reports.is_none()
        {
            self.reports = Some(ReportsForm { turn_over: Some(turn), folder: folder.to_owned(), written: None });
        }
        let stale = self.charts.as_ref().is_some_and(|c| &c.viewer != desk.viewer() || c.log_lines != desk.log().lines.len());
        if stale {
            self.refresh_charts(store, catalog, desk);
        }
    }

    /// Closes both windows and forgets a turn over, for another campaign.
    pub fn close(&mut self) {
        self.charts = None;
        self.reports = None;
        self.turn_over = None;
    }
}

/// How a side's series is told apart without its colour (in greyscale, or for colour-blind
/// eyes), as the map tells its sides apart by their patterns: by its points' shape, in the
/// campaign's order of sides.
const SHAPES: [MarkerShape; 5] = [MarkerShape::Circle, MarkerShape::Square, MarkerShape::Diamond, MarkerShape::Up, MarkerShape::Cross];

/// How one series is drawn: the map's colour of its side and a shape of its own; a wider
/// line for the sides listed first, so two sides' equal lines (0 VP each) both show.
#[derive(Debug, Clone, Copy)]
struct Pen {
    colour: Color32,
    shape: MarkerShape,
    width: f32,
}

fn pen(sides: &[(SideId, String)], colours: &[Color32], side: Option<&SideId>) -> Pen {
    let index = side.and_then(|s| sides.iter().position(|(id, _)| id == s));
    match index {
        Some(i) => Pen {
            colour: colours.get(i).copied().unwrap_or(Color32::GRAY),
            shape: SHAPES[i % SHAPES.len()],
            width: 2.0 + 2.5 * (sides.len().saturating_sub(i + 1)) as f32,
        },
        None => Pen { colour: Color32::GRAY, shape: MarkerShape::Asterisk, width: 2.0 },
    }
}

pub(crate) fn charts_window_ui(
    ctx: &egui::Context,
    form: &ChartsForm,
    sides: &[(SideId, String)],
    colours: &[Color32],
    queue: &mut Vec<AppCommand>,
) {
    let mut open = true;
    egui::Window::new("Charts").open(&mut open).default_width(760.0).default_height(560.0).show(ctx, |ui| {
        let charts = match &form.charts {
            Ok(c) => c,
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
                return;
            }
        };
        ui.label(match &form.viewer {
            Viewer::Umpire => "Turn by turn, every side. Turn 0 is the start; the last point is the turn under way.".to_owned(),
            Viewer::Side(s) => {
                format!("Turn by turn, as {} may know it: its own forces, and what everyone sees on the map.", words::side_name(sides, s))
            }
        });
        if charts.is_empty() {
            ui.label(RichText::new("Nothing to chart yet.").weak());
            return;
        }
        // One key for every chart: a side's colour is the same in each, so no legend covers a
        // line.
        ui.horizontal_wrapped(|ui| {
            let mut shown: Vec<Option<&SideId>> = Vec::new();
            for series in charts.iter().flat_map(|c| &c.series) {
                if shown.contains(&series.side.as_ref()) {
                    continue;
                }
                shown.push(series.side.as_ref());
                let pen = pen(sides, colours, series.side.as_ref());
                shape_mark(ui, pen);
                ui.label(series_name(sides, series.side.as_ref()));
                ui.add_space(10.0);
            }
        });
        // Every chart over the same turns, from the start to the turn under way (at least 1).
        let last_turn = charts.iter().flat_map(|c| c.series.iter().flat_map(|s| s.points.iter().map(|p| p.0))).max().unwrap_or(0).max(1);
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("charts").num_columns(2).spacing([16.0, 12.0]).show(ui, |ui| {
                for (i, chart) in charts.iter().enumerate() {
                    ui.vertical(|ui| {
                        ui.label(RichText::new(format!("{} ({})", chart.title, chart.unit)).strong());
                        // Two samples or fewer a series read better as numbers than as lines.
                        if chart.series.iter().all(|s| s.points.len() <= 2) {
                            small_table_ui(ui, i, chart, sides, colours);
                            return;
                        }
                        Plot::new(("chart", i))
                            .height(170.0)
                            .width(340.0)
                            .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
                            .include_y(0.0)
                            .y_axis_min_width(28.0)
                            .y_grid_spacer(log_grid_spacer(5))
                            // Counts: whole numbers only on the axis.
                            .y_axis_formatter(
                                |mark, _| if mark.value.fract() == 0.0 { format!("{:.0}", mark.value) } else { String::new() },
                            )
                            .include_x(0.0)
                            .include_x(f64::from(last_turn))
                            .allow_zoom(false)
                            .allow_scroll(false)
                            .allow_drag(false)
                            .x_axis_label("turn")
                            .show(ui, |plot| {
                                for series in &chart.series {
                                    let points: Vec<[f64; 2]> = series.points.iter().map(|&(t, v)| [f64::from(t), v]).collect();
                                    let pen = pen(sides, colours, series.side.as_ref());
                                    let style = if series.side.is_none() { LineStyle::dashed_loose() } else { LineStyle::Solid };
                                    let name = series_name(sides, series.side.as_ref());
                                    // The line, then its points in the side's shape on top.
                                    plot.line(Line::new(name.clone(), points.clone()).color(pen.colour).width(pen.width).style(style));
                                    plot.points(Points::new(name, points).color(pen.colour).shape(pen.shape).radius(4.5).filled(true));
                                }
                            });
                    });
                    if i % 2 == 1 {
                        ui.end_row();
                    }
                }
            });
        });
    });
    if !open {
        queue.push(AppCommand::ShowCharts(false));
    }
}

/// A chart too short for lines: each series a row, each turn a column.
fn small_table_ui(ui: &mut egui::Ui, i: usize, chart: &Chart, sides: &[(SideId, String)], colours: &[Color32]) {
    let mut turns: Vec<u32> = chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).collect();
    turns.sort_unstable();
    turns.dedup();
    egui::Grid::new(("chart_table", i)).striped(true).spacing([14.0, 4.0]).show(ui, |ui| {
        ui.label("");
        for t in &turns {
            ui.label(RichText::new(format!("turn {t}")).weak());
        }
        ui.end_row();
        for series in &chart.series {
            let pen = pen(sides, colours, series.side.as_ref());
            ui.horizontal(|ui| {
                shape_mark(ui, pen);
                ui.label(series_name(sides, series.side.as_ref()));
            });
            for t in &turns {
                let value = series.points.iter().find(|p| p.0 == *t).map(|p| p.1);
                ui.label(value.map_or_else(|| "—".to_owned(), |v| if v.fract() == 0.0 { format!("{v:.0}") } else { format!("{v:.1}") }));
            }
            ui.end_row();
        }
    });
}

/// The key's mark for a series: its points' shape in its colour, painted (not a glyph, which
/// a font may lack).
fn shape_mark(ui: &mut egui::Ui, pen: Pen) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    let (c, r) = (rect.center(), 4.5);
    let painter = ui.painter();
    let outline = egui::Stroke::new(1.0, Color32::from_black_alpha(140));
    let polygon = |points: Vec<egui::Pos2>| egui::Shape::convex_polygon(points, pen.colour, outline);
    match pen.shape {
        MarkerShape::Square => {
            painter.rect(egui::Rect::from_center_size(c, egui::vec2(2.0 * r, 2.0 * r)), 0.0, pen.colour, outline, egui::StrokeKind::Inside);
        }
        MarkerShape::Diamond => {
            painter.add(polygon(vec![c + egui::vec2(0.0, -r), c + egui::vec2(r, 0.0), c + egui::vec2(0.0, r), c + egui::vec2(-r, 0.0)]));
        }
        MarkerShape::Up => {
            painter.add(polygon(vec![c + egui::vec2(0.0, -r), c + egui::vec2(r, r), c + egui::vec2(-r, r)]));
        }
        MarkerShape::Cross | MarkerShape::Asterisk => {
            let stroke = egui::Stroke::new(2.5, pen.colour);
            painter.line_segment([c + egui::vec2(-r, 0.0), c + egui::vec2(r, 0.0)], stroke);
            painter.line_segment([c + egui::vec2(0.0, -r), c + egui::vec2(0.0, r)], stroke);
        }
        _ => {
            painter.circle(c, r, pen.colour, outline);
        }
    }
}

/// Whose series a chart draws: a side's, or the whole campaign's.
fn series_name(sides: &[(SideId, String)], side: Option<&SideId>) -> String {
    match side {
        None => "the campaign".to_owned(),
        Some(id) => words::side_name(sides, id),
    }
}

/// The Turn reports window: what was written, or why not.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ReportsForm {
    /// The turn just over, when the window opened by itself at a turn's end.
    pub turn_over: Option<u32>,
    pub folder: String,
    pub written: Option<Result<Vec<WrittenFile>, String>>,
}

pub(crate) fn reports_window_ui(ctx: &egui::Context, form: &mut ReportsForm, sides: &[(SideId, String)], queue: &mut Vec<AppCommand>) {
    let mut open = true;
    egui::Window::new("Turn reports").open(&mut open).collapsible(false).default_width(520.0).show(ctx, |ui| {
        if let Some(turn) = form.turn_over {
            ui.label(RichText::new(format!("Turn {turn} is over.")).strong());
        }
        ui.label(
            "A report for each side from its own view — its map, forces, the log since its last report, what is coming, \
             victory as it may know it, its charts — and the umpire's with every side.",
        );
        ui.horizontal(|ui| {
            let label = ui.label("Folder");
            ui.add(egui::TextEdit::singleline(&mut form.folder).desired_width(340.0)).labelled_by(label.id);
        });
        if ui.button("Write every side's report").clicked() {
            queue.push(AppCommand::WriteReports { folder: form.folder.clone() });
        }
        match &form.written {
            Some(Ok(files)) => {
                ui.separator();
                let name = |s: &SideId| words::side_name(sides, s);
                files_grid_ui(ui, "report_files", files, &name);
                if let Some(dir) = files.first().and_then(|f| f.path.parent())
                    && ui.button("Open folder").clicked()
                {
                    queue.push(AppCommand::OpenFolder(dir.to_owned()));
                }
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            None => {}
        }
    });
    if !open {
        queue.push(AppCommand::ShowReports(false));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// a side's series is drawn in the map's colour of that side with a shape of its
    /// own, and the sides listed first with wider lines, so that equal lines both show.
    #[test]
    fn x_04_each_side_is_drawn_in_its_map_colour_with_its_own_shape() {
        let sides = vec![(SideId::new("carthage"), "Carthage".to_owned()), (SideId::new("syracuse"), "Syracuse".to_owned())];
        let colours = [Color32::from_rgb(0xe8, 0x9a, 0xb4), Color32::from_rgb(0x1f, 0x5f, 0x9f)];
        let (a, b) = (pen(&sides, &colours, Some(&sides[0].0)), pen(&sides, &colours, Some(&sides[1].0)));
        assert_eq!((a.colour, b.colour), (colours[0], colours[1]));
        assert_ne!(a.shape, b.shape);
        assert!(a.width > b.width, "the first side's line shows round the second's where they coincide");
        assert_eq!(pen(&sides, &colours, None).colour, Color32::GRAY, "the campaign's own series");
    }
}
