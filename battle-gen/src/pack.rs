//! A battle pack: for each side one PDF with its brief, its roster in the chosen
//! tabletop rules and the table section; for the umpire one PDF with everything.
//!
//! Each side's file is drawn from its [`BattleSpec`] alone, which the campaign engine's
//! adapter ([`crate::adapter::BattleSource`]) builds from that side's own view: nothing of
//! the enemy's composition can reach it. [`spec_pack`] writes a pack from specs whatever the
//! campaign. Under DBSA's per-battle scaling one number comes from the umpire's side as well: the side's own table size,
//! worked out from every side's strength ([`dbsa::BattleScale`] says what a side can still
//! infer from it, and why the factor itself is printed on the umpire's sheet only).

use std::sync::Arc;

use referee_campaign::core::table::Edge;
use referee_campaign::core::words::possessive as owner;
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::store::KeptTable;
use serde::{Deserialize, Serialize};

use crate::dbsa::{FigureScale, Scaling, SideScaling};
use crate::hexpack::HexTabletop;
use crate::hexunits::{HEX_UNITS_FILE, HexUnits};
use crate::layout::{Flow, col, num};
use crate::pdf::Document;
use crate::spec::{BattleSpec, Exit, GroundSpec, Notes, SpecHead, TroopLine, UmpireSpec};
use crate::table::{TablePlan, draw_overview, table_page};
use crate::tabletop::Tabletop;
use crate::{Paper, TabletopSystem, dbsa};

/// How the referee wants the pack made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackOptions {
    pub paper: Paper,
    pub system: TabletopSystem,
    /// For DBSA: how the campaign's commands become DBSA armies.
    pub scaling: Scaling,
    pub figures: FigureScale,
    /// The hex wargames' conversion table, as the referee's data folder has it; `None`: the
    /// built-in one.
    #[serde(skip)]
    pub hex_units: Option<Arc<HexUnits>>,
}

impl Default for PackOptions {
    fn default() -> Self {
        PackOptions {
            paper: Paper::A4,
            system: TabletopSystem::Dbm,
            scaling: Scaling::default(),
            figures: FigureScale::default(),
            hex_units: None,
        }
    }
}

impl PackOptions {
    /// The tabletop system chosen, with its scaling and figures, and for a hex wargame the
    /// conversion table chosen.
    pub fn tabletop(&self) -> Box<dyn Tabletop> {
        match (self.system.hex(), &self.hex_units) {
            (Some(system), Some(table)) => Box::new(HexTabletop::new(system, HexUnits::clone(table))),
            _ => self.system.tabletop(self.scaling, self.figures),
        }
    }

    /// The tables this pack's result is read back by, to keep with its battle: for a hex
    /// wargame its conversion table; nothing for DBM and DBSA, whose results name the
    /// campaign's own troops.
    pub fn kept_tables(&self) -> Vec<KeptTable> {
        if self.system.hex().is_none() {
            return Vec::new();
        }
        let text = self.hex_units.as_ref().map_or_else(|| HexUnits::embedded().text, |t| t.text.clone());
        vec![KeptTable { path: HEX_UNITS_FILE.to_owned(), text }]
    }
}

/// Who a file is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reader {
    Umpire,
    Side(SideId),
    /// Every player and the umpire: nothing in it is anyone's secret (a hex map).
    Everyone,
}

/// One PDF of a pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackFile {
    pub file_name: String,
    pub reader: Reader,
    pub pages: usize,
    /// Characters of names or text no embedded font has, printed as `?`.
    pub missing_glyphs: Vec<char>,
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

impl PackFile {
    /// The finished file of `doc`.
    pub fn new(doc: Document, file_name: String, reader: Reader) -> PackFile {
        let (pages, missing_glyphs) = (doc.page_count(), doc.missing_glyphs());
        PackFile { file_name, reader, pages, missing_glyphs, bytes: doc.finish() }
    }
}

/// Why a pack cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    #[error("there is no battle {0} waiting to be fought — MG-20")]
    NoBattle(u32),
    #[error("{side} does not fight in battle {battle} — MG-20")]
    NotInBattle { side: SideId, battle: u32 },
    #[error("node {0} has no battle map — MG-21")]
    NoGround(NodeId),
}

