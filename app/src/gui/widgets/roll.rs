//! The referee's dice form, kept between frames: the shell's log draws it, and both desks'
//! buttons that move the campaign on read its typed-in values.

use referee_campaign::dice::DiceError;
use referee_campaign::ids::SideId;
use referee_campaign::{DiceInput, DiceSpec};

use crate::gui::shell::command::AppCommand;

/// The dice form's fields, kept between frames. Its typed-in values also serve "End phase".
#[derive(Debug, Clone)]
pub(crate) struct RollForm {
    pub dice: String,
    pub purpose: String,
    pub side: Option<SideId>,
    pub values: String,
    pub secret: bool,
}

impl Default for RollForm {
    fn default() -> Self {
        RollForm { dice: "d6".to_owned(), purpose: String::new(), side: None, values: String::new(), secret: false }
    }
}

/// Reads typed-in die values such as `3 5` or `3,5`.
fn parse_values(text: &str) -> Result<Vec<u8>, String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '+')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u8>().map_err(|_| format!("`{s}` is not a die value")))
        .collect()
}

impl RollForm {
    /// The typed-in values as dice for a command: the players' physical dice when any are
    /// typed, the campaign's seeded stream when none are.
    pub(crate) fn typed_dice(&self) -> Result<DiceInput, String> {
        let values = parse_values(&self.values)?;
        Ok(if values.is_empty() { DiceInput::Seeded } else { DiceInput::Manual(values) })
    }

    /// Forgets the typed-in values once a command has used them.
    pub(crate) fn clear_values(&mut self) {
        self.values.clear();
    }

    /// The roll the form describes, or why it is not one yet. It is the shell's: the app
    /// turns it into the open campaign's own order.
    pub(crate) fn command(&self) -> Result<AppCommand, String> {
        let dice: DiceSpec = self.dice.parse().map_err(|e: DiceError| e.to_string())?;
        let input = self.typed_dice()?;
        Ok(AppCommand::RollDice { dice, purpose: self.purpose.trim().to_owned(), side: self.side.clone(), hidden: self.secret, input })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_parse() {
        assert_eq!(parse_values(""), Ok(vec![]));
        assert_eq!(parse_values("3 5"), Ok(vec![3, 5]));
        assert_eq!(parse_values("3,5 + 6"), Ok(vec![3, 5, 6]));
        assert!(parse_values("3 x").unwrap_err().contains("`x`"));
    }
}
