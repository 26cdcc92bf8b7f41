//! One way in per engine: each campaign engine's adapter gives its battle as a
//! [`BattleSource`], the specs the pack's writers read. The shells reach it through the
//! engine's own command-line module and desk, picked by the campaign's [`EngineId`], never
//! by trying one engine and falling through to the other.
//!
//! The writers and the tabletop systems read the specs alone: nothing of an engine reaches
//! them but what its adapter wrote into the specs.

use referee_campaign::core::engine::EngineId;

use crate::pack::{PackError, PackFile, PackOptions, spec_pack};
use crate::spec::{BattleSpec, UmpireSpec};

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
