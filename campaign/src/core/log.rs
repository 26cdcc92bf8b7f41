//! The log entries every campaign has, whatever its rules: the start, the referee's own roll
//! and note as orders, the dice rolled, the chits drawn from a cup and the notes written as
//! events.
//!
//! Each engine's `Order` and `Event` enums hold these as variants of their own
//! (`Order::RollDice(RollDice)`, `Event::DiceRolled(DiceRolled)`): the JSON of an order
//! or a stored event is the engine's enum's, tag and all, so the command line's words and
//! the campaigns already stored read and write exactly as before, while what an entry
//! means — the checks, the roll, who reads the line — is written here once.

use serde::{Deserialize, Serialize};

use super::dice::{Dice, DiceSpec, Draw, Modifier, Roll, RollSource};
use super::error::RuleError;
use super::rule::RuleId;
use super::verify::Drawn;
use super::viewer::{Viewer, Visibility};
use crate::ids::SideId;

/// The campaign began from a scenario (an engine's `Setup`), stored whole so that the
/// campaign replays the same way whatever later happens to the data files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignStarted<S> {
    pub name: String,
    pub scenario: Box<S>,
    /// Seed of the campaign's dice stream (and its cups); the referee's secret.
    pub seed: u64,
}

/// A side drew a chit blind from a cup. Only that side and the referee read which chit;
/// `kept` says the rules keep it aside and draw again (Belisarius's stratagem, BE-04).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChitDrawn {
    pub side: SideId,
    pub draw: Draw,
    #[serde(rename = "stratagem")]
    pub kept: bool,
}

impl ChitDrawn {
    /// What a replay of the seed checks: the draw, its side's to read.
    pub fn drawn(&self) -> (Drawn<'_>, Visibility) {
        (Drawn::Chit(&self.draw), Visibility::Side(self.side.clone()))
    }
}

/// The kind of an engine's event as the `kind` column of the store keeps it: the tag its
/// JSON carries, `"type"`, read back from the JSON the store is about to write, so that no
/// engine writes the list of its events' names a second time.
pub fn kind_of(body: &str) -> Result<String, serde_json::Error> {
    #[derive(Deserialize)]
    struct Tagged<'a> {
        #[serde(rename = "type", borrow)]
        kind: std::borrow::Cow<'a, str>,
    }
    Ok(serde_json::from_str::<Tagged<'_>>(body)?.kind.into_owned())
}

/// Roll dice for a purpose the referee names, logged like any roll the rules make:
/// seen by all, or kept to the side it is for, or to the referee alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollDice {
    pub dice: DiceSpec,
    pub purpose: String,
    /// The side the roll is for.
    #[serde(default)]
    pub side: Option<SideId>,
    /// Shown only to the referee (and to `side`, if given).
    #[serde(default)]
    pub hidden: bool,
    #[serde(default)]
    pub modifiers: Vec<Modifier>,
}

impl RollDice {
    /// Rolls, once the purpose is given and the side is one of the campaign's
    /// (`known_side` refuses it otherwise, in the engine's words).
    pub fn decide(&self, dice: &mut Dice, known_side: impl Fn(&SideId) -> Result<(), RuleError>) -> Result<DiceRolled, RuleError> {
        if self.purpose.trim().is_empty() {
            return Err(RuleError::new(RuleId::X_02, "every roll needs a purpose for the log"));
        }
        if let Some(s) = &self.side {
            known_side(s)?;
        }
        let (roll, visibility) =
            super::dice::referee_roll(dice, self.dice, &self.purpose, self.side.as_ref(), self.hidden, &self.modifiers)?;
        Ok(DiceRolled { roll, side: self.side.clone(), visibility })
    }
}

/// Write a note in the log that only the referee reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddNote {
    pub text: String,
}

impl AddNote {
    /// The note, trimmed; refused under `rule` when it has no text, or a control character
    /// other than a line break or a tab (it is printed in logs, reports and packs).
    pub fn decide(&self, rule: RuleId) -> Result<NoteAdded, RuleError> {
        if self.text.trim().is_empty() {
            return Err(RuleError::new(rule, "a note needs some text"));
        }
        if self.text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) {
            return Err(RuleError::new(rule, "a note is text: line breaks and tabs, but no other control characters"));
        }
        Ok(NoteAdded { text: self.text.trim().to_owned() })
    }
}

