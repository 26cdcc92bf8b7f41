//! BE-53, X-01: the differential no-leak test over a Belisarius side's outputs.
//!
//! For each scenario and each side, a campaign is started and its free set-up lines placed,
//! twice: once as the scenario has it, once with everything the side may not know changed —
//! the other side's leaders swapped for decoys and its decoys for leaders of other names and
//! ratings, its units of other values and grades, its fleets of other strength, its
//! stratagems in hand, the cup's stratagems, the referee's notes and secret rolls, and the
//! dice seed. What the side reads — `show --as` and `log --as` and `roster --as`, as text and
//! as JSON, its turn report and its export — must be the same both times.

use referee_campaign::Store;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::{Belisarius, Setup, World};
use referee_campaign::dice::DiceSpec;
use referee_campaign::ids::SideId;
use referee_campaign::store::DiceInput;
use referee_e2e::{TempDb, cli};

/// Plays a campaign's set-up from `setup` for a reader `viewer`: notes and rolls, then every
/// free line placed at the first place the side is allowed. The viewer's own roll is typed
/// in with the same value both times; everyone else's is seeded and named after `secret`.
fn start(db: &TempDb, name: &str, setup: &Setup, seed: u64, secret: &str, viewer: &SideId) {
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.create_as::<Belisarius>(name, setup, seed).unwrap();
    let orders = vec![
        Order::AddNote { text: format!("the referee's thought: {secret}") },
        Order::RollDice {
            dice: DiceSpec { count: 2, sides: 6 },
            purpose: format!("secret {secret}"),
            side: None,
            hidden: true,
            modifiers: vec![],
        },
    ];
    store.execute_all(&mut c, &(), &orders).unwrap();
    for side in &setup.sides {
        let own = &side.id == viewer;
        let order = Order::RollDice {
            dice: DiceSpec::D6,
            purpose: if own { "scouting".to_owned() } else { format!("{}'s own secret {secret}", side.id) },
            side: Some(side.id.clone()),
            hidden: true,
            modifiers: vec![],
        };
        let dice = if own { DiceInput::Manual(vec![4]) } else { DiceInput::Seeded };
        store.execute(&mut c, &(), &order, dice).unwrap();
    }
    referee_e2e::finish_belisarius_setup(&mut store, &mut c);
}

/// The setup with everything `viewer` may not know changed.
fn disguise(setup: &Setup, viewer: &SideId) -> Setup {
    let mut out = setup.clone();
    let own: Vec<String> =
        setup.sides.iter().filter(|s| &s.id == viewer).flat_map(|s| s.lines.iter().flat_map(|l| l.leaders.clone())).collect();
    // Every leader the other side could have, and the viewer does not.
    let pool: Vec<String> = setup.leaders.iter().map(|l| l.id.clone()).filter(|id| !own.contains(id)).collect();
    for side in out.sides.iter_mut().filter(|s| &s.id != viewer) {
        side.hand = vec!["reconnaissance".into(), "treachery".into(), "treachery".into()];
        for line in &mut side.lines {
            for u in &mut line.units {
                u.value = if u.value > 1 { u.value - 1 } else { u.value + 2 };
                u.missile = !u.missile;
            }
            if let Some(first) = line.units.first().cloned() {
                line.units.push(first);
            }
            // Leaders become decoys and decoys leaders: the markers are as many.
            let (leaders, decoys) = (line.leaders.len() as u32, line.decoys);
            line.leaders = pool.iter().rev().cycle().take(decoys as usize).cloned().collect();
            line.decoys = leaders;
            let fleets = line.fleets.len() as u32;
            line.fleets = vec![9; line.fleet_decoys as usize];
            line.fleet_decoys = fleets;
        }
    }
    out.cup.retain(|c| !setup.tables.is_stratagem(c));
    out.cup.extend(["treachery".to_owned(), "reconnaissance".to_owned()]);
    out
}

