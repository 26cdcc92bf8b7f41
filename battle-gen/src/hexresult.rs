//! A hex wargame's result back into the campaign: the counters each side lost, read against
//! the counters the pack printed, become each command's losses in its own troops.
//!
//! The mapping, written down:
//!
//! - A command's unit counters stand for its elements in equal shares ([`crate::hexunits`]).
//!   A counter eliminated is one share lost; in A la Charge! a two-step counter that lost one
//!   step is half a share, and one that lost both a whole one.
//! - A command that lost `L` shares of its `k` loses `L / k` of its elements (besides its
//!   general's own), rounded to the nearest element, halves up, shared over its kinds of
//!   troops by largest remainder: those are its elements destroyed.
//! - A leader or commander counter eliminated is its general killed.
//! - The winner, the side that held the field, the roads still open to the loser and a neutral
//!   city attacked are given as for any tabletop result; the campaign's rules take it from
//!   there (Magna Graecia: [`crate::magna_graecia::result_order`]).

use referee_campaign::SideId;
use serde::{Deserialize, Serialize};

use crate::hexmap::HexSystem;
use crate::hexpack::HexTabletop;
use crate::hexunits::{CounterRole, HexArmy, share};
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
    #[error("the {side} are not in battle {battle}")]
    NoSide { side: SideId, battle: u32 },
    #[error("the {side} have no counter {counter}: theirs are numbered 1 to {count}")]
    NoCounter { side: String, counter: u32, count: usize },
    #[error("counter {counter} of the {side} ({what}) has {steps} step{}, not {lost}", if *steps == 1 { "" } else { "s" })]
    Steps { side: String, counter: u32, what: String, steps: u8, lost: u32 },
    #[error("the {side} are listed twice")]
    SideTwice { side: String },
}

/// Steps a counter has: two with a back in A la Charge!; one otherwise (in Ars Bellum a counter
/// is lost when eliminated, whatever its back).
fn steps(system: HexSystem, reduced: Option<u32>) -> u8 {
    match (system, reduced) {
        (HexSystem::ALaCharge, Some(_)) => 2,
        _ => 1,
    }
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
        let (u, scaling) = umpire
            .sides
            .iter()
            .zip(&scales)
            .find(|(u, _)| u.side.id == r.side)
            .ok_or_else(|| HexResultError::NoSide { side: r.side.clone(), battle: result.battle })?;
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
        let has = steps(system, c.reduced);
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
    let halves = |i: usize| lost[i] * if steps(system, army.counters[i].reduced) == 2 { 1 } else { 2 };
    let chiefs_lost: Vec<&str> = army
        .counters
        .iter()
        .enumerate()
        .filter(|(i, c)| matches!(c.role, CounterRole::Leader { .. }) && halves(*i) >= 2)
        .map(|(_, c)| c.line.as_str())
        .collect();
    let mut out = Vec::new();
    for a in &army.accounts {
        let halves: u32 = a
            .counters
            .iter()
            .filter_map(|&n| usize::try_from(n).ok()?.checked_sub(1))
            .filter(|&i| army.counters.get(i).is_some_and(|c| c.role == CounterRole::Unit))
            .map(halves)
            .sum();
        // `halves / 2` of `units` shares, of `elements` elements, to the nearest (halves up).
        let destroyed = if a.units == 0 {
            0
        } else {
            let (h, e, k) = (u64::from(halves), u64::from(a.elements), u64::from(a.units));
            u32::try_from((h * e + k) / (2 * k)).unwrap_or(u32::MAX).min(a.elements)
        };
        let general_killed = chiefs_lost.contains(&a.line.as_str());
        if destroyed == 0 && !general_killed {
            continue;
        }
        let weights: Vec<u32> = a.groups.iter().map(|g| g.count).collect();
        let per = share(&weights, destroyed);
        let destroyed: Vec<TroopGroup> =
            a.groups.iter().zip(per).filter(|(_, n)| *n > 0).map(|(g, n)| TroopGroup { count: n, kind: g.kind.clone() }).collect();
        out.push(LineResult { line: a.line.clone(), destroyed, general_killed, ..LineResult::default() });
    }
    Ok(out)
}
