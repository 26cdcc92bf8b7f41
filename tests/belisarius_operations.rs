//! Belisarius operations (BE-02, BE-04 … BE-08, BE-53, BE-54): the AP chits drawn blind and
//! kept secret, the first player, segments of activations and passes, and the turn's end.

use referee_campaign::Store;
use referee_campaign::belisarius::event::Event;
use referee_campaign::belisarius::order::Order;
use referee_campaign::belisarius::state::Phase;
use referee_campaign::belisarius::view::{View, view_for};
use referee_campaign::belisarius::{Belisarius, Setup, World};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::SideId;
use referee_campaign::store::{Campaign, DiceInput};

fn side(id: &str) -> SideId {
    SideId::new(id)
}

/// The First Reconquest of Italy in play, Vitiges already king (as in the seed's example),
/// in a store of its own.
fn italy() -> (Store, Campaign<Belisarius>) {
    let mut setup: Setup = World::embedded().setup("italy-535").unwrap();
    let goths = setup.sides.iter_mut().find(|s| s.id.as_str() == "ostrogoths").unwrap();
    goths.cinc = Some("vitiges".to_owned());
    let mut store = Store::open_in_memory().unwrap();
    let mut c = store.create_as::<Belisarius>("Italy", &setup, 535).unwrap();
    referee_e2e::finish_belisarius_setup(&mut store, &mut c);
    (store, c)
}

fn typed(dice: &[u8], chits: &[&str]) -> DiceInput {
    DiceInput::ManualWithChits { dice: dice.to_vec(), chits: chits.iter().map(|c| (*c).to_owned()).collect() }
}

fn refused(store: &mut Store, c: &mut Campaign<Belisarius>, order: &Order, words: &str) {
    let before = store.events_as::<Belisarius>(c.id).unwrap().len();
    let err = store.execute(c, &(), order, DiceInput::Seeded).unwrap_err().to_string();
    assert!(err.contains(words), "expected `{words}`, got: {err}");
    assert_eq!(store.events_as::<Belisarius>(c.id).unwrap().len(), before, "a refusal stores nothing");
}

/// The side's own view.
fn seen_by(c: &Campaign<Belisarius>, store: &Store, who: &str) -> referee_campaign::belisarius::view::SideView {
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    match view_for(&c.state, &events, &Viewer::Side(side(who))).unwrap() {
        View::Side(v) => v,
        View::Umpire(_) => unreachable!(),
    }
}

/// A leader of `side` on the map, by id, of the given rank or any.
fn leader_of(c: &Campaign<Belisarius>, who: &str, rank: Option<u8>) -> String {
    use referee_campaign::belisarius::state::PieceKind;
    c.state
        .pieces_of(&side(who))
        .find_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } if rank.is_none_or(|r| c.state.setup.leader(leader).is_some_and(|l| l.rank == r)) => {
                Some(leader.clone())
            }
            _ => None,
        })
        .expect("such a leader on the map")
}

/// BE-54, BE-04, BE-05: the seed's example, its first numbers: the Byzantines draw a chit
/// worth 8 to them and add Belisarius's 8 (16 AP); the Goths draw one worth 3 and add
/// Vitiges's 6 (9 AP); the initiative is 2 + 8 = 10 against 3 + 6 = 9, and the Byzantines
/// play first.
#[test]
fn be_54_the_examples_action_points_and_initiative() {
    let (mut store, mut c) = italy();
    let events = store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!(ops.ap[&side("byzantines")].total, 16);
    assert_eq!(ops.ap[&side("ostrogoths")].total, 9);
    assert_eq!(ops.first, side("byzantines"));
    assert_eq!(c.state.phase, Phase::Operations);
    let initiative: Vec<i32> =
        events.iter().filter_map(|e| if let Event::DiceRolled { roll, .. } = e { Some(roll.total()) } else { None }).collect();
    assert_eq!(initiative, [10, 9]);
    assert!(!c.state.cup.contents().contains(&"ap-i".to_owned()), "a chit drawn is out of the cup");
}

/// BE-04, BE-53: each side's action points are its own secret: its view holds them, the
/// other's view does not, and the other's log says only that a chit was drawn.
#[test]
fn be_04_action_points_are_secret_from_the_other_side() {
    let (mut store, mut c) = italy();
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let goths = seen_by(&c, &store, "ostrogoths");
    assert_eq!(goths.own.action_points.as_ref().map(|a| a.total), Some(9));
    let text = serde_json::to_string(&goths).unwrap();
    assert!(!text.contains("ap-i") && !text.contains("16 action points"), "the Byzantine chit reached the Goths");
    let log: Vec<&str> = goths.log.iter().map(|l| l.text.as_str()).collect();
    assert!(log.iter().any(|l| l.contains("Byzantines draw their AP chit")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("9 action points this turn (3 on the chit + 6, Vitiges)")), "{log:?}");
    let byz = seen_by(&c, &store, "byzantines");
    assert_eq!(byz.own.action_points.as_ref().map(|a| (a.total, a.left)), Some((16, 16)));
}

