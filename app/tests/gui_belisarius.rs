//! A Belisarius campaign in the app's window, driven headless: it opens on its zone map with
//! the Tables of Organisation and the reconstruction notice, and a side's view shows the
//! other side only as face-down markers (BE-53).

mod support;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use referee::gui::{AppCommand, BelisariusCommand, RefereeApp};
use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::{SideId, Store, Viewer, magna_graecia::catalog::Catalog};
use support::{
    assert_greyed_out_saying_why, click, click_containing, click_in_view, harness, hover, label_exists, no_error, opened, replace_text,
    roll_typed_in, send, set_value, take_back,
};

/// A database with one Reconquest of Africa campaign called "Africa", nothing given yet.
fn database_with_africa(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("referee.sqlite");
    let mut store = Store::open(&path).unwrap();
    let setup = World::embedded().setup("africa-533").unwrap();
    store.create_as::<Belisarius>("Africa", &setup, 3).unwrap();
    path
}

/// The campaign "Africa" of `db` as stored, and the store to give it orders.
fn stored_africa(db: &std::path::Path) -> (Store, referee_campaign::Campaign<Belisarius>) {
    let store = Store::open(db).unwrap();
    let c = store.load_as::<Belisarius>(store.find("Africa").unwrap()).unwrap();
    (store, c)
}

/// The campaign "Africa" of `db` in the referee's window as it opens, seen as `view_as` or
/// by the umpire.
fn open_africa(db: &std::path::Path, view_as: Option<&str>) -> Harness<'static, RefereeApp> {
    opened(RefereeApp::open_db(db, Catalog::embedded(), Some(World::embedded()), Some("Africa"), view_as).unwrap())
}

/// BE-53: the umpire reads both Tables of Organisation; the Byzantines read only theirs.
#[test]
fn be_53_a_belisarius_campaign_opens_on_its_map_and_a_side_sees_only_its_own_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_africa(&dir);
    let mut h = open_africa(&db, None);
    assert_eq!(h.state().campaign_name(), Some("Africa"));
    assert!(label_exists(&h, "Reconstructed map and tables"));
    assert!(label_exists(&h, "Table of Organisation — Byzantines"), "the umpire reads the Byzantine table");
    assert!(label_exists(&h, "Table of Organisation — Vandals"), "the umpire reads the Vandal table");
    assert!(label_exists(&h, "Gelimer"));

    send(&mut h, AppCommand::SetViewer(Viewer::Side(SideId::new("byzantines"))));
    assert!(label_exists(&h, "Table of Organisation — Byzantines"));
    assert!(label_exists(&h, "Belisarius"));
    for hidden in ["Table of Organisation — Vandals", "Gelimer", "Ammatas", "Tzazon"] {
        assert!(!label_exists(&h, hidden), "the Byzantines must not read {hidden}");
    }
    let view = h.state().belisarius_view().unwrap();
    assert!(view.board().markers.iter().filter(|m| m.side.as_str() == "vandals").all(|m| m.face.is_none()));
}

/// The picker offers the Belisarius scenarios beside Magna Graecia's and starts one.
#[test]
fn be_49_the_picker_starts_a_belisarius_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let app = RefereeApp::open_db(&dir.path().join("new.sqlite"), Catalog::embedded(), Some(World::embedded()), None, None).unwrap();
    let mut h = opened(app);
    send(&mut h, AppCommand::CreateCampaign { scenario: "italy-535".into(), name: "Italy".into(), seed: Some(4) });
    assert_eq!(h.state().campaign_name(), Some("Italy"));
    assert!(label_exists(&h, "Table of Organisation — Ostrogoths"));
    let campaigns = h.state().store().campaigns().unwrap();
    assert_eq!(campaigns.len(), 1);
    assert_eq!(campaigns[0].engine.key(), "belisarius");
}

/// BE-49, X-02: the umpire places the Byzantine fleets in the sea beside northern Byzacium
/// from the panel, begins play, rolls from the shell's dice form and undoes the roll.
#[test]
fn be_49_set_up_is_finished_in_the_app() {
    use referee_campaign::belisarius::map::SeaId;
    use referee_campaign::belisarius::state::{Location, Phase};
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_africa(&dir);
    let mut h = open_africa(&db, None);
    // The rules are asked before the button is drawn: with a line unplaced it is greyed out.
    use egui_kittest::kittest::NodeT as _;
    assert!(h.get_by_label("Begin play").accesskit_node().is_disabled(), "play cannot begin with a line unplaced");
    send(&mut h, BelisariusCommand::SelectPlace(Some(Location::Sea(SeaId::new("ionium")))));
    click(&mut h, "Place the whole line of line 1 at Ionian Sea");
    assert!(label_exists(&h, "BE-49"), "the Ionian Sea is not next to northern Byzacium");
    send(&mut h, BelisariusCommand::SelectPlace(Some(Location::Sea(SeaId::new("mare-africum")))));
    click(&mut h, "Place the whole line of line 1 at African Sea");
    click(&mut h, "Begin play");
    assert_eq!(h.state().belisarius_view().unwrap().board().phase, Phase::Play);

    roll_typed_in(&mut h, "desertions", "3");
    assert!(label_exists(&h, "d6 = 3 [typed in] for desertions"));
    click(&mut h, "Undo");
    let log = h.state().belisarius_view().unwrap().log();
    assert!(!log.iter().any(|l| l.text.contains("for desertions")), "the undone roll leaves the log");
    assert_eq!(h.state().message().unwrap().text, "Undone: d6 = 3 [typed in] for desertions");
    click(&mut h, "Redo");
    assert!(h.state().belisarius_view().unwrap().log().iter().any(|l| l.text.contains("d6 = 3 [typed in] for desertions")));
}

