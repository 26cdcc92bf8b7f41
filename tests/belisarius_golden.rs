//! BE-02 … BE-23: a scripted turn of each Belisarius scenario, its log as the umpire and
//! each side read it kept as an insta snapshot in
//! tests/snapshots/belisarius_golden__<scenario>.snap. A change of behaviour shows up as a
//! diff there and fails the test.
//!
//! The script: set-up placed where the rules first allow; operations begun with seeded
//! chits and dice; in each segment the side activates its next leader with troops, marches
//! him into the first neighbouring zone the rules accept, and passes. At a contact the side
//! not moving intercepts with its first leader there, the mover with its force at the first
//! marker; each declines after a failure. Battles are fought here, the target breaking off
//! after the first passage, losses shared out as the program suggests, retreats to the first
//! place open. A missing or different snapshot always fails (see tests/golden.rs for how to
//! accept a deliberate change).

use referee_campaign::Store;
use referee_campaign::belisarius::operations::zone_of;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, Phase, PieceKind, State};
use referee_campaign::belisarius::view::{View, view_for};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::fixtures::belisarius::place;
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

/// The next order that needs no choice of the script's: a battle's step, a contact's
/// answer, attrition owed.
fn forced(state: &State) -> Option<Order> {
    let ops = state.ops.as_ref()?;
    if let Some(b) = &ops.naval_battle {
        if b.passages >= 2 {
            let sea = state.setup.map.sea(&b.sea)?;
            return Some(Order::RetireAtSea { side: b.mover.clone(), to: sea.neighbours.first()?.0.clone() });
        }
        return Some(Order::FightAtSea {});
    }
    if let Some(c) = &ops.naval_contact {
        let side = state.setup.sides.iter().map(|s| s.id.clone()).find(|s| s != &c.mover)?;
        let ships: Vec<String> = state
            .pieces_of(&side)
            .filter(|p| matches!(p.kind, PieceKind::Fleet { .. }) && p.at == Location::Sea(c.sea.clone()))
            .filter_map(|p| p.kind.ship_id().map(str::to_owned))
            .collect();
        if ships.is_empty() || ops.left(&side) == 0 {
            return Some(Order::LetPass { side });
        }
        return Some(Order::InterceptAtSea { side, ships });
    }
    if let Some(b) = &ops.battle {
        let target = b.forces.get(1).map(|f| f.side.clone());
        return referee_e2e::battle_order(state, target.as_ref());
    }
    if let Some(due) = &ops.attrition {
        let losses = referee_campaign::belisarius::operations::attrition_share(state, due);
        return Some(Order::TakeLosses { side: due.side.clone(), losses, militia: 0 });
    }
    let contact = ops.contact.as_ref()?;
    let side = contact.turn_of.clone();
    let mover = side == contact.mover.side;
    if contact.failed.contains(&side) || ops.left(&side) == 0 {
        return Some(Order::Decline { side });
    }
    let leader = if mover {
        Some(contact.mover.leader.clone())
    } else {
        state.pieces_of(&side).find_map(|p| match &p.kind {
            PieceKind::Leader { leader, units } if !units.is_empty() && zone_of(state, &p.at).as_ref() == Some(&contact.zone) => {
                Some(leader.clone())
            }
            _ => None,
        })
    };
    Some(match leader {
        Some(l) => Order::Intercept { side, leaders: vec![l], target: mover.then_some(1), reconnaissance: false },
        None => Order::Decline { side },
    })
}

