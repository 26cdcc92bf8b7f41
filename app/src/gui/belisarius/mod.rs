//! The Belisarius desk: the zone map with the markers as the viewer may see them, the
//! viewer's Tables of Organisation, the log, and the notice that the map and tables are the
//! project's reconstruction.
//!
//! Everything here draws from a [`View`] built for the current viewer: the other side's
//! leaders, decoys and fleets reach these functions only as face-down markers (BE-53).

pub(crate) mod battle;
pub(crate) mod command;
pub(crate) mod facts;
pub(crate) mod fleet;
pub(crate) mod siege;
pub(crate) mod turn;

use std::collections::{BTreeMap, BTreeSet};

use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, RichText, Sense, Shape, Stroke, StrokeKind, Vec2, pos2, vec2};
use referee_campaign::Store;
use referee_campaign::belisarius::map::{Terrain, ZoneMap};
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::setup::Public;
use referee_campaign::belisarius::state::{Location, Phase, State};
use referee_campaign::belisarius::view::{Board, Followed, Marker, Organisation, describe, umpire_view};
use referee_campaign::belisarius::{Belisarius, Setup, World};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::core::words::possessive;
use referee_campaign::ids::SideId;
use referee_campaign::store::Campaign;
use referee_campaign::store::{DiceInput, numbered};

use crate::gui::engine::{DeskCampaign, DeskContext, EngineDesk, Kept, KeptMut, Reply, ShellUi};
use crate::gui::shell::command::AppCommand;
use crate::gui::shell::log::LogData;
use crate::gui::widgets::circles::Circles as _;
use crate::gui::widgets::labels::{MapLayout, beside, near, shorter, stack};
use crate::gui::widgets::packs::{PackSettings, Refused, UMPIRE_ONLY};
use crate::gui::widgets::pan_zoom::{PanZoom, fill_polygon, triangulate};
use crate::gui::widgets::roll::RollForm;
use crate::gui::widgets::words::may_order;
use command::{BelisariusCommand, Legal, run};
use facts::{Acting, Facts};

const SEA: Color32 = Color32::from_rgb(0xcf, 0xe1, 0xeb);
const SEA_BORDER: Color32 = Color32::from_rgb(0x9d, 0xbb, 0xce);
const SEA_TEXT: Color32 = Color32::from_rgb(0x4f, 0x77, 0x93);
const LAND: Color32 = Color32::from_rgb(0xf4, 0xee, 0xdc);
const BORDER: Color32 = Color32::from_rgb(0x8a, 0x7a, 0x62);
const INK: Color32 = Color32::from_rgb(0x1c, 0x1c, 0x1c);
/// City ratings are printed in the rules' colours: militia red, fortification black.
const MILITIA: Color32 = Color32::from_rgb(0xc0, 0x1f, 0x1f);
const SELECTION: Color32 = Color32::from_rgb(0xff, 0x9f, 0x1c);
/// The zone of a contact or battle under way.
const BATTLE: Color32 = Color32::from_rgb(0xb0, 0x1c, 0x2e);
const MOUNTAIN: Color32 = Color32::from_rgb(0x7a, 0x66, 0x4a);
const ZONE_TEXT: Color32 = Color32::from_rgb(0x5a, 0x4a, 0x36);

/// Control colours: the Byzantines' AP markers are sand, the barbarians' green, so the map
/// uses the same two colours.
pub(crate) fn side_colour(side: &SideId) -> Color32 {
    match side.as_str() {
        "byzantines" => Color32::from_rgb(0xd8, 0xbf, 0x7c),
        _ => Color32::from_rgb(0x8d, 0xbf, 0x86),
    }
}

/// The Belisarius campaign on screen, with what the viewer may see of it.
#[derive(Debug)]
pub(crate) struct BelisariusDesk {
    pub campaign: Campaign<Belisarius>,
    /// The events and what the viewer sees of them, kept up to date order by order.
    pub live: Followed,
    pub map_state: ZoneMapState,
    pub selected: Option<Location>,
    pub tables_shown: bool,
    /// The parts of free set-up lines being chosen, by side and line number.
    pub parts: BTreeMap<(SideId, u32), PartForm>,
    /// The acting force's march being planned, and the losses being shared out.
    pub march: MarchForm,
    /// The interception being chosen and the battle's forms and odds.
    pub battle: battle::BattleForm,
    /// The points table the battle packs price elements with: a hex game's counters are
    /// counted from the same pack.
    pub elements: referee_campaign::magna_graecia::army::ElementTable,
    /// The ships chosen to sail and their route (BE-33).
    pub voyage: fleet::VoyageForm,
    /// What the panels of the viewer draw from besides the view, worked out whenever the
    /// campaign or the viewer changes.
    pub facts: Facts,
    /// The tables the battle under way's hex pack was counted by, as kept with it (the
    /// built-in ones where it kept none): its result form counts the counters by them.
    pub kept: KeptTables,
    /// A side's orders file being read before it is taken in, drawn on the map as planned.
    pub incoming: Vec<(u32, Order)>,
}

/// The tables a battle's result is read back by.
#[derive(Debug, Clone)]
pub struct KeptTables {
    pub hex_units: referee_battle_gen::hexunits::HexUnits,
    pub conversion: referee_battle_gen::belisarius::Conversion,
}

impl KeptTables {
    /// The tables kept with the battle under way in campaign `id`, or the built-in ones.
    fn read(
        store: &Store,
        id: referee_campaign::CampaignId,
        events: &[referee_campaign::belisarius::event::Logged],
    ) -> Result<KeptTables, String> {
        let number = referee_battle_gen::belisarius::battle_number(events);
        let (hex_units, conversion) = crate::tables::kept(store, id, number).map_err(|e| e.to_string())?;
        Ok(KeptTables { hex_units, conversion: conversion.unwrap_or_else(referee_battle_gen::belisarius::Conversion::embedded) })
    }

    fn built_in() -> KeptTables {
        KeptTables {
            hex_units: referee_battle_gen::hexunits::HexUnits::embedded(),
            conversion: referee_battle_gen::belisarius::Conversion::embedded(),
        }
    }
}

/// The route of the acting force's next march, zone by zone (BE-10), and the attrition
/// losses being shared out among its units (BE-12).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct MarchForm {
    pub route: Vec<String>,
    /// Points each unit of the force loses, by its number in the force (from 1).
    pub losses: BTreeMap<u32, u8>,
    /// Units, by their number in the force, that take the march's attrition first, in this
    /// order (BE-12).
    pub attrition_from: Vec<u32>,
}

/// The pieces of a free set-up line chosen to place together; nothing chosen places the
/// whole line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PartForm {
    pub leaders: BTreeSet<String>,
    /// Units by their number in the line, from 1.
    pub units: BTreeSet<u32>,
    pub decoys: u32,
    pub fleets: BTreeSet<u32>,
    pub fleet_decoys: u32,
}

impl PartForm {
    fn is_empty(&self) -> bool {
        self.leaders.is_empty() && self.units.is_empty() && self.decoys == 0 && self.fleets.is_empty() && self.fleet_decoys == 0
    }

    /// The order placing this part (or the whole line) of `side`'s line `line` at `at`.
    fn order(&self, side: &SideId, line: u32, at: &Location) -> Order {
        let some = |on: bool| on.then_some(());
        let whole = self.is_empty();
        Order::Place {
            side: side.clone(),
            line,
            at: at.to_string(),
            leaders: some(!whole).map(|()| self.leaders.iter().cloned().collect()),
            units: some(!whole).map(|()| self.units.iter().copied().collect()),
            decoys: some(!whole).map(|()| self.decoys),
            fleets: some(!whole).map(|()| self.fleets.iter().copied().collect()),
            fleet_decoys: some(!whole).map(|()| self.fleet_decoys),
        }
    }
}

impl BelisariusDesk {
    pub fn open(
        store: &Store,
        key: &str,
        viewer: Viewer,
        elements: referee_campaign::magna_graecia::army::ElementTable,
    ) -> anyhow::Result<BelisariusDesk> {
        let id = store.find(key)?;
        let campaign = store.load_as::<Belisarius>(id)?;
        let events = store.events_as::<Belisarius>(id)?;
        let viewer = match &viewer {
            Viewer::Side(s) if campaign.state.setup.side(s).is_none() => Viewer::Umpire,
            _ => viewer,
        };
        let live = Followed::new(&campaign.state, &(), events, viewer).ok_or_else(|| anyhow::anyhow!("the campaign has no such side"))?;
        let kept = KeptTables::read(store, id, &live.events).map_err(anyhow::Error::msg)?;
        let facts = Facts::with_table(&campaign.state, &live.viewer, &elements, &kept.conversion, &live.events);
        Ok(BelisariusDesk {
            facts,
            kept,
            campaign,
            live,
            map_state: ZoneMapState::default(),
            selected: None,
            tables_shown: false,
            parts: BTreeMap::new(),
            march: MarchForm::default(),
            voyage: fleet::VoyageForm::default(),
            battle: battle::BattleForm::default(),
            elements,
            incoming: Vec::new(),
        })
    }

    /// Starts a campaign named `name` from `world`'s scenario `scenario`, as the umpire sees
    /// it; with the scenario's name.
    pub fn create(
        store: &mut Store,
        world: &World,
        elements: referee_campaign::magna_graecia::army::ElementTable,
        scenario: &str,
        name: &str,
        seed: u64,
    ) -> anyhow::Result<(BelisariusDesk, String)> {
        let setup = world.setup(scenario)?;
        let campaign = store.create_as::<Belisarius>(name, &setup, seed)?;
        let desk = BelisariusDesk::open(store, &campaign.id.to_string(), Viewer::Umpire, elements)?;
        Ok((desk, setup.name().to_owned()))
    }

