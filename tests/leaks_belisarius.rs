//! BE-53, X-01: the differential no-leak test over a Belisarius side's outputs.
//!
//! For each scenario and each side, a campaign is started and its free set-up lines placed,
//! twice: once as the scenario has it, once with everything the side may not know changed —
//! the other side's leaders swapped for decoys and its decoys for leaders of other names and
//! ratings, its units of other values and grades, its fleets of other strength, its
//! stratagems in hand, the cup's stratagems, the referee's notes and secret rolls, and the
//! dice seed. What the side reads — `show --as` and `log --as` and `roster --as`, as text and
//! as JSON, its turn report and its export — must be the same both times.

use referee_campaign::Store;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::{Belisarius, Setup, World};
use referee_campaign::core::log::{AddNote, RollDice};
use referee_campaign::dice::DiceSpec;
use referee_campaign::ids::SideId;
use referee_campaign::store::DiceInput;
use referee_e2e::{TempDb, cli, packet_outputs};

/// Plays a campaign's set-up from `setup` for a reader `viewer`: notes and rolls, then every
/// free line placed at the first place the side is allowed. The viewer's own roll is typed
/// in with the same value both times; everyone else's is seeded and named after `secret`.
fn start(db: &TempDb, name: &str, setup: &Setup, seed: u64, secret: &str, viewer: &SideId) {
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.create_as::<Belisarius>(name, setup, seed).unwrap();
    let orders = vec![
        Order::AddNote(AddNote { text: format!("the referee's thought: {secret}") }),
        Order::RollDice(RollDice {
            dice: DiceSpec { count: 2, sides: 6 },
            purpose: format!("secret {secret}"),
            side: None,
            hidden: true,
            modifiers: vec![],
        }),
    ];
    store.execute_all(&mut c, &(), &orders).unwrap();
    for side in &setup.sides {
        let own = &side.id == viewer;
        let order = Order::RollDice(RollDice {
            dice: DiceSpec::D6,
            purpose: if own { "scouting".to_owned() } else { format!("{}'s own secret {secret}", side.id) },
            side: Some(side.id.clone()),
            hidden: true,
            modifiers: vec![],
        });
        let dice = if own { DiceInput::Manual(vec![4]) } else { DiceInput::Seeded };
        store.execute(&mut c, &(), &order, dice).unwrap();
    }
    referee_e2e::finish_belisarius_setup(&mut store, &mut c);
}

/// The setup with everything `viewer` may not know changed.
fn disguise(setup: &Setup, viewer: &SideId) -> Setup {
    let mut out = setup.clone();
    let own: Vec<String> =
        setup.sides.iter().filter(|s| &s.id == viewer).flat_map(|s| s.lines.iter().flat_map(|l| l.leaders.clone())).collect();
    // Every leader the other side could have, and the viewer does not.
    let pool: Vec<String> = setup.leaders.iter().map(|l| l.id.clone()).filter(|id| !own.contains(id)).collect();
    for side in out.sides.iter_mut().filter(|s| &s.id != viewer) {
        side.hand = vec!["reconnaissance".into(), "treachery".into(), "treachery".into()];
        for line in &mut side.lines {
            for u in &mut line.units {
                u.value = if u.value > 1 { u.value - 1 } else { u.value + 2 };
                u.missile = !u.missile;
            }
            if let Some(first) = line.units.first().cloned() {
                line.units.push(first);
            }
            // Leaders become decoys and decoys leaders: the markers are as many.
            let (leaders, decoys) = (line.leaders.len() as u32, line.decoys);
            line.leaders = pool.iter().rev().cycle().take(decoys as usize).cloned().collect();
            line.decoys = leaders;
            let fleets = line.fleets.len() as u32;
            line.fleets = vec![9; line.fleet_decoys as usize];
            line.fleet_decoys = fleets;
        }
    }
    out.cup.retain(|c| !setup.tables.is_stratagem(c));
    out.cup.extend(["treachery".to_owned(), "reconnaissance".to_owned()]);
    out
}

/// Begins the operations phase with the chits typed in: `viewer` draws `ap-e`, the other
/// side `theirs`; the initiative dice are the same both times. The side that plays first
/// activates its first leader on the map, if it has one, and passes.
fn operations(db: &TempDb, name: &str, viewer: &SideId, theirs: &str) {
    use referee_campaign::belisarius::state::PieceKind;
    let mut store = Store::open(&db.path).unwrap();
    let mut c = store.load_as::<Belisarius>(store.find(name).unwrap()).unwrap();
    // The Byzantines draw first (BE-04).
    let mut chits = vec![("byzantines", ""), ("other", "")];
    for (who, chit) in &mut chits {
        *chit = if (*who == "byzantines") == (viewer.as_str() == "byzantines") { "ap-e" } else { theirs };
    }
    let input = DiceInput::ManualWithChits { dice: vec![6, 1], chits: chits.iter().map(|(_, c)| (*c).to_owned()).collect() };
    // The supply dice typed in, all 1s: nobody loses anything, and each side's own rolls
    // read the same in both campaigns.
    // Africa's one event roll typed as 3 and 4: event N, which it does not allow (BE-47).
    if referee_campaign::belisarius::random_events::pending(&c.state) {
        store.execute(&mut c, &(), &Order::PlayEvents {}, DiceInput::Manual(vec![3, 4])).unwrap();
    }
    let ones = referee_e2e::staging::all_dice(&c, &Order::CheckSupply {}, 1);
    store.execute(&mut c, &(), &Order::CheckSupply {}, ones).unwrap();
    assert!(c.state.supply_dues.is_empty());
    // A spring's reinforcements: the dice typed in, the purchases as the helper makes them.
    if referee_campaign::belisarius::reinforce::pending(&c.state) {
        store.execute(&mut c, &(), &Order::BringReinforcements {}, DiceInput::Manual(vec![3, 3])).unwrap();
        referee_e2e::settle_reinforcements(&mut store, &mut c);
    }
    store.execute(&mut c, &(), &Order::BeginOperations {}, input).unwrap();
    let first = c.state.ops.as_ref().unwrap().first.clone();
    let leader = c.state.pieces_of(&first).find_map(|p| match &p.kind {
        PieceKind::Leader { leader, .. } => Some(leader.clone()),
        _ => None,
    });
    if let Some(leader) = leader.filter(|_| &first == viewer) {
        store.execute(&mut c, &(), &Order::Activate { side: first.clone(), leader, with: vec![] }, DiceInput::Seeded).unwrap();
    }
    store.execute(&mut c, &(), &Order::Pass { side: first }, DiceInput::Seeded).unwrap();
}

