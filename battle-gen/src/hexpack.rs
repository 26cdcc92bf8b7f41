//! Ars Bellum and A la Charge! behind the [`Tabletop`] trait, and the pages of their packs:
//! the scenario in the form the rulebooks print theirs (map, set-up, duration, initiative or
//! first player, skills or traits in play, victory), the hex map, the counter sheet with its
//! backs, the system's tables and the turn track.
//!
//! Each side's pages are written from its [`BattleSpec`] and its own number of counters alone;
//! what needs every side's strength (the battle's factor, the enemy's counters, thresholds and
//! Fury) is on the umpire's sheet only.

use crate::dbsa::{self, SideScaling, Strength};
use crate::hexcounters::{counter_sheet, tag};
use crate::hexmap::{HexMap, HexSystem};
use crate::hexpage::{self, SetupNames};
use crate::hexunits::{CounterRole, HexArmy, HexUnits, elements};
use crate::layout::{Column, Flow, col, num};
use crate::pack::{file_name, footer};
use crate::pdf::{Document, Face, Ink};
use crate::spec::{BattleSpec, GroundSpec, Notes, Role, SpecHead, TroopLine, UmpireSide, UmpireSpec};
use crate::tabletop::{FieldScope, ResultField, RosterLine, TableScale, Tabletop};
use crate::{TabletopSystem, a_la_charge, ars_bellum};
use referee_campaign::core::words::agreeing;

/// A hex wargame with its conversion table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexTabletop {
    pub system: HexSystem,
    pub units: HexUnits,
}

impl HexTabletop {
    pub fn new(system: HexSystem, units: HexUnits) -> HexTabletop {
        HexTabletop { system, units }
    }

    /// The number of unit counters `scaling` gives a side of `lines`.
    fn side_units(&self, lines: &[TroopLine], scaling: SideScaling) -> u32 {
        match scaling {
            SideScaling::PerBattle { elements } => elements,
            _ => self.units.scale(self.system, &[lines]).side_size(elements(lines)),
        }
    }

    /// A side's counters under `scaling`.
    pub fn army(&self, side: &str, lines: &[TroopLine], scaling: SideScaling) -> HexArmy {
        self.units.army(self.system, side, lines, self.side_units(lines, scaling))
    }

    /// The scenario's length.
    pub fn turns(&self) -> u32 {
        self.units.rules(self.system).turns
    }

    /// Counters the largest side may field, leaders and baggage with them: what every side's
    /// set-up hexes are sized for, so their size tells nobody the enemy's strength.
    fn setup_room(&self) -> u32 {
        let baggage = match self.system {
            HexSystem::ArsBellum => 0,
            HexSystem::ALaCharge => self.units.a_la_charge.baggage,
        };
        self.units.rules(self.system).largest_side_units + baggage + 4
    }

    /// The hex map of the battle, once its section is known.
    pub fn map(&self, ground: &GroundSpec) -> Option<HexMap> {
        let s = ground.section?;
        let mut map = HexMap::new(self.system, &ground.map, s);
        map.attacker_setup = map.setup_for(true, self.setup_room());
        map.defender_setup = map.setup_for(false, self.setup_room());
        Some(map)
    }
}

fn names(h: &SpecHead) -> SetupNames {
    SetupNames { attacker: h.attacker.clone(), defender: h.defenders.join(" and ") }
}

impl Tabletop for HexTabletop {
    fn system(&self) -> TabletopSystem {
        match self.system {
            HexSystem::ArsBellum => TabletopSystem::ArsBellum,
            HexSystem::ALaCharge => TabletopSystem::ALaCharge,
        }
    }

    fn scale_battle(&self, sides: &[UmpireSide]) -> Vec<SideScaling> {
        let lines: Vec<&[TroopLine]> = sides.iter().map(|s| s.troops.as_slice()).collect();
        let scale = self.units.scale(self.system, &lines);
        sides.iter().map(|s| SideScaling::PerBattle { elements: scale.side_size(elements(&s.troops)) }).collect()
    }

    fn roster_lines(&self, side_name: &str, troops: &[TroopLine], scaling: SideScaling) -> Vec<RosterLine> {
        let army = self.army(side_name, troops, scaling);
        let mut out: Vec<RosterLine> = Vec::new();
        for c in &army.counters {
            let kind = c.describe(self.system);
            let general = matches!(c.role, CounterRole::Leader { .. });
            match out.iter_mut().find(|l| l.group == c.line && l.kind == kind && !general) {
                Some(l) => l.count += 1,
                None => out.push(RosterLine { group: c.line.clone(), kind, count: 1, points: None, general }),
            }
        }
        out
    }

