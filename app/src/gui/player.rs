//! The player's desk (X-06): the app on a side's packet. It holds the packet and nothing
//! else — no database, no other view, no dice, no seed — and draws the side's map, what the
//! side sees, its log and its plan. Planned orders are drawn on the map as planned, in
//! dashes (a march's path, a deployment, an intended siege), never as done: what comes of
//! them hangs on what the side cannot see. "Send orders…" writes the orders file beside the
//! packet, for the referee.

use std::path::{Path, PathBuf};

use egui::{Color32, Pos2, Rect, RichText, Stroke, vec2};
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::order::Order as BeOrder;
use referee_campaign::belisarius::state::Location;
use referee_campaign::core::engine::{Engine, EngineId};
use referee_campaign::core::plan::Checked;
use referee_campaign::core::view::View;
use referee_campaign::core::words::{capitalised, possessive};
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use referee_campaign::magna_graecia::order::Order as MgOrder;

use crate::cli::player::{Change, PlayerEngine, Seat};
use crate::gui::belisarius::{ZoneMapState, zone_map_ui};
use crate::gui::magna_graecia::map::{MapState, Overlay, map_ui};
use crate::packet::{Packet, PlannedOrder};

/// The ink of what is planned and not done.
const PLANNED: Color32 = Color32::from_rgb(150, 20, 120);

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
    /// The plan as the packet holds it, each order with its summary: read again after each
    /// change, not each frame.
    rows: Vec<(PlannedOrder, String)>,
    context_ready: bool,
}

/// The packet, read as its engine's, with its map's pan and zoom.
enum Desk {
    MagnaGraecia(Box<Seat<MagnaGraecia>>, MapState),
    Belisarius(Box<Seat<Belisarius>>, ZoneMapState),
}

