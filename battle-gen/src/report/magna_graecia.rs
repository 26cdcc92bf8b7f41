//! A Magna Graecia turn report from one viewer's view: the node map with the viewer's own
//! counters named, its forces command by command, the battles and sieges due and the
//! victory points everyone has seen won.

use referee_campaign::core::history::Chart;
use referee_campaign::core::words::count;
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::turn::{FLEET, Phase};
use referee_campaign::magna_graecia::view::{Board, Forces, View};

use super::{ReportReader, ReportSide, ReportSpec, ReportTable, Sketch, SketchPiece, SketchPlace};

/// The report of `view`, every log line it holds included (see [`ReportSpec::keep_log_from`]).
pub fn report_spec(view: &View, map: &Map, charts: Vec<Chart>, commitment: Option<String>) -> ReportSpec {
    let board = view.board();
    let name = |id: &SideId| board.side(id).map_or_else(|| id.to_string(), |s| s.name.clone());
    let place = |n: NodeId| map.node(n).map_or_else(|| n.to_string(), |node| node.label());
    let reader = match view {
        View::Umpire(_) => ReportReader { side: None, name: "the umpire".to_owned() },
        View::Side(v) => ReportReader { side: Some(v.side.clone()), name: name(&v.side) },
    };
    // The turn counter moves past the last turn as the campaign ends (MG-32).
    let turn = if board.phase == Phase::Ended { board.turn.min(board.turns) } else { board.turn };
    let when = match board.phase {
        Phase::Setup => format!("setting up, turn {turn} of {}", board.turns),
        Phase::Ended => format!("the campaign is over after turn {turn} of {}", board.turns),
        phase => format!("turn {turn} of {}, {} to move ({})", board.turns, name(&board.moving), phase.name()),
    };
    let forces = view.forces();
    ReportSpec {
        campaign: board.campaign.clone(),
        scenario: board.scenario_name.clone(),
        turn,
        when,
        reader,
        sides: board.sides.iter().map(|s| ReportSide { id: s.id.clone(), name: s.name.clone() }).collect(),
        commitment,
        map_note: map.reconstructed.then(|| format!("The map is the program's reconstruction: {}", map.note)),
        sketch: sketch(board, &forces, map),
        forces: forces.iter().map(|f| forces_table(board, f, map)).collect(),
        coming: coming(board, &place, &name),
        victory: Some(victory(board, &place, &name)),
        log_from: 1,
        log: view.log().to_vec(),
        charts,
    }
}

fn index_of(board: &Board, side: &SideId) -> usize {
    board.sides.iter().position(|s| &s.id == side).unwrap_or(0)
}

fn sketch(board: &Board, forces: &[&Forces], map: &Map) -> Sketch {
    let at = |n: NodeId| map.node(n).map_or([0.0, 0.0], |node| [node.x_km, node.y_km]);
    let mut pieces = Vec::new();
    // The viewer's own counters by name, in the roster's order.
    for f in forces {
        for c in f.counters.iter().filter(|c| !c.aboard) {
            let text = if c.name == FLEET { "fleet".to_owned() } else { c.name.clone() };
            let aboard = f.counters.iter().filter(|o| o.aboard && o.node == c.node).count();
            let text = if c.name == FLEET && aboard > 0 { format!("{text} (carrying {aboard})") } else { text };
            let naval = c.name == FLEET;
            pieces.push(SketchPiece { at: at(c.node), side: index_of(board, &f.side), text, area: None, naval, face_down: false });
        }
    }
    // The others as anyone sees them across the table, in the board's order (by side, place
    // and kind, never by name).
    let seen: Vec<&SideId> = forces.iter().map(|f| &f.side).collect();
    for c in board.counters.iter().filter(|c| !seen.contains(&&c.side)) {
        let text = match (c.fleet, c.inside) {
            (true, _) => "fleet",
            (false, true) => "command (inside)",
            (false, false) => "command",
        };
        pieces.push(SketchPiece {
            at: at(c.node),
            side: index_of(board, &c.side),
            text: text.to_owned(),
            area: None,
            naval: c.fleet,
            face_down: false,
        });
    }
    Sketch {
        width_km: map.width_km,
        height_km: map.height_km,
        land: if map.outline.len() >= 3 { vec![map.outline.iter().map(|&(x, y)| [x, y]).collect()] } else { Vec::new() },
        areas: Vec::new(),
        links: map.paths.iter().map(|&(a, b)| [at(a), at(b)]).collect(),
        places: board
            .nodes
            .iter()
            .map(|n| SketchPlace {
                at: at(n.id),
                label: map.node(n.id).map_or_else(|| n.id.to_string(), |node| node.label()),
                held_by: n.controller.as_ref().map(|s| index_of(board, s)),
                city: n.city_commands.is_some(),
            })
            .collect(),
        pieces,
    }
}

