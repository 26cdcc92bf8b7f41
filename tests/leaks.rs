//! the differential no-leak test over every side output.
//!
//! A random game of each scenario is played to its end, with a table set and a pack printed
//! for every battle. At a few moments of it — battles due, tables set, retreats owed after a
//! battle — and at its end, each side's outputs are built twice from the campaign's events:
//!
//! - once as played;
//! - once with everything that side may not know changed: the other sides' command names
//!   replaced by canary words, their elements of other grades, their fleets of other strength,
//!   the values, modifiers and purposes of every roll hidden from the side, the umpire's notes
//!   and reasons, the numbers only the other sides learn (losses to disease, at sieges, at
//!   sea, what was salvaged), the stay-or-retire choices not yet revealed, every roll's place
//!   in the dice stream, the dice seed, and hidden events added where there were none.
//!
//! The outputs are what a referee hands a player: `show --as` as text and JSON, `log --as` as
//! text and JSON, `roster --as` as text and JSON, the side's battle-pack PDFs (DBM, DBSA, Ars Bellum and A la Charge!, with the hex map files every player gets)
//! and turn report read back as text, its `export` for play by e-mail, and every string the
//! app draws in that side's view. Each must be the
//! same both times, and no canary word may appear in any of them.

use referee_campaign::core::log::{CampaignStarted, DiceRolled, NoteAdded};
use referee_campaign::magna_graecia::MagnaGraecia;
use std::collections::BTreeMap;
use std::path::Path;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use referee::gui::RefereeApp;
use referee_campaign::dice::RollSource;
use referee_campaign::magna_graecia::army::{Army, CommandRoster, ElementGroup, ElementSpec, Grade};
use referee_campaign::{
    SideId, Store, Visibility, magna_graecia::catalog::Catalog, magna_graecia::event::Event, magna_graecia::event::Logged,
};
use referee_e2e::play::play;
use referee_e2e::{TempDb, cli, drawn_text, packet_outputs};

/// The word every canary name starts with; no output a side reads may hold it.
const CANARY: &str = "Kanar";

/// Changes what `viewer` may not know in a campaign's events.
struct Disguise {
    viewer: SideId,
    /// The other sides' command names, and the canary each becomes.
    names: BTreeMap<String, String>,
    rng: ChaCha8Rng,
}

impl Disguise {
    fn new(events: &[Logged], viewer: &SideId) -> Disguise {
        let Some(Event::CampaignStarted(CampaignStarted { scenario, .. })) = events.first().map(|l| &l.event) else { panic!("no start") };
        let mut armies: Vec<&Army> = scenario.armies.iter().collect();
        armies.extend(events.iter().filter_map(|l| match &l.event {
            Event::ArmyReplaced { army } => Some(army),
            _ => None,
        }));
        let own: Vec<&str> = armies.iter().filter(|a| &a.side == viewer).flat_map(|a| a.commands.iter().map(|c| c.name.as_str())).collect();
        // Words everyone reads: sides, places and the cities' commands named after them.
        let map = scenario.map_data.as_ref().expect("the campaign keeps its map");
        let public = |n: &str| {
            scenario.sides.iter().any(|s| s.name == n || s.id.as_str() == n)
                || map.nodes.values().any(|node| n == node.name || n.starts_with(&format!("{} ", node.name)))
        };
        let mut names = BTreeMap::new();
        for army in armies.iter().filter(|a| &a.side != viewer) {
            for c in &army.commands {
                if !own.contains(&c.name.as_str()) && !public(&c.name) && !names.contains_key(&c.name) {
                    let canary = format!("{CANARY}{}", names.len());
                    names.insert(c.name.clone(), canary);
                }
            }
        }
        Disguise { viewer: viewer.clone(), names, rng: ChaCha8Rng::seed_from_u64(99) }
    }

    fn other(&self, side: &SideId) -> bool {
        side != &self.viewer
    }

    fn name(&self, side: &SideId, name: &mut String) {
        if self.other(side)
            && let Some(c) = self.names.get(name)
        {
            name.clone_from(c);
        }
    }

