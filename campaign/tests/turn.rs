//! The turn on the map: deployment (MG-02), turn order (MG-09), movement (MG-11), stacking
//! (MG-12), halting (MG-13), fleets (MG-16), alliance rolls (MG-06), battles raised (MG-10,
//! MG-20) and the end of the campaign (MG-32).

#![allow(clippy::needless_pass_by_value, reason = "test helpers take commands by value so calls read as orders")]

use referee_campaign::core::log::DiceRolled;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::army::{Army, CommandRoster, Rank};
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::{
    Campaign, DiceInput, ExecError, NodeId, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::event::Event,
    magna_graecia::map::Map, magna_graecia::order::Order,
};

mod common;
use common::{matching, rolls};

struct Game {
    catalog: Catalog,
    store: Store,
    campaign: Campaign<MagnaGraecia>,
}

fn side(id: &str) -> SideId {
    SideId::new(id)
}

impl Game {
    fn new(scenario: &str) -> Game {
        let catalog = Catalog::embedded();
        let mut store = Store::open_in_memory().unwrap();
        let campaign = store.create_as::<MagnaGraecia>("Turn test", catalog.scenario(scenario).unwrap(), 17).unwrap();
        Game { catalog, store, campaign }
    }

    fn map(&self) -> Map {
        self.catalog.map("sicily").unwrap().clone()
    }

    fn run(&mut self, command: &Order, dice: DiceInput) -> Result<Vec<Event>, ExecError> {
        let map = self.map();
        self.store.execute(&mut self.campaign, &map, command, dice)
    }

