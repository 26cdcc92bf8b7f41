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

/// The folder of the Magna Graecia campaign's files (`maps/`, `scenarios/`, `armies/`,
/// `tables/`), in `data/` and in a referee's own data folder alike.
pub const MAGNA_GRAECIA: &str = "magna-graecia";

/// The folder of the Belisarius campaign's files (`map.toml`, `leaders.toml`, `tables.toml`,
/// `scenarios/`).
pub const BELISARIUS: &str = "belisarius";

/// The folder of the tables both campaigns' battle packs share (`hex-units.toml`, how forces
/// become hex wargame counters). A referee's data folder may hold its own copy; one without
/// this folder uses the built-in table. The table a hex pack was counted by is kept with its
/// battle, so its result is read back by the same counters whatever the folder holds later.
pub const TABLETOP: &str = "tabletop";

/// The folders Magna Graecia's files sat in at the top of a data folder before each campaign
/// had a folder of its own.
const OLD_TOP_FOLDERS: [&str; 4] = ["maps", "scenarios", "armies", "tables"];

/// A data file built into the binary.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedFile {
    /// Path relative to the data folder, with `/` separators, e.g.
    /// `magna-graecia/maps/sicily.toml`.
    pub path: &'static str,
    pub text: &'static str,
}

/// An [`EmbeddedFile`] of the file at `path` under `data/`.
macro_rules! embed {
    ($path:literal) => {
        EmbeddedFile { path: $path, text: include_str!(concat!("../", $path)) }
    };
}

/// Every data file shipped with the program.
pub const EMBEDDED: &[EmbeddedFile] = &[
    embed!("magna-graecia/maps/sicily.toml"),
    embed!("magna-graecia/tables/elements.toml"),
    embed!("magna-graecia/armies/dionysian.toml"),
    embed!("magna-graecia/armies/pyrrhic.toml"),
    embed!("magna-graecia/armies/first-punic.toml"),
    embed!("magna-graecia/armies/second-punic.toml"),
    embed!("magna-graecia/scenarios/dionysian.toml"),
    embed!("magna-graecia/scenarios/pyrrhic.toml"),
    embed!("magna-graecia/scenarios/first-punic.toml"),
    embed!("magna-graecia/scenarios/second-punic.toml"),
    embed!("belisarius/tables.toml"),
    embed!("belisarius/leaders.toml"),
    embed!("belisarius/scenarios/africa-533.toml"),
    embed!("belisarius/scenarios/italy-535.toml"),
    embed!("belisarius/scenarios/goths-541.toml"),
    embed!("belisarius/scenarios/final-551.toml"),
    embed!("belisarius/map.toml"),
    embed!("belisarius/tabletop.toml"),
    embed!("tabletop/hex-units.toml"),
];

