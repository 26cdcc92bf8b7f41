//! The command line for Belisarius campaigns: what only this engine has — a battle's pack,
//! its result from the table, the odds of a battle fought in the program — and what `show`
//! and `roster` print of its views.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{Context as _, anyhow, bail};
use referee_campaign::belisarius::map::ZoneMap;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, State};
use referee_campaign::belisarius::view::{Organisation, View};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::engine::EngineId;
use referee_campaign::ids::{CampaignId, SideId};
use referee_campaign::store::{Campaign, DiceInput, Store};
use serde::Serialize;

use super::args::{CliCommand, shared_commands, shell_commands};
use super::campaign::{CliEngine, executed};
use super::output::{Created, Output, ScenarioSummary, Written};
use super::read::{destination, hex_result, hex_tabletop, overwrite_hint, pack_options, read_input, refuse_side_result, strict_json};
use super::{Access, NewCampaign, Session};

impl CliEngine for Belisarius {
    const TYPED_IN: &'static str = "typed-in dice (--value) and chits (--chit)";

    /// A Belisarius campaign keeps its map, leaders and tables with it.
    fn open(_: &Session, store: &Store, id: CampaignId) -> anyhow::Result<(Campaign<Self>, ())> {
        Ok((store.load_as::<Belisarius>(id)?, ()))
    }

    fn sides(state: &State) -> Vec<(SideId, String)> {
        state.setup.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect()
    }

    fn no_side(state: &State, side: &str) -> String {
        state.setup.no_such_side(side)
    }

    /// Belisarius draws chits from cups: a real draw is typed in with the order.
    fn check_chits(_: &[String]) -> anyhow::Result<()> {
        Ok(())
    }

    fn execute(session: &Session, command: CliCommand, out: &mut dyn Write) -> anyhow::Result<()> {
        match command {
            CliCommand::Map(args) => {
                let seen = super::campaign::view::<Belisarius>(session, &args)?;
                session.print(out, &ZoneListing::of(&seen.campaign.state.setup.map, seen.view.board()))
            }
            CliCommand::Show(args) => {
                let seen = super::campaign::view::<Belisarius>(session, &args)?;
                session.print(out, &Shown { view: seen.view, map: seen.campaign.state.setup.map.clone() })
            }
            CliCommand::Roster { import: Some(_), .. } => {
                bail!(
                    "a Belisarius side's Table of Organisation comes from its scenario; a roster file is for Magna Graecia armies (MG-03)"
                )
            }
            CliCommand::Roster { view: args, import: None } => {
                let seen = super::campaign::view::<Belisarius>(session, &args)?;
                session.print(out, &Rosters(seen.view.organisations().into_iter().cloned().collect()))
            }
            CliCommand::Table { .. } => bail!(
                "a Belisarius battle's table is laid across its zone's battle map as the pack shows it; there is no section to choose (BE-17)"
            ),
            CliCommand::Pack { campaign, battle, out: dir, paper, system, scaling, size, figures, overwrite } => {
                let mut options = pack_options(&paper, &system, &scaling, size, &figures)?;
                let conv = referee_battle_gen::belisarius::Conversion::load(&session.data).map_err(|e| anyhow!("{e}"))?;
                let kept = crate::tables::for_pack(&mut options, &session.data, Some(&conv))?;
                // A hex pack keeps its tables with the battle; other packs only read.
                let mut store = session.store(if kept.is_empty() { Access::Read } else { Access::Write })?;
                let c = store.load_as::<Belisarius>(store.find(&campaign)?)?;
                let events = store.events_as::<Belisarius>(c.id)?;
                let before = after_sent_to_table(&campaign, &c.state, &events, battle)?;
                let (state, events) = crate::past::moment::<Belisarius>(&c.state, events, before, !kept.is_empty(), battle)?;
                let catalog = session.catalog()?;
                let files = referee_battle_gen::belisarius::campaign_pack(&state, &events, &catalog.elements, &conv, &options)?;
                let written = referee_battle_gen::pack::write_files(files, destination(&dir, overwrite), || {
                    crate::tables::keep(&mut store, c.id, battle, &kept)
                })
                .map_err(overwrite_hint)?;
                session.print(out, &Written(written))
            }
            CliCommand::Result { campaign, battle, file, values, system, retreat, side } => {
                refuse_side_result(side.as_deref())?;
                if !values.is_empty() {
                    bail!("a Belisarius battle's result takes no dice: the losses come from the table (BE-19)");
                }
                if retreat.is_some() && system.is_none() {
                    bail!("--retreat goes with --system; a Belisarius result file names its retreat itself (BE-22)");
                }
                let text = read_input(&file, "the result")?;
                let mut store = session.store(Access::Write)?;
                let mut c = store.load_as::<Belisarius>(store.find(&campaign)?)?;
                let events = store.events_as::<Belisarius>(c.id)?;
                let now = referee_battle_gen::belisarius::battle_number(&events);
                if !c.state.ops.as_ref().is_some_and(|o| o.battle.as_ref().is_some_and(|b| b.at_table)) {
                    bail!(
                        "{campaign} has no battle on the table now: a result is entered for the battle sent there (`send_to_table`, BE-17)"
                    );
                }
                if battle != now {
                    bail!("the battle on the table in {campaign} is battle {now}, not battle {battle}");
                }
                let result: referee_campaign::belisarius::battle::TableResult = match system {
                    Some(system) => {
                        let hex = hex_result(&text, battle, &file)?;
                        // Counted by the tables the pack kept; a pack that kept none, by the
                        // built-in hex table and the data folder's conversion, as before.
                        let (table, kept) = crate::tables::kept(&store, c.id, battle)?;
                        let tabletop = hex_tabletop(&system, table)?;
                        let conv = match kept {
                            Some(conv) => conv,
                            None => referee_battle_gen::belisarius::Conversion::load(&session.data).map_err(|e| anyhow!("{e}"))?,
                        };
                        let catalog = session.catalog()?;
                        referee_battle_gen::belisarius::hex_table_result(
                            &c.state,
                            &events,
                            &catalog.elements,
                            &conv,
                            &tabletop,
                            &hex,
                            retreat,
                        )
                        .map_err(|e| anyhow!("{}: {e}", file.display()))?
                    }
                    None => strict_json(&text, "the result")
                        .and_then(|()| serde_json::from_str(&text).map_err(anyhow::Error::from))
                        .with_context(|| {
                            format!(
                                "{} does not read as a Belisarius battle result (see docs/belisarius.md, “Battles on the table”)",
                                file.display()
                            )
                        })?,
                };
                let events = store.execute(&mut c, &(), &Order::RecordBattle { result }, DiceInput::Seeded)?;
                executed::<Belisarius>(session, &c.state, &(), events, out)
            }
            CliCommand::Odds { campaign, battles, break_off } => {
                let store = session.store(Access::Read)?;
                let c = store.load_as::<Belisarius>(store.find(&campaign)?)?;
                let Some(battle) = c.state.ops.as_ref().and_then(|o| o.battle.as_ref()) else {
                    bail!("{campaign} has no battle under way: a battle is joined by an interception (BE-13, BE-17)");
                };
                if battle.at_table {
                    bail!(
                        "the battle at {} is fought on the tabletop: its result comes back with `result` (BE-17)",
                        zone_name(&c.state, &battle.zone)
                    );
                }
                let policies = policies(&break_off)?;
                let start = referee_campaign::belisarius::odds::Start::of(&c.state, battle)
                    .ok_or_else(|| anyhow!("the battle under way has not two forces to count"))?;
                let odds = referee_campaign::belisarius::odds::simulate(
                    &c.state.setup.tables,
                    &start,
                    policies,
                    battles,
                    u64::from(battle.passage),
                );
                let names = c.state.setup.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect();
                session.print(out, &Counted { zone: zone_name(&c.state, &battle.zone), passage: battle.passage, odds, names })
            }
            shell_commands!() | shared_commands!() => unreachable!("the shell runs these, or runs them generic over the engine"),
        }
    }
}

/// The Belisarius world, or `None` when a referee's own data folder has no `belisarius`
/// folder (a folder made for Magna Graecia alone).
pub(super) fn world(data: &referee_data::DataSource) -> anyhow::Result<Option<World>> {
    if !data.has(referee_data::BELISARIUS) {
        return Ok(None);
    }
    World::load(data).map(Some).map_err(|e| anyhow!("{e}"))
}

/// `referee new` for a scenario of the Belisarius world.
pub(super) fn new(session: &Session, world: &World, new: &NewCampaign) -> anyhow::Result<Created> {
    if new.from.is_some() {
        bail!("a Belisarius scenario starts from its own set-up; --from continues a Magna Graecia campaign (MG-37)");
    }
    let setup = world.setup(new.scenario)?;
    new.check_name()?;
    let mut store = session.store(Access::Create)?;
    let name = new.name(setup.name(), &store)?;
    let campaign = store.create_as::<Belisarius>(&name, &setup, new.seed())?;
    Ok(Created { id: campaign.id.0, name: campaign.state.name.clone(), scenario: setup.id().to_owned() })
}

/// The lines of `referee scenarios` for the Belisarius world.
pub(super) fn scenarios(world: &World) -> Vec<ScenarioSummary> {
    world
        .scenarios
        .iter()
        .map(|sc| ScenarioSummary {
            campaign: EngineId::Belisarius,
            id: sc.id.clone(),
            name: sc.name.clone(),
            period: sc.period(),
            turns: sc.turns,
            sides: sc.sides.iter().map(|s| s.name.clone()).collect(),
        })
        .collect()
}

/// A campaign's view, with the map it is read against for the names of places.
#[derive(Serialize)]
pub(crate) struct Shown {
    #[serde(flatten)]
    pub(crate) view: View,
    #[serde(skip)]
    pub(crate) map: ZoneMap,
}

fn side_name(view: &View, id: Option<&SideId>) -> String {
    id.map_or_else(|| "—".to_owned(), |id| view.board().side_name(id))
}

/// A side's victory condition and where it stands, on a line of its own.
fn standing_line(view: &View, st: &referee_campaign::belisarius::victory::Standing) -> String {
    format!("  {}\n", st.line(&side_name(view, Some(&st.side))))
}

