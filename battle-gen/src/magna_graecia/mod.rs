//! The Magna Graecia adapter: a raised battle of a Magna Graecia campaign as [`BattleSpec`]s
//! and an [`UmpireSpec`], and a [`TabletopResult`] back as its `RecordBattleResult` order.
//!
//! A side's spec is built from its [`SideView`] alone (through its [`Brief`], whose type
//! cannot hold the enemy's commands) and the public map; the umpire's from the
//! [`UmpireView`]. [`Source`] is the adapter's [`BattleSource`]: a battle of a campaign as it
//! stands, its views built from the campaign's state.

pub mod brief;

use referee_campaign::core::engine::EngineId;
use referee_campaign::ids::NodeId;
use referee_campaign::magna_graecia::army::{self, CommandRoster, ElementError, ElementGroup, ElementSpec, ElementTable};
use referee_campaign::magna_graecia::battle::{BattleResult, CommandLosses, Outcome};
use referee_campaign::magna_graecia::event::Logged;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::state::CampaignState;
use referee_campaign::magna_graecia::view::{Board, SideView, UmpireView, side_view, umpire_view};

use crate::adapter::BattleSource;
use crate::ground::{Ground, Site, ground};
use crate::pack::{Destination, PackError, PackFile, PackOptions, WriteError, WrittenFile, write_files};
use crate::spec::{
    BattleSpec, EnemyKnowledge, Exit, Field, FriendlyCity, GroundSpec, LinePrices, Notes, RollLine, Seen, SpecHead, SpecSide, TableSet,
    TroopGroup, TroopLine, UmpireSide, UmpireSpec,
};
use crate::tabletop::{TableOutcome, TabletopResult};
use brief::{BattleHeader, Brief, CommandSheet, RoadOff, UmpireSheet, battle_mark, role_of, side_brief, side_name, umpire_sheet};

/// The site of `node` on `map`, in the words the ground is drawn from; `None` if the map has
/// no such node.
pub fn site(map: &Map, node: NodeId) -> Option<Site> {
    let n = map.node(node)?;
    let road_ends = n
        .battlefield
        .roads
        .keys()
        .filter_map(|&to| map.node(to).map(|other| (to, (other.name.clone(), (other.x_km, other.y_km)))))
        .collect();
    Some(Site { id: node, name: n.name.clone(), at_km: (n.x_km, n.y_km), battlefield: n.battlefield.clone(), road_ends })
}

/// The battle map of `node` (MG-21), or `None` if the map has no such node.
pub fn node_ground(map: &Map, node: NodeId) -> Option<Ground> {
    site(map, node).map(|site| ground(&site))
}

/// A command as a neutral troop line. `general`: led by its general now (not leaderless,
/// MG-31); `ally_of`: the city whose command it is (MG-05).
pub fn troop_line(r: &CommandRoster, points: u32, leaderless: bool, ally_of: Option<String>, prices: Option<LinePrices>) -> TroopLine {
    TroopLine {
        name: r.name.clone(),
        rank: r.rank,
        general: !leaderless,
        leader: r.general.to_string(),
        groups: r.elements.iter().map(|g| TroopGroup { count: g.count, kind: g.spec.to_string() }).collect(),
        count: r.elements_fielded(leaderless),
        points,
        ally_of,
        prices,
    }
}

/// The prices of a command of `general` (rank `rank`) and `groups` of elements by the
/// campaign's points table; an element it has no price for costs nothing. Belisarius prices
/// the DBM elements it fields by the same table.
pub fn line_prices<'a>(
    table: &ElementTable,
    rank: army::Rank,
    general: &ElementSpec,
    groups: impl IntoIterator<Item = (&'a ElementSpec, u32)>,
) -> LinePrices {
    let cost = |spec| table.cost(spec).unwrap_or(0);
    LinePrices {
        general: cost(general).saturating_add(table.general_cost(rank)),
        groups: groups.into_iter().map(|(spec, n)| cost(spec).saturating_mul(n)).collect(),
    }
}

fn line(c: &CommandSheet) -> TroopLine {
    troop_line(&c.roster, c.points, c.leaderless, c.city.clone(), Some(c.prices.clone()))
}

