//! The Belisarius desk's interceptions and battles: the prompt for the side that may
//! intercept (BE-13 … BE-16, BE-43), and the battle window — both forces face up, each stage
//! rolled, losses shared out by their owners, break-off, pursuit and retreat (BE-17 …
//! BE-23), with the odds counted before the referee or the players decide.
//!
//! The prompt is shown in the view of the side whose turn it is; in the referee's view it
//! names that side and offers to hand it the screen, so that the referee's screen is never
//! what a player decides from.

use std::collections::{BTreeMap, BTreeSet};

use egui::{Color32, RichText};
use referee_campaign::belisarius::battle::Step;
use referee_campaign::belisarius::odds::{self, Odds, Policy};
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::setup::Public;
use referee_campaign::belisarius::state::{Location, State};
use referee_campaign::belisarius::tables::Interception;
use referee_campaign::belisarius::view::{BattleBoard, Board, ForceFace, Organisation};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::SideId;

use crate::gui::belisarius::Panel;
use crate::gui::belisarius::command::BelisariusCommand;
use crate::gui::belisarius::command::{Legal, run};
use crate::gui::belisarius::facts::Facts;
use crate::gui::shell::command::AppCommand;
use crate::gui::widgets::hex_counters::HexCounters;
use crate::gui::widgets::words::{for_referee, may_order};

/// What the referee or a player is filling in for the battle under way.
#[derive(Debug, Default)]
pub(crate) struct BattleForm {
    /// Points each unit loses, by side and the unit's number in the battle (from 1).
    pub shares: BTreeMap<SideId, BTreeMap<u32, u8>>,
    /// The break-off policy of each force, in the battle's order.
    pub policies: Option<[Policy; 2]>,
    /// The last odds counted, and a count under way.
    pub odds: Option<Counted>,
    pub odds_job: Option<OddsJob>,
    /// Leaders ticked for a combined interception, and the target's number (BE-15).
    pub interceptors: BTreeSet<String>,
    pub target: u32,
    pub reconnaissance: bool,
    /// The tabletop's result being entered (BE-17).
    pub table: TableForm,
}

/// The result form of a battle fought on the table.
#[derive(Debug, Clone, Default)]
pub(crate) struct TableForm {
    pub system: Option<referee_battle_gen::TabletopSystem>,
    /// The pack's choices: rules and their options, paper, folder.
    pub pack: Option<crate::gui::widgets::packs::PackSettings>,
    /// Points each unit lost, by side and the unit's number in the battle (from 1).
    pub losses: BTreeMap<SideId, BTreeMap<u32, u8>>,
    pub killed: BTreeSet<String>,
    /// Whether the referee has said how the battle ended: nothing is chosen for them.
    pub outcome_chosen: bool,
    /// `Some(side)`: that side broke off; `None` with `parted`: the sides parted; neither: a
    /// force was destroyed.
    pub broke_off: Option<SideId>,
    pub parted: bool,
    pub retreat: Option<String>,
    /// A hex game's counters, when the pack was written for one: what they lost fills in the
    /// points lost and the leaders killed.
    pub hex: Option<Box<HexCounters>>,
}

/// What the table's form needs to count a hex game's counters as the pack did.
#[derive(Debug)]
pub(crate) struct TableData<'a> {
    /// The battle's number, as its pack is headed.
    pub number: u32,
    /// The hex table its pack was counted by, as kept with it.
    pub hex_units: &'a referee_battle_gen::hexunits::HexUnits,
    /// The campaign's name, for the pack's folder.
    pub campaign: &'a str,
}