    fn write_roster(&self, flow: &mut Flow<'_>, side_name: &str, troops: &[TroopLine], scaling: SideScaling, _notes: &Notes) {
        let army = self.army(side_name, troops, scaling);
        let what = match self.system {
            HexSystem::ArsBellum => "leaders and combat units",
            HexSystem::ALaCharge => "commanders, units and baggage",
        };
        flow.title(
            &format!("{side_name}: {} counters", self.system.name()),
            &format!(
                "The campaign's commands as {} {what}, by the conversion table ({}, reconstructed). The whole battle is scaled by one \
                 factor, so the table keeps the campaign's odds; each counter stands for an equal share of its command.",
                self.system.name(),
                self.units.file
            ),
        );
        counters_table(flow, self.system, &army);
        flow.para("Where every campaign element went:");
        let rows: Vec<Vec<String>> = army
            .accounts
            .iter()
            .map(|a| {
                let groups: Vec<String> = a.groups.iter().map(ToString::to_string).collect();
                let each = if a.units == 0 { "–".to_owned() } else { format!("{:.1}", f64::from(a.elements) / f64::from(a.units)) };
                vec![a.line.clone(), groups.join(", "), a.units.to_string(), each]
            })
            .collect();
        flow.table(&[col("Command", 1.2), col("Campaign elements", 2.6), num("Counters", 0.7), num("Elements each", 0.8)], &rows);
        for w in &army.warnings {
            flow.warning(w);
        }
    }

    fn write_umpire_notes(&self, flow: &mut Flow<'_>, spec: &UmpireSpec) {
        let lines: Vec<&[TroopLine]> = spec.sides.iter().map(|s| s.troops.as_slice()).collect();
        let scale = self.units.scale(self.system, &lines);
        // Each side's army at the battle's one factor, as the packs print it.
        let armies: Vec<HexArmy> = spec
            .sides
            .iter()
            .map(|s| self.units.army(self.system, &s.side.name, &s.troops, scale.side_size(elements(&s.troops))))
            .collect();
        flow.heading(&format!("Strength on the table ({})", self.system.name()));
        flow.field(
            "The battle's factor: ",
            &format!(
                "{} counters for the largest side's {} campaign elements (generals' own elements are their leader counters); every side in proportion, rounded to the nearest counter, never below one.",
                scale.table, scale.campaign
            ),
        );
        let mut strengths = Vec::new();
        let mut rows = Vec::new();
        for (s, army) in spec.sides.iter().zip(&armies) {
            let campaign = elements(&s.troops);
            strengths.push(Strength { name: s.side.name.clone(), attacker: s.side.role == Role::Attacker, campaign, table: army.units() });
            rows.push(vec![
                s.side.name.clone(),
                s.side.role.name().to_owned(),
                campaign.to_string(),
                army.units().to_string(),
                u32::try_from(army.counters.len()).unwrap_or(u32::MAX).to_string(),
                self.breaking_point(army),
            ]);
        }
        flow.table(
            &[
                col("Side", 1.3),
                col("Role", 0.8),
                num("Campaign elements", 1.0),
                num("Unit counters", 0.8),
                num("All counters", 0.8),
                col("Breaks", 2.0),
            ],
            &rows,
        );
        for o in dbsa::odds(&strengths) {
            flow.para(&format!("Odds: {}", o.describe()));
            if let Some(w) = o.warning() {
                flow.warning(&format!("{w} A larger table size rounds closer to them."));
            }
        }
        if self.system == HexSystem::ArsBellum {
            let fury: Vec<String> = armies.iter().filter(|a| a.has_fury()).map(|a| a.side.clone()).collect();
            flow.field(
                "Fury (AB-02): ",
                &if fury.is_empty() {
                    "no side has it.".to_owned()
                } else {
                    format!("{}; tell the players when the armies deploy.", fury.join(" and "))
                },
            );
        }
        flow.para(
            "Each side's copy shows its own counters and its own breaking point only: announce the enemy's when the armies deploy, \
             as the counters on the map show them anyway.",
        );
    }

    fn table_scale(&self, _ground: &GroundSpec) -> TableScale {
        TableScale { table_feet: None, deployment_feet: None, mm_per_100_paces: 0 }
    }

