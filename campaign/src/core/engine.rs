//! The contract between the shared core and a campaign's rules.
//!
//! An engine owns its orders, events, state and views; the core owns everything around
//! them: the store (one transaction per order, snapshots, undo, import), the dice and chit
//! cups, the viewers. The store and the shells reach an engine through [`crate::any`], a
//! closed enum over the engines, so every match over engines is exhaustive and adding an
//! engine is a compile error wherever it must be handled.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::core::dice::Dice;
use crate::core::error::RuleError;
use crate::core::viewer::Viewer;

/// Declares the engines once: the `EngineId` variants, their keys and titles, and
/// `EngineId::ALL` come from one list, so a new engine cannot be left out of any of them.
macro_rules! engines {
    ($($(#[$doc:meta])* $engine:ident = $key:literal, $title:literal;)+) => {
        /// Which rules a campaign is played by; stored in the `engine` column of `campaigns`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum EngineId {
            $($(#[$doc])* #[serde(rename = $key)] $engine,)+
        }

        impl EngineId {
            /// Every engine, in the order the picker lists them and `new` asks them for a
            /// scenario.
            pub const ALL: [EngineId; [$($key),+].len()] = [$(EngineId::$engine),+];

            /// The id stored in the database and printed by the command line.
            pub const fn key(self) -> &'static str {
                match self {
                    $(EngineId::$engine => $key,)+
                }
            }

            /// The campaign's name for a referee.
            pub const fn title(self) -> &'static str {
                match self {
                    $(EngineId::$engine => $title,)+
                }
            }
        }
    };
}

engines! {
    /// Sicily, 398–211 BC, on a node map.
    MagnaGraecia = "magna-graecia", "Magna Graecia";
    /// Italy and Africa, 533–553 AD, on a zone map with face-down leaders.
    Belisarius = "belisarius", "Belisarius";
}

impl fmt::Display for EngineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl std::str::FromStr for EngineId {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EngineId::ALL.into_iter().find(|e| e.key() == s.trim()).ok_or_else(|| UnknownEngine(s.to_owned()))
    }
}

/// Text that names none of the campaigns this program runs, as read for an engine's key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a campaign this program runs (it runs {all})", all = EngineId::ALL.map(EngineId::key).join(" and "))]
pub struct UnknownEngine(pub String);

/// An event as stored: its place in the campaign and the order that caused it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Logged<E> {
    pub seq: u64,
    pub command_seq: u64,
    pub event: E,
}

/// A battle an event raised or settled, kept in the `battles` and `battle_results` tables
/// so a referee can read them with any SQLite tool.
#[derive(Debug, Clone, PartialEq)]
pub enum BattleRow {
    /// A battle was raised: its number in the campaign, where (the engine's place, as text)
    /// and on which turn, and the battle as JSON.
    Raised { number: u32, place: String, turn: u32, body: String },
    /// A result was entered for battle `number`.
    Settled { number: u32 },
}

/// A stored start event met again after the start, or a first event that is not a start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the campaign's first event is not its start")]
    NoStart,
    #[error("event {0} starts the campaign a second time")]
    StartedTwice(u64),
}

/// A campaign's start event met again after the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the campaign is started a second time")]
pub struct StartedAgain;

/// Lifts stored events of one older shape to the next, the way cqrs-es's event upcasters do:
/// the store reads each event's `kind` and `version` columns and runs, in order, every
/// upcaster of the engine from that version up to [`Engine::EVENT_VERSION`] over the event's
/// JSON before reading it. A campaign stored years ago thus reads with today's rules, and
/// its rows are never rewritten.
#[derive(Debug, Clone, Copy)]
pub struct Upcaster {
    /// The version it lifts from; what it gives is `from + 1`.
    pub from: u32,
    /// The kinds of event whose shape changed (the `kind` column).
    pub kinds: &'static [&'static str],
    /// Rewrites one event's JSON, as stored, into the next shape.
    pub lift: fn(&mut serde_json::Value),
}

/// A stored event that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// The event was written by a newer program, in a shape this one does not know.
    #[error("it was written in version {found} of the event's shape; this program reads up to version {supported}")]
    Newer { found: u32, supported: u32 },
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// Reads one stored event of `E` written in shape `version`, lifting it first if the shape
/// has moved on since.
pub fn read_event<E: Engine>(kind: &str, version: u32, body: &str) -> Result<E::Event, EventError> {
    if version == E::EVENT_VERSION {
        return Ok(serde_json::from_str(body)?);
    }
    if version > E::EVENT_VERSION {
        return Err(EventError::Newer { found: version, supported: E::EVENT_VERSION });
    }
    let mut json: serde_json::Value = serde_json::from_str(body)?;
    for up in E::UPCASTERS.iter().filter(|u| u.from >= version && u.kinds.contains(&kind)) {
        (up.lift)(&mut json);
    }
    Ok(serde_json::from_value(json)?)
}

