//! The player's desk (X-06): the app on a side's packet. It holds the packet and nothing
//! else — no database, no other view, no dice, no seed — and draws the side's map, what the
//! side sees, its log and its plan. Planned orders are drawn on the map as planned, in
//! dashes (a march's path, a deployment, an intended siege), never as done: what comes of
//! them hangs on what the side cannot see. "Send orders…" writes the orders file beside the
//! packet, for the referee.

use std::path::{Path, PathBuf};

use egui::{Color32, RichText};
use referee_campaign::core::engine::{Engine, EngineId};
use referee_campaign::core::plan::Checked;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::core::words::{capitalised, possessive};
use referee_campaign::ids::SideId;

use crate::cli::player::{Change, PlayerEngine, Seat};
use crate::gui::shell::charts::{ChartsForm, charts_window_ui};
use crate::gui::shell::command::{AppCommand, Message};
use crate::packet::{Packet, PlannedOrder};

mod belisarius;
mod magna_graecia;

pub use belisarius::BelisariusDeskPart;
use belisarius::BelisariusPlayer;
pub use magna_graecia::MagnaGraeciaDeskPart;
use magna_graecia::MagnaGraeciaPlayer;

/// The plan as the desk last read it: each order with its summary.
type PlannedRows = Vec<(PlannedOrder, String)>;

/// Why the desk does not take a physical roll.
const TYPED_DICE: &str = "dice typed in are the referee's: the rules roll the side's dice when the referee takes its orders in";

/// Why the desk of an older packet cannot edit a roster.
const OLD_PACKET: &str =
    "this packet was written before packets carried the points table: ask the referee for a new one to edit the roster";

/// What a click on the desk's panels or map asked for.
#[derive(Debug)]
enum Asked {
    /// Only the desk's selection or forms changed.
    Nothing,
    /// A form opened or closed: the last message goes.
    Clear,
    /// An order was put into the plan, with what the plan says of it, or refused.
    Planned(anyhow::Result<String>),
    /// Refused, for this reason.
    Refused(String),
    /// Only the referee does this.
    Referee,
}

use crate::gui::widgets::planned::PLANNED;

/// A side's packet on screen, for its player.
pub struct PlayerApp {
    desk: Desk,
    /// The order being written, in the command line's JSON.
    order: String,
    /// A word for the referee on the order being written.
    comment: String,
    /// The last thing the desk has to say: a refusal (`true`) or news.
    message: Option<(bool, String)>,
    /// What the side sees, as the command line's `show` prints it: the packet's view does
    /// not change while it is open.
    shown: String,
    /// The **Next:** of `shown`: what the rules expect of the side, each caption with its
    /// orders, each in the command line's JSON and in words.
    next: Vec<(String, Vec<NextOrder>)>,
    /// The plan as the packet holds it, each order with its summary: read again after each
    /// change, not each frame.
    rows: PlannedRows,
    /// The Charts window, while it is open: the charts of the side's turn report, and the
    /// campaign's sides by id and name.
    charts: Option<(ChartsForm, Vec<(SideId, String)>)>,
    context_ready: bool,
}

/// The packet, read as its engine's, with its desk's selection and forms.
enum Desk {
    MagnaGraecia(Box<MagnaGraeciaPlayer>),
    Belisarius(Box<BelisariusPlayer>),
}

/// Runs `$body` on the seat, whichever engine plays the campaign.
macro_rules! on_seat {
    ($desk:expr, $seat:ident => $body:expr) => {
        match $desk {
            Desk::MagnaGraecia(d) => {
                let $seat = &d.seat;
                $body
            }
            Desk::Belisarius(d) => {
                let $seat = &d.seat;
                $body
            }
        }
    };
}

/// Runs `$body` on the seat, changed, whichever engine plays the campaign.
macro_rules! on_seat_mut {
    ($desk:expr, $seat:ident => $body:expr) => {
        match $desk {
            Desk::MagnaGraecia(d) => {
                let $seat = &mut d.seat;
                $body
            }
            Desk::Belisarius(d) => {
                let $seat = &mut d.seat;
                $body
            }
        }
    };
}

