//! A hex wargame's result back into the campaign: the counters each side lost, read against
//! the counters the pack printed, become each command's losses in its own troops.
//!
//! The mapping, written down:
//!
//! - Each unit counter stands for an equal share of its own kind's elements in its command
//!   ([`crate::hexunits`]). A counter eliminated is its share lost; in A la Charge! a two-step
//!   counter that lost one step is half its share, and one that lost both the whole of it.
//! - A kind that lost `L` shares of its `k` counters loses `L / k` of its elements, rounded to
//!   the nearest element, halves up. A kind too small for a counter of its own loses the same
//!   part of its elements as its command's counters lost of theirs.
//! - A leader or commander counter eliminated is its general killed. In Magna Graecia the
//!   side names, for such a command, the command its troops join should the general not be
//!   recovered (`joins`, MG-31).
//! - The winner, the side that held the field, the roads still open to the loser and a neutral
//!   city attacked are given as for any tabletop result; the campaign's rules take it from
//!   there (Magna Graecia: [`crate::magna_graecia::result_order`]).

use std::collections::BTreeMap;

use referee_campaign::ids::SideId;
use serde::{Deserialize, Serialize};

use crate::hexmap::HexSystem;
use crate::hexpack::HexTabletop;
use crate::hexunits::{CounterRole, HexArmy};
use crate::spec::{TroopGroup, UmpireSpec};
use crate::tabletop::{LineResult, SideResult, TableOutcome, Tabletop, TabletopResult};

/// Steps one counter lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterLoss {
    /// Its number on the counter sheet (the side's `No.`).
    pub counter: u32,
    /// Ars Bellum: 1, eliminated. A la Charge!: 1 (turned to its reduced side, or eliminated if
    /// it has one step) or 2 (eliminated).
    #[serde(default = "one")]
    pub steps: u8,
}

fn one() -> u8 {
    1
}

/// One side's part of a hex result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexSideResult {
    pub side: SideId,
    /// Its counters that lost anything; counters not listed lost nothing.
    #[serde(default)]
    pub lost: Vec<CounterLoss>,
    /// Places whose roads were still open to it at the end; `None`: every road was.
    #[serde(default)]
    pub open_exits: Option<Vec<String>>,
    #[serde(default)]
    pub attacked_neutral: bool,
    /// Magna Graecia: for each command whose leader counter was eliminated, the command of the
    /// side its troops join should the general not be recovered (MG-31).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub joins: BTreeMap<String, String>,
}

/// A hex wargame's result, as the result form or a JSON file gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexResult {
    pub battle: u32,
    pub outcome: TableOutcome,
    #[serde(default)]
    pub held_field: Option<SideId>,
    #[serde(default)]
    pub sides: Vec<HexSideResult>,
}

/// Why a hex result does not fit the battle's counters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexResultError {
    #[error("`{side}` did not fight battle {battle}; its sides are {fought}")]
    NoSide { side: String, battle: u32, fought: String },
    #[error("the {side} have no counter {counter}: theirs are numbered 1 to {count}")]
    NoCounter { side: String, counter: u32, count: usize },
    #[error("counter {counter} of the {side} ({what}) has {steps} step{}, not {lost}", if *steps == 1 { "" } else { "s" })]
    Steps { side: String, counter: u32, what: String, steps: u8, lost: u32 },
    #[error("the {side} are listed twice")]
    SideTwice { side: String },
    #[error("the {side} have no command {line} to name a join for")]
    NoLine { side: String, line: String },
    #[error("{line} of the {side} joins {to} only if its leader counter was eliminated — MG-31")]
    JoinUnled { side: String, line: String, to: String },
}

