//! After the tabletop battle: the result record checked against the battle (MG-20),
//! recovery rolls (MG-30), lost commanders (MG-31), the loser's retreat (MG-15) and
//! victory points (MG-33).

use referee_campaign::core::log::DiceRolled;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::battle::{BattleResult, CommandLosses, Outcome};
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::{DiceInput, NodeId, magna_graecia::event::Event, magna_graecia::order::Order};

mod common;
use common::{Game as Field, STANDARD, deployment, matching, rolls, side};

fn losses(s: &str, command: &str, destroyed: &[&str]) -> CommandLosses {
    CommandLosses {
        side: side(s),
        command: command.into(),
        destroyed: destroyed.iter().map(|g| g.parse().unwrap()).collect(),
        fled: vec![],
        general_killed: false,
        demoralised: false,
        voluntary: false,
        join: None,
    }
}

fn won(winner: &str, list: Vec<CommandLosses>) -> Order {
    Order::RecordBattleResult {
        result: BattleResult {
            battle: 1,
            outcome: Outcome::Won { winner: side(winner) },
            held_field: None,
            losses: list,
            open_roads: Default::default(),
            city_attacked_by: None,
        },
    }
}

/// MG-20 / MG-26 / MG-31: a result that does not fit the battle is refused and changes nothing.
#[test]
fn mg_20_inconsistent_results_are_refused() {
    let mut f = Field::himera(STANDARD);
    let mut bad = won("rome", vec![]);
    f.refused(&bad, "`outcome.winner`: Dionysian War has no side `rome`; its sides are carthage, syracuse — MG-02");
    if let Order::RecordBattleResult { result } = &mut bad {
        result.outcome = Outcome::NoResult {};
        result.held_field = Some(side("carthage"));
    }
    f.refused(&bad, "nobody holds the field after a battle without a loser, not carthage");
    if let Order::RecordBattleResult { result } = &mut bad {
        result.held_field = None;
    }
    f.refused(&won("carthage", vec![losses("carthage", "Mago", &["1 Reg Sp(O)"])]), "Mago of Carthage did not fight at Himera");
    f.refused(
        &won("carthage", vec![losses("syracuse", "Leptines", &["15 Reg Sp(O)"])]),
        "Leptines had 14 Reg Sp(O) and cannot have lost 15",
    );
    let mut fled = losses("syracuse", "Leptines", &[]);
    fled.fled = vec!["2 Reg Sp(O)".parse().unwrap()];
    f.refused(&won("carthage", vec![fled]), "only inferior elements count as lost when they flee");
    let mut join = losses("syracuse", "Leptines", &[]);
    join.join = Some("Himilco".into());
    f.refused(&won("carthage", vec![join]), "Leptines joins Himilco only if its general is lost");
    f.refused(&won("carthage", vec![losses("syracuse", "Leptines", &[]), losses("syracuse", "Leptines", &[])]), "Leptines is listed twice");
    if let Order::RecordBattleResult { result } = &mut bad {
        result.outcome = Outcome::Won { winner: side("carthage") };
        result.battle = 7;
    }
    f.refused(&bad, "there is no battle 7 waiting for its result");
}

/// MG-30: each lost element rolls d6, 5 or more recovers it; +2 for holding the field.
#[test]
fn mg_30_recovery_rolls() {
    let mut f = Field::himera(STANDARD);
    let result = won("carthage", vec![losses("carthage", "Himilco", &["2 Reg Sp(O)"]), losses("syracuse", "Leptines", &["4 Reg Sp(O)"])]);
    // Himilco (held the field, +2): 3 and 2 → 5 recovers, 4 is lost. Leptines: 5, 4, 6, 1.
    let events = f.go(&result, DiceInput::Manual(vec![3, 2, 5, 4, 6, 1])).unwrap();
    let rolls = rolls(&events);
    assert_eq!(rolls[0], ("recovery of Reg Sp(O) of Himilco".to_owned(), 5));
    assert_eq!(rolls.iter().map(|r| r.1).collect::<Vec<_>>(), [5, 4, 5, 4, 6, 1]);
    assert!(f.elements("carthage", "Himilco").contains(&"7 Reg Sp(O)".to_owned()));
    assert!(f.elements("syracuse", "Leptines").contains(&"12 Reg Sp(O)".to_owned()));
    let s = &f.c.state;
    assert_eq!((s.losses.elements_lost[&side("carthage")], s.losses.elements_lost[&side("syracuse")]), (1, 2));
    assert!(s.battles.is_empty());
    assert_eq!(s.losses.land_retreats_due.len(), 1, "the loser's counter must retreat");
}

/// MG-31: a general lost for good hands his elements to another command in the node, or his
/// command fights on leaderless and cannot move, counted without him from then on; MG-33
/// scores him to the enemy.
#[test]
fn mg_31_lost_generals() {
    let mut f = Field::himera(STANDARD);
    let mut l = losses("syracuse", "Leptines", &["1 Reg Ps(O)"]);
    l.general_killed = true;
    // The Ps(O) rolls 6 - 1 = 5 (recovered); the general 3 + 1 = 4 (lost).
    f.go(&won("carthage", vec![l]), DiceInput::Manual(vec![6, 3])).unwrap();
    let s = &f.c.state;
    assert!(s.losses.leaderless.contains(&(side("syracuse"), "Leptines".to_owned())));
    assert_eq!(s.losses.elements_lost[&side("syracuse")], 1, "the general's element");
    assert_eq!(s.victory_points()[&side("carthage")].commanders, 1);
    assert_eq!(
        s.elements_in_play(&side("syracuse")),
        s.armies[&side("syracuse")].commands.iter().map(|c| c.element_count()).sum::<u32>() - 1
    );
    // A siege or disease counts the command's elements without its general (MG-28, MG-29).
    let at_himera: u32 = s
        .counters
        .iter()
        .filter(|c| c.side == side("syracuse") && c.node == NodeId(8) && !c.is_fleet())
        .map(|c| s.armies[&side("syracuse")].commands.iter().find(|r| r.name == c.name).unwrap().element_count())
        .sum();
    assert_eq!(s.elements_at(&side("syracuse"), NodeId(8), false), at_himera - 1);

    let mut two = STANDARD.to_vec();
    two[8] = ("syracuse", "Agyris", 8);
    let mut g = Field::himera(&two);
    let mut l = losses("syracuse", "Leptines", &[]);
    l.general_killed = true;
    l.join = Some("Agyris".into());
    g.go(&won("carthage", vec![l]), DiceInput::Manual(vec![1])).unwrap();
    let s = &g.c.state;
    assert!(s.counter(&side("syracuse"), "Leptines").is_none());
    assert!(g.elements("syracuse", "Agyris").contains(&"14 Reg Sp(O)".to_owned()), "{:?}", g.elements("syracuse", "Agyris"));
}