/// Under a hex game's pack, its counters: what each lost fills in the points each unit lost
/// and the leaders killed below (BE-17, AB-08, AC-06), which stay open to change by hand.
fn hex_ui(ui: &mut egui::Ui, umpire: &State, src: BattleSources<'_>, t: &mut TableForm, table: &TableData<'_>) {
    let board = src.board;
    use referee_battle_gen::TabletopSystem;
    use referee_battle_gen::hexmap::HexSystem;
    let wanted = match t.system {
        Some(TabletopSystem::ArsBellum) => Some(HexSystem::ArsBellum),
        Some(TabletopSystem::ALaCharge) => Some(HexSystem::ALaCharge),
        _ => None,
    };
    if wanted != t.hex.as_ref().map(|h| h.system()) {
        t.hex = None;
        if let Some(system) = wanted {
            match &src.facts.table_spec {
                Some(Ok(spec)) => {
                    let tabletop = referee_battle_gen::hexpack::HexTabletop::new(system, table.hex_units.clone());
                    t.hex = Some(Box::new(HexCounters::new(tabletop, spec.clone())));
                }
                Some(Err(e)) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                None => {}
            }
        }
    }
    let Some(hex) = t.hex.as_mut() else { return };
    ui.label(
        RichText::new("The counters lost, as the pack numbers them; they fill in each unit's points lost and the leaders killed below.")
            .weak(),
    );
    if !hex.ui(ui, &|s| board.side_name(s)) {
        return;
    }
    let result = hex.result(table.number);
    match referee_battle_gen::belisarius::hex_table_result_for(umpire, &hex.spec, &hex.tabletop, &result, None) {
        Ok(r) => {
            t.losses = r.losses.into_iter().map(|(s, l)| (s, l.into_iter().collect())).collect();
            t.killed = r.leaders_killed.into_iter().collect();
        }
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e.to_string());
        }
    }
}

/// Battles counted for the window's odds: each share to within about a point.
pub(crate) const ODDS_BATTLES: u32 = 10_000;

fn zone_name(public: Public<'_>, zone: &referee_campaign::belisarius::map::ZoneId) -> String {
    public.place_name(&Location::Zone(zone.clone()))
}

