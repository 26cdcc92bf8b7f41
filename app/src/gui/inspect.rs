//! What the app shows of each engine's desk to those outside the window — the tests, and the
//! smoke test of `run` — kept apart from the shell, which asks its desk only what every
//! engine answers.

use referee_campaign::Campaign;
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::view::View;

use crate::gui::magna_graecia::MagnaGraeciaDesk;
use crate::gui::magna_graecia::command::CounterRef;
use crate::gui::shell::app::RefereeApp;

impl RefereeApp {
    fn magna_graecia(&self) -> Option<&MagnaGraeciaDesk> {
        self.desk().and_then(|d| d.magna_graecia())
    }

    /// The Belisarius campaign on screen, if the open campaign is one.
    pub fn belisarius_view(&self) -> Option<&referee_campaign::belisarius::view::View> {
        self.desk().and_then(|d| d.belisarius()).map(|d| &d.live.view)
    }

    /// Where the map on screen put its places, pieces and names in the last frame, either
    /// campaign's.
    pub fn map_layout(&self) -> Option<&crate::gui::MapLayout> {
        let desk = self.desk()?;
        desk.magna_graecia().map(|d| &d.map_state.layout).or_else(|| desk.belisarius().map(|d| &d.map_state.layout))
    }

    /// The map's scale on screen, in points per km, either campaign's.
    pub fn map_zoom(&self) -> Option<f32> {
        let desk = self.desk()?;
        desk.magna_graecia().map(|d| d.map_state.zoom()).or_else(|| desk.belisarius().map(|d| d.map_state.zoom()))
    }

    /// The place selected on the Belisarius map, if any.
    pub fn belisarius_selected(&self) -> Option<&referee_campaign::belisarius::state::Location> {
        self.desk().and_then(|d| d.belisarius()).and_then(|d| d.selected.as_ref())
    }

    /// Whether the Magna Graecia map's legend is folded away to its title.
    pub fn legend_folded(&self) -> Option<bool> {
        self.magna_graecia().map(|d| d.map_state.legend_folded)
    }

    /// The open Magna Graecia campaign, if any.
    pub fn campaign(&self) -> Option<&Campaign<MagnaGraecia>> {
        self.magna_graecia().map(|o| &o.campaign)
    }

    /// What the current viewer sees of the open Magna Graecia campaign.
    pub fn view(&self) -> Option<&View> {
        self.magna_graecia().map(|o| &o.live.view)
    }

    /// The node selected on the Magna Graecia map, if any.
    pub fn selected(&self) -> Option<NodeId> {
        self.magna_graecia().and_then(|o| o.picks.node)
    }

    /// The counter picked out to move or deploy, if any.
    pub fn selected_counter(&self) -> Option<&CounterRef> {
        self.magna_graecia().and_then(|o| o.picks.counter.as_ref())
    }

    /// Whether a dialog (result form, exchange, garrison) is open.
    pub fn dialog_open(&self) -> bool {
        self.magna_graecia().is_some_and(|o| o.dialog.is_some())
    }

    /// The side whose roster the editor is open on, if it is.
    pub fn roster_editor(&self) -> Option<&SideId> {
        self.magna_graecia().and_then(|o| o.roster.as_ref()).map(|r| &r.side)
    }

    /// How many orders of a side's orders file the map draws as planned, while the referee
    /// reads the file before taking it in.
    pub fn incoming_drawn(&self) -> usize {
        let desk = self.desk();
        desk.and_then(|d| d.magna_graecia())
            .map(|d| d.incoming.len())
            .or_else(|| desk.and_then(|d| d.belisarius()).map(|d| d.incoming.len()))
            .unwrap_or(0)
    }
}

/// Every string drawn in `shapes`, in drawing order, with the rectangle it was drawn in: what
/// a frame tells its reader, for the tests that read a screen as a player would.
pub fn drawn_texts<'a>(shapes: impl IntoIterator<Item = &'a egui::epaint::ClippedShape>) -> Vec<(egui::Rect, String)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(egui::Rect, String)>) {
        match shape {
            egui::Shape::Text(t) => out.push((t.galley.rect.translate(t.pos.to_vec2()), t.galley.text().to_owned())),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in shapes {
        walk(&s.shape, &mut out);
    }
    out
}
