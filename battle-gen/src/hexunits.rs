//! A battle's forces as counters for the two hex wargames, by the conversion table in
//! `data/tabletop/hex-units.toml` (reconstructed; its reasoning is in the file).
//!
//! The whole battle is scaled by one factor ([`HexUnits::scale`], a [`BattleScale`] counted in
//! counters): the largest side's elements, its generals' own left out, become the table's
//! `largest_side_units` counters and every other side the same share of its own, so the table
//! keeps the campaign's odds. The factor needs every side's strength, so it is worked out on
//! the umpire's side; a side's conversion ([`HexUnits::army`]) is given only its own number of
//! counters.
//!
//! Within a side every command gets at least one counter while there are enough, then the
//! counters are shared by largest remainder, first among the commands, then among each
//! command's kinds of troops. Each counter stands for an equal share of its kind's elements in
//! its command, and a kind too small for a counter of its own shares its command's fate: that
//! is what the result form reads back ([`LineAccount`]).

use std::collections::BTreeSet;
use std::str::FromStr;

use referee_campaign::core::table::{Class, ElementSpec, Grade};
use referee_data::{DataError, DataSource, SourceText};
use serde::{Deserialize, Serialize};

use crate::dbsa::BattleScale;
use crate::hexmap::HexSystem;
use crate::spec::{Rank, TroopLine};

/// Where the conversion table lives under `data/`.
pub const HEX_UNITS_FILE: &str = "tabletop/hex-units.toml";

/// Every DBM type code of the project's points table.
pub const TYPE_CODES: [&str; 17] =
    ["El", "Kn", "Cv", "LH", "Cm", "LCh", "HCh", "Exp", "Art", "Sp", "Pk", "Bd", "Ax", "Bw", "Wb", "Hd", "Ps"];

/// Ars Bellum's skills (AB-07) a counter can carry.
pub const AB_SKILLS: [&str; 8] = ["cohesion", "dodge", "elite", "formation", "harassment", "javelins", "recruits", "impetuosity"];

