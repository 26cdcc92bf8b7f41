//! The arithmetic of a land battle (BE-17 … BE-23), on plain lists of units: combat factors,
//! die modifiers, what a result costs, whether an owner's share of losses is lawful, a
//! suggested share, and the pursuit factor. The battle kept in a campaign
//! ([`super::battle`]) and the odds drawn before it ([`super::odds`]) both count with these,
//! so the program's odds are the rules' odds.
//!
//! Readings of the rules this module makes:
//! - "Half of the losses from cavalry" at 50 % or more is at least half the points, rounded
//!   up, from cavalry units, or every point of cavalry the side has in the fight if that is
//!   less (BE-19).
//! - A cataphract unit of morale A or B pursues once, of morale C or D twice (BE-22 names
//!   cataphract A and C only). Disordered cavalry does not pursue: it may not fight (BE-20).
//! - The +1 for morale A (BE-18) counts units still fighting: not disordered, not destroyed.

use serde::{Deserialize, Serialize};

use super::pieces::{Morale, Unit, UnitKind};
use super::tables::{CombatResult, percent_of};

/// The two halves of a passage of arms (BE-17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Missile units only.
    Fire,
    /// Every unit still fighting.
    Melee,
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Fire => "missile fire",
            Stage::Melee => "melee",
        }
    }
}

/// One unit in a battle, with whether it is in the disordered box (BE-20).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub unit: Unit,
    pub disordered: bool,
}

impl Fighter {
    /// Still in the fight: not disordered, not destroyed.
    pub fn fighting(&self) -> bool {
        !self.disordered && self.unit.value > 0
    }
}

/// What a side must take after a roll against it: points, and perhaps a morale check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owed {
    pub percent: u8,
    pub points: u32,
    /// At least this many of the points come from cavalry (BE-19).
    pub from_cavalry: u32,
    /// `Some(n)`: every unit still fighting checks morale at −n (BE-19, BE-20).
    pub check: Option<u8>,
    /// Losses of pursuit: every unit of the side counts, disordered ones too, and nobody
    /// checks morale (BE-22).
    pub pursuit: bool,
}

/// The combat factor a side rolls with in a stage (BE-18): missile units in fire, every
/// unit in melee, cataphracts ×3 and heavy cavalry ×2, disordered units not at all.
pub fn combat_factor(units: &[Fighter], stage: Stage) -> u32 {
    units.iter().filter(|f| f.fighting() && (stage == Stage::Melee || f.unit.missile)).map(|f| f.unit.factor()).sum()
}

/// Whether a unit of morale A is still fighting (BE-18: +1 to the die).
pub fn has_morale_a(units: &[Fighter]) -> bool {
    units.iter().any(|f| f.fighting() && f.unit.morale == Morale::A)
}

/// The points a percentage is taken from: unmodified values of the units still fighting, or
/// of every unit in pursuit (BE-19, BE-22).
pub fn exposed_points(units: &[Fighter], pursuit: bool) -> u32 {
    units.iter().filter(|f| if pursuit { f.unit.value > 0 } else { f.fighting() }).map(|f| u32::from(f.unit.value)).sum()
}

/// Cavalry points among those exposed.
fn exposed_cavalry(units: &[Fighter], pursuit: bool) -> u32 {
    units
        .iter()
        .filter(|f| f.unit.is_cavalry() && if pursuit { f.unit.value > 0 } else { f.fighting() })
        .map(|f| u32::from(f.unit.value))
        .sum()
}

/// What `result` costs the side with `units` (BE-19).
pub fn owed(units: &[Fighter], result: CombatResult) -> Owed {
    let points = percent_of(exposed_points(units, false), result.percent);
    let from_cavalry = if result.percent >= 50 { points.div_ceil(2).min(exposed_cavalry(units, false)) } else { 0 };
    Owed { percent: result.percent, points, from_cavalry, check: result.morale_check, pursuit: false }
}

/// What a pursuit at `percent` costs the retreating side (BE-22).
pub fn owed_in_pursuit(units: &[Fighter], percent: u8) -> Owed {
    Owed { percent, points: percent_of(exposed_points(units, true), percent), from_cavalry: 0, check: None, pursuit: true }
}

