//! Ships at the desk (BE-33 … BE-40): a side's ships chosen and sailed along a route built on
//! the map, the interception at sea, the naval battle, troops going aboard and ashore, and
//! ships joining an assault.

use crate::gui::belisarius::Panel;
use crate::gui::widgets::words::may_order;
use std::collections::BTreeSet;

use egui::RichText;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::setup::{Public, ship_name};
use referee_campaign::belisarius::state::Location;
use referee_campaign::belisarius::view::{Board, OrgBox, Organisation};
use referee_campaign::core::viewer::Viewer;

use crate::gui::shell::command::AppCommand;

/// The ships chosen to sail together and their route, sea zone by sea zone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct VoyageForm {
    pub ships: BTreeSet<String>,
    pub route: Vec<String>,
}

/// The side's ships and fleet decoys, each with its box.
fn ships(org: &Organisation) -> impl Iterator<Item = (&str, &OrgBox)> {
    org.boxes.iter().filter_map(|b| b.ship.as_deref().map(|id| (id, b)))
}

fn cost(public: Public<'_>, action: &str) -> u8 {
    public.tables().cost(action).unwrap_or(1)
}

/// Whether `side` holds the city `city`, as the map shows.
fn holds(board: &Board, side: &referee_campaign::ids::SideId, city: &referee_campaign::belisarius::map::CityId) -> bool {
    board.cities.iter().any(|c| &c.id == city && c.holder.as_ref() == Some(side))
}

/// A ship in words, as its own side reads it.
fn label(id: &str, b: &OrgBox) -> String {
    let what = match b.np {
        Some(np) if b.carrying > 0 => format!("{np} NPs, {} CP aboard", b.carrying),
        Some(np) => format!("{np} NPs"),
        None => "decoy".to_owned(),
    };
    let sailed =
        if b.sailed > 0 { format!(", {} this turn", referee_campaign::core::words::count(b.sailed, "sea zone")) } else { String::new() };
    format!("{} ({what}{sailed})", ship_name(id))
}

/// BE-33: in the side's segment, ships chosen at one place sail along a route picked on the
/// map: sea zones, and at the end perhaps one of the side's ports.
pub(crate) fn voyage_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation, form: &mut VoyageForm) {
    let (public, board, selected) = (p.public, p.board, p.selected);
    let Some(ops) = board.operations.as_ref() else {
        return;
    };
    let segment = ops.segment == org.side && p.may_order(&org.side);
    let settled = board.contact.is_none()
        && board.battle.is_none()
        && board.assault.is_none()
        && board.sortie.is_none()
        && board.naval_contact.is_none()
        && board.naval_battle.is_none();
    if !segment || !settled || ships(org).next().is_none() {
        return;
    }
    let map = public.map();
    egui::CollapsingHeader::new(format!("{}: ships (BE-33)", org.name)).id_salt(("voyage", org.side.as_str())).default_open(true).show(
        ui,
        |ui| {
            ui.label(RichText::new("Pick ships at one place, then the sea zones on the map one after the other").weak());
            let mut from: Option<Location> = None;
            for (id, b) in ships(org) {
                let mut on = form.ships.contains(id);
                let place = public.place_name(&b.at);
                if ui.checkbox(&mut on, format!("{} at {place}", label(id, b))).changed() {
                    if on {
                        form.ships.insert(id.to_owned());
                    } else {
                        form.ships.remove(id);
                    }
                    form.route.clear();
                }
                if on {
                    from.get_or_insert_with(|| b.at.clone());
                }
            }
            form.ships.retain(|id| ships(org).any(|(s, _)| s == id));
            let Some(from) = from else { return };
            let together = ships(org).filter(|(id, _)| form.ships.contains(*id)).all(|(_, b)| b.at == from);
            if !together {
                ui.label(RichText::new("Ships sail together only from one place").italics());
                return;
            }
            // Where the route ends now, and what may come next.
            let end = form.route.last().map_or(from.clone(), |id| public.place(id).unwrap_or(from.clone()));
            let next: Vec<Location> = match &end {
                Location::Sea(s) => {
                    let mut out: Vec<Location> =
                        map.sea(s).map(|x| x.neighbours.iter().map(|n| Location::Sea(n.clone())).collect()).unwrap_or_default();
                    out.extend(
                        map.zones
                            .iter()
                            .filter(|z| z.city.port && z.coast.contains(s))
                            .filter(|z| holds(board, &org.side, &z.city.id))
                            .map(|z| Location::City(z.city.id.clone())),
                    );
                    out
                }
                Location::City(c) => {
                    map.zone_of_city(c).map(|z| z.coast.iter().map(|s| Location::Sea(s.clone())).collect()).unwrap_or_default()
                }
                _ => Vec::new(),
            };
            let route: Vec<String> =
                form.route.iter().map(|id| public.place(id).map_or_else(|_| id.clone(), |l| public.place_name(&l))).collect();
            ui.label(if route.is_empty() {
                "Route: pick a sea zone beside them on the map".to_owned()
            } else {
                format!("Route: {}", route.join(" → "))
            });
            ui.horizontal_wrapped(|ui| {
                if let Some(pick) = selected.filter(|s| next.contains(s))
                    && !matches!(end, Location::City(_) if !form.route.is_empty())
                    && ui.button(format!("Add {}", public.place_name(pick))).clicked()
                {
                    form.route.push(pick.id().to_owned());
                }
                if !form.route.is_empty() {
                    let ap = if form.ships.len() == 1 { cost(public, "naval-unit-move") } else { cost(public, "fleet-move") };
                    if ui
                        .button(format!("Sail ({ap} AP)"))
                        .on_hover_text(
                            "Naval attrition is rolled where the voyage ends or halts (BE-34); enemy ships may intercept (BE-35)",
                        )
                        .clicked()
                    {
                        p.run(Order::Sail {
                            side: org.side.clone(),
                            ships: form.ships.iter().cloned().collect(),
                            path: form.route.clone(),
                        });
                        form.route.clear();
                    }
                    if ui.button("Clear the route").clicked() {
                        form.route.clear();
                    }
                }
            });
        },
    );
}

