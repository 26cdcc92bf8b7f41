//! Events: what happened, in the past tense. Replaying a campaign's events in order rebuilds
//! its state exactly, with no dice and no data files.

use crate::core::log::{CampaignRenamed, CampaignStarted, DiceRolled, NoteAdded};
use serde::{Deserialize, Serialize};

use super::army::{Army, CommandRoster, ElementGroup};
use super::battle::{CommandAftermath, RetreatDue};
use super::map::Map;
use super::naval::NavalOutcome;
use super::scenario::Scenario;
use super::siege::Siege;
use super::table::BattleTable;
use super::turn::{Battle, Phase};
pub use crate::core::viewer::{Viewer, Visibility};
use crate::ids::{NodeId, SideId};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// The campaign began from a scenario, stored whole.
    CampaignStarted(CampaignStarted<Scenario>),
    /// Dice were rolled, by the generator or typed in.
    DiceRolled(DiceRolled),
    /// The umpire wrote a note in the campaign's log; only the umpire sees it.
    NoteAdded(NoteAdded),
    /// The campaign was given another name.
    CampaignRenamed(CampaignRenamed),
    /// A side's roster was replaced before play began (MG-03); only that side and the umpire
    /// learn what is in it.
    ArmyReplaced { army: Army },
    /// A counter was set up on the map before play (MG-02).
    CounterDeployed { side: SideId, counter: String, node: NodeId },
    /// Setup ended and the first player-turn began (MG-09).
    PlayBegan,
    /// A counter moved from a node along a path (MG-11).
    CounterMoved { side: SideId, counter: String, from: NodeId, path: Vec<NodeId> },
    /// Two commands in one node traded elements (MG-14); only their side sees which.
    ElementsExchanged { side: SideId, from: String, to: String, elements: Vec<ElementGroup> },
    /// Elements went into or out of a capital's garrison (MG-04); only their side sees which.
    GarrisonChanged { side: SideId, command: String, elements: Vec<ElementGroup>, into_garrison: bool },
    /// A command boarded its side's fleet (MG-14).
    CounterEmbarked { side: SideId, counter: String },
    /// A command left the fleet at the fleet's node (MG-14).
    CounterDisembarked { side: SideId, counter: String },
    /// A counter of a side that starts at sea came ashore (MG-36).
    CounterLanded { side: SideId, counter: String, node: NodeId },
    /// The moving side ended a phase of its player-turn (MG-09).
    PhaseEnded { side: SideId, phase: Phase },
    /// A fortified city became a side's ally (MG-06).
    CityJoined {
        node: NodeId,
        side: SideId,
        /// The node passes to the side with its city (MG-26: a beaten army may retire there).
        /// Campaigns stored before it did keep their nodes as they were: absent, it is false,
        /// and it is written only when true, so their logs print as they did.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        takes_node: bool,
    },
    /// Opposing counters met and a battle is due (MG-10, MG-20).
    BattleRaised { battle: Battle },
    /// The table for a battle's day is set, with its weather and time of day (MG-21, MG-22).
    TableSet { battle: u32, node: NodeId, table: BattleTable },
    /// Two fleets fought (MG-18); the dice are the events just before.
    NavalBattleFought { outcome: NavalOutcome },
    /// The owner chose the carried elements lost at sea (MG-18); only that side sees which.
    NavalLossesTaken { side: SideId, lost: Vec<(String, ElementGroup)>, sunk: Vec<String> },
    /// Two allied fleets joined as one under `commander` (MG-36).
    FleetsCombined { commander: SideId, partner: SideId, np: u32 },
    /// A side put its fleet under an ally's command, to be combined (MG-36); the two allies'
    /// business.
    FleetOffered { side: SideId, to: SideId },
    /// A fleet sheltered in a friendly walled port (MG-19).
    FleetSheltered { side: SideId, node: NodeId },
    /// Ships sheltered in a fallen city were destroyed; the taker salvaged some (MG-19).
    ShelteredFleetsLost { node: NodeId, besieger: SideId, fleets: Vec<(SideId, u32)>, salvaged: u32 },
    /// A beaten fleet retreated (MG-15).
    FleetRetreated { side: SideId, from: NodeId, path: Vec<NodeId> },
    /// A beaten fleet with nowhere to retreat was lost with all aboard (MG-15).
    FleetDestroyed { side: SideId, commands_lost: Vec<String> },
    /// A battle's result was entered and applied: recovery rolled (the dice are the events
    /// just before), lost commanders settled, the loser's retreats due (MG-30, MG-31, MG-15).
    BattleResolved { battle: u32, node: NodeId, winner: SideId, aftermath: Vec<CommandAftermath>, retreats: Vec<RetreatDue> },
    /// A battle ended without a loser (MG-25); recovery rolled with nobody holding the field.
    BattleDrawn { battle: u32, node: NodeId, aftermath: Vec<CommandAftermath> },
    /// A side wrote its stay-or-retire choice (MG-25); what it chose is secret until all are in.
    StayOrRetireChosen { battle: u32, side: SideId, stay: bool },
    /// The choices were revealed together (MG-25): retirers owe retreats, or a second day.
    ChoicesRevealed { battle: u32, choices: Vec<(SideId, bool)>, second_day: bool, retreats: Vec<RetreatDue> },
    /// The defender took every element inside its walls instead of the battle (MG-27); with
    /// no battle, marchers found an enemy capital held by its garrison alone and sat down
    /// before it.
    SiegeBegun {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        battle: Option<u32>,
        siege: Siege,
        inside: Vec<String>,
    },
    /// A siege roll failed to take the city (MG-28); an unmodified 1 brought disease (MG-29).
    SiegeRolled { node: NodeId, disease: bool },
    /// The besieger left or was driven off: the siege is over (MG-28).
    SiegeLifted { node: NodeId },
    /// The city fell to the siege: all inside are destroyed, the besieger loses a fifth of the
    /// defender's force (MG-28).
    CityFell {
        node: NodeId,
        besieger: SideId,
        defender: SideId,
        destroyed: Vec<String>,
        besieger_losses: u32,
        /// The defender's elements inside, of which the besieger loses a fifth, rounded up.
        #[serde(default)]
        defender_elements: u32,
        /// What the fall does beyond putting its own side out (MG-34); absent in campaigns
        /// stored before it was told.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        knock_on: Vec<KnockOn>,
    },
    /// An enemy capital taken (MG-32, MG-33): with nobody within its walls — no counter, no
    /// commands of its own, no garrison — by the side that ended its movement there, or with
    /// its own commands beaten in battle.
    CapitalTaken {
        node: NodeId,
        by: SideId,
        from: SideId,
        /// What the fall does beyond putting its own side out (MG-34).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        knock_on: Vec<KnockOn>,
    },
    /// Disease took a tenth of a side's force at a siege, rounded up (MG-29): of its whole
    /// force in the node, or of one command that marched through the node.
    DiseaseStruck {
        node: NodeId,
        side: SideId,
        elements: u32,
        /// The elements the tenth was taken of.
        #[serde(default)]
        of: u32,
        /// The command that caught it passing through, if it did not stay in the node.
        #[serde(default)]
        command: Option<String>,
    },
    /// The side chose which elements the siege or the disease took (MG-28, MG-29).
    SiegeLossesTaken { side: SideId, lost: Vec<(String, ElementGroup)>, sunk: Vec<String> },
    /// The besieged came out to fight (MG-27).
    SallyMade { side: SideId, node: NodeId },
    /// A Pyrrhic command left the map through Messena (MG-34).
    CommandExited { side: SideId, command: String, elements: u32 },
    /// A side attacked a neutral city, which turned to its enemy; the city's commands fight
    /// (MG-07).
    CityAttacked { battle: Battle, forces: Vec<CommandRoster> },
    /// Demoralised city commands fled into a city the enemy holds and surrendered; the city
    /// turns to `to` next campaign turn (MG-24).
    CityCommandsSurrendered { node: NodeId, commands: Vec<String>, to: SideId },
    /// A city's own commands took the field for the first time (MG-05).
    CityForcesMustered { node: NodeId, forces: Vec<CommandRoster> },
    /// The sides agreed to end the campaign (MG-32).
    CampaignEnded { reason: String },
    /// A beaten land counter retreated (MG-15).
    CounterRetreated { side: SideId, counter: String, from: NodeId, path: Vec<NodeId> },
    /// A command was destroyed: a beaten counter with nowhere to retreat (MG-15).
    CommandDestroyed { side: SideId, command: String, by: Option<SideId> },
    /// A side changed sides after its ally lost a land battle (MG-35).
    SidesSwitched { side: SideId, from: SideId, to: SideId },
    /// The umpire corrected who controls a node; the reason is the umpire's alone.
    ControlAdjusted { node: NodeId, from: Option<SideId>, to: Option<SideId>, reason: String },
}

