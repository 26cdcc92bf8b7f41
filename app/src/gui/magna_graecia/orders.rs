//! The orders given from the panels beside the map, beyond moving: retreats owed after
//! combat (MG-15), landing, a counter's orders, entering a result, staying or retiring,
//! withdrawing into a city, sieges and sallies, attacks on neutral cities, Hiero's offer to
//! change sides (MG-35), combined fleets. Each pushes [`AppCommand`]s only; the dialogs
//! they open are in `dialogs/`.

use egui::RichText;
use referee_campaign::core::words::owner_of;
use referee_campaign::magna_graecia::turn::{Counter, FLEET, Phase};
use referee_campaign::magna_graecia::view::{BattleMark, Forces, View, Viewer};
use referee_campaign::{NodeId, SideId, magna_graecia::map::Map, magna_graecia::order::Order};

use crate::gui::magna_graecia::command::CounterRef;
use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::magna_graecia::command::run;
use crate::gui::shell::command::AppCommand;

use crate::gui::magna_graecia::command::Dialog;
use crate::gui::magna_graecia::dialogs::shared::*;

/// The rules asked about a Magna Graecia order before its button is drawn (see
/// [`crate::gui::engine::Legal`]).
pub(crate) type Legal<'a> = crate::gui::engine::Legal<'a, referee_campaign::magna_graecia::engine::MagnaGraecia>;

/// What the order buttons beside the map read, and where they queue what is clicked: the
/// map, the campaign as the viewer sees it, who is looking, whether the rules would take an
/// order now (the umpire's view), and the window's commands.
pub(crate) struct Panel<'a> {
    pub map: &'a Map,
    pub view: &'a View,
    pub viewer: &'a Viewer,
    pub legal: Legal<'a>,
    pub commands: &'a mut Vec<AppCommand>,
}

impl Panel<'_> {
    /// Queues `order`, its dice drawn from the seed.
    pub(crate) fn run(&mut self, order: Order) {
        run(self.commands, order);
    }

    /// Queues the opening of `dialog`.
    pub(crate) fn open(&mut self, dialog: Dialog) {
        self.commands.push(MagnaGraeciaCommand::OpenDialog(Some(dialog)).into());
    }

    /// The button of `order`: live if it is time for it (`now` is `Ok`) and the rules would
    /// take it, greyed out with the one reason if not; `name` names it for a screen reader
    /// and `hover` says what it does. Clicked, it queues the order with seeded dice.
    pub(crate) fn order(
        &mut self,
        ui: &mut egui::Ui,
        now: Result<(), String>,
        button: egui::Button<'_>,
        name: String,
        hover: impl Into<egui::WidgetText>,
        order: Order,
    ) -> egui::Response {
        let legal = self.legal;
        legal.give(ui, now, button, hover, order, |order| self.run(order)).accessible_name(name)
    }
}

/// `Ok` when `now`, else why not yet.
fn ready(now: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if now { Ok(()) } else { Err(why()) }
}

/// MG-35: while the offer stands, a framed notice with a button per enemy to turn to, for
/// the umpire and the fickle side; other sides read the notice only.
pub(crate) fn switch_offer_ui(ui: &mut egui::Ui, p: &mut Panel<'_>) {
    let (viewer, board) = (p.viewer, p.view.board());
    let Some((fickle, ally)) = &board.switch_offer else { return };
    let who = board.side_name(fickle);
    let may = may_order(viewer, fickle);
    let stroke = egui::Stroke::new(2.0, ui.visuals().warn_fg_color);
    egui::Frame::group(ui.style()).stroke(stroke).inner_margin(8.0).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new(format!("{who} may change sides now")).strong().size(16.0).color(ui.visuals().warn_fg_color));
        ui.add(
            egui::Label::new(format!(
                "{} lost a land battle: {who} may turn on it at once, before this combat phase ends (MG-35).",
                board.side_name(ally)
            ))
            .wrap(),
        );
        if may {
            ui.horizontal_wrapped(|ui| {
                for s in board.sides.iter().filter(|s| board.are_enemies(fickle, &s.id)) {
                    let order = Order::SwitchSides { side: fickle.clone(), to: s.id.clone() };
                    let text = format!("Turn to {}", s.name);
                    let button = egui::Button::new(RichText::new(&text).strong());
                    let hover = format!("{who} leaves {} and fights beside {} from now on", board.side_name(ally), s.name);
                    p.order(ui, Ok(()), button, text, hover, order);
                }
            });
        }
    });
    ui.add_space(6.0);
}

