//! Belisarius interception and battle, what they let through (BE-53, BE-17): through a
//! contact, a failed interception from a city and a battle, in what their packet carries for
//! their desk, and in the battle pack sent to the table, the Byzantines read nothing of what
//! they may not know. The rules of
//! interception and battle are tested beside them, in the campaign crate.

use referee_campaign::Store;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::belisarius::map::Terrain;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::Location;
use referee_campaign::belisarius::tables::Interception;
use referee_campaign::fixtures::belisarius::{
    battle_order, byz, city_of, goths, hold, interception_die, italy_under_vitiges, run, stage, view_json,
};
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

/// One run of the differential test: everything the Byzantines may not know is taken from
/// `hidden` — the Gothic chit, the leader and units that come out of the city to intercept
/// and fail, and a Gothic force far away. In the program, `breaker` breaks off after the
/// first passage and retreats.
fn intercepted_run(hidden: (&str, &str, &str, &str), table: bool, breaker: &SideId) -> Vec<String> {
    let (chit, sallier, sallier_units, far_units) = hidden;
    let (mut store, mut c) = italy_under_vitiges(chit, [6, 1]);
    let map = c.state.setup.map.clone();
    let target = map.zones.iter().find(|z| z.terrain == Terrain::Plain).unwrap().id.clone();
    let from = map.zone(&target).unwrap().neighbours[0].clone();
    let far = map.zones.iter().find(|z| z.id != target && z.id != from && !map.adjacent(&z.id, &target)).unwrap().id.clone();
    let city = city_of(&c, &target);
    stage(
        &mut c,
        &[
            (byz(), "belisarius", "4B 4B 3C", Location::Zone(from)),
            (goths(), "uraias", "3B 3C", Location::Zone(target.clone())),
            (goths(), sallier, sallier_units, city),
            (goths(), "vitiges", far_units, Location::Zone(far)),
        ],
    );
    hold(&mut c, &target, &goths());
    // The Byzantines' view, and what their packet carries for their desk besides: the force
    // acting, the battle under way that the odds are counted from, where they may retreat.
    let read = |store: &Store, c: &Campaign<Belisarius>| {
        let desk = referee::reports::belisarius_desk(&c.state, &byz()).unwrap();
        format!("{}\n{}", view_json(c, store, &byz()), serde_json::to_string_pretty(&desk).unwrap())
    };
    let mut out = vec![read(&store, &c)];
    let step = |store: &mut Store, c: &mut Campaign<Belisarius>, order: Order, dice: DiceInput, out: &mut Vec<String>| {
        run(store, c, &order, dice);
        out.push(read(store, c));
    };
    step(&mut store, &mut c, Order::Activate { side: byz(), leader: "belisarius".into(), with: vec![] }, DiceInput::Seeded, &mut out);
    step(
        &mut store,
        &mut c,
        Order::Move { side: byz(), leader: "belisarius".into(), path: vec![target.0.clone()], attrition_from: vec![] },
        DiceInput::Manual(vec![1]),
        &mut out,
    );
    // The force in the city comes out, fails on a 1, and goes back in.
    step(
        &mut store,
        &mut c,
        Order::Intercept { side: goths(), leaders: vec![sallier.into()], target: None, reconnaissance: false },
        DiceInput::Manual(vec![1]),
        &mut out,
    );
    step(&mut store, &mut c, Order::Decline { side: goths() }, DiceInput::Seeded, &mut out);
    // Belisarius catches Uraias in the open; the battle is fought out.
    let die = interception_die(&c, 8 - 5, false, Interception::LineOfBattle);
    step(
        &mut store,
        &mut c,
        Order::Intercept { side: byz(), leaders: vec!["belisarius".into()], target: Some(1), reconnaissance: false },
        DiceInput::Manual(vec![die]),
        &mut out,
    );
    if table {
        // Sent to the table: the Byzantines' pack, read back, for each set of rules.
        step(&mut store, &mut c, Order::SendToTable {}, DiceInput::Seeded, &mut out);
        let events = store.events_as::<Belisarius>(c.id).unwrap();
        let elements = referee_campaign::magna_graecia::catalog::Catalog::embedded().elements;
        let conv = referee_battle_gen::belisarius::Conversion::embedded();
        for system in [
            referee_battle_gen::TabletopSystem::Dbm,
            referee_battle_gen::TabletopSystem::Dbsa,
            referee_battle_gen::TabletopSystem::ArsBellum,
            referee_battle_gen::TabletopSystem::ALaCharge,
        ] {
            let options = referee_battle_gen::pack::PackOptions { system, ..Default::default() };
            let files = referee_battle_gen::belisarius::campaign_pack(&c.state, &events, &elements, &conv, &options).unwrap();
            let mine = files.iter().find(|f| f.file_name.contains("byzantines")).unwrap();
            out.push(referee_battle_gen::pdf::extract_text(&mine.bytes).unwrap().join("\n"));
        }
        return out;
    }
    while let Some(order) = battle_order(&c.state, Some(breaker)) {
        step(&mut store, &mut c, order, DiceInput::Seeded, &mut out);
    }
    out
}

