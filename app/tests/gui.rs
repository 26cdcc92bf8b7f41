//! The app's window driven headless with egui_kittest: widgets are found by their labels
//! and clicked, as a referee would.

mod support;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use referee::gui::{AppCommand, CounterRef, MagnaGraeciaCommand, RefereeApp};
use referee_campaign::core::log::RollDice;
use referee_campaign::fixtures::{DIONYSIAN, deploy_orders, moved};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::{DiceInput, DiceSpec, NodeId, SideId, Viewer, magna_graecia::catalog::Catalog, magna_graecia::order::Order};
use support::{
    Prep, assert_greyed_out_saying_why, click, click_button, click_in_view, fill, hover, label_exists, no_error, opened,
    opened_by_the_referee, pick_winner, press_key, replace_text, roll_typed_in, send, set_value, take_back, type_into,
};

/// A database holding one Dionysian War campaign called "Smoke", with a secret roll and
/// a public one in its log.
fn database_with_campaign(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("referee.sqlite");
    let mut p = Prep::create(&path, "Smoke", "dionysian", 42);
    for (purpose, hidden) in [("storm at sea", true), ("omens", false)] {
        let roll = Order::RollDice(RollDice { dice: DiceSpec::D6, purpose: purpose.into(), side: None, hidden, modifiers: vec![] });
        p.go(&roll, DiceInput::Seeded);
    }
    path
}

/// A database with one campaign of `scenario` called "Turn", given these commands.
fn database_with(dir: &tempfile::TempDir, scenario: &str, commands: &[Order]) -> std::path::PathBuf {
    let (mut p, path) = Prep::new(dir, scenario, 17);
    p.go_all(commands);
    path
}

/// Every Dionysian counter deployed as the rules' own tests deploy them.
fn dionysian_deployment() -> Vec<Order> {
    deploy_orders(&DIONYSIAN)
}

/// A database with one Dionysian War campaign called "Turn", deployed and begun when
/// `begun`, and these commands given after.
fn database_with_turn(dir: &tempfile::TempDir, begun: bool, then: &[Order]) -> std::path::PathBuf {
    let mut commands = Vec::new();
    if begun {
        commands = dionysian_deployment();
        commands.push(Order::BeginPlay {});
    }
    commands.extend_from_slice(then);
    database_with(dir, "dionysian", &commands)
}

/// The referee's window on the campaign "Turn" of `db`, seen as `view_as`.
fn open_turn(db: &std::path::Path, view_as: &str) -> Harness<'static, RefereeApp> {
    opened_by_the_referee(RefereeApp::open_db(db, Catalog::embedded(), None, Some("Turn"), Some(view_as)).unwrap())
}

/// The referee's window, seen as `view_as`, on a campaign of `scenario` called "Turn" given
/// `commands`, in a folder of its own that lasts as long as it is kept.
fn on_screen(scenario: &str, commands: &[Order], view_as: &str) -> (tempfile::TempDir, Harness<'static, RefereeApp>) {
    let dir = tempfile::tempdir().unwrap();
    let h = open_turn(&database_with(&dir, scenario, commands), view_as);
    (dir, h)
}

/// The same for a Dionysian War, deployed and begun when `begun`, and `then` given after.
fn dionysian_on_screen(begun: bool, then: &[Order], view_as: &str) -> (tempfile::TempDir, Harness<'static, RefereeApp>) {
    let dir = tempfile::tempdir().unwrap();
    let h = open_turn(&database_with_turn(&dir, begun, then), view_as);
    (dir, h)
}

/// The same, play begun and Himilco marched on Leptines at Himera: the battle is due (MG-10).
fn battle_due_at_himera(view_as: &str) -> (tempfile::TempDir, Harness<'static, RefereeApp>) {
    dionysian_on_screen(true, &himilco_attacks_leptines(), view_as)
}

/// "04 Panormus", as buttons name nodes.
fn node_label(n: u8) -> String {
    Catalog::embedded().map("sicily").unwrap().node(NodeId(n)).unwrap().label()
}

/// Selects node `n` on the map, as a click on it does.
fn select(h: &mut Harness<'_, RefereeApp>, n: u8) {
    send(h, MagnaGraeciaCommand::Select(Some(NodeId(n))));
}

fn counter_at(h: &Harness<'_, RefereeApp>, side: &str, name: &str) -> Option<NodeId> {
    h.state().campaign().unwrap().state.counter(&SideId::new(side), name).map(|c| c.node)
}

fn hanno_moves(to: u8) -> Order {
    Order::Move { side: SideId::new("carthage"), counter: "Hanno".into(), path: vec![NodeId(to)] }
}

/// the picker starts a campaign from a scenario and the map opens on turn 1.
#[test]
fn x_05_a_campaign_is_created_from_the_picker() {
    let dir = tempfile::tempdir().unwrap();
    let app = RefereeApp::open_db(&dir.path().join("new.sqlite"), Catalog::embedded(), None, None, None).unwrap();
    let mut h = opened(app);
    assert!(label_exists(&h, "No campaign yet"), "the picker shows an empty database");

    click(&mut h, "Scenario");
    click(&mut h, "Magna Graecia — Dionysian War (398–367 BC)");
    assert_eq!(h.get_by_role_and_label(Role::TextInput, "Name").value().as_deref(), Some("Dionysian War 1"));
    click(&mut h, "Create");

    let names: Vec<String> = h.state().store().campaigns().unwrap().into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["Dionysian War 1"]);
    assert_eq!(h.state().campaign().map(|c| c.state.name.as_str()), Some("Dionysian War 1"));
    assert!(
        label_exists(&h, "Dionysian War 1 · Dionysian War · Turn 1 of 18 · Setup: rosters and deployment"),
        "the top bar names the campaign, turn and phase"
    );
    assert!(h.state().message().is_none_or(|m| !m.is_error));
}

/// a refused creation is one sentence on screen, and nothing is written.
#[test]
fn x_05_creating_a_campaign_twice_under_one_name_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_campaign(&dir);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), None, None, None).unwrap();
    let mut h = opened(app);
    replace_text(&mut h, "Name", "Smoke");
    assert_eq!(h.get_by_role_and_label(Role::TextInput, "Name").value().as_deref(), Some("Smoke"));
    click(&mut h, "Create");
    assert!(label_exists(&h, "a campaign named `Smoke` exists already"), "the refusal is shown");
    assert_eq!(h.state().store().campaigns().unwrap().len(), 1);
    assert!(h.state().campaign().is_none());
}

/// "View as" a side draws only that side's view.
#[test]
fn x_01_viewing_as_a_side_hides_the_other_sides_forces_and_secret_rolls() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_campaign(&dir);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), None, Some("Smoke"), None).unwrap();
    let mut h = opened(app);

    // The umpire sees both sides' forces and every roll; the dice seed only on asking.
    for text in ["Carthage army: 500 points", "Carthage fleet: 20 NP", "Syracuse army: 500 points"] {
        assert!(label_exists(&h, text), "umpire view shows {text}");
    }
    assert!(label_exists(&h, "for storm at sea (secret)"));
    assert!(label_exists(&h, "for omens"));
    assert!(!label_exists(&h, "Dice seed"), "the seed is never drawn unasked");
    click_in_view(&mut h, "Show the dice seed");
    assert!(label_exists(&h, "Dice seed: 42"));

    click(&mut h, "View as");
    click(&mut h, "Syracuse");
    // The first hand-over of a file with no passphrase offers one; the referee declines.
    assert!(label_exists(&h, "Hand the screen over"), "a passphrase is offered first");
    assert_eq!(h.state().viewer(), Some(&Viewer::Umpire), "nothing is handed over before the referee answers");
    click_in_view(&mut h, "Hand over without a passphrase");

    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("syracuse"))));
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
    let app = RefereeApp::open_db(&db, Catalog::embedded(), None, Some("Smoke"), Some("umpire")).unwrap();
    let mut h = opened(app);
    let head = h.state().campaign().unwrap().head;

    // No purpose: the rules refuse it, with the rule's ID.
    click_button(&mut h, "Roll");
    assert!(label_exists(&h, "every roll needs a purpose for the log"));
    assert_eq!(h.state().campaign().unwrap().head, head);

    roll_typed_in(&mut h, "alliance of Leontini", "4");
    assert_eq!(h.state().campaign().unwrap().head, head + 1);
    assert!(label_exists(&h, "d6 = 4 [typed in] for alliance of Leontini"));

    click(&mut h, "Undo");
    assert_eq!(h.state().campaign().unwrap().head, head);
    let log = h.state().view().unwrap().log();
    assert!(!log.iter().any(|l| l.text.contains("for alliance of Leontini")), "the undone roll leaves the log");
    assert_eq!(h.state().message().unwrap().text, "Undone: d6 = 4 [typed in] for alliance of Leontini");
}

/// MG-02 / MG-09: the umpire deploys both Dionysian armies with the panel's buttons, one
/// selected node at a time, then begins play.
#[test]
fn mg_02_the_dionysian_armies_deploy_through_the_app_and_play_begins() {
    let (_dir, mut h) = dionysian_on_screen(false, &[], "umpire");
    assert!(label_exists(&h, "Turn 1 of 18 · Setup: rosters and deployment"));
    assert!(label_exists(&h, "Carthage: 0 of 5 deployed"));
    assert!(h.get_by_label("Deploy Himilco").accesskit_node().is_disabled(), "no node selected: nowhere to deploy");

    for (side, counter, node) in DIONYSIAN {
        select(&mut h, node);
        let title = if counter == "fleet" {
            format!("{} fleet", if side == "carthage" { "Carthage" } else { "Syracuse" })
        } else {
            counter.to_owned()
        };
        click(&mut h, &format!("Deploy {title} at {}", node_label(node)));
        no_error(&h);
        assert_eq!(counter_at(&h, side, counter), Some(NodeId(node)), "{side} {counter}");
    }
    assert!(label_exists(&h, "Carthage: 5 of 5 deployed") && label_exists(&h, "Syracuse: 5 of 5 deployed"));
    assert!(label_exists(&h, &format!("at {}", node_label(31))), "deployed counters say where they stand");

    click(&mut h, "Begin play");
    assert_eq!(h.state().campaign().unwrap().state.phase, Phase::Movement);
    assert!(label_exists(&h, "Turn 1 of 18 · Carthage: movement"));
    assert!(h.query_by_label("Begin play").is_none() && !label_exists(&h, "Deploy Himilco"));
}

/// MG-02: "Deploy at …" is greyed out at a node the scenario forbids, and says why; sent
/// anyway, the deployment is refused in red with its rule and nothing is stored; play
/// cannot begin before every counter is on the map.
#[test]
fn mg_02_a_forbidden_node_greys_out_deployment_and_the_rules_refuse_it() {
    let (_dir, mut h) = dionysian_on_screen(false, &[], "umpire");
    let head = h.state().campaign().unwrap().head;
    select(&mut h, 24);
    assert_greyed_out_saying_why(
        &mut h,
        "Deploy Himilco at 24 Catana",
        "Catana is Syracusan: Carthage may not deploy there",
        "Carthage may not deploy Himilco at 24 Catana (MG-02)",
        "the greyed button says why",
    );
    assert!(!h.get_by_label("Deploy Dionysius at 24 Catana").accesskit_node().is_disabled(), "Syracuse may");

    send(
        &mut h,
        MagnaGraeciaCommand::Execute(
            Order::Deploy { side: SideId::new("carthage"), counter: "Himilco".into(), node: NodeId(24) },
            DiceInput::Seeded,
        ),
    );
    assert!(label_exists(&h, "Carthage may not deploy at 24 Catana; Himilco may deploy at 00 Motya"), "the refusal says where it may");
    assert!(h.state().message().is_some_and(|m| m.is_error));
    assert_eq!(h.state().campaign().unwrap().head, head);

    assert_greyed_out_saying_why(
        &mut h,
        "Begin play",
        "play cannot begin with counters undeployed",
        "Carthage has not deployed: Himilco, Mago, Hamilcar, Hanno, fleet — MG-02",
        "the greyed Begin play names the counters left",
    );
    send(&mut h, MagnaGraeciaCommand::Execute(Order::BeginPlay {}, DiceInput::Seeded));
    let refusal = h.state().message().filter(|m| m.is_error).map(|m| m.text.clone()).unwrap_or_default();
    assert!(
        refusal.contains("Carthage has not deployed: Himilco, Mago, Hamilcar, Hanno, fleet — MG-02"),
        "sent anyway, refused: {refusal}"
    );
    assert_eq!(h.state().campaign().unwrap().state.phase, Phase::Setup);
}

