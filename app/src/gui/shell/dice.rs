//! The Dice window: the commitment to the campaign's seed that every side may read, the
//! referee's reveal, and the check of the log's seeded rolls against a revealed seed.

use egui::RichText;
use referee_campaign::core::verify::{Commitment, Verdict, Verification};

use crate::gui::shell::command::{AppCommand, Message};

/// The Dice window's entries, while it is open.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DiceForm {
    /// The seed typed in to check.
    pub seed: String,
    /// The last check made.
    pub result: Option<Verification>,
    /// The referee pressed Reveal once and must confirm.
    pub confirming: bool,
}

/// What the window draws from.
#[derive(Debug)]
pub(crate) struct DiceData<'a> {
    pub commitment: Option<&'a Commitment>,
    /// The umpire is looking.
    pub umpire: bool,
    /// The seed, once revealed (or for the umpire, who holds it).
    pub seed: Option<u64>,
    pub message: Option<&'a Message>,
}

pub(crate) fn dice_window_ui(ctx: &egui::Context, form: &mut DiceForm, data: &DiceData<'_>, queue: &mut Vec<AppCommand>) {
    let mut open = true;
    egui::Window::new("Dice").open(&mut open).collapsible(false).default_width(520.0).show(ctx, |ui| {
        let Some(commitment) = data.commitment else {
            ui.label("This campaign has no commitment to its seed: it was begun before commitments were made.");
            if data.umpire && ui.button("Commit to the seed now").on_hover_text("Covers the rolls still to come").clicked() {
                queue.push(AppCommand::CommitSeed);
            }
            return;
        };
        ui.label(RichText::new("Commitment to the seed").strong());
        ui.label(
            "Published when the campaign began: the SHA-256 of the secret seed with a random salt. It tells nothing of the seed; once the seed and salt are revealed, anyone can check that they give it, and that every seeded roll in the log came from the seed.",
        );
        ui.add(egui::Label::new(RichText::new(&commitment.digest).monospace()).wrap());
        if commitment.from_event > 1 {
            ui.label(format!("It covers the log from event {} on.", commitment.from_event));
        }
        ui.add_space(6.0);
        match (&commitment.revealed_at, data.seed) {
            (Some(when), Some(seed)) => {
                ui.label(format!("Revealed {}: seed {seed}, salt {}", when.get(..10).unwrap_or(when), commitment.salt));
            }
            (None, _) if data.umpire => {
                if form.confirming {
                    ui.label(RichText::new("Reveal the seed to every side? From then on the players can foresee every seeded roll still to come.").strong());
                    ui.horizontal(|ui| {
                        if ui.button("Reveal the seed").clicked() {
                            queue.push(AppCommand::RevealSeed);
                        }
                        if ui.button("Not yet").clicked() {
                            form.confirming = false;
                        }
                    });
                } else if ui.button("Reveal the seed…").clicked() {
                    form.confirming = true;
                }
            }
            _ => {
                ui.label("The seed is still the referee's secret.");
            }
        }
        if data.umpire || commitment.revealed_at.is_some() {
            ui.separator();
            // Once revealed, the seed is public: the check is one click away.
            if form.seed.is_empty()
                && commitment.revealed_at.is_some()
                && let Some(seed) = data.seed
            {
                form.seed = seed.to_string();
            }
            ui.horizontal(|ui| {
                let l = ui.label("Seed to check");
                ui.add(egui::TextEdit::singleline(&mut form.seed).desired_width(180.0)).labelled_by(l.id);
                let seed = form.seed.trim().parse::<u64>();
                if ui.add_enabled(seed.is_ok(), egui::Button::new("Check the rolls")).clicked()
                    && let Ok(seed) = seed
                {
                    queue.push(AppCommand::VerifySeed(seed));
                }
            });
        }
        if let Some(result) = &form.result {
            verification_ui(ui, result);
        }
        if let Some(m) = data.message.filter(|m| m.is_error) {
            ui.label(RichText::new(&m.text).color(ui.visuals().error_fg_color));
        }
    });
    if !open || ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
        queue.push(AppCommand::ShowDice(false));
    }
}

fn verification_ui(ui: &mut egui::Ui, result: &Verification) {
    let colour = if result.holds() { ui.visuals().text_color() } else { ui.visuals().error_fg_color };
    ui.label(RichText::new(result.summary()).color(colour).strong());
    egui::ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
        egui::Grid::new("verification").striped(true).num_columns(3).show(ui, |ui| {
            for c in &result.checks {
                match (c.event, c.stream) {
                    (Some(line), _) => {
                        ui.label(RichText::new(line.to_string()).monospace().weak());
                        ui.label(format!("{}: {}", c.purpose, c.logged));
                    }
                    // Another's roll: only where it stands in the stream the check runs along.
                    (None, Some((from, to))) => {
                        ui.label(RichText::new("—").monospace().weak());
                        ui.label(RichText::new(format!("a roll you do not see: dice stream {from}–{to}")).italics());
                    }
                    (None, None) => {
                        ui.label("");
                        ui.label("");
                    }
                }
                let (text, bad) = match c.verdict {
                    Verdict::Matches => ("matches".to_owned(), false),
                    Verdict::Differs => (format!("differs: the seed gives {}", c.replayed.as_deref().unwrap_or("?")), true),
                    Verdict::TypedIn => ("typed in, not checked".to_owned(), false),
                    Verdict::BeforeCommitment => ("before the commitment".to_owned(), false),
                };
                let text = if bad { RichText::new(text).color(ui.visuals().error_fg_color) } else { RichText::new(text) };
                ui.label(text);
                ui.end_row();
            }
        });
    });
}
