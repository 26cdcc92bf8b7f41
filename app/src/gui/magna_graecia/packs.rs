//! Battle packs from the window: the options of one battle's pack and the folder it
//! goes to, the files written with their readers, and the packs of every battle due written
//! on a background thread with a progress bar.
//!
//! Packs are made from the whole campaign state, so only the umpire's view offers them; each
//! side's file inside a pack is still built from that side's own view by battle-gen.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use egui::RichText;
use referee_battle_gen::dbsa::{FigureScale, Scaling};
pub use referee_battle_gen::pack::WrittenFile;
use referee_battle_gen::pack::{Destination, Existing, PackOptions, Reader, WriteError};
use referee_battle_gen::{Paper, TabletopSystem};
use referee_campaign::CampaignId;
use referee_campaign::store::KeptTable;
use referee_campaign::view::{Board, View};
use referee_campaign::{CampaignState, Logged, Map, SideId};

use crate::gui::magna_graecia::dialogs::shared::side_name;
use crate::gui::shell::app::AppCommand;

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

/// Makes one battle's pack and writes its files into their folder (made if missing);
/// `before` runs before the first file is written.
pub(crate) fn write_pack(
    state: &CampaignState,
    map: &Map,
    events: &[Logged],
    battle: u32,
    options: &PackOptions,
    to: Destination<'_>,
    before: impl FnOnce() -> Result<(), Refused>,
) -> Result<Vec<WrittenFile>, String> {
    referee_battle_gen::pack::write_pack(state, map, events, battle, options, to, before).map_err(|Refused(e)| e)
}

/// What every battle's pack is written with: the referee's options, what becomes of files
/// already there, and the tables to keep with each battle written.
#[derive(Debug, Clone)]
pub(crate) struct JobOptions {
    pub options: PackOptions,
    pub existing: Existing,
    pub kept: Vec<KeptTable>,
}

// ---------------------------------------------------------------------------------------
// Every battle on a background thread

/// What the background thread reports.
#[derive(Debug)]
enum JobUpdate {
    /// Starting the `index`-th battle (from 1).
    Started {
        index: usize,
        battle: u32,
    },
    Wrote {
        battle: u32,
        files: Vec<WrittenFile>,
    },
    Failed {
        battle: u32,
        error: String,
    },
}

/// The packs of every battle due, being written on a background thread.
#[derive(Debug)]
pub(crate) struct PackJob {
    rx: Receiver<JobUpdate>,
    stop: Arc<AtomicBool>,
    pub folder: PathBuf,
    pub total: usize,
    /// The battle being written, counted from 1, and its number.
    pub current: Option<(usize, u32)>,
    /// Battles finished, written or failed.
    pub done: usize,
    pub files: Vec<WrittenFile>,
    pub errors: Vec<String>,
    pub finished: bool,
    pub stopped: bool,
    /// The campaign whose packs these are.
    pub campaign: CampaignId,
    /// The tables each battle's pack was counted by, to keep with it once written.
    pub kept: Vec<KeptTable>,
    /// Battles written whose tables are still to be kept.
    written: Vec<u32>,
}

impl PackJob {
    /// Starts writing the packs of `battles` into `folder` from a copy of the campaign.
    pub fn start(
        (campaign, state): (CampaignId, CampaignState),
        map: Map,
        events: Vec<Logged>,
        battles: Vec<u32>,
        job: JobOptions,
        folder: PathBuf,
    ) -> PackJob {
        let JobOptions { options, existing, kept } = job;
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let total = battles.len();
        let (flag, dir) = (Arc::clone(&stop), folder.clone());
        std::thread::spawn(move || {
            for (i, battle) in battles.into_iter().enumerate() {
                if flag.load(Ordering::Relaxed) || tx.send(JobUpdate::Started { index: i + 1, battle }).is_err() {
                    return;
                }
                let update = match write_pack(&state, &map, &events, battle, &options, Destination { folder: &dir, existing }, || Ok(())) {
                    Ok(files) => JobUpdate::Wrote { battle, files },
                    Err(error) => JobUpdate::Failed { battle, error },
                };
                if tx.send(update).is_err() {
                    return;
                }
            }
        });
        PackJob {
            rx,
            stop,
            folder,
            total,
            current: None,
            done: 0,
            files: Vec::new(),
            errors: Vec::new(),
            finished: total == 0,
            stopped: false,
            campaign,
            kept,
            written: Vec::new(),
        }
    }

