//! Sieges on the Belisarius desk (BE-24 … BE-32, BE-43): a city's siege panel (duration,
//! militia, defence, works), the acting leader's siege orders, and the form each side fills
//! in to share out an assault's losses.

use egui::RichText;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::siege::Works;
use referee_campaign::belisarius::state::Location;
use referee_campaign::belisarius::view::{Board, CityStatus, LossesToShare, Organisation};

use crate::gui::belisarius::Panel;
use crate::gui::belisarius::facts::Acting;

/// The siege panel under a city's name: its defence and works, and the siege laid to it.
pub(crate) fn city_panel_ui(ui: &mut egui::Ui, board: &Board, city: &CityStatus) {
    let works = if city.defence_works > 0 { format!(" ({} of it defence works)", city.defence_works) } else { String::new() };
    ui.label(format!("Defence {} of at most 5{works} (BE-25, BE-32)", city.defence));
    if let Some(s) = &city.siege {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(RichText::new(format!("Besieged by the {}", board.side_name(&s.besieger))).strong());
            ui.label(format!("Duration marker {} — the city falls when it reaches 4 (BE-26)", s.duration));
            ui.label(format!("Militia {} · siege works {}", city.militia, s.siege_works));
        });
    }
}

/// The acting leader's siege orders, shown when he stands by a city: lay siege, assault,
/// works, Treachery at an enemy city; defence works and pulling down the walls at his own.
pub(crate) fn siege_orders_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation, acting: &Acting) {
    let (public, board) = (p.public, p.board);
    if referee_campaign::belisarius::state::is_decoy(&acting.leader) {
        return;
    }
    let Some(at) = acting.at.clone() else { return };
    let Some(zone) = public.zone_of(&at) else { return };
    let Some(city) = public.map().zone(&zone).map(|z| z.city.clone()) else { return };
    let Some(status) = board.city(&city.id) else { return };
    let holder = status.holder.clone();
    let side = &org.side;
    let leader = acting.leader.clone();
    let cost = |action: &str| public.tables().cost(action).unwrap_or(1);
    egui::CollapsingHeader::new(format!("Siege of {} (BE-24 … BE-32)", city.name)).id_salt(("siege-orders", side.as_str())).show(
        ui,
        |ui| {
            match (&holder, status.siege.as_ref()) {
                (Some(h), None) if h != side && matches!(at, Location::Zone(_)) => {
                    p.order(
                        ui,
                        egui::Button::new(format!("Lay siege to {} ({} AP)", city.name, cost("start-siege"))),
                        "The duration marker goes on at 1; the first assault of this activation costs nothing more (BE-24, BE-27)",
                        Order::Besiege { side: side.clone(), leader: leader.clone() },
                    );
                }
                (Some(h), Some(s)) if h != side && &s.besieger == side => {
                    let ap = if acting.declared_here { 0 } else { cost("assault-later") };
                    p.order(
                        ui,
                        egui::Button::new(format!("Assault {} ({ap} AP)", city.name)),
                        "Points against the garrison and militia, 2d6 with the tactical rating and siege works, less the defence (BE-27)",
                        Order::Assault { side: side.clone(), leader: leader.clone(), ships: Vec::new() },
                    );
                    // BE-39: ships off the port join in, for their own price.
                    let ships = crate::gui::belisarius::fleet::supporting_ships(public, org, &zone);
                    if !ships.is_empty() {
                        let with = u32::from(ap) + u32::from(cost("naval-support"));
                        p.order(
                            ui,
                            egui::Button::new(format!(
                                "Assault {} with {} ({with} AP)",
                                city.name,
                                referee_campaign::core::words::count(ships.len(), "ship")
                            )),
                            "+1 to the assault's dice for every 3 naval points in support (BE-39)",
                            Order::Assault { side: side.clone(), leader: leader.clone(), ships },
                        );
                    }
                    p.order(
                        ui,
                        egui::Button::new(format!("Build siege works ({} AP)", cost("siege-works"))),
                        "Each adds 1 to the assault's dice; at most two for each leader present (BE-32)",
                        Order::BuildWorks { side: side.clone(), leader: leader.clone(), works: Works::Siege, count: 1 },
                    );
                    if org.stratagems.iter().any(|s| s == "treachery") {
                        p.order(
                            ui,
                            egui::Button::new("Play Treachery"),
                            "2d6 less the leader's tactical rating: 2 to 8 delivers the city (BE-43)",
                            Order::AttemptTreachery { side: side.clone(), leader: leader.clone() },
                        );
                    }
                }
                (Some(h), _) if h == side => {
                    if status.defence < 5 {
                        p.order(
                            ui,
                            egui::Button::new(format!("Build defence works ({} AP)", cost("defence-works"))),
                            "Adds 1 to the city's defence, at most 5 (BE-32)",
                            Order::BuildWorks { side: side.clone(), leader: leader.clone(), works: Works::Defence, count: 1 },
                        );
                    }
                    if status.defence > 0 {
                        p.order(
                            ui,
                            egui::Button::new(format!("Pull down the walls ({} AP)", cost("destroy-fortifications"))),
                            "Fortifications and defence works go to 0, however much is destroyed (BE-32)",
                            Order::DestroyFortifications { side: side.clone(), leader: leader.clone() },
                        );
                    }
                }
                _ => {
                    ui.label(RichText::new("Nothing to do here: the city is nobody's, or besieged by another force").weak());
                }
            }
            // Shut in a besieged city of his side: a sortie with units of the garrison (BE-28).
            if matches!(at, Location::City(_)) && status.siege.as_ref().is_some_and(|s| &s.besieger != side) {
                sortie_ui(ui, p, org, acting);
            }
        },
    );
}