fn outputs(db: &TempDb, name: &str, side: &SideId) -> Vec<String> {
    let mut out = Vec::new();
    for command in ["show", "log", "roster"] {
        out.push(cli(&db.path, &[command, name, "--as", side.as_str()]).ok());
        out.push(cli(&db.path, &["--json", command, name, "--as", side.as_str()]).ok());
    }
    // The turn report and the export (X-04). The commitment to the seed is the one thing in
    // them that changes with the seed, by design (a salted SHA-256): masked.
    let store = Store::open(&db.path).unwrap();
    let digest = store.commitment(store.find(name).unwrap()).unwrap().unwrap().digest;
    drop(store);
    let dir = tempfile::tempdir().unwrap();
    cli(&db.path, &["report", name, "--as", side.as_str(), "--out", dir.path().to_str().unwrap()]).ok();
    let report = std::fs::read_dir(dir.path()).unwrap().next().unwrap().unwrap().path();
    let text = referee_battle_gen::pdf::extract_text(&std::fs::read(&report).unwrap()).unwrap().join("\n");
    assert!(text.contains(&digest), "the report prints the commitment");
    out.push(text.replace(&digest, "<commitment>"));
    out.push(cli(&db.path, &["export", name, "--as", side.as_str()]).ok().replace(&digest, "<commitment>"));
    // The side's packet for play by e-mail, byte for byte, and what its player reads of it.
    out.extend(packet_outputs(&db.path, name, side.as_str(), &digest).into_iter().map(|(_, text)| text));
    out
}

#[test]
fn be_53_a_side_reads_nothing_of_the_other_sides_pieces() {
    let world = World::embedded();
    for scenario in &world.scenarios {
        let setup = world.setup(&scenario.id).unwrap();
        for side in &setup.sides {
            let played = TempDb::new();
            start(&played, "Campaign", &setup, 11, "alpha", &side.id);
            let disguised = TempDb::new();
            start(&disguised, "Campaign", &disguise(&setup, &side.id), 977, "omega", &side.id);
            let a = outputs(&played, "Campaign", &side.id);
            let b = outputs(&disguised, "Campaign", &side.id);
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x, y, "{}: {} reads something of what it may not know", scenario.id, side.id);
            }
            // Operations begun: the other side's chit, and so its action points, differ.
            operations(&played, "Campaign", &side.id, "ap-j");
            operations(&disguised, "Campaign", &side.id, "ap-a");
            let a = outputs(&played, "Campaign", &side.id);
            let b = outputs(&disguised, "Campaign", &side.id);
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x, y, "{}: {} reads something of the other side's operations", scenario.id, side.id);
            }
            assert!(a.iter().all(|o| !o.contains("alpha")), "{}: the referee's secrets reach {}", scenario.id, side.id);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Moments. Each test below plays one moment where a side's outputs could hang on what it may
// not know, in two campaigns that differ only in that: the same public orders, typed-in
// public dice, and everything else free to differ — the other side's action points, the
// strength a force marched with, the order its pieces came into play, which of its leaders
// leads a force, the seed. After each step the side's every output is compared, the app's
// screen in that side's view included.

use referee_campaign::belisarius::Setup as BeSetup;
use referee_campaign::belisarius::setup::{FreePlace, Line};
use referee_campaign::belisarius::state::{Location, State};
use referee_campaign::store::Campaign;
use referee_e2e::staging::{byz, goths};

/// Two campaigns for one reader: `[0]` as played, `[1]` with what the reader may not know
/// changed.
struct Twin {
    viewer: SideId,
    dbs: [TempDb; 2],
}

const TWIN: &str = "Twin";

impl Twin {
    fn new(viewer: &str, setups: &[BeSetup; 2]) -> Twin {
        let dbs = [TempDb::new(), TempDb::new()];
        for ((db, setup), seed) in dbs.iter().zip(setups).zip([11, 977]) {
            let mut store = Store::open(&db.path).unwrap();
            store.create_as::<Belisarius>(TWIN, setup, seed).unwrap();
        }
        Twin { viewer: SideId::new(viewer), dbs }
    }

    /// Runs `f` on each campaign: what a side does that the reader does not see.
    fn each(&self, mut f: impl FnMut(usize, &mut Store, &mut Campaign<Belisarius>)) {
        for (i, db) in self.dbs.iter().enumerate() {
            let mut store = Store::open(&db.path).unwrap();
            let mut c = store.load_as::<Belisarius>(store.find(TWIN).unwrap()).unwrap();
            f(i, &mut store, &mut c);
        }
    }