/// The prompt at a contact: who may intercept now, with what, at what; or, in the referee's
/// view, whose turn it is.
pub(crate) fn contact_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, orgs: &[&Organisation], form: &mut BattleForm) {
    let (public, board, viewer) = (p.public, p.board, p.viewer);
    let Some(contact) = &board.contact else { return };
    let zone = zone_name(public, &contact.zone);
    let turn = board.side_name(&contact.turn_of);
    let mover = contact.turn_of == contact.mover;
    egui::Frame::group(ui.style()).fill(Color32::from_rgb(0xfb, 0xf1, 0xd9)).show(ui, |ui| {
        ui.label(RichText::new(format!("Contact at {zone}")).strong());
        if contact.relief {
            // BE-29: no interception; the besiegers' answer is the relief's own form.
            ui.label(format!(
                "The {} attack the siege lines: there is no interception (BE-29). {turn}: name who meets them.",
                board.side_name(&contact.mover)
            ));
        } else {
            ui.label(format!(
                "A force of the {} has marched in where the {} stand (BE-13). {turn}: intercept, or decline.",
                board.side_name(&contact.mover),
                board.side_name(&other(board, &contact.mover))
            ));
        }
        if *viewer == Viewer::Umpire {
            ui.label(RichText::new(format!("It is for the {turn} to decide; hand them the screen.")).italics());
            if ui.button(format!("Hand the screen to the {turn}")).clicked() {
                p.commands.push(AppCommand::SetViewer(Viewer::Side(contact.turn_of.clone())));
            }
            return;
        }
        if !may_order(viewer, &contact.turn_of) {
            ui.label(RichText::new(format!("Waiting for the {turn}.")).weak());
            return;
        }
        if contact.relief {
            return;
        }
        let Some(org) = orgs.iter().find(|o| o.side == contact.turn_of) else { return };
        // The side's leaders at the zone: in the open, or (not for the mover) in its city.
        let here: Vec<(&str, &str, bool)> = org
            .boxes
            .iter()
            .filter_map(|b| {
                let l = b.leader.as_ref()?;
                let (at_zone, in_city) = match &b.at {
                    Location::Zone(z) => (z == &contact.zone, false),
                    Location::City(c) => (public.map().zone_of_city(c).is_some_and(|z| z.id == contact.zone), true),
                    Location::Sea(_) | Location::Aboard(_) => (false, false),
                };
                (at_zone && !(mover && in_city)).then_some((l.id.as_str(), l.name.as_str(), in_city))
            })
            .collect();
        // The force aimed at, as the rules number it: the marching force for the side not
        // moving, the marker named for the mover (BE-15).
        let aimed = if mover && contact.targets > 1 { form.target.clamp(1, contact.targets) } else { 1 };
        // A leader who has tried that force this turn may not try it again (BE-13): greyed
        // out with the rules' reason, and never left ticked.
        let may_try = |id: &str| contact.may_try(id, aimed).map_err(|e| for_referee(&e.to_string()));
        form.interceptors.retain(|id| here.iter().any(|(h, _, _)| h == id) && may_try(id).is_ok());
        if here.is_empty() {
            ui.label("None of your leaders can intercept here.");
        } else {
            ui.label(if mover { "Intercept with:" } else { "Intercept the force that marched in with:" });
            for (id, name, in_city) in &here {
                let mut on = form.interceptors.contains(*id);
                let label = if *in_city { format!("{name} (coming out of the city, BE-16)") } else { (*name).to_owned() };
                let verdict = may_try(id);
                let response = ui.add_enabled(verdict.is_ok(), egui::Checkbox::new(&mut on, label));
                let response = match verdict {
                    Err(why) => response.on_disabled_hover_text(why),
                    Ok(()) => response,
                };
                if response.changed() {
                    if on {
                        form.interceptors.insert((*id).to_owned());
                    } else {
                        form.interceptors.remove(*id);
                    }
                }
            }
            if form.interceptors.len() > 1 {
                ui.label(RichText::new("One combined attempt, under the highest-ranked leader's rating (BE-15)").weak());
            }
            if mover && contact.targets > 1 {
                form.target = aimed;
                ui.horizontal(|ui| {
                    let aim = ui.label("Aim at marker");
                    ui.add(egui::DragValue::new(&mut form.target).range(1..=contact.targets)).labelled_by(aim.id);
                    ui.label(format!("of {} (named before the roll, BE-15)", contact.targets));
                });
            }
            if org.stratagems.iter().any(|s| s == "reconnaissance") {
                ui.checkbox(&mut form.reconnaissance, "Play Reconnaissance: two columns, or a decoy taken outright (BE-43)");
            }
            ui.horizontal(|ui| {
                let chosen = !form.interceptors.is_empty();
                let b = ui
                    .add_enabled(chosen, egui::Button::new("Intercept (1 AP)"))
                    .on_hover_text("Rolled on the interception table by the difference of strategic ratings; −1 in mountains (BE-14)")
                    .on_disabled_hover_text("Tick the leaders who intercept");
                if b.clicked() {
                    let order = Order::Intercept {
                        side: contact.turn_of.clone(),
                        leaders: form.interceptors.iter().cloned().collect(),
                        target: (mover && contact.targets > 1).then_some(form.target.max(1)),
                        reconnaissance: form.reconnaissance,
                    };
                    p.run(order);
                    form.interceptors.clear();
                    form.reconnaissance = false;
                }
            });
        }
        ui.horizontal(|ui| {
            if ui.button(if mover { "Make no (more) attempts" } else { "Do not intercept" }).clicked() {
                p.run(Order::Decline { side: contact.turn_of.clone() });
            }
            let both_failed = contact.failed.len() >= 2;
            if both_failed && !contact.agreed.contains(&contact.turn_of) && ui.button("Offer battle by consent").clicked() {
                p.run(Order::AgreeToBattle { side: contact.turn_of.clone() });
            }
        });
    });
    // A side may also agree out of turn once both have failed, unless a relief is under way.
    for side in &board.sides {
        if !contact.relief
            && side.id != contact.turn_of
            && may_order(viewer, &side.id)
            && *viewer != Viewer::Umpire
            && contact.failed.len() >= 2
            && !contact.agreed.contains(&side.id)
            && ui.button(format!("{}: offer battle by consent (BE-13)", side.name)).clicked()
        {
            p.run(Order::AgreeToBattle { side: side.id.clone() });
        }
    }
    ui.add_space(6.0);
}

