//! dice the players can verify. A campaign publishes a commitment to its seed when it
//! begins; once the referee reveals the seed, every seeded roll in the log is replayed from it
//! and checked, typed-in rolls are left out, and a roll that was not the seed's is found.

use referee_campaign::belisarius::{Belisarius, World};
use referee_campaign::core::log::RollDice;
use referee_campaign::core::verify::Verdict;
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::{DiceInput, DiceSpec, Store, StoreError, magna_graecia::order::Order};
use referee_e2e::{TempDb, cli, scenario, sicily};
use rusqlite::Connection;

fn roll(purpose: &str) -> Order {
    Order::RollDice(RollDice {
        dice: DiceSpec { count: 2, sides: 6 },
        purpose: purpose.to_owned(),
        side: None,
        hidden: true,
        modifiers: vec![],
    })
}

/// A campaign with seeded and typed-in rolls, one of them undone and given again.
fn campaign(store: &mut Store, seed: u64) -> referee_campaign::CampaignId {
    let mut c = store.create_as::<MagnaGraecia>("Checked", scenario("dionysian"), seed).unwrap();
    store.execute(&mut c, sicily(), &roll("omens"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, sicily(), &roll("storm at sea"), DiceInput::Manual(vec![6, 6])).unwrap();
    store.execute(&mut c, sicily(), &roll("plague"), DiceInput::Seeded).unwrap();
    store.undo(&mut c).unwrap();
    store.execute(&mut c, sicily(), &roll("plague again"), DiceInput::Seeded).unwrap();
    store.execute(&mut c, sicily(), &roll("desertion"), DiceInput::Seeded).unwrap();
    c.id
}

/// the commitment is public from the start and gives nothing of the seed; the revealed
/// seed opens it and replays every seeded roll, the typed-in one left out; another seed
/// opens nothing and replays nothing.
#[test]
fn x_02_a_revealed_seed_verifies_every_seeded_roll() {
    let mut store = Store::open_in_memory().unwrap();
    let id = campaign(&mut store, 7);
    let commitment = store.commitment(id).unwrap().unwrap();
    assert_eq!((commitment.from_event, commitment.revealed_at.as_deref()), (1, None));
    assert_eq!(commitment.digest.len(), 64);
    assert!(!commitment.opens_with(8));

    let checked = store.verify_seed::<MagnaGraecia>(id, 7).unwrap();
    assert!(checked.holds(), "{}", checked.summary());
    assert_eq!(checked.counts(), [3, 0, 1, 0]);
    let purposes: Vec<(&str, Verdict)> = checked.checks.iter().map(|c| (c.purpose.as_str(), c.verdict)).collect();
    assert_eq!(
        purposes,
        [
            ("omens", Verdict::Matches),
            ("storm at sea", Verdict::TypedIn),
            ("plague again", Verdict::Matches),
            ("desertion", Verdict::Matches)
        ]
    );

    let wrong = store.verify_seed::<MagnaGraecia>(id, 8).unwrap();
    assert!(!wrong.holds() && !wrong.commitment_opens);
    assert!(wrong.summary().starts_with("The seed does NOT open the commitment"), "{}", wrong.summary());

    let revealed = store.reveal_seed(id).unwrap();
    assert!(revealed.revealed_at.is_some());
    assert_eq!(store.reveal_seed(id).unwrap().revealed_at, revealed.revealed_at, "revealed once");
}

/// a roll changed in the file after it was made is found, by its event.
#[test]
fn x_02_a_roll_that_was_not_the_seed_s_is_found() {
    let db = TempDb::new();
    let id = campaign(&mut Store::open(&db.path).unwrap(), 11);
    let conn = Connection::open(&db.path).unwrap();
    let (seq, body): (u64, String) = conn
        .query_row("SELECT seq, body FROM events WHERE campaign_id = ?1 AND body LIKE '%desertion%'", [id.0], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    let mut event: serde_json::Value = serde_json::from_str(&body).unwrap();
    let values = &mut event["roll"]["values"];
    let fudged = if values[0] == 6 { 5 } else { 6 };
    values[0] = fudged.into();
    conn.execute("UPDATE events SET body = ?1 WHERE campaign_id = ?2 AND seq = ?3", rusqlite::params![event.to_string(), id.0, seq])
        .unwrap();
    drop(conn);

    let checked = Store::open(&db.path).unwrap().verify_seed::<MagnaGraecia>(id, 11).unwrap();
    assert!(!checked.holds());
    let differs: Vec<u64> = checked.checks.iter().filter(|c| c.verdict == Verdict::Differs).filter_map(|c| c.event).collect();
    assert_eq!(differs, [seq]);
}

/// a campaign begun before commitments were made gets one when asked, covering only
/// what follows; the rolls before it are reported as not checked.
#[test]
fn x_02_an_older_campaign_commits_from_now_on() {
    let db = TempDb::new();
    let mut store = Store::open(&db.path).unwrap();
    let id = campaign(&mut store, 5);
    Connection::open(&db.path).unwrap().execute("DELETE FROM seed_commitments", []).unwrap();
    let e = store.verify_seed::<MagnaGraecia>(id, 5).unwrap_err();
    assert!(matches!(e, StoreError::NoCommitment(_)), "{e}");

    let mut c = store.load_as::<MagnaGraecia>(id).unwrap();
    let commitment = store.commit_seed(&c).unwrap();
    assert_eq!(commitment.from_event, c.head + 1);
    store.execute(&mut c, sicily(), &roll("after"), DiceInput::Seeded).unwrap();
    let checked = store.verify_seed::<MagnaGraecia>(id, 5).unwrap();
    assert!(checked.holds());
    assert_eq!(checked.counts(), [1, 0, 1, 3]);
}

/// a Belisarius campaign's rolls are checked the same way.
#[test]
fn x_02_a_belisarius_campaign_verifies_too() {
    let mut store = Store::open_in_memory().unwrap();
    let setup = World::embedded().setup("africa-533").unwrap();
    let mut c = store.create_as::<Belisarius>("Africa", &setup, 533).unwrap();
    for purpose in ["desertion", "weather"] {
        let order = referee_campaign::belisarius::order::Order::RollDice(RollDice {
            dice: DiceSpec::D6,
            purpose: purpose.into(),
            side: None,
            hidden: false,
            modifiers: vec![],
        });
        store.execute(&mut c, &(), &order, DiceInput::Seeded).unwrap();
    }
    let checked = store.verify_seed::<Belisarius>(c.id, 533).unwrap();
    assert!(checked.holds());
    assert_eq!(checked.counts(), [2, 0, 0, 0]);
    assert!(!store.verify_seed::<Belisarius>(c.id, 534).unwrap().holds());
}

/// `referee reveal` tells the seed and salt; `referee verify` reports each roll
/// and fails with one sentence when the seed is not the campaign's.
#[test]
fn x_02_the_command_line_reveals_and_verifies() {
    let db = TempDb::new();
    cli(&db.path, &["new", "dionysian", "--name", "Open", "--seed", "23"]).ok();
    cli(&db.path, &["roll", "Open", "2d6", "--purpose", "omens"]).ok();
    cli(&db.path, &["roll", "Open", "d6", "--purpose", "table", "--value", "4"]).ok();
    let revealed = cli(&db.path, &["reveal", "Open", "--json"]).json();
    assert_eq!(revealed["seed"], 23);
    assert_eq!(revealed["salt"].as_str().unwrap().len(), 32);
    let report = cli(&db.path, &["verify", "Open", "--seed", "23"]).ok();
    assert!(report.contains("omens: ") && report.contains("— matches"), "{report}");
    assert!(report.contains("table: 4 — typed in, not checked"), "{report}");
    cli(&db.path, &["verify", "Open", "--seed", "24"]).refused_saying("The seed does NOT open the commitment");
}
