//! The log panel under the desk: the campaign's log as the viewer may read it, the refusals
//! since the view changed, the referee's dice form, and undo and redo.

use egui::RichText;
use referee_campaign::ids::SideId;
use referee_campaign::magna_graecia::view::LogLine;

use crate::gui::shell::command::{AppCommand, Message};
use crate::gui::widgets::roll::RollForm;
use crate::gui::widgets::words::for_referee;

/// What Undo and Redo would do, in the referee's words; `None` when there is nothing to do
/// (or a side is looking, who may not read it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct EditLabels {
    pub undo: Option<String>,
    pub redo: Option<String>,
}

/// What the log panel shows, from either engine's view.
#[derive(Debug)]
pub(crate) struct LogData<'a> {
    /// Each line with its number in the viewer's own sequence.
    pub lines: &'a [LogLine],
    /// The campaign's sides, for the roll form.
    pub sides: Vec<(&'a SideId, &'a str)>,
}

/// What the shell adds to the log: undo and redo, the refusals, the hand-over.
#[derive(Debug)]
pub(crate) struct LogShell<'a> {
    pub edit: &'a EditLabels,
    /// Refused orders, each after the number of log lines there were then.
    pub refusals: &'a [(usize, String)],
    /// A side is looking: no referee's rolls, no typed-in dice, no undo.
    pub handed_over: bool,
    /// The start of the commitment to the seed, which every side may read.
    pub commitment: Option<String>,
}

/// The campaign log as the viewer may read it with the refusals since the view changed, the
/// dice form, and undo and redo. `filter`, when not blank, keeps the lines holding it (any
/// case): a word, a side's name, a rule's id such as `BE-12`.
pub(crate) fn log_ui(
    ui: &mut egui::Ui,
    log: &LogData<'_>,
    shell: &LogShell<'_>,
    form: &mut RollForm,
    filter: &mut String,
    message: Option<&Message>,
    commands: &mut Vec<AppCommand>,
) {
    // The dice form and the message line (always there, so nothing moves when a message
    // comes or goes) in a panel of their own at the bottom, which reserves exactly their
    // height; the log fills what is left above them, its newest line in full sight.
    egui::Panel::bottom("log_form").frame(egui::Frame::NONE.inner_margin(egui::Margin::symmetric(0, 4))).show(ui, |ui| {
        if shell.handed_over {
            message_line_ui(ui, None, message);
        } else {
            let parsed = form.command();
            let form_error = parsed.as_ref().err().filter(|_| !form.dice.trim().is_empty()).cloned();
            ui.horizontal_wrapped(|ui| roll_form_ui(ui, log, shell, form, parsed, commands));
            message_line_ui(ui, form_error.as_deref(), message);
        }
    });
    egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            ui.label(RichText::new("Log").strong());
            if let Some(short) = &shell.commitment {
                let dice = ui.add(egui::Button::new(RichText::new(format!("Dice · commitment {short} …")).weak()).frame(false));
                if dice.on_hover_text("The commitment to the seed published when the campaign began: the seed's reveal and the check of every seeded roll").clicked() {
                    commands.push(AppCommand::ShowDice(true));
                }
            } else if !shell.handed_over && ui.add(egui::Button::new(RichText::new("Dice …").weak()).frame(false)).clicked() {
                commands.push(AppCommand::ShowDice(true));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if !filter.is_empty() && ui.small_button("×").on_hover_text("Show every line").clicked() {
                    filter.clear();
                }
                let search = ui.add(egui::TextEdit::singleline(filter).hint_text("text, side or rule (BE-12)").desired_width(200.0));
                let l = ui.label("Filter");
                search.labelled_by(l.id).on_hover_text("Show only the lines holding this, in any case: a word, a side's name, a rule's id");
            });
        });
        let shown = Shown::new(log, shell, filter);
        if let Some(kept) = &shown.kept {
            ui.label(RichText::new(format!("{} of {} lines hold “{}”", kept.len(), log.lines.len(), filter.trim())).weak());
        }
        log_lines_ui(ui, log, shell, &shown);
    });
}

