//! The battles a campaign has had, for a pack printed again after its game (X-04, BE-17):
//! each with the command before which the campaign is read again from its log, to stand as
//! it did when the battle went to the table. The command line's `pack` and the app's
//! "A past battle's pack…" both read them here, so both print the same moment.

use anyhow::bail;
use referee_campaign::belisarius::Belisarius;
use referee_campaign::core::engine::{Engine, Logged};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::map::Map;

/// A battle the campaign has had, its result in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastBattle {
    /// Its number in the campaign, as its pack was headed.
    pub number: u32,
    /// Where it was fought, in the map's words.
    pub place: String,
    /// The campaign turn it was fought in.
    pub turn: u32,
    /// The command before which the campaign is read again to print its pack; `None` for a
    /// Belisarius battle fought out in the program, which never had a pack.
    pub before: Option<u64>,
}

impl PastBattle {
    /// "Battle 2 at Himera, turn 3".
    pub fn label(&self) -> String {
        format!("Battle {} at {}, turn {}", self.number, self.place, self.turn)
    }

    /// Why its pack cannot be printed again, if it cannot.
    pub fn no_pack(&self, campaign: &str) -> Option<String> {
        self.before.is_none().then(|| {
            format!(
                "battle {} of {campaign} was fought in the program, not on the table: it has no pack to print again (BE-17)",
                self.number
            )
        })
    }
}

/// The Magna Graecia battles whose result is in, in the order they were raised. A battle
/// drawn on its first day and fought again is printed as its last day went to the table.
pub fn magna_graecia(
    now: &<MagnaGraecia as Engine>::State,
    map: &Map,
    events: &[Logged<<MagnaGraecia as Engine>::Event>],
) -> Vec<PastBattle> {
    use referee_campaign::core::engine::BattleRow;
    use referee_campaign::magna_graecia::event::Event;
    let mut past: Vec<PastBattle> = Vec::new();
    for logged in events {
        // The events that raise and settle a battle are the store's, for its `battles` table.
        match (MagnaGraecia::battle_row(&logged.event), &logged.event) {
            (Some(BattleRow::Raised { number, turn, .. }), Event::BattleRaised { battle } | Event::CityAttacked { battle, .. }) => {
                past.push(PastBattle { number, place: map.name(battle.node), turn, before: None });
            }
            (Some(BattleRow::Settled { number }), _) => {
                if let Some(p) = past.iter_mut().find(|p| p.number == number) {
                    p.before = Some(logged.command_seq);
                }
            }
            _ => {}
        }
    }
    // A battle still on (a second day) is printed as it stands, not as a past one.
    past.retain(|p| p.before.is_some() && !now.battles.iter().any(|b| b.id == p.number));
    past
}

/// The Belisarius battles that have ended, numbered as they were joined; those fought out
/// in the program are listed too, with no pack. A battle on the table is printed again as it
/// stood once the command that sent it there was given.
pub fn belisarius(now: &<Belisarius as Engine>::State, events: &[Logged<<Belisarius as Engine>::Event>]) -> Vec<PastBattle> {
    use referee_campaign::belisarius::event::Event;
    use referee_campaign::belisarius::state::Location;
    let mut past: Vec<PastBattle> = Vec::new();
    // The battle joined last, until it ends.
    let mut open: Option<PastBattle> = None;
    let (mut joined, mut turn) = (0u32, 1u32);
    for logged in events {
        match &logged.event {
            Event::TurnEnded { turn: ended } => turn = ended.saturating_add(1),
            Event::BattleJoined { battle } => {
                // One battle at a time: one joined before the last ended is past all the same.
                past.extend(open.take());
                joined = joined.saturating_add(1);
                let place = now.setup.place_name(&Location::Zone(battle.zone.clone()));
                open = Some(PastBattle { number: joined, place, turn, before: None });
            }
            Event::SentToTable { .. } => {
                if let Some(battle) = &mut open {
                    battle.before = Some(logged.command_seq.saturating_add(1));
                }
            }
            Event::BattleEnded { .. } => past.extend(open.take()),
            _ => {}
        }
    }
    past
}

/// Why a past battle's pack is not printed for a hex wargame.
pub fn hex_refused(battle: u32) -> String {
    format!(
        "battle {battle}'s result is in: a hex pack is printed while the battle is on, with the tables it keeps; print it again in DBM or DBSA"
    )
}

