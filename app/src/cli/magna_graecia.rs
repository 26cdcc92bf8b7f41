//! The command line for Magna Graecia campaigns: what `show`, `roster`, `log`, `pack` and
//! an order print.

use referee_battle_gen::pack::{Reader, WrittenFile};
use referee_campaign::SideId;
use referee_campaign::view::{self, View};
use serde::Serialize;

use super::Output;

#[derive(Serialize)]
#[serde(transparent)]
pub(super) struct Shown(pub View);

impl Output for Shown {
    fn text(&self) -> String {
        let board = self.0.board();
        let side_name = |id: &Option<SideId>| {
            id.as_ref().map(|id| board.side(id).map_or_else(|| id.to_string(), |s| s.name.clone())).unwrap_or_else(|| "—".to_owned())
        };
        let mut s = format!(
            "{} · {} · turn {} of {} · {} to move\n",
            board.campaign,
            board.scenario_name,
            board.turn,
            board.turns,
            side_name(&Some(board.moving.clone()))
        );
        match &self.0 {
            View::Umpire(_) => s.push_str("Seen by: the umpire\n"),
            View::Side(v) => s.push_str(&format!("Seen by: {}\n", side_name(&Some(v.side.clone())))),
        }
        for f in self.0.forces() {
            s.push_str(&format!("{}: army of {} points, fleet of {} NPs\n", side_name(&Some(f.side.clone())), f.army_points, f.fleet_np));
        }
        s.push_str("\nnode  controlled by   allied to       capital of\n");
        for n in &board.nodes {
            s.push_str(&format!(
                "{:>4}  {:<15} {:<15} {}\n",
                n.id.to_string(),
                side_name(&n.controller),
                side_name(&n.allied_to),
                side_name(&n.capital_of)
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
                    "  {} ({}, {} MP, {} elements): general {}; {}\n",
                    c.name,
                    c.rank.name(),
                    mp,
                    c.element_count(),
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
                };
                format!("{:<8} {} ({} pages, {} KB)\n", who, f.path.display(), f.pages, f.bytes.div_ceil(1024))
            })
            .collect()
    }
}
