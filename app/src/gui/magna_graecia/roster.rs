//! The roster editor (MG-03): a working copy of one side's army, edited command by command
//! during setup, priced live from the scenario's points table and checked with the same
//! [`ElementTable::check`] the rules use. "Save roster" sends `SetArmy`, which the rules
//! check again; "Cancel" drops the copy. Nothing here touches the campaign.

use egui::{Align, Align2, Layout, RichText};
use referee_campaign::core::words::count;
use referee_campaign::magna_graecia::army::{
    Army, ArmyProblem, Class, CommandRoster, ElementGroup, ElementSpec, ElementTable, Grade, Rank,
};
use referee_campaign::{SideId, magna_graecia::order::Order};

use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::magna_graecia::command::run;
use crate::gui::shell::command::AppCommand;

/// Widths of the element grid's columns, the same in every command so they line up.
const LABEL_W: f32 = 64.0;
const COUNT_W: f32 = 48.0;
const CLASS_W: f32 = 58.0;
const TYPE_W: f32 = 170.0;
const GRADE_W: f32 = 48.0;
const POINTS_W: f32 = 60.0;

const RANKS: [Rank; 3] = [Rank::CInC, Rank::SubGeneral, Rank::AllyGeneral];
const CLASSES: [Class; 2] = [Class::Reg, Class::Irr];
const GRADES: [Grade; 5] = [Grade::S, Grade::O, Grade::I, Grade::F, Grade::X];

/// The editor's working copy of one side's army, kept between frames.
#[derive(Debug, Clone)]
pub(crate) struct RosterEditor {
    pub side: SideId,
    army: Army,
    /// Per command, the group typed in to be added ("2 Reg Ps(O)").
    adding: Vec<String>,
}

/// What the editor needs besides its copy: whose army, what it may cost, and the table it
/// is bought with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RosterData<'a> {
    pub side_name: &'a str,
    /// Points the scenario allows the army (MG-03).
    pub points: u32,
    pub table: &'a ElementTable,
}

/// A change to the army's shape, made once the frame's widgets are drawn.
enum Edit {
    AddCommand,
    RemoveCommand(usize),
    AddGroup(usize, ElementGroup),
    RemoveGroup(usize, usize),
}

impl RosterEditor {
    /// A copy of `army` (or a new, empty army) of `side` to edit.
    pub fn new(side: SideId, army: Option<&Army>) -> Self {
        let army =
            army.cloned().unwrap_or_else(|| Army { side: side.clone(), list: String::new(), note: String::new(), commands: Vec::new() });
        RosterEditor { adding: vec![String::new(); army.commands.len()], side, army }
    }

    fn apply(&mut self, edit: Edit, table: &ElementTable) {
        match edit {
            Edit::AddCommand => {
                let name = (self.army.commands.len() + 1..)
                    .map(|n| format!("Order {n}"))
                    .find(|n| !self.army.commands.iter().any(|c| &c.name == n))
                    .unwrap_or_default();
                let has_chief = self.army.commands.iter().any(|c| c.rank == Rank::CInC);
                self.army.commands.push(CommandRoster {
                    name,
                    rank: if has_chief { Rank::SubGeneral } else { Rank::CInC },
                    general: default_spec(table, "Cv"),
                    elements: Vec::new(),
                });
                self.adding.push(String::new());
            }
            Edit::RemoveCommand(i) if i < self.army.commands.len() => {
                self.army.commands.remove(i);
                self.adding.remove(i);
            }
            Edit::AddGroup(i, group) => {
                if let Some(c) = self.army.commands.get_mut(i) {
                    // The same kind again adds to its group rather than making a second one.
                    match c.elements.iter_mut().find(|g| g.spec == group.spec) {
                        Some(g) => g.count += group.count,
                        None => c.elements.push(group),
                    }
                }
                if let Some(text) = self.adding.get_mut(i) {
                    text.clear();
                }
            }
            Edit::RemoveGroup(i, j) => {
                if let Some(c) = self.army.commands.get_mut(i)
                    && j < c.elements.len()
                {
                    c.elements.remove(j);
                }
            }
            Edit::RemoveCommand(_) => {}
        }
    }
}

