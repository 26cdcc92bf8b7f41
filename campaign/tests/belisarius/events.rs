//! Belisarius random events and the Franks (BE-47, BE-48, BE-43, BE-52): the events phase in
//! summer and winter before the supply, the event table with its dice typed in, each event's
//! effect and how long it lasts, red events once only, the scenarios' limits, the leaders
//! called away and their return, and the Franks as allies or on their own.

use referee_campaign::Store;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::franks;
use referee_campaign::belisarius::map::ZoneId;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::random_events::{self, Back, InForce};
use referee_campaign::belisarius::state::{Location, Phase, Piece, PieceKind};
use referee_campaign::belisarius::view::{View, view_for};
use referee_campaign::core::log::DiceRolled;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::fixtures::belisarius::{
    all_dice, at_turn, byz, goths, italy_under_vitiges, log_of, refused, run, stage, supply_phase, typed, units_of,
};
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

use crate::common::matching;

/// The events phase with its dice typed in: the events it stored.
fn events(store: &mut Store, c: &mut Campaign<Belisarius>, dice: &[u8]) -> Vec<Event> {
    run(store, c, &Order::PlayEvents {}, DiceInput::Manual(dice.to_vec()))
}

fn drawn(events: &[Event]) -> (Option<char>, Option<String>) {
    events.iter().find_map(matching!(Event::EventDrawn { letter, why_not } => (*letter, why_not.clone()))).expect("the table was rolled")
}

/// BE-47: the events phase opens a summer or winter turn, before the supply; autumn and
/// spring have none; each turn plays it once; the scenario's letters and red events.
#[test]
fn be_47_the_events_phase_comes_in_summer_and_winter_before_the_supply() {
    // Italy starts in summer 535: no events phase on turn 2, in autumn.
    let (mut store, mut c) = at_turn("italy-535", 2, 47);
    assert!(!random_events::pending(&c.state));
    refused(&mut store, &mut c, &Order::PlayEvents {}, "summer and winter only");
    // Winter 535: the supply waits for the events.
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    assert!(random_events::pending(&c.state));
    refused(&mut store, &mut c, &Order::CheckSupply {}, "the events phase comes first");
    // 3 + 4 = 7: storms, in force this turn (BE-47 N).
    let ev = events(&mut store, &mut c, &[3, 4]);
    assert_eq!(drawn(&ev), (Some('N'), None));
    assert!(random_events::in_force(&c.state, 'N'));
    assert_eq!(random_events::storm_die(&c.state), 2);
    refused(&mut store, &mut c, &Order::PlayEvents {}, "no events phase");
    assert!(log_of(&c, &store, &goths()).join("\n").contains("Random event: event N, Storms"), "events are public");
    let ones = all_dice(&c, &Order::CheckSupply {}, 1);
    run(&mut store, &mut c, &Order::CheckSupply {}, ones);
    // 6 + 6 = 12: event H, which Italy does not allow.
    let (mut store, mut c) = at_turn("italy-535", 5, 47);
    let ev = events(&mut store, &mut c, &[6, 6]);
    assert_eq!(drawn(&ev).0, Some('H'));
    assert!(drawn(&ev).1.unwrap().contains("cannot happen in this scenario"));
    // 3 and a second die of 5: event I, red, with no Vandal ships in play: no event.
    let (mut store, mut c) = at_turn("italy-535", 5, 47);
    let ev = events(&mut store, &mut c, &[1, 2, 5]);
    assert_eq!(drawn(&ev).0, Some('I'));
    assert!(drawn(&ev).1.unwrap().contains("no ships"));
    // The last two scenarios allow L to O only: 2 and a second die of 1 (event A) is nothing.
    let (mut store, mut c) = at_turn("goths-541", 2, 47);
    if !random_events::pending(&c.state) {
        c.state.turn = 3;
    }
    let ev = events(&mut store, &mut c, &[1, 1, 1]);
    assert_eq!(drawn(&ev).0, Some('A'));
    assert!(drawn(&ev).1.unwrap().contains("cannot happen in this scenario"));
}

