//! Validated scenarios (MG-02): sides, move order, control, alliances, capitals, army points,
//! fleets, deployment limits and special rules.

use crate::core::rule::RuleId;
use std::collections::{BTreeMap, BTreeSet};

use referee_data::raw::{RawScenario, RawSide, Spanned};
use referee_data::{DataError, Report, SourceText};
use serde::{Deserialize, Serialize};

use super::army::{Army, ElementTable};
use super::map::Map;
use crate::ids::{NodeId, SideId};

/// Pattern drawn with a side's colour so sides differ in black-and-white print and for
/// colour-blind eyes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pattern {
    Solid,
    Stripes,
    Dots,
    Cross,
}

/// A side's capital city and the number of its own commands (0: an inherent sub-general, MG-04).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capital {
    pub node: NodeId,
    pub strength: u8,
}

/// Where a side may set up its counters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "area")]
pub enum DeployArea {
    /// Any node the side controls.
    Controlled,
    /// Only these nodes.
    Nodes { nodes: BTreeSet<NodeId> },
    /// Not on the map at the start: lands on its first turn on a southern coastal node
    /// not occupied by an enemy (MG-36).
    Landing,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deploy {
    pub area: DeployArea,
    /// Counters may not start in a fortified city node that is not allied to the side.
    pub not_in_unallied_cities: bool,
    pub command_at: Option<NodeId>,
    pub fleet_at: Option<NodeId>,
}

/// One side as a scenario sets it up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSetup {
    pub id: SideId,
    pub name: String,
    pub colour: [u8; 3],
    pub pattern: Pattern,
    pub army_points: u32,
    /// 0 when the side has no fleet.
    pub fleet_np: u32,
    pub capital: Option<Capital>,
    pub out_when_capital_falls: bool,
    pub controls: BTreeSet<NodeId>,
    pub allied_cities: BTreeSet<NodeId>,
    pub allied_city_commands: Option<u8>,
    pub deploy: Deploy,
}

/// Scenario rules beyond the general ones, each with the rule it implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpecialRule {
    /// MG-34: if Syracuse falls, Syracuse is out and its fleet goes to Pyrrhus.
    SyracuseFallsToPyrrhus,
    /// MG-34: Pyrrhus scores 2 VP per command leaving the map through Messena.
    ExitThroughMessena,
    /// MG-35: Hiero may change sides when his ally loses a land battle.
    HieroMaySwitch,
    /// MG-36: allied fleets may combine into one counter.
    CombinedFleets,
}

impl SpecialRule {
    pub const ALL: [(&'static str, SpecialRule, RuleId); 4] = [
        ("syracuse-falls-to-pyrrhus", SpecialRule::SyracuseFallsToPyrrhus, RuleId::MG_34),
        ("exit-through-messena", SpecialRule::ExitThroughMessena, RuleId::MG_34),
        ("hiero-may-switch", SpecialRule::HieroMaySwitch, RuleId::MG_35),
        ("combined-fleets", SpecialRule::CombinedFleets, RuleId::MG_36),
    ];

    pub fn key(self) -> &'static str {
        SpecialRule::ALL.iter().find(|(_, r, _)| *r == self).map_or("", |(k, _, _)| k)
    }

