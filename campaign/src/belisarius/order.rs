//! Orders a referee gives a Belisarius campaign, as the command line and the app write them.

use crate::core::log::{AddNote, RenameCampaign, RollDice};
use serde::{Deserialize, Serialize};

use crate::ids::SideId;

/// One order. Its JSON form, `{"type": "place", …}`, is the command line's interface.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum Order {
    /// Roll dice for a purpose the referee names, seen by all or kept to one side.
    RollDice(RollDice),
    /// A note in the log, for the referee alone.
    AddNote(AddNote),
    /// Give the campaign another name (X-03).
    RenameCampaign(RenameCampaign),
    /// Put pieces of one of a side's free set-up lines where the player chose: a zone, a
    /// city or a sea zone, by id (BE-49…BE-52). With no part named, the whole of what is left
    /// of the line goes there; naming leaders, units, decoys or fleets places that part, and
    /// the rest of the line stays to be placed elsewhere.
    Place {
        side: SideId,
        /// The line's number, as `roster` lists the lines still to place (from 1).
        line: u32,
        at: String,
        /// Leaders of the line, by id.
        #[serde(default)]
        leaders: Option<Vec<String>>,
        /// Units of the line, by their number in `roster` (from 1).
        #[serde(default)]
        units: Option<Vec<u32>>,
        #[serde(default)]
        decoys: Option<u32>,
        /// Fleets of the line, by their number in `roster` (from 1).
        #[serde(default)]
        fleets: Option<Vec<u32>>,
        #[serde(default)]
        fleet_decoys: Option<u32>,
    },
    /// Set-up is over: every free line is placed and the scenario's required places are
    /// held.
    BeginPlay {},
    /// The operations phase begins: each side draws its AP chit blind (the Byzantines
    /// first; a stratagem is kept and another drawn), and the first player is rolled for
    /// (BE-04, BE-05). Typed in: the chits drawn from a real cup, then the initiative dice.
    BeginOperations {},
    /// In its segment, a side activates one of its leaders, with inferior leaders of his
    /// zone going with him (BE-06, BE-07).
    Activate {
        side: SideId,
        /// The leader's id, as `roster` lists it.
        leader: String,
        #[serde(default)]
        with: Vec<String>,
    },
    /// `activate` and `move` in one order: the leader is activated, with `with`, and marches
    /// at once through `path` (BE-06, BE-07, BE-10, BE-12). Nothing is known between the two
    /// that the other side could answer, so one order tells it no more than two.
    ActivateAndMove {
        side: SideId,
        leader: String,
        #[serde(default)]
        with: Vec<String>,
        path: Vec<String>,
        #[serde(default)]
        attrition_from: Vec<u32>,
    },
    /// The acting leader marches his force, with the leaders activated with him, through
    /// these land zones, by id, one after the other (BE-10, BE-12, BE-46). The march's
    /// attrition is taken at once, point by point from the units `attrition_from` names (by
    /// their number in the force: the leader's box first, then each leader with him, from
    /// 1), in that order, then from the others in the force's order.
    Move {
        side: SideId,
        leader: String,
        path: Vec<String>,
        #[serde(default)]
        attrition_from: Vec<u32>,
    },
    /// The side takes the points it owes: in a battle, by each unit's number in the battle
    /// (BE-19, BE-22; see the battle's roster); after a march, by its number in the force
    /// that marched, the leader's box first (BE-12). Each entry a unit's number, from 1, and
    /// the points it loses.
    /// After an assault, each side takes what it owes from its units as the siege numbers
    /// them (see `show`): the attacker's from the force that stormed, the defender's from
    /// everyone in the city, with `militia` points taken by the city's militia (BE-25, BE-27);
    /// after a sortie, from the units that fought (BE-28); in the supply phase, from the
    /// force that went hungry (BE-41).
    TakeLosses {
        side: SideId,
        losses: Vec<(u32, u8)>,
        #[serde(default)]
        militia: u8,
    },
    /// The acting leader lays siege to the enemy city of the zone he stands in (1 AP, BE-24).
    Besiege { side: SideId, leader: String },
    /// The acting leader storms the city he besieges: free with the siege's declaring, 1 AP
    /// later (BE-27). Ships of the side off a port may support it, for 1 AP more (BE-39).
    Assault {
        side: SideId,
        leader: String,
        #[serde(default)]
        ships: Vec<String>,
    },
    /// The acting leader builds works: siege works at his siege, defence works at a city his
    /// side holds (BE-32).
    BuildWorks {
        side: SideId,
        leader: String,
        works: super::siege::Works,
        #[serde(default = "one")]
        count: u8,
    },
    /// The acting leader pulls down the walls and works of a city his side holds (1 AP,
    /// BE-32).
    DestroyFortifications { side: SideId, leader: String },
    /// The acting leader, at a siege he is making, plays the side's Treachery stratagem
    /// (BE-43).
    #[serde(rename = "treachery")]
    AttemptTreachery { side: SideId, leader: String },
    /// A side tries to intercept at a contact: the other side aims at the force that marched
    /// in; the mover names the enemy marker of the open zone by its number (BE-13 … BE-16).
    /// Several leaders make one combined attempt under the highest-ranked (BE-15).
    /// `reconnaissance` plays that stratagem for two columns, or takes a decoy (BE-43).
    Intercept {
        side: SideId,
        leaders: Vec<String>,
        #[serde(default)]
        target: Option<u32>,
        #[serde(default)]
        reconnaissance: bool,
    },
    /// A side makes no (more) interception attempts at the contact (BE-13).
    Decline { side: SideId },
    /// Both sides having failed, a side agrees to a battle in line (BE-13).
    AgreeToBattle { side: SideId },
    /// A side plays Reconnaissance to turn one enemy marker of a zone face up for itself,
    /// numbered among the enemy markers there, the open zone's first (BE-43).
    Reconnoitre { side: SideId, zone: String, marker: u32 },
    /// At the start of operations, a decoy out of play comes back beside one of the side's
    /// leaders, at the place (zone or city) named by id — or, with `fleet`, a fleet decoy
    /// beside one of its ships, at sea or in port (BE-42).
    ReturnDecoy {
        side: SideId,
        at: String,
        #[serde(default)]
        fleet: bool,
    },
    /// Ships of one place sail along `path`: sea zones by id, and at the end perhaps a port
    /// the side holds (BE-33). One ship costs 1 AP, several 2.
    Sail { side: SideId, ships: Vec<String>, path: Vec<String> },
    /// The side not sailing intercepts the ships that sailed in, with its ships there (BE-35).
    InterceptAtSea { side: SideId, ships: Vec<String> },
    /// The side not sailing lets the ships pass (BE-35).
    LetPass { side: SideId },
    /// The naval battle's next passage of arms (BE-36).
    FightAtSea {},
    /// After a passage, a side's ships retire to a sea zone beside the battle or a port of
    /// its own on the battle's sea (BE-36).
    RetireAtSea { side: SideId, to: String },
    /// The acting force boards ships of its side in its zone's port or off its coast (BE-37).
    Embark { side: SideId, leader: String, ships: Vec<String> },
    /// The acting force, aboard, lands in a zone or a port city its ships are beside (BE-37).
    Land { side: SideId, leader: String, at: String },
    /// The events phase: the event table, and leaders away rolled for or brought back (BE-47).
    #[serde(rename = "events")]
    PlayEvents {},
    /// The hostile Franks march by themselves, in the segment of the side leading them (BE-48).
    FranksMarch { side: SideId },
    /// A side plays its Frankish intervention stratagem, in its segment (BE-43, BE-48).
    #[serde(rename = "frankish_intervention")]
    PlayFrankishIntervention { side: SideId },
    /// Both sides roll the battle's next stage; after a passage, the sides fight on (BE-17).
    Fight {},
    /// After a passage, a side breaks off; the enemy pursues (BE-22).
    BreakOff { side: SideId },
    /// After a passage, both sides agree to part (BE-17).
    Part {},
    /// The battle is fought on the tabletop rather than here (BE-17); its pack is printed
    /// with `referee pack`, its result comes back with `record_battle`.
    SendToTable {},
    /// The tabletop's result: each side's losses per unit in combat points (numbered as in
    /// the battle), leaders killed, the side that broke off and its retreat, or the sides
    /// parting (BE-17 … BE-22).
    RecordBattle { result: super::battle::TableResult },
    /// The beaten side retreats to a zone next to the battle, or into its city if it holds
    /// it, by id (BE-22).
    Retreat { side: SideId, to: String },
    /// Before the phase's first activation, units pass from one leader's box to another's in
    /// the same zone, by their number in `from`'s box (BE-08).
    Reorganise { side: SideId, from: String, to: String, units: Vec<u32> },
    /// On its way, the acting force leaves units (by their number in `leader`'s box, from 1)
    /// and leaders activated with it where it stands; `city`: the units go into the zone's
    /// city, which the side holds or nobody does (BE-11).
    Drop {
        side: SideId,
        leader: String,
        #[serde(default)]
        units: Vec<u32>,
        #[serde(default)]
        leaders: Vec<String>,
        #[serde(default)]
        city: bool,
    },
    /// On its way, the acting force takes along units with no leader where it stands (by
    /// their number among them, the open zone's first, from 1) and inferior leaders not yet
    /// activated (BE-11).
    PickUp {
        side: SideId,
        leader: String,
        #[serde(default)]
        units: Vec<u32>,
        #[serde(default)]
        leaders: Vec<String>,
    },
    /// The acting force steps into its zone's city (held by the side, or by nobody) or out
    /// of it, for no action points (BE-11).
    Shift { side: SideId, leader: String, into_city: bool },
    /// At a contact in the zone of a siege its side suffers, the marching force attacks the
    /// besiegers' lines: interception is automatic (BE-29).
    Relieve { side: SideId },
    /// The besieger names the leaders in the open who meet the relief; the others hold the
    /// lines, and unless they are at least the besieged force with its militia the siege is
    /// lifted (BE-29).
    HoldLines { side: SideId, fight: Vec<String> },
    /// The acting leader, shut in a besieged city, sallies with the garrison's units, numbered
    /// as the city's units are (1 AP, BE-28).
    #[serde(rename = "sortie")]
    Sally { side: SideId, leader: String, units: Vec<u32> },
    /// The besieger meets a sortie with as many unmodified points: (unit number among the
    /// besiegers in the zone, points) (BE-28).
    AnswerSortie { side: SideId, units: Vec<(u32, u8)> },
    /// The reinforcement phase, in spring (BE-45): the Goths roll for their points, the
    /// Byzantines' scheduled forces arrive or wait to be placed.
    #[serde(rename = "reinforcements")]
    BringReinforcements {},
    /// The Goths buy units with their spring points — `1A`, `1B`, `1C`, `[1]D` — and put them
    /// at a place they control; no units gives up the points left (BE-45).
    Raise {
        side: SideId,
        #[serde(default)]
        at: String,
        units: Vec<String>,
    },
    /// A side places the scenario's reinforcement waiting for it at a place it controls
    /// (BE-45).
    PlaceReinforcements { side: SideId, at: String },
    /// The acting leader lays waste to the zone he stands in (BE-44).
    ScorchEarth { side: SideId, leader: String },
    /// The supply phase: every force checked, the unsupplied and the besieged rolling for
    /// their losses (BE-31, BE-41); before the operations of every turn.
    #[serde(rename = "supply")]
    CheckSupply {},
    /// A side ends its segment (BE-05, BE-06).
    Pass { side: SideId },
    /// The operations are over: the AP chits are shown and the season moves on (BE-02).
    EndTurn {},
}

