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
use referee_campaign::belisarius::event::Logged;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, Phase, PieceKind, State};
use referee_campaign::belisarius::view::{View, view_for};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::belisarius::{franks, siege};
use referee_campaign::core::engine::Engine;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::fixtures::belisarius::{battle_order, set_up, supply_phase};
use referee_campaign::store::{Campaign, DiceInput};

/// The two sides' combat points, on the map or away with a leader an event called off
/// (BE-47), the Franks' apart: they come and go by events (BE-48).
fn strength(state: &State) -> u32 {
    state
        .pieces
        .iter()
        .filter(|p| !matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == franks::KING))
        .flat_map(|p| p.kind.units())
        .chain(state.away.iter().flat_map(|a| &a.units))
        .map(|u| u32::from(u.value))
        .sum()
}

fn check(events: &[Logged], c: &Campaign<Belisarius>, before: u32, id: &str) {
    let s = &c.state;
    if let Some(ops) = &s.ops {
        for (side, ap) in &ops.ap {
            assert!(ap.left <= ap.total, "{id}: {side} overspent");
        }
        for moved in ops.moved.values() {
            assert!(*moved <= 6, "{id}: a force moved {moved} zones");
        }
        for sailed in ops.sailed.values() {
            assert!(*sailed <= 6, "{id}: a ship sailed {sailed} sea zones");
        }
    }
    // Ships float with naval points; everyone aboard is aboard a ship of its side (BE-33,
    // BE-37).
    for p in &s.pieces {
        if let PieceKind::Fleet { np, .. } = p.kind {
            assert!(np > 0, "{id}: a ship of 0 NPs afloat");
        }
        if let Location::Aboard(ship) = &p.at {
            assert!(s.ship(&p.side, ship).is_some(), "{id}: a force aboard a ship that is gone");
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
    for side in &s.setup.sides {
        let Some(View::Side(view)) = view_for(s, events, &Viewer::Side(side.id.clone())) else { panic!("{id}: no view") };
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
    if let Some(order) = naval_answer(state, rng) {
        return order;
    }
    // A battle is fought out, a side breaking off now and then (BE-17, BE-22).
    if let Some(b) = &ops.battle {
        let breaker = b.forces.iter().map(|f| f.side.clone()).nth(rng.random_range(0..3));
        if let Some(order) = battle_order(state, breaker.as_ref()) {
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
        // The Franks on their own always try (BE-48).
        if side == contact.mover.side
            && franks::on_their_own(state, &contact.mover.leader)
            && !contact.failed.contains(&side)
            && !referee_campaign::belisarius::interception::mover_targets(state, contact).is_empty()
        {
            return Order::Intercept { side, leaders: vec![franks::KING.to_owned()], target: Some(1), reconnaissance: false };
        }
        let zone = contact.zone.clone();
        let here: Vec<String> = state
            .pieces_of(&side)
            .filter(|p| {
                let z = match &p.at {
                    Location::Zone(z) => Some(z.clone()),
                    Location::City(c) => state.setup.map.zone_of_city(c).map(|z| z.id.clone()),
                    Location::Sea(_) | Location::Aboard(_) => None,
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
    // The hostile Franks march first; a side holding the Frankish intervention plays it now
    // and then (BE-43, BE-48).
    if franks::march_due(state, &side) {
        return Order::FranksMarch { side };
    }
    if act
        && state.franks.is_none()
        && state.hands.get(&side).is_some_and(|h| h.iter().any(|s| s == franks::STRATAGEM))
        && rng.random_bool(0.2)
    {
        return Order::PlayFrankishIntervention { side };
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
        return Order::Sally { side, leader: active.leader.clone(), units: vec![1] };
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
                    // Ships off the port join the assault (BE-39).
                    let coast = &state.setup.map.zone(z).unwrap().coast;
                    let ships = ships_where(state, &side, |at| matches!(at, Location::Sea(s) if coast.contains(s)), true);
                    let ships = if state.setup.map.zone(z).unwrap().city.port { ships } else { Vec::new() };
                    return Order::Assault { side, leader, ships };
                } else if roll < 0.5 {
                    return Order::BuildWorks { side, leader, works: siege::Works::Siege, count: 1 };
                } else if roll < 0.6 {
                    return Order::AttemptTreachery { side, leader };
                }
            }
            _ => {}
        }
    }
    if let Some(order) = naval_action(state, &side, rng) {
        return order;
    }
    if let Some(active) = ops.active.clone().filter(|a| a.side == side && rng.random_bool(0.7)) {
        let map = &state.setup.map;
        let start = match &active.at {
            Location::Zone(z) => map.zone(z).map(|z| z.id.clone()),
            Location::City(city) => map.zone_of_city(city).map(|z| z.id.clone()),
            Location::Sea(_) | Location::Aboard(_) => None,
        };
        // (An island has no land neighbour: its force stays.)
        if let Some(mut here) = start.filter(|z| !map.zone(z).unwrap().neighbours.is_empty()) {
            let mut path = Vec::new();
            for _ in 0..rng.random_range(1..=2) {
                let next = &map.zone(&here).unwrap().neighbours;
                here = next[rng.random_range(0..next.len())].clone();
                path.push(here.0.clone());
            }
            return Order::Move { side, leader: active.leader.clone(), path, attrition_from: vec![] };
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

/// `side`'s ships (and, unless `real_only`, fleet decoys) standing where `at` says, grouped by
/// the first such place: the ships of one place.
fn ships_where(state: &State, side: &referee_campaign::ids::SideId, at: impl Fn(&Location) -> bool, real_only: bool) -> Vec<String> {
    let mut place = None;
    let mut out = Vec::new();
    for p in state.pieces_of(side) {
        let Some(id) = p.kind.ship_id() else { continue };
        if !at(&p.at) || (real_only && !matches!(p.kind, PieceKind::Fleet { .. })) {
            continue;
        }
        if place.get_or_insert_with(|| p.at.clone()) == &p.at {
            out.push(id.to_owned());
        }
    }
    out
}

/// An answer at sea: the side not sailing intercepts with its ships there most of the time
/// (BE-35); a naval battle is fought on, the weaker side retiring now and then (BE-36).
fn naval_answer(state: &State, rng: &mut ChaCha8Rng) -> Option<Order> {
    let ops = state.ops.as_ref()?;
    if let Some(b) = &ops.naval_battle {
        if b.passages > 0 && rng.random_bool(0.3) {
            let weaker =
                b.squadrons.iter().min_by_key(|s| referee_campaign::belisarius::naval::naval_points(state, &s.side, &s.ships)).unwrap();
            let sea = state.setup.map.sea(&b.sea).unwrap();
            let to = sea.neighbours[rng.random_range(0..sea.neighbours.len())].0.clone();
            return Some(Order::RetireAtSea { side: weaker.side.clone(), to });
        }
        return Some(Order::FightAtSea {});
    }
    let c = ops.naval_contact.as_ref()?;
    let side = state.setup.sides.iter().map(|s| s.id.clone()).find(|s| s != &c.mover).unwrap();
    let ships = ships_where(state, &side, |at| *at == Location::Sea(c.sea.clone()), true);
    if !ships.is_empty() && ops.left(&side) > 0 && rng.random_bool(0.8) {
        return Some(Order::InterceptAtSea { side, ships });
    }
    Some(Order::LetPass { side })
}

/// Now and then in its segment a side's ships sail — toward enemy sea markers when there are
/// some beside — and the acting force boards ships on its coast or lands from them (BE-33,
/// BE-37).
fn naval_action(state: &State, side: &referee_campaign::ids::SideId, rng: &mut ChaCha8Rng) -> Option<Order> {
    let ops = state.ops.as_ref()?;
    let map = &state.setup.map;
    if let Some(active) = ops.active.as_ref().filter(|a| &a.side == side) {
        match &active.at {
            // Aboard: land on a coast of the ships' sea, or sail on with the force.
            Location::Aboard(ship) => {
                let at = referee_campaign::belisarius::naval::whereabouts(state, &active.at);
                if let Location::Sea(s) = &at
                    && rng.random_bool(0.5)
                {
                    let coasts: Vec<&referee_campaign::belisarius::map::Zone> = map.zones.iter().filter(|z| z.coast.contains(s)).collect();
                    if !coasts.is_empty() {
                        let z = coasts[rng.random_range(0..coasts.len())];
                        return Some(Order::Land { side: side.clone(), leader: active.leader.clone(), at: z.id.0.clone() });
                    }
                }
                if let Location::City(c) = &at {
                    return Some(Order::Land { side: side.clone(), leader: active.leader.clone(), at: c.0.clone() });
                }
                return Some(sail_from(state, side, vec![ship.clone()], &at, rng));
            }
            Location::Zone(_) | Location::City(_) if rng.random_bool(0.25) => {
                let zone = map.zone(&referee_campaign::belisarius::operations::zone_of(state, &active.at)?)?;
                let city = Location::City(zone.city.id.clone());
                let ships = ships_where(state, side, |at| *at == city || matches!(at, Location::Sea(s) if zone.coast.contains(s)), true);
                if !ships.is_empty() {
                    return Some(Order::Embark { side: side.clone(), leader: active.leader.clone(), ships });
                }
            }
            _ => {}
        }
    }
    if !rng.random_bool(0.2) || ops.left(side) == 0 {
        return None;
    }
    let mut ships: Vec<String> = Vec::new();
    let mut from = None;
    let mut all: Vec<(Location, String)> =
        state.pieces_of(side).filter_map(|p| p.kind.ship_id().map(|id| (p.at.clone(), id.to_owned()))).collect();
    if all.is_empty() {
        return None;
    }
    let pick = all.swap_remove(rng.random_range(0..all.len()));
    for (at, id) in std::iter::once(pick.clone()).chain(all) {
        if at == pick.0 && (ships.is_empty() || rng.random_bool(0.6)) {
            ships.push(id);
            from = Some(at);
        }
    }
    Some(sail_from(state, side, ships, &from?, rng))
}

/// A voyage of `ships` from `from` of one to three sea zones, toward an enemy sea marker
/// beside it when there is one.
fn sail_from(state: &State, side: &referee_campaign::ids::SideId, ships: Vec<String>, from: &Location, rng: &mut ChaCha8Rng) -> Order {
    let map = &state.setup.map;
    let mut here: Vec<referee_campaign::belisarius::map::SeaId> = match from {
        Location::Sea(s) => map.sea(s).unwrap().neighbours.clone(),
        Location::City(c) => map.zone_of_city(c).unwrap().coast.clone(),
        _ => Vec::new(),
    };
    let mut path = Vec::new();
    for _ in 0..rng.random_range(1..=3) {
        if here.is_empty() {
            break;
        }
        let enemy = here.iter().find(|s| referee_campaign::belisarius::naval::enemy_at_sea(state, side, s)).cloned();
        let next = enemy.clone().unwrap_or_else(|| here[rng.random_range(0..here.len())].clone());
        path.push(next.0.clone());
        if enemy.is_some() {
            break;
        }
        here = map.sea(&next).unwrap().neighbours.clone();
    }
    Order::Sail { side: side.clone(), ships, path }
}

/// Attrition losses from the first units of the force, point by point.
fn attrition(state: &State, due: &referee_campaign::belisarius::operations::AttritionDue) -> Order {
    Order::TakeLosses { side: due.side.clone(), losses: referee_campaign::belisarius::operations::attrition_share(state, due), militia: 0 }
}

/// Plays scenario `id` at random from its first season to its last (`turns` turns); what
/// happened.
fn play(id: &str, seed: u64, turns: u32) -> Stats {
    let (mut store, mut c) = set_up(id, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut stored, mut refused) = (0u32, 0u32);
    for _ in 0..turns {
        let hungry = strength(&c.state);
        supply_phase(&mut store, &mut c);
        assert!(c.state.reinforced == c.state.turn || strength(&c.state) <= hungry, "{id}: strength grew without reinforcements");
        // Reinforcements raise the strength; from here on it only falls.
        let mut before = strength(&c.state);
        store.execute(&mut c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
        let mut events = store.events_as::<Belisarius>(c.id).unwrap();
        // Orders at random for a while, then only what ends the phase: losses and passes.
        for step in 0..200 {
            if c.state.phase != Phase::Operations {
                break;
            }
            let order = next_order(&c.state, &mut rng, step < 60);
            let campaign = c.id.0;
            let rows = |store: &Store| -> u64 {
                store.connection().query_row("SELECT count(*) FROM events WHERE campaign_id = ?1", [campaign], |r| r.get(0)).unwrap()
            };
            let rows_before = rows(&store);
            match store.execute(&mut c, &(), &order, DiceInput::Seeded) {
                Ok(_) => {
                    stored += 1;
                    events = store.events_as::<Belisarius>(c.id).unwrap();
                }
                Err(_) => {
                    refused += 1;
                    assert_eq!(rows(&store), rows_before, "{id}: a refusal stored something");
                }
            }
            check(&events, &c, before, id);
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
        voyages: count(|e| matches!(e, Event::ShipsSailed { .. })),
        naval_battles: count(|e| matches!(e, Event::NavalBattleJoined { .. })),
        landings: count(|e| matches!(e, Event::Landed { .. })),
        events: count(|e| matches!(e, Event::EventDrawn { why_not: None, .. })),
        franks: count(|e| matches!(e, Event::FranksArrived { .. })),
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
    voyages: usize,
    naval_battles: usize,
    landings: usize,
    events: usize,
    franks: usize,
}

/// BE-06, BE-10, BE-12, BE-13, BE-17, BE-24, BE-27, BE-42, BE-53: random operations of every
/// scenario — leaders and decoys marching, contacts answered, battles fought here, sieges
/// laid and stormed — keep the invariants.
#[test]
fn be_06_random_operations_of_every_scenario_keep_the_invariants() {
    let mut all = Stats::default();
    let world = World::embedded();
    // Twelve whole games, each on a thread of its own: they share nothing.
    let games: Vec<Stats> = std::thread::scope(|scope| {
        let games: Vec<_> = world
            .scenarios
            .iter()
            .enumerate()
            .flat_map(|(i, scenario)| [20, 40, 60].map(|seed| (scenario, seed + i as u64)))
            .map(|(scenario, seed)| scope.spawn(move || play(&scenario.id, seed, scenario.turns)))
            .collect();
        games.into_iter().map(|game| game.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    for s in games {
        all.marches += s.marches;
        all.battles += s.battles;
        all.decoys += s.decoys;
        all.sieges += s.sieges;
        all.assaults += s.assaults;
        all.falls += s.falls;
        all.sorties += s.sorties;
        all.reliefs += s.reliefs;
        all.hungry += s.hungry;
        all.voyages += s.voyages;
        all.naval_battles += s.naval_battles;
        all.landings += s.landings;
        all.events += s.events;
        all.franks += s.franks;
    }
    assert!(all.marches > 3, "the random games marched only {} times", all.marches);
    assert!(all.battles > 0, "the random games fought no battle");
    assert!(all.decoys > 0, "no decoy marched in the random games");
    assert!(all.sieges > 0 && all.assaults > 0, "the random games laid no siege or made no assault: {all:?}");
    assert!(all.voyages > 0 && all.naval_battles > 0 && all.landings > 0, "no ships sailed, fought or landed troops: {all:?}");
    assert!(all.events > 0 && all.franks > 0, "no random event happened, or the Franks never came: {all:?}");
}
