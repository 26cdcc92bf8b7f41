//! A Belisarius side checks its planned orders against its own view: whose segment it
//! is (BE-06), which of its leaders and decoys are on the map and which were activated this
//! phase (BE-07, BE-42), the action points it knows it has left, whether a march goes from
//! zone to zone along the map (BE-10), who answers a contact and with whom (BE-13, BE-15,
//! BE-35), its ships (BE-33), a step between a zone and its city (BE-11), the answer to a
//! sortie, and a share of the losses it owes (BE-19, BE-22, BE-27, BE-28, BE-41). An interception, a roll or a force it cannot see may still stop an order; what
//! hangs on them is left to the referee's rules.

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
        Order::TakeLosses { losses, militia, .. } => losses_owed(view, earlier, losses, *militia),
        Order::Pass { .. } => {
            segment(view, &name)?;
            if !earlier.is_empty() {
                return Ok(Checked::ForReferee("what the orders before it bring about may have to be settled first".to_owned()));
            }
            if own.attrition.is_some() || own.assault_losses.is_some() {
                return Err(RuleError::new(RuleId::BE_12, format!("the {name} first share out the losses they owe (`take_losses`)")));
            }
            let b = &view.board;
            let pending = b.battle.is_some() || b.contact.is_some() || b.naval_contact.is_some() || b.naval_battle.is_some();
            Ok(if pending || b.assault.is_some() || b.sortie.is_some() {
                Checked::ForReferee("what is under way on the map is to be settled first".to_owned())
            } else {
                Checked::AsFarAsKnown
            })
        }
        Order::Decline { .. } => {
            answering(view, &name)?;
            Ok(Checked::AsFarAsKnown)
        }
        Order::Intercept { leaders, target, .. } => {
            let contact = answering(view, &name)?;
            if own.action_points.as_ref().is_some_and(|ap| ap.left == 0) {
                return Err(RuleError::new(RuleId::BE_13, format!("the {name} have no action points left to intercept with")));
            }
            for id in leaders {
                let b = own.leader_box(id).ok_or_else(|| no_piece(own, &name, id))?;
                let leader = b.leader.as_ref().map_or(id.as_str(), |l| l.name.as_str());
                if map.zone_of(&b.at).as_ref() != Some(&contact.zone) {
                    return Err(RuleError::new(RuleId::BE_13, format!("{leader} stands at {}, not at the contact", b.place)));
                }
                // Once per enemy force a turn: the mover's leader may try another marker.
                contact.may_try(id, target.unwrap_or(1))?;
            }
            let with_units = own.boxes.iter().any(|b| b.leader.as_ref().is_some_and(|l| leaders.contains(&l.id)) && !b.units.is_empty());
            if !with_units {
                return Err(RuleError::new(RuleId::BE_13, "the interceptors have no units to fight with"));
            }
            if contact.mover == view.side {
                match target {
                    None if contact.targets > 1 => {
                        return Err(RuleError::new(
                            RuleId::BE_15,
                            format!(
                                "{} enemy markers stand here: name the one aimed at, 1 to {} (`target`)",
                                contact.targets, contact.targets
                            ),
                        ));
                    }
                    Some(t) if *t == 0 || *t > contact.targets => {
                        return Err(RuleError::new(
                            RuleId::BE_15,
                            format!("there is no marker {t} here; they are numbered 1 to {}", contact.targets),
                        ));
                    }
                    _ => {}
                }
            }
            Ok(Checked::ForReferee("the interception roll".to_owned()))
        }
        Order::LetPass { .. } => {
            at_sea(view, &name)?;
            Ok(Checked::AsFarAsKnown)
        }
        Order::InterceptAtSea { ships, .. } => {
            let sea = at_sea(view, &name)?;
            for id in ships {
                let b = own.boxes.iter().find(|b| b.ship.as_deref() == Some(id.as_str())).ok_or_else(|| no_ship(own, &name, id))?;
                if b.decoy {
                    return Err(RuleError::new(RuleId::BE_42, format!("{id} is a decoy: it carries out no action")));
                }
                if b.at != Location::Sea(sea.clone()) {
                    return Err(RuleError::new(
                        RuleId::BE_35,
                        format!("{id} is at {}: the ships that intercept must be where the enemy's sailed in", b.place),
                    ));
                }
            }
            Ok(Checked::ForReferee("the interception roll".to_owned()))
        }
        Order::Sail { ships, .. } => {
            segment(view, &name)?;
            for id in ships {
                own.boxes.iter().find(|b| b.ship.as_deref() == Some(id.as_str())).ok_or_else(|| no_ship(own, &name, id))?;
            }
            Ok(Checked::ForReferee(format!("where the voyage halts hangs on ships the {name} cannot see")))
        }
        Order::Shift { leader, into_city, .. } => {
            // Between a zone and its city: who holds the city and whether it is besieged are
            // public, where the side's own leader stands its own (BE-11, BE-24, BE-28).
            segment(view, &name)?;
            let at = piece_at(own, leader).ok_or_else(|| no_piece(own, &name, leader))?;
            if !earlier.is_empty() {
                return Ok(Checked::ForReferee("where the force stands after the orders before it".to_owned()));
            }
            if own.acting.as_deref() != Some(leader.as_str()) {
                return Err(RuleError::new(RuleId::BE_06, format!("{leader} is not the leader acting: activate him first (`activate`)")));
            }
            let zone = map.zone_of(at).and_then(|z| map.zone(&z));
            let city = zone.and_then(|z| board.city(&z.city.id));
            let holder = city.and_then(|c| c.holder.as_ref()).filter(|h| **h != view.side).map(|h| board.side_name(h));
            let city_name = zone.map(|z| z.city.name.as_str()).unwrap_or_default();
            super::operations::may_shift(at, *into_city, city_name, city.is_some_and(|c| c.siege.is_some()), holder.as_deref())?;
            Ok(Checked::AsFarAsKnown)
        }
        Order::AnswerSortie { units, .. } => {
            // The sortie's points are public, and the besiegers' own units are the side's.
            let Some(due) = &own.sortie_answer else {
                return Err(RuleError::new(RuleId::BE_28, format!("the {name} have no sortie to answer")));
            };
            if earlier.iter().any(|o| matches!(o, Order::AnswerSortie { .. })) {
                return Err(RuleError::new(RuleId::BE_28, "the besieger answers the sortie, once"));
            }
            super::siege::share(&numbered(&due.units), units, (0, 0), due.points, RuleId::BE_28, "to meet the sortie, unmodified")?;
            Ok(Checked::AsFarAsKnown)
        }
        Order::Raise { units, .. } => {
            // BE-45: the side knows the points it has to spend; a raise with no units gives up
            // the rest.
            let given_up = earlier.iter().any(|o| matches!(o, Order::Raise { units, .. } if units.is_empty()));
            if own.raise_half_points == 0 || given_up {
                return Err(RuleError::new(RuleId::BE_45, format!("the {name} have no reinforcement points to spend")));
            }
            if units.is_empty() {
                return Ok(Checked::AsFarAsKnown);
            }
            let points = super::reinforce::points(own.raise_half_points);
            Ok(Checked::ForReferee(format!(
                "the price of the units against the {name}' {points}, less what is planned before, is the referee's to reckon (BE-45)"
            )))
        }
        _ => Ok(Checked::ForReferee(format!("it hangs on what the {name} cannot see"))),
    }
}

