//! Commands: what the umpire or a player asks for, in the imperative. The rules turn a
//! command into events or refuse it.

use crate::core::log::{AddNote, RenameCampaign, RollDice};
use crate::core::rule::RuleId;
use serde::{Deserialize, Serialize};

use super::army::{Army, ElementGroup};
use super::battle::BattleResult;
use super::map::Edge;
use super::table::{Defence, Flank};
use crate::ids::{NodeId, SideId};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum Order {
    /// Roll dice for a purpose the umpire names, logged like any roll the rules make.
    RollDice(RollDice),
    /// Write a note in the log that only the umpire sees.
    AddNote(AddNote),
    /// Give the campaign another name.
    RenameCampaign(RenameCampaign),
    /// Replace a side's roster before play begins (MG-03).
    SetArmy { army: Army },
    /// Set a counter (a command by name, or `fleet`) on the map before play (MG-02).
    Deploy { side: SideId, counter: String, node: NodeId },
    /// End setup and begin the first player-turn (MG-09).
    BeginPlay {},
    /// Move a counter of the moving side along a path of nodes (MG-11).
    Move { side: SideId, counter: String, path: Vec<NodeId> },
    /// Hand elements from one command to another in the same node (MG-14).
    Exchange { side: SideId, from: String, to: String, elements: Vec<ElementGroup> },
    /// Leave elements of a command at its side's strength-0 capital in the garrison, or take
    /// them back out (`into_garrison: false`) (MG-04).
    Garrison { side: SideId, command: String, elements: Vec<ElementGroup>, into_garrison: bool },
    /// Put a command aboard its side's fleet in the same node (MG-14, MG-17).
    Embark { side: SideId, counter: String },
    /// Take a command off the fleet where the fleet is (MG-14).
    Disembark { side: SideId, counter: String },
    /// Bring a counter of a side that starts at sea ashore on its first turn, before whose
    /// movement ends every counter must have landed (MG-36).
    Land { side: SideId, counter: String, node: NodeId },
    /// Choose the carried elements lost at sea after a naval defeat (MG-18): groups from
    /// commands aboard, and commands lost whole with their general.
    AllocateNavalLosses {
        side: SideId,
        #[serde(default)]
        lost: Vec<(String, ElementGroup)>,
        #[serde(default)]
        sunk: Vec<String>,
    },
    /// Join an ally's fleet in the same node to this side's, under this side, once the ally
    /// has put its fleet under this side's command (`offer_fleet`, MG-36).
    CombineFleets { side: SideId, with: SideId },
    /// Put the side's fleet under an ally's command, to be joined to the ally's when the ally
    /// combines them in its movement phase: the allies choose together (MG-36).
    OfferFleet { side: SideId, to: SideId },
    /// Shelter the side's fleet in the friendly walled port where it lies (MG-19).
    Shelter { side: SideId },
    /// Retreat a beaten fleet along a path in post-combat movement (MG-15).
    RetreatFleet { side: SideId, path: Vec<NodeId> },
    /// Enter a battle's result after the tabletop game (MG-20, MG-30, MG-31).
    RecordBattleResult { result: BattleResult },
    /// Retreat a beaten land counter along a path in post-combat movement (MG-15).
    Retreat { side: SideId, counter: String, path: Vec<NodeId> },
    /// Take every element inside the city's walls instead of fighting the battle (MG-27).
    WithdrawIntoCity { side: SideId, battle: u32 },
    /// Choose the elements a fallen city's siege or disease took (MG-28, MG-29).
    AllocateSiegeLosses {
        side: SideId,
        #[serde(default)]
        lost: Vec<(String, ElementGroup)>,
        #[serde(default)]
        sunk: Vec<String>,
    },
    /// Lead a Pyrrhic command off the map through Messena (MG-34).
    ExitMap { side: SideId, counter: String },
    /// Attack the neutral city where the side's counters stand; it turns to `ally`, an enemy
    /// of the attacker, and its commands fight (MG-07).
    AttackCity { side: SideId, node: NodeId, ally: SideId },
    /// End the campaign early, as the sides agree (MG-32).
    EndCampaign { reason: String },
    /// The besieged come out to fight (MG-27).
    Sally { side: SideId, node: NodeId },
    /// Set the table for a battle's day: the defender's section, the attacker's cut for a
    /// 4'×6' table, and the attacker's edge where it did not come in by road; rolls the
    /// weather and time of day (MG-21, MG-22, MG-25).
    SetUpTable {
        battle: u32,
        defence: Defence,
        #[serde(default)]
        cut: Option<Flank>,
        #[serde(default)]
        attacker_edge: Option<Edge>,
    },
    /// Write a side's secret choice after a battle without a loser (MG-25).
    ChooseStayOrRetire { side: SideId, battle: u32, stay: bool },
    /// Change sides while the offer stands after the side's ally lost a land battle (MG-35).
    SwitchSides { side: SideId, to: SideId },
    /// End the moving side's current phase (MG-09).
    EndPhase { side: SideId },
    /// Correct who controls a node (`side: None` leaves it uncontrolled).
    AdjustControl { node: NodeId, side: Option<SideId>, reason: String },
}