/// A la Charge!'s special traits (AC-08) a counter can carry.
pub const AC_TRAITS: [&str; 4] = ["unseizable", "impetuosity", "no-hand-to-hand-penalty", "feigned-flight"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    version: u32,
    #[expect(dead_code, reason = "documents the file; checked for presence only")]
    reconstructed: bool,
    reasoning: String,
    ars_bellum: RawAb,
    a_la_charge: RawAc,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAb {
    largest_side_units: u32,
    turns: u32,
    reasoning: String,
    leaders: RawAbLeaders,
    disorganised: RawShift,
    victory: RawAbVictory,
    grade: Vec<RawAbGrade>,
    unit: Vec<RawAbUnit>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAbLeaders {
    c_in_c: u32,
    sub_general: u32,
    ally_general: u32,
    mounted_mp: u32,
    foot_mp: u32,
    reasoning: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShift {
    cp: i32,
    mp: i32,
    why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAbVictory {
    regular_percent: u32,
    irregular_percent: u32,
    why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAbGrade {
    grade: String,
    cp: i32,
    mp: i32,
    skills: Vec<String>,
    why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAbUnit {
    types: Vec<String>,
    #[serde(default)]
    class: Option<String>,
    name: String,
    abbrev: String,
    arm: AbArm,
    cp: u32,
    mp: u32,
    shoots: bool,
    skills: Vec<String>,
    why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAc {
    largest_side_units: u32,
    turns: u32,
    threshold_percent: u32,
    reasoning: String,
    commanders: RawAcCommanders,
    baggage: RawAcBaggage,
    grade: Vec<RawAcGrade>,
    unit: Vec<RawAcUnit>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAcCommanders {
    c_in_c: u32,
    sub_general: u32,
    ally_general: u32,
    mp: u32,
    reasoning: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAcBaggage {
    count: u32,
    strength: u32,
    reasoning: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAcGrade {
    grade: String,
    strength: i32,
    mp: i32,
    traits: Vec<String>,
    why: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAcUnit {
    types: Vec<String>,
    #[serde(default)]
    class: Option<String>,
    name: String,
    abbrev: String,
    kind: AcKind,
    strength: u32,
    reduced: u32,
    range: u32,
    mp: u32,
    charge: u32,
    traits: Vec<String>,
    why: String,
}

/// What an Ars Bellum unit is, for the rules that tell them apart (supports, elephants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbArm {
    Infantry,
    Cavalry,
    Elephants,
    Chariots,
}

/// The six kinds of A la Charge! counter (AC-01).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AcKind {
    Infantry,
    MissileInfantry,
    Cavalry,
    MissileCavalry,
    Commander,
    Baggage,
}

impl AcKind {
    pub fn name(self) -> &'static str {
        match self {
            AcKind::Infantry => "infantry",
            AcKind::MissileInfantry => "foot with missiles",
            AcKind::Cavalry => "cavalry",
            AcKind::MissileCavalry => "mounted missile troops",
            AcKind::Commander => "commander",
            AcKind::Baggage => "baggage",
        }
    }
}

/// How a grade changes a type's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeRule {
    pub grade: Grade,
    pub value: i32,
    pub mp: i32,
    pub skills: Vec<String>,
    pub why: String,
}

/// One line of a system's table: the DBM types it fits and the counter they become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitRule {
    pub types: Vec<String>,
    pub class: Option<Class>,
    pub name: String,
    pub abbrev: String,
    /// Ars Bellum's CP, A la Charge!'s strength.
    pub value: u32,
    /// A la Charge!'s reduced strength; 0: one step only. Unused by Ars Bellum.
    pub reduced: u32,
    /// Hexes it shoots (Ars Bellum: its CP when it shoots, else 0).
    pub range: u32,
    pub mp: u32,
    /// A la Charge!'s charge bonus.
    pub charge: u32,
    pub ab_arm: Option<AbArm>,
    pub ac_kind: Option<AcKind>,
    pub skills: Vec<String>,
    pub why: String,
}

impl UnitRule {
    fn fits(&self, spec: &ElementSpec) -> bool {
        self.types.contains(&spec.code) && self.class.is_none_or(|c| c == spec.class)
    }
}

/// What each system's part of the table holds alike: the size of the largest side, the
/// scenario's length, why, and the grades and units elements become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexRules {
    pub largest_side_units: u32,
    /// The scenario's length in turns.
    pub turns: u32,
    pub reasoning: String,
    pub grades: Vec<GradeRule>,
    pub units: Vec<UnitRule>,
}

/// Ars Bellum's part of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbTable {
    pub rules: HexRules,
    /// Command value by rank: C-in-C, sub-general, ally-general.
    pub command: [u32; 3],
    pub mounted_mp: u32,
    pub foot_mp: u32,
    pub leaders_reasoning: String,
    pub disorganised: (i32, i32),
    pub disorganised_why: String,
    pub regular_percent: u32,
    pub irregular_percent: u32,
    pub victory_why: String,
}

/// A la Charge!'s part of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcTable {
    pub rules: HexRules,
    pub threshold_percent: u32,
    /// Commander strength by rank: C-in-C, sub-general, ally-general.
    pub commander: [u32; 3],
    pub commander_mp: u32,
    pub commanders_reasoning: String,
    pub baggage: u32,
    pub baggage_strength: u32,
    pub baggage_reasoning: String,
}

/// The conversion table for both hex systems.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexUnits {
    /// Which file it came from, for the pack's notes.
    pub file: String,
    /// The text it was read from, kept with a battle whose pack it counted.
    pub text: String,
    pub reasoning: String,
    pub ars_bellum: AbTable,
    pub a_la_charge: AcTable,
}

fn grade_of(s: &str) -> Option<Grade> {
    Some(match s {
        "S" => Grade::S,
        "O" => Grade::O,
        "I" => Grade::I,
        "F" => Grade::F,
        "X" => Grade::X,
        _ => return None,
    })
}

fn class_of(s: &str) -> Option<Class> {
    Some(match s {
        "Reg" => Class::Reg,
        "Irr" => Class::Irr,
        _ => return None,
    })
}

/// The line of the `n`th (from 0) line of `text` that begins with `header` (a table's
/// header or a key; comments that name it do not count), 0 if there is none.
pub(crate) fn entry_line(text: &str, header: &str, n: usize) -> usize {
    text.lines().enumerate().filter(|(_, line)| line.trim_start().starts_with(header)).nth(n).map_or(0, |(i, _)| i + 1)
}

impl HexUnits {
    /// The built-in table, which the test suite checks and so always loads.
    pub fn embedded() -> HexUnits {
        HexUnits::parse(&DataSource::Embedded.read(HEX_UNITS_FILE).expect("the table is built in"))
            .expect("the built-in hex table is valid")
    }

    /// The table of `source`: a referee's data folder with a `tabletop` folder has its own
    /// copy, which must read whole; a folder without one (made before the table could be
    /// changed) uses the built-in copy.
    pub fn load(source: &DataSource) -> Result<HexUnits, DataError> {
        match source {
            DataSource::Folder(_) if source.has(referee_data::TABLETOP) => HexUnits::parse(&source.read(HEX_UNITS_FILE)?),
            _ => Ok(HexUnits::embedded()),
        }
    }

    /// The table a battle's pack was counted by, from the tables kept with the battle: the
    /// result is read back by the same counters whatever the data folder holds now. A battle
    /// whose pack kept no table (written before tables were kept) reads back by the built-in
    /// one, as it always did.
    pub fn kept(tables: &[referee_campaign::store::KeptTable], battle: u32) -> Result<HexUnits, DataError> {
        match tables.iter().find(|t| t.path == HEX_UNITS_FILE) {
            Some(t) => HexUnits::parse(&t.source(battle)),
            None => Ok(HexUnits::embedded()),
        }
    }

    pub fn parse(source: &SourceText) -> Result<HexUnits, DataError> {
        let raw: RawFile = referee_data::parse_toml(source)?;
        let (file, text) = (&source.file, &source.text);
        let err = |line: usize, msg: String| DataError::single(file, line, msg);
        if raw.version != 1 {
            return Err(err(entry_line(text, "version", 0), format!("version {} is not one this program reads (1)", raw.version)));
        }
        let ab = raw.ars_bellum;
        let ac = raw.a_la_charge;
        if ab.largest_side_units < 2 || ac.largest_side_units < 2 {
            return Err(err(entry_line(text, "largest_side_units", 0), "the largest side needs at least 2 counters".to_owned()));
        }
        if !(1..=30).contains(&ab.turns) || !(1..=30).contains(&ac.turns) {
            return Err(err(entry_line(text, "turns", 0), "a scenario lasts 1 to 30 turns".to_owned()));
        }
        if !(1..=100).contains(&ac.threshold_percent) {
            return Err(err(
                entry_line(text, "threshold_percent", 0),
                format!("threshold_percent must be 1 to 100, not {}", ac.threshold_percent),
            ));
        }
        for p in [ab.victory.regular_percent, ab.victory.irregular_percent] {
            if p >= 100 {
                return Err(err(
                    entry_line(text, "[ars_bellum.victory]", 0),
                    format!("a victory share must be under 100 per cent, not {p}"),
                ));
            }
        }
        let values = [
            ab.leaders.c_in_c,
            ab.leaders.sub_general,
            ab.leaders.ally_general,
            ac.commanders.c_in_c,
            ac.commanders.sub_general,
            ac.commanders.ally_general,
        ];
        if values.iter().any(|v| !(1..=4).contains(v)) {
            return Err(err(entry_line(text, "c_in_c", 0), "leaders' and commanders' values must be 1 to 4".to_owned()));
        }
        let grades =
            |list: Vec<(String, i32, i32, Vec<String>, String)>, header: &str, known: &[&str]| -> Result<Vec<GradeRule>, DataError> {
                let mut out = Vec::new();
                for (i, (g, value, mp, skills, why)) in list.into_iter().enumerate() {
                    let line = entry_line(text, header, i);
                    let grade = grade_of(&g).ok_or_else(|| err(line, format!("`{g}` is not a grade (S, O, I, F or X)")))?;
                    if out.iter().any(|r: &GradeRule| r.grade == grade) {
                        return Err(err(line, format!("grade {g} is given twice")));
                    }
                    all_known(&skills, known).map_err(|m| err(line, m))?;
                    out.push(GradeRule { grade, value, mp, skills, why });
                }
                if out.len() != 5 {
                    return Err(err(entry_line(text, header, 0), "every grade (S, O, I, F and X) needs its line".to_owned()));
                }
                Ok(out)
            };
        let ab_grades =
            grades(ab.grade.into_iter().map(|g| (g.grade, g.cp, g.mp, g.skills, g.why)).collect(), "[[ars_bellum.grade]]", &AB_SKILLS)?;
        let ac_grades = grades(
            ac.grade.into_iter().map(|g| (g.grade, g.strength, g.mp, g.traits, g.why)).collect(),
            "[[a_la_charge.grade]]",
            &AC_TRAITS,
        )?;
        // What a unit line of either rules says the same way: its class and its types.
        let class_and_types = |line: usize, class: Option<&str>, types: &[String]| -> Result<Option<Class>, DataError> {
            let class = class.map(|c| class_of(c).ok_or_else(|| err(line, format!("`{c}` is not a class (Reg or Irr)")))).transpose()?;
            check_types(types).map_err(|m| err(line, m))?;
            Ok(class)
        };
        let mut ab_units = Vec::new();
        for (i, u) in ab.unit.into_iter().enumerate() {
            let line = entry_line(text, "[[ars_bellum.unit]]", i);
            let class = class_and_types(line, u.class.as_deref(), &u.types)?;
            if !(1..=4).contains(&u.cp) || !(1..=6).contains(&u.mp) {
                return Err(err(line, format!("{}: combat points must be 1 to 4 and movement 1 to 6", u.name)));
            }
            all_known(&u.skills, &AB_SKILLS).map_err(|m| err(line, format!("{}: {m}", u.name)))?;
            ab_units.push(UnitRule {
                types: u.types,
                class,
                name: u.name,
                abbrev: u.abbrev,
                value: u.cp,
                reduced: 0,
                range: if u.shoots { u.cp } else { 0 },
                mp: u.mp,
                charge: 0,
                ab_arm: Some(u.arm),
                ac_kind: None,
                skills: u.skills,
                why: u.why,
            });
        }
        let mut ac_units = Vec::new();
        for (i, u) in ac.unit.into_iter().enumerate() {
            let line = entry_line(text, "[[a_la_charge.unit]]", i);
            let class = class_and_types(line, u.class.as_deref(), &u.types)?;
            if !(1..=4).contains(&u.strength) || u.reduced >= u.strength || !(1..=6).contains(&u.mp) || u.range > 6 || u.charge > 2 {
                return Err(err(
                    line,
                    format!(
                        "{}: strength 1 to 4, reduced below it (0 for one step), movement 1 to 6, range up to 6, charge up to 2",
                        u.name
                    ),
                ));
            }
            if matches!(u.kind, AcKind::Commander | AcKind::Baggage) {
                return Err(err(
                    line,
                    format!("{}: commanders and baggage come from the generals and the camp, not from elements", u.name),
                ));
            }
            let shoots = matches!(u.kind, AcKind::MissileInfantry | AcKind::MissileCavalry);
            if shoots != (u.range > 0) {
                return Err(err(line, format!("{}: missile troops, and only they, have a range", u.name)));
            }
            all_known(&u.traits, &AC_TRAITS).map_err(|m| err(line, format!("{}: {m}", u.name)))?;
            ac_units.push(UnitRule {
                types: u.types,
                class,
                name: u.name,
                abbrev: u.abbrev,
                value: u.strength,
                reduced: u.reduced,
                range: u.range,
                mp: u.mp,
                charge: u.charge,
                ab_arm: None,
                ac_kind: Some(u.kind),
                skills: u.traits,
                why: u.why,
            });
        }
        for (units, header) in [(&ab_units, "[ars_bellum]"), (&ac_units, "[a_la_charge]")] {
            for code in TYPE_CODES {
                if !units.iter().any(|u| u.class.is_none() && u.types.iter().any(|t| t == code)) {
                    return Err(err(entry_line(text, header, 0), format!("no entry without a class takes {code}: every type needs one")));
                }
            }
        }
        Ok(HexUnits {
            file: file.clone(),
            text: text.clone(),
            reasoning: raw.reasoning,
            ars_bellum: AbTable {
                rules: HexRules {
                    largest_side_units: ab.largest_side_units,
                    turns: ab.turns,
                    reasoning: ab.reasoning,
                    grades: ab_grades,
                    units: ab_units,
                },
                command: [ab.leaders.c_in_c, ab.leaders.sub_general, ab.leaders.ally_general],
                mounted_mp: ab.leaders.mounted_mp,
                foot_mp: ab.leaders.foot_mp,
                leaders_reasoning: ab.leaders.reasoning,
                disorganised: (ab.disorganised.cp, ab.disorganised.mp),
                disorganised_why: ab.disorganised.why,
                regular_percent: ab.victory.regular_percent,
                irregular_percent: ab.victory.irregular_percent,
                victory_why: ab.victory.why,
            },
            a_la_charge: AcTable {
                rules: HexRules {
                    largest_side_units: ac.largest_side_units,
                    turns: ac.turns,
                    reasoning: ac.reasoning,
                    grades: ac_grades,
                    units: ac_units,
                },
                threshold_percent: ac.threshold_percent,
                commander: [ac.commanders.c_in_c, ac.commanders.sub_general, ac.commanders.ally_general],
                commander_mp: ac.commanders.mp,
                commanders_reasoning: ac.commanders.reasoning,
                baggage: ac.baggage.count,
                baggage_strength: ac.baggage.strength,
                baggage_reasoning: ac.baggage.reasoning,
            },
        })
    }

    /// What `system`'s part of the table holds as the other's does.
    pub fn rules(&self, system: HexSystem) -> &HexRules {
        match system {
            HexSystem::ArsBellum => &self.ars_bellum.rules,
            HexSystem::ALaCharge => &self.a_la_charge.rules,
        }
    }

    /// The entry for an element, and its grade's line.
    pub fn rule(&self, system: HexSystem, spec: &ElementSpec) -> Option<(&UnitRule, &GradeRule)> {
        let rules = self.rules(system);
        let unit = rules.units.iter().find(|u| u.fits(spec))?;
        let grade = rules.grades.iter().find(|g| g.grade == spec.grade)?;
        Some((unit, grade))
    }

    /// The battle's one factor, from every side's lines: only the umpire's side can work it out.
    pub fn scale(&self, system: HexSystem, sides: &[&[TroopLine]]) -> BattleScale {
        let strengths: Vec<u32> = sides.iter().map(|lines| elements(lines)).collect();
        BattleScale::new(self.rules(system).largest_side_units, &strengths)
    }

    /// A side's counters, `units` of them besides its leaders and baggage.
    pub fn army(&self, system: HexSystem, side: &str, lines: &[TroopLine], units: u32) -> HexArmy {
        let per_line: Vec<u32> = lines.iter().map(line_elements).collect();
        let shares = share_min_one(&per_line, units);
        let mut counters = Vec::new();
        let mut accounts = Vec::new();
        let mut warnings = Vec::new();
        for (line, &k) in lines.iter().zip(&shares) {
            let mut numbers = Vec::new();
            if line.general {
                let c = self.leader(system, line, next(&counters));
                numbers.push(c.number);
                counters.push(c);
            }
            let groups: Vec<u32> = line.groups.iter().map(|g| g.count).collect();
            let per_group = share(&groups, k);
            let mut by_group = Vec::new();
            for (g, &n) in line.groups.iter().zip(&per_group) {
                let spec = ElementSpec::from_str(&g.kind).ok();
                let found = match spec.as_ref().and_then(|s| self.rule(system, s)) {
                    Some(found) => Some(found),
                    None => {
                        warnings
                            .push(format!("{}: `{}` is no DBM element the table knows; fielded as ordinary spearmen", line.name, g.kind));
                        let fallback = ElementSpec::from_str("Reg Sp(O)").ok();
                        fallback.as_ref().and_then(|s| self.rule(system, s))
                    }
                };
                let mut mine = Vec::new();
                if let Some((rule, grade)) = found {
                    for _ in 0..n {
                        let c = unit_counter(system, self, line, &g.kind, rule, grade, spec.as_ref(), next(&counters));
                        numbers.push(c.number);
                        mine.push(c.number);
                        counters.push(c);
                    }
                }
                by_group.push(mine);
            }
            accounts.push(LineAccount {
                line: line.name.clone(),
                elements: line_elements(line),
                units: k,
                counters: numbers,
                groups: line.groups.clone(),
                by_group,
            });
        }
        if system == HexSystem::ALaCharge {
            let t = &self.a_la_charge;
            for _ in 0..t.baggage {
                let number = next(&counters);
                counters.push(Counter {
                    number,
                    line: String::new(),
                    role: CounterRole::Baggage,
                    label: "Bag".to_owned(),
                    name: "Baggage".to_owned(),
                    source: "the army's camp".to_owned(),
                    value: t.baggage_strength,
                    reduced: None,
                    range: 0,
                    mp: 1,
                    back_mp: 1,
                    charge: 0,
                    ab_arm: None,
                    ac_kind: Some(AcKind::Baggage),
                    skills: Vec::new(),
                    irregular: false,
                    why: t.baggage_reasoning.clone(),
                });
            }
        }
        HexArmy { system, side: side.to_owned(), counters, accounts, warnings }
    }

    fn leader(&self, system: HexSystem, line: &TroopLine, number: u32) -> Counter {
        let rank = match line.rank {
            Rank::CInC => 0,
            Rank::SubGeneral => 1,
            Rank::AllyGeneral => 2,
        };
        let mounted = ElementSpec::from_str(&line.leader).is_ok_and(|s| MOUNTED.contains(&s.code.as_str()));
        let (value, mp, reduced, back_mp, why) = match system {
            HexSystem::ArsBellum => {
                let t = &self.ars_bellum;
                let value = t.command[rank];
                let mp = if mounted { t.mounted_mp } else { t.foot_mp };
                (value, mp, Some(shifted(value, t.disorganised.0)), shifted_mp(mp, t.disorganised.1), t.leaders_reasoning.clone())
            }
            HexSystem::ALaCharge => {
                let t = &self.a_la_charge;
                (t.commander[rank], t.commander_mp, None, t.commander_mp, t.commanders_reasoning.clone())
            }
        };
        Counter {
            number,
            line: line.name.clone(),
            role: CounterRole::Leader { rank: line.rank },
            label: line.name.clone(),
            name: format!("{} ({})", line.name, line.rank.name()),
            source: line.leader.clone(),
            value,
            reduced,
            range: 0,
            mp,
            back_mp,
            charge: 0,
            ab_arm: None,
            ac_kind: (system == HexSystem::ALaCharge).then_some(AcKind::Commander),
            skills: Vec::new(),
            irregular: false,
            why,
        }
    }

    /// Ars Bellum (AB-08): the counters of `army` a side must eliminate for a major victory.
    pub fn ab_to_eliminate(&self, army: &HexArmy) -> u32 {
        let percent = if army.mostly_irregular() { self.ars_bellum.irregular_percent } else { self.ars_bellum.regular_percent };
        crate::ars_bellum::units_to_eliminate(u32::try_from(army.counters.len()).unwrap_or(u32::MAX), percent)
    }

    /// A la Charge! (AC-07): `army`'s morale threshold, and the whole strength it is a share of.
    pub fn ac_threshold(&self, army: &HexArmy) -> (u32, u32) {
        let whole: u32 = army
            .counters
            .iter()
            .map(|c| match c.role {
                CounterRole::Unit => c.value,
                CounterRole::Leader { .. } => c.value + 4,
                CounterRole::Baggage => c.value + 2,
            })
            .sum();
        (crate::a_la_charge::morale_threshold(whole, self.a_la_charge.threshold_percent), whole)
    }
}

const MOUNTED: [&str; 6] = ["El", "Kn", "Cv", "LH", "Cm", "LCh"];

/// Why not, if `named` holds a skill or trait the rules do not know, listing those they do.
fn all_known(named: &[String], known: &[&str]) -> Result<(), String> {
    match named.iter().find(|s| !known.contains(&s.as_str())) {
        Some(bad) => Err(format!("`{bad}` is not one of {}", known.join(", "))),
        None => Ok(()),
    }
}

fn check_types(types: &[String]) -> Result<(), String> {
    if types.is_empty() {
        return Err("an entry needs at least one type".to_owned());
    }
    match types.iter().find(|t| !TYPE_CODES.contains(&t.as_str())) {
        Some(t) => Err(format!("`{t}` is not a DBM type code ({})", TYPE_CODES.join(" "))),
        None => Ok(()),
    }
}

fn next(counters: &[Counter]) -> u32 {
    u32::try_from(counters.len()).unwrap_or(u32::MAX).saturating_add(1)
}

/// `value` moved by `by`, kept within 1 and `most`.
fn moved(value: u32, by: i32, most: u32) -> u32 {
    let v = i64::from(value) + i64::from(by);
    u32::try_from(v.clamp(1, i64::from(most))).unwrap_or(1)
}

/// A combat value or strength moved by `by`, kept within 1 to 4.
fn shifted(value: u32, by: i32) -> u32 {
    moved(value, by, 4)
}

/// Movement points moved by `by`, kept within 1 to 8.
fn shifted_mp(value: u32, by: i32) -> u32 {
    moved(value, by, 8)
}

#[expect(clippy::too_many_arguments, reason = "one counter, from everything that decides it")]
fn unit_counter(
    system: HexSystem,
    table: &HexUnits,
    line: &TroopLine,
    kind: &str,
    rule: &UnitRule,
    grade: &GradeRule,
    spec: Option<&ElementSpec>,
    number: u32,
) -> Counter {
    let value = shifted(rule.value, grade.value);
    let mp = shifted_mp(rule.mp, grade.mp);
    let mut skills: Vec<String> = rule.skills.clone();
    for s in &grade.skills {
        if !skills.contains(s) {
            skills.push(s.clone());
        }
    }
    let (reduced, range, back_mp) = match system {
        HexSystem::ArsBellum => {
            let (cp, moves) = table.ars_bellum.disorganised;
            (Some(shifted(value, cp)), if rule.range > 0 { value } else { 0 }, shifted_mp(mp, moves))
        }
        HexSystem::ALaCharge => {
            let reduced = (rule.reduced > 0).then(|| shifted(rule.reduced, grade.value).min(value.saturating_sub(1)).max(1));
            // A one-point unit has nothing to lose a step from.
            (reduced.filter(|_| value > 1), rule.range, mp)
        }
    };
    Counter {
        number,
        line: line.name.clone(),
        role: CounterRole::Unit,
        label: rule.abbrev.clone(),
        name: rule.name.clone(),
        source: kind.to_owned(),
        value,
        reduced,
        range,
        mp,
        back_mp,
        charge: rule.charge,
        ab_arm: rule.ab_arm,
        ac_kind: rule.ac_kind,
        skills,
        irregular: spec.is_some_and(|s| s.class == Class::Irr),
        why: format!("{} {}", rule.why, grade.why),
    }
}

/// Elements of a line besides its general's own (he is a leader counter).
pub fn line_elements(line: &TroopLine) -> u32 {
    line.groups.iter().map(|g| g.count).sum()
}

/// Elements of a side besides its generals' own.
pub fn elements(lines: &[TroopLine]) -> u32 {
    lines.iter().map(line_elements).sum()
}

/// `seats` shared over `weights` by largest remainder (ties to the earlier).
pub fn share(weights: &[u32], seats: u32) -> Vec<u32> {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return vec![0; weights.len()];
    }
    let seats64 = u64::from(seats);
    let mut out: Vec<u32> = weights.iter().map(|&w| u32::try_from(u64::from(w) * seats64 / total).unwrap_or(0)).collect();
    let mut rest: Vec<(u64, usize)> = weights.iter().enumerate().map(|(i, &w)| ((u64::from(w) * seats64) % total, i)).collect();
    rest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let given: u32 = out.iter().sum();
    for &(_, i) in rest.iter().take(usize::try_from(seats.saturating_sub(given)).unwrap_or(0)) {
        out[i] += 1;
    }
    out
}

/// As [`share`], but every weight above nought gets at least one seat while there are enough.
pub fn share_min_one(weights: &[u32], seats: u32) -> Vec<u32> {
    let live = u32::try_from(weights.iter().filter(|&&w| w > 0).count()).unwrap_or(u32::MAX);
    if seats < live || live == 0 {
        return share(weights, seats);
    }
    let rest = share(weights, seats - live);
    weights.iter().zip(rest).map(|(&w, r)| if w > 0 { r + 1 } else { 0 }).collect()
}

/// What a counter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterRole {
    /// A leader (Ars Bellum) or commander (A la Charge!): the general of a command.
    Leader {
        rank: Rank,
    },
    Unit,
    Baggage,
}

