//! Setting the table for a land battle (MG-21, MG-22, MG-25): the attacker's base edge from
//! its road of entry, the defender's forward, central or rear section, the attacker's 2' cut
//! for a 4'×6' table, and the weather and time of day rolled for the day's fighting.

use crate::core::log::DiceRolled;
use crate::core::rule::RuleId;

use serde::{Deserialize, Serialize};

use super::event::{Event, Visibility};
use super::map::{Edge, Map};
use super::state::CampaignState;
use super::turn::{Battle, Phase};
use crate::core::dice::{Dice, DiceSpec, PublicRoll, Roll};
use crate::core::error::RuleError;
pub use crate::core::table::{Defence, Flank};

/// What a d6 for the weather gives on a summer battlefield in a warm climate (MG-22).
///
/// The tabletop rules' own weather table is not part of the campaign rules; this one is the
/// project's reconstruction for summer in a warm climate: mostly fair, sometimes hot, wind
/// or a summer storm. The effect of each is the tabletop rules' business.
pub const WEATHER: [(u8, &str); 6] =
    [(1, "summer storm: rain"), (2, "strong wind"), (3, "fair"), (4, "fair"), (5, "fair"), (6, "hot and dusty")];

/// The weather [`WEATHER`] names a strong wind: a d4 then says where it blows from.
const STRONG_WIND: &str = "strong wind";

/// Where a strong wind blows from, by a d4 rolled with the weather, as the table lies: the
/// edges round the table clockwise from the attacker's. MG-22 and the weather table give a
/// wind no direction; the project rolls one, logged with the weather, so that both armies read
/// the same wind on their table.
pub const WIND_FROM: [(u8, &str); 4] =
    [(1, "the attacker's base edge"), (2, "the attacker's left"), (3, "the defender's base edge"), (4, "the attacker's right")];

/// What a d6 for the time of day gives: the hour the armies are ready to fight (MG-22).
/// The project's reconstruction, like [`WEATHER`]; the later the start, the sooner night
/// falls and ends the battle without a loser (MG-25).
pub const TIME_OF_DAY: [(u8, &str); 6] =
    [(1, "dawn"), (2, "early morning"), (3, "mid-morning"), (4, "midday"), (5, "early afternoon"), (6, "late afternoon")];

