//! Interception (BE-13 … BE-16, BE-42, BE-43 Reconnaissance): the only way to bring an enemy
//! to battle. A march that enters a zone where an enemy marker stands halts there; the side
//! not moving may try to intercept the marching force, then the mover may try to intercept a
//! marker in the open zone; each attempt costs 1 AP and is rolled on the interception table.
//!
//! Readings of the rules this module makes:
//! - A march halts in the first zone it enters with an enemy land marker in it (open zone or
//!   city); it may go on from there once the interceptions are over. Its attrition is rolled
//!   at that halt (BE-12: "at the time of a temporary halt, and before all combat").
//! - The side not moving always answers, even when it cannot intercept: skipping its turn
//!   would tell the mover that the markers there are decoys.
//! - The mover intercepts only markers in the open zone: a force inside a city is besieged,
//!   not intercepted (the seed's example).
//! - Markers of one zone look alike to the other side, so the mover names its target by its
//!   number among the enemy markers of the zone, in an order drawn from the secret seed and
//!   the marker's id ([`marker_key`]): it says nothing of what a marker is.
//! - A leader who comes out of a city to intercept and fails goes back into it (BE-16 lets
//!   him; the program always takes the safer choice).
//! - A combined attempt rates the highest-ranked leader's strategic value; the first named
//!   wins a tie of rank (BE-15).
//! - Reconnaissance against a decoy counts it intercepted without a roll; against a force,
//!   it moves the roll two columns to the right (BE-43). Its third use, turning a marker face
//!   up, is the `reconnoitre` order.

use crate::core::log::DiceRolled;
use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::battle::{Battle, BattleForce, Step, Steps, kill};
use super::event::Event;
use super::fight::Stage;
use super::map::{Terrain, ZoneId};
use super::operations::Activation;
use super::state::{Location, PieceKind, State};
use super::tables::Interception;
use crate::core::dice::{Dice, DiceSpec, Modifier};
use crate::core::error::RuleError;
use crate::core::rule::RuleId;
use crate::core::viewer::Visibility;
use crate::ids::SideId;

/// What a decoy rates in strategy for interception (BE-42).
pub const DECOY_STRATEGIC: u8 = 3;

/// The stratagem that reveals a force or helps an interception (BE-43).
pub const RECONNAISSANCE: &str = "reconnaissance";

/// A marching force has entered a zone where the enemy stands (BE-13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contact {
    pub zone: ZoneId,
    /// The marching force.
    pub mover: Activation,
    /// The side that may intercept now: the other side first, then the mover.
    pub turn_of: SideId,
    /// Sides that have tried and failed in this contact.
    pub failed: BTreeSet<SideId>,
    /// The leaders of the other side's last failed attempt: the force a battle by consent
    /// would be fought with (BE-13).
    pub defender: Vec<String>,
    /// Sides that have agreed to a battle by consent.
    pub agreed: BTreeSet<SideId>,
    /// The marching force attacks the lines of a siege its side suffers here: no roll, the
    /// besieger names the leaders who fight (BE-29).
    #[serde(default)]
    pub relief: bool,
    /// Where the marching force came from: the zone it marched out of (or the battle it
    /// retreated from), or the sea it landed from. Everyone saw it come (BE-10); a battle
    /// here has the mover enter the table by that side. `None` in a campaign begun before it
    /// was kept.
    pub came_from: Option<Location>,
    /// The leaders who have tried a force in this contact, with the force (its
    /// [`Target::key`]): what their side knows of its own tries. A force tried in another
    /// contact this turn may stand here under a number that says nothing of it (BE-42).
    #[serde(default)]
    pub tried: BTreeSet<(String, String)>,
}

/// The force an interception aims at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "target")]
pub enum Target {
    /// A leader's force, with the inferior leaders activated with him.
    Force { side: SideId, leader: String, with: Vec<String> },
    /// A blank marker (BE-42), by its id.
    Decoy { side: SideId, id: String },
}

impl Contact {
    /// A march (or a retreat) halted at `zone`, the other side to answer first, nothing
    /// tried yet (BE-13).
    pub fn new(state: &State, zone: ZoneId, mover: Activation, came_from: Option<Location>) -> Contact {
        let turn_of = super::operations::other_side(state, &mover.side);
        Contact {
            zone,
            mover,
            turn_of,
            failed: BTreeSet::new(),
            defender: Vec::new(),
            agreed: BTreeSet::new(),
            relief: false,
            came_from,
            tried: BTreeSet::new(),
        }
    }
}

