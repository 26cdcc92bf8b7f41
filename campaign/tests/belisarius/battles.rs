//! Belisarius interception and battle (BE-09, BE-13 … BE-23, BE-42, BE-43, BE-54): a march
//! halting where the enemy stands, the attempts of both sides, battles fought passage by
//! passage in the program, pursuit, retreat and the death of leaders.

use referee_campaign::Store;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::map::{Terrain, ZoneId};
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, Piece, PieceKind};
use referee_campaign::belisarius::tables::Interception;
use referee_campaign::belisarius::{Belisarius, Setup, World};
use referee_campaign::core::log::DiceRolled;
use referee_campaign::fixtures::belisarius::{
    battle_order, byz, city_of, contact_by, free_neighbour, goths, hold, intercept, interception_die, italy_under_vitiges, left, log_of,
    refused, run, stage, units_of, view_json,
};
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

use crate::common::matching;

/// The First Reconquest of Italy in play with Vitiges king, operations begun as in the
/// seed's example: 16 AP against 9, the Byzantines first.
fn italy() -> (Store, Campaign<Belisarius>) {
    italy_under_vitiges("ap-d", [2, 3])
}

/// The example's ground: a start, three mountain zones, a plain zone after them; and for
/// the second force a start, a mountain zone and a plain zone with a city (Neapolis's
/// Campania if the map allows); all different.
fn example_ground(c: &Campaign<Belisarius>) -> (Vec<ZoneId>, Vec<ZoneId>) {
    let map = &c.state.setup.map;
    let t = |z: &ZoneId| map.zone(z).unwrap().terrain;
    let n = |z: &ZoneId| map.zone(z).unwrap().neighbours.clone();
    let mut second = None;
    'outer: for pref in [true, false] {
        for z in &map.zones {
            if t(&z.id) != Terrain::Plain || (pref && z.city.id.0 != "neapolis") {
                continue;
            }
            for r in n(&z.id).into_iter().filter(|r| t(r) == Terrain::Mountain) {
                if let Some(q) = n(&r).into_iter().find(|q| q != &z.id) {
                    second = Some(vec![q, r, z.id.clone()]);
                    break 'outer;
                }
            }
        }
    }
    let second = second.expect("a plain zone behind a mountain zone");
    for s in &map.zones {
        for a in n(&s.id) {
            for b in n(&a) {
                for m in n(&b) {
                    for p in n(&m) {
                        let first = vec![s.id.clone(), a.clone(), b.clone(), m.clone(), p.clone()];
                        let shape = first[1..4].iter().all(|z| t(z) == Terrain::Mountain) && t(&p) == Terrain::Plain;
                        let all: Vec<&ZoneId> = first.iter().chain(&second).collect();
                        let distinct = all.iter().enumerate().all(|(i, z)| !all[..i].contains(z));
                        if shape && distinct {
                            return (first, second);
                        }
                    }
                }
            }
        }
    }
    panic!("no ground for the example")
}

/// Drives the battle under way to its end with seeded dice: each side shares out its losses
/// as the program suggests; after each passage `breaker` breaks off (or, with `None`, the
/// sides fight on); the beaten side retreats to the first place open to it.
fn fight_out(store: &mut Store, c: &mut Campaign<Belisarius>, breaker: Option<&SideId>) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..200 {
        let Some(order) = battle_order(&c.state, breaker) else { return all };
        all.extend(run(store, c, &order, DiceInput::Seeded));
    }
    panic!("the battle never ended")
}

/// BE-54, BE-13, BE-14, BE-16, BE-12: the seed's example from the first march to the second
/// battle. Belisarius crosses three mountain zones (6 AP) and halts where a Gothic force sits
/// in its city; the Goths do not intercept and he cannot aim at a force in a city, so he
/// marches on into a plain zone (1 AP) where a second Gothic force stands. The Goths try for
/// 1 AP and fail; Belisarius tries for 1 AP and succeeds; before the battle, four zones and
/// a 4 cost him 10 %. He loses the battle; another leader crosses a mountain zone and a
/// plain one (3 AP) and is intercepted by a force coming out of the city there (1 AP).
/// The Byzantines have spent 11 AP and have 5; the Goths have 7.
#[test]
fn be_54_the_examples_interceptions_and_battles() {
    let (mut store, mut c) = italy();
    assert_eq!((left(&c, &byz()), left(&c, &goths())), (16, 9));
    let (first, second) = example_ground(&c);
    let (city3, city_n) = (city_of(&c, &first[3]), city_of(&c, &second[2]));
    stage(
        &mut c,
        &[
            (byz(), "belisarius", "4B 4B 3C", Location::Zone(first[0].clone())),
            (byz(), "constantinus", "3B 3C", Location::Zone(second[0].clone())),
            (goths(), "vitiges", "4B 4C", city3),
            (goths(), "uraias", "3B 3C 2D", Location::Zone(first[4].clone())),
            (goths(), "aligern", "4B 3C", city_n),
        ],
    );
    hold(&mut c, &first[3], &goths());
    hold(&mut c, &second[2], &goths());
    let path = |zones: &[ZoneId]| zones.iter().map(|z| z.0.clone()).collect::<Vec<_>>();
    run(&mut store, &mut c, &Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] }, DiceInput::Seeded);
    // Three mountain zones, a 1 for attrition: nothing lost; a halt where Vitiges stands.
    let march = Order::Move { side: byz(), leader: "belisarius".into(), path: path(&first[1..4]), attrition_from: vec![] };
    let events = run(&mut store, &mut c, &march, DiceInput::Manual(vec![1]));
    assert!(events.iter().any(|e| matches!(e, Event::ContactMade { .. })), "{events:?}");
    assert_eq!(left(&c, &byz()), 10, "6 AP for three mountain zones");
    // The mover may not go on, nor anybody act, until the Goths answer.
    refused(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "belisarius".into(), path: path(&first[4..]), attrition_from: vec![] },
        "first intercept or decline",
    );
    refused(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: None, reconnaissance: false },
        "for the Ostrogoths",
    );
    // The Goths prefer not to; Belisarius may not aim at a force in a city: the contact ends.
    let events = run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::ContactEnded { .. })), "{events:?}");
    // On into the plain: 1 AP; four zones and a 4 on the attrition die: 10 %, taken with the
    // march from the unit the Byzantines name first, the 3C, before anyone may intercept
    // (BE-12: attrition comes before all combat).
    let events = run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "belisarius".into(), path: path(&first[4..]), attrition_from: vec![3] },
        DiceInput::Manual(vec![4]),
    );
    let due = events.iter().find_map(matching!(Event::AttritionSuffered { due } => due.clone()));
    assert_eq!(due.map(|d| (d.percent, d.points)), Some((10, 2)), "10 % of 11 CP, rounded up");
    let taken =
        events.iter().position(|e| matches!(e, Event::LossesTaken { losses, .. } if losses == &vec![("belisarius".to_owned(), 2, 2)]));
    let contact = events.iter().position(|e| matches!(e, Event::ContactMade { .. }));
    assert!(taken.is_some() && taken < contact, "the losses are taken before the contact: {events:?}");
    assert_eq!(left(&c, &byz()), 9);
    // The Goths intercept for 1 AP and fail.
    let uraias = i32::from(c.state.setup.leader("uraias").unwrap().strategic);
    let belisarius = i32::from(c.state.setup.leader("belisarius").unwrap().strategic);
    let fail = interception_die(&c, uraias - belisarius, false, Interception::Fail);
    let try_goths = Order::Intercept { side: goths(), leaders: vec!["uraias".into()], target: None, reconnaissance: false };
    let events = run(&mut store, &mut c, &try_goths, DiceInput::Manual(vec![fail]));
    assert!(events.iter().any(|e| matches!(e, Event::InterceptionTried { attempt, .. } if attempt.result == Interception::Fail)));
    assert_eq!(left(&c, &goths()), 8);
    // Once per enemy force a turn (BE-13); then it is the Byzantines' turn anyway.
    refused(&mut store, &mut c, &try_goths, "once per enemy force");
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    // Belisarius intercepts for 1 AP and succeeds: a battle in line.
    let line = interception_die(&c, belisarius - uraias, false, Interception::LineOfBattle);
    let events = intercept(&mut store, &mut c, &byz(), "belisarius", line);
    assert!(events.iter().any(|e| matches!(e, Event::BattleJoined { .. })), "{events:?}");
    assert_eq!(left(&c, &byz()), 8);
    // The battle shows the force as the march left it: 9 combat points.
    let board = c.state.ops.as_ref().and_then(|o| o.battle.as_ref()).unwrap();
    assert_eq!(board.force(&byz()).map(|f| f.start), Some(9), "the attrition is paid before the battle");
    // The battle, which Belisarius loses by breaking off after the first passage.
    let events = fight_out(&mut store, &mut c, Some(&byz()));
    let outcome = events.iter().find_map(matching!(Event::BattleEnded { outcome } => outcome.clone()));
    let outcome = outcome.expect("the battle ended");
    // Retreating among the enemy makes a contact there (BE-22): nobody intercepts.
    while let Some(k) = c.state.ops.as_ref().and_then(|o| o.contact.clone()) {
        run(&mut store, &mut c, &Order::Decline { side: k.turn_of }, DiceInput::Seeded);
    }
    if outcome.how != referee_campaign::belisarius::battle::How::Destroyed {
        assert_eq!(outcome.loser, Some(byz()), "{outcome:?}");
        // A beaten mover's march is over (BE-10).
        if c.state.pieces.iter().any(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "belisarius")) {
            refused(
                &mut store,
                &mut c,
                &Order::Move { side: byz(), leader: "belisarius".into(), path: path(&first[3..4]), attrition_from: vec![] },
                "his march is over",
            );
        }
    }
    // Another leader: a mountain zone and a plain one, 3 AP.
    run(&mut store, &mut c, &Order::Activate { side: byz(), leader: "constantinus".into(), with: vec![] }, DiceInput::Seeded);
    let events = run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "constantinus".into(), path: path(&second[1..]), attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
    assert!(events.iter().any(|e| matches!(e, Event::ContactMade { .. })), "{events:?}");
    assert_eq!(left(&c, &byz()), 5, "11 AP spent, 5 left");
    // A Gothic force comes out of the city and intercepts, for 1 AP (BE-16).
    let aligern = i32::from(c.state.setup.leader("aligern").unwrap().strategic);
    let constantinus = i32::from(c.state.setup.leader("constantinus").unwrap().strategic);
    let mountains = c.state.setup.map.zone(&second[2]).unwrap().terrain == Terrain::Mountain;
    let line = interception_die(&c, aligern - constantinus, mountains, Interception::LineOfBattle);
    let events = intercept(&mut store, &mut c, &goths(), "aligern", line);
    let battle = events.iter().find_map(matching!(Event::BattleJoined { battle } => battle.clone()));
    assert!(battle.expect("a new battle").forces[0].from_city, "BE-16: out of the city");
    assert_eq!(left(&c, &goths()), 7, "the Goth's 7");
    // What the Byzantines read of the interceptions: results, never the Gothic leaders or
    // the ratings behind them; the Goths never read Byzantine AP.
    let byz_log = log_of(&c, &store, &byz());
    let tried: Vec<&String> = byz_log.iter().filter(|l| l.contains("tries to intercept")).collect();
    assert_eq!(tried.len(), 3, "{byz_log:#?}");
    assert!(tried.iter().all(|l| !l.contains("difference")), "{tried:?}");
    assert!(tried.iter().filter(|l| l.starts_with("Ostrogoths")).all(|l| !l.contains("Uraias") && !l.contains("Aligern")), "{tried:?}");
    let goth_log = log_of(&c, &store, &goths());
    assert!(
        goth_log.iter().filter(|l| l.contains("tries to intercept") && l.starts_with("Byzantines")).all(|l| !l.contains("AP")),
        "{goth_log:#?}"
    );
}

