//! Identifiers shared by every part of a campaign.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A node of a campaign map, numbered as printed (`00`–`31` on the Sicily map).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct NodeId(pub u8);

/// A number, or the same number written as a string: JSON writes the keys of a map keyed by
/// node as strings, and inside a tagged event (a campaign's map is kept in its start event)
/// serde no longer turns them back into numbers by itself.
impl<'de> Deserialize<'de> for NodeId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = NodeId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a node number from 0 to 255")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<NodeId, E> {
                u8::try_from(v).map(NodeId).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<NodeId, E> {
                u8::try_from(v).map(NodeId).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<NodeId, E> {
                v.parse::<u8>().map(NodeId).map_err(|_| E::invalid_value(serde::de::Unexpected::Str(v), &self))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}", self.0)
    }
}

impl std::str::FromStr for NodeId {
    type Err = NotANode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim().parse::<u8>().map(NodeId).map_err(|_| NotANode(s.to_owned()))
    }
}

/// Text read as a node's number that is no number from 0 to 255.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a node number")]
pub struct NotANode(pub String);

/// A side of a scenario, by its id in the scenario file (`carthage`, `syracuse`, …).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SideId(pub String);

impl SideId {
    pub fn new(id: impl Into<String>) -> Self {
        SideId(id.into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SideId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A campaign in a database file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CampaignId(pub i64);

impl fmt::Display for CampaignId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
