//! The report's map laid out before it is drawn: every counter kept inside the zone it
//! stands in, and no name printed over another name or over a counter.
//!
//! The layout is one placement pass, in millimetres from the map's top-left corner:
//!
//! 1. Places are fixed where the map has them: a walled city's square, another place's dot.
//! 2. The counters at one place form a group, laid out as a grid inside the outline of the
//!    area they stand in (a zone, a sea), clear of the places and of the groups laid out
//!    before it, and of where the names would rather go. The group at a city starts beside
//!    its square (a thin line joins them when there is no room there); the group in a zone's
//!    open country starts at the zone's name. A group that does not fit is tried with other
//!    grids, then with smaller boxes.
//! 3. The names, by priority — zone and sea names first, since orders name zones and seas;
//!    then the names of cities and other places; then the names on the reader's own
//!    counters, which the Table of Organisation (or the forces table) gives again with where
//!    each stands. Each name tries a few positions around its place, in order, and takes the
//!    first that overlaps no name already placed, no counter and no place. A name that fits
//!    nowhere is shortened (a zone's name on two lines or smaller, a city's without its
//!    modern name in brackets, a counter's without its strength or modern name), and failing that left off:
//!    the key under the map lists the zone and place names left off.

use super::{Km, Sketch};
use crate::pdf::{Face, pt_to_mm, text_width};

/// A box on the map, in millimetres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    fn right(&self) -> f32 {
        self.x + self.w
    }

    fn bottom(&self) -> f32 {
        self.y + self.h
    }

    pub fn centre(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// Whether the two share any area (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }

    fn grown(&self, by: f32) -> Rect {
        Rect { x: self.x - by, y: self.y - by, w: self.w + 2.0 * by, h: self.h + 2.0 * by }
    }

    fn corners(&self) -> [(f32, f32); 4] {
        [(self.x, self.y), (self.right(), self.y), (self.x, self.bottom()), (self.right(), self.bottom())]
    }

    fn union(&self, o: &Rect) -> Rect {
        let (x, y) = (self.x.min(o.x), self.y.min(o.y));
        Rect { x, y, w: self.right().max(o.right()) - x, h: self.bottom().max(o.bottom()) - y }
    }
}

/// What a name on the map names, in the order names are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LabelKind {
    Area,
    Place,
    Piece,
}

/// A name placed on the map: its lines, each set from `x` (left) on its baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub kind: LabelKind,
    /// Each line, with its left edge and baseline.
    pub lines: Vec<(String, f32, f32)>,
    pub size: f32,
    /// The box the lines fill.
    pub rect: Rect,
}

/// A counter's box: the piece (index into [`Sketch::pieces`]) and where it is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    pub piece: usize,
    pub rect: Rect,
}

/// The map laid out at `scale` mm to the kilometre, its corner at (0, 0).
#[derive(Debug, Clone, PartialEq)]
pub struct MapLayout {
    pub scale: f32,
    pub width: f32,
    pub height: f32,
    /// Each area's outline, in millimetres, in the order of [`Sketch::areas`].
    pub outlines: Vec<Vec<(f32, f32)>>,
    /// Each place's square or dot, in the order of [`Sketch::places`].
    pub symbols: Vec<Rect>,
    pub markers: Vec<Marker>,
    /// Thin lines from a city to its counters set apart from it.
    pub ties: Vec<[(f32, f32); 2]>,
    pub labels: Vec<Label>,
    /// Zone, sea and place names left off for want of room.
    pub left_off: Vec<String>,
    /// The reader's own counters whose names were left off.
    pub unnamed: usize,
    /// Names shortened, and groups of counters drawn smaller than full size.
    pub squeezed: usize,
}

impl MapLayout {
    /// Whether anything had to give: a name left off or shortened, counters drawn smaller.
    pub fn crowded(&self) -> bool {
        !self.left_off.is_empty() || self.unnamed > 0 || self.squeezed > 0
    }
}