/// X-04, BE-53: a Belisarius side's Charts window holds its own combat points and what each
/// side holds on the map, never the other side's strength; the umpire's holds both.
#[test]
fn x_04_a_belisarius_sides_charts_hold_its_own_strength_only() {
    use referee_campaign::core::history::Measure;
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_africa(&dir);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), Some(World::embedded()), Some("Africa"), Some("vandals")).unwrap();
    let mut h = harness(app);
    send(&mut h, AppCommand::ShowCharts(true));
    let sides = |h: &Harness<'_, RefereeApp>, m: Measure| -> Vec<String> {
        let charts = h.state().charts_shown().expect("the Charts window is open");
        charts.iter().find(|c| c.measure == m).unwrap().series.iter().map(|s| s.side.as_ref().unwrap().to_string()).collect()
    };
    assert_eq!(sides(&h, Measure::Strength), ["vandals"]);
    assert_eq!(sides(&h, Measure::Held), ["byzantines", "vandals"]);
    assert!(label_exists(&h, "as Vandals may know it"));
    drop(h);
    let mut h = open_as(&db, None);
    send(&mut h, AppCommand::ShowCharts(true));
    assert_eq!(sides(&h, Measure::Strength), ["byzantines", "vandals"]);
    // At the start every series has one sample: a small table, a row a side, a column a turn.
    assert!(label_exists(&h, "turn 0"), "a chart of one sample a series is a table");
    let held = h.state().charts_shown().unwrap().iter().find(|c| c.measure == Measure::Held).unwrap().clone();
    let zones = held.series[0].points[0].1;
    assert!(label_exists(&h, &format!("{zones:.0}")));
}

/// The supply phase with seeded dice, each side taking what it owes as the program suggests.
fn supply_phase(store: &mut Store, c: &mut referee_campaign::Campaign<Belisarius>) {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    // Africa's one event roll, a 7: event N, which it does not allow (BE-47).
    if referee_campaign::belisarius::random_events::pending(&c.state) {
        store.execute(c, &(), &Order::PlayEvents {}, DiceInput::Manual(vec![3, 4])).unwrap();
    }
    store.execute(c, &(), &Order::CheckSupply {}, DiceInput::Seeded).unwrap();
    while let Some(due) = c.state.supply_dues.first() {
        let side = due.force.side.clone();
        let (losses, militia) = referee_campaign::belisarius::supply::suggested_share(&c.state, &side).unwrap();
        store.execute(c, &(), &Order::TakeLosses { side, losses, militia }, DiceInput::Seeded).unwrap();
    }
}

/// Places the Byzantine fleets of the Reconquest of Africa and begins play.
fn africa_in_play(dir: &tempfile::TempDir) -> std::path::PathBuf {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    let db = database_with_africa(dir);
    let (mut store, mut c) = stored_africa(&db);
    let place = referee_campaign::fixtures::belisarius::place(&SideId::new("byzantines"), 1, "mare-africum");
    store.execute(&mut c, &(), &place, DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
    db
}

/// BE-04, BE-06, BE-53: the umpire begins the operations; handed the screen, the side whose
/// segment it is reads its own action points — never the other side's — and activates a
/// leader and ends its segment from its Table of Organisation.
#[test]
fn be_06_operations_from_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let db = africa_in_play(&dir);
    let mut h = open_africa(&db, None);
    click(&mut h, "Events phase");
    click(&mut h, "Supply phase");
    // Whatever the supply phase costs, each side takes it as suggested (BE-41).
    for _ in 0..20 {
        let Some(take) = h.query_all_by_label_contains("Take ").next() else { break };
        take.click();
        h.run();
    }
    click(&mut h, "Begin operations");
    assert!(label_exists(&h, "Operations: the"), "the segment is shown");
    let first = h.state().belisarius_view().unwrap().board().operations.as_ref().unwrap().segment.clone();
    let other = if first.as_str() == "byzantines" { "vandals" } else { "byzantines" };
    send(&mut h, AppCommand::SetViewer(Viewer::Side(first.clone())));
    assert!(label_exists(&h, "Action points:"), "the side reads its own points");
    let view = h.state().belisarius_view().unwrap();
    assert_eq!(view.organisations().len(), 1);
    let theirs = serde_json::to_string(&view).unwrap();
    assert!(!theirs.contains(&format!("\"side\":\"{other}\",\"name\"")), "no Table of Organisation of the other side");
    let leader = view.organisations()[0].boxes.iter().find_map(|b| b.leader.clone()).unwrap();
    click(&mut h, &format!("Activate {}", leader.name));
    assert!(label_exists(&h, "acting"), "{} acts", leader.name);
    click_containing(&mut h, "end the segment");
    let ops = h.state().belisarius_view().unwrap().board().operations.clone().unwrap();
    assert_eq!(ops.segment.as_str(), other, "the other side's segment");
}

