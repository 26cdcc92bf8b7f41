//! Random legal play of every Belisarius scenario through several turns of operations: a
//! random referee begins the operations, activates leaders, marches them where the rules
//! allow, shares out attrition, passes and ends the turns. After every order the invariants
//! hold (BE-04, BE-06, BE-10, BE-12, BE-53): no side overspends its action points, no unit
//! is worth nothing, strength only falls, each side's view names none of the other side's
//! leaders, and the events replay to the very campaign played. A refused order stores
//! nothing.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use referee_campaign::Store;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::siege;
use referee_campaign::belisarius::state::{Location, Phase, PieceKind, State};
use referee_campaign::belisarius::view::{View, view_for};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::engine::Engine;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::store::{Campaign, DiceInput};

fn strength(state: &State) -> u32 {
    state.pieces.iter().flat_map(|p| p.kind.units()).map(|u| u32::from(u.value)).sum()
}

fn check(store: &Store, c: &Campaign<Belisarius>, before: u32, id: &str) {
    let s = &c.state;
    if let Some(ops) = &s.ops {
        for (side, ap) in &ops.ap {
            assert!(ap.left <= ap.total, "{id}: {side} overspent");
        }
        for moved in ops.moved.values() {
            assert!(*moved <= 6, "{id}: a force moved {moved} zones");
        }
    }
    // Units destroyed in the battle under way keep their place, at 0, until it ends.
    let fighting: Vec<&String> =
        s.ops.iter().flat_map(|o| o.battle.iter()).flat_map(|b| b.forces.iter()).flat_map(|f| f.leaders.iter()).collect();
    let outside = s.pieces.iter().filter(|p| !matches!(&p.kind, PieceKind::Leader { leader, .. } if fighting.contains(&leader)));
    assert!(outside.flat_map(|p| p.kind.units()).all(|u| u.value > 0), "{id}: a unit worth nothing");
    assert!(strength(s) <= before, "{id}: strength grew");
    // Militia never above its rating, defence never above 5, a siege's marker below 4 (BE-25,
    // BE-26, BE-32).
    for (city, hold) in &s.cities {
        assert!(hold.militia <= siege::full_militia(s, city), "{id}: {city}'s militia above its rating");
        assert!(siege::defence(s, city) <= 5, "{id}: {city}'s defence above 5");
    }
    for (city, siege) in &s.sieges {
        assert!((1..4).contains(&siege.duration), "{id}: the siege of {city} stands at {}", siege.duration);
        assert_ne!(s.cities[city].holder.as_ref(), Some(&siege.besieger), "{id}: {city} besieged by its holder");
    }
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    for side in &s.setup.sides {
        let Some(View::Side(view)) = view_for(s, &events, &Viewer::Side(side.id.clone())) else { panic!("{id}: no view") };
        let text = serde_json::to_string(&view).unwrap();
        let in_battle: Vec<&String> =
            s.ops.iter().flat_map(|o| o.battle.iter()).flat_map(|b| b.forces.iter()).flat_map(|f| f.leaders.iter()).collect();
        for p in s.pieces.iter().filter(|p| p.side != side.id) {
            if let PieceKind::Leader { leader, .. } = &p.kind
                && !in_battle.contains(&leader)
            {
                assert!(!text.contains(&format!("\"{leader}\"")), "{id}: {}'s view names the enemy leader {leader}", side.id);
            }
        }
    }
}