impl Target {
    pub fn side(&self) -> &SideId {
        match self {
            Target::Force { side, .. } | Target::Decoy { side, .. } => side,
        }
    }

    /// How the "once per enemy force per turn" rule knows it (BE-13).
    pub(crate) fn key(&self) -> String {
        match self {
            Target::Force { leader, .. } => leader.clone(),
            Target::Decoy { id, .. } => id.clone(),
        }
    }
}

/// One interception attempt, as the log keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    pub side: SideId,
    /// The interceptors, the one whose rating counts first.
    pub leaders: Vec<String>,
    pub target: Target,
    pub zone: ZoneId,
    /// Interceptor's strategic rating less the target's: the umpire's to know.
    pub difference: i32,
    pub reconnaissance: bool,
    pub result: Interception,
    /// Some interceptors came out of the zone's city (BE-16).
    pub from_city: bool,
    /// A leader had tried this force already this turn, in another contact, where his side
    /// could not tell it was the same: the attempt is rolled as any other (BE-13 as read
    /// here), and the referee alone reads that it was a second try.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeated: bool,
}

use super::operations::side_name;

fn leader_name(state: &State, id: &str) -> String {
    super::state::piece_name(&state.setup, id)
}

/// Whether `at` is `zone` or its city.
/// Whether a piece at `at` stands in `zone`, in the open or in its city; a garrison shut in
/// by a siege does not count: it neither intercepts nor is intercepted (BE-28), nor keeps the
/// zone from the besieger (BE-46).
pub(crate) fn in_zone(state: &State, at: &Location, zone: &ZoneId) -> bool {
    super::operations::zone_of(state, at).as_ref() == Some(zone) && !super::siege::is_besieged(state, at)
}

/// Whether an enemy of `side` has a land marker in `zone` (open zone or city).
pub fn enemy_in(state: &State, side: &SideId, zone: &ZoneId) -> bool {
    state.pieces.iter().any(|p| &p.side != side && p.kind.has_marker() && !p.kind.is_naval() && in_zone(state, &p.at, zone))
}

/// BE-46: whether `side`, coming into `zone` by landing or falling back, takes control of it:
/// nobody of the enemy's stands there, marker or units, and it is not `side`'s already.
pub fn takes_zone(state: &State, side: &SideId, zone: &ZoneId) -> bool {
    !enemy_in(state, side, zone) && !enemy_units_in(state, side, zone) && state.control.get(zone) != Some(side)
}

/// Whether an enemy of `side` has units in `zone`, with a leader or without, in the open or
/// in its city (a garrison shut in by a siege does not count): then the zone is not `side`'s
/// to take by marching through or into it, since a side controls a zone it is alone in
/// (BE-46).
pub fn enemy_units_in(state: &State, side: &SideId, zone: &ZoneId) -> bool {
    state.pieces.iter().any(|p| &p.side != side && !p.kind.units().is_empty() && in_zone(state, &p.at, zone))
}

/// The enemy markers the mover may aim at in the open zone, in the order they came into
/// play (BE-13: a force in the city is not intercepted).
pub fn mover_targets(state: &State, contact: &Contact) -> Vec<Target> {
    let open = Location::Zone(contact.zone.clone());
    let mut out = Vec::new();
    for p in state.pieces.iter().filter(|p| p.side != contact.mover.side && p.at == open) {
        match &p.kind {
            PieceKind::Leader { leader, .. } => {
                out.push((marker_key(state, leader), Target::Force { side: p.side.clone(), leader: leader.clone(), with: Vec::new() }));
            }
            PieceKind::LeaderDecoy { id } => out.push((marker_key(state, id), Target::Decoy { side: p.side.clone(), id: id.clone() })),
            _ => {}
        }
    }
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, t)| t).collect()
}