    /// Looks at the campaign as `viewer`; a side the campaign does not have is refused.
    pub fn set_viewer(&mut self, viewer: Viewer) -> Result<(), String> {
        let setup = &self.campaign.state.setup;
        if let Viewer::Side(s) = &viewer
            && setup.side(s).is_none()
        {
            let sides: Vec<&str> = setup.sides.iter().map(|x| x.id.as_str()).collect();
            return Err(format!("{} has no side `{s}`; view as umpire or one of {}", setup.name(), sides.join(", ")));
        }
        let events = std::mem::take(&mut self.live.events);
        self.live = Followed::new(&self.campaign.state, &(), events, viewer).ok_or("the campaign has no such side")?;
        self.facts = Facts::with_table(&self.campaign.state, &self.live.viewer, &self.elements, &self.kept.conversion, &self.live.events);
        self.battle = battle::BattleForm::default();
        self.selected = None;
        self.march = MarchForm::default();
        self.voyage = fleet::VoyageForm::default();
        // A side's orders file read by the referee is no other viewer's to see.
        self.incoming.clear();
        Ok(())
    }

    /// Reads the tables kept with the battle under way again, after an order or a pack, and
    /// the facts its result form counts by; a kept table that no longer reads is said where
    /// the form would be.
    fn read_kept(&mut self, store: &Store) {
        let read = KeptTables::read(store, self.campaign.id, &self.live.events);
        self.kept = read.clone().unwrap_or_else(|_| KeptTables::built_in());
        self.facts = Facts::with_table(&self.campaign.state, &self.live.viewer, &self.elements, &self.kept.conversion, &self.live.events);
        if let Err(e) = read {
            self.facts.table_spec = Some(Err(e));
        }
        self.battle.table.hex = None;
    }

    /// The events an order just stored: their lines join the log, the view is built again.
    fn follow(&mut self, store: &Store, stored: Vec<referee_campaign::belisarius::event::Event>) {
        self.live.advance(&self.campaign.state, &(), numbered(&self.campaign, stored));
        self.read_kept(store);
        self.parts.clear();
        self.march = MarchForm::default();
        self.voyage = fleet::VoyageForm::default();
    }

    /// Writes the pack of the battle sent to the tabletop (BE-17), in the umpire's view only:
    /// each side's file is built from its own view. A hex wargame's pack keeps the tables it
    /// was counted by with the battle, in `store`.
    pub fn write_pack(
        &mut self,
        settings: &PackSettings,
        folder: &std::path::Path,
        store: &mut Store,
        data: &referee_data::DataSource,
    ) -> Reply {
        if self.live.viewer != Viewer::Umpire {
            return Reply::Refused(UMPIRE_ONLY.to_owned());
        }
        let mut options = settings.options();
        let battle = referee_battle_gen::belisarius::battle_number(&self.live.events);
        let to = referee_battle_gen::pack::Destination { folder, existing: settings.existing() };
        let written = referee_battle_gen::belisarius::Conversion::load(data).map_err(|e| e.to_string()).and_then(|conv| {
            let kept = crate::tables::for_pack(&mut options, data, Some(&conv)).map_err(|e| e.to_string())?;
            self.pack((&self.campaign.state, &self.live.events), &conv, &options, to, || {
                crate::tables::keep(store, self.campaign.id, battle, &kept).map_err(|e| Refused(e.to_string()))
            })
        });
        match written {
            Ok(files) => {
                self.read_kept(store);
                let names: Vec<String> =
                    files.iter().filter_map(|f| f.path.file_name()).map(|n| n.to_string_lossy().into_owned()).collect();
                Reply::Info(format!("Battle pack written to {}: {}", folder.display(), names.join(", ")))
            }
            Err(e) => Reply::Refused(e),
        }
    }

    /// The pack of the battle on in `state`, priced by the catalog's element table and
    /// converted by `conv`, written to `to`; `before` runs before the first file is written.
    fn pack(
        &self,
        (state, events): (&State, &[referee_campaign::belisarius::event::Logged]),
        conv: &referee_battle_gen::belisarius::Conversion,
        options: &referee_battle_gen::pack::PackOptions,
        to: referee_battle_gen::pack::Destination<'_>,
        before: impl FnOnce() -> Result<(), Refused>,
    ) -> Result<Vec<crate::gui::widgets::packs::WrittenFile>, String> {
        let files =
            referee_battle_gen::belisarius::campaign_pack(state, events, &self.elements, conv, options).map_err(|e| e.to_string())?;
        referee_battle_gen::pack::write_files(files, to, before).map_err(|Refused(e)| e)
    }

    /// The commands only a Belisarius campaign takes; the shell hands them on.
    pub fn apply(&mut self, command: BelisariusCommand, cx: &mut DeskContext<'_>) -> Reply {
        match command {
            BelisariusCommand::SelectPlace(place) => {
                self.selected = place;
                Reply::Nothing
            }
            BelisariusCommand::Execute(order, input) => self.execute(cx.store, &order, input),
            BelisariusCommand::WritePack { settings } => {
                let reply = match settings.folder() {
                    Ok(folder) => self.write_pack(&settings, &folder, cx.store, cx.data),
                    Err(e) => Reply::Refused(e),
                };
                cx.keep_pack_settings(self.campaign.id, settings);
                reply
            }
        }
    }
}

impl DeskCampaign for BelisariusDesk {
    type Engine = Belisarius;

    fn kept(&self) -> Kept<'_, Belisarius> {
        Kept { campaign: &self.campaign, context: &(), live: &self.live }
    }

    fn kept_mut(&mut self) -> KeptMut<'_, Belisarius> {
        KeptMut { campaign: &mut self.campaign, context: &(), live: &mut self.live, incoming: &mut self.incoming }
    }

    /// Gives an order to the rules; what it did, in the viewer's words, is the reply.
    fn execute(&mut self, store: &mut Store, order: &Order, input: DiceInput) -> Reply {
        let events = match store.execute(&mut self.campaign, &(), order, input) {
            Ok(events) => events,
            Err(e) => return Reply::Refused(e.to_string()),
        };
        let lines: Vec<String> = events.iter().filter_map(|e| describe(&self.campaign.state, e, &self.live.viewer)).collect();
        self.follow(store, events);
        Reply::Stored(Some(lines.join("; ")))
    }

    fn write_battle_pack(
        &self,
        state: &State,
        events: &[referee_campaign::belisarius::event::Logged],
        _battle: u32,
        options: &referee_battle_gen::pack::PackOptions,
        to: referee_battle_gen::pack::Destination<'_>,
        data: &referee_data::DataSource,
    ) -> Result<Vec<crate::gui::widgets::packs::WrittenFile>, String> {
        let conv = referee_battle_gen::belisarius::Conversion::load(data).map_err(|e| e.to_string())?;
        self.pack((state, events), &conv, options, to, || Ok(()))
    }

    fn follow_stored(&mut self, store: &Store, events: Vec<referee_campaign::belisarius::event::Event>) {
        self.follow(store, events);
    }

    fn undone(&mut self, store: &Store) {
        self.read_kept(store);
        self.parts.clear();
    }
}

impl EngineDesk for BelisariusDesk {
    fn past_battles(&self) -> Vec<crate::past::PastBattle> {
        crate::past::belisarius(&self.campaign.state, &self.live.events)
    }

    fn side_colour(&self, side: &SideId) -> Color32 {
        side_colour(side)
    }

    fn set_viewer(&mut self, viewer: Viewer) -> Result<(), String> {
        BelisariusDesk::set_viewer(self, viewer)
    }

    fn fit_map(&mut self) {
        self.map_state.fit_next_frame();
    }

    fn log(&self) -> LogData<'_> {
        let board = self.live.view.board();
        LogData { lines: self.live.view.log(), sides: board.sides.iter().map(|s| (&s.id, s.name.as_str())).collect() }
    }

    fn campaign_menu_ui(&self, _ui: &mut egui::Ui, _queue: &mut Vec<AppCommand>) {}

    fn status_ui(&mut self, ui: &mut egui::Ui, _roll: &mut RollForm, _queue: &mut Vec<AppCommand>) {
        let board = self.live.view.board();
        ui.label(RichText::new(&board.campaign).strong());
        ui.label(format!(
            "{} · turn {} of {} · {}{}",
            board.scenario_name,
            board.turn,
            board.turns,
            board.date,
            if board.phase == Phase::SetUp { " · set-up" } else { "" }
        ));
    }

    fn desk_ui(&mut self, ui: &mut egui::Ui, shell: &mut ShellUi<'_>) {
        let queue = &mut *shell.queue;
        egui::Panel::right("details").resizable(true).default_size(400.0).min_size(260.0).show(ui, |ui| {
            details_ui(ui, self, queue);
        });
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            let mut picked = Vec::new();
            let BelisariusDesk { campaign, live, selected, map_state, incoming, .. } = self;
            let view = &live.view;
            let canvas = ui.available_rect_before_wrap();
            zone_map_ui(ui, &campaign.state.setup.map, view.board(), selected.as_ref(), map_state, &mut picked);
            if !incoming.is_empty() {
                // Each piece of the file's side from where it stands; the orders name it.
                let side = incoming.iter().find_map(|(_, o)| o.side().cloned());
                let from = view
                    .organisations()
                    .into_iter()
                    .filter(|o| Some(&o.side) == side.as_ref())
                    .flat_map(|o| o.pieces().map(|(id, at)| (id.to_owned(), at.clone())))
                    .collect();
                planned_ui(&ui.painter_at(canvas), &campaign.state.setup.map, map_state, from, incoming);
            }
            if let Some(place) = picked.pop() {
                queue.push(BelisariusCommand::SelectPlace(place).into());
            }
        });
    }
}

