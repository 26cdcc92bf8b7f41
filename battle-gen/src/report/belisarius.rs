//! A Belisarius turn report from one viewer's view: the zone map shaded by control with the
//! viewer's own pieces face up and the other side's as face-down markers, its Table of
//! Organisation, and what each side holds on the map.

use referee_campaign::belisarius::battle::Step;
use referee_campaign::belisarius::map::{CityId, SeaId, ZoneId, ZoneMap};
use referee_campaign::belisarius::state::{Location, Phase};
use referee_campaign::belisarius::tables::{Interception, SIEGE_FALLS_AT};
use referee_campaign::belisarius::view::{Board, Organisation, View};
use referee_campaign::core::history::Chart;
use referee_campaign::core::words::{capitalised, count, count_as, possessive};
use referee_campaign::ids::SideId;

use super::{Km, ReportReader, ReportSide, ReportSpec, ReportTable, Sketch, SketchArea, SketchPiece, SketchPlace};

/// The report of `view` on `map` (the campaign's own, public), every log line it holds
/// included (see [`ReportSpec::keep_log_from`]).
pub fn report_spec(view: &View, map: &ZoneMap, charts: Vec<Chart>, commitment: Option<String>) -> ReportSpec {
    let board = view.board();
    let name = |id: &SideId| board.side_name(id);
    let reader = match view {
        View::Umpire(_) => ReportReader { side: None, name: "the umpire".to_owned() },
        View::Side(v) => ReportReader { side: Some(v.side.clone()), name: name(&v.side) },
    };
    let phase = match board.phase {
        Phase::SetUp => "setting up",
        Phase::Play => "before operations",
        Phase::Operations => "operations",
        Phase::TurnEnd => "operations over",
        Phase::Over => "the campaign is over",
    };
    let orgs = view.organisations();
    ReportSpec {
        campaign: board.campaign.clone(),
        scenario: board.scenario_name.clone(),
        turn: board.turn,
        when: format!("{}, turn {} of {}, {phase}", board.date, board.turn, board.turns),
        reader,
        sides: board.sides.iter().map(|s| ReportSide { id: s.id.clone(), name: s.name.clone() }).collect(),
        commitment,
        map_note: map.reconstructed.then(|| format!("The map is the program's reconstruction: {}", map.note)),
        sketch: sketch(board, map),
        forces: orgs.iter().map(|o| organisation_table(o)).collect(),
        coming: coming(board, &orgs, map),
        victory: Some(victory(view, board)),
        log_from: 1,
        log: view.log().to_vec(),
        charts,
    }
}

fn index_of(board: &Board, side: &SideId) -> usize {
    board.sides.iter().position(|s| &s.id == side).unwrap_or(0)
}

fn km(map: &ZoneMap, at: &Location) -> Km {
    match at {
        Location::Zone(z) => map.zone(z).map_or([0.0, 0.0], |z| z.label_km),
        Location::City(c) => map.city(c).map_or([0.0, 0.0], |c| c.at_km),
        Location::Sea(s) => map.sea(s).map_or([0.0, 0.0], |s| s.label_km),
        // Views show no marker aboard a ship; a force aboard has no place of its own.
        Location::Aboard(_) => [0.0, 0.0],
    }
}

fn sketch(board: &Board, map: &ZoneMap) -> Sketch {
    let mut areas: Vec<SketchArea> = map
        .seas
        .iter()
        .map(|s| SketchArea { outline: s.outline_km.clone(), held_by: None, label: s.name.clone(), label_at: s.label_km })
        .collect();
    areas.extend(map.zones.iter().map(|z| SketchArea {
        outline: z.outline_km.clone(),
        held_by: board.zones.iter().find(|s| s.id == z.id).and_then(|s| s.controller.as_ref()).map(|c| index_of(board, c)),
        label: z.name.clone(),
        label_at: z.label_km,
    }));
    let places = map
        .zones
        .iter()
        .map(|z| SketchPlace {
            at: z.city.at_km,
            label: z.city.name.clone(),
            held_by: board.city(&z.city.id).and_then(|c| c.holder.as_ref()).map(|h| index_of(board, h)),
            city: true,
        })
        .collect();
    // The board lists markers by where they are, never by who they are. Each stays inside
    // its zone's or sea's outline: the seas come first among the areas, then the zones.
    let area = |at: &Location| match at {
        Location::Zone(z) => map.zones.iter().position(|x| &x.id == z).map(|i| map.seas.len() + i),
        Location::City(c) => map.zones.iter().position(|x| &x.city.id == c).map(|i| map.seas.len() + i),
        Location::Sea(s) => map.seas.iter().position(|x| &x.id == s),
        Location::Aboard(_) => None,
    };
    let pieces = board
        .markers
        .iter()
        .map(|m| SketchPiece {
            at: km(map, &m.at),
            side: index_of(board, &m.side),
            text: m.face.clone().unwrap_or_else(|| if m.naval { "sea marker" } else { "marker" }.to_owned()),
            area: area(&m.at),
            naval: m.naval,
            face_down: m.face.is_none(),
        })
        .collect();
    Sketch { width_km: map.width_km, height_km: map.height_km, land: Vec::new(), areas, links: Vec::new(), places, pieces }
}

