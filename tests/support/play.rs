//! A player that gives random legal orders — marches, landings, embarkations, exchanges,
//! attacks on enemies and neutral cities — and types in random but consistent battle results,
//! stay-or-retire choices, retreats, losses at sea and at sieges, checking the invariants all
//! the way to the end of the campaign (MG-32). The random-game tests and the no-leak test play
//! with it.

use referee_campaign::core::log::kind_of;
use referee_campaign::magna_graecia::MagnaGraecia;
use std::collections::BTreeMap;

use crate::{scenario, sicily};
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use referee_battle_gen::TabletopSystem;
use referee_battle_gen::pack::{PackOptions, Reader};
use referee_campaign::magna_graecia::army::{CommandRoster, ElementGroup, take_groups};
use referee_campaign::magna_graecia::battle::{BattleResult, CommandLosses, Outcome};
use referee_campaign::magna_graecia::event::Logged;
use referee_campaign::magna_graecia::map::Edge;
use referee_campaign::magna_graecia::scenario::DeployArea;
use referee_campaign::magna_graecia::table::{Defence, Flank};
use referee_campaign::magna_graecia::turn::{FLEET, Phase, STACK_LIMIT};
use referee_campaign::{
    Campaign, DiceInput, ExecError, NodeId, SideId, Store, magna_graecia::order::Order, magna_graecia::state::CampaignState,
};

struct Player {
    rng: ChaCha8Rng,
    store: Store,
    campaign: Campaign<MagnaGraecia>,
    refused: usize,
    /// Set each battle's table and print its pack before the result, checking every side's
    /// PDF for what it must not hold.
    packs: bool,
    packs_checked: usize,
    checkpoints: Vec<usize>,
    retreats_owed: Vec<usize>,
}

impl Player {
    fn new(store: Store, campaign: Campaign<MagnaGraecia>, seed: u64, packs: bool) -> Player {
        Player {
            rng: ChaCha8Rng::seed_from_u64(seed),
            store,
            campaign,
            refused: 0,
            packs,
            packs_checked: 0,
            checkpoints: Vec::new(),
            retreats_owed: Vec::new(),
        }
    }

    /// Gives an order; a refusal must leave the state exactly as it was.
    fn give(&mut self, command: &Order) -> bool {
        let before = self.campaign.state.clone();
        match self.store.execute(&mut self.campaign, sicily(), command, DiceInput::Seeded) {
            Ok(_) => true,
            Err(ExecError::Rule(_)) => {
                assert_eq!(self.campaign.state, before, "a refused {command:?} changed the state");
                self.refused += 1;
                false
            }
            Err(e) => panic!("the store failed on {command:?}: {e}"),
        }
    }

    fn own_land_at(&self, side: &SideId, node: NodeId) -> usize {
        self.campaign.state.counters.iter().filter(|c| &c.side == side && c.on_land() && c.node == node).count()
    }

    /// A node is safe when no enemy counter stands there.
    fn safe(&self, side: &SideId, node: NodeId) -> bool {
        let s = &self.campaign.state;
        !s.counters.iter().any(|c| c.node == node && s.are_enemies(side, &c.side))
    }

    fn names(&self, side: &SideId) -> Vec<String> {
        let s = &self.campaign.state;
        let mut names: Vec<String> = s.armies[side].commands.iter().map(|c| c.name.clone()).collect();
        if s.scenario.side(side).is_some_and(|x| x.fleet_np > 0) {
            names.push(FLEET.to_owned());
        }
        names
    }

    fn deploy_all(&mut self) {
        let sides = self.campaign.state.scenario.sides.clone();
        for setup in sides.iter().filter(|s| !matches!(s.deploy.area, DeployArea::Landing)) {
            for (i, name) in self.names(&setup.id).into_iter().enumerate() {
                let mut nodes: Vec<NodeId> = sicily().nodes.keys().copied().collect();
                nodes.shuffle(&mut self.rng);
                if let (0, Some(at)) = (i, setup.deploy.command_at) {
                    nodes.insert(0, at);
                }
                let placed = nodes.into_iter().any(|node| {
                    (name == FLEET || self.own_land_at(&setup.id, node) < STACK_LIMIT)
                        && self.give(&Order::Deploy { side: setup.id.clone(), counter: name.clone(), node })
                });
                assert!(placed, "{} could not deploy {name} anywhere", setup.id);
            }
        }
        assert!(self.give(&Order::BeginPlay {}), "play did not begin");
    }