/// A counter's box at full size, and the smaller sizes a crowded group is tried at.
const BOX_SIZES: [f32; 4] = [2.0, 1.6, 1.3, 1.0];
/// The room kept between a counter and anything else.
const CLEAR: f32 = 0.35;
/// How far a counter keeps from the square of a city it is not in.
const AWAY: f32 = 1.6;
/// Half a city's square, and of another place's dot.
const CITY_HALF: f32 = 1.3;
const DOT_HALF: f32 = 1.0;
/// Text sizes in points: zone and sea names, place names, counter names.
const AREA_SIZE: f32 = 5.0;
const PLACE_SIZE: f32 = 5.5;
const PIECE_SIZE: f32 = 5.0;
/// How far above and below its baseline a line of text reaches, in ems, with a little room.
const ASCENT: f32 = 0.95;
const DESCENT: f32 = 0.25;

/// Whether `p` lies inside the polygon `poly` (even-odd rule).
pub fn inside(poly: &[(f32, f32)], p: (f32, f32)) -> bool {
    let mut odd = false;
    let mut j = poly.len().wrapping_sub(1);
    for (i, &(xi, yi)) in poly.iter().enumerate() {
        let (xj, yj) = poly[j];
        if (yi > p.1) != (yj > p.1) && p.0 < (xj - xi) * (p.1 - yi) / (yj - yi) + xi {
            odd = !odd;
        }
        j = i;
    }
    odd
}

/// The box of lines of text of `size` points set with their left edges at `x`, the first
/// baseline at `baseline`.
fn text_rect(lines: &[(String, f32, f32)], size: f32) -> Rect {
    let mm = pt_to_mm(size);
    let mut out: Option<Rect> = None;
    for (text, x, baseline) in lines {
        let r = Rect { x: *x, y: baseline - ASCENT * mm, w: text_width(text, size, Face::Regular), h: (ASCENT + DESCENT) * mm };
        out = Some(out.map_or(r, |o| o.union(&r)));
    }
    out.unwrap_or(Rect { x: 0.0, y: 0.0, w: 0.0, h: 0.0 })
}

/// Lines centred on (cx, cy), one under the other.
fn centred(lines: &[String], size: f32, cx: f32, cy: f32) -> Vec<(String, f32, f32)> {
    let lead = pt_to_mm(size) * 1.15;
    let n = f32::from(u16::try_from(lines.len()).unwrap_or(1));
    let first = cy - lead * (n - 1.0) / 2.0 + pt_to_mm(size) * 0.35;
    lines
        .iter()
        .enumerate()
        .map(|(i, t)| (t.clone(), cx - text_width(t, size, Face::Regular) / 2.0, first + lead * f32::from(u16::try_from(i).unwrap_or(0))))
        .collect()
}

/// A name split in two lines at the space nearest its middle, if it has one.
fn two_lines(text: &str) -> Option<Vec<String>> {
    let middle = text.len() / 2;
    let cut = text.match_indices(' ').map(|(i, _)| i).min_by_key(|i| i.abs_diff(middle))?;
    Some(vec![text[..cut].to_owned(), text[cut + 1..].to_owned()])
}

/// A place's name without the modern name in brackets: "Carthago (Carthage)" → "Carthago".
fn without_brackets(text: &str) -> Option<String> {
    text.split_once(" (").map(|(a, _)| a.trim().to_owned()).filter(|a| !a.is_empty())
}

/// A counter's name cut short where that loses nothing of what it is: "Iohannes (John)" →
/// "Iohannes", "fleet 1 of 8 NPs" → "fleet 1". A decoy's name is never cut.
fn cut_short(text: &str) -> Option<String> {
    if let Some(short) = without_brackets(text) {
        return Some(short);
    }
    text.split_once(" of ").map(|(a, _)| a.trim().to_owned()).filter(|a| !a.is_empty())
}

