//! The app's state and the one place that changes a campaign: [`RefereeApp::apply_commands`].
//!
//! Panels draw from a cached [`View`] and push [`AppCommand`]s; the queue is applied once
//! per frame, before drawing, so every panel of a frame sees the same campaign.

use std::path::{Path, PathBuf};

use referee_campaign::belisarius::World;
use referee_campaign::belisarius::state::Location;
use referee_campaign::core::engine::EngineId;
use referee_campaign::store::CampaignSummary;
use referee_campaign::view::{self, View, Viewer};
use referee_campaign::{Campaign, Catalog, DiceInput, DiceSpec, NodeId, Order, SideId, Store};

use super::bar;
use super::belisarius::{self as be, BelisariusDesk, ZoneMapState};
use super::desk::{Desk, Reply, RollRequest, ShellUi, be as be_desk, be_mut, mg, mg_mut};
use super::dialogs::Dialog;
use super::magna_graecia::{MagnaGraeciaDesk, start_board};
use super::map::MapState;
use super::packs::{self, PackJob, PackSettings};
use super::panels::{self, RollForm};
use super::picker::{self, PickerForm, ScenarioChoice};

/// Everything the window can ask of the app. Panels only push these; nothing else changes
/// the campaign.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    /// Open the campaign with this name (or id).
    OpenCampaign(String),
    /// Start a campaign from a scenario; `seed: None` draws a fresh one.
    CreateCampaign { scenario: String, name: String, seed: Option<u64> },
    /// Show or hide the campaign picker over the map.
    ShowPicker(bool),
    /// Look at the campaign as the umpire or as one side.
    SetViewer(Viewer),
    /// Select a node of the map (or nothing). A picked counter elsewhere is let go.
    Select(Option<NodeId>),
    /// Pick out one of the viewer's own counters to move (or let it go); its node is
    /// selected with it.
    SelectCounter(Option<CounterRef>),
    /// Give a command to the rules, with its dice.
    Execute(Order, DiceInput),
    /// Open the roster editor on a working copy of this side's army (setup only, MG-03), or
    /// close it and drop the copy.
    EditRoster(Option<SideId>),
    /// Open a dialog over the map (a battle's result form, an exchange, the garrison), or
    /// close the open one and drop its entries.
    OpenDialog(Option<Dialog>),
    /// Take back the last command.
    Undo,
    /// Write one battle's pack into the settings' folder (umpire only, X-04); the open pack
    /// window lists the files or the reason they could not be written.
    WritePack { battle: u32, settings: PackSettings },
    /// Write the pack of every battle due on a background thread (umpire only, X-04).
    WriteAllPacks { settings: PackSettings },
    /// Stop the packs of every battle after the battle being written; once they are written,
    /// forget the list.
    StopPacks,
    /// Draw the campaign's dice seed in the umpire's Forces panel, or hide it again (umpire
    /// only); it is hidden again whenever the campaign or the view changes.
    ShowSeed(bool),
    /// Select a land zone, city or sea zone of a Belisarius map (or nothing).
    SelectPlace(Option<Location>),
    /// The referee's own roll, from the shell's dice form: the open campaign's engine makes
    /// it its own order.
    RollDice { dice: DiceSpec, purpose: String, side: Option<SideId>, hidden: bool, input: DiceInput },
    /// Give an order to a Belisarius campaign, with its dice.
    ExecuteBelisarius(referee_campaign::belisarius::order::Order, DiceInput),
}

/// One counter on the map, by side and name (a command's name, or `fleet`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterRef {
    pub side: SideId,
    pub name: String,
}

/// What the referee reads after a command: a refusal in red, or a plain confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub is_error: bool,
}

