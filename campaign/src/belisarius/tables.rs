//! Belisarius: the tables the rules refer to but do not print (BE-04, BE-10, BE-12, BE-14,
//! BE-18…BE-20, BE-22, BE-23, BE-27, BE-33…BE-39, BE-43, BE-45, BE-47), loaded from
//! `belisarius/tables.toml`, plus the numbers the rules do print, as constants.
//!
//! The tables are the project's reconstruction and a referee may replace them with the
//! printed originals, so every lookup goes through data that was checked on load, and every
//! table keeps its reasoning ([`TableNote`]) for the notice the program shows. The validated
//! tables are stored in a campaign's start event, so they round-trip through JSON: a campaign
//! keeps the tables it was started with even if the file changes later.
//!
//! Grids read values by bands: a list of starts where each band runs up to the next start,
//! the first also takes everything below and the last everything above. So a modified die
//! that runs off a table reads the edge row or column, and a column shift stops at the edge.
//!
//! Because a band quietly takes in its neighbour's values, every table is checked whole on
//! load: a table read by a die has a row (or column) for each value from every face
//! of the d6 out to its edges, no row stands where no lookup can reach, every row has a
//! result for every column, each 2d6 total gives an event, and every chit, cost, modifier,
//! morale grade and price the program looks up by name is there. A hole is refused with the
//! file, the line and the missing value, before any campaign starts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use referee_data::belisarius::tables::{RawDieRow, RawTables};
use referee_data::raw::Spanned;
use referee_data::{DataError, DataSource, Report, SourceText};
use serde::{Deserialize, Serialize};

use crate::core::words::count;

/// Where the tables live in the data folder.
pub const TABLES_FILE: &str = "belisarius/tables.toml";

/// BE-26: the siege duration marker at which the city falls by itself.
pub const SIEGE_FALLS_AT: u8 = 4;
/// BE-25, BE-32: the most a city's fortifications and defence works may add up to.
pub const MAX_CITY_DEFENCE: u8 = 5;
/// BE-32: siege works markers allowed per besieging leader present.
pub const SIEGE_WORKS_PER_LEADER: u8 = 2;
/// BE-35: the 2d6 total (before the admiral's tactical rating) that intercepts at sea.
pub const NAVAL_INTERCEPTION_TARGET: u8 = 7;
/// BE-43: treachery delivers the city on a modified 2d6 from 2 up to this.
pub const TREACHERY_SUCCEEDS_UP_TO: u8 = 8;
/// BE-04, BE-51: what the chit is added to when a side has no commander-in-chief.
pub const NO_CINC_STRATEGIC: u8 = 6;
/// BE-14, BE-42: a decoy leader's strategic rating for interception.
pub const DECOY_STRATEGIC: u8 = 3;
/// BE-10, BE-33: most zones (land or sea) a force may move in a turn.
pub const MAX_ZONES_PER_TURN: u32 = 6;
/// BE-14: added to the interception die in a mountain zone.
pub const MOUNTAIN_INTERCEPTION_DIE: i32 = -1;
/// BE-18: added to the combat die when the battle is in mountains.
pub const MOUNTAIN_COMBAT_DIE: i32 = -1;
/// BE-18: added to the combat die when a side has a morale-A unit in the fight.
pub const MORALE_A_COMBAT_DIE: i32 = 1;
/// BE-43: columns to the right on the interception table for reconnaissance.
pub const RECONNAISSANCE_COLUMN_SHIFT: i32 = 2;
/// BE-23: columns to the right on the combat table for the ambusher.
pub const AMBUSHER_COLUMN_SHIFT: i32 = 2;
/// BE-23: added to the ambushed side's combat die.
pub const AMBUSHEE_COMBAT_DIE: i32 = -1;
/// BE-23: added to the ambusher's morale rolls (the ambushed side takes the opposite).
pub const AMBUSHER_MORALE: i32 = 1;
/// BE-39: naval points in support for each +1 on the assault roll.
pub const NAVAL_POINTS_PER_ASSAULT_PIP: u32 = 3;
/// BE-36: embarked combat points for each +1 on the naval combat die.
pub const EMBARKED_POINTS_PER_NAVAL_PIP: u32 = 3;
/// BE-47 (event N): added to the naval attrition die in storms.
pub const STORM_NAVAL_ATTRITION_DIE: i32 = 2;
/// BE-37: infantry combat points one naval point carries.
pub const INFANTRY_PER_NAVAL_POINT: u32 = 2;
/// BE-37: cavalry combat points one naval point carries.
pub const CAVALRY_PER_NAVAL_POINT: u32 = 1;

/// Every action the program prices; the file must give each exactly once.
pub const ACTIONS: &[&str] = &[
    "move-plain",
    "move-mountain",
    "city-zone",
    "reorganise",
    "intercept",
    "start-siege",
    "assault-with-siege",
    "assault-later",
    "sortie",
    "siege-works",
    "defence-works",
    "destroy-fortifications",
    "fleet-move",
    "naval-unit-move",
    "naval-intercept",
    "naval-support",
    "embark-port",
    "embark-coast",
    "scorched-earth",
    "play-stratagem",
];

/// The stratagem chits the rules name (BE-43); the file must list each exactly once.
pub const STRATAGEMS: &[&str] = &["treachery", "reconnaissance", "frankish-intervention"];

/// The units the Ostrogoths buy in spring (BE-45), as the price list writes them; the file
/// must price each exactly once, and nothing else, because a purchase names one of these.
pub const GOTHIC_UNITS: [&str; 4] = ["1A", "1B", "1C", "[1]D"];

/// The attrition modifiers the program applies, by id, with the rolls it applies each one
/// to (BE-31, BE-38, BE-41, BE-47). The program looks them up by id, so the file must give
/// each exactly once and say where it applies as the program does: a modifier missing or
/// misspelt would otherwise be left out of every roll without a word.
pub const ATTRITION_MODIFIERS: &[(&str, &[AttritionUse])] = &[
    ("bad-harvest", &[AttritionUse::Supply, AttritionUse::Siege]),
    ("excellent-harvest", &[AttritionUse::Supply, AttritionUse::Siege]),
    ("blockade", &[AttritionUse::Siege]),
    ("friendly-ships-adjacent", &[AttritionUse::Siege]),
    ("unsupplied-mountains", &[AttritionUse::Supply]),
];

/// The faces of the d6 every die-read table is rolled with: each needs a row (or column) of
/// its own, since a plain roll can show any of them.
const D6_FACES: std::ops::RangeInclusive<i32> = 1..=6;

/// Percentages a combat or attrition result may take: the ones the rules name, and 0.
const PERCENTS: &[u8] = &[0, 10, 25, 50, 75];

/// Rounds `percent` % of `points` up (BE-01: fractions round up): 10 % of 11 is 2.
/// Percentages above 100 count as 100; the arithmetic cannot overflow.
pub fn percent_of(points: u32, percent: u8) -> u32 {
    let product = u64::from(points) * u64::from(percent.min(100));
    u32::try_from(product.div_ceil(100)).unwrap_or(u32::MAX)
}

/// BE-04: a side's action points for the turn: its chit plus its commander-in-chief's
/// strategic rating, or plus 6 when it has none (scenario 3).
pub fn action_points(chit_value: u8, cinc_strategic: Option<u8>) -> u32 {
    u32::from(chit_value) + u32::from(cinc_strategic.unwrap_or(NO_CINC_STRATEGIC))
}

