//! The campaign engine: identifiers, dice, commands and events, the rules that turn one into
//! the other, campaign state, what each viewer may see, and the SQLite store.
//!
//! Everything follows one pattern: an [`Order`] goes through [`rules::decide`] with the
//! current [`CampaignState`] and the [`Dice`], giving [`Event`]s or a [`RuleError`]; the
//! [`Store`] writes the events in one transaction; the state applies them; screens and
//! exports draw a [`View`]. Rules never touch the database, the screen or the clock.
//!
//! Depends on `referee-data` only among the workspace crates; it must never import egui
//! or printpdf.

pub mod any;
pub mod belisarius;
pub mod core;
#[cfg(feature = "fixtures")]
pub mod fixtures;
pub mod ids;
pub mod magna_graecia;
pub mod store;

// What every engine shares, at the crate's root; each engine's own types are named by its
// path (`magna_graecia::order::Order`, `belisarius::order::Order`).
pub use core::{dice, error, rule};

pub use core::dice::{Dice, DiceSpec, Modifier, Roll};
pub use core::error::RuleError;
pub use core::viewer::{Viewer, Visibility};
pub use ids::{CampaignId, NodeId, SideId};
pub use store::{Campaign, DiceInput, ExecError, Store, StoreError};
