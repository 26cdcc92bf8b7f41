//! X-07 / MG-01 / MG-02 / MG-21 / BE-12 / BE-14 / BE-18 / BE-47: every problem the data
//! checks can report, each proved on a copy of the built-in files with one thing changed, by
//! the file, line and sentence the referee would read.

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use referee_campaign::belisarius::World;
use referee_campaign::{NodeId, magna_graecia::catalog::Catalog};
use referee_data::raw::RawMap;
use referee_data::{DataSource, EMBEDDED, Problem, SourceText, line_of};

const MAP: &str = "magna-graecia/maps/sicily.toml";
const DIONYSIAN: &str = "magna-graecia/scenarios/dionysian.toml";
const PYRRHIC: &str = "magna-graecia/scenarios/pyrrhic.toml";
const FIRST_PUNIC: &str = "magna-graecia/scenarios/first-punic.toml";
const SECOND_PUNIC: &str = "magna-graecia/scenarios/second-punic.toml";

/// The start of a node's `[[node]]` table in the map, to edit or search within it.
fn node(id: u8) -> String {
    format!("[[node]]\nid = {id}\n")
}

/// The start of a side's `[[side]]` table in a scenario.
fn side(id: &str) -> String {
    format!("[[side]]\nid = \"{id}\"\n")
}

/// One change to a copy of the built-in files: the only `from` in the table of `file` that
/// starts with `anchor` (the whole file if empty) made to read `to`.
struct Change<'a> {
    file: &'a str,
    anchor: String,
    /// The node whose table is changed, for problems about the node as a whole.
    node: Option<u8>,
    from: &'a str,
    to: &'a str,
}

impl<'a> Change<'a> {
    fn file(file: &'a str, from: &'a str, to: &'a str) -> Change<'a> {
        Change::within(file, "", from, to)
    }

    fn within(file: &'a str, anchor: &str, from: &'a str, to: &'a str) -> Change<'a> {
        Change { file, anchor: anchor.to_owned(), node: None, from, to }
    }

    fn node(id: u8, from: &'a str, to: &'a str) -> Change<'a> {
        Change { node: Some(id), ..Change::within(MAP, &node(id), from, to) }
    }

    fn side(file: &'a str, id: &str, from: &'a str, to: &'a str) -> Change<'a> {
        Change::within(file, &side(id), from, to)
    }

    /// Makes the change in a fresh copy, returning it and the line where `to` now begins.
    fn made(&self) -> (Fixture, usize) {
        let fx = Fixture::new();
        let line = fx.edit_in(self.file, &self.anchor, self.from, self.to);
        (fx, line)
    }

    /// The changed data loads with exactly one error in the changed file, at the changed
    /// line: `message`.
    fn refused(self, message: &str) {
        let (fx, line) = self.made();
        fx.load_of(self.file).only(self.file, line, message);
    }

    /// The changed data loads with an error at the changed line, `message`, among others.
    fn refused_among(self, message: &str) {
        let (fx, line) = self.made();
        fx.load_of(self.file).has(self.file, line, message);
    }

    /// The changed data loads with exactly one error in the changed file, at the line of the
    /// only `needle` in the changed table: `message`.
    fn refused_at(self, needle: &str, message: &str) {
        let (fx, _) = self.made();
        let line = fx.line_in(self.file, &self.anchor, needle);
        fx.load_of(self.file).only(self.file, line, message);
    }

    /// The changed node loads with exactly one error in the map, about the node as a whole:
    /// `message`.
    fn refused_about_node(self, message: &str) {
        let id = self.node.expect("a change within a node");
        let (fx, _) = self.made();
        fx.load().only(MAP, fx.node_line(id), message);
    }
}

/// A copy of every built-in data file in a temporary folder.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        for f in EMBEDDED {
            let path = dir.path().join(f.path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, f.text).unwrap();
        }
        Fixture { dir }
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.path().join(file)
    }

    fn read(&self, file: &str) -> String {
        fs::read_to_string(self.path(file)).unwrap()
    }

    /// The byte range of the table starting with `anchor` (up to the next `[[`), or the whole
    /// file when `anchor` is empty. The anchor must occur exactly once.
    fn block(&self, file: &str, anchor: &str) -> Range<usize> {
        let text = self.read(file);
        if anchor.is_empty() {
            return 0..text.len();
        }
        assert_eq!(text.matches(anchor).count(), 1, "{file} must hold {anchor:?} exactly once");
        let start = text.find(anchor).unwrap();
        let body = start + anchor.len();
        start..text[body..].find("\n[[").map_or(text.len(), |end| body + end)
    }

    /// The file's text and the byte offset of the only occurrence of `needle` in the table
    /// starting with `anchor` (the whole file if empty).
    fn find(&self, file: &str, anchor: &str, needle: &str) -> (String, usize) {
        let text = self.read(file);
        let block = self.block(file, anchor);
        let within = &text[block.clone()];
        assert_eq!(within.matches(needle).count(), 1, "{file} must hold {needle:?} exactly once after {anchor:?}");
        let at = block.start + within.find(needle).unwrap();
        (text, at)
    }

    /// Replaces the only occurrence of `from` in the table starting with `anchor` (the whole
    /// file if empty) by `to`, and returns the line where `to` now begins.
    fn edit_in(&self, file: &str, anchor: &str, from: &str, to: &str) -> usize {
        let (mut text, at) = self.find(file, anchor, from);
        text.replace_range(at..at + from.len(), to);
        fs::write(self.path(file), &text).unwrap();
        line_of(&text, at)
    }

    fn edit(&self, file: &str, from: &str, to: &str) -> usize {
        self.edit_in(file, "", from, to)
    }

    fn edit_node(&self, id: u8, from: &str, to: &str) -> usize {
        self.edit_in(MAP, &node(id), from, to)
    }

    fn edit_side(&self, file: &str, id: &str, from: &str, to: &str) -> usize {
        self.edit_in(file, &side(id), from, to)
    }

    /// Removes the whole table starting with `anchor`.
    fn remove(&self, file: &str, anchor: &str) {
        let block = self.block(file, anchor);
        let gone = self.read(file)[block].to_owned();
        self.edit(file, &gone, "");
    }

    /// Adds `text` at the end of the file.
    fn append(&self, file: &str, text: &str) {
        let mut all = self.read(file);
        all.push_str(text);
        fs::write(self.path(file), all).unwrap();
    }

    /// The line of the only occurrence of `needle` in the table starting with `anchor`.
    fn line_in(&self, file: &str, anchor: &str, needle: &str) -> usize {
        let (text, at) = self.find(file, anchor, needle);
        line_of(&text, at)
    }

    /// The line of a node's `id = …`, where problems about the node as a whole are reported.
    fn node_line(&self, id: u8) -> usize {
        self.line_in(MAP, &node(id), &format!("id = {id}\n"))
    }

    /// Loads the folder, which must fail, and returns what was reported.
    fn load(&self) -> Problems {
        let err = Catalog::load(&DataSource::Folder(self.dir.path().to_owned())).expect_err("the changed data must not load");
        Problems { root: self.dir.path().to_owned(), list: err.problems }
    }

    /// Loads the folder's Belisarius files, which must fail, and returns what was reported.
    fn load_belisarius(&self) -> Problems {
        let err = World::load(&DataSource::Folder(self.dir.path().to_owned())).expect_err("the changed data must not load");
        Problems { root: self.dir.path().to_owned(), list: err.problems }
    }

    /// Loads the folder as the campaign `file` belongs to, which must fail.
    fn load_of(&self, file: &str) -> Problems {
        if file.starts_with("belisarius/") { self.load_belisarius() } else { self.load() }
    }
}

