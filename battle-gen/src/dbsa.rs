//! DS-01…DS-06: turning a side's campaign commands into De Bellis Societatis Antiquorum
//! (DBSA) armies for the tabletop, and the DBSA facts a player needs on the roster sheet:
//! troop types, moves, combat factors, outcomes, set-up and how the game is lost.
//!
//! The campaign keeps DBM-style elements (class, one of seventeen type codes, grade). DBSA
//! knows ten troop types and no grades, and a normal DBSA game is fought with a dozen
//! elements a side, so a converted army is usually a scaled-down picture of the real one.
//! [`convert`] does the scaling of one side under the referee's [`Scaling`] policy and records
//! in [`Account`]s where every campaign element went. By default the whole battle is scaled by
//! one factor, so the table keeps the campaign's odds; that factor needs every side's
//! strength, so [`convert_battle`] works it out on the umpire's side, and [`odds`] checks how
//! far any scaling moved the odds between the sides.
//!
//! Distances in the rules are in paces; [`FigureScale`] turns them into inches and
//! centimetres for the table.

use std::fmt;

use crate::spec::TroopLine;
use serde::{Deserialize, Serialize};

/// The usual size of a DBSA army, in elements, and the default of the scaled policies.
pub const STANDARD_ARMY: u32 = 12;

/// DS-06: elements a side of the usual twelve may lose before the game is lost (along with
/// its general or camp).
pub const LOSING_ELEMENTS: u32 = 4;

/// DS-06 for an army of `size` elements: the elements whose loss loses the game. The rules
/// give 4 for the usual army of 12, a third of it; an army scaled to another size keeps that
/// third (to the nearest element, halves up, at least one), so that at 12 against 5 each
/// side breaks at the same share of its strength and the table keeps the campaign's odds to
/// the end of the game, not only at its start.
pub fn break_point(size: u32) -> u32 {
    (size.saturating_mul(2).saturating_add(3) / 6).max(1)
}

/// The break-point rule in words, with why, for the umpire's sheet and the briefs.
pub fn break_point_rule() -> String {
    format!(
        "Break point (DS-06, scaled): an army is lost with its general, its camp or a third of its elements (to the nearest, at least \
         one) — {LOSING_ELEMENTS} of the usual {STANDARD_ARMY}. An army of another size keeps the same third, so that each side breaks at \
         the same share of its strength and the break point favours neither."
    )
}

/// DS-01: how far from its base edge the first side to deploy may set up, in paces.
pub const DEPLOYMENT_PACES: u32 = 600;

/// DS-02: paces each unused PIP adds to a road move that includes the general.
pub const ROAD_BONUS_PER_PIP: u32 = 200;

/// The ten troop types of DBSA.
///
/// The declaration order (elephants first, shooters last) is the order armies are listed in
/// and the last tie-break of the apportionment in [`convert`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DbsaType {
    Elephants,
    Knights,
    Cavalry,
    LightHorse,
    Spears,
    Pikes,
    Blades,
    Auxilia,
    Warband,
    Shooters,
}

/// A campaign element whose type code the converter does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{spec}: `{code}` is not a DBM element type the DBSA conversion knows (El Kn Cv LH Cm LCh HCh Exp Art Sp Pk Bd Ax Bw Wb Hd Ps)")]
pub struct UnknownElement {
    /// The element as written, e.g. `Reg Zz(O)`.
    pub spec: String,
    pub code: String,
}

impl DbsaType {
    /// Every type, in declaration order.
    pub const ALL: [DbsaType; 10] = [
        DbsaType::Elephants,
        DbsaType::Knights,
        DbsaType::Cavalry,
        DbsaType::LightHorse,
        DbsaType::Spears,
        DbsaType::Pikes,
        DbsaType::Blades,
        DbsaType::Auxilia,
        DbsaType::Warband,
        DbsaType::Shooters,
    ];

    /// What [`convert`] puts on the sheet for an element whose code it does not know.
    ///
    /// Auxilia, because they are the most middling troops DBSA has: foot, so they never get a
    /// horseman's speed by mistake; mid-table factors (+3 against foot, +2 against mounted);
    /// and the same move in any going. Such an element is flagged `guessed` in its
    /// [`Account`] and named in the army's warnings, so the referee can correct the sheet.
    pub const FALLBACK: DbsaType = DbsaType::Auxilia;

    pub fn name(self) -> &'static str {
        match self {
            DbsaType::Elephants => "Elephants",
            DbsaType::Knights => "Knights",
            DbsaType::Cavalry => "Cavalry",
            DbsaType::LightHorse => "Light Horse",
            DbsaType::Spears => "Spears",
            DbsaType::Pikes => "Pikes",
            DbsaType::Blades => "Blades",
            DbsaType::Auxilia => "Auxilia",
            DbsaType::Warband => "Warband",
            DbsaType::Shooters => "Shooters",
        }
    }

    /// A short form for tight columns: `El`, `Kn`, `Cv`, `LH`, `Sp`, `Pk`, `Bd`, `Ax`, `Wb`, `Sh`.
    pub fn abbrev(self) -> &'static str {
        match self {
            DbsaType::Elephants => "El",
            DbsaType::Knights => "Kn",
            DbsaType::Cavalry => "Cv",
            DbsaType::LightHorse => "LH",
            DbsaType::Spears => "Sp",
            DbsaType::Pikes => "Pk",
            DbsaType::Blades => "Bd",
            DbsaType::Auxilia => "Ax",
            DbsaType::Warband => "Wb",
            DbsaType::Shooters => "Sh",
        }
    }

    /// Elephants, knights, cavalry and light horse are mounted; the other six are foot. The
    /// rules treat elephants as mounted: their move in bad going and the "other mounted"
    /// outcome line only read sensibly that way.
    pub fn is_mounted(self) -> bool {
        matches!(self, DbsaType::Elephants | DbsaType::Knights | DbsaType::Cavalry | DbsaType::LightHorse)
    }

    /// DS-04: what the element adds to its die against an enemy element that is foot.
    pub fn combat_factor_vs_foot(self) -> u8 {
        match self {
            DbsaType::Blades => 5,
            DbsaType::Elephants | DbsaType::Spears => 4,
            DbsaType::Knights | DbsaType::Pikes | DbsaType::Cavalry | DbsaType::Warband | DbsaType::Auxilia => 3,
            DbsaType::LightHorse | DbsaType::Shooters => 2,
        }
    }

    /// DS-04: what the element adds to its die against an enemy element that is mounted.
    pub fn combat_factor_vs_mounted(self) -> u8 {
        match self {
            DbsaType::Elephants => 5,
            DbsaType::Spears | DbsaType::Knights | DbsaType::Pikes => 4,
            DbsaType::Blades | DbsaType::Cavalry | DbsaType::Warband => 3,
            DbsaType::Auxilia | DbsaType::LightHorse | DbsaType::Shooters => 2,
        }
    }

    /// DS-04: the factor against `enemy`, whichever it is.
    pub fn combat_factor_against(self, enemy: DbsaType) -> u8 {
        if enemy.is_mounted() { self.combat_factor_vs_mounted() } else { self.combat_factor_vs_foot() }
    }

    /// DS-03: the furthest the element may go in one tactical move, in paces.
    ///
    /// `road` means the whole move is along a road, which caps every type at 400p whatever the
    /// going (`good_going` is then ignored). Off road, auxilia and shooters keep their 300p in
    /// bad going too; other foot always have 200p; mounted drop to 200p in bad going.
    pub fn move_paces(self, good_going: bool, road: bool) -> u32 {
        if road {
            return 400;
        }
        match self {
            DbsaType::Auxilia | DbsaType::Shooters => 300,
            DbsaType::Spears | DbsaType::Pikes | DbsaType::Blades | DbsaType::Warband => 200,
            _ if !good_going => 200,
            DbsaType::LightHorse => 500,
            DbsaType::Cavalry => 400,
            DbsaType::Knights | DbsaType::Elephants => 300,
        }
    }

    /// The DBSA type of a DBM type code, or `None` for a code this converter does not know.
    ///
    /// - El → Elephants, Kn → Knights, Cv → Cavalry, LH → Light Horse, Sp → Spears, Pk → Pikes,
    ///   Bd → Blades, Ax → Auxilia, Wb → Warband: the same troops under the same name.
    /// - HCh → Knights: heavy four-horse chariots win by charging home and breaking the line,
    ///   as knights do, and are as helpless against skirmishers.
    /// - LCh → Cavalry: light chariots skirmish and charge at a horseman's speed; too solid for
    ///   light horse, without a knight's shock.
    /// - Cm → Cavalry: camelry fight formed like ordinary horse; DBSA has no camel type, and
    ///   light horse would overrate their speed.
    /// - Exp → Knights: scythed chariots and stampeding beasts are a one-shot mounted charge
    ///   that skirmishers and elephants dispose of, which is how the knights' outcome line
    ///   behaves; knights also move like a mounted mass, not like foot.
    /// - Art → Shooters: DBSA has no artillery; bolt-shooters and stone-throwers are troops
    ///   that fight by shooting.
    /// - Bw → Shooters: foot archers and crossbowmen are DBSA's shooters.
    /// - Ps → Shooters: skirmishing javelinmen and slingers; shooters are DBSA's only light
    ///   foot, keeping 300p in any going and passing through friends.
    /// - Hd → Warband: masses of ill-drilled foot; DBSA has no hordes, and warband is the
    ///   nearest type in speed (200p) and fighting value (+3 against both).
    ///
    /// Class (Reg/Irr) and grade are not looked at: DBSA has neither.
    pub fn from_code(code: &str) -> Option<DbsaType> {
        Some(match code {
            "El" => DbsaType::Elephants,
            "Kn" | "HCh" | "Exp" => DbsaType::Knights,
            "Cv" | "LCh" | "Cm" => DbsaType::Cavalry,
            "LH" => DbsaType::LightHorse,
            "Sp" => DbsaType::Spears,
            "Pk" => DbsaType::Pikes,
            "Bd" => DbsaType::Blades,
            "Ax" => DbsaType::Auxilia,
            "Wb" | "Hd" => DbsaType::Warband,
            "Bw" | "Ps" | "Art" => DbsaType::Shooters,
            _ => return None,
        })
    }

    /// The DBSA type of a kind written as the campaign writes it (`Reg Sp(O)`), by its type
    /// code as in [`DbsaType::from_code`]; an unknown code is an error, never a panic.
    /// [`convert`] turns the error into [`DbsaType::FALLBACK`] with a flag.
    pub fn from_kind(kind: &str) -> Result<DbsaType, UnknownElement> {
        let rest = kind.trim().split_once(' ').map_or(kind.trim(), |(_, r)| r.trim());
        let code = rest.split_once('(').map_or(rest, |(c, _)| c);
        DbsaType::from_code(code).ok_or_else(|| UnknownElement { spec: kind.to_owned(), code: code.to_owned() })
    }

    fn index(self) -> usize {
        DbsaType::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }
}