/// What a city's fall does beyond putting its own side out of the campaign (MG-34).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum KnockOn {
    /// Another side goes out with it: Pyrrhus, once Syracuse is out and Messena lost.
    Out { side: SideId },
    /// A fleet passes to another side: Syracuse's to Pyrrhus.
    FleetTo { from: SideId, to: SideId },
}

impl Event {
    /// The log line `viewer` reads for this event, or `None` if the viewer may not see it.
    pub fn describe(&self, map: &Map, scenario: &Scenario, viewer: &Viewer) -> Option<String> {
        let side_name = |s: &Option<SideId>| {
            s.as_ref().map(|s| scenario.side(s).map_or_else(|| s.to_string(), |x| x.name.clone())).unwrap_or_else(|| "nobody".to_owned())
        };
        match self {
            Event::CampaignStarted(CampaignStarted { name, scenario, .. }) => {
                Some(format!("Campaign “{name}” begins: {} ({}), {} turns", scenario.name, scenario.period, scenario.turns))
            }
            Event::DiceRolled(rolled) => rolled.describe(viewer, |s| side_name(&Some(s.clone()))),
            Event::NoteAdded(note) => note.describe(viewer),
            Event::CampaignRenamed(renamed) => Some(renamed.describe()),
            Event::ArmyReplaced { army } => {
                let own = matches!(viewer, Viewer::Umpire) || viewer == &Viewer::Side(army.side.clone());
                own.then(|| {
                    format!(
                        "{}'s army is now {} ({} commands, {} points) — MG-03",
                        side_name(&Some(army.side.clone())),
                        army.list,
                        army.commands.len(),
                        scenario.elements.army_points(army)
                    )
                })
            }
            Event::CounterDeployed { side, counter, node } => {
                let who = side_name(&Some(side.clone()));
                Some(if owner_sees(viewer, side) {
                    format!("{who} deploys {} at {}", super::turn::counter_label(counter), map.name(*node))
                } else {
                    format!("{who} places a counter at {}", map.name(*node))
                })
            }
            Event::PlayBegan => Some(format!(
                "Play begins: turn 1, {} to move — MG-09",
                scenario.move_order.first().map_or_else(String::new, |s| side_name(&Some(s.clone())))
            )),
            Event::CounterMoved { side, counter, from, path } => {
                let who = side_name(&Some(side.clone()));
                let route: Vec<String> = std::iter::once(from).chain(path).map(|n| map.name(*n)).collect();
                let what = if owner_sees(viewer, side) {
                    super::turn::counter_label(counter)
                } else if counter == super::turn::FLEET {
                    "the fleet".to_owned()
                } else {
                    "a counter".to_owned()
                };
                Some(format!("{who}: {what} moves {}", route.join(" → ")))
            }
            Event::ElementsExchanged { side, from, to, elements } => Some(if owner_sees(viewer, side) {
                let list: Vec<String> = elements.iter().map(ToString::to_string).collect();
                format!("{}: {from} hands {} to {to} — MG-14", side_name(&Some(side.clone())), list.join(", "))
            } else {
                format!("{}: two commands exchange elements", side_name(&Some(side.clone())))
            }),
            // The garrison is kept off the map: the other sides learn nothing of it (MG-04).
            Event::GarrisonChanged { side, command, elements, into_garrison } => owner_sees(viewer, side).then(|| {
                let list: Vec<String> = elements.iter().map(ToString::to_string).collect();
                let way = if *into_garrison { "leaves in the capital's garrison" } else { "takes from the capital's garrison" };
                format!("{}: {command} {way} {} — MG-04", side_name(&Some(side.clone())), list.join(", "))
            }),
            Event::CounterEmbarked { side, counter } => Some(if owner_sees(viewer, side) {
                format!("{}: {counter} embarks on the fleet — MG-14", side_name(&Some(side.clone())))
            } else {
                format!("{}: a counter embarks on the fleet", side_name(&Some(side.clone())))
            }),
            Event::CounterDisembarked { side, counter } => Some(if owner_sees(viewer, side) {
                format!("{}: {counter} disembarks — MG-14", side_name(&Some(side.clone())))
            } else {
                format!("{}: a counter disembarks", side_name(&Some(side.clone())))
            }),
            Event::CounterLanded { side, counter, node } => Some(if owner_sees(viewer, side) {
                format!("{}: {} lands at {} — MG-36", side_name(&Some(side.clone())), super::turn::counter_label(counter), map.name(*node))
            } else {
                format!("{}: a counter lands at {}", side_name(&Some(side.clone())), map.name(*node))
            }),
            Event::PhaseEnded { side, phase } => Some(format!("{} ends {}", side_name(&Some(side.clone())), phase.name())),
            Event::CityJoined { node, side, .. } => Some(format!("{} joins {} — MG-06", map.name(*node), side_name(&Some(side.clone())))),
            Event::BattleRaised { battle } => {
                let defenders: Vec<String> = battle.defenders.iter().map(|d| side_name(&Some(d.clone()))).collect();
                Some(format!(
                    "Battle {} at {}: {} attacks {} — MG-10",
                    battle.id,
                    map.name(battle.node),
                    side_name(&Some(battle.attacker.clone())),
                    defenders.join(" and ")
                ))
            }
            Event::TableSet { battle, node, table } => Some(format!(
                "Battle {battle} at {}, day {}: {}; {}, starting {} — MG-21, MG-22",
                map.name(*node),
                table.day,
                table.describe(),
                table.weather,
                table.time_of_day
            )),
            Event::BattleResolved { battle, node, winner, aftermath, .. } => {
                let mut line = format!("Battle {battle} at {}: {} wins — MG-20", map.name(*node), side_name(&Some(winner.clone())));
                for a in aftermath {
                    let who = if owner_sees(viewer, &a.side) {
                        a.command.clone()
                    } else {
                        format!("a {} command", side_name(&Some(a.side.clone())))
                    };
                    let lost: u32 = a.lost.iter().map(|g| g.count).sum();
                    if owner_sees(viewer, &a.side) && lost > 0 {
                        // Elements destroyed and fled of one kind read as one group.
                        let mut groups: Vec<ElementGroup> = Vec::new();
                        for g in &a.lost {
                            match groups.iter_mut().find(|m| m.spec == g.spec) {
                                Some(m) => m.count += g.count,
                                None => groups.push(g.clone()),
                            }
                        }
                        let list: Vec<String> = groups.iter().map(ToString::to_string).collect();
                        line.push_str(&format!("; {who} loses {}", list.join(", ")));
                    }
                    if a.voluntary {
                        line.push_str(&format!("; {who} was declared demoralised — MG-23"));
                    }
                    if a.destroyed {
                        line.push_str(&format!("; {who} is destroyed"));
                    } else if a.general_lost {
                        line.push_str(&match (&a.joined, owner_sees(viewer, &a.side)) {
                            (Some(j), true) => format!("; {who}'s general is lost and his men join {j} — MG-31"),
                            (None, _) => format!("; {who}'s general is lost and it fights on leaderless — MG-31"),
                            (Some(_), false) => format!("; {who}'s general is lost — MG-31"),
                        });
                    }
                }
                Some(line)
            }
            // A siege begun without a battle is of a capital held by its garrison alone.
            Event::SiegeBegun { siege, battle: None, .. } => Some(format!(
                "{} finds {} held by {} garrison: it lays siege — MG-27",
                side_name(&Some(siege.besieger.clone())),
                map.name(siege.node),
                crate::core::words::possessive(&side_name(&Some(siege.defender.clone())))
            )),
            Event::SiegeBegun { siege, .. } => Some(format!(
                "{} withdraws inside the walls of {}: {} lays siege — MG-27",
                side_name(&Some(siege.defender.clone())),
                map.name(siege.node),
                side_name(&Some(siege.besieger.clone()))
            )),
            Event::SiegeRolled { node, disease } => Some(format!(
                "{} holds out{} — MG-28",
                map.name(*node),
                if *disease { "; disease breaks out in the siege lines (MG-29)" } else { "" }
            )),
            Event::CommandExited { side, command, .. } => Some(format!(
                "{}: {} sails home through Messena, 2 VP — MG-34",
                side_name(&Some(side.clone())),
                if owner_sees(viewer, side) { command.as_str() } else { "a command" }
            )),
            Event::CityAttacked { battle, .. } => Some(format!(
                "Battle {} at {}: {} attacks the city, which turns to {} — MG-07",
                battle.id,
                map.name(battle.node),
                side_name(&Some(battle.attacker.clone())),
                battle.defenders.first().map_or_else(String::new, |d| side_name(&Some(d.clone())))
            )),
            Event::CityCommandsSurrendered { node, commands, to } => Some(format!(
                "{} of {} flee into a city held by {} and surrender; it turns to {} next campaign turn — MG-24",
                commands.join(", "),
                map.name(*node),
                side_name(&Some(to.clone())),
                side_name(&Some(to.clone()))
            )),
            Event::CityForcesMustered { node, forces } => {
                let place = map.name(*node);
                Some(match forces.len() {
                    1 => format!("The command of {place} takes the field — MG-05"),
                    n => format!("The {n} commands of {place} take the field — MG-05"),
                })
            }
            Event::CampaignEnded { reason } => Some(format!("The campaign ends by agreement: {reason} — MG-32")),
            Event::SiegeLifted { node } => Some(format!("The siege of {} is lifted — MG-28", map.name(*node))),
            Event::CityFell { node, besieger, defender, besieger_losses, defender_elements, knock_on, .. } => {
                // A fifth of the garrison tells its size: the two sides at the siege know it
                // (the one lost it, the other counts its losses by it); the others do not.
                let losses = if owner_sees(viewer, besieger) || owner_sees(viewer, defender) {
                    let share = if *defender_elements > 0 {
                        format!(" (20 % of the {defender_elements} inside = {}, rounded up)", fraction(*defender_elements, 5))
                    } else {
                        String::new()
                    };
                    format!("the besieger loses {}{share}", crate::core::words::count(*besieger_losses, "element"))
                } else {
                    "the besieger takes its losses".to_owned()
                };
                let mut line = format!(
                    "{} falls to {}: all inside are destroyed; {losses} — MG-28",
                    map.name(*node),
                    side_name(&Some(besieger.clone()))
                );
                for s in scenario.out_with_capital(*node, besieger) {
                    line.push_str(&format!("; {} has lost its capital and is out of the campaign — MG-32", s.name));
                }
                line.push_str(&knock_on_text(knock_on, &side_name));
                Some(line)
            }
            Event::CapitalTaken { node, by, from, knock_on } => {
                let mut line = format!(
                    "{} takes {}, {} capital — MG-32",
                    side_name(&Some(by.clone())),
                    map.name(*node),
                    crate::core::words::possessive(&side_name(&Some(from.clone())))
                );
                for s in scenario.out_with_capital(*node, by) {
                    line.push_str(&format!("; {} has lost its capital and is out of the campaign", s.name));
                }
                line.push_str(&knock_on_text(knock_on, &side_name));
                Some(line)
            }
            Event::DiseaseStruck { node, side, elements, of, command } => {
                let who = side_name(&Some(side.clone()));
                // The number lost tells the force's size: its own side and the umpire read it.
                Some(match (owner_sees(viewer, side), command) {
                    (true, Some(c)) => format!(
                        "Disease at {}: {c} catches it marching through and loses {}, to be chosen — MG-29",
                        map.name(*node),
                        tenth(*elements, *of)
                    ),
                    (true, None) => format!("Disease at {}: {who} loses {}, to be chosen — MG-29", map.name(*node), tenth(*elements, *of)),
                    (false, _) => format!("Disease at {}: it strikes {who} — MG-29", map.name(*node)),
                })
            }
            Event::SiegeLossesTaken { side, lost, sunk } => Some(if owner_sees(viewer, side) {
                format!("{}: lost to siege or disease: {}", side_name(&Some(side.clone())), losses_text(lost, sunk))
            } else {
                format!("{}: takes its losses", side_name(&Some(side.clone())))
            }),
            Event::SallyMade { side, node } => {
                Some(format!("{} sallies out of {} — MG-27", side_name(&Some(side.clone())), map.name(*node)))
            }
            Event::BattleDrawn { battle, node, .. } => {
                Some(format!("Battle {battle} at {} ends without a loser; each side now writes stay or retire — MG-25", map.name(*node)))
            }
            Event::StayOrRetireChosen { side, stay, .. } => Some(if owner_sees(viewer, side) {
                format!(
                    "{} writes: {} (secret until every side has chosen) — MG-25",
                    side_name(&Some(side.clone())),
                    if *stay { "stay" } else { "retire" }
                )
            } else {
                format!("{} has written its choice — MG-25", side_name(&Some(side.clone())))
            }),
            Event::ChoicesRevealed { battle, choices, second_day, .. } => {
                let said: Vec<String> = choices
                    .iter()
                    .map(|(s, stay)| format!("{} {}", side_name(&Some(s.clone())), if *stay { "stays" } else { "retires" }))
                    .collect();
                let then = if *second_day { "; the battle goes on to a second day" } else { "" };
                Some(format!("Battle {battle}: {}{then} — MG-25", said.join(", ")))
            }
            Event::SidesSwitched { side, from, to } => Some(format!(
                "{} turns from {} to {} — MG-35",
                side_name(&Some(side.clone())),
                side_name(&Some(from.clone())),
                side_name(&Some(to.clone()))
            )),
            Event::CounterRetreated { side, counter, from, path } => {
                let route: Vec<String> = std::iter::once(from).chain(path).map(|n| map.name(*n)).collect();
                let what = if owner_sees(viewer, side) { counter.clone() } else { "a counter".to_owned() };
                Some(format!("{}: {what} retreats {} — MG-15", side_name(&Some(side.clone())), route.join(" → ")))
            }
            Event::CommandDestroyed { side, command, .. } => {
                let what = if owner_sees(viewer, side) { command.clone() } else { "a command".to_owned() };
                Some(format!("{}: {what} has nowhere to retreat and is destroyed — MG-15", side_name(&Some(side.clone()))))
            }
            Event::NavalBattleFought { outcome } => {
                let loser = side_name(&Some(outcome.loser.clone()));
                // Everyone learns the NPs sunk for good, which count for victory (MG-33); only
                // the loser learns how many went down in the fight and came back (MG-30).
                let lost = if owner_sees(viewer, &outcome.loser) {
                    format!("{} NP, of which it recovers {}", outcome.np_lost, outcome.np_recovered)
                } else {
                    format!("{} NP", outcome.np_sunk())
                };
                let mut line = format!(
                    "Naval battle at {}: {} beats {loser}, who loses {lost} — MG-18",
                    map.name(outcome.node),
                    side_name(&Some(outcome.winner.clone())),
                );
                if outcome.fleet_destroyed {
                    line.push_str(&format!("; the {loser} fleet sinks with all aboard"));
                } else if outcome.elements_to_lose > 0 && owner_sees(viewer, &outcome.loser) {
                    line.push_str(&format!("; {} carried elements go down, {loser} to choose which", outcome.elements_to_lose));
                }
                Some(line)
            }
            Event::NavalLossesTaken { side, lost, sunk } => Some(if owner_sees(viewer, side) {
                format!("{}: lost at sea: {} — MG-18", side_name(&Some(side.clone())), losses_text(lost, sunk))
            } else {
                format!("{}: carried elements are lost at sea", side_name(&Some(side.clone())))
            }),
            Event::FleetOffered { side, to } => (owner_sees(viewer, side) || owner_sees(viewer, to)).then(|| {
                format!(
                    "{} puts its fleet under {} command, to be combined when {} chooses — MG-36",
                    side_name(&Some(side.clone())),
                    crate::core::words::possessive(&side_name(&Some(to.clone()))),
                    side_name(&Some(to.clone()))
                )
            }),
            Event::FleetsCombined { commander, partner, np } => {
                // The partner's NPs are the two allies' business, not their enemy's.
                let strength =
                    if owner_sees(viewer, commander) || owner_sees(viewer, partner) { format!(" ({np} NP)") } else { String::new() };
                Some(format!(
                    "The {} fleet{strength} joins the {} fleet under {}'s command — MG-36",
                    side_name(&Some(partner.clone())),
                    side_name(&Some(commander.clone())),
                    side_name(&Some(commander.clone()))
                ))
            }
            Event::FleetSheltered { side, node } => {
                Some(format!("{}: the fleet shelters in {} — MG-19", side_name(&Some(side.clone())), map.name(*node)))
            }
            Event::ShelteredFleetsLost { node, besieger, fleets, salvaged } => {
                let lost: Vec<String> = fleets.iter().map(|(s, np)| format!("{} NP of {}", np, side_name(&Some(s.clone())))).collect();
                // What is salvaged joins the taker's fleet, whose strength is its secret.
                let salvage = if owner_sees(viewer, besieger) {
                    format!("{} salvages {salvaged} NP", side_name(&Some(besieger.clone())))
                } else {
                    format!("{} rolls to salvage them", side_name(&Some(besieger.clone())))
                };
                Some(format!("The ships sheltered in {} are destroyed ({}); {salvage} — MG-19", map.name(*node), lost.join(", ")))
            }
            Event::FleetRetreated { side, from, path } => {
                let route: Vec<String> = std::iter::once(from).chain(path).map(|n| map.name(*n)).collect();
                Some(format!("{}: the beaten fleet retreats {} — MG-15", side_name(&Some(side.clone())), route.join(" → ")))
            }
            Event::FleetDestroyed { side, .. } => {
                Some(format!("{}: the beaten fleet has nowhere to retreat and is lost — MG-15", side_name(&Some(side.clone()))))
            }
            Event::ControlAdjusted { node, from, to, reason } => {
                let line = format!("{} passes from {} to {}", map.name(*node), side_name(from), side_name(to));
                Some(match viewer {
                    Viewer::Umpire => format!("{line} (umpire: {reason})"),
                    Viewer::Side(_) => line,
                })
            }
        }
    }
}

