//! The traits through which the shell drives the campaign on screen, whichever engine runs
//! it, and what passes between them.
//!
//! The shell owns what every campaign has: the store, the picker, the bar with its menus and
//! the view-as choice, the log with the dice form, and undo. Each engine's desk owns the rest
//! — its map, its panels, its dialogs, the forms being filled in and the packs being
//! written — and answers the shell through [`EngineDesk`]. It lends its campaign through
//! [`DeskCampaign`], and [`CampaignDesk`] answers from it, once for every engine, what every
//! campaign answers alike: its name and seed, undo and redo, the referee's roll, a side's
//! orders file.

use referee_battle_gen::pack::{Destination, PackOptions};
use referee_campaign::CampaignId;
use referee_campaign::Viewer;
use referee_campaign::core::engine::{Engine, Logged};
use referee_campaign::core::log::{RenameCampaign, RollDice};
use referee_campaign::core::verify::{Commitment, Verification, log_lines};
use referee_campaign::core::view::Followed;
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput, Store, StoreError, Undone};
use referee_data::DataSource;

use crate::gui::shell::command::{AppCommand, Message};
use crate::gui::shell::log::LogData;
use crate::gui::widgets::packs::{self, PackSettings, WrittenFile};
use crate::gui::widgets::roll::RollForm;
use crate::gui::widgets::words::shorten;
use crate::packet::{Incoming, OrdersFile};
use crate::past::PastBattle;

/// What came of a command a desk was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reply {
    /// Only the desk's own forms or selection changed; the last message stands.
    Nothing,
    /// Nothing changed, and the last message goes (a form opened or closed: it shows the
    /// refusals of its own orders, not older ones).
    Clear,
    /// The campaign changed (an order or an undo was stored): the shell refreshes its list
    /// of campaigns and shows this line, or clears the last one.
    Stored(Option<String>),
    /// Nothing changed, but the referee should read this.
    Info(String),
    /// Refused: nothing changed, for this reason.
    Refused(String),
    /// Something the referee asked for went wrong, though no order was refused (a file
    /// that could not be written or read): the red line under the log, and nothing more.
    Failed(String),
}

/// What the shell lends a desk while it draws.
pub(crate) struct ShellUi<'a> {
    pub roll: &'a mut RollForm,
    pub message: Option<&'a Message>,
    pub queue: &'a mut Vec<AppCommand>,
}

/// One engine's part of the window (rerun's view classes are the model: the shell knows
/// the trait, each engine fills it in): what only the engine can answer. What every engine
/// answers alike is [`CampaignDesk`]'s, written once.
pub(crate) trait EngineDesk {
    /// The colour the map draws `side` in, for whatever else draws it (the charts).
    fn side_colour(&self, side: &SideId) -> egui::Color32;

    /// Looks at the campaign as `viewer`, forgetting every form and selection the new viewer
    /// may not see; a side the campaign does not have is refused.
    fn set_viewer(&mut self, viewer: Viewer) -> Result<(), String>;

    /// The next frame fits the map to the window.
    fn fit_map(&mut self);

    /// The log as the viewer may read it, and the sides for the dice form.
    fn log(&self) -> LogData<'_>;

    /// The Campaign menu's entries that only this engine has.
    fn campaign_menu_ui(&self, ui: &mut egui::Ui, queue: &mut Vec<AppCommand>);

    /// The middle of the bar: where the campaign stands and the buttons that move it on.
    fn status_ui(&mut self, ui: &mut egui::Ui, roll: &mut RollForm, queue: &mut Vec<AppCommand>);

    /// Takes in what work in the background has done since the last frame (the packs of
    /// every battle due, say), keeping in `store` what goes with it; says what went wrong.
    fn poll(&mut self, _store: &mut Store) -> Vec<String> {
        Vec::new()
    }

    /// Whether work goes on in the background, for which the window keeps drawing.
    fn busy(&self) -> bool {
        false
    }

