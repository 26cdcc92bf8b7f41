//! X-03: the real `referee` binary killed while it writes leaves every committed order whole,
//! no half of one, and a database that passes SQLite's integrity check.
//!
//! Two writers are killed. One gives the orders of a list one at a time, a `referee order`
//! per order, each stored in its own transaction: the orders that stand are exactly the first
//! ones of the list. The other gives a long list in one `referee order --file`, which is
//! stored whole or not at all: killed before it ends, none of it stands. The test watches the
//! database from outside (the store is in WAL mode: a reader never blocks the writer) and
//! sends SIGKILL at whatever point of its work the writer then is.

use referee_campaign::core::log::RollDice;
use referee_campaign::magna_graecia::MagnaGraecia;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use referee_campaign::{DiceSpec, NodeId, SideId, Store, magna_graecia::catalog::Catalog, magna_graecia::order::Order};

/// Orders in each list: far more than a round lets the writer commit before it is killed.
const ORDERS: u64 = 20_000;

/// How many orders, given one at a time, must be committed before each kill.
const ROUNDS: [u64; 2] = [15, 120];

/// A list of orders that the rules accept one after another from the state as it is: dice
/// rolls, hidden and open, and every third order a change of the control of node 05.
fn orders(controlled: bool, round: usize) -> Vec<Order> {
    let mut controlled = controlled;
    (0..ORDERS)
        .map(|i| {
            if i % 3 == 0 {
                controlled = !controlled;
                let side = controlled.then(|| SideId::new("carthage"));
                Order::AdjustControl { node: NodeId(5), side, reason: format!("crash test {round}.{i}") }
            } else {
                Order::RollDice(RollDice {
                    dice: DiceSpec { count: 3, sides: 6 },
                    purpose: format!("crash test {round}.{i}"),
                    side: None,
                    hidden: i % 2 == 0,
                    modifiers: vec![],
                })
            }
        })
        .collect()
}

fn count(store: &Store, sql: &str) -> u64 {
    store.connection().query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Waits until `target` commands are stored, then kills the writer. Panics (after killing
/// it) if the writer ends on its own or takes far too long.
fn kill_after(child: &mut Child, db: &Path, target: u64, round: usize) -> u64 {
    let watcher = Store::open(db).unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let stored = count(&watcher, "SELECT count(*) FROM commands");
        if stored >= target {
            kill_group(child);
            return stored;
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
            panic!("round {round}: the writer ended by itself ({status}) after {stored} commands: {stderr}");
        }
        if Instant::now() > deadline {
            kill_group(child);
            panic!("round {round}: only {stored} of {target} commands stored after five minutes");
        }
        std::thread::sleep(Duration::from_micros(300));
    }
}

/// Starts a writer in a process group of its own, so that [`kill_group`] reaches everything
/// it runs; its errors are kept for the report.
fn start_writer(writer: &mut Process) -> Child {
    writer.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).process_group(0).spawn().unwrap()
}

/// SIGKILL to the writer's whole process group: the shell and the `referee` it is running.
fn kill_group(child: &mut Child) {
    let status = Process::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status().unwrap();
    assert!(status.success(), "kill failed");
    child.wait().unwrap();
}

/// Integrity, no command without all its events, and snapshots that agree with the events.
fn check_whole(store: &Store, round: &str) {
    let integrity: String = store.connection().query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(integrity, "ok", "round {round}");
    let partial = count(
        store,
        "SELECT count(*) FROM commands c WHERE c.event_count !=
         (SELECT count(*) FROM events e WHERE e.campaign_id = c.campaign_id AND e.command_seq = c.seq)",
    );
    assert_eq!(partial, 0, "round {round}: a command lost some of its events");
    let id = store.find("Crash").unwrap();
    let loaded = store.load_as::<MagnaGraecia>(id).unwrap();
    let replayed = referee_campaign::magna_graecia::state::CampaignState::replay(
        store.events_as::<MagnaGraecia>(id).unwrap().iter().map(|l| &l.event),
    )
    .unwrap();
    assert_eq!(loaded.state, replayed, "round {round}: the snapshot disagrees with the events");
}

/// A folder with a database holding the campaign "Crash", and the path for the orders' file.
fn crash_campaign() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.sqlite");
    let list = dir.path().join("orders.json");
    Store::open(&db).unwrap().create_as::<MagnaGraecia>("Crash", Catalog::embedded().scenario("dionysian").unwrap(), 1234).unwrap();
    (dir, db, list)
}