/// The referee's window, independent of eframe so that tests can drive it in a harness.
#[derive(Debug)]
pub struct RefereeApp {
    store: Store,
    catalog: Catalog,
    db: PathBuf,
    campaigns: Vec<CampaignSummary>,
    /// The campaign on screen, of whichever engine: one at a time.
    desk: Option<Desk>,
    /// The Belisarius world, for starting campaigns; `None` when the data folder has none.
    world: Option<World>,
    /// Every scenario the picker offers: Magna Graecia's, then Belisarius's.
    scenarios: Vec<ScenarioChoice>,
    /// The picker's Belisarius map at a scenario's start, by scenario id.
    zone_preview: Option<(String, Box<referee_campaign::belisarius::Setup>, referee_campaign::belisarius::view::Board)>,
    zone_preview_map: ZoneMapState,
    show_picker: bool,
    picker: PickerForm,
    roll: RollForm,
    message: Option<Message>,
    queue: Vec<AppCommand>,
    context_ready: bool,
    /// The picker's map of the chosen scenario at its start, by scenario id.
    preview: Option<(String, view::Board)>,
    preview_map: MapState,
    /// The last choices of the pack window, for the next one.
    pack_settings: PackSettings,
    /// The packs of every battle due, being written or just written.
    pack_job: Option<PackJob>,
}

impl RefereeApp {
    /// An app over an open store and the loaded maps and scenarios, showing the picker.
    pub fn new(store: Store, db: PathBuf, catalog: Catalog) -> Self {
        let mut app = RefereeApp {
            store,
            picker: PickerForm::new(),
            catalog,
            db,
            campaigns: Vec::new(),
            desk: None,
            world: None,
            scenarios: Vec::new(),
            zone_preview: None,
            zone_preview_map: ZoneMapState::default(),
            show_picker: true,
            roll: RollForm::default(),
            message: None,
            queue: Vec::new(),
            context_ready: false,
            preview: None,
            preview_map: MapState::default(),
            pack_settings: PackSettings::new("campaign"),
            pack_job: None,
        };
        app.scenarios = scenario_choices(&app.catalog, None);
        app.refresh_campaigns();
        app.picker.suggest_name(&app.scenarios, &app.campaigns);
        app
    }

    /// Offers the Belisarius scenarios of `world` in the picker too.
    pub fn with_belisarius(mut self, world: World) -> Self {
        self.scenarios = scenario_choices(&self.catalog, Some(&world));
        self.world = Some(world);
        self
    }

    /// The Belisarius campaign on screen, if the open campaign is one.
    pub fn belisarius_view(&self) -> Option<&referee_campaign::belisarius::view::View> {
        be_desk(&self.desk).map(|d| &d.view)
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
        if let Some(key) = open {
            app.send(AppCommand::OpenCampaign(key.to_owned()));
            if let Some(viewer) = view_as {
                let viewer = match viewer.trim() {
                    "" | "umpire" => Viewer::Umpire,
                    side => Viewer::Side(SideId::new(side)),
                };
                app.send(AppCommand::SetViewer(viewer));
            }
            app.apply_commands();
        }
        Ok(app)
    }

    /// Queues a command for the next [`Self::apply_commands`].
    pub fn send(&mut self, command: AppCommand) {
        self.queue.push(command);
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

    /// The open Magna Graecia campaign, if any.
    pub fn campaign(&self) -> Option<&Campaign> {
        mg(&self.desk).map(|o| &o.campaign)
    }

    /// What the current viewer sees of the open Magna Graecia campaign.
    pub fn view(&self) -> Option<&View> {
        mg(&self.desk).map(|o| &o.view)
    }

    /// Who is looking at the campaign on screen, of either engine.
    pub fn viewer(&self) -> Option<&Viewer> {
        self.desk.as_ref().map(|d| d.get().viewer())
    }

    /// The last refusal or confirmation shown to the referee.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    pub fn selected(&self) -> Option<NodeId> {
        mg(&self.desk).and_then(|o| o.selected)
    }

    /// The counter picked out to move or deploy, if any.
    pub fn selected_counter(&self) -> Option<&CounterRef> {
        mg(&self.desk).and_then(|o| o.selected_counter.as_ref())
    }

