//! The app's state and the one place that changes a campaign: [`RefereeApp::apply_commands`].
//!
//! Panels draw from the view their desk keeps and push [`AppCommand`]s; the queue is applied
//! once per frame, before drawing, so every panel of a frame sees the same campaign. The app
//! applies the shell's own commands and hands an engine's to the desk on screen unread.

use std::path::{Path, PathBuf};

use referee_campaign::belisarius::World;
use referee_campaign::core::verify::{Commitment, fresh_salt};
use referee_campaign::store::{CampaignSummary, Undone};
use referee_campaign::{DiceInput, SideId, Store, Viewer, magna_graecia::catalog::Catalog};

use crate::gui::desk::{Desk, Previews, scenario_choices};
use crate::gui::engine::{DeskContext, Reply, ShellUi};
use crate::gui::shell::bar;
use crate::gui::shell::charts::{self, TurnWindows};
use crate::gui::shell::command::{AppCommand, Message};
use crate::gui::shell::dice::{self, DiceForm};
use crate::gui::shell::handover::{self, HandBack, SettingsForm};
use crate::gui::shell::log;
use crate::gui::shell::past_packs::{PastPacksData, PastPacksForm, past_packs_window_ui};
use crate::gui::shell::picker::{self, PickerForm, ScenarioChoice};
use crate::gui::shell::recent::Recent;
use crate::gui::widgets::packs::{self, PackSettings};
use crate::gui::widgets::roll::RollForm;
use crate::gui::widgets::words::{for_referee, side_name};
use referee_campaign::core::log::RollDice;

/// The setting, in the database file, naming the campaign the window opens on next time.
pub(crate) const LAST_CAMPAIGN_KEY: &str = "last_campaign";

/// The referee's window, independent of eframe so that tests can drive it in a harness.
#[derive(Debug)]
pub struct RefereeApp {
    store: Store,
    catalog: Catalog,
    /// Where the data tables are read from: a hex pack's conversion table among them.
    data: referee_data::DataSource,
    db: PathBuf,
    campaigns: Vec<CampaignSummary>,
    /// The campaign on screen, of whichever engine: one at a time.
    desk: Option<Desk>,
    /// The Belisarius world, for starting campaigns; `None` when the data folder has none.
    world: Option<World>,
    /// Every scenario the picker offers: Magna Graecia's, then Belisarius's.
    scenarios: Vec<ScenarioChoice>,
    show_picker: bool,
    picker: PickerForm,
    roll: RollForm,
    message: Option<Message>,
    queue: Vec<AppCommand>,
    context_ready: bool,
    /// The picker's map of the chosen scenario at its start.
    previews: Previews,
    /// The last choices of the pack window, for the next one.
    pack_settings: PackSettings,
    /// Orders undone since the last new order, the last undone on top, each with what it
    /// did in the referee's words.
    redo: Vec<(Undone, String)>,
    /// The hand-back screen, while a side's view asks for the referee.
    hand_back: Option<HandBack>,
    /// The settings window, while it is open.
    settings: Option<SettingsForm>,
    /// The offer of a passphrase before the first hand-over, while it is open.
    offer: Option<handover::OfferForm>,
    /// Orders refused since the campaign or the view changed, each after the log line it
    /// followed (by the number of lines then): shown in the log, marked as not stored.
    refusals: Vec<(usize, String)>,
    /// The last order given, in a few words, as stored: what Undo names.
    last_summary: Option<String>,
    /// What the log is filtered by; blank for every line.
    log_filter: String,
    /// The window's title as last set.
    title: String,
    /// The log panel's height as the referee left it, kept in the file's settings.
    log_height: f32,
    /// The log panel's height in the last frame drawn.
    log_seen: Option<f32>,
    /// The open campaign's commitment to its seed, public to every side.
    commitment: Option<Commitment>,
    /// Database files opened lately, the latest first.
    recent: Recent,
    /// The referee asked to close the window.
    quit: bool,
    /// The window was told to close.
    close_sent: bool,
    /// The file holds a hand-back passphrase.
    passphrase_set: bool,
    /// The Dice window, while it is open.
    dice: Option<DiceForm>,
    /// The Play by e-mail window, when open (umpire only).
    mail: Option<super::mail::MailForm>,
    /// The Charts and Turn reports windows, and the turn they follow.
    turns: TurnWindows,
    /// The window that prints a past battle's pack again, when open (umpire only).
    past_packs: Option<PastPacksForm>,
}

/// The key of the log panel's height in the file's settings.
const LOG_HEIGHT_KEY: &str = "log_panel_height";
/// Room for the dice form and at least six lines of the log.
const DEFAULT_LOG_HEIGHT: f32 = 240.0;

