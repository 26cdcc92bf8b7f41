//! Setting the table of a battle (MG-21, MG-22, MG-25): the defender's section of the node's
//! 8'×8' map, the attacker's 2' cut for a 4'×6' table, the attacker's base edge where its
//! road of entry does not settle it, and the weather and time of day rolled for the day.

use egui::{Color32, RichText, Stroke, pos2, vec2};
use referee_campaign::magna_graecia::map::Edge;
use referee_campaign::magna_graecia::table::{Defence, Flank};
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::magna_graecia::view::{BattleMark, View};
use referee_campaign::{DiceInput, magna_graecia::map::Map, magna_graecia::order::Order};

use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::magna_graecia::dialogs::shared::{refusal_ui, submit_row_ui, typed_dice_ui};
use crate::gui::magna_graecia::map;
use crate::gui::shell::command::{AppCommand, Message};

/// The set-table window's entries.
#[derive(Debug, Clone)]
pub(crate) struct TableForm {
    pub battle: u32,
    defence: Defence,
    /// A 4'×6' table rather than 4'×8'.
    small: bool,
    cut: Flank,
    /// The attacker's base edge, where the referee must name it.
    edge: Option<Edge>,
}

impl TableForm {
    pub fn new(battle: &BattleMark) -> TableForm {
        let before = day_one(battle);
        TableForm {
            battle: battle.id,
            defence: before.map_or(Defence::Central, |t| t.defence),
            small: before.is_some_and(|t| t.cut.is_some()),
            cut: before.and_then(|t| t.cut).unwrap_or(Flank::Left),
            edge: battle.entry_edges.first().copied(),
        }
    }

    fn command(&self, battle: &BattleMark) -> Result<Order, String> {
        let attacker_edge = if needs_edge(battle) {
            Some(self.edge.ok_or("name the edge the attacker fights from: it did not come in by road (MG-21)")?)
        } else {
            None
        };
        Ok(Order::SetUpTable { battle: self.battle, defence: self.defence, cut: self.small.then_some(self.cut), attacker_edge })
    }
}

/// The table of an earlier day, when the battle goes on to a second day (MG-25).
fn day_one(battle: &BattleMark) -> Option<&referee_campaign::magna_graecia::table::BattleTable> {
    battle.table.as_ref().filter(|t| t.day < battle.day)
}

/// Whether the table of the battle's current day is set.
pub(crate) fn table_set(battle: &BattleMark) -> bool {
    battle.table.as_ref().is_some_and(|t| t.day == battle.day)
}

/// Whether the referee must name the attacker's edge: the road of entry does not settle it.
fn needs_edge(battle: &BattleMark) -> bool {
    day_one(battle).is_none() && battle.entry_edges.len() != 1
}

/// What the defender's choice means on the node's map.
fn defence_sentence(d: Defence) -> &'static str {
    match d {
        Defence::Forward => "the 4' strip along the attacker's edge: meet the enemy as it comes in.",
        Defence::Central => "the middle 4' of the map, 2' in from the attacker's edge.",
        Defence::Rear => "the 4' strip furthest from the attacker, backing onto the defender's own rear.",
    }
}

/// The battle's table line for the battles list: "Day 1: forward section, … · weather: fair · dawn".
pub(crate) fn table_line(battle: &BattleMark) -> Option<String> {
    let t = battle.table.as_ref()?;
    Some(format!("Day {}: {} · weather: {} · {}", t.day, t.describe(), t.weather, t.time_of_day))
}

/// "Set table…" beside a battle due, for the umpire in the combat phase.
pub(crate) fn set_table_button_ui(ui: &mut egui::Ui, view: &View, battle: &BattleMark, commands: &mut Vec<AppCommand>) {
    if !matches!(view, View::Umpire(_)) || battle.awaiting_choices {
        return;
    }
    let set = table_set(battle);
    let now = view.board().phase == Phase::Combat;
    let b = ui
        .add_enabled(now && !set, egui::Button::new("Set table…"))
        .accessible_name(format!("Set table of battle {}…", battle.id))
        .on_hover_text(
            "The defender's section of the map, the table's size and the attacker's edge; rolls the weather and time of day (MG-21, MG-22)",
        );
    let b = if set {
        b.on_disabled_hover_text(format!("The table is set for day {}: undo that command to set it again (MG-21)", battle.day))
    } else {
        b.on_disabled_hover_text("Tables are set in the combat phase (MG-21)")
    };
    if b.clicked() {
        commands.push(MagnaGraeciaCommand::OpenDialog(Some(crate::gui::magna_graecia::command::Dialog::SetTable(battle.id))).into());
    }
}

