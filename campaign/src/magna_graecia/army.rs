//! Armies (MG-03, MG-05): DBM-style elements with class and grade, commands under a general,
//! and the points table they are bought with.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use referee_data::raw::{RawArmy, RawElementTable};
use referee_data::{DataError, Report, SourceText};
use serde::{Deserialize, Serialize};

pub use crate::core::table::{Class, ElementError, ElementSpec, Grade, MAX_GROUP};
use crate::ids::SideId;

/// How an element moves on the campaign map (MG-11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mobility {
    Mounted,
    Foot,
    Psiloi,
    Elephant,
    Expendable,
    Artillery,
}

/// A number of identical elements: `4 Reg Sp(O)`, written that way in files and JSON too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ElementGroup {
    pub count: u32,
    pub spec: ElementSpec,
}

impl fmt::Display for ElementGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.count, self.spec)
    }
}

impl FromStr for ElementGroup {
    type Err = ElementError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (count, spec) = s.trim().split_once(' ').ok_or_else(|| ElementError::NotAGroup(s.to_owned()))?;
        let count: u32 = match count.parse() {
            Ok(n) => n,
            // Digits too many for any number the program keeps: a group far too large.
            Err(_) if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(ElementError::GroupTooLarge(s.to_owned()));
            }
            Err(_) => return Err(ElementError::NoCount(s.to_owned())),
        };
        if count == 0 {
            return Err(ElementError::EmptyGroup(s.to_owned()));
        }
        if count > MAX_GROUP {
            return Err(ElementError::GroupTooLarge(s.to_owned()));
        }
        Ok(ElementGroup { count, spec: spec.parse()? })
    }
}

impl TryFrom<String> for ElementGroup {
    type Error = ElementError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<ElementGroup> for String {
    fn from(group: ElementGroup) -> String {
        group.to_string()
    }
}

/// Takes `groups` out of `from`, each from one group of the same kind that holds enough, and
/// drops groups left empty. On a group `from` cannot supply, returns it (and leaves `from`
/// partly taken).
pub fn take_groups<'a>(from: &mut Vec<ElementGroup>, groups: &'a [ElementGroup]) -> Result<(), &'a ElementGroup> {
    for g in groups {
        match from.iter_mut().find(|h| h.spec == g.spec && h.count >= g.count) {
            Some(h) => h.count -= g.count,
            None => return Err(g),
        }
    }
    from.retain(|h| h.count > 0);
    Ok(())
}

/// A general's rank: the table's, the same in every campaign.
pub use crate::core::table::Rank;

/// One command of an army: one counter on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRoster {
    pub name: String,
    pub rank: Rank,
    /// The general's own element.
    pub general: ElementSpec,
    pub elements: Vec<ElementGroup>,
}

impl CommandRoster {
    /// Elements of the command, the general's included.
    pub fn element_count(&self) -> u32 {
        1 + self.elements.iter().map(|g| g.count).sum::<u32>()
    }

    /// Elements the command fields: all of [`Self::element_count`], but for its general when
    /// it is `leaderless` (MG-31).
    pub fn elements_fielded(&self, leaderless: bool) -> u32 {
        self.element_count().saturating_sub(u32::from(leaderless))
    }

    /// Every element's kind, the general's first, once per element.
    pub fn specs(&self) -> impl Iterator<Item = &ElementSpec> {
        std::iter::once(&self.general).chain(self.elements.iter().flat_map(|g| std::iter::repeat_n(&g.spec, g.count as usize)))
    }
}

/// A side's field army (MG-03).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Army {
    pub side: SideId,
    pub list: String,
    /// A word on the army for the referee; none in a roster typed without one.
    #[serde(default)]
    pub note: String,
    pub commands: Vec<CommandRoster>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralCosts {
    pub c_in_c: u32,
    pub sub_general: u32,
    pub ally_general: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementType {
    pub code: String,
    pub name: String,
    pub mobility: Mobility,
    pub costs: Vec<ElementCost>,
}

/// Points of one element of a type at a class and grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementCost {
    pub class: Class,
    pub grade: Grade,
    pub points: u32,
}