impl Order {
    /// The side whose order this is; `None` for the referee's: the phases, the rolls and
    /// notes, a battle fought or sent to the table, its result.
    pub fn side(&self) -> Option<&SideId> {
        match self {
            Order::Place { side, .. }
            | Order::Activate { side, .. }
            | Order::ActivateAndMove { side, .. }
            | Order::Move { side, .. }
            | Order::TakeLosses { side, .. }
            | Order::Besiege { side, .. }
            | Order::Assault { side, .. }
            | Order::BuildWorks { side, .. }
            | Order::DestroyFortifications { side, .. }
            | Order::AttemptTreachery { side, .. }
            | Order::Intercept { side, .. }
            | Order::Decline { side }
            | Order::AgreeToBattle { side }
            | Order::Reconnoitre { side, .. }
            | Order::ReturnDecoy { side, .. }
            | Order::Sail { side, .. }
            | Order::InterceptAtSea { side, .. }
            | Order::LetPass { side }
            | Order::RetireAtSea { side, .. }
            | Order::Embark { side, .. }
            | Order::Land { side, .. }
            | Order::FranksMarch { side }
            | Order::PlayFrankishIntervention { side }
            | Order::BreakOff { side }
            | Order::Retreat { side, .. }
            | Order::Reorganise { side, .. }
            | Order::Drop { side, .. }
            | Order::PickUp { side, .. }
            | Order::Shift { side, .. }
            | Order::Relieve { side }
            | Order::HoldLines { side, .. }
            | Order::Sally { side, .. }
            | Order::AnswerSortie { side, .. }
            | Order::Raise { side, .. }
            | Order::PlaceReinforcements { side, .. }
            | Order::ScorchEarth { side, .. }
            | Order::Pass { side } => Some(side),
            Order::RollDice(RollDice { .. })
            | Order::AddNote(AddNote { .. })
            | Order::RenameCampaign(RenameCampaign { .. })
            | Order::BeginPlay {}
            | Order::BeginOperations {}
            | Order::PlayEvents {}
            | Order::Fight {}
            | Order::FightAtSea {}
            | Order::Part {}
            | Order::SendToTable {}
            | Order::RecordBattle { .. }
            | Order::BringReinforcements {}
            | Order::CheckSupply {}
            | Order::EndTurn {} => None,
        }
    }