/// What the window needs besides its entries.
pub(crate) struct TableData<'a> {
    pub map: &'a Map,
    pub battle: &'a BattleMark,
    /// The roll form's typed-in values: the players' two dice, or why they do not read.
    pub dice: Result<DiceInput, String>,
    pub message: Option<&'a Message>,
}

pub(crate) fn set_table_ui(ctx: &egui::Context, form: &mut TableForm, data: &TableData<'_>, commands: &mut Vec<AppCommand>) {
    let battle = data.battle;
    let place = data.map.name(battle.node);
    let before = day_one(battle);
    let mut open = true;
    egui::Window::new(format!("Battle {} at {place} — set the table, day {}", battle.id, battle.day))
        .id(egui::Id::unique("set_table_window"))
        .collapsible(false)
        .resizable(true)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .default_width(560.0)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_max_width(340.0);
                    choices_ui(ui, form, battle, before);
                });
                ui.add_space(8.0);
                preview_ui(ui, data.map, form, battle);
            });
            ui.add_space(6.0);
            ui.separator();
            footer_ui(ui, form, data, commands);
        });
    if !open {
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
    }
}

fn choices_ui(
    ui: &mut egui::Ui,
    form: &mut TableForm,
    battle: &BattleMark,
    before: Option<&referee_campaign::magna_graecia::table::BattleTable>,
) {
    ui.label(RichText::new("Defender's choice").strong())
        .on_hover_text("The defender picks the 4' deep section of the node's 8'×8' map the battle is fought on (MG-21)");
    if let Some(t) = before {
        ui.add(
            egui::Label::new(
                RichText::new(format!(
                    "Second day (MG-25): the armies stay where they stood; the defender keeps the {} section or falls back toward its rear.",
                    t.defence
                ))
                .italics(),
            )
            .wrap(),
        );
    }
    egui::Grid::new("table_defence").num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
        for d in Defence::ALL {
            let allowed = before.is_none_or(|t| d >= t.defence);
            let r = ui.add_enabled(allowed, egui::RadioButton::new(form.defence == d, capitalised(d.name())));
            let r = match before {
                Some(t) => r.on_disabled_hover_text(format!(
                    "On the second day the field moves only toward the defender's rear, from {} (MG-25)",
                    t.defence
                )),
                None => r,
            };
            if r.clicked() {
                form.defence = d;
            }
            ui.add_enabled(allowed, egui::Label::new(defence_sentence(d)).wrap());
            ui.end_row();
        }
    });
    ui.add_space(6.0);
    ui.checkbox(&mut form.small, "4'×6' table")
        .on_hover_text("A 6' long table: the attacker cuts 2' off one flank of the 8' section (MG-21)");
    if form.small {
        ui.indent("table_cut", |ui| {
            ui.label("The attacker cuts 2' off its");
            ui.horizontal(|ui| {
                ui.radio_value(&mut form.cut, Flank::Left, "left").on_hover_text("As the attacker faces the enemy from its base edge");
                ui.radio_value(&mut form.cut, Flank::Right, "right").on_hover_text("As the attacker faces the enemy from its base edge");
                ui.label("flank, as it faces the enemy");
            });
        });
    }
    ui.add_space(6.0);
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(RichText::new("Attacker's base edge").strong());
        match (before, battle.entry_edges.as_slice()) {
            (Some(t), _) => {
                ui.label(format!("{} (kept from day 1, MG-25)", t.attacker_edge));
            }
            (None, [only]) => {
                ui.label(format!("{only}, where its road came in (MG-21)"));
            }
            (None, edges) => {
                let choices: Vec<Edge> = if edges.is_empty() { Edge::ALL.to_vec() } else { edges.to_vec() };
                egui::ComboBox::from_id_salt("table_edge")
                    .selected_text(form.edge.map_or("pick the edge", Edge::name))
                    .width(110.0)
                    .show_ui(ui, |ui| {
                        for e in choices {
                            ui.selectable_value(&mut form.edge, Some(e), e.name());
                        }
                    })
                    .response
                    .labelled_by(l.id)
                    .on_hover_text(if edges.is_empty() {
                        "The attacker did not come in by road (a landing, a sally): name the edge it fights from (MG-21)"
                    } else {
                        "The attacker came in by more than one road: pick the edge of its base (MG-21)"
                    });
            }
        }
    });
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// The node's battle map with the section in play outlined and the attacker's edge marked.
fn preview_ui(ui: &mut egui::Ui, map: &Map, form: &TableForm, battle: &BattleMark) {
    let Some(node) = map.node(battle.node) else { return };
    let side = 190.0;
    ui.vertical(|ui| {
        let (rect, _) = ui.allocate_exact_size(vec2(side, side), egui::Sense::hover());
        let painter = ui.painter_at(rect.expand(2.0));
        map::paint_battlefield(&painter, rect, map, &node.battlefield);
        let edge = day_one(battle).map(|t| t.attacker_edge).or(form.edge);
        let Some(edge) = edge else {
            ui.label(RichText::new("Name the attacker's edge to see the section").weak());
            return;
        };
        let s = referee_battle_gen::section(edge, form.defence, form.small.then_some(form.cut)).rect;
        let foot = side / 8.0;
        let section =
            egui::Rect::from_min_size(rect.min + vec2(s.x_feet * foot, s.y_feet * foot), vec2(s.width_feet * foot, s.height_feet * foot));
        // Dim what is off the table.
        let dim = Color32::from_black_alpha(90);
        for off in [
            egui::Rect::from_min_max(rect.min, pos2(rect.right(), section.top())),
            egui::Rect::from_min_max(pos2(rect.left(), section.bottom()), rect.max),
            egui::Rect::from_min_max(pos2(rect.left(), section.top()), pos2(section.left(), section.bottom())),
            egui::Rect::from_min_max(pos2(section.right(), section.top()), pos2(rect.right(), section.bottom())),
        ] {
            if off.width() > 0.0 && off.height() > 0.0 {
                painter.rect_filled(off, 0.0, dim);
            }
        }
        painter.rect_stroke(section, 0.0, Stroke::new(2.5, Color32::BLACK), egui::StrokeKind::Inside);
        // The attacker's base edge: a thick red bar with an A.
        let red = Color32::from_rgb(0xb0, 0x20, 0x20);
        let (a, b) = match edge {
            Edge::North => (rect.left_top(), rect.right_top()),
            Edge::South => (rect.left_bottom(), rect.right_bottom()),
            Edge::West => (rect.left_top(), rect.left_bottom()),
            Edge::East => (rect.right_top(), rect.right_bottom()),
        };
        painter.line_segment([a, b], Stroke::new(4.0, red));
        let (dx, dy) = edge.outward();
        let mid = pos2((a.x + b.x) / 2.0 - dx * 10.0, (a.y + b.y) / 2.0 - dy * 10.0);
        painter.text(mid, egui::Align2::CENTER_CENTER, "A", egui::FontId::proportional(13.0), red);
        ui.label(RichText::new(format!("Framed: the section in play. A: the attacker's edge ({edge}).")).weak().small());
    });
}

fn footer_ui(ui: &mut egui::Ui, form: &TableForm, data: &TableData<'_>, commands: &mut Vec<AppCommand>) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Two d6: weather, then time of day (MG-22)").on_hover_text(
            "Type the players' two dice into the roll form's typed-in values below the log, weather first, or leave it empty for the seeded dice",
        );
        typed_dice_ui(ui, &data.dice, 2);
    });
    refusal_ui(ui, data.message);
    let hover = "Set the table for this day and roll its weather and time of day (MG-21, MG-22)";
    submit_row_ui(ui, "Set table and roll weather", hover, "To set the table", form.command(data.battle), &data.dice, commands);
}
