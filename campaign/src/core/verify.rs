//! Dice the players can verify. When a campaign starts, the store publishes a
//! commitment to its secret seed: the SHA-256 of the seed with a random salt, so that the
//! digest gives nothing away even of a small seed. When the referee reveals the seed and salt
//! — at the end, or whenever the referee chooses — anyone can check the commitment and
//! replay every seeded roll and chit draw of the log from the seed, one after the other along
//! the one stream they all came from. Typed-in rolls came from physical dice and are not part
//! of the check.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt as _, SeedableRng as _};
use serde::Serialize;
use sha2::{Digest as _, Sha256};

use super::dice::{Draw, Roll, RollSource};
use super::engine::{Engine, Logged};
use super::view::Numbering;
use super::viewer::Viewer;

/// A campaign's published commitment to its seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Commitment {
    /// 32 hexadecimal digits, drawn at random when the commitment is made; secret until the
    /// seed is revealed.
    #[serde(skip)]
    pub salt: String,
    /// The SHA-256, in hexadecimal, of `referee-seed:<salt>:<seed>`: public from the start.
    pub digest: String,
    /// The first event the commitment covers: 1 for a campaign that had it from its start;
    /// later for one begun before commitments were made.
    pub from_event: u64,
    /// When the seed was revealed (RFC 3339), if it has been.
    pub revealed_at: Option<String>,
}

impl Commitment {
    /// The digest of `seed` with `salt`.
    pub fn digest_of(seed: u64, salt: &str) -> String {
        sha256_hex(&format!("referee-seed:{salt}:{seed}"))
    }

    /// Whether `seed` is the seed committed to.
    pub fn opens_with(&self, seed: u64) -> bool {
        Commitment::digest_of(seed, &self.salt) == self.digest
    }

    /// The first 16 digits, in groups of four, as printed for the players.
    pub fn short(&self) -> String {
        let digits: Vec<&str> = (0..4).filter_map(|i| self.digest.get(i * 4..i * 4 + 4)).collect();
        digits.join(" ")
    }
}

/// A fresh random salt: 32 hexadecimal digits.
pub fn fresh_salt() -> String {
    let mut rng = rand::rng();
    format!("{:032x}", rng.random::<u128>())
}

/// The SHA-256 of `text`, in lower-case hexadecimal: the commitment to a seed, and the
/// referee's sealed passphrase.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// One roll or chit draw of the log, as an engine's event holds it.
#[derive(Debug, Clone, Copy)]
pub enum Drawn<'a> {
    Roll(&'a Roll),
    Chit(&'a Draw),
}

impl Drawn<'_> {
    fn source(&self) -> RollSource {
        match self {
            Drawn::Roll(r) => r.source,
            Drawn::Chit(d) => d.source,
        }
    }

    fn purpose(&self) -> &str {
        match self {
            Drawn::Roll(r) => &r.purpose,
            Drawn::Chit(d) => &d.purpose,
        }
    }

    fn logged(&self) -> String {
        match self {
            Drawn::Roll(r) => r.values.iter().map(u8::to_string).collect::<Vec<_>>().join("+"),
            Drawn::Chit(d) => format!("chit {} of {}", d.chit, d.out_of),
        }
    }
}

/// What the replay found for one roll or draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The seed gives exactly what the log says.
    Matches,
    /// The seed gives something else: this roll was not the seeded dice's.
    Differs,
    /// Typed in from physical dice or a real cup: not part of the check.
    TypedIn,
    /// Rolled before the commitment was made: the seed was already known to the referee.
    BeforeCommitment,
}