    /// Gives each campaign its order with its dice.
    fn both(&self, orders: [Order; 2], dice: [DiceInput; 2]) {
        let mut orders = orders.into_iter().zip(dice);
        self.each(|i, store, c| {
            let (order, dice) = orders.next().unwrap();
            store.execute(c, &(), &order, dice).unwrap_or_else(|e| panic!("campaign {i}: {order:?}: {e}"));
        });
    }

    /// Gives both campaigns the same order with the same dice.
    fn same(&self, order: &Order, dice: DiceInput) {
        self.both([order.clone(), order.clone()], [dice.clone(), dice]);
    }

    fn state(&self, i: usize) -> State {
        let store = Store::open(&self.dbs[i].path).unwrap();
        store.load_as::<Belisarius>(store.find(TWIN).unwrap()).unwrap().state
    }

    /// Requires the reader's outputs of both campaigns to be the same, word for word, and
    /// returns them (as played) for the test to read.
    fn compare(&self, moment: &str) -> Vec<String> {
        let [a, b] = [0, 1].map(|i| {
            let mut out = outputs(&self.dbs[i], TWIN, &self.viewer);
            out.push(screen(&self.dbs[i], &self.viewer));
            out
        });
        for (x, y) in a.iter().zip(&b) {
            if x != y {
                let (lx, ly): (Vec<&str>, Vec<&str>) = (x.lines().collect(), y.lines().collect());
                let i = lx.iter().zip(&ly).position(|(p, q)| p != q).unwrap_or(lx.len().min(ly.len()));
                panic!(
                    "{moment}: the {} read what they may not know, line {}:\n  as played: {}\n  disguised: {}",
                    self.viewer,
                    i + 1,
                    lx.get(i).unwrap_or(&"(end)"),
                    ly.get(i).unwrap_or(&"(end)")
                );
            }
        }
        a
    }
}

/// Every string the app draws in `side`'s view of the campaign, the commitment masked.
fn screen(db: &TempDb, side: &SideId) -> String {
    use referee::gui::RefereeApp;
    let app = RefereeApp::open_db(
        &db.path,
        referee_campaign::magna_graecia::catalog::Catalog::embedded(),
        Some(World::embedded()),
        Some(TWIN),
        Some(side.as_str()),
    )
    .unwrap();
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app);
    h.run();
    let store = Store::open(&db.path).unwrap();
    let commitment = store.commitment(store.find(TWIN).unwrap()).unwrap().unwrap();
    referee_e2e::drawn_text(&h.output().shapes)
        .join("\n")
        .replace(&commitment.digest, "<commitment>")
        .replace(&commitment.short(), "<commitment>")
}

/// A line of set-up at a fixed place.
fn fixed(at: Location, leaders: &[&str], units: &str) -> Line {
    Line {
        at: Some(at),
        free: None,
        place_rule: FreePlace::Fixed,
        leaders: leaders.iter().map(|l| (*l).to_owned()).collect(),
        decoys: 0,
        units: referee_e2e::staging::units_of(units),
        fleets: Vec::new(),
        fleet_decoys: 0,
        port: None,
    }
}

fn zone(id: &str) -> Location {
    Location::Zone(referee_campaign::belisarius::map::ZoneId::new(id))
}

fn city(id: &str) -> Location {
    Location::City(referee_campaign::belisarius::map::CityId::new(id))
}

fn sea(id: &str) -> Location {
    Location::Sea(referee_campaign::belisarius::map::SeaId::new(id))
}

/// goths-541 with every line fixed: the Byzantines' leaders `byzantines` (each a line of
/// its own: leader, units, place), troops in Roma and Ravenna, their ships far south; the
/// Goths' ships in the northern Adriatic.
fn goths_541(byzantines: &[(&str, &str, Location)]) -> BeSetup {
    let mut setup = World::embedded().setup("goths-541").unwrap();
    let byz = setup.sides.iter_mut().find(|s| s.id.as_str() == "byzantines").unwrap();
    let fleets = byz.lines[1].clone();
    byz.lines = vec![fixed(city("roma"), &[], "i:1C"), fixed(city("ravenna"), &[], "i:1C")];
    byz.lines.extend(byzantines.iter().map(|(leader, units, at)| fixed(at.clone(), &[leader], units)));
    byz.lines.push(Line { at: Some(sea("mare-africum")), free: None, place_rule: FreePlace::Fixed, ..fleets });
    let goths = setup.sides.iter_mut().find(|s| s.id.as_str() == "ostrogoths").unwrap();
    for line in goths.lines.iter_mut().filter(|l| l.at.is_none()) {
        line.at = Some(sea("adriaticum-north"));
        line.free = None;
        line.place_rule = FreePlace::Fixed;
    }
    setup
}

/// Begins play and a first turn's operations, the supply dice typed in as 1s (nobody goes
/// hungry) and the spring's reinforcements bought as the helper buys them; the chits drawn
/// from a real cup and the initiative dice typed in.
fn to_operations(twin: &Twin, chits: [[&str; 2]; 2], initiative: [u8; 2]) {
    twin.same(&Order::BeginPlay {}, DiceInput::Seeded);
    operations_again(twin, chits, initiative);
}

