//! A la Charge!'s combat rules (AC-04, AC-05, AC-06, AC-07): every cell of the combat results
//! table against the rules' printed table, the ratio in the defender's favour, terrain, the
//! charge and missile units, the morale test, the retreat chart and the army morale
//! threshold.

use referee_battle_gen::a_la_charge::{
    MoraleResult, Victory, army_losses, charge_bonus, column, column_heads, combat, die_heads, hand_to_hand_strength, morale_test, retreat,
    terrain_chart, victory,
};

#[path = "support/tables.rs"]
mod tables;
use tables::every_cell;

/// The printed table, row by row (die 1 to 7 or more), columns 1/2 and less, 1/1.5, 1/1,
/// 1.5/1, 2/1, 3/1, 4/1 and more.
const PRINTED: [&str; 7] = [
    "DR DT D1 D1 D1R D2 D2",
    "DR DR DT D1 D1 D1 D2",
    "AR AR DR DT DT DT D1",
    "AT AT AR DR DT DT DT",
    "A1 AT AT AR DR DR DR",
    "A1R A1 A1 AT AR AR DR",
    "A2 A1R A1R AT AT AT AR",
];

/// Strengths falling in each column exactly: 1/2, 2/3, 1/1, 3/2, 2/1, 3/1, 4/1.
const EXACT: [(u32, u32); 7] = [(1, 2), (2, 3), (2, 2), (3, 2), (4, 2), (6, 2), (8, 2)];

/// AC-05: every one of the table's 49 cells.
#[test]
fn ac_05_every_cell_of_the_combat_results_table() {
    every_cell(&PRINTED, &EXACT, |a, d, die| combat(a, d, die, 0, 0).code());
}

/// AC-05: the ratio rounded in the defender's favour; terrain on the die and the column.
#[test]
fn ac_05_ratios_and_terrain() {
    assert_eq!(column(5, 2), 4, "5/2 is 2/1");
    assert_eq!(column(5, 4), 2, "5/4 is 1/1");
    assert_eq!(column(4, 5), 1, "4/5 is 1/1.5");
    assert_eq!(column(1, 3), 0, "1/3 is 1/2 and less");
    assert_eq!(column(20, 3), 6, "beyond 4/1 is 4/1");
    // A village adds 1 to the die: 6 + 1 reads "7 or more".
    assert_eq!(combat(2, 2, 6, 1, 0).code(), "A1R");
    // Woods move the column left for the defender: 2/1 reads 1.5/1.
    assert_eq!(combat(4, 2, 1, 0, -1).code(), "D1");
    // Past the first column it stays there; a die below 1 reads 1.
    assert_eq!(combat(1, 2, 1, -3, -2).code(), "DR");
}

/// AC-04: the charge bonus (none against a unit that may counter-charge); missile units one
/// weaker hand to hand, never below 1.
#[test]
fn ac_04_charge_and_missile_units() {
    assert_eq!(charge_bonus(2, false), 2);
    assert_eq!(charge_bonus(1, false), 1);
    assert_eq!(charge_bonus(2, true), 0);
    assert_eq!(hand_to_hand_strength(4, true), 3);
    assert_eq!(hand_to_hand_strength(1, true), 1);
    assert_eq!(hand_to_hand_strength(4, false), 4);
}

/// AC-06: less than the morale holds, equal retreats, greater loses a step; a commander
/// adds 1; the retreat chart in its order.
#[test]
fn ac_06_morale_test_and_retreats() {
    assert_eq!(morale_test(3, 4, false, 0), MoraleResult::Holds);
    assert_eq!(morale_test(4, 4, false, 0), MoraleResult::Retreats);
    assert_eq!(morale_test(5, 4, false, 0), MoraleResult::Loss);
    assert_eq!(morale_test(5, 4, true, 0), MoraleResult::Retreats, "a commander beside");
    assert_eq!(morale_test(3, 4, false, 1), MoraleResult::Retreats, "a test at −1");
    let free = retreat(false, false, true);
    assert!(!free.loss && !free.pushes_friend && free.test_at.is_none());
    let pushing = retreat(false, true, true);
    assert!(pushing.pushes_friend && pushing.test_at.is_none());
    let pressed = retreat(true, true, true);
    assert!(pressed.pushes_friend && pressed.test_at == Some(1));
    assert!(retreat(true, false, true).loss, "in enemy ZoC with no friend: a loss");
    assert!(retreat(false, false, false).loss, "nowhere to go: a loss");
}

