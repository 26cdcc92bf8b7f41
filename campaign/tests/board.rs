//! The board answers the questions screens and packs ask of it, so that no screen works a
//! rule out again for itself (MG-07, MG-35).

use referee_campaign::magna_graecia::view::umpire_view;
use referee_campaign::{magna_graecia::catalog::Catalog, magna_graecia::state::CampaignState};

/// MG-35: two sides are enemies unless they are one side or allied; every scenario's
/// alliances read the same through the board as through the scenario.
#[test]
fn mg_35_the_board_says_who_fights_whom() {
    let catalog = Catalog::embedded();
    for scenario in &catalog.scenarios {
        let map = catalog.map(&scenario.map).unwrap();
        let state = CampaignState::new("t", scenario, 1);
        let board = umpire_view(&state, map, &[]).board;
        for a in &scenario.sides {
            assert!(board.on_same_side(&a.id, &a.id));
            for b in scenario.sides.iter().filter(|b| b.id != a.id) {
                assert_eq!(board.are_enemies(&a.id, &b.id), !scenario.are_allied(&a.id, &b.id), "{}: {} and {}", scenario.id, a.id, b.id);
            }
        }
    }
}

/// MG-07: a neutral city is a fortified node allied to no side and nobody's capital.
#[test]
fn mg_07_the_board_names_the_neutral_cities() {
    let catalog = Catalog::embedded();
    let scenario = catalog.scenario("dionysian").unwrap();
    let map = catalog.map(&scenario.map).unwrap();
    let board = umpire_view(&CampaignState::new("t", scenario, 1), map, &[]).board;
    let neutral: Vec<_> = map.nodes.keys().copied().filter(|&n| board.is_neutral_city(n)).collect();
    assert!(!neutral.is_empty(), "the Dionysian War starts with neutral cities");
    for n in map.nodes.keys().copied() {
        let s = board.node(n).unwrap();
        let expected = s.city_commands.is_some() && s.allied_to.is_none() && s.capital_of.is_none();
        assert_eq!(board.is_neutral_city(n), expected, "node {n}");
        if s.capital_of.is_some() {
            assert!(!board.is_neutral_city(n), "a capital is nobody's neutral city");
        }
    }
}
