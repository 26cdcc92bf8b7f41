//! The panels around the map: the top bar, the selected node's details with the forces the
//! viewer may see, and the log with the dice form. They draw from a [`View`] and push
//! [`AppCommand`]s; none of them reads the campaign state.

use egui::RichText;
use referee_campaign::core::words::count;
use referee_campaign::magna_graecia::battle::Victory;
use referee_campaign::magna_graecia::map::{Battlefield, FeatureKind, RiverEnd, SettlementKind, Size};
use referee_campaign::magna_graecia::turn::{Counter, FLEET, Phase};
use referee_campaign::magna_graecia::view::{BattleMark, Board, Forces, View, Viewer};
use referee_campaign::{DiceInput, NodeId, SideId, magna_graecia::map::Map, magna_graecia::order::Order};

use crate::gui::magna_graecia::command::CounterRef;
use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::magna_graecia::command::run;
use crate::gui::magna_graecia::dialogs;
use crate::gui::magna_graecia::map::{self, side_colour};
use crate::gui::magna_graecia::orders;
use crate::gui::magna_graecia::packs::{self, PackJob};
use crate::gui::magna_graecia::table;
use crate::gui::shell::command::AppCommand;
use crate::gui::widgets::roll::RollForm;
use crate::gui::widgets::words::may_order;

/// What the referee has picked out: a node, and perhaps one of the viewer's counters to move.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Selection<'a> {
    pub node: Option<NodeId>,
    pub counter: Option<&'a CounterRef>,
}

/// The Campaign menu's Magna Graecia entries: ending a campaign by agreement (MG-32).
pub(crate) fn campaign_menu_ui(ui: &mut egui::Ui, view: &View, viewer: &Viewer, commands: &mut Vec<AppCommand>) {
    // MG-32: the umpire ends a campaign under way when the sides agree.
    if viewer == &Viewer::Umpire && matches!(view.board().phase, Phase::Movement | Phase::Combat | Phase::PostCombat) {
        ui.separator();
        if ui
            .button("End campaign by agreement…")
            .on_hover_text("The sides agree to stop: the campaign ends now and the victory points stand (MG-32)")
            .clicked()
        {
            commands.push(MagnaGraeciaCommand::OpenDialog(Some(dialogs::Dialog::EndCampaign)).into());
        }
    }
}

/// The bar's middle: the campaign, where it stands, and the button that moves the turn on.
pub(crate) fn status_ui(
    ui: &mut egui::Ui,
    map: &Map,
    view: &View,
    viewer: &Viewer,
    legal: orders::Legal<'_>,
    roll: &mut RollForm,
    commands: &mut Vec<AppCommand>,
) {
    let board = view.board();
    ui.label(
        RichText::new(format!(
            "{} · {} · Turn {} of {} · {}",
            board.campaign,
            board.scenario_name,
            board.turn,
            board.turns,
            phase_line(board)
        ))
        .strong(),
    );
    let turn = Turn { map, board, viewer, legal };
    crate::gui::shell::bar::real_buttons(ui, |ui| turn_buttons_ui(ui, &turn, roll, commands));
    if board.phase == Phase::Ended {
        final_points_line_ui(ui, board);
    }
}

/// Where the turn stands, in words: "Carthage: movement".
fn phase_line(board: &Board) -> String {
    match board.phase {
        Phase::Setup => "Setup: rosters and deployment".to_owned(),
        Phase::Ended => "Campaign over".to_owned(),
        phase => format!("{}: {}", board.side_name(&board.moving), phase.name()),
    }
}

/// What the turn buttons draw from: where the turn stands, who looks, and (in the umpire's
/// view) the rules to ask before a button is live.
struct Turn<'a> {
    map: &'a Map,
    board: &'a Board,
    viewer: &'a Viewer,
    legal: orders::Legal<'a>,
}

