//! A battle pack: for each side one PDF with its brief, its roster in the chosen
//! tabletop rules and the table section; for the umpire one PDF with everything.
//!
//! Each side's file is drawn from its [`Brief`] alone, which is built from its own
//! [`SideView`]: nothing of the enemy's composition can reach it.

use referee_campaign::army::{CommandRoster, ElementTable};
use referee_campaign::map::Map;
use referee_campaign::{SideId, SideView, UmpireView};
use serde::{Deserialize, Serialize};

use crate::brief::{Brief, CommandSheet, PackError, RoadOff, UmpireSheet, side_brief, umpire_sheet};
use crate::dbsa::{self, FigureScale, Scaling};
use crate::ground::{Ground, ground};
use crate::layout::{Flow, col, num};
use crate::pdf::Document;
use crate::table::{TablePlan, draw_overview, table_page};
use crate::{Paper, TabletopSystem};

/// How the referee wants the pack made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackOptions {
    pub paper: Paper,
    pub system: TabletopSystem,
    /// For DBSA: how the campaign's commands become DBSA armies.
    pub scaling: Scaling,
    pub figures: FigureScale,
}

impl Default for PackOptions {
    fn default() -> Self {
        PackOptions { paper: Paper::A4, system: TabletopSystem::Dbm, scaling: Scaling::default(), figures: FigureScale::default() }
    }
}

/// Who a file is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reader {
    Umpire,
    Side(SideId),
}

/// One PDF of a pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackFile {
    pub file_name: String,
    pub reader: Reader,
    pub pages: usize,
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

/// Depth of each side's deployment zone from its base edge (DS-01), in feet at the chosen
/// figure scale.
fn deployment_feet(figures: FigureScale) -> f32 {
    let (inches, _) = figures.distance(dbsa::DEPLOYMENT_PACES);
    inches / 12.0
}

/// Makes the whole pack for a battle: the umpire's file first, then one per side, in the
/// order the battle lists its sides. `sides` must hold the view of every side in the battle.
pub fn battle_pack(
    umpire: &UmpireView,
    sides: &[SideView],
    map: &Map,
    elements: &ElementTable,
    battle: u32,
    options: &PackOptions,
) -> Result<Vec<PackFile>, PackError> {
    let mark = umpire.board.battles.iter().find(|b| b.id == battle).ok_or(PackError::NoBattle(battle))?;
    let ground = ground(map, mark.node).ok_or(PackError::NoGround(mark.node))?;
    let sheet = umpire_sheet(umpire, map, &ground, elements, battle)?;
    let mut files = vec![umpire_file(&sheet, &ground, options)];
    for side in std::iter::once(&mark.attacker).chain(&mark.defenders) {
        let view = sides.iter().find(|v| &v.side == side).ok_or_else(|| PackError::NotInBattle { side: side.clone(), battle })?;
        let brief = side_brief(view, map, &ground, elements, battle)?;
        files.push(side_file(&brief, &ground, options));
    }
    Ok(files)
}

fn file_name(battle: u32, day: u8, who: &str) -> String {
    let who: String = who.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    if day > 1 { format!("battle-{battle:02}-day-{day}-{who}.pdf") } else { format!("battle-{battle:02}-{who}.pdf") }
}

fn plan<'a>(ground: &'a Ground, h: &crate::brief::BattleHeader, options: &PackOptions) -> Option<TablePlan<'a>> {
    let section = h.section?;
    Some(TablePlan {
        ground,
        section,
        attacker: h.attacker.clone(),
        defender: h.defenders.join(" and "),
        deployment_feet: Some(deployment_feet(options.figures)),
        title: format!("Battle {} at {}, day {}: the table", h.battle, h.place, h.day),
    })
}

/// The table page, or while the defender has not chosen, the whole map to choose from.
fn add_table(doc: &mut Document, ground: &Ground, h: &crate::brief::BattleHeader, options: &PackOptions) {
    if let Some(p) = plan(ground, h, options) {
        let page = table_page(doc, &p);
        doc.add(page);
    } else {
        let mut flow = Flow::new(doc, format!("Battle {} at {} — the battle map", h.battle, h.place));
        flow.title(
            &format!("{}: the 8'×8' battle map", h.place),
            "The table is not set yet. The defender chooses the forward, central or rear 4'×8' section, counted from the attacker's entry edge (MG-21).",
        );
        let w = flow.width();
        flow.drawing(w + 4.0, |page, x, y, w| draw_overview(page, x, y, w, ground, None));
        flow.finish();
    }
}