    /// Every other side's command name in free text, word by word.
    fn text(&self, text: &mut String) {
        for (name, canary) in &self.names {
            let mut out = String::new();
            let mut rest = text.as_str();
            while let Some(i) = rest.find(name.as_str()) {
                let before = rest[..i].chars().next_back();
                let after = rest[i + name.len()..].chars().next();
                let word = before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric());
                out.push_str(&rest[..i]);
                out.push_str(if word { canary } else { name });
                rest = &rest[i + name.len()..];
            }
            out.push_str(rest);
            *text = out;
        }
    }

    /// The same element at another grade: ordinary and superior change places.
    fn spec(spec: &mut ElementSpec) {
        spec.grade = match spec.grade {
            Grade::O => Grade::S,
            Grade::S => Grade::O,
            g => g,
        };
    }

    fn groups(&self, side: &SideId, groups: &mut [ElementGroup]) {
        if self.other(side) {
            for g in groups {
                Disguise::spec(&mut g.spec);
            }
        }
    }

    fn roster(&self, side: &SideId, roster: &mut CommandRoster) {
        self.name(side, &mut roster.name);
        if self.other(side) {
            Disguise::spec(&mut roster.general);
        }
        self.groups(side, &mut roster.elements);
    }

    fn named_groups(&self, side: &SideId, lost: &mut [(String, ElementGroup)], sunk: &mut [String]) {
        for (name, group) in lost {
            self.name(side, name);
            self.groups(side, std::slice::from_mut(group));
        }
        for name in sunk {
            self.name(side, name);
        }
    }

    /// What became of each command after a battle: the other sides' names and elements.
    fn aftermath(&self, aftermath: &mut [referee_campaign::magna_graecia::battle::CommandAftermath]) {
        for a in aftermath {
            let side = a.side.clone();
            self.name(&side, &mut a.command);
            if let Some(j) = &mut a.joined {
                self.name(&side, j);
            }
            self.groups(&side, &mut a.lost);
        }
    }

    /// One event as `viewer` must not be able to tell from the real one. Every kind is named,
    /// so a new kind of event must be decided here before this test compiles.
    fn event(&mut self, event: &mut Event) {
        match event {
            Event::CampaignStarted(CampaignStarted { scenario, seed, .. }) => {
                *seed ^= 0x5eed_5eed_5eed;
                for army in &mut scenario.armies {
                    let side = army.side.clone();
                    for c in &mut army.commands {
                        self.roster(&side, c);
                    }
                }
                for s in &mut scenario.sides {
                    if s.id != self.viewer && s.fleet_np > 0 {
                        s.fleet_np += 3;
                    }
                }
            }
            Event::DiceRolled(DiceRolled { roll, visibility, .. }) => {
                if let RollSource::Seeded { stream_pos } = &mut roll.source {
                    *stream_pos += 7_777;
                }
                self.text(&mut roll.purpose);
                if !visibility.shown_to(&referee_campaign::Viewer::Side(self.viewer.clone())) {
                    for v in &mut roll.values {
                        *v = self.rng.random_range(1..=roll.dice.sides);
                    }
                    for m in &mut roll.modifiers {
                        m.value += 1;
                        m.reason = format!("{CANARY} reason");
                    }
                    roll.purpose.push_str(&format!(" {CANARY} purpose"));
                }
            }
            Event::NoteAdded(NoteAdded { text }) => *text = format!("{CANARY} note"),
            // The campaign's name is every reader's: nothing of it is hidden.
            Event::CampaignRenamed(_) => {}
            Event::ControlAdjusted { reason, .. } => *reason = format!("{CANARY} reason"),
            Event::ArmyReplaced { army } => {
                let side = army.side.clone();
                for c in &mut army.commands {
                    self.roster(&side, c);
                }
            }
            Event::CounterDeployed { side, counter, .. }
            | Event::CounterMoved { side, counter, .. }
            | Event::CounterEmbarked { side, counter }
            | Event::CounterDisembarked { side, counter }
            | Event::CounterLanded { side, counter, .. }
            | Event::CounterRetreated { side, counter, .. } => self.name(side, counter),
            Event::CommandDestroyed { side, command, .. } => self.name(side, command),
            Event::ElementsExchanged { side, from, to, elements } => {
                self.name(side, from);
                self.name(side, to);
                self.groups(side, elements);
            }
            Event::GarrisonChanged { side, command, elements, .. } => {
                self.name(side, command);
                self.groups(side, elements);
            }
            Event::BattleRaised { battle } | Event::CityAttacked { battle, .. } => {
                let attacker = battle.attacker.clone();
                for (name, _) in &mut battle.entries {
                    self.name(&attacker, name);
                }
            }
            Event::NavalBattleFought { outcome } => {
                let loser = outcome.loser.clone();
                if self.other(&loser) {
                    // What the loser lost in the fight and got back is its own; what sank for
                    // good is everyone's.
                    outcome.np_lost += 2;
                    outcome.np_recovered += 2;
                    if outcome.elements_to_lose > 0 {
                        outcome.elements_to_lose += 1;
                    }
                }
                for name in &mut outcome.commands_lost {
                    self.name(&loser, name);
                }
            }
            Event::NavalLossesTaken { side, lost, sunk } | Event::SiegeLossesTaken { side, lost, sunk } => {
                self.named_groups(side, lost, sunk);
            }
            Event::FleetsCombined { commander, partner, np } => {
                if self.other(commander) && self.other(partner) {
                    *np += 3;
                }
            }
            // Which of two allies offered its fleet to the other is theirs to know.
            Event::FleetOffered { side, to } => {
                if self.other(side) && self.other(to) {
                    std::mem::swap(side, to);
                }
            }
            Event::ShelteredFleetsLost { besieger, salvaged, .. } => {
                if self.other(besieger) {
                    *salvaged += 1;
                }
            }
            Event::FleetDestroyed { side, commands_lost } => {
                for name in commands_lost {
                    self.name(side, name);
                }
            }
            Event::BattleResolved { aftermath, retreats, .. } => {
                self.aftermath(aftermath);
                for r in retreats {
                    self.name(&r.side.clone(), &mut r.command);
                }
            }
            Event::BattleDrawn { aftermath, .. } => self.aftermath(aftermath),
            Event::StayOrRetireChosen { side, stay, .. } => {
                if self.other(side) {
                    *stay = !*stay;
                }
            }
            Event::ChoicesRevealed { retreats, .. } => {
                for r in retreats {
                    self.name(&r.side.clone(), &mut r.command);
                }
            }
            Event::SiegeBegun { siege, inside, .. } => {
                for name in inside {
                    self.name(&siege.defender, name);
                }
            }
            Event::CityFell { besieger, defender, destroyed, besieger_losses, defender_elements, .. } => {
                for name in destroyed {
                    self.name(defender, name);
                }
                if self.other(besieger) && self.other(defender) {
                    *besieger_losses += 1;
                    *defender_elements += 5;
                }
            }
            Event::DiseaseStruck { side, elements, of, command, .. } => {
                if self.other(side) {
                    *elements += 1;
                    *of += 10;
                }
                if let Some(c) = command {
                    self.name(side, c);
                }
            }
            Event::CommandExited { side, command, elements } => {
                if self.other(side) {
                    *elements += 1;
                }
                self.name(side, command);
            }
            Event::PlayBegan
            | Event::PhaseEnded { .. }
            | Event::CityJoined { .. }
            | Event::TableSet { .. }
            | Event::FleetSheltered { .. }
            | Event::FleetRetreated { .. }
            | Event::SiegeRolled { .. }
            | Event::SiegeLifted { .. }
            | Event::CapitalTaken { .. }
            | Event::SallyMade { .. }
            | Event::CityCommandsSurrendered { .. }
            | Event::CityForcesMustered { .. }
            | Event::CampaignEnded { .. }
            | Event::SidesSwitched { .. } => {}
        }
    }

    /// The events disguised, with a few hidden commands of the umpire's and the other sides'
    /// added between the commands, renumbered as a store numbers them.
    fn events(&mut self, events: &[Logged]) -> Vec<Logged> {
        let others: Vec<SideId> = match &events[0].event {
            Event::CampaignStarted(CampaignStarted { scenario, .. }) => {
                scenario.sides.iter().map(|s| s.id.clone()).filter(|s| self.other(s)).collect()
            }
            _ => unreachable!(),
        };
        let mut groups: Vec<Vec<Event>> = Vec::new();
        let mut last = None;
        for l in events {
            if last != Some(l.command_seq) {
                groups.push(Vec::new());
                last = Some(l.command_seq);
            }
            let mut e = l.event.clone();
            self.event(&mut e);
            groups.last_mut().unwrap().push(e);
        }
        let mut out = Vec::new();
        let mut seq = 0;
        let mut command = 0;
        for (i, group) in groups.into_iter().enumerate() {
            let mut push = |group: Vec<Event>, command: &mut u64| {
                *command += 1;
                for event in group {
                    seq += 1;
                    out.push(Logged { seq, command_seq: *command, event });
                }
            };
            push(group, &mut command);
            if i % 7 == 3 {
                let secret = |visibility: Visibility, side: Option<SideId>| {
                    Event::DiceRolled(DiceRolled {
                        roll: referee_campaign::Roll {
                            dice: referee_campaign::DiceSpec::D6,
                            values: vec![3],
                            modifiers: vec![],
                            purpose: format!("{CANARY} secret"),
                            rule: None,
                            source: RollSource::Manual,
                        },
                        side,
                        visibility,
                    })
                };
                let mut extra =
                    vec![Event::NoteAdded(NoteAdded { text: format!("{CANARY} added note") }), secret(Visibility::Umpire, None)];
                extra.extend(others.iter().map(|o| secret(Visibility::Side(o.clone()), Some(o.clone()))));
                push(extra, &mut command);
            }
        }
        out
    }
}