    pub fn rule_id(self) -> RuleId {
        match self {
            SpecialRule::SyracuseFallsToPyrrhus | SpecialRule::ExitThroughMessena => RuleId::MG_34,
            SpecialRule::HieroMaySwitch => RuleId::MG_35,
            SpecialRule::CombinedFleets => RuleId::MG_36,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeModifier {
    pub node: NodeId,
    pub modifier: i8,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureVp {
    pub node: NodeId,
    pub side: SideId,
    pub vp: u32,
}

/// A validated scenario. It is stored whole in the campaign's first event, with the map it is
/// played on, so a campaign replays and draws the same way even if the data files are later
/// edited or another data folder is given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub period: String,
    /// The id of the map it is played on.
    pub map: String,
    /// That map itself, as it was when the scenario was loaded. Campaigns started before
    /// maps were kept with them have none, and are drawn on the data files' map of that id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_data: Option<Box<Map>>,
    pub turns: u32,
    pub move_order: Vec<SideId>,
    pub summary: String,
    pub sides: Vec<SideSetup>,
    pub alliances: BTreeSet<(SideId, SideId)>,
    pub special_rules: BTreeSet<SpecialRule>,
    pub siege_modifiers: Vec<SiegeModifier>,
    pub capture_vps: Vec<CaptureVp>,
    /// The points table armies are bought with (MG-03).
    pub elements: ElementTable,
    /// Each side's default army as shipped, in move order; the referee may replace it before
    /// play starts.
    pub armies: Vec<Army>,
    /// Whether a capital that fields commands stands with its side from the start, its
    /// commands fighting beside it as an allied city's do (MG-05): every campaign started
    /// since that was put right. Campaigns stored before have it false, and read as played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capitals_allied: bool,
}

impl crate::core::engine::Identified for Scenario {
    fn id(&self) -> &str {
        &self.id
    }
}

impl Scenario {
    /// The cities allied to each side when the campaign starts: those the scenario names, and
    /// each capital that fields commands of its own, permanently its side's (MG-05; Messena
    /// for Rome and for Pyrrhus), unless the campaign was stored before that was so.
    pub fn initial_city_allies(&self) -> BTreeMap<NodeId, SideId> {
        let mut allies = BTreeMap::new();
        for side in &self.sides {
            let capital = side.capital.filter(|c| self.capitals_allied && c.strength > 0).map(|c| c.node);
            for &n in side.allied_cities.iter().chain(&capital) {
                allies.insert(n, side.id.clone());
            }
        }
        allies
    }

    /// The sides put out of the campaign when `node`, their capital, is taken by `taker`:
    /// every side, unless its scenario keeps it in (MG-32).
    pub fn out_with_capital<'a>(&'a self, node: NodeId, taker: &'a SideId) -> impl Iterator<Item = &'a SideSetup> + 'a {
        self.sides.iter().filter(move |s| s.out_when_capital_falls && s.capital.is_some_and(|c| c.node == node) && &s.id != taker)
    }

    pub fn side(&self, id: &SideId) -> Option<&SideSetup> {
        self.sides.iter().find(|s| &s.id == id)
    }

    /// Whether two sides fight on the same side of the war.
    pub fn are_allied(&self, a: &SideId, b: &SideId) -> bool {
        self.alliances.contains(&(a.clone().min(b.clone()), a.clone().max(b.clone())))
    }

    /// Checks a raw scenario against the map it names, reporting every problem at once.
    /// `maps` holds every loaded map by id.
    pub fn from_raw(raw: RawScenario, source: &SourceText, maps: &BTreeMap<String, Map>) -> Result<Scenario, DataError> {
        let mut report = Report::new(source);
        let stem = source.file.rsplit('/').next().unwrap_or("").trim_end_matches(".toml");
        if raw.id.get_ref() != stem {
            report.at(raw.id.span().start, format!("the scenario id `{}` must match its file name `{stem}`", raw.id.get_ref()));
        }
        let map = maps.get(raw.map.get_ref());
        if map.is_none() {
            report.at(raw.map.span().start, format!("the scenario names map `{}`, which is not loaded", raw.map.get_ref()));
        }
        if *raw.turns.get_ref() == 0 {
            report.at(raw.turns.span().start, "a scenario lasts at least one campaign turn");
        }
        let mut side_ids = BTreeSet::new();
        for side in &raw.sides {
            let id = side.id.get_ref();
            let slug = !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c == '-');
            if !slug {
                report.at(side.id.span().start, format!("side id `{id}` must be lower-case letters and hyphens"));
            }
            if !side_ids.insert(id.clone()) {
                report.at(side.id.span().start, format!("side `{id}` is defined twice"));
            }
        }
        if raw.sides.len() < 2 {
            report.file("a scenario needs at least two sides");
        }
        let order: Vec<&String> = raw.move_order.get_ref().iter().collect();
        let order_set: BTreeSet<&String> = order.iter().copied().collect();
        if order_set.len() != order.len() || order_set != side_ids.iter().collect() {
            report.at(
                raw.move_order.span().start,
                format!(
                    "move_order must name every side exactly once ({}), but it reads [{}]",
                    side_ids.iter().cloned().collect::<Vec<_>>().join(", "),
                    order.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                ),
            );
        }
        let mut controller: BTreeMap<u8, &str> = BTreeMap::new();
        let mut sides = Vec::new();
        for side in &raw.sides {
            if let Some(s) = check_side(side, map, &mut controller, &mut report) {
                sides.push(s);
            }
        }
        let mut alliances = BTreeSet::new();
        for pair in &raw.alliances {
            let [a, b] = pair.get_ref();
            for s in [a, b] {
                if !side_ids.contains(s) {
                    report.at(pair.span().start, format!("the alliance names side `{s}`, which the scenario does not have"));
                }
            }
            if a == b {
                report.at(pair.span().start, format!("side `{a}` cannot be allied to itself"));
            }
            let (a, b) = (SideId::new(a.clone()), SideId::new(b.clone()));
            alliances.insert((a.clone().min(b.clone()), a.max(b)));
        }
        let mut special_rules = BTreeSet::new();
        for key in &raw.special_rules {
            match SpecialRule::ALL.iter().find(|(k, _, _)| k == key.get_ref()) {
                Some((_, rule, _)) => {
                    special_rules.insert(*rule);
                }
                None => report.at(
                    key.span().start,
                    format!(
                        "`{}` is not a special rule this program knows ({})",
                        key.get_ref(),
                        SpecialRule::ALL.iter().map(|(k, _, _)| *k).collect::<Vec<_>>().join(", ")
                    ),
                ),
            }
        }
        let fortified = |n: &Spanned<u8>, what: &str, report: &mut Report<'_>| {
            let Some(map) = map else { return };
            match map.node(NodeId(*n.get_ref())) {
                None => report.at(n.span().start, format!("{what} names node {:02}, which map `{}` does not have", n.get_ref(), map.id)),
                Some(node) if !node.is_fortified() => {
                    report.at(n.span().start, format!("{what} names {}, which is not a fortified city", node.label()));
                }
                Some(_) => {}
            }
        };
        let mut siege_modifiers = Vec::new();
        for m in &raw.siege_modifier {
            fortified(&m.node, "a siege modifier", &mut report);
            siege_modifiers.push(SiegeModifier { node: NodeId(*m.node.get_ref()), modifier: m.modifier, reason: m.reason.clone() });
        }
        let mut capture_vps = Vec::new();
        for c in &raw.capture_vp {
            fortified(&c.node, "a capture award", &mut report);
            if !side_ids.contains(c.side.get_ref()) {
                report.at(
                    c.side.span().start,
                    format!("the capture award names side `{}`, which the scenario does not have", c.side.get_ref()),
                );
            }
            capture_vps.push(CaptureVp { node: NodeId(*c.node.get_ref()), side: SideId::new(c.side.get_ref().clone()), vp: c.vp });
        }
        if !report.problems.is_empty() {
            return Err(DataError { problems: report.problems });
        }
        Ok(Scenario {
            id: raw.id.into_inner(),
            name: raw.name,
            period: raw.period,
            map: raw.map.into_inner(),
            map_data: map.cloned().map(Box::new),
            capitals_allied: true,
            turns: raw.turns.into_inner(),
            move_order: raw.move_order.into_inner().into_iter().map(SideId::new).collect(),
            summary: raw.summary,
            sides,
            alliances,
            special_rules,
            siege_modifiers,
            capture_vps,
            elements: ElementTable::default(),
            armies: Vec::new(),
        })
    }
}

