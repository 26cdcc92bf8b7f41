//! Validated Belisarius scenarios (BE-49 to BE-52): dates, sides, commanders-in-chief and
//! their succession, set-up lines, stratagems, control, special rules, random events, victory
//! conditions and the Byzantine reinforcement schedule.
//!
//! Readings of the set-up text that the data files follow:
//! - a line such as "2 fleets (15 NPs)" gives the naval points of all the fleets together;
//!   they are split as evenly as possible, the larger fleets first (15 → 8 + 7);
//! - a scenario's zone counts for victory are totals anywhere on the map, unless the condition
//!   names regions;
//! - a side with no victory condition of its own wins when the other side fails its own;
//! - units the Goths list without a heading are heavy cavalry when rated A or B without a
//!   bow (`1A`, `2B`, `1B`: the noble lancers), infantry when rated C (`2C`, `4C`: spearmen)
//!   and skirmishing infantry when bracketed (`[2]*D`: foot archers); the Vandals' `2B` are
//!   heavy cavalry and their `4C` infantry; the Franks' `4C` are the medium infantry of
//!   event G, put on a line of their own beside the Goths so they can leave after four turns.
//!   No set-up lists medium cavalry;
//! - zones controlled at the start follow each scenario's text; the Empire also holds
//!   Praevalitana in the Italian scenarios (Mundus starts there, and Byzantine supply runs to
//!   it), and Africa from 535 on (won in 534: without it the 35 zones of the last scenario
//!   could not be reached); the Frankish Alpes Maritimae belong to nobody;
//! - cities held at the start are listed apart from the zones (`holds`), and a side holds the
//!   cities of the regions the text says it controls: a landing gives a zone but not the
//!   enemy's city in it, so Hadrumetum in the Byzantines' landing zone of 533 stays Vandal
//!   (it is one of the three cities they must take). In 535 Pola goes to the Goths with
//!   Italy (it is on the Byzantines' list to take) and "parts of Sicily" is every Sicilian
//!   city but Syracuse; in 551 "Ravenna" is the city with its zone, Flaminia. Scodra and the
//!   African cities are the Empire's from 535 on, as their zones are; Cemenelum, and in 533
//!   every city outside Africa, Sardinia and Corsica, are held by nobody;
//! - where a fleet's place is not given, it is set up in any sea zone.
//!
//! The rules text as we have it was scanned; these misreadings are corrected in the data
//! files: `Qc)` is `(2C)`, `l*C`, `l*A`, `l*B`, `lx` read `1*C`, `1*A`, `1*B`, `1x`; Ticmum is
//! Ticinum, Panomrus Panormus, Praevatilana Praevalitana, Ikliger Ildiger, Bélsaire
//! Belisarius, Aligem Aligern, Gibarner Gibamund, and "treason"/"Trahison"/"Treson" are the
//! treachery stratagem. Victiger, a name history does not know, is kept as written.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use referee_data::belisarius::scenario::{RawBeScenario, RawBeSide, RawDate, RawSetupLine, RawVictory};
use referee_data::raw::Spanned;
use referee_data::{DataError, DataSource, Report, SourceText};
use serde::{Deserialize, Serialize};

use super::pieces::{LeaderBook, Unit, UnitKind, parse_units};
use crate::core::rule::RuleId;
use crate::ids::SideId;

/// The folder of the scenario files, under the data folder.
pub const SCENARIO_DIR: &str = "belisarius/scenarios";

/// The sides a Belisarius scenario may have (the Franks only ever come as allies).
pub const SCENARIO_SIDES: [&str; 3] = ["byzantines", "vandals", "ostrogoths"];

/// The stratagem chits (BE-43).
pub const STRATAGEMS: [&str; 3] = ["treachery", "reconnaissance", "frankish-intervention"];

/// The regions of the map, each a group of land zones.
pub const REGIONS: [&str; 9] = ["africa", "sardinia", "corsica", "sicilia", "italy", "histria", "dalmatia", "praevalitana", "gaul"];

/// The random events' letters (BE-47).
pub const EVENT_LETTERS: std::ops::RangeInclusive<char> = 'A'..='O';

/// A campaign turn is a season (BE-02). The year changes in spring: winter 535 is the
/// winter that follows autumn 535.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Season {
    Spring,
    Summer,
    Autumn,
    Winter,
}

impl Season {
    pub const ALL: [Season; 4] = [Season::Spring, Season::Summer, Season::Autumn, Season::Winter];