/// The result as the engine-neutral [`TabletopResult`]: each command's elements destroyed and
/// its general killed, worked out from the counters lost against the armies the umpire's pack
/// printed.
pub fn tabletop_result(tabletop: &HexTabletop, umpire: &UmpireSpec, result: &HexResult) -> Result<TabletopResult, HexResultError> {
    let scales = tabletop.scale_battle(&umpire.sides);
    let mut seen: Vec<&SideId> = Vec::new();
    let mut sides = Vec::new();
    for r in &result.sides {
        if seen.contains(&&r.side) {
            return Err(HexResultError::SideTwice { side: r.side.to_string() });
        }
        seen.push(&r.side);
        let (u, scaling) = umpire.sides.iter().zip(&scales).find(|(u, _)| u.side.id == r.side).ok_or_else(|| HexResultError::NoSide {
            side: referee_campaign::core::words::shown(r.side.as_str()),
            battle: result.battle,
            fought: umpire.sides.iter().map(|u| u.side.id.as_str()).collect::<Vec<_>>().join(", "),
        })?;
        let army = tabletop.army(&u.side.name, &u.troops, *scaling);
        let lines = side_losses(tabletop.system, &army, r)?;
        sides.push(SideResult { side: r.side.clone(), lines, open_exits: r.open_exits.clone(), attacked_neutral: r.attacked_neutral });
    }
    Ok(TabletopResult { battle: result.battle, outcome: result.outcome.clone(), held_field: result.held_field.clone(), sides })
}

