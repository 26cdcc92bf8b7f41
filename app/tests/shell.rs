//! The shell every campaign shares, driven headless with egui_kittest: undo and redo with
//! their keys and words, the hand-over of a side's view, refusals in the log, the window's
//! title and the log panel's height.

mod support;

use egui::Modifiers;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use referee::gui::{AppCommand, MagnaGraeciaCommand, RefereeApp};
use referee_campaign::belisarius::World;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::{DiceInput, DiceSpec, SideId, Store, Viewer, magna_graecia::catalog::Catalog};
use support::{click, fill, harness, label_exists, no_error, opened, press_key, press_keys, send};

/// A database with one Dionysian War campaign called "Night" and nothing given yet.
fn database(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("club.sqlite");
    let mut store = Store::open(&path).unwrap();
    store.create_as::<MagnaGraecia>("Night", Catalog::embedded().scenario("dionysian").unwrap(), 5).unwrap();
    path
}

/// A database with one Dionysian War campaign called "Night" and nothing given yet, in a
/// folder of its own that lasts as long as it is kept, open in the referee's window as
/// `view_as`.
fn night(view_as: &str) -> (tempfile::TempDir, Harness<'static, RefereeApp>) {
    let dir = tempfile::tempdir().unwrap();
    let h = open(&database(&dir), view_as);
    (dir, h)
}

/// The campaign "Night" of `db` in the referee's window, seen as `view_as`.
fn open(db: &std::path::Path, view_as: &str) -> Harness<'static, RefereeApp> {
    opened(RefereeApp::open_db(db, Catalog::embedded(), Some(World::embedded()), Some("Night"), Some(view_as)).unwrap())
}

fn roll(h: &mut Harness<'_, RefereeApp>, purpose: &str, input: DiceInput) {
    let command = AppCommand::RollDice { dice: DiceSpec::D6, purpose: purpose.into(), side: None, hidden: false, input };
    send(h, command);
    no_error(h);
}

fn log(h: &Harness<'_, RefereeApp>) -> Vec<String> {
    h.state().view().unwrap().log().iter().map(|l| l.text.clone()).collect()
}

/// Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo — with the very same dice, seeded or
/// typed in — and the Edit menu and the log's buttons say in the referee's words what they
/// will do. A new order ends what can be redone.
#[test]
fn x_03_undo_and_redo_with_their_keys_say_what_they_do() {
    let (_dir, mut h) = night("umpire");
    assert_eq!(h.state().undo_label(), None, "only the start: nothing to undo");
    roll(&mut h, "omens", DiceInput::Seeded);
    roll(&mut h, "storm at sea", DiceInput::Manual(vec![6]));
    let before = log(&h);
    let undo = h.state().undo_label().unwrap();
    assert_eq!(undo, "d6 = 6 [typed in] for storm at sea");

    click(&mut h, "Edit ▾");
    assert!(label_exists(&h, &format!("Undo: {undo}")), "the menu names what Undo takes back");
    click(&mut h, "Edit ▾");

    press_keys(&mut h, Modifiers::COMMAND, egui::Key::Z);
    press_keys(&mut h, Modifiers::COMMAND, egui::Key::Z);
    assert_eq!(log(&h).len(), before.len() - 2, "two undos took two orders back");
    assert_eq!(h.state().redo_label(), Some(before[before.len() - 2].as_str()));

    // Ctrl+Shift+Z redoes; it does not undo a third time.
    press_keys(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, egui::Key::Z);
    assert_eq!(log(&h).len(), before.len() - 1);
    press_keys(&mut h, Modifiers::COMMAND, egui::Key::Y);
    assert_eq!(log(&h), before, "redo rolled the same dice, the seeded and the typed-in");
    assert_eq!(h.state().message().unwrap().text, format!("Redone: {undo}"));
    assert_eq!(h.state().redo_label(), None);

    press_keys(&mut h, Modifiers::COMMAND, egui::Key::Z);
    assert!(h.state().redo_label().is_some());
    roll(&mut h, "a new order", DiceInput::Seeded);
    assert_eq!(h.state().redo_label(), None, "a new order ends what can be redone");
    send(&mut h, AppCommand::Redo);
    assert!(h.state().message().is_some_and(|m| m.is_error && m.text.starts_with("nothing to redo")));
}