/// "Begin play" for the umpire during setup; "End phase" for the umpire or the moving side
/// during play. Alliance rolls at the end of movement take the roll form's typed-in values.
/// In the umpire's view each is asked of the rules first, and greyed out with their reason
/// if they would refuse it: a battle awaiting its result, a retreat owed, a counter left to
/// deploy.
fn turn_buttons_ui(ui: &mut egui::Ui, turn: &Turn<'_>, roll: &mut RollForm, commands: &mut Vec<AppCommand>) {
    let Turn { map, board, viewer, legal } = *turn;
    match board.phase {
        Phase::Setup => {
            if viewer == &Viewer::Umpire {
                let first = board.side_name(&board.moving);
                let hover = format!(
                    "End setup once every counter is deployed (MG-02) and no node holds more than four of a side's land counters (MG-12); {first} moves first (MG-09)."
                );
                let order = Order::BeginPlay {};
                let button = legal.button(ui, Ok(()), egui::Button::new(RichText::new("Begin play").strong()), &order);
                if button.on_hover_text(hover).clicked() {
                    run(commands, order);
                }
            }
        }
        Phase::Movement | Phase::Combat | Phase::PostCombat => {
            if !may_order(viewer, &board.moving) {
                return;
            }
            let dice = roll.typed_dice();
            let hover = format!(
                "End {} {} phase (MG-09). The alliance rolls at the end of movement (MG-06) take the typed-in values of the roll form below — the players' physical dice, one per roll in node order — when any are typed; otherwise the campaign's seeded dice roll them.",
                referee_campaign::core::words::owner_of(&board.side_name(&board.moving)),
                board.phase.name()
            );
            let order = Order::EndPhase { side: board.moving.clone() };
            // The rules are asked with the seeded dice; a count of typed-in values that does
            // not match the rolls due is flagged beside the button.
            let typed = dice.as_ref().map(|_| ()).map_err(|e| format!("{e}: correct the typed-in values below"));
            let button = legal.button(ui, typed, egui::Button::new(RichText::new("End phase").strong()), &order).on_hover_text(&hover);
            if let Ok(DiceInput::Manual(values)) = &dice {
                let shown: Vec<String> = values.iter().map(u8::to_string).collect();
                ui.label(RichText::new(format!("with typed-in dice {}", shown.join(" "))).weak()).on_hover_text(&hover);
            }
            alliance_rolls_due_ui(ui, map, board, dice.as_ref().ok());
            if button.clicked()
                && let Ok(dice) = dice
            {
                commands.push(MagnaGraeciaCommand::Execute(order, dice).into());
                roll.values.clear();
            }
        }
        Phase::Ended => {}
    }
}

/// MG-06: the cities the moving side will roll for when it ends movement, so the referee
/// knows how many of the players' dice to type in; a count that does not match is flagged.
fn alliance_rolls_due_ui(ui: &mut egui::Ui, map: &Map, board: &Board, dice: Option<&DiceInput>) {
    let due = &board.alliance_rolls_due;
    if board.phase != Phase::Movement || due.is_empty() {
        return;
    }
    let names: Vec<String> = due.iter().map(|n| map.name(*n)).collect();
    let dice_word = |n: usize| if n == 1 { "1 die".to_owned() } else { format!("{n} dice") };
    let hover = format!(
        "When {} ends movement it rolls a d6 for the alliance of each of these cities, in this order (MG-06): type one value per city in the roll form's typed-in values, or leave them empty for the seeded dice.",
        board.side_name(&board.moving)
    );
    ui.label(format!("Alliance rolls due: {} ({})", names.join(", "), dice_word(due.len()))).on_hover_text(&hover);
    if let Some(DiceInput::Manual(values)) = dice
        && values.len() != due.len()
    {
        ui.label(RichText::new(format!("{} typed in", values.len())).color(ui.visuals().error_fg_color))
            .on_hover_text(format!("{} due: End phase is refused unless the typed-in values match", dice_word(due.len())));
    }
}

/// What the right panel draws from.
pub(crate) struct Details<'a> {
    pub map: &'a Map,
    pub view: &'a View,
    pub viewer: &'a Viewer,
    /// The viewer's land counters owing a retreat (MG-15).
    pub land_retreats: &'a [CounterRef],
    /// The packs of every battle due, being written or just written.
    pub pack_job: Option<&'a PackJob>,
    /// The campaign's dice seed, once the umpire has asked to see it; never drawn otherwise.
    pub seed: Option<u64>,
    /// Whether the rules would take an order now (the umpire's view only).
    pub legal: orders::Legal<'a>,
}

impl<'a> Details<'a> {
    /// The order buttons' view of these details, queueing into `commands`.
    fn panel<'b>(&self, commands: &'b mut Vec<AppCommand>) -> orders::Panel<'b>
    where
        'a: 'b,
    {
        orders::Panel { map: self.map, view: self.view, viewer: self.viewer, legal: self.legal, commands }
    }
}

/// What to do now (deployment during setup; Hiero's offer, the battles and retreats due,
/// a landing during play), the selected node with its counters, then the forces the viewer
/// may see.
pub(crate) fn details_ui(ui: &mut egui::Ui, details: &Details<'_>, selection: Selection<'_>, commands: &mut Vec<AppCommand>) {
    let Details { map, view, land_retreats, seed, .. } = *details;
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        ui.add_space(4.0);
        let board = view.board();
        final_summary_ui(ui, board);
        orders::switch_offer_ui(ui, &mut details.panel(commands));
        if board.phase == Phase::Setup {
            deployment_ui(ui, map, view, selection, commands);
            ui.add_space(6.0);
            ui.separator();
        } else if !board.battles.is_empty() {
            battles_ui(ui, details, selection.node, commands);
            ui.add_space(6.0);
            ui.separator();
        }
        orders::retreats_ui(ui, &mut details.panel(commands), land_retreats);
        orders::landing_ui(ui, &mut details.panel(commands), selection.node);
        match selection.node.and_then(|id| map.node(id)) {
            Some(node) => node_ui(ui, details, node, selection, commands),
            None => {
                ui.heading("No node selected");
                ui.label(RichText::new("Click a node on the map to see who holds it and its battlefield.").weak());
            }
        }
        ui.add_space(10.0);
        ui.separator();
        forces_ui(ui, map, view, seed, commands);
    });
}

