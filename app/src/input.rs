//! What comes in from outside the program — an order, a result, a roster, a campaign's events
//! to import, from a file or standard input — read exactly: never more than a size far above
//! any real one, and as JSON that names no key twice (serde would keep the last and say
//! nothing). Each refusal is one sentence.

use std::collections::BTreeSet;
use std::fmt;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, bail};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// The most an order, a list of orders, a result or a roster may hold: a real one is a few
/// kilobytes.
pub const INPUT_BYTES: u64 = 4 << 20;

/// The most a campaign's events to import may hold: a long campaign's are tens of megabytes.
pub const IMPORT_BYTES: u64 = 256 << 20;

fn mib(bytes: u64) -> u64 {
    bytes >> 20
}

/// The text of `path` (`-`: standard input), refused beyond `limit` bytes, as a folder, or
/// when it is not text; `what` names it for the refusal ("the order", "the events").
pub fn read_limited(path: &Path, what: &str, limit: u64) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    let (name, read) = if path.as_os_str() == "-" {
        ("standard input".to_owned(), std::io::stdin().lock().take(limit + 1).read_to_end(&mut bytes))
    } else {
        if path.is_dir() {
            bail!("{} is a folder: give the file that holds {what}", path.display());
        }
        let file = std::fs::File::open(path).with_context(|| format!("cannot read {what} from {}", path.display()))?;
        (path.display().to_string(), file.take(limit + 1).read_to_end(&mut bytes))
    };
    read.with_context(|| format!("cannot read {what} from {name}"))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        bail!("{name} holds more than {} MiB: no {} is that long, so none of it was read", mib(limit), what.trim_start_matches("the "));
    }
    String::from_utf8(bytes)
        .map_err(|e| anyhow::anyhow!("{name} is not text: its bytes stop being UTF-8 at byte {}", e.utf8_error().valid_up_to()))
}

/// `text`, given on the command line itself, refused beyond the same size as a file.
pub fn limited_text<'a>(text: &'a str, what: &str) -> anyhow::Result<&'a str> {
    if u64::try_from(text.len()).unwrap_or(u64::MAX) > INPUT_BYTES {
        bail!("{what} is longer than {} MiB: none is that long", mib(INPUT_BYTES));
    }
    Ok(text)
}

/// A reader's refusal with the program's number types said in words: "expected u8" reads
/// "expected a whole number from 0 to 255".
pub fn plain_numbers(refusal: &str) -> String {
    const TYPES: [(&str, &str); 6] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i64", "a whole number from -9223372036854775808 to 9223372036854775807"),
    ];
    TYPES.iter().fold(refusal.to_owned(), |text, (rust, words)| {
        // Only where the type stands as a word of its own, followed by the end or a
        // character that cannot continue a word.
        let pattern = format!("expected {rust}");
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find(&pattern) {
            let after = &rest[at + pattern.len()..];
            out.push_str(&rest[..at]);
            if after.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                out.push_str(&pattern);
            } else {
                out.push_str("expected ");
                out.push_str(words);
            }
            rest = after;
        }
        out.push_str(rest);
        out
    })
}

/// Refuses JSON that names a key twice in one object, anywhere in it: read into the
/// program's types, the last would win and the first be dropped without a word.
pub fn no_key_twice(text: &str) -> Result<(), serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_str(text);
    Any.deserialize(&mut reader)?;
    reader.end()
}

/// Any JSON value, walked for keys given twice.
struct Any;

impl<'de> DeserializeSeed<'de> for Any {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Any {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Any)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("the key `{}` is given twice", referee_campaign::core::words::shown(&key))));
            }
            map.next_value_seed(Any)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_given_twice_is_refused_wherever_it_is() {
        assert!(no_key_twice(r#"{"type":"pass","side":"vandals"}"#).is_ok());
        assert!(no_key_twice(r#"[{"a":1},{"a":2}]"#).is_ok(), "the same key in two objects is two keys");
        let e = no_key_twice(r#"{"type":"pass","side":"vandals","side":"byzantines"}"#).unwrap_err().to_string();
        assert!(e.contains("the key `side` is given twice") && e.contains("line 1"), "{e}");
        let deep = no_key_twice(r#"{"result":{"losses":[{"outcome":1,"outcome":2}]}}"#).unwrap_err().to_string();
        assert!(deep.contains("`outcome` is given twice"), "{deep}");
        assert!(no_key_twice(r#"{"a":1} {"b":2}"#).is_err(), "one value only");
    }

    /// X-06: a refusal never names the program's number types.
    #[test]
    fn x_06_number_types_are_said_in_words() {
        let e = serde_json::from_str::<u8>("300").unwrap_err().to_string();
        assert!(e.contains("expected u8"), "serde's own words changed: {e}");
        assert_eq!(plain_numbers(&e), e.replace("expected u8", "expected a whole number from 0 to 255"));
        assert_eq!(plain_numbers("expected i32 at line 1"), "expected a whole number from -2147483648 to 2147483647 at line 1");
        assert_eq!(plain_numbers("expected u8x, expected u32"), "expected u8x, expected a whole number from 0 to 4294967295");
    }

    #[test]
    fn input_beyond_its_size_is_refused_and_a_folder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.json");
        std::fs::write(&big, vec![b' '; usize::try_from(INPUT_BYTES).unwrap() + 1]).unwrap();
        let e = read_limited(&big, "the order", INPUT_BYTES).unwrap_err().to_string();
        assert!(e.contains("more than 4 MiB: no order is that long"), "{e}");
        let e = read_limited(dir.path(), "the order", INPUT_BYTES).unwrap_err().to_string();
        assert!(e.ends_with("is a folder: give the file that holds the order"), "{e}");
        let fine = dir.path().join("fine.json");
        std::fs::write(&fine, "{}").unwrap();
        assert_eq!(read_limited(&fine, "the order", INPUT_BYTES).unwrap(), "{}");
    }
}