/// a side's view is a hand-over. Another view, undo and the referee's rolls wait on a
/// screen that shows nothing of the campaign until the referee takes it back — with the
/// passphrase when one is set — and then they are done.
#[test]
fn x_01_a_side_s_view_is_handed_back_only_to_the_referee() {
    let (_dir, mut h) = night("umpire");
    roll(&mut h, "omens", DiceInput::Seeded);
    send(&mut h, AppCommand::SetPassphrase(Some("hoplite".into())));
    let stored = h.state().store().setting("hand_back_passphrase").unwrap().unwrap();
    assert!(stored.starts_with("sha256:") && !stored.contains("hoplite"), "only a salted hash is kept");

    send(&mut h, AppCommand::SetViewer(Viewer::Side(SideId::new("syracuse"))));
    assert!(label_exists(&h, "Handed over to Syracuse"));
    assert!(h.query_by_label("View as").is_none(), "a side has no choice of view");
    assert!(h.query_by_label("typed-in values").is_none(), "nor typed-in dice");
    let head = h.state().campaign().unwrap().head;

    for asked in [
        AppCommand::Undo,
        AppCommand::RollDice { dice: DiceSpec::D6, purpose: "x".into(), side: None, hidden: false, input: DiceInput::Seeded },
        AppCommand::SetViewer(Viewer::Side(SideId::new("carthage"))),
        AppCommand::ShowPicker(true),
    ] {
        send(&mut h, asked.clone());
        assert!(h.state().asking_for_referee(), "{asked:?} asks for the referee");
        assert!(label_exists(&h, "Hand the screen back to the referee"));
        for campaign in ["Log", "Syracuse army", "Dionysius", "Night ·"] {
            assert!(!label_exists(&h, campaign), "the hand-back screen shows nothing of the campaign: {campaign}");
        }
        click(&mut h, "Stay in Syracuse's view");
        assert!(!h.state().asking_for_referee());
        assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("syracuse"))));
        assert_eq!(h.state().campaign().unwrap().head, head, "nothing was done");
    }

    // Undo waits; a wrong passphrase keeps the screen; the right one gives it back and undoes.
    press_keys(&mut h, Modifiers::COMMAND, egui::Key::Z);
    assert!(h.state().asking_for_referee());
    assert!(h.get_by_label("Referee's passphrase").accesskit_node().is_focused(), "the passphrase field waits with the cursor in it");
    send(&mut h, AppCommand::HandBack { passphrase: "peltast".into() });
    assert!(h.state().asking_for_referee());
    assert!(label_exists(&h, "that is not the referee's passphrase"));
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("syracuse"))));
    fill(&mut h, &[("Referee's passphrase", "hoplite")]);
    click(&mut h, "I am the referee: show the umpire's view");
    assert_eq!(h.state().viewer(), Some(&Viewer::Umpire));
    assert_eq!(h.state().campaign().unwrap().head, head - 1, "the undo that waited is done");
    let said = h.state().message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(said.starts_with("Undone: d6 = ") && said.ends_with("for omens"), "{said}");
}

/// without a passphrase, the confirmation alone hands the screen back; the umpire's
/// own view never asks.
#[test]
fn x_01_without_a_passphrase_a_confirmation_hands_back() {
    let (_dir, mut h) = night("carthage");
    assert!(h.query_by_label("Referee's passphrase").is_none());
    click(&mut h, "Hand back to the referee…");
    assert!(h.query_by_label("Referee's passphrase").is_none(), "no passphrase is set");
    click(&mut h, "I am the referee: show the umpire's view");
    assert_eq!(h.state().viewer(), Some(&Viewer::Umpire));
    send(&mut h, AppCommand::SetViewer(Viewer::Side(SideId::new("syracuse"))));
    assert!(!h.state().asking_for_referee(), "the umpire hands over without asking");
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("syracuse"))));
}

/// a refused order appears in the log marked as not stored; its red line under the log
/// goes once the next order is stored.
#[test]
fn x_03_refusals_are_in_the_log_and_the_error_line_goes_with_the_next_order() {
    let (_dir, mut h) = night("umpire");
    let no_purpose =
        AppCommand::RollDice { dice: DiceSpec::D6, purpose: String::new(), side: None, hidden: false, input: DiceInput::Seeded };
    send(&mut h, no_purpose);
    assert!(label_exists(&h, "refused, not stored: every roll needs a purpose for the log"));
    assert!(!label_exists(&h, "X-02"), "the program's own requirement IDs are not the referee's business");
    assert!(h.state().message().is_some_and(|m| m.is_error));
    roll(&mut h, "omens", DiceInput::Seeded);
    assert!(h.state().message().is_none_or(|m| !m.is_error), "the error line went");
    assert!(label_exists(&h, "refused, not stored"), "the refusal stays in the log where it happened");
    send(&mut h, AppCommand::SetViewer(Viewer::Side(SideId::new("syracuse"))));
    assert!(!label_exists(&h, "refused, not stored"), "the umpire's refusals are not a side's to read");
}