    /// The order in a few words, for the undo menu, the `commands` table and a player's plan,
    /// in the names `names` knows: "Belisarius marches to Mons Aurasius".
    pub fn summary(&self, names: &Names<'_>) -> String {
        let side = |s: &SideId| names.side(s);
        let who = |s: &SideId, leader: &str| names.piece(s, leader);
        let place = |id: &str| names.place(id);
        // "to Mons Aurasius", or what an order without a route says.
        let to = |path: &[String]| path.last().map_or_else(|| "with no route".to_owned(), |p| format!("to {}", place(p)));
        match self {
            Order::RollDice(RollDice { dice, purpose, .. }) => format!("roll {dice} for {purpose}"),
            Order::AddNote(AddNote { .. }) => "add a note".to_owned(),
            Order::RenameCampaign(RenameCampaign { name }) => format!("rename the campaign “{}”", name.trim()),
            Order::Place { side: s, line, at, .. } => format!("place {} set-up line {line} at {}", names.whose(s), place(at)),
            Order::BeginPlay {} => "begin play".to_owned(),
            Order::BeginOperations {} => "begin operations".to_owned(),
            Order::Activate { side: s, leader, with } => format!("{} activate {}", side(s), names.force(leader, with)),
            Order::ActivateAndMove { side: s, leader, with, path, .. } => {
                let marches = if with.is_empty() { "who marches" } else { "who march" };
                format!("{} activate {}, {marches} {}", side(s), names.force(leader, with), to(path))
            }
            Order::Pass { side: s } => format!("{} pass", side(s)),
            Order::Move { side: s, leader, path, .. } => format!("{} marches {}", who(s, leader), to(path)),
            Order::TakeLosses { side: s, losses, militia } => {
                let points = losses.iter().map(|(_, p)| u32::from(*p)).fold(u32::from(*militia), u32::saturating_add);
                format!("{} take {} of losses", side(s), crate::core::words::count(points, "point"))
            }
            Order::CheckSupply {} => "play the supply phase".to_owned(),
            Order::ScorchEarth { side: s, leader } => format!("{} lays the country waste", who(s, leader)),
            Order::BringReinforcements {} => "play the reinforcement phase".to_owned(),
            Order::Raise { side: s, at, units } => {
                let at = if at.trim().is_empty() { String::new() } else { format!(" at {}", place(at)) };
                if units.is_empty() {
                    format!("{} raise nothing{at}", side(s))
                } else {
                    format!("{} raise {}{at}", side(s), crate::core::words::count(units.len(), "unit"))
                }
            }
            Order::PlaceReinforcements { side: s, at } => format!("{} place reinforcements at {}", side(s), place(at)),
            Order::Relieve { side: s } => format!("{} attack the siege lines", side(s)),
            Order::Sally { side: s, leader, .. } => format!("{} sallies", who(s, leader)),
            Order::AnswerSortie { side: s, .. } => format!("{} meet the sortie", side(s)),
            Order::HoldLines { side: s, .. } => format!("{} meet the relief", side(s)),
            Order::Besiege { side: s, leader } => format!("{} lays siege", who(s, leader)),
            Order::Assault { side: s, leader, .. } => format!("{} assaults", who(s, leader)),
            Order::BuildWorks { side: s, leader, works, count } => {
                let works = match works {
                    super::siege::Works::Siege => "siege",
                    super::siege::Works::Defence => "defence",
                };
                format!("{} builds {count} {works} works", who(s, leader))
            }
            Order::DestroyFortifications { side: s, leader } => format!("{} pulls down the walls", who(s, leader)),
            Order::AttemptTreachery { side: s, leader } => format!("{} plays Treachery", who(s, leader)),
            Order::Reorganise { side: s, from, to, units } => {
                let units = crate::core::words::count(units.len(), "unit");
                format!("{} move {units} from {} to {}", side(s), who(s, from), who(s, to))
            }
            Order::EndTurn {} => "end the turn".to_owned(),
            Order::Intercept { side: s, leaders, reconnaissance, .. } => {
                let how = if *reconnaissance { "reconnoitre in force" } else { "intercept" };
                match leaders.as_slice() {
                    [] => format!("{} {how}", side(s)),
                    _ => format!("{} {how} with {}", side(s), names.all(leaders)),
                }
            }
            Order::Drop { side: s, leader, .. } => format!("{} drops off", who(s, leader)),
            Order::PickUp { side: s, leader, .. } => format!("{} picks up", who(s, leader)),
            Order::Shift { side: s, leader, into_city } => {
                format!("{} {}", who(s, leader), if *into_city { "enters the city" } else { "leaves the city" })
            }
            Order::Decline { side: s } => format!("{} decline to intercept", side(s)),
            Order::AgreeToBattle { side: s } => format!("{} agree to battle", side(s)),
            Order::Reconnoitre { side: s, zone, .. } => format!("{} reconnoitre {}", side(s), place(zone)),
            Order::ReturnDecoy { side: s, at, fleet } => {
                format!("{} {} returns at {}", names.whose(s), if *fleet { "fleet decoy" } else { "decoy" }, place(at))
            }
            Order::Sail { side: s, path, .. } => format!("{} ships sail {}", names.whose(s), to(path)),
            Order::InterceptAtSea { side: s, .. } => format!("{} intercept at sea", side(s)),
            Order::LetPass { side: s } => format!("{} let the ships pass", side(s)),
            Order::FightAtSea {} => "fight at sea".to_owned(),
            Order::RetireAtSea { side: s, to } => format!("{} ships retire to {}", names.whose(s), place(to)),
            Order::Embark { side: s, leader, .. } => format!("{} embarks", who(s, leader)),
            Order::Land { side: s, leader, at } => format!("{} lands at {}", who(s, leader), place(at)),
            Order::PlayEvents {} => "play the events phase".to_owned(),
            Order::FranksMarch { side: s } => format!("the Franks march in {} segment", names.whose(s)),
            Order::PlayFrankishIntervention { side: s } => format!("{} play the Frankish intervention", side(s)),
            Order::Fight {} => "fight".to_owned(),
            Order::BreakOff { side: s } => format!("{} break off", side(s)),
            Order::Part {} => "the sides part".to_owned(),
            Order::SendToTable {} => "send the battle to the table".to_owned(),
            Order::RecordBattle { .. } => "record the table's result".to_owned(),
            Order::Retreat { side: s, to } => format!("{} retreat to {}", side(s), place(to)),
        }
    }
}