/// Each zone's outline cut into triangles, for filling.
type Triangles = Vec<Vec<[usize; 3]>>;

static NO_TRIANGLES: Triangles = Vec::new();

/// Pan and zoom of the zone map, and its polygons triangulated once.
#[derive(Debug)]
pub(crate) struct ZoneMapState {
    view: PanZoom,
    meshes: Option<(String, Triangles)>,
    /// Where the last frame put the places, pieces and names.
    pub(crate) layout: MapLayout,
    /// What was selected before the last click, for a double click to put back.
    before_click: Option<Option<Location>>,
}

impl Default for ZoneMapState {
    fn default() -> Self {
        ZoneMapState { view: PanZoom::new(0.05, 20.0), meshes: None, layout: MapLayout::default(), before_click: None }
    }
}

impl ZoneMapState {
    /// Screen points per km.
    pub(crate) fn zoom(&self) -> f32 {
        self.view.zoom
    }

    pub fn fit_next_frame(&mut self) {
        self.view.fit_next_frame();
    }

    /// Where a point of the map, in kilometres, was drawn in the last frame: for what is
    /// drawn over the map (a player's planned marches).
    pub(crate) fn screen_pos(&self, km: [f32; 2]) -> Pos2 {
        self.pos(km)
    }

    fn pos(&self, [x, y]: [f32; 2]) -> Pos2 {
        self.view.pos(x, y)
    }

    /// The land zones' triangles (the seas are not filled).
    fn triangles(&mut self, map: &ZoneMap) -> &Triangles {
        if self.meshes.as_ref().is_none_or(|(id, _)| id != &map.id) {
            let tri = |outline: &[[f32; 2]]| triangulate(&outline.iter().map(|p| (p[0], p[1])).collect::<Vec<_>>());
            self.meshes = Some((map.id.clone(), map.zones.iter().map(|z| tri(&z.outline_km)).collect()));
        }
        self.meshes.as_ref().map_or(&NO_TRIANGLES, |(_, land)| land)
    }
}

/// Whether `p` lies inside the polygon (even–odd rule).
fn contains(points: &[Pos2], p: Pos2) -> bool {
    let mut inside = false;
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + n - 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
    }
    inside
}

/// Draws the zone map: seas, land zones in their controller's colour, mountains, cities
/// with their two ratings and ports, and the markers as the board gives them.
pub(crate) fn zone_map_ui(
    ui: &mut egui::Ui,
    map: &ZoneMap,
    board: &Board,
    selected: Option<&Location>,
    state: &mut ZoneMapState,
    commands: &mut Vec<Option<Location>>,
) {
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let canvas = response.rect;
    let painter = painter.with_clip_rect(canvas.intersect(painter.clip_rect()));
    let area = area_in_play(map, board);
    let area = if area.is_positive() { area } else { Rect::from_min_size(Pos2::ZERO, vec2(map.width_km, map.height_km)) };
    state.view.input(ui, &response, area, 12.0);
    painter.rect_filled(canvas, 0.0, SEA);
    let zoom = state.view.zoom;
    let land_points: Vec<Vec<Pos2>> = map.zones.iter().map(|z| z.outline_km.iter().map(|&p| state.pos(p)).collect()).collect();
    let sea_points: Vec<Vec<Pos2>> = map.seas.iter().map(|s| s.outline_km.iter().map(|&p| state.pos(p)).collect()).collect();
    let labels_land: Vec<Pos2> = map.zones.iter().map(|z| state.pos(z.label_km)).collect();
    let labels_sea: Vec<Pos2> = map.seas.iter().map(|s| state.pos(s.label_km)).collect();
    let cities: Vec<Pos2> = map.zones.iter().map(|z| state.pos(z.city.at_km)).collect();
    let land_tris = state.triangles(map);

    // The seas are the canvas's own colour: only their borders are drawn.
    for points in &sea_points {
        painter.add(Shape::closed_line(points.clone(), Stroke::new(1.0, SEA_BORDER)));
    }
    let controller: BTreeMap<&str, &SideId> =
        board.zones.iter().filter_map(|z| z.controller.as_ref().map(|c| (z.id.as_str(), c))).collect();
    for (i, zone) in map.zones.iter().enumerate() {
        let fill = controller.get(zone.id.as_str()).map_or(LAND, |s| side_colour(s).gamma_multiply(0.55).to_opaque());
        let fill = blend(LAND, fill);
        if let Some(t) = land_tris.get(i) {
            fill_polygon(&painter, &land_points[i], t, fill);
        }
    }
    // Where a contact or a battle is under way (BE-13, BE-17), for everyone to see.
    let fighting = board.battle.as_ref().map(|b| (&b.zone, "battle")).or_else(|| board.contact.as_ref().map(|c| (&c.zone, "contact")));
    for (i, zone) in map.zones.iter().enumerate() {
        let is_selected = selected.is_some_and(|s| matches!(s, Location::Zone(z) if *z == zone.id));
        let stroke = if is_selected { Stroke::new(3.0, SELECTION) } else { Stroke::new(1.0, BORDER) };
        if fighting.is_some_and(|(z, _)| *z == zone.id) {
            painter.add(Shape::closed_line(land_points[i].clone(), Stroke::new(4.0, BATTLE)));
        }
        painter.add(Shape::closed_line(land_points[i].clone(), stroke));
    }
    // Places, pieces and names laid out so that none covers another (widgets::labels), in
    // this order of priority: the cities' squares; the pieces, a row to a place; the
    // contact or battle under way; the cities' ratings and sieges; scorched earth; the
    // zones' names, which orders name; the cities' names; the seas' names; the mountains.
    let mut layout = MapLayout::new(canvas);
    let squares: Vec<Rect> = cities.iter().map(|&at| Rect::from_center_size(at, Vec2::splat(15.0))).collect();
    for square in &squares {
        layout.mark(*square);
    }
    let piece = piece_size(zoom);
    let mut by_place: BTreeMap<&Location, Vec<&Marker>> = BTreeMap::new();
    for m in &board.markers {
        by_place.entry(&m.at).or_default().push(m);
    }
    // A zone's or sea's pieces stand under its name, a city's under its square.
    let name_box = |at: Pos2| Rect::from_center_size(at, vec2(0.0, 14.0));
    let anchor = |at: &Location| -> Option<Rect> {
        match at {
            Location::Zone(z) => map.zones.iter().position(|x| x.id == *z).map(|i| name_box(labels_land[i])),
            Location::City(c) => map.zones.iter().position(|x| x.city.id == *c).map(|i| squares[i]),
            Location::Sea(s) => map.seas.iter().position(|x| x.id == *s).map(|i| name_box(labels_sea[i])),
            Location::Aboard(_) => None,
        }
    };
    let rows: Vec<(Rect, &Vec<&Marker>)> = by_place
        .iter()
        .filter_map(|(at, markers)| {
            let size = vec2(markers.len() as f32 * (piece + 2.0) - 2.0, piece);
            Some((layout.row(&stack(anchor(at)?, size)), markers))
        })
        .collect();

    let fonts = |text: &str, size: f32, colour: Color32| painter.layout_no_wrap(text.to_owned(), FontId::proportional(size), colour);
    // Where a contact or a battle is under way (BE-13, BE-17), for everyone to see.
    if let Some((zone, what)) = fighting
        && let Some(i) = map.zones.iter().position(|z| z.id == *zone)
    {
        let at = labels_land[i];
        if let Some((galley, min)) = layout.name([fonts(what, 12.0, BATTLE)], |s| above_first(at, s)) {
            painter.galley(min, galley, BATTLE);
        }
    }
    let holder: BTreeMap<&str, &SideId> = board.cities.iter().filter_map(|c| c.holder.as_ref().map(|h| (c.id.as_str(), h))).collect();
    let mut city_marks: Vec<Rect> = squares.clone();
    for (i, zone) in map.zones.iter().enumerate() {
        let status = board.city(&zone.city.id);
        // The defence now: the walls, pulled down or strengthened (BE-25, BE-32).
        let (militia, fortification) = status.map_or((zone.city.militia, zone.city.fortification), |c| (c.militia, c.defence));
        let ratings = painter.layout_job(ratings_job(militia, fortification));
        if let Some((galley, min)) = layout.name([ratings], |s| beside(squares[i], s)) {
            city_marks[i] = city_marks[i].union(Rect::from_min_size(min, galley.size()));
            painter.galley(min, galley, INK);
        }
        // The duration marker of a siege, in the besieger's colour (BE-26).
        if let Some(siege) = status.and_then(|c| c.siege.as_ref()) {
            let tag = fonts(&format!("siege {}", siege.duration), 11.0, Color32::WHITE);
            if let Some((galley, min)) = layout.name_with([tag], SIEGE_TAG_MARGIN, |s| beside(city_marks[i], s)) {
                let tag = Rect::from_min_size(min, galley.size());
                painter.rect_filled(tag.expand(1.5), 2.0, BATTLE);
                painter.rect_stroke(tag.expand(1.5), 2.0, Stroke::new(1.5, side_colour(&siege.besieger)), StrokeKind::Outside);
                painter.galley(tag.min, galley, Color32::WHITE);
                city_marks[i] = city_marks[i].union(tag.expand(SIEGE_TAG_MARGIN));
            }
        }
    }
    // The scorched earth marker (BE-44).
    for (i, _) in map.zones.iter().enumerate().filter(|(i, _)| board.zones.get(*i).is_some_and(|z| z.scorched)) {
        if let Some((galley, min)) = layout.name([fonts("scorched", 10.0, BATTLE)], |s| below_first(labels_land[i], s)) {
            painter.galley(min, galley, BATTLE);
        }
    }
    let zone_size = if zoom > 0.9 { 13.0 } else { 11.0 };
    let mut zone_names: Vec<Option<Rect>> = vec![None; map.zones.len()];
    for (i, zone) in map.zones.iter().enumerate() {
        // In full, then smaller, then shortened.
        let smaller = || std::iter::once(zone.name.clone()).chain(shorter(&zone.name)).map(|t| fonts(&t, zone_size - 2.0, ZONE_TEXT));
        let forms = std::iter::once_with(|| fonts(&zone.name, zone_size, ZONE_TEXT)).chain(std::iter::once_with(smaller).flatten());
        if let Some((galley, min)) = layout.name(forms, |s| near(labels_land[i], s)) {
            zone_names[i] = Some(Rect::from_min_size(min, galley.size()));
            painter.galley(min, galley, ZONE_TEXT);
        }
    }
    for (i, zone) in map.zones.iter().enumerate() {
        let forms = [11.0, 9.5].into_iter().map(|size| fonts(&zone.city.name, size, INK));
        if let Some((galley, min)) = layout.name(forms, |s| beside(city_marks[i], s)) {
            painter.galley(min, galley, INK);
        }
    }
    for (i, sea) in map.seas.iter().enumerate() {
        if let Some((galley, min)) = layout.name([fonts(&sea.name, 11.5, SEA_TEXT)], |s| near(labels_sea[i], s)) {
            painter.galley(min, galley, SEA_TEXT);
        }
    }
    // Two small peaks: over the zone's name, else wherever near it they fit.
    for (i, _) in map.zones.iter().enumerate().filter(|(_, z)| z.terrain == Terrain::Mountain) {
        let above = zone_names[i].map_or(labels_land[i], |r| r.center_top());
        let size = vec2(20.0, 8.0);
        let spots = [Rect::from_center_size(above - vec2(0.0, 6.0), size)].into_iter().chain(near(labels_land[i], size));
        if let Some(spot) = layout.symbol(&spots.collect::<Vec<_>>()) {
            mountain_marks(&painter, spot.center(), 5.0);
        }
    }

    for (i, zone) in map.zones.iter().enumerate() {
        let fill = holder.get(zone.city.id.as_str()).map_or(Color32::WHITE, |s| side_colour(s));
        let rect = Rect::from_center_size(cities[i], Vec2::splat(7.0));
        // Square corners: at this size a rounded one only costs triangles.
        painter.rect(rect, 0.0, fill, Stroke::new(1.2, INK), StrokeKind::Middle);
        if zone.city.port {
            painter.ring(cities[i], 6.5, Stroke::new(1.2, SEA_TEXT));
        }
        if selected.is_some_and(|s| matches!(s, Location::City(c) if *c == zone.city.id)) {
            painter.rect_stroke(rect.expand(3.0), 1.0, Stroke::new(2.5, SELECTION), StrokeKind::Outside);
        }
    }
    for (row, markers) in &rows {
        for (k, m) in markers.iter().enumerate() {
            let rect = Rect::from_min_size(row.min + vec2(k as f32 * (piece + 2.0), 0.0), Vec2::splat(piece));
            let fill = side_colour(&m.side);
            if m.naval {
                painter.disc(rect.center(), piece / 2.0, fill, Stroke::new(1.0, INK));
            } else {
                painter.rect(rect, 2.0, fill, Stroke::new(1.0, INK), StrokeKind::Middle);
            }
            let mark = match &m.face {
                // Face down: the other side sees no more than that a marker is there.
                None => "?".to_owned(),
                Some(face) if face.starts_with(|c: char| c.is_ascii_digit()) => "u".to_owned(),
                Some(face) => face.chars().next().map(|c| c.to_string()).unwrap_or_default(),
            };
            painter.text(rect.center(), Align2::CENTER_CENTER, mark, FontId::proportional(piece * 0.7), INK);
        }
    }
    state.layout = layout;
    let place_at = |p: Pos2| {
        let city = cities.iter().position(|c| c.distance(p) < 8.0);
        let zone = land_points.iter().position(|poly| contains(poly, p));
        let sea = sea_points.iter().position(|poly| contains(poly, p));
        match (city, zone, sea) {
            (Some(i), _, _) => Some((Location::City(map.zones[i].city.id.clone()), &map.zones[i].city.name)),
            (None, Some(i), _) => Some((Location::Zone(map.zones[i].id.clone()), &map.zones[i].name)),
            (None, None, Some(i)) => Some((Location::Sea(map.seas[i].id.clone()), &map.seas[i].name)),
            _ => None,
        }
    };
    if response.double_clicked() {
        // The double click fits the map; its first click selected nothing after all.
        if let Some(before) = state.before_click.take() {
            commands.push(before);
        }
    } else if response.clicked()
        && let Some((at, _)) = response.interact_pointer_pos().and_then(place_at)
    {
        state.before_click = Some(selected.cloned());
        commands.push(Some(at));
    }
    // A place whose name was shortened or left off still names itself under the pointer.
    if let Some((_, name)) = response.hover_pos().and_then(place_at)
        && !state.layout.names.iter().any(|(_, shown)| shown == name)
    {
        response.on_hover_text_at_pointer(name.as_str());
    }
}