/// The points table armies are bought with.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementTable {
    pub reconstructed: bool,
    pub note: String,
    pub generals: GeneralCosts,
    pub types: BTreeMap<String, ElementType>,
}

/// Why an army cannot be fielded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmyProblem {
    /// Which command (by its position) the problem is in, if one.
    pub command: Option<usize>,
    pub message: String,
}

impl ElementTable {
    /// Checks the raw points table, reporting every problem with its line: each type's
    /// mobility and grades, no price given twice, and a price for every element a neutral
    /// city fields (MG-05), which no army file names and yet every campaign reaches.
    pub fn from_raw(raw: RawElementTable, source: &SourceText) -> Result<ElementTable, DataError> {
        let mut report = Report::new(source);
        let mut types = BTreeMap::new();
        for t in &raw.elements {
            let code = t.code.get_ref().clone();
            let mobility = match t.mobility.get_ref().as_str() {
                "mounted" => Some(Mobility::Mounted),
                "foot" => Some(Mobility::Foot),
                "psiloi" => Some(Mobility::Psiloi),
                "elephant" => Some(Mobility::Elephant),
                "expendable" => Some(Mobility::Expendable),
                "artillery" => Some(Mobility::Artillery),
                other => {
                    report.at(
                        t.mobility.span().start,
                        format!("{code}: `{other}` is not a mobility (mounted, foot, psiloi, elephant, expendable, artillery)"),
                    );
                    None
                }
            };
            let mut costs: Vec<ElementCost> = Vec::new();
            for c in &t.costs {
                let Some(grade) = Grade::parse(c.grade.get_ref()) else {
                    report.at(c.grade.span().start, format!("{code}: `{}` is not a grade (S, O, I, F, X)", c.grade.get_ref()));
                    continue;
                };
                if c.reg.is_none() && c.irr.is_none() {
                    report.at(c.grade.span().start, format!("{code}({grade:?}) has neither a regular nor an irregular cost"));
                }
                for (class, points) in [(Class::Reg, c.reg), (Class::Irr, c.irr)] {
                    let Some(points) = points else { continue };
                    if costs.iter().any(|c| (c.class, c.grade) == (class, grade)) {
                        report.at(c.grade.span().start, format!("{class:?} {code}({grade:?}) is priced twice"));
                    }
                    costs.push(ElementCost { class, grade, points });
                }
            }
            if costs.is_empty() {
                report.at(t.code.span().start, format!("element type {code} has no costs"));
            }
            if types.contains_key(&code) {
                report.at(t.code.span().start, format!("element type {code} is defined twice"));
            }
            if let Some(mobility) = mobility {
                types.insert(code.clone(), ElementType { code, name: t.name.clone(), mobility, costs });
            }
        }
        // MG-05: every neutral city fields the same command in every scenario, so the table
        // must price each of its elements; one left out would count for nothing on every
        // battle sheet and roster a neutral city appears on, without a word.
        let command = neutral_city_command("");
        let neutral: std::collections::BTreeSet<&ElementSpec> = command.specs().collect();
        for spec in neutral {
            let Some(t) = raw.elements.iter().find(|t| *t.code.get_ref() == spec.code) else {
                report.file(format!("the points table has no element type {}, which every neutral city fields ({spec}, MG-05)", spec.code));
                continue;
            };
            let priced = t.costs.iter().any(|c| {
                Grade::parse(c.grade.get_ref()) == Some(spec.grade)
                    && match spec.class {
                        Class::Reg => c.reg.is_some(),
                        Class::Irr => c.irr.is_some(),
                    }
            });
            if !priced {
                report.at(
                    t.code.span().start,
                    format!("{}: the points table has no price for {spec}, which every neutral city fields (MG-05)", spec.code),
                );
            }
        }
        if !report.problems.is_empty() {
            return Err(DataError { problems: report.problems });
        }
        Ok(ElementTable {
            reconstructed: raw.reconstructed,
            note: raw.note,
            generals: GeneralCosts {
                c_in_c: raw.generals.c_in_c,
                sub_general: raw.generals.sub_general,
                ally_general: raw.generals.ally_general,
            },
            types,
        })
    }

