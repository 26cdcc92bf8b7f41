//! Sieges (MG-27, MG-28) and disease (MG-29).

use referee_campaign::core::log::DiceRolled;
use referee_campaign::magna_graecia::event::KnockOn;
use referee_campaign::{DiceInput, NodeId, magna_graecia::event::Event, magna_graecia::order::Order};

mod common;
use common::{Game as Walls, STANDARD, deployment, matching, side};
use referee_campaign::fixtures::SYRACUSE_BESIEGED;

/// The defender at Himera takes its elements inside the walls.
fn withdraw(w: &mut Walls) {
    let battle = w.c.state.battles[0].id;
    w.ok(&Order::WithdrawIntoCity { side: side("syracuse"), battle });
}

/// Himilco, Mago and Hamilcar march on Himera from `deployment` (Hamilcar deployed beside
/// them): 60 elements, a battle raised against Leptines' 20 and the city's own 30.
fn himera(deployment: &[(&'static str, &'static str, u8)]) -> Walls {
    let mut w = Walls::deployed("dionysian", 9, &referee_campaign::fixtures::dionysian_for_a_siege(deployment));
    for order in referee_campaign::fixtures::march_on_himera() {
        w.ok(&order);
    }
    assert_eq!(w.c.state.battles.len(), 1);
    w
}

/// Himera besieged: `deployment` with the three commands' battle raised, and Leptines
/// withdrawn inside with the city's own commands.
fn besieged(deployment: &[(&'static str, &'static str, u8)]) -> Walls {
    let mut w = himera(deployment);
    withdraw(&mut w);
    w
}

fn siege_roll(events: &[Event]) -> Option<i32> {
    events.iter().find_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) if roll.rule.as_deref() == Some("MG-28") => roll.total()))
}

/// MG-27 / MG-28: the defender withdraws inside, and the city's own commands with it; after
/// each full turn without moving the besieger rolls d6, +1 for each consecutive turn after the
/// first; 8 takes the city, all inside are destroyed — the city's commands too — and the
/// besieger loses a fifth of the defender's whole force.
#[test]
fn mg_28_siege_falls_on_8() {
    let mut w = himera(STANDARD);
    w.refused(&Order::WithdrawIntoCity { side: side("carthage"), battle: 1 }, "only a defender may withdraw");
    withdraw(&mut w);
    let s = &w.c.state;
    assert!(s.battles.is_empty() && s.siege.sieges.len() == 1);
    assert!(s.counter(&side("syracuse"), "Leptines").unwrap().inside);
    w.round("syracuse");
    // Turn 2: Carthage rolls 6: the city holds.
    assert_eq!(siege_roll(&w.end("carthage", DiceInput::Manual(vec![6]))), Some(6));
    w.round("syracuse");
    assert_eq!(siege_roll(&w.end("carthage", DiceInput::Manual(vec![6]))), Some(7), "+1 for the second turn of siege");
    w.round("syracuse");
    let events = w.end("carthage", DiceInput::Manual(vec![6]));
    assert_eq!(siege_roll(&events), Some(8));
    assert!(
        events.iter().any(|e| matches!(e, Event::CityFell { besieger_losses: 10, defender_elements: 50, .. })),
        "a fifth of Leptines' 20 elements and the city's 30"
    );
    let lines: Vec<String> =
        events.iter().filter_map(|e| e.describe(&w.map, &w.c.state.scenario, &referee_campaign::Viewer::Side(side("syracuse")))).collect();
    assert!(lines.iter().any(|l| l.contains("the besieger loses 10 elements (20 % of the 50 inside = 10, rounded up)")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("siege of Himera")), "the besieger's roll is its own: {lines:?}");
    let s = &w.c.state;
    assert!(s.counter(&side("syracuse"), "Leptines").is_none());
    assert_eq!(s.control[&NodeId(8)], side("carthage"));
    assert!(s.siege.sieges.is_empty());
    let err = w.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Carthage must first choose which 10 elements it lost at Himera — MG-28"), "{err}");
    let lost = vec![("Himilco".to_owned(), "8 Reg Sp(O)".parse().unwrap()), ("Mago".to_owned(), "2 Reg Sp(O)".parse().unwrap())];
    w.ok(&Order::AllocateSiegeLosses { side: side("carthage"), lost, sunk: vec![] });
    assert!(w.c.state.city_forces(&w.map, NodeId(8)).is_empty(), "Himera's own commands fell with it");
    let vp = &w.c.state.victory_points()[&side("carthage")];
    assert_eq!((vp.commanders, vp.cities.clone()), (1, vec![NodeId(8)]));
}

/// MG-27: the besieger needs at least as many effective elements as are inside, the city's
/// own commands counted with the defender's.
#[test]
fn mg_27_too_weak_to_besiege() {
    let mut w = Walls::himera(STANDARD);
    let battle = w.c.state.battles[0].id;
    w.refused(
        &Order::WithdrawIntoCity { side: side("syracuse"), battle },
        "Carthage has fewer effective elements than the 50 that would be inside Himera",
    );
    let mut two = STANDARD.to_vec();
    two[8] = ("syracuse", "Agyris", 8);
    let mut w = Walls::himera(&two);
    let battle = w.c.state.battles[0].id;
    w.refused(
        &Order::WithdrawIntoCity { side: side("syracuse"), battle },
        "Carthage has fewer effective elements than the 70 that would be inside Himera, too few to besiege them: the battle must be fought",
    );
}

