//! The Magna Graecia desk: the node map with its counters, the panel beside it (deployment,
//! battles, retreats, the selected node, the forces), the roster editor of setup and the
//! dialogs the rules call for — with every form being filled in.

use referee_campaign::magna_graecia::MagnaGraecia;
pub(crate) mod command;
pub(crate) mod dialogs;
pub(crate) mod map;
pub(crate) mod orders;
pub(crate) mod packs;
pub(crate) mod paint;
pub(crate) mod panels;
pub(crate) mod roster;
pub(crate) mod table;
pub(crate) mod tokens;

use referee_campaign::core::words::count;
use std::collections::BTreeMap;

use referee_campaign::magna_graecia::army::ElementTable;
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::magna_graecia::view::{self, Followed, View, Viewer};
use referee_campaign::store::numbered;
use referee_campaign::{
    Campaign, DiceInput, NodeId, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::event::Logged, magna_graecia::map::Map,
    magna_graecia::order::Order, magna_graecia::scenario::Scenario, magna_graecia::state::CampaignState,
};

use crate::gui::engine::{DeskCampaign, DeskContext, EngineDesk, Kept, KeptMut, Reply, ShellUi};
use crate::gui::shell::command::{AppCommand, Message};
use crate::gui::shell::log::LogData;
use crate::gui::widgets::packs::PackSettings;
use crate::gui::widgets::roll::RollForm;
use command::{CounterRef, MagnaGraeciaCommand};
use dialogs::{DialogForm, LossesForm};
use map::MapState;
use packs::PackJob;
use roster::RosterEditor;

/// The Magna Graecia campaign on screen, what the viewer may see of it, and the forms.
#[derive(Debug)]
pub(crate) struct MagnaGraeciaDesk {
    pub campaign: Campaign<MagnaGraecia>,
    pub map: Map,
    /// The events and what the viewer sees of them, kept up to date order by order: never
    /// rebuilt per frame, nor read again from the store after each order.
    pub live: Followed,
    /// The scenario's points table, public data the roster editor prices armies with.
    pub elements: ElementTable,
    /// The land counters owing a retreat (MG-15) among those the viewer's forces hold.
    pub land_retreats: Vec<CounterRef>,
    /// The node selected and the counter picked out to move.
    pub picks: Picks,
    /// The roster editor's working copy, while it is open.
    pub roster: Option<RosterEditor>,
    pub map_state: MapState,
    /// The open dialog with its entries.
    pub dialog: Option<DialogForm>,
    /// The choices of losses at sea being made, by side (MG-18).
    pub naval: BTreeMap<SideId, LossesForm>,
    /// The choices of siege and disease losses being made, by side (MG-28, MG-29).
    pub siege_losses: BTreeMap<SideId, LossesForm>,
    /// The packs of every battle due, being written or just written.
    pub pack_job: Option<PackJob>,
    /// The umpire asked to see the dice seed.
    pub seed_shown: bool,
    /// A side's orders file being read before it is taken in, drawn on the map as planned.
    pub incoming: Vec<(u32, Order)>,
}

impl MagnaGraeciaDesk {
    /// The campaign `key` (name or id) from the store, as `viewer` sees it.
    pub fn open(store: &Store, catalog: &Catalog, key: &str, viewer: Viewer) -> anyhow::Result<MagnaGraeciaDesk> {
        let id = store.find(key)?;
        let campaign = store.load_as::<MagnaGraecia>(id)?;
        let events = store.events_as::<MagnaGraecia>(id)?;
        let mut desk = MagnaGraeciaDesk::with(catalog, campaign, events, viewer)?;
        desk.map_state.legend_folded = store.setting(map::LEGEND_FOLDED_KEY).ok().flatten().is_some();
        Ok(desk)
    }