fn organisation_table(org: &Organisation) -> ReportTable {
    let rows = org
        .boxes
        .iter()
        .map(|b| {
            let who = match (&b.leader, b.decoy, b.naval) {
                (Some(l), ..) => format!("{}{}", l.name, if l.cinc { " (CinC)" } else { "" }),
                (None, true, true) => "fleet decoy".to_owned(),
                (None, true, false) => "decoy".to_owned(),
                (None, false, true) => "fleet".to_owned(),
                (None, false, false) => "units without a leader".to_owned(),
            };
            let ratings = b.leader.as_ref().map_or_else(String::new, |l| format!("{}/{}, rank {}", l.strategic, l.tactical, l.rank));
            let units: Vec<String> = b.units.iter().map(ToString::to_string).collect();
            vec![
                who,
                b.place.clone(),
                ratings,
                units.join(", "),
                if b.naval { String::new() } else { b.points.to_string() },
                b.np.map_or_else(String::new, |n| n.to_string()),
            ]
        })
        .collect();
    let mut notes = Vec::new();
    if let Some(ap) = &org.action_points {
        notes.push(format!("{} of {} action points left this turn, secret from the other side (BE-04).", ap.left, ap.total));
    }
    if !org.stratagems.is_empty() {
        notes.push(format!("Stratagems in hand, secret from the other side: {} (BE-43).", org.stratagems.join(", ")));
    }
    let points: u32 = org.boxes.iter().filter(|b| !b.naval).map(|b| b.points).sum();
    notes.push(format!("{points} combat points on land."));
    ReportTable {
        heading: format!("{} Table of Organisation", capitalised(&possessive(&org.name))),
        columns: ["Leader", "Where", "Strategic/tactical", "Units", "CP", "NP"].map(str::to_owned).to_vec(),
        figures: vec![false, false, false, false, true, true],
        rows,
        notes,
    }
}

/// The name of a place of the map, or its id where the map lacks it.
fn place(map: &ZoneMap, at: &Location) -> String {
    match at {
        Location::Zone(z) => map.zone(z).map_or_else(|| z.to_string(), |z| z.name.clone()),
        Location::City(c) => map.city(c).map_or_else(|| c.to_string(), |c| c.name.clone()),
        Location::Sea(s) => map.sea(s).map_or_else(|| s.to_string(), |s| s.name.clone()),
        Location::Aboard(_) => "aboard ship".to_owned(),
    }
}

