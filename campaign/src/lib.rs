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

// The Magna Graecia modules keep their old paths for the crates that use them.
pub use core::{dice, error, rule};
pub use magna_graecia::{army, battle, catalog, cities, event, map, naval, order, rules, scenario, siege, state, table, turn, view};

pub use catalog::Catalog;
pub use dice::{Dice, DiceSpec, Modifier, Roll};
pub use error::RuleError;
pub use event::{Event, Logged, Visibility};
pub use ids::{CampaignId, NodeId, SideId};
pub use map::Map;
pub use order::Order;
pub use scenario::Scenario;
pub use state::CampaignState;
pub use store::{Campaign, DiceInput, ExecError, Store, StoreError};
pub use view::{SideView, UmpireView, View, Viewer};
