//! What the Belisarius desk's panels may read besides the viewer's [`View`]: what the rules
//! work out about the viewer's own forces (the units a leader may take along, the garrison a
//! sortie is made with, the ships off a port), where a beaten force may go, and the battle
//! the odds are counted from.
//!
//! [`Facts::of`] is the one place where the desk reads the campaign's state for a viewer. For
//! a side it asks only about that side's own pieces and about what its view shows anyway (a
//! battle's forces are face up, a city's holder is on the map); the `_ui` functions take
//! these facts, the view and the set-up's [`Public`] part, never the state, so a side's
//! panels cannot show what the side may not know (BE-53).
//!
//! [`View`]: referee_campaign::belisarius::view::View
//! [`Public`]: referee_campaign::belisarius::setup::Public

use serde::{Deserialize, Serialize};

use crate::gui::widgets::words::may_order;
use referee_campaign::belisarius::battle::RetreatBarred;
use referee_campaign::belisarius::map::CityId;
use referee_campaign::belisarius::odds;
use referee_campaign::belisarius::pieces::Unit;
use referee_campaign::belisarius::state::{Location, State};
use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::SideId;

/// The viewer's acting force, as the rules see it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Acting {
    /// The acting leader (or decoy) and where he stands.
    pub leader: String,
    pub at: Option<Location>,
    /// The siege of his zone's city was laid in this activation: its first assault costs
    /// nothing more (BE-27).
    pub declared_here: bool,
    /// Units of his side with no leader in his zone, numbered as `pick_up` numbers them, the
    /// open zone's first (BE-11).
    pub loose: Vec<(Location, Unit)>,
    /// His side's units in the besieged city he is shut in, numbered as `sortie` numbers them
    /// (BE-28); empty unless he is.
    pub garrison: Vec<Unit>,
    /// Where the ship carrying him is, when he is aboard (BE-37).
    pub ship_at: Option<Location>,
}

/// The leaders of the besieging side who may meet a relief, by id and name (BE-29).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Relief {
    pub city: Option<CityId>,
    pub besieger: Option<SideId>,
    pub leaders: Vec<(String, String)>,
}

/// Everything beyond the view that the panels of one viewer draw from. A side's packet
/// carries its facts for the player's desk, without the referee's table spec.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Facts {
    /// The acting force, when it is the viewer's (or the viewer is the referee).
    pub acting: Option<Acting>,
    /// Where the side retreating from the battle under way may go, when the viewer may
    /// order that side (BE-22).
    pub retreats: Vec<(Location, Result<(), RetreatBarred>)>,
    /// At a contact where a siege is laid: the besiegers who may meet a relief, for the
    /// besieging side (BE-29).
    pub relief: Relief,
    /// The battle under way as it stands, losses owed included, for counting the odds:
    /// both forces are face up while it lasts (BE-17, BE-53).
    pub odds: Option<odds::Start>,
    /// A battle key that changes whenever the battle moves on: odds counted before are
    /// out of date.
    pub battle_key: Option<String>,
    /// For the referee's result form of a battle fought on the table: the battle as its pack
    /// prints it, from which a hex game's counters are counted (BE-17).
    #[serde(skip)]
    pub table_spec: Option<Result<referee_battle_gen::spec::UmpireSpec, String>>,
}

