//! The campaigns' rules: a core every campaign shares and one engine per campaign, with the
//! SQLite store they are kept in.
//!
//! Everything follows one pattern: an engine's order goes through [`core::engine::Engine::decide`]
//! with the campaign's state and the [`Dice`], giving events or a [`RuleError`]; the
//! [`Store`] writes the events in one transaction; the state applies them; screens and
//! exports draw what one viewer may see, a [`core::view::View`]. Rules never touch the
//! database, the screen or the clock.
//!
//! - [`core`]: the [`core::engine::Engine`] trait and the engines' ids, the referee's roll
//!   and note ([`core::log`]), views and how they are followed ([`core::view`]), dice and
//!   chit cups, viewers, rule ids, the upcasters that lift events stored in an older shape.
//! - [`magna_graecia`] (Sicily on a node map) and [`belisarius`] (Italy and Africa on a zone
//!   map): each engine's orders, events, rules, state and views.
//! - [`any`]: [`any::AnyCampaign`], the closed enum over the engines.
//! - [`store`]: one store for every engine.
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