/// BE-35, BE-36: ships halted in the enemy's sea zone, intercepted or let pass; the naval
/// battle's passages and retreats.
pub(crate) fn naval_contact_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, orgs: &[&Organisation]) {
    let (public, board, viewer) = (p.public, p.board, p.viewer);
    if let Some(c) = &board.naval_contact {
        let sea = public.place_name(&Location::Sea(c.sea.clone()));
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(
                RichText::new(format!(
                    "{} of the {} sailed into {sea}",
                    referee_campaign::core::words::count(c.markers, "sea marker"),
                    board.side_name(&c.mover)
                ))
                .strong(),
            );
            // As at a contact on land (BE-13): the choice is the other side's, made on its own
            // screen, where it sees only its own ships.
            if *viewer == Viewer::Umpire {
                for side in board.sides.iter().filter(|s| s.id != c.mover) {
                    ui.label(RichText::new(format!("It is for the {} to decide; hand them the screen.", side.name)).italics());
                    if ui.button(format!("Hand the screen to the {}", side.name)).clicked() {
                        p.commands.push(AppCommand::SetViewer(Viewer::Side(side.id.clone())));
                    }
                }
                return;
            }
            for org in orgs.iter().filter(|o| o.side != c.mover && may_order(viewer, &o.side)) {
                let here: Vec<String> = ships(org)
                    .filter(|(_, b)| b.np.is_some() && b.at == Location::Sea(c.sea.clone()))
                    .map(|(id, _)| id.to_owned())
                    .collect();
                ui.horizontal_wrapped(|ui| {
                    if !here.is_empty()
                        && ui
                            .button(format!("{}: intercept with {} ({} AP)", org.name, here.len(), cost(public, "naval-intercept")))
                            .on_hover_text("2d6 with the best tactical rating aboard; 7 or more (BE-35)")
                            .clicked()
                    {
                        p.run(Order::InterceptAtSea { side: org.side.clone(), ships: here.clone() });
                    }
                    if ui.button(format!("{}: let them pass", org.name)).clicked() {
                        p.run(Order::LetPass { side: org.side.clone() });
                    }
                });
            }
        });
    }
    if let Some(b) = &board.naval_battle {
        let sea = public.place_name(&Location::Sea(b.sea.clone()));
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(
                RichText::new(format!(
                    "Naval battle in {sea}, {} fought (BE-36)",
                    referee_campaign::core::words::count(b.passages, "passage")
                ))
                .strong(),
            );
            for s in &b.squadrons {
                let admiral = s.admiral.as_ref().map_or_else(String::new, |(n, t)| format!(", {n} aboard (tactical {t})"));
                ui.label(format!(
                    "{}: {}, {} of {} NPs{admiral}, {} CP embarked",
                    board.side_name(&s.side),
                    referee_campaign::core::words::count(s.ships, "ship"),
                    s.np,
                    s.start,
                    s.embarked
                ));
            }
            ui.horizontal_wrapped(|ui| {
                if b.squadrons.iter().any(|s| p.may_order(&s.side)) {
                    let fight = egui::Button::new("Fight another passage");
                    p.order(ui, fight, "Both sides roll; losses at once (BE-36)", Order::FightAtSea {});
                }
                let Some(seas) = public.map().sea(&b.sea).map(|s| s.neighbours.clone()) else { return };
                for s in b.squadrons.iter().filter(|s| may_order(viewer, &s.side)) {
                    for to in &seas {
                        let name = public.place_name(&Location::Sea(to.clone()));
                        let retire = egui::Button::new(format!("{} retire to {name}", board.side_name(&s.side))).small();
                        p.order(ui, retire, "", Order::RetireAtSea { side: s.side.clone(), to: to.0.clone() });
                    }
                }
            });
        });
    }
}