impl Facts {
    /// The facts `viewer` may draw from, worked out from the campaign as it stands.
    pub(crate) fn of(state: &State, viewer: &Viewer) -> Facts {
        let ops = state.ops.as_ref();
        let acting = ops.and_then(|o| o.active.as_ref()).filter(|a| may_order(viewer, &a.side)).map(|a| {
            let at = state.marker(&a.side, &a.leader).map(|p| p.at.clone());
            let zone = at.as_ref().and_then(|at| referee_campaign::belisarius::operations::zone_of(state, at));
            let city = zone.as_ref().and_then(|z| state.setup.map.zone(z)).map(|z| z.city.id.clone());
            let shut_in = at.as_ref().filter(|at| referee_campaign::belisarius::siege::is_besieged(state, at));
            Acting {
                leader: a.leader.clone(),
                declared_here: city.is_some() && ops.and_then(|o| o.declared.as_ref()) == city.as_ref(),
                loose: zone.as_ref().map(|z| referee_campaign::belisarius::operations::loose_units(state, &a.side, z)).unwrap_or_default(),
                garrison: shut_in
                    .map(|at| referee_campaign::belisarius::siege::units_at(state, &a.side, at).into_iter().map(|n| n.unit).collect())
                    .unwrap_or_default(),
                ship_at: at
                    .as_ref()
                    .filter(|at| matches!(at, Location::Aboard(_)))
                    .map(|at| referee_campaign::belisarius::naval::whereabouts(state, at)),
                at,
            }
        });
        let battle = ops.and_then(|o| o.battle.as_ref());
        let retreats = battle
            .and_then(|b| match &b.step {
                referee_campaign::belisarius::battle::Step::Retreat { side } if may_order(viewer, side) => {
                    Some(referee_campaign::belisarius::battle::retreats(state, b, side))
                }
                _ => None,
            })
            .unwrap_or_default();
        Facts {
            acting,
            retreats,
            relief: relief(state, viewer),
            odds: battle.and_then(|b| odds::Start::of(state, b)),
            battle_key: battle.map(|b| format!("{:?}/{}/{:?}/{:?}", b.zone, b.passage, b.stage, b.step)),
            table_spec: None,
        }
    }

    /// [`Facts::of`], with the battle at the table's spec for the referee's result form,
    /// numbered and converted (by `conv`, the table kept with its pack) as its pack is.
    pub(crate) fn with_table(
        state: &State,
        viewer: &Viewer,
        elements: &referee_campaign::magna_graecia::army::ElementTable,
        conv: &referee_battle_gen::belisarius::Conversion,
        events: &[referee_campaign::belisarius::event::Logged],
    ) -> Facts {
        let mut facts = Facts::of(state, viewer);
        let at_table = state.ops.as_ref().and_then(|o| o.battle.as_ref()).is_some_and(|b| b.at_table);
        if *viewer == Viewer::Umpire && at_table {
            let number = referee_battle_gen::belisarius::battle_number(events);
            facts.table_spec = Some(referee_battle_gen::belisarius::table_spec(state, elements, conv, number).map_err(|e| e.to_string()));
        }
        facts
    }

    /// Where `side` may retreat from the battle at the table, for the referee's result form
    /// (BE-22): worked out on the spot, since the form picks the side.
    pub(crate) fn table_retreats(state: &State, side: &SideId) -> Vec<(Location, Result<(), RetreatBarred>)> {
        state
            .ops
            .as_ref()
            .and_then(|o| o.battle.as_ref())
            .map(|b| referee_campaign::belisarius::battle::retreats(state, b, side))
            .unwrap_or_default()
    }
}

/// The besiegers who may meet a relief at the contact open now, for a viewer who may order
/// the besieging side (BE-29).
fn relief(state: &State, viewer: &Viewer) -> Relief {
    let Some(c) = state.ops.as_ref().and_then(|o| o.contact.as_ref()) else { return Relief::default() };
    let Some((city, siege)) = referee_campaign::belisarius::siege::siege_in(state, &c.zone) else { return Relief::default() };
    let leaders = if may_order(viewer, &siege.besieger) {
        referee_campaign::belisarius::siege::besieging_leaders(state, siege)
            .into_iter()
            .map(|l| {
                let name = referee_campaign::belisarius::state::piece_name(&state.setup, &l);
                (l, name)
            })
            .collect()
    } else {
        Vec::new()
    };
    Relief { city: Some(city.clone()), besieger: Some(siege.besieger.clone()), leaders }
}