    fn movement(&mut self, side: &SideId) {
        let state = self.campaign.state.clone();
        let landing = state.scenario.side(side).is_some_and(|s| matches!(s.deploy.area, DeployArea::Landing));
        if landing && state.turn == 1 {
            for name in self.names(side) {
                let mut south: Vec<NodeId> = sicily().nodes.values().filter(|n| n.south_coast).map(|n| n.id).collect();
                south.shuffle(&mut self.rng);
                let landed = south.into_iter().any(|node| {
                    self.own_land_at(side, node) < STACK_LIMIT
                        && self.give(&Order::Land { side: side.clone(), counter: name.clone(), node })
                });
                assert!(landed, "{side} could not land {name}");
            }
            return;
        }
        let mut names = self.names(side);
        names.shuffle(&mut self.rng);
        for name in names {
            if self.campaign.state.counter(side, &name).is_none() {
                continue;
            }
            match self.rng.random_range(0..10) {
                0 => {
                    self.give(&Order::Embark { side: side.clone(), counter: name.clone() });
                }
                1 => {
                    let fleet = self.campaign.state.counter(side, FLEET).map(|f| f.node);
                    if fleet.is_some_and(|n| self.safe(side, n) && self.own_land_at(side, n) < STACK_LIMIT) {
                        self.give(&Order::Disembark { side: side.clone(), counter: name.clone() });
                    }
                }
                2 => {
                    let army = &self.campaign.state.armies[side];
                    let from = army.commands.iter().find(|c| c.name == name).cloned();
                    let to = army.commands.iter().find(|c| c.name != name).map(|c| c.name.clone());
                    if let (Some(from), Some(to)) = (from, to)
                        && let Some(group) = from.elements.first()
                    {
                        let one = format!("1 {}", group.spec).parse().unwrap();
                        self.give(&Order::Exchange { side: side.clone(), from: name.clone(), to, elements: vec![one] });
                    }
                }
                _ => {
                    let moves = self.campaign.state.destinations(sicily(), side, &name);
                    let is_fleet = name == FLEET;
                    // Now and then the player seeks battle.
                    let bold = self.rng.random_range(0..4) == 0;
                    let mut options: Vec<Vec<NodeId>> = moves
                        .into_iter()
                        .filter(|(n, path)| {
                            (bold || path.iter().all(|p| self.safe(side, *p))) && (is_fleet || self.own_land_at(side, *n) < STACK_LIMIT)
                        })
                        .map(|(_, path)| path)
                        .collect();
                    options.shuffle(&mut self.rng);
                    if let Some(path) = options.pop() {
                        assert!(
                            self.give(&Order::Move { side: side.clone(), counter: name.clone(), path }),
                            "a listed destination was refused"
                        );
                    }
                }
            }
        }
    }

    /// Random groups of a roster's elements, within what it has.
    fn some_of(&mut self, groups: &[ElementGroup], only_inferior: bool) -> Vec<ElementGroup> {
        groups
            .iter()
            .filter(|g| !only_inferior || g.spec.grade == referee_campaign::magna_graecia::army::Grade::I)
            .filter_map(|g| {
                let n = self.rng.random_range(0..=g.count.min(3));
                (n > 0 && self.rng.random_range(0..3) == 0).then(|| ElementGroup { count: n, spec: g.spec.clone() })
            })
            .collect()
    }

