//! The campaign's text files — maps, scenarios, later tables and army lists — and the raw
//! serde types they parse into.
//!
//! Every file is embedded in the binary, so the program runs with no set-up; a referee may
//! point it at a folder of their own copies instead ([`DataSource::Folder`]). This crate only
//! parses: it knows TOML and file names, not the rules. `referee-campaign` turns the raw types
//! into validated ones. It must not depend on any other crate of the workspace.

pub mod belisarius;
pub mod raw;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// The format version every data file declares in its `version` field.
pub const DATA_VERSION: u32 = 1;

/// A data file built into the binary.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedFile {
    /// Path relative to the data folder, with `/` separators, e.g. `maps/sicily.toml`.
    pub path: &'static str,
    pub text: &'static str,
}

/// Every data file shipped with the program.
pub const EMBEDDED: &[EmbeddedFile] = &[
    EmbeddedFile { path: "maps/sicily.toml", text: include_str!("../maps/sicily.toml") },
    EmbeddedFile { path: "tables/elements.toml", text: include_str!("../tables/elements.toml") },
    EmbeddedFile { path: "armies/dionysian.toml", text: include_str!("../armies/dionysian.toml") },
    EmbeddedFile { path: "armies/pyrrhic.toml", text: include_str!("../armies/pyrrhic.toml") },
    EmbeddedFile { path: "armies/first-punic.toml", text: include_str!("../armies/first-punic.toml") },
    EmbeddedFile { path: "armies/second-punic.toml", text: include_str!("../armies/second-punic.toml") },
    EmbeddedFile { path: "scenarios/dionysian.toml", text: include_str!("../scenarios/dionysian.toml") },
    EmbeddedFile { path: "scenarios/pyrrhic.toml", text: include_str!("../scenarios/pyrrhic.toml") },
    EmbeddedFile { path: "scenarios/first-punic.toml", text: include_str!("../scenarios/first-punic.toml") },
    EmbeddedFile { path: "scenarios/second-punic.toml", text: include_str!("../scenarios/second-punic.toml") },
    EmbeddedFile { path: "belisarius/tables.toml", text: include_str!("../belisarius/tables.toml") },
    EmbeddedFile { path: "belisarius/leaders.toml", text: include_str!("../belisarius/leaders.toml") },
    EmbeddedFile { path: "belisarius/scenarios/africa-533.toml", text: include_str!("../belisarius/scenarios/africa-533.toml") },
    EmbeddedFile { path: "belisarius/scenarios/italy-535.toml", text: include_str!("../belisarius/scenarios/italy-535.toml") },
    EmbeddedFile { path: "belisarius/scenarios/goths-541.toml", text: include_str!("../belisarius/scenarios/goths-541.toml") },
    EmbeddedFile { path: "belisarius/scenarios/final-551.toml", text: include_str!("../belisarius/scenarios/final-551.toml") },
    EmbeddedFile { path: "belisarius/map.toml", text: include_str!("../belisarius/map.toml") },
];

/// Where data files are read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DataSource {
    /// The copies built into the binary.
    #[default]
    Embedded,
    /// A folder laid out like `data/` (`maps/`, `scenarios/`), for a referee's own numbers.
    Folder(PathBuf),
}

/// The text of one data file and the name to report problems under.
#[derive(Debug, Clone)]
pub struct SourceText {
    /// The name shown in messages: the embedded path, or the file's path on disk.
    pub file: String,
    pub text: String,
}

impl DataSource {
    /// Reads the file at `path` (relative, `/`-separated, e.g. `maps/sicily.toml`).
    pub fn read(&self, path: &str) -> Result<SourceText, DataError> {
        match self {
            DataSource::Embedded => EMBEDDED
                .iter()
                .find(|f| f.path == path)
                .map(|f| SourceText { file: format!("data/{}", f.path), text: f.text.to_owned() })
                .ok_or_else(|| DataError::single(format!("data/{path}"), 0, "no such data file is built in")),
            DataSource::Folder(dir) => {
                let full = dir.join(path);
                std::fs::read_to_string(&full)
                    .map(|text| SourceText { file: full.display().to_string(), text })
                    .map_err(|e| DataError::single(full.display().to_string(), 0, format!("cannot be read: {e}")))
            }
        }
    }