/// Puts Belisarius next to a zone where `pieces` stand, activated, and marches him in.
fn contact_with(pieces: &[(SideId, &str, &str, bool)], decoys: u32) -> (Store, Campaign<Belisarius>, ZoneId) {
    contact_by("belisarius", pieces, decoys)
}

/// BE-42, BE-43: a decoy intercepted leaves the map; Reconnaissance takes a decoy without a
/// roll and is spent; Reconnaissance turns a marker face up for its side alone.
#[test]
fn be_42_a_decoy_intercepted_is_removed_and_reconnaissance_reveals() {
    let (mut store, mut c, zone) = contact_with(&[(goths(), "uraias", "3B 3C", false)], 2);
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    c.state.hands.insert(byz(), Vec::new());
    // Three markers in the open: name one.
    refused(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: None, reconnaissance: false },
        "name the one aimed at",
    );
    refused(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: Some(4), reconnaissance: false },
        "no marker 4",
    );
    refused(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: Some(2), reconnaissance: true },
        "no Reconnaissance",
    );
    c.state.hands.entry(byz()).or_default().push("reconnaissance".into());
    c.state.hands.entry(byz()).or_default().push("reconnaissance".into());
    // The markers are numbered in an order that says nothing of what they are; the test
    // looks up a decoy's number as the referee could. Reconnaissance takes it without a die.
    let decoys = |c: &Campaign<Belisarius>| c.state.pieces.iter().filter(|p| matches!(p.kind, PieceKind::LeaderDecoy { .. })).count();
    let decoy_number = |c: &Campaign<Belisarius>| {
        let contact = c.state.ops.as_ref().unwrap().contact.clone().unwrap();
        let targets = referee_campaign::belisarius::interception::mover_targets(&c.state, &contact);
        let i = targets.iter().position(|t| matches!(t, referee_campaign::belisarius::interception::Target::Decoy { .. })).unwrap();
        u32::try_from(i + 1).unwrap()
    };
    let n = decoy_number(&c);
    let events = run(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: Some(n), reconnaissance: true },
        DiceInput::Manual(vec![]),
    );
    assert!(events.iter().any(|e| matches!(e, Event::DecoyRemoved { .. })), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::DiceRolled(DiceRolled { .. }))), "BE-43: no roll against a decoy");
    assert_eq!(decoys(&c), 1);
    assert_eq!(c.state.hands[&byz()].len(), 1, "the stratagem is spent");
    let goth_log = log_of(&c, &store, &goths());
    assert!(
        goth_log.iter().any(|l| l.contains("The Ostrogoths' marker intercepted at") && l.contains("was a decoy") && l.contains("BE-42")),
        "{goth_log:#?}"
    );
    // The other decoy by a die: a decoy rates 3 against Belisarius's 8.
    let die = interception_die(&c, 8 - 3, false, Interception::LineOfBattle);
    let n = decoy_number(&c);
    let events = run(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: Some(n), reconnaissance: false },
        DiceInput::Manual(vec![die]),
    );
    assert!(events.iter().any(|e| matches!(e, Event::DecoyRemoved { .. })), "{events:?}");
    assert_eq!(decoys(&c), 0);
    // Reconnaissance on the last marker: the Byzantines read what it is, the Goths only that
    // it was looked at.
    run(&mut store, &mut c, &Order::Reconnoitre { side: byz(), zone: zone.0.clone(), marker: 1 }, DiceInput::Seeded);
    let byz_log = log_of(&c, &store, &byz());
    assert!(byz_log.iter().any(|l| l.contains("Reconnaissance: the marker at") && l.contains("Uraias")), "{byz_log:#?}");
    let goth_log = log_of(&c, &store, &goths());
    let line = goth_log.iter().find(|l| l.contains("reconnoitre")).expect("the Goths see the stratagem played");
    assert!(!line.contains("Uraias"));
    // The two decoys may come back at the start of operations, beside a leader.
    assert_eq!(c.state.decoys_out[&goths()], 2);
    let back = Order::ReturnDecoy { side: goths(), at: zone.0.clone(), fleet: false };
    refused(&mut store, &mut c, &back, "start of operations");
    run(&mut store, &mut c, &Order::Decline { side: byz() }, DiceInput::Seeded);
    run(&mut store, &mut c, &Order::Pass { side: byz() }, DiceInput::Seeded);
    while c.state.phase == referee_campaign::belisarius::state::Phase::Operations {
        let side = c.state.ops.as_ref().unwrap().segment.clone();
        run(&mut store, &mut c, &Order::Pass { side }, DiceInput::Seeded);
    }
    run(&mut store, &mut c, &Order::EndTurn {}, DiceInput::Seeded);
    let far = c
        .state
        .setup
        .map
        .zones
        .iter()
        .find(|z| z.id != zone && !referee_campaign::belisarius::interception::enemy_in(&c.state, &byz(), &z.id))
        .unwrap()
        .id
        .0
        .clone();
    refused(&mut store, &mut c, &Order::ReturnDecoy { side: goths(), at: far, fleet: false }, "no leader at");
    run(&mut store, &mut c, &back, DiceInput::Seeded);
    run(&mut store, &mut c, &back, DiceInput::Seeded);
    refused(&mut store, &mut c, &back, "no decoy out of play");
    assert_eq!(decoys(&c), 2);
    let byz_log = log_of(&c, &store, &byz());
    assert_eq!(byz_log.iter().filter(|l| l.contains("place a marker") && l.contains("BE-42")).count(), 2, "{byz_log:#?}");
}

