//! What both engines' desks and the shell draw with, and nothing of either engine's rules.

pub(crate) mod backdrop;
pub(crate) mod circles;
pub(crate) mod hex_counters;
pub(crate) mod labels;
pub(crate) mod packs;
pub(crate) mod pan_zoom;
pub(crate) mod planned;
pub(crate) mod png;
pub(crate) mod roll;
pub(crate) mod sprites;
pub(crate) mod words;
