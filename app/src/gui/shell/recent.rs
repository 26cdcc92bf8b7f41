//! The database files opened lately, the latest first, kept between sessions in a file of
//! their own (one path a line) for the File menu.

use std::path::{Path, PathBuf};

/// How many files the list keeps.
const KEPT: usize = 8;

/// The list, and where it is kept; with no file it lasts the session only.
#[derive(Debug, Default)]
pub(crate) struct Recent {
    list: Vec<PathBuf>,
    file: Option<PathBuf>,
}

impl Recent {
    /// The list kept in `file`; a file not written yet is an empty list.
    pub fn read(file: PathBuf) -> Recent {
        let list = std::fs::read_to_string(&file).map(|text| text.lines().map(PathBuf::from).collect()).unwrap_or_default();
        Recent { list, file: Some(file) }
    }

    /// The files, the latest first.
    pub fn list(&self) -> &[PathBuf] {
        &self.list
    }

    /// Puts `db` first and writes the list back; says why it could not be kept.
    pub fn remember(&mut self, db: &Path) -> Result<(), String> {
        let db = std::fs::canonicalize(db).unwrap_or_else(|_| db.to_owned());
        self.list.retain(|p| p != &db);
        self.list.insert(0, db);
        self.list.truncate(KEPT);
        let Some(file) = &self.file else { return Ok(()) };
        let text: String = self.list.iter().map(|p| format!("{}\n", p.display())).collect();
        let written = file.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::write(file, text));
        written.map_err(|e| format!("the list of recent databases could not be kept in {}: {e}", file.display()))
    }
}