    pub fn index(self) -> i64 {
        match self {
            Season::Spring => 0,
            Season::Summer => 1,
            Season::Autumn => 2,
            Season::Winter => 3,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Season::Spring => "spring",
            Season::Summer => "summer",
            Season::Autumn => "autumn",
            Season::Winter => "winter",
        }
    }

    fn parse(s: &str) -> Option<Season> {
        Season::ALL.into_iter().find(|x| x.label() == s)
    }
}

impl fmt::Display for Season {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// How many turns run from `first` to `last`, both included (0 or less if `last` is earlier).
pub fn turns_between(first: (Season, i32), last: (Season, i32)) -> i64 {
    (i64::from(last.1) - i64::from(first.1)) * 4 + last.0.index() - first.0.index() + 1
}

/// What a place id of the map names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlaceKind {
    /// A land zone.
    Zone,
    /// A city or port inside a land zone.
    City,
    /// A sea zone.
    Sea,
}

/// A placement left to the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "rule")]
pub enum FreeRule {
    /// Any sea zone.
    AnySea,
    /// A sea zone next to this land zone.
    SeaNextTo { zone: String },
    /// Any land the side controls in these regions (anywhere it controls when empty); a fleet
    /// so placed starts in a port there.
    OwnLandIn { regions: Vec<String> },
}

/// One line of a set-up, or one reinforcement: the leaders, units and ships that start
/// together at a place, or freely under a rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioLine {
    /// A zone, city or sea id; `None` when `free` is given.
    pub at: Option<String>,
    pub free: Option<FreeRule>,
    /// Leader ids.
    pub leaders: Vec<String>,
    /// Decoy leader counters (BE-42).
    pub decoys: u32,
    pub units: Vec<Unit>,
    /// Naval points of each fleet counter.
    pub fleets: Vec<u32>,
    /// Decoy fleet counters (BE-42).
    pub fleet_decoys: u32,
}

impl ScenarioLine {
    /// The line's units of one kind.
    pub fn units_of(&self, kind: UnitKind) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.kind == kind)
    }

    /// Total value of the line's units of one kind.
    pub fn value_of(&self, kind: UnitKind) -> u32 {
        self.units_of(kind).map(|u| u32::from(u.value)).sum()
    }

    /// Naval points of all the line's fleets.
    pub fn fleet_np(&self) -> u32 {
        self.fleets.iter().sum()
    }
}

/// One side as a scenario sets it up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioSide {
    pub id: SideId,
    pub name: String,
    /// The commander-in-chief or king whose strategic rating is added to the AP chit (BE-04);
    /// `None`: the side adds 6 instead.
    pub cinc: Option<String>,
    /// Who takes over as commander-in-chief, in order, the first being the CinC (BE-09).
    pub succession: Vec<String>,
    pub lines: Vec<ScenarioLine>,
    /// Stratagem chits held at the start (BE-43).
    pub hand: Vec<String>,
    /// Land zones controlled at the start (BE-46).
    pub controls: Vec<String>,
    /// Cities held at the start, as the scenario's text gives them rather than following
    /// the zones' control. Empty when read from a campaign stored before scenarios listed
    /// them; that campaign's [`super::setup::SideSetup`] keeps the reading it was played with.
    #[serde(default)]
    pub holds: Vec<String>,
    /// Cities where the side must have units when it sets up.
    pub must_hold: Vec<String>,
}

impl ScenarioSide {
    /// Every leader the side sets up, in the order of its lines.
    pub fn leaders(&self) -> impl Iterator<Item = &String> {
        self.lines.iter().flat_map(|l| &l.leaders)
    }
}

/// The rules a scenario adds to the general ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpecialKey {
    /// Byzantine infantry moves one zone a turn at most (BE-49).
    ByzantineInfantryOneZone,
    /// One random-event throw only, on the first turn, and only event H can happen (BE-49).
    EventHFirstTurnOnly,
    /// Neither side receives reinforcements.
    NoReinforcements,
    /// The Byzantines receive no reinforcements; the barbarians do (BE-51).
    NoByzantineReinforcements,
    /// Theodahad stays king to the end of turn 3, then Vitiges replaces him (BE-50).
    TheodahadUntilTurn3,
    /// The Byzantines have no CinC: their APs are the chit plus 6 (BE-04, BE-51).
    ByzantinesWithoutCinc,
    /// The Franks fight beside the Goths for the first four turns, then leave (BE-52).
    FranksAllied4Turns,
}

