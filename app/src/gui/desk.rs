//! The campaign on screen, of either engine: the one place that knows both desks. The shell
//! asks it to open or start a campaign, to show a scenario's map in the picker and to hand
//! an engine's command to its desk; everything else it asks through [`CampaignDesk`].

use referee_campaign::belisarius::World;
use referee_campaign::core::engine::EngineId;
use referee_campaign::core::viewer::Viewer;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::store::Store;

use crate::gui::belisarius::{self, BelisariusDesk};
use crate::gui::engine::{CampaignDesk, DeskContext, Reply};
use crate::gui::magna_graecia::{self, MagnaGraeciaDesk};
use crate::gui::shell::command::DeskCommand;
use crate::gui::shell::picker::ScenarioChoice;

/// The campaign on screen: a Magna Graecia or a Belisarius desk. Boxed, so that switching
/// costs a pointer.
#[derive(Debug)]
pub(crate) enum Desk {
    MagnaGraecia(Box<MagnaGraeciaDesk>),
    Belisarius(Box<BelisariusDesk>),
}

impl Desk {
    pub fn get(&self) -> &dyn CampaignDesk {
        match self {
            Desk::MagnaGraecia(d) => d.as_ref(),
            Desk::Belisarius(d) => d.as_ref(),
        }
    }

    pub fn get_mut(&mut self) -> &mut dyn CampaignDesk {
        match self {
            Desk::MagnaGraecia(d) => d.as_mut(),
            Desk::Belisarius(d) => d.as_mut(),
        }
    }

    /// The campaign `key` (name or id) from the store, on the desk of its engine, as the
    /// umpire sees it.
    pub fn open(store: &Store, catalog: &Catalog, key: &str) -> anyhow::Result<Desk> {
        match store.find(key).and_then(|id| store.engine_of(id))? {
            EngineId::Belisarius => BelisariusDesk::open(store, key, Viewer::Umpire, catalog.elements.clone()).map(Desk::from),
            EngineId::MagnaGraecia => MagnaGraeciaDesk::open(store, catalog, key, Viewer::Umpire).map(Desk::from),
        }
    }

    /// Starts a campaign named `name` from scenario `scenario`, of whichever engine has it,
    /// on its desk; with the scenario's name.
    pub fn create(
        store: &mut Store,
        catalog: &Catalog,
        world: Option<&World>,
        scenario: &str,
        name: &str,
        seed: u64,
    ) -> anyhow::Result<(Desk, String)> {
        if !catalog.scenarios.iter().any(|s| s.id == scenario)
            && let Some(world) = world
        {
            let (desk, from) = BelisariusDesk::create(store, world, catalog.elements.clone(), scenario, name, seed)?;
            return Ok((desk.into(), from));
        }
        let (desk, from) = MagnaGraeciaDesk::create(store, catalog, scenario, name, seed)?;
        Ok((desk.into(), from))
    }

    /// Applies an engine's command, if it is this desk's engine's; `None` when it is not.
    pub fn apply(&mut self, command: DeskCommand, cx: &mut DeskContext<'_>) -> Option<Reply> {
        match (self, command) {
            (Desk::MagnaGraecia(desk), DeskCommand::MagnaGraecia(command)) => Some(desk.apply(command, cx)),
            (Desk::Belisarius(desk), DeskCommand::Belisarius(command)) => Some(desk.apply(command, cx)),
            _ => None,
        }
    }

    /// The Magna Graecia desk, if that is what is open: for the app's questions from tests.
    pub fn magna_graecia(&self) -> Option<&MagnaGraeciaDesk> {
        match self {
            Desk::MagnaGraecia(d) => Some(d),
            Desk::Belisarius(_) => None,
        }
    }

    /// The Belisarius desk, if that is what is open: for the app's questions from tests.
    pub fn belisarius(&self) -> Option<&BelisariusDesk> {
        match self {
            Desk::Belisarius(d) => Some(d),
            Desk::MagnaGraecia(_) => None,
        }
    }
}

impl From<MagnaGraeciaDesk> for Desk {
    fn from(desk: MagnaGraeciaDesk) -> Desk {
        Desk::MagnaGraecia(Box::new(desk))
    }
}

impl From<BelisariusDesk> for Desk {
    fn from(desk: BelisariusDesk) -> Desk {
        Desk::Belisarius(Box::new(desk))
    }
}

/// Every scenario the picker offers: Magna Graecia's, then those of `world`, Belisarius's.
pub(crate) fn scenario_choices(catalog: &Catalog, world: Option<&World>) -> Vec<ScenarioChoice> {
    let mg = catalog.scenarios.iter().map(|s| ScenarioChoice {
        campaign: EngineId::MagnaGraecia,
        id: s.id.clone(),
        name: s.name.clone(),
        period: s.period.clone(),
        summary: s.summary.clone(),
        turns: s.turns,
        sides: s.sides.iter().map(|x| x.name.clone()).collect(),
    });
    let be = world.into_iter().flat_map(|w| &w.scenarios).map(|s| ScenarioChoice {
        campaign: EngineId::Belisarius,
        id: s.id.clone(),
        name: s.name.clone(),
        period: s.period(),
        summary: s.summary.clone(),
        turns: s.turns,
        sides: s.sides.iter().map(|x| x.name.clone()).collect(),
    });
    mg.chain(be).collect()
}

/// The picker's map of the chosen scenario at its start, drawn by its engine.
#[derive(Debug, Default)]
pub(crate) struct Previews {
    magna_graecia: magna_graecia::Preview,
    belisarius: belisarius::Preview,
}

impl Previews {
    /// Draws `choice` at its start beside the picker (an empty panel for no choice).
    pub fn ui(&mut self, ui: &mut egui::Ui, choice: Option<&ScenarioChoice>, catalog: &Catalog, world: Option<&World>) {
        match choice {
            Some(c) => match c.campaign {
                EngineId::MagnaGraecia => self.magna_graecia.ui(ui, catalog, Some(c.id.as_str())),
                EngineId::Belisarius => self.belisarius.ui(ui, world, &c.id),
            },
            // Nothing chosen: an empty panel, as either engine draws it.
            None => self.magna_graecia.ui(ui, catalog, None),
        }
    }
}
