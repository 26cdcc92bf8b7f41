//! The battle result form (MG-20, MG-23, MG-30, MG-31, MG-15): what each command lost, who
//! held the field, the roads left open, and the recovery dice.

use std::collections::BTreeMap;

use egui::RichText;
use referee_battle_gen::hexmap::HexSystem;
use referee_battle_gen::hexpack::HexTabletop;
use referee_battle_gen::hexresult::tabletop_result;
use referee_battle_gen::hexunits::HexUnits;
use referee_campaign::magna_graecia::army::{ElementGroup, Grade, Rank};
use referee_campaign::magna_graecia::battle::{BattleResult, CommandLosses, Outcome};
use referee_campaign::magna_graecia::state::CampaignState;
use referee_campaign::magna_graecia::view::{BattleMark, Board, View};
use referee_campaign::{DiceInput, NodeId, SideId, magna_graecia::map::Map, magna_graecia::order::Order};

use super::shared::*;
use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::shell::command::{AppCommand, Message};
use crate::gui::widgets::hex_counters::{self, HexCounters};

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
    /// Its general was lost in an earlier battle and not recovered (MG-31).
    headless: bool,
}

impl LossEntry {
    fn new(side: &SideId, name: &str, groups: Vec<ElementGroup>, city: bool, ally: bool, headless: bool) -> LossEntry {
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
            headless,
        }
    }

    /// Every element lost and its general with them, as the rules read it: such a command
    /// cannot take in a lost general's men (MG-31).
    fn loses_whole(&self) -> bool {
        self.losses().is_some_and(|l| l.loses_whole(&self.groups, self.headless))
    }

    /// Still led by its general after the table, as far as the entries say.
    fn led(&self) -> bool {
        !self.headless && !self.general_killed
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
    /// The battle was fought under a hex wargame: its counters lost fill in the losses.
    hex: Option<Box<HexCounters>>,
    /// The hex table the battle's pack was counted by, as kept with it (the built-in one
    /// where it kept none), or why it does not read; read when the form opens.
    pub hex_units: Option<Result<Box<HexUnits>, String>>,
}

/// A hex wargame's counters lost, and the losses they come to written into the form's
/// entries, which the referee can still change after the last tick (AB-08, AC-06).
fn hex_counters(
    system: HexSystem,
    table: Option<&Result<Box<HexUnits>, String>>,
    state: &CampaignState,
    map: &Map,
    battle: u32,
) -> Result<HexCounters, String> {
    let table = match table {
        Some(kept) => *kept.clone()?,
        None => HexUnits::embedded(),
    };
    let view = referee_campaign::magna_graecia::view::umpire_view(state, map, &[]);
    let spec = referee_battle_gen::magna_graecia::umpire_spec(&view, map, &state.scenario.elements, battle).map_err(|e| e.to_string())?;
    Ok(HexCounters::new(HexTabletop::new(system, table), spec))
}

/// The counters lost as each command's losses, written into `entries` (elements destroyed
/// and generals killed; what fled is left as entered).
fn apply_hex(hex: &HexCounters, battle: u32, entries: &mut [LossEntry]) -> Result<(), String> {
    let neutral = tabletop_result(&hex.tabletop, &hex.spec, &hex.result(battle)).map_err(|e| e.to_string())?;
    for e in entries.iter_mut() {
        let line = neutral.sides.iter().filter(|s| s.side == e.side).flat_map(|s| &s.lines).find(|l| l.line == e.name);
        e.general_killed = line.is_some_and(|l| l.general_killed);
        for (i, g) in e.groups.iter().enumerate() {
            let kind = g.spec.to_string();
            let lost = line.and_then(|l| l.destroyed.iter().find(|d| d.kind == kind)).map_or(0, |d| d.count);
            e.destroyed[i] = lost.min(g.count - e.fled[i]);
        }
    }
    Ok(())
}

impl BattleForm {
    pub(crate) fn new(view: &View, battle: &BattleMark) -> BattleForm {
        let sides: Vec<SideId> = std::iter::once(battle.attacker.clone()).chain(battle.defenders.iter().cloned()).collect();
        let mut entries = Vec::new();
        for side in &sides {
            let Some(f) = forces_of(view, side) else { continue };
            for c in f.counters.iter().filter(|c| c.node == battle.node && c.on_land()) {
                let roster = f.army.as_ref().and_then(|a| a.commands.iter().find(|r| r.name == c.name));
                let groups = roster.map(|r| r.elements.clone()).unwrap_or_default();
                let ally = roster.is_some_and(|r| r.rank == Rank::AllyGeneral);
                let headless = f.leaderless.contains(&c.name);
                entries.push(LossEntry::new(side, &c.name, groups, false, ally, headless));
            }
            // MG-05, MG-07: the commands of a city allied to this side fight beside its
            // counters (or alone, for a city attacked by the other side), as they stand now.
            for roster in f.allied_city_commands.get(&battle.id).into_iter().flatten() {
                entries.push(LossEntry::new(side, &roster.name, roster.elements.clone(), true, false, false));
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
            hex: None,
            hex_units: None,
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
    /// The campaign as it stands, for a hex wargame's counters.
    pub state: &'a CampaignState,
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
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                    // The outcome first, where the eye lands; then how losses are counted and
                    // each side's losses.
                    outcome_ui(ui, form, data.map, board);
                    hex_losses_ui(ui, form, data);
                    battle_body_ui(ui, form, data.map, board);
                });
            });
        });
    if !open {
        commands.push(MagnaGraeciaCommand::OpenDialog(None).into());
    }
}

