//! The campaign on screen, of either engine, and the small trait through which the shell
//! drives it.
//!
//! The shell (`app.rs`) owns what every campaign has: the store, the picker, the bar with
//! its menus and the view-as choice, the log with the dice form, undo, and the packs being
//! written. Each engine's desk owns the rest — its map, its panels, its dialogs and the
//! forms being filled in — and answers the shell through [`EngineDesk`]. The shell holds
//! one [`Desk`] and matches it exhaustively where it needs an engine's own commands.

use referee_campaign::CampaignId;
use referee_campaign::core::engine::{Engine, Logged};
use referee_campaign::core::verify::{Commitment, Verification};
use referee_campaign::ids::SideId;
use referee_campaign::store::{DiceInput, Store, StoreError, Undone};
use referee_campaign::{DiceSpec, Viewer};

use super::app::{AppCommand, Message};
use super::belisarius::BelisariusDesk;
use super::magna_graecia::MagnaGraeciaDesk;
use super::packs::PackJob;
use super::panels::{LogData, RollForm};

/// What came of a command a desk was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reply {
    /// Only the desk's own forms or selection changed; the last message stands.
    Nothing,
    /// Nothing changed, and the last message goes (a form opened or closed: it shows the
    /// refusals of its own orders, not older ones).
    Clear,
    /// The campaign changed (an order or an undo was stored): the shell refreshes its list
    /// of campaigns and shows this line, or clears the last one.
    Stored(Option<String>),
    /// Nothing changed, but the referee should read this.
    Info(String),
    /// Refused: nothing changed, for this reason.
    Refused(String),
}

/// The referee's roll from the shell's dice form, before an engine makes it its own order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RollRequest {
    pub dice: DiceSpec,
    pub purpose: String,
    pub side: Option<SideId>,
    pub hidden: bool,
}

/// What the shell lends a desk while it draws.
pub(crate) struct ShellUi<'a> {
    pub roll: &'a mut RollForm,
    pub message: Option<&'a Message>,
    /// The packs of every battle due, being written or just written.
    pub pack_job: Option<&'a PackJob>,
    pub queue: &'a mut Vec<AppCommand>,
}

/// One engine's part of the window (rerun's view classes are the model: the shell knows
/// the trait, each engine fills it in).
pub(crate) trait EngineDesk {
    /// The campaign's name, for the bar and the picker.
    fn campaign_name(&self) -> &str;

    /// The campaign's id in the store.
    fn campaign_id(&self) -> CampaignId;

    /// Who is looking.
    fn viewer(&self) -> &Viewer;

    /// The campaign turn under way, from 1.
    fn turn(&self) -> u32;

    /// Checks `seed` against the campaign's commitment and replays its seeded rolls.
    fn verify(&self, store: &Store, seed: u64) -> Result<Verification, StoreError>;

    /// Commits to the seed now, for a campaign begun before commitments were made.
    fn commit_seed(&self, store: &mut Store) -> Result<Commitment, StoreError>;

    /// The campaign's seed: the umpire's secret until it is revealed.
    fn seed(&self) -> u64;

    /// Every side a viewer may be, by id and name, in the campaign's order.
    fn sides(&self) -> Vec<(SideId, String)> {
        self.log().sides.into_iter().map(|(id, name)| (id.clone(), name.to_owned())).collect()
    }

    /// Looks at the campaign as `viewer`, forgetting every form and selection the new viewer
    /// may not see; a side the campaign does not have is refused.
    fn set_viewer(&mut self, viewer: Viewer) -> Result<(), String>;

    /// Makes the shell's roll this engine's own order and gives it to the rules.
    fn roll(&mut self, store: &mut Store, roll: RollRequest, input: DiceInput) -> Reply;

    /// The last order in the referee's words ("Leptines retreats to Petra"), as the umpire
    /// reads its events; `None` when only the campaign's start is left.
    fn last_order(&self) -> Option<String>;

    /// Takes back the last order and redraws.
    fn undo(&mut self, store: &mut Store) -> Result<Undone, String>;

    /// Gives an undone order again with its dice, and redraws.
    fn redo(&mut self, store: &mut Store, undone: &Undone) -> Reply;

    /// The next frame fits the map to the window.
    fn fit_map(&mut self);

    /// The log as the viewer may read it, and the sides for the dice form.
    fn log(&self) -> LogData<'_>;

    /// The Campaign menu's entries that only this engine has.
    fn campaign_menu_ui(&self, ui: &mut egui::Ui, queue: &mut Vec<AppCommand>);

    /// The middle of the bar: where the campaign stands and the buttons that move it on.
    fn status_ui(&mut self, ui: &mut egui::Ui, roll: &mut RollForm, queue: &mut Vec<AppCommand>);