/// A turn's events (if any, typed `events`), supply, reinforcements and the start of its
/// operations.
fn operations_again(twin: &Twin, chits: [[&str; 2]; 2], initiative: [u8; 2]) {
    twin.each(|_, store, c| {
        let ones = referee_e2e::staging::all_dice(c, &Order::CheckSupply {}, 1);
        store.execute(c, &(), &Order::CheckSupply {}, ones).unwrap();
        if referee_campaign::belisarius::reinforce::pending(&c.state) {
            store.execute(c, &(), &Order::BringReinforcements {}, DiceInput::Manual(vec![3, 3])).unwrap();
            referee_e2e::settle_reinforcements(store, c);
        }
    });
    let dice = chits.map(|c| DiceInput::ManualWithChits { dice: initiative.to_vec(), chits: c.iter().map(|s| (*s).to_owned()).collect() });
    twin.both([Order::BeginOperations {}, Order::BeginOperations {}], dice);
}

fn activate(side: &SideId, leader: &str) -> Order {
    Order::Activate { side: side.clone(), leader: leader.to_owned(), with: vec![] }
}

fn march(side: &SideId, leader: &str, path: &[&str]) -> Order {
    Order::Move {
        side: side.clone(),
        leader: leader.to_owned(),
        path: path.iter().map(|z| (*z).to_owned()).collect(),
        attrition_from: vec![],
    }
}

/// BE-05, BE-06, BE-53: a side that has spent its last action point is not seen to pass: it
/// passes by its own order, like a side with points to spare. The Byzantines spend 9 points
/// in two marches; with ap-a that is all they have, with ap-i they keep 5. The Goths, ending
/// their segment, read the same either way.
#[test]
fn be_06_a_pass_at_zero_points_tells_nothing() {
    let setups = [0, 1].map(|_| goths_541(&[("bessas", "2B 2B", zone("bruttii")), ("iohannes", "", zone("bruttii"))]));
    let twin = Twin::new("ostrogoths", &setups);
    // The Byzantines draw first; 6 + 6 (no CinC) against 1 + Totila's 7: the Byzantines
    // play first.
    to_operations(&twin, [["ap-a", "ap-d"], ["ap-i", "ap-d"]], [6, 1]);
    assert_eq!(twin.state(0).ops.unwrap().ap[&byz()].total, 9);
    assert_eq!(twin.state(1).ops.unwrap().ap[&byz()].total, 14);
    twin.same(&activate(&byz(), "bessas"), DiceInput::Seeded);
    twin.same(&march(&byz(), "bessas", &["lucania", "samnium", "valeria"]), DiceInput::Seeded);
    twin.same(&activate(&byz(), "iohannes"), DiceInput::Seeded);
    twin.same(&march(&byz(), "iohannes", &["lucania", "campania"]), DiceInput::Seeded);
    assert_eq!(twin.state(0).ops.unwrap().ap[&byz()].left, 0, "ap-a: every point spent");
    assert_eq!(twin.state(1).ops.unwrap().ap[&byz()].left, 5);
    twin.same(&Order::Pass { side: byz() }, DiceInput::Seeded);
    twin.compare("the Byzantines end their segment");
    twin.same(&activate(&goths(), "totila"), DiceInput::Seeded);
    twin.same(&Order::Pass { side: goths() }, DiceInput::Seeded);
    let read = twin.compare("the Goths end their segment");
    let log = &read[2];
    assert!(!log.lines().last().unwrap_or_default().contains("Byzantines pass"), "nobody passes for the Byzantines: {log}");
    assert_eq!(twin.state(0).ops.unwrap().segment, byz(), "the segment is the Byzantines', points or none");
    // They pass by their own order; the Goths pass too and the phase is over.
    twin.same(&Order::Pass { side: byz() }, DiceInput::Seeded);
    twin.compare("the Byzantines pass");
    twin.same(&Order::Pass { side: goths() }, DiceInput::Seeded);
    twin.compare("the operations end");
    assert_eq!(twin.state(0).phase, referee_campaign::belisarius::state::Phase::TurnEnd);
}

/// BE-12, BE-13, BE-53: a march's attrition is paid before the enemy may answer it. Bessas
/// marches three zones onto the Goths at Ticinum: with 8 combat points and a 6 on the
/// attrition die he loses 2; with 6 and a 1 he loses nothing. The Goths intercept from the
/// city, and read the same march, the same contact and the same battle either way.
#[test]
fn be_12_an_interception_meets_the_force_as_its_attrition_left_it() {
    let setups = ["2B 2B 2B 2B", "2B 2B 2B"].map(|units| goths_541(&[("bessas", units, zone("tuscia-maritima"))]));
    let twin = Twin::new("ostrogoths", &setups);
    to_operations(&twin, [["ap-e", "ap-d"], ["ap-e", "ap-d"]], [6, 1]);
    twin.same(&activate(&byz(), "bessas"), DiceInput::Seeded);
    let path = ["alpes-cottiae", "liguria", "ticinensis"];
    twin.both([march(&byz(), "bessas", &path), march(&byz(), "bessas", &path)], [DiceInput::Manual(vec![6]), DiceInput::Manual(vec![1])]);
    let read = twin.compare("Bessas halts at Ticinensis, owing attrition in one campaign only");
    assert!(read[2].contains("A force of the Byzantines halts at Ticinensis"), "{}", read[2]);
    teia_intercepts(&twin);
    let read = twin.compare("the Goths intercept");
    assert!(read[2].contains("Bessas (6 combat points)"), "the battle shows the force as its march left it: {}", read[2]);
}