/// MG-30: the general's own element is the "command element" (+1) and the -1 for a killed
/// leader falls on the rest of his command, so both modifiers change a roll: a 4 brings the
/// general back, while a 5 for one of his men is not enough.
#[test]
fn mg_30_the_command_element_and_the_killed_leaders_men() {
    let mut f = Field::himera(STANDARD);
    let mut l = losses("syracuse", "Leptines", &["1 Reg Ps(O)"]);
    l.general_killed = true;
    let events = f.go(&won("carthage", vec![l]), DiceInput::Manual(vec![5, 4])).unwrap();
    let rolls: Vec<(String, Vec<i32>, i32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::DiceRolled(DiceRolled { roll, .. }) => {
                Some((roll.purpose.clone(), roll.modifiers.iter().map(|m| m.value).collect(), roll.total()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(rolls[0], ("recovery of Reg Ps(O) of Leptines".to_owned(), vec![-1], 4));
    assert_eq!(rolls[1], ("recovery of Leptines's general".to_owned(), vec![1], 5));
    let s = &f.c.state;
    assert!(!s.losses.leaderless.contains(&(side("syracuse"), "Leptines".to_owned())), "the general came back");
    assert_eq!(s.losses.elements_lost[&side("syracuse")], 1, "the Ps(O) did not");
}

/// MG-30 / MG-31 / MG-05: a city's commands are allied: their elements roll -1; a city
/// command whose general is lost hands its men to another of the city's commands, and never
/// to a side's own command, nor a side's to the city's.
#[test]
fn mg_31_a_city_commands_men_join_another_of_the_city() {
    let mut f = Field::himera(STANDARD);
    let mut lep = losses("syracuse", "Leptines", &[]);
    lep.general_killed = true;
    lep.join = Some("Himera 1".into());
    f.refused(&won("carthage", vec![lep]), "a city's commands and a side's own do not merge");
    let mut h1 = losses("syracuse", "Himera 1", &["1 Reg Sp(I)"]);
    h1.general_killed = true;
    h1.join = Some("Himera 2".into());
    // The Sp(I): 6 - 1 (allied) - 1 (leader killed) = 4, lost; the general 4 - 1 + 1 = 4, lost.
    let events = f.go(&won("carthage", vec![h1]), DiceInput::Manual(vec![6, 4])).unwrap();
    let totals: Vec<i32> = events.iter().filter_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) => roll.total())).collect();
    assert_eq!(totals, [4, 4]);
    let city = &f.c.state.siege.city_forces_left[&NodeId(8)];
    assert_eq!(city.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Himera 2"]);
    assert_eq!(city[0].element_count(), 15 + 13, "Himera 1's 13 men left join Himera 2");
}

/// Himera with Thearides marched in beside Leptines (and `more` Syracusan commands besides),
/// Himilco attacking.
fn himera_with(more: &[&'static str]) -> Field {
    let mut deployment = referee_campaign::fixtures::moved(STANDARD, "syracuse", "Thearides", 8);
    for name in more {
        deployment = referee_campaign::fixtures::moved(&deployment, "syracuse", name, 8);
    }
    Field::himera(&deployment)
}

fn killed(command: &str, join: Option<&str>) -> CommandLosses {
    let mut l = losses("syracuse", command, &[]);
    l.general_killed = true;
    l.join = join.map(Into::into);
    l
}

/// MG-31: with Leptines standing beside him at Himera, a result that leaves the men of
/// Thearides, whose general was killed, leaderless is refused in one sentence naming
/// Leptines, and nothing is stored; naming Leptines is taken, and his men join Leptines when
/// the general is lost, and stay with him when he is recovered.
#[test]
fn mg_31_a_lost_generals_men_must_join_the_command_beside_them() {
    let mut f = himera_with(&[]);
    let before = f.c.state.clone();
    f.refused(
        &won("carthage", vec![killed("Thearides", None)]),
        "Thearides's general was killed and Leptines stands with his men at Himera, so the result must name Leptines for them to join should he not be recovered, not leave them leaderless — MG-31",
    );
    assert_eq!(f.c.state, before, "nothing of the refused result is applied");

    let thearides = f.elements("syracuse", "Thearides");
    // The general rolls 1 + 1 = 2: lost, so his men go to Leptines.
    let events = f.go(&won("carthage", vec![killed("Thearides", Some("Leptines"))]), DiceInput::Manual(vec![1])).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::BattleResolved { aftermath, .. }
        if aftermath[0].joined.as_deref() == Some("Leptines") && !aftermath[0].leaderless)));
    let s = &f.c.state;
    assert!(s.counter(&side("syracuse"), "Thearides").is_none(), "Thearides's counter is gone");
    assert!(s.losses.leaderless.is_empty(), "nobody is left leaderless");
    let leptines = f.elements("syracuse", "Leptines");
    for g in thearides {
        let spec = g.split_once(' ').unwrap().1;
        assert!(leptines.iter().any(|h| h.ends_with(spec)), "{spec} of Thearides not with Leptines: {leptines:?}");
    }

    // Recovered on a 4 (+1): the join is not used and Thearides keeps his command.
    let mut g = himera_with(&[]);
    g.go(&won("carthage", vec![killed("Thearides", Some("Leptines"))]), DiceInput::Manual(vec![4])).unwrap();
    assert!(g.c.state.counter(&side("syracuse"), "Thearides").is_some());
    assert!(g.c.state.losses.leaderless.is_empty());
}