/// What is coming, one line each, from the board everyone sees and the Tables of
/// Organisation the reader may read (its own, or every side's for the umpire): the battle
/// fought or waiting at the table, a march halted awaiting an answer, ships halted, sieges
/// with their duration markers, losses owed, retreats due, phases still to play, lines and
/// reinforcements still to place, leaders away.
fn coming(board: &Board, orgs: &[&Organisation], map: &ZoneMap) -> Vec<String> {
    let name = |id: &SideId| board.side_name(id);
    let zone = |z: &ZoneId| place(map, &Location::Zone(z.clone()));
    let city = |c: &CityId| place(map, &Location::City(c.clone()));
    let sea = |s: &SeaId| place(map, &Location::Sea(s.clone()));
    let other = |side: &SideId| board.sides.iter().find(|s| &s.id != side).map_or_else(String::new, |s| s.name.clone());
    let owed = |owed: &[(SideId, u32)]| -> String {
        let each: Vec<String> = owed.iter().map(|(s, p)| format!("the {} {}", name(s), points(*p))).collect();
        each.join(", ")
    };
    let mut out = Vec::new();
    if board.phase == Phase::Play {
        let mut due = Vec::new();
        if board.events_to_play {
            due.push("the events phase (BE-47)");
        }
        if board.supplied != board.turn {
            due.push("the supply phase (BE-41)");
        }
        if board.reinforcements_to_play {
            due.push("the reinforcement phase (BE-45)");
        }
        due.push("the operations phase (BE-04, BE-05)");
        out.push(format!("Still to play this turn: {}.", due.join(", ")));
    }
    if let Some(b) = &board.battle {
        let forces: Vec<String> = b
            .forces
            .iter()
            .map(|f| format!("the {} under {} ({} of {} combat points)", name(&f.side), f.leaders.join(", "), f.points, f.start))
            .collect();
        let kind = if b.kind == Interception::Ambush { "An ambush" } else { "A battle in line" };
        let state = if b.at_table {
            "waiting at the table: its result comes back from the tabletop (BE-17)".to_owned()
        } else {
            match &b.step {
                Step::Roll => format!("passage {}, the {} to roll (BE-18)", b.passage, b.stage.label()),
                Step::Losses { owed, taken } => {
                    let due: Vec<String> = owed
                        .iter()
                        .filter(|(s, o)| o.points > 0 && !taken.contains(*s))
                        .map(|(s, o)| format!("the {} share out {}", name(s), points(o.points)))
                        .collect();
                    format!("passage {}: {} (BE-19)", b.passage, due.join(" and "))
                }
                Step::Decide => format!("passage {} is over: a side breaks off, the sides part or fight on (BE-17)", b.passage),
                Step::Pursuit { side, owed } => format!("the {} broke off and take {} of pursuit (BE-22)", name(side), points(owed.points)),
                Step::Retreat { side } => format!("the {} retreat from {}: a retreat is due (BE-22)", name(side), zone(&b.zone)),
            }
        };
        out.push(format!(
            "{kind} at {}, brought on by the march of the {}: {}; {state}.",
            zone(&b.zone),
            name(&b.mover),
            forces.join(" against ")
        ));
    }
    if let Some(c) = &board.contact {
        let relief = if c.relief { ", to relieve the siege there (BE-29)" } else { "" };
        out.push(format!(
            "Contact at {}: a march of the {} halted where the {} stand{relief}; the {} intercept or decline (BE-13).",
            zone(&c.zone),
            name(&c.mover),
            other(&c.mover),
            name(&c.turn_of)
        ));
    }
    if let Some(c) = &board.naval_contact {
        out.push(format!(
            "Ships halted in {}: {} sea marker(s) of the {}; the {} intercept or let them pass (BE-35).",
            sea(&c.sea),
            c.markers,
            name(&c.mover),
            other(&c.mover)
        ));
    }
    if let Some(b) = &board.naval_battle {
        let each: Vec<String> = b.squadrons.iter().map(|q| format!("the {} with {} NP", name(&q.side), q.np)).collect();
        let fought = count(b.passages, "passage");
        out.push(format!("Naval battle in {}, {fought} fought: {} (BE-36).", sea(&b.sea), each.join(" against ")));
    }
    if let Some(a) = &board.assault {
        out.push(format!("After the assault on {}, losses to share out: {} (BE-27).", city(&a.city), owed(&a.owed)));
    }
    if let Some(d) = &board.sortie {
        let answer = match d.answered {
            None => format!("the {} to meet it with as many points", other(&d.side)),
            Some(p) => format!("met with {}; losses to share out: {}", points(p), owed(&d.owed)),
        };
        out.push(format!(
            "Sortie from {}: {} of the {} with {}, {answer} (BE-28).",
            city(&d.city),
            d.leader,
            name(&d.side),
            points(d.points)
        ));
    }
    for (c, z) in board.cities.iter().zip(&map.zones) {
        let Some(siege) = &c.siege else { continue };
        let holder = c.holder.as_ref().map_or_else(|| "nobody".to_owned(), |h| format!("the {}", name(h)));
        out.push(format!(
            "Siege of {} ({}), held by {holder}: besieged by the {}, duration marker at {} of {} (BE-26); siege works {}, the city's defence {} (BE-24, BE-25).",
            city(&c.id),
            z.name,
            name(&siege.besieger),
            siege.duration,
            SIEGE_FALLS_AT,
            siege.siege_works,
            c.defence
        ));
    }
    for org in orgs {
        let who = &org.name;
        if let Some(a) = &org.attrition {
            let leader =
                org.boxes.iter().filter_map(|b| b.leader.as_ref()).find(|l| l.id == a.leader).map_or(a.leader.as_str(), |l| &l.name);
            out.push(format!("{who} owe {} of attrition after {leader}'s march, {} % (BE-12).", points(a.points), a.percent));
        }
        for (losses, rule) in [(&org.assault_losses, "BE-27"), (&org.sortie_losses, "BE-28"), (&org.supply_losses, "BE-41")] {
            if let Some(l) = losses {
                out.push(format!("{who} owe {} {} ({rule}).", points(l.points), l.what));
            }
        }
        if org.supply_dues > 1 {
            out.push(format!("{who} have {} losses for want of supply to share out in all (BE-41).", org.supply_dues));
        }
        if let Some(a) = &org.sortie_answer {
            out.push(format!("{who} must put up {} {} (BE-28).", points(a.points), a.what));
        }
        for line in &org.lines_due {
            out.push(format!("{who} still to place: line {}, {} ({}).", line.number, line.what, line.rule));
        }
        for r in &org.reinforcements_to_place {
            out.push(format!("{who}: reinforcements to place, {r} (BE-45)."));
        }
        if org.raise_half_points > 0 {
            out.push(format!(
                "{who}: {} of reinforcements to spend (BE-45).",
                referee_campaign::belisarius::reinforce::points(org.raise_half_points)
            ));
        }
    }
    for a in &board.away {
        out.push(format!("Away: {a} (BE-47)."));
    }
    out
}

