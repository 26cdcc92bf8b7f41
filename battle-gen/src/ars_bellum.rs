//! Ars Bellum's combat rules as functions (AB-04 fire, AB-05 melee, AB-06 morale): what the
//! umpire's sheet prints and what the result form checks a reported battle against.
//!
//! The melee table is the rules' own, printed in them; nothing here is reconstructed.
//!
//! Readings of the rules this module makes:
//! - A combat ratio goes to the largest column not above it (5 against 2 is 2/1: the
//!   rounding favours the defender); anything below 1/2 is the first column, "1/3 or less".
//! - Above 4/1, each whole step adds 1 to the die (5/1 +1, 6/1 +2; 9/2 is still 4/1).
//! - Terrain either moves the attacker's column left (forests, entrenchments, swamps, walls,
//!   ford) or takes from the attacker's die (village, bridge, elevation 1); a column shifted
//!   past the first stays there. A modified die below 1 reads as 1 and above 8 as 8.

use serde::{Deserialize, Serialize};

/// The table's columns: attacker to defender, as (attacker, defender).
pub const COLUMNS: [(u32, u32); 8] = [(1, 3), (1, 2), (2, 3), (1, 1), (3, 2), (2, 1), (3, 1), (4, 1)];

/// Which side a combat result falls on (in both hex systems).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    Attacker,
    Defender,
}

/// What a melee result does to the units of one side, their supports included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// R: they fall back one hex.
    Retreat,
    /// D: they are disorganised (flipped); a second time eliminated.
    Disorganised,
    /// T: they test their morale at once.
    Test,
    /// E: they are removed from the map.
    Eliminated,
}

/// One cell of the melee table: `AR`, `DD` …
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeResult {
    pub side: Side,
    pub effect: Effect,
}

impl MeleeResult {
    /// The table's two letters.
    pub fn code(self) -> String {
        let side = match self.side {
            Side::Attacker => 'A',
            Side::Defender => 'D',
        };
        let effect = match self.effect {
            Effect::Retreat => 'R',
            Effect::Disorganised => 'D',
            Effect::Test => 'T',
            Effect::Eliminated => 'E',
        };
        format!("{side}{effect}")
    }
}

const fn cell(side: Side, effect: Effect) -> MeleeResult {
    MeleeResult { side, effect }
}

use Effect::{Disorganised as D, Eliminated as E, Retreat as R, Test as T};
use Side::{Attacker as A, Defender as F};

/// The melee table (AB-05): rows by die 1 to 8, columns 1/3 … 4/1.
pub const MELEE: [[MeleeResult; 8]; 8] = [
    [cell(A, E), cell(A, D), cell(A, D), cell(A, T), cell(A, R), cell(F, R), cell(F, R), cell(F, T)],
    [cell(A, D), cell(A, D), cell(A, T), cell(A, R), cell(F, R), cell(F, R), cell(F, T), cell(F, T)],
    [cell(A, D), cell(A, T), cell(A, R), cell(F, R), cell(F, R), cell(F, T), cell(F, T), cell(F, D)],
    [cell(A, T), cell(A, R), cell(A, R), cell(F, R), cell(F, T), cell(F, T), cell(F, D), cell(F, D)],
    [cell(A, R), cell(A, R), cell(F, R), cell(F, T), cell(F, T), cell(F, D), cell(F, D), cell(F, E)],
    [cell(A, R), cell(F, R), cell(F, R), cell(F, T), cell(F, D), cell(F, D), cell(F, E), cell(F, E)],
    [cell(A, R), cell(F, R), cell(F, T), cell(F, D), cell(F, D), cell(F, D), cell(F, E), cell(F, E)],
    [cell(A, R), cell(F, T), cell(F, T), cell(F, D), cell(F, D), cell(F, E), cell(F, E), cell(F, E)],
];

/// The melee table's column heads as the rules print them: `1/3 or less`, `1/2` … `4/1 or more`.
pub fn column_heads() -> Vec<String> {
    let last = COLUMNS.len() - 1;
    COLUMNS
        .iter()
        .enumerate()
        .map(|(i, (a, d))| match i {
            0 => format!("{a}/{d} or less"),
            i if i == last => format!("{a}/{d} or more"),
            _ => format!("{a}/{d}"),
        })
        .collect()
}

/// The column of a melee of `attack` against `defence` combat points, and what is added to
/// the die for every whole step beyond 4/1 (AB-05).
pub fn column(attack: u32, defence: u32) -> (usize, i32) {
    let attack = u64::from(attack);
    let defence = u64::from(defence);
    if defence == 0 {
        // Nobody to stand against: the last column, with nothing beyond it.
        return (COLUMNS.len() - 1, 0);
    }
    let at_least = |(a, d): (u32, u32)| attack * u64::from(d) >= u64::from(a) * defence;
    let index = COLUMNS.iter().rposition(|c| at_least(*c)).unwrap_or(0);
    let beyond = if index == COLUMNS.len() - 1 { (attack / defence).saturating_sub(4) } else { 0 };
    (index, i32::try_from(beyond).unwrap_or(i32::MAX))
}