/// "1 element (10 % of 12 = 1.2, rounded up)": a share of a force, as MG-28 and MG-29 take
/// them, always rounded up.
fn tenth(elements: u32, of: u32) -> String {
    let noun = if elements == 1 { "element" } else { "elements" };
    if of == 0 {
        return format!("{elements} {noun}");
    }
    format!("{elements} {noun} (10 % of {of} = {}, rounded up)", fraction(of, 10))
}

/// `n / d` in decimals, as a referee would write it: "1.2", "4".
fn fraction(n: u32, d: u32) -> String {
    let whole = n / d;
    let rest = n % d;
    if rest == 0 {
        return whole.to_string();
    }
    // d is 5 or 10 here, so one decimal is exact.
    format!("{whole}.{}", rest * 10 / d)
}

/// Whether `viewer` may know what a counter of `side` is.
fn owner_sees(viewer: &Viewer, side: &SideId) -> bool {
    match viewer {
        Viewer::Umpire => true,
        Viewer::Side(s) => s == side,
    }
}

/// What a fall does beyond its own side's, in the words of the log line it ends.
fn knock_on_text(knock_on: &[KnockOn], side_name: &dyn Fn(&Option<SideId>) -> String) -> String {
    knock_on
        .iter()
        .map(|k| match k {
            KnockOn::Out { side } => format!("; {} is out of the campaign — MG-34", side_name(&Some(side.clone()))),
            KnockOn::FleetTo { from, to } => format!(
                "; {} fleet passes to {} — MG-34",
                crate::core::words::possessive(&side_name(&Some(from.clone()))),
                side_name(&Some(to.clone()))
            ),
        })
        .collect()
}

/// Elements lost by command, then the commands lost whole: "2 Sp of Himilco, all of Mago".
fn losses_text(lost: &[(String, ElementGroup)], sunk: &[String]) -> String {
    let parts: Vec<String> = lost.iter().map(|(c, g)| format!("{g} of {c}")).chain(sunk.iter().map(|c| format!("all of {c}"))).collect();
    parts.join(", ")
}

crate::core::log::started_from!(Event, Scenario);

/// A Magna Graecia event as stored.
pub type Logged = crate::core::engine::Logged<Event>;
