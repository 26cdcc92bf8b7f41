//! The shell's bar, the same for every campaign: the Campaign menu, the open desk's status in
//! the middle, and who is looking on the right.

use egui::RichText;
use referee_campaign::store::CampaignSummary;
use referee_campaign::{SideId, Viewer};

use super::app::AppCommand;
use super::desk::EngineDesk;
use super::panels::RollForm;

/// The bar above the desk (or above the picker, with no campaign open).
pub(crate) fn bar_ui(
    ui: &mut egui::Ui,
    desk: Option<&mut dyn EngineDesk>,
    campaigns: &[CampaignSummary],
    roll: &mut RollForm,
    commands: &mut Vec<AppCommand>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("Campaign ▾", |ui| {
            if ui.button("Open or create a campaign…").clicked() {
                commands.push(AppCommand::ShowPicker(true));
            }
            if let Some(desk) = &desk {
                desk.campaign_menu_ui(ui, commands);
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
        let Some(desk) = desk else {
            ui.label("No campaign open");
            return;
        };
        let (viewer, sides) = (desk.viewer().clone(), desk.sides());
        desk.status_ui(ui, roll, commands);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            viewer_combo_ui(ui, &sides, &viewer, commands);
            ui.label("View as:");
        });
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
    if &choice != viewer {
        commands.push(AppCommand::SetViewer(choice));
    }
}
