//! What the command line reads besides its arguments: orders, results, rosters and events
//! from files or standard input, read exactly (a key given twice, a field the program does
//! not keep, a battle's number that is not the battle's are refused by name), and the
//! choices its options name (paper, tabletop, scaling, dice and modifiers).

use std::path::Path;

use anyhow::{Context, bail};
use referee_battle_gen::dbsa::Scaling;
use referee_battle_gen::pack::PackOptions;
use referee_campaign::core::dice::{DiceSpec, Modifier};
use serde::Serialize;

/// A value of one of the engine's kebab-case enums from its name, as clap already checked it.
pub(crate) fn named<T: serde::de::DeserializeOwned>(name: &str) -> anyhow::Result<T> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).with_context(|| format!("`{name}` is not a choice here"))
}

/// The text of a file, or of standard input for `-`.
pub(crate) fn read_input(path: &Path, what: &str) -> anyhow::Result<String> {
    crate::input::read_limited(path, what, crate::input::INPUT_BYTES)
}

/// The text of an order: given on the command line, `-` for standard input, or a file.
pub(crate) fn order_text(order: Option<&str>, file: Option<&Path>) -> anyhow::Result<String> {
    Ok(match (order, file) {
        (_, Some(path)) => read_input(path, "the order")?,
        (Some("-"), None) => read_input(Path::new("-"), "the order")?,
        (Some(json), None) => crate::input::limited_text(json, "the order")?.to_owned(),
        (None, None) => bail!("give the order as JSON text, `-` for standard input, or --file"),
    })
}

/// JSON from outside read exactly: a key given twice is refused, not left to the last.
pub(crate) fn strict_json(text: &str, what: &str) -> anyhow::Result<()> {
    crate::input::no_key_twice(text).with_context(|| format!("{what} is not valid JSON"))
}

/// Reads one order object or an array of them, in the orders of the campaign's engine.
pub(crate) fn parse_orders<T: serde::de::DeserializeOwned>(text: &str) -> anyhow::Result<Vec<T>> {
    strict_json(text, "the order")?;
    let value: serde_json::Value = serde_json::from_str(text).context("the order is not valid JSON")?;
    let one = |v: serde_json::Value, which: String| -> anyhow::Result<T> {
        let shown = echo(&v.to_string());
        if !v.is_object() {
            bail!("{which}`{shown}` is not an order: an order is a JSON object with its \"type\" (`referee order --help` lists them)");
        }
        let kind = v.get("type").and_then(serde_json::Value::as_str).map(str::to_owned);
        serde_json::from_value(v).map_err(|e| match kind {
            // A type the program knows, with a field amiss: say which, and where its fields are.
            Some(kind) if !e.to_string().starts_with("unknown variant") => {
                let a = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
                let e = crate::input::plain_numbers(&e.to_string());
                anyhow::anyhow!("{which}`{shown}` is not {a} `{kind}` order as the program reads them: {e} (`referee order --help {kind}` shows its fields)")
            }
            _ => anyhow::Error::from(e).context(format!("{which}`{shown}` is not an order this program knows")),
        })
    };
    match value {
        serde_json::Value::Array(items) if items.is_empty() => bail!("the list of orders is empty"),
        serde_json::Value::Array(items) => {
            let n = items.len();
            items.into_iter().enumerate().map(|(i, v)| one(v, format!("order {} of {n}, ", i + 1))).collect()
        }
        other => Ok(vec![one(other, String::new())?]),
    }
}

/// The first field of `given` that reading it into the program's types and writing it back
/// (`read`) lost: a field the types do not have. Its path, like `[3].event.roll.sorce`.
pub(crate) fn unknown_field(given: &serde_json::Value, read: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value;
    match (given, read) {
        (Value::Object(g), Value::Object(r)) => g.iter().find_map(|(k, v)| {
            let here = if at.is_empty() { k.clone() } else { format!("{at}.{k}") };
            match r.get(k) {
                None => Some(here),
                Some(w) => unknown_field(v, w, &here),
            }
        }),
        (Value::Array(g), Value::Array(r)) => {
            g.iter().zip(r).enumerate().find_map(|(i, (v, w))| unknown_field(v, w, &format!("{at}[{i}]")))
        }
        _ => None,
    }
}

/// What a refusal quotes of the input: its first line, cut to a length a terminal shows.
pub(crate) fn echo(text: &str) -> String {
    referee_campaign::core::words::shown(text)
}

/// A campaign's events from the JSON of `referee log --json`. Stored events read leniently,
/// so that older campaigns open; a file to import is input, and a field it has that the
/// events do not keep is refused by name.
pub(crate) fn read_events<T: serde::de::DeserializeOwned + Serialize>(
    file: &Path,
    text: &str,
    given: &serde_json::Value,
    what: impl Fn() -> String,
) -> anyhow::Result<Vec<T>> {
    let events: Vec<T> = serde_json::from_str(text).with_context(&what)?;
    let read = serde_json::to_value(&events)?;
    if let Some(path) = unknown_field(given, &read, "") {
        bail!("{}: unknown field `{path}`: the events of a campaign have no such field", file.display());
    }
    Ok(events)
}

/// A battle's result names both sides' losses: no side enters it.
pub(crate) fn refuse_side_result(side: Option<&str>) -> anyhow::Result<()> {
    match side {
        Some(side) => bail!(
            "a battle's result is the referee's to enter, not a side's (`--as {}`): it names both sides' losses; a side's own choices after a battle are orders (`order --as`)",
            echo(side)
        ),
        None => Ok(()),
    }
}