/// What an order's summary calls the sides, places and pieces it names, as its reader knows
/// them: the referee from the whole campaign, a player from the side's packet, which holds its
/// own leaders' cards and no others. What the reader has no name for keeps the id it was
/// given by.
pub struct Names<'a> {
    /// The map: every place's name is public.
    map: &'a super::map::ZoneMap,
    /// A side's name: "Byzantines".
    side: &'a dyn Fn(&SideId) -> String,
    /// The leaders whose names the reader knows.
    leaders: Vec<&'a super::pieces::Leader>,
}

impl std::fmt::Debug for Names<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Names").field("map", &self.map.id).finish_non_exhaustive()
    }
}

impl<'a> Names<'a> {
    /// The names of `map`'s places, of the sides by `side`, and of `leaders`.
    pub fn new(
        map: &'a super::map::ZoneMap,
        side: &'a dyn Fn(&SideId) -> String,
        leaders: impl IntoIterator<Item = &'a super::pieces::Leader>,
    ) -> Names<'a> {
        Names { map, side, leaders: leaders.into_iter().collect() }
    }

    /// "the Byzantines".
    fn side(&self, side: &SideId) -> String {
        crate::core::words::the_side(&(self.side)(side))
    }

    /// "the Byzantines'".
    fn whose(&self, side: &SideId) -> String {
        crate::core::words::possessive(&(self.side)(side))
    }

    /// A leader by his name; a decoy, which has none, as its side's: "the Vandals' decoy 2";
    /// `None` for an id the reader has no name for.
    fn named(&self, id: &str) -> Option<String> {
        match (self.leaders.iter().find(|l| l.id == id), super::state::decoy_of(id)) {
            (Some(leader), _) => Some(leader.name.clone()),
            (None, Some((owner, number))) => Some(format!("{} decoy {number}", self.whose(&SideId::new(owner)))),
            (None, None) => None,
        }
    }

    /// The piece an order of `side` moves, by [its name](Self::named), or by the id typed as
    /// the side's: "the Vandals' tzazon".
    fn piece(&self, side: &SideId, id: &str) -> String {
        self.named(id).unwrap_or_else(|| format!("{} {id}", self.whose(side)))
    }

    /// "Belisarius", "Belisarius with Iohannes (John) and Bessas", after the side that
    /// activates them.
    fn force(&self, leader: &str, with: &[String]) -> String {
        if with.is_empty() { self.name_or_id(leader) } else { format!("{} with {}", self.name_or_id(leader), self.all(with)) }
    }

    /// "Gelimer", "Gelimer and Tzazon (Zano)", "Gelimer, Ammatas and Gibamund".
    fn all(&self, ids: &[String]) -> String {
        crate::core::words::and_list(&ids.iter().map(|id| self.name_or_id(id)).collect::<Vec<_>>())
    }

    /// A piece by [its name](Self::named), or by the id typed.
    fn name_or_id(&self, id: &str) -> String {
        self.named(id).unwrap_or_else(|| id.to_owned())
    }

    /// A place's name by the id an order gives it: a land zone, a city or a sea zone.
    fn place(&self, id: &str) -> String {
        super::world::locate(self.map, id).map_or_else(|_| id.to_owned(), |at| self.map.place_name(&at))
    }
}

