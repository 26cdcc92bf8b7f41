//! The orders of play beyond moving: the battle result form (MG-20, MG-23, MG-30, MG-31, MG-15),
//! the losses at sea a beaten fleet's owner chooses (MG-18), the retreats owed after combat
//! (MG-15), Hiero's offer to change sides (MG-35), and the small dialogs for exchanging
//! elements (MG-14) and the capital's garrison (MG-04).
//!
//! The forms keep their entries in the app between frames and draw from the [`View`]; they
//! only push [`AppCommand`]s. The rules check every order again and refuse it in words.

use std::collections::BTreeMap;

use egui::{Align2, RichText};
use referee_campaign::army::{CommandRoster, ElementGroup, Grade, Rank};
use referee_campaign::battle::{BattleResult, CommandLosses, Outcome};
use referee_campaign::siege::LossesDue;
use referee_campaign::turn::{FLEET, Phase};
use referee_campaign::view::{BattleMark, Board, Forces, View, Viewer};
use referee_campaign::{Command, DiceInput, Map, NodeId, SideId};

use super::app::{AppCommand, CounterRef, Message};
use super::map::{self, side_colour};
use super::packs::{PackForm, PackSettings};
use super::table::TableForm;

/// A dialog the referee may open over the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    /// The result form of this battle (umpire only).
    BattleResult(u32),
    /// Hand elements from this command to another in its node (MG-14).
    Exchange(CounterRef),
    /// Move elements between this command and its capital's garrison (MG-04).
    Garrison(CounterRef),
    /// End the campaign early, as the sides agree (umpire only, MG-32).
    EndCampaign,
    /// Set the table of this battle and roll its weather (umpire only, MG-21, MG-22).
    SetTable(u32),
    /// Write the battle pack of this battle, or of every battle due (umpire only, X-04).
    BattlePack(Option<u32>),
}

/// The open dialog with its entries, kept between frames.
#[derive(Debug, Clone)]
pub(crate) enum DialogForm {
    Battle(BattleForm),
    Exchange(ExchangeForm),
    Garrison(GarrisonForm),
    EndCampaign(EndForm),
    Table(TableForm),
    Pack(PackForm),
}

impl DialogForm {
    /// The form for `dialog`, filled from what the viewer sees; `None` when the view has
    /// nothing to fill it with (a battle gone, a counter the viewer does not own). A pack
    /// window opens with the last pack settings.
    pub fn new(dialog: &Dialog, view: &View, pack: &PackSettings) -> Option<DialogForm> {
        match dialog {
            Dialog::BattleResult(id) => {
                let View::Umpire(_) = view else { return None };
                let battle = view.board().battles.iter().find(|b| b.id == *id)?;
                Some(DialogForm::Battle(BattleForm::new(view, battle)))
            }
            Dialog::Exchange(c) => {
                roster_of(view, c)?;
                Some(DialogForm::Exchange(ExchangeForm { from: c.clone(), to: None, counts: Vec::new() }))
            }
            Dialog::Garrison(c) => {
                roster_of(view, c)?;
                Some(DialogForm::Garrison(GarrisonForm { command: c.clone(), into: true, counts: Vec::new() }))
            }
            Dialog::EndCampaign => {
                let View::Umpire(_) = view else { return None };
                matches!(view.board().phase, Phase::Movement | Phase::Combat | Phase::PostCombat)
                    .then(|| DialogForm::EndCampaign(EndForm::default()))
            }
            Dialog::SetTable(id) => {
                let View::Umpire(_) = view else { return None };
                let battle = view.board().battles.iter().find(|b| b.id == *id)?;
                Some(DialogForm::Table(TableForm::new(battle)))
            }
            Dialog::BattlePack(id) => {
                let View::Umpire(_) = view else { return None };
                let battles = &view.board().battles;
                let known = match id {
                    Some(id) => battles.iter().any(|b| b.id == *id),
                    None => !battles.is_empty(),
                };
                known.then(|| DialogForm::Pack(PackForm::new(*id, pack.clone())))
            }
        }
    }

    /// Whether a command the rules just took was this form's, so the form is done.
    pub fn done_by(&self, command: &Command) -> bool {
        matches!(
            (self, command),
            (DialogForm::Battle(_), Command::RecordBattleResult { .. })
                | (DialogForm::Exchange(_), Command::Exchange { .. })
                | (DialogForm::Garrison(_), Command::Garrison { .. })
                | (DialogForm::EndCampaign(_), Command::EndCampaign { .. })
                | (DialogForm::Table(_), Command::SetUpTable { .. })
        )
    }
}

fn side_name(board: &Board, side: &SideId) -> String {
    board.side(side).map_or_else(|| side.to_string(), |s| s.name.clone())
}

fn node_label(map: &Map, n: NodeId) -> String {
    map.node(n).map_or_else(|| n.to_string(), |x| x.label())
}

fn forces_of<'a>(view: &'a View, side: &SideId) -> Option<&'a Forces> {
    view.forces().into_iter().find(|f| &f.side == side)
}

/// A command's roster, if the viewer sees it.
fn roster_of<'a>(view: &'a View, c: &CounterRef) -> Option<&'a CommandRoster> {
    forces_of(view, &c.side)?.army.as_ref()?.commands.iter().find(|r| r.name == c.name)
}