fn node_ui(
    ui: &mut egui::Ui,
    details: &Details<'_>,
    node: &referee_campaign::magna_graecia::map::Node,
    selection: Selection<'_>,
    commands: &mut Vec<AppCommand>,
) {
    let Details { map, view, .. } = *details;
    let board = view.board();
    ui.heading(format!("{} {}", node.id, node.name));
    let status = board.node(node.id);
    let mut facts = vec![if node.coastal {
        if node.south_coast { "Coastal (south coast)" } else { "Coastal" }.to_owned()
    } else {
        "Inland".to_owned()
    }];
    // The scenario may change what the map file says a city fields (MG-05).
    let capital = status.is_some_and(|s| s.capital_of.is_some());
    match node.city_commands.map(|n| status.and_then(|s| s.city_commands).unwrap_or(n)) {
        // The capital's line below says what it fields.
        Some(_) if capital => facts.push("fortified city".to_owned()),
        Some(n) => facts.push(format!("fortified city, fields {n} command{}", if n == 1 { "" } else { "s" })),
        None => facts.push("no walls".to_owned()),
    }
    ui.label(facts.join(" · "));
    if node.siege_modifier != 0 {
        ui.label(format!("Siege modifier {:+}", node.siege_modifier));
    }
    let swatch_line = |ui: &mut egui::Ui, text: String, side: Option<&SideId>| {
        ui.horizontal(|ui| {
            if let Some(side) = side.and_then(|s| board.side(s)) {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                map::paint_swatch(ui.painter(), rect, side_colour(side), side.pattern);
            }
            ui.label(text);
        });
    };
    let controller = status.and_then(|s| s.controller.as_ref());
    match controller {
        Some(c) => swatch_line(ui, format!("Controlled by {}", board.side_name(c)), Some(c)),
        None => swatch_line(ui, "Uncontrolled".to_owned(), None),
    }
    if let Some(ally) = status.and_then(|s| s.allied_to.as_ref()) {
        swatch_line(ui, format!("Allied to {}", board.side_name(ally)), Some(ally));
    }
    if let Some(cap) = status.and_then(|s| s.capital_of.as_ref()) {
        let strength = board.side(cap).and_then(|s| s.capital).map_or(0, |c| c.strength);
        let what = match strength {
            0 => "an inherent sub-general".to_owned(),
            1 => "1 command".to_owned(),
            n => format!("{n} commands"),
        };
        swatch_line(ui, format!("Capital of {} (strength {strength}: {what})", board.side_name(cap)), Some(cap));
    }
    for b in board.battles.iter().filter(|b| b.node == node.id) {
        ui.label(RichText::new(format!("Battle {} due here: {}", b.id, battle_sides(board, b))).strong());
    }
    ui.add_space(4.0);
    let mut panel = details.panel(commands);
    orders::siege_ui(ui, &mut panel, node.id);
    orders::attack_city_ui(ui, &mut panel, node.id);
    orders::combine_fleets_ui(ui, &mut panel, node.id);

    ui.add_space(6.0);
    counters_here_ui(ui, &mut panel, node.id, selection.counter);

    ui.add_space(6.0);
    ui.label(RichText::new("Neighbours").strong());
    ui.horizontal_wrapped(|ui| {
        for n in map.neighbours(node.id) {
            let label = map.node(n).map_or_else(|| n.to_string(), |x| x.label());
            if ui.small_button(label).on_hover_text("Select this node").clicked() {
                commands.push(MagnaGraeciaCommand::Select(Some(n)).into());
            }
        }
    });

    ui.add_space(6.0);
    egui::CollapsingHeader::new(RichText::new("Battlefield (8 × 8 ft table)").strong()).default_open(true).show(ui, |ui| {
        let side = ui.available_width().clamp(140.0, 220.0);
        let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
        map::paint_battlefield(ui.painter(), rect, map, &node.battlefield);
        ui.add_space(4.0);
        for line in battlefield_lines(map, &node.battlefield) {
            ui.add(egui::Label::new(line).wrap());
        }
    });
}

/// "Carthage attacks Syracuse".
fn battle_sides(board: &Board, b: &BattleMark) -> String {
    let defenders: Vec<String> = b.defenders.iter().map(|d| board.side_name(d)).collect();
    format!("{} attacks {}", board.side_name(&b.attacker), defenders.join(" and "))
}

