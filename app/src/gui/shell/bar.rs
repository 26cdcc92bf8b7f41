//! The shell's bar, the same for every campaign: the Campaign menu, the open desk's status in
//! the middle, and who is looking on the right.

use egui::RichText;
use referee_campaign::store::CampaignSummary;
use referee_campaign::{SideId, Viewer};

use crate::gui::engine::CampaignDesk;
use crate::gui::shell::command::AppCommand;
use crate::gui::shell::log::EditLabels;
use crate::gui::widgets::roll::RollForm;

/// What the bar draws besides the desk.
#[derive(Debug)]
pub(crate) struct BarData<'a> {
    pub campaigns: &'a [CampaignSummary],
    /// Database files opened lately, the latest (this one) first.
    pub recent: &'a [std::path::PathBuf],
    pub edit: &'a EditLabels,
    /// The side's name, when the screen is handed over to a side.
    pub handed_to: Option<String>,
}

/// The bar above the desk (or above the picker, with no campaign open).
pub(crate) fn bar_ui(
    ui: &mut egui::Ui,
    desk: Option<&mut dyn CampaignDesk>,
    data: &BarData<'_>,
    roll: &mut RollForm,
    commands: &mut Vec<AppCommand>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("Campaign ▾", |ui| {
            if ui.button("Open another campaign…").on_hover_text("The picker: every campaign in this file").clicked() {
                commands.push(AppCommand::ShowPicker(true));
            }
            if ui.button("New campaign…").clicked() {
                commands.push(AppCommand::ShowPicker(true));
            }
            if ui.button("Open a side's packet…").on_hover_text("A player's desk on a side's packet, in a window of its own").clicked()
                && let Some(path) = rfd::FileDialog::new().add_filter("packet", &["packet"]).pick_file()
            {
                commands.push(AppCommand::OpenPacket(path));
            }
            if ui.button("Open database file…").on_hover_text("Another referee database: its campaigns in the picker").clicked() {
                let picked = rfd::FileDialog::new().set_title("Open a referee database").add_filter("Referee database", &["sqlite", "db"]).pick_file();
                if let Some(path) = picked {
                    commands.push(AppCommand::OpenDatabase(path));
                }
            }
            if data.recent.len() > 1 {
                ui.menu_button("Recent databases", |ui| {
                    for path in data.recent.iter().skip(1) {
                        if ui.button(path.display().to_string()).clicked() {
                            commands.push(AppCommand::OpenDatabase(path.clone()));
                        }
                    }
                });
            }
            if let Some(desk) = &desk {
                ui.separator();
                let reports = ui.button("Turn reports…").on_hover_text("A report for each side from its own view, and the umpire's");
                if reports.clicked() {
                    commands.push(AppCommand::ShowReports(true));
                }
                let past = ui
                    .button("A past battle's pack…")
                    .on_hover_text("A battle's pack printed again after its result, as the battle went to the table");
                if past.clicked() {
                    commands.push(AppCommand::ShowPastPacks(true));
                }
                let send = ui.button("Send a side its packet…").on_hover_text("Play by e-mail: a file with what one side knows now, for its player");
                let take = ui.button("Take in a side's orders…").on_hover_text("Play by e-mail: the orders file a player sent back");
                if send.clicked() || take.clicked() {
                    commands.push(AppCommand::ShowMail(true));
                }
                if ui.button("Charts…").on_hover_text("The campaign turn by turn, as the viewer on screen may know it").clicked() {
                    commands.push(AppCommand::ShowCharts(true));
                }
                let dice = ui.button("Dice and the seed…").on_hover_text(
                    "The commitment to the seed published when the campaign began, the seed's reveal, and the check of every seeded roll",
                );
                if dice.clicked() {
                    commands.push(AppCommand::ShowDice(true));
                }
                desk.campaign_menu_ui(ui, commands);
            }
            if !data.campaigns.is_empty() {
                ui.separator();
                ui.label(RichText::new("Campaigns in this file").weak());
                for c in data.campaigns {
                    if ui.button(&c.name).clicked() {
                        commands.push(AppCommand::OpenCampaign(c.name.clone()));
                    }
                }
            }
            ui.separator();
            if ui.button("Settings…").clicked() {
                commands.push(AppCommand::ShowSettings(true));
            }
            if ui.button("Quit").clicked() {
                commands.push(AppCommand::Quit);
            }
        });
        if desk.is_some() {
            edit_menu_ui(ui, data.edit, commands);
        }
        ui.separator();
        let Some(desk) = desk else {
            ui.label("No campaign open");
            return;
        };
        let (viewer, sides) = (desk.viewer().clone(), desk.sides());
        desk.status_ui(ui, roll, commands);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| match &data.handed_to {
            Some(side) => {
                real_buttons(ui, |ui| {
                    let back = ui.button("Hand back to the referee…").on_hover_text(
                        "This screen is handed over to a side: the umpire's view, and everything only the referee may do, ask for the referee first.",
                    );
                    if back.clicked() {
                        commands.push(AppCommand::SetViewer(Viewer::Umpire));
                    }
                });
                ui.label(RichText::new(format!("Handed over to {side}")).strong());
            }
            None => {
                viewer_combo_ui(ui, &sides, &viewer, commands);
                ui.label("View as:");
            }
        });
    });
}

