//! The command line for Magna Graecia campaigns: what only this engine has — a scenario
//! started or continued from another campaign, a roster imported, a battle's table set, its
//! pack and its result — and what `show` and `roster` print of its views.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{anyhow, bail};
use referee_campaign::core::engine::EngineId;
use referee_campaign::core::words::count;
use referee_campaign::ids::{CampaignId, NodeId, SideId};
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::engine::MagnaGraecia;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::state::CampaignState;
use referee_campaign::magna_graecia::turn::{Counter, FLEET, Phase, STACK_LIMIT, counter_label};
use referee_campaign::magna_graecia::view::{self, View};
use referee_campaign::store::{Campaign, DiceInput, Store};
use serde::Serialize;

use super::args::{CliCommand, shared_commands, shell_commands};
use super::campaign::{CliEngine, run_one};
use super::output::{Created, Output, ScenarioSummary, Written};
use super::read::{
    destination, hex_result, hex_tabletop, named, numbered_result, overwrite_hint, pack_options, read_input, refuse_side_result,
};
use super::{Access, NewCampaign, Session};

impl CliEngine for MagnaGraecia {
    const TYPED_IN: &'static str = "typed-in dice (--value)";

    /// A Magna Graecia campaign is played on its scenario's map, from the catalogue.
    fn open(session: &Session, store: &Store, id: CampaignId) -> anyhow::Result<(Campaign<Self>, Map)> {
        let catalog = session.catalog()?;
        let campaign = store.load_as::<MagnaGraecia>(id)?;
        let map = campaign.state.map(catalog.map(&campaign.state.scenario.map))?.clone();
        Ok((campaign, map))
    }

    fn sides(state: &CampaignState) -> Vec<(SideId, String)> {
        state.scenario.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect()
    }

    fn no_side(state: &CampaignState, side: &str) -> String {
        let sides: Vec<&str> = state.scenario.move_order.iter().map(SideId::as_str).collect();
        format!("{} has no side `{side}`; its sides are {}", state.scenario.name, sides.join(", "))
    }

    fn check_chits(chits: &[String]) -> anyhow::Result<()> {
        if !chits.is_empty() {
            bail!("a Magna Graecia campaign draws no chits from a cup: --chit is for Belisarius");
        }
        Ok(())
    }

    fn execute(session: &Session, command: CliCommand, out: &mut dyn Write) -> anyhow::Result<()> {
        match command {
            CliCommand::Map(args) => {
                let seen = super::campaign::view::<MagnaGraecia>(session, &args)?;
                session.print(out, &NodeListing::of(&seen.context, seen.view.board()))
            }
            CliCommand::Show(args) => {
                let seen = super::campaign::view::<MagnaGraecia>(session, &args)?;
                session.print(out, &Shown { view: seen.view, map: seen.context })
            }
            CliCommand::Roster { view, import: Some(file) } => {
                let text = read_input(&file, "the roster")?;
                let source = referee_data::SourceText { file: file.display().to_string(), text };
                let army = referee_campaign::magna_graecia::army::army_from_toml(&source).map_err(|e| anyhow!("{e}"))?;
                run_one::<MagnaGraecia>(session, &view.campaign, &Order::SetArmy { army }, DiceInput::Seeded, out)
            }
            CliCommand::Roster { view, import: None } => {
                let seen = super::campaign::view::<MagnaGraecia>(session, &view)?;
                session.print(out, &Rosters::of(&seen.view))
            }
            CliCommand::Table { campaign, battle, defence, cut, edge, values } => {
                let defence = named(&defence)?;
                let cut = cut.as_deref().map(named).transpose()?;
                let attacker_edge = edge.as_deref().map(named).transpose()?;
                if !values.is_empty() && !(2..=3).contains(&values.len()) {
                    bail!(
                        "setting a table rolls two dice (weather, then time of day) and for a strong wind a d4 for where it blows from, but {} were given",
                        values.len()
                    );
                }
                let order = Order::SetUpTable { battle, defence, cut, attacker_edge };
                run_one::<MagnaGraecia>(session, &campaign, &order, typed_in(values), out)
            }
            CliCommand::Pack { campaign, battle, out: dir, paper, system, scaling, size, figures, overwrite } => {
                let mut options = pack_options(&paper, &system, &scaling, size, &figures)?;
                let kept = crate::tables::for_pack(&mut options, &session.data, None)?;
                // A hex pack keeps its table with the battle; other packs only read.
                let mut store = session.store(if kept.is_empty() { Access::Read } else { Access::Write })?;
                let (c, map) = MagnaGraecia::open(session, &store, store.find(&campaign)?)?;
                let events = store.events_as::<MagnaGraecia>(c.id)?;
                // A battle whose result is in is printed again as it stood before.
                let past = crate::past::magna_graecia(&c.state, &map, &events);
                let before = past.into_iter().find(|p| p.number == battle).and_then(|p| p.before);
                let (state, events) = crate::past::moment::<MagnaGraecia>(&c.state, events, before, !kept.is_empty(), battle)?;
                let written = referee_battle_gen::magna_graecia::write_pack(
                    &state,
                    &map,
                    &events,
                    battle,
                    &options,
                    destination(&dir, overwrite),
                    || crate::tables::keep(&mut store, c.id, battle, &kept),
                )
                .map_err(overwrite_hint)?;
                session.print(out, &Written(written))
            }
            CliCommand::Result { campaign, battle, file, values, system, retreat, side } => {
                refuse_side_result(side.as_deref())?;
                let text = read_input(&file, "the result")?;
                if retreat.is_some() {
                    bail!(
                        "--retreat is for a Belisarius battle's hex result; in Magna Graecia the loser's roads open are in the file (MG-26)"
                    );
                }
                if let Some(system) = system {
                    let result = hex_result(&text, battle, &file)?;
                    let store = session.store(Access::Read)?;
                    let (c, map) = MagnaGraecia::open(session, &store, store.find(&campaign)?)?;
                    let events = store.events_as::<MagnaGraecia>(c.id)?;
                    let view = view::umpire_view(&c.state, &map, &events);
                    let spec = referee_battle_gen::magna_graecia::umpire_spec(&view, &map, &c.state.scenario.elements, battle)
                        .map_err(|e| anyhow!("{e}"))?;
                    let (table, _) = crate::tables::kept(&store, c.id, battle)?;
                    drop(store);
                    let tabletop = hex_tabletop(&system, table)?;
                    let neutral = referee_battle_gen::hexresult::tabletop_result(&tabletop, &spec, &result)
                        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
                    let order = referee_battle_gen::magna_graecia::result_order(&neutral, &view.board, &map).map_err(|e| anyhow!("{e}"))?;
                    return run_one::<MagnaGraecia>(session, &campaign, &order, typed_in(values), out);
                }
                let result = numbered_result(&text, battle, r#"{"outcome": …, "losses": […]}"#, || {
                    format!("{} does not read as a battle result (see docs/battle-night.md, “The result file”)", file.display())
                })?;
                run_one::<MagnaGraecia>(session, &campaign, &Order::RecordBattleResult { result }, typed_in(values), out)
            }
            CliCommand::Odds { .. } => {
                bail!("odds are counted for a Belisarius battle fought in the program; a Magna Graecia battle is fought on the table")
            }
            shell_commands!() | shared_commands!() => unreachable!("the shell runs these, or runs them generic over the engine"),
        }
    }
}

