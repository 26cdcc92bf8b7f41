//! replaying the stored events gives exactly the live state, whatever stream of
//! commands (refused ones and undos included) the campaign went through; and the same seed
//! and commands give the same dice.

use proptest::prelude::*;
use referee_campaign::core::log::{AddNote, RollDice};
use referee_campaign::fixtures::{DIONYSIAN, deploy_orders};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::{
    DiceInput, DiceSpec, ExecError, Modifier, NodeId, SideId, Store, StoreError, magna_graecia::event::Event, magna_graecia::order::Order,
    magna_graecia::state::CampaignState,
};
use referee_e2e::{scenario, sicily};

#[derive(Debug, Clone)]
enum Step {
    Execute(Order, DiceInput),
    Undo,
}

fn side() -> impl Strategy<Value = Option<SideId>> {
    prop_oneof![Just(None), Just(Some(SideId::new("carthage"))), Just(Some(SideId::new("syracuse"))), Just(Some(SideId::new("persia"))),]
}

fn step() -> impl Strategy<Value = Step> {
    let roll = (1u8..=3, prop_oneof![Just(6u8), Just(20u8)], side(), any::<bool>(), -2i32..=2, any::<bool>(), 0u8..=21).prop_map(
        |(count, sides, side, hidden, modifier, manual, value)| {
            let modifiers = if modifier == 0 { vec![] } else { vec![Modifier { value: modifier, reason: "odds".into() }] };
            let input = if manual { DiceInput::Manual(vec![value; usize::from(count)]) } else { DiceInput::Seeded };
            Step::Execute(
                Order::RollDice(RollDice { dice: DiceSpec { count, sides }, purpose: "test".into(), side, hidden, modifiers }),
                input,
            )
        },
    );
    let control = (0u8..34, side())
        .prop_map(|(n, side)| Step::Execute(Order::AdjustControl { node: NodeId(n), side, reason: "test".into() }, DiceInput::Seeded));
    let note = "[a-z ]{0,12}".prop_map(|text| Step::Execute(Order::AddNote(AddNote { text }), DiceInput::Seeded));
    let counter = prop::sample::select(vec!["Himilco", "Hanno", "Hamilcar", "fleet", "Dionysius", "Agyris", "Nobody"]);
    let mover = prop_oneof![Just(SideId::new("carthage")), Just(SideId::new("syracuse"))];
    let mv = (mover.clone(), counter, prop::collection::vec(0u8..32, 1..3)).prop_map(|(side, counter, path)| {
        Step::Execute(Order::Move { side, counter: counter.to_owned(), path: path.into_iter().map(NodeId).collect() }, DiceInput::Seeded)
    });
    let end = (mover, prop::option::of(1u8..=6))
        .prop_map(|(side, typed)| Step::Execute(Order::EndPhase { side }, typed.map_or(DiceInput::Seeded, |v| DiceInput::Manual(vec![v]))));
    prop_oneof![3 => roll, 2 => control, 1 => note, 2 => Just(Step::Undo), 5 => mv, 4 => end]
}

fn play(steps: &[Step], seed: u64, snapshot_every: u64) -> (Store, referee_campaign::Campaign<MagnaGraecia>) {
    let mut store = Store::open_in_memory().unwrap();
    store.set_snapshot_every(snapshot_every);
    let mut c = store.create_as::<MagnaGraecia>("P", scenario("dionysian"), seed).unwrap();
    for deploy in deploy_orders(&DIONYSIAN) {
        store.execute(&mut c, sicily(), &deploy, DiceInput::Seeded).unwrap();
    }
    store.execute(&mut c, sicily(), &Order::BeginPlay {}, DiceInput::Seeded).unwrap();
    for s in steps {
        match s {
            Step::Execute(command, input) => {
                let before = c.state.clone();
                match store.execute(&mut c, sicily(), command, input.clone()) {
                    Ok(_) => {}
                    Err(ExecError::Rule(_)) => assert_eq!(c.state, before, "a refused command changed the state"),
                    Err(e) => panic!("the store failed on {command:?}: {e}"),
                }
            }
            Step::Undo => {
                let before = c.state.clone();
                match store.undo(&mut c) {
                    Ok(_) => {}
                    // Only the campaign's start is left, and it cannot be undone.
                    Err(StoreError::NothingToUndo(_)) => {
                        assert_eq!(c.commands, 1, "undo refused with commands left to undo");
                        assert_eq!(c.state, before, "a refused undo changed the state");
                    }
                    Err(e) => panic!("undo failed: {e}"),
                }
            }
        }
    }
    (store, c)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// live state = state reopened from the store = state replayed from the events.
    #[test]
    fn x_03_replay_equals_live_state(steps in prop::collection::vec(step(), 0..40), seed in any::<u64>(), every in 0u64..6) {
        let (store, live) = play(&steps, seed, every);
        let reopened = store.load_as::<MagnaGraecia>(live.id).unwrap();
        prop_assert_eq!(&reopened.state, &live.state);
        let events: Vec<Event> = store.events_as::<MagnaGraecia>(live.id).unwrap().into_iter().map(|l| l.event).collect();
        let replayed = CampaignState::replay(&events).unwrap();
        prop_assert_eq!(&replayed, &live.state);
        prop_assert_eq!(reopened.head as usize, events.len());
    }

    /// the same seed and the same commands give the same events, dice included.
    #[test]
    fn x_02_same_seed_same_dice(steps in prop::collection::vec(step(), 0..30), seed in any::<u64>()) {
        let (a, ca) = play(&steps, seed, 0);
        let (b, cb) = play(&steps, seed, 3);
        let ea: Vec<Event> = a.events_as::<MagnaGraecia>(ca.id).unwrap().into_iter().map(|l| l.event).collect();
        let eb: Vec<Event> = b.events_as::<MagnaGraecia>(cb.id).unwrap().into_iter().map(|l| l.event).collect();
        prop_assert_eq!(ea, eb);
    }
}