/// Africa in operations, the Byzantines first (16 AP against 7), Belisarius marched into
/// zone `to`.
fn africa_marched(dir: &tempfile::TempDir, to: &str) -> std::path::PathBuf {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    let db = africa_in_operations(dir);
    let (mut store, mut c) = stored_africa(&db);
    let byz = SideId::new("byzantines");
    store
        .execute(&mut c, &(), &Order::Activate { side: byz.clone(), leader: "belisarius".into(), with: vec![] }, DiceInput::Seeded)
        .unwrap();
    let march = Order::Move { side: byz, leader: "belisarius".into(), path: vec![to.into()], attrition_from: vec![] };
    store.execute(&mut c, &(), &march, DiceInput::Manual(vec![1])).unwrap();
    db
}

/// Belisarius marched into Gelimer's zone: a contact, the Vandals to answer.
fn africa_at_contact(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let db = africa_marched(dir, "byzacium-south");
    let (_store, c) = stored_africa(&db);
    assert!(c.state.ops.as_ref().unwrap().contact.is_some(), "Gelimer stands in Southern Byzacium");
    db
}

/// The same, the Vandals declining and Belisarius intercepting on a 2: a battle in line.
fn africa_in_battle(dir: &tempfile::TempDir) -> std::path::PathBuf {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    let db = africa_at_contact(dir);
    let (mut store, mut c) = stored_africa(&db);
    store.execute(&mut c, &(), &Order::Decline { side: SideId::new("vandals") }, DiceInput::Seeded).unwrap();
    let intercept =
        Order::Intercept { side: SideId::new("byzantines"), leaders: vec!["belisarius".into()], target: None, reconnaissance: false };
    store.execute(&mut c, &(), &intercept, DiceInput::Manual(vec![2])).unwrap();
    db
}

/// The campaign "Africa" of `db` in the referee's window, seen as `view_as` or by the umpire,
/// the screen the referee's: a side's view left on screen by the last window is taken back
/// first.
fn open_as(db: &std::path::Path, view_as: Option<&str>) -> Harness<'static, RefereeApp> {
    let mut h = open_africa(db, view_as);
    take_back(&mut h);
    h
}

/// The referee's window on Africa with a battle in line, sent from the battle window to be
/// fought on the tabletop (BE-17); the folder of its database lasts as long as it is kept.
fn battle_at_the_table() -> (tempfile::TempDir, Harness<'static, RefereeApp>) {
    let dir = tempfile::tempdir().unwrap();
    let db = africa_in_battle(&dir);
    let mut h = open_as(&db, None);
    click(&mut h, "Send to the table");
    (dir, h)
}

/// The Belisarius log on screen, a line a row.
fn log_text(h: &Harness<'_, RefereeApp>) -> String {
    h.state().belisarius_view().unwrap().log().iter().map(|l| l.text.clone()).collect::<Vec<_>>().join("\n")
}

/// BE-13, BE-14: the referee's screen names the side that may intercept and hands it the
/// screen; the Vandals decline from their own view; the Byzantines intercept with Belisarius
/// from theirs, and a battle opens in its window for both.
#[test]
fn be_13_interception_is_prompted_in_the_deciding_sides_view() {
    let dir = tempfile::tempdir().unwrap();
    let db = africa_at_contact(&dir);
    let mut h = open_as(&db, None);
    assert!(label_exists(&h, "Contact at Southern Byzacium"));
    assert!(!label_exists(&h, "Do not intercept"), "the referee's screen is not where a side decides");
    click(&mut h, "Hand the screen to the Vandals");
    assert_eq!(h.state().belisarius_view().unwrap().organisations()[0].side.as_str(), "vandals");
    click(&mut h, "Do not intercept");
    let board = h.state().belisarius_view().unwrap().board().clone();
    assert_eq!(board.contact.unwrap().turn_of.as_str(), "byzantines");
    assert!(label_exists(&h, "Waiting for the Byzantines"));

    let mut h = open_as(&db, Some("byzantines"));
    click(&mut h, "Belisarius");
    click(&mut h, "Intercept (1 AP)");
    // Belisarius (8) against Gelimer (4): every die is a battle.
    let board = h.state().belisarius_view().unwrap().board().clone();
    assert!(board.battle.is_some(), "a battle is joined");
    assert!(label_exists(&h, "Battle at Southern Byzacium"));
    assert!(label_exists(&h, "Vandals — Gelimer"), "inside the battle the enemy is face up (BE-53)");
}