/// MG-27: the besieged sally in their own movement phase and a battle follows, the sallying
/// commands standing to give it; a besieger who marches away lifts the siege.
#[test]
fn mg_27_sally_and_lifting() {
    let mut w = besieged(STANDARD);
    w.ends("carthage", 2);
    let err =
        w.go(&Order::Move { side: side("syracuse"), counter: "Leptines".into(), path: vec![NodeId(9)] }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Leptines is besieged: it must sally") && err.ends_with("MG-27"), "{err}");
    w.ok(&Order::Sally { side: side("syracuse"), node: NodeId(8) });
    // Out to fight the besiegers, not to march away from them.
    w.refused(
        &Order::Move { side: side("syracuse"), counter: "Leptines".into(), path: vec![NodeId(9)] },
        "Leptines sallied out of Himera to fight the besiegers there, and stands to give battle this turn",
    );
    let events = w.end("syracuse", DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::BattleRaised { battle } if battle.attacker == side("syracuse"))));

    let mut v = besieged(STANDARD);
    v.round("syracuse");
    for counter in ["Himilco", "Mago", "Hamilcar"] {
        v.ok(&Order::Move { side: side("carthage"), counter: counter.into(), path: vec![NodeId(9)] });
    }
    assert!(v.c.state.siege.sieges.is_empty());
    assert!(!v.c.state.counter(&side("syracuse"), "Leptines").unwrap().inside);
}

/// MG-29: an unmodified 1 on the siege roll brings disease; from then each side with a force
/// there rolls in its own turn and loses a tenth of it on a 1.
#[test]
fn mg_29_disease() {
    let mut w = besieged(STANDARD);
    w.round("syracuse");
    w.end("carthage", DiceInput::Manual(vec![1]));
    assert!(w.c.state.siege.sieges[0].disease);
    w.ends("carthage", 2);
    let events = w.end("syracuse", DiceInput::Manual(vec![1]));
    assert!(events.iter().any(|e| matches!(e, Event::DiseaseStruck { elements: 2, .. })), "{events:?}");
    let err = w.go(&Order::EndPhase { side: side("syracuse") }, DiceInput::Seeded).unwrap_err();
    assert!(err.ends_with("MG-29"), "{err}");
    let lost = vec![("Leptines".to_owned(), "2 Reg Sp(O)".parse().unwrap())];
    w.ok(&Order::AllocateSiegeLosses { side: side("syracuse"), lost, sunk: vec![] });
    assert_eq!(w.c.state.losses.elements_lost[&side("syracuse")], 2);
}

/// The Dionysian War with Carthage's four commands and fleet at Motya and `garrison` left in
/// its capital by Himilco (MG-04); Syracuse's four commands march from Himera, beat the
/// commands of Panormus and Segesta on the way (MG-10), and raise a battle at Motya.
fn march_on_motya(garrison: &[&str]) -> Walls {
    let mut w = Walls::created("dionysian", 3);
    let deployment = deployment(&[
        ("carthage", 0, &["Himilco", "Mago", "Hamilcar", "Hanno", "fleet"]),
        ("syracuse", 8, &["Dionysius", "Leptines", "Thearides", "Agyris"]),
        ("syracuse", 31, &["fleet"]),
    ]);
    for order in referee_campaign::fixtures::deploy_orders(&deployment) {
        w.ok(&order);
    }
    if !garrison.is_empty() {
        let elements = garrison.iter().map(|g| g.parse().unwrap()).collect();
        w.ok(&Order::Garrison { side: side("carthage"), command: "Himilco".into(), elements, into_garrison: true });
    }
    w.ok(&Order::BeginPlay {});
    let syracusans = ["Dionysius", "Leptines", "Thearides", "Agyris"];
    let march = |w: &mut Walls, to: u8| {
        w.pass("carthage");
        for name in syracusans {
            w.ok(&Order::Move { side: side("syracuse"), counter: name.into(), path: vec![NodeId(to)] });
        }
        w.end("syracuse", DiceInput::Seeded);
    };
    // Panormus's and Segesta's own commands, allied to Carthage, meet the march (MG-10) and
    // are beaten.
    for city in [4, 3] {
        march(&mut w, city);
        let battle = w.c.state.battles.first().expect("the city's commands meet the march");
        assert_eq!((battle.node, battle.city, battle.defenders.clone()), (NodeId(city), Some(NodeId(city)), vec![side("carthage")]));
        w.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(battle.id, "syracuse") });
        w.ends("syracuse", 2);
    }
    march(&mut w, 0);
    assert_eq!(w.c.state.battles[0].node, NodeId(0));
    w
}

/// Syracuse rolls for its siege of Motya turn after turn until the city falls; the events of
/// the fall.
fn besiege_motya(w: &mut Walls) -> Vec<Event> {
    let battle = w.c.state.battles[0].id;
    w.ok(&Order::WithdrawIntoCity { side: side("carthage"), battle });
    w.ends("syracuse", 2);
    for die in [6, 6, 6] {
        w.pass("carthage");
        let events = w.end("syracuse", DiceInput::Manual(vec![die]));
        if events.iter().any(|e| matches!(e, Event::CityFell { .. })) {
            return events;
        }
        w.ends("syracuse", 2);
    }
    panic!("Motya stood three turns of siege");
}