impl std::fmt::Debug for PlayerApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let header = on_seat!(&self.desk, seat => seat.header());
        f.debug_struct("PlayerApp").field("packet", header).finish_non_exhaustive()
    }
}

impl PlayerApp {
    /// Opens the packet at `path`, refusing a file that is not one.
    pub fn open(path: &Path) -> anyhow::Result<PlayerApp> {
        let packet = Packet::open(path)?;
        let mut desk = match packet.header.engine {
            EngineId::MagnaGraecia => Desk::MagnaGraecia(Box::new(MagnaGraeciaPlayer::new(Seat::new(packet)?)?)),
            EngineId::Belisarius => Desk::Belisarius(Box::new(BelisariusPlayer::new(Seat::new(packet)?)?)),
        };
        let shown = on_seat!(&desk, seat => seat.shown().text());
        let next = next_of(&shown)
            .into_iter()
            .map(|(caption, orders)| {
                let orders =
                    orders.into_iter().map(|json| NextOrder { words: on_seat!(&desk, seat => seat.in_words(&json)), json }).collect();
                (caption, orders)
            })
            .collect();
        let rows = on_seat!(&desk, seat => seat.plan()?);
        desk.replanned(&rows);
        Ok(PlayerApp {
            desk,
            order: String::new(),
            comment: String::new(),
            message: None,
            shown,
            next,
            rows,
            charts: None,
            context_ready: false,
        })
    }

    /// Fonts and theme, given before the first frame.
    pub fn prepare_context(&mut self, ctx: &egui::Context) {
        crate::gui::shell::app::setup_context(ctx);
        self.context_ready = true;
    }

    /// Writes `text` into the order field, as the player types it.
    pub fn write_order(&mut self, text: &str, comment: &str) {
        text.clone_into(&mut self.order);
        comment.clone_into(&mut self.comment);
    }

    /// The last refusal (`true`) or news.
    pub fn message(&self) -> Option<(bool, &str)> {
        self.message.as_ref().map(|(refused, text)| (*refused, text.as_str()))
    }

    /// The plan as it stands: each order's position, summary and how far it was checked.
    pub fn plan(&self) -> Vec<(u32, String, String)> {
        let side = on_seat!(&self.desk, seat => seat.the_side());
        self.rows.iter().map(|(p, summary)| (p.position, summary.clone(), p.checked.note(&side))).collect()
    }

    /// Does what a button or a click on the desk's panels or map would ask (tests, and a
    /// script driving the desk).
    pub fn send(&mut self, command: impl Into<AppCommand>) {
        self.asked(command.into());
    }

    /// Says what came of a change of the plan, and reads the plan again.
    fn say(&mut self, result: anyhow::Result<String>) {
        let read = on_seat!(&self.desk, seat => seat.plan()).map(|rows| self.rows = rows);
        self.desk.replanned(&self.rows);
        self.message = Some(match result.and_then(|news| read.map(|()| news)) {
            Ok(news) => (false, news),
            Err(e) => (true, format!("{e:#}")),
        });
    }

    /// Plans the order written in the field.
    fn plan_order(&mut self) {
        let (text, comment) = (self.order.clone(), self.comment.clone());
        let result = on_seat_mut!(&mut self.desk, seat => add(seat, &text, &comment));
        if result.is_ok() {
            self.order.clear();
            self.comment.clear();
        }
        self.say(result);
    }

    fn change(&mut self, change: Change) {
        if matches!(change, Change::Comment(..)) {
            self.comment.clear();
        }
        let result = on_seat_mut!(&mut self.desk, seat => seat.change(change));
        self.say(result.map(|()| "The plan is changed.".to_owned()));
    }