/// BE-47 (event H), BE-49: Africa rolls once, on its first turn (autumn), and only H counts:
/// Zano's expedition and its fleet stand at Carthage.
#[test]
fn be_47_africa_rolls_once_and_only_event_h_counts() {
    let (mut store, mut c) = at_turn("africa-533", 1, 47);
    assert!(random_events::pending(&c.state), "Africa's one roll, in autumn");
    let tzazon_ship = c.state.pieces_of(&SideId::new("vandals")).find(|p| matches!(p.kind, PieceKind::Fleet { .. })).unwrap().at.clone();
    assert_eq!(tzazon_ship.id(), "caralis");
    let ev = events(&mut store, &mut c, &[6, 6]);
    assert_eq!(drawn(&ev), (Some('H'), None));
    let vandals = SideId::new("vandals");
    assert_eq!(c.state.marker(&vandals, "tzazon").unwrap().at.id(), "carthago");
    assert!(c.state.pieces_of(&vandals).filter(|p| p.kind.is_naval()).all(|p| p.at.id() == "carthago"));
    // No second roll: turn 2 is a winter, but Africa rolls on its first turn only.
    let (_, mut c) = at_turn("africa-533", 2, 47);
    c.state.events_played = 1;
    assert!(!random_events::pending(&c.state));
}

/// BE-47 (A): Belisarius goes east; his units stay without him, the command passes down the
/// succession, Narses comes the next turn to take it; no Byzantine reinforcements meanwhile;
/// Belisarius may come back from the fourth turn on a 5 or 6; a red event happens once.
#[test]
fn be_47_a_belisarius_called_to_persia_and_back() {
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    let place = c.state.marker(&byz(), "belisarius").unwrap().at.clone();
    let points: u32 = c.state.marker(&byz(), "belisarius").unwrap().kind.units().iter().map(|u| u32::from(u.value)).sum();
    // 2 and a second die of 2: event A.
    let ev = events(&mut store, &mut c, &[1, 1, 2]);
    assert_eq!(drawn(&ev), (Some('A'), None));
    assert!(c.state.marker(&byz(), "belisarius").is_none(), "Belisarius has left");
    let left: u32 = c
        .state
        .pieces_of(&byz())
        .filter(|p| p.at == place && matches!(p.kind, PieceKind::Group { .. }))
        .flat_map(|p| p.kind.units())
        .map(|u| u32::from(u.value))
        .sum();
    assert!(left >= points, "his units stay where he stood, without him");
    assert_eq!(c.state.cinc[&byz()].as_deref(), Some("mundus"), "the next on the map takes command");
    assert!(c.state.away.iter().any(|a| a.leader == "belisarius" && a.back == Back::Roll { from: 7, need: 5 }));
    // Turn 4 (spring 536): Narses arrives and takes command; Dalmatia's reinforcement is lost.
    c.state.turn = 4;
    let ev = events(&mut store, &mut c, &[]);
    assert!(ev.iter().any(|e| matches!(e, Event::LeaderReturned { leader, .. } if leader == "narses")));
    assert_eq!(c.state.cinc[&byz()].as_deref(), Some("narses"));
    let at = c.state.control.iter().find(|(_, s)| **s == byz()).unwrap().0.0.clone();
    run(&mut store, &mut c, &Order::PlaceReinforcements { side: byz(), at }, DiceInput::Seeded);
    assert!(c.state.marker(&byz(), "narses").is_some());
    let ones = all_dice(&c, &Order::CheckSupply {}, 1);
    run(&mut store, &mut c, &Order::CheckSupply {}, ones);
    let ev = run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Manual(vec![1, 1]));
    assert!(
        !ev.iter().any(|e| matches!(e, Event::ReinforcementsDue { due } if *due.side() == byz())
            || matches!(e, Event::ReinforcementsArrived { side, .. } if *side == byz())),
        "no Byzantine reinforcements while Belisarius is away"
    );
    // Turn 7 (winter 536): a 4 keeps him away; turn 8: a 5 brings him back in command.
    c.state.turn = 7;
    let ev = events(&mut store, &mut c, &[3, 4, 4]);
    assert!(!ev.iter().any(|e| matches!(e, Event::LeaderReturned { .. })));
    c.state.turn = 8;
    let ev = events(&mut store, &mut c, &[5]);
    assert!(ev.iter().any(|e| matches!(e, Event::LeaderReturned { leader, .. } if leader == "belisarius")));
    assert_eq!(c.state.cinc[&byz()].as_deref(), Some("belisarius"));
    // Red: A does not happen twice.
    c.state.turn = 9;
    let ev = events(&mut store, &mut c, &[1, 1, 2]);
    assert!(drawn(&ev).1.unwrap().contains("once already"));
}

