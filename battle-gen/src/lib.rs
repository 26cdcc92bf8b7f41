//! From a battle raised in a campaign to a battle pack for the tabletop: the part of the
//! battle's ground in play, each side's brief and roster in the chosen tabletop system, and
//! the umpire's sheet, rendered to PDF; the result form that goes back; and the turn reports.
//!
//! Depends on `referee-campaign` and `referee-data`; never on egui. Every side's output is
//! built from that side's view only.
//!
//! - **Adapters.** Each campaign engine reaches the writers through one adapter, a
//!   [`adapter::BattleSource`]: [`magna_graecia::Source`] (a battle raised on a node, its
//!   sides' briefs and the umpire's sheet built from their views in [`magna_graecia::brief`])
//!   and [`belisarius::Source`] (the battle under way in a zone, its units fielded as DBM
//!   elements by the conversion table); each shell reaches an engine's adapter through that
//!   engine's own module, picked by the campaign's `EngineId`. An adapter writes an engine-neutral description of the
//!   battle, [`spec::BattleSpec`] for a side and [`spec::UmpireSpec`] for the umpire, and turns
//!   the tabletop's result back into its engine's order ([`magna_graecia::result_order`],
//!   [`belisarius::hex_table_result`]).
//! - **Ground.** [`ground`] works a place's battle map out into shapes,
//!   [`section`](mod@section) picks the part of it on the table, [`table`] draws the table to
//!   scale; Belisarius lays its zone's ground out as a battle map of the same kind
//!   ([`belisarius::zone_ground`]).
//! - **Tabletop systems**, behind [`tabletop::Tabletop`], read the specs and nothing of the
//!   campaign: DBM rosters, DBSA ([`dbsa`]: the conversion and its scaling), and the hex
//!   wargames Ars Bellum ([`ars_bellum`]) and A la Charge! ([`a_la_charge`]) with their hex map
//!   ([`hexmap`], [`hexpage`]), units and counters ([`hexunits`], [`hexcounters`]), pack
//!   ([`hexpack`]) and result form ([`hexresult`]).
//! - **Pages.** [`pack`] writes a pack's files from the specs ([`pack::spec_pack`]) and to
//!   disk; [`layout`] and [`pdf`] set and draw the pages, and [`pdf::ReadBack`] reads a PDF
//!   back for the tests; [`report`] writes the turn reports from each engine's
//!   [`report::ReportSpec`].

pub mod a_la_charge;
pub mod adapter;
pub mod ars_bellum;
pub mod belisarius;
pub mod dbsa;
pub mod ground;
pub mod hexcounters;
pub mod hexmap;
pub mod hexpack;
pub mod hexpage;
pub mod hexresult;
pub mod hexunits;
pub mod layout;
pub mod magna_graecia;
pub mod pack;
pub mod pdf;
pub mod report;
pub mod section;
pub mod spec;
pub mod table;
pub mod tabletop;

pub use adapter::BattleSource;
pub use magna_graecia::campaign_pack;
pub use pack::spec_pack;
pub use section::{Defence, Flank, Rect, Section, SectionError, attacker_base_edge, section};
pub use spec::{BattleSpec, UmpireSpec};
pub use tabletop::{Tabletop, TabletopResult};

use serde::{Deserialize, Serialize};

/// The tabletop rules a battle pack is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TabletopSystem {
    /// De Bellis Multitudinis-style rosters: commands, generals, elements with grade and points.
    Dbm,
    /// De Bellis Societatis Antiquorum: ten troop types, one general, a camp.
    Dbsa,
    /// Ars Bellum: a hex wargame of leaders and combat units, a hex about 200 m.
    ArsBellum,
    /// A la Charge!: a hex wargame of units whose strength is their morale, on an A3 or A4 map.
    #[serde(rename = "a-la-charge")]
    ALaCharge,
}

impl TabletopSystem {
    pub fn name(self) -> &'static str {
        match self {
            TabletopSystem::Dbm => "DBM",
            TabletopSystem::Dbsa => "DBSA",
            TabletopSystem::ArsBellum => "Ars Bellum",
            TabletopSystem::ALaCharge => "A la Charge!",
        }
    }

    /// The system as the command line names it and a pack's file names begin: `dbm`, `dbsa`,
    /// `ars-bellum`, `a-la-charge`.
    pub fn key(self) -> &'static str {
        match self {
            TabletopSystem::Dbm => "dbm",
            TabletopSystem::Dbsa => "dbsa",
            TabletopSystem::ArsBellum => "ars-bellum",
            TabletopSystem::ALaCharge => "a-la-charge",
        }
    }

    /// The hex wargame it is, if it is one.
    pub fn hex(self) -> Option<hexmap::HexSystem> {
        match self {
            TabletopSystem::ArsBellum => Some(hexmap::HexSystem::ArsBellum),
            TabletopSystem::ALaCharge => Some(hexmap::HexSystem::ALaCharge),
            TabletopSystem::Dbm | TabletopSystem::Dbsa => None,
        }
    }
}

/// Paper the battle pack is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    A4,
    Letter,
    /// For a hex map printed whole at its own scale.
    A3,
}

impl Paper {
    /// Width and height in millimetres, portrait.
    pub fn size_mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
            Paper::A3 => (297.0, 420.0),
        }
    }
}
