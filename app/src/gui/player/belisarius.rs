//! A Belisarius packet on the player's desk: the panels and the map of the side's view as
//! the referee's desk draws them for that side, with their order buttons — activations,
//! marches, sieges, voyages, the battle's choices, the set-up lines — drawn from the side's
//! view and the facts its packet carries; an order a button gives goes into the plan.

use std::collections::BTreeMap;

use egui::Rect;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::pieces::Leader;
use referee_campaign::belisarius::setup::Public;
use referee_campaign::belisarius::state::Location;
use referee_campaign::core::view::View;
use referee_campaign::store::DiceInput;
use serde::{Deserialize, Serialize};

use super::{Asked, PlannedRows, plan, planned};
use crate::cli::player::Seat;
use crate::gui::belisarius::command::BelisariusCommand;
use crate::gui::belisarius::facts::{Acting, Facts};
use crate::gui::belisarius::{Forms, MarchForm, PartForm, Sources, ZoneMapState, battle, fleet, panels_ui, planned_ui, zone_map_ui};
use crate::gui::shell::command::{AppCommand, DeskCommand};

/// What a Belisarius packet carries for the desk besides the view and the public map: the
/// cards of the side's own leaders, and what the rules work out about its own pieces (the
/// acting force, where a beaten force may go, the besiegers who may meet a relief, the
/// battle under way as its odds are counted from).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BelisariusDeskPart {
    pub leaders: Vec<Leader>,
    pub facts: Facts,
}

/// The side's packet with the selection and forms of its desk.
pub(super) struct BelisariusPlayer {
    pub seat: Box<Seat<Belisarius>>,
    /// Empty for a packet written before packets carried it: the panels then know only the
    /// side's view.
    part: BelisariusDeskPart,
    map: ZoneMapState,
    selected: Option<Location>,
    tables_shown: bool,
    parts: BTreeMap<(referee_campaign::ids::SideId, u32), PartForm>,
    march: MarchForm,
    battle: battle::BattleForm,
    voyage: fleet::VoyageForm,
    hex_units: referee_battle_gen::hexunits::HexUnits,
    /// The plan's orders, read once each time the plan changes, for the map.
    orders: Vec<(u32, Order)>,
    /// The side's view and facts as the plan has them, when the plan activates a leader.
    as_planned: Option<Planned>,
}

/// The side's view and facts with the plan's activation folded in: the leader the plan
/// activates acts (BE-06, BE-07), and his force stands where the plan's marches take it, so
/// the force's panel offers his march, siege and the rest as planned orders. Only the side's
/// own organisation changes; the map stays as the packet has it.
struct Planned {
    view: referee_campaign::belisarius::view::View,
    facts: Facts,
    /// The planned order that activates him, and his name.
    position: u32,
    leader: String,
}

impl BelisariusPlayer {
    pub fn new(seat: Seat<Belisarius>) -> anyhow::Result<BelisariusPlayer> {
        let part = seat.packet.desk_part()?.unwrap_or_default();
        Ok(BelisariusPlayer {
            seat: Box::new(seat),
            part,
            map: ZoneMapState::default(),
            selected: None,
            tables_shown: false,
            parts: BTreeMap::new(),
            march: MarchForm::default(),
            battle: battle::BattleForm::default(),
            voyage: fleet::VoyageForm::default(),
            hex_units: referee_battle_gen::hexunits::HexUnits::embedded(),
            orders: Vec::new(),
            as_planned: None,
        })
    }

