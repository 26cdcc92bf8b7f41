//! The panels around the map: the top bar, the selected node's details with the forces the
//! viewer may see, and the log with the dice form. They draw from a [`View`] and push
//! [`AppCommand`]s; none of them reads the campaign state.

use egui::RichText;
use referee_campaign::map::{Battlefield, FeatureKind, RiverEnd, SettlementKind, Size};
use referee_campaign::store::CampaignSummary;
use referee_campaign::view::{Board, View, Viewer};
use referee_campaign::{Command, DiceInput, DiceSpec, Map, NodeId, SideId};

use super::app::{AppCommand, Message};
use super::map::{self, side_colour};

/// The campaign, where it stands and who is looking.
pub(crate) fn top_bar_ui(
    ui: &mut egui::Ui,
    open: Option<(&View, &Viewer)>,
    campaigns: &[CampaignSummary],
    commands: &mut Vec<AppCommand>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("Campaign ▾", |ui| {
            if ui.button("Open or create a campaign…").clicked() {
                commands.push(AppCommand::ShowPicker(true));
            }
            if !campaigns.is_empty() {
                ui.separator();
                ui.label(RichText::new("Open").weak());
                for c in campaigns {
                    if ui.button(&c.name).clicked() {
                        commands.push(AppCommand::OpenCampaign(c.name.clone()));
                    }
                }
            }
        });
        ui.separator();
        let Some((view, viewer)) = open else {
            ui.label("No campaign open");
            return;
        };
        let board = view.board();
        let moving = board.side(&board.moving).map_or(board.moving.as_str(), |s| s.name.as_str());
        ui.label(
            RichText::new(format!(
                "{} · {} · Turn {} of {} · {moving}: movement",
                board.campaign, board.scenario_name, board.turn, board.turns
            ))
            .strong(),
        );
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            viewer_combo_ui(ui, board, viewer, commands);
            ui.label("View as:");
        });
    });
}

fn viewer_name<'a>(board: &'a Board, viewer: &'a Viewer) -> &'a str {
    match viewer {
        Viewer::Umpire => "Umpire",
        Viewer::Side(s) => board.side(s).map_or(s.as_str(), |x| x.name.as_str()),
    }
}

fn viewer_combo_ui(ui: &mut egui::Ui, board: &Board, viewer: &Viewer, commands: &mut Vec<AppCommand>) {
    let mut choice = viewer.clone();
    egui::ComboBox::from_id_salt("view_as")
        .selected_text(viewer_name(board, viewer))
        .width(130.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut choice, Viewer::Umpire, "Umpire");
            for side in &board.sides {
                ui.selectable_value(&mut choice, Viewer::Side(side.id.clone()), &side.name);
            }
        })
        .response
        .accessible_name("View as")
        .on_hover_text("Draw everything as this viewer knows it: the umpire sees all, a side only what it may know.");
    if &choice != viewer {
        commands.push(AppCommand::SetViewer(choice));
    }
}

/// The selected node, then the forces the viewer may see.
pub(crate) fn details_ui(ui: &mut egui::Ui, map: &Map, view: &View, selected: Option<NodeId>, commands: &mut Vec<AppCommand>) {
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        ui.add_space(4.0);
        match selected.and_then(|id| map.node(id)) {
            Some(node) => node_ui(ui, map, view.board(), node, commands),
            None => {
                ui.heading("No node selected");
                ui.label(RichText::new("Click a node on the map to see who holds it and its battlefield.").weak());
            }
        }
        ui.add_space(10.0);
        ui.separator();
        forces_ui(ui, view);
    });
}

fn side_name(board: &Board, side: &SideId) -> String {
    board.side(side).map_or_else(|| side.to_string(), |s| s.name.clone())
}

