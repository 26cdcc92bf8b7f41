//! One example of every order the command line takes, by engine and JSON type: what
//! `referee order --help TYPE` prints, and what the README's table of orders lists.
//!
//! The JSON is the command line's own (docs/command-line.md shows most of it in play), one
//! line each and free of single quotes, so that it pastes between the quotes of
//! `referee order CAMPAIGN '…'`. The tests hold the table to the engines: every example
//! parses as its engine's order, and every order type of each engine has one.

use referee_campaign::core::engine::EngineId;

/// An order type with what it does and an example of it, as the command line takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Example {
    pub engine: EngineId,
    /// The order's JSON `type`.
    pub kind: &'static str,
    /// What it does, in a line (a referee's words, naming the rule IDs, e.g. "MG-11").
    pub what: &'static str,
    /// Whose it is to give: "a side" or "the referee".
    pub who: &'static str,
    /// A complete order of that type, valid JSON the engine's `Order` type parses.
    pub json: &'static str,
}

/// Whose an order is that names the side giving it (`order --as SIDE` takes it).
const SIDE: &str = "a side";
/// Whose an order is that no side may give: phases, rolls, results, corrections.
const REFEREE: &str = "the referee";

const MG: EngineId = EngineId::MagnaGraecia;
const BE: EngineId = EngineId::Belisarius;