/// The window's title names the campaign and the file; the log panel's height is kept in the
/// file for the next time.
#[test]
fn x_03_the_title_names_the_campaign_and_the_log_keeps_its_height() {
    let (_dir, mut h) = night("umpire");
    assert_eq!(h.state().window_title(), "Night — club.sqlite — referee");
    send(&mut h, AppCommand::KeepLogHeight(260.0));
    assert_eq!(h.state().store().setting("log_panel_height").unwrap().as_deref(), Some("260"));
}

/// every side reads the commitment to the seed under the log; a side cannot try seeds
/// against it before the referee reveals the seed; once revealed, anyone checks the rolls.
#[test]
fn x_02_the_dice_window_publishes_the_commitment_and_checks_a_revealed_seed() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "syracuse");
    let store = Store::open(&db).unwrap();
    let commitment = store.commitment(store.find("Night").unwrap()).unwrap().unwrap();
    assert!(label_exists(&h, &format!("Dice · commitment {}", commitment.short())), "a side reads the commitment");

    click(&mut h, &format!("Dice · commitment {} …", commitment.short()));
    assert!(label_exists(&h, &commitment.digest));
    assert!(label_exists(&h, "The seed is still the referee's secret."));
    assert!(h.query_by_label("Seed to check").is_none(), "no seeds tried before the reveal");
    send(&mut h, AppCommand::VerifySeed(5));
    assert!(h.state().message().is_some_and(|m| m.is_error && m.text.contains("once the referee has revealed the seed")));

    // Revealing is the referee's: it waits for the hand-back, then is done.
    send(&mut h, AppCommand::RevealSeed);
    assert!(h.state().asking_for_referee());
    send(&mut h, AppCommand::HandBack { passphrase: String::new() });
    h.state_mut().send(AppCommand::SetViewer(Viewer::Side(SideId::new("syracuse"))));
    send(&mut h, AppCommand::ShowDice(true));
    assert!(label_exists(&h, "seed 5, salt "), "revealed: every side may read the seed");
    let field = h.get_by_label("Seed to check");
    assert_eq!(field.value().as_deref(), Some("5"), "the revealed seed is filled in for the check");
    click(&mut h, "Check the rolls");
    assert!(label_exists(&h, "The seed opens the commitment published at the start"));
}

/// MG-03: a side's roster goes out as JSON and comes back into another campaign; a file of
/// another side's roster is refused in words. Escape closes the roster editor.
#[test]
fn mg_03_a_roster_is_exported_and_imported_and_escape_closes_the_editor() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "umpire");
    let file = dir.path().join("syracuse-roster.json");
    send(&mut h, MagnaGraeciaCommand::ExportRoster { side: SideId::new("syracuse"), path: file.clone() });
    let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["side"], "syracuse");

    // A leaner Syracuse: its last command dropped, as another referee might send it.
    let mut lean = written.clone();
    lean["commands"].as_array_mut().unwrap().pop();
    let lean_file = dir.path().join("lean.json");
    std::fs::write(&lean_file, lean.to_string()).unwrap();
    let head = h.state().campaign().unwrap().head;
    send(&mut h, MagnaGraeciaCommand::ImportRoster { side: SideId::new("syracuse"), path: lean_file.clone() });
    assert!(h.state().message().is_some_and(|m| !m.is_error), "{:?}", h.state().message());
    assert_eq!(h.state().campaign().unwrap().head, head + 1);
    let commands = |h: &Harness<'_, RefereeApp>| h.state().campaign().unwrap().state.armies[&SideId::new("syracuse")].commands.len();
    assert_eq!(commands(&h), written["commands"].as_array().unwrap().len() - 1);

    send(&mut h, MagnaGraeciaCommand::ImportRoster { side: SideId::new("carthage"), path: lean_file });
    assert!(h.state().message().is_some_and(|m| m.is_error && m.text.ends_with("holds Syracuse's roster, not Carthage's")));
    assert_eq!(h.state().campaign().unwrap().head, head + 1, "nothing stored");

    send(&mut h, MagnaGraeciaCommand::EditRoster(Some(SideId::new("carthage"))));
    assert!(h.state().roster_editor().is_some());
    press_key(&mut h, egui::Key::Escape);
    assert!(h.state().roster_editor().is_none(), "Escape closes the editor");
}