/// The rows the log panel shows: every line with the refusals among them, or, filtered, the
/// lines and refusals holding the filter.
struct Shown {
    /// The rows kept by a filter, in order; `None` when nothing is filtered.
    kept: Option<Vec<LogRow>>,
    rows: usize,
}

impl Shown {
    fn new(log: &LogData<'_>, shell: &LogShell<'_>, filter: &str) -> Shown {
        let all = log.lines.len() + shell.refusals.len();
        let wanted = filter.trim().to_lowercase();
        if wanted.is_empty() {
            return Shown { kept: None, rows: all };
        }
        let holds = |text: &str| text.to_lowercase().contains(&wanted);
        let kept: Vec<LogRow> = (0..all)
            .map(|row| log_row(log.lines.len(), shell.refusals, row))
            .filter(|row| match row {
                LogRow::Line(i) => holds(&log.lines[*i].text),
                LogRow::Refusal(i) => holds(&shell.refusals[*i].1),
            })
            .collect();
        Shown { rows: kept.len(), kept: Some(kept) }
    }

    fn row(&self, log: &LogData<'_>, shell: &LogShell<'_>, row: usize) -> LogRow {
        match &self.kept {
            Some(kept) => kept[row],
            None => log_row(log.lines.len(), shell.refusals, row),
        }
    }
}

/// The log's lines with the refusals where they happened. Only the rows in sight are laid
/// out, one line each (a long line is cut, whole on hover), so a log of 50,000 lines draws as
/// fast as one of 50.
fn log_lines_ui(ui: &mut egui::Ui, log: &LogData<'_>, shell: &LogShell<'_>, shown: &Shown) {
    let red = ui.visuals().error_fg_color;
    let rows = shown.rows;
    // A row is as tall as its tallest part: the number, the text, or a row of widgets.
    let height = ui
        .text_style_height(&egui::TextStyle::Body)
        .max(ui.text_style_height(&egui::TextStyle::Monospace))
        .max(ui.spacing().interact_size.y);
    // Kept at its end while the referee has not scrolled back. egui moves a stuck scroll area
    // to its new end only after laying out the frame, so a new row would stay cut until the
    // next repaint: a change in the rows asks for that repaint at once.
    let rows_id = egui::Id::unique("log_rows");
    if ui.data(|d| d.get_temp::<usize>(rows_id)) != Some(rows) {
        ui.data_mut(|d| d.insert_temp(rows_id, rows));
        ui.ctx().request_repaint();
    }
    let area = egui::ScrollArea::vertical().id_salt("log_scroll").auto_shrink([false, false]).stick_to_bottom(true);
    area.show_rows(ui, height, rows, |ui, range| {
        for row in range {
            ui.horizontal(|ui| match shown.row(log, shell, row) {
                LogRow::Line(i) => {
                    let line = &log.lines[i];
                    ui.label(RichText::new(format!("{:>4}", line.seq)).monospace().weak());
                    let text = for_referee(&line.text);
                    ui.add(egui::Label::new(text.as_str()).truncate()).on_hover_text(text);
                }
                LogRow::Refusal(i) => {
                    ui.label(RichText::new("   ×").monospace().color(red));
                    let text = format!("refused, not stored: {}", shell.refusals[i].1);
                    ui.add(egui::Label::new(RichText::new(&text).color(red)).truncate()).on_hover_text(text);
                }
            });
        }
    });
}

/// One row of the log panel: a line of the log, or a refusal shown after the line it followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LogRow {
    Line(usize),
    Refusal(usize),
}

/// What row `row` shows, with `refusals` (each after that many lines, in order) placed among
/// `lines` lines.
fn log_row(lines: usize, refusals: &[(usize, String)], row: usize) -> LogRow {
    let mut before = 0;
    for (i, (after, _)) in refusals.iter().enumerate() {
        // The refusal's row: its place among the lines, plus the refusals before it.
        let at = (*after).min(lines) + i;
        match at.cmp(&row) {
            std::cmp::Ordering::Equal => return LogRow::Refusal(i),
            std::cmp::Ordering::Less => before += 1,
            std::cmp::Ordering::Greater => break,
        }
    }
    LogRow::Line(row - before)
}

