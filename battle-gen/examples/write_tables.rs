//! Writes a few table pages for a person to look at: sections of several Sicilian nodes,
//! entered from different edges, with each defence, a 4'×6' cut and both papers.
//!
//! ```sh
//! cargo run -p referee-battle-gen --example write_tables -- OUT_DIR
//! ```
//!
//! The tests in `src/table.rs` check what can be checked by machine (roads, sides and
//! compass edges named on every page); this is for the eye: does the drawing read well?

use std::path::PathBuf;
use std::process::ExitCode;

use referee_battle_gen::Paper;
use referee_battle_gen::magna_graecia::node_ground;
use referee_battle_gen::pdf::Document;
use referee_battle_gen::table::{TablePlan, table_page};
use referee_battle_gen::{Defence, Flank, section};
use referee_campaign::ids::NodeId;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::map::Edge;

const SAMPLES: &[(u8, Edge, Defence, Option<Flank>, Paper)] = &[
    (0, Edge::East, Defence::Forward, None, Paper::A4),
    (31, Edge::West, Defence::Central, None, Paper::A4),
    (24, Edge::South, Defence::Forward, None, Paper::Letter),
    (3, Edge::East, Defence::Rear, Some(Flank::Left), Paper::A4),
    (22, Edge::North, Defence::Central, None, Paper::A4),
    (23, Edge::West, Defence::Forward, None, Paper::Letter),
];

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(out), None) = (args.next(), args.next()) else {
        eprintln!("usage: cargo run -p referee-battle-gen --example write_tables -- OUT_DIR");
        return ExitCode::FAILURE;
    };
    let out = PathBuf::from(out);
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("{}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let catalog = Catalog::embedded();
    let map = catalog.map("sicily").expect("the embedded map of Sicily");
    for &(id, edge, defence, cut, paper) in SAMPLES {
        let Some(g) = node_ground(map, NodeId(id)) else {
            eprintln!("node {id} has no ground");
            return ExitCode::FAILURE;
        };
        let section = section(edge, defence, cut);
        let plan = TablePlan {
            ground: &g,
            section,
            attacker: "Carthaginians".to_owned(),
            defender: "Syracusans".to_owned(),
            place: format!("{} {}", g.node, g.name),
            setting: referee_battle_gen::table::section_setting(&section),
            deployment_feet: Some(1.0),
            title: format!("Battle at {} {}", g.node, g.name),
        };
        let mut doc = Document::new(&plan.title, paper);
        let page = table_page(&doc, &plan);
        doc.add(page);
        let path = out.join(format!("{id:02}_{}.pdf", edge.name()));
        if let Err(e) = std::fs::write(&path, doc.finish()) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("{}", path.display());
    }
    ExitCode::SUCCESS
}