/// BE-04, BE-43: a stratagem drawn is kept, hidden, and another chit drawn at once, before
/// the other side draws; the other side reads only that a stratagem was kept.
#[test]
fn be_04_a_stratagem_drawn_is_kept_and_another_drawn() {
    let (mut store, mut c) = italy();
    let stratagem = c.state.cup.contents().iter().find(|id| c.state.setup.tables.is_stratagem(id)).cloned();
    let Some(stratagem) = stratagem else { panic!("italy-535 mixes stratagems with the AP chits") };
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[5, 1], &[&stratagem, "ap-j", "ap-a"])).unwrap();
    assert!(c.state.hands[&side("byzantines")].contains(&stratagem));
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!((ops.ap[&side("byzantines")].chit.as_str(), ops.ap[&side("ostrogoths")].chit.as_str()), ("ap-j", "ap-a"));
    let goths = seen_by(&c, &store, "ostrogoths");
    let log: Vec<&str> = goths.log.iter().map(|l| l.text.as_str()).collect();
    assert!(log.iter().any(|l| l.contains("Byzantines draw a stratagem, keep it face down and draw again")), "{log:?}");
    assert!(!serde_json::to_string(&goths).unwrap().contains(&stratagem), "which stratagem is the Byzantines' secret");
}

/// BE-05: a tied initiative is rolled again.
#[test]
fn be_05_a_tied_initiative_is_rolled_again() {
    let (mut store, mut c) = italy();
    // 1 + 8 = 9 against 3 + 6 = 9: again; 1 + 8 = 9 against 4 + 6 = 10: the Goths.
    let events = store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[1, 3, 1, 4], &["ap-i", "ap-d"])).unwrap();
    let rolls = events.iter().filter(|e| matches!(e, Event::DiceRolled { .. })).count();
    assert_eq!(rolls, 4);
    assert_eq!(c.state.ops.as_ref().unwrap().first, side("ostrogoths"));
}

/// BE-06, BE-07: segments: only the side whose segment it is activates; a leader is
/// activated once a phase; an inferior goes with a superior of his zone, never an equal;
/// passing hands the next segment over, and two passes in a row end the phase.
#[test]
fn be_06_segments_alternate_and_two_passes_end_the_phase() {
    let (mut store, mut c) = italy();
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    let belisarius = "belisarius".to_owned();
    let goth = leader_of(&c, "ostrogoths", None);
    refused(
        &mut store,
        &mut c,
        &Order::Activate { side: side("ostrogoths"), leader: goth.clone(), with: vec![] },
        "it is the Byzantines' segment",
    );
    refused(
        &mut store,
        &mut c,
        &Order::Activate { side: side("byzantines"), leader: "vitiges".into(), with: vec![] },
        "no leader `vitiges`",
    );
    store
        .execute(&mut c, &(), &Order::Activate { side: side("byzantines"), leader: belisarius.clone(), with: vec![] }, DiceInput::Seeded)
        .unwrap();
    refused(
        &mut store,
        &mut c,
        &Order::Activate { side: side("byzantines"), leader: belisarius.clone(), with: vec![] },
        "activated this phase already",
    );
    // The Goths see a force activated, not who.
    let goths = seen_by(&c, &store, "ostrogoths");
    let last = &goths.log.last().unwrap().text;
    assert!(last.starts_with("Byzantines activate a force at") && !last.contains("Belisarius"), "{last}");
    assert!(goths.board.markers.iter().all(|m| !m.spent), "the acting marker is not yet turned down");

    store.execute(&mut c, &(), &Order::Pass { side: side("byzantines") }, DiceInput::Seeded).unwrap();
    let ops = c.state.ops.as_ref().unwrap();
    assert_eq!((ops.segment.as_str(), ops.passes), ("ostrogoths", 0), "a segment with an activation is no pass");
    let goths = seen_by(&c, &store, "ostrogoths");
    assert_eq!(goths.board.markers.iter().filter(|m| m.spent).count(), 1, "Belisarius's marker lies head down for all to see");
    store.execute(&mut c, &(), &Order::Pass { side: side("ostrogoths") }, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.phase, Phase::Operations, "one pass does not end the phase");
    store.execute(&mut c, &(), &Order::Pass { side: side("byzantines") }, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.phase, Phase::TurnEnd, "two passes in a row end it");
    refused(&mut store, &mut c, &Order::Pass { side: side("ostrogoths") }, "not the operations phase");
}

