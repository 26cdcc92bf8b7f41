//! Ars Bellum's combat rules (AB-04, AB-05, AB-06): every cell of the melee table against the
//! rules' printed table, the ratio read in the defender's favour, the die beyond 4/1, the
//! supports, fire and morale — and the rules' own worked examples.

use referee_battle_gen::ars_bellum::{
    Effect, FireResult, MoraleMods, column, column_heads, disorganise, fire, fury_kept, initiative, melee, morale_passes, support,
};

#[path = "support/tables.rs"]
mod tables;
use tables::every_cell;

const CALM: MoraleMods = MoraleMods { steadied: false, elite: false, recruits: false };
const STEADIED: MoraleMods = MoraleMods { steadied: true, elite: false, recruits: false };

/// The printed table, row by row (d6 1 to 8), columns 1/3 or less, 1/2, 2/3, 1/1, 3/2, 2/1,
/// 3/1, 4/1 or more.
const PRINTED: [&str; 8] = [
    "AE AD AD AT AR DR DR DT",
    "AD AD AT AR DR DR DT DT",
    "AD AT AR DR DR DT DT DD",
    "AT AR AR DR DT DT DD DD",
    "AR AR DR DT DT DD DD DE",
    "AR DR DR DT DD DD DE DE",
    "AR DR DT DD DD DD DE DE",
    "AR DT DT DD DD DE DE DE",
];

/// A strength pair that falls in each column exactly: 1/3, 1/2, 2/3, 1/1, 3/2, 2/1, 3/1, 4/1.
const EXACT: [(u32, u32); 8] = [(1, 3), (1, 2), (2, 3), (3, 3), (3, 2), (4, 2), (6, 2), (8, 2)];

/// AB-05: every one of the table's 64 cells.
#[test]
fn ab_05_every_cell_of_the_melee_table() {
    every_cell(&PRINTED, &EXACT, |a, d, die| melee(a, d, die, 0, 0).code());
}

/// AB-05: the melee table's heads as the rules print them, the open ends included.
#[test]
fn ab_05_the_melee_tables_heads() {
    assert_eq!(column_heads(), ["1/3 or less", "1/2", "2/3", "1/1", "3/2", "2/1", "3/1", "4/1 or more"]);
}

/// AB-05: ratios between two columns go down to the lower; below 1/2 is the first column;
/// above 4/1 each whole step adds 1 to the die.
#[test]
fn ab_05_ratios_are_read_in_the_defenders_favour() {
    assert_eq!(column(5, 2), (5, 0), "5/2 is 2/1");
    assert_eq!(column(7, 3), (5, 0), "7/3 is 2/1");
    assert_eq!(column(5, 4), (3, 0), "5/4 is 1/1");
    assert_eq!(column(1, 4), (0, 0), "1/4 is 1/3 or less");
    assert_eq!(column(3, 4), (2, 0), "3/4 is 2/3");
    assert_eq!(column(9, 2), (7, 0), "9/2 is 4/1, no more");
    assert_eq!(column(5, 1), (7, 1));
    assert_eq!(column(12, 2), (7, 2));
    // 5/1 and a 7: a die of 8 on the 4/1 column.
    assert_eq!(melee(5, 1, 7, 0, 0).code(), "DE");
    assert_eq!(melee(5, 1, 1, 0, 0).code(), "DT", "1 + 1 reads the second row");
    // Terrain: a die taken below 1 reads as 1; a column shifted past the first stays there.
    assert_eq!(melee(3, 3, 1, -2, 0).code(), "AT");
    assert_eq!(melee(1, 3, 3, 0, -2).code(), "AD");
    assert_eq!(melee(4, 2, 3, 0, -1).code(), "DR", "2/1 in a forest reads 3/2");
}

/// AB-05: supports add +1 for infantry of 3 or less, +2 for cavalry, elephants and infantry
/// above 3.
#[test]
fn ab_05_supports() {
    assert_eq!(support(true, 3), 1);
    assert_eq!(support(true, 2), 1);
    assert_eq!(support(true, 4), 2);
    assert_eq!(support(false, 2), 2);
}

