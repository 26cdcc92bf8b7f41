//! Belisarius operations (BE-02, BE-04 … BE-08, BE-53, BE-54): the AP chits drawn blind and
//! kept secret, the first player, segments of activations and passes, and the turn's end.

use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::Phase;
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::log::DiceRolled;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::fixtures::belisarius::{
    africa, byz, created, goths, italy_under_vitiges, italy_with_vitiges, leaders_together, refused, side_view, stage, supply_phase, typed,
};
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

use crate::common::matching;

/// A leader of `side` on the map, by id, of the given rank or any.
fn leader_of(c: &Campaign<Belisarius>, who: &str, rank: Option<u8>) -> String {
    use referee_campaign::belisarius::state::PieceKind;
    c.state
        .pieces_of(&SideId::new(who))
        .find_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } if rank.is_none_or(|r| c.state.setup.leader(leader).is_some_and(|l| l.rank == r)) => {
                Some(leader.clone())
            }
            _ => None,
        })
        .expect("such a leader on the map")
}

/// BE-54, BE-04, BE-05: the seed's example, its first numbers: the Byzantines draw a chit
/// worth 8 to them and add Belisarius's 8 (16 AP); the Goths draw one worth 3 and add
/// Vitiges's 6 (9 AP); the initiative is 2 + 8 = 10 against 3 + 6 = 9, and the Byzantines
/// play first.
#[test]
fn be_54_the_examples_action_points_and_initiative() {
    let (mut store, mut c) = italy_with_vitiges();
    supply_phase(&mut store, &mut c);
    let events = store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!(ops.ap[&byz()].total, 16);
    assert_eq!(ops.ap[&goths()].total, 9);
    assert_eq!(ops.first, byz());
    assert_eq!(c.state.phase, Phase::Operations);
    let initiative: Vec<i32> =
        events.iter().filter_map(|e| if let Event::DiceRolled(DiceRolled { roll, .. }) = e { Some(roll.total()) } else { None }).collect();
    assert_eq!(initiative, [10, 9]);
    assert!(!c.state.cup.contents().contains(&"ap-i".to_owned()), "a chit drawn is out of the cup");
}

/// BE-04, BE-53: each side's action points are its own secret: its view holds them, the
/// other's view does not, and the other's log says only that a chit was drawn.
#[test]
fn be_04_action_points_are_secret_from_the_other_side() {
    let (mut store, mut c) = italy_with_vitiges();
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let goth_view = side_view(&c, &store, &goths());
    assert_eq!(goth_view.own.action_points.as_ref().map(|a| a.total), Some(9));
    let text = serde_json::to_string(&goth_view).unwrap();
    assert!(!text.contains("ap-i") && !text.contains("16 action points"), "the Byzantine chit reached the Goths");
    let log: Vec<&str> = goth_view.log.iter().map(|l| l.text.as_str()).collect();
    assert!(log.iter().any(|l| l.contains("Byzantines draw their AP chit")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("9 action points this turn (3 on the chit + 6, Vitiges)")), "{log:?}");
    let byz = side_view(&c, &store, &byz());
    assert_eq!(byz.own.action_points.as_ref().map(|a| (a.total, a.left)), Some((16, 16)));
}

/// BE-04, BE-43: a stratagem drawn is kept, hidden, and another chit drawn at once, before
/// the other side draws; the other side reads only that a stratagem was kept.
#[test]
fn be_04_a_stratagem_drawn_is_kept_and_another_drawn() {
    let (mut store, mut c) = italy_with_vitiges();
    let stratagem = c.state.cup.contents().iter().find(|id| c.state.setup.tables.is_stratagem(id)).cloned();
    let Some(stratagem) = stratagem else { panic!("italy-535 mixes stratagems with the AP chits") };
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[5, 1], &[&stratagem, "ap-j", "ap-a"])).unwrap();
    assert!(c.state.hands[&byz()].contains(&stratagem));
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!((ops.ap[&byz()].chit.as_str(), ops.ap[&goths()].chit.as_str()), ("ap-j", "ap-a"));
    let goth_view = side_view(&c, &store, &goths());
    let log: Vec<&str> = goth_view.log.iter().map(|l| l.text.as_str()).collect();
    assert!(log.iter().any(|l| l.contains("Byzantines draw a stratagem, keep it face down and draw again")), "{log:?}");
    assert!(!serde_json::to_string(&goth_view).unwrap().contains(&stratagem), "which stratagem is the Byzantines' secret");
}