fn swatch_ui(ui: &mut egui::Ui, board: &Board, side: &SideId) {
    if let Some(s) = board.side(side) {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
        map::paint_swatch(ui.painter(), rect, side_colour(s), s.pattern);
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// The groups picked with counts above zero.
fn picked(groups: &[ElementGroup], counts: &[u32]) -> Vec<ElementGroup> {
    groups.iter().zip(counts).filter(|(_, n)| **n > 0).map(|(g, n)| ElementGroup { count: *n, spec: g.spec.clone() }).collect()
}

/// A count of one group, from 0 to `max`, named for screen readers and tests.
fn count_ui(ui: &mut egui::Ui, value: &mut u32, max: u32, name: String, enabled: bool) -> egui::Response {
    *value = (*value).min(max);
    ui.add_enabled(enabled, egui::DragValue::new(value).range(0..=max).speed(0.1)).accessible_name(name)
}

/// The refusal of the last order, in red inside the form that sent it.
fn refusal_ui(ui: &mut egui::Ui, message: Option<&Message>) {
    if let Some(m) = message.filter(|m| m.is_error) {
        ui.add(egui::Label::new(RichText::new(&m.text).color(ui.visuals().error_fg_color)).wrap());
    }
}

fn dialog_window(title: String, id: &str, ctx: &egui::Context) -> egui::Window<'static> {
    egui::Window::new(title)
        .id(egui::Id::unique(id))
        .collapsible(false)
        .resizable(true)
        .pivot(Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
}

// ---------------------------------------------------------------------------------------
// The battle result form

/// One command's losses as the referee enters them.
#[derive(Debug, Clone)]
pub(crate) struct LossEntry {
    side: SideId,
    name: String,
    groups: Vec<ElementGroup>,
    destroyed: Vec<u32>,
    fled: Vec<u32>,
    general_killed: bool,
    demoralised: bool,
    /// Declared demoralised by its own side (MG-23).
    voluntary: bool,
    join: Option<String>,
    /// One of the city's own commands (MG-05, MG-07), not a counter of the side.
    city: bool,
    /// Led by an allied general (MG-23: its side may not declare it demoralised).
    ally: bool,
}

impl LossEntry {
    fn new(side: &SideId, name: &str, groups: Vec<ElementGroup>, city: bool, ally: bool) -> LossEntry {
        LossEntry {
            side: side.clone(),
            name: name.to_owned(),
            destroyed: vec![0; groups.len()],
            fled: vec![0; groups.len()],
            groups,
            general_killed: false,
            demoralised: false,
            voluntary: false,
            join: None,
            city,
            ally,
        }
    }

    fn dice(&self) -> u32 {
        self.destroyed.iter().chain(&self.fled).sum::<u32>() + u32::from(self.general_killed)
    }

    fn losses(&self) -> Option<CommandLosses> {
        let destroyed = picked(&self.groups, &self.destroyed);
        let fled = picked(&self.groups, &self.fled);
        let any = !destroyed.is_empty() || !fled.is_empty() || self.general_killed || self.demoralised || self.voluntary;
        any.then(|| CommandLosses {
            side: self.side.clone(),
            command: self.name.clone(),
            destroyed,
            fled,
            general_killed: self.general_killed,
            demoralised: self.demoralised,
            voluntary: self.voluntary,
            join: self.join.clone().filter(|_| self.general_killed),
        })
    }
}

/// The result form's entries (MG-20).
#[derive(Debug, Clone)]
pub(crate) struct BattleForm {
    pub battle: u32,
    node: NodeId,
    sides: Vec<SideId>,
    /// Nothing picked yet, a winner, or no result (MG-25).
    outcome: Option<Outcome>,
    /// `None`: the winner held the field.
    held_field: Option<SideId>,
    entries: Vec<LossEntry>,
    /// Per side, each neighbouring node and whether its road was still open.
    roads: BTreeMap<SideId, Vec<(NodeId, bool)>>,
    /// The side that attacked the neutral city of the node during the battle (MG-08).
    city_attacked_by: Option<SideId>,
}

impl BattleForm {
    fn new(view: &View, battle: &BattleMark) -> BattleForm {
        let sides: Vec<SideId> = std::iter::once(battle.attacker.clone()).chain(battle.defenders.iter().cloned()).collect();
        let mut entries = Vec::new();
        for side in &sides {
            let Some(f) = forces_of(view, side) else { continue };
            for c in f.counters.iter().filter(|c| c.node == battle.node && c.on_land()) {
                let roster = f.army.as_ref().and_then(|a| a.commands.iter().find(|r| r.name == c.name));
                let groups = roster.map(|r| r.elements.clone()).unwrap_or_default();
                let ally = roster.is_some_and(|r| r.rank == Rank::AllyGeneral);
                entries.push(LossEntry::new(side, &c.name, groups, false, ally));
            }
            // MG-05, MG-07: the commands of a city allied to this side fight beside its
            // counters (or alone, for a city attacked by the other side), as they stand now.
            for roster in f.allied_city_commands.get(&battle.id).into_iter().flatten() {
                entries.push(LossEntry::new(side, &roster.name, roster.elements.clone(), true, false));
            }
        }
        BattleForm {
            battle: battle.id,
            node: battle.node,
            sides,
            outcome: None,
            held_field: None,
            entries,
            roads: BTreeMap::new(),
            city_attacked_by: None,
        }
    }

    fn winner(&self) -> Option<&SideId> {
        match &self.outcome {
            Some(Outcome::Won { winner }) => Some(winner),
            _ => None,
        }
    }

    fn losers(&self, board: &Board) -> Vec<SideId> {
        let Some(w) = self.winner() else { return Vec::new() };
        self.sides.iter().filter(|s| board.are_enemies(w, s)).cloned().collect()
    }

    /// Recovery dice the result will roll (MG-30): one per lost or fled element and one per
    /// killed general.
    fn dice_needed(&self) -> u32 {
        self.entries.iter().map(LossEntry::dice).sum()
    }

    fn result(&self, board: &Board) -> Result<BattleResult, String> {
        let outcome = self.outcome.clone().ok_or("pick the winner, or no result")?;
        let open_roads = self
            .losers(board)
            .into_iter()
            .filter_map(|s| {
                let roads = self.roads.get(&s)?;
                // All open is what the rules assume for a side not listed.
                (!roads.iter().all(|(_, open)| *open)).then(|| (s, roads.iter().filter(|(_, o)| *o).map(|(n, _)| *n).collect()))
            })
            .collect();
        Ok(BattleResult {
            battle: self.battle,
            outcome,
            held_field: self.held_field.clone(),
            losses: self.entries.iter().filter_map(LossEntry::losses).collect(),
            open_roads,
            // Only a neutral city can be attacked in a battle between others (MG-08).
            city_attacked_by: self.city_attacked_by.clone().filter(|_| board.is_neutral_city(self.node)),
        })
    }
}

/// What the form needs besides its entries.
pub(crate) struct BattleFormData<'a> {
    pub map: &'a Map,
    pub view: &'a View,
    /// The roll form's typed-in values: the players' recovery dice, or why they do not read.
    pub dice: Result<DiceInput, String>,
    pub message: Option<&'a Message>,
}

/// The "Enter result" window of one battle. Closing it drops the entries.
pub(crate) fn battle_form_ui(ctx: &egui::Context, form: &mut BattleForm, data: &BattleFormData<'_>, commands: &mut Vec<AppCommand>) {
    let board = data.view.board();
    let mut open = true;
    let title = format!("Battle {} at {} — result", form.battle, data.map.name(form.node));
    dialog_window(title, "battle_result", ctx)
        .open(&mut open)
        .default_size([200.0 + 300.0 * form.sides.len() as f32, (ctx.content_rect().height() - 120.0).clamp(320.0, 640.0)])
        .min_width(480.0)
        .show(ctx, |ui| {
            egui::Panel::bottom("battle_result_footer").show(ui, |ui| battle_footer_ui(ui, form, data, commands));
            egui::CentralPanel::default().show(ui, |ui| {
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| battle_body_ui(ui, form, data.map, board));
            });
        });
    if !open {
        commands.push(AppCommand::OpenDialog(None));
    }
}