    /// A campaign just loaded or created, as `viewer` sees it (the umpire, for a side the
    /// campaign does not have).
    pub fn with(
        catalog: &Catalog,
        campaign: Campaign<MagnaGraecia>,
        events: Vec<Logged>,
        viewer: Viewer,
    ) -> anyhow::Result<MagnaGraeciaDesk> {
        let map = campaign.state.map(catalog.map(&campaign.state.scenario.map))?.clone();
        let state = &campaign.state;
        let viewer = match &viewer {
            Viewer::Side(s) if !state.is_side(s) => Viewer::Umpire,
            _ => viewer,
        };
        let live = Followed::new(state, &map, events, viewer).ok_or_else(|| anyhow::anyhow!("the campaign has no such side"))?;
        let elements = state.scenario.elements.clone();
        let land_retreats = land_retreats(&live.view);
        Ok(MagnaGraeciaDesk {
            campaign,
            map,
            live,
            elements,
            land_retreats,
            picks: Picks::default(),
            roster: None,
            map_state: MapState::default(),
            dialog: None,
            naval: BTreeMap::new(),
            siege_losses: BTreeMap::new(),
            seed_shown: false,
            pack_job: None,
            incoming: Vec::new(),
        })
    }

    /// Starts a campaign named `name` from the catalog's scenario `scenario`, as the umpire
    /// sees it; with the scenario's name.
    pub fn create(
        store: &mut Store,
        catalog: &Catalog,
        scenario: &str,
        name: &str,
        seed: u64,
    ) -> anyhow::Result<(MagnaGraeciaDesk, String)> {
        let scenario = catalog.require_scenario(scenario)?.clone();
        let campaign = store.create_as::<MagnaGraecia>(name, &scenario, seed)?;
        let events = store.events_as::<MagnaGraecia>(campaign.id)?;
        Ok((MagnaGraeciaDesk::with(catalog, campaign, events, Viewer::Umpire)?, scenario.name))
    }