/// BE-09: a leader alone intercepted is killed; a commander-in-chief's successor takes over,
/// named to his own side only.
#[test]
fn be_09_a_leader_alone_intercepted_is_killed_and_succeeded() {
    let (mut store, mut c, _) = contact_with(&[(goths(), "vitiges", "", false), (goths(), "uraias", "3B", true)], 0);
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let die = interception_die(&c, 8 - 6, false, Interception::LineOfBattle);
    let events = intercept(&mut store, &mut c, &byz(), "belisarius", die);
    let killed = events.iter().find_map(matching!(Event::LeaderKilled { leader, successor, .. } => (leader.clone(), successor.clone())));
    let (leader, successor) = killed.expect("Vitiges, alone, is killed");
    assert_eq!(leader, "vitiges");
    let next = successor.expect("a successor on the map");
    assert_eq!(c.state.cinc[&goths()].as_deref(), Some(next.as_str()));
    let name = c.state.setup.leader(&next).unwrap().name.clone();
    assert!(log_of(&c, &store, &goths()).iter().any(|l| l.contains(&format!("{name} takes command"))));
    assert!(!log_of(&c, &store, &byz()).iter().any(|l| l.contains(&name)), "the Byzantines do not learn the new king");
}

/// BE-16, BE-13: a force in the city may come out to intercept; the mover may not aim at a
/// force in a city; both failing, the sides may agree to a battle in line.
#[test]
fn be_16_a_city_force_intercepts_and_both_failing_may_agree() {
    let (mut store, mut c, _) = contact_with(&[(goths(), "uraias", "3B 3C", true)], 0);
    let fail = interception_die(&c, 5 - 8, false, Interception::Fail);
    intercept(&mut store, &mut c, &goths(), "uraias", fail);
    assert!(
        matches!(
            c.state.pieces.iter().find(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "uraias")).unwrap().at,
            Location::City(_)
        ),
        "failing, he goes back in"
    );
    refused(&mut store, &mut c, &Order::AgreeToBattle { side: goths() }, "both sides to have tried");
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    // Nothing of the Goths stands in the open, so the Byzantines have nothing to aim at and
    // the contact is over at once.
    assert!(c.state.ops.as_ref().unwrap().contact.is_none());
}

/// BE-13: both failing, the sides agree to a battle in line.
#[test]
fn be_13_battle_by_consent_after_both_fail() {
    let (mut store, mut c, _) = contact_by("constantinus", &[(goths(), "uraias", "3B 3C", false)], 0);
    let fail_g = interception_die(&c, 5 - 4, false, Interception::Fail);
    intercept(&mut store, &mut c, &goths(), "uraias", fail_g);
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let fail_b = interception_die(&c, 4 - 5, false, Interception::Fail);
    intercept(&mut store, &mut c, &byz(), "constantinus", fail_b);
    let events = run(&mut store, &mut c, &Order::AgreeToBattle { side: byz() }, DiceInput::Seeded);
    assert!(!events.iter().any(|e| matches!(e, Event::BattleJoined { .. })));
    refused(&mut store, &mut c, &Order::AgreeToBattle { side: byz() }, "agreed already");
    let events = run(&mut store, &mut c, &Order::AgreeToBattle { side: goths() }, DiceInput::Seeded);
    let battle = events.iter().find_map(matching!(Event::BattleJoined { battle } => battle.clone()));
    assert_eq!(battle.expect("a battle by consent").kind, Interception::LineOfBattle);
}

/// The rules' refusal of `order`, which must be refused, storing nothing.
fn refusal(store: &mut Store, c: &mut Campaign<Belisarius>, order: &Order) -> referee_campaign::RuleError {
    let before = store.events_as::<Belisarius>(c.id).unwrap().len();
    let refused = store.execute(c, &(), order, DiceInput::Seeded);
    assert_eq!(store.events_as::<Belisarius>(c.id).unwrap().len(), before, "a refusal stores nothing");
    match refused {
        Err(referee_campaign::ExecError::Rule(e)) => e,
        other => panic!("{order:?}: expected the rules' refusal, got {other:?}"),
    }
}

/// The contact's tries as `viewer` reads them: (side, leader, target number).
fn tries(c: &Campaign<Belisarius>, store: &Store, viewer: &referee_campaign::Viewer) -> Vec<(String, String, u32)> {
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let view = referee_campaign::belisarius::view::view_for(&c.state, &events, viewer).unwrap();
    let contact = view.board().contact.clone().expect("a contact open");
    contact.tried.iter().map(|t| (t.side.to_string(), t.leader.clone(), t.target)).collect()
}

