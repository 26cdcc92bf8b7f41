//! The window that prints a past battle's pack again (X-04, BE-17): a brief lost after the
//! game is printed as the battle stood when it went to the table, read again from the log.
//! Whichever engine runs the campaign, its desk lists the battles and writes the pack; the
//! window only chooses. Packs hold every side's secrets, so only the umpire's view opens it.

use egui::RichText;
use referee_campaign::ids::SideId;

use crate::gui::shell::command::AppCommand;
use crate::gui::widgets::packs::{PackSettings, WrittenFile, files_grid_ui, options_ui};
use crate::past::PastBattle;

/// The window's entries, kept between frames.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PastPacksForm {
    /// The battle chosen, by its number.
    pub battle: Option<u32>,
    pub settings: PackSettings,
    /// What the last "Write pack" gave.
    pub written: Option<Result<Vec<WrittenFile>, String>>,
}

impl PastPacksForm {
    /// The form with the last battle that had a pack chosen.
    pub fn new(battles: &[PastBattle], settings: PackSettings) -> PastPacksForm {
        let battle = battles.iter().rev().find(|b| b.before.is_some()).map(|b| b.number);
        PastPacksForm { battle, settings, written: None }
    }
}

/// Why the chosen battle's pack cannot be written with these choices, if it cannot.
fn refusal(form: &PastPacksForm, chosen: Option<&PastBattle>, campaign: &str) -> Option<String> {
    let Some(battle) = chosen else { return Some("choose a battle".to_owned()) };
    if let Some(why) = battle.no_pack(campaign) {
        return Some(why);
    }
    if form.settings.system.hex().is_some() {
        return Some(crate::past::hex_refused(battle.number));
    }
    form.settings.check().err()
}

/// What the window draws from besides its entries.
pub(crate) struct PastPacksData<'a> {
    pub campaign: &'a str,
    pub battles: &'a [PastBattle],
    pub sides: &'a [(SideId, String)],
}

pub(crate) fn past_packs_window_ui(ctx: &egui::Context, form: &mut PastPacksForm, data: &PastPacksData<'_>, queue: &mut Vec<AppCommand>) {
    let mut open = true;
    egui::Window::new("A past battle's pack")
        .open(&mut open)
        .collapsible(false)
        // Anchored by its top, its button first: other rules change only what follows.
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(egui::pos2(ctx.content_rect().center().x, ctx.content_rect().top() + 60.0))
        .default_width(540.0)
        .show(ctx, |ui| {
            if data.battles.is_empty() {
                ui.label("No battle is over yet. The pack of a battle under way is written from its own panel.");
                return;
            }
            let chosen = data.battles.iter().find(|b| Some(b.number) == form.battle);
            let refused = refusal(form, chosen, data.campaign);
            ui.horizontal(|ui| {
                let go = ui
                    .add_enabled(refused.is_none(), egui::Button::new(RichText::new("Write pack").strong()))
                    .on_hover_text("Make the PDFs as the battle stood when it went to the table, and write them into the folder");
                let go = match &refused {
                    Some(why) => go.on_disabled_hover_text(why.clone()),
                    None => go,
                };
                if go.clicked()
                    && let Some(battle) = form.battle
                {
                    queue.push(AppCommand::WritePastPack { battle, settings: form.settings.clone() });
                }
                if ui.button("Close").clicked() {
                    queue.push(AppCommand::ShowPastPacks(false));
                }
            });
            if let Some(why) = &refused {
                ui.add(egui::Label::new(RichText::new(why).color(ui.visuals().error_fg_color)).wrap());
            }
            ui.add_space(4.0);
            ui.add(
                egui::Label::new(
                    RichText::new(
                        "The umpire's sheet and each side's brief, roster and table, from what that side knew when the battle \
                         went to the table: a copy of what was handed out, for a brief lost after the game.",
                    )
                    .weak(),
                )
                .wrap(),
            );
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                let label = ui.label("Battle");
                egui::ComboBox::from_id_salt("past_pack_battle")
                    .selected_text(chosen.map_or_else(|| "choose a battle".to_owned(), PastBattle::label))
                    .width(320.0)
                    .show_ui(ui, |ui| {
                        for b in data.battles {
                            let pick =
                                ui.add_enabled(b.before.is_some(), egui::Button::selectable(form.battle == Some(b.number), b.label()));
                            let pick = match b.no_pack(data.campaign) {
                                Some(why) => pick.on_disabled_hover_text(why),
                                None => pick,
                            };
                            if pick.clicked() {
                                form.battle = Some(b.number);
                                form.written = None;
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            ui.add_space(4.0);
            options_ui(ui, &mut form.settings);
            match &form.written {
                Some(Ok(files)) => {
                    ui.separator();
                    let folder = files.first().and_then(|f| f.path.parent()).map(std::path::Path::to_path_buf);
                    ui.horizontal(|ui| {
                        let shown = folder.as_ref().map(|f| f.display().to_string()).unwrap_or_default();
                        ui.label(RichText::new(format!("Written into {shown}:")).strong());
                        if let Some(dir) = folder.clone()
                            && ui.small_button("Open folder").clicked()
                        {
                            queue.push(AppCommand::OpenFolder(dir));
                        }
                    });
                    let name = |s: &SideId| crate::gui::widgets::words::side_name(data.sides, s);
                    files_grid_ui(ui, "past_pack_files", files, &name);
                }
                Some(Err(e)) => {
                    ui.add(egui::Label::new(RichText::new(e).color(ui.visuals().error_fg_color)).wrap());
                }
                None => {}
            }
        });
    if !open {
        queue.push(AppCommand::ShowPastPacks(false));
    }
}