/// BE-07: an inferior leader may go with a superior of his zone; an equal may not.
#[test]
fn be_07_an_inferior_goes_with_his_superior_never_an_equal() {
    let (mut store, mut c) = italy();
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    // Two Byzantine leaders put in Belisarius's zone, ranked below him and equal to him.
    use referee_campaign::belisarius::state::PieceKind;
    let at =
        c.state.pieces.iter().find(|p| matches!(&p.kind, PieceKind::Leader { leader, .. } if leader == "belisarius")).unwrap().at.clone();
    let chief = c.state.setup.leader("belisarius").unwrap().rank;
    let others: Vec<(String, u8)> = c
        .state
        .pieces_of(&side("byzantines"))
        .filter_map(|p| match &p.kind {
            PieceKind::Leader { leader, .. } if leader != "belisarius" => Some((leader.clone(), c.state.setup.leader(leader)?.rank)),
            _ => None,
        })
        .collect();
    let inferior = others.iter().find(|(_, r)| *r < chief).map(|(l, _)| l.clone()).expect("a Byzantine leader of lower rank");
    for p in c.state.pieces.iter_mut() {
        if matches!(&p.kind, PieceKind::Leader { leader, .. } if *leader == inferior) {
            p.at = at.clone();
        }
    }
    let activate = |with: Vec<String>| Order::Activate { side: side("byzantines"), leader: inferior.clone(), with };
    refused(&mut store, &mut c, &activate(vec!["belisarius".into()]), "may go only with a leader of higher rank");
    let order = Order::Activate { side: side("byzantines"), leader: "belisarius".into(), with: vec![inferior.clone()] };
    store.execute(&mut c, &(), &order, DiceInput::Seeded).unwrap();
    let ops = c.state.ops.as_ref().unwrap();
    assert!(ops.activated.contains(&inferior), "the inferior loses his own activation");
    refused(&mut store, &mut c, &activate(vec![]), "activated this phase already");
}

/// BE-02, BE-53: at the turn's end each side's chit is shown, the chits go back into the
/// cup, and the season moves on; the next operations draw again.
#[test]
fn be_02_the_turn_ends_with_the_chits_shown_and_the_season_moved_on() {
    let (mut store, mut c) = italy();
    refused(&mut store, &mut c, &Order::EndTurn {}, "once the operations phase is over");
    let cup = c.state.cup.contents().to_vec();
    let date = c.state.date();
    store.execute(&mut c, &(), &Order::BeginOperations {}, typed(&[2, 3], &["ap-i", "ap-d"])).unwrap();
    refused(&mut store, &mut c, &Order::BeginOperations {}, "under way already");
    store.execute(&mut c, &(), &Order::Pass { side: side("byzantines") }, DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &Order::Pass { side: side("ostrogoths") }, DiceInput::Seeded).unwrap();
    store.execute(&mut c, &(), &Order::EndTurn {}, DiceInput::Seeded).unwrap();
    assert_eq!(c.state.turn, 2);
    assert_ne!(c.state.date(), date);
    assert_eq!(c.state.cup.contents(), cup.as_slice(), "every AP chit is back in the cup");
    assert!(c.state.ops.is_none() && c.state.phase == Phase::Play);
    let goths = seen_by(&c, &store, "ostrogoths");
    let reveal = goths.log.iter().find(|l| l.text.starts_with("Turn end: the AP chits are shown")).unwrap();
    assert!(reveal.text.contains("Byzantines ap-i (8)") && reveal.text.contains("Ostrogoths ap-d (3)"), "{}", reveal.text);
    // Replayed from the events, the campaign is the one played.
    let events = store.events_as::<Belisarius>(c.id).unwrap();
    let replayed = <Belisarius as referee_campaign::core::engine::Engine>::replay(events.iter().map(|l| &l.event)).unwrap();
    assert_eq!(replayed, c.state);
    // A seeded draw next turn is checked by the seed like any roll.
    store.execute(&mut c, &(), &Order::BeginOperations {}, DiceInput::Seeded).unwrap();
    let verification = store.verify_seed::<Belisarius>(c.id, 535).unwrap();
    assert!(verification.holds(), "{}", verification.summary());
}