/// The problems of one failed load.
struct Problems {
    root: PathBuf,
    list: Vec<Problem>,
}

impl Problems {
    /// Asserts that a problem in `file` (relative to the data folder) at `line` reads
    /// `message`; a `*` in `message` stands for any text.
    fn has(&self, file: &str, line: usize, message: &str) -> &Problems {
        let want = self.root.join(file);
        let found = self.list.iter().any(|p| Path::new(&p.file) == want && p.line == line && matches(message, &p.message));
        assert!(found, "expected {file}:{line}: {message}\nbut the problems were:\n{}", self.listing());
        self
    }

    /// Asserts that `file` has `count` problems in all, so an edit raises no confusing
    /// follow-on problem there. (A refused map also makes every scenario report that it
    /// cannot use the map; those lines are in other files.)
    fn and_no_more_in(&self, file: &str, count: usize) -> &Problems {
        let want = self.root.join(file);
        let in_file = self.list.iter().filter(|p| Path::new(&p.file) == want).count();
        assert_eq!(in_file, count, "unexpected problems in {file}:\n{}", self.listing());
        self
    }

    /// Asserts that `count` problems were reported in all.
    fn and_no_more(&self, count: usize) {
        assert_eq!(self.list.len(), count, "unexpected problems:\n{}", self.listing());
    }

    /// `has` for a problem that must be the only one in its file.
    fn only(&self, file: &str, line: usize, message: &str) {
        self.has(file, line, message).and_no_more_in(file, 1);
    }

    fn listing(&self) -> String {
        self.list.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n")
    }
}

/// Whether `message` reads `pattern`, each `*` of which stands for any text.
fn matches(pattern: &str, message: &str) -> bool {
    let mut parts = pattern.split('*');
    let Some(mut rest) = message.strip_prefix(parts.next().unwrap_or("")) else { return false };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else { return rest.is_empty() };
    for part in middle {
        let Some(at) = rest.find(part) else { return false };
        rest = &rest[at + part.len()..];
    }
    rest.ends_with(last)
}

// ---------------------------------------------------------------------------------------
// reading and parsing

/// `parse` turns a TOML error into one problem naming the file and the line.
#[test]
fn x_07_parse_reports_a_toml_error_with_its_line() {
    let source = SourceText {
        file: "magna-graecia/maps/broken.toml".to_owned(),
        text: "version = 1\nid = \"broken\"\nname = \"Broken\nwidth_km = 1.0\n".to_owned(),
    };
    let err = referee_data::parse::<RawMap>(&source).unwrap_err();
    let [problem] = err.problems.as_slice() else { panic!("one problem expected: {err}") };
    assert_eq!(problem.file, "magna-graecia/maps/broken.toml");
    assert_eq!(problem.line, 3);
    assert!(!problem.message.is_empty());
    assert!(err.to_string().starts_with("magna-graecia/maps/broken.toml:3: "), "{err}");
}

/// a file that is not valid TOML is reported at the line of the mistake.
#[test]
fn x_07_toml_syntax_error() {
    Change::file(MAP, "name = \"Sicily\"", "name = \"Sicily").refused_among("invalid basic string*");
}

/// a field the program does not know is refused, in a map and in a scenario alike.
#[test]
fn x_07_unknown_field() {
    let fx = Fixture::new();
    let in_map = fx.edit_node(0, "coastal = true", "colour = \"red\"\ncoastal = true");
    let in_scenario = fx.edit_side(DIONYSIAN, "carthage", "pattern = ", "flag = \"x\"\npattern = ");
    fx.load().has(MAP, in_map, "unknown field `colour`, expected one of *").has(
        DIONYSIAN,
        in_scenario,
        "unknown field `flag`, expected one of *",
    );
}

/// a file written for another format version is refused at its `version` line.
#[test]
fn x_07_wrong_format_version() {
    let fx = Fixture::new();
    let map = fx.edit(MAP, "version = 1", "version = 2");
    let scenario = fx.edit(PYRRHIC, "version = 1", "version = 7");
    fx.load().has(MAP, map, "declares format version 2, but this program reads version 1").has(
        PYRRHIC,
        scenario,
        "declares format version 7, but this program reads version 1",
    );
}

/// a data file that cannot be read is named.
#[test]
fn x_07_unreadable_file() {
    let fx = Fixture::new();
    fs::write(fx.path("magna-graecia/scenarios/garbled.toml"), [0xff, 0xfe, 0x00]).unwrap();
    fx.load().only("magna-graecia/scenarios/garbled.toml", 0, "cannot be read: *");
}

/// a data folder whose `magna-graecia` folder has no `scenarios` folder is named.
#[test]
fn x_07_missing_folder() {
    let fx = Fixture::new();
    fs::remove_dir_all(fx.path("magna-graecia/scenarios")).unwrap();
    fx.load().only("magna-graecia/scenarios", 0, "cannot be listed: *");
}

/// a data folder made before each campaign had its own folder (Magna Graecia's
/// `maps`, `scenarios`, `armies`, `tables` at its top) is refused in one sentence that names
/// the folder and says where to move them; none of its files is read, not even beside a
/// `magna-graecia` folder.
#[test]
fn x_07_data_folder_of_the_old_layout() {
    for keep_new in [false, true] {
        let fx = Fixture::new();
        let new = fx.path("magna-graecia");
        for sub in ["maps", "scenarios", "armies", "tables"] {
            let to = fx.path(sub);
            if keep_new {
                fs::create_dir_all(&to).unwrap();
                for entry in fs::read_dir(new.join(sub)).unwrap() {
                    let entry = entry.unwrap();
                    fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
                }
            } else {
                fs::rename(new.join(sub), to).unwrap();
            }
        }
        if !keep_new {
            fs::remove_dir(&new).unwrap();
        }
        let problems = fx.load();
        let want = format!(
            "Magna Graecia's `maps`, `scenarios`, `armies`, `tables` folders are at the top of this data folder, as before each \
             campaign had a folder of its own; move them into {}/",
            new.display()
        );
        problems.only("", 0, &want);
        problems.and_no_more(1);
        let err = Catalog::load(&DataSource::Folder(fx.dir.path().to_owned())).unwrap_err().to_string();
        assert_eq!(err, format!("{}: {want}", fx.dir.path().display()));
        assert!(!err.contains('\n'), "one line: {err}");
    }
}

