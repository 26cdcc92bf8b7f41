//! A Belisarius side checks its planned orders against its own view: whose segment it
//! is (BE-06), which of its leaders and decoys are on the map and which were activated this
//! phase (BE-07, BE-42), the action points it knows it has left, and whether a march goes from
//! zone to zone along the map (BE-10). An interception, a roll or a force it cannot see may
//! still stop an order; what hangs on them is left to the referee's rules.

use crate::core::error::RuleError;
use crate::core::plan::Checked;
use crate::core::rule::RuleId;

use super::map::{ZoneId, ZoneMap};
use super::order::Order;
use super::state::Location;
use super::view::{Organisation, SideView};

/// The most zones a march may cross in a turn (BE-10).
const MARCH: usize = 6;

/// What the side's own view makes of `order`, planned after `earlier`: refused with the
/// rule, checked as far as the side knows, or left for the referee.
pub fn check(view: &SideView, map: &ZoneMap, earlier: &[Order], order: &Order) -> Result<Checked, RuleError> {
    let board = &view.board;
    let own = &view.own;
    let name = board.side_name(&view.side);
    // After a march that halts at a contact, the other side answers first: what the side
    // planned after it cannot be given in the same orders file, which is taken in whole.
    let halted = earlier.iter().find_map(|o| match o {
        Order::Move { path, .. } | Order::ActivateAndMove { path, .. } => path.iter().find_map(|z| contact_at(view, map, z)),
        _ => None,
    });
    if let Some(halt) = halted
        && !matches!(order, Order::TakeLosses { .. })
    {
        return Ok(Checked::ForReferee(format!(
            "planned after a march that halts ({halt}); an orders file is taken in whole, so send this after the contact is settled"
        )));
    }
    match order {
        Order::Activate { leader, with, .. } => {
            segment(view, &name)?;
            if own.action_points.as_ref().is_some_and(|ap| ap.left == 0) {
                return Err(RuleError::new(RuleId::BE_06, format!("the {name} have no action points left: they pass")));
            }
            for id in std::iter::once(leader).chain(with) {
                piece_at(own, id).ok_or_else(|| no_piece(own, &name, id))?;
                if own.activated.contains(id)
                    || earlier.iter().any(|o| matches!(o, Order::Activate { leader: l, with: w, .. } | Order::ActivateAndMove { leader: l, with: w, .. } if l == id || w.contains(id)))
                {
                    return Err(RuleError::new(RuleId::BE_07, format!("{id} has been activated this phase already")));
                }
            }
            Ok(Checked::AsFarAsKnown)
        }
        Order::Move { leader, path, .. } => {
            segment(view, &name)?;
            let at = piece_at(own, leader).ok_or_else(|| no_piece(own, &name, leader))?;
            let planned = earlier
                .iter()
                .any(|o| matches!(o, Order::Activate { leader: l, .. } | Order::ActivateAndMove { leader: l, .. } if l == leader));
            if own.acting.as_deref() != Some(leader.as_str()) && !planned {
                return Err(RuleError::new(RuleId::BE_06, format!("{leader} is not the leader acting: activate him first (`activate`)")));
            }
            if path.is_empty() {
                return Err(RuleError::new(RuleId::BE_10, "a march names at least one zone"));
            }
            if path.len() > MARCH {
                return Err(RuleError::new(RuleId::BE_10, format!("a march crosses at most {MARCH} zones a turn, not {}", path.len())));
            }
            let mut here = map.zone_of(at);
            for step in path {
                let Some(zone) = map.zone(&ZoneId::new(step.as_str())) else {
                    return Err(RuleError::new(RuleId::BE_10, map.no_zone(step)));
                };
                if let Some(from) = &here
                    && !map.adjacent(from, &zone.id)
                {
                    let from_name = map.zone(from).map_or_else(|| from.to_string(), |z| z.name.clone());
                    let next: Vec<String> = map.zones.iter().filter(|z| map.adjacent(from, &z.id)).map(|z| z.id.to_string()).collect();
                    return Err(RuleError::new(
                        RuleId::BE_10,
                        format!("{} does not border {from_name}; from there a march goes to {}", zone.name, next.join(", ")),
                    ));
                }
                here = Some(zone.id.clone());
            }
            if let Some(halt) = path.iter().find_map(|z| contact_at(view, map, z)) {
                return Ok(Checked::ForReferee(halt));
            }
            if earlier.iter().any(|o| matches!(o, Order::Move { leader: l, .. } | Order::ActivateAndMove { leader: l, .. } if l == leader))
            {
                return Ok(Checked::ForReferee(format!("{leader} marches on after a march planned before this one")));
            }
            Ok(Checked::AsFarAsKnown)
        }
        Order::ActivateAndMove { side, leader, with, path, attrition_from } => {
            let activate = Order::Activate { side: side.clone(), leader: leader.clone(), with: with.clone() };
            check(view, map, earlier, &activate)?;
            let mut then: Vec<Order> = earlier.to_vec();
            then.push(activate);
            let march =
                Order::Move { side: side.clone(), leader: leader.clone(), path: path.clone(), attrition_from: attrition_from.clone() };
            check(view, map, &then, &march)
        }
        Order::Place { line, at, .. } => {
            if !own.lines_due.iter().any(|l| l.number == *line) {
                let due: Vec<String> = own.lines_due.iter().map(|l| l.number.to_string()).collect();
                return Err(RuleError::new(
                    RuleId::BE_49,
                    match due.is_empty() {
                        true => format!("the {name} have no set-up line left to place"),
                        false => format!("the {name} have no line {line} to place; the lines left are {}", due.join(", ")),
                    },
                ));
            }
            super::world::locate(map, at).map_err(|e| RuleError::new(RuleId::BE_01, e.to_string()))?;
            Ok(Checked::ForReferee("where a line may go hangs on what each side holds (BE-49 … BE-52)".to_owned()))
        }
        _ => Ok(Checked::ForReferee(format!("it hangs on what the {name} cannot see"))),
    }
}