/// The part of the map a scenario is played in: the zones anyone controls or holds pieces
/// in, and the seas with pieces; the whole map if that is nearly all of it.
fn area_in_play(map: &ZoneMap, board: &Board) -> Rect {
    let mut area = Rect::NOTHING;
    let mut grow = |outline: &[[f32; 2]]| {
        for p in outline {
            area.extend_with(pos2(p[0], p[1]));
        }
    };
    for zone in &map.zones {
        let controlled = board.zones.iter().any(|z| z.id == zone.id && z.controller.is_some());
        let pieces = board.markers.iter().any(|m| match &m.at {
            Location::Zone(z) => *z == zone.id,
            Location::City(c) => *c == zone.city.id,
            Location::Sea(_) | Location::Aboard(_) => false,
        });
        if controlled || pieces {
            grow(&zone.outline_km);
        }
    }
    for sea in &map.seas {
        if board.markers.iter().any(|m| matches!(&m.at, Location::Sea(s) if *s == sea.id)) {
            grow(&sea.outline_km);
        }
    }
    area.expand(60.0)
}

/// A colour between `a` and `b`.
fn blend(a: Color32, b: Color32) -> Color32 {
    let mix = |x: u8, y: u8| ((u16::from(x) + u16::from(y)) / 2) as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

/// Room around a siege's tag: its frame and the besieger's coloured edge.
const SIEGE_TAG_MARGIN: f32 = 3.0;

/// The side of a piece on the map, in points: the size of the ratings' figures when the map
/// is fitted, growing as the referee zooms in, to twice that.
fn piece_size(zoom: f32) -> f32 {
    (zoom * 20.0).clamp(13.0, 26.0)
}

/// Spots near `at`, the ones above first: for a contact's word over the zone's name.
fn above_first(at: Pos2, size: Vec2) -> Vec<Rect> {
    let mut spots = near(at, size);
    spots.sort_by_key(|r| r.center().y > at.y);
    spots.retain(|r| r.center().y != at.y || r.center().x != at.x);
    spots
}

/// Spots near `at`, the ones below first: for scorched earth under the zone's name.
fn below_first(at: Pos2, size: Vec2) -> Vec<Rect> {
    let mut spots = near(at, size);
    spots.sort_by_key(|r| r.center().y <= at.y);
    spots
}

/// A city's two ratings as printed: militia in red, fortification in black.
fn ratings_job(militia: impl std::fmt::Display, fortification: impl std::fmt::Display) -> egui::text::LayoutJob {
    let mut job = egui::text::LayoutJob::default();
    let format = |color| egui::TextFormat { font_id: FontId::proportional(11.0), color, ..egui::TextFormat::default() };
    job.append(&militia.to_string(), 0.0, format(MILITIA));
    job.append(&fortification.to_string(), 3.0, format(INK));
    job
}

/// Two small peaks: the mark of a mountain zone (movement costs more, BE-10; interception
/// and combat are harder, BE-14, BE-18).
fn mountain_marks(painter: &Painter, at: Pos2, h: f32) {
    for dx in [-h * 0.9, h * 0.9] {
        let base = at + vec2(dx, 0.0);
        let points = vec![base + vec2(-h, h * 0.6), base + vec2(0.0, -h * 0.6), base + vec2(h, h * 0.6)];
        painter.add(Shape::line(points, Stroke::new(1.4, MOUNTAIN)));
    }
}

/// The panel beside the map: the reconstruction notice, the selected place, the Tables of
/// Organisation the viewer may read, and, during set-up, the lines still to place.
pub(crate) fn details_ui(ui: &mut egui::Ui, desk: &mut BelisariusDesk, commands: &mut Vec<AppCommand>) {
    let BelisariusDesk { campaign, live, selected, tables_shown, parts, march, battle, voyage, facts, kept, .. } = desk;
    // A side's panels read the set-up's public part, its view and its facts; only the
    // referee's table form reads the campaign itself (BE-53).
    let umpire = (live.viewer == Viewer::Umpire).then_some(&campaign.state);
    let sources = Sources {
        public: Public::of(&campaign.state.setup),
        view: &live.view,
        viewer: &live.viewer,
        umpire,
        facts,
        table: battle::TableData {
            number: referee_battle_gen::belisarius::battle_number(&live.events),
            hex_units: &kept.hex_units,
            campaign: &campaign.state.name,
        },
    };
    let forms = Forms { selected: selected.as_ref(), tables_shown, parts, march, battle, voyage };
    panels_ui(ui, &sources, forms, commands);
}

/// What the panels beside the map draw from: the set-up's public part, the viewer's view and
/// facts, and the campaign itself for the referee only. A player's desk fills it from a
/// side's packet.
pub(crate) struct Sources<'a> {
    pub public: Public<'a>,
    pub view: &'a referee_campaign::belisarius::view::View,
    pub viewer: &'a Viewer,
    /// The campaign, when the referee looks.
    pub umpire: Option<&'a State>,
    pub facts: &'a Facts,
    pub table: battle::TableData<'a>,
}