/// The battles raised and waiting for their results (MG-10); a click selects the node. The
/// umpire sets each table (MG-21, MG-22), writes its pack and enters its result
/// (MG-20) beside it; the table, once set, is shown under it.
fn battles_ui(ui: &mut egui::Ui, details: &Details<'_>, selected: Option<NodeId>, commands: &mut Vec<AppCommand>) {
    let Details { map, view, pack_job, .. } = *details;
    let p = &mut details.panel(commands);
    let board = view.board();
    let umpire = matches!(view, View::Umpire(_));
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("Battles due ({})", board.battles.len())).strong().size(16.0));
        if umpire {
            let b = ui
                .add_enabled(!pack_job.is_some_and(PackJob::running), egui::Button::new("Packs for every battle…").small())
                .on_hover_text("Write the battle pack of every battle due into one folder")
                .on_disabled_hover_text("Packs are being written");
            if b.clicked() {
                p.open(dialogs::Dialog::BattlePack(None));
            }
        }
    });
    if umpire && let Some(job) = pack_job {
        packs::job_ui(ui, board, job, p.commands);
    }
    for b in &board.battles {
        let text = format!("Battle {} at {}: {}", b.id, map.name(b.node), battle_sides(board, b));
        let here = selected == Some(b.node);
        ui.horizontal_wrapped(|ui| {
            if ui.add(egui::Button::new(text).selected(here)).on_hover_text("Select the battle's node").clicked() && !here {
                p.commands.push(MagnaGraeciaCommand::Select(Some(b.node)).into());
            }
            table::set_table_button_ui(ui, view, b, p.commands);
            if umpire {
                let pack = ui
                    .button("Battle pack…")
                    .accessible_name(format!("Battle pack of battle {}…", b.id))
                    .on_hover_text("Write the umpire's sheet and each side's brief, roster and table section as PDFs");
                if pack.clicked() {
                    p.open(dialogs::Dialog::BattlePack(Some(b.id)));
                }
            }
            orders::enter_result_button_ui(ui, p, b);
            orders::withdraw_ui(ui, p, b);
        });
        if let Some(line) = table::table_line(b) {
            ui.indent(("table_line", b.id), |ui| {
                ui.add(egui::Label::new(RichText::new(line).italics()).wrap())
                    .on_hover_text("The table set for this day, with the weather and time of day rolled for it (MG-21, MG-22)");
            });
        }
        orders::stay_or_retire_ui(ui, p, b);
    }
}

/// How a counter is called in the panels: its command's name, or "Carthage fleet".
fn counter_title(board: &Board, side: &SideId, name: &str) -> String {
    if name == FLEET { format!("{} fleet", board.side_name(side)) } else { name.to_owned() }
}

/// A counter's full movement points in a phase (MG-11), as the rules give them.
fn counter_mp(forces: &Forces, counter: &Counter) -> u8 {
    forces.counter_mp.get(&counter.name).copied().unwrap_or(0)
}

/// A counter token as the map draws it, for a line of a panel.
fn token_icon_ui(ui: &mut egui::Ui, board: &Board, side: &SideId, fleet: bool) {
    let size = if fleet { egui::vec2(22.0, 14.0) } else { egui::vec2(14.0, 14.0) };
    let (rect, _) = ui.allocate_exact_size(egui::vec2(24.0, 14.0), egui::Sense::hover());
    if let Some(side) = board.side(side) {
        crate::gui::magna_graecia::tokens::paint_counter(ui.painter(), egui::Rect::from_center_size(rect.center(), size), side, fleet);
    }
}

/// Why a counter has no move now, for the disabled "Move…" button.
fn why_no_move(board: &Board, side: &SideId, left: u8) -> String {
    if board.phase != Phase::Movement {
        format!("Counters move in the movement phase; it is the {} phase (MG-09)", board.phase.name())
    } else if &board.moving != side {
        format!("It is {} player-turn (MG-09)", referee_campaign::core::words::owner_of(&board.side_name(&board.moving)))
    } else if left == 0 {
        "No movement points left this phase (MG-11)".to_owned()
    } else {
        "No node it may enter: blocked by the rules of movement (MG-13, MG-16)".to_owned()
    }
}