    /// The rules to ask before a button is live: the campaign's in the umpire's view, none
    /// in a side's (whether an order is legal may hang on what the side cannot see).
    fn legal(&self) -> orders::Legal<'_> {
        match self.live.viewer {
            Viewer::Umpire => orders::Legal::checked(&self.campaign.state, &self.map),
            Viewer::Side(_) => orders::Legal::UNCHECKED,
        }
    }

    /// The events an order just stored: their lines join the log, and the view is built again
    /// from the state.
    fn follow(&mut self, stored: Vec<referee_campaign::magna_graecia::event::Event>) {
        self.live.advance(&self.campaign.state, &self.map, numbered(&self.campaign, stored));
        self.land_retreats = land_retreats(&self.live.view);
    }

    /// The commands only a Magna Graecia campaign takes; the shell hands them on.
    pub fn apply(&mut self, command: MagnaGraeciaCommand, cx: &mut DeskContext<'_>) -> Reply {
        match command {
            MagnaGraeciaCommand::Select(node) => {
                self.picks.select(&self.live.view, node);
                Reply::Nothing
            }
            MagnaGraeciaCommand::SelectCounter(counter) => {
                self.picks.pick(&self.live.view, counter);
                Reply::Nothing
            }
            MagnaGraeciaCommand::EditRoster(side) => self.edit_roster(side),
            MagnaGraeciaCommand::OpenDialog(dialog) => {
                self.dialog = dialog.and_then(|d| DialogForm::new(&d, &self.live.view, cx.pack_settings));
                // A hex result is counted by the table kept with the battle's pack.
                if let Some(DialogForm::Battle(form)) = &mut self.dialog {
                    form.hex_units = Some(
                        crate::tables::kept(cx.store, self.campaign.id, form.battle).map(|(t, _)| Box::new(t)).map_err(|e| e.to_string()),
                    );
                }
                // The form shows refusals of its own orders, not older ones.
                Reply::Clear
            }
            MagnaGraeciaCommand::Execute(command, dice) => self.execute(cx.store, &command, dice),
            MagnaGraeciaCommand::ShowSeed(show) => {
                self.seed_shown = show && self.live.viewer == Viewer::Umpire;
                Reply::Nothing
            }
            MagnaGraeciaCommand::FoldLegend(folded) => {
                self.map_state.legend_folded = folded;
                // A file opened read-only keeps the fold for this window only.
                let _ = cx.store.set_setting(map::LEGEND_FOLDED_KEY, folded.then_some("yes"));
                Reply::Nothing
            }
            MagnaGraeciaCommand::ExportRoster { side, path } => match self.export_roster(&side, &path) {
                Ok(()) => Reply::Info(format!("Roster written to {}", path.display())),
                Err(e) => Reply::Failed(e),
            },
            MagnaGraeciaCommand::ImportRoster { side, path } => match self.read_roster(&side, &path) {
                Ok(army) => self.execute(cx.store, &Order::SetArmy { army }, DiceInput::Seeded),
                Err(e) => Reply::Failed(e),
            },
            MagnaGraeciaCommand::WritePack { battle, settings } => {
                let reply = self.write_pack(battle, &settings, cx.store, cx.data);
                cx.keep_pack_settings(self.campaign.id, settings);
                reply
            }
            MagnaGraeciaCommand::WriteAllPacks { settings } => self.write_all_packs(settings, cx),
            MagnaGraeciaCommand::StopPacks => {
                match &mut self.pack_job {
                    Some(job) if job.running() => job.stop(),
                    _ => self.pack_job = None,
                }
                Reply::Nothing
            }
        }
    }

    /// Starts writing the packs of every battle due on a background thread.
    fn write_all_packs(&mut self, settings: PackSettings, cx: &mut DeskContext<'_>) -> Reply {
        if self.pack_job.as_ref().is_some_and(PackJob::running) {
            return Reply::Failed("packs are being written already: wait for them, or stop them".to_owned());
        }
        let (folder, mut options, existing) = (settings.folder(), settings.options(), settings.existing());
        cx.keep_pack_settings(self.campaign.id, settings);
        let kept = match crate::tables::for_pack(&mut options, cx.data, None) {
            Ok(kept) => kept,
            Err(e) => return Reply::Failed(e.to_string()),
        };
        let open = match self.for_packs() {
            Ok(open) => open,
            Err(e) => return Reply::Failed(e),
        };
        let battles: Vec<u32> = open.campaign.state.battles.iter().map(|b| b.id).collect();
        let job = folder.map(|dir| {
            let campaign = (open.campaign.id, open.campaign.state.clone());
            PackJob::start(
                campaign,
                open.map.clone(),
                open.live.events.clone(),
                battles,
                packs::JobOptions { options, existing, kept },
                dir,
            )
        });
        match job {
            Ok(job) => {
                self.pack_job = Some(job);
                Reply::Nothing
            }
            Err(e) => Reply::Failed(e),
        }
    }

    /// The campaign, if the umpire is looking: packs hold what every side knows, so a
    /// side's screen never makes them.
    pub fn for_packs(&self) -> Result<&MagnaGraeciaDesk, String> {
        if self.live.viewer == Viewer::Umpire { Ok(self) } else { Err(crate::gui::widgets::packs::UMPIRE_ONLY.to_owned()) }
    }

    /// Writes one battle's pack; the open pack window shows what was written, or why not.
    /// A hex wargame's pack keeps the table it was counted by with the battle, in `store`.
    pub fn write_pack(&mut self, battle: u32, settings: &PackSettings, store: &mut Store, data: &referee_data::DataSource) -> Reply {
        if let Err(e) = self.for_packs() {
            return Reply::Refused(e);
        }
        let mut options = settings.options();
        let id = self.campaign.id;
        let outcome = crate::tables::for_pack(&mut options, data, None).map_err(|e| e.to_string()).and_then(|kept| {
            let dir = settings.folder()?;
            let to = referee_battle_gen::pack::Destination { folder: &dir, existing: settings.existing() };
            packs::write_pack(&self.campaign.state, &self.map, &self.live.events, battle, &options, to, || {
                crate::tables::keep(store, id, battle, &kept).map_err(|e| crate::gui::widgets::packs::Refused(e.to_string()))
            })
        });
        match &mut self.dialog {
            Some(DialogForm::Pack(form)) if form.battle == Some(battle) => {
                form.outcome = Some(outcome);
                Reply::Nothing
            }
            _ => match outcome {
                Ok(files) => Reply::Info(format!("Battle {battle}'s pack written: {}", count(files.len(), "file"))),
                Err(e) => Reply::Refused(e),
            },
        }
    }

    /// Writes the side's roster as JSON to `path`, if the viewer may read it.
    pub fn export_roster(&self, side: &SideId, path: &std::path::Path) -> Result<(), String> {
        let army = self.live.view.forces().into_iter().find(|f| &f.side == side).and_then(|f| f.army.clone());
        let Some(army) = army else {
            return Err(format!(
                "{} roster is not this viewer's to write",
                referee_campaign::core::words::owner_of(&self.live.view.board().side_name(side))
            ));
        };
        let text = serde_json::to_string_pretty(&army).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{} could not be written: {e}", path.display()))
    }

    /// Reads a roster Export wrote, as `side`'s army; the rules then judge it like any other.
    pub fn read_roster(&self, side: &SideId, path: &std::path::Path) -> Result<referee_campaign::magna_graecia::army::Army, String> {
        let text = crate::input::read_limited(path, "the roster", crate::input::INPUT_BYTES).map_err(|e| format!("{e:#}"))?;
        crate::input::no_key_twice(&text).map_err(|e| format!("{} is not a roster as Export writes it: {e}", path.display()))?;
        let army: referee_campaign::magna_graecia::army::Army =
            serde_json::from_str(&text).map_err(|e| format!("{} is not a roster as Export writes it: {e}", path.display()))?;
        if &army.side != side {
            return Err(format!(
                "{} holds {} roster, not {}",
                path.display(),
                referee_campaign::core::words::owner_of(&self.live.view.board().side_name(&army.side)),
                referee_campaign::core::words::owner_of(&self.live.view.board().side_name(side))
            ));
        }
        Ok(army)
    }

    /// Opens the editor on a copy of the side's army, if the viewer may see it and rosters
    /// may still change; closes it on `None`.
    fn edit_roster(&mut self, side: Option<SideId>) -> Reply {
        let Some(side) = side else {
            self.roster = None;
            return Reply::Nothing;
        };
        if self.live.view.board().phase != Phase::Setup {
            return Reply::Refused("rosters are fixed once play has begun; losses change them, not the referee — MG-03".to_owned());
        }
        let editor = self.live.view.forces().into_iter().find(|f| f.side == side).map(|f| RosterEditor::new(side.clone(), f.army.as_ref()));
        match editor {
            Some(editor) => {
                self.roster = Some(editor);
                Reply::Nothing
            }
            None => Reply::Refused(format!(
                "{} roster is not this viewer's to edit",
                referee_campaign::core::words::owner_of(&self.live.view.board().side_name(&side))
            )),
        }
    }

    /// Closes the editor once its side's roster may no longer change or be seen: play has
    /// begun, or the viewer is another side.
    fn drop_stale_roster(&mut self) {
        let Some(editor) = &self.roster else { return };
        let keep = self.live.view.board().phase == Phase::Setup && self.live.view.forces().iter().any(|f| f.side == editor.side);
        if !keep {
            self.roster = None;
        }
    }

    /// Forgets the forms and picks of the last viewer or the last state.
    fn forget_forms(&mut self) {
        self.picks.counter = None;
        // A side's orders file read by the referee is no other viewer's to see.
        self.incoming.clear();
        self.seed_shown = false;
        self.dialog = None;
        self.naval.clear();
        self.siege_losses.clear();
        self.drop_stale_roster();
    }

    /// The open dialog and the windows the rules call for (losses at sea, MG-18; siege and
    /// disease losses, MG-28, MG-29).
    fn dialogs_ui(&mut self, ctx: &egui::Context, roll: &RollForm, message: Option<&Message>, queue: &mut Vec<AppCommand>) {
        let MagnaGraeciaDesk { map, live, dialog, naval, siege_losses, campaign, pack_job, .. } = self;
        let view = &live.view;
        dialogs::naval_losses_ui(ctx, view, naval, message, queue);
        dialogs::siege_losses_ui(ctx, map, view, siege_losses, message, queue);
        match dialog {
            Some(DialogForm::Battle(form)) => {
                if !view.board().battles.iter().any(|b| b.id == form.battle) {
                    *dialog = None;
                    return;
                }
                let data = dialogs::BattleFormData { map, state: &campaign.state, view, dice: roll.typed_dice(), message };
                dialogs::battle_form_ui(ctx, form, &data, queue);
            }
            Some(DialogForm::Exchange(form)) => dialogs::exchange_ui(ctx, form, view, message, queue),
            Some(DialogForm::Garrison(form)) => dialogs::garrison_ui(ctx, map, form, view, message, queue),
            Some(DialogForm::EndCampaign(form)) => dialogs::end_campaign_ui(ctx, form, message, queue),
            Some(DialogForm::Table(form)) => {
                let Some(battle) = view.board().battles.iter().find(|b| b.id == form.battle) else {
                    *dialog = None;
                    return;
                };
                let data = table::TableData { map, battle, dice: roll.typed_dice(), message };
                table::set_table_ui(ctx, form, &data, queue);
            }
            Some(DialogForm::Pack(form)) => {
                let data = packs::PackData { map, view, job: pack_job.as_ref() };
                packs::pack_window_ui(ctx, form, &data, queue);
            }
            None => {}
        }
    }
}

