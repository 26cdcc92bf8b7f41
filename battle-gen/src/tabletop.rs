//! The tabletop rules a pack is written for, behind one trait: a [`Tabletop`] turns the
//! neutral forces of a [`BattleSpec`](crate::spec::BattleSpec) into rosters, says how the
//! battle is scaled onto the table and which fields its result form has. [`Dbm`] and
//! [`Dbsa`] are the systems today; Ars Bellum and A la Charge! come as two more.
//!
//! The result comes back as a [`TabletopResult`], which knows no campaign: each engine's
//! adapter turns it into its own order (for Magna Graecia,
//! [`crate::magna_graecia::result_order`]).

use referee_campaign::core::words::count;
use serde::{Deserialize, Serialize};

use crate::TabletopSystem;
use crate::dbsa::{self, BattleArmies, BattleSide, FigureScale, Scaling, SideScaling};
use crate::hexmap::HexSystem;
use crate::hexpack::HexTabletop;
use crate::hexunits::HexUnits;
use crate::layout::{Flow, col, num};
use crate::spec::{GroundSpec, Notes, Role, TroopGroup, TroopLine, UmpireSide, UmpireSpec};

/// One line of a roster: so many of a kind in a command or army, with points where the
/// system counts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RosterLine {
    /// The command or army it belongs to.
    pub group: String,
    pub kind: String,
    pub count: u32,
    pub points: Option<u32>,
    /// The general's own element.
    pub general: bool,
}

/// The table a system plays on for this battle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TableScale {
    /// Width and depth of the table, in feet, once the table is set.
    pub table_feet: Option<(f32, f32)>,
    /// Depth of each side's deployment zone from its base edge, in feet, if the rules have one.
    pub deployment_feet: Option<f32>,
    /// Millimetres on the table for 100 paces of the rules.
    pub mm_per_100_paces: u32,
}

/// What a field of the result form is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldScope {
    /// One for the battle.
    Battle,
    /// One for each side.
    Side,
    /// One for each command or unit.
    Line,
    /// One for each group of like troops of a command.
    Group,
}

/// One field of a system's result form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResultField {
    /// The field of [`TabletopResult`] it fills, e.g. `destroyed`.
    pub key: &'static str,
    pub label: String,
    pub scope: FieldScope,
    pub help: String,
}

/// A tabletop system: rosters, scaling, the result form.
pub trait Tabletop {
    fn system(&self) -> TabletopSystem;