/// MG-32: the campaign ends by agreement, or when a side's capital falls and no enemies are
/// left; the fallen side's turns and counters are gone.
#[test]
fn mg_32_capital_falls_and_the_campaign_ends() {
    let mut w = Walls::created("dionysian", 3);
    let early = w.go(&Order::EndCampaign { reason: "peace".into() }, DiceInput::Seeded);
    assert!(early.unwrap_err().ends_with("MG-32"));
    let mut w = march_on_motya(&[]);
    besiege_motya(&mut w);
    let s = &w.c.state;
    assert!(s.politics.eliminated.contains(&side("carthage")), "Motya has fallen");
    assert!(s.counters.iter().all(|c| c.side != side("carthage")));
    assert_eq!(s.phase, referee_campaign::magna_graecia::turn::Phase::Ended, "no enemy is left");
    assert_eq!(s.victory_points()[&side("syracuse")].capitals, [(NodeId(0), 10)]);
}

/// MG-04 / MG-27 / MG-28: the garrison of a strength-0 capital is within the walls with the
/// commands that withdraw there: it counts against the besieger's strength, for the fifth the
/// besieger loses when the city falls, and falls with it.
#[test]
fn mg_27_a_capitals_garrison_stands_within_the_walls() {
    let carthage = side("carthage");
    let mut w = march_on_motya(&["4 Reg Sp(O)"]);
    let commands = w.c.state.elements_at(&carthage, NodeId(0), false);
    let inside = w.c.state.defenders_within(&w.map, &carthage, NodeId(0), false);
    assert_eq!(inside, commands + 4, "Himilco's four spearmen left in Motya");
    let events = besiege_motya(&mut w);
    let fell = events
        .iter()
        .find_map(matching!(Event::CityFell { defender_elements, besieger_losses, .. } => (*defender_elements, *besieger_losses)));
    assert_eq!(fell, Some((inside, inside.div_ceil(5))));
    assert!(w.c.state.garrisons.get(&carthage).is_none_or(Vec::is_empty), "the garrison fell with Motya");
}