/// BE-27, BE-32, BE-39: what is added to the assault's 2d6: siege works and the leader's
/// tactical rating, +1 per 3 naval points in support, less the city's defence (capped at 5).
pub fn assault_modifier(city_defence: u8, siege_works: u8, tactical: u8, naval_points: u32) -> i32 {
    let naval = i32::try_from(naval_points / NAVAL_POINTS_PER_ASSAULT_PIP).unwrap_or(i32::MAX);
    i32::from(siege_works) + i32::from(tactical) + naval - i32::from(city_defence.min(MAX_CITY_DEFENCE))
}

/// BE-43: whether a treachery roll (2d6 plus the leader's tactical rating) takes the city.
pub fn treachery_succeeds(modified_roll: i32) -> bool {
    modified_roll <= i32::from(TREACHERY_SUCCEEDS_UP_TO)
}

/// BE-35: whether a naval interception roll (2d6 plus any admiral's tactical rating) succeeds.
pub fn naval_interception_succeeds(modified_roll: i32) -> bool {
    modified_roll >= i32::from(NAVAL_INTERCEPTION_TARGET)
}

/// One action point chit (BE-04): the same counter is worth different points to each side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chit {
    pub id: String,
    pub byzantine: u8,
    pub barbarian: u8,
}

/// A stratagem chit (BE-43): drawn from the same cup, kept secretly, no action points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stratagem {
    pub id: String,
    pub name: String,
    pub summary: String,
}

/// The action point cost of one action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    pub ap: u8,
    /// True when the rules text states the number; false for the project's reconstruction.
    pub printed: bool,
    pub reason: String,
}

/// A table's title, whether it is reconstructed, and why it looks as it does — what the
/// program shows a referee next to the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableNote {
    /// The section of the file, e.g. `combat`.
    pub id: String,
    pub title: String,
    pub reconstructed: bool,
    pub reasoning: String,
}

/// Consecutive ranges of a value, each given by its start (see the module comment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bands {
    /// Strictly increasing.
    pub starts: Vec<i32>,
}

impl Bands {
    /// The band `value` falls in.
    pub fn index(&self, value: i32) -> usize {
        self.starts.iter().rposition(|&s| s <= value).unwrap_or(0)
    }

    /// The band `value` falls in, moved `shift` bands and kept on the table.
    pub fn shifted(&self, value: i32, shift: i32) -> usize {
        let last = i64::try_from(self.starts.len().saturating_sub(1)).unwrap_or(0);
        let i = i64::try_from(self.index(value)).unwrap_or(0).saturating_add(i64::from(shift)).clamp(0, last);
        usize::try_from(i).unwrap_or(0)
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The heading of band `i` for a printed table: "≤2", "3–5", "39+".
    pub fn label(&self, i: usize) -> String {
        let Some(&start) = self.starts.get(i) else { return String::new() };
        let next = self.starts.get(i + 1).map(|n| n - 1);
        match (i, next) {
            (_, None) if self.starts.len() == 1 => "any".to_owned(),
            (_, None) => format!("{start}+"),
            (0, Some(end)) => format!("≤{end}"),
            (_, Some(end)) if end == start => start.to_string(),
            (_, Some(end)) => format!("{start}–{end}"),
        }
    }
}

/// A table read by a row value and a column value; `cells[row][column]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid<T> {
    pub rows: Bands,
    pub columns: Bands,
    pub cells: Vec<Vec<T>>,
}

impl<T: Clone + Default> Grid<T> {
    /// The cell for `row` and `column`, the column moved `shift` to the right.
    pub fn get(&self, row: i32, column: i32, shift: i32) -> T {
        let r = self.rows.index(row);
        let c = self.columns.shifted(column, shift);
        self.cells.get(r).and_then(|cells| cells.get(c)).cloned().unwrap_or_default()
    }
}

/// Which attrition rolls a modifier applies to (BE-12, BE-31, BE-41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttritionUse {
    /// After a move (BE-12).
    Movement,
    /// An unsupplied force in the supply phase (BE-41), or entering a scorched zone (BE-44).
    Supply,
    /// Besieged units in the supply phase (BE-31).
    Siege,
}

impl AttritionUse {
    fn parse(s: &str) -> Option<AttritionUse> {
        match s {
            "movement" => Some(AttritionUse::Movement),
            "supply" => Some(AttritionUse::Supply),
            "siege" => Some(AttritionUse::Siege),
            _ => None,
        }
    }

    /// The word the file uses.
    fn word(self) -> &'static str {
        match self {
            AttritionUse::Movement => "movement",
            AttritionUse::Supply => "supply",
            AttritionUse::Siege => "siege",
        }
    }
}

/// A die modifier on the attrition table; positive is worse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttritionModifier {
    pub id: String,
    pub die: i8,
    pub applies: Vec<AttritionUse>,
    pub reason: String,
}

/// BE-12, BE-31, BE-41: the attrition table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attrition {
    /// Rows by zones moved, columns by d6, cells in percent.
    pub moved: Grid<u8>,
    /// Percent by d6 for unsupplied and besieged forces.
    pub unsupplied: Vec<u8>,
    pub modifiers: Vec<AttritionModifier>,
}

/// BE-14: what an interception roll gives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Interception {
    /// No battle; the mover may go on.
    #[default]
    Fail,
    /// A battle in line (BE-17).
    LineOfBattle,
    /// A battle in which the interceptor ambushes the target (BE-23).
    Ambush,
}

impl Interception {
    fn parse(s: &str) -> Result<Interception, String> {
        match s {
            "F" => Ok(Interception::Fail),
            "L" => Ok(Interception::LineOfBattle),
            "A" => Ok(Interception::Ambush),
            other => Err(format!("`{other}` is not an interception result (F, L or A)")),
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Interception::Fail => "F",
            Interception::LineOfBattle => "L",
            Interception::Ambush => "A",
        }
    }
}

/// BE-19: a combat result, read by the enemy of the side that rolled: a percentage of its
/// unmodified factors lost, then perhaps a morale check.
///
/// Written in the file as the percentage (or `-` for none) followed by `T`, `T1` or `T2`
/// for a check at 0, −1 or −2: `-`, `10`, `25T`, `50T1`, `T2`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CombatResult {
    pub percent: u8,
    /// `Some(n)`: every unit checks morale with `n` taken off its 2d6 (0 = T, 1 = T1, 2 = T2).
    pub morale_check: Option<u8>,
}

impl CombatResult {
    /// Reads a result code; `None` if it is not one.
    pub fn parse(code: &str) -> Option<CombatResult> {
        if code == "-" {
            return Some(CombatResult::default());
        }
        let split = code.find(|c: char| !c.is_ascii_digit()).unwrap_or(code.len());
        let (digits, rest) = code.split_at(split);
        let percent = if digits.is_empty() { 0 } else { digits.parse::<u8>().ok().filter(|p| *p > 0 && PERCENTS.contains(p))? };
        let morale_check = match rest {
            "" => None,
            "T" => Some(0),
            "T1" => Some(1),
            "T2" => Some(2),
            _ => return None,
        };
        if percent == 0 && morale_check.is_none() {
            return None;
        }
        Some(CombatResult { percent, morale_check })
    }

    /// Whether this result is at least as hard on the side taking it as `other`: no smaller
    /// loss and no milder morale check.
    pub fn at_least(&self, other: &CombatResult) -> bool {
        let severity = |m: Option<u8>| m.map_or(0, |n| i32::from(n) + 1);
        self.percent >= other.percent && severity(self.morale_check) >= severity(other.morale_check)
    }
}