/// `Reg <code>(O)` if the table prices it, else the first element the table prices.
fn default_spec(table: &ElementTable, code: &str) -> ElementSpec {
    let wanted = ElementSpec { class: Class::Reg, code: code.to_owned(), grade: Grade::O };
    if table.cost(&wanted).is_some() {
        return wanted;
    }
    table
        .types
        .values()
        .find_map(|t| t.costs.first().map(|c| ElementSpec { class: c.class, code: t.code.clone(), grade: c.grade }))
        .unwrap_or(wanted)
}

/// After the type or class changed: the nearest element the table prices, keeping the
/// class and grade where it can (ordinary grade first).
fn fit_spec(table: &ElementTable, spec: &mut ElementSpec) {
    if table.cost(spec).is_some() {
        return;
    }
    let Some(t) = table.types.get(&spec.code) else { return };
    let same_class = |g: Grade| t.costs.iter().find(|c| c.class == spec.class && c.grade == g);
    let pick = same_class(Grade::O)
        .or_else(|| t.costs.iter().find(|c| c.class == spec.class))
        .or_else(|| t.costs.iter().find(|c| c.grade == spec.grade))
        .or_else(|| t.costs.first());
    if let Some(c) = pick {
        spec.class = c.class;
        spec.grade = c.grade;
    }
}

fn grade_name(g: Grade) -> String {
    format!("{g:?}")
}

fn class_name(c: Class) -> String {
    format!("{c:?}")
}

/// "37" with a hover that says how: "12 for Reg Kn(O) + 25 for a C-in-C".
fn general_points(table: &ElementTable, c: &CommandRoster) -> (Option<u32>, String) {
    let element = table.cost(&c.general);
    let rank = table.command_points(&CommandRoster { elements: Vec::new(), ..c.clone() }) - element.unwrap_or(0);
    let how = match element {
        Some(e) => format!("{e} for the {} element + {rank} for a {}", c.general, c.rank.name()),
        None => format!("{} is not in the points table", c.general),
    };
    (element.map(|e| e + rank), how)
}

/// The class, type and grade of one element, as three combo boxes in three grid cells.
fn spec_ui(ui: &mut egui::Ui, table: &ElementTable, spec: &mut ElementSpec, salt: (usize, usize), access: &str) {
    let before = spec.clone();
    let priced = table.types.get(&spec.code);
    let classes: Vec<Class> =
        CLASSES.into_iter().filter(|c| priced.is_none_or(|t| t.costs.iter().any(|x| x.class == *c)) || *c == spec.class).collect();
    egui::ComboBox::from_id_salt(("class", salt))
        .selected_text(class_name(spec.class))
        .width(CLASS_W)
        .show_ui(ui, |ui| {
            for c in classes {
                ui.selectable_value(&mut spec.class, c, class_name(c));
            }
        })
        .response
        .accessible_name(format!("{access} class"))
        .on_hover_text("Regular or irregular");
    let type_name =
        |code: &str| table.types.get(code).map_or_else(|| format!("{code} (not in the table)"), |t| format!("{code} · {}", t.name));
    egui::ComboBox::from_id_salt(("type", salt))
        .selected_text(type_name(&spec.code))
        .width(TYPE_W)
        .height(420.0)
        .show_ui(ui, |ui| {
            for code in table.types.keys() {
                ui.selectable_value(&mut spec.code, code.clone(), type_name(code));
            }
        })
        .response
        .accessible_name(format!("{access} type"));
    let mut grades: Vec<Grade> =
        GRADES.into_iter().filter(|g| priced.is_some_and(|t| t.costs.iter().any(|x| x.class == spec.class && x.grade == *g))).collect();
    if !grades.contains(&spec.grade) {
        grades.push(spec.grade);
    }
    egui::ComboBox::from_id_salt(("grade", salt))
        .selected_text(grade_name(spec.grade))
        .width(GRADE_W)
        .show_ui(ui, |ui| {
            for g in grades {
                ui.selectable_value(&mut spec.grade, g, grade_name(g));
            }
        })
        .response
        .accessible_name(format!("{access} grade"))
        .on_hover_text("Grades the points table prices for this type and class");
    if *spec != before {
        fit_spec(table, spec);
    }
}