impl SpecialKey {
    pub const ALL: [(&'static str, SpecialKey); 7] = [
        ("byzantine-infantry-one-zone", SpecialKey::ByzantineInfantryOneZone),
        ("event-h-first-turn-only", SpecialKey::EventHFirstTurnOnly),
        ("no-reinforcements", SpecialKey::NoReinforcements),
        ("no-byzantine-reinforcements", SpecialKey::NoByzantineReinforcements),
        ("theodahad-until-turn-3", SpecialKey::TheodahadUntilTurn3),
        ("byzantines-without-cinc", SpecialKey::ByzantinesWithoutCinc),
        ("franks-allied-4-turns", SpecialKey::FranksAllied4Turns),
    ];

    pub fn key(self) -> &'static str {
        SpecialKey::ALL.iter().find(|(_, k)| *k == self).map_or("", |(s, _)| s)
    }
}

/// A scenario special rule with its wording for the referee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialRule {
    pub key: SpecialKey,
    pub text: String,
}

/// One victory condition. A side wins when, at the end of the last turn, it meets every
/// condition written for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Victory {
    /// Control every one of these cities.
    HoldCities { side: SideId, cities: Vec<String> },
    /// Control at least `count` land zones in these regions (anywhere when empty).
    Zones { side: SideId, count: u32, regions: Vec<String> },
    /// Control at least `count` cities in these regions besides those of `HoldCities`
    /// (anywhere when empty).
    OtherCities { side: SideId, count: u32, regions: Vec<String> },
    /// Have destroyed at least this many enemy combat points.
    Destroy { side: SideId, combat_points: u32 },
}

impl Victory {
    pub fn side(&self) -> &SideId {
        match self {
            Victory::HoldCities { side, .. }
            | Victory::Zones { side, .. }
            | Victory::OtherCities { side, .. }
            | Victory::Destroy { side, .. } => side,
        }
    }
}

/// Forces a side receives in the reinforcement phase of one spring (BE-45).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reinforcement {
    pub side: SideId,
    pub when: (Season, i32),
    pub line: ScenarioLine,
}

/// A validated Belisarius scenario. It is stored whole in a campaign's start event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub rule: RuleId,
    /// The first turn.
    pub first: (Season, i32),
    /// The last turn, played in full.
    pub last: (Season, i32),
    pub turns: u32,
    pub sides: Vec<ScenarioSide>,
    /// Stratagem chits mixed with the AP chits at the start (the AP chits themselves come
    /// from the tables).
    pub cup_stratagems: Vec<String>,
    /// Letters of the events that may happen; a roll of another letter gives no event.
    pub events: Vec<char>,
    pub special: Vec<SpecialRule>,
    pub victory: Vec<Victory>,
    pub reinforcements: Vec<Reinforcement>,
    pub summary: String,
}

impl Scenario {
    pub fn side(&self, id: &str) -> Option<&ScenarioSide> {
        self.sides.iter().find(|s| s.id.as_str() == id)
    }

    pub fn has(&self, key: SpecialKey) -> bool {
        self.special.iter().any(|s| s.key == key)
    }

    /// The date of turn `n` (1 is the first).
    pub fn date_of_turn(&self, n: u32) -> (Season, i32) {
        let start = i64::from(self.first.1) * 4 + self.first.0.index() + i64::from(n.max(1)) - 1;
        let season = Season::ALL[usize::try_from(start.rem_euclid(4)).unwrap_or(0)];
        (season, i32::try_from(start.div_euclid(4)).unwrap_or(i32::MAX))
    }

    /// "autumn 533 – spring 534".
    pub fn period(&self) -> String {
        let ((first, first_year), (last, last_year)) = (self.first, self.last);
        format!("{first} {first_year} – {last} {last_year}")
    }

    /// The turn number of a date, if the scenario plays it.
    pub fn turn_of(&self, date: (Season, i32)) -> Option<u32> {
        let n = turns_between(self.first, date);
        u32::try_from(n).ok().filter(|n| (1..=self.turns).contains(n))
    }
}

/// Reads every scenario of `belisarius/scenarios/`, sorted by their first turn, checking each
/// leader against `leaders` and each place id against `places`. Every problem of every file
/// is reported at once, with its file and line.
pub fn load_scenarios(
    source: &DataSource,
    leaders: &LeaderBook,
    places: &dyn Fn(&str) -> Option<PlaceKind>,
) -> Result<Vec<Scenario>, DataError> {
    let mut problems = Vec::new();
    let mut out = Vec::new();
    for path in source.list(SCENARIO_DIR)? {
        let text = source.read(&path)?;
        let checked = referee_data::parse::<RawBeScenario>(&text).and_then(|raw| from_raw(raw, &text, leaders, places));
        match checked {
            Ok(s) => out.push(s),
            Err(e) => problems.extend(e.problems),
        }
    }
    if !problems.is_empty() {
        return Err(DataError { problems });
    }
    if out.is_empty() {
        return Err(DataError::single(source.name_of(SCENARIO_DIR), 0, "holds no scenario"));
    }
    out.sort_by_key(|s| (s.first.1, s.first.0));
    Ok(out)
}