impl fmt::Display for DbsaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn standard_army() -> u32 {
    STANDARD_ARMY
}

/// How the referee turns the campaign's elements into DBSA armies.
///
/// The umpire picks a `Scaling` for the whole pack. What one side's conversion works from is
/// a [`SideScaling`], made by [`Scaling::for_side`]: under [`Scaling::PerBattle`] that needs
/// the [`BattleScale`], which only the umpire's side can work out, because it needs every
/// side's strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Scaling {
    /// The whole battle at one scale: the largest side in the battle becomes one DBSA army of
    /// `elements`, scaled down or up, and every other side one army scaled by the same
    /// factor, so the table keeps the campaign's odds as near as whole elements allow. See
    /// [`BattleScale`] for the rounding.
    PerBattle {
        #[serde(default = "standard_army")]
        elements: u32,
    },
    /// Each side is one DBSA army with one DBSA element for every campaign element.
    OneToOne,
    /// Each command fights as a DBSA army of its own, scaled down or up to `elements`.
    PerCommand {
        #[serde(default = "standard_army")]
        elements: u32,
    },
    /// All the side's commands in the battle make one DBSA army, scaled down or up to
    /// `elements`, whatever the other sides bring: the odds are lost.
    PerSide {
        #[serde(default = "standard_army")]
        elements: u32,
    },
}

impl Default for Scaling {
    /// The battle at one scale, its largest side a DBSA army of twelve: the ordinary DBSA game
    /// for the stronger player, and the campaign's odds for both.
    fn default() -> Self {
        Scaling::PerBattle { elements: STANDARD_ARMY }
    }
}

impl Scaling {
    /// A line for the UI and the umpire's sheet.
    pub fn label(self) -> String {
        match self {
            Scaling::PerBattle { elements } => {
                format!(
                    "the whole battle at one scale: the largest side one DBSA army of {elements} elements, every other side in proportion"
                )
            }
            Scaling::OneToOne => "one DBSA element per campaign element".to_owned(),
            Scaling::PerCommand { elements } => format!("each command a DBSA army of {elements} elements"),
            Scaling::PerSide { elements } => format!("each side one DBSA army of {elements} elements"),
        }
    }

    /// The battle's one factor, from the campaign strength (elements, generals included) of
    /// every side in it; `None` for the scalings that look at one side or command at a time.
    pub fn battle_scale(self, strengths: &[u32]) -> Option<BattleScale> {
        match self {
            Scaling::PerBattle { elements } => Some(BattleScale::new(elements, strengths)),
            Scaling::OneToOne | Scaling::PerCommand { .. } | Scaling::PerSide { .. } => None,
        }
    }

    /// What the conversion of one side with `campaign_elements` works from.
    ///
    /// Under [`Scaling::PerBattle`] the side gets only its own table size out of `scale`,
    /// never the factor or another side's strength. Without a `scale` the side is taken to be
    /// alone in the battle (so it is the largest side).
    pub fn for_side(self, scale: Option<&BattleScale>, campaign_elements: u32) -> SideScaling {
        match self {
            Scaling::PerBattle { elements } => {
                let scale = scale.copied().unwrap_or_else(|| BattleScale::new(elements, &[campaign_elements]));
                SideScaling::PerBattle { elements: scale.side_size(campaign_elements) }
            }
            Scaling::OneToOne => SideScaling::OneToOne,
            Scaling::PerCommand { elements } => SideScaling::PerCommand { elements },
            Scaling::PerSide { elements } => SideScaling::PerSide { elements },
        }
    }
}

impl fmt::Display for Scaling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// How one side's commands in a battle become DBSA armies: a [`Scaling`] brought down to
/// what that side may know (see [`Scaling::for_side`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SideScaling {
    /// One army of `elements`: the side's own share of a battle at one scale. The size is
    /// worked out on the umpire's side; nothing here says how it was.
    PerBattle { elements: u32 },
    /// One army, one DBSA element per campaign element.
    OneToOne,
    /// One army per command, each of up to `elements`.
    PerCommand { elements: u32 },
    /// One army of up to `elements`.
    PerSide { elements: u32 },
}

impl SideScaling {
    /// A line for the roster sheet. Under per-battle scaling it names neither the size the
    /// referee chose nor the factor: a side's copy must not help it work out the enemy's
    /// strength (see [`BattleScale`]).
    pub fn label(self) -> String {
        match self {
            SideScaling::PerBattle { .. } => {
                "one DBSA army a side, every side in the battle scaled by the same factor (the umpire's sheet says how near the table comes to \
                 the campaign's odds)"
                    .to_owned()
            }
            SideScaling::OneToOne => Scaling::OneToOne.label(),
            SideScaling::PerCommand { elements } => Scaling::PerCommand { elements }.label(),
            SideScaling::PerSide { elements } => Scaling::PerSide { elements }.label(),
        }
    }
}

impl fmt::Display for SideScaling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// The one factor of [`Scaling::PerBattle`]: `table` DBSA elements for every `campaign`
/// campaign elements, the same for every side in the battle.
///
/// `campaign` is the strength of the largest side (its elements, generals included) and
/// `table` the size the referee chose: a large battle is scaled down to it and a small one
/// up, so the larger army is always the DBSA game the referee asked for.
///
/// Rounding: a side of `c` campaign elements gets `c × table ÷ campaign` DBSA elements
/// rounded to the nearest whole element, halves up, but never fewer than one while it has
/// any, so no side vanishes from the table. The largest side gets exactly `table`. Within a side the elements are then shared out over its troop
/// types by largest remainder, as in every scaling ([`apportion`]).
///
/// Hidden information: the factor is built from every side's strength, so only the umpire's
/// side may compute it. Each side's roster is given its own table size alone
/// ([`Scaling::for_side`]); a side's copy prints its own army and neither this factor nor
/// the size the referee chose. What stays: a side that is not the largest knows its own
/// campaign strength and sees its own table size, so it can work out the factor to within
/// its rounding and, if it knows or guesses the size the referee chose, roughly how big the
/// largest side is. That is what the table shows anyway once the largest side deploys its
/// army opposite (keeping the odds on the table is the point); the pack only tells it
/// sooner, so the umpire hands the side copies out when the armies deploy, after the
/// defender has chosen its section, and the umpire's sheet says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct BattleScale {
    /// DBSA elements of the largest side.
    pub table: u32,
    /// Campaign elements of the largest side.
    pub campaign: u32,
}

impl BattleScale {
    /// The scale at which the largest of `strengths` becomes `size` DBSA elements (a size of
    /// 0 is read as 1), down or up.
    pub fn new(size: u32, strengths: &[u32]) -> BattleScale {
        let largest = strengths.iter().copied().max().unwrap_or(0);
        BattleScale { table: size.max(1), campaign: largest }
    }

    /// Nothing is scaled: one DBSA element for each campaign element.
    pub fn is_one_to_one(self) -> bool {
        self.table == self.campaign
    }

    /// DBSA elements for a side of `campaign_elements`, rounded as the type's doc says.
    pub fn side_size(self, campaign_elements: u32) -> u32 {
        if campaign_elements == 0 || self.campaign == 0 {
            return 0;
        }
        let (c, t, l) = (u64::from(campaign_elements), u64::from(self.table), u64::from(self.campaign));
        let nearest = (2 * c * t + l) / (2 * l);
        u32::try_from(nearest).unwrap_or(u32::MAX).max(1)
    }

    /// DBSA elements per campaign element (1.0 when nothing is scaled).
    pub fn factor(self) -> f32 {
        if self.campaign == 0 { 1.0 } else { to_f32(self.table) / to_f32(self.campaign) }
    }

    /// A line for the umpire's sheet.
    pub fn describe(self) -> String {
        if self.is_one_to_one() {
            format!("one DBSA element for each campaign element (the largest side has {} elements)", self.campaign)
        } else if self.table > self.campaign {
            format!(
                "{} DBSA elements for {} campaign elements, scaled up: {:.2} DBSA elements for each",
                self.table,
                self.campaign,
                to_f32(self.table) / to_f32(self.campaign)
            )
        } else {
            format!(
                "{} DBSA elements for {} campaign elements, one DBSA element for every {:.2}",
                self.table,
                self.campaign,
                to_f32(self.campaign) / to_f32(self.table)
            )
        }
    }
}

/// How far the odds between two sides (or groups of sides) may move from the campaign's to
/// the table's before the umpire's sheet warns, in per cent.
pub const ODDS_TOLERANCE_PERCENT: u32 = 10;

/// One side's strength in a battle: in the campaign, and on the table after scaling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Strength {
    pub name: String,
    /// On the attacking side of the battle (the attacker or a friend of it).
    pub attacker: bool,
    /// Campaign elements, generals included.
    pub campaign: u32,
    /// DBSA elements in all its armies.
    pub table: u32,
}

/// The odds between two sides, or between the attackers and the defenders, in the campaign
/// and on the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    pub first: String,
    pub second: String,
    /// Campaign elements of each.
    pub campaign: (u32, u32),
    /// DBSA elements of each.
    pub table: (u32, u32),
    /// How much the scaling moved the ratio, in per cent: the larger of the two ratios (table
    /// over campaign, taken whichever way round is at least one) less one. The same figure
    /// whichever side is named first.
    pub moved_percent: f32,
    /// Moved by more than [`ODDS_TOLERANCE_PERCENT`].
    pub warn: bool,
}

impl Odds {
    fn between(first: String, second: String, campaign: (u32, u32), table: (u32, u32)) -> Option<Odds> {
        if campaign.0 == 0 || campaign.1 == 0 || table.0 == 0 || table.1 == 0 {
            return None;
        }
        // table.0 / table.1 against campaign.0 / campaign.1, cross-multiplied to stay exact.
        let a = u64::from(table.0) * u64::from(campaign.1);
        let b = u64::from(table.1) * u64::from(campaign.0);
        let (hi, lo) = (a.max(b), a.min(b));
        let warn = hi * 100 > lo * u64::from(100 + ODDS_TOLERANCE_PERCENT);
        let moved_percent = (u64_to_f32(hi) / u64_to_f32(lo) - 1.0) * 100.0;
        Some(Odds { first, second, campaign, table, moved_percent, warn })
    }

    /// `20 : 50 (1 : 2.50)`, the first side counted as one.
    fn ratio(pair: (u32, u32)) -> String {
        format!("{} : {} (1 : {:.2})", pair.0, pair.1, to_f32(pair.1) / to_f32(pair.0))
    }

    /// A line for the umpire's sheet.
    pub fn describe(&self) -> String {
        format!(
            "{} to {}: {} in the campaign, {} on the table.",
            self.first,
            self.second,
            Odds::ratio(self.campaign),
            Odds::ratio(self.table)
        )
    }

    /// The warning line, when the scaling moved the odds too far.
    pub fn warning(&self) -> Option<String> {
        self.warn.then(|| {
            format!(
                "the scaling moves the odds between {} and {} by {:.0} % (more than {ODDS_TOLERANCE_PERCENT} %): the table does not show the campaign's odds.",
                self.first, self.second, self.moved_percent
            )
        })
    }
}