/// BE-13, BE-53: Gelimer tries to intercept Belisarius and fails (a die typed in). The Vandals
/// may try again with another leader, but not with him: their form greys him out with the
/// rules' reason, and nothing can tick him. The Byzantines read nothing of who tried.
#[test]
fn be_13_a_leader_whose_interception_failed_is_not_offered_again() {
    use egui_kittest::kittest::NodeT as _;
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::belisarius::tables::Interception;
    use referee_campaign::store::DiceInput;
    let dir = tempfile::tempdir().unwrap();
    let db = africa_at_contact(&dir);
    {
        let (mut store, mut c) = stored_africa(&db);
        let rating = |id: &str| i32::from(c.state.setup.leader(id).unwrap().strategic);
        let zone = c.state.ops.as_ref().unwrap().contact.as_ref().unwrap().zone.clone();
        let mountains = c.state.setup.map.zone(&zone).unwrap().terrain == referee_campaign::belisarius::map::Terrain::Mountain;
        let difference = rating("gelimer") - rating("belisarius");
        let fail = (1..=6u8)
            .find(|d| c.state.setup.tables.interception(difference, (i32::from(*d) - i32::from(mountains)).max(1), 0) == Interception::Fail)
            .expect("a die that fails");
        let intercept =
            Order::Intercept { side: SideId::new("vandals"), leaders: vec!["gelimer".into()], target: None, reconnaissance: false };
        store.execute(&mut c, &(), &intercept, DiceInput::Manual(vec![fail])).unwrap();
        let contact = c.state.ops.as_ref().unwrap().contact.clone().expect("the contact is still open");
        assert_eq!(contact.turn_of.as_str(), "vandals", "the Vandals may try again with another leader");
    }
    let mut h = open_as(&db, Some("vandals"));
    let contact = h.state().belisarius_view().unwrap().board().contact.clone().unwrap();
    assert_eq!(contact.tried.iter().map(|t| t.leader.as_str()).collect::<Vec<_>>(), ["gelimer"], "the Vandals read their own try");
    let gelimer = h.get_by_label("Gelimer");
    assert!(gelimer.accesskit_node().is_disabled(), "Gelimer is not offered again");
    gelimer.click();
    h.run();
    assert!(h.get_by_label("Intercept (1 AP)").accesskit_node().is_disabled(), "nobody is ticked");
    hover(&mut h, "Gelimer");
    assert!(label_exists(&h, "Gelimer has tried to intercept that force this turn already"), "the rules' reason on hover");
    // The Byzantines read that the Vandals tried and failed, not with whom.
    let h = open_as(&db, Some("byzantines"));
    let contact = h.state().belisarius_view().unwrap().board().contact.clone().unwrap();
    assert!(contact.tried.is_empty(), "the Vandals' tries are theirs: {:?}", contact.tried);
    assert_eq!(contact.failed.iter().map(|s| s.as_str()).collect::<Vec<_>>(), ["vandals"]);
}

