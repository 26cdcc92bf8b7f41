//! What each player is told before a battle, and what the umpire keeps.
//!
//! A side's [`Brief`] is built from that side's [`SideView`] and the public map only, so it
//! cannot hold another side's commands: the type has nowhere to put them. The umpire's
//! [`UmpireSheet`] is built from the [`UmpireView`] and holds everything.

use referee_campaign::core::dice::PublicRoll;
use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::army::{CommandRoster, ElementTable, Rank};
use referee_campaign::magna_graecia::map::{Edge, Map};
use referee_campaign::magna_graecia::table::BattleTable;
use referee_campaign::magna_graecia::view::{BattleMark, Board, Forces, SideView, UmpireView};
use serde::Serialize;

use crate::ground::{Ground, road_exits};
use crate::pack::PackError;
use crate::section::{Section, section};
use crate::spec::{LinePrices, Role};

/// A road that leaves the table in play, and whether a side may retire along it (MG-26).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoadOff {
    pub to: NodeId,
    pub to_name: String,
    /// The side of the table (as a compass edge of the node's map) the road leaves by.
    pub edge: Edge,
    /// The road leaves by the map's own edge, not just the edge of the section.
    pub map_edge: bool,
    /// Who holds the node it leads to.
    pub held_by: Option<String>,
    /// The node is friendly or neutral to the reader: retiring that way recovers (MG-26).
    pub retire: bool,
}

/// One command on the reader's side of the battle, at its strength now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandSheet {
    pub roster: CommandRoster,
    /// DBM-style points at this strength, the general's surcharge included.
    pub points: u32,
    /// The same points, the general's and each group's.
    pub prices: LinePrices,
    /// Lost its general and fights on without one (MG-31).
    pub leaderless: bool,
    /// The city whose command this is, when it fights beside the side as an ally (MG-05).
    pub city: Option<String>,
}

/// The battle as everyone in it knows it: where, when, which table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleHeader {
    pub campaign: String,
    pub scenario: String,
    pub turn: u32,
    pub battle: u32,
    pub day: u8,
    pub node: NodeId,
    pub place: String,
    pub attacker: String,
    pub defenders: Vec<String>,
    pub table: Option<BattleTable>,
    pub section: Option<Section>,
    /// An attack on the neutral city of the node (MG-07).
    pub city_attack: bool,
}

/// One side's brief: its own commands, what it can see of the enemy, the ground, its edge,
/// its roads off the table, what it fights for and the special rules in play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Brief {
    pub header: BattleHeader,
    pub side: SideId,
    pub side_name: String,
    pub role: Role,
    /// The edge of the node's map the reader's base edge lies on, once the table is set.
    pub base_edge: Option<Edge>,
    pub own: Vec<CommandSheet>,
    /// Friendly sides fighting in the same battle, with their counters there.
    pub friends: Vec<(String, u32)>,
    /// The enemy sides and the counters of each seen at the node: no names, no strengths.
    pub enemies: Vec<(String, u32)>,
    /// A city fighting for the enemy, and how many commands it fields (MG-05).
    pub enemy_city: Option<(String, u8)>,
    /// A city fighting on the reader's side under another side's command: its name, how
    /// many commands it fields, and the side it is allied to (MG-05).
    pub friendly_city: Option<(String, u8, String)>,
    pub roads: Vec<RoadOff>,
    pub objectives: Vec<String>,
    pub special_rules: Vec<String>,
}

/// Everything about the battle, for the umpire.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UmpireSheet {
    pub header: BattleHeader,
    /// Each side in the battle with its role and its commands there.
    pub sides: Vec<(SideId, String, Role, Vec<CommandSheet>)>,
    /// The dice rolled to set the table (MG-22).
    pub rolls: Vec<PublicRoll>,
    /// Lines of the umpire's log about this battle.
    pub log: Vec<String>,
    /// Each side's roads off the table and whether it may retire by them.
    pub roads: Vec<(String, Vec<RoadOff>)>,
}

pub(crate) fn battle_mark(board: &Board, battle: u32) -> Result<&BattleMark, PackError> {
    board.battles.iter().find(|b| b.id == battle).ok_or(PackError::NoBattle(battle))
}

pub(crate) fn side_name(board: &Board, id: &SideId) -> String {
    board.side(id).map_or_else(|| id.to_string(), |s| s.name.clone())
}

/// The reader's role: the attacker's side and its friends attack; everyone else defends.
pub(crate) fn role_of(board: &Board, mark: &BattleMark, side: &SideId) -> Role {
    if board.on_same_side(side, &mark.attacker) { Role::Attacker } else { Role::Defender }
}

fn header(board: &Board, map: &Map, mark: &BattleMark) -> BattleHeader {
    // A second day's table must be set again before its pack is printed (MG-25).
    let table = mark.table.clone().filter(|t| t.day == mark.day);
    BattleHeader {
        campaign: board.campaign.clone(),
        scenario: board.scenario_name.clone(),
        turn: board.turn,
        battle: mark.id,
        day: mark.day,
        node: mark.node,
        place: map.name(mark.node),
        attacker: side_name(board, &mark.attacker),
        defenders: mark.defenders.iter().map(|d| side_name(board, d)).collect(),
        section: table.as_ref().map(|t| section(t.attacker_edge, t.defence, t.cut)),
        table,
        city_attack: mark.city_attack,
    }
}