/// The Pyrrhic War deployed, play not yet begun: Hamilcar and Carthage's fleet at Helorus,
/// Hanno and Bomilcar at Paliki, Gisco at Tyndaris, Pyrrhus's army in Messena, and Syracuse
/// where `syracuse` puts it.
fn pyrrhic_with(syracuse: &[(u8, &[&'static str])]) -> Walls {
    let mut w = Walls::created("pyrrhic", 6);
    let mut lines: Vec<(&'static str, u8, &[&'static str])> = vec![
        ("carthage", 30, &["Hamilcar", "fleet"]),
        ("carthage", 22, &["Hanno", "Bomilcar"]),
        ("carthage", 27, &["Gisco"]),
        ("pyrrhus", 28, &["Pyrrhus", "Leonnatus", "Helenus", "Heraclides of Leontini"]),
    ];
    lines.extend(syracuse.iter().map(|&(node, counters)| ("syracuse", node, counters)));
    for order in referee_campaign::fixtures::deploy_orders(&deployment(&lines)) {
        w.ok(&order);
    }
    w
}

/// The Pyrrhic War with Hamilcar and the Carthaginian fleet at Helorus, Syracuse's three
/// commands at Catana, its fleet in Syracuse, and `garrison` left in Syracuse by Sosistratus
/// (MG-04); Hamilcar marches into Syracuse and Carthage ends its movement.
fn hamilcar_before_syracuse(garrison: &[&str]) -> (Walls, Vec<Event>) {
    let mut w = pyrrhic_with(&[(31, &["Sosistratus", "fleet"]), (24, &["Thoenon", "Agathon"])]);
    if !garrison.is_empty() {
        let elements = garrison.iter().map(|g| g.parse().unwrap()).collect();
        w.ok(&Order::Garrison { side: side("syracuse"), command: "Sosistratus".into(), elements, into_garrison: true });
    }
    w.ok(&Order::Deploy { side: side("syracuse"), counter: "Sosistratus".into(), node: NodeId(24) });
    w.ok(&Order::BeginPlay {});
    w.ok(&Order::Move { side: side("carthage"), counter: "Hamilcar".into(), path: vec![NodeId(31)] });
    let events = w.end("carthage", DiceInput::Seeded);
    (w, events)
}

/// MG-32 / MG-33 / MG-34: a capital with nobody within its walls — no counter, no commands of
/// its own, no garrison — is taken by the enemy that ends its movement there: its side is
/// out, the taker scores it, and in the Pyrrhic War Syracuse's fleet passes to Pyrrhus.
#[test]
fn mg_32_an_empty_capital_is_taken_by_whoever_walks_in() {
    let (w, events) = hamilcar_before_syracuse(&[]);
    let fleet = KnockOn::FleetTo { from: side("syracuse"), to: side("pyrrhus") };
    let taken = Event::CapitalTaken { node: NodeId(31), by: side("carthage"), from: side("syracuse"), knock_on: vec![fleet] };
    assert!(events.contains(&taken), "{events:?}");
    let line = taken.describe(&w.map, &w.c.state.scenario, &referee_campaign::Viewer::Side(side("pyrrhus"))).unwrap();
    assert_eq!(
        line,
        "Carthage takes Syracuse, Syracuse's capital — MG-32; Syracuse has lost its capital and is out of the campaign; Syracuse's fleet passes to Pyrrhus — MG-34"
    );
    let s = &w.c.state;
    assert!(s.politics.eliminated.contains(&side("syracuse")));
    assert_eq!(s.control[&NodeId(31)], side("carthage"));
    assert_eq!(s.victory_points()[&side("carthage")].capitals, [(NodeId(31), 10)]);
    assert!(s.counter(&side("pyrrhus"), "fleet").is_some_and(|f| f.node == NodeId(31)), "Syracuse's fleet is Pyrrhus's (MG-34)");
    assert!(s.battles.is_empty());
}

/// MG-34: Carthage's fleet beats Syracuse's off Syracuse as Hamilcar walks in; what is left of
/// Syracuse's fleet passes to Pyrrhus, and only it: Carthage's ships in the same waters stay
/// Carthage's.
#[test]
fn mg_34_only_syracuses_fleet_passes_to_pyrrhus() {
    let mut w = pyrrhic_with(&[(24, &["Sosistratus", "Thoenon", "Agathon"]), (31, &["fleet"])]);
    w.ok(&Order::BeginPlay {});
    w.ok(&Order::Move { side: side("carthage"), counter: "Hamilcar".into(), path: vec![NodeId(31)] });
    w.sail("carthage", &[31]);
    // 6 + 15 against 1 + 12: Syracuse loses 8 NP and recovers none.
    let events = w.end("carthage", DiceInput::Manual(vec![6, 1, 1, 1, 1, 1, 1, 1, 1, 1]));
    let knock_on = events.iter().find_map(matching!(Event::CapitalTaken { knock_on, .. } => knock_on.clone()));
    assert_eq!(knock_on, Some(vec![KnockOn::FleetTo { from: side("syracuse"), to: side("pyrrhus") }]), "{events:?}");
    let s = &w.c.state;
    assert_eq!((s.fleet_np(&side("pyrrhus")), s.fleet_np(&side("carthage"))), (4, 15));
}

/// MG-04 / MG-27 / MG-28: a capital held by its garrison alone is besieged by the enemy that
/// ends its movement there, strong enough; the garrison is all that is inside when the siege
/// is rolled for.
#[test]
fn mg_27_a_capital_held_by_its_garrison_alone_is_besieged() {
    let (mut w, events) = hamilcar_before_syracuse(&["2 Reg Ps(O)"]);
    assert!(!events.iter().any(|e| matches!(e, Event::CapitalTaken { .. })), "{events:?}");
    let begun = events.iter().find(|e| matches!(e, Event::SiegeBegun { battle: None, .. })).expect("the garrison is besieged");
    let line = begun.describe(&w.map, &w.c.state.scenario, &referee_campaign::Viewer::Side(side("pyrrhus"))).unwrap();
    assert_eq!(line, "Carthage finds Syracuse held by Syracuse's garrison: it lays siege — MG-27");
    assert_eq!(
        w.c.state.siege_at(NodeId(31)).map(|s| (s.besieger.clone(), s.defender.clone())),
        Some((side("carthage"), side("syracuse")))
    );
    assert!(!w.c.state.politics.eliminated.contains(&side("syracuse")));
    w.ends("carthage", 2);
    w.pass("pyrrhus");
    // What holds the walls stays there: no sally, which would end the siege with no battle.
    w.refused(&Order::Sally { side: side("syracuse"), node: NodeId(31) }, "Syracuse has no command inside Syracuse to sally");
    w.pass("syracuse");
    // The garrison's 2 elements are all that is inside: Hamilcar has thrice as many.
    let events = w.end("carthage", DiceInput::Manual(vec![6]));
    assert_eq!(siege_modifiers(&events), ["+2 3:1 effective elements", "-4 the walls of Syracuse"]);
    assert!(events.contains(&Event::SiegeRolled { node: NodeId(31), disease: false }));
}

/// MG-32 / MG-19 / MG-34: a fleet left sheltered in a capital whose last defenders marched
/// out is lost with the city when an enemy walks in, to the taker's credit; it does not pass
/// to Pyrrhus.
#[test]
fn mg_19_a_fleet_sheltered_in_a_capital_walked_into_is_lost_with_it() {
    let mut w = pyrrhic_with(&[(31, &["Sosistratus", "fleet"]), (24, &["Thoenon", "Agathon"])]);
    w.ok(&Order::BeginPlay {});
    w.passes(&["carthage", "pyrrhus"]);
    w.ok(&Order::Shelter { side: side("syracuse") });
    w.ok(&Order::Move { side: side("syracuse"), counter: "Sosistratus".into(), path: vec![NodeId(23)] });
    w.pass("syracuse");
    w.ok(&Order::Move { side: side("carthage"), counter: "Hamilcar".into(), path: vec![NodeId(31)] });
    let events = w.end("carthage", DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::CapitalTaken { node: NodeId(31), .. })), "{events:?}");
    let lost = events.iter().find_map(matching!(Event::ShelteredFleetsLost { fleets, .. } => fleets.clone()));
    assert_eq!(lost, Some(vec![(side("syracuse"), 12)]));
    let s = &w.c.state;
    assert!(s.counter(&side("pyrrhus"), "fleet").is_none(), "the ships went down with the city");
    assert_eq!(s.naval.np_destroyed[&side("carthage")], 12);
}