    /// The battles the campaign has had, their results in, numbered as their packs were
    /// (X-04, BE-17).
    fn past_battles(&self) -> Vec<PastBattle>;

    /// Everything under the bar but the log: the panel beside the map, the map, and the
    /// windows the rules call for.
    fn desk_ui(&mut self, ui: &mut egui::Ui, shell: &mut ShellUi<'_>);
}

/// What the shell asks of the campaign on screen that every engine answers alike, written
/// once, below, for every desk: each engine's desk lends its campaign through
/// [`DeskCampaign`] and answers the rest as an [`EngineDesk`].
pub(crate) trait CampaignDesk: EngineDesk {
    /// The campaign and the viewer, from which the shell's plainer questions are answered.
    fn basics(&self) -> Basics<'_>;

    /// The campaign's name, for the bar and the picker.
    fn campaign_name(&self) -> &str {
        self.basics().name
    }

    /// The campaign's id in the store.
    fn campaign_id(&self) -> CampaignId {
        self.basics().id
    }

    /// Who is looking.
    fn viewer(&self) -> &Viewer {
        self.basics().viewer
    }

    /// The campaign turn under way, from 1.
    fn turn(&self) -> u32 {
        self.basics().turn
    }

    /// The campaign's seed: the umpire's secret until it is revealed.
    fn seed(&self) -> u64 {
        self.basics().seed
    }

    /// Every side a viewer may be, by id and name, in the campaign's order.
    fn sides(&self) -> Vec<(SideId, String)> {
        self.log().sides.into_iter().map(|(id, name)| (id.clone(), name.to_owned())).collect()
    }

    /// Checks `seed` against the campaign's commitment and replays its seeded rolls as the
    /// viewer makes the check: a side's own rolls by its log's lines, every other seeded
    /// roll only as a stretch of the stream.
    fn verify(&self, store: &Store, seed: u64) -> Result<Verification, StoreError>;

    /// Commits to the seed now, for a campaign begun before commitments were made.
    fn commit_seed(&self, store: &mut Store) -> Result<Commitment, StoreError>;

    /// Gives the referee's roll from the shell's dice form to the rules, as this engine's
    /// own order.
    fn roll(&mut self, store: &mut Store, roll: RollDice, input: DiceInput) -> Reply;

    /// Gives the campaign another name, as this engine's own order.
    fn rename(&mut self, store: &mut Store, rename: RenameCampaign) -> Reply;

    /// The last order in the referee's words ("Leptines retreats to Petra"), in one line
    /// short enough for a menu, as the umpire reads its events; `None` when only the
    /// campaign's start is left.
    fn last_order(&self) -> Option<LastOrder>;

    /// Checks a side's orders file against the campaign on screen: what it would give,
    /// or why it may not. Its orders are drawn on the map as planned (dashed, numbered from
    /// 1) while the referee reads them, until they are taken in or forgotten.
    fn preview_orders(&mut self, store: &Store, file: OrdersFile) -> Result<OrdersPreview, String>;

    /// Takes the orders file read last off the map.
    fn forget_incoming(&mut self);

    /// Writes a past battle's pack as the battle stood when it went to the table, read again
    /// from the log, into the folder of `settings` (X-04, BE-17). Refused outside the
    /// umpire's view, for a battle that never had a pack, and for a hex pack, which keeps its
    /// tables with a battle still on.
    fn write_past_pack(&self, battle: u32, settings: &PackSettings, data: &DataSource) -> Result<Vec<WrittenFile>, String>;

    /// Gives the orders of a side's orders file, all or nothing, and redraws; refused where
    /// the side's log has moved on since its packet, unless `anyway`.
    fn take_in(&mut self, store: &mut Store, file: OrdersFile, anyway: bool) -> Reply;

    /// Takes back the last order and redraws.
    fn undo(&mut self, store: &mut Store) -> Result<Undone, String>;