/// The pursuer's factor (BE-22): its cavalry still fighting, heavy cavalry and steady
/// cataphracts once, medium cavalry and shaky cataphracts twice, light cavalry three times.
pub fn pursuit_factor(units: &[Fighter]) -> u32 {
    units
        .iter()
        .filter(|f| f.fighting())
        .map(|f| {
            let v = u32::from(f.unit.value);
            match (f.unit.kind, f.unit.morale) {
                (UnitKind::HeavyCavalry, _) | (UnitKind::Cataphract, Morale::A | Morale::B) => v,
                (UnitKind::MediumCavalry, _) | (UnitKind::Cataphract, Morale::C | Morale::D) => v * 2,
                (UnitKind::LightCavalry, _) => v * 3,
                (UnitKind::Infantry, _) => 0,
            }
        })
        .sum()
}

/// Checks an owner's share of `owed` among `units`: each entry a unit's index and the points
/// it loses. Returns the share summed per unit, or why it is not lawful.
pub fn check_share(units: &[Fighter], owed: &Owed, share: &[(usize, u8)]) -> Result<Vec<(usize, u8)>, String> {
    let mut per: std::collections::BTreeMap<usize, u32> = std::collections::BTreeMap::new();
    for &(i, p) in share {
        let Some(f) = units.get(i) else {
            return Err(format!("the force has no unit {}; its units are numbered 1 to {}", i.saturating_add(1), units.len()));
        };
        if p == 0 {
            return Err(format!("unit {} is named with no points", i + 1));
        }
        if !owed.pursuit && f.disordered {
            return Err(format!("unit {} ({}) is disordered and takes no losses until a pursuit (BE-20)", i + 1, f.unit));
        }
        let sum = per.entry(i).or_default();
        *sum = sum.saturating_add(u32::from(p));
        if *sum > u32::from(f.unit.value) {
            return Err(format!("unit {} ({}) has {}, not {}", i + 1, f.unit, crate::core::words::count(f.unit.value, "point"), *sum));
        }
    }
    let total: u32 = per.values().sum();
    if total != owed.points {
        return Err(format!("{} points are owed and {total} were named", owed.points));
    }
    let cavalry: u32 = per.iter().filter(|(i, _)| units[**i].unit.is_cavalry()).map(|(_, p)| *p).sum();
    if cavalry < owed.from_cavalry {
        return Err(format!(
            "at {} % or more, half the losses come from cavalry: {} of the {} points, and {cavalry} were named",
            50, owed.from_cavalry, owed.points
        ));
    }
    Ok(per.into_iter().map(|(i, p)| (i, u8::try_from(p).unwrap_or(u8::MAX))).collect())
}

/// A lawful share of `owed` that keeps as much fighting strength as it can: the cavalry
/// owed first from the weakest-multiplied cavalry, then the rest from the units whose points
/// are worth least in combat (infantry and medium cavalry before heavy cavalry and
/// cataphracts), the smallest units first so that fewer units are left weakened. The app
/// offers it as a first draft; the odds use it for both sides.
pub fn suggested_share(units: &[Fighter], owed: &Owed) -> Vec<(usize, u8)> {
    let eligible = |f: &Fighter| f.unit.value > 0 && (owed.pursuit || !f.disordered);
    let mut left: Vec<u32> = units.iter().map(|f| if eligible(f) { u32::from(f.unit.value) } else { 0 }).collect();
    let mut order: Vec<usize> = (0..units.len()).filter(|&i| left[i] > 0).collect();
    // Disordered units (pursuit only) first: they are out of the fight anyway.
    order.sort_by_key(|&i| (!units[i].disordered, units[i].unit.multiplier(), units[i].unit.value, i));
    let mut taken = vec![0u32; units.len()];
    let take = |i: usize, want: u32, taken: &mut Vec<u32>, left: &mut Vec<u32>| {
        let t = want.min(left[i]);
        left[i] -= t;
        taken[i] += t;
        t
    };
    let mut cavalry_due = owed.from_cavalry;
    for &i in order.iter().filter(|&&i| units[i].unit.is_cavalry()) {
        if cavalry_due == 0 {
            break;
        }
        cavalry_due -= take(i, cavalry_due, &mut taken, &mut left);
    }
    let mut rest = owed.points.saturating_sub(owed.from_cavalry - cavalry_due);
    for &i in &order {
        if rest == 0 {
            break;
        }
        rest -= take(i, rest, &mut taken, &mut left);
    }
    taken.iter().enumerate().filter(|(_, t)| **t > 0).map(|(i, t)| (i, u8::try_from(*t).unwrap_or(u8::MAX))).collect()
}

