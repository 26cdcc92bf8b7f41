//! The options of a battle pack, or of turn reports, and the folder they are written to:
//! the shell keeps the last choices, and either engine's pack window offers them. Also the
//! list of files written, and the desktop's file manager opened on their folder.

use std::path::{Path, PathBuf};

use egui::RichText;
use referee_battle_gen::dbsa::{FigureScale, Scaling};
pub use referee_battle_gen::pack::WrittenFile;
use referee_battle_gen::pack::{Existing, PackOptions, Reader, WriteError};
use referee_battle_gen::{Paper, TabletopSystem};
use referee_campaign::CampaignId;
use referee_campaign::ids::SideId;
use referee_campaign::store::Store;

/// How the campaign's commands become DBSA armies, without the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbsaScaling {
    /// The whole battle by one factor: the default, the only one that keeps the odds.
    PerBattle,
    PerSide,
    PerCommand,
    OneToOne,
}

impl DbsaScaling {
    const ALL: [DbsaScaling; 4] = [DbsaScaling::PerBattle, DbsaScaling::PerSide, DbsaScaling::PerCommand, DbsaScaling::OneToOne];

    fn name(self) -> &'static str {
        match self {
            DbsaScaling::PerBattle => "per battle",
            DbsaScaling::PerSide => "per side",
            DbsaScaling::PerCommand => "per command",
            DbsaScaling::OneToOne => "one to one",
        }
    }

    fn with_size(self, elements: u32) -> Scaling {
        match self {
            DbsaScaling::PerBattle => Scaling::PerBattle { elements },
            DbsaScaling::PerSide => Scaling::PerSide { elements },
            DbsaScaling::PerCommand => Scaling::PerCommand { elements },
            DbsaScaling::OneToOne => Scaling::OneToOne,
        }
    }
}

/// What the referee chose for the packs, kept for the session: the next pack window opens
/// with the last choices.
#[derive(Debug, Clone, PartialEq)]
pub struct PackSettings {
    pub paper: Paper,
    pub system: TabletopSystem,
    pub scaling: DbsaScaling,
    /// Elements of the largest side's DBSA army (per battle), or of each army (per side, per
    /// command).
    pub size: u32,
    pub figures: FigureScale,
    /// The folder the PDFs are written into, as typed (`~/` is the home folder).
    pub folder: String,
    /// What became of the last "Choose folder…", when no folder came of it.
    pub chooser_note: Option<String>,
    /// Replace files of the pack's names already in the folder; otherwise such a pack is
    /// refused and nothing is written.
    pub replace: bool,
}

impl PackSettings {
    /// The battle-gen defaults, written under the documents folder in a folder of the campaign.
    pub fn new(campaign: &str) -> PackSettings {
        let defaults = PackOptions::default();
        let (scaling, size) = match defaults.scaling {
            Scaling::PerBattle { elements } => (DbsaScaling::PerBattle, elements),
            Scaling::PerSide { elements } => (DbsaScaling::PerSide, elements),
            Scaling::PerCommand { elements } => (DbsaScaling::PerCommand, elements),
            Scaling::OneToOne => (DbsaScaling::OneToOne, referee_battle_gen::dbsa::STANDARD_ARMY),
        };
        PackSettings {
            paper: defaults.paper,
            system: defaults.system,
            scaling,
            size,
            figures: defaults.figures,
            folder: default_folder(campaign).display().to_string(),
            chooser_note: None,
            replace: false,
        }
    }

    pub fn options(&self) -> PackOptions {
        PackOptions {
            paper: self.paper,
            system: self.system,
            scaling: self.scaling.with_size(self.size),
            figures: self.figures,
            hex_units: None,
        }
    }

    /// What becomes of files of the pack's names already in the folder.
    pub fn existing(&self) -> Existing {
        if self.replace { Existing::Replace } else { Existing::Refuse }
    }

    /// The folder to write into, or why there is none.
    pub fn folder(&self) -> Result<PathBuf, String> {
        let typed = self.folder.trim();
        if typed.is_empty() {
            return Err("name a folder to write the pack into".to_owned());
        }
        let home = || directories::UserDirs::new().map(|u| u.home_dir().to_path_buf());
        match typed.strip_prefix("~/").or_else(|| (typed == "~").then_some("")) {
            Some(rest) => home().map(|h| h.join(rest)).ok_or_else(|| "there is no home folder to put `~` for".to_owned()),
            None => Ok(PathBuf::from(typed)),
        }
    }