/// The forms of the panels beside the map, kept between frames by the desk that draws them.
pub(crate) struct Forms<'a> {
    pub selected: Option<&'a Location>,
    pub tables_shown: &'a mut bool,
    pub parts: &'a mut BTreeMap<(SideId, u32), PartForm>,
    pub march: &'a mut MarchForm,
    pub battle: &'a mut battle::BattleForm,
    pub voyage: &'a mut fleet::VoyageForm,
}

/// What the panels beside the map read, and where their buttons queue what is clicked: the
/// set-up's public part, the board and the facts the viewer may read, who is looking, the
/// map's selection, whether the rules would take an order now (the umpire's view), and the
/// window's commands.
pub(crate) struct Panel<'a> {
    pub public: Public<'a>,
    pub board: &'a Board,
    pub facts: &'a Facts,
    pub viewer: &'a Viewer,
    pub selected: Option<&'a Location>,
    pub legal: Legal<'a>,
    pub commands: &'a mut Vec<AppCommand>,
}

impl Panel<'_> {
    /// Queues `order`, its dice drawn from the seed.
    pub(crate) fn run(&mut self, order: Order) {
        run(self.commands, order);
    }

    /// The button of `order`: live if the rules would take it, greyed out with their reason
    /// if not; `hover` says what it does. Clicked, it queues the order with seeded dice.
    pub(crate) fn order(&mut self, ui: &mut egui::Ui, button: egui::Button<'_>, hover: &str, order: Order) -> egui::Response {
        self.legal.order(ui, button, hover, order, self.commands)
    }

    /// Whether the viewer gives `side`'s orders: the umpire, or that side.
    pub(crate) fn may_order(&self, side: &SideId) -> bool {
        may_order(self.viewer, side)
    }
}

/// The panels beside the map: the place selected, the operations, the contact and battle,
/// and each organisation with the orders its pieces may be given.
pub(crate) fn panels_ui(ui: &mut egui::Ui, sources: &Sources<'_>, forms: Forms<'_>, commands: &mut Vec<AppCommand>) {
    let Sources { public, view, viewer, umpire, facts, ref table } = *sources;
    let Forms { selected, tables_shown, parts, march, battle, voyage } = forms;
    let board = view.board();
    let p = &mut Panel { public, board, facts, viewer, selected, legal: Legal::of(umpire), commands };
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        reconstructed_notice_ui(ui, public, tables_shown);
        ui.add_space(8.0);
        match selected {
            Some(at) => place_ui(ui, public, board, at),
            None => {
                ui.label(RichText::new("Click a zone, city or sea zone to see what is there.").weak());
            }
        }
        ui.add_space(8.0);
        if board.phase == Phase::SetUp && *viewer == Viewer::Umpire {
            let begin = "Set-up is over once every line is placed (BE-49…BE-52)";
            p.order(ui, egui::Button::new("Begin play"), begin, Order::BeginPlay {});
            ui.add_space(6.0);
        }
        operations_ui(ui, p);
        if let referee_campaign::belisarius::view::View::Umpire(u) = view
            && !u.victory.is_empty()
        {
            egui::CollapsingHeader::new("Victory conditions — where each side stands").id_salt("belisarius-victory").show(ui, |ui| {
                ui.label(RichText::new("Judged at the end of the last turn (BE-49 … BE-52)").weak());
                for v in &u.victory {
                    let side = board.side_name(&v.side);
                    let text = format!("{side}: {} — {}", v.condition, v.now);
                    ui.label(if v.met { RichText::new(format!("met — {text}")).strong() } else { RichText::new(text) });
                }
            });
        }
        let organisations = view.organisations();
        battle::contact_ui(ui, p, &organisations, battle);
        siege::relief_ui(ui, p);
        fleet::naval_contact_ui(ui, p, &organisations);
        let battle_sources = battle::BattleSources { public, board, facts, umpire };
        battle::battle_window(ui.ctx(), battle_sources, viewer, battle, table, p.commands);
        // An assault's losses, and those for want of supply, are shared out before anything
        // else (BE-27, BE-41).
        for org in &organisations {
            siege::losses_ui(ui, p, org);
        }
        for org in &organisations {
            turn::reinforcements_ui(ui, p, org);
        }
        // The acting force's orders first, where the referee or player looks.
        for org in &organisations {
            force_orders_ui(ui, p, org, march);
        }
        for org in &organisations {
            fleet::voyage_ui(ui, p, org, voyage);
        }
        for org in &organisations {
            organisation_ui(ui, p, org);
            lines_due_ui(ui, p, org, parts);
            ui.add_space(10.0);
        }
    });
}

/// "Activate" beside a leader or decoy: greyed out with no action points left, and in the
/// umpire's view whenever the rules would refuse it (a contact or battle open, BE-06).
fn activate_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, name: &str, points: bool, hover: &str, order: Order) {
    let response = if points {
        p.order(ui, egui::Button::new("Activate").small(), hover, order)
    } else {
        ui.add_enabled(false, egui::Button::new("Activate").small()).on_disabled_hover_text("No action points left (BE-06)")
    };
    response.accessible_name(format!("Activate {name}"));
}

/// A side's set-up lines still to place: what is in each, a choice of part, and the button
/// that places it at the selected place.
fn lines_due_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation, parts: &mut BTreeMap<(SideId, u32), PartForm>) {
    let public = p.public;
    for line in &org.lines_due {
        ui.add_space(4.0);
        ui.label(RichText::new(format!("To place, line {}: {}", line.number, line.what)).strong());
        ui.label(RichText::new(&line.rule).weak());
        let form = parts.entry((org.side.clone(), line.number)).or_default();
        egui::CollapsingHeader::new("Choose a part to place").id_salt((org.side.as_str(), line.number)).show(ui, |ui| {
            for id in &line.leaders {
                let name = public.leader(id).map_or(id.as_str(), |l| l.name.as_str());
                let mut on = form.leaders.contains(id);
                if ui.checkbox(&mut on, name).changed() {
                    if on {
                        form.leaders.insert(id.clone());
                    } else {
                        form.leaders.remove(id);
                    }
                }
            }
            ui.horizontal_wrapped(|ui| {
                for (i, u) in line.units.iter().enumerate() {
                    let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    let mut on = form.units.contains(&n);
                    if ui.checkbox(&mut on, format!("{n}. {u}")).on_hover_text(u.kind.label()).changed() {
                        if on {
                            form.units.insert(n);
                        } else {
                            form.units.remove(&n);
                        }
                    }
                }
            });
            for (i, np) in line.fleets.iter().enumerate() {
                let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
                let mut on = form.fleets.contains(&n);
                if ui.checkbox(&mut on, format!("fleet {n}: {np} NPs")).changed() {
                    if on {
                        form.fleets.insert(n);
                    } else {
                        form.fleets.remove(&n);
                    }
                }
            }
            if line.decoys > 0 {
                ui.add(egui::Slider::new(&mut form.decoys, 0..=line.decoys).text("decoys"));
            }
            if line.fleet_decoys > 0 {
                ui.add(egui::Slider::new(&mut form.fleet_decoys, 0..=line.fleet_decoys).text("fleet decoys"));
            }
        });
        let what = if form.is_empty() { "the whole line" } else { "the part chosen" };
        match p.selected {
            Some(at) => {
                let label = format!("Place {what} of line {} at {}", line.number, public.place_name(at));
                if ui.button(label).clicked() {
                    p.run(form.order(&org.side, line.number, at));
                }
            }
            None => {
                ui.label(RichText::new(format!("Select a place on the map to put {what} there.")).weak());
            }
        }
    }
}

/// One line saying the map and tables are the program's own; the why and each table's
/// reasoning unfold under it, so the notice costs every panel a line, not a box.
fn reconstructed_notice_ui(ui: &mut egui::Ui, public: Public<'_>, tables_shown: &mut bool) {
    const WHY: &str = "The printed game's map and tables were not available: these are the program's own, consistent with every \
                       number the rules give. A referee who owns the printed game can put its numbers in a data folder (--data).";
    egui::Frame::group(ui.style()).fill(Color32::from_rgb(0xfb, 0xf1, 0xd6)).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Reconstructed map and tables").strong()).on_hover_text(WHY);
            ui.toggle_value(tables_shown, if *tables_shown { "Fold" } else { "Why, and the reasoning…" });
        });
        if *tables_shown {
            ui.label(WHY);
            if public.map().reconstructed {
                ui.collapsing("Map", |ui| {
                    ui.label(&public.map().note);
                });
            }
            for note in &public.tables().notes {
                ui.collapsing(&note.title, |ui| {
                    ui.label(&note.reasoning);
                });
            }
        }
    });
}