/// The next order of the side whose segment it is: its attrition losses if it owes any;
/// else, while `act`, a march of the acting force, an activation or a pass at random; else a
/// pass.
fn next_order(state: &State, rng: &mut ChaCha8Rng, act: bool) -> Order {
    let ops = state.ops.clone().unwrap();
    // A battle is fought out, a side breaking off now and then (BE-17, BE-22).
    if let Some(b) = &ops.battle {
        let breaker = b.forces.iter().map(|f| f.side.clone()).nth(rng.random_range(0..3));
        if let Some(order) = referee_e2e::battle_order(state, breaker.as_ref()) {
            return order;
        }
    }
    // An assault's losses are shared out as the program suggests (BE-27).
    if let Some(due) = &ops.assault {
        let side = due.owed.keys().next().unwrap().clone();
        let (losses, militia) = siege::suggested_share(state, &side).unwrap();
        return Order::TakeLosses { side, losses, militia };
    }
    // A sortie is answered as the program suggests, and its losses shared out (BE-28).
    if let Some(due) = &ops.sortie {
        if due.answer.is_empty() {
            let side = state.setup.sides.iter().map(|s| s.id.clone()).find(|s| s != &due.side).unwrap();
            let (mine, need) = siege::answering(state, due, &side);
            return Order::AnswerSortie { side, units: siege::suggest(&mine, need, 0).0 };
        }
        let side = due.owed.keys().next().unwrap().clone();
        return Order::TakeLosses { losses: siege::suggested_sortie_share(state, &side).unwrap(), side, militia: 0 };
    }
    // A relief attacks the lines now and then; the besieger commits its first leader (BE-29).
    if let Some(contact) = ops.contact.as_ref().filter(|c| siege::siege_in(state, &c.zone).is_some_and(|(_, s)| s.besieger != c.mover.side))
    {
        let (_, s) = siege::siege_in(state, &contact.zone).unwrap();
        if contact.relief {
            let first = siege::besieging_leaders(state, s)
                .into_iter()
                .find(|l| state.marker(&s.besieger, l).is_some_and(|p| !p.kind.units().is_empty()));
            return Order::HoldLines { side: s.besieger.clone(), fight: first.into_iter().collect() };
        }
        if contact.turn_of == contact.mover.side && rng.random_bool(0.5) {
            return Order::Relieve { side: contact.mover.side.clone() };
        }
    }
    // At a contact the side whose turn it is intercepts now and then, or declines (BE-13).
    if let Some(contact) = &ops.contact {
        let side = contact.turn_of.clone();
        if let Some(due) = ops.attrition.clone() {
            return attrition(state, &due);
        }
        let zone = contact.zone.clone();
        let here: Vec<String> = state
            .pieces_of(&side)
            .filter(|p| {
                let z = match &p.at {
                    Location::Zone(z) => Some(z.clone()),
                    Location::City(c) => state.setup.map.zone_of_city(c).map(|z| z.id.clone()),
                    Location::Sea(_) => None,
                };
                z.as_ref() == Some(&zone) && (side != contact.mover.side || matches!(p.at, Location::Zone(_)))
            })
            .filter_map(|p| match &p.kind {
                PieceKind::Leader { leader, .. } => Some(leader.clone()),
                _ => None,
            })
            .collect();
        if !here.is_empty() && ops.left(&side) > 0 && rng.random_bool(0.6) {
            let leader = here[rng.random_range(0..here.len())].clone();
            return Order::Intercept { side, leaders: vec![leader], target: Some(1), reconnaissance: false };
        }
        return Order::Decline { side };
    }
    let side = ops.segment.clone();
    if let Some(due) = ops.attrition.clone().filter(|d| d.side == side) {
        return attrition(state, &due);
    }
    if !act {
        return Order::Pass { side };
    }
    // Before an enemy city the acting leader lays siege, storms it, builds works or tries
    // Treachery now and then (BE-24, BE-27, BE-32, BE-43).
    // Shut in a besieged city, the acting leader sallies now and then (BE-28).
    if let Some(active) = ops.active.clone().filter(|a| a.side == side && !referee_campaign::belisarius::state::is_decoy(&a.leader))
        && siege::is_besieged(state, &active.at)
        && rng.random_bool(0.4)
    {
        return Order::Sortie { side, leader: active.leader.clone(), units: vec![1] };
    }
    if let Some(active) = ops.active.clone().filter(|a| a.side == side && !referee_campaign::belisarius::state::is_decoy(&a.leader))
        && let Location::Zone(z) = &active.at
    {
        let city = state.setup.map.zone(z).unwrap().city.id.clone();
        let enemy = state.cities[&city].holder.as_ref().is_some_and(|h| h != &side);
        let leader = active.leader.clone();
        match state.sieges.get(&city) {
            None if enemy && rng.random_bool(0.6) => return Order::Besiege { side, leader },
            Some(s) if s.besieger == side => {
                let roll: f64 = rng.random();
                if roll < 0.35 {
                    return Order::Assault { side, leader };
                } else if roll < 0.5 {
                    return Order::BuildWorks { side, leader, works: siege::Works::Siege, count: 1 };
                } else if roll < 0.6 {
                    return Order::Treachery { side, leader };
                }
            }
            _ => {}
        }
    }
    if let Some(active) = ops.active.clone().filter(|a| a.side == side && rng.random_bool(0.7)) {
        let map = &state.setup.map;
        let start = match &active.at {
            Location::Zone(z) => map.zone(z).map(|z| z.id.clone()),
            Location::City(city) => map.zone_of_city(city).map(|z| z.id.clone()),
            Location::Sea(_) => None,
        };
        if let Some(mut here) = start {
            let mut path = Vec::new();
            for _ in 0..rng.random_range(1..=2) {
                let next = &map.zone(&here).unwrap().neighbours;
                here = next[rng.random_range(0..next.len())].clone();
                path.push(here.0.clone());
            }
            return Order::Move { side, leader: active.leader.clone(), path };
        }
    }
    if rng.random_bool(0.6) && ops.left(&side) > 0 {
        let leaders: Vec<String> = state
            .pieces_of(&side)
            .filter_map(|p| match &p.kind {
                // Decoys are activated and march like leaders (BE-42).
                PieceKind::Leader { leader: id, .. } | PieceKind::LeaderDecoy { id } if !ops.activated.contains(id) && !p.at.is_sea() => {
                    Some(id.clone())
                }
                _ => None,
            })
            .collect();
        // Mostly a leader with troops, who can do more than march.
        let with_units: Vec<&String> =
            leaders.iter().filter(|id| state.marker(&side, id).is_some_and(|p| !p.kind.units().is_empty())).collect();
        if !with_units.is_empty() && rng.random_bool(0.7) {
            return Order::Activate { side, leader: with_units[rng.random_range(0..with_units.len())].clone(), with: vec![] };
        }
        if !leaders.is_empty() {
            return Order::Activate { side, leader: leaders[rng.random_range(0..leaders.len())].clone(), with: vec![] };
        }
    }
    Order::Pass { side }
}

