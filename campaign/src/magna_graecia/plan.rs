//! A Magna Graecia side checks its planned orders against its own view: where its
//! counters may deploy (MG-02), where each may move this phase and by which path (MG-11,
//! MG-13, MG-16), and whether the phase is its own. What hangs on what the side cannot see,
//! or on orders planned before it, is left to the referee's rules.

use crate::core::error::RuleError;
use crate::core::plan::Checked;
use crate::core::rule::RuleId;

use super::map::Map;
use super::order::Order;
use super::turn::Phase;
use super::view::SideView;

/// What the side's own view makes of `order`, planned after `earlier`: refused with the
/// rule, checked as far as the side knows, or left for the referee.
pub fn check(view: &SideView, map: &Map, earlier: &[Order], order: &Order) -> Result<Checked, RuleError> {
    let board = &view.board;
    let name = board.side_name(&view.side);
    let counter_named = |counter: &str| earlier.iter().any(|o| spends(o).contains(&counter));
    let place = |n| map.node(n).map_or_else(|| n.to_string(), |node| node.label());
    let list = |nodes: &mut dyn Iterator<Item = crate::ids::NodeId>| nodes.map(place).collect::<Vec<_>>().join(", ");
    match order {
        Order::Deploy { counter, node, .. } => {
            if board.phase != Phase::Setup {
                return Err(RuleError::new(RuleId::MG_02, "counters are deployed before play begins, not after"));
            }
            let Some(nodes) = view.own.deployable.get(counter) else {
                let own: Vec<&str> = view.own.deployable.keys().map(String::as_str).collect();
                return Err(RuleError::new(
                    RuleId::MG_03,
                    format!("{name} has no counter called {counter} to deploy; its counters are {}", own.join(", ")),
                ));
            };
            if !nodes.contains(node) {
                return Err(RuleError::new(
                    RuleId::MG_02,
                    format!("{name} may not deploy {counter} at {}; it may deploy at {}", place(*node), list(&mut nodes.iter().copied())),
                ));
            }
            Ok(Checked::AsFarAsKnown)
        }
        Order::Move { counter, path, .. } | Order::Retreat { counter, path, .. } => {
            if matches!(order, Order::Move { .. }) && !(board.phase == Phase::Movement && board.moving == view.side) {
                return Err(RuleError::new(RuleId::MG_11, format!("{name} moves in its own movement phase, and this is not it")));
            }
            if !view.own.counters.iter().any(|c| &c.name == counter) {
                let own: Vec<&str> = view.own.counters.iter().map(|c| c.name.as_str()).collect();
                return Err(RuleError::new(
                    RuleId::MG_11,
                    format!("{name} has no counter called {counter} on the map; its counters are {}", own.join(", ")),
                ));
            }
            if let Some(n) = path.iter().find(|n| map.node(**n).is_none()) {
                return Err(RuleError::new(RuleId::MG_01, format!("the map has no node {n}")));
            }
            if counter_named(counter) {
                return Ok(Checked::ForReferee(format!("{counter} moves or spends movement points in an order planned before this one")));
            }
            if matches!(order, Order::Retreat { .. }) {
                return match view.own.land_retreats.get(counter) {
                    Some(_) => Ok(Checked::ForReferee("the retreat's paths are the referee's to check (MG-15)".to_owned())),
                    None => Err(RuleError::new(RuleId::MG_15, format!("{counter} owes no retreat"))),
                };
            }
            let moves = view.own.moves.get(counter);
            let Some(last) = path.last() else {
                return Err(RuleError::new(RuleId::MG_11, "a move needs at least one node to move to"));
            };
            match moves.and_then(|m| m.get(last)) {
                Some(known) if known == path => Ok(Checked::AsFarAsKnown),
                Some(_) => Ok(Checked::ForReferee(format!("another path than the one {name}'s map shows to {}", place(*last)))),
                None => {
                    let reach = moves.map(|m| list(&mut m.keys().copied())).filter(|s| !s.is_empty());
                    Err(RuleError::new(
                        RuleId::MG_11,
                        match reach {
                            Some(reach) => format!("{counter} cannot reach {} this phase; it may move to {reach}", place(*last)),
                            None => format!("{counter} cannot move this phase"),
                        },
                    ))
                }
            }
        }
        Order::EndPhase { .. } => {
            if board.phase == Phase::Setup || board.phase == Phase::Ended || board.moving != view.side {
                return Err(RuleError::new(RuleId::MG_09, format!("it is not {name}'s phase to end")));
            }
            Ok(Checked::AsFarAsKnown)
        }
        _ => Ok(Checked::ForReferee(format!("it hangs on what {name} cannot see"))),
    }
}

/// The counters an order moves or spends movement points of (MG-11, MG-14).
fn spends(order: &Order) -> Vec<&str> {
    match order {
        Order::Move { counter, .. }
        | Order::Retreat { counter, .. }
        | Order::Embark { counter, .. }
        | Order::Disembark { counter, .. }
        | Order::Land { counter, .. }
        | Order::ExitMap { counter, .. } => vec![counter],
        Order::Exchange { from, to, .. } => vec![from, to],
        _ => Vec::new(),
    }
}