/// Another database file opens in place of this one, its campaigns in the picker; the
/// recent list keeps both; each campaign keeps its own pack folder; Quit is asked of the
/// window.
#[test]
fn x_03_another_database_opens_and_the_recent_list_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let other = dir.path().join("other.sqlite");
    let mut store = Store::open(&other).unwrap();
    store.create_as::<MagnaGraecia>("Elsewhere", Catalog::embedded().scenario("pyrrhic").unwrap(), 3).unwrap();
    drop(store);
    let list = dir.path().join("recent.txt");
    let app = RefereeApp::open_db(&db, Catalog::embedded(), None, Some("Night"), None).unwrap().with_recent_file(list.clone());
    let mut h = opened(app);

    let mut settings = referee::gui::PackSettings::new("Night");
    settings.folder = dir.path().join("night-packs").display().to_string();
    send(&mut h, MagnaGraeciaCommand::WritePack { battle: 99, settings });

    send(&mut h, AppCommand::OpenDatabase(other.clone()));
    assert_eq!(h.state().campaign_name(), None);
    assert_eq!(h.state().window_title(), "other.sqlite — referee");
    assert!(label_exists(&h, "Elsewhere"));
    let recent = h.state().recent_databases().to_vec();
    assert_eq!(recent.len(), 2);
    assert!(recent[0].ends_with("other.sqlite") && recent[1].ends_with("club.sqlite"));
    assert_eq!(std::fs::read_to_string(&list).unwrap().lines().count(), 2, "the list is kept for next time");

    h.state_mut().send(AppCommand::OpenDatabase(dir.path().join("club.sqlite")));
    send(&mut h, AppCommand::OpenCampaign("Night".into()));
    let kept = Store::open(&db).unwrap().setting("pack_folder/1").unwrap();
    assert!(kept.is_some_and(|f| f.ends_with("night-packs")), "the campaign keeps its pack folder");

    send(&mut h, AppCommand::OpenDatabase(dir.path().join("missing").join("no.sqlite")));
    assert!(h.state().message().is_some_and(|m| m.is_error));
    assert_eq!(h.state().campaign_name(), Some("Night"), "a file that cannot be opened leaves this one open");
    assert!(!h.state().quit_asked());
    send(&mut h, AppCommand::Quit);
    assert!(h.state().quit_asked());
}

/// Asks the window to close, as its close button does, and draws one frame.
fn close_window(h: &mut Harness<'_, RefereeApp>) -> bool {
    h.input_mut().viewports.entry(egui::ViewportId::ROOT).or_default().events.push(egui::ViewportEvent::Close);
    h.step();
    let cancelled =
        h.output().viewport_output.get(&egui::ViewportId::ROOT).is_some_and(|v| v.commands.contains(&egui::ViewportCommand::CancelClose));
    h.run();
    cancelled
}

/// the window's close button does not end a hand-over. In a side's view it brings up
/// the hand-back screen, and the window stays until the referee takes it back and closes it;
/// in the umpire's view it closes at once.
#[test]
fn x_01_closing_the_window_goes_through_the_hand_back_screen() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "syracuse");
    assert!(close_window(&mut h), "the close is cancelled in a side's view");
    assert!(h.state().asking_for_referee());
    assert!(label_exists(&h, "closing the program"));
    assert!(!h.state().quit_asked());
    click(&mut h, "Stay in Syracuse's view");
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("syracuse"))));
    assert!(close_window(&mut h), "and again");
    click(&mut h, "I am the referee: show the umpire's view");
    assert_eq!(h.state().viewer(), Some(&Viewer::Umpire));
    assert!(h.state().quit_asked(), "the referee's close goes through");
    drop(h);
    let mut h = open(&db, "umpire");
    assert!(!close_window(&mut h), "the umpire's window closes at once");
}

/// a hand-over is kept in the file: a window closed by force, a crash or a kill in a
/// side's view opens again on the hand-back screen, showing nothing of the campaign, and what
/// was asked for at the start waits for the referee. Opened again as the same side, the
/// hand-over goes on.
#[test]
fn x_01_a_hand_over_outlives_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let h = open(&db, "carthage");
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("carthage"))));
    drop(h); // killed: no hand-back
    let store = Store::open(&db).unwrap();
    let id = store.find("Night").unwrap();
    assert_eq!(store.setting("handed_over").unwrap(), Some(format!("{}:carthage", id.0)));
    drop(store);

    // Started again with nothing asked: the hand-back screen.
    let app = RefereeApp::open_db(&db, Catalog::embedded(), Some(World::embedded()), None, None).unwrap();
    let h = opened(app);
    assert!(h.state().asking_for_referee());
    assert!(label_exists(&h, "Hand the screen back to the referee"));
    assert!(label_exists(&h, "the program was closed while the screen was handed over"));
    for campaign in ["Log", "Carthage army", "Night ·"] {
        assert!(!label_exists(&h, campaign), "the hand-back screen shows nothing of the campaign: {campaign}");
    }
    drop(h);

    // Started again as the umpire: that waits for the referee too.
    let mut h = open(&db, "umpire");
    assert!(h.state().asking_for_referee(), "the umpire's view is the referee's to take");
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("carthage"))));
    click(&mut h, "I am the referee: show the umpire's view");
    assert_eq!(h.state().viewer(), Some(&Viewer::Umpire));
    assert_eq!(Store::open(&db).unwrap().setting("handed_over").unwrap(), None, "the hand-over is over");
    drop(h);

    // Handed to Syracuse and opened again as Syracuse: nothing to ask.
    let h = open(&db, "syracuse");
    drop(h);
    let h = open(&db, "syracuse");
    assert!(!h.state().asking_for_referee());
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("syracuse"))));
}