/// The Goths intercept Bessas at Ticinensis with Teia from the city: Teia (5) against
/// Bessas (4), a die typed in for a battle in line.
fn teia_intercepts(twin: &Twin) {
    let state = twin.state(0);
    let die = (1..=6u8)
        .find(|d| state.setup.tables.interception(1, i32::from(*d), 0) == referee_campaign::belisarius::tables::Interception::LineOfBattle)
        .unwrap();
    let intercept = Order::Intercept { side: goths(), leaders: vec!["teia".into()], target: None, reconnaissance: false };
    twin.same(&intercept, DiceInput::Manual(vec![die]));
}

/// The die that makes an interception at `difference` fail (BE-14), the highest such die
/// or the lowest: the two campaigns' rolls differ as well as their ratings.
fn failing_die(state: &State, difference: i32, highest: bool) -> u8 {
    let fails = (1..=6u8).filter(|d| {
        state.setup.tables.interception(difference, i32::from(*d), 0) == referee_campaign::belisarius::tables::Interception::Fail
    });
    if highest { fails.max() } else { fails.min() }.expect("a die that fails")
}

/// BE-13, BE-14, BE-53: which of the Goths' leaders tried to intercept, and failed, is theirs
/// to know. Bessas marches three zones onto Ticinensis, where Teia and Aligern stand in the
/// open; the Goths try with Teia (5) in one campaign and Aligern (4) in the other, on other
/// dice, and fail. The Byzantines read the same contact either way — that the Goths failed,
/// never with whom —, and then their own failed try: Bessas's, named on their form as one
/// who may not try that marker again.
#[test]
fn be_13_after_a_failed_interception_a_side_reads_only_its_own_tries() {
    let setups = [0, 1].map(|_| {
        let mut setup = goths_541(&[("bessas", "2B 2B 2B", zone("tuscia-maritima"))]);
        let goths = setup.sides.iter_mut().find(|s| s.id == goths()).unwrap();
        let ticinum = goths.lines.iter().position(|l| l.at == Some(city("ticinum"))).unwrap();
        goths.lines[ticinum].leaders.clear();
        goths.lines.push(fixed(zone("ticinensis"), &["teia"], "2B 2B"));
        goths.lines.push(fixed(zone("ticinensis"), &["aligern"], "2B 2B"));
        setup
    });
    let twin = Twin::new("byzantines", &setups);
    to_operations(&twin, [["ap-e", "ap-d"], ["ap-e", "ap-d"]], [6, 1]);
    assert_eq!(twin.state(0).ops.unwrap().first, byz());
    twin.same(&activate(&byz(), "bessas"), DiceInput::Seeded);
    twin.same(&march(&byz(), "bessas", &["alpes-cottiae", "liguria", "ticinensis"]), DiceInput::Manual(vec![1]));
    twin.compare("Bessas halts at Ticinensis");
    // The Goths' try: Teia (5 against Bessas's 4) on the highest die that fails, Aligern (4)
    // on the lowest.
    let tries = [("teia", 1, true), ("aligern", 0, false)].map(|(leader, difference, highest)| {
        (
            Order::Intercept { side: goths(), leaders: vec![leader.to_owned()], target: None, reconnaissance: false },
            DiceInput::Manual(vec![failing_die(&twin.state(0), difference, highest)]),
        )
    });
    let [(a, da), (b, db)] = tries;
    twin.both([a, b], [da, db]);
    for i in [0, 1] {
        let ops = twin.state(i).ops.unwrap();
        assert!(ops.contact.unwrap().failed.contains(&goths()), "campaign {i}: the Goths failed");
    }
    let read = twin.compare("the Goths' interception fails");
    assert!(read[2].contains("Ostrogoths: a force tries to intercept Bessas's force at Ticinensis: it fails"), "{}", read[2]);
    twin.same(&Order::Decline { side: goths() }, DiceInput::Seeded);
    let read = twin.compare("the Goths make no more attempts");
    let json: serde_json::Value = serde_json::from_str(&read[1]).unwrap();
    assert_eq!(json["board"]["contact"]["tried"], serde_json::json!([]), "the Goths' tries are theirs: {}", read[1]);
    // Bessas aims at the first marker and fails, against whichever leader it is.
    twin.each(|i, store, c| {
        let contact = c.state.ops.as_ref().unwrap().contact.clone().unwrap();
        let targets = referee_campaign::belisarius::interception::mover_targets(&c.state, &contact);
        let referee_campaign::belisarius::interception::Target::Force { leader, .. } = &targets[0] else { panic!("a decoy") };
        let difference = 4 - i32::from(c.state.setup.leader(leader).unwrap().strategic);
        let order = Order::Intercept { side: byz(), leaders: vec!["bessas".into()], target: Some(1), reconnaissance: false };
        let die = failing_die(&c.state, difference, i == 0);
        store.execute(c, &(), &order, DiceInput::Manual(vec![die])).unwrap();
    });
    let read = twin.compare("Bessas's interception fails");
    let json: serde_json::Value = serde_json::from_str(&read[1]).unwrap();
    let tried = &json["board"]["contact"]["tried"];
    assert_eq!(
        tried,
        &serde_json::json!([{ "side": "byzantines", "leader": "bessas", "name": "Bessas", "target": 1 }]),
        "the Byzantines read their own try, and only theirs: {}",
        read[1]
    );
}