/// BE-13, BE-15: a leader whose interception failed may not try that force again — alone,
/// or in a combined attempt — though another leader may, and the mover's leader may aim at
/// another marker; each side's view names its own leaders who have tried, never the other
/// side's, and the refusal it reads on its form is the rules' own.
#[test]
fn be_13_a_leader_whose_interception_failed_may_not_try_that_force_again() {
    use referee_campaign::Viewer;
    use referee_campaign::belisarius::interception::{Target, mover_targets};
    use referee_campaign::rule::RuleId;
    let (mut store, mut c, _) = contact_by("constantinus", &[(goths(), "uraias", "3B 3C", false), (goths(), "aligern", "3B 3C", false)], 0);
    let (byz_v, goth_v) = (Viewer::Side(byz()), Viewer::Side(goths()));
    assert!(tries(&c, &store, &goth_v).is_empty(), "nobody has tried yet");
    // Uraias (5) against Constantinus (4) fails.
    let fail = interception_die(&c, 5 - 4, false, Interception::Fail);
    intercept(&mut store, &mut c, &goths(), "uraias", fail);
    assert_eq!(c.state.ops.as_ref().unwrap().contact.as_ref().unwrap().turn_of, goths(), "the Goths may try again with another");
    let again = |leaders: &[&str]| Order::Intercept {
        side: goths(),
        leaders: leaders.iter().map(|l| (*l).to_owned()).collect(),
        target: None,
        reconnaissance: false,
    };
    for leaders in [&["uraias"][..], &["aligern", "uraias"]] {
        let e = refusal(&mut store, &mut c, &again(leaders));
        assert_eq!(e.rule, RuleId::BE_13, "{leaders:?}: {e}");
        assert!(e.message.contains("Uraias has tried to intercept that force this turn already"), "{e}");
    }
    // The Goths read Uraias's try, and the same refusal on their form; the Byzantines read
    // nothing of which Gothic leader tried.
    assert_eq!(tries(&c, &store, &goth_v), vec![("ostrogoths".to_owned(), "uraias".to_owned(), 1)]);
    assert!(tries(&c, &store, &byz_v).is_empty(), "the Goths' tries are theirs");
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let goth_board = referee_campaign::belisarius::view::view_for(&c.state, &events, &goth_v).unwrap().board().clone();
    let contact = goth_board.contact.unwrap();
    assert_eq!(contact.may_try("uraias", 1), Err(refusal(&mut store, &mut c, &again(&["uraias"]))));
    assert_eq!(contact.may_try("aligern", 1), Ok(()));
    // Aligern (4) may: a successive attempt (BE-15). It fails too.
    let fail = interception_die(&c, 4 - 4, false, Interception::Fail);
    intercept(&mut store, &mut c, &goths(), "aligern", fail);
    assert_eq!(tries(&c, &store, &goth_v).len(), 2);
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    // Constantinus aims at one of the two Gothic markers and fails; not that one again, but
    // the other he may.
    let contact = c.state.ops.as_ref().unwrap().contact.clone().unwrap();
    let targets = mover_targets(&c.state, &contact);
    // The markers' ratings, as the referee could look them up (a decoy rates 3, BE-42).
    let ratings: Vec<i32> = targets
        .iter()
        .map(|t| match t {
            Target::Force { leader, .. } => i32::from(c.state.setup.leader(leader).unwrap().strategic),
            Target::Decoy { .. } => 3,
        })
        .collect();
    let aim = |n: u32| Order::Intercept { side: byz(), leaders: vec!["constantinus".into()], target: Some(n), reconnaissance: false };
    let fail = interception_die(&c, 4 - ratings[0], false, Interception::Fail);
    run(&mut store, &mut c, &aim(1), DiceInput::Manual(vec![fail]));
    let e = refusal(&mut store, &mut c, &aim(1));
    assert_eq!(e.rule, RuleId::BE_13, "{e}");
    assert!(e.message.contains("Constantinus has tried to intercept that force this turn already"), "{e}");
    assert_eq!(tries(&c, &store, &byz_v), vec![("byzantines".to_owned(), "constantinus".to_owned(), 1)]);
    assert_eq!(
        tries(&c, &store, &goth_v).iter().map(|t| t.1.as_str()).collect::<Vec<_>>(),
        ["aligern", "uraias"],
        "the Goths read their own tries, not Constantinus's"
    );
    assert_eq!(tries(&c, &store, &Viewer::Umpire).len(), 3, "the referee reads both sides' tries");
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let byz_board = referee_campaign::belisarius::view::view_for(&c.state, &events, &byz_v).unwrap().board().clone();
    assert_eq!(byz_board.contact.unwrap().may_try("constantinus", 2), Ok(()), "another force he may try");
    // The Byzantines' packet reads it the same way: not marker 1 again, marker 2.
    let side = referee_campaign::fixtures::belisarius::side_view(&c, &store, &byz());
    let planned = |o: &Order| referee_campaign::belisarius::plan::check(&side, &c.state.setup.map, &[], o);
    let again = planned(&aim(1)).unwrap_err();
    assert!(again.to_string().contains("Constantinus has tried to intercept that force this turn already"), "{again}");
    assert!(planned(&aim(2)).is_ok(), "{:?}", planned(&aim(2)));
    let line = interception_die(&c, 4 - ratings[1], false, Interception::LineOfBattle);
    let events = run(&mut store, &mut c, &aim(2), DiceInput::Manual(vec![line]));
    assert!(events.iter().any(|e| matches!(e, Event::BattleJoined { .. })), "{events:?}");
}

/// BE-13, BE-42, X-01: Constantinus marches on the markers of Uraias and Aligern, having
/// tried one of the two forces already this turn in another contact. Neither side can tell
/// which marker that force is now: the Byzantines read no try here, their packet passes an
/// attempt at either, and the attempt is rolled as any other, failing or not on the die; a
/// refusal, or a failure without a roll, would single the force out. Twins that differ only
/// in which force was tried before, Constantinus aiming at the same marker with the same
/// die, read the same to both sides, whether the die fails or brings a battle; the referee
/// reads that it was a second try.
#[test]
fn be_13_a_force_tried_in_another_contact_is_not_told_by_its_number() {
    use referee_campaign::Viewer;
    use referee_campaign::belisarius::interception::{Target, mover_targets};
    let twin = |tried_before: &str, want: Interception| {
        let (mut store, mut c, _) =
            contact_by("constantinus", &[(goths(), "uraias", "3B 3C", false), (goths(), "aligern", "3B 3C", false)], 0);
        run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
        c.state.ops.as_mut().unwrap().tried.insert(("constantinus".to_owned(), tried_before.to_owned()));
        let contact = c.state.ops.as_ref().unwrap().contact.clone().unwrap();
        let uraias = mover_targets(&c.state, &contact)
            .iter()
            .position(|t| matches!(t, Target::Force { leader, .. } if leader == "uraias"))
            .expect("Uraias's marker");
        let aim = Order::Intercept {
            side: byz(),
            leaders: vec!["constantinus".into()],
            target: Some(u32::try_from(uraias + 1).unwrap()),
            reconnaissance: false,
        };
        assert!(tries(&c, &store, &Viewer::Side(byz())).is_empty(), "the Byzantines cannot tell the force here");
        let umpire = tries(&c, &store, &Viewer::Umpire);
        assert_eq!(umpire.len(), 1, "the referee reads the try made elsewhere: {umpire:?}");
        let side = referee_campaign::fixtures::belisarius::side_view(&c, &store, &byz());
        assert!(referee_campaign::belisarius::plan::check(&side, &c.state.setup.map, &[], &aim).is_ok());
        let before = left(&c, &byz());
        // Uraias rates 5, Constantinus 4.
        let die = interception_die(&c, 4 - 5, false, want);
        let events = run(&mut store, &mut c, &aim, DiceInput::Manual(vec![die]));
        let attempt = events.iter().find_map(matching!(Event::InterceptionTried { attempt, .. } => attempt.clone())).unwrap();
        assert_eq!((attempt.result, attempt.repeated), (want, tried_before == "uraias"));
        assert_eq!(left(&c, &byz()), before - 1, "the attempt is spent");
        let umpire_log = store.events_as::<Belisarius>(c.id).unwrap();
        let umpire_log = referee_campaign::belisarius::view::view_for(&c.state, &umpire_log, &Viewer::Umpire).unwrap().log().to_vec();
        let said =
            umpire_log.iter().any(|l| l.text.contains("a second try at that force this turn, made where his side could not tell it"));
        assert_eq!(said, tried_before == "uraias", "{umpire_log:?}");
        [byz(), goths()].map(|side| (log_of(&c, &store, &side), view_json(&c, &store, &side)))
    };
    for want in [Interception::Fail, Interception::LineOfBattle] {
        assert_eq!(twin("uraias", want), twin("aligern", want), "{want:?}");
    }
}

/// Belisarius marched into `pieces`, the Goths declining, and Belisarius intercepting them
/// in line of battle: the battle joined, nothing rolled yet.
fn joined_in_line(pieces: &[(SideId, &str, &str, bool)]) -> (Store, Campaign<Belisarius>) {
    let (mut store, mut c, _) = contact_with(pieces, 0);
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let die = interception_die(&c, 8 - 5, false, Interception::LineOfBattle);
    intercept(&mut store, &mut c, &byz(), "belisarius", die);
    (store, c)
}