/// Where a marker stands among look-alike markers of a zone, for naming it in an order: a
/// number drawn from the campaign's secret seed and the marker's id, so that the order says
/// nothing of which is a leader and which a decoy, nor of when each came into play, and stays
/// the same for a marker all game.
pub fn marker_key(state: &State, id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ state.seed;
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// BE-13's refusal of a second try: the leader named `name` has tried to intercept the force
/// aimed at this turn already, whatever came of it, and a force tries once against the same
/// enemy force.
pub fn tried_already(name: &str) -> RuleError {
    RuleError::new(RuleId::BE_13, format!("{name} has tried to intercept that force this turn already: once per enemy force a turn"))
}

/// The leaders of `side` standing at contact `c` who have tried this turn a force the
/// contact offers them, each with that force's number as `intercept` names it: 1, the
/// marching force, for the side not moving; the marker's number among [`mover_targets`] for
/// the mover. The rules refuse each of them a second try at that force in this contact
/// (BE-13). `this_contact`: only this contact's tries, which the rules refuse and the side can
/// tell; otherwise every try this turn, for the referee's eyes.
pub fn tried_here(state: &State, c: &Contact, side: &SideId, this_contact: bool) -> Vec<(String, u32)> {
    let Some(ops) = &state.ops else { return Vec::new() };
    let tries = if this_contact { &c.tried } else { &ops.tried };
    let targets: Vec<String> =
        if side == &c.mover.side { mover_targets(state, c).iter().map(Target::key).collect() } else { vec![c.mover.leader.clone()] };
    let mut out = Vec::new();
    for p in state.pieces_of(side).filter(|p| in_zone(state, &p.at, &c.zone)) {
        let PieceKind::Leader { leader, .. } = &p.kind else { continue };
        for (n, key) in (1u32..).zip(&targets) {
            if tries.contains(&(leader.clone(), key.clone())) {
                out.push((leader.clone(), n));
            }
        }
    }
    out.sort();
    out
}

/// The id of a land marker piece: its leader's, or its decoy's.
fn marker_id(kind: &PieceKind) -> Option<&str> {
    match kind {
        PieceKind::Leader { leader, .. } => Some(leader),
        PieceKind::LeaderDecoy { id } => Some(id),
        _ => None,
    }
}

fn contact(state: &State, rule: RuleId) -> Result<&Contact, RuleError> {
    state.ops.as_ref().and_then(|o| o.contact.as_ref()).ok_or_else(|| {
        RuleError::new(rule, "there is no interception to make now: a side intercepts when an enemy force marches into its zone")
    })
}

/// The strategic rating a target is intercepted at: its leader's (the superior's when
/// others go with him, BE-07), or 3 for a decoy (BE-42).
fn target_strategic(state: &State, target: &Target) -> u8 {
    match target {
        Target::Force { leader, .. } => state.setup.leader(leader).map_or(DECOY_STRATEGIC, |l| l.strategic),
        Target::Decoy { .. } => DECOY_STRATEGIC,
    }
}

/// BE-13 … BE-16, BE-43: `side` tries to intercept with `leaders` (combined under the
/// highest-ranked, BE-15); `target` numbers the enemy markers of the open zone for the mover
/// (the other side always aims at the marching force).
pub fn intercept(
    state: &State,
    side: &SideId,
    leaders: &[String],
    target: Option<u32>,
    reconnaissance: bool,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let c = contact(state, RuleId::BE_13)?;
    relief_pending(state, c)?;
    let ops = state.ops.as_ref().ok_or_else(|| RuleError::new(RuleId::BE_13, "it is not the operations phase"))?;
    let name = side_name(state, side);
    let zone_name = state.setup.place_name(&Location::Zone(c.zone.clone()));
    if &c.turn_of != side {
        return Err(RuleError::new(
            RuleId::BE_13,
            format!("it is for the {} to intercept or decline at {zone_name} now", side_name(state, &c.turn_of)),
        ));
    }
    let mover = side == &c.mover.side;
    if leaders.is_empty() {
        return Err(RuleError::new(RuleId::BE_13, "name the leader (or leaders, for a combined attempt) who intercept"));
    }
    let cost = u32::from(state.setup.tables.cost("intercept").unwrap_or(1));
    if ops.left(side) < cost {
        return Err(RuleError::new(RuleId::BE_13, format!("an interception costs {cost} action point and {name} have none left")));
    }
    // The target.
    let target = if mover {
        let targets = mover_targets(state, c);
        if targets.is_empty() {
            return Err(RuleError::new(
                RuleId::BE_13,
                format!("no enemy marker stands in the open at {zone_name}: a force in a city is besieged, not intercepted"),
            ));
        }
        let n = match target {
            Some(n) => n,
            None if targets.len() == 1 => 1,
            None => {
                return Err(RuleError::new(
                    RuleId::BE_15,
                    format!(
                        "{} enemy markers stand at {zone_name}: name the one aimed at, 1 to {}, before the roll",
                        targets.len(),
                        targets.len()
                    ),
                ));
            }
        };
        usize::try_from(n).ok().and_then(|n| n.checked_sub(1)).and_then(|i| targets.get(i)).cloned().ok_or_else(|| {
            RuleError::new(RuleId::BE_15, format!("there is no marker {n} at {zone_name}; they are numbered 1 to {}", targets.len()))
        })?
    } else {
        if target.is_some_and(|n| n != 1) {
            return Err(RuleError::new(RuleId::BE_13, "the side not moving intercepts the force that marched in, and no other"));
        }
        if super::state::is_decoy(&c.mover.leader) {
            Target::Decoy { side: c.mover.side.clone(), id: c.mover.leader.clone() }
        } else {
            Target::Force { side: c.mover.side.clone(), leader: c.mover.leader.clone(), with: c.mover.with.clone() }
        }
    };
    // The interceptors.
    let mut seen = BTreeSet::new();
    let mut from_city = false;
    for id in leaders {
        if super::state::is_decoy(id) {
            return Err(RuleError::new(RuleId::BE_42, "a decoy may not intercept: it carries out no action"));
        }
        let piece = state
            .pieces_of(side)
            .find(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == id))
            .ok_or_else(|| RuleError::new(RuleId::BE_13, format!("{name} have no leader `{id}` on the map")))?;
        if !seen.insert(id.as_str()) {
            return Err(RuleError::new(RuleId::BE_15, format!("{} is named twice", leader_name(state, id))));
        }
        if super::siege::is_besieged(state, &piece.at) {
            return Err(RuleError::new(
                RuleId::BE_28,
                format!("{} is besieged: the garrison comes out only by a sortie (BE-28)", leader_name(state, id)),
            ));
        }
        if !in_zone(state, &piece.at, &c.zone) {
            return Err(RuleError::new(RuleId::BE_13, format!("{} is not at {zone_name}", leader_name(state, id))));
        }
        if matches!(piece.at, Location::City(_)) {
            if mover {
                return Err(RuleError::new(
                    RuleId::BE_13,
                    format!("{} is inside the city: the marching force intercepts from the open zone", leader_name(state, id)),
                ));
            }
            from_city = true;
        }
        // BE-13: once per enemy force a turn. A leader who tried this force in this contact
        // is refused. One who tried it elsewhere this turn cannot tell it here: a marker's
        // number, or the force that marched in, says nothing of which force it is (BE-42).
        // Refused, or failed without a roll, the attempt would tell him; it is rolled.
        if c.tried.contains(&(id.clone(), target.key())) {
            return Err(tried_already(&leader_name(state, id)));
        }
    }
    let repeated = leaders.iter().any(|id| ops.tried.contains(&(id.clone(), target.key())));
    // The combat points of leaders `ids` of `who`.
    let points = |who: &SideId, ids: &[String]| -> u32 {
        state
            .pieces_of(who)
            .filter(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if ids.contains(leader)))
            .flat_map(|p| p.kind.units().iter().map(|u| u32::from(u.value)))
            .sum()
    };
    if points(side, leaders) == 0 {
        return Err(RuleError::new(RuleId::BE_13, "the interceptors have no units to fight with"));
    }
    if reconnaissance && !state.hands.get(side).is_some_and(|h| h.iter().any(|s| s == RECONNAISSANCE)) {
        return Err(RuleError::new(RuleId::BE_43, format!("{name} hold no Reconnaissance stratagem")));
    }
    // BE-15: the highest rank leads the attempt; his rating counts.
    let mut ordered: Vec<String> = leaders.to_vec();
    ordered.sort_by_key(|id| std::cmp::Reverse(state.setup.leader(id).map_or(0, |l| l.rank)));
    let commander = state.setup.leader(&ordered[0]);
    let strategic = commander.map_or(DECOY_STRATEGIC, |l| l.strategic);
    let difference = i32::from(strategic) - i32::from(target_strategic(state, &target));
    let mountains = state.setup.map.zone(&c.zone).is_some_and(|z| z.terrain == Terrain::Mountain);

    let mut steps = Steps::new(state);
    if reconnaissance {
        steps.push(Event::StratagemPlayed { side: side.clone(), stratagem: RECONNAISSANCE.to_owned() });
    }
    let result = if reconnaissance && matches!(target, Target::Decoy { .. }) {
        // BE-43: a decoy counts as intercepted.
        Interception::LineOfBattle
    } else {
        let mut mods = Vec::new();
        if mountains {
            mods.push(Modifier { value: -1, reason: "mountains".to_owned() });
        }
        let purpose = format!("{} interception at {zone_name}", crate::core::words::possessive(&name));
        let roll = dice.roll(DiceSpec::D6, &purpose, Some(RuleId::BE_14), mods)?;
        let shift = if reconnaissance { 2 } else { 0 };
        // A die below 1 reads as 1 (the table's note).
        let result = state.setup.tables.interception(difference, roll.total().max(1), shift);
        // The die with the result would tell either side the ratings behind it: the referee
        // alone reads it; the result is public.
        steps.push(Event::DiceRolled(DiceRolled { roll, side: Some(side.clone()), visibility: Visibility::Umpire }));
        result
    };
    steps.push(Event::InterceptionTried {
        attempt: Attempt {
            side: side.clone(),
            leaders: ordered.clone(),
            target: target.clone(),
            zone: c.zone.clone(),
            difference,
            reconnaissance,
            result,
            from_city,
            repeated,
        },
        cost,
    });
    if result == Interception::Fail {
        return Ok(steps.events);
    }
    match &target {
        Target::Decoy { side: owner, id } => {
            let at = state.marker(owner, id).map_or_else(|| Location::Zone(c.zone.clone()), |p| p.at.clone());
            steps.push(Event::DecoyRemoved { side: owner.clone(), at, id: id.clone(), face_down: false });
            // A marching decoy taken: its march and the contact are over.
            if !mover {
                steps.push(Event::ContactEnded { zone: c.zone.clone() });
            }
        }
        Target::Force { side: owner, leader, with } => {
            let chiefs: Vec<String> = std::iter::once(leader.clone()).chain(with.iter().cloned()).collect();
            if points(owner, &chiefs) == 0 {
                // BE-09: a leader alone, intercepted, is killed.
                for id in &chiefs {
                    kill(&mut steps, owner, id);
                }
                if !mover {
                    steps.push(Event::ContactEnded { zone: c.zone.clone() });
                }
            } else {
                let (ambusher, kind) = match result {
                    Interception::Ambush => (Some(side.clone()), Interception::Ambush),
                    _ => (None, Interception::LineOfBattle),
                };
                let battle = new_battle(state, c, kind, ambusher, (side, &ordered, from_city), (owner, &chiefs, false));
                steps.push(Event::BattleJoined { battle });
            }
        }
    }
    Ok(steps.events)
}