/// The side's commands standing in the battle's node, and the allied city's, with points.
fn commands_at(forces: &Forces, node: NodeId, battle: u32, table: &ElementTable, city: Option<&String>) -> Vec<CommandSheet> {
    let Some(army) = &forces.army else { return Vec::new() };
    let mut out: Vec<CommandSheet> = forces
        .counters
        .iter()
        .filter(|c| c.node == node && c.on_land())
        .filter_map(|c| army.commands.iter().find(|r| r.name == c.name))
        .map(|r| {
            let leaderless = forces.is_leaderless(&r.name);
            let (mut points, mut prices) = (table.command_points(r), prices(table, r));
            // A leaderless command has no general to set out or to pay for (MG-31).
            if leaderless {
                points = points.saturating_sub(prices.general);
                prices.general = 0;
            }
            CommandSheet { points, prices, leaderless, roster: r.clone(), city: None }
        })
        .collect();
    for r in forces.allied_city_commands.get(&battle).into_iter().flatten() {
        out.push(CommandSheet {
            points: table.command_points(r),
            prices: prices(table, r),
            leaderless: false,
            roster: r.clone(),
            city: city.cloned(),
        });
    }
    out
}

/// A command's points, the general's and each group's.
fn prices(table: &ElementTable, r: &CommandRoster) -> LinePrices {
    super::line_prices(table, r.rank, &r.general, r.elements.iter().map(|g| (&g.spec, g.count)))
}

fn roads_for(board: &Board, map: &Map, ground: &Ground, section: Option<&Section>, side: &SideId) -> Vec<RoadOff> {
    let rect = section.map_or(crate::section::Rect { x_feet: 0.0, y_feet: 0.0, width_feet: 8.0, height_feet: 8.0 }, |s| s.rect);
    road_exits(ground, rect)
        .into_iter()
        .map(|exit| {
            let status = board.node(exit.to);
            let holder = status.and_then(|s| s.controller.clone());
            let ally_of = status.and_then(|s| s.allied_to.as_ref());
            let retire =
                referee_campaign::magna_graecia::battle::may_retire_into(holder.as_ref(), ally_of, |o| board.on_same_side(side, o));
            RoadOff {
                to: exit.to,
                to_name: map.name(exit.to),
                edge: exit.side,
                map_edge: exit.map_edge,
                held_by: holder.map(|h| side_name(board, &h)),
                retire,
            }
        })
        .collect()
}

fn objectives(role: Role, h: &BattleHeader, capital_here: Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    match (role, h.city_attack) {
        (Role::Attacker, true) => out.push(format!(
            "Beat the army of {} and its allies: a city whose army is beaten comes over to you and its surviving commands become your allies (MG-07).",
            h.place
        )),
        (Role::Defender, true) => {
            out.push(format!("Defend {}: if its army is beaten the city goes over to the attacker (MG-07).", h.place));
        }
        (Role::Attacker, false) => {
            out.push("Break the enemy army: the beaten side must retreat from the node after the battle (MG-15).".to_owned());
        }
        (Role::Defender, false) => out.push(format!(
            "Hold {}: break the attacker's army and it must retreat the way it can; lose and you retreat (MG-15).",
            h.place
        )),
    }
    out.push(
        "Every enemy general killed and not recovered is a victory point; every element lost may be recovered on a 5 or 6, +2 for the side that holds the field (MG-30, MG-33)."
            .to_owned(),
    );
    if let Some(c) = capital_here {
        out.push(format!("{} is the capital of {c}: whoever holds it at the end scores it (MG-33).", h.place));
    }
    out
}

fn special_rules(h: &BattleHeader, has_allied: bool, neutral_city: Option<String>, leaderless: bool) -> Vec<String> {
    let mut out = vec![
        "Voluntary demoralisation: at the end of any of your bounds you may declare one of your own (not allied) commands demoralised. It stays so, and counts toward your army's collapse (MG-23).".to_owned(),
        "No loser: if night falls, both armies break in the same bound, or the players agree to stop, each side secretly writes stay or retire. If both stay there is a second day on the same ground (MG-25).".to_owned(),
        "Retiring: you can only retire off a table edge that has a road to a friendly or neutral node (see the road list). Elements leaving that way come back next turn; inferior elements fleeing off any edge count as destroyed and roll to recover (MG-26).".to_owned(),
    ];
    if has_allied {
        out.push(
            "Allied commands that are demoralised flee into their city; if the enemy holds the city they surrender to it (MG-24)."
                .to_owned(),
        );
    }
    if let Some(city) = neutral_city {
        out.push(format!(
            "{city} is neutral and stays out of the battle. If either side attacks the city during the battle, its army joins the other side at once as a committed ally (MG-08)."
        ));
    }
    if leaderless {
        out.push("A leaderless command fights as an army of a single command with no general; the first bound it loses an element it rolls for demoralisation as if its general had just fallen (MG-31).".to_owned());
    }
    if h.day > 1 {
        out.push("Second day: the armies stand where they ended the first day. Commands locked in combat may not be reorganised; new commands may join the side that moved. The defender may have shifted the field toward its own rear (MG-25).".to_owned());
    }
    out
}