struct Group {
    /// Where the group starts from: a place's point or a zone's name.
    anchor: (f32, f32),
    /// The place whose square it stands beside, if any.
    place: Option<usize>,
    area: Option<usize>,
    pieces: Vec<usize>,
    named: bool,
}

/// Lays out `sketch` at `scale` mm to the kilometre, its names and counters `unit` times
/// their size in the text's flow (larger on a map's own, larger page). `named(i)` says
/// whether piece `i` has a name to print beside it (the reader's own).
pub fn lay_out(sketch: &Sketch, scale: f32, unit: f32, named: &dyn Fn(usize) -> bool) -> MapLayout {
    let at = |p: Km| (p[0] * scale, p[1] * scale);
    let (width, height) = (sketch.width_km * scale, sketch.height_km * scale);
    let frame = Rect { x: 0.0, y: 0.0, w: width, h: height };
    let outlines: Vec<Vec<(f32, f32)>> = sketch.areas.iter().map(|a| a.outline.iter().map(|&p| at(p)).collect()).collect();
    let symbols: Vec<Rect> = sketch
        .places
        .iter()
        .map(|p| {
            let (x, y) = at(p.at);
            let half = unit * if p.city { CITY_HALF } else { DOT_HALF };
            Rect { x: x - half, y: y - half, w: 2.0 * half, h: 2.0 * half }
        })
        .collect();
    // Where each zone's and place's name would rather go: counters keep off it if they can.
    let wished: Vec<Rect> = sketch
        .areas
        .iter()
        .map(|a| {
            let (x, y) = at(a.label_at);
            text_rect(&centred(std::slice::from_ref(&a.label), AREA_SIZE * unit, x, y), AREA_SIZE * unit)
        })
        .chain(sketch.places.iter().map(|p| {
            let (x, y) = at(p.at);
            text_rect(&[(p.label.clone(), x + 1.8 * unit, y + 0.9 * unit)], PLACE_SIZE * unit)
        }))
        .collect();

    // The groups, in the order their first counter comes.
    let mut groups: Vec<Group> = Vec::new();
    for (i, piece) in sketch.pieces.iter().enumerate() {
        let anchor = at(piece.at);
        match groups.iter_mut().find(|g| g.anchor == anchor && g.area == piece.area) {
            Some(g) => {
                g.pieces.push(i);
                g.named |= named(i);
            }
            None => {
                let place = sketch.places.iter().position(|p| p.at == piece.at);
                groups.push(Group { anchor, place, area: piece.area, pieces: vec![i], named: named(i) });
            }
        }
    }
    // The biggest groups first: they need the most room.
    groups.sort_by_key(|g| std::cmp::Reverse(g.pieces.len()));

    let mut layout = MapLayout {
        scale,
        width,
        height,
        outlines,
        symbols,
        markers: Vec::new(),
        ties: Vec::new(),
        labels: Vec::new(),
        left_off: Vec::new(),
        unnamed: 0,
        squeezed: 0,
    };
    for g in &groups {
        place_group(&mut layout, g, &frame, &wished, unit);
    }
    layout.markers.sort_by_key(|m| m.piece);
    place_labels(&mut layout, sketch, &frame, &at, unit, named);
    layout
}

/// The grids a group of `n` may be laid out in, by columns, in the order tried: named
/// counters in one or two columns (each name beside its box), the others as square as may be.
fn shapes(n: usize, named: bool) -> Vec<usize> {
    let square = (1..=n).find(|c| c * c >= n).unwrap_or(1);
    let mut out = if named { vec![if n <= 4 { 1 } else { 2 }, 1, 2, square, n] } else { vec![square, square + 1, n, 1] };
    out.retain(|&c| c >= 1 && c <= n);
    let mut seen = Vec::new();
    out.retain(|c| {
        let fresh = !seen.contains(c);
        seen.push(*c);
        fresh
    });
    out
}

