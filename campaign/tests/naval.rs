//! MG-18 naval combat and MG-15 the beaten fleet's retreat.

use referee_campaign::core::log::DiceRolled;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::{DiceInput, NodeId, magna_graecia::event::Event, magna_graecia::order::Order};

mod common;
use common::{Game as Sea, deployment, matching, side};
use referee_campaign::fixtures::SYRACUSE_BESIEGED;

/// The Dionysian War with Carthage's fleet at Panormus and Syracuse's at Himera, one node apart.
fn fleets_at_himera() -> Vec<(&'static str, &'static str, u8)> {
    deployment(&[
        ("carthage", 4, &["Himilco", "Mago"]),
        ("carthage", 3, &["Hamilcar", "Hanno"]),
        ("carthage", 4, &["fleet"]),
        ("syracuse", 31, &["Dionysius", "Leptines"]),
        ("syracuse", 22, &["Thearides"]),
        ("syracuse", 10, &["Agyris"]),
        ("syracuse", 8, &["fleet"]),
    ])
}

/// The naval battle among `events`.
fn outcome(events: &[Event]) -> referee_campaign::magna_graecia::naval::NavalOutcome {
    events.iter().find_map(matching!(Event::NavalBattleFought { outcome } => outcome.clone())).expect("a naval battle")
}