/// Every order type of both engines, Magna Graecia's first, each engine's in the order its
/// chapter of docs/command-line.md lists them.
pub(crate) const EXAMPLES: &[Example] = &[
    // Magna Graecia: set-up.
    Example {
        engine: MG,
        kind: "deploy",
        what: "Sets a counter, a command by name or the fleet, on a node before play, within the scenario's limits (MG-02).",
        who: SIDE,
        json: r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":4}"#,
    },
    Example {
        engine: MG,
        kind: "set_army",
        what: "Replaces a side's whole army with one of its own buying, within the scenario's points, before play begins (MG-03).",
        who: SIDE,
        json: concat!(
            r#"{"type":"set_army","army":{"side":"carthage","list":"Early Carthaginian, 397 BC","#,
            r#""note":"more slingers, fewer spearmen for Mago","commands":["#,
            r#"{"name":"Himilco","rank":"c-in-c","general":"Reg Cv(O)","#,
            r#""elements":["2 Reg Sp(S)","8 Reg Sp(O)","4 Reg HCh(O)","2 Reg Cv(O)","3 Irr Ps(S)"]},"#,
            r#"{"name":"Mago","rank":"sub-general","general":"Reg Cv(O)","#,
            r#""elements":["11 Reg Sp(O)","2 Reg HCh(O)","6 Irr Ps(O)"]},"#,
            r#"{"name":"Hamilcar","rank":"sub-general","general":"Reg Cv(O)","#,
            r#""elements":["6 Irr Ax(S)","4 Irr Ax(S)","4 Irr Cv(O)","3 Irr Ps(S)","2 Irr Ps(O)"]},"#,
            r#"{"name":"Hanno","rank":"sub-general","general":"Reg Cv(O)","#,
            r#""elements":["7 Reg Cv(O)","6 Irr LH(O)","3 Irr Ps(S)"]}]}}"#,
        ),
    },
    Example {
        engine: MG,
        kind: "begin_play",
        what: "Closes set-up and starts the first player-turn (MG-09).",
        who: REFEREE,
        json: r#"{"type":"begin_play"}"#,
    },
    // Magna Graecia: a player-turn.
    Example {
        engine: MG,
        kind: "move",
        what: "Moves one of the moving side's counters along the paths, node by node, 1 MP a node (MG-11, MG-13, MG-16).",
        who: SIDE,
        json: r#"{"type":"move","side":"carthage","counter":"Himilco","path":[8]}"#,
    },
    Example {
        engine: MG,
        kind: "end_phase",
        what: "Ends the moving side's movement, combat or post-combat phase, with the rolls that come then: \
               alliances, naval battles, sieges (MG-09, MG-06, MG-18, MG-28).",
        who: SIDE,
        json: r#"{"type":"end_phase","side":"carthage"}"#,
    },
    Example {
        engine: MG,
        kind: "exchange",
        what: "Hands elements from one command to another in the same node, for 1 MP (MG-14).",
        who: SIDE,
        json: r#"{"type":"exchange","side":"syracuse","from":"Agyris","to":"Leptines","elements":["2 Irr Sp(O)"]}"#,
    },
    Example {
        engine: MG,
        kind: "garrison",
        what: "Leaves a command's elements in the garrison of its side's strength-0 capital, \
               or takes them back out with `into_garrison: false` (MG-04).",
        who: SIDE,
        json: r#"{"type":"garrison","side":"carthage","command":"Hanno","elements":["1 Irr Ps(S)"],"into_garrison":true}"#,
    },
    Example {
        engine: MG,
        kind: "embark",
        what: "Puts a command aboard its side's fleet in the same node, if all its elements fit (MG-14, MG-17).",
        who: SIDE,
        json: r#"{"type":"embark","side":"carthage","counter":"Hanno"}"#,
    },
    Example {
        engine: MG,
        kind: "disembark",
        what: "Sets a command the fleet carries ashore where the fleet lies, for no MP (MG-14).",
        who: SIDE,
        json: r#"{"type":"disembark","side":"carthage","counter":"Hanno"}"#,
    },
    Example {
        engine: MG,
        kind: "land",
        what: "Brings a counter of a side that starts at sea ashore on its first turn, \
               as Carthage in the Second Punic War (MG-36).",
        who: SIDE,
        json: r#"{"type":"land","side":"carthage","counter":"Himilco","node":20}"#,
    },
    Example {
        engine: MG,
        kind: "allocate_naval_losses",
        what: "Names what a side lost at sea after a naval defeat: carried elements by command, \
               and commands gone down whole with their general (MG-18).",
        who: SIDE,
        json: r#"{"type":"allocate_naval_losses","side":"carthage","lost":[["Himilco","3 Reg Sp(O)"]],"sunk":["Hanno"]}"#,
    },
    Example {
        engine: MG,
        kind: "combine_fleets",
        what: "Joins an ally's fleet in the same node to the side's own, under the side, once the ally has \
               offered it (`offer_fleet`), in the Second Punic War (MG-36).",
        who: SIDE,
        json: r#"{"type":"combine_fleets","side":"syracuse","with":"carthage"}"#,
    },
    Example {
        engine: MG,
        kind: "offer_fleet",
        what: "Puts the side's fleet under an ally's command, for the ally to combine with its own \
               where they meet, in its movement phase, in the Second Punic War (MG-36).",
        who: SIDE,
        json: r#"{"type":"offer_fleet","side":"carthage","to":"syracuse"}"#,
    },
    Example {
        engine: MG,
        kind: "shelter",
        what: "Shelters the side's fleet in the friendly, garrisoned, walled port where it lies, \
               where it cannot be made to fight (MG-19).",
        who: SIDE,
        json: r#"{"type":"shelter","side":"syracuse"}"#,
    },
    Example {
        engine: MG,
        kind: "retreat_fleet",
        what: "Takes a beaten fleet away along a path of nodes in post-combat movement (MG-15, MG-18).",
        who: SIDE,
        json: r#"{"type":"retreat_fleet","side":"syracuse","path":[30,31]}"#,
    },
    // Magna Graecia: battles and sieges.
    Example {
        engine: MG,
        kind: "set_up_table",
        what: "Sets the table for a battle's day: the defender's section, the attacker's cut and edge, \
               with weather and time of day rolled; what `referee table` sends (MG-21, MG-22, MG-25).",
        who: REFEREE,
        json: r#"{"type":"set_up_table","battle":1,"defence":"rear","cut":"left"}"#,
    },
    Example {
        engine: MG,
        kind: "record_battle_result",
        what: "Enters a battle's result from the tabletop: who won and held the field, losses by command, \
               roads left open; recovery is rolled; what `referee result` sends (MG-20, MG-30, MG-31).",
        who: REFEREE,
        json: concat!(
            r#"{"type":"record_battle_result","result":{"battle":1,"#,
            r#""outcome":{"kind":"won","winner":"carthage"},"held_field":"carthage","#,
            r#""losses":[{"side":"syracuse","command":"Leptines","destroyed":["2 Reg Sp(O)"]}],"#,
            r#""open_roads":{"syracuse":[9,10]}}}"#,
        ),
    },
    Example {
        engine: MG,
        kind: "choose_stay_or_retire",
        what: "Writes down a side's secret choice, to stay or to retire, after a battle nobody lost (MG-25).",
        who: SIDE,
        json: r#"{"type":"choose_stay_or_retire","side":"syracuse","battle":1,"stay":false}"#,
    },
    Example {
        engine: MG,
        kind: "retreat",
        what: "Takes a beaten land counter away along open paths in post-combat movement (MG-15).",
        who: SIDE,
        json: r#"{"type":"retreat","side":"syracuse","counter":"Leptines","path":[10]}"#,
    },
    Example {
        engine: MG,
        kind: "withdraw_into_city",
        what: "Takes every element of the side inside the city's walls to stand a siege instead of fighting the battle (MG-27).",
        who: SIDE,
        json: r#"{"type":"withdraw_into_city","side":"syracuse","battle":1}"#,
    },
    Example {
        engine: MG,
        kind: "sally",
        what: "Sends the besieged out of their city to fight, in their own player-turn (MG-27).",
        who: SIDE,
        json: r#"{"type":"sally","side":"syracuse","node":8}"#,
    },
    Example {
        engine: MG,
        kind: "allocate_siege_losses",
        what: "Names the elements a side lost to its siege of a city that fell, or to disease (MG-28, MG-29).",
        who: SIDE,
        json: r#"{"type":"allocate_siege_losses","side":"carthage","lost":[["Himilco","2 Reg Sp(O)"]]}"#,
    },
    Example {
        engine: MG,
        kind: "attack_city",
        what: "Attacks the neutral city where the side's counters stand; it goes over to `ally`, \
               an enemy of the attacker, and its commands fight (MG-07).",
        who: SIDE,
        json: r#"{"type":"attack_city","side":"carthage","node":6,"ally":"syracuse"}"#,
    },
    // Magna Graecia: scenario rules, the campaign's end, and the referee's own.
    Example {
        engine: MG,
        kind: "exit_map",
        what: "Leads one of Pyrrhus's commands off the map through Messena, for victory points (MG-34).",
        who: SIDE,
        json: r#"{"type":"exit_map","side":"pyrrhus","counter":"Pyrrhus"}"#,
    },
    Example {
        engine: MG,
        kind: "switch_sides",
        what: "Takes Hiero's side over to the enemy while the offer stands, after its ally lost a land battle (MG-35).",
        who: SIDE,
        json: r#"{"type":"switch_sides","side":"syracuse","to":"rome"}"#,
    },
    Example {
        engine: MG,
        kind: "end_campaign",
        what: "Ends the campaign before its 18 turns are out, as the sides agree (MG-32).",
        who: REFEREE,
        json: r#"{"type":"end_campaign","reason":"both sides agree to stop here"}"#,
    },
    Example {
        engine: MG,
        kind: "adjust_control",
        what: "Corrects who controls a node, or leaves it to nobody with `side: null`; the reason goes in the log (MG-01, X-03).",
        who: REFEREE,
        json: r#"{"type":"adjust_control","node":7,"side":"syracuse","reason":"the envoys of Entella came over"}"#,
    },
    Example {
        engine: MG,
        kind: "roll_dice",
        what: "Rolls dice for a purpose the referee names, logged like the rules' own rolls; \
               `hidden` keeps it from all but the referee and `side` (X-02).",
        who: REFEREE,
        json: concat!(
            r#"{"type":"roll_dice","dice":{"count":2,"sides":6},"purpose":"omens at Motya","side":"carthage","#,
            r#""hidden":true,"modifiers":[{"value":1,"reason":"the priests were paid"}]}"#,
        ),
    },
    Example {
        engine: MG,
        kind: "add_note",
        what: "Writes a note in the log for the referee's eyes only (X-03).",
        who: REFEREE,
        json: r#"{"type":"add_note","text":"Hanno means to land at Lilybaeum next turn"}"#,
    },
    Example {
        engine: MG,
        kind: "rename_campaign",
        what: "Gives the campaign a new name of at most 80 characters; the log keeps the old one (X-03).",
        who: REFEREE,
        json: r#"{"type":"rename_campaign","name":"Motya, 398 BC"}"#,
    },
    // Belisarius: set-up.
    Example {
        engine: BE,
        kind: "place",
        what: "Puts one of a side's free set-up lines, or the leaders, units, decoys and fleets of it named, \
               in a zone, a city or a sea zone (BE-49 … BE-52).",
        who: SIDE,
        json: r#"{"type":"place","side":"byzantines","line":1,"at":"roma","leaders":["bessas"],"units":[1,2,3]}"#,
    },
    Example {
        engine: BE,
        kind: "begin_play",
        what: "Ends set-up, once every free line is placed and the places the scenario requires are held (BE-49 … BE-52).",
        who: REFEREE,
        json: r#"{"type":"begin_play"}"#,
    },
    // Belisarius: the phases before the operations.
    Example {
        engine: BE,
        kind: "events",
        what: "Plays the events phase: the event table rolled, and leaders away rolled for or brought back (BE-47).",
        who: REFEREE,
        json: r#"{"type":"events"}"#,
    },
    Example {
        engine: BE,
        kind: "supply",
        what: "Plays the supply phase: every force checked, and the unsupplied and the besieged roll for attrition (BE-31, BE-41).",
        who: REFEREE,
        json: r#"{"type":"supply"}"#,
    },
    Example {
        engine: BE,
        kind: "reinforcements",
        what: "Plays the spring's reinforcement phase: the Goths roll for their points, \
               the Byzantines' scheduled forces arrive (BE-45).",
        who: REFEREE,
        json: r#"{"type":"reinforcements"}"#,
    },
    Example {
        engine: BE,
        kind: "raise",
        what: "Spends the Goths' spring points on units put at a place they control; no units gives up what is left (BE-45).",
        who: SIDE,
        json: r#"{"type":"raise","side":"ostrogoths","at":"venetia","units":["1A","1B","[1]D"]}"#,
    },
    Example {
        engine: BE,
        kind: "place_reinforcements",
        what: "Puts the scenario's reinforcement waiting for a side at a place it controls (BE-45).",
        who: SIDE,
        json: r#"{"type":"place_reinforcements","side":"byzantines","at":"salona"}"#,
    },
    // Belisarius: the operations.
    Example {
        engine: BE,
        kind: "begin_operations",
        what: "Starts the operations: each side draws its AP chit blind and the first player is rolled for; \
               `--chit` and `--value` type in a real cup and dice (BE-04, BE-05).",
        who: REFEREE,
        json: r#"{"type":"begin_operations"}"#,
    },
    Example {
        engine: BE,
        kind: "reorganise",
        what: "Moves units from one leader's box to another's in the same zone, before the phase's first activation (BE-08).",
        who: SIDE,
        json: r#"{"type":"reorganise","side":"byzantines","from":"belisarius","to":"bessas","units":[5,6]}"#,
    },
    Example {
        engine: BE,
        kind: "activate",
        what: "Activates one of the side's leaders for its segment, with inferior leaders of his zone going along (BE-06, BE-07).",
        who: SIDE,
        json: r#"{"type":"activate","side":"byzantines","leader":"belisarius","with":["ildiger"]}"#,
    },
    Example {
        engine: BE,
        kind: "activate_and_move",
        what: "Activates a leader and marches him at once, as `activate` then `move` would, in one order (BE-06, BE-07, BE-10, BE-12).",
        who: SIDE,
        json: r#"{"type":"activate_and_move","side":"vandals","leader":"ammatas","path":["byzacium-north"]}"#,
    },
    Example {
        engine: BE,
        kind: "move",
        what: "Marches the acting leader's force zone by zone along `path`, taking the march's attrition at once, \
               first from the units `attrition_from` names (BE-10, BE-12, BE-46).",
        who: SIDE,
        json: r#"{"type":"move","side":"byzantines","leader":"belisarius","path":["byzacium-south"],"attrition_from":[4]}"#,
    },
    Example {
        engine: BE,
        kind: "pick_up",
        what: "Takes leaderless units and inferior leaders not yet activated along with the acting force where it stands (BE-11).",
        who: SIDE,
        json: r#"{"type":"pick_up","side":"byzantines","leader":"belisarius","leaders":["iohannes"]}"#,
    },
    Example {
        engine: BE,
        kind: "drop",
        what: "Leaves units and leaders of the acting force where it stands, or in the zone's city with `city` (BE-11).",
        who: SIDE,
        json: r#"{"type":"drop","side":"byzantines","leader":"belisarius","units":[14],"leaders":["ildiger"]}"#,
    },
    Example {
        engine: BE,
        kind: "shift",
        what: "Takes the acting force into its zone's city, or out of it, for no AP (BE-11).",
        who: SIDE,
        json: r#"{"type":"shift","side":"byzantines","leader":"belisarius","into_city":true}"#,
    },
    Example {
        engine: BE,
        kind: "scorch_earth",
        what: "Lays waste the zone the acting leader stands in (BE-44).",
        who: SIDE,
        json: r#"{"type":"scorch_earth","side":"byzantines","leader":"belisarius"}"#,
    },
    Example {
        engine: BE,
        kind: "return_decoy",
        what: "Brings a decoy out of play back beside one of the side's leaders, or with `fleet` beside one of its ships, \
               at the start of operations (BE-42).",
        who: SIDE,
        json: r#"{"type":"return_decoy","side":"byzantines","at":"byzacium-south"}"#,
    },
    Example {
        engine: BE,
        kind: "pass",
        what: "Ends the side's segment; when both sides pass in a row the phase is over (BE-05, BE-06).",
        who: SIDE,
        json: r#"{"type":"pass","side":"byzantines"}"#,
    },
    Example {
        engine: BE,
        kind: "end_turn",
        what: "Ends the operations: the AP chits are shown and the season moves on (BE-02, BE-53).",
        who: REFEREE,
        json: r#"{"type":"end_turn"}"#,
    },
    // Belisarius: contacts.
    Example {
        engine: BE,
        kind: "intercept",
        what: "Tries to intercept at a contact, one leader or several combined under the highest; `target` names the enemy \
               marker and `reconnaissance` plays that stratagem (BE-13 … BE-16, BE-43).",
        who: SIDE,
        json: r#"{"type":"intercept","side":"byzantines","leaders":["belisarius"],"target":1,"reconnaissance":true}"#,
    },
    Example {
        engine: BE,
        kind: "decline",
        what: "Makes no more attempts to intercept at this contact (BE-13, BE-16).",
        who: SIDE,
        json: r#"{"type":"decline","side":"vandals"}"#,
    },
    Example {
        engine: BE,
        kind: "agree_to_battle",
        what: "Agrees to a battle in line after both sides failed to intercept (BE-13).",
        who: SIDE,
        json: r#"{"type":"agree_to_battle","side":"ostrogoths"}"#,
    },
    Example {
        engine: BE,
        kind: "reconnoitre",
        what: "Plays Reconnaissance to turn one enemy marker of a zone face up for the side (BE-43).",
        who: SIDE,
        json: r#"{"type":"reconnoitre","side":"vandals","zone":"byzacium-north","marker":1}"#,
    },
    // Belisarius: battles.
    Example {
        engine: BE,
        kind: "fight",
        what: "Fights the battle's next passage of arms, fire then melee, or fights on after one (BE-17 … BE-20).",
        who: REFEREE,
        json: r#"{"type":"fight"}"#,
    },
    Example {
        engine: BE,
        kind: "take_losses",
        what: "Takes the points a side owes, unit by unit, after a battle, a march, an assault (`militia` for the city's), \
               a sortie or hunger (BE-12, BE-19, BE-22, BE-27, BE-28, BE-41).",
        who: SIDE,
        json: r#"{"type":"take_losses","side":"vandals","losses":[[1,2],[2,2],[5,2]]}"#,
    },
    Example {
        engine: BE,
        kind: "break_off",
        what: "Breaks off the battle after a passage of arms; the enemy pursues (BE-17, BE-22).",
        who: SIDE,
        json: r#"{"type":"break_off","side":"vandals"}"#,
    },
    Example {
        engine: BE,
        kind: "part",
        what: "Parts the two sides after a passage of arms, as both agree (BE-17).",
        who: REFEREE,
        json: r#"{"type":"part"}"#,
    },
    Example {
        engine: BE,
        kind: "retreat",
        what: "Retreats the beaten side to a zone beside the battle, or into its own city there (BE-22).",
        who: SIDE,
        json: r#"{"type":"retreat","side":"vandals","to":"tripolitania"}"#,
    },
    Example {
        engine: BE,
        kind: "send_to_table",
        what: "Sends the battle to the tabletop instead of fighting it here; `referee pack` prints its pack (BE-17).",
        who: REFEREE,
        json: r#"{"type":"send_to_table"}"#,
    },
    Example {
        engine: BE,
        kind: "record_battle",
        what: "Enters the tabletop's result: losses per unit, leaders killed, who broke off and where it retreats, \
               or the sides parting (BE-17 … BE-22).",
        who: REFEREE,
        json: concat!(
            r#"{"type":"record_battle","result":{"losses":{"vandals":[[1,2]],"byzantines":[[1,1]]},"#,
            r#""broke_off":"vandals","retreat":"zeugitana"}}"#,
        ),
    },
    // Belisarius: sieges.
    Example {
        engine: BE,
        kind: "besiege",
        what: "Lays siege, for 1 AP, to the enemy city of the zone the acting leader stands in (BE-24).",
        who: SIDE,
        json: r#"{"type":"besiege","side":"byzantines","leader":"belisarius"}"#,
    },
    Example {
        engine: BE,
        kind: "assault",
        what: "Storms the city the acting leader besieges, free when the siege is declared and 1 AP later; \
               ships off the port may support it for 1 AP more (BE-27, BE-39).",
        who: SIDE,
        json: r#"{"type":"assault","side":"byzantines","leader":"belisarius","ships":["fleet-byzantines-1"]}"#,
    },
    Example {
        engine: BE,
        kind: "build_works",
        what: "Builds siege works at the acting leader's siege, or defence works in a city his side holds (BE-32).",
        who: SIDE,
        json: r#"{"type":"build_works","side":"byzantines","leader":"belisarius","works":"siege","count":2}"#,
    },
    Example {
        engine: BE,
        kind: "destroy_fortifications",
        what: "Pulls down the walls and works of a city the acting leader's side holds, for 1 AP (BE-32).",
        who: SIDE,
        json: r#"{"type":"destroy_fortifications","side":"byzantines","leader":"belisarius"}"#,
    },
    Example {
        engine: BE,
        kind: "treachery",
        what: "Plays the side's Treachery stratagem at a siege the acting leader is making (BE-43).",
        who: SIDE,
        json: r#"{"type":"treachery","side":"byzantines","leader":"belisarius"}"#,
    },
    Example {
        engine: BE,
        kind: "sortie",
        what: "Sallies, for 1 AP, out of a besieged city with the garrison's units named (BE-28).",
        who: SIDE,
        json: r#"{"type":"sortie","side":"ostrogoths","leader":"uraias","units":[1,2]}"#,
    },
    Example {
        engine: BE,
        kind: "answer_sortie",
        what: "Meets a sortie with as many unmodified points from the besiegers, unit by unit (BE-28).",
        who: SIDE,
        json: r#"{"type":"answer_sortie","side":"byzantines","units":[[1,4]]}"#,
    },
    Example {
        engine: BE,
        kind: "relieve",
        what: "Attacks the besiegers' lines at a contact in the zone of a siege the side suffers; interception is automatic (BE-29).",
        who: SIDE,
        json: r#"{"type":"relieve","side":"vandals"}"#,
    },
    Example {
        engine: BE,
        kind: "hold_lines",
        what: "Names the besieger's leaders who meet the relief in the open; the rest hold the lines, \
               and the siege is lifted if they are too few (BE-29).",
        who: SIDE,
        json: r#"{"type":"hold_lines","side":"byzantines","fight":["belisarius"]}"#,
    },
    // Belisarius: ships.
    Example {
        engine: BE,
        kind: "sail",
        what: "Sails ships of one place through sea zones, perhaps into a port the side holds, 1 AP for a ship and 2 for more \
               (BE-33, BE-34).",
        who: SIDE,
        json: r#"{"type":"sail","side":"vandals","ships":["fleet-vandals-1"],"path":["mare-sardoum"]}"#,
    },
    Example {
        engine: BE,
        kind: "intercept_at_sea",
        what: "Intercepts the ships that sailed in with the side's own ships there (BE-35).",
        who: SIDE,
        json: r#"{"type":"intercept_at_sea","side":"vandals","ships":["fleet-vandals-1"]}"#,
    },
    Example {
        engine: BE,
        kind: "let_pass",
        what: "Lets the ships that sailed in go by (BE-35).",
        who: SIDE,
        json: r#"{"type":"let_pass","side":"ostrogoths"}"#,
    },
    Example {
        engine: BE,
        kind: "fight_at_sea",
        what: "Fights the naval battle's next passage of arms (BE-36).",
        who: REFEREE,
        json: r#"{"type":"fight_at_sea"}"#,
    },
    Example {
        engine: BE,
        kind: "retire_at_sea",
        what: "Withdraws the side's ships from a naval battle to a sea zone beside it, or to a port of its own on that sea (BE-36).",
        who: SIDE,
        json: r#"{"type":"retire_at_sea","side":"vandals","to":"tyrrhenum-north"}"#,
    },
    Example {
        engine: BE,
        kind: "embark",
        what: "Boards the acting force onto ships of its side in its zone's port or off its coast (BE-37).",
        who: SIDE,
        json: r#"{"type":"embark","side":"byzantines","leader":"bessas","ships":["fleet-byzantines-1"]}"#,
    },
    Example {
        engine: BE,
        kind: "land",
        what: "Lands the acting force from its ships in a zone or a port city beside them (BE-37).",
        who: SIDE,
        json: r#"{"type":"land","side":"byzantines","leader":"bessas","at":"sardinia-south"}"#,
    },
    // Belisarius: the Franks, and the referee's own.
    Example {
        engine: BE,
        kind: "frankish_intervention",
        what: "Plays the side's Frankish intervention stratagem in its segment (BE-43, BE-48).",
        who: SIDE,
        json: r#"{"type":"frankish_intervention","side":"byzantines"}"#,
    },
    Example {
        engine: BE,
        kind: "franks_march",
        what: "Marches the hostile Franks, in the segment of the side that leads them (BE-48).",
        who: SIDE,
        json: r#"{"type":"franks_march","side":"byzantines"}"#,
    },
    Example {
        engine: BE,
        kind: "roll_dice",
        what: "Rolls dice for a purpose the referee names, logged like the rules' own rolls; \
               `hidden` keeps it from all but the referee and `side` (X-02).",
        who: REFEREE,
        json: r#"{"type":"roll_dice","dice":{"count":1,"sides":6},"purpose":"the mood in Roma"}"#,
    },
    Example {
        engine: BE,
        kind: "add_note",
        what: "Writes a note in the log for the referee's eyes only (X-03).",
        who: REFEREE,
        json: r#"{"type":"add_note","text":"Vitiges is short of grain"}"#,
    },
    Example {
        engine: BE,
        kind: "rename_campaign",
        what: "Gives the campaign a new name of at most 80 characters; the log keeps the old one (X-03).",
        who: REFEREE,
        json: r#"{"type":"rename_campaign","name":"The Gothic War"}"#,
    },
];