fn forces_table(board: &Board, f: &Forces, map: &Map) -> ReportTable {
    let side = board.side(&f.side).map_or_else(|| f.side.to_string(), |s| s.name.clone());
    let place = |n: NodeId| map.node(n).map_or_else(|| n.to_string(), |node| node.label());
    let counter = |name: &str| f.counters.iter().find(|c| c.name == name);
    let mut rows = Vec::new();
    if let Some(army) = &f.army {
        for (c, mp) in army.commands.iter().zip(f.movement_points.iter().copied().chain(std::iter::repeat(0))) {
            let mut state = Vec::new();
            let at = match counter(&c.name) {
                Some(k) => {
                    if k.aboard {
                        state.push("aboard the fleet".to_owned());
                    }
                    if k.inside {
                        state.push("inside the walls".to_owned());
                    }
                    if k.mp_spent > 0 {
                        state.push(format!("{} MP spent", k.mp_spent));
                    }
                    place(k.node)
                }
                None => "not on the map".to_owned(),
            };
            if f.is_leaderless(&c.name) {
                state.push("no general (MG-31)".to_owned());
            }
            let elements: Vec<String> = c.elements.iter().map(ToString::to_string).collect();
            rows.push(vec![
                c.name.clone(),
                at,
                c.rank.name().to_owned(),
                mp.to_string(),
                f.elements_of(c).to_string(),
                format!("general {}; {}", c.general, elements.join(", ")),
                state.join("; "),
            ]);
        }
    }
    if let Some(fleet) = counter(FLEET) {
        let state = if fleet.sheltered { "sheltered in port (MG-19)" } else { "" };
        rows.push(vec![
            "Fleet".to_owned(),
            place(fleet.node),
            String::new(),
            f.counter_mp.get(FLEET).map_or_else(String::new, ToString::to_string),
            String::new(),
            format!("{} NPs", f.fleet_np),
            state.to_owned(),
        ]);
    }
    let garrison: u32 = f.garrison.iter().map(|g| g.count).sum();
    if garrison > 0 {
        let groups: Vec<String> = f.garrison.iter().map(ToString::to_string).collect();
        rows.push(vec![
            "Capital's garrison".to_owned(),
            String::new(),
            String::new(),
            String::new(),
            garrison.to_string(),
            groups.join(", "),
            "MG-04".to_owned(),
        ]);
    }
    let mut notes = vec![format!(
        "Army of {} points (roster costs {}); {} in the field; {} lost so far.",
        f.army_points,
        f.points_spent,
        elements(f.elements()),
        elements(f.elements_lost)
    )];
    if f.naval_losses_due > 0 {
        notes.push(format!("Owed: {} carried after the sea battle (MG-18).", elements(f.naval_losses_due)));
    }
    if let Some(due) = &f.siege_losses_due {
        notes.push(format!("Owed: {} at {} ({}).", elements(due.elements), place(due.node), due.rule));
    }
    for name in f.land_retreats.keys() {
        notes.push(format!("{name} must retreat (MG-15)."));
    }
    if !f.fleet_retreats.is_empty() {
        notes.push("The fleet must retreat (MG-15).".to_owned());
    }
    ReportTable {
        heading: format!("{} forces", referee_campaign::core::words::owner_of(&side)),
        columns: ["Command", "Where", "Rank", "MP", "Elements", "Make-up", "State"].map(str::to_owned).to_vec(),
        figures: vec![false, false, false, true, true, false, false],
        rows,
        notes,
    }
}

fn elements(n: u32) -> String {
    count(n, "element")
}

fn coming(board: &Board, place: &dyn Fn(NodeId) -> String, name: &dyn Fn(&SideId) -> String) -> Vec<String> {
    let mut out = Vec::new();
    for b in &board.battles {
        let defenders: Vec<String> = b.defenders.iter().map(name).collect();
        let day = if b.day > 1 { format!(", day {}", b.day) } else { String::new() };
        let state = if b.awaiting_choices {
            " — waiting for each side to stay or retire (MG-25)"
        } else if b.table.is_some() {
            " — the table is set"
        } else {
            " — the table is still to be set"
        };
        out.push(format!("Battle {} at {}: {} against {}{day}{state}.", b.id, place(b.node), name(&b.attacker), defenders.join(" and ")));
    }
    for s in &board.sieges {
        let disease = if s.disease { "; disease has come (MG-29)" } else { "" };
        let rolls = match s.rolls {
            0 => "no siege roll yet".to_owned(),
            1 => "1 siege roll made".to_owned(),
            n => format!("{n} siege rolls made"),
        };
        out.push(format!(
            "Siege of {}, held by {}: besieged by {} since turn {}, {rolls}{disease} (MG-28).",
            place(s.node),
            name(&s.defender),
            name(&s.besieger),
            s.begun_turn
        ));
    }
    if !board.alliance_rolls_due.is_empty() {
        let cities: Vec<String> = board.alliance_rolls_due.iter().map(|&n| place(n)).collect();
        out.push(format!("Alliance rolls due at the end of movement, in this order: {} (MG-06).", cities.join(", ")));
    }
    if let Some((side, ally)) = &board.switch_offer {
        out.push(format!("{} may change sides now that {} has lost a battle (MG-35).", name(side), name(ally)));
    }
    out
}

fn victory(board: &Board, place: &dyn Fn(NodeId) -> String, name: &dyn Fn(&SideId) -> String) -> ReportTable {
    let rows = board
        .sides
        .iter()
        .map(|s| {
            let v = board.victory.get(&s.id);
            let capitals: Vec<String> =
                v.map(|v| v.capitals.iter().map(|(n, p)| format!("{} ({p})", place(*n))).collect()).unwrap_or_default();
            let out = if board.eliminated.contains(&s.id) { " (out)" } else { "" };
            vec![
                format!("{}{out}", name(&s.id)),
                v.map_or(0, |v| v.cities.len()).to_string(),
                v.map_or(0, |v| v.commanders).to_string(),
                v.map_or(0, |v| v.enemy_np_destroyed).to_string(),
                if capitals.is_empty() { "—".to_owned() } else { capitals.join(", ") },
                v.map_or(0, |v| v.exits).to_string(),
                v.map_or(0, |v| v.total).to_string(),
            ]
        })
        .collect();
    ReportTable {
        heading: "Victory points".to_owned(),
        columns: ["Side", "Cities won", "Commanders", "Enemy NPs sunk", "Capitals", "Exits", "Total"].map(str::to_owned).to_vec(),
        figures: vec![false, true, true, true, false, true, true],
        rows,
        notes: vec!["As everyone at the table has seen them won (MG-33, MG-34).".to_owned()],
    }
}