/// MG-02: picking a counter to deploy keeps it picked while nodes are selected (its
/// deployable nodes are lit on the map); deploying it lets it go and selects its node.
#[test]
fn mg_02_a_counter_picked_for_deployment_waits_for_a_node() {
    let (_dir, mut h) = dionysian_on_screen(false, &[], "umpire");
    let himilco = CounterRef { side: SideId::new("carthage"), name: "Himilco".into() };
    click(&mut h, "Pick Himilco to deploy");
    assert_eq!(h.state().selected_counter(), Some(&himilco), "a counter not yet on the map may be picked in setup");
    select(&mut h, 24);
    assert_eq!(h.state().selected_counter(), Some(&himilco), "selecting a node keeps the pick");
    select(&mut h, 4);
    click(&mut h, "Deploy Himilco at 04 Panormus");
    assert_eq!(counter_at(&h, "carthage", "Himilco"), Some(NodeId(4)));
    assert_eq!((h.state().selected(), h.state().selected_counter()), (Some(NodeId(4)), None));
    assert!(label_exists(&h, "Carthage: 1 of 5 deployed"));
}

/// MG-36 / MG-02: Second Punic Carthage starts at sea, so it has no deployment: the panel
/// says it lands on its first turn instead of offering buttons.
#[test]
fn mg_36_a_side_that_lands_from_the_sea_has_no_deploy_buttons() {
    let (_dir, mut h) = on_screen("second-punic", &[], "umpire");
    select(&mut h, 12);
    assert!(label_exists(&h, "Carthage: lands from the sea on its first turn"));
    for name in ["Himilco", "Hanno", "Muttines"] {
        assert!(!label_exists(&h, &format!("Deploy {name}")) && !label_exists(&h, &format!("Pick {name}")), "{name}");
    }
    assert!(label_exists(&h, "Rome: 0 of 5 deployed"), "Rome deploys as usual");
}

/// MG-05: the number beside a fortified city is the scenario's: Rome's allied cities field
/// one command each in the Second Punic War, whatever the map file says of Panormus.
#[test]
fn mg_05_a_city_fields_the_scenario_s_number_of_commands() {
    let (_dir, mut h) = on_screen("second-punic", &[], "umpire");
    select(&mut h, 4);
    assert!(label_exists(&h, "fortified city, fields 1 command"), "allied to Rome");
    let (_dir, mut h) = dionysian_on_screen(false, &[], "umpire");
    select(&mut h, 4);
    assert!(label_exists(&h, "fortified city, fields 3 commands"), "as the map file says");
}

/// MG-04: elements left in a strength-0 capital are listed under the side's roster.
#[test]
fn mg_04_the_capital_garrison_is_shown_under_the_roster() {
    let dir = tempfile::tempdir().unwrap();
    let garrison = Order::Garrison {
        side: SideId::new("syracuse"),
        command: "Dionysius".into(),
        elements: vec!["3 Reg Sp(O)".parse().unwrap()],
        into_garrison: true,
    };
    let db = database_with_turn(&dir, false, &[dionysian_deployment()[5].clone(), garrison]);
    let h = open_turn(&db, "syracuse");
    assert!(label_exists(&h, "Garrison of Syracuse (inherent sub-general): 3 Reg Sp(O)"));
}

/// MG-03: the umpire edits Pyrrhus' roster in the editor: adds two psiloi to the king's
/// command and takes the elephants from Leonnatus, watching the points; saving replaces
/// the army in the campaign and closes the editor.
#[test]
fn mg_03_a_roster_is_edited_priced_and_saved_through_the_editor() {
    let (_dir, mut h) = on_screen("pyrrhic", &[], "umpire");
    let table = Catalog::embedded().scenario("pyrrhic").unwrap().elements.clone();
    let army = |h: &Harness<'_, RefereeApp>| h.state().campaign().unwrap().state.armies[&SideId::new("pyrrhus")].clone();
    let before = table.army_points(&army(&h));
    assert_eq!(before, 343);

    click_in_view(&mut h, "Edit roster of Pyrrhus…");
    assert_eq!(h.state().roster_editor(), Some(&SideId::new("pyrrhus")));
    assert!(label_exists(&h, "343 of 350 points"));
    assert!(label_exists(&h, "99 points · 2 MP"), "Pyrrhus' own command: all mounted");

    type_into(&mut h, "Elements to add to Pyrrhus", "2 Reg Ps(O)");
    click_in_view(&mut h, "Add elements to Pyrrhus");
    assert!(label_exists(&h, "347 of 350 points"), "two Reg Ps(O) at 2 points each");
    assert!(label_exists(&h, "103 points · 2 MP"), "psiloi keep the command fast (MG-11)");

    click_in_view(&mut h, "Remove 2 Reg El(O) from Leonnatus");
    assert!(label_exists(&h, "315 of 350 points"));
    assert!(label_exists(&h, "Nothing stops this army being fielded (MG-03)."));
    assert_eq!(table.army_points(&army(&h)), before, "nothing is saved while editing");

    click_in_view(&mut h, "Save roster");
    no_error(&h);
    assert_eq!(h.state().roster_editor(), None, "saving closes the editor");
    let saved = army(&h);
    assert_eq!(table.army_points(&saved), 315);
    let groups = |name: &str| -> Vec<String> {
        saved.commands.iter().find(|c| c.name == name).unwrap().elements.iter().map(ToString::to_string).collect()
    };
    assert_eq!(groups("Pyrrhus"), ["3 Reg Kn(O)", "2 Reg Cv(O)", "2 Reg LH(O)", "2 Reg Ps(O)"]);
    assert_eq!(groups("Leonnatus"), ["12 Reg Pk(O)", "2 Reg Ps(O)"]);
    assert!(label_exists(&h, "4 commands, 315 points spent"), "the forces panel shows the saved roster");
}

/// MG-03: a roster over its points shows the problem in red and cannot be saved; Cancel
/// drops the copy and leaves the army as it was.
#[test]
fn mg_03_an_over_points_roster_shows_its_problem_and_cannot_be_saved() {
    let (_dir, mut h) = on_screen("pyrrhic", &[], "umpire");
    let head = h.state().campaign().unwrap().head;
    click_in_view(&mut h, "Edit roster of Pyrrhus…");
    assert!(!h.get_by_label("Save roster").accesskit_node().is_disabled());
    type_into(&mut h, "Elements to add to Helenus", "10 Reg El(S)");
    click_in_view(&mut h, "Add elements to Helenus");
    assert!(label_exists(&h, "543 of 350 points"));
    assert!(label_exists(&h, "the army costs 543 points, more than the 350 the scenario allows"));
    assert!(h.get_by_label("Save roster").accesskit_node().is_disabled());

    click_in_view(&mut h, "Cancel");
    assert_eq!(h.state().roster_editor(), None);
    assert!(!label_exists(&h, "543 of 350 points"));
    assert_eq!(h.state().campaign().unwrap().head, head, "nothing was stored");
}

/// MG-03 / X-01: a side edits only its own roster, in its own view.
#[test]
fn mg_03_a_side_edits_only_its_own_roster() {
    let (_dir, h) = on_screen("pyrrhic", &[], "pyrrhus");
    let offered: Vec<String> = h.query_all_by_label_contains("Edit roster of").filter_map(|n| n.accesskit_node().label()).collect();
    assert_eq!(offered, ["Edit roster of Pyrrhus…"]);
}

/// MG-03: rosters are fixed once play begins: an open editor closes when play begins, and
/// none is offered after.
#[test]
fn mg_03_after_begin_play_the_roster_editor_is_not_offered() {
    let (_dir, mut h) = dionysian_on_screen(false, &dionysian_deployment(), "umpire");
    click_in_view(&mut h, "Edit roster of Carthage…");
    assert!(label_exists(&h, "Save roster"));
    click_in_view(&mut h, "Begin play");
    assert_eq!(h.state().campaign().unwrap().state.phase, Phase::Movement);
    assert_eq!(h.state().roster_editor(), None);
    assert!(!label_exists(&h, "Save roster") && !label_exists(&h, "Edit roster"));

    send(&mut h, MagnaGraeciaCommand::EditRoster(Some(SideId::new("syracuse"))));
    assert_eq!(h.state().roster_editor(), None);
    assert!(h.state().message().is_some_and(|m| m.is_error && m.text.contains("MG-03")));
}

/// MG-06: once Hanno stands in Entella, the top bar names the alliance roll due at the end
/// of movement, so the referee knows how many dice to type in, and flags a count that does
/// not match.
#[test]
fn mg_06_the_alliance_rolls_due_are_named_beside_end_phase() {
    let (_dir, mut h) = dionysian_on_screen(true, &[], "umpire");
    assert!(!label_exists(&h, "Alliance rolls due"), "Carthage stands only in its own cities");
    select(&mut h, 3);
    click(&mut h, "Move Hanno");
    click(&mut h, &format!("→ {}", node_label(7)));
    assert!(label_exists(&h, "Alliance rolls due: Entella (1 die)"));
    fill(&mut h, &[("typed-in values", "6 5")]);
    assert!(label_exists(&h, "2 typed in"), "two values for one roll are flagged");
}

/// MG-11: picking Hanno at Segesta lights where his 2 MP reach; choosing Entella moves him
/// there along the path, the selection follows him, and he may move on with the MP left.
#[test]
fn mg_11_hanno_moves_from_segesta_to_entella_by_picking_him_and_a_destination() {
    let (_dir, mut h) = dionysian_on_screen(true, &[], "umpire");
    select(&mut h, 3);
    assert!(label_exists(&h, "Counters here (2)"), "Hamilcar and Hanno");
    assert!(label_exists(&h, "2 of 2 MP left"), "Hanno is mounted: 2 MP");

    click(&mut h, "Move Hanno");
    let hanno = CounterRef { side: SideId::new("carthage"), name: "Hanno".into() };
    assert_eq!(h.state().selected_counter(), Some(&hanno));
    for lit in [7, 4, 8] {
        assert!(label_exists(&h, &format!("→ {}", node_label(lit))), "{lit} is within Hanno's reach");
    }
    assert!(!label_exists(&h, &format!("→ {}", node_label(12))), "no path joins Segesta and Heraclea Minoa");

    click(&mut h, &format!("→ {}", node_label(7)));
    let state = &h.state().campaign().unwrap().state;
    let c = state.counter(&SideId::new("carthage"), "Hanno").unwrap();
    assert_eq!((c.node, c.mp_spent), (NodeId(7), 1));
    assert!(h.state().message().is_none_or(|m| !m.is_error));
    assert_eq!(h.state().selected(), Some(NodeId(7)), "the selection follows the counter");
    assert_eq!(h.state().selected_counter(), Some(&hanno), "he stays picked, with 1 MP left");
    assert!(label_exists(&h, "1 of 2 MP left"));
    assert!(label_exists(&h, "Carthage: Hanno moves Segesta → Entella"));

    // Escape lets him go; clicking "Move…" twice picks and lets go.
    press_key(&mut h, egui::Key::Escape);
    assert_eq!(h.state().selected_counter(), None);
    click(&mut h, "Move Hanno");
    assert_eq!(h.state().selected_counter(), Some(&hanno));
    click(&mut h, "Move Hanno");
    assert_eq!(h.state().selected_counter(), None);
    assert!(!label_exists(&h, &format!("→ {}", node_label(11))), "nothing is lit once he is let go");
}

