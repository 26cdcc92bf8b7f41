//! From a battle raised on the campaign map to a battle pack for the tabletop: the section
//! of the node's battle map in play, each side's brief and roster in the chosen tabletop
//! system, and the umpire's sheet, rendered to PDF; and the result form that goes back.
//!
//! Depends on `referee-campaign` and `referee-data`; never on egui. Every side's output is
//! built from that side's view only.
//!
//! The writers read an engine-neutral description of the battle ([`spec::BattleSpec`] for a
//! side, [`spec::UmpireSpec`] for the umpire), which each campaign engine's adapter builds
//! ([`magna_graecia`] today); the tabletop rules are [`tabletop::Tabletop`] systems, and the
//! result comes back as a [`tabletop::TabletopResult`] for the engine to turn into its order.

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

pub use adapter::{AnyBattle, BattleSource};
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