/// BE-17, BE-18, BE-19, BE-20, BE-21, BE-22: a battle in line passage by passage: both sides
/// roll each stage at once, with the commander's tactical rating; losses are shared out by
/// the owner (the refusals first); morale checks; the Goths break off, are pursued and
/// retreat; both sides read the battle in full, and the Byzantines nothing of the Goths
/// elsewhere.
#[test]
fn be_17_a_battle_in_line_fought_here() {
    let (mut store, mut c) = joined_in_line(&[(goths(), "uraias", "3B 3C i:2*D", false)]);
    refused(&mut store, &mut c, &Order::Pass { side: byz() }, "battle at");
    refused(&mut store, &mut c, &Order::BreakOff { side: goths() }, "end of a passage");
    // Fire: only the Gothic 2*D shoots (factor 2); Byzantine factor 0 does nothing. A 6 for
    // the Goths (+1 tactical): the table's 7 row at factor 2 (column 1): 10T.
    let events = run(&mut store, &mut c, &Order::Fight {}, DiceInput::Manual(vec![6]));
    let rolled = events.iter().find_map(matching!(Event::CombatRolled { owed, .. } => owed.clone()));
    let owed = rolled.expect("the fire was rolled");
    let on_byz = owed.iter().find(|(s, _)| s == &byz()).unwrap().1;
    let expected = c.state.setup.tables.combat(2, 6 + 1, 0);
    assert_eq!((on_byz.percent, on_byz.check), (expected.percent, expected.morale_check));
    let byz_points = 11;
    assert_eq!(on_byz.points, referee_campaign::belisarius::tables::percent_of(byz_points, expected.percent));
    if on_byz.points > 0 {
        refused(&mut store, &mut c, &Order::TakeLosses { side: byz(), losses: vec![(1, 9)], militia: 0 }, "has 4 points");
        refused(&mut store, &mut c, &Order::Fight {}, "first share out their losses");
    }
    // Then the battle to its end, the Goths breaking off.
    let events = fight_out(&mut store, &mut c, Some(&goths()));
    let outcome = events.iter().find_map(matching!(Event::BattleEnded { outcome } => outcome.clone()));
    let outcome = outcome.expect("ended");
    assert!(outcome.winner == Some(byz()) || outcome.how == referee_campaign::belisarius::battle::How::Destroyed, "{outcome:?}");
    let byz_log = log_of(&c, &store, &byz());
    assert!(
        byz_log.iter().any(|l| l.starts_with("Battle at") && l.contains("Uraias")),
        "inside a battle the enemy is face up: {byz_log:#?}"
    );
    assert!(byz_log.iter().any(|l| l.contains("Missile fire")));
    assert!(byz_log.iter().any(|l| l.contains("The battle at")));
    assert!(c.state.ops.as_ref().unwrap().battle.is_none());
}

/// BE-23: an ambush lasts two passages, nobody may break off, and the ambusher pursues.
#[test]
fn be_23_an_ambush_is_two_passages_and_a_pursuit() {
    let (mut store, mut c, _) = contact_with(&[(goths(), "uraias", "3B 3C", false)], 0);
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let die = interception_die(&c, 8 - 5, false, Interception::Ambush);
    let events = intercept(&mut store, &mut c, &byz(), "belisarius", die);
    assert!(events.iter().any(|e| matches!(e, Event::BattleJoined { battle } if battle.ambusher == Some(byz()))));
    refused(&mut store, &mut c, &Order::Part {}, "ambush");
    let events = fight_out(&mut store, &mut c, None);
    let passages = events.iter().filter(|e| matches!(e, Event::PassageBegan { .. })).count();
    let destroyed = events
        .iter()
        .any(|e| matches!(e, Event::BattleEnded { outcome } if outcome.how == referee_campaign::belisarius::battle::How::Destroyed));
    assert!(passages <= 1, "two passages at most: {passages}");
    if !destroyed {
        assert_eq!(passages, 1);
        assert!(events.iter().any(|e| matches!(e, Event::PursuitRolled { side, .. } if side == &goths())), "the ambusher pursues");
        assert!(events.iter().any(|e| matches!(e, Event::BattleEnded { outcome } if outcome.winner == Some(byz()) && outcome.how == referee_campaign::belisarius::battle::How::Ambushed)));
        assert!(!events.iter().any(|e| matches!(e, Event::BrokeOff { .. })));
    }
    // The ambusher's columns: the Byzantine rolls carry no "ambushed", the Gothic ones do.
    let rolls: Vec<(SideId, Vec<String>)> = events
        .iter()
        .filter_map(|e| match e {
            Event::DiceRolled(DiceRolled { roll, side: Some(s), .. }) if roll.rule.as_deref() == Some("BE-18") => {
                Some((s.clone(), roll.modifiers.iter().map(|m| m.reason.clone()).collect()))
            }
            _ => None,
        })
        .collect();
    assert!(rolls.iter().filter(|(s, _)| s == &goths()).all(|(_, m)| m.iter().any(|r| r == "ambushed")), "{rolls:?}");
    assert!(rolls.iter().filter(|(s, _)| s == &byz()).all(|(_, m)| !m.iter().any(|r| r == "ambushed")), "{rolls:?}");
}

/// X-06, BE-19: a side owing a battle's losses checks its share in its own packet, from the
/// battle both sides see face up: a unit the force has not, or a share that does not add up,
/// is refused there; the share the program suggests is checked in full, and the rules take it.
#[test]
fn be_19_a_sides_plan_checks_its_share_of_a_battles_losses() {
    use referee_campaign::belisarius::battle::Step;
    use referee_campaign::core::plan::Checked;
    let (mut store, mut c) = joined_in_line(&[(goths(), "uraias", "3B 3C", false)]);
    let owing = |c: &Campaign<Belisarius>| match &c.state.ops.as_ref()?.battle.as_ref()?.step {
        Step::Losses { owed, taken } => owed.iter().find(|(s, o)| o.points > 0 && !taken.contains(*s)).map(|(s, o)| (s.clone(), *o)),
        _ => None,
    };
    for _ in 0..20 {
        if owing(&c).is_some() {
            break;
        }
        run(&mut store, &mut c, &Order::Fight {}, DiceInput::Seeded);
    }
    let (side, owed) = owing(&c).expect("a roll that costs a side something");
    let view = referee_campaign::fixtures::belisarius::side_view(&c, &store, &side);
    let check = |losses: Vec<(u32, u8)>| {
        let order = Order::TakeLosses { side: side.clone(), losses, militia: 0 };
        referee_campaign::belisarius::plan::check(&view, &c.state.setup.map, &[], &order)
    };
    let err = check(vec![(99, 1)]).unwrap_err().to_string();
    assert!(err.contains("the force has no unit 99") && err.ends_with("BE-19"), "{err}");
    let err = check(vec![(1, 0)]).unwrap_err().to_string();
    assert!(err.ends_with("BE-19"), "{err}");
    let board = view.board.battle.as_ref().unwrap();
    let fighters: Vec<_> = board.forces.iter().filter(|f| f.side == side).flat_map(|f| f.units.iter().map(|u| u.fighter)).collect();
    let share: Vec<(u32, u8)> = referee_campaign::belisarius::fight::suggested_share(&fighters, &owed)
        .into_iter()
        .map(|(i, p)| (u32::try_from(i + 1).unwrap(), p))
        .collect();
    assert_eq!(check(share.clone()).unwrap(), Checked::AsFarAsKnown);
    run(&mut store, &mut c, &Order::TakeLosses { side, losses: share, militia: 0 }, DiceInput::Seeded);
}

/// BE-21, BE-09: a small force against a great one is destroyed and its leader dies with it.
#[test]
fn be_21_a_destroyed_force_loses_its_leader() {
    let (mut store, mut c, _) = contact_with(&[(goths(), "victiger", "1D", false)], 0);
    // A great Byzantine host.
    for p in c.state.pieces.iter_mut() {
        if let PieceKind::Leader { leader, units } = &mut p.kind
            && leader == "belisarius"
        {
            *units = units_of("k:5A k:5A k:5A k:5A k:5A");
        }
    }
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let die = interception_die(&c, 8 - 3, false, Interception::LineOfBattle);
    intercept(&mut store, &mut c, &byz(), "belisarius", die);
    let events = fight_out(&mut store, &mut c, None);
    assert!(events.iter().any(|e| matches!(e, Event::BattleEnded { outcome } if outcome.how == referee_campaign::belisarius::battle::How::Destroyed && outcome.winner == Some(byz()))), "{events:?}");
    assert!(events.iter().any(|e| matches!(e, Event::LeaderKilled { leader, .. } if leader == "victiger")));
    assert!(!c.state.pieces.iter().any(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "victiger")));
}