fn battle_body_ui(ui: &mut egui::Ui, form: &mut BattleForm, map: &Map, board: &Board) {
    let outcome_name = |o: &Option<Outcome>| match o {
        None => "pick the winner".to_owned(),
        Some(Outcome::Won { winner }) => side_name(board, winner),
        Some(Outcome::NoResult {}) => "no result (MG-25)".to_owned(),
    };
    egui::Grid::new("battle_outcome").num_columns(2).spacing([10.0, 6.0]).show(ui, |ui| {
        let l = ui.label(RichText::new("Winner").strong());
        egui::ComboBox::from_id_salt("battle_winner")
            .selected_text(outcome_name(&form.outcome))
            .width(160.0)
            .show_ui(ui, |ui| {
                for s in &form.sides {
                    ui.selectable_value(&mut form.outcome, Some(Outcome::Won { winner: s.clone() }), side_name(board, s));
                }
                ui.selectable_value(&mut form.outcome, Some(Outcome::NoResult {}), "no result (MG-25)").on_hover_text(
                    "Night, both armies broken in one bound, or mutual consent: each side then writes stay or retire (MG-25)",
                );
            })
            .response
            .labelled_by(l.id)
            .on_hover_text("The side that won on the table (MG-20); its enemies in the battle retreat (MG-15)");
        ui.end_row();
        let l = ui.label("Held the field");
        egui::ComboBox::from_id_salt("battle_held")
            .selected_text(match (&form.held_field, form.winner()) {
                (Some(s), _) => side_name(board, s),
                (None, Some(w)) => format!("{} (the winner)", side_name(board, w)),
                (None, None) => "the winner (if any)".to_owned(),
            })
            .width(160.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.held_field, None, "the winner");
                for s in &form.sides {
                    ui.selectable_value(&mut form.held_field, Some(s.clone()), side_name(board, s));
                }
            })
            .response
            .labelled_by(l.id)
            .on_hover_text("+2 to its recovery rolls (MG-30); normally the winner");
        ui.end_row();
        if board.is_neutral_city(form.node) {
            let city = map.name(form.node);
            let l = ui.label("The city was attacked by");
            egui::ComboBox::from_id_salt("battle_city_attacked")
                .selected_text(form.city_attacked_by.as_ref().map_or_else(|| "none".to_owned(), |s| side_name(board, s)))
                .width(160.0)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut form.city_attacked_by, None, "none");
                    for s in &form.sides {
                        ui.selectable_value(&mut form.city_attacked_by, Some(s.clone()), side_name(board, s));
                    }
                })
                .response
                .labelled_by(l.id)
                .on_hover_text(format!(
                    "{city} is neutral and keeps out of the battle, unless a side attacked it on the table: then it joins the side that did not (MG-08)"
                ));
            ui.end_row();
        }
    });
    ui.add_space(6.0);
    ui.separator();
    // The sides side by side, as on an umpire's sheet.
    let sides = form.sides.clone();
    let losers = form.losers(board);
    ui.columns(sides.len(), |columns| {
        for (ui, side) in columns.iter_mut().zip(&sides) {
            ui.horizontal(|ui| {
                swatch_ui(ui, board, side);
                let role = if *side == sides[0] { "attacker" } else { "defender" };
                ui.label(RichText::new(format!("{} ({role})", side_name(board, side))).strong().size(15.0));
            });
            let own: Vec<(String, bool)> = form.entries.iter().filter(|e| &e.side == side).map(|e| (e.name.clone(), e.city)).collect();
            if own.is_empty() {
                ui.label(RichText::new("No command of this side stands here.").weak());
            }
            for entry in form.entries.iter_mut().filter(|e| &e.side == side) {
                // A lost general's elements join a command of his own kind: the side's with
                // the side's, the city's with the city's.
                let peers: Vec<String> = own.iter().filter(|(_, city)| *city == entry.city).map(|(n, _)| n.clone()).collect();
                loss_entry_ui(ui, entry, &peers);
            }
            if losers.contains(side) {
                let roads = form.roads.entry(side.clone()).or_insert_with(|| map.neighbours(form.node).map(|n| (n, true)).collect());
                ui.add_space(6.0);
                ui.label(RichText::new("Roads still open").strong())
                    .on_hover_text("The loser's retreat must begin by one of these (MG-15); all are open unless cut on the table");
                for (n, open) in roads.iter_mut() {
                    let label = node_label(map, *n);
                    ui.checkbox(open, &label).accessible_name(format!("Road to {label} open for {}", side_name(board, side)));
                }
            }
        }
    });
}