fn node_ui(ui: &mut egui::Ui, map: &Map, board: &Board, node: &referee_campaign::map::Node, commands: &mut Vec<AppCommand>) {
    ui.heading(format!("{} {}", node.id, node.name));
    let status = board.node(node.id);
    let mut facts = vec![if node.coastal {
        if node.south_coast { "Coastal (south coast)" } else { "Coastal" }.to_owned()
    } else {
        "Inland".to_owned()
    }];
    match node.city_commands {
        Some(n) => facts.push(format!("fortified city, {n} neutral command{}", if n == 1 { "" } else { "s" })),
        None => facts.push("no walls".to_owned()),
    }
    ui.label(facts.join(" · "));
    if node.siege_modifier != 0 {
        ui.label(format!("Siege modifier {:+}", node.siege_modifier));
    }
    let swatch_line = |ui: &mut egui::Ui, text: String, side: Option<&SideId>| {
        ui.horizontal(|ui| {
            if let Some(side) = side.and_then(|s| board.side(s)) {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                map::paint_swatch(ui.painter(), rect, side_colour(side), side.pattern);
            }
            ui.label(text);
        });
    };
    let controller = status.and_then(|s| s.controller.as_ref());
    match controller {
        Some(c) => swatch_line(ui, format!("Controlled by {}", side_name(board, c)), Some(c)),
        None => swatch_line(ui, "Uncontrolled".to_owned(), None),
    }
    if let Some(ally) = status.and_then(|s| s.allied_to.as_ref()) {
        swatch_line(ui, format!("Allied to {}", side_name(board, ally)), Some(ally));
    }
    if let Some(cap) = status.and_then(|s| s.capital_of.as_ref()) {
        let strength = board.side(cap).and_then(|s| s.capital).map_or(0, |c| c.strength);
        let what = match strength {
            0 => "an inherent sub-general".to_owned(),
            1 => "1 command".to_owned(),
            n => format!("{n} commands"),
        };
        swatch_line(ui, format!("Capital of {} (strength {strength}: {what})", side_name(board, cap)), Some(cap));
    }

    ui.add_space(6.0);
    ui.label(RichText::new("Neighbours").strong());
    ui.horizontal_wrapped(|ui| {
        for n in map.neighbours(node.id) {
            let label = map.node(n).map_or_else(|| n.to_string(), |x| x.label());
            if ui.small_button(label).on_hover_text("Select this node").clicked() {
                commands.push(AppCommand::Select(Some(n)));
            }
        }
    });

    ui.add_space(6.0);
    egui::CollapsingHeader::new(RichText::new("Battlefield (8 × 8 ft table)").strong())
        .default_open(true)
        .show(ui, |ui| {
            let side = ui.available_width().clamp(140.0, 220.0);
            let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
            map::paint_battlefield(ui.painter(), rect, map, &node.battlefield);
            ui.add_space(4.0);
            for line in battlefield_lines(map, &node.battlefield) {
                ui.add(egui::Label::new(line).wrap());
            }
        });
}

fn feature_name(kind: FeatureKind) -> String {
    kind.name().replace('-', " ")
}

fn size_name(size: Size) -> &'static str {
    match size {
        Size::Small => "small",
        Size::Medium => "medium",
        Size::Large => "large",
    }
}

