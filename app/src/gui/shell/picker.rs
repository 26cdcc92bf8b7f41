//! The campaign picker: the campaigns in the database, and the form that starts a new one.

use std::path::Path;

use egui::RichText;
use referee_campaign::core::engine::EngineId;
use referee_campaign::store::CampaignSummary;

use crate::gui::shell::command::{AppCommand, Message};

/// What the picker shows; it reads the store only through this.
#[derive(Debug)]
pub(crate) struct PickerData<'a> {
    pub db: &'a Path,
    pub campaigns: &'a [CampaignSummary],
    pub scenarios: &'a [ScenarioChoice],
    /// The campaign open behind the picker, if any.
    pub current: Option<&'a str>,
    pub message: Option<&'a Message>,
}

/// A scenario the picker offers, of either campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ScenarioChoice {
    pub campaign: EngineId,
    pub id: String,
    pub name: String,
    pub period: String,
    pub summary: String,
    pub turns: u32,
    pub sides: Vec<String>,
}

impl ScenarioChoice {
    fn label(&self) -> String {
        format!("{} — {} ({})", self.campaign.title(), self.name, self.period)
    }
}

/// The new-campaign form's fields, kept between frames.
#[derive(Debug, Clone, Default)]
pub(crate) struct PickerForm {
    scenario: usize,
    name: String,
    /// Whether the name is still the suggested one, to be replaced when the scenario changes.
    name_suggested: bool,
    seed: String,
    /// The campaign whose deletion waits for the referee's second word.
    deleting: Option<String>,
    /// The campaign being renamed, and the name typed so far.
    renaming: Option<(String, String)>,
    /// The new name's field takes the keyboard when it appears.
    focus_rename: bool,
}

impl PickerForm {
    pub fn new() -> Self {
        PickerForm { name_suggested: true, ..PickerForm::default() }
    }

    /// The index of the chosen scenario in the catalog.
    pub fn scenario_index(&self) -> usize {
        self.scenario
    }

    /// Puts "<scenario name> <n>" in the name field, the first such name not yet taken,
    /// unless the referee has typed a name of their own.
    pub fn suggest_name(&mut self, scenarios: &[ScenarioChoice], campaigns: &[CampaignSummary]) {
        if !self.name_suggested && !self.name.trim().is_empty() {
            return;
        }
        if let Some(s) = scenarios.get(self.scenario) {
            self.name = crate::suggested_name(&s.name, campaigns);
            self.name_suggested = true;
        }
    }
}

fn seed_of(text: &str) -> Result<Option<u64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<u64>().map(Some).map_err(|_| format!("the seed must be a whole number from 0 to {}, or empty for a random one", u64::MAX))
}

pub(crate) fn picker_ui(ui: &mut egui::Ui, data: &PickerData<'_>, form: &mut PickerForm, commands: &mut Vec<AppCommand>) {
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        let width = ui.available_width().min(720.0);
        let pad = ((ui.available_width() - width) / 2.0).max(0.0);
        ui.horizontal(|ui| {
            ui.add_space(pad);
            ui.vertical(|ui| {
                ui.set_width(width);
                picker_column_ui(ui, data, form, commands);
            });
        });
    });
}

fn picker_column_ui(ui: &mut egui::Ui, data: &PickerData<'_>, form: &mut PickerForm, commands: &mut Vec<AppCommand>) {
    ui.add_space(16.0);
    if let Some(current) = data.current {
        ui.horizontal(|ui| {
            if ui.button(format!("← Back to {current}")).clicked() {
                commands.push(AppCommand::ShowPicker(false));
            }
        });
        ui.add_space(8.0);
    }
    campaign_list_ui(ui, data, form, commands);
    ui.add_space(16.0);
    ui.separator();
    new_campaign_ui(ui, data, form, commands);
    if let Some(m) = data.message.filter(|m| m.is_error) {
        ui.add_space(8.0);
        ui.label(RichText::new(&m.text).color(ui.visuals().error_fg_color));
    }
}

