//! MG-21: which part of a node's 8'×8' battle map is fought over. The attacker's base edge
//! is the edge by which it entered the node; the defender picks a forward, central or rear
//! 4'×8' section; on a 4'×6' table the attacker then cuts 2' off its left or right.

use referee_campaign::core::table::{Battlefield, Edge};
use referee_campaign::ids::NodeId;
use serde::{Deserialize, Serialize};

/// Side of a node's battle map, in feet.
pub const MAP_FEET: f32 = 8.0;
/// Depth of the section in play, in feet.
pub const SECTION_DEPTH_FEET: f32 = 4.0;
/// What the attacker cuts off one flank for a 4'×6' table, in feet.
pub const CUT_FEET: f32 = 2.0;

pub use referee_campaign::core::table::{Defence, Flank};

/// A rectangle on the 8'×8' map; x east and y south from the north-west corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub x_feet: f32,
    pub y_feet: f32,
    pub width_feet: f32,
    pub height_feet: f32,
}

/// The table in play.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub attacker_base: Edge,
    pub defence: Defence,
    pub cut: Option<Flank>,
    pub rect: Rect,
}

/// A point of the map (feet, x east, y south) on the section `rect` turned so that `base` lies
/// along the bottom, as its side of the table sees it: feet across from the left, down from
/// the top.
pub fn turn(rect: Rect, base: Edge, p: (f32, f32)) -> (f32, f32) {
    let r = rect;
    match base {
        Edge::South => (p.0 - r.x_feet, p.1 - r.y_feet),
        Edge::North => (r.x_feet + r.width_feet - p.0, r.y_feet + r.height_feet - p.1),
        Edge::West => (p.1 - r.y_feet, r.x_feet + r.width_feet - p.0),
        Edge::East => (r.y_feet + r.height_feet - p.1, p.0 - r.x_feet),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SectionError {
    #[error("node {node} has no road toward {from}, so the attacker's entry edge is unknown — MG-21")]
    NoRoad { node: NodeId, from: NodeId },
}

/// The attacker's base edge when it entered `node` from `from`: the edge its road leaves by.
pub fn attacker_base_edge(node: NodeId, battlefield: &Battlefield, from: NodeId) -> Result<Edge, SectionError> {
    battlefield.roads.get(&from).copied().ok_or(SectionError::NoRoad { node, from })
}

/// The section of the map in play for the attacker's base edge, the defender's choice and,
/// for a 4'×6' table, the flank the attacker cuts.
pub fn section(attacker_base: Edge, defence: Defence, cut: Option<Flank>) -> Section {
    // Distance of the section's near side from the attacker's base edge.
    let from_base = match defence {
        Defence::Forward => 0.0,
        Defence::Central => (MAP_FEET - SECTION_DEPTH_FEET) / 2.0,
        Defence::Rear => MAP_FEET - SECTION_DEPTH_FEET,
    };
    // Along the base edge, from the attacker's left to its right.
    let (along_start, along_len) = match cut {
        None => (0.0, MAP_FEET),
        Some(Flank::Left) => (CUT_FEET, MAP_FEET - CUT_FEET),
        Some(Flank::Right) => (0.0, MAP_FEET - CUT_FEET),
    };
    let rect = match attacker_base {
        // Facing south: the attacker's left is east.
        Edge::North => {
            Rect { x_feet: MAP_FEET - along_start - along_len, y_feet: from_base, width_feet: along_len, height_feet: SECTION_DEPTH_FEET }
        }
        // Facing north: left is west.
        Edge::South => Rect {
            x_feet: along_start,
            y_feet: MAP_FEET - from_base - SECTION_DEPTH_FEET,
            width_feet: along_len,
            height_feet: SECTION_DEPTH_FEET,
        },
        // Facing east: left is north.
        Edge::West => Rect { x_feet: from_base, y_feet: along_start, width_feet: SECTION_DEPTH_FEET, height_feet: along_len },
        // Facing west: left is south.
        Edge::East => Rect {
            x_feet: MAP_FEET - from_base - SECTION_DEPTH_FEET,
            y_feet: MAP_FEET - along_start - along_len,
            width_feet: SECTION_DEPTH_FEET,
            height_feet: along_len,
        },
    };
    Section { attacker_base, defence, cut, rect }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x_feet: x, y_feet: y, width_feet: w, height_feet: h }
    }

    /// MG-21: forward is the strip at the attacker's edge, rear the one furthest away,
    /// central the middle, for each edge the attacker can enter by.
    #[test]
    fn mg_21_section_follows_entry_edge_and_defence() {
        assert_eq!(section(Edge::North, Defence::Forward, None).rect, r(0.0, 0.0, 8.0, 4.0));
        assert_eq!(section(Edge::North, Defence::Rear, None).rect, r(0.0, 4.0, 8.0, 4.0));
        assert_eq!(section(Edge::South, Defence::Forward, None).rect, r(0.0, 4.0, 8.0, 4.0));
        assert_eq!(section(Edge::West, Defence::Central, None).rect, r(2.0, 0.0, 4.0, 8.0));
        assert_eq!(section(Edge::East, Defence::Forward, None).rect, r(4.0, 0.0, 4.0, 8.0));
        assert_eq!(section(Edge::East, Defence::Rear, None).rect, r(0.0, 0.0, 4.0, 8.0));
    }

    /// MG-21: on a 4'×6' table the attacker's cut takes 2' off its own left or right.
    #[test]
    fn mg_21_four_by_six_cut_is_from_the_attackers_point_of_view() {
        // From the north, facing south: left is east, so cutting left keeps the west 6'.
        assert_eq!(section(Edge::North, Defence::Forward, Some(Flank::Left)).rect, r(0.0, 0.0, 6.0, 4.0));
        assert_eq!(section(Edge::North, Defence::Forward, Some(Flank::Right)).rect, r(2.0, 0.0, 6.0, 4.0));
        // From the west, facing east: left is north.
        assert_eq!(section(Edge::West, Defence::Rear, Some(Flank::Left)).rect, r(4.0, 2.0, 4.0, 6.0));
        assert_eq!(section(Edge::South, Defence::Central, Some(Flank::Left)).rect, r(2.0, 2.0, 6.0, 4.0));
        for edge in Edge::ALL {
            for cut in [Flank::Left, Flank::Right] {
                let s = section(edge, Defence::Central, Some(cut)).rect;
                assert_eq!(s.width_feet * s.height_feet, 24.0, "{edge:?} {cut:?}");
                assert!(s.x_feet >= 0.0 && s.y_feet >= 0.0 && s.x_feet + s.width_feet <= 8.0 && s.y_feet + s.height_feet <= 8.0);
            }
        }
    }

    /// MG-21: the attacker's base edge is the edge of the road it came in by.
    #[test]
    fn mg_21_base_edge_is_the_road_of_entry() {
        let catalog = referee_campaign::magna_graecia::catalog::Catalog::embedded();
        let map = catalog.map("sicily").unwrap();
        let catana = map.node(NodeId(24)).unwrap();
        // Leontini (23) lies south-west of Catana; its road leaves by the south or west edge.
        let edge = attacker_base_edge(catana.id, &catana.battlefield, NodeId(23)).unwrap();
        assert!(matches!(edge, Edge::South | Edge::West), "{edge:?}");
        let err = attacker_base_edge(catana.id, &catana.battlefield, NodeId(0)).unwrap_err();
        assert_eq!(err.to_string(), "node 24 has no road toward 00, so the attacker's entry edge is unknown — MG-21");
    }
}
