//! Belisarius pieces (BE-03): combat units in the rules' notation, leaders and their ratings,
//! and losses taken like change.
//!
//! A unit is written `[value][*]morale`: `2B` is a unit of value 2 and morale B, `1*A` a unit
//! of value 1 and morale A that may shoot (`*`, it takes part in missile fire, BE-18).
//! A value in brackets, `[2]*D`, marks a skirmishing unit of light foot archers: its points
//! count at half for transport and for the Goths' reinforcement purchases (the rules price
//! "½ per \\[1\\]D"), so such a unit has `skirmish = true`. The bracket changes nothing in
//! battle: the unit fights with its full value.
//!
//! The kind of a unit is not part of the notation; it comes from the heading the set-up lists
//! it under (cataphracts, heavy cavalry, light cavalry, infantry). How units listed without a
//! heading are read is told in the scenario module.

use std::fmt;

use referee_data::belisarius::scenario::RawLeaderBook;
use referee_data::{DataError, DataSource, Report};
use serde::{Deserialize, Serialize};

/// The kind of a combat unit (BE-03).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// Fights at triple value (BE-18).
    Cataphract,
    /// Fights at double value (BE-18).
    HeavyCavalry,
    MediumCavalry,
    LightCavalry,
    Infantry,
}

impl UnitKind {
    pub const ALL: [UnitKind; 5] =
        [UnitKind::Cataphract, UnitKind::HeavyCavalry, UnitKind::MediumCavalry, UnitKind::LightCavalry, UnitKind::Infantry];

    /// The word used in messages and on screens.
    pub fn label(self) -> &'static str {
        match self {
            UnitKind::Cataphract => "cataphracts",
            UnitKind::HeavyCavalry => "heavy cavalry",
            UnitKind::MediumCavalry => "medium cavalry",
            UnitKind::LightCavalry => "light cavalry",
            UnitKind::Infantry => "infantry",
        }
    }
}

/// A unit's morale rating (BE-20).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Morale {
    A,
    B,
    C,
    D,
}

impl Morale {
    /// The least total on 2d6 that passes a morale check (BE-20): A 5, B 6, C 7, D 8.
    pub fn target(self) -> u8 {
        match self {
            Morale::A => 5,
            Morale::B => 6,
            Morale::C => 7,
            Morale::D => 8,
        }
    }

    fn letter(self) -> char {
        match self {
            Morale::A => 'A',
            Morale::B => 'B',
            Morale::C => 'C',
            Morale::D => 'D',
        }
    }

    fn from_letter(c: char) -> Option<Morale> {
        match c {
            'A' => Some(Morale::A),
            'B' => Some(Morale::B),
            'C' => Some(Morale::C),
            'D' => Some(Morale::D),
            _ => None,
        }
    }
}

/// One combat unit (BE-03).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    pub kind: UnitKind,
    /// Combat points, unmodified.
    pub value: u8,
    /// Written `*`: the unit shoots in the missile phase.
    pub missile: bool,
    pub morale: Morale,
    /// Written with the value in brackets, `[2]*D`: light foot skirmishers whose points count
    /// at half for transport and reinforcement purchases.
    pub skirmish: bool,
}

impl Unit {
    /// The unit's combat factor in fire and melee (BE-18): its value, tripled for
    /// cataphracts and doubled for heavy cavalry.
    pub fn factor(&self) -> u32 {
        u32::from(self.value) * self.multiplier()
    }

    /// What each of its points is worth in fire and melee (BE-18): 3 for cataphracts, 2 for
    /// heavy cavalry, 1 for the rest. Losses are suggested from the cheapest points first.
    pub fn multiplier(&self) -> u32 {
        match self.kind {
            UnitKind::Cataphract => 3,
            UnitKind::HeavyCavalry => 2,
            _ => 1,
        }
    }

    pub fn is_cavalry(&self) -> bool {
        !matches!(self.kind, UnitKind::Infantry)
    }

    /// The same unit with another value.
    fn with_value(self, value: u8) -> Unit {
        Unit { value, ..self }
    }
}

/// The rules' notation: `1*A`, `2B`, `[2]*D`.
impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.skirmish {
            write!(f, "[{}]", self.value)?;
        } else {
            write!(f, "{}", self.value)?;
        }
        if self.missile {
            f.write_str("*")?;
        }
        write!(f, "{}", self.morale.letter())
    }
}

/// The most units one group of a list may count. The scenarios' set-ups count six at most;
/// a count in the hundreds is a slip of the keyboard, and would be a hundred counters.
pub const MOST_IN_A_GROUP: usize = 99;

/// The most units one list may hold, all its groups together.
pub const MOST_IN_A_LIST: usize = 999;