/// a data folder made for Belisarius alone (no `magna-graecia` folder) has no Magna
/// Graecia maps or scenarios, and is not refused.
#[test]
fn x_07_data_folder_without_magna_graecia() {
    let fx = Fixture::new();
    fs::remove_dir_all(fx.path("magna-graecia")).unwrap();
    let catalog = Catalog::load(&DataSource::Folder(fx.dir.path().to_owned())).unwrap();
    assert!(catalog.scenarios.is_empty() && catalog.maps.is_empty());
}

/// problems in several files, and several in one file, are all reported at once.
#[test]
fn x_07_every_problem_of_every_file_is_reported_at_once() {
    let fx = Fixture::new();
    let commands = fx.edit_node(0, "city_commands = 2", "city_commands = 4");
    let name = fx.edit_node(1, "name = \"Lilybaeum\"", "name = \"Motya\"");
    let turns = fx.edit(DIONYSIAN, "turns = 18", "turns = 0");
    let pattern = fx.edit_side(PYRRHIC, "pyrrhus", "pattern = \"dots\"", "pattern = \"plaid\"");
    let colour = fx.edit_side(PYRRHIC, "syracuse", "colour = \"#0072B2\"", "colour = \"blue\"");
    let problems = fx.load();
    problems
        .has(MAP, commands, "node 00: a fortified city fields 1 to 3 neutral commands, not 4")
        .has(MAP, name, "the name Motya is used by node 00 already")
        .has(DIONYSIAN, turns, "a scenario lasts at least one campaign turn")
        .has(PYRRHIC, pattern, "side `pyrrhus`: `plaid` is not a pattern (solid, stripes, dots, cross)")
        .has(PYRRHIC, colour, "side `syracuse`: colour `blue` is not of the form #rrggbb");
    // With the map refused, every scenario also says it cannot use it.
    for file in [DIONYSIAN, PYRRHIC, FIRST_PUNIC, SECOND_PUNIC] {
        let line = fx.line_in(file, "", "map = \"sicily\"");
        problems.has(file, line, "the scenario names map `sicily`, which is not loaded");
    }
    problems.and_no_more(9);
}

// ---------------------------------------------------------------------------------------
// MG-01: the node map

/// MG-01: two nodes with one number.
#[test]
fn mg_01_node_defined_twice() {
    Change::node(31, "id = 31", "id = 30").refused_among("node 30 is defined twice");
}

/// MG-01: nodes are numbered from 00 without a gap.
#[test]
fn mg_01_gap_in_numbering() {
    let fx = Fixture::new();
    fx.edit_node(31, "id = 31", "id = 32");
    fx.load().has(MAP, 0, "nodes must be numbered from 00 with no gap, but 31 is missing");
}

/// MG-01: every node has its own name.
#[test]
fn mg_01_duplicate_node_name() {
    Change::node(1, "name = \"Lilybaeum\"", "name = \"Motya\"").refused("the name Motya is used by node 00 already");
}

/// MG-01: a path joins two different nodes.
#[test]
fn mg_01_path_to_itself() {
    Change::file(MAP, "[30, 31],\n]", "[30, 31], [7, 7],\n]").refused("the path [07, 07] joins node 07 to itself");
}

/// MG-01: a path joins nodes of the map.
#[test]
fn mg_01_path_to_unknown_node() {
    Change::file(MAP, "[30, 31],\n]", "[30, 31], [31, 40],\n]").refused("the path [31, 40] leads to node 40, which the map does not have");
}

/// MG-01: a path is listed once, whichever way round.
#[test]
fn mg_01_duplicate_path() {
    Change::file(MAP, "[30, 31],\n]", "[30, 31], [31, 30],\n]").refused("the path between 30 and 31 is listed twice");
}

/// MG-01: every node can be reached.
#[test]
fn mg_01_node_with_no_path() {
    let fx = Fixture::new();
    fx.append(MAP, "\n[[node]]\nid = 32\nname = \"Ortygia\"\nx_km = 264.0\ny_km = 143.0\n\n[node.battlefield]\nroad = []\n");
    fx.load().only(MAP, fx.node_line(32), "node 32 has no path to any other node");
}

/// MG-01: a node lies on the map, reported at the coordinate that is off it.
#[test]
fn mg_01_node_outside_the_map() {
    let fx = Fixture::new();
    let west = fx.edit_node(0, "x_km = 15.0", "x_km = -0.5");
    let north = fx.edit_node(28, "y_km = 17.8", "y_km = -0.5");
    fx.load()
        .has(MAP, west, "node 00 at (-0.5, 53.3) km lies outside the 300 × 190 km map")
        .has(MAP, north, "node 28 at (286, -0.5) km lies outside the 300 × 190 km map")
        .and_no_more_in(MAP, 2);
}

/// MG-01: a fortified city fields 1 to 3 neutral commands.
#[test]
fn mg_01_city_commands_out_of_range() {
    let fx = Fixture::new();
    let four = fx.edit_node(0, "city_commands = 2", "city_commands = 4");
    let none = fx.edit_node(4, "city_commands = 3", "city_commands = 0");
    fx.load()
        .has(MAP, four, "node 00: a fortified city fields 1 to 3 neutral commands, not 4")
        .has(MAP, none, "node 04: a fortified city fields 1 to 3 neutral commands, not 0")
        .and_no_more_in(MAP, 2);
}

/// MG-01: the southern coast is part of the coast.
#[test]
fn mg_01_south_coast_without_coastal() {
    let fx = Fixture::new();
    fx.edit_node(0, "coastal = true\n", "");
    fx.edit_node(0, "coast = [\"west\"]", "coast = []");
    fx.load().only(MAP, fx.node_line(0), "node 00 is marked south_coast but not coastal");
}

// ---------------------------------------------------------------------------------------
// MG-21: each node's battle map

/// MG-21: a coastal node's battle map has a coast edge.
#[test]
fn mg_21_coastal_node_without_coast_edge() {
    Change::node(0, "coast = [\"west\"]", "coast = []").refused_about_node("node 00 is coastal but its battle map has no coast edge");
}

/// MG-21: an inland node's battle map has no coast edge.
#[test]
fn mg_21_inland_node_with_coast_edge() {
    Change::node(3, "coast = []", "coast = [\"north\"]").refused_about_node("node 03 is inland but its battle map has a coast edge");
}

/// MG-21: a walled city on the battle map is a fortified city on the node map.
#[test]
fn mg_21_walled_city_without_city_commands() {
    Change::node(10, "kind = \"town\"", "kind = \"city\"")
        .refused_about_node("node 10 draws a walled city on its battle map but has no city_commands");
}

/// MG-21: a fortified city on the node map is a walled city on the battle map.
#[test]
fn mg_21_city_commands_without_walled_city() {
    Change::node(0, "kind = \"city\"", "kind = \"town\"")
        .refused_about_node("node 00 is a fortified city but its battle map has no settlement of kind \"city\"");
}

