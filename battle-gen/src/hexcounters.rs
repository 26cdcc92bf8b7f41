//! The counter sheets of the hex packs: a side's counters to cut out, and their backs on the
//! page after, mirrored about the page so that the two pages printed on one sheet, flipped on
//! its long edge, put each back behind its front on any paper.
//!
//! Each side's counters have a light colour of their own, as the rules' counters have their
//! army's background, and a border a black-and-white printer keeps: plain for the attacker and
//! the sides beside it, double for the defenders. Who gets which follows the battle's list of
//! sides, which every reader of the battle has, so every copy prints the same and a key at the
//! head of each sheet says which is which.

use crate::hexmap::HexSystem;
use crate::hexpage::counter_mm;
use crate::hexunits::{Counter, CounterRole, HexArmy};
use crate::pdf::{Document, Face, Ink, Page, Tint, line_height};
use crate::spec::{Role, SpecHead};

/// The sides' colours in the battle's order: light, so black print on them reads.
const COLOURS: [(&str, Tint); 6] = [
    ("sand", Tint(0.95, 0.87, 0.66)),
    ("green", Tint(0.77, 0.91, 0.72)),
    ("blue", Tint(0.75, 0.86, 0.98)),
    ("rose", Tint(0.98, 0.8, 0.8)),
    ("lilac", Tint(0.87, 0.81, 0.96)),
    ("grey", Tint(0.86, 0.86, 0.86)),
];

/// How much deeper a back is than its front, so a flipped counter shows at a glance.
const BACK_SHADE: f32 = 0.9;

/// Room kept round the sheet, in millimetres.
const MARGIN: f32 = 15.0;
/// Between two counters: room to cut, and for the backs' colour to run into.
const GAP: f32 = 2.0;
/// How far a back's colour runs past its lines, so a sheet printed a little off shows no
/// white edge once cut.
const BLEED: f32 = GAP / 2.0;
/// From a counter's edge to its writing, clear of a double border.
const PAD: f32 = 2.0;

/// What tells one side's counters from another's without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Border {
    /// The cutting line alone.
    Plain,
    /// The cutting line and a heavier line inside it.
    Double,
}

impl Border {
    pub fn name(self) -> &'static str {
        match self {
            Border::Plain => "plain border",
            Border::Double => "double border",
        }
    }
}

/// How one side's counters look.
#[derive(Debug, Clone, PartialEq)]
pub struct CounterStyle {
    pub side: String,
    pub role: Role,
    /// The letters before each counter's number.
    pub tag: String,
    pub colour: &'static str,
    pub tint: Tint,
    pub border: Border,
}

/// The first four letters of a side's name, printed on its counters.
pub fn tag(side: &str) -> String {
    side.chars().filter(|c| c.is_alphanumeric()).take(4).collect()
}

/// The style of the side named `side`: the colour of its place in the battle's list (attacker
/// first), a plain border for an attacker and a double one for a defender. A side the list
/// lacks takes the colour after the listed ones and the role the head gives it.
pub fn counter_style(head: &SpecHead, side: &str) -> CounterStyle {
    let listed = head.sides.iter().position(|s| s.name == side);
    let role = match listed {
        Some(i) => head.sides[i].role,
        None if head.attacker == side => Role::Attacker,
        None => Role::Defender,
    };
    let (colour, tint) = COLOURS[listed.unwrap_or(head.sides.len()) % COLOURS.len()];
    let border = match role {
        Role::Attacker => Border::Plain,
        Role::Defender => Border::Double,
    };
    CounterStyle { side: side.to_owned(), role, tag: tag(side), colour, tint, border }
}

/// Every side's style for the key: the battle's sides in order, and `own` after them should
/// the list lack it.
fn key_styles(head: &SpecHead, own: &str) -> Vec<CounterStyle> {
    let mut styles: Vec<CounterStyle> = head.sides.iter().map(|s| counter_style(head, &s.name)).collect();
    if !styles.iter().any(|s| s.side == own) {
        styles.push(counter_style(head, own));
    }
    styles
}