/// Where a march into `zone` meets the other side's markers, which the side sees on the map:
/// the march halts there for a contact (BE-13).
fn contact_at(view: &SideView, map: &ZoneMap, zone: &str) -> Option<String> {
    let zone = map.zone(&ZoneId::new(zone))?;
    let enemy = view.board.markers.iter().find(|m| {
        m.side != view.side
            && !m.naval
            && match &m.at {
                Location::Zone(z) => z == &zone.id,
                Location::City(c) => c == &zone.city.id,
                Location::Sea(_) | Location::Aboard(_) => false,
            }
    })?;
    Some(format!("the march halts at {}, where the {} stand; they answer first (BE-13)", zone.name, view.board.side_name(&enemy.side)))
}

/// Refuses an order given outside the side's own segment, where the side can tell.
fn segment(view: &SideView, name: &str) -> Result<(), RuleError> {
    match &view.board.operations {
        None => Err(RuleError::new(RuleId::BE_06, "leaders act in the operations phase, and this is not it")),
        Some(ops) if ops.segment != view.side => {
            let whose = |name: &str| crate::core::words::possessive(name);
            Err(RuleError::new(RuleId::BE_06, format!("it is {} segment, not {}", whose(&view.board.side_name(&ops.segment)), whose(name))))
        }
        Some(_) => Ok(()),
    }
}

/// Where the side's leader or decoy `id` stands, by its Table of Organisation.
fn piece_at<'a>(own: &'a Organisation, id: &str) -> Option<&'a Location> {
    own.pieces().find(|(piece, _)| *piece == id).map(|(_, at)| at)
}

/// The refusal of a piece the side does not have on the map, with those it has.
fn no_piece(own: &Organisation, name: &str, id: &str) -> RuleError {
    let ids: Vec<&str> = own.pieces().map(|(piece, _)| piece).collect();
    RuleError::new(RuleId::BE_07, format!("the {name} have no leader `{id}` on the map; theirs are {}", ids.join(", ")))
}