    fn result_fields(&self) -> Vec<ResultField> {
        let f = |key, label: &str, scope, help: &str| ResultField { key, label: label.to_owned(), scope, help: help.to_owned() };
        let lost = match self.system {
            HexSystem::ArsBellum => "Counters of the command eliminated (a leader eliminated counts as its general killed)",
            HexSystem::ALaCharge => {
                "Steps the command lost: 1 for a unit turned to its reduced side, 2 (or 1 for a one-step unit) for one eliminated"
            }
        };
        vec![
            f("outcome", "Winner", FieldScope::Battle, "The side whose victory the rules gave, or no result"),
            f("held_field", "Held the field", FieldScope::Battle, "Normally the winner"),
            f("destroyed", "counters lost", FieldScope::Line, lost),
            f("general_killed", "leader eliminated", FieldScope::Line, "The command's leader or commander counter was eliminated"),
        ]
    }

    fn hex(&self) -> Option<&HexTabletop> {
        Some(self)
    }
}

/// "units: 4-3 …" for the counters table.
fn counters_table(flow: &mut Flow<'_>, system: HexSystem, army: &HexArmy) {
    let t = tag(&army.side);
    let rows: Vec<Vec<String>> = army
        .counters
        .iter()
        .map(|c| {
            let back = match (system, c.reduced) {
                (_, None) => "one step".to_owned(),
                (HexSystem::ArsBellum, Some(v)) => format!("disorganised {v}"),
                (HexSystem::ALaCharge, Some(v)) => format!("reduced {v}"),
            };
            vec![format!("{t} {}", c.number), c.line.clone(), c.describe(system), back, c.skills.join(", "), c.source.clone()]
        })
        .collect();
    flow.table(
        &[col("No.", 0.6), col("Command", 1.0), col("Counter", 1.7), col("Back", 0.9), col("Skills", 1.2), col("Stands for", 0.9)],
        &rows,
    );
}

impl HexTabletop {
    /// When `army` is beaten: Ars Bellum's counters the enemy must eliminate, A la Charge!'s
    /// morale threshold.
    fn breaking_point(&self, army: &HexArmy) -> String {
        match self.system {
            HexSystem::ArsBellum => {
                format!("when {} of its {} counters are eliminated (AB-08)", self.units.ab_to_eliminate(army), army.counters.len())
            }
            HexSystem::ALaCharge => {
                let (threshold, whole) = self.units.ac_threshold(army);
                format!(
                    "when its eliminated strength reaches its army morale threshold, {threshold} ({}% of its {whole}) (AC-07)",
                    self.units.a_la_charge.threshold_percent
                )
            }
        }
    }

