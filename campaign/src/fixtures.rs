//! Test campaigns shared by the tests and benchmarks of every crate: the one copy of the
//! Dionysian War's usual deployment and of the Second Punic War's round Syracuse, and, in
//! [`belisarius`], the Belisarius openings and staging. Compiled only with the `fixtures`
//! feature, which the crates enable for their tests and benchmarks (dev-dependencies).

use crate::{NodeId, SideId, magna_graecia::order::Order};

/// Every order type `O` has, as its JSON `type`: serde refuses an unknown tag by listing
/// every variant ("expected one of `a`, `b`, …"), so the list comes from the program. For
/// the tests that must hold a list of orders to every type an engine has.
pub fn order_kinds<O: serde::de::DeserializeOwned + std::fmt::Debug>() -> std::collections::BTreeSet<String> {
    let err = serde_json::from_str::<O>(r#"{"type":"no-such-order"}"#).expect_err("no order is called no-such-order").to_string();
    let (_, list) = err.split_once("expected one of ").unwrap_or_else(|| panic!("serde lists the variants: {err}"));
    // Between backticks are the names; between the names, commas, and after the last,
    // where serde_json says the error was.
    let kinds: std::collections::BTreeSet<String> = list.split('`').skip(1).step_by(2).map(str::to_owned).collect();
    assert!(kinds.len() > 2, "too few order types read from {err:?}: {kinds:?}");
    kinds
}

/// The Dionysian War's usual deployment: Carthage in the west, Syracuse round its allied
/// cities, Leptines holding Himera. Side, counter and node, in the order they are deployed.
pub const DIONYSIAN: [(&str, &str, u8); 10] = [
    ("carthage", "Himilco", 4),
    ("carthage", "Mago", 4),
    ("carthage", "Hamilcar", 3),
    ("carthage", "Hanno", 3),
    ("carthage", "fleet", 0),
    ("syracuse", "Dionysius", 31),
    ("syracuse", "Leptines", 8),
    ("syracuse", "Thearides", 22),
    ("syracuse", "Agyris", 10),
    ("syracuse", "fleet", 31),
];

/// The Dionysian War deployed to besiege Himera: [`DIONYSIAN`] with Hamilcar beside Himilco
/// and Mago at Panormus, from where [`march_on_himera`] takes the three.
pub fn dionysian_for_a_siege(deployment: &[(&'static str, &'static str, u8)]) -> Vec<(&'static str, &'static str, u8)> {
    deployment.iter().map(|&(s, counter, node)| (s, counter, if counter == "Hamilcar" { 4 } else { node })).collect()
}

/// Himilco, Mago and Hamilcar march on Himera from [`dionysian_for_a_siege`] and Carthage
/// ends its movement: 60 elements before Leptines' 20 and the city's own two commands of 15,
/// enough to besiege all 50 within the walls (MG-27).
pub fn march_on_himera() -> Vec<Order> {
    let carthage = SideId::new("carthage");
    let mut orders: Vec<Order> = ["Himilco", "Mago", "Hamilcar"]
        .into_iter()
        .map(|counter| Order::Move { side: carthage.clone(), counter: counter.into(), path: vec![NodeId(8)] })
        .collect();
    orders.push(Order::EndPhase { side: carthage });
    orders
}

/// The Second Punic War as the tests of Syracuse's siege and fleets deploy it: Marcellus
/// and the Roman fleet at node 28, three Roman commands at node 16; Hippocrates, Epicydes and
/// the Syracusan fleet at Syracuse (31), Philodemus at node 22.
pub const SYRACUSE_BESIEGED: [(&str, &str, u8); 9] = [
    ("rome", "Marcellus", 28),
    ("rome", "Appius Claudius Pulcher", 16),
    ("rome", "Titus Quinctius Crispinus", 16),
    ("rome", "Publius Cornelius Lentulus", 16),
    ("rome", "fleet", 28),
    ("syracuse", "Hippocrates", 31),
    ("syracuse", "Epicydes", 31),
    ("syracuse", "Philodemus", 22),
    ("syracuse", "fleet", 31),
];

/// One deploy order for each counter of `deployment`, in order.
pub fn deploy_orders(deployment: &[(&str, &str, u8)]) -> Vec<Order> {
    deployment
        .iter()
        .map(|&(side, counter, node)| Order::Deploy { side: SideId::new(side), counter: counter.into(), node: NodeId(node) })
        .collect()
}

/// The orders of [`DIONYSIAN`], then `begin_play`.
pub fn dionysian_orders() -> Vec<Order> {
    let mut orders = deploy_orders(&DIONYSIAN);
    orders.push(Order::BeginPlay {});
    orders
}

/// The orders of [`DIONYSIAN`] and `begin_play` as the JSON array the command line's `order`
/// takes.
pub fn dionysian_json() -> String {
    let mut lines: Vec<String> = DIONYSIAN
        .iter()
        .map(|(side, counter, node)| format!(r#"    {{"type":"deploy","side":"{side}","counter":"{counter}","node":{node}}}"#))
        .collect();
    lines.push(r#"    {"type":"begin_play"}"#.to_owned());
    format!("[\n{}\n]", lines.join(",\n"))
}

/// The First Punic War up to its battle at Tyndaris: Hanno alone at Tyndaris (27), the rest
/// of Carthage at Lilybaeum, Rome at Messena, Syracuse at home. Appius Claudius Caudex marches
/// to Mylae, whose command (allied to Syracuse) he beats (MG-10), and on Hanno in turn 2; the
/// battle is raised as Rome ends its movement. The orders in turn, to be given with dice the
/// program rolls (seed 5 keeps Mylae with Syracuse).
pub fn appius_marches_on_tyndaris() -> Vec<Order> {
    const DEPLOYMENT: [(&str, &str, u8); 14] = [
        ("carthage", "Hanno", 27),
        ("carthage", "Hannibal", 1),
        ("carthage", "Hamilcar", 1),
        ("carthage", "Zelalsan", 1),
        ("carthage", "fleet", 1),
        ("rome", "Appius Claudius Caudex", 28),
        ("rome", "Gaius Claudius", 28),
        ("rome", "Quintus Caedicius", 28),
        ("rome", "Marcus Calpurnius Flamma", 28),
        ("rome", "fleet", 28),
        ("syracuse", "Hiero", 31),
        ("syracuse", "Leptines", 31),
        ("syracuse", "Artemon", 31),
        ("syracuse", "fleet", 31),
    ];
    let end = |side: &str| Order::EndPhase { side: SideId::new(side) };
    let appius = |n: u8| Order::Move { side: SideId::new("rome"), counter: "Appius Claudius Caudex".into(), path: vec![NodeId(n)] };
    let mut orders = deploy_orders(&DEPLOYMENT);
    orders.push(Order::BeginPlay {});
    orders.extend([end("carthage"), end("carthage"), end("carthage"), appius(29), end("rome")]);
    orders.push(Order::RecordBattleResult { result: won_outright(1, "rome") });
    orders.extend(["rome", "rome", "syracuse", "syracuse", "syracuse", "carthage", "carthage", "carthage"].map(end));
    orders.extend([appius(27), end("rome")]);
    orders
}

/// Battle `battle` won by `winner` with no losses on either side, the field held by nobody.
pub fn won_outright(battle: u32, winner: &str) -> crate::magna_graecia::battle::BattleResult {
    use crate::magna_graecia::battle::{BattleResult, Outcome};
    BattleResult {
        battle,
        outcome: Outcome::Won { winner: SideId::new(winner) },
        held_field: None,
        losses: vec![],
        open_roads: Default::default(),
        city_attacked_by: None,
    }
}

/// A Magna Graecia campaign of `scenario` in memory, seed `seed`, with `orders` given in
/// turn, dice rolled by the program; with its map.
pub fn magna_graecia(
    scenario: &str,
    seed: u64,
    orders: &[Order],
) -> (crate::store::Store, crate::store::Campaign<crate::magna_graecia::MagnaGraecia>, crate::magna_graecia::map::Map) {
    let catalog = crate::magna_graecia::catalog::Catalog::embedded();
    let map = catalog.map("sicily").expect("the built-in map").clone();
    let mut store = crate::store::Store::open_in_memory().expect("a database in memory");
    let scenario = catalog.scenario(scenario).expect("a built-in scenario");
    let mut c = store.create_as::<crate::magna_graecia::MagnaGraecia>("Fixture", scenario, seed).expect("a new campaign");
    for order in orders {
        store.execute(&mut c, &map, order, crate::store::DiceInput::Seeded).unwrap_or_else(|e| panic!("{order:?}: {e}"));
    }
    (store, c, map)
}

/// The benchmarks' `i`th roll: two dice for `side`, every third one secret.
pub fn benchmark_roll(i: u64, side: &str) -> crate::core::log::RollDice {
    crate::core::log::RollDice {
        dice: crate::DiceSpec { count: 2, sides: 6 },
        purpose: format!("benchmark roll {i}"),
        side: Some(SideId::new(side)),
        hidden: i.is_multiple_of(3),
        modifiers: vec![],
    }
}

/// `deployment` with one side's counter placed at `node` instead.
pub fn moved(
    deployment: &[(&'static str, &'static str, u8)],
    side: &str,
    counter: &str,
    node: u8,
) -> Vec<(&'static str, &'static str, u8)> {
    deployment.iter().map(|&(s, c, n)| if s == side && c == counter { (s, c, node) } else { (s, c, n) }).collect()
}

/// Belisarius set-ups shared by the rule tests of this crate and the end-to-end tests: the
/// scenarios' openings, the two sides as orders name them, and staging a situation the way a
/// referee tries one out (the map cleared of markers, leaders put where the test needs them,
/// cities handed over), with the phases a referee plays before the operations.
pub mod belisarius {
    use std::collections::BTreeMap;

    use crate::belisarius::battle::{Step, retreats, roster};
    use crate::belisarius::event::Event;
    use crate::belisarius::fight::{Owed, suggested_share};
    use crate::belisarius::map::{Zone, ZoneId};
    use crate::belisarius::order::Order;
    use crate::belisarius::pieces::{Unit, UnitKind, parse_units};
    use crate::belisarius::reinforce::Due;
    use crate::belisarius::setup::FreePlace;
    use crate::belisarius::state::{Location, Phase, Piece, PieceKind, State};
    use crate::belisarius::tables::Interception;
    use crate::belisarius::view::{SideView, View, view_for};
    use crate::belisarius::{Belisarius, Setup, World};
    use crate::core::engine::Engine;
    use crate::core::log::DiceRolled;
    use crate::core::viewer::Viewer;
    use crate::ids::SideId;
    use crate::store::{Campaign, DiceInput, Store};

    /// The Byzantines, as orders name them.
    pub fn byz() -> SideId {
        SideId::new("byzantines")
    }

    /// The Ostrogoths, as orders name them.
    pub fn goths() -> SideId {
        SideId::new("ostrogoths")
    }

    /// `side` places the whole of its set-up line `line` at `at` (BE-03).
    pub fn place(side: &SideId, line: u32, at: &str) -> Order {
        Order::Place {
            side: side.clone(),
            line,
            at: at.to_owned(),
            leaders: None,
            units: None,
            decoys: None,
            fleets: None,
            fleet_decoys: None,
        }
    }

    /// Clears the map of every marker and puts these leaders (side, id, units, where) instead;
    /// leaderless garrisons stay.
    pub fn stage(c: &mut Campaign<Belisarius>, pieces: &[(SideId, &str, &str, Location)]) {
        c.state.pieces.retain(|p| !p.kind.has_marker());
        for (s, id, units, at) in pieces {
            assert!(c.state.setup.leader(id).is_some(), "{id} is in the scenario");
            let units = units_of(units);
            c.state.pieces.push(Piece { side: s.clone(), at: at.clone(), kind: PieceKind::Leader { leader: (*id).to_owned(), units } });
        }
    }

    /// Units written `4B 3C i:2*D l:2C`: heavy cavalry unless marked infantry (`i:`), light
    /// cavalry (`l:`) or cataphracts (`k:`).
    pub fn units_of(text: &str) -> Vec<Unit> {
        text.split_whitespace()
            .flat_map(|u| {
                let (kind, u) = match u.split_once(':') {
                    Some(("i", u)) => (UnitKind::Infantry, u),
                    Some(("l", u)) => (UnitKind::LightCavalry, u),
                    Some(("k", u)) => (UnitKind::Cataphract, u),
                    _ => (UnitKind::HeavyCavalry, u),
                };
                parse_units(kind, u).unwrap()
            })
            .collect()
    }

    /// The First Reconquest of Italy with Vitiges king, operations begun (16 AP against 9):
    /// the Byzantine `mover` marches from next door into the first plain zone, where the
    /// Gothic `pieces` stand (side, leader, units, in the city), with `decoys` Gothic decoys in
    /// the open, and the Goths hold the city. The contact is open, the Goths to answer.
    pub fn contact_by(mover: &str, pieces: &[(SideId, &str, &str, bool)], decoys: u32) -> (Store, Campaign<Belisarius>, ZoneId) {
        use crate::belisarius::map::Terrain;
        let (mut store, mut c) = italy_under_vitiges("ap-d", [2, 3]);
        let map = c.state.setup.map.clone();
        let target = map.zones.iter().find(|z| z.terrain == Terrain::Plain).unwrap().id.clone();
        let from = map.zone(&target).unwrap().neighbours[0].clone();
        let mut staged = vec![(byz(), mover, "4B 4B 3C", Location::Zone(from.clone()))];
        for (s, id, units, in_city) in pieces {
            let at = if *in_city { city_of(&c, &target) } else { Location::Zone(target.clone()) };
            staged.push((s.clone(), id, units, at));
        }
        stage(&mut c, &staged);
        for n in 0..decoys {
            c.state.pieces.push(Piece {
                side: goths(),
                at: Location::Zone(target.clone()),
                kind: PieceKind::LeaderDecoy { id: format!("decoy-ostrogoths-{}", 90 + n) },
            });
        }
        hold(&mut c, &target, &goths());
        run(&mut store, &mut c, &Order::Activate { side: byz(), leader: mover.into(), with: vec![] }, DiceInput::Seeded);
        run(
            &mut store,
            &mut c,
            &Order::Move { side: byz(), leader: mover.into(), path: vec![target.0.clone()], attrition_from: vec![] },
            DiceInput::Manual(vec![1]),
        );
        assert!(c.state.ops.as_ref().unwrap().contact.is_some());
        (store, c, target)
    }

    /// Hands the city of `zone` to `who`.
    pub fn hold(c: &mut Campaign<Belisarius>, zone: &ZoneId, who: &SideId) {
        let city = c.state.setup.map.zone(zone).unwrap().city.id.clone();
        c.state.cities.get_mut(&city).unwrap().holder = Some(who.clone());
    }

    /// The city of `zone`, as a place.
    pub fn city_of(c: &Campaign<Belisarius>, zone: &ZoneId) -> Location {
        Location::City(c.state.setup.map.zone(zone).unwrap().city.id.clone())
    }

    /// Dice and chits typed in, as from a real table and cup.
    pub fn typed(dice: &[u8], chits: &[&str]) -> DiceInput {
        DiceInput::ManualWithChits { dice: dice.to_vec(), chits: chits.iter().map(|c| (*c).to_owned()).collect() }
    }

    /// Every die `order` would roll now typed in as `value`, exactly as many as it needs (X-02
    /// refuses one too many): found by deciding it once with the seeded dice. For orders whose
    /// number of dice does not hang on the values, such as a supply phase.
    pub fn all_dice(c: &Campaign<Belisarius>, order: &Order, value: u8) -> DiceInput {
        let (seed, pos) = Belisarius::dice(&c.state);
        let mut dice = crate::dice::Dice::seeded(seed, pos);
        let events = Belisarius::decide(&c.state, &(), order, &mut dice).unwrap_or_else(|e| panic!("{order:?}: {e}"));
        let n: usize = events
            .iter()
            .map(|e| match e {
                Event::DiceRolled(DiceRolled { roll, .. }) => usize::from(roll.dice.count),
                _ => 0,
            })
            .sum();
        DiceInput::Manual(vec![value; n])
    }

    /// Gives `order`, which must be accepted, and returns the events it stored.
    pub fn run(store: &mut Store, c: &mut Campaign<Belisarius>, order: &Order, dice: DiceInput) -> Vec<Event> {
        let before = store.events_as::<Belisarius>(c.id).unwrap().len();
        store.execute(c, &(), order, dice).unwrap_or_else(|e| panic!("{order:?}: {e}"));
        store.events_as::<Belisarius>(c.id).unwrap()[before..].iter().map(|l| l.event.clone()).collect()
    }

    /// `side`'s `leader` tries to intercept the force in contact, naming no target and with
    /// no reconnaissance, the die typed in as `die` (BE-13, BE-14); the events it stored.
    pub fn intercept(store: &mut Store, c: &mut Campaign<Belisarius>, side: &SideId, leader: &str, die: u8) -> Vec<Event> {
        let order = Order::Intercept { side: side.clone(), leaders: vec![leader.to_owned()], target: None, reconnaissance: false };
        run(store, c, &order, DiceInput::Manual(vec![die]))
    }

    /// Gives `order`, which must be refused with `words` in the message, storing and changing
    /// nothing.
    pub fn refused(store: &mut Store, c: &mut Campaign<Belisarius>, order: &Order, words: &str) {
        let before = store.events_as::<Belisarius>(c.id).unwrap().len();
        let state = c.state.clone();
        let err = store.execute(c, &(), order, DiceInput::Seeded).unwrap_err().to_string();
        assert!(err.contains(words), "expected `{words}`, got: {err}");
        assert_eq!(store.events_as::<Belisarius>(c.id).unwrap().len(), before, "a refusal stores nothing");
        assert_eq!(c.state, state, "a refusal changes nothing");
    }

    /// The action points `who` has left.
    pub fn left(c: &Campaign<Belisarius>, who: &SideId) -> u32 {
        c.state.ops.as_ref().unwrap().ap[who].left
    }

    /// A campaign named `name` of `setup` with seed `seed`, in a store of its own, set up
    /// where the rules first allow; nothing played yet.
    pub fn created(setup: &Setup, name: &str, seed: u64) -> (Store, Campaign<Belisarius>) {
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<Belisarius>(name, setup, seed).unwrap();
        finish_belisarius_setup(&mut store, &mut c);
        (store, c)
    }

    /// Scenario `id`, named for itself, [`created`] with seed `seed`.
    pub fn set_up(id: &str, seed: u64) -> (Store, Campaign<Belisarius>) {
        created(&World::embedded().setup(id).unwrap(), id, seed)
    }

    /// The Reconquest of Africa [`created`] (seed 533), nothing played yet.
    pub fn africa() -> (Store, Campaign<Belisarius>) {
        created(&World::embedded().setup("africa-533").unwrap(), "Africa", 533)
    }

    /// A zone with a walled city (fortification 1 to 3, so works have room), a port if `port`,
    /// with nobody inside, and a neighbouring zone.
    pub fn siege_ground(c: &Campaign<Belisarius>, port: bool) -> (ZoneId, ZoneId, crate::belisarius::map::CityId) {
        let map = &c.state.setup.map;
        let z = map
            .zones
            .iter()
            .find(|z| {
                (1..=3).contains(&z.city.fortification)
                    && z.city.port == port
                    && z.city.militia > 0
                    && !c.state.pieces.iter().any(|p| crate::belisarius::operations::zone_of(&c.state, &p.at).as_ref() == Some(&z.id))
            })
            .expect("an empty walled city");
        (z.id.clone(), z.neighbours[0].clone(), z.city.id.clone())
    }

    /// From the Reconquest of Africa in operations, the Byzantines' segment with nothing done
    /// yet: Ildiger takes Belisarius's first unit, and the two march into Upper Proconsularis (attrition die 1) and lay
    /// siege to Sicca Veneria, and the Byzantines pass; Ammatas marches out of Carthage onto
    /// the lines. Ildiger (4 against Ammatas's 3) and Ammatas (against Belisarius's 8) try to
    /// intercept and fail on 1s, the Byzantines making no more attempts: the Vandals are to
    /// intercept again, decline, or attack the lines (BE-29).
    pub fn march_on_the_lines_at_sicca(store: &mut Store, c: &mut Campaign<Belisarius>) {
        let vandals = SideId::new("vandals");
        let march = |side: SideId, leader: &str| Order::Move {
            side,
            leader: leader.into(),
            path: vec!["proconsularis".into()],
            attrition_from: vec![],
        };
        let intercept = |side: SideId, leader: &str, target: Option<u32>| Order::Intercept {
            side,
            leaders: vec![leader.into()],
            target,
            reconnaissance: false,
        };
        for (order, die) in [
            (Order::Reorganise { side: byz(), from: "belisarius".into(), to: "ildiger".into(), units: vec![1] }, None),
            (Order::Activate { side: byz(), leader: "belisarius".into(), with: vec!["ildiger".into()] }, None),
            (march(byz(), "belisarius"), Some(1)),
            (Order::Besiege { side: byz(), leader: "belisarius".into() }, None),
            (Order::Pass { side: byz() }, None),
            (Order::Activate { side: vandals.clone(), leader: "ammatas".into(), with: vec![] }, None),
            (march(vandals.clone(), "ammatas"), Some(1)),
            (intercept(byz(), "ildiger", None), Some(1)),
            (Order::Decline { side: byz() }, None),
            (intercept(vandals, "ammatas", Some(1)), Some(1)),
        ] {
            let dice = die.map_or(DiceInput::Seeded, |d| DiceInput::Manual(vec![d]));
            store.execute(c, &(), &order, dice).unwrap_or_else(|e| panic!("{order:?}: {e}"));
        }
    }

    /// The First Reconquest of Italy with Vitiges already king, as in the seed's example,
    /// [`created`] (seed 535), nothing played yet.
    pub fn italy_with_vitiges() -> (Store, Campaign<Belisarius>) {
        let mut setup = World::embedded().setup("italy-535").unwrap();
        setup.sides.iter_mut().find(|s| s.id == goths()).unwrap().cinc = Some("vitiges".to_owned());
        created(&setup, "Italy", 535)
    }

    /// [`italy_with_vitiges`], its events phase giving no event, its supply played, and its
    /// operations begun with the Byzantines drawing ap-i (16 AP), the Goths `goth_chit`, and
    /// the initiative dice typed in as `initiative`.
    pub fn italy_under_vitiges(goth_chit: &str, initiative: [u8; 2]) -> (Store, Campaign<Belisarius>) {
        let (mut store, mut c) = italy_with_vitiges();
        // Summer 535's event roll typed as 12: event H, which Italy does not allow (BE-47).
        store.execute(&mut c, &(), &Order::PlayEvents {}, DiceInput::Manual(vec![6, 6])).unwrap();
        supply_phase(&mut store, &mut c);
        store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&initiative, &["ap-i", goth_chit])).unwrap();
        (store, c)
    }

    /// Everything `who` reads of the campaign now, as pretty JSON: what two runs compare to
    /// show that nothing leaks.
    pub fn view_json(c: &Campaign<Belisarius>, store: &Store, who: &SideId) -> String {
        let events = store.events_as::<Belisarius>(c.id).unwrap();
        serde_json::to_string_pretty(&view_for(&c.state, &events, &Viewer::Side(who.clone())).unwrap()).unwrap()
    }

    /// What `who` reads of the campaign now.
    pub fn side_view(c: &Campaign<Belisarius>, store: &Store, who: &SideId) -> SideView {
        let events = store.events_as::<Belisarius>(c.id).unwrap();
        match view_for(&c.state, &events, &Viewer::Side(who.clone())).unwrap() {
            View::Side(v) => v,
            View::Umpire(_) => unreachable!("a side's view"),
        }
    }

    /// The lines of `who`'s log.
    pub fn log_of(c: &Campaign<Belisarius>, store: &Store, who: &SideId) -> Vec<String> {
        side_view(c, store, who).log.into_iter().map(|l| l.text).collect()
    }

    /// The die that gives `want` on the interception table (BE-14) for this strategic
    /// difference, one off the die in the mountains.
    pub fn interception_die(c: &Campaign<Belisarius>, difference: i32, mountains: bool, want: Interception) -> u8 {
        (1..=6u8)
            .find(|d| c.state.setup.tables.interception(difference, (i32::from(*d) - i32::from(mountains)).max(1), 0) == want)
            .expect("a die for that result")
    }

    /// Two leaders of `side` in one place, the first with at least `units` units; and how many
    /// units each of the side's leaders has.
    pub fn leaders_together(c: &Campaign<Belisarius>, side: &SideId, units: usize) -> (String, String, BTreeMap<String, usize>) {
        let boxes: Vec<(String, Location, usize)> = c
            .state
            .pieces_of(side)
            .filter_map(|p| match &p.kind {
                PieceKind::Leader { leader, units } => Some((leader.clone(), p.at.clone(), units.len())),
                _ => None,
            })
            .collect();
        let (from, to) = boxes
            .iter()
            .filter(|(_, _, n)| *n >= units)
            .find_map(|(a, at, _)| boxes.iter().find(|(b, bt, _)| b != a && bt == at).map(|(b, _, _)| (a.clone(), b.clone())))
            .unwrap_or_else(|| panic!("two leaders of {side} together, one with units"));
        (from, to, boxes.into_iter().map(|(l, _, n)| (l, n)).collect())
    }

    /// A zone next to `zone` where `side` has no enemy marker: where it may retreat.
    pub fn free_neighbour(c: &Campaign<Belisarius>, zone: &ZoneId, side: &SideId) -> String {
        c.state
            .setup
            .map
            .zone(zone)
            .unwrap()
            .neighbours
            .iter()
            .find(|n| !crate::belisarius::interception::enemy_in(&c.state, side, n))
            .unwrap()
            .0
            .clone()
    }

    /// Scenario `id` set up where the rules first allow (seed `seed`) and brought to the start of
    /// turn `turn`, nothing played in it yet.
    pub fn at_turn(id: &str, turn: u32, seed: u64) -> (Store, Campaign<Belisarius>) {
        let (store, mut c) = set_up(id, seed);
        c.state.turn = turn;
        (store, c)
    }

    /// Ends a Belisarius campaign's set-up as a player might: a unit of the first free land line
    /// into each city the side must hold, then every line's rest where the rules first allow it;
    /// then play begins.
    pub fn finish_belisarius_setup(store: &mut Store, c: &mut Campaign<Belisarius>) {
        // A unit of the first free land line into each city the side must hold, as a player
        // would split his forces; then every line's rest where the rules first allow. Both runs
        // place alike.
        for side in &c.state.setup.sides.clone() {
            for city in &side.must_hold {
                let order = Order::Place {
                    side: side.id.clone(),
                    line: 1,
                    at: city.to_string(),
                    leaders: None,
                    units: Some(vec![1]),
                    decoys: None,
                    fleets: None,
                    fleet_decoys: None,
                };
                store.execute(c, &(), &order, DiceInput::Seeded).unwrap();
            }
        }
        loop {
            let due: Vec<(SideId, usize)> = c.state.lines_due.iter().filter_map(|(s, d)| d.first().map(|_| (s.clone(), 0))).collect();
            let Some((side, index)) = due.into_iter().next() else { break };
            let line = &c.state.lines_due[&side][index].rest;
            let at = c.state.setup.free_places(&side, line).into_iter().next().expect("a free line has somewhere to go");
            store.execute(c, &(), &place(&side, 1, &at.to_string()), DiceInput::Seeded).unwrap();
        }
        store.execute(c, &(), &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
    }

    /// The next order of a Belisarius battle under way, as its players would give it: each side
    /// takes the losses the program suggests; after a passage `breaker` breaks off (`None`: the
    /// sides fight on); the beaten side retreats to the first place open to it. `None` when no
    /// battle is being fought.
    pub fn battle_order(state: &State, breaker: Option<&SideId>) -> Option<Order> {
        let b = state.ops.as_ref()?.battle.clone()?;
        let share = |side: &SideId, owed: &Owed| {
            let units = roster(state, b.force(side)?);
            let f: Vec<_> = units.iter().map(|u| u.fighter).collect();
            let losses = suggested_share(&f, owed).into_iter().map(|(i, p)| (u32::try_from(i + 1).unwrap_or(u32::MAX), p)).collect();
            Some(Order::TakeLosses { side: side.clone(), losses, militia: 0 })
        };
        match &b.step {
            Step::Roll => Some(Order::Fight {}),
            Step::Decide => Some(match breaker {
                Some(s) => Order::BreakOff { side: s.clone() },
                None => Order::Fight {},
            }),
            Step::Losses { owed, taken } => {
                let (s, o) = owed.iter().find(|(s, o)| o.points > 0 && !taken.contains(*s))?;
                share(s, o)
            }
            Step::Pursuit { side, owed } => share(side, owed),
            Step::Retreat { side } => {
                let (to, _) = retreats(state, &b, side).into_iter().find(|(_, ok)| ok.is_ok())?;
                Some(Order::Retreat { side: side.clone(), to: to.id().to_owned() })
            }
        }
    }

    /// Plays the events phase of a Belisarius turn if it has one (BE-47), seeded, each leader
    /// coming back placed as [`settle_reinforcements`] places reinforcements.
    pub fn events_phase(store: &mut Store, c: &mut Campaign<Belisarius>) {
        if crate::belisarius::random_events::pending(&c.state) {
            store.execute(c, &(), &Order::PlayEvents {}, DiceInput::Seeded).unwrap();
            settle_reinforcements(store, c);
        }
    }

    /// Plays the events phase (if any) and the supply phase of a Belisarius turn (BE-41, BE-47)
    /// with seeded dice, each side sharing out what it owes as the program suggests: what a
    /// referee does before the operations.
    pub fn supply_phase(store: &mut Store, c: &mut Campaign<Belisarius>) {
        events_phase(store, c);
        store.execute(c, &(), &Order::CheckSupply {}, DiceInput::Seeded).unwrap();
        while let Some(due) = c.state.supply_dues.first() {
            let side = due.force.side.clone();
            let (losses, militia) = crate::belisarius::supply::suggested_share(&c.state, &side).unwrap();
            store.execute(c, &(), &Order::TakeLosses { side, losses, militia }, DiceInput::Seeded).unwrap();
        }
        reinforcement_phase(store, c);
    }

    /// Plays one quiet Belisarius turn with seeded dice: its events, supply and reinforcements as
    /// [`supply_phase`] plays them, operations in which both sides only pass, and the turn's end.
    pub fn quiet_turn(store: &mut Store, c: &mut Campaign<Belisarius>) {
        supply_phase(store, c);
        store.execute(c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
        while c.state.phase == Phase::Operations {
            let side = c.state.ops.as_ref().unwrap().segment.clone();
            store.execute(c, &(), &Order::Pass { side }, DiceInput::Seeded).unwrap();
        }
        store.execute(c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
    }

    /// Plays a spring's reinforcement phase if one is due (BE-45): the Goths buy infantry (1C) at
    /// the first zone they control, as long as their points last; scheduled reinforcements go to
    /// the first zone their side controls in the regions allowed.
    pub fn reinforcement_phase(store: &mut Store, c: &mut Campaign<Belisarius>) {
        if !crate::belisarius::reinforce::pending(&c.state) {
            return;
        }
        store.execute(c, &(), &Order::BringReinforcements {}, DiceInput::Seeded).unwrap();
        settle_reinforcements(store, c);
    }

    /// Buys and places what the reinforcement phase left due, as [`reinforcement_phase`] does.
    pub fn settle_reinforcements(store: &mut Store, c: &mut Campaign<Belisarius>) {
        while let Some(due) = c.state.reinforcements_due.first().cloned() {
            let side = due.side().clone();
            let regions = match &due {
                Due::Line { line, .. } => match &line.place_rule {
                    FreePlace::OwnLandIn { regions } => regions.clone(),
                    _ => Vec::new(),
                },
                Due::Purchase { .. } => Vec::new(),
            };
            // A line with ships goes to a port the side holds.
            let ships = matches!(&due, Due::Line { line, .. } if !line.fleets.is_empty() || line.fleet_decoys > 0);
            let ours = |z: &&Zone| {
                c.state.control.get(&z.id) == Some(&side)
                    && !c.state.scorched.contains(&z.id)
                    && (!ships || (z.city.port && c.state.cities[&z.city.id].holder.as_ref() == Some(&side)))
            };
            let zones = &c.state.setup.map.zones;
            let zone = zones
                .iter()
                .filter(ours)
                .find(|z| regions.is_empty() || regions.contains(&z.region))
                .or_else(|| zones.iter().find(ours))
                .map(|z| z.id.to_string());
            let order = match (&due, zone) {
                (Due::Purchase { half_points, .. }, Some(at)) => {
                    Order::Raise { side, at, units: vec!["1C".to_owned(); usize::try_from(*half_points / 2).unwrap()] }
                }
                (Due::Purchase { .. }, None) => Order::Raise { side, at: String::new(), units: Vec::new() },
                (Due::Line { .. }, Some(at)) => Order::PlaceReinforcements { side, at },
                (Due::Line { .. }, None) => panic!("{side} control no zone to receive their reinforcements"),
            };
            store.execute(c, &(), &order, DiceInput::Seeded).unwrap();
            // Whatever is left over after whole 1C units is given up.
            if let Some(Due::Purchase { side, .. }) = c.state.reinforcements_due.first().cloned() {
                store.execute(c, &(), &Order::Raise { side, at: String::new(), units: Vec::new() }, DiceInput::Seeded).unwrap();
            }
        }
    }
}