fn check_side<'a>(
    raw: &'a RawSide,
    map: Option<&Map>,
    controller: &mut BTreeMap<u8, &'a str>,
    report: &mut Report<'_>,
) -> Option<SideSetup> {
    let before = report.problems.len();
    let id = raw.id.get_ref().as_str();
    let colour = parse_colour(raw.colour.get_ref());
    if colour.is_none() {
        report.at(raw.colour.span().start, format!("side `{id}`: colour `{}` is not of the form #rrggbb", raw.colour.get_ref()));
    }
    let pattern = match raw.pattern.get_ref().as_str() {
        "solid" => Some(Pattern::Solid),
        "stripes" => Some(Pattern::Stripes),
        "dots" => Some(Pattern::Dots),
        "cross" => Some(Pattern::Cross),
        other => {
            report.at(raw.pattern.span().start, format!("side `{id}`: `{other}` is not a pattern (solid, stripes, dots, cross)"));
            None
        }
    };
    if *raw.army_points.get_ref() == 0 {
        report.at(raw.army_points.span().start, format!("side `{id}` has an army of 0 points"));
    }
    let node = |n: &Spanned<u8>, what: &str, report: &mut Report<'_>| -> Option<NodeId> {
        let map = map?;
        let node = map.node(NodeId(*n.get_ref()));
        if node.is_none() {
            report.at(n.span().start, format!("side `{id}`: {what} names node {:02}, which map `{}` does not have", n.get_ref(), map.id));
        }
        node.map(|n| n.id)
    };
    let mut controls = BTreeSet::new();
    for n in &raw.controls {
        if let Some(nid) = node(n, "controls", report) {
            if let Some(other) = controller.insert(nid.0, id) {
                report.at(
                    n.span().start,
                    if other == id {
                        format!("side `{id}` lists node {nid} twice in controls")
                    } else {
                        format!("node {nid} is controlled by both `{other}` and `{id}`")
                    },
                );
            }
            controls.insert(nid);
        }
    }
    let capital = raw.capital.as_ref().and_then(|c| {
        let nid = node(&c.node, "its capital", report)?;
        let fortified = map.and_then(|m| m.node(nid)).is_some_and(|n| n.is_fortified());
        if !fortified {
            report.at(c.node.span().start, format!("side `{id}`: its capital {nid} is not a fortified city"));
        }
        if !controls.contains(&nid) {
            report.at(c.node.span().start, format!("side `{id}` does not control its own capital {nid}"));
        }
        if *c.strength.get_ref() > 3 {
            report
                .at(c.strength.span().start, format!("side `{id}`: a capital's strength is 0 to 3 commands, not {}", c.strength.get_ref()));
        }
        Some(Capital { node: nid, strength: *c.strength.get_ref() })
    });
    let mut allied_cities = BTreeSet::new();
    for n in &raw.allied_cities {
        let Some(nid) = node(n, "allied_cities", report) else { continue };
        let Some(city) = map.and_then(|m| m.node(nid)) else { continue };
        if !city.is_fortified() {
            report.at(n.span().start, format!("side `{id}` lists {} as an allied city, but it has no walls", city.label()));
        } else if capital.is_some_and(|c| c.node == nid) {
            report.at(
                n.span().start,
                format!("side `{id}` lists its capital {} as an allied city; a capital needs no alliance", city.label()),
            );
        } else if !controls.contains(&nid) {
            report.at(n.span().start, format!("side `{id}` lists {} as an allied city but does not control its node", city.label()));
        }
        allied_cities.insert(nid);
    }
    if let Some(c) = &raw.allied_city_commands
        && !(1..=3).contains(c.get_ref())
    {
        report.at(c.span().start, format!("side `{id}`: allied cities field 1 to 3 commands, not {}", c.get_ref()));
    }
    let d = &raw.deploy;
    let mut nodes = BTreeSet::new();
    for n in &d.nodes {
        if let Some(nid) = node(n, "deploy.nodes", report) {
            if !controls.contains(&nid) {
                report.at(n.span().start, format!("side `{id}` may deploy at {nid}, which it does not control"));
            }
            nodes.insert(nid);
        }
    }
    let area = match d.area.get_ref().as_str() {
        "controlled" => Some(DeployArea::Controlled),
        "nodes" if d.nodes.is_empty() => {
            report.at(d.area.span().start, format!("side `{id}` deploys at `nodes` but lists none"));
            None
        }
        "nodes" => Some(DeployArea::Nodes { nodes }),
        "landing" => {
            if !raw.controls.is_empty() {
                report.at(d.area.span().start, format!("side `{id}` lands from the sea, so it cannot control nodes at the start"));
            }
            Some(DeployArea::Landing)
        }
        other => {
            report.at(d.area.span().start, format!("side `{id}`: `{other}` is not a deployment area (controlled, nodes, landing)"));
            None
        }
    };
    let command_at = d.command_at.as_ref().and_then(|n| {
        let nid = node(n, "deploy.command_at", report)?;
        if !controls.contains(&nid) {
            report.at(n.span().start, format!("side `{id}` must start a command at {nid}, which it does not control"));
        }
        Some(nid)
    });
    let fleet_at = d.fleet_at.as_ref().and_then(|n| {
        let nid = node(n, "deploy.fleet_at", report)?;
        if raw.fleet_np == 0 {
            report.at(n.span().start, format!("side `{id}` places a fleet at {nid} but has no fleet (fleet_np = 0)"));
        }
        if !map.and_then(|m| m.node(nid)).is_some_and(|n| n.coastal) {
            report.at(n.span().start, format!("side `{id}` places its fleet at {nid}, which is not coastal"));
        }
        if !controls.contains(&nid) {
            report.at(n.span().start, format!("side `{id}` places its fleet at {nid}, which it does not control"));
        }
        Some(nid)
    });
    if report.problems.len() > before {
        return None;
    }
    Some(SideSetup {
        id: SideId::new(id),
        name: raw.name.clone(),
        colour: colour?,
        pattern: pattern?,
        army_points: *raw.army_points.get_ref(),
        fleet_np: raw.fleet_np,
        capital,
        out_when_capital_falls: raw.out_when_capital_falls,
        controls,
        allied_cities,
        allied_city_commands: raw.allied_city_commands.as_ref().map(|c| *c.get_ref()),
        deploy: Deploy { area: area?, not_in_unallied_cities: d.not_in_unallied_cities, command_at, fleet_at },
    })
}