/// The dice of an order: rolled on the table where values are given, else by the seed.
fn typed_in(values: Vec<u8>) -> DiceInput {
    if values.is_empty() { DiceInput::Seeded } else { DiceInput::Manual(values) }
}

/// `referee new` for a scenario of Magna Graecia's catalogue, or one continued from where
/// campaign `from` ended (MG-37).
pub(super) fn new(session: &Session, catalog: &Catalog, new: &NewCampaign) -> anyhow::Result<Created> {
    let scenario = catalog.require_scenario(new.scenario)?;
    new.check_name()?;
    let mut store = session.store(if new.from.is_none() { Access::Create } else { Access::Write })?;
    let continued;
    let scenario = match new.from {
        Some(key) => {
            let previous = store.load_as::<MagnaGraecia>(store.find(key)?)?;
            continued = scenario.continued_from(&previous.state).map_err(|e| anyhow!("{e} — MG-37"))?;
            &continued
        }
        None => scenario,
    };
    let name = new.name(&scenario.name, &store)?;
    let campaign = store.create_as::<MagnaGraecia>(&name, scenario, new.seed())?;
    Ok(Created { id: campaign.id.0, name: campaign.state.name.clone(), scenario: scenario.id.clone() })
}

/// The lines of `referee scenarios` for Magna Graecia's catalogue.
pub(super) fn scenarios(catalog: &Catalog) -> Vec<ScenarioSummary> {
    catalog
        .scenarios
        .iter()
        .map(|sc| ScenarioSummary {
            campaign: EngineId::MagnaGraecia,
            id: sc.id.clone(),
            name: sc.name.clone(),
            period: sc.period.clone(),
            turns: sc.turns,
            sides: sc
                .move_order
                .iter()
                .filter_map(|id| sc.side(id))
                .map(|side| format!("{} ({} pts)", side.name, side.army_points))
                .collect(),
        })
        .collect()
}

/// What `show` prints: the view, whose JSON is the view alone, and the map that names its
/// nodes in the text.
struct Shown {
    view: View,
    map: Map,
}

impl Serialize for Shown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.view.serialize(serializer)
    }
}

impl Output for Shown {
    fn text(&self) -> String {
        let (board, map) = (self.view.board(), &self.map);
        let side_name = |id: &SideId| board.side_name(id);
        let name_of = |id: &Option<SideId>| id.as_ref().map_or_else(|| "—".to_owned(), side_name);
        let place = |n: NodeId| map.node(n).map_or_else(|| n.to_string(), |node| node.label());
        let mut s = format!(
            "{} · {} · turn {} of {} · {}\n",
            board.campaign,
            board.scenario_name,
            board.turn,
            board.turns,
            match board.phase {
                Phase::Setup => "setup".to_owned(),
                Phase::Ended => "campaign over".to_owned(),
                phase => format!("{} to move ({})", side_name(&board.moving), phase.name()),
            }
        );
        let forces = self.view.forces();
        match &self.view {
            View::Umpire(_) => s.push_str("Seen by: the umpire\n"),
            View::Side(v) => s.push_str(&format!("Seen by: {}\n", side_name(&v.side))),
        }
        for f in &forces {
            s.push_str(&format!("{}: army of {} points, fleet of {} NPs\n", side_name(&f.side), f.army_points, f.fleet_np));
        }
        for (a, b) in &board.alliances {
            s.push_str(&format!("Allied: {} and {}\n", side_name(a), side_name(b)));
        }

        // Counters: the viewer's own by name, the others as they are seen across the table.
        // The column as wide as the longest name shown, so long names keep the table square.
        let named = |c: &Counter| if c.name == FLEET { "fleet".to_owned() } else { c.name.clone() };
        let width = forces.iter().flat_map(|f| f.counters.iter().map(|c| named(c).chars().count())).fold(14, usize::max);
        let mut lines = Vec::new();
        for f in &forces {
            for c in &f.counters {
                let state = match c {
                    c if c.aboard => " (aboard the fleet)",
                    c if c.inside => " (inside the walls)",
                    c if c.sheltered => " (sheltered in port)",
                    _ => "",
                };
                lines.push(format!("  {:<12} {:<width$} at {}{state}", side_name(&f.side), named(c), place(c.node)));
            }
            // The garrison of a strength-0 capital stands there with its inherent sub-general.
            let capital = board.sides.iter().find(|s| s.id == f.side).and_then(|s| s.capital);
            if let (Some(capital), false) = (capital, f.garrison.is_empty()) {
                let groups: Vec<String> = f.garrison.iter().map(ToString::to_string).collect();
                lines.push(format!(
                    "  {:<12} {:<width$} at {} ({})",
                    side_name(&f.side),
                    "garrison",
                    place(capital.node),
                    groups.join(", ")
                ));
            }
        }
        let own: Vec<&SideId> = forces.iter().map(|f| &f.side).collect();
        for c in board.counters.iter().filter(|c| !own.contains(&&c.side)) {
            let what = if c.fleet { "a fleet" } else { "a command" };
            let inside = if c.inside { " (inside the walls)" } else { "" };
            lines.push(format!("  {:<12} {:<width$} at {}{inside}", side_name(&c.side), what, place(c.node)));
        }
        if !lines.is_empty() {
            s.push_str("\nCounters\n");
            s.push_str(&lines.join("\n"));
            s.push('\n');
        }
        if !board.battles.is_empty() {
            s.push_str("\nBattles due\n");
            for b in &board.battles {
                let defenders: Vec<String> = b.defenders.iter().map(side_name).collect();
                let day = if b.day > 1 { format!(", day {}", b.day) } else { String::new() };
                s.push_str(&format!(
                    "  {:>3}  at {}: {} against {}{day}\n",
                    b.id,
                    place(b.node),
                    side_name(&b.attacker),
                    defenders.join(" and ")
                ));
            }
        }
        if !board.sieges.is_empty() {
            s.push_str("\nSieges\n");
            for siege in &board.sieges {
                s.push_str(&format!("  {}: besieged by {}\n", place(siege.node), side_name(&siege.besieger)));
            }
        }

        let due = dues(&forces, &place, &side_name);
        if !due.is_empty() {
            s.push_str("\nDue\n");
            for line in due {
                s.push_str(&format!("  {line}\n"));
            }
        }

        s.push_str("\nnode                 controlled by   allied to       capital of\n");
        for n in &board.nodes {
            s.push_str(&format!(
                "  {:<19} {:<15} {:<15} {}\n",
                place(n.id),
                name_of(&n.controller),
                name_of(&n.allied_to),
                name_of(&n.capital_of)
            ));
        }
        let viewer = match &self.view {
            View::Umpire(_) => None,
            View::Side(v) => Some(&v.side),
        };
        s.push_str(&super::output::next_text(&next_orders(board, map, &forces, viewer)));
        s
    }
}