/// MG-15: the beaten fleets and land counters that owe a retreat, with where they may go.
/// A fleet's destinations are the rules' own; a land counter's are its neighbours, and the
/// rules refuse those it may not take.
pub(crate) fn retreats_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, land: &[CounterRef]) {
    let (map, view) = (p.map, p.view);
    let board = view.board();
    let fleets: Vec<&Forces> = view.forces().into_iter().filter(|f| !f.fleet_retreats.is_empty()).collect();
    if fleets.is_empty() && land.is_empty() {
        return;
    }
    ui.label(RichText::new(format!("Retreats due ({})", fleets.len() + land.len())).strong().size(16.0));
    let now = board.phase == Phase::PostCombat;
    let not_yet = format!("Retreats are made in post-combat movement; it is the {} phase (MG-15)", board.phase.name());
    for f in fleets {
        let title = format!("{} fleet", board.side_name(&f.side));
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
                        p.run(Order::RetreatFleet { side: f.side.clone(), path: path.clone() });
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
                        p.run(Order::Retreat { side: c.side.clone(), counter: c.name.clone(), path: vec![to] });
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
pub(crate) fn landing_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, selected: Option<NodeId>) {
    let (map, view) = (p.map, p.view);
    let board = view.board();
    if board.phase != Phase::Movement {
        return;
    }
    let Some(f) = forces_of(view, &board.moving).filter(|f| !f.at_sea.is_empty()) else { return };
    let names = f.at_sea.iter().map(String::as_str);
    let who = board.side_name(&f.side);
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
            let button = egui::Button::new(text.as_str()).small();
            let hover = "Each counter comes ashore at a southern coastal node no enemy holds (MG-36)";
            match selected {
                Some(node) => {
                    let order = Order::Land { side: f.side.clone(), counter: name.to_owned(), node };
                    p.order(ui, Ok(()), button, text, hover, order);
                }
                None => {
                    ui.add_enabled(false, button)
                        .on_hover_text(hover)
                        .on_disabled_hover_text("Select a southern coastal node on the map first");
                }
            }
        }
    });
    ui.add_space(6.0);
    ui.separator();
}

/// The orders on one of the viewer's commands besides moving, as a compact row: embark or
/// disembark (MG-14), exchange elements (MG-14), the capital's garrison (MG-04).
pub(crate) fn counter_orders_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, forces: &Forces, counter: &Counter) {
    let board = p.view.board();
    let moving = board.phase == Phase::Movement && board.moving == counter.side;
    // Inside the walls a command neither embarks nor exchanges: it waits or sallies (MG-27).
    if counter.inside {
        return;
    }
    if counter.is_fleet() {
        if moving {
            fleet_orders_ui(ui, p, counter);
        }
        return;
    }
    let capital = board.side(&counter.side).and_then(|s| s.capital).filter(|c| c.strength == 0 && c.node == counter.node);
    let garrison_now = capital.is_some() && counter.on_land() && (moving || board.phase == Phase::Setup);
    if counter.is_fleet() || !(moving || garrison_now) {
        return;
    }
    let this = CounterRef { side: counter.side.clone(), name: counter.name.clone() };
    let who = board.side_name(&counter.side);
    ui.horizontal_wrapped(|ui| {
        ui.add_space(28.0);
        if moving {
            if counter.aboard {
                let order = Order::Disembark { side: counter.side.clone(), counter: counter.name.clone() };
                let hover = "Go ashore where the fleet is; it costs no MP (MG-14)";
                p.order(ui, Ok(()), egui::Button::new("Disembark").small(), format!("Disembark {}", counter.name), hover, order);
            } else {
                let fleet_here = forces.counters.iter().any(|c| c.is_fleet() && c.node == counter.node);
                let order = Order::Embark { side: counter.side.clone(), counter: counter.name.clone() };
                let now = ready(fleet_here, || format!("No {who} fleet at this node (MG-14)"));
                let hover = format!("Board the {who} fleet here: 1 MP for each, and the fleet carries 1 element per NP (MG-14, MG-17)");
                p.order(ui, now, egui::Button::new("Embark").small(), format!("Embark {}", counter.name), hover, order);
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
                p.open(Dialog::Exchange(this.clone()));
            }
            exit_button_ui(ui, p, counter);
        }
        if garrison_now {
            let b = ui
                .small_button("Garrison…")
                .accessible_name(format!("Garrison with {}…", counter.name))
                .on_hover_text("Leave elements with the capital's inherent sub-general, or take them back (MG-04)");
            if b.clicked() {
                p.open(Dialog::Garrison(this));
            }
        }
    });
}