    pub(crate) fn check(&self) -> Result<(), String> {
        if self.system == TabletopSystem::Dbsa && self.scaling != DbsaScaling::OneToOne && self.size == 0 {
            return Err("a DBSA army needs at least one element".to_owned());
        }
        self.folder().map(|_| ())
    }
}

/// `Documents/referee packs/<campaign>` (the home folder where there is no documents folder).
pub(crate) fn default_folder(campaign: &str) -> PathBuf {
    let base = directories::UserDirs::new()
        .map(|u| u.document_dir().unwrap_or_else(|| u.home_dir()).to_path_buf())
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("referee packs").join(file_safe(campaign))
}

/// A campaign's name as a folder name: no separators or characters file systems refuse.
fn file_safe(name: &str) -> String {
    let cleaned: String = name
        .trim()
        .chars()
        .map(|c| if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') { '-' } else { c })
        .collect();
    let cleaned = cleaned.trim_matches(|c: char| c == '.' || c.is_whitespace()).to_owned();
    if cleaned.is_empty() { "campaign".to_owned() } else { cleaned }
}

/// Why a side's view makes no battle pack.
pub(crate) const UMPIRE_ONLY: &str = "battle packs are made in the umpire's view: each side's file holds only what it knows";

/// Why a pack from the window was not written, in the referee's words.
#[derive(Debug)]
pub(crate) struct Refused(pub String);

impl From<WriteError> for Refused {
    fn from(e: WriteError) -> Refused {
        Refused(match e {
            WriteError::Exists { folder, names } => format!(
                "{} already holds {}; nothing was written: choose another folder, or tick \"Replace files already there\"",
                folder.display(),
                names.join(", ")
            ),
            other => other.to_string(),
        })
    }
}

/// The key of a campaign's pack folder in the file's settings.
fn folder_key(id: CampaignId) -> String {
    format!("pack_folder/{}", id.0)
}

/// The folder the referee chose for this campaign's packs last time, if any.
pub(crate) fn kept_folder(store: &Store, id: CampaignId) -> Option<String> {
    store.setting(&folder_key(id)).ok().flatten()
}

/// Keeps a pack window's choices in `last` for the next one, and its folder as the
/// campaign's in the file's settings.
pub(crate) fn keep(store: &mut Store, id: CampaignId, last: &mut PackSettings, settings: PackSettings) {
    // Only a preference: a file opened for reading keeps the folder for the session.
    let _ = store.set_setting(&folder_key(id), Some(&settings.folder));
    *last = settings;
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn kilobytes(bytes: usize) -> String {
    format!("{:.0} KB", (bytes as f64 / 1024.0).ceil())
}

/// The files of a pack or of turn reports, one a line: name, reader, pages, size; and under
/// them what a file could not print.
pub(crate) fn files_grid_ui(ui: &mut egui::Ui, id: &str, files: &[WrittenFile], side_name: &dyn Fn(&SideId) -> String) {
    egui::Grid::new(id).num_columns(4).striped(true).spacing([14.0, 3.0]).show(ui, |ui| {
        for h in ["File", "For", "Pages", "Size"] {
            ui.label(RichText::new(h).weak());
        }
        ui.end_row();
        for f in files {
            ui.label(file_name(&f.path)).on_hover_text(f.path.display().to_string());
            ui.label(match &f.reader {
                Reader::Umpire => "umpire".to_owned(),
                Reader::Side(s) => side_name(s),
                Reader::Everyone => "every player".to_owned(),
            });
            ui.label(f.pages.to_string());
            ui.label(kilobytes(f.bytes));
            ui.end_row();
        }
    });
    for warning in files.iter().filter_map(WrittenFile::glyph_warning) {
        ui.colored_label(ui.visuals().warn_fg_color, warning);
    }
}

/// The options of a pack: paper, rules, DBSA scaling and figures, the folder, and whether
/// files already there are replaced.
pub(crate) fn options_ui(ui: &mut egui::Ui, s: &mut PackSettings) {
    egui::Grid::new("pack_options").num_columns(2).spacing([10.0, 6.0]).show(ui, |ui| {
        ui.label("Paper");
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.paper, Paper::A4, "A4");
            ui.radio_value(&mut s.paper, Paper::Letter, "US Letter");
        });
        ui.end_row();
        ui.label("Rules");
        ui.horizontal(|ui| {
            for system in [TabletopSystem::Dbm, TabletopSystem::Dbsa, TabletopSystem::ArsBellum, TabletopSystem::ALaCharge] {
                ui.radio_value(&mut s.system, system, system.name());
            }
        })
        .response
        .on_hover_text("The tabletop rules the rosters are written for");
        ui.end_row();
        if s.system == TabletopSystem::Dbsa {
            let l = ui.label("Scaling");
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt("pack_scaling")
                    .selected_text(s.scaling.name())
                    .width(110.0)
                    .show_ui(ui, |ui| {
                        for k in DbsaScaling::ALL {
                            ui.selectable_value(&mut s.scaling, k, k.name()).on_hover_text(k.with_size(s.size).label());
                        }
                    })
                    .response
                    .labelled_by(l.id)
                    .on_hover_text(s.options().scaling.label());
                let per_army = s.scaling != DbsaScaling::OneToOne;
                let l = ui.add_enabled(per_army, egui::Label::new("size"));
                ui.add_enabled(per_army, egui::DragValue::new(&mut s.size).range(1..=99).speed(0.2).suffix(" elements"))
                    .labelled_by(l.id)
                    .on_hover_text(if s.scaling == DbsaScaling::PerBattle {
                        "Elements of the largest side's DBSA army; the others get fewer by the same factor (12 is the ordinary game)"
                    } else {
                        "Elements in each DBSA army (12 is the ordinary game)"
                    })
                    .on_disabled_hover_text("One to one: every campaign element is a DBSA element");
            });
            ui.end_row();
            let l = ui.label("Figures");
            egui::ComboBox::from_id_salt("pack_figures")
                .selected_text(s.figures.label())
                .width(80.0)
                .show_ui(ui, |ui| {
                    for f in FigureScale::ALL {
                        ui.selectable_value(&mut s.figures, f, f.label());
                    }
                })
                .response
                .labelled_by(l.id)
                .on_hover_text("The figure scale: distances on the sheets in inches and centimetres");
            ui.end_row();
        }
        let l = ui.label("Folder");
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut s.folder).desired_width(320.0))
                .labelled_by(l.id)
                .on_hover_text("The PDFs are written here; the folder is made if it is missing");
            if ui.button("Choose folder…").on_hover_text("Pick the folder in the system's dialog").clicked() {
                let start = s.folder().ok().filter(|p| p.is_dir());
                let dialog = rfd::FileDialog::new().set_title("Folder for the battle packs");
                let dialog = match start {
                    Some(dir) => dialog.set_directory(dir),
                    None => dialog,
                };
                match dialog.pick_folder() {
                    Some(dir) => {
                        s.folder = dir.display().to_string();
                        s.chooser_note = None;
                    }
                    // Cancelled, or no dialog could be shown: the two look the same from here.
                    None => {
                        s.chooser_note = Some(
                            "No folder was chosen. If no dialog appeared, this desktop offers none: type the folder's path.".to_owned(),
                        );
                    }
                }
            }
        });
        ui.end_row();
        if let Some(note) = &s.chooser_note {
            ui.label("");
            ui.add(egui::Label::new(RichText::new(note).weak()).wrap());
            ui.end_row();
        }
        ui.label("");
        ui.checkbox(&mut s.replace, "Replace files already there").on_hover_text(
            "A file of the pack's name in the folder is replaced. Without this, such a pack is refused and nothing is written.",
        );
        ui.end_row();
    });
}

/// Shows `dir` in the desktop's file manager.
pub(crate) fn open_folder(dir: &Path) -> Result<(), String> {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let mut child = std::process::Command::new(program)
        .arg(dir)
        .spawn()
        .map_err(|e| format!("could not open {} with {program}: {e}", dir.display()))?;
    // Reaped in the background, so that no finished file manager lingers.
    std::thread::spawn(move || child.wait());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_name_becomes_a_folder_name() {
        assert_eq!(file_safe("Dionysian War 1"), "Dionysian War 1");
        assert_eq!(file_safe("a/b: c?"), "a-b- c-");
        assert_eq!(file_safe(" .. "), "campaign");
    }

    #[test]
    fn the_default_folder_is_named_for_the_campaign() {
        let folder = default_folder("Smoke");
        assert!(folder.ends_with(Path::new("referee packs").join("Smoke")), "{}", folder.display());
    }

    #[test]
    fn an_empty_folder_is_refused() {
        let mut s = PackSettings::new("x");
        s.folder = "  ".to_owned();
        assert!(s.check().is_err());
    }
}
