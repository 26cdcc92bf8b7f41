//! Numbers in words a referee reads: "1 command", "2 commands".

/// `n` and the noun, plural but for one: `count(1, "command")` is "1 command",
/// `count(3, "command")` "3 commands". Nouns whose plural is not a plain `s` are given both
/// ways by [`count_as`].
pub fn count(n: impl TryInto<u64>, noun: &str) -> String {
    let n = n.try_into().unwrap_or(u64::MAX);
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// `n` and the noun, in its singular or its plural: `count_as(2, "die", "dice")`.
pub fn count_as(n: impl TryInto<u64>, one: &str, many: &str) -> String {
    let n = n.try_into().unwrap_or(u64::MAX);
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// A name as an owner, the one way every possessive is formed: "Carthage's"; an apostrophe
/// alone after a name ending in s: "Vandals'", "Pyrrhus'", "Belisarius'".
pub fn owner_of(name: &str) -> String {
    if name.ends_with('s') { format!("{name}'") } else { format!("{name}'s") }
}

/// The possessive of a side's name in running text: "Carthage's", "Pyrrhus'", and with its
/// article for a people named in the plural, "the Byzantines'".
pub fn possessive(side_name: &str) -> String {
    if is_people(side_name) { format!("the {}", owner_of(side_name)) } else { owner_of(side_name) }
}

/// A side's name in running text, with its article for a people named in the plural: "the
/// Byzantines", "Carthage", "Pyrrhus".
pub fn the_side(side_name: &str) -> String {
    if is_people(side_name) { format!("the {side_name}") } else { side_name.to_owned() }
}

/// A verb in the present agreeing with side names as its subject: "Carthage attacks",
/// "Pyrrhus attacks", "Byzantines attack", "Carthage and Syracuse hold".
pub fn agreeing(subject: &str, stem: &str) -> String {
    if is_people(subject) || subject.contains(" and ") { stem.to_owned() } else { format!("{stem}s") }
}

/// Whether a side's name is a people's, in the plural: a name ending in s but not in -us,
/// which is a man's (Pyrrhus).
fn is_people(side_name: &str) -> bool {
    side_name.ends_with('s') && !side_name.ends_with("us")
}

/// Names in running text: "Gelimer", "Gelimer and Ammatas", "Gelimer, Ammatas and Tzazon".
pub fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `text` with its first letter in capitals: "The Byzantines' …".
pub fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// How a refusal shows what it refuses: the first line of it, at most 60 characters, with
/// every control character written out (`\u{0}`), so that a pasted file or a stray byte
/// cannot flood or garble the one line of a refusal.
pub fn shown(text: &str) -> String {
    const MAX: usize = 60;
    let line = text.lines().next().unwrap_or_default();
    let mut out = String::new();
    for (n, c) in line.chars().enumerate() {
        if n == MAX {
            out.push('…');
            return out;
        }
        if c.is_control() {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    if line.len() < text.len() {
        out.push('…');
    }
    out
}

/// The ids nearest to `typed` among `ids`, the nearest first, at most three: those a slip of
/// the keyboard away (a letter or two wrong, missing or too many), and those whose name
/// (`names`: name, id) is what was typed, in any case and with spaces for dashes.
pub fn nearest<'a>(typed: &str, ids: impl Iterator<Item = &'a str>, names: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let key = |text: &str| text.trim().to_lowercase().replace([' ', '_'], "-");
    let typed = key(typed);
    let mut found: Vec<(usize, String)> = names.filter(|(name, _)| key(name) == typed).map(|(_, id)| (0, id.to_owned())).collect();
    let most = (typed.chars().count() / 4).max(2);
    for id in ids {
        let d = edit_distance(&typed, id);
        if d <= most && !found.iter().any(|(_, f)| f == id) {
            found.push((d, id.to_owned()));
        }
    }
    found.sort();
    found.into_iter().take(3).map(|(_, id)| id).collect()
}

/// "; did you mean `mare-africum`?" for a refusal, or nothing when nothing is near.
pub fn did_you_mean(nearest: &[String]) -> String {
    match nearest {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        [first @ .., last] => {
            let first: Vec<String> = first.iter().map(|id| format!("`{id}`")).collect();
            format!("; did you mean {} or `{last}`?", first.join(", "))
        }
    }
}

/// How many letters must be put in, taken out or changed to make `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(last + usize::from(ca != cb));
            last = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plural people's name takes an apostrophe alone, never "Vandals's"; so does a man's
    /// name ending in s, without the article.
    #[test]
    fn possessives_of_names_ending_in_s_take_an_apostrophe_alone() {
        assert_eq!(owner_of("Vandals"), "Vandals'");
        assert_eq!(owner_of("Carthage"), "Carthage's");
        assert_eq!(possessive("Byzantines"), "the Byzantines'");
        assert_eq!(possessive("Ostrogoths"), "the Ostrogoths'");
        assert_eq!(possessive("Pyrrhus"), "Pyrrhus'");
        assert_eq!(possessive("Syracuse"), "Syracuse's");
    }

    /// A man's name ending in s is one man: "Pyrrhus attacks", not "Pyrrhus attack".
    #[test]
    fn verbs_agree_with_a_man_a_city_a_people_and_a_pair() {
        assert_eq!(agreeing("Pyrrhus", "attack"), "attacks");
        assert_eq!(agreeing("Carthage", "attack"), "attacks");
        assert_eq!(agreeing("Byzantines", "attack"), "attack");
        assert_eq!(agreeing("Rome and Syracuse", "hold"), "hold");
    }

    #[test]
    fn one_is_singular_and_every_other_number_plural() {
        assert_eq!(count(1u32, "command"), "1 command");
        assert_eq!(count(0u32, "command"), "0 commands");
        assert_eq!(count(20u32, "element"), "20 elements");
        assert_eq!(count(1usize, "page"), "1 page");
        assert_eq!(count_as(1u32, "die", "dice"), "1 die");
        assert_eq!(count_as(3u32, "die", "dice"), "3 dice");
        assert_eq!(possessive("Byzantines"), "the Byzantines'");
        assert_eq!(possessive("Carthage"), "Carthage's");
    }

    #[test]
    fn a_refusal_shows_one_short_line_with_control_characters_written_out() {
        assert_eq!(shown("Syracuse"), "Syracuse");
        assert_eq!(shown(&"x".repeat(1_000_000)), format!("{}…", "x".repeat(60)));
        assert_eq!(shown("a\u{0}b\u{7}c"), "a\\u{0}b\\u{7}c");
        assert_eq!(shown("first\nsecond"), "first…");
    }

    /// a refused id lists the nearest valid ones: a slip of the keyboard, or the place's
    /// name typed for its id.
    #[test]
    fn x_06_a_refused_id_is_answered_with_the_nearest_ones() {
        let ids = ["mare-africum", "mare-sardoum", "zeugitana", "carthago"];
        let names = [("African Sea", "mare-africum"), ("Carthago (Carthage)", "carthago")];
        assert_eq!(nearest("mare-afrikum", ids.into_iter(), names.into_iter()), ["mare-africum"]);
        assert_eq!(nearest("African Sea", ids.into_iter(), names.into_iter()), ["mare-africum"]);
        assert_eq!(nearest("zeugitanna", ids.into_iter(), names.into_iter()), ["zeugitana"]);
        assert!(nearest("roma", ids.into_iter(), names.into_iter()).is_empty());
        assert_eq!(did_you_mean(&["a".to_owned()]), "; did you mean `a`?");
        assert_eq!(did_you_mean(&["a".to_owned(), "b".to_owned(), "c".to_owned()]), "; did you mean `a`, `b` or `c`?");
        assert_eq!(did_you_mean(&[]), "");
    }
}