/// the first hand-over of a file with no passphrase offers to set one; set, it guards
/// the hand-back; declined, it is not offered again.
#[test]
fn x_01_the_first_hand_over_offers_a_passphrase() {
    let (_dir, mut h) = night("umpire");
    send(&mut h, AppCommand::HandOver(Some(SideId::new("syracuse"))));
    assert!(label_exists(&h, "Hand the screen over"));
    assert_eq!(h.state().viewer(), Some(&Viewer::Umpire), "nothing is handed over before the referee answers");
    fill(&mut h, &[("Passphrase", "phalanx"), ("Again", "phalanx")]);
    click(&mut h, "Set it and hand over");
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("syracuse"))));
    assert!(h.state().store().setting("hand_back_passphrase").unwrap().is_some_and(|s| !s.contains("phalanx")));
    send(&mut h, AppCommand::SetViewer(Viewer::Umpire));
    assert!(h.query_by_label("Referee's passphrase").is_some(), "the hand-back now asks for it");
    drop(h);

    let (_other, mut h) = night("umpire");
    send(&mut h, AppCommand::HandOver(Some(SideId::new("carthage"))));
    click(&mut h, "Hand over without a passphrase");
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("carthage"))));
    send(&mut h, AppCommand::SetViewer(Viewer::Umpire));
    click(&mut h, "I am the referee: show the umpire's view");
    assert_eq!(h.state().viewer(), Some(&Viewer::Umpire));
    send(&mut h, AppCommand::HandOver(Some(SideId::new("carthage"))));
    assert!(!label_exists(&h, "Hand the screen over"), "declined once, not offered again");
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("carthage"))));
}

/// after the reveal, a side checks the rolls from its own log: its own and the
/// public rolls with their purposes, numbered as its log numbers them; the others' seeded
/// rolls only as stretches of the dice stream, checked all the same.
#[test]
fn x_02_a_side_checks_the_rolls_from_its_own_log() {
    let (_dir, mut h) = night("umpire");
    roll(&mut h, "omens", DiceInput::Seeded);
    let secret = |side: &str, purpose: &str| AppCommand::RollDice {
        dice: DiceSpec::D6,
        purpose: purpose.into(),
        side: Some(SideId::new(side)),
        hidden: true,
        input: DiceInput::Seeded,
    };
    h.state_mut().send(secret("carthage", "Himilco's scouts"));
    send(&mut h, secret("syracuse", "Leptines' spies"));
    send(&mut h, AppCommand::RevealSeed);
    let seed = h.state().store().load_as::<MagnaGraecia>(h.state().store().find("Night").unwrap()).unwrap().state.seed;
    h.state_mut().send(AppCommand::SetViewer(Viewer::Side(SideId::new("syracuse"))));
    h.state_mut().send(AppCommand::ShowDice(true));
    send(&mut h, AppCommand::VerifySeed(seed));
    assert!(label_exists(&h, "The seed opens the commitment published at the start"));
    assert!(label_exists(&h, "seeded rolls and draws that match the log: 3"), "the others' rolls are checked too");
    assert!(label_exists(&h, "Leptines' spies"), "its own roll, with its purpose");
    assert!(label_exists(&h, "omens"));
    assert!(!label_exists(&h, "Himilco"), "the other side's purpose is not told");
    assert!(label_exists(&h, "a roll you do not see: dice stream"), "only where it stands in the stream");
}

/// Every string drawn in the last frame.
fn drawn(h: &Harness<'_, RefereeApp>) -> String {
    referee::gui::drawn_texts(&h.output().shapes).into_iter().map(|(_, text)| text).collect::<Vec<_>>().join("\n")
}