/// How many counters of side `size` fit in `length` millimetres, with a gap between them;
/// at least one.
fn fitting(length: f32, size: f32) -> usize {
    (2..=200usize).take_while(|&n| f32::from(u16::try_from(n).unwrap_or(u16::MAX)) * (size + GAP) - GAP <= length).last().unwrap_or(1)
}

fn mm(n: usize) -> f32 {
    f32::from(u16::try_from(n).unwrap_or(u16::MAX))
}

/// What the head of a sheet says under its title.
fn note(back: bool) -> &'static str {
    if back {
        "The back of the page before. Printed two-sided and flipped on the long edge, or glued behind the fronts turned over \
         on their long edge, each back lies behind its front: the backs are mirrored left to right. Disorganised or reduced \
         sides; a back with nothing written on it belongs to a counter of one step."
    } else {
        "Print this page and the next on the two sides of one sheet, flipping on the long edge (long-edge binding), or glue \
         the next page behind this one turned over on its long edge: each back then lies behind its front. Cut along the \
         outer lines. In black and white the border tells the sides apart."
    }
}

/// The key's sample counter, and the height of its line for each side.
const KEY_SAMPLE: f32 = 6.0;
const KEY_LINE: f32 = 7.0;

/// The page left blank before a counter sheet that would start on the back of a sheet.
const BLANK_NOTE: &str =
    "Left blank on purpose: the counter sheet that follows starts on a sheet of its own when this file is printed two-sided.";

/// A side's counters to print and cut out: on each sheet the fronts, then (where any counter
/// on it has a back) the backs on the next page, mirrored about the page; each page headed by
/// the key to every side's colour and border.
pub fn counter_sheet(doc: &mut Document, system: HexSystem, army: &HexArmy, head: &SpecHead, footer: &str) {
    let size = counter_mm(system);
    let style = counter_style(head, &army.side);
    let styles = key_styles(head, &army.side);
    let probe = doc.page(false);
    let (pw, ph) = (probe.width, probe.height);
    let text_w = pw - 2.0 * MARGIN;
    let note_lines = [false, true].map(|b| probe.wrap(note(b), 7.5, Face::Regular, text_w).len()).into_iter().max().unwrap_or(1);
    let key_top = MARGIN + 9.5 + mm(note_lines) * line_height(7.5);
    // The same on the fronts and the backs, so each back lies level with its front.
    let top = key_top + mm(styles.len()) * KEY_LINE + 2.0;
    let per_row = fitting(text_w, size);
    let per_page = per_row * fitting(ph - MARGIN - 8.0 - top, size);
    // The grid centred across the page: its mirror, the backs, falls within the margins too.
    let left = (pw - (mm(per_row) * (size + GAP) - GAP)) / 2.0;
    let pages = army.counters.len().div_ceil(per_page);
    for (k, chunk) in army.counters.chunks(per_page).enumerate() {
        // Fronts on an odd page, so that a file printed two-sided from its first page puts
        // each front and its backs on the two faces of one sheet.
        if doc.page_count() % 2 == 1 {
            let mut blank = doc.page(false);
            blank.paragraph(MARGIN, MARGIN + 4.0, text_w, 7.5, Face::Regular, BLANK_NOTE);
            blank.footer = Some(footer.to_owned());
            doc.add(blank);
        }
        for back in [false, true] {
            if back && chunk.iter().all(|c| c.reduced.is_none()) {
                continue;
            }
            let mut page = doc.page(false);
            let which = if back { "backs" } else { "fronts" };
            let sheet = if pages > 1 { format!(", sheet {} of {pages}", k + 1) } else { String::new() };
            page.text(MARGIN, MARGIN + 4.0, 11.0, Face::Bold, &format!("{}: {} counters, {which}{sheet}", army.side, system.name()));
            page.paragraph(MARGIN, MARGIN + 9.5, text_w, 7.5, Face::Regular, note(back));
            key(&mut page, key_top, &styles);
            for (i, c) in chunk.iter().enumerate() {
                let front_x = left + mm(i % per_row) * (size + GAP);
                let x = if back { pw - front_x - size } else { front_x };
                let y = top + mm(i / per_row) * (size + GAP);
                draw_counter(&mut page, x, y, size, system, c, &style, back);
            }
            page.footer = Some(footer.to_owned());
            doc.add(page);
        }
    }
}

