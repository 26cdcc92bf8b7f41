//! Raw shapes of `belisarius/tables.toml`: the tables the Belisarius rules use but do not
//! print, as the project reconstructs them. Every section carries a title, whether it is a
//! reconstruction, and the reasoning behind its numbers, because referees are shown that
//! reasoning and may type in the printed originals instead.
//!
//! Only field names and types are checked here; row lengths, result codes and the set of
//! actions and events are checked by `referee-campaign` (`belisarius::tables`).

use serde::Deserialize;
use toml::Spanned;

use crate::raw::Versioned;

/// The whole file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTables {
    pub version: Spanned<u32>,
    pub chits: RawChits,
    pub costs: RawCosts,
    pub attrition: RawAttrition,
    pub interception: RawInterception,
    pub combat: RawCombat,
    pub pursuit: RawPursuit,
    pub assault: RawAssault,
    #[serde(rename = "naval-attrition")]
    pub naval_attrition: RawNavalAttrition,
    #[serde(rename = "naval-combat")]
    pub naval_combat: RawNavalCombat,
    pub events: RawEvents,
    pub morale: RawMorale,
    #[serde(rename = "reinforcement-prices")]
    pub reinforcement_prices: RawReinforcementPrices,
}

impl Versioned for RawTables {
    fn version(&self) -> &Spanned<u32> {
        &self.version
    }
}

/// A row of a grid read by a die: the die value it starts at and one cell per column.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDieRow<T> {
    pub die: Spanned<i32>,
    pub results: Spanned<Vec<Spanned<T>>>,
}

/// `[chits]`: the action point markers and the stratagems mixed in with them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawChits {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    #[serde(rename = "chit")]
    pub chits: Vec<RawChit>,
    #[serde(rename = "stratagem")]
    pub stratagems: Vec<RawStratagem>,
}

/// One action point chit: the same counter is worth different points to each side.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawChit {
    pub id: Spanned<String>,
    pub byzantine: Spanned<u8>,
    pub barbarian: Spanned<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStratagem {
    pub id: Spanned<String>,
    pub name: String,
    #[serde(default)]
    pub summary: String,
}

/// `[costs]`: action point cost of every action the program knows.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCosts {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    #[serde(rename = "action")]
    pub actions: Vec<RawCost>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCost {
    pub id: Spanned<String>,
    pub ap: Spanned<u8>,
    /// True when the rules text states this cost; false for the project's reconstruction.
    #[serde(default)]
    pub printed: bool,
    pub reason: String,
}

/// `[attrition]`: percentage lost by zones moved and d6, plus the unsupplied row.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttrition {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    /// Die value of each column.
    pub dice: Spanned<Vec<i32>>,
    pub rows: Vec<RawAttritionRow>,
    /// Used in the supply phase, in sieges and on entering a scorched zone unsupplied.
    pub unsupplied: Spanned<Vec<Spanned<u8>>>,
    #[serde(rename = "modifier", default)]
    pub modifiers: Vec<RawAttritionModifier>,
}

/// A row read by the zones moved: the first number of zones it covers and its cells.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttritionRow {
    pub zones: Spanned<u32>,
    pub percent: Spanned<Vec<Spanned<u8>>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttritionModifier {
    pub id: Spanned<String>,
    /// Added to the die; higher is worse.
    pub die: i8,
    /// Which attrition rolls it applies to: `movement`, `supply`, `siege`.
    pub applies: Vec<Spanned<String>>,
    pub reason: String,
}

/// `[interception]`: strategic difference columns × d6 rows → `F`, `L` or `A`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInterception {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    pub differences: Spanned<Vec<i32>>,
    pub rows: Vec<RawDieRow<String>>,
}

/// `[combat]`: total factor columns × modified d6 rows → result codes like `25T1`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCombat {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    pub factors: Spanned<Vec<i32>>,
    pub rows: Vec<RawDieRow<String>>,
}

/// `[pursuit]`: which table pursuit is read on.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPursuit {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    /// Only `combat` is understood.
    pub uses: Spanned<String>,
}

/// `[assault]`: ratio rows × modified 2d6 columns → `a/d` or `a/F`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAssault {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    pub rolls: Spanned<Vec<i32>>,
    pub rows: Vec<RawRatioRow>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRatioRow {
    /// `[attacker, defender]`: the least ratio the row covers.
    pub ratio: Spanned<[u32; 2]>,
    pub results: Spanned<Vec<Spanned<String>>>,
}

/// `[naval-attrition]`: sea zones moved rows × d6 columns → `-`, `1NP`, `25`, `50`, `X`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNavalAttrition {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    pub dice: Spanned<Vec<i32>>,
    pub rows: Vec<RawNavalAttritionRow>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNavalAttritionRow {
    pub zones: Spanned<u32>,
    pub results: Spanned<Vec<Spanned<String>>>,
}

/// `[naval-combat]`: strength difference columns × modified d6 rows → naval points lost.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNavalCombat {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    pub differences: Spanned<Vec<i32>>,
    pub rows: Vec<RawNavalCombatRow>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNavalCombatRow {
    pub die: Spanned<i32>,
    pub lost: Spanned<Vec<Spanned<u8>>>,
}

/// `[events]`: which 2d6 total (and second d6) gives which event, and the events.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvents {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    #[serde(rename = "roll")]
    pub rolls: Vec<RawEventRoll>,
    #[serde(rename = "event")]
    pub events: Vec<RawEvent>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEventRoll {
    pub total: Spanned<u8>,
    /// One letter, or six read by a second d6.
    pub events: Spanned<Vec<Spanned<String>>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    pub letter: Spanned<String>,
    pub name: String,
    /// Red events happen once a campaign.
    pub red: bool,
    pub effect: String,
}

/// `[morale]`: 2d6 target by morale letter.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMorale {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    pub targets: Spanned<std::collections::BTreeMap<String, u8>>,
}

/// `[reinforcement-prices]`: what the Ostrogoths pay per unit, in half-points.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReinforcementPrices {
    pub title: Spanned<String>,
    pub reconstructed: bool,
    pub reasoning: String,
    #[serde(rename = "price")]
    pub prices: Vec<RawPrice>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPrice {
    pub unit: Spanned<String>,
    pub half_points: Spanned<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DataSource;

    #[test]
    fn the_built_in_tables_parse() {
        let text = DataSource::Embedded.read("belisarius/tables.toml").unwrap();
        let raw: RawTables = crate::parse(&text).unwrap();
        assert_eq!(raw.chits.chits.len(), 10);
        assert!(raw.chits.reconstructed);
    }
}
