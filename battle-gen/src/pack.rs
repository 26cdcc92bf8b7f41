//! A battle pack: for each side one PDF with its brief, its roster in the chosen
//! tabletop rules and the table section; for the umpire one PDF with everything.
//!
//! Each side's file is drawn from its [`Brief`] alone, which is built from its own
//! [`SideView`]: nothing of the enemy's composition can reach it. Under DBSA's per-battle
//! scaling one number comes from the umpire's side as well: the side's own table size,
//! worked out from every side's strength ([`dbsa::BattleScale`] says what a side can still
//! infer from it, and why the factor itself is printed on the umpire's sheet only).

use referee_campaign::army::{CommandRoster, ElementTable};
use referee_campaign::map::Map;
use referee_campaign::{SideId, SideView, UmpireView};
use serde::{Deserialize, Serialize};

use crate::brief::{Brief, CommandSheet, PackError, RoadOff, Role, UmpireSheet, side_brief, umpire_sheet};
use crate::dbsa::{self, BattleArmies, BattleSide, DbsaArmy, FigureScale, Scaling, SideScaling};
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
    let dbsa = dbsa_battle(&sheet, options.scaling);
    let mut files = vec![umpire_file(&sheet, &ground, options, &dbsa)];
    // The umpire's sheet lists the battle's sides in the battle's order, and `dbsa` follows it.
    for ((side, ..), scaled) in sheet.sides.iter().zip(&dbsa.sides) {
        let view = sides.iter().find(|v| &v.side == side).ok_or_else(|| PackError::NotInBattle { side: side.clone(), battle })?;
        let brief = side_brief(view, map, &ground, elements, battle)?;
        // The only thing a side's file takes from the umpire's side: how its own commands
        // are scaled, under per-battle scaling its own table size and nothing else.
        files.push(side_file(&brief, &ground, options, scaled.scaling));
    }
    Ok(files)
}