/// MG-19 / MG-32: Rome shelters its fleet in Messena and marches its army out; Messena's own
/// commands meet Hanno alone and are beaten: the capital is taken and the ships go down with
/// it (Rome, by its scenario, stays in the war).
#[test]
fn mg_19_a_fleet_sheltered_in_a_capital_taken_in_battle_is_lost_with_it() {
    let mut w = Walls::deployed(
        "first-punic",
        5,
        &deployment(&[
            ("carthage", 27, &["Hanno"]),
            ("carthage", 1, &["Hannibal", "Hamilcar", "Zelalsan", "fleet"]),
            ("rome", 28, &["Appius Claudius Caudex", "Gaius Claudius", "Quintus Caedicius", "Marcus Calpurnius Flamma", "fleet"]),
            ("syracuse", 31, &["Hiero", "Leptines", "Artemon", "fleet"]),
        ]),
    );
    w.pass("carthage");
    w.ok(&Order::Shelter { side: side("rome") });
    for name in ["Appius Claudius Caudex", "Gaius Claudius", "Quintus Caedicius", "Marcus Calpurnius Flamma"] {
        w.ok(&Order::Move { side: side("rome"), counter: name.into(), path: vec![NodeId(26)] });
    }
    w.end("rome", DiceInput::Manual(vec![5]));
    w.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(1, "rome") });
    w.ends("rome", 2);
    w.pass("syracuse");
    w.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(29)] });
    w.pass("carthage");
    w.passes(&["rome", "syracuse"]);
    w.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(28)] });
    w.end("carthage", DiceInput::Seeded);
    let battle = w.c.state.battles.iter().find(|b| b.node == NodeId(28)).expect("Messena's commands meet Hanno").clone();
    assert!(battle.city_attack);
    let events = w.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(battle.id, "carthage") });
    assert!(events.iter().any(|e| matches!(e, Event::CapitalTaken { node: NodeId(28), .. })), "{events:?}");
    let lost = events.iter().find_map(matching!(Event::ShelteredFleetsLost { fleets, .. } => fleets.clone()));
    assert_eq!(lost, Some(vec![(side("rome"), 12)]));
    let s = &w.c.state;
    assert!(s.counter(&side("rome"), "fleet").is_none());
    assert!(!s.politics.eliminated.contains(&side("rome")), "Rome fights on without Messena");
}

/// MG-32 / MG-34 / MG-10: in the Pyrrhic War, Carthage walks into an empty Syracuse while
/// Gisco marches on Messena, which Pyrrhus has left to its own command. Syracuse is out at
/// once, and no battle is raised against it at Catana; Messena's command is beaten, the
/// capital taken with it, and with Syracuse already out Pyrrhus is out too.
#[test]
fn mg_34_syracuse_and_messena_lost_put_pyrrhus_out() {
    let mut w = pyrrhic_with(&[(24, &["Sosistratus", "Thoenon", "Agathon"]), (31, &["fleet"])]);
    w.ok(&Order::BeginPlay {});
    w.ok(&Order::Move { side: side("carthage"), counter: "Gisco".into(), path: vec![NodeId(29)] });
    w.end("carthage", DiceInput::Manual(vec![1]));
    w.ends("carthage", 2);
    for name in ["Pyrrhus", "Leonnatus", "Helenus", "Heraclides of Leontini"] {
        w.ok(&Order::Move { side: side("pyrrhus"), counter: name.into(), path: vec![NodeId(26)] });
    }
    w.passes(&["pyrrhus", "syracuse"]);
    w.ok(&Order::Move { side: side("carthage"), counter: "Gisco".into(), path: vec![NodeId(28)] });
    w.ok(&Order::Move { side: side("carthage"), counter: "Hamilcar".into(), path: vec![NodeId(31)] });
    w.ok(&Order::Move { side: side("carthage"), counter: "Bomilcar".into(), path: vec![NodeId(24)] });
    let events = w.end("carthage", DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::CapitalTaken { node: NodeId(31), .. })), "{events:?}");
    assert!(w.c.state.politics.eliminated.contains(&side("syracuse")));
    let battles: Vec<(NodeId, bool)> = w.c.state.battles.iter().map(|b| (b.node, b.city_attack)).collect();
    assert_eq!(battles, [(NodeId(28), true)], "Messena's own command meets Gisco; nobody fights at Catana");
    let battle = w.c.state.battles[0].id;
    let events = w.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(battle, "carthage") });
    let out = KnockOn::Out { side: side("pyrrhus") };
    let taken = Event::CapitalTaken { node: NodeId(28), by: side("carthage"), from: side("pyrrhus"), knock_on: vec![out] };
    assert!(events.contains(&taken), "{events:?}");
    let line = taken.describe(&w.map, &w.c.state.scenario, &referee_campaign::Viewer::Umpire).unwrap();
    assert_eq!(line, "Carthage takes Messena, Pyrrhus' capital — MG-32; Pyrrhus is out of the campaign — MG-34");
    let s = &w.c.state;
    assert!(s.politics.eliminated.contains(&side("pyrrhus")), "Syracuse out and Messena lost");
    assert_eq!(s.phase, referee_campaign::magna_graecia::turn::Phase::Ended, "Carthage alone is left");
}