/// A battle about to be fought at contact `c`, brought about by its marching side.
pub(crate) fn new_battle(
    state: &State,
    c: &Contact,
    kind: Interception,
    ambusher: Option<SideId>,
    a: (&SideId, &[String], bool),
    b: (&SideId, &[String], bool),
) -> Battle {
    let force = |(side, leaders, from_city): (&SideId, &[String], bool)| {
        let mut had_units = BTreeSet::new();
        let mut start = 0u32;
        for p in state.pieces_of(side) {
            if let PieceKind::Leader { leader, units } = &p.kind
                && leaders.contains(leader)
            {
                if !units.is_empty() {
                    had_units.insert(leader.clone());
                }
                start += units.iter().map(|u| u32::from(u.value)).sum::<u32>();
            }
        }
        BattleForce { side: side.clone(), leaders: leaders.to_vec(), from_city, start, disordered: BTreeSet::new(), had_units }
    };
    Battle {
        zone: c.zone.clone(),
        kind,
        ambusher,
        mover: c.mover.side.clone(),
        came_from: c.came_from.clone(),
        mountains: state.setup.map.zone(&c.zone).is_some_and(|z| z.terrain == Terrain::Mountain),
        forces: vec![force(a), force(b)],
        passage: 1,
        stage: Stage::Fire,
        step: Step::Roll,
        broke_off: None,
        at_table: false,
        relief: None,
    }
}