/// A fixed-width cell, so the columns of every command's grid line up.
fn cell(ui: &mut egui::Ui, width: f32, text: impl Into<egui::WidgetText>) -> egui::Response {
    ui.add_sized([width, ui.spacing().interact_size.y], egui::Label::new(text))
}

/// Points of a line, or a red dash where the table has no price.
fn points_text(points: Option<u32>, ui: &egui::Ui) -> RichText {
    match points {
        Some(p) => RichText::new(p.to_string()).strong(),
        None => RichText::new("—").color(ui.visuals().error_fg_color),
    }
}

/// One command: name, rank, points and MP, then its general and element groups in a grid,
/// then a line to add elements.
fn command_ui(ui: &mut egui::Ui, table: &ElementTable, i: usize, command: &mut CommandRoster, adding: &mut String, edits: &mut Vec<Edit>) {
    let title = if command.name.trim().is_empty() { format!("command {}", i + 1) } else { command.name.clone() };
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("{}.", i + 1)).strong().size(15.0));
        ui.add(egui::TextEdit::singleline(&mut command.name).desired_width(190.0).hint_text("name of its counter"))
            .accessible_name(format!("Order {} name", i + 1))
            .on_hover_text("The command's name, which is its counter's name on the map");
        egui::ComboBox::from_id_salt(("rank", i))
            .selected_text(command.rank.name())
            .width(110.0)
            .show_ui(ui, |ui| {
                for r in RANKS {
                    ui.selectable_value(&mut command.rank, r, r.name());
                }
            })
            .response
            .accessible_name(format!("Order {} rank", i + 1))
            .on_hover_text("The general's rank: one C-in-C per army; an ally-general's command is the least reliable");
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            if ui
                .button("Remove command")
                .accessible_name(format!("Remove command {title}"))
                .on_hover_text("Take this command, general and elements, out of the army")
                .clicked()
            {
                edits.push(Edit::RemoveCommand(i));
            }
            ui.add_space(8.0);
            let mp = table.movement_points(command);
            ui.label(RichText::new(format!("{} points · {mp} MP", table.command_points(command))).strong().size(15.0)).on_hover_text(
                "Its points, the general's included, and its movement points: 2 if every element is mounted or psiloi, else 1 (MG-11)",
            );
        });
    });
    egui::Grid::new(("roster_grid", i)).num_columns(7).spacing([8.0, 3.0]).striped(true).show(ui, |ui| {
        let weak = |s: &str| RichText::new(s).weak();
        cell(ui, LABEL_W, "");
        cell(ui, COUNT_W, weak("Count"));
        cell(ui, CLASS_W, weak("Class"));
        cell(ui, TYPE_W, weak("Type"));
        cell(ui, GRADE_W, weak("Grade"));
        cell(ui, POINTS_W, weak("Points"));
        ui.end_row();

        cell(ui, LABEL_W, "General");
        cell(ui, COUNT_W, "1");
        spec_ui(ui, table, &mut command.general, (i, usize::MAX), &format!("{title} general"));
        let (points, how) = general_points(table, command);
        cell(ui, POINTS_W, points_text(points, ui)).on_hover_text(how);
        ui.end_row();

        for (j, group) in command.elements.iter_mut().enumerate() {
            cell(ui, LABEL_W, "");
            let shown = group.to_string();
            ui.add_sized([COUNT_W, ui.spacing().interact_size.y], egui::DragValue::new(&mut group.count).range(1..=99).speed(0.1))
                .accessible_name(format!("{title} group {} count", j + 1))
                .on_hover_text("How many elements: drag, or click and type");
            spec_ui(ui, table, &mut group.spec, (i, j), &format!("{title} group {}", j + 1));
            let points = table.cost(&group.spec).map(|p| p * group.count);
            let each = table.cost(&group.spec).map_or_else(|| "not in the points table".to_owned(), |p| format!("{p} each"));
            cell(ui, POINTS_W, points_text(points, ui)).on_hover_text(each);
            if ui
                .small_button("Remove")
                .accessible_name(format!("Remove {shown} from {title}"))
                .on_hover_text(format!("Take {shown} out of {title}"))
                .clicked()
            {
                edits.push(Edit::RemoveGroup(i, j));
            }
            ui.end_row();
        }
    });
    ui.horizontal(|ui| {
        ui.add_space(LABEL_W + 8.0);
        let parsed = if adding.trim().is_empty() {
            Ok(ElementGroup { count: 1, spec: default_spec(table, "Sp") })
        } else {
            adding.parse::<ElementGroup>()
        };
        ui.add(egui::TextEdit::singleline(adding).desired_width(150.0).hint_text("e.g. 2 Reg Ps(O)"))
            .accessible_name(format!("Elements to add to {title}"))
            .on_hover_text("Type a group like 2 Reg Ps(O), or leave empty to add one element and set it with the lists");
        let add = ui.add_enabled(parsed.is_ok(), egui::Button::new("Add elements")).accessible_name(format!("Add elements to {title}"));
        if add.clicked()
            && let Ok(group) = parsed.clone()
        {
            edits.push(Edit::AddGroup(i, group));
        }
        if let Err(e) = parsed {
            ui.label(RichText::new(e.to_string()).color(ui.visuals().error_fg_color));
        }
    });
}