fn place_ui(ui: &mut egui::Ui, public: Public<'_>, board: &Board, at: &Location) {
    ui.heading(public.place_name(at));
    match at {
        Location::Zone(z) => {
            if let Some(zone) = public.map().zone(z) {
                let control = board.zones.iter().find(|s| s.id == *z).and_then(|s| s.controller.as_ref());
                ui.label(format!(
                    "{} zone in {}, {}; city {}",
                    zone.terrain,
                    zone.region,
                    control.map_or_else(|| "not controlled".to_owned(), |s| format!("controlled by {}", board.side_name(s))),
                    zone.city.name
                ));
            }
        }
        Location::City(c) => {
            if let Some(city) = public.map().city(c) {
                let status = board.city(c);
                let holder = status.and_then(|s| s.holder.as_ref());
                ui.label(format!(
                    "Militia {} (red), fortification {} (black){}; {}",
                    status.map_or(city.militia, |s| s.militia),
                    city.fortification,
                    if city.port { ", a port" } else { "" },
                    holder.map_or_else(|| "held by no one".to_owned(), |s| format!("held by {}", board.side_name(s)))
                ));
                if let Some(status) = status {
                    siege::city_panel_ui(ui, board, status);
                }
            }
        }
        Location::Sea(_) => {
            ui.label("Sea zone");
        }
        Location::Aboard(_) => {
            ui.label("Aboard ship");
        }
    }
    let here: Vec<&Marker> = board.markers.iter().filter(|m| &m.at == at).collect();
    for m in here {
        let what = match &m.face {
            Some(face) => face.clone(),
            None if m.naval => "a face-down sea marker".to_owned(),
            None => "a face-down marker".to_owned(),
        };
        ui.label(format!("{}: {what}", board.side_name(&m.side)));
    }
}

/// The turn's flow (BE-02, BE-05, BE-06): "Begin operations" before them, whose segment it
/// is and "Pass" during them, "End the turn" after them.
fn operations_ui(ui: &mut egui::Ui, p: &mut Panel<'_>) {
    let board = p.board;
    let name = |id: &SideId| board.side_name(id);
    let umpire = *p.viewer == Viewer::Umpire;
    match board.phase {
        Phase::SetUp => {}
        Phase::Play => {
            ui.label(RichText::new("Before operations").strong())
                .on_hover_text("The events phase in summer and winter, the supply phase, and the reinforcements in spring");
            let supplied = board.supplied == board.turn;
            let phase = if !umpire {
                None
            } else if board.events_to_play {
                Some((
                    "Events phase",
                    "2d6 on the event table, and leaders called away rolled for or brought back (BE-47)",
                    Order::PlayEvents {},
                ))
            } else if !supplied {
                Some((
                    "Supply phase",
                    "Every force is checked; the unsupplied and the besieged roll for their losses (BE-31, BE-41)",
                    Order::CheckSupply {},
                ))
            } else if board.reinforcements_to_play {
                Some((
                    "Reinforcement phase",
                    "Spring: the Goths roll for their points, the Byzantines' scheduled forces arrive (BE-45)",
                    Order::BringReinforcements {},
                ))
            } else {
                Some((
                    "Begin operations",
                    "Each side draws its AP chit blind and the first player is rolled for (BE-04, BE-05)",
                    Order::BeginOperations {},
                ))
            };
            if let Some((label, hover, order)) = phase {
                p.order(ui, egui::Button::new(label), hover, order);
            }
        }
        Phase::Operations => {
            if let Some(ops) = &board.operations {
                ui.label(RichText::new(format!("Operations: {} segment", possessive(&name(&ops.segment)))).strong());
                // BE-48: the hostile Franks march before their leading side does anything else.
                if let Some(f) = board
                    .franks
                    .as_ref()
                    .filter(|f| f.side == ops.segment && f.against.is_some() && f.marched != board.turn && f.arrived != board.turn)
                    && p.may_order(&f.side)
                {
                    let hover =
                        "Two zones toward the nearest force of the side they fight, taking the zones and scorching the last (BE-48)";
                    p.order(ui, egui::Button::new("The Franks march"), hover, Order::FranksMarch { side: f.side.clone() });
                }
                ui.label(RichText::new(format!("{} took the first segment (BE-05)", name(&ops.first))).weak());
                // A contact, a battle or an assault's losses are settled first (BE-13, BE-17, BE-27).
                let settled = board.contact.is_none() && board.battle.is_none() && board.assault.is_none() && board.sortie.is_none();
                if p.may_order(&ops.segment) && settled {
                    let hover =
                        "Hand the next segment to the other side; two segments in a row without an activation end the phase (BE-06)";
                    let pass = egui::Button::new(format!("{}: end the segment", name(&ops.segment)));
                    p.order(ui, pass, hover, Order::Pass { side: ops.segment.clone() });
                }
            }
        }
        Phase::Over => {
            if let Some(r) = &board.result {
                let winner = r.winner.as_ref().map_or_else(|| "Nobody".to_owned(), |w| format!("The {}", name(w)));
                ui.label(RichText::new(format!("The campaign is over: {winner} win")).strong());
                for s in &r.standings {
                    let text = format!("{}: {} — {}", name(&s.side), s.condition, s.now);
                    ui.label(if s.met { RichText::new(format!("met — {text}")) } else { RichText::new(text).weak() });
                }
            }
        }
        Phase::TurnEnd => {
            ui.label(RichText::new("The operations phase is over").strong());
            if umpire {
                let hover = "The siege phase moves each duration marker up, a city falling at 4 (BE-26); then the AP chits are shown and the season moves on (BE-02)";
                p.order(ui, egui::Button::new("End the turn"), hover, Order::EndTurn {});
            }
        }
    }
    events_ui(ui, board);
    ui.add_space(6.0);
}

/// The events in force, the leaders away and the Franks, for everyone (BE-47, BE-48).
fn events_ui(ui: &mut egui::Ui, board: &Board) {
    for (letter, name, until) in &board.events_in_force {
        ui.label(format!("Event {letter}, {name}: in force to the end of turn {until} (BE-47)"));
    }
    for a in &board.away {
        ui.label(RichText::new(format!("Away: {a}")).weak());
    }
    if let Some(f) = &board.franks {
        let whom = match &f.against {
            Some(enemy) => format!("fighting the {}, led by the {}", board.side_name(enemy), board.side_name(&f.side)),
            None => format!("allies of the {}", board.side_name(&f.side)),
        };
        ui.label(format!("The Franks are in Italy, {whom}, to the end of turn {} (BE-48)", f.until));
    }
}

/// The acting force's orders (BE-10, BE-12): a route built zone by zone from the map's
/// selection and marched in one go, and the losses of its last march shared out among the
/// units that marched.
fn force_orders_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation, march: &mut MarchForm) {
    let Some(acting) = org.acting.as_ref().filter(|_| p.may_order(&org.side)) else { return };
    let Some(facts) = p.facts.acting.as_ref().filter(|a| &a.leader == acting) else { return };
    let public = p.public;
    let map = public.map();
    let boxes: Vec<&referee_campaign::belisarius::view::OrgBox> = org
        .boxes
        .iter()
        .filter(|b| b.leader.as_ref().is_some_and(|l| &l.id == acting) || b.decoy_id.as_ref() == Some(acting))
        .chain(org.boxes.iter().filter(|b| b.leader.as_ref().is_some_and(|l| org.acting_with.contains(&l.id))))
        .collect();
    let chief = public.piece_name(acting);
    ui.add_space(4.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        if let Some(due) = &org.attrition {
            ui.label(
                RichText::new(format!(
                    "{} combat points lost to attrition ({} %): take them from the units that marched",
                    due.points, due.percent
                ))
                .strong(),
            );
            let mut n = 0u32;
            for b in &boxes {
                for u in &b.units {
                    n += 1;
                    ui.horizontal(|ui| {
                        let lost = march.losses.entry(n).or_default();
                        ui.label(format!("{n}. {u} ({})", u.kind.label()));
                        ui.add(egui::DragValue::new(lost).range(0..=u.value)).on_hover_text("Points this unit loses");
                    });
                }
            }
            let named: u32 = march.losses.values().map(|&p| u32::from(p)).sum();
            let ready = named == due.points;
            let b = ui
                .add_enabled(ready, egui::Button::new(format!("Take {named} of {} points", due.points)))
                .on_disabled_hover_text(format!("Share out exactly {} points (BE-12)", due.points));
            if b.clicked() {
                let losses = march.losses.iter().filter(|(_, p)| **p > 0).map(|(n, p)| (*n, *p)).collect();
                p.run(Order::TakeLosses { side: org.side.clone(), losses, militia: 0 });
            }
            return;
        }
        ui.label(RichText::new(format!("{chief} acts")).strong());
        fleet::transport_ui(ui, p, org, facts);
        let start = boxes.first().map(|b| match &b.at {
            Location::City(c) => map.zone_of_city(c).map(|z| z.id.0.clone()),
            Location::Zone(z) => Some(z.0.clone()),
            Location::Sea(_) | Location::Aboard(_) => None,
        });
        let Some(Some(start)) = start else { return };
        let end = march.route.last().cloned().unwrap_or(start);
        let name = |id: &str| map.zones.iter().find(|z| z.id.0 == id).map_or_else(|| id.to_owned(), |z| z.name.clone());
        let route: Vec<String> = march.route.iter().map(|z| name(z)).collect();
        ui.label(if route.is_empty() {
            "Route: pick a neighbouring zone on the map".to_owned()
        } else {
            format!("Route: {}", route.join(" → "))
        });
        let next = match p.selected {
            Some(Location::Zone(z)) => Some(z.0.clone()),
            Some(Location::City(c)) => map.zone_of_city(c).map(|z| z.id.0.clone()),
            _ => None,
        };
        let borders = |a: &str, b: &str| map.zones.iter().find(|z| z.id.0 == a).is_some_and(|z| z.neighbours.iter().any(|n| n.0 == b));
        ui.horizontal_wrapped(|ui| {
            if let Some(next) = next.filter(|n| borders(&end, n))
                && ui.button(format!("Add {}", name(&next))).clicked()
            {
                march.route.push(next);
            }
            if !march.route.is_empty() {
                let cost: u32 = march
                    .route
                    .iter()
                    .map(|z| {
                        let mountain = map.zones.iter().find(|x| x.id.0 == *z).is_some_and(|x| x.terrain == Terrain::Mountain);
                        u32::from(public.tables().cost(if mountain { "move-mountain" } else { "move-plain" }).unwrap_or(1))
                    })
                    .sum();
                let order = Order::Move {
                    side: org.side.clone(),
                    leader: acting.clone(),
                    path: march.route.clone(),
                    attrition_from: march.attrition_from.clone(),
                };
                let hover = "Attrition is rolled at the end of the march and taken at once, from the units ticked first (BE-12)";
                p.order(ui, egui::Button::new(format!("March ({cost} AP)")), hover, order);
                if ui.button("Clear the route").clicked() {
                    march.route.clear();
                }
            }
        });
        attrition_first_ui(ui, &boxes, march);
        on_the_way_ui(ui, p, org, facts, &boxes);
        siege::siege_orders_ui(ui, p, org, facts);
        siege::scorch_ui(ui, p, org, facts);
    });
}