/// BE-13: `side` makes no (more) attempts; the mover's turn follows the other side's, and
/// the contact ends with the mover's.
pub fn decline(state: &State, side: &SideId) -> Result<Vec<Event>, RuleError> {
    let c = contact(state, RuleId::BE_13)?;
    relief_pending(state, c)?;
    if &c.turn_of != side {
        let zone_name = state.setup.place_name(&Location::Zone(c.zone.clone()));
        return Err(RuleError::new(
            RuleId::BE_13,
            format!("it is for the {} to intercept or decline at {zone_name} now", side_name(state, &c.turn_of)),
        ));
    }
    // BE-48: the Franks on their own always try to intercept the force they march on, while
    // their side can pay for the try.
    let tried = state.ops.as_ref().is_some_and(|o| o.tried.iter().any(|(l, _)| l == super::franks::KING));
    let cost = u32::from(state.setup.tables.cost("intercept").unwrap_or(1));
    if side == &c.mover.side
        && super::franks::on_their_own(state, &c.mover.leader)
        && !c.failed.contains(side)
        && !tried
        && state.ops.as_ref().is_some_and(|o| o.left(side) >= cost)
        && !mover_targets(state, c).is_empty()
    {
        return Err(RuleError::new(
            RuleId::BE_48,
            "the Franks always try to intercept the force they march on: `intercept` with their king",
        ));
    }
    let mut events = vec![Event::InterceptionDeclined { side: side.clone(), zone: c.zone.clone() }];
    // The mover has nothing to aim at in the open: the contact is over (public: the markers
    // in the city are seen there).
    if side == &c.mover.side || mover_targets(state, c).is_empty() {
        events.push(Event::ContactEnded { zone: c.zone.clone() });
    }
    Ok(events)
}