/// Offsets from a group's anchor to try, nearest first: the centre, then rings every 0.8 mm
/// out to 14 mm.
fn spiral() -> Vec<(f32, f32)> {
    let mut out = vec![(0.0, 0.0)];
    for ring in 1..=18u16 {
        let r = 0.8 * f32::from(ring);
        let steps = (r * 5.0).clamp(8.0, 48.0);
        let n = steps as u16;
        for k in 0..n {
            // Straight below first, then round.
            let a = std::f32::consts::FRAC_PI_2 + std::f32::consts::TAU * f32::from(k) / steps;
            out.push((r * a.cos(), r * a.sin()));
        }
    }
    out
}

fn place_group(layout: &mut MapLayout, g: &Group, frame: &Rect, wished: &[Rect], unit: f32) {
    let poly = g.area.and_then(|a| layout.outlines.get(a)).cloned();
    let symbol = g.place.and_then(|p| layout.symbols.get(p)).copied();
    // Counters keep clear of one another, and well clear of the other places' squares, so
    // that none seems to stand in a city it is not in.
    let taken: Vec<Rect> = layout
        .symbols
        .iter()
        .enumerate()
        .map(|(i, r)| if Some(i) == g.place { r.grown(CLEAR) } else { r.grown(AWAY * unit) })
        .chain(layout.markers.iter().map(|m| m.rect.grown(CLEAR)))
        .collect();
    let n = g.pieces.len();
    let grid = |cols: usize, size: f32, left: f32, top: f32| -> Vec<Rect> {
        let pitch = size + 2.0 * CLEAR;
        (0..n)
            .map(|i| {
                let (c, r) = (i % cols, i / cols);
                Rect { x: left + pitch * c as f32, y: top + pitch * r as f32, w: size, h: size }
            })
            .collect()
    };
    let fits = |cells: &[Rect], soft: bool| -> bool {
        cells.iter().all(|c| {
            c.corners().iter().all(|&p| poly.as_ref().is_none_or(|poly| inside(poly, p)))
                && c.x >= frame.x
                && c.y >= frame.y
                && c.right() <= frame.right()
                && c.bottom() <= frame.bottom()
                && !taken.iter().any(|t| t.overlaps(c))
                && (!soft || !wished.iter().any(|w| w.overlaps(c)))
        })
    };
    let offsets = spiral();
    for (tier, size) in BOX_SIZES.iter().map(|s| s * unit).enumerate() {
        for cols in shapes(n, g.named) {
            let rows = n.div_ceil(cols);
            let pitch = size + 2.0 * CLEAR;
            let (gw, gh) = (pitch * cols as f32 - 2.0 * CLEAR, pitch * rows as f32 - 2.0 * CLEAR);
            // A city's group starts just below its square; a zone's, on its name.
            let start = match symbol {
                Some(s) => (s.centre().0 - gw / 2.0, s.bottom() + CLEAR + 0.3),
                None => (g.anchor.0 - gw / 2.0, g.anchor.1 - gh / 2.0),
            };
            for soft in [true, false] {
                for &(dx, dy) in &offsets {
                    let cells = grid(cols, size, start.0 + dx, start.1 + dy);
                    if fits(&cells, soft) {
                        finish_group(layout, g, &cells, symbol);
                        if tier > 0 {
                            layout.squeezed += 1;
                        }
                        return;
                    }
                }
            }
        }
    }
    // Nowhere clear: the smallest boxes at the first grid whose centres lie inside the area,
    // over whatever is there.
    let size = BOX_SIZES[BOX_SIZES.len() - 1] * unit;
    let cols = (1..=n).find(|c| c * c >= n).unwrap_or(1);
    let start = (g.anchor.0 - size / 2.0, g.anchor.1 - size / 2.0);
    let centres_in = |cells: &[Rect]| cells.iter().all(|c| poly.as_ref().is_none_or(|poly| inside(poly, c.centre())));
    let cells = offsets
        .iter()
        .map(|&(dx, dy)| grid(cols, size, start.0 + dx, start.1 + dy))
        .find(|cells| centres_in(cells))
        .unwrap_or_else(|| g.pieces.iter().map(|_| Rect { x: start.0, y: start.1, w: size, h: size }).collect());
    finish_group(layout, g, &cells, symbol);
    layout.squeezed += 1;
}