fn loss_entry_ui(ui: &mut egui::Ui, e: &mut LossEntry, own: &[String]) {
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new(&e.name).strong());
        if e.city {
            ui.label(RichText::new("the city's command").italics())
                .on_hover_text("One of the city's own commands (MG-05): it fights for the side the attacked city turned to (MG-07)");
        }
    });
    ui.push_id(("losses", e.side.as_str(), e.name.as_str()), |ui| {
        if !e.groups.is_empty() {
            egui::Grid::new(("loss_grid", e.side.as_str(), e.name.as_str())).num_columns(3).spacing([12.0, 3.0]).show(ui, |ui| {
                ui.label(RichText::new("Elements").weak());
                ui.label(RichText::new("destroyed").weak());
                ui.label(RichText::new("fled").weak())
                    .on_hover_text("Inferior elements that fled off the table count as lost and roll for recovery (MG-26)");
                ui.end_row();
                for i in 0..e.groups.len() {
                    let g = &e.groups[i];
                    ui.label(g.to_string());
                    let (d, f) = (e.destroyed[i], e.fled[i]);
                    count_ui(ui, &mut e.destroyed[i], g.count - f, format!("{} of {} destroyed", g.spec, e.name), true)
                        .on_hover_text(format!("How many of its {} were destroyed (at most {})", g, g.count));
                    if g.spec.grade == Grade::I {
                        count_ui(ui, &mut e.fled[i], g.count - d, format!("{} of {} fled", g.spec, e.name), true)
                            .on_hover_text("Inferior elements that fled off a table edge (MG-26)");
                    } else {
                        ui.label(RichText::new("—").weak())
                            .on_hover_text("Only inferior (I) elements count as lost when they flee (MG-26)");
                    }
                    ui.end_row();
                }
            });
        }
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut e.general_killed, "general killed")
                .accessible_name(format!("General of {} killed", e.name))
                .on_hover_text("The general rolls for recovery too, +1 as a command element (MG-30, MG-31)");
            ui.checkbox(&mut e.demoralised, "demoralised").accessible_name(format!("{} demoralised", e.name));
            // MG-23: a side may declare only its own commands demoralised, not allied ones.
            let allied = e.city || e.ally;
            if allied {
                e.voluntary = false;
            }
            let why = if e.city { "a city's command" } else { "led by an allied general" };
            ui.add_enabled(!allied, egui::Checkbox::new(&mut e.voluntary, "declared demoralised (MG-23)"))
                .accessible_name(format!("{} declared demoralised", e.name))
                .on_hover_text("Its own side declared it demoralised at the end of a bound: demoralised for good (MG-23)")
                .on_disabled_hover_text(format!(
                    "{} is {why}: only a side's own commands may be declared demoralised, not allied ones (MG-23)",
                    e.name
                ));
            if e.general_killed {
                let others: Vec<&String> = own.iter().filter(|n| **n != e.name).collect();
                let l = ui.label("if lost, joins");
                egui::ComboBox::from_id_salt(("join", e.side.as_str(), e.name.as_str()))
                    .selected_text(e.join.clone().unwrap_or_else(|| "nobody: leaderless".to_owned()))
                    .width(150.0)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut e.join, None, "nobody: leaderless");
                        for n in others {
                            ui.selectable_value(&mut e.join, Some(n.clone()), n);
                        }
                    })
                    .response
                    .labelled_by(l.id)
                    .on_hover_text("If the general is lost for good his elements join this command; without one the command fights on leaderless (MG-31)");
            }
        });
    });
}

fn battle_footer_ui(ui: &mut egui::Ui, form: &mut BattleForm, data: &BattleFormData<'_>, commands: &mut Vec<AppCommand>) {
    let board = data.view.board();
    let red = ui.visuals().error_fg_color;
    ui.add_space(4.0);
    let need = form.dice_needed();
    let dice_line = format!("Recovery dice: {} (one per lost element, one per killed general)", plural(need, "die", "dice"));
    ui.horizontal_wrapped(|ui| {
        ui.label(dice_line).on_hover_text(
            "Each rolls a d6 (MG-30): type the players' dice into the roll form's typed-in values below the log, in the order listed here, or leave it empty for the seeded dice",
        );
        match &data.dice {
            Ok(DiceInput::Manual(values)) => {
                let n = u32::try_from(values.len()).unwrap_or(u32::MAX);
                let shown: Vec<String> = values.iter().map(u8::to_string).collect();
                let text = RichText::new(format!("typed in: {}", shown.join(" ")));
                ui.label(if n == need { text } else { text.color(red) });
            }
            Ok(_) => {
                ui.label(RichText::new("seeded dice").weak());
            }
            Err(e) => {
                ui.label(RichText::new(e).color(red));
            }
        }
    });
    refusal_ui(ui, data.message);
    let result = form.result(board);
    ui.horizontal(|ui| {
        let record = ui
            .add_enabled(result.is_ok() && data.dice.is_ok(), egui::Button::new(RichText::new("Record result").strong()))
            .on_hover_text("Roll recovery, settle lost generals and set the loser's retreats (MG-20, MG-30, MG-31, MG-15)");
        let record = match (&result, &data.dice) {
            (Err(e), _) | (_, Err(e)) => record.on_disabled_hover_text(e.clone()),
            _ => record,
        };
        if record.clicked()
            && let (Ok(result), Ok(dice)) = (result, data.dice.clone())
        {
            commands.push(AppCommand::Execute(Command::RecordBattleResult { result }, dice));
        }
        if ui.button("Cancel").on_hover_text("Close the form and forget its entries").clicked() {
            commands.push(AppCommand::OpenDialog(None));
        }
    });
    ui.add_space(4.0);
}

// ---------------------------------------------------------------------------------------
// Exchange and garrison

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

/// The groups with a count each, as a grid; the counts follow the groups' length.
fn groups_grid_ui(ui: &mut egui::Ui, salt: &str, groups: &[ElementGroup], counts: &mut Vec<u32>, what: &str) {
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

pub(crate) fn exchange_ui(
    ctx: &egui::Context,
    form: &mut ExchangeForm,
    view: &View,
    message: Option<&Message>,
    commands: &mut Vec<AppCommand>,
) {
    let (Some(forces), Some(roster)) = (forces_of(view, &form.from.side), roster_of(view, &form.from)) else {
        commands.push(AppCommand::OpenDialog(None));
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
                    let command = Command::Exchange { side: form.from.side.clone(), from: form.from.name.clone(), to, elements };
                    commands.push(AppCommand::Execute(command, DiceInput::Seeded));
                }
                if ui.button("Cancel").clicked() {
                    commands.push(AppCommand::OpenDialog(None));
                }
            });
        },
    );
    if !open {
        commands.push(AppCommand::OpenDialog(None));
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
        commands.push(AppCommand::OpenDialog(None));
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
                let command = Command::Garrison {
                    side: form.command.side.clone(),
                    command: form.command.name.clone(),
                    elements,
                    into_garrison: form.into,
                };
                commands.push(AppCommand::Execute(command, DiceInput::Seeded));
            }
            if ui.button("Cancel").clicked() {
                commands.push(AppCommand::OpenDialog(None));
            }
        });
    });
    if !open {
        commands.push(AppCommand::OpenDialog(None));
    }
}

// ---------------------------------------------------------------------------------------
// Losses the owner chooses: at sea (MG-18), and after a siege or disease (MG-28, MG-29)

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

fn roster_named<'a>(f: &'a Forces, name: &str) -> Option<&'a CommandRoster> {
    f.army.as_ref()?.commands.iter().find(|r| r.name == name)
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
        let who = side_name(board, &f.side);
        let pool = LossPool {
            id: ("naval_losses", f.side.as_str()),
            title: format!("Losses at sea: {who}"),
            intro: format!(
                "{who}'s fleet lost a naval battle: choose {} carried aboard to lose (MG-18).",
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
            commands.push(AppCommand::Execute(Command::AllocateNavalLosses { side: f.side.clone(), lost, sunk }, DiceInput::Seeded));
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
        let who = side_name(board, &f.side);
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
                    "Disease struck {who}'s force at {city}: choose {n} of its elements there to lose, a tenth of the force, rounded up (MG-29)."
                ),
                "MG-29",
            )
        } else {
            let inside = d.by.as_ref().map_or_else(|| "the defender".to_owned(), |by| side_name(board, by));
            (
                format!("Siege losses at {city}: {who}"),
                format!(
                    "{who} took {city}: the besieger loses a fifth of {inside}'s force inside, rounded up. Choose {n} of {who}'s elements at {city} to lose (MG-28)."
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
            commands.push(AppCommand::Execute(Command::AllocateSiegeLosses { side: f.side.clone(), lost, sunk }, DiceInput::Seeded));
        }
    }
}

