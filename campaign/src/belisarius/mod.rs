//! The Belisarius campaign (Italy and Africa, 533–553): its zone map, pieces, tables and
//! scenarios, and the rules behind the core's engine trait. Face-down leaders and decoys,
//! units on each side's Table of Organisation and stratagems in hand are hidden by the
//! views, never by the screens (BE-53).

pub mod battle;
pub mod engine;
pub mod event;
pub mod fight;
pub mod franks;
pub mod interception;
pub mod map;
pub mod naval;
pub mod odds;
pub mod operations;
pub mod order;
pub mod pieces;
pub mod plan;
pub mod random_events;
pub mod reinforce;
pub mod scenario;
pub mod setup;
pub mod siege;
pub mod state;
pub mod supply;
pub mod tables;
pub mod victory;
pub mod view;
pub mod world;

pub use engine::Belisarius;
pub use setup::Setup;
pub use world::World;