/// A works order builds one marker unless it says more.
fn one() -> u8 {
    1
}

crate::core::log::referee_orders!(Order);

#[cfg(test)]
mod tests {
    use super::Order;

    /// The orders are named as what the referee does, and their JSON keeps the command line's
    /// words: a file written before the names changed reads the same.
    #[test]
    fn orders_named_as_deeds_keep_their_json_words() {
        let side = || crate::ids::SideId::new("ostrogoths");
        let cases = [
            (r#"{"type":"events"}"#, Order::PlayEvents {}),
            (r#"{"type":"supply"}"#, Order::CheckSupply {}),
            (r#"{"type":"reinforcements"}"#, Order::BringReinforcements {}),
            (
                r#"{"type":"treachery","side":"ostrogoths","leader":"totila"}"#,
                Order::AttemptTreachery { side: side(), leader: "totila".into() },
            ),
            (r#"{"type":"frankish_intervention","side":"ostrogoths"}"#, Order::PlayFrankishIntervention { side: side() }),
            (
                r#"{"type":"sortie","side":"ostrogoths","leader":"totila","units":[1]}"#,
                Order::Sally { side: side(), leader: "totila".into(), units: vec![1] },
            ),
        ];
        for (json, order) in cases {
            assert_eq!(serde_json::from_str::<Order>(json).unwrap(), order, "{json}");
            assert_eq!(serde_json::to_string(&order).unwrap(), json);
        }
    }
}