fn pdf_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    referee_battle_gen::pdf::extract_text(&bytes).unwrap().join("\n")
}

/// Everything `side` is handed from a campaign made of `events`, by output.
/// The start of the campaign's commitment to its seed, as every side reads it under the log.
/// It is the one thing of a side's screen that changes with the seed, by design: the test
/// masks it, after checking that it is nothing but the SHA-256 of the seed with a fresh
/// random salt, which tells nothing of the seed or of anything else.
fn public_commitment(db: &Path) -> referee_campaign::core::verify::Commitment {
    let store = Store::open(db).unwrap();
    let id = store.find("Leak").unwrap();
    let commitment = store.commitment(id).unwrap().unwrap();
    let seed = store.load_as::<MagnaGraecia>(id).unwrap().state.seed;
    assert_eq!(commitment.digest, referee_campaign::core::verify::Commitment::digest_of(seed, &commitment.salt));
    assert_eq!(commitment.salt.len(), 32, "a salt of 128 random bits");
    commitment
}

fn side_outputs(events: &[Logged], side: &SideId) -> BTreeMap<String, String> {
    let db = TempDb::new();
    let file = db.path.with_extension("json");
    std::fs::write(&file, serde_json::to_string(events).unwrap()).unwrap();
    cli(&db.path, &["import", file.to_str().unwrap(), "--name", "Leak"]).ok();
    let s = side.as_str();
    let mut out = BTreeMap::new();
    for (what, args) in [
        ("show", vec!["show", "Leak", "--as", s]),
        ("show --json", vec!["show", "Leak", "--as", s, "--json"]),
        ("log", vec!["log", "Leak", "--as", s]),
        ("log --json", vec!["log", "Leak", "--as", s, "--json"]),
        ("roster", vec!["roster", "Leak", "--as", s]),
        ("roster --json", vec!["roster", "Leak", "--as", s, "--json"]),
    ] {
        out.insert(what.to_owned(), cli(&db.path, &args).ok());
    }
    let shown: serde_json::Value = serde_json::from_str(&out["show --json"]).unwrap();
    for battle in shown["board"]["battles"].as_array().unwrap() {
        let n = battle["id"].to_string();
        for system in ["dbm", "dbsa", "ars-bellum", "a-la-charge"] {
            let dir = tempfile::tempdir().unwrap();
            cli(&db.path, &["pack", "Leak", &n, "--out", dir.path().to_str().unwrap(), "--system", system]).ok();
            for entry in std::fs::read_dir(dir.path()).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                // The side's own file, and the hex maps every player is handed.
                if name.ends_with(&format!("-{s}.pdf")) || name.contains("-map-") {
                    out.insert(format!("pack {system} {name}"), pdf_text(&path));
                }
            }
        }
    }
    let app = RefereeApp::open_db(&db.path, Catalog::embedded(), None, Some("Leak"), Some(s)).unwrap();
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app);
    h.run();
    let commitment = public_commitment(&db.path);
    let masked = |text: String| text.replace(&commitment.digest, "<commitment>").replace(&commitment.short(), "<commitment>");
    // The side's turn report (PDF, read back) and its export for play by e-mail.
    let dir = tempfile::tempdir().unwrap();
    cli(&db.path, &["report", "Leak", "--as", s, "--out", dir.path().to_str().unwrap()]).ok();
    let reports: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(reports.len(), 1, "one report for one side: {reports:?}");
    out.insert("report".to_owned(), masked(pdf_text(&reports[0])));
    out.insert("export".to_owned(), masked(cli(&db.path, &["export", "Leak", "--as", s]).ok()));
    // The side's packet for play by e-mail, byte for byte, and what its player reads of it.
    for (what, text) in packet_outputs(&db.path, "Leak", s, &commitment.digest) {
        out.insert(what, text);
    }
    out.insert("app".to_owned(), masked(drawn_text(&h.output().shapes).join("\n")));
    // And with each battle's node picked, as a player would look at it.
    for battle in shown["board"]["battles"].as_array().unwrap() {
        let node = referee_campaign::NodeId(u8::try_from(battle["node"].as_u64().unwrap()).unwrap());
        h.state_mut().send(referee::gui::MagnaGraeciaCommand::Select(Some(node)));
        h.state_mut().apply_commands();
        h.run();
        out.insert(format!("app at node {node}"), masked(drawn_text(&h.output().shapes).join("\n")));
    }
    // And the side's charts, turn by turn.
    h.state_mut().send(referee::gui::AppCommand::ShowCharts(true));
    h.state_mut().apply_commands();
    h.run();
    let drawn = drawn_text(&h.output().shapes).join("\n");
    assert!(drawn.contains("Victory points (points)"), "the Charts window is drawn: {drawn}");
    out.insert("app charts".to_owned(), masked(drawn));
    out
}