    /// Does what a button or a click on the side's panels or map asked for.
    fn asked(&mut self, command: AppCommand) {
        if let AppCommand::ShowCharts(show) = command {
            if show {
                self.show_charts();
            } else {
                self.charts = None;
            }
            return;
        }
        let asked = match &mut self.desk {
            Desk::MagnaGraecia(d) => d.apply(command, &self.comment),
            Desk::Belisarius(d) => d.apply(command, &self.comment),
        };
        match asked {
            Asked::Nothing => {}
            Asked::Clear => self.message = None,
            Asked::Refused(why) => self.message = Some((true, why)),
            Asked::Referee => {
                self.message =
                    Some((true, "that is the referee's to do, on the referee's desk: a side's packet gives orders only".to_owned()));
            }
            // The comment written below went with the order a button or a click gave.
            Asked::Planned(result) => {
                if result.is_ok() {
                    self.comment.clear();
                }
                self.say(result);
            }
        }
    }

    /// Opens the Charts window on the charts of the side's turn report.
    fn show_charts(&mut self) {
        let read = on_seat!(&self.desk, seat => seat.packet.read::<referee_battle_gen::report::ReportSpec>("report"));
        let side = on_seat!(&self.desk, seat => seat.header().side.clone());
        let log_lines = on_seat!(&self.desk, seat => seat.view.log().len());
        let sides = read.as_ref().map(|r| r.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect()).unwrap_or_default();
        let charts = read.map(|r| r.charts).map_err(|e| format!("{e:#}"));
        self.charts = Some((ChartsForm { viewer: Viewer::Side(side), log_lines, charts }, sides));
    }

    /// Writes the orders file beside the packet.
    fn send_orders(&mut self) {
        let result = on_seat!(&self.desk, seat => {
            let folder = folder_of(seat.packet.path());
            seat.write_orders(&folder, true).map(|(path, n)| {
                format!(
                    "Wrote {}, {}: send it to the referee.",
                    path.display(),
                    referee_campaign::core::words::count(n, "order")
                )
            })
        });
        self.say(result);
    }

    /// Writes the side's turn report beside the packet.
    fn report(&mut self) {
        let result = on_seat!(&self.desk, seat => {
            let folder = folder_of(seat.packet.path());
            seat.packet
                .read::<referee_battle_gen::report::ReportSpec>("report")
                .and_then(|report| crate::reports::write(&report, referee_battle_gen::Paper::A4, &folder))
                .map(|written| format!("Wrote {}.", written.path.display()))
        });
        self.say(result);
    }

