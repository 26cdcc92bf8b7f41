//! Words every part of the window puts the same way: a side's name, who may give a side's
//! orders, and a refusal or a log line as the referee reads it.

use referee_campaign::core::viewer::Viewer;
use referee_campaign::ids::SideId;

/// A side's name from a campaign's list of sides, or its id where the list lacks it.
pub(crate) fn side_name(sides: &[(SideId, String)], side: &SideId) -> String {
    sides.iter().find(|(s, _)| s == side).map_or_else(|| side.to_string(), |(_, name)| name.clone())
}

/// Whether the viewer may give this side's orders: the umpire all, a side its own.
pub(crate) fn may_order(viewer: &Viewer, side: &SideId) -> bool {
    match viewer {
        Viewer::Umpire => true,
        Viewer::Side(s) => s == side,
    }
}

/// `text` cut to at most `max` characters, with an ellipsis where it was cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_owned(),
    }
}

/// `text` as the referee reads it: the rulebook's rule IDs (MG-15, BE-13) stay, the program's
/// own requirement IDs go, with the dash or brackets that carried them.
pub(crate) fn for_referee(text: &str) -> String {
    let bytes = text.as_bytes();
    let is_id = |at: usize| {
        bytes.get(at) == Some(&b'X')
            && bytes.get(at + 1) == Some(&b'-')
            && bytes.get(at + 2).is_some_and(u8::is_ascii_digit)
            && bytes.get(at + 3).is_some_and(u8::is_ascii_digit)
            && !bytes.get(at + 4).is_some_and(u8::is_ascii_alphanumeric)
            && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if !is_id(i) {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let mut end = i + 4;
        // "(MG-15, X-02)": the comma before goes; "(X-02, MG-15)": the one after.
        if out.ends_with(", ") {
            out.truncate(out.len() - 2);
        } else if text[end..].starts_with(", ") {
            end += 2;
        } else if out.ends_with(" — ") {
            out.truncate(out.len() - " — ".len());
        } else if out.ends_with(" (") && text[end..].starts_with(')') {
            out.truncate(out.len() - 2);
            end += 1;
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::for_referee;

    #[test]
    fn internal_ids_go_and_rule_ids_stay() {
        assert_eq!(for_referee("every roll needs a purpose for the log — X-02"), "every roll needs a purpose for the log");
        assert_eq!(for_referee("packs are written by the umpire (X-04)."), "packs are written by the umpire.");
        assert_eq!(for_referee("retreat refused (MG-15, X-02)"), "retreat refused (MG-15)");
        assert_eq!(for_referee("retreat refused (X-02, MG-15)"), "retreat refused (MG-15)");
        assert_eq!(for_referee("Entella joins Carthage — MG-06"), "Entella joins Carthage — MG-06");
        assert_eq!(for_referee("BOX-12 and X-1 and X-123 stay"), "BOX-12 and X-1 and X-123 stay");
        assert_eq!(for_referee("d6 = 4 — X-02; then Syracuse"), "d6 = 4; then Syracuse");
    }
}