/// BE-11: on its way a force takes along an inferior leader not yet activated and units
/// with no leader, leaves units in a city it holds and a leader behind, and steps into the
/// city and out for nothing; what it leaves may not go on with another force this phase.
/// The Goths read only the markers that part or join.
#[test]
fn be_11_a_force_picks_up_and_drops_off_on_the_way() {
    let (mut store, mut c) = italy();
    let map = c.state.setup.map.clone();
    let a = map.zones.iter().find(|z| z.terrain == Terrain::Plain).unwrap().id.clone();
    let b = map.zone(&a).unwrap().neighbours[0].clone();
    let far = map.zone(&b).unwrap().neighbours.iter().find(|z| **z != a).unwrap().clone();
    stage(
        &mut c,
        &[
            (byz(), "belisarius", "4B 3C 2C", Location::Zone(a.clone())),
            (byz(), "constantinus", "2B", Location::Zone(b.clone())),
            (byz(), "bessas", "2B", Location::Zone(b.clone())),
            (goths(), "uraias", "3B", Location::Zone(far.clone())),
        ],
    );
    c.state.pieces.push(Piece { side: byz(), at: Location::Zone(b.clone()), kind: PieceKind::Group { units: units_of("i:2D") } });
    hold(&mut c, &b, &byz());
    hold(&mut c, &a, &goths());
    let units_of_leader = |c: &Campaign<Belisarius>, id: &str| -> Vec<u8> {
        c.state
            .pieces
            .iter()
            .find_map(|p| match &p.kind {
                PieceKind::Leader { leader, units } if leader == id => Some(units.iter().map(|u| u.value).collect()),
                _ => None,
            })
            .unwrap()
    };
    run(&mut store, &mut c, &Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] }, DiceInput::Seeded);
    run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "belisarius".into(), path: vec![b.0.clone()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
    // Constantinus, of lower rank and not yet activated, comes along, with the units that
    // stand there without a leader.
    run(
        &mut store,
        &mut c,
        &Order::PickUp { side: byz(), leader: "belisarius".into(), units: vec![1], leaders: vec!["constantinus".into()] },
        DiceInput::Seeded,
    );
    assert_eq!(units_of_leader(&c, "belisarius"), vec![4, 3, 2, 2], "the 2D joins Belisarius's box");
    assert_eq!(c.state.ops.as_ref().unwrap().active.as_ref().unwrap().with, vec!["constantinus".to_owned()]);
    refused(
        &mut store,
        &mut c,
        &Order::PickUp { side: byz(), leader: "belisarius".into(), units: vec![], leaders: vec!["constantinus".into()] },
        "activated this phase already",
    );
    refused(
        &mut store,
        &mut c,
        &Order::PickUp { side: byz(), leader: "belisarius".into(), units: vec![1], leaders: vec![] },
        "not a unit 1",
    );
    // Only leaders with the force are left on the way; the 3C goes into the city the
    // Byzantines hold.
    refused(
        &mut store,
        &mut c,
        &Order::Drop { side: byz(), leader: "belisarius".into(), units: vec![], leaders: vec!["bessas".into()], city: false },
        "not activated with",
    );
    run(
        &mut store,
        &mut c,
        &Order::Drop { side: byz(), leader: "belisarius".into(), units: vec![2], leaders: vec![], city: true },
        DiceInput::Seeded,
    );
    assert_eq!(units_of_leader(&c, "belisarius"), vec![4, 2, 2]);
    let city_b = city_of(&c, &b);
    assert!(
        c.state
            .pieces
            .iter()
            .any(|p| p.at == city_b && matches!(&p.kind, PieceKind::Group { units } if units.iter().any(|u| u.value == 3)))
    );
    // Units left by a force activated this phase may not go on with it again.
    refused(
        &mut store,
        &mut c,
        &Order::PickUp { side: byz(), leader: "belisarius".into(), units: vec![1], leaders: vec![] },
        "may not go on",
    );
    // Into the city and out, for nothing.
    let before = left(&c, &byz());
    run(&mut store, &mut c, &Order::Shift { side: byz(), leader: "belisarius".into(), into_city: true }, DiceInput::Seeded);
    let at = |c: &Campaign<Belisarius>, id: &str| {
        c.state.pieces.iter().find(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == id)).unwrap().at.clone()
    };
    assert_eq!(at(&c, "belisarius"), city_b);
    assert_eq!(at(&c, "constantinus"), city_b, "the leader with him goes in too");
    run(&mut store, &mut c, &Order::Shift { side: byz(), leader: "belisarius".into(), into_city: false }, DiceInput::Seeded);
    assert_eq!(left(&c, &byz()), before, "city and zone: no AP");
    // Constantinus is left behind; Belisarius marches back alone.
    run(
        &mut store,
        &mut c,
        &Order::Drop { side: byz(), leader: "belisarius".into(), units: vec![], leaders: vec!["constantinus".into()], city: false },
        DiceInput::Seeded,
    );
    // A city the enemy holds is not entered without a siege (BE-24).
    // the Byzantines' packet reads a step into the city as the rules do: who holds it
    // is public.
    let shift = |into_city: bool| Order::Shift { side: byz(), leader: "belisarius".into(), into_city };
    let planned = |c: &Campaign<Belisarius>, order: &Order| {
        let side = referee_campaign::fixtures::belisarius::side_view(c, &store, &byz());
        referee_campaign::belisarius::plan::check(&side, &c.state.setup.map, &[], order)
    };
    assert_eq!(planned(&c, &shift(true)), Ok(referee_campaign::core::plan::Checked::AsFarAsKnown));
    assert!(planned(&c, &shift(false)).unwrap_err().to_string().contains("in the open already"));
    hold(&mut c, &b, &goths());
    let held = planned(&c, &shift(true)).unwrap_err().to_string();
    assert!(held.contains("is held by the Ostrogoths") && held.ends_with("BE-24"), "{held}");
    refused(&mut store, &mut c, &Order::Shift { side: byz(), leader: "belisarius".into(), into_city: true }, "BE-24");
    assert_eq!(at(&c, "constantinus"), Location::Zone(b.clone()));
    // The Goths read the markers that joined and parted, nothing of the units.
    let goth_log = log_of(&c, &store, &goths());
    let lines: Vec<&String> = goth_log.iter().filter(|l| l.contains("BE-11")).collect();
    assert!(lines.iter().any(|l| l.contains("a marker joins a force")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("leaves a marker")), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("2D") && !l.contains("3C") && !l.contains("Constantinus")), "{lines:?}");
    // The Byzantines read where each was left: the 3C in the city, Constantinus in the open.
    let byz_log = log_of(&c, &store, &byz());
    let left_at: Vec<&String> = byz_log.iter().filter(|l| l.contains(" leaves ")).collect();
    let zone_name = c.state.setup.place_name(&Location::Zone(b.clone()));
    let city_name = c.state.setup.place_name(&city_b);
    assert!(left_at.iter().any(|l| l.contains(&format!("3C in {city_name} — BE-11"))), "{left_at:?}");
    assert!(left_at.iter().any(|l| l.contains(&format!("Constantinus in the open at {zone_name}"))), "{left_at:?}");
}

/// Belisarius marched into `pieces`, the Goths declining, Belisarius intercepting them in line
/// of battle, and the battle sent to the tabletop.
fn on_the_table(pieces: &[(SideId, &str, &str, bool)]) -> (Store, Campaign<Belisarius>, ZoneId) {
    let (mut store, mut c, zone) = contact_with(pieces, 0);
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let die = interception_die(&c, 8 - 5, false, Interception::LineOfBattle);
    run(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: Some(1), reconnaissance: false },
        DiceInput::Manual(vec![die]),
    );
    run(&mut store, &mut c, &Order::SendToTable {}, DiceInput::Seeded);
    (store, c, zone)
}