impl Output for Shown {
    fn text(&self) -> String {
        let view = &self.view;
        let board = view.board();
        let mut s = format!(
            "{} · {} · turn {} of {} · {}{}\n",
            board.campaign,
            board.scenario_name,
            board.turn,
            board.turns,
            board.date,
            match board.phase {
                referee_campaign::belisarius::state::Phase::SetUp => " · set-up",
                referee_campaign::belisarius::state::Phase::Over => " · over",
                _ => "",
            }
        );
        match view {
            View::Umpire(_) => s.push_str("Seen by: the umpire\n"),
            View::Side(v) => s.push_str(&format!("Seen by: {}\n", side_name(view, Some(&v.side)))),
        }
        if let Some(r) = &board.result {
            let winner = r.winner.as_ref().map_or_else(|| "nobody".to_owned(), |w| format!("the {}", side_name(view, Some(w))));
            s.push_str(&format!("The campaign is over: {winner} win (BE-49 … BE-52)\n"));
            for st in &r.standings {
                s.push_str(&standing_line(view, st));
            }
        }
        if let Some(ops) = &board.operations {
            s.push_str(&format!(
                "Operations: the segment of the {} (the {} took the first)\n",
                side_name(view, Some(&ops.segment)),
                side_name(view, Some(&ops.first))
            ));
        }
        if let Some(c) = &board.contact {
            let zone = self.map.place_name(&Location::Zone(c.zone.clone()));
            s.push_str(&format!(
                "Contact at {zone}: a force of the {} marched in; the {} intercept or decline (BE-13){}\n",
                side_name(view, Some(&c.mover)),
                side_name(view, Some(&c.turn_of)),
                if c.turn_of == c.mover && c.targets > 0 {
                    format!(", aiming at one of {} in the open", referee_campaign::core::words::count(c.targets, "marker"))
                } else {
                    String::new()
                }
            ));
        }
        if let Some(b) = &board.battle {
            let zone = self.map.place_name(&Location::Zone(b.zone.clone()));
            let step = match &b.step {
                referee_campaign::belisarius::battle::Step::Roll if b.at_table => {
                    "fought on the table: the referee types its result in (`referee result`, BE-17)".to_owned()
                }
                referee_campaign::belisarius::battle::Step::Roll => format!("the {} is to roll (`fight`)", b.stage.label()),
                referee_campaign::belisarius::battle::Step::Losses { owed, taken } => {
                    let due: Vec<String> = owed
                        .iter()
                        .filter(|(side, o)| o.points > 0 && !taken.contains(*side))
                        .map(|(side, o)| format!("the {} share out {} points", side_name(view, Some(side)), o.points))
                        .collect();
                    format!("{} (`take_losses`, by unit number below)", due.join(" and "))
                }
                referee_campaign::belisarius::battle::Step::Decide => "the passage is over: `break_off`, `part` or `fight` on".to_owned(),
                referee_campaign::belisarius::battle::Step::Pursuit { side, owed } => {
                    format!("the {} take {} points of pursuit (`take_losses`)", side_name(view, Some(side)), owed.points)
                }
                referee_campaign::belisarius::battle::Step::Retreat { side } => {
                    format!("the {} retreat (`retreat`)", side_name(view, Some(side)))
                }
            };
            if b.at_table {
                s.push_str(&format!("Battle at {zone}: {step}\n"));
            } else {
                s.push_str(&format!("Battle at {zone}, passage {}: {step}\n", b.passage));
            }
            for f in &b.forces {
                s.push_str(&format!(
                    "  {}: {} (tactical {}), {} of {} combat points\n",
                    side_name(view, Some(&f.side)),
                    f.leaders.join(", "),
                    f.tactical,
                    f.points,
                    f.start
                ));
                for (i, u) in f.units.iter().enumerate() {
                    let unit = u.fighter.unit;
                    let state = if unit.value == 0 {
                        " — destroyed"
                    } else if u.fighter.disordered {
                        " — disordered"
                    } else {
                        ""
                    };
                    s.push_str(&format!("    {}. {unit} {}{state}\n", i + 1, unit.kind.label()));
                }
            }
        }
        if let Some(c) = &board.naval_contact {
            let other = board.sides.iter().find(|x| x.id != c.mover).map(|x| x.id.clone());
            s.push_str(&format!(
                "Ships at sea in {}: {} of the {} sailed in; the {} intercept (`intercept_at_sea`) or let them pass (`let_pass`) (BE-35)\n",
                self.map.place_name(&Location::Sea(c.sea.clone())),
                referee_campaign::core::words::count(c.markers, "sea marker"),
                side_name(view, Some(&c.mover)),
                side_name(view, other.as_ref())
            ));
        }
        if let Some(b) = &board.naval_battle {
            s.push_str(&format!(
                "Naval battle in {}, {} fought: `fight_at_sea` for the next, or `retire_at_sea` (BE-36)\n",
                self.map.place_name(&Location::Sea(b.sea.clone())),
                referee_campaign::core::words::count(b.passages, "passage")
            ));
            for q in &b.squadrons {
                let admiral = q.admiral.as_ref().map_or_else(String::new, |(n, t)| format!(", {n} aboard (tactical {t})"));
                s.push_str(&format!(
                    "  {}: {}, {} of {} NPs, {} CP embarked{admiral}\n",
                    side_name(view, Some(&q.side)),
                    referee_campaign::core::words::count(q.ships, "ship"),
                    q.np,
                    q.start,
                    q.embarked
                ));
            }
        }
        for org in view.organisations() {
            let ships: Vec<String> = org
                .boxes
                .iter()
                .filter_map(|b| {
                    let id = b.ship.as_ref()?;
                    let what = b.np.map_or_else(|| "decoy".to_owned(), |np| format!("{np} NPs"));
                    let aboard = if b.carrying > 0 { format!(", {} CP aboard", b.carrying) } else { String::new() };
                    let sailed = if b.sailed > 0 {
                        format!(", {} this turn", referee_campaign::core::words::count(b.sailed, "sea zone"))
                    } else {
                        String::new()
                    };
                    Some(format!("    {id} ({what}) at {}{aboard}{sailed}\n", b.place))
                })
                .collect();
            if !ships.is_empty() {
                s.push_str(&format!("  {}: ships (`sail`, `embark`, `land`):\n{}", org.name, ships.concat()));
            }
        }
        for city in board.cities.iter().filter(|c| c.siege.is_some()) {
            let Some(siege) = &city.siege else { continue };
            s.push_str(&format!(
                "Siege of {} by the {}: duration {} of 4, siege works {}, defence {}, militia {} (BE-24 … BE-32)\n",
                self.map.place_name(&Location::City(city.id.clone())),
                side_name(view, Some(&siege.besieger)),
                siege.duration,
                siege.siege_works,
                city.defence,
                city.militia
            ));
        }
        if let Some(a) = &board.assault {
            let owed: Vec<String> = a.owed.iter().map(|(side, p)| format!("the {} owe {p} points", side_name(view, Some(side)))).collect();
            s.push_str(&format!(
                "Assault on {}: {} (`take_losses`, by unit number below; `militia` for the city's)\n",
                self.map.place_name(&Location::City(a.city.clone())),
                owed.join(" and ")
            ));
        }
        if let Some(so) = &board.sortie {
            let owed: Vec<String> = so.owed.iter().map(|(side, p)| format!("the {} owe {p} points", side_name(view, Some(side)))).collect();
            s.push_str(&format!(
                "Sortie from {}: {} of the {} with {} points{}{}\n",
                self.map.place_name(&Location::City(so.city.clone())),
                so.leader,
                side_name(view, Some(&so.side)),
                so.points,
                so.answered.map_or_else(|| ", the besiegers to answer (`answer_sortie`)".to_owned(), |p| format!(", met with {p}")),
                if owed.is_empty() { String::new() } else { format!("; {} (`take_losses`)", owed.join(" and ")) }
            ));
        }
        for (letter, name, until) in &board.events_in_force {
            s.push_str(&format!("Event {letter}, {name}: in force to the end of turn {until} (BE-47)\n"));
        }
        for a in &board.away {
            s.push_str(&format!("Away: {a}\n"));
        }
        if let Some(f) = &board.franks {
            let whom = match &f.against {
                Some(enemy) => format!(
                    "fighting the {}, led by the {} (`franks_march` each turn)",
                    side_name(view, Some(enemy)),
                    side_name(view, Some(&f.side))
                ),
                None => format!("allies of the {}", side_name(view, Some(&f.side))),
            };
            s.push_str(&format!("The Franks are in Italy, {whom}, to the end of turn {} (BE-48)\n", f.until));
        }
        if board.events_to_play {
            s.push_str("Before operations: the events phase is to be played (`events`, BE-47)\n");
        } else if board.phase == referee_campaign::belisarius::state::Phase::Play && board.supplied != board.turn {
            s.push_str("Before operations: the supply phase is to be played (`supply`, BE-41)\n");
        } else if board.reinforcements_to_play {
            s.push_str("Before operations: the reinforcement phase is to be played (`reinforcements`, BE-45)\n");
        }
        for org in view.organisations() {
            if org.raise_half_points > 0 {
                s.push_str(&format!(
                    "  {}: {} of reinforcements to spend (`raise`: 1A 3, 1B 2, 1C 1, [1]D ½)\n",
                    org.name,
                    referee_campaign::belisarius::reinforce::points(org.raise_half_points)
                ));
            }
            for line in &org.reinforcements_to_place {
                s.push_str(&format!("  {}: reinforcements to place (`place_reinforcements`): {line}\n", org.name));
            }
        }
        for org in view.organisations() {
            let answer = org.sortie_answer.iter().map(|d| (d, "points to commit (`answer_sortie`)"));
            let losses = org.assault_losses.iter().chain(&org.supply_losses).chain(&org.sortie_losses).map(|d| (d, "points lost"));
            for (due, how) in answer.chain(losses) {
                s.push_str(&format!("  {}, {} {how} {}:\n", org.name, due.points, due.what));
                for (i, (leader, unit)) in due.units.iter().enumerate() {
                    let box_ = if leader.is_empty() { "no leader".to_owned() } else { leader.clone() };
                    s.push_str(&format!("    {}. {unit} {} ({box_})\n", i + 1, unit.kind.label()));
                }
                if due.militia > 0 {
                    s.push_str(&format!("    militia: {} points\n", due.militia));
                }
            }
        }
        for org in view.organisations().into_iter().filter(|o| !o.stratagems.is_empty()) {
            s.push_str(&format!(
                "{}: stratagems in hand: {} (BE-43: `treachery` at a siege; `reconnoitre`, or an interception's \"reconnaissance\": true; `frankish_intervention`)\n",
                org.name,
                org.stratagems.join(", ")
            ));
        }
        for org in view.organisations() {
            if let Some(ap) = &org.action_points {
                s.push_str(&format!(
                    "{}: {} of {} action points left (chit {}, {})\n",
                    org.name, ap.left, ap.total, ap.chit, ap.chit_value
                ));
            }
        }
        // Markers by place: the viewer's own by name, the other side's as face-down counts.
        let mut at: BTreeMap<&Location, Vec<String>> = BTreeMap::new();
        let mut hidden: BTreeMap<(&Location, &SideId, bool), usize> = BTreeMap::new();
        for m in &board.markers {
            match &m.face {
                Some(face) => at.entry(&m.at).or_default().push(face.clone()),
                None => *hidden.entry((&m.at, &m.side, m.naval)).or_default() += 1,
            }
        }
        for ((place, side, naval), n) in hidden {
            let kind = if naval { "sea" } else { "land" };
            at.entry(place).or_default().push(format!(
                "{} of {}",
                referee_campaign::core::words::count(n, &format!("face-down {kind} marker")),
                side_name(view, Some(side))
            ));
        }
        if !at.is_empty() {
            s.push_str("\nOn the map:\n");
            for (place, what) in at {
                s.push_str(&format!("  {}: {}\n", self.map.place_name(place), what.join("; ")));
            }
        }
        if let View::Umpire(u) = view
            && !u.victory.is_empty()
        {
            s.push_str("\nVictory conditions, judged at the end of the last turn (BE-49 … BE-52):\n");
            for v in &u.victory {
                s.push_str(&standing_line(view, v));
            }
        }
        s.push_str("\nzone                         controlled by   city (militia/defence)             held by\n");
        for (zone, city) in board.zones.iter().zip(&board.cities) {
            let zone_name = self.map.place_name(&Location::Zone(zone.id.clone()));
            let city_name = self.map.place_name(&Location::City(city.id.clone()));
            s.push_str(&format!(
                "{:<28} {:<15} {:<34} {}\n",
                zone_name,
                side_name(view, zone.controller.as_ref()),
                format!("{} ({}/{})", city_name, city.militia, city.defence),
                side_name(view, city.holder.as_ref())
            ));
        }
        s.push_str(&super::output::next_text(&next_orders(view, &self.map)));
        s
    }
}