impl DeskCampaign for MagnaGraeciaDesk {
    type Engine = MagnaGraecia;

    fn kept(&self) -> Kept<'_, MagnaGraecia> {
        Kept { campaign: &self.campaign, context: &self.map, live: &self.live }
    }

    fn kept_mut(&mut self) -> KeptMut<'_, MagnaGraecia> {
        KeptMut { campaign: &mut self.campaign, context: &self.map, live: &mut self.live, incoming: &mut self.incoming }
    }

    /// Gives an order to the rules; on success the forms it settles close and the selection
    /// follows the counter.
    fn execute(&mut self, store: &mut Store, command: &Order, dice: DiceInput) -> Reply {
        let stored = match store.execute(&mut self.campaign, &self.map, command, dice) {
            Ok(stored) => stored,
            Err(e) => return Reply::Refused(e.to_string()),
        };
        if self.dialog.as_ref().is_some_and(|d| d.done_by(command)) {
            self.dialog = None;
        }
        match command {
            Order::AllocateNavalLosses { side, .. } => {
                self.naval.remove(side);
            }
            Order::AllocateSiegeLosses { side, .. } => {
                self.siege_losses.remove(side);
            }
            _ => {}
        }
        self.follow(stored);
        let mut said = None;
        match command {
            // The selection follows the counter, which may move on if it has MP left.
            Order::Move { path, .. } => self.picks.node = path.last().copied().or(self.picks.node),
            Order::Deploy { node, .. } => {
                self.picks.node = Some(*node);
                self.picks.counter = None;
            }
            Order::SetArmy { army } => {
                self.picks.counter = None;
                if self.roster.as_ref().is_some_and(|r| r.side == army.side) {
                    self.roster = None;
                }
                said = Some(format!(
                    "{} roster saved",
                    referee_campaign::core::words::owner_of(&self.live.view.board().side_name(&army.side))
                ));
            }
            _ => self.picks.counter = None,
        }
        self.drop_stale_roster();
        Reply::Stored(said)
    }

    fn write_battle_pack(
        &self,
        state: &CampaignState,
        events: &[Logged],
        battle: u32,
        options: &referee_battle_gen::pack::PackOptions,
        to: referee_battle_gen::pack::Destination<'_>,
        _data: &referee_data::DataSource,
    ) -> Result<Vec<crate::gui::widgets::packs::WrittenFile>, String> {
        packs::write_pack(state, &self.map, events, battle, options, to, || Ok(()))
    }

    fn follow_stored(&mut self, _store: &Store, events: Vec<referee_campaign::magna_graecia::event::Event>) {
        self.picks.counter = None;
        self.follow(events);
    }

    fn undone(&mut self, _store: &Store) {
        self.picks.counter = None;
        self.land_retreats = land_retreats(&self.live.view);
        self.drop_stale_roster();
    }
}

