//! What only a Magna Graecia campaign is asked: its map's selection, its orders, its
//! rosters, its dialogs and its battle packs. The shell passes these on to the desk unread.

use std::path::PathBuf;

use referee_campaign::ids::{NodeId, SideId};
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::store::DiceInput;

use crate::gui::widgets::packs::PackSettings;

/// The commands of a Magna Graecia desk.
#[derive(Debug, Clone, PartialEq)]
pub enum MagnaGraeciaCommand {
    /// Select a node of the map (or nothing). A picked counter elsewhere is let go.
    Select(Option<NodeId>),
    /// Pick out one of the viewer's own counters to move (or let it go); its node is
    /// selected with it.
    SelectCounter(Option<CounterRef>),
    /// Give a command to the rules, with its dice.
    Execute(Order, DiceInput),
    /// Open the roster editor on a working copy of this side's army (setup only, MG-03), or
    /// close it and drop the copy.
    EditRoster(Option<SideId>),
    /// Open a dialog over the map (a battle's result form, an exchange, the garrison), or
    /// close the open one and drop its entries.
    OpenDialog(Option<Dialog>),
    /// Draw the campaign's dice seed in the umpire's Forces panel, or hide it again (umpire
    /// only); it is hidden again whenever the campaign or the view changes.
    ShowSeed(bool),
    /// Fold the map's legend away to its title, or open it; kept in the database file, so
    /// the legend stays as the referee left it the next time.
    FoldLegend(bool),
    /// Write a side's roster as JSON, for another campaign or another referee.
    ExportRoster { side: SideId, path: PathBuf },
    /// Read a roster written by Export as this side's army (setup only, MG-03).
    ImportRoster { side: SideId, path: PathBuf },
    /// Write one battle's pack into the settings' folder (umpire only, X-04); the open pack
    /// window lists the files or the reason they could not be written.
    WritePack { battle: u32, settings: PackSettings },
    /// Write the pack of every battle due on a background thread (umpire only, X-04).
    WriteAllPacks { settings: PackSettings },
    /// Stop the packs of every battle after the battle being written; once they are written,
    /// forget the list.
    StopPacks,
}

/// Queues an order whose dice, if it has any, are drawn from the seed: into the window's
/// queue, whose commands are made from a desk's.
pub(crate) fn run<C: From<MagnaGraeciaCommand>>(commands: &mut Vec<C>, order: Order) {
    commands.push(MagnaGraeciaCommand::Execute(order, DiceInput::Seeded).into());
}

impl MagnaGraeciaCommand {
    /// What the command does that only the referee may, in the hand-back screen's words.
    pub(crate) fn needs_referee(&self) -> Option<&'static str> {
        Some(match self {
            MagnaGraeciaCommand::ShowSeed(true) => "the dice seed",
            MagnaGraeciaCommand::WritePack { .. } | MagnaGraeciaCommand::WriteAllPacks { .. } => "the battle packs",
            MagnaGraeciaCommand::Execute(_, input) if !matches!(input, DiceInput::Seeded) => "typed-in dice",
            _ => return None,
        })
    }
}

/// One counter on the map, by side and name (a command's name, or `fleet`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterRef {
    pub side: SideId,
    pub name: String,
}

/// A dialog the referee may open over the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    /// The result form of this battle (umpire only).
    BattleResult(u32),
    /// Hand elements from this command to another in its node (MG-14).
    Exchange(CounterRef),
    /// Move elements between this command and its capital's garrison (MG-04).
    Garrison(CounterRef),
    /// End the campaign early, as the sides agree (umpire only, MG-32).
    EndCampaign,
    /// Set the table of this battle and roll its weather (umpire only, MG-21, MG-22).
    SetTable(u32),
    /// Write the battle pack of this battle, or of every battle due (umpire only, X-04).
    BattlePack(Option<u32>),
}