/// The units of a share, numbered from 1 as the view lists them.
fn numbered(units: &[(String, super::pieces::Unit)]) -> Vec<super::siege::Numbered<'_>> {
    units
        .iter()
        .map(|(leader, unit)| super::siege::Numbered { leader: (!leader.is_empty()).then_some(leader.as_str()), index: 0, unit: *unit })
        .collect()
}

/// The contact the side is to answer now, or why there is none it may answer (BE-13).
fn answering<'a>(view: &'a SideView, name: &str) -> Result<&'a super::view::ContactBoard, RuleError> {
    let contact = view.board.contact.as_ref().ok_or_else(|| RuleError::new(RuleId::BE_13, "there is no contact to answer now"))?;
    if contact.turn_of != view.side {
        let whose = view.board.side_name(&contact.turn_of);
        return Err(RuleError::new(RuleId::BE_13, format!("the {whose} answer the contact now, not the {name}")));
    }
    Ok(contact)
}

/// The sea where the other side's ships halted, for the side to answer, or why there is none
/// (BE-35).
fn at_sea<'a>(view: &'a SideView, name: &str) -> Result<&'a super::map::SeaId, RuleError> {
    let contact =
        view.board.naval_contact.as_ref().ok_or_else(|| RuleError::new(RuleId::BE_35, "no ships have sailed into the enemy's sea zone"))?;
    if contact.mover == view.side {
        return Err(RuleError::new(
            RuleId::BE_35,
            format!("the {} own ships sailed in: the other side answers", crate::core::words::possessive(name)),
        ));
    }
    Ok(&contact.sea)
}

