//! What only a Belisarius campaign is asked: its map's selection, its orders and the pack of
//! its battle. The shell passes these on to the desk unread.

use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::Location;
use referee_campaign::store::DiceInput;

use crate::gui::widgets::packs::PackSettings;

/// The commands of a Belisarius desk.
#[derive(Debug, Clone, PartialEq)]
pub enum BelisariusCommand {
    /// Select a land zone, city or sea zone of the map (or nothing).
    SelectPlace(Option<Location>),
    /// Give an order to the rules, with its dice.
    Execute(Order, DiceInput),
    /// Write the pack of the battle sent to the tabletop with these choices: its rules and
    /// their options, paper and folder (BE-17).
    WritePack { settings: PackSettings },
}

impl BelisariusCommand {
    /// What the command does that only the referee may, in the hand-back screen's words.
    pub(crate) fn needs_referee(&self) -> Option<&'static str> {
        Some(match self {
            BelisariusCommand::WritePack { .. } => "the battle packs",
            BelisariusCommand::Execute(_, input) if !matches!(input, DiceInput::Seeded) => "typed-in dice",
            _ => return None,
        })
    }
}

/// Queues an order whose dice, if it has any, are drawn from the seed: into the window's
/// queue, whose commands are made from a desk's.
pub(crate) fn run<C: From<BelisariusCommand>>(commands: &mut Vec<C>, order: Order) {
    commands.push(BelisariusCommand::Execute(order, DiceInput::Seeded).into());
}