/// What the viewer's sides owe now, a line each: retreats (MG-15), losses at sea (MG-18) and
/// to sieges or disease (MG-28, MG-29).
fn dues(forces: &[&view::Forces], place: &dyn Fn(NodeId) -> String, side_name: &dyn Fn(&SideId) -> String) -> Vec<String> {
    let mut lines = Vec::new();
    for f in forces {
        let who = side_name(&f.side);
        for (counter, to) in &f.land_retreats {
            let places: Vec<String> = to.keys().map(|&n| place(n)).collect();
            lines.push(format!("{who}: {counter} owes a retreat, to {} (MG-15)", places.join(" or ")));
        }
        if !f.fleet_retreats.is_empty() {
            let places: Vec<String> = f.fleet_retreats.keys().map(|&n| place(n)).collect();
            lines.push(format!("{who}: the fleet owes a retreat, to {} (MG-15)", places.join(" or ")));
        }
        if !f.at_sea.is_empty() {
            let names: Vec<String> = f.at_sea.iter().map(|n| counter_label(n)).collect();
            lines.push(format!(
                "{who}: {} still at sea, to land before its first movement ends (`land`, MG-36)",
                referee_campaign::core::words::and_list(&names)
            ));
        }
        if f.naval_losses_due > 0 {
            lines.push(format!("{who}: {} carried to lose after the defeat at sea (MG-18)", count(f.naval_losses_due, "element")));
        }
        if let Some(due) = &f.siege_losses_due {
            let cause = if due.rule == referee_campaign::core::rule::RuleId::MG_29 { "disease" } else { "the siege" };
            let from = due.command.clone().unwrap_or_else(|| format!("its commands at {}", place(due.node)));
            lines.push(format!(
                "{who}: {} to lose to {cause} at {}, chosen from {from} (`allocate_siege_losses`, {})",
                count(due.elements, "element"),
                place(due.node),
                due.rule
            ));
        }
    }
    lines
}