/// The first line where two outputs differ, for the failure message.
fn first_difference(a: &str, b: &str) -> String {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let i = la.iter().zip(&lb).position(|(x, y)| x != y).unwrap_or(la.len().min(lb.len()));
    format!("line {}:\n  as played: {}\n  disguised: {}", i + 1, la.get(i).unwrap_or(&"(end)"), lb.get(i).unwrap_or(&"(end)"))
}

fn check_scenario(id: &str, seed: u64) {
    let played = play(id, seed, true);
    let events = &played.events;
    assert!(played.checkpoints.len() >= 2, "{id}: too few battles to look at: {:?}", played.kinds);
    // Two moments with a battle due and its table set, one with retreats owed after a battle
    // (the board's `retreating`), and the end of the campaign.
    let owed = *played.retreats_owed.first().unwrap_or_else(|| panic!("{id}: no moment with retreats owed"));
    let moments = [played.checkpoints[0], played.checkpoints[played.checkpoints.len() / 2], owed, events.len()];
    let sides: Vec<SideId> = match &events[0].event {
        Event::CampaignStarted(CampaignStarted { scenario, .. }) => scenario.move_order.clone(),
        _ => unreachable!(),
    };
    let mut compared = 0;
    for &at in &moments {
        let prefix = &events[..at];
        for side in &sides {
            let mut disguise = Disguise::new(prefix, side);
            assert!(!disguise.names.is_empty(), "{id}: no other side's names to hide from {side}");
            let disguised = disguise.events(prefix);
            assert!(serde_json::to_string(&disguised).unwrap().contains(CANARY), "{id}: the disguise changed nothing");
            let played = side_outputs(prefix, side);
            let changed = side_outputs(&disguised, side);
            assert_eq!(
                played.keys().collect::<Vec<_>>(),
                changed.keys().collect::<Vec<_>>(),
                "{id} at event {at}: {side} is handed other outputs"
            );
            for (what, text) in &played {
                let other = &changed[what];
                assert!(
                    text == other,
                    "{id} at event {at}: {side}'s `{what}` tells what {side} may not know, {}",
                    first_difference(text, other)
                );
                assert!(!other.contains(CANARY), "{id} at event {at}: {side}'s `{what}` holds a canary word");
                compared += 1;
            }
        }
    }
    assert!(compared >= 4 * sides.len() * 9, "{id}: only {compared} outputs compared");
}

/// no side output of a Dionysian War tells a side what it may not know.
#[test]
fn x_01_no_side_output_leaks_dionysian() {
    check_scenario("dionysian", 4);
}

/// no side output of a Pyrrhic War tells a side what it may not know.
#[test]
fn x_01_no_side_output_leaks_pyrrhic() {
    check_scenario("pyrrhic", 5);
}

/// no side output of a First Punic War tells a side what it may not know.
#[test]
fn x_01_no_side_output_leaks_first_punic() {
    check_scenario("first-punic", 6);
}

/// no side output of a Second Punic War tells a side what it may not know.
#[test]
fn x_01_no_side_output_leaks_second_punic() {
    check_scenario("second-punic", 7);
}

/// Every engine has a differential no-leak test of its own, beside this one.
#[test]
fn x_01_every_engine_has_its_no_leak_test() {
    for engine in referee_campaign::core::engine::EngineId::ALL {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(referee_e2e::no_leak_test(engine));
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: no no-leak test at {}: {e}", engine.title(), file.display()));
        assert!(text.contains("#[test]"), "{}: {} holds no test", engine.title(), file.display());
    }
}