/// Where data files are read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DataSource {
    /// The copies built into the binary.
    #[default]
    Embedded,
    /// A folder laid out like `data/` (`magna-graecia/…` and/or `belisarius/…`), for a
    /// referee's own numbers.
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
    /// Reads the file at `path` (relative, `/`-separated, e.g. `magna-graecia/maps/sicily.toml`).
    pub fn read(&self, path: &str) -> Result<SourceText, DataError> {
        let file = self.name_of(path);
        match self {
            DataSource::Embedded => EMBEDDED
                .iter()
                .find(|f| f.path == path)
                .map(|f| SourceText { file: file.clone(), text: f.text.to_owned() })
                .ok_or_else(|| DataError::single(file, 0, "no such data file is built in")),
            DataSource::Folder(dir) => std::fs::read_to_string(dir.join(path))
                .map(|text| SourceText { file: file.clone(), text })
                .map_err(|e| DataError::single(file, 0, format!("cannot be read: {e}"))),
        }
    }

    /// The name problems with the file at `path` are reported under, whether it is there or
    /// not: the built-in `data/…` path, or the file's path on disk.
    pub fn name_of(&self, path: &str) -> String {
        match self {
            DataSource::Embedded => format!("data/{path}"),
            DataSource::Folder(dir) => dir.join(path).display().to_string(),
        }
    }

    /// The relative paths of every file in `dir` (e.g. `magna-graecia/scenarios`) ending in
    /// `.toml`, sorted.
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

    /// Whether the source holds a campaign's folder ([`MAGNA_GRAECIA`], [`BELISARIUS`]). The
    /// built-in data holds both; a referee's folder may hold either or both.
    pub fn has(&self, campaign: &str) -> bool {
        match self {
            DataSource::Embedded => EMBEDDED.iter().any(|f| f.path.split('/').next() == Some(campaign)),
            DataSource::Folder(dir) => dir.join(campaign).is_dir(),
        }
    }

    /// Refuses a referee's folder that is not laid out like `data/`: one made before each
    /// campaign had its own folder (`maps/`, `scenarios/`, `armies/`, `tables/` at its top),
    /// or one holding neither campaign's folder. Its files are never read in part.
    pub fn check_layout(&self) -> Result<(), DataError> {
        let DataSource::Folder(dir) = self else { return Ok(()) };
        let old: Vec<&str> = OLD_TOP_FOLDERS.into_iter().filter(|sub| dir.join(sub).is_dir()).collect();
        let into = dir.join(MAGNA_GRAECIA);
        if !old.is_empty() {
            let names: Vec<String> = old.iter().map(|sub| format!("`{sub}`")).collect();
            return Err(DataError::single(
                dir.display().to_string(),
                0,
                format!(
                    "Magna Graecia's {} {} at the top of this data folder, as before each campaign had a folder of its own; \
                     move {} into {}/",
                    names.join(", "),
                    if old.len() == 1 { "folder is" } else { "folders are" },
                    if old.len() == 1 { "it" } else { "them" },
                    into.display()
                ),
            ));
        }
        if !self.has(MAGNA_GRAECIA) && !self.has(BELISARIUS) {
            return Err(DataError::single(
                dir.display().to_string(),
                0,
                format!(
                    "this data folder holds neither a `{MAGNA_GRAECIA}` nor a `{BELISARIUS}` folder; put the campaigns' files in \
                     those, as in `data/`"
                ),
            ));
        }
        Ok(())
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
        let scenarios = DataSource::Embedded.list("magna-graecia/scenarios").unwrap();
        assert_eq!(scenarios.len(), 4);
        assert_eq!(DataSource::Embedded.list("magna-graecia/maps").unwrap(), vec!["magna-graecia/maps/sicily.toml"]);
        assert_eq!(DataSource::Embedded.list("belisarius/scenarios").unwrap().len(), 4);
    }

    #[test]
    fn every_embedded_file_is_in_a_campaign_folder() {
        for f in EMBEDDED {
            let top = f.path.split('/').next().unwrap();
            assert!([MAGNA_GRAECIA, BELISARIUS, TABLETOP].contains(&top), "{} is outside the campaigns' folders", f.path);
        }
        assert!(DataSource::Embedded.has(MAGNA_GRAECIA) && DataSource::Embedded.has(BELISARIUS));
        assert!(DataSource::Embedded.check_layout().is_ok());
    }

    /// A folder holding `magna-graecia/` and/or `belisarius/` is accepted.
    #[test]
    fn a_folder_laid_out_like_data_is_accepted() {
        for campaigns in [&[MAGNA_GRAECIA, BELISARIUS][..], &[MAGNA_GRAECIA], &[BELISARIUS]] {
            let dir = tempfile::tempdir().unwrap();
            for c in campaigns {
                std::fs::create_dir_all(dir.path().join(c).join("scenarios")).unwrap();
            }
            let source = DataSource::Folder(dir.path().to_owned());
            assert!(source.check_layout().is_ok(), "{campaigns:?}");
            assert_eq!(source.has(MAGNA_GRAECIA), campaigns.contains(&MAGNA_GRAECIA));
            assert_eq!(source.has(BELISARIUS), campaigns.contains(&BELISARIUS));
        }
    }

    /// A folder of the old layout (Magna Graecia's folders at its top) is refused in one
    /// sentence naming the folder and where to move them, with or without a `magna-graecia`
    /// folder beside them, so its files are never half read.
    #[test]
    fn a_folder_of_the_old_layout_is_refused_in_one_sentence() {
        for with_new in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            for sub in ["maps", "scenarios", "armies", "tables", "belisarius"] {
                std::fs::create_dir_all(dir.path().join(sub)).unwrap();
            }
            if with_new {
                std::fs::create_dir_all(dir.path().join(MAGNA_GRAECIA)).unwrap();
            }
            let err = DataSource::Folder(dir.path().to_owned()).check_layout().unwrap_err();
            let [problem] = err.problems.as_slice() else { panic!("one problem expected: {err}") };
            assert_eq!(problem.file, dir.path().display().to_string());
            assert_eq!(problem.line, 0);
            assert_eq!(
                err.to_string(),
                format!(
                    "{}: Magna Graecia's `maps`, `scenarios`, `armies`, `tables` folders are at the top of this data folder, as \
                     before each campaign had a folder of its own; move them into {}/",
                    dir.path().display(),
                    dir.path().join(MAGNA_GRAECIA).display()
                )
            );
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("maps")).unwrap();
        let err = DataSource::Folder(dir.path().to_owned()).check_layout().unwrap_err().to_string();
        let into = dir.path().join(MAGNA_GRAECIA);
        let want = format!(
            "Magna Graecia's `maps` folder is at the top of this data folder, as before each campaign had a folder of its own; \
             move it into {}/",
            into.display()
        );
        assert!(err.ends_with(&want), "{err}");
    }

    #[test]
    fn a_folder_with_neither_campaign_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = DataSource::Folder(dir.path().to_owned()).check_layout().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: this data folder holds neither a `magna-graecia` nor a `belisarius` folder; put the campaigns' files in those, \
                 as in `data/`",
                dir.path().display()
            )
        );
    }

    #[test]
    fn line_numbers_are_one_based() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 4), 3);
    }

    #[test]
    fn a_missing_embedded_file_is_named() {
        let err = DataSource::Embedded.read("magna-graecia/maps/atlantis.toml").unwrap_err();
        assert_eq!(err.to_string(), "data/magna-graecia/maps/atlantis.toml: no such data file is built in");
    }
}
