//! What only a Belisarius campaign is asked: its map's selection, its orders and the pack of
//! its battle. The shell passes these on to the desk unread.

use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::{Location, State};
use referee_campaign::core::dice::Dice;
use referee_campaign::core::engine::Engine as _;
use referee_campaign::store::DiceInput;

use crate::gui::widgets::words::for_referee;

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

/// Whether the rules would take an order now, asked without storing anything, as the Magna
/// Graecia desk asks them. In the umpire's view a button whose order the rules would refuse
/// is greyed out with their reason on hover; in a side's view every button stays live and the
/// rules answer after the click, since whether an order is legal may hang on what the side
/// does not know, and a greyed-out button would tell it (BE-53).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Legal<'a>(pub Option<&'a State>);

impl Legal<'_> {
    /// Why the rules would refuse `order` now, if they would; always `Ok` in a side's view.
    pub(crate) fn check(self, order: &Order) -> Result<(), String> {
        let Some(state) = self.0 else { return Ok(()) };
        let mut dice = Dice::seeded(state.seed, state.stream_pos);
        Belisarius::decide(state, &(), order, &mut dice).map(|_| ()).map_err(|e| for_referee(&e.to_string()))
    }

    /// The button of `order`: live if the rules would take it, greyed out with their reason
    /// if not; clicked, it queues the order with seeded dice. `hover` says what it does.
    pub(crate) fn button<C: From<BelisariusCommand>>(
        self,
        ui: &mut egui::Ui,
        button: egui::Button<'_>,
        hover: &str,
        order: Order,
        commands: &mut Vec<C>,
    ) -> egui::Response {
        let verdict = self.check(&order);
        let mut response = ui.add_enabled(verdict.is_ok(), button);
        if !hover.is_empty() {
            response = response.on_hover_text(hover);
        }
        if let Err(why) = verdict {
            response = response.on_disabled_hover_text(why);
        }
        if response.clicked() {
            run(commands, order);
        }
        response
    }
}