/// Refuses interceptions, declining and consent while the besieger is to answer a relief
/// (BE-29).
fn relief_pending(state: &State, c: &Contact) -> Result<(), RuleError> {
    if c.relief {
        return Err(RuleError::new(
            RuleId::BE_29,
            format!("the siege lines are attacked: the {} name the leaders who fight (`hold_lines`)", side_name(state, &c.turn_of)),
        ));
    }
    Ok(())
}

/// BE-13: both sides having failed, each may agree to a battle in line; the second
/// agreement joins it, between the marching force and the other side's last interceptors.
/// Once a relief attacks the siege lines, its battle comes by itself (BE-29): the besieger
/// answers it, and consent has no place.
pub fn agree(state: &State, side: &SideId) -> Result<Vec<Event>, RuleError> {
    let c = contact(state, RuleId::BE_13)?;
    relief_pending(state, c)?;
    let other = super::operations::other_side(state, &c.mover.side);
    if !(c.failed.contains(&c.mover.side) && c.failed.contains(&other)) || c.defender.is_empty() {
        return Err(RuleError::new(RuleId::BE_13, "a battle by consent needs both sides to have tried to intercept and failed"));
    }
    if c.agreed.contains(side) {
        return Err(RuleError::new(RuleId::BE_13, format!("{} have agreed already", side_name(state, side))));
    }
    if side == &c.mover.side && super::state::is_decoy(&c.mover.leader) {
        return Err(RuleError::new(RuleId::BE_42, "a decoy cannot give battle"));
    }
    let mut events = vec![Event::BattleAgreed { side: side.clone() }];
    if c.agreed.iter().any(|s| s != side) {
        let mover: Vec<String> = std::iter::once(c.mover.leader.clone()).chain(c.mover.with.iter().cloned()).collect();
        let from_city = state.pieces_of(&other).any(|p| {
            matches!(&p.kind, PieceKind::Leader { leader, .. } if c.defender.contains(leader)) && matches!(p.at, Location::City(_))
        });
        let battle =
            new_battle(state, c, Interception::LineOfBattle, None, (&other, &c.defender, from_city), (&c.mover.side, &mover, false));
        events.push(Event::BattleJoined { battle });
    }
    Ok(events)
}