/// One roll or draw checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// The event that holds it — for a side, the line of its own log — or `None` for a roll
    /// the reader does not see.
    pub event: Option<u64>,
    /// What it was for; empty for a roll the reader does not see.
    pub purpose: String,
    /// What the log says: the dice's values, or the chit drawn; empty for a roll the reader
    /// does not see.
    pub logged: String,
    /// What the seed gives, for a seeded roll the reader sees.
    pub replayed: Option<String>,
    pub verdict: Verdict,
    /// Where in the dice stream a seeded roll was made: from the word it started at to the
    /// word it ended at. The one thing a side reads of another's seeded roll, so that the
    /// stream it shares with its own rolls can still be checked whole.
    pub stream: Option<(u64, u64)>,
}

impl Check {
    /// Whether the reader sees what the roll was.
    pub fn seen(&self) -> bool {
        self.event.is_some()
    }
}

/// The whole check of a campaign against a seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verification {
    /// Whether the seed opens the commitment.
    pub commitment_opens: bool,
    pub checks: Vec<Check>,
}

impl Verification {
    /// Whether everything checked matched: the commitment and every seeded roll after it.
    pub fn holds(&self) -> bool {
        self.commitment_opens && self.checks.iter().all(|c| c.verdict != Verdict::Differs)
    }

    /// How many rolls and draws had each verdict: matches, differs, typed in, before.
    pub fn counts(&self) -> [usize; 4] {
        let n = |v: Verdict| self.checks.iter().filter(|c| c.verdict == v).count();
        [n(Verdict::Matches), n(Verdict::Differs), n(Verdict::TypedIn), n(Verdict::BeforeCommitment)]
    }

    /// One sentence for the referee and the players.
    pub fn summary(&self) -> String {
        let [matches, differs, typed, before] = self.counts();
        let mut s = if self.commitment_opens {
            "The seed opens the commitment published at the start".to_owned()
        } else {
            "The seed does NOT open the commitment published at the start".to_owned()
        };
        s.push_str(&format!("; seeded rolls and draws that match the log: {matches}"));
        if differs > 0 {
            s.push_str(&format!("; that do NOT: {differs}"));
        }
        if typed > 0 {
            s.push_str(&format!("; typed in from physical dice or a real cup, not checked: {typed}"));
        }
        if before > 0 {
            s.push_str(&format!("; made before the commitment, not checked: {before}"));
        }
        s.push('.');
        s
    }
}

/// Replays every seeded roll and chit draw of `events` from `seed`, in the order they were
/// made, and compares each with the log. The stream runs on from one seeded roll to the next:
/// each starts where the last one logged ended. The referee's check: every roll, numbered by
/// its event.
pub fn verify<E: Engine>(seed: u64, commitment: &Commitment, events: &[Logged<E::Event>]) -> Verification {
    verify_as::<E>(seed, commitment, events, &Viewer::Umpire, |l| Some(l.seq))
}

/// [`verify`] as `viewer` makes it: its own rolls and the public ones with their purposes,
/// numbered by `line` (the line of the viewer's own log that holds the event); every other
/// seeded roll only as the stretch of the stream it took, checked all the same, so that the
/// stream is checked whole and nothing of another's roll is told; another's typed-in roll
/// not at all.
pub fn verify_as<E: Engine>(
    seed: u64,
    commitment: &Commitment,
    events: &[Logged<E::Event>],
    viewer: &Viewer,
    line: impl Fn(&Logged<E::Event>) -> Option<u64>,
) -> Verification {
    let mut checks = Vec::new();
    let mut position = 0u64;
    for logged in events {
        for (drawn, visibility) in E::draws(&logged.event) {
            let seen = visibility.shown_to(viewer);
            let (purpose, shown) = if seen { (drawn.purpose().to_owned(), drawn.logged()) } else { (String::new(), String::new()) };
            let event = if seen { line(logged) } else { None };
            let RollSource::Seeded { stream_pos: end } = drawn.source() else {
                if seen {
                    checks.push(Check { event, purpose, logged: shown, replayed: None, verdict: Verdict::TypedIn, stream: None });
                }
                continue;
            };
            let (replayed, same) = replay(seed, position, drawn);
            let verdict = if logged.seq < commitment.from_event {
                Verdict::BeforeCommitment
            } else if same {
                Verdict::Matches
            } else {
                Verdict::Differs
            };
            let replayed = seen.then_some(replayed);
            checks.push(Check { event, purpose, logged: shown, replayed, verdict, stream: Some((position, end)) });
            // The next seeded roll starts where this one was logged to end.
            position = end;
        }
    }
    Verification { commitment_opens: commitment.opens_with(seed), checks }
}