/// BE-05: a tied initiative is rolled again.
#[test]
fn be_05_a_tied_initiative_is_rolled_again() {
    let (mut store, mut c) = italy_with_vitiges();
    // 1 + 8 = 9 against 3 + 6 = 9: again; 1 + 8 = 9 against 4 + 6 = 10: the Goths.
    supply_phase(&mut store, &mut c);
    let events = store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[1, 3, 1, 4], &["ap-i", "ap-d"])).unwrap();
    let rolls = events.iter().filter(|e| matches!(e, Event::DiceRolled(DiceRolled { .. }))).count();
    assert_eq!(rolls, 4);
    assert_eq!(c.state.ops.as_ref().unwrap().first, goths());
}

/// BE-06, BE-07: segments: only the side whose segment it is activates; a leader is
/// activated once a phase; an inferior goes with a superior of his zone, never an equal;
/// passing hands the next segment over, and two passes in a row end the phase.
#[test]
fn be_06_segments_alternate_and_two_passes_end_the_phase() {
    let (mut store, mut c) = italy_with_vitiges();
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let belisarius = "belisarius".to_owned();
    let goth = leader_of(&c, "ostrogoths", None);
    refused(&mut store, &mut c, &Order::Activate { side: goths(), leader: goth.clone(), with: vec![] }, "it is the Byzantines' segment");
    refused(&mut store, &mut c, &Order::Activate { side: byz(), leader: "vitiges".into(), with: vec![] }, "no leader `vitiges`");
    store.execute(&mut c, &(), &Order::Activate { side: byz(), leader: belisarius.clone(), with: vec![] }, DiceInput::Seeded).unwrap();
    refused(&mut store, &mut c, &Order::Activate { side: byz(), leader: belisarius.clone(), with: vec![] }, "activated this phase already");
    // The Goths see a force activated, not who.
    let goth_view = side_view(&c, &store, &goths());
    let last = &goth_view.log.last().unwrap().text;
    assert!(last.starts_with("Byzantines activate a force at") && !last.contains("Belisarius"), "{last}");
    assert!(goth_view.board.markers.iter().all(|m| !m.spent), "the acting marker is not yet turned down");

    store.execute(&mut c, &(), &Order::Pass { side: byz() }, DiceInput::Seeded).unwrap();
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!((ops.segment.as_str(), ops.passes), ("ostrogoths", 0), "a segment with an activation is no pass");
    let goth_view = side_view(&c, &store, &goths());
    assert_eq!(goth_view.board.markers.iter().filter(|m| m.spent).count(), 1, "Belisarius's marker lies head down for all to see");
    store.execute(&mut c, &(), &Order::Pass { side: goths() }, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.phase, Phase::Operations, "one pass does not end the phase");
    store.execute(&mut c, &(), &Order::Pass { side: byz() }, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.phase, Phase::TurnEnd, "two passes in a row end it");
    refused(&mut store, &mut c, &Order::Pass { side: goths() }, "not the operations phase");
}