/// MG-21: coasts, rivers and roads name one of the four table edges; a misspelt edge raises
/// nothing else (the road still counts as the road toward its neighbour).
#[test]
fn mg_21_bad_edge_name() {
    let fx = Fixture::new();
    let coast = fx.edit_node(1, "coast = [\"west\", \"south\"]", "coast = [\"west\", \"sud\"]");
    let river = fx.edit_node(3, "to = \"south\"", "to = \"sud\"");
    let road = fx.edit_node(0, "{ to = 3, edge = \"east\" }", "{ to = 3, edge = \"est\" }");
    let message = |e: &str, n: &str| format!("node {n}: `{e}` is not a table edge (north, east, south or west)");
    fx.load()
        .has(MAP, coast, &message("sud", "01"))
        .has(MAP, river, &message("sud", "03"))
        .has(MAP, road, &message("est", "00"))
        .and_no_more_in(MAP, 3);
}

/// MG-21: settlements and features stand in one of the nine areas; a misspelt area raises
/// nothing else (the city is still a walled city).
#[test]
fn mg_21_bad_area_name() {
    let fx = Fixture::new();
    let settlement = fx.edit_node(0, "area = \"west\"", "area = \"middle\"");
    let feature = fx.edit_node(0, "area = \"east\"", "area = \"centre-east\"");
    let message = |a: &str| format!("node 00: `{a}` is not an area of the battle map (north-west … south-east, centre)");
    fx.load().has(MAP, settlement, &message("middle")).has(MAP, feature, &message("centre-east")).and_no_more_in(MAP, 2);
}

/// MG-21: a settlement is a city, a town or a village; a misspelt kind raises nothing else.
#[test]
fn mg_21_bad_settlement_kind() {
    Change::node(0, "kind = \"city\"", "kind = \"castle\"").refused("node 00: `castle` is not a settlement (city, town or village)");
}

/// MG-21: a river reaches the sea only on a battle map with a coast.
#[test]
fn mg_21_river_to_sea_without_coast() {
    Change::node(3, "to = \"south\"", "to = \"sea\"").refused("node 03: the Crimisus reaches the sea, but the map has no coast");
}

/// MG-21: a misspelt coast edge does not also make a river mouth lose its coast.
#[test]
fn mg_21_river_to_sea_with_misspelt_coast() {
    Change::node(4, "coast = [\"north\"]", "coast = [\"nord\"]")
        .refused("node 04: `nord` is not a table edge (north, east, south or west)");
}

/// MG-21: at most 4 fords fit on a river.
#[test]
fn mg_21_too_many_fords() {
    Change::node(3, "fords = 2", "fords = 5").refused("node 03: the Crimisus has 5 fords; at most 4 fit the table");
}

/// MG-21: terrain features are of a known kind.
#[test]
fn mg_21_bad_feature_kind() {
    Change::node(0, "kind = \"marsh\"", "kind = \"swamp\"")
        .refused("node 00: `swamp` is not a kind of terrain (hill, steep-hill, wood, marsh, rough, olive-groves)");
}

/// MG-21: terrain features are small, medium or large.
#[test]
fn mg_21_bad_feature_size() {
    Change::node(0, "size = \"medium\"", "size = \"huge\"").refused("node 00: `huge` is not a size (small, medium or large)");
}

/// MG-21: roads lead to neighbours only.
#[test]
fn mg_21_road_to_a_node_that_is_not_a_neighbour() {
    Change::node(0, "{ to = 2,", "{ to = 6, edge = \"south\" },\n  { to = 2,")
        .refused("node 00 has a road to 06, but no movement path joins them");
}

/// MG-21: one road per neighbour.
#[test]
fn mg_21_road_listed_twice() {
    Change::node(0, "{ to = 2,", "{ to = 1, edge = \"south\" },\n  { to = 2,").refused("node 00 lists its road to 01 twice");
}

/// MG-21: no road leaves by a sea edge.
#[test]
fn mg_21_road_on_a_sea_edge() {
    Change::node(0, "coast = [\"west\"]", "coast = [\"west\", \"north\"]")
        .refused_at("{ to = 2, edge = \"north\" }", "node 00: the road to 02 leaves by the north edge, which is sea");
}

/// MG-21: a road may bend, but not leave more than 100° away from where its neighbour lies.
#[test]
fn mg_21_road_pointing_away_from_its_neighbour() {
    let catalog = Catalog::embedded();
    let sicily = catalog.map("sicily").unwrap();
    let (from, to) = (sicily.node(NodeId(3)).unwrap(), sicily.node(NodeId(5)).unwrap());
    let (dx, dy) = (to.x_km - from.x_km, to.y_km - from.y_km);
    // The north edge faces (0, -1): y grows southward.
    let angle = (-dy / dx.hypot(dy)).acos().to_degrees();
    assert!(angle > 100.0, "05 must lie well away from 03's north edge for this test");

    Change::node(3, "{ to = 5, edge = \"south\" }", "{ to = 5, edge = \"north\" }")
        .refused(&format!("node 03: the road to 05 leaves by the north edge, {angle:.0}° away from where 05 lies"));
}

/// MG-21: every neighbour has a road on the battle map, reported at the node's road list.
#[test]
fn mg_21_neighbour_without_road() {
    Change::node(0, "  { to = 3, edge = \"east\" },\n", "")
        .refused_at("{ to = 1,", "node 00 has a path to 03 but its battle map has no road toward it");
}

// ---------------------------------------------------------------------------------------
// MG-02: scenarios

/// MG-02: a scenario's id is its file name.
#[test]
fn mg_02_scenario_id_not_matching_file_name() {
    Change::file(DIONYSIAN, "id = \"dionysian\"", "id = \"dionysius\"")
        .refused("the scenario id `dionysius` must match its file name `dionysian`");
}

/// MG-02: a scenario is played on a loaded map; nothing else is blamed on the missing map.
#[test]
fn mg_02_unknown_map() {
    Change::file(FIRST_PUNIC, "map = \"sicily\"", "map = \"sardinia\"").refused("the scenario names map `sardinia`, which is not loaded");
}

/// MG-02: a scenario lasts at least one turn.
#[test]
fn mg_02_zero_turns() {
    Change::file(DIONYSIAN, "turns = 18", "turns = 0").refused("a scenario lasts at least one campaign turn");
}

/// MG-02: side ids are lower-case slugs.
#[test]
fn mg_02_bad_side_id() {
    let fx = Fixture::new();
    let line = fx.edit_side(DIONYSIAN, "carthage", "id = \"carthage\"", "id = \"Carthage\"");
    fx.edit(DIONYSIAN, "[\"carthage\", \"syracuse\"]", "[\"Carthage\", \"syracuse\"]");
    fx.load().only(DIONYSIAN, line, "side id `Carthage` must be lower-case letters and hyphens");
}