/// BE-17, BE-19: the referee rolls the stage from the battle window; the side that owes
/// losses shares them out in its view (the program's suggestion first); the odds are counted
/// in the window.
#[test]
fn be_17_a_battle_is_fought_from_its_window() {
    use referee_campaign::belisarius::battle::Step;
    let dir = tempfile::tempdir().unwrap();
    let db = africa_in_battle(&dir);
    let mut h = open_as(&db, None);
    h.get_by_label("Count 10000 battles").click();
    // The count runs on a thread of its own: frames go on being drawn meanwhile.
    h.step();
    h.step();
    assert!(label_exists(&h, "counting…") || label_exists(&h, "holds the field"), "the window says it is counting");
    for _ in 0..3000 {
        if label_exists(&h, "holds the field") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
    assert!(label_exists(&h, "holds the field"), "the odds are shown");
    h.run();
    // Roll until somebody owes losses.
    for _ in 0..6 {
        let step = h.state().belisarius_view().unwrap().board().battle.as_ref().map(|b| b.step.clone());
        match step {
            Some(Step::Roll) => h.get_by_label_contains("Roll the").click(),
            Some(Step::Decide) => h.get_by_label("Fight on").click(),
            _ => break,
        }
        h.run();
    }
    let Some(Step::Losses { owed, .. }) = h.state().belisarius_view().unwrap().board().battle.as_ref().map(|b| b.step.clone()) else {
        panic!("nobody lost anything in three passages")
    };
    let (side, due) = owed.iter().find(|(_, o)| o.points > 0).map(|(s, o)| (s.clone(), *o)).unwrap();
    let mut h = open_as(&db, Some(side.as_str()));
    assert!(label_exists(&h, &format!("{} combat points", due.points)));
    click(&mut h, "Suggest");
    click(&mut h, &format!("Take {} of {} points", due.points, due.points));
    let said = h.state().message().map(|m| m.text.clone()).unwrap_or_default();
    let name = if side.as_str() == "vandals" { "Vandals" } else { "Byzantines" };
    assert!(said.starts_with(&format!("{name} take {} combat points of losses", due.points)), "the losses were taken: {said}");
}

/// BE-17: from the battle window the referee sends the battle to the table; the window then
/// holds the result form, and a result recorded there ends the battle.
#[test]
fn be_17_a_battle_is_sent_to_the_table_and_its_result_recorded_in_the_window() {
    let (_dir, mut h) = battle_at_the_table();
    assert!(label_exists(&h, "Fought on the tabletop"));
    assert!(h.state().belisarius_view().unwrap().board().battle.as_ref().unwrap().at_table);
    // Nothing is chosen for the referee: Record waits for the outcome, and says so.
    use egui_kittest::kittest::NodeT as _;
    for outcome in ["the Byzantines broke off", "the Vandals broke off", "the sides parted", "a force was destroyed"] {
        let on = h.get_by_label(outcome).accesskit_node().toggled();
        assert_eq!(on, Some(egui::accesskit::Toggled::False), "{outcome} is not chosen for the referee");
    }
    assert!(h.get_by_label("Record the result").accesskit_node().is_disabled());
    assert!(label_exists(&h, "Say first how the battle ended"));
    // Choosing a side that broke off moves nothing: the retreat's row was there already.
    let parted = h.get_by_label("the sides parted").rect();
    click(&mut h, "the Vandals broke off");
    assert_eq!(h.get_by_label("the sides parted").rect(), parted, "the form did not move under the pointer");
    assert!(label_exists(&h, "Say where the side that broke off retreated to"));
    click(&mut h, "the sides parted");
    // Under the losses, at the form's end: scrolled to, as the referee would.
    click_in_view(&mut h, "Record the result");
    assert!(h.state().belisarius_view().unwrap().board().battle.is_none(), "{:?}", h.state().message());
    let log = log_text(&h);
    assert!(log.contains("the sides part"), "{log}");
}

/// BE-17, AC-06: the battle sent to the table under A la Charge!: the form lists the counters
/// of the pack; the Vandals' first unit counter eliminated fills in the combat points lost by
/// Gelimer's units, and the result is recorded.
#[test]
fn be_17_a_hex_table_s_counters_lost_fill_in_the_points_lost() {
    let (_dir, mut h) = battle_at_the_table();
    click(&mut h, "A la Charge!");
    assert!(label_exists(&h, "Vandals: "), "the Vandals' counters are listed");
    // The Vandals' counter 1 is Gelimer, 2 his first unit, of two steps.
    set_value(&mut h, "Vandals counter 2 lost", 2.0);
    click(&mut h, "the sides parted");
    // Under the losses, at the form's end: scrolled to, as the referee would.
    click_in_view(&mut h, "Record the result");
    assert!(h.state().belisarius_view().unwrap().board().battle.is_none(), "{:?}", h.state().message());
    let log = log_text(&h);
    assert!(log.contains("Vandals take") && log.contains("combat points of losses"), "{log}");
}

/// BE-17, X-04: the battle window's pack offers the pack window's choices: the rules with
/// their options, the paper and the folder. A DBSA pack on US Letter goes into the folder
/// typed, named for its rules; written again into the same folder it is refused, naming the
/// files, until "Replace files already there" is ticked.
#[test]
fn be_17_the_battle_windows_pack_has_the_pack_windows_choices() {
    let (dir, mut h) = battle_at_the_table();
    click(&mut h, "DBSA");
    assert!(label_exists(&h, "Scaling") && label_exists(&h, "Figures"), "DBSA asks how to scale the armies");
    click(&mut h, "US Letter");
    let folder = dir.path().join("packs").display().to_string();
    replace_text(&mut h, "Folder", &folder);
    click(&mut h, "Write the pack");
    let umpire = dir.path().join("packs").join("battle-01-dbsa-umpire.pdf");
    let bytes = std::fs::read(&umpire).unwrap_or_else(|e| panic!("{}: {e} ({:?})", umpire.display(), h.state().message()));
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("612") && text.contains("792"), "not on Letter paper");
    let umpire_text = referee_battle_gen::pdf::extract_text(&bytes).unwrap().join(" ");
    assert!(umpire_text.contains("Strength on the table (DBSA)"), "{umpire_text}");
    click(&mut h, "Write the pack");
    let said = h.state().message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(said.contains("battle-01-dbsa-umpire.pdf") && said.contains("nothing was written"), "{said}");
    h.get_by_label("Replace files already there").click();
    click(&mut h, "Write the pack");
    let said = h.state().message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(said.starts_with("Battle pack written to"), "{said}");
}

/// BE-24, BE-27: from the Byzantines' own view, the acting leader lays siege to the city
/// before him, storms it, and shares out the attackers' losses in the form; the city is
/// theirs.
#[test]
fn be_24_a_siege_is_laid_and_stormed_from_the_window() {
    let dir = tempfile::tempdir().unwrap();
    // Belisarius before Sicca Veneria, which the Vandals hold with nobody inside.
    let db = africa_marched(&dir, "proconsularis");
    let mut h = open_as(&db, Some("byzantines"));
    click_containing(&mut h, "Siege of Sicca Veneria");
    click_containing(&mut h, "Lay siege to Sicca Veneria");
    let board = h.state().belisarius_view().unwrap().board().clone();
    let city = board.cities.iter().find(|c| c.id.as_str() == "sicca-veneria").unwrap();
    assert_eq!(city.siege.as_ref().map(|s| s.duration), Some(1), "the duration marker is on");
    click_containing(&mut h, "Assault Sicca Veneria (0 AP)");
    let view = h.state().belisarius_view().unwrap();
    let due = view.organisations()[0].assault_losses.clone().expect("the attackers owe their losses");
    click(&mut h, &format!("Take {} of {} points", due.points, due.points));
    let board = h.state().belisarius_view().unwrap().board().clone();
    assert!(board.assault.is_none(), "the losses are shared out");
    let held = board.cities.iter().find(|c| c.id.as_str() == "sicca-veneria").unwrap().holder.clone();
    // 30 points against a militia of 1: the city falls to any dice.
    assert_eq!(held, Some(SideId::new("byzantines")));
}

