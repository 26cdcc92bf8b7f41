//! The data tables a battle's hex pack is counted by: read from the referee's data folder
//! when the pack is written, kept with the battle in the campaign's file, and read back from
//! there when its result comes in, so that the result is counted by the counters the pack
//! printed whatever the data folder holds by then.

use std::sync::Arc;

use anyhow::anyhow;
use referee_battle_gen::belisarius::{CONVERSION_FILE, Conversion};
use referee_battle_gen::hexunits::HexUnits;
use referee_battle_gen::pack::PackOptions;
use referee_campaign::store::KeptTable;
use referee_campaign::{CampaignId, Store};
use referee_data::DataSource;

/// The tables of a pack about to be written: `options` takes the data folder's hex table for
/// a hex wargame, and the tables to keep with the battle are returned (none for DBM and DBSA).
/// A Belisarius pack's `conversion` is kept beside it, since its result is read back by it too.
pub fn for_pack(options: &mut PackOptions, data: &DataSource, conversion: Option<&Conversion>) -> anyhow::Result<Vec<KeptTable>> {
    if options.system.hex().is_none() {
        return Ok(Vec::new());
    }
    options.hex_units = Some(Arc::new(HexUnits::load(data).map_err(|e| anyhow!("{e}"))?));
    let mut kept = options.kept_tables();
    if let Some(conv) = conversion {
        kept.push(KeptTable { path: CONVERSION_FILE.to_owned(), text: conv.text.clone() });
    }
    Ok(kept)
}

/// Keeps `tables` with battle `number`, when there are any.
pub fn keep(store: &mut Store, id: CampaignId, number: u32, tables: &[KeptTable]) -> anyhow::Result<()> {
    if !tables.is_empty() {
        store.keep_battle_tables(id, number, tables)?;
    }
    Ok(())
}

/// The tables battle `number`'s result is read back by: its hex table (the built-in one for a
/// battle whose pack kept none), and the Belisarius conversion it kept, if it kept one.
pub fn kept(store: &Store, id: CampaignId, number: u32) -> anyhow::Result<(HexUnits, Option<Conversion>)> {
    let tables = store.battle_tables(id, number)?;
    let hex = HexUnits::kept(&tables, number).map_err(|e| anyhow!("{e}"))?;
    let conv = Conversion::kept(&tables, number).transpose().map_err(|e| anyhow!("{e}"))?;
    Ok((hex, conv))
}