/// The battlefield in words, one line per element, as a referee sets up the table.
pub(crate) fn battlefield_lines(map: &Map, b: &Battlefield) -> Vec<String> {
    let mut lines = Vec::new();
    let edges = |set: Vec<&str>| match set.as_slice() {
        [] => String::new(),
        [one] => format!("the {one} edge"),
        [init @ .., last] => format!("the {} and {last} edges", init.join(", ")),
    };
    if b.coast.is_empty() {
        lines.push("No coast: inland.".to_owned());
    } else {
        lines.push(format!("Sea along {}.", edges(b.coast.iter().map(|e| e.name()).collect())));
    }
    match &b.settlement {
        Some(s) => {
            let kind = match s.kind {
                SettlementKind::City => "Walled city",
                SettlementKind::Town => "Open town",
                SettlementKind::Village => "Village",
            };
            lines.push(format!("{kind} in the {} area.", s.area.name()));
        }
        None => lines.push("No settlement.".to_owned()),
    }
    for r in &b.rivers {
        let to = match r.to {
            RiverEnd::Sea => "the sea".to_owned(),
            RiverEnd::Edge(e) => format!("the {e} edge"),
        };
        let fords = match r.fords {
            0 => "no ford".to_owned(),
            1 => "1 ford".to_owned(),
            n => format!("{n} fords"),
        };
        lines.push(format!("River {}: from the {} edge to {to}, {fords}.", r.name, r.from));
    }
    for f in &b.features {
        let name = if f.name.is_empty() { String::new() } else { format!(" ({})", f.name) };
        lines.push(format!("{} {}{name} in the {} area.", capitalise(size_name(f.size)), feature_name(f.kind), f.area.name()));
    }
    for (to, edge) in &b.roads {
        lines.push(format!("Road to {} leaves by the {edge} edge.", map.node(*to).map_or_else(|| to.to_string(), |n| n.label())));
    }
    lines
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// The hidden-information boundary of this panel: it draws [`View::forces`] only, which
/// holds every side for the umpire and a side's own forces for that side.
fn forces_ui(ui: &mut egui::Ui, view: &View) {
    ui.label(RichText::new("Forces").strong().size(16.0));
    let board = view.board();
    for f in view.forces() {
        let side = board.side(&f.side);
        ui.horizontal(|ui| {
            if let Some(side) = side {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                map::paint_swatch(ui.painter(), rect, side_colour(side), side.pattern);
            }
            ui.label(format!("{} army: {} points", side_name(board, &f.side), f.army_points));
        });
        if let Some(army) = &f.army {
            ui.horizontal(|ui| {
                ui.add_space(22.0);
                egui::CollapsingHeader::new(format!("{} commands, {} points spent", army.commands.len(), f.points_spent))
                    .id_salt(("roster", f.side.as_str()))
                    .show(ui, |ui| roster_ui(ui, army, &f.movement_points));
            });
        }
        let fleet = if f.fleet_np == 0 {
            format!("{} fleet: none", side_name(board, &f.side))
        } else {
            format!("{} fleet: {} NP", side_name(board, &f.side), f.fleet_np)
        };
        ui.horizontal(|ui| {
            ui.add_space(22.0);
            ui.label(fleet);
        });
    }
    match view {
        View::Umpire(v) => {
            ui.add_space(4.0);
            ui.label(RichText::new(format!("Dice seed: {}", v.seed)).weak())
                .on_hover_text("The umpire's secret: with it the seeded dice can be replayed.");
        }
        View::Side(v) => {
            ui.add_space(4.0);
            ui.label(
                RichText::new(format!("Viewing as {}: other sides' forces are hidden.", side_name(board, &v.side))).weak(),
            );
        }
    }
}

/// A side's roster: each command with its general, movement points (MG-11) and elements.
fn roster_ui(ui: &mut egui::Ui, army: &referee_campaign::army::Army, movement_points: &[u8]) {
    ui.label(RichText::new(&army.list).italics());
    for (command, mp) in army.commands.iter().zip(movement_points) {
        ui.label(RichText::new(format!("{} — {}, {} MP", command.name, command.rank.name(), mp)).strong());
        ui.label(format!("general: {}", command.general));
        for group in &command.elements {
            ui.label(group.to_string());
        }
    }
}

/// The dice form's fields, kept between frames.
#[derive(Debug, Clone)]
pub(crate) struct RollForm {
    dice: String,
    purpose: String,
    side: Option<SideId>,
    values: String,
    secret: bool,
}

impl Default for RollForm {
    fn default() -> Self {
        RollForm {
            dice: "d6".to_owned(),
            purpose: String::new(),
            side: None,
            values: String::new(),
            secret: false,
        }
    }
}

/// Reads typed-in die values such as `3 5` or `3,5`.
fn parse_values(text: &str) -> Result<Vec<u8>, String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '+')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u8>().map_err(|_| format!("`{s}` is not a die value")))
        .collect()
}

