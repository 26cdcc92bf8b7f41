//! The hex map on paper: every hex outlined and numbered, its ground told apart by grey and
//! hatching (never colour, so a black-and-white printer keeps it), roads and rivers drawn from
//! hex centre to hex centre, where each road leads written where it leaves (in a band above or
//! below the grid, or over the edge hex at the sides), always whole on the drawn map and on one
//! sheet, and each side's set-up hexes marked along its edge.
//!
//! Three ways to print it: fitted to a landscape page of the pack's paper ([`fitted_page`]),
//! whole on one A3 sheet at the system's own hex size with its key beside or below it, or at
//! that size on A4 or Letter sheets that overlap and join, the key after them ([`full_size`]).

use serde::Serialize;

use crate::Paper;
use crate::hexmap::{Cover, HexMap, HexRoad, HexSystem};
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

/// Room above and below the grid, in millimetres, for the places the roads leaving by the top
/// and the foot of the map lead to.
pub const LABEL_BAND: f32 = 5.0;

/// Width and height of the map as drawn at `scale` mm to the foot: the grid, and the bands for
/// the roads' labels above and below it.
pub fn drawn_size(map: &HexMap, scale: f32) -> (f32, f32) {
    let (ew, eh) = map.extent();
    (ew * scale, eh * scale + 2.0 * LABEL_BAND)
}

/// Millimetres to the foot of the table that fit `map` as drawn in `w` × `h` mm.
pub fn fit(map: &HexMap, w: f32, h: f32) -> f32 {
    let (ew, eh) = map.extent();
    (w / ew.max(0.01)).min((h - 2.0 * LABEL_BAND).max(1.0) / eh.max(0.01))
}

/// Millimetres to the foot of the table at the system's full size.
pub fn full_scale(map: &HexMap) -> f32 {
    hex_mm(map.system) / map.flat_feet
}

/// A part of the drawn map that one sheet shows: left, top, width and height in millimetres
/// from the drawn map's top left corner.
pub type Window = [f32; 4];

/// Draws the map with its top left corner (the top of the band over the grid) at (x, y),
/// `scale` mm to the foot of the table.
pub fn draw(page: &mut Page, x: f32, y: f32, scale: f32, map: &HexMap) {
    let (w, h) = drawn_size(map, scale);
    draw_in(page, x, y, scale, map, &[[0.0, 0.0, w, h]]);
}

/// [`draw`], for a map that sheets show in parts, the `windows`: each road's label is kept
/// whole inside one of them, the one it needs to move least for.
pub fn draw_in(page: &mut Page, x: f32, y: f32, scale: f32, map: &HexMap, windows: &[Window]) {
    let grid_y = y + LABEL_BAND;
    let at = |p: (f32, f32)| (x + p.0 * scale, grid_y + p.1 * scale);
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
    // Where each road leads: beside its edge hex, in the band above or below the grid for a
    // road that leaves by the top or the foot, over the hex for one that leaves by a side.
    let (mw, mh) = drawn_size(map, scale);
    let pt = label_pt(hex_w);
    let (above, height) = (pt * 0.36, pt * 0.46);
    for r in &map.roads {
        let Some(e) = r.exit else { continue };
        let cell = &map.cells[e];
        let (cx, cy) = at(cell.centre);
        let text = road_label(r);
        let w = page.text_width(&text, pt, Face::Bold);
        let in_band = (LABEL_BAND - height) / 2.0 + above;
        let (tx, ty) = if cell.row == 0 {
            (cx - w / 2.0, y + in_band)
        } else if cell.row + 1 == map.rows {
            (cx - w / 2.0, y + mh - LABEL_BAND + in_band)
        } else if cell.col == 0 {
            (cx - hex_w * 0.45, cy - hex_w * 0.12)
        } else {
            (cx + hex_w * 0.45 - w, cy - hex_w * 0.12)
        };
        // The label's box, moved as little as it takes to lie whole on the drawn map and on
        // one sheet.
        let boxed = [tx - 0.4 - x, ty - above - y, w + 0.8, height];
        let [bx, by, ..] = keep_inside(boxed, &[[0.0, 0.0, mw, mh]]);
        let [bx, by, ..] = keep_inside([bx, by, boxed[2], boxed[3]], windows);
        let (tx, ty) = (x + bx + 0.4, y + by + above);
        page.rect(tx - 0.4, ty - above, w + 0.8, height, Some(Ink::WHITE), None);
        page.text(tx, ty, pt, Face::Bold, &text);
    }
}