// ---------------------------------------------------------------------------------------
// In the right panel: Hiero's offer, retreats, landing

/// MG-35: while the offer stands, a framed notice with a button per enemy to turn to, for
/// the umpire and the fickle side; other sides read the notice only.
pub(crate) fn switch_offer_ui(ui: &mut egui::Ui, view: &View, viewer: &Viewer, commands: &mut Vec<AppCommand>) {
    let board = view.board();
    let Some((fickle, ally)) = &board.switch_offer else { return };
    let who = side_name(board, fickle);
    let may = match viewer {
        Viewer::Umpire => true,
        Viewer::Side(s) => s == fickle,
    };
    let stroke = egui::Stroke::new(2.0, ui.visuals().warn_fg_color);
    egui::Frame::group(ui.style()).stroke(stroke).inner_margin(8.0).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new(format!("{who} may change sides now")).strong().size(16.0).color(ui.visuals().warn_fg_color));
        ui.add(
            egui::Label::new(format!(
                "{} lost a land battle: {who} may turn on it at once, before this combat phase ends (MG-35).",
                side_name(board, ally)
            ))
            .wrap(),
        );
        if may {
            ui.horizontal_wrapped(|ui| {
                for s in board.sides.iter().filter(|s| board.are_enemies(fickle, &s.id)) {
                    if ui
                        .button(RichText::new(format!("Turn to {}", s.name)).strong())
                        .on_hover_text(format!("{who} leaves {} and fights beside {} from now on", side_name(board, ally), s.name))
                        .clicked()
                    {
                        commands
                            .push(AppCommand::Execute(Command::SwitchSides { side: fickle.clone(), to: s.id.clone() }, DiceInput::Seeded));
                    }
                }
            });
        }
    });
    ui.add_space(6.0);
}

/// MG-15: the beaten fleets and land counters that owe a retreat, with where they may go.
/// A fleet's destinations are the rules' own; a land counter's are its neighbours, and the
/// rules refuse those it may not take.
pub(crate) fn retreats_ui(ui: &mut egui::Ui, map: &Map, view: &View, land: &[CounterRef], commands: &mut Vec<AppCommand>) {
    let board = view.board();
    let fleets: Vec<&Forces> = view.forces().into_iter().filter(|f| !f.fleet_retreats.is_empty()).collect();
    if fleets.is_empty() && land.is_empty() {
        return;
    }
    ui.label(RichText::new(format!("Retreats due ({})", fleets.len() + land.len())).strong().size(16.0));
    let now = board.phase == Phase::PostCombat;
    let not_yet = format!("Retreats are made in post-combat movement; it is the {} phase (MG-15)", board.phase.name());
    for f in fleets {
        let title = format!("{} fleet", side_name(board, &f.side));
        let at = f.counters.iter().find(|c| c.name == FLEET).map(|c| node_label(map, c.node));
        ui.horizontal(|ui| {
            swatch_ui(ui, board, &f.side);
            ui.label(RichText::new(&title).strong());
            if let Some(at) = at {
                ui.label(RichText::new(format!("at {at}")).weak());
            }
        });
        ui.indent(("fleet_retreat", f.side.as_str()), |ui| {
            ui.horizontal_wrapped(|ui| {
                for (to, path) in &f.fleet_retreats {
                    let label = node_label(map, *to);
                    let route: Vec<String> = path.iter().map(|n| node_label(map, *n)).collect();
                    let b = ui
                        .add_enabled(now, egui::Button::new(format!("→ {label}")).small())
                        .accessible_name(format!("Retreat {title} to {label}"))
                        .on_hover_text(format!("By {} (1 to 3 coastal nodes, no enemy fleet)", route.join(" → ")))
                        .on_disabled_hover_text(&not_yet);
                    if b.clicked() {
                        commands.push(AppCommand::Execute(
                            Command::RetreatFleet { side: f.side.clone(), path: path.clone() },
                            DiceInput::Seeded,
                        ));
                    }
                }
            });
        });
    }
    for c in land {
        let Some(node) =
            view.forces().into_iter().find(|f| f.side == c.side).and_then(|f| f.counters.iter().find(|x| x.name == c.name)).map(|x| x.node)
        else {
            continue;
        };
        ui.horizontal(|ui| {
            swatch_ui(ui, board, &c.side);
            ui.label(RichText::new(&c.name).strong());
            ui.label(RichText::new(format!("beaten at {}", node_label(map, node))).weak());
        });
        ui.indent(("land_retreat", c.side.as_str(), c.name.as_str()), |ui| {
            ui.horizontal_wrapped(|ui| {
                for to in map.neighbours(node) {
                    let label = node_label(map, to);
                    let b = ui
                        .add_enabled(now, egui::Button::new(format!("→ {label}")).small())
                        .accessible_name(format!("Retreat {} to {label}", c.name))
                        .on_hover_text("One node by a road still open, into no enemy land counter, where the side has fewer than four counters (MG-15); the rules refuse it otherwise")
                        .on_disabled_hover_text(&not_yet);
                    if b.clicked() {
                        commands.push(AppCommand::Execute(
                            Command::Retreat { side: c.side.clone(), counter: c.name.clone(), path: vec![to] },
                            DiceInput::Seeded,
                        ));
                    }
                }
            });
        });
    }
    ui.add_space(6.0);
    ui.separator();
}