/// The forms a side fills in to share out what it owes after an assault (BE-25, BE-27) or
/// for want of supply (BE-31, BE-41).
pub(crate) fn losses_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation) {
    if !p.may_order(&org.side) {
        return;
    }
    for (due, rule) in [(&org.assault_losses, "BE-27"), (&org.supply_losses, "BE-41"), (&org.sortie_losses, "BE-28")] {
        if let Some(due) = due {
            let side = org.side.clone();
            share_form_ui(ui, p, org, due, rule, "Take", move |losses, militia| Order::TakeLosses { side: side.clone(), losses, militia });
        }
    }
    if let Some(due) = &org.sortie_answer {
        let side = org.side.clone();
        share_form_ui(ui, p, org, due, "BE-28", "Commit", move |units, _| Order::AnswerSortie { side: side.clone(), units });
    }
}

/// Points per unit, and the militia's part where a city's militia may take some, starting from
/// a lawful share.
fn share_form_ui(
    ui: &mut egui::Ui,
    p: &mut Panel<'_>,
    org: &Organisation,
    due: &LossesToShare,
    rule: &str,
    verb: &str,
    order: impl Fn(Vec<(u32, u8)>, u8) -> Order,
) {
    let id = egui::Id::unique(("losses", org.side.as_str(), due.what.as_str(), due.points));
    let mut form: (Vec<u8>, u8) = ui.data(|d| d.get_temp(id)).unwrap_or_else(|| {
        let mut per = vec![0u8; due.units.len()];
        for (n, p) in &due.suggested.0 {
            if let Some(slot) = usize::try_from(*n).ok().and_then(|n| n.checked_sub(1)).and_then(|i| per.get_mut(i)) {
                *slot = *p;
            }
        }
        (per, due.suggested.1)
    });
    form.0.resize(due.units.len(), 0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        let what = if verb == "Take" { "points lost" } else { "points" };
        ui.label(RichText::new(format!("{}: {} {what} {}", org.name, due.points, due.what)).strong());
        if org.supply_dues > 1 && rule == "BE-41" {
            ui.label(RichText::new(format!("{} forces in all owe losses for want of supply, one after the other", org.supply_dues)).weak());
        }
        // The button first, over a share that starts as the program's suggestion: a referee
        // who takes it need not scroll.
        let named: u32 = form.0.iter().map(|&p| u32::from(p)).sum::<u32>() + u32::from(form.1);
        let ready = named == due.points;
        let b = ui
            .add_enabled(ready, egui::Button::new(format!("{verb} {named} of {} points", due.points)))
            .on_disabled_hover_text(format!("Share out exactly {} points ({rule})", due.points));
        if b.clicked() {
            let losses =
                form.0.iter().enumerate().filter(|(_, p)| **p > 0).map(|(i, p)| (u32::try_from(i + 1).unwrap_or(u32::MAX), *p)).collect();
            p.run(order(losses, form.1));
        }
        if due.militia > 0 {
            ui.horizontal(|ui| {
                ui.label("Militia");
                ui.add(egui::DragValue::new(&mut form.1).range(0..=due.militia)).on_hover_text("Points the city's militia loses (BE-25)");
            });
        }
        for (i, (leader, unit)) in due.units.iter().enumerate() {
            ui.horizontal(|ui| {
                let box_ = if leader.is_empty() { "no leader" } else { leader.as_str() };
                ui.label(format!("{}. {unit} {} ({box_})", i + 1, unit.kind.label()));
                if let Some(lost) = form.0.get_mut(i) {
                    ui.add(egui::DragValue::new(lost).range(0..=unit.value)).on_hover_text("Points this unit loses");
                }
            });
        }
    });
    ui.data_mut(|d| d.insert_temp(id, form));
}