    /// Gives an undone order again with its dice, and redraws.
    fn redo(&mut self, store: &mut Store, undone: &Undone) -> Reply;
}

/// What an engine's desk keeps of its campaign, lent to [`CampaignDesk`], and the desk's own
/// say in what follows an order.
pub(crate) trait DeskCampaign {
    type Engine: Engine;

    /// The campaign as the desk keeps it.
    fn kept(&self) -> Kept<'_, Self::Engine>;

    /// The same, to be changed.
    fn kept_mut(&mut self) -> KeptMut<'_, Self::Engine>;

    /// Gives an order to the rules, as the desk's own buttons and forms do.
    fn execute(&mut self, store: &mut Store, order: &<Self::Engine as Engine>::Order, input: DiceInput) -> Reply;

    /// Writes battle `battle`'s pack from the campaign `state` and its log `events`: as the
    /// campaign stands, or a moment of its past read again.
    fn write_battle_pack(
        &self,
        state: &<Self::Engine as Engine>::State,
        events: &[Logged<<Self::Engine as Engine>::Event>],
        battle: u32,
        options: &PackOptions,
        to: Destination<'_>,
        data: &DataSource,
    ) -> Result<Vec<WrittenFile>, String>;

    /// Follows events stored from outside the desk's panels (an orders file taken in, an
    /// order given again): the view moves on, and what was picked out on the map is let go.
    fn follow_stored(&mut self, store: &Store, events: Vec<<Self::Engine as Engine>::Event>);

    /// Brings the desk's own forms and figures in line once the last order was taken back
    /// (the view has been already).
    fn undone(&mut self, store: &Store);
}

/// A desk's campaign: the campaign, the data its rules read besides it, and what the viewer
/// sees of it.
pub(crate) struct Kept<'a, E: Engine> {
    pub campaign: &'a Campaign<E>,
    pub context: &'a E::Context,
    pub live: &'a Followed<E>,
}

/// A desk's campaign to be changed, with the orders of the side's file being read.
pub(crate) struct KeptMut<'a, E: Engine> {
    pub campaign: &'a mut Campaign<E>,
    pub context: &'a E::Context,
    pub live: &'a mut Followed<E>,
    pub incoming: &'a mut Numbered<E>,
}