/// One counter to print and cut out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counter {
    /// Its number within its side, from 1.
    pub number: u32,
    /// The command it belongs to (empty for the baggage).
    pub line: String,
    pub role: CounterRole,
    /// What is printed on it: the type's short name, or the general's name.
    pub label: String,
    pub name: String,
    /// The campaign's troops it stands for, e.g. `Reg Sp(O)`; a leader's own element.
    pub source: String,
    /// Ars Bellum: CP (a leader's command value); A la Charge!: strength.
    pub value: u32,
    /// The back: Ars Bellum's disorganised value, A la Charge!'s reduced strength; `None`: one
    /// side (the counter is eliminated at its first loss).
    pub reduced: Option<u32>,
    /// Hexes it shoots; 0 if it does not.
    pub range: u32,
    pub mp: u32,
    /// Its movement on the back (Ars Bellum's disorganised side; A la Charge!'s reduced side
    /// moves as the front).
    pub back_mp: u32,
    /// A la Charge!'s charge bonus.
    pub charge: u32,
    pub ab_arm: Option<AbArm>,
    pub ac_kind: Option<AcKind>,
    pub skills: Vec<String>,
    /// Raised from irregular troops.
    pub irregular: bool,
    /// Why the table makes it so.
    pub why: String,
}

impl Counter {
    /// Steps it has to lose: two with a back in A la Charge!; one otherwise (in Ars Bellum a
    /// counter is lost when eliminated, whatever its back).
    pub fn steps(&self, system: HexSystem) -> u8 {
        match (system, self.reduced) {
            (HexSystem::ALaCharge, Some(_)) => 2,
            _ => 1,
        }
    }

