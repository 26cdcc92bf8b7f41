//! The commands every engine has, written once and generic over the engine: a campaign's log,
//! its orders (from the referee or from one side), a roll, undo, and its dice seed printed,
//! revealed and checked. [`CliEngine`] is what they ask of an engine; each engine's module
//! implements it, with the commands only that engine has.

use referee_campaign::core::log::RollDice;
use referee_campaign::core::view::HasLog;
use std::io::Write;

use anyhow::{anyhow, bail};
use referee_campaign::core::engine::{Engine, Logged};
use referee_campaign::core::verify::log_lines;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::{CampaignId, SideId};
use referee_campaign::store::{Campaign, DiceInput, Store};
use serde::Serialize;

use super::args::{CliCommand, ViewArgs};
use super::output::{Executed, LogOnly, Revealed, Seed, SideRead, Verified};
use super::read::{echo, order_text, parse_orders, roll_parts};
use super::{Access, Session};
use crate::packet::OrdersFile;

/// What the commands every engine has ask of an engine, besides its rules.
pub(crate) trait CliEngine: Engine<View: Serialize> {
    /// What the typed-in dice (and chits) of a single order are called, where a list of orders
    /// is given them.
    const TYPED_IN: &'static str;

    /// Opens campaign `id` with what its rules read besides it.
    fn open(session: &Session, store: &Store, id: CampaignId) -> anyhow::Result<(Campaign<Self>, Self::Context)>;
    /// The campaign's sides, by id and name.
    fn sides(state: &Self::State) -> Vec<(SideId, String)>;
    /// The refusal of a side `side` that the campaign does not have.
    fn no_side(state: &Self::State, side: &str) -> String;
    /// Refuses chits drawn from a real cup (`--chit`) where the engine draws none, before the
    /// order is read.
    fn check_chits(chits: &[String]) -> anyhow::Result<()>;
    /// Runs a command that only this engine has, or whose output is the engine's own.
    fn execute(session: &Session, command: CliCommand, out: &mut dyn Write) -> anyhow::Result<()>;
}

/// Runs a command on a campaign of engine `E`: the commands every engine has here, the
/// others by the engine's module.
pub(super) fn execute<E: CliEngine>(session: &Session, command: CliCommand, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        CliCommand::Log(args) => {
            let seen = view::<E>(session, &args)?;
            if session.json && args.side.is_none() {
                writeln!(out, "{}", serde_json::to_string_pretty(&seen.events)?)?;
                return Ok(());
            }
            session.print(out, &LogOnly { view: &seen.view, log: seen.view.log() })
        }
        CliCommand::Order { campaign, order, file, values, chits, side, anyway } => {
            E::check_chits(&chits)?;
            let text = order_text(order.as_deref(), file.as_deref())?;
            if serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| OrdersFile::is_one(&v)) {
                return take_in::<E>(session, &campaign, &text, side.as_deref(), anyway, out);
            }
            if anyway {
                bail!("--anyway goes with an orders file from a side's packet, and this is not one");
            }
            let orders: Vec<E::Order> = parse_orders(&text)?;
            let from = match &side {
                Some(side) => {
                    let store = session.store(Access::Read)?;
                    let c = store.load_as::<E>(store.find(&campaign)?)?;
                    Some(crate::packet::own_orders::<E>(&orders, side, &E::sides(&c.state))?)
                }
                None => None,
            };
            if (!values.is_empty() || !chits.is_empty()) && orders.len() != 1 {
                bail!("{} go with a single order, not a list of {}", E::TYPED_IN, orders.len());
            }
            let mut store = session.store(Access::Write)?;
            let (mut c, context) = E::open(session, &store, store.find(&campaign)?)?;
            let viewer = from.map_or(Viewer::Umpire, Viewer::Side);
            let events = match orders.as_slice() {
                [one] => {
                    let input = match (values.is_empty(), chits.is_empty()) {
                        (true, true) => DiceInput::Seeded,
                        (false, true) => DiceInput::Manual(values),
                        _ => DiceInput::ManualWithChits { dice: values, chits },
                    };
                    store.execute(&mut c, &context, one, input)?
                }
                // A list is taken whole or not at all, so a player's turn is never half stored.
                many => store
                    .execute_all(&mut c, &context, many)
                    .map_err(|e| crate::packet::list_refused::<E>(e, (&c, &context, &viewer), many, "none of the list was stored"))?,
            };
            let lines = events.iter().filter_map(|e| E::describe(&c.state, &context, e, &viewer)).collect();
            match viewer {
                Viewer::Umpire => session.print(out, &Executed { events, lines }),
                Viewer::Side(_) => session.print(out, &SideRead { lines }),
            }
        }
        CliCommand::Roll { campaign, dice, purpose, values, side, secret, modifiers } => {
            let (spec, modifiers) = roll_parts(&dice, &values, &modifiers)?;
            let order = E::Order::from(RollDice { dice: spec, purpose, side: side.map(SideId::new), hidden: secret, modifiers });
            let input = if values.is_empty() { DiceInput::Seeded } else { DiceInput::Manual(values) };
            run_one::<E>(session, &campaign, &order, input, out)
        }
        CliCommand::Undo { campaign } => {
            let mut store = session.store(Access::Write)?;
            let (mut c, _) = E::open(session, &store, store.find(&campaign)?)?;
            let undone = store.undo(&mut c)?;
            session.print(out, &undone)
        }
        CliCommand::Seed { campaign } => {
            let store = session.store(Access::Read)?;
            let c = store.load_as::<E>(store.find(&campaign)?)?;
            session.print(out, &Seed { campaign: E::name(&c.state).to_owned(), seed: E::dice(&c.state).0 })
        }
        CliCommand::Reveal { campaign } => {
            let mut store = session.store(Access::Write)?;
            let id = store.find(&campaign)?;
            let seed = E::dice(&store.load_as::<E>(id)?.state).0;
            let commitment = store.reveal_seed(id)?;
            session.print(out, &Revealed::new(campaign.trim().to_owned(), seed, commitment))
        }
        CliCommand::Verify { campaign, seed, side } => verify::<E>(session, &campaign, seed, side.as_deref(), out),
        command => E::execute(session, command, out),
    }
}

