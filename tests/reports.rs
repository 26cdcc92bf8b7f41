//! turn reports and charts from the window. At a turn's end the umpire's window offers
//! every side's report; one click writes them; the Charts window shows a side its own
//! curves and what is public; a side's view asks for the referee before any report.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use referee::gui::{AppCommand, RefereeApp};
use referee_campaign::core::history::Measure;
use referee_campaign::{Store, magna_graecia::catalog::Catalog};
use referee_e2e::play::play_into;

fn harness(app: RefereeApp) -> Harness<'static, RefereeApp> {
    Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app)
}

fn label_exists(h: &Harness<'_, RefereeApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// Every string drawn in the last frame.
fn drawn_text(h: &Harness<'_, RefereeApp>) -> String {
    referee_e2e::drawn_text(&h.output().shapes).join("\n")
}

/// A Dionysian War played by the random player until its second turn begins.
fn database(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("club.sqlite");
    drop(play_into(Store::open(&path).unwrap(), "Night", "dionysian", 4, 2));
    path
}

fn open(db: &std::path::Path, view_as: &str) -> Harness<'static, RefereeApp> {
    let app = RefereeApp::open_db(db, Catalog::embedded(), None, Some("Night"), Some(view_as)).unwrap();
    let mut h = harness(app);
    h.run();
    h
}

#[test]
fn x_04_a_turns_end_offers_every_sides_report_and_one_click_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "umpire");
    assert!(!label_exists(&h, "Turn reports"), "opening a campaign is no turn's end");
    // Back into turn 1 and on again: the order that ends the turn.
    h.state_mut().send(AppCommand::Undo);
    h.run();
    assert!(!label_exists(&h, "is over"));
    h.state_mut().send(AppCommand::Redo);
    h.run();
    assert!(label_exists(&h, "Turn 1 is over."), "the Turn reports window opens at the turn's end");
    let out = dir.path().join("reports");
    h.state_mut().send(AppCommand::WriteReports { folder: out.display().to_string() });
    h.run();
    let mut names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["night-turn-02-side-carthage.pdf", "night-turn-02-side-syracuse.pdf", "night-turn-02-umpire.pdf"]);
    assert!(label_exists(&h, "night-turn-02-side-syracuse.pdf") && label_exists(&h, "Open folder"), "the files are listed");
    let syracuse =
        referee_battle_gen::pdf::extract_text(&std::fs::read(out.join("night-turn-02-side-syracuse.pdf")).unwrap()).unwrap().join("\n");
    assert!(syracuse.contains("Turn 2 report for Syracuse") && syracuse.contains("Syracuse's forces"), "{syracuse}");
    assert!(!syracuse.contains("Carthage's forces"), "{syracuse}");

    // The umpire's charts hold every side's strength.
    h.state_mut().send(AppCommand::ShowReports(false));

    h.state_mut().send(AppCommand::ShowCharts(true));
    h.run();
    let drawn = drawn_text(&h);
    assert!(drawn.contains("Strength (elements)") && drawn.contains("Carthage") && drawn.contains("Syracuse"), "{drawn}");
}

#[test]
fn x_04_a_side_sees_its_own_charts_and_asks_the_referee_for_reports() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "syracuse");
    h.state_mut().send(AppCommand::ShowReports(true));
    h.run();
    assert!(h.state().asking_for_referee(), "reports are the referee's");
    assert!(label_exists(&h, "This needs the referee: the turn reports."), "the hand-back screen says why");
    h.state_mut().send(AppCommand::AskReferee(None));
    h.run();
    h.state_mut().send(AppCommand::ShowCharts(true));
    h.run();
    let drawn = drawn_text(&h);
    assert!(drawn.contains("as Syracuse may know it") && drawn.contains("Strength (elements)"), "{drawn}");
    // Syracuse's own strength and losses only; every side's victory points, which are public.
    let charts = h.state().charts_shown().unwrap();
    let sides = |m: Measure| -> Vec<String> {
        charts.iter().find(|c| c.measure == m).unwrap().series.iter().map(|s| s.side.as_ref().unwrap().to_string()).collect()
    };
    assert_eq!(sides(Measure::Strength), ["syracuse"], "Carthage's strength reached Syracuse");
    assert_eq!(sides(Measure::Losses), ["syracuse"]);
    assert_eq!(sides(Measure::VictoryPoints), ["carthage", "syracuse"]);
}

/// a turn that ends in a side's view (the player pressed End phase) offers its reports
/// once the referee has the screen back, not on the player's screen.
#[test]
fn x_04_a_turn_ended_in_a_sides_view_offers_its_reports_to_the_referee() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir);
    let mut h = open(&db, "umpire");
    h.state_mut().send(AppCommand::Undo);
    h.run();
    let mover = h.state().campaign().unwrap().state.moving_side().clone();
    h.state_mut().send(AppCommand::SetViewer(referee_campaign::Viewer::Side(mover.clone())));
    h.run();
    h.state_mut().send(referee::gui::MagnaGraeciaCommand::Execute(
        referee_campaign::magna_graecia::order::Order::EndPhase { side: mover },
        referee_campaign::DiceInput::Seeded,
    ));
    h.run();
    assert_eq!(h.state().campaign().unwrap().state.turn, 2, "the player's End phase ended the turn");
    assert!(!label_exists(&h, "is over"), "not on the player's screen");
    h.state_mut().send(AppCommand::SetViewer(referee_campaign::Viewer::Umpire));
    h.run();
    h.state_mut().send(AppCommand::HandBack { passphrase: String::new() });
    h.run();
    assert!(label_exists(&h, "Turn 1 is over."), "offered once the referee has the screen");
}