/// AB-05, AB-06: the rules' own examples.
#[test]
fn ab_05_the_rules_examples() {
    // A Samnite 3 attacks a Roman 2 at 3/2 and rolls 3: the Roman falls back.
    assert_eq!(melee(3, 2, 3, 0, 0).code(), "DR");
    // 3 + 1 of support against 2 is 2/1; a 5 disorganises the defender.
    assert_eq!(melee(3 + support(true, 3), 2, 5, 0, 0).code(), "DD");
    // 3 + 2 against 2 is 5/2, read 2/1; a 6 disorganises.
    assert_eq!(melee(3 + support(true, 4), 2, 6, 0, 0).code(), "DD");
    // The Macedonians: 4 + 1 against 2 up an elevation line, a 4 less 2: a retreat.
    assert_eq!(melee(4 + 1, 2, 4, -2, 0).code(), "DR");
    // 4 + 2 + 2 against 4 is 2/1; a 4: the defender tests its morale, rolls 5, but within the
    // polemarch's radius 5 − 1 = 4 passes for a unit of 4.
    assert_eq!(melee(8, 4, 4, 0, 0).code(), "DT");
    assert!(morale_passes(5, 4, STEADIED));
    assert!(!morale_passes(5, 4, CALM));
}

/// AB-04: d6 plus the bonus: 6 or 7 a retreat, 8 or more a retreat and a morale test; −1
/// against higher ground.
#[test]
fn ab_04_fire() {
    assert_eq!(fire(3, 2, false, 0), FireResult::Miss);
    assert_eq!(fire(4, 2, false, 0), FireResult::Retreat);
    assert_eq!(fire(5, 2, false, 0), FireResult::Retreat);
    assert_eq!(fire(6, 2, false, 0), FireResult::RetreatAndTest);
    assert_eq!(fire(6, 2, true, 0), FireResult::Retreat, "higher ground");
    assert_eq!(fire(6, 2, false, -2), FireResult::Retreat, "a wall");
}

/// AB-06, AB-07: a d6 at most the combat value passes (−1 in a leader's radius, −1 elite,
/// +1 recruits); a second disorganisation eliminates.
#[test]
fn ab_06_morale() {
    assert!(morale_passes(3, 3, CALM));
    assert!(!morale_passes(4, 3, CALM));
    assert!(morale_passes(4, 3, STEADIED), "a leader's radius");
    assert!(morale_passes(4, 3, MoraleMods { elite: true, ..CALM }), "elite");
    assert!(!morale_passes(3, 3, MoraleMods { recruits: true, ..CALM }), "recruits");
    assert!(morale_passes(4, 3, MoraleMods { steadied: true, elite: true, recruits: true }));
    assert_eq!(disorganise(false), Effect::Disorganised);
    assert_eq!(disorganise(true), Effect::Eliminated);
}

/// AB-02: leaders' command values and a d6, +2 with Fury, a tie rolled again; Fury lost for
/// good the first turn its side loses the initiative.
#[test]
fn ab_02_initiative_and_fury() {
    assert_eq!(initiative([4, 3], [1, 3], [false, false]), Some(1), "4 + 1 against 3 + 3");
    assert_eq!(initiative([4, 3], [3, 3], [false, false]), Some(0));
    assert_eq!(initiative([4, 3], [2, 2], [false, true]), Some(1), "Fury's +2");
    assert_eq!(initiative([3, 3], [4, 4], [false, false]), None, "a tie: roll again");
    assert!(fury_kept(true, true));
    assert!(!fury_kept(true, false));
    assert!(!fury_kept(false, true), "once lost, never back");
}

/// AB-03: the terrain table: costs, the attacker's die or columns against a defender in it,
/// fire; the ford counts for the attacker's side; a river cannot be crossed.
#[test]
fn ab_03_the_terrain_table() {
    use referee_battle_gen::ars_bellum::Terrain;
    assert_eq!(Terrain::Road.effect().half_mp, Some(1), "half a point");
    assert_eq!(Terrain::Forest.effect().half_mp, Some(4));
    assert_eq!(Terrain::River.effect().half_mp, None);
    assert_eq!((Terrain::Village.effect().attack_die, Terrain::Village.effect().fire), (-2, -2));
    assert_eq!(Terrain::Bridge.effect().fire, 1);
    assert_eq!((Terrain::Elevation1.effect().attack_die, Terrain::Elevation1.effect().fire), (-2, -1));
    assert_eq!((Terrain::Elevation2.effect().columns, Terrain::Elevation2.effect().fire), (-2, -2));
    assert_eq!((Terrain::Walls.effect().columns, Terrain::Swamp.effect().columns), (-2, -2));
    assert_eq!(Terrain::Entrenchments.effect().columns, -1);
    assert!(Terrain::Ford.effect().attacker_side && Terrain::Ford.effect().columns == -1);
    // 3 against 2 in a forest: one column left, read 1/1: a 2 is AR where it was DR.
    let forest = Terrain::Forest.effect();
    assert_eq!(melee(3, 2, 2, forest.attack_die, forest.columns).code(), "AR");
    assert_eq!(melee(3, 2, 2, 0, 0).code(), "DR");
}