    fn ok(&mut self, command: Order) -> Vec<Event> {
        let text = format!("{command:?}");
        self.run(&command, DiceInput::Seeded).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// Asserts a refusal naming `rule` and containing `words`, with nothing stored.
    fn refused(&mut self, command: Order, rule: &str, words: &str) {
        let before = self.store.events_as::<MagnaGraecia>(self.campaign.id).unwrap().len();
        let err = self.run(&command, DiceInput::Seeded).unwrap_err().to_string();
        assert!(err.ends_with(&format!("— {rule}")) && err.contains(words), "expected {rule} / {words}, got: {err}");
        assert_eq!(self.store.events_as::<MagnaGraecia>(self.campaign.id).unwrap().len(), before);
    }

    fn deploy(&mut self, s: &str, counter: &str, node: u8) {
        self.ok(Order::Deploy { side: side(s), counter: counter.into(), node: NodeId(node) });
    }

    fn mv(&mut self, s: &str, counter: &str, path: &[u8]) -> Result<Vec<Event>, ExecError> {
        self.run(
            &Order::Move { side: side(s), counter: counter.into(), path: path.iter().map(|&n| NodeId(n)).collect() },
            DiceInput::Seeded,
        )
    }

    fn end(&mut self, s: &str, dice: DiceInput) -> Vec<Event> {
        self.run(&Order::EndPhase { side: side(s) }, dice).unwrap_or_else(|e| panic!("end phase of {s}: {e}"))
    }

    /// The Dionysian War deployed: Carthage in the west, Syracuse round its allied cities.
    fn dionysian() -> Game {
        let mut g = Game::new("dionysian");
        for (s, c, n) in referee_campaign::fixtures::DIONYSIAN {
            g.deploy(s, c, n);
        }
        g.ok(Order::BeginPlay {});
        g
    }

    fn at(&self, s: &str, counter: &str) -> NodeId {
        self.campaign.state.counter(&side(s), counter).unwrap().node
    }
}

/// MG-02: each side deploys only where its scenario allows.
#[test]
fn mg_02_deployment_limits() {
    let mut g = Game::new("dionysian");
    let deploy = |s: &str, c: &str, n: u8| Order::Deploy { side: side(s), counter: c.into(), node: NodeId(n) };
    g.refused(deploy("carthage", "Himilco", 24), "MG-02", "Carthage may not deploy at 24 Catana");
    g.refused(deploy("syracuse", "Leptines", 14), "MG-02", "may not start in Enna, a fortified city not allied to it");
    g.refused(deploy("syracuse", "fleet", 10), "MG-16", "Petra is inland");
    g.refused(deploy("syracuse", "Xerxes", 31), "MG-03", "Syracuse has no command called Xerxes");
    g.deploy("syracuse", "Leptines", 10);
    g.deploy("syracuse", "Dionysius", 31);
    g.refused(Order::BeginPlay {}, "MG-02", "Carthage has not deployed: Himilco, Mago, Hamilcar, Hanno, fleet");

    let mut p = Game::new("pyrrhic");
    p.refused(
        Order::Deploy { side: side("pyrrhus"), counter: "Pyrrhus".into(), node: NodeId(26) },
        "MG-02",
        "Pyrrhus may not deploy at 26 Naxos",
    );
    p.refused(Order::Deploy { side: side("pyrrhus"), counter: "fleet".into(), node: NodeId(28) }, "MG-02", "Pyrrhus has no fleet");
    let mut s = Game::new("second-punic");
    s.refused(Order::Deploy { side: side("carthage"), counter: "Himilco".into(), node: NodeId(16) }, "MG-36", "lands on its first turn");
    s.refused(Order::Deploy { side: side("rome"), counter: "fleet".into(), node: NodeId(24) }, "MG-02", "Rome's fleet starts at Messena");
}

/// MG-12: at most four land counters of a side in a node when play begins.
#[test]
fn mg_12_stacking_at_the_start() {
    let mut g = Game::new("dionysian");
    let table = &g.catalog.elements;
    let cmd = |name: &str, rank| CommandRoster {
        name: name.into(),
        rank,
        general: "Reg Cv(O)".parse().unwrap(),
        elements: vec!["4 Reg Sp(O)".parse().unwrap()],
    };
    let army = Army {
        side: side("carthage"),
        list: "five small commands".into(),
        note: String::new(),
        commands: vec![
            cmd("A", Rank::CInC),
            cmd("B", Rank::SubGeneral),
            cmd("C", Rank::SubGeneral),
            cmd("D", Rank::SubGeneral),
            cmd("E", Rank::SubGeneral),
        ],
    };
    assert!(table.army_points(&army) <= 500);
    g.ok(Order::SetArmy { army });
    for c in ["A", "B", "C", "D", "E"] {
        g.deploy("carthage", c, 1);
    }
    g.deploy("carthage", "fleet", 1);
    for (c, n) in [("Dionysius", 31), ("Leptines", 8), ("Thearides", 22), ("Agyris", 10), ("fleet", 31)] {
        g.deploy("syracuse", c, n);
    }
    g.refused(Order::BeginPlay {}, "MG-12", "Carthage has 5 counters at Lilybaeum");
    g.deploy("carthage", "E", 0);
    g.ok(Order::BeginPlay {});
    assert_eq!(g.campaign.state.phase, Phase::Movement);
    // Moving the fifth back in is allowed mid-phase, but movement cannot end like that.
    g.mv("carthage", "E", &[1]).unwrap();
    g.refused(Order::EndPhase { side: side("carthage") }, "MG-12", "5 Carthage counters stand at Lilybaeum");
}

/// MG-09: player-turns follow the move order, each movement → combat → post-combat.
#[test]
fn mg_09_turn_sequence() {
    let mut g = Game::dionysian();
    let s = &g.campaign.state;
    assert_eq!((s.turn, s.moving_side().as_str(), s.phase), (1, "carthage", Phase::Movement));
    assert!(matches!(g.mv("syracuse", "Agyris", &[14]), Err(e) if e.to_string().contains("it is Carthage's player-turn")));
    for expected in [Phase::Combat, Phase::PostCombat] {
        g.end("carthage", DiceInput::Seeded);
        assert_eq!(g.campaign.state.phase, expected);
    }
    g.refused(
        Order::Move { side: side("carthage"), counter: "Hanno".into(), path: vec![NodeId(7)] },
        "MG-09",
        "it is the post-combat movement phase",
    );
    g.end("carthage", DiceInput::Seeded);
    assert_eq!((g.campaign.state.turn, g.campaign.state.moving_side().as_str()), (1, "syracuse"));
    g.pass("syracuse");
    assert_eq!((g.campaign.state.turn, g.campaign.state.moving_side().as_str()), (2, "carthage"));
    g.refused(Order::BeginPlay {}, "MG-09", "play has begun already");
    g.refused(Order::Deploy { side: side("carthage"), counter: "Hanno".into(), node: NodeId(0) }, "MG-02", "deployed before play begins");
}

/// MG-11: foot commands move one node, mounted-and-psiloi commands two, along paths only;
/// MP spent is remembered through the phase and restored next player-turn.
#[test]
fn mg_11_movement_points() {
    let mut g = Game::dionysian();
    let err = g.mv("carthage", "Himilco", &[7, 11]).unwrap_err().to_string();
    assert!(err.contains("Himilco has 1 MP left this phase and cannot move 2 nodes") && err.ends_with("MG-11"), "{err}");
    let err = g.mv("carthage", "Hanno", &[12]).unwrap_err().to_string();
    assert!(err.contains("no path joins Segesta and Heraclea Minoa"), "{err}");
    let err = g.mv("carthage", "Hanno", &[3]).unwrap_err().to_string();
    assert!(err.contains("Hanno is at Segesta already: each step goes to another node"), "{err}");
    g.mv("carthage", "Hanno", &[7]).unwrap();
    g.mv("carthage", "Hanno", &[11]).unwrap();
    let err = g.mv("carthage", "Hanno", &[13]).unwrap_err().to_string();
    assert!(err.contains("Hanno has 0 MP left"), "{err}");
    assert_eq!(g.at("carthage", "Hanno"), NodeId(11));
    let map = g.map();
    let reach = g.campaign.state.destinations(&map, &side("carthage"), "Mago");
    assert_eq!(reach.keys().copied().collect::<Vec<_>>(), [NodeId(2), NodeId(3), NodeId(7), NodeId(8)]);
    // Hanno ends in neutral Camicus: the alliance roll, typed in as a 1.
    g.end("carthage", DiceInput::Manual(vec![1]));
    g.ends("carthage", 2);
    g.pass("syracuse");
    g.mv("carthage", "Hanno", &[13, 16]).unwrap();
}

/// MG-13: a land counter entering a node with enemy land counters halts there.
#[test]
fn mg_13_halt_on_entering_enemy() {
    let mut g = Game::dionysian();
    // Syracuse's Leptines holds Himera (08); Carthage's mounted Hanno cannot ride through.
    g.mv("carthage", "Hanno", &[4]).unwrap();
    g.pass("carthage");
    g.pass("syracuse");
    let err = g.mv("carthage", "Hanno", &[8, 9]).unwrap_err().to_string();
    assert!(err.contains("Hanno must halt at Himera, where enemy land counters stand") && err.ends_with("MG-13"), "{err}");
    let map = g.map();
    let reach = g.campaign.state.destinations(&map, &side("carthage"), "Hanno");
    assert!(reach.contains_key(&NodeId(8)) && !reach.contains_key(&NodeId(9)) && reach.contains_key(&NodeId(2)));
}

/// MG-16: fleets sail 3 coastal nodes, pass enemy land counters without stopping with them,
/// and halt where the enemy fleet is.
#[test]
fn mg_16_fleets() {
    let mut g = Game::dionysian();
    let err = g.mv("carthage", "fleet", &[3]).unwrap_err().to_string();
    assert!(err.contains("Segesta is inland") && err.ends_with("MG-16"), "{err}");
    // Past Himera (Leptines) to Cephaloedium: 00 → 02 → 04 → 08 → 09 is 4 nodes, too far.
    assert!(g.mv("carthage", "fleet", &[2, 4, 8, 9]).is_err());
    let err = g.mv("carthage", "fleet", &[2, 4, 8]).unwrap_err().to_string();
    assert!(err.contains("may sail past enemy land counters at Himera but not end its move there"), "{err}");
    let map = g.map();
    let reach = g.campaign.state.destinations(&map, &side("carthage"), "fleet");
    assert!(!reach.contains_key(&NodeId(8)) && reach.contains_key(&NodeId(4)));
    assert_eq!(reach.values().map(Vec::len).max(), Some(3));
    g.mv("carthage", "fleet", &[1, 5, 6]).unwrap();
    g.pass("carthage");
    // Syracuse's fleet from Syracuse: the Carthaginian fleet at Selinus is beyond reach; bring
    // it to Acragas and then test the halt against a fleet in its way.
    g.pass("syracuse");
    g.mv("carthage", "fleet", &[12, 13]).unwrap();
    g.pass("carthage");
    g.mv("syracuse", "fleet", &[30, 20, 16]).unwrap();
    g.pass("syracuse");
    let err = g.mv("carthage", "fleet", &[16, 20]).unwrap_err().to_string();
    assert!(err.contains("fleet must halt at Gela, where the enemy fleet lies"), "{err}");
}

/// MG-10 / MG-20: counters ending movement with an enemy's raise a battle, with the
/// attacker's entry path; combat cannot end until the battle has its result.
#[test]
fn mg_10_battle_raised_where_enemies_meet() {
    let mut g = Game::dionysian();
    g.mv("carthage", "Himilco", &[8]).unwrap();
    let events = g.end("carthage", DiceInput::Seeded);
    let battle = events.iter().find_map(matching!(Event::BattleRaised { battle } => battle.clone())).expect("a battle at Himera");
    assert_eq!((battle.node, battle.attacker.as_str()), (NodeId(8), "carthage"));
    assert_eq!(battle.defenders, [side("syracuse")]);
    assert_eq!(battle.entries, [("Himilco".to_owned(), Some(NodeId(4)))]);
    assert_eq!(g.campaign.state.battles.len(), 1);
    // Himera is Syracuse's ally and Leptines is there: no alliance roll for Carthage (MG-06).
    assert!(!events.iter().any(|e| matches!(e, Event::DiceRolled(DiceRolled { .. }))), "{events:?}");
    g.refused(Order::EndPhase { side: side("carthage") }, "MG-20", "battle 1 at Himera awaits its result");
}

/// MG-06, MG-26: a land counter ending movement in a neutral city's node rolls d6; a 6 wins
/// it, and the node with it, where a beaten army may then retire. No roll where the city's
/// ally has a command present.
#[test]
fn mg_06_alliance_rolls() {
    let mut g = Game::dionysian();
    g.mv("carthage", "Hanno", &[7]).unwrap();
    g.mv("carthage", "Hamilcar", &[5]).unwrap();
    // Rolled in node order: Mazara (05), then Entella (07).
    let events = g.end("carthage", DiceInput::Manual(vec![3, 6]));
    let rolls = rolls(&events);
    assert_eq!(rolls, [("alliance of Mazara".to_owned(), 3), ("alliance of Entella".to_owned(), 6)]);
    assert_eq!(g.campaign.state.politics.city_allies.get(&NodeId(7)), Some(&side("carthage")));
    assert_eq!(g.campaign.state.politics.city_allies.get(&NodeId(5)), None);
    assert_eq!(g.campaign.state.control.get(&NodeId(7)), Some(&side("carthage")), "Entella's node is Carthage's now");
    // MG-33: a city won over is worth a victory point.
    assert_eq!(g.campaign.state.victory_points()[&side("carthage")].cities, [NodeId(7)]);
    g.ends("carthage", 2);
    // Syracuse's counters all stand in its capital, its allied cities or open Petra: no rolls.
    let events = g.end("syracuse", DiceInput::Seeded);
    assert!(!events.iter().any(|e| matches!(e, Event::DiceRolled(DiceRolled { .. }))), "{events:?}");
}

/// MG-32: the campaign ends after its last turn.
#[test]
fn mg_32_campaign_ends_after_18_turns() {
    let mut g = Game::dionysian();
    for _ in 0..18 {
        for s in ["carthage", "syracuse"] {
            g.pass(s);
        }
    }
    assert_eq!(g.campaign.state.phase, Phase::Ended);
    g.refused(Order::EndPhase { side: side("carthage") }, "MG-09", "there is no phase to end during campaign over");
}

impl Game {
    fn order(&mut self, command: Order) -> Result<Vec<Event>, ExecError> {
        self.run(&command, DiceInput::Seeded)
    }

