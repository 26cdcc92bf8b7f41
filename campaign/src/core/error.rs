//! What the referee did that the rules refuse.

use std::fmt;

use crate::core::rule::RuleId;

/// A refused command: which rule forbids it, in words a referee understands. Nothing is
/// written when a command is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RuleError {
    /// The rule in the rule list that refuses it.
    pub rule: RuleId,
    pub message: String,
}

impl RuleError {
    pub fn new(rule: RuleId, message: impl Into<String>) -> Self {
        RuleError { rule, message: message.into() }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} — {}", self.message, self.rule)
    }
}