/// MG-02: each side is defined once.
#[test]
fn mg_02_duplicate_side() {
    Change::side(DIONYSIAN, "syracuse", "id = \"syracuse\"", "id = \"carthage\"").refused_among("side `carthage` is defined twice");
}

/// MG-02: a scenario has at least two sides.
#[test]
fn mg_02_fewer_than_two_sides() {
    let fx = Fixture::new();
    fx.remove(DIONYSIAN, &side("syracuse"));
    fx.edit(DIONYSIAN, "[\"carthage\", \"syracuse\"]", "[\"carthage\"]");
    fx.load().only(DIONYSIAN, 0, "a scenario needs at least two sides");
}

/// MG-02: the move order names every side once.
#[test]
fn mg_02_move_order_mismatch() {
    Change::file(DIONYSIAN, "[\"carthage\", \"syracuse\"]", "[\"carthage\", \"carthage\"]")
        .refused("move_order must name every side exactly once (carthage, syracuse), but it reads [carthage, carthage]");
}

/// MG-02: no node starts under two sides.
#[test]
fn mg_02_node_controlled_by_two_sides() {
    Change::side(DIONYSIAN, "syracuse", "controls = [8,", "controls = [4, 8,")
        .refused("node 04 is controlled by both `carthage` and `syracuse`");
}

/// MG-02: a side lists each node it controls once.
#[test]
fn mg_02_node_controlled_twice_by_one_side() {
    Change::side(DIONYSIAN, "carthage", "controls = [0,", "controls = [4, 0,").refused("side `carthage` lists node 04 twice in controls");
}

/// MG-02: a side's colour is `#rrggbb`, six hexadecimal digits and nothing else.
#[test]
fn mg_02_bad_colour() {
    let fx = Fixture::new();
    let short = fx.edit_side(DIONYSIAN, "carthage", "\"#CC79A7\"", "\"#CC79A\"");
    let signs = fx.edit_side(DIONYSIAN, "syracuse", "\"#0072B2\"", "\"#+0+7+B\"");
    fx.load()
        .has(DIONYSIAN, short, "side `carthage`: colour `#CC79A` is not of the form #rrggbb")
        .has(DIONYSIAN, signs, "side `syracuse`: colour `#+0+7+B` is not of the form #rrggbb")
        .and_no_more_in(DIONYSIAN, 2);
}

/// MG-02: a side's pattern is one the program can draw.
#[test]
fn mg_02_bad_pattern() {
    Change::side(DIONYSIAN, "carthage", "\"stripes\"", "\"plaid\"")
        .refused("side `carthage`: `plaid` is not a pattern (solid, stripes, dots, cross)");
}

/// MG-02: every side has an army.
#[test]
fn mg_02_zero_army_points() {
    Change::side(DIONYSIAN, "carthage", "army_points = 500", "army_points = 0").refused("side `carthage` has an army of 0 points");
}

/// MG-02: controls, capitals, allied cities and deployment name nodes of the map.
#[test]
fn mg_02_side_names_a_node_the_map_does_not_have() {
    let fx = Fixture::new();
    let capital = fx.edit_side(SECOND_PUNIC, "rome", "node = 28,", "node = 40,");
    let controls = fx.edit_side(SECOND_PUNIC, "rome", "controls = [0,", "controls = [41, 0,");
    let allied = fx.edit_side(SECOND_PUNIC, "rome", "allied_cities = [0,", "allied_cities = [42, 0,");
    let deploy = fx.edit_side(SECOND_PUNIC, "rome", "command_at = 28, fleet_at = 28 }", "command_at = 43, fleet_at = 44, nodes = [45] }");
    let message = |what: &str, n: u8| format!("side `rome`: {what} names node {n}, which map `sicily` does not have");
    fx.load()
        .has(SECOND_PUNIC, capital, &message("its capital", 40))
        .has(SECOND_PUNIC, controls, &message("controls", 41))
        .has(SECOND_PUNIC, allied, &message("allied_cities", 42))
        .has(SECOND_PUNIC, deploy, &message("deploy.command_at", 43))
        .has(SECOND_PUNIC, deploy, &message("deploy.fleet_at", 44))
        .has(SECOND_PUNIC, deploy, &message("deploy.nodes", 45))
        .and_no_more_in(SECOND_PUNIC, 6);
}

/// MG-02: a capital is a fortified city.
#[test]
fn mg_02_capital_not_fortified() {
    Change::side(DIONYSIAN, "syracuse", "node = 31,", "node = 10,").refused("side `syracuse`: its capital 10 is not a fortified city");
}

/// MG-02: a side controls its capital.
#[test]
fn mg_02_capital_not_controlled() {
    Change::side(DIONYSIAN, "carthage", "node = 0,", "node = 8,").refused("side `carthage` does not control its own capital 08");
}

/// MG-02 (MG-04): a capital fields 0 to 3 commands of its own.
#[test]
fn mg_02_capital_strength_above_three() {
    Change::side(DIONYSIAN, "carthage", "strength = 0", "strength = 4")
        .refused("side `carthage`: a capital's strength is 0 to 3 commands, not 4");
}

/// MG-02: an allied city has walls.
#[test]
fn mg_02_allied_city_unwalled() {
    Change::side(DIONYSIAN, "syracuse", "allied_cities = [8,", "allied_cities = [10, 8,")
        .refused("side `syracuse` lists 10 Petra as an allied city, but it has no walls");
}

/// MG-02: a capital is not listed among the allied cities.
#[test]
fn mg_02_allied_city_is_the_capital() {
    Change::side(DIONYSIAN, "carthage", "allied_cities = [1,", "allied_cities = [0, 1,")
        .refused("side `carthage` lists its capital 00 Motya as an allied city; a capital needs no alliance");
}

/// MG-02: a side controls the node of each allied city.
#[test]
fn mg_02_allied_city_not_controlled() {
    Change::side(DIONYSIAN, "carthage", "allied_cities = [1,", "allied_cities = [8, 1,")
        .refused("side `carthage` lists 08 Himera as an allied city but does not control its node");
}

/// MG-02: allied cities field 1 to 3 commands.
#[test]
fn mg_02_allied_city_commands_out_of_range() {
    for n in [0, 4] {
        Change::side(SECOND_PUNIC, "rome", "allied_city_commands = 1", &format!("allied_city_commands = {n}"))
            .refused(&format!("side `rome`: allied cities field 1 to 3 commands, not {n}"));
    }
}

/// MG-02: a side deploys only on nodes it controls.
#[test]
fn mg_02_deploy_node_not_controlled() {
    Change::side(FIRST_PUNIC, "rome", "nodes = [28]", "nodes = [27]").refused("side `rome` may deploy at 27, which it does not control");
}

/// MG-02: deploying at `nodes` needs nodes.
#[test]
fn mg_02_deploy_at_nodes_with_none() {
    Change::side(FIRST_PUNIC, "rome", "nodes = [28]", "nodes = []").refused("side `rome` deploys at `nodes` but lists none");
}