    fn name(&self) -> &'static str {
        self.system().name()
    }

    /// How each side of the battle goes onto the table, in the umpire's order. This reads
    /// every side's strength, so it belongs to the umpire's side; a side's copy receives only
    /// its own [`SideScaling`].
    fn scale_battle(&self, sides: &[UmpireSide]) -> Vec<SideScaling>;

    /// A side's roster as lines, its forces as the system fields them under `scaling`.
    fn roster_lines(&self, side_name: &str, troops: &[TroopLine], scaling: SideScaling) -> Vec<RosterLine>;

    /// A side's roster pages.
    fn write_roster(&self, flow: &mut Flow<'_>, side_name: &str, troops: &[TroopLine], scaling: SideScaling, notes: &Notes);

    /// What the system adds to the umpire's sheet before the dice (nothing by default).
    fn write_umpire_notes(&self, _flow: &mut Flow<'_>, _spec: &UmpireSpec) {}

    /// Rules of the system's own the pack changes for the campaign, for every brief's list of
    /// special rules (none by default).
    fn brief_rules(&self) -> Vec<String> {
        Vec::new()
    }

    /// The table this battle is played on under the system.
    fn table_scale(&self, ground: &GroundSpec) -> TableScale;

    /// The fields of the result form.
    fn result_fields(&self) -> Vec<ResultField>;

    /// A hex wargame: its pack has a hex map, counters and the system's tables instead of a
    /// table drawn to scale.
    fn hex(&self) -> Option<&HexTabletop> {
        None
    }
}

impl TabletopSystem {
    /// The system, with the referee's choices for it.
    pub fn tabletop(self, scaling: Scaling, figures: FigureScale) -> Box<dyn Tabletop> {
        match self {
            TabletopSystem::Dbm => Box::new(Dbm { figures }),
            TabletopSystem::Dbsa => Box::new(Dbsa { scaling, figures }),
            TabletopSystem::ArsBellum => Box::new(HexTabletop::new(HexSystem::ArsBellum, HexUnits::embedded())),
            TabletopSystem::ALaCharge => Box::new(HexTabletop::new(HexSystem::ALaCharge, HexUnits::embedded())),
        }
    }
}

/// Depth of each side's deployment zone from its base edge (DS-01), in feet at `figures`.
fn deployment_feet(figures: FigureScale) -> f32 {
    let (inches, _) = figures.distance(dbsa::DEPLOYMENT_PACES);
    inches / 12.0
}

fn table_scale(ground: &GroundSpec, figures: FigureScale) -> TableScale {
    TableScale {
        table_feet: ground.table.as_ref().map(|t| (t.width_feet, t.depth_feet)),
        deployment_feet: Some(deployment_feet(figures)),
        mm_per_100_paces: figures.mm_per_100_paces(),
    }
}

/// The fields every system's form has: the campaign counts its losses in its own troops.
fn common_fields(unit: &str) -> Vec<ResultField> {
    let f = |key, label: &str, scope, help: &str| ResultField { key, label: label.to_owned(), scope, help: help.to_owned() };
    vec![
        f("outcome", "Winner", FieldScope::Battle, "A side, or no result (night, both broken in one bound, agreed)"),
        f("held_field", "Held the field", FieldScope::Battle, "Normally the winner: better recovery rolls"),
        f("destroyed", "destroyed", FieldScope::Group, &format!("How many {unit} of the group were destroyed")),
        f("fled", "fled", FieldScope::Group, &format!("How many {unit} of the group fled off a table edge and count as lost")),
        f("general_killed", "general killed", FieldScope::Line, "The general was killed on the table"),
        f("demoralised", "demoralised", FieldScope::Line, "The command was demoralised on the table"),
        f("declared_demoralised", "declared demoralised", FieldScope::Line, "Its own side declared it demoralised at the end of a bound"),
        f("joins", "if lost, joins", FieldScope::Line, "The command its troops join if the general is lost for good"),
        f("open_exits", "Roads still open", FieldScope::Side, "The loser's retreat must begin by one of these"),
        f("attacked_neutral", "Attacked the neutral city", FieldScope::Side, "A side that attacked the neutral city during the battle"),
    ]
}

/// De Bellis Multitudinis-style rosters: commands, generals, elements with grade and points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dbm {
    /// The figures, for the deployment depth drawn on the table page.
    pub figures: FigureScale,
}

impl Tabletop for Dbm {
    fn system(&self) -> TabletopSystem {
        TabletopSystem::Dbm
    }

    fn scale_battle(&self, sides: &[UmpireSide]) -> Vec<SideScaling> {
        sides.iter().map(|_| SideScaling::OneToOne).collect()
    }

    fn roster_lines(&self, _side_name: &str, troops: &[TroopLine], _scaling: SideScaling) -> Vec<RosterLine> {
        let mut out = Vec::new();
        for c in troops {
            out.push(RosterLine { group: c.name.clone(), kind: c.leader.clone(), count: 1, points: None, general: true });
            out.extend(c.groups.iter().map(|g| RosterLine {
                group: c.name.clone(),
                kind: g.kind.clone(),
                count: g.count,
                points: None,
                general: false,
            }));
        }
        out
    }

    fn write_roster(&self, flow: &mut Flow<'_>, side_name: &str, commands: &[TroopLine], _scaling: SideScaling, notes: &Notes) {
        flow.title(
            &format!("{side_name}: DBM roster"),
            &format!(
                "Every command at its strength now, element by element, with DBM-style points ({}). Set the elements out as listed; each command is one command on the table.",
                notes.roster_rule
            ),
        );
        for (i, c) in commands.iter().enumerate() {
            let title = match &c.ally_of {
                Some(city) => format!("{} — allied command of {city}", c.name),
                None => format!("{} — {}", c.name, c.rank.name()),
            };
            flow.heading(&title);
            // Each line's points where the campaign prices them: the general's with his rank's
            // cost, each group's for all its elements; they add up to the command's total.
            let price = |p: Option<u32>| p.map_or_else(String::new, |p| p.to_string());
            let mut rows = vec![if c.general {
                vec![format!("General: {}", c.leader), "1".to_owned(), price(c.prices.as_ref().map(|p| p.general))]
            } else {
                vec!["No general (leaderless)".to_owned(), "0".to_owned(), price(c.prices.as_ref().map(|_| 0))]
            }];
            for (i, g) in c.groups.iter().enumerate() {
                rows.push(vec![g.kind.clone(), g.count.to_string(), price(c.prices.as_ref().and_then(|p| p.groups.get(i).copied()))]);
            }
            rows.push(vec![format!("=Command total ({})", count(c.count, "element")), c.count.to_string(), c.points.to_string()]);
            // The army's line closes the last command's table, never alone on a page.
            let closing = if i + 1 == commands.len() { crate::layout::lines_height(2) } else { 0.0 };
            flow.table_then(&[col("Element", 3.0), num("Number", 0.8), num("Points", 0.8)], &rows, closing);
        }
        let total: u32 = commands.iter().map(|c| c.points).sum();
        let elements: u32 = commands.iter().map(|c| c.count).sum();
        flow.field(
            "Army in this battle: ",
            &format!("{}, {}, {}.", count(commands.len(), "command"), count(elements, "element"), count(total, "point")),
        );
    }