    /// Reads the plan's orders again, and folds the plan's activation, if it has one, into
    /// the view the panels draw from; the plan changed.
    pub fn replanned(&mut self, rows: &PlannedRows) {
        self.orders = planned::<Belisarius>(rows);
        self.as_planned = None;
        let View::Side(side) = &self.seat.view else { return };
        // The leader the plan activates last, and where the force's last planned march ends.
        let mut acting: Option<(u32, &String, &Vec<String>)> = None;
        let mut march_end: Option<&String> = None;
        for (position, order) in &self.orders {
            match order {
                Order::Activate { leader, with, .. } => {
                    acting = Some((*position, leader, with));
                    march_end = None;
                }
                Order::ActivateAndMove { leader, with, path, .. } => {
                    acting = Some((*position, leader, with));
                    march_end = path.last();
                }
                Order::Move { path, .. } => march_end = path.last().or(march_end),
                Order::Pass { .. } => {
                    acting = None;
                    march_end = None;
                }
                _ => {}
            }
        }
        let Some((position, leader, with)) = acting else { return };
        let (leader, with) = (leader.clone(), with.clone());
        let mut view = side.clone();
        let own = &mut view.own;
        if own.acting.as_deref() != Some(leader.as_str()) {
            own.activated.extend(std::iter::once(leader.clone()).chain(with.iter().cloned()));
            own.acting = Some(leader.clone());
            own.acting_with = with.clone();
        }
        // The force stands where its last planned march ends.
        let force: Vec<&str> = std::iter::once(leader.as_str()).chain(with.iter().map(String::as_str)).collect();
        let end = march_end.and_then(|end| referee_campaign::belisarius::world::locate(&self.seat.public.map, end).ok());
        if let Some(end) = &end {
            let place = self.seat.public.map.place_name(end);
            for b in &mut own.boxes {
                let id = b.leader.as_ref().map(|l| l.id.as_str()).or(b.decoy_id.as_deref());
                if id.is_some_and(|id| force.contains(&id)) {
                    b.at = end.clone();
                    b.place.clone_from(&place);
                }
            }
        }
        let at = own.pieces().find(|(id, _)| *id == leader).map(|(_, at)| at.clone());
        let mut facts = self.part.facts.clone();
        if facts.acting.as_ref().is_none_or(|a| a.leader != leader || end.is_some()) {
            facts.acting = Some(Acting { leader: leader.clone(), at, ..Acting::default() });
        }
        let name = Public::new(&self.seat.public.map, &self.seat.public.tables, &self.part.leaders).piece_name(&leader);
        self.as_planned = Some(Planned { view: View::Side(view), facts, position, leader: name });
    }

    /// The panels beside the map, as the referee's desk draws them for the side.
    pub fn details_ui(&mut self, ui: &mut egui::Ui, queue: &mut Vec<AppCommand>) {
        let BelisariusPlayer { seat, part, selected, tables_shown, parts, march, battle, voyage, hex_units, as_planned, .. } = self;
        let viewer = referee_campaign::Viewer::Side(seat.header().side.clone());
        if let Some(p) = as_planned {
            let text = format!("As planned: {} acts (order {}). His force's orders below go into the plan.", p.leader, p.position);
            ui.label(egui::RichText::new(text).color(crate::gui::widgets::planned::PLANNED));
        }
        let sources = Sources {
            public: Public::new(&seat.public.map, &seat.public.tables, &part.leaders),
            view: as_planned.as_ref().map_or(&seat.view, |p| &p.view),
            viewer: &viewer,
            umpire: None,
            facts: as_planned.as_ref().map_or(&part.facts, |p| &p.facts),
            // Only the referee's result form reads the table's data.
            table: battle::TableData { number: 0, hex_units, campaign: &seat.packet.header.name },
        };
        let forms = Forms { selected: selected.as_ref(), tables_shown, parts, march, battle, voyage };
        panels_ui(ui, &sources, forms, queue);
    }

    /// The map, with the planned orders drawn over it.
    pub fn map_ui(&mut self, ui: &mut egui::Ui, queue: &mut Vec<AppCommand>) {
        let View::Side(view) = &self.seat.view else { return };
        let map = &self.seat.public.map;
        let canvas: Rect = ui.available_rect_before_wrap();
        let mut picked = Vec::new();
        zone_map_ui(ui, map, &view.board, self.selected.as_ref(), &mut self.map, &mut picked);
        if let Some(place) = picked.pop() {
            queue.push(BelisariusCommand::SelectPlace(place).into());
        }
        let from = view.own.pieces().map(|(id, at)| (id.to_owned(), at.clone())).collect();
        planned_ui(&ui.painter_at(canvas), map, &self.map, from, &self.orders);
    }

    /// What the desk makes of a command its panels gave: a selection changes here; an order
    /// goes to the plan, with `comment`; what only the referee does is refused.
    pub fn apply(&mut self, command: AppCommand, comment: &str) -> Asked {
        let AppCommand::Desk(DeskCommand::Belisarius(command)) = command else { return Asked::Referee };
        match command {
            BelisariusCommand::SelectPlace(place) => {
                self.selected = place;
                Asked::Nothing
            }
            BelisariusCommand::Execute(order, DiceInput::Seeded) => {
                let result = plan(&mut self.seat, std::slice::from_ref(&order), comment);
                if result.is_ok() {
                    self.planned(order);
                }
                Asked::Planned(result)
            }
            BelisariusCommand::Execute(..) => Asked::Refused(super::TYPED_DICE.to_owned()),
            BelisariusCommand::WritePack { .. } => Asked::Referee,
        }
    }

    /// An order was planned: the forms that gave it start again.
    fn planned(&mut self, order: Order) {
        match order {
            Order::Move { .. } | Order::ActivateAndMove { .. } => self.march = MarchForm::default(),
            Order::Place { side, line, .. } => {
                self.parts.remove(&(side, line));
            }
            Order::Sail { .. } => self.voyage = fleet::VoyageForm::default(),
            _ => {}
        }
    }
}