fn other(board: &Board, side: &SideId) -> SideId {
    board.sides.iter().map(|s| s.id.clone()).find(|s| s != side).unwrap_or_else(|| side.clone())
}

/// The battle window: open while a battle is fought.
/// What the battle window draws from: the set-up's public part, the viewer's board and
/// facts, and — in the referee's view only — the campaign, for the table's result form.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BattleSources<'a> {
    pub public: Public<'a>,
    pub board: &'a Board,
    pub facts: &'a Facts,
    pub umpire: Option<&'a State>,
}

pub(crate) fn battle_window(
    ctx: &egui::Context,
    src: BattleSources<'_>,
    viewer: &Viewer,
    form: &mut BattleForm,
    table: &TableData<'_>,
    commands: &mut Vec<AppCommand>,
) {
    let board = src.board;
    let Some(battle) = &board.battle else {
        if form.odds.is_some() || !form.shares.is_empty() {
            *form = BattleForm::default();
        }
        return;
    };
    let title = format!("Battle at {}", zone_name(src.public, &battle.zone));
    egui::Window::new(title).id(egui::Id::unique("belisarius-battle")).default_width(640.0).collapsible(false).show(ctx, |ui| {
        egui::ScrollArea::vertical().max_height(ctx.content_rect().height() * 0.8).show(ui, |ui| {
            battle_ui(ui, src, battle, viewer, form, table, commands);
        });
    });
}

fn battle_ui(
    ui: &mut egui::Ui,
    src: BattleSources<'_>,
    battle: &BattleBoard,
    viewer: &Viewer,
    form: &mut BattleForm,
    table: &TableData<'_>,
    commands: &mut Vec<AppCommand>,
) {
    let board = src.board;
    let kind = match (&battle.kind, &battle.ambusher) {
        (Interception::Ambush, Some(a)) => {
            format!("An ambush laid by the {}: two passages, then their pursuit (BE-23)", board.side_name(a))
        }
        _ => "A battle in line (BE-17)".to_owned(),
    };
    ui.label(RichText::new(kind).strong());
    if battle.at_table {
        ui.label("Fought on the table: its result is typed in below (BE-17)");
    } else {
        ui.label(format!("Passage of arms {}, {}", battle.passage, battle.stage.label()));
    }
    ui.separator();
    let umpire = *viewer == Viewer::Umpire;
    let legal = Legal::of(src.umpire);
    let roll = format!("Roll the {}", battle.stage.label());
    const BOTH_ROLL: &str = "Both sides roll at once (BE-17, BE-18)";
    if battle.at_table {
        table_ui(ui, src, battle, form, table, commands);
        ui.separator();
        ui.columns(battle.forces.len().max(1), |cols| {
            for (col, force) in cols.iter_mut().zip(&battle.forces) {
                force_ui(col, board, force);
            }
        });
        return;
    }
    match &battle.step {
        Step::Roll if umpire && battle.passage == 1 && battle.stage == referee_campaign::belisarius::fight::Stage::Fire => {
            ui.horizontal(|ui| {
                legal.order(ui, egui::Button::new(&roll), BOTH_ROLL, Order::Fight {}, commands);
                let table = "Fight it on the tabletop with DBM or DBSA; its result comes back here (BE-17)";
                legal.order(ui, egui::Button::new("Send to the table"), table, Order::SendToTable {}, commands);
            });
        }
        Step::Roll => {
            if umpire {
                legal.order(ui, egui::Button::new(&roll), BOTH_ROLL, Order::Fight {}, commands);
            } else {
                ui.label(RichText::new("The referee rolls the next stage.").weak());
            }
        }
        Step::Losses { owed, taken } => {
            for (side, o) in owed.iter().filter(|(s, o)| o.points > 0 && !taken.contains(*s)) {
                let force = battle.forces.iter().find(|f| &f.side == side);
                if let Some(force) = force.filter(|_| may_order(viewer, side)) {
                    share_ui(ui, board, force, o, form, commands);
                } else {
                    ui.label(format!("The {} share out {} points of losses.", board.side_name(side), o.points));
                }
            }
        }
        Step::Decide => {
            ui.label("The passage is over: a side may break off (the enemy pursues, BE-22), or the sides part, or fight on.");
            ui.horizontal_wrapped(|ui| {
                for force in battle.forces.iter().filter(|f| may_order(viewer, &f.side)) {
                    let off = egui::Button::new(format!("{}: break off", board.side_name(&force.side)));
                    legal.order(ui, off, "The enemy pursues (BE-22)", Order::BreakOff { side: force.side.clone() }, commands);
                }
                if umpire {
                    let on = "Neither side breaks off: the next passage begins";
                    legal.order(ui, egui::Button::new("Fight on"), on, Order::Fight {}, commands);
                    let part = "Both agree to end the battle; nobody pursues (BE-17)";
                    legal.order(ui, egui::Button::new("The sides part"), part, Order::Part {}, commands);
                }
            });
        }
        Step::Pursuit { side, owed } => {
            if let Some(force) = battle.forces.iter().find(|f| &f.side == side).filter(|_| may_order(viewer, side)) {
                share_ui(ui, board, force, owed, form, commands);
            } else {
                ui.label(format!("The {} take the pursuit's losses.", board.side_name(side)));
            }
        }
        Step::Retreat { side } => {
            if may_order(viewer, side) {
                ui.label(format!("{}: retreat to", board.side_name(side)));
                ui.horizontal_wrapped(|ui| {
                    for (at, ok) in &src.facts.retreats {
                        let name = src.public.place_name(at);
                        let b = ui.add_enabled(ok.is_ok(), egui::Button::new(name));
                        let b = match ok {
                            Err(why) => b.on_disabled_hover_text(why.to_string()),
                            Ok(()) => b,
                        };
                        if b.clicked() {
                            run(commands, Order::Retreat { side: side.clone(), to: at.id().to_owned() });
                        }
                    }
                });
            } else {
                ui.label(format!("The {} choose where to retreat.", board.side_name(side)));
            }
        }
    }
    ui.separator();
    ui.columns(battle.forces.len().max(1), |cols| {
        for (col, force) in cols.iter_mut().zip(&battle.forces) {
            force_ui(col, board, force);
        }
    });
    ui.separator();
    odds_ui(ui, src, battle, form);
}