/// BE-43: `side` plays Reconnaissance to turn one enemy marker face up, for itself alone:
/// `zone` and the marker's number among the enemy markers there (open zone first, then the
/// city, each in the order of [`marker_key`]). A decoy so revealed leaves the map.
pub fn reconnoitre(state: &State, side: &SideId, zone: &str, marker: u32) -> Result<Vec<Event>, RuleError> {
    let name = side_name(state, side);
    if !state.hands.get(side).is_some_and(|h| h.iter().any(|s| s == RECONNAISSANCE)) {
        return Err(RuleError::new(RuleId::BE_43, format!("{name} hold no Reconnaissance stratagem")));
    }
    if state.ops.is_none() || state.phase != super::state::Phase::Operations {
        return Err(RuleError::new(RuleId::BE_43, "a stratagem is played in the operations phase"));
    }
    let zone = ZoneId(zone.to_owned());
    let z = state.setup.map.zone(&zone).ok_or_else(|| RuleError::new(RuleId::BE_43, state.setup.map.no_zone(zone.as_str())))?;
    let mut markers: Vec<&super::state::Piece> = state
        .pieces
        .iter()
        .filter(|p| &p.side != side && p.kind.has_marker() && !p.kind.is_naval() && in_zone(state, &p.at, &zone))
        .collect();
    markers.sort_by_key(|p| (matches!(p.at, Location::City(_)), marker_id(&p.kind).map(|id| marker_key(state, id))));
    let piece = usize::try_from(marker).ok().and_then(|n| n.checked_sub(1)).and_then(|i| markers.get(i)).ok_or_else(|| {
        RuleError::new(
            RuleId::BE_43,
            format!("{} has {}, not a marker {marker}", z.name, crate::core::words::count(markers.len(), "enemy marker")),
        )
    })?;
    let face = match &piece.kind {
        PieceKind::Leader { leader, units } => {
            let l = state.setup.leader(leader);
            let points: u32 = units.iter().map(|u| u32::from(u.value)).sum();
            let with = if units.is_empty() {
                "and no units".to_owned()
            } else {
                format!("with {} — {}", super::pieces::summary(units), crate::core::words::count(points, "combat point"))
            };
            format!(
                "{} (strategic {}, tactical {}) {with}",
                leader_name(state, leader),
                l.map_or(0, |l| l.strategic),
                l.map_or(0, |l| l.tactical),
            )
        }
        PieceKind::LeaderDecoy { .. } => "a decoy".to_owned(),
        _ => "nothing".to_owned(),
    };
    let mut events = vec![
        Event::StratagemPlayed { side: side.clone(), stratagem: RECONNAISSANCE.to_owned() },
        Event::ForceRevealed { to: side.clone(), at: piece.at.clone(), face },
    ];
    // BE-43: a decoy revealed counts as intercepted: it leaves the map.
    if let PieceKind::LeaderDecoy { id } = &piece.kind {
        events.push(Event::DecoyRemoved { side: piece.side.clone(), at: piece.at.clone(), id: id.clone(), face_down: false });
    }
    Ok(events)
}