/// the check a side makes reads the same whatever the other side's rolls were
/// for: two campaigns with the same seed whose Carthaginian secret rolls differ in purpose,
/// and one of which has a Carthaginian roll typed in besides, give Syracuse the same Dice
/// window, word for word.
#[test]
fn x_01_a_sides_check_of_the_rolls_says_nothing_of_the_others() {
    let windows: Vec<String> = [("Himilco's scouts", true), ("Mago's fleet count", false)]
        .into_iter()
        .map(|(purpose, typed)| {
            let (_dir, mut h) = night("umpire");
            roll(&mut h, "omens", DiceInput::Seeded);
            let secret = |purpose: &str, input: DiceInput| AppCommand::RollDice {
                dice: DiceSpec::D6,
                purpose: purpose.into(),
                side: Some(SideId::new("carthage")),
                hidden: true,
                input,
            };
            h.state_mut().send(secret(purpose, DiceInput::Seeded));
            if typed {
                h.state_mut().send(secret("a bribe at Motya", DiceInput::Manual(vec![6])));
            }
            h.run();
            roll(&mut h, "weather", DiceInput::Seeded);
            send(&mut h, AppCommand::RevealSeed);
            h.state_mut().send(AppCommand::SetViewer(Viewer::Side(SideId::new("syracuse"))));
            h.state_mut().send(AppCommand::ShowDice(true));
            send(&mut h, AppCommand::VerifySeed(5));
            let text = drawn(&h);
            let start = text.find("Commitment to the seed").expect("the Dice window is drawn");
            let commitment = h.state().store().commitment(h.state().store().find("Night").unwrap()).unwrap().unwrap();
            text[start..].replace(&commitment.digest, "<digest>").replace(&commitment.salt, "<salt>")
        })
        .collect();
    assert!(windows[0].contains("a roll you do not see"), "{}", windows[0]);
    assert_eq!(windows[0], windows[1], "Syracuse's check tells what the Carthaginians rolled for");
}

/// at the window's usual size the log shows at least six lines, the newest in full
/// sight above the dice form; a filter keeps the lines holding a word, a side or a rule, and
/// says how many of how many.
#[test]
fn x_03_the_log_shows_six_lines_and_filters_by_text_side_or_rule() {
    let (_dir, mut h) = night("umpire");
    for i in 1..=12 {
        roll(&mut h, &format!("omen {i:02}"), DiceInput::Manual(vec![3]));
    }
    // The log's rows stand above the dice form (the line under the form repeats the last
    // confirmation).
    let form = h.get_by_label("Roll for side").rect();
    let row = |i: u32| h.query_all_by_label_contains(&format!("for omen {i:02}")).map(|n| n.rect()).find(|r| r.max.y <= form.min.y);
    let shown = (1..=12).filter_map(row).filter(|r| r.height() > 0.0).count();
    assert!(shown >= 6, "only {shown} log lines in sight");
    let newest = row(12).expect("the newest line is in sight");
    assert!(newest.max.y <= form.min.y - 4.0, "the newest line is cut: {newest:?} above the form at {form:?}");

    fill(&mut h, &[("Filter", "OMEN 1")]);
    assert!(label_exists(&h, "3 of 13 lines hold “OMEN 1”"), "10, 11 and 12");
    assert!(h.query_all_by_label_contains("for omen 02").all(|n| n.rect().min.y > form.min.y), "a line without it is not shown");
    assert!(h.query_all_by_label_contains("for omen 11").any(|n| n.rect().max.y <= form.min.y));
    click(&mut h, "×");
    assert!(h.query_all_by_label_contains("for omen 05").any(|n| n.rect().max.y <= form.min.y), "cleared, every line is back");
}

/// Undo names an order that wrote several lines by what it was, then what it did; an
/// order of one line by that line.
#[test]
fn x_03_undo_names_an_order_of_several_lines_by_the_order() {
    use referee_campaign::magna_graecia::order::Order;
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    {
        let mut store = Store::open(&db).unwrap();
        let mut c = store.load_as::<MagnaGraecia>(store.find("Night").unwrap()).unwrap();
        let map = Catalog::embedded().map("sicily").unwrap().clone();
        for order in referee_campaign::fixtures::deploy_orders(&referee_campaign::fixtures::DIONYSIAN) {
            store.execute(&mut c, &map, &order, DiceInput::Seeded).unwrap();
        }
    }
    let mut h = open(&db, "umpire");
    send(&mut h, MagnaGraeciaCommand::Execute(Order::BeginPlay {}, DiceInput::Seeded));
    assert_eq!(h.state().undo_label().unwrap(), "Play begins: turn 1, Carthage to move — MG-09", "one line says it all");
    let carthage = SideId::new("carthage");
    let himilco = Order::Move { side: carthage.clone(), counter: "Himilco".into(), path: vec![referee_campaign::NodeId(8)] };
    send(&mut h, MagnaGraeciaCommand::Execute(himilco, DiceInput::Seeded));
    let before = log(&h).len();
    // Himilco stands with Leptines: the end of the phase raises a battle.
    send(&mut h, MagnaGraeciaCommand::Execute(Order::EndPhase { side: carthage }, DiceInput::Seeded));
    let written = log(&h).len() - before;
    assert!(written > 1, "ending a phase writes several lines: {:?}", &log(&h)[before..]);
    let undo = h.state().undo_label().unwrap();
    assert!(undo.starts_with("end Carthage's phase — "), "{undo}");
}