/// Every side of the battle in DBSA under `scaling`, from the umpire's sheet: the battle's
/// factor needs every side's strength, so it is worked out here and never from a side's view.
fn dbsa_battle(sheet: &UmpireSheet, scaling: Scaling) -> BattleArmies {
    let rosters: Vec<Vec<CommandRoster>> =
        sheet.sides.iter().map(|(.., commands)| commands.iter().map(|c| c.roster.clone()).collect()).collect();
    let sides: Vec<BattleSide<'_>> = sheet
        .sides
        .iter()
        .zip(&rosters)
        .map(|((_, name, role, _), commands)| BattleSide { name, attacker: *role == Role::Attacker, commands })
        .collect();
    dbsa::convert_battle(&sides, scaling)
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

fn side_file(b: &Brief, ground: &Ground, options: &PackOptions, scaling: SideScaling) -> PackFile {
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
        let n = u32::try_from(b.own.len()).unwrap_or(u32::MAX);
        flow.para(&format!(
            "{n} command{} of yours {} in the battle, at {} strength now:",
            plural(n),
            if n == 1 { "is" } else { "are" },
            if n == 1 { "its" } else { "their" }
        ));
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
        match options.system {
            TabletopSystem::Dbm => dbm_roster(&mut flow, &b.side_name, &b.own),
            TabletopSystem::Dbsa => {
                let rosters: Vec<CommandRoster> = b.own.iter().map(|c| c.roster.clone()).collect();
                let armies = dbsa::convert(&b.side_name, &rosters, scaling);
                dbsa_roster(&mut flow, &b.side_name, &armies, scaling, options.figures);
            }
        }
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

/// A side's DBSA armies. `scaling` is what the side's own conversion worked from; its label
/// is the one printed, so a side's copy never names the battle's factor.
fn dbsa_roster(flow: &mut Flow<'_>, side_name: &str, armies: &[DbsaArmy], scaling: SideScaling, figures: FigureScale) {
    flow.title(
        &format!("{side_name}: DBSA roster"),
        &format!("The campaign's commands as De Bellis Societatis Antiquorum armies: {scaling}. Figures: {}.", figures.label()),
    );
    for army in armies {
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
    flow.heading(&format!("Distances at {}", figures.label()));
    let rows: Vec<Vec<String>> = dbsa::distance_table(figures)
        .into_iter()
        .map(|(what, p, inch, cm)| vec![what, format!("{p}p"), format!("{inch:.1}\""), format!("{cm:.1} cm")])
        .collect();
    flow.table(&[col("Distance", 3.0), num("Paces", 0.7), num("Inches", 0.7), num("cm", 0.7)], &rows);
    flow.heading("Setting up and playing (MG-21, DS-01, DS-02, DS-06)");
    flow.bullets(&dbsa::setup_steps());
}

/// The umpire's DBSA strengths: each side's campaign and table strength, the battle's factor,
/// the odds between the sides before and after scaling, and a warning wherever the scaling
/// moved them by more than [`dbsa::ODDS_TOLERANCE_PERCENT`].
fn strengths(flow: &mut Flow<'_>, s: &UmpireSheet, dbsa: &BattleArmies, scaling: Scaling) {
    flow.heading("Strength on the table (DBSA)");
    flow.field("Scaling: ", &format!("{scaling}."));
    if let Some(scale) = dbsa.scale {
        flow.field(
            "The battle's factor: ",
            &format!(
                "{}. Each side fields its campaign strength times this factor, rounded to the nearest element (halves up) and never below one; the largest side fields exactly the size asked for.",
                scale.describe()
            ),
        );
    }
    let rows: Vec<Vec<String>> = s
        .sides
        .iter()
        .zip(&dbsa.sides)
        .map(|((_, name, role, _), side)| {
            vec![name.clone(), role.name().to_owned(), side.strength.campaign.to_string(), side.strength.table.to_string()]
        })
        .collect();
    flow.table(&[col("Side", 1.6), col("Role", 0.9), num("Campaign elements", 1.1), num("DBSA elements", 1.0)], &rows);
    let odds = dbsa.odds();
    for o in &odds {
        flow.para(&format!("Odds: {}", o.describe()));
    }
    let remedy = match scaling {
        // One factor for every side already: only rounding moved the odds.
        Scaling::PerBattle { .. } => "A larger size rounds closer to them.",
        Scaling::OneToOne | Scaling::PerCommand { .. } | Scaling::PerSide { .. } => {
            "Scaling the whole battle by one factor (per battle) keeps them."
        }
    };
    let warnings: Vec<String> = odds.iter().filter_map(dbsa::Odds::warning).collect();
    for w in &warnings {
        flow.warning(&format!("{w} {remedy}"));
    }
    if warnings.is_empty() && !odds.is_empty() {
        flow.para(&format!(
            "The table keeps the campaign's odds: no ratio between the sides moves by more than {} %.",
            dbsa::ODDS_TOLERANCE_PERCENT
        ));
    }
    if dbsa.scale.is_some_and(|scale| !scale.is_one_to_one()) {
        flow.para(
            "The sides' copies show each side its own army at this scale, never the factor or the size chosen. A side that is not the largest can still \
             work the factor out from its own two counts, and from it roughly the largest side's strength, which the table shows anyway once the \
             armies deploy: hand the side copies out when they do, after the defender has chosen its section.",
        );
    }
}

fn umpire_file(s: &UmpireSheet, ground: &Ground, options: &PackOptions, dbsa: &BattleArmies) -> PackFile {
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
        if options.system == TabletopSystem::Dbsa {
            strengths(&mut flow, s, dbsa, options.scaling);
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
        for ((_, name, _, commands), side) in s.sides.iter().zip(&dbsa.sides) {
            flow.break_page();
            match options.system {
                TabletopSystem::Dbm => dbm_roster(&mut flow, name, commands),
                TabletopSystem::Dbsa => dbsa_roster(&mut flow, name, &side.armies, side.scaling, options.figures),
            }
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

#[cfg(test)]
mod tests {
    use referee_campaign::fixtures::{DIONYSIAN, deploy_orders};
    use referee_campaign::table::Defence;
    use referee_campaign::{Campaign, Catalog, Command, DiceInput, Logged, Map, NodeId, SideId, Store};

    use super::*;
    use crate::pdf::extract_text;

    /// Himilco alone marches from Panormus onto Leptines at Himera, whose city fields two
    /// commands beside him: 20 Carthaginian elements against 50 Syracusan.
    fn himera() -> (Campaign, Map, Vec<Logged>) {
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap().clone();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create("Odds", catalog.scenario("dionysian").unwrap(), 9).unwrap();
        let mut go = |c: &mut Campaign, command: Command| {
            store.execute(c, &map, &command, DiceInput::Seeded).unwrap();
        };
        for order in deploy_orders(&DIONYSIAN) {
            go(&mut c, order);
        }
        go(&mut c, Command::BeginPlay {});
        go(&mut c, Command::Move { side: SideId::new("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] });
        go(&mut c, Command::EndPhase { side: SideId::new("carthage") });
        go(&mut c, Command::SetUpTable { battle: 1, defence: Defence::Central, cut: None, attacker_edge: None });
        let events = store.events(c.id).unwrap();
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
}