/// "Enter result…" beside a battle due, for the umpire.
pub(crate) fn enter_result_button_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, battle: &BattleMark) {
    if !matches!(p.view, View::Umpire(_)) || battle.awaiting_choices {
        return;
    }
    let now = p.view.board().phase == Phase::Combat;
    let b = ui
        .add_enabled(now, egui::Button::new("Enter result…"))
        .accessible_name(format!("Enter result of battle {}…", battle.id))
        .on_hover_text("Type in the result of the tabletop game: winner, losses, lost generals, roads still open (MG-20)")
        .on_disabled_hover_text("Results are entered in the combat phase (MG-20)");
    if b.clicked() {
        p.open(Dialog::BattleResult(battle.id));
    }
}

/// MG-25: a battle without a loser waits for each side's written choice; the umpire (or the
/// side itself) enters it. What a side chose stays secret until all have chosen.
pub(crate) fn stay_or_retire_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, battle: &BattleMark) {
    if !battle.awaiting_choices {
        return;
    }
    let board = p.view.board();
    ui.indent(("stay_or_retire", battle.id), |ui| {
        ui.label(RichText::new("No result: each side writes stay or retire (MG-25)").italics());
        let sides = std::iter::once(&battle.attacker).chain(&battle.defenders);
        for side in sides {
            let who = board.side_name(side);
            ui.horizontal(|ui| {
                swatch_ui(ui, board, side);
                ui.label(&who);
                if battle.chosen.contains(side) {
                    ui.label(RichText::new("has chosen").weak());
                    return;
                }
                if !may_order(p.viewer, side) {
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
                        p.run(Order::ChooseStayOrRetire { side: side.clone(), battle: battle.id, stay });
                    }
                }
            });
        }
    });
}

// ---------------------------------------------------------------------------------------
// Sieges (MG-27), the way home through Messena (MG-34)

/// MG-27: beside a battle at a fortified node in the combat phase, "Withdraw into the city"
/// for each defender the viewer speaks for that holds the city. The rules check the
/// besieger's strength and refuse in words.
pub(crate) fn withdraw_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, battle: &BattleMark) {
    let (map, board) = (p.map, p.view.board());
    if board.phase != Phase::Combat
        || battle.awaiting_choices
        || battle.day != 1
        || !map.node(battle.node).is_some_and(|n| n.is_fortified())
    {
        return;
    }
    let status = board.node(battle.node);
    let holds = |side: &SideId| status.is_some_and(|s| s.held_by(side));
    let city = map.name(battle.node);
    let defenders: Vec<&SideId> = battle.defenders.iter().filter(|d| holds(d) && may_order(p.viewer, d)).collect();
    for side in &defenders {
        let who = board.side_name(side);
        let text = if defenders.len() == 1 { "Withdraw into the city".to_owned() } else { format!("{who}: withdraw into the city") };
        let order = Order::WithdrawIntoCity { side: (*side).clone(), battle: battle.id };
        let name = format!("{who} withdraws into {city} instead of battle {}", battle.id);
        let hover = "Instead of the battle: all its elements go inside; the besieger needs at least as many effective elements (MG-27)";
        p.order(ui, Ok(()), egui::Button::new(text), name, hover, order);
    }
}

/// MG-27 / MG-29: the siege of the node, if any, in a framed line of the node's panel; in
/// the besieged side's movement phase, "Sally out of …" for the umpire or that side.
pub(crate) fn siege_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, node: NodeId) {
    let board = p.view.board();
    let Some(siege) = board.sieges.iter().find(|s| s.node == node) else { return };
    let city = p.map.name(node);
    let (besieger, defender) = (board.side_name(&siege.besieger), board.side_name(&siege.defender));
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
        if may_order(p.viewer, &siege.defender) {
            let order = Order::Sally { side: siege.defender.clone(), node };
            let now = ready(now, || format!("The besieged sally in {} own movement phase (MG-27)", owner_of(&defender)));
            let text = format!("Sally out of {city}");
            let hover = format!(
                "{defender} comes out to fight: the siege ends and a battle is raised when its movement ends, {defender} attacking (MG-27)"
            );
            p.order(ui, now, egui::Button::new(RichText::new(&text).strong()), text, hover, order);
        }
    });
    ui.add_space(4.0);
}