    /// Points of one element, or `None` if the table does not allow it.
    pub fn cost(&self, spec: &ElementSpec) -> Option<u32> {
        self.types.get(&spec.code)?.costs.iter().find(|c| (c.class, c.grade) == (spec.class, spec.grade)).map(|c| c.points)
    }

    pub fn mobility(&self, spec: &ElementSpec) -> Option<Mobility> {
        self.types.get(&spec.code).map(|t| t.mobility)
    }

    /// The surcharge on a general's element for his rank.
    pub fn general_cost(&self, rank: Rank) -> u32 {
        match rank {
            Rank::CInC => self.generals.c_in_c,
            Rank::SubGeneral => self.generals.sub_general,
            Rank::AllyGeneral => self.generals.ally_general,
        }
    }

    /// Points of a command: its elements and its general's rank. Unknown elements count 0
    /// (they are reported by [`Self::check`]).
    pub fn command_points(&self, command: &CommandRoster) -> u32 {
        command.specs().map(|s| self.cost(s).unwrap_or(0)).sum::<u32>() + self.general_cost(command.rank)
    }

    pub fn army_points(&self, army: &Army) -> u32 {
        army.commands.iter().map(|c| self.command_points(c)).sum()
    }

    /// MG-11: a command of only mounted and/or psiloi elements (no elephants, no expendables)
    /// has 2 movement points; any other land command has 1.
    pub fn movement_points(&self, command: &CommandRoster) -> u8 {
        let fast = command.specs().all(|s| matches!(self.mobility(s), Some(Mobility::Mounted | Mobility::Psiloi)));
        if fast { 2 } else { 1 }
    }

    /// MG-03: everything wrong with an army bought at `points`.
    pub fn check(&self, army: &Army, points: u32) -> Vec<ArmyProblem> {
        let mut problems = Vec::new();
        let mut at = |command: Option<usize>, message: String| problems.push(ArmyProblem { command, message });
        if army.commands.is_empty() {
            at(None, "an army needs at least one command".to_owned());
        }
        let chiefs = army.commands.iter().filter(|c| c.rank == Rank::CInC).count();
        if chiefs != 1 {
            at(None, format!("an army has exactly one C-in-C, not {chiefs}"));
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, c) in army.commands.iter().enumerate() {
            if c.name.trim().is_empty() {
                at(Some(i), format!("command {} needs a name for its counter", i + 1));
            } else if !names.insert(c.name.trim()) {
                at(Some(i), format!("two commands are called {}", c.name));
            } else if c.name.trim().eq_ignore_ascii_case(super::turn::FLEET) {
                at(Some(i), format!("a command may not be called {}: orders name the side's fleet counter so", c.name.trim()));
            }
            for spec in std::iter::once(&c.general).chain(c.elements.iter().map(|g| &g.spec)) {
                if !self.types.contains_key(&spec.code) {
                    at(Some(i), format!("{}: {} is not an element type of the points table", c.name, spec.code));
                } else if self.cost(spec).is_none() {
                    at(Some(i), format!("{}: {spec} is not allowed by the points table", c.name));
                }
            }
        }
        let total = self.army_points(army);
        if total > points {
            at(None, format!("the army costs {total} points, more than the {points} the scenario allows"));
        }
        problems
    }
}