/// MG-09: "End phase" moves the turn on, and only the umpire or the moving side sees it.
#[test]
fn mg_09_end_phase_moves_the_turn_on_for_the_moving_side_only() {
    let (_dir, mut h) = dionysian_on_screen(true, &[], "syracuse");
    assert!(label_exists(&h, "Turn 1 of 18 · Carthage: movement"));
    assert!(h.query_by_label("End phase").is_none(), "Syracuse does not end Carthage's phase");
    send(&mut h, AppCommand::SetViewer(Viewer::Side(SideId::new("carthage"))));
    // Another side's view waits for the referee, then follows.
    assert!(h.state().asking_for_referee());
    send(&mut h, AppCommand::HandBack { passphrase: String::new() });
    for expected in ["Carthage: combat", "Carthage: post-combat movement", "Syracuse: movement"] {
        click(&mut h, "End phase");
        no_error(&h);
        assert!(label_exists(&h, &format!("Turn 1 of 18 · {expected}")), "{expected}");
    }
    let state = &h.state().campaign().unwrap().state;
    assert_eq!((state.moving_side().as_str(), state.phase), ("syracuse", Phase::Movement));
    assert!(h.query_by_label("End phase").is_none(), "now Carthage waits");
}

/// MG-06: the typed-in values of the roll form are the alliance rolls of "End phase".
#[test]
fn mg_06_end_phase_takes_typed_in_dice_for_alliance_rolls() {
    let (_dir, mut h) = dionysian_on_screen(true, &[hanno_moves(7)], "umpire");
    fill(&mut h, &[("typed-in values", "6")]);
    assert!(label_exists(&h, "with typed-in dice 6"));
    click(&mut h, "End phase");
    no_error(&h);
    assert!(label_exists(&h, "Carthage: d6 = 6 [typed in] for alliance of Entella — MG-06"));
    assert!(label_exists(&h, "Entella joins Carthage — MG-06"));
    let state = &h.state().campaign().unwrap().state;
    assert_eq!(state.politics.city_allies.get(&NodeId(7)), Some(&SideId::new("carthage")));
    assert_eq!(state.phase, Phase::Combat);
    assert!(!label_exists(&h, "with typed-in dice"), "the values are used up");
}

/// MG-10: a battle raised at the end of movement is listed as due; clicking it selects the
/// battle's node, where both sides' counters stand.
#[test]
fn mg_10_battles_due_are_listed_and_select_their_node() {
    let himilco = Order::Move { side: SideId::new("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] };
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_turn(&dir, true, &[himilco]);
    let mut h = open_turn(&db, "umpire");
    click(&mut h, "End phase");
    assert!(label_exists(&h, "Battles due (1)"));
    click(&mut h, "Battle 1 at Himera: Carthage attacks Syracuse");
    assert_eq!(h.state().selected(), Some(NodeId(8)));
    assert!(label_exists(&h, "Battle 1 due here: Carthage attacks Syracuse"));
    assert!(label_exists(&h, "Himilco") && label_exists(&h, "Leptines"), "the umpire sees both by name");

    // Combat cannot end before the battle has its result: the umpire's End phase is greyed
    // out saying so; sent anyway, it is refused in words and nothing is stored.
    assert_greyed_out_saying_why(
        &mut h,
        "End phase",
        "the battle awaits its result",
        "battle 1 at Himera awaits its result",
        "the greyed End phase names the battle",
    );
    let head = h.state().campaign().unwrap().head;
    send(&mut h, MagnaGraeciaCommand::Execute(Order::EndPhase { side: SideId::new("carthage") }, DiceInput::Seeded));
    assert!(
        h.state().message().is_some_and(|m| m.is_error && m.text.contains("battle 1 at Himera awaits its result")),
        "{:?}",
        h.state().message()
    );
    assert_eq!(h.state().campaign().unwrap().head, head);

    // In Carthage's own view End phase stays live, and the rules answer after the click.
    drop(h);
    let mut h = open_turn(&db, "carthage");
    assert!(!h.get_by_label("End phase").accesskit_node().is_disabled(), "a side's buttons are not asked of the rules");
    click(&mut h, "End phase");
    assert!(h.state().message().is_some_and(|m| m.is_error && m.text.contains("awaits its result")), "{:?}", h.state().message());
    assert_eq!(h.state().campaign().unwrap().head, head);
}

/// X-01: Syracuse sees Carthage's counters only as "a Carthage counter" and "the Carthage
/// fleet": no Carthaginian command's name appears anywhere on its screen, in setup or play.
#[test]
fn x_01_a_side_sees_other_sides_counters_without_names() {
    let carthaginians = ["Himilco", "Mago", "Hamilcar", "Hanno"];
    let (_dir, mut h) = dionysian_on_screen(true, &[hanno_moves(7)], "syracuse");
    select(&mut h, 4);
    assert_eq!(h.query_all_by_label("a Carthage counter").count(), 2, "Himilco and Mago, unnamed");
    assert!(!label_exists(&h, "Move Himilco"));
    select(&mut h, 0);
    assert!(label_exists(&h, "the Carthage fleet"));
    select(&mut h, 31);
    assert!(label_exists(&h, "Dionysius") && label_exists(&h, "Syracuse fleet"), "its own by name");
    for name in carthaginians {
        assert!(!label_exists(&h, name), "Syracuse's screen must not show {name}");
    }
    assert!(label_exists(&h, "Carthage: a counter moves Segesta → Entella"));
    // A Carthage counter cannot be picked out from Syracuse's screen.
    send(&mut h, MagnaGraeciaCommand::SelectCounter(Some(CounterRef { side: SideId::new("carthage"), name: "Hanno".into() })));
    assert_eq!(h.state().selected_counter(), None);

    let (_dir, mut h) = dionysian_on_screen(false, &[], "syracuse");
    select(&mut h, 31);
    assert!(label_exists(&h, "Syracuse: 0 of 5 deployed") && !label_exists(&h, "Carthage: 0 of 5"));
    assert!(h.query_by_label("Begin play").is_none(), "play is begun by the umpire");
    for name in carthaginians {
        assert!(!label_exists(&h, name), "Syracuse's deployment must not show {name}");
    }
}

fn himilco_attacks_leptines() -> Vec<Order> {
    vec![
        Order::Move { side: SideId::new("carthage"), counter: "Himilco".into(), path: vec![NodeId(8)] },
        Order::EndPhase { side: SideId::new("carthage") },
    ]
}

fn groups_of(h: &Harness<'_, RefereeApp>, side: &str, command: &str) -> Vec<String> {
    let state = &h.state().campaign().unwrap().state;
    state.armies[&SideId::new(side)]
        .commands
        .iter()
        .find(|c| c.name == command)
        .map(|c| c.elements.iter().map(ToString::to_string).collect())
        .unwrap_or_default()
}

/// MG-20 / MG-30 / MG-15: the umpire enters Himilco's victory over Leptines at Himera in the
/// result form — losses on both sides, a road cut, the players' recovery dice typed in; a
/// refusal keeps the form open with its entries; then Leptines retreats with the panel's
/// buttons, the rules refusing the road that was cut.
#[test]
fn mg_20_the_himera_result_is_entered_in_the_form_and_leptines_retreats_mg_15() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    assert!(label_exists(&h, "Battles due (1)"));
    click_in_view(&mut h, "Enter result of battle 1…");
    assert!(h.state().dialog_open());
    assert!(label_exists(&h, "Battle 1 at Himera — result"));
    assert!(h.get_by_label("Record result").accesskit_node().is_disabled(), "no winner picked yet");
    assert!(label_exists(&h, "To record: pick the winner, or no result"), "the reason is in sight");
    // The outcome comes first, above every side's losses.
    let winner = h.get_by_label("Winner").rect();
    assert!(winner.max.y < h.get_by_label("Reg Sp(O) of Himilco destroyed").rect().min.y, "the winner above the losses");

    pick_winner(&mut h, "Carthage");
    h.get_by_label("Reg Sp(O) of Himilco destroyed").set_value_accesskit(1.0);
    set_value(&mut h, "Reg Sp(O) of Leptines destroyed", 2.0);
    assert!(label_exists(&h, "Recovery dice: 3 dice"));
    click(&mut h, &format!("Road to {} open for Syracuse", node_label(4)));

    // Two dice for three rolls: the rules refuse, the form stays with its entries.
    let head = h.state().campaign().unwrap().head;
    type_into(&mut h, "typed-in values", "3 2");
    click(&mut h, "Record result");
    assert!(
        h.state().message().is_some_and(|m| m.is_error && m.text.contains("typed in") && !m.text.contains("X-02")),
        "{:?}",
        h.state().message()
    );
    assert_eq!(h.state().campaign().unwrap().head, head);
    assert!(h.state().dialog_open(), "a refused result leaves the form open");
    assert!(label_exists(&h, "Recovery dice: 3 dice"), "with its entries");

    // Himilco held the field (+2): 3 recovers; Leptines: 2 is lost, 5 recovers.
    type_into(&mut h, "typed-in values", " 5");
    click(&mut h, "Record result");
    no_error(&h);
    assert!(!h.state().dialog_open(), "the form closes on success");
    assert!(h.state().campaign().unwrap().state.battles.is_empty());
    assert!(groups_of(&h, "carthage", "Himilco").contains(&"8 Reg Sp(O)".to_owned()), "{:?}", groups_of(&h, "carthage", "Himilco"));
    assert!(groups_of(&h, "syracuse", "Leptines").contains(&"13 Reg Sp(O)".to_owned()), "{:?}", groups_of(&h, "syracuse", "Leptines"));
    assert!(label_exists(&h, "[typed in] for recovery of Reg Sp(O) of Leptines"));

    click_in_view(&mut h, "End phase");
    assert_eq!(h.state().campaign().unwrap().state.phase, Phase::PostCombat);
    assert!(label_exists(&h, "Retreats due (1)"));
    let head = h.state().campaign().unwrap().head;
    click_in_view(&mut h, &format!("Retreat Leptines to {}", node_label(4)));
    assert!(h.state().message().is_some_and(|m| m.is_error && m.text.contains("MG-15")), "the road to Panormus was cut");
    assert_eq!(h.state().campaign().unwrap().head, head);
    click_in_view(&mut h, &format!("Retreat Leptines to {}", node_label(9)));
    no_error(&h);
    assert_eq!(counter_at(&h, "syracuse", "Leptines"), Some(NodeId(9)));
    assert!(!label_exists(&h, "Retreats due"));
}

/// MG-20 / X-01: a side's view has no result form.
#[test]
fn mg_20_a_side_s_view_offers_no_result_form() {
    let (_dir, mut h) = battle_due_at_himera("carthage");
    assert!(label_exists(&h, "Battles due (1)"));
    assert!(!label_exists(&h, "Enter result"));
    send(&mut h, MagnaGraeciaCommand::OpenDialog(Some(referee::gui::Dialog::BattleResult(1))));
    assert!(!h.state().dialog_open());
}

/// MG-05: at Himera, a city allied to Syracuse, Leptines defends beside the city's own two
/// commands. The result form lists Himera 1 and Himera 2 in Syracuse's column below Leptines,
/// with their elements; a loss typed in for Himera 1 is recorded with the battle and stays
/// with the city.
#[test]
fn mg_05_an_allied_city_s_commands_are_in_the_result_form_beside_the_side_s_counter() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    let state = &h.state().campaign().unwrap().state;
    assert_eq!(state.politics.city_allies.get(&NodeId(8)), Some(&SideId::new("syracuse")), "Himera is Syracuse's ally");
    assert_eq!(state.battles[0].city, Some(NodeId(8)), "its commands fight the battle");
    assert!(state.counter(&SideId::new("syracuse"), "Leptines").is_some_and(|c| c.node == NodeId(8)));

    click_in_view(&mut h, "Enter result of battle 1…");
    assert!(label_exists(&h, "Battle 1 at Himera — result"));
    let column = h.get_by_label("Syracuse (defender)").rect();
    let attacker = h.get_by_label("Carthage (attacker)").rect();
    assert!(attacker.center().x < column.left(), "the defender's column is right of the attacker's");
    for name in ["Leptines", "Himera 1", "Himera 2"] {
        let at = h.get_by_label(name).rect();
        let (ours, theirs) = ((at.left() - column.left()).abs(), (at.left() - attacker.left()).abs());
        assert!(ours < theirs, "{name} at {at:?} is not in Syracuse's column ({column:?}) but Carthage's ({attacker:?})");
        assert!(label_exists(&h, &format!("General of {name} killed")), "{name} has no entries");
    }
    assert!(h.get_by_label("Himera 1").rect().top() > h.get_by_label("Leptines").rect().top(), "the city's commands follow the side's");
    // The city's commands as they stand: six inferior spearmen each, untouched so far.
    assert!(label_exists(&h, "Reg Sp(I) of Himera 1 destroyed") && label_exists(&h, "Reg Sp(I) of Himera 2 destroyed"));

    pick_winner(&mut h, "Syracuse");
    set_value(&mut h, "Reg Sp(I) of Himera 1 destroyed", 2.0);
    assert!(label_exists(&h, "Recovery dice: 2 dice"));
    // Syracuse held the field (+2): 1 + 2 is lost, 4 + 2 recovers.
    type_into(&mut h, "typed-in values", "1 4");
    click_in_view(&mut h, "Record result");
    no_error(&h);
    assert!(!h.state().dialog_open(), "the form closes on success");
    let state = &h.state().campaign().unwrap().state;
    assert!(state.battles.is_empty(), "the battle is resolved");
    let city = &state.siege.city_forces_left[&NodeId(8)];
    let groups = |name: &str| -> Vec<String> {
        city.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("{name} is gone")).elements.iter().map(ToString::to_string).collect()
    };
    assert!(groups("Himera 1").contains(&"5 Reg Sp(I)".to_owned()), "{:?}", groups("Himera 1"));
    assert!(groups("Himera 2").contains(&"6 Reg Sp(I)".to_owned()), "{:?}", groups("Himera 2"));
    assert!(label_exists(&h, "[typed in] for recovery of Reg Sp(I) of Himera 1"));
    assert!(groups_of(&h, "syracuse", "Leptines").contains(&"14 Reg Sp(O)".to_owned()), "Leptines lost nothing");
}