/// Checks one raw scenario, reporting every problem at once.
pub fn from_raw(
    raw: RawBeScenario,
    source: &SourceText,
    leaders: &LeaderBook,
    places: &dyn Fn(&str) -> Option<PlaceKind>,
) -> Result<Scenario, DataError> {
    let mut report = Report::new(source);
    let mut ck = Checker { leaders, places, placed: BTreeMap::new() };
    let stem = source.file.rsplit('/').next().unwrap_or("").trim_end_matches(".toml");
    if raw.id.get_ref() != stem {
        report.at(raw.id.span().start, format!("the scenario id `{}` must match its file name `{stem}`", raw.id.get_ref()));
    }
    let rule = match raw.rule.get_ref().parse::<RuleId>() {
        Ok(r) if (49..=52).contains(&r.number) && r.family == crate::core::rule::Family::Belisarius => Some(r),
        Ok(r) => {
            report.at(raw.rule.span().start, format!("{r} is not one of the Belisarius scenario rules (BE-49 to BE-52)"));
            None
        }
        Err(e) => {
            report.at(raw.rule.span().start, e.to_string());
            None
        }
    };
    let first = date(&raw.first, &mut report);
    let last = date(&raw.last, &mut report);
    if let (Some(f), Some(l)) = (first, last) {
        let n = turns_between(f, l);
        if n < 1 {
            report.at(raw.last.span().start, format!("the last turn ({} {}) comes before the first ({} {})", l.0, l.1, f.0, f.1));
        } else if n != i64::from(*raw.turns.get_ref()) {
            report.at(
                raw.turns.span().start,
                format!("turns = {}, but {} {} to {} {} is {n} turns", raw.turns.get_ref(), f.0, f.1, l.0, l.1),
            );
        }
    }

    let side_ids: Vec<String> = raw.sides.iter().map(|s| s.id.get_ref().clone()).collect();
    for (i, side) in raw.sides.iter().enumerate() {
        if !SCENARIO_SIDES.contains(&side.id.get_ref().as_str()) {
            report.at(side.id.span().start, format!("`{}` is not a side of the game ({})", side.id.get_ref(), SCENARIO_SIDES.join(", ")));
        }
        if side_ids[..i].contains(side.id.get_ref()) {
            report.at(side.id.span().start, format!("side `{}` is defined twice", side.id.get_ref()));
        }
    }
    if raw.sides.len() != 2 {
        report.file(format!("a Belisarius scenario has two sides, not {}", raw.sides.len()));
    }
    let known_side = |s: &Spanned<String>, what: &str, report: &mut Report<'_>| -> bool {
        let ok = side_ids.contains(s.get_ref());
        if !ok {
            report.at(s.span().start, format!("{what} names side `{}`, which the scenario does not have", s.get_ref()));
        }
        ok
    };

    // Reinforcements first, so that a successor arriving later is known to his side.
    let mut reinforcements = Vec::new();
    for r in &raw.reinforcements {
        known_side(&r.side, "a reinforcement", &mut report);
        let when = date(&r.when, &mut report);
        if let (Some(w), Some(f), Some(l)) = (when, first, last) {
            if w.0 != Season::Spring {
                report.at(r.when.span().start, "reinforcements arrive in spring only (BE-45)");
            }
            if turns_between(f, w) < 1 || turns_between(w, l) < 1 {
                report.at(r.when.span().start, format!("{} {} is not a turn of the scenario", w.0, w.1));
            }
        }
        let line = ck.line(&r.line, r.side.get_ref(), &mut report);
        if let (Some(when), Some(line)) = (when, line) {
            reinforcements.push(Reinforcement { side: SideId::new(r.side.get_ref().clone()), when, line });
        }
    }

    let mut sides = Vec::new();
    let mut controller: BTreeMap<&str, &str> = BTreeMap::new();
    let mut holder: BTreeMap<&str, &str> = BTreeMap::new();
    for side in &raw.sides {
        if let Some(s) = ck.side(side, &raw, (&mut controller, &mut holder), &mut report) {
            sides.push(s);
        }
    }

    let stratagems = |list: &[Spanned<String>], report: &mut Report<'_>| -> Vec<String> {
        for s in list {
            if !STRATAGEMS.contains(&s.get_ref().as_str()) {
                report.at(s.span().start, format!("`{}` is not a stratagem ({})", s.get_ref(), STRATAGEMS.join(", ")));
            }
        }
        list.iter().map(|s| s.get_ref().clone()).collect()
    };
    let cup_stratagems = stratagems(&raw.cup_stratagems, &mut report);

    let mut events = Vec::new();
    for e in &raw.events {
        let mut chars = e.get_ref().chars();
        match (chars.next(), chars.next()) {
            (Some('C'), None) => report.at(
                e.span().start,
                "event C (the Goths and Vandals allied) is not in this version: no scenario of the rules allows it (BE-47)",
            ),
            (Some(c), None) if EVENT_LETTERS.contains(&c) => {
                if events.contains(&c) {
                    report.at(e.span().start, format!("event {c} is listed twice"));
                }
                events.push(c);
            }
            _ => report.at(e.span().start, format!("`{}` is not a random event's letter (A to O)", e.get_ref())),
        }
    }

    let mut special = Vec::new();
    for s in &raw.special {
        match SpecialKey::ALL.iter().find(|(k, _)| k == s.key.get_ref()) {
            Some((_, key)) => special.push(SpecialRule { key: *key, text: s.text.trim().to_owned() }),
            None => report.at(
                s.key.span().start,
                format!(
                    "`{}` is not a special rule this program knows ({})",
                    s.key.get_ref(),
                    SpecialKey::ALL.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
                ),
            ),
        }
    }

    let mut victory = Vec::new();
    for v in &raw.victory {
        if known_side(&v.side, "a victory condition", &mut report)
            && let Some(v) = ck.victory(v, &mut report)
        {
            victory.push(v);
        }
    }

    if !report.problems.is_empty() {
        return Err(DataError { problems: report.problems });
    }
    let (Some(rule), Some(first), Some(last)) = (rule, first, last) else {
        return Err(DataError::single(&source.file, 0, "the scenario's rule or dates could not be read"));
    };
    Ok(Scenario {
        id: raw.id.into_inner(),
        name: raw.name,
        rule,
        first,
        last,
        turns: raw.turns.into_inner(),
        sides,
        cup_stratagems,
        events,
        special,
        victory,
        reinforcements,
        summary: raw.summary.trim().to_owned(),
    })
}

