//! What the command line prints that is the same for every engine — a campaign made, the
//! campaigns listed, an order's events, a log, a seed, files written — each as text for a
//! referee and as JSON for a script (`--json`).

use referee_battle_gen::pack::{Reader, WrittenFile};
use referee_campaign::core::engine::EngineId;
use referee_campaign::core::verify::{Commitment, Verdict, Verification};
use referee_campaign::core::viewer::LogLine;
use referee_campaign::core::words::count;
use serde::Serialize;

/// Something printed as text or as JSON.
pub(crate) trait Output: Serialize {
    fn text(&self) -> String;
}

/// What an order did, of either engine: its events, and the log lines the umpire reads for
/// them.
#[derive(Serialize)]
pub(crate) struct Executed<E> {
    pub(crate) events: Vec<E>,
    pub(crate) lines: Vec<String>,
}

impl<E: Serialize> Output for Executed<E> {
    fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// What a side's orders did, as the side reads it: no events, whose fields are the
/// referee's, only the side's own lines.
#[derive(Serialize)]
pub(crate) struct SideRead {
    pub(crate) lines: Vec<String>,
}

impl Output for SideRead {
    fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// One line of `referee scenarios`.
#[derive(Serialize)]
pub(crate) struct ScenarioSummary {
    pub(crate) campaign: EngineId,
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) period: String,
    pub(crate) turns: u32,
    pub(crate) sides: Vec<String>,
}

/// Every scenario of every campaign, Magna Graecia's first.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct AllScenarios(pub(crate) Vec<ScenarioSummary>);

impl Output for AllScenarios {
    fn text(&self) -> String {
        let mut s = String::new();
        for sc in &self.0 {
            s.push_str(&format!(
                "{:<14} {:<13} {} ({}, {} turns): {}\n",
                sc.campaign.title(),
                sc.id,
                sc.name,
                sc.period,
                sc.turns,
                sc.sides.join(", ")
            ));
        }
        s
    }
}

/// Lets `print` take any output by reference.
pub(crate) trait ErasedOutput {
    fn json(&self) -> String;
    fn text(&self) -> String;
}

impl<T: Output> ErasedOutput for T {
    fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
    fn text(&self) -> String {
        Output::text(self)
    }
}

/// A campaign started or imported.
#[derive(Serialize)]
pub(crate) struct Created {
    pub(crate) id: i64,
    pub(crate) name: String,
    pub(crate) scenario: String,
}

impl Output for Created {
    fn text(&self) -> String {
        format!("Started campaign “{}” (id {}) from {}.", self.name, self.id, self.scenario)
    }
}

#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct CampaignList(pub(crate) Vec<referee_campaign::store::CampaignSummary>);

impl Output for CampaignList {
    fn text(&self) -> String {
        if self.0.is_empty() {
            return "No campaigns yet; start one with `referee new <scenario>`.".to_owned();
        }
        self.0.iter().map(|c| format!("{:>3}  {:<28} {:<13} {}\n", c.id, c.name, c.scenario, count(c.commands, "command"))).collect()
    }
}

impl Output for referee_campaign::store::Undone {
    fn text(&self) -> String {
        // The command by what it did: its number in the store is no number the referee reads.
        format!("Undid “{}” ({} removed).", self.summary, count(self.events, "event"))
    }
}

/// A campaign's dice seed, for the umpire.
#[derive(Serialize)]
pub(crate) struct Seed {
    pub(crate) campaign: String,
    pub(crate) seed: u64,
}

/// A seed revealed: the seed, the salt, and the commitment they open.
#[derive(Serialize)]
pub(crate) struct Revealed {
    campaign: String,
    seed: u64,
    salt: String,
    #[serde(flatten)]
    commitment: Commitment,
}

impl Revealed {
    pub(crate) fn new(campaign: String, seed: u64, commitment: Commitment) -> Revealed {
        Revealed { campaign, seed, salt: commitment.salt.clone(), commitment }
    }
}

impl Output for Revealed {
    fn text(&self) -> String {
        format!(
            "The dice seed of “{}” is revealed: seed {}, salt {}.\nThey open the commitment published when it began, {}; anyone may now check every roll with `referee verify \"{}\" --seed {}`.",
            self.campaign, self.seed, self.salt, self.commitment.digest, self.campaign, self.seed
        )
    }
}

/// A seed checked against the log.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct Verified(pub(crate) Verification);

impl Output for Verified {
    fn text(&self) -> String {
        let mut s = String::new();
        for c in &self.0.checks {
            let what = match c.verdict {
                Verdict::Matches => "matches",
                Verdict::Differs => "DIFFERS",
                Verdict::TypedIn => "typed in, not checked",
                Verdict::BeforeCommitment => "before the commitment, not checked",
            };
            let replayed =
                c.replayed.as_ref().filter(|_| c.verdict == Verdict::Differs).map(|r| format!(" (the seed gives {r})")).unwrap_or_default();
            match (c.event, c.stream) {
                (Some(line), _) => s.push_str(&format!("{line:>5}  {}: {} — {what}{replayed}\n", c.purpose, c.logged)),
                (None, Some((from, to))) => {
                    s.push_str(&format!("    —  a roll this side does not see, dice stream {from}–{to} — {what}\n"));
                }
                (None, None) => {}
            }
        }
        s.push_str(&self.0.summary());
        s
    }
}

impl Output for Seed {
    fn text(&self) -> String {
        format!("The dice seed of “{}” is {}. Keep it from the players until the campaign ends.", self.campaign, self.seed)
    }
}
/// A view printed as its log alone; its JSON is the whole view, as the reader may see it.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct LogOnly<'a, V> {
    pub(crate) view: &'a V,
    #[serde(skip)]
    pub(crate) log: &'a [LogLine],
}