/// MG-31: Thearides stands beside Leptines at Himera. In the result form the men of a general
/// killed go by default to the command beside him, Thearides's to Leptines and Leptines's to
/// Thearides, the city's Himera 1's to Himera 2, and "nobody: leaderless" is greyed out with
/// the reason on hover; with the general lost on the die, Thearides's men join Leptines.
#[test]
fn mg_31_the_result_form_sends_a_lost_generals_men_to_the_friendly_command_beside_him() {
    let dir = tempfile::tempdir().unwrap();
    let mut commands = deploy_orders(&moved(&DIONYSIAN, "syracuse", "Thearides", 8));
    commands.push(Order::BeginPlay {});
    commands.extend(himilco_attacks_leptines());
    let db = database_with(&dir, "dionysian", &commands);
    let mut h = open_turn(&db, "umpire");
    click_in_view(&mut h, "Enter result of battle 1…");
    pick_winner(&mut h, "Carthage");
    let joins = |h: &Harness<'_, RefereeApp>, name: &str| {
        h.get_by_role_and_label(Role::ComboBox, &format!("If lost, the men of {name} join")).value().unwrap_or_default()
    };
    for (killed, default) in [("Thearides", "Leptines"), ("Leptines", "Thearides"), ("Himera 1", "Himera 2")] {
        click_in_view(&mut h, &format!("General of {killed} killed"));
        assert_eq!(joins(&h, killed), default, "{killed}'s men join {default} unless the referee picks another");
        click_in_view(&mut h, &format!("General of {killed} killed"));
    }
    click_in_view(&mut h, "General of Thearides killed");
    click_in_view(&mut h, "If lost, the men of Thearides join");
    assert_greyed_out_saying_why(
        &mut h,
        "nobody: leaderless",
        "Leptines can take them in",
        "Leptines stands with them to take them in",
        "the greyed choice says why",
    );
    click_in_view(&mut h, "If lost, the men of Thearides join");

    // The general rolls 1 + 1: lost, and his men go to Leptines.
    type_into(&mut h, "typed-in values", "1");
    click_in_view(&mut h, "Record result");
    no_error(&h);
    assert!(!h.state().dialog_open(), "the form closes on success");
    assert_eq!(counter_at(&h, "syracuse", "Thearides"), None, "Thearides's men have joined Leptines");
    assert!(h.state().campaign().unwrap().state.losses.leaderless.is_empty(), "nobody is left leaderless");
}

/// MG-31: at Himera Leptines stands alone among Syracuse's own commands (the city's do not
/// take a side's men), so the form's "if lost, joins" is greyed out at "nobody: leaderless" and
/// says why on hover.
#[test]
fn mg_31_with_no_friendly_command_beside_him_a_lost_generals_men_fight_on_leaderless() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    click_in_view(&mut h, "Enter result of battle 1…");
    click_in_view(&mut h, "General of Leptines killed");
    let combo = h.get_by_role_and_label(Role::ComboBox, "If lost, the men of Leptines join");
    assert_eq!(combo.value().as_deref(), Some("nobody: leaderless"));
    assert!(combo.accesskit_node().is_disabled());
    combo.hover();
    h.run();
    assert!(label_exists(&h, "No other Syracuse command at Himera can take them in"), "the greyed choice says why");
}

/// MG-14: in Syracuse's movement Dionysius hands elements to Leptines with the exchange
/// dialog, then Agyris boards the fleet at Syracuse and leaves it again with the panel's
/// buttons; a command with no MP left is refused in words.
#[test]
fn mg_14_exchange_embark_and_disembark_through_the_panel() {
    let dir = tempfile::tempdir().unwrap();
    let mut commands: Vec<Order> = DIONYSIAN
        .iter()
        .map(|&(side, counter, node)| Order::Deploy {
            side: SideId::new(side),
            counter: counter.into(),
            node: NodeId(if matches!(counter, "Leptines" | "Agyris") { 31 } else { node }),
        })
        .collect();
    commands.push(Order::BeginPlay {});
    commands.extend((0..3).map(|_| Order::EndPhase { side: SideId::new("carthage") }));
    let db = database_with(&dir, "dionysian", &commands);
    let mut h = open_turn(&db, "syracuse");
    assert!(label_exists(&h, "Syracuse: movement"));
    select(&mut h, 31);

    let first = groups_of(&h, "syracuse", "Dionysius")[0].clone();
    let (count, spec) = first.split_once(' ').unwrap();
    let count: u32 = count.parse().unwrap();
    click_in_view(&mut h, "Exchange elements of Dionysius…");
    assert!(label_exists(&h, "Exchange elements from Dionysius"));
    set_value(&mut h, &format!("{spec} to hand over"), 1.0);
    click(&mut h, "Hand over");
    no_error(&h);
    assert!(!h.state().dialog_open(), "the dialog closes once the rules take the exchange");
    let left = (count > 1).then(|| format!("{} {spec}", count - 1));
    assert_eq!(groups_of(&h, "syracuse", "Dionysius").into_iter().find(|g| g.ends_with(spec)), left);

    click_in_view(&mut h, "Embark Dionysius");
    assert!(h.state().message().is_some_and(|m| m.is_error && m.text.contains("none left — MG-14")), "the exchange spent his MP");

    let aboard =
        |h: &Harness<'_, RefereeApp>| h.state().campaign().unwrap().state.counter(&SideId::new("syracuse"), "Agyris").unwrap().aboard;
    click_in_view(&mut h, "Embark Agyris");
    no_error(&h);
    assert!(aboard(&h));
    assert!(label_exists(&h, "aboard"));
    click_in_view(&mut h, "Disembark Agyris");
    assert!(!aboard(&h));
}

/// MG-35: when Carthage loses at Messana, Syracuse may change sides at once: the notice
/// offers "Turn to Rome", and taking it makes Hiero Rome's ally.
#[test]
fn mg_35_hiero_turns_to_rome_from_the_notice() {
    let dir = tempfile::tempdir().unwrap();
    let s = |x: &str| SideId::new(x);
    let db = database_with(&dir, "first-punic", &referee_campaign::fixtures::appius_marches_on_tyndaris());
    let mut h = open_turn(&db, "umpire");
    assert!(!label_exists(&h, "may change sides now"));
    let battle = h.state().campaign().unwrap().state.battles[0].id;
    let result = referee_campaign::magna_graecia::battle::BattleResult {
        battle,
        outcome: referee_campaign::magna_graecia::battle::Outcome::Won { winner: s("rome") },
        held_field: None,
        losses: vec![],
        open_roads: Default::default(),
        city_attacked_by: None,
    };
    send(&mut h, MagnaGraeciaCommand::Execute(Order::RecordBattleResult { result }, DiceInput::Seeded));
    assert!(label_exists(&h, "Syracuse may change sides now"));
    assert!(h.query_by_label("Turn to Carthage").is_none(), "Carthage is its ally already");
    click_in_view(&mut h, "Turn to Rome");
    no_error(&h);
    let state = &h.state().campaign().unwrap().state;
    assert!(!state.are_enemies(&s("syracuse"), &s("rome")) && state.are_enemies(&s("syracuse"), &s("carthage")));
    assert!(!label_exists(&h, "may change sides now"), "the offer is taken");
}