    /// Everything the combat phase asks: city attacks, withdrawals, results, choices, losses.
    fn combat(&mut self, mover: &SideId) {
        // Attack a neutral city now and then.
        let nodes: Vec<NodeId> = self.campaign.state.counters.iter().filter(|c| &c.side == mover && c.on_land()).map(|c| c.node).collect();
        for node in nodes {
            if self.rng.random_range(0..3) == 0 && self.campaign.state.is_neutral_city(sicily(), node) {
                let enemy = self.campaign.state.scenario.move_order.iter().find(|s| self.campaign.state.are_enemies(mover, s)).cloned();
                if let Some(ally) = enemy {
                    self.give(&Order::AttackCity { side: mover.clone(), node, ally });
                }
            }
        }
        for _ in 0..20 {
            self.settle_losses();
            if let Some((fickle, ally)) = self.campaign.state.politics.switch_offer.clone()
                && self.rng.random_range(0..2) == 0
            {
                let to = self.campaign.state.scenario.move_order.iter().find(|s| *s != &fickle && *s != &ally).cloned();
                if let Some(to) = to {
                    self.give(&Order::SwitchSides { side: fickle, to });
                }
            }
            let Some(battle) = self.campaign.state.battles.first().cloned() else { return };
            if battle.awaiting_choices {
                for s in battle.sides().into_iter().filter(|s| !battle.choices.contains_key(s)) {
                    let stay = self.rng.random_range(0..2) == 0;
                    // A side with no road to a friendly or neutral node cannot retire (MG-26).
                    let chosen = self.give(&Order::ChooseStayOrRetire { side: s.clone(), battle: battle.id, stay })
                        || (!stay && self.give(&Order::ChooseStayOrRetire { side: s, battle: battle.id, stay: true }));
                    assert!(chosen);
                }
                continue;
            }
            if self.rng.random_range(0..4) == 0 {
                for d in &battle.defenders {
                    if self.give(&Order::WithdrawIntoCity { side: d.clone(), battle: battle.id }) {
                        break;
                    }
                }
                if !self.campaign.state.battles.iter().any(|b| b.id == battle.id) {
                    continue;
                }
            }
            if self.packs {
                self.set_table_and_check_pack(battle.id);
            }
            let sides = battle.sides();
            let winner = sides[self.rng.random_range(0..sides.len())].clone();
            let outcome = if battle.day == 1 && self.rng.random_range(0..5) == 0 { Outcome::NoResult {} } else { Outcome::Won { winner } };
            let s = self.campaign.state.clone();
            let mut losses = Vec::new();
            for c in s.counters.iter().filter(|c| c.node == battle.node && c.on_land() && sides.contains(&c.side)) {
                let Some(roster) = s.armies[&c.side].commands.iter().find(|r| r.name == c.name) else { continue };
                let destroyed = self.some_of(&roster.elements, false);
                let mut left = roster.elements.clone();
                take_groups(&mut left, &destroyed).expect("the losses are drawn from the roster");
                let fled = self.some_of(&left, true);
                let headless = s.losses.leaderless.contains(&(c.side.clone(), c.name.clone()));
                let general_killed = !headless && self.rng.random_range(0..8) == 0;
                losses.push(CommandLosses {
                    side: c.side.clone(),
                    command: c.name.clone(),
                    destroyed,
                    fled,
                    general_killed,
                    demoralised: self.rng.random_range(0..5) == 0,
                    voluntary: false,
                    join: None,
                });
            }
            self.name_joins(&s, battle.node, &mut losses);
            let result =
                BattleResult { battle: battle.id, outcome, held_field: None, losses, open_roads: BTreeMap::new(), city_attacked_by: None };
            let command = Order::RecordBattleResult { result };
            if let Err(e) = self.store.execute(&mut self.campaign, sicily(), &command, DiceInput::Seeded) {
                panic!("a consistent result was refused: {e}\n{command:?}");
            }
        }
        panic!("the combat phase did not settle");
    }

    /// MG-31: each general killed names a command at the node for his men to join should he
    /// not be recovered, as the rules require while one can take them in: one still led by
    /// its general if there is one (so the joins never run round a ring while a led command
    /// stands), else any not lost whole.
    fn name_joins(&mut self, s: &CampaignState, node: NodeId, losses: &mut [CommandLosses]) {
        let headless = |side: &SideId, name: &str| s.losses.leaderless.contains(&(side.clone(), name.to_owned()));
        let entry = |side: &SideId, name: &str| losses.iter().find(|l| &l.side == side && l.command == name).cloned();
        let elements = |side: &SideId, name: &str| {
            s.armies[side].commands.iter().find(|r| r.name == name).map(|r| r.elements.clone()).unwrap_or_default()
        };
        let mut joins = Vec::new();
        for (i, l) in losses.iter().enumerate().filter(|(_, l)| l.general_killed) {
            let (mut led, mut others) = (Vec::new(), Vec::new());
            for o in s.counters.iter().filter(|o| o.side == l.side && o.name != l.command && o.node == node && o.on_land()) {
                let lost = entry(&o.side, &o.name);
                if lost.as_ref().is_some_and(|x| x.loses_whole(&elements(&o.side, &o.name), headless(&o.side, &o.name))) {
                    continue;
                }
                let still_led = !headless(&o.side, &o.name) && lost.is_none_or(|x| !x.general_killed);
                let list = if still_led { &mut led } else { &mut others };
                list.push(o.name.clone());
            }
            let options = if led.is_empty() { others } else { led };
            if !options.is_empty() {
                joins.push((i, options[self.rng.random_range(0..options.len())].clone()));
            }
        }
        for (i, j) in joins {
            losses[i].join = Some(j);
        }
    }