/// The key to the sides' counters, a line each from `y`: a sample, the side, its role, its
/// counters' letters, colour and border.
fn key(page: &mut Page, y: f32, styles: &[CounterStyle]) {
    for (i, s) in styles.iter().enumerate() {
        let yy = y + mm(i) * KEY_LINE;
        face(page, MARGIN, yy, KEY_SAMPLE, s, false);
        let text = format!("{} ({}), counters marked {}: {}, {}", s.side, s.role.name(), s.tag, s.colour, s.border.name());
        page.text(MARGIN + KEY_SAMPLE + 2.0, yy + KEY_SAMPLE / 2.0 + 1.1, 8.0, Face::Regular, &text);
    }
}

/// A counter's colour and lines, `s` mm square from (x, y): a back deeper and running past its
/// lines by the bleed.
fn face(page: &mut Page, x: f32, y: f32, s: f32, style: &CounterStyle, back: bool) {
    if back {
        page.tinted_rect(x - BLEED, y - BLEED, s + 2.0 * BLEED, s + 2.0 * BLEED, style.tint.shaded(BACK_SHADE));
    } else {
        page.tinted_rect(x, y, s, s, style.tint);
    }
    page.rect(x, y, s, s, None, Some((Ink::BLACK, 0.3)));
    if style.border == Border::Double {
        let inset = 1.0;
        page.rect(x + inset, y + inset, s - 2.0 * inset, s - 2.0 * inset, None, Some((Ink::BLACK, 0.5)));
    }
}

/// `size` points, or smaller until `text` fits in `width` millimetres.
fn fitted(page: &Page, text: &str, size: f32, face: Face, width: f32) -> f32 {
    let w = page.text_width(text, size, face);
    if w > width { size * width / w } else { size }
}

#[expect(clippy::too_many_arguments, reason = "one counter and where it goes")]
fn draw_counter(page: &mut Page, x: f32, y: f32, s: f32, system: HexSystem, c: &Counter, style: &CounterStyle, back: bool) {
    face(page, x, y, s, style, back);
    if back && c.reduced.is_none() {
        return;
    }
    // Sizes in points for a counter `s` mm square, shrunk where the writing is long.
    let room = s - 2.0 * PAD;
    let small = s * 0.3;
    let centred = |page: &mut Page, base: f32, size: f32, face: Face, text: &str| {
        let pt = fitted(page, text, size, face, room);
        page.text_centred(x + s / 2.0, y + base, pt, face, text);
    };
    let number = format!("{} {}", style.tag, c.number);
    page.text(x + PAD, y + PAD + 1.4, fitted(page, &number, small, Face::Regular, room), Face::Regular, &number);
    let label = match c.role {
        CounterRole::Leader { .. } => c.label.chars().take(10).collect::<String>(),
        _ => c.label.clone(),
    };
    centred(page, s * 0.44, s * 0.4, Face::Bold, &label);
    let value = if back { c.reduced.unwrap_or(c.value) } else { c.value };
    let values = match (system, c.role) {
        (HexSystem::ArsBellum, _) => {
            let star = if c.range > 0 { "*" } else { "" };
            let mp = if back { c.back_mp } else { c.mp };
            format!("{value}{star}-{mp}")
        }
        (HexSystem::ALaCharge, CounterRole::Baggage) => format!("{value}"),
        (HexSystem::ALaCharge, _) => {
            let range = if c.range > 0 { format!("({})", c.range) } else { String::new() };
            format!("{value}{range}-{}", c.mp)
        }
    };
    centred(page, s * 0.72, s * 0.62, Face::Bold, &values);
    let foot = if back {
        if system == HexSystem::ArsBellum { "disorg.".to_owned() } else { "reduced".to_owned() }
    } else {
        let mut marks: Vec<String> = c.skills.iter().map(|k| mark(k).to_owned()).collect();
        if c.charge > 0 {
            marks.insert(0, format!("charge +{}", c.charge));
        }
        marks.join(" ")
    };
    if !foot.is_empty() {
        centred(page, s - PAD - 0.2, small, Face::Regular, &foot);
    }
}