    /// Draws the whole window.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        if !self.context_ready {
            self.prepare_context(ui.ctx());
        }
        let (title, standing) = on_seat!(&self.desk, seat => {
            let h = seat.header();
            (format!("{} packet · {}", capitalised(&possessive(&h.side_name)), h.name), h.standing.clone())
        });
        let (shown, next) = (&self.shown, &self.next);
        let mut act: Option<Act> = None;
        let mut bar_queue: Vec<AppCommand> = Vec::new();
        egui::Panel::top("player_bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(&title);
                ui.label(&standing);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.button("Send orders…").on_hover_text("Write the plan as an orders file beside the packet").clicked() {
                        act = Some(Act::Send);
                    }
                    if ui.button("Turn report…").on_hover_text("Write the side's turn report (PDF) beside the packet").clicked() {
                        act = Some(Act::Report);
                    }
                    if ui.button("Charts").on_hover_text("The side's charts, turn by turn, as its turn report draws them").clicked() {
                        act = Some(Act::Charts);
                    }
                    if let Desk::MagnaGraecia(d) = &self.desk {
                        d.bar_ui(ui, &mut bar_queue);
                    }
                });
            });
        });
        egui::Panel::bottom("player_log").resizable(true).default_size(150.0).show(ui, |ui| {
            ui.strong("Log");
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
                for line in on_seat!(&self.desk, seat => seat.view.log()) {
                    ui.label(format!("{:>4}  {}", line.seq, line.text));
                }
            });
        });
        let rows = &self.rows;
        let side = on_seat!(&self.desk, seat => seat.the_side());
        egui::Panel::left("player_plan").resizable(true).default_size(340.0).show(ui, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                // What the rules expect of the side now, each order a click from the field.
                if !next.is_empty() {
                    ui.heading("Next");
                    for (caption, orders) in next {
                        ui.label(caption);
                        for order in orders {
                            ui.horizontal(|ui| {
                                if ui.small_button("Edit").on_hover_text("Put this order in the field below, to edit and plan").clicked() {
                                    act = Some(Act::Edit(order.json.clone()));
                                }
                                // In words, the JSON the field will hold a hover away.
                                let json = RichText::new(&order.json).monospace().small();
                                match &order.words {
                                    Some(words) => ui.label(words).on_hover_text(json),
                                    None => ui.label(json),
                                };
                            });
                        }
                    }
                    ui.separator();
                }
                ui.heading("Plan");
                ui.label("Orders go to the referee as planned; the rules check them again with what the side cannot see.");
                if rows.is_empty() {
                    ui.weak("No orders yet.");
                }
                let n = u32::try_from(rows.len()).unwrap_or(u32::MAX);
                for (p, summary) in rows {
                    ui.separator();
                    ui.horizontal(|ui| {
                        ui.strong(format!("{}.", p.position));
                        ui.label(summary);
                    });
                    let note = p.checked.note(&side);
                    match p.checked {
                        Checked::AsFarAsKnown => ui.small(note),
                        Checked::ForReferee(_) => ui.small(RichText::new(note).color(PLANNED)),
                    };
                    if !p.comment.is_empty() {
                        ui.small(format!("Comment: {}", p.comment));
                    }
                    ui.horizontal(|ui| {
                        if ui.add_enabled(p.position > 1, egui::Button::new("Up")).clicked() {
                            act = Some(Act::Change(Change::Move(p.position, p.position - 1)));
                        }
                        if ui.add_enabled(p.position < n, egui::Button::new("Down")).clicked() {
                            act = Some(Act::Change(Change::Move(p.position, p.position + 1)));
                        }
                        if ui.button(format!("Remove {}", p.position)).clicked() {
                            act = Some(Act::Change(Change::Drop(p.position)));
                        }
                        let comment = ui
                            .add_enabled(!self.comment.trim().is_empty(), egui::Button::new(format!("Comment {}", p.position)))
                            .on_hover_text("Give this order the comment written below")
                            .on_disabled_hover_text("Write the comment in the field below first");
                        if comment.clicked() {
                            act = Some(Act::Change(Change::Comment(p.position, self.comment.clone())));
                        }
                    });
                }
                ui.separator();
                ui.strong("Add an order");
                let label = ui.label("The order as the command line writes it (see the guide's chapter on the command line):");
                ui.add(
                    egui::TextEdit::multiline(&mut self.order)
                        .hint_text(r#"{"type":"…","side":"…"}"#)
                        .desired_rows(3)
                        .desired_width(f32::INFINITY),
                )
                .labelled_by(label.id);
                ui.horizontal(|ui| {
                    let label = ui.label("Comment");
                    ui.text_edit_singleline(&mut self.comment).labelled_by(label.id);
                });
                ui.horizontal(|ui| {
                    if ui.add_enabled(!self.order.trim().is_empty(), egui::Button::new("Plan it")).clicked() {
                        act = Some(Act::Plan);
                    }
                    if ui.add_enabled(!rows.is_empty(), egui::Button::new("Undo last")).clicked() {
                        act = Some(Act::Change(Change::Undo));
                    }
                });
                if let Some((refused, text)) = &self.message {
                    let text = RichText::new(text);
                    ui.label(if *refused { text.color(ui.visuals().error_fg_color) } else { text });
                }
                ui.separator();
                egui::CollapsingHeader::new("What the side sees").default_open(false).show(ui, |ui| {
                    ui.label(RichText::new(shown).monospace().small());
                });
            });
        });
        // The side's panels and map, with the order buttons a side has on the referee's
        // screen: what they order goes into the plan.
        let mut queue: Vec<AppCommand> = bar_queue;
        let message = self.message.as_ref().map(|(is_error, text)| Message { text: text.clone(), is_error: *is_error });
        egui::Panel::right("player_details").resizable(true).default_size(330.0).min_size(240.0).show(ui, |ui| match &mut self.desk {
            Desk::MagnaGraecia(d) => d.details_ui(ui, &mut queue),
            Desk::Belisarius(d) => d.details_ui(ui, &mut queue),
        });
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| match &mut self.desk {
            Desk::MagnaGraecia(d) => d.map_ui(ui, message.as_ref(), &mut queue),
            Desk::Belisarius(d) => d.map_ui(ui, &mut queue),
        });
        if let Some((form, sides)) = &self.charts {
            let colours: Vec<Color32> = sides.iter().map(|(id, _)| self.desk.side_colour(id)).collect();
            charts_window_ui(ui.ctx(), form, sides, &colours, &mut queue);
        }
        for command in queue {
            self.asked(command);
        }
        match act {
            Some(Act::Plan) => self.plan_order(),
            Some(Act::Change(change)) => self.change(change),
            Some(Act::Send) => self.send_orders(),
            Some(Act::Report) => self.report(),
            Some(Act::Edit(order)) => self.order = order,
            Some(Act::Charts) => self.show_charts(),
            None => {}
        }
    }
}