/// What one supporting unit adds (AB-05): +1 for infantry of 3 or less, +2 for cavalry,
/// elephants and infantry above 3.
pub fn support(infantry: bool, combat_value: u32) -> u32 {
    if infantry && combat_value <= 3 { 1 } else { 2 }
}

/// AB-05: the melee of `attack` (the attacker with its supports) against `defence`, a d6
/// `die` with `die_modifier` (terrain), the attacker's column moved `column_shift` (negative
/// to the left, by terrain).
pub fn melee(attack: u32, defence: u32, die: u8, die_modifier: i32, column_shift: i32) -> MeleeResult {
    let (index, beyond) = column(attack, defence);
    let last = i32::try_from(COLUMNS.len() - 1).unwrap_or(7);
    let shifted = (i32::try_from(index).unwrap_or(last) + column_shift).clamp(0, last);
    let roll = (i32::from(die) + die_modifier + beyond).clamp(1, 8);
    let row = usize::try_from(roll - 1).unwrap_or(0);
    MELEE[row][usize::try_from(shifted).unwrap_or(0)]
}

/// What a shot does (AB-04).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FireResult {
    Miss,
    /// 6 or 7: the target falls back one hex.
    Retreat,
    /// 8 or more: it falls back, then tests its morale.
    RetreatAndTest,
}

/// AB-04: a d6 plus the firing unit's bonus, −1 against a target on higher ground, plus the
/// terrain's firing modifier.
pub fn fire(die: u8, bonus: u32, higher_ground: bool, terrain: i32) -> FireResult {
    let total = i64::from(die) + i64::from(bonus) + i64::from(terrain) - i64::from(higher_ground);
    match total {
        i64::MIN..=5 => FireResult::Miss,
        6 | 7 => FireResult::Retreat,
        _ => FireResult::RetreatAndTest,
    }
}

/// What is added to a morale test's die (AB-06, AB-07): −1 within a friendly leader's command
/// radius (or for a leader testing himself), −1 for an elite unit, +1 for recruits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoraleMods {
    pub steadied: bool,
    pub elite: bool,
    pub recruits: bool,
}

impl MoraleMods {
    pub fn die(self) -> i64 {
        i64::from(self.recruits) - i64::from(self.steadied) - i64::from(self.elite)
    }
}

/// AB-06: a morale test passes on a d6, so modified, at most the unit's combat value.
pub fn morale_passes(die: u8, combat_value: u32, mods: MoraleMods) -> bool {
    i64::from(die) + mods.die() <= i64::from(combat_value)
}

/// AB-02: who wins the initiative: each side's leaders' command values and a d6, +2 with
/// Fury; `None` on a tie (roll again). Returns the winner's index, 0 or 1.
pub fn initiative(command: [u32; 2], dice: [u8; 2], fury: [bool; 2]) -> Option<usize> {
    let score = |i: usize| i64::from(command[i]) + i64::from(dice[i]) + if fury[i] { 2 } else { 0 };
    match score(0).cmp(&score(1)) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// AB-02: Fury is kept as long as its side never loses the initiative.
pub fn fury_kept(had: bool, won: bool) -> bool {
    had && won
}

/// AB-06: a unit disorganised again is eliminated.
pub fn disorganise(already: bool) -> Effect {
    if already { Effect::Eliminated } else { Effect::Disorganised }
}

/// Ars Bellum's terrain (AB-03).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    Plain,
    Camp,
    Road,
    Village,
    Bridge,
    Elevation1,
    Elevation2,
    Forest,
    Dunes,
    Entrenchments,
    Swamp,
    Walls,
    Ford,
    LittleRiver,
    River,
}

/// What a hex's terrain does (AB-03): its cost, and its effects on a melee against a unit in
/// it and on fire at it. [`TerrainEffect::cost`], [`TerrainEffect::melee`] and
/// [`TerrainEffect::firing`] word it for the printed table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainEffect {
    /// Movement points to enter, in halves (a road costs 1, half a point); `None` when
    /// impassable.
    pub half_mp: Option<u32>,
    /// Added to the attacker's die.
    pub attack_die: i32,
    /// Columns the attacker's ratio moves (negative: to the left).
    pub columns: i32,
    /// Added to the firing die.
    pub fire: i32,
    /// For a ford: the column shift counts when the attacker stands in or behind it, not the
    /// defender.
    pub attacker_side: bool,
}

impl TerrainEffect {
    /// "1 MP", "0.5 MP", "impassable".
    pub fn cost(&self) -> String {
        match self.half_mp {
            None => "impassable".to_owned(),
            Some(h) if h % 2 == 0 => format!("{} MP", h / 2),
            Some(h) => format!("{}.5 MP", h / 2),
        }
    }

