//! A la Charge! (Basileus)'s combat rules as functions (AC-04 charge and missile units, AC-05
//! the combat results table, AC-06 retreats and the morale test, AC-07 the army morale
//! threshold): what the umpire's sheet prints and what the result form checks a reported
//! battle against.
//!
//! The combat results table is the rules' own, printed in them; nothing here is reconstructed.
//!
//! Readings of the rules this module makes:
//! - A ratio goes to the largest column not above it ("always rounded in favour of the
//!   defender"); anything below 1/1.5 is the first column, "1/2 or less", anything from 4/1
//!   up the last, "4/1 or more".
//! - Terrain adds to the die (village, marsh, bridge, stream) or moves the column left for
//!   the defender (woods, hill, vineyard, palisade); a column moved past the first stays
//!   there. A die modified above 7 reads as "7 or more", below 1 as 1.
//! - A "test at −1" on a retreat (AC-06) takes 1 from the unit's morale value.

use serde::{Deserialize, Serialize};

/// The table's columns, attacker to defender in half-points: 1/2, 1/1.5, 1/1, 1.5/1, 2/1,
/// 3/1, 4/1.
pub const COLUMNS: [(u32, u32); 7] = [(1, 2), (2, 3), (1, 1), (3, 2), (2, 1), (3, 1), (4, 1)];

pub use crate::ars_bellum::Side;

/// One cell of the combat results table: `D1R`, `AT`, `A2` …
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatResult {
    pub side: Side,
    /// Steps lost (1 or 2).
    pub losses: u8,
    /// All the side's units in the combat fall back one hex.
    pub retreat: bool,
    /// They test their morale.
    pub test: bool,
}

impl CombatResult {
    /// The table's code.
    pub fn code(self) -> String {
        let mut s = String::from(match self.side {
            Side::Attacker => "A",
            Side::Defender => "D",
        });
        if self.losses > 0 {
            s.push_str(&self.losses.to_string());
        }
        if self.test {
            s.push('T');
        }
        if self.retreat {
            s.push('R');
        }
        s
    }
}

const fn r(side: Side, losses: u8, retreat: bool, test: bool) -> CombatResult {
    CombatResult { side, losses, retreat, test }
}

const A: Side = Side::Attacker;
const D: Side = Side::Defender;

/// The combat results table (AC-05): rows by die 1 to 7 or more, columns 1/2 … 4/1.
pub const CRT: [[CombatResult; 7]; 7] = [
    [
        r(D, 0, true, false),
        r(D, 0, false, true),
        r(D, 1, false, false),
        r(D, 1, false, false),
        r(D, 1, true, false),
        r(D, 2, false, false),
        r(D, 2, false, false),
    ],
    [
        r(D, 0, true, false),
        r(D, 0, true, false),
        r(D, 0, false, true),
        r(D, 1, false, false),
        r(D, 1, false, false),
        r(D, 1, false, false),
        r(D, 2, false, false),
    ],
    [
        r(A, 0, true, false),
        r(A, 0, true, false),
        r(D, 0, true, false),
        r(D, 0, false, true),
        r(D, 0, false, true),
        r(D, 0, false, true),
        r(D, 1, false, false),
    ],
    [
        r(A, 0, false, true),
        r(A, 0, false, true),
        r(A, 0, true, false),
        r(D, 0, true, false),
        r(D, 0, false, true),
        r(D, 0, false, true),
        r(D, 0, false, true),
    ],
    [
        r(A, 1, false, false),
        r(A, 0, false, true),
        r(A, 0, false, true),
        r(A, 0, true, false),
        r(D, 0, true, false),
        r(D, 0, true, false),
        r(D, 0, true, false),
    ],
    [
        r(A, 1, true, false),
        r(A, 1, false, false),
        r(A, 1, false, false),
        r(A, 0, false, true),
        r(A, 0, true, false),
        r(A, 0, true, false),
        r(D, 0, true, false),
    ],
    [
        r(A, 2, false, false),
        r(A, 1, true, false),
        r(A, 1, true, false),
        r(A, 0, false, true),
        r(A, 0, false, true),
        r(A, 0, false, true),
        r(A, 0, true, false),
    ],
];

/// The table's column heads as the rules print them: `1/2 or less`, `1/1.5` … `4/1 or more`.
pub fn column_heads() -> Vec<String> {
    let last = COLUMNS.len() - 1;
    COLUMNS
        .iter()
        .enumerate()
        .map(|(i, &(a, d))| {
            let ratio = match (a, d) {
                (2, 3) => "1/1.5".to_owned(),
                (3, 2) => "1.5/1".to_owned(),
                _ => format!("{a}/{d}"),
            };
            match i {
                0 => format!("{ratio} or less"),
                i if i == last => format!("{ratio} or more"),
                _ => ratio,
            }
        })
        .collect()
}

