//! What only a Belisarius campaign is asked: its map's selection, its orders and the pack of
//! its battle. The shell passes these on to the desk unread.

use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, State};
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

/// The rules asked about a Belisarius order before its button is drawn (see
/// [`crate::gui::engine::Legal`]): in the umpire's view only, since whether an order is legal
/// may hang on what a side does not know (BE-53).
pub(crate) type Legal<'a> = crate::gui::engine::Legal<'a, Belisarius>;

impl<'a> Legal<'a> {
    /// Checked on the campaign when the umpire looks (`umpire` is its state), unchecked for a
    /// side.
    pub(crate) fn of(umpire: Option<&'a State>) -> Self {
        umpire.map_or(Legal::UNCHECKED, |state| Legal::checked(state, &()))
    }

    /// The button of `order`: live if the rules would take it, greyed out with their reason
    /// if not; clicked, it queues the order with seeded dice. `hover` says what it does.
    pub(crate) fn order<C: From<BelisariusCommand>>(
        self,
        ui: &mut egui::Ui,
        button: egui::Button<'_>,
        hover: &str,
        order: Order,
        commands: &mut Vec<C>,
    ) -> egui::Response {
        self.give(ui, Ok(()), button, hover, order, |order| run(commands, order))
    }
}