/// The map's legend stays as the referee left it: folded away, it is folded the next time
/// the campaign is opened, from the same file.
#[test]
fn x_05_the_legend_stays_folded_from_one_opening_to_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "umpire");
    assert_eq!(h.state().legend_folded(), Some(false), "the legend opens unfolded the first time");
    send(&mut h, MagnaGraeciaCommand::FoldLegend(true));
    assert_eq!(h.state().legend_folded(), Some(true));
    drop(h);
    let h = open(&db, "umpire");
    assert_eq!(h.state().legend_folded(), Some(true), "folded again when opened again");
}

/// the picker deletes a campaign after a second word, in its own row; the open one
/// deleted, the picker is left; a side's view asks for the referee first.
#[test]
fn x_03_the_picker_deletes_a_campaign_after_a_second_word() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    {
        let mut store = Store::open(&db).unwrap();
        store.create_as::<MagnaGraecia>("Day", Catalog::embedded().scenario("pyrrhic").unwrap(), 6).unwrap();
    }
    let mut h = open(&db, "umpire");
    send(&mut h, AppCommand::ShowPicker(true));
    click(&mut h, "Delete Day…");
    assert!(h.query_by_label("Delete Night for good").is_none(), "only the row asked about waits for the second word");
    click(&mut h, "Keep it");
    assert!(h.query_by_label("Delete Day for good").is_none(), "kept: the row is as it was");
    assert!(Store::open(&db).unwrap().find("Day").is_ok());
    click(&mut h, "Delete Day…");
    click(&mut h, "Delete Day for good");
    assert_eq!(h.state().message().unwrap().text, "Campaign “Day” deleted, with everything kept of it");
    assert!(Store::open(&db).unwrap().find("Day").is_err());
    assert_eq!(h.state().campaign_name(), Some("Night"), "the campaign on screen stays");

    // The campaign on screen: deleted, back to the picker.
    send(&mut h, AppCommand::DeleteCampaign("Night".into()));
    assert_eq!(h.state().campaign_name(), None);
    assert!(label_exists(&h, "No campaign yet: start one below."));

    // From a side's view, deleting waits for the referee.
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "syracuse");
    send(&mut h, AppCommand::DeleteCampaign("Night".into()));
    assert!(h.state().asking_for_referee());
    assert!(Store::open(&db).unwrap().find("Night").is_ok(), "nothing deleted before the referee is back");
}

/// UI.md, step 1: the window opens on the campaign on screen last time, whichever engine's,
/// with the picker a click away; a file with no such campaign (never opened, or deleted
/// since) opens on the picker.
#[test]
fn x_05_the_window_opens_on_the_last_campaign_used() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let setup = World::embedded().setup("africa-533").unwrap();
    Store::open(&db).unwrap().create_as::<referee_campaign::belisarius::Belisarius>("Africa", &setup, 3).unwrap();
    let fresh = || RefereeApp::open_db(&db, Catalog::embedded(), Some(World::embedded()), None, None).unwrap().open_last_used();
    assert_eq!(fresh().campaign_name(), None, "never opened: the picker");

    for name in ["Africa", "Night"] {
        let mut h = harness(fresh());
        send(&mut h, AppCommand::OpenCampaign(name.into()));
        drop(h);
        let mut h = opened(fresh());
        assert_eq!(h.state().campaign_name(), Some(name), "the next window opens on {name}");
        click(&mut h, "Campaign ▾");
        click(&mut h, "Open another campaign…");
        assert!(label_exists(&h, "New campaign"), "the picker is a click away");
    }
    let mut store = Store::open(&db).unwrap();
    let night = store.find("Night").unwrap();
    store.delete_campaign(night).unwrap();
    assert_eq!(fresh().campaign_name(), None, "the last campaign deleted: the picker");
}