fn u64_to_f32(n: u64) -> f32 {
    let hi = u32::try_from(n >> 32).unwrap_or(u32::MAX);
    let lo = u32::try_from(n & 0xFFFF_FFFF).unwrap_or(u32::MAX);
    to_f32(hi) * 4_294_967_296.0 + to_f32(lo)
}

/// The odds the umpire's sheet checks: between every two sides, and between all the
/// attackers and all the defenders when either has more than one side.
pub fn odds(strengths: &[Strength]) -> Vec<Odds> {
    let mut out = Vec::new();
    for (i, a) in strengths.iter().enumerate() {
        for b in &strengths[i + 1..] {
            out.extend(Odds::between(a.name.clone(), b.name.clone(), (a.campaign, b.campaign), (a.table, b.table)));
        }
    }
    let (attackers, defenders): (Vec<&Strength>, Vec<&Strength>) = strengths.iter().partition(|s| s.attacker);
    if (attackers.len() > 1 || defenders.len() > 1) && !attackers.is_empty() && !defenders.is_empty() {
        let names = |g: &[&Strength]| g.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(" and ");
        let sum = |g: &[&Strength], f: fn(&Strength) -> u32| g.iter().map(|s| f(s)).sum::<u32>();
        out.extend(Odds::between(
            format!("the attackers ({})", names(&attackers)),
            format!("the defenders ({})", names(&defenders)),
            (sum(&attackers, |s| s.campaign), sum(&defenders, |s| s.campaign)),
            (sum(&attackers, |s| s.table), sum(&defenders, |s| s.table)),
        ));
    }
    out
}

/// Where one campaign element group, or one general's own element, went in a DBSA army.
///
/// A DBSA type's elements stand for all the campaign elements of that type in the army
/// alike, so a group's share is `campaign_elements × type_dbsa ÷ type_campaign`; it is
/// kept exactly in those three integers and, for convenience, as `share`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Account {
    /// The campaign command the elements belong to.
    pub command: String,
    /// The group as the campaign writes it (`4 Reg Sp(O)`), or `general Reg Cv(O)`.
    pub source: String,
    /// This is a command's general's own element.
    pub general: bool,
    /// Campaign elements in the group (1 for a general).
    pub campaign_elements: u32,
    /// The DBSA type they became.
    pub dbsa: DbsaType,
    /// The code was unknown and [`DbsaType::FALLBACK`] was used.
    pub guessed: bool,
    /// DBSA elements of `dbsa` in the army.
    pub type_dbsa: u32,
    /// Campaign elements of all groups that became `dbsa` in the army.
    pub type_campaign: u32,
    /// DBSA elements this group is represented by (may be fractional).
    pub share: f32,
}

/// One DBSA army for the roster sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DbsaArmy {
    /// The side, or `side: command` under [`Scaling::PerCommand`].
    pub name: String,
    /// The type of the element the general stands with (DS-06: losing it loses the game).
    pub general: DbsaType,
    /// Which campaign general leads, e.g. `Himilco (C-in-C), Reg Cv(O)`.
    pub general_from: String,
    /// DBSA elements by type, in [`DbsaType::ALL`] order, types with none left out. The
    /// general's element is counted here.
    pub elements: Vec<(DbsaType, u32)>,
    /// DS-06: every DBSA army has a camp, always true.
    pub camp: bool,
    /// The size the policy asked for (the campaign total under [`Scaling::OneToOne`]).
    pub requested: u32,
    /// Campaign elements converted, generals included.
    pub campaign_elements: u32,
    /// DBSA elements in the army: `requested`, down or up from `campaign_elements`.
    pub size: u32,
    /// DS-06, scaled: elements whose loss loses the game ([`break_point`]).
    pub break_point: u32,
    /// A sentence on how many campaign elements each DBSA element stands for.
    pub ratio: String,
    pub accounts: Vec<Account>,
    /// Things the referee should look at: unknown codes, types left out for lack of room.
    pub warnings: Vec<String>,
}

impl DbsaArmy {
    /// DBSA elements of `t` in the army.
    pub fn count(&self, t: DbsaType) -> u32 {
        self.elements.iter().filter(|(u, _)| *u == t).map(|(_, n)| n).sum()
    }
}

/// Converts the commands of one side that are in a battle into DBSA armies, each
/// [`TroopLine`] one command, its kinds written as the campaign writes them (`Reg Sp(O)`).
///
/// - [`SideScaling::OneToOne`], [`SideScaling::PerSide`] and [`SideScaling::PerBattle`] give
///   one army (none if `commands` is empty), named `side_name`. Its general is the general of
///   the highest-ranked command (C-in-C, then sub-general, then ally-general; the first
///   listed on a tie), so normally the C-in-C's element type; the other generals' elements
///   become ordinary elements.
/// - [`SideScaling::PerCommand`] gives one army per command, named `side_name: command`, led
///   by that command's general.
///
/// The size of an army is the requested size, scaled down or up from the campaign elements
/// it is made from, and never less than one. A requested size of 0 is read as 1. The size is shared out over the DBSA types present by [`apportion`]; the
/// general's element always counts as one of them.
pub fn convert(side_name: &str, commands: &[TroopLine], scaling: SideScaling) -> Vec<DbsaArmy> {
    match scaling {
        SideScaling::OneToOne => build(side_name.to_owned(), commands, None, false).into_iter().collect(),
        SideScaling::PerSide { elements } => build(side_name.to_owned(), commands, Some(elements), false).into_iter().collect(),
        SideScaling::PerBattle { elements } => build(side_name.to_owned(), commands, Some(elements), true).into_iter().collect(),
        SideScaling::PerCommand { elements } => commands
            .iter()
            .filter_map(|c| build(format!("{side_name}: {}", c.name), std::slice::from_ref(c), Some(elements), false))
            .collect(),
    }
}

/// One side of a battle in [`convert_battle`], its forces as troop lines.
#[derive(Debug, Clone, Copy)]
pub struct BattleSide<'a> {
    pub name: &'a str,
    /// On the attacking side (the attacker or a friend of it).
    pub attacker: bool,
    pub commands: &'a [TroopLine],
}

/// One side of a battle converted: what its conversion worked from, its armies, its strength.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideArmies {
    pub scaling: SideScaling,
    pub armies: Vec<DbsaArmy>,
    pub strength: Strength,
}

/// A whole battle converted, for the umpire.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleArmies {
    /// The battle's one factor, under [`Scaling::PerBattle`].
    pub scale: Option<BattleScale>,
    /// Each side, in the order given.
    pub sides: Vec<SideArmies>,
}

impl BattleArmies {
    /// The odds between the sides before and after scaling ([`odds`]).
    pub fn odds(&self) -> Vec<Odds> {
        let strengths: Vec<Strength> = self.sides.iter().map(|s| s.strength.clone()).collect();
        odds(&strengths)
    }
}

/// Converts every side of a battle under `scaling`. This reads every side's strength, so it
/// belongs to the umpire's side; a side's own copy is converted from its own commands and
/// the [`SideScaling`] found here for it, which carries nothing of the other sides.
pub fn convert_battle(sides: &[BattleSide<'_>], scaling: Scaling) -> BattleArmies {
    // Every line's DBSA general's element counts, a leaderless line's too, as `build` fields it.
    let strengths: Vec<u32> = sides.iter().map(|s| s.commands.iter().map(|c| c.count + u32::from(!c.general)).sum()).collect();
    let scale = scaling.battle_scale(&strengths);
    let sides = sides
        .iter()
        .zip(&strengths)
        .map(|(s, &campaign)| {
            let side_scaling = scaling.for_side(scale.as_ref(), campaign);
            let armies = convert(s.name, s.commands, side_scaling);
            let table = armies.iter().map(|a| a.size).sum();
            SideArmies {
                scaling: side_scaling,
                armies,
                strength: Strength { name: s.name.to_owned(), attacker: s.attacker, campaign, table },
            }
        })
        .collect();
    BattleArmies { scale, sides }
}

struct Entry<'a> {
    command: &'a str,
    source: String,
    general: bool,
    count: u32,
    dbsa: DbsaType,
    guessed: bool,
}

fn build(name: String, commands: &[TroopLine], requested: Option<u32>, battle: bool) -> Option<DbsaArmy> {
    let (leader_at, leader) = commands.iter().enumerate().min_by_key(|(i, c)| (c.rank, *i))?;
    let mut warnings = Vec::new();
    let mut typed = |kind: &str, command: &str| match DbsaType::from_kind(kind) {
        Ok(t) => (t, false),
        Err(e) => {
            warnings.push(format!("{command}: {e}; shown as {} until the referee decides", DbsaType::FALLBACK.name()));
            (DbsaType::FALLBACK, true)
        }
    };
    let mut entries = Vec::new();
    let mut general = DbsaType::FALLBACK;
    for (i, c) in commands.iter().enumerate() {
        let (dbsa, guessed) = typed(&c.leader, &c.name);
        if i == leader_at {
            general = dbsa;
        }
        // A DBSA army always has its general's element (DS-06): a leaderless line's lost
        // general still gives it one, so its troops are not left without.
        entries.push(Entry { command: &c.name, source: format!("general {}", c.leader), general: true, count: 1, dbsa, guessed });
        for g in &c.groups {
            let (dbsa, guessed) = typed(&g.kind, &c.name);
            entries.push(Entry { command: &c.name, source: g.to_string(), general: false, count: g.count, dbsa, guessed });
        }
    }

    let mut counts = [0u32; 10];
    for e in &entries {
        counts[e.dbsa.index()] += e.count;
    }
    let total: u32 = counts.iter().sum();
    let requested = requested.unwrap_or(total);
    let allocation = apportion(&counts, requested.max(1), general);
    let size: u32 = allocation.iter().sum();

    let elements: Vec<(DbsaType, u32)> = DbsaType::ALL.iter().map(|&t| (t, allocation[t.index()])).filter(|&(_, n)| n > 0).collect();
    let dropped: Vec<&str> =
        DbsaType::ALL.iter().filter(|t| counts[t.index()] > 0 && allocation[t.index()] == 0).map(|t| t.name()).collect();
    if !dropped.is_empty() {
        warnings.push(format!(
            "an army of {size} has no room for every troop type; left out: {} (the general's type and the most numerous ones are kept)",
            dropped.join(", ")
        ));
    }
    let accounts = entries
        .iter()
        .map(|e| {
            let (type_dbsa, type_campaign) = (allocation[e.dbsa.index()], counts[e.dbsa.index()]);
            Account {
                command: e.command.to_owned(),
                source: e.source.clone(),
                general: e.general,
                campaign_elements: e.count,
                dbsa: e.dbsa,
                guessed: e.guessed,
                type_dbsa,
                type_campaign,
                share: to_f32(e.count) * to_f32(type_dbsa) / to_f32(type_campaign),
            }
        })
        .collect();
    let ratio = if battle && size != total {
        // No "1 to n" here: under per-battle scaling that is the battle's factor, which a
        // side's copy does not print (see `BattleScale`).
        format!("{size} DBSA elements stand for {total} campaign elements, at the one scale of the whole battle")
    } else if size == total {
        format!("one DBSA element for each of the {total} campaign elements")
    } else if size > total {
        format!("{size} DBSA elements stand for {total} campaign elements, scaled up (about {:.1} for each)", to_f32(size) / to_f32(total))
    } else {
        format!("{size} DBSA elements stand for {total} campaign elements (about 1 to {:.1})", to_f32(total) / to_f32(size))
    };
    Some(DbsaArmy {
        name,
        general,
        general_from: format!("{} ({}), {}", leader.name, leader.rank.name(), leader.leader),
        elements,
        camp: true,
        requested,
        campaign_elements: total,
        size,
        break_point: break_point(size),
        ratio,
        accounts,
        warnings,
    })
}