/// MG-31 / MG-05: a city's command whose general was killed must likewise join another of the
/// city's commands standing beside it, and is refused when it names none.
#[test]
fn mg_31_a_city_command_with_another_beside_it_may_not_be_left_leaderless() {
    let mut f = Field::himera(STANDARD);
    let mut h1 = losses("syracuse", "Himera 1", &[]);
    h1.general_killed = true;
    f.refused(
        &won("carthage", vec![h1]),
        "Himera 1's general was killed and Himera 2 stands with his men at Himera, so the result must name Himera 2",
    );
}

/// MG-31: a command the result loses whole (every element and its general) cannot take in
/// another's men, since the dice may leave nothing of it: naming it is refused, and with no
/// other command beside them the men may be left leaderless.
#[test]
fn mg_31_a_command_lost_whole_takes_in_nobody() {
    let mut f = himera_with(&[]);
    let everything = f.elements("syracuse", "Leptines");
    let mut leptines = losses("syracuse", "Leptines", &everything.iter().map(String::as_str).collect::<Vec<_>>());
    leptines.general_killed = true;
    leptines.join = Some("Thearides".into());
    f.refused(
        &won("carthage", vec![leptines.clone(), killed("Thearides", Some("Leptines"))]),
        "Leptines loses every element in this result and cannot take in Thearides's men, so they fight on leaderless should their general not be recovered — MG-31",
    );
    // Thearides may be left leaderless; Leptines, whose men Thearides can take in, may not.
    let mut alone = leptines.clone();
    alone.join = None;
    f.refused(&won("carthage", vec![alone, killed("Thearides", None)]), "the result must name Thearides");
    f.ok(&won("carthage", vec![leptines, killed("Thearides", None)]));
}

/// MG-31: commands whose generals all fell may send their men to one another only when no
/// command still led stands beside them; round such a ring, should every general be lost, the
/// men gather as one leaderless command in the command listed first. A join to a command
/// whose own general is lost follows its men on.
#[test]
fn mg_31_joins_are_followed_on_and_rings_are_refused_beside_a_led_command() {
    let mut f = himera_with(&["Agyris"]);
    f.refused(
        &won("carthage", vec![killed("Leptines", Some("Thearides")), killed("Thearides", Some("Leptines"))]),
        "the men of Leptines and Thearides are to join one another, so should all their generals be lost they would be left leaderless while Agyris stands at Himera to take them in — MG-31",
    );
    // Thearides to Leptines, Leptines to Agyris; both generals lost (1 + 1 each): all go to Agyris.
    let agyris = f.c.state.armies[&side("syracuse")].commands.iter().find(|c| c.name == "Agyris").unwrap().element_count();
    let moved = |f: &Field, c: &str| f.c.state.armies[&side("syracuse")].commands.iter().find(|r| r.name == c).unwrap().element_count() - 1;
    let gain = moved(&f, "Leptines") + moved(&f, "Thearides");
    f.go(&won("carthage", vec![killed("Thearides", Some("Leptines")), killed("Leptines", Some("Agyris"))]), DiceInput::Manual(vec![1, 1]))
        .unwrap();
    let s = &f.c.state;
    assert!(s.counter(&side("syracuse"), "Leptines").is_none() && s.counter(&side("syracuse"), "Thearides").is_none());
    let now = s.armies[&side("syracuse")].commands.iter().find(|c| c.name == "Agyris").unwrap().element_count();
    assert_eq!(now, agyris + gain, "every man of Leptines and Thearides is with Agyris");
    assert!(s.losses.leaderless.is_empty());

    // Only the two of them: the ring is taken, and with both generals lost their men are one
    // leaderless command under Leptines's name, listed first.
    let mut g = himera_with(&[]);
    let gain = moved(&g, "Thearides");
    let before = moved(&g, "Leptines") + 1;
    g.go(
        &won("carthage", vec![killed("Leptines", Some("Thearides")), killed("Thearides", Some("Leptines"))]),
        DiceInput::Manual(vec![1, 1]),
    )
    .unwrap();
    let s = &g.c.state;
    assert!(s.counter(&side("syracuse"), "Thearides").is_none());
    assert!(s.losses.leaderless.contains(&(side("syracuse"), "Leptines".to_owned())));
    assert_eq!(moved(&g, "Leptines") + 1, before + gain, "Thearides's men are with Leptines's");
}

/// MG-15: the loser retreats at least one node, up to its MP, by a road still open, into
/// nodes without enemy land counters; with nowhere to go it is destroyed.
#[test]
fn mg_15_land_retreats() {
    let mut f = Field::himera(STANDARD);
    let mut result = won("carthage", vec![]);
    if let Order::RecordBattleResult { result } = &mut result {
        result.open_roads.insert(side("syracuse"), vec![NodeId(9), NodeId(10)]);
    }
    f.ok(&result);
    f.ok(&Order::EndPhase { side: side("carthage") });
    assert_eq!(f.c.state.phase, Phase::PostCombat);
    // Carthage reads Syracuse's counter as the counter at Himera, not by its name.
    f.refused(&Order::EndPhase { side: side("carthage") }, "a Syracuse counter at 08 Himera must retreat before post-combat movement ends");
    let retreat = |n: u8| Order::Retreat { side: side("syracuse"), counter: "Leptines".into(), path: vec![NodeId(n)] };
    f.refused(&retreat(4), "Leptines may retreat only to empty, neutral or friendly nodes by a road still open");
    f.ok(&retreat(9));
    assert_eq!(f.c.state.counter(&side("syracuse"), "Leptines").unwrap().node, NodeId(9));
    f.ok(&Order::EndPhase { side: side("carthage") });

    let mut g = Field::himera(STANDARD);
    let mut trapped = won("carthage", vec![]);
    if let Order::RecordBattleResult { result } = &mut trapped {
        result.open_roads.insert(side("syracuse"), vec![NodeId(4)]);
    }
    g.ok(&trapped);
    g.ok(&Order::EndPhase { side: side("carthage") });
    let events = g.ok(&Order::EndPhase { side: side("carthage") });
    assert!(events.iter().any(|e| matches!(e, Event::CommandDestroyed { command, .. } if command == "Leptines")));
    let s = &g.c.state;
    assert!(s.counter(&side("syracuse"), "Leptines").is_none());
    assert_eq!(s.victory_points()[&side("carthage")].commanders, 1);
}