/// The orders the rules expect now of the viewer (the referee: of everyone), each with an
/// order to edit: Magna Graecia's set-up, movement, battles and retreats (MG-02, MG-09 …
/// MG-15).
fn next_orders(board: &view::Board, map: &Map, forces: &[&view::Forces], viewer: Option<&SideId>) -> Vec<super::output::Next> {
    use super::output::Next;
    let name = |id: &SideId| board.side_name(id);
    let json = |order: Order| serde_json::to_string(&order).unwrap_or_default();
    let mut next = Vec::new();
    let own = |side: &SideId| forces.iter().find(|f| &f.side == side);
    match board.phase {
        Phase::Setup => {
            for f in forces {
                let deployed: Vec<&str> = f.counters.iter().map(|c| c.name.as_str()).collect();
                let orders: Vec<String> = f
                    .deployable
                    .iter()
                    .filter(|(counter, nodes)| !deployed.contains(&counter.as_str()) && !nodes.is_empty())
                    .map(|(counter, nodes)| json(Order::Deploy { side: f.side.clone(), counter: counter.clone(), node: nodes[0] }))
                    .collect();
                if !orders.is_empty() {
                    next.push(Next { who: name(&f.side), what: "deploys its counters (MG-02)".to_owned(), orders });
                }
            }
            let all_deployed = forces.iter().all(|f| f.deployable.keys().all(|counter| f.counters.iter().any(|c| &c.name == counter)));
            if viewer.is_none() && all_deployed {
                next.push(Next {
                    who: "The referee".to_owned(),
                    what: "begins play, every side deployed".to_owned(),
                    orders: vec![json(Order::BeginPlay {})],
                });
            }
        }
        Phase::Movement | Phase::Combat | Phase::PostCombat => {
            let moving = &board.moving;
            // MG-35: the offer to change sides is taken at once or lapses with the combat phase.
            if let Some((fickle, ally)) = &board.switch_offer
                && viewer.is_none_or(|v| v == fickle)
            {
                let orders = board
                    .sides
                    .iter()
                    .filter(|s| board.are_enemies(fickle, &s.id))
                    .map(|s| json(Order::SwitchSides { side: fickle.clone(), to: s.id.clone() }))
                    .collect();
                next.push(Next {
                    who: name(fickle),
                    what: format!(
                        "may change sides now that {} has lost a land battle, before this combat phase ends, or let the offer lapse (MG-35)",
                        name(ally)
                    ),
                    orders,
                });
            }
            if viewer.is_none() || viewer == Some(moving) || board.phase == Phase::Combat || board.phase == Phase::PostCombat {
                for b in board.battles.iter().filter(|b| b.awaiting_choices) {
                    for side in
                        std::iter::once(&b.attacker).chain(&b.defenders).filter(|s| !b.chosen.contains(s) && viewer.is_none_or(|v| v == *s))
                    {
                        next.push(Next {
                            who: name(side),
                            what: format!("stays or retires after battle {}, which nobody lost (MG-25)", b.id),
                            orders: vec![json(Order::ChooseStayOrRetire { side: (*side).clone(), battle: b.id, stay: true })],
                        });
                    }
                }
                // MG-27: a defender holding the fortified place of a battle not yet begun may
                // take everything inside the walls instead; the rules weigh the besieger's
                // strength when it does.
                for b in board.battles.iter().filter(|b| board.phase == Phase::Combat && !b.awaiting_choices && b.day == 1) {
                    let (Some(place), Some(status)) = (map.node(b.node), board.node(b.node)) else { continue };
                    if !place.is_fortified() {
                        continue;
                    }
                    for side in b.defenders.iter().filter(|d| status.held_by(d) && viewer.is_none_or(|v| v == *d)) {
                        next.push(Next {
                            who: name(side),
                            what: format!(
                                "may withdraw into {} instead of battle {}, if {} has the strength to besiege it (MG-27)",
                                place.name,
                                b.id,
                                name(&b.attacker)
                            ),
                            orders: vec![json(Order::WithdrawIntoCity { side: side.clone(), battle: b.id })],
                        });
                    }
                }
                if viewer.is_none() && board.phase == Phase::Combat {
                    // The campaign as a shell word, quoted where it has spaces.
                    let campaign = if board.campaign.contains(char::is_whitespace) {
                        format!("\"{}\"", board.campaign)
                    } else {
                        board.campaign.clone()
                    };
                    for b in board.battles.iter().filter(|b| !b.awaiting_choices) {
                        // An attacker that came in by no road (a sally, a landing) fights from
                        // the edge the referee names (MG-21).
                        let (edge, why) = if b.entry_edges.is_empty() {
                            (" --edge north", ", naming the edge the attacker fights from: it came by no road")
                        } else {
                            ("", "")
                        };
                        let what = match b.table {
                            None => {
                                format!(
                                    "sets battle {}'s table (`referee table {campaign} {} --defence central{edge}`{why}), then ",
                                    b.id, b.id
                                )
                            }
                            Some(_) => String::new(),
                        };
                        next.push(Next {
                            who: "The referee".to_owned(),
                            what: format!(
                                "{what}types in battle {}'s result (`referee result {campaign} {} --file result.json`, MG-20)",
                                b.id, b.id
                            ),
                            orders: Vec::new(),
                        });
                    }
                }
            }
            // Retreats are made in post-combat movement, the side not moving first (MG-15,
            // MG-25); losses to a siege or disease are chosen before anything else moves
            // (MG-28, MG-29).
            let retreating = |f: &view::Forces| !f.land_retreats.is_empty() || !f.fleet_retreats.is_empty();
            let others_retreat = board.retreating.iter().any(|s| s != moving);
            let mut owing = false;
            for f in forces {
                if let Some(due) = &f.siege_losses_due {
                    owing = true;
                    let from = due.command.clone().unwrap_or_else(|| "<command>".to_owned());
                    next.push(Next {
                        who: name(&f.side),
                        what: format!("chooses the {} it loses ({})", count(due.elements, "element"), due.rule),
                        orders: vec![format!(r#"{{"type":"allocate_siege_losses","side":"{}","lost":[["{from}","<elements>"]]}}"#, f.side)],
                    });
                }
                if board.phase != Phase::PostCombat || !retreating(f) {
                    continue;
                }
                owing = true;
                if &f.side == moving && others_retreat {
                    next.push(Next {
                        who: name(&f.side),
                        what: "retreats once the sides not moving have (MG-15, MG-25)".to_owned(),
                        orders: Vec::new(),
                    });
                    continue;
                }
                let mut orders = Vec::new();
                for (counter, to) in &f.land_retreats {
                    if let Some(path) = to.values().next() {
                        orders.push(json(Order::Retreat { side: f.side.clone(), counter: counter.clone(), path: path.clone() }));
                    }
                }
                if let Some(path) = f.fleet_retreats.values().next() {
                    orders.push(json(Order::RetreatFleet { side: f.side.clone(), path: path.clone() }));
                }
                next.push(Next { who: name(&f.side), what: "retreats (MG-15, MG-25)".to_owned(), orders });
            }
            if owing {
                return next;
            }
            if board.phase == Phase::Movement && viewer.is_none_or(|v| v == moving) {
                // MG-36: a side that starts at sea lands before its first movement ends.
                if let Some(f) = own(moving).filter(|f| !f.at_sea.is_empty()) {
                    // Each counter to the first southern node with no enemy counter and room,
                    // where no city allied to an enemy waits if one such node will do.
                    let enemy_at = |n: NodeId| board.counters.iter().any(|c| c.node == n && board.are_enemies(moving, &c.side));
                    let hostile =
                        |n: NodeId| board.node(n).and_then(|s| s.allied_to.as_ref()).is_some_and(|a| board.are_enemies(moving, a));
                    let mut ashore: BTreeMap<NodeId, usize> = BTreeMap::new();
                    for c in board.counters.iter().filter(|c| &c.side == moving && !c.fleet) {
                        *ashore.entry(c.node).or_default() += 1;
                    }
                    let mut orders = Vec::new();
                    for counter in &f.at_sea {
                        let room = |n: NodeId, ashore: &BTreeMap<NodeId, usize>| {
                            counter == FLEET || ashore.get(&n).copied().unwrap_or(0) < STACK_LIMIT
                        };
                        let open: Vec<NodeId> =
                            map.nodes.values().filter(|n| n.south_coast && !enemy_at(n.id) && room(n.id, &ashore)).map(|n| n.id).collect();
                        let Some(&node) = open.iter().find(|&&n| !hostile(n)).or(open.first()) else { continue };
                        if counter != FLEET {
                            *ashore.entry(node).or_default() += 1;
                        }
                        orders.push(json(Order::Land { side: moving.clone(), counter: counter.clone(), node }));
                    }
                    next.push(Next {
                        who: name(moving),
                        what: "lands every counter still at sea, each at a southern coastal node no enemy counter stands on, before its first movement ends (MG-36)".to_owned(),
                        orders,
                    });
                }
                // MG-28: the besieger rolls when its movement ends, after a full turn of siege
                // in which none of its counters there has moved.
                for siege in board.sieges.iter().filter(|s| &s.besieger == moving) {
                    next.push(Next {
                        who: name(moving),
                        what: if siege.begun_turn >= board.turn {
                            format!(
                                "rolls for the siege of {} after a full turn of it: at the end of its next movement, if none of its counters there moves (MG-28)",
                                map.name(siege.node)
                            )
                        } else {
                            format!(
                                "rolls for the siege of {} when its movement ends, unless one of its counters there moves (MG-28)",
                                map.name(siege.node)
                            )
                        },
                        orders: Vec::new(),
                    });
                }
                // MG-27: the besieged may come out and fight in their own movement phase.
                let inside = |node: NodeId| board.counters.iter().any(|c| &c.side == moving && c.node == node && c.inside);
                for siege in board.sieges.iter().filter(|s| &s.defender == moving && inside(s.node)) {
                    next.push(Next {
                        who: name(moving),
                        what: format!(
                            "may sally out of {}: the siege ends and a battle is raised when its movement ends (MG-27)",
                            map.name(siege.node)
                        ),
                        orders: vec![json(Order::Sally { side: moving.clone(), node: siege.node })],
                    });
                }
            }
            if let Some(f) = own(moving) {
                let mut orders: Vec<String> = if board.phase == Phase::Movement {
                    f.moves
                        .iter()
                        .filter_map(|(counter, to)| {
                            let path = to.values().max_by_key(|p| p.len())?;
                            Some(json(Order::Move { side: moving.clone(), counter: counter.clone(), path: path.clone() }))
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                // A combat phase ends once its battles are fought; post-combat movement once
                // every retreat is made (MG-15).
                let waiting = match board.phase {
                    Phase::Movement => !f.at_sea.is_empty(),
                    Phase::Combat => !board.battles.is_empty(),
                    Phase::PostCombat => !board.retreating.is_empty(),
                    _ => false,
                };
                if !waiting {
                    orders.push(json(Order::EndPhase { side: moving.clone() }));
                }
                let what = match board.phase {
                    Phase::Movement if waiting => "moves its counters, then ends its movement once all have landed (MG-09, MG-11)",
                    Phase::Movement => "moves its counters, then ends its movement (MG-09, MG-11)",
                    Phase::Combat => "ends its combat phase once its battles are fought (MG-09)",
                    _ if waiting => "ends its post-combat movement once the retreats are made (MG-09, MG-15)",
                    _ => "ends its post-combat movement (MG-09)",
                };
                next.push(Next { who: name(moving), what: what.to_owned(), orders });
            } else if viewer.is_some() {
                next.push(Next {
                    who: name(moving),
                    what: format!("is to move; {} waits", viewer.map_or_else(String::new, name)),
                    orders: Vec::new(),
                });
            }
        }
        Phase::Ended => {}
    }
    next
}

/// The armies a viewer may read, as `roster` prints them.
#[derive(Serialize)]
#[serde(transparent)]
struct Rosters {
    forces: Vec<view::Forces>,
    /// Each side's name, for the text.
    #[serde(skip)]
    names: BTreeMap<SideId, String>,
}

impl Rosters {
    fn of(view: &View) -> Self {
        let board = view.board();
        let forces: Vec<view::Forces> = view.forces().into_iter().cloned().collect();
        let names = forces.iter().map(|f| (f.side.clone(), board.side_name(&f.side))).collect();
        Rosters { forces, names }
    }
}

impl Output for Rosters {
    fn text(&self) -> String {
        let mut s = String::new();
        for f in &self.forces {
            let name = self.names.get(&f.side).cloned().unwrap_or_else(|| f.side.to_string());
            s.push_str(&format!("{name}: {} of {} points", f.points_spent, f.army_points));
            let Some(army) = &f.army else {
                s.push_str(", no roster\n");
                continue;
            };
            s.push_str(&format!(" — {}\n", army.list));
            for (c, mp) in army.commands.iter().zip(&f.movement_points) {
                let elements: Vec<String> = c.elements.iter().map(ToString::to_string).collect();
                // A command whose general was lost fights on without him (MG-31).
                let general =
                    if f.is_leaderless(&c.name) { format!("lost ({}), leaderless (MG-31)", c.general) } else { c.general.to_string() };
                s.push_str(&format!(
                    "  {} ({}, {} MP, {}): general {general}; {}\n",
                    c.name,
                    c.rank.name(),
                    mp,
                    count(f.elements_of(c), "element"),
                    elements.join(", ")
                ));
            }
        }
        s
    }
}

impl super::player::PlayerEngine for MagnaGraecia {
    fn read_view(json: serde_json::Value) -> serde_json::Result<View> {
        super::player::side_view(json)
    }

    type Public = Map;

    fn check(
        view: &View,
        map: &Map,
        earlier: &[Order],
        order: &Order,
    ) -> Result<referee_campaign::core::plan::Checked, referee_campaign::core::error::RuleError> {
        match view {
            View::Side(side) => referee_campaign::magna_graecia::plan::check(side, map, earlier, order),
            View::Umpire(_) => Ok(referee_campaign::core::plan::Checked::ForReferee("the referee's own view".to_owned())),
        }
    }

    fn plan_line(view: &View, map: &Map, order: &Order) -> String {
        let board = view.board();
        let battle_at = |id: u32| board.battles.iter().find(|b| b.id == id).map(|b| b.node);
        order.summary(map, &|s| board.side_name(s), &battle_at)
    }

    fn shown(view: View, map: Map) -> Box<dyn super::output::ErasedOutput> {
        Box::new(Shown { view, map })
    }

    fn map_listing(view: &View, map: &Map) -> Box<dyn super::output::ErasedOutput> {
        Box::new(NodeListing::of(map, view.board()))
    }

    fn roster(view: &View) -> Box<dyn super::output::ErasedOutput> {
        Box::new(Rosters::of(view))
    }
}

/// The node map as `map` prints it: every node with its paths and who holds it.
#[derive(Serialize)]
struct NodeListing {
    map: String,
    reconstructed: bool,
    nodes: Vec<NodeEntry>,
}

#[derive(Serialize)]
struct NodeEntry {
    id: NodeId,
    name: String,
    coastal: bool,
    /// Commands the city fields while neutral; `None` for an open site (MG-01, MG-05).
    walls: Option<u8>,
    controlled_by: Option<String>,
    allied_to: Option<String>,
    capital_of: Option<String>,
    /// Nodes one path away.
    paths: Vec<NodeId>,
}

impl NodeListing {
    fn of(map: &Map, board: &view::Board) -> NodeListing {
        let name = |s: Option<&SideId>| s.map(|s| board.side_name(s));
        let nodes = map
            .nodes
            .values()
            .map(|n| {
                let status = board.node(n.id);
                NodeEntry {
                    id: n.id,
                    name: n.name.clone(),
                    coastal: n.coastal,
                    walls: status.and_then(|s| s.city_commands).or(n.city_commands),
                    controlled_by: name(status.and_then(|s| s.controller.as_ref())),
                    allied_to: name(status.and_then(|s| s.allied_to.as_ref())),
                    capital_of: name(status.and_then(|s| s.capital_of.as_ref())),
                    paths: map.neighbours(n.id).collect(),
                }
            })
            .collect();
        NodeListing { map: map.name.clone(), reconstructed: map.reconstructed, nodes }
    }
}

impl Output for NodeListing {
    fn text(&self) -> String {
        let mut s = format!("{}{}: {} nodes\n", self.map, if self.reconstructed { " (reconstructed)" } else { "" }, self.nodes.len());
        let label = |id: NodeId| self.nodes.iter().find(|n| n.id == id).map_or_else(|| id.to_string(), |n| format!("{id} {}", n.name));
        for n in &self.nodes {
            let mut what = Vec::new();
            if n.coastal {
                what.push("coastal".to_owned());
            }
            match n.walls {
                Some(commands) => what.push(format!("walled, {}", count(commands, "command"))),
                None => what.push("open".to_owned()),
            }
            if let Some(side) = &n.capital_of {
                what.push(format!("capital of {side}"));
            }
            if let Some(side) = &n.controlled_by {
                what.push(format!("held by {side}"));
            }
            if let Some(side) = &n.allied_to {
                what.push(format!("allied to {side}"));
            }
            let paths: Vec<String> = n.paths.iter().map(|&p| label(p)).collect();
            s.push_str(&format!("{} {} ({})\n    paths to {}\n", n.id, n.name, what.join(", "), paths.join(", ")));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use referee_campaign::Dice;
    use referee_campaign::core::engine::Engine as _;
    use referee_campaign::core::viewer::Viewer;

    use super::*;

    /// The Dionysian War played from the command line for three turns: deployment, a battle at
    /// Himera over two days with a table each, a retreat, a city won over, Panormus's own
    /// commands beating Syracuse's march on it. The orders as the store kept them, with their
    /// dice, in turn; seed 42.
    const PLAYED: &str = include_str!("../../tests/fixtures/dionysian_played.json");
    /// Its first battle ending with nobody beaten, both sides retiring; seed 5.
    const NOBODY_LOST: &str = include_str!("../../tests/fixtures/dionysian_nobody_lost.json");

    /// Himera besieged by Carthage's march in strength; the siege roll a natural 1 brings
    /// disease, and Syracuse's own roll for it a 1 too (MG-27 … MG-29). With their dice.
    fn siege_of_himera() -> Vec<(Order, DiceInput)> {
        use referee_campaign::fixtures::{DIONYSIAN, deploy_orders, dionysian_for_a_siege, march_on_himera};
        let end = |s: &str, dice: DiceInput| (Order::EndPhase { side: SideId::new(s) }, dice);
        let mut orders: Vec<(Order, DiceInput)> =
            deploy_orders(&dionysian_for_a_siege(&DIONYSIAN)).into_iter().map(|o| (o, DiceInput::Seeded)).collect();
        orders.push((Order::BeginPlay {}, DiceInput::Seeded));
        orders.extend(march_on_himera().into_iter().map(|o| (o, DiceInput::Seeded)));
        orders.push((Order::WithdrawIntoCity { side: SideId::new("syracuse"), battle: 1 }, DiceInput::Seeded));
        for s in ["carthage", "carthage", "syracuse", "syracuse", "syracuse"] {
            orders.push(end(s, DiceInput::Seeded));
        }
        orders.push(end("carthage", DiceInput::Manual(vec![1])));
        orders.extend([end("carthage", DiceInput::Seeded), end("carthage", DiceInput::Seeded)]);
        orders.push(end("syracuse", DiceInput::Manual(vec![1])));
        orders
    }

    /// Every whole order **Next:** offers `viewer` now that the rules would refuse, in words.
    fn refused_offers(c: &Campaign<MagnaGraecia>, store: &Store, map: &Map, when: &str) -> Vec<String> {
        let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
        let mut refused = Vec::new();
        let viewers = std::iter::once(Viewer::Umpire).chain(c.state.scenario.sides.iter().map(|s| Viewer::Side(s.id.clone())));
        for viewer in viewers {
            let view = MagnaGraecia::view_for(&c.state, map, &events, &viewer).unwrap();
            let side = match &viewer {
                Viewer::Side(s) => Some(s),
                Viewer::Umpire => None,
            };
            for next in next_orders(view.board(), map, &view.forces(), side) {
                for json in next.orders.iter().filter(|o| !o.contains('<')) {
                    let offered: Order = serde_json::from_str(json).unwrap();
                    let (seed, at) = MagnaGraecia::dice(&c.state);
                    if let Err(e) = MagnaGraecia::allows(&c.state, map, &offered, &mut Dice::seeded(seed, at)) {
                        // MG-27: a defender is offered its withdrawal whatever the besieger's
                        // strength, which it cannot know; Next says so, and the rules weigh it.
                        let unknowable = matches!(offered, Order::WithdrawIntoCity { .. }) && e.to_string().contains("too few to besiege");
                        if !unknowable {
                            refused.push(format!("{when}, {viewer:?} was offered {json}: {e}"));
                        }
                    }
                }
            }
        }
        refused
    }

    /// X-06, MG-09 … MG-15, MG-25, MG-28: at every moment of two played campaigns, each order
    /// **Next:** offers whole is one the rules would take now, for the referee and each side:
    /// a player copies them.
    #[test]
    fn x_06_every_order_next_offers_is_one_the_rules_take() {
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap();
        let mut refused = Vec::new();
        let games = [(serde_json::from_str(PLAYED).unwrap(), 42), (serde_json::from_str(NOBODY_LOST).unwrap(), 5), (siege_of_himera(), 9)];
        for (orders, seed) in games {
            let orders: Vec<(Order, DiceInput)> = orders;
            let mut store = Store::open_in_memory().unwrap();
            let mut c = store.create_as::<MagnaGraecia>("Dionysius", catalog.scenario("dionysian").unwrap(), seed).unwrap();
            for (n, (order, dice)) in orders.iter().enumerate() {
                refused.extend(refused_offers(&c, &store, map, &format!("seed {seed}, before order {}", n + 1)));
                store.execute(&mut c, map, order, dice.clone()).unwrap_or_else(|e| panic!("seed {seed}, order {}: {e}", n + 1));
            }
            refused.extend(refused_offers(&c, &store, map, &format!("seed {seed}, at the end")));
        }
        assert!(refused.is_empty(), "{}", refused.join("\n"));
    }

    /// MG-35, X-06: once Rome beats Carthage, Syracuse's Next offers it the change of sides,
    /// whole and taken by the rules, and nobody else's does; its `show` says whom it stands
    /// with. The offer is gone with the combat phase.
    #[test]
    fn mg_35_next_offers_the_fickle_ally_its_change_of_sides() {
        let (mut store, mut c, map) =
            referee_campaign::fixtures::magna_graecia("first-punic", 5, &referee_campaign::fixtures::appius_marches_on_tyndaris());
        let map = &map;
        let side = SideId::new;
        let run = |store: &mut Store, c: &mut Campaign<MagnaGraecia>, order: Order| {
            store.execute(c, map, &order, DiceInput::Seeded).unwrap();
        };
        let result = referee_campaign::fixtures::won_outright(c.state.battles[0].id, "rome");
        run(&mut store, &mut c, Order::RecordBattleResult { result });
        let offers = |store: &Store, c: &Campaign<MagnaGraecia>, viewer: Viewer| {
            let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
            let view = MagnaGraecia::view_for(&c.state, map, &events, &viewer).unwrap();
            let side = match &viewer {
                Viewer::Side(s) => Some(s.clone()),
                Viewer::Umpire => None,
            };
            let next = next_orders(view.board(), map, &view.forces(), side.as_ref());
            let text = Shown { view, map: map.clone() }.text();
            (next.into_iter().filter(|n| n.what.contains("MG-35")).collect::<Vec<_>>(), text)
        };
        let (offered, text) = offers(&store, &c, Viewer::Side(side("syracuse")));
        assert!(text.contains("Allied: Carthage and Syracuse"), "{text}");
        assert_eq!(offered.len(), 1, "{text}");
        assert!(offered[0].what.contains("now that Carthage has lost a land battle"), "{}", offered[0].what);
        assert_eq!(offered[0].orders, [r#"{"type":"switch_sides","side":"syracuse","to":"rome"}"#]);
        let order: Order = serde_json::from_str(&offered[0].orders[0]).unwrap();
        let (seed, at) = MagnaGraecia::dice(&c.state);
        MagnaGraecia::allows(&c.state, map, &order, &mut Dice::seeded(seed, at)).unwrap();
        assert_eq!(offers(&store, &c, Viewer::Umpire).0.len(), 1);
        for other in ["rome", "carthage"] {
            assert!(offers(&store, &c, Viewer::Side(side(other))).0.is_empty(), "{other} is offered Syracuse's change");
        }
        run(&mut store, &mut c, Order::EndPhase { side: side("rome") });
        assert!(offers(&store, &c, Viewer::Side(side("syracuse"))).0.is_empty(), "the offer lapsed");
    }

    /// What Next offers `viewer` now: each entry's words and orders.
    fn offered(c: &Campaign<MagnaGraecia>, store: &Store, map: &Map, viewer: &Viewer) -> Vec<(String, Vec<String>)> {
        let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
        let view = MagnaGraecia::view_for(&c.state, map, &events, viewer).unwrap();
        let side = match viewer {
            Viewer::Side(s) => Some(s),
            Viewer::Umpire => None,
        };
        next_orders(view.board(), map, &view.forces(), side).into_iter().map(|n| (format!("{} {}", n.who, n.what), n.orders)).collect()
    }

    /// MG-27, MG-28, X-06: a defender holding the walled place of its battle is offered the
    /// withdrawal inside, the attacker is not; the besieged are offered their sally in their
    /// own movement phase, and the besieger is told when it rolls.
    #[test]
    fn mg_27_next_offers_the_withdrawal_the_sally_and_the_siege_roll() {
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<MagnaGraecia>("Dionysius", catalog.scenario("dionysian").unwrap(), 9).unwrap();
        let syracuse = Viewer::Side(SideId::new("syracuse"));
        let carthage = Viewer::Side(SideId::new("carthage"));
        let withdrawal = r#"{"type":"withdraw_into_city","side":"syracuse","battle":1}"#;
        let sally = r#"{"type":"sally","side":"syracuse","node":8}"#;
        let has = |list: &[(String, Vec<String>)], order: &str| list.iter().any(|(_, orders)| orders.iter().any(|o| o == order));
        let (mut withdrawal_seen, mut sally_seen, mut roll_seen) = (false, false, false);
        for (order, dice) in siege_of_himera() {
            if c.state.battles.first().is_some_and(|b| b.node == NodeId(8)) {
                let offers = offered(&c, &store, map, &syracuse);
                assert!(has(&offers, withdrawal), "{offers:?}");
                let line = offers.iter().find(|(_, o)| o.iter().any(|o| o == withdrawal)).unwrap();
                assert_eq!(
                    line.0,
                    "Syracuse may withdraw into Himera instead of battle 1, if Carthage has the strength to besiege it (MG-27)"
                );
                assert!(has(&offered(&c, &store, map, &Viewer::Umpire), withdrawal));
                assert!(!has(&offered(&c, &store, map, &carthage), withdrawal), "the attacker does not withdraw");
                withdrawal_seen = true;
            }
            let besieged_moving =
                c.state.phase == Phase::Movement && c.state.moving_side() == &SideId::new("syracuse") && !c.state.siege.sieges.is_empty();
            let besieger_moving =
                c.state.phase == Phase::Movement && c.state.moving_side() == &SideId::new("carthage") && !c.state.siege.sieges.is_empty();
            if besieger_moving {
                let offers = offered(&c, &store, map, &carthage);
                assert!(offers.iter().any(|(what, _)| what.starts_with("Carthage rolls for the siege of Himera")), "{offers:?}");
                assert!(!offered(&c, &store, map, &syracuse).iter().any(|(what, _)| what.contains("siege of Himera")));
                roll_seen = true;
            }
            if besieged_moving && c.state.siege.siege_losses_due.is_empty() {
                assert!(has(&offered(&c, &store, map, &syracuse), sally));
                let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
                let text = Shown { view: MagnaGraecia::view_for(&c.state, map, &events, &syracuse).unwrap(), map: map.clone() }.text();
                assert!(text.lines().any(|l| l.contains("Leptines") && l.ends_with("at 08 Himera (inside the walls)")), "{text}");
                assert!(!has(&offered(&c, &store, map, &carthage), sally));
                sally_seen = true;
            } else {
                assert!(!has(&offered(&c, &store, map, &Viewer::Umpire), sally), "a sally only in the besieged side's movement");
            }
            store.execute(&mut c, map, &order, dice).unwrap();
        }
        assert!(withdrawal_seen && sally_seen && roll_seen);
    }

    /// MG-21, X-06: the battle a sally raises came in by no road, and Next's table line names
    /// the edge the attacker fights from, which `table` needs.
    #[test]
    fn mg_21_next_names_the_edge_of_a_battle_that_came_by_no_road() {
        use referee_campaign::fixtures::{DIONYSIAN, deploy_orders, dionysian_for_a_siege, march_on_himera};
        let syracuse = SideId::new("syracuse");
        let mut orders = deploy_orders(&dionysian_for_a_siege(&DIONYSIAN));
        orders.push(Order::BeginPlay {});
        orders.extend(march_on_himera());
        orders.push(Order::WithdrawIntoCity { side: syracuse.clone(), battle: 1 });
        orders.extend(["carthage", "carthage"].map(|s| Order::EndPhase { side: SideId::new(s) }));
        orders.push(Order::Sally { side: syracuse.clone(), node: NodeId(8) });
        orders.push(Order::EndPhase { side: syracuse });
        let (store, c, map) = referee_campaign::fixtures::magna_graecia("dionysian", 9, &orders);
        let offers = offered(&c, &store, &map, &Viewer::Umpire);
        let line = offers.iter().find(|(what, _)| what.contains("table")).map(|(what, _)| what.clone()).unwrap_or_default();
        assert!(
            line.contains("`referee table Fixture 2 --defence central --edge north`, naming the edge the attacker fights from"),
            "{offers:?}"
        );
    }

    /// MG-04: a side's `show` lists the garrison of its strength-0 capital with its counters;
    /// the other side's does not.
    #[test]
    fn mg_04_show_lists_the_sides_own_garrison() {
        let syracuse = SideId::new("syracuse");
        let orders = [
            Order::Deploy { side: syracuse.clone(), counter: "Dionysius".into(), node: NodeId(31) },
            Order::Garrison {
                side: syracuse.clone(),
                command: "Dionysius".into(),
                elements: vec!["4 Reg Sp(O)".parse().unwrap()],
                into_garrison: true,
            },
        ];
        let (store, c, map) = referee_campaign::fixtures::magna_graecia("dionysian", 9, &orders);
        let text = |viewer: &str| {
            let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
            let view = MagnaGraecia::view_for(&c.state, &map, &events, &Viewer::Side(SideId::new(viewer))).unwrap();
            Shown { view, map: map.clone() }.text()
        };
        let own = text("syracuse");
        assert!(own.lines().any(|l| l.contains("garrison") && l.ends_with("at 31 Syracuse (4 Reg Sp(O))")), "{own}");
        assert!(!text("carthage").contains("garrison"));
    }

    /// MG-36, X-06: Carthage, at sea in the Second Punic War, is told to land everything on its
    /// first turn and is offered no end of movement until it has; its Due says what is at sea.
    #[test]
    fn mg_36_next_lands_what_is_still_at_sea() {
        let mut orders = referee_campaign::fixtures::deploy_orders(&referee_campaign::fixtures::SYRACUSE_BESIEGED);
        orders.push(Order::BeginPlay {});
        orders.extend(["rome", "rome", "rome", "syracuse", "syracuse", "syracuse"].map(|s| Order::EndPhase { side: SideId::new(s) }));
        let (mut store, mut c, map) = referee_campaign::fixtures::magna_graecia("second-punic", 4, &orders);
        let map = &map;
        let run =
            |store: &mut Store, c: &mut Campaign<MagnaGraecia>, order: Order| store.execute(c, map, &order, DiceInput::Seeded).unwrap();
        let carthage = Viewer::Side(SideId::new("carthage"));
        let offers = offered(&c, &store, map, &carthage);
        let landing = offers.iter().find(|(what, _)| what.contains("MG-36")).expect("a landing is offered");
        assert_eq!(landing.1.len(), 4, "three commands and the fleet: {landing:?}");
        assert!(offers.iter().all(|(_, orders)| orders.iter().all(|o| !o.contains("end_phase"))), "{offers:?}");
        let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
        let text = Shown { view: MagnaGraecia::view_for(&c.state, map, &events, &carthage).unwrap(), map: map.clone() }.text();
        assert!(
            text.contains(
                "Carthage: Himilco, Hanno, Muttines and the fleet still at sea, to land before its first movement ends (`land`, MG-36)"
            ),
            "{text}"
        );
        for order in &landing.1 {
            run(&mut store, &mut c, serde_json::from_str(order).unwrap());
        }
        let offers = offered(&c, &store, map, &carthage);
        assert!(offers.iter().all(|(what, _)| !what.contains("MG-36")), "{offers:?}");
        assert!(offers.iter().any(|(_, orders)| orders.iter().any(|o| o.contains("end_phase"))), "{offers:?}");
    }

    /// X-06, MG-28, MG-29: losses owed to a siege or disease read in words, with where, why
    /// and from which commands, and Next offers the order that chooses them.
    #[test]
    fn x_06_losses_owed_to_a_siege_read_in_words() {
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<MagnaGraecia>("Dionysius", catalog.scenario("dionysian").unwrap(), 9).unwrap();
        let mut owed = None;
        for (order, dice) in siege_of_himera() {
            store.execute(&mut c, map, &order, dice).unwrap();
            let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
            let view = MagnaGraecia::view_for(&c.state, map, &events, &Viewer::Side(SideId::new("syracuse"))).unwrap();
            if view.forces().iter().any(|f| f.siege_losses_due.is_some()) {
                owed = Some(Shown { view, map: map.clone() }.text());
                break;
            }
        }
        let text = owed.expect("the played campaign reaches losses owed to a siege or disease");
        assert!(text.contains("Syracuse: 2 elements to lose to disease at 08 Himera, chosen from its commands at 08 Himera (`allocate_siege_losses`, MG-29)"), "{text}");
        assert!(!text.contains("LossesDue") && !text.contains("NodeId"), "{text}");
        assert!(text.contains(r#"{"type":"allocate_siege_losses","side":"syracuse","lost":[["<command>","<elements>"]]}"#), "{text}");
    }
}