/// MG-05: the fixed composition of each command of a neutral city.
pub fn neutral_city_command(name: &str) -> CommandRoster {
    let spec = |class, code: &str, grade| ElementSpec { class, code: code.to_owned(), grade };
    let group = |count, class, code: &str, grade| ElementGroup { count, spec: spec(class, code, grade) };
    CommandRoster {
        name: name.to_owned(),
        rank: Rank::AllyGeneral,
        general: spec(Class::Irr, "Cv", Grade::I),
        elements: vec![
            group(6, Class::Reg, "Sp", Grade::I),
            group(2, Class::Reg, "Sp", Grade::O),
            group(4, Class::Reg, "Ps", Grade::O),
            group(1, Class::Reg, "Cv", Grade::I),
            group(1, Class::Reg, "LH", Grade::O),
        ],
    }
}

/// Turns a raw army into a typed one, reporting unreadable element strings with their line.
pub fn army_from_raw(raw: &RawArmy, report: &mut Report<'_>) -> Option<Army> {
    let before = report.problems.len();
    let mut commands = Vec::new();
    for c in &raw.commands {
        let rank = match c.rank.get_ref().as_str() {
            "c-in-c" => Some(Rank::CInC),
            "sub-general" => Some(Rank::SubGeneral),
            "ally-general" => Some(Rank::AllyGeneral),
            other => {
                report.at(c.rank.span().start, format!("`{other}` is not a rank (c-in-c, sub-general, ally-general)"));
                None
            }
        };
        let general = c.general.get_ref().parse::<ElementSpec>().map_err(|e| report.at(c.general.span().start, e.to_string())).ok();
        let mut elements = Vec::new();
        for g in &c.elements {
            match g.get_ref().parse::<ElementGroup>() {
                Ok(g) => elements.push(g),
                Err(e) => report.at(g.span().start, e.to_string()),
            }
        }
        if let (Some(rank), Some(general)) = (rank, general) {
            commands.push(CommandRoster { name: c.name.get_ref().clone(), rank, general, elements });
        }
    }
    (report.problems.len() == before).then(|| Army {
        side: SideId::new(raw.side.get_ref().clone()),
        list: raw.list.clone(),
        note: raw.note.clone(),
        commands,
    })
}

/// Reads one army written like an `[[army]]` entry of an army file, for a referee's import.
pub fn army_from_toml(source: &SourceText) -> Result<Army, DataError> {
    let raw: RawArmy = referee_data::parse_toml(source)?;
    let mut report = Report::new(source);
    match army_from_raw(&raw, &mut report) {
        Some(army) if report.problems.is_empty() => Ok(army),
        _ => Err(DataError { problems: report.problems }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_strings_read_and_print_back() {
        let g: ElementGroup = "6 Reg Sp(I)".parse().unwrap();
        assert_eq!(g.to_string(), "6 Reg Sp(I)");
        assert_eq!("Irr Cv(I)".parse::<ElementSpec>().unwrap().to_string(), "Irr Cv(I)");
        for bad in ["Reg Sp", "6 Sp(O)", "Mid Sp(O)", "0 Reg Sp(O)", "Reg Sp(Q)", "Reg (O)"] {
            assert!(bad.parse::<ElementGroup>().is_err() || bad.parse::<ElementSpec>().is_err(), "{bad}");
        }
    }

    /// MG-05: a neutral city's command is 1 Irr Cv(I) general, 6 Reg Sp(I), 2 Reg Sp(O),
    /// 4 Reg Ps(O), 1 Reg Cv(I) and 1 Reg LH(O): 15 elements.
    #[test]
    fn mg_05_neutral_city_command() {
        let c = neutral_city_command("Enna");
        assert_eq!(c.element_count(), 15);
        let text: Vec<String> = c.elements.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["6 Reg Sp(I)", "2 Reg Sp(O)", "4 Reg Ps(O)", "1 Reg Cv(I)", "1 Reg LH(O)"]);
        assert_eq!(c.general.to_string(), "Irr Cv(I)");
    }
}