/// Attrition losses from the first units of the force, point by point.
fn attrition(state: &State, due: &referee_campaign::belisarius::operations::AttritionDue) -> Order {
    Order::TakeLosses { side: due.side.clone(), losses: referee_campaign::belisarius::operations::attrition_share(state, due), militia: 0 }
}

/// Plays scenario `id` at random from its first season to its last (`turns` turns); what
/// happened.
fn play(id: &str, seed: u64, turns: u32) -> Stats {
    let setup = World::embedded().setup(id).unwrap();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<Belisarius>(id, &setup, seed).unwrap();
    referee_e2e::finish_belisarius_setup(&mut store, &mut c);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut stored, mut refused) = (0u32, 0u32);
    for _ in 0..turns {
        let hungry = strength(&c.state);
        referee_e2e::supply_phase(&mut store, &mut c);
        assert!(c.state.reinforced == c.state.turn || strength(&c.state) <= hungry, "{id}: strength grew without reinforcements");
        // Reinforcements raise the strength; from here on it only falls.
        let mut before = strength(&c.state);
        store.execute(&mut c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
        // Orders at random for a while, then only what ends the phase: losses and passes.
        for step in 0..200 {
            if c.state.phase != Phase::Operations {
                break;
            }
            let order = next_order(&c.state, &mut rng, step < 60);
            let events_before = store.events_as::<Belisarius>(c.id).unwrap().len();
            match store.execute(&mut c, &(), &order, DiceInput::Seeded) {
                Ok(_) => stored += 1,
                Err(_) => {
                    refused += 1;
                    assert_eq!(store.events_as::<Belisarius>(c.id).unwrap().len(), events_before, "{id}: a refusal stored something");
                }
            }
            check(&store, &c, before, id);
            before = strength(&c.state);
        }
        assert_eq!(c.state.phase, Phase::TurnEnd, "{id}: the operations phase ends");
        store.execute(&mut c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
    }
    assert!(stored > 10, "{id}: only {stored} orders stored ({refused} refused)");
    // Played to its last season: the conditions are judged and the campaign is over.
    assert_eq!(c.state.phase, Phase::Over, "{id}: the campaign ends after its last turn");
    assert!(c.state.result.as_ref().is_some_and(|r| r.winner.is_some()), "{id}: somebody wins");
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let replayed = Belisarius::replay(events.iter().map(|l| &l.event)).unwrap();
    assert_eq!(replayed, c.state, "{id}: the events replay to another campaign");
    let verification = store.verify_seed::<Belisarius>(c.id, seed).unwrap();
    assert!(verification.holds(), "{id}: {}", verification.summary());
    use referee_campaign::belisarius::event::Event;
    let count = |f: fn(&Event) -> bool| events.iter().filter(|l| f(&l.event)).count();
    let decoys =
        count(|e| matches!(e, Event::ForceMarched { activation, .. } if referee_campaign::belisarius::state::is_decoy(&activation.leader)));
    let stats = Stats {
        marches: count(|e| matches!(e, Event::ForceMarched { .. })),
        battles: count(|e| matches!(e, Event::BattleEnded { .. })),
        decoys,
        sieges: count(|e| matches!(e, Event::SiegeDeclared { .. })),
        assaults: count(|e| matches!(e, Event::AssaultRolled { .. })),
        falls: count(|e| matches!(e, Event::CityFell { .. })),
        sorties: count(|e| matches!(e, Event::SortieMade { .. })),
        reliefs: count(|e| matches!(e, Event::ReliefDeclared { .. })),
        hungry: count(|e| matches!(e, Event::OutOfSupply { .. })),
    };
    eprintln!("{id} (seed {seed}, {turns} turns): {stats:?}");
    stats
}

/// What happened in one random game.
#[derive(Debug, Default)]
struct Stats {
    marches: usize,
    battles: usize,
    decoys: usize,
    sieges: usize,
    assaults: usize,
    falls: usize,
    sorties: usize,
    reliefs: usize,
    hungry: usize,
}

/// BE-06, BE-10, BE-12, BE-13, BE-17, BE-24, BE-27, BE-42, BE-53: random operations of every
/// scenario — leaders and decoys marching, contacts answered, battles fought here, sieges
/// laid and stormed — keep the invariants.
#[test]
fn be_06_random_operations_of_every_scenario_keep_the_invariants() {
    let mut all = Stats::default();
    for (i, scenario) in World::embedded().scenarios.iter().enumerate() {
        for seed in [20, 40] {
            let s = play(&scenario.id, seed + i as u64, scenario.turns);
            all.marches += s.marches;
            all.battles += s.battles;
            all.decoys += s.decoys;
            all.sieges += s.sieges;
            all.assaults += s.assaults;
            all.falls += s.falls;
            all.sorties += s.sorties;
            all.reliefs += s.reliefs;
            all.hungry += s.hungry;
        }
    }
    assert!(all.marches > 3, "the random games marched only {} times", all.marches);
    assert!(all.battles > 0, "the random games fought no battle");
    assert!(all.decoys > 0, "no decoy marched in the random games");
    assert!(all.sieges > 0 && all.assaults > 0, "the random games laid no siege or made no assault: {all:?}");
}