    /// The scenario, in the rulebooks' own order, for one reader: `armies` are the sides the
    /// reader may see in full (its own, or every side for the umpire).
    fn scenario(
        &self,
        flow: &mut Flow<'_>,
        h: &SpecHead,
        ground: &GroundSpec,
        map: Option<&HexMap>,
        armies: &[(Role, HexArmy)],
        umpire: bool,
    ) {
        let sys = self.system.name();
        flow.title(
            &format!("Battle {} at {}: the {sys} scenario", h.battle, h.place),
            &format!("{}, {}, turn {}, day {}.", h.campaign, h.scenario, h.turn, h.day),
        );
        flow.heading("Map");
        match map {
            Some(m) => flow.para(&format!(
                "{}: the battle's ground on {} × {} hexes, numbered {} ({}); the attacker's edge is the bottom of the map. Printed on the next page, \
                 and at full size in the map files (one A3 sheet, or sheets of this paper that join).",
                h.place,
                m.cols,
                m.rows,
                match self.system {
                    HexSystem::ArsBellum => "along the rows from the top left, 001 onwards, as the rules' scenarios number them",
                    HexSystem::ALaCharge => "column then row, 0101 at the top left, as the rules' scenarios number them",
                },
                self.system.scale_note(),
            )),
            None => flow.para(&ground_unset(ground)),
        }
        flow.heading("Set-up");
        for (role, army) in armies {
            let (edge, letter) = if *role == Role::Attacker { ("bottom", "A") } else { ("top", "D") };
            let hexes = map.map(|m| {
                let list = if *role == Role::Attacker { &m.attacker_setup } else { &m.defender_setup };
                hex_ranges(m, list)
            });
            let place = match hexes {
                Some(r) if r.is_empty() => format!("the sea takes the {edge} edge: the umpire places the army on the nearest land"),
                Some(r) => format!("any hex marked {letter} along the {edge} edge ({r}), one counter a hex"),
                None => format!("along the {edge} edge once the table is set"),
            };
            let mut kinds: Vec<(String, u32)> = Vec::new();
            for c in &army.counters {
                let d = c.describe(self.system);
                match kinds.iter_mut().find(|(k, _)| *k == d) {
                    Some((_, n)) => *n += 1,
                    None => kinds.push((d, 1)),
                }
            }
            let parts: Vec<String> = kinds.iter().map(|(d, n)| if *n == 1 { d.clone() } else { format!("{n} × {d}") }).collect();
            flow.field(&format!("{} ({}): ", army.side, role.name()), &format!("{place}: {}.", parts.join(", ")));
        }
        if !umpire {
            flow.para("The enemy sets up along the other edge; its counters are the umpire's to announce.");
        }
        flow.heading("Duration");
        flow.para(&format!("{} turns; the turn track is on the tables page.", self.turns()));
        match self.system {
            HexSystem::ArsBellum => {
                flow.heading("Initiative (AB-02)");
                flow.para(
                    "At the start of every turn each player adds up his leaders' command values and rolls a die; the higher total has \
                     the initiative and moves, fires and fights first, or lets the other begin. Roll again on a tie.",
                );
                for (_, army) in armies {
                    let command: u32 = army.counters.iter().filter(|c| matches!(c.role, CounterRole::Leader { .. })).map(|c| c.value).sum();
                    let fury = if army.has_fury() {
                        ", and the Fury skill: +2 to the initiative die until it first loses the initiative"
                    } else {
                        ""
                    };
                    flow.field(&format!("{}: ", army.side), &format!("leaders' command {command}{fury}."));
                }
            }
            HexSystem::ALaCharge => {
                flow.heading("First player (AC-02)");
                flow.para(&format!(
                    "The attacker, {}, is player 1: each turn it moves and fights first, then the defender; then both check victory \
                     and the turn marker moves on.",
                    h.attacker
                ));
            }
        }
        flow.heading(match self.system {
            HexSystem::ArsBellum => "Skills in play (AB-07)",
            HexSystem::ALaCharge => "Special traits in play (AC-08)",
        });
        let mut skills: Vec<String> = armies.iter().flat_map(|(_, a)| a.skills()).collect();
        skills.sort();
        skills.dedup();
        let mut lines: Vec<String> = general_skills(self.system).into_iter().map(str::to_owned).collect();
        for s in &skills {
            let mut name = s.replace('-', " ");
            if let Some(first) = name.get(..1) {
                name = format!("{}{}", first.to_uppercase(), &name[1..]);
            }
            lines.push(format!("{name}: {}", skill_text(self.system, s)));
        }
        flow.bullets(&lines);
        flow.heading("Victory conditions");
        for (_, army) in armies {
            flow.field(&format!("{}: ", army.side), &format!("beaten {}.", self.breaking_point(army)));
        }
        flow.bullets(&victory_text(self.system));
    }

    /// The pages a side's file ends with: scenario, map, counters, tables.
    pub fn side_pages(&self, doc: &mut Document, b: &BattleSpec, scaling: SideScaling, footer: impl Fn(&str) -> String) {
        let map = self.map(&b.ground);
        let army = self.army(&b.side.name, &b.own, scaling);
        {
            let mut flow = Flow::new(doc, footer("scenario"));
            self.scenario(&mut flow, &b.head, &b.ground, map.as_ref(), &[(b.side.role, army.clone())], false);
            flow.finish();
        }
        self.common_pages(doc, &b.head, map.as_ref(), &[army], &footer);
    }

    /// The pages the umpire's file ends with: the scenario with every side, map, every side's
    /// counters, tables.
    pub fn umpire_pages(&self, doc: &mut Document, s: &UmpireSpec, scales: &[SideScaling], footer: impl Fn(&str) -> String) {
        let map = self.map(&s.ground);
        let armies: Vec<(Role, HexArmy)> =
            s.sides.iter().zip(scales).map(|(u, sc)| (u.side.role, self.army(&u.side.name, &u.troops, *sc))).collect();
        {
            let mut flow = Flow::new(doc, footer("scenario"));
            self.scenario(&mut flow, &s.head, &s.ground, map.as_ref(), &armies, true);
            flow.finish();
        }
        let only: Vec<HexArmy> = armies.into_iter().map(|(_, a)| a).collect();
        self.common_pages(doc, &s.head, map.as_ref(), &only, &footer);
    }