/// MG-02 (MG-36): a side that lands from the sea starts with no nodes.
#[test]
fn mg_02_landing_side_with_controls() {
    Change::side(PYRRHIC, "pyrrhus", "area = \"nodes\", nodes = [28]", "area = \"landing\"")
        .refused("side `pyrrhus` lands from the sea, so it cannot control nodes at the start");
}

/// MG-02: the deployment area is one the program knows.
#[test]
fn mg_02_unknown_deploy_area() {
    Change::side(DIONYSIAN, "carthage", "\"controlled\"", "\"everywhere\"")
        .refused("side `carthage`: `everywhere` is not a deployment area (controlled, nodes, landing)");
}

/// MG-02: a required starting command stands on a controlled node.
#[test]
fn mg_02_command_at_not_controlled() {
    Change::side(SECOND_PUNIC, "rome", "command_at = 28", "command_at = 31")
        .refused("side `rome` must start a command at 31, which it does not control");
}

/// MG-02: only a side with a fleet places one.
#[test]
fn mg_02_fleet_at_without_a_fleet() {
    Change::side(PYRRHIC, "pyrrhus", "nodes = [28] }", "nodes = [28], fleet_at = 28 }")
        .refused("side `pyrrhus` places a fleet at 28 but has no fleet (fleet_np = 0)");
}

/// MG-02: fleets start on coastal nodes.
#[test]
fn mg_02_fleet_at_not_coastal() {
    Change::side(SECOND_PUNIC, "rome", "fleet_at = 28", "fleet_at = 14")
        .refused("side `rome` places its fleet at 14, which is not coastal");
}

/// MG-02: a fleet starts on a node its side controls.
#[test]
fn mg_02_fleet_at_not_controlled() {
    Change::side(SECOND_PUNIC, "rome", "fleet_at = 28", "fleet_at = 31")
        .refused("side `rome` places its fleet at 31, which it does not control");
}

/// MG-02: alliances join sides of the scenario.
#[test]
fn mg_02_alliance_with_unknown_side() {
    Change::file(PYRRHIC, "[[\"pyrrhus\", \"syracuse\"]]", "[[\"pyrrhus\", \"rome\"]]")
        .refused("the alliance names side `rome`, which the scenario does not have");
}

/// MG-02: an alliance joins two different sides.
#[test]
fn mg_02_side_allied_to_itself() {
    Change::file(PYRRHIC, "[[\"pyrrhus\", \"syracuse\"]]", "[[\"pyrrhus\", \"pyrrhus\"]]")
        .refused("side `pyrrhus` cannot be allied to itself");
}

/// MG-02: special rules are ones the program implements.
#[test]
fn mg_02_unknown_special_rule() {
    Change::file(FIRST_PUNIC, "\"hiero-may-switch\"", "\"hiero-may-swap\"").refused(
        "`hiero-may-swap` is not a special rule this program knows \
         (syracuse-falls-to-pyrrhus, exit-through-messena, hiero-may-switch, combined-fleets)",
    );
}

/// MG-02: a scenario's siege modifier applies to a fortified city of the map.
#[test]
fn mg_02_siege_modifier_on_unfortified_or_unknown_node() {
    for (node, message) in [
        ("10", "a siege modifier names 10 Petra, which is not a fortified city"),
        ("99", "a siege modifier names node 99, which map `sicily` does not have"),
    ] {
        Change::file(SECOND_PUNIC, "[{ node = 31, modifier", &format!("[{{ node = {node}, modifier")).refused(message);
    }
}

/// MG-02: a capture award is for a fortified city of the map.
#[test]
fn mg_02_capture_award_on_unfortified_node() {
    Change::file(SECOND_PUNIC, "[{ node = 31, side", "[{ node = 10, side")
        .refused("a capture award names 10 Petra, which is not a fortified city");
}

/// MG-02: a capture award is for a side of the scenario.
#[test]
fn mg_02_capture_award_for_unknown_side() {
    Change::file(SECOND_PUNIC, "side = \"rome\", vp", "side = \"romans\", vp")
        .refused("the capture award names side `romans`, which the scenario does not have");
}

// ---------------------------------------------------------------------------------------
// MG-03: the points table and the default armies

const ELEMENTS: &str = "magna-graecia/tables/elements.toml";
const PYRRHIC_ARMIES: &str = "magna-graecia/armies/pyrrhic.toml";

/// MG-03: a mobility the rules do not know is named with its line.
#[test]
fn mg_03_unknown_mobility() {
    Change::within(ELEMENTS, "code = \"El\"", "mobility = \"elephant\"", "mobility = \"trunk\"")
        .refused_among("El: `trunk` is not a mobility (mounted, foot, psiloi, elephant, expendable, artillery)");
}

/// MG-03: a grade the rules do not know is named with its line.
#[test]
fn mg_03_unknown_grade_in_the_points_table() {
    Change::within(ELEMENTS, "code = \"El\"", "grade = \"O\"", "grade = \"Q\"").refused_among("El: `Q` is not a grade (S, O, I, F, X)");
}

/// MG-03: an unreadable element string in an army is named with its line.
#[test]
fn mg_03_unreadable_element_in_an_army() {
    Change::file(PYRRHIC_ARMIES, "\"12 Reg Pk(O)\"", "\"12 Regular Pk(O)\"")
        .refused_among("`Regular Pk(O)` is not an element like \"Reg Sp(O)\" (class, type, grade in brackets)");
}

/// MG-03: an army over its scenario's points is refused, at the army's side line.
#[test]
fn mg_03_army_over_its_points() {
    let fx = Fixture::new();
    fx.edit(PYRRHIC_ARMIES, "\"12 Reg Pk(O)\"", "\"40 Reg Pk(O)\"");
    let line = fx.line_in(PYRRHIC_ARMIES, "", "side = \"pyrrhus\"");
    fx.load().has(PYRRHIC_ARMIES, line, "pyrrhus's army: the army costs * points, more than the 350 the scenario allows");
}

/// MG-03: an element the points table does not price is refused at its command's line.
#[test]
fn mg_03_army_with_an_unpriced_element() {
    let fx = Fixture::new();
    fx.edit(PYRRHIC_ARMIES, "\"12 Reg Pk(O)\"", "\"12 Reg Zz(O)\"");
    let line = fx.line_in(PYRRHIC_ARMIES, "", "name = \"Leonnatus\"");
    fx.load().has(PYRRHIC_ARMIES, line, "pyrrhus's army: Leonnatus: Zz is not an element type of the points table");
}

/// MG-03: every side of a scenario needs a default army, and only its sides may have one.
#[test]
fn mg_03_army_for_an_unknown_side_and_a_side_without_army() {
    let fx = Fixture::new();
    let line = fx.edit(PYRRHIC_ARMIES, "side = \"pyrrhus\"", "side = \"epirus\"");
    fx.load().has(PYRRHIC_ARMIES, line, "Pyrrhic War has no side `epirus`").has(
        PYRRHIC_ARMIES,
        0,
        "side `pyrrhus` of Pyrrhic War has no default army",
    );
}