/// AC-07: eliminated strength, the commander's + 4, each baggage's + 2; one army past its
/// threshold gives the other a major victory, both the one past by less a minor one.
#[test]
fn ac_07_army_morale_threshold() {
    assert_eq!(army_losses(10, None, &[]), 10);
    assert_eq!(army_losses(10, Some(3), &[1]), 10 + 3 + 4 + 1 + 2);
    assert_eq!(victory([9, 5], [10, 12]), Victory::None);
    assert_eq!(victory([10, 5], [10, 12]), Victory::Major { winner: 1 });
    assert_eq!(victory([3, 14], [10, 12]), Victory::Major { winner: 0 });
    assert_eq!(victory([11, 15], [10, 12]), Victory::Minor { winner: Some(0) });
    assert_eq!(victory([12, 14], [10, 12]), Victory::Minor { winner: None });
}

/// AC-05: the terrain effects chart: a village or marsh adds 1 to the die, woods, hills,
/// vineyards and palisades move the column left for the defender, bridges and streams lose
/// their bonus to shots, rivers and mountains cannot be crossed.
#[test]
fn ac_05_the_terrain_effects_chart() {
    use referee_battle_gen::a_la_charge::Terrain;
    assert_eq!(Terrain::Village.effect().die, 1);
    assert_eq!(Terrain::Marsh.effect().die, 1);
    for t in [Terrain::Woods, Terrain::Hill, Terrain::Vineyard, Terrain::Palisade] {
        assert_eq!(t.effect().columns, -1, "{t:?}");
    }
    assert!(Terrain::Bridge.effect().not_with_shots && Terrain::Stream.effect().not_with_shots);
    assert!(Terrain::River.effect().no_retreat && Terrain::River.effect().half_mp.is_none());
    assert!(Terrain::Palisade.effect().holds_retreats && Terrain::Palisade.effect().extra);
    assert_eq!(Terrain::Road.effect().half_mp, Some(1));
    // 4 against 2 in woods: 2/1 read as 1.5/1; a 1 is D1 rather than D1R.
    let woods = Terrain::Woods.effect();
    assert_eq!(combat(4, 2, 1, woods.die, woods.columns).code(), "D1");
    assert_eq!(combat(4, 2, 1, 0, 0).code(), "D1R");
}

/// The terrain effects chart as the rules print it, row by row: the terrain, its cost per
/// hex, its effects in combat. Fortifications are named with their cells empty.
pub const CHART: [[&str; 3]; 12] = [
    ["Plain", "1", "–"],
    ["Road", "0.5", "–"],
    ["Village", "1", "+1 on the die roll"],
    ["Woods, Hill, Vineyard", "2", "\u{2212}1 column for the unit in defence"],
    ["Marsh", "2", "+1 on the die roll"],
    ["River, Mountain", "uncrossable", "No retreat possible"],
    ["Fortifications", "", ""],
    ["Bridge", "1 (0.5 if road)", "+1 on the die roll (unless at least 1 shot)"],
    ["Ford", "2", "–"],
    ["Palisade", "+1", "\u{2212}1 column for the unit in defence, cancels out the retreats from a morale test"],
    ["Stream", "+1 (0 if road)", "+1 on the die roll (unless at least 1 shot)"],
    ["Slope", "+1 (0 if road)", "–"],
];

/// AC-05: every cell of the terrain effects chart as the rules print it, what a road does to
/// a bridge, a stream or a slope included, and the fortifications' row; the combat results
/// table's heads with their open ends, "1/2 or less" and "4/1 or more", and its last row "7
/// or more".
#[test]
fn ac_05_every_cell_of_the_terrain_chart_and_the_tables_heads() {
    let chart = terrain_chart();
    assert_eq!(chart.len(), CHART.len(), "{chart:?}");
    for (row, printed) in chart.iter().zip(CHART) {
        for (cell, want) in row.iter().zip(printed) {
            assert_eq!(cell, want, "{} row", printed[0]);
        }
    }
    assert_eq!(column_heads(), ["1/2 or less", "1/1.5", "1/1", "1.5/1", "2/1", "3/1", "4/1 or more"]);
    assert_eq!(die_heads(), ["1", "2", "3", "4", "5", "6", "7 or more"]);
    use referee_battle_gen::a_la_charge::Terrain;
    // The map's key says the same of a stream and a bridge: a road takes the stream's cost away.
    assert_eq!(Terrain::Stream.effect().cost(), "+1 MP (0 if road)");
    assert_eq!(Terrain::Bridge.effect().cost(), "1 MP (0.5 if road)");
    assert_eq!(Terrain::Ford.effect().cost(), "2 MP");
}