    /// Chooses losses at sea and at sieges: whole groups, then whole commands.
    fn settle_losses(&mut self) {
        let s = self.campaign.state.clone();
        for (side, due) in &s.naval.naval_losses_due {
            let pool: Vec<String> = s.counters.iter().filter(|c| &c.side == side && c.aboard).map(|c| c.name.clone()).collect();
            let (lost, sunk) = pick_losses(&s, side, &pool, *due);
            assert!(self.give(&Order::AllocateNavalLosses { side: side.clone(), lost, sunk }), "losses at sea");
        }
        for (side, due) in &s.siege.siege_losses_due {
            let pool: Vec<String> = s
                .counters
                .iter()
                .filter(|c| &c.side == side && c.node == due.node && !c.is_fleet() && !c.aboard)
                .map(|c| c.name.clone())
                .collect();
            let (lost, sunk) = pick_losses(&s, side, &pool, due.elements);
            assert!(self.give(&Order::AllocateSiegeLosses { side: side.clone(), lost, sunk }), "siege losses");
        }
    }

    /// Post-combat: every retreat due, non-phasing sides first; a counter with no way out is
    /// left to be destroyed.
    fn retreats(&mut self, mover: &SideId) {
        let s = self.campaign.state.clone();
        if !s.losses.land_retreats_due.is_empty() {
            let events = self.store.events_as::<MagnaGraecia>(self.campaign.id).unwrap();
            self.retreats_owed.push(events.len());
        }
        let mut due = s.losses.land_retreats_due.clone();
        due.sort_by_key(|r| &r.side == mover);
        for r in due {
            let options: Vec<Vec<NodeId>> = self.campaign.state.land_retreats(sicily(), &r.side, &r.command).into_values().collect();
            if !options.is_empty() {
                let path = options[self.rng.random_range(0..options.len())].clone();
                assert!(
                    self.give(&Order::Retreat { side: r.side.clone(), counter: r.command.clone(), path }),
                    "a legal retreat was refused"
                );
            }
        }
        for side in s.naval.retreats_due.clone() {
            let options: Vec<Vec<NodeId>> = self.campaign.state.fleet_retreats(sicily(), &side).into_values().collect();
            if !options.is_empty() {
                let path = options[self.rng.random_range(0..options.len())].clone();
                assert!(self.give(&Order::RetreatFleet { side, path }), "a legal fleet retreat was refused");
            }
        }
    }