/// MG-18: Carthage's fleet, beaten off Himera with Himilco aboard, owes five carried
/// elements: the window counts the choice and sends it when it is exactly five.
#[test]
fn mg_18_losses_at_sea_are_chosen_in_their_window() {
    let dir = tempfile::tempdir().unwrap();
    let s = |x: &str| SideId::new(x);
    let mut commands: Vec<Order> = DIONYSIAN
        .iter()
        .map(|&(side, counter, node)| {
            let node = match (side, counter) {
                ("carthage", "fleet") => 4,
                ("syracuse", "fleet") => 8,
                ("syracuse", "Leptines") => 31,
                _ => node,
            };
            Order::Deploy { side: s(side), counter: counter.into(), node: NodeId(node) }
        })
        .collect();
    commands.push(Order::BeginPlay {});
    commands.push(Order::Embark { side: s("carthage"), counter: "Himilco".into() });
    commands.push(Order::Move { side: s("carthage"), counter: "fleet".into(), path: vec![NodeId(8)] });
    let db = database_with(&dir, "dionysian", &commands);
    let mut h = open_turn(&db, "umpire");
    // Carthage rolls 1 and Syracuse 6: Carthage loses 5 NP, and its five recovery rolls of 1
    // bring none back (MG-30).
    send(&mut h, MagnaGraeciaCommand::Execute(Order::EndPhase { side: s("carthage") }, DiceInput::Manual(vec![1, 6, 1, 1, 1, 1, 1])));
    assert_eq!(h.state().campaign().unwrap().state.naval.naval_losses_due.get(&s("carthage")), Some(&5));
    assert!(label_exists(&h, "Losses at sea: Carthage"));
    assert!(label_exists(&h, "0 of 5 chosen"));
    assert!(h.get_by_label("Lose these elements").accesskit_node().is_disabled());
    set_value(&mut h, "Reg Sp(O) of Himilco lost", 5.0);
    assert!(label_exists(&h, "5 of 5 chosen"));
    click(&mut h, "Lose these elements");
    no_error(&h);
    assert!(h.state().campaign().unwrap().state.naval.naval_losses_due.is_empty());
    assert!(!label_exists(&h, "Losses at sea"));
}

/// MG-25: a battle without a loser is entered as "no result" in the form; each side's
/// written choice is entered beside the battle, and the side that retires owes a retreat.
#[test]
fn mg_25_no_result_then_stay_or_retire_from_the_battle_list() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    click_in_view(&mut h, "Enter result of battle 1…");
    pick_winner(&mut h, "no result (MG-25)");
    click(&mut h, "Record result");
    no_error(&h);
    assert!(!h.state().dialog_open());
    assert!(label_exists(&h, "No result: each side writes stay or retire (MG-25)"));
    click_in_view(&mut h, "Carthage chooses to stay after battle 1");
    assert!(label_exists(&h, "has chosen"));
    click_in_view(&mut h, "Syracuse chooses to retire after battle 1");
    no_error(&h);
    assert!(h.state().campaign().unwrap().state.battles.is_empty());
    assert!(label_exists(&h, "Retreats due (1)"), "Leptines retires");
}

impl Prep {
    /// A campaign called "Turn" of `scenario`, its dice seeded with `seed`, in a database in
    /// `dir`.
    fn new(dir: &tempfile::TempDir, scenario: &str, seed: u64) -> (Prep, std::path::PathBuf) {
        let path = dir.path().join("referee.sqlite");
        (Prep::create(&path, "Turn", scenario, seed), path)
    }

    fn end(&mut self, side: &str, dice: DiceInput) -> Vec<referee_campaign::magna_graecia::event::Event> {
        self.go(&Order::EndPhase { side: SideId::new(side) }, dice)
    }

    fn deploy(&mut self, deployment: &[(&str, &str, u8)]) {
        for &(side, counter, node) in deployment {
            self.go(&Order::Deploy { side: SideId::new(side), counter: counter.into(), node: NodeId(node) }, DiceInput::Seeded);
        }
        self.go(&Order::BeginPlay {}, DiceInput::Seeded);
    }

    /// Himilco marches on Leptines at Himera and the battle is raised (MG-10).
    fn himera(dir: &tempfile::TempDir, deployment: &[(&str, &str, u8)]) -> (Prep, std::path::PathBuf) {
        let (mut p, path) = Prep::new(dir, "dionysian", 12);
        p.deploy(deployment);
        for c in himilco_attacks_leptines() {
            p.go(&c, DiceInput::Seeded);
        }
        (p, path)
    }

    /// Hanno marches to neutral Camicus and Agyris follows him there: a battle beside a
    /// neutral city, with an ally-general in it (MG-08, MG-23).
    fn camicus(dir: &tempfile::TempDir) -> (Prep, std::path::PathBuf) {
        let s = |x: &str| SideId::new(x);
        let (mut p, path) = Prep::new(dir, "dionysian", 9);
        p.deploy(&DIONYSIAN);
        p.go(&Order::Move { side: s("carthage"), counter: "Hanno".into(), path: vec![NodeId(7), NodeId(11)] }, DiceInput::Seeded);
        p.end("carthage", DiceInput::Manual(vec![2]));
        p.end_carthage_s_combat();
        p.go(&Order::Move { side: s("syracuse"), counter: "Agyris".into(), path: vec![NodeId(11)] }, DiceInput::Seeded);
        p.end("syracuse", DiceInput::Manual(vec![3]));
        (p, path)
    }

    /// Himilco, Mago and Hamilcar march on Leptines at Himera, in strength enough to besiege
    /// him and the city's own commands (MG-27).
    fn himera_in_strength(dir: &tempfile::TempDir, deployment: &[(&'static str, &'static str, u8)]) -> (Prep, std::path::PathBuf) {
        let (mut p, path) = Prep::new(dir, "dionysian", 12);
        p.deploy(&referee_campaign::fixtures::dionysian_for_a_siege(deployment));
        for c in referee_campaign::fixtures::march_on_himera() {
            p.go(&c, DiceInput::Seeded);
        }
        (p, path)
    }

    /// Carthage marches on Himera in strength and Leptines withdraws into the city with its
    /// own commands: Himera is besieged (MG-27), in Carthage's combat phase.
    fn besieged(dir: &tempfile::TempDir, deployment: &[(&'static str, &'static str, u8)]) -> (Prep, std::path::PathBuf) {
        let (mut p, path) = Prep::himera_in_strength(dir, deployment);
        p.withdraw();
        (p, path)
    }

    /// Syracuse withdraws into the city instead of the battle due (MG-27).
    fn withdraw(&mut self) {
        let battle = self.campaign.state.battles[0].id;
        self.go(&Order::WithdrawIntoCity { side: SideId::new("syracuse"), battle }, DiceInput::Seeded);
    }

    /// Ends Carthage's combat and post-combat movement phases: the next side moves.
    fn end_carthage_s_combat(&mut self) {
        self.end("carthage", DiceInput::Seeded);
        self.end("carthage", DiceInput::Seeded);
    }

    /// From Carthage's combat phase to its next movement phase.
    fn round(&mut self) {
        self.end_carthage_s_combat();
        for _ in 0..3 {
            self.end("syracuse", DiceInput::Seeded);
        }
    }
}

fn besieged(h: &Harness<'_, RefereeApp>, name: &str) -> bool {
    h.state().campaign().unwrap().state.counter(&SideId::new("syracuse"), name).is_some_and(|c| c.inside)
}

/// The referee's window, seen as `view_as`, on Himera besieged with Leptines inside (MG-27):
/// in Carthage's combat phase, or in Syracuse's movement phase after it when `syracuse_moves`.
fn besieged_at_himera(
    deployment: &[(&'static str, &'static str, u8)],
    syracuse_moves: bool,
    view_as: &str,
) -> (tempfile::TempDir, Harness<'static, RefereeApp>) {
    let dir = tempfile::tempdir().unwrap();
    let (mut p, db) = Prep::besieged(&dir, deployment);
    if syracuse_moves {
        p.end_carthage_s_combat();
    }
    drop(p);
    let h = open_turn(&db, view_as);
    (dir, h)
}

/// MG-27: beside the battle at Himera, a fortified city Syracuse holds, "Withdraw into the
/// city" is offered to the defender only: Carthage's screen has none, Syracuse's takes
/// Leptines inside and the battle becomes a siege, which the node's panel shows.
#[test]
fn mg_27_the_defender_withdraws_into_the_city_from_the_battle_list() {
    let dir = tempfile::tempdir().unwrap();
    let (_, db) = Prep::himera_in_strength(&dir, &DIONYSIAN);
    let h = open_turn(&db, "carthage");
    assert!(label_exists(&h, "Battles due (1)"));
    assert!(!label_exists(&h, "withdraws into"), "the attacker may not withdraw");
    drop(h);

    let mut h = open_turn(&db, "syracuse");
    hover(&mut h, "Syracuse withdraws into Himera instead of battle 1");
    assert!(label_exists(&h, "the besieger needs at least as many effective elements (MG-27)"), "the hover says what it means");
    click_in_view(&mut h, "Syracuse withdraws into Himera instead of battle 1");
    no_error(&h);
    let state = &h.state().campaign().unwrap().state;
    assert!(state.battles.is_empty() && state.siege.sieges.len() == 1);
    assert!(besieged(&h, "Leptines"));
    assert!(!label_exists(&h, "Battles due"));
    select(&mut h, 8);
    assert!(label_exists(&h, "Besieged by Carthage"));
    assert!(label_exists(&h, "no siege roll yet"));
    assert!(label_exists(&h, "inside the walls"), "Leptines is listed inside");
}

/// MG-27, X-03: a besieger weaker than the force inside cannot hold it. The umpire's button
/// is greyed out with the rules' reason on hover (offered actions are legal actions); in
/// Syracuse's view, which does not know Carthage's strength, the button stays live and the
/// refusal says the besieger falls short without telling by how much.
#[test]
fn mg_27_a_besieger_too_weak_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut two = DIONYSIAN;
    two[8] = ("syracuse", "Agyris", 8);
    let (_, db) = Prep::himera(&dir, &two);
    let mut h = open_turn(&db, "umpire");
    assert_greyed_out_saying_why(
        &mut h,
        "Syracuse withdraws into Himera instead of battle 1",
        "the umpire is offered only what the rules take",
        "too few to besiege them: the battle must be fought — MG-27",
        "the reason is on hover",
    );
    drop(h);

    let mut h = open_turn(&db, "syracuse");
    assert!(!h.get_by_label("Syracuse withdraws into Himera instead of battle 1").accesskit_node().is_disabled());
    click_in_view(&mut h, "Syracuse withdraws into Himera instead of battle 1");
    let message = h.state().message().cloned().unwrap();
    assert!(message.is_error && message.text.contains("the battle must be fought"), "{message:?}");
    assert!(!message.text.contains("20"), "Carthage's strength reached Syracuse: {}", message.text);
    assert_eq!(h.state().campaign().unwrap().state.battles.len(), 1);
}

/// MG-27: in its own movement phase the besieged side sallies from the node's panel; the
/// siege ends and Leptines stands outside the walls again.
#[test]
fn mg_27_the_besieged_sally_out_from_the_node_panel() {
    let (_dir, mut h) = besieged_at_himera(&DIONYSIAN, false, "syracuse");
    select(&mut h, 8);
    assert!(h.get_by_label("Sally out of Himera").accesskit_node().is_disabled(), "not in Carthage's combat phase");
    drop(h);

    let (_dir, mut h) = besieged_at_himera(&DIONYSIAN, true, "syracuse");
    assert!(label_exists(&h, "Syracuse: movement"));
    select(&mut h, 8);
    click_in_view(&mut h, "Sally out of Himera");
    no_error(&h);
    assert!(h.state().campaign().unwrap().state.siege.sieges.is_empty());
    assert!(!besieged(&h, "Leptines"));
    assert!(!label_exists(&h, "Besieged by Carthage"));
}

