//! The start of a Belisarius turn on the desk: the reinforcements a side buys or places in
//! spring (BE-45), at the place selected on the map.

use egui::RichText;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::reinforce::{half_points_number, points};
use referee_campaign::belisarius::view::Organisation;

use crate::gui::belisarius::Panel;

/// The prices a Gothic purchase may name, in the rules' order; the tables price each one.
const UNITS: [&str; 4] = referee_campaign::belisarius::tables::GOTHIC_UNITS;

/// A side's reinforcements to buy or to place, at the place selected on the map.
pub(crate) fn reinforcements_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation) {
    let public = p.public;
    if !p.may_order(&org.side) || (org.raise_half_points == 0 && org.reinforcements_to_place.is_empty()) {
        return;
    }
    let at = p.selected.filter(|l| !l.is_sea());
    let place = at.map(|l| public.place_name(l));
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new(format!("{}: reinforcements (BE-45)", org.name)).strong());
        if org.raise_half_points > 0 {
            let id = egui::Id::unique(("raise", org.side.as_str()));
            let mut counts: [u32; 4] = ui.data(|d| d.get_temp(id)).unwrap_or_default();
            let prices: Vec<u32> = UNITS.iter().map(|u| public.tables().price_half_points(u).unwrap_or(u32::MAX)).collect();
            let spent: u32 = counts.iter().zip(&prices).map(|(n, p)| n.saturating_mul(*p)).sum();
            ui.label(format!("{} of {} to spend", half_points_number(spent), points(org.raise_half_points)));
            ui.horizontal_wrapped(|ui| {
                for (i, unit) in UNITS.iter().enumerate() {
                    ui.label(format!("{unit} ({})", half_points_number(prices[i])));
                    ui.add(egui::DragValue::new(&mut counts[i]).range(0..=40)).on_hover_text(format!("How many {unit} to buy"));
                }
            });
            let ready = spent > 0 && spent <= org.raise_half_points && at.is_some();
            let label =
                place.as_ref().map_or_else(|| "Raise them (select a zone you control)".to_owned(), |p| format!("Raise them at {p}"));
            if ui.add_enabled(ready, egui::Button::new(label)).clicked()
                && let Some(at) = at
            {
                let units = UNITS
                    .iter()
                    .zip(counts)
                    .flat_map(|(u, n)| std::iter::repeat_n((*u).to_owned(), usize::try_from(n).unwrap_or(0)))
                    .collect();
                p.run(Order::Raise { side: org.side.clone(), at: at.id().to_owned(), units });
                counts = [0; 4];
            }
            if ui.button("Give up the points left").clicked() {
                p.run(Order::Raise { side: org.side.clone(), at: String::new(), units: Vec::new() });
            }
            ui.data_mut(|d| d.insert_temp(id, counts));
        }
        for line in &org.reinforcements_to_place {
            ui.label(format!("Waiting: {line}"));
            let label =
                place.as_ref().map_or_else(|| "Place them (select a zone you control)".to_owned(), |p| format!("Place them at {p}"));
            if ui.add_enabled(at.is_some(), egui::Button::new(label)).clicked()
                && let Some(at) = at
            {
                p.run(Order::PlaceReinforcements { side: org.side.clone(), at: at.id().to_owned() });
            }
        }
    });
}