/// BE-17, BE-19, BE-22, BE-09: a battle sent to the tabletop is not rolled here; its result
/// comes back whole — losses per unit, a leader killed, the side that broke off and its
/// retreat — and is refused whole when it does not add up.
#[test]
fn be_17_a_battle_fought_on_the_table_comes_back_as_its_result() {
    use referee_campaign::belisarius::battle::TableResult;
    use std::collections::BTreeMap;
    let (mut store, mut c, zone) = on_the_table(&[(goths(), "uraias", "3B 3C", false), (goths(), "victiger", "2C", false)]);
    refused(&mut store, &mut c, &Order::Fight {}, "fought on the table");
    refused(&mut store, &mut c, &Order::SendToTable {}, "on the table already");
    let result =
        |losses: Vec<(SideId, Vec<(u32, u8)>)>, broke: Option<SideId>, retreat: Option<&str>, killed: Vec<&str>| Order::RecordBattle {
            result: TableResult {
                losses: losses.into_iter().collect::<BTreeMap<_, _>>(),
                leaders_killed: killed.into_iter().map(str::to_owned).collect(),
                broke_off: broke,
                retreat: retreat.map(str::to_owned),
                parted: false,
            },
        };
    let neighbour = free_neighbour(&c, &zone, &goths());
    refused(&mut store, &mut c, &result(vec![(goths(), vec![(1, 4)])], Some(goths()), Some(&neighbour), vec![]), "has 3 points, not 4");
    refused(&mut store, &mut c, &result(vec![(goths(), vec![(3, 1)])], Some(goths()), Some(&neighbour), vec![]), "no unit 3");
    refused(&mut store, &mut c, &result(vec![(goths(), vec![(1, 1)])], Some(goths()), None, vec![]), "name where they retreated");
    refused(&mut store, &mut c, &result(vec![(goths(), vec![(1, 1)])], None, None, vec![]), "say how the battle ended");
    refused(&mut store, &mut c, &result(vec![], Some(goths()), Some(&neighbour), vec!["victiger"]), "not a leader in this battle");
    // The Goths lose 3 and 2, Uraias falls, and they break off to a neighbouring zone.
    let events = run(
        &mut store,
        &mut c,
        &result(vec![(goths(), vec![(1, 3), (2, 2)]), (byz(), vec![(3, 1)])], Some(goths()), Some(&neighbour), vec!["uraias"]),
        DiceInput::Seeded,
    );
    assert!(events.iter().any(|e| matches!(e, Event::LeaderKilled { leader, .. } if leader == "uraias")));
    assert!(events.iter().any(|e| matches!(e, Event::BattleEnded { outcome } if outcome.winner == Some(byz()) && outcome.lost.contains(&(goths(), 5)) && outcome.lost.contains(&(byz(), 1)))), "{events:?}");
    assert!(c.state.ops.as_ref().unwrap().battle.is_none());
    // His last unit goes on without a leader, where the force retreated.
    assert!(c.state.pieces.iter().any(|p| p.side == goths()
        && matches!(&p.kind, PieceKind::Group { units } if units.iter().map(|u| u.value).collect::<Vec<_>>() == vec![1])));
}

/// BE-22, BE-10: the acting force beaten on the table acts on from where it retreated: its
/// marker, and every later order of his (a siege, a march), stand there, not in the zone of
/// the battle.
#[test]
fn be_22_an_acting_force_that_retreats_acts_on_from_where_it_went() {
    use referee_campaign::belisarius::battle::TableResult;
    let (mut store, mut c, zone) = on_the_table(&[(goths(), "uraias", "3B 3C", false)]);
    let back = c.state.setup.map.zone(&zone).unwrap().neighbours[0].clone();
    let result = TableResult {
        losses: [(byz(), vec![(1, 1)])].into_iter().collect(),
        leaders_killed: vec![],
        broke_off: Some(byz()),
        retreat: Some(back.0.clone()),
        parted: false,
    };
    run(&mut store, &mut c, &Order::RecordBattle { result }, DiceInput::Seeded);
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!(ops.active.as_ref().map(|a| &a.at), Some(&Location::Zone(back.clone())), "the acting force stands where it retreated");
    let view = referee_campaign::fixtures::belisarius::side_view(&c, &store, &goths());
    assert_eq!(view.board.operations.unwrap().acting_at, Some(Location::Zone(back)), "and the other side sees it there");
    // Beaten, his march is over; a siege of the city he left is not his to lay.
    refused(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: "belisarius".into(), path: vec![zone.0.clone()], attrition_from: vec![] },
        "lost his battle",
    );
    let own = referee_campaign::fixtures::belisarius::side_view(&c, &store, &byz()).own;
    assert_eq!(own.halted, ["belisarius"], "his own side reads that his march is over");
}

/// One run of the decoy differential: the Byzantine marker at `from` is Belisarius or a
/// decoy, the other one far away; the marker at `from` is activated and marched a zone.
/// Returns the Goths' view after each order, and the campaign.
fn decoy_run(decoy_marches: bool) -> (Vec<String>, Store, Campaign<Belisarius>, ZoneId) {
    let (mut store, mut c) = italy();
    let map = c.state.setup.map.clone();
    let from = map.zones.iter().find(|z| z.terrain == Terrain::Plain).unwrap().id.clone();
    let next = map.zone(&from).unwrap().neighbours[0].clone();
    let beyond = map.zone(&next).unwrap().neighbours.iter().find(|z| **z != from).unwrap().clone();
    let far = map.zones.iter().find(|z| z.id != from && z.id != next && z.id != beyond && !map.adjacent(&z.id, &next)).unwrap().id.clone();
    let (decoy_at, leader_at) = if decoy_marches { (from.clone(), far.clone()) } else { (far.clone(), from.clone()) };
    stage(
        &mut c,
        &[(byz(), "belisarius", "4B 4B 3C", Location::Zone(leader_at)), (goths(), "uraias", "3B 3C", Location::Zone(beyond.clone()))],
    );
    c.state.pieces.push(Piece {
        side: byz(),
        at: Location::Zone(decoy_at),
        kind: PieceKind::LeaderDecoy { id: "decoy-byzantines-9".into() },
    });
    let goth_view = |c: &Campaign<Belisarius>, store: &Store| view_json(c, store, &goths());
    let mover = if decoy_marches { "decoy-byzantines-9" } else { "belisarius" };
    let mut out = vec![goth_view(&c, &store)];
    run(&mut store, &mut c, &Order::Activate { side: byz(), leader: mover.into(), with: vec![] }, DiceInput::Seeded);
    out.push(goth_view(&c, &store));
    run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: mover.into(), path: vec![next.0.clone()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
    out.push(goth_view(&c, &store));
    (out, store, c, beyond)
}

/// BE-42, BE-53: a decoy is activated and marches like a leader, for the same action points,
/// and the Goths read exactly the same whether Belisarius or a decoy marched; a decoy may
/// not intercept or carry troops; intercepted on its march, it leaves the map.
#[test]
fn be_42_a_decoy_marches_like_a_leader_and_nobody_can_tell() {
    let (a, ..) = decoy_run(false);
    let (b, mut store, mut c, beyond) = decoy_run(true);
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let differs = x.lines().zip(y.lines()).find(|(p, q)| p != q);
        assert!(differs.is_none() && x.len() == y.len(), "step {i}: the Goths can tell a decoy from a leader: {differs:?}");
    }
    assert_eq!(left(&c, &byz()), 15, "the decoy's march is paid like a leader's");
    let decoy = "decoy-byzantines-9";
    refused(&mut store, &mut c, &Order::PickUp { side: byz(), leader: decoy.into(), units: vec![1], leaders: vec![] }, "BE-42");
    // On into the Goths' zone: they intercept the marching marker, and it was a decoy.
    run(
        &mut store,
        &mut c,
        &Order::Move { side: byz(), leader: decoy.into(), path: vec![beyond.0.clone()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
    );
    refused(
        &mut store,
        &mut c,
        &Order::Intercept { side: byz(), leaders: vec![decoy.into()], target: None, reconnaissance: false },
        "for the Ostrogoths",
    );
    let mountains = c.state.setup.map.zone(&beyond).unwrap().terrain == Terrain::Mountain;
    let die = interception_die(&c, 5 - 3, mountains, Interception::LineOfBattle);
    let events = intercept(&mut store, &mut c, &goths(), "uraias", die);
    assert!(events.iter().any(|e| matches!(e, Event::DecoyRemoved { id, .. } if id == decoy)), "{events:?}");
    assert!(c.state.ops.as_ref().unwrap().contact.is_none());
    assert_eq!(c.state.decoys_out[&byz()], 1);
    let goth_log = log_of(&c, &store, &goths());
    assert!(goth_log.iter().any(|l| l.contains("The Byzantines' marker intercepted at") && l.contains("was a decoy")), "{goth_log:#?}");
}

/// BE-14: the interception table is read by the interceptor's strategic rating less the
/// target's, a d6 below 1 reading 1; in mountains the die loses 1.
#[test]
fn be_14_interception_reads_the_strategic_difference_and_the_mountains() {
    let setup: Setup = World::embedded().setup("italy-535").unwrap();
    let t = &setup.tables;
    // Belisarius (8) against a king of 6: a 2 catches him in line, a 1 does not.
    assert_eq!(t.interception(2, 2, 0), Interception::LineOfBattle);
    assert_eq!(t.interception(2, 1, 0), Interception::Fail);
    // Beyond the table's columns the last one is read: 8 against a decoy's 3.
    assert_eq!(t.interception(5, 1, 0), t.interception(3, 1, 0));
    // In the game: a mountain zone takes 1 off the die, and the roll says so.
    let (mut store, mut c, zone) = contact_with(&[(goths(), "uraias", "3B 3C", false)], 0);
    let mountains = c.state.setup.map.zone(&zone).unwrap().terrain == Terrain::Mountain;
    let events = intercept(&mut store, &mut c, &goths(), "uraias", 3);
    let roll = events.iter().find_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) => roll.clone()));
    let roll = roll.unwrap();
    assert_eq!(roll.modifiers.iter().any(|m| m.reason == "mountains"), mountains);
    let tried = events.iter().find_map(matching!(Event::InterceptionTried { attempt, .. } => attempt.clone()));
    let tried = tried.unwrap();
    assert_eq!(tried.difference, 5 - 8);
    assert_eq!(tried.result, c.state.setup.tables.interception(-3, (3 - i32::from(mountains)).max(1), 0));
}