/// MG-28: Himera falls on a modified 8 after three turns of siege; Carthage owes a fifth of
/// the force inside, Leptines' and the city's own. End phase is greyed out, saying why, until the losses window sends the
/// choice.
#[test]
fn mg_28_the_besieger_s_losses_are_chosen_in_their_window() {
    let dir = tempfile::tempdir().unwrap();
    let (mut p, db) = Prep::besieged(&dir, &DIONYSIAN);
    for _ in 0..3 {
        p.round();
        p.end("carthage", DiceInput::Manual(vec![6]));
    }
    assert!(p.campaign.state.siege.sieges.is_empty(), "Himera has fallen");
    drop(p);
    let mut h = open_turn(&db, "umpire");
    assert!(label_exists(&h, "Siege losses at Himera: Carthage"));
    assert!(label_exists(&h, "0 of 10 chosen"));
    assert!(h.get_by_label("Lose these elements").accesskit_node().is_disabled());
    assert_greyed_out_saying_why(
        &mut h,
        "End phase",
        "End phase is greyed out while Carthage owes its siege losses",
        "Carthage must first choose which 10 elements it lost at Himera — MG-28",
        "the greyed End phase names the losses owed",
    );

    let count =
        |h: &Harness<'_, RefereeApp>| h.state().campaign().unwrap().state.armies[&SideId::new("carthage")].commands[0].element_count();
    let before = count(&h);
    set_value(&mut h, "Reg Sp(O) of Himilco lost", 8.0);
    set_value(&mut h, "Reg Sp(S) of Himilco lost", 2.0);
    assert!(label_exists(&h, "10 of 10 chosen"));
    click(&mut h, "Lose these elements");
    no_error(&h);
    assert!(h.state().campaign().unwrap().state.siege.siege_losses_due.is_empty());
    assert!(!label_exists(&h, "Siege losses at Himera"));
    assert_eq!(count(&h), before - 10, "Himilco lost ten elements");
}

/// MG-29: a natural 1 on the siege roll brings disease, shown in the node's panel; when it
/// strikes Syracuse, the window lists the commands inside the walls to choose from.
#[test]
fn mg_29_disease_is_shown_and_its_losses_chosen_among_those_inside() {
    let dir = tempfile::tempdir().unwrap();
    let (mut p, db) = Prep::besieged(&dir, &DIONYSIAN);
    p.round();
    p.end("carthage", DiceInput::Manual(vec![1]));
    p.end_carthage_s_combat();
    p.end("syracuse", DiceInput::Manual(vec![1]));
    drop(p);
    let mut h = open_turn(&db, "syracuse");
    select(&mut h, 8);
    assert!(label_exists(&h, "Disease in the camp and the city (MG-29)"));
    assert!(label_exists(&h, "Disease losses at Himera: Syracuse"));
    assert!(label_exists(&h, "0 of 2 chosen"));
    set_value(&mut h, "Reg Sp(O) of Leptines lost", 2.0);
    click(&mut h, "Lose these elements");
    no_error(&h);
    assert_eq!(h.state().campaign().unwrap().state.losses.elements_lost[&SideId::new("syracuse")], 2);
    assert!(!label_exists(&h, "Disease losses at Himera"));
}

/// MG-32: the umpire ends the campaign by agreement from the Campaign menu with a reason;
/// the top bar and the panel then say it is over, with the final victory points. A side's
/// menu has no such item.
#[test]
fn mg_32_the_campaign_ends_by_agreement_from_the_menu() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_turn(&dir, true, &[]);
    let mut h = open_turn(&db, "carthage");
    click(&mut h, "Campaign ▾");
    assert!(!label_exists(&h, "End campaign by agreement…"), "only the umpire ends a campaign");
    drop(h);

    let mut h = open_turn(&db, "umpire");
    click(&mut h, "Campaign ▾");
    click(&mut h, "End campaign by agreement…");
    assert!(h.state().dialog_open());
    assert!(h.get_by_label("End campaign").accesskit_node().is_disabled(), "no reason yet");
    type_into(&mut h, "Reason", "peace of 392 BC");
    click(&mut h, "End campaign");
    no_error(&h);
    assert!(!h.state().dialog_open());
    assert_eq!(h.state().campaign().unwrap().state.phase, Phase::Ended);
    assert!(label_exists(&h, "Campaign over"));
    assert!(label_exists(&h, "Final victory points"));
    assert!(label_exists(&h, "Final: "), "the top bar shows the final points");
    assert!(h.query_by_label("End phase").is_none());
}

/// MG-34 / MG-32: in the Pyrrhic War Syracuse falls to Carthage and is out of the campaign;
/// then a Pyrrhic command at Messena goes home from the node's panel for 2 VP, one a turn.
#[test]
fn mg_34_pyrrhus_leads_a_command_home_through_messena() {
    let dir = tempfile::tempdir().unwrap();
    let (mut p, db) = Prep::new(&dir, "pyrrhic", 3);
    p.deploy(&[
        ("carthage", "Hamilcar", 22),
        ("carthage", "Hanno", 22),
        ("carthage", "Bomilcar", 22),
        ("carthage", "Gisco", 22),
        ("carthage", "fleet", 30),
        ("pyrrhus", "Pyrrhus", 28),
        ("pyrrhus", "Leonnatus", 28),
        ("pyrrhus", "Helenus", 28),
        ("pyrrhus", "Heraclides of Leontini", 28),
        ("syracuse", "Sosistratus", 31),
        ("syracuse", "Thoenon", 31),
        ("syracuse", "Agathon", 25),
        ("syracuse", "fleet", 31),
    ]);
    let carthaginians = ["Hamilcar", "Hanno", "Bomilcar", "Gisco"];
    let rest = ["pyrrhus", "pyrrhus", "pyrrhus", "syracuse", "syracuse", "syracuse"];
    for hop in [23u8, 31] {
        for name in carthaginians {
            p.go(&Order::Move { side: SideId::new("carthage"), counter: name.into(), path: vec![NodeId(hop)] }, DiceInput::Seeded);
        }
        p.end("carthage", DiceInput::Seeded);
        if hop == 31 {
            break;
        }
        p.end_carthage_s_combat();
        for s in rest {
            p.end(s, DiceInput::Seeded);
        }
    }
    p.withdraw();
    for _ in 0..8 {
        p.end_carthage_s_combat();
        for s in rest {
            p.end(s, DiceInput::Seeded);
        }
        let events = p.end("carthage", DiceInput::Manual(vec![6]));
        if events.iter().any(|e| matches!(e, referee_campaign::magna_graecia::event::Event::CityFell { .. })) {
            break;
        }
    }
    assert!(p.campaign.state.politics.eliminated.contains(&SideId::new("syracuse")));
    let due = p.campaign.state.siege.siege_losses_due[&SideId::new("carthage")].elements;
    let lost = vec![("Hanno".to_owned(), format!("{due} Reg Sp(O)").parse().unwrap())];
    p.go(&Order::AllocateSiegeLosses { side: SideId::new("carthage"), lost, sunk: vec![] }, DiceInput::Seeded);
    p.end_carthage_s_combat();
    drop(p);

    let mut h = open_turn(&db, "umpire");
    assert!(label_exists(&h, "Pyrrhus: movement"));
    assert!(label_exists(&h, "out of the campaign"), "Syracuse is marked out in the forces");
    select(&mut h, 28);
    assert!(label_exists(&h, "Lead Pyrrhus home through Messena"), "each Pyrrhic command at Messena may go");
    click_in_view(&mut h, "Lead Leonnatus home through Messena");
    no_error(&h);
    assert!(counter_at(&h, "pyrrhus", "Leonnatus").is_none(), "Leonnatus has left the map");
    assert!(label_exists(&h, "Pyrrhus: 2 VP (1 command home)"));
    // One a turn: the umpire's button for the next is greyed out with the rule.
    assert_greyed_out_saying_why(&mut h, "Lead Helenus home through Messena", "one a turn", "MG-34", "the reason is on hover");
}

/// MG-07: in Carthage's combat phase Hanno stands at neutral Entella: the node's panel offers
/// "Attack the city of Entella…" to the umpire and Carthage, not to Syracuse; the choice
/// offers only Carthage's enemy. The city turns to Syracuse, and in the result form its own
/// command "Entella 1" fights in Syracuse's column; beaten, it joins Carthage.
#[test]
fn mg_07_attacking_a_neutral_city_from_the_node_panel() {
    let dir = tempfile::tempdir().unwrap();
    let s = |x: &str| SideId::new(x);
    let (mut p, db) = Prep::new(&dir, "dionysian", 9);
    p.deploy(&DIONYSIAN);
    p.go(&Order::Move { side: s("carthage"), counter: "Hanno".into(), path: vec![NodeId(7)] }, DiceInput::Seeded);
    p.end("carthage", DiceInput::Manual(vec![2]));
    drop(p);

    let mut h = open_turn(&db, "syracuse");
    select(&mut h, 7);
    assert!(!label_exists(&h, "Attack the city of Entella"), "only the moving side attacks");
    drop(h);
    let mut h = open_turn(&db, "carthage");
    select(&mut h, 7);
    assert!(label_exists(&h, "Attack the city of Entella…"), "Carthage attacks from its own screen");
    drop(h);

    let mut h = open_turn(&db, "umpire");
    assert!(label_exists(&h, "Carthage: combat"));
    select(&mut h, 7);
    hover(&mut h, "Attack the city of Entella…");
    assert!(label_exists(&h, "The city joins your enemy and its own commands fight this battle (MG-07)"));
    click_in_view(&mut h, "Attack the city of Entella…");
    assert!(label_exists(&h, "it turns to:"));
    assert!(h.query_by_label("Entella turns to Carthage").is_none(), "the city turns to an enemy of the attacker");
    click_in_view(&mut h, "Entella turns to Syracuse");
    no_error(&h);
    let state = &h.state().campaign().unwrap().state;
    assert_eq!(state.politics.city_allies[&NodeId(7)], s("syracuse"));
    assert_eq!(state.battles.len(), 1);
    assert!(!label_exists(&h, "Attack the city of Entella"), "the battle is raised");

    click_in_view(&mut h, "Enter result of battle 1…");
    assert!(label_exists(&h, "Entella 1"), "the city's command fights for Syracuse");
    assert!(label_exists(&h, "the city's command"));
    assert!(!label_exists(&h, "The city was attacked by"), "Entella is no longer neutral");
    pick_winner(&mut h, "Carthage");
    set_value(&mut h, "Reg Sp(I) of Entella 1 destroyed", 4.0);
    assert!(label_exists(&h, "Recovery dice: 4 dice"));
    type_into(&mut h, "typed-in values", "1 1 1 1");
    click(&mut h, "Record result");
    no_error(&h);
    assert!(!h.state().dialog_open());
    let state = &h.state().campaign().unwrap().state;
    assert_eq!(state.politics.city_allies[&NodeId(7)], s("carthage"), "its beaten forces join the victor");
    assert!(state.battles.is_empty());
}

/// MG-19: Syracuse's fleet lies at Himera, besieged with Leptines inside: in Syracuse's
/// movement "Shelter" under the fleet shelters it, and the panel marks it sheltered.
#[test]
fn mg_19_the_fleet_shelters_from_the_counters_here() {
    let mut deployment = DIONYSIAN;
    deployment[9] = ("syracuse", "fleet", 8);
    let (_dir, mut h) = besieged_at_himera(&deployment, false, "umpire");
    select(&mut h, 8);
    assert!(h.query_by_label("Shelter the Syracuse fleet").is_none(), "not in Carthage's turn");
    drop(h);

    let (_dir, mut h) = besieged_at_himera(&deployment, true, "syracuse");
    assert!(label_exists(&h, "Syracuse: movement"));
    select(&mut h, 8);
    hover(&mut h, "Shelter the Syracuse fleet");
    assert!(label_exists(&h, "no troops may stay aboard (MG-19)"), "the hover says what it means");
    click_in_view(&mut h, "Shelter the Syracuse fleet");
    no_error(&h);
    assert!(h.state().campaign().unwrap().state.counter(&SideId::new("syracuse"), "fleet").unwrap().sheltered);
    assert!(label_exists(&h, "sheltered"), "the panel marks it");
    assert!(h.query_by_label("Shelter the Syracuse fleet").is_none(), "sheltered already");

    // Where there are no walls, no shelter is offered.
    select(&mut h, 10);
    assert!(h.query_by_label("Shelter the Syracuse fleet").is_none());
}

