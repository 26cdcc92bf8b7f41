//! Small pieces every dialog and order panel draws with.

use egui::{Align2, RichText};
use referee_campaign::magna_graecia::army::{CommandRoster, ElementGroup};
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::view::{Board, Forces, View};
use referee_campaign::{DiceInput, NodeId, SideId, magna_graecia::map::Map};

use crate::gui::magna_graecia::command::{CounterRef, MagnaGraeciaCommand};
use crate::gui::magna_graecia::map::{self, side_colour};
use crate::gui::shell::command::AppCommand;
use crate::gui::shell::command::Message;
pub(crate) use crate::gui::widgets::words::may_order;

pub(crate) fn node_label(map: &Map, n: NodeId) -> String {
    map.node(n).map_or_else(|| n.to_string(), |x| x.label())
}

pub(crate) fn forces_of<'a>(view: &'a View, side: &SideId) -> Option<&'a Forces> {
    view.forces().into_iter().find(|f| &f.side == side)
}

/// A command's roster, if the viewer sees it.
pub(crate) fn roster_of<'a>(view: &'a View, c: &CounterRef) -> Option<&'a CommandRoster> {
    forces_of(view, &c.side)?.army.as_ref()?.commands.iter().find(|r| r.name == c.name)
}

pub(crate) fn swatch_ui(ui: &mut egui::Ui, board: &Board, side: &SideId) {
    if let Some(s) = board.side(side) {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
        map::paint_swatch(ui.painter(), rect, side_colour(s), s.pattern);
    }
}

pub(crate) fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// The groups picked with counts above zero.
pub(crate) fn picked(groups: &[ElementGroup], counts: &[u32]) -> Vec<ElementGroup> {
    groups.iter().zip(counts).filter(|(_, n)| **n > 0).map(|(g, n)| ElementGroup { count: *n, spec: g.spec.clone() }).collect()
}

/// A count of one group, from 0 to `max`, named for screen readers and tests.
pub(crate) fn count_ui(ui: &mut egui::Ui, value: &mut u32, max: u32, name: String, enabled: bool) -> egui::Response {
    *value = (*value).min(max);
    ui.add_enabled(enabled, egui::DragValue::new(value).range(0..=max).speed(0.1)).accessible_name(name)
}

/// The refusal of the last order, in red inside the form that sent it.
pub(crate) fn refusal_ui(ui: &mut egui::Ui, message: Option<&Message>) {
    if let Some(m) = message.filter(|m| m.is_error) {
        ui.add(egui::Label::new(RichText::new(&m.text).color(ui.visuals().error_fg_color)).wrap());
    }
}

/// What the roll form holds for a form's `need` dice, beside the line that asks for them: the
/// values typed in (in red while they are not `need`), the seeded dice, or why the typed
/// values cannot be read.
pub(crate) fn typed_dice_ui(ui: &mut egui::Ui, dice: &Result<DiceInput, String>, need: usize) {
    let red = ui.visuals().error_fg_color;
    match dice {
        Ok(DiceInput::Manual(values)) => {
            let shown: Vec<String> = values.iter().map(u8::to_string).collect();
            let text = RichText::new(format!("typed in: {}", shown.join(" ")));
            ui.label(if values.len() == need { text } else { text.color(red) });
        }
        Ok(_) => {
            ui.label(RichText::new("seeded dice").weak());
        }
        Err(e) => {
            ui.label(RichText::new(e).color(red));
        }
    }
}

/// The row that ends a form: `label`, live when the form makes an `order` and the typed
/// `dice` can be read, greyed out otherwise with the reason on hover and in sight after
/// `to` ("To record: …"); clicked, the order goes to the rules with those dice. Then
/// Cancel, which closes the form.
pub(crate) fn submit_row_ui(
    ui: &mut egui::Ui,
    label: &str,
    hover: &str,
    to: &str,
    order: Result<Order, String>,
    dice: &Result<DiceInput, String>,
    commands: &mut Vec<AppCommand>,
) {
    ui.horizontal(|ui| {
        let greyed = order.as_ref().err().or(dice.as_ref().err()).cloned();
        let submit = ui.add_enabled(greyed.is_none(), egui::Button::new(RichText::new(label).strong())).on_hover_text(hover);
        let submit = match &greyed {
            Some(why) => submit.on_disabled_hover_text(why),
            None => submit,
        };
        if submit.clicked()
            && let (Ok(order), Ok(dice)) = (order, dice.clone())
        {
            commands.push(MagnaGraeciaCommand::Execute(order, dice).into());
        }
        if ui.button("Cancel").on_hover_text("Close the form and forget its entries").clicked() {
            commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
        }
        if let Some(why) = greyed {
            ui.label(RichText::new(format!("{to}: {why}")).weak());
        }
    });
}

pub(crate) fn dialog_window(title: String, id: &str, ctx: &egui::Context) -> egui::Window<'static> {
    egui::Window::new(title)
        .id(egui::Id::unique(id))
        .collapsible(false)
        .resizable(true)
        .pivot(Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
}

// ---------------------------------------------------------------------------------------
// The battle result form

pub(crate) fn roster_named<'a>(f: &'a Forces, name: &str) -> Option<&'a CommandRoster> {
    f.army.as_ref()?.commands.iter().find(|r| r.name == name)
}

/// The groups with a count each, as a grid; the counts follow the groups' length.
pub(crate) fn groups_grid_ui(ui: &mut egui::Ui, salt: &str, groups: &[ElementGroup], counts: &mut Vec<u32>, what: &str) {
    counts.resize(groups.len(), 0);
    if groups.is_empty() {
        ui.label(RichText::new("No elements to hand over.").weak());
        return;
    }
    egui::Grid::new(salt).num_columns(2).spacing([12.0, 3.0]).show(ui, |ui| {
        for (g, n) in groups.iter().zip(counts.iter_mut()) {
            ui.label(g.to_string());
            count_ui(ui, n, g.count, format!("{} {what}", g.spec), true);
            ui.end_row();
        }
    });
}
