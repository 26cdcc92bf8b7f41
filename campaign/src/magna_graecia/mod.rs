//! The Magna Graecia campaign (Sicily, 398–211 BC): a node map, counters for commands and
//! fleets, DBM commands, and the rules MG-01…MG-37.

pub mod army;
pub mod battle;
pub mod catalog;
pub mod cities;
pub mod engine;
pub mod event;
pub mod map;
pub mod naval;
pub mod order;
pub mod plan;
pub mod rules;
pub mod scenario;
pub mod siege;
pub mod state;
pub mod table;
pub mod turn;
pub mod view;

pub use engine::MagnaGraecia;