    fn common_pages(&self, doc: &mut Document, h: &SpecHead, map: Option<&HexMap>, armies: &[HexArmy], footer: &dyn Fn(&str) -> String) {
        if let Some(m) = map {
            let title = format!("Battle {} at {}: the {} map", h.battle, h.place, self.system.name());
            let defenders = h.defenders.join(" and ");
            let sub = format!(
                "{} {} from the bottom edge; {defenders} {} the top. Hex numbers as the rules' scenarios write them.",
                h.attacker,
                agreeing(&h.attacker, "attack"),
                agreeing(&defenders, "hold"),
            );
            let mut page = hexpage::fitted_page(doc, m, &names(h), &title, &sub);
            page.footer = Some(footer("hex map"));
            doc.add(page);
        }
        for army in armies {
            // A side's copy holds its own counters only; the umpire's names whose they are.
            let what = if armies.len() == 1 { "counters".to_owned() } else { format!("{} counters", army.side) };
            counter_sheet(doc, self.system, army, h, &footer(&what));
        }
        self.tables_page(doc, &footer("tables"));
    }

    /// The system's tables and the turn track, on pages of their own.
    fn tables_page(&self, doc: &mut Document, footer: &str) {
        let mut flow = Flow::new(doc, footer.to_owned());
        match self.system {
            HexSystem::ArsBellum => {
                flow.title("Ars Bellum tables", "Melee (AB-05), terrain (AB-03), fire (AB-04) and morale (AB-06).");
                flow.heading("Melee resolution table");
                let dice = (1..=ars_bellum::MELEE.len()).map(|d| d.to_string());
                let codes = ars_bellum::MELEE.iter().map(|row| row.iter().map(|r| r.code()).collect());
                results_table(&mut flow, "d6", &ars_bellum::column_heads(), dice.zip(codes));
                flow.bullets(&[
                    "A attacker, D defender; R retreat 1 hex, D disorganised (flip), E eliminated, T morale test; supports share the result.".to_owned(),
                    "Ratios round in the defender's favour (5/2 is 2/1); each step beyond 4/1 adds 1 to the die; a die below 1 is 1, above 8 is 8.".to_owned(),
                    "Support: +1 for infantry of 3 or less, +2 for cavalry, elephants or infantry above 3.".to_owned(),
                ]);
                flow.heading("Terrain table");
                let rows: Vec<Vec<String>> = ars_bellum::Terrain::ALL
                    .iter()
                    .map(|t| {
                        let e = t.effect();
                        vec![t.name().to_owned(), e.cost(), e.melee(), e.firing()]
                    })
                    .collect();
                flow.table(&[col("Terrain", 1.2), col("Cost", 0.7), col("Melee", 2.4), col("Firing", 1.2)], &rows);
                flow.heading("Fire and morale");
                flow.bullets(&[
                    "Fire: d6 + the shooter's bonus; 6 or 7 the target retreats a hex, 8 or more it retreats and tests its morale; -1 against a target on higher ground."
                        .to_owned(),
                    "Morale: d6 at or under the unit's value passes; -1 within a friendly leader's command radius, -1 for elite, +1 for recruits; a failed test disorganises, and a unit disorganised again is eliminated."
                        .to_owned(),
                ]);
            }
            HexSystem::ALaCharge => {
                flow.title("A la Charge! tables", "Combat results (AC-05), terrain effects, retreats (AC-06).");
                flow.heading("Combat results table");
                let codes = a_la_charge::CRT.iter().map(|row| row.iter().map(|r| r.code()).collect());
                results_table(&mut flow, "Die", &a_la_charge::column_heads(), a_la_charge::die_heads().into_iter().zip(codes));
                flow.bullets(&[
                    "A attacker, D defender; 1 or 2 steps lost, R retreat one hex, T morale test. Ratios from 1/2 to 4/1, rounded in the defender's favour."
                        .to_owned(),
                    "Morale test: a die under the unit's strength holds, equal retreats, over loses a step; +1 to the strength with the commander stacked or adjacent."
                        .to_owned(),
                ]);
                flow.heading("Terrain effects chart");
                let rows: Vec<Vec<String>> = a_la_charge::terrain_chart().into_iter().map(Vec::from).collect();
                flow.table(&[col("Terrain", 1.2), col("Cost per hex", 1.0), col("Effects in combat", 3.0)], &rows);
                flow.para(
                    "The rules give fortifications no cost or effect of their own: the scenario says what they do. A walled city of the \
                     campaign is a palisade here (see the map's key).",
                );
                flow.heading("Retreat chart");
                flow.table(
                    &[col("Retreating unit", 2.2), col("It", 1.2), col("Adjacent friend", 1.4)],
                    &[
                        vec!["No enemy ZoC, no friend adjacent".to_owned(), "no effect".to_owned(), "–".to_owned()],
                        vec!["No enemy ZoC, a friend adjacent".to_owned(), "no effect".to_owned(), "pushed back, tests".to_owned()],
                        vec!["In enemy ZoC, a friend adjacent".to_owned(), "tests at -1".to_owned(), "pushed back, tests".to_owned()],
                        vec!["In enemy ZoC, no friend adjacent".to_owned(), "loses a step".to_owned(), "–".to_owned()],
                    ],
                );
            }
        }
        flow.heading("Turn track");
        let turns = self.turns();
        flow.need(16.0);
        let y = flow.y;
        let w = flow.width();
        let n = turns.max(1);
        let cell = (w / f32::from(u16::try_from(n).unwrap_or(1))).min(18.0);
        let page = flow.page();
        for t in 0..n {
            let x = crate::layout::MARGIN + f32::from(u16::try_from(t).unwrap_or(0)) * cell;
            page.rect(x, y, cell - 1.0, 12.0, None, Some((Ink::BLACK, 0.3)));
            page.text_centred(x + (cell - 1.0) / 2.0, y + 7.5, 10.0, Face::Bold, &(t + 1).to_string());
        }
        flow.y = y + 16.0;
        flow.finish();
    }
}