/// BE-37: the acting force goes aboard ships of its side in its port or off its coast, or,
/// aboard, lands where the map's selection says.
pub(crate) fn transport_ui(ui: &mut egui::Ui, p: &mut Panel<'_>, org: &Organisation, acting: &crate::gui::belisarius::facts::Acting) {
    let (public, board, selected) = (p.public, p.board, p.selected);
    let map = public.map();
    let side = &org.side;
    let Some(at) = acting.at.as_ref() else { return };
    match at {
        Location::Aboard(ship) => {
            let ships_at = acting.ship_at.clone().unwrap_or_else(|| at.clone());
            ui.label(format!("Aboard {} at {}", ship_name(ship), public.place_name(&ships_at)));
            let Some(to) = selected else {
                ui.label(RichText::new("Pick on the map where to land").weak());
                return;
            };
            let Some(zone) = public.zone_of(to).and_then(|z| map.zone(&z)) else { return };
            let beside =
                matches!(&ships_at, Location::Sea(s) if zone.coast.contains(s)) || ships_at == Location::City(zone.city.id.clone());
            if beside {
                let held = holds(board, side, &zone.city.id);
                let port = ships_at == Location::City(zone.city.id.clone()) || (zone.city.port && held);
                let ap = cost(public, if port { "embark-port" } else { "embark-coast" });
                let order = Order::Land { side: side.clone(), leader: acting.leader.clone(), at: to.id().to_owned() };
                let text = format!("Land at {} ({ap} AP)", public.place_name(to));
                p.order(ui, egui::Button::new(text), "Landing in the open enters the zone as a march does (BE-13, BE-37)", order);
            }
        }
        Location::Zone(_) | Location::City(_) => {
            let Some(zone) = public.zone_of(at).and_then(|z| map.zone(&z)) else { return };
            let city = Location::City(zone.city.id.clone());
            let held = holds(board, side, &zone.city.id);
            let mut places: Vec<&Location> = Vec::new();
            for (_, b) in ships(org) {
                let near = (b.at == city && zone.city.port) || matches!(&b.at, Location::Sea(s) if zone.coast.contains(s));
                if near && !places.contains(&&b.at) {
                    places.push(&b.at);
                }
            }
            for place in places {
                let here: Vec<String> = ships(org).filter(|(_, b)| &b.at == place).map(|(id, _)| id.to_owned()).collect();
                let port = *place == city || (zone.city.port && held);
                let ap = cost(public, if port { "embark-port" } else { "embark-coast" });
                let order = Order::Embark { side: side.clone(), leader: acting.leader.clone(), ships: here };
                let text = format!("Go aboard the ships at {} ({ap} AP)", public.place_name(place));
                p.order(
                    ui,
                    egui::Button::new(text),
                    "1 naval point carries 2 infantry or 1 cavalry point; each leader's box on one ship (BE-37)",
                    order,
                );
            }
        }
        Location::Sea(_) => {}
    }
}

/// BE-39: the side's ships off a besieged port, to join the assault.
pub(crate) fn supporting_ships(public: Public<'_>, org: &Organisation, zone: &referee_campaign::belisarius::map::ZoneId) -> Vec<String> {
    let Some(z) = public.map().zone(zone).filter(|z| z.city.port) else { return Vec::new() };
    let mut place = None;
    ships(org)
        .filter(|(_, b)| b.np.is_some() && matches!(&b.at, Location::Sea(s) if z.coast.contains(s)))
        .filter(|(_, b)| place.get_or_insert_with(|| b.at.clone()) == &b.at)
        .map(|(id, _)| id.to_owned())
        .collect()
}
