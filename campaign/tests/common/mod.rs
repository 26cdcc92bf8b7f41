//! A game under test, shared by the rule tests: a campaign in an in-memory store, deployed,
//! with one-line helpers for giving orders.

#![allow(dead_code, reason = "each test file uses the helpers it needs")]

use referee_campaign::core::log::DiceRolled;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::{
    Campaign, DiceInput, NodeId, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::event::Event, magna_graecia::map::Map,
    magna_graecia::order::Order,
};

/// A closure for `find_map` and `filter_map` over events: `Some(value)` for an event that
/// matches `pattern` (and its guard), `None` for any other.
macro_rules! matching {
    ($pattern:pat $(if $guard:expr)? => $value:expr) => {
        |event| match event {
            $pattern $(if $guard)? => Some($value),
            _ => None,
        }
    };
}
pub(crate) use matching;

pub fn side(id: &str) -> SideId {
    SideId::new(id)
}

/// The Dionysian War as most rule tests deploy it: Carthage in the west, Syracuse round its
/// allied cities, Leptines holding Himera.
pub const STANDARD: &[(&str, &str, u8)] = &referee_campaign::fixtures::DIONYSIAN;

/// A deployment written node by node: each line a side, a node and the counters of that side
/// that start there, in the order they are placed.
pub fn deployment(lines: &[(&'static str, u8, &[&'static str])]) -> Vec<(&'static str, &'static str, u8)> {
    lines.iter().flat_map(|&(s, node, counters)| counters.iter().map(move |&counter| (s, counter, node))).collect()
}

/// Asserts that `value` comes back from JSON unchanged, as a campaign's start event keeps
/// it, and returns the JSON.
pub fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) -> String {
    let json = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, value, "what JSON gives back");
    json
}

/// The Belisarius map's sea zones, by id.
pub const BELISARIUS_SEAS: [&str; 10] = [
    "mare-ligusticum",
    "mare-sardoum",
    "tyrrhenum-north",
    "tyrrhenum-south",
    "mare-africum",
    "syrtis",
    "ionium",
    "adriaticum-south",
    "adriaticum-north",
    "mare-balearicum",
];

/// The dice rolled among `events`, each as its purpose and total.
pub fn rolls(events: &[Event]) -> Vec<(String, i32)> {
    events.iter().filter_map(matching!(Event::DiceRolled(DiceRolled { roll, .. }) => (roll.purpose.clone(), roll.total()))).collect()
}

pub struct Game {
    pub store: Store,
    pub c: Campaign<MagnaGraecia>,
    pub map: Map,
}

impl Game {
    /// A campaign of `scenario`, before its deployment.
    pub fn created(scenario: &str, seed: u64) -> Game {
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap().clone();
        let mut store = Store::open_in_memory().unwrap();
        let c = store.create_as::<MagnaGraecia>("Test", catalog.scenario(scenario).unwrap(), seed).unwrap();
        Game { store, c, map }
    }

    /// A campaign of `scenario` with every counter of `deployment` placed and play begun.
    pub fn deployed(scenario: &str, seed: u64, deployment: &[(&str, &str, u8)]) -> Game {
        let mut g = Game::created(scenario, seed);
        g.deploy(deployment);
        g
    }

    /// Places every counter of `deployment` and begins play.
    pub fn deploy(&mut self, deployment: &[(&str, &str, u8)]) {
        for &(s, counter, node) in deployment {
            self.ok(&Order::Deploy { side: side(s), counter: counter.into(), node: NodeId(node) });
        }
        self.ok(&Order::BeginPlay {});
    }

    /// The Dionysian War with Himilco marched from Panormus onto Leptines at Himera and the
    /// battle raised.
    pub fn himera(deployment: &[(&str, &str, u8)]) -> Game {
        let mut g = Game::deployed("dionysian", 9, deployment);
        g.ok(&Order::Move { side: side("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] });
        g.ok(&Order::EndPhase { side: side("carthage") });
        assert_eq!(g.c.state.battles.len(), 1);
        g
    }

    pub fn go(&mut self, command: &Order, dice: DiceInput) -> Result<Vec<Event>, String> {
        self.store.execute(&mut self.c, &self.map, command, dice).map_err(|e| e.to_string())
    }

    pub fn ok(&mut self, command: &Order) -> Vec<Event> {
        self.go(command, DiceInput::Seeded).unwrap_or_else(|e| panic!("{command:?}: {e}"))
    }

    /// Asserts a refusal containing `words`, with nothing stored.
    pub fn refused(&mut self, command: &Order, words: &str) {
        let before = self.store.events_as::<MagnaGraecia>(self.c.id).unwrap().len();
        let err = self.go(command, DiceInput::Seeded).unwrap_err();
        assert!(err.contains(words), "expected `{words}`, got: {err}");
        assert_eq!(self.store.events_as::<MagnaGraecia>(self.c.id).unwrap().len(), before);
    }

    /// Ends `s`'s current phase.
    pub fn end(&mut self, s: &str, dice: DiceInput) -> Vec<Event> {
        self.go(&Order::EndPhase { side: side(s) }, dice).unwrap_or_else(|e| panic!("end {s}: {e}"))
    }

    /// Ends `n` phases of `s`, any dice rolled by the program.
    pub fn ends(&mut self, s: &str, n: usize) {
        for _ in 0..n {
            self.end(s, DiceInput::Seeded);
        }
    }

    /// Ends all three phases of `s`'s player-turn.
    pub fn pass(&mut self, s: &str) {
        self.ends(s, 3);
    }

    /// Each of `sides` in turn passes its player-turn.
    pub fn passes(&mut self, sides: &[&str]) {
        for s in sides {
            self.pass(s);
        }
    }

    /// From Carthage's combat phase to its next movement phase, `other` passing its turn.
    pub fn round(&mut self, other: &str) {
        self.ends("carthage", 2);
        self.pass(other);
    }

    /// MG-36: Carthage, at sea in the Second Punic War, lands whatever it still has at sea at
    /// `node` and plays out its first player-turn, beating any city that meets the landing
    /// (MG-10).
    pub fn carthage_lands(&mut self, node: u8) {
        let carthage = side("carthage");
        for name in referee_campaign::magna_graecia::turn::still_at_sea(&self.c.state, &carthage) {
            self.ok(&Order::Land { side: carthage.clone(), counter: name, node: NodeId(node) });
        }
        self.end("carthage", DiceInput::Seeded);
        while let Some(battle) = self.c.state.battles.first() {
            let result = referee_campaign::fixtures::won_outright(battle.id, "carthage");
            self.ok(&Order::RecordBattleResult { result });
        }
        self.ends("carthage", 2);
    }

    pub fn sail(&mut self, s: &str, path: &[u8]) {
        self.ok(&Order::Move { side: side(s), counter: "fleet".into(), path: path.iter().map(|&n| NodeId(n)).collect() });
    }

    /// A command's element groups, written out.
    pub fn elements(&self, s: &str, command: &str) -> Vec<String> {
        let army = &self.c.state.armies[&side(s)];
        army.commands.iter().find(|c| c.name == command).map(|c| c.elements.iter().map(ToString::to_string).collect()).unwrap_or_default()
    }
}
