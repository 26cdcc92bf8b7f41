//! The command line for Magna Graecia campaigns: what `show`, `roster`, `log`, `pack` and
//! an order print.

use referee_battle_gen::pack::{Reader, WrittenFile};
use referee_campaign::core::words::count;
use referee_campaign::turn::{FLEET, Phase};
use referee_campaign::view::{self, View};
use referee_campaign::{Map, NodeId, SideId};
use serde::Serialize;

use super::Output;

/// What `show` prints: the view, whose JSON is the view alone, and the map that names its
/// nodes in the text.
pub(super) struct Shown {
    pub view: View,
    pub map: Map,
}

impl Serialize for Shown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.view.serialize(serializer)
    }
}

impl Output for Shown {
    fn text(&self) -> String {
        let (board, map) = (self.view.board(), &self.map);
        let side_name = |id: &SideId| board.side(id).map_or_else(|| id.to_string(), |s| s.name.clone());
        let name_of = |id: &Option<SideId>| id.as_ref().map_or_else(|| "—".to_owned(), side_name);
        let place = |n: NodeId| map.node(n).map_or_else(|| n.to_string(), |node| node.label());
        let mut s = format!(
            "{} · {} · turn {} of {} · {}\n",
            board.campaign,
            board.scenario_name,
            board.turn,
            board.turns,
            match board.phase {
                Phase::Setup => "setup".to_owned(),
                Phase::Ended => "campaign over".to_owned(),
                phase => format!("{} to move ({})", side_name(&board.moving), phase.name()),
            }
        );
        let forces = self.view.forces();
        match &self.view {
            View::Umpire(_) => s.push_str("Seen by: the umpire\n"),
            View::Side(v) => s.push_str(&format!("Seen by: {}\n", side_name(&v.side))),
        }
        for f in &forces {
            s.push_str(&format!("{}: army of {} points, fleet of {} NPs\n", side_name(&f.side), f.army_points, f.fleet_np));
        }

        // Counters: the viewer's own by name, the others as they are seen across the table.
        let mut lines = Vec::new();
        for f in &forces {
            for c in &f.counters {
                let what = if c.name == FLEET { "fleet".to_owned() } else { c.name.clone() };
                let aboard = if c.aboard { " (aboard the fleet)" } else { "" };
                lines.push(format!("  {:<12} {:<14} at {}{aboard}", side_name(&f.side), what, place(c.node)));
            }
        }
        let own: Vec<&SideId> = forces.iter().map(|f| &f.side).collect();
        for c in board.counters.iter().filter(|c| !own.contains(&&c.side)) {
            let what = if c.fleet { "a fleet" } else { "a command" };
            let inside = if c.inside { " (inside the walls)" } else { "" };
            lines.push(format!("  {:<12} {:<14} at {}{inside}", side_name(&c.side), what, place(c.node)));
        }
        if !lines.is_empty() {
            s.push_str("\nCounters\n");
            s.push_str(&lines.join("\n"));
            s.push('\n');
        }
        if !board.battles.is_empty() {
            s.push_str("\nBattles due\n");
            for b in &board.battles {
                let defenders: Vec<String> = b.defenders.iter().map(side_name).collect();
                let day = if b.day > 1 { format!(", day {}", b.day) } else { String::new() };
                s.push_str(&format!(
                    "  {:>3}  at {}: {} against {}{day}\n",
                    b.id,
                    place(b.node),
                    side_name(&b.attacker),
                    defenders.join(" and ")
                ));
            }
        }
        if !board.sieges.is_empty() {
            s.push_str("\nSieges\n");
            for siege in &board.sieges {
                s.push_str(&format!("  {}: besieged by {}\n", place(siege.node), side_name(&siege.besieger)));
            }
        }

        s.push_str("\nnode                 controlled by   allied to       capital of\n");
        for n in &board.nodes {
            s.push_str(&format!(
                "  {:<19} {:<15} {:<15} {}\n",
                place(n.id),
                name_of(&n.controller),
                name_of(&n.allied_to),
                name_of(&n.capital_of)
            ));
        }
        s
    }
}

#[derive(Serialize)]
#[serde(transparent)]
pub(super) struct Rosters(pub Vec<view::Forces>);

impl Output for Rosters {
    fn text(&self) -> String {
        let mut s = String::new();
        for f in &self.0 {
            s.push_str(&format!("{}: {} of {} points", f.side, f.points_spent, f.army_points));
            let Some(army) = &f.army else {
                s.push_str(", no roster\n");
                continue;
            };
            s.push_str(&format!(" — {}\n", army.list));
            for (c, mp) in army.commands.iter().zip(&f.movement_points) {
                let elements: Vec<String> = c.elements.iter().map(ToString::to_string).collect();
                s.push_str(&format!(
                    "  {} ({}, {} MP, {}): general {}; {}\n",
                    c.name,
                    c.rank.name(),
                    mp,
                    count(c.element_count(), "element"),
                    c.general,
                    elements.join(", ")
                ));
            }
        }
        s
    }
}

#[derive(Serialize)]
#[serde(transparent)]
pub(super) struct LogOnly(pub View);

impl Output for LogOnly {
    fn text(&self) -> String {
        super::log_text(self.0.log().iter().map(|l| (l.seq, l.text.as_str())))
    }
}

#[derive(Serialize)]
#[serde(transparent)]
pub(super) struct Written(pub Vec<WrittenFile>);

impl Output for Written {
    fn text(&self) -> String {
        self.0
            .iter()
            .map(|f| {
                let who = match &f.reader {
                    Reader::Umpire => "umpire".to_owned(),
                    Reader::Side(s) => s.to_string(),
                    Reader::Everyone => "everyone".to_owned(),
                };
                let warning = f.glyph_warning().map_or_else(String::new, |w| format!("         warning: {w}\n"));
                format!("{:<8} {} ({}, {} KB)\n{warning}", who, f.path.display(), count(f.pages, "page"), f.bytes.div_ceil(1024))
            })
            .collect()
    }
}
