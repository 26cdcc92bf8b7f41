//! A Magna Graecia packet on the player's desk: the panels and the map of the side's view
//! as the referee's desk draws them for that side, with their order buttons; an order a
//! button gives goes into the plan instead of to the rules.

use std::collections::BTreeMap;

use egui::Rect;
use referee_campaign::ids::SideId;
use referee_campaign::magna_graecia::army::ElementTable;
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::magna_graecia::view::View;
use referee_campaign::store::DiceInput;
use serde::{Deserialize, Serialize};

use super::{Asked, PlannedRows, plan, planned};
use crate::cli::player::Seat;
use crate::gui::magna_graecia::command::{CounterRef, MagnaGraeciaCommand, run};
use crate::gui::magna_graecia::dialogs::{self, DialogForm, LossesForm};
use crate::gui::magna_graecia::map::{MapState, Overlay, map_ui, planned_ui};
use crate::gui::magna_graecia::roster::{self, RosterEditor};
use crate::gui::magna_graecia::{Picks, land_retreats, orders, panels};
use crate::gui::shell::command::{AppCommand, DeskCommand, Message};
use crate::gui::widgets::packs::PackSettings;

/// What a Magna Graecia packet carries for the desk besides the view and the map: the
/// scenario's points table, which the roster editor prices an army with (MG-03).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagnaGraeciaDeskPart {
    pub elements: ElementTable,
}

/// The side's packet with the selection and forms of its desk.
pub(super) struct MagnaGraeciaPlayer {
    pub seat: Box<Seat<MagnaGraecia>>,
    part: Option<MagnaGraeciaDeskPart>,
    map: MapState,
    selection: Picks,
    land_retreats: Vec<CounterRef>,
    dialog: Option<DialogForm>,
    roster: Option<RosterEditor>,
    naval: BTreeMap<SideId, LossesForm>,
    siege_losses: BTreeMap<SideId, LossesForm>,
    /// The plan's orders, read once each time the plan changes, for the map.
    orders: Vec<(u32, Order)>,
}

impl MagnaGraeciaPlayer {
    pub fn new(seat: Seat<MagnaGraecia>) -> anyhow::Result<MagnaGraeciaPlayer> {
        let part = seat.packet.desk_part()?;
        let land_retreats = land_retreats(&seat.view);
        Ok(MagnaGraeciaPlayer {
            seat: Box::new(seat),
            part,
            map: MapState::default(),
            selection: Picks::default(),
            land_retreats,
            dialog: None,
            roster: None,
            naval: BTreeMap::new(),
            siege_losses: BTreeMap::new(),
            orders: Vec::new(),
        })
    }

    /// Reads the plan's orders again; the plan changed.
    pub fn replanned(&mut self, rows: &PlannedRows) {
        self.orders = planned::<MagnaGraecia>(rows);
    }

    /// The bar's buttons: "End the phase" while the side moves (MG-09); its alliance rolls
    /// (MG-06) are the referee's to roll when the orders are taken in.
    pub fn bar_ui(&self, ui: &mut egui::Ui, queue: &mut Vec<AppCommand>) {
        let board = self.seat.view.board();
        let side = &self.seat.header().side;
        if &board.moving == side && matches!(board.phase, Phase::Movement | Phase::Combat | Phase::PostCombat) {
            let hover =
                format!("Plan the end of the side's {} phase (MG-09); the orders after it wait for the next phase", board.phase.name());
            if ui.button("End the phase").on_hover_text(hover).clicked() {
                run(queue, Order::EndPhase { side: side.clone() });
            }
        }
    }

    /// The colour the map draws `side` in.
    pub fn side_colour(&self, side: &SideId) -> egui::Color32 {
        self.seat.view.board().side(side).map_or(egui::Color32::GRAY, crate::gui::magna_graecia::paint::side_colour)
    }

    /// The panel beside the map: what to do now, the node selected, the side's forces.
    pub fn details_ui(&mut self, ui: &mut egui::Ui, queue: &mut Vec<AppCommand>) {
        let viewer = referee_campaign::Viewer::Side(self.seat.header().side.clone());
        let details = panels::Details {
            map: &self.seat.public,
            view: &self.seat.view,
            viewer: &viewer,
            land_retreats: &self.land_retreats,
            pack_job: None,
            seed: None,
            // Every button is live, as in a side's view on the referee's screen: the plan
            // checks the order as far as the side can tell once it is clicked.
            legal: orders::Legal::UNCHECKED,
        };
        panels::details_ui(ui, &details, self.selection.borrowed(), queue);
    }

