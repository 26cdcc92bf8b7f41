//! The losses a side chooses itself: carried elements lost at sea (MG-18), and elements lost
//! when a city fell or disease struck (MG-28, MG-29).

use std::collections::BTreeMap;

use egui::{Align2, RichText};
use referee_campaign::magna_graecia::army::{CommandRoster, ElementGroup};
use referee_campaign::magna_graecia::siege::LossesDue;
use referee_campaign::magna_graecia::view::{Forces, View};
use referee_campaign::{SideId, magna_graecia::map::Map, magna_graecia::order::Order};

use super::shared::*;
use crate::gui::magna_graecia::command::run;
use crate::gui::shell::command::{AppCommand, Message};

/// One side's choice of elements to lose, per command in the pool.
#[derive(Debug, Clone, Default)]
pub(crate) struct LossesForm {
    counts: BTreeMap<String, Vec<u32>>,
    /// Commands lost whole, with their general.
    whole: BTreeMap<String, bool>,
}

/// Which pool of commands a losses window chooses from.
struct LossPool<'a> {
    /// A unique id for the window.
    id: (&'static str, &'a str),
    title: String,
    /// What happened and how many to choose, with the rule.
    intro: String,
    /// Under the intro, weaker.
    note: String,
    /// The commands to choose from, each with a word after its name ("inside the walls").
    commands: Vec<(&'a CommandRoster, Option<&'static str>)>,
    /// Shown when there is no command to choose from.
    empty: &'static str,
    /// "sunk" or "lost": how a whole command goes.
    whole: &'static str,
    due: u32,
    rule: &'static str,
    /// Where the window stands below the top of the screen.
    top: f32,
}

/// The choice: the groups lost from commands that stay, and the commands lost whole.
type Chosen = (Vec<(String, ElementGroup)>, Vec<String>);

/// The window of one pool: a count per group of each command, a "whole" tick per command,
/// the running total against what is due, and the button that sends the choice.
fn losses_window_ui(ctx: &egui::Context, pool: &LossPool<'_>, form: &mut LossesForm, message: Option<&Message>) -> Option<Chosen> {
    let mut chosen = None;
    egui::Window::new(&pool.title)
        .id(egui::Id::unique(pool.id))
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_TOP, [0.0, pool.top])
        .show(ctx, |ui| {
            ui.add(egui::Label::new(&pool.intro).wrap());
            ui.label(RichText::new(&pool.note).weak());
            let mut total = 0;
            let room = (ctx.content_rect().height() - 320.0).max(160.0);
            egui::ScrollArea::vertical().max_height(room).show(ui, |ui| {
                for (r, word) in &pool.commands {
                    ui.add_space(4.0);
                    let whole = form.whole.entry(r.name.clone()).or_default();
                    ui.horizontal(|ui| {
                        ui.label(RichText::new(&r.name).strong());
                        if let Some(word) = word {
                            ui.label(RichText::new(*word).italics());
                        }
                        ui.checkbox(whole, format!("{} whole ({})", pool.whole, plural(r.element_count(), "element", "elements")))
                            .accessible_name(format!("{} {} whole", r.name, pool.whole));
                    });
                    let counts = form.counts.entry(r.name.clone()).or_default();
                    if *whole {
                        total += r.element_count();
                        continue;
                    }
                    ui.indent((pool.id, r.name.as_str()), |ui| {
                        groups_grid_ui(ui, &format!("{}_grid_{}", pool.id.0, r.name), &r.elements, counts, &format!("of {} lost", r.name));
                    });
                    total += counts.iter().sum::<u32>();
                }
            });
            if pool.commands.is_empty() {
                ui.label(RichText::new(pool.empty).weak());
            }
            ui.add_space(4.0);
            let right = total == pool.due;
            let text = RichText::new(format!("{total} of {} chosen", pool.due)).strong();
            ui.label(if right { text } else { text.color(ui.visuals().error_fg_color) });
            refusal_ui(ui, message);
            let go = ui
                .add_enabled(right, egui::Button::new(RichText::new("Lose these elements").strong()))
                .on_disabled_hover_text(format!("Choose exactly {} ({})", pool.due, pool.rule));
            if go.clicked() {
                let whole: Vec<String> = form.whole.iter().filter(|(_, w)| **w).map(|(n, _)| n.clone()).collect();
                let lost = pool
                    .commands
                    .iter()
                    .filter(|(r, _)| !whole.contains(&r.name))
                    .flat_map(|(r, _)| {
                        let counts = form.counts.get(&r.name).map_or(&[][..], Vec::as_slice);
                        picked(&r.elements, counts).into_iter().map(|g| (r.name.clone(), g))
                    })
                    .collect();
                chosen = Some((lost, whole));
            }
        });
    chosen
}