impl RefereeApp {
    /// An app over an open store and the loaded maps and scenarios, showing the picker.
    pub fn new(store: Store, db: PathBuf, catalog: Catalog) -> Self {
        let mut app = RefereeApp {
            store,
            picker: PickerForm::new(),
            catalog,
            data: referee_data::DataSource::Embedded,
            db,
            campaigns: Vec::new(),
            desk: None,
            world: None,
            scenarios: Vec::new(),
            show_picker: true,
            roll: RollForm::default(),
            message: None,
            queue: Vec::new(),
            context_ready: false,
            previews: Previews::default(),
            pack_settings: PackSettings::new("campaign"),
            redo: Vec::new(),
            hand_back: None,
            settings: None,
            offer: None,
            refusals: Vec::new(),
            last_summary: None,
            log_filter: String::new(),
            title: String::new(),
            log_height: DEFAULT_LOG_HEIGHT,
            log_seen: None,
            commitment: None,
            dice: None,
            mail: None,
            turns: TurnWindows::default(),
            past_packs: None,
            recent: Recent::default(),
            quit: false,
            close_sent: false,
            passphrase_set: false,
        };
        app.read_preferences();
        app.scenarios = scenario_choices(&app.catalog, None);
        app.refresh_campaigns();
        app.picker.suggest_name(&app.scenarios, &app.campaigns);
        app
    }

    /// Reads the data tables a pack is counted by from `data`, the folder the maps and
    /// scenarios came from.
    #[must_use]
    pub fn with_data(mut self, data: referee_data::DataSource) -> Self {
        self.data = data;
        self
    }

    /// Keeps the list of recent database files in `file` (one path a line), with this one
    /// first.
    pub fn with_recent_file(mut self, file: PathBuf) -> Self {
        self.recent = Recent::read(file);
        self.remember_database();
        self
    }

    /// The database files opened lately, the latest first.
    pub fn recent_databases(&self) -> &[PathBuf] {
        self.recent.list()
    }

    /// Whether the referee asked to close the window.
    pub fn quit_asked(&self) -> bool {
        self.quit
    }

    /// Closes the window at the next frame, whoever is looking: for the program's own smoke
    /// test, never for a click.
    pub(crate) fn close_now(&mut self) {
        self.quit = true;
    }

    /// Puts the open database first in the recent list, and keeps the list.
    fn remember_database(&mut self) {
        if let Err(e) = self.recent.remember(&self.db) {
            self.error(e);
        }
    }

    /// Reads the file's settings the window draws with: the log's height, and whether a
    /// passphrase is set (read once here, not every frame the hand-back screen is up).
    fn read_preferences(&mut self) {
        let setting = |key| self.store.setting(key).ok().flatten();
        self.log_height = setting(LOG_HEIGHT_KEY).and_then(|h| h.parse().ok()).unwrap_or(DEFAULT_LOG_HEIGHT);
        self.passphrase_set = setting(handover::PASSPHRASE_KEY).is_some();
    }

    /// Closes the campaign on screen, with what belonged to it (its commitment, the Dice
    /// window, what can be redone, its refusals), and shows the picker.
    fn close_campaign(&mut self) {
        self.desk = None;
        self.commitment = None;
        self.dice = None;
        self.past_packs = None;
        self.redo.clear();
        self.refusals.clear();
        self.show_picker = true;
    }