/// MG-18: each side rolls d6 + NPs; the loser loses the difference, spare NPs first and then
/// carried elements of its owner's choosing; MG-15: it then retreats to a coastal node free of
/// enemy fleets, sailing past enemy land counters but not stopping with them (MG-16).
#[test]
fn mg_18_naval_battle_losses_and_retreat() {
    let mut sea = Sea::deployed("dionysian", 4, &fleets_at_himera());
    sea.ok(&Order::Embark { side: side("carthage"), counter: "Himilco".into() });
    sea.sail("carthage", &[8]);
    // Carthage rolls 1 + 20, Syracuse 6 + 20: Carthage loses 5 NP with 20 elements aboard;
    // its recovery rolls (MG-30) of 5, 1, 1, 1, 1 bring one NP back, but not the men it carried.
    let events = sea.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Manual(vec![1, 6, 5, 1, 1, 1, 1])).unwrap();
    let outcome = outcome(&events);
    assert_eq!((outcome.winner.as_str(), outcome.loser.as_str(), outcome.np_lost, outcome.np_recovered), ("syracuse", "carthage", 5, 1));
    assert_eq!((outcome.fleet_destroyed, outcome.elements_to_lose), (false, 5));
    let s = &sea.c.state;
    assert_eq!((s.fleet_np(&side("carthage")), s.naval.np_destroyed[&side("syracuse")]), (16, 4), "MG-18 / MG-30: NPs may be recovered");
    let recovery =
        events.iter().filter(|e| matches!(e, Event::DiceRolled(DiceRolled { roll, .. }) if roll.rule.as_deref() == Some("MG-30"))).count();
    assert_eq!(recovery, 5, "one recovery roll per NP lost");

    let err = sea.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Carthage must first choose which 5 carried elements were lost at sea — MG-18"), "{err}");
    let allocate = |lost: &[(&str, &str)], sunk: &[&str]| Order::AllocateNavalLosses {
        side: side("carthage"),
        lost: lost.iter().map(|(c, g)| ((*c).to_owned(), g.parse().unwrap())).collect(),
        sunk: sunk.iter().map(|c| (*c).to_owned()).collect(),
    };
    let err = sea.go(&allocate(&[("Himilco", "3 Reg Sp(O)")], &[]), DiceInput::Seeded).unwrap_err();
    assert!(err.contains("must lose exactly 5 elements, not 3"), "{err}");
    let err = sea.go(&allocate(&[("Mago", "5 Reg Sp(O)")], &[]), DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Mago is not aboard the fleet"), "{err}");
    let err = sea.go(&allocate(&[("Himilco", "5 Reg Cv(O)")], &[]), DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Himilco has too few Reg Cv(O) to lose 5"), "{err}");
    sea.ok(&allocate(&[("Himilco", "3 Reg Sp(O)"), ("Himilco", "2 Irr Ps(S)")], &[]));
    let himilco = sea.c.state.armies[&side("carthage")].commands.iter().find(|c| c.name == "Himilco").unwrap().clone();
    assert_eq!(himilco.element_count(), 15);
    assert_eq!(sea.c.state.losses.elements_lost[&side("carthage")], 5);

    sea.end("carthage", DiceInput::Seeded);
    assert_eq!(sea.c.state.phase, Phase::PostCombat);
    let err = sea.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Carthage's beaten fleet must retreat") && err.ends_with("MG-15"), "{err}");
    let err = sea.go(&Order::RetreatFleet { side: side("carthage"), path: vec![NodeId(10)] }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("may retreat only along paths to coastal nodes"), "{err}");
    let err = sea.go(&Order::RetreatFleet { side: side("syracuse"), path: vec![NodeId(9)] }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Syracuse's fleet has no retreat to make"), "{err}");
    // MG-16: a Syracusan command at Panormus: the beaten fleet may sail past it, not stop.
    let mut past = sea.c.state.clone();
    past.counters.iter_mut().find(|c| c.name == "Agyris").unwrap().node = NodeId(4);
    let retreats = past.fleet_retreats(&sea.map, &side("carthage"));
    assert!(!retreats.contains_key(&NodeId(4)) && retreats[&NodeId(2)] == [NodeId(4), NodeId(2)], "{retreats:?}");
    let err = referee_campaign::magna_graecia::naval::retreat_fleet(&past, &sea.map, &side("carthage"), &[NodeId(4)]).unwrap_err();
    assert!(err.to_string().contains("not stop with enemy land counters: not Panormus"), "{err}");
    assert!(referee_campaign::magna_graecia::naval::retreat_fleet(&past, &sea.map, &side("carthage"), &[NodeId(4), NodeId(2)]).is_ok());
    sea.ok(&Order::RetreatFleet { side: side("carthage"), path: vec![NodeId(4), NodeId(2)] });
    let s = &sea.c.state;
    assert_eq!(s.counter(&side("carthage"), "fleet").unwrap().node, NodeId(2));
    assert_eq!(s.counter(&side("carthage"), "Himilco").unwrap().node, NodeId(2), "Himilco sails with the fleet");
    sea.end("carthage", DiceInput::Seeded);
    assert_eq!(sea.c.state.moving_side().as_str(), "syracuse");
}

/// The Second Punic War: Rome's 10 NP sail past Syracuse to Helorus, where Syracuse's 5 NP
/// lie; the battle is fought when Rome ends its movement.
fn rome_sails_to_helorus() -> Sea {
    let mut sea = Sea::deployed(
        "second-punic",
        4,
        &deployment(&[
            ("rome", 28, &["Marcellus", "Appius Claudius Pulcher"]),
            ("rome", 24, &["Titus Quinctius Crispinus"]),
            ("rome", 13, &["Publius Cornelius Lentulus"]),
            ("rome", 28, &["fleet"]),
            ("syracuse", 31, &["Hippocrates", "Epicydes"]),
            ("syracuse", 22, &["Philodemus"]),
            ("syracuse", 30, &["fleet"]),
        ]),
    );
    sea.sail("rome", &[26, 24]);
    sea.passes(&["rome", "syracuse"]);
    sea.carthage_lands(0);
    // Past Syracuse's walls (its army stands there) to Helorus, where its fleet lies.
    sea.sail("rome", &[25, 31, 30]);
    sea
}

/// MG-18: a fleet that loses all its NPs sinks, and the winner is credited the NPs (MG-33).
#[test]
fn mg_18_a_fleet_that_loses_every_np_sinks() {
    let mut sea = rome_sails_to_helorus();
    // Rome 6 + 10 against Syracuse 1 + 5: a difference of 10 sinks all 5 NPs, and none of
    // them is recovered.
    let events = sea.go(&Order::EndPhase { side: side("rome") }, DiceInput::Manual(vec![6, 1, 4, 4, 4, 4, 4])).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::NavalBattleFought { outcome } if outcome.fleet_destroyed && outcome.np_lost == 5)));
    let s = &sea.c.state;
    assert!(s.counter(&side("syracuse"), "fleet").is_none());
    assert_eq!((s.fleet_np(&side("syracuse")), s.naval.np_destroyed[&side("rome")]), (0, 5));
    // MG-33: every 5 enemy NPs destroyed are worth a victory point.
    assert_eq!(s.victory_points()[&side("rome")].total, 1);
    assert!(s.naval.retreats_due.is_empty());
    // No tie here: one naval die for each fleet.
    let log = sea.store.events_as::<MagnaGraecia>(sea.c.id).unwrap();
    let naval_dice = log
        .iter()
        .filter(|l| matches!(&l.event, Event::DiceRolled(DiceRolled { roll, .. }) if roll.rule.as_deref() == Some("MG-18")))
        .count();
    assert_eq!(naval_dice, 2);
}

/// MG-18: equal totals are rolled again until one side is higher.
#[test]
fn mg_18_ties_are_rolled_again() {
    let mut sea = Sea::deployed("dionysian", 4, &fleets_at_himera());
    sea.sail("carthage", &[8]);
    let events = sea.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Manual(vec![3, 3, 5, 2, 1, 1, 1])).unwrap();
    let outcome = outcome(&events);
    assert_eq!((outcome.winner.as_str(), outcome.np_lost, outcome.elements_to_lose), ("carthage", 3, 0));
    assert_eq!(sea.c.state.naval.retreats_due, [side("syracuse")]);
}