/// MG-36: Carthage, with no capital in the Second Punic War, is out only when its whole army
/// is destroyed.
#[test]
fn mg_36_carthage_is_beaten_only_by_destroying_its_army() {
    let deployment = &SYRACUSE_BESIEGED;
    let mut w = Walls::deployed("second-punic", 3, deployment);
    w.passes(&["rome", "syracuse"]);
    for name in ["Himilco", "Hanno", "Muttines", "fleet"] {
        w.ok(&Order::Land { side: side("carthage"), counter: name.into(), node: NodeId(13) });
    }
    let battle_at_acragas = |w: &mut Walls| {
        w.ok(&Order::Move { side: side("rome"), counter: "Appius Claudius Pulcher".into(), path: vec![NodeId(13)] });
        w.end("rome", DiceInput::Manual(vec![]));
    };
    // Acragas, allied to Rome, meets the landing with its own command (MG-10), and is beaten.
    w.end("carthage", DiceInput::Seeded);
    w.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(1, "carthage") });
    w.ends("carthage", 2);
    battle_at_acragas(&mut w);
    let battle = w.c.state.battles[0].id;
    // Every Carthaginian element destroyed and no general recovered.
    let losses: Vec<referee_campaign::magna_graecia::battle::CommandLosses> = w.c.state.armies[&side("carthage")]
        .commands
        .iter()
        .map(|cmd| referee_campaign::magna_graecia::battle::CommandLosses {
            side: side("carthage"),
            command: cmd.name.clone(),
            destroyed: cmd.elements.clone(),
            fled: vec![],
            general_killed: true,
            demoralised: false,
            voluntary: false,
            join: None,
        })
        .collect();
    let dice = losses.iter().map(|l| l.destroyed.iter().map(|g| g.count).sum::<u32>() + 1).sum::<u32>();
    let result = referee_campaign::magna_graecia::battle::BattleResult {
        battle,
        outcome: referee_campaign::magna_graecia::battle::Outcome::Won { winner: side("rome") },
        held_field: None,
        losses,
        open_roads: Default::default(),
        city_attacked_by: None,
    };
    w.go(&Order::RecordBattleResult { result }, DiceInput::Manual(vec![1; dice as usize])).unwrap();
    let s = &w.c.state;
    assert!(s.politics.eliminated.contains(&side("carthage")), "Carthage's army is destroyed");
    assert!(!s.politics.eliminated.contains(&side("syracuse")));
    assert_eq!(s.victory_points()[&side("rome")].commanders, 3);
}

/// MG-34: in the Pyrrhic War, Syracuse's fall hands its fleet to Pyrrhus, who may then lead
/// one command a turn home through Messena for 2 VP.
#[test]
fn mg_34_pyrrhic_fall_of_syracuse_and_exits() {
    let deployment = deployment(&[
        ("carthage", 22, &["Hamilcar", "Hanno", "Bomilcar", "Gisco"]),
        ("carthage", 30, &["fleet"]),
        ("pyrrhus", 28, &["Pyrrhus", "Leonnatus", "Helenus", "Heraclides of Leontini"]),
        ("syracuse", 31, &["Sosistratus", "Thoenon"]),
        ("syracuse", 25, &["Agathon"]),
        ("syracuse", 31, &["fleet"]),
    ]);
    let mut w = Walls::deployed("pyrrhic", 3, &deployment);
    let exit = |w: &mut Walls, name: &str| w.go(&Order::ExitMap { side: side("pyrrhus"), counter: name.into() }, DiceInput::Seeded);
    // Carthage marches on Syracuse: 22 → 23 → 31.
    for hop in [23u8, 31] {
        for name in ["Hamilcar", "Hanno", "Bomilcar", "Gisco"] {
            w.ok(&Order::Move { side: side("carthage"), counter: name.into(), path: vec![NodeId(hop)] });
        }
        w.end("carthage", DiceInput::Seeded);
        if hop == 31 {
            break;
        }
        w.ends("carthage", 2);
        w.passes(&["pyrrhus", "syracuse"]);
    }
    let err = exit(&mut w, "Pyrrhus").unwrap_err();
    assert!(err.contains("only after Syracuse has fallen") || err.contains("movement phase"), "{err}");
    let battle = w.c.state.battles[0].id;
    w.ok(&Order::WithdrawIntoCity { side: side("syracuse"), battle });
    for die in [6, 6, 6, 6, 6, 6, 6, 6] {
        w.ends("carthage", 2);
        w.passes(&["pyrrhus", "syracuse"]);
        let events = w.end("carthage", DiceInput::Manual(vec![die]));
        if events.iter().any(|e| matches!(e, Event::CityFell { .. })) {
            break;
        }
    }
    let s = &w.c.state;
    assert!(s.politics.eliminated.contains(&side("syracuse")), "Syracuse has fallen");
    assert_eq!(s.fleet_np(&side("pyrrhus")), 12, "its fleet passes to Pyrrhus");
    assert_eq!(s.counter(&side("pyrrhus"), "fleet").map(|f| f.node), Some(NodeId(31)));
    let due = s.siege.siege_losses_due[&side("carthage")].elements;
    let lost = vec![("Hanno".to_owned(), format!("{due} Reg Sp(O)").parse().unwrap())];
    w.ok(&Order::AllocateSiegeLosses { side: side("carthage"), lost, sunk: vec![] });
    w.ends("carthage", 2);
    exit(&mut w, "Leonnatus").unwrap();
    let err = exit(&mut w, "Helenus").unwrap_err();
    assert!(err.contains("only one command may leave the map each turn") && err.ends_with("MG-34"), "{err}");
    let vp = &w.c.state.victory_points()[&side("pyrrhus")];
    assert_eq!((vp.exits, vp.total), (1, 2));
}