/// BE-12: the units of the acting force that take a march's attrition first, ticked in the
/// order they are to lose points; the others lose theirs after, in the force's order.
fn attrition_first_ui(ui: &mut egui::Ui, boxes: &[&referee_campaign::belisarius::view::OrgBox], march: &mut MarchForm) {
    let units: Vec<&referee_campaign::belisarius::pieces::Unit> = boxes.iter().flat_map(|b| &b.units).collect();
    if units.is_empty() {
        return;
    }
    march.attrition_from.retain(|&n| usize::try_from(n).is_ok_and(|n| (1..=units.len()).contains(&n)));
    egui::CollapsingHeader::new("Attrition taken first from…").id_salt("attrition-first").show(ui, |ui| {
        for (i, u) in units.iter().enumerate() {
            let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let place = march.attrition_from.iter().position(|&x| x == n);
            let mut ticked = place.is_some();
            let label = match place {
                Some(k) => format!("{n}. {u} ({}) — loses points #{}", u.kind.label(), k + 1),
                None => format!("{n}. {u} ({})", u.kind.label()),
            };
            if ui.checkbox(&mut ticked, label).changed() {
                if ticked {
                    march.attrition_from.push(n);
                } else {
                    march.attrition_from.retain(|&x| x != n);
                }
            }
        }
    });
}

/// BE-11: what the acting force takes along or leaves where it stands, and the step
/// between the zone and its city.
fn on_the_way_ui(
    ui: &mut egui::Ui,
    p: &mut Panel<'_>,
    org: &Organisation,
    facts: &Acting,
    boxes: &[&referee_campaign::belisarius::view::OrgBox],
) {
    let acting = facts.leader.as_str();
    let public = p.public;
    let map = public.map();
    let Some(first) = boxes.first() else { return };
    let (zone, in_city) = match &first.at {
        Location::Zone(z) => (Some(z.clone()), false),
        Location::City(c) => (map.zone_of_city(c).map(|z| z.id.clone()), true),
        Location::Sea(_) | Location::Aboard(_) => (None, false),
    };
    let Some(zone) = zone else { return };
    let side = &org.side;
    let id = egui::Id::unique(("on-the-way", side.as_str(), acting));
    let mut picked: (BTreeSet<u32>, BTreeSet<u32>) = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    egui::CollapsingHeader::new("Pick up and drop off (BE-11)").id_salt(id).show(ui, |ui| {
        let city = map.zone(&zone).map(|z| z.city.name.clone()).unwrap_or_default();
        let shift = if in_city { format!("Come out of {city}") } else { format!("Enter {city}") };
        if ui.button(shift).on_hover_text("Between a zone and its city: no action points (BE-11)").clicked() {
            p.run(Order::Shift { side: side.clone(), leader: acting.to_owned(), into_city: !in_city });
        }
        // The acting leader's own units, to leave.
        ui.horizontal_wrapped(|ui| {
            for (i, u) in first.units.iter().enumerate() {
                let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
                let mut on = picked.0.contains(&n);
                if ui.checkbox(&mut on, format!("{n}. {u}")).on_hover_text(u.kind.label()).changed() {
                    if on {
                        picked.0.insert(n);
                    } else {
                        picked.0.remove(&n);
                    }
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            for (label, into_city) in [("Leave them here", false), ("Leave them in the city", true)] {
                if ui.add_enabled(!picked.0.is_empty(), egui::Button::new(label).small()).clicked() {
                    let order = Order::Drop {
                        side: side.clone(),
                        leader: acting.to_owned(),
                        units: picked.0.iter().copied().collect(),
                        leaders: Vec::new(),
                        city: into_city,
                    };
                    p.run(order);
                    picked.0.clear();
                }
            }
            for b in boxes.iter().skip(1) {
                if let Some(l) = &b.leader
                    && ui.button(format!("Leave {} here", l.name)).clicked()
                {
                    let order = Order::Drop {
                        side: side.clone(),
                        leader: acting.to_owned(),
                        units: Vec::new(),
                        leaders: vec![l.id.clone()],
                        city: false,
                    };
                    p.run(order);
                }
            }
        });
        // Units with no leader here, and inferior leaders not yet activated, to take along.
        let loose = &facts.loose;
        if !loose.is_empty() {
            ui.label(RichText::new("Units with no leader here").weak());
            ui.horizontal_wrapped(|ui| {
                for (i, (place, u)) in loose.iter().enumerate() {
                    let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    let mut on = picked.1.contains(&n);
                    if ui
                        .checkbox(&mut on, format!("{n}. {u}"))
                        .on_hover_text(format!("{} at {}", u.kind.label(), public.place_name(place)))
                        .changed()
                    {
                        if on {
                            picked.1.insert(n);
                        } else {
                            picked.1.remove(&n);
                        }
                    }
                }
            });
            if ui.add_enabled(!picked.1.is_empty(), egui::Button::new("Take them along").small()).clicked() {
                let order = Order::PickUp {
                    side: side.clone(),
                    leader: acting.to_owned(),
                    units: picked.1.iter().copied().collect(),
                    leaders: Vec::new(),
                };
                p.run(order);
                picked.1.clear();
            }
        }
        let rank = first.leader.as_ref().map_or(0, |l| l.rank);
        ui.horizontal_wrapped(|ui| {
            for b in &org.boxes {
                let Some(l) = &b.leader else { continue };
                let here = match &b.at {
                    Location::Zone(z) => *z == zone,
                    Location::City(c) => map.zone_of_city(c).is_some_and(|z| z.id == zone),
                    Location::Sea(_) | Location::Aboard(_) => false,
                };
                if here && l.rank < rank && !org.activated.contains(&l.id) && ui.button(format!("Take {} along", l.name)).clicked() {
                    let order =
                        Order::PickUp { side: side.clone(), leader: acting.to_owned(), units: Vec::new(), leaders: vec![l.id.clone()] };
                    p.run(order);
                }
            }
        });
    });
    ui.data_mut(|d| d.insert_temp(id, picked));
}

/// BE-08: units of one leader's box ticked and passed to another leader of the same zone.
fn reorganise_ui(
    ui: &mut egui::Ui,
    p: &mut Panel<'_>,
    org: &Organisation,
    b: &referee_campaign::belisarius::view::OrgBox,
    leader: &referee_campaign::belisarius::view::LeaderCard,
) {
    let map = p.public.map();
    let zone = |at: &Location| map.zone_of(at);
    let here = zone(&b.at);
    let others: Vec<&referee_campaign::belisarius::view::LeaderCard> = org
        .boxes
        .iter()
        .filter(|o| here.is_some() && zone(&o.at) == here)
        .filter_map(|o| o.leader.as_ref())
        .filter(|o| o.id != leader.id)
        .collect();
    if others.is_empty() {
        return;
    }
    let id = egui::Id::unique(("reorganise", org.side.as_str(), leader.id.as_str()));
    let mut picked: BTreeSet<u32> = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    egui::CollapsingHeader::new(format!("Share out {} units", referee_campaign::core::words::owner_of(&leader.name))).id_salt(id).show(
        ui,
        |ui| {
            unit_picks_ui(ui, &b.units, &mut picked);
            ui.horizontal_wrapped(|ui| {
                for other in &others {
                    let b = ui
                        .add_enabled(!picked.is_empty(), egui::Button::new(format!("Pass to {}", other.name)).small())
                        .on_hover_text("Before the phase's first activation, units pass freely between leaders of one zone (BE-08)");
                    if b.clicked() {
                        let order = Order::Reorganise {
                            side: org.side.clone(),
                            from: leader.id.clone(),
                            to: other.id.clone(),
                            units: picked.iter().copied().collect(),
                        };
                        p.run(order);
                        picked.clear();
                    }
                }
            });
        },
    );
    ui.data_mut(|d| d.insert_temp(id, picked));
}

fn organisation_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation) {
    let (public, board) = (p.public, p.board);
    let name = &org.name;
    ui.label(RichText::new(format!("Table of Organisation — {name}")).strong().color(INK).background_color(side_colour(&org.side)));
    if let Some(ap) = &org.action_points {
        ui.label(format!("Action points: {} of {} left", ap.left, ap.total)).on_hover_text(format!(
            "The chit drawn ({}) is worth {}; secret from the other side until the turn's end (BE-04)",
            ap.chit, ap.chit_value
        ));
    }
    // In this side's segment, its leaders not yet activated may be (BE-06, BE-07).
    let mine = p.may_order(&org.side);
    let segment = board.operations.as_ref().is_some_and(|o| o.segment == org.side) && mine;
    let points = org.action_points.as_ref().is_some_and(|a| a.left > 0);
    // Before the phase's first activation, forces are shared out freely (BE-08).
    let reorganising = board.operations.is_some() && org.activated.is_empty() && org.acting.is_none() && mine;
    // Before the first activation, decoys out of play may come back (BE-42).
    let decoys_back = org.decoys_out > 0
        && mine
        && (board.phase == Phase::Play || (board.phase == Phase::Operations && org.activated.is_empty() && org.acting.is_none()));
    let mut last_place = "";
    for b in &org.boxes {
        if b.place != last_place {
            ui.add_space(4.0);
            ui.label(RichText::new(&b.place).weak());
            last_place = &b.place;
        }
        let who = match (&b.leader, b.np, b.decoy) {
            (Some(l), _, _) => format!(
                "{}{} · strategic {} · tactical {} · rank {}",
                l.name,
                if l.cinc { " (commander-in-chief)" } else { "" },
                l.strategic,
                l.tactical,
                l.rank
            ),
            (None, Some(np), _) => format!(
                "{} of {np} NPs",
                b.ship.as_deref().map_or_else(|| "fleet".to_owned(), referee_campaign::belisarius::setup::ship_name)
            ),
            (None, None, true) if b.naval => {
                format!("{}, a decoy", b.ship.as_deref().map_or_else(|| "fleet".to_owned(), referee_campaign::belisarius::setup::ship_name))
            }
            (None, None, true) => b.decoy_id.as_deref().map_or_else(|| "decoy".to_owned(), |id| public.piece_name(id)),
            (None, None, false) => "units with no leader".to_owned(),
        };
        ui.horizontal_wrapped(|ui| {
            ui.add_space(10.0);
            ui.label(RichText::new(who).strong());
            if decoys_back && b.leader.is_some() && !b.at.is_sea() {
                let back = ui.add(egui::Button::new("Return a decoy here").small()).on_hover_text(format!(
                    "{} out of play may come back beside a leader at the start of operations (BE-42)",
                    referee_campaign::core::words::count(org.decoys_out, "decoy")
                ));
                if back.clicked() {
                    let order = Order::ReturnDecoy { side: org.side.clone(), at: b.at.id().to_owned(), fleet: false };
                    p.run(order);
                }
            }
            // A decoy is activated and marched like a leader (BE-42).
            if let Some(id) = b.decoy_id.as_ref().filter(|_| segment && !b.naval) {
                if org.acting.as_deref() == Some(id.as_str()) {
                    ui.label(RichText::new("acting").italics());
                } else if org.activated.contains(id) {
                    ui.label(RichText::new("done this phase").weak());
                } else {
                    let name = public.piece_name(id);
                    let order = Order::Activate { side: org.side.clone(), leader: id.clone(), with: Vec::new() };
                    let hover = "A decoy moves like a leader, for the same action points, and does nothing else (BE-42)";
                    activate_ui(ui, p, &name, points, hover, order);
                }
            }
            let Some(l) = b.leader.as_ref().filter(|_| segment) else { return };
            if org.acting.as_deref() == Some(l.id.as_str()) {
                ui.label(RichText::new("acting").italics());
            } else if org.activated.contains(&l.id) {
                ui.label(RichText::new("done this phase").weak());
            } else {
                let order = Order::Activate { side: org.side.clone(), leader: l.id.clone(), with: Vec::new() };
                let hover = "Activate him for this segment; the leader acting before him is done (BE-06, BE-07)";
                activate_ui(ui, p, &l.name, points, hover, order);
            }
        });
        if !b.units.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.add_space(22.0);
                ui.label(format!("{} — {} CP", referee_campaign::belisarius::pieces::summary(&b.units), b.points));
            });
            if reorganising && let Some(l) = &b.leader {
                reorganise_ui(ui, p, org, b, l);
            }
        }
    }
    if !org.stratagems.is_empty() {
        ui.label(format!("Stratagems held: {}", org.stratagems.join(", ")));
    }
    // BE-43, BE-48: the Frankish intervention is played in the side's own segment.
    if segment
        && org.stratagems.iter().any(|s| s == referee_campaign::belisarius::franks::STRATAGEM)
        && board.franks.is_none()
        && ui
            .button("Play the Frankish intervention")
            .on_hover_text(
                "The Franks come down into Liguria; a d6 says whom they fight, shifted one toward the side that plays it (BE-43, BE-48)",
            )
            .clicked()
    {
        p.run(Order::PlayFrankishIntervention { side: org.side.clone() });
    }
}