    fn table_scale(&self, ground: &GroundSpec) -> TableScale {
        table_scale(ground, self.figures)
    }

    fn result_fields(&self) -> Vec<ResultField> {
        common_fields("elements")
    }
}

/// De Bellis Societatis Antiquorum: ten troop types, one general, a camp; the campaign's
/// commands scaled under the referee's [`Scaling`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dbsa {
    pub scaling: Scaling,
    pub figures: FigureScale,
}

impl Dbsa {
    /// Every side of the battle in DBSA: the battle's factor needs every side's strength, so
    /// it is worked out here, from the umpire's spec, and never from a side's.
    pub fn battle(&self, sides: &[UmpireSide]) -> BattleArmies {
        let sides: Vec<BattleSide<'_>> =
            sides.iter().map(|s| BattleSide { name: &s.side.name, attacker: s.side.role == Role::Attacker, commands: &s.troops }).collect();
        dbsa::convert_battle(&sides, self.scaling)
    }
}

impl Tabletop for Dbsa {
    fn system(&self) -> TabletopSystem {
        TabletopSystem::Dbsa
    }

    fn scale_battle(&self, sides: &[UmpireSide]) -> Vec<SideScaling> {
        self.battle(sides).sides.into_iter().map(|s| s.scaling).collect()
    }