/// BE-47 (E, F, B): the highest-ranked Byzantine is away two turns and comes back by himself;
/// Belisarius replaced by Narses comes back on 11 or more, +1 each six months after the
/// first; unrest in Africa takes Belisarius and six combat points, three of them cavalry,
/// only while Africa is not all Byzantine.
#[test]
fn be_47_leaders_called_away_come_back() {
    // E: 4 and a second die of 5.
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    let ev = events(&mut store, &mut c, &[2, 2, 5]);
    assert_eq!(drawn(&ev), (Some('E'), None));
    assert!(c.state.away.iter().any(|a| a.leader == "belisarius" && a.back == Back::On { turn: 5, regions: vec![] }));
    c.state.turn = 5;
    let ev = events(&mut store, &mut c, &[3, 4]);
    assert!(ev.iter().any(|e| matches!(e, Event::LeaderReturned { leader, .. } if leader == "belisarius")));
    assert_eq!(c.state.cinc[&byz()].as_deref(), Some("belisarius"), "the commander-in-chief takes command again");

    // F: 2 and a second die of 6; Narses replaces him at once.
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    let ev = events(&mut store, &mut c, &[1, 1, 6]);
    assert_eq!(drawn(&ev), (Some('F'), None));
    assert_eq!(c.state.cinc[&byz()].as_deref(), Some("narses"));
    assert!(
        c.state
            .reinforcements_due
            .iter()
            .any(|d| matches!(d, referee_campaign::belisarius::reinforce::Due::Line { line, .. } if line.leaders == ["narses"]))
    );
    c.state.reinforcements_due.clear();
    // Six months later (turn 5): 10 is not enough; a year later (turn 7): 10 + 1 is.
    c.state.turn = 5;
    let ev = events(&mut store, &mut c, &[3, 4, 5, 5]);
    assert!(!ev.iter().any(|e| matches!(e, Event::LeaderReturned { .. })));
    c.state.turn = 7;
    let ev = events(&mut store, &mut c, &[3, 4, 5, 5]);
    let recall =
        ev.iter().find_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) if roll.purpose.contains("recall") => roll.clone()));
    assert_eq!(recall.unwrap().total(), 11);
    assert!(ev.iter().any(|e| matches!(e, Event::LeaderReturned { leader, .. } if leader == "belisarius")));

    // B: nothing while the Byzantines hold all Africa (Italy's start) …
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    let ev = events(&mut store, &mut c, &[2, 2, 1]);
    assert_eq!(drawn(&ev).0, Some('B'));
    assert!(drawn(&ev).1.unwrap().contains("hold all Africa"));
    // … but with a zone of Africa lost, Belisarius and six points leave for two turns.
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    stage(&mut c, &[(byz(), "belisarius", "1*A 1*A 2B i:2C i:2C", Location::Zone(ZoneId::new("bruttii")))]);
    c.state.control.insert(ZoneId::new("tripolitania"), goths());
    let ev = events(&mut store, &mut c, &[2, 2, 1]);
    assert_eq!(drawn(&ev), (Some('B'), None));
    let away = c.state.away.iter().find(|a| a.leader == "belisarius").unwrap();
    let cavalry: u32 = away.units.iter().filter(|u| u.is_cavalry()).map(|u| u32::from(u.value)).sum();
    let all: u32 = away.units.iter().map(|u| u32::from(u.value)).sum();
    assert!(cavalry >= 3 && all == 6, "{:?}", away.units);
    assert_eq!(away.back, Back::On { turn: 5, regions: vec!["sicilia".into()] });
    let theirs = log_of(&c, &store, &goths()).join("\n");
    let words: Vec<&str> = theirs.split_whitespace().collect();
    assert!(
        !words.windows(2).any(|w| w[0].parse::<u32>().is_ok() && w[1].starts_with("unit")),
        "the Goths do not read how many units went: {theirs}"
    );
}