impl<D: DeskCampaign + EngineDesk> CampaignDesk for D {
    fn basics(&self) -> Basics<'_> {
        let Kept { campaign, live, .. } = self.kept();
        let state = &campaign.state;
        Basics {
            name: D::Engine::name(state),
            id: campaign.id,
            turn: D::Engine::turn(state),
            seed: D::Engine::dice(state).0,
            viewer: &live.viewer,
        }
    }

    fn verify(&self, store: &Store, seed: u64) -> Result<Verification, StoreError> {
        let Kept { campaign, context, live } = self.kept();
        let lines = log_lines::<D::Engine>(&campaign.state, context, &live.events, &live.viewer);
        store.verify_seed_as::<D::Engine>(campaign.id, seed, &live.viewer, |l| lines.get(&l.seq).copied())
    }

    fn commit_seed(&self, store: &mut Store) -> Result<Commitment, StoreError> {
        store.commit_seed(self.kept().campaign)
    }

    fn roll(&mut self, store: &mut Store, roll: RollDice, input: DiceInput) -> Reply {
        self.execute(store, &roll.into(), input)
    }

    fn rename(&mut self, store: &mut Store, rename: RenameCampaign) -> Reply {
        self.execute(store, &rename.into(), DiceInput::Seeded)
    }

    fn last_order(&self) -> Option<LastOrder> {
        let Kept { campaign, context, live } = self.kept();
        let events = &live.events;
        let last = events.last()?.command_seq;
        if last <= 1 {
            return None;
        }
        let first = events.iter().rposition(|e| e.command_seq != last).map_or(0, |i| i + 1);
        let lines: Vec<String> =
            events[first..].iter().filter_map(|e| D::Engine::describe(&campaign.state, context, &e.event, &Viewer::Umpire)).collect();
        let text = if lines.is_empty() { "the last order".to_owned() } else { lines.join("; ") };
        Some(LastOrder { lines: lines.len(), text: shorten(&text, 90) })
    }

    fn preview_orders(&mut self, store: &Store, file: OrdersFile) -> Result<OrdersPreview, String> {
        let sides = self.sides();
        let KeptMut { campaign, context, incoming, .. } = self.kept_mut();
        incoming.clear();
        let read = Incoming::<D::Engine>::check(store, campaign, context, file, &sides).map_err(|e| format!("{e:#}"))?;
        let orders = read.orders.iter().map(|o| D::Engine::summary(&campaign.state, context, o, &Viewer::Umpire)).collect();
        *incoming = (1..).zip(read.orders).collect();
        Ok(OrdersPreview { orders, side_name: read.side_name, moved_on: read.moved_on, file: read.file })
    }

    fn forget_incoming(&mut self) {
        self.kept_mut().incoming.clear();
    }

    fn write_past_pack(&self, number: u32, settings: &PackSettings, data: &DataSource) -> Result<Vec<WrittenFile>, String> {
        let Kept { campaign, live, .. } = self.kept();
        if live.viewer != Viewer::Umpire {
            return Err(packs::UMPIRE_ONLY.to_owned());
        }
        let name = self.campaign_name();
        let Some(past) = self.past_battles().into_iter().find(|b| b.number == number) else {
            return Err(format!("{name} has had no battle {number} whose result is in"));
        };
        if let Some(why) = past.no_pack(name) {
            return Err(why);
        }
        let options = settings.options();
        let hex = options.system.hex().is_some();
        let (state, events) = crate::past::moment::<D::Engine>(&campaign.state, live.events.clone(), past.before, hex, number)
            .map_err(|e| format!("{e:#}"))?;
        let folder = settings.folder()?;
        self.write_battle_pack(&state, &events, number, &options, Destination { folder: &folder, existing: settings.existing() }, data)
    }

    fn take_in(&mut self, store: &mut Store, file: OrdersFile, anyway: bool) -> Reply {
        let sides = self.sides();
        let KeptMut { campaign, context, .. } = self.kept_mut();
        let taken = Incoming::<D::Engine>::check(store, campaign, context, file, &sides)
            .and_then(|incoming| incoming.apply(store, campaign, context, anyway, "take them in anyway"));
        match taken {
            Ok((events, lines)) => {
                self.follow_stored(store, events);
                Reply::Stored(Some(lines.join("; ")))
            }
            Err(e) => Reply::Refused(format!("{e:#}")),
        }
    }

    fn undo(&mut self, store: &mut Store) -> Result<Undone, String> {
        let KeptMut { campaign, context, live, .. } = self.kept_mut();
        let undone = store.undo(campaign).map_err(|e| e.to_string())?;
        live.undo(&campaign.state, context);
        self.undone(store);
        Ok(undone)
    }

    fn redo(&mut self, store: &mut Store, undone: &Undone) -> Reply {
        let KeptMut { campaign, context, .. } = self.kept_mut();
        match store.redo(campaign, context, undone) {
            Ok(stored) => {
                self.follow_stored(store, stored);
                Reply::Stored(None)
            }
            Err(e) => Reply::Refused(e.to_string()),
        }
    }
}

/// What every campaign has, of whichever engine, as a desk holds it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Basics<'a> {
    pub name: &'a str,
    pub id: CampaignId,
    pub turn: u32,
    pub seed: u64,
    pub viewer: &'a Viewer,
}

/// What the shell lends a desk to apply one of its engine's commands.
pub(crate) struct DeskContext<'a> {
    pub store: &'a mut Store,
    /// Where the data tables are read from: a hex pack's conversion table among them.
    pub data: &'a DataSource,
    /// The last choices of a pack window, for the next one.
    pub pack_settings: &'a mut PackSettings,
}