fn finish_group(layout: &mut MapLayout, g: &Group, cells: &[Rect], symbol: Option<Rect>) {
    for (&piece, rect) in g.pieces.iter().zip(cells) {
        layout.markers.push(Marker { piece, rect: *rect });
    }
    // A city's counters set apart from its square are tied to it.
    if let Some(s) = symbol {
        let nearest = cells.iter().min_by(|a, b| distance(a, &s).total_cmp(&distance(b, &s)));
        if let Some(n) = nearest.filter(|n| distance(n, &s) > 1.2) {
            layout.ties.push([s.centre(), n.centre()]);
        }
    }
}

/// The gap between two boxes, 0 where they touch or overlap.
fn distance(a: &Rect, b: &Rect) -> f32 {
    let dx = (b.x - a.right()).max(a.x - b.right()).max(0.0);
    let dy = (b.y - a.bottom()).max(a.y - b.bottom()).max(0.0);
    dx.hypot(dy)
}

/// Each name's tries: the lines at each position, at each size, the shortened ones last
/// (their count in front).
type Tries = Vec<(bool, f32, Vec<(String, f32, f32)>)>;

fn area_tries(label: &str, (x, y): (f32, f32), unit: f32) -> Tries {
    let mut out = Vec::new();
    let (size, small) = (AREA_SIZE * unit, AREA_SIZE * unit * 0.84);
    let mut forms: Vec<(bool, f32, Vec<String>)> = vec![(false, size, vec![label.to_owned()])];
    if let Some(two) = two_lines(label) {
        forms.push((false, size, two.clone()));
        forms.push((true, small, vec![label.to_owned()]));
        forms.push((true, small, two));
    } else {
        forms.push((true, small, vec![label.to_owned()]));
    }
    for (short, size, lines) in forms {
        for (dx, dy) in [
            (0.0, 0.0),
            (0.0, 2.2),
            (0.0, -2.2),
            (0.0, 4.4),
            (0.0, -4.4),
            (3.5, 0.0),
            (-3.5, 0.0),
            (3.5, 2.2),
            (-3.5, -2.2),
            (3.5, -2.2),
            (-3.5, 2.2),
        ] {
            out.push((short, size, centred(&lines, size, x + dx * unit, y + dy * unit)));
        }
    }
    out
}

/// Positions around a box `r` for one line of `text`: right, left, below, above, then the
/// corners.
fn around(r: &Rect, text: &str, size: f32) -> Vec<Vec<(String, f32, f32)>> {
    let w = text_width(text, size, Face::Regular);
    let mm = pt_to_mm(size);
    let (cx, cy) = r.centre();
    let mid = cy + mm * 0.35;
    let gap = 0.5;
    [
        (r.right() + gap, mid),
        (r.x - gap - w, mid),
        (cx - w / 2.0, r.bottom() + gap + ASCENT * mm),
        (cx - w / 2.0, r.y - gap - DESCENT * mm),
        (r.right() + gap, r.y - gap - DESCENT * mm),
        (r.right() + gap, r.bottom() + gap + ASCENT * mm),
        (r.x - gap - w, r.y - gap - DESCENT * mm),
        (r.x - gap - w, r.bottom() + gap + ASCENT * mm),
    ]
    .into_iter()
    .map(|(x, y)| vec![(text.to_owned(), x, y)])
    .collect()
}