/// The counters at a node: the viewer's own by name, with MP left and a "Move…" toggle
/// that lights the legal destinations; other sides' only as "a Carthage counter".
fn counters_here_ui(ui: &mut egui::Ui, p: &mut orders::Panel<'_>, node: NodeId, picked: Option<&CounterRef>) {
    let (map, view) = (p.map, p.view);
    let board = view.board();
    let forces = view.forces();
    let own_sides: Vec<&SideId> = forces.iter().map(|f| &f.side).collect();
    let others: Vec<_> = board.counters.iter().filter(|c| c.node == node && !own_sides.contains(&&c.side)).collect();
    let own: Vec<(&Forces, &Counter)> =
        forces.iter().flat_map(|f| f.counters.iter().filter(|c| c.node == node).map(move |c| (*f, c))).collect();
    ui.label(RichText::new(format!("Counters here ({})", own.len() + others.len())).strong());
    if own.is_empty() && others.is_empty() {
        ui.label(RichText::new("None").weak());
        return;
    }
    let umpire = matches!(view, View::Umpire(_));
    for (f, c) in own {
        let title = counter_title(board, &c.side, &c.name);
        let mp = counter_mp(f, c);
        let left = mp.saturating_sub(c.mp_spent);
        let moves = f.moves.get(&c.name).filter(|m| !m.is_empty());
        let this = CounterRef { side: c.side.clone(), name: c.name.clone() };
        let is_picked = picked == Some(&this);
        ui.horizontal(|ui| {
            token_icon_ui(ui, board, &c.side, c.is_fleet());
            ui.label(RichText::new(&title).strong());
            if umpire && !c.is_fleet() {
                ui.label(RichText::new(board.side_name(&c.side)).weak());
            }
            if c.aboard {
                ui.label(RichText::new("aboard").italics()).on_hover_text("Carried by its fleet: it moves with the fleet (MG-14, MG-17)");
            }
            if c.inside {
                ui.label(RichText::new("inside the walls").italics())
                    .on_hover_text("Besieged: it leaves only by a sally in its side's movement phase (MG-27)");
            }
            if c.sheltered {
                ui.label(RichText::new("sheltered").italics()).on_hover_text(
                    "Sheltered in a friendly walled port: it cannot be made to fight, and is lost if the city falls (MG-19)",
                );
            }
            if board.phase == Phase::Setup {
                ui.label(format!("{mp} MP"));
                return;
            }
            if c.aboard || c.inside {
                return;
            }
            ui.label(format!("{left} of {mp} MP left"));
            let button = ui
                .add_enabled(moves.is_some() || is_picked, egui::Button::new("Move…").selected(is_picked))
                .accessible_name(format!("Move {title}"));
            let button = if is_picked {
                button.on_hover_text("Click again (or press Escape) to keep it where it is")
            } else {
                button
                    .on_hover_text("Light the nodes it may move to; then click one on the map or below")
                    .on_disabled_hover_text(why_no_move(board, &c.side, left))
            };
            if button.clicked() {
                p.commands.push(MagnaGraeciaCommand::SelectCounter((!is_picked).then_some(this.clone())).into());
            }
        });
        orders::counter_orders_ui(ui, p, f, c);
        if is_picked && let Some(moves) = moves {
            ui.indent(("moves", c.side.as_str(), c.name.as_str()), |ui| {
                ui.label(RichText::new("Move to (or click a lit node on the map):").weak());
                ui.horizontal_wrapped(|ui| {
                    for (to, path) in moves {
                        let label = map.node(*to).map_or_else(|| to.to_string(), |n| n.label());
                        let route: Vec<String> = path.iter().map(|n| map.node(*n).map_or_else(|| n.to_string(), |x| x.label())).collect();
                        let hover = format!("Move {title} to {label}: {} ({} MP)", route.join(" → "), path.len());
                        if ui.button(format!("→ {label}")).on_hover_text(hover).clicked() {
                            p.run(Order::Move { side: c.side.clone(), counter: c.name.clone(), path: path.clone() });
                        }
                    }
                });
            });
        }
    }
    // The view carries no names for other sides' counters, and none are looked up.
    for c in others {
        let who = board.side_name(&c.side);
        ui.horizontal(|ui| {
            token_icon_ui(ui, board, &c.side, c.fleet);
            if c.fleet {
                ui.label(format!("the {who} fleet"));
            } else {
                ui.label(format!("a {who} counter"));
            }
            if c.inside {
                ui.label(RichText::new("inside the walls").italics());
            }
        });
    }
}

