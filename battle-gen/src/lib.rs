//! From a battle raised on the campaign map to a battle pack for the tabletop: the section
//! of the node's battle map in play, each side's brief and roster in the chosen tabletop
//! system, and the umpire's sheet, rendered to PDF; and the result form that goes back.
//!
//! Depends on `referee-campaign` and `referee-data`; never on egui. Every side's output is
//! built from that side's view only.