/// Himera besieged with Syracuse's fleet in its harbour, Syracuse to move.
fn fleet_in_besieged_himera() -> Walls {
    let mut deployment = STANDARD.to_vec();
    deployment[9] = ("syracuse", "fleet", 8);
    let mut w = besieged(&deployment);
    w.ends("carthage", 2);
    w
}

/// MG-19: a fleet sheltered in a friendly walled port with a garrison cannot be made to fight
/// and does not stop enemy ships; if the city falls its ships are destroyed, to the taker's
/// credit, and the taker salvages NPs on a 5 or more.
#[test]
fn mg_19_sheltered_fleet_and_salvage() {
    let mut w = fleet_in_besieged_himera();
    w.refused(&Order::Embark { side: side("syracuse"), counter: "Leptines".into() }, "Leptines is besieged");
    w.ok(&Order::Shelter { side: side("syracuse") });
    assert!(w.c.state.counter(&side("syracuse"), "fleet").unwrap().sheltered);
    w.refused(&Order::Shelter { side: side("syracuse") }, "sheltered already");
    w.pass("syracuse");
    // Carthage's ships come round to Panormus; from there they may sail past the sheltered
    // fleet at Himera, which would otherwise stop them (MG-16).
    w.ok(&Order::Move { side: side("carthage"), counter: "fleet".into(), path: vec![NodeId(2), NodeId(4)] });
    let map = w.map.clone();
    // Siege rolls: 6 (turn 2), 6 + 1 (turn 3), 6 + 2 = 8 (turn 4): the city falls.
    w.end("carthage", DiceInput::Manual(vec![6]));
    w.round("syracuse");
    let reach = w.c.state.destinations(&map, &side("carthage"), "fleet");
    assert_eq!(reach.get(&NodeId(9)), Some(&vec![NodeId(8), NodeId(9)]));
    w.end("carthage", DiceInput::Manual(vec![6]));
    w.round("syracuse");
    let mut dice = vec![6];
    dice.extend([5; 8]);
    dice.extend([1; 12]);
    let events = w.end("carthage", DiceInput::Manual(dice));
    assert!(events.iter().any(|e| matches!(e, Event::ShelteredFleetsLost { salvaged: 8, .. })), "{events:?}");
    let s = &w.c.state;
    assert!(s.counter(&side("syracuse"), "fleet").is_none());
    assert_eq!(s.naval.np_destroyed[&side("carthage")], 20);
    assert_eq!(s.victory_points()[&side("carthage")].enemy_np_destroyed, 20);
    assert_eq!(s.naval.salvage[&side("carthage")], (NodeId(8), 8), "waiting at Himera for Carthage's fleet");
    let lost = vec![("Himilco".to_owned(), "8 Reg Sp(O)".parse().unwrap()), ("Mago".to_owned(), "2 Reg Sp(O)".parse().unwrap())];
    w.ok(&Order::AllocateSiegeLosses { side: side("carthage"), lost, sunk: vec![] });
    w.round("syracuse");
    w.ok(&Order::Move { side: side("carthage"), counter: "fleet".into(), path: vec![NodeId(8)] });
    assert_eq!(w.c.state.fleet_np(&side("carthage")), 28, "the salvaged ships join the fleet at Himera");
    assert!(w.c.state.naval.salvage.is_empty());
}

/// MG-19: a sheltered fleet cannot be made to fight by enemy ships lying off its port, on
/// their turn or on its own; it fights only if it puts out.
#[test]
fn mg_19_a_sheltered_fleet_fights_only_if_it_puts_out() {
    let mut w = fleet_in_besieged_himera();
    w.ok(&Order::Shelter { side: side("syracuse") });
    w.pass("syracuse");
    w.ok(&Order::Move { side: side("carthage"), counter: "fleet".into(), path: vec![NodeId(2), NodeId(4), NodeId(8)] });
    let fought = |events: &[Event]| events.iter().any(|e| matches!(e, Event::NavalBattleFought { .. }));
    assert!(!fought(&w.end("carthage", DiceInput::Manual(vec![2]))), "Carthage cannot make it fight");
    w.ends("carthage", 2);
    assert!(!fought(&w.end("syracuse", DiceInput::Seeded)), "nor does it fight by staying in port");
    assert!(w.c.state.counter(&side("syracuse"), "fleet").unwrap().sheltered);
}