/// BE-49: Africa played through its three quiet turns: the desk shows the campaign over and
/// who won, with where each condition stood, to a side as to the umpire.
#[test]
fn be_49_the_desk_shows_the_end_and_the_winner() {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::belisarius::state::Phase;
    use referee_campaign::store::DiceInput;
    let dir = tempfile::tempdir().unwrap();
    let db = africa_in_play(&dir);
    {
        let (mut store, mut c) = stored_africa(&db);
        for _ in 0..3 {
            supply_phase(&mut store, &mut c);
            store.execute(&mut c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
            while c.state.phase == Phase::Operations {
                let side = c.state.ops.as_ref().unwrap().segment.clone();
                store.execute(&mut c, &(), &Order::Pass { side }, DiceInput::Seeded).unwrap();
            }
            store.execute(&mut c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
        }
        assert_eq!(c.state.phase, Phase::Over);
    }
    for view_as in [None, Some("vandals")] {
        let h = open_as(&db, view_as);
        assert!(label_exists(&h, "The campaign is over: The Vandals win"), "{view_as:?}");
        assert!(label_exists(&h, "hold Carthago"), "{view_as:?}: the conditions are listed");
    }
}

/// Africa in operations, the Byzantines first (16 AP against 7), nothing done yet.
fn africa_in_operations(dir: &tempfile::TempDir) -> std::path::PathBuf {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    let db = africa_in_play(dir);
    let (mut store, mut c) = stored_africa(&db);
    let typed = DiceInput::ManualWithChits { dice: vec![6, 1], chits: vec!["ap-c".into(), "ap-d".into()] };
    supply_phase(&mut store, &mut c);
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed).unwrap();
    db
}

/// BE-33, BE-37: from the Byzantines' own view, Iohannes goes aboard the fleet off his zone,
/// the ship is chosen and sailed to the Gulf of Syrtis along a route picked on the map, and
/// he lands on the coast of Tripolitania, which becomes theirs.
#[test]
fn be_37_a_force_is_carried_by_sea_from_the_window() {
    use referee_campaign::belisarius::map::{SeaId, ZoneId};
    use referee_campaign::belisarius::state::Location;
    let dir = tempfile::tempdir().unwrap();
    let db = africa_in_operations(&dir);
    let mut h = open_as(&db, Some("byzantines"));
    // Iohannes's box is far down the Table of Organisation: activated by order.
    let activate =
        referee_campaign::belisarius::order::Order::Activate { side: SideId::new("byzantines"), leader: "iohannes".into(), with: vec![] };
    send(&mut h, BelisariusCommand::Execute(activate, referee_campaign::store::DiceInput::Seeded));
    click_containing(&mut h, "Go aboard the ships at");
    let iohannes_at = |h: &Harness<'_, RefereeApp>| {
        let view = h.state().belisarius_view().unwrap();
        view.organisations()[0].boxes.iter().find(|b| b.leader.as_ref().is_some_and(|l| l.id == "iohannes")).unwrap().at.clone()
    };
    let Location::Aboard(ship) = iohannes_at(&h) else { panic!("Iohannes is aboard") };
    let number = ship.rsplit('-').next().unwrap().to_owned();
    let view = h.state().belisarius_view().unwrap();
    let np = view.organisations()[0].boxes.iter().find(|b| b.ship.as_deref() == Some(ship.as_str())).unwrap().np.unwrap();
    click_containing(&mut h, &format!("fleet {number} ({np} NPs) at"));
    send(&mut h, BelisariusCommand::SelectPlace(Some(Location::Sea(SeaId::new("syrtis")))));
    click(&mut h, "Add Gulf of Syrtis");
    click(&mut h, "Sail (1 AP)");
    let board = h.state().belisarius_view().unwrap().board().clone();
    assert!(board.markers.iter().any(|m| m.at == Location::Sea(SeaId::new("syrtis"))), "the ship is in the Gulf of Syrtis");
    send(&mut h, BelisariusCommand::SelectPlace(Some(Location::Zone(ZoneId::new("tripolitania")))));
    click_containing(&mut h, "Land at Tripolitania");
    assert_eq!(iohannes_at(&h), Location::Zone(ZoneId::new("tripolitania")));
    let board = h.state().belisarius_view().unwrap().board().clone();
    let control = board.zones.iter().find(|z| z.id.as_str() == "tripolitania").unwrap().controller.clone();
    assert_eq!(control, Some(SideId::new("byzantines")), "the landing takes the empty zone");
}