/// The share of a battle's losses `owed` by `side` the rules suggest, by unit number in the
/// battle (BE-19, BE-22).
fn battle_share(
    b: &referee_campaign::belisarius::view::BattleBoard,
    side: &SideId,
    owed: &referee_campaign::belisarius::fight::Owed,
) -> Vec<(u32, u8)> {
    let units: Vec<_> = b.forces.iter().filter(|f| &f.side == side).flat_map(|f| f.units.iter().map(|u| u.fighter)).collect();
    let share = referee_campaign::belisarius::fight::suggested_share(&units, owed);
    share.into_iter().map(|(i, p)| (u32::try_from(i + 1).unwrap_or(u32::MAX), p)).collect()
}

/// The orders the rules expect now of the viewer (the referee: of everyone), each with an
/// order to edit: set-up (BE-49 … BE-52), the phases before the operations (BE-41, BE-45,
/// BE-47), losses owed (BE-12, BE-19, BE-22, BE-27, BE-28, BE-41), a contact (BE-13, BE-35), a
/// battle (BE-17 … BE-22, BE-36), a segment (BE-06, BE-07, BE-10), the turn's end (BE-02).
///
/// A player copies these, so an order given whole (one with no `<place>` to fill in) is one
/// the rules take, as far as the viewer's own view can tell: losses owed come first and
/// alone, a leader is offered for an interception only with units and a try left, a beaten
/// leader no march.
fn next_orders(view: &View, map: &ZoneMap) -> Vec<super::output::Next> {
    use super::output::Next;
    use referee_campaign::belisarius::battle::Step;
    use referee_campaign::belisarius::state::Phase;
    let board = view.board();
    let referee = matches!(view, View::Umpire(_));
    let name = |id: &SideId| board.side_name(id);
    let mut next = Vec::new();
    let mut say = |who: String, what: &str, orders: Vec<String>| next.push(Next { who, what: what.to_owned(), orders });
    let the = |id: &SideId| format!("The {}", name(id));
    if board.result.is_some() || board.phase == Phase::Over {
        return next;
    }
    let organisations = view.organisations();
    // BE-48: Franks on their own go by themselves, led by the side they do not fight; their
    // king takes no orders but the march and the interception they always try.
    let hostile_franks = board.franks.as_ref().filter(|f| f.against.is_some());
    let own_franks = |side: &SideId| hostile_franks.is_some_and(|f| &f.side == side);
    let is_king = |leader: &str| hostile_franks.is_some() && leader == referee_campaign::belisarius::franks::KING;
    // The side's leaders it may still activate this phase (BE-07): not the Franks' king.
    let activations = |o: &Organisation| -> Vec<String> {
        o.pieces()
            .filter(|(id, _)| !o.activated.iter().any(|a| a == id) && !o.halted.iter().any(|h| h == id) && !is_king(id))
            .map(|(leader, _)| format!(r#"{{"type":"activate","side":"{}","leader":"{leader}"}}"#, o.side))
            .collect()
    };
    // Losses owed, in whatever phase: until they are shared out, nothing else goes.
    let mut owed = false;
    for o in &organisations {
        let mut losses = Vec::new();
        if let Some(due) = &o.attrition {
            losses.push(json(&Order::TakeLosses {
                side: o.side.clone(),
                losses: vec![(1, u8::try_from(due.points).unwrap_or(u8::MAX))],
                militia: 0,
            }));
        }
        for share in [&o.supply_losses, &o.assault_losses, &o.sortie_losses].into_iter().flatten() {
            let (losses_share, militia) = share.suggested.clone();
            losses.push(json(&Order::TakeLosses { side: o.side.clone(), losses: losses_share, militia }));
        }
        if !losses.is_empty() {
            owed = true;
            say(the(&o.side), "share out the losses they owe, by unit number as `roster` lists them", losses);
        }
    }
    if owed {
        return next;
    }
    for o in &organisations {
        if !o.reinforcements_to_place.is_empty() {
            say(
                the(&o.side),
                "place their reinforcements at a place they control (BE-45)",
                vec![json(&Order::PlaceReinforcements { side: o.side.clone(), at: "<place>".to_owned() })],
            );
        }
        if o.raise_half_points > 0 {
            say(
                the(&o.side),
                "buy units with their reinforcement points, or give up what is left with no units (BE-45)",
                vec![
                    json(&Order::Raise { side: o.side.clone(), at: "<place>".to_owned(), units: vec!["1C".to_owned()] }),
                    json(&Order::Raise { side: o.side.clone(), at: String::new(), units: Vec::new() }),
                ],
            );
        }
    }
    // BE-45: the operations wait for every reinforcement to be bought and placed.
    let reinforcing = organisations.iter().any(|o| !o.reinforcements_to_place.is_empty() || o.raise_half_points > 0);
    match board.phase {
        Phase::SetUp => {
            for o in &organisations {
                let orders: Vec<String> = o
                    .lines_due
                    .iter()
                    .map(|l| format!(r#"{{"type":"place","side":"{}","line":{},"at":"<place>"}}"#, o.side, l.number))
                    .collect();
                if !orders.is_empty() {
                    say(the(&o.side), "place their set-up lines (BE-49 … BE-52; `roster` says where each may go)", orders);
                }
            }
            if referee && organisations.iter().all(|o| o.lines_due.is_empty()) {
                say("The referee".to_owned(), "begins play, every line placed", vec![json(&Order::BeginPlay {})]);
            }
        }
        Phase::Play if referee => {
            let (what, order) = if board.events_to_play {
                ("plays the random events (BE-47)", Some(Order::PlayEvents {}))
            } else if board.supplied < board.turn {
                ("plays the supply phase (BE-41)", Some(Order::CheckSupply {}))
            } else if board.reinforcements_to_play {
                ("plays the reinforcements (BE-45)", Some(Order::BringReinforcements {}))
            } else if reinforcing {
                ("begins the operations once the reinforcements are bought and placed (BE-45)", None)
            } else {
                ("begins the operations: the AP chits drawn, the initiative rolled (BE-04, BE-05)", Some(Order::BeginOperations {}))
            };
            say("The referee".to_owned(), what, order.iter().map(json).collect());
        }
        Phase::Operations => {
            if let Some(b) = &board.naval_battle {
                if referee {
                    say("The referee".to_owned(), "fights the naval battle's next passage (BE-36)", vec![json(&Order::FightAtSea {})]);
                }
                if b.passages > 0 {
                    let beside: Vec<String> =
                        map.sea(&b.sea).map(|s| s.neighbours.iter().map(ToString::to_string).collect()).unwrap_or_default();
                    for o in organisations.iter().filter(|o| b.squadrons.iter().any(|s| s.side == o.side)) {
                        say(
                            the(&o.side),
                            &format!(
                                "may retire their ships to a sea zone beside the battle ({}) or a port of their own on it (BE-36)",
                                beside.join(", ")
                            ),
                            vec![json(&Order::RetireAtSea { side: o.side.clone(), to: "<sea>".to_owned() })],
                        );
                    }
                }
            } else if let Some(b) = &board.battle {
                match &b.step {
                    Step::Roll if b.at_table && referee => say(
                        "The referee".to_owned(),
                        "records the table's result with `referee result` (docs/belisarius.md, “Battles on the table”; BE-17)",
                        Vec::new(),
                    ),
                    Step::Roll if b.at_table => {}
                    Step::Roll if referee => say(
                        "The referee".to_owned(),
                        "fights the next stage in the program, or sends the battle to the table (BE-17)",
                        vec![json(&Order::Fight {}), json(&Order::SendToTable {})],
                    ),
                    Step::Losses { owed, taken } => {
                        for (side, o) in owed.iter().filter(|(s, o)| o.points > 0 && !taken.contains(*s)) {
                            let losses = battle_share(b, side, o);
                            if referee || organisations.iter().any(|x| &x.side == side) {
                                say(
                                    the(side),
                                    "share out the battle's losses, by unit number in the battle (BE-19)",
                                    vec![json(&Order::TakeLosses { side: side.clone(), losses, militia: 0 })],
                                );
                            }
                        }
                    }
                    Step::Decide => {
                        for o in organisations.iter().filter(|o| b.ambusher.is_none() && b.forces.iter().any(|f| f.side == o.side)) {
                            say(
                                the(&o.side),
                                "break off, or agree to part (BE-17, BE-22)",
                                vec![json(&Order::BreakOff { side: o.side.clone() })],
                            );
                        }
                        if referee {
                            say(
                                "The referee".to_owned(),
                                "has the sides part, or fights on",
                                vec![json(&Order::Part {}), json(&Order::Fight {})],
                            );
                        }
                    }
                    Step::Pursuit { side, owed } if referee || organisations.iter().any(|x| &x.side == side) => {
                        let losses = battle_share(b, side, owed);
                        say(
                            the(side),
                            "take the pursuit's losses (BE-22)",
                            vec![json(&Order::TakeLosses { side: side.clone(), losses, militia: 0 })],
                        );
                    }
                    Step::Retreat { side } if referee || organisations.iter().any(|x| &x.side == side) => {
                        // A zone with no enemy marker first, where nobody may intercept them
                        // again; of those, their own, then one nobody controls (BE-22).
                        use referee_campaign::belisarius::map::ZoneId;
                        let controller = |z: &ZoneId| board.zones.iter().find(|s| &s.id == z).and_then(|s| s.controller.as_ref());
                        let enemy_in = |z: &ZoneId| {
                            board.markers.iter().any(|m| &m.side != side && !m.naval && map.zone_of(&m.at).as_ref() == Some(z))
                        };
                        let beside = map.zone(&b.zone).map(|z| z.neighbours.as_slice()).unwrap_or_default();
                        let to = beside.iter().min_by_key(|z| {
                            let held = match controller(z) {
                                Some(c) if c == side => 0,
                                None => 1,
                                Some(_) => 2,
                            };
                            (enemy_in(z), held)
                        });
                        let city = map.zone(&b.zone).and_then(|z| board.city(&z.city.id));
                        let own_city = city.filter(|c| c.holder.as_ref() == Some(side)).map(|c| c.id.to_string());
                        let names: Vec<String> = beside.iter().map(ToString::to_string).collect();
                        let what = match (names.is_empty(), &own_city) {
                            (false, Some(c)) => {
                                format!("retreat to a zone next to the battle ({}), or into {c}, which they hold (BE-22)", names.join(", "))
                            }
                            (false, None) => format!("retreat to a zone next to the battle ({}) (BE-22)", names.join(", ")),
                            (true, Some(c)) => format!("retreat into {c}, which they hold (BE-22)"),
                            (true, None) => "retreat (BE-22)".to_owned(),
                        };
                        let to = to.map(ToString::to_string).or(own_city).unwrap_or_else(|| "<zone>".to_owned());
                        say(the(side), &what, vec![json(&Order::Retreat { side: side.clone(), to })]);
                    }
                    _ => {}
                }
            } else if let Some(c) = &board.contact {
                let side = &c.turn_of;
                // BE-29: a siege of the marching side's city in the zone: its relief attacks
                // the lines without a roll, and the besieger names who meets it.
                let lines = map
                    .zone(&c.zone)
                    .and_then(|z| board.city(&z.city.id))
                    .and_then(|city| city.siege.as_ref().filter(|s| s.besieger != c.mover).map(|s| s.besieger.clone()));
                if c.relief {
                    match organisations.iter().find(|o| &o.side == side) {
                        Some(o) => {
                            let open = Location::Zone(c.zone.clone());
                            let leader = o.boxes.iter().filter(|b| b.at == open).find_map(|b| b.leader.as_ref());
                            let fight = vec![leader.map_or_else(|| "<leader>".to_owned(), |l| l.id.clone())];
                            say(
                                the(side),
                                "name who meets the attack on the siege lines; the others hold them (BE-29)",
                                vec![json(&Order::HoldLines { side: side.clone(), fight })],
                            );
                        }
                        None => say(the(side), "are to answer the attack on their siege lines; you wait", Vec::new()),
                    }
                } else if let Some(o) = organisations.iter().find(|o| &o.side == side) {
                    let mut orders = Vec::new();
                    // BE-48: the Franks marching on their own always try the force they met,
                    // once, while their side can pay for it.
                    let king = referee_campaign::belisarius::franks::KING;
                    // Only the fields an interception needs; `reconnaissance` may be added.
                    let aims = side == &c.mover && c.targets > 1;
                    let intercept = |leader: &str, n: u32| {
                        let target = if aims { format!(r#","target":{n}"#) } else { String::new() };
                        format!(r#"{{"type":"intercept","side":"{side}","leaders":["{leader}"]{target}}}"#)
                    };
                    let franks_try = side == &c.mover
                        && own_franks(side)
                        && o.acting.as_deref() == Some(king)
                        && has_points(o)
                        && c.targets > 0
                        && !c.failed.contains(side)
                        && !c.tried.iter().any(|t| t.leader == king);
                    if franks_try {
                        let order = intercept(king, 1);
                        say(
                            the(side),
                            "intercept with the Franks: on their own they always try the force they march on (BE-48)",
                            vec![order],
                        );
                    } else if has_points(o) && (side != &c.mover || c.targets > 0) {
                        // A leader with units of his own, and a force here he has not tried
                        // yet (BE-13): the marching force, or for the mover the first marker
                        // in the open he has not aimed at.
                        let aimed =
                            o.boxes.iter().filter(|b| map.zone_of(&b.at).as_ref() == Some(&c.zone) && !b.units.is_empty()).find_map(|b| {
                                let l = b.leader.as_ref()?;
                                let n = if side == &c.mover { (1..=c.targets).find(|&n| c.may_try(&l.id, n).is_ok())? } else { 1 };
                                c.may_try(&l.id, n).is_ok().then(|| intercept(&l.id, n))
                            });
                        orders.extend(aimed);
                    }
                    if !franks_try {
                        orders.push(json(&Order::Decline { side: side.clone() }));
                        // A decoy, or a force with no units, cannot attack the lines (BE-29, BE-42).
                        let acting = o.acting.as_deref().and_then(|a| o.leader_box(a));
                        if side == &c.mover && lines.is_some() && acting.is_some_and(|b| !b.units.is_empty() && !b.decoy) {
                            orders.push(json(&Order::Relieve { side: side.clone() }));
                            say(the(side), "intercept, decline, or attack the siege lines with no roll (BE-13, BE-29)", orders);
                        } else {
                            say(the(side), "intercept or decline at the contact (BE-13, BE-14)", orders);
                        }
                    }
                } else {
                    say(the(side), "are to answer the contact; you wait", Vec::new());
                }
                // BE-13: both sides tried and failed: each may agree to a battle by consent
                // (not a decoy marching, nor while a relief of a siege is to be made).
                if c.failed.len() >= 2 && !c.relief {
                    for o in organisations.iter().filter(|o| !c.agreed.contains(&o.side)) {
                        let decoy = o.side == c.mover && o.acting.as_deref().is_some_and(referee_campaign::belisarius::state::is_decoy);
                        if !decoy {
                            say(
                                the(&o.side),
                                "may agree to a battle by consent, both sides having failed; it is fought when both agree (BE-13)",
                                vec![json(&Order::AgreeToBattle { side: o.side.clone() })],
                            );
                        }
                    }
                }
            } else if let Some(c) = &board.naval_contact {
                for o in organisations.iter().filter(|o| o.side != c.mover) {
                    let at = Location::Sea(c.sea.clone());
                    let ships: Vec<String> =
                        o.boxes.iter().filter(|b| b.at == at && b.naval && !b.decoy).filter_map(|b| b.ship.clone()).collect();
                    let mut orders = Vec::new();
                    if !ships.is_empty() && has_points(o) {
                        orders.push(json(&Order::InterceptAtSea { side: o.side.clone(), ships }));
                    }
                    orders.push(json(&Order::LetPass { side: o.side.clone() }));
                    say(the(&o.side), "intercept at sea or let the ships pass (BE-35)", orders);
                }
            } else if board.sortie.is_some() || board.assault.is_some() {
                // BE-27, BE-28: nothing else goes until the sortie or the assault is settled;
                // what each side owes is listed above, and the besieger's answer to a sortie.
                match &board.sortie {
                    // The besiegers meet the sortie with as many unmodified points as sallied,
                    // or all they have in the zone: their own view says how many, and offers a
                    // share of them.
                    Some(sortie) if sortie.answered.is_none() => {
                        match organisations.iter().find_map(|o| o.sortie_answer.as_ref().map(|a| (o, a))) {
                            Some((o, answer)) => say(
                                the(&o.side),
                                &format!(
                                    "meet the sortie with {} of the besiegers in the zone: each unit by its number there, as `roster` lists them, with the points it puts in (BE-28)",
                                    referee_campaign::core::words::count(answer.points, "unmodified point")
                                ),
                                vec![json(&Order::AnswerSortie { side: o.side.clone(), units: answer.suggested.0.clone() })],
                            ),
                            None => say("The besiegers".to_owned(), "answer the sortie first (BE-28); you wait", Vec::new()),
                        }
                    }
                    Some(_) => say(
                        "The sides".to_owned(),
                        "are settling the sortie first: each side that owes takes its losses (BE-28)",
                        Vec::new(),
                    ),
                    None => say(
                        "The sides".to_owned(),
                        "are settling the assault first: each side that owes takes its losses (BE-27)",
                        Vec::new(),
                    ),
                }
            } else if let Some(ops) = &board.operations {
                let side = &ops.segment;
                match organisations.iter().find(|o| &o.side == side) {
                    // BE-48: the Franks on their own march before their side does anything
                    // else this turn, while their king is on the map.
                    Some(o)
                        if own_franks(side)
                            && hostile_franks.is_some_and(|f| f.marched != board.turn)
                            && o.pieces().any(|(id, _)| is_king(id)) =>
                    {
                        say(
                            the(side),
                            "march the Franks first: on their own, they go by themselves before anything else this turn (BE-48)",
                            vec![json(&Order::FranksMarch { side: side.clone() })],
                        );
                    }
                    Some(o) => {
                        let mut orders = Vec::new();
                        // The acting leader and where he stands, while he may march on: beaten,
                        // gone from the map, or the Franks' king, who marches by himself, not.
                        let marching = o
                            .acting
                            .as_ref()
                            .filter(|l| !o.halted.contains(l) && !is_king(l))
                            .and_then(|l| Some((l, o.pieces().find(|(id, _)| id == l)?.1)));
                        let what = match (marching, &o.acting) {
                            (Some((leader, at)), _) => acting_offers(view, map, o, (leader, at), &mut orders),
                            // BE-06: once the Franks have marched, the side may still
                            // activate a leader of its own in the segment.
                            (None, Some(l)) if is_king(l) && has_points(o) => {
                                orders.extend(activations(o));
                                "may activate a leader of their own, the Franks having marched by themselves, or pass (BE-06, BE-48)"
                                    .to_owned()
                            }
                            (None, Some(l)) if is_king(l) => {
                                "pass, the Franks having marched by themselves: no action points are left (BE-06, BE-48)".to_owned()
                            }
                            (None, Some(_)) => "end the segment: the acting leader lost his battle, or is gone (BE-06, BE-10)".to_owned(),
                            (None, None) if has_points(o) => {
                                orders.extend(activations(o));
                                "activate a leader, or pass (BE-06, BE-07)".to_owned()
                            }
                            (None, None) => "pass: no action points are left (BE-06)".to_owned(),
                        };
                        orders.push(json(&Order::Pass { side: side.clone() }));
                        // BE-43: the Frankish intervention is played in the side's segment,
                        // for nothing, while the Franks are not in Italy.
                        let franks = referee_campaign::belisarius::franks::STRATAGEM;
                        let what = if board.franks.is_none() && o.stratagems.iter().any(|s| s == franks) {
                            orders.push(json(&Order::PlayFrankishIntervention { side: side.clone() }));
                            format!("{what}; they may also play the Frankish intervention (BE-43)")
                        } else {
                            what
                        };
                        say(the(side), &what, orders);
                    }
                    None => say(the(side), "are in their segment; you wait", Vec::new()),
                }
            }
        }
        Phase::TurnEnd if referee => say(
            "The referee".to_owned(),
            "ends the turn: sieges, the AP chits shown, the season on (BE-02, BE-26)",
            vec![json(&Order::EndTurn {})],
        ),
        _ => {}
    }
    next
}

/// An order in the command line's JSON, as **Next:** offers it.
fn json(order: &Order) -> String {
    serde_json::to_string(order).unwrap_or_default()
}

/// Whether the side has action points left, as far as the viewer knows them.
fn has_points(o: &Organisation) -> bool {
    o.action_points.as_ref().is_none_or(|ap| ap.left > 0)
}

/// What the acting leader may do next where he stands, from what his side sees: sally out of
/// a city besieged (BE-28); sail on or land, aboard (BE-33, BE-37); lay siege to the enemy
/// city of his zone or storm the one he besieges (BE-24, BE-27), or march on (BE-10). The
/// orders go into `orders`; the words say what they are.
fn acting_offers(view: &View, map: &ZoneMap, o: &Organisation, (leader, at): (&str, &Location), orders: &mut Vec<String>) -> String {
    let (board, side) = (view.board(), &o.side);
    let zone = map.zone_of(at).and_then(|z| map.zone(&z));
    let city = zone.and_then(|z| board.city(&z.city.id));
    let city_name = |c: &referee_campaign::belisarius::view::CityStatus| map.place_name(&Location::City(c.id.clone()));
    let acting = o.leader_box(leader);
    // His force: his own box and those of the leaders activated with him.
    let has_units = acting.is_some()
        && o.boxes
            .iter()
            .any(|b| b.leader.as_ref().is_some_and(|l| l.id == leader || o.acting_with.contains(&l.id)) && !b.units.is_empty());
    let points_left = has_points(o);
    match at {
        Location::City(_) if city.is_some_and(|c| c.siege.as_ref().is_some_and(|g| &g.besieger != side)) => {
            // A decoy carries out no action (BE-42); a sortie costs an action point.
            if acting.is_some_and(|b| !b.decoy) && points_left {
                orders.push(format!(r#"{{"type":"sortie","side":"{side}","leader":"{leader}","units":["<unit>"]}}"#));
                "sally out of the besieged city with units of the garrison, each by its number among the units in the city (every leader's box in turn, then those without a leader) as a bare number, or end the segment: a garrison leaves only so, or by sea (BE-28)".to_owned()
            } else {
                "end the segment: the garrison is shut in, and leaves only by a sortie or by sea (BE-28)".to_owned()
            }
        }
        Location::Aboard(ship) => {
            orders.push(format!(r#"{{"type":"sail","side":"{side}","ships":["{ship}"],"path":["<sea zone>"]}}"#));
            orders.push(format!(r#"{{"type":"land","side":"{side}","leader":"{leader}","at":"<zone or port>"}}"#));
            "sail on with the ship the force is aboard, or land beside its sea (BE-33, BE-37), or end the segment".to_owned()
        }
        _ => {
            let mut also = String::new();
            if let (Location::Zone(here), Some(c)) = (at, city) {
                let enemy = c.holder.as_ref().is_some_and(|h| h != side);
                let rival = board.markers.iter().any(|m| &m.side != side && !m.naval && m.at == Location::Zone(here.clone()));
                let stormed = board.operations.as_ref().is_some_and(|ops| ops.stormed.contains(&c.id));
                match &c.siege {
                    None if enemy && !rival && has_units && points_left => {
                        orders.push(json(&Order::Besiege { side: side.clone(), leader: leader.to_owned() }));
                        also = format!(", lay siege to {} (BE-24)", city_name(c));
                    }
                    Some(g) if &g.besieger == side && !stormed && has_units && points_left => {
                        orders.push(json(&Order::Assault { side: side.clone(), leader: leader.to_owned(), ships: Vec::new() }));
                        also = format!(", storm {} (BE-27)", city_name(c));
                    }
                    _ => {}
                }
            }
            let beside: Vec<String> = zone.map(|z| z.neighbours.iter().map(ToString::to_string).collect()).unwrap_or_default();
            orders.push(format!(r#"{{"type":"move","side":"{side}","leader":"{leader}","path":["<zone>"]}}"#));
            format!(
                "march the acting leader on, through zones one beside the next (from here: {}){also}, or end the segment (BE-06, BE-10)",
                beside.join(", ")
            )
        }
    }
}

#[derive(Serialize)]
#[serde(transparent)]
struct Rosters(Vec<Organisation>);

impl Output for Rosters {
    fn text(&self) -> String {
        let mut s = String::new();
        for org in &self.0 {
            s.push_str(&format!("Table of Organisation: {}\n", org.name));
            for b in &org.boxes {
                let who = match (&b.leader, b.np, b.decoy) {
                    (Some(l), _, _) => format!(
                        "{}{} (strategic {}, tactical {}, rank {})",
                        l.name,
                        if l.cinc { ", commander-in-chief" } else { "" },
                        l.strategic,
                        l.tactical,
                        l.rank
                    ),
                    (None, Some(np), _) => format!("fleet of {np} NPs"),
                    (None, None, true) => if b.naval { "fleet decoy" } else { "decoy" }.to_owned(),
                    (None, None, false) => "units with no leader".to_owned(),
                };
                let units = if b.units.is_empty() {
                    String::new()
                } else {
                    format!(": {} — {} CP", referee_campaign::belisarius::pieces::summary(&b.units), b.points)
                };
                // The id orders name it by: a leader's, a decoy's, a ship's.
                let id = b.leader.as_ref().map(|l| l.id.as_str()).or(b.decoy_id.as_deref()).or(b.ship.as_deref());
                let id = id.map_or_else(String::new, |id| format!(" [{id}]"));
                s.push_str(&format!("  {} — {who}{id}{units}\n", b.place));
                if !b.units.is_empty() {
                    let units: Vec<String> =
                        b.units.iter().enumerate().map(|(i, u)| format!("{}. {u} {}", i + 1, u.kind.label())).collect();
                    s.push_str(&format!("    units by number: {}\n", units.join(", ")));
                }
            }
            if !org.stratagems.is_empty() {
                s.push_str(&format!("  stratagems held: {}\n", org.stratagems.join(", ")));
            }
            for l in &org.lines_due {
                s.push_str(&format!("  to place, line {}: {} ({})\n", l.number, l.what, l.rule));
                if !l.leaders.is_empty() {
                    s.push_str(&format!("    leaders: {}\n", l.leaders.join(", ")));
                }
                if !l.units.is_empty() {
                    let units: Vec<String> =
                        l.units.iter().enumerate().map(|(i, u)| format!("{}. {} {u}", i + 1, u.kind.label())).collect();
                    s.push_str(&format!("    units: {}\n", units.join(", ")));
                }
                if !l.fleets.is_empty() {
                    let fleets: Vec<String> = l.fleets.iter().enumerate().map(|(i, np)| format!("{}. {np} NPs", i + 1)).collect();
                    s.push_str(&format!("    fleets: {}\n", fleets.join(", ")));
                }
            }
        }
        s
    }
}

fn zone_name(state: &State, zone: &referee_campaign::belisarius::map::ZoneId) -> String {
    state.setup.place_name(&Location::Zone(zone.clone()))
}

/// The break-off policies `--break-off` names, for the battle's two forces in order.
fn policies(given: &[String]) -> anyhow::Result<[referee_campaign::belisarius::odds::Policy; 2]> {
    use referee_campaign::belisarius::odds::Policy;
    let one = |p: &str| match p {
        "never" => Ok(Policy::Never),
        p => p.parse().map(Policy::AtLoss).map_err(|_| anyhow!("`{p}` is no break-off policy: 25, 50, 75 or never")),
    };
    match given {
        [] => Ok([Policy::AtLoss(50), Policy::AtLoss(50)]),
        [both] => Ok([one(both)?, one(both)?]),
        [a, b] => Ok([one(a)?, one(b)?]),
        more => bail!("--break-off takes one policy for both forces or one for each of the two, not {}", more.len()),
    }
}

/// The odds of the battle under way, as `odds` prints them.
#[derive(Serialize)]
struct Counted {
    zone: String,
    passage: u32,
    #[serde(flatten)]
    odds: referee_campaign::belisarius::odds::Odds,
    #[serde(skip)]
    names: BTreeMap<SideId, String>,
}

impl Output for Counted {
    fn text(&self) -> String {
        let o = &self.odds;
        let name = |s: &SideId| self.names.get(s).cloned().unwrap_or_else(|| s.to_string());
        let mut s = format!(
            "The battle at {}, from passage {} as it stands (losses owed included), counted {} times:\n",
            self.zone, self.passage, o.battles
        );
        s.push_str(&format!(
            "  {:<14} {:>15} {:>9} {:>10} {:>15}  {}\n",
            "", "holds the field", "retreats", "destroyed", "CP lost (mean)", "breaks off"
        ));
        for (side, policy) in o.sides.iter().zip(o.policies) {
            s.push_str(&format!(
                "  {:<14} {:>14.0} % {:>7.0} % {:>8.0} % {:>15.1}  {}\n",
                name(&side.side),
                o.percent(side.won),
                o.percent(side.retreated),
                o.percent(side.destroyed),
                side.expected_lost,
                policy.label()
            ));
        }
        if o.parted > 0 {
            s.push_str(&format!("  The sides part in {:.0} % of the battles\n", o.percent(o.parted)));
        }
        s
    }
}

/// What every Belisarius side may read besides its view, as its packet holds it.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PublicParts {
    pub(crate) map: ZoneMap,
    pub(crate) tables: referee_campaign::belisarius::tables::Tables,
    /// The side's own leaders' cards, from the packet's desk part (none in a packet written
    /// before packets carried it): the names the side's planned orders give them.
    #[serde(skip)]
    pub(crate) leaders: Vec<referee_campaign::belisarius::pieces::Leader>,
}

impl super::player::PlayerEngine for Belisarius {
    fn read_view(json: serde_json::Value) -> serde_json::Result<View> {
        super::player::side_view(json)
    }

    type Public = PublicParts;

    fn check(
        view: &View,
        public: &PublicParts,
        earlier: &[Order],
        order: &Order,
    ) -> Result<referee_campaign::core::plan::Checked, referee_campaign::core::error::RuleError> {
        match view {
            View::Side(side) => referee_campaign::belisarius::plan::check(side, &public.map, earlier, order),
            View::Umpire(_) => Ok(referee_campaign::core::plan::Checked::ForReferee("the referee's own view".to_owned())),
        }
    }

    fn read_public(packet: &crate::packet::Packet) -> anyhow::Result<PublicParts> {
        let mut public: PublicParts = packet.read("public")?;
        public.leaders = packet.desk_part::<crate::gui::player::BelisariusDeskPart>()?.map(|p| p.leaders).unwrap_or_default();
        Ok(public)
    }

    /// The side's own leaders are named from their cards in the packet; it knows no others'.
    fn plan_line(view: &View, public: &PublicParts, order: &Order) -> String {
        let board = view.board();
        let side = |s: &SideId| board.side_name(s);
        order.summary(&referee_campaign::belisarius::order::Names::new(&public.map, &side, &public.leaders))
    }

    fn shown(view: View, public: PublicParts) -> Box<dyn super::output::ErasedOutput> {
        Box::new(Shown { view, map: public.map })
    }

    fn map_listing(view: &View, public: &PublicParts) -> Box<dyn super::output::ErasedOutput> {
        Box::new(ZoneListing::of(&public.map, view.board()))
    }

    fn roster(view: &View) -> Box<dyn super::output::ErasedOutput> {
        Box::new(Rosters(view.organisations().into_iter().cloned().collect()))
    }
}

/// The zone map as `map` prints it: every land zone with its terrain, city, coast and
/// neighbours, and every sea zone with its neighbours, with who holds each as the viewer sees
/// it. The ids are those orders name.
#[derive(Serialize)]
struct ZoneListing {
    map: String,
    reconstructed: bool,
    zones: Vec<ZoneEntry>,
    seas: Vec<SeaEntry>,
}

#[derive(Serialize)]
struct ZoneEntry {
    id: String,
    name: String,
    terrain: String,
    controlled_by: Option<String>,
    city: CityEntry,
    /// Sea zones on the zone's coast.
    seas: Vec<String>,
    neighbours: Vec<String>,
}

#[derive(Serialize)]
struct CityEntry {
    id: String,
    name: String,
    militia: u8,
    fortification: u8,
    port: bool,
    held_by: Option<String>,
}

#[derive(Serialize)]
struct SeaEntry {
    id: String,
    name: String,
    neighbours: Vec<String>,
    /// Land zones on its coast.
    coasts: Vec<String>,
}

impl ZoneListing {
    fn of(map: &ZoneMap, board: &referee_campaign::belisarius::view::Board) -> ZoneListing {
        let name = |s: Option<&SideId>| s.map(|s| board.side_name(s));
        let zones = map
            .zones
            .iter()
            .map(|z| {
                let status = board.zones.iter().find(|s| s.id == z.id);
                let city = board.city(&z.city.id);
                ZoneEntry {
                    id: z.id.to_string(),
                    name: z.name.clone(),
                    terrain: z.terrain.name().to_owned(),
                    controlled_by: name(status.and_then(|s| s.controller.as_ref())),
                    city: CityEntry {
                        id: z.city.id.to_string(),
                        name: z.city.name.clone(),
                        militia: z.city.militia,
                        fortification: z.city.fortification,
                        port: z.city.port,
                        held_by: name(city.and_then(|c| c.holder.as_ref())),
                    },
                    seas: z.coast.iter().map(ToString::to_string).collect(),
                    neighbours: z.neighbours.iter().map(ToString::to_string).collect(),
                }
            })
            .collect();
        let seas = map
            .seas
            .iter()
            .map(|s| SeaEntry {
                id: s.id.to_string(),
                name: s.name.clone(),
                neighbours: s.neighbours.iter().map(ToString::to_string).collect(),
                coasts: map.zones.iter().filter(|z| z.coast.contains(&s.id)).map(|z| z.id.to_string()).collect(),
            })
            .collect();
        ZoneListing { map: map.name.clone(), reconstructed: map.reconstructed, zones, seas }
    }
}

impl Output for ZoneListing {
    fn text(&self) -> String {
        let mut s = format!(
            "{}{}: {} land zones, {} sea zones (ids as orders name them)\n",
            self.map,
            if self.reconstructed { " (reconstructed)" } else { "" },
            self.zones.len(),
            self.seas.len()
        );
        for z in &self.zones {
            let c = &z.city;
            let held = |who: &Option<String>| who.as_ref().map_or_else(String::new, |w| format!(", held by the {w}"));
            s.push_str(&format!("{} — {}, {}{}\n", z.id, z.name, z.terrain, held(&z.controlled_by)));
            s.push_str(&format!(
                "    city {} — {} ({}/{}{}){}\n",
                c.id,
                c.name,
                c.militia,
                c.fortification,
                if c.port { ", port" } else { "" },
                held(&c.held_by)
            ));
            // An island of one zone (Corsica) borders no other land zone.
            if z.neighbours.is_empty() {
                s.push_str("    no land zone beside it: reached by sea\n");
            } else {
                s.push_str(&format!("    next to {}\n", z.neighbours.join(", ")));
            }
            if !z.seas.is_empty() {
                s.push_str(&format!("    coast on {}\n", z.seas.join(", ")));
            }
        }
        s.push_str("Sea zones:\n");
        for sea in &self.seas {
            s.push_str(&format!(
                "{} — {}\n    next to {}\n    coasts of {}\n",
                sea.id,
                sea.name,
                sea.neighbours.join(", "),
                sea.coasts.join(", ")
            ));
        }
        s
    }
}

/// Battle `battle` of `campaign` as it went to the table, for a pack printed again after the
/// game: the command after the one that sent the battle there, before which the campaign is
/// read again. `None` for the battle under way, which is printed as it stands; refused for a
/// battle the campaign has not had, or one fought in the program, which never had a pack
/// (BE-17).
fn after_sent_to_table(
    campaign: &str,
    now: &State,
    events: &[referee_campaign::belisarius::event::Logged],
    battle: u32,
) -> anyhow::Result<Option<u64>> {
    let joined = referee_battle_gen::belisarius::battle_number(events);
    let under_way = now.ops.as_ref().is_some_and(|o| o.battle.is_some());
    if battle == joined && under_way {
        return Ok(None);
    }
    if battle == 0 || battle > joined {
        if under_way {
            bail!("the battle under way in {campaign} is battle {joined}, not battle {battle}");
        }
        let had = match joined {
            0 => "has had no battle yet: a battle is joined by an interception (BE-13, BE-17)".to_owned(),
            1 => "has had one battle, battle 1".to_owned(),
            n => format!("has had battles 1 to {n}"),
        };
        bail!("{campaign} {had}; there is no battle {battle}");
    }
    let past = crate::past::belisarius(now, events).into_iter().find(|p| p.number == battle);
    match past {
        Some(past) => match past.no_pack(campaign) {
            Some(why) => bail!("{why}"),
            None => Ok(past.before),
        },
        None => bail!("battle {battle} of {campaign} is not over yet"),
    }
}

#[cfg(test)]
mod tests {
    use referee_campaign::Dice;
    use referee_campaign::belisarius::view::view_for;
    use referee_campaign::core::engine::Engine as _;
    use referee_campaign::core::viewer::Viewer;

    use super::*;

    /// Africa played to its end by e-mail, each side giving its orders from its packet: set-up,
    /// supply losses, contacts with interceptions that fail and succeed, a battle fought in the
    /// program, a siege and assaults, ships intercepted at sea, a battle sent to the table and
    /// its result, a retreat, the turns' ends. The orders as the store kept them, in turn.
    const PLAYED: &str = include_str!("../../tests/fixtures/africa_by_email.json");
    /// The seed that campaign was played with.
    const SEED: u64 = 602_707_391_327_417;

    /// The kinds of the whole orders **Next:** offers each of `viewers` now; each the rules
    /// would refuse is put in `refused`, saying the moment, the viewer and why.
    fn ask_the_rules(store: &Store, c: &Campaign<Belisarius>, viewers: &[Viewer], moment: &str, refused: &mut Vec<String>) -> Vec<String> {
        let events = store.events_as::<Belisarius>(c.id).unwrap();
        let mut kinds = Vec::new();
        for viewer in viewers {
            let view = view_for(&c.state, &events, viewer).unwrap();
            for next in next_orders(&view, &c.state.setup.map) {
                for json in next.orders.iter().filter(|o| !o.contains('<')) {
                    let offered: Order = serde_json::from_str(json).unwrap();
                    kinds.push(serde_json::to_value(&offered).unwrap()["type"].as_str().unwrap().to_owned());
                    let (seed, at) = Belisarius::dice(&c.state);
                    if let Err(e) = Belisarius::allows(&c.state, &(), &offered, &mut Dice::seeded(seed, at)) {
                        refused.push(format!("{moment}, {viewer:?} was offered {json}: {e}"));
                    }
                }
            }
        }
        kinds
    }

    /// BE-45, X-06: in spring 536 of the first reconquest of Italy, with the Goths' points
    /// to spend and the Byzantines' army to place, Next offers the referee no operations yet,
    /// and the Goths a way to give up what they do not spend; once all is bought and placed,
    /// it offers the operations. Every whole order it offers is one the rules take.
    #[test]
    fn be_45_next_waits_for_the_reinforcements_before_the_operations() {
        use referee_campaign::fixtures::belisarius::{all_dice, at_turn, run, settle_reinforcements};
        let (mut store, mut c) = at_turn("italy-535", 4, 45);
        let ones = all_dice(&c, &Order::CheckSupply {}, 1);
        run(&mut store, &mut c, &Order::CheckSupply {}, ones);
        run(&mut store, &mut c, &Order::BringReinforcements {}, DiceInput::Manual(vec![5, 4]));
        let viewers = [Viewer::Umpire, Viewer::Side(SideId::new("byzantines")), Viewer::Side(SideId::new("ostrogoths"))];
        let mut refused = Vec::new();
        let kinds = ask_the_rules(&store, &c, &viewers, "reinforcements due", &mut refused);
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        assert!(!kinds.iter().any(|k| k == "begin_operations"), "{kinds:?}");
        let umpire = offered(&store, &c, &Viewer::Umpire);
        assert!(umpire.iter().any(|o| o == r#"{"type":"raise","side":"ostrogoths","at":"","units":[]}"#), "{umpire:?}");
        settle_reinforcements(&mut store, &mut c);
        let kinds = ask_the_rules(&store, &c, &viewers, "reinforcements settled", &mut refused);
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        assert!(kinds.iter().any(|k| k == "begin_operations"), "{kinds:?}");
    }

    /// BE-13, X-06: Constantinus fails against the first of two Gothic markers; Next then
    /// offers him the second, not the first again, and not only a decline.
    #[test]
    fn be_13_next_aims_at_a_marker_not_tried_yet() {
        use referee_campaign::belisarius::tables::Interception;
        use referee_campaign::fixtures::belisarius::{byz, contact_by, goths, interception_die, run};
        let (mut store, mut c, _) =
            contact_by("constantinus", &[(goths(), "uraias", "3B 3C", false), (goths(), "aligern", "3B 3C", false)], 0);
        run(&mut store, &mut c, &Order::Decline { side: goths() }, DiceInput::Seeded);
        let aim = |n: u32| format!(r#"{{"type":"intercept","side":"byzantines","leaders":["constantinus"],"target":{n}}}"#);
        assert!(offered(&store, &c, &Viewer::Side(byz())).contains(&aim(1)));
        // Both Goths rate 5 against Constantinus's 4.
        let fail = interception_die(&c, 4 - 5, false, Interception::Fail);
        let first: Order = serde_json::from_str(&aim(1)).unwrap();
        run(&mut store, &mut c, &first, DiceInput::Manual(vec![fail]));
        for viewer in [Viewer::Side(byz()), Viewer::Umpire] {
            let orders = offered(&store, &c, &viewer);
            assert!(orders.contains(&aim(2)) && !orders.contains(&aim(1)), "{viewer:?}: {orders:?}");
        }
        let mut refused = Vec::new();
        ask_the_rules(&store, &c, &[Viewer::Umpire, Viewer::Side(byz())], "after the first try", &mut refused);
        assert!(refused.is_empty(), "{}", refused.join("\n"));
    }

    /// The whole and template orders **Next:** offers `viewer` now, in order.
    fn offered(store: &Store, c: &Campaign<Belisarius>, viewer: &Viewer) -> Vec<String> {
        let view = view_for(&c.state, &store.events_as::<Belisarius>(c.id).unwrap(), viewer).unwrap();
        next_orders(&view, &c.state.setup.map).into_iter().flat_map(|n| n.orders).collect()
    }

    /// X-06 / BE-48: the Franks on their own, led by the Byzantines: in the turn after they
    /// came, Next offers the Byzantines their march alone; at the Goths they met, the
    /// interception with the king alone (they always try); after it, the Byzantines' own
    /// leaders to activate; and at no moment the king's activation or a march of his. Every
    /// whole order offered is one the rules take, to the operations' end.
    #[test]
    fn be_48_next_offers_the_franks_their_march_and_their_interception() {
        use referee_campaign::belisarius::franks::{KING, STRATAGEM};
        use referee_campaign::belisarius::map::ZoneId;
        use referee_campaign::belisarius::state::{Location, Phase};
        use referee_campaign::fixtures::belisarius::{all_dice, byz, goths, italy_under_vitiges, stage, typed};
        let (mut store, mut c) = italy_under_vitiges("ap-d", [6, 1]);
        stage(
            &mut c,
            &[
                (goths(), "vitiges", "2B 2B", Location::Zone(ZoneId::new("ticinensis"))),
                (byz(), "belisarius", "2B 2B", Location::Zone(ZoneId::new("bruttii"))),
            ],
        );
        c.state.hands.get_mut(&byz()).unwrap().push(STRATAGEM.into());
        let viewers = [Viewer::Umpire, Viewer::Side(byz()), Viewer::Side(goths())];
        let mut refused = Vec::new();
        let mut give = |store: &mut Store, c: &mut Campaign<Belisarius>, order: Order, dice: DiceInput| {
            let kinds = ask_the_rules(store, c, &viewers, &format!("before {order:?}"), &mut refused);
            store.execute(c, &(), &order, dice).unwrap_or_else(|e| panic!("{order:?}: {e}"));
            kinds
        };
        // Each side's `show` lists its own stratagems, not the other's, and Next offers the
        // Byzantines theirs (BE-43).
        let shown = |store: &Store, c: &Campaign<Belisarius>, viewer: &Viewer| {
            let view = view_for(&c.state, &store.events_as::<Belisarius>(c.id).unwrap(), viewer).unwrap();
            Shown { view, map: c.state.setup.map.clone() }.text()
        };
        let text = shown(&store, &c, &Viewer::Side(byz()));
        assert!(text.lines().any(|l| l.starts_with("Byzantines: stratagems in hand:") && l.contains(STRATAGEM)), "{text}");
        assert!(!text.contains("Ostrogoths: stratagems in hand"), "the Byzantines read their own hand alone: {text}");
        let text = shown(&store, &c, &Viewer::Side(goths()));
        assert!(!text.contains("Byzantines: stratagems in hand"), "the Goths read their own hand alone: {text}");
        let byz_next = offered(&store, &c, &Viewer::Side(byz()));
        assert!(byz_next.contains(&r#"{"type":"frankish_intervention","side":"byzantines"}"#.to_owned()), "{byz_next:?}");
        // 2 + 1 = 3: the Franks come on their own, against the Goths; the Byzantines lead them.
        give(&mut store, &mut c, Order::PlayFrankishIntervention { side: byz() }, DiceInput::Manual(vec![2]));
        assert!(c.state.franks.as_ref().is_some_and(|f| f.side == byz() && f.against == Some(goths())));
        while c.state.phase == Phase::Operations {
            let side = c.state.ops.as_ref().unwrap().segment.clone();
            give(&mut store, &mut c, Order::Pass { side }, DiceInput::Seeded);
        }
        give(&mut store, &mut c, Order::EndTurn {}, DiceInput::Seeded);
        let ones = all_dice(&c, &Order::CheckSupply {}, 1);
        give(&mut store, &mut c, Order::CheckSupply {}, ones);
        give(&mut store, &mut c, Order::BeginOperations {}, typed(&[6, 1], &["ap-i", "ap-d"]));

        let franks_march = r#"{"type":"franks_march","side":"byzantines"}"#;
        for viewer in [Viewer::Umpire, Viewer::Side(byz())] {
            assert_eq!(offered(&store, &c, &viewer), [franks_march], "{viewer:?}: the march alone, before anything else");
        }
        give(&mut store, &mut c, Order::FranksMarch { side: byz() }, DiceInput::Seeded);
        // At the Goths: they decline, and the Franks try, with their king alone.
        give(&mut store, &mut c, Order::Decline { side: goths() }, DiceInput::Seeded);
        let intercept = format!(r#"{{"type":"intercept","side":"byzantines","leaders":["{KING}"]}}"#);
        let target = format!(r#"{{"type":"intercept","side":"byzantines","leaders":["{KING}"],"target":1}}"#);
        let tries = offered(&store, &c, &Viewer::Side(byz()));
        assert!(tries == [intercept.clone()] || tries == [target], "the king's try alone: {tries:?}");
        let order = Order::Intercept { side: byz(), leaders: vec![KING.into()], target: Some(1), reconnaissance: false };
        give(&mut store, &mut c, order, DiceInput::Manual(vec![1]));
        // The rest of the turn: nothing offered for the king, everything offered taken; once
        // the contact is over, the Byzantines may still activate a leader of their own.
        let said = |store: &Store, c: &Campaign<Belisarius>| {
            let view = view_for(&c.state, &store.events_as::<Belisarius>(c.id).unwrap(), &Viewer::Side(byz())).unwrap();
            next_orders(&view, &c.state.setup.map).into_iter().map(|n| n.what).collect::<Vec<_>>()
        };
        let mut marched = false;
        for _ in 0..20 {
            let Some(ops) = c.state.ops.as_ref().filter(|_| c.state.phase == Phase::Operations) else { break };
            for viewer in &viewers {
                let all = offered(&store, &c, viewer);
                assert!(!all.iter().any(|o| o.contains(KING)), "{viewer:?} was offered an order for the king: {all:?}");
            }
            marched |= said(&store, &c)
                .iter()
                .any(|w| w == "may activate a leader of their own, the Franks having marched by themselves, or pass (BE-06, BE-48)");
            let side = ops.contact.as_ref().map_or_else(|| ops.segment.clone(), |k| k.turn_of.clone());
            let order = if ops.contact.is_some() { Order::Decline { side } } else { Order::Pass { side } };
            give(&mut store, &mut c, order, DiceInput::Seeded);
        }
        assert_ne!(c.state.phase, Phase::Operations, "the operations ended");
        assert!(marched, "the Byzantines were told the Franks had marched, and offered their own leaders");
        assert!(refused.is_empty(), "{}", refused.join("\n"));
    }

    /// X-06 / BE-13: Bessas (4) marches on Uraias (5); on 1s the Goths try to intercept and
    /// fail, then the Byzantines: Next offers each side a battle by consent (and the referee both), the
    /// rules take every whole order offered, and once the Goths agree the Byzantines are still
    /// offered theirs, which joins the battle.
    #[test]
    fn be_13_next_offers_a_battle_by_consent_once_both_sides_fail() {
        use referee_campaign::belisarius::map::Terrain;
        use referee_campaign::belisarius::state::Location;
        use referee_campaign::fixtures::belisarius::{byz, goths, hold, italy_under_vitiges, stage};
        let (mut store, mut c) = italy_under_vitiges("ap-d", [6, 1]);
        let map = c.state.setup.map.clone();
        let target = map.zones.iter().find(|z| z.terrain == Terrain::Plain).unwrap().id.clone();
        let from = map.zone(&target).unwrap().neighbours[0].clone();
        stage(&mut c, &[(byz(), "bessas", "4B 4B 3C", Location::Zone(from)), (goths(), "uraias", "3B 3C", Location::Zone(target.clone()))]);
        hold(&mut c, &target, &goths());
        let viewers = [Viewer::Umpire, Viewer::Side(byz()), Viewer::Side(goths())];
        let mut refused = Vec::new();
        let agree = |side: &str| format!(r#"{{"type":"agree_to_battle","side":"{side}"}}"#);
        let orders = [
            (Order::Activate { side: byz(), leader: "bessas".into(), with: vec![] }, DiceInput::Seeded),
            (
                Order::Move { side: byz(), leader: "bessas".into(), path: vec![target.0.clone()], attrition_from: vec![] },
                DiceInput::Manual(vec![1]),
            ),
            (
                Order::Intercept { side: goths(), leaders: vec!["uraias".into()], target: None, reconnaissance: false },
                DiceInput::Manual(vec![1]),
            ),
            (Order::Decline { side: goths() }, DiceInput::Seeded),
            (
                Order::Intercept { side: byz(), leaders: vec!["bessas".into()], target: Some(1), reconnaissance: false },
                DiceInput::Manual(vec![1]),
            ),
        ];
        for (order, dice) in orders {
            assert!(!offered(&store, &c, &Viewer::Umpire).iter().any(|o| o.contains("agree_to_battle")), "not before both fail");
            ask_the_rules(&store, &c, &viewers, &format!("before {order:?}"), &mut refused);
            store.execute(&mut c, &(), &order, dice).unwrap_or_else(|e| panic!("{order:?}: {e}"));
        }
        let contact = c.state.ops.as_ref().and_then(|o| o.contact.as_ref()).expect("the contact stands");
        assert_eq!(contact.failed.len(), 2, "both sides failed");
        assert!(offered(&store, &c, &Viewer::Side(goths())).contains(&agree("ostrogoths")));
        assert!(offered(&store, &c, &Viewer::Side(byz())).contains(&agree("byzantines")));
        let umpire = offered(&store, &c, &Viewer::Umpire);
        assert!(umpire.contains(&agree("ostrogoths")) && umpire.contains(&agree("byzantines")), "{umpire:?}");
        ask_the_rules(&store, &c, &viewers, "both failed", &mut refused);
        store.execute(&mut c, &(), &Order::AgreeToBattle { side: goths() }, DiceInput::Seeded).unwrap();
        assert!(!offered(&store, &c, &Viewer::Side(goths())).contains(&agree("ostrogoths")), "agreed once");
        assert!(offered(&store, &c, &Viewer::Side(byz())).contains(&agree("byzantines")), "the Byzantines are still asked");
        ask_the_rules(&store, &c, &viewers, "the Goths agreed", &mut refused);
        store.execute(&mut c, &(), &Order::AgreeToBattle { side: byz() }, DiceInput::Seeded).unwrap();
        assert!(c.state.ops.as_ref().is_some_and(|o| o.battle.is_some()), "both agreed: the battle is joined");
        assert!(refused.is_empty(), "{}", refused.join("\n"));
    }

    /// X-06 / BE-29: Ammatas marches on Belisarius's lines before Sicca Veneria and both sides'
    /// interceptions fail. Next offers the Vandals the attack on the lines beside another try
    /// and declining; once they attack, it offers the Byzantines the order naming who meets
    /// them, and nothing else: no interception, no declining, no battle by consent. The rules
    /// take every whole order offered, and the one offered joins the relief's battle.
    #[test]
    fn be_29_next_offers_the_attack_on_the_lines_and_the_besieger_s_answer() {
        use referee_campaign::fixtures::belisarius::{africa, byz, march_on_the_lines_at_sicca, supply_phase};
        let (mut store, mut c) = africa();
        let vandals = SideId::new("vandals");
        supply_phase(&mut store, &mut c);
        let first = DiceInput::ManualWithChits { dice: vec![6, 1], chits: vec!["ap-c".into(), "ap-d".into()] };
        store.execute(&mut c, &(), &Order::BeginOperations {}, first).unwrap();
        march_on_the_lines_at_sicca(&mut store, &mut c);
        let viewers = [Viewer::Umpire, Viewer::Side(byz()), Viewer::Side(vandals.clone())];
        let mut refused = Vec::new();
        let relieve = r#"{"type":"relieve","side":"vandals"}"#.to_owned();
        assert!(offered(&store, &c, &Viewer::Side(vandals.clone())).contains(&relieve), "{:?}", offered(&store, &c, &Viewer::Umpire));
        ask_the_rules(&store, &c, &viewers, "both failed at the lines", &mut refused);
        store.execute(&mut c, &(), &Order::Relieve { side: vandals.clone() }, DiceInput::Seeded).unwrap();

        let kinds = ask_the_rules(&store, &c, &viewers, "the lines attacked", &mut refused);
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        assert_eq!(kinds, ["hold_lines", "hold_lines"], "the besieger's answer alone, to the referee and the Byzantines");
        let answer = offered(&store, &c, &Viewer::Side(byz()));
        assert_eq!(answer, [r#"{"type":"hold_lines","side":"byzantines","fight":["belisarius"]}"#], "{answer:?}");
        assert!(offered(&store, &c, &Viewer::Side(vandals)).is_empty(), "the Vandals wait");
        store.execute(&mut c, &(), &serde_json::from_str(&answer[0]).unwrap(), DiceInput::Seeded).unwrap();
        assert!(c.state.ops.as_ref().is_some_and(|o| o.battle.as_ref().is_some_and(|b| b.relief.is_some())), "the relief's battle");
    }

    /// X-06 / BE-28: Uraias, besieged by Belisarius, is activated inside the city: Next
    /// offers him a sortie and no march, which the rules would refuse. Once he sallies, the
    /// besiegers are offered their answer with the sortie's points, and nobody a segment's
    /// orders.
    #[test]
    fn be_28_next_offers_the_besieged_a_sortie_and_the_besiegers_their_answer() {
        use referee_campaign::belisarius::state::Location;
        use referee_campaign::fixtures::belisarius::{byz, city_of, goths, hold, italy_under_vitiges, siege_ground, stage};
        let (mut store, mut c) = italy_under_vitiges("ap-d", [6, 1]);
        let (zone, _, _) = siege_ground(&c, false);
        let city = city_of(&c, &zone);
        stage(&mut c, &[(byz(), "belisarius", "4B 4B 3C", Location::Zone(zone.clone())), (goths(), "uraias", "2B 2C", city)]);
        hold(&mut c, &zone, &goths());
        c.state.control.insert(zone.clone(), goths());
        let viewers = [Viewer::Umpire, Viewer::Side(byz()), Viewer::Side(goths())];
        let mut refused = Vec::new();
        for order in [
            Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] },
            Order::Besiege { side: byz(), leader: "belisarius".into() },
            Order::Pass { side: byz() },
            Order::Activate { side: goths(), leader: "uraias".into(), with: vec![] },
        ] {
            ask_the_rules(&store, &c, &viewers, &format!("before {order:?}"), &mut refused);
            store.execute(&mut c, &(), &order, DiceInput::Seeded).unwrap_or_else(|e| panic!("{order:?}: {e}"));
        }
        let goth = offered(&store, &c, &Viewer::Side(goths()));
        assert!(goth.contains(&r#"{"type":"sortie","side":"ostrogoths","leader":"uraias","units":["<unit>"]}"#.to_owned()), "{goth:?}");
        assert!(!goth.iter().any(|o| o.contains(r#""type":"move""#)), "no march out of a besieged city: {goth:?}");
        store.execute(&mut c, &(), &Order::Sally { side: goths(), leader: "uraias".into(), units: vec![1, 2] }, DiceInput::Seeded).unwrap();
        let kinds = ask_the_rules(&store, &c, &viewers, "the sortie made", &mut refused);
        assert_eq!(kinds, ["answer_sortie", "answer_sortie"], "the besiegers' answer alone, to the referee and the Byzantines");
        let answer = offered(&store, &c, &Viewer::Side(byz()));
        assert_eq!(answer.len(), 1, "{answer:?}");
        let view = view_for(&c.state, &store.events_as::<Belisarius>(c.id).unwrap(), &Viewer::Side(byz())).unwrap();
        let said: Vec<String> = next_orders(&view, &c.state.setup.map).into_iter().map(|n| n.what).collect();
        assert!(said.iter().any(|w| w.contains("meet the sortie with 4 unmodified points")), "2B and 2C sallied: {said:?}");
        assert!(offered(&store, &c, &Viewer::Side(goths())).is_empty(), "the Goths wait");
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        store.execute(&mut c, &(), &serde_json::from_str(&answer[0]).unwrap(), DiceInput::Seeded).unwrap();
    }

    /// X-06: at every moment of a played campaign, each order **Next:** offers (one with no
    /// `<place>` left to fill in) is one the rules would take now, for the referee and for
    /// each side: a player copies them.
    #[test]
    fn x_06_every_order_next_offers_is_one_the_rules_take() {
        let orders: Vec<Order> = serde_json::from_str(PLAYED).unwrap();
        let setup = World::embedded().setup("africa-533").unwrap();
        let viewers: Vec<Viewer> = std::iter::once(Viewer::Umpire).chain(setup.sides.iter().map(|s| Viewer::Side(s.id.clone()))).collect();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<Belisarius>("Africa", &setup, SEED).unwrap();
        let mut refused = Vec::new();
        let mut offered_kinds = std::collections::BTreeSet::new();
        let mut settling = 0;
        for (n, order) in orders.iter().enumerate() {
            let moment = format!("before order {}", n + 1);
            let kinds = ask_the_rules(&store, &c, &viewers, &moment, &mut refused);
            // BE-27, BE-28: while an assault or a sortie is settled, no segment's orders.
            if c.state.ops.as_ref().is_some_and(|o| o.assault.is_some() || o.sortie.is_some()) {
                settling += 1;
                assert!(!kinds.iter().any(|k| k == "activate" || k == "pass"), "{moment}: {kinds:?}");
            }
            offered_kinds.extend(kinds);
            store.execute(&mut c, &(), order, DiceInput::Seeded).unwrap_or_else(|e| panic!("order {}: {e}", n + 1));
        }
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        assert!(settling > 0, "the campaign reached an assault being settled");
        // The moments the campaign reached, each offered whole at least once.
        for kind in [
            "begin_play",
            "events",
            "supply",
            "take_losses",
            "begin_operations",
            "activate",
            "pass",
            "decline",
            "intercept",
            "fight",
            "send_to_table",
            "intercept_at_sea",
            "let_pass",
            "fight_at_sea",
            "besiege",
            "assault",
            "end_turn",
        ] {
            assert!(offered_kinds.contains(kind), "never offered {kind}: {offered_kinds:?}");
        }
    }
}