/// Draws `add` with buttons that look like the buttons they are: the menu bar draws them as
/// bare text.
pub(crate) fn real_buttons<R>(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    ui.scope(|ui| {
        let global = ui.ctx().global_style();
        ui.style_mut().visuals.widgets = global.visuals.widgets.clone();
        ui.style_mut().spacing.button_padding = global.spacing.button_padding;
        add(ui)
    })
    .inner
}

/// Undo and Redo, each saying what it would do.
fn edit_menu_ui(ui: &mut egui::Ui, edit: &EditLabels, commands: &mut Vec<AppCommand>) {
    ui.menu_button("Edit ▾", |ui| {
        let undo = edit.undo.as_deref().map_or_else(|| "Undo".to_owned(), |what| format!("Undo: {what}"));
        let button = egui::Button::new(undo)
            .shortcut_text(ui.ctx().format_shortcut(&egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Z)));
        if ui.add_enabled(edit.undo.is_some(), button).clicked() {
            commands.push(AppCommand::Undo);
        }
        let redo = edit.redo.as_deref().map_or_else(|| "Redo".to_owned(), |what| format!("Redo: {what}"));
        let keys = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
        let button = egui::Button::new(redo).shortcut_text(ui.ctx().format_shortcut(&keys));
        if ui.add_enabled(edit.redo.is_some(), button).clicked() {
            commands.push(AppCommand::Redo);
        }
    });
}

fn viewer_name<'a>(sides: &'a [(SideId, String)], viewer: &'a Viewer) -> &'a str {
    match viewer {
        Viewer::Umpire => "Umpire",
        Viewer::Side(s) => sides.iter().find(|(id, _)| id == s).map_or(s.as_str(), |(_, name)| name.as_str()),
    }
}

fn viewer_combo_ui(ui: &mut egui::Ui, sides: &[(SideId, String)], viewer: &Viewer, commands: &mut Vec<AppCommand>) {
    let mut choice = viewer.clone();
    egui::ComboBox::from_id_salt("view_as")
        .selected_text(viewer_name(sides, viewer))
        .width(130.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut choice, Viewer::Umpire, "Umpire");
            for (id, name) in sides {
                ui.selectable_value(&mut choice, Viewer::Side(id.clone()), name);
            }
        })
        .response
        .accessible_name("View as")
        .on_hover_text("Draw everything as this viewer knows it: the umpire sees all, a side only what it may know.");
    match choice {
        choice if &choice == viewer => {}
        // From the umpire's view a side's is a hand-over, which may first offer a passphrase.
        Viewer::Side(side) if *viewer == Viewer::Umpire => commands.push(AppCommand::HandOver(Some(side))),
        choice => commands.push(AppCommand::SetViewer(choice)),
    }
}
