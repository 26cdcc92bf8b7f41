//! Handing the screen to a player: a side's view is a hand-over mode. While a side looks,
//! everything only the umpire may do — another view, undo and redo, the referee's own rolls,
//! typed-in dice, another campaign, the settings — asks for the referee first, on a screen
//! that shows nothing of the campaign, with the referee's passphrase if one is set.

use egui::RichText;
use referee_campaign::core::verify::sha256_hex;

use crate::gui::shell::command::{AppCommand, Message};

/// The key of the hand-back passphrase in the file's settings; its value is
/// `sha256:<salt>:<hex digest of salt and passphrase>`, never the passphrase.
pub(crate) const PASSPHRASE_KEY: &str = "hand_back_passphrase";

/// The hand-back screen being shown: what asked for the referee, and the order that waits
/// for the referee's confirmation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HandBack {
    /// What the side asked for, in a few words ("Undo", "another view").
    pub reason: String,
    /// What is done once the referee has taken the screen back, if anything.
    pub pending: Option<Box<AppCommand>>,
    /// The passphrase being typed.
    pub passphrase: String,
}

/// The key of the hand-over in the file's settings: `<campaign id>:<side id>` while a side's
/// view is on screen. A window closed, a crash or a kill in a side's view leaves it behind,
/// and the next start opens on the hand-back screen.
pub(crate) const HANDED_OVER_KEY: &str = "handed_over";

/// The key that records that the referee was offered a passphrase on the first hand-over.
pub(crate) const OFFERED_KEY: &str = "hand_back_passphrase_offered";

/// The campaign and side of a hand-over kept in the file, if it reads as one.
pub(crate) fn read_handed_over(value: &str) -> Option<(i64, referee_campaign::ids::SideId)> {
    let (id, side) = value.split_once(':')?;
    let id = id.parse().ok()?;
    (!side.is_empty()).then(|| (id, referee_campaign::ids::SideId::new(side)))
}

/// The offer of a passphrase, made before the screen is first handed to a side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OfferForm {
    /// The side the screen is about to be handed to.
    pub side: referee_campaign::ids::SideId,
    pub side_name: String,
    pub passphrase: String,
    pub again: String,
}

/// Before the first hand-over of a file with no passphrase: set one now, or hand over
/// without.
pub(crate) fn offer_ui(ctx: &egui::Context, form: &mut OfferForm, queue: &mut Vec<AppCommand>) {
    let mut open = true;
    egui::Window::new("Hand the screen over").open(&mut open).collapsible(false).resizable(false).show(ctx, |ui| {
        let whose = referee_campaign::core::words::possessive(&form.side_name);
        ui.label(RichText::new(format!("Handing over {whose} view")).strong());
        ui.label(
            "While a side looks, going back to the umpire's view asks for the referee. A passphrase makes sure only the referee \
             can: set one now, or hand over without (Campaign ▸ Settings… sets one later).",
        );
        let ready = passphrase_fields_ui(ui, "offer_grid", "Passphrase", &mut form.passphrase, &mut form.again);
        ui.horizontal(|ui| {
            let set = ui.add_enabled(ready, egui::Button::new("Set it and hand over")).on_disabled_hover_text("Type the passphrase twice");
            if set.clicked() {
                queue.push(AppCommand::SetPassphrase(Some(form.passphrase.clone())));
                queue.push(AppCommand::SetViewer(referee_campaign::Viewer::Side(form.side.clone())));
            }
            if ui.button("Hand over without a passphrase").clicked() {
                queue.push(AppCommand::DeclinePassphrase);
                queue.push(AppCommand::SetViewer(referee_campaign::Viewer::Side(form.side.clone())));
            }
        });
    });
    if !open || ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
        queue.push(AppCommand::HandOver(None));
    }
}

/// The settings window, while it is open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SettingsForm {
    pub passphrase: String,
    pub again: String,
}

/// What a stored passphrase value is made of for `passphrase`, with `salt` (a fresh one,
/// [`referee_campaign::core::verify::fresh_salt`]).
pub(crate) fn seal(passphrase: &str, salt: &str) -> String {
    format!("sha256:{salt}:{}", digest(salt, passphrase))
}

/// Whether `passphrase` is the one sealed in `sealed`. A value that does not read as a seal
/// matches nothing, so a damaged setting keeps the screen locked rather than open.
pub(crate) fn matches(sealed: &str, passphrase: &str) -> bool {
    let mut parts = sealed.splitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("sha256"), Some(salt), Some(hex)) => digest(salt, passphrase) == hex,
        _ => false,
    }
}

fn digest(salt: &str, passphrase: &str) -> String {
    sha256_hex(&format!("{salt}:{passphrase}"))
}

/// Whether `command` is the umpire's alone: asked from a side's view, it waits for the
/// referee.
pub(crate) fn needs_referee(command: &AppCommand) -> Option<&'static str> {
    Some(match command {
        AppCommand::SetViewer(_) => "another view",
        AppCommand::Undo => "Undo",
        AppCommand::Redo => "Redo",
        AppCommand::RollDice { .. } => "a roll of the referee's",
        AppCommand::OpenCampaign(_)
        | AppCommand::CreateCampaign { .. }
        | AppCommand::DeleteCampaign(_)
        | AppCommand::RenameCampaign { .. }
        | AppCommand::ShowPicker(true)
        | AppCommand::OpenDatabase(_) => "another campaign",
        AppCommand::Quit => "closing the program",
        AppCommand::ShowReports(true) | AppCommand::WriteReports { .. } => "the turn reports",
        AppCommand::ShowPastPacks(true) | AppCommand::WritePastPack { .. } => "a past battle's pack",
        AppCommand::ShowMail(true)
        | AppCommand::WritePacket { .. }
        | AppCommand::ReadOrders(_)
        | AppCommand::TakeInOrders { .. }
        | AppCommand::OpenPacket(_) => "play by e-mail",
        AppCommand::SetPassphrase(_) | AppCommand::ShowSettings(true) | AppCommand::DeclinePassphrase => "the settings",
        AppCommand::RevealSeed | AppCommand::CommitSeed => "the dice seed",
        AppCommand::Desk(command) => return command.needs_referee(),
        _ => return None,
    })
}