    /// The relative paths of every file in `dir` (e.g. `scenarios`) ending in `.toml`, sorted.
    pub fn list(&self, dir: &str) -> Result<Vec<String>, DataError> {
        let mut out: Vec<String> = match self {
            DataSource::Embedded => {
                EMBEDDED.iter().filter(|f| Path::new(f.path).parent() == Some(Path::new(dir))).map(|f| f.path.to_owned()).collect()
            }
            DataSource::Folder(root) => {
                let full = root.join(dir);
                let entries = std::fs::read_dir(&full)
                    .map_err(|e| DataError::single(full.display().to_string(), 0, format!("cannot be listed: {e}")))?;
                entries
                    .filter_map(Result::ok)
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| n.ends_with(".toml"))
                    .map(|n| format!("{dir}/{n}"))
                    .collect()
            }
        };
        out.sort();
        Ok(out)
    }
}

/// One thing wrong with a data file, located as precisely as the parser allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    /// 1-based line; 0 when the problem concerns the file as a whole.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

/// Everything wrong with the data that was read, reported at once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct DataError {
    pub problems: Vec<Problem>,
}

impl DataError {
    pub fn single(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        DataError { problems: vec![Problem { file: file.into(), line, message: message.into() }] }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                write!(f, "{} problems in the data files:", many.len())?;
                for p in many {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

/// Collects problems found while checking one file, with byte offsets turned into lines.
#[derive(Debug)]
pub struct Report<'a> {
    source: &'a SourceText,
    pub problems: Vec<Problem>,
}

impl<'a> Report<'a> {
    pub fn new(source: &'a SourceText) -> Self {
        Report { source, problems: Vec::new() }
    }

    /// Records a problem at byte offset `at` of the file (use a field's `span().start`).
    pub fn at(&mut self, at: usize, message: impl Into<String>) {
        let line = line_of(&self.source.text, at);
        self.problems.push(Problem { file: self.source.file.clone(), line, message: message.into() });
    }

    /// Records a problem about the file as a whole.
    pub fn file(&mut self, message: impl Into<String>) {
        self.problems.push(Problem { file: self.source.file.clone(), line: 0, message: message.into() });
    }
}

/// 1-based line number of byte offset `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    text.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Parses TOML text into raw type `T`, with the line of any error.
pub fn parse_toml<T: DeserializeOwned>(source: &SourceText) -> Result<T, DataError> {
    toml::from_str(&source.text).map_err(|e| {
        let line = e.span().map_or(0, |s| line_of(&source.text, s.start));
        DataError::single(&source.file, line, e.message().trim_end().to_owned())
    })
}

/// Parses a TOML file into raw type `T`, checking its `version` field.
pub fn parse<T: DeserializeOwned + raw::Versioned>(source: &SourceText) -> Result<T, DataError> {
    let value: T = parse_toml(source)?;
    let version = value.version();
    if *version.get_ref() != DATA_VERSION {
        return Err(DataError::single(
            &source.file,
            line_of(&source.text, version.span().start),
            format!("declares format version {}, but this program reads version {DATA_VERSION}", version.get_ref()),
        ));
    }
    Ok(value)
}

impl fmt::Display for SourceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_file_is_listed_under_its_folder() {
        let scenarios = DataSource::Embedded.list("scenarios").unwrap();
        assert_eq!(scenarios.len(), 4);
        assert_eq!(DataSource::Embedded.list("maps").unwrap(), vec!["maps/sicily.toml"]);
    }

    #[test]
    fn line_numbers_are_one_based() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 4), 3);
    }

    #[test]
    fn a_missing_embedded_file_is_named() {
        let err = DataSource::Embedded.read("maps/atlantis.toml").unwrap_err();
        assert_eq!(err.to_string(), "data/maps/atlantis.toml: no such data file is built in");
    }
}