/// MG-25 / MG-15: a beaten non-phasing counter with every road shut waits only to be
/// destroyed; it holds up neither the phasing side's own retreat nor the board's list of who
/// still has to move.
#[test]
fn mg_25_a_trapped_counter_holds_up_nobody() {
    let mut f = Field::deployed("dionysian", 9, STANDARD);
    f.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(7), NodeId(11)] });
    f.passes(&["carthage", "syracuse"]);
    f.ok(&Order::Move { side: side("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] });
    f.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(10)] });
    f.end("carthage", DiceInput::Seeded);
    let at = |f: &Field, node: u8| f.c.state.battles.iter().find(|b| b.node == NodeId(node)).map(|b| b.id).unwrap();
    let (himera, petra) = (at(&f, 8), at(&f, 10));
    // Himilco is beaten at Himera; Agyris at Petra, with no road left open.
    f.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(himera, "syracuse") });
    let mut shut = referee_campaign::fixtures::won_outright(petra, "carthage");
    shut.open_roads.insert(side("syracuse"), vec![]);
    f.ok(&Order::RecordBattleResult { result: shut });
    f.end("carthage", DiceInput::Seeded);
    assert_eq!(f.c.state.phase, Phase::PostCombat);
    assert_eq!(f.c.state.losses.land_retreats_due.len(), 2, "both beaten counters owe a retreat");
    assert_eq!(f.c.state.sides_to_retreat(&f.map), [side("carthage")], "Agyris has nowhere to go");
    f.ok(&Order::Retreat { side: side("carthage"), counter: "Himilco".into(), path: vec![NodeId(4)] });
    let events = f.end("carthage", DiceInput::Seeded);
    assert!(events.iter().any(|e| matches!(e, Event::CommandDestroyed { command, .. } if command == "Agyris")), "{events:?}");
    assert!(f.c.state.counter(&side("syracuse"), "Agyris").is_none());
}

/// MG-33: +1 per city won over, +1 per enemy commander destroyed, +1 per 5 enemy NPs sunk,
/// +10 for an enemy capital held.
#[test]
fn mg_33_victory_points() {
    let mut f = Field::himera(STANDARD);
    f.ok(&won("carthage", vec![]));
    let vp = f.c.state.victory_points();
    assert_eq!(vp[&side("carthage")].total, 0);
    f.ok(&Order::AdjustControl { node: NodeId(31), side: Some(side("carthage")), reason: "the city fell".into() });
    let vp = f.c.state.victory_points();
    assert_eq!(vp[&side("carthage")].capitals, [(NodeId(31), 10)]);
    assert_eq!(vp[&side("carthage")].total, 10);
    assert_eq!(vp[&side("syracuse")].total, 0);

    // A capital taken by siege becomes the taker's city; it scores its 10 VP as a capital,
    // and not a point more as a city won over.
    let mut g = Field::himera(STANDARD);
    let fell = Event::CityFell {
        node: NodeId(31),
        besieger: side("carthage"),
        defender: side("syracuse"),
        destroyed: vec![],
        besieger_losses: 0,
        defender_elements: 0,
        knock_on: vec![],
    };
    g.c.state.apply(&fell).unwrap();
    let vp = &g.c.state.victory_points()[&side("carthage")];
    assert_eq!((vp.cities.clone(), vp.capitals.clone(), vp.total), (vec![], vec![(NodeId(31), 10)], 10));
}

/// MG-35: in the First Punic War Hiero may change sides the moment his ally loses a land
/// battle; the offer lapses when the combat phase ends.
#[test]
fn mg_35_hiero_may_switch_when_his_ally_loses() {
    let play = |switch_at_once: bool| {
        let deployment = deployment(&[
            ("carthage", 27, &["Hanno"]),
            ("carthage", 1, &["Hannibal", "Hamilcar", "Zelalsan", "fleet"]),
            ("rome", 28, &["Appius Claudius Caudex", "Gaius Claudius", "Quintus Caedicius", "Marcus Calpurnius Flamma", "fleet"]),
            ("syracuse", 31, &["Hiero", "Leptines", "Artemon", "fleet"]),
        ]);
        let mut f = Field::deployed("first-punic", 5, &deployment);
        f.pass("carthage");
        f.ok(&Order::Move { side: side("rome"), counter: "Appius Claudius Caudex".into(), path: vec![NodeId(29)] });
        // Mylae's own command, allied to Syracuse, meets him (MG-10), and is beaten.
        f.ok(&Order::EndPhase { side: side("rome") });
        f.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(1, "rome") });
        assert_eq!(f.c.state.politics.switch_offer, None, "Syracuse lost, not its ally");
        f.ok(&Order::EndPhase { side: side("rome") });
        f.ok(&Order::EndPhase { side: side("rome") });
        f.passes(&["syracuse", "carthage"]);
        f.refused(&Order::SwitchSides { side: side("syracuse"), to: side("rome") }, "only at once when its ally has just lost");
        f.ok(&Order::Move { side: side("rome"), counter: "Appius Claudius Caudex".into(), path: vec![NodeId(27)] });
        f.ok(&Order::EndPhase { side: side("rome") });
        let battle = f.c.state.battles[0].id;
        f.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(battle, "rome") });
        assert_eq!(f.c.state.politics.switch_offer, Some((side("syracuse"), side("carthage"))));
        f.refused(&Order::SwitchSides { side: side("carthage"), to: side("rome") }, "only Syracuse may change sides now");
        if switch_at_once {
            f.ok(&Order::SwitchSides { side: side("syracuse"), to: side("rome") });
            let s = &f.c.state;
            assert!(s.are_enemies(&side("syracuse"), &side("carthage")) && !s.are_enemies(&side("syracuse"), &side("rome")));
        } else {
            f.ok(&Order::EndPhase { side: side("rome") });
            f.refused(&Order::SwitchSides { side: side("syracuse"), to: side("rome") }, "only at once");
            assert!(!f.c.state.are_enemies(&side("syracuse"), &side("carthage")));
        }
    };
    play(true);
    play(false);
}

