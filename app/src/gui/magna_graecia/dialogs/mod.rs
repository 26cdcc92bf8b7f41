//! The dialogs a referee opens over the map, one module each: the battle result form, the
//! exchange and garrison dialogs, the losses a side chooses, and the end of the campaign.
//! The table and pack windows live in `table.rs` and `packs.rs`.
//!
//! The forms keep their entries in the app between frames and draw from the [`View`]; they
//! only push [`AppCommand`]s. The rules check every order again and refuse it in words.

use referee_campaign::magna_graecia::order::Order;
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::magna_graecia::view::View;

pub(crate) use crate::gui::magna_graecia::command::Dialog;
use crate::gui::magna_graecia::packs::PackForm;
use crate::gui::magna_graecia::table::TableForm;
use crate::gui::widgets::packs::PackSettings;

mod battle;
mod end_campaign;
mod exchange;
mod losses;
pub(crate) mod shared;

use shared::*;

pub(crate) use battle::{BattleForm, BattleFormData, battle_form_ui};
pub(crate) use end_campaign::{EndForm, end_campaign_ui};
pub(crate) use exchange::{ExchangeForm, GarrisonForm, exchange_ui, garrison_ui};
pub(crate) use losses::{LossesForm, naval_losses_ui, siege_losses_ui};

/// The open dialog with its entries, kept between frames.
#[derive(Debug, Clone)]
pub(crate) enum DialogForm {
    Battle(BattleForm),
    Exchange(ExchangeForm),
    Garrison(GarrisonForm),
    EndCampaign(EndForm),
    Table(TableForm),
    Pack(PackForm),
}

impl DialogForm {
    /// The form for `dialog`, filled from what the viewer sees; `None` when the view has
    /// nothing to fill it with (a battle gone, a counter the viewer does not own). A pack
    /// window opens with the last pack settings.
    pub fn new(dialog: &Dialog, view: &View, pack: &PackSettings) -> Option<DialogForm> {
        match dialog {
            Dialog::BattleResult(id) => {
                let View::Umpire(_) = view else { return None };
                let battle = view.board().battles.iter().find(|b| b.id == *id)?;
                Some(DialogForm::Battle(BattleForm::new(view, battle)))
            }
            Dialog::Exchange(c) => {
                roster_of(view, c)?;
                Some(DialogForm::Exchange(ExchangeForm::new(c.clone())))
            }
            Dialog::Garrison(c) => {
                roster_of(view, c)?;
                Some(DialogForm::Garrison(GarrisonForm::new(c.clone())))
            }
            Dialog::EndCampaign => {
                let View::Umpire(_) = view else { return None };
                matches!(view.board().phase, Phase::Movement | Phase::Combat | Phase::PostCombat)
                    .then(|| DialogForm::EndCampaign(EndForm::default()))
            }
            Dialog::SetTable(id) => {
                let View::Umpire(_) = view else { return None };
                let battle = view.board().battles.iter().find(|b| b.id == *id)?;
                Some(DialogForm::Table(TableForm::new(battle)))
            }
            Dialog::BattlePack(id) => {
                let View::Umpire(_) = view else { return None };
                let battles = &view.board().battles;
                let known = match id {
                    Some(id) => battles.iter().any(|b| b.id == *id),
                    None => !battles.is_empty(),
                };
                known.then(|| DialogForm::Pack(PackForm::new(*id, pack.clone())))
            }
        }
    }

    /// Whether a command the rules just took was this form's, so the form is done.
    pub fn done_by(&self, command: &Order) -> bool {
        matches!(
            (self, command),
            (DialogForm::Battle(_), Order::RecordBattleResult { .. })
                | (DialogForm::Exchange(_), Order::Exchange { .. })
                | (DialogForm::Garrison(_), Order::Garrison { .. })
                | (DialogForm::EndCampaign(_), Order::EndCampaign { .. })
                | (DialogForm::Table(_), Order::SetUpTable { .. })
        )
    }
}