/// the picker renames a campaign, the one on screen or another, by an order of its
/// log; a name another campaign has is refused in words and changes nothing; from a side's
/// view, renaming waits for the referee.
#[test]
fn x_03_the_picker_renames_a_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    Store::open(&db).unwrap().create_as::<MagnaGraecia>("Day", Catalog::embedded().scenario("pyrrhic").unwrap(), 6).unwrap();
    let mut h = open(&db, "umpire");
    // A roll of the campaign on screen, taken back: renaming another campaign leaves it to redo.
    roll(&mut h, "omens", DiceInput::Seeded);
    send(&mut h, AppCommand::Undo);
    assert!(h.state().redo_label().is_some());
    send(&mut h, AppCommand::ShowPicker(true));
    click(&mut h, "Rename Day…");
    h.get_by_label("The new name of Day").type_text(" II");
    h.run();
    click(&mut h, "Rename");
    assert_eq!(h.state().message().unwrap().text, "Campaign “Day” is called “Day II” from now on");
    assert!(Store::open(&db).unwrap().find("Day II").is_ok());
    assert!(label_exists(&h, "Rename Day II…"), "the list shows the new name");
    assert!(h.state().redo_label().is_some(), "another campaign's order leaves this one's redo");

    // The campaign on screen: its title follows.
    send(&mut h, AppCommand::RenameCampaign { campaign: "Night".into(), name: "Day II".into() });
    assert!(h.state().message().unwrap().text.contains("exists already"), "{:?}", h.state().message());
    assert_eq!(h.state().campaign_name(), Some("Night"));
    send(&mut h, AppCommand::RenameCampaign { campaign: "Night".into(), name: "Evening".into() });
    assert_eq!(h.state().campaign_name(), Some("Evening"));
    send(&mut h, AppCommand::Undo);
    assert_eq!(h.state().campaign_name(), Some("Night"), "undo gives the old name back");

    let mut h = open(&db, "syracuse");
    send(&mut h, AppCommand::RenameCampaign { campaign: "Night".into(), name: "Morning".into() });
    assert!(h.state().asking_for_referee());
    assert!(Store::open(&db).unwrap().find("Night").is_ok(), "nothing renamed before the referee is back");
}

/// Triangles and the area they cover in the last frame's drawing, as the window's painter
/// would get them; and every filled rectangle of more than `large` square points in `fill`.
fn drawing(h: &Harness<'_, RefereeApp>, fill: egui::Color32, large: f32) -> (usize, f32, Vec<egui::Rect>) {
    let shapes = h.output().shapes.clone();
    let grounds = shapes
        .iter()
        .filter_map(|s| match &s.shape {
            egui::Shape::Rect(r) if r.fill == fill && r.rect.area() > large => Some(r.rect),
            _ => None,
        })
        .collect();
    let primitives = h.ctx.tessellate(shapes, 1.0);
    let meshes = || {
        primitives.iter().filter_map(|p| match &p.primitive {
            egui::epaint::Primitive::Mesh(mesh) => Some(mesh),
            egui::epaint::Primitive::Callback(_) => None,
        })
    };
    let triangles = meshes().map(|mesh| mesh.indices.len() / 3).sum();
    // Every triangle's area: the pixels a frame paints, counted as often as they are painted.
    let painted = meshes()
        .flat_map(|mesh| {
            mesh.indices.chunks(3).map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize].pos);
                ((b - a).x * (c - a).y - (b - a).y * (c - a).x).abs() / 2.0
            })
        })
        .sum();
    (triangles, painted, grounds)
}

/// without a graphics card every triangle and every pixel of a frame is the
/// processor's, and the window draws three frames before it is up. Each campaign's desk at
/// its start, 1280×800, stays within a budget of triangles (egui's own circles and rounded
/// city squares came to 35,800 and 21,200; Magna Graecia's markers drawn as shapes, to
/// 31,400, and its names with eight copies each for a halo, to 11,700) and of pixels painted,
/// counted as often as they are painted (Sicily's sea painted under the island as well came
/// to 1.02 windows), and no panel paints the grey ground the window is cleared to, not even
/// the test window's own frame around the app: egui's panels are left unfilled for the whole
/// window.
#[test]
fn x_05_a_desk_is_drawn_in_few_triangles_on_a_ground_left_unpainted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.sqlite");
    let mut store = Store::open(&db).unwrap();
    store.create_as::<MagnaGraecia>("Sicily", Catalog::embedded().scenario("dionysian").unwrap(), 5).unwrap();
    let setup = World::embedded().setup("italy-535").unwrap();
    store.create_as::<referee_campaign::belisarius::Belisarius>("Italy", &setup, 4).unwrap();
    drop(store);
    for (name, budget, pixels) in [("Sicily", 8_000, 0.85), ("Italy", 17_000, 0.7)] {
        let app = RefereeApp::open_db(&db, Catalog::embedded(), Some(World::embedded()), Some(name), None).unwrap();
        let mut h = opened(app);
        support::take_back(&mut h);
        assert_eq!(h.state().campaign_name(), Some(name));
        // The light theme's panel grey, which the window is cleared to.
        let grey = egui::Visuals::light().panel_fill;
        // A tenth of the window: any panel's ground would be larger.
        let (triangles, painted, grounds) = drawing(&h, grey, 1280.0 * 800.0 / 10.0);
        assert!(triangles <= budget, "{name}: {triangles} triangles against a budget of {budget}");
        let windows = painted / (1280.0 * 800.0);
        assert!(windows <= pixels, "{name}: {windows:.2} windows of pixels painted against a budget of {pixels}");
        assert!(grounds.is_empty(), "{name}: grey grounds painted over the cleared window: {grounds:?}");
    }
}
