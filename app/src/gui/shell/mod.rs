//! What every campaign has, whichever engine runs it: the app with its queue of commands,
//! the bar and its menus, the campaign picker, the hand-over to a side and back, the Dice
//! window, the Charts and Turn reports windows, and the window that prints a past
//! battle's pack again.

pub(crate) mod app;
pub(crate) mod bar;
pub(crate) mod charts;
pub(crate) mod command;
pub(crate) mod dice;
pub(crate) mod handover;
pub(crate) mod log;
pub(crate) mod mail;
pub(crate) mod past_packs;
pub(crate) mod picker;
pub(crate) mod recent;