/// BE-07: an inferior leader may go with a superior of his zone; an equal may not.
#[test]
fn be_07_an_inferior_goes_with_his_superior_never_an_equal() {
    let (mut store, mut c) = italy_with_vitiges();
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    // Two Byzantine leaders put in Belisarius's zone, ranked below him and equal to him.
    use referee_campaign::belisarius::state::PieceKind;
    let at =
        c.state.pieces.iter().find(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "belisarius")).unwrap().at.clone();
    let chief = c.state.setup.leader("belisarius").unwrap().rank;
    let others: Vec<(String, u8)> = c
        .state
        .pieces_of(&byz())
        .filter_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } if leader != "belisarius" => Some((leader.clone(), c.state.setup.leader(leader)?.rank)),
            _ => None,
        })
        .collect();
    let inferior = others.iter().find(|(_, r)| *r < chief).map(|(l, _)| l.clone()).expect("a Byzantine leader of lower rank");
    for p in c.state.pieces.iter_mut() {
        if matches!(&p.kind, PieceKind::Leader { leader, .. } if *leader == inferior) {
            p.at = at.clone();
        }
    }
    let activate = |with: Vec<String>| Order::Activate { side: byz(), leader: inferior.clone(), with };
    refused(&mut store, &mut c, &activate(vec!["belisarius".into()]), "may go only with a leader of higher rank");
    let order = Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![inferior.clone()] };
    store.execute(&mut c, &(), &order, DiceInput::Seeded).unwrap();
    let ops = c.state.ops.as_ref().unwrap();
    assert!(ops.activated.contains(&inferior), "the inferior loses his own activation");
    refused(&mut store, &mut c, &activate(vec![]), "activated this phase already");
}

/// BE-02, BE-53: at the turn's end each side's chit is shown, the chits go back into the
/// cup, and the season moves on; the next operations draw again.
#[test]
fn be_02_the_turn_ends_with_the_chits_shown_and_the_season_moved_on() {
    let (mut store, mut c) = italy_with_vitiges();
    refused(&mut store, &mut c, &Order::EndTurn {}, "once the operations phase is over");
    let cup = c.state.cup.contents().to_vec();
    let date = c.state.date();
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    refused(&mut store, &mut c, &Order::BeginOperations {}, "under way already");
    store.execute(&mut c, &(), &Order::Pass { side: byz() }, DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &Order::Pass { side: goths() }, DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.turn, 2);
    assert_ne!(c.state.date(), date);
    assert_eq!(c.state.cup.contents(), cup.as_slice(), "every AP chit is back in the cup");
    assert!(c.state.ops.is_none() && c.state.phase == Phase::Play);
    let goth_view = side_view(&c, &store, &goths());
    let reveal = goth_view.log.iter().find(|l| l.text.starts_with("Turn end: the AP chits are shown")).unwrap();
    assert!(reveal.text.contains("Byzantines ap-i (8)") && reveal.text.contains("Ostrogoths ap-d (3)"), "{}", reveal.text);
    // Replayed from the events, the campaign is the one played.
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let replayed = <Belisarius as referee_campaign::core::engine::Engine>::replay(events.iter().map(|l| &l.event)).unwrap();
    assert_eq!(replayed, c.state);
    // A seeded draw next turn is checked by the seed like any roll.
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
    let verification = store.verify_seed::<Belisarius>(c.id, 535).unwrap();
    assert!(verification.holds(), "{}", verification.summary());
}

/// The values of the units in Belisarius's box.
fn belisarius_units(c: &Campaign<Belisarius>) -> Vec<u8> {
    use referee_campaign::belisarius::state::PieceKind;
    c.state
        .pieces
        .iter()
        .find_map(|p| match &p.kind {
            PieceKind::Leader { leader, units } if leader == "belisarius" => Some(units.iter().map(|u| u.value).collect()),
            _ => None,
        })
        .expect("Belisarius on the map")
}

