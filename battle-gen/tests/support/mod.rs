//! The battle both pack test files print: Himilco and Mago at Himera.

use referee_campaign::fixtures::{DIONYSIAN, deploy_orders, moved};
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::event::Logged;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::table::{Defence, Flank};
use referee_campaign::store::{Campaign, DiceInput, Store};

/// Himilco and Mago march from Panormus onto Leptines and Agyris at Himera, whose city fields
/// its commands beside them; the table is set when `table` says so.
pub fn himera(table: bool) -> (Store, Campaign<MagnaGraecia>, Map, Vec<Logged>) {
    let catalog = Catalog::embedded();
    let map = catalog.map("sicily").unwrap().clone();
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<MagnaGraecia>("Spec", catalog.scenario("dionysian").unwrap(), 9).unwrap();
    let mut orders = deploy_orders(&moved(&DIONYSIAN, "syracuse", "Agyris", 8));
    orders.extend([
        Order::BeginPlay {},
        Order::Move { side: carthage(), counter: "Himilco".into(), path: vec![NodeId(8)] },
        Order::Move { side: carthage(), counter: "Mago".into(), path: vec![NodeId(8)] },
        Order::EndPhase { side: carthage() },
    ]);
    if table {
        orders.push(Order::SetUpTable { battle: 1, defence: Defence::Central, cut: Some(Flank::Left), attacker_edge: None });
    }
    for order in orders {
        store.execute(&mut c, &map, &order, DiceInput::Seeded).unwrap();
    }
    let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
    (store, c, map, events)
}

pub fn carthage() -> SideId {
    SideId::new("carthage")
}

pub fn syracuse() -> SideId {
    SideId::new("syracuse")
}