    /// sets the table (a random section and cut) and prints the pack; each side's PDF
    /// names its own commands in the battle and nothing of the enemy's: no command name, no
    /// kind of element the side does not have itself, and under DBSA neither the sides'
    /// strengths nor the battle's factor, which only the umpire's sheet shows.
    fn set_table_and_check_pack(&mut self, battle_id: u32) {
        let now = self.campaign.state.battles.iter().find(|b| b.id == battle_id).cloned().expect("the battle is there");
        let earlier = now.table.as_ref().map(|t| t.defence);
        // On a second day the defender may only keep the field or move it back (MG-25).
        let choices: Vec<Defence> = Defence::ALL.into_iter().filter(|d| earlier.is_none_or(|e| *d >= e)).collect();
        let defence = choices[self.rng.random_range(0..choices.len())];
        let cut = [None, Some(Flank::Left), Some(Flank::Right)][self.rng.random_range(0..3)];
        let set = Order::SetUpTable { battle: battle_id, defence, cut, attacker_edge: None };
        if now.table.as_ref().is_some_and(|t| t.day == now.day) {
            // Set already for this day.
        } else if !self.give(&set) {
            // No road of entry (a landing, a sally): the attacker fights from the first edge.
            let edge = Edge::ALL[self.rng.random_range(0..4)];
            let set = Order::SetUpTable { battle: battle_id, defence, cut, attacker_edge: Some(edge) };
            assert!(self.give(&set), "battle {battle_id}: the table could not be set");
        }
        let s = self.campaign.state.clone();
        let battle = s.battles.iter().find(|b| b.id == battle_id).cloned().expect("the battle is there");
        let events = self.store.events_as::<MagnaGraecia>(self.campaign.id).unwrap();
        let options = PackOptions {
            system: [TabletopSystem::Dbm, TabletopSystem::Dbsa, TabletopSystem::ArsBellum, TabletopSystem::ALaCharge]
                [usize::try_from(battle_id % 4).unwrap_or(0)],
            ..PackOptions::default()
        };
        let files = referee_battle_gen::campaign_pack(&s, sicily(), &events, battle_id, &options).expect("a pack for every battle");
        let hex = matches!(options.system, TabletopSystem::ArsBellum | TabletopSystem::ALaCharge);
        // A hex pack adds the map, whole on A3 and on sheets, for every player.
        assert_eq!(files.len(), 1 + battle.sides().len() + if hex { 2 } else { 0 });
        let at_node = |side: &SideId| -> Vec<CommandRoster> {
            let mut out: Vec<CommandRoster> = s
                .counters
                .iter()
                .filter(|c| &c.side == side && c.node == battle.node && c.on_land())
                .filter_map(|c| s.armies[side].commands.iter().find(|r| r.name == c.name).cloned())
                .collect();
            if let Some(n) = battle.city.filter(|n| s.politics.city_allies.get(n) == Some(side)) {
                out.extend(s.city_forces(sicily(), n));
            }
            out
        };
        let scaled = options.system != TabletopSystem::Dbm;
        for file in &files {
            // no heading at a page's foot, no line or row alone on a page.
            if file.reader != Reader::Everyone {
                let pages = referee_battle_gen::pdf::text_lines(&file.bytes).expect("the PDF reads back");
                let slips = referee_battle_gen::layout::stranded(&pages);
                assert!(slips.is_empty(), "battle {battle_id}, {}: {}", file.file_name, slips.join("; "));
            }
            let text = referee_battle_gen::pdf::extract_text(&file.bytes).expect("the PDF reads back").join(" ").replace('\n', " ");
            // The sides' strengths and the battle's factor are the umpire's alone.
            let strengths = text.contains("Strength on the table") || text.contains("The battle's factor") || text.contains("Odds: ");
            let side = match &file.reader {
                Reader::Umpire => {
                    assert_eq!(
                        strengths, scaled,
                        "battle {battle_id}: the umpire's sheet shows the strengths wherever the battle is scaled"
                    );
                    continue;
                }
                Reader::Everyone => {
                    assert!(!strengths, "battle {battle_id}: the map files show the strengths");
                    continue;
                }
                Reader::Side(side) => side,
            };
            assert!(!strengths, "{side}'s pack for battle {battle_id} shows the sides' strengths or the battle's factor");
            let own = at_node(side);
            for r in &own {
                assert!(text.contains(&r.name), "{side}'s pack for battle {battle_id} lacks its own {}", r.name);
            }
            let own_specs: Vec<String> = own.iter().flat_map(|r| r.specs().map(ToString::to_string).collect::<Vec<_>>()).collect();
            for enemy in battle.sides().iter().filter(|e| s.are_enemies(side, e)) {
                for r in at_node(enemy) {
                    // A command called like a side or a place is a public word, not a leak.
                    let public = s.scenario.sides.iter().any(|x| x.name == r.name) || sicily().nodes.values().any(|n| n.name == r.name);
                    assert!(
                        public || !text.contains(&format!("{} ", r.name)) && !text.ends_with(&r.name),
                        "{side}'s pack names the enemy's {}",
                        r.name
                    );
                    for spec in r.specs().map(ToString::to_string).filter(|sp| !own_specs.contains(sp)) {
                        assert!(!text.contains(&spec), "{side}'s pack shows the enemy's {spec} (battle {battle_id})");
                    }
                }
            }
            self.packs_checked += 1;
        }
        self.checkpoints.push(events.len());
    }

    fn check_invariants(&self, elements: &BTreeMap<SideId, u32>) {
        let s: &CampaignState = &self.campaign.state;
        for c in &s.counters {
            let node = sicily().node(c.node).expect("counters stand on map nodes");
            assert!(!c.is_fleet() || node.coastal, "{} fleet inland at {}", c.side, node.name);
            if c.aboard {
                let fleet = s.counter(&c.side, FLEET).expect("a command aboard has a fleet");
                assert_eq!(fleet.node, c.node, "{} is aboard but not with its fleet", c.name);
            }
        }
        for (side, total) in elements {
            let now = s.elements_in_play(side) + s.losses.elements_lost.get(side).copied().unwrap_or(0) + s.elements_exited(side);
            assert_eq!(now, *total, "{side}'s elements are not all accounted for");
        }
    }
}