fn exits(roads: &[RoadOff]) -> Vec<Exit> {
    roads
        .iter()
        .map(|r| Exit {
            to: r.to.to_string(),
            to_name: r.to_name.clone(),
            edge: r.edge,
            map_edge: r.map_edge,
            held_by: r.held_by.clone(),
            retire: r.retire,
        })
        .collect()
}

/// What the pack says in Magna Graecia's words.
fn notes() -> Notes {
    Notes {
        map_title: "the 8'×8' battle map".to_owned(),
        map_unset: "The table is not set yet. The defender chooses the forward, central or rear 4'×8' section, counted from the attacker's entry edge (MG-21).".to_owned(),
        no_exits: "No road leaves the table in play: there is no way to retire from it (MG-26).".to_owned(),
        leaderless: "none: leaderless (MG-31)".to_owned(),
        no_rolls: "None yet: the weather and time of day are rolled when the table is set (MG-22).".to_owned(),
        table_rule: "MG-21".to_owned(),
        roster_rule: "MG-03".to_owned(),
        table_set_when: "after the defender has chosen its section".to_owned(),
    }
}

fn field(label: &str, text: String) -> Field {
    Field { label: label.to_owned(), text }
}

fn ground_spec(h: &BattleHeader, map: Ground) -> GroundSpec {
    let lines = match &h.table {
        Some(t) => vec![
            field("Table: ", format!("{} (MG-21).", t.describe())),
            field("Weather: ", format!("{}; summer, warm climate (MG-22).", t.weather)),
            field("Time of day: ", format!("the armies are ready at {} (MG-22).", t.time_of_day)),
        ],
        None => vec![field("Table: ", "not set yet: the defender chooses a section first (MG-21).".to_owned())],
    };
    let table = h.table.as_ref().zip(h.section.as_ref()).map(|(t, s)| TableSet {
        description: t.describe(),
        width_feet: s.rect.width_feet.max(s.rect.height_feet),
        depth_feet: s.rect.width_feet.min(s.rect.height_feet),
        attacker_edge: t.attacker_edge,
        weather: t.weather.clone(),
        time_of_day: t.time_of_day.clone(),
    });
    GroundSpec { map, section: h.section, table, lines }
}

fn head(board: &Board, h: &BattleHeader) -> Result<SpecHead, PackError> {
    let mark = battle_mark(board, h.battle)?;
    let sides = std::iter::once(&mark.attacker)
        .chain(&mark.defenders)
        .map(|s| SpecSide { id: s.clone(), name: side_name(board, s), role: role_of(board, mark, s) })
        .collect();
    Ok(SpecHead {
        campaign: h.campaign.clone(),
        scenario: h.scenario.clone(),
        turn: h.turn,
        battle: h.battle,
        day: h.day,
        place: h.place.clone(),
        location: format!("node {} {}", h.node, h.place),
        attacker: h.attacker.clone(),
        defenders: h.defenders.clone(),
        sides,
    })
}

/// A side's spec from its brief (itself built from the side's view only).
pub fn spec_from_brief(board: &Board, b: &Brief, map: Ground) -> Result<BattleSpec, PackError> {
    let head = head(board, &b.header)?;
    let seen = |v: &[(String, u32)]| v.iter().map(|(name, counters)| Seen { name: name.clone(), counters: *counters }).collect();
    Ok(BattleSpec {
        ground: ground_spec(&b.header, map),
        side: SpecSide { id: b.side.clone(), name: b.side_name.clone(), role: b.role },
        head,
        base_edge: b.base_edge,
        own: b.own.iter().map(line).collect(),
        friends: seen(&b.friends),
        friendly_cities: b
            .friendly_city
            .iter()
            .map(|(name, n, ally)| FriendlyCity { name: name.clone(), commands: u32::from(*n), commanded_by: ally.clone() })
            .collect(),
        enemy: EnemyKnowledge {
            sides: seen(&b.enemies),
            allies: b.enemy_city.iter().map(|(name, n)| Seen { name: name.clone(), counters: u32::from(*n) }).collect(),
            deployed: Vec::new(),
        },
        exits: exits(&b.roads),
        objectives: b.objectives.clone(),
        special_rules: b.special_rules.clone(),
        notes: notes(),
    })
}