    /// Everything under the bar but the log: the panel beside the map, the map, and the
    /// windows the rules call for.
    fn desk_ui(&mut self, ui: &mut egui::Ui, shell: &mut ShellUi<'_>);
}

/// The campaign on screen: a Magna Graecia or a Belisarius desk. Boxed, so that switching
/// costs a pointer.
#[derive(Debug)]
pub(crate) enum Desk {
    MagnaGraecia(Box<MagnaGraeciaDesk>),
    Belisarius(Box<BelisariusDesk>),
}

impl Desk {
    pub fn get(&self) -> &dyn EngineDesk {
        match self {
            Desk::MagnaGraecia(d) => d.as_ref(),
            Desk::Belisarius(d) => d.as_ref(),
        }
    }

    pub fn get_mut(&mut self) -> &mut dyn EngineDesk {
        match self {
            Desk::MagnaGraecia(d) => d.as_mut(),
            Desk::Belisarius(d) => d.as_mut(),
        }
    }
}

impl From<MagnaGraeciaDesk> for Desk {
    fn from(desk: MagnaGraeciaDesk) -> Desk {
        Desk::MagnaGraecia(Box::new(desk))
    }
}

impl From<BelisariusDesk> for Desk {
    fn from(desk: BelisariusDesk) -> Desk {
        Desk::Belisarius(Box::new(desk))
    }
}

/// The Magna Graecia desk on screen, if that is what is open.
pub(crate) fn mg(desk: &Option<Desk>) -> Option<&MagnaGraeciaDesk> {
    match desk {
        Some(Desk::MagnaGraecia(d)) => Some(d),
        _ => None,
    }
}

pub(crate) fn mg_mut(desk: &mut Option<Desk>) -> Option<&mut MagnaGraeciaDesk> {
    match desk {
        Some(Desk::MagnaGraecia(d)) => Some(d),
        _ => None,
    }
}

/// The Belisarius desk on screen, if that is what is open.
pub(crate) fn be(desk: &Option<Desk>) -> Option<&BelisariusDesk> {
    match desk {
        Some(Desk::Belisarius(d)) => Some(d),
        _ => None,
    }
}

pub(crate) fn be_mut(desk: &mut Option<Desk>) -> Option<&mut BelisariusDesk> {
    match desk {
        Some(Desk::Belisarius(d)) => Some(d),
        _ => None,
    }
}

/// The events of the last order as the umpire reads them, in one line short enough for a
/// menu; `None` when the last order is the campaign's start.
pub(crate) fn last_order_text<E: Engine>(state: &E::State, context: &E::Context, events: &[Logged<E::Event>]) -> Option<String> {
    let last = events.last()?.command_seq;
    if last <= 1 {
        return None;
    }
    let first = events.iter().rposition(|e| e.command_seq != last).map_or(0, |i| i + 1);
    let lines: Vec<String> = events[first..].iter().filter_map(|e| E::describe(state, context, &e.event, &Viewer::Umpire)).collect();
    let text = if lines.is_empty() { "the last order".to_owned() } else { lines.join("; ") };
    Some(shorten(&text, 90))
}

/// `text` cut to at most `max` characters, with an ellipsis where it was cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_owned(),
    }
}

/// `text` as the referee reads it: the rulebook's rule IDs (MG-15, BE-13) stay, the program's
/// own requirement IDs go, with the dash or brackets that carried them.
pub(crate) fn for_referee(text: &str) -> String {
    let bytes = text.as_bytes();
    let is_id = |at: usize| {
        bytes.get(at) == Some(&b'X')
            && bytes.get(at + 1) == Some(&b'-')
            && bytes.get(at + 2).is_some_and(u8::is_ascii_digit)
            && bytes.get(at + 3).is_some_and(u8::is_ascii_digit)
            && !bytes.get(at + 4).is_some_and(u8::is_ascii_alphanumeric)
            && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if !is_id(i) {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let mut end = i + 4;
        // "(MG-15, X-02)": the comma before goes; "(X-02, MG-15)": the one after.
        if out.ends_with(", ") {
            out.truncate(out.len() - 2);
        } else if text[end..].starts_with(", ") {
            end += 2;
        } else if out.ends_with(" — ") {
            out.truncate(out.len() - " — ".len());
        } else if out.ends_with(" (") && text[end..].starts_with(')') {
            out.truncate(out.len() - 2);
            end += 1;
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::for_referee;

    #[test]
    fn internal_ids_go_and_rule_ids_stay() {
        assert_eq!(for_referee("every roll needs a purpose for the log — X-02"), "every roll needs a purpose for the log");
        assert_eq!(for_referee("packs are written by the umpire (X-04)."), "packs are written by the umpire.");
        assert_eq!(for_referee("retreat refused (MG-15, X-02)"), "retreat refused (MG-15)");
        assert_eq!(for_referee("retreat refused (X-02, MG-15)"), "retreat refused (MG-15)");
        assert_eq!(for_referee("Entella joins Carthage — MG-06"), "Entella joins Carthage — MG-06");
        assert_eq!(for_referee("BOX-12 and X-1 and X-123 stay"), "BOX-12 and X-1 and X-123 stay");
        assert_eq!(for_referee("d6 = 4 — X-02; then Syracuse"), "d6 = 4; then Syracuse");
    }
}