/// MG-36: on its first movement phase a side that starts at sea brings each counter ashore
/// at the selected node.
pub(crate) fn landing_ui(ui: &mut egui::Ui, map: &Map, view: &View, selected: Option<NodeId>, commands: &mut Vec<AppCommand>) {
    let board = view.board();
    if board.phase != Phase::Movement || board.turn != 1 {
        return;
    }
    let Some(f) = forces_of(view, &board.moving) else { return };
    let mut names: Vec<&str> = f.army.iter().flat_map(|a| a.commands.iter().map(|c| c.name.as_str())).collect();
    if f.fleet_np > 0 {
        names.push(FLEET);
    }
    names.retain(|n| !f.counters.iter().any(|c| c.name == *n));
    if names.is_empty() {
        return;
    }
    let who = side_name(board, &f.side);
    ui.label(RichText::new(format!("{who} lands from the sea")).strong().size(16.0))
        .on_hover_text("Each counter comes ashore at a southern coastal node no enemy holds, on the side's first turn (MG-36)");
    let target = selected.map(|n| node_label(map, n));
    ui.horizontal_wrapped(|ui| {
        for name in names {
            let title = if name == FLEET { format!("{who} fleet") } else { name.to_owned() };
            let text = match &target {
                Some(t) => format!("Land {title} at {t}"),
                None => format!("Land {title} at …"),
            };
            let b = ui
                .add_enabled(selected.is_some(), egui::Button::new(text).small())
                .on_hover_text("The rules refuse a node off the southern coast or held by an enemy (MG-36)")
                .on_disabled_hover_text("Select a southern coastal node on the map first");
            if b.clicked()
                && let Some(node) = selected
            {
                commands
                    .push(AppCommand::Execute(Command::Land { side: f.side.clone(), counter: name.to_owned(), node }, DiceInput::Seeded));
            }
        }
    });
    ui.add_space(6.0);
    ui.separator();
}

/// The orders on one of the viewer's commands besides moving, as a compact row: embark or
/// disembark (MG-14), exchange elements (MG-14), the capital's garrison (MG-04).
pub(crate) fn counter_orders_ui(
    ui: &mut egui::Ui,
    map: &Map,
    view: &View,
    forces: &Forces,
    counter: &referee_campaign::turn::Counter,
    commands: &mut Vec<AppCommand>,
) {
    let board = view.board();
    let moving = board.phase == Phase::Movement && board.moving == counter.side;
    // Inside the walls a command neither embarks nor exchanges: it waits or sallies (MG-27).
    if counter.inside {
        return;
    }
    if counter.is_fleet() {
        if moving {
            fleet_orders_ui(ui, map, board, counter, commands);
        }
        return;
    }
    let capital = board.side(&counter.side).and_then(|s| s.capital).filter(|c| c.strength == 0 && c.node == counter.node);
    let garrison_now = capital.is_some() && counter.on_land() && (moving || board.phase == Phase::Setup);
    if counter.is_fleet() || !(moving || garrison_now) {
        return;
    }
    let this = CounterRef { side: counter.side.clone(), name: counter.name.clone() };
    let who = side_name(board, &counter.side);
    ui.horizontal_wrapped(|ui| {
        ui.add_space(28.0);
        if moving {
            if counter.aboard {
                let b = ui
                    .small_button("Disembark")
                    .accessible_name(format!("Disembark {}", counter.name))
                    .on_hover_text("Go ashore where the fleet is; it costs no MP (MG-14)");
                if b.clicked() {
                    commands.push(AppCommand::Execute(
                        Command::Disembark { side: counter.side.clone(), counter: counter.name.clone() },
                        DiceInput::Seeded,
                    ));
                }
            } else {
                let fleet_here = forces.counters.iter().any(|c| c.is_fleet() && c.node == counter.node);
                let b = ui
                    .add_enabled(fleet_here, egui::Button::new("Embark").small())
                    .accessible_name(format!("Embark {}", counter.name))
                    .on_hover_text(format!(
                        "Board the {who} fleet here: 1 MP for each, and the fleet carries 1 element per NP (MG-14, MG-17)"
                    ))
                    .on_disabled_hover_text(format!("No {who} fleet at this node (MG-14)"));
                if b.clicked() {
                    commands.push(AppCommand::Execute(
                        Command::Embark { side: counter.side.clone(), counter: counter.name.clone() },
                        DiceInput::Seeded,
                    ));
                }
            }
            let partner = forces
                .counters
                .iter()
                .any(|c| !c.is_fleet() && c.name != counter.name && c.node == counter.node && c.aboard == counter.aboard);
            let b = ui
                .add_enabled(partner, egui::Button::new("Exchange…").small())
                .accessible_name(format!("Exchange elements of {}…", counter.name))
                .on_hover_text("Hand elements to another command here: 1 MP for each (MG-14)")
                .on_disabled_hover_text(format!("No other {who} command here to exchange with (MG-14)"));
            if b.clicked() {
                commands.push(AppCommand::OpenDialog(Some(Dialog::Exchange(this.clone()))));
            }
            exit_button_ui(ui, map, board, counter, commands);
        }
        if garrison_now {
            let b = ui
                .small_button("Garrison…")
                .accessible_name(format!("Garrison with {}…", counter.name))
                .on_hover_text("Leave elements with the capital's inherent sub-general, or take them back (MG-04)");
            if b.clicked() {
                commands.push(AppCommand::OpenDialog(Some(Dialog::Garrison(this))));
            }
        }
    });
}

/// "Enter result…" beside a battle due, for the umpire.
pub(crate) fn enter_result_button_ui(ui: &mut egui::Ui, view: &View, battle: &BattleMark, commands: &mut Vec<AppCommand>) {
    if !matches!(view, View::Umpire(_)) || battle.awaiting_choices {
        return;
    }
    let now = view.board().phase == Phase::Combat;
    let b = ui
        .add_enabled(now, egui::Button::new("Enter result…"))
        .accessible_name(format!("Enter result of battle {}…", battle.id))
        .on_hover_text("Type in the result of the tabletop game: winner, losses, lost generals, roads still open (MG-20)")
        .on_disabled_hover_text("Results are entered in the combat phase (MG-20)");
    if b.clicked() {
        commands.push(AppCommand::OpenDialog(Some(Dialog::BattleResult(battle.id))));
    }
}

/// MG-25: a battle without a loser waits for each side's written choice; the umpire (or the
/// side itself) enters it. What a side chose stays secret until all have chosen.
pub(crate) fn stay_or_retire_ui(ui: &mut egui::Ui, view: &View, viewer: &Viewer, battle: &BattleMark, commands: &mut Vec<AppCommand>) {
    if !battle.awaiting_choices {
        return;
    }
    let board = view.board();
    ui.indent(("stay_or_retire", battle.id), |ui| {
        ui.label(RichText::new("No result: each side writes stay or retire (MG-25)").italics());
        let sides = std::iter::once(&battle.attacker).chain(&battle.defenders);
        for side in sides {
            let who = side_name(board, side);
            ui.horizontal(|ui| {
                swatch_ui(ui, board, side);
                ui.label(&who);
                if battle.chosen.contains(side) {
                    ui.label(RichText::new("has chosen").weak());
                    return;
                }
                let may = match viewer {
                    Viewer::Umpire => true,
                    Viewer::Side(s) => s == side,
                };
                if !may {
                    ui.label(RichText::new("still choosing").weak());
                    return;
                }
                for (stay, word) in [(true, "Stay"), (false, "Retire")] {
                    let b = ui
                        .small_button(word)
                        .accessible_name(format!("{who} chooses to {} after battle {}", word.to_lowercase(), battle.id))
                        .on_hover_text(if stay {
                            "Hold the field: if every side stays, the battle goes on to a second day"
                        } else {
                            "Retire from the field: the counters retreat in post-combat movement (MG-15)"
                        });
                    if b.clicked() {
                        commands.push(AppCommand::Execute(
                            Command::ChooseStayOrRetire { side: side.clone(), battle: battle.id, stay },
                            DiceInput::Seeded,
                        ));
                    }
                }
            });
        }
    });
}

