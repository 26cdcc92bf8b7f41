//! The app's state and the one place that changes a campaign: [`RefereeApp::apply_commands`].
//!
//! Panels draw from a cached [`View`] and push [`AppCommand`]s; the queue is applied once
//! per frame, before drawing, so every panel of a frame sees the same campaign.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use referee_campaign::army::ElementTable;
use referee_campaign::store::CampaignSummary;
use referee_campaign::turn::Phase;
use referee_campaign::view::{self, View, Viewer};
use referee_campaign::{Campaign, CampaignState, Catalog, Command, DiceInput, DiceSpec, Logged, Map, NodeId, Scenario, SideId, Store};

use referee_campaign::belisarius::World;
use referee_campaign::belisarius::state::Location;
use referee_campaign::core::engine::EngineId;

use super::belisarius::{self as be, BelisariusDesk, ZoneMapState};
use super::dialogs::{self, Dialog, DialogForm, LossesForm};
use super::map::MapState;
use super::packs::{self, PackJob, PackSettings};
use super::panels::{self, RollForm};
use super::picker::{self, PickerForm, ScenarioChoice};
use super::roster::{self, RosterEditor};
use super::table;

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
    Execute(Command, DiceInput),
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

/// The campaign on screen, with what the viewer may see of it cached.
#[derive(Debug)]
pub(crate) struct OpenCampaign {
    pub campaign: Campaign,
    pub map: Map,
    pub events: Vec<Logged>,
    pub viewer: Viewer,
    /// Rebuilt only when the campaign or the viewer changes, never per frame.
    pub view: View,
    /// The scenario's points table, public data the roster editor prices armies with.
    pub elements: ElementTable,
    /// The land counters owing a retreat (MG-15) among those the viewer's forces hold.
    pub land_retreats: Vec<CounterRef>,
}

impl OpenCampaign {
    fn rebuild_view(&mut self) {
        let state = &self.campaign.state;
        self.view = match view::view_for(state, &self.map, &self.events, &self.viewer) {
            Some(v) => v,
            None => {
                self.viewer = Viewer::Umpire;
                View::Umpire(view::umpire_view(state, &self.map, &self.events))
            }
        };
        self.land_retreats = land_retreats(&self.view);
    }
}

/// What the referee reads after an undo, of either engine. A side's screen must not learn
/// what a secret command was.
fn undone_text(undone: &referee_campaign::store::Undone, viewer: &Viewer) -> String {
    match viewer {
        Viewer::Umpire => format!("Undone: {} ({} event{})", undone.summary, undone.events, if undone.events == 1 { "" } else { "s" }),
        Viewer::Side(_) => "Undone: the last command".to_owned(),
    }
}

/// The campaign on screen: a Magna Graecia campaign with its map and forms, or a Belisarius
/// desk. Boxed, so that switching costs a pointer.
#[derive(Debug)]
pub(crate) enum Desk {
    MagnaGraecia(Box<OpenCampaign>),
    Belisarius(Box<BelisariusDesk>),
}

impl From<OpenCampaign> for Desk {
    fn from(open: OpenCampaign) -> Desk {
        Desk::MagnaGraecia(Box::new(open))
    }
}

impl From<BelisariusDesk> for Desk {
    fn from(desk: BelisariusDesk) -> Desk {
        Desk::Belisarius(Box::new(desk))
    }
}

/// The Magna Graecia campaign on screen, if that is what is open.
fn mg(desk: &Option<Desk>) -> Option<&OpenCampaign> {
    match desk {
        Some(Desk::MagnaGraecia(open)) => Some(open),
        _ => None,
    }
}

fn mg_mut(desk: &mut Option<Desk>) -> Option<&mut OpenCampaign> {
    match desk {
        Some(Desk::MagnaGraecia(open)) => Some(open),
        _ => None,
    }
}

/// The Belisarius campaign on screen, if that is what is open.
fn be(desk: &Option<Desk>) -> Option<&BelisariusDesk> {
    match desk {
        Some(Desk::Belisarius(d)) => Some(d),
        _ => None,
    }
}