/// The referee's own roll, and undo and redo.
fn roll_form_ui(
    ui: &mut egui::Ui,
    log: &LogData<'_>,
    shell: &LogShell<'_>,
    form: &mut RollForm,
    parsed: Result<AppCommand, String>,
    commands: &mut Vec<AppCommand>,
) {
    ui.label(RichText::new("Roll").strong());
    let l = ui.label("dice");
    ui.add(egui::TextEdit::singleline(&mut form.dice).desired_width(48.0)).labelled_by(l.id);
    let l = ui.label("for");
    ui.add(egui::TextEdit::singleline(&mut form.purpose).hint_text("purpose").desired_width(200.0)).labelled_by(l.id);
    egui::ComboBox::from_id_salt("roll_side")
        .selected_text(form.side.as_ref().map_or("no side".to_owned(), |s| {
            log.sides.iter().find(|(id, _)| *id == s).map_or_else(|| s.to_string(), |(_, name)| (*name).to_owned())
        }))
        .width(100.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut form.side, None, "no side");
            for (id, name) in &log.sides {
                ui.selectable_value(&mut form.side, Some((*id).clone()), *name);
            }
        })
        .response
        .accessible_name("Roll for side")
        .on_hover_text("The side the roll is made for");
    let l = ui.label("typed-in values");
    ui.add(egui::TextEdit::singleline(&mut form.values).hint_text("empty: seeded dice").desired_width(110.0))
        .labelled_by(l.id)
        .on_hover_text("The players' physical dice, e.g. 3 5, for this roll or for the alliance rolls of \"End phase\"; leave empty to roll the campaign's seeded dice");
    ui.checkbox(&mut form.secret, "secret").on_hover_text("Only the umpire (and the side the roll is for) sees it");
    let roll = ui.add_enabled(parsed.is_ok(), egui::Button::new("Roll"));
    if roll.clicked()
        && let Ok(command) = parsed
    {
        commands.push(command);
        form.values.clear();
    }
    ui.separator();
    let undo = ui.add_enabled(shell.edit.undo.is_some(), egui::Button::new("Undo"));
    if let Some(what) = &shell.edit.undo {
        undo.clone().on_hover_text(format!("Undo: {what} (Ctrl+Z)"));
    }
    if undo.clicked() {
        commands.push(AppCommand::Undo);
    }
    let redo = ui.add_enabled(shell.edit.redo.is_some(), egui::Button::new("Redo"));
    if let Some(what) = &shell.edit.redo {
        redo.clone().on_hover_text(format!("Redo: {what} (Ctrl+Shift+Z or Ctrl+Y)"));
    }
    if redo.clicked() {
        commands.push(AppCommand::Redo);
    }
}

/// One line under the log, always there: the dice form's objection, or the last refusal or
/// confirmation, or nothing.
fn message_line_ui(ui: &mut egui::Ui, form_error: Option<&str>, message: Option<&Message>) {
    let red = ui.visuals().error_fg_color;
    let (text, colour) = match (form_error, message) {
        (Some(e), _) => (e.to_owned(), red),
        (None, Some(m)) => (m.text.clone(), if m.is_error { red } else { ui.visuals().text_color() }),
        (None, None) => (" ".to_owned(), ui.visuals().text_color()),
    };
    ui.add(egui::Label::new(RichText::new(text).color(colour)).truncate());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_sit_among_the_log_lines_where_they_happened() {
        let refusals = vec![(0, "a".to_owned()), (2, "b".to_owned()), (2, "c".to_owned()), (9, "d".to_owned())];
        let rows: Vec<LogRow> = (0..7).map(|r| log_row(3, &refusals, r)).collect();
        use LogRow::{Line, Refusal};
        assert_eq!(rows, [Refusal(0), Line(0), Line(1), Refusal(1), Refusal(2), Line(2), Refusal(3)]);
        assert_eq!((0..3).map(|r| log_row(3, &[], r)).collect::<Vec<_>>(), [Line(0), Line(1), Line(2)]);
    }
}