fn table_lines(flow: &mut Flow<'_>, h: &crate::brief::BattleHeader) {
    match &h.table {
        Some(t) => {
            flow.field("Table: ", &format!("{} (MG-21).", t.describe()));
            flow.field("Weather: ", &format!("{}; summer, warm climate (MG-22).", t.weather));
            flow.field("Time of day: ", &format!("the armies are ready at {} (MG-22).", t.time_of_day));
        }
        None => flow.field("Table: ", "not set yet: the defender chooses a section first (MG-21)."),
    }
}

fn roads_table(flow: &mut Flow<'_>, roads: &[RoadOff]) {
    if roads.is_empty() {
        flow.para("No road leaves the table in play: there is no way to retire from it (MG-26).");
        return;
    }
    let rows: Vec<Vec<String>> = roads
        .iter()
        .map(|r| {
            vec![
                format!("{} {}", r.edge, if r.map_edge { "edge" } else { "side of the section" }),
                format!("{} {}", r.to, r.to_name),
                r.held_by.clone().unwrap_or_else(|| "nobody".to_owned()),
                if r.retire { "yes" } else { "no" }.to_owned(),
            ]
        })
        .collect();
    flow.table(&[col("Leaves by", 1.3), col("Road to", 1.4), col("Held by", 1.0), col("May retire", 0.7)], &rows);
}