impl Order {
    /// The side whose order this is; `None` for the referee's: rolls and notes, the start of
    /// play, a table set, a battle's result, the campaign's end, a correction of control.
    pub fn side(&self) -> Option<&SideId> {
        match self {
            Order::SetArmy { army } => Some(&army.side),
            Order::Deploy { side, .. }
            | Order::Move { side, .. }
            | Order::Exchange { side, .. }
            | Order::Garrison { side, .. }
            | Order::Embark { side, .. }
            | Order::Disembark { side, .. }
            | Order::Land { side, .. }
            | Order::AllocateNavalLosses { side, .. }
            | Order::CombineFleets { side, .. }
            | Order::OfferFleet { side, .. }
            | Order::Shelter { side }
            | Order::RetreatFleet { side, .. }
            | Order::Retreat { side, .. }
            | Order::WithdrawIntoCity { side, .. }
            | Order::AllocateSiegeLosses { side, .. }
            | Order::ExitMap { side, .. }
            | Order::AttackCity { side, .. }
            | Order::Sally { side, .. }
            | Order::ChooseStayOrRetire { side, .. }
            | Order::SwitchSides { side, .. }
            | Order::EndPhase { side } => Some(side),
            Order::RollDice(RollDice { .. })
            | Order::AddNote(AddNote { .. })
            | Order::RenameCampaign(RenameCampaign { .. })
            | Order::BeginPlay {}
            | Order::RecordBattleResult { .. }
            | Order::EndCampaign { .. }
            | Order::SetUpTable { .. }
            | Order::AdjustControl { .. } => None,
        }
    }