fn around_tries(r: &Rect, text: &str, size: f32, shorter: Option<String>) -> Tries {
    let mut out: Tries = around(r, text, size).into_iter().map(|l| (false, size, l)).collect();
    if let Some(s) = shorter {
        out.extend(around(r, &s, size).into_iter().map(|l| (true, size, l)));
    }
    out
}

fn place_labels(
    layout: &mut MapLayout,
    sketch: &Sketch,
    frame: &Rect,
    at: &dyn Fn(Km) -> (f32, f32),
    unit: f32,
    named: &dyn Fn(usize) -> bool,
) {
    let mut wanted: Vec<(LabelKind, String, Tries)> = Vec::new();
    for (i, a) in sketch.areas.iter().enumerate() {
        let mut tries = area_tries(&a.label, at(a.label_at), unit);
        // A name stays over its own area.
        if let Some(poly) = layout.outlines.get(i) {
            tries.retain(|(_, size, lines)| inside(poly, text_rect(lines, *size).centre()));
        }
        wanted.push((LabelKind::Area, a.label.clone(), tries));
    }
    for (p, s) in sketch.places.iter().zip(&layout.symbols) {
        wanted.push((LabelKind::Place, p.label.clone(), around_tries(s, &p.label, PLACE_SIZE * unit, without_brackets(&p.label))));
    }
    for m in &layout.markers {
        if !named(m.piece) {
            continue;
        }
        let Some(piece) = sketch.pieces.get(m.piece) else { continue };
        let size = PIECE_SIZE * unit * (m.rect.w / (BOX_SIZES[0] * unit)).clamp(0.8, 1.0);
        wanted.push((LabelKind::Piece, piece.text.clone(), around_tries(&m.rect, &piece.text, size, cut_short(&piece.text))));
    }
    let mut taken: Vec<Rect> = layout.symbols.iter().chain(layout.markers.iter().map(|m| &m.rect)).map(|r| r.grown(0.15)).collect();
    for (kind, name, tries) in wanted {
        let chosen = tries.into_iter().find(|(_, size, lines)| {
            let r = text_rect(lines, *size);
            r.x >= frame.x
                && r.y >= frame.y
                && r.right() <= frame.right()
                && r.bottom() <= frame.bottom()
                && !taken.iter().any(|t| t.overlaps(&r))
        });
        match chosen {
            Some((short, size, lines)) => {
                let rect = text_rect(&lines, size);
                taken.push(rect);
                if short {
                    layout.squeezed += 1;
                }
                layout.labels.push(Label { kind, lines, size, rect });
            }
            None if kind == LabelKind::Piece => layout.unnamed += 1,
            None => layout.left_off.push(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_is_inside_a_polygon_by_the_even_odd_rule() {
        // An L: the notch is outside.
        let l = [(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0), (2.0, 4.0), (0.0, 4.0)];
        assert!(inside(&l, (1.0, 1.0)) && inside(&l, (1.0, 3.0)) && inside(&l, (3.0, 1.0)));
        assert!(!inside(&l, (3.0, 3.0)) && !inside(&l, (5.0, 1.0)));
    }

    /// a name shortened for room keeps what it names: a zone's on two lines, a city's
    /// without its modern name, a counter's without its strength; a decoy's stays whole.
    #[test]
    fn x_04_names_are_shortened_without_losing_what_they_name() {
        assert_eq!(two_lines("Mauretania Sitifensis"), Some(vec!["Mauretania".to_owned(), "Sitifensis".to_owned()]));
        assert_eq!(two_lines("Numidia"), None);
        assert_eq!(without_brackets("Carthago (Carthage)").as_deref(), Some("Carthago"));
        assert_eq!(cut_short("fleet 1 of 8 NPs").as_deref(), Some("fleet 1"));
        assert_eq!(cut_short("Iohannes (John)").as_deref(), Some("Iohannes"));
        assert_eq!(cut_short("fleet 2, a decoy"), None);
        assert_eq!(cut_short("2 units, no leader"), None);
    }
}