/// Shares `seats` DBSA elements among the DBSA types, in proportion to `counts` (campaign
/// elements per type, indexed as [`DbsaType::ALL`]), keeping `general`'s type.
///
/// - If `seats` is the campaign total, every campaign element is one DBSA element; above it
///   the types are scaled up in proportion, by the same largest remainder as below.
/// - If there are fewer seats than types present, each kept type gets one element: the
///   general's type first, then the most numerous, ties going to the earlier type in
///   [`DbsaType::ALL`]. The others are left out (and [`convert`] warns).
/// - Otherwise every type present gets at least one element. A type whose proportional
///   share would be under one element is given exactly one and set aside; the shares of the
///   rest are worked out again over the seats left, until every remaining type's share is one
///   or more. The remaining types then get the whole part of their share, and the seats still
///   over go one each to the largest fractional parts (largest remainder, Hamilton's
///   method). Ties between equal remainders go to the type with more campaign elements, then
///   to the earlier type in [`DbsaType::ALL`]. All arithmetic is exact, in integers.
pub fn apportion(counts: &[u32; 10], seats: u32, general: DbsaType) -> [u32; 10] {
    let total: u32 = counts.iter().sum();
    if seats == total || total == 0 {
        return *counts;
    }
    let mut out = [0u32; 10];
    let present: Vec<usize> = (0..10).filter(|&i| counts[i] > 0).collect();
    let seats_usize = usize::try_from(seats).unwrap_or(usize::MAX);
    if seats_usize < present.len() {
        let mut order = present;
        order.sort_by_key(|&i| (i != general.index(), std::cmp::Reverse(counts[i]), i));
        for &i in order.iter().take(seats_usize) {
            out[i] = 1;
        }
        return out;
    }
    let mut fixed = [false; 10];
    let (free_seats, free) = loop {
        let free: Vec<usize> = present.iter().copied().filter(|&i| !fixed[i]).collect();
        let fixed_count = u32::try_from(present.len() - free.len()).unwrap_or(u32::MAX);
        let free_seats = u64::from(seats - fixed_count);
        let free_total: u64 = free.iter().map(|&i| u64::from(counts[i])).sum();
        let small: Vec<usize> = free.iter().copied().filter(|&i| u64::from(counts[i]) * free_seats < free_total).collect();
        if small.is_empty() {
            break (free_seats, free);
        }
        for i in small {
            fixed[i] = true;
            out[i] = 1;
        }
    };
    let free_total: u64 = free.iter().map(|&i| u64::from(counts[i])).sum();
    let mut remainders = Vec::new();
    let mut given = 0u64;
    for &i in &free {
        let quota = u64::from(counts[i]) * free_seats;
        let whole = quota / free_total;
        out[i] = u32::try_from(whole).unwrap_or(u32::MAX);
        given += whole;
        remainders.push((quota % free_total, i));
    }
    remainders.sort_by_key(|&(r, i)| (std::cmp::Reverse(r), std::cmp::Reverse(counts[i]), i));
    let left = usize::try_from(free_seats - given).unwrap_or(0);
    for &(_, i) in remainders.iter().take(left) {
        out[i] += 1;
    }
    out
}

/// A u32 as f32 without an `as` cast (exact up to 2^24, rounded beyond).
fn to_f32(n: u32) -> f32 {
    let hi = u16::try_from(n >> 16).unwrap_or(u16::MAX);
    let lo = u16::try_from(n & 0xFFFF).unwrap_or(u16::MAX);
    f32::from(hi) * 65_536.0 + f32::from(lo)
}

/// The size of the figures, which sets the length of a pace on the table.
///
/// The project follows the DBA base-width convention: a 15mm element's frontage is 40 mm and
/// 100 paces are taken as that width; 25mm figures have 60 mm frontages, so 100 paces are
/// 60 mm. 6mm armies are normally based on the 15mm frontages (40 mm), so they measure like
/// 15mm.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FigureScale {
    #[serde(rename = "6mm")]
    Mm6,
    #[default]
    #[serde(rename = "15mm")]
    Mm15,
    #[serde(rename = "25mm")]
    Mm25,
}

impl FigureScale {
    pub const ALL: [FigureScale; 3] = [FigureScale::Mm6, FigureScale::Mm15, FigureScale::Mm25];

    pub fn label(self) -> &'static str {
        match self {
            FigureScale::Mm6 => "6mm",
            FigureScale::Mm15 => "15mm",
            FigureScale::Mm25 => "25mm",
        }
    }

    /// Millimetres on the table for 100 paces.
    pub fn mm_per_100_paces(self) -> u32 {
        match self {
            FigureScale::Mm6 | FigureScale::Mm15 => 40,
            FigureScale::Mm25 => 60,
        }
    }

    /// `paces` on the table, as (inches, centimetres), unrounded.
    pub fn distance(self, paces: u32) -> (f32, f32) {
        let mm = to_f32(paces) * to_f32(self.mm_per_100_paces()) / 100.0;
        (mm / 25.4, mm / 10.0)
    }
}

/// A distance on the table in inches as every page of a pack prints it, to a tenth: the
/// table page's deployment zone and the distance table give the same figure.
pub fn inches(value: f32) -> String {
    format!("{value:.1}\"")
}

impl fmt::Display for FigureScale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Every distance a DBSA player measures, at `scale`: (what, paces, inches, centimetres).
///
/// The DS-03 moves, the DS-01 deployment depth, the DS-02 road bonus and the DS-05 recoil
/// and flight distances, in that order.
pub fn distance_table(scale: FigureScale) -> Vec<(String, u32, f32, f32)> {
    let rows: [(&str, u32); 12] = [
        ("Move: light horse off road, good going", 500),
        ("Move: cavalry off road, good going", 400),
        ("Move: any troops along a road", 400),
        ("Move: knights or elephants off road, good going", 300),
        ("Move: auxilia or shooters off road, any going", 300),
        ("Move: spears, pikes, blades or warband off road", 200),
        ("Move: any mounted off road, bad going", 200),
        ("Deployment: depth from each side's base edge", DEPLOYMENT_PACES),
        ("Road move with the general: extra per unused PIP", ROAD_BONUS_PER_PIP),
        ("Recoil: mounted beaten", 200),
        ("Recoil: foot beaten", 100),
        ("Flight: light horse or shooters doubled", 600),
    ];
    rows.iter()
        .map(|&(what, paces)| {
            let (inches, cm) = scale.distance(paces);
            (what.to_owned(), paces, inches, cm)
        })
        .collect()
}

/// DS-01, DS-02 and DS-06 for the printed roster sheet of a campaign battle, in the
/// project's own words, with what MG-21 changes in the DBSA set-up.
///
/// DS-01 starts with a roll-off whose winner names two neighbouring table edges 5 and 6 and
/// then rolls for his own base edge. A campaign battle has its edges already: MG-21 gives the
/// attacker the edge it marched in by and the defender the opposite one, after the defender
/// has chosen the section of the battle map in play (and the attacker, on a 4'×6' table, the
/// flank cut off). So the naming of edges and the roll for a base edge are dropped. Once the
/// section is chosen, MG-21 has the armies set up the way the tabletop rules usually do, so
/// the rest of DS-01 stands: the roll-off still decides who sets up first (and so moves
/// second), and the deployment depth of 600p. DBSA gives that depth only for the side that
/// sets up first; the project holds both sides to it, as the table page draws both zones and
/// each brief tells its side. Allies fight from their friend's edge and share its roll.
pub fn setup_steps(table_rule: &str) -> Vec<String> {
    vec![
        format!(
            "Table edges: set by the campaign ({table_rule}), so nobody names edges 5 and 6 or rolls for a base edge. The attacker's base \
             edge is the one it marched in by; the defender's is the opposite one."
        ),
        "Who sets up first: the attacker and the defender each roll a die (allies share the roll); the higher scorer sets up first and \
         has the second bound (DS-01)."
            .to_owned(),
        format!(
            "Deployment: both sides within {DEPLOYMENT_PACES}p of their own base edge (DBSA gives this depth for the first side only)."
        ),
        "Each bound: the moving side rolls one die for PIPs; each PIP moves one element or one group of touching elements.".to_owned(),
        format!("PIPs not spent add {ROAD_BONUS_PER_PIP}p each to a road move made with the general."),
        "After moving, every pair of elements in contact fights and takes its outcome, in the order the moving player chooses.".to_owned(),
        "Each army has one general, standing with one of its elements, and a camp.".to_owned(),
        "The game is lost by the first side to lose its general, its camp or its break point in elements: a third of its army, as its \
         roster gives it (DS-06, scaled with the army)."
            .to_owned(),
    ]
}

/// How badly an element lost its combat (DS-05).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Margin {
    /// Its total was below the enemy's, but above half of it.
    Beaten,
    /// Its total was half the enemy's or less.
    Doubled,
}

impl Margin {
    /// The margin from the two totals, or `None` if the element did not lose (a draw, or a
    /// higher score).
    pub fn from_totals(own: i32, enemy: i32) -> Option<Margin> {
        if 2 * i64::from(own) <= i64::from(enemy) {
            Some(Margin::Doubled)
        } else if own < enemy {
            Some(Margin::Beaten)
        } else {
            None
        }
    }
}

/// What happens to the losing element (DS-05).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Moves straight back this far, still facing the enemy.
    Recoil { paces: u32 },
    /// Removed.
    Destroyed,
    /// Stays where it is.
    Held,
    /// The long 600p move back of doubled light horse and shooters. The rule text calls it a
    /// recoil and it is carried out like one (straight back, no turn); it has its own name here
    /// because it is the only way a doubled element survives.
    Flee { paces: u32 },
}

impl Outcome {
    pub fn describe(self) -> String {
        match self {
            Outcome::Recoil { paces } => format!("recoils {paces}p"),
            Outcome::Destroyed => "destroyed".to_owned(),
            Outcome::Held => "held in place".to_owned(),
            Outcome::Flee { paces } => format!("falls back {paces}p (a long recoil)"),
        }
    }
}