/// BE-47 (D): the next spring's Byzantine reinforcements come a year late, with that year's.
#[test]
fn be_47_d_holds_back_the_next_springs_reinforcements() {
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    // 10 and a second die of 1: event D, drawn in winter 535.
    let ev = events(&mut store, &mut c, &[4, 6, 1]);
    assert_eq!(drawn(&ev), (Some('D'), None));
    let byz_due = |ev: &[Event]| {
        ev.iter()
            .filter(|e| {
                matches!(e, Event::ReinforcementsDue { due } if *due.side() == byz())
                    || matches!(e, Event::ReinforcementsArrived { side, .. } if *side == byz())
            })
            .count()
    };
    c.state.turn = 4;
    let ones = all_dice(&c, &Order::CheckSupply {}, 1);
    run(&mut store, &mut c, &Order::CheckSupply {}, ones);
    let ev = run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Manual(vec![1, 1]));
    assert_eq!(byz_due(&ev), 0, "spring 536: held back");
    c.state.reinforcements_due.clear();
    c.state.turn = 8;
    let ones = all_dice(&c, &Order::CheckSupply {}, 1);
    run(&mut store, &mut c, &Order::CheckSupply {}, ones);
    let ev = run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Manual(vec![1, 1]));
    assert_eq!(byz_due(&ev), 2, "spring 537: 536's and 537's");
}

