//! The hex map on paper: every hex outlined and numbered, its ground told apart by grey and
//! hatching (never colour, so a black-and-white printer keeps it), roads and rivers drawn from
//! hex centre to hex centre, where each road leads written where it leaves, and each side's
//! set-up hexes marked along its edge.
//!
//! Three ways to print it: fitted to a landscape page of the pack's paper ([`fitted_page`]),
//! whole on one A3 sheet at the system's own hex size, or at that size on A4 or Letter sheets
//! that overlap and join ([`full_size`]).

use serde::Serialize;

use crate::Paper;
use crate::hexmap::{Cover, HexMap, HexSystem};
use crate::pdf::{Document, Face, Ink, Page, line_height};

/// Across a hex's flat sides on the printed map at full size, in millimetres: room for a
/// counter of [`counter_mm`] and a margin round it.
pub fn hex_mm(system: HexSystem) -> f32 {
    match system {
        HexSystem::ArsBellum => 18.0,
        HexSystem::ALaCharge => 22.0,
    }
}

/// The side of a square counter, in millimetres.
pub fn counter_mm(system: HexSystem) -> f32 {
    match system {
        HexSystem::ArsBellum => 14.0,
        HexSystem::ALaCharge => 17.0,
    }
}

/// Who sets up where, for the marks and the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetupNames {
    pub attacker: String,
    pub defender: String,
}

/// How the map's grey and hatching show a ground.
fn fill(cover: Cover) -> (Option<Ink>, Option<(f32, f32)>) {
    match cover {
        Cover::Open => (None, None),
        Cover::Hill => (Some(Ink(0.12)), None),
        Cover::SteepHill => (Some(Ink(0.28)), None),
        Cover::Wood => (Some(Ink(0.22)), Some((1.2, 45.0))),
        Cover::Marsh => (Some(Ink(0.06)), Some((0.9, 0.0))),
        Cover::Rough => (Some(Ink(0.08)), Some((1.6, -45.0))),
        Cover::OliveGroves => (Some(Ink(0.1)), Some((1.6, 90.0))),
        Cover::City => (Some(Ink(0.5)), None),
        Cover::Town => (Some(Ink(0.38)), None),
        Cover::Village => (Some(Ink(0.3)), Some((1.4, 45.0))),
        Cover::River => (Some(Ink(0.16)), Some((0.7, 0.0))),
        Cover::Ford => (Some(Ink(0.08)), None),
        Cover::Sea => (Some(Ink(0.45)), Some((1.0, 30.0))),
    }
}

/// A short mark written in the hex, so the ground reads without the grey.
fn mark(cover: Cover) -> &'static str {
    match cover {
        Cover::Open => "",
        Cover::Hill => "hill",
        Cover::SteepHill => "steep",
        Cover::Wood => "wood",
        Cover::Marsh => "marsh",
        Cover::Rough => "rough",
        Cover::OliveGroves => "olives",
        Cover::City => "walls",
        Cover::Town => "town",
        Cover::Village => "village",
        Cover::River => "river",
        Cover::Ford => "ford",
        Cover::Sea => "sea",
    }
}

/// Millimetres to the foot of the table that fit `map` in `w` × `h` mm.
pub fn fit(map: &HexMap, w: f32, h: f32) -> f32 {
    let (ew, eh) = map.extent();
    (w / ew.max(0.01)).min(h / eh.max(0.01))
}

/// Millimetres to the foot of the table at the system's full size.
pub fn full_scale(map: &HexMap) -> f32 {
    hex_mm(map.system) / map.flat_feet
}

