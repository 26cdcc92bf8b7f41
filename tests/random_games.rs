//! Random games of all four scenarios played by the random player of `referee_e2e::play`:
//! no panic, and the invariants hold all the way to the end of the campaign (MG-32).

use std::collections::BTreeMap;

use referee_e2e::play::play;

/// MG-09 / MG-32 and the movement rules: whole campaigns of random legal orders.
#[test]
fn mg_32_random_games_of_every_scenario_run_to_the_end() {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for id in ["dionysian", "pyrrhic", "first-punic", "second-punic"] {
        for seed in [1, 2, 3] {
            for (kind, n) in play(id, seed, false).kinds {
                *seen.entry(kind).or_insert(0) += n;
            }
        }
    }
    // The games went through the rules that matter, not round them.
    for kind in ["battle_raised", "battle_resolved", "counter_retreated", "city_joined", "counter_embarked", "elements_exchanged"] {
        assert!(seen.get(kind).copied().unwrap_or(0) > 0, "no {kind} in any game: {seen:?}");
    }
    println!("{seen:?}");
}

/// a whole random game of each scenario with a pack printed for every battle: no side's
/// PDF holds the enemy's commands or elements, and every side's holds its own.
#[test]
fn x_04_no_battle_pack_leaks_in_a_random_game_of_any_scenario() {
    for (id, seed) in [("dionysian", 4), ("pyrrhic", 5), ("first-punic", 6), ("second-punic", 7)] {
        let kinds = play(id, seed, true).kinds;
        assert!(kinds.get("packs_checked").copied().unwrap_or(0) >= 4, "{id}: too few battles to check: {kinds:?}");
        assert!(kinds.get("table_set").copied().unwrap_or(0) > 0, "{id}: no table was set: {kinds:?}");
    }
}