impl Player {
    /// Deploys every side and plays until the campaign ends, or until turn `stop` begins.
    fn play_until(&mut self, id: &str, stop: Option<u32>) {
        let elements: BTreeMap<SideId, u32> =
            self.campaign.state.armies.iter().map(|(s, a)| (s.clone(), a.commands.iter().map(|c| c.element_count()).sum())).collect();
        self.deploy_all();
        while self.campaign.state.phase != Phase::Ended && stop.is_none_or(|t| self.campaign.state.turn < t) {
            let side = self.campaign.state.moving_side().clone();
            if self.campaign.state.phase == Phase::Movement {
                self.movement(&side);
                assert!(self.campaign.state.overstacked(&side).is_empty(), "{id}: {side} overstacked");
            }
            if self.campaign.state.phase == Phase::Combat {
                self.combat(&side);
            }
            if self.campaign.state.phase == Phase::PostCombat {
                self.retreats(&side);
            }
            self.check_invariants(&elements);
            if self.campaign.state.phase == Phase::Ended {
                break;
            }
            assert!(self.give(&Order::EndPhase { side: side.clone() }), "{id}: {side} could not end {:?}", self.campaign.state.phase);
        }
    }
}

/// Plays a campaign of scenario `id`, named `name`, in `store` (a database on disk, say) from
/// its start until turn `stop` begins or the campaign ends, setting each battle's table and
/// printing its pack before the result. Returns the store.
pub fn play_into(store: Store, name: &str, id: &str, seed: u64, stop: u32) -> Store {
    let mut store = store;
    let campaign = store.create_as::<MagnaGraecia>(name, scenario(id), seed).unwrap();
    let mut p = Player::new(store, campaign, seed, true);
    p.play_until(id, Some(stop));
    p.store
}

/// Exactly `due` elements from the commands in `pool`: groups first, whole commands after.
fn pick_losses(s: &CampaignState, side: &SideId, pool: &[String], due: u32) -> (Vec<(String, ElementGroup)>, Vec<String>) {
    let mut left = due;
    let mut lost = Vec::new();
    let mut sunk = Vec::new();
    for name in pool {
        let Some(roster) = s.armies[side].commands.iter().find(|c| &c.name == name) else { continue };
        let all: u32 = roster.elements.iter().map(|g| g.count).sum();
        if left > all && left >= roster.element_count() {
            sunk.push(name.clone());
            left -= roster.element_count();
            continue;
        }
        for g in &roster.elements {
            if left == 0 {
                break;
            }
            let n = g.count.min(left);
            lost.push((name.clone(), ElementGroup { count: n, spec: g.spec.clone() }));
            left -= n;
        }
    }
    assert_eq!(left, 0, "{side} cannot find {due} elements to lose");
    (lost, sunk)
}

/// A whole campaign as the random player played it.
#[derive(Debug)]
pub struct Played {
    /// How many events of each kind it stored, and `packs_checked`.
    pub kinds: BTreeMap<String, usize>,
    pub events: Vec<Logged>,
    /// The number of events stored at each moment a battle's table was set and its pack
    /// printed (with `packs`): a battle due, its table known.
    pub checkpoints: Vec<usize>,
    /// The number of events stored at each moment land retreats were owed, before the first
    /// was made (MG-15, MG-25).
    pub retreats_owed: Vec<usize>,
}

/// Plays one campaign to its end.
pub fn play(id: &str, seed: u64, packs: bool) -> Played {
    let mut store = Store::open_in_memory().unwrap();
    let campaign = store.create_as::<MagnaGraecia>("Random", scenario(id), seed).unwrap();
    let mut p = Player::new(store, campaign, seed, packs);
    p.play_until(id, None);
    let s = &p.campaign.state;
    assert!(s.turn == 19 || s.one_camp_left(), "{id}: the campaign ends after its 18th turn or with one camp left");
    let events = p.store.events_as::<MagnaGraecia>(p.campaign.id).unwrap();
    let replayed = CampaignState::replay(events.iter().map(|l| &l.event)).unwrap();
    assert_eq!(replayed, p.campaign.state, "{id}: replay differs from the live game");
    assert!(events.len() > 200, "{id}: only {} events in a whole campaign", events.len());
    let mut kinds = BTreeMap::new();
    if packs {
        kinds.insert("packs_checked".to_owned(), p.packs_checked);
    }
    for e in &events {
        *kinds.entry(kind_of(&serde_json::to_string(&e.event).unwrap()).unwrap()).or_insert(0) += 1;
    }
    Played { kinds, events, checkpoints: p.checkpoints, retreats_owed: p.retreats_owed }
}
