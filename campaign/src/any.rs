//! Every engine behind one closed enum: the store, the turn reports and the app shell hold an
//! [`AnyCampaign`] and match on it (the command line matches on the [`EngineId`] the store
//! keeps, and runs the engine's orders and views generic over the engine), so a new engine is
//! a compile error wherever it must be handled, and no trait object hides which rules are
//! running.

use crate::belisarius::Belisarius;
use crate::core::engine::{Engine, EngineId};
use crate::magna_graecia::engine::MagnaGraecia;
use crate::store::Campaign;

/// An open campaign, of whichever engine plays it.
#[derive(Debug, Clone)]
pub enum AnyCampaign {
    // Boxed, so that the enum is as small as a pointer whichever engine it holds.
    MagnaGraecia(Box<Campaign<MagnaGraecia>>),
    Belisarius(Box<Campaign<Belisarius>>),
}

impl AnyCampaign {
    pub fn engine(&self) -> EngineId {
        match self {
            AnyCampaign::MagnaGraecia(_) => MagnaGraecia::ID,
            AnyCampaign::Belisarius(_) => Belisarius::ID,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            AnyCampaign::MagnaGraecia(c) => MagnaGraecia::name(&c.state),
            AnyCampaign::Belisarius(c) => Belisarius::name(&c.state),
        }
    }
}