    fn roster_lines(&self, side_name: &str, troops: &[TroopLine], scaling: SideScaling) -> Vec<RosterLine> {
        dbsa::convert(side_name, troops, scaling)
            .into_iter()
            .flat_map(|army| {
                let general = army.general;
                let mut general_left = true;
                army.elements
                    .iter()
                    .map(|&(t, n)| {
                        let is_general = general_left && t == general;
                        general_left &= !is_general;
                        RosterLine { group: army.name.clone(), kind: t.name().to_owned(), count: n, points: None, general: is_general }
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// A side's DBSA armies. `scaling` is what the side's own conversion works from; its label
    /// is the one printed, so a side's copy never names the battle's factor.
    fn write_roster(&self, flow: &mut Flow<'_>, side_name: &str, troops: &[TroopLine], scaling: SideScaling, notes: &Notes) {
        let figures = self.figures;
        let armies = dbsa::convert(side_name, troops, scaling);
        flow.title(
            &format!("{side_name}: DBSA roster"),
            &format!("The campaign's commands as De Bellis Societatis Antiquorum armies: {scaling}. Figures: {}.", figures.label()),
        );
        for army in &armies {
            flow.heading(&army.name);
            flow.field("General: ", &format!("{} ({}); the army has a camp (DS-06).", army.general.name(), army.general_from));
            flow.field("Size: ", &army.ratio);
            flow.field(
                "Break point: ",
                &format!(
                    "the army is lost with its general, its camp or {} of its {} (DS-06, a third of the army).",
                    count(army.break_point, "element"),
                    army.size
                ),
            );
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
                    "=Total, general included".to_owned(),
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
            flow.table(
                &[col("Command", 1.2), col("Campaign elements", 1.6), col("DBSA type", 1.0), num("Share", 0.6), col("", 0.6)],
                &rows,
            );
            for w in &army.warnings {
                flow.para(&format!("Note: {w}"));
            }
        }
        flow.heading(&format!("Distances at {}", figures.label()));
        let rows: Vec<Vec<String>> = dbsa::distance_table(figures)
            .into_iter()
            .map(|(what, p, inch, cm)| vec![what, format!("{p}p"), dbsa::inches(inch), format!("{cm:.1} cm")])
            .collect();
        flow.table(&[col("Distance", 3.0), num("Paces", 0.7), num("Inches", 0.7), num("cm", 0.7)], &rows);
        flow.heading(&format!("Setting up and playing ({}, DS-01, DS-02, DS-06)", notes.table_rule));
        flow.bullets(&dbsa::setup_steps(&notes.table_rule));
    }

    /// The umpire's DBSA strengths: each side's campaign and table strength, the battle's
    /// factor, the odds between the sides before and after scaling, and a warning wherever the
    /// scaling moved them by more than [`dbsa::ODDS_TOLERANCE_PERCENT`].
    fn write_umpire_notes(&self, flow: &mut Flow<'_>, spec: &UmpireSpec) {
        let scaling = self.scaling;
        let battle = self.battle(&spec.sides);
        flow.heading("Strength on the table (DBSA)");
        flow.field("Scaling: ", &format!("{scaling}."));
        if let Some(scale) = battle.scale {
            flow.field(
                "The battle's factor: ",
                &format!(
                    "{}. Each side fields its campaign strength times this factor, rounded to the nearest element (halves up) and never below one; the largest side fields exactly the size asked for.",
                    scale.describe()
                ),
            );
        }
        let rows: Vec<Vec<String>> = spec
            .sides
            .iter()
            .zip(&battle.sides)
            .map(|(s, side)| {
                let breaks: Vec<String> = side.armies.iter().map(|a| a.break_point.to_string()).collect();
                vec![
                    s.side.name.clone(),
                    s.side.role.name().to_owned(),
                    side.strength.campaign.to_string(),
                    side.strength.table.to_string(),
                    breaks.join(", "),
                ]
            })
            .collect();
        flow.table(
            &[col("Side", 1.6), col("Role", 0.9), num("Campaign elements", 1.1), num("DBSA elements", 1.0), num("Break point", 0.9)],
            &rows,
        );
        flow.para(&dbsa::break_point_rule());
        let odds = battle.odds();
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
        if battle.scale.is_some_and(|scale| !scale.is_one_to_one()) {
            flow.para(&format!(
                "The sides' copies show each side its own army at this scale, never the factor or the size chosen. A side that is not the largest can still \
                 work the factor out from its own two counts, and from it roughly the largest side's strength, which the table shows anyway once the \
                 armies deploy: hand the side copies out when they do, {}.",
                spec.notes.table_set_when
            ));
        }
    }

    fn table_scale(&self, ground: &GroundSpec) -> TableScale {
        table_scale(ground, self.figures)
    }

    fn brief_rules(&self) -> Vec<String> {
        vec![dbsa::break_point_rule()]
    }

    fn result_fields(&self) -> Vec<ResultField> {
        let mut fields = common_fields("campaign elements");
        for f in &mut fields {
            if f.scope == FieldScope::Group {
                f.help.push_str(" (campaign elements: the roster's accounts say which DBSA element stood for which)");
            }
        }
        fields
    }
}

/// How a tabletop battle ended, in no campaign's terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum TableOutcome {
    Won {
        winner: referee_campaign::ids::SideId,
    },
    /// No loser: night, both armies broken in one bound, or agreed.
    NoResult {},
}

/// What one command or unit lost on the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineResult {
    /// The [`TroopLine`]'s name.
    pub line: String,
    /// Troops destroyed, in the line's own kinds (not the general's: see `general_killed`).
    #[serde(default)]
    pub destroyed: Vec<TroopGroup>,
    /// Troops that fled off a table edge and count as lost.
    #[serde(default)]
    pub fled: Vec<TroopGroup>,
    #[serde(default)]
    pub general_killed: bool,
    #[serde(default)]
    pub demoralised: bool,
    /// Declared demoralised by its own side.
    #[serde(default)]
    pub declared_demoralised: bool,
    /// The line its troops join if the general is lost for good.
    #[serde(default)]
    pub joins: Option<String>,
}

/// One side's part of the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideResult {
    pub side: referee_campaign::ids::SideId,
    /// Its lines that lost anything; lines not listed lost nothing.
    #[serde(default)]
    pub lines: Vec<LineResult>,
    /// The places whose ways off the table were still open to it at the end, by their ids;
    /// `None`: every way was open.
    #[serde(default)]
    pub open_exits: Option<Vec<String>>,
    /// It attacked the neutral party of the place (a neutral city) during the battle.
    #[serde(default)]
    pub attacked_neutral: bool,
}

/// The result of a tabletop battle, engine-neutral: each engine's adapter turns it into its
/// own order, which the rules then check like any other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TabletopResult {
    pub battle: u32,
    pub outcome: TableOutcome,
    /// The side that held the field; `None`: the winner did.
    #[serde(default)]
    pub held_field: Option<referee_campaign::ids::SideId>,
    #[serde(default)]
    pub sides: Vec<SideResult>,
}