/// Draws the map with its top left corner at (x, y), `scale` mm to the foot of the table.
pub fn draw(page: &mut Page, x: f32, y: f32, scale: f32, map: &HexMap) {
    let at = |p: (f32, f32)| (x + p.0 * scale, y + p.1 * scale);
    let hex_w = map.flat_feet * scale;
    let number_pt = (hex_w * 0.24).clamp(3.2, 6.0);
    let mark_pt = (hex_w * 0.2).clamp(2.8, 5.0);
    // Ground first, then the grid over it.
    for (i, cell) in map.cells.iter().enumerate() {
        let pts: Vec<(f32, f32)> = map.corners(i).iter().map(|p| at(*p)).collect();
        let (grey, hatch) = fill(cell.cover);
        if grey.is_some() {
            page.polygon(&pts, grey, None);
        }
        if let Some((spacing, angle)) = hatch {
            page.hatch(&pts, spacing * hex_w / 10.0 + 0.6, angle, Ink(0.55), 0.12);
        }
    }
    for r in &map.rivers {
        let line: Vec<(f32, f32)> = r.hexes.iter().map(|&i| at(map.cells[i].centre)).collect();
        page.line(&line, Ink::BLACK, (hex_w * 0.2).max(0.8), None);
        page.line(&line, Ink(0.3), (hex_w * 0.13).max(0.5), None);
    }
    for r in &map.roads {
        let line: Vec<(f32, f32)> = r.hexes.iter().map(|&i| at(map.cells[i].centre)).collect();
        page.line(&line, Ink::WHITE, (hex_w * 0.14).max(0.7), None);
        page.line(&line, Ink::BLACK, (hex_w * 0.05).max(0.3), Some(&[1.2, 0.6]));
    }
    for (i, cell) in map.cells.iter().enumerate() {
        let pts: Vec<(f32, f32)> = map.corners(i).iter().map(|p| at(*p)).collect();
        page.polygon(&pts, None, Some((Ink(0.7), 0.15, None)));
        let (cx, cy) = at(cell.centre);
        let top = cy - hex_w * 0.3;
        let label_ink_white = matches!(cell.cover, Cover::City | Cover::Sea);
        if !cell.off_map() {
            if label_ink_white {
                let w = page.text_width(&cell.label, number_pt, Face::Regular);
                page.rect(cx - w / 2.0 - 0.3, top - number_pt * 0.3, w + 0.6, number_pt * 0.4, Some(Ink::WHITE), None);
            }
            page.text_centred(cx, top, number_pt, Face::Regular, &cell.label);
        }
        let m = mark(cell.cover);
        if !m.is_empty() {
            let w = page.text_width(m, mark_pt, Face::Regular);
            page.rect(cx - w / 2.0 - 0.3, cy + hex_w * 0.3 - mark_pt * 0.3, w + 0.6, mark_pt * 0.38, Some(Ink::WHITE), None);
            page.text_centred(cx, cy + hex_w * 0.34, mark_pt, Face::Regular, m);
        }
    }
    // Set-up hexes: A for the attacker's, D for the defender's, in a ring at the centre.
    for (hexes, letter) in [(&map.attacker_setup, "A"), (&map.defender_setup, "D")] {
        for &i in hexes {
            let (cx, cy) = at(map.cells[i].centre);
            page.circle(cx, cy, hex_w * 0.12, Some(Ink::WHITE), Some((Ink::BLACK, 0.2)));
            page.text_centred(cx, cy + hex_w * 0.045, (hex_w * 0.22).clamp(3.0, 5.5), Face::Bold, letter);
        }
    }
    // Where each road leads, at its edge hex.
    let (ew, _) = map.extent();
    let (left, right) = (x, x + ew * scale);
    for r in &map.roads {
        let Some(e) = r.exit else { continue };
        let cell = &map.cells[e];
        let (cx, cy) = at(cell.centre);
        let text =
            if r.label.is_empty() || r.label == r.to_name { format!("to {}", r.to_name) } else { format!("to {} {}", r.label, r.to_name) };
        let pt = (hex_w * 0.26).clamp(4.0, 6.5);
        let w = page.text_width(&text, pt, Face::Bold);
        // Outside the map at the top and foot; inside it, over the hex, at the sides, so the
        // label never runs off the paper.
        let (tx, ty) = if cell.row == 0 {
            (cx - w / 2.0, cy - hex_w * 0.62)
        } else if cell.row + 1 == map.rows {
            (cx - w / 2.0, cy + hex_w * 0.78)
        } else if cell.col == 0 {
            (cx - hex_w * 0.45, cy - hex_w * 0.12)
        } else {
            (cx + hex_w * 0.45 - w, cy - hex_w * 0.12)
        };
        let tx = tx.clamp(left, (right - w).max(left));
        page.rect(tx - 0.4, ty - pt * 0.32, w + 0.8, pt * 0.42, Some(Ink::WHITE), None);
        page.text(tx, ty, pt, Face::Bold, &text);
    }
}