/// The hexes of `list` as runs of consecutive numbers: `190–210, 212, 213–231`.
fn hex_ranges(map: &HexMap, list: &[usize]) -> String {
    let mut sorted: Vec<usize> = list.to_vec();
    sorted.sort_unstable();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in sorted {
        match runs.last_mut() {
            // Consecutive numbers: along a row, and for Ars Bellum's numbering on into the next.
            Some((_, end)) if *end + 1 == i && (map.system == HexSystem::ArsBellum || map.cells[i].row == map.cells[*end].row) => *end = i,
            _ => runs.push((i, i)),
        }
    }
    runs.iter()
        .map(|&(a, b)| if a == b { map.cells[a].label.clone() } else { format!("{} to {}", map.cells[a].label, map.cells[b].label) })
        .collect::<Vec<_>>()
        .join(", ")
}

fn ground_unset(_ground: &GroundSpec) -> String {
    "The hex map is drawn once the table's section is set: the defender chooses it (MG-21), then print the pack again.".to_owned()
}

/// Skills every unit has under the rules, whatever the conversion gave it.
fn general_skills(system: HexSystem) -> Vec<&'static str> {
    match system {
        HexSystem::ArsBellum => vec![
            "Cohesion (all): infantry of 4 or more is -2 in forest, on level-2 elevation or in entrenchments.",
            "Formation (all): infantry of 4 or more is -1 unless every neighbouring hex holds infantry of its kind; leaders and guards never.",
            "Command (leaders): once a turn a leader may rally one adjacent disorganised unit not in contact, and then does not move.",
            "Dodge (horse): cavalry faster than the enemy infantry attacking it may step back a hex instead, unless in contact with cavalry.",
        ],
        HexSystem::ALaCharge => vec![
            "Commanders add their strength to the unit they stand with, in attack and defence, and +1 to morale around them (AC-03).",
            "Zones of control: entering one stops a move; none beyond a river or ford without a bridge; never retreat into one (AC-03).",
            "Charge: horse (not mounted missile troops) that spends its whole move towards its target over clear ground adds its charge bonus, and must advance (AC-04).",
            "Missile troops shoot at their range when no enemy is adjacent; hand to hand they fight a point weaker (AC-04).",
        ],
    }
}

