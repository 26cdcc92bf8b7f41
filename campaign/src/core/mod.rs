//! What every campaign shares, whatever its rules: the [`engine::Engine`] trait an engine
//! implements so one store, one command line and one app shell can run it; the log entries
//! every campaign has (its start, the referee's roll and note, a chit drawn, [`log`]); the
//! tabletop in words the battle packs share ([`table`]); views and how they are
//! followed order by order ([`view`]); dice and chit cups; refused orders and the rule they
//! name; viewers and what each may see.

pub mod dice;
pub mod engine;
pub mod error;
pub mod history;
pub mod log;
pub mod plan;
pub mod rule;
pub mod table;
pub mod verify;
pub mod view;
pub mod viewer;
pub mod words;
