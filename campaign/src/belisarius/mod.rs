//! The Belisarius campaign (Italy and Africa, 533–553): its zone map, pieces, tables and
//! scenarios.

pub mod map;
pub mod pieces;
pub mod scenario;
pub mod tables;