    /// Whether a dialog (result form, exchange, garrison) is open.
    pub fn dialog_open(&self) -> bool {
        mg(&self.desk).is_some_and(|o| o.dialog.is_some())
    }

    /// Whether the packs of every battle are still being written in the background.
    pub fn packs_running(&self) -> bool {
        self.pack_job.as_ref().is_some_and(PackJob::running)
    }

    /// The side whose roster the editor is open on, if it is.
    pub fn roster_editor(&self) -> Option<&SideId> {
        mg(&self.desk).and_then(|o| o.roster.as_ref()).map(|r| &r.side)
    }

    fn refresh_campaigns(&mut self) {
        match self.store.campaigns() {
            Ok(list) => self.campaigns = list,
            Err(e) => self.error(e.to_string()),
        }
    }

    fn error(&mut self, text: String) {
        self.message = Some(Message { text, is_error: true });
    }

    fn info(&mut self, text: String) {
        self.message = Some(Message { text, is_error: false });
    }

    /// Shows what a desk answered; a stored order also refreshes the list of campaigns and
    /// uses up the players' typed-in dice.
    fn reply(&mut self, reply: Reply, typed: bool) {
        match reply {
            Reply::Nothing => {}
            Reply::Clear => self.message = None,
            Reply::Stored(said) => {
                self.message = said.filter(|s| !s.is_empty()).map(|text| Message { text, is_error: false });
                if typed {
                    self.roll.clear_values();
                }
                self.refresh_campaigns();
            }
            Reply::Info(text) => self.info(text),
            Reply::Refused(text) => self.error(text),
        }
    }

    /// Applies the queued commands in order. A refused command changes nothing and leaves
    /// its sentence in [`Self::message`].
    pub fn apply_commands(&mut self) {
        if let Some(job) = &mut self.pack_job {
            job.poll();
        }
        for command in std::mem::take(&mut self.queue) {
            self.apply(command);
        }
    }