/// One side's losses, command by command.
fn side_losses(system: HexSystem, army: &HexArmy, r: &HexSideResult) -> Result<Vec<LineResult>, HexResultError> {
    // Steps lost, per counter.
    let mut lost: Vec<u32> = vec![0; army.counters.len()];
    for l in &r.lost {
        let i = usize::try_from(l.counter)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|&i| i < army.counters.len())
            .ok_or_else(|| HexResultError::NoCounter { side: army.side.clone(), counter: l.counter, count: army.counters.len() })?;
        let c = &army.counters[i];
        let has = c.steps(system);
        let total = lost[i] + u32::from(l.steps);
        if l.steps == 0 || total > u32::from(has) {
            return Err(HexResultError::Steps {
                side: army.side.clone(),
                counter: l.counter,
                what: c.describe(system),
                steps: has,
                lost: total,
            });
        }
        lost[i] = total;
    }
    // Halves of a share each counter lost: a two-step counter's step is half, a one-step
    // counter's whole.
    let halves = |i: usize| lost[i] * if army.counters[i].steps(system) == 2 { 1 } else { 2 };
    let chiefs_lost: Vec<&str> = army
        .counters
        .iter()
        .enumerate()
        .filter(|(i, c)| matches!(c.role, CounterRole::Leader { .. }) && halves(*i) >= 2)
        .map(|(_, c)| c.line.as_str())
        .collect();
    if let Some(line) = r.joins.keys().find(|l| !army.accounts.iter().any(|a| &a.line == *l)) {
        return Err(HexResultError::NoLine { side: army.side.clone(), line: line.clone() });
    }
    let mut out = Vec::new();
    // Halves lost by the given counters, and how many counters they are.
    let lost_of = |numbers: &[u32]| -> (u64, u64) {
        let halves: u32 = numbers.iter().filter_map(|&n| usize::try_from(n).ok()?.checked_sub(1)).map(halves).sum();
        (u64::from(halves), u64::try_from(numbers.len()).unwrap_or(u64::MAX))
    };
    // `halves / 2` of `of` shares of `count` elements, to the nearest element, halves up.
    let part = |(halves, of): (u64, u64), count: u32| -> u32 {
        if of == 0 {
            return 0;
        }
        let c = u64::from(count);
        u32::try_from((halves * c + of) / (2 * of)).unwrap_or(u32::MAX).min(count)
    };
    for a in &army.accounts {
        let all: Vec<u32> = a.by_group.iter().flatten().copied().collect();
        let line_lost = lost_of(&all);
        let general_killed = chiefs_lost.contains(&a.line.as_str());
        let destroyed: Vec<TroopGroup> = a
            .groups
            .iter()
            .zip(&a.by_group)
            .map(|(g, mine)| {
                let lost = if mine.is_empty() { part(line_lost, g.count) } else { part(lost_of(mine), g.count) };
                TroopGroup { count: lost, kind: g.kind.clone() }
            })
            .filter(|g| g.count > 0)
            .collect();
        let joins = r.joins.get(&a.line).cloned();
        if let (Some(to), false) = (&joins, general_killed) {
            return Err(HexResultError::JoinUnled { side: army.side.clone(), line: a.line.clone(), to: to.clone() });
        }
        if destroyed.is_empty() && !general_killed {
            continue;
        }
        out.push(LineResult { line: a.line.clone(), destroyed, general_killed, joins, ..LineResult::default() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexunits::HexUnits;
    use crate::spec::{Rank, TroopLine};

    fn army(system: HexSystem) -> HexArmy {
        let groups = vec![TroopGroup { count: 8, kind: "Reg Sp(O)".to_owned() }, TroopGroup { count: 4, kind: "Reg Cv(O)".to_owned() }];
        let line = TroopLine {
            name: "Leptines".to_owned(),
            rank: Rank::SubGeneral,
            general: true,
            leader: "Reg Cv(O)".to_owned(),
            groups,
            count: 13,
            points: 0,
            ally_of: None,
            prices: None,
        };
        HexUnits::embedded().army(system, "Syracuse", &[line], 3)
    }

    fn lost(system: HexSystem, lost: Vec<CounterLoss>) -> Vec<LineResult> {
        let r = HexSideResult { side: SideId::new("syracuse"), lost, open_exits: None, attacked_neutral: false, joins: BTreeMap::new() };
        side_losses(system, &army(system), &r).unwrap()
    }

    /// AB-08, AC-06: 8 spearmen and 4 horse are 2 SPEAR and 1 CAVA (with the leader, counter 1):
    /// the horse counter lost is the 4 horse, not a mix; a spear counter is 4 spearmen; in A la
    /// Charge! a step of a two-step counter is half of it.
    #[test]
    fn ab_08_ac_06_a_counter_lost_is_its_own_kind_of_troops() {
        let a = army(HexSystem::ArsBellum);
        let labels: Vec<&str> = a.counters.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["Leptines", "SPEAR", "SPEAR", "CAVA"]);
        let horse = lost(HexSystem::ArsBellum, vec![CounterLoss { counter: 4, steps: 1 }]);
        assert_eq!(horse[0].destroyed, vec![TroopGroup { count: 4, kind: "Reg Cv(O)".to_owned() }]);
        assert!(!horse[0].general_killed);
        let spear = lost(HexSystem::ArsBellum, vec![CounterLoss { counter: 2, steps: 1 }, CounterLoss { counter: 1, steps: 1 }]);
        assert_eq!(spear[0].destroyed, vec![TroopGroup { count: 4, kind: "Reg Sp(O)".to_owned() }]);
        assert!(spear[0].general_killed);
        // A la Charge!: one step of a spear counter is 2 spearmen; both steps, 4.
        let one = lost(HexSystem::ALaCharge, vec![CounterLoss { counter: 2, steps: 1 }]);
        assert_eq!(one[0].destroyed, vec![TroopGroup { count: 2, kind: "Reg Sp(O)".to_owned() }]);
        let two = lost(HexSystem::ALaCharge, vec![CounterLoss { counter: 2, steps: 1 }, CounterLoss { counter: 2, steps: 1 }]);
        assert_eq!(two[0].destroyed, vec![TroopGroup { count: 4, kind: "Reg Sp(O)".to_owned() }]);
        // Nothing lost, nothing listed.
        assert!(lost(HexSystem::ALaCharge, Vec::new()).is_empty());
    }

    /// MG-31: a side names the command a line's troops join should its general, his leader
    /// counter eliminated, not be recovered; a join for a line the side has not, or whose
    /// leader counter stands, is refused.
    #[test]
    fn mg_31_a_hex_result_names_where_a_lost_generals_men_go() {
        let system = HexSystem::ArsBellum;
        let joins = |line: &str| BTreeMap::from([(line.to_owned(), "Thearides".to_owned())]);
        let side = |lost: Vec<CounterLoss>, joins| HexSideResult {
            side: SideId::new("syracuse"),
            lost,
            open_exits: None,
            attacked_neutral: false,
            joins,
        };
        let leader = vec![CounterLoss { counter: 1, steps: 1 }];
        let lines = side_losses(system, &army(system), &side(leader.clone(), joins("Leptines"))).unwrap();
        assert_eq!(lines[0].joins.as_deref(), Some("Thearides"));
        let err = side_losses(system, &army(system), &side(vec![CounterLoss { counter: 2, steps: 1 }], joins("Leptines"))).unwrap_err();
        assert_eq!(err.to_string(), "Leptines of the Syracuse joins Thearides only if its leader counter was eliminated — MG-31");
        let err = side_losses(system, &army(system), &side(leader, joins("Dionysius"))).unwrap_err();
        assert_eq!(err.to_string(), "the Syracuse have no command Dionysius to name a join for");
    }
}