/// BE-47 (J, K, L, M, O): the Byzantine points halved, the harvest on supply rolls for one
/// turn in summer and two in winter, great storms sending the ships to port.
#[test]
fn be_47_points_harvests_and_great_storms() {
    // The event the dice draw on turn 3, and the Byzantines' action points after it: supply
    // with 1s, chit ap-i (8) and Belisarius's 8.
    let byzantine_points = |dice: &[u8]| {
        let (mut store, mut c) = at_turn("italy-535", 3, 47);
        let letter = drawn(&events(&mut store, &mut c, dice)).0;
        let ones = all_dice(&c, &Order::CheckSupply {}, 1);
        run(&mut store, &mut c, &Order::CheckSupply {}, ones);
        run(&mut store, &mut c, &Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-d"]));
        (letter, c.state.ops.as_ref().unwrap().ap[&byz()].total)
    };
    // K (5): the Byzantine total halved, rounded up: chit 8 + Belisarius 8 = 16 → 8.
    assert_eq!(byzantine_points(&[1, 4]), (Some('K'), 8));
    // J (9) with Belisarius alone: nothing halved; Narses is not in the game.
    assert_eq!(byzantine_points(&[4, 5]), (Some('J'), 16));
    // L (6) in winter: two turns of +1 on supply rolls, the besieged's included.
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    let ev = events(&mut store, &mut c, &[3, 3]);
    assert_eq!(drawn(&ev), (Some('L'), None));
    assert!(ev.iter().any(|e| matches!(e, Event::EventInForce { event } if *event == InForce { letter: 'L', drawn: 3, until: 4 })));
    assert_eq!(random_events::harvest(&c.state).unwrap().value, 1);
    c.state.turn = 5;
    assert!(random_events::harvest(&c.state).is_none(), "over after two turns");
    // M (8) in summer: one turn of −1.
    let (mut store, mut c) = at_turn("italy-535", 5, 47);
    let ev = events(&mut store, &mut c, &[4, 4]);
    assert_eq!(drawn(&ev), (Some('M'), None));
    assert_eq!(random_events::harvest(&c.state).unwrap().value, -1);
    c.state.turn = 6;
    assert!(random_events::harvest(&c.state).is_none());
    // O: every ship at sea runs for the nearest port of its side.
    let (mut store, mut c) = at_turn("italy-535", 3, 47);
    c.state.pieces.retain(|p| !p.kind.is_naval());
    c.state.pieces.push(Piece {
        side: byz(),
        at: Location::Sea(referee_campaign::belisarius::map::SeaId::new("ionium")),
        kind: PieceKind::Fleet { np: 5, id: "fleet-byzantines-9".into() },
    });
    let ev = events(&mut store, &mut c, &[5, 5, 4]);
    assert_eq!(drawn(&ev), (Some('O'), None));
    let port = c.state.ship(&byz(), "fleet-byzantines-9").unwrap().at.clone();
    assert!(matches!(&port, Location::City(city) if c.state.cities[city].holder.as_ref() == Some(&byz())), "{port:?}");
    assert!(random_events::no_naval_action(&c.state));
}

/// The Italian campaign in operations in summer 535, the map cleared, Vitiges's Goths at
/// Ticinensis beside Liguria and Belisarius far south; the Byzantines first.
fn italy_with_a_goth_beside_liguria() -> (Store, Campaign<Belisarius>) {
    let (mut store, mut c) = italy_under_vitiges("ap-d", [6, 1]);
    stage(
        &mut c,
        &[
            (goths(), "vitiges", "2B 2B", Location::Zone(ZoneId::new("ticinensis"))),
            (byz(), "belisarius", "2B 2B", Location::Zone(ZoneId::new("bruttii"))),
        ],
    );
    c.state.hands.get_mut(&byz()).unwrap().push(franks::STRATAGEM.into());
    let _ = &mut store;
    (store, c)
}

/// BE-43, BE-48: the Frankish intervention played: its d6 moved one toward the player; on
/// 1–2 the Goths' allies, on 6 the Byzantines', their own pieces in Liguria.
#[test]
fn be_48_the_franks_come_as_allies() {
    // The Goths play it on a 3: 2, their allies.
    let (mut store, mut c) = italy_under_vitiges("ap-d", [1, 6]);
    assert_eq!(c.state.ops.as_ref().unwrap().segment, goths());
    refused(&mut store, &mut c, &Order::PlayFrankishIntervention { side: byz() }, "own segment");
    let ev = run(&mut store, &mut c, &Order::PlayFrankishIntervention { side: goths() }, DiceInput::Manual(vec![3]));
    assert!(ev.iter().any(|e| matches!(e, Event::StratagemPlayed { .. })));
    let f = c.state.franks.clone().unwrap();
    assert_eq!((f.side.clone(), f.against.clone(), f.until), (goths(), None, 4));
    let king = c.state.marker(&goths(), franks::KING).unwrap();
    assert_eq!(king.at, Location::Zone(ZoneId::new("liguria")));
    assert_eq!(king.kind.units(), units_of("i:4C i:4C i:4C i:4C").as_slice());
    assert!(!c.state.hands[&goths()].iter().any(|s| s == franks::STRATAGEM), "single use");
    refused(&mut store, &mut c, &Order::FranksMarch { side: goths() }, "no Franks who are still to march");
    // Allies are led like any force.
    run(&mut store, &mut c, &Order::Activate { side: goths(), leader: franks::KING.into(), with: vec![] }, DiceInput::Seeded);
    // The Byzantines play theirs on a 5: 6, their allies.
    let (mut store, mut c) = italy_with_a_goth_beside_liguria();
    run(&mut store, &mut c, &Order::PlayFrankishIntervention { side: byz() }, DiceInput::Manual(vec![5]));
    assert_eq!(c.state.franks.as_ref().unwrap().side, byz());
}

/// BE-48: on 3–5 the Franks fight the nearest land force, led by the other side; each turn
/// they march by themselves two zones toward it before their leaders do anything else,
/// taking the zones and scorching the last, and always try to intercept; after four turns
/// they go home.
#[test]
fn be_48_the_franks_on_their_own() {
    let (mut store, mut c) = italy_with_a_goth_beside_liguria();
    // 2 + 1 = 3: on their own; the Goths at Ticinensis are the nearest: the Byzantines lead.
    run(&mut store, &mut c, &Order::PlayFrankishIntervention { side: byz() }, DiceInput::Manual(vec![2]));
    let f = c.state.franks.clone().unwrap();
    assert_eq!((f.side.clone(), f.against.clone()), (byz(), Some(goths())));
    refused(&mut store, &mut c, &Order::Activate { side: byz(), leader: franks::KING.into(), with: vec![] }, "on their own");
    assert!(!franks::march_due(&c.state, &byz()), "not in the turn they come");
    // The next turn.
    while c.state.phase == Phase::Operations {
        let side = c.state.ops.as_ref().unwrap().segment.clone();
        run(&mut store, &mut c, &Order::Pass { side }, DiceInput::Seeded);
    }
    run(&mut store, &mut c, &Order::EndTurn {}, DiceInput::Seeded);
    // Autumn: no events phase; the supply.
    let ones = all_dice(&c, &Order::CheckSupply {}, 1);
    run(&mut store, &mut c, &Order::CheckSupply {}, ones);
    run(&mut store, &mut c, &Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-d"]));
    assert!(franks::march_due(&c.state, &byz()));
    refused(&mut store, &mut c, &Order::Pass { side: byz() }, "march first");
    refused(&mut store, &mut c, &Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] }, "march first");
    let sail = Order::Sail { side: byz(), ships: vec!["fleet-byzantines-1".into()], path: vec!["tyrrhenum-south".into()] };
    refused(&mut store, &mut c, &sail, "march first");
    let before = c.state.ops.as_ref().unwrap().ap[&byz()].left;
    let ev = run(&mut store, &mut c, &Order::FranksMarch { side: byz() }, DiceInput::Seeded);
    assert_eq!(c.state.ops.as_ref().unwrap().ap[&byz()].left, before, "no action points");
    assert_eq!(c.state.marker(&byz(), franks::KING).unwrap().at, Location::Zone(ZoneId::new("ticinensis")));
    assert!(c.state.scorched.contains(&ZoneId::new("ticinensis")), "the last zone entered is scorched");
    assert!(ev.iter().any(|e| matches!(e, Event::ContactMade { .. })), "they halt at the Goths");
    refused(&mut store, &mut c, &Order::FranksMarch { side: byz() }, "intercept or decline");
    run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
    refused(&mut store, &mut c, &Order::Decline { side: byz() }, "always try to intercept");
    // With no action point left to pay for the try, they may not try, and so may decline.
    let mut spent = c.state.clone();
    spent.ops.as_mut().unwrap().ap.get_mut(&byz()).unwrap().left = 0;
    assert!(referee_campaign::belisarius::interception::decline(&spent, &byz()).is_ok(), "no action points: the Franks decline");
    let order = Order::Intercept { side: byz(), leaders: vec![franks::KING.into()], target: Some(1), reconnaissance: false };
    run(&mut store, &mut c, &order, DiceInput::Manual(vec![1]));
    // Four turns counting the one they came: they go home at the end of turn 4.
    assert_eq!(c.state.franks.as_ref().unwrap().until, 4);
    let mut later = c.state.clone();
    later.turn = 4;
    later.phase = Phase::TurnEnd;
    let ev = referee_campaign::belisarius::operations::end_turn(&later).unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::FranksLeft { .. })));
}

