//! Random games of all four scenarios played by a player that gives random legal orders and
//! steers clear of battles (whose results come with the battle packs): no panic, and the
//! invariants hold all the way to the end of the campaign (MG-32).

use std::collections::BTreeMap;

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use referee_campaign::scenario::DeployArea;
use referee_campaign::turn::{FLEET, Phase, STACK_LIMIT};
use referee_campaign::{Campaign, CampaignState, Command, DiceInput, NodeId, SideId, Store};
use referee_e2e::{scenario, sicily};

struct Player {
    rng: ChaCha8Rng,
    store: Store,
    campaign: Campaign,
    refused: usize,
}

impl Player {
    /// Gives an order; a refusal must leave the state exactly as it was.
    fn give(&mut self, command: &Command) -> bool {
        let before = self.campaign.state.clone();
        match self.store.execute(&mut self.campaign, sicily(), command, DiceInput::Seeded) {
            Ok(_) => true,
            Err(_) => {
                assert_eq!(self.campaign.state, before, "a refused {command:?} changed the state");
                self.refused += 1;
                false
            }
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
                        && self.give(&Command::Deploy { side: setup.id.clone(), counter: name.clone(), node })
                });
                assert!(placed, "{} could not deploy {name} anywhere", setup.id);
            }
        }
        assert!(self.give(&Command::BeginPlay), "play did not begin");
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
                        && self.give(&Command::Land { side: side.clone(), counter: name.clone(), node })
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
                    self.give(&Command::Embark { side: side.clone(), counter: name.clone() });
                }
                1 => {
                    let fleet = self.campaign.state.counter(side, FLEET).map(|f| f.node);
                    if fleet.is_some_and(|n| self.safe(side, n) && self.own_land_at(side, n) < STACK_LIMIT) {
                        self.give(&Command::Disembark { side: side.clone(), counter: name.clone() });
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
                        self.give(&Command::Exchange { side: side.clone(), from: name.clone(), to, elements: vec![one] });
                    }
                }
                _ => {
                    let moves = self.campaign.state.destinations(sicily(), side, &name);
                    let is_fleet = name == FLEET;
                    let mut options: Vec<Vec<NodeId>> = moves
                        .into_iter()
                        .filter(|(n, path)| {
                            path.iter().all(|p| self.safe(side, *p)) && (is_fleet || self.own_land_at(side, *n) < STACK_LIMIT)
                        })
                        .map(|(_, path)| path)
                        .collect();
                    options.shuffle(&mut self.rng);
                    if let Some(path) = options.pop() {
                        assert!(
                            self.give(&Command::Move { side: side.clone(), counter: name.clone(), path }),
                            "a listed destination was refused"
                        );
                    }
                }
            }
        }
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
            let now = s.elements_in_play(side) + s.elements_lost.get(side).copied().unwrap_or(0) + s.elements_exited(side);
            assert_eq!(now, *total, "{side}'s elements are not all accounted for");
        }
    }
}

fn play(id: &str, seed: u64) {
    let mut store = Store::open_in_memory().unwrap();
    let campaign = store.create("Random", scenario(id), seed).unwrap();
    let mut p = Player { rng: ChaCha8Rng::seed_from_u64(seed), store, campaign, refused: 0 };
    let elements: BTreeMap<SideId, u32> =
        p.campaign.state.armies.iter().map(|(s, a)| (s.clone(), a.commands.iter().map(|c| c.element_count()).sum())).collect();
    p.deploy_all();
    while p.campaign.state.phase != Phase::Ended {
        let side = p.campaign.state.moving_side().clone();
        if p.campaign.state.phase == Phase::Movement {
            p.movement(&side);
            assert!(p.campaign.state.overstacked(&side).is_empty(), "{id}: {side} overstacked");
        }
        p.check_invariants(&elements);
        assert!(p.give(&Command::EndPhase { side: side.clone() }), "{id}: {side} could not end {:?}", p.campaign.state.phase);
        assert!(p.campaign.state.battles.is_empty(), "{id}: the player steered into a battle");
    }
    assert_eq!(p.campaign.state.turn, 19, "{id}: the campaign ends after its 18th turn");
    let events = p.store.events(p.campaign.id).unwrap();
    let replayed = CampaignState::replay(events.iter().map(|l| &l.event)).unwrap();
    assert_eq!(replayed, p.campaign.state, "{id}: replay differs from the live game");
    assert!(events.len() > 200, "{id}: only {} events in a whole campaign", events.len());
}

/// MG-09 / MG-32 and the movement rules: whole campaigns of random legal orders.
#[test]
fn mg_32_random_games_of_every_scenario_run_to_the_end() {
    for id in ["dionysian", "pyrrhic", "first-punic", "second-punic"] {
        for seed in [1, 2] {
            play(id, seed);
        }
    }
}