fn points(n: u32) -> String {
    count(n, "combat point")
}

/// Victory as the reader may know it (BE-49 … BE-52): once the campaign is over, the
/// judgement everyone reads; before, the umpire's running check of every condition, or for a
/// side the scenario's conditions and where each stands as the map shows it; with what each
/// side holds on the map now.
fn victory(view: &View, board: &Board) -> ReportTable {
    let yes_no = |met: Option<bool>| match met {
        Some(true) => "yes".to_owned(),
        Some(false) => "no".to_owned(),
        None => "—".to_owned(),
    };
    let row = |side: &SideId, condition: &str, now: Option<&str>, met: Option<bool>| {
        vec![board.side_name(side), condition.to_owned(), now.unwrap_or("counted at the end").to_owned(), yes_no(met)]
    };
    let (heading, rows) = match (&board.result, view) {
        (Some(j), _) => {
            let winner = j.winner.as_ref().map_or_else(|| "nobody wins".to_owned(), |w| format!("the {} win", board.side_name(w)));
            let rows = j.standings.iter().map(|s| row(&s.side, &s.condition, Some(&s.now), Some(s.met))).collect();
            (format!("Victory: the campaign is over, {winner}"), rows)
        }
        (None, View::Umpire(u)) => {
            ("Victory conditions".to_owned(), u.victory.iter().map(|s| row(&s.side, &s.condition, Some(&s.now), Some(s.met))).collect())
        }
        (None, View::Side(_)) => {
            ("Victory conditions".to_owned(), board.victory.iter().map(|c| row(&c.side, &c.condition, c.now.as_deref(), c.met)).collect())
        }
    };
    let mut notes = Vec::new();
    let set_for = board.victory.first().map(|c| &c.side);
    if let Some(side) = set_for {
        let other = board.sides.iter().find(|s| &s.id != side).map_or_else(String::new, |s| s.name.clone());
        let when = if board.result.is_some() { "Judged as turn" } else { "Judged when turn" };
        let verb = if board.result.is_some() { "ended" } else { "ends" };
        notes.push(format!(
            "{when} {} {verb}: the {} win if they meet every condition, the {other} otherwise (BE-49 … BE-52).",
            board.turns,
            board.side_name(side)
        ));
    }
    if board.result.is_none() && matches!(view, View::Side(_)) && board.victory.iter().any(|c| c.now.is_none()) {
        notes.push(
            "Enemy combat points destroyed are counted at the end: some fall out of sight, a garrison with its city, troops drowned aboard (BE-53)."
                .to_owned(),
        );
    }
    let held: Vec<String> = board
        .sides
        .iter()
        .map(|s| {
            let zones = board.zones.iter().filter(|z| z.controller.as_ref() == Some(&s.id)).count();
            let cities = board.cities.iter().filter(|c| c.holder.as_ref() == Some(&s.id)).count();
            format!("the {} control {} and hold {}", s.name, count(zones, "zone"), count_as(cities, "city", "cities"))
        })
        .collect();
    notes.push(format!("On the map now, as everyone sees it: {} (BE-46).", held.join("; ")));
    ReportTable {
        heading,
        columns: ["Side", "Condition", "Where it stands", "Met"].map(str::to_owned).to_vec(),
        figures: vec![false, false, false, false],
        rows,
        notes,
    }
}