/// A window per side the viewer sees that owes losses at sea (MG-18): it chooses among the
/// commands aboard its fleet; gone once they are chosen.
pub(crate) fn naval_losses_ui(
    ctx: &egui::Context,
    view: &View,
    forms: &mut BTreeMap<SideId, LossesForm>,
    message: Option<&Message>,
    commands: &mut Vec<AppCommand>,
) {
    let board = view.board();
    let due: Vec<&Forces> = view.forces().into_iter().filter(|f| f.naval_losses_due > 0).collect();
    forms.retain(|s, _| due.iter().any(|f| &f.side == s));
    for f in due {
        let who = board.side_name(&f.side);
        let pool = LossPool {
            id: ("naval_losses", f.side.as_str()),
            title: format!("Losses at sea: {who}"),
            intro: format!(
                "{} fleet lost a naval battle: choose {} carried aboard to lose (MG-18).",
                referee_campaign::core::words::owner_of(&who),
                plural(f.naval_losses_due, "element", "elements")
            ),
            note: "A general goes down only with his whole command: tick \"sunk whole\" for that.".to_owned(),
            commands: f.counters.iter().filter(|c| c.aboard).filter_map(|c| Some((roster_named(f, &c.name)?, None))).collect(),
            empty: "No command of this side is aboard its fleet.",
            whole: "sunk",
            due: f.naval_losses_due,
            rule: "MG-18",
            top: 60.0,
        };
        let form = forms.entry(f.side.clone()).or_default();
        if let Some((lost, sunk)) = losses_window_ui(ctx, &pool, form, message) {
            run(commands, Order::AllocateNavalLosses { side: f.side.clone(), lost, sunk });
        }
    }
}

/// A window per side the viewer sees that owes siege or disease losses (MG-28, MG-29): it
/// chooses among its commands at the node, inside the walls or out; gone once chosen.
pub(crate) fn siege_losses_ui(
    ctx: &egui::Context,
    map: &Map,
    view: &View,
    forms: &mut BTreeMap<SideId, LossesForm>,
    message: Option<&Message>,
    commands: &mut Vec<AppCommand>,
) {
    let board = view.board();
    let due: Vec<(&Forces, &LossesDue)> = view.forces().into_iter().filter_map(|f| Some((f, f.siege_losses_due.as_ref()?))).collect();
    forms.retain(|s, _| due.iter().any(|(f, _)| &f.side == s));
    for (f, d) in due {
        let who = board.side_name(&f.side);
        let city = map.name(d.node);
        let n = plural(d.elements, "element", "elements");
        let disease = d.rule == referee_campaign::rule::RuleId::MG_29;
        let (title, intro, rule) = if let Some(name) = &d.command {
            (
                format!("Disease losses: {name}"),
                format!(
                    "{name} caught disease marching through {city}: choose {n} of its elements to lose, a tenth of the command, rounded up (MG-29)."
                ),
                "MG-29",
            )
        } else if disease {
            (
                format!("Disease losses at {city}: {who}"),
                format!(
                    "Disease struck {} force at {city}: choose {n} of its elements there to lose, a tenth of the force, rounded up (MG-29).",
                    referee_campaign::core::words::owner_of(&who)
                ),
                "MG-29",
            )
        } else {
            let inside = d.by.as_ref().map_or_else(|| "the defender".to_owned(), |by| board.side_name(by));
            (
                format!("Siege losses at {city}: {who}"),
                format!(
                    "{who} took {city}: the besieger loses a fifth of {} force inside, rounded up. Choose {n} of {} elements at {city} to lose (MG-28).",
                    referee_campaign::core::words::owner_of(&inside),
                    referee_campaign::core::words::owner_of(&who)
                ),
                "MG-28",
            )
        };
        let pool = LossPool {
            id: ("siege_losses", f.side.as_str()),
            title,
            intro,
            note: "A general is lost only with his whole command: tick \"lost whole\" for that.".to_owned(),
            commands: f
                .counters
                .iter()
                .filter(|c| d.may_take_from(c))
                .filter_map(|c| Some((roster_named(f, &c.name)?, c.inside.then_some("inside the walls"))))
                .collect(),
            empty: "No command of this side stands at the node.",
            whole: "lost",
            due: d.elements,
            rule,
            top: 90.0,
        };
        let form = forms.entry(f.side.clone()).or_default();
        if let Some((lost, sunk)) = losses_window_ui(ctx, &pool, form, message) {
            run(commands, Order::AllocateSiegeLosses { side: f.side.clone(), lost, sunk });
        }
    }
}

// ---------------------------------------------------------------------------------------
// In the right panel: Hiero's offer, retreats, landing