/// The line of `viewer`'s own log that each event it reads is on, by the event's number:
/// what the check of the rolls numbers a side's own rolls by, so that the numbers say no more
/// than the side's log does. The lines are numbered as the viewer's log numbers them
/// ([`Numbering::by_event`]).
pub fn log_lines<E: Engine>(
    state: &E::State,
    context: &E::Context,
    events: &[Logged<E::Event>],
    viewer: &Viewer,
) -> std::collections::BTreeMap<u64, u64> {
    let read = events.iter().filter(|l| E::describe(state, context, &l.event, viewer).is_some());
    if Numbering::by_event::<E>(viewer) {
        read.map(|l| (l.seq, l.seq)).collect()
    } else {
        read.zip(1..).map(|(l, line)| (l.seq, line)).collect()
    }
}

/// What the seed gives for one seeded roll or draw made `position` words into the stream, and
/// whether it is what the log says, up to where the log says the stream then stood.
fn replay(seed: u64, position: u64, drawn: Drawn<'_>) -> (String, bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_word_pos(u128::from(position));
    let (replayed, same) = match drawn {
        Drawn::Roll(roll) => {
            let values: Vec<u8> = (0..roll.dice.count).map(|_| rng.random_range(1..=roll.dice.sides)).collect();
            let text = values.iter().map(u8::to_string).collect::<Vec<_>>().join("+");
            (text, values == roll.values)
        }
        Drawn::Chit(draw) => {
            let index = rng.random_range(0..draw.out_of.max(1));
            (format!("chit number {} of {}", index + 1, draw.out_of), index == draw.index)
        }
    };
    let reached = u64::try_from(rng.get_word_pos()).unwrap_or(u64::MAX);
    (replayed, same && drawn.source() == RollSource::Seeded { stream_pos: reached })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commitment_opens_with_its_seed_only_and_hides_a_small_one() {
        let salt = "00112233445566778899aabbccddeeff".to_owned();
        let c = Commitment { digest: Commitment::digest_of(7, &salt), salt, from_event: 1, revealed_at: None };
        assert!(c.opens_with(7));
        assert!(!c.opens_with(8));
        assert_eq!(c.digest.len(), 64);
        // Without the salt, trying the small seeds finds nothing.
        assert!((0..10_000u64).all(|s| Commitment::digest_of(s, "") != c.digest));
        assert_eq!(c.short().len(), 19);
        assert_ne!(fresh_salt(), fresh_salt());
    }

    /// a chit drawn from the seeded stream replays to the same place in the cup; one
    /// the log claims was another chit does not.
    #[test]
    fn x_02_a_seeded_chit_draw_replays_from_the_seed() {
        use crate::core::dice::{Cup, Dice};
        let cup = Cup::new("byzantine AP", ["4", "5", "6", "6", "7", "8"].map(String::from));
        let mut dice = Dice::seeded(99, 12);
        let draw = dice.draw(&cup, "action points", None).unwrap();
        let (_, same) = replay(99, 12, Drawn::Chit(&draw));
        assert!(same);
        let (_, other_seed) = replay(98, 12, Drawn::Chit(&draw));
        let (_, other_place) = replay(99, 13, Drawn::Chit(&draw));
        assert!(!(other_seed && other_place), "a different seed or place in the stream does not give the same draw");
        let claimed = Draw { index: (draw.index + 1) % 6, ..draw.clone() };
        assert!(!replay(99, 12, Drawn::Chit(&claimed)).1, "the log claims another chit");
    }
}