impl fmt::Display for CombatResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.percent, self.morale_check) {
            (0, None) => f.write_str("-"),
            (p, m) => {
                if p > 0 {
                    write!(f, "{p}")?;
                }
                match m {
                    None => Ok(()),
                    Some(0) => f.write_str("T"),
                    Some(n) => write!(f, "T{n}"),
                }
            }
        }
    }
}

/// BE-27: the outcome of an assault.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AssaultResult {
    /// Percentage of the attacker's points lost.
    pub attacker_percent: u8,
    /// Percentage of the defender's points (militia included) lost; 100 when the city falls.
    pub defender_percent: u8,
    /// The city falls and every leader and unit inside is destroyed.
    pub falls: bool,
}

impl AssaultResult {
    /// Reads `a/d` (percentages) or `a/F` (the city falls).
    fn parse(code: &str) -> Result<AssaultResult, String> {
        let bad =
            || format!("`{code}` is not an assault result (attacker/defender percentages such as 25/10, or 10/F when the city falls)");
        let (a, d) = code.split_once('/').ok_or_else(bad)?;
        let attacker_percent = a.parse::<u8>().ok().filter(|p| PERCENTS.contains(p)).ok_or_else(bad)?;
        if d == "F" {
            return Ok(AssaultResult { attacker_percent, defender_percent: 100, falls: true });
        }
        let defender_percent = d.parse::<u8>().ok().filter(|p| PERCENTS.contains(p)).ok_or_else(bad)?;
        Ok(AssaultResult { attacker_percent, defender_percent, falls: false })
    }

    /// Whether this result is at least as good for the attacker as `other`.
    pub fn at_least(&self, other: &AssaultResult) -> bool {
        self.attacker_percent <= other.attacker_percent && self.defender_percent >= other.defender_percent && self.falls >= other.falls
    }
}

/// BE-27: the assault table: rows by attacker:defender ratio, columns by modified 2d6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assault {
    /// `[attacker, defender]`, the least ratio each row covers, increasing.
    pub ratios: Vec<[u32; 2]>,
    pub rolls: Bands,
    pub cells: Vec<Vec<AssaultResult>>,
}

impl Assault {
    /// The row for a ratio rounded in the defender's favour: the best row whose ratio the
    /// attacker reaches, or the first row if it reaches none.
    pub fn row(&self, attacker: u32, defender: u32) -> usize {
        self.ratios.iter().rposition(|&[a, d]| u64::from(attacker) * u64::from(d) >= u64::from(a) * u64::from(defender)).unwrap_or(0)
    }

    /// The heading of row `i`: "1:2-", "2:1", "5:1+".
    pub fn label(&self, i: usize) -> String {
        let Some([a, d]) = self.ratios.get(i) else { return String::new() };
        if i == 0 && self.ratios.len() > 1 {
            format!("{a}:{d}-")
        } else if i + 1 == self.ratios.len() {
            format!("{a}:{d}+")
        } else {
            format!("{a}:{d}")
        }
    }
}

/// BE-34: what naval attrition does to one fleet or unit that moved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NavalAttrition {
    #[default]
    None,
    /// One naval point lost.
    LoseOne,
    /// This percentage of its naval points lost, rounded up.
    Percent(u8),
    /// Sunk, with everything it carried.
    Destroyed,
}

impl NavalAttrition {
    fn parse(code: &str) -> Result<NavalAttrition, String> {
        match code {
            "-" => Ok(NavalAttrition::None),
            "1NP" => Ok(NavalAttrition::LoseOne),
            "X" => Ok(NavalAttrition::Destroyed),
            other => match other.parse::<u8>() {
                Ok(p) if p > 0 && PERCENTS.contains(&p) => Ok(NavalAttrition::Percent(p)),
                _ => Err(format!("`{other}` is not a naval attrition result (-, 1NP, 10, 25, 50, 75 or X)")),
            },
        }
    }

    /// Naval points lost by a fleet or unit of `naval_points`.
    pub fn points_lost(self, naval_points: u32) -> u32 {
        match self {
            NavalAttrition::None => 0,
            NavalAttrition::LoseOne => naval_points.min(1),
            NavalAttrition::Percent(p) => percent_of(naval_points, p).min(naval_points),
            NavalAttrition::Destroyed => naval_points,
        }
    }

    /// Severity for comparisons: none < one point < percentages by size < destroyed.
    pub fn severity(self) -> u16 {
        match self {
            NavalAttrition::None => 0,
            NavalAttrition::LoseOne => 1,
            NavalAttrition::Percent(p) => 2 + u16::from(p),
            NavalAttrition::Destroyed => 1000,
        }
    }
}

/// One random event (BE-47).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomEvent {
    pub letter: char,
    pub name: String,
    /// Red events happen once a campaign; rolled again, they give no event.
    pub red: bool,
    /// A one-sentence summary; the rules text is the authority.
    pub effect: String,
}

/// What one 2d6 total gives: one letter, or six read by a second d6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRoll {
    pub total: u8,
    pub letters: Vec<char>,
}

/// What the Ostrogoths pay for a unit (BE-45), in half-points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Price {
    pub unit: String,
    pub half_points: u32,
}

/// Every Belisarius table, validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tables {
    pub chits: Vec<Chit>,
    pub stratagems: Vec<Stratagem>,
    /// By action id (see [`ACTIONS`]).
    pub costs: BTreeMap<String, Cost>,
    pub attrition: Attrition,
    /// Rows by d6, columns by strategic difference (interceptor − target).
    pub interception: Grid<Interception>,
    /// Rows by modified d6, columns by total combat factor.
    pub combat: Grid<CombatResult>,
    pub assault: Assault,
    /// Rows by sea zones moved this turn, columns by modified d6.
    pub naval_attrition: Grid<NavalAttrition>,
    /// Rows by modified d6, columns by own minus enemy naval points; cells are enemy NPs lost.
    pub naval_combat: Grid<u8>,
    pub events: Vec<RandomEvent>,
    /// By 2d6 total, 2 to 12.
    pub event_rolls: Vec<EventRoll>,
    /// 2d6 target by morale letter ("A" … "D").
    pub morale: BTreeMap<String, u8>,
    pub reinforcement_prices: Vec<Price>,
    /// One per table, in the file's order, for the notice shown to referees.
    pub notes: Vec<TableNote>,
}

impl Tables {
    /// Reads `belisarius/tables.toml` from `source` and checks it.
    pub fn load(source: &DataSource) -> Result<Tables, DataError> {
        let text = source.read(TABLES_FILE)?;
        Tables::from_raw(referee_data::parse::<RawTables>(&text)?, &text)
    }

    /// The built-in tables, which the test suite checks and so always load.
    pub fn embedded() -> Tables {
        Tables::load(&DataSource::Embedded).expect("the built-in Belisarius tables are valid")
    }