impl EngineDesk for MagnaGraeciaDesk {
    fn past_battles(&self) -> Vec<crate::past::PastBattle> {
        crate::past::magna_graecia(&self.campaign.state, &self.map, &self.live.events)
    }

    fn side_colour(&self, side: &SideId) -> egui::Color32 {
        self.live.view.board().sides.iter().find(|s| &s.id == side).map_or(egui::Color32::GRAY, paint::side_colour)
    }

    fn set_viewer(&mut self, viewer: Viewer) -> Result<(), String> {
        let state = &self.campaign.state;
        if let Viewer::Side(s) = &viewer
            && !state.is_side(s)
        {
            let sides = state.scenario.move_order.iter().map(SideId::as_str).collect::<Vec<_>>();
            return Err(format!("{} has no side `{s}`; view as umpire or one of {}", state.scenario.name, sides.join(", ")));
        }
        if self.live.viewer != viewer {
            let events = std::mem::take(&mut self.live.events);
            let Some(live) = Followed::new(&self.campaign.state, &self.map, events, viewer) else {
                return Err("the campaign has no such side".to_owned());
            };
            self.live = live;
            self.land_retreats = land_retreats(&self.live.view);
            // The new viewer may not own what was picked, or even know its name.
            self.forget_forms();
        }
        Ok(())
    }