/// The total against the allowance, what is wrong, and the buttons.
fn footer_ui(ui: &mut egui::Ui, editor: &RosterEditor, data: RosterData<'_>, problems: &[ArmyProblem], commands: &mut Vec<AppCommand>) {
    let red = ui.visuals().error_fg_color;
    let total = data.table.army_points(&editor.army);
    let elements: u32 = editor.army.commands.iter().map(CommandRoster::element_count).sum();
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        let text = RichText::new(format!("{total} of {} points", data.points)).size(20.0).strong();
        ui.label(if total > data.points { text.color(red) } else { text })
            .on_hover_text("What the roster costs, against what the scenario allows the army (MG-03)");
        let left = match data.points.checked_sub(total) {
            Some(0) => "every point spent".to_owned(),
            Some(n) => format!("{n} to spare"),
            None => format!("{} over", total - data.points),
        };
        let n = editor.army.commands.len();
        ui.label(RichText::new(format!("{left} · {} · {}", count(n, "command"), count(elements, "element"))).weak());
    });
    if problems.is_empty() {
        ui.label(RichText::new("Nothing stops this army being fielded (MG-03).").weak());
    } else {
        for p in problems {
            ui.label(RichText::new(format!("– {}", p.message)).color(red));
        }
    }
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        let save = ui
            .add_enabled(problems.is_empty(), egui::Button::new(RichText::new("Save roster").strong()))
            .on_hover_text(format!(
                "Replace {} roster with this one; the log records it (MG-03)",
                referee_campaign::core::words::owner_of(data.side_name)
            ))
            .on_disabled_hover_text("Put right the problems listed above first (MG-03)");
        if save.clicked() {
            run(commands, Order::SetArmy { army: editor.army.clone() });
        }
        if ui.button("Cancel").on_hover_text("Close the editor and forget these changes").clicked() {
            commands.push(MagnaGraeciaCommand::EditRoster(None).into());
        }
    });
    ui.add_space(4.0);
}