    /// Its effect on a melee: on the attacker's die or the column, and whose hex counts.
    pub fn melee(&self) -> String {
        let whose = if self.attacker_side { " (attacker in or behind it)" } else { " (defender in it)" };
        match (self.half_mp, self.attack_die, self.columns) {
            (None, ..) => "no melee across it".to_owned(),
            (_, 0, 0) => "–".to_owned(),
            (_, d, 0) => format!("{} to the attacker's die{whose}", signed(d)),
            (_, 0, c) => format!("{} column{} for the attacker{whose}", signed(c), if c.abs() == 1 { "" } else { "s" }),
            (_, d, c) => format!("{} to the die, {} columns{whose}", signed(d), signed(c)),
        }
    }

    /// Its effect on fire at a unit in it.
    pub fn firing(&self) -> String {
        if self.fire == 0 { "–".to_owned() } else { format!("{} to the firing die", signed(self.fire)) }
    }
}

/// `−1`, `+2`: a signed number with a true minus sign.
pub(crate) fn signed(n: i32) -> String {
    if n < 0 { format!("\u{2212}{}", n.unsigned_abs()) } else { format!("+{n}") }
}

impl Terrain {
    pub const ALL: [Terrain; 15] = [
        Terrain::Plain,
        Terrain::Camp,
        Terrain::Road,
        Terrain::Village,
        Terrain::Bridge,
        Terrain::Elevation1,
        Terrain::Elevation2,
        Terrain::Forest,
        Terrain::Dunes,
        Terrain::Entrenchments,
        Terrain::Swamp,
        Terrain::Walls,
        Terrain::Ford,
        Terrain::LittleRiver,
        Terrain::River,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plain => "Plain",
            Terrain::Camp => "Camp",
            Terrain::Road => "Road",
            Terrain::Village => "Village",
            Terrain::Bridge => "Bridge",
            Terrain::Elevation1 => "Elevation, level 1",
            Terrain::Elevation2 => "Elevation, level 2",
            Terrain::Forest => "Forest",
            Terrain::Dunes => "Dunes",
            Terrain::Entrenchments => "Entrenchments",
            Terrain::Swamp => "Swamp",
            Terrain::Walls => "Walls",
            Terrain::Ford => "Ford",
            Terrain::LittleRiver => "Little river",
            Terrain::River => "River",
        }
    }

    /// The terrain table (AB-03). "Village, Bridge … −2/+1" on firing is read as −2 for a
    /// village and +1 for a bridge.
    pub fn effect(self) -> TerrainEffect {
        let t = |half_mp: Option<u32>, attack_die: i32, columns: i32, fire: i32| TerrainEffect {
            half_mp,
            attack_die,
            columns,
            fire,
            attacker_side: false,
        };
        match self {
            Terrain::Plain | Terrain::Camp => t(Some(2), 0, 0, 0),
            Terrain::Road => t(Some(1), 0, 0, 0),
            Terrain::Village => t(Some(2), -2, 0, -2),
            Terrain::Bridge => t(Some(2), -2, 0, 1),
            Terrain::Elevation1 => t(Some(2), -2, 0, -1),
            Terrain::Forest | Terrain::Dunes => t(Some(4), 0, -1, -1),
            Terrain::Entrenchments => t(Some(2), 0, -1, -1),
            Terrain::Elevation2 => t(Some(4), 0, -2, -2),
            Terrain::Swamp => t(Some(4), 0, -2, 0),
            Terrain::Walls => t(Some(2), 0, -2, -2),
            Terrain::Ford => TerrainEffect { attacker_side: true, ..t(Some(2), 0, -1, 1) },
            Terrain::LittleRiver => t(Some(4), 0, 0, 1),
            Terrain::River => t(None, 0, 0, 0),
        }
    }
}

/// AB-08: the least number of a side's `counters` the enemy must eliminate for a major
/// victory: more than `percent` per cent of them (the rulebook's Arretium: 7 of 13 at 50, 8 of
/// 21 at 35).
pub fn units_to_eliminate(counters: u32, percent: u32) -> u32 {
    let share = u64::from(counters) * u64::from(percent);
    u32::try_from(share / 100 + 1).unwrap_or(u32::MAX)
}

/// How an Ars Bellum battle ends (AB-08).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Victory {
    /// Neither side reached its number, or both did in the same turn.
    None,
    Major {
        winner: usize,
    },
    /// Major, and the loser's commander-in-chief among its eliminated counters.
    Decisive {
        winner: usize,
    },
}

/// AB-08: the victory, from the counters each side lost, the number the enemy had to reach
/// against it, and whether its commander-in-chief was eliminated.
pub fn victory(eliminated: [u32; 2], to_eliminate: [u32; 2], chief_lost: [bool; 2]) -> Victory {
    let broken = [eliminated[0] >= to_eliminate[0], eliminated[1] >= to_eliminate[1]];
    match broken {
        [true, false] if chief_lost[0] => Victory::Decisive { winner: 1 },
        [true, false] => Victory::Major { winner: 1 },
        [false, true] if chief_lost[1] => Victory::Decisive { winner: 0 },
        [false, true] => Victory::Major { winner: 0 },
        _ => Victory::None,
    }
}