/// Parses a list of units in the rules' notation, all of kind `kind`. Each group separated
/// by commas is a count and a unit, in any of the forms the set-ups use: `4 x 1*A`,
/// `3x(2B)`, `2x([2]*D)`, `2 1*B`, `4 [1]*C`, or a unit alone (`2B`, one unit).
/// The empty string is no unit at all. A group counts at most [`MOST_IN_A_GROUP`] units and
/// the list at most [`MOST_IN_A_LIST`].
pub fn parse_units(kind: UnitKind, text: &str) -> Result<Vec<Unit>, String> {
    let mut out = Vec::new();
    if text.trim().is_empty() {
        return Ok(out);
    }
    for group in text.split(',') {
        let (count, unit) = parse_group(kind, group.trim()).map_err(|e| format!("`{}`: {e}", group.trim()))?;
        if out.len() + count > MOST_IN_A_LIST {
            return Err(format!("`{}`: more than {MOST_IN_A_LIST} units in one list", group.trim()));
        }
        out.extend(std::iter::repeat_n(unit, count));
    }
    Ok(out)
}

/// One group: `4 x 1*A`, `3x(2B)`, `2 1*B`, `2B`.
fn parse_group(kind: UnitKind, group: &str) -> Result<(usize, Unit), String> {
    if group.is_empty() {
        return Err("an empty group; write a count and a unit, like `2 x 1*A`".into());
    }
    let digits = group.bytes().take_while(u8::is_ascii_digit).count();
    let after = group[digits..].trim_start();
    // A leading number followed by `x` or by a space and more text is a count.
    let (count, unit_text) = if digits > 0 && (after.starts_with(['x', 'X']) || (after.len() < group.len() - digits && !after.is_empty())) {
        let count: usize = group[..digits].parse().map_err(|_| format!("`{}` is not a count", &group[..digits]))?;
        let rest = after.strip_prefix(['x', 'X']).unwrap_or(after).trim();
        (count, rest)
    } else {
        (1, group)
    };
    if count == 0 {
        return Err("a count of 0 units".into());
    }
    if count > MOST_IN_A_GROUP {
        return Err(format!("a count of {count} units, where a group counts {MOST_IN_A_GROUP} at most"));
    }
    let unit_text = match unit_text.strip_prefix('(') {
        Some(inner) => inner.strip_suffix(')').ok_or("an opening `(` without its closing `)`")?.trim(),
        None if unit_text.ends_with(')') => return Err("a closing `)` without its opening `(`".into()),
        None => unit_text,
    };
    if unit_text.is_empty() {
        return Err("a count without a unit; write it like `2 x 1*A`".into());
    }
    Ok((count, parse_unit(kind, unit_text)?))
}