fn force_ui(ui: &mut egui::Ui, board: &Board, force: &ForceFace) {
    ui.label(RichText::new(format!("{} — {}", board.side_name(&force.side), force.leaders.join(", "))).strong());
    ui.label(format!("tactical {} · {} of {} combat points", force.tactical, force.points, force.start));
    // Runs of like units on one line, numbered as the loss form numbers them.
    let mut i = 0;
    while i < force.units.len() {
        let u = &force.units[i];
        let mut j = i + 1;
        while j < force.units.len() && force.units[j].fighter == u.fighter {
            j += 1;
        }
        let unit = u.fighter.unit;
        let numbers = if j - i > 1 { format!("{}–{}", i + 1, j) } else { (i + 1).to_string() };
        let times = if j - i > 1 { format!(" ×{}", j - i) } else { String::new() };
        let text = format!("{numbers}. {unit} {}{times}", unit.kind.label());
        let text = if unit.value == 0 {
            RichText::new(format!("{text} — destroyed")).strikethrough().weak()
        } else if u.fighter.disordered {
            RichText::new(format!("{text} — disordered (BE-20)")).italics()
        } else {
            RichText::new(text)
        };
        ui.label(text);
        i = j;
    }
}

/// The owner's share of losses, with the program's suggestion to start from (BE-19, BE-22).
fn share_ui(
    ui: &mut egui::Ui,
    board: &Board,
    force: &ForceFace,
    owed: &referee_campaign::belisarius::fight::Owed,
    form: &mut BattleForm,
    commands: &mut Vec<AppCommand>,
) {
    let name = board.side_name(&force.side);
    let what = if owed.pursuit { "the pursuit's losses, disordered units included" } else { "losses from the units still fighting" };
    ui.label(RichText::new(format!("{name}: {} combat points ({} %) of {what}", owed.points, owed.percent)).strong());
    if owed.from_cavalry > 0 {
        ui.label(format!("At least {} of them from cavalry (BE-19)", owed.from_cavalry));
    }
    let share = form.shares.entry(force.side.clone()).or_default();
    for (i, u) in force.units.iter().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let unit = u.fighter.unit;
        let open = unit.value > 0 && (owed.pursuit || !u.fighter.disordered);
        if !open {
            continue;
        }
        ui.horizontal(|ui| {
            let lost = share.entry(n).or_default();
            ui.label(format!("{n}. {unit} ({})", unit.kind.label()));
            ui.add(egui::DragValue::new(lost).range(0..=unit.value)).on_hover_text("Points this unit loses");
        });
    }
    let named: u32 = share.values().map(|&p| u32::from(p)).sum();
    ui.horizontal(|ui| {
        if ui.button("Suggest").on_hover_text("The program's share: keeps the most fighting strength").clicked() {
            let fighters: Vec<_> = force.units.iter().map(|u| u.fighter).collect();
            share.clear();
            for (i, p) in referee_campaign::belisarius::fight::suggested_share(&fighters, owed) {
                share.insert(u32::try_from(i + 1).unwrap_or(u32::MAX), p);
            }
        }
        let b = ui
            .add_enabled(named == owed.points, egui::Button::new(format!("Take {named} of {} points", owed.points)))
            .on_disabled_hover_text(format!("Share out exactly {} points", owed.points));
        if b.clicked() {
            let losses = share.iter().filter(|(_, p)| **p > 0).map(|(n, p)| (*n, *p)).collect();
            run(commands, Order::TakeLosses { side: force.side.clone(), losses, militia: 0 });
            share.clear();
        }
    });
}