/// The labels of the buttons that give an order to the rules, as the umpire's panels start
/// them: the buttons the rules are asked about before they are drawn.
const ORDER_BUTTONS: [&str; 24] = [
    "Activate",
    "March (",
    "Lay siege",
    "Assault ",
    "Build ",
    "Pull down",
    "Lay ",
    "Play Treachery",
    "Roll the ",
    "Send to the table",
    "Fight on",
    "The sides part",
    "break off",
    "end the segment",
    "Events phase",
    "Supply phase",
    "Reinforcement phase",
    "Begin operations",
    "End the turn",
    "The Franks march",
    "Fight another passage",
    "Begin play",
    "Go aboard the ships",
    "Land at ",
];

/// The order buttons the umpire's view offers live, by label.
fn live_order_buttons(h: &Harness<'_, RefereeApp>) -> Vec<String> {
    use egui_kittest::kittest::NodeT as _;
    let mut live: Vec<String> = h
        .query_all_by_role(egui::accesskit::Role::Button)
        .filter(|b| !b.accesskit_node().is_disabled())
        .filter_map(|b| b.accesskit_node().label())
        .filter(|label| ORDER_BUTTONS.iter().any(|p| label.starts_with(p) || label.contains(&format!(": {p}"))))
        .collect();
    live.sort();
    live.dedup();
    live
}

/// BE-06, BE-13, BE-24: in the umpire's view every Belisarius order button asks the rules
/// before it is drawn: at each moment — operations under way, a contact open, a battle
/// fought — every live one is taken by the rules when clicked, and "Activate" is greyed out,
/// with the rules' reason, while a contact or a battle is open.
#[test]
fn be_06_every_live_order_button_of_the_umpire_is_taken_by_the_rules() {
    use egui_kittest::kittest::NodeT as _;
    type Make = fn(&tempfile::TempDir) -> std::path::PathBuf;
    let moments: [(&str, Make); 3] = [("operations", africa_in_operations), ("contact", africa_at_contact), ("battle", africa_in_battle)];
    let mut clicked = 0;
    for (moment, make) in moments {
        let dir = tempfile::tempdir().unwrap();
        let db = make(&dir);
        let live = {
            let h = open_as(&db, None);
            if moment != "operations" {
                let activate: Vec<_> = h.query_all_by_label_contains("Activate ").collect();
                assert!(!activate.is_empty(), "{moment}: the leaders are listed with their Activate buttons");
                for b in activate {
                    assert!(b.accesskit_node().is_disabled(), "{moment}: {:?} is live", b.accesskit_node().label());
                }
            }
            live_order_buttons(&h)
        };
        // At a contact the choice is the side's, on its own screen: the umpire's has none.
        assert_eq!(live.is_empty(), moment == "contact", "{moment}: live order buttons {live:?}");
        for label in live {
            let copy = dir.path().join(format!("copy-{clicked}.sqlite"));
            std::fs::copy(&db, &copy).unwrap();
            let mut h = open_as(&copy, None);
            let before = h.state().belisarius_view().unwrap().log().len();
            // By its accessibility action: the button may be below the panel's fold.
            h.get_by_label(&label).click_accesskit();
            h.run();
            let refused = h.state().message().filter(|m| m.is_error).map(|m| m.text.clone());
            assert_eq!(refused, None, "{moment}: the live button {label:?} was refused");
            assert!(h.state().belisarius_view().unwrap().log().len() > before, "{moment}: {label:?} stored nothing");
            clicked += 1;
        }
    }
    assert!(clicked >= 4, "only {clicked} buttons clicked");
}

/// at fit zoom, in both window sizes and in the umpire's and a side's view, no name on
/// the zone map overprints another name, a city or a piece, and no place's pieces hide
/// another's — at the start of each scenario, in operations, at a contact and in a battle.
#[test]
fn x_04_names_on_the_zone_map_never_overprint_at_fit_zoom() {
    let world = World::embedded();
    let mut moments: Vec<(String, tempfile::TempDir, std::path::PathBuf, Vec<SideId>)> = Vec::new();
    for scenario in &world.scenarios {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("referee.sqlite");
        let setup = world.setup(&scenario.id).unwrap();
        Store::open(&db).unwrap().create_as::<Belisarius>("Africa", &setup, 3).unwrap();
        moments.push((format!("{} at its start", scenario.id), dir, db, setup.sides.iter().map(|s| s.id.clone()).collect()));
    }
    type Make = fn(&tempfile::TempDir) -> std::path::PathBuf;
    let africa: [(&str, Make); 3] = [("operations", africa_in_operations), ("contact", africa_at_contact), ("battle", africa_in_battle)];
    for (moment, make) in africa {
        let dir = tempfile::tempdir().unwrap();
        let db = make(&dir);
        moments.push((moment.to_owned(), dir, db, vec![SideId::new("byzantines"), SideId::new("vandals")]));
    }
    for (moment, _dir, db, sides) in &moments {
        for size in support::SCREENS {
            for view in std::iter::once(None).chain(sides.iter().map(Some)) {
                let app = RefereeApp::open_db(db, Catalog::embedded(), Some(World::embedded()), Some("Africa"), None).unwrap();
                let mut h = support::harness_sized(app, size);
                h.run();
                take_back(&mut h);
                if let Some(side) = view {
                    send(&mut h, AppCommand::SetViewer(Viewer::Side(side.clone())));
                }
                let who = view.map_or("umpire".to_owned(), |s| s.to_string());
                support::assert_map_names_clear(&h, &format!("{moment}, {who}'s view, {size:?}"));
            }
        }
    }
}