/// What battle `battle`'s pack is printed from: the campaign and its log as they stand
/// `now`, or, printed again after the battle's result, as they stood before command `before`,
/// read again from the log. A hex pack is printed only while its battle is on, since it keeps
/// its tables with the battle (`hex`).
#[allow(clippy::type_complexity)]
pub fn moment<E: Engine>(
    now: &E::State,
    events: Vec<Logged<E::Event>>,
    before: Option<u64>,
    hex: bool,
    battle: u32,
) -> anyhow::Result<(E::State, Vec<Logged<E::Event>>)> {
    match before {
        Some(_) if hex => bail!("{}", hex_refused(battle)),
        Some(seq) => E::replay_before(&events, seq).map_err(|e| anyhow::anyhow!("the campaign's log cannot be read again: {e}")),
        None => Ok((now.clone(), events)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_campaign::Store;
    use referee_campaign::belisarius::World;
    use referee_campaign::belisarius::state::Location;
    use referee_campaign::magna_graecia::catalog::Catalog;
    use referee_campaign::store::DiceInput;

    /// BE-17: Africa, played to its end by e-mail, had battles fought out in the program and
    /// one sent to the table. Each is listed in the order joined, numbered as packs number
    /// them; those fought in the program have no pack. The one on the table is read again to
    /// the moment after it was sent there: that battle on the table, in the zone and on the
    /// turn the list names.
    #[test]
    fn be_17_battles_past_are_listed_and_read_again_as_they_went_to_the_table() {
        let orders: Vec<referee_campaign::belisarius::order::Order> =
            serde_json::from_str(include_str!("../tests/fixtures/africa_by_email.json")).unwrap();
        let setup = World::embedded().setup("africa-533").unwrap();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<Belisarius>("Africa", &setup, 602_707_391_327_417).unwrap();
        for order in &orders {
            store.execute(&mut c, &(), order, DiceInput::Seeded).unwrap();
        }
        let events = store.events_as::<Belisarius>(c.id).unwrap();
        let past = belisarius(&c.state, &events);
        let numbers: Vec<u32> = past.iter().map(|p| p.number).collect();
        let joined = referee_battle_gen::belisarius::battle_number(&events);
        assert_eq!(numbers, (1..=joined).collect::<Vec<_>>(), "every battle joined has ended, listed in order");
        assert!(past.iter().any(|p| p.no_pack("Africa").is_some()), "a battle fought in the program: {past:?}");
        let on_table: Vec<&PastBattle> = past.iter().filter(|p| p.before.is_some()).collect();
        assert_eq!(on_table.len(), 1, "{past:?}");
        let table = on_table[0];
        let (then, before) = Belisarius::replay_before(&events, table.before.unwrap()).unwrap();
        let battle = then.ops.as_ref().and_then(|o| o.battle.as_ref()).expect("the battle is on");
        assert!(battle.at_table, "it stands as sent to the table");
        assert_eq!(referee_battle_gen::belisarius::battle_number(&before), table.number);
        assert_eq!(then.setup.place_name(&Location::Zone(battle.zone.clone())), table.place);
        assert_eq!(then.turn, table.turn);
        assert!(table.turn > 1, "the table battle came after a turn's end: {table:?}");
    }

    /// X-04, MG-25: the Dionysian War's battle at Himera was drawn on its first day and fought
    /// to a result on the second. It is listed once, and its pack is printed as the second day
    /// went to the table; a hex pack is refused once the result is in.
    #[test]
    fn x_04_a_battle_of_two_days_is_printed_again_as_its_last_day_went_to_the_table() {
        use referee_campaign::magna_graecia::order::Order;
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap();
        let orders: Vec<(Order, DiceInput)> = serde_json::from_str(include_str!("../tests/fixtures/dionysian_played.json")).unwrap();
        let mut store = Store::open_in_memory().unwrap();
        let mut c = store.create_as::<MagnaGraecia>("Dionysius", catalog.scenario("dionysian").unwrap(), 42).unwrap();
        for (order, dice) in &orders {
            store.execute(&mut c, map, order, dice.clone()).unwrap();
        }
        let events = store.events_as::<MagnaGraecia>(c.id).unwrap();
        let past = magna_graecia(&c.state, map, &events);
        let himera: Vec<&PastBattle> = past.iter().filter(|p| p.place.contains("Himera")).collect();
        assert_eq!(himera.len(), 1, "listed once: {past:?}");
        let himera = himera[0];
        let (then, _) = MagnaGraecia::replay_before(&events, himera.before.unwrap()).unwrap();
        let battle = then.battles.iter().find(|b| b.id == himera.number).expect("the battle is due then");
        assert_eq!(battle.day, 2, "as its second day went to the table");
        assert_eq!(battle.turn, himera.turn);
        let refused = moment::<MagnaGraecia>(&c.state, events, himera.before, true, himera.number).unwrap_err().to_string();
        assert!(refused.contains("print it again in DBM or DBSA"), "{refused}");
    }
}