impl RollForm {
    /// The command the form describes, or why it is not one yet.
    fn command(&self) -> Result<(Command, DiceInput), String> {
        let dice: DiceSpec = self.dice.parse()?;
        let values = parse_values(&self.values)?;
        let input = if values.is_empty() { DiceInput::Seeded } else { DiceInput::Manual(values) };
        let command = Command::RollDice {
            dice,
            purpose: self.purpose.trim().to_owned(),
            side: self.side.clone(),
            hidden: self.secret,
            modifiers: Vec::new(),
        };
        Ok((command, input))
    }
}

/// The campaign log as the viewer may read it, the dice form and undo.
pub(crate) fn log_ui(
    ui: &mut egui::Ui,
    view: &View,
    form: &mut RollForm,
    message: Option<&Message>,
    commands: &mut Vec<AppCommand>,
) {
    let undo_key = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Z);
    // A focused text field keeps Ctrl+Z for its own text.
    if !ui.ctx().egui_wants_keyboard_input() && ui.input_mut(|i| i.consume_shortcut(&undo_key)) {
        commands.push(AppCommand::Undo);
    }
    ui.add_space(4.0);
    ui.label(RichText::new("Log").strong());
    let form_height = 64.0;
    egui::ScrollArea::vertical()
        .id_salt("log_scroll")
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .max_height((ui.available_height() - form_height).max(40.0))
        .show(ui, |ui| {
            for line in view.log() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("{:>4}", line.seq)).monospace().weak());
                    ui.label(&line.text);
                });
            }
        });
    ui.separator();
    let board = view.board();
    let parsed = form.command();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Roll").strong());
        let l = ui.label("dice");
        ui.add(egui::TextEdit::singleline(&mut form.dice).desired_width(48.0)).labelled_by(l.id);
        let l = ui.label("for");
        ui.add(egui::TextEdit::singleline(&mut form.purpose).hint_text("purpose").desired_width(200.0)).labelled_by(l.id);
        egui::ComboBox::from_id_salt("roll_side")
            .selected_text(form.side.as_ref().map_or("no side".to_owned(), |s| side_name(board, s)))
            .width(100.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.side, None, "no side");
                for s in &board.sides {
                    ui.selectable_value(&mut form.side, Some(s.id.clone()), &s.name);
                }
            })
            .response
            .accessible_name("Roll for side")
            .on_hover_text("The side the roll is made for");
        let l = ui.label("typed-in values");
        ui.add(egui::TextEdit::singleline(&mut form.values).hint_text("empty: seeded dice").desired_width(110.0))
            .labelled_by(l.id)
            .on_hover_text("The players' physical dice, e.g. 3 5; leave empty to roll the campaign's seeded dice");
        ui.checkbox(&mut form.secret, "secret")
            .on_hover_text("Only the umpire (and the side the roll is for) sees it");
        let roll = ui.add_enabled(parsed.is_ok(), egui::Button::new("Roll"));
        if roll.clicked()
            && let Ok((command, dice)) = &parsed
        {
            commands.push(AppCommand::Execute(command.clone(), dice.clone()));
            form.values.clear();
        }
        ui.separator();
        if ui.button("Undo").on_hover_text("Take back the last command (Ctrl+Z)").clicked() {
            commands.push(AppCommand::Undo);
        }
    });
    let red = ui.visuals().error_fg_color;
    match (&parsed, message) {
        (Err(e), _) if !form.dice.trim().is_empty() => {
            ui.label(RichText::new(e).color(red));
        }
        (_, Some(m)) => {
            let color = if m.is_error { red } else { ui.visuals().text_color() };
            ui.label(RichText::new(&m.text).color(color));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_parse() {
        assert_eq!(parse_values(""), Ok(vec![]));
        assert_eq!(parse_values("3 5"), Ok(vec![3, 5]));
        assert_eq!(parse_values("3,5 + 6"), Ok(vec![3, 5, 6]));
        assert!(parse_values("3 x").unwrap_err().contains("`x`"));
    }
}