/// MG-30 / MG-15: the loser retreats, so neither it nor a side beside it can have held the
/// field; the winner, said or not, does.
#[test]
fn mg_30_the_loser_cannot_have_held_the_field() {
    let mut f = Field::himera(STANDARD);
    let mut held_by_loser = won("carthage", vec![losses("syracuse", "Leptines", &["1 Reg Sp(O)"])]);
    if let Order::RecordBattleResult { result } = &mut held_by_loser {
        result.held_field = Some(side("syracuse"));
    }
    f.refused(&held_by_loser, "Syracuse lost at Himera and retreats, so cannot have held the field; Carthage won — MG-30");
    if let Order::RecordBattleResult { result } = &mut held_by_loser {
        result.held_field = Some(side("carthage"));
    }
    f.ok(&held_by_loser);
}

/// MG-33 / MG-31: a commander is scored once, when he falls. His men, leaderless, destroyed
/// later whether by a battle or with nowhere to retreat, bring the winner no second point.
#[test]
fn mg_33_a_leaderless_commands_end_scores_no_second_commander() {
    // Leptines's general falls and is not recovered: Carthage scores him.
    let mut f = Field::himera(STANDARD);
    let mut l = losses("syracuse", "Leptines", &[]);
    l.general_killed = true;
    f.go(&won("carthage", vec![l]), DiceInput::Manual(vec![1])).unwrap();
    assert_eq!(f.c.state.victory_points()[&side("carthage")].commanders, 1);
    let gone = Event::CommandDestroyed { side: side("syracuse"), command: "Leptines".into(), by: Some(side("carthage")) };
    f.c.state.apply(&gone).unwrap();
    assert!(f.c.state.counter(&side("syracuse"), "Leptines").is_none());
    assert_eq!(f.c.state.victory_points()[&side("carthage")].commanders, 1, "destroyed leaderless with nowhere to go");

    // Leptines fights leaderless and is lost whole, every element's recovery roll failing.
    let mut g = Field::himera(STANDARD);
    g.c.state.losses.leaderless.insert((side("syracuse"), "Leptines".to_owned()));
    let elements: Vec<String> = g.elements("syracuse", "Leptines");
    let count: usize = elements.iter().map(|e| e.split(' ').next().unwrap().parse::<usize>().unwrap()).sum();
    let whole: Vec<&str> = elements.iter().map(String::as_str).collect();
    g.go(&won("carthage", vec![losses("syracuse", "Leptines", &whole)]), DiceInput::Manual(vec![1; count])).unwrap();
    assert!(g.c.state.counter(&side("syracuse"), "Leptines").is_none(), "lost whole");
    assert_eq!(g.c.state.victory_points()[&side("carthage")].commanders, 0, "lost whole, leaderless");
}

/// MG-06: a city allied to a side's own ally is not won over by its counters standing there:
/// in the First Punic War, Carthage ending its move in Mylae and Helorus, Syracuse's, rolls
/// nothing, and the cities stay Syracuse's.
#[test]
fn mg_06_a_city_allied_to_the_sides_ally_is_not_rolled_for() {
    let deployment = deployment(&[
        ("carthage", 20, &["Hanno"]),
        ("carthage", 16, &["Hamilcar"]),
        ("carthage", 17, &["Hannibal"]),
        ("carthage", 27, &["Zelalsan", "fleet"]),
        ("rome", 28, &["Appius Claudius Caudex", "Gaius Claudius", "Quintus Caedicius", "Marcus Calpurnius Flamma", "fleet"]),
        ("syracuse", 31, &["Hiero", "fleet"]),
        ("syracuse", 23, &["Leptines"]),
        ("syracuse", 26, &["Artemon"]),
    ]);
    let mut f = Field::deployed("first-punic", 1234, &deployment);
    let syracusan = |f: &Field, n: u8| f.c.state.politics.city_allies.get(&NodeId(n)) == Some(&side("syracuse"));
    assert!(syracusan(&f, 29) && syracusan(&f, 30), "the scenario's cities of Syracuse");
    f.ok(&Order::Move { side: side("carthage"), counter: "Zelalsan".into(), path: vec![NodeId(29)] });
    f.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(30)] });
    assert_eq!(f.c.state.alliance_rolls_due(&f.map, &side("carthage")), []);
    let events = f.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Manual(vec![])).unwrap();
    assert!(rolls(&events).is_empty(), "{events:?}");
    assert!(syracusan(&f, 29) && syracusan(&f, 30));
}

fn drawn(list: Vec<CommandLosses>) -> Order {
    Order::RecordBattleResult {
        result: BattleResult {
            battle: 1,
            outcome: Outcome::NoResult {},
            held_field: None,
            losses: list,
            open_roads: Default::default(),
            city_attacked_by: None,
        },
    }
}

fn choose(s: &str, stay: bool) -> Order {
    Order::ChooseStayOrRetire { side: side(s), battle: 1, stay }
}