/// The key to the map: each ground on it, the system's terrain it counts as and what that
/// does; roads, rivers, the set-up marks. Returns the height used.
pub fn key(page: &mut Page, x: f32, y: f32, width: f32, map: &HexMap, names: &SetupNames) -> f32 {
    let pt = 7.0;
    let lh = line_height(pt);
    let mut yy = y + 3.5;
    page.text(x, yy, 8.5, Face::Bold, &format!("Key — {}", map.system.name()));
    yy += lh + 0.5;
    yy = page.paragraph(x, yy, width, pt, Face::Regular, &format!("Scale: {}.", map.system.scale_note())) + 0.8;
    let present: Vec<Cover> = Cover::ALL.into_iter().filter(|c| map.cells.iter().any(|h| h.cover == *c)).collect();
    for cover in present {
        let sw = 6.0;
        let pts = [(x, yy - 3.0), (x + sw, yy - 3.0), (x + sw, yy + 0.8), (x, yy + 0.8)];
        let (grey, hatch) = fill(cover);
        page.polygon(&pts, grey.or(Some(Ink::WHITE)), Some((Ink(0.6), 0.15, None)));
        if let Some((s, a)) = hatch {
            page.hatch(&pts, s + 0.6, a, Ink(0.55), 0.12);
        }
        let text = format!("{} — {}", cover.name(), system_terrain(map.system, cover));
        let end = page.paragraph(x + sw + 2.0, yy, width - sw - 2.0, pt, Face::Regular, &text);
        yy = end.max(yy + lh) + 0.8;
    }
    let roads = "Road (dashed, hex centre to hex centre): enter along it for half a movement point; where it leaves the map, the place it leads to.";
    yy = page.paragraph(x, yy, width, pt, Face::Regular, roads) + 0.8;
    let marks = format!(
        "Set-up hexes: the attacker, {}, in those marked A along the bottom edge; the defender, {}, in those marked D along the top.",
        names.attacker, names.defender,
    );
    yy = page.paragraph(x, yy, width, pt, Face::Regular, &marks);
    yy - y
}

/// What `cover` counts as in `system`, and what that terrain does.
pub fn system_terrain(system: HexSystem, cover: Cover) -> String {
    match system {
        HexSystem::ArsBellum => match cover.ars_bellum() {
            None => "off the map: no unit enters it".to_owned(),
            Some(t) => {
                let e = t.effect();
                format!("{}: {}; in melee {}; fire at it {}", t.name(), e.cost(), e.melee(), e.firing())
            }
        },
        HexSystem::ALaCharge => match cover.a_la_charge() {
            None => "off the map: no unit enters it".to_owned(),
            Some(t) => {
                let e = t.effect();
                format!("{}: {}; in combat {}", t.name(), e.cost(), e.combat())
            }
        },
    }
}

/// A landscape page of `doc`'s paper with the whole map fitted on it and its key.
pub fn fitted_page(doc: &Document, map: &HexMap, names: &SetupNames, title: &str, subtitle: &str) -> Page {
    let mut page = doc.page(true);
    let (pw, ph) = (page.width, page.height);
    let m = 10.0;
    page.text(m, m + 4.5, 13.0, Face::Bold, title);
    let top = page.paragraph(m, m + 9.5, pw - 2.0 * m, 7.5, Face::Regular, subtitle) + 1.0;
    let bottom = ph - 18.0;
    let key_w = 70.0;
    let scale = fit(map, pw - 2.0 * m - key_w - 4.0, bottom - top);
    draw(&mut page, m, top, scale, map);
    let (ew, _) = map.extent();
    key(&mut page, m + ew * scale + 4.0, top, pw - m - (m + ew * scale + 4.0), map, names);
    page
}