/// DS-05: the outcome for a losing element of type `loser`, against `enemy`, the most
/// dangerous enemy element in contact with it (overlapping elements do not count), when it
/// lost by `margin`. `bad_going` means the loser stands in bad going.
pub fn outcome(loser: DbsaType, enemy: DbsaType, margin: Margin, bad_going: bool) -> Outcome {
    use DbsaType as T;
    let recoil = |paces| Outcome::Recoil { paces };
    let flee = Outcome::Flee { paces: 600 };
    match margin {
        Margin::Beaten => match loser {
            T::Elephants if enemy == T::Shooters || bad_going => Outcome::Destroyed,
            T::Knights if matches!(enemy, T::Elephants | T::Shooters | T::LightHorse) || bad_going => Outcome::Destroyed,
            T::Cavalry | T::LightHorse if bad_going => Outcome::Destroyed,
            T::Elephants | T::Knights | T::Cavalry | T::LightHorse => recoil(200),
            T::Blades if enemy == T::Warband => Outcome::Destroyed,
            T::Auxilia | T::Shooters if enemy == T::Knights && !bad_going => Outcome::Destroyed,
            T::Warband if matches!(enemy, T::Elephants | T::Knights) => Outcome::Destroyed,
            T::Spears | T::Pikes if matches!(enemy, T::Knights | T::Warband) => Outcome::Destroyed,
            T::Blades | T::Spears | T::Pikes if matches!(enemy, T::LightHorse | T::Shooters) => Outcome::Held,
            T::Spears | T::Pikes | T::Blades | T::Auxilia | T::Warband | T::Shooters => recoil(100),
        },
        Margin::Doubled => match loser {
            T::LightHorse if enemy.is_mounted() || bad_going => Outcome::Destroyed,
            T::Shooters if (enemy.is_mounted() && !bad_going) || matches!(enemy, T::Auxilia | T::Shooters) => Outcome::Destroyed,
            T::LightHorse | T::Shooters => flee,
            _ => Outcome::Destroyed,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_campaign::magna_graecia::army::{CommandRoster, ElementSpec, Mobility, Rank};
    use referee_campaign::magna_graecia::catalog::Catalog;

    use DbsaType as T;

    /// A side's commands as the Magna Graecia adapter gives them to the converter (points are
    /// not needed here).
    fn lines(commands: &[CommandRoster]) -> Vec<TroopLine> {
        commands.iter().map(|r| crate::magna_graecia::troop_line(r, 0, false, None, None)).collect()
    }

    /// [`super::convert`] of a scenario's commands.
    fn convert(side_name: &str, commands: &[CommandRoster], scaling: SideScaling) -> Vec<DbsaArmy> {
        super::convert(side_name, &lines(commands), scaling)
    }

    /// A side of a battle by its scenario's commands.
    #[derive(Debug, Clone, Copy)]
    struct BattleSide<'a> {
        name: &'a str,
        attacker: bool,
        commands: &'a [CommandRoster],
    }

    /// [`super::convert_battle`] of the sides' scenario commands.
    fn convert_battle(sides: &[BattleSide<'_>], scaling: Scaling) -> BattleArmies {
        let lines: Vec<Vec<TroopLine>> = sides.iter().map(|s| lines(s.commands)).collect();
        let sides: Vec<super::BattleSide<'_>> =
            sides.iter().zip(&lines).map(|(s, commands)| super::BattleSide { name: s.name, attacker: s.attacker, commands }).collect();
        super::convert_battle(&sides, scaling)
    }

    fn cmd(name: &str, rank: Rank, general: &str, groups: &[&str]) -> CommandRoster {
        CommandRoster {
            name: name.to_owned(),
            rank,
            general: general.parse().unwrap(),
            elements: groups.iter().map(|g| g.parse().unwrap()).collect(),
        }
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-3
    }

    /// DS-03: every type's longest move off road in good and bad going, and by road.
    #[test]
    fn ds_03_move_distances() {
        // (type, good going, bad going) off road.
        let table = [
            (T::LightHorse, 500, 200),
            (T::Cavalry, 400, 200),
            (T::Knights, 300, 200),
            (T::Elephants, 300, 200),
            (T::Auxilia, 300, 300),
            (T::Shooters, 300, 300),
            (T::Spears, 200, 200),
            (T::Pikes, 200, 200),
            (T::Blades, 200, 200),
            (T::Warband, 200, 200),
        ];
        assert_eq!(table.len(), DbsaType::ALL.len());
        for (t, good, bad) in table {
            assert_eq!(t.move_paces(true, false), good, "{t} in good going");
            assert_eq!(t.move_paces(false, false), bad, "{t} in bad going");
            assert_eq!(t.move_paces(true, true), 400, "{t} by road");
            assert_eq!(t.move_paces(false, true), 400, "{t} by road through bad going");
        }
    }

    /// DS-04: the combat factor of each of the ten types against foot and against mounted.
    #[test]
    fn ds_04_combat_factors_match_the_rules() {
        let table = [
            (T::Blades, 5, 3),
            (T::Elephants, 4, 5),
            (T::Spears, 4, 4),
            (T::Knights, 3, 4),
            (T::Pikes, 3, 4),
            (T::Cavalry, 3, 3),
            (T::Warband, 3, 3),
            (T::Auxilia, 3, 2),
            (T::LightHorse, 2, 2),
            (T::Shooters, 2, 2),
        ];
        assert_eq!(table.len(), DbsaType::ALL.len());
        for (t, foot, mounted) in table {
            assert_eq!(t.combat_factor_vs_foot(), foot, "{t} v foot");
            assert_eq!(t.combat_factor_vs_mounted(), mounted, "{t} v mounted");
        }
        assert_eq!(T::Elephants.combat_factor_against(T::Knights), 5);
        assert_eq!(T::Elephants.combat_factor_against(T::Spears), 4);
        assert_eq!(T::Blades.combat_factor_against(T::Elephants), 3);
        assert_eq!(T::Auxilia.combat_factor_against(T::Shooters), 3);
    }

    /// DS-04, DS-05: elephants, knights, cavalry and light horse are mounted, the rest foot.
    #[test]
    fn ds_05_mounted_and_foot() {
        let mounted: Vec<DbsaType> = DbsaType::ALL.into_iter().filter(|t| t.is_mounted()).collect();
        assert_eq!(mounted, [T::Elephants, T::Knights, T::Cavalry, T::LightHorse]);
    }

    /// DS-05: the winner's total decides the margin; a draw or a win has no outcome.
    #[test]
    fn ds_05_margin_from_totals() {
        assert_eq!(Margin::from_totals(5, 6), Some(Margin::Beaten));
        assert_eq!(Margin::from_totals(4, 7), Some(Margin::Beaten));
        assert_eq!(Margin::from_totals(4, 8), Some(Margin::Doubled));
        assert_eq!(Margin::from_totals(3, 8), Some(Margin::Doubled));
        assert_eq!(Margin::from_totals(6, 6), None);
        assert_eq!(Margin::from_totals(7, 6), None);
    }

    /// DS-05: beaten mounted: elephants die to shooters or in bad going, knights to
    /// elephants, shooters or light horse or in bad going, other mounted in bad going;
    /// otherwise all recoil 200p.
    #[test]
    fn ds_05_beaten_mounted() {
        let b = Margin::Beaten;
        assert_eq!(outcome(T::Elephants, T::Shooters, b, false), Outcome::Destroyed);
        assert_eq!(outcome(T::Elephants, T::Spears, b, true), Outcome::Destroyed);
        assert_eq!(outcome(T::Elephants, T::Spears, b, false), Outcome::Recoil { paces: 200 });
        assert_eq!(outcome(T::Elephants, T::LightHorse, b, false), Outcome::Recoil { paces: 200 });
        for killer in [T::Elephants, T::Shooters, T::LightHorse] {
            assert_eq!(outcome(T::Knights, killer, b, false), Outcome::Destroyed, "knights v {killer}");
        }
        assert_eq!(outcome(T::Knights, T::Spears, b, true), Outcome::Destroyed);
        for other in [T::Knights, T::Cavalry, T::Spears, T::Pikes, T::Blades, T::Auxilia, T::Warband] {
            assert_eq!(outcome(T::Knights, other, b, false), Outcome::Recoil { paces: 200 }, "knights v {other}");
        }
        for loser in [T::Cavalry, T::LightHorse] {
            for enemy in DbsaType::ALL {
                assert_eq!(outcome(loser, enemy, b, true), Outcome::Destroyed, "{loser} v {enemy} in bad going");
                assert_eq!(outcome(loser, enemy, b, false), Outcome::Recoil { paces: 200 }, "{loser} v {enemy}");
            }
        }
    }

    /// DS-05: beaten foot: blades die to warband and are held by light horse or shooters;
    /// auxilia and shooters die to knights unless in bad going; warband die to elephants or
    /// knights; spears and pikes die to knights or warband and are held by light horse or
    /// shooters; otherwise foot recoil 100p.
    #[test]
    fn ds_05_beaten_foot() {
        let b = Margin::Beaten;
        let r100 = Outcome::Recoil { paces: 100 };
        assert_eq!(outcome(T::Blades, T::Warband, b, false), Outcome::Destroyed);
        assert_eq!(outcome(T::Blades, T::LightHorse, b, false), Outcome::Held);
        assert_eq!(outcome(T::Blades, T::Shooters, b, false), Outcome::Held);
        assert_eq!(outcome(T::Blades, T::Knights, b, false), r100);
        assert_eq!(outcome(T::Blades, T::Spears, b, true), r100);
        for loser in [T::Auxilia, T::Shooters] {
            assert_eq!(outcome(loser, T::Knights, b, false), Outcome::Destroyed, "{loser}");
            assert_eq!(outcome(loser, T::Knights, b, true), r100, "{loser} in bad going");
            assert_eq!(outcome(loser, T::Warband, b, false), r100, "{loser}");
            assert_eq!(outcome(loser, T::Elephants, b, false), r100, "{loser}");
        }
        assert_eq!(outcome(T::Warband, T::Elephants, b, false), Outcome::Destroyed);
        assert_eq!(outcome(T::Warband, T::Knights, b, true), Outcome::Destroyed);
        assert_eq!(outcome(T::Warband, T::Warband, b, false), r100);
        assert_eq!(outcome(T::Warband, T::LightHorse, b, false), r100);
        for loser in [T::Spears, T::Pikes] {
            assert_eq!(outcome(loser, T::Knights, b, false), Outcome::Destroyed, "{loser}");
            assert_eq!(outcome(loser, T::Warband, b, true), Outcome::Destroyed, "{loser}");
            assert_eq!(outcome(loser, T::LightHorse, b, false), Outcome::Held, "{loser}");
            assert_eq!(outcome(loser, T::Shooters, b, false), Outcome::Held, "{loser}");
            assert_eq!(outcome(loser, T::Elephants, b, false), r100, "{loser}");
            assert_eq!(outcome(loser, T::Blades, b, true), r100, "{loser}");
        }
    }

    /// DS-05: doubled light horse die to any mounted or in bad going, else fall back 600p;
    /// doubled shooters die to mounted in good going or to auxilia or shooters, else fall
    /// back 600p; every other type doubled is destroyed.
    #[test]
    fn ds_05_doubled() {
        let d = Margin::Doubled;
        let flee = Outcome::Flee { paces: 600 };
        for m in [T::Elephants, T::Knights, T::Cavalry, T::LightHorse] {
            assert_eq!(outcome(T::LightHorse, m, d, false), Outcome::Destroyed, "LH v {m}");
            assert_eq!(outcome(T::Shooters, m, d, false), Outcome::Destroyed, "shooters v {m}");
            assert_eq!(outcome(T::Shooters, m, d, true), flee, "shooters v {m} in bad going");
        }
        assert_eq!(outcome(T::LightHorse, T::Spears, d, true), Outcome::Destroyed);
        for foot in [T::Spears, T::Pikes, T::Blades, T::Auxilia, T::Warband, T::Shooters] {
            assert_eq!(outcome(T::LightHorse, foot, d, false), flee, "LH v {foot}");
        }
        for killer in [T::Auxilia, T::Shooters] {
            assert_eq!(outcome(T::Shooters, killer, d, true), Outcome::Destroyed);
        }
        for other in [T::Spears, T::Pikes, T::Blades, T::Warband] {
            assert_eq!(outcome(T::Shooters, other, d, false), flee, "shooters v {other}");
        }
        for loser in [T::Elephants, T::Knights, T::Cavalry, T::Spears, T::Pikes, T::Blades, T::Auxilia, T::Warband] {
            for enemy in DbsaType::ALL {
                for bad in [false, true] {
                    assert_eq!(outcome(loser, enemy, d, bad), Outcome::Destroyed, "{loser} v {enemy}");
                }
            }
        }
    }

    /// DS-01: the 600p deployment depth is 24 cm (9.45 in) with 15mm and 6mm figures and
    /// 36 cm (14.17 in) with 25mm.
    #[test]
    fn ds_01_deployment_depth_at_each_scale() {
        for (scale, inches, cm) in [(FigureScale::Mm6, 9.449, 24.0), (FigureScale::Mm15, 9.449, 24.0), (FigureScale::Mm25, 14.173, 36.0)] {
            let (i, c) = scale.distance(DEPLOYMENT_PACES);
            assert!(close(i, inches) && close(c, cm), "{scale}: {i} in, {c} cm");
            let row = distance_table(scale).into_iter().find(|r| r.0.starts_with("Deployment")).unwrap();
            assert_eq!(row.1, 600);
            assert!(close(row.2, inches) && close(row.3, cm));
        }
        assert_eq!(FigureScale::Mm15.distance(100), (40.0 / 25.4, 4.0));
    }

    /// DS-02, DS-03, DS-05: the distance table lists every move, the road bonus and the
    /// recoils, each measured at the scale.
    #[test]
    fn ds_02_distance_table_has_every_distance() {
        let table = distance_table(FigureScale::Mm25);
        let paces = |prefix: &str| -> Vec<u32> { table.iter().filter(|r| r.0.starts_with(prefix)).map(|r| r.1).collect() };
        assert_eq!(paces("Move"), [500, 400, 400, 300, 300, 200, 200]);
        assert_eq!(paces("Road move"), [200]);
        assert_eq!(paces("Recoil"), [200, 100]);
        assert_eq!(paces("Flight"), [600]);
        for (what, p, inches, cm) in &table {
            let mm = f32::from(u16::try_from(*p).unwrap()) * 0.6;
            assert!(close(*cm, mm / 10.0) && close(*inches, mm / 25.4), "{what}");
        }
    }

    /// DS-01, DS-02, DS-06: the set-up steps carry the rules' numbers.
    #[test]
    fn ds_06_setup_steps_carry_the_numbers() {
        let text = setup_steps("MG-21").join(" ");
        for needle in ["600p", "200p", "break point", "a third of its army", "general", "camp", "5 and 6", "PIP"] {
            assert!(text.contains(needle), "{needle} missing from: {text}");
        }
        assert!(break_point_rule().contains("4 of the usual 12"), "{}", break_point_rule());
    }

    /// DS-06, scaled: the usual army of 12 breaks at 4 elements, as the rules say, and an
    /// army of any other size at the same third of it, to the nearest element, never none.
    #[test]
    fn ds_06_the_break_point_is_a_third_of_the_army() {
        assert_eq!(break_point(STANDARD_ARMY), LOSING_ELEMENTS);
        let cases = [(1, 1), (2, 1), (4, 1), (5, 2), (6, 2), (7, 2), (8, 3), (13, 4), (14, 5), (24, 8), (36, 12)];
        for (size, breaks) in cases {
            assert_eq!(break_point(size), breaks, "an army of {size}");
        }
        for size in 1..=200u32 {
            let b = break_point(size);
            let nearest = (3 * b).abs_diff(size) * 2 <= 3 || (size == 1 && b == 1);
            assert!(nearest, "{size}: {b} is not the nearest third (or the one element of an army of one)");
        }
        // At 12 against 5 both break at about a third: 4 of 12, 2 of 5.
        let (a, b) = (break_point(12), break_point(5));
        assert!((to_f32(a) / 12.0 - to_f32(b) / 5.0).abs() < 0.1);
    }

    /// MG-21, DS-01: a campaign battle's set-up leaves the edges to the campaign: the first
    /// step says DBSA's choice of edges is not made and whose edge is which; only it speaks of
    /// edges 5 and 6; the roll-off still decides who sets up first and so moves second; and
    /// both sides keep to the 600p depth from their own edge.
    #[test]
    fn mg_21_setup_leaves_the_edges_to_the_campaign() {
        let steps = setup_steps("MG-21");
        let edges = &steps[0];
        for needle in ["set by the campaign (MG-21)", "nobody names edges 5 and 6 or rolls for a base edge", "marched in by", "opposite"] {
            assert!(edges.contains(needle), "{needle} missing from: {edges}");
        }
        assert!(steps[1..].iter().all(|s| !s.contains("5 and 6") && !s.contains("rolls for which edge")), "{steps:?}");
        let first = &steps[1];
        for needle in ["each roll a die", "the higher scorer sets up first", "second bound", "DS-01"] {
            assert!(first.contains(needle), "{needle} missing from: {first}");
        }
        assert!(steps[2].contains("both sides within 600p of their own base edge"), "{}", steps[2]);
    }

    /// Every element type of the points table has a DBSA type, and mounted or foot stays so.
    #[test]
    fn mapping_covers_every_code_in_the_points_table() {
        let catalog = Catalog::embedded();
        let table = &catalog.scenarios[0].elements;
        assert_eq!(table.types.len(), 17, "the points table changed; review the DBSA mapping");
        for (code, t) in &table.types {
            let spec = ElementSpec { class: t.costs[0].class, code: code.clone(), grade: t.costs[0].grade };
            let dbsa = DbsaType::from_kind(&spec.to_string()).unwrap_or_else(|e| panic!("{e}"));
            match t.mobility {
                Mobility::Mounted | Mobility::Elephant => assert!(dbsa.is_mounted(), "{code} -> {dbsa}"),
                Mobility::Foot | Mobility::Psiloi => assert!(!dbsa.is_mounted(), "{code} -> {dbsa}"),
                Mobility::Expendable | Mobility::Artillery => {}
            }
        }
    }

    /// The documented mapping, row by row.
    #[test]
    fn mapping_follows_the_documented_table() {
        let rows = [
            ("El", T::Elephants),
            ("Kn", T::Knights),
            ("HCh", T::Knights),
            ("Exp", T::Knights),
            ("Cv", T::Cavalry),
            ("LCh", T::Cavalry),
            ("Cm", T::Cavalry),
            ("LH", T::LightHorse),
            ("Sp", T::Spears),
            ("Pk", T::Pikes),
            ("Bd", T::Blades),
            ("Ax", T::Auxilia),
            ("Wb", T::Warband),
            ("Hd", T::Warband),
            ("Bw", T::Shooters),
            ("Ps", T::Shooters),
            ("Art", T::Shooters),
        ];
        for (code, t) in rows {
            assert_eq!(DbsaType::from_code(code), Some(t), "{code}");
        }
        assert_eq!(DbsaType::from_kind("Irr Hd(I)"), Ok(T::Warband));
        assert_eq!(DbsaType::from_code("sp"), None);
    }

    /// An unknown code is an error from `from_kind`, and `convert` maps it to the fallback,
    /// flags the account and warns, without losing the element.
    #[test]
    fn unknown_code_is_flagged_not_dropped() {
        let err = DbsaType::from_kind("Reg WWg(O)").unwrap_err();
        assert_eq!(err.code, "WWg");
        assert!(err.to_string().contains("Reg WWg(O)"));
        let c = cmd("Odd", Rank::CInC, "Reg Cv(O)", &["3 Reg WWg(O)", "4 Reg Sp(O)"]);
        let army = &convert("side", &[c], SideScaling::OneToOne)[0];
        assert_eq!(army.count(DbsaType::FALLBACK), 3);
        let guessed: Vec<&Account> = army.accounts.iter().filter(|a| a.guessed).collect();
        assert_eq!(guessed.len(), 1);
        assert_eq!(guessed[0].campaign_elements, 3);
        assert_eq!(army.warnings.len(), 1);
        assert!(army.warnings[0].contains("WWg"), "{}", army.warnings[0]);
        assert_eq!(army.size, 8);
    }

    fn check_invariants(army: &DbsaArmy, commands: &[&CommandRoster], requested: u32) {
        let real: u32 = commands.iter().map(|c| c.element_count()).sum();
        let what = format!("{} at {requested}", army.name);
        // DS-06: a general and a camp.
        assert!(army.camp, "{what}");
        assert!(army.count(army.general) >= 1, "{what}: the general's type has no element");
        // Every campaign element accounted for.
        assert_eq!(army.accounts.iter().map(|a| a.campaign_elements).sum::<u32>(), real, "{what}");
        assert_eq!(army.campaign_elements, real, "{what}");
        assert_eq!(army.accounts.iter().filter(|a| a.general).count(), commands.len(), "{what}: one account per general");
        // Size is what was asked for, scaled down or up, and the elements add up to it.
        assert_eq!(army.size, requested.max(1), "{what}");
        assert_eq!(army.break_point, break_point(army.size), "{what}");
        assert_eq!(army.elements.iter().map(|e| e.1).sum::<u32>(), army.size, "{what}");
        let shares: f32 = army.accounts.iter().map(|a| a.share).sum();
        assert!((shares - to_f32(army.size)).abs() < 1e-3, "{what}: shares {shares}");
        // No type vanishes while there is room for all of them.
        let present: std::collections::BTreeSet<DbsaType> = army.accounts.iter().map(|a| a.dbsa).collect();
        let kept = army.elements.iter().filter(|e| e.1 > 0).count();
        assert_eq!(kept, present.len().min(usize::try_from(army.size).unwrap()), "{what}");
        for a in &army.accounts {
            assert_eq!(a.type_dbsa, army.count(a.dbsa), "{what}");
        }
    }

    /// DS-06 and the conversion invariants, for every default army of every scenario, under
    /// each scaling policy: a general and a camp in each army, every campaign element
    /// accounted for, size = min(asked, real), and no type left out while there is room.
    #[test]
    fn ds_06_every_default_army_converts_with_general_camp_and_every_element() {
        let catalog = Catalog::embedded();
        let mut armies_seen = 0;
        for scenario in &catalog.scenarios {
            for army in &scenario.armies {
                let side = army.side.as_str();
                let all: Vec<&CommandRoster> = army.commands.iter().collect();
                let real: u32 = army.commands.iter().map(CommandRoster::element_count).sum();
                let one = convert(side, &army.commands, SideScaling::OneToOne);
                assert_eq!(one.len(), 1);
                check_invariants(&one[0], &all, real);
                for n in [1, 4, 8, 12, 24, 1000] {
                    let per_side = convert(side, &army.commands, SideScaling::PerSide { elements: n });
                    assert_eq!(per_side.len(), 1);
                    check_invariants(&per_side[0], &all, n);
                    let chief = army.commands.iter().find(|c| c.rank == Rank::CInC).unwrap();
                    assert_eq!(per_side[0].general, DbsaType::from_kind(&chief.general.to_string()).unwrap());
                    let per_command = convert(side, &army.commands, SideScaling::PerCommand { elements: n });
                    assert_eq!(per_command.len(), army.commands.len());
                    for (a, c) in per_command.iter().zip(&army.commands) {
                        check_invariants(a, &[c], n);
                        assert_eq!(a.general, DbsaType::from_kind(&c.general.to_string()).unwrap());
                        assert_eq!(a.name, format!("{side}: {}", c.name));
                    }
                    armies_seen += 1;
                }
            }
        }
        assert!(armies_seen >= 8 * 6, "only {armies_seen} default armies converted");
    }

    /// A sweep over every size of one real army: the invariants hold at each.
    #[test]
    fn every_size_of_a_real_army_keeps_the_invariants() {
        let catalog = Catalog::embedded();
        let army = &catalog.scenario("dionysian").unwrap().armies[0];
        let all: Vec<&CommandRoster> = army.commands.iter().collect();
        let real: u32 = army.commands.iter().map(CommandRoster::element_count).sum();
        for n in 0..=real + 2 {
            check_invariants(&convert("carthage", &army.commands, SideScaling::PerSide { elements: n })[0], &all, n);
        }
    }

    /// A command smaller than the size asked for is scaled up to it, each type in proportion
    /// by largest remainder, and the sheet says so.
    #[test]
    fn a_small_command_is_scaled_up() {
        let c = cmd("Agyris", Rank::AllyGeneral, "Irr Cv(O)", &["4 Irr Ax(O)", "3 Irr Ps(O)"]);
        let armies = convert("syracuse", std::slice::from_ref(&c), SideScaling::PerCommand { elements: 12 });
        assert_eq!(armies.len(), 1);
        let a = &armies[0];
        assert_eq!((a.size, a.requested, a.break_point), (12, 12, 4));
        // 1, 4 and 3 of 8 into 12: 1.5, 6 and 4.5; the two halves go by more campaign
        // elements (Ps) first, then the earlier type.
        assert_eq!(a.elements, [(T::Cavalry, 1), (T::Auxilia, 6), (T::Shooters, 5)]);
        assert!(a.ratio.contains("scaled up"), "{}", a.ratio);
        let shares: f32 = a.accounts.iter().map(|x| x.share).sum();
        assert!(close(shares, 12.0));
    }

    /// Scaling down: a type under one element's share keeps one, the rest share the seats
    /// left by largest remainder.
    #[test]
    fn scaling_down_keeps_small_types_and_uses_largest_remainder() {
        // 1 Cv (general), 40 Sp, 10 Ps into 12: Cv's share (0.24) is raised to 1; 11 seats
        // over 50 give Sp 8.8 and Ps 2.2, so Sp 8 + the one remainder seat, Ps 2.
        let c = cmd("Big", Rank::CInC, "Reg Cv(O)", &["40 Reg Sp(O)", "10 Reg Ps(O)"]);
        let a = &convert("s", &[c], SideScaling::PerSide { elements: 12 })[0];
        assert_eq!(a.elements, [(T::Cavalry, 1), (T::Spears, 9), (T::Shooters, 2)]);
        assert!(a.ratio.contains("12 DBSA elements stand for 51"), "{}", a.ratio);
        let sp = a.accounts.iter().find(|x| x.dbsa == T::Spears).unwrap();
        assert!(close(sp.share, 9.0));
        // Equal remainders: the type with more campaign elements wins, then the earlier type.
        let mut counts = [0u32; 10];
        counts[T::Cavalry.index()] = 1;
        counts[T::Spears.index()] = 3;
        counts[T::Blades.index()] = 3;
        // Two seats over 7: all shares below one? Cv 0.29 and Sp, Bd 0.86 are all under one,
        // but there are only 2 seats for 3 types: the general's type, then the earlier of the tie.
        let two = apportion(&counts, 2, T::Cavalry);
        assert_eq!((two[T::Cavalry.index()], two[T::Spears.index()], two[T::Blades.index()]), (1, 1, 0));
        // Four seats: Cv fixed at 1; 3 seats over 6: Sp 1.5, Bd 1.5 -> tie on remainder and
        // count, so the earlier type (spears) takes the spare seat.
        let four = apportion(&counts, 4, T::Cavalry);
        assert_eq!((four[T::Cavalry.index()], four[T::Spears.index()], four[T::Blades.index()]), (1, 2, 1));
        counts[T::Blades.index()] = 5;
        // 1 Cv, 3 Sp, 5 Bd into 5: Cv fixed; 4 over 8: Sp 1.5, Bd 2.5: equal remainders, so the
        // more numerous blades get the seat.
        let five = apportion(&counts, 5, T::Cavalry);
        assert_eq!((five[T::Cavalry.index()], five[T::Spears.index()], five[T::Blades.index()]), (1, 1, 3));
    }

    /// Hamilton's bound: when no type needs the one-element minimum, each type gets its share
    /// rounded up or down, never further off.
    #[test]
    fn shares_are_rounded_within_one_element() {
        let catalog = Catalog::embedded();
        for scenario in &catalog.scenarios {
            for army in &scenario.armies {
                let a = &convert("s", &army.commands, SideScaling::PerSide { elements: 24 })[0];
                let total = to_f32(a.campaign_elements);
                if a.accounts.iter().any(|x| to_f32(x.type_campaign) * 24.0 < total) {
                    continue;
                }
                for x in &a.accounts {
                    let quota = to_f32(x.type_campaign) * 24.0 / total;
                    assert!((to_f32(x.type_dbsa) - quota).abs() < 1.0, "{}: {} {quota}", scenario.id, x.dbsa);
                }
            }
        }
        let c = cmd("Even", Rank::CInC, "Reg Cv(O)", &["9 Reg Cv(O)", "20 Reg Sp(O)", "10 Reg Ps(O)"]);
        let a = &convert("s", &[c], SideScaling::PerSide { elements: 12 })[0];
        // 10 Cv, 20 Sp, 10 Ps: shares 3.0, 6.0, 3.0 exactly.
        assert_eq!(a.elements, [(T::Cavalry, 3), (T::Spears, 6), (T::Shooters, 3)]);
        // 7 Kn, 13 Bd, 19 Wb (39) into 10: shares 1.79, 3.33, 4.87: the two spare seats go to .87 and .79.
        let c = cmd("Odd", Rank::CInC, "Reg Kn(O)", &["6 Reg Kn(O)", "13 Reg Bd(O)", "19 Irr Wb(O)"]);
        let a = &convert("s", &[c], SideScaling::PerSide { elements: 10 })[0];
        assert_eq!(a.elements, [(T::Knights, 2), (T::Blades, 3), (T::Warband, 5)]);
    }

    /// Fewer seats than types: the general's type is kept first, then the most numerous, and
    /// the sheet warns about the others.
    #[test]
    fn too_small_an_army_keeps_the_general_and_warns() {
        let c = cmd("Mixed", Rank::CInC, "Reg El(O)", &["6 Reg Sp(O)", "2 Reg Bd(O)", "3 Reg Ps(O)", "1 Reg LH(O)"]);
        let a = &convert("s", &[c], SideScaling::PerSide { elements: 3 })[0];
        assert_eq!(a.elements, [(T::Elephants, 1), (T::Spears, 1), (T::Shooters, 1)]);
        assert_eq!(a.general, T::Elephants);
        assert_eq!(a.warnings.len(), 1);
        assert!(a.warnings[0].contains("Light Horse") && a.warnings[0].contains("Blades"), "{}", a.warnings[0]);
        let lh = a.accounts.iter().find(|x| x.dbsa == T::LightHorse).unwrap();
        assert_eq!((lh.campaign_elements, lh.type_dbsa), (1, 0));
        assert_eq!(lh.share, 0.0);
    }

    /// Per side, the C-in-C leads even when listed after his sub-generals; with no C-in-C in
    /// the battle the highest rank present leads.
    #[test]
    fn per_side_general_is_the_highest_rank() {
        let sub = cmd("Mago", Rank::SubGeneral, "Reg Cv(O)", &["6 Reg Sp(O)"]);
        let ally = cmd("Sicels", Rank::AllyGeneral, "Irr LH(O)", &["4 Irr Ax(O)"]);
        let chief = cmd("Pyrrhus", Rank::CInC, "Reg El(O)", &["6 Reg Pk(O)"]);
        let a = &convert("epirus", &[sub.clone(), ally.clone(), chief], SideScaling::PerSide { elements: 12 })[0];
        assert_eq!(a.general, T::Elephants);
        assert!(a.general_from.starts_with("Pyrrhus (C-in-C)"), "{}", a.general_from);
        assert_eq!(a.size, 12);
        let b = &convert("epirus", &[ally, sub], SideScaling::PerSide { elements: 12 })[0];
        assert_eq!(b.general, T::Cavalry);
        assert!(b.general_from.starts_with("Mago (sub-general)"), "{}", b.general_from);
        assert!(convert("nobody", &[], SideScaling::PerSide { elements: 12 }).is_empty());
    }

    /// A command of `n` elements: a general and `n - 1` spearmen.
    fn of_size(name: &str, n: u32) -> CommandRoster {
        let rest = format!("{} Reg Sp(O)", n - 1);
        let groups: Vec<&str> = if n > 1 { vec![rest.as_str()] } else { Vec::new() };
        cmd(name, Rank::CInC, "Reg Cv(O)", &groups)
    }

    /// The battle's factor: the largest side gets the size asked for, down or up, every side
    /// its own strength times the factor rounded to the nearest element (halves up), none
    /// below one while it has elements.
    #[test]
    fn battle_scale_rounds_each_side_to_the_nearest_element() {
        let himera = BattleScale::new(12, &[20, 50]);
        assert_eq!(himera, BattleScale { table: 12, campaign: 50 });
        assert_eq!((himera.side_size(50), himera.side_size(20)), (12, 5), "4.8 rounds to 5");
        assert_eq!(himera.side_size(22), 5, "5.28 rounds to 5");
        assert_eq!(himera.side_size(1), 1, "0.24 would vanish: kept at one");
        assert_eq!(himera.side_size(0), 0);
        assert!(close(himera.factor(), 0.24));
        assert!(himera.describe().contains("12 DBSA elements for 50 campaign elements, one DBSA element for every 4.17"));
        let halves = BattleScale::new(12, &[24, 5, 7]);
        assert_eq!((halves.side_size(5), halves.side_size(7), halves.side_size(24)), (3, 4, 12), "2.5 and 3.5 round up");
        // A small battle is scaled up: the larger side is the twelve asked for.
        let small = BattleScale::new(12, &[8, 5]);
        assert!(!small.is_one_to_one());
        assert_eq!((small.side_size(8), small.side_size(5)), (12, 8), "7.5 rounds up");
        assert!(small.describe().contains("scaled up: 1.50 DBSA elements for each"), "{}", small.describe());
        let six_against_two = BattleScale::new(12, &[6, 2]);
        assert_eq!((six_against_two.side_size(6), six_against_two.side_size(2)), (12, 4));
        assert!(BattleScale::new(12, &[12, 5]).is_one_to_one());
        assert_eq!(BattleScale::new(0, &[30, 10]).side_size(30), 1, "a size of 0 is read as 1");
        assert_eq!(BattleScale::new(12, &[]).side_size(5), 0);
    }

    /// DS-06 and the conversion invariants under per-battle scaling, for every two default
    /// armies of a scenario, whole or cut down to their first command, at several sizes:
    /// each side has a general and a camp and accounts for every campaign element; the
    /// largest side gets exactly the size asked for, down or up; every other side is
    /// within half an element of its strength times the battle's one factor, so the odds
    /// are kept to within rounding; no side vanishes; no type is left out while there is room.
    #[test]
    fn ds_06_per_battle_keeps_every_element_and_the_odds() {
        let catalog = Catalog::embedded();
        let mut battles = 0;
        for scenario in &catalog.scenarios {
            let forces: Vec<(&str, &[CommandRoster])> =
                scenario.armies.iter().flat_map(|a| [(a.side.as_str(), &a.commands[..]), (a.side.as_str(), &a.commands[..1])]).collect();
            for (i, &(a_name, a)) in forces.iter().enumerate() {
                for &(b_name, b) in &forces[i + 1..] {
                    if a_name == b_name {
                        continue;
                    }
                    for size in [1, 4, 8, 12, 24, 1000] {
                        let sides = [
                            BattleSide { name: a_name, attacker: true, commands: a },
                            BattleSide { name: b_name, attacker: false, commands: b },
                        ];
                        let battle = convert_battle(&sides, Scaling::PerBattle { elements: size });
                        let scale = battle.scale.expect("per-battle scaling has a factor");
                        let largest = battle.sides.iter().map(|s| s.strength.campaign).max().unwrap();
                        assert_eq!(scale, BattleScale { table: size, campaign: largest });
                        for (side, given) in battle.sides.iter().zip(&sides) {
                            assert_eq!(side.armies.len(), 1);
                            let army = &side.armies[0];
                            let all: Vec<&CommandRoster> = given.commands.iter().collect();
                            let SideScaling::PerBattle { elements } = side.scaling else { panic!("{:?}", side.scaling) };
                            check_invariants(army, &all, elements);
                            assert_eq!(side.strength.table, army.size);
                            assert_eq!(side.strength.campaign, army.campaign_elements);
                            let exact = to_f32(army.campaign_elements) * to_f32(scale.table) / to_f32(largest);
                            if army.campaign_elements == largest {
                                assert_eq!(army.size, size, "the largest side gets the size");
                            } else if exact >= 0.5 {
                                assert!(
                                    (to_f32(army.size) - exact).abs() <= 0.5 + 1e-4,
                                    "{} at {size}: {} for {exact}",
                                    army.name,
                                    army.size
                                );
                            } else {
                                assert_eq!(army.size, 1, "a side never vanishes");
                            }
                        }
                        battles += 1;
                    }
                }
            }
        }
        assert!(battles >= 4 * 4 * 6, "only {battles} battles converted");
    }

    /// With every side at six DBSA elements or more, the rounding of per-battle scaling
    /// cannot move the odds by the tolerance: the umpire's sheet stays quiet for ordinary
    /// numbers. Swept over every two strengths up to 120 at sizes 12 and 24.
    #[test]
    fn per_battle_odds_stay_within_tolerance_at_ordinary_sizes() {
        let mut checked = 0;
        for size in [12, 24] {
            for largest in size..=120 {
                let scale = BattleScale::new(size, &[largest]);
                for small in 1..=largest {
                    let table = scale.side_size(small);
                    let odds = Odds::between("a".into(), "b".into(), (small, largest), (table, scale.side_size(largest))).unwrap();
                    if table >= 6 {
                        assert!(!odds.warn, "{small} v {largest} at {size}: {table} v {} moves {:.1} %", scale.table, odds.moved_percent);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    fn side<'a>(name: &'a str, attacker: bool, commands: &'a [CommandRoster]) -> BattleSide<'a> {
        BattleSide { name, attacker, commands }
    }

    /// Himera's odds, 20 Carthaginian elements against 50 Syracusan: twelve a side loses them
    /// and the check says so; one factor for the battle keeps them and the check is quiet.
    #[test]
    fn per_side_scaling_at_lopsided_odds_warns_and_per_battle_does_not() {
        let carthage = [of_size("Himilco", 20)];
        let syracuse = [of_size("Leptines", 20), of_size("Himera 1", 15), of_size("Himera 2", 15)];
        let sides = [side("Carthage", true, &carthage), side("Syracuse", false, &syracuse)];

        let per_side = convert_battle(&sides, Scaling::PerSide { elements: 12 });
        assert_eq!(per_side.scale, None);
        let odds = per_side.odds();
        assert_eq!(odds.len(), 1);
        assert_eq!((odds[0].campaign, odds[0].table), ((20, 50), (12, 12)));
        assert!(odds[0].warn && close(odds[0].moved_percent, 150.0), "{:?}", odds[0]);
        assert_eq!(odds[0].describe(), "Carthage to Syracuse: 20 : 50 (1 : 2.50) in the campaign, 12 : 12 (1 : 1.00) on the table.");
        let warning = odds[0].warning().unwrap();
        assert!(warning.contains("between Carthage and Syracuse by 150 %"), "{warning}");

        let per_battle = convert_battle(&sides, Scaling::default());
        let odds = per_battle.odds();
        assert_eq!((odds[0].campaign, odds[0].table), ((20, 50), (5, 12)));
        assert!(!odds[0].warn && odds[0].moved_percent < 5.0, "{:?}", odds[0]);
        assert_eq!(odds[0].warning(), None);
        // The odds read the same whichever side is named first.
        let reversed = convert_battle(&[sides[1], sides[0]], Scaling::PerSide { elements: 12 }).odds();
        assert!(close(reversed[0].moved_percent, 150.0));
    }

    /// Catana's odds, 16 against 8 and 16 of two allied sides: every two sides and the two
    /// camps are checked; per-side scaling breaks the allies' balance, one factor keeps all.
    #[test]
    fn odds_between_every_two_sides_and_the_camps() {
        let (a, b, c) = ([of_size("A", 16)], [of_size("B", 8)], [of_size("C", 16)]);
        let sides = [side("Attacker", true, &a), side("Ally", false, &b), side("Defender", false, &c)];
        let per_battle = convert_battle(&sides, Scaling::default());
        let tables: Vec<u32> = per_battle.sides.iter().map(|s| s.strength.table).collect();
        assert_eq!(tables, [12, 6, 12]);
        let odds = per_battle.odds();
        assert_eq!(odds.len(), 4, "three pairs and the camps");
        assert!(odds.iter().all(|o| !o.warn && o.moved_percent.abs() < 1e-3), "{odds:?}");
        assert_eq!(odds[3].first, "the attackers (Attacker)");
        assert_eq!(odds[3].second, "the defenders (Ally and Defender)");
        assert_eq!((odds[3].campaign, odds[3].table), ((16, 24), (12, 18)));

        let per_side = convert_battle(&sides, Scaling::PerSide { elements: 12 }).odds();
        let warned: Vec<&str> = per_side.iter().filter(|o| o.warn).map(|o| o.first.as_str()).collect();
        assert_eq!(warned, ["Attacker", "Ally", "the attackers (Attacker)"], "{per_side:?}");
        assert_eq!(per_side[2].second, "Defender");
        // The camps: 12 : 24 on the table against 16 : 24 in the campaign, a third apart.
        assert!((per_side[3].moved_percent - 100.0 / 3.0).abs() < 1e-3, "{:?}", per_side[3]);
        // Exactly the tolerance is not more than it.
        let edge = Odds::between("x".into(), "y".into(), (10, 10), (11, 10)).unwrap();
        assert!(close(edge.moved_percent, 10.0) && !edge.warn);
        assert!(Odds::between("x".into(), "y".into(), (100, 100), (111, 100)).unwrap().warn);
    }

    /// The default policy scales the whole battle by one factor, and the labels say what each
    /// policy does.
    #[test]
    fn scaling_default_and_labels() {
        assert_eq!(Scaling::default(), Scaling::PerBattle { elements: 12 });
        assert_eq!(Scaling::PerCommand { elements: 8 }.to_string(), "each command a DBSA army of 8 elements");
        assert_eq!(Scaling::OneToOne.label(), "one DBSA element per campaign element");
        assert_eq!(Scaling::PerSide { elements: 12 }.label(), "each side one DBSA army of 12 elements");
        assert!(Scaling::default().label().starts_with("the whole battle at one scale: the largest side one DBSA army of 12"));
        // A side's copy names neither the size chosen nor the factor under per-battle scaling.
        let side = Scaling::default().for_side(Some(&BattleScale::new(12, &[20, 50])), 20);
        assert_eq!(side, SideScaling::PerBattle { elements: 5 });
        assert!(!side.label().chars().any(|c| c.is_ascii_digit()), "{side}");
        assert_eq!(Scaling::PerSide { elements: 9 }.for_side(None, 50), SideScaling::PerSide { elements: 9 });
        assert_eq!(SideScaling::PerSide { elements: 9 }.label(), Scaling::PerSide { elements: 9 }.label());
    }
}
