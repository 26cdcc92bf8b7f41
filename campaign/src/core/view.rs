//! What a viewer sees, the same shape in every campaign: the referee's view of everything or
//! one side's view of its own, each with a board and a log; and [`Followed`], which keeps a
//! viewer's view up to date order by order.
//!
//! The engines say what a board holds, what a side's forces are and how an event reads;
//! the core says how a view is kept: every event is described once, the log only grows by
//! an order's lines, and the rest is rebuilt from the state, so an order costs the same
//! however long the campaign.

use serde::{Deserialize, Serialize};

use super::engine::{Engine, Logged};
use super::viewer::{LogLine, Viewer};

/// What one viewer may see: the referee's view of everything, or one side's view of its
/// own. `U` and `S` are the engine's two views; neither has a field that could hold
/// anything its reader may not know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "viewer")]
#[allow(clippy::large_enum_variant, reason = "a view is built once per order or change of viewer, and moved rarely")]
pub enum View<U, S> {
    Umpire(U),
    Side(S),
}

/// A part of a view with a board and a log: each engine's referee's view and side's view.
pub trait Seen {
    /// The map as this engine draws it.
    type Board;
    fn board(&self) -> &Self::Board;
    fn log(&self) -> &[LogLine];
    fn log_mut(&mut self) -> &mut Vec<LogLine>;
}

/// Implements [`Seen`] for an engine's view types, each with a `board: $board` and a
/// `log: Vec<LogLine>` field.
macro_rules! seen {
    ($board:ty: $($view:ty),+) => {$(
        impl $crate::core::view::Seen for $view {
            type Board = $board;
            fn board(&self) -> &$board {
                &self.board
            }
            fn log(&self) -> &[$crate::core::viewer::LogLine] {
                &self.log
            }
            fn log_mut(&mut self) -> &mut Vec<$crate::core::viewer::LogLine> {
                &mut self.log
            }
        }
    )+};
}
pub(crate) use seen;

impl<U: Seen, S: Seen<Board = U::Board>> View<U, S> {
    pub fn board(&self) -> &U::Board {
        match self {
            View::Umpire(v) => v.board(),
            View::Side(v) => v.board(),
        }
    }

    pub fn log(&self) -> &[LogLine] {
        HasLog::log(self)
    }
}

/// A view with a log, which [`Followed`] keeps growing.
pub trait HasLog {
    fn log(&self) -> &[LogLine];
    fn log_mut(&mut self) -> &mut Vec<LogLine>;
}

impl<U: Seen, S: Seen> HasLog for View<U, S> {
    fn log(&self) -> &[LogLine] {
        match self {
            View::Umpire(v) => v.log(),
            View::Side(v) => v.log(),
        }
    }

    fn log_mut(&mut self) -> &mut Vec<LogLine> {
        match self {
            View::Umpire(v) => v.log_mut(),
            View::Side(v) => v.log_mut(),
        }
    }
}

/// How the referee's log is numbered. A side's log is always numbered in its own sequence,
/// 1, 2, 3…, so that gaps do not count what is hidden from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// By the store's events, gaps and all (Magna Graecia: the referee's log and the
    /// database's `events` table speak of the same numbers).
    ByEvent,
    /// In the log's own sequence, like a side's (Belisarius).
    Own,
}

impl Numbering {
    /// Whether `viewer`'s log is numbered by the store's events under `E`: the referee's,
    /// where the engine numbers it so; a side's never.
    pub fn by_event<E: Engine>(viewer: &Viewer) -> bool {
        matches!((viewer, E::UMPIRE_NUMBERING), (Viewer::Umpire, Numbering::ByEvent))
    }
}

/// The log lines `viewer` reads for `events`, numbered on from `next` where the lines have
/// their own sequence. An event reads the same whenever it is described, so lines
/// described order by order are the lines of the whole log described at once.
pub fn log_lines<E: Engine>(
    state: &E::State,
    context: &E::Context,
    events: &[Logged<E::Event>],
    viewer: &Viewer,
    next: u64,
) -> Vec<LogLine> {
    let lines = events.iter().filter_map(|e| E::describe(state, context, &e.event, viewer).map(|text| (e.seq, text)));
    if Numbering::by_event::<E>(viewer) {
        lines.map(|(seq, text)| LogLine { seq, text }).collect()
    } else {
        lines.zip(next..).map(|((_, text), seq)| LogLine { seq, text }).collect()
    }
}

/// What one viewer sees of a campaign, kept up to date order by order: every event is read
/// and described once, and an order costs the same however long the campaign (the board and
/// forces are rebuilt from the state; the log only grows by the order's lines).
pub struct Followed<E: Engine> {
    pub viewer: Viewer,
    /// The campaign's stored events, in order.
    pub events: Vec<Logged<E::Event>>,
    pub view: E::View,
}

impl<E: Engine> Followed<E> {
    /// The view of `viewer` over the whole story; `None` for a side the campaign lacks.
    pub fn new(state: &E::State, context: &E::Context, events: Vec<Logged<E::Event>>, viewer: Viewer) -> Option<Self> {
        let view = E::view_for(state, context, &events, &viewer)?;
        Some(Followed { viewer, events, view })
    }

    /// The events an order just stored, `state` being the campaign after them: their lines
    /// go on the end of the log, and the rest of the view is built again from the state.
    pub fn advance(&mut self, state: &E::State, context: &E::Context, stored: Vec<Logged<E::Event>>) {
        let next = self.view.log().last().map_or(1, |l| l.seq + 1);
        let mut lines = std::mem::take(self.view.log_mut());
        lines.extend(log_lines::<E>(state, context, &stored, &self.viewer, next));
        self.events.extend(stored);
        self.rebuild(state, context, lines);
    }

    /// The last order was undone, `state` being the campaign after the undo: its events and
    /// their lines go.
    pub fn undo(&mut self, state: &E::State, context: &E::Context) {
        let Some(last) = self.events.last().map(|e| e.command_seq) else { return };
        let keep = self.events.iter().rposition(|e| e.command_seq != last).map_or(0, |i| i + 1);
        let undone = self.events.split_off(keep);
        let gone = log_lines::<E>(state, context, &undone, &self.viewer, 1).len();
        let mut lines = std::mem::take(self.view.log_mut());
        lines.truncate(lines.len().saturating_sub(gone));
        self.rebuild(state, context, lines);
    }

    fn rebuild(&mut self, state: &E::State, context: &E::Context, log: Vec<LogLine>) {
        match E::refresh(state, context, &self.viewer, &self.view, log) {
            Ok(view) => self.view = view,
            // A side the campaign has is never lost; were it, the side would keep what it
            // had, never see more.
            Err(log) => *self.view.log_mut() = log,
        }
    }
}

impl<E: Engine> Clone for Followed<E>
where
    E::View: Clone,
{
    fn clone(&self) -> Self {
        Followed { viewer: self.viewer.clone(), events: self.events.clone(), view: self.view.clone() }
    }
}

impl<E: Engine> std::fmt::Debug for Followed<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Followed").field("viewer", &self.viewer).field("events", &self.events).field("view", &self.view).finish()
    }
}