/// How the map is printed at full size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FullSize {
    /// One A3 sheet.
    A3,
    /// Sheets of this paper that overlap and join.
    Tiled(Paper),
}

/// Margin kept round a full-size sheet, in millimetres.
const SHEET_MARGIN: f32 = 10.0;
/// How far two joining sheets overlap, in millimetres.
const OVERLAP: f32 = 12.0;
/// Room for the line at the head of each sheet.
const HEAD: f32 = 8.0;

/// The map at the system's own hex size, on one A3 sheet or on sheets that join; each sheet
/// says which it is and where it joins. The key goes on a sheet of its own at the end.
pub fn full_size(map: &HexMap, names: &SetupNames, title: &str, how: FullSize) -> Document {
    let paper = match how {
        FullSize::A3 => Paper::A3,
        FullSize::Tiled(p) => p,
    };
    let mut doc = Document::new(title, paper);
    let scale = full_scale(map);
    let (ew, eh) = map.extent();
    let (mw, mh) = (ew * scale, eh * scale);
    // Sheets across and down, landscape or portrait, whichever needs fewer.
    let plan = |landscape: bool| {
        let page = doc.page(landscape);
        let (uw, uh) = (page.width - 2.0 * SHEET_MARGIN, page.height - 2.0 * SHEET_MARGIN - HEAD - 8.0);
        let across = sheets(mw, uw);
        let down = sheets(mh, uh);
        (across * down, landscape, across, down, uw, uh)
    };
    let (_, landscape, across, down, uw, uh) = [plan(true), plan(false)].into_iter().min_by_key(|p| (p.0, !p.1)).unwrap_or(plan(true));
    let count = across * down;
    let mut k = 0;
    for row in 0..down {
        for col in 0..across {
            k += 1;
            let mut page = doc.page(landscape);
            let ox = f32::from(u16::try_from(col).unwrap_or(0)) * (uw - OVERLAP);
            let oy = f32::from(u16::try_from(row).unwrap_or(0)) * (uh - OVERLAP);
            let (x0, y0) = (SHEET_MARGIN, SHEET_MARGIN + HEAD);
            let head = if count == 1 {
                format!("{title} — the whole map at full size ({:.0} mm a hex)", hex_mm(map.system))
            } else {
                let joins = join_note(col, row, across, down);
                format!("{title} — sheet {k} of {count} (row {}, column {}): {joins}", row + 1, col + 1)
            };
            page.text(SHEET_MARGIN, SHEET_MARGIN + 4.0, 8.0, Face::Bold, &head);
            page.save_clip(x0, y0, uw.min(mw - ox), uh.min(mh - oy));
            draw(&mut page, x0 - ox, y0 - oy, scale, map);
            page.restore();
            // The overlap band each sheet shares with the next, lightly shaded on the sheet that
            // goes underneath, and crop marks at its corners.
            if col + 1 < across {
                let bx = x0 + uw - OVERLAP;
                page.line(&[(bx, y0 - 2.0), (bx, y0 + uh.min(mh - oy) + 2.0)], Ink(0.6), 0.2, Some(&[1.0, 1.0]));
            }
            if row + 1 < down {
                let by = y0 + uh - OVERLAP;
                page.line(&[(x0 - 2.0, by), (x0 + uw.min(mw - ox) + 2.0, by)], Ink(0.6), 0.2, Some(&[1.0, 1.0]));
            }
            page.footer = Some(format!("{title} — full-size map"));
            doc.add(page);
        }
    }
    let mut page = doc.page(landscape);
    page.text(SHEET_MARGIN, SHEET_MARGIN + 4.0, 8.0, Face::Bold, &format!("{title} — key"));
    let w = page.width - 2.0 * SHEET_MARGIN;
    key(&mut page, SHEET_MARGIN, SHEET_MARGIN + HEAD, w.min(180.0), map, names);
    if count > 1 {
        page.paragraph(
            SHEET_MARGIN,
            page.height - 40.0,
            w.min(180.0),
            7.5,
            Face::Regular,
            &format!(
                "Joining the sheets: trim each sheet along its dotted line and lay it over the next so the hexes meet; the sheets overlap by {OVERLAP:.0} mm. Sheets are numbered along each row, top row first."
            ),
        );
    }
    page.footer = Some(format!("{title} — full-size map"));
    doc.add(page);
    doc
}