    /// Takes in what the thread has reported since the last frame.
    pub fn poll(&mut self) {
        loop {
            match self.rx.try_recv() {
                Ok(JobUpdate::Started { index, battle }) => self.current = Some((index, battle)),
                Ok(JobUpdate::Wrote { battle, files }) => {
                    self.done += 1;
                    self.files.extend(files);
                    self.written.push(battle);
                }
                Ok(JobUpdate::Failed { battle, error }) => {
                    self.done += 1;
                    self.errors.push(format!("battle {battle}: {error}"));
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.finished = true;
                    self.current = None;
                    break;
                }
            }
        }
    }

    /// The battles written since the last call, whose tables are to be kept with them.
    pub fn take_written(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.written)
    }

    pub fn running(&self) -> bool {
        !self.finished
    }

    /// Asks the thread to stop after the battle it is writing.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.stopped = true;
    }
}

// ---------------------------------------------------------------------------------------
// The window

/// The pack window's entries: one battle's pack, or every battle's.
#[derive(Debug, Clone)]
pub(crate) struct PackForm {
    /// `None`: every battle due.
    pub battle: Option<u32>,
    pub settings: PackSettings,
    /// What the last "Write pack" gave (one battle only).
    pub outcome: Option<Result<Vec<WrittenFile>, String>>,
}

impl PackForm {
    pub fn new(battle: Option<u32>, settings: PackSettings) -> PackForm {
        PackForm { battle, settings, outcome: None }
    }
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

/// What the pack window draws from besides its entries.
pub(crate) struct PackData<'a> {
    pub map: &'a Map,
    pub view: &'a View,
    pub job: Option<&'a PackJob>,
}

/// The "Battle pack" window of one battle, or of every battle due.
pub(crate) fn pack_window_ui(ctx: &egui::Context, form: &mut PackForm, data: &PackData<'_>, commands: &mut Vec<AppCommand>) {
    let board = data.view.board();
    let title = match form.battle.and_then(|id| board.battles.iter().find(|b| b.id == id)) {
        Some(b) => format!("Battle pack — battle {} at {}", b.id, data.map.name(b.node)),
        None => format!("Battle packs — every battle due ({})", board.battles.len()),
    };
    let mut open = true;
    egui::Window::new(title)
        .id(egui::Id::unique("battle_pack_window"))
        .collapsible(false)
        .resizable(true)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .default_width(520.0)
        .open(&mut open)
        .show(ctx, |ui| {
            let what = match form.settings.system {
                TabletopSystem::Dbm | TabletopSystem::Dbsa => {
                    "The umpire's sheet and, for each side, its brief, roster and table section, each from what that side knows."
                }
                TabletopSystem::ArsBellum | TabletopSystem::ALaCharge => {
                    "The umpire's sheet and, for each side, its brief, its counters, the scenario and the hex map, each from what that side knows; and the map at full size, on A3 and on sheets that join, for every player."
                }
            };
            ui.add(egui::Label::new(RichText::new(what).weak()).wrap());
            ui.add_space(4.0);
            let running = data.job.is_some_and(PackJob::running);
            ui.add_enabled_ui(!running, |ui| options_ui(ui, &mut form.settings));
            ui.add_space(6.0);
            let check = form.settings.check();
            let red = ui.visuals().error_fg_color;
            ui.horizontal(|ui| {
                let (text, hover) = match form.battle {
                    Some(_) => ("Write pack", "Make the PDFs and write them into the folder"),
                    None => ("Write packs", "Write the pack of every battle due into the folder, one battle after another"),
                };
                let go = ui.add_enabled(check.is_ok() && !running, egui::Button::new(RichText::new(text).strong())).on_hover_text(hover);
                let go = match &check {
                    Err(e) => go.on_disabled_hover_text(e.clone()),
                    Ok(()) => go.on_disabled_hover_text("Packs are being written"),
                };
                if go.clicked() {
                    let settings = form.settings.clone();
                    commands.push(match form.battle {
                        Some(battle) => AppCommand::WritePack { battle, settings },
                        None => AppCommand::WriteAllPacks { settings },
                    });
                }
                if ui.button("Close").clicked() {
                    commands.push(AppCommand::OpenDialog(None));
                }
            });
            if let Err(e) = &check {
                ui.label(RichText::new(e).color(red));
            }
            match form.battle {
                Some(_) => match &form.outcome {
                    Some(Ok(files)) => {
                        ui.add_space(4.0);
                        let folder = files.first().and_then(|f| f.path.parent()).map(|p| p.display().to_string()).unwrap_or_default();
                        ui.horizontal(|ui| {
                            ui.label(RichText::new(format!("Written into {folder}:")).strong());
                            if ui.small_button("Open folder").clicked() {
                                commands.push(AppCommand::OpenFolder(PathBuf::from(&folder)));
                            }
                        });
                        files_grid_ui(ui, "pack_files", files, &|s: &SideId| side_name(board, s));
                    }
                    Some(Err(e)) => {
                        ui.add(egui::Label::new(RichText::new(e).color(red)).wrap());
                    }
                    None => {}
                },
                None => {
                    if let Some(job) = data.job {
                        ui.add_space(4.0);
                        job_ui(ui, board, job, commands);
                    }
                }
            }
        });
    if !open {
        commands.push(AppCommand::OpenDialog(None));
    }
}