/// Begins the operations phase with the chits typed in: `viewer` draws `ap-e`, the other
/// side `theirs`; the initiative dice are the same both times. The side that plays first
/// activates its first leader on the map, if it has one, and passes.
fn operations(db: &TempDb, name: &str, viewer: &SideId, theirs: &str) {
    use referee_campaign::belisarius::state::PieceKind;
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.load_as::<Belisarius>(store.find(name).unwrap()).unwrap();
    // The Byzantines draw first (BE-04).
    let mut chits = vec![("byzantines", ""), ("other", "")];
    for (who, chit) in &mut chits {
        *chit = if (*who == "byzantines") == (viewer.as_str() == "byzantines") { "ap-e" } else { theirs };
    }
    let input = DiceInput::ManualWithChits { dice: vec![6, 1], chits: chits.iter().map(|(_, c)| (*c).to_owned()).collect() };
    // The supply dice typed in, all 1s: nobody loses anything, and each side's own rolls
    // read the same in both campaigns.
    // Africa's one event roll typed as 3 and 4: event N, which it does not allow (BE-47).
    if referee_campaign::belisarius::random_events::pending(&c.state) {
        store.execute(&mut c, &(), &Order::Events {}, DiceInput::Manual(vec![3, 4])).unwrap();
    }
    store.execute(&mut c, &(), &Order::Supply {}, DiceInput::Manual(vec![1; 60])).unwrap();
    assert!(c.state.supply_dues.is_empty());
    // A spring's reinforcements: the dice typed in, the purchases as the helper makes them.
    if referee_campaign::belisarius::reinforce::pending(&c.state) {
        store.execute(&mut c, &(), &Order::Reinforcements {}, DiceInput::Manual(vec![3, 3])).unwrap();
        referee_e2e::settle_reinforcements(&mut store, &mut c);
    }
    store.execute(&mut c, &(), &Order::BeginOperations {}, input).unwrap();
    let first = c.state.ops.as_ref().unwrap().first.clone();
    let leader = c.state.pieces_of(&first).find_map(|p| match &p.kind {
        PieceKind::Leader { leader, .. } => Some(leader.clone()),
        _ => None,
    });
    if let Some(leader) = leader.filter(|_| &first == viewer) {
        store.execute(&mut c, &(), &Order::Activate { side: first.clone(), leader, with: vec![] }, DiceInput::Seeded).unwrap();
    }
    store.execute(&mut c, &(), &Order::Pass { side: first }, DiceInput::Seeded).unwrap();
}

fn outputs(db: &TempDb, name: &str, side: &SideId) -> Vec<String> {
    let mut out = Vec::new();
    for command in ["show", "log", "roster"] {
        out.push(cli(&db.path, &[command, name, "--as", side.as_str()]).ok());
        out.push(cli(&db.path, &["--json", command, name, "--as", side.as_str()]).ok());
    }
    // The turn report and the export. The commitment to the seed is the one thing in
    // them that changes with the seed, by design (a salted SHA-256): masked.
    let store = Store::open(&db.path).unwrap();
    let digest = store.commitment(store.find(name).unwrap()).unwrap().unwrap().digest;
    drop(store);
    let dir = tempfile::tempdir().unwrap();
    cli(&db.path, &["report", name, "--as", side.as_str(), "--out", dir.path().to_str().unwrap()]).ok();
    let report = std::fs::read_dir(dir.path()).unwrap().next().unwrap().unwrap().path();
    let text = referee_battle_gen::pdf::extract_text(&std::fs::read(&report).unwrap()).unwrap().join("\n");
    assert!(text.contains(&digest), "the report prints the commitment");
    out.push(text.replace(&digest, "<commitment>"));
    out.push(cli(&db.path, &["export", name, "--as", side.as_str()]).ok().replace(&digest, "<commitment>"));
    out
}

#[test]
fn be_53_a_side_reads_nothing_of_the_other_sides_pieces() {
    let world = World::embedded();
    for scenario in &world.scenarios {
        let setup = world.setup(&scenario.id).unwrap();
        for side in &setup.sides {
            let played = TempDb::new();
            start(&played, "Campaign", &setup, 11, "alpha", &side.id);
            let disguised = TempDb::new();
            start(&disguised, "Campaign", &disguise(&setup, &side.id), 977, "omega", &side.id);
            let a = outputs(&played, "Campaign", &side.id);
            let b = outputs(&disguised, "Campaign", &side.id);
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x, y, "{}: {} reads something of what it may not know", scenario.id, side.id);
            }
            // Operations begun: the other side's chit, and so its action points, differ.
            operations(&played, "Campaign", &side.id, "ap-j");
            operations(&disguised, "Campaign", &side.id, "ap-a");
            let a = outputs(&played, "Campaign", &side.id);
            let b = outputs(&disguised, "Campaign", &side.id);
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x, y, "{}: {} reads something of the other side's operations", scenario.id, side.id);
            }
            assert!(a.iter().all(|o| !o.contains("alpha")), "{}: the referee's secrets reach {}", scenario.id, side.id);
        }
    }
}
