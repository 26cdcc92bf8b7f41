//! What the window asks of the app, and what the app says back: the one vocabulary that
//! panels, the shell and both engines' desks share. Panels only push [`AppCommand`]s;
//! nothing else changes the campaign.
//!
//! The shell's own commands are listed here; an engine's commands come wrapped in
//! [`AppCommand::Desk`], and the shell hands them to the desk on screen without opening them.

use std::path::PathBuf;

use referee_campaign::core::dice::DiceSpec;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::SideId;
use referee_campaign::store::DiceInput;

use crate::gui::belisarius::command::BelisariusCommand;
use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::widgets::packs::PackSettings;

/// Everything the window can ask of the app.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    /// Open the campaign with this name (or id).
    OpenCampaign(String),
    /// Delete the campaign with this name from the file, with everything kept of it.
    DeleteCampaign(String),
    /// Gives the campaign `campaign` (a name or id) the name `name`, by an order of its log.
    RenameCampaign { campaign: String, name: String },
    /// Start a campaign from a scenario; `seed: None` draws a fresh one.
    CreateCampaign { scenario: String, name: String, seed: Option<u64> },
    /// Show or hide the campaign picker over the map.
    ShowPicker(bool),
    /// Look at the campaign as the umpire or as one side.
    SetViewer(Viewer),
    /// Hand the screen to a side, from the umpire's view: the first time in a file with no
    /// passphrase, the referee is offered one first. `None` closes the offer.
    HandOver(Option<SideId>),
    /// The referee handed the screen over without setting a passphrase: not offered again.
    DeclinePassphrase,
    /// Take back the last order.
    Undo,
    /// Give the last undone order again, with the dice it was given.
    Redo,
    /// Show the hand-back screen of a side's view (with why), or leave it and stay in the
    /// side's view (`None`).
    AskReferee(Option<String>),
    /// The referee takes the screen back from a side: the umpire's view, and then whatever
    /// waited for the referee. Refused without the passphrase, if one is set.
    HandBack { passphrase: String },
    /// Set or remove the hand-back passphrase of this database file (umpire only).
    SetPassphrase(Option<String>),
    /// Open or close the settings window (umpire only).
    ShowSettings(bool),
    /// Keep the log panel's height as the referee left it, for the next time.
    KeepLogHeight(f32),
    /// Show a folder (of packs or reports just written) in the desktop's file manager.
    OpenFolder(PathBuf),
    /// Open another database file (umpire only): its campaigns in the picker.
    OpenDatabase(PathBuf),
    /// Close the window.
    Quit,
    /// Open or close the Dice window: the commitment to the seed, its reveal and its check.
    ShowDice(bool),
    /// Open or close the Charts window, of the viewer on screen.
    ShowCharts(bool),
    /// Open or close the Turn reports window (umpire only, X-04).
    ShowReports(bool),
    /// Write every reader's turn report into this folder (umpire only, X-04).
    WriteReports { folder: String },
    /// Open or close the window that prints a past battle's pack again (umpire only, X-04,
    /// BE-17).
    ShowPastPacks(bool),
    /// Write battle `battle`'s pack as it went to the table, its result since entered
    /// (umpire only, X-04, BE-17).
    WritePastPack { battle: u32, settings: PackSettings },
    /// Reveal the campaign's seed to every side (umpire only, X-02).
    RevealSeed,
    /// Commit to the seed now, for a campaign begun before commitments (umpire only).
    CommitSeed,
    /// Check a seed against the commitment and replay the log's seeded rolls with it.
    VerifySeed(u64),
    /// The referee's own roll, from the shell's dice form: the open campaign's engine makes
    /// it its own order.
    RollDice { dice: DiceSpec, purpose: String, side: Option<SideId>, hidden: bool, input: DiceInput },
    /// Open or close the Play by e-mail window (umpire only, X-06).
    ShowMail(bool),
    /// Write side `side`'s packet into `folder` (umpire only, X-06).
    WritePacket { side: SideId, folder: String },
    /// Read a side's orders file and show what it would give (umpire only, X-06).
    ReadOrders(String),
    /// Take in the orders file read, all or nothing; `anyway` where the side's log has
    /// moved on since its packet (umpire only, X-06).
    TakeInOrders { anyway: bool },
    /// Open a side's packet in a player's desk of its own (a new window).
    OpenPacket(PathBuf),
    /// A command only one engine's desk takes: the desk on screen applies it, if it is of
    /// that engine.
    Desk(DeskCommand),
}

/// The commands of one engine, for its desk.
#[derive(Debug, Clone, PartialEq)]
pub enum DeskCommand {
    MagnaGraecia(MagnaGraeciaCommand),
    Belisarius(BelisariusCommand),
}

impl DeskCommand {
    /// Whether the command's dice are the players', typed in: a stored order uses them up.
    pub(crate) fn typed_dice(&self) -> bool {
        let input = match self {
            DeskCommand::MagnaGraecia(MagnaGraeciaCommand::Execute(_, input)) => input,
            DeskCommand::Belisarius(BelisariusCommand::Execute(_, input)) => input,
            _ => return false,
        };
        matches!(input, DiceInput::Manual(_))
    }

    /// What the command does that only the referee may, in the hand-back screen's words;
    /// `None` when a side may give it.
    pub(crate) fn needs_referee(&self) -> Option<&'static str> {
        match self {
            DeskCommand::MagnaGraecia(c) => c.needs_referee(),
            DeskCommand::Belisarius(c) => c.needs_referee(),
        }
    }
}

impl From<MagnaGraeciaCommand> for AppCommand {
    fn from(command: MagnaGraeciaCommand) -> AppCommand {
        AppCommand::Desk(DeskCommand::MagnaGraecia(command))
    }
}

impl From<BelisariusCommand> for AppCommand {
    fn from(command: BelisariusCommand) -> AppCommand {
        AppCommand::Desk(DeskCommand::Belisarius(command))
    }
}

/// What the referee reads after a command: a refusal in red, or a plain confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub is_error: bool,
}
