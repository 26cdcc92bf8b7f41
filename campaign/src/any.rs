//! Every engine behind one closed enum: the store, the command line and the app shell hold an
//! [`AnyCampaign`] and match on it, so a new engine is a compile error wherever it must be
//! handled, and no trait object hides which rules are running.

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

/// An order for a campaign of whichever engine: the command line reads one from JSON once
/// it knows which engine plays the campaign.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyOrder {
    MagnaGraecia(crate::magna_graecia::order::Order),
    Belisarius(crate::belisarius::order::Order),
}

/// What one viewer may see of a campaign, of whichever engine plays it.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyView {
    MagnaGraecia(Box<crate::magna_graecia::view::View>),
    Belisarius(Box<crate::belisarius::view::View>),
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