/// A route for the example: three mountain zones then a plain one, none holding a Gothic
/// marker, neither stop a city the Goths hold; and its start.
fn example_route(c: &Campaign<Belisarius>) -> (String, Vec<String>) {
    use referee_campaign::belisarius::map::Terrain;
    let map = &c.state.setup.map;
    let gothic = goths();
    let occupied = |z: &str| {
        c.state.pieces.iter().any(|p| {
            p.side == gothic
                && p.kind.has_marker()
                && match &p.at {
                    referee_campaign::belisarius::state::Location::Zone(id) => id.0 == z,
                    referee_campaign::belisarius::state::Location::City(city) => map.zone_of_city(city).is_some_and(|zz| zz.id.0 == z),
                    referee_campaign::belisarius::state::Location::Sea(_) | referee_campaign::belisarius::state::Location::Aboard(_) => {
                        false
                    }
                }
        })
    };
    let gothic_city = |z: &str| {
        map.zones
            .iter()
            .find(|zz| zz.id.0 == z)
            .is_some_and(|zz| c.state.cities.get(&zz.city.id).and_then(|h| h.holder.as_ref()) == Some(&gothic))
    };
    let terrain = |z: &str| map.zones.iter().find(|zz| zz.id.0 == z).unwrap().terrain;
    let neighbours = |z: &str| map.zones.iter().find(|zz| zz.id.0 == z).unwrap().neighbours.iter().map(|n| n.0.clone()).collect::<Vec<_>>();
    for start in &map.zones {
        for a in neighbours(&start.id.0) {
            for b in neighbours(&a) {
                for m in neighbours(&b) {
                    for p in neighbours(&m) {
                        let path = [a.clone(), b.clone(), m.clone(), p.clone()];
                        let shape = path[..3].iter().all(|z| terrain(z) == Terrain::Mountain) && terrain(&p) == Terrain::Plain;
                        if shape && !path.iter().any(|z| occupied(z)) && !gothic_city(&m) && !gothic_city(&p) && !occupied(&start.id.0) {
                            return (start.id.0.clone(), path.to_vec());
                        }
                    }
                }
            }
        }
    }
    panic!("the map has no route of three mountain zones and a plain one")
}