/// Odds being counted on a thread of their own, so that no frame waits for them.
#[derive(Debug)]
pub(crate) struct OddsJob {
    /// The battle and policies they are counted for.
    key: String,
    answer: std::sync::mpsc::Receiver<Odds>,
}

/// The odds counted, with the battle and policies they were counted for.
#[derive(Debug, Clone)]
pub(crate) struct Counted {
    key: String,
    odds: Odds,
}

/// What the odds stand for: the battle as it is now and the policies picked. Odds counted
/// for another key are out of date.
fn odds_key(facts: &Facts, policies: [Policy; 2]) -> Option<String> {
    facts.battle_key.as_ref().map(|b| format!("{b}/{policies:?}"))
}

/// The odds from where the battle stands, losses owed included, for the break-off policies
/// picked; counted on another thread, and marked out of date once the battle moves on.
fn odds_ui(ui: &mut egui::Ui, src: BattleSources<'_>, battle: &BattleBoard, form: &mut BattleForm) {
    let board = src.board;
    ui.label(RichText::new("Odds from here").strong());
    let mut policies = form.policies.unwrap_or([Policy::AtLoss(50), Policy::AtLoss(50)]);
    let ambush = battle.kind == Interception::Ambush;
    if !ambush {
        for (i, force) in battle.forces.iter().enumerate().take(2) {
            egui::ComboBox::new(
                ("policy", i),
                format!("{} policy", referee_campaign::core::words::possessive(&board.side_name(&force.side))),
            )
            .selected_text(policies[i].label())
            .show_ui(ui, |ui| {
                for p in Policy::CHOICES {
                    ui.selectable_value(&mut policies[i], p, p.label());
                }
            });
        }
    }
    form.policies = Some(policies);
    let key = odds_key(src.facts, policies);
    if let Some(job) = &form.odds_job {
        match job.answer.try_recv() {
            Ok(odds) => {
                form.odds = Some(Counted { key: job.key.clone(), odds });
                form.odds_job = None;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => ui.ctx().request_repaint_after(std::time::Duration::from_millis(50)),
            Err(std::sync::mpsc::TryRecvError::Disconnected) => form.odds_job = None,
        }
    }
    // A count for another battle or other policies is dropped as soon as it comes.
    if form.odds_job.as_ref().is_some_and(|j| Some(&j.key) != key.as_ref()) {
        form.odds_job = None;
    }
    let counting = form.odds_job.is_some();
    ui.horizontal(|ui| {
        let b = ui
            .add_enabled(!counting && src.facts.odds.is_some(), egui::Button::new(format!("Count {} battles", ODDS_BATTLES)))
            .on_hover_text("From the battle as it stands, losses owed included; both sides share out losses as the program suggests");
        if b.clicked()
            && let (Some(start), Some(key)) = (src.facts.odds.clone(), key.clone())
        {
            let (send, answer) = std::sync::mpsc::channel();
            let tables = src.public.tables().clone();
            let seed = u64::from(battle.passage);
            let ctx = ui.ctx().clone();
            std::thread::spawn(move || {
                let _ = send.send(odds::simulate(&tables, &start, policies, ODDS_BATTLES, seed));
                ctx.request_repaint();
            });
            form.odds_job = Some(OddsJob { key, answer });
        }
        if counting {
            ui.spinner();
            ui.label(RichText::new("counting…").weak());
        }
    });
    let Some(counted) = &form.odds else { return };
    let stale = Some(&counted.key) != key.as_ref();
    if stale {
        ui.label(
            RichText::new("Counted before the battle moved on, or for other policies: count again")
                .italics()
                .color(ui.visuals().warn_fg_color),
        );
    }
    let o = &counted.odds;
    let text = |t: String| if stale { RichText::new(t).weak().strikethrough() } else { RichText::new(t) };
    egui::Grid::new("belisarius-odds").striped(true).show(ui, |ui| {
        ui.label("");
        ui.label("holds the field");
        ui.label("retreats");
        ui.label("destroyed");
        ui.label("CP lost (mean)");
        ui.end_row();
        for s in &o.sides {
            ui.label(board.side_name(&s.side));
            ui.label(text(format!("{:.0} %", o.percent(s.won))));
            ui.label(text(format!("{:.0} %", o.percent(s.retreated))));
            ui.label(text(format!("{:.0} %", o.percent(s.destroyed))));
            ui.label(text(format!("{:.1}", s.expected_lost)));
            ui.end_row();
        }
    });
    if o.parted > 0 {
        ui.label(text(format!("The sides part in {:.0} % of the battles", o.percent(o.parted))));
    }
}

/// A battle on the table: its pack, and the result form (BE-17).
fn table_ui(
    ui: &mut egui::Ui,
    src: BattleSources<'_>,
    battle: &BattleBoard,
    form: &mut BattleForm,
    table: &TableData<'_>,
    commands: &mut Vec<AppCommand>,
) {
    let board = src.board;
    ui.label(RichText::new("Fought on the tabletop").strong());
    // The result form is the referee's: in a side's view there is no campaign to read.
    let Some(state) = src.umpire else {
        ui.label("The referee writes the pack and enters the result.");
        return;
    };
    let t = &mut form.table;
    let settings = t.pack.get_or_insert_with(|| crate::gui::widgets::packs::PackSettings::new(table.campaign));
    egui::CollapsingHeader::new("The pack").id_salt("belisarius-table-pack").default_open(true).show(ui, |ui| {
        crate::gui::widgets::packs::options_ui(ui, settings);
        let check = settings.check();
        let go = ui
            .add_enabled(check.is_ok(), egui::Button::new("Write the pack"))
            .on_hover_text("Each side's brief and roster from its own view, and the umpire's sheet, into the folder");
        if let Err(e) = &check {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if go.clicked() {
            commands.push(BelisariusCommand::WritePack { settings: settings.clone() }.into());
        }
    });
    // The result form counts a hex game's counters under the rules the pack is written for.
    t.system = Some(settings.system);

    ui.add_space(4.0);
    ui.label(RichText::new("How the battle ended").strong());
    ui.horizontal_wrapped(|ui| {
        for force in &battle.forces {
            let chosen = t.outcome_chosen && t.broke_off.as_ref() == Some(&force.side);
            if ui.radio(chosen, format!("the {} broke off", board.side_name(&force.side))).clicked() {
                (t.outcome_chosen, t.broke_off, t.parted) = (true, Some(force.side.clone()), false);
            }
        }
        if ui.radio(t.outcome_chosen && t.parted, "the sides parted").clicked() {
            (t.outcome_chosen, t.broke_off, t.parted) = (true, None, true);
        }
        if ui.radio(t.outcome_chosen && !t.parted && t.broke_off.is_none(), "a force was destroyed").clicked() {
            (t.outcome_chosen, t.broke_off, t.parted) = (true, None, false);
        }
    });
    // The retreat's row is always there, so choosing an outcome moves nothing under the pointer.
    let options: Vec<(String, String)> = t.broke_off.as_ref().map_or_else(Vec::new, |side| {
        Facts::table_retreats(state, side)
            .into_iter()
            .filter(|(_, ok)| ok.is_ok())
            .map(|(at, _)| (at.id().to_owned(), src.public.place_name(&at)))
            .collect()
    });
    ui.add_enabled_ui(t.broke_off.is_some(), |ui| {
        let shown = t.retreat.as_ref().and_then(|r| options.iter().find(|(id, _)| id == r)).map_or("choose…", |(_, n)| n.as_str());
        egui::ComboBox::new("belisarius-table-retreat", "the side that broke off retreated to")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (id, name) in &options {
                    ui.selectable_value(&mut t.retreat, Some(id.clone()), name);
                }
            })
            .response
            .on_disabled_hover_text("Only a side that broke off retreats (BE-22)");
    });
    hex_ui(ui, state, src, t, table);
    ui.label(RichText::new("Losses on the table, by unit, and leaders killed").weak());
    for force in &battle.forces {
        let losses = t.losses.entry(force.side.clone()).or_default();
        egui::CollapsingHeader::new(format!("{}: combat points lost", board.side_name(&force.side)))
            .id_salt(("table-losses", force.side.as_str()))
            .default_open(true)
            .show(ui, |ui| {
                for (i, u) in force.units.iter().enumerate() {
                    let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    let unit = u.fighter.unit;
                    ui.horizontal(|ui| {
                        let lost = losses.entry(n).or_default();
                        let kind = unit.kind.label();
                        ui.label(if kind.is_empty() { format!("{n}. {unit}") } else { format!("{n}. {unit} ({kind})") });
                        ui.add(egui::DragValue::new(lost).range(0..=unit.value)).on_hover_text("Points this unit lost on the table");
                    });
                }
                for (id, name) in force.leader_ids.iter().zip(&force.leaders) {
                    let mut on = t.killed.contains(id);
                    if ui.checkbox(&mut on, format!("{name} killed (BE-09)")).changed() {
                        if on {
                            t.killed.insert(id.clone());
                        } else {
                            t.killed.remove(id);
                        }
                    }
                }
            });
    }
    ui.add_space(6.0);
    let ready = if !t.outcome_chosen {
        Err("Say first how the battle ended")
    } else if t.broke_off.is_some() && t.retreat.is_none() {
        Err("Say where the side that broke off retreated to")
    } else {
        Ok(())
    };
    let record = ui
        .add_enabled(ready.is_ok(), egui::Button::new(RichText::new("Record the result").strong()))
        .on_hover_text("The campaign's rules take it from there: leaders killed, retreat, control");
    if let Err(why) = ready {
        record.clone().on_disabled_hover_text(why);
        ui.label(RichText::new(why).weak());
    }
    if record.clicked() {
        let result = referee_campaign::belisarius::battle::TableResult {
            losses: t.losses.iter().map(|(s, l)| (s.clone(), l.iter().filter(|(_, p)| **p > 0).map(|(n, p)| (*n, *p)).collect())).collect(),
            leaders_killed: t.killed.iter().cloned().collect(),
            broke_off: t.broke_off.clone(),
            retreat: t.broke_off.as_ref().and(t.retreat.clone()),
            parted: t.parted,
        };
        run(commands, Order::RecordBattle { result });
    }
}
