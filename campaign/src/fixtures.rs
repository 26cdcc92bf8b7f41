//! Test campaigns shared by the tests and benchmarks of every crate: the one copy of the
//! Dionysian War's usual deployment. Compiled only with the `fixtures` feature, which the
//! crates enable for their tests and benchmarks (dev-dependencies).

use crate::{NodeId, Order, SideId};

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

/// `deployment` with one side's counter placed at `node` instead.
pub fn moved(
    deployment: &[(&'static str, &'static str, u8)],
    side: &str,
    counter: &str,
    node: u8,
) -> Vec<(&'static str, &'static str, u8)> {
    deployment.iter().map(|&(s, c, n)| if s == side && c == counter { (s, c, node) } else { (s, c, n) }).collect()
}