/// The size of a road's label, in points, on hexes `hex_w` mm across.
fn label_pt(hex_w: f32) -> f32 {
    (hex_w * 0.26).clamp(4.0, 6.5)
}

/// What a road's label says: `to 09 Cephaloedium`, or `to Northern Byzacium` where the
/// campaign numbers no places.
pub fn road_label(r: &HexRoad) -> String {
    if r.label.is_empty() || r.label == r.to_name { format!("to {}", r.to_name) } else { format!("to {} {}", r.label, r.to_name) }
}

/// The box `b` (left, top, width, height) moved as little as it takes to lie inside one of
/// `windows` that is large enough for it; left where it is when there are none.
fn keep_inside(b: Window, windows: &[Window]) -> Window {
    let moved = |w: &Window| {
        let x = b[0].clamp(w[0], (w[0] + w[2] - b[2]).max(w[0]));
        let y = b[1].clamp(w[1], (w[1] + w[3] - b[3]).max(w[1]));
        [x, y, b[2], b[3]]
    };
    let shift = |m: &Window| (m[0] - b[0]).abs() + (m[1] - b[1]).abs();
    // A window too small for the box (a last sheet's sliver) is used only where none is larger.
    let fits = |w: &&Window| w[2] >= b[2] && w[3] >= b[3];
    let least = |among: &mut dyn Iterator<Item = &Window>| among.map(moved).min_by(|p, q| shift(p).total_cmp(&shift(q)));
    least(&mut windows.iter().filter(fits)).or_else(|| least(&mut windows.iter())).unwrap_or(b)
}

/// One entry of the key.
enum KeyEntry {
    Heading(String),
    Para(String),
    /// A ground's grey and hatching, and what it is.
    Swatch(Cover, String),
}

/// Size of the key's text, in points.
const KEY_PT: f32 = 7.0;
/// A swatch's width and the gap after it, in millimetres.
const SWATCH: f32 = 6.0;
const SWATCH_GAP: f32 = 2.0;

/// The key to the map, entry by entry: each ground on it, the system's terrain it counts as
/// and what that does; roads, the set-up marks.
fn key_entries(map: &HexMap, names: &SetupNames) -> Vec<KeyEntry> {
    let mut out =
        vec![KeyEntry::Heading(format!("Key — {}", map.system.name())), KeyEntry::Para(format!("Scale: {}.", map.system.scale_note()))];
    for cover in Cover::ALL.into_iter().filter(|c| map.cells.iter().any(|h| h.cover == *c)) {
        out.push(KeyEntry::Swatch(cover, format!("{} — {}", cover.name(), system_terrain(map.system, cover))));
    }
    out.push(KeyEntry::Para(
        "Road (dashed, hex centre to hex centre): enter along it for half a movement point; where it leaves the map, the place it leads to."
            .to_owned(),
    ));
    out.push(KeyEntry::Para(format!(
        "Set-up hexes: the attacker, {}, in those marked A along the bottom edge; the defender, {}, in those marked D along the top. \
         No side sets up in a river, a ford or a marsh.",
        names.attacker, names.defender,
    )));
    out
}

impl KeyEntry {
    /// From the baseline the entry starts on to the one after it, `width` mm wide.
    fn height(&self, page: &Page, width: f32) -> f32 {
        let lh = line_height(KEY_PT);
        let lines = |text: &str, w: f32| {
            let n = u16::try_from(page.wrap(text, KEY_PT, Face::Regular, w).len()).unwrap_or(u16::MAX);
            f32::from(n) * lh
        };
        match self {
            KeyEntry::Heading(_) => line_height(8.5) + 0.5,
            KeyEntry::Para(text) => lines(text, width) + 0.8,
            KeyEntry::Swatch(_, text) => lines(text, width - SWATCH - SWATCH_GAP).max(lh) + 0.8,
        }
    }

    fn draw(&self, page: &mut Page, x: f32, y: f32, width: f32) {
        match self {
            KeyEntry::Heading(text) => page.text(x, y, 8.5, Face::Bold, text),
            KeyEntry::Para(text) => {
                page.paragraph(x, y, width, KEY_PT, Face::Regular, text);
            }
            KeyEntry::Swatch(cover, text) => {
                let pts = [(x, y - 3.0), (x + SWATCH, y - 3.0), (x + SWATCH, y + 0.8), (x, y + 0.8)];
                let (grey, hatch) = fill(*cover);
                page.polygon(&pts, grey.or(Some(Ink::WHITE)), Some((Ink(0.6), 0.15, None)));
                if let Some((s, a)) = hatch {
                    page.hatch(&pts, s + 0.6, a, Ink(0.55), 0.12);
                }
                page.paragraph(x + SWATCH + SWATCH_GAP, y, width - SWATCH - SWATCH_GAP, KEY_PT, Face::Regular, text);
            }
        }
    }
}

