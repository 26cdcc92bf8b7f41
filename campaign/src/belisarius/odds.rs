//! The odds of a battle before it is fought (BE-17 … BE-23): the battle played many times
//! over from where it stands, both owners sharing out losses as the program suggests
//! ([`fight::suggested_share`]) and each side breaking off by the policy the referee picks.
//!
//! The count is a simulation, seeded so that the same question always gets the same answer.
//! The exact chain (strengths, disorder and every way to share out losses) is far too wide
//! for a window that must answer at once; 10,000 battles give each probability to within
//! about one percentage point, which is all a referee reads off a bar.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt as _, SeedableRng as _};
use serde::{Deserialize, Serialize};

use super::battle::{Battle, roster, tactical};
use super::fight::{self, Fighter, Owed, Stage};
use super::state::State;
use super::tables::Tables;
use crate::ids::SideId;

/// When a side breaks off, judged at the end of each passage of arms (BE-22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "policy", content = "percent")]
pub enum Policy {
    /// Fights to the end.
    Never,
    /// Breaks off once it has lost at least this share of its strength at the start (in %).
    AtLoss(u8),
}

impl Policy {
    /// The policies the battle window offers.
    pub const CHOICES: [Policy; 4] = [Policy::AtLoss(25), Policy::AtLoss(50), Policy::AtLoss(75), Policy::Never];

    pub fn label(self) -> String {
        match self {
            Policy::Never => "fight to the end".to_owned(),
            Policy::AtLoss(p) => format!("break off at {p} % lost"),
        }
    }
}

/// One side as the simulation knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub side: SideId,
    pub units: Vec<Fighter>,
    pub tactical: u8,
    /// Strength at the battle's start, for the policies and the losses.
    pub start: u32,
}

impl Side {
    /// `side` with `units` in good order and its leader's `tactical` rating, at full strength.
    pub fn fresh(side: SideId, units: Vec<crate::belisarius::pieces::Unit>, tactical: u8) -> Side {
        let units: Vec<Fighter> = units.into_iter().map(|unit| Fighter { unit, disordered: false }).collect();
        let start = units.iter().map(|f| u32::from(f.unit.value)).sum();
        Side { side, units, tactical, start }
    }
}

/// The battle to count: where it stands now. Both forces are face up while a battle lasts
/// (BE-17, BE-53), so a side's packet carries it for its player's odds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    pub sides: [Side; 2],
    /// The index of the ambusher, if it is an ambush.
    pub ambusher: Option<usize>,
    pub mountains: bool,
    pub passage: u32,
    /// The stage to roll next, or `None` at a passage's end.
    pub stage: Option<Stage>,
    /// Losses each side owes from the roll just made and has not shared out yet: they are
    /// the battle's as much as those still to come (BE-19).
    pub owed: [Option<Owed>; 2],
    /// The morale check each side owes once the losses are shared out (BE-20).
    pub checks: [Option<u8>; 2],
    /// The battle is decided: this side broke off and leaves, after the pursuit's losses it
    /// owes, if any (BE-22).
    pub leaving: Option<(usize, Option<Owed>)>,
}

impl Start {
    /// A battle about to begin between `sides`: the first passage's fire to roll, nothing
    /// owed (BE-17).
    pub fn opening(sides: [Side; 2], ambusher: Option<usize>, mountains: bool) -> Start {
        Start { sides, ambusher, mountains, passage: 1, stage: Some(Stage::Fire), owed: [None, None], checks: [None, None], leaving: None }
    }

    /// The battle under way as it stands. Losses still to share out are counted as the
    /// program would suggest sharing them, and the morale checks owed are rolled, before
    /// anything else; a battle decided ends as it must.
    pub fn of(state: &State, battle: &Battle) -> Option<Start> {
        let side = |i: usize| {
            let f = battle.forces.get(i)?;
            Some(Side {
                side: f.side.clone(),
                units: roster(state, f).into_iter().map(|u| u.fighter).collect(),
                tactical: tactical(state, f),
                start: f.start,
            })
        };
        let sides = [side(0)?, side(1)?];
        let ambusher = battle.ambusher.as_ref().and_then(|a| sides.iter().position(|s| &s.side == a));
        let stage = match &battle.step {
            super::battle::Step::Roll => Some(battle.stage),
            // With losses owed, the roll is made: count from the next stage, which is close
            // enough for odds and never pretends the roll had not happened.
            super::battle::Step::Losses { .. } => match battle.stage {
                Stage::Fire => Some(Stage::Melee),
                Stage::Melee => None,
            },
            _ => None,
        };
        let index = |side: &SideId| sides.iter().position(|s| &s.side == side);
        let mut owed = [None, None];
        let mut checks = [None, None];
        let mut leaving = None;
        match &battle.step {
            super::battle::Step::Losses { owed: all, taken } => {
                for (side, o) in all {
                    let Some(i) = index(side) else { continue };
                    if !taken.contains(side) && o.points > 0 {
                        owed[i] = Some(*o);
                    }
                    checks[i] = o.check;
                }
            }
            super::battle::Step::Pursuit { side, owed } => leaving = index(side).map(|i| (i, Some(*owed))),
            super::battle::Step::Retreat { side } => leaving = index(side).map(|i| (i, None)),
            super::battle::Step::Roll | super::battle::Step::Decide => {}
        }
        Some(Start { sides, ambusher, mountains: battle.mountains, passage: battle.passage, stage, owed, checks, leaving })
    }
}