/// One unit: `1*A`, `2B`, `[2]*D`.
fn parse_unit(kind: UnitKind, text: &str) -> Result<Unit, String> {
    let (skirmish, value_text, rest) = if let Some(inner) = text.strip_prefix('[') {
        let close = inner.find(']').ok_or("an opening `[` without its closing `]`")?;
        (true, &inner[..close], &inner[close + 1..])
    } else {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        (false, &text[..digits], &text[digits..])
    };
    if value_text.is_empty() || !value_text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` does not start with a unit value such as `2` or `[2]`"));
    }
    let value: u8 = value_text.parse().map_err(|_| format!("the value {value_text} is too large"))?;
    if value == 0 {
        return Err(format!("`{text}` has value 0; a unit is worth at least 1 point"));
    }
    let (missile, rest) = match rest.strip_prefix('*') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let mut letters = rest.chars();
    let morale = match (letters.next(), letters.next()) {
        (Some(c), None) => Morale::from_letter(c).ok_or_else(|| format!("`{c}` is not a morale rating (A, B, C or D)"))?,
        (None, _) => return Err(format!("`{text}` has no morale rating (A, B, C or D)")),
        (Some(_), Some(_)) => return Err(format!("`{rest}` is not a morale rating (A, B, C or D)")),
    };
    Ok(Unit { kind, value, missile, morale, skirmish })
}

/// Takes `points` of losses from `units` like change (BE-03): units are removed or reduced,
/// a unit worth more than what is still owed is broken into smaller units (in values of
/// 4, 2 and 1, largest first) of the same kind and morale. The total value falls by exactly
/// `points`; asking for more than the units hold is refused.
///
/// This is the program's default allocation, for a referee who wants one; the owner may
/// choose otherwise. It is deterministic: while points are owed, a unit worth exactly what is
/// owed goes; else the largest unit worth less goes; else the smallest unit worth more is
/// broken. Among equal values the first in the list is taken. Units keep their order, and the
/// change takes the place of the unit it came from.
pub fn take_losses(units: &[Unit], points: u32) -> Result<Vec<Unit>, String> {
    let total: u32 = units.iter().map(|u| u32::from(u.value)).sum();
    if points > total {
        return Err(format!("{} of losses asked, but the units hold only {total}", crate::core::words::count(points, "point")));
    }
    let mut out: Vec<Unit> = units.to_vec();
    let mut owed = points;
    while owed > 0 {
        let value = |i: &usize| u32::from(out[*i].value);
        let indices = 0..out.len();
        if let Some(i) = indices.clone().find(|i| value(i) == owed) {
            out.remove(i);
            owed = 0;
        } else if let Some(i) = indices.clone().filter(|i| value(i) < owed).max_by_key(|i| (value(i), std::cmp::Reverse(*i))) {
            owed -= value(&i);
            out.remove(i);
        } else if let Some(i) = indices.min_by_key(|i| (value(i), *i)) {
            // Every unit is worth more than what is owed: break the smallest.
            let unit = out.remove(i);
            let mut left = u32::from(unit.value) - owed;
            let mut change = Vec::new();
            for piece in [4u8, 2, 1] {
                while left >= u32::from(piece) {
                    change.push(unit.with_value(piece));
                    left -= u32::from(piece);
                }
            }
            out.splice(i..i, change);
            owed = 0;
        } else {
            // Unreachable: the total covers what is owed.
            return Err("no unit left to take losses from".into());
        }
    }
    Ok(out)
}

/// A historical commander and his ratings (BE-03).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leader {
    pub id: String,
    pub name: String,
    /// `byzantines`, `ostrogoths`, `vandals` or `franks`.
    pub side: String,
    /// 1–8: added to the AP chit (CinC), the initiative die, compared for interception.
    pub strategic: u8,
    /// 0–3: added to the combat die and morale checks.
    pub tactical: u8,
    /// 1–5: the higher commands when leaders act or fight together.
    pub rank: u8,
    /// Why he is rated so.
    pub note: String,
}

/// A decoy leader counter's strategic rating (BE-42).
pub const DECOY_STRATEGIC: u8 = 3;

/// The sides a leader may belong to.
pub const LEADER_SIDES: [&str; 4] = ["byzantines", "ostrogoths", "vandals", "franks"];

/// Every leader of the game, from `belisarius/leaders.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderBook {
    pub leaders: Vec<Leader>,
    /// True when the ratings are the project's reconstruction, not the printed counters.
    pub reconstructed: bool,
    pub reasoning: String,
}

impl LeaderBook {
    pub const PATH: &'static str = "belisarius/leaders.toml";

    /// Reads and checks the leader roster, reporting every problem at once.
    pub fn load(source: &DataSource) -> Result<LeaderBook, DataError> {
        let text = source.read(Self::PATH)?;
        let raw: RawLeaderBook = referee_data::parse(&text)?;
        let mut report = Report::new(&text);
        let mut leaders: Vec<Leader> = Vec::new();
        for l in raw.leaders {
            let id = l.id.get_ref();
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                report.at(l.id.span().start, format!("leader id `{id}` must be lower-case letters and hyphens"));
            }
            if leaders.iter().any(|o| &o.id == id) {
                report.at(l.id.span().start, format!("leader `{id}` is listed twice"));
            }
            if !LEADER_SIDES.contains(&l.side.get_ref().as_str()) {
                report
                    .at(l.side.span().start, format!("leader `{id}`: `{}` is not a side ({})", l.side.get_ref(), LEADER_SIDES.join(", ")));
            }
            let range = |v: &referee_data::raw::Spanned<u8>, what: &str, lo: u8, hi: u8, report: &mut Report<'_>| {
                if !(lo..=hi).contains(v.get_ref()) {
                    report.at(v.span().start, format!("leader `{id}`: a {what} rating is {lo} to {hi}, not {}", v.get_ref()));
                }
            };
            range(&l.strategic, "strategic", 1, 8, &mut report);
            range(&l.tactical, "tactical", 0, 3, &mut report);
            range(&l.rank, "rank", 1, 5, &mut report);
            leaders.push(Leader {
                id: id.clone(),
                name: l.name,
                side: l.side.into_inner(),
                strategic: l.strategic.into_inner(),
                tactical: l.tactical.into_inner(),
                rank: l.rank.into_inner(),
                note: l.note,
            });
        }
        if leaders.is_empty() {
            report.file("the roster names no leader");
        }
        if !report.problems.is_empty() {
            return Err(DataError { problems: report.problems });
        }
        Ok(LeaderBook { leaders, reconstructed: raw.reconstructed, reasoning: raw.reasoning.trim().to_owned() })
    }

    /// The roster built into the program.
    pub fn embedded() -> LeaderBook {
        LeaderBook::load(&DataSource::Embedded).expect("the built-in Belisarius leader roster is valid")
    }

    pub fn get(&self, id: &str) -> Option<&Leader> {
        self.leaders.iter().find(|l| l.id == id)
    }
}

/// Units by kind with counts, in the rules' notation, for reading: "cataphracts 4×1*A
/// 2×2*C; infantry 4×1C".
pub fn summary(units: &[Unit]) -> String {
    let mut kinds: Vec<(UnitKind, Vec<(String, u32)>)> = Vec::new();
    for u in units {
        let notation = u.to_string();
        let i = match kinds.iter().position(|(k, _)| *k == u.kind) {
            Some(i) => i,
            None => {
                kinds.push((u.kind, Vec::new()));
                kinds.len() - 1
            }
        };
        let list = &mut kinds[i].1;
        match list.iter_mut().find(|(n, _)| *n == notation) {
            Some((_, count)) => *count = count.saturating_add(1),
            None => list.push((notation, 1)),
        }
    }
    kinds
        .iter()
        .map(|(kind, list)| {
            let items: Vec<String> = list.iter().map(|(n, c)| if *c == 1 { n.clone() } else { format!("{c}×{n}") }).collect();
            format!("{} {}", kind.label(), items.join(" "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}