/// BE-54, BE-10, BE-12, BE-46: the example's march: Belisarius's force crosses three
/// mountain zones for 6 AP, then a plain one for 1 (7 of 16 spent, 9 left); four zones moved
/// and a 4 on the die lose 10 % of the force, taken with the march from the units the owner
/// names first;
/// the zones entered become Byzantine. The Goths read a force marching, not who, nor the AP
/// or the losses.
#[test]
fn be_54_the_examples_march_and_attrition() {
    use referee_campaign::belisarius::state::{Location, PieceKind};
    let (mut store, mut c) = italy_with_vitiges();
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let (start, route) = example_route(&c);
    for p in c.state.pieces.iter_mut() {
        if matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "belisarius") {
            p.at = Location::Zone(referee_campaign::belisarius::map::ZoneId(start.clone()));
        }
    }
    let activate = Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] };
    store.execute(&mut c, &(), &activate, DiceInput::Seeded).unwrap();
    let march = |path: &[String]| Order::Move { side: byz(), leader: "belisarius".into(), path: path.to_vec(), attrition_from: vec![] };
    // The three mountain zones: 6 AP; a 1 after three zones loses nothing.
    store.execute(&mut c, &(), &march(&route[..3]), DiceInput::Manual(vec![1])).unwrap();
    assert_eq!(c.state.ops.as_ref().unwrap().ap[&byz()].left, 10, "three mountain zones cost 6");
    // The plain zone: 1 AP; four zones in all and a 4: 10 %, taken with the march, from the
    // force's last unit first as the order asks (BE-12).
    let force: u32 = belisarius_units(&c).iter().map(|&v| u32::from(v)).sum();
    let before = belisarius_units(&c);
    let last = u32::try_from(before.len()).unwrap();
    let mut plain = march(&route[3..]);
    if let Order::Move { attrition_from, .. } = &mut plain {
        attrition_from.push(last);
    }
    refused(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "belisarius".into(), path: route[3..].to_vec(), attrition_from: vec![last + 1] },
        "no unit",
    );
    let events = store.execute(&mut c, &(), &plain, DiceInput::Manual(vec![4])).unwrap();
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!(ops.ap[&byz()].left, 9, "7 of 16 spent");
    assert_eq!(ops.moved["belisarius"], 4);
    assert!(ops.attrition.is_none(), "nothing waits: the losses went with the march");
    let due =
        events.iter().find_map(matching!(Event::AttritionSuffered { due } => due.clone())).expect("four zones and a 4 cost something");
    assert_eq!((due.percent, due.points), (10, force.div_ceil(10)), "10 % of {force} CP, rounded up");
    let after = belisarius_units(&c);
    let after_total: u32 = after.iter().map(|&v| u32::from(v)).sum();
    assert_eq!(after_total, force - due.points);
    let first_hit = u32::from(before[before.len() - 1]).min(due.points);
    let last_now = if u32::from(before[before.len() - 1]) > first_hit { u32::from(after[after.len() - 1]) } else { 0 };
    assert_eq!(last_now, u32::from(before[before.len() - 1]) - first_hit, "the unit named first loses first: {before:?} → {after:?}");
    for zone in &route {
        assert_eq!(c.state.control[&referee_campaign::belisarius::map::ZoneId(zone.clone())], byz(), "BE-46: {zone}");
    }
    // What the Goths read.
    let goth_view = side_view(&c, &store, &goths());
    let text: Vec<&str> = goth_view.log.iter().map(|l| l.text.as_str()).collect();
    let marches: Vec<&&str> = text.iter().filter(|l| l.contains("marches")).collect();
    assert_eq!(marches.len(), 2, "{text:?}");
    assert!(marches.iter().all(|l| l.starts_with("Byzantines: a force marches from") && !l.contains("AP")), "{marches:?}");
    // (A random event's wording may name attrition; the march's attrition is not read.)
    let march_lines = text.iter().filter(|l| !l.starts_with("Random event"));
    assert!(!march_lines.into_iter().any(|l| l.contains("attrition") || l.contains("losses")), "{text:?}");
    // Six zones a turn at most (BE-10).
    let far = vec![route[2].clone(), route[3].clone(), route[2].clone()];
    refused(&mut store, &mut c, &march(&far), "at most 6 in all");
}

/// BE-08: before the phase's first activation, units pass freely between leaders of one
/// zone; the other side reads nothing of it; after an activation it is too late.
#[test]
fn be_08_forces_are_shared_out_before_the_first_activation() {
    use referee_campaign::belisarius::state::PieceKind;
    let (mut store, mut c) = italy_with_vitiges();
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let (from, to, _) = leaders_together(&c, &byz(), 2);
    let units_of = |c: &Campaign<Belisarius>, who: &str| -> Vec<referee_campaign::belisarius::pieces::Unit> {
        c.state
            .pieces
            .iter()
            .find_map(|p| match &p.kind {
                PieceKind::Leader { leader, units } if leader == who => Some(units.clone()),
                _ => None,
            })
            .unwrap()
    };
    let (before_from, before_to) = (units_of(&c, &from), units_of(&c, &to));
    let order = |units: Vec<u32>| Order::Reorganise { side: byz(), from: from.clone(), to: to.clone(), units };
    refused(&mut store, &mut c, &order(vec![1, 1]), "named twice");
    refused(&mut store, &mut c, &order(vec![999]), "has no unit 999");
    store.execute(&mut c, &(), &order(vec![1, 2]), DiceInput::Seeded).unwrap();
    let (after_from, after_to) = (units_of(&c, &from), units_of(&c, &to));
    assert_eq!(after_from, before_from[2..].to_vec());
    assert_eq!(after_to, [before_to, before_from[..2].to_vec()].concat());
    let goth_view = side_view(&c, &store, &goths());
    assert!(!goth_view.log.iter().any(|l| l.text.contains("BE-08")), "the Goths read nothing of it");
    store.execute(&mut c, &(), &Order::Activate { side: byz(), leader: to.clone(), with: vec![] }, DiceInput::Seeded).unwrap();
    refused(&mut store, &mut c, &order(vec![1]), "before the first activation");
}