/// MG-08: Hanno and Agyris meet at neutral Camicus; the result form asks who attacked the
/// city, and since Carthage did, Camicus joins Syracuse though Carthage won.
#[test]
fn mg_08_the_result_form_says_who_attacked_the_neutral_city() {
    let dir = tempfile::tempdir().unwrap();
    let s = |x: &str| SideId::new(x);
    let (p, db) = Prep::camicus(&dir);
    assert_eq!(p.campaign.state.battles.len(), 1);
    drop(p);

    let mut h = open_turn(&db, "umpire");
    click_in_view(&mut h, "Enter result of battle 1…");
    assert!(label_exists(&h, "The city was attacked by"));
    pick_winner(&mut h, "Carthage");
    click(&mut h, "The city was attacked by");
    assert!(label_exists(&h, "none"));
    click(&mut h, "Carthage");
    click(&mut h, "Record result");
    no_error(&h);
    assert!(!h.state().dialog_open());
    assert_eq!(
        h.state().campaign().unwrap().state.politics.city_allies[&NodeId(11)],
        s("syracuse"),
        "the city joins the side that did not attack it"
    );
}

/// MG-36: in the Second Punic War the Syracusan and Carthaginian fleets lie together at
/// Helorus in Syracuse's movement: "Combine fleets under Syracuse" is greyed until Carthage's
/// "Put the Carthage fleet under Syracuse", then makes them one.
#[test]
fn mg_36_allied_fleets_combine_from_the_node_panel() {
    let dir = tempfile::tempdir().unwrap();
    let s = |x: &str| SideId::new(x);
    let (mut p, db) = Prep::new(&dir, "second-punic", 4);
    p.deploy(&referee_campaign::fixtures::SYRACUSE_BESIEGED);
    let sail = |p: &mut Prep, side: &str, path: &[u8]| {
        p.go(&Order::Move { side: s(side), counter: "fleet".into(), path: path.iter().map(|&n| NodeId(n)).collect() }, DiceInput::Seeded);
    };
    let pass = |p: &mut Prep, side: &str| {
        for _ in 0..3 {
            p.end(side, DiceInput::Seeded);
        }
    };
    sail(&mut p, "rome", &[26, 24, 25]);
    pass(&mut p, "rome");
    pass(&mut p, "syracuse");
    p.go(&Order::Land { side: s("carthage"), counter: "fleet".into(), node: NodeId(30) }, DiceInput::Seeded);
    // The army lands far to the west, where Motya's own command meets it and is beaten (MG-10).
    for name in ["Himilco", "Hanno", "Muttines"] {
        p.go(&Order::Land { side: s("carthage"), counter: name.into(), node: NodeId(0) }, DiceInput::Seeded);
    }
    p.end("carthage", DiceInput::Seeded);
    while let Some(battle) = p.campaign.state.battles.first() {
        let result = referee_campaign::fixtures::won_outright(battle.id, "carthage");
        p.go(&Order::RecordBattleResult { result }, DiceInput::Seeded);
    }
    p.end("carthage", DiceInput::Seeded);
    p.end("carthage", DiceInput::Seeded);
    pass(&mut p, "rome");
    sail(&mut p, "syracuse", &[30]);
    drop(p);

    let mut h = open_turn(&db, "umpire");
    select(&mut h, 30);
    assert!(h.get_by_label("Combine fleets under Carthage").accesskit_node().is_disabled(), "not Carthage's movement");
    assert!(h.get_by_label("Combine fleets under Syracuse").accesskit_node().is_disabled(), "Carthage has not offered its fleet");
    click_in_view(&mut h, "Put the Carthage fleet under Syracuse");
    no_error(&h);
    click_in_view(&mut h, "Combine fleets under Syracuse");
    no_error(&h);
    let state = &h.state().campaign().unwrap().state;
    assert_eq!((state.fleet_np(&s("syracuse")), state.fleet_np(&s("carthage"))), (10, 0));
    assert!(state.counter(&s("carthage"), "fleet").is_none());
    assert!(h.query_by_label("Combine fleets under Syracuse").is_none(), "one fleet is left");
}

/// MG-21 / MG-22: the umpire sets the table at Himera from the battle's "Set table…" window:
/// the rear section on a 4'×6' table with the attacker's right cut off, the players' dice
/// typed in for the weather and time of day; the battle's row then shows the table, and it
/// cannot be set twice.
#[test]
fn mg_21_mg_22_the_table_is_set_from_its_window_and_shown_with_the_battle() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    assert!(label_exists(&h, "Carthage: combat"));
    click_in_view(&mut h, "Set table of battle 1…");
    assert!(h.state().dialog_open());
    assert!(label_exists(&h, "Battle 1 at Himera — set the table, day 1"));
    assert!(label_exists(&h, "where its road came in (MG-21)"), "Himilco's road of entry settles the attacker's edge");
    assert!(label_exists(&h, "the 4' strip furthest from the attacker"), "each choice says what it means");

    click_in_view(&mut h, "Rear");
    click_in_view(&mut h, "4'×6' table");
    click_in_view(&mut h, "right");
    type_into(&mut h, "typed-in values", "3 5");
    assert!(label_exists(&h, "typed in: 3 5"), "the window shows the players' dice");
    click_in_view(&mut h, "Set table and roll weather");
    no_error(&h);
    assert!(!h.state().dialog_open(), "the window closes once the table is set");

    let state = &h.state().campaign().unwrap().state;
    let table = state.battle_table(1).expect("the table is set").clone();
    assert_eq!(
        (table.day, table.defence, table.cut),
        (1, referee_campaign::magna_graecia::table::Defence::Rear, Some(referee_campaign::magna_graecia::table::Flank::Right))
    );
    assert_eq!((table.weather.as_str(), table.time_of_day.as_str()), ("fair", "early afternoon"), "d6 3 and 5 (MG-22)");
    let line = format!("Day 1: {} · weather: fair · early afternoon", table.describe());
    assert!(label_exists(&h, &line), "the battle's row shows {line}");
    assert!(label_exists(&h, "[typed in] for weather, battle 1 at Himera"), "the rolls are logged as typed in");
    assert!(h.get_by_label("Set table of battle 1…").accesskit_node().is_disabled(), "day 1 is set once");
}

/// A fresh folder name under a temporary directory, as a string for the text field.
fn folder_in(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).display().to_string()
}

/// Replaces the text of the pack window's folder field.
fn set_folder(h: &mut Harness<'_, RefereeApp>, folder: &str) {
    replace_text(h, "Folder", folder);
    assert_eq!(h.get_by_role_and_label(Role::TextInput, "Folder").value().as_deref(), Some(folder));
}

/// the battle's "Battle pack…" window writes the umpire's file and one per side into
/// the folder typed in, for DBSA on US Letter, and lists them with their readers; a folder
/// that cannot be made is one red sentence.
#[test]
fn x_04_a_battle_pack_is_written_from_its_window() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    click_in_view(&mut h, "Battle pack of battle 1…");
    assert!(label_exists(&h, "Battle pack — battle 1 at Himera"));
    let default = h.get_by_role_and_label(Role::TextInput, "Folder").value().unwrap_or_default();
    assert!(default.ends_with("Turn"), "the folder defaults to one named for the campaign: {default}");
    assert!(!label_exists(&h, "Scaling"), "DBM has no scaling");
    let write = h.get_by_label("Write pack").rect();
    click_in_view(&mut h, "DBSA");
    assert!(label_exists(&h, "Scaling") && label_exists(&h, "Figures"), "DBSA asks how to scale the armies");
    assert_eq!(h.get_by_label("Write pack").rect(), write, "other rules, other options: Write pack stays where it was");
    let scaling = h.get_by_role_and_label(Role::ComboBox, "Scaling").value();
    assert_eq!(scaling.as_deref(), Some("per battle"), "the whole battle by one factor is the scaling chosen unless changed");
    click_in_view(&mut h, "US Letter");

    let out = tempfile::tempdir().unwrap();
    let folder = folder_in(&out, "packs");
    set_folder(&mut h, &folder);
    click_in_view(&mut h, "Write pack");
    no_error(&h);
    let names = ["battle-01-dbsa-umpire.pdf", "battle-01-dbsa-carthage.pdf", "battle-01-dbsa-syracuse.pdf"];
    for name in names {
        let path = out.path().join("packs").join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(bytes.starts_with(b"%PDF"), "{name} is a PDF");
        assert!(label_exists(&h, name), "the window lists {name}");
    }
    assert!(label_exists(&h, "umpire"), "each file says who reads it");
    assert!(h.state().dialog_open(), "the window stays open with its list");
    let umpire = std::fs::read(out.path().join("packs").join("battle-01-dbsa-umpire.pdf")).unwrap();
    let umpire = referee_battle_gen::pdf::extract_text(&umpire).unwrap().join(" ").replace('\n', " ");
    assert!(umpire.contains("Scaling: the whole battle at one scale"), "the window's scaling is per battle unless changed: {umpire}");
    assert!(umpire.contains("The battle's factor") && !umpire.contains("WARNING"), "{umpire}");
    // Written again into the same folder: refused, naming the files, until replacing is asked.
    click_in_view(&mut h, "Write pack");
    assert!(label_exists(&h, "already holds battle-01-dbsa-umpire.pdf"), "the window says why nothing was written");
    click_in_view(&mut h, "Replace files already there");
    click_in_view(&mut h, "Write pack");
    assert!(!label_exists(&h, "already holds") && label_exists(&h, "battle-01-dbsa-carthage.pdf"), "the files were replaced");

    // A file where the folder should be: the folder cannot be made.
    let blocked = out.path().join("not a folder");
    std::fs::write(&blocked, "x").unwrap();
    set_folder(&mut h, &blocked.display().to_string());
    click_in_view(&mut h, "Write pack");
    assert!(label_exists(&h, "cannot make the folder"), "the failure is shown in the window");
}

/// once Himera's result is in, the battle is gone from the list of battles due, and
/// its pack is printed again from the Campaign menu as it went to the table: Carthage's brief
/// is the one handed out before the game, text for text, though Himilco has since lost men.
#[test]
fn x_04_a_past_battle_s_pack_is_printed_again_from_the_campaign_menu() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    let out = tempfile::tempdir().unwrap();
    let brief = |folder: &str| {
        let bytes = std::fs::read(std::path::Path::new(folder).join("battle-01-dbm-carthage.pdf")).unwrap();
        referee_battle_gen::pdf::extract_text(&bytes).unwrap().join("\n")
    };
    click_in_view(&mut h, "Battle pack of battle 1…");
    let first = folder_in(&out, "first");
    set_folder(&mut h, &first);
    click_in_view(&mut h, "Write pack");
    no_error(&h);
    let handed_out = brief(&first);
    click(&mut h, "Close");

    click_in_view(&mut h, "Enter result of battle 1…");
    pick_winner(&mut h, "Carthage");
    h.get_by_label("Reg Sp(O) of Himilco destroyed").set_value_accesskit(1.0);
    set_value(&mut h, "Reg Sp(O) of Leptines destroyed", 2.0);
    type_into(&mut h, "typed-in values", "3 2 5");
    click(&mut h, "Record result");
    no_error(&h);
    assert!(h.state().campaign().unwrap().state.battles.is_empty(), "the battle is over");

    click(&mut h, "Campaign ▾");
    click(&mut h, "A past battle's pack…");
    let battle = h.get_by_role_and_label(Role::ComboBox, "Battle").value();
    assert_eq!(battle.as_deref(), Some("Battle 1 at Himera, turn 1"), "the battle just fought is chosen");
    let again = folder_in(&out, "again");
    set_folder(&mut h, &again);
    let head = h.state().campaign().unwrap().head;
    click(&mut h, "Write pack");
    no_error(&h);
    assert!(label_exists(&h, "battle-01-dbm-umpire.pdf"), "the window lists the files written");
    assert_eq!(brief(&again), handed_out, "the brief printed again is the brief handed out");
    assert_eq!(h.state().campaign().unwrap().head, head, "printing stores nothing");
}