fn lookup(table: &[(u8, &'static str)], roll: &Roll) -> String {
    let last = u8::try_from(table.len()).unwrap_or(u8::MAX);
    let v = u8::try_from(roll.total().clamp(1, i32::from(last))).unwrap_or(1);
    table.iter().find(|(n, _)| *n == v).map_or("fair", |(_, w)| w).to_owned()
}

/// The table of one day of a battle, as set up before the armies deploy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleTable {
    /// 1, or 2 after both sides chose to stay (MG-25).
    pub day: u8,
    /// The edge of the node's map the attacker's base edge lies on (MG-21).
    pub attacker_edge: Edge,
    pub defence: Defence,
    /// For a 4'×6' table, the flank the attacker cut 2' off.
    pub cut: Option<Flank>,
    pub weather: String,
    pub time_of_day: String,
    /// The two MG-22 rolls, kept with the table for the umpire's sheet. Public like the
    /// table, so without their place in the dice stream.
    pub rolls: Vec<PublicRoll>,
}

impl BattleTable {
    /// "forward section, attacker from the west, 4'×8'".
    pub fn describe(&self) -> String {
        let size = match self.cut {
            None => "4'×8' table".to_owned(),
            Some(f) => format!("4'×6' table, attacker's {} 2' cut off", f.name()),
        };
        format!("{} section, attacker's base edge {}, {size}", self.defence, self.attacker_edge)
    }
}

/// The edges the attacker's counters came in by (MG-21), in the order they entered, one
/// per edge. Empty if none came in by road (a landing, a sally, an attack on a city the
/// counters already stood at).
pub fn entry_edges(map: &Map, battle: &Battle) -> Vec<Edge> {
    let Some(node) = map.node(battle.node) else { return Vec::new() };
    let mut edges = Vec::new();
    for from in battle.entries.iter().filter_map(|(_, f)| *f) {
        if let Some(&e) = node.battlefield.roads.get(&from)
            && !edges.contains(&e)
        {
            edges.push(e);
        }
    }
    edges
}

/// MG-21, MG-22, MG-25: sets the table for a battle's day and rolls its weather and time of
/// day. On the second day the attacker keeps its edge and the defender may only move the
/// field toward its own rear.
pub fn set_up_table(
    state: &CampaignState,
    map: &Map,
    battle_id: u32,
    defence: Defence,
    cut: Option<Flank>,
    attacker_edge: Option<Edge>,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Combat {
        return Err(RuleError::new(RuleId::MG_21, "tables are set for battles in the combat phase"));
    }
    let battle = state
        .battles
        .iter()
        .find(|b| b.id == battle_id)
        .ok_or_else(|| RuleError::new(RuleId::MG_21, format!("there is no battle {battle_id} to set a table for")))?;
    let place = map.name(battle.node);
    if battle.awaiting_choices {
        return Err(RuleError::new(RuleId::MG_25, format!("battle {battle_id} waits for each side's choice to stay or retire")));
    }
    let previous = battle.table.as_ref();
    if let Some(t) = previous
        && t.day == battle.day
    {
        return Err(RuleError::new(
            RuleId::MG_21,
            format!("the table at {place} is already set for day {} ({}); undo that to set it again", t.day, t.describe()),
        ));
    }
    let edge = match previous {
        // MG-25: the armies stay where they stood; only the defender's section may move.
        Some(t) => {
            if attacker_edge.is_some_and(|e| e != t.attacker_edge) {
                return Err(RuleError::new(
                    RuleId::MG_25,
                    format!("on the second day at {place} the attacker keeps its base edge on the {}", t.attacker_edge),
                ));
            }
            if defence < t.defence {
                return Err(RuleError::new(
                    RuleId::MG_25,
                    format!(
                        "on the second day at {place} the defender may shift the field only toward its own rear, not from {} to {defence}",
                        t.defence
                    ),
                ));
            }
            t.attacker_edge
        }
        None => {
            let entries = entry_edges(map, battle);
            match (attacker_edge, entries.first()) {
                (Some(e), Some(_)) if !entries.contains(&e) => {
                    let names: Vec<&str> = entries.iter().map(|e| e.name()).collect();
                    return Err(RuleError::new(
                        RuleId::MG_21,
                        format!("the attacker entered {place} by the {} edge, not the {e}", names.join(" or ")),
                    ));
                }
                (Some(e), _) => e,
                (None, Some(&e)) => e,
                (None, None) => {
                    return Err(RuleError::new(
                        RuleId::MG_21,
                        format!("the attacker did not come into {place} by road: name the edge it fights from"),
                    ));
                }
            }
        }
    };
    let day = battle.day;
    let weather =
        dice.roll(DiceSpec::D6, &format!("weather, battle {battle_id} at {place}, day {day}"), Some(RuleId::MG_22), Vec::new())?;
    let time =
        dice.roll(DiceSpec::D6, &format!("time of day, battle {battle_id} at {place}, day {day}"), Some(RuleId::MG_22), Vec::new())?;
    let mut rolls = vec![weather, time];
    let mut weather = lookup(&WEATHER, &rolls[0]);
    if weather == STRONG_WIND {
        let d4 = DiceSpec { count: 1, sides: 4 };
        let wind =
            dice.roll(d4, &format!("wind's direction, battle {battle_id} at {place}, day {day}"), Some(RuleId::MG_22), Vec::new())?;
        weather = format!("{weather} from {}", lookup(&WIND_FROM, &wind));
        rolls.push(wind);
    }
    let table = BattleTable {
        day,
        attacker_edge: edge,
        defence,
        cut,
        weather,
        time_of_day: lookup(&TIME_OF_DAY, &rolls[1]),
        rolls: rolls.iter().map(PublicRoll::from).collect(),
    };
    // The weather, its wind and the hour are the same for both armies and seen by both: public.
    let mut events: Vec<Event> =
        rolls.into_iter().map(|roll| Event::DiceRolled(DiceRolled { roll, side: None, visibility: Visibility::Public })).collect();
    events.push(Event::TableSet { battle: battle_id, node: battle.node, table });
    Ok(events)
}

impl CampaignState {
    pub(crate) fn apply_table(&mut self, battle_id: u32, table: &BattleTable) {
        if let Some(b) = self.battles.iter_mut().find(|b| b.id == battle_id) {
            b.table = Some(table.clone());
        }
    }

    /// The table set for a battle, if the referee has set one.
    pub fn battle_table(&self, battle_id: u32) -> Option<&BattleTable> {
        self.battles.iter().find(|b| b.id == battle_id).and_then(|b| b.table.as_ref())
    }
}