/// Runs `$body` on the seat, whichever engine plays the campaign.
macro_rules! on_seat {
    ($desk:expr, $seat:ident => $body:expr) => {
        match $desk {
            Desk::MagnaGraecia($seat, _) => $body,
            Desk::Belisarius($seat, _) => $body,
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
        let desk = match packet.header.engine {
            EngineId::MagnaGraecia => Desk::MagnaGraecia(Box::new(Seat::new(packet)?), MapState::default()),
            EngineId::Belisarius => Desk::Belisarius(Box::new(Seat::new(packet)?), ZoneMapState::default()),
        };
        let shown = on_seat!(&desk, seat => seat.shown().text());
        let rows = on_seat!(&desk, seat => seat.plan()?);
        Ok(PlayerApp { desk, order: String::new(), comment: String::new(), message: None, shown, rows, context_ready: false })
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

    /// Says what came of a change of the plan, and reads the plan again.
    fn say(&mut self, result: anyhow::Result<String>) {
        let read = on_seat!(&self.desk, seat => seat.plan()).map(|rows| self.rows = rows);
        self.message = Some(match result.and_then(|news| read.map(|()| news)) {
            Ok(news) => (false, news),
            Err(e) => (true, format!("{e:#}")),
        });
    }

    /// Plans the order written in the field.
    fn plan_order(&mut self) {
        let (text, comment) = (self.order.clone(), self.comment.clone());
        let result = match &mut self.desk {
            Desk::MagnaGraecia(seat, _) => add(seat, &text, &comment),
            Desk::Belisarius(seat, _) => add(seat, &text, &comment),
        };
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
        let result = on_seat!(&mut self.desk, seat => seat.change(change));
        self.say(result.map(|()| "The plan is changed.".to_owned()));
    }

    /// Writes the orders file beside the packet.
    fn send(&mut self) {
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
        let (title, standing, log) = on_seat!(&self.desk, seat => {
            let h = seat.header();
            (format!("{} packet · {}", capitalised(&possessive(&h.side_name)), h.name), h.standing.clone(), seat.view.log().to_vec())
        });
        let shown = &self.shown;
        let mut act: Option<Act> = None;
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
                });
            });
        });
        egui::Panel::bottom("player_log").resizable(true).default_size(150.0).show(ui, |ui| {
            ui.strong("Log");
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
                for line in &log {
                    ui.label(format!("{:>4}  {}", line.seq, line.text));
                }
            });
        });
        let rows = self.rows.clone();
        let side = on_seat!(&self.desk, seat => seat.the_side());
        egui::Panel::left("player_plan").resizable(true).default_size(400.0).show(ui, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                // What the rules expect of the side now, each order a click from the field.
                let next = next_of(shown);
                if !next.is_empty() {
                    ui.heading("Next");
                    for (caption, orders) in &next {
                        ui.label(caption);
                        for order in orders {
                            ui.horizontal(|ui| {
                                if ui.small_button("Edit").on_hover_text("Put this order in the field below, to edit and plan").clicked() {
                                    act = Some(Act::Edit(order.clone()));
                                }
                                ui.label(RichText::new(order).monospace().small());
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
                for (p, summary) in &rows {
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
        egui::CentralPanel::default().show(ui, |ui| match &mut self.desk {
            Desk::MagnaGraecia(seat, state) => magna_graecia_map(ui, seat, state, &rows),
            Desk::Belisarius(seat, state) => belisarius_map(ui, seat, state, &rows),
        });
        match act {
            Some(Act::Plan) => self.plan_order(),
            Some(Act::Change(change)) => self.change(change),
            Some(Act::Send) => self.send(),
            Some(Act::Report) => self.report(),
            Some(Act::Edit(order)) => self.order = order,
            None => {}
        }
    }
}

/// What a click asked for, done once the frame is drawn.
enum Act {
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
    let orders: Vec<E::Order> = crate::cli::parse_orders(text)?;
    let added = seat.add(&orders, comment)?;
    Ok(crate::cli::player::planned_text(&seat.the_side(), &added))
}

/// The planned orders, read as the engine's.
fn planned<E: Engine>(rows: &[(PlannedOrder, String)]) -> Vec<(u32, E::Order)> {
    rows.iter().filter_map(|(p, _)| Some((p.position, serde_json::from_value(p.order.clone()).ok()?))).collect()
}

/// Draws a planned path through `points` in dashes, with the order's number at its end.
fn ghost(painter: &egui::Painter, points: &[Pos2], position: u32) {
    let stroke = Stroke::new(2.5, PLANNED);
    if points.len() > 1 {
        painter.extend(egui::Shape::dashed_line(points, stroke, 8.0, 5.0));
    }
    if let Some(&end) = points.last() {
        painter.circle_stroke(end, 11.0, stroke);
        painter.text(end + vec2(13.0, -13.0), egui::Align2::LEFT_BOTTOM, position.to_string(), egui::FontId::proportional(14.0), PLANNED);
    }
}

fn magna_graecia_map(ui: &mut egui::Ui, seat: &Seat<MagnaGraecia>, state: &mut MapState, rows: &[(PlannedOrder, String)]) {
    let View::Side(view) = &seat.view else { return };
    let map = &seat.public;
    let canvas: Rect = ui.available_rect_before_wrap();
    let own = [&view.own];
    let mut clicked = Vec::new();
    map_ui(ui, map, &view.board, &Overlay { own: &own, picked: None }, None, state, &mut clicked);
    let painter = ui.painter_at(canvas);
    let at = |n: referee_campaign::NodeId| map.node(n).map(|node| state.screen_pos(canvas, node.x_km, node.y_km));
    let mut from: std::collections::BTreeMap<String, referee_campaign::NodeId> =
        view.own.counters.iter().map(|c| (c.name.clone(), c.node)).collect();
    for (position, order) in planned::<MagnaGraecia>(rows) {
        match order {
            MgOrder::Deploy { counter, node, .. } => {
                ghost(&painter, &at(node).into_iter().collect::<Vec<_>>(), position);
                from.insert(counter, node);
            }
            MgOrder::Move { counter, path, .. } | MgOrder::Retreat { counter, path, .. } => {
                let start = from.get(&counter).copied();
                let points: Vec<Pos2> = start.into_iter().chain(path.iter().copied()).filter_map(at).collect();
                ghost(&painter, &points, position);
                if let Some(&last) = path.last() {
                    from.insert(counter, last);
                }
            }
            _ => {}
        }
    }
}

fn belisarius_map(ui: &mut egui::Ui, seat: &Seat<Belisarius>, state: &mut ZoneMapState, rows: &[(PlannedOrder, String)]) {
    let View::Side(view) = &seat.view else { return };
    let map = &seat.public.map;
    let canvas: Rect = ui.available_rect_before_wrap();
    let mut picked = Vec::new();
    zone_map_ui(ui, map, &view.board, None, state, &mut picked);
    let painter = ui.painter_at(canvas);
    let centre = |at: &Location| match at {
        Location::Zone(z) => map.zone(z).map(|z| state.screen_pos(z.label_km)),
        Location::City(c) => map.city(c).map(|c| state.screen_pos(c.at_km)),
        Location::Sea(s) => map.sea(s).map(|s| state.screen_pos(s.label_km)),
        Location::Aboard(_) => None,
    };
    let place = |id: &str| referee_campaign::belisarius::world::locate(map, id).ok();
    let mut from: std::collections::BTreeMap<String, Location> = view.own.pieces().map(|(id, at)| (id.to_owned(), at.clone())).collect();
    for (position, order) in planned::<Belisarius>(rows) {
        match order {
            BeOrder::Move { leader, path, .. } | BeOrder::ActivateAndMove { leader, path, .. } => {
                let start = from.get(&leader).cloned();
                let steps: Vec<Location> = path.iter().filter_map(|z| place(z)).collect();
                let points: Vec<Pos2> = start.iter().chain(&steps).filter_map(centre).collect();
                ghost(&painter, &points, position);
                if let Some(last) = steps.last() {
                    from.insert(leader, last.clone());
                }
            }
            BeOrder::Besiege { leader, .. } => {
                // The siege is laid at the city of the zone the leader stands in.
                let city = from.get(&leader).and_then(|at| match at {
                    Location::Zone(z) => map.zone(z).map(|z| Location::City(z.city.id.clone())),
                    other => Some(other.clone()),
                });
                ghost(&painter, &city.iter().filter_map(centre).collect::<Vec<_>>(), position);
            }
            BeOrder::Place { at, .. } => ghost(&painter, &place(&at).iter().filter_map(centre).collect::<Vec<_>>(), position),
            _ => {}
        }
    }
}