/// Give the campaign another name. The log keeps the name it began under, and says when it
/// changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenameCampaign {
    pub name: String,
}

/// The longest name a campaign may have, in characters: it heads every page and report.
pub const MAX_NAME: usize = 80;

/// A campaign's name as typed, trimmed; refused under X-03 when empty, longer than
/// [`MAX_NAME`], holding a line break or another control character (it heads a line of every
/// list and page), or digits alone (commands name a campaign by its number too).
pub fn campaign_name(name: &str) -> Result<&str, RuleError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(RuleError::new(RuleId::X_03, "a campaign needs a name"));
    }
    if name.chars().count() > MAX_NAME {
        return Err(RuleError::new(RuleId::X_03, format!("a campaign's name has at most {MAX_NAME} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(RuleError::new(RuleId::X_03, "a campaign's name is one line of text, without line breaks or control characters"));
    }
    if name.chars().all(|c| c.is_ascii_digit()) {
        return Err(RuleError::new(
            RuleId::X_03,
            format!("a campaign's name is more than a number: commands would read {name} as a campaign's id"),
        ));
    }
    Ok(name)
}

impl RenameCampaign {
    /// The new name, trimmed, for a campaign called `now`; refused under X-03 as
    /// [`campaign_name`] says, or when it is the name it has. That no other campaign of the
    /// file has it is the store's to check.
    pub fn decide(&self, now: &str) -> Result<CampaignRenamed, RuleError> {
        let name = campaign_name(&self.name)?;
        if name == now {
            return Err(RuleError::new(RuleId::X_03, format!("the campaign is called “{now}” already")));
        }
        Ok(CampaignRenamed { name: name.to_owned(), was: now.to_owned() })
    }
}

/// Lets an engine's `Order` take the referee's roll, note and new name for the campaign,
/// which it holds as its `RollDice`, `AddNote` and `RenameCampaign` variants: what
/// [`super::engine::Engine::Order`] asks of it.
macro_rules! referee_orders {
    ($order:ident) => {
        impl From<$crate::core::log::RollDice> for $order {
            fn from(roll: $crate::core::log::RollDice) -> $order {
                $order::RollDice(roll)
            }
        }

        impl From<$crate::core::log::AddNote> for $order {
            fn from(note: $crate::core::log::AddNote) -> $order {
                $order::AddNote(note)
            }
        }

        impl From<$crate::core::log::RenameCampaign> for $order {
            fn from(rename: $crate::core::log::RenameCampaign) -> $order {
                $order::RenameCampaign(rename)
            }
        }
    };
}
pub(crate) use referee_orders;

/// Lets an engine's `Event` hold the core's start, as its `CampaignStarted` variant, for a
/// campaign begun from `$setup`: what [`super::engine::Engine::Event`] asks of it.
macro_rules! started_from {
    ($event:ident, $setup:ty) => {
        impl From<$crate::core::log::CampaignStarted<$setup>> for $event {
            fn from(started: $crate::core::log::CampaignStarted<$setup>) -> $event {
                $event::CampaignStarted(started)
            }
        }
    };
}
pub(crate) use started_from;

/// Dice were rolled, by the generator or typed in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiceRolled {
    pub roll: Roll,
    /// The side the roll was made for, if any.
    pub side: Option<SideId>,
    pub visibility: Visibility,
}

impl DiceRolled {
    /// The log line `viewer` reads, or `None` if the roll is not theirs to see;
    /// `side_name` names a side as the campaign does.
    pub fn describe(&self, viewer: &Viewer, side_name: impl Fn(&SideId) -> String) -> Option<String> {
        if !self.visibility.shown_to(viewer) {
            return None;
        }
        let who = self.side.as_ref().map(|s| format!("{}: ", side_name(s))).unwrap_or_default();
        let rule = self.roll.rule.as_ref().map(|r| format!(" — {r}")).unwrap_or_default();
        let secret = if self.visibility == Visibility::Public { "" } else { " (secret)" };
        Some(format!("{who}{} for {}{secret}{rule}", self.roll.describe(), self.roll.purpose))
    }

    /// What a replay of the seed checks: the roll, and who may read it.
    pub fn drawn(&self) -> (Drawn<'_>, Visibility) {
        (Drawn::Roll(&self.roll), self.visibility.clone())
    }

    /// Counts the roll and, for a seeded one, moves the dice stream on past it.
    pub fn count<N: std::ops::AddAssign + From<u8>>(&self, rolls: &mut N, stream_pos: &mut u64) {
        *rolls += N::from(1);
        if let RollSource::Seeded { stream_pos: at } = self.roll.source {
            *stream_pos = at;
        }
    }
}

/// The referee wrote a note in the campaign's log; only the referee reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteAdded {
    pub text: String,
}