fn side_file(b: &Brief, ground: &Ground, options: &PackOptions) -> PackFile {
    let h = &b.header;
    let mut doc = Document::new(&format!("Battle {} at {}: {}", h.battle, h.place, b.side_name), options.paper);
    {
        let mut flow = Flow::new(&mut doc, format!("{} — battle {} at {} — {}'s brief", h.campaign, h.battle, h.place, b.side_name));
        flow.title(
            &format!("Battle {} at {}: {}'s brief", h.battle, h.place, b.side_name),
            &format!(
                "{}, {}, turn {}, day {}. You are the {}. For {}'s player only.",
                h.campaign,
                h.scenario,
                h.turn,
                h.day,
                b.role.name(),
                b.side_name
            ),
        );
        flow.heading("The ground");
        flow.field("Where: ", &format!("node {} {}.", h.node, h.place));
        table_lines(&mut flow, h);
        if let Some(e) = b.base_edge {
            flow.field("Your base edge: ", &format!("the {e} edge of the table; deploy within {} paces of it.", dbsa::DEPLOYMENT_PACES));
        }
        let w = flow.width() * 0.45;
        let section = h.section;
        flow.drawing(w + 6.0, |page, x, y, _| draw_overview(page, x, y, w, ground, section.as_ref()));
        flow.heading("Your forces");
        flow.para(&format!("{} commands of yours are in the battle, at their strength now:", b.own.len()));
        commands_table(&mut flow, &b.own);
        flow.heading("What you can see of the enemy");
        for (name, n) in &b.enemies {
            flow.para(&format!("{name}: {n} command counter{} at {}. Their strength is not known.", plural(*n), h.place));
        }
        if let Some((city, n)) = &b.enemy_city {
            flow.para(&format!("The army of {city}, {n} command{}, fights against you as the enemy's ally.", plural(u32::from(*n))));
        }
        for (name, n) in &b.friends {
            flow.para(&format!("Beside you: {name}, {n} command counter{}; its player has its own brief.", plural(*n)));
        }
        flow.heading("Roads off the table");
        roads_table(&mut flow, &b.roads);
        flow.heading("What you fight for");
        flow.bullets(&b.objectives);
        flow.heading("Special rules in play");
        flow.bullets(&b.special_rules);
        flow.break_page();
        roster(&mut flow, &b.side_name, &b.own, options);
        flow.finish();
    }
    add_table(&mut doc, ground, h, options);
    let pages = doc.page_count();
    PackFile { file_name: file_name(h.battle, h.day, b.side.as_str()), reader: Reader::Side(b.side.clone()), pages, bytes: doc.finish() }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn commands_table(flow: &mut Flow<'_>, commands: &[CommandSheet]) {
    let rows: Vec<Vec<String>> = commands
        .iter()
        .map(|c| {
            let r = &c.roster;
            let mut name = r.name.clone();
            if let Some(city) = &c.city {
                name.push_str(&format!(" (allied, of {city})"));
            }
            let general = if c.leaderless { "none: leaderless (MG-31)".to_owned() } else { format!("{} {}", r.rank.name(), r.general) };
            let list: Vec<String> = r.elements.iter().map(ToString::to_string).collect();
            vec![name, general, list.join(", "), r.element_count().to_string(), c.points.to_string()]
        })
        .collect();
    flow.table(&[col("Command", 1.2), col("General", 1.3), col("Elements", 2.6), num("Elts", 0.45), num("Points", 0.55)], &rows);
}

fn roster(flow: &mut Flow<'_>, side_name: &str, commands: &[CommandSheet], options: &PackOptions) {
    match options.system {
        TabletopSystem::Dbm => dbm_roster(flow, side_name, commands),
        TabletopSystem::Dbsa => dbsa_roster(flow, side_name, commands, options),
    }
}

fn dbm_roster(flow: &mut Flow<'_>, side_name: &str, commands: &[CommandSheet]) {
    flow.title(
        &format!("{side_name}: DBM roster"),
        "Every command at its strength now, element by element, with DBM-style points (MG-03). Set the elements out as listed; each command is one command on the table.",
    );
    for c in commands {
        let r = &c.roster;
        let title = match &c.city {
            Some(city) => format!("{} — allied command of {city}", r.name),
            None => format!("{} — {}", r.name, r.rank.name()),
        };
        flow.heading(&title);
        let mut rows = vec![vec![
            if c.leaderless { "No general (leaderless)".to_owned() } else { format!("General: {}", r.general) },
            "1".to_owned(),
            String::new(),
        ]];
        for g in &r.elements {
            rows.push(vec![g.spec.to_string(), g.count.to_string(), String::new()]);
        }
        rows.push(vec![format!("=Command total ({} elements)", r.element_count()), r.element_count().to_string(), c.points.to_string()]);
        flow.table(&[col("Element", 3.0), num("Number", 0.8), num("Points", 0.8)], &rows);
    }
    let total: u32 = commands.iter().map(|c| c.points).sum();
    let elements: u32 = commands.iter().map(|c| c.roster.element_count()).sum();
    flow.field("Army in this battle: ", &format!("{} commands, {elements} elements, {total} points.", commands.len()));
}

fn dbsa_roster(flow: &mut Flow<'_>, side_name: &str, commands: &[CommandSheet], options: &PackOptions) {
    let rosters: Vec<CommandRoster> = commands.iter().map(|c| c.roster.clone()).collect();
    let armies = dbsa::convert(side_name, &rosters, options.scaling);
    flow.title(
        &format!("{side_name}: DBSA roster"),
        &format!(
            "The campaign's commands as De Bellis Societatis Antiquorum armies: {}. Figures: {}.",
            options.scaling,
            options.figures.label()
        ),
    );
    for army in &armies {
        flow.heading(&army.name);
        flow.field("General: ", &format!("{} ({}); the army has a camp (DS-06).", army.general.name(), army.general_from));
        flow.field("Size: ", &army.ratio);
        let rows: Vec<Vec<String>> = army
            .elements
            .iter()
            .map(|(t, n)| {
                vec![
                    t.name().to_owned(),
                    n.to_string(),
                    format!("+{}", t.combat_factor_vs_foot()),
                    format!("+{}", t.combat_factor_vs_mounted()),
                    format!("{}p", t.move_paces(true, false)),
                ]
            })
            .chain(std::iter::once(vec![
                format!("=Total, general included"),
                army.size.to_string(),
                String::new(),
                String::new(),
                String::new(),
            ]))
            .collect();
        flow.table(&[col("Type", 1.6), num("Elements", 0.8), num("v foot", 0.7), num("v mounted", 0.8), num("Move", 0.7)], &rows);
        flow.para("Where every campaign element went (each line's share of the DBSA elements of its type):");
        let rows: Vec<Vec<String>> = army
            .accounts
            .iter()
            .map(|a| {
                vec![
                    a.command.clone(),
                    a.source.clone(),
                    a.dbsa.name().to_owned(),
                    format!("{:.2}", a.share),
                    if a.guessed { "guessed" } else { "" }.to_owned(),
                ]
            })
            .collect();
        flow.table(&[col("Command", 1.2), col("Campaign elements", 1.6), col("DBSA type", 1.0), num("Share", 0.6), col("", 0.6)], &rows);
        for w in &army.warnings {
            flow.para(&format!("Note: {w}"));
        }
    }
    flow.heading(&format!("Distances at {}", options.figures.label()));
    let rows: Vec<Vec<String>> = dbsa::distance_table(options.figures)
        .into_iter()
        .map(|(what, p, inch, cm)| vec![what, format!("{p}p"), format!("{inch:.1}\""), format!("{cm:.1} cm")])
        .collect();
    flow.table(&[col("Distance", 3.0), num("Paces", 0.7), num("Inches", 0.7), num("cm", 0.7)], &rows);
    flow.heading("Setting up and playing (DS-01, DS-02, DS-06)");
    flow.bullets(&dbsa::setup_steps());
}

fn umpire_file(s: &UmpireSheet, ground: &Ground, options: &PackOptions) -> PackFile {
    let h = &s.header;
    let mut doc = Document::new(&format!("Battle {} at {}: umpire", h.battle, h.place), options.paper);
    {
        let mut flow =
            Flow::new(&mut doc, format!("{} — battle {} at {} — umpire's sheet: not for the players", h.campaign, h.battle, h.place));
        flow.title(
            &format!("Battle {} at {}: umpire's sheet", h.battle, h.place),
            &format!(
                "{}, {}, turn {}, day {}. {} attacks {}. Everything, hidden parts included: keep it from the players.",
                h.campaign,
                h.scenario,
                h.turn,
                h.day,
                h.attacker,
                h.defenders.join(" and ")
            ),
        );
        flow.heading("The table");
        table_lines(&mut flow, h);
        let w = flow.width() * 0.45;
        let section = h.section;
        flow.drawing(w + 6.0, |page, x, y, _| draw_overview(page, x, y, w, ground, section.as_ref()));
        for (_, name, role, commands) in &s.sides {
            flow.heading(&format!("{name}, {}", role.name()));
            commands_table(&mut flow, commands);
        }
        flow.heading("Dice rolled for the battle");
        if s.rolls.is_empty() {
            flow.para("None yet: the weather and time of day are rolled when the table is set (MG-22).");
        } else {
            let rows: Vec<Vec<String>> =
                s.rolls.iter().map(|r| vec![r.purpose.clone(), r.describe(), r.rule.clone().unwrap_or_default()]).collect();
            flow.table(&[col("For", 2.5), col("Roll", 1.5), col("Rule", 0.6)], &rows);
        }
        for (name, roads) in &s.roads {
            flow.heading(&format!("Roads off the table for {name}"));
            roads_table(&mut flow, roads);
        }
        if !s.log.is_empty() {
            flow.heading("From the campaign log");
            flow.bullets(&s.log);
        }
        for (_, name, _, commands) in &s.sides {
            flow.break_page();
            roster(&mut flow, name, commands, options);
        }
        flow.finish();
    }
    add_table(&mut doc, ground, h, options);
    let pages = doc.page_count();
    PackFile { file_name: file_name(h.battle, h.day, "umpire"), reader: Reader::Umpire, pages, bytes: doc.finish() }
}

/// One PDF of a pack, written to disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrittenFile {
    pub path: std::path::PathBuf,
    pub reader: Reader,
    pub pages: usize,
    pub bytes: usize,
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
}