/// Gap between two columns of the key, in millimetres.
const KEY_GAP: f32 = 6.0;

/// The key laid out in `columns` columns in the box at (x, y), `width` × `height` mm, filling
/// each column before the next: where each entry's first baseline goes, and the columns'
/// width; `None` when it does not fit.
fn lay_key(page: &Page, entries: &[KeyEntry], (x, y, width, height): (f32, f32, f32, f32), columns: u16) -> Option<(Vec<(f32, f32)>, f32)> {
    let columns = columns.max(1);
    let col_w = (width - KEY_GAP * f32::from(columns - 1)) / f32::from(columns);
    let first = y + 3.5;
    let (mut col, mut yy) = (0u16, first);
    let mut at = Vec::new();
    for e in entries {
        let h = e.height(page, col_w);
        // The entry's last line must end inside the box.
        if yy + h - line_height(KEY_PT) + 1.5 > y + height && yy > first {
            col += 1;
            yy = first;
        }
        if col >= columns || yy + h - line_height(KEY_PT) + 1.5 > y + height {
            return None;
        }
        at.push((x + f32::from(col) * (col_w + KEY_GAP), yy));
        yy += h;
    }
    Some((at, col_w))
}

/// Draws the key in the box at (x, y), `width` × `height` mm, in as few columns of at least
/// `least` mm as it fits in; `false` (and nothing drawn) when it does not fit.
fn key_in(page: &mut Page, (x, y, width, height): (f32, f32, f32, f32), least: f32, map: &HexMap, names: &SetupNames) -> bool {
    let entries = key_entries(map, names);
    let most = (1..=8u16).take_while(|&n| f32::from(n) * (least + KEY_GAP) - KEY_GAP <= width).last().unwrap_or(1);
    let Some((at, col_w)) = (1..=most).find_map(|n| lay_key(page, &entries, (x, y, width, height), n)) else { return false };
    for (e, (ex, ey)) in entries.iter().zip(at) {
        e.draw(page, ex, ey, col_w);
    }
    true
}