/// The progress of the packs of every battle: a bar while running, then what was written.
pub(crate) fn job_ui(ui: &mut egui::Ui, board: &Board, job: &PackJob, commands: &mut Vec<AppCommand>) {
    let red = ui.visuals().error_fg_color;
    if job.running() {
        let (index, battle) = job.current.unwrap_or((job.done + 1, 0));
        let text = if battle == 0 || battle as usize == index {
            format!("battle {index} of {}", job.total)
        } else {
            format!("battle {index} of {} (battle {battle})", job.total)
        };
        ui.horizontal(|ui| {
            let fraction = job.done as f32 / job.total.max(1) as f32;
            ui.add(egui::ProgressBar::new(fraction).text(text).desired_width(260.0).animate(true));
            let stop = ui.add_enabled(!job.stopped, egui::Button::new("Stop")).on_hover_text("Stop after the battle being written");
            if stop.clicked() {
                commands.push(AppCommand::StopPacks);
            }
        });
    } else {
        let count = |n: usize, one: &str, many: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {many}") };
        let files = count(job.files.len(), "file", "files");
        let what = if job.stopped && job.done < job.total {
            format!("Stopped after {} of {}: {files} in {}", job.done, count(job.total, "battle", "battles"), job.folder.display())
        } else {
            format!("Packs of {} written: {files} in {}", count(job.done, "battle", "battles"), job.folder.display())
        };
        ui.horizontal_wrapped(|ui| {
            ui.add(egui::Label::new(RichText::new(what).strong()).wrap());
            if ui.small_button("Open folder").clicked() {
                commands.push(AppCommand::OpenFolder(job.folder.clone()));
            }
            if ui.small_button("Dismiss").on_hover_text("Forget this list; the files stay where they are").clicked() {
                commands.push(AppCommand::StopPacks);
            }
        });
        if !job.files.is_empty() {
            egui::CollapsingHeader::new("Files")
                .id_salt("pack_job_files")
                .show(ui, |ui| files_grid_ui(ui, "pack_job_grid", &job.files, &|s: &SideId| side_name(board, s)));
        }
    }
    for e in &job.errors {
        ui.add(egui::Label::new(RichText::new(e).color(red)).wrap());
    }
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
