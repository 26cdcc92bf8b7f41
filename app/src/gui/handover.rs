//! Handing the screen to a player: a side's view is a hand-over mode. While a side looks,
//! everything only the umpire may do — another view, undo and redo, the referee's own rolls,
//! typed-in dice, another campaign, the settings — asks for the referee first, on a screen
//! that shows nothing of the campaign, with the referee's passphrase if one is set.

use egui::RichText;
use referee_campaign::core::verify::sha256_hex;

use super::app::{AppCommand, Message};

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
    let typed = |input: &referee_campaign::DiceInput| !matches!(input, referee_campaign::DiceInput::Seeded);
    Some(match command {
        AppCommand::SetViewer(_) => "another view",
        AppCommand::Undo => "Undo",
        AppCommand::Redo => "Redo",
        AppCommand::RollDice { .. } => "a roll of the referee's",
        AppCommand::OpenCampaign(_) | AppCommand::CreateCampaign { .. } | AppCommand::ShowPicker(true) | AppCommand::OpenDatabase(_) => {
            "another campaign"
        }
        AppCommand::Quit => "closing the program",
        AppCommand::ShowSeed(true) => "the dice seed",
        AppCommand::WritePack { .. } | AppCommand::WriteAllPacks { .. } | AppCommand::WriteBelisariusPack { .. } => "the battle packs",
        AppCommand::ShowReports(true) | AppCommand::WriteReports { .. } => "the turn reports",
        AppCommand::SetPassphrase(_) | AppCommand::ShowSettings(true) => "the settings",
        AppCommand::RevealSeed | AppCommand::CommitSeed => "the dice seed",
        AppCommand::Execute(_, input) | AppCommand::ExecuteBelisarius(_, input) if typed(input) => "typed-in dice",
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
            ui.label(RichText::new(format!("{side}'s view is on screen. This needs the referee: {}.", form.reason)).size(16.0));
            ui.add_space(12.0);
            if locked {
                let l = ui.label("Referee's passphrase");
                let field = ui.add(egui::TextEdit::singleline(&mut form.passphrase).password(true).desired_width(220.0)).labelled_by(l.id);
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
                if ui.button(format!("Stay in {side}'s view")).clicked() {
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
        egui::Grid::new("passphrase_grid").num_columns(2).show(ui, |ui| {
            let l = ui.label("New passphrase");
            ui.add(egui::TextEdit::singleline(&mut form.passphrase).password(true)).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Again");
            ui.add(egui::TextEdit::singleline(&mut form.again).password(true)).labelled_by(l.id);
            ui.end_row();
        });
        let differ = form.passphrase != form.again;
        if differ && !form.again.is_empty() {
            ui.label(RichText::new("The two do not match").color(ui.visuals().error_fg_color));
        }
        ui.horizontal(|ui| {
            let set = ui.add_enabled(!form.passphrase.is_empty() && !differ, egui::Button::new("Set passphrase"));
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