/// The key to the map in one column `width` mm wide from (x, y) down, however long it is.
/// Returns the height used.
pub fn key(page: &mut Page, x: f32, y: f32, width: f32, map: &HexMap, names: &SetupNames) -> f32 {
    let mut yy = y + 3.5;
    for e in key_entries(map, names) {
        let h = e.height(page, width);
        e.draw(page, x, yy, width);
        yy += h;
    }
    yy - line_height(KEY_PT) - y
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
    let (mw, _) = drawn_size(map, scale);
    key(&mut page, m + mw + 4.0, top, pw - m - (m + mw + 4.0), map, names);
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
/// How far the last sheet of a row or column may run into its margin, in millimetres.
const SLACK: f32 = 4.0;
/// Room for the line at the head of each sheet.
const HEAD: f32 = 8.0;
/// Room kept at the foot of each sheet for its footer, in millimetres.
const FOOT: f32 = 20.0;
/// The least width of a column of the key beside or below the map, in millimetres.
const KEY_COLUMN: f32 = 70.0;

/// The map at the system's own hex size, on one A3 sheet with its key beside or below it, or on
/// sheets that join, each saying which it is and where it joins, and the key on a sheet of its
/// own at the end. Every sheet's foot says what it is: `footer` (the campaign, its turn, the
/// battle and the place).
pub fn full_size(map: &HexMap, names: &SetupNames, title: &str, footer: &str, how: FullSize) -> Document {
    let paper = match how {
        FullSize::A3 => Paper::A3,
        FullSize::Tiled(p) => p,
    };
    let mut doc = Document::new(title, paper);
    let scale = full_scale(map);
    let (mw, mh) = drawn_size(map, scale);
    // Sheets across and down, landscape or portrait, whichever needs fewer.
    let plan = |landscape: bool| {
        let page = doc.page(landscape);
        let (uw, uh) = (page.width - 2.0 * SHEET_MARGIN, page.height - SHEET_MARGIN - HEAD - FOOT);
        let across = sheets(mw, uw);
        let down = sheets(mh, uh);
        (across * down, landscape, across, down, uw, uh)
    };
    let (_, landscape, across, down, uw, uh) = [plan(true), plan(false)].into_iter().min_by_key(|p| (p.0, !p.1)).unwrap_or(plan(true));
    let count = across * down;
    let step = |n: u32, usable: f32| f32::from(u16::try_from(n).unwrap_or(0)) * (usable - OVERLAP);
    // What each sheet shows of the drawn map, and what is left of it once it is trimmed at its
    // dotted lines: each road's label lies whole on the part of one sheet that is kept.
    let cells: Vec<(u32, u32)> = (0..down).flat_map(|row| (0..across).map(move |col| (col, row))).collect();
    let windows: Vec<Window> = cells
        .iter()
        .map(|&(col, row)| {
            let (ox, oy) = (step(col, uw), step(row, uh));
            let last = |more: bool, usable: f32, left: f32| if more { usable.min(left) } else { left };
            [ox, oy, last(col + 1 < across, uw, mw - ox), last(row + 1 < down, uh, mh - oy)]
        })
        .collect();
    let kept: Vec<Window> = cells
        .iter()
        .zip(&windows)
        .map(|(&(col, row), w)| {
            let trim = |more: bool, len: f32| if more { len - OVERLAP } else { len };
            [w[0], w[1], trim(col + 1 < across, w[2]), trim(row + 1 < down, w[3])]
        })
        .collect();
    let (x0, y0) = (SHEET_MARGIN, SHEET_MARGIN + HEAD);
    let mut k = 0;
    for row in 0..down {
        for col in 0..across {
            let [ox, oy, vw, vh] = windows[usize::try_from(k).unwrap_or(0)];
            k += 1;
            let mut page = doc.page(landscape);
            let head = if count == 1 {
                format!("{title} — the whole map at full size ({:.0} mm a hex)", hex_mm(map.system))
            } else {
                let joins = join_note(col, row, across, down);
                format!("{title} — sheet {k} of {count} (row {}, column {}): {joins}", row + 1, col + 1)
            };
            page.text(SHEET_MARGIN, SHEET_MARGIN + 4.0, 8.0, Face::Bold, &head);
            page.save_clip(x0, y0, vw, vh);
            draw_in(&mut page, x0 - ox, y0 - oy, scale, map, &kept);
            page.restore();
            // The overlap band each sheet shares with the next: a dotted line to trim along.
            if col + 1 < across {
                let bx = x0 + uw - OVERLAP;
                page.line(&[(bx, y0 - 2.0), (bx, y0 + vh + 2.0)], Ink(0.6), 0.2, Some(&[1.0, 1.0]));
            }
            if row + 1 < down {
                let by = y0 + uh - OVERLAP;
                page.line(&[(x0 - 2.0, by), (x0 + vw + 2.0, by)], Ink(0.6), 0.2, Some(&[1.0, 1.0]));
            }
            // The whole map on one sheet takes its key beside it or below it where there is room.
            if count == 1 {
                let (pw, ph) = (page.width, page.height);
                let beside = (x0 + mw + KEY_GAP, y0, pw - SHEET_MARGIN - (x0 + mw + KEY_GAP), ph - FOOT - y0);
                let below = (x0, y0 + mh + 2.0, pw - 2.0 * SHEET_MARGIN, ph - FOOT - (y0 + mh + 2.0));
                let placed = (beside.2 >= KEY_COLUMN && key_in(&mut page, beside, KEY_COLUMN, map, names))
                    || (below.3 > 10.0 && key_in(&mut page, below, KEY_COLUMN, map, names));
                if !placed {
                    page.footer = Some(footer.to_owned());
                    doc.add(page);
                    key_page(&mut doc, landscape, title, footer, map, names, false);
                    return doc;
                }
            }
            page.footer = Some(footer.to_owned());
            doc.add(page);
        }
    }
    if count > 1 {
        key_page(&mut doc, landscape, title, footer, map, names, true);
    }
    doc
}

/// The key on a sheet of its own, with how to join the sheets when there are several.
fn key_page(doc: &mut Document, landscape: bool, title: &str, footer: &str, map: &HexMap, names: &SetupNames, joined: bool) {
    let mut page = doc.page(landscape);
    page.text(SHEET_MARGIN, SHEET_MARGIN + 4.0, 8.0, Face::Bold, &format!("{title} — key"));
    let w = (page.width - 2.0 * SHEET_MARGIN).min(180.0);
    let used = key(&mut page, SHEET_MARGIN, SHEET_MARGIN + HEAD, w, map, names);
    if joined {
        page.paragraph(
            SHEET_MARGIN,
            SHEET_MARGIN + HEAD + used + 10.0,
            w,
            7.5,
            Face::Regular,
            &format!(
                "Joining the sheets: trim each sheet along its dotted line and lay it over the next so the hexes meet; the sheets overlap by {OVERLAP:.0} mm. Sheets are numbered along each row, top row first."
            ),
        );
    }
    page.footer = Some(footer.to_owned());
    doc.add(page);
}

/// Sheets of `usable` mm that cover `length` mm of map, overlapping by [`OVERLAP`]; the last
/// may run [`SLACK`] into its margin rather than leave a sliver for a sheet of its own.
fn sheets(length: f32, usable: f32) -> u32 {
    let mut n = 1;
    while f32::from(u16::try_from(n).unwrap_or(u16::MAX)) * (usable - OVERLAP) + OVERLAP + SLACK < length && n < 50 {
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
    use crate::magna_graecia::node_ground;
    use crate::pdf::extract_text;
    use crate::section::{Defence, section};
    use referee_campaign::core::table::Edge;
    use referee_campaign::ids::NodeId;
    use referee_campaign::magna_graecia::catalog::Catalog;

    fn syracuse(system: HexSystem) -> HexMap {
        let map = Catalog::embedded().map("sicily").unwrap().clone();
        let g = node_ground(&map, NodeId(31)).unwrap();
        HexMap::new(system, &g, section(Edge::West, Defence::Central, None))
    }

    fn names() -> SetupNames {
        SetupNames { attacker: "Carthaginians".to_owned(), defender: "Syracusans".to_owned() }
    }

    /// a full-size map of every node of Sicily, from each edge its battles are fought
    /// from, and of every zone of the Belisarius map fits whole on one A3 sheet with its key, in
    /// both systems.
    #[test]
    fn x_04_every_full_size_map_fits_one_a3_sheet() {
        let map = Catalog::embedded().map("sicily").unwrap().clone();
        let mut grounds: Vec<(crate::ground::Ground, Vec<crate::section::Section>)> = Vec::new();
        for (id, node) in &map.nodes {
            let edges: std::collections::BTreeSet<Edge> = node.battlefield.roads.values().copied().collect();
            let sections = edges.into_iter().map(|e| section(e, Defence::Forward, None)).collect();
            grounds.push((node_ground(&map, *id).unwrap(), sections));
        }
        let world = referee_campaign::belisarius::World::embedded();
        let setup = world.setup(&world.scenarios[0].id).unwrap();
        for zone in &setup.map.zones {
            let sections = [Edge::North, Edge::East].into_iter().map(|e| section(e, Defence::Central, None)).collect();
            grounds.push((crate::belisarius::zone_ground(&setup, &zone.id).unwrap(), sections));
        }
        for (g, sections) in &grounds {
            for s in sections {
                for system in HexSystem::ALL {
                    let hexes = HexMap::new(system, g, *s);
                    let a3 = full_size(&hexes, &names(), &g.name, "foot", FullSize::A3);
                    assert_eq!(a3.page_count(), 1, "{} {}: {:?}", system.name(), g.name, s.attacker_base);
                }
            }
        }
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

    /// The full-size map: one A3 sheet with its key, or sheets that join, each saying which it
    /// is, and the key after them.
    #[test]
    fn the_full_size_map_prints_whole_or_on_sheets_that_join() {
        let hexes = syracuse(HexSystem::ArsBellum);
        let a3 = full_size(&hexes, &names(), "Syracuse", "foot", FullSize::A3);
        assert_eq!(a3.page_count(), 1);
        let a3 = extract_text(&a3.finish()).unwrap();
        assert!(a3[0].contains("Key — Ars Bellum") && a3[0].contains("foot"), "{}", a3[0]);
        let tiles = full_size(&hexes, &names(), "Syracuse", "foot", FullSize::Tiled(Paper::A4));
        let n = tiles.page_count() - 1;
        assert!(n >= 2, "{n} sheets");
        let pages = extract_text(&tiles.finish()).unwrap();
        for (k, p) in pages[..n].iter().enumerate() {
            assert!(p.contains(&format!("sheet {} of {n}", k + 1)), "{p}");
        }
        assert!(pages[n].contains("Joining the sheets") && pages[n].contains("Key — Ars Bellum"), "{}", pages[n]);
    }
}