/// X-03: a list given in one order is stored whole or not at all, even when the writer is
/// killed in the middle of it; a list it lives to finish stands whole, with its snapshots.
#[test]
fn x_03_sigkill_mid_list_stores_none_of_it() {
    let (_dir, db, list) = crash_campaign();
    let writer = |orders: &[Order]| {
        std::fs::write(&list, serde_json::to_string(orders).unwrap()).unwrap();
        let mut writer = Process::new(env!("CARGO_BIN_EXE_referee"));
        writer.arg("--db").arg(&db).args(["order", "Crash", "--file"]).arg(&list);
        start_writer(&mut writer)
    };
    let mut killed = 0;
    for (round, delay_ms) in [40u64, 250, 700, 1_500].into_iter().enumerate() {
        let before = count(&Store::open(&db).unwrap(), "SELECT count(*) FROM commands");
        let mut child = writer(&orders(false, round));
        std::thread::sleep(Duration::from_millis(delay_ms));
        if child.try_wait().unwrap().is_none() {
            kill_group(&mut child);
            killed += 1;
        }
        let store = Store::open(&db).unwrap();
        let stored = count(&store, "SELECT count(*) FROM commands");
        assert!(stored == before || stored == before + ORDERS, "round {round}: {} of the list's orders stand", stored - before);
        check_whole(&store, &format!("{round}"));
    }
    assert!(killed >= 2, "the writer finished {ORDERS} orders within {killed} kills; the list is too short to be killed in");
    // And one the writer lives to finish stands whole, past a snapshot.
    let store = Store::open(&db).unwrap();
    let before = count(&store, "SELECT count(*) FROM commands");
    // A round the writer finished before its kill leaves the node as its last order left it.
    let controlled = store.load_as::<MagnaGraecia>(store.find("Crash").unwrap()).unwrap().state.control.contains_key(&NodeId(5));
    drop(store);
    let mut child = writer(&orders(controlled, 9)[..1_500]);
    assert!(child.wait().unwrap().success());
    let store = Store::open(&db).unwrap();
    assert_eq!(count(&store, "SELECT count(*) FROM commands"), before + 1_500);
    assert!(count(&store, "SELECT count(*) FROM snapshots") >= 1);
    check_whole(&store, "finished");
}

#[test]
fn x_03_sigkill_mid_stream_keeps_every_committed_command() {
    let (_dir, db, list) = crash_campaign();
    for (round, in_round) in ROUNDS.into_iter().enumerate() {
        let (before, controlled) = {
            let store = Store::open(&db).unwrap();
            let c = store.load_as::<MagnaGraecia>(store.find("Crash").unwrap()).unwrap();
            (c.commands, c.state.control.contains_key(&NodeId(5)))
        };
        let orders = orders(controlled, round);
        let lines: Vec<String> = orders.iter().map(|o| serde_json::to_string(o).unwrap()).collect();
        std::fs::write(&list, lines.join("\n")).unwrap();

        // One `referee order` per order, as a referee's script would give them.
        let mut writer = Process::new("sh");
        writer
            .args(["-c", r#"while IFS= read -r order; do "$0" --db "$1" order Crash "$order" || exit 1; done < "$2""#])
            .arg(env!("CARGO_BIN_EXE_referee"))
            .arg(&db)
            .arg(&list);
        let mut child = start_writer(&mut writer);
        let seen = kill_after(&mut child, &db, before + in_round, round);

        // Every connection is closed now: opening the file again recovers it as after a crash.
        let store = Store::open(&db).unwrap();
        check_whole(&store, &format!("{round}"));
        let stored = count(&store, "SELECT count(*) FROM commands");
        assert!(stored >= seen, "round {round}: {seen} commands were seen committed, only {stored} are stored");
        assert!(stored < before + ORDERS, "round {round}: the writer was killed after every order was stored");

        // The orders that stand are the first ones of the list, in order, none skipped.
        let mut query = store.connection().prepare("SELECT seq, body FROM commands WHERE seq > ?1 ORDER BY seq").unwrap();
        let bodies: Vec<(u64, String)> = query.query_map([before], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
        assert_eq!(bodies.len() as u64, stored - before, "round {round}");
        for (k, (seq, body)) in bodies.iter().enumerate() {
            assert_eq!(*seq, before + 1 + k as u64, "round {round}");
            let command: Order = serde_json::from_str(body).unwrap();
            assert_eq!(command, orders[k], "round {round}: command {seq} is not order {} of the list", k + 1);
        }
        drop(query);
        assert_eq!(store.load_as::<MagnaGraecia>(store.find("Crash").unwrap()).unwrap().commands, stored, "round {round}");
    }
}
