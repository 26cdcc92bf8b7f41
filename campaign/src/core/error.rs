//! What the referee did that the rules refuse.

use std::fmt;

/// A refused command: which rule forbids it, in words a referee understands. Nothing is
/// written when a command is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RuleError {
    /// The rule's ID in RULES.md, e.g. `MG-11`.
    pub rule: &'static str,
    pub message: String,
}

impl RuleError {
    pub fn new(rule: &'static str, message: impl Into<String>) -> Self {
        RuleError { rule, message: message.into() }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} — {}", self.message, self.rule)
    }
}
