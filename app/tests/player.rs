//! X-06: the player's desk, the app on a side's packet, drawn as its window draws it.

mod support;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use referee::gui::PlayerApp;
use support::{click, click_containing, send};

/// Runs `referee ARGS…` in this process and requires it to succeed.
fn referee(args: &[&str]) -> String {
    let mut all = vec!["referee".to_owned()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    match referee::cli::run(all, &mut out, &mut err) {
        referee::cli::Launch::Exit(0) => String::from_utf8(out).unwrap(),
        other => panic!("{args:?}: {other:?}: {}", String::from_utf8_lossy(&err)),
    }
}

/// A Dionysian War just begun, and Carthage's packet of it, in `dir`.
fn carthage_packet(dir: &Path) -> PathBuf {
    let db = dir.join("campaign.sqlite");
    let db = db.to_str().unwrap();
    referee(&["--db", db, "new", "dionysian", "--name", "Mail", "--seed", "9"]);
    let packet = dir.join("carthage.packet");
    referee(&["--db", db, "packet", "Mail", "--as", "carthage", "--out", packet.to_str().unwrap()]);
    packet
}

/// An italy-535 campaign named Italia in `dir` with `orders` given and, once any are, the
/// referee's phases read off `show`'s Next up to the Byzantines' first segment; and the
/// Byzantines' packet of it.
fn italia(dir: &Path, seed: &str, orders: &[&str]) -> PathBuf {
    let db = dir.join("campaign.sqlite");
    let db = db.to_str().unwrap();
    referee(&["--db", db, "new", "italy-535", "--name", "Italia", "--seed", seed]);
    for order in orders {
        referee(&["--db", db, "order", "Italia", order]);
    }
    for _ in 0..if orders.is_empty() { 0 } else { 4 } {
        let shown = referee(&["--db", db, "show", "Italia"]);
        let next = shown.split("\nNext:\n").nth(1).unwrap();
        assert!(next.starts_with("  The referee"), "{next}");
        referee(&["--db", db, "order", "Italia", next.lines().nth(1).unwrap().trim()]);
    }
    let packet = dir.join("byzantines.packet");
    referee(&["--db", db, "packet", "Italia", "--as", "byzantines", "--out", packet.to_str().unwrap()]);
    packet
}

/// The player writes `order` and `comment` in the desk's fields.
fn write_order(h: &mut Harness<'_, PlayerApp>, order: &str, comment: &str) {
    h.state_mut().write_order(order, comment);
    h.run();
}

/// The plan on the desk, which must hold `n` orders by now (if not, what the desk said).
fn planned(h: &Harness<'_, PlayerApp>, n: usize) -> Vec<(u32, String, String)> {
    let plan = h.state().plan();
    assert_eq!(plan.len(), n, "{:?}", h.state().message());
    plan
}

/// The player's desk on `packet`, drawn.
fn desk(packet: &Path) -> Harness<'static, PlayerApp> {
    support::desk_harness(PlayerApp::open(packet).unwrap())
}