fn skill_text(system: HexSystem, skill: &str) -> &'static str {
    match (system, skill) {
        (HexSystem::ArsBellum, "elite") => "-1 on all its morale tests.",
        (HexSystem::ArsBellum, "recruits") => "+1 on its morale die.",
        (HexSystem::ArsBellum, "javelins") => "unless disorganised, one shot at an adjacent hex with +2, once; the marker then goes.",
        (HexSystem::ArsBellum, "harassment") => "infantry that may always avoid a melee by a slower enemy by stepping back a hex.",
        (HexSystem::ArsBellum, "impetuosity") => "must advance into a hex left empty after a victorious combat.",
        (HexSystem::ArsBellum, "dodge") => "cavalry that may avoid an infantry attack by stepping back a hex.",
        (HexSystem::ArsBellum, "cohesion") => "-2 in forest, level-2 elevation or entrenchments.",
        (HexSystem::ArsBellum, "formation") => "-1 without its own kind on every side.",
        (HexSystem::ALaCharge, "impetuosity") => {
            "not adjacent to an enemy, when shot at or moving within 3 hexes of one, roll: 5-6 it charges the nearest enemy with all its MP."
        }
        (HexSystem::ALaCharge, "unseizable") => {
            "when attacked with a free hex beside it, roll: 5-6 it falls back up to two hexes, through enemy ZoC, friends testing morale."
        }
        (HexSystem::ALaCharge, "no-hand-to-hand-penalty") => "a missile unit that fights hand to hand at full strength.",
        (HexSystem::ALaCharge, "feigned-flight") => {
            "declared at the start of its move against an enemy within 3 hexes: a die roll may draw the enemy 2 hexes out."
        }
        _ => "as the rules say.",
    }
}

fn victory_text(system: HexSystem) -> Vec<String> {
    match system {
        HexSystem::ArsBellum => vec![
            "A side that eliminates its number of enemy counters wins a major victory; with the enemy's commander-in-chief among them, a decisive one (AB-08). Leaders count as counters."
                .to_owned(),
            "Both reaching their number in the same turn: no victory, the battle is drawn.".to_owned(),
            "At the end of the last turn without either, the side that eliminated more counters wins a minor victory; otherwise the battle is drawn. (This project's addition: the rules' own scenario names only major and decisive victories.)"
                .to_owned(),
        ],
        HexSystem::ALaCharge => vec![
            "At phase 5 of each turn each side adds up the strength of its eliminated units, each commander eliminated at his strength +4, each baggage at its strength +2; an army at or over its threshold gives the enemy a major victory; both in one turn, the one over by less wins a minor victory (AC-07). An army here has a commander for each of its commands, where the rules' scenarios have one."
                .to_owned(),
            "At the end of the last turn without either, the side with the smaller eliminated strength wins a minor victory; otherwise it is a tie.".to_owned(),
        ],
    }
}

/// The map files every player may have: the whole map on one A3 sheet with its key, and on
/// sheets of the pack's paper that join; each page's foot names the campaign, its turn, the
/// battle and the place.
pub fn map_files(tabletop: &HexTabletop, umpire: &UmpireSpec, paper: crate::Paper) -> Vec<(String, Document)> {
    let Some(map) = tabletop.map(&umpire.ground) else { return Vec::new() };
    let h = &umpire.head;
    let title = format!("Battle {} at {}: {} map", h.battle, h.place, tabletop.system.name());
    let sheets = match paper {
        crate::Paper::A4 => "A4",
        crate::Paper::Letter => "Letter",
        crate::Paper::A3 => "A3",
    };
    vec![
        (
            file_name(tabletop.system(), h.battle, h.day, "map-a3"),
            hexpage::full_size(&map, &names(h), &title, &footer(h, "full-size map on A3"), hexpage::FullSize::A3),
        ),
        (
            file_name(tabletop.system(), h.battle, h.day, "map-sheets"),
            hexpage::full_size(
                &map,
                &names(h),
                &title,
                &footer(h, &format!("full-size map on {sheets} sheets")),
                hexpage::FullSize::Tiled(paper),
            ),
        ),
    ]
}

/// A results table: the die's column, then a column for each of the odds in `heads`, a row
/// for each die roll and its results' codes.
fn results_table(flow: &mut Flow<'_>, die: &str, heads: &[String], rows: impl Iterator<Item = (String, Vec<String>)>) {
    let columns: Vec<Column<'_>> = std::iter::once(col(die, 0.5)).chain(heads.iter().map(|t| col(t, 0.6))).collect();
    let rows: Vec<Vec<String>> = rows.map(|(roll, codes)| std::iter::once(roll).chain(codes).collect()).collect();
    flow.table(&columns, &rows);
}
