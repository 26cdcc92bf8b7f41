//! The campaign engine: identifiers, dice, commands and events, the rules that turn one into
//! the other, campaign state, what each viewer may see, and the SQLite store.
//!
//! Everything follows one pattern: a [`Command`] goes through [`rules::decide`] with the
//! current [`CampaignState`] and the [`Dice`], giving [`Event`]s or a [`RuleError`]; the
//! [`Store`] writes the events in one transaction; the state applies them; screens and
//! exports draw a [`View`]. Rules never touch the database, the screen or the clock.
//!
//! Depends on `referee-data` only among the workspace crates; it must never import egui
//! or printpdf.

pub mod army;
pub mod battle;
pub mod belisarius;
pub mod catalog;
pub mod cities;
pub mod command;
pub mod dice;
pub mod error;
pub mod event;
#[cfg(feature = "fixtures")]
pub mod fixtures;
pub mod ids;
pub mod map;
pub mod naval;
pub mod rules;
pub mod scenario;
pub mod siege;
pub mod state;
pub mod store;
pub mod table;
pub mod turn;
pub mod view;

pub use catalog::Catalog;
pub use command::Command;
pub use dice::{Dice, DiceSpec, Modifier, Roll};
pub use error::RuleError;
pub use event::{Event, Logged, Visibility};
pub use ids::{CampaignId, NodeId, SideId};
pub use map::Map;
pub use scenario::Scenario;
pub use state::CampaignState;
pub use store::{Campaign, DiceInput, ExecError, Store, StoreError};
pub use view::{SideView, UmpireView, View, Viewer};
