//! Raw shapes of the Belisarius campaign's data files (`belisarius/…`), exactly as written.

pub mod map;
pub mod scenario;
pub mod tables;