    /// Checks the raw tables, reporting every problem with its file and line.
    #[expect(clippy::needless_pass_by_value, reason = "takes the raw file by value like every other data type's from_raw")]
    pub fn from_raw(raw: RawTables, source: &SourceText) -> Result<Tables, DataError> {
        let mut report = Report::new(source);
        let r = &mut report;
        let mut notes = Vec::new();
        let mut note = |r: &mut Report, id: &str, title: &Spanned<String>, reconstructed: bool, reasoning: &str| {
            if title.get_ref().trim().is_empty() {
                r.at(title.span().start, format!("[{id}] needs a title"));
            }
            if reasoning.trim().is_empty() {
                r.at(title.span().start, format!("[{id}] needs its reasoning, which referees are shown"));
            }
            notes.push(TableNote { id: id.to_owned(), title: title.get_ref().clone(), reconstructed, reasoning: tidy(reasoning) });
        };

        let c = &raw.chits;
        note(r, "chits", &c.title, c.reconstructed, &c.reasoning);
        let (chits, stratagems) = check_chits(r, &raw);

        let c = &raw.costs;
        note(r, "costs", &c.title, c.reconstructed, &c.reasoning);
        let costs = check_costs(r, &raw);

        let a = &raw.attrition;
        note(r, "attrition", &a.title, a.reconstructed, &a.reasoning);
        let attrition = check_attrition(r, &raw);

        let i = &raw.interception;
        note(r, "interception", &i.title, i.reconstructed, &i.reasoning);
        // The program reads a die below 1 as 1 (mountains take 1 off), so the rows are 1 to 6.
        let reach = Reach {
            lowest: Some(*D6_FACES.start()),
            highest: Some(*D6_FACES.end()),
            why: "the die runs from 1 to 6 (a d6, −1 in mountains, and a die below 1 reads as 1)".to_owned(),
        };
        let interception =
            die_grid(r, "interception", &i.title, &i.differences, &die_rows(&i.rows), &reach, |s: &String| Interception::parse(s));

        let c = &raw.combat;
        note(r, "combat", &c.title, c.reconstructed, &c.reasoning);
        // The leader's tactical rating and a morale-A unit only add; mountains and being
        // ambushed take 1 each.
        let lowest = D6_FACES.start() + MOUNTAIN_COMBAT_DIE + AMBUSHEE_COMBAT_DIE;
        let reach = Reach {
            lowest: Some(lowest),
            highest: None,
            why: format!(
                "the die is never below {} (a d6, −1 in mountains and −1 for a side caught in ambush)",
                lowest.to_string().replace('-', "−")
            ),
        };
        let combat = die_grid(r, "combat", &c.title, &c.factors, &die_rows(&c.rows), &reach, |s: &String| {
            CombatResult::parse(s)
                .ok_or_else(|| format!("`{s}` is not a combat result (-, or 10, 25, 50 or 75, either optionally followed by T, T1 or T2)"))
        });
        if let Some(first) = c.factors.get_ref().first()
            && *first < 1
        {
            r.at(c.factors.span().start, "the first combat column must start at a factor of 1 or more");
        }

        let p = &raw.pursuit;
        note(r, "pursuit", &p.title, p.reconstructed, &p.reasoning);
        if p.uses.get_ref() != "combat" {
            r.at(p.uses.span().start, format!("pursuit can only use the `combat` table, not `{}`", p.uses.get_ref()));
        }

        let a = &raw.assault;
        note(r, "assault", &a.title, a.reconstructed, &a.reasoning);
        let assault = check_assault(r, &raw);

        let n = &raw.naval_attrition;
        note(r, "naval-attrition", &n.title, n.reconstructed, &n.reasoning);
        let naval_attrition = check_naval_attrition(r, &raw);

        let n = &raw.naval_combat;
        note(r, "naval-combat", &n.title, n.reconstructed, &n.reasoning);
        let rows: Vec<RowIn<'_, u8>> = n.rows.iter().map(|row| RowIn { key: row.die.clone(), cells: &row.lost }).collect();
        // The admiral's tactical rating and the troops aboard only add to the die.
        let reach = Reach {
            lowest: Some(*D6_FACES.start()),
            highest: None,
            why: "the die is never below 1 (a d6, to which only bonuses are added)".to_owned(),
        };
        let naval_combat = die_grid(r, "naval combat", &n.title, &n.differences, &rows, &reach, |v: &u8| Ok(*v));

        let e = &raw.events;
        note(r, "events", &e.title, e.reconstructed, &e.reasoning);
        let (events, event_rolls) = check_events(r, &raw);

        let m = &raw.morale;
        note(r, "morale", &m.title, m.reconstructed, &m.reasoning);
        let morale = check_morale(r, &raw);

        let p = &raw.reinforcement_prices;
        note(r, "reinforcement-prices", &p.title, p.reconstructed, &p.reasoning);
        let reinforcement_prices = check_prices(r, &raw);

        match (interception, combat, assault, naval_attrition, naval_combat, attrition) {
            (Some(interception), Some(combat), Some(assault), Some(naval_attrition), Some(naval_combat), Some(attrition))
                if report.problems.is_empty() =>
            {
                Ok(Tables {
                    chits,
                    stratagems,
                    costs,
                    attrition,
                    interception,
                    combat,
                    assault,
                    naval_attrition,
                    naval_combat,
                    events,
                    event_rolls,
                    morale,
                    reinforcement_prices,
                    notes,
                })
            }
            _ => {
                if report.problems.is_empty() {
                    report.file("the tables could not be read");
                }
                Err(DataError { problems: report.problems })
            }
        }
    }

    /// The chit with `id`, if it is an action point chit.
    pub fn chit(&self, id: &str) -> Option<&Chit> {
        self.chits.iter().find(|c| c.id == id)
    }

    /// BE-04: what chit `id` is worth to the side that drew it.
    pub fn chit_value(&self, id: &str, byzantine: bool) -> Option<u8> {
        self.chit(id).map(|c| if byzantine { c.byzantine } else { c.barbarian })
    }

    /// BE-04, BE-43: whether `id` is a stratagem (kept, and another chit drawn).
    pub fn is_stratagem(&self, id: &str) -> bool {
        self.stratagems.iter().any(|s| s.id == id)
    }

    pub fn stratagem(&self, id: &str) -> Option<&Stratagem> {
        self.stratagems.iter().find(|s| s.id == id)
    }

    /// The ids of the action point chits, in the file's order.
    pub fn ap_chit_ids(&self) -> Vec<String> {
        self.chits.iter().map(|c| c.id.clone()).collect()
    }

    /// The action point cost of `action` (see [`ACTIONS`]).
    pub fn cost(&self, action: &str) -> Option<u8> {
        self.costs.get(action).map(|c| c.ap)
    }

    /// BE-12: percent lost after moving `zones_moved` zones, for a modified d6 (clamped to
    /// the table's columns). More zones than the last row read the last row.
    pub fn attrition_percent(&self, zones_moved: u32, die: i32) -> u8 {
        self.attrition.moved.get(i32::try_from(zones_moved).unwrap_or(i32::MAX), die, 0)
    }

    /// BE-31, BE-41, BE-44: percent lost by an unsupplied or besieged force for a modified d6
    /// (clamped to 1–6).
    pub fn unsupplied_attrition_percent(&self, die: i32) -> u8 {
        let i = self.attrition.moved.columns.index(die);
        self.attrition.unsupplied.get(i).copied().unwrap_or(0)
    }

    /// The attrition modifier with `id` (`bad-harvest`, `blockade` …).
    pub fn attrition_modifier(&self, id: &str) -> Option<&AttritionModifier> {
        self.attrition.modifiers.iter().find(|m| m.id == id)
    }

    /// BE-14: the interception table for the strategic difference (interceptor − target),
    /// the modified d6 and a column shift (reconnaissance: +2).
    pub fn interception(&self, strategic_difference: i32, die: i32, column_shift: i32) -> Interception {
        self.interception.get(die, strategic_difference, column_shift)
    }