/// MG-03, X-07: an army file that cannot be read is refused for what is wrong in it, and its
/// scenario is not told besides that it has no army file; a scenario whose army file is
/// missing is told so under the file's own path in the folder.
#[test]
fn mg_03_an_unreadable_army_file_is_its_own_one_problem() {
    let fx = Fixture::new();
    let text = fx.read(PYRRHIC_ARMIES);
    let first = text.lines().position(|l| l.starts_with("scenario =")).unwrap();
    let doubled: Vec<&str> = text.lines().take(first + 1).chain(text.lines().skip(first)).collect();
    fs::write(fx.path(PYRRHIC_ARMIES), doubled.join("\n")).unwrap();
    let problems = fx.load();
    problems.has(PYRRHIC_ARMIES, first + 2, "duplicate key").and_no_more(1);
    fs::remove_file(fx.path(PYRRHIC_ARMIES)).unwrap();
    fx.load().only(PYRRHIC_ARMIES, 0, "scenario `pyrrhic` has no army file; every side needs a default army");
}

/// MG-05: every neutral city fields an Irr Cv(I) general whatever the scenario, so a points
/// table without that price is refused at the element type, though no default army uses it.
#[test]
fn mg_05_points_table_without_a_neutral_city_element() {
    Change::within(ELEMENTS, "code = \"Cv\"", "{ grade = \"I\", reg = 6, irr = 5 }", "{ grade = \"I\", reg = 6 }")
        .refused_at("code = \"Cv\"", "Cv: the points table has no price for Irr Cv(I), which every neutral city fields (MG-05)");
}

/// MG-05: a points table without a type a neutral city fields at all is refused too, about
/// the file as a whole since no line of it is to blame.
#[test]
fn mg_05_points_table_without_a_neutral_city_element_type() {
    let fx = Fixture::new();
    fx.remove(ELEMENTS, "[[element]]\ncode = \"LH\"");
    fx.load().only(ELEMENTS, 0, "the points table has no element type LH, which every neutral city fields (Reg LH(O), MG-05)");
}

// ---------------------------------------------------------------------------------------
// BE: the Belisarius tables, each checked whole

const TABLES: &str = "belisarius/tables.toml";

/// The line of a table's `title`, where what is missing from the whole table is reported.
fn title_line(fx: &Fixture, title: &str) -> usize {
    fx.line_in(TABLES, "", &format!("title = \"{title}\""))
}

/// X-07 / BE-14: the interception table without its `die = 6` row is refused, though the
/// 5 row would read every die above it: a 6 rolled would be read as a 5 without a word.
#[test]
fn x_07_be_14_interception_without_its_die_6_row() {
    let fx = Fixture::new();
    fx.edit(TABLES, "  { die = 6, results = [\"L\", \"L\", \"L\", \"A\", \"A\", \"A\", \"A\"] },\n", "");
    let problems = fx.load_belisarius();
    problems.only(
        TABLES,
        title_line(&fx, "Interception"),
        "the interception table has no row for a die of 6; every die from 1 to 6 needs a row of its own",
    );
    problems.and_no_more(1);
}

/// X-07 / BE-14: a die missing between two rows is reported at the row after the gap; a row
/// for a die of 0 can never be read, since the program reads a die below 1 (mountains) as 1.
#[test]
fn x_07_be_14_interception_gap_and_row_below_the_die() {
    let fx = Fixture::new();
    fx.edit(TABLES, "  { die = 3, results = [\"F\", \"F\", \"F\", \"F\", \"L\", \"L\", \"L\"] },\n", "");
    let zero = fx.edit(
        TABLES,
        "  { die = 1, results = [\"F\", \"F\", \"F\", \"F\", \"F\", \"F\", \"L\"] },\n",
        "  { die = 0, results = [\"F\", \"F\", \"F\", \"F\", \"F\", \"F\", \"F\"] },\n  { die = 1, results = [\"F\", \"F\", \"F\", \"F\", \"F\", \"F\", \"L\"] },\n",
    );
    let after = fx.line_in(TABLES, "", "{ die = 4, results = [\"F\", \"F\", \"L\"");
    fx.load_belisarius()
        .has(TABLES, after, "the interception table has no row for a die of 3; every die from 1 to 6 needs a row of its own")
        .has(
            TABLES,
            zero,
            "the interception table's row for a die of 0 can never be read: the die runs from 1 to 6 (a d6, −1 in mountains, and a \
             die below 1 reads as 1)",
        )
        .and_no_more_in(TABLES, 2);
}

/// X-07 / BE-18: a combat row one result short names the row.
#[test]
fn x_07_be_18_combat_row_without_a_column() {
    Change::file(
        TABLES,
        "{ die = 3, results = [\"-\", \"-\", \"10\", \"10\", \"10T\", \"25T\", \"25T\", \"25T1\"] }",
        "{ die = 3, results = [\"-\", \"-\", \"10\", \"10\", \"10T\", \"25T\", \"25T\"] }",
    )
    .refused("the combat table's row for a die of 3 has 7 results, but the table has 8 columns");
}

/// X-07 / BE-18: a factor column left out of the list while every row keeps its result is one
/// problem, at the list, not one for each row.
#[test]
fn x_07_be_18_combat_column_missing_from_the_list() {
    Change::file(TABLES, "factors = [1, 3, 6, 10, 15, 21, 29, 39]", "factors = [1, 3, 6, 10, 15, 21, 29]").refused(
        "the combat table lists 7 columns, [1, 3, 6, 10, 15, 21, 29], but each of its rows has 8 results: a column is missing \
         from that list, or every row has a result too many",
    );
}

/// X-07 / BE-18: a die missing from the combat table, whose rows run from 0 to 8 for the
/// modified die, is refused at the row after it.
#[test]
fn x_07_be_18_combat_die_missing() {
    Change::file(TABLES, "  { die = 4, results = [\"-\", \"10\", \"10\", \"10T\", \"25T\", \"25T\", \"25T1\", \"50T1\"] },\n", "")
        .refused_at(
            "{ die = 5, results = [\"10\", \"10\", \"10T\"",
            "the combat table has no row for a die of 4; every die from 0 to 8 needs a row of its own",
        );
}