    fn fit_map(&mut self) {
        self.map_state.fit_next_frame();
    }

    fn log(&self) -> LogData<'_> {
        let board = self.live.view.board();
        LogData { lines: self.live.view.log(), sides: board.sides.iter().map(|s| (&s.id, s.name.as_str())).collect() }
    }

    fn campaign_menu_ui(&self, ui: &mut egui::Ui, queue: &mut Vec<AppCommand>) {
        panels::campaign_menu_ui(ui, &self.live.view, &self.live.viewer, queue);
        let forces = self.live.view.forces();
        if forces.iter().all(|f| f.army.is_none()) {
            return;
        }
        ui.separator();
        for f in forces.iter().filter(|f| f.army.is_some()) {
            let name = self.live.view.board().side_name(&f.side);
            if ui.button(format!("Export {} roster…", referee_campaign::core::words::owner_of(&name))).clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .set_title(format!("{} roster", referee_campaign::core::words::owner_of(&name)))
                    .set_file_name(format!("{}-roster.json", f.side))
                    .add_filter("Roster", &["json"])
                    .save_file()
            {
                queue.push(MagnaGraeciaCommand::ExportRoster { side: f.side.clone(), path }.into());
            }
            if self.live.view.board().phase == Phase::Setup
                && ui.button(format!("Import a roster for {name}…")).clicked()
                && let Some(path) =
                    rfd::FileDialog::new().set_title(format!("A roster for {name}")).add_filter("Roster", &["json"]).pick_file()
            {
                queue.push(MagnaGraeciaCommand::ImportRoster { side: f.side.clone(), path }.into());
            }
        }
    }

    /// Each battle whose pack the background thread wrote keeps the table it was counted by.
    fn poll(&mut self, store: &mut Store) -> Vec<String> {
        let Some(job) = &mut self.pack_job else { return Vec::new() };
        job.poll();
        let (id, tables) = (job.campaign, job.kept.clone());
        let mut failed = Vec::new();
        for battle in job.take_written() {
            if let Err(e) = crate::tables::keep(store, id, battle, &tables) {
                failed.push(format!("battle {battle}'s pack was written, but its table could not be kept with it: {e}"));
            }
        }
        failed
    }

    fn busy(&self) -> bool {
        self.pack_job.as_ref().is_some_and(PackJob::running)
    }

    fn status_ui(&mut self, ui: &mut egui::Ui, roll: &mut RollForm, queue: &mut Vec<AppCommand>) {
        let legal = self.legal();
        panels::status_ui(ui, &self.map, &self.live.view, &self.live.viewer, legal, roll, queue);
    }

    fn desk_ui(&mut self, ui: &mut egui::Ui, shell: &mut ShellUi<'_>) {
        let queue = &mut *shell.queue;
        // Escape closes the open dialog, then the roster editor, then lets a picked counter
        // go — unless a text field has the keyboard, which Escape leaves first.
        let open = [self.dialog.is_some(), self.roster.is_some(), self.picks.counter.is_some()];
        if open.contains(&true)
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
        {
            queue.push(match open {
                [true, _, _] => AppCommand::from(MagnaGraeciaCommand::OpenDialog(None)),
                [_, true, _] => AppCommand::from(MagnaGraeciaCommand::EditRoster(None)),
                _ => AppCommand::from(MagnaGraeciaCommand::SelectCounter(None)),
            });
        }
        let selection = self.picks.borrowed();
        egui::Panel::right("details").resizable(true).default_size(330.0).min_size(240.0).show(ui, |ui| {
            let details = panels::Details {
                map: &self.map,
                view: &self.live.view,
                viewer: &self.live.viewer,
                land_retreats: &self.land_retreats,
                pack_job: self.pack_job.as_ref(),
                seed: (self.seed_shown && self.live.viewer == Viewer::Umpire).then_some(self.campaign.state.seed),
                legal: self.legal(),
            };
            panels::details_ui(ui, &details, selection, queue);
        });
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            let own = self.live.view.forces();
            let overlay = map::Overlay { own: &own, picked: self.picks.counter.as_ref() };
            let canvas = ui.available_rect_before_wrap();
            map::map_ui(ui, &self.map, self.live.view.board(), &overlay, self.picks.node, &mut self.map_state, queue);
            if !self.incoming.is_empty() {
                // Each counter of the file's side from where it stands; the orders name it.
                let side = self.incoming.iter().find_map(|(_, o)| o.side().cloned());
                let from = own
                    .iter()
                    .filter(|f| Some(&f.side) == side.as_ref())
                    .flat_map(|f| f.counters.iter().map(|c| (c.name.clone(), c.node)))
                    .collect();
                map::planned_ui(&ui.painter_at(canvas), canvas, &self.map, &self.map_state, from, &self.incoming);
            }
        });
        let board = self.live.view.board();
        if let Some(editor) = &mut self.roster
            && board.phase == Phase::Setup
            && let Some(forces) = self.live.view.forces().into_iter().find(|f| f.side == editor.side)
        {
            let side_name = board.side(&forces.side).map_or(forces.side.as_str(), |s| s.name.as_str());
            let data = roster::RosterData { side_name, points: forces.army_points, table: &self.elements };
            roster::roster_editor_ui(ui.ctx(), editor, data, queue);
        }
        self.dialogs_ui(ui.ctx(), shell.roll, shell.message, queue);
    }
}