/// One side's brief for a battle, from its own view and the public map only.
pub fn side_brief(view: &SideView, map: &Map, ground: &Ground, elements: &ElementTable, battle: u32) -> Result<Brief, PackError> {
    let board = &view.board;
    let mark = battle_mark(board, battle)?;
    let side = &view.side;
    let in_battle = std::iter::once(&mark.attacker).chain(&mark.defenders).any(|s| s == side);
    if !in_battle {
        return Err(PackError::NotInBattle { side: side.clone(), battle });
    }
    let h = header(board, map, mark);
    let role = role_of(board, mark, side);
    let city_status = mark.city.and_then(|n| board.node(n));
    let city_name = mark.city.map(|n| map.name(n));
    let city_ours = city_status.and_then(|s| s.allied_to.as_ref()).is_some_and(|a| board.on_same_side(side, a));
    let own = commands_at(&view.own, mark.node, battle, elements, if city_ours { city_name.as_ref() } else { None });
    let count_land = |s: &SideId| {
        u32::try_from(board.counters.iter().filter(|c| &c.side == s && c.node == mark.node && !c.fleet && !c.inside).count()).unwrap_or(0)
    };
    let in_it: Vec<&SideId> = std::iter::once(&mark.attacker).chain(&mark.defenders).collect();
    let friends =
        in_it.iter().filter(|s| **s != side && board.on_same_side(side, s)).map(|s| (side_name(board, s), count_land(s))).collect();
    let enemies = in_it.iter().filter(|s| !board.on_same_side(side, s)).map(|s| (side_name(board, s), count_land(s))).collect();
    let enemy_city = match (city_status, &city_name) {
        (Some(s), Some(name)) if !city_ours => Some((name.clone(), s.city_commands.unwrap_or(0))),
        _ => None,
    };
    // The city's army beside the reader, when the side it is allied to commands it.
    let friendly_city = match (city_status, &city_name) {
        (Some(s), Some(name)) if city_ours => {
            s.allied_to.as_ref().filter(|a| *a != side).map(|a| (name.clone(), s.city_commands.unwrap_or(0), side_name(board, a)))
        }
        _ => None,
    };
    let neutral_city = board.node(mark.node).filter(|s| s.city_commands.is_some() && s.allied_to.is_none() && s.controller.is_none());
    let capital_here = board.node(mark.node).and_then(|s| s.capital_of.as_ref()).map(|c| side_name(board, c));
    let has_allied = own.iter().any(|c| c.city.is_some() || c.roster.rank == Rank::AllyGeneral);
    let leaderless = own.iter().any(|c| c.leaderless);
    let base_edge = h.table.as_ref().map(|t| match role {
        Role::Attacker => t.attacker_edge,
        Role::Defender => t.attacker_edge.opposite(),
    });
    Ok(Brief {
        roads: roads_for(board, map, ground, h.section.as_ref(), side),
        objectives: objectives(role, &h, capital_here),
        special_rules: special_rules(&h, has_allied, neutral_city.map(|_| h.place.clone()), leaderless),
        side: side.clone(),
        side_name: side_name(board, side),
        role,
        base_edge,
        own,
        friends,
        enemies,
        enemy_city,
        friendly_city,
        header: h,
    })
}

/// The umpire's sheet: every side's commands in the battle, the table, its rolls, the log.
pub fn umpire_sheet(view: &UmpireView, map: &Map, ground: &Ground, elements: &ElementTable, battle: u32) -> Result<UmpireSheet, PackError> {
    let board = &view.board;
    let mark = battle_mark(board, battle)?;
    let h = header(board, map, mark);
    let city_name = mark.city.map(|n| map.name(n));
    let sides: Vec<(SideId, String, Role, Vec<CommandSheet>)> = std::iter::once(&mark.attacker)
        .chain(&mark.defenders)
        .map(|s| {
            let commands = view
                .forces
                .iter()
                .find(|f| &f.side == s)
                .map(|f| commands_at(f, mark.node, battle, elements, city_name.as_ref()))
                .unwrap_or_default();
            (s.clone(), side_name(board, s), role_of(board, mark, s), commands)
        })
        .collect();
    let roads = sides.iter().map(|(s, name, _, _)| (name.clone(), roads_for(board, map, ground, h.section.as_ref(), s))).collect();
    let tag = format!("Battle {battle} ");
    let log = view
        .log
        .iter()
        .filter(|l| l.text.contains(&tag) || l.text.contains(&format!("battle {battle} ")))
        .map(|l| l.text.clone())
        .collect();
    Ok(UmpireSheet { rolls: h.table.as_ref().map(|t| t.rolls.clone()).unwrap_or_default(), header: h, sides, log, roads })
}