// ---------------------------------------------------------------------------------------
// Sieges (MG-27), the way home through Messena (MG-34)

/// Whether the viewer may give this side's orders: the umpire all, a side its own.
fn may_order(viewer: &Viewer, side: &SideId) -> bool {
    match viewer {
        Viewer::Umpire => true,
        Viewer::Side(s) => s == side,
    }
}

/// MG-27: beside a battle at a fortified node in the combat phase, "Withdraw into the city"
/// for each defender the viewer speaks for that holds the city. The rules check the
/// besieger's strength and refuse in words.
pub(crate) fn withdraw_ui(ui: &mut egui::Ui, map: &Map, view: &View, viewer: &Viewer, battle: &BattleMark, commands: &mut Vec<AppCommand>) {
    let board = view.board();
    if board.phase != Phase::Combat
        || battle.awaiting_choices
        || battle.day != 1
        || !map.node(battle.node).is_some_and(|n| n.is_fortified())
    {
        return;
    }
    let status = board.node(battle.node);
    let holds = |side: &SideId| {
        status.is_some_and(|s| {
            s.controller.as_ref() == Some(side) || s.allied_to.as_ref() == Some(side) || s.capital_of.as_ref() == Some(side)
        })
    };
    let city = map.name(battle.node);
    let defenders: Vec<&SideId> = battle.defenders.iter().filter(|d| holds(d) && may_order(viewer, d)).collect();
    for side in &defenders {
        let who = side_name(board, side);
        let text = if defenders.len() == 1 { "Withdraw into the city".to_owned() } else { format!("{who}: withdraw into the city") };
        let b = ui.button(text).accessible_name(format!("{who} withdraws into {city} instead of battle {}", battle.id)).on_hover_text(
            "Instead of the battle: all its elements go inside; the besieger needs at least as many effective elements (MG-27)",
        );
        if b.clicked() {
            commands.push(AppCommand::Execute(Command::WithdrawIntoCity { side: (*side).clone(), battle: battle.id }, DiceInput::Seeded));
        }
    }
}

/// MG-27 / MG-29: the siege of the node, if any, in a framed line of the node's panel; in
/// the besieged side's movement phase, "Sally out of …" for the umpire or that side.
pub(crate) fn siege_ui(ui: &mut egui::Ui, map: &Map, view: &View, viewer: &Viewer, node: NodeId, commands: &mut Vec<AppCommand>) {
    let board = view.board();
    let Some(siege) = board.sieges.iter().find(|s| s.node == node) else { return };
    let city = map.name(node);
    let (besieger, defender) = (side_name(board, &siege.besieger), side_name(board, &siege.defender));
    egui::Frame::group(ui.style()).inner_margin(6.0).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            swatch_ui(ui, board, &siege.besieger);
            ui.label(RichText::new(format!("Besieged by {besieger}")).strong())
                .on_hover_text(format!("{defender} is inside the walls of {city}; {besieger} camps outside (MG-27)"));
        });
        let rolls = match siege.rolls {
            0 => "no siege roll yet: the first comes after a full turn (MG-28)".to_owned(),
            n => format!("{} so far: the next gets +{n} (MG-28)", plural(n, "siege roll", "siege rolls")),
        };
        ui.label(rolls);
        if siege.disease {
            ui.label(RichText::new("Disease in the camp and the city (MG-29)").color(ui.visuals().warn_fg_color))
                .on_hover_text("Each side with a force here rolls a d6 in its own turn; on a 1 it loses a tenth of it (MG-29)");
        }
        let now = board.phase == Phase::Movement && board.moving == siege.defender;
        if may_order(viewer, &siege.defender) {
            let b = ui
                .add_enabled(now, egui::Button::new(RichText::new(format!("Sally out of {city}")).strong()))
                .on_hover_text(format!(
                    "{defender} comes out to fight: the siege ends and a battle is raised when its movement ends, {defender} attacking (MG-27)"
                ))
                .on_disabled_hover_text(format!("The besieged sally in {defender}'s own movement phase (MG-27)"));
            if b.clicked() {
                commands.push(AppCommand::Execute(Command::Sally { side: siege.defender.clone(), node }, DiceInput::Seeded));
            }
        }
    });
    ui.add_space(4.0);
}

/// MG-34: in the Pyrrhic War, once Syracuse is out, a Pyrrhic command at Messena may go home
/// in its movement phase, one a turn, for 2 VP.
fn exit_button_ui(ui: &mut egui::Ui, map: &Map, board: &Board, counter: &referee_campaign::turn::Counter, commands: &mut Vec<AppCommand>) {
    let pyrrhus = SideId::new("pyrrhus");
    let port = board.side(&pyrrhus).and_then(|s| s.capital).map(|c| c.node);
    let syracuse_out = board.eliminated.iter().any(|s| s.as_str() == "syracuse");
    if counter.side != pyrrhus || !syracuse_out || port != Some(counter.node) || !counter.on_land() {
        return;
    }
    let port = map.name(counter.node);
    let b = ui
        .small_button(format!("Home through {port} (2 VP)"))
        .accessible_name(format!("Lead {} home through {port}", counter.name))
        .on_hover_text(format!(
            "{} leaves the map for 2 VP: one command a turn, and only while no enemy stands at {port} (MG-34)",
            counter.name
        ));
    if b.clicked() {
        commands
            .push(AppCommand::Execute(Command::ExitMap { side: counter.side.clone(), counter: counter.name.clone() }, DiceInput::Seeded));
    }
}

// ---------------------------------------------------------------------------------------
// The end of the campaign (MG-32)

/// The "End campaign by agreement" dialog's entry.
#[derive(Debug, Clone, Default)]
pub(crate) struct EndForm {
    reason: String,
}

