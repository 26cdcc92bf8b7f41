//! A Magna Graecia side checks its planned orders against its own view: where its
//! counters may deploy (MG-02), where each may move this phase and by which path (MG-11,
//! MG-13, MG-16), where a beaten counter may retreat (MG-15), and whether the phase is its
//! own. What hangs on what the side cannot see, or on orders planned before it, is left to
//! the referee's rules.

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
            // The side's movement phase is over once a phase is ended: a move planned after
            // that comes too late, whichever phase was ended.
            if matches!(order, Order::Move { .. }) && earlier.iter().any(|o| matches!(o, Order::EndPhase { .. })) {
                return Err(RuleError::new(
                    RuleId::MG_09,
                    format!("{counter} would move after {name}'s movement phase ends, by an order planned before this one"),
                ));
            }
            if counter_named(counter) {
                return Ok(Checked::ForReferee(format!("{counter} moves or spends movement points in an order planned before this one")));
            }
            let Some(last) = path.last() else {
                return Err(RuleError::new(RuleId::MG_11, "a move needs at least one node to move to"));
            };
            if matches!(order, Order::Retreat { .. }) {
                let Some(retreats) = view.own.land_retreats.get(counter) else {
                    return Err(RuleError::new(RuleId::MG_15, format!("{counter} owes no retreat")));
                };
                // Where it may go is worked out from the map and the counters everyone sees.
                return match retreats.get(last) {
                    Some(known) if known == path => Ok(Checked::AsFarAsKnown),
                    Some(_) => Ok(Checked::ForReferee(format!("another path than the one {name}'s map shows to {}", place(*last)))),
                    None if retreats.is_empty() => Err(RuleError::new(RuleId::MG_15, format!("{counter} has nowhere to retreat to"))),
                    None => Err(RuleError::new(
                        RuleId::MG_15,
                        format!("{counter} cannot retreat to {}; it may retreat to {}", place(*last), list(&mut retreats.keys().copied())),
                    )),
                };
            }
            let moves = view.own.moves.get(counter);
            let fleet_stops_by_enemy = view.own.counters.iter().any(|c| &c.name == counter && c.is_fleet())
                && board.counters.iter().any(|c| c.node == *last && !c.fleet && board.are_enemies(&view.side, &c.side));
            match moves.and_then(|m| m.get(last)) {
                Some(known) if known == path => Ok(Checked::AsFarAsKnown),
                Some(_) => Ok(Checked::ForReferee(format!("another path than the one {name}'s map shows to {}", place(*last)))),
                None if fleet_stops_by_enemy => Err(super::turn::fleet_may_not_stop(map, *last)),
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
        Order::SwitchSides { to, .. } => {
            // MG-35: the offer is on the board for all to see, and whom the side may turn to.
            let enemy = |to: &crate::ids::SideId| board.side(to).is_some() && board.are_enemies(&view.side, to);
            super::battle::may_switch(board.switch_offer.as_ref(), &view.side, to, enemy, |s| board.side_name(s))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::engine::Engine as _;
    use crate::core::viewer::Viewer;
    use crate::magna_graecia::{engine::MagnaGraecia, view::View};
    use crate::{Dice, NodeId, SideId};

    /// MG-16, X-06: Carthage plans to sail its fleet from Motya round to Himera, where
    /// Leptines stands: its packet refuses it as the rules do, for stopping beside enemy land
    /// counters, not as beyond the fleet's reach.
    #[test]
    fn mg_16_a_planned_fleet_move_ending_by_enemy_land_counters_is_refused_as_the_rules_refuse_it() {
        let (store, c, map) = crate::fixtures::magna_graecia("dionysian", 9, &crate::fixtures::dionysian_orders());
        let map = &map;
        let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
        let Some(View::Side(view)) = MagnaGraecia::view_for(&c.state, map, &events, &Viewer::Side(SideId::new("carthage"))) else {
            panic!("Carthage's view");
        };
        let order = Order::Move { side: SideId::new("carthage"), counter: "fleet".into(), path: vec![NodeId(2), NodeId(4), NodeId(8)] };
        let planned = check(&view, map, &[], &order).unwrap_err();
        let (seed, at) = MagnaGraecia::dice(&c.state);
        let ruled = MagnaGraecia::allows(&c.state, map, &order, &mut Dice::seeded(seed, at)).unwrap_err();
        assert_eq!(planned.to_string(), "a fleet may sail past enemy land counters at Himera but not end its move there — MG-16");
        assert_eq!(ruled.to_string(), planned.to_string());
    }

    /// MG-35, X-06: Syracuse's packet passes its change of sides while the offer stands, to
    /// the side that beat its ally, and refuses it to its ally or once the offer is gone, in
    /// the rules' words.
    #[test]
    fn mg_35_a_planned_change_of_sides_is_checked_against_the_offer() {
        let (mut store, mut c, map) = crate::fixtures::magna_graecia("first-punic", 5, &crate::fixtures::appius_marches_on_tyndaris());
        let syracuse = SideId::new("syracuse");
        let plan = |store: &crate::store::Store, c: &crate::store::Campaign<MagnaGraecia>, to: &str| {
            let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
            let Some(View::Side(view)) = MagnaGraecia::view_for(&c.state, &map, &events, &Viewer::Side(syracuse.clone())) else {
                panic!("Syracuse's view");
            };
            check(&view, &map, &[], &Order::SwitchSides { side: syracuse.clone(), to: SideId::new(to) })
        };
        let no_offer = plan(&store, &c, "rome").unwrap_err();
        assert_eq!(no_offer.to_string(), "a side may change sides only at once when its ally has just lost a land battle — MG-35");
        let result = crate::fixtures::won_outright(c.state.battles[0].id, "rome");
        store.execute(&mut c, &map, &Order::RecordBattleResult { result }, crate::store::DiceInput::Seeded).unwrap();
        assert_eq!(plan(&store, &c, "rome"), Ok(Checked::AsFarAsKnown));
        let to_ally = plan(&store, &c, "carthage").unwrap_err();
        let (seed, at) = MagnaGraecia::dice(&c.state);
        let ruled = MagnaGraecia::allows(
            &c.state,
            &map,
            &Order::SwitchSides { side: syracuse.clone(), to: SideId::new("carthage") },
            &mut Dice::seeded(seed, at),
        )
        .unwrap_err();
        assert_eq!(to_ally.to_string(), ruled.to_string());
    }
}