/// The hand-back screen: the whole window, with nothing of the campaign on it.
pub(crate) fn hand_back_ui(
    ui: &mut egui::Ui,
    form: &mut HandBack,
    side: &str,
    locked: bool,
    message: Option<&Message>,
    queue: &mut Vec<AppCommand>,
) {
    if ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
        queue.push(AppCommand::AskReferee(None));
    }
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.25);
            // Large enough to read from across the table.
            ui.label(RichText::new("Hand the screen back to the referee").size(28.0).strong());
            ui.add_space(10.0);
            let whose = referee_campaign::core::words::possessive(side);
            let mut first = whose.chars();
            let whose_capital = first.next().map(|c| c.to_uppercase().collect::<String>() + first.as_str()).unwrap_or_default();
            ui.label(RichText::new(format!("{whose_capital} view is on screen. This needs the referee: {}.", form.reason)).size(16.0));
            ui.add_space(12.0);
            if locked {
                let l = ui.label("Referee's passphrase");
                let field = ui.add(egui::TextEdit::singleline(&mut form.passphrase).password(true).desired_width(220.0)).labelled_by(l.id);
                // The referee comes back to type the passphrase: the field waits with the cursor in it.
                if ui.memory(|m| m.focused().is_none()) {
                    field.request_focus();
                }
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    queue.push(AppCommand::HandBack { passphrase: form.passphrase.clone() });
                }
                ui.add_space(6.0);
            }
            ui.horizontal(|ui| {
                ui.add_space((ui.available_width() - 420.0).max(0.0) / 2.0);
                if ui.button(RichText::new("I am the referee: show the umpire's view").strong()).clicked() {
                    queue.push(AppCommand::HandBack { passphrase: form.passphrase.clone() });
                }
                if ui.button(format!("Stay in {whose} view")).clicked() {
                    queue.push(AppCommand::AskReferee(None));
                }
            });
            if let Some(m) = message.filter(|m| m.is_error) {
                ui.add_space(8.0);
                ui.label(RichText::new(&m.text).color(ui.visuals().error_fg_color));
            }
        });
    });
}

/// A passphrase typed twice, and whether it is ready to set: not empty, the same both times.
fn passphrase_fields_ui(ui: &mut egui::Ui, id: &str, label: &str, passphrase: &mut String, again: &mut String) -> bool {
    egui::Grid::new(id).num_columns(2).show(ui, |ui| {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(passphrase).password(true)).labelled_by(l.id);
        ui.end_row();
        let l = ui.label("Again");
        ui.add(egui::TextEdit::singleline(again).password(true)).labelled_by(l.id);
        ui.end_row();
    });
    let differ = passphrase != again;
    if differ && !again.is_empty() {
        ui.label(RichText::new("The two do not match").color(ui.visuals().error_fg_color));
    }
    !passphrase.is_empty() && !differ
}

/// The settings of this database file: the hand-back passphrase.
pub(crate) fn settings_ui(
    ctx: &egui::Context,
    form: &mut SettingsForm,
    locked: bool,
    message: Option<&Message>,
    queue: &mut Vec<AppCommand>,
) {
    let mut open = true;
    egui::Window::new("Settings").open(&mut open).collapsible(false).resizable(false).show(ctx, |ui| {
        ui.label(RichText::new("Hand-back passphrase").strong());
        ui.label(
            "A side's view is a hand-over: going back to the umpire's view asks for the referee. With a passphrase, it asks for the passphrase too. It is kept in this database file as a salted hash.",
        );
        ui.label(if locked { "A passphrase is set." } else { "No passphrase is set: a confirmation is enough." });
        let ready = passphrase_fields_ui(ui, "passphrase_grid", "New passphrase", &mut form.passphrase, &mut form.again);
        ui.horizontal(|ui| {
            let set = ui.add_enabled(ready, egui::Button::new("Set passphrase"));
            if set.clicked() {
                queue.push(AppCommand::SetPassphrase(Some(form.passphrase.clone())));
            }
            if ui.add_enabled(locked, egui::Button::new("Remove passphrase")).clicked() {
                queue.push(AppCommand::SetPassphrase(None));
            }
        });
        if let Some(m) = message {
            let colour = if m.is_error { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
            ui.label(RichText::new(&m.text).color(colour));
        }
    });
    if !open || ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
        queue.push(AppCommand::ShowSettings(false));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_passphrase_matches_itself_only() {
        let sealed = seal("Syracuse falls", "0000000000000007");
        assert!(sealed.starts_with("sha256:0000000000000007:"));
        assert!(!sealed.contains("Syracuse"));
        assert!(matches(&sealed, "Syracuse falls"));
        assert!(!matches(&sealed, "syracuse falls"));
        assert!(!matches(&seal("Syracuse falls", "0000000000000008"), "Syracuse fall"));
        assert!(!matches("plain text", "plain text"), "a damaged setting opens nothing");
    }
}