/// Setup (MG-02): each of the viewer's commands, and its fleet, with where it stands, a
/// toggle that picks it (lighting on the map where it may deploy) and a button that deploys
/// it at the selected node, greyed where the rules would refuse it. A side that starts at
/// sea (MG-36) has no deployment.
fn deployment_ui(ui: &mut egui::Ui, map: &Map, view: &View, selection: Selection<'_>, commands: &mut Vec<AppCommand>) {
    let board = view.board();
    ui.label(RichText::new("Deployment").strong().size(16.0));
    let target = selection.node.and_then(|n| map.node(n));
    match target {
        Some(_) => {
            ui.label(RichText::new("Deploy counters at the selected node, or pick a counter and click a lit node on the map.").weak())
        }
        None => ui.label(RichText::new("Pick a counter to light where it may deploy, or select a node on the map, then deploy.").weak()),
    };
    for f in view.forces() {
        let side = f.side.clone();
        let who = board.side_name(&side);
        let mut names: Vec<&str> = f.army.iter().flat_map(|a| a.commands.iter().map(|c| c.name.as_str())).collect();
        if f.fleet_np > 0 {
            names.push(FLEET);
        }
        let lands = f.deployable.is_empty() && !names.is_empty();
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            if let Some(s) = board.side(&side) {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                map::paint_swatch(ui.painter(), rect, side_colour(s), s.pattern);
            }
            if lands {
                ui.label(RichText::new(format!("{who}: lands from the sea on its first turn")).strong())
                    .on_hover_text(format!("{who} starts at sea and comes ashore on its first turn instead of deploying (MG-36)"));
            } else {
                let placed = names.iter().filter(|n| f.counters.iter().any(|c| c.name == **n)).count();
                ui.label(RichText::new(format!("{who}: {placed} of {} deployed", names.len())).strong());
            }
        });
        egui::Grid::new(("deploy", side.as_str())).num_columns(3).spacing([8.0, 4.0]).show(ui, |ui| {
            for name in names {
                let title = counter_title(board, &side, name);
                let at = f.counters.iter().find(|c| c.name == name).map(|c| c.node);
                let allowed = f.deployable.get(name).map_or(&[][..], Vec::as_slice);
                let this = CounterRef { side: side.clone(), name: name.to_owned() };
                let picked = selection.counter == Some(&this);
                ui.horizontal(|ui| {
                    token_icon_ui(ui, board, &side, name == FLEET);
                    if lands {
                        ui.label(&title);
                        return;
                    }
                    let pick = ui
                        .add_enabled(!allowed.is_empty() || picked, egui::Button::selectable(picked, &title))
                        .accessible_name(format!("Pick {title} to deploy"));
                    let pick = if picked {
                        pick.on_hover_text("Click again (or press Escape) to let it go")
                    } else {
                        pick.on_hover_text(format!(
                            "Light the {} where {title} may deploy; then click one on the map",
                            count(allowed.len(), "node")
                        ))
                        .on_disabled_hover_text(format!("{who} has nowhere left to deploy {title} (MG-02)"))
                    };
                    if pick.clicked() {
                        commands.push(MagnaGraeciaCommand::SelectCounter((!picked).then_some(this.clone())).into());
                    }
                });
                match at {
                    Some(n) => {
                        let label = map.node(n).map_or_else(|| n.to_string(), |x| x.label());
                        if ui.link(format!("at {label}")).on_hover_text("Select this node").clicked() {
                            commands.push(MagnaGraeciaCommand::Select(Some(n)).into());
                        }
                    }
                    None if lands => {
                        ui.label(RichText::new("at sea").weak());
                    }
                    None => {
                        ui.label(RichText::new("not deployed").weak());
                    }
                }
                if lands {
                    ui.end_row();
                    continue;
                }
                let (text, enabled, hover) = match target {
                    Some(node) if at == Some(node.id) => (format!("Deploy at {}", node.label()), false, "It is there already".to_owned()),
                    Some(node) if !allowed.contains(&node.id) => (
                        format!("Deploy at {}", node.label()),
                        false,
                        format!("{who} may not deploy {title} at {} (MG-02); pick {title} to light the nodes where it may", node.label()),
                    ),
                    Some(node) => (format!("Deploy at {}", node.label()), true, format!("Set {title} at {} (MG-02)", node.label())),
                    None => {
                        ("Deploy at …".to_owned(), false, format!("Select a node on the map first, or pick {title} and click a lit node"))
                    }
                };
                let access = match target {
                    Some(node) => format!("Deploy {title} at {}", node.label()),
                    None => format!("Deploy {title}"),
                };
                let button = ui.add_enabled(enabled, egui::Button::new(text).small()).accessible_name(access);
                let button = if enabled { button.on_hover_text(hover) } else { button.on_disabled_hover_text(hover) };
                if button.clicked()
                    && let Some(node) = target
                {
                    run(commands, Order::Deploy { side: side.clone(), counter: name.to_owned(), node: node.id });
                }
                ui.end_row();
            }
        });
    }
}

fn feature_name(kind: FeatureKind) -> String {
    kind.name().replace('-', " ")
}

fn size_name(size: Size) -> &'static str {
    match size {
        Size::Small => "small",
        Size::Medium => "medium",
        Size::Large => "large",
    }
}