    fn apply(&mut self, command: AppCommand) {
        let typed = match &command {
            AppCommand::Execute(_, input) | AppCommand::ExecuteBelisarius(_, input) | AppCommand::RollDice { input, .. } => {
                matches!(input, DiceInput::Manual(_))
            }
            _ => false,
        };
        match command {
            AppCommand::OpenCampaign(key) => {
                let engine = self.store.find(&key).and_then(|id| self.store.engine_of(id));
                let desk = match engine {
                    Ok(EngineId::Belisarius) => BelisariusDesk::open(&self.store, &key, Viewer::Umpire).map(Desk::from),
                    Ok(EngineId::MagnaGraecia) => MagnaGraeciaDesk::open(&self.store, &self.catalog, &key, Viewer::Umpire).map(Desk::from),
                    Err(e) => Err(e.into()),
                };
                match desk {
                    Ok(desk) => self.switch_to(desk),
                    Err(e) => self.error(format!("{e:#}")),
                }
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
            AppCommand::SetViewer(viewer) => {
                let Some(desk) = &mut self.desk else { return };
                if let Err(e) = desk.get_mut().set_viewer(viewer) {
                    self.error(e);
                }
            }
            AppCommand::RollDice { dice, purpose, side, hidden, input } => {
                let Some(desk) = &mut self.desk else { return };
                let reply = desk.get_mut().roll(&mut self.store, RollRequest { dice, purpose, side, hidden }, input);
                self.reply(reply, typed);
            }
            AppCommand::Undo => {
                let Some(desk) = &mut self.desk else { return };
                let reply = desk.get_mut().undo(&mut self.store);
                self.reply(reply, false);
            }
            AppCommand::WritePack { battle, settings } => {
                let Some(desk) = mg_mut(&mut self.desk) else { return };
                let reply = desk.write_pack(battle, &settings);
                self.pack_settings = settings;
                self.reply(reply, false);
            }
            AppCommand::WriteAllPacks { settings } => self.write_all_packs(settings),
            AppCommand::StopPacks => match &mut self.pack_job {
                Some(job) if job.running() => job.stop(),
                _ => self.pack_job = None,
            },
            // The commands of one engine go to its desk.
            command @ (AppCommand::Select(_)
            | AppCommand::SelectCounter(_)
            | AppCommand::Execute(..)
            | AppCommand::EditRoster(_)
            | AppCommand::OpenDialog(_)
            | AppCommand::ShowSeed(_)) => {
                let Some(desk) = mg_mut(&mut self.desk) else { return };
                let reply = desk.apply(command, &mut self.store, &self.pack_settings);
                self.reply(reply, typed);
            }
            command @ (AppCommand::SelectPlace(_) | AppCommand::ExecuteBelisarius(..)) => {
                let Some(desk) = be_mut(&mut self.desk) else { return };
                let reply = desk.apply(command, &mut self.store);
                self.reply(reply, typed);
            }
        }
    }

    /// Starts writing the packs of every battle due on a background thread.
    fn write_all_packs(&mut self, settings: PackSettings) {
        if self.packs_running() {
            self.error("packs are being written already: wait for them, or stop them".to_owned());
            return;
        }
        let (folder, options) = (settings.folder(), settings.options());
        self.pack_settings = settings;
        let Some(desk) = mg(&self.desk) else { return };
        let open = match desk.for_packs() {
            Ok(open) => open,
            Err(e) => return self.error(e),
        };
        let battles: Vec<u32> = open.campaign.state.battles.iter().map(|b| b.id).collect();
        let job =
            folder.map(|dir| PackJob::start(open.campaign.state.clone(), open.map.clone(), open.events.clone(), battles, options, dir));
        match job {
            Ok(job) => self.pack_job = Some(job),
            Err(e) => self.error(e),
        }
    }

    fn create(&mut self, scenario: &str, name: &str, seed: Option<u64>) -> anyhow::Result<()> {
        let name = name.trim();
        if name.is_empty() {
            anyhow::bail!("give the new campaign a name");
        }
        let seed = seed.unwrap_or_else(crate::fresh_seed);
        if !self.catalog.scenarios.iter().any(|s| s.id == scenario)
            && let Some(world) = &self.world
        {
            let setup = world.setup(scenario).map_err(anyhow::Error::msg)?;
            let campaign = self.store.create_as::<referee_campaign::belisarius::Belisarius>(name, &setup, seed)?;
            self.switch_to(Desk::from(BelisariusDesk::open(&self.store, &campaign.id.to_string(), Viewer::Umpire)?));
            self.info(format!("Campaign “{name}” created from {}", setup.name()));
            return Ok(());
        }
        let scenario = self.catalog.require_scenario(scenario).map_err(anyhow::Error::msg)?.clone();
        let campaign = self.store.create(name, &scenario, seed)?;
        let events = self.store.events(campaign.id)?;
        self.switch_to(Desk::from(MagnaGraeciaDesk::with(&self.catalog, campaign, events, Viewer::Umpire)?));
        self.info(format!("Campaign “{name}” created from {}", scenario.name));
        Ok(())
    }

    /// Puts a different campaign on screen: what belonged to the last one goes with its desk.
    fn switch_to(&mut self, mut desk: Desk) {
        desk.get_mut().fit_map();
        self.pack_settings.folder = packs::default_folder(desk.get().campaign_name()).display().to_string();
        self.desk = Some(desk);
        self.show_picker = false;
        self.message = None;
        self.refresh_campaigns();
        // Packs of the last campaign go on being written, but are no longer shown.
        if let Some(job) = &mut self.pack_job {
            job.stop();
        }
        self.pack_job = None;
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
        let picker_shown = self.show_picker || self.desk.is_none();
        let queue = &mut self.queue;
        egui::Panel::top("top_bar").show(ui, |ui| {
            let desk = self.desk.as_mut().map(Desk::get_mut);
            bar::bar_ui(ui, desk, &self.campaigns, &mut self.roll, queue);
        });
        match &mut self.desk {
            Some(desk) if !picker_shown => {
                let desk = desk.get_mut();
                egui::Panel::bottom("log").resizable(true).default_size(190.0).min_size(110.0).show(ui, |ui| {
                    panels::log_ui(ui, &desk.log(), &mut self.roll, self.message.as_ref(), queue);
                });
                let mut shell = ShellUi { roll: &mut self.roll, message: self.message.as_ref(), pack_job: self.pack_job.as_ref(), queue };
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
                if let Some(choice) = choice.filter(|c| c.campaign == EngineId::Belisarius) {
                    let (id, world) = (choice.id.clone(), self.world.as_ref());
                    egui::CentralPanel::default().show(ui, |ui| {
                        if self.zone_preview.as_ref().is_none_or(|(shown, _, _)| shown != &id) {
                            let Some(setup) = world.and_then(|w| w.setup(&id).ok()) else { return };
                            let board = be::start_board(&setup);
                            self.zone_preview = Some((id.clone(), Box::new(setup), board));
                            self.zone_preview_map.fit_next_frame();
                        }
                        let Some((_, setup, board)) = &self.zone_preview else { return };
                        ui.label(egui::RichText::new(format!("{} at the start", setup.name())).strong());
                        // The preview is for looking only: clicks on it select nothing.
                        let mut ignored = Vec::new();
                        be::zone_map_ui(ui, setup, board, None, &mut self.zone_preview_map, &mut ignored);
                    });
                    return;
                }
                let scenario = choice.and_then(|c| self.catalog.scenarios.iter().find(|s| s.id == c.id));
                let map = scenario.and_then(|s| self.catalog.map(&s.map));
                egui::CentralPanel::default().show(ui, |ui| {
                    let (Some(scenario), Some(map)) = (scenario, map) else { return };
                    if self.preview.as_ref().is_none_or(|(id, _)| id != &scenario.id) {
                        self.preview = Some((scenario.id.clone(), start_board(scenario, map)));
                        self.preview_map.fit_next_frame();
                    }
                    let Some((_, board)) = &self.preview else { return };
                    ui.label(egui::RichText::new(format!("{} at the start", scenario.name)).strong());
                    // The preview is for looking only: clicks on it select nothing.
                    let mut ignored = Vec::new();
                    let overlay = super::map::Overlay::default();
                    super::map::map_ui(ui, map, board, &overlay, None, &mut self.preview_map, &mut ignored);
                });
            }
        }
    }
}

/// Every scenario the picker offers.
fn scenario_choices(catalog: &Catalog, world: Option<&World>) -> Vec<ScenarioChoice> {
    let mg = catalog.scenarios.iter().map(|s| ScenarioChoice {
        campaign: EngineId::MagnaGraecia,
        id: s.id.clone(),
        name: s.name.clone(),
        period: s.period.clone(),
        summary: s.summary.clone(),
        turns: s.turns,
        sides: s.sides.iter().map(|x| x.name.clone()).collect(),
    });
    let be = world.into_iter().flat_map(|w| &w.scenarios).map(|s| ScenarioChoice {
        campaign: EngineId::Belisarius,
        id: s.id.clone(),
        name: s.name.clone(),
        period: s.period(),
        summary: s.summary.clone(),
        turns: s.turns,
        sides: s.sides.iter().map(|x| x.name.clone()).collect(),
    });
    mg.chain(be).collect()
}

/// Fonts and theme. Runs before any text of the first frame is laid out, so that frame
/// already has them (egui applies new fonts at once while no text is laid out).
fn setup_context(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    // Ubuntu Light lacks arrows and triangles (▾ →); Hack, already built in, has them.
    if let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional) {
        family.push("Hack".to_owned());
    }
    ctx.set_fonts(fonts);
    // The map is drawn like paper; light panels sit with it best.
    ctx.set_theme(egui::Theme::Light);
}