    /// BE-18, BE-19, BE-23: the combat table for a total factor, a modified d6 and a column
    /// shift (ambusher: +2). A factor of 0 (nobody to fire) does nothing.
    pub fn combat(&self, factor: u32, die: i32, column_shift: i32) -> CombatResult {
        if factor == 0 {
            return CombatResult::default();
        }
        self.combat.get(die, i32::try_from(factor).unwrap_or(i32::MAX), column_shift)
    }

    /// BE-22: pursuit is read on the combat table with the pursuer's cavalry factor; its
    /// morale part is ignored, so only the percentage counts.
    pub fn pursuit_percent(&self, factor: u32, die: i32, column_shift: i32) -> u8 {
        self.combat(factor, die, column_shift).percent
    }

    /// BE-27: the assault table for unmodified points (ratio rounded in the defender's
    /// favour) and the modified 2d6 (see [`assault_modifier`]).
    pub fn assault(&self, attacker: u32, defender: u32, roll: i32) -> AssaultResult {
        let r = self.assault.row(attacker, defender);
        let c = self.assault.rolls.index(roll);
        self.assault.cells.get(r).and_then(|row| row.get(c)).copied().unwrap_or_default()
    }

    /// BE-27: the heading of the assault table's row for these points ("2:1").
    pub fn assault_label(&self, attacker: u32, defender: u32) -> String {
        self.assault.label(self.assault.row(attacker, defender))
    }

    /// BE-34: naval attrition for a fleet or unit that moved `zones_moved` sea zones this turn,
    /// for a modified d6 (+2 in storms), clamped to the table.
    pub fn naval_attrition(&self, zones_moved: u32, die: i32) -> NavalAttrition {
        self.naval_attrition.get(i32::try_from(zones_moved).unwrap_or(i32::MAX), die, 0)
    }

    /// BE-36: naval points the enemy loses for own minus enemy strength and a modified d6.
    pub fn naval_combat(&self, strength_difference: i32, die: i32) -> u8 {
        self.naval_combat.get(die, strength_difference, 0)
    }

    /// The event with `letter`.
    pub fn event(&self, letter: char) -> Option<&RandomEvent> {
        self.events.iter().find(|e| e.letter == letter)
    }

    /// BE-47: whether a 2d6 total needs a second d6 to tell which event it is.
    pub fn event_needs_second_die(&self, roll_2d6: u8) -> bool {
        self.event_rolls.iter().any(|r| r.total == roll_2d6 && r.letters.len() > 1)
    }

    /// BE-47: the event for a 2d6 total and, where the total is split, a second d6. `None`
    /// for a total outside 2–12, or a split total without a second die in 1–6. Whether the
    /// scenario allows it, and whether a red event has already happened, is for the caller.
    pub fn event_for(&self, roll_2d6: u8, extra_d6: Option<u8>) -> Option<&RandomEvent> {
        let roll = self.event_rolls.iter().find(|r| r.total == roll_2d6)?;
        let letter = match roll.letters.as_slice() {
            [one] => *one,
            six => *six.get(usize::from(extra_d6?.checked_sub(1)?))?,
        };
        self.event(letter)
    }

    /// BE-47: the chance of each letter, in 216ths (2d6 and a second d6), for the notice.
    pub fn event_odds(&self) -> BTreeMap<char, u32> {
        let mut odds = BTreeMap::new();
        for roll in &self.event_rolls {
            let ways = 6 - u32::from(roll.total.abs_diff(7));
            let each = 6 / u32::try_from(roll.letters.len()).unwrap_or(1).max(1);
            for l in &roll.letters {
                *odds.entry(*l).or_insert(0) += ways * each;
            }
        }
        odds
    }

    /// BE-20: the 2d6 a unit of `morale` needs to pass a plain check.
    pub fn morale_target(&self, morale: char) -> Option<u8> {
        self.morale.get(&morale.to_string()).copied()
    }

    /// BE-20: whether a morale check passes: the 2d6 plus `modifier` (leader, ambush), less
    /// the check's own penalty (T 0, T1 1, T2 2), reaches the unit's target.
    pub fn morale_passes(&self, morale: char, roll_2d6: i32, check: u8, modifier: i32) -> Option<bool> {
        let target = self.morale_target(morale)?;
        Some(roll_2d6 + modifier - i32::from(check) >= i32::from(target))
    }

    /// BE-45: what the Ostrogoths pay for `unit` ("1A", "\\[1\\]D" …), in half-points.
    pub fn price_half_points(&self, unit: &str) -> Option<u32> {
        self.reinforcement_prices.iter().find(|p| p.unit == unit).map(|p| p.half_points)
    }

    /// The note for table `id` (`combat`, `events` …).
    pub fn note(&self, id: &str) -> Option<&TableNote> {
        self.notes.iter().find(|n| n.id == id)
    }
}

/// Joins the lines of a reasoning written with TOML line continuations or plain newlines.
fn tidy(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn check_chits(r: &mut Report, raw: &RawTables) -> (Vec<Chit>, Vec<Stratagem>) {
    let c = &raw.chits;
    let mut ids = BTreeSet::new();
    let mut chits = Vec::new();
    if c.chits.is_empty() {
        r.at(c.title.span().start, "the cup needs at least one action point chit");
    }
    for chit in &c.chits {
        let id = chit.id.get_ref();
        if id.trim().is_empty() {
            r.at(chit.id.span().start, "a chit needs an id");
        } else if !ids.insert(id.clone()) {
            r.at(chit.id.span().start, format!("chit id `{id}` is used twice"));
        }
        chits.push(Chit { id: id.clone(), byzantine: *chit.byzantine.get_ref(), barbarian: *chit.barbarian.get_ref() });
    }
    let mut stratagems = Vec::new();
    for s in &c.stratagems {
        let id = s.id.get_ref();
        if !STRATAGEMS.contains(&id.as_str()) {
            r.at(s.id.span().start, format!("`{id}` is not a stratagem of the rules ({})", STRATAGEMS.join(", ")));
        } else if !ids.insert(id.clone()) {
            r.at(s.id.span().start, format!("`{id}` is listed twice among the chits and stratagems"));
        }
        if s.name.trim().is_empty() {
            r.at(s.id.span().start, format!("stratagem `{id}` needs a name"));
        }
        stratagems.push(Stratagem { id: id.clone(), name: s.name.clone(), summary: tidy(&s.summary) });
    }
    for missing in STRATAGEMS.iter().filter(|s| !c.stratagems.iter().any(|x| x.id.get_ref() == *s)) {
        r.at(c.title.span().start, format!("the stratagem `{missing}` is missing"));
    }
    (chits, stratagems)
}

fn check_costs(r: &mut Report, raw: &RawTables) -> BTreeMap<String, Cost> {
    let c = &raw.costs;
    let mut costs = BTreeMap::new();
    for a in &c.actions {
        let id = a.id.get_ref();
        if !ACTIONS.contains(&id.as_str()) {
            r.at(a.id.span().start, format!("`{id}` is not an action the program prices ({})", ACTIONS.join(", ")));
            continue;
        }
        let cost = Cost { ap: *a.ap.get_ref(), printed: a.printed, reason: tidy(&a.reason) };
        if costs.insert(id.clone(), cost).is_some() {
            r.at(a.id.span().start, format!("the cost of `{id}` is given twice"));
        }
    }
    for missing in ACTIONS.iter().filter(|a| !costs.contains_key(**a)) {
        r.at(c.title.span().start, format!("the cost of `{missing}` is missing"));
    }
    costs
}

/// Checks a list of band starts: not empty, strictly increasing.
fn bands(r: &mut Report, what: &str, starts: &Spanned<Vec<i32>>) -> Option<Bands> {
    let s = starts.get_ref();
    if s.is_empty() {
        r.at(starts.span().start, format!("the {what} table needs at least one column"));
        return None;
    }
    if let Some(w) = s.windows(2).find(|w| w[0] == w[1]) {
        r.at(starts.span().start, format!("the {what} table lists its column starting at {} twice", w[0]));
        return None;
    }
    if s.windows(2).any(|w| w[0] > w[1]) {
        r.at(starts.span().start, format!("the {what} table's column starts must increase: {s:?}"));
        return None;
    }
    Some(Bands { starts: s.clone() })
}

/// What a table's rows are read by, to name a row in a sentence.
#[derive(Debug, Clone, Copy)]
enum RowsBy {
    /// A die: one row for each value.
    Die,
    /// Land zones moved this turn: each row from its number up to the next row's.
    Zones,
    /// Sea zones sailed this turn, likewise.
    SeaZones,
}

impl RowsBy {
    /// "a die of 4", "3 zones", "1 sea zone".
    fn name(self, value: i32) -> String {
        match self {
            RowsBy::Die => format!("a die of {value}"),
            RowsBy::Zones => count(value, "zone"),
            RowsBy::SeaZones => count(value, "sea zone"),
        }
    }
}

/// One row as read from the file: the value it starts at and its cells.
struct RowIn<'a, C> {
    key: Spanned<i32>,
    cells: &'a Spanned<Vec<Spanned<C>>>,
}

