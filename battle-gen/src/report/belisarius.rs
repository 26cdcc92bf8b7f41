//! A Belisarius turn report from one viewer's view: the zone map shaded by control with the
//! viewer's own pieces face up and the other side's as face-down markers, its Table of
//! Organisation, and what each side holds on the map.

use referee_campaign::SideId;
use referee_campaign::belisarius::map::ZoneMap;
use referee_campaign::belisarius::state::{Location, Phase};
use referee_campaign::belisarius::view::{Board, Organisation, View};
use referee_campaign::core::history::Chart;

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
    let mut coming = Vec::new();
    for org in &orgs {
        for line in &org.lines_due {
            coming.push(format!("{} still to place: line {}, {} ({}).", org.name, line.number, line.what, line.rule));
        }
    }
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
        coming,
        victory: Some(held(board)),
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
            held_by: board.cities.iter().find(|c| c.id == z.city.id).and_then(|c| c.holder.as_ref()).map(|h| index_of(board, h)),
            city: true,
        })
        .collect();
    // The board lists markers by where they are, never by who they are.
    let pieces = board
        .markers
        .iter()
        .map(|m| SketchPiece {
            at: km(map, &m.at),
            side: index_of(board, &m.side),
            text: m.face.clone().unwrap_or_else(|| if m.naval { "sea marker" } else { "marker" }.to_owned()),
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
        heading: format!("{}'s Table of Organisation", org.name),
        columns: ["Leader", "Where", "Strategic/tactical", "Units", "CP", "NP"].map(str::to_owned).to_vec(),
        figures: vec![false, false, false, false, true, true],
        rows,
        notes,
    }
}

fn held(board: &Board) -> ReportTable {
    let rows = board
        .sides
        .iter()
        .map(|s| {
            let zones = board.zones.iter().filter(|z| z.controller.as_ref() == Some(&s.id)).count();
            let cities = board.cities.iter().filter(|c| c.holder.as_ref() == Some(&s.id)).count();
            vec![s.name.clone(), zones.to_string(), cities.to_string()]
        })
        .collect();
    ReportTable {
        heading: "Held on the map".to_owned(),
        columns: ["Side", "Zones controlled", "Cities held"].map(str::to_owned).to_vec(),
        figures: vec![false, true, true],
        rows,
        notes: vec![
            "Control as everyone sees it on the map (BE-46). Victory is judged at a scenario's end, which comes with the rules of a later version (BE-49 … BE-52)."
                .to_owned(),
        ],
    }
}