/// The battlefield in words, one line per element, as a referee sets up the table.
pub(crate) fn battlefield_lines(map: &Map, b: &Battlefield) -> Vec<String> {
    let mut lines = Vec::new();
    let edges = |set: Vec<&str>| match set.as_slice() {
        [] => String::new(),
        [one] => format!("the {one} edge"),
        [init @ .., last] => format!("the {} and {last} edges", init.join(", ")),
    };
    if b.coast.is_empty() {
        lines.push("No coast: inland.".to_owned());
    } else {
        lines.push(format!("Sea along {}.", edges(b.coast.iter().map(|e| e.name()).collect())));
    }
    match &b.settlement {
        Some(s) => {
            let kind = match s.kind {
                SettlementKind::City => "Walled city",
                SettlementKind::Town => "Open town",
                SettlementKind::Village => "Village",
            };
            lines.push(format!("{kind} in the {} area.", s.area.name()));
        }
        None => lines.push("No settlement.".to_owned()),
    }
    for r in &b.rivers {
        let to = match r.to {
            RiverEnd::Sea => "the sea".to_owned(),
            RiverEnd::Edge(e) => format!("the {e} edge"),
        };
        let fords = match r.fords {
            0 => "no ford".to_owned(),
            1 => "1 ford".to_owned(),
            n => format!("{n} fords"),
        };
        lines.push(format!("River {}: from the {} edge to {to}, {fords}.", r.name, r.from));
    }
    for f in &b.features {
        let name = if f.name.is_empty() { String::new() } else { format!(" ({})", f.name) };
        lines.push(format!("{} {}{name} in the {} area.", capitalise(size_name(f.size)), feature_name(f.kind), f.area.name()));
    }
    for (to, edge) in &b.roads {
        lines.push(format!("Road to {} leaves by the {edge} edge.", map.node(*to).map_or_else(|| to.to_string(), |n| n.label())));
    }
    lines
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// The hidden-information boundary of this panel: it draws [`View::forces`] only, which
/// holds every side for the umpire and a side's own forces for that side. During setup each
/// roster it shows may be edited (MG-03).
/// Victory points, which everyone at the table can reckon (MG-33).
fn victory_ui(ui: &mut egui::Ui, board: &Board) {
    if board.victory.values().all(|v| v.total == 0) {
        return;
    }
    ui.add_space(4.0);
    ui.label(RichText::new("Victory points").strong());
    for (side, v) in &board.victory {
        let parts = victory_parts(v);
        let detail = if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) };
        let text = RichText::new(format!("{}: {} VP{detail}", board.side_name(side), v.total));
        if is_out(board, side) {
            ui.label(text.strikethrough()).on_hover_text("Out of the campaign (MG-32); its victory points stand");
        } else {
            ui.label(text);
        }
    }
}

/// What a side's victory points are for, in words (MG-33, MG-34).
fn victory_parts(v: &Victory) -> Vec<String> {
    let count = |n: usize, one: &str, many: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {many}") };
    let mut parts = Vec::new();
    if !v.cities.is_empty() {
        parts.push(format!("{} won", count(v.cities.len(), "city", "cities")));
    }
    if v.commanders > 0 {
        parts.push(count(v.commanders as usize, "commander", "commanders"));
    }
    if v.enemy_np_destroyed >= 5 {
        parts.push(format!("{} NP sunk", v.enemy_np_destroyed));
    }
    if !v.capitals.is_empty() {
        parts.push(count(v.capitals.len(), "capital", "capitals"));
    }
    if v.exits > 0 {
        parts.push(format!("{} home", count(v.exits as usize, "command", "commands")));
    }
    parts
}

/// Whether a side is out of the campaign (MG-32).
pub(crate) fn is_out(board: &Board, side: &SideId) -> bool {
    board.eliminated.contains(side)
}

/// The sides by victory points, most first (the board's order among equals).
fn standings(board: &Board) -> Vec<(&SideId, &Victory)> {
    let mut out: Vec<(&SideId, &Victory)> = board.sides.iter().filter_map(|s| board.victory.get(&s.id).map(|v| (&s.id, v))).collect();
    out.sort_by_key(|(_, v)| std::cmp::Reverse(v.total));
    out
}

/// In the top bar once the campaign is over: each side's final points.
fn final_points_line_ui(ui: &mut egui::Ui, board: &Board) {
    let line: Vec<String> = standings(board).into_iter().map(|(s, v)| format!("{} {} VP", board.side_name(s), v.total)).collect();
    if !line.is_empty() {
        ui.label(RichText::new(format!("Final: {}", line.join(" · "))).strong().color(ui.visuals().warn_fg_color))
            .on_hover_text("The victory points at the end of the campaign (MG-33); the panel on the right says what they are for");
    }
}

/// MG-32 / MG-33: once the campaign is over, a framed summary at the top of the right panel:
/// each side's victory points with what they are for, and the sides that fell out.
fn final_summary_ui(ui: &mut egui::Ui, board: &Board) {
    if board.phase != Phase::Ended {
        return;
    }
    let stroke = egui::Stroke::new(2.0, ui.visuals().warn_fg_color);
    egui::Frame::group(ui.style()).stroke(stroke).inner_margin(8.0).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new("Campaign over").strong().size(18.0));
        ui.label(RichText::new(format!("Final victory points after turn {} of {}", board.turn.min(board.turns), board.turns)).weak());
        ui.add_space(4.0);
        egui::Grid::new("final_points").num_columns(3).spacing([8.0, 4.0]).show(ui, |ui| {
            for (side, v) in standings(board) {
                ui.horizontal(|ui| {
                    if let Some(s) = board.side(side) {
                        let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                        map::paint_swatch(ui.painter(), rect, side_colour(s), s.pattern);
                    }
                    let name = RichText::new(board.side_name(side)).strong();
                    ui.label(if is_out(board, side) { name.strikethrough() } else { name });
                });
                ui.label(RichText::new(format!("{} VP", v.total)).strong().size(16.0));
                let mut parts = victory_parts(v);
                if is_out(board, side) {
                    parts.insert(0, "out of the campaign".to_owned());
                }
                ui.add(egui::Label::new(RichText::new(parts.join(", ")).weak()).wrap());
                ui.end_row();
            }
        });
    });
    ui.add_space(6.0);
}

