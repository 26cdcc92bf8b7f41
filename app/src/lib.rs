//! The referee's program: the eframe desktop app ([`gui`]) and the `referee` command line
//! ([`cli`]), one binary. Both only build commands and draw views; the rules and the store
//! live in `referee-campaign`.
//!
//! This is the only crate that may use anyhow, the file system's user folders and the clock
//! for seeds.

pub mod cli;
pub mod gui;
pub(crate) mod input;
pub mod packet;
pub mod past;
pub mod reports;
pub mod tables;

use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;

/// A seed for a new campaign's dice when the referee gives none.
pub fn fresh_seed() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.finish() >> 11 // keep seeds exact in JSON readers that use doubles
}

/// "<scenario name> <n>", the first such name no campaign of `campaigns` has: the name a
/// new campaign gets when the referee gives none, in the app and on the command line.
pub(crate) fn suggested_name(scenario_name: &str, campaigns: &[referee_campaign::store::CampaignSummary]) -> String {
    (1..)
        .map(|n| format!("{scenario_name} {n}"))
        .find(|candidate| !campaigns.iter().any(|c| &c.name == candidate))
        .unwrap_or_else(|| scenario_name.to_owned())
}

/// Where the app keeps the list of database files opened lately: beside the default
/// database, in the user's data folder. `None` if there is no home folder.
pub fn recent_list_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "referee", "referee").map(|dirs| dirs.data_dir().join("recent-databases.txt"))
}

/// The database used when no `--db` is given: `referee.sqlite` in the user's data folder
/// (created on first use).
pub fn default_db_path() -> anyhow::Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("org", "referee", "referee")
        .ok_or_else(|| anyhow::anyhow!("cannot find a home folder for the default database; give one with --db"))?;
    let dir = dirs.data_dir();
    std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    Ok(dir.join("referee.sqlite"))
}