impl<V: Serialize> Output for LogOnly<'_, V> {
    fn text(&self) -> String {
        log_text(self.log)
    }
}

/// A log as `referee log` prints it: each line with its number in the reader's sequence.
fn log_text(lines: &[LogLine]) -> String {
    lines.iter().map(|l| format!("{:>5}  {}\n", l.seq, l.text)).collect()
}

/// The files a pack or a report wrote, and who reads each.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct Written(pub(crate) Vec<WrittenFile>);

impl Output for Written {
    fn text(&self) -> String {
        self.0
            .iter()
            .map(|f| {
                let who = match &f.reader {
                    Reader::Umpire => "umpire".to_owned(),
                    Reader::Side(s) => s.to_string(),
                    Reader::Everyone => "everyone".to_owned(),
                };
                let warning = f.glyph_warning().map_or_else(String::new, |w| format!("         warning: {w}\n"));
                format!("{:<8} {} ({}, {} KB)\n{warning}", who, f.path.display(), count(f.pages, "page"), f.bytes.div_ceil(1024))
            })
            .collect()
    }
}

/// A side's packet written.
#[derive(Serialize)]
#[serde(transparent)]
pub(crate) struct PacketMade(pub(crate) crate::packet::Made);

impl Output for PacketMade {
    fn text(&self) -> String {
        let m = &self.0;
        format!(
            "Wrote {} ({} bytes): {} packet of {}, {}; its player opens it with `referee --packet {}`",
            m.path.display(),
            m.bytes,
            referee_campaign::core::words::possessive(&m.header.side_name),
            m.header.name,
            m.header.standing,
            m.path.display()
        )
    }
}

/// An order the rules expect now: whose, what, and orders to edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Next {
    /// "Carthage", "The referee".
    pub(crate) who: String,
    pub(crate) what: String,
    /// Orders in the command line's JSON, ready to edit.
    pub(crate) orders: Vec<String>,
}

/// The **Next:** that ends `show`'s text: what the rules expect now, with orders to edit.
pub(crate) fn next_text(next: &[Next]) -> String {
    if next.is_empty() {
        return String::new();
    }
    let mut s = String::from("\nNext:\n");
    for n in next {
        s.push_str(&format!("  {} {}\n", n.who, n.what));
        for order in &n.orders {
            s.push_str(&format!("    {order}\n"));
        }
    }
    s
}
