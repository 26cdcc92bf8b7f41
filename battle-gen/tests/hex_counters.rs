//! The hex packs' counter sheets as a club prints them: read back out of the PDF, each back
//! lies behind its front when the sheet is printed two-sided and flipped on its long edge, and
//! the two sides' counters differ in colour and in a border that a black-and-white printer
//! keeps, with a key saying which is which.

mod support;

use referee_battle_gen::hexmap::HexSystem;
use referee_battle_gen::hexpage::counter_mm;
use referee_battle_gen::pack::{PackFile, PackOptions, Reader};
use referee_battle_gen::pdf::{DrawnPage, DrawnShape, DrawnText, extract_text, read_drawing};
use referee_battle_gen::{Paper, TabletopSystem, campaign_pack};
use support::{carthage, himera, syracuse};

const SYSTEMS: [(TabletopSystem, HexSystem); 2] =
    [(TabletopSystem::ArsBellum, HexSystem::ArsBellum), (TabletopSystem::ALaCharge, HexSystem::ALaCharge)];

/// How far apart two positions may be and still be the same, in millimetres.
const CLOSE: f32 = 0.05;

fn pack(system: TabletopSystem, paper: Paper) -> Vec<PackFile> {
    let (_, c, map, events) = himera(true);
    let options = PackOptions { system, paper, ..PackOptions::default() };
    campaign_pack(&c.state, &map, &events, 1, &options).unwrap()
}

/// The pages of a file with their text, for those whose first line says they are `what`
/// (`counters, fronts` or `counters, backs`).
fn sheets<'a>(texts: &'a [String], drawn: &'a [DrawnPage], what: &str) -> Vec<(usize, &'a str, &'a DrawnPage)> {
    texts
        .iter()
        .zip(drawn)
        .enumerate()
        .filter(|(_, (t, _))| t.lines().next().is_some_and(|l| l.contains(what)))
        .map(|(i, (t, d))| (i, t.as_str(), d))
        .collect()
}

/// The counters on a page: the outlines `size` mm square (the key's samples are smaller),
/// as their top-left corners.
fn counters(page: &DrawnPage, size: f32) -> Vec<(f32, f32)> {
    page.shapes
        .iter()
        .filter(|s| s.stroke.is_some() && s.fill.is_none() && s.points.len() == 4)
        .map(DrawnShape::bounds)
        .filter(|&(l, t, r, b)| ((r - l) - size).abs() < CLOSE && ((b - t) - size).abs() < CLOSE)
        .map(|(l, t, _, _)| (l, t))
        .collect()
}

/// The text written inside the counter at (x, y).
fn inside(page: &DrawnPage, (x, y): (f32, f32), size: f32) -> Vec<&DrawnText> {
    page.texts.iter().filter(|t| t.x > x && t.x < x + size && t.y > y && t.y < y + size).collect()
}

/// AB-01, AC-01, X-04: printed on the two sides of one sheet and flipped on the long edge (the
/// way each sheet says), every back lands exactly behind its front, for both systems on A4
/// and US Letter, in the umpire's file and each side's: each counter's outline on the back
/// page is its front's mirrored about the page, at the same height, and the counter's number
/// written inside it is the same. The counters keep inside the page's margins on both sides.
#[test]
fn ab_01_ac_01_x_04_each_back_lies_behind_its_front_flipped_on_the_long_edge() {
    for (system, hex) in SYSTEMS {
        let size = counter_mm(hex);
        for paper in [Paper::A4, Paper::Letter] {
            let files = pack(system, paper);
            let mut checked = 0;
            let mut written_backs = 0;
            for f in files.iter().filter(|f| f.reader != Reader::Everyone) {
                let texts = extract_text(&f.bytes).unwrap();
                let drawn = read_drawing(&f.bytes).unwrap();
                assert_eq!(texts.len(), drawn.len());
                let fronts = sheets(&texts, &drawn, "counters, fronts");
                assert!(!fronts.is_empty(), "{system:?} {paper:?} {}: no counter sheet", f.file_name);
                // Printed two-sided from the first page, every front is the face of a sheet.
                for (i, ..) in &fronts {
                    assert_eq!(i % 2, 0, "{system:?} {paper:?} {}: fronts on page {}, the back of a sheet", f.file_name, i + 1);
                }
                for (i, text, front) in fronts {
                    let what = format!("{system:?} {paper:?} {} page {}", f.file_name, i + 1);
                    assert!(text.contains("flipping on the long edge"), "{what}: the sheet says which edge to flip on");
                    let (back_text, back) = (&texts[i + 1], &drawn[i + 1]);
                    assert!(back_text.lines().next().unwrap().contains("counters, backs"), "{what}: the backs come next");
                    let (width, margin) = (front.width, 15.0 - CLOSE);
                    assert!((back.width - width).abs() < CLOSE && (back.height - front.height).abs() < CLOSE);
                    let on_front = counters(front, size);
                    let on_back = counters(back, size);
                    assert!(!on_front.is_empty(), "{what}");
                    assert_eq!(on_front.len(), on_back.len(), "{what}: a back for every front");
                    for &(x, y) in &on_front {
                        let mirrored = (width - x - size, y);
                        let behind = on_back
                            .iter()
                            .copied()
                            .find(|b| (b.0 - mirrored.0).abs() < CLOSE && (b.1 - mirrored.1).abs() < CLOSE)
                            .unwrap_or_else(|| panic!("{what}: no back behind the front at ({x:.1}, {y:.1})"));
                        for left in [x, behind.0] {
                            assert!(left >= margin && left + size <= width - margin, "{what}: a counter outside the margins at {left:.1}");
                        }
                        let number = inside(front, (x, y), size).first().map(|t| t.text.clone()).unwrap();
                        if let Some(t) = inside(back, behind, size).first() {
                            assert_eq!(t.text, number, "{what}: the back behind {number}");
                            written_backs += 1;
                        }
                        checked += 1;
                    }
                }
            }
            assert!(checked > 40 && written_backs > 20, "{system:?} {paper:?}: {checked} counters, {written_backs} backs written");
        }
    }
}