/// Who won (or no result), who held the field, and who attacked a neutral city.
fn outcome_ui(ui: &mut egui::Ui, form: &mut BattleForm, map: &Map, board: &Board) {
    let outcome_name = |o: &Option<Outcome>| match o {
        None => "pick the winner".to_owned(),
        Some(Outcome::Won { winner }) => board.side_name(winner),
        Some(Outcome::NoResult {}) => "no result (MG-25)".to_owned(),
    };
    egui::Grid::new("battle_outcome").num_columns(2).spacing([10.0, 6.0]).show(ui, |ui| {
        let l = ui.label(RichText::new("Winner").strong());
        egui::ComboBox::from_id_salt("battle_winner")
            .selected_text(outcome_name(&form.outcome))
            .width(160.0)
            .show_ui(ui, |ui| {
                for s in &form.sides {
                    ui.selectable_value(&mut form.outcome, Some(Outcome::Won { winner: s.clone() }), board.side_name(s));
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
                (Some(s), _) => board.side_name(s),
                (None, Some(w)) => format!("{} (the winner)", board.side_name(w)),
                (None, None) => "the winner (if any)".to_owned(),
            })
            .width(160.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.held_field, None, "the winner");
                for s in &form.sides {
                    ui.selectable_value(&mut form.held_field, Some(s.clone()), board.side_name(s));
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
                .selected_text(form.city_attacked_by.as_ref().map_or_else(|| "none".to_owned(), |s| board.side_name(s)))
                .width(160.0)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut form.city_attacked_by, None, "none");
                    for s in &form.sides {
                        ui.selectable_value(&mut form.city_attacked_by, Some(s.clone()), board.side_name(s));
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
}

/// The sides' losses, side by side as on an umpire's sheet, and the losers' open roads.
fn battle_body_ui(ui: &mut egui::Ui, form: &mut BattleForm, map: &Map, board: &Board) {
    let sides = form.sides.clone();
    let place = map.name(form.node);
    let losers = form.losers(board);
    ui.columns(sides.len(), |columns| {
        for (ui, side) in columns.iter_mut().zip(&sides) {
            ui.horizontal(|ui| {
                swatch_ui(ui, board, side);
                let role = if *side == sides[0] { "attacker" } else { "defender" };
                ui.label(RichText::new(format!("{} ({role})", board.side_name(side))).strong().size(15.0));
            });
            let own: Vec<&LossEntry> = form.entries.iter().filter(|e| &e.side == side).collect();
            if own.is_empty() {
                ui.label(RichText::new("No command of this side stands here.").weak());
            }
            let joins: Vec<Joins> = own.iter().map(|e| Joins::of(e, &own, &board.side_name(side), &place)).collect();
            for (entry, joins) in form.entries.iter_mut().filter(|e| &e.side == side).zip(&joins) {
                loss_entry_ui(ui, entry, joins);
            }
            if losers.contains(side) {
                let roads = form.roads.entry(side.clone()).or_insert_with(|| map.neighbours(form.node).map(|n| (n, true)).collect());
                ui.add_space(6.0);
                ui.label(RichText::new("Roads still open").strong())
                    .on_hover_text("The loser's retreat must begin by one of these (MG-15); all are open unless cut on the table");
                for (n, open) in roads.iter_mut() {
                    let label = node_label(map, *n);
                    ui.checkbox(open, &label).accessible_name(format!("Road to {label} open for {}", board.side_name(side)));
                }
            }
        }
    });
}

/// "Losses counted in": the campaign's elements, or a hex wargame's counters, each counter
/// with the steps it lost; a change writes the losses they come to into the entries below.
fn hex_losses_ui(ui: &mut egui::Ui, form: &mut BattleForm, data: &BattleFormData<'_>) {
    let board = data.view.board();
    let now = form.hex.as_ref().map(|h| h.system());
    let picked = hex_counters::system_ui(ui, now, "campaign elements");
    if picked != now {
        form.hex = match picked {
            None => None,
            Some(system) => match hex_counters(system, form.hex_units.as_ref(), data.state, data.map, form.battle) {
                Ok(h) => Some(Box::new(h)),
                Err(e) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                    None
                }
            },
        };
    }
    let Some(hex) = form.hex.as_mut() else { return };
    ui.label(
        RichText::new(
            "Each counter stands for its share of its own kind in its command: each tick writes the elements destroyed and the generals killed below again; change them by hand after the last tick.",
        )
        .weak(),
    );
    if hex.ui(ui, &|s| board.side_name(s))
        && let Err(e) = apply_hex(hex, form.battle, &mut form.entries)
    {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    ui.separator();
}

/// MG-31: where one command's men may go if its general is lost for good.
struct Joins {
    /// The commands that can take them in, those still led by their generals first: the
    /// form picks the first unless the referee picks another.
    open: Vec<String>,
    /// Commands of their kind that the result loses whole, and so cannot.
    lost_whole: Vec<String>,
    /// "No other Syracuse command at Himera", or "None of the city's other commands at
    /// Himera": who could, were there any.
    nobody: String,
}

impl Joins {
    /// A lost general's elements join a command of his own kind: the side's with the side's,
    /// the city's with the city's.
    fn of(e: &LossEntry, own: &[&LossEntry], side: &str, place: &str) -> Joins {
        let peers: Vec<&&LossEntry> = own.iter().filter(|o| o.city == e.city && o.name != e.name).collect();
        let (mut open, mut later) = (Vec::new(), Vec::new());
        for o in peers.iter().filter(|o| !o.loses_whole()) {
            let list = if o.led() { &mut open } else { &mut later };
            list.push(o.name.clone());
        }
        open.extend(later);
        let lost_whole = peers.iter().filter(|o| o.loses_whole()).map(|o| o.name.clone()).collect();
        let nobody =
            if e.city { format!("None of the city's other commands at {place}") } else { format!("No other {side} command at {place}") };
        Joins { open, lost_whole, nobody }
    }
}

fn loss_entry_ui(ui: &mut egui::Ui, e: &mut LossEntry, joins: &Joins) {
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
                // MG-31: his men are left leaderless only when no friendly command can take
                // them in; while one can, the form names one, the first still led.
                if e.join.as_ref().is_none_or(|j| !joins.open.contains(j)) {
                    e.join = joins.open.first().cloned();
                }
                ui.label("if lost, joins");
                let leaderless = "nobody: leaderless";
                let combo = ui.add_enabled_ui(!joins.open.is_empty(), |ui| {
                    egui::ComboBox::from_id_salt(("join", e.side.as_str(), e.name.as_str()))
                        .selected_text(e.join.clone().unwrap_or_else(|| leaderless.to_owned()))
                        .width(150.0)
                        .show_ui(ui, |ui| {
                            for n in &joins.open {
                                ui.selectable_value(&mut e.join, Some(n.clone()), n);
                            }
                            for n in &joins.lost_whole {
                                ui.add_enabled(false, egui::Button::selectable(false, n.as_str())).on_disabled_hover_text(format!(
                                    "{n} loses every element in this result and cannot take in {} men (MG-31)",
                                    referee_campaign::core::words::owner_of(&e.name)
                                ));
                            }
                            ui.add_enabled(false, egui::Button::selectable(false, leaderless)).on_disabled_hover_text(format!(
                                "{} stands with them to take them in: a lost general's men fight on leaderless only when no friendly command can (MG-31)",
                                joins.open.first().map_or("A friendly command", String::as_str)
                            ));
                        })
                        .response
                })
                .inner;
                combo
                    .accessible_name(format!("If lost, the men of {} join", e.name))
                    .on_hover_text("Should the general not be recovered his elements join this command (MG-31); the commands still led by their generals are offered first")
                    .on_disabled_hover_text(format!(
                        "{} can take them in, so they fight on leaderless should their general not be recovered (MG-31)",
                        joins.nobody
                    ));
            }
        });
    });
}

fn battle_footer_ui(ui: &mut egui::Ui, form: &mut BattleForm, data: &BattleFormData<'_>, commands: &mut Vec<AppCommand>) {
    let board = data.view.board();
    ui.add_space(4.0);
    let need = form.dice_needed();
    let dice_line = format!("Recovery dice: {} (one per lost element, one per killed general)", plural(need, "die", "dice"));
    ui.horizontal_wrapped(|ui| {
        ui.label(dice_line).on_hover_text(
            "Each rolls a d6 (MG-30): type the players' dice into the roll form's typed-in values below the log, in the order listed here, or leave it empty for the seeded dice",
        );
        typed_dice_ui(ui, &data.dice, usize::try_from(need).unwrap_or(usize::MAX));
    });
    refusal_ui(ui, data.message);
    let order = form.result(board).map(|result| Order::RecordBattleResult { result });
    let hover = "Roll recovery, settle lost generals and set the loser's retreats (MG-20, MG-30, MG-31, MG-15)";
    submit_row_ui(ui, "Record result", hover, "To record", order, &data.dice, commands);
    ui.add_space(4.0);
}

// ---------------------------------------------------------------------------------------
// Exchange and garrison