/// MG-19: only a friendly, garrisoned, walled port shelters a fleet, and not with troops aboard.
#[test]
fn mg_19_where_a_fleet_may_shelter() {
    let mut w = besieged(STANDARD);
    w.ends("carthage", 2);
    // Syracuse's fleet lies at Syracuse with Dionysius: it may shelter there.
    w.ok(&Order::Move { side: side("syracuse"), counter: "fleet".into(), path: vec![NodeId(30)] });
    w.refused(&Order::Shelter { side: side("syracuse") }, "Helorus has no garrison of Syracuse to shelter the fleet");
    w.ok(&Order::Move { side: side("syracuse"), counter: "fleet".into(), path: vec![NodeId(31)] });
    w.ok(&Order::Embark { side: side("syracuse"), counter: "Dionysius".into() });
    w.refused(&Order::Shelter { side: side("syracuse") }, "every command aboard must disembark");
}

/// The modifiers of the siege roll in `events`, by reason.
fn siege_modifiers(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .find_map(|e| match e {
            Event::DiceRolled(DiceRolled { roll, .. }) if roll.rule.as_deref() == Some("MG-28") => {
                Some(roll.modifiers.iter().map(|m| format!("{:+} {}", m.value, m.reason)).collect())
            }
            _ => None,
        })
        .unwrap_or_default()
}

/// MG-28: the roll comes after a full turn of siege without movement, so the NPs of a fleet
/// that sailed in this turn count only from the next roll on.
#[test]
fn mg_28_a_fleet_that_sailed_in_counts_from_the_next_roll() {
    // Himilco alone before Himera, whose own commands fell in an earlier battle.
    let mut w = Walls::himera(STANDARD);
    w.c.state.siege.city_forces_left.insert(NodeId(8), Vec::new());
    withdraw(&mut w);
    w.round("syracuse");
    let sail = |w: &mut Walls| {
        let moves = w.c.state.destinations(&w.map, &side("carthage"), "fleet");
        let to = moves.get(&NodeId(8)).or_else(|| moves.get(&NodeId(4))).cloned().expect("the fleet heads for Himera");
        w.ok(&Order::Move { side: side("carthage"), counter: "fleet".into(), path: to });
    };
    sail(&mut w);
    if w.c.state.counter(&side("carthage"), "fleet").unwrap().node != NodeId(8) {
        w.end("carthage", DiceInput::Manual(vec![2]));
        w.round("syracuse");
        sail(&mut w);
    }
    assert_eq!(w.c.state.counter(&side("carthage"), "fleet").unwrap().node, NodeId(8));
    // Himilco's 20 elements and the 20 NPs would be 2:1 against Leptines' 20 inside, but the
    // fleet has just come.
    let events = w.end("carthage", DiceInput::Manual(vec![2]));
    assert!(!siege_modifiers(&events).iter().any(|m| m.contains("2:1")), "{:?}", siege_modifiers(&events));
    w.round("syracuse");
    let events = w.end("carthage", DiceInput::Manual(vec![2]));
    assert!(siege_modifiers(&events).contains(&"+1 2:1 effective elements".to_owned()), "{:?}", siege_modifiers(&events));
}

/// MG-29: a command marching through a node where disease has come to a siege rolls for it
/// too; on a 1 it loses a tenth of its elements, rounded up, chosen from that command alone.
#[test]
fn mg_29_a_command_marching_through_disease_rolls_for_it() {
    let mut w = besieged(STANDARD);
    w.round("syracuse");
    w.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(4)] });
    w.end("carthage", DiceInput::Manual(vec![1]));
    assert!(w.c.state.siege.sieges[0].disease);
    w.ends("carthage", 2);
    w.end("syracuse", DiceInput::Manual(vec![6]));
    w.ends("syracuse", 2);
    // Hanno (17 elements, 2 MP) rides from Panormus through Himera to Cephaloedium.
    let through = Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(8), NodeId(9)] };
    let events = w.go(&through, DiceInput::Manual(vec![1])).unwrap();
    assert!(
        events.iter().any(|e| matches!(e, Event::DiseaseStruck { elements: 2, of: 17, command: Some(c), .. } if c == "Hanno")),
        "{events:?}"
    );
    let lines: Vec<String> =
        events.iter().filter_map(|e| e.describe(&w.map, &w.c.state.scenario, &referee_campaign::Viewer::Umpire)).collect();
    assert!(
        lines.iter().any(|l| l.contains("Hanno catches it marching through and loses 2 elements (10 % of 17 = 1.7, rounded up)")),
        "{lines:?}"
    );
    let carthage = referee_campaign::Viewer::Side(side("syracuse"));
    let seen: Vec<String> = events.iter().filter_map(|e| e.describe(&w.map, &w.c.state.scenario, &carthage)).collect();
    assert!(seen.iter().all(|l| !l.contains("Hanno") && !l.contains("17")), "Syracuse reads no name or size: {seen:?}");
    let wrong = vec![("Himilco".to_owned(), "2 Reg Sp(O)".parse().unwrap())];
    w.refused(&Order::AllocateSiegeLosses { side: side("carthage"), lost: wrong, sunk: vec![] }, "Himilco is not the command that marched");
    let lost = vec![("Hanno".to_owned(), "2 Irr LH(O)".parse().unwrap())];
    w.ok(&Order::AllocateSiegeLosses { side: side("carthage"), lost, sunk: vec![] });
    assert!(w.elements("carthage", "Hanno").contains(&"4 Irr LH(O)".to_owned()));
}