/// Checks the cells of one row: each one a known result, and as many as there are columns
/// (`None` when the count was found wrong for every row at once and said so).
fn cells<C, T>(
    r: &mut Report,
    what: &str,
    row_name: &str,
    columns: Option<usize>,
    cells: &Spanned<Vec<Spanned<C>>>,
    parse: &impl Fn(&C) -> Result<T, String>,
) -> Option<Vec<T>> {
    let list = cells.get_ref();
    let mut ok = columns.is_some();
    if let Some(columns) = columns
        && list.len() != columns
    {
        r.at(
            cells.span().start,
            format!("the {what} table's row for {row_name} has {} results, but the table has {columns} columns", list.len()),
        );
        ok = false;
    }
    let mut out = Vec::new();
    for cell in list {
        match parse(cell.get_ref()) {
            Ok(v) => out.push(v),
            Err(message) => {
                r.at(cell.span().start, format!("the {what} table's row for {row_name}: {message}"));
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// Checks a grid whose rows start at increasing values.
fn grid<C, T>(
    r: &mut Report,
    what: &str,
    title: &Spanned<String>,
    columns: &Spanned<Vec<i32>>,
    rows_by: RowsBy,
    rows: &[RowIn<'_, C>],
    parse: impl Fn(&C) -> Result<T, String>,
) -> Option<Grid<T>> {
    let columns_read = bands(r, what, columns);
    if rows.is_empty() {
        r.at(title.span().start, format!("the {what} table has no rows"));
        return None;
    }
    // Every row one result longer (or shorter) than the list of columns is a column left out
    // of (or added to) that list: one problem, said once where the list is.
    let lengths: BTreeSet<usize> = rows.iter().map(|row| row.cells.get_ref().len()).collect();
    let list_wrong = match (&columns_read, lengths.first()) {
        (Some(c), Some(&len)) if rows.len() > 1 && lengths.len() == 1 && len != c.len() => {
            r.at(
                columns.span().start,
                format!(
                    "the {what} table lists {} columns, {:?}, but each of its rows has {len} results: a column is missing from that \
                     list, or every row has a result too many",
                    c.len(),
                    c.starts
                ),
            );
            true
        }
        _ => false,
    };
    let mut ok = !list_wrong;
    let mut starts = Vec::new();
    let mut out = Vec::new();
    for row in rows {
        let key = *row.key.get_ref();
        if let Some(&last) = starts.last() {
            if last == key {
                r.at(row.key.span().start, format!("the {what} table gives its row for {} twice", rows_by.name(key)));
                ok = false;
            } else if last > key {
                r.at(row.key.span().start, format!("the {what} rows must be in increasing order; {key} comes after {last}"));
                ok = false;
            }
        }
        starts.push(key);
        let Some(columns) = &columns_read else { continue };
        match cells(r, what, &rows_by.name(key), (!list_wrong).then_some(columns.len()), row.cells, &parse) {
            Some(c) => out.push(c),
            None => ok = false,
        }
    }
    let columns = columns_read?;
    ok.then_some(Grid { rows: Bands { starts }, columns, cells: out })
}

/// The values one axis of a table is looked up with, as the rules and the program make them,
/// and why, for the sentence that refuses a row or column outside them. `None`: no bound
/// this file can know (a leader's tactical rating comes from the leaders' file).
struct Reach {
    lowest: Option<i32>,
    highest: Option<i32>,
    why: String,
}

/// A row or column start as read from the file, and the byte offset to report it at.
type Key = (i32, usize);

fn increasing(keys: &[Key]) -> bool {
    keys.windows(2).all(|w| w[0].0 < w[1].0)
}

/// Reports every row (or column) of an axis that no lookup can fall in, reading each as the
/// band it stands for (see the module comment): the rules never read it, so what was typed
/// there is missing from where it would be read.
fn unreadable(r: &mut Report, what: &str, noun: &str, keys: &[Key], reach: &Reach, name: impl Fn(usize) -> String) {
    if !increasing(keys) {
        return;
    }
    for (i, &(start, at)) in keys.iter().enumerate() {
        let low = if i == 0 { i32::MIN } else { start };
        let high = keys.get(i + 1).map_or(i32::MAX, |next| next.0 - 1);
        if reach.lowest.is_some_and(|l| high < l) || reach.highest.is_some_and(|h| low > h) {
            r.at(at, format!("the {what} table's {noun} for {} can never be read: {}", name(i), reach.why));
        }
    }
}

/// BE-12, BE-14, BE-18, BE-34, BE-36: a table read by a die gives every die value it can be
/// read with its own row (or column), from each face of the d6 out to its edge rows, with no
/// gap: a value without one would silently read its neighbour's. Beyond the edge rows a
/// modified die reads the edge, as the module comment says. `missing_at` is where a value
/// missing past the last row is reported; one missing before a row is reported at that row.
fn whole_die_axis(r: &mut Report, what: &str, noun: &str, keys: &[Key], missing_at: usize, reach: &Reach) {
    if !increasing(keys) {
        return;
    }
    unreadable(r, what, noun, keys, reach, |i| format!("a die of {}", keys[i].0));
    let (Some(&(first, _)), Some(&(last, _))) = (keys.first(), keys.last()) else { return };
    let from = first.min(*D6_FACES.start()).max(reach.lowest.unwrap_or(i32::MIN));
    let to = last.max(*D6_FACES.end()).min(reach.highest.unwrap_or(i32::MAX));
    // Runs of missing values, each with where to report it.
    let mut missing: Vec<(i32, i32, usize)> = Vec::new();
    let mut expect = from;
    for &(value, at) in keys {
        if value > to {
            break;
        }
        if value > expect {
            missing.push((expect, value - 1, at));
        }
        expect = expect.max(value.saturating_add(1));
    }
    if expect <= to {
        missing.push((expect, to, missing_at));
    }
    for (a, b, at) in missing {
        let which = if a == b { format!("{noun} for a die of {a}") } else { format!("{noun}s for a die of {a} to {b}") };
        r.at(at, format!("the {what} table has no {which}; every die from {from} to {to} needs a {noun} of its own"));
    }
}

/// A grid whose rows are read by a die, checked whole against `reach`.
fn die_grid<C, T>(
    r: &mut Report,
    what: &str,
    title: &Spanned<String>,
    columns: &Spanned<Vec<i32>>,
    rows: &[RowIn<'_, C>],
    reach: &Reach,
    parse: impl Fn(&C) -> Result<T, String>,
) -> Option<Grid<T>> {
    let keys: Vec<Key> = rows.iter().map(|row| (*row.key.get_ref(), row.key.span().start)).collect();
    whole_die_axis(r, what, "row", &keys, title.span().start, reach);
    grid(r, what, title, columns, RowsBy::Die, rows, parse)
}

/// The rows of a file's die-read table.
fn die_rows<C>(rows: &[RawDieRow<C>]) -> Vec<RowIn<'_, C>> {
    rows.iter().map(|row| RowIn { key: row.die.clone(), cells: &row.results }).collect()
}

/// Turns a zones count into a row start, reporting absurd ones.
fn zones_key(r: &mut Report, zones: &Spanned<u32>) -> Spanned<i32> {
    let value = i32::try_from(*zones.get_ref()).unwrap_or_else(|_| {
        r.at(zones.span().start, "that is far more zones than any map has");
        i32::MAX
    });
    Spanned::new(zones.span(), value)
}

/// BE-12, BE-31, BE-41: rows by zones moved from 0 up to the most a force may move, columns
/// by every value of the die, the unsupplied row as long, and each modifier the program
/// applies given once, saying where it applies.
fn check_attrition(r: &mut Report, raw: &RawTables) -> Option<Attrition> {
    let a = &raw.attrition;
    let rows: Vec<RowIn<'_, u8>> = a.rows.iter().map(|row| RowIn { key: zones_key(r, &row.zones), cells: &row.percent }).collect();
    if let Some(first) = a.rows.first()
        && *first.zones.get_ref() != 0
    {
        r.at(first.zones.span().start, "the first attrition row must start at 0 zones");
    }
    let most = i32::try_from(super::operations::MAX_ZONES).unwrap_or(i32::MAX);
    let zones: Vec<Key> = rows.iter().map(|row| (*row.key.get_ref(), row.key.span().start)).collect();
    let moves = Reach { lowest: None, highest: Some(most), why: format!("a force moves at most {most} zones a turn") };
    unreadable(r, "attrition", "row", &zones, &moves, |i| RowsBy::Zones.name(zones[i].0));
    let percent = |p: &u8| {
        if PERCENTS.contains(p) { Ok(*p) } else { Err(format!("{p} is not a percentage of the rules (0, 10, 25, 50 or 75)")) }
    };
    let moved = grid(r, "attrition", &a.title, &a.dice, RowsBy::Zones, &rows, percent);
    let unsupplied = cells(r, "attrition", "unsupplied forces", Some(a.dice.get_ref().len()), &a.unsupplied, &percent);
    let mut modifiers = Vec::new();
    let mut ids = BTreeSet::new();
    let known: Vec<&str> = ATTRITION_MODIFIERS.iter().map(|(id, _)| *id).collect();
    for m in &a.modifiers {
        let id = m.id.get_ref();
        let uses = ATTRITION_MODIFIERS.iter().find(|(k, _)| k == id).map(|(_, uses)| *uses);
        if uses.is_none() {
            r.at(m.id.span().start, format!("`{id}` is not an attrition modifier the program applies ({})", known.join(", ")));
        } else if !ids.insert(id.clone()) {
            r.at(m.id.span().start, format!("attrition modifier `{id}` is given twice"));
        }
        let mut applies = Vec::new();
        let mut readable = true;
        for u in &m.applies {
            match AttritionUse::parse(u.get_ref()) {
                Some(x) if applies.contains(&x) => {
                    r.at(u.span().start, format!("attrition modifier `{id}` lists `{}` twice", x.word()));
                    readable = false;
                }
                Some(x) => applies.push(x),
                None => {
                    r.at(u.span().start, format!("`{}` is not an attrition roll (movement, supply or siege)", u.get_ref()));
                    readable = false;
                }
            }
        }
        if m.applies.is_empty() {
            r.at(m.id.span().start, format!("attrition modifier `{id}` applies to no roll"));
        } else if let Some(uses) = uses
            && readable
            && !(applies.len() == uses.len() && uses.iter().all(|u| applies.contains(u)))
        {
            // The program applies each modifier where the rules put it; a file saying
            // otherwise would be believed by the referee and ignored by the dice.
            let words: Vec<&str> = uses.iter().map(|u| u.word()).collect();
            let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            r.at(
                m.id.span().start,
                format!(
                    "attrition modifier `{id}` is applied to {} rolls by the program, so its `applies` must read [{}]",
                    words.join(" and "),
                    quoted.join(", ")
                ),
            );
        }
        modifiers.push(AttritionModifier { id: id.clone(), die: m.die, applies, reason: tidy(&m.reason) });
    }
    for missing in known.iter().filter(|id| !a.modifiers.iter().any(|m| m.id.get_ref() == *id)) {
        r.at(
            a.title.span().start,
            format!("the attrition modifier `{missing}` is missing; the program applies it, so give it (with die = 0 to have none)"),
        );
    }
    // The die's columns: the plain d6 after a move, the d6 and the modifiers out of supply.
    let worse: i32 = a.modifiers.iter().map(|m| i32::from(m.die.max(0))).sum();
    let better: i32 = a.modifiers.iter().map(|m| i32::from(m.die.min(0))).sum();
    let (lowest, highest) = (D6_FACES.start() + better, D6_FACES.end() + worse);
    let die = Reach {
        lowest: Some(lowest),
        highest: Some(highest),
        why: format!(
            "the die runs from {} to {highest} (a d6 and every modifier of this table together)",
            lowest.to_string().replace('-', "−")
        ),
    };
    let dice: Vec<Key> = a.dice.get_ref().iter().map(|d| (*d, a.dice.span().start)).collect();
    whole_die_axis(r, "attrition", "column", &dice, a.dice.span().start, &die);
    Some(Attrition { moved: moved?, unsupplied: unsupplied?, modifiers })
}

/// BE-27: ratio rows in increasing order, columns by the modified 2d6.
fn check_assault(r: &mut Report, raw: &RawTables) -> Option<Assault> {
    let a = &raw.assault;
    let rolls = bands(r, "assault", &a.rolls);
    if a.rows.is_empty() {
        r.at(a.title.span().start, "the assault table has no rows");
        return None;
    }
    if let Some(rolls) = &rolls {
        let lowest = 2 - i32::from(MAX_CITY_DEFENCE);
        let reach = Reach {
            lowest: Some(lowest),
            highest: None,
            why: format!(
                "the roll is never below {} (2d6, less a city defence of at most {MAX_CITY_DEFENCE})",
                lowest.to_string().replace('-', "−")
            ),
        };
        let keys: Vec<Key> = rolls.starts.iter().map(|s| (*s, a.rolls.span().start)).collect();
        unreadable(r, "assault", "column", &keys, &reach, |i| format!("a roll of {}", rolls.label(i)));
    }
    let mut ok = true;
    let mut ratios: Vec<[u32; 2]> = Vec::new();
    let mut out = Vec::new();
    for row in &a.rows {
        let [att, def] = *row.ratio.get_ref();
        if att == 0 || def == 0 {
            r.at(row.ratio.span().start, format!("{att}:{def} is not a ratio; both sides must be at least 1"));
            ok = false;
        } else if let Some(&[pa, pd]) = ratios.last()
            && u64::from(att) * u64::from(pd) <= u64::from(pa) * u64::from(def)
        {
            r.at(row.ratio.span().start, format!("the assault rows must be in increasing ratio; {att}:{def} comes after {pa}:{pd}"));
            ok = false;
        }
        ratios.push([att, def]);
        let Some(rolls) = &rolls else { continue };
        match cells(r, "assault", &format!("{att}:{def}"), Some(rolls.len()), &row.results, &|s: &String| AssaultResult::parse(s)) {
            Some(c) => out.push(c),
            None => ok = false,
        }
    }
    let rolls = rolls?;
    ok.then_some(Assault { ratios, rolls, cells: out })
}

/// BE-34: rows by sea zones sailed from 1 up to the most ships may sail, columns by every
/// value of the die, storms included.
fn check_naval_attrition(r: &mut Report, raw: &RawTables) -> Option<Grid<NavalAttrition>> {
    let n = &raw.naval_attrition;
    let rows: Vec<RowIn<'_, String>> = n.rows.iter().map(|row| RowIn { key: zones_key(r, &row.zones), cells: &row.results }).collect();
    if let Some(first) = n.rows.first()
        && *first.zones.get_ref() != 1
    {
        r.at(
            first.zones.span().start,
            "the first naval attrition row must start at 1 sea zone, the fewest that ships which sailed have moved",
        );
    }
    let most = i32::try_from(super::naval::MAX_SEA_ZONES).unwrap_or(i32::MAX);
    let zones: Vec<Key> = rows.iter().map(|row| (*row.key.get_ref(), row.key.span().start)).collect();
    let voyages = Reach { lowest: None, highest: Some(most), why: format!("ships sail at most {most} sea zones a turn") };
    unreadable(r, "naval attrition", "row", &zones, &voyages, |i| RowsBy::SeaZones.name(zones[i].0));
    let highest = D6_FACES.end() + STORM_NAVAL_ATTRITION_DIE;
    let die = Reach {
        lowest: Some(*D6_FACES.start()),
        highest: Some(highest),
        why: format!("the die runs from 1 to {highest} (a d6, +{STORM_NAVAL_ATTRITION_DIE} in storms)"),
    };
    let dice: Vec<Key> = n.dice.get_ref().iter().map(|d| (*d, n.dice.span().start)).collect();
    whole_die_axis(r, "naval attrition", "column", &dice, n.dice.span().start, &die);
    grid(r, "naval attrition", &n.title, &n.dice, RowsBy::SeaZones, &rows, |s: &String| NavalAttrition::parse(s))
}

fn check_events(r: &mut Report, raw: &RawTables) -> (Vec<RandomEvent>, Vec<EventRoll>) {
    let e = &raw.events;
    let mut events: Vec<RandomEvent> = Vec::new();
    for ev in &e.events {
        let text = ev.letter.get_ref();
        let mut chars = text.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c @ 'A'..='O'), None) => c,
            _ => {
                r.at(ev.letter.span().start, format!("`{text}` is not an event letter (A to O)"));
                continue;
            }
        };
        if events.iter().any(|x| x.letter == letter) {
            r.at(ev.letter.span().start, format!("event {letter} is described twice"));
            continue;
        }
        if ev.name.trim().is_empty() || ev.effect.trim().is_empty() {
            r.at(ev.letter.span().start, format!("event {letter} needs a name and an effect"));
        }
        events.push(RandomEvent { letter, name: ev.name.clone(), red: ev.red, effect: tidy(&ev.effect) });
    }
    for missing in ('A'..='O').filter(|l| !events.iter().any(|x| x.letter == *l)) {
        r.at(e.title.span().start, format!("event {missing} is missing"));
    }
    let mut rolls: Vec<EventRoll> = Vec::new();
    for roll in &e.rolls {
        let total = *roll.total.get_ref();
        if !(2..=12).contains(&total) {
            r.at(roll.total.span().start, format!("{total} is not a total of 2d6"));
            continue;
        }
        if rolls.iter().any(|x| x.total == total) {
            r.at(roll.total.span().start, format!("the 2d6 total {total} is given twice"));
            continue;
        }
        let list = roll.events.get_ref();
        if list.len() != 1 && list.len() != 6 {
            r.at(
                roll.events.span().start,
                format!("the 2d6 total {total} lists {} events; give one, or six to be read by a second d6", list.len()),
            );
        }
        let mut letters = Vec::new();
        for l in list {
            match l.get_ref().chars().next().filter(|_| l.get_ref().chars().count() == 1) {
                Some(c) if events.iter().any(|x| x.letter == c) => letters.push(c),
                _ => r.at(l.span().start, format!("the 2d6 total {total} gives `{}`, which is not an event of the table", l.get_ref())),
            }
        }
        rolls.push(EventRoll { total, letters });
    }
    for missing in (2..=12).filter(|t| !rolls.iter().any(|x| x.total == *t)) {
        r.at(
            e.title.span().start,
            format!("the events table gives no event for a 2d6 total of {missing}; every total from 2 to 12 needs a `roll`"),
        );
    }
    for ev in &events {
        if !rolls.iter().any(|x| x.letters.contains(&ev.letter)) {
            r.at(e.title.span().start, format!("no roll of the events table gives event {}", ev.letter));
        }
    }
    rolls.sort_by_key(|x| x.total);
    (events, rolls)
}

fn check_morale(r: &mut Report, raw: &RawTables) -> BTreeMap<String, u8> {
    let m = &raw.morale;
    let targets = m.targets.get_ref();
    for (letter, target) in targets {
        if !["A", "B", "C", "D"].contains(&letter.as_str()) {
            r.at(m.targets.span().start, format!("`{letter}` is not a morale grade (A, B, C or D)"));
        }
        if !(2..=12).contains(target) {
            r.at(m.targets.span().start, format!("morale {letter}'s target {target} cannot be rolled on 2d6"));
        }
    }
    for missing in ["A", "B", "C", "D"].iter().filter(|l| !targets.contains_key(**l)) {
        r.at(m.targets.span().start, format!("morale {missing} has no target"));
    }
    targets.clone()
}

/// BE-45: a price for each unit the Ostrogoths may buy, and for nothing else.
fn check_prices(r: &mut Report, raw: &RawTables) -> Vec<Price> {
    let list = &raw.reinforcement_prices;
    let mut prices: Vec<Price> = Vec::new();
    for p in &list.prices {
        let unit = p.unit.get_ref();
        if unit.trim().is_empty() {
            r.at(p.unit.span().start, "a price needs a unit");
        } else if !GOTHIC_UNITS.contains(&unit.as_str()) {
            r.at(p.unit.span().start, format!("`{unit}` is not a unit the Ostrogoths buy ({})", GOTHIC_UNITS.join(", ")));
        } else if prices.iter().any(|x| &x.unit == unit) {
            r.at(p.unit.span().start, format!("the price of `{unit}` is given twice"));
        }
        if *p.half_points.get_ref() == 0 {
            r.at(p.half_points.span().start, format!("`{unit}` cannot be free"));
        }
        prices.push(Price { unit: unit.clone(), half_points: *p.half_points.get_ref() });
    }
    for missing in GOTHIC_UNITS.iter().filter(|u| !list.prices.iter().any(|p| p.unit.get_ref() == *u)) {
        r.at(list.title.span().start, format!("the price of `{missing}` is missing; the Ostrogoths may buy it each spring"));
    }
    prices
}