/// The dice and modifiers of `referee roll`, checked against the typed-in values.
pub(crate) fn roll_parts(dice: &str, values: &[u8], modifiers: &[String]) -> anyhow::Result<(DiceSpec, Vec<Modifier>)> {
    let spec: DiceSpec = dice.parse()?;
    let modifiers = modifiers.iter().map(|m| parse_modifier(m)).collect::<anyhow::Result<Vec<_>>>()?;
    if !values.is_empty() && values.len() != usize::from(spec.count) {
        let verb = if values.len() == 1 { "was" } else { "were" };
        bail!(
            "{spec} needs {} typed in, but {} {verb} given",
            referee_campaign::core::words::count(spec.count, "value"),
            referee_campaign::core::words::count(values.len(), "value")
        );
    }
    Ok((spec, modifiers))
}

/// Reads "+1:held the field" or "-2:reason".
pub(crate) fn parse_modifier(text: &str) -> anyhow::Result<Modifier> {
    let (value, reason) = text.split_once(':').with_context(|| format!("modifier `{text}` must read like +1:held the field"))?;
    let value: i32 = value
        .trim()
        .trim_start_matches('+')
        .parse()
        .with_context(|| format!("modifier `{text}` must start with a whole number like +1 or -2"))?;
    if reason.trim().is_empty() {
        bail!("modifier `{text}` needs a reason after the colon");
    }
    Ok(Modifier { value, reason: reason.trim().to_owned() })
}

/// A result file read as `T`: the battle's number put in where the file leaves it out, and
/// refused where it names another battle. Read from the text itself where the file gives the
/// number, so that a refusal names the line; `shape` shows what the file should look like.
pub(crate) fn numbered_result<T: serde::de::DeserializeOwned>(
    text: &str,
    battle: u32,
    shape: &str,
    what: impl Fn() -> String,
) -> anyhow::Result<T> {
    strict_json(text, "the result")?;
    let mut value: serde_json::Value = serde_json::from_str(text).context("the result is not valid JSON")?;
    let Some(object) = value.as_object_mut() else { bail!("the result must be a JSON object like {shape}") };
    let numbered = match object.get("battle").map(serde_json::Value::as_u64) {
        None => {
            object.insert("battle".into(), battle.into());
            false
        }
        Some(Some(n)) if n == u64::from(battle) => true,
        Some(Some(other)) => bail!("the file is the result of battle {other}, not battle {battle}"),
        Some(None) => bail!("the file's `battle` must be the battle's number as `show` lists it ({battle}), or left out"),
    };
    let read = if numbered { serde_json::from_str(text) } else { serde_json::from_value(value) };
    read.map_err(|e| anyhow::anyhow!(crate::input::plain_numbers(&e.to_string()))).with_context(what)
}

/// A hex wargame's result file (see [`numbered_result`]).
pub(crate) fn hex_result(text: &str, battle: u32, file: &Path) -> anyhow::Result<referee_battle_gen::hexresult::HexResult> {
    numbered_result(text, battle, r#"{"outcome": …, "sides": [{"side": …, "lost": […]}]}"#, || {
        format!("{} does not read as a hex wargame's result (see docs/hex-tabletops.md, “The result”)", file.display())
    })
}

/// The options of a pack as the command line gives them.
pub(crate) fn pack_options(paper: &str, system: &str, scaling: &str, size: u32, figures: &str) -> anyhow::Result<PackOptions> {
    let scaling = dbsa_scaling(scaling, size)?;
    Ok(PackOptions { paper: named(paper)?, system: named(system)?, scaling, figures: named(figures)?, hex_units: None })
}

/// A pack's folder, and what `--overwrite` asks of files already in it.
pub(crate) fn destination(folder: &Path, overwrite: bool) -> referee_battle_gen::pack::Destination<'_> {
    use referee_battle_gen::pack::Existing;
    referee_battle_gen::pack::Destination { folder, existing: if overwrite { Existing::Replace } else { Existing::Refuse } }
}

/// A pack refused for files already in its folder says how the command line replaces them.
pub(crate) fn overwrite_hint(e: anyhow::Error) -> anyhow::Error {
    match e.downcast_ref::<referee_battle_gen::pack::WriteError>() {
        Some(referee_battle_gen::pack::WriteError::Exists { .. }) => anyhow::anyhow!("{e} with --overwrite"),
        _ => e,
    }
}

/// The hex wargame the command line names, with the conversion table its pack was counted by.
pub(crate) fn hex_tabletop(
    system: &str,
    table: referee_battle_gen::hexunits::HexUnits,
) -> anyhow::Result<referee_battle_gen::hexpack::HexTabletop> {
    use referee_battle_gen::hexmap::HexSystem;
    let system = match system {
        "ars-bellum" => HexSystem::ArsBellum,
        "a-la-charge" => HexSystem::ALaCharge,
        other => bail!("`{other}` is not a hex wargame (ars-bellum, a-la-charge)"),
    };
    Ok(referee_battle_gen::hexpack::HexTabletop::new(system, table))
}

/// The DBSA scaling the command line names, with its army size.
pub(crate) fn dbsa_scaling(scaling: &str, size: u32) -> anyhow::Result<Scaling> {
    if size == 0 {
        bail!("a DBSA army needs at least one element (--size)");
    }
    Ok(match scaling {
        "per-side" => Scaling::PerSide { elements: size },
        "per-command" => Scaling::PerCommand { elements: size },
        "one-to-one" => Scaling::OneToOne,
        _ => Scaling::PerBattle { elements: size },
    })
}