/// BE-42: a decoy out of play comes back at the start of operations, beside one of the
/// side's leaders on the map (in the open zone or the city where he stands) — or, `fleet`, a
/// fleet decoy beside one of its ships, at sea or in port.
pub fn return_decoy(state: &State, side: &SideId, at: &str, fleet: bool) -> Result<Vec<Event>, RuleError> {
    let name = side_name(state, side);
    let started = match (&state.phase, &state.ops) {
        (super::state::Phase::Play, _) => false,
        (super::state::Phase::Operations, Some(ops)) => !ops.activated.is_empty() || !ops.sailed.is_empty(),
        _ => true,
    };
    if started {
        return Err(RuleError::new(RuleId::BE_42, "a decoy comes back at the start of operations, before the first action"));
    }
    if fleet {
        if state.fleet_decoys_out.get(side).copied().unwrap_or(0) == 0 {
            return Err(RuleError::new(RuleId::BE_42, format!("{name} have no fleet decoy out of play")));
        }
        let place = state.setup.place(at).map_err(|e| RuleError::new(RuleId::BE_42, e.to_string()))?;
        if !state.pieces_of(side).any(|p| p.at == place && matches!(p.kind, PieceKind::Fleet { .. })) {
            return Err(RuleError::new(
                RuleId::BE_42,
                format!("{name} have no ship at {}: a fleet decoy comes back beside one", state.setup.place_name(&place)),
            ));
        }
        return Ok(vec![Event::FleetDecoyReturned { side: side.clone(), at: place }]);
    }
    if state.decoys_out.get(side).copied().unwrap_or(0) == 0 {
        return Err(RuleError::new(RuleId::BE_42, format!("{name} have no decoy out of play")));
    }
    let place = state.setup.place(at).map_err(|e| RuleError::new(RuleId::BE_42, e.to_string()))?;
    if place.is_sea() {
        return Err(RuleError::new(RuleId::BE_42, "a land decoy comes back on land, beside a leader"));
    }
    if !state.pieces_of(side).any(|p| p.at == place && matches!(p.kind, PieceKind::Leader { .. })) {
        return Err(RuleError::new(
            RuleId::BE_42,
            format!("{name} have no leader at {}: a decoy comes back beside one", state.setup.place_name(&place)),
        ));
    }
    Ok(vec![Event::DecoyReturned { side: side.clone(), at: place }])
}

impl State {
    /// Applies the events of interception (see [`State::apply`]).
    pub(crate) fn apply_interception(&mut self, event: &Event) {
        match event {
            Event::ReliefDeclared { .. } => {
                if let Some(c) = self.ops.as_mut().and_then(|o| o.contact.as_mut()) {
                    c.relief = true;
                    c.turn_of = super::operations::other_side_of(&self.setup, &c.mover.side);
                }
            }
            Event::ContactMade { contact } => {
                if let Some(ops) = &mut self.ops {
                    ops.contact = Some(contact.clone());
                }
            }
            Event::InterceptionTried { attempt, cost } => {
                if let Some(ops) = &mut self.ops {
                    if let Some(a) = ops.ap.get_mut(&attempt.side) {
                        a.left = a.left.saturating_sub(*cost);
                    }
                    // A decoy taken leaves the map, and the next one takes its number.
                    let gone = matches!(attempt.target, Target::Decoy { .. }) && attempt.result != Interception::Fail;
                    if !gone {
                        for l in &attempt.leaders {
                            ops.tried.insert((l.clone(), attempt.target.key()));
                            if let Some(c) = &mut ops.contact {
                                c.tried.insert((l.clone(), attempt.target.key()));
                            }
                        }
                    }
                    if attempt.result == Interception::Fail
                        && let Some(c) = &mut ops.contact
                    {
                        c.failed.insert(attempt.side.clone());
                        if attempt.side != c.mover.side {
                            c.defender = attempt.leaders.clone();
                        }
                    }
                }
            }
            Event::InterceptionDeclined { side, .. } => {
                if let Some(c) = self.ops.as_mut().and_then(|o| o.contact.as_mut())
                    && &c.mover.side != side
                {
                    c.turn_of = c.mover.side.clone();
                }
            }
            Event::ContactEnded { .. } => {
                if let Some(ops) = &mut self.ops {
                    ops.contact = None;
                }
            }
            Event::BattleAgreed { side } => {
                if let Some(c) = self.ops.as_mut().and_then(|o| o.contact.as_mut()) {
                    c.agreed.insert(side.clone());
                }
            }
            Event::DecoyRemoved { side, id, .. } => {
                let found =
                    self.pieces.iter().position(|p| &p.side == side && matches!(&p.kind, PieceKind::LeaderDecoy { id: d } if d == id));
                if let Some(i) = found {
                    self.pieces.remove(i);
                    *self.decoys_out.entry(side.clone()).or_default() += 1;
                }
                if let Some(ops) = &mut self.ops
                    && ops.active.as_ref().is_some_and(|a| &a.leader == id)
                {
                    ops.halted.insert(id.clone());
                }
            }
            Event::DecoyReturned { side, at } => self.return_decoy(side, at, false),
            Event::StratagemPlayed { side, stratagem } => {
                if let Some(hand) = self.hands.get_mut(side)
                    && let Some(i) = hand.iter().position(|s| s == stratagem)
                {
                    hand.remove(i);
                }
            }
            _ => {}
        }
    }
}