/// Lifts an event from outside the store — a log as `referee log --json` prints it —
/// whose shape is not written beside it: every upcaster of `E` is run over it, each leaving
/// alone what it does not lift, so a log printed by any version imports.
pub fn lift_unversioned<E: Engine>(event: &mut serde_json::Value) {
    for up in E::UPCASTERS {
        (up.lift)(event);
    }
}

/// What a campaign starts from, known by the id its data file gives it.
pub trait Identified {
    fn id(&self) -> &str;
}

/// One campaign's rules.
///
/// Rules are pure: [`Engine::decide`] reads the state and the dice and returns events or a
/// refusal, [`Engine::apply`] is deterministic, and neither touches the database, the
/// screen or the clock.
pub trait Engine: Sized + 'static {
    const ID: EngineId;
    /// The shape of [`Engine::State`] as snapshots store it; a snapshot of another version
    /// is passed over and the events replayed.
    const STATE_VERSION: u32;
    /// The shape of [`Engine::Event`] as stored in the `version` column of `events`.
    const EVENT_VERSION: u32;
    /// What lifts events stored in an older shape to this one, oldest first; see
    /// [`Upcaster`]. Empty while the events have never changed shape.
    const UPCASTERS: &'static [Upcaster] = &[];
    /// How the referee's log is numbered.
    const UMPIRE_NUMBERING: super::view::Numbering;

    /// What a campaign starts from: a validated scenario, with the map and tables it is
    /// played on, kept whole in the start event.
    type Setup: Clone + fmt::Debug + Identified;
    /// Everything the rules need, rebuilt from the events.
    type State: Clone + fmt::Debug + Serialize + DeserializeOwned;
    /// An order the referee gives for a side or for the campaign; the referee's own roll,
    /// note and renaming of the campaign are among them.
    type Order: fmt::Debug
        + Serialize
        + DeserializeOwned
        + From<super::log::RollDice>
        + From<super::log::AddNote>
        + From<super::log::RenameCampaign>;
    /// What happened; stored and replayed. The start is the core's
    /// [`CampaignStarted`](super::log::CampaignStarted), held as one of the engine's events.
    type Event: Clone + fmt::Debug + Serialize + DeserializeOwned + From<super::log::CampaignStarted<Self::Setup>>;
    /// What one viewer may know; it has no field that could hold anything else.
    type View: fmt::Debug + Clone + super::view::HasLog;
    /// Data the rules read that a campaign does not carry itself (Magna Graecia: the map of
    /// a campaign begun before maps were kept with it). `()` for an engine that keeps all.
    type Context;

    /// The start, if `event` is one.
    fn started(event: &Self::Event) -> Option<&super::log::CampaignStarted<Self::Setup>>;
    /// The start, if `event` is one, to rename it.
    fn started_mut(event: &mut Self::Event) -> Option<&mut super::log::CampaignStarted<Self::Setup>>;
    /// The state a start event makes; `None` if `event` is not a start.
    fn start(event: &Self::Event) -> Option<Self::State>;
    /// Decides what `order` does, or refuses it naming the rule.
    fn decide(state: &Self::State, context: &Self::Context, order: &Self::Order, dice: &mut Dice) -> Result<Vec<Self::Event>, RuleError>;
    /// Whether the rules would take `order` now, or the rule that refuses it: what a button
    /// asks before it is drawn, with nothing stored. By default the whole of
    /// [`Engine::decide`]; an engine whose `decide` does work past its verdict answers without
    /// that work.
    fn allows(state: &Self::State, context: &Self::Context, order: &Self::Order, dice: &mut Dice) -> Result<(), RuleError> {
        Self::decide(state, context, order, dice).map(|_| ())
    }
    /// Applies one event; fails only on a second start.
    fn apply(state: &mut Self::State, event: &Self::Event) -> Result<(), StartedAgain>;
    /// What `viewer` may see; `None` for a side the campaign does not have.
    fn view_for(state: &Self::State, context: &Self::Context, events: &[Logged<Self::Event>], viewer: &Viewer) -> Option<Self::View>;
    /// `viewer`'s view built again from `state` around a log already described (what
    /// [`super::view::Followed`] does after each order); the log comes back if the
    /// campaign no longer has the viewer's side.
    fn refresh(
        state: &Self::State,
        context: &Self::Context,
        viewer: &Viewer,
        previous: &Self::View,
        log: Vec<super::viewer::LogLine>,
    ) -> Result<Self::View, Vec<super::viewer::LogLine>>;

    /// The log line `viewer` reads for one event, or `None` if the viewer may not see it
    /// . Views build their logs from it; so do the command line's confirmations.
    fn describe(state: &Self::State, context: &Self::Context, event: &Self::Event, viewer: &Viewer) -> Option<String>;

    /// The campaign's name, as it was started or imported.
    fn name(state: &Self::State) -> &str;
    /// The dice stream: the campaign's seed and the position reached.
    fn dice(state: &Self::State) -> (u64, u64);
    /// The order in a few words, for the undo menu, the `commands` table and a refusal of a
    /// list, naming the sides, places and pieces as `viewer` knows them: a list that came in
    /// from a side is refused in that side's words.
    fn summary(state: &Self::State, context: &Self::Context, order: &Self::Order, viewer: &Viewer) -> String;
    /// The side whose order this is, for what comes in from a side (`order --as SIDE`): it
    /// may give its own orders and no other. `None` for an order only the referee gives: a
    /// phase played, a roll, a note, a battle's result.
    fn order_side(order: &Self::Order) -> Option<&crate::ids::SideId>;
    /// The battle an event raises or settles, if any, for the `battles` tables; none for an
    /// engine that keeps its battles only in its events.
    fn battle_row(_event: &Self::Event) -> Option<BattleRow> {
        None
    }
    /// The rolls and chit draws an event holds, in the order they were made, each with who
    /// may read it: what a replay of the seed checks.
    fn draws(event: &Self::Event) -> Vec<(super::verify::Drawn<'_>, super::viewer::Visibility)>;
    /// The campaign turn the state is in, from 1; once the campaign is over, its last.
    fn turn(state: &Self::State) -> u32;
    /// Whether set-up is over and the turns are being played.
    fn in_play(state: &Self::State) -> bool;
    /// Whether the campaign is over.
    fn ended(state: &Self::State) -> bool;
    /// The numbers a view holds for charts: each taken from the view, so that a
    /// side's readings are what that side may know.
    fn readings(view: &Self::View) -> Vec<super::history::Reading>;

    /// The event a campaign called `name` starts with.
    fn start_event(name: &str, setup: &Self::Setup, seed: u64) -> Self::Event {
        super::log::CampaignStarted { name: name.to_owned(), scenario: Box::new(setup.clone()), seed }.into()
    }

    /// Renames the campaign in its start event (import under another name); `false` if
    /// `event` is not a start.
    fn rename_start(event: &mut Self::Event, name: &str) -> bool {
        Self::started_mut(event).map(|started| name.clone_into(&mut started.name)).is_some()
    }

    /// The scenario a start event starts from, by id; `None` if `event` is not a start.
    fn scenario_of(event: &Self::Event) -> Option<&str> {
        Self::started(event).map(|started| started.scenario.id())
    }

    /// Rebuilds a state from a campaign's complete event list.
    fn replay<'a>(events: impl IntoIterator<Item = &'a Self::Event>) -> Result<Self::State, ReplayError> {
        let mut events = events.into_iter();
        let mut state = events.next().and_then(Self::start).ok_or(ReplayError::NoStart)?;
        for (i, e) in events.enumerate() {
            Self::apply(&mut state, e).map_err(|_| ReplayError::StartedTwice(i as u64 + 2))?;
        }
        Ok(state)
    }

    /// The campaign as it stood before command `command_seq` was given, and its log to then:
    /// a moment of its past read again from the log (a pack printed again after its battle).
    #[allow(clippy::type_complexity)]
    fn replay_before(events: &[Logged<Self::Event>], command_seq: u64) -> Result<(Self::State, Vec<Logged<Self::Event>>), ReplayError> {
        let before: Vec<_> = events.iter().filter(|l| l.command_seq < command_seq).cloned().collect();
        Ok((Self::replay(before.iter().map(|l| &l.event))?, before))
    }
}

#[cfg(test)]
mod tests {
    use super::EngineId;

    /// Every engine declared has its data folder, named by its key, embedded in the program:
    /// the one step of adding an engine no type can require.
    #[test]
    fn x_05_every_engine_has_its_data_folder() {
        for engine in EngineId::ALL {
            assert!(referee_data::DataSource::Embedded.has(engine.key()), "no data/{}/ is embedded for {}", engine.key(), engine.title());
        }
    }

    #[test]
    fn x_05_an_unknown_engine_is_refused_naming_every_engine() {
        let refused = "chess".parse::<EngineId>().unwrap_err().to_string();
        assert_eq!(refused, "`chess` is not a campaign this program runs (it runs magna-graecia and belisarius)");
    }
}