    /// Ends `n` phases of `s`, any dice rolled by the program.
    fn ends(&mut self, s: &str, n: usize) {
        for _ in 0..n {
            self.end(s, DiceInput::Seeded);
        }
    }

    /// Ends every phase of `s`'s player-turn.
    fn pass(&mut self, s: &str) {
        self.ends(s, 3);
    }
}

/// MG-14 / MG-17: embarking costs 1 MP to the command and the fleet, needs them in one node
/// and room for every element; the fleet carries it; disembarking is free.
#[test]
fn mg_14_embark_sail_disembark() {
    let mut g = Game::dionysian();
    let embark = |c: &str| Order::Embark { side: side("carthage"), counter: c.into() };
    g.refused(embark("Himilco"), "MG-14", "Himilco is at Panormus and the fleet at Motya");
    g.mv("carthage", "fleet", &[2, 4]).unwrap();
    g.ok(embark("Himilco"));
    assert!(g.campaign.state.counter(&side("carthage"), "Himilco").unwrap().aboard);
    g.refused(embark("Mago"), "MG-14", "embarking costs 1 MP and the fleet has none left");
    g.pass("carthage");
    g.pass("syracuse");
    g.refused(embark("Mago"), "MG-17", "Mago has 20 elements and the fleet's 20 NP carry 0 more");
    // Past Leptines at Himera to Cephaloedium, with Himilco aboard.
    g.mv("carthage", "fleet", &[8, 9]).unwrap();
    assert_eq!(g.at("carthage", "Himilco"), NodeId(9));
    let err = g.mv("carthage", "Himilco", &[10]).unwrap_err().to_string();
    assert!(err.contains("Himilco is aboard the fleet") && err.ends_with("MG-14"), "{err}");
    let events = g.order(Order::Disembark { side: side("carthage"), counter: "Himilco".into() }).unwrap();
    assert!(matches!(&events[0], Event::CounterDisembarked { .. }));
    g.refused(Order::Disembark { side: side("carthage"), counter: "Himilco".into() }, "MG-14", "Himilco is not aboard the fleet");
    // Ashore in Cephaloedium, an unallied city: the alliance roll follows (MG-06).
    let events = g.end("carthage", DiceInput::Manual(vec![2]));
    assert!(events.iter().any(|e| matches!(e, Event::DiceRolled(DiceRolled { roll, .. }) if roll.purpose == "alliance of Cephaloedium")));
}

/// MG-36: Carthage starts at sea in the Second Punic War and lands on its first turn on the
/// southern coast, where no Roman counter stands; its movement does not end with anything
/// still at sea, which would be lost to the campaign.
#[test]
fn mg_36_carthage_lands_on_its_first_turn() {
    let mut g = Game::new("second-punic");
    for (c, n) in [
        ("Marcellus", 28),
        ("Appius Claudius Pulcher", 16),
        ("Titus Quinctius Crispinus", 24),
        ("Publius Cornelius Lentulus", 13),
        ("fleet", 28),
    ] {
        g.deploy("rome", c, n);
    }
    for (c, n) in [("Hippocrates", 31), ("Epicydes", 23), ("Philodemus", 22), ("fleet", 31)] {
        g.deploy("syracuse", c, n);
    }
    g.ok(Order::BeginPlay {});
    let land = |c: &str, n: u8| Order::Land { side: side("carthage"), counter: c.into(), node: NodeId(n) };
    g.refused(land("Himilco", 20), "MG-09", "it is Rome's player-turn");
    g.pass("rome");
    g.pass("syracuse");
    g.refused(land("Himilco", 16), "MG-36", "Gela is occupied by an enemy counter");
    g.refused(land("Himilco", 24), "MG-36", "24 Catana is not on the southern coast");
    g.refused(land("Hasdrubal", 20), "MG-03", "Carthage has no command called Hasdrubal");
    let end = Order::EndPhase { side: side("carthage") };
    g.refused(
        end.clone(),
        "MG-36",
        "Himilco, Hanno, Muttines and the fleet are still at sea and must land this movement phase, Carthage's first",
    );
    for c in ["Himilco", "Hanno", "fleet"] {
        g.ok(land(c, 20));
    }
    g.refused(end, "MG-36", "Muttines is still at sea");
    g.ok(land("Muttines", 30));
    g.refused(land("Himilco", 30), "MG-36", "Himilco has landed already");
    // Landing is the counter's move.
    assert!(g.mv("carthage", "Muttines", &[21]).is_err());
    // Camarina, allied to Rome, meets the landing with its own command (MG-10).
    g.end("carthage", DiceInput::Seeded);
    let battle = &g.campaign.state.battles[0];
    assert_eq!((battle.node, battle.city, battle.defenders.clone()), (NodeId(20), Some(NodeId(20)), vec![side("rome")]));
    g.ok(Order::RecordBattleResult { result: referee_campaign::fixtures::won_outright(1, "carthage") });
    g.ends("carthage", 2);
    assert_eq!(g.campaign.state.turn, 2);
    g.pass("rome");
    g.pass("syracuse");
    g.refused(land("Himilco", 30), "MG-36", "Carthage lands on its first turn only");
    g.refused(Order::Deploy { side: side("carthage"), counter: "Himilco".into(), node: NodeId(20) }, "MG-02", "before play begins");
}

/// MG-14: commands in one node trade elements for 1 MP each; the general stays; a command's
/// MP follows its new make-up (MG-11).
#[test]
fn mg_14_exchange_elements() {
    let mut g = Game::dionysian();
    let exchange = |from: &str, to: &str, what: &[&str]| Order::Exchange {
        side: side("carthage"),
        from: from.into(),
        to: to.into(),
        elements: what.iter().map(|e| e.parse().unwrap()).collect(),
    };
    g.refused(exchange("Mago", "Hamilcar", &["2 Reg Sp(O)"]), "MG-14", "must stand in the same node");
    g.refused(exchange("Mago", "Mago", &["2 Reg Sp(O)"]), "MG-14", "two different commands");
    g.refused(exchange("Mago", "Himilco", &["14 Reg Sp(O)"]), "MG-14", "Mago has 13 Reg Sp(O) and cannot hand over 14");
    g.refused(exchange("Mago", "Himilco", &["1 Reg Cv(O)"]), "MG-14", "its general stays with it");
    g.ok(exchange("Mago", "Himilco", &["2 Reg Sp(O)", "1 Irr Ps(O)"]));
    let army = &g.campaign.state.armies[&side("carthage")];
    let mago: Vec<String> = army.commands.iter().find(|c| c.name == "Mago").unwrap().elements.iter().map(ToString::to_string).collect();
    assert_eq!(mago, ["11 Reg Sp(O)", "2 Reg HCh(O)", "3 Irr Ps(O)"]);
    let himilco = army.commands.iter().find(|c| c.name == "Himilco").unwrap();
    assert!(himilco.elements.iter().any(|e| e.to_string() == "10 Reg Sp(O)"));
    assert!(himilco.elements.iter().any(|e| e.to_string() == "1 Irr Ps(O)"));
    // Both spent their one MP.
    assert!(g.mv("carthage", "Himilco", &[8]).is_err());
    g.refused(exchange("Mago", "Himilco", &["1 Reg Sp(O)"]), "MG-14", "exchanging costs 1 MP and Mago has none left");
    // Hanno's horse (2 MP) take Iberian foot from Hamilcar and become a 1 MP command.
    let hanno = g.campaign.state.counter(&side("carthage"), "Hanno").unwrap().clone();
    assert_eq!(g.campaign.state.movement_points(&hanno), 2);
    g.ok(exchange("Hamilcar", "Hanno", &["6 Irr Ax(S)"]));
    let hanno = g.campaign.state.counter(&side("carthage"), "Hanno").unwrap().clone();
    assert_eq!(g.campaign.state.movement_points(&hanno), 1);
    // Only Carthage learns what changed hands.
    let events = g.store.events_as::<MagnaGraecia>(g.campaign.id).unwrap();
    let map = g.map();
    let syracuse = referee_campaign::magna_graecia::view::side_view(&g.campaign.state, &map, &events, &side("syracuse")).unwrap();
    let text: Vec<&str> = syracuse.log.iter().map(|l| l.text.as_str()).collect();
    assert!(text.contains(&"Carthage: two commands exchange elements"), "{text:?}");
    let json = serde_json::to_string(&syracuse).unwrap();
    assert!(!json.contains("6 Irr Ax(S)") && !json.contains("Hamilcar") && !json.contains("Hanno"), "{json}");
}

/// an order is summed up, for the undo menu and the `commands` table, by the labels on
/// the map and the scenario's sides, not by node numbers and ids; a march says where it
/// goes and the nodes it passes.
#[test]
fn x_03_an_order_is_summed_up_in_the_map_s_names() {
    use referee_campaign::core::engine::Engine;
    let mut g = Game::new("dionysian");
    g.deploy("carthage", "Himilco", 4);
    assert_eq!(g.store.last_summary(g.campaign.id).unwrap().as_deref(), Some("deploy Carthage's Himilco at 04 Panormus"));
    let map = g.map();
    let said = |order: &Order| MagnaGraecia::summary(&g.campaign.state, &map, order, &referee_campaign::Viewer::Umpire);
    let path = |nodes: &[u8]| nodes.iter().map(|&n| NodeId(n)).collect::<Vec<_>>();
    let cases = [
        (Order::Move { side: side("carthage"), counter: "Himilco".into(), path: path(&[8]) }, "move Carthage's Himilco to 08 Himera"),
        (
            Order::Move { side: side("carthage"), counter: "Himilco".into(), path: path(&[8, 9]) },
            "move Carthage's Himilco to 09 Cephaloedium by 08 Himera",
        ),
        (
            Order::Move { side: side("carthage"), counter: "Himilco".into(), path: path(&[8, 9, 27]) },
            "move Carthage's Himilco to 27 Tyndaris by 08 Himera and 09 Cephaloedium",
        ),
        (Order::Retreat { side: side("carthage"), counter: "Himilco".into(), path: vec![] }, "retreat Carthage's Himilco with no route"),
        (Order::EndPhase { side: side("syracuse") }, "end Syracuse's phase"),
        (Order::CombineFleets { side: side("carthage"), with: side("syracuse") }, "combine Syracuse's fleet with Carthage's"),
        (Order::OfferFleet { side: side("syracuse"), to: side("carthage") }, "put Syracuse's fleet under Carthage's command"),
        (Order::ChooseStayOrRetire { side: side("syracuse"), battle: 2, stay: false }, "Syracuse chooses to retire from battle 2"),
        (Order::AdjustControl { node: NodeId(0), side: None, reason: String::new() }, "leave 00 Motya uncontrolled"),
        // A node the map does not have keeps its number; a side the campaign does not have,
        // its id.
        (Order::Sally { side: side("rome"), node: NodeId(99) }, "rome sallies at 99"),
    ];
    for (order, words) in cases {
        assert_eq!(said(&order), words);
    }
}