    /// What its front says, as the rules' scenarios write a counter: `SPEAR (4-3)`,
    /// `Cavalry Strength 3`.
    pub fn describe(&self, system: HexSystem) -> String {
        match (system, self.role) {
            (HexSystem::ArsBellum, CounterRole::Baggage) | (HexSystem::ALaCharge, CounterRole::Baggage) => {
                format!("{} (strength {} in defence)", self.label, self.value)
            }
            (HexSystem::ArsBellum, _) => {
                let star = if self.range > 0 { "*" } else { "" };
                format!("{} ({}{star}-{})", self.label, self.value, self.mp)
            }
            (HexSystem::ALaCharge, _) => {
                let range = if self.range > 0 { format!(", range {}", self.range) } else { String::new() };
                format!("{} Strength {}{range}, {} MP", self.label, self.value, self.mp)
            }
        }
    }
}

/// How a command's elements went onto the table: its counters stand for them in equal shares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineAccount {
    pub line: String,
    /// Its elements besides the general's own.
    pub elements: u32,
    /// Unit counters it got.
    pub units: u32,
    /// Its counters' numbers, the leader's first.
    pub counters: Vec<u32>,
    pub groups: Vec<crate::spec::TroopGroup>,
    /// The unit counters of each group, in the order of `groups`: a group's counters stand for
    /// its elements in equal shares; a group too small for a counter of its own has none, and
    /// shares its command's fate.
    pub by_group: Vec<Vec<u32>>,
}

