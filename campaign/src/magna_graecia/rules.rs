//! The rules: a command and the current state (and dice) give events or a refusal. Nothing
//! here touches the database, the screen or the clock.

use super::cities::{self, Direction};
use super::event::Event;
use super::map::Map;
use super::order::Order;
use super::state::CampaignState;
use crate::core::dice::Dice;
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::{magna_graecia::battle, magna_graecia::naval, magna_graecia::siege, magna_graecia::turn};

/// Decides what `command` does to the campaign.
pub fn decide(state: &CampaignState, map: &Map, command: &Order, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let known_side = |s: &crate::ids::SideId| {
        if state.is_side(s) {
            Ok(())
        } else {
            Err(RuleError::new(
                RuleId::MG_02,
                format!(
                    "{} has no side `{s}`; its sides are {}",
                    state.scenario.name,
                    state.scenario.move_order.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ))
        }
    };
    command.check_names()?;
    // A side the campaign has not is refused as such, whichever field names it.
    for (field, s) in command.sides() {
        known_side(s).map_err(|e| RuleError::new(e.rule, format!("`{field}`: {}", e.message)))?;
    }
    let events = match command {
        Order::RollDice(roll) => vec![Event::DiceRolled(roll.decide(dice, known_side)?)],
        Order::SetArmy { army } => {
            known_side(&army.side)?;
            if state.phase != turn::Phase::Setup {
                return Err(RuleError::new(RuleId::MG_03, "rosters are fixed once play has begun; losses change them, not the referee"));
            }
            let points = state.scenario.side(&army.side).map_or(0, |s| s.army_points);
            let problems = state.scenario.elements.check(army, points);
            if !problems.is_empty() {
                let text: Vec<String> = problems.into_iter().map(|p| p.message).collect();
                return Err(RuleError::new(
                    RuleId::MG_03,
                    format!(
                        "{} army cannot be fielded: {}",
                        crate::core::words::possessive(&turn::side_name(state, &army.side)),
                        text.join("; ")
                    ),
                ));
            }
            vec![Event::ArmyReplaced { army: army.clone() }]
        }
        Order::Deploy { side, counter, node } => turn::deploy(state, map, side, counter, *node)?,
        Order::BeginPlay {} => turn::begin_play(state, map)?,
        Order::Move { side, counter, path } => turn::move_counter(state, map, side, counter, path, dice)?,
        Order::EndPhase { side } => turn::end_phase(state, map, side, dice)?,
        Order::AllocateNavalLosses { side, lost, sunk } => naval::allocate_losses(state, side, lost, sunk)?,
        Order::RetreatFleet { side, path } => naval::retreat_fleet(state, map, side, path)?,
        Order::Shelter { side } => naval::shelter(state, map, side)?,
        Order::CombineFleets { side, with } => naval::combine_fleets(state, side, with)?,
        Order::OfferFleet { side, to } => naval::offer_fleet(state, side, to)?,
        Order::SetUpTable { battle: id, defence, cut, attacker_edge } => {
            super::table::set_up_table(state, map, *id, *defence, *cut, *attacker_edge, dice)?
        }
        Order::RecordBattleResult { result } => battle::record_result(state, map, result, dice)?,
        Order::Retreat { side, counter, path } => battle::retreat(state, map, side, counter, path)?,
        Order::SwitchSides { side, to } => battle::switch_sides(state, side, to)?,
        Order::WithdrawIntoCity { side, battle: id } => siege::withdraw_into_city(state, map, side, *id)?,
        Order::AllocateSiegeLosses { side, lost, sunk } => siege::allocate_siege_losses(state, map, side, lost, sunk)?,
        Order::Sally { side, node } => siege::sally(state, map, side, *node)?,
        Order::EndCampaign { reason } => siege::end_by_agreement(state, reason)?,
        Order::AttackCity { side, node, ally } => cities::attack_city(state, map, side, *node, ally)?,
        Order::ExitMap { side, counter } => siege::exit_through_messena(state, map, side, counter)?,
        Order::ChooseStayOrRetire { side, battle: id, stay } => battle::choose_stay_or_retire(state, map, side, *id, *stay)?,
        Order::Exchange { side, from, to, elements } => turn::exchange(state, map, side, from, to, elements)?,
        Order::Garrison { side, command, elements, into_garrison } => {
            let direction = if *into_garrison { Direction::IntoGarrison } else { Direction::OutOfGarrison };
            cities::garrison(state, map, side, command, elements, direction)?
        }
        Order::Embark { side, counter } => turn::embark(state, map, side, counter)?,
        Order::Disembark { side, counter } => turn::disembark(state, side, counter)?,
        Order::Land { side, counter, node } => turn::land(state, map, side, counter, *node)?,
        Order::AddNote(note) => vec![Event::NoteAdded(note.decide(RuleId::X_03)?)],
        Order::RenameCampaign(rename) => vec![Event::CampaignRenamed(rename.decide(&state.name)?)],
        Order::AdjustControl { node, side, reason } => {
            if map.node(*node).is_none() {
                return Err(RuleError::new(
                    RuleId::MG_01,
                    format!("the {} map has no node {node} (its nodes are 00 to {:02})", map.name, map.nodes.len().saturating_sub(1)),
                ));
            }
            if let Some(s) = side {
                known_side(s)?;
            }
            let from = state.control.get(node).cloned();
            if &from == side {
                return Err(RuleError::new(
                    RuleId::MG_02,
                    format!(
                        "{} is already {}",
                        map.name(*node),
                        side.as_ref().map_or("uncontrolled".to_owned(), |s| format!("controlled by {}", turn::side_name(state, s)))
                    ),
                ));
            }
            if reason.trim().is_empty() {
                return Err(RuleError::new(RuleId::X_03, "an umpire's correction needs a reason for the log"));
            }
            vec![Event::ControlAdjusted { node: *node, from, to: side.clone(), reason: reason.trim().to_owned() }]
        }
    };
    dice.all_used()?;
    Ok(events)
}