fn sheets(length: f32, usable: f32) -> u32 {
    let mut n = 1;
    while f32::from(u16::try_from(n).unwrap_or(u16::MAX)) * (usable - OVERLAP) + OVERLAP < length && n < 50 {
        n += 1;
    }
    n
}

fn join_note(col: u32, row: u32, across: u32, down: u32) -> String {
    let mut parts = Vec::new();
    if col + 1 < across {
        parts.push("trim at the dotted line on the right and lay it over the next sheet");
    }
    if row + 1 < down {
        parts.push("trim at the dotted line at the foot and lay it over the sheet below");
    }
    if parts.is_empty() { "the last sheet: it goes underneath the others".to_owned() } else { parts.join("; ") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::ground;
    use crate::pdf::extract_text;
    use crate::section::{Defence, section};
    use referee_campaign::map::Edge;
    use referee_campaign::{Catalog, NodeId};

    fn syracuse(system: HexSystem) -> HexMap {
        let map = Catalog::embedded().map("sicily").unwrap().clone();
        let g = ground(&map, NodeId(31)).unwrap();
        HexMap::new(system, &g, section(Edge::West, Defence::Central, None))
    }

    fn names() -> SetupNames {
        SetupNames { attacker: "Carthaginians".to_owned(), defender: "Syracusans".to_owned() }
    }

    /// AB-08, AC-02: the printed map carries every land hex's number, where each road leads,
    /// and a key naming the system's terrain for each ground on it.
    #[test]
    fn ab_08_ac_02_the_printed_map_numbers_every_hex_and_keys_its_ground() {
        for system in HexSystem::ALL {
            let hexes = syracuse(system);
            let mut doc = Document::new("test", Paper::A4);
            let page = fitted_page(&doc, &hexes, &names(), "Syracuse", "sub");
            doc.add(page);
            let text = extract_text(&doc.finish()).unwrap().concat();
            for c in hexes.cells.iter().filter(|c| !c.off_map()) {
                assert!(text.contains(&c.label), "{}: {} missing", system.name(), c.label);
            }
            for r in hexes.roads.iter().filter(|r| r.exit.is_some()) {
                assert!(text.contains(&format!("to {}", r.label)), "{}: road to {}", system.name(), r.to_name);
            }
            assert!(text.contains("walled city"), "{text}");
            let walls = if system == HexSystem::ArsBellum { "Walls: 1 MP" } else { "Palisade: +1 MP" };
            assert!(text.contains(walls), "{text}");
            assert!(text.contains("Set-up hexes: the attacker, Carthaginians"), "{text}");
        }
    }

    /// The full-size map: one A3 sheet and its key, or sheets that join, each saying which it is.
    #[test]
    fn the_full_size_map_prints_whole_or_on_sheets_that_join() {
        let hexes = syracuse(HexSystem::ArsBellum);
        let a3 = full_size(&hexes, &names(), "Syracuse", FullSize::A3);
        assert_eq!(a3.page_count(), 2);
        let tiles = full_size(&hexes, &names(), "Syracuse", FullSize::Tiled(Paper::A4));
        let n = tiles.page_count() - 1;
        assert!(n >= 2, "{n} sheets");
        let pages = extract_text(&tiles.finish()).unwrap();
        for (k, p) in pages[..n].iter().enumerate() {
            assert!(p.contains(&format!("sheet {} of {n}", k + 1)), "{p}");
        }
        assert!(pages[n].contains("Joining the sheets"), "{}", pages[n]);
    }
}