impl NoteAdded {
    /// The log line: the referee's alone.
    pub fn describe(&self, viewer: &Viewer) -> Option<String> {
        matches!(viewer, Viewer::Umpire).then(|| format!("Note: {}", self.text))
    }
}

/// The referee gave the campaign another name; everyone reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignRenamed {
    /// The name from now on.
    pub name: String,
    /// The name before.
    pub was: String,
}

impl CampaignRenamed {
    /// The log line, the same for every reader: the campaign's name is no secret.
    pub fn describe(&self) -> String {
        format!("The campaign “{}” is called “{}” from now on", self.was, self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(hidden: bool, side: Option<&str>) -> RollDice {
        RollDice {
            dice: DiceSpec { count: 2, sides: 6 },
            purpose: "weather".to_owned(),
            side: side.map(SideId::new),
            hidden,
            modifiers: Vec::new(),
        }
    }

    #[test]
    fn x_02_a_referee_roll_needs_a_purpose_and_a_known_side() {
        let mut dice = Dice::seeded(1, 0);
        let blank = RollDice { purpose: "  ".to_owned(), ..roll(false, None) };
        assert_eq!(blank.decide(&mut dice, |_| Ok(())).unwrap_err().rule, RuleId::X_02);
        let refused = roll(false, Some("nobody")).decide(&mut dice, |_| Err(RuleError::new(RuleId::X_01, "no such side")));
        assert_eq!(refused.unwrap_err().rule, RuleId::X_01);
    }

    #[test]
    fn x_02_a_hidden_roll_is_its_sides_and_the_referees_alone() {
        let mut dice = Dice::seeded(1, 0);
        let rolled = roll(true, Some("carthage")).decide(&mut dice, |_| Ok(())).unwrap();
        assert_eq!(rolled.visibility, Visibility::Side(SideId::new("carthage")));
        let name = |s: &SideId| s.as_str().to_uppercase();
        let line = rolled.describe(&Viewer::Umpire, name).unwrap();
        assert!(line.starts_with("CARTHAGE: 2d6") && line.contains("for weather (secret)"), "{line}");
        assert!(rolled.describe(&Viewer::Side(SideId::new("carthage")), name).is_some());
        assert_eq!(rolled.describe(&Viewer::Side(SideId::new("syracuse")), name), None);
        let public = roll(false, None).decide(&mut dice, |_| Ok(())).unwrap();
        assert_eq!(public.visibility, Visibility::Public);
        assert!(!public.describe(&Viewer::Side(SideId::new("syracuse")), name).unwrap().contains("secret"));
    }

    #[test]
    fn x_02_a_seeded_roll_moves_the_stream_on() {
        let mut dice = Dice::seeded(1, 0);
        let rolled = roll(false, None).decide(&mut dice, |_| Ok(())).unwrap();
        let (mut rolls, mut pos) = (0_u32, 0);
        rolled.count(&mut rolls, &mut pos);
        assert_eq!(rolls, 1);
        assert!(pos > 0 && matches!(rolled.roll.source, RollSource::Seeded { stream_pos } if stream_pos == pos), "{pos}");
    }

    #[test]
    fn x_03_a_note_is_trimmed_read_by_the_referee_alone_and_needs_text() {
        let note = AddNote { text: "  mind the river ".to_owned() }.decide(RuleId::X_03).unwrap();
        assert_eq!(note.describe(&Viewer::Umpire).as_deref(), Some("Note: mind the river"));
        assert_eq!(note.describe(&Viewer::Side(SideId::new("carthage"))), None);
        assert_eq!(AddNote { text: " ".to_owned() }.decide(RuleId::X_06).unwrap_err().rule, RuleId::X_06);
        assert!(AddNote { text: "two\nlines\tand a tab".to_owned() }.decide(RuleId::X_03).is_ok());
        let nul = AddNote { text: "a\u{0}b".to_owned() }.decide(RuleId::X_03).unwrap_err();
        assert!(nul.to_string().contains("no other control characters"), "{nul}");
    }
}
