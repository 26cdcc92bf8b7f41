//! The Belisarius rules, one module for each part of the game: set-up and scenarios, the
//! map and tables, operations, battles, sieges, fleets, supply, reinforcements, random
//! events and the end of a campaign. They are one test binary, linked once.

#[path = "../common/mod.rs"]
mod common;

mod battles;
mod end;
mod events;
mod fleets;
mod map;
mod operations;
mod random;
mod reinforcements;
mod scenarios;
mod setup;
mod sieges;
mod supply;
mod tables;