impl DeskContext<'_> {
    /// Keeps a pack window's choices for the next one, and its folder as campaign `id`'s.
    pub fn keep_pack_settings(&mut self, id: CampaignId, settings: PackSettings) {
        packs::keep(self.store, id, self.pack_settings, settings);
    }
}

/// Whether the rules would take an order now, asked without storing anything: the engine's
/// own `decide`, on the campaign as it stands, with the seeded dice. In the umpire's view a
/// button whose order the rules would refuse is greyed out, its reason on hover. In a side's
/// view every button stays live and the rules answer after the click: whether an order is
/// legal may hang on what the side does not know (the besieger's strength, the enemy's
/// leaders), and a greyed-out button would tell it.
pub(crate) struct Legal<'a, E: Engine>(Option<(&'a E::State, &'a E::Context)>);

impl<E: Engine> Clone for Legal<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: Engine> Copy for Legal<'_, E> {}

impl<E: Engine> std::fmt::Debug for Legal<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Legal(checked)" } else { "Legal(unchecked)" })
    }
}

impl<'a, E: Engine> Legal<'a, E> {
    /// Every order live: a side's view.
    pub const UNCHECKED: Self = Legal(None);

    /// Orders asked of the rules on `state`: the umpire's view.
    pub fn checked(state: &'a E::State, context: &'a E::Context) -> Self {
        Legal(Some((state, context)))
    }

    /// Why the rules would refuse `order` now, if they would; always `Ok` unchecked.
    pub fn check(self, order: &E::Order) -> Result<(), String> {
        let Some((state, context)) = self.0 else { return Ok(()) };
        let (seed, at) = E::dice(state);
        let mut dice = referee_campaign::Dice::seeded(seed, at);
        E::allows(state, context, order, &mut dice).map_err(|e| crate::gui::widgets::words::for_referee(&e.to_string()))
    }

    /// The button of `order`: live if it is time for it (`now` is `Ok`) and the rules would
    /// take it, greyed out with the one reason if not, saying on hover what it does (where
    /// `hover` says anything). Clicked, the order is handed to `give`, which queues it in its
    /// engine's command.
    pub fn give(
        self,
        ui: &mut egui::Ui,
        now: Result<(), String>,
        button: egui::Button<'_>,
        hover: impl Into<egui::WidgetText>,
        order: E::Order,
        give: impl FnOnce(E::Order),
    ) -> egui::Response {
        let hover = hover.into();
        let mut response = self.button(ui, now, button, &order);
        if !hover.is_empty() {
            response = response.on_hover_text(hover);
        }
        if response.clicked() {
            give(order);
        }
        response
    }

    /// `button`, live if it is time for `order` (`now` is `Ok`) and the rules would take it;
    /// greyed out otherwise, with the one reason on hover: why not yet, or the rules' own.
    pub fn button(self, ui: &mut egui::Ui, now: Result<(), String>, button: egui::Button<'_>, order: &E::Order) -> egui::Response {
        let verdict = now.and_then(|()| self.check(order));
        let response = ui.add_enabled(verdict.is_ok(), button);
        match verdict {
            Err(why) => response.on_disabled_hover_text(why),
            Ok(()) => response,
        }
    }
}

/// A side's orders file as the referee reads it before taking it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OrdersPreview {
    pub file: OrdersFile,
    pub side_name: String,
    /// Each order in a line, in the order they are to be given.
    pub orders: Vec<String>,
    /// How the side's log has moved on since the packet, if it has.
    pub moved_on: Option<String>,
}

/// Orders numbered from 1, as a plan or an orders file numbers them.
pub(crate) type Numbered<E> = Vec<(u32, <E as Engine>::Order)>;

/// What the last order did, as the referee's log tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastOrder {
    /// How many lines of the log it wrote.
    pub lines: usize,
    /// Those lines, shortened.
    pub text: String,
}