/// What the referee or a player has picked out on the map: a node, and perhaps one of the
/// viewer's own counters to move (or, during setup, to deploy), where it may go lit up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Picks {
    pub node: Option<NodeId>,
    pub counter: Option<CounterRef>,
}

impl Picks {
    /// The picks as the panels read them.
    pub fn borrowed(&self) -> panels::Selection<'_> {
        panels::Selection { node: self.node, counter: self.counter.as_ref() }
    }

    /// Selects a node (or nothing); during setup a picked counter waits for a node to
    /// deploy at, and otherwise it is let go unless it stands there.
    pub fn select(&mut self, view: &View, node: Option<NodeId>) {
        self.node = node;
        let keep = self.counter.as_ref().is_some_and(|c| may_deploy(view, c) || counter_node(view, c) == node);
        if !keep {
            self.counter = None;
        }
    }

    /// Picks out one of the viewer's counters (or lets it go); its node is selected with
    /// it, unless it waits to be deployed.
    pub fn pick(&mut self, view: &View, counter: Option<CounterRef>) {
        match counter.as_ref().map(|c| (counter_node(view, c), may_deploy(view, c))) {
            Some((_, true)) => self.counter = counter,
            Some((Some(at), false)) => {
                self.node = Some(at);
                self.counter = counter;
            }
            _ => self.counter = None,
        }
    }
}