/// X-06, MG-02: the player reads what comes next in words, writes an order and plans it; an
/// order the side can see is wrong is refused on the desk in red with its rule, and nothing
/// is planned; the plan is reordered and cut with its buttons; "Send orders…" writes the
/// orders file beside the packet, which the referee's `order --as` reads.
#[test]
fn x_06_the_players_desk_plans_orders_and_sends_them() {
    let dir = tempfile::tempdir().unwrap();
    let packet = carthage_packet(dir.path());
    let mut h = desk(&packet);
    assert!(h.query_by_label_contains("Carthage's packet · Mail").is_some(), "the bar names the side and the campaign");
    assert!(h.query_by_label_contains("No orders yet.").is_some());

    // What the rules expect of Carthage now, each order a click from the field.
    assert!(h.query_by_label_contains("Carthage deploys its counters (MG-02)").is_some(), "the desk says what comes next");
    assert!(h.query_by_label_contains("deploy Carthage's Himilco at 00 Motya").is_some(), "each order of Next in words");
    assert!(h.query_by_label_contains(r#""type":"deploy""#).is_none(), "the JSON a hover away, in the field once edited");
    h.get_all_by_label("Edit").next().unwrap().click();
    h.run();
    click(&mut h, "Plan it");
    planned(&h, 1);
    click(&mut h, "Undo last");
    assert!(h.state().plan().is_empty());

    write_order(&mut h, r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":31}"#, "");
    click(&mut h, "Plan it");
    let (refused, text) = h.state().message().map(|(r, t)| (r, t.to_owned())).unwrap();
    assert!(refused && text.contains("Carthage may not deploy Himilco at 31 Syracuse") && text.contains("MG-02"), "{text}");
    assert!(h.state().plan().is_empty());

    for (order, comment) in [
        (r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":4}"#, "the main army"),
        (r#"{"type":"deploy","side":"carthage","counter":"Mago","node":3}"#, ""),
        (r#"{"type":"garrison","side":"carthage","command":"Mago","elements":[],"into_garrison":true}"#, ""),
    ] {
        write_order(&mut h, order, comment);
        click(&mut h, "Plan it");
        assert_eq!(h.state().message().map(|(r, _)| r), Some(false), "{order}: {:?}", h.state().message());
    }
    let plan = h.state().plan();
    assert_eq!(plan.len(), 3, "{plan:?}");
    assert!(plan[0].2.contains("checked as far as Carthage can tell"), "{plan:?}");
    assert!(plan[2].2.contains("for the referee to check"), "{plan:?}");
    assert!(h.query_by_label_contains("Comment: the main army").is_some());

    // The garrison order up to first, then the second deployment out.
    h.get_all_by_label("Up").last().unwrap().click();
    h.run();
    assert!(h.state().plan()[1].1.contains("garrison"), "{:?}", h.state().plan());
    click(&mut h, "Remove 3");
    // A comment written in the field goes to an order already planned.
    write_order(&mut h, "", "hold the walls");
    click(&mut h, "Comment 2");
    assert!(h.query_by_label_contains("Comment: hold the walls").is_some(), "{:?}", h.state().message());
    let plan = h.state().plan();
    assert_eq!(plan.len(), 2, "{plan:?}");
    assert!(plan[0].1.contains("Himilco") && plan[1].1.contains("garrison"), "{plan:?}");

    click(&mut h, "Send orders…");
    let (refused, text) = h.state().message().map(|(r, t)| (r, t.to_owned())).unwrap();
    assert!(!refused && text.contains("orders-carthage-turn1-line1.json"), "{text}");
    let file = dir.path().join("orders-carthage-turn1-line1.json");
    let sent: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(sent["side"], "carthage");
    assert_eq!(sent["orders"].as_array().unwrap().len(), 2, "{sent}");
    assert_eq!(sent["comments"][0]["text"], "the main army", "{sent}");
}

/// X-06, X-01: the player's desk has nothing of the referee's: no view to switch to, no
/// dice, no seed, no undo of stored orders; it draws the side's map and log.
#[test]
fn x_06_the_players_desk_has_nothing_of_the_referees() {
    let dir = tempfile::tempdir().unwrap();
    let packet = carthage_packet(dir.path());
    let h = desk(&packet);
    for referees in ["View as", "Dice", "Seed", "Reveal", "Undo:", "umpire"] {
        assert!(h.query_by_label_contains(referees).is_none(), "the player's desk shows {referees}");
    }
    assert!(h.query_by_label_contains("Campaign “Mail” begins").is_some(), "the side's log is drawn");
    assert!(PlayerApp::open(&dir.path().join("campaign.sqlite")).unwrap_err().to_string().contains("is not a side's packet"));
}

/// X-06: the referee's side of it in the app: Campaign ▸ Send a side its packet… writes the
/// packet from the Play by e-mail window; Take in a side's orders… reads the player's orders
/// file, lists its orders with their comments before anything is given, and takes them in,
/// after which the log reads them and the file cannot be taken in twice.
#[test]
fn x_06_the_referee_sends_packets_and_takes_orders_in_from_the_app() {
    use referee::gui::{AppCommand, RefereeApp};
    use referee_campaign::magna_graecia::catalog::Catalog;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("campaign.sqlite");
    referee(&["--db", db.to_str().unwrap(), "new", "dionysian", "--name", "Mail", "--seed", "9"]);
    let app = RefereeApp::open_db(&db, Catalog::embedded(), None, Some("Mail"), Some("umpire")).unwrap();
    let mut h = support::opened(app);
    click(&mut h, "Campaign ▾");
    click(&mut h, "Send a side its packet…");
    let folder = dir.path().join("mail");
    send(&mut h, AppCommand::ShowMail(true));
    // The folder typed into the window's field.
    send(&mut h, AppCommand::WritePacket { side: referee_campaign::SideId::new("carthage"), folder: folder.display().to_string() });
    assert!(h.query_by_label_contains("mail-turn-01-side-carthage-line-1.packet").is_some(), "the window says what it wrote");
    let packet = std::fs::read_dir(&folder).unwrap().next().unwrap().unwrap().path();

    // The player plans two deployments, one of them commented, and sends them.
    let p = packet.to_str().unwrap();
    referee(&["--packet", p, "order", r#"{"type":"deploy","side":"carthage","counter":"Himilco","node":4}"#, "--comment", "to Panormus"]);
    referee(&["--packet", p, "order", r#"{"type":"deploy","side":"carthage","counter":"Mago","node":4}"#]);
    referee(&["--packet", p, "orders", "--out", folder.to_str().unwrap()]);
    let orders = folder.join("orders-carthage-turn1-line1.json");

    send(&mut h, AppCommand::ReadOrders(orders.display().to_string()));
    assert!(
        h.query_by_label_contains("1. deploy Carthage's Himilco at 04 Panormus").is_some(),
        "the orders are listed before they are given"
    );
    assert!(h.query_by_label_contains("comment: to Panormus").is_some());
    assert_eq!(h.state().incoming_drawn(), 2, "the orders are drawn on the map as planned before they are taken in");
    click(&mut h, "Take them in");
    h.run();
    assert_eq!(h.state().incoming_drawn(), 0, "orders taken in are done, not planned");
    let said = h.state().message().map(|m| m.text.clone()).unwrap_or_default();
    assert!(said.contains("Carthage deploys Himilco at Panormus"), "{said}");
    send(&mut h, AppCommand::ReadOrders(orders.display().to_string()));
    assert!(h.query_by_label_contains("log has moved on since the packet").is_some(), "a file taken in once has been answered");
    assert!(h.query_by_label_contains("Take them in anyway").is_some());
    assert_eq!(h.state().incoming_drawn(), 2);
    // A side's orders read by the referee are not drawn for another viewer.
    send(&mut h, AppCommand::SetViewer(referee_campaign::Viewer::Side(referee_campaign::SideId::new("syracuse"))));
    assert_eq!(h.state().incoming_drawn(), 0, "Carthage's orders are not Syracuse's to see");
}

/// X-06, MG-02, MG-03: the desk has the order buttons Carthage has on the referee's screen,
/// and what they order goes into the plan, never to the rules: a counter picked and a node
/// selected deploy it; a node the side may not deploy at is refused in red, with where it
/// may; the roster editor saves the army as a planned order.
#[test]
fn mg_02_the_desks_buttons_plan_deployments_and_the_roster() {
    use referee::gui::MagnaGraeciaCommand;
    use referee_campaign::ids::NodeId;

    let dir = tempfile::tempdir().unwrap();
    let packet = carthage_packet(dir.path());
    let mut h = desk(&packet);
    assert!(h.query_by_label_contains("Carthage: 0 of 5 deployed").is_some(), "the deployment panel of the side's view");
    click(&mut h, "Pick Himilco to deploy");
    send(&mut h, MagnaGraeciaCommand::Select(Some(NodeId(4))));
    click(&mut h, "Deploy Himilco at 04 Panormus");
    let plan = planned(&h, 1);
    assert!(plan[0].1.contains("Himilco") && plan[0].2.contains("checked as far as Carthage can tell"), "{plan:?}");
    assert!(h.query_by_label_contains("Carthage: 0 of 5 deployed").is_some(), "planned is not done: the view is the packet's");

    // Syracuse is no Carthaginian deployment area, as the side's own view says: greyed out.
    click(&mut h, "Pick Mago to deploy");
    send(&mut h, MagnaGraeciaCommand::Select(Some(NodeId(31))));
    assert!(h.get_by_label("Deploy Mago at 31 Syracuse").accesskit_node().is_disabled());
    send(&mut h, MagnaGraeciaCommand::Select(Some(NodeId(3))));
    click(&mut h, "Deploy Mago at 03 Segesta");
    planned(&h, 2);

    // The roster editor prices the army with the packet's points table; saving plans it.
    // ("Edit roster…" is below the fold of the panel at this size: the click it gives.)
    send(&mut h, MagnaGraeciaCommand::EditRoster(Some(referee_campaign::ids::SideId::new("carthage"))));
    assert!(h.query_by_label_contains("Roster of Carthage").is_some(), "the roster editor opens on the desk");
    click(&mut h, "Save roster");
    let plan = planned(&h, 3);
    assert!(plan[2].1.contains("army"), "{plan:?}");
    assert!(h.query_by_label_contains("Roster of Carthage").is_none(), "the editor closes once its army is planned");

    // What only the referee does is refused on a side's desk.
    send(&mut h, MagnaGraeciaCommand::ShowSeed(true));
    let (refused, text) = h.state().message().map(|(r, t)| (r, t.to_owned())).unwrap();
    assert!(refused && text.contains("referee's"), "{text}");
}

/// X-06, BE-49: a Belisarius side's desk shows its Table of Organisation with its own
/// leaders' cards, and places a set-up line with the button its view offers: planned, not
/// done. The packet carries the side's own cards and no other side's.
#[test]
fn be_49_the_desk_places_a_set_up_line_into_the_plan() {
    use referee::gui::BelisariusCommand;
    use referee_campaign::belisarius::map::SeaId;
    use referee_campaign::belisarius::state::Location;

    let dir = tempfile::tempdir().unwrap();
    let packet = italia(dir.path(), "4", &[]);
    let mut h = desk(&packet);
    assert!(h.query_by_label_contains("Table of Organisation — Byzantines").is_some());
    assert!(h.query_by_label_contains("Belisarius (commander-in-chief) · strategic 8").is_some(), "the side's own cards");
    assert!(h.query_by_label_contains("Vitiges").is_none(), "no Ostrogothic card on the Byzantine desk");
    send(&mut h, BelisariusCommand::SelectPlace(Some(Location::Sea(SeaId::new("ionium")))));
    click_containing(&mut h, "Place the whole line of line 1 at");
    let plan = planned(&h, 1);
    assert!(plan[0].1.contains("the Byzantines' set-up line 1 at Ionian Sea"), "{plan:?}");

    let body: String =
        rusqlite::Connection::open(&packet).unwrap().query_row("SELECT body FROM parts WHERE name = 'desk'", [], |r| r.get(0)).unwrap();
    assert!(body.contains("\"belisarius\"") && !body.contains("\"ostrogoths\""), "only the side's own cards: {body}");
}

/// X-06, BE-06, BE-10, BE-13: in the Byzantines' segment the desk activates Mundus with the
/// button of his box, and the panels then show his force as the plan has it, acting: the
/// route is built on the map and "March" plans the march, which the side's check says halts
/// where the Goths stand. The orders file the desk sends is the one the referee takes in;
/// the Goths' packet then asks them to answer the contact, and their desk's button does.
#[test]
fn be_06_the_desk_activates_a_leader_and_plans_his_march() {
    use referee::gui::BelisariusCommand;
    use referee_campaign::belisarius::map::ZoneId;
    use referee_campaign::belisarius::state::Location;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("campaign.sqlite");
    let db = db.to_str().unwrap();
    let fleets = [
        r#"{"type":"place","side":"byzantines","line":1,"at":"ionium"}"#,
        r#"{"type":"place","side":"ostrogoths","line":1,"at":"adriaticum-north"}"#,
    ];
    let packet = italia(dir.path(), "3", &fleets);
    let mut h = desk(&packet);
    click(&mut h, "Activate Mundus");
    planned(&h, 1);
    assert!(h.query_by_label_contains("As planned: Mundus acts (order 1)").is_some(), "the panels show the plan's activation");
    send(&mut h, BelisariusCommand::SelectPlace(Some(Location::Zone(ZoneId::new("dalmatia")))));
    click(&mut h, "Add Dalmatia");
    click_containing(&mut h, "March (");
    let plan = planned(&h, 2);
    assert!(plan[1].1.contains("Mundus marches to Dalmatia"), "{plan:?}");

    click(&mut h, "Send orders…");
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("orders-"))
        .expect("the orders file beside the packet");
    let out = referee(&["--db", db, "order", "Italia", "--as", "byzantines", "--file", file.to_str().unwrap()]);
    assert!(out.contains("Mundus halts at Dalmatia"), "{out}");
    std::fs::remove_file(&file).unwrap();

    // The Goths' packet asks them to answer the contact; their desk's button answers it.
    let goths = dir.path().join("ostrogoths.packet");
    referee(&["--db", db, "packet", "Italia", "--as", "ostrogoths", "--out", goths.to_str().unwrap()]);
    let mut h = desk(&goths);
    assert!(h.query_by_label_contains("Contact at Dalmatia").is_some(), "the contact panel of the Goths' view");
    click(&mut h, "Do not intercept");
    planned(&h, 1);
    click(&mut h, "Send orders…");
    let file = dir.path().join("orders-ostrogoths-turn1-line18.json");
    let out = referee(&["--db", db, "order", "Italia", "--as", "ostrogoths", "--file", file.to_str().unwrap()]);
    assert!(out.contains("Ostrogoths decline to intercept at Dalmatia"), "{out}");
}

/// X-06, MG-11, MG-09: in Carthage's movement phase the desk moves Hanno with the panel's
/// "Move…" and a lit destination, as the referee's screen does for the side, and the bar's
/// "End the phase" plans the phase's end: planned, not done — the view and its moves stay
/// the packet's, and the map draws the march in dashes.
#[test]
fn mg_11_the_desk_plans_a_move_and_the_end_of_the_phase() {
    use referee::gui::MagnaGraeciaCommand;
    use referee_campaign::fixtures::{DIONYSIAN, deploy_orders};
    use referee_campaign::ids::NodeId;
    use referee_campaign::magna_graecia::order::Order;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("campaign.sqlite");
    let mut orders = deploy_orders(&DIONYSIAN);
    orders.push(Order::BeginPlay {});
    support::Prep::create(&db, "Mail", "dionysian", 17).go_all(&orders);
    let packet = dir.path().join("carthage.packet");
    referee(&["--db", db.to_str().unwrap(), "packet", "Mail", "--as", "carthage", "--out", packet.to_str().unwrap()]);
    let mut h = desk(&packet);
    send(&mut h, MagnaGraeciaCommand::Select(Some(NodeId(3))));
    click(&mut h, "Move Hanno");
    click(&mut h, "→ 07 Entella");
    let plan = planned(&h, 1);
    assert!(plan[0].1.contains("Hanno") && plan[0].2.contains("checked as far as Carthage can tell"), "{plan:?}");
    assert!(h.query_by_label_contains("2 of 2 MP left").is_some(), "planned is not done: Hanno has moved nowhere yet");
    click(&mut h, "End the phase");
    let plan = planned(&h, 2);
    assert!(plan[1].1.contains("end Carthage's phase"), "{plan:?}");
}
