//! Writes a few hex maps for a person to look at: Sicilian nodes on both hex systems, fitted
//! to a page of the pack's paper, whole on A3 and on A4 sheets that join.
//!
//! ```sh
//! cargo run -p referee-battle-gen --example write_hexmaps -- OUT_DIR
//! ```
//!
//! `battle-gen/tests/hex_battlefield.rs` checks what a machine can (every feature on hexes,
//! roads unbroken, set-up hexes on the right edges); this is for the eye.

use std::path::PathBuf;
use std::process::ExitCode;

use referee_battle_gen::hexmap::{HexMap, HexSystem};
use referee_battle_gen::hexpage::{FullSize, SetupNames, fitted_page, full_size};
use referee_battle_gen::magna_graecia::node_ground;
use referee_battle_gen::pdf::Document;
use referee_battle_gen::{Defence, Flank, Paper, section};
use referee_campaign::ids::NodeId;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::map::Edge;

const SAMPLES: &[(u8, Edge, Defence, Option<Flank>)] = &[
    (0, Edge::East, Defence::Forward, None),
    (31, Edge::West, Defence::Central, None),
    (24, Edge::South, Defence::Forward, None),
    (3, Edge::East, Defence::Rear, Some(Flank::Left)),
];

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(out), None) = (args.next(), args.next()) else {
        eprintln!("usage: cargo run -p referee-battle-gen --example write_hexmaps -- OUT_DIR");
        return ExitCode::FAILURE;
    };
    let out = PathBuf::from(out);
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("{}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let map = match Catalog::embedded().map("sicily") {
        Some(m) => m.clone(),
        None => {
            eprintln!("the embedded data has no Sicily map");
            return ExitCode::FAILURE;
        }
    };
    let names = SetupNames { attacker: "Carthaginians".to_owned(), defender: "Syracusans".to_owned() };
    for &(node, edge, defence, cut) in SAMPLES {
        let Some(g) = node_ground(&map, NodeId(node)) else { continue };
        for system in HexSystem::ALL {
            let hexes = HexMap::new(system, &g, section(edge, defence, cut));
            let title = format!("{} — {} {}", system.name(), g.node, g.name);
            let mut doc = Document::new(&title, Paper::A4);
            let page = fitted_page(&doc, &hexes, &names, &title, "Attacker from the bottom edge.");
            doc.add(page);
            let tag = if system == HexSystem::ArsBellum { "ab" } else { "ac" };
            let files = [
                (format!("node-{node:02}-{tag}-fitted.pdf"), doc.finish()),
                (format!("node-{node:02}-{tag}-a3.pdf"), full_size(&hexes, &names, &title, &title, FullSize::A3).finish()),
                (format!("node-{node:02}-{tag}-tiles.pdf"), full_size(&hexes, &names, &title, &title, FullSize::Tiled(Paper::A4)).finish()),
            ];
            for (name, bytes) in files {
                let path = out.join(name);
                if let Err(e) = std::fs::write(&path, bytes) {
                    eprintln!("{}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    ExitCode::SUCCESS
}
