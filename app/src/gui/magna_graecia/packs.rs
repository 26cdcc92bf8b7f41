//! Magna Graecia's battle packs from the window: the pack window of one battle or of
//! every battle due, and the packs of every battle due written on a background thread with
//! a progress bar. The options, the folder and the list of files written are the widgets'
//! that both engines share.
//!
//! Packs are made from the whole campaign state, so only the umpire's view offers them; each
//! side's file inside a pack is still built from that side's own view by battle-gen.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use egui::RichText;
use referee_battle_gen::TabletopSystem;
use referee_battle_gen::pack::{Destination, Existing, PackOptions};
use referee_campaign::CampaignId;
use referee_campaign::magna_graecia::view::{Board, View};
use referee_campaign::store::KeptTable;
use referee_campaign::{SideId, magna_graecia::event::Logged, magna_graecia::map::Map, magna_graecia::state::CampaignState};

use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::shell::command::AppCommand;
use crate::gui::widgets::packs::{PackSettings, Refused, WrittenFile, files_grid_ui, options_ui};

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
    referee_battle_gen::magna_graecia::write_pack(state, map, events, battle, options, to, before).map_err(|Refused(e)| e)
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

/// A list of packs let go — its campaign closed, another database opened — stops its thread
/// after the battle being written.
impl Drop for PackJob {
    fn drop(&mut self) {
        self.stop();
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
        // Anchored by its top, with its buttons first: choosing other rules changes the height
        // of what follows them, never where "Write pack" is.
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(egui::pos2(ctx.content_rect().center().x, ctx.content_rect().top() + 60.0))
        .default_width(520.0)
        .open(&mut open)
        .show(ctx, |ui| {
            let running = data.job.is_some_and(PackJob::running);
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
                        Some(battle) => AppCommand::from(MagnaGraeciaCommand::WritePack { battle, settings }),
                        None => AppCommand::from(MagnaGraeciaCommand::WriteAllPacks { settings }),
                    });
                }
                if ui.button("Close").clicked() {
                    commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
                }
            });
            if let Err(e) = &check {
                ui.label(RichText::new(e).color(red));
            }
            ui.add_space(4.0);
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
            ui.add_enabled_ui(!running, |ui| options_ui(ui, &mut form.settings));
            ui.add_space(6.0);
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
                        files_grid_ui(ui, "pack_files", files, &|s: &SideId| board.side_name(s));
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
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
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
                commands.push(MagnaGraeciaCommand::StopPacks.into());
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
                commands.push(MagnaGraeciaCommand::StopPacks.into());
            }
        });
        if !job.files.is_empty() {
            egui::CollapsingHeader::new("Files")
                .id_salt("pack_job_files")
                .show(ui, |ui| files_grid_ui(ui, "pack_job_grid", &job.files, &|s: &SideId| board.side_name(s)));
        }
    }
    for e in &job.errors {
        ui.add(egui::Label::new(RichText::new(e).color(red)).wrap());
    }
}