/// The zone map is fitted again when the window is resized, and a double click fits it
/// without selecting the place under the pointer: the selection stays what it was.
#[test]
fn x_04_the_zone_map_refits_on_resize_and_a_double_click_selects_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_africa(&dir);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), Some(World::embedded()), Some("Africa"), None).unwrap();
    support::assert_map_refits_and_a_double_click_selects_nothing(app, |app| format!("{:?}", app.belisarius_selected()));
}

/// BE-17, X-04: after its result a battle's pack is printed again from the Campaign menu, as
/// the battle went to the table: the Vandals' brief is the one handed out before the game,
/// text for text. A hex pack, which keeps its tables with a battle still on, is greyed out
/// with the reason; a side's view asks for the referee before the window opens.
#[test]
fn be_17_a_past_battle_s_pack_is_printed_again_from_the_campaign_menu() {
    let (dir, mut h) = battle_at_the_table();
    let (first, again) = (dir.path().join("first"), dir.path().join("again"));
    replace_text(&mut h, "Folder", &first.display().to_string());
    click(&mut h, "Write the pack");
    let brief = |folder: &std::path::Path| {
        let bytes = std::fs::read(folder.join("battle-01-dbm-vandals.pdf")).unwrap();
        referee_battle_gen::pdf::extract_text(&bytes).unwrap().join("\n")
    };
    let handed_out = brief(&first);
    click(&mut h, "the Vandals broke off");
    click(&mut h, "the sides parted");
    click_in_view(&mut h, "Record the result");
    assert!(h.state().belisarius_view().unwrap().board().battle.is_none(), "{:?}", h.state().message());

    click(&mut h, "Campaign ▾");
    click(&mut h, "A past battle's pack…");
    let battle = h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Battle").value().unwrap_or_default();
    assert!(battle.starts_with("Battle 1 at ") && battle.ends_with(", turn 1"), "the battle just fought is chosen: {battle}");
    replace_text(&mut h, "Folder", &again.display().to_string());
    click(&mut h, "Ars Bellum");
    assert_greyed_out_saying_why(
        &mut h,
        "Write pack",
        "a hex pack is printed while its battle is on",
        "battle 1's result is in: a hex pack is printed while the battle is on",
        "the window says why",
    );
    click(&mut h, "DBM");
    let log = log_text(&h);
    click(&mut h, "Write pack");
    no_error(&h);
    assert!(label_exists(&h, "battle-01-dbm-vandals.pdf"), "the window lists the files written");
    assert_eq!(brief(&again), handed_out, "the brief printed again is the brief handed out");
    assert_eq!(log_text(&h), log, "printing stores nothing");
    drop(h);

    // From a side's view the window waits for the referee.
    let db = dir.path().join("referee.sqlite");
    let mut h = open_africa(&db, Some("vandals"));
    click(&mut h, "Campaign ▾");
    click(&mut h, "A past battle's pack…");
    assert!(h.state().asking_for_referee(), "a past battle's pack holds every side's secrets");
    assert!(!label_exists(&h, "Write pack"));
}

/// BE-29: Belisarius besieges Sicca Veneria; Ammatas marches out of Carthage on his lines, and
/// after both sides' interceptions fail he attacks them. The contact says there is no
/// interception, and the Byzantines' own view offers neither an interception, nor declining,
/// nor a battle by consent: only the form that names who meets the relief, which the rules
/// then take.
#[test]
fn be_29_an_attack_on_the_lines_is_met_from_the_besiegers_view() {
    use referee_campaign::belisarius::order::Order;
    use referee_campaign::store::DiceInput;
    let dir = tempfile::tempdir().unwrap();
    let db = africa_in_operations(&dir);
    {
        let (mut store, mut c) = stored_africa(&db);
        referee_campaign::fixtures::belisarius::march_on_the_lines_at_sicca(&mut store, &mut c);
        store.execute(&mut c, &(), &Order::Relieve { side: SideId::new("vandals") }, DiceInput::Seeded).unwrap();
    }
    let mut h = open_as(&db, Some("byzantines"));
    assert!(label_exists(&h, "attack the siege lines: there is no interception (BE-29)"));
    for offered in ["Do not intercept", "Make no (more) attempts", "Intercept (1 AP)", "offer battle by consent", "Offer battle by consent"]
    {
        assert!(!label_exists(&h, offered), "{offered} is offered while the lines are attacked");
    }
    assert_greyed_out_saying_why(
        &mut h,
        "Meet the relief",
        "nobody is named yet",
        "Tick the leaders who meet the relief",
        "the reason is on hover",
    );
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Belisarius").click();
    h.run();
    click(&mut h, "Meet the relief");
    no_error(&h);
    assert!(h.state().belisarius_view().unwrap().board().battle.is_some(), "the relief's battle is joined");
}
