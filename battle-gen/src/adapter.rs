//! One way in per engine: each campaign engine's adapter gives its battle as a
//! [`BattleSource`], the specs the pack's writers read; [`AnyBattle`] holds a battle of
//! whichever engine, picked by its [`EngineId`] as [`referee_campaign::any::AnyCampaign`]
//! is, never by trying one engine and falling through to the other.
//!
//! The writers and the tabletop systems read the specs alone: nothing of an engine reaches
//! them but what its adapter wrote into the specs.

use referee_campaign::core::engine::EngineId;

use crate::pack::{PackError, PackFile, PackOptions, spec_pack};
use crate::spec::{BattleSpec, UmpireSpec};
use crate::{belisarius, magna_graecia};

/// A battle of one engine's campaign, as its adapter turns it into specs.
pub trait BattleSource {
    /// The engine whose battle this is.
    const ENGINE: EngineId;

    /// Why the engine's battle cannot be printed.
    type Error: From<PackError>;

    /// The battle's number, as its campaign numbers it.
    fn number(&self) -> u32;

    /// The umpire's spec of the battle.
    fn umpire_spec(&self) -> Result<UmpireSpec, Self::Error>;

    /// The umpire's spec and each fighting side's, each side's built from its own view only.
    fn specs(&self) -> Result<(UmpireSpec, Vec<BattleSpec>), Self::Error>;

    /// The battle's pack ([`spec_pack`]): the umpire's file first, then one per side.
    fn pack(&self, options: &PackOptions) -> Result<Vec<PackFile>, Self::Error> {
        let (umpire, sides) = self.specs()?;
        Ok(spec_pack(&umpire, &sides, options)?)
    }
}

/// Why a battle of whichever engine cannot be printed: its engine's reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BattleError {
    #[error(transparent)]
    MagnaGraecia(#[from] PackError),
    #[error(transparent)]
    Belisarius(#[from] belisarius::TablePackError),
}

/// A battle of whichever engine plays the campaign.
#[derive(Debug, Clone, Copy)]
pub enum AnyBattle<'a> {
    MagnaGraecia(magna_graecia::Source<'a>),
    Belisarius(belisarius::Source<'a>),
}

impl AnyBattle<'_> {
    pub fn engine(&self) -> EngineId {
        match self {
            AnyBattle::MagnaGraecia(_) => magna_graecia::Source::ENGINE,
            AnyBattle::Belisarius(_) => belisarius::Source::ENGINE,
        }
    }

    pub fn number(&self) -> u32 {
        match self {
            AnyBattle::MagnaGraecia(b) => b.number(),
            AnyBattle::Belisarius(b) => b.number(),
        }
    }

    /// The umpire's spec, as its engine's adapter writes it.
    pub fn umpire_spec(&self) -> Result<UmpireSpec, BattleError> {
        match self {
            AnyBattle::MagnaGraecia(b) => Ok(b.umpire_spec()?),
            AnyBattle::Belisarius(b) => Ok(b.umpire_spec()?),
        }
    }

    /// The umpire's spec and each fighting side's, as its engine's adapter writes them.
    pub fn specs(&self) -> Result<(UmpireSpec, Vec<BattleSpec>), BattleError> {
        match self {
            AnyBattle::MagnaGraecia(b) => Ok(b.specs()?),
            AnyBattle::Belisarius(b) => Ok(b.specs()?),
        }
    }

    /// The battle's pack.
    pub fn pack(&self, options: &PackOptions) -> Result<Vec<PackFile>, BattleError> {
        match self {
            AnyBattle::MagnaGraecia(b) => Ok(b.pack(options)?),
            AnyBattle::Belisarius(b) => Ok(b.pack(options)?),
        }
    }
}