fn play_turn(store: &mut Store, c: &mut Campaign<Belisarius>) {
    referee_e2e::supply_phase(store, c);
    store.execute(c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
    let mut guard = 0;
    while c.state.phase == Phase::Operations {
        guard += 1;
        assert!(guard < 500, "the scripted turn never ends");
        if let Some(order) = forced(&c.state) {
            // A contact's intercept may be refused (once per force a turn): decline then.
            if store.execute(c, &(), &order, DiceInput::Seeded).is_err() {
                let side = c.state.ops.as_ref().and_then(|o| o.contact.as_ref()).map(|k| k.turn_of.clone()).unwrap();
                store.execute(c, &(), &Order::Decline { side }, DiceInput::Seeded).unwrap();
            }
            continue;
        }
        let ops = c.state.ops.clone().unwrap();
        let side: SideId = ops.segment.clone();
        let acting = ops.active.clone().filter(|a| a.side == side);
        match acting {
            // Marched already this segment (or halted): pass.
            Some(a) if ops.moved.contains_key(&a.leader) || ops.halted.contains(&a.leader) => {
                store.execute(c, &(), &Order::Pass { side }, DiceInput::Seeded).unwrap();
            }
            Some(a) => {
                let here = zone_of(&c.state, &a.at).unwrap();
                let neighbours = c.state.setup.map.zone(&here).unwrap().neighbours.clone();
                let moved = neighbours.iter().any(|n| {
                    let order =
                        Order::Move { side: side.clone(), leader: a.leader.clone(), path: vec![n.0.clone()], attrition_from: vec![] };
                    store.execute(c, &(), &order, DiceInput::Seeded).is_ok()
                });
                if !moved {
                    store.execute(c, &(), &Order::Pass { side }, DiceInput::Seeded).unwrap();
                }
            }
            None => {
                let next = c.state.pieces_of(&side).find_map(|p| match &p.kind {
                    PieceKind::Leader { leader, units } if !units.is_empty() && !ops.activated.contains(leader) && !p.at.is_sea() => {
                        Some(leader.clone())
                    }
                    _ => None,
                });
                let order = match next.filter(|_| ops.left(&side) > 0) {
                    Some(leader) => Order::Activate { side: side.clone(), leader, with: vec![] },
                    None => Order::Pass { side: side.clone() },
                };
                if store.execute(c, &(), &order, DiceInput::Seeded).is_err() {
                    store.execute(c, &(), &Order::Pass { side }, DiceInput::Seeded).unwrap();
                }
            }
        }
    }
    store.execute(c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
}

fn scripted_logs(id: &str) -> String {
    let (mut store, mut c) = referee_e2e::staging::created(&World::embedded().setup(id).unwrap(), "Golden", 2_000 + id.len() as u64);
    play_turn(&mut store, &mut c);
    logs(&store, &c, "")
}

/// The campaign's log as the umpire and each side read it, from the first line starting
/// with `from` (the whole log for "").
fn logs(store: &Store, c: &Campaign<Belisarius>, from: &str) -> String {
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let mut out = String::new();
    let mut viewers = vec![("umpire".to_owned(), Viewer::Umpire)];
    viewers.extend(c.state.setup.sides.iter().map(|s| (s.id.to_string(), Viewer::Side(s.id.clone()))));
    for (name, viewer) in viewers {
        out.push_str(&format!("== {name}\n"));
        let view = view_for(&c.state, &events, &viewer).unwrap();
        let log = match &view {
            View::Umpire(v) => &v.log,
            View::Side(v) => &v.log,
        };
        let first = log.iter().position(|l| l.text.starts_with(from)).unwrap_or(0);
        for l in &log[first..] {
            out.push_str(&format!("{:>4}  {}\n", l.seq, l.text));
        }
    }
    out
}

/// BE-33 … BE-37: Italy with the fleets placed face to face — the Byzantines' in the Ionian
/// Sea, the Goths' in the Southern Tyrrhenian — and Bessas given three infantry units; he
/// boards in Syracusae, both Byzantine ships sail into the Goths, who intercept with theirs;
/// the battle is fought two passages and the Byzantines retire, or it ends sooner; Bessas
/// lands on the first coast his ship can reach; then both sides pass to the turn's end.
fn naval_logs() -> String {
    use referee_campaign::belisarius::naval::whereabouts;
    let setup = World::embedded().setup("italy-535").unwrap();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<Belisarius>("Golden", &setup, 2_036).unwrap();
    let byz = SideId::new("byzantines");
    let goths = SideId::new("ostrogoths");
    for (side, at) in [(&byz, "ionium"), (&goths, "tyrrhenum-south")] {
        store.execute(&mut c, &(), &place(side, 1, at), DiceInput::Seeded).unwrap();
    }
    referee_e2e::finish_belisarius_setup(&mut store, &mut c);
    referee_e2e::supply_phase(&mut store, &mut c);
    let typed = DiceInput::ManualWithChits { dice: vec![6, 1], chits: vec!["ap-i".into(), "ap-d".into()] };
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed).unwrap();
    let run = |store: &mut Store, c: &mut Campaign<Belisarius>, order: Order| {
        store.execute(c, &(), &order, DiceInput::Seeded).unwrap_or_else(|e| panic!("{order:?}: {e}"));
    };
    // Three 2*C infantry units of Belisarius go to Bessas (BE-08), who boards.
    let units: Vec<u32> = match &c.state.marker(&byz, "belisarius").unwrap().kind {
        PieceKind::Leader { units, .. } => {
            units.iter().enumerate().filter(|(_, u)| !u.is_cavalry() && u.value == 2).map(|(i, _)| i as u32 + 1).take(3).collect()
        }
        _ => unreachable!(),
    };
    run(&mut store, &mut c, Order::Reorganise { side: byz.clone(), from: "belisarius".into(), to: "bessas".into(), units });
    run(&mut store, &mut c, Order::Activate { side: byz.clone(), leader: "bessas".into(), with: vec![] });
    let ships: Vec<String> = c
        .state
        .pieces_of(&byz)
        .filter(|p| matches!(p.kind, PieceKind::Fleet { .. }))
        .filter_map(|p| p.kind.ship_id().map(str::to_owned))
        .collect();
    run(&mut store, &mut c, Order::Embark { side: byz.clone(), leader: "bessas".into(), ships: ships.clone() });
    run(&mut store, &mut c, Order::Sail { side: byz.clone(), ships, path: vec!["tyrrhenum-south".into()] });
    while let Some(order) = forced(&c.state) {
        run(&mut store, &mut c, order);
    }
    if let Some(p) = c.state.marker(&byz, "bessas").filter(|p| matches!(p.at, Location::Aboard(_))) {
        let Location::Sea(sea) = whereabouts(&c.state, &p.at) else { panic!("Bessas's ship is at sea") };
        let coast = c.state.setup.map.zones.iter().find(|z| z.coast.contains(&sea)).unwrap().id.0.clone();
        run(&mut store, &mut c, Order::Land { side: byz.clone(), leader: "bessas".into(), at: coast });
        while let Some(order) = forced(&c.state) {
            run(&mut store, &mut c, order);
        }
    }
    while c.state.phase == Phase::Operations {
        let side = c.state.ops.as_ref().unwrap().segment.clone();
        run(&mut store, &mut c, Order::Pass { side });
    }
    run(&mut store, &mut c, Order::EndTurn {});
    // The set-up and supply lines are the other snapshots' business: from the operations.
    logs(&store, &c, "Operations:")
}

#[test]
fn be_36_golden_italy_535_at_sea() {
    insta::assert_snapshot!("italy-535-at-sea", naval_logs());
}

fn check(id: &str) {
    insta::assert_snapshot!(id, scripted_logs(id));
}

#[test]
fn be_13_golden_africa_533() {
    check("africa-533");
}

#[test]
fn be_13_golden_italy_535() {
    check("italy-535");
}

#[test]
fn be_13_golden_goths_541() {
    check("goths-541");
}

#[test]
fn be_13_golden_final_551() {
    check("final-551");
}
