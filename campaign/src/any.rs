//! Every engine behind one closed enum: the store, the command line and the app shell hold an
//! [`AnyCampaign`] and match on it, so a new engine is a compile error wherever it must be
//! handled, and no trait object hides which rules are running.

use crate::core::engine::{Engine, EngineId};
use crate::magna_graecia::engine::MagnaGraecia;
use crate::store::Campaign;

/// An open campaign, of whichever engine plays it.
#[derive(Debug, Clone)]
pub enum AnyCampaign {
    MagnaGraecia(Campaign<MagnaGraecia>),
}

impl AnyCampaign {
    pub fn engine(&self) -> EngineId {
        match self {
            AnyCampaign::MagnaGraecia(_) => MagnaGraecia::ID,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            AnyCampaign::MagnaGraecia(c) => MagnaGraecia::name(&c.state),
        }
    }
}