/// "Packs for every battle…" writes every battle's pack on a background thread, the
/// window staying responsive with a progress bar, then says what was written.
#[test]
fn x_04_packs_for_every_battle_are_written_in_the_background() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    click_in_view(&mut h, "Packs for every battle…");
    assert!(label_exists(&h, "Battle packs — every battle due (1)"));
    let out = tempfile::tempdir().unwrap();
    set_folder(&mut h, &folder_in(&out, "all"));
    h.get_by_label("Write packs").click();
    h.step();
    h.step();
    for _ in 0..600 {
        if !h.state().packs_running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    assert!(!h.state().packs_running(), "the packs were written within 12 s");
    h.run();
    no_error(&h);
    assert!(out.path().join("all").join("battle-01-dbm-umpire.pdf").is_file());
    assert!(label_exists(&h, "Packs of 1 battle written: 3 files in"), "the window says what was written");
}

/// MG-23: in the result form Hanno is declared demoralised by Carthage, and the result
/// records it as voluntary; Agyris, Syracuse's ally-general, cannot be.
#[test]
fn mg_23_a_command_is_declared_demoralised_but_an_ally_general_s_cannot_be() {
    let dir = tempfile::tempdir().unwrap();
    let (p, db) = Prep::camicus(&dir);
    drop(p);

    let mut h = open_turn(&db, "umpire");
    click_in_view(&mut h, "Enter result of battle 1…");
    assert_greyed_out_saying_why(
        &mut h,
        "Agyris declared demoralised",
        "Agyris is an ally-general (MG-23)",
        "only a side's own commands may be declared demoralised",
        "the greyed box says why",
    );

    pick_winner(&mut h, "Syracuse");
    click_in_view(&mut h, "Hanno declared demoralised");
    click_in_view(&mut h, "Record result");
    no_error(&h);
    assert!(!h.state().dialog_open());
    let campaign = h.state().campaign().unwrap();
    let events = h.state().store().events_as::<MagnaGraecia>(campaign.id).unwrap();
    let hanno = events
        .iter()
        .find_map(|l| match &l.event {
            referee_campaign::magna_graecia::event::Event::BattleResolved { aftermath, .. } => {
                aftermath.iter().find(|a| a.command == "Hanno").cloned()
            }
            _ => None,
        })
        .expect("the battle is resolved with Hanno in it");
    assert!(hanno.voluntary && hanno.demoralised, "{hanno:?}");
}

/// a side's screen lists the battle but offers neither packs nor the table;
/// sent anyway, a pack is refused in words and nothing is written.
#[test]
fn x_04_a_side_s_view_offers_no_battle_pack() {
    let (_dir, mut h) = battle_due_at_himera("carthage");
    assert!(label_exists(&h, "Battles due (1)"));
    for hidden in ["Battle pack", "Packs for every battle", "Set table"] {
        assert!(!label_exists(&h, hidden), "Carthage's screen must not offer {hidden}");
    }
    send(&mut h, MagnaGraeciaCommand::OpenDialog(Some(referee::gui::Dialog::BattlePack(Some(1)))));
    assert!(!h.state().dialog_open());
    let out = tempfile::tempdir().unwrap();
    let mut settings = referee::gui::PackSettings::new("Turn");
    settings.folder = folder_in(&out, "side");
    send(&mut h, MagnaGraeciaCommand::WritePack { battle: 1, settings });
    assert!(h.state().asking_for_referee(), "a side's screen asks for the referee before any pack");
    send(&mut h, AppCommand::AskReferee(None));
    assert!(!h.state().asking_for_referee());
    assert_eq!(h.state().viewer(), Some(&Viewer::Side(SideId::new("carthage"))));
    assert!(!out.path().join("side").exists(), "nothing is written");
}

/// MG-25: after both sides stay, the second day's table keeps the attacker's edge and lets
/// the defender only hold its section or fall back: "Forward" is greyed out after "central".
#[test]
fn mg_25_the_second_day_s_table_may_only_fall_back() {
    let dir = tempfile::tempdir().unwrap();
    let s = |x: &str| SideId::new(x);
    let (mut p, db) = Prep::himera(&dir, &DIONYSIAN);
    let defence = referee_campaign::magna_graecia::table::Defence::Central;
    p.go(&Order::SetUpTable { battle: 1, defence, cut: None, attacker_edge: None }, DiceInput::Seeded);
    let result = referee_campaign::magna_graecia::battle::BattleResult {
        battle: 1,
        outcome: referee_campaign::magna_graecia::battle::Outcome::NoResult {},
        held_field: None,
        losses: vec![],
        open_roads: Default::default(),
        city_attacked_by: None,
    };
    p.go(&Order::RecordBattleResult { result }, DiceInput::Seeded);
    for side in ["carthage", "syracuse"] {
        p.go(&Order::ChooseStayOrRetire { side: s(side), battle: 1, stay: true }, DiceInput::Seeded);
    }
    assert_eq!(p.campaign.state.battles[0].day, 2);
    drop(p);

    let mut h = open_turn(&db, "umpire");
    assert!(label_exists(&h, "Day 1: central section"), "day 1's table is still shown");
    click_in_view(&mut h, "Set table of battle 1…");
    assert!(label_exists(&h, "set the table, day 2"));
    assert!(label_exists(&h, "kept from day 1, MG-25"));
    assert!(h.get_by_label("Forward").accesskit_node().is_disabled(), "the field may not move toward the attacker");
    assert!(!h.get_by_label("Central").accesskit_node().is_disabled() && !h.get_by_label("Rear").accesskit_node().is_disabled());
    click_in_view(&mut h, "Rear");
    click_in_view(&mut h, "Set table and roll weather");
    no_error(&h);
    let table = h.state().campaign().unwrap().state.battle_table(1).unwrap().clone();
    assert_eq!((table.day, table.defence), (2, referee_campaign::magna_graecia::table::Defence::Rear));
    assert!(label_exists(&h, "Day 2: rear section"));
}

/// AB-08, AC-06, MG-20: the result of a battle played with the Ars Bellum pack is entered as
/// the counters eliminated: Leptines's counter and one of his units gone fill in his general
/// killed and his elements destroyed, and the result is recorded as the campaign's.
#[test]
fn ab_08_a_hex_battle_s_counters_lost_fill_in_the_result_form() {
    let (_dir, mut h) = battle_due_at_himera("umpire");
    click_in_view(&mut h, "Enter result of battle 1…");
    pick_winner(&mut h, "Carthage");
    click(&mut h, "Ars Bellum counters");
    assert!(label_exists(&h, "Syracuse: "), "the Syracusans' counters are listed");
    // Syracuse's first counter is Leptines himself, the next his first unit.
    click(&mut h, "Syracuse counter 1 lost");
    click(&mut h, "Syracuse counter 2 lost");
    let general = h.get_by_label("General of Leptines killed");
    assert_eq!(general.accesskit_node().toggled(), Some(egui::accesskit::Toggled::True), "the leader eliminated is the general killed");
    assert!(!label_exists(&h, "Recovery dice: 1 die"), "elements destroyed besides the general");
    click(&mut h, "Record result");
    no_error(&h);
    assert!(h.state().campaign().unwrap().state.battles.is_empty());
}

/// at fit zoom, in both window sizes and in the umpire's and a side's view, no name on
/// the Magna Graecia map overprints another name, a node's marker or a counter — at set-up,
/// with the armies deployed, and with a battle due.
#[test]
fn x_04_names_on_the_magna_graecia_map_never_overprint_at_fit_zoom() {
    let mut battle = deploy_orders(&moved(&DIONYSIAN, "syracuse", "Thearides", 8));
    battle.push(Order::BeginPlay {});
    battle.extend(himilco_attacks_leptines());
    let mut begun = dionysian_deployment();
    begun.push(Order::BeginPlay {});
    for (moment, commands) in [("set-up", Vec::new()), ("deployed", begun), ("battle due", battle)] {
        let dir = tempfile::tempdir().unwrap();
        let db = database_with(&dir, "dionysian", &commands);
        for size in support::SCREENS {
            for view in ["umpire", "carthage"] {
                let app = RefereeApp::open_db(&db, Catalog::embedded(), None, Some("Turn"), Some("umpire")).unwrap();
                let mut h = support::harness_sized(app, size);
                h.run();
                take_back(&mut h);
                if view != "umpire" {
                    send(&mut h, AppCommand::SetViewer(Viewer::Side(SideId::new(view))));
                }
                support::assert_map_names_clear(&h, &format!("{moment}, {view}'s view, {size:?}"));
            }
        }
    }
}

/// The Magna Graecia map's symbols and names are made into pictures at the window's first
/// frame and kept: in both window sizes they fit the texture they share, so none is made and
/// sent again at the frames after (as all of them were at 1280×800, when the texture started
/// too small: a twentieth of the start-up without a graphics card).
#[test]
fn the_map_pictures_of_the_first_frame_are_kept_for_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_turn(&dir, true, &[]);
    for size in support::SCREENS {
        let mut app = RefereeApp::open_db(&db, Catalog::embedded(), None, Some("Turn"), Some("umpire")).unwrap();
        // A context of its own, made ready as the window makes its own: the test harness
        // takes in the textures sent.
        let ctx = egui::Context::default();
        app.prepare_context(&ctx);
        let mut sent = Vec::new();
        for _ in 0..4 {
            let input = egui::RawInput { screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)), ..Default::default() };
            let mut output = ctx.run_ui(input, |ui| app.frame_ui(ui));
            let textures = ctx.tex_manager();
            let textures = textures.read();
            let pictures = |id: &egui::TextureId| textures.meta(*id).is_some_and(|m| m.name.starts_with("sprite"));
            sent.push(output.textures_delta.set.iter().filter(|(id, _)| pictures(id)).map(|(_, deltas)| deltas.len()).sum::<usize>());
            output.textures_delta.clear();
        }
        assert!(sent[0] > 20, "{size:?}: the first frame made only {} pictures", sent[0]);
        assert_eq!(sent[1..], [0, 0, 0], "{size:?}: pictures sent at each of the first frames: {sent:?}");
    }
}

/// The Magna Graecia map is fitted again when the window is resized, and a double click fits
/// it without selecting the node under the pointer.
#[test]
fn x_04_the_node_map_refits_on_resize_and_a_double_click_selects_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_with_turn(&dir, true, &[]);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), None, Some("Turn"), Some("umpire")).unwrap();
    support::assert_map_refits_and_a_double_click_selects_nothing(app, |app| format!("{:?}", app.selected()));
}