/// Makes the whole pack from the battle's specs, whatever the campaign: the umpire's file
/// first, then one per side in the umpire's order. Each side's file is drawn from its own
/// spec; the one thing it takes from the umpire's side is how its own forces are scaled
/// onto the table ([`Tabletop::scale_battle`]), under per-battle scaling its own table size
/// and nothing else.
pub fn spec_pack(umpire: &UmpireSpec, sides: &[BattleSpec], options: &PackOptions) -> Result<Vec<PackFile>, PackError> {
    let tabletop = options.tabletop();
    let scales = tabletop.scale_battle(&umpire.sides);
    let mut files = vec![umpire_file(umpire, options, tabletop.as_ref(), &scales)];
    for (u, scaling) in umpire.sides.iter().zip(&scales) {
        let spec = sides
            .iter()
            .find(|s| s.side.id == u.side.id)
            .ok_or_else(|| PackError::NotInBattle { side: u.side.id.clone(), battle: umpire.head.battle })?;
        files.push(side_file(spec, options, tabletop.as_ref(), *scaling));
    }
    if let Some(hex) = tabletop.hex() {
        for (name, doc) in crate::hexpack::map_files(hex, umpire, options.paper) {
            files.push(PackFile::new(doc, name, Reader::Everyone));
        }
    }
    Ok(files)
}

/// A pack file's name: the battle, its day after the first, the rules and the reader, as
/// `battle-01-dbsa-byzantines.pdf`, so that packs of one battle under two rules lie side by
/// side in one folder.
pub(crate) fn file_name(system: TabletopSystem, battle: u32, day: u8, who: &str) -> String {
    let who: String = who.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let system = system.key();
    if day > 1 { format!("battle-{battle:02}-day-{day}-{system}-{who}.pdf") } else { format!("battle-{battle:02}-{system}-{who}.pdf") }
}

fn plan<'a>(ground: &'a GroundSpec, h: &SpecHead, tabletop: &dyn Tabletop) -> Option<TablePlan<'a>> {
    let section = ground.section?;
    Some(TablePlan {
        ground: &ground.map,
        section,
        attacker: h.attacker.clone(),
        defender: h.defenders.join(" and "),
        place: h.location.clone(),
        setting: ground.table.as_ref().map_or_else(|| crate::table::section_setting(&section), |t| t.description.clone()),
        deployment_feet: tabletop.table_scale(ground).deployment_feet,
        title: format!("Battle {} at {}, day {}: the table", h.battle, h.place, h.day),
    })
}

/// The foot of a page of the pack: the campaign and its turn, the battle, where, the day,
/// and what the page is.
pub(crate) fn footer(h: &SpecHead, what: &str) -> String {
    let day = if h.day > 1 { format!(", day {}", h.day) } else { String::new() };
    format!("{}, turn {} — battle {} at {}{day} — {what}", h.campaign, h.turn, h.battle, h.location)
}

/// The table page, or while the table is not set, the whole map to choose from.
fn add_table(doc: &mut Document, ground: &GroundSpec, h: &SpecHead, notes: &Notes, tabletop: &dyn Tabletop, whose: &str) {
    if let Some(p) = plan(ground, h, tabletop) {
        let mut page = table_page(doc, &p);
        page.footer = Some(footer(h, &format!("the table ({whose})")));
        doc.add(page);
    } else {
        let mut flow = Flow::new(doc, footer(h, &format!("the battle map ({whose})")));
        flow.title(&format!("{}: {}", h.place, notes.map_title), &notes.map_unset);
        let w = flow.width();
        flow.drawing(w + 4.0, |page, x, y, w| draw_overview(page, x, y, w, &ground.map, None));
        flow.finish();
    }
}

/// The roads that leave the table by a side's base edge `e`: its way home.
fn roads_behind(exits: &[Exit], e: Edge) -> String {
    let behind: Vec<String> = exits.iter().filter(|x| x.edge == e).map(|x| format!("to {} (held by {})", x.place(), x.holder())).collect();
    match behind.len() {
        0 => "No road leaves by it.".to_owned(),
        1 => format!("The road behind you leads {}.", behind[0]),
        _ => format!("The roads behind you lead {}.", behind.join("; ")),
    }
}

