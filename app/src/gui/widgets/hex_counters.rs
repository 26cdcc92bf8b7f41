//! A hex wargame's counters in a result form (AB-08, AC-06): each side's counters as the
//! battle's pack printed them, with the steps each lost, for either campaign's form to turn
//! into its own losses.

use egui::RichText;
use referee_battle_gen::hexmap::HexSystem;
use referee_battle_gen::hexpack::HexTabletop;
use referee_battle_gen::hexresult::{CounterLoss, HexResult, HexSideResult};
use referee_battle_gen::spec::UmpireSpec;
use referee_battle_gen::tabletop::{TableOutcome, Tabletop};
use referee_campaign::SideId;

use crate::gui::magna_graecia::dialogs::shared::count_ui;

/// One counter of the pack, and the steps it lost.
#[derive(Debug, Clone)]
pub(crate) struct HexCounter {
    pub number: u32,
    pub what: String,
    pub line: String,
    /// Steps it has: two for an A la Charge! counter with a reduced side, else one.
    pub has: u32,
    pub lost: u32,
}

/// The battle's counters under a hex wargame, built once from the umpire's spec of the
/// battle (what the pack was printed from), and what each lost.
#[derive(Debug, Clone)]
pub(crate) struct HexCounters {
    pub tabletop: HexTabletop,
    pub spec: UmpireSpec,
    pub sides: Vec<(SideId, Vec<HexCounter>)>,
}

impl HexCounters {
    pub fn new(tabletop: HexTabletop, spec: UmpireSpec) -> HexCounters {
        let system = tabletop.system;
        let scales = tabletop.scale_battle(&spec.sides);
        let sides = spec
            .sides
            .iter()
            .zip(scales)
            .map(|(u, scaling)| {
                let army = tabletop.army(&u.side.name, &u.troops, scaling);
                let counters = army
                    .counters
                    .iter()
                    .map(|c| HexCounter {
                        number: c.number,
                        what: c.describe(system),
                        line: c.line.clone(),
                        has: u32::from(c.steps(system)),
                        lost: 0,
                    })
                    .collect();
                (u.side.id.clone(), counters)
            })
            .collect();
        HexCounters { tabletop, spec, sides }
    }

    pub fn system(&self) -> HexSystem {
        self.tabletop.system
    }

    /// What the form holds, as a hex result without an outcome: only the losses are read.
    pub fn result(&self, battle: u32) -> HexResult {
        HexResult {
            battle,
            outcome: TableOutcome::NoResult {},
            held_field: None,
            sides: self
                .sides
                .iter()
                .map(|(side, counters)| HexSideResult {
                    side: side.clone(),
                    lost: counters
                        .iter()
                        .filter(|c| c.lost > 0)
                        .map(|c| CounterLoss { counter: c.number, steps: u8::try_from(c.lost).unwrap_or(u8::MAX) })
                        .collect(),
                    open_exits: None,
                    attacked_neutral: false,
                    // The form's own entries say where a lost general's men go.
                    joins: Default::default(),
                })
                .collect(),
        }
    }

    /// Each side's counters side by side, a box (or the steps) for what each lost; whether
    /// anything changed.
    pub fn ui(&mut self, ui: &mut egui::Ui, name: &dyn Fn(&SideId) -> String) -> bool {
        let mut changed = false;
        let system = self.system();
        let n = self.sides.len().max(1);
        ui.columns(n, |columns| {
            for (ui, (side, counters)) in columns.iter_mut().zip(self.sides.iter_mut()) {
                let side_name = name(side);
                ui.label(RichText::new(format!("{side_name}: {} counters", counters.len())).strong());
                egui::Grid::new(("hex_counters", side.as_str())).num_columns(3).spacing([8.0, 2.0]).striped(true).show(ui, |ui| {
                    for h in ["No.", "Counter (command)", if system == HexSystem::ALaCharge { "steps lost" } else { "eliminated" }] {
                        ui.label(RichText::new(h).weak());
                    }
                    ui.end_row();
                    for c in counters.iter_mut() {
                        ui.label(c.number.to_string());
                        ui.label(format!("{} ({})", c.what, c.line));
                        let before = c.lost;
                        let label = format!("{side_name} counter {} lost", c.number);
                        if c.has == 1 {
                            let mut gone = c.lost == 1;
                            ui.checkbox(&mut gone, "").accessible_name(label);
                            c.lost = u32::from(gone);
                        } else {
                            count_ui(ui, &mut c.lost, c.has, label, true);
                        }
                        changed |= c.lost != before;
                        ui.end_row();
                    }
                });
            }
        });
        changed
    }
}

/// "Losses counted in": the campaign's own, or a hex wargame's counters; the choice made.
pub(crate) fn system_ui(ui: &mut egui::Ui, now: Option<HexSystem>, own: &str) -> Option<HexSystem> {
    let mut picked = now;
    ui.horizontal(|ui| {
        let l = ui.label("Losses counted in");
        ui.radio_value(&mut picked, None, own).labelled_by(l.id);
        ui.radio_value(&mut picked, Some(HexSystem::ArsBellum), "Ars Bellum counters")
            .on_hover_text("The battle was played with the Ars Bellum pack: tick the counters eliminated");
        ui.radio_value(&mut picked, Some(HexSystem::ALaCharge), "A la Charge! counters")
            .on_hover_text("The battle was played with the A la Charge! pack: the steps each counter lost");
    });
    picked
}