/// The Ostrogoths' action points among the events of `begin_operations`.
fn gothic_points(events: &[Event]) -> referee_campaign::belisarius::operations::ActionPoints {
    events
        .iter()
        .find_map(matching!(Event::ActionPointsSet { side: s, ap } if s.as_str() == "ostrogoths" => ap.clone()))
        .expect("the Ostrogoths' points are set")
}

/// BE-50: in the First Reconquest of Italy, Theodahad is king to the end of turn 3; then he
/// leaves the game, his units staying where he stood, and Vitiges is king: the Goths' action
/// points and initiative add Vitiges's rating from turn 4.
#[test]
fn be_50_theodahad_gives_way_to_vitiges_after_turn_3() {
    use referee_campaign::belisarius::state::PieceKind;
    let (mut store, mut c) = created(&World::embedded().setup("italy-535").unwrap(), "Italy", 535);
    let (theodahad_at, theodahad_units) = c
        .state
        .pieces
        .iter()
        .find_map(|p| match &p.kind {
            PieceKind::Leader { leader, units } if leader == "theodahad" => Some((p.at.clone(), units.clone())),
            _ => None,
        })
        .expect("Theodahad on the map");
    assert!(!theodahad_units.is_empty(), "the test needs Theodahad at the head of units");
    for turn in 1..=3 {
        supply_phase(&mut store, &mut c);
        let goth_ap = gothic_points(&store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-d"])).unwrap());
        assert_eq!((goth_ap.rated_by.as_str(), goth_ap.total), ("Theodahad", 3 + 3), "turn {turn}: the chit's 3 and Theodahad's 3");
        let first = c.state.ops.as_ref().unwrap().first.clone();
        store.execute(&mut c, &(), &Order::Pass { side: first.clone() }, DiceInput::Seeded).unwrap();
        let second = referee_campaign::belisarius::operations::other_side(&c.state, &first);
        store.execute(&mut c, &(), &Order::Pass { side: second }, DiceInput::Seeded).unwrap();
        store.execute(&mut c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
    }
    assert_eq!(c.state.cinc[&goths()].as_deref(), Some("vitiges"));
    assert!(!c.state.pieces.iter().any(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "theodahad")));
    let left_behind =
        c.state.pieces_of(&goths()).any(|p| p.at == theodahad_at && p.kind == PieceKind::Group { units: theodahad_units.clone() });
    assert!(left_behind, "his units stay where he stood, without a leader");
    supply_phase(&mut store, &mut c);
    let goth_ap = gothic_points(&store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-d"])).unwrap());
    assert_eq!((goth_ap.rated_by.as_str(), goth_ap.total), ("Vitiges", 3 + 6));
    let byzantines = side_view(&c, &store, &byz());
    assert!(byzantines.log.iter().any(|l| l.text.contains("Theodahad leaves the game; Vitiges is king of the Ostrogoths")));
}

/// BE-49: in the Reconquest of Africa, Byzantine infantry moves one zone a turn: a force with
/// infantry is refused a longer march, and nothing is stored.
#[test]
fn be_49_byzantine_infantry_moves_one_zone_in_africa() {
    let (mut store, mut c) = africa();
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-d"])).unwrap();
    assert_eq!(c.state.ops.as_ref().unwrap().first, byz());
    store.execute(&mut c, &(), &Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] }, DiceInput::Seeded).unwrap();
    assert!(belisarius_units(&c).len() > 1, "Belisarius leads infantry among his units");
    let map = &c.state.setup.map;
    let start = map.zone(&referee_campaign::belisarius::map::ZoneId("byzacium-north".into())).unwrap();
    let a = start.neighbours[0].clone();
    let b = map.zone(&a).unwrap().neighbours.iter().find(|z| **z != start.id).unwrap().clone();
    let order = Order::Move { side: byz(), leader: "belisarius".into(), path: vec![a.0.clone(), b.0.clone()], attrition_from: vec![] };
    refused(&mut store, &mut c, &order, "Byzantine infantry moves one zone a turn in this scenario");
}