/// [`intercepted_run`] twice, the Goths keeping different things hidden: another chit,
/// another force out of the city and failing, another force elsewhere.
fn two_runs(table: bool, breaker: &SideId) -> (Vec<String>, Vec<String>) {
    (
        intercepted_run(("ap-j", "aligern", "4B", "5A 5A"), table, breaker),
        intercepted_run(("ap-a", "victiger", "2C 2C 1D", "1D"), table, breaker),
    )
}

/// Asserts that the Byzantines read `a` and `b` alike, each `what` of them, naming the first
/// line that differs.
fn assert_alike(a: &[String], b: &[String], what: &str) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let differs = x.lines().zip(y.lines()).find(|(p, q)| p != q);
        assert!(
            differs.is_none() && x.len() == y.len(),
            "{what} {i}: the Byzantines read something of what they may not know: {differs:?}"
        );
    }
}

/// BE-53, X-01: through a contact, a failed interception from a city and a battle, the
/// Byzantines read the same whatever the Goths' chit, whoever came out of the city and
/// failed, and whatever Gothic force stands elsewhere; inside the battle, they read the
/// force they fight.
#[test]
fn be_53_interception_and_battle_leak_nothing() {
    let (a, b) = two_runs(false, &goths());
    assert_alike(&a, &b, "step");
    assert!(a.iter().any(|v| v.contains("Uraias")), "the enemy in battle is face up");
    assert!(a.iter().any(|v| v.contains("\"odds\": {")), "the desk's battle under way is compared while it lasts");
    assert!(a.iter().any(|v| v.contains("\"acting\": {")), "the desk's force acting is compared");
    assert!(a.iter().all(|v| !v.contains("Aligern") && !v.contains("aligern")));
}

/// BE-22, BE-53, X-06, BE-10: Belisarius breaks off and the Byzantines owe a retreat: the
/// places their desk offers (and why the city is barred) are worked out from the map, who
/// holds the city and their own force, and read the same whatever the Goths keep hidden; so
/// does his march being over after it (`halted`).
#[test]
fn be_22_the_retreats_a_sides_desk_offers_leak_nothing() {
    let (a, b) = two_runs(false, &byz());
    assert_eq!(a, b, "the Byzantines read something of what they may not know");
    let retreat = a.iter().find(|v| v.contains("\"retreats\": [\n      ")).expect("a moment where the Byzantines owe a retreat");
    assert!(retreat.contains("not-held"), "the city the Goths hold is offered barred, with why: {retreat}");
    // Beaten, Belisarius's march is over: his own side reads it (`halted`), the same both runs.
    assert!(a.iter().any(|v| v.contains("\"halted\": [\n")), "a moment where the Byzantines read Belisarius halted");
}

/// BE-53, BE-17: sent to the table, the Byzantines' battle pack (DBM, DBSA and both hex
/// systems) reads the same whatever the Goths' chit, whoever came out of the city and failed,
/// and whatever Gothic force stands elsewhere; it shows the force they fight, as deployed.
#[test]
fn be_53_the_table_pack_leaks_nothing() {
    let (a, b) = two_runs(true, &goths());
    assert_alike(&a, &b, "output");
    let packs = &a[a.len() - 4..];
    assert!(packs.iter().all(|p| p.contains("Uraias")), "the enemy fought is in the brief");
    assert!(packs.iter().all(|p| !p.contains("Aligern") && !p.contains("Vitiges")), "nothing of the Goths elsewhere");
}