/// MG-25: a battle without a loser: recovery with nobody holding the field, secret stay or
/// retire choices revealed together; retirers retreat, the non-phasing side first, each only
/// by a road to a node friendly or neutral to it (MG-26); if all stay, a second day.
#[test]
fn mg_25_mg_26_no_result_stay_or_retire() {
    let mut f = Field::himera(STANDARD);
    // Leptines' two lost spearmen roll with no +2: 5 recovers, 4 does not.
    let events = f.go(&drawn(vec![losses("syracuse", "Leptines", &["2 Reg Sp(O)"])]), DiceInput::Manual(vec![5, 4])).unwrap();
    assert!(events.iter().all(|e| !matches!(e, Event::DiceRolled(DiceRolled { roll, .. }) if !roll.modifiers.is_empty())));
    assert!(f.elements("syracuse", "Leptines").contains(&"13 Reg Sp(O)".to_owned()));
    f.refused(&won("carthage", vec![]), "battle 1 waits for each side's choice to stay or retire");
    f.refused(
        &Order::EndPhase { side: side("carthage") },
        "battle 1 at Himera ended with nobody beaten and awaits each side's choice to stay or retire (`choose_stay_or_retire`) — MG-25",
    );
    f.ok(&choose("carthage", false));
    f.refused(&choose("carthage", true), "Carthage has written its choice already");
    // Syracuse learns that Carthage has chosen, not what.
    let events = f.store.events_as::<MagnaGraecia>(f.c.id).unwrap();
    let view = referee_campaign::magna_graecia::view::side_view(&f.c.state, &f.map, &events, &side("syracuse")).unwrap();
    let last = &view.log.last().unwrap().text;
    assert_eq!(last, "Carthage has written its choice — MG-25");
    let json = serde_json::to_string(&view).unwrap();
    assert!(!json.contains("\"choices\"") && !json.contains("writes: retire"), "the choice leaks: {json}");
    let revealed = f.ok(&choose("syracuse", false));
    assert!(matches!(revealed.last(), Some(Event::ChoicesRevealed { second_day: false, .. })));
    assert_eq!(f.c.state.losses.land_retreats_due.len(), 2);
    f.ok(&Order::EndPhase { side: side("carthage") });
    f.refused(
        &Order::Retreat { side: side("carthage"), counter: "Himilco".into(), path: vec![NodeId(4)] },
        "the sides not moving retreat first, as retiring sides do",
    );
    f.ok(&Order::Retreat { side: side("syracuse"), counter: "Leptines".into(), path: vec![NodeId(9)] });
    // MG-26: retiring, Carthage takes no road into Cephaloedium, which Syracuse holds.
    f.refused(
        &Order::Retreat { side: side("carthage"), counter: "Himilco".into(), path: vec![NodeId(9)] },
        "Himilco may retreat only to empty, neutral or friendly nodes by a road still open, up to its MP: Panormus",
    );
    f.ok(&Order::Retreat { side: side("carthage"), counter: "Himilco".into(), path: vec![NodeId(4)] });
    f.ok(&Order::EndPhase { side: side("carthage") });

    let mut g = Field::himera(STANDARD);
    g.ok(&drawn(vec![]));
    g.ok(&choose("syracuse", true));
    let revealed = g.ok(&choose("carthage", true));
    assert!(matches!(revealed.last(), Some(Event::ChoicesRevealed { second_day: true, .. })));
    assert_eq!((g.c.state.battles[0].day, g.c.state.battles[0].awaiting_choices), (2, false));
    g.ok(&won("syracuse", vec![]));
    assert_eq!(g.c.state.losses.land_retreats_due.len(), 1);
    assert_eq!(g.c.state.losses.land_retreats_due[0].command, "Himilco");

    // With every road from Himera leading into Syracuse's nodes, Carthage cannot retire.
    let mut h = Field::himera(STANDARD);
    h.ok(&drawn(vec![]));
    let around: Vec<NodeId> = h.map.neighbours(NodeId(8)).collect();
    for n in around {
        h.c.state.control.insert(n, side("syracuse"));
    }
    h.refused(&choose("carthage", false), "no road leads from Himera to a node Carthage or a friend holds, or a neutral one");
    h.ok(&choose("carthage", true));
}

/// MG-07: a side attacks a neutral city where it stands; the city turns to its enemy and its
/// own commands fight; beaten, what is left of them joins the victor.
#[test]
fn mg_07_attacking_a_neutral_city() {
    let mut f = Field::deployed("dionysian", 9, STANDARD);
    f.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(7)] });
    f.end("carthage", DiceInput::Manual(vec![2]));
    let attack = |ally: &str| Order::AttackCity { side: side("carthage"), node: NodeId(7), ally: side(ally) };
    f.refused(&attack("carthage"), "the attacked city turns to an enemy of Carthage");
    f.refused(&Order::AttackCity { side: side("carthage"), node: NodeId(5), ally: side("syracuse") }, "Carthage has no command at Mazara");
    f.ok(&attack("syracuse"));
    let s = &f.c.state;
    assert_eq!(s.politics.city_allies[&NodeId(7)], side("syracuse"), "the attacked city turns to Carthage's enemy");
    let battle = s.battles[0].clone();
    assert_eq!((battle.city, battle.defenders.clone()), (Some(NodeId(7)), vec![side("syracuse")]));
    // Entella fields one command, "Entella 1"; Hanno beats it and it loses 4 spearmen.
    let mut city = losses("syracuse", "Entella 1", &["4 Reg Sp(I)"]);
    city.side = side("syracuse");
    let result = Order::RecordBattleResult {
        result: BattleResult {
            battle: battle.id,
            outcome: Outcome::Won { winner: side("carthage") },
            held_field: None,
            losses: vec![city],
            open_roads: Default::default(),
            city_attacked_by: None,
        },
    };
    f.go(&result, DiceInput::Manual(vec![1, 1, 1, 1])).unwrap();
    let s = &f.c.state;
    assert_eq!(s.politics.city_allies[&NodeId(7)], side("carthage"), "its beaten forces join the victor");
    let entella = s.city_forces(&f.map, NodeId(7));
    assert!(entella[0].elements.iter().any(|g| g.to_string() == "2 Reg Sp(I)"), "{:?}", entella[0].elements);
    assert_eq!(s.victory_points()[&side("carthage")].cities, [NodeId(7)]);
}

/// MG-08: a neutral city keeps out of a battle in its node, but one side attacking it there
/// makes it join the other.
#[test]
fn mg_08_a_city_attacked_during_a_battle_joins_the_other_side() {
    // Hanno rides into neutral Camicus; Agyris follows him there from Petra.
    let mut f = Field::deployed("dionysian", 9, STANDARD);
    f.ok(&Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(7), NodeId(11)] });
    f.end("carthage", DiceInput::Manual(vec![2]));
    f.ends("carthage", 2);
    f.ok(&Order::Move { side: side("syracuse"), counter: "Agyris".into(), path: vec![NodeId(11)] });
    f.end("syracuse", DiceInput::Manual(vec![3]));
    let battle = f.c.state.battles[0].id;
    let mut result = BattleResult {
        battle,
        outcome: Outcome::Won { winner: side("carthage") },
        held_field: None,
        losses: vec![],
        open_roads: Default::default(),
        city_attacked_by: Some(side("rome")),
    };
    f.refused(&Order::RecordBattleResult { result: result.clone() }, "`city_attacked_by`: Dionysian War has no side `rome`");
    // Carthage wins the field but attacked the city on the way: Camicus joins Syracuse.
    result.city_attacked_by = Some(side("carthage"));
    f.ok(&Order::RecordBattleResult { result });
    assert_eq!(f.c.state.politics.city_allies[&NodeId(11)], side("syracuse"));
}