    /// Opens another database file in place of this one; a file that cannot be opened leaves
    /// this one open, with the reason.
    fn open_database(&mut self, path: &Path) {
        match Store::open(path) {
            Ok(store) => {
                self.store = store;
                self.db = path.to_owned();
                self.close_campaign();
                self.read_preferences();
                self.refresh_campaigns();
                self.picker.suggest_name(&self.scenarios, &self.campaigns);
                self.info(format!("Opened {}", path.display()));
                self.remember_database();
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Offers the Belisarius scenarios of `world` in the picker too.
    pub fn with_belisarius(mut self, world: World) -> Self {
        self.scenarios = scenario_choices(&self.catalog, Some(&world));
        self.world = Some(world);
        self
    }

    /// Opens the database and, if asked, a campaign in the asked view. A campaign that
    /// cannot be opened leaves the picker up with the reason, rather than no window at all.
    pub fn open_db(db: &Path, catalog: Catalog, world: Option<World>, open: Option<&str>, view_as: Option<&str>) -> anyhow::Result<Self> {
        // Every refusal to open names the file and says what is wrong with it.
        let store = Store::open(db)?;
        let mut app = RefereeApp::new(store, db.to_owned(), catalog);
        if let Some(world) = world {
            app = app.with_belisarius(world);
        }
        // A hand-over the window did not end — it was closed, or the program crashed or was
        // killed in a side's view — starts again where it was, on the hand-back screen.
        let kept = app.store.setting(handover::HANDED_OVER_KEY).ok().flatten().and_then(|v| handover::read_handed_over(&v));
        let asked_view = view_as.map(|v| match v.trim() {
            "" | "umpire" => Viewer::Umpire,
            side => Viewer::Side(SideId::new(side)),
        });
        if let Some((id, side)) = kept
            && app.store.find(&id.to_string()).is_ok()
        {
            let same_campaign = open.is_some_and(|key| app.store.find(key).is_ok_and(|c| c.0 == id));
            let same_view = asked_view.as_ref() == Some(&Viewer::Side(side.clone()));
            // Opened again as the same side, the hand-over simply goes on.
            if !(same_campaign && same_view) {
                app.send(AppCommand::OpenCampaign(id.to_string()));
                app.send(AppCommand::SetViewer(Viewer::Side(side)));
                app.apply_commands();
                if app.handed_to().is_some() {
                    // What was asked for now is the referee's to allow.
                    let asked = match (open, asked_view) {
                        (Some(_), Some(viewer)) if same_campaign => AppCommand::SetViewer(viewer),
                        (Some(key), _) if !same_campaign => AppCommand::OpenCampaign(key.to_owned()),
                        _ => AppCommand::AskReferee(Some("the program was closed while the screen was handed over".to_owned())),
                    };
                    app.send(asked);
                    app.apply_commands();
                    return Ok(app);
                }
            }
        }
        if let Some(key) = open {
            app.send(AppCommand::OpenCampaign(key.to_owned()));
            if let Some(viewer) = asked_view {
                app.send(AppCommand::SetViewer(viewer));
            }
            app.apply_commands();
        }
        Ok(app)
    }

    /// Opens the campaign the referee had on screen last in this database, if no campaign
    /// is open yet and that one is still there; otherwise the picker stays up. The picker is
    /// a click away either way (Campaign ▸ Open another campaign…).
    pub fn open_last_used(mut self) -> Self {
        if self.desk.is_none()
            && let Some(id) = self.store.setting(LAST_CAMPAIGN_KEY).ok().flatten()
            && self.store.find(&id).is_ok()
        {
            self.send(AppCommand::OpenCampaign(id));
            self.apply_commands();
        }
        self
    }

    /// Queues a command for the next [`Self::apply_commands`].
    pub fn send(&mut self, command: impl Into<AppCommand>) {
        self.queue.push(command.into());
    }

    /// One whole frame for a bare `Ui` (tests): apply what the last frame asked, then draw.
    pub fn frame_ui(&mut self, ui: &mut egui::Ui) {
        self.apply_commands();
        self.ui(ui);
        if self.has_pending_commands() {
            ui.ctx().request_repaint();
        }
    }

    /// Whether commands wait for the next [`Self::apply_commands`].
    pub fn has_pending_commands(&self) -> bool {
        !self.queue.is_empty()
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The name of the campaign on screen, of either engine.
    pub fn campaign_name(&self) -> Option<&str> {
        self.desk.as_ref().map(|d| d.get().campaign_name())
    }

    /// Who is looking at the campaign on screen, of either engine.
    pub fn viewer(&self) -> Option<&Viewer> {
        self.desk.as_ref().map(|d| d.get().viewer())
    }

    /// The last refusal or confirmation shown to the referee.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// Whether the desk's work in the background goes on: the packs of every battle being
    /// written.
    pub fn packs_running(&self) -> bool {
        self.desk.as_ref().is_some_and(|d| d.get().busy())
    }

    /// The campaign on screen, of whichever engine.
    pub(crate) fn desk(&self) -> Option<&Desk> {
        self.desk.as_ref()
    }

    fn refresh_campaigns(&mut self) {
        match self.store.campaigns() {
            Ok(list) => self.campaigns = list,
            Err(e) => self.error(e.to_string()),
        }
    }

    fn error(&mut self, text: impl AsRef<str>) {
        self.message = Some(Message { text: for_referee(text.as_ref()), is_error: true });
    }

    fn info(&mut self, text: impl AsRef<str>) {
        self.message = Some(Message { text: for_referee(text.as_ref()), is_error: false });
    }

    /// Shows what a desk answered; a stored order also refreshes the list of campaigns and
    /// uses up the players' typed-in dice.
    fn reply(&mut self, reply: Reply, typed: bool) {
        match reply {
            Reply::Nothing => {}
            Reply::Clear => self.message = None,
            Reply::Stored(said) => {
                self.message = said.filter(|s| !s.is_empty()).map(|text| Message { text: for_referee(&text), is_error: false });
                if typed {
                    self.roll.clear_values();
                }
                // A new order: what was undone before it can no longer be given again. (The list
                // of campaigns, with its counts, is read again when the picker is shown.)
                self.redo.clear();
            }
            Reply::Info(text) => self.info(text),
            Reply::Refused(text) => self.refuse(text),
            Reply::Failed(text) => self.error(text),
        }
    }

    /// A refused order: the red line under the log, and a line in the log marked as not
    /// stored.
    fn refuse(&mut self, text: String) {
        if let Some(desk) = &self.desk {
            self.refusals.push((desk.get().log().lines.len(), for_referee(&text)));
        }
        self.error(text);
    }

    /// The side the screen is handed over to, if a side is looking.
    fn handed_to(&self) -> Option<&SideId> {
        match self.desk.as_ref().map(|d| d.get().viewer()) {
            Some(Viewer::Side(side)) => Some(side),
            _ => None,
        }
    }

    /// The window's title: the campaign and the database file.
    pub fn window_title(&self) -> String {
        let file = self.db.file_name().map_or_else(|| self.db.display().to_string(), |f| f.to_string_lossy().into_owned());
        match &self.desk {
            Some(desk) => format!("{} — {file} — referee", desk.get().campaign_name()),
            None => format!("{file} — referee"),
        }
    }

    /// What Undo would take back, in the referee's words; only the umpire reads it.
    pub fn undo_label(&self) -> Option<String> {
        if self.handed_to().is_some() {
            return None;
        }
        let last = self.desk.as_ref().and_then(|d| d.get().last_order())?;
        // An order that did several things goes by its name ("enter the result of battle
        // 3"), then what it did; one line says it all.
        Some(match &self.last_summary {
            Some(order) if last.lines > 1 => crate::gui::widgets::words::shorten(&format!("{order} — {}", last.text), 90),
            _ => last.text,
        })
    }

    /// What Redo would give again, in the referee's words; only the umpire reads it.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().filter(|_| self.handed_to().is_none()).map(|(_, label)| label.as_str())
    }

    /// Whether the hand-back screen is up.
    pub fn asking_for_referee(&self) -> bool {
        self.hand_back.is_some()
    }

    /// The charts the open Charts window draws, if it is open and they could be made.
    pub fn charts_shown(&self) -> Option<&[referee_campaign::core::history::Chart]> {
        self.turns.charts.as_ref().and_then(|c| c.charts.as_deref().ok())
    }

    /// Applies the queued commands in order. A refused command changes nothing and leaves
    /// its sentence in [`Self::message`].
    pub fn apply_commands(&mut self) {
        if let Some(desk) = &mut self.desk {
            for failed in desk.get_mut().poll(&mut self.store) {
                self.error(failed);
            }
        }
        let commands = std::mem::take(&mut self.queue);
        let changed = !commands.is_empty();
        for command in commands {
            self.apply(command);
        }
        if changed {
            self.last_summary = self.desk.as_ref().and_then(|d| self.store.last_summary(d.get().campaign_id()).ok().flatten());
        }
        self.follow_turns();
    }

    fn apply(&mut self, command: AppCommand) {
        // A side's view is a hand-over: what only the umpire may do waits for the referee.
        if self.handed_to().is_some()
            && let Some(reason) = handover::needs_referee(&command)
        {
            self.hand_back = Some(HandBack { reason: reason.to_owned(), pending: Some(Box::new(command)), passphrase: String::new() });
            return;
        }
        let typed = match &command {
            AppCommand::RollDice { input, .. } => matches!(input, DiceInput::Manual(_)),
            AppCommand::Desk(command) => command.typed_dice(),
            _ => false,
        };
        match command {
            AppCommand::OpenCampaign(key) => match Desk::open(&self.store, &self.catalog, &key) {
                Ok(desk) => self.switch_to(desk),
                Err(e) => self.error(format!("{e:#}")),
            },
            AppCommand::DeleteCampaign(name) => {
                let deleted = self.store.find(&name).and_then(|id| self.store.delete_campaign(id).map(|name| (id, name)));
                match deleted {
                    Ok((id, name)) => {
                        // The campaign on screen went with it: back to the picker.
                        if self.desk.as_ref().is_some_and(|d| d.get().campaign_id() == id) {
                            self.close_campaign();
                        }
                        self.info(format!("Campaign “{name}” deleted, with everything kept of it"));
                    }
                    Err(e) => self.error(e.to_string()),
                }
                self.refresh_campaigns();
                self.picker.suggest_name(&self.scenarios, &self.campaigns);
            }
            AppCommand::RenameCampaign { campaign, name } => {
                let rename = referee_campaign::core::log::RenameCampaign { name: name.clone() };
                let on_screen = self.desk.as_mut().filter(|d| d.get().campaign_name() == campaign);
                let was_on_screen = on_screen.is_some();
                let reply = match on_screen {
                    Some(desk) => desk.get_mut().rename(&mut self.store, rename),
                    // Another campaign of the file: its desk is opened for the order alone.
                    None => match Desk::open(&self.store, &self.catalog, &campaign) {
                        Ok(mut desk) => desk.get_mut().rename(&mut self.store, rename),
                        Err(e) => Reply::Failed(format!("{e:#}")),
                    },
                };
                match reply {
                    Reply::Stored(_) => {
                        // A new order of the campaign on screen: what was undone before it can
                        // no longer be given again. Another campaign's leaves this one's alone.
                        if was_on_screen {
                            self.redo.clear();
                        }
                        self.info(format!("Campaign “{campaign}” is called “{}” from now on", name.trim()));
                    }
                    Reply::Info(text) => self.info(text),
                    Reply::Refused(text) | Reply::Failed(text) => self.error(text),
                    Reply::Nothing | Reply::Clear => {}
                }
                self.refresh_campaigns();
                self.picker.suggest_name(&self.scenarios, &self.campaigns);
            }
            AppCommand::CreateCampaign { scenario, name, seed } => {
                if let Err(e) = self.create(&scenario, &name, seed) {
                    self.error(format!("{e:#}"));
                }
            }
            AppCommand::ShowPicker(show) => {
                self.show_picker = show || self.desk.is_none();
                if self.show_picker {
                    self.refresh_campaigns();
                    self.picker.suggest_name(&self.scenarios, &self.campaigns);
                }
            }
            AppCommand::SetViewer(viewer) => self.set_viewer(viewer),
            AppCommand::HandOver(None) => self.offer = None,
            AppCommand::HandOver(Some(side)) => {
                let offered = self.store.setting(handover::OFFERED_KEY).ok().flatten().is_some();
                if self.passphrase_set || offered {
                    return self.set_viewer(Viewer::Side(side));
                }
                let side_name = side_name(&self.desk.as_ref().map(|d| d.get().sides()).unwrap_or_default(), &side);
                self.offer = Some(handover::OfferForm { side, side_name, passphrase: String::new(), again: String::new() });
            }
            AppCommand::DeclinePassphrase => {
                let _ = self.store.set_setting(handover::OFFERED_KEY, Some("yes"));
                self.offer = None;
            }
            AppCommand::AskReferee(reason) => {
                self.hand_back = match (reason, self.handed_to()) {
                    (Some(reason), Some(_)) => Some(HandBack { reason, pending: None, passphrase: String::new() }),
                    _ => None,
                };
            }
            AppCommand::HandBack { passphrase } => self.take_back(&passphrase),
            AppCommand::SetPassphrase(passphrase) => {
                let sealed = passphrase.as_deref().map(|p| handover::seal(p, &fresh_salt()));
                match self.store.set_setting(handover::PASSPHRASE_KEY, sealed.as_deref()) {
                    Ok(()) => {
                        self.passphrase_set = sealed.is_some();
                        self.settings = Some(SettingsForm::default());
                        self.info(if passphrase.is_some() { "Passphrase set" } else { "Passphrase removed" });
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
            AppCommand::KeepLogHeight(height) => {
                self.log_height = height;
                // Only a preference: a file opened for reading keeps the default.
                let _ = self.store.set_setting(LOG_HEIGHT_KEY, Some(&format!("{height:.0}")));
            }
            AppCommand::OpenDatabase(path) => self.open_database(&path),
            AppCommand::Quit => self.quit = true,
            AppCommand::OpenFolder(dir) => {
                if let Err(e) = packs::open_folder(&dir) {
                    self.error(e);
                }
            }
            AppCommand::ShowDice(show) => {
                self.dice = show.then(DiceForm::default);
                self.message = None;
            }
            AppCommand::ShowCharts(show) => {
                self.turns.charts = None;
                if show && let Some(desk) = &self.desk {
                    self.turns.refresh_charts(&self.store, &self.catalog, desk.get());
                }
            }
            AppCommand::ShowReports(show) => {
                self.turns.reports =
                    show.then(|| charts::ReportsForm { turn_over: None, folder: self.pack_settings.folder.clone(), written: None });
            }
            AppCommand::WriteReports { folder } => self.write_reports(&folder),
            AppCommand::ShowPastPacks(show) => {
                self.past_packs = match &self.desk {
                    Some(desk) if show => Some(PastPacksForm::new(&desk.get().past_battles(), self.pack_settings.clone())),
                    _ => None,
                };
            }
            AppCommand::WritePastPack { battle, settings } => self.write_past_pack(battle, settings),
            AppCommand::ShowMail(show) => {
                self.mail = show.then(|| super::mail::MailForm { folder: self.pack_settings.folder.clone(), ..Default::default() });
                if let Some(desk) = &mut self.desk {
                    desk.get_mut().forget_incoming();
                }
            }
            AppCommand::WritePacket { side, folder } => self.write_packet(&side, &folder),
            AppCommand::ReadOrders(path) => {
                let preview = self.read_orders(&path);
                if let Some(form) = &mut self.mail {
                    form.preview = Some(preview);
                }
            }
            AppCommand::TakeInOrders { anyway } => {
                let Some(Some(Ok(preview))) = self.mail.as_ref().map(|m| m.preview.clone()) else { return };
                let Some(desk) = &mut self.desk else { return };
                let reply = desk.get_mut().take_in(&mut self.store, preview.file, anyway);
                let taken = matches!(reply, Reply::Stored(_));
                self.reply(reply, false);
                if taken && let Some(form) = &mut self.mail {
                    form.preview = None;
                    form.orders.clear();
                }
                if taken && let Some(desk) = &mut self.desk {
                    desk.get_mut().forget_incoming();
                }
            }
            AppCommand::OpenPacket(path) => {
                let opened = std::env::current_exe().and_then(|exe| std::process::Command::new(exe).arg("--packet").arg(&path).spawn());
                if let Err(e) = opened {
                    self.error(format!("cannot open the player's desk on {}: {e}", path.display()));
                }
            }
            AppCommand::RevealSeed | AppCommand::CommitSeed => {
                let Some(desk) = &self.desk else { return };
                let done = match command {
                    AppCommand::RevealSeed => self.store.reveal_seed(desk.get().campaign_id()),
                    _ => desk.get().commit_seed(&mut self.store),
                };
                match done {
                    Ok(commitment) => {
                        self.commitment = Some(commitment);
                        if let Some(form) = &mut self.dice {
                            form.confirming = false;
                        }
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
            AppCommand::VerifySeed(seed) => {
                let Some(desk) = &self.desk else { return };
                // Before the reveal the stored salt must not help a side try seeds.
                let revealed = self.commitment.as_ref().is_some_and(|c| c.revealed_at.is_some());
                if self.handed_to().is_some() && !revealed {
                    return self.error("the rolls are checked once the referee has revealed the seed");
                }
                match desk.get().verify(&self.store, seed) {
                    Ok(result) => {
                        self.message = None;
                        self.dice.get_or_insert_with(DiceForm::default).result = Some(result);
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
            AppCommand::ShowSettings(show) => {
                self.settings = show.then(SettingsForm::default);
                self.message = None;
            }
            AppCommand::RollDice { dice, purpose, side, hidden, input } => {
                let Some(desk) = &mut self.desk else { return };
                let reply = desk.get_mut().roll(&mut self.store, RollDice { dice, purpose, side, hidden, modifiers: Vec::new() }, input);
                self.reply(reply, typed);
            }
            AppCommand::Undo => {
                let label = self.undo_label();
                let Some(desk) = &mut self.desk else { return };
                match desk.get_mut().undo(&mut self.store) {
                    Ok(undone) => {
                        let label = label.unwrap_or_else(|| undone.summary.clone());
                        let lines = desk.get().log().lines.len();
                        self.refusals.retain(|(after, _)| *after <= lines);
                        self.info(format!("Undone: {label}"));
                        self.redo.push((undone, label));
                    }
                    Err(e) => self.error(e),
                }
            }
            AppCommand::Redo => {
                let Some(desk) = &mut self.desk else { return };
                let Some((undone, label)) = self.redo.pop() else {
                    self.error("nothing to redo: no order was undone since the last one given");
                    return;
                };
                match desk.get_mut().redo(&mut self.store, &undone) {
                    Reply::Refused(e) => {
                        // What was undone before it cannot follow it either.
                        self.redo.clear();
                        self.refuse(e);
                    }
                    _ => self.info(format!("Redone: {label}")),
                }
            }
            AppCommand::Desk(command) => {
                let Some(desk) = &mut self.desk else { return };
                let mut cx = DeskContext { store: &mut self.store, data: &self.data, pack_settings: &mut self.pack_settings };
                // A command of another engine than the one on screen is from a frame gone by.
                if let Some(reply) = desk.apply(command, &mut cx) {
                    self.reply(reply, typed);
                }
            }
        }
    }

    fn set_viewer(&mut self, viewer: Viewer) {
        let Some(desk) = &mut self.desk else { return };
        let before = desk.get().viewer().clone();
        match desk.get_mut().set_viewer(viewer) {
            Ok(()) if desk.get().viewer() != &before => {
                // The refusals and the last message were the last viewer's.
                self.refusals.clear();
                self.message = None;
                self.hand_back = None;
                self.offer = None;
                self.keep_hand_over();
            }
            Ok(()) => {}
            Err(e) => self.error(e),
        }
    }

    /// Keeps the hand-over in the file while a side's view is on screen, and drops it when
    /// the referee has the screen back, so that a window closed or a program killed in a
    /// side's view opens again on the hand-back screen. A file opened for reading keeps none.
    fn keep_hand_over(&mut self) {
        let value = match (&self.desk, self.handed_to()) {
            (Some(desk), Some(side)) => Some(format!("{}:{side}", desk.get().campaign_id().0)),
            _ => None,
        };
        let _ = self.store.set_setting(handover::HANDED_OVER_KEY, value.as_deref());
    }

    /// The referee takes the screen back: the umpire's view, then what waited.
    fn take_back(&mut self, passphrase: &str) {
        let sealed = match self.store.setting(handover::PASSPHRASE_KEY) {
            Ok(sealed) => sealed,
            Err(e) => return self.error(e.to_string()),
        };
        if let Some(sealed) = sealed
            && !handover::matches(&sealed, passphrase)
        {
            if let Some(form) = &mut self.hand_back {
                form.passphrase.clear();
            }
            return self.error("that is not the referee's passphrase");
        }
        let pending = self.hand_back.take().and_then(|h| h.pending);
        self.set_viewer(Viewer::Umpire);
        if let Some(command) = pending {
            self.apply(*command);
        }
    }

    /// Writes every reader's turn report of the open campaign into `folder` (`~/` is the
    /// home folder), the folder kept as the campaign's.
    fn write_reports(&mut self, folder: &str) {
        let Some(desk) = &self.desk else { return };
        let mut settings = self.pack_settings.clone();
        settings.folder = folder.to_owned();
        if self.turns.write_reports(&mut self.store, &self.catalog, desk.get().campaign_id(), &settings) {
            self.keep_pack_settings(settings);
        }
    }

    /// Writes battle `battle`'s pack as it went to the table, the choices kept for the next
    /// pack; the window shows what was written, or why not.
    fn write_past_pack(&mut self, battle: u32, settings: PackSettings) {
        let Some(desk) = &self.desk else { return };
        let written = desk.get().write_past_pack(battle, &settings, &self.data);
        if written.is_ok() {
            self.keep_pack_settings(settings);
        }
        if let Some(form) = &mut self.past_packs {
            form.written = Some(written);
        }
    }

    /// Writes side `side`'s packet of the open campaign into `folder` (`~/` is the home
    /// folder), replacing last turn's; the folder is kept as the campaign's.
    fn write_packet(&mut self, side: &SideId, folder: &str) {
        let Some(desk) = &self.desk else { return };
        let id = desk.get().campaign_id();
        let mut settings = self.pack_settings.clone();
        settings.folder = folder.to_owned();
        let written = settings.folder().and_then(|dir| {
            std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
            crate::packet::make(&mut self.store, id, &self.catalog, side.as_str(), &dir, true).map_err(|e| format!("{e:#}"))
        });
        let ok = written.is_ok();
        if let Some(form) = &mut self.mail {
            let line = written.map(|made| format!("Wrote {} ({} bytes): {}", made.path.display(), made.bytes, made.header.standing));
            match (&mut form.written, line) {
                (Some(Ok(lines)), Ok(line)) => lines.push(line),
                (slot, line) => *slot = Some(line.map(|l| vec![l])),
            }
        }
        if ok {
            self.keep_pack_settings(settings);
        }
    }

    /// Reads a side's orders file and checks it against the campaign on screen.
    fn read_orders(&mut self, path: &str) -> Result<crate::gui::engine::OrdersPreview, String> {
        let Some(desk) = &mut self.desk else { return Err("open a campaign first".to_owned()) };
        let path = Path::new(path.trim());
        let file = crate::input::read_limited(path, "the orders file", crate::input::INPUT_BYTES)
            .map_err(|e| format!("{e:#}"))
            .and_then(|text| crate::packet::read_orders(&text).map_err(|e| format!("{}: {e:#}", path.display())));
        match file {
            Ok(file) => desk.get_mut().preview_orders(&self.store, file),
            Err(e) => {
                desk.get_mut().forget_incoming();
                Err(e)
            }
        }
    }

    /// The Charts and Turn reports windows follow the campaign on screen.
    fn follow_turns(&mut self) {
        let Some(desk) = &self.desk else { return };
        self.turns.follow(&self.store, &self.catalog, desk.get(), &self.pack_settings.folder);
    }

    /// Keeps the reports window's choices for the next one, and its folder as this campaign's.
    fn keep_pack_settings(&mut self, settings: PackSettings) {
        match &self.desk {
            Some(desk) => packs::keep(&mut self.store, desk.get().campaign_id(), &mut self.pack_settings, settings),
            None => self.pack_settings = settings,
        }
    }

    fn create(&mut self, scenario: &str, name: &str, seed: Option<u64>) -> anyhow::Result<()> {
        let name = name.trim();
        if name.is_empty() {
            anyhow::bail!("give the new campaign a name");
        }
        let seed = seed.unwrap_or_else(crate::fresh_seed);
        let (desk, scenario) = Desk::create(&mut self.store, &self.catalog, self.world.as_ref(), scenario, name, seed)?;
        self.switch_to(desk);
        self.info(format!("Campaign “{name}” created from {scenario}"));
        Ok(())
    }

    /// Puts a different campaign on screen: what belonged to the last one goes with its desk.
    fn switch_to(&mut self, mut desk: Desk) {
        desk.get_mut().fit_map();
        // The next window opens on it. A file the referee may only read keeps no such note,
        // and needs none: the picker is a click away.
        let id = desk.get().campaign_id().to_string();
        if self.store.setting(LAST_CAMPAIGN_KEY).ok().flatten().as_deref() != Some(id.as_str()) {
            let _ = self.store.set_setting(LAST_CAMPAIGN_KEY, Some(&id));
        }
        // The folder the referee chose for this campaign's packs last time, or the default.
        let kept = packs::kept_folder(&self.store, desk.get().campaign_id());
        self.pack_settings.folder = kept.unwrap_or_else(|| packs::default_folder(desk.get().campaign_name()).display().to_string());
        self.desk = Some(desk);
        self.show_picker = false;
        self.message = None;
        self.redo.clear();
        self.refusals.clear();
        self.hand_back = None;
        self.dice = None;
        self.past_packs = None;
        self.turns.close();
        self.commitment = self.desk.as_ref().and_then(|d| self.store.commitment(d.get().campaign_id()).ok().flatten());
        self.refresh_campaigns();
    }

    /// Fonts and theme, given before the window's first frame: that frame is laid out once,
    /// in the light theme, and none is drawn again for the change.
    pub fn prepare_context(&mut self, ctx: &egui::Context) {
        setup_context(ctx);
        self.context_ready = true;
    }

    /// Draws the whole window. Changes nothing but UI state; campaign changes go to the queue.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        if !self.context_ready {
            setup_context(ui.ctx());
            self.context_ready = true;
        }
        if self.packs_running() {
            // Keep the progress bar moving while the thread works.
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        // In a side's view the window's close button does not close it: that is the
        // referee's, so it brings up the hand-back screen.
        if !self.quit && self.handed_to().is_some() && ui.ctx().input(|i| i.viewport().close_requested()) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.queue.push(AppCommand::Quit);
            ui.ctx().request_repaint();
        }
        if self.quit && !self.close_sent {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            self.close_sent = true;
        }
        let title = self.window_title();
        if title != self.title {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        let picker_shown = self.show_picker || self.desk.is_none();
        let handed_to = self.handed_to().cloned();
        let sides = self.desk.as_ref().map(|d| d.get().sides()).unwrap_or_default();
        let name_of = |id: &SideId| side_name(&sides, id);
        if let (Some(form), Some(side)) = (&mut self.hand_back, &handed_to) {
            let locked = self.passphrase_set;
            handover::hand_back_ui(ui, form, &name_of(side), locked, self.message.as_ref(), &mut self.queue);
            return;
        }
        if self.desk.is_some() && !picker_shown && !ui.ctx().egui_wants_keyboard_input() {
            let redo = [
                egui::KeyboardShortcut::new(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z),
                egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Y),
            ];
            let undo = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Z);
            // Redo first: Ctrl+Z would also match Ctrl+Shift+Z.
            let key = ui.input_mut(|i| {
                if redo.iter().any(|k| i.consume_shortcut(k)) {
                    Some(AppCommand::Redo)
                } else {
                    i.consume_shortcut(&undo).then_some(AppCommand::Undo)
                }
            });
            self.queue.extend(key);
        }
        let edit = log::EditLabels { undo: self.undo_label(), redo: self.redo_label().map(str::to_owned) };
        let queue = &mut self.queue;
        egui::Panel::top("top_bar").show(ui, |ui| {
            let desk = self.desk.as_mut().map(Desk::get_mut);
            let data = bar::BarData {
                campaigns: &self.campaigns,
                recent: self.recent.list(),
                edit: &edit,
                handed_to: handed_to.as_ref().map(name_of),
            };
            bar::bar_ui(ui, desk, &data, &mut self.roll, queue);
        });
        if let Some(form) = &mut self.dice {
            let umpire = handed_to.is_none();
            let revealed = self.commitment.as_ref().is_some_and(|c| c.revealed_at.is_some());
            let seed = self.desk.as_ref().map(|d| d.get().seed()).filter(|_| umpire || revealed);
            let data = dice::DiceData { commitment: self.commitment.as_ref(), umpire, seed, message: self.message.as_ref() };
            dice::dice_window_ui(ui.ctx(), form, &data, queue);
        }
        if let Some(form) = &mut self.settings {
            let locked = self.passphrase_set;
            handover::settings_ui(ui.ctx(), form, locked, self.message.as_ref(), queue);
        }
        if let Some(form) = &mut self.offer {
            handover::offer_ui(ui.ctx(), form, queue);
        }
        if let Some(form) = &self.turns.charts {
            let colours: Vec<egui::Color32> =
                sides.iter().map(|(id, _)| self.desk.as_ref().map_or(egui::Color32::GRAY, |d| d.get().side_colour(id))).collect();
            charts::charts_window_ui(ui.ctx(), form, &sides, &colours, queue);
        }
        if let Some(form) = &mut self.turns.reports
            && handed_to.is_none()
        {
            charts::reports_window_ui(ui.ctx(), form, &sides, queue);
        }
        if let Some(form) = &mut self.mail
            && handed_to.is_none()
        {
            super::mail::mail_window_ui(ui.ctx(), form, &sides, queue);
        }
        if let Some(form) = &mut self.past_packs
            && let Some(desk) = &self.desk
            && handed_to.is_none()
        {
            let battles = desk.get().past_battles();
            let data = PastPacksData { campaign: desk.get().campaign_name(), battles: &battles, sides: &sides };
            past_packs_window_ui(ui.ctx(), form, &data, queue);
        }
        match &mut self.desk {
            Some(desk) if !picker_shown => {
                let desk = desk.get_mut();
                let panel = egui::Panel::bottom("log").resizable(true).default_size(self.log_height).min_size(90.0).show(ui, |ui| {
                    let commitment = self.commitment.as_ref().map(Commitment::short);
                    let shell = log::LogShell { edit: &edit, refusals: &self.refusals, handed_over: handed_to.is_some(), commitment };
                    log::log_ui(ui, &desk.log(), &shell, &mut self.roll, &mut self.log_filter, self.message.as_ref(), queue);
                });
                // The referee's height for the log, kept when the divider is let go.
                let height = panel.response.rect.height();
                if self.log_seen.is_some_and(|seen| (height - seen).abs() > 1.0) && ui.input(|i| i.pointer.any_released()) {
                    queue.push(AppCommand::KeepLogHeight(height));
                }
                self.log_seen = Some(height);
                let mut shell = ShellUi { roll: &mut self.roll, message: self.message.as_ref(), queue };
                desk.desk_ui(ui, &mut shell);
            }
            desk => {
                let current = desk.as_ref().map(|d| d.get().campaign_name());
                let data = picker::PickerData {
                    db: &self.db,
                    campaigns: &self.campaigns,
                    scenarios: &self.scenarios,
                    current,
                    message: self.message.as_ref(),
                };
                egui::Panel::left("picker").resizable(true).default_size(600.0).min_size(420.0).show(ui, |ui| {
                    picker::picker_ui(ui, &data, &mut self.picker, queue);
                });
                let choice = self.scenarios.get(self.picker.scenario_index());
                self.previews.ui(ui, choice, &self.catalog, self.world.as_ref());
            }
        }
    }
}

/// Fonts and theme. Runs before any text of the first frame is laid out, so that frame
/// already has them (egui applies new fonts at once while no text is laid out).
pub(crate) fn setup_context(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    // Ubuntu Light lacks arrows and triangles (▾ →); Hack, already built in, has them.
    if let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional) {
        family.push("Hack".to_owned());
    }
    ctx.set_fonts(fonts);
    // The map is drawn like paper; light panels sit with it best.
    ctx.set_theme(egui::Theme::Light);
    // The window is cleared to the panels' grey; they need not paint it again.
    crate::gui::widgets::backdrop::leave_ground_unpainted(ctx);
    // Each glyph laid once a size, not at four fractions of a pixel: sharper, and a first
    // frame rasterises a quarter of the glyphs.
    ctx.all_styles_mut(|style| style.visuals.text_options.subpixel_binning = false);
}