fn table_lines(flow: &mut Flow<'_>, ground: &GroundSpec) {
    for f in &ground.lines {
        flow.field(&f.label, &f.text);
    }
}

fn exits_table(flow: &mut Flow<'_>, exits: &[Exit], notes: &Notes) {
    if exits.is_empty() {
        flow.para(&notes.no_exits);
        return;
    }
    let rows: Vec<Vec<String>> = exits
        .iter()
        .map(|r| {
            vec![format!("{} edge of the table", r.edge), r.place(), r.holder().to_owned(), if r.retire { "yes" } else { "no" }.to_owned()]
        })
        .collect();
    flow.table(&[col("Leaves by", 1.3), col("Road to", 1.4), col("Held by", 1.0), col("May retire", 0.7)], &rows);
}

fn side_file(b: &BattleSpec, options: &PackOptions, tabletop: &dyn Tabletop, scaling: SideScaling) -> PackFile {
    let h = &b.head;
    let side_name = &b.side.name;
    let mut doc = Document::new(&format!("Battle {} at {}: {}", h.battle, h.place, side_name), options.paper);
    {
        let whose = owner(side_name);
        let mut flow = Flow::new(&mut doc, footer(h, &format!("{whose} brief")));
        flow.title(
            &format!("Battle {} at {}: {whose} brief", h.battle, h.place),
            &format!(
                "{}, {}, turn {}, day {}. You are the {}. For {} player only.",
                h.campaign,
                h.scenario,
                h.turn,
                h.day,
                b.side.role.name(),
                whose
            ),
        );
        flow.heading("The ground");
        flow.field("Where: ", &format!("{}.", h.location));
        table_lines(&mut flow, &b.ground);
        match (b.base_edge, tabletop.hex()) {
            (Some(e), None) => {
                flow.field(
                    "Your base edge: ",
                    &format!(
                        "the {e} edge of the table; deploy within {} paces of it. {}",
                        dbsa::DEPLOYMENT_PACES,
                        roads_behind(&b.exits, e)
                    ),
                );
            }
            (Some(e), Some(_)) => {
                let end = if b.side.role == crate::spec::Role::Attacker { "bottom" } else { "top" };
                flow.field("Your edge: ", &format!("the {e} edge of the table, the {end} of the hex map; set up in its marked hexes."));
            }
            (None, _) => {}
        }
        let w = flow.width() * 0.45;
        let section = b.ground.section;
        flow.drawing(w + 6.0, |page, x, y, _| draw_overview(page, x, y, w, &b.ground.map, section.as_ref()));
        flow.heading("Your forces");
        let n = u32::try_from(b.own.len()).unwrap_or(u32::MAX);
        flow.para(&format!(
            "{n} command{} of yours {} in the battle, at {} strength now:",
            plural(n),
            if n == 1 { "is" } else { "are" },
            if n == 1 { "its" } else { "their" }
        ));
        troops_table(&mut flow, &b.own, &b.notes);
        flow.heading("What you can see of the enemy");
        if !b.enemy.deployed.is_empty() {
            let names: Vec<&str> = b.enemy.sides.iter().map(|s| s.name.as_str()).collect();
            flow.para(&format!("The {} deployed in front of you:", names.join(" and ")));
            troops_table(&mut flow, &b.enemy.deployed, &b.notes);
        }
        for e in b.enemy.sides.iter().filter(|_| b.enemy.deployed.is_empty()) {
            flow.para(&match e.counters {
                // Its commands are all inside the walls, or it fights with its ally's army only.
                0 => format!("{}: no command counter in the field at {}.", e.name, h.place),
                n => format!("{}: {} at {}. Their strength is not known.", e.name, counted(n, "command counter"), h.place),
            });
        }
        for a in &b.enemy.allies {
            flow.para(&format!(
                "The army of {}, {} command{}, fights against you as the enemy's ally.",
                a.name,
                a.counters,
                plural(a.counters)
            ));
        }
        for f in &b.friends {
            flow.para(&format!("Beside you: {}, {}; its player has its own brief.", f.name, counted(f.counters, "command counter")));
        }
        for c in &b.friendly_cities {
            flow.para(&format!(
                "Beside you: the army of {}, {}, commanded by {} as the city's ally (MG-05).",
                c.name,
                counted(c.commands, "command"),
                c.commanded_by
            ));
        }
        flow.heading("Roads off the table");
        exits_table(&mut flow, &b.exits, &b.notes);
        flow.heading("What you fight for");
        flow.bullets(&b.objectives);
        flow.heading("Special rules in play");
        let rules: Vec<String> = b.special_rules.iter().cloned().chain(tabletop.brief_rules()).collect();
        flow.bullets(&rules);
        // The roster goes on under the brief where a good part of the page is left, rather
        // than leave the brief's last lines alone on a page.
        flow.continue_with(90.0, footer(h, &format!("{whose} brief and roster")), footer(h, &format!("{whose} roster")));
        tabletop.write_roster(&mut flow, side_name, &b.own, scaling, &b.notes);
        flow.finish();
    }
    match tabletop.hex() {
        Some(hex) => hex.side_pages(&mut doc, b, scaling, |what| footer(h, &format!("{} {what}", owner(side_name)))),
        None => add_table(&mut doc, &b.ground, h, &b.notes, tabletop, side_name),
    }
    PackFile::new(doc, file_name(options.system, h.battle, h.day, b.side.id.as_str()), Reader::Side(b.side.id.clone()))
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "no command counter", "1 command counter", "3 command counters".
fn counted(n: u32, thing: &str) -> String {
    match n {
        0 => format!("no {thing}"),
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}

fn troops_table(flow: &mut Flow<'_>, troops: &[TroopLine], notes: &Notes) {
    let rows: Vec<Vec<String>> = troops
        .iter()
        .map(|c| {
            let mut name = c.name.clone();
            if let Some(city) = &c.ally_of {
                name.push_str(&format!(" (allied, of {city})"));
            }
            let general = if c.general { format!("{} {}", c.rank.name(), c.leader) } else { notes.leaderless.clone() };
            let list: Vec<String> = c.groups.iter().map(ToString::to_string).collect();
            vec![name, general, list.join(", "), c.count.to_string(), c.points.to_string()]
        })
        .collect();
    flow.table(&[col("Command", 1.2), col("General", 1.3), col("Elements", 2.6), num("Elts", 0.45), num("Points", 0.55)], &rows);
}

fn umpire_file(s: &UmpireSpec, options: &PackOptions, tabletop: &dyn Tabletop, scales: &[SideScaling]) -> PackFile {
    let h = &s.head;
    let mut doc = Document::new(&format!("Battle {} at {}: umpire", h.battle, h.place), options.paper);
    {
        let mut flow = Flow::new(&mut doc, footer(h, "umpire's sheet: not for the players"));
        flow.title(
            &format!("Battle {} at {}: umpire's sheet", h.battle, h.place),
            &format!(
                "{}, {}, turn {}, day {}. {} {} {}. Everything, hidden parts included: keep it from the players.",
                h.campaign,
                h.scenario,
                h.turn,
                h.day,
                h.attacker,
                referee_campaign::core::words::agreeing(&h.attacker, "attack"),
                h.defenders.join(" and ")
            ),
        );
        flow.heading("The table");
        table_lines(&mut flow, &s.ground);
        let w = flow.width() * 0.45;
        let section = s.ground.section;
        flow.drawing(w + 6.0, |page, x, y, _| draw_overview(page, x, y, w, &s.ground.map, section.as_ref()));
        for side in &s.sides {
            flow.heading(&format!("{}, {}", side.side.name, side.side.role.name()));
            troops_table(&mut flow, &side.troops, &s.notes);
        }
        tabletop.write_umpire_notes(&mut flow, s);
        flow.heading("Dice rolled for the battle");
        if s.rolls.is_empty() {
            flow.para(&s.notes.no_rolls);
        } else {
            let rows: Vec<Vec<String>> = s.rolls.iter().map(|r| vec![r.purpose.clone(), r.roll.clone(), r.rule.clone()]).collect();
            flow.table(&[col("For", 2.5), col("Roll", 1.5), col("Rule", 0.6)], &rows);
        }
        // One table where every side reads the same roads, not the same table twice.
        match s.sides.split_first() {
            Some((first, rest)) if !rest.is_empty() && rest.iter().all(|o| o.exits == first.exits) => {
                flow.heading("Roads off the table, the same for every side");
                exits_table(&mut flow, &first.exits, &s.notes);
            }
            _ => {
                for side in &s.sides {
                    flow.heading(&format!("Roads off the table for {}", side.side.name));
                    exits_table(&mut flow, &side.exits, &s.notes);
                }
            }
        }
        if !s.log.is_empty() {
            flow.heading("From the campaign log");
            flow.bullets(&s.log);
        }
        for (side, scaling) in s.sides.iter().zip(scales) {
            flow.break_page();
            flow.set_footer(footer(h, &format!("{} roster, umpire's copy", owner(&side.side.name))));
            tabletop.write_roster(&mut flow, &side.side.name, &side.troops, *scaling, &s.notes);
        }
        flow.finish();
    }
    match tabletop.hex() {
        Some(hex) => hex.umpire_pages(&mut doc, s, scales, |what| footer(h, &format!("{what}, umpire's copy"))),
        None => add_table(&mut doc, &s.ground, h, &s.notes, tabletop, "umpire"),
    }
    PackFile::new(doc, file_name(options.system, h.battle, h.day, "umpire"), Reader::Umpire)
}

/// One PDF of a pack, written to disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrittenFile {
    pub path: std::path::PathBuf,
    pub reader: Reader,
    pub pages: usize,
    pub bytes: usize,
    /// Characters no embedded font has, printed as `?` in the file: the referee is told.
    pub missing_glyphs: Vec<char>,
}

impl WrittenFile {
    /// What became of `file`, written at `path`.
    pub fn of(path: std::path::PathBuf, file: &PackFile) -> WrittenFile {
        WrittenFile {
            path,
            reader: file.reader.clone(),
            pages: file.pages,
            bytes: file.bytes.len(),
            missing_glyphs: file.missing_glyphs.clone(),
        }
    }

    /// A sentence for the referee when the file could not print some characters.
    pub fn glyph_warning(&self) -> Option<String> {
        (!self.missing_glyphs.is_empty()).then(|| {
            let chars: String = self.missing_glyphs.iter().collect();
            format!("{} prints {chars} as ?: no font the program embeds has them", self.path.display())
        })
    }
}

/// Why a pack could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Pack(#[from] PackError),
    #[error("cannot make the folder {}: {error}", folder.display())]
    Folder { folder: std::path::PathBuf, error: std::io::Error },
    #[error("cannot write {}: {error}", path.display())]
    File { path: std::path::PathBuf, error: std::io::Error },
    /// Files of the pack's names are in the folder already, and replacing them was not asked for.
    #[error(
        "{} already holds {}; nothing was written: write the pack into another folder, or ask to replace {}",
        folder.display(),
        names.join(", "),
        if names.len() == 1 { "it" } else { "them" }
    )]
    Exists { folder: std::path::PathBuf, names: Vec<String> },
}