/// MG-36: in the Second Punic War the Syracusan and Carthaginian fleets may join as one
/// counter under one of them, the allies choosing together: the fleet given up is offered by
/// its own side, and only the commander combines; what the combined fleet sinks is shared,
/// fractions lost.
#[test]
fn mg_36_combined_fleets() {
    let mut sea = Sea::deployed("second-punic", 4, &SYRACUSE_BESIEGED);
    sea.sail("rome", &[26, 24, 25]);
    sea.passes(&["rome", "syracuse"]);
    sea.ok(&Order::Land { side: side("carthage"), counter: "fleet".into(), node: NodeId(30) });
    sea.carthage_lands(0);
    sea.pass("rome");
    let combine = Order::CombineFleets { side: side("syracuse"), with: side("carthage") };
    let err = sea.go(&combine, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("must be brought together in one node"), "{err}");
    sea.sail("syracuse", &[30]);
    let err = sea.go(&Order::CombineFleets { side: side("syracuse"), with: side("rome") }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Syracuse and Rome are not allies") && err.ends_with("MG-36"), "{err}");
    // Syracuse cannot take Carthage's ships on its own word.
    let err = sea.go(&combine, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Carthage has not put its fleet under Syracuse's command (`offer_fleet`)") && err.ends_with("MG-36"), "{err}");
    let offer = Order::OfferFleet { side: side("carthage"), to: side("syracuse") };
    assert_eq!(offer.side(), Some(&side("carthage")), "the offer is Carthage's own order");
    // Rome's view is the same, offer or none.
    let rome_sees = |sea: &Sea| {
        use referee_campaign::core::engine::Engine;
        let events = sea.store.events_as::<MagnaGraecia>(sea.c.id).unwrap();
        let view = MagnaGraecia::view_for(&sea.c.state, &sea.map, &events, &referee_campaign::Viewer::Side(side("rome"))).unwrap();
        serde_json::to_string(&view).unwrap()
    };
    let before = rome_sees(&sea);
    let offered = sea.ok(&offer);
    assert_eq!(rome_sees(&sea), before, "Rome cannot tell that Carthage offered its fleet");
    let line = |viewer: &str| offered[0].describe(&sea.map, &sea.c.state.scenario, &referee_campaign::Viewer::Side(side(viewer)));
    assert!(line("syracuse").is_some_and(|l| l.contains("Carthage puts its fleet under Syracuse's command")), "{:?}", line("syracuse"));
    assert_eq!(line("rome"), None, "the allies' business");
    let err = sea.go(&offer, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("under Syracuse's command already"), "{err}");
    let events = sea.ok(&combine);
    // Rome learns the fleets joined, not how strong Carthage's was.
    let line = |viewer: &str| events[0].describe(&sea.map, &sea.c.state.scenario, &referee_campaign::Viewer::Side(side(viewer))).unwrap();
    assert!(line("syracuse").contains("(5 NP)"), "{}", line("syracuse"));
    assert!(!line("rome").contains("NP"), "{}", line("rome"));
    let s = &sea.c.state;
    assert_eq!((s.fleet_np(&side("syracuse")), s.fleet_np(&side("carthage"))), (10, 0));
    assert!(s.counter(&side("carthage"), "fleet").is_none());
    assert!(s.naval.fleet_offers.is_empty(), "the offer is spent");
    sea.passes(&["syracuse", "carthage"]);
    let total = |sea: &Sea, s: &str| sea.c.state.victory_points()[&side(s)].total;
    let before = (total(&sea, "syracuse"), total(&sea, "carthage"));
    // Rome's 10 NP come past Syracuse to Helorus and lose to the combined fleet: 1 + 10 to 6 + 10.
    sea.sail("rome", &[31, 30]);
    sea.go(&Order::EndPhase { side: side("rome") }, DiceInput::Manual(vec![1, 6, 1, 1, 1, 1, 1])).unwrap();
    let s = &sea.c.state;
    assert_eq!(s.naval.np_destroyed_combined, 5);
    assert_eq!((total(&sea, "syracuse"), total(&sea, "carthage")), before, "5 NP is half a point each: fractions are lost");
}

/// MG-18 / MG-30: a fleet beaten down to no NPs still rolls for those it lost, and one that
/// gets some back stays afloat and retreats; only the NPs not recovered count as destroyed.
#[test]
fn mg_30_a_fleet_beaten_to_nothing_that_recovers_ships_stays_afloat() {
    let mut sea = rome_sails_to_helorus();
    // Rome 6 + 10 against Syracuse 1 + 5 sinks all 5 NPs; two of them are recovered.
    let events = sea.go(&Order::EndPhase { side: side("rome") }, DiceInput::Manual(vec![6, 1, 6, 5, 4, 1, 1])).unwrap();
    let outcome = outcome(&events);
    assert_eq!((outcome.np_lost, outcome.np_recovered, outcome.fleet_destroyed), (5, 2, false));
    let s = &sea.c.state;
    assert_eq!((s.fleet_np(&side("syracuse")), s.naval.np_destroyed[&side("rome")]), (2, 3));
    assert!(s.counter(&side("syracuse"), "fleet").is_some());
    assert_eq!(s.naval.retreats_due, [side("syracuse")]);
}