fn date(d: &Spanned<RawDate>, report: &mut Report<'_>) -> Option<(Season, i32)> {
    let season = d.get_ref().season.get_ref();
    match Season::parse(season) {
        Some(s) => Some((s, d.get_ref().year)),
        None => {
            report.at(d.get_ref().season.span().start, format!("`{season}` is not a season (spring, summer, autumn, winter)"));
            None
        }
    }
}

/// What the checks of one scenario share.
struct Checker<'a> {
    leaders: &'a LeaderBook,
    places: &'a dyn Fn(&str) -> Option<PlaceKind>,
    /// Leaders already placed in the scenario, and by which side.
    placed: BTreeMap<String, String>,
}

impl Checker<'_> {
    /// Checks that `id` names a place of one of the `kinds`.
    fn place(&self, id: &Spanned<String>, kinds: &[PlaceKind], what: &str, report: &mut Report<'_>) -> Option<PlaceKind> {
        match (self.places)(id.get_ref()) {
            None => {
                report.at(id.span().start, format!("{what} names `{}`, which is not a place of the map", id.get_ref()));
                None
            }
            Some(k) if !kinds.contains(&k) => {
                let want: Vec<&str> = kinds
                    .iter()
                    .map(|k| match k {
                        PlaceKind::Zone => "a land zone",
                        PlaceKind::City => "a city",
                        PlaceKind::Sea => "a sea zone",
                    })
                    .collect();
                report.at(id.span().start, format!("{what} names `{}`, which is not {}", id.get_ref(), want.join(" or ")));
                None
            }
            Some(k) => Some(k),
        }
    }

    fn regions(&self, list: &[Spanned<String>], report: &mut Report<'_>) -> Vec<String> {
        for r in list {
            if !REGIONS.contains(&r.get_ref().as_str()) {
                report.at(r.span().start, format!("`{}` is not a region of the map ({})", r.get_ref(), REGIONS.join(", ")));
            }
        }
        list.iter().map(|r| r.get_ref().clone()).collect()
    }

    fn leader(&mut self, id: &Spanned<String>, side: &str, report: &mut Report<'_>) {
        match self.leaders.get(id.get_ref()) {
            None => report.at(id.span().start, format!("`{}` is not a leader of the roster", id.get_ref())),
            Some(l) if l.side != side && l.side != "franks" => {
                report.at(id.span().start, format!("{} is a leader of the {}, not of the {side}", l.name, l.side));
            }
            Some(_) => {
                if let Some(other) = self.placed.insert(id.get_ref().clone(), side.to_owned()) {
                    report.at(id.span().start, format!("leader `{}` is placed twice (already with the {other})", id.get_ref()));
                }
            }
        }
    }

    fn line(&mut self, raw: &Spanned<RawSetupLine>, side: &str, report: &mut Report<'_>) -> Option<ScenarioLine> {
        let before = report.problems.len();
        let line = raw.get_ref();
        let start = raw.span().start;
        let at_sea = match (&line.at, &line.free) {
            (Some(at), None) => {
                self.place(at, &[PlaceKind::Zone, PlaceKind::City, PlaceKind::Sea], "a set-up line", report) == Some(PlaceKind::Sea)
            }
            (None, Some(free)) => matches!(free.get_ref().rule.get_ref().as_str(), "any-sea" | "sea-next-to"),
            (None, None) => {
                report.at(start, "a set-up line needs a place (`at`) or a free placement (`free`)");
                false
            }
            (Some(at), Some(_)) => {
                report.at(at.span().start, "a set-up line has either a place (`at`) or a free placement (`free`), not both");
                false
            }
        };
        let free = line.free.as_ref().and_then(|f| self.free(f, report));
        for l in &line.leaders {
            self.leader(l, side, report);
        }
        let mut units = Vec::new();
        for (kind, text) in [
            (UnitKind::Cataphract, &line.cataphracts),
            (UnitKind::HeavyCavalry, &line.heavy_cavalry),
            (UnitKind::MediumCavalry, &line.medium_cavalry),
            (UnitKind::LightCavalry, &line.light_cavalry),
            (UnitKind::Infantry, &line.infantry),
        ] {
            let Some(text) = text else { continue };
            match parse_units(kind, text.get_ref()) {
                Ok(u) => units.extend(u),
                Err(e) => report.at(text.span().start, format!("{}: {e}", kind.label())),
            }
        }
        if at_sea && (!line.leaders.is_empty() || line.decoys > 0 || !units.is_empty()) {
            report.at(start, "leaders, decoys and units start on land; a line at sea holds ships only");
        }
        let count = line.fleets.as_ref().map_or(0, |f| *f.get_ref());
        let np = line.fleet_np.as_ref().map_or(0, |f| *f.get_ref());
        let fleets = match (&line.fleets, &line.fleet_np) {
            _ if count == 0 && np == 0 => Vec::new(),
            (Some(f), _) if np < count => {
                report.at(f.span().start, format!("{count} fleets cannot share {np} naval points: each has at least 1"));
                Vec::new()
            }
            (_, Some(n)) if count == 0 => {
                report.at(n.span().start, format!("{np} naval points but no fleet counter (`fleets`)"));
                Vec::new()
            }
            _ => split_np(count, np),
        };
        if let Some(at) = &line.at
            && (!fleets.is_empty() || line.fleet_decoys > 0)
            && (self.places)(at.get_ref()) == Some(PlaceKind::Zone)
        {
            report.at(at.span().start, format!("fleets start at sea or in a port, not in the land zone `{}`", at.get_ref()));
        }
        if line.leaders.is_empty() && line.decoys == 0 && units.is_empty() && fleets.is_empty() && line.fleet_decoys == 0 {
            report.at(start, "the set-up line places nothing");
        }
        if report.problems.len() > before {
            return None;
        }
        Some(ScenarioLine {
            at: line.at.as_ref().map(|a| a.get_ref().clone()),
            free,
            leaders: line.leaders.iter().map(|l| l.get_ref().clone()).collect(),
            decoys: line.decoys,
            units,
            fleets,
            fleet_decoys: line.fleet_decoys,
        })
    }

    fn free(&self, raw: &Spanned<referee_data::belisarius::scenario::RawFree>, report: &mut Report<'_>) -> Option<FreeRule> {
        let f = raw.get_ref();
        let rule = f.rule.get_ref().as_str();
        let no_zone = |report: &mut Report<'_>| {
            if let Some(z) = &f.zone {
                report.at(z.span().start, format!("the free placement `{rule}` takes no `zone`"));
            }
        };
        let no_regions = |report: &mut Report<'_>| {
            if let Some(r) = f.regions.first() {
                report.at(r.span().start, format!("the free placement `{rule}` takes no `regions`"));
            }
        };
        match rule {
            "any-sea" => {
                no_zone(report);
                no_regions(report);
                Some(FreeRule::AnySea)
            }
            "sea-next-to" => {
                no_regions(report);
                let Some(z) = &f.zone else {
                    report.at(f.rule.span().start, "`sea-next-to` needs the land zone the sea is next to (`zone`)");
                    return None;
                };
                self.place(z, &[PlaceKind::Zone], "a free placement", report)?;
                Some(FreeRule::SeaNextTo { zone: z.get_ref().clone() })
            }
            "own-land-in" => {
                no_zone(report);
                Some(FreeRule::OwnLandIn { regions: self.regions(&f.regions, report) })
            }
            other => {
                report.at(f.rule.span().start, format!("`{other}` is not a free placement (any-sea, sea-next-to, own-land-in)"));
                None
            }
        }
    }

    /// Checks one side. `taken` is who controls each zone and who holds each city in the
    /// sides checked so far, so that no zone or city goes to both.
    fn side<'r>(
        &mut self,
        raw: &'r RawBeSide,
        scenario: &RawBeScenario,
        taken: (&mut BTreeMap<&'r str, &'r str>, &mut BTreeMap<&'r str, &'r str>),
        report: &mut Report<'_>,
    ) -> Option<ScenarioSide> {
        let (controller, holder) = taken;
        let before = report.problems.len();
        let id = raw.id.get_ref().as_str();
        let mut lines = Vec::new();
        for l in &raw.lines {
            if let Some(line) = self.line(l, id, report) {
                lines.push(line);
            }
        }
        // The leaders as the file lists them, its refused lines' too: a line refused for its
        // units does not also make its leaders missing from the set-up.
        let in_setup: BTreeSet<&String> = raw.lines.iter().flat_map(|l| &l.get_ref().leaders).map(|l| l.get_ref()).collect();
        let arriving: BTreeSet<&String> = scenario
            .reinforcements
            .iter()
            .filter(|r| r.side.get_ref() == id)
            .flat_map(|r| &r.line.get_ref().leaders)
            .map(|l| l.get_ref())
            .collect();
        if let Some(c) = &raw.cinc
            && !in_setup.contains(c.get_ref())
        {
            report.at(c.span().start, format!("side `{id}`: its commander-in-chief `{}` is not in its set-up", c.get_ref()));
        }
        let mut seen = BTreeSet::new();
        for (i, s) in raw.succession.iter().enumerate() {
            if !in_setup.contains(s.get_ref()) && !arriving.contains(s.get_ref()) {
                report.at(s.span().start, format!("side `{id}`: `{}` is in the succession but never comes into play", s.get_ref()));
            }
            if !seen.insert(s.get_ref()) {
                report.at(s.span().start, format!("side `{id}`: `{}` is twice in the succession", s.get_ref()));
            }
            if i == 0
                && let Some(c) = &raw.cinc
                && c.get_ref() != s.get_ref()
            {
                report.at(s.span().start, format!("side `{id}`: the succession starts with the commander-in-chief `{}`", c.get_ref()));
            }
        }
        if raw.cinc.is_some() && raw.succession.is_empty() {
            report.at(raw.id.span().start, format!("side `{id}` has a commander-in-chief but no succession"));
        }
        let hand: Vec<String> = raw.hand.iter().map(|s| s.get_ref().clone()).collect();
        for s in &raw.hand {
            if !STRATAGEMS.contains(&s.get_ref().as_str()) {
                report.at(s.span().start, format!("`{}` is not a stratagem ({})", s.get_ref(), STRATAGEMS.join(", ")));
            }
        }
        for z in &raw.controls {
            if self.place(z, &[PlaceKind::Zone], &format!("side `{id}`: controls"), report).is_some()
                && let Some(other) = controller.insert(z.get_ref(), id)
            {
                report.at(
                    z.span().start,
                    if other == id {
                        format!("side `{id}` lists `{}` twice in controls", z.get_ref())
                    } else {
                        format!("zone `{}` is controlled by both `{other}` and `{id}`", z.get_ref())
                    },
                );
            }
        }
        for c in &raw.holds {
            if self.place(c, &[PlaceKind::City], &format!("side `{id}`: holds"), report).is_some()
                && let Some(other) = holder.insert(c.get_ref(), id)
            {
                report.at(
                    c.span().start,
                    if other == id {
                        format!("side `{id}` lists `{}` twice in holds", c.get_ref())
                    } else {
                        format!("city `{}` is held by both `{other}` and `{id}`", c.get_ref())
                    },
                );
            }
        }
        let held = |city: &String| raw.holds.iter().any(|h| h.get_ref() == city);
        for c in &raw.must_hold {
            if self.place(c, &[PlaceKind::City], &format!("side `{id}`: must_hold"), report).is_some() && !held(c.get_ref()) {
                report.at(
                    c.span().start,
                    format!("side `{id}` must have troops in `{}`, a city it does not hold (add it to holds)", c.get_ref()),
                );
            }
        }
        // Troops set up inside a city stand in one their side holds: the enemy's is taken by
        // a siege (BE-24), not entered.
        for l in &raw.lines {
            if let Some(at) = &l.get_ref().at
                && (self.places)(at.get_ref()) == Some(PlaceKind::City)
                && !held(at.get_ref())
            {
                report.at(
                    at.span().start,
                    format!("side `{id}` sets up inside `{}`, a city it does not hold (add it to holds)", at.get_ref()),
                );
            }
        }
        if report.problems.len() > before {
            return None;
        }
        Some(ScenarioSide {
            id: SideId::new(id),
            name: raw.name.clone(),
            cinc: raw.cinc.as_ref().map(|c| c.get_ref().clone()),
            succession: raw.succession.iter().map(|s| s.get_ref().clone()).collect(),
            lines,
            hand,
            controls: raw.controls.iter().map(|z| z.get_ref().clone()).collect(),
            holds: raw.holds.iter().map(|c| c.get_ref().clone()).collect(),
            must_hold: raw.must_hold.iter().map(|c| c.get_ref().clone()).collect(),
        })
    }

    fn victory(&self, v: &RawVictory, report: &mut Report<'_>) -> Option<Victory> {
        let before = report.problems.len();
        let side = SideId::new(v.side.get_ref().clone());
        let kind = v.kind.get_ref().as_str();
        let count = || v.count.as_ref().map(|c| *c.get_ref());
        let need_count = |report: &mut Report<'_>| {
            if v.count.is_none() {
                report.at(v.kind.span().start, format!("a `{kind}` victory condition needs a `count`"));
            }
        };
        let no_cities = |report: &mut Report<'_>| {
            if let Some(c) = v.cities.first() {
                report.at(c.span().start, format!("a `{kind}` victory condition takes no `cities`"));
            }
        };
        let no_regions = |report: &mut Report<'_>| {
            if let Some(r) = v.regions.first() {
                report.at(r.span().start, format!("a `{kind}` victory condition takes no `regions`"));
            }
        };
        let out = match kind {
            "hold-cities" => {
                no_regions(report);
                if let Some(c) = &v.count {
                    report.at(c.span().start, "a `hold-cities` victory condition takes no `count`");
                }
                if v.cities.is_empty() {
                    report.at(v.kind.span().start, "a `hold-cities` victory condition needs its `cities`");
                }
                for c in &v.cities {
                    self.place(c, &[PlaceKind::City], "a victory condition", report);
                }
                Victory::HoldCities { side, cities: v.cities.iter().map(|c| c.get_ref().clone()).collect() }
            }
            "zones" => {
                no_cities(report);
                need_count(report);
                Victory::Zones { side, count: count().unwrap_or(0), regions: self.regions(&v.regions, report) }
            }
            "other-cities" => {
                no_cities(report);
                need_count(report);
                Victory::OtherCities { side, count: count().unwrap_or(0), regions: self.regions(&v.regions, report) }
            }
            "destroy" => {
                no_cities(report);
                no_regions(report);
                need_count(report);
                Victory::Destroy { side, combat_points: count().unwrap_or(0) }
            }
            other => {
                report.at(v.kind.span().start, format!("`{other}` is not a victory condition (hold-cities, zones, other-cities, destroy)"));
                return None;
            }
        };
        (report.problems.len() == before).then_some(out)
    }
}

/// Splits `np` naval points over `count` fleets as evenly as possible, the larger first:
/// 15 over 2 is 8 and 7.
pub fn split_np(count: u32, np: u32) -> Vec<u32> {
    if count == 0 {
        return Vec::new();
    }
    let (base, extra) = (np / count, np % count);
    (0..count).map(|i| base + u32::from(i < extra)).collect()
}