/// The umpire's spec from the umpire's sheet.
pub fn spec_from_sheet(board: &Board, s: &UmpireSheet, map: Ground) -> Result<UmpireSpec, PackError> {
    let head = head(board, &s.header)?;
    let sides = s
        .sides
        .iter()
        .zip(&s.roads)
        .map(|((id, name, role, commands), (_, roads))| UmpireSide {
            side: SpecSide { id: id.clone(), name: name.clone(), role: *role },
            troops: commands.iter().map(line).collect(),
            exits: exits(roads),
        })
        .collect();
    Ok(UmpireSpec {
        ground: ground_spec(&s.header, map),
        head,
        sides,
        rolls: s
            .rolls
            .iter()
            .map(|r| RollLine { purpose: r.purpose.clone(), roll: r.describe(), rule: r.rule.clone().unwrap_or_default() })
            .collect(),
        log: s.log.clone(),
        notes: notes(),
    })
}

/// One side's spec of battle `battle`, from its own view and the public map only.
pub fn side_spec(view: &SideView, map: &Map, elements: &ElementTable, battle: u32) -> Result<BattleSpec, PackError> {
    let mark = battle_mark(&view.board, battle)?;
    let ground = node_ground(map, mark.node).ok_or(PackError::NoGround(mark.node))?;
    let brief = side_brief(view, map, &ground, elements, battle)?;
    spec_from_brief(&view.board, &brief, ground)
}

/// The umpire's spec of battle `battle`.
pub fn umpire_spec(view: &UmpireView, map: &Map, elements: &ElementTable, battle: u32) -> Result<UmpireSpec, PackError> {
    let mark = battle_mark(&view.board, battle)?;
    let ground = node_ground(map, mark.node).ok_or(PackError::NoGround(mark.node))?;
    let sheet = umpire_sheet(view, map, &ground, elements, battle)?;
    spec_from_sheet(&view.board, &sheet, ground)
}

/// A battle of a Magna Graecia campaign as it stands, as the adapter reads it: the
/// umpire's view and each fighting side's own view are built from the campaign's state.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub state: &'a CampaignState,
    pub map: &'a Map,
    pub events: &'a [Logged],
    pub battle: u32,
}

impl BattleSource for Source<'_> {
    const ENGINE: EngineId = EngineId::MagnaGraecia;
    type Error = PackError;

    fn number(&self) -> u32 {
        self.battle
    }

    fn umpire_spec(&self) -> Result<UmpireSpec, PackError> {
        umpire_spec(&umpire_view(self.state, self.map, self.events), self.map, &self.state.scenario.elements, self.battle)
    }

    /// Each side's spec from its own brief, in the order the umpire's sheet lists the sides.
    fn specs(&self) -> Result<(UmpireSpec, Vec<BattleSpec>), PackError> {
        let (state, map, battle) = (self.state, self.map, self.battle);
        let elements = &state.scenario.elements;
        let umpire = umpire_view(state, map, self.events);
        let mark = battle_mark(&umpire.board, battle)?;
        let ground = node_ground(map, mark.node).ok_or(PackError::NoGround(mark.node))?;
        let sheet = umpire_sheet(&umpire, map, &ground, elements, battle)?;
        let umpire_spec = spec_from_sheet(&umpire.board, &sheet, ground.clone())?;
        let mut specs = Vec::new();
        for (side, ..) in &sheet.sides {
            // A brief reads no log, so the sides' views are built without one: describing every
            // event of a long campaign again for each side would be the pack's slowest part.
            let view = side_view(state, map, &[], side).ok_or_else(|| PackError::NotInBattle { side: side.clone(), battle })?;
            let brief = side_brief(&view, map, &ground, elements, battle)?;
            specs.push(spec_from_brief(&view.board, &brief, ground.clone())?);
        }
        Ok((umpire_spec, specs))
    }
}

/// The pack for a battle of a campaign as it stands ([`Source`]): each side's file from its
/// own view alone.
pub fn campaign_pack(
    state: &CampaignState,
    map: &Map,
    events: &[Logged],
    battle: u32,
    options: &PackOptions,
) -> Result<Vec<PackFile>, PackError> {
    Source { state, map, events, battle }.pack(options)
}