/// Whether a pack may replace files of the same names in its folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Existing {
    /// Refuse, writing nothing, when any file of the pack is there already.
    #[default]
    Refuse,
    /// Replace them.
    Replace,
}

/// Where a pack's files go: the folder, made if missing, and what becomes of files of the
/// same names already in it.
#[derive(Debug, Clone, Copy)]
pub struct Destination<'a> {
    pub folder: &'a std::path::Path,
    pub existing: Existing,
}

/// The files of `files` already in `folder`, by name.
pub fn existing(files: &[PackFile], folder: &std::path::Path) -> Vec<String> {
    files.iter().filter(|f| folder.join(&f.file_name).exists()).map(|f| f.file_name.clone()).collect()
}

/// Writes a pack's files into their folder, made if missing. Under [`Existing::Refuse`] nothing is
/// written when a file of the same name is there already; `before` runs once the files are
/// known to be writable and before the first is written (to keep the tables the pack was
/// counted by), and nothing is written if it fails.
pub fn write_files<E: From<WriteError>>(
    files: Vec<PackFile>,
    to: Destination<'_>,
    before: impl FnOnce() -> Result<(), E>,
) -> Result<Vec<WrittenFile>, E> {
    let folder = to.folder;
    if to.existing == Existing::Refuse {
        let names = existing(&files, folder);
        if !names.is_empty() {
            return Err(WriteError::Exists { folder: folder.to_owned(), names }.into());
        }
    }
    std::fs::create_dir_all(folder).map_err(|error| WriteError::Folder { folder: folder.to_owned(), error })?;
    before()?;
    let mut written = Vec::new();
    for f in files {
        let path = folder.join(&f.file_name);
        std::fs::write(&path, &f.bytes).map_err(|error| WriteError::File { path: path.clone(), error })?;
        written.push(WrittenFile::of(path, &f));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use referee_campaign::core::table::Defence;
    use referee_campaign::fixtures::{DIONYSIAN, deploy_orders};
    use referee_campaign::magna_graecia::MagnaGraecia;
    use referee_campaign::magna_graecia::catalog::Catalog;
    use referee_campaign::magna_graecia::event::Logged;
    use referee_campaign::magna_graecia::map::Map;
    use referee_campaign::magna_graecia::order::Order;
    use referee_campaign::store::{Campaign, DiceInput, Store};

    use super::*;
    use crate::magna_graecia::campaign_pack;
    use crate::pdf::extract_text;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(counted(0, "command counter"), "no command counter");
        assert_eq!(counted(1, "command counter"), "1 command counter");
        assert_eq!(counted(3, "command counter"), "3 command counters");
    }

    /// Himilco alone marches from Panormus onto Leptines at Himera, whose city fields two
    /// commands beside him: 20 Carthaginian elements against 50 Syracusan.
    pub(super) fn himera() -> (Campaign<MagnaGraecia>, Map, Vec<Logged>) {
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap().clone();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<MagnaGraecia>("Odds", catalog.scenario("dionysian").unwrap(), 9).unwrap();
        let mut go = |c: &mut Campaign<MagnaGraecia>, command: Order| {
            store.execute(c, &map, &command, DiceInput::Seeded).unwrap();
        };
        for order in deploy_orders(&DIONYSIAN) {
            go(&mut c, order);
        }
        go(&mut c, Order::BeginPlay {});
        go(&mut c, Order::Move { side: SideId::new("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] });
        go(&mut c, Order::EndPhase { side: SideId::new("carthage") });
        go(&mut c, Order::SetUpTable { battle: 1, defence: Defence::Central, cut: None, attacker_edge: None });
        let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
        (c, map, events)
    }

    /// The text of each file of the DBSA pack under `scaling`: umpire, Carthage, Syracuse.
    fn texts(scaling: Scaling) -> Vec<String> {
        let (c, map, events) = himera();
        let options = PackOptions { system: TabletopSystem::Dbsa, scaling, ..PackOptions::default() };
        let files = campaign_pack(&c.state, &map, &events, 1, &options).unwrap();
        assert_eq!(
            files.iter().map(|f| f.reader.clone()).collect::<Vec<_>>()[1..],
            [Reader::Side(SideId::new("carthage")), Reader::Side(SideId::new("syracuse"))]
        );
        files.iter().map(|f| extract_text(&f.bytes).unwrap().join("\n").replace('\n', " ")).collect()
    }

    /// The runs of digits in a text, so `50` is found as a number and not inside `500p`.
    fn numbers(text: &str) -> Vec<&str> {
        text.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).collect()
    }

    /// under per-side scaling at Himera's odds the umpire's sheet shows both sides'
    /// campaign and table strengths, the odds before and after, and a warning that twelve a
    /// side throws the odds away.
    #[test]
    fn x_04_umpire_sheet_warns_when_per_side_scaling_loses_the_odds() {
        let umpire = &texts(Scaling::PerSide { elements: 12 })[0];
        assert!(umpire.contains("Strength on the table (DBSA)"), "{umpire}");
        assert!(umpire.contains("Carthage attacker 20 12") && umpire.contains("Syracuse defender 50 12"), "{umpire}");
        assert!(
            umpire.contains("Odds: Carthage to Syracuse: 20 : 50 (1 : 2.50) in the campaign, 12 : 12 (1 : 1.00) on the table."),
            "{umpire}"
        );
        assert!(umpire.contains("WARNING: the scaling moves the odds between Carthage and Syracuse by 150 %"), "{umpire}");
        assert!(!umpire.contains("The battle's factor"), "per-side scaling has no battle factor");
    }

    /// the default per-battle scaling keeps Himera's odds, 5 against 12, and the
    /// umpire's sheet shows the factor without a warning. Neither side's copy holds the factor,
    /// the size chosen or the other side's strength: Carthage's copy has no 50 anywhere.
    #[test]
    fn x_01_per_battle_factor_stays_on_the_umpires_sheet() {
        let texts = texts(Scaling::default());
        let (umpire, carthage, syracuse) = (&texts[0], &texts[1], &texts[2]);
        assert!(umpire.contains("Carthage attacker 20 5") && umpire.contains("Syracuse defender 50 12"), "{umpire}");
        assert!(
            umpire.contains("The battle's factor: 12 DBSA elements for 50 campaign elements, one DBSA element for every 4.17"),
            "{umpire}"
        );
        assert!(umpire.contains("20 : 50 (1 : 2.50) in the campaign, 5 : 12 (1 : 2.40) on the table."), "{umpire}");
        assert!(!umpire.contains("WARNING"), "{umpire}");
        assert!(umpire.contains("hand the side copies out when they do"), "{umpire}");
        // Each side may retire by other roads at Himera (MG-26): a table each.
        assert!(umpire.contains("Roads off the table for Carthage") && umpire.contains("Roads off the table for Syracuse"), "{umpire}");

        assert!(carthage.contains("5 DBSA elements stand for 20 campaign elements, at the one scale of the whole battle"), "{carthage}");
        assert!(syracuse.contains("12 DBSA elements stand for 50 campaign elements, at the one scale of the whole battle"), "{syracuse}");
        assert!(numbers(umpire).contains(&"50"), "the check below looks for what the umpire's sheet shows");
        assert!(!numbers(carthage).contains(&"50"), "Carthage's copy shows Syracuse's strength: {carthage}");
        for side in [carthage, syracuse] {
            for leak in
                ["4.17", "2.40", "2.50", "factor:", "Strength on the table", "Odds:", "up to 12", "Carthage attacker", "Syracuse defender"]
            {
                assert!(umpire.contains(leak) || leak == "up to 12", "{leak} is not on the umpire's sheet either");
                assert!(!side.contains(leak), "a side's copy shows {leak}: {side}");
            }
        }
    }

    /// per-battle scaling at too small a size is warned of too: six for the larger side
    /// leaves Carthage 2 (20 × 6 ÷ 50 = 2.4), and 2 : 6 is 20 % off 20 : 50.
    #[test]
    fn x_04_per_battle_at_a_small_size_warns_of_its_rounding() {
        let umpire = &texts(Scaling::PerBattle { elements: 6 })[0];
        assert!(umpire.contains("20 : 50 (1 : 2.50) in the campaign, 2 : 6 (1 : 3.00) on the table."), "{umpire}");
        assert!(umpire.contains("WARNING: the scaling moves the odds between Carthage and Syracuse by 20 %"), "{umpire}");
        assert!(umpire.contains("A larger size rounds closer to them."), "{umpire}");
        let per_side = &texts(Scaling::PerSide { elements: 12 })[0];
        assert!(per_side.contains("Scaling the whole battle by one factor (per battle) keeps them."), "{per_side}");
    }

    /// MG-21: the roster's set-up steps in the pack leave the edges to the campaign.
    #[test]
    fn mg_21_pack_setup_text_follows_the_campaign_edges() {
        let texts = texts(Scaling::default());
        for text in &texts {
            assert!(text.contains("Setting up and playing (MG-21, DS-01, DS-02, DS-06)"), "{text}");
            assert!(text.contains("Table edges: set by the campaign (MG-21)"), "{text}");
            assert!(!text.contains("rolls for which edge"), "{text}");
        }
        assert!(texts[1].contains("Your base edge: the west edge of the table"), "{}", texts[1]);
        assert!(texts[2].contains("Your base edge: the east edge of the table"), "{}", texts[2]);
    }

    /// MG-03: the DBM roster prices every line of a command: the general's element with his
    /// rank's cost, each group of elements at its points, adding up to the command's total.
    #[test]
    fn mg_03_the_dbm_roster_prices_each_element() {
        let (c, map, events) = himera();
        let files = campaign_pack(&c.state, &map, &events, 1, &PackOptions::default()).unwrap();
        let carthage = extract_text(&files[1].bytes).unwrap().join("\n").replace('\n', " ");
        let table = &c.state.scenario.elements;
        let himilco = c.state.armies[&SideId::new("carthage")].commands.iter().find(|r| r.name == "Himilco").unwrap();
        let general = table.cost(&himilco.general).unwrap() + table.general_cost(himilco.rank);
        assert!(carthage.contains(&format!("General: {} 1 {general}", himilco.general)), "{carthage}");
        let mut sum = general;
        for g in &himilco.elements {
            let points = table.cost(&g.spec).unwrap() * g.count;
            sum += points;
            assert!(carthage.contains(&format!("{} {} {points}", g.spec, g.count)), "{} {}: {carthage}", g.count, g.spec);
        }
        assert_eq!(sum, table.command_points(himilco), "the lines add up to the command's points");
    }

    /// DS-01, MG-21: the deployment zone drawn on the table page is as deep as the distance
    /// table says, to the tenth of an inch: 600 paces at 15 mm are 9.4".
    #[test]
    fn ds_01_the_table_page_and_the_distance_table_give_one_deployment_depth() {
        let (c, map, events) = himera();
        for system in [TabletopSystem::Dbm, TabletopSystem::Dbsa] {
            let options = PackOptions { system, ..PackOptions::default() };
            let files = campaign_pack(&c.state, &map, &events, 1, &options).unwrap();
            let text = extract_text(&files[1].bytes).unwrap().join("\n").replace('\n', " ");
            assert!(text.contains("deployment zone, 9.4\" from the base edge"), "{system:?}: {text}");
            if system == TabletopSystem::Dbsa {
                assert!(text.contains("Deployment: depth from each side's base edge 600p 9.4\""), "{text}");
            }
        }
    }

    /// no page of a pack's sheets, briefs and rosters, under any of the four rules on
    /// either paper, leaves a heading at its foot or a line or row alone on a page.
    #[test]
    fn x_04_no_page_of_a_pack_strands_a_heading_or_a_line() {
        let (c, map, events) = himera();
        let mut slips = Vec::new();
        for system in [TabletopSystem::Dbm, TabletopSystem::Dbsa, TabletopSystem::ArsBellum, TabletopSystem::ALaCharge] {
            for paper in [Paper::A4, Paper::Letter] {
                let options = PackOptions { system, paper, ..PackOptions::default() };
                // The map files are drawings, their key a page of symbols.
                for f in campaign_pack(&c.state, &map, &events, 1, &options).unwrap().into_iter().filter(|f| f.reader != Reader::Everyone) {
                    let pages = crate::pdf::text_lines(&f.bytes).unwrap();
                    slips.extend(crate::layout::stranded(&pages).into_iter().map(|s| format!("{} ({paper:?}): {s}", f.file_name)));
                }
            }
        }
        assert!(slips.is_empty(), "{}", slips.join("\n"));
    }

    /// no page of a side's file is left near-empty: every page before the last page of
    /// text holds a good part of a page, and where the brief ends with a page to spare the roster
    /// goes on under it, the page's foot naming both.
    #[test]
    fn x_04_no_page_of_a_sides_file_is_near_empty() {
        let (c, map, events) = himera();
        for system in [TabletopSystem::Dbm, TabletopSystem::Dbsa] {
            let options = PackOptions { system, ..PackOptions::default() };
            let files = campaign_pack(&c.state, &map, &events, 1, &options).unwrap();
            for f in &files[1..] {
                let pages = extract_text(&f.bytes).unwrap();
                // The last page is the table; the one before it ends the text and may be short.
                let text_pages = pages.len() - 1;
                for (i, page) in pages[..text_pages].iter().enumerate() {
                    let lines = page.lines().filter(|l| !l.trim().is_empty()).count();
                    let least = if i + 1 == text_pages { 6 } else { 12 };
                    assert!(lines >= least, "{} page {} of {} holds {lines} lines:\n{page}", f.file_name, i + 1, pages.len());
                }
                // The brief's last lines and the roster's first share a page, named for both.
                let shared = pages.iter().find(|p| p.contains("brief and roster")).expect("the roster goes on under the brief");
                assert!(shared.contains("(MG-26)") && shared.contains(": DB"), "{shared}");
            }
        }
    }
}