/// A share of losses checked against what the side owes, as its view shows it: supply (BE-41),
/// a sortie (BE-28), an assault (BE-27) and a battle (BE-19, BE-22), in the order the rules
/// take them. Attrition's force is the march's, which may change on the way: the rules check
/// it. After other orders in the plan, what is owed may have changed: the referee checks.
fn losses_owed(view: &SideView, earlier: &[Order], losses: &[(u32, u8)], militia: u8) -> Result<Checked, RuleError> {
    let own = &view.own;
    let name = view.board.side_name(&view.side);
    if !earlier.is_empty() {
        return Ok(Checked::ForReferee("what is owed after the orders before it".to_owned()));
    }
    let dues = [
        (&own.supply_losses, RuleId::BE_41, "for want of supply"),
        (&own.sortie_losses, RuleId::BE_28, "for the sortie, from those who fought"),
        (&own.assault_losses, RuleId::BE_27, "for the assault"),
    ];
    if let Some((due, rule, what)) = dues.iter().find_map(|(d, r, w)| d.as_ref().map(|d| (d, *r, *w))) {
        super::siege::share(&numbered(&due.units), losses, (militia, due.militia), due.points, rule, what)?;
        return Ok(Checked::AsFarAsKnown);
    }
    if militia > 0 {
        return Err(RuleError::new(RuleId::BE_25, "the militia takes losses only in an assault on its city, or for want of supply"));
    }
    if let Some(b) = &view.board.battle {
        use super::battle::Step;
        let owed = match &b.step {
            Step::Losses { owed, taken } if !taken.contains(&view.side) => owed.get(&view.side).copied(),
            Step::Pursuit { side, owed } if side == &view.side => Some(*owed),
            _ => None,
        };
        if let Some(owed) = owed.filter(|o| o.points > 0) {
            let fighters: Vec<super::fight::Fighter> =
                b.forces.iter().filter(|f| f.side == view.side).flat_map(|f| f.units.iter().map(|u| u.fighter)).collect();
            let share = super::battle::by_index(losses, fighters.len())?;
            let rule = if owed.pursuit { RuleId::BE_22 } else { RuleId::BE_19 };
            super::fight::check_share(&fighters, &owed, &share).map_err(|e| RuleError::new(rule, e))?;
            return Ok(Checked::AsFarAsKnown);
        }
    }
    if own.attrition.is_some() {
        return Ok(Checked::ForReferee("attrition is taken from the units that marched".to_owned()));
    }
    Err(RuleError::new(RuleId::BE_19, format!("the {name} owe no losses now")))
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

/// The refusal of a ship the side does not have, with those it has.
fn no_ship(own: &Organisation, name: &str, id: &str) -> RuleError {
    let ids: Vec<&str> = own.boxes.iter().filter_map(|b| b.ship.as_deref()).collect();
    RuleError::new(RuleId::BE_33, format!("the {name} have no ship `{id}`; theirs are {}", ids.join(", ")))
}

/// The refusal of a piece the side does not have on the map, with those it has.
fn no_piece(own: &Organisation, name: &str, id: &str) -> RuleError {
    let ids: Vec<&str> = own.pieces().map(|(piece, _)| piece).collect();
    RuleError::new(RuleId::BE_07, format!("the {name} have no leader `{id}` on the map; theirs are {}", ids.join(", ")))
}