/// The table's rows as the rules print them: the die, 1 to 6, then `7 or more`.
pub fn die_heads() -> Vec<String> {
    (1..=CRT.len()).map(|d| if d == CRT.len() { format!("{d} or more") } else { d.to_string() }).collect()
}

/// The column of `attack` strength points against `defence` (AC-05).
pub fn column(attack: u32, defence: u32) -> usize {
    if defence == 0 {
        return COLUMNS.len() - 1;
    }
    let (attack, defence) = (u64::from(attack), u64::from(defence));
    COLUMNS.iter().rposition(|&(a, d)| attack * u64::from(d) >= u64::from(a) * defence).unwrap_or(0)
}

/// AC-05: the combat of `attack` against `defence` strength points, a d6 `die` with the
/// terrain's `die_modifier`, the column moved `column_shift` (negative to the left).
pub fn combat(attack: u32, defence: u32, die: u8, die_modifier: i32, column_shift: i32) -> CombatResult {
    let last = i32::try_from(COLUMNS.len() - 1).unwrap_or(6);
    let col = (i32::try_from(column(attack, defence)).unwrap_or(last) + column_shift).clamp(0, last);
    let row = (i32::from(die) + die_modifier).clamp(1, 7);
    CRT[usize::try_from(row - 1).unwrap_or(0)][usize::try_from(col).unwrap_or(0)]
}

/// AC-04: what a charging cavalry unit adds to its strength in attack (1 or 2 by the colour
/// of its strength); nothing against a unit that may charge too (the counter-charge).
pub fn charge_bonus(bonus: u8, target_charges: bool) -> u32 {
    if target_charges { 0 } else { u32::from(bonus.min(2)) }
}

/// AC-04: a missile unit in hand-to-hand fights one point weaker, never below 1.
pub fn hand_to_hand_strength(strength: u32, missile: bool) -> u32 {
    if missile { strength.saturating_sub(1).max(1) } else { strength }
}

/// What a morale test does (AC-06).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoraleResult {
    /// Less than the morale: nothing.
    Holds,
    /// Equal: the unit falls back one hex.
    Retreats,
    /// Greater: a step lost (eliminated if already reduced).
    Loss,
}

/// AC-06: a d6 against the unit's morale (its strength), +1 with a commander stacked or
/// beside it, less `penalty`.
pub fn morale_test(die: u8, morale: u32, commander: bool, penalty: u32) -> MoraleResult {
    let value = i64::from(morale) + i64::from(commander) - i64::from(penalty);
    match i64::from(die).cmp(&value) {
        std::cmp::Ordering::Less => MoraleResult::Holds,
        std::cmp::Ordering::Equal => MoraleResult::Retreats,
        std::cmp::Ordering::Greater => MoraleResult::Loss,
    }
}

/// What a retreat does, by the retreating unit's situation (AC-06's retreat chart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retreat {
    /// The retreating unit tests its morale at this penalty.
    pub test_at: Option<u32>,
    /// The adjacent friendly unit is pushed back and tests its morale.
    pub pushes_friend: bool,
    /// The unit takes a loss instead.
    pub loss: bool,
}

/// AC-06: the retreat chart, in its order of priority.
pub fn retreat(in_enemy_zoc: bool, friend_adjacent: bool, can_move: bool) -> Retreat {
    match (can_move, in_enemy_zoc, friend_adjacent) {
        (false, _, _) | (true, true, false) => Retreat { test_at: None, pushes_friend: false, loss: true },
        (true, false, false) => Retreat { test_at: None, pushes_friend: false, loss: false },
        (true, false, true) => Retreat { test_at: None, pushes_friend: true, loss: false },
        (true, true, true) => Retreat { test_at: Some(1), pushes_friend: true, loss: false },
    }
}

/// AC-07: an army's losses against its morale threshold: the strength of its eliminated
/// units, its commander's strength + 4 if he fell, each baggage's strength + 2.
pub fn army_losses(eliminated: u32, commander: Option<u32>, baggage: &[u32]) -> u32 {
    let commander = commander.map_or(0, |s| s.saturating_add(4));
    let baggage = baggage.iter().fold(0u32, |t, b| t.saturating_add(b.saturating_add(2)));
    eliminated.saturating_add(commander).saturating_add(baggage)
}