/// MG-05 / MG-08: a city allied to a side fights beside it in a battle in its node; its
/// commands keep their losses after.
#[test]
fn mg_05_an_allied_city_fights_beside_its_side() {
    let mut f = Field::himera(STANDARD);
    assert_eq!(f.c.state.battles[0].city, Some(NodeId(8)), "Himera is Syracuse's ally");
    f.refused(&won("carthage", vec![losses("carthage", "Himera 1", &["1 Reg Sp(I)"])]), "Himera 1 of Carthage did not fight at Himera");
    let events = f.go(&won("carthage", vec![losses("syracuse", "Himera 1", &["2 Reg Sp(I)"])]), DiceInput::Manual(vec![1, 1])).unwrap();
    assert!(matches!(&events[0], Event::CityForcesMustered { forces, .. } if forces.len() == 2));
    let himera = f.c.state.city_forces(&f.map, NodeId(8));
    assert!(himera[0].elements.iter().any(|g| g.to_string() == "4 Reg Sp(I)"), "{:?}", himera[0].elements);
    assert_eq!(f.c.state.politics.city_allies[&NodeId(8)], side("syracuse"), "an allied city stays allied when its side loses");
}

/// The Pyrrhic War deployed for a fight at Mylae: Gisco at Tyndaris, Pyrrhus's four commands
/// in Messena, Syracuse at home.
fn pyrrhic_at_messena() -> Field {
    Field::deployed(
        "pyrrhic",
        7,
        &deployment(&[
            ("carthage", 22, &["Hamilcar", "Hanno", "Bomilcar"]),
            ("carthage", 27, &["Gisco"]),
            ("carthage", 30, &["fleet"]),
            ("pyrrhus", 28, &["Pyrrhus", "Leonnatus", "Helenus", "Heraclides of Leontini"]),
            ("syracuse", 31, &["Sosistratus", "Thoenon", "Agathon", "fleet"]),
        ]),
    )
}

/// The city commands `s` reads beside its own in battle `battle` (MG-05).
fn city_commands_with(f: &Field, s: &str, battle: u32) -> Vec<String> {
    let events = f.store.events_as::<MagnaGraecia>(f.c.id).unwrap();
    let view = referee_campaign::magna_graecia::view::side_view(&f.c.state, &f.map, &events, &side(s)).unwrap();
    view.own.allied_city_commands.get(&battle).map(|list| list.iter().map(|c| c.name.clone()).collect()).unwrap_or_default()
}

/// MG-05 / MG-06: a city that joins the mover as it ends its movement brings its commands
/// into the battle in its node, beside the mover: Mylae, won over by Pyrrhus's 6, fights
/// Gisco with him.
#[test]
fn mg_05_a_city_won_over_by_the_mover_marches_with_it() {
    let mut f = pyrrhic_at_messena();
    f.ok(&Order::Move { side: side("carthage"), counter: "Gisco".into(), path: vec![NodeId(29)] });
    f.end("carthage", DiceInput::Manual(vec![1]));
    f.ends("carthage", 2);
    f.ok(&Order::Move { side: side("pyrrhus"), counter: "Pyrrhus".into(), path: vec![NodeId(29)] });
    let events = f.end("pyrrhus", DiceInput::Manual(vec![6]));
    assert!(events.iter().any(|e| matches!(e, Event::CityJoined { node: NodeId(29), .. })), "{events:?}");
    let battle = f.c.state.battles.first().expect("Pyrrhus meets Gisco at Mylae").clone();
    assert_eq!((battle.attacker.clone(), battle.city), (side("pyrrhus"), Some(NodeId(29))));
    assert_eq!(city_commands_with(&f, "pyrrhus", battle.id), ["Mylae 1"]);
}

/// MG-05 / MG-10: a capital that fields commands stands with its side from the start:
/// Messena's command fights beside Pyrrhus when Carthage marches in.
#[test]
fn mg_05_a_capital_of_strength_1_fights_for_its_side() {
    let mut f = pyrrhic_at_messena();
    assert_eq!(f.c.state.politics.city_allies.get(&NodeId(28)), Some(&side("pyrrhus")));
    assert_eq!(f.c.state.victory_points()[&side("pyrrhus")].total, 0, "Messena was always Pyrrhus's: nothing won over");
    f.ok(&Order::Move { side: side("carthage"), counter: "Gisco".into(), path: vec![NodeId(29), NodeId(28)] });
    f.end("carthage", DiceInput::Seeded);
    let battle = f.c.state.battles.iter().find(|b| b.node == NodeId(28)).expect("Gisco meets Pyrrhus at Messena").clone();
    assert_eq!((battle.defenders.clone(), battle.city), (vec![side("pyrrhus")], Some(NodeId(28))));
    assert_eq!(city_commands_with(&f, "pyrrhus", battle.id), ["Messena 1"]);
}

/// MG-24: a city's demoralised commands flee into their city; where the enemy holds it they
/// surrender, and the city turns next campaign turn to the side that holds it.
#[test]
fn mg_24_demoralised_city_commands_surrender_to_the_holder() {
    let mut f = Field::himera(STANDARD);
    // The umpire records that Carthage holds Himera's walls as the battle ends.
    f.ok(&Order::AdjustControl { node: NodeId(8), side: Some(side("carthage")), reason: "the gates were opened".into() });
    let mut broken = losses("syracuse", "Himera 1", &[]);
    broken.demoralised = true;
    let events = f.ok(&won("carthage", vec![broken]));
    assert!(events.iter().any(|e| matches!(e, Event::CityCommandsSurrendered { to, .. } if to == &side("carthage"))));
    assert_eq!(f.c.state.city_forces(&f.map, NodeId(8)).len(), 1, "Himera 1 has surrendered");
    assert_eq!(f.c.state.politics.city_allies[&NodeId(8)], side("syracuse"), "not until the next campaign turn");
    f.end("carthage", DiceInput::Seeded);
    f.ok(&Order::Retreat { side: side("syracuse"), counter: "Leptines".into(), path: vec![NodeId(9)] });
    f.end("carthage", DiceInput::Seeded);
    f.pass("syracuse");
    assert_eq!(f.c.state.turn, 2);
    assert_eq!(f.c.state.politics.city_allies[&NodeId(8)], side("carthage"));
}