/// Makes one battle's pack with [`campaign_pack`] and writes its files into `folder`, made
/// if missing.
pub fn write_pack(
    state: &referee_campaign::CampaignState,
    map: &Map,
    events: &[referee_campaign::Logged],
    battle: u32,
    options: &PackOptions,
    folder: &std::path::Path,
) -> Result<Vec<WrittenFile>, WriteError> {
    let files = campaign_pack(state, map, events, battle, options)?;
    std::fs::create_dir_all(folder).map_err(|error| WriteError::Folder { folder: folder.to_owned(), error })?;
    let mut written = Vec::new();
    for f in files {
        let path = folder.join(&f.file_name);
        std::fs::write(&path, &f.bytes).map_err(|error| WriteError::File { path: path.clone(), error })?;
        written.push(WrittenFile { path, reader: f.reader, pages: f.pages, bytes: f.bytes.len() });
    }
    Ok(written)
}

/// The pack for a battle of a campaign as it stands: the umpire's view and each fighting
/// side's own view are built here, and each side's file from its view alone.
pub fn campaign_pack(
    state: &referee_campaign::CampaignState,
    map: &Map,
    events: &[referee_campaign::Logged],
    battle: u32,
    options: &PackOptions,
) -> Result<Vec<PackFile>, PackError> {
    let umpire = referee_campaign::view::umpire_view(state, map, events);
    let mark = umpire.board.battles.iter().find(|b| b.id == battle).ok_or(PackError::NoBattle(battle))?;
    // A brief reads no log, so the sides' views are built without one: describing every
    // event of a long campaign again for each side would be the pack's slowest part.
    let sides: Vec<SideView> = std::iter::once(&mark.attacker)
        .chain(&mark.defenders)
        .filter_map(|s| referee_campaign::view::side_view(state, map, &[], s))
        .collect();
    battle_pack(&umpire, &sides, map, &state.scenario.elements, battle, options)
}
