//! Ending the campaign early, as the sides agree (MG-32).

use egui::RichText;
use referee_campaign::magna_graecia::order::Order;

use super::shared::*;
use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::magna_graecia::command::run;
use crate::gui::shell::command::{AppCommand, Message};

/// The "End campaign by agreement" dialog's entry.
#[derive(Debug, Clone, Default)]
pub(crate) struct EndForm {
    reason: String,
}

pub(crate) fn end_campaign_ui(ctx: &egui::Context, form: &mut EndForm, message: Option<&Message>, commands: &mut Vec<AppCommand>) {
    let mut open = true;
    dialog_window("End the campaign by agreement".to_owned(), "end_campaign", ctx).open(&mut open).default_width(420.0).show(ctx, |ui| {
        ui.add(
            egui::Label::new("The sides agree to stop here: the campaign ends now and the victory points stand as they are (MG-32).")
                .wrap(),
        );
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let l = ui.label("Reason");
            ui.add(egui::TextEdit::singleline(&mut form.reason).hint_text("e.g. peace of 392 BC").desired_width(300.0))
                .labelled_by(l.id)
                .on_hover_text("A short line for the log: what the sides agreed");
        });
        refusal_ui(ui, message);
        ui.horizontal(|ui| {
            let go = ui
                .add_enabled(!form.reason.trim().is_empty(), egui::Button::new(RichText::new("End campaign").strong()))
                .on_disabled_hover_text("Say what the sides agreed, for the log (MG-32)");
            if go.clicked() {
                run(commands, Order::EndCampaign { reason: form.reason.trim().to_owned() });
            }
            if ui.button("Cancel").clicked() {
                commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
            }
        });
    });
    if !open {
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
    }
}

// ---------------------------------------------------------------------------------------
// Cities and fleets: attacking a neutral city (MG-07), sheltering (MG-19), combined fleets
// (MG-36)