/// BE-52, BE-48: in the final defeat the Franks stand beside the Goths in Liguria for the
/// first four turns, then go home.
#[test]
fn be_52_the_franks_leave_the_goths_after_four_turns() {
    let (mut store, mut c) = at_turn("final-551", 1, 47);
    let f = c.state.franks.clone().unwrap();
    assert_eq!((f.side, f.against, f.until), (goths(), None, 4));
    assert!(c.state.marker(&goths(), franks::KING).is_some());
    for turn in 1..=4 {
        assert_eq!(c.state.turn, turn);
        supply_phase(&mut store, &mut c);
        run(&mut store, &mut c, &Order::BeginOperations {}, DiceInput::Seeded);
        while c.state.phase == Phase::Operations {
            let side = c.state.ops.as_ref().unwrap().segment.clone();
            run(&mut store, &mut c, &Order::Pass { side }, DiceInput::Seeded);
        }
        let ev = run(&mut store, &mut c, &Order::EndTurn {}, DiceInput::Seeded);
        assert_eq!(ev.iter().any(|e| matches!(e, Event::FranksLeft { .. })), turn == 4, "turn {turn}");
    }
    assert!(c.state.marker(&goths(), franks::KING).is_none() && c.state.franks.is_none());
}

/// BE-53, BE-47: events are public, but what goes with a leader called away is his side's:
/// the Goths read the same whatever Belisarius's force when unrest in Africa takes him.
#[test]
fn be_53_the_other_side_reads_the_event_not_the_force() {
    let seen = |units: &str| {
        let (mut store, mut c) = at_turn("italy-535", 3, 47);
        stage(&mut c, &[(byz(), "belisarius", units, Location::Zone(ZoneId::new("bruttii")))]);
        c.state.control.insert(ZoneId::new("tripolitania"), goths());
        events(&mut store, &mut c, &[2, 2, 1]);
        let events = store.events_as::<Belisarius>(c.id).unwrap();
        let Some(View::Side(v)) = view_for(&c.state, &events, &Viewer::Side(goths())) else { panic!("no view") };
        serde_json::to_string(&(&v.board, &v.log)).unwrap()
    };
    let base = seen("1*A 1*A 2B i:2C i:2C");
    assert_eq!(base, seen("2B 2B 2B 2B i:1C"), "the force called away");
    assert!(base.contains("Unrest in Africa"), "the event itself is public");
}