/// Makes one battle's pack with [`campaign_pack`] and writes its files as [`write_files`]
/// does.
pub fn write_pack<E: From<WriteError>>(
    state: &CampaignState,
    map: &Map,
    events: &[Logged],
    battle: u32,
    options: &PackOptions,
    to: Destination<'_>,
    before: impl FnOnce() -> Result<(), E>,
) -> Result<Vec<WrittenFile>, E> {
    let files = campaign_pack(state, map, events, battle, options).map_err(WriteError::from)?;
    write_files(files, to, before)
}

/// Why a tabletop result cannot become Magna Graecia's order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResultError {
    #[error(transparent)]
    Pack(#[from] PackError),
    #[error("{line}: {error}")]
    Troops { line: String, error: String },
    /// An open road that leads nowhere from the battle: the roads beside it are given.
    #[error("`{}` is no road out of the battle: its roads lead to {} — MG-15", referee_campaign::core::words::shown(.0), .1.iter().map(|n| format!("{:02}", n.0)).collect::<Vec<_>>().join(", "))]
    Place(String, Vec<NodeId>),
}

fn groups(line: &str, groups: &[TroopGroup]) -> Result<Vec<ElementGroup>, ResultError> {
    groups
        .iter()
        .filter(|g| g.count > 0)
        .map(|g| g.to_string().parse().map_err(|e: ElementError| ResultError::Troops { line: line.to_owned(), error: e.to_string() }))
        .collect()
}

/// A tabletop result as the `RecordBattleResult` order the result form gives (MG-20): lines
/// that lost nothing are left out, a line joins another only if its general was killed
/// (MG-31), the roads are listed for the losers only and only when some were cut (MG-15),
/// and the neutral city counts as attacked only if the node's city is neutral (MG-08). The
/// rules check the order like any other.
pub fn result_order(result: &TabletopResult, board: &Board, map: &Map) -> Result<Order, ResultError> {
    let mark = battle_mark(board, result.battle)?;
    let outcome = match &result.outcome {
        TableOutcome::Won { winner } => Outcome::Won { winner: winner.clone() },
        TableOutcome::NoResult {} => Outcome::NoResult {},
    };
    let mut losses = Vec::new();
    for side in &result.sides {
        for l in &side.lines {
            let destroyed = groups(&l.line, &l.destroyed)?;
            let fled = groups(&l.line, &l.fled)?;
            let any = !destroyed.is_empty() || !fled.is_empty() || l.general_killed || l.demoralised || l.declared_demoralised;
            if any {
                losses.push(CommandLosses {
                    side: side.side.clone(),
                    command: l.line.clone(),
                    destroyed,
                    fled,
                    general_killed: l.general_killed,
                    demoralised: l.demoralised,
                    voluntary: l.declared_demoralised,
                    join: l.joins.clone().filter(|_| l.general_killed),
                });
            }
        }
    }
    let winner = match &outcome {
        Outcome::Won { winner } => Some(winner),
        Outcome::NoResult {} => None,
    };
    let neighbours: Vec<NodeId> = map.neighbours(mark.node).collect();
    let mut open_roads = std::collections::BTreeMap::new();
    for side in &result.sides {
        let loser = winner.is_some_and(|w| !board.on_same_side(w, &side.side));
        let Some(open) = side.open_exits.as_ref().filter(|_| loser) else { continue };
        let open: Vec<NodeId> = open
            .iter()
            .map(|n| {
                n.parse().ok().filter(|node| neighbours.contains(node)).ok_or_else(|| ResultError::Place(n.clone(), neighbours.clone()))
            })
            .collect::<Result<_, ResultError>>()?;
        if !neighbours.iter().all(|n| open.contains(n)) {
            open_roads.insert(side.side.clone(), neighbours.iter().filter(|n| open.contains(n)).copied().collect());
        }
    }
    let neutral_city = board.is_neutral_city(mark.node);
    Ok(Order::RecordBattleResult {
        result: BattleResult {
            battle: result.battle,
            outcome,
            held_field: result.held_field.clone(),
            losses,
            open_roads,
            city_attacked_by: result.sides.iter().find(|s| s.attacked_neutral).map(|s| s.side.clone()).filter(|_| neutral_city),
        },
    })
}
