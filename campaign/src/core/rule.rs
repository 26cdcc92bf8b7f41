//! Rule identifiers, typed: a refusal, a roll or a due loss names its rule by a constant, so
//! a misspelt ID does not compile and code compares rules, not strings.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The rule book a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Rules every campaign shares: store, dice, views, input.
    X,
    MagnaGraecia,
    /// The DBSA conversion of battle packs.
    Dbsa,
    Belisarius,
    ArsBellum,
    ALaCharge,
}

impl Family {
    /// The prefix the rule list writes, e.g. `MG`.
    pub const fn prefix(self) -> &'static str {
        match self {
            Family::X => "X",
            Family::MagnaGraecia => "MG",
            Family::Dbsa => "DS",
            Family::Belisarius => "BE",
            Family::ArsBellum => "AB",
            Family::ALaCharge => "AC",
        }
    }
}

/// One rule of the rule list, e.g. `MG-29`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId {
    pub family: Family,
    pub number: u8,
}

macro_rules! rule_ids {
    ($($name:ident = $family:ident $number:literal,)*) => {
        impl RuleId {
            $(pub const $name: RuleId = RuleId { family: Family::$family, number: $number };)*
        }
        /// Every rule of the list, in its order.
        pub const ALL: &[RuleId] = &[$(RuleId::$name),*];
    };
}

rule_ids! {
    MG_01 = MagnaGraecia 1,
    MG_02 = MagnaGraecia 2,
    MG_03 = MagnaGraecia 3,
    MG_04 = MagnaGraecia 4,
    MG_05 = MagnaGraecia 5,
    MG_06 = MagnaGraecia 6,
    MG_07 = MagnaGraecia 7,
    MG_08 = MagnaGraecia 8,
    MG_09 = MagnaGraecia 9,
    MG_10 = MagnaGraecia 10,
    MG_11 = MagnaGraecia 11,
    MG_12 = MagnaGraecia 12,
    MG_13 = MagnaGraecia 13,
    MG_14 = MagnaGraecia 14,
    MG_15 = MagnaGraecia 15,
    MG_16 = MagnaGraecia 16,
    MG_17 = MagnaGraecia 17,
    MG_18 = MagnaGraecia 18,
    MG_19 = MagnaGraecia 19,
    MG_20 = MagnaGraecia 20,
    MG_21 = MagnaGraecia 21,
    MG_22 = MagnaGraecia 22,
    MG_23 = MagnaGraecia 23,
    MG_24 = MagnaGraecia 24,
    MG_25 = MagnaGraecia 25,
    MG_26 = MagnaGraecia 26,
    MG_27 = MagnaGraecia 27,
    MG_28 = MagnaGraecia 28,
    MG_29 = MagnaGraecia 29,
    MG_30 = MagnaGraecia 30,
    MG_31 = MagnaGraecia 31,
    MG_32 = MagnaGraecia 32,
    MG_33 = MagnaGraecia 33,
    MG_34 = MagnaGraecia 34,
    MG_35 = MagnaGraecia 35,
    MG_36 = MagnaGraecia 36,
    MG_37 = MagnaGraecia 37,
    BE_01 = Belisarius 1,
    BE_02 = Belisarius 2,
    BE_03 = Belisarius 3,
    BE_04 = Belisarius 4,
    BE_05 = Belisarius 5,
    BE_06 = Belisarius 6,
    BE_07 = Belisarius 7,
    BE_08 = Belisarius 8,
    BE_09 = Belisarius 9,
    BE_10 = Belisarius 10,
    BE_11 = Belisarius 11,
    BE_12 = Belisarius 12,
    BE_13 = Belisarius 13,
    BE_14 = Belisarius 14,
    BE_15 = Belisarius 15,
    BE_16 = Belisarius 16,
    BE_17 = Belisarius 17,
    BE_18 = Belisarius 18,
    BE_19 = Belisarius 19,
    BE_20 = Belisarius 20,
    BE_21 = Belisarius 21,
    BE_22 = Belisarius 22,
    BE_23 = Belisarius 23,
    BE_24 = Belisarius 24,
    BE_25 = Belisarius 25,
    BE_26 = Belisarius 26,
    BE_27 = Belisarius 27,
    BE_28 = Belisarius 28,
    BE_29 = Belisarius 29,
    BE_30 = Belisarius 30,
    BE_31 = Belisarius 31,
    BE_32 = Belisarius 32,
    BE_33 = Belisarius 33,
    BE_34 = Belisarius 34,
    BE_35 = Belisarius 35,
    BE_36 = Belisarius 36,
    BE_37 = Belisarius 37,
    BE_38 = Belisarius 38,
    BE_39 = Belisarius 39,
    BE_40 = Belisarius 40,
    BE_41 = Belisarius 41,
    BE_42 = Belisarius 42,
    BE_43 = Belisarius 43,
    BE_44 = Belisarius 44,
    BE_45 = Belisarius 45,
    BE_46 = Belisarius 46,
    BE_47 = Belisarius 47,
    BE_48 = Belisarius 48,
    BE_49 = Belisarius 49,
    BE_50 = Belisarius 50,
    BE_51 = Belisarius 51,
    BE_52 = Belisarius 52,
    BE_53 = Belisarius 53,
    BE_54 = Belisarius 54,
    DS_01 = Dbsa 1,
    DS_02 = Dbsa 2,
    DS_03 = Dbsa 3,
    DS_04 = Dbsa 4,
    DS_05 = Dbsa 5,
    DS_06 = Dbsa 6,
    AB_01 = ArsBellum 1,
    AB_02 = ArsBellum 2,
    AB_03 = ArsBellum 3,
    AB_04 = ArsBellum 4,
    AB_05 = ArsBellum 5,
    AB_06 = ArsBellum 6,
    AB_07 = ArsBellum 7,
    AB_08 = ArsBellum 8,
    AC_01 = ALaCharge 1,
    AC_02 = ALaCharge 2,
    AC_03 = ALaCharge 3,
    AC_04 = ALaCharge 4,
    AC_05 = ALaCharge 5,
    AC_06 = ALaCharge 6,
    AC_07 = ALaCharge 7,
    AC_08 = ALaCharge 8,
    X_01 = X 1,
    X_02 = X 2,
    X_03 = X 3,
    X_04 = X 4,
    X_05 = X 5,
    X_06 = X 6,
    X_07 = X 7,
    X_08 = X 8,
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{:02}", self.family.prefix(), self.number)
    }
}

impl FromStr for RuleId {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL.iter().copied().find(|r| r.to_string() == s.trim()).ok_or_else(|| UnknownRule(s.to_owned()))
    }
}

/// Text read as a rule's id that names no rule of the rule list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a rule of the rule list")]
pub struct UnknownRule(pub String);

impl Serialize for RuleId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RuleId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_id_reads_back_as_written() {
        for rule in ALL {
            assert_eq!(rule.to_string().parse::<RuleId>(), Ok(*rule));
        }
        assert_eq!(RuleId::MG_29.to_string(), "MG-29");
        assert_eq!(RuleId::X_02.to_string(), "X-02");
        assert_eq!(serde_json::to_string(&RuleId::BE_54).unwrap(), "\"BE-54\"");
        assert!("MG-99".parse::<RuleId>().is_err());
    }
}