/// A side's counters in one hex system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HexArmy {
    pub system: HexSystem,
    pub side: String,
    pub counters: Vec<Counter>,
    pub accounts: Vec<LineAccount>,
    /// Elements the table did not know, fielded as a stand-in.
    pub warnings: Vec<String>,
}

impl HexArmy {
    /// Unit counters (not leaders or baggage).
    pub fn units(&self) -> u32 {
        u32::try_from(self.counters.iter().filter(|c| c.role == CounterRole::Unit).count()).unwrap_or(u32::MAX)
    }

    /// Most of its unit counters were raised from irregulars.
    pub fn mostly_irregular(&self) -> bool {
        let units: Vec<&Counter> = self.counters.iter().filter(|c| c.role == CounterRole::Unit).collect();
        units.iter().filter(|c| c.irregular).count() * 2 > units.len()
    }

    /// Ars Bellum's Fury (AB-02): an army most of whose units are impetuous, as the rulebook's
    /// Gauls at Arretium.
    pub fn has_fury(&self) -> bool {
        let units: Vec<&Counter> = self.counters.iter().filter(|c| c.role == CounterRole::Unit).collect();
        units.iter().filter(|c| c.skills.iter().any(|s| s == "impetuosity")).count() * 2 > units.len()
    }

    /// The skills or traits any of its counters carries, sorted.
    pub fn skills(&self) -> BTreeSet<String> {
        self.counters.iter().flat_map(|c| c.skills.iter().cloned()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::TroopGroup;

    fn line(name: &str, rank: Rank, leader: &str, groups: &[(u32, &str)]) -> TroopLine {
        let groups: Vec<TroopGroup> = groups.iter().map(|&(count, kind)| TroopGroup { count, kind: kind.to_owned() }).collect();
        let count = groups.iter().map(|g| g.count).sum::<u32>() + 1;
        TroopLine {
            name: name.to_owned(),
            rank,
            general: true,
            leader: leader.to_owned(),
            groups,
            count,
            points: 0,
            ally_of: None,
            prices: None,
        }
    }

    #[test]
    fn the_built_in_table_loads_and_knows_every_element() {
        let t = HexUnits::embedded();
        for system in HexSystem::ALL {
            for code in TYPE_CODES {
                for class in ["Reg", "Irr"] {
                    for grade in ["S", "O", "I", "F", "X"] {
                        let spec = ElementSpec::from_str(&format!("{class} {code}({grade})")).unwrap();
                        assert!(t.rule(system, &spec).is_some(), "{system:?}: {spec}");
                    }
                }
            }
        }
    }

    /// AB-01, AC-01: a unit line of either rules with a class, a skill or a trait the rules do
    /// not know is refused at its own line, naming the unit and what the rules do know; a
    /// grade's skills likewise.
    #[test]
    fn ab_01_ac_01_unknown_classes_skills_and_traits_are_refused_at_their_line() {
        let built_in = DataSource::Embedded.read(HEX_UNITS_FILE).unwrap();
        // Each change, the text it leaves on the line it changes, and what the refusal says.
        let cases = [
            (
                "class = \"Irr\"\nname = \"Knights\"\nabbrev = \"KNIG\"",
                "class = \"Elite\"\nname = \"Knights\"\nabbrev = \"KNIG\"",
                "`Elite` is not a class (Reg or Irr)",
            ),
            (
                "skills = [\"javelins\"]\nwhy = \"Legionaries",
                "skills = [\"flying\"]\nwhy = \"Legionaries",
                "Blades: `flying` is not one of",
            ),
            (
                "traits = [\"impetuosity\"]\nwhy = \"Barbarian foot",
                "traits = [\"flying\"]\nwhy = \"Barbarian foot",
                "Warband: `flying` is not one of",
            ),
            (
                "skills = [\"recruits\"]\nwhy = \"Inferior",
                "skills = [\"flying\"]\nwhy = \"Inferior",
                "`flying` is not one of cohesion, dodge",
            ),
        ];
        for (from, to, says) in cases {
            assert_eq!(built_in.text.matches(from).count(), 1, "{from:?} is in the table once");
            let text = built_in.text.replacen(from, to, 1);
            // The refusal names the line of the unit's header: the last one before the change.
            let changed = text[..text.find(to).unwrap()].lines().count();
            let header = text.lines().take(changed).enumerate().filter(|(_, l)| l.starts_with("[[")).last().map(|(i, _)| i + 1).unwrap();
            let Err(e) = HexUnits::parse(&SourceText { file: built_in.file.clone(), text }) else { panic!("{to:?} was taken") };
            let e = e.to_string();
            assert!(e.contains(says), "{e}");
            assert!(e.contains(&format!("{}:{header}", built_in.file)), "{e} names line {header}");
        }
    }

    #[test]
    fn largest_remainder_shares_add_up() {
        assert_eq!(share(&[10, 5, 5], 4), vec![2, 1, 1]);
        assert_eq!(share(&[1, 1, 1], 2), vec![1, 1, 0]);
        assert_eq!(share(&[0, 0], 3), vec![0, 0]);
        assert_eq!(share_min_one(&[30, 1, 1], 5), vec![3, 1, 1]);
        assert_eq!(share_min_one(&[30, 1, 1], 2), share(&[30, 1, 1], 2));
        for seats in 0..30 {
            assert_eq!(share(&[7, 3, 11, 0, 2], seats).iter().sum::<u32>(), seats);
        }
    }

    /// AB-01, AC-01: a command becomes a leader (or commander) and units of the system's
    /// values; the grade moves them; an A la Charge! army has its baggage.
    #[test]
    fn ab_01_ac_01_a_command_becomes_a_leader_and_its_units() {
        let t = HexUnits::embedded();
        let lines = vec![line("Dionysius", Rank::CInC, "Reg Cv(O)", &[(8, "Reg Sp(O)"), (4, "Irr Ps(S)"), (4, "Reg Cv(O)")])];
        let ab = t.army(HexSystem::ArsBellum, "Syracusans", &lines, 8);
        assert_eq!(ab.units(), 8);
        let leader = &ab.counters[0];
        assert_eq!(leader.role, CounterRole::Leader { rank: Rank::CInC });
        assert_eq!((leader.value, leader.mp), (4, 4), "a mounted C-in-C commands 4 and moves 4");
        let spear = ab.counters.iter().find(|c| c.label == "SPEAR").unwrap();
        assert_eq!(spear.describe(HexSystem::ArsBellum), "SPEAR (4-3)");
        assert_eq!(spear.reduced, Some(3), "disorganised, a point weaker");
        let psiloi = ab.counters.iter().find(|c| c.label == "SKIM").unwrap();
        assert_eq!(psiloi.describe(HexSystem::ArsBellum), "SKIM (2*-3)");
        assert!(psiloi.skills.contains(&"elite".to_owned()), "{:?}", psiloi.skills);
        // 8 : 4 : 4 elements → 4 : 2 : 2 counters.
        let count = |l: &str| ab.counters.iter().filter(|c| c.label == l).count();
        assert_eq!((count("SPEAR"), count("SKIM"), count("CAVA")), (4, 2, 2));

        let ac = t.army(HexSystem::ALaCharge, "Syracusans", &lines, 8);
        assert_eq!(ac.counters[0].ac_kind, Some(AcKind::Commander));
        assert_eq!(ac.counters[0].value, 2);
        let bag: Vec<&Counter> = ac.counters.iter().filter(|c| c.role == CounterRole::Baggage).collect();
        assert_eq!(bag.len(), 1);
        let ps = ac.counters.iter().find(|c| c.label == "Ps").unwrap();
        assert_eq!((ps.value, ps.reduced, ps.range), (2, None, 2), "superior psiloi are strength 2, one step");
        let cv = ac.counters.iter().find(|c| c.label == "Cv").unwrap();
        assert_eq!((cv.value, cv.reduced, cv.charge, cv.mp), (3, Some(2), 1, 4));
    }

    /// AB-07, AB-02: the skills come with the troops (javelins with blades, harassment with
    /// psiloi, impetuosity with warbands, recruits with inferior grades) and an army mostly of
    /// impetuous units has the Fury, as the rulebook's Gauls; AB-08: its breaking point is the
    /// Arretium share for irregulars.
    #[test]
    fn ab_07_skills_come_with_the_troops_and_fury_with_an_impetuous_army() {
        let t = HexUnits::embedded();
        let gauls = vec![line("Britomaris", Rank::CInC, "Irr Cv(O)", &[(12, "Irr Wb(O)"), (3, "Irr Ps(I)"), (5, "Irr Cv(S)")])];
        let army = t.army(HexSystem::ArsBellum, "Gauls", &gauls, 20);
        assert!(army.has_fury() && army.mostly_irregular());
        let skill = |label: &str| army.counters.iter().find(|c| c.label == label).map(|c| c.skills.clone()).unwrap();
        assert!(skill("WARB").contains(&"impetuosity".to_owned()));
        assert!(skill("SKIM").contains(&"harassment".to_owned()) && skill("SKIM").contains(&"recruits".to_owned()));
        // 21 counters (20 units and the chief): 8 eliminated break it, as at Arretium.
        assert_eq!(army.counters.len(), 21);
        assert_eq!(t.ab_to_eliminate(&army), 8);
        let romans = vec![line("Metellus", Rank::CInC, "Reg Cv(O)", &[(6, "Reg Bd(O)"), (2, "Reg Ps(O)"), (4, "Reg Cv(O)")])];
        let army = t.army(HexSystem::ArsBellum, "Romans", &romans, 12);
        assert!(!army.has_fury());
        assert!(army.counters.iter().filter(|c| c.label == "BLADE").all(|c| c.skills.contains(&"javelins".to_owned())));
        assert_eq!(t.ab_to_eliminate(&army), 7, "more than half of 13");
    }

    /// AC-08, AC-07: mounted archers are unseizable and barbarian knights impetuous; an army's
    /// threshold is 40 % of its whole strength, its commander at +4 and its baggage at +2.
    #[test]
    fn ac_08_traits_come_with_the_troops_and_ac_07_the_threshold_with_the_army() {
        let t = HexUnits::embedded();
        let lines = vec![line("Tzelgu", Rank::CInC, "Irr LH(O)", &[(6, "Irr LH(O)"), (2, "Irr Kn(O)")])];
        let army = t.army(HexSystem::ALaCharge, "Pechenegs", &lines, 8);
        let lh = army.counters.iter().find(|c| c.label == "LH").unwrap();
        assert!(lh.skills.contains(&"unseizable".to_owned()) && lh.range == 2);
        let kn = army.counters.iter().find(|c| c.label == "Kn").unwrap();
        assert!(kn.skills.contains(&"impetuosity".to_owned()) && kn.charge == 2);
        // 6 LH at 2 and 2 Kn at 4 = 20; the commander 2 + 4; the baggage 1 + 2: 29, 40 % is 11.6.
        assert_eq!(t.ac_threshold(&army), (12, 29));
    }
}
