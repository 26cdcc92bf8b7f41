//! Staging a Belisarius situation the way a referee tries one out: the map cleared of
//! markers, leaders put where the test needs them, cities handed over.

use referee_campaign::Store;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::map::ZoneId;
use referee_campaign::belisarius::pieces::{Unit, UnitKind, parse_units};
use referee_campaign::belisarius::state::{Location, Piece, PieceKind};
use referee_campaign::core::log::DiceRolled;
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

/// The Byzantines, as orders name them.
pub fn byz() -> SideId {
    SideId::new("byzantines")
}

/// The Ostrogoths, as orders name them.
pub fn goths() -> SideId {
    SideId::new("ostrogoths")
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
pub fn all_dice(c: &Campaign<Belisarius>, order: &referee_campaign::belisarius::order::Order, value: u8) -> DiceInput {
    use referee_campaign::core::engine::Engine;
    let (seed, pos) = Belisarius::dice(&c.state);
    let mut dice = referee_campaign::dice::Dice::seeded(seed, pos);
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
pub fn run(
    store: &mut Store,
    c: &mut Campaign<Belisarius>,
    order: &referee_campaign::belisarius::order::Order,
    dice: DiceInput,
) -> Vec<Event> {
    let before = store.events_as::<Belisarius>(c.id).unwrap().len();
    store.execute(c, &(), order, dice).unwrap_or_else(|e| panic!("{order:?}: {e}"));
    store.events_as::<Belisarius>(c.id).unwrap()[before..].iter().map(|l| l.event.clone()).collect()
}

/// Gives `order`, which must be refused with `words` in the message, storing and changing
/// nothing.
pub fn refused(store: &mut Store, c: &mut Campaign<Belisarius>, order: &referee_campaign::belisarius::order::Order, words: &str) {
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

/// The First Reconquest of Italy with Vitiges king, set up, its events phase giving no event,
/// its supply played, and its
/// operations begun with the Byzantines drawing ap-i (16 AP), the Goths `goth_chit`, and the
/// initiative dice typed in as `initiative`.
pub fn italy_under_vitiges(goth_chit: &str, initiative: [u8; 2]) -> (Store, Campaign<Belisarius>) {
    let mut setup = referee_campaign::belisarius::World::embedded().setup("italy-535").unwrap();
    setup.sides.iter_mut().find(|s| s.id.as_str() == "ostrogoths").unwrap().cinc = Some("vitiges".to_owned());
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<Belisarius>("Italy", &setup, 535).unwrap();
    crate::finish_belisarius_setup(&mut store, &mut c);
    // Summer 535's event roll typed as 12: event H, which Italy does not allow (BE-47).
    let events = referee_campaign::belisarius::order::Order::PlayEvents {};
    store.execute(&mut c, &(), &events, DiceInput::Manual(vec![6, 6])).unwrap();
    crate::supply_phase(&mut store, &mut c);
    let order = referee_campaign::belisarius::order::Order::BeginOperations {};
    store.execute(&mut c, &(), &order, typed(&initiative, &["ap-i", goth_chit])).unwrap();
    (store, c)
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
        .find(|n| !referee_campaign::belisarius::interception::enemy_in(&c.state, side, n))
        .unwrap()
        .0
        .clone()
}

/// Scenario `id` set up where the rules first allow (seed `seed`) and brought to the start of
/// turn `turn`, nothing played in it yet.
pub fn at_turn(id: &str, turn: u32, seed: u64) -> (Store, Campaign<Belisarius>) {
    let setup = referee_campaign::belisarius::World::embedded().setup(id).unwrap();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<Belisarius>(id, &setup, seed).unwrap();
    crate::finish_belisarius_setup(&mut store, &mut c);
    c.state.turn = turn;
    (store, c)
}