/// The public board of a scenario's start, for the picker's preview.
pub(crate) fn start_board(setup: &Setup) -> Board {
    umpire_view(&State::new(setup.name(), setup, 0), &[]).board
}

/// The picker's map of a scenario at its start, kept while the same scenario is chosen.
#[derive(Debug, Default)]
pub(crate) struct Preview {
    shown: Option<(String, Box<Setup>, Board)>,
    map: ZoneMapState,
}

impl Preview {
    /// Draws `world`'s scenario `id` at its start, for looking only.
    pub fn ui(&mut self, ui: &mut egui::Ui, world: Option<&World>, id: &str) {
        egui::CentralPanel::default().show(ui, |ui| {
            if self.shown.as_ref().is_none_or(|(shown, _, _)| shown != id) {
                let Some(setup) = world.and_then(|w| w.setup(id).ok()) else { return };
                let board = start_board(&setup);
                self.shown = Some((id.to_owned(), Box::new(setup), board));
                self.map.fit_next_frame();
            }
            let Some((_, setup, board)) = &self.shown else { return };
            ui.label(RichText::new(format!("{} at the start", setup.name())).strong());
            // The preview is for looking only: clicks on it select nothing.
            let mut ignored = Vec::new();
            zone_map_ui(ui, &setup.map, board, None, &mut self.map, &mut ignored);
        });
    }
}

/// Draws `orders` as planned over the zone map drawn last: marches in dashes from where each
/// piece stands in `from` (or where an earlier march of the list takes it), a siege as a ring
/// on its city, a set-up line as a ring on its place; never as done.
pub(crate) fn planned_ui(
    painter: &Painter,
    map: &ZoneMap,
    state: &ZoneMapState,
    mut from: BTreeMap<String, Location>,
    orders: &[(u32, Order)],
) {
    use crate::gui::widgets::planned::ghost;
    let centre = |at: &Location| match at {
        Location::Zone(z) => map.zone(z).map(|z| state.screen_pos(z.label_km)),
        Location::City(c) => map.city(c).map(|c| state.screen_pos(c.at_km)),
        Location::Sea(s) => map.sea(s).map(|s| state.screen_pos(s.label_km)),
        Location::Aboard(_) => None,
    };
    let place = |id: &str| referee_campaign::belisarius::world::locate(map, id).ok();
    for (position, order) in orders {
        match order {
            Order::Move { leader, path, .. } | Order::ActivateAndMove { leader, path, .. } => {
                let start = from.get(leader).cloned();
                let steps: Vec<Location> = path.iter().filter_map(|z| place(z)).collect();
                let points: Vec<Pos2> = start.iter().chain(&steps).filter_map(centre).collect();
                ghost(painter, &points, *position);
                if let Some(last) = steps.last() {
                    from.insert(leader.clone(), last.clone());
                }
            }
            Order::Besiege { leader, .. } => {
                // The siege is laid at the city of the zone the leader stands in.
                let city = from.get(leader).and_then(|at| match at {
                    Location::Zone(z) => map.zone(z).map(|z| Location::City(z.city.id.clone())),
                    other => Some(other.clone()),
                });
                ghost(painter, &city.iter().filter_map(centre).collect::<Vec<_>>(), *position);
            }
            Order::Place { at, .. } => ghost(painter, &place(at).iter().filter_map(centre).collect::<Vec<_>>(), *position),
            _ => {}
        }
    }
}

/// A checkbox for each of `units`, numbered from 1 as the orders number them; `picked` holds
/// the numbers ticked.
pub(crate) fn unit_picks_ui(ui: &mut egui::Ui, units: &[referee_campaign::belisarius::pieces::Unit], picked: &mut BTreeSet<u32>) {
    ui.horizontal_wrapped(|ui| {
        for (i, unit) in units.iter().enumerate() {
            let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let mut on = picked.contains(&n);
            if ui.checkbox(&mut on, format!("{n}. {unit}")).on_hover_text(unit.kind.label()).changed() {
                if on {
                    picked.insert(n);
                } else {
                    picked.remove(&n);
                }
            }
        }
    });
}