/// The examples of `kind`, in every engine that has it.
pub(crate) fn of(kind: &str) -> Vec<&'static Example> {
    EXAMPLES.iter().filter(|e| e.kind == kind).collect()
}

/// What `referee order --help TYPE` prints: the order of each campaign that has it, whose it
/// is, what it does and an example; or why there is no such order, with the nearest there are.
pub(crate) fn help(kind: &str) -> Result<String, String> {
    let found = of(kind);
    if found.is_empty() {
        let kinds = EXAMPLES.iter().map(|e| e.kind);
        let near = referee_campaign::core::words::did_you_mean(&referee_campaign::core::words::nearest(kind, kinds, std::iter::empty()));
        return Err(format!("there is no order `{kind}`{near} (the README lists every order)"));
    }
    let mut text = String::new();
    for e in found {
        text.push_str(&format!(
            "{} — `{}`, {}'s to give\n  {}\n  referee order CAMPAIGN '{}'\n",
            e.engine.title(),
            e.kind,
            e.who,
            e.what,
            e.json
        ));
    }
    Ok(text)
}

#[cfg(test)]
/// The README's table of orders, as it must read: per campaign, a side's orders and the
/// referee's, by their JSON type.
pub(crate) fn readme_table() -> String {
    let mut text = String::from("| Campaign | A side's orders | The referee's orders |\n|---|---|---|\n");
    for engine in EngineId::ALL {
        let kinds = |who: &str| {
            let list: Vec<String> =
                EXAMPLES.iter().filter(|e| e.engine == engine && e.who == who).map(|e| format!("`{}`", e.kind)).collect();
            list.join(", ")
        };
        text.push_str(&format!("| {} | {} | {} |\n", engine.title(), kinds(SIDE), kinds(REFEREE)));
    }
    text
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use referee_campaign::belisarius::Belisarius;
    use referee_campaign::core::engine::{Engine, EngineId};
    use referee_campaign::magna_graecia::engine::MagnaGraecia;

    use super::{EXAMPLES, Example, REFEREE, SIDE, of};

    fn examples_of(engine: EngineId) -> Vec<&'static Example> {
        EXAMPLES.iter().filter(|e| e.engine == engine).collect()
    }

    /// `E`'s examples parse as its orders, of their own type and with the right giver, and
    /// there is one for each of its order types, no more.
    fn check<E: Engine>() {
        let examples = examples_of(E::ID);
        for e in &examples {
            let order: E::Order = serde_json::from_str(e.json).unwrap_or_else(|err| panic!("{} `{}`: {err}\n{}", E::ID, e.kind, e.json));
            let back = serde_json::to_value(&order).expect("an order serialises to JSON");
            assert_eq!(back["type"], e.kind, "{} `{}`: the JSON's type", E::ID, e.kind);
            let who = if E::order_side(&order).is_some() { SIDE } else { REFEREE };
            assert_eq!(e.who, who, "{} `{}`: whose order it is", E::ID, e.kind);
            assert!(!e.json.contains('\''), "{} `{}`: a single quote would end the shell's quoting", E::ID, e.kind);
            assert!(!e.what.contains("  "), "{} `{}`: a line break left spaces in `what`", E::ID, e.kind);
        }
        let kinds: BTreeSet<String> = examples.iter().map(|e| e.kind.to_owned()).collect();
        assert_eq!(kinds.len(), examples.len(), "{}: one example of each order type", E::ID);
        assert_eq!(kinds, referee_campaign::fixtures::order_kinds::<E::Order>(), "{}: the examples' types against the engine's", E::ID);
    }

    /// X-06: `referee order --help TYPE` has an example of every order the command line takes.
    #[test]
    fn x_06_every_order_type_has_an_example_that_parses() {
        // The engines' orders, by the names the command line's users know them.
        let _: fn(referee_campaign::magna_graecia::order::Order) -> <MagnaGraecia as Engine>::Order = |o| o;
        let _: fn(referee_campaign::belisarius::order::Order) -> <Belisarius as Engine>::Order = |o| o;
        check::<MagnaGraecia>();
        check::<Belisarius>();
        let engines: BTreeSet<EngineId> = EXAMPLES.iter().map(|e| e.engine).collect();
        assert_eq!(engines, EngineId::ALL.into_iter().collect(), "every engine has its examples");
    }

    #[test]
    fn of_move_gives_both_engines_examples() {
        let engines: Vec<EngineId> = of("move").iter().map(|e| e.engine).collect();
        assert_eq!(engines, [EngineId::MagnaGraecia, EngineId::Belisarius]);
        assert!(of("no-such-order").is_empty());
        assert_eq!(of("treachery").len(), 1);
    }

    /// X-06: the README's table of orders is the program's, type for type and side for
    /// referee; a new order fails this test until the README lists it.
    #[test]
    fn x_06_the_readmes_table_of_orders_is_the_programs() {
        let readme = include_str!("../../../README.md");
        let table = super::readme_table();
        assert!(readme.contains(&table), "README.md's table of orders should read:\n{table}");
    }

    /// X-06: `order --help TYPE` shows the order of each campaign that has it; an unknown type
    /// is answered with the nearest.
    #[test]
    fn x_06_order_help_shows_an_example_and_answers_a_slip_with_the_nearest() {
        let text = super::help("move").unwrap();
        assert!(text.contains("Magna Graecia — `move`") && text.contains("Belisarius — `move`"), "{text}");
        assert!(text.contains("referee order CAMPAIGN '{"), "{text}");
        assert!(super::help("mvoe").unwrap_err().contains("did you mean `move`"));
    }
}