fn parse_colour(s: &str) -> Option<[u8; 3]> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

impl Scenario {
    /// MG-37: this scenario started from where an earlier campaign on the same map ended:
    /// every side the two share keeps the nodes it controls, the cities allied to it, its
    /// army as the season left it and its fleet's strength. Counters are deployed afresh
    /// within what each side now holds.
    pub fn continued_from(&self, previous: &super::state::CampaignState) -> Result<Scenario, ScenarioError> {
        if previous.scenario.map != self.map {
            return Err(ScenarioError::OtherMap {
                previous: previous.scenario.name.clone(),
                previous_map: previous.scenario.map.clone(),
                name: self.name.clone(),
                map: self.map.clone(),
            });
        }
        let mut next = self.clone();
        // The season goes on on the very map the last one was played on.
        if previous.scenario.map_data.is_some() {
            next.map_data.clone_from(&previous.scenario.map_data);
        }
        let carried: Vec<SideId> = next
            .sides
            .iter()
            .map(|s| s.id.clone())
            .filter(|id| previous.is_side(id) && !previous.politics.eliminated.contains(id))
            .collect();
        // A side new to this season arrives as its scenario sets it up; the sides carried over
        // keep the rest of what they held.
        let arriving: BTreeSet<NodeId> = next
            .sides
            .iter()
            .filter(|s| !carried.contains(&s.id))
            .flat_map(|s| s.controls.iter().chain(&s.allied_cities).copied().chain(s.capital.map(|c| c.node)))
            .collect();
        for side in next.sides.iter_mut().filter(|s| carried.contains(&s.id)) {
            side.controls = previous.control.iter().filter(|(n, s)| **s == side.id && !arriving.contains(n)).map(|(n, _)| *n).collect();
            side.allied_cities = previous
                .politics
                .city_allies
                .iter()
                .filter(|(n, s)| **s == side.id && !arriving.contains(n) && side.capital.is_none_or(|c| c.node != **n))
                .map(|(n, _)| *n)
                .collect();
            side.fleet_np = previous.fleet_np(&side.id);
        }
        for army in &mut next.armies {
            if carried.contains(&army.side)
                && let Some(old) = previous.armies.get(&army.side)
            {
                *army = old.clone();
            }
        }
        next.summary = format!("{} Continued from “{}”, as that campaign ended.", next.summary, previous.name);
        Ok(next)
    }
}

/// Why a scenario cannot continue an earlier campaign (MG-37): the two are played on
/// different maps.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    #[error("{previous} is played on map `{previous_map}` and {name} on `{map}`; a campaign continues only on the same map")]
    OtherMap { previous: String, previous_map: String, name: String, map: String },
}