/// How one side fared over all the battles counted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideOdds {
    pub side: SideId,
    /// Battles in which it held the field: its enemy broke off, was destroyed or ambushed.
    pub won: u32,
    /// Battles it left: it broke off (or was ambushed), was pursued and retreated.
    pub retreated: u32,
    pub destroyed: u32,
    /// Combat points lost, on average over the battles.
    pub expected_lost: f64,
}

/// The outcome of many battles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    pub battles: u32,
    pub sides: Vec<SideOdds>,
    /// Both sides broke off at once, or parted after the longest battle counted.
    pub parted: u32,
    pub policies: [Policy; 2],
}

impl Odds {
    /// A share of the battles, in per cent.
    pub fn percent(&self, n: u32) -> f64 {
        if self.battles == 0 { 0.0 } else { f64::from(n) * 100.0 / f64::from(self.battles) }
    }
}

/// Passages after which a battle nobody breaks off is counted as parted.
pub const LONGEST: u32 = 30;

/// Plays the battle `battles` times from `start` with seed `seed`.
pub fn simulate(tables: &Tables, start: &Start, policies: [Policy; 2], battles: u32, seed: u64) -> Odds {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut won = [0u32; 2];
    let mut broke = [0u32; 2];
    let mut destroyed = [0u32; 2];
    let mut lost = [0u64; 2];
    let mut parted = 0u32;
    let mut units: [Vec<Fighter>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..battles {
        units[0].clone_from(&start.sides[0].units);
        units[1].clone_from(&start.sides[1].units);
        match one(tables, start, policies, &mut units, &mut rng) {
            End::Destroyed(gone) => {
                for i in 0..2 {
                    if gone[i] {
                        destroyed[i] += 1;
                    } else {
                        won[i] += 1;
                    }
                }
            }
            End::Retreated(i) => {
                broke[i] += 1;
                won[1 - i] += 1;
            }
            End::Parted => parted += 1,
        }
        for i in 0..2 {
            let now: u32 = units[i].iter().map(|f| u32::from(f.unit.value)).sum();
            lost[i] += u64::from(start.sides[i].start.saturating_sub(now));
        }
    }
    let n = f64::from(battles.max(1));
    let sides = (0..2)
        .map(|i| SideOdds {
            side: start.sides[i].side.clone(),
            won: won[i],
            retreated: broke[i],
            destroyed: destroyed[i],
            // Points lost are at most a few hundred a battle: exact in f64.
            expected_lost: lost[i] as f64 / n,
        })
        .collect();
    Odds { battles, sides, parted, policies }
}

enum End {
    Destroyed([bool; 2]),
    /// This side broke off (or was ambushed), was pursued and left.
    Retreated(usize),
    Parted,
}

fn d6(rng: &mut ChaCha8Rng) -> i32 {
    rng.random_range(1..=6)
}

/// One battle to its end.
fn one(tables: &Tables, start: &Start, policies: [Policy; 2], units: &mut [Vec<Fighter>; 2], rng: &mut ChaCha8Rng) -> End {
    // What the battle owes already comes first.
    if let Some((i, owed)) = &start.leaving {
        if let Some(owed) = owed {
            let share = fight::suggested_share(&units[*i], owed);
            fight::apply_share(&mut units[*i], &share);
        }
        return if fight::destroyed(&units[*i]) { End::Destroyed([*i == 0, *i == 1]) } else { End::Retreated(*i) };
    }
    if start.owed.iter().any(Option::is_some) || start.checks.iter().any(Option::is_some) {
        settle(start, units, start.owed.map(Option::unwrap_or_default), start.checks, rng);
        let gone = [fight::destroyed(&units[0]), fight::destroyed(&units[1])];
        if gone[0] || gone[1] {
            return End::Destroyed(gone);
        }
    }
    let mut passage = start.passage;
    let mut stage = start.stage;
    loop {
        for s in [Stage::Fire, Stage::Melee] {
            match stage {
                Some(Stage::Melee) if s == Stage::Fire => continue,
                None => break,
                _ => {}
            }
            exchange(tables, start, units, s, rng);
            let gone = [fight::destroyed(&units[0]), fight::destroyed(&units[1])];
            if gone[0] || gone[1] {
                return End::Destroyed(gone);
            }
        }
        stage = Some(Stage::Fire);
        // The passage is over.
        if let Some(a) = start.ambusher {
            if passage >= Battle::AMBUSH_PASSAGES {
                let b = 1 - a;
                pursue(tables, start, units, a, rng);
                return if fight::destroyed(&units[b]) { End::Destroyed([a == 1, a == 0]) } else { End::Retreated(b) };
            }
        } else {
            let wants = |i: usize, units: &[Vec<Fighter>; 2]| match policies[i] {
                Policy::Never => false,
                Policy::AtLoss(p) => {
                    let now: u32 = units[i].iter().map(|f| u32::from(f.unit.value)).sum();
                    start.sides[i].start.saturating_sub(now) * 100 >= start.sides[i].start * u32::from(p)
                }
            };
            match (wants(0, units), wants(1, units)) {
                (true, true) => return End::Parted,
                (true, false) | (false, true) => {
                    let quitter = usize::from(wants(1, units));
                    pursue(tables, start, units, 1 - quitter, rng);
                    return if fight::destroyed(&units[quitter]) {
                        End::Destroyed([quitter == 0, quitter == 1])
                    } else {
                        End::Retreated(quitter)
                    };
                }
                (false, false) => {}
            }
            // Both sides wholly disordered can do nothing more to each other.
            if units.iter().all(|u| u.iter().all(|f| !f.fighting())) {
                return End::Parted;
            }
        }
        passage += 1;
        if passage > start.passage + LONGEST {
            return End::Parted;
        }
    }
}

/// Die modifiers of side `i` (BE-18, BE-23).
fn modifier(start: &Start, units: &[Fighter], i: usize) -> i32 {
    let ambushed = start.ambusher.is_some_and(|a| a != i);
    fight::die_modifiers(start.sides[i].tactical, units, start.mountains, ambushed).iter().map(|(v, _)| v).sum()
}

/// Both sides roll a stage at once; both take their losses; both check morale.
fn exchange(tables: &Tables, start: &Start, units: &mut [Vec<Fighter>; 2], stage: Stage, rng: &mut ChaCha8Rng) {
    let mut owed = [Owed::default(); 2];
    for i in 0..2 {
        let factor = fight::combat_factor(&units[i], stage);
        if factor == 0 {
            continue;
        }
        let shift = if start.ambusher == Some(i) { 2 } else { 0 };
        let result = tables.combat(factor, d6(rng) + modifier(start, &units[i], i), shift);
        owed[1 - i] = fight::owed(&units[1 - i], result);
    }
    settle(start, units, owed, owed.map(|o| o.check), rng);
}

/// Both sides take what they owe, as the program suggests, and then check morale (BE-19,
/// BE-20).
fn settle(start: &Start, units: &mut [Vec<Fighter>; 2], owed: [Owed; 2], checks: [Option<u8>; 2], rng: &mut ChaCha8Rng) {
    for i in 0..2 {
        let share = fight::suggested_share(&units[i], &owed[i]);
        fight::apply_share(&mut units[i], &share);
    }
    for i in 0..2 {
        let Some(check) = checks[i] else { continue };
        let bonus = i32::from(start.sides[i].tactical)
            + match start.ambusher {
                Some(a) if a == i => 1,
                Some(_) => -1,
                None => 0,
            }
            - i32::from(check);
        for f in units[i].iter_mut().filter(|f| f.fighting()) {
            if d6(rng) + d6(rng) + bonus < i32::from(f.unit.morale.target()) {
                f.disordered = true;
            }
        }
    }
}

/// Side `pursuer` pursues the other (BE-22).
fn pursue(tables: &Tables, start: &Start, units: &mut [Vec<Fighter>; 2], pursuer: usize, rng: &mut ChaCha8Rng) {
    let factor = fight::pursuit_factor(&units[pursuer]);
    if factor == 0 {
        return;
    }
    let shift = if start.ambusher == Some(pursuer) { 2 } else { 0 };
    let percent = tables.pursuit_percent(factor, d6(rng) + modifier(start, &units[pursuer], pursuer), shift);
    let other = 1 - pursuer;
    let owed = fight::owed_in_pursuit(&units[other], percent);
    let share = fight::suggested_share(&units[other], &owed);
    fight::apply_share(&mut units[other], &share);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belisarius::pieces::{UnitKind, parse_units};

    fn side(id: &str, kind: UnitKind, units: &str, tactical: u8) -> Side {
        Side::fresh(SideId::new(id), parse_units(kind, units).unwrap(), tactical)
    }

    fn start(a: Side, b: Side, ambusher: Option<usize>) -> Start {
        Start::opening([a, b], ambusher, false)
    }

    /// BE-17, BE-22: every battle counted ends one way; the stronger side wins more; the
    /// same question gets the same answer.
    #[test]
    fn be_17_odds_add_up_and_favour_the_stronger() {
        let tables = Tables::embedded();
        let s = start(
            side("byzantines", UnitKind::HeavyCavalry, "4B, 4B, 4B, 3C", 3),
            side("ostrogoths", UnitKind::Infantry, "3C, 3C, 2D", 1),
            None,
        );
        let policies = [Policy::AtLoss(50), Policy::AtLoss(50)];
        let odds = simulate(&tables, &s, policies, 4000, 7);
        let total = odds.sides.iter().map(|o| o.retreated + o.destroyed).sum::<u32>() + odds.parted;
        assert_eq!(total, 4000, "{odds:?}");
        assert!(odds.sides[0].won > odds.sides[1].won * 3, "{odds:?}");
        assert!(odds.sides[1].expected_lost > odds.sides[0].expected_lost, "{odds:?}");
        assert_eq!(simulate(&tables, &s, policies, 4000, 7), odds);
        // Fighting to the end, somebody is destroyed or they part after the longest battle.
        let never = simulate(&tables, &s, [Policy::Never, Policy::Never], 2000, 7);
        assert_eq!(never.sides.iter().map(|o| o.retreated).sum::<u32>(), 0);
    }

    /// BE-19: losses owed and not yet shared out are the battle's: a side owing 6 of its 12
    /// points (50 %) loses at least 6 in every battle counted from there, and its morale
    /// check is rolled before the next stage.
    #[test]
    fn be_19_odds_count_the_losses_owed() {
        let tables = Tables::embedded();
        let mut s = start(
            side("byzantines", UnitKind::HeavyCavalry, "3B, 3B, 3B, 3B", 1),
            side("ostrogoths", UnitKind::Infantry, "2C, 2C", 1),
            None,
        );
        s.stage = Some(Stage::Melee);
        let owed = Owed { percent: 50, points: 6, from_cavalry: 3, check: Some(1), pursuit: false };
        s.owed = [Some(owed), None];
        s.checks = [Some(1), None];
        let policies = [Policy::Never, Policy::Never];
        let odds = simulate(&tables, &s, policies, 2000, 5);
        assert!(odds.sides[0].expected_lost >= 6.0, "the 6 points owed count: {odds:?}");
        let before = simulate(&tables, &Start { owed: [None, None], checks: [None, None], ..s.clone() }, policies, 2000, 5);
        assert!(odds.sides[0].expected_lost > before.sides[0].expected_lost, "{odds:?} against {before:?}");
    }

    /// BE-22: a battle whose loser is leaving ends with that side retreating (or destroyed by
    /// the pursuit it owes), whatever the policies.
    #[test]
    fn be_22_a_decided_battle_ends_as_decided() {
        let tables = Tables::embedded();
        let mut s =
            start(side("byzantines", UnitKind::HeavyCavalry, "3B, 3B", 1), side("ostrogoths", UnitKind::Infantry, "2C, 2C", 1), None);
        s.leaving = Some((1, Some(Owed { percent: 25, points: 1, from_cavalry: 0, check: None, pursuit: true })));
        let odds = simulate(&tables, &s, [Policy::Never, Policy::Never], 500, 1);
        assert_eq!(odds.sides[1].retreated, 500, "{odds:?}");
        assert_eq!(odds.sides[0].won, 500);
        assert!((odds.sides[1].expected_lost - 1.0).abs() < f64::EPSILON, "{odds:?}");
    }

    /// BE-23: an ambush always ends in two passages with the ambushed side retreating or
    /// destroyed.
    #[test]
    fn be_23_an_ambush_always_ends_with_the_ambushed_gone() {
        let tables = Tables::embedded();
        let s =
            start(side("byzantines", UnitKind::LightCavalry, "3B, 3B", 2), side("ostrogoths", UnitKind::Infantry, "4C, 4C", 1), Some(0));
        let odds = simulate(&tables, &s, [Policy::Never, Policy::Never], 2000, 3);
        assert_eq!(odds.parted, 0);
        assert_eq!(odds.sides[0].retreated, 0);
        assert_eq!(odds.sides[1].retreated + odds.sides[1].destroyed, 2000 - odds.sides[0].destroyed);
    }
}