/// An order of the Next list: as the field takes it, and in words when it reads as an order.
struct NextOrder {
    json: String,
    words: Option<String>,
}

/// What a click asked for, done once the frame is drawn.
enum Act {
    Charts,
    Plan,
    /// Put an order of the Next list in the field.
    Edit(String),
    Change(Change),
    Send,
    Report,
}

/// The **Next:** of the side's view as `show` prints it: each caption with its orders.
fn next_of(shown: &str) -> Vec<(String, Vec<String>)> {
    let Some((_, next)) = shown.split_once("\nNext:\n") else { return Vec::new() };
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in next.lines() {
        match (line.strip_prefix("    "), line.strip_prefix("  "), out.last_mut()) {
            (Some(order), _, Some((_, orders))) => orders.push(order.trim().to_owned()),
            (None, Some(caption), _) => out.push((caption.trim().to_owned(), Vec::new())),
            _ => {}
        }
    }
    out
}

/// The folder a packet is in, where its orders and report go.
fn folder_of(packet: &Path) -> PathBuf {
    packet.parent().filter(|p| !p.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_owned)
}

/// Plans the orders of `text` on `seat`; says what was planned, as the command line does.
fn add<E: PlayerEngine>(seat: &mut Seat<E>, text: &str, comment: &str) -> anyhow::Result<String> {
    plan(seat, &crate::cli::parse_orders::<E::Order>(text)?, comment)
}

/// Plans `orders` on `seat`, `comment` with the first; says what was planned.
fn plan<E: PlayerEngine>(seat: &mut Seat<E>, orders: &[E::Order], comment: &str) -> anyhow::Result<String> {
    let added = seat.add(orders, comment)?;
    Ok(crate::cli::player::planned_text(&seat.the_side(), &added))
}

/// The planned orders, read as the engine's.
fn planned<E: Engine>(rows: &[(PlannedOrder, String)]) -> crate::gui::engine::Numbered<E> {
    rows.iter().filter_map(|(p, _)| Some((p.position, serde_json::from_value(p.order.clone()).ok()?))).collect()
}

impl Desk {
    /// Reads the plan's orders again for the map and the panels; the plan changed.
    fn replanned(&mut self, rows: &PlannedRows) {
        match self {
            Desk::MagnaGraecia(d) => d.replanned(rows),
            Desk::Belisarius(d) => d.replanned(rows),
        }
    }

    /// The colour the map draws `side` in, for the charts.
    fn side_colour(&self, side: &SideId) -> Color32 {
        match self {
            Desk::MagnaGraecia(d) => d.side_colour(side),
            Desk::Belisarius(_) => crate::gui::belisarius::side_colour(side),
        }
    }
}