pub(crate) fn end_campaign_ui(ctx: &egui::Context, form: &mut EndForm, message: Option<&Message>, commands: &mut Vec<AppCommand>) {
    let mut open = true;
    dialog_window("End the campaign by agreement".to_owned(), "end_campaign", ctx).open(&mut open).default_width(420.0).show(ctx, |ui| {
        ui.add(
            egui::Label::new("The sides agree to stop here: the campaign ends now and the victory points stand as they are (MG-32).")
                .wrap(),
        );
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let l = ui.label("Reason");
            ui.add(egui::TextEdit::singleline(&mut form.reason).hint_text("e.g. peace of 392 BC").desired_width(300.0))
                .labelled_by(l.id)
                .on_hover_text("A short line for the log: what the sides agreed");
        });
        refusal_ui(ui, message);
        ui.horizontal(|ui| {
            let go = ui
                .add_enabled(!form.reason.trim().is_empty(), egui::Button::new(RichText::new("End campaign").strong()))
                .on_disabled_hover_text("Say what the sides agreed, for the log (MG-32)");
            if go.clicked() {
                commands.push(AppCommand::Execute(Command::EndCampaign { reason: form.reason.trim().to_owned() }, DiceInput::Seeded));
            }
            if ui.button("Cancel").clicked() {
                commands.push(AppCommand::OpenDialog(None));
            }
        });
    });
    if !open {
        commands.push(AppCommand::OpenDialog(None));
    }
}

// ---------------------------------------------------------------------------------------
// Cities and fleets: attacking a neutral city (MG-07), sheltering (MG-19), combined fleets
// (MG-36)

/// MG-19: in its side's movement, "Shelter" under a fleet lying at a walled port. The rules
/// check that the port is friendly and garrisoned and nobody is aboard, and refuse in words.
fn fleet_orders_ui(ui: &mut egui::Ui, map: &Map, board: &Board, fleet: &referee_campaign::turn::Counter, commands: &mut Vec<AppCommand>) {
    let port = map.node(fleet.node).filter(|n| n.is_fortified() && n.coastal);
    if fleet.sheltered || port.is_none() {
        return;
    }
    let who = side_name(board, &fleet.side);
    ui.horizontal_wrapped(|ui| {
        ui.add_space(28.0);
        let b = ui.small_button("Shelter").accessible_name(format!("Shelter the {who} fleet")).on_hover_text(
            "In a friendly walled port with a garrison of yours: it cannot be made to fight; no troops may stay aboard (MG-19)",
        );
        if b.clicked() {
            commands.push(AppCommand::Execute(Command::Shelter { side: fleet.side.clone() }, DiceInput::Seeded));
        }
    });
}

/// MG-07: in the moving side's combat phase, at a neutral walled city where its land
/// counters stand, "Attack the city of …" opens a choice of the enemy the city turns to.
/// The umpire sees it for the moving side, a side only for itself.
pub(crate) fn attack_city_ui(ui: &mut egui::Ui, map: &Map, view: &View, viewer: &Viewer, node: NodeId, commands: &mut Vec<AppCommand>) {
    let board = view.board();
    let side = &board.moving;
    if board.phase != Phase::Combat || !may_order(viewer, side) || !board.is_neutral_city(node) {
        return;
    }
    // A battle or siege there already: the rules would refuse (MG-07).
    if board.battles.iter().any(|b| b.node == node) || board.sieges.iter().any(|s| s.node == node) {
        return;
    }
    if !forces_of(view, side).is_some_and(|f| f.counters.iter().any(|c| c.node == node && c.on_land())) {
        return;
    }
    let city = map.name(node);
    let who = side_name(board, side);
    let foes: Vec<(&SideId, &str)> = board
        .sides
        .iter()
        .filter(|s| board.are_enemies(side, &s.id) && !board.eliminated.contains(&s.id))
        .map(|s| (&s.id, s.name.as_str()))
        .collect();
    let id = egui::Id::unique(("attack_city", node.0));
    let mut open = ui.data(|d| d.get_temp::<bool>(id)).unwrap_or(false);
    let b = ui
        .add(egui::Button::new(RichText::new(format!("Attack the city of {city}…")).strong()).selected(open))
        .on_hover_text("The city joins your enemy and its own commands fight this battle (MG-07)");
    if b.clicked() {
        open = !open;
    }
    if open {
        ui.indent(("attack_city_choice", node.0), |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label("it turns to:");
                for (id, name) in &foes {
                    let b = ui
                        .button(*name)
                        .accessible_name(format!("{city} turns to {name}"))
                        .on_hover_text(format!("{city} becomes {name}'s ally, and its commands fight {who} in a battle here now (MG-07)"));
                    if b.clicked() {
                        let command = Command::AttackCity { side: side.clone(), node, ally: (*id).clone() };
                        commands.push(AppCommand::Execute(command, DiceInput::Seeded));
                        open = false;
                    }
                }
            });
        });
    }
    ui.data_mut(|d| d.insert_temp(id, open));
    ui.add_space(4.0);
}

/// MG-36: in the Second Punic War, where two allied fleets lie in one node, "Combine fleets
/// under …" for each side the viewer speaks for; it is given in that side's movement.
pub(crate) fn combine_fleets_ui(ui: &mut egui::Ui, view: &View, viewer: &Viewer, node: NodeId, commands: &mut Vec<AppCommand>) {
    let board = view.board();
    if board.alliances.is_empty() || board.scenario != "second-punic" {
        return;
    }
    let fleets: Vec<&SideId> = board.counters.iter().filter(|c| c.fleet && c.node == node).map(|c| &c.side).collect();
    let pairs: Vec<(&SideId, &SideId)> = fleets
        .iter()
        .flat_map(|a| fleets.iter().map(move |b| (*a, *b)))
        .filter(|(a, b)| a != b && !board.are_enemies(a, b) && may_order(viewer, a))
        .collect();
    if pairs.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for (side, with) in pairs {
            let (who, other) = (side_name(board, side), side_name(board, with));
            let now = board.phase == Phase::Movement && &board.moving == side;
            let b = ui
                .add_enabled(now, egui::Button::new(format!("Combine fleets under {who}")))
                .on_hover_text(format!(
                    "The {other} fleet joins the {who} fleet as one counter under {who}: it moves in {who}'s phase and carries only {who}'s troops (MG-36)"
                ))
                .on_disabled_hover_text(format!("Fleets combine in the commanding side's movement phase: {who}'s (MG-36)"));
            if b.clicked() {
                commands.push(AppCommand::Execute(Command::CombineFleets { side: side.clone(), with: with.clone() }, DiceInput::Seeded));
            }
        }
    });
    ui.add_space(4.0);
}