/// BE-42, BE-47, BE-53: great storms send every ship at sea to port, and the list of the
/// Goths' sea markers says nothing of which was a fleet. The Goths' three sea markers start
/// in the northern Adriatic (their two fleets made before the decoy); one sails south — a
/// fleet in one campaign, the decoy in the other — and then event O comes.
#[test]
fn be_47_great_storms_list_the_markers_by_port() {
    let setups = [0, 1].map(|_| {
        let mut setup = World::embedded().setup("italy-535").unwrap();
        for side in &mut setup.sides {
            let at = if side.id == goths() { sea("adriaticum-north") } else { sea("mare-africum") };
            for line in side.lines.iter_mut().filter(|l| l.at.is_none()) {
                line.at = Some(at.clone());
                line.free = None;
                line.place_rule = FreePlace::Fixed;
            }
        }
        setup
    });
    let twin = Twin::new("byzantines", &setups);
    let state = twin.state(0);
    let goth_ships: Vec<(String, bool)> = state
        .pieces_of(&goths())
        .filter_map(|p| match &p.kind {
            referee_campaign::belisarius::state::PieceKind::Fleet { id, .. } => Some((id.clone(), true)),
            referee_campaign::belisarius::state::PieceKind::FleetDecoy { id } => Some((id.clone(), false)),
            _ => None,
        })
        .collect();
    let fleet = goth_ships.iter().find(|(_, real)| *real).unwrap().0.clone();
    let decoy = goth_ships.iter().find(|(_, real)| !*real).unwrap().0.clone();
    assert!(fleet < decoy, "the line's fleets come into play before its decoy: {goth_ships:?}");
    // Summer 535: a 12, event H, which this scenario does not have.
    twin.same(&Order::BeginPlay {}, DiceInput::Seeded);
    twin.same(&Order::PlayEvents {}, DiceInput::Manual(vec![6, 6]));
    operations_again(&twin, [["ap-e", "ap-d"], ["ap-e", "ap-d"]], [6, 1]);
    let first = twin.state(0).ops.unwrap().first;
    let sail = |ship: &str| Order::Sail { side: goths(), ships: vec![ship.to_owned()], path: vec!["adriaticum-south".to_owned()] };
    if first == byz() {
        twin.same(&Order::Pass { side: byz() }, DiceInput::Seeded);
    }
    twin.both([sail(&fleet), sail(&decoy)], [DiceInput::Manual(vec![1]), DiceInput::Manual(vec![1])]);
    twin.compare("a Gothic sea marker sails south");
    let over = |twin: &Twin| twin.state(0).phase == referee_campaign::belisarius::state::Phase::TurnEnd;
    while !over(&twin) {
        let segment = twin.state(0).ops.unwrap().segment;
        twin.same(&Order::Pass { side: segment }, DiceInput::Seeded);
    }
    twin.same(&Order::EndTurn {}, DiceInput::Seeded);
    // Autumn: nobody does anything.
    operations_again(&twin, [["ap-e", "ap-d"], ["ap-e", "ap-d"]], [6, 1]);
    while !over(&twin) {
        let segment = twin.state(0).ops.unwrap().segment;
        twin.same(&Order::Pass { side: segment }, DiceInput::Seeded);
    }
    twin.same(&Order::EndTurn {}, DiceInput::Seeded);
    // Winter: 5 and 5, then a 4: event O.
    twin.same(&Order::PlayEvents {}, DiceInput::Manual(vec![5, 5, 4]));
    let read = twin.compare("great storms");
    assert!(read[2].contains("Great storms: every ship runs for port"), "{}", read[2]);
}

/// BE-43, BE-53: Treachery is no fight, and the Goths' besieger stays face down: the
/// Byzantines read the siege laid, the stratagem played and what came of it, never who
/// played it nor his rating. The force that marches on Bononia is Totila's in one campaign
/// and Uraias's in the other, with the same units; the 2d6 is a 12 both times.
#[test]
fn be_43_treachery_names_no_besieger() {
    let setups = [("totila", "uraias"), ("uraias", "totila")].map(|(leads, stays)| {
        let mut setup = goths_541(&[("bessas", "2B", zone("bruttii"))]);
        let goths = setup.sides.iter_mut().find(|s| s.id == goths()).unwrap();
        let verona = goths.lines.iter().position(|l| l.at == Some(city("verona"))).unwrap();
        let line = goths.lines[verona].clone();
        goths.lines[verona] = Line { leaders: vec![leads.to_owned()], ..line.clone() };
        goths
            .lines
            .insert(verona + 1, Line { leaders: vec![stays.to_owned(), "victiger".to_owned()], units: Vec::new(), decoys: 0, ..line });
        setup
    });
    let twin = Twin::new("byzantines", &setups);
    // The Goths' chits differ too: their action points are theirs.
    to_operations(&twin, [["ap-e", "ap-d"], ["ap-e", "ap-j"]], [1, 6]);
    assert_eq!(twin.state(0).ops.unwrap().first, goths());
    twin.both([activate(&goths(), "totila"), activate(&goths(), "uraias")], [DiceInput::Seeded, DiceInput::Seeded]);
    twin.both(
        [march(&goths(), "totila", &["aemilia"]), march(&goths(), "uraias", &["aemilia"])],
        [DiceInput::Manual(vec![1]), DiceInput::Manual(vec![1])],
    );
    let besiege = |leader: &str| Order::Besiege { side: goths(), leader: leader.to_owned() };
    twin.both([besiege("totila"), besiege("uraias")], [DiceInput::Seeded, DiceInput::Seeded]);
    twin.compare("the Goths lay siege to Bononia");
    let treachery = |leader: &str| Order::AttemptTreachery { side: goths(), leader: leader.to_owned() };
    twin.both([treachery("totila"), treachery("uraias")], [DiceInput::Manual(vec![6, 6]), DiceInput::Manual(vec![6, 6])]);
    let read = twin.compare("Treachery at Bononia");
    assert!(read[2].contains("Treachery at Bononia comes to nothing"), "{}", read[2]);
    for o in &read {
        // The king's name is public on the initiative roll; not the besieger's at Bononia.
        let about = |l: &&str| ["Bononia", "Aemilia", "reachery", "siege"].iter().any(|w| l.contains(w));
        if let Some(l) = o.lines().filter(about).find(|l| l.contains("Totila") || l.contains("Uraias")) {
            panic!("the besieger is named to the Byzantines: {l}");
        }
    }
}