/// The colour a page fills the counter at (x, y) with: the fill of its own outline's square.
fn fill_of(page: &DrawnPage, (x, y): (f32, f32), size: f32) -> (f32, f32, f32) {
    page.shapes
        .iter()
        .filter(|s| s.stroke.is_none())
        .find_map(|s| {
            let (l, t, r, b) = s.bounds();
            ((l - x).abs() < CLOSE && (t - y).abs() < CLOSE && (r - x - size).abs() < CLOSE && (b - y - size).abs() < CLOSE)
                .then_some(s.fill)
                .flatten()
        })
        .unwrap()
}

/// The widths of the lines drawn inside the counter at (x, y), its own outline apart.
fn lines_inside(page: &DrawnPage, (x, y): (f32, f32), size: f32) -> Vec<f32> {
    page.shapes
        .iter()
        .filter_map(|s| {
            let (l, t, r, b) = s.bounds();
            let within = l > x + CLOSE && t > y + CLOSE && r < x + size - CLOSE && b < y + size - CLOSE;
            s.stroke.filter(|_| within)
        })
        .collect()
}

/// AC-01, AB-01, X-04: each side's counters have a colour of their own, light enough for their
/// black print (as the rules' counters show their army by the background), and a border that
/// is in the lines drawn, not only the colour, so a black-and-white printer keeps it: the
/// attacker's counters plain, the defender's with a heavier line inside the cutting line, on
/// the fronts and the backs. The key at the head of every counter page, in every copy, says
/// which is which.
#[test]
fn ac_01_ab_01_x_04_each_side_has_its_colour_and_a_border_that_survives_greyscale() {
    let lightness = |(r, g, b): (f32, f32, f32)| 0.299 * r + 0.587 * g + 0.114 * b;
    for (system, hex) in SYSTEMS {
        let size = counter_mm(hex);
        let files = pack(system, Paper::A4);
        for f in files.iter().filter(|f| f.reader != Reader::Everyone) {
            let texts = extract_text(&f.bytes).unwrap();
            // A side's copy holds its own counters only; the key names the sides, which everyone
            // in the battle knows.
            let own = match &f.reader {
                Reader::Side(s) if *s == carthage() => Some("Carthage:"),
                Reader::Side(s) if *s == syracuse() => Some("Syracuse:"),
                _ => None,
            };
            for what in ["counters, fronts", "counters, backs"] {
                for (_, text, _) in sheets(&texts, &read_drawing(&f.bytes).unwrap(), what) {
                    assert!(own.is_none_or(|o| text.starts_with(o)), "{system:?} {}: another side's counters", f.file_name);
                    for key in [
                        "Carthage (attacker), counters marked Cart: sand, plain border",
                        "Syracuse (defender), counters marked Syra: green, double border",
                    ] {
                        assert!(text.contains(key), "{system:?} {}: no key line {key:?} in {text}", f.file_name);
                    }
                }
            }
        }
        // The umpire's file holds both sides' sheets.
        let texts = extract_text(&files[0].bytes).unwrap();
        let drawn = read_drawing(&files[0].bytes).unwrap();
        let mut colours = Vec::new();
        for side in ["Carthage", "Syracuse"] {
            let mut colour = None;
            for what in ["counters, fronts", "counters, backs"] {
                let pages: Vec<_> = sheets(&texts, &drawn, what).into_iter().filter(|(_, t, _)| t.starts_with(side)).collect();
                assert!(!pages.is_empty(), "{system:?}: {side}'s {what}");
                for (_, _, page) in pages {
                    for at in counters(page, size) {
                        let lines = lines_inside(page, at, size);
                        if side == "Carthage" {
                            assert!(lines.is_empty(), "{system:?} {side} {what}: a plain border, not {lines:?}");
                        } else {
                            assert!(lines.iter().any(|&w| w >= 0.4), "{system:?} {side} {what}: a heavy line inside, not {lines:?}");
                        }
                        if what == "counters, fronts" {
                            let fill = fill_of(page, at, size);
                            assert!(lightness(fill) >= 0.75, "{system:?} {side}: {fill:?} too dark for black print");
                            assert!(colour.is_none_or(|c| c == fill), "{system:?} {side}: one colour for the side");
                            colour = Some(fill);
                        }
                    }
                }
            }
            colours.push(colour.unwrap());
        }
        assert_ne!(colours[0], colours[1], "{system:?}: the sides' colours");
        let (a, b) = (colours[0], colours[1]);
        assert!(a.0 != a.1 || a.1 != a.2, "{system:?}: a colour, not a grey");
        assert!(b.0 != b.1 || b.1 != b.2, "{system:?}: a colour, not a grey");
    }
}