/// The outcome of the threshold check (AC-07).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "victory")]
pub enum Victory {
    /// Neither army broke: the scenario's conditions decide at the end.
    None,
    /// One army broke: the other wins a major victory (index of the winner, 0 or 1).
    Major { winner: usize },
    /// Both broke in the same turn: the one past its threshold by less wins a minor victory
    /// (`None` when both are past by as much).
    Minor { winner: Option<usize> },
}

/// AC-07: two armies' losses against their thresholds at the end of a turn.
pub fn victory(losses: [u32; 2], thresholds: [u32; 2]) -> Victory {
    let broke = [losses[0] >= thresholds[0], losses[1] >= thresholds[1]];
    match broke {
        [false, false] => Victory::None,
        [true, false] => Victory::Major { winner: 1 },
        [false, true] => Victory::Major { winner: 0 },
        [true, true] => {
            let past = [losses[0] - thresholds[0], losses[1] - thresholds[1]];
            Victory::Minor {
                winner: match past[0].cmp(&past[1]) {
                    std::cmp::Ordering::Less => Some(0),
                    std::cmp::Ordering::Greater => Some(1),
                    std::cmp::Ordering::Equal => None,
                },
            }
        }
    }
}

/// A la Charge!'s terrain (the terrain effects chart, AC-05).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    Plain,
    Road,
    Village,
    Woods,
    Hill,
    Vineyard,
    Marsh,
    River,
    Mountain,
    Bridge,
    Ford,
    Palisade,
    Stream,
    Slope,
}

impl TerrainEffect {
    /// "1 MP", "+1 MP (0 if road)", "uncrossable".
    pub fn cost(&self) -> String {
        match self.half_mp {
            None => "uncrossable".to_owned(),
            Some(_) => {
                let road = self.road_half_mp.map(|h| format!(" ({} if road)", halves(h))).unwrap_or_default();
                format!("{} MP{road}", self.chart_cost())
            }
        }
    }

    /// The cost as the chart prints it: "1", "0.5", "+1", "1 (0.5 if road)", "uncrossable".
    pub fn chart_cost(&self) -> String {
        match self.half_mp {
            None => "uncrossable".to_owned(),
            Some(h) => {
                let plus = if self.extra { "+" } else { "" };
                format!("{plus}{}", halves(h))
            }
        }
    }

    /// The cost as the chart prints it, what a road makes of it included.
    fn chart_cost_with_road(&self) -> String {
        match (self.half_mp, self.road_half_mp) {
            (Some(_), Some(r)) => format!("{} ({} if road)", self.chart_cost(), halves(r)),
            _ => self.chart_cost(),
        }
    }

    /// Its effects in combat, for the unit defending in it.
    pub fn combat(&self) -> String {
        let mut parts = Vec::new();
        if self.die != 0 {
            let unless = if self.not_with_shots { " (not if any unit fires)" } else { "" };
            parts.push(format!("{:+} to the die{unless}", self.die));
        }
        if self.columns != 0 {
            parts.push(format!("{} column for the defender", crate::ars_bellum::signed(self.columns)));
        }
        if self.no_retreat {
            parts.push("no retreat into it".to_owned());
        }
        if self.holds_retreats {
            parts.push("cancels retreats from a morale test".to_owned());
        }
        if parts.is_empty() { "–".to_owned() } else { parts.join("; ") }
    }

    /// Its effects in combat as the chart prints them.
    fn chart_combat(&self) -> String {
        let mut parts = Vec::new();
        if self.die != 0 {
            let unless = if self.not_with_shots { " (unless at least 1 shot)" } else { "" };
            parts.push(format!("{} on the die roll{unless}", crate::ars_bellum::signed(self.die)));
        }
        if self.columns != 0 {
            let n = self.columns.unsigned_abs();
            parts.push(format!(
                "{} column{} for the unit in defence",
                crate::ars_bellum::signed(self.columns),
                if n == 1 { "" } else { "s" }
            ));
        }
        if self.no_retreat {
            parts.push("No retreat possible".to_owned());
        }
        if self.holds_retreats {
            parts.push("cancels out the retreats from a morale test".to_owned());
        }
        if parts.is_empty() { "–".to_owned() } else { parts.join(", ") }
    }
}

/// A number of half movement points: "1", "0.5", "2".
fn halves(h: u32) -> String {
    if h.is_multiple_of(2) { (h / 2).to_string() } else { format!("{}.5", h / 2) }
}