/// X-07 / BE-12: the attrition table without its die 6 column (taken from the list and from
/// every row alike) is refused at the list of dice.
#[test]
fn x_07_be_12_attrition_without_its_die_6_column() {
    let fx = Fixture::new();
    let line = fx.edit(TABLES, "dice = [1, 2, 3, 4, 5, 6]\n", "dice = [1, 2, 3, 4, 5]\n");
    for (from, to) in [
        ("{ zones = 0, percent = [0, 0, 0, 0, 0, 0] }", "{ zones = 0, percent = [0, 0, 0, 0, 0] }"),
        ("{ zones = 1, percent = [0, 0, 0, 0, 0, 10] }", "{ zones = 1, percent = [0, 0, 0, 0, 0] }"),
        ("{ zones = 3, percent = [0, 0, 0, 10, 10, 25] }", "{ zones = 3, percent = [0, 0, 0, 10, 10] }"),
        ("{ zones = 5, percent = [0, 0, 10, 10, 25, 50] }", "{ zones = 5, percent = [0, 0, 10, 10, 25] }"),
        ("unsupplied = [0, 0, 10, 10, 25, 50]", "unsupplied = [0, 0, 10, 10, 25]"),
    ] {
        fx.edit(TABLES, from, to);
    }
    fx.load_belisarius().only(
        TABLES,
        line,
        "the attrition table has no column for a die of 6; every die from 1 to 6 needs a column of its own",
    );
}

/// X-07 / BE-10 / BE-12: a row for more zones than a force may move in a turn can never be
/// read.
#[test]
fn x_07_be_12_attrition_row_beyond_a_turns_march() {
    let fx = Fixture::new();
    let line = fx.edit(
        TABLES,
        "  { zones = 5, percent = [0, 0, 10, 10, 25, 50] },\n",
        "  { zones = 5, percent = [0, 0, 10, 10, 25, 50] },\n  { zones = 7, percent = [0, 10, 10, 25, 50, 75] },\n",
    );
    // The new row starts on the line after the one edited.
    fx.load_belisarius().only(
        TABLES,
        line + 1,
        "the attrition table's row for 7 zones can never be read: a force moves at most 6 zones a turn",
    );
}

/// X-07 / BE-31 / BE-38 / BE-41: the program looks the attrition modifiers up by name, so a
/// misspelt one is refused and reported missing, and one that says it applies where the
/// program does not apply it is refused with what it must say.
#[test]
fn x_07_be_41_attrition_modifiers_the_program_applies() {
    let fx = Fixture::new();
    let misspelt = fx.edit(TABLES, "{ id = \"blockade\",", "{ id = \"blocade\",");
    let harvest = fx.line_in(TABLES, "", "{ id = \"bad-harvest\",");
    fx.edit(
        TABLES,
        "{ id = \"bad-harvest\", die = 1, applies = [\"supply\", \"siege\"]",
        "{ id = \"bad-harvest\", die = 1, applies = [\"movement\"]",
    );
    fx.load_belisarius()
        .has(
            TABLES,
            misspelt,
            "`blocade` is not an attrition modifier the program applies (bad-harvest, excellent-harvest, blockade, \
             friendly-ships-adjacent, unsupplied-mountains)",
        )
        .has(
            TABLES,
            title_line(&fx, "Attrition"),
            "the attrition modifier `blockade` is missing; the program applies it, so give it (with die = 0 to have none)",
        )
        .has(
            TABLES,
            harvest,
            "attrition modifier `bad-harvest` is applied to supply and siege rolls by the program, so its `applies` must read \
             [\"supply\", \"siege\"]",
        )
        .and_no_more_in(TABLES, 3);
}

/// X-07 / BE-34: naval attrition starts at 1 sea zone, the fewest ships that sailed have
/// moved: without that row a one-zone voyage would read the three-zone row.
#[test]
fn x_07_be_34_naval_attrition_without_its_first_row() {
    Change::file(TABLES, "  { zones = 1, results = [\"-\", \"-\", \"-\", \"-\", \"-\", \"1NP\", \"1NP\", \"25\"] },\n", "").refused_at(
        "{ zones = 3, results = [",
        "the first naval attrition row must start at 1 sea zone, the fewest that ships which sailed have moved",
    );
}

/// X-07 / BE-36: the naval combat table without its row for a die of 1 is refused at the row
/// that would have read it.
#[test]
fn x_07_be_36_naval_combat_die_missing() {
    Change::file(TABLES, "  { die = 1, lost = [0, 0, 0, 1, 1, 1, 2] },\n", "").refused_at(
        "{ die = 2, lost = [",
        "the naval combat table has no row for a die of 1; every die from 1 to 8 needs a row of its own",
    );
}

/// X-07 / BE-47: a 2d6 total left out of the event table gives no event and leaves its event
/// unrolled; both are said.
#[test]
fn x_07_be_47_event_total_missing() {
    let fx = Fixture::new();
    fx.edit(TABLES, "  { total = 9, events = [\"J\"] },\n", "");
    let title = title_line(&fx, "Random events");
    fx.load_belisarius()
        .has(TABLES, title, "the events table gives no event for a 2d6 total of 9; every total from 2 to 12 needs a `roll`")
        .has(TABLES, title, "no roll of the events table gives event J")
        .and_no_more_in(TABLES, 2);
}

/// X-07 / BE-47: a split total reads its second d6, so it lists six events, one a face.
#[test]
fn x_07_be_47_split_total_without_every_face_of_the_second_die() {
    Change::file(
        TABLES,
        "{ total = 4, events = [\"B\", \"B\", \"B\", \"E\", \"E\", \"E\"] }",
        "{ total = 4, events = [\"B\", \"B\", \"B\", \"E\", \"E\"] }",
    )
    .refused("the 2d6 total 4 lists 5 events; give one, or six to be read by a second d6");
}

/// X-07 / BE-45: the Ostrogoths may buy each of 1A, 1B, 1C and [1]D, so a price list without
/// one is refused, and so is a price for a unit they cannot buy.
#[test]
fn x_07_be_45_reinforcement_price_missing_or_unknown() {
    let fx = Fixture::new();
    let unknown = fx.edit(TABLES, "{ unit = \"1C\", half_points = 2 }", "{ unit = \"1E\", half_points = 2 }");
    fx.load_belisarius()
        .has(TABLES, unknown, "`1E` is not a unit the Ostrogoths buy (1A, 1B, 1C, [1]D)")
        .has(
            TABLES,
            title_line(&fx, "Ostrogoth reinforcement prices"),
            "the price of `1C` is missing; the Ostrogoths may buy it each spring",
        )
        .and_no_more_in(TABLES, 2);
}

/// the problems of every Belisarius table are reported at once.
#[test]
fn x_07_every_hole_of_every_belisarius_table_is_reported_at_once() {
    let fx = Fixture::new();
    fx.edit(TABLES, "  { die = 6, results = [\"L\", \"L\", \"L\", \"A\", \"A\", \"A\", \"A\"] },\n", "");
    fx.edit(TABLES, "  { die = 4, results = [\"-\", \"10\", \"10\", \"10T\", \"25T\", \"25T\", \"25T1\", \"50T1\"] },\n", "");
    fx.edit(TABLES, "  { total = 9, events = [\"J\"] },\n", "");
    fx.edit(TABLES, "  { unit = \"1C\", half_points = 2 },\n", "");
    let problems = fx.load_belisarius();
    problems.and_no_more_in(TABLES, 5);
}