/// MG-34: in the Pyrrhic War, once Syracuse is out, a Pyrrhic command at Messena may go home
/// in its movement phase, one a turn, for 2 VP.
fn exit_button_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, counter: &Counter) {
    let board = p.view.board();
    let pyrrhus = SideId::new("pyrrhus");
    let port = board.side(&pyrrhus).and_then(|s| s.capital).map(|c| c.node);
    let syracuse_out = board.eliminated.iter().any(|s| s.as_str() == "syracuse");
    if counter.side != pyrrhus || !syracuse_out || port != Some(counter.node) || !counter.on_land() {
        return;
    }
    let port = p.map.name(counter.node);
    let order = Order::ExitMap { side: counter.side.clone(), counter: counter.name.clone() };
    let button = egui::Button::new(format!("Home through {port} (2 VP)")).small();
    let hover = format!("{} leaves the map for 2 VP: one command a turn, and only while no enemy stands at {port} (MG-34)", counter.name);
    p.order(ui, Ok(()), button, format!("Lead {} home through {port}", counter.name), hover, order);
}

// ---------------------------------------------------------------------------------------
// The end of the campaign (MG-32)

/// MG-19: in its side's movement, "Shelter" under a fleet lying at a walled port. The rules
/// check that the port is friendly and garrisoned and nobody is aboard, and refuse in words.
fn fleet_orders_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, fleet: &Counter) {
    let port = p.map.node(fleet.node).filter(|n| n.is_fortified() && n.coastal);
    if fleet.sheltered || port.is_none() {
        return;
    }
    let who = p.view.board().side_name(&fleet.side);
    ui.horizontal_wrapped(|ui| {
        ui.add_space(28.0);
        let order = Order::Shelter { side: fleet.side.clone() };
        let hover = "In a friendly walled port with a garrison of yours: it cannot be made to fight; no troops may stay aboard (MG-19)";
        p.order(ui, Ok(()), egui::Button::new("Shelter").small(), format!("Shelter the {who} fleet"), hover, order);
    });
}

/// MG-07: in the moving side's combat phase, at a neutral walled city where its land
/// counters stand, "Attack the city of …" opens a choice of the enemy the city turns to.
/// The umpire sees it for the moving side, a side only for itself.
pub(crate) fn attack_city_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, node: NodeId) {
    let (view, board) = (p.view, p.view.board());
    let side = &board.moving;
    if board.phase != Phase::Combat || !may_order(p.viewer, side) || !board.is_neutral_city(node) {
        return;
    }
    // A battle or siege there already: the rules would refuse (MG-07).
    if board.battles.iter().any(|b| b.node == node) || board.sieges.iter().any(|s| s.node == node) {
        return;
    }
    if !forces_of(view, side).is_some_and(|f| f.counters.iter().any(|c| c.node == node && c.on_land())) {
        return;
    }
    let city = p.map.name(node);
    let who = board.side_name(side);
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
                    let order = Order::AttackCity { side: side.clone(), node, ally: (*id).clone() };
                    let hover =
                        format!("{city} becomes {} ally, and its commands fight {who} in a battle here now (MG-07)", owner_of(name));
                    if p.order(ui, Ok(()), egui::Button::new(*name), format!("{city} turns to {name}"), hover, order).clicked() {
                        open = false;
                    }
                }
            });
        });
    }
    ui.data_mut(|d| d.insert_temp(id, open));
    ui.add_space(4.0);
}

/// MG-36: in the Second Punic War, where two allied fleets lie in one node, for each side the
/// viewer speaks for "Put the … fleet under …" (the fleet's own side offers it, in any phase)
/// and "Combine fleets under …" (the commander joins them, in its movement, once offered).
pub(crate) fn combine_fleets_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, node: NodeId) {
    let (viewer, board) = (p.viewer, p.view.board());
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
            let (who, other) = (board.side_name(side), board.side_name(with));
            let now = board.phase == Phase::Movement && &board.moving == side;
            let order = Order::CombineFleets { side: side.clone(), with: with.clone() };
            let whose = owner_of(&who);
            let now = ready(now, || format!("Fleets combine in the commanding side's movement phase: {whose} (MG-36)"));
            let text = format!("Combine fleets under {who}");
            let hover = format!(
                "The {other} fleet joins the {who} fleet as one counter under {who}: it moves in {whose} phase and carries only {whose} troops (MG-36)"
            );
            p.order(ui, now, egui::Button::new(text.as_str()), text, hover, order);
            let order = Order::OfferFleet { side: side.clone(), to: with.clone() };
            let text = format!("Put the {who} fleet under {other}");
            let hover = format!("The {who} fleet is offered to {other}, who may then combine the two as one counter under {other} (MG-36)");
            p.order(ui, Ok(()), egui::Button::new(text.as_str()), text, hover, order);
        }
    });
    ui.add_space(4.0);
}