    /// The map, with the planned orders drawn over it, and the dialogs over the window.
    pub fn map_ui(&mut self, ui: &mut egui::Ui, message: Option<&Message>, queue: &mut Vec<AppCommand>) {
        let View::Side(view) = &self.seat.view else { return };
        let map = &self.seat.public;
        let canvas: Rect = ui.available_rect_before_wrap();
        let own = [&view.own];
        let overlay = Overlay { own: &own, picked: self.selection.counter.as_ref() };
        map_ui(ui, map, &view.board, &overlay, self.selection.node, &mut self.map, queue);
        let from = view.own.counters.iter().map(|c| (c.name.clone(), c.node)).collect();
        planned_ui(&ui.painter_at(canvas), canvas, map, &self.map, from, &self.orders);
        self.dialogs_ui(ui.ctx(), message, queue);
    }

    /// The open dialog, the roster editor, and the losses the side chooses (MG-18, MG-28).
    fn dialogs_ui(&mut self, ctx: &egui::Context, message: Option<&Message>, queue: &mut Vec<AppCommand>) {
        let MagnaGraeciaPlayer { seat, part, dialog, roster, naval, siege_losses, .. } = self;
        let (view, map) = (&seat.view, &seat.public);
        dialogs::naval_losses_ui(ctx, view, naval, message, queue);
        dialogs::siege_losses_ui(ctx, map, view, siege_losses, message, queue);
        match dialog {
            Some(DialogForm::Exchange(form)) => dialogs::exchange_ui(ctx, form, view, message, queue),
            Some(DialogForm::Garrison(form)) => dialogs::garrison_ui(ctx, map, form, view, message, queue),
            _ => {}
        }
        if let (Some(editor), Some(part)) = (roster, part)
            && let Some(forces) = view.forces().into_iter().find(|f| f.side == editor.side)
        {
            let side_name = &seat.header().side_name;
            let data = roster::RosterData { side_name, points: forces.army_points, table: &part.elements };
            roster::roster_editor_ui(ctx, editor, data, queue);
        }
    }

    /// What the desk makes of a command its panels gave: a selection or a form changes here;
    /// an order goes to the plan, with `comment`; what only the referee does is refused.
    pub fn apply(&mut self, command: AppCommand, comment: &str) -> Asked {
        let AppCommand::Desk(DeskCommand::MagnaGraecia(command)) = command else { return Asked::Referee };
        let view = &self.seat.view;
        match command {
            MagnaGraeciaCommand::Select(node) => self.selection.select(view, node),
            MagnaGraeciaCommand::SelectCounter(counter) => self.selection.pick(view, counter),
            MagnaGraeciaCommand::Execute(order, DiceInput::Seeded) => {
                let result = plan(&mut self.seat, std::slice::from_ref(&order), comment);
                if result.is_ok() {
                    self.planned(&order);
                }
                return Asked::Planned(result);
            }
            MagnaGraeciaCommand::Execute(..) => return Asked::Refused(super::TYPED_DICE.to_owned()),
            MagnaGraeciaCommand::OpenDialog(dialog) => {
                // A side opens only the exchange and the garrison: the referee's dialogs (and
                // their pack settings) are not for a side's view.
                let packs = PackSettings::new(&self.seat.header().name);
                self.dialog = dialog.and_then(|d| DialogForm::new(&d, view, &packs));
                return Asked::Clear;
            }
            MagnaGraeciaCommand::FoldLegend(folded) => self.map.legend_folded = folded,
            MagnaGraeciaCommand::EditRoster(None) => self.roster = None,
            MagnaGraeciaCommand::EditRoster(Some(side)) => {
                if view.board().phase != Phase::Setup {
                    return Asked::Refused("rosters are fixed once play has begun; losses change them — MG-03".to_owned());
                }
                if self.part.is_none() {
                    return Asked::Refused(super::OLD_PACKET.to_owned());
                }
                let army = view.forces().into_iter().find(|f| f.side == side).map(|f| f.army.clone());
                self.roster = army.map(|army| RosterEditor::new(side, army.as_ref()));
            }
            MagnaGraeciaCommand::ShowSeed(_)
            | MagnaGraeciaCommand::ExportRoster { .. }
            | MagnaGraeciaCommand::ImportRoster { .. }
            | MagnaGraeciaCommand::WritePack { .. }
            | MagnaGraeciaCommand::WriteAllPacks { .. }
            | MagnaGraeciaCommand::StopPacks => return Asked::Referee,
        }
        Asked::Nothing
    }

    /// An order was planned: the form that gave it is done.
    fn planned(&mut self, order: &Order) {
        if self.dialog.as_ref().is_some_and(|d| d.done_by(order)) {
            self.dialog = None;
        }
        if matches!(order, Order::SetArmy { .. }) {
            self.roster = None;
        }
        if matches!(order, Order::Move { .. } | Order::Deploy { .. } | Order::Retreat { .. }) {
            self.selection.counter = None;
        }
    }
}