/// Whether a counter of the viewer's may be deployed now (MG-02): during setup, where the
/// rules leave it somewhere to go.
fn may_deploy(view: &View, counter: &CounterRef) -> bool {
    view.board().phase == Phase::Setup && view.forces().iter().any(|f| f.side == counter.side && f.deployable.contains_key(&counter.name))
}

/// Where one of the viewer's own counters stands, as the viewer's forces say.
fn counter_node(view: &View, counter: &CounterRef) -> Option<NodeId> {
    view.forces().into_iter().filter(|f| f.side == counter.side).flat_map(|f| &f.counters).find(|c| c.name == counter.name).map(|c| c.node)
}

/// The land counters owing a retreat that the view's forces hold: all for the umpire, a
/// side's own for that side.
pub(crate) fn land_retreats(view: &View) -> Vec<CounterRef> {
    view.forces()
        .into_iter()
        .flat_map(|f| f.land_retreats.keys().map(|name| CounterRef { side: f.side.clone(), name: name.clone() }))
        .collect()
}

/// The public board of a scenario's first turn, for the picker's preview.
pub(crate) fn start_board(scenario: &Scenario, map: &Map) -> view::Board {
    let state = CampaignState::new(&scenario.name, scenario, 0);
    view::umpire_view(&state, map, &[]).board
}

/// The picker's map of a scenario at its start, kept while the same scenario is chosen.
#[derive(Debug, Default)]
pub(crate) struct Preview {
    shown: Option<(String, view::Board)>,
    map: MapState,
}

impl Preview {
    /// Draws the catalog's scenario `id` at its start, for looking only (an empty panel
    /// when there is none).
    pub fn ui(&mut self, ui: &mut egui::Ui, catalog: &Catalog, id: Option<&str>) {
        let scenario = id.and_then(|id| catalog.scenarios.iter().find(|s| s.id == id));
        let map = scenario.and_then(|s| catalog.map(&s.map));
        egui::CentralPanel::default().show(ui, |ui| {
            let (Some(scenario), Some(map)) = (scenario, map) else { return };
            if self.shown.as_ref().is_none_or(|(id, _)| id != &scenario.id) {
                self.shown = Some((scenario.id.clone(), start_board(scenario, map)));
                self.map.fit_next_frame();
            }
            let Some((_, board)) = &self.shown else { return };
            ui.label(egui::RichText::new(format!("{} at the start", scenario.name)).strong());
            // The preview is for looking only: clicks on it select nothing.
            let mut ignored = Vec::new();
            map::map_ui(ui, map, board, &map::Overlay::default(), None, &mut self.map, &mut ignored);
        });
    }
}