/// The editor's window, over the map.
pub(crate) fn roster_editor_ui(ctx: &egui::Context, editor: &mut RosterEditor, data: RosterData<'_>, commands: &mut Vec<AppCommand>) {
    let mut open = true;
    let centre = ctx.content_rect().center();
    let mut edits = Vec::new();
    egui::Window::new(format!("Roster of {}", data.side_name))
        .id(egui::Id::unique("roster_editor"))
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .pivot(Align2::CENTER_CENTER)
        .default_pos(centre)
        .default_size([700.0, 640.0])
        .min_size([640.0, 320.0])
        .show(ctx, |ui| {
            let problems = data.table.check(&editor.army, data.points);
            egui::Panel::bottom("roster_footer").show(ui, |ui| footer_ui(ui, editor, data, &problems, commands));
            egui::CentralPanel::default().show(ui, |ui| {
                ui.horizontal(|ui| {
                    let l = ui.label(RichText::new("Army list").strong());
                    ui.add(
                        egui::TextEdit::singleline(&mut editor.army.list).desired_width(360.0).hint_text("e.g. Early Carthaginian, 277 BC"),
                    )
                    .labelled_by(l.id);
                });
                if data.table.reconstructed {
                    ui.label(RichText::new("Prices from the project's reconstructed points table (?)").weak())
                        .on_hover_text(&data.table.note);
                }
                ui.add_space(4.0);
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                    let RosterEditor { army, adding, .. } = editor;
                    for (i, (command, adding)) in army.commands.iter_mut().zip(adding.iter_mut()).enumerate() {
                        ui.separator();
                        command_ui(ui, data.table, i, command, adding, &mut edits);
                        ui.add_space(4.0);
                    }
                    ui.separator();
                    if ui.button("Add command").on_hover_text("A new command, with a counter of its own").clicked() {
                        edits.push(Edit::AddCommand);
                    }
                });
            });
        });
    for edit in edits {
        editor.apply(edit, data.table);
    }
    if !open {
        commands.push(MagnaGraeciaCommand::EditRoster(None).into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> ElementTable {
        referee_campaign::magna_graecia::catalog::Catalog::embedded().scenario("pyrrhic").unwrap().elements.clone()
    }

    #[test]
    fn a_changed_type_keeps_a_priced_class_and_grade() {
        let table = table();
        let mut spec: ElementSpec = "Reg Sp(O)".parse().unwrap();
        spec.code = "Kn".into();
        fit_spec(&table, &mut spec);
        assert_eq!(spec.to_string(), "Reg Kn(O)");
        let mut spec: ElementSpec = "Reg Kn(X)".parse().unwrap();
        spec.code = "Cv".into();
        fit_spec(&table, &mut spec);
        assert_eq!(spec.to_string(), "Reg Cv(O)", "Cv has no X grade: the ordinary one");
    }

    #[test]
    fn adding_the_same_kind_again_grows_its_group() {
        let table = table();
        let army = referee_campaign::magna_graecia::catalog::Catalog::embedded()
            .scenario("pyrrhic")
            .unwrap()
            .armies
            .iter()
            .find(|a| a.side.as_str() == "pyrrhus")
            .cloned();
        let mut editor = RosterEditor::new(SideId::new("pyrrhus"), army.as_ref());
        let before = editor.army.commands[2].elements.len();
        editor.apply(Edit::AddGroup(2, "2 Reg Ps(O)".parse().unwrap()), &table);
        assert_eq!(editor.army.commands[2].elements.len(), before, "Helenus has Reg Ps(O) already");
        editor.apply(Edit::AddCommand, &table);
        assert_eq!(editor.army.commands.len(), 5);
        assert_eq!(editor.army.commands[4].rank, Rank::SubGeneral);
        assert_eq!(editor.adding.len(), 5);
        editor.apply(Edit::RemoveCommand(0), &table);
        assert_eq!((editor.army.commands.len(), editor.adding.len()), (4, 4));
    }
}