/// The short mark of a skill or trait on a counter.
fn mark(skill: &str) -> &str {
    match skill {
        "elite" => "Elite",
        "recruits" => "Recruits",
        "javelins" => "JAVE",
        "impetuosity" => "Imp.",
        "harassment" => "Harass",
        "dodge" => "Dodge",
        "unseizable" => "Unseiz.",
        "no-hand-to-hand-penalty" => "Swords",
        "feigned-flight" => "F.flight",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use referee_campaign::ids::SideId;

    use super::*;
    use crate::spec::SpecSide;

    fn head(sides: &[(&str, Role)]) -> SpecHead {
        let listed: Vec<SpecSide> =
            sides.iter().map(|&(name, role)| SpecSide { id: SideId::new(name.to_lowercase()), name: name.to_owned(), role }).collect();
        SpecHead {
            campaign: "Belisarius".to_owned(),
            scenario: "Italy".to_owned(),
            turn: 3,
            battle: 2,
            day: 1,
            place: "Naples".to_owned(),
            location: "Campania".to_owned(),
            attacker: sides[0].0.to_owned(),
            defenders: sides[1..].iter().map(|s| s.0.to_owned()).collect(),
            sides: listed,
        }
    }

    /// AC-01: each side's counters get their own colour in the battle's order, and the border
    /// follows the role: the attacker and a side beside it plain, the defenders double. The
    /// same head gives the same styles to every reader.
    #[test]
    fn ac_01_styles_follow_the_battles_order_of_sides() {
        let h =
            head(&[("Byzantines", Role::Attacker), ("Moors", Role::Attacker), ("Ostrogoths", Role::Defender), ("Naples", Role::Defender)]);
        let styles: Vec<CounterStyle> = h.sides.iter().map(|s| counter_style(&h, &s.name)).collect();
        let summary: Vec<(&str, &str, Border)> = styles.iter().map(|s| (s.tag.as_str(), s.colour, s.border)).collect();
        assert_eq!(
            summary,
            [
                ("Byza", "sand", Border::Plain),
                ("Moor", "green", Border::Plain),
                ("Ostr", "blue", Border::Double),
                ("Napl", "rose", Border::Double)
            ]
        );
        assert_eq!(counter_style(&h, "Ostrogoths"), styles[2], "the same every time");
        for s in &styles {
            assert!(
                s.tint.lightness() >= 0.75 && s.tint.shaded(BACK_SHADE).lightness() >= 0.7,
                "{}: black print must read on it",
                s.colour
            );
        }
        // A side the list lacks: the colour after the listed ones, the role the head names.
        let lone = counter_style(&h, "Vandals");
        assert_eq!((lone.colour, lone.border), ("lilac", Border::Double));
        assert_eq!(key_styles(&h, "Vandals").len(), 5);
        assert_eq!(key_styles(&h, "Moors").len(), 4);
    }

    #[test]
    fn counters_fit_with_gaps_between() {
        assert_eq!(fitting(180.0, 14.0), 11, "11 × 14 mm and 10 gaps of 2 mm make 174 mm");
        assert_eq!(fitting(174.0, 14.0), 11);
        assert_eq!(fitting(173.9, 14.0), 10);
        assert_eq!(fitting(5.0, 17.0), 1, "one counter at least");
    }
}