/// The terrain effects chart as the rules print it, row by row: the terrain (those the chart
/// puts on one row together), its cost per hex, its effects in combat. Fortifications come
/// before bridges, as in the rules, with their cells left empty as the rules leave them: the
/// scenario says what its fortifications do.
pub fn terrain_chart() -> Vec<[String; 3]> {
    let mut rows: Vec<[String; 3]> = Vec::new();
    let mut shared = false;
    for t in Terrain::ALL {
        if t == Terrain::Bridge {
            rows.push(["Fortifications".to_owned(), String::new(), String::new()]);
        }
        let e = t.effect();
        let (cost, combat) = (e.chart_cost_with_road(), e.chart_combat());
        match rows.last_mut() {
            Some(last) if shared && last[1] == cost && last[2] == combat => last[0] = format!("{}, {}", last[0], t.name()),
            _ => rows.push([t.name().to_owned(), cost, combat]),
        }
        // Woods, hills and vineyards share a row, and rivers and mountains: the chart's own
        // rows. Two terrains that merely do the same (a plain and a village apart) do not.
        shared = matches!(t, Terrain::Woods | Terrain::Hill | Terrain::River);
    }
    rows
}

/// What the defender's hex does in combat, and what entering it costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainEffect {
    /// Movement points to enter in halves; for palisades, streams and slopes the extra over
    /// the hex's own; `None` when it cannot be crossed.
    pub half_mp: Option<u32>,
    /// What it costs instead along a road, in halves, where the chart says (bridges, streams
    /// and slopes).
    pub road_half_mp: Option<u32>,
    /// The cost is added to the hex's own rather than replacing it.
    pub extra: bool,
    /// Added to the attacker's die.
    pub die: i32,
    /// Columns the ratio moves for the defender (negative: to the left).
    pub columns: i32,
    /// The die bonus is lost when a shot is part of the attack (bridge, stream).
    pub not_with_shots: bool,
    /// No retreat is possible through it.
    pub no_retreat: bool,
    /// Retreats from a failed morale test are cancelled (palisade).
    pub holds_retreats: bool,
}

impl Terrain {
    pub const ALL: [Terrain; 14] = [
        Terrain::Plain,
        Terrain::Road,
        Terrain::Village,
        Terrain::Woods,
        Terrain::Hill,
        Terrain::Vineyard,
        Terrain::Marsh,
        Terrain::River,
        Terrain::Mountain,
        Terrain::Bridge,
        Terrain::Ford,
        Terrain::Palisade,
        Terrain::Stream,
        Terrain::Slope,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plain => "Plain",
            Terrain::Road => "Road",
            Terrain::Village => "Village",
            Terrain::Woods => "Woods",
            Terrain::Hill => "Hill",
            Terrain::Vineyard => "Vineyard",
            Terrain::Marsh => "Marsh",
            Terrain::River => "River",
            Terrain::Mountain => "Mountain",
            Terrain::Bridge => "Bridge",
            Terrain::Ford => "Ford",
            Terrain::Palisade => "Palisade",
            Terrain::Stream => "Stream",
            Terrain::Slope => "Slope",
        }
    }

    /// The terrain effects chart.
    pub fn effect(self) -> TerrainEffect {
        let t = |half_mp: Option<u32>, die: i32, columns: i32| TerrainEffect {
            half_mp,
            road_half_mp: None,
            extra: false,
            die,
            columns,
            not_with_shots: false,
            no_retreat: false,
            holds_retreats: false,
        };
        match self {
            Terrain::Plain => t(Some(2), 0, 0),
            Terrain::Road => t(Some(1), 0, 0),
            Terrain::Village => t(Some(2), 1, 0),
            Terrain::Woods | Terrain::Hill | Terrain::Vineyard => t(Some(4), 0, -1),
            Terrain::Marsh => t(Some(4), 1, 0),
            Terrain::River | Terrain::Mountain => TerrainEffect { no_retreat: true, ..t(None, 0, 0) },
            Terrain::Bridge => TerrainEffect { not_with_shots: true, road_half_mp: Some(1), ..t(Some(2), 1, 0) },
            Terrain::Ford => t(Some(4), 0, 0),
            Terrain::Palisade => TerrainEffect { extra: true, holds_retreats: true, ..t(Some(2), 0, -1) },
            Terrain::Stream => TerrainEffect { extra: true, not_with_shots: true, road_half_mp: Some(0), ..t(Some(2), 1, 0) },
            Terrain::Slope => TerrainEffect { extra: true, road_half_mp: Some(0), ..t(Some(2), 0, 0) },
        }
    }
}

/// AC-07: an army's morale threshold, `percent` per cent of its `whole` strength counted as
/// its losses are counted (commanders +4, baggage +2), rounded up.
pub fn morale_threshold(whole: u32, percent: u32) -> u32 {
    let share = u64::from(whole) * u64::from(percent);
    u32::try_from(share.div_ceil(100)).unwrap_or(u32::MAX)
}