fn forces_ui(ui: &mut egui::Ui, map: &Map, view: &View, seed: Option<u64>, commands: &mut Vec<AppCommand>) {
    ui.label(RichText::new("Forces").strong().size(16.0));
    let board = view.board();
    for f in view.forces() {
        let side = board.side(&f.side);
        let who = board.side_name(&f.side);
        ui.horizontal(|ui| {
            if let Some(side) = side {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 12.0), egui::Sense::hover());
                map::paint_swatch(ui.painter(), rect, side_colour(side), side.pattern);
            }
            if is_out(board, &f.side) {
                ui.label(RichText::new(format!("{who} army: {} points", f.army_points)).strikethrough());
                ui.label(RichText::new("out of the campaign").italics().color(ui.visuals().warn_fg_color))
                    .on_hover_text("Its capital fell or its army was destroyed: its counters are gone and its turns are skipped (MG-32)");
            } else {
                ui.label(format!("{who} army: {} points", f.army_points));
            }
            if board.phase == Phase::Setup
                && ui
                    .small_button("Edit roster…")
                    .accessible_name(format!("Edit roster of {who}…"))
                    .on_hover_text(format!(
                        "Change {} commands and elements before play begins (MG-03)",
                        referee_campaign::core::words::owner_of(&who)
                    ))
                    .clicked()
            {
                commands.push(MagnaGraeciaCommand::EditRoster(Some(f.side.clone())).into());
            }
        });
        if let Some(army) = &f.army {
            ui.horizontal(|ui| {
                ui.add_space(22.0);
                egui::CollapsingHeader::new(format!("{}, {} spent", count(army.commands.len(), "command"), count(f.points_spent, "point")))
                    .id_salt(("roster", f.side.as_str()))
                    .show(ui, |ui| roster_ui(ui, army, &f.movement_points));
            });
        }
        if !f.garrison.is_empty() {
            let capital = side.and_then(|s| s.capital).map_or_else(|| "the capital".to_owned(), |c| map.name(c.node));
            let groups: Vec<String> = f.garrison.iter().map(ToString::to_string).collect();
            ui.horizontal(|ui| {
                ui.add_space(22.0);
                ui.add(egui::Label::new(format!("Garrison of {capital} (inherent sub-general): {}", groups.join(", "))).wrap())
                    .on_hover_text("Elements left in the strength-0 capital under its inherent sub-general (MG-04)");
            });
        }
        let fleet = if f.fleet_np == 0 {
            format!("{} fleet: none", board.side_name(&f.side))
        } else {
            format!("{} fleet: {} NP", board.side_name(&f.side), f.fleet_np)
        };
        ui.horizontal(|ui| {
            ui.add_space(22.0);
            ui.label(fleet);
        });
    }
    victory_ui(ui, board);
    match view {
        View::Umpire(_) => {
            ui.add_space(4.0);
            // the seed is the key to every roll still to come; it is drawn only when the
            // referee asks, so a player looking over a shoulder does not read it by chance.
            ui.horizontal(|ui| match seed {
                Some(seed) => {
                    ui.label(RichText::new(format!("Dice seed: {seed}")).weak());
                    if ui.small_button("Hide").on_hover_text("Hide the dice seed again").clicked() {
                        commands.push(MagnaGraeciaCommand::ShowSeed(false).into());
                    }
                }
                None => {
                    if ui
                        .small_button("Show the dice seed")
                        .on_hover_text("The umpire's secret: with it the seeded dice can be replayed, and every roll to come foreseen. Keep it from the players.")
                        .clicked()
                    {
                        commands.push(MagnaGraeciaCommand::ShowSeed(true).into());
                    }
                }
            });
        }
        View::Side(v) => {
            ui.add_space(4.0);
            ui.label(RichText::new(format!("Viewing as {}: other sides' forces are hidden.", board.side_name(&v.side))).weak());
        }
    }
}

/// A side's roster: each command with its general, movement points (MG-11) and elements.
fn roster_ui(ui: &mut egui::Ui, army: &referee_campaign::magna_graecia::army::Army, movement_points: &[u8]) {
    ui.label(RichText::new(&army.list).italics());
    for (command, mp) in army.commands.iter().zip(movement_points) {
        ui.label(RichText::new(format!("{} — {}, {} MP", command.name, command.rank.name(), mp)).strong());
        ui.label(format!("general: {}", command.general));
        for group in &command.elements {
            ui.label(group.to_string());
        }
    }
}
