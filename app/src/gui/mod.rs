//! The desktop app (being written).

use std::path::PathBuf;

/// How the window is started; filled from the command line by `main`.
#[derive(Debug, Clone, Default)]
pub struct GuiOptions {
    /// The database file.
    pub db: PathBuf,
    /// Campaign (name or id) to open at once, instead of the picker.
    pub open: Option<String>,
    /// `umpire` or a side id: the view to start in.
    pub view_as: Option<String>,
    /// Close by itself after this many frames (for the smoke test in CI).
    pub smoke_frames: Option<u32>,
    /// Save a screenshot of the window here just before closing (with `smoke_frames`).
    pub screenshot: Option<PathBuf>,
}

pub fn run(_options: GuiOptions) -> anyhow::Result<()> {
    anyhow::bail!("the desktop app is not built yet")
}
