//! Handing elements between two commands in one node (MG-14), and between a command and
//! its capital's garrison (MG-04).

use egui::RichText;
use referee_campaign::magna_graecia::view::View;
use referee_campaign::{magna_graecia::map::Map, magna_graecia::order::Order};

use super::shared::*;
use crate::gui::magna_graecia::command::CounterRef;
use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::magna_graecia::command::run;
use crate::gui::shell::command::{AppCommand, Message};

/// The exchange dialog's entries (MG-14).
#[derive(Debug, Clone)]
pub(crate) struct ExchangeForm {
    from: CounterRef,
    to: Option<String>,
    counts: Vec<u32>,
}

/// The garrison dialog's entries (MG-04).
#[derive(Debug, Clone)]
pub(crate) struct GarrisonForm {
    command: CounterRef,
    /// Into the garrison, or back out of it.
    into: bool,
    counts: Vec<u32>,
}

impl ExchangeForm {
    /// The dialog for handing elements from `from`, nothing chosen yet.
    pub(crate) fn new(from: CounterRef) -> ExchangeForm {
        ExchangeForm { from, to: None, counts: Vec::new() }
    }
}

impl GarrisonForm {
    /// The dialog for `command`'s capital garrison, moving elements into it at first.
    pub(crate) fn new(command: CounterRef) -> GarrisonForm {
        GarrisonForm { command, into: true, counts: Vec::new() }
    }
}

pub(crate) fn exchange_ui(
    ctx: &egui::Context,
    form: &mut ExchangeForm,
    view: &View,
    message: Option<&Message>,
    commands: &mut Vec<AppCommand>,
) {
    let (Some(forces), Some(roster)) = (forces_of(view, &form.from.side), roster_of(view, &form.from)) else {
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
        return;
    };
    let here = forces.counters.iter().find(|c| c.name == form.from.name);
    let partners: Vec<&str> = forces
        .counters
        .iter()
        .filter(|c| here.is_some_and(|h| c.node == h.node && c.aboard == h.aboard) && !c.is_fleet() && c.name != form.from.name)
        .map(|c| c.name.as_str())
        .collect();
    if form.to.as_ref().is_none_or(|t| !partners.contains(&t.as_str())) {
        form.to = partners.first().map(|s| (*s).to_owned());
    }
    let mut open = true;
    dialog_window(format!("Exchange elements from {}", form.from.name), "exchange", ctx).open(&mut open).default_width(380.0).show(
        ctx,
        |ui| {
            ui.horizontal(|ui| {
                let l = ui.label("Hand over to");
                egui::ComboBox::from_id_salt("exchange_to")
                    .selected_text(form.to.clone().unwrap_or_default())
                    .width(170.0)
                    .show_ui(ui, |ui| {
                        for p in &partners {
                            ui.selectable_value(&mut form.to, Some((*p).to_owned()), *p);
                        }
                    })
                    .response
                    .labelled_by(l.id);
            });
            if partners.is_empty() {
                ui.label(
                    RichText::new(format!("No other command stands with {} (MG-14).", form.from.name)).color(ui.visuals().warn_fg_color),
                );
            }
            ui.label(RichText::new(format!("{} keeps its general; 1 MP for each command (MG-14).", form.from.name)).weak());
            ui.add_space(4.0);
            groups_grid_ui(ui, "exchange_grid", &roster.elements, &mut form.counts, "to hand over");
            refusal_ui(ui, message);
            let elements = picked(&roster.elements, &form.counts);
            ui.horizontal(|ui| {
                let go = ui
                    .add_enabled(!elements.is_empty() && form.to.is_some(), egui::Button::new(RichText::new("Hand over").strong()))
                    .on_disabled_hover_text("Pick a command to hand over to and at least one element");
                if go.clicked()
                    && let Some(to) = form.to.clone()
                {
                    let command = Order::Exchange { side: form.from.side.clone(), from: form.from.name.clone(), to, elements };
                    run(commands, command);
                }
                if ui.button("Cancel").clicked() {
                    commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
                }
            });
        },
    );
    if !open {
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
    }
}

pub(crate) fn garrison_ui(
    ctx: &egui::Context,
    map: &Map,
    form: &mut GarrisonForm,
    view: &View,
    message: Option<&Message>,
    commands: &mut Vec<AppCommand>,
) {
    let (Some(forces), Some(roster)) = (forces_of(view, &form.command.side), roster_of(view, &form.command)) else {
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
        return;
    };
    let board = view.board();
    let capital = board.side(&form.command.side).and_then(|s| s.capital).map_or_else(|| "the capital".to_owned(), |c| map.name(c.node));
    let mut open = true;
    dialog_window(format!("Garrison of {capital}"), "garrison", ctx).open(&mut open).default_width(380.0).show(ctx, |ui| {
        let before = form.into;
        ui.horizontal(|ui| {
            ui.radio_value(&mut form.into, true, format!("{} leaves elements", form.command.name));
            ui.radio_value(&mut form.into, false, "take elements out");
        });
        if form.into != before {
            form.counts.clear();
        }
        ui.label(RichText::new(format!("The inherent sub-general of {capital} holds them (MG-04); 1 MP during movement.")).weak());
        ui.add_space(4.0);
        let groups = if form.into { &roster.elements } else { &forces.garrison };
        groups_grid_ui(ui, "garrison_grid", groups, &mut form.counts, if form.into { "into the garrison" } else { "out of the garrison" });
        refusal_ui(ui, message);
        let elements = picked(groups, &form.counts);
        ui.horizontal(|ui| {
            let go = ui
                .add_enabled(!elements.is_empty(), egui::Button::new(RichText::new("Hand over").strong()))
                .on_disabled_hover_text("Pick at least one element");
            if go.clicked() {
                let command = Order::Garrison {
                    side: form.command.side.clone(),
                    command: form.command.name.clone(),
                    elements,
                    into_garrison: form.into,
                };
                run(commands, command);
            }
            if ui.button("Cancel").clicked() {
                commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
            }
        });
    });
    if !open {
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
    }
}

// ---------------------------------------------------------------------------------------
// Losses the owner chooses: at sea (MG-18), and after a siege or disease (MG-28, MG-29)