/// BE-53, X-06: what comes in from a side is that side's: `order --as` refuses a list with
/// an order of the other side's, or of the referee's, whole and storing nothing, and its
/// refusals of the side's own orders speak from what the side knows. In one campaign Bessas
/// leads the Byzantine force in Latium, in the other Iohannes with other units: the Goths'
/// refusals read the same, word for word.
#[test]
fn be_53_a_sides_orders_are_its_own_and_its_refusals_tell_nothing() {
    let setups = [("bessas", "2B 2B"), ("iohannes", "2B")].map(|(leader, units)| goths_541(&[(leader, units, zone("latium"))]));
    let twin = Twin::new("ostrogoths", &setups);
    to_operations(&twin, [["ap-e", "ap-d"], ["ap-e", "ap-d"]], [1, 6]);
    assert_eq!(twin.state(0).ops.unwrap().first, goths());
    let attempts = [
        r#"{"type":"move","side":"byzantines","leader":"bessas","path":["campania"]}"#,
        r#"[{"type":"activate","side":"ostrogoths","leader":"totila"},{"type":"move","side":"byzantines","leader":"iohannes","path":["campania"]}]"#,
        r#"{"type":"end_turn"}"#,
        r#"{"type":"activate","side":"ostrogoths","leader":"bessas"}"#,
        r#"{"type":"move","side":"ostrogoths","leader":"totila","path":["aemilia"]}"#,
        r#"{"type":"intercept","side":"ostrogoths","leaders":["totila"]}"#,
        r#"{"type":"reconnoitre","side":"ostrogoths","zone":"latium","marker":2}"#,
        r#"[{"type":"activate","side":"ostrogoths","leader":"totila"},{"type":"move","side":"ostrogoths","leader":"totila","path":["tuscia"]}]"#,
        r#"[{"type":"activate","side":"ostrogoths","leader":"totila"},{"type":"intercept","side":"ostrogoths","leaders":["bessas"]}]"#,
    ];
    for attempt in attempts {
        let [a, b] = [0, 1].map(|i| {
            let before = twin.dbs[i].bytes();
            let line = cli(&twin.dbs[i].path, &["order", TWIN, attempt, "--as", "ostrogoths"]).refused();
            assert_eq!(twin.dbs[i].bytes(), before, "{attempt}: a refusal stores nothing");
            line
        });
        assert_eq!(a, b, "{attempt}: the refusal tells the Goths what they may not know");
    }
    cli(&twin.dbs[0].path, &["order", TWIN, attempts[0], "--as", "ostrogoths"])
        .refused_saying("the order is the Byzantines' to give, not the Ostrogoths'");
    let list = cli(&twin.dbs[0].path, &["order", TWIN, attempts[1], "--as", "ostrogoths"]).refused();
    assert!(list.contains("order 2 of 2 is the Byzantines' to give") && list.contains("none of the list was stored"), "{list}");
    cli(&twin.dbs[0].path, &["order", TWIN, attempts[2], "--as", "ostrogoths"]).refused_saying("the referee's to give");
    // A list is refused naming its order in the side's words: a Byzantine leader the Goths
    // typed keeps the id they typed; their own is named.
    cli(&twin.dbs[0].path, &["order", TWIN, attempts[8], "--as", "ostrogoths"])
        .refused_saying("order 2 of 2 (the Ostrogoths intercept with bessas) refused, so none of the list was stored");
    cli(&twin.dbs[0].path, &["order", TWIN, attempts[7], "--as", "ostrogoths"]).refused_saying("order 2 of 2 (Totila marches to Tuscia)");
    // An order for a people this campaign does not have is said to be so, not someone's.
    cli(&twin.dbs[0].path, &["order", TWIN, r#"{"type":"pass","side":"vandals"}"#, "--as", "ostrogoths"])
        .refused_saying("the order names `vandals`, which is no side of this campaign: a side gives its own orders only");
    // The side's own orders go through, and it reads what came of them as it would in its log.
    let [a, b] = [0, 1].map(|i| {
        cli(&twin.dbs[i].path, &["order", TWIN, r#"{"type":"activate","side":"ostrogoths","leader":"totila"}"#, "--as", "ostrogoths"]).ok()
    });
    assert_eq!(a, b);
    assert!(a.contains("Ostrogoths activate Totila at Verona"), "{a}");
    for db in &twin.dbs {
        let json = cli(&db.path, &["--json", "order", TWIN, r#"{"type":"pass","side":"ostrogoths"}"#, "--as", "ostrogoths"]).json();
        assert!(json.get("events").is_none(), "the events are the referee's: {json}");
        assert!(json["lines"][0].as_str().unwrap().contains("Ostrogoths end their segment"), "{json}");
    }
    twin.compare("after the Goths' own orders");
    cli(&twin.dbs[0].path, &["order", TWIN, r#"{"type":"pass","side":"ostrogoths"}"#, "--as", "franks"])
        .refused_saying("has no side `franks`");
    let dice =
        cli(&twin.dbs[0].path, &["order", TWIN, r#"{"type":"pass","side":"ostrogoths"}"#, "--as", "ostrogoths", "--value", "3"]).refused();
    assert!(dice.contains("--value"), "typed-in dice are the referee's: {dice}");
    cli(&twin.dbs[0].path, &["result", TWIN, "1", "--file", "-", "--as", "ostrogoths"])
        .refused_saying("a battle's result is the referee's to enter");
}

/// The lines of `heading`'s section of a report's text: from the heading to the next of
/// `ends`.
fn section<'a>(text: &'a str, heading: &str, ends: &[&str]) -> &'a str {
    let start = text.find(heading).unwrap_or_else(|| panic!("no {heading:?} in {text}"));
    let rest = &text[start..];
    let end = ends.iter().filter_map(|e| rest[heading.len()..].find(e).map(|i| i + heading.len())).min().unwrap_or(rest.len());
    &rest[..end]
}

/// The report's Coming, as the export prints it.
fn exported_coming(export: &str) -> Vec<String> {
    let json: serde_json::Value = serde_json::from_str(export).unwrap();
    json["report"]["coming"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_owned()).collect()
}

/// BE-13, BE-17, BE-24, BE-26, BE-53, X-04: a report's Coming lists what its reader may
/// know is coming, word for word the same whatever it may not. The Goths lay siege to
/// Bononia; Bessas marches three zones onto Teia at Ticinensis — with 8 combat points and a
/// 6 on the attrition die in one campaign, 6 points and a 1 in the other —, the Goths
/// intercept and the battle goes to the table. The Goths read the siege with its duration
/// marker, the contact and the battle waiting at the table, in the PDF and the export alike;
/// the Byzantines and the umpire read them too.
#[test]
fn be_53_what_is_coming_is_what_the_reader_may_know() {
    let setups = ["2B 2B 2B 2B", "2B 2B 2B"].map(|units| goths_541(&[("bessas", units, zone("tuscia-maritima"))]));
    let twin = Twin::new("ostrogoths", &setups);
    // The Goths play first: 1 + Totila's 7 against 6 and no commander-in-chief.
    to_operations(&twin, [["ap-e", "ap-d"], ["ap-e", "ap-d"]], [1, 6]);
    assert_eq!(twin.state(0).ops.unwrap().first, goths());
    let ends = ["Victory", "The log"];
    let read = twin.compare("operations begun");
    assert!(section(&read[6], "Coming", &ends).contains("Nothing is coming"), "{}", read[6]);
    twin.same(&activate(&goths(), "totila"), DiceInput::Seeded);
    twin.same(&march(&goths(), "totila", &["aemilia"]), DiceInput::Manual(vec![1]));
    twin.same(&Order::Besiege { side: goths(), leader: "totila".into() }, DiceInput::Seeded);
    twin.same(&Order::Pass { side: goths() }, DiceInput::Seeded);
    let read = twin.compare("the Goths lay siege to Bononia");
    let siege = "Siege of Bononia (Aemilia), held by the Byzantines: besieged by the Ostrogoths, duration marker at 1 of 4";
    assert!(section(&read[6], "Coming", &ends).replace('\n', " ").contains(siege), "{}", read[6]);
    assert!(exported_coming(&read[7]).iter().any(|l| l.starts_with(siege)), "{}", read[7]);

    twin.same(&activate(&byz(), "bessas"), DiceInput::Seeded);
    let path = ["alpes-cottiae", "liguria", "ticinensis"];
    twin.both([march(&byz(), "bessas", &path), march(&byz(), "bessas", &path)], [DiceInput::Manual(vec![6]), DiceInput::Manual(vec![1])]);
    let read = twin.compare("Bessas halts at Ticinensis, his force of other strength in each campaign");
    let coming = section(&read[6], "Coming", &ends).replace('\n', " ");
    let contact = "Contact at Ticinensis: a march of the Byzantines halted where the Ostrogoths stand; the Ostrogoths intercept";
    assert!(coming.contains(contact) && coming.contains(siege), "{coming}");
    assert!(exported_coming(&read[7]).iter().any(|l| l.starts_with(contact)), "{}", read[7]);
    // The Byzantines and the umpire read the same.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for who in [&["--as", "byzantines"][..], &["--umpire"]] {
        let mut args = vec!["report", TWIN, "--out", out];
        args.extend(who);
        cli(&twin.dbs[0].path, &args).ok();
    }
    for file in ["twin-turn-01-side-byzantines.pdf", "twin-turn-01-umpire.pdf"] {
        let text = referee_battle_gen::pdf::extract_text(&std::fs::read(dir.path().join(file)).unwrap()).unwrap().join("\n");
        let coming = section(&text, "Coming", &ends).replace('\n', " ");
        assert!(coming.contains(contact) && coming.contains(siege), "{file}: {coming}");
    }

    // The umpire sends the battle to the table.
    teia_intercepts(&twin);
    twin.same(&Order::SendToTable {}, DiceInput::Seeded);
    let read = twin.compare("the battle at Ticinensis goes to the table");
    let coming = section(&read[6], "Coming", &ends).replace('\n', " ");
    assert!(coming.contains("A battle in line at Ticinensis") && coming.contains("waiting at the table"), "{coming}");
    assert!(
        coming.contains("the Ostrogoths under Teia") && coming.contains("the Byzantines under Bessas (6 of 6 combat points)"),
        "{coming}"
    );
    assert!(exported_coming(&read[7]).iter().any(|l| l.contains("waiting at the table")), "{}", read[7]);
}
