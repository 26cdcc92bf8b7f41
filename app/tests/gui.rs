//! The app's window driven headless with egui_kittest: widgets are found by their labels
//! and clicked, as a referee would.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use referee::gui::RefereeApp;
use referee_campaign::{Catalog, Command, DiceInput, DiceSpec, Store};

fn harness(app: RefereeApp) -> Harness<'static, RefereeApp> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app)
}

/// A database holding one Dionysian War campaign called "Smoke", with a secret roll and
/// a public one in its log.
fn database_with_campaign(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("referee.sqlite");
    let mut store = Store::open(&path).unwrap();
    let catalog = Catalog::embedded();
    let scenario = catalog.scenario("dionysian").unwrap();
    let map = catalog.map(&scenario.map).unwrap();
    let mut campaign = store.create("Smoke", scenario, 42).unwrap();
    for (purpose, hidden) in [("storm at sea", true), ("omens", false)] {
        let roll = Command::RollDice {
            dice: DiceSpec::D6,
            purpose: purpose.into(),
            side: None,
            hidden,
            modifiers: vec![],
        };
        store.execute(&mut campaign, map, &roll, DiceInput::Seeded).unwrap();
    }
    path
}

fn label_exists(h: &Harness<'_, RefereeApp>, text: &str) -> bool {
    h.query_by_label_contains(text).is_some()
}

/// the picker starts a campaign from a scenario and the map opens on turn 1.
#[test]
fn x_05_a_campaign_is_created_from_the_picker() {
    let dir = tempfile::tempdir().unwrap();
    let app = RefereeApp::open_db(&dir.path().join("new.sqlite"), Catalog::embedded(), None, None).unwrap();
    let mut h = harness(app);
    h.run();
    assert!(label_exists(&h, "No campaign yet"), "the picker shows an empty database");

    h.get_by_label("Scenario").click();
    h.run();
    h.get_by_label("Dionysian War (398–367 BC)").click();
    h.run();
    assert_eq!(h.get_by_role_and_label(Role::TextInput, "Name").value().as_deref(), Some("Dionysian War 1"));
    h.get_by_label("Create").click();
    h.run();

    let names: Vec<String> = h.state().store().campaigns().unwrap().into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["Dionysian War 1"]);
    assert_eq!(h.state().campaign().map(|c| c.state.name.as_str()), Some("Dionysian War 1"));
    assert!(
        label_exists(&h, "Dionysian War 1 · Dionysian War · Turn 1 of 18 · Carthage: movement"),
        "the top bar names the campaign, turn and moving side"
    );
    assert!(h.state().message().is_none_or(|m| !m.is_error));
}

/// a refused creation is one sentence on screen, and nothing is written.
#[test]
fn x_05_creating_a_campaign_twice_under_one_name_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_campaign(&dir);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), None, None).unwrap();
    let mut h = harness(app);
    h.run();
    let name = h.get_by_role_and_label(Role::TextInput, "Name");
    name.focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::TextInput, "Name").type_text("Smoke");
    h.run();
    assert_eq!(h.get_by_role_and_label(Role::TextInput, "Name").value().as_deref(), Some("Smoke"));
    h.get_by_label("Create").click();
    h.run();
    assert!(label_exists(&h, "a campaign named `Smoke` exists already"), "the refusal is shown");
    assert_eq!(h.state().store().campaigns().unwrap().len(), 1);
    assert!(h.state().campaign().is_none());
}

/// "View as" a side draws only that side's view.
#[test]
fn x_01_viewing_as_a_side_hides_the_other_sides_forces_and_secret_rolls() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_campaign(&dir);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), Some("Smoke"), None).unwrap();
    let mut h = harness(app);
    h.run();

    // The umpire sees both sides' forces and every roll.
    for text in ["Carthage army: 500 points", "Carthage fleet: 20 NP", "Syracuse army: 500 points", "Dice seed: 42"] {
        assert!(label_exists(&h, text), "umpire view shows {text}");
    }
    assert!(label_exists(&h, "for storm at sea (secret)"));
    assert!(label_exists(&h, "for omens"));

    h.get_by_label("View as").click();
    h.run();
    h.get_by_label("Syracuse").click();
    h.run();

    assert_eq!(h.state().viewer(), Some(&referee_campaign::Viewer::Side(referee_campaign::SideId::new("syracuse"))));
    assert!(label_exists(&h, "Syracuse army: 500 points"));
    assert!(label_exists(&h, "Syracuse fleet: 20 NP"));
    for hidden in ["Carthage army", "Carthage fleet", "Dice seed", "storm at sea"] {
        assert!(!label_exists(&h, hidden), "Syracuse's view must not show {hidden}");
    }
    assert!(label_exists(&h, "for omens"), "public rolls stay in the log");
    assert!(label_exists(&h, "Turn 1 of 18"));
}

/// rolls from the app are logged, typed-in ones marked, refusals change nothing.
#[test]
fn x_02_a_roll_is_logged_refused_rolls_change_nothing_and_undo_takes_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_campaign(&dir);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), Some("Smoke"), Some("umpire")).unwrap();
    let mut h = harness(app);
    h.run();
    let head = h.state().campaign().unwrap().head;

    // No purpose: the rules refuse it, with the rule's ID.
    h.get_by_role_and_label(Role::Button, "Roll").click();
    h.run();
    assert!(label_exists(&h, "every roll needs a purpose for the log — X-02"));
    assert_eq!(h.state().campaign().unwrap().head, head);

    h.get_by_label("for").focus();
    h.get_by_label("for").type_text("alliance of Leontini");
    h.get_by_label("typed-in values").focus();
    h.get_by_label("typed-in values").type_text("4");
    h.run();
    h.get_by_role_and_label(Role::Button, "Roll").click();
    h.run();
    assert_eq!(h.state().campaign().unwrap().head, head + 1);
    assert!(label_exists(&h, "d6 = 4 [typed in] for alliance of Leontini"));

    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(h.state().campaign().unwrap().head, head);
    assert!(!label_exists(&h, "d6 = 4 [typed in] for alliance of Leontini"), "the undone roll leaves the log");
    assert!(label_exists(&h, "Undone: roll d6 for alliance of Leontini"));
}