    /// One line for the `commands.summary` column, the undo message and a player's plan,
    /// with the nodes labelled from `map`, the sides named by `name` and a battle placed at
    /// the node `battle_at` gives it: "move Carthage's Himilco to 09 Cephaloedium by 08
    /// Himera", "enter the result of battle 3 at Himera".
    pub fn summary(&self, map: &super::map::Map, name: &dyn Fn(&SideId) -> String, battle_at: &dyn Fn(u32) -> Option<NodeId>) -> String {
        use crate::core::words::{and_list, possessive, the_side};
        let whose = |s: &SideId| possessive(&name(s));
        let side = |s: &SideId| the_side(&name(s));
        let node = |n: &NodeId| map.node(*n).map_or_else(|| n.to_string(), super::map::Node::label);
        // "battle 3 at Himera", or "battle 3" for one the reader does not know.
        let battle = |id: u32| battle_at(id).map_or_else(|| format!("battle {id}"), |n| format!("battle {id} at {}", map.name(n)));
        // "to 08 Himera", and the nodes on the way: "to 09 Cephaloedium by 04 Panormus and 08
        // Himera".
        let to = |path: &[NodeId]| match path.split_last() {
            None => "with no route".to_owned(),
            Some((last, [])) => format!("to {}", node(last)),
            Some((last, by)) => format!("to {} by {}", node(last), and_list(&by.iter().map(node).collect::<Vec<_>>())),
        };
        match self {
            Order::RollDice(RollDice { dice, purpose, .. }) => format!("roll {dice} for {purpose}"),
            Order::AddNote(AddNote { .. }) => "add a note".to_owned(),
            Order::RenameCampaign(RenameCampaign { name }) => format!("rename the campaign “{}”", name.trim()),
            Order::SetArmy { army } => format!("replace {} army", whose(&army.side)),
            Order::Deploy { side: s, counter, node: n } => format!("deploy {} {counter} at {}", whose(s), node(n)),
            Order::BeginPlay {} => "begin play".to_owned(),
            Order::Move { side: s, counter, path } => format!("move {} {counter} {}", whose(s), to(path)),
            Order::EndPhase { side: s } => format!("end {} phase", whose(s)),
            Order::AllocateNavalLosses { side: s, .. } => format!("choose {} losses at sea", whose(s)),
            Order::RetreatFleet { side: s, path } => format!("retreat {} fleet {}", whose(s), to(path)),
            Order::Shelter { side: s } => format!("shelter {} fleet", whose(s)),
            Order::CombineFleets { side: s, with } => format!("combine {} fleet with {}", whose(with), whose(s)),
            Order::OfferFleet { side: s, to } => format!("put {} fleet under {} command", whose(s), whose(to)),
            Order::SetUpTable { battle: id, defence, .. } => format!("set the table of {} ({defence} defence)", battle(*id)),
            Order::RecordBattleResult { result } => format!("enter the result of {}", battle(result.battle)),
            Order::Retreat { side: s, counter, path } => format!("retreat {} {counter} {}", whose(s), to(path)),
            Order::SwitchSides { side: s, to } => format!("{} changes sides to {}", side(s), side(to)),
            Order::ChooseStayOrRetire { side: s, battle: id, stay } => {
                format!("{} chooses to {} {}", side(s), if *stay { "stay in" } else { "retire from" }, battle(*id))
            }
            Order::WithdrawIntoCity { side: s, battle: id } => format!("{} withdraws into the city at {}", side(s), battle(*id)),
            Order::AllocateSiegeLosses { side: s, .. } => format!("choose {} siege losses", whose(s)),
            Order::Sally { side: s, node: n } => format!("{} sallies at {}", side(s), node(n)),
            Order::EndCampaign { .. } => "end the campaign by agreement".to_owned(),
            Order::AttackCity { side: s, node: n, .. } => format!("{} attacks the city at {}", side(s), node(n)),
            Order::ExitMap { side: s, counter } => format!("{} leads {counter} off the map", side(s)),
            Order::Embark { side: s, counter } => format!("embark {} {counter}", whose(s)),
            Order::Garrison { side: s, command, into_garrison, .. } => {
                if *into_garrison {
                    format!("reinforce {} garrison from {command}", whose(s))
                } else {
                    format!("draw on {} garrison for {command}", whose(s))
                }
            }
            Order::Exchange { side: s, from, to, .. } => format!("exchange {} elements from {from} to {to}", whose(s)),
            Order::Disembark { side: s, counter } => format!("disembark {} {counter}", whose(s)),
            Order::Land { side: s, counter, node: n } => format!("land {} {counter} at {}", whose(s), node(n)),
            Order::AdjustControl { node: n, side: s, .. } => match s {
                Some(s) => format!("give {} to {}", node(n), side(s)),
                None => format!("leave {} uncontrolled", node(n)),
            },
        }
    }
}

impl Order {
    /// Every name the order gives (sides, counters, commands), with the field it is in, so
    /// that an empty one is refused by naming its field rather than with a sentence that
    /// has a hole where the name should be.
    fn names(&self) -> Vec<(String, &str)> {
        let mut out: Vec<(String, &str)> = self.sides().into_iter().map(|(field, s)| (field, s.as_str())).collect();
        self.counter_names(&mut out);
        out
    }