/// BE-04: points set before the program kept whose rating was added still read back, and
/// their log line gives the rating as the total less the chit.
#[test]
fn be_04_points_kept_without_whose_rating_still_read() {
    let (mut store, mut c) = italy_with_vitiges();
    supply_phase(&mut store, &mut c);
    let events = store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let set = events.iter().find(|e| matches!(e, Event::ActionPointsSet { .. })).unwrap();
    let mut json = serde_json::to_value(set).unwrap();
    json["ap"].as_object_mut().unwrap().remove("rated_by");
    let older: Event = serde_json::from_value(json).unwrap();
    let line = referee_campaign::belisarius::view::describe(&c.state, &older, &Viewer::Umpire).unwrap();
    assert_eq!(line, "Byzantines: 16 action points this turn (8 on the chit + 8) — BE-04");
}

/// BE-46: a side controls a zone it is alone in. A march through a zone where enemy units
/// stand without a leader in its city does not take it; the empty zone beyond is taken.
#[test]
fn be_46_a_zone_where_enemy_units_stand_is_not_taken_by_marching_through() {
    use referee_campaign::belisarius::pieces::UnitKind;
    use referee_campaign::belisarius::state::{Location, Piece, PieceKind};
    let (mut store, mut c) = italy_under_vitiges("ap-d", [6, 1]);
    let map = c.state.setup.map.clone();
    let empty = |z: &referee_campaign::belisarius::map::ZoneId| {
        !c.state.pieces.iter().any(|p| referee_campaign::belisarius::operations::zone_of(&c.state, &p.at).as_ref() == Some(z))
    };
    let plain = |z: &referee_campaign::belisarius::map::ZoneId| {
        map.zone(z).is_some_and(|z| z.terrain == referee_campaign::belisarius::map::Terrain::Plain)
    };
    let (x, y, z) = map
        .zones
        .iter()
        .filter(|x| x.region == "italy")
        .find_map(|x| {
            x.neighbours.iter().filter(|y| empty(y) && plain(y)).find_map(|y| {
                map.zone(y)?.neighbours.iter().find(|z| *z != &x.id && empty(z) && plain(z)).map(|z| (x.id.clone(), y.clone(), z.clone()))
            })
        })
        .expect("two empty plain zones in a row");
    stage(&mut c, &[(byz(), "belisarius", "4B 4B", Location::Zone(x.clone()))]);
    let city = Location::City(map.zone(&y).unwrap().city.id.clone());
    let units = referee_campaign::belisarius::pieces::parse_units(UnitKind::Infantry, "2C").unwrap();
    c.state.pieces.push(Piece { side: goths(), at: city, kind: PieceKind::Group { units } });
    for zone in [&y, &z] {
        c.state.control.insert(zone.clone(), goths());
    }
    store.execute(&mut c, &(), &Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] }, DiceInput::Seeded).unwrap();
    let march = Order::Move { side: byz(), leader: "belisarius".into(), path: vec![y.0.clone(), z.0.clone()], attrition_from: vec![] };
    let events = store.execute(&mut c, &(), &march, DiceInput::Manual(vec![1])).unwrap();
    let taken: Vec<&referee_campaign::belisarius::map::ZoneId> =
        events.iter().filter_map(matching!(Event::ZoneControlled { zone, side: s } if s == &byz() => zone)).collect();
    assert_eq!(taken, vec![&z], "the zone with the Gothic garrison stays theirs, the empty one is taken");
    assert_eq!(c.state.control[&y], goths());
}