/// The garrison's units ticked, and the sortie made with them (BE-28).
fn sortie_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation, acting: &Acting) {
    let id = egui::Id::unique(("sortie", org.side.as_str(), acting.leader.as_str()));
    let mut picked: std::collections::BTreeSet<u32> = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    ui.label(RichText::new("Sally with:").weak());
    super::unit_picks_ui(ui, &acting.garrison, &mut picked);
    let cost = p.public.tables().cost("sortie").unwrap_or(1);
    if ui
        .add_enabled(!picked.is_empty(), egui::Button::new(format!("Sally ({cost} AP)")))
        .on_hover_text("One melee against as many of the besiegers' points; no militia, no morale checks (BE-28)")
        .clicked()
    {
        p.run(Order::Sally { side: org.side.clone(), leader: acting.leader.clone(), units: picked.iter().copied().collect() });
        picked.clear();
    }
    ui.data_mut(|d| d.insert_temp(id, picked));
}

/// At a contact in the zone of a siege: the relief's "Attack the siege lines" for the
/// marching side, and the besieger's choice of who meets it (BE-29).
pub(crate) fn relief_ui(ui: &mut egui::Ui, p: &mut Panel<'_>) {
    let (board, facts) = (p.board, p.facts);
    let Some(c) = &board.contact else { return };
    let Some(besieger) = &facts.relief.besieger else { return };
    if besieger == &c.mover || !p.may_order(&c.turn_of) {
        return;
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        if !c.relief && c.turn_of == c.mover {
            if ui
                .button("Attack the siege lines")
                .on_hover_text("A relief needs no interception roll; the besiegers choose who meets it (BE-29)")
                .clicked()
            {
                p.run(Order::Relieve { side: c.mover.clone() });
            }
        } else if c.relief && &c.turn_of == besieger {
            ui.label(RichText::new(format!("The {} attack the siege lines: who meets them?", board.side_name(&c.mover))).strong());
            let id = egui::Id::unique(("hold-lines", besieger.as_str()));
            let mut picked: std::collections::BTreeSet<String> = ui.data(|d| d.get_temp(id)).unwrap_or_default();
            for (l, name) in &facts.relief.leaders {
                let mut on = picked.contains(l);
                if ui.checkbox(&mut on, name).changed() {
                    if on {
                        picked.insert(l.clone());
                    } else {
                        picked.remove(l);
                    }
                }
            }
            if ui
                .add_enabled(!picked.is_empty(), egui::Button::new("Meet the relief"))
                .on_hover_text(
                    "The others hold the lines; with fewer points than the besieged and their militia, the siege is lifted (BE-29)",
                )
                .on_disabled_hover_text("Tick the leaders who meet the relief")
                .clicked()
            {
                p.run(Order::HoldLines { side: besieger.clone(), fight: picked.iter().cloned().collect() });
                picked.clear();
            }
            ui.data_mut(|d| d.insert_temp(id, picked));
        }
    });
}

/// The acting leader lays waste to his zone (BE-44).
pub(crate) fn scorch_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation, acting: &Acting) {
    let (public, board) = (p.public, p.board);
    if referee_campaign::belisarius::state::is_decoy(&acting.leader) {
        return;
    }
    let Some(zone) = acting.at.as_ref().and_then(|at| public.zone_of(at)) else { return };
    if board.zones.iter().any(|z| z.id == zone && z.scorched) {
        return;
    }
    let cost = public.tables().cost("scorched-earth").unwrap_or(1);
    p.order(
        ui,
        egui::Button::new(format!("Lay {} waste ({cost} AP)", public.place_name(&Location::Zone(zone)))),
        "A scorched earth marker: no supply for the small, attrition for the unsupplied entering it, no Gothic recruits (BE-44)",
        Order::ScorchEarth { side: org.side.clone(), leader: acting.leader.clone() },
    );
}