    /// Every side the order names, with its field.
    pub fn sides(&self) -> Vec<(String, &SideId)> {
        let mut out: Vec<(String, &SideId)> = Vec::new();
        macro_rules! side {
            ($field:expr, $s:expr) => {
                out.push(($field.to_string(), $s))
            };
        }
        match self {
            Order::RollDice(RollDice { side: Some(s), .. }) => side!("side", s),
            Order::SetArmy { army } => side!("army.side", &army.side),
            Order::Deploy { side: s, .. }
            | Order::Move { side: s, .. }
            | Order::Exchange { side: s, .. }
            | Order::Garrison { side: s, .. }
            | Order::Embark { side: s, .. }
            | Order::Disembark { side: s, .. }
            | Order::Land { side: s, .. }
            | Order::AllocateNavalLosses { side: s, .. }
            | Order::Shelter { side: s }
            | Order::RetreatFleet { side: s, .. }
            | Order::Retreat { side: s, .. }
            | Order::WithdrawIntoCity { side: s, .. }
            | Order::AllocateSiegeLosses { side: s, .. }
            | Order::ExitMap { side: s, .. }
            | Order::Sally { side: s, .. }
            | Order::ChooseStayOrRetire { side: s, .. }
            | Order::EndPhase { side: s } => side!("side", s),
            Order::CombineFleets { side: s, with } => {
                side!("side", s);
                side!("with", with);
            }
            Order::OfferFleet { side: s, to } => {
                side!("side", s);
                side!("to", to);
            }
            Order::AttackCity { side: s, ally, .. } => {
                side!("side", s);
                side!("ally", ally);
            }
            Order::SwitchSides { side: s, to } => {
                side!("side", s);
                side!("to", to);
            }
            Order::AdjustControl { side: Some(s), .. } => side!("side", s),
            Order::RecordBattleResult { result } => {
                if let super::battle::Outcome::Won { winner } = &result.outcome {
                    side!("outcome.winner", winner);
                }
                if let Some(h) = &result.held_field {
                    side!("held_field", h);
                }
                if let Some(by) = &result.city_attacked_by {
                    side!("city_attacked_by", by);
                }
                for s in result.open_roads.keys() {
                    side!("open_roads", s);
                }
                for (i, l) in result.losses.iter().enumerate() {
                    side!(&format!("losses[{i}].side"), &l.side);
                }
            }
            _ => {}
        }
        out
    }

    /// Every counter, command or city the order names, with its field.
    fn counter_names<'a>(&'a self, out: &mut Vec<(String, &'a str)>) {
        match self {
            Order::Deploy { counter, .. }
            | Order::Move { counter, .. }
            | Order::Embark { counter, .. }
            | Order::Disembark { counter, .. }
            | Order::Land { counter, .. }
            | Order::Retreat { counter, .. }
            | Order::ExitMap { counter, .. } => out.push(("counter".to_owned(), counter)),
            Order::Exchange { from, to, .. } => {
                out.push(("from".to_owned(), from));
                out.push(("to".to_owned(), to));
            }
            Order::Garrison { command, .. } => out.push(("command".to_owned(), command)),
            Order::AllocateNavalLosses { lost, sunk, .. } | Order::AllocateSiegeLosses { lost, sunk, .. } => {
                out.extend(lost.iter().enumerate().map(|(i, (name, _))| (format!("lost[{i}]"), name.as_str())));
                out.extend(sunk.iter().enumerate().map(|(i, name)| (format!("sunk[{i}]"), name.as_str())));
            }
            Order::SetArmy { army } => {
                out.extend(army.commands.iter().enumerate().map(|(i, c)| (format!("army.commands[{i}].name"), c.name.as_str())));
            }
            Order::RecordBattleResult { result } => {
                for (i, l) in result.losses.iter().enumerate() {
                    out.push((format!("losses[{i}].command"), &l.command));
                    if let Some(j) = &l.join {
                        out.push((format!("losses[{i}].join"), j));
                    }
                }
            }
            _ => {}
        }
    }

    /// Refuses an order with an empty name in it, naming the field.
    pub fn check_names(&self) -> Result<(), crate::core::error::RuleError> {
        match self.names().into_iter().find(|(_, name)| name.trim().is_empty()) {
            Some((field, _)) => {
                Err(crate::core::error::RuleError::new(RuleId::X_06, format!("the order's `{field}` is empty: it must name something")))
            }
            None => Ok(()),
        }
    }
}

crate::core::log::referee_orders!(Order);