fn campaign_list_ui(ui: &mut egui::Ui, data: &PickerData<'_>, form: &mut PickerForm, commands: &mut Vec<AppCommand>) {
    let PickerForm { deleting, renaming, focus_rename, .. } = form;
    ui.heading("Campaigns");
    ui.label(RichText::new(format!("in {}", data.db.display())).weak());
    ui.add_space(4.0);
    if data.campaigns.is_empty() {
        ui.label("No campaign yet: start one below.");
        return;
    }
    egui::Grid::new("campaigns").striped(true).num_columns(5).spacing([16.0, 6.0]).show(ui, |ui| {
        ui.label(RichText::new("Name").strong());
        ui.label(RichText::new("Scenario").strong());
        ui.label(RichText::new("Started").strong());
        ui.label(RichText::new("Orders given").strong()).on_hover_text("Orders stored so far, the start among them");
        ui.label("");
        ui.end_row();
        for c in data.campaigns {
            let scenario = data.scenarios.iter().find(|s| s.id == c.scenario).map_or(c.scenario.as_str(), |s| s.name.as_str());
            match renaming {
                Some((which, typed)) if *which == c.name => {
                    let field = ui.add(egui::TextEdit::singleline(typed).desired_width(160.0));
                    if std::mem::take(focus_rename) {
                        field.request_focus();
                    }
                    let label = format!("The new name of {}", c.name);
                    field.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, &label));
                    let field = field.on_hover_text(&label);
                    let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if entered && !typed.trim().is_empty() {
                        commands.push(AppCommand::RenameCampaign { campaign: c.name.clone(), name: typed.clone() });
                        *renaming = None;
                    }
                }
                _ => {
                    ui.label(&c.name);
                }
            }
            ui.label(scenario);
            ui.label(c.created_at.get(..10).unwrap_or(&c.created_at));
            ui.label(c.commands.to_string());
            ui.horizontal(|ui| {
                let open = ui.button("Open").on_hover_text(format!("Open {}", c.name));
                if open.clicked() {
                    commands.push(AppCommand::OpenCampaign(c.name.clone()));
                }
                if deleting.as_deref() == Some(c.name.as_str()) {
                    // The second word, in the row itself: nothing else moves.
                    let red = ui.visuals().error_fg_color;
                    let sure = ui
                        .button(RichText::new("Delete for good").color(red))
                        .accessible_name(format!("Delete {} for good", c.name))
                        .on_hover_text("Its orders, events, battles and kept tables go with it; other campaigns of the file stay");
                    if sure.clicked() {
                        commands.push(AppCommand::DeleteCampaign(c.name.clone()));
                        *deleting = None;
                    }
                    if ui.button("Keep it").clicked() {
                        *deleting = None;
                    }
                } else if let Some((which, typed)) = renaming.as_mut().filter(|(which, _)| *which == c.name) {
                    let new = typed.trim().to_owned();
                    let rename = ui
                        .add_enabled(!new.is_empty() && new != *which, egui::Button::new("Rename"))
                        .on_disabled_hover_text("Type a new name first");
                    if rename.clicked() {
                        commands.push(AppCommand::RenameCampaign { campaign: which.clone(), name: new });
                        *renaming = None;
                    } else if ui.button("Keep the name").clicked() {
                        *renaming = None;
                    }
                } else {
                    if ui.button("Rename…").accessible_name(format!("Rename {}…", c.name)).clicked() {
                        *renaming = Some((c.name.clone(), c.name.clone()));
                        *focus_rename = true;
                        *deleting = None;
                    }
                    if ui.button("Delete…").accessible_name(format!("Delete {}…", c.name)).clicked() {
                        *deleting = Some(c.name.clone());
                    }
                }
            });
            ui.end_row();
        }
    });
}

fn new_campaign_ui(ui: &mut egui::Ui, data: &PickerData<'_>, form: &mut PickerForm, commands: &mut Vec<AppCommand>) {
    ui.heading("New campaign");
    ui.add_space(4.0);
    let before = form.scenario;
    egui::Grid::new("new_campaign").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
        let label = ui.label("Scenario");
        let selected = data.scenarios.get(form.scenario).map_or("—".to_owned(), ScenarioChoice::label);
        egui::ComboBox::new("scenario", "")
            .selected_text(selected)
            .width(380.0)
            .show_ui(ui, |ui| {
                for (i, s) in data.scenarios.iter().enumerate() {
                    ui.selectable_value(&mut form.scenario, i, s.label()).on_hover_text(&s.summary);
                }
            })
            .response
            .labelled_by(label.id);
        ui.end_row();

        ui.label("");
        if let Some(s) = data.scenarios.get(form.scenario) {
            let sides = s.sides.join(", ");
            ui.add(egui::Label::new(RichText::new(format!("{}\n{} turns · sides: {sides}", s.summary, s.turns)).weak()).wrap());
        }
        ui.end_row();

        let label = ui.label("Name");
        let name = ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(320.0)).labelled_by(label.id);
        if name.changed() {
            form.name_suggested = false;
        }
        ui.end_row();

        let label = ui.label("Seed");
        ui.add(egui::TextEdit::singleline(&mut form.seed).hint_text("empty: a random seed").desired_width(320.0))
            .labelled_by(label.id)
            .on_hover_text("The dice stream's seed. The same seed rolls the same dice, so a campaign can be replayed.");
        ui.end_row();
    });
    if form.scenario != before {
        form.name_suggested = true;
        if let Some(s) = data.scenarios.get(form.scenario) {
            form.name = crate::suggested_name(&s.name, data.campaigns);
        }
    }
    let seed = seed_of(&form.seed);
    if let Err(e) = &seed {
        ui.label(RichText::new(e).color(ui.visuals().error_fg_color));
    }
    ui.add_space(6.0);
    let ready = seed.is_ok() && !form.name.trim().is_empty() && data.scenarios.get(form.scenario).is_some();
    let create = ui.add_enabled(ready, egui::Button::new(RichText::new("Create").strong()).min_size(egui::vec2(96.0, 26.0)));
    if create.clicked()
        && let (Ok(seed), Some(s)) = (seed, data.scenarios.get(form.scenario))
    {
        commands.push(AppCommand::CreateCampaign { scenario: s.id.clone(), name: form.name.trim().to_owned(), seed });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggested_names_skip_taken_ones() {
        let taken = |name: &str| CampaignSummary {
            id: referee_campaign::CampaignId(1),
            name: name.to_owned(),
            engine: EngineId::MagnaGraecia,
            scenario: "dionysian".into(),
            created_at: String::new(),
            commands: 1,
            events: 1,
        };
        assert_eq!(crate::suggested_name("Dionysian War", &[]), "Dionysian War 1");
        assert_eq!(crate::suggested_name("Dionysian War", &[taken("Dionysian War 1"), taken("Dionysian War 3")]), "Dionysian War 2");
    }

    #[test]
    fn seeds_are_whole_numbers_or_empty() {
        assert_eq!(seed_of(" "), Ok(None));
        assert_eq!(seed_of("42"), Ok(Some(42)));
        assert!(seed_of("-1").unwrap_err().contains("whole number"));
    }
}
