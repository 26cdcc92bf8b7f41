//! What every campaign shares, whatever its rules: dice and chit cups, refused orders and
//! the rule they name, viewers and what each may see, and the [`Engine`] trait an engine
//! implements so one store, one command line and one app shell can run it.

pub mod dice;
pub mod engine;
pub mod error;
pub mod history;
pub mod log;
pub mod rule;
pub mod verify;
pub mod view;
pub mod viewer;
pub mod words;