/// Takes in the orders file of a side's packet (`order CAMPAIGN --as SIDE --file F`): made
/// for this campaign and from this side's packet, answering the side's log as it stands (or
/// `anyway`); read back as the side reads it, or the first refusal, which the referee may
/// forward as it stands.
fn take_in<E: CliEngine>(
    session: &Session,
    campaign: &str,
    text: &str,
    side: Option<&str>,
    anyway: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let file = crate::packet::read_orders(text)?;
    let Some(side) = side else {
        bail!("an orders file is taken in as the side it is from: `--as {}`", echo(file.side.as_str()));
    };
    let mut store = session.store(Access::Write)?;
    let (mut c, context) = E::open(session, &store, store.find(campaign)?)?;
    let sides = E::sides(&c.state);
    let id = crate::packet::own_orders::<E>(&[], side, &sides)?;
    let side_name = sides.iter().find(|(s, _)| s == &id).map(|(_, n)| n.clone()).unwrap_or_default();
    if file.side != id {
        let whose = match sides.iter().find(|(s, _)| s == &file.side) {
            Some((_, other)) => format!("it was made from the packet of {other}"),
            None => "the campaign has no such side".to_owned(),
        };
        bail!("the orders file is from `{}`, not from `{id}` ({side_name}): {whose}; nothing was taken in", echo(file.side.as_str()));
    }
    let incoming = crate::packet::Incoming::<E>::check(&store, &c, &context, file, &sides)?;
    let (_, lines) = incoming.apply(&mut store, &mut c, &context, anyway, "give --anyway")?;
    session.print(out, &SideRead { lines })
}

/// A campaign as one viewer sees it, with what the view was made from.
pub(crate) struct Seen<E: Engine> {
    pub(crate) view: E::View,
    pub(crate) events: Vec<Logged<E::Event>>,
    pub(crate) campaign: Campaign<E>,
    pub(crate) context: E::Context,
}

/// The campaign `args` names, as the umpire or the side it names sees it.
pub(crate) fn view<E: CliEngine>(session: &Session, args: &ViewArgs) -> anyhow::Result<Seen<E>> {
    let store = session.store(Access::Read)?;
    let (campaign, context) = E::open(session, &store, store.find(&args.campaign)?)?;
    let events = store.events_as::<E>(campaign.id)?;
    let viewer = match &args.side {
        Some(s) => Viewer::Side(SideId::new(s.clone())),
        None => Viewer::Umpire,
    };
    let view = E::view_for(&campaign.state, &context, &events, &viewer)
        .ok_or_else(|| anyhow!(E::no_side(&campaign.state, args.side.as_deref().unwrap_or_default())))?;
    Ok(Seen { view, events, campaign, context })
}

/// Runs one order on a campaign and prints what happened.
pub(crate) fn run_one<E: CliEngine>(
    session: &Session,
    campaign: &str,
    order: &E::Order,
    input: DiceInput,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut store = session.store(Access::Write)?;
    let (mut c, context) = E::open(session, &store, store.find(campaign)?)?;
    let events = store.execute(&mut c, &context, order, input)?;
    executed::<E>(session, &c.state, &context, events, out)
}

/// Prints an order's events, with the log lines the umpire reads for them.
pub(crate) fn executed<E: CliEngine>(
    session: &Session,
    state: &E::State,
    context: &E::Context,
    events: Vec<E::Event>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let lines = events.iter().filter_map(|e| E::describe(state, context, e, &Viewer::Umpire)).collect();
    session.print(out, &Executed { events, lines })
}

/// Checks a seed against a campaign; a check that fails is an error, after the report is
/// printed. A side's check names its own rolls by the lines of its log.
fn verify<E: CliEngine>(session: &Session, campaign: &str, seed: u64, side: Option<&str>, out: &mut dyn Write) -> anyhow::Result<()> {
    let store = session.store(Access::Read)?;
    let id = store.find(campaign)?;
    let verification = match side {
        None => store.verify_seed::<E>(id, seed)?,
        Some(side) => {
            // Before the reveal a side may not try seeds against the commitment's salt.
            if store.commitment(id)?.is_none_or(|c| c.revealed_at.is_none()) {
                bail!("a side checks the rolls once the referee has revealed the seed (`referee reveal`)");
            }
            let viewer = Viewer::Side(SideId::new(side));
            let (c, context) = E::open(session, &store, id)?;
            if !E::sides(&c.state).iter().any(|(s, _)| s.as_str() == side) {
                bail!("{}", E::no_side(&c.state, side));
            }
            let events = store.events_as::<E>(id)?;
            let lines = log_lines::<E>(&c.state, &context, &events, &viewer);
            store.verify_seed_as::<E>(id, seed, &viewer, |l| lines.get(&l.seq).copied())?
        }
    };
    session.print(out, &Verified(verification.clone()))?;
    if !verification.holds() {
        bail!("{}", verification.summary());
    }
    Ok(())
}