/// battles and their results are readable in the database on their own, and undo
/// takes a result back out, naming it by the battle's place.
#[test]
fn x_03_battles_and_results_in_the_database() {
    let mut f = Field::himera(STANDARD);
    let count = |f: &Field, sql: &str| -> i64 { f.store.connection().query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count(&f, "SELECT count(*) FROM battles"), 1);
    assert_eq!(count(&f, "SELECT count(*) FROM battles_due"), 1);
    f.ok(&won("carthage", vec![]));
    assert_eq!(count(&f, "SELECT count(*) FROM battle_results WHERE kind = 'battle_resolved'"), 1);
    assert_eq!(count(&f, "SELECT count(*) FROM battles_due"), 0);
    assert_eq!(f.store.last_summary(f.c.id).unwrap().as_deref(), Some("enter the result of battle 1 at Himera"));
    f.store.undo(&mut f.c).unwrap();
    assert_eq!(count(&f, "SELECT count(*) FROM battle_results"), 0);
    assert_eq!(count(&f, "SELECT count(*) FROM battles_due"), 1);
}

/// X-01, MG-18, MG-28: the side ending its combat phase reads what another side still owes
/// without the number, which is that side's own to know: a refusal is shown on the screen of
/// whoever gave the order.
#[test]
fn x_01_a_refusal_tells_the_mover_nothing_of_anothers_losses() {
    let mut f = Field::himera(STANDARD);
    f.c.state.naval.naval_losses_due.insert(side("syracuse"), 7);
    let err = f.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Syracuse must first choose the carried elements it lost at sea — MG-18"), "{err}");
    assert!(!err.contains('7'), "{err}");
    f.c.state.naval.naval_losses_due.clear();
    let due = referee_campaign::magna_graecia::siege::LossesDue {
        node: NodeId(31),
        elements: 7,
        rule: referee_campaign::rule::RuleId::MG_29,
        by: None,
        command: None,
    };
    f.c.state.siege.siege_losses_due.insert(side("syracuse"), due);
    let err = f.go(&Order::EndPhase { side: side("carthage") }, DiceInput::Seeded).unwrap_err();
    assert!(err.contains("Syracuse must first choose the elements it lost at Syracuse — MG-29"), "{err}");
    assert!(!err.contains('7'), "{err}");
}

/// MG-10, MG-06, MG-07: a command ending its movement in a city allied to an enemy, where
/// none of the enemy's counters stand, rolls for the city first; unless a 6 brings it over,
/// the city's own commands meet it in battle, the city's ally defending, as an attack on the
/// city: beaten, the city and its node come over to the victor.
#[test]
fn mg_10_a_city_allied_to_an_enemy_meets_the_marchers() {
    let deployment = deployment(&[
        ("carthage", 27, &["Hanno"]),
        ("carthage", 1, &["Hannibal", "Hamilcar", "Zelalsan", "fleet"]),
        ("rome", 28, &["Appius Claudius Caudex", "Gaius Claudius", "Quintus Caedicius", "Marcus Calpurnius Flamma", "fleet"]),
        ("syracuse", 31, &["Hiero", "Leptines", "Artemon", "fleet"]),
    ]);
    let march = |die: u8| {
        let mut f = Field::deployed("first-punic", 5, &deployment);
        f.pass("carthage");
        f.ok(&Order::Move { side: side("rome"), counter: "Appius Claudius Caudex".into(), path: vec![NodeId(29)] });
        let events = f.end("rome", DiceInput::Manual(vec![die]));
        (f, events)
    };
    // Mylae, allied to Syracuse, stays so on a 5, and its command takes the field.
    let (f, events) = march(5);
    let raised: Vec<_> = events.iter().filter_map(matching!(Event::BattleRaised { battle } => battle.clone())).collect();
    assert_eq!(raised.len(), 1, "{events:?}");
    let b = &raised[0];
    assert_eq!(
        (b.node, b.attacker.clone(), b.defenders.clone(), b.city),
        (NodeId(29), side("rome"), vec![side("syracuse")], Some(NodeId(29)))
    );
    assert!(b.city_attack, "the city's commands fight alone");
    let mut f = f;
    let events = f.ok(&Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(b.id, "rome") });
    assert!(events.iter().any(|e| matches!(e, Event::CityJoined { node: NodeId(29), .. })), "{events:?}");
    assert_eq!(f.c.state.politics.city_allies[&NodeId(29)], side("rome"));
    assert_eq!(f.c.state.control[&NodeId(29)], side("rome"), "Mylae's node is Rome's: a beaten army may retire there");
    // Mylae's ally may take the city's command inside the walls instead (MG-27); besieged, the
    // city is rolled for no more (MG-06): Rome's next movement rolls the siege alone.
    let (mut f, _) = march(5);
    f.ok(&Order::WithdrawIntoCity { side: side("syracuse"), battle: 1 });
    assert_eq!(f.c.state.siege.sieges.len(), 1);
    f.ends("rome", 2);
    f.passes(&["syracuse", "carthage"]);
    let events = f.end("rome", DiceInput::Manual(vec![2]));
    let purposes: Vec<String> = rolls(&events).into_iter().map(|(purpose, _)| purpose).collect();
    assert_eq!(purposes, ["siege of Mylae"]);
    // On a 6 it comes over to Rome: nothing to fight.
    let (f, events) = march(6);
    assert!(events.iter().any(|e| matches!(e, Event::CityJoined { node: NodeId(29), .. })), "{events:?}");
    assert!(f.c.state.battles.is_empty());
    assert_eq!(f.c.state.politics.city_allies[&NodeId(29)], side("rome"));
}