/// The die modifier of a side in fire or melee (BE-18, BE-23): its commander's tactical
/// rating, +1 with a morale-A unit fighting, −1 in mountains, −1 if ambushed.
pub fn die_modifiers(tactical: u8, units: &[Fighter], mountains: bool, ambushed: bool) -> Vec<(i32, &'static str)> {
    let mut m = Vec::new();
    if tactical > 0 {
        m.push((i32::from(tactical), "tactical rating"));
    }
    if has_morale_a(units) {
        m.push((1, "a morale-A unit"));
    }
    if mountains {
        m.push((-1, "mountains"));
    }
    if ambushed {
        m.push((-1, "ambushed"));
    }
    m
}

/// Applies a share of losses to `units`.
pub fn apply_share(units: &mut [Fighter], share: &[(usize, u8)]) {
    for &(i, p) in share {
        if let Some(f) = units.get_mut(i) {
            f.unit.value = f.unit.value.saturating_sub(p);
        }
    }
}

/// Whether every unit of the side is destroyed.
pub fn destroyed(units: &[Fighter]) -> bool {
    units.iter().all(|f| f.unit.value == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belisarius::pieces::parse_units;

    fn force(kind: UnitKind, text: &str) -> Vec<Fighter> {
        parse_units(kind, text).unwrap().into_iter().map(|unit| Fighter { unit, disordered: false }).collect()
    }

    /// BE-18: cataphracts count three times, heavy cavalry twice; fire counts missile units.
    #[test]
    fn be_18_factors_multiply_cataphracts_and_heavy_cavalry() {
        let mut units = force(UnitKind::Cataphract, "2A");
        units.extend(force(UnitKind::HeavyCavalry, "3*B"));
        units.extend(force(UnitKind::Infantry, "4C"));
        assert_eq!(combat_factor(&units, Stage::Melee), 6 + 6 + 4);
        assert_eq!(combat_factor(&units, Stage::Fire), 6);
        units[1].disordered = true;
        assert_eq!(combat_factor(&units, Stage::Fire), 0, "BE-20: disordered units do not fire");
        assert_eq!(die_modifiers(2, &units, true, false), vec![(2, "tactical rating"), (1, "a morale-A unit"), (-1, "mountains")]);
    }

    /// BE-19: half the losses from cavalry at 50 % and more, the percentage rounded up.
    #[test]
    fn be_19_half_from_cavalry_at_fifty_percent() {
        let mut units = force(UnitKind::HeavyCavalry, "3B");
        units.extend(force(UnitKind::Infantry, "4C, 2D"));
        let o = owed(&units, CombatResult { percent: 50, morale_check: Some(1) });
        assert_eq!((o.points, o.from_cavalry), (5, 3), "50 % of 9 is 4.5, rounded up; half of 5 rounded up");
        assert!(check_share(&units, &o, &[(1, 4), (2, 1)]).unwrap_err().contains("half the losses come from cavalry"));
        assert_eq!(check_share(&units, &o, &[(0, 3), (1, 2)]).unwrap(), vec![(0, 3), (1, 2)]);
        let s = suggested_share(&units, &o);
        assert!(check_share(&units, &o, &s).is_ok(), "{s:?}");
        let q = owed(&units, CombatResult { percent: 25, morale_check: None });
        assert_eq!((q.points, q.from_cavalry), (3, 0));
    }

    /// BE-20, BE-22: disordered units take no losses in the fight, but do in pursuit.
    #[test]
    fn be_22_pursuit_counts_the_disordered() {
        let mut units = force(UnitKind::Infantry, "4C, 4C");
        units[0].disordered = true;
        let o = owed(&units, CombatResult { percent: 25, morale_check: None });
        assert_eq!(o.points, 1);
        assert!(check_share(&units, &o, &[(0, 1)]).unwrap_err().contains("disordered"));
        let p = owed_in_pursuit(&units, 25);
        assert_eq!(p.points, 2);
        assert!(check_share(&units, &p, &[(0, 2)]).is_ok());
        let mut cav = force(UnitKind::LightCavalry, "2C");
        cav.extend(force(UnitKind::MediumCavalry, "2C"));
        cav.extend(force(UnitKind::Cataphract, "1A, 1C"));
        cav.extend(force(UnitKind::HeavyCavalry, "2B"));
        cav.extend(force(UnitKind::Infantry, "5B"));
        assert_eq!(pursuit_factor(&cav), 6 + 4 + 1 + 2 + 2);
    }
}
