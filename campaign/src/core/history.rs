//! A campaign's course turn by turn, for charts: victory points, strength, losses,
//! battles and sieges, as one viewer may know them.
//!
//! Every reading is taken from the viewer's own view ([`Engine::readings`]), built again
//! from the replayed state at the end of each turn: a side's history holds its own strength
//! and losses and the public counts, never another side's forces, because its view has no
//! field that could hold them.

use serde::{Deserialize, Serialize};

use super::engine::{Engine, Logged};
use super::viewer::Viewer;
use crate::ids::SideId;

/// What a curve measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// Victory points as everyone has seen them won.
    VictoryPoints,
    /// The side's fighting strength: elements (Magna Graecia) or combat points (Belisarius).
    Strength,
    /// Strength lost so far, all causes.
    Losses,
    /// Zones or cities the side holds: public on the map.
    Held,
    /// Battles raised so far, by anyone: public.
    Battles,
    /// Cities under siege at the time: public.
    Sieges,
}

impl Measure {
    pub const ALL: [Measure; 6] =
        [Measure::VictoryPoints, Measure::Strength, Measure::Losses, Measure::Held, Measure::Battles, Measure::Sieges];

    pub fn title(self) -> &'static str {
        match self {
            Measure::VictoryPoints => "Victory points",
            Measure::Strength => "Strength",
            Measure::Losses => "Losses so far",
            Measure::Held => "Held on the map",
            Measure::Battles => "Battles raised so far",
            Measure::Sieges => "Cities under siege",
        }
    }
}

/// One number a viewer may know at a moment: of a side, or of the whole campaign (`side`
/// `None`: battles, sieges).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    pub measure: Measure,
    pub side: Option<SideId>,
    pub value: f64,
    /// What the number counts, for the axis: "elements", "combat points", "zones".
    pub unit: String,
}

/// The readings at one moment: the start of the campaign (turn 0), the end of a turn, or
/// the turn under way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    pub turn: u32,
    /// "start", "end of turn 3", "turn 4 so far".
    pub label: String,
    pub readings: Vec<Reading>,
}

/// One line of a chart: one side's values (or the campaign's), turn by turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Series {
    pub side: Option<SideId>,
    pub points: Vec<(u32, f64)>,
}

/// A chart: one measure, a line per side the viewer may know it for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chart {
    pub measure: Measure,
    pub title: String,
    pub unit: String,
    pub series: Vec<Series>,
}

/// The campaign's course as one viewer may know it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct History {
    pub samples: Vec<Sample>,
}

impl History {
    /// The charts the samples make, in [`Measure::ALL`]'s order, a measure with no reading
    /// left out; each chart's lines in the order the sides first appear.
    pub fn charts(&self) -> Vec<Chart> {
        let mut charts = Vec::new();
        for measure in Measure::ALL {
            let mut series: Vec<Series> = Vec::new();
            let mut unit = String::new();
            for sample in &self.samples {
                for r in sample.readings.iter().filter(|r| r.measure == measure) {
                    unit.clone_from(&r.unit);
                    match series.iter_mut().find(|s| s.side == r.side) {
                        Some(s) => s.points.push((sample.turn, r.value)),
                        None => series.push(Series { side: r.side.clone(), points: vec![(sample.turn, r.value)] }),
                    }
                }
            }
            if !series.is_empty() {
                charts.push(Chart { measure, title: measure.title().to_owned(), unit, series });
            }
        }
        charts
    }
}

/// Why a history could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("the campaign's events do not begin with its start")]
    NoStart,
    #[error("the campaign has no side `{0}`")]
    NoSuchSide(String),
    #[error("event {0} of the campaign starts it a second time")]
    StartedAgain(u64),
}

/// The course of the campaign made of `events` as `viewer` may know it: a sample as play
/// begins (turn 0, once set-up is over: an army replaced during set-up is no loss), at the
/// end of every turn — the state the next turn opens with, after whatever the turn's end
/// brings — and for the turn under way.
pub fn history<E: Engine>(events: &[Logged<E::Event>], context: &E::Context, viewer: &Viewer) -> Result<History, HistoryError> {
    let (first, rest) = events.split_first().ok_or(HistoryError::NoStart)?;
    let mut state = E::start(&first.event).ok_or(HistoryError::NoStart)?;
    let sample = |state: &E::State, turn: u32, label: String| -> Result<Sample, HistoryError> {
        let view = E::view_for(state, context, &[], viewer).ok_or_else(|| match viewer {
            Viewer::Side(s) => HistoryError::NoSuchSide(s.to_string()),
            Viewer::Umpire => HistoryError::NoStart,
        })?;
        Ok(Sample { turn, label, readings: E::readings(&view) })
    };
    let mut samples = Vec::new();
    let mut turn = E::turn(&state);
    for logged in rest {
        E::apply(&mut state, &logged.event).map_err(|_| HistoryError::StartedAgain(logged.seq))?;
        if samples.is_empty() {
            if E::in_play(&state) {
                samples.push(sample(&state, 0, "start".to_owned())?);
                turn = E::turn(&state);
            }
            continue;
        }
        let now = E::turn(&state);
        if now != turn {
            samples.push(sample(&state, turn, format!("end of turn {turn}"))?);
            turn = now;
        }
    }
    if samples.is_empty() {
        // Still setting up: the forces as they stand.
        samples.push(sample(&state, 0, "start".to_owned())?);
    } else if samples.last().is_some_and(|s| s.turn != turn) {
        let label = if E::ended(&state) { format!("end of turn {turn}") } else { format!("turn {turn} so far") };
        samples.push(sample(&state, turn, label)?);
    }
    Ok(History { samples })
}