fn be_mut(desk: &mut Option<Desk>) -> Option<&mut BelisariusDesk> {
    match desk {
        Some(Desk::Belisarius(d)) => Some(d),
        _ => None,
    }
}

/// The land counters owing a retreat that the view's forces hold: all for the umpire, a
/// side's own for that side.
fn land_retreats(view: &View) -> Vec<CounterRef> {
    view.forces()
        .into_iter()
        .flat_map(|f| f.land_retreats.keys().map(|name| CounterRef { side: f.side.clone(), name: name.clone() }))
        .collect()
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
    selected: Option<NodeId>,
    /// The counter picked out to move (or, during setup, to deploy); where it may go
    /// lights up on the map.
    selected_counter: Option<CounterRef>,
    /// The roster editor's working copy, while it is open.
    roster: Option<RosterEditor>,
    map_state: MapState,
    picker: PickerForm,
    roll: RollForm,
    /// The open dialog with its entries.
    dialog: Option<DialogForm>,
    /// The choices of losses at sea being made, by side (MG-18).
    naval: BTreeMap<SideId, LossesForm>,
    /// The choices of siege and disease losses being made, by side (MG-28, MG-29).
    siege_losses: BTreeMap<SideId, LossesForm>,
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
    /// The umpire asked to see the dice seed.
    seed_shown: bool,
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
            selected: None,
            selected_counter: None,
            roster: None,
            map_state: MapState::default(),
            roll: RollForm::default(),
            dialog: None,
            naval: BTreeMap::new(),
            siege_losses: BTreeMap::new(),
            message: None,
            queue: Vec::new(),
            context_ready: false,
            preview: None,
            preview_map: MapState::default(),
            pack_settings: PackSettings::new("campaign"),
            pack_job: None,
            seed_shown: false,
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
        be(&self.desk).map(|d| &d.view)
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
        match self.desk.as_ref()? {
            Desk::MagnaGraecia(o) => Some(&o.campaign.state.name),
            Desk::Belisarius(d) => Some(&d.campaign.state.name),
        }
    }

    /// The open campaign, if any.
    pub fn campaign(&self) -> Option<&Campaign> {
        mg(&self.desk).map(|o| &o.campaign)
    }

    /// What the current viewer sees of the open campaign.
    pub fn view(&self) -> Option<&View> {
        mg(&self.desk).map(|o| &o.view)
    }

    pub fn viewer(&self) -> Option<&Viewer> {
        mg(&self.desk).map(|o| &o.viewer)
    }

    /// The last refusal or confirmation shown to the referee.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    pub fn selected(&self) -> Option<NodeId> {
        self.selected
    }

    /// The counter picked out to move or deploy, if any.
    pub fn selected_counter(&self) -> Option<&CounterRef> {
        self.selected_counter.as_ref()
    }

    /// Whether a dialog (result form, exchange, garrison) is open.
    pub fn dialog_open(&self) -> bool {
        self.dialog.is_some()
    }

    /// Whether the packs of every battle are still being written in the background.
    pub fn packs_running(&self) -> bool {
        self.pack_job.as_ref().is_some_and(PackJob::running)
    }

    /// The side whose roster the editor is open on, if it is.
    pub fn roster_editor(&self) -> Option<&SideId> {
        self.roster.as_ref().map(|r| &r.side)
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
        match command {
            AppCommand::OpenCampaign(key) => {
                let engine = self.store.find(&key).and_then(|id| self.store.engine_of(id));
                match engine {
                    Ok(EngineId::Belisarius) => match BelisariusDesk::open(&self.store, &key, Viewer::Umpire) {
                        Ok(desk) => {
                            self.desk = Some(Desk::from(desk));
                            self.after_switch();
                        }
                        Err(e) => self.error(format!("{e:#}")),
                    },
                    Ok(EngineId::MagnaGraecia) => match self.load(&key, Viewer::Umpire) {
                        Ok(open) => {
                            self.desk = Some(Desk::from(open));
                            self.after_switch();
                        }
                        Err(e) => self.error(format!("{e:#}")),
                    },
                    Err(e) => self.error(e.to_string()),
                }
            }
            AppCommand::RollDice { dice, purpose, side, hidden, input } => {
                if be(&self.desk).is_some() {
                    let order = referee_campaign::belisarius::order::Order::RollDice { dice, purpose, side, hidden, modifiers: Vec::new() };
                    self.apply(AppCommand::ExecuteBelisarius(order, input));
                } else {
                    self.apply(AppCommand::Execute(Command::RollDice { dice, purpose, side, hidden, modifiers: Vec::new() }, input));
                }
            }
            AppCommand::ExecuteBelisarius(order, input) => {
                let Some(desk) = be_mut(&mut self.desk) else { return };
                match self.store.execute(&mut desk.campaign, &(), &order, input) {
                    Ok(events) => {
                        let lines: Vec<String> = events
                            .iter()
                            .filter_map(|e| referee_campaign::belisarius::view::describe(&desk.campaign.state, e, &desk.viewer))
                            .collect();
                        if let Err(e) = desk.reload(&self.store) {
                            self.error(format!("{e:#}"));
                            return;
                        }
                        self.roll.clear_values();
                        self.info(lines.join("; "));
                        self.refresh_campaigns();
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
            AppCommand::Undo if be(&self.desk).is_some() => {
                let Some(desk) = be_mut(&mut self.desk) else { return };
                match self.store.undo(&mut desk.campaign) {
                    Ok(undone) => {
                        let text = undone_text(&undone, &desk.viewer);
                        if let Err(e) = desk.reload(&self.store) {
                            self.error(format!("{e:#}"));
                            return;
                        }
                        self.info(text);
                        self.refresh_campaigns();
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
            AppCommand::SelectPlace(place) => {
                if let Some(desk) = be_mut(&mut self.desk) {
                    desk.selected = place;
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
            AppCommand::SetViewer(viewer) if be(&self.desk).is_some() => {
                if let Some(desk) = be_mut(&mut self.desk)
                    && let Err(e) = desk.set_viewer(viewer)
                {
                    self.error(e);
                }
            }
            AppCommand::SetViewer(viewer) => {
                let Some(open) = mg_mut(&mut self.desk) else { return };
                if let Viewer::Side(s) = &viewer
                    && !open.campaign.state.is_side(s)
                {
                    let sides = open.campaign.state.scenario.move_order.iter().map(SideId::as_str).collect::<Vec<_>>();
                    let text =
                        format!("{} has no side `{s}`; view as umpire or one of {}", open.campaign.state.scenario.name, sides.join(", "));
                    self.error(text);
                    return;
                }
                if open.viewer != viewer {
                    open.viewer = viewer;
                    open.rebuild_view();
                    // The new viewer may not own it, or even know its name.
                    self.selected_counter = None;
                    self.seed_shown = false;
                    self.dialog = None;
                    self.naval.clear();
                    self.siege_losses.clear();
                    self.drop_stale_roster();
                }
            }
            AppCommand::Select(node) => {
                self.selected = node;
                // During setup a picked counter waits for a node to deploy at.
                let keep = self.selected_counter.as_ref().is_some_and(|c| self.may_deploy(c) || self.counter_node(c) == node);
                if !keep {
                    self.selected_counter = None;
                }
            }
            AppCommand::SelectCounter(counter) => match counter.as_ref().map(|c| (self.counter_node(c), self.may_deploy(c))) {
                Some((_, true)) => self.selected_counter = counter,
                Some((Some(at), false)) => {
                    self.selected = Some(at);
                    self.selected_counter = counter;
                }
                _ => self.selected_counter = None,
            },
            AppCommand::EditRoster(side) => self.edit_roster(side),
            AppCommand::OpenDialog(dialog) => {
                let pack = &self.pack_settings;
                self.dialog = dialog.and_then(|d| mg(&self.desk).and_then(|o| DialogForm::new(&d, &o.view, pack)));
                // The form shows refusals of its own orders, not older ones.
                self.message = None;
            }
            AppCommand::Execute(command, dice) => {
                let Some(open) = mg_mut(&mut self.desk) else { return };
                let typed = matches!(dice, DiceInput::Manual(_));
                match self.store.execute(&mut open.campaign, &open.map, &command, dice) {
                    Ok(_) => {
                        self.message = None;
                        if typed {
                            // The players' dice are used up.
                            self.roll.clear_values();
                        }
                        if self.dialog.as_ref().is_some_and(|d| d.done_by(&command)) {
                            self.dialog = None;
                        }
                        match &command {
                            Command::AllocateNavalLosses { side, .. } => {
                                self.naval.remove(side);
                            }
                            Command::AllocateSiegeLosses { side, .. } => {
                                self.siege_losses.remove(side);
                            }
                            _ => {}
                        }
                        self.reload_events();
                        match &command {
                            // The selection follows the counter, which may move on if it has MP left.
                            Command::Move { path, .. } => self.selected = path.last().copied().or(self.selected),
                            Command::Deploy { node, .. } => {
                                self.selected = Some(*node);
                                self.selected_counter = None;
                            }
                            Command::SetArmy { army } => {
                                self.selected_counter = None;
                                if self.roster.as_ref().is_some_and(|r| r.side == army.side) {
                                    self.roster = None;
                                }
                                let name = self.side_name(&army.side);
                                self.info(format!("{name}'s roster saved"));
                            }
                            _ => self.selected_counter = None,
                        }
                        self.drop_stale_roster();
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
            AppCommand::WritePack { battle, settings } => self.write_pack(battle, settings),
            AppCommand::WriteAllPacks { settings } => self.write_all_packs(settings),
            AppCommand::ShowSeed(show) => {
                self.seed_shown = show && mg(&self.desk).is_some_and(|o| o.viewer == Viewer::Umpire);
            }
            AppCommand::StopPacks => match &mut self.pack_job {
                Some(job) if job.running() => job.stop(),
                _ => self.pack_job = None,
            },
            AppCommand::Undo => {
                let Some(open) = mg_mut(&mut self.desk) else { return };
                match self.store.undo(&mut open.campaign) {
                    Ok(undone) => {
                        let text = undone_text(&undone, &open.viewer);
                        self.info(text);
                        self.selected_counter = None;
                        self.reload_events();
                        self.drop_stale_roster();
                    }
                    Err(e) => self.error(e.to_string()),
                }
            }
        }
    }

    /// The open campaign, if the umpire is looking: packs hold what every side knows, so a
    /// side's screen never makes them.
    fn umpire_campaign(&mut self) -> Option<&OpenCampaign> {
        match mg(&self.desk) {
            Some(open) if open.viewer == Viewer::Umpire => mg(&self.desk),
            Some(_) => {
                self.error("battle packs are made in the umpire's view: each side's file holds only what it knows (X-04)".to_owned());
                None
            }
            None => None,
        }
    }

    /// Writes one battle's pack; the pack window shows what was written, or why not.
    fn write_pack(&mut self, battle: u32, settings: PackSettings) {
        let (folder, options) = (settings.folder(), settings.options());
        self.pack_settings = settings;
        let Some(open) = self.umpire_campaign() else { return };
        let outcome = folder.and_then(|dir| packs::write_pack(&open.campaign.state, &open.map, &open.events, battle, &options, &dir));
        match &mut self.dialog {
            Some(DialogForm::Pack(form)) if form.battle == Some(battle) => form.outcome = Some(outcome),
            _ => match outcome {
                Ok(files) => self.info(format!("Battle {battle}'s pack written: {} files", files.len())),
                Err(e) => self.error(e),
            },
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
        let Some(open) = self.umpire_campaign() else { return };
        let battles: Vec<u32> = open.campaign.state.battles.iter().map(|b| b.id).collect();
        let job =
            folder.map(|dir| PackJob::start(open.campaign.state.clone(), open.map.clone(), open.events.clone(), battles, options, dir));
        match job {
            Ok(job) => self.pack_job = Some(job),
            Err(e) => self.error(e),
        }
    }

    /// Opens the editor on a copy of the side's army, if the viewer may see it and rosters
    /// may still change; closes it on `None`.
    fn edit_roster(&mut self, side: Option<SideId>) {
        let Some(side) = side else {
            self.roster = None;
            return;
        };
        let Some(open) = mg(&self.desk) else { return };
        if open.view.board().phase != Phase::Setup {
            self.error("rosters are fixed once play has begun; losses change them, not the referee — MG-03".to_owned());
            return;
        }
        let editor = open.view.forces().into_iter().find(|f| f.side == side).map(|f| RosterEditor::new(side.clone(), f.army.as_ref()));
        match editor {
            Some(editor) => self.roster = Some(editor),
            None => self.error(format!("{}'s roster is not this viewer's to edit", self.side_name(&side))),
        }
    }

    /// Closes the editor once its side's roster may no longer change or be seen: play has
    /// begun, or the viewer is another side.
    fn drop_stale_roster(&mut self) {
        let Some(editor) = &self.roster else { return };
        let keep =
            mg(&self.desk).is_some_and(|o| o.view.board().phase == Phase::Setup && o.view.forces().iter().any(|f| f.side == editor.side));
        if !keep {
            self.roster = None;
        }
    }

    fn side_name(&self, side: &SideId) -> String {
        mg(&self.desk).and_then(|o| o.view.board().side(side)).map_or_else(|| side.to_string(), |s| s.name.clone())
    }

    /// Whether a counter of the viewer's may be deployed now (MG-02): during setup, where
    /// the rules leave it somewhere to go.
    fn may_deploy(&self, counter: &CounterRef) -> bool {
        let Some(open) = mg(&self.desk) else { return false };
        open.view.board().phase == Phase::Setup
            && open.view.forces().iter().any(|f| f.side == counter.side && f.deployable.contains_key(&counter.name))
    }

    /// Where one of the viewer's own counters stands, as the viewer's forces say.
    fn counter_node(&self, counter: &CounterRef) -> Option<NodeId> {
        let view = &mg(&self.desk)?.view;
        view.forces()
            .into_iter()
            .filter(|f| f.side == counter.side)
            .flat_map(|f| &f.counters)
            .find(|c| c.name == counter.name)
            .map(|c| c.node)
    }

    fn load(&self, key: &str, viewer: Viewer) -> anyhow::Result<OpenCampaign> {
        let id = self.store.find(key)?;
        let campaign = self.store.load(id)?;
        let events = self.store.events(id)?;
        self.open_loaded(campaign, events, viewer)
    }

    fn open_loaded(&self, campaign: Campaign, events: Vec<Logged>, viewer: Viewer) -> anyhow::Result<OpenCampaign> {
        let map = campaign.state.map(self.catalog.map(&campaign.state.scenario.map)).map_err(|e| anyhow::anyhow!(e))?.clone();
        let state = &campaign.state;
        let view = View::Umpire(view::umpire_view(state, &map, &events));
        let elements = state.scenario.elements.clone();
        let land_retreats = land_retreats(&view);
        let mut open = OpenCampaign { campaign, map, events, viewer, view, elements, land_retreats };
        if open.viewer != Viewer::Umpire {
            open.rebuild_view();
        }
        Ok(open)
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
            self.desk = Some(Desk::from(BelisariusDesk::open(&self.store, &campaign.id.to_string(), Viewer::Umpire)?));
            self.after_switch();
            self.info(format!("Campaign “{name}” created from {}", setup.name()));
            return Ok(());
        }
        let scenario = self.catalog.require_scenario(scenario).map_err(anyhow::Error::msg)?.clone();
        let campaign = self.store.create(name, &scenario, seed)?;
        let events = self.store.events(campaign.id)?;
        self.desk = Some(Desk::from(self.open_loaded(campaign, events, Viewer::Umpire)?));
        self.after_switch();
        self.info(format!("Campaign “{name}” created from {}", scenario.name));
        Ok(())
    }

    /// A different campaign is on screen: forget what belonged to the last one.
    fn after_switch(&mut self) {
        self.seed_shown = false;
        self.show_picker = false;
        self.selected = None;
        self.selected_counter = None;
        self.roster = None;
        self.dialog = None;
        self.naval.clear();
        self.siege_losses.clear();
        self.message = None;
        self.map_state.fit_next_frame();
        if let Some(desk) = be_mut(&mut self.desk) {
            desk.map_state.fit_next_frame();
        }
        self.refresh_campaigns();
        // Packs of the last campaign go on being written, but are no longer shown.
        if let Some(job) = &mut self.pack_job {
            job.stop();
        }
        self.pack_job = None;
        if let Some(open) = mg(&self.desk) {
            self.pack_settings.folder = packs::default_folder(&open.campaign.state.name).display().to_string();
        }
    }

    fn reload_events(&mut self) {
        let Some(open) = mg_mut(&mut self.desk) else { return };
        match self.store.events(open.campaign.id) {
            Ok(events) => {
                open.events = events;
                open.rebuild_view();
            }
            Err(e) => {
                let text = e.to_string();
                self.error(text);
            }
        }
        self.refresh_campaigns();
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
        if !picker_shown && let Some(desk) = be_mut(&mut self.desk) {
            belisarius_desk_ui(ui, desk, &mut self.roll, self.message.as_ref(), &mut self.queue);
            return;
        }
        let queue = &mut self.queue;
        let open = mg(&self.desk);
        let roll = &mut self.roll;
        egui::Panel::top("top_bar").show(ui, |ui| {
            panels::top_bar_ui(ui, open.map(|o| (&o.map, &o.view, &o.viewer)), &self.campaigns, roll, queue);
        });
        match open {
            Some(open) if !picker_shown => {
                // Escape lets a picked counter go, unless a text field has the keyboard.
                if self.selected_counter.is_some()
                    && !ui.ctx().egui_wants_keyboard_input()
                    && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
                {
                    queue.push(AppCommand::SelectCounter(None));
                }
                let selection = panels::Selection { node: self.selected, counter: self.selected_counter.as_ref() };
                egui::Panel::bottom("log").resizable(true).default_size(190.0).min_size(110.0).show(ui, |ui| {
                    let board = open.view.board();
                    let log = panels::LogData {
                        lines: open.view.log().iter().map(|l| (l.seq, l.text.as_str())).collect(),
                        sides: board.sides.iter().map(|s| (&s.id, s.name.as_str())).collect(),
                    };
                    panels::log_ui(ui, &log, &mut self.roll, self.message.as_ref(), queue);
                });
                egui::Panel::right("details").resizable(true).default_size(330.0).min_size(240.0).show(ui, |ui| {
                    let details = panels::Details {
                        map: &open.map,
                        view: &open.view,
                        viewer: &open.viewer,
                        land_retreats: &open.land_retreats,
                        pack_job: self.pack_job.as_ref(),
                        seed: (self.seed_shown && open.viewer == Viewer::Umpire).then_some(open.campaign.state.seed),
                    };
                    panels::details_ui(ui, &details, selection, queue);
                });
                egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
                    let own = open.view.forces();
                    let overlay = super::map::Overlay { own: &own, picked: self.selected_counter.as_ref() };
                    super::map::map_ui(ui, &open.map, open.view.board(), &overlay, self.selected, &mut self.map_state, queue);
                });
                let board = open.view.board();
                if let Some(editor) = &mut self.roster
                    && board.phase == Phase::Setup
                    && let Some(forces) = open.view.forces().into_iter().find(|f| f.side == editor.side)
                {
                    let side_name = board.side(&forces.side).map_or(forces.side.as_str(), |s| s.name.as_str());
                    let data = roster::RosterData { side_name, points: forces.army_points, table: &open.elements };
                    roster::roster_editor_ui(ui.ctx(), editor, data, queue);
                }
                let message = self.message.as_ref();
                let mut losses = Losses { naval: &mut self.naval, siege: &mut self.siege_losses };
                let extra = DialogExtra { roll: &self.roll, message, pack_job: self.pack_job.as_ref() };
                dialogs_ui(ui.ctx(), open, &mut self.dialog, &mut losses, &extra, queue);
            }
            _ => {
                let current = open.map(|o| o.campaign.state.name.as_str()).or(be(&self.desk).map(|d| d.campaign.state.name.as_str()));
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

/// The Belisarius desk: its bar, the log, the Tables of Organisation and the zone map.
fn belisarius_desk_ui(
    ui: &mut egui::Ui,
    desk: &mut BelisariusDesk,
    roll: &mut RollForm,
    message: Option<&Message>,
    queue: &mut Vec<AppCommand>,
) {
    egui::Panel::top("top_bar").show(ui, |ui| be::top_bar_ui(ui, desk, queue));
    egui::Panel::bottom("log").resizable(true).default_size(190.0).min_size(110.0).show(ui, |ui| {
        let board = desk.view.board();
        let log = panels::LogData {
            lines: desk.view.log().iter().map(|l| (l.seq, l.text.as_str())).collect(),
            sides: board.sides.iter().map(|s| (&s.id, s.name.as_str())).collect(),
        };
        panels::log_ui(ui, &log, roll, message, queue);
    });
    egui::Panel::right("details").resizable(true).default_size(400.0).min_size(260.0).show(ui, |ui| {
        be::details_ui(ui, desk, queue);
    });
    egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
        let mut picked = Vec::new();
        let BelisariusDesk { campaign, view, selected, map_state, .. } = desk;
        be::zone_map_ui(ui, &campaign.state.setup, view.board(), selected.as_ref(), map_state, &mut picked);
        if let Some(place) = picked.pop() {
            queue.push(AppCommand::SelectPlace(Some(place)));
        }
    });
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

/// The choices of losses being made, by side.
struct Losses<'a> {
    naval: &'a mut BTreeMap<SideId, LossesForm>,
    siege: &'a mut BTreeMap<SideId, LossesForm>,
}

/// What the dialogs draw from besides the campaign.
struct DialogExtra<'a> {
    roll: &'a RollForm,
    message: Option<&'a Message>,
    pack_job: Option<&'a PackJob>,
}

/// The open dialog and the windows the rules call for (losses at sea, MG-18; siege and
/// disease losses, MG-28, MG-29).
fn dialogs_ui(
    ctx: &egui::Context,
    open: &OpenCampaign,
    dialog: &mut Option<DialogForm>,
    losses: &mut Losses<'_>,
    extra: &DialogExtra<'_>,
    queue: &mut Vec<AppCommand>,
) {
    let DialogExtra { roll, message, pack_job } = *extra;
    dialogs::naval_losses_ui(ctx, &open.view, losses.naval, message, queue);
    dialogs::siege_losses_ui(ctx, &open.map, &open.view, losses.siege, message, queue);
    match dialog {
        Some(DialogForm::Battle(form)) => {
            if !open.view.board().battles.iter().any(|b| b.id == form.battle) {
                *dialog = None;
                return;
            }
            let data = dialogs::BattleFormData { map: &open.map, view: &open.view, dice: roll.typed_dice(), message };
            dialogs::battle_form_ui(ctx, form, &data, queue);
        }
        Some(DialogForm::Exchange(form)) => dialogs::exchange_ui(ctx, form, &open.view, message, queue),
        Some(DialogForm::Garrison(form)) => dialogs::garrison_ui(ctx, &open.map, form, &open.view, message, queue),
        Some(DialogForm::EndCampaign(form)) => dialogs::end_campaign_ui(ctx, form, message, queue),
        Some(DialogForm::Table(form)) => {
            let Some(battle) = open.view.board().battles.iter().find(|b| b.id == form.battle) else {
                *dialog = None;
                return;
            };
            let data = table::TableData { map: &open.map, battle, dice: roll.typed_dice(), message };
            table::set_table_ui(ctx, form, &data, queue);
        }
        Some(DialogForm::Pack(form)) => {
            let data = packs::PackData { map: &open.map, view: &open.view, job: pack_job };
            packs::pack_window_ui(ctx, form, &data, queue);
        }
        None => {}
    }
}

/// The public board of a scenario's first turn, for the picker's preview.
fn start_board(scenario: &Scenario, map: &Map) -> view::Board {
    let state = CampaignState::new(&scenario.name, scenario, 0);
    view::umpire_view(&state, map, &[]).board
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