/// BE-15, BE-43: a combined attempt rates the highest-ranked leader, whoever is named first;
/// each leader tries once against the force; Reconnaissance moves the roll two columns.
#[test]
fn be_15_a_combined_attempt_rates_its_highest_rank_and_reconnaissance_shifts_it() {
    let (mut store, mut c, zone) = contact_with(&[(goths(), "uraias", "3B 3C", false), (goths(), "victiger", "2C", false)], 0);
    let mountains = c.state.setup.map.zone(&zone).unwrap().terrain == Terrain::Mountain;
    c.state.hands.insert(goths(), vec!["reconnaissance".into()]);
    // Uraias (rank 4, strategic 5) leads Victiger (rank 2, strategic 3): 5 − 8 = −3. On the
    // −3 column a 5 fails; two columns right (−1) it is a battle.
    let die = (1..=6u8)
        .find(|d| {
            let d = (i32::from(*d) - i32::from(mountains)).max(1);
            c.state.setup.tables.interception(-3, d, 0) == Interception::Fail
                && c.state.setup.tables.interception(-3, d, 2) != Interception::Fail
        })
        .expect("a die the shift turns");
    let combined =
        Order::Intercept { side: goths(), leaders: vec!["victiger".into(), "uraias".into()], target: None, reconnaissance: true };
    let events = run(&mut store, &mut c, &combined, DiceInput::Manual(vec![die]));
    let tried = events.iter().find_map(matching!(Event::InterceptionTried { attempt, .. } => attempt.clone()));
    let tried = tried.unwrap();
    assert_eq!(tried.leaders, vec!["uraias".to_owned(), "victiger".to_owned()], "the highest rank leads");
    assert_eq!(tried.difference, -3);
    assert_ne!(tried.result, Interception::Fail, "the two columns turned a failure into a battle");
    assert!(c.state.hands[&goths()].is_empty(), "the stratagem is spent");
}

/// BE-20: morale checks after losses: a unit failing its 2d6 (with its commander's rating
/// and the check's penalty) goes to the disordered box and fights no more in the battle.
#[test]
fn be_20_a_unit_that_fails_its_morale_check_is_disordered() {
    let (mut store, mut c, zone) = contact_with(&[(goths(), "uraias", "3B 3C", false)], 0);
    let mountains = c.state.setup.map.zone(&zone).unwrap().terrain == Terrain::Mountain;
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let line = interception_die(&c, 8 - 5, mountains, Interception::LineOfBattle);
    intercept(&mut store, &mut c, &byz(), "belisarius", line);
    // Nobody shoots; in the melee the Byzantines roll a 6 and the Goths a 1.
    let events = run(&mut store, &mut c, &Order::Fight {}, DiceInput::Manual(vec![6, 1]));
    // The fire (nobody shoots) and then the melee: the melee's is the last.
    let owed: Vec<(SideId, referee_campaign::belisarius::fight::Owed)> =
        events.iter().rev().find_map(matching!(Event::CombatRolled { owed, .. } => owed.clone())).unwrap();
    let on_goths = owed.iter().find(|(s, _)| *s == goths()).unwrap().1;
    let on_byz = owed.iter().find(|(s, _)| *s == byz()).unwrap().1;
    assert!(on_goths.check.is_some(), "a hard blow calls for a check: {on_goths:?}");
    if on_byz.points > 0 {
        let losses = referee_campaign::belisarius::fight::suggested_share(
            &referee_campaign::belisarius::battle::roster(
                &c.state,
                c.state.ops.as_ref().unwrap().battle.as_ref().unwrap().force(&byz()).unwrap(),
            )
            .iter()
            .map(|u| u.fighter)
            .collect::<Vec<_>>(),
            &on_byz,
        )
        .into_iter()
        .map(|(i, p)| (u32::try_from(i + 1).unwrap(), p))
        .collect();
        run(&mut store, &mut c, &Order::TakeLosses { side: byz(), losses, militia: 0 }, DiceInput::Seeded);
    }
    // The Goths take their points from the 3B; the 3C checks at T and rolls snake eyes.
    let losses = if on_goths.points >= 3 {
        vec![(1, 3), (2, u8::try_from(on_goths.points - 3).unwrap())]
    } else {
        vec![(1, u8::try_from(on_goths.points).unwrap())]
    };
    let losses: Vec<(u32, u8)> = losses.into_iter().filter(|(_, p)| *p > 0).collect();
    let units_left = if on_goths.points >= 3 { 1 } else { 2 };
    let dice: Vec<u8> = std::iter::repeat_n([1u8, 1u8], units_left).flatten().collect();
    let events = run(&mut store, &mut c, &Order::TakeLosses { side: goths(), losses, militia: 0 }, DiceInput::Manual(dice));
    let disordered = events.iter().find_map(matching!(Event::MoraleChecked { side, disordered } if *side == goths() => disordered.clone()));
    assert_eq!(disordered.expect("the Goths checked").len(), units_left, "2 on the dice fails any check");
    let b = c.state.ops.as_ref().unwrap().battle.clone();
    if let Some(b) = b {
        let f: Vec<_> =
            referee_campaign::belisarius::battle::roster(&c.state, b.force(&goths()).unwrap()).iter().map(|u| u.fighter).collect();
        assert_eq!(
            referee_campaign::belisarius::fight::combat_factor(&f, referee_campaign::belisarius::fight::Stage::Melee),
            0,
            "disordered units do not fight"
        );
    }
}

/// BE-46: a battle won leaves the zone to the side left alone in it, and the zone the beaten
/// side falls back into, with nobody of the enemy's there, is the beaten side's.
#[test]
fn be_46_the_side_left_alone_after_a_battle_controls_the_zone() {
    use referee_campaign::belisarius::battle::TableResult;
    let (mut store, mut c, zone) = contact_with(&[(goths(), "uraias", "3B 3C", false)], 0);
    c.state.control.insert(zone.clone(), goths());
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    let mountains = c.state.setup.map.zone(&zone).unwrap().terrain == Terrain::Mountain;
    let line = interception_die(&c, 8 - 5, mountains, Interception::LineOfBattle);
    intercept(&mut store, &mut c, &byz(), "belisarius", line);
    assert_eq!(c.state.control[&zone], goths(), "marching in with the enemy there takes nothing");
    run(&mut store, &mut c, &Order::SendToTable {}, DiceInput::Seeded);
    let retreat = free_neighbour(&c, &zone, &goths());
    let fallback = ZoneId::new(retreat.as_str());
    c.state.control.insert(fallback.clone(), byz());
    let result = TableResult {
        losses: [(goths(), vec![(1, 1)])].into_iter().collect(),
        leaders_killed: vec![],
        broke_off: Some(goths()),
        retreat: Some(retreat),
        parted: false,
    };
    let events = run(&mut store, &mut c, &Order::RecordBattle { result }, DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::ZoneControlled { zone: z, side } if *z == zone && *side == byz())), "{events:?}");
    assert_eq!(c.state.control[&zone], byz());
    assert_eq!(c.state.control[&fallback], goths(), "the Goths fell back into an empty Byzantine zone");
}
