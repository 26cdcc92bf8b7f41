//! MG-21 and MG-26 on paper: the section of a node's battle map in play, drawn to scale and
//! turned so that the attacker's base edge lies along the bottom of the page, as the attacker
//! sees the table. Terrain is told apart by grey, hatching and outline, never by colour, so the
//! sheet survives a black-and-white printer. Every road is labelled where it leaves the
//! section, because a table edge with a road is where an army may retire (MG-26).
//!
//! `cargo run -p referee-battle-gen --example write_tables -- OUT_DIR` writes a few sample
//! pages for a person to look over.

use referee_campaign::core::table::Edge;

use crate::ground::{self, Ground, Point, TerrainKind, clip_polygon, clip_polyline, fl, road_exits, roads_to_settlement};
use crate::pdf::{Document, Face, Ink, Page, line_height};
use crate::section::{CUT_FEET, Defence, MAP_FEET, Rect, Section};

/// What a table page shows: the ground, the section in play and who stands where.
#[derive(Debug, Clone)]
pub struct TablePlan<'a> {
    pub ground: &'a Ground,
    pub section: Section,
    pub attacker: String,
    pub defender: String,
    /// Where the battle is, as the campaign names it (`node 08 Himera`).
    pub place: String,
    /// How the table is set, in the campaign's words (`central section, attacker's base edge
    /// west, 4'×8' table`).
    pub setting: String,
    /// Depth of each side's deployment zone from its base edge, if the rules in use have one.
    pub deployment_feet: Option<f32>,
    pub title: String,
}

// Room kept round the drawn section for labels, in millimetres.
const LEFT: f32 = 15.0;
const RIGHT: f32 = 12.0;
const TOP: f32 = 12.0;
const BOTTOM: f32 = 21.0;

/// Text sizes, in points.
const ROAD_PT: f32 = 7.0;
const SIDE_PT: f32 = 7.5;
const NAME_PT: f32 = 7.0;
const NOTE_PT: f32 = 7.0;

/// A side of the drawing on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Top,
    Right,
    Bottom,
    Left,
}

/// Map feet to page millimetres: the section `rect`, turned so `base` is at the bottom, its
/// top-left corner at (x, y), `scale` millimetres to the foot.
#[derive(Debug, Clone, Copy)]
struct Frame {
    rect: Rect,
    base: Edge,
    x: f32,
    y: f32,
    scale: f32,
}

impl Frame {
    /// Width and height of `rect` in feet once turned.
    fn turned(rect: Rect, base: Edge) -> (f32, f32) {
        match base {
            Edge::North | Edge::South => (rect.width_feet, rect.height_feet),
            Edge::East | Edge::West => (rect.height_feet, rect.width_feet),
        }
    }

    fn size_mm(&self) -> (f32, f32) {
        let (w, h) = Frame::turned(self.rect, self.base);
        (w * self.scale, h * self.scale)
    }

    fn page(&self, p: Point) -> (f32, f32) {
        let (u, v) = crate::section::turn(self.rect, self.base, p);
        (self.x + u * self.scale, self.y + v * self.scale)
    }

    fn pages(&self, pts: &[Point]) -> Vec<(f32, f32)> {
        pts.iter().map(|p| self.page(*p)).collect()
    }

    /// A direction on the map (x east, y south) as a direction on the page.
    fn turn(&self, d: Point) -> (f32, f32) {
        match self.base {
            Edge::South => d,
            Edge::North => (-d.0, -d.1),
            Edge::West => (d.1, -d.0),
            Edge::East => (-d.1, d.0),
        }
    }

    /// The page side toward which the compass edge `e` lies.
    fn side(&self, e: Edge) -> Side {
        let (dx, dy) = self.turn(e.outward());
        if dy < -0.5 {
            Side::Top
        } else if dy > 0.5 {
            Side::Bottom
        } else if dx > 0.5 {
            Side::Right
        } else {
            Side::Left
        }
    }

    /// The compass edge drawn on page side `s`.
    fn edge_on(&self, s: Side) -> Edge {
        Edge::ALL.into_iter().find(|e| self.side(*e) == s).unwrap_or(Edge::North)
    }
}

/// Feet of map beyond side `e` of `rect` (zero when that side is the map's edge).
fn beyond(rect: Rect, e: Edge) -> f32 {
    match e {
        Edge::North => rect.y_feet,
        Edge::South => MAP_FEET - rect.y_feet - rect.height_feet,
        Edge::West => rect.x_feet,
        Edge::East => MAP_FEET - rect.x_feet - rect.width_feet,
    }
}

fn compass_label(rect: Rect, e: Edge) -> String {
    let more = beyond(rect, e);
    if more < 0.01 { format!("{} edge", e.name()) } else { format!("{} side, not the map edge ({more:.0}' more map beyond)", e.name()) }
}

/// A small fixed scatter in [-0.5, 0.5) for pattern point (i, j).
fn jitter(i: u16, j: u16, salt: u32) -> (f32, f32) {
    let mut h = (u32::from(i).wrapping_mul(73_856_093)) ^ (u32::from(j).wrapping_mul(19_349_663)) ^ salt.wrapping_mul(83_492_791);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    let a = u16::try_from(h & 0xffff).unwrap_or(0);
    let b = u16::try_from(h >> 16).unwrap_or(0);
    (f32::from(a) / 65_536.0 - 0.5, f32::from(b) / 65_536.0 - 0.5)
}

/// Points of a grid `dx` × `dy` mm (alternate rows shifted half a step when `stagger`) over the
/// bounding box of `pts`, scattered by `scatter` of a step, that fall inside `pts`.
fn grid_inside(pts: &[(f32, f32)], dx: f32, dy: f32, stagger: bool, scatter: f32, salt: u32, margin: f32) -> Vec<(f32, f32)> {
    let ((x0, y0), (x1, y1)) = ground::bbox(pts);
    let mut out = Vec::new();
    let mut j = 0u16;
    let mut y = y0 + dy / 2.0;
    while y < y1 {
        let mut i = 0u16;
        let shift = if stagger && j % 2 == 1 { dx / 2.0 } else { 0.0 };
        let mut x = x0 + dx / 2.0 + shift;
        while x < x1 {
            let (jx, jy) = jitter(i, j, salt);
            let p = (x + jx * scatter * dx, y + jy * scatter * dy);
            if ground::contains(pts, p) && ground::polygon_point_distance(pts, p) >= margin {
                out.push(p);
            }
            x += dx;
            i = i.wrapping_add(1);
        }
        y += dy;
        j = j.wrapping_add(1);
    }
    out
}

/// `outline` drawn toward its centroid by `f` (a contour line inside a hill).
fn shrink(outline: &[Point], f: f32) -> Vec<Point> {
    let c = ground::centroid(outline);
    outline.iter().map(|p| (c.0 + (p.0 - c.0) * f, c.1 + (p.1 - c.1) * f)).collect()
}

/// Draws one piece of terrain, cut to the frame's section.
fn draw_piece(page: &mut Page, frame: &Frame, kind: TerrainKind, outline: &[Point], salt: u32) {
    let clipped = clip_polygon(outline, frame.rect);
    if clipped.is_empty() {
        return;
    }
    let pts = frame.pages(&clipped);
    let contour = |page: &mut Page, f: f32, ink: Ink, width: f32| {
        let c = clip_polygon(&shrink(outline, f), frame.rect);
        if !c.is_empty() {
            page.polygon(&frame.pages(&c), None, Some((ink, width, None)));
        }
    };
    match kind {
        TerrainKind::Hill => {
            page.polygon(&pts, Some(Ink(0.1)), None);
            contour(page, 0.6, Ink(0.6), 0.25);
            page.polygon(&pts, None, Some((Ink::BLACK, 0.45, None)));
        }
        TerrainKind::SteepHill => {
            page.polygon(&pts, Some(Ink(0.34)), None);
            contour(page, 0.72, Ink(0.85), 0.3);
            contour(page, 0.42, Ink(0.85), 0.3);
            page.polygon(&pts, None, Some((Ink::BLACK, 0.9, None)));
        }
        TerrainKind::Wood => {
            page.polygon(&pts, Some(Ink(0.14)), None);
            for (cx, cy) in grid_inside(&pts, 3.0, 2.7, true, 0.3, salt, 1.0) {
                page.circle(cx, cy, 1.1, Some(Ink::WHITE), Some((Ink::BLACK, 0.25)));
            }
            page.polygon(&pts, None, Some((Ink::BLACK, 0.45, None)));
        }
        TerrainKind::Marsh => {
            page.polygon(&pts, Some(Ink(0.04)), None);
            for (cx, cy) in grid_inside(&pts, 3.4, 2.0, true, 0.15, salt, 1.0) {
                page.line(&[(cx - 1.2, cy), (cx + 1.2, cy)], Ink::BLACK, 0.3, None);
                page.line(&[(cx - 0.5, cy - 0.7), (cx - 0.5, cy)], Ink::BLACK, 0.2, None);
                page.line(&[(cx + 0.5, cy - 0.7), (cx + 0.5, cy)], Ink::BLACK, 0.2, None);
            }
            page.polygon(&pts, None, Some((Ink::BLACK, 0.4, Some(&[0.5, 0.7]))));
        }
        TerrainKind::Rough => {
            page.polygon(&pts, Some(Ink(0.06)), None);
            for (cx, cy) in grid_inside(&pts, 2.1, 2.1, false, 0.9, salt, 0.4) {
                page.circle(cx, cy, 0.32, Some(Ink::BLACK), None);
            }
            page.polygon(&pts, None, Some((Ink::BLACK, 0.45, Some(&[1.8, 1.0]))));
        }
        TerrainKind::OliveGroves => {
            for (cx, cy) in grid_inside(&pts, 2.8, 2.8, false, 0.0, salt, 0.9) {
                page.circle(cx, cy, 0.7, None, Some((Ink::BLACK, 0.3)));
                page.circle(cx, cy, 0.15, Some(Ink::BLACK), None);
            }
            page.polygon(&pts, None, Some((Ink::BLACK, 0.45, Some(&[2.4, 0.8, 0.4, 0.8]))));
        }
        TerrainKind::City => {
            page.polygon(&pts, Some(Ink(0.22)), None);
            page.hatch(&pts, 1.2, 45.0, Ink(0.75), 0.2);
            page.polygon(&pts, None, Some((Ink::BLACK, 1.1, None)));
            // Towers on the wall.
            for p in outline.iter().filter(|p| ground_inside(frame.rect, **p)) {
                let (x, y) = frame.page(*p);
                page.rect(x - 0.8, y - 0.8, 1.6, 1.6, Some(Ink::BLACK), None);
            }
        }
        TerrainKind::Town => {
            page.polygon(&pts, Some(Ink(0.1)), None);
            page.hatch(&pts, 1.6, 45.0, Ink(0.6), 0.2);
            page.hatch(&pts, 1.6, -45.0, Ink(0.6), 0.2);
            page.polygon(&pts, None, Some((Ink::BLACK, 0.6, None)));
        }
        TerrainKind::Village => {
            page.polygon(&pts, Some(Ink(0.05)), None);
            for (cx, cy) in grid_inside(&pts, 2.4, 2.2, true, 0.3, salt, 0.8) {
                page.rect(cx - 0.6, cy - 0.5, 1.2, 1.0, Some(Ink::BLACK), None);
            }
            page.polygon(&pts, None, Some((Ink::BLACK, 0.4, Some(&[0.6, 0.6]))));
        }
    }
}

fn ground_inside(r: Rect, p: Point) -> bool {
    p.0 >= r.x_feet && p.0 <= r.x_feet + r.width_feet && p.1 >= r.y_feet && p.1 <= r.y_feet + r.height_feet
}

/// Sea: light grey with rows of small waves.
fn draw_sea(page: &mut Page, pts: &[(f32, f32)], outline: bool) {
    page.polygon(pts, Some(Ink(0.16)), None);
    for (cx, cy) in grid_inside(pts, 4.5, 2.6, true, 0.1, 7, 1.6) {
        let wave: Vec<(f32, f32)> = (0..=8u8)
            .map(|k| {
                let t = f32::from(k) / 8.0;
                (cx - 1.4 + 2.8 * t, cy - 0.35 * (t * std::f32::consts::TAU).sin())
            })
            .collect();
        page.line(&wave, Ink(0.6), 0.22, None);
    }
    if outline {
        page.polygon(pts, None, Some((Ink(0.8), 0.35, None)));
    }
}

fn draw_river(page: &mut Page, line: &[(f32, f32)]) {
    page.line(line, Ink::BLACK, 2.0, None);
    page.line(line, Ink(0.3), 1.3, None);
}

/// A ford: a pale band across the river at `at`, square to it.
fn draw_ford(page: &mut Page, frame: &Frame, river: &[Point], at: Point) {
    if !ground_inside(frame.rect, at) {
        return;
    }
    let s = ground::project_on(river, at);
    let a = frame.page(ground::point_at(river, (s - 0.05).max(0.0)));
    let b = frame.page(ground::point_at(river, s + 0.05));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(1e-4);
    let (tx, ty) = (dx / len, dy / len);
    let (nx, ny) = (-ty, tx);
    let c = frame.page(at);
    let (hl, hw) = (1.3, 2.0);
    let pts = [
        (c.0 - tx * hl - nx * hw, c.1 - ty * hl - ny * hw),
        (c.0 + tx * hl - nx * hw, c.1 + ty * hl - ny * hw),
        (c.0 + tx * hl + nx * hw, c.1 + ty * hl + ny * hw),
        (c.0 - tx * hl + nx * hw, c.1 - ty * hl + ny * hw),
    ];
    page.polygon(&pts, Some(Ink::WHITE), Some((Ink::BLACK, 0.3, None)));
    page.line(&[pts[0], pts[3]], Ink::BLACK, 0.5, None);
    page.line(&[pts[1], pts[2]], Ink::BLACK, 0.5, None);
}

fn draw_road(page: &mut Page, line: &[(f32, f32)]) {
    page.line(line, Ink::BLACK, 1.1, None);
    page.line(line, Ink::WHITE, 0.45, None);
}

/// Boxes already written on the page, to keep labels from landing on each other.
#[derive(Debug, Default)]
struct Labels {
    boxes: Vec<(f32, f32, f32, f32)>,
}

impl Labels {
    fn free(&self, b: (f32, f32, f32, f32)) -> bool {
        self.boxes.iter().all(|o| b.2 <= o.0 || b.0 >= o.2 || b.3 <= o.1 || b.1 >= o.3)
    }

    /// Writes the lines centred on (x, y), on a white ground, moving them up or down a little
    /// if they would cover another label. Lines are (text, size, face).
    fn write(&mut self, page: &mut Page, x: f32, y: f32, lines: &[(&str, f32, Face)], within: (f32, f32, f32, f32)) {
        let lines: Vec<&(&str, f32, Face)> = lines.iter().filter(|l| !l.0.is_empty()).collect();
        if lines.is_empty() {
            return;
        }
        let w = lines.iter().map(|l| page.text_width(l.0, l.1, l.2)).fold(0.0, f32::max);
        let h: f32 = lines.iter().map(|l| line_height(l.1)).sum();
        let pad = 0.6;
        for shift in [0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0] {
            let cy = y + shift * (h + pad);
            let x0 = (x - w / 2.0).clamp(within.0 + pad, (within.2 - w - pad).max(within.0 + pad));
            let y0 = (cy - h / 2.0).clamp(within.1 + pad, (within.3 - h - pad).max(within.1 + pad));
            let b = (x0 - pad, y0 - pad, x0 + w + pad, y0 + h + pad);
            if !self.free(b) && shift.abs() < 3.0 {
                continue;
            }
            page.rect(b.0, b.1, b.2 - b.0, b.3 - b.1, Some(Ink::WHITE), None);
            let mut base = y0;
            for l in &lines {
                base += line_height(l.1);
                page.text_centred(x0 + w / 2.0, base - line_height(l.1) * 0.25, l.1, l.2, l.0);
            }
            self.boxes.push(b);
            return;
        }
    }
}

/// Spreads labels of the given half-lengths, wanted at `centres`, along [lo, hi] so that none
/// overlap; gives their new centres in the same order.
fn spread(wanted: &[(f32, f32)], lo: f32, hi: f32, gap: f32) -> Vec<f32> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by(|&a, &b| wanted[a].0.total_cmp(&wanted[b].0));
    let mut at: Vec<f32> = order.iter().map(|&i| wanted[i].0).collect();
    let half: Vec<f32> = order.iter().map(|&i| wanted[i].1).collect();
    for _ in 0..3 {
        for k in 0..at.len() {
            let min = if k > 0 { at[k - 1] + half[k - 1] + gap + half[k] } else { lo + half[k] };
            at[k] = at[k].max(min);
        }
        for k in (0..at.len()).rev() {
            let max = if k + 1 < at.len() { at[k + 1] - half[k + 1] - gap - half[k] } else { hi - half[k] };
            at[k] = at[k].min(max);
        }
    }
    let mut out = vec![0.0; wanted.len()];
    for (k, &i) in order.iter().enumerate() {
        out[i] = at[k];
    }
    out
}

/// "1 : 11" for a drawing at `scale` mm to the foot, or "1 : 10.7" where it is not round.
fn scale_ratio(scale: f32) -> String {
    let ratio = 304.8 / scale;
    if (ratio - ratio.round()).abs() < 0.05 { format!("1 : {ratio:.0}") } else { format!("1 : {ratio:.1}") }
}

/// The largest scale (mm to the foot) at which the section fits a `max_w` × `max_h` box with
/// its labels.
fn fit_scale(rect: Rect, base: Edge, max_w: f32, max_h: f32) -> f32 {
    let (w, h) = Frame::turned(rect, base);
    ((max_w - LEFT - RIGHT) / w).min((max_h - TOP - BOTTOM) / h).max(1.0)
}

/// Draws the section in play to scale in the box at (x, y), at most `max_w` × `max_h` mm, the
/// attacker's base edge at the bottom; gives the width and height used.
pub fn draw_section(page: &mut Page, x: f32, y: f32, max_w: f32, max_h: f32, plan: &TablePlan) -> (f32, f32) {
    let rect = plan.section.rect;
    let base = plan.section.attacker_base;
    let scale = fit_scale(rect, base, max_w, max_h);
    let frame = Frame { rect, base, x: x + LEFT, y: y + TOP, scale };
    let (w, h) = frame.size_mm();
    let (ox, oy) = (frame.x, frame.y);
    let g = plan.ground;

    page.rect(ox, oy, w, h, Some(Ink::WHITE), None);
    for (i, t) in g.terrain.iter().enumerate() {
        draw_piece(page, &frame, t.kind, &t.outline, u32::try_from(i).unwrap_or(0) + 1);
    }
    for r in &g.rivers {
        for piece in clip_polyline(&r.points, rect) {
            draw_river(page, &frame.pages(&piece));
        }
    }
    for s in &g.sea {
        let c = clip_polygon(s, rect);
        if !c.is_empty() {
            draw_sea(page, &frame.pages(&c), true);
        }
    }
    for road in &g.roads {
        for piece in clip_polyline(&road.points, rect) {
            draw_road(page, &frame.pages(&piece));
        }
    }
    for r in &g.rivers {
        for f in &r.fords {
            draw_ford(page, &frame, &r.points, *f);
        }
    }
    if let Some(s) = &g.settlement {
        draw_piece(page, &frame, s.kind, &s.outline, 99);
    }

    // The foot grid.
    let (wf, hf) = Frame::turned(rect, base);
    let mut i = 1u8;
    while f32::from(i) < wf - 0.01 {
        let px = ox + f32::from(i) * scale;
        page.line(&[(px, oy), (px, oy + h)], Ink(0.45), 0.15, Some(&[1.0, 1.0]));
        i += 1;
    }
    let mut j = 1u8;
    while f32::from(j) < hf - 0.01 {
        let py = oy + f32::from(j) * scale;
        page.line(&[(ox, py), (ox + w, py)], Ink(0.45), 0.15, Some(&[1.0, 1.0]));
        j += 1;
    }

    // Deployment zones, each noted just inside its line near the left end.
    let mut labels = Labels::default();
    let within = (ox, oy, ox + w, oy + h);
    if let Some(d) = plan.deployment_feet.filter(|d| *d > 0.0 && *d < hf) {
        let dash: &[f32] = &[3.0, 1.5];
        let inches = crate::dbsa::inches(d * 12.0);
        for (py, who, inside) in [(oy + h - d * scale, &plan.attacker, 1.0), (oy + d * scale, &plan.defender, -1.0)] {
            page.line(&[(ox, py), (ox + w, py)], Ink::BLACK, 0.5, Some(dash));
            let note = format!("{who}: deployment zone, {inches} from the base edge");
            let tw = page.text_width(&note, NOTE_PT, Face::Regular);
            labels.write(page, ox + 2.0 + tw / 2.0, py + inside * 1.9, &[(&note, NOTE_PT, Face::Regular)], within);
        }
    }

    // Names on the terrain, the settlement, the rivers.
    let mut named: Vec<(&ground::Terrain, bool)> = g.settlement.iter().map(|s| (s, true)).collect();
    named.extend(g.terrain.iter().map(|t| (t, false)));
    for (t, is_settlement) in named {
        let clipped = clip_polygon(&t.outline, rect);
        if clipped.is_empty() {
            continue;
        }
        let pts = frame.pages(&clipped);
        let ((x0, y0), (x1, y1)) = ground::bbox(&pts);
        if x1 - x0 < 12.0 || y1 - y0 < 7.0 {
            continue;
        }
        let c = ground::centroid(&pts);
        let note = format!("{} · {}", t.kind.name(), t.going.name());
        let face = if is_settlement { Face::Bold } else { Face::Regular };
        if t.name.is_empty() {
            labels.write(page, c.0, c.1, &[(&note, NOTE_PT, Face::Regular)], within);
        } else {
            labels.write(page, c.0, c.1, &[(&t.name, NAME_PT, face), (&note, NOTE_PT, Face::Regular)], within);
        }
    }
    for r in &g.rivers {
        let pieces = clip_polyline(&r.points, rect);
        let Some(longest) = pieces.iter().max_by(|a, b| ground::length(a).total_cmp(&ground::length(b))) else { continue };
        let len = ground::length(longest);
        if len < 0.8 {
            continue;
        }
        let p = frame.page(ground::point_at(longest, len * 0.3));
        labels.write(page, p.0, p.1 - 3.0, &[(&format!("river {}", r.name), NAME_PT, Face::Regular)], within);
    }

    // The table's edge.
    page.rect(ox, oy, w, h, None, Some((Ink::BLACK, 0.7)));

    // Feet along the bottom (from the attacker's left) and up the left side.
    let mut i = 0u8;
    while f32::from(i) <= wf + 0.01 {
        page.text_centred(ox + f32::from(i) * scale, oy + h + 3.4, 7.0, Face::Regular, &format!("{i}'"));
        i += 1;
    }
    let mut j = 0u8;
    while f32::from(j) <= hf + 0.01 {
        let label = format!("{j}'");
        page.text_right(ox - 1.2, oy + h - f32::from(j) * scale + 1.0, 7.0, Face::Regular, &label);
        j += 1;
    }

    // Road exits: a mark on the table edge and "to 23 Leontini" beside it. A road that runs
    // off the table back to the town, still on the battle map, is named without the mark:
    // it is no way to retire (MG-26).
    let exits = road_exits(g, rect);
    let town = g.settlement.as_ref().map(|t| t.name.clone()).unwrap_or_default();
    let back = roads_to_settlement(g, rect);
    for side in [Side::Top, Side::Right, Side::Bottom, Side::Left] {
        let mut here: Vec<(String, (f32, f32), bool)> =
            exits.iter().filter(|e| frame.side(e.side) == side).map(|e| (e.words(), frame.page(e.at), true)).collect();
        here.extend(
            back.iter()
                .filter(|(e, _)| frame.side(*e) == side)
                .map(|(_, at)| (format!("to {town}, on the battle map"), frame.page(*at), false)),
        );
        if here.is_empty() {
            continue;
        }
        let horizontal = matches!(side, Side::Top | Side::Bottom);
        let wanted: Vec<(f32, f32)> =
            here.iter().map(|(t, p, _)| (if horizontal { p.0 } else { p.1 }, page.text_width(t, ROAD_PT, Face::Regular) / 2.0)).collect();
        let at = if horizontal { spread(&wanted, x + 2.0, x + LEFT + w + RIGHT - 2.0, 2.0) } else { spread(&wanted, oy, oy + h, 2.0) };
        for ((text, p, leaves), a) in here.iter().zip(at) {
            let (dx, dy) = match side {
                Side::Top => (0.0, -1.0),
                Side::Bottom => (0.0, 1.0),
                Side::Left => (-1.0, 0.0),
                Side::Right => (1.0, 0.0),
            };
            // An arrowhead pointing off the table where the road leaves.
            if *leaves {
                let tip = (p.0 + dx * 2.2, p.1 + dy * 2.2);
                let (nx, ny) = (-dy, dx);
                page.polygon(&[tip, (p.0 + nx * 1.2, p.1 + ny * 1.2), (p.0 - nx * 1.2, p.1 - ny * 1.2)], Some(Ink::BLACK), None);
            }
            let tw = page.text_width(text, ROAD_PT, Face::Regular);
            match side {
                Side::Bottom => page.text(a - tw / 2.0, oy + h + 8.0, ROAD_PT, Face::Regular, text),
                Side::Top => page.text(a - tw / 2.0, oy - 3.0, ROAD_PT, Face::Regular, text),
                Side::Left => page.text_up(ox - 5.5, a + tw / 2.0, ROAD_PT, Face::Regular, text),
                Side::Right => page.text_up(ox + w + 4.8, a + tw / 2.0, ROAD_PT, Face::Regular, text),
            }
        }
    }

    // Compass edges and who stands on them.
    for side in [Side::Top, Side::Right, Side::Bottom, Side::Left] {
        let e = frame.edge_on(side);
        let mut text = compass_label(rect, e);
        match side {
            Side::Bottom => text = format!("{text} — attacker's base: {}", plan.attacker),
            Side::Top => text = format!("{text} — defender's base: {}", plan.defender),
            _ => {}
        }
        let tw = page.text_width(&text, SIDE_PT, Face::Bold);
        match side {
            Side::Bottom => page.text(ox + w / 2.0 - tw / 2.0, oy + h + 13.2, SIDE_PT, Face::Bold, &text),
            Side::Top => page.text(ox + w / 2.0 - tw / 2.0, oy - 7.8, SIDE_PT, Face::Bold, &text),
            Side::Left => page.text_up(ox - 10.8, oy + h / 2.0 + tw / 2.0, SIDE_PT, Face::Bold, &text),
            Side::Right => page.text_up(ox + w + 10.0, oy + h / 2.0 + tw / 2.0, SIDE_PT, Face::Bold, &text),
        }
    }

    // North arrow, in the top-right corner: the arrow's head and the N point north.
    let (cx, cy) = (ox + w + RIGHT / 2.0, oy - TOP / 2.0 + 0.5);
    let (nx, ny) = frame.turn((0.0, -1.0));
    page.circle(cx, cy, 4.6, Some(Ink::WHITE), Some((Ink::BLACK, 0.25)));
    let tip = (cx + nx * 1.0, cy + ny * 1.0);
    let tail = (cx - nx * 3.8, cy - ny * 3.8);
    let (px, py) = (-ny, nx);
    page.line(&[tail, tip], Ink::BLACK, 0.5, None);
    page.polygon(
        &[(tip.0 + nx * 0.6, tip.1 + ny * 0.6), (cx + px * 1.3, cy + py * 1.3), (cx - px * 1.3, cy - py * 1.3)],
        Some(Ink::BLACK),
        None,
    );
    page.text_centred(cx + nx * 3.0, cy + ny * 3.0 + 0.95, 6.0, Face::Bold, "N");

    // Scale bar under everything.
    let bar_y = oy + h + 16.0;
    let feet = if wf >= 6.0 { 2u8 } else { 1u8 };
    for k in 0..feet * 2 {
        let x0 = ox + f32::from(k) * scale / 2.0;
        let fill = if k % 2 == 0 { Ink::BLACK } else { Ink::WHITE };
        page.rect(x0, bar_y, scale / 2.0, 1.6, Some(fill), Some((Ink::BLACK, 0.2)));
    }
    page.text(
        ox + f32::from(feet) * scale + 2.0,
        bar_y + 1.8,
        7.0,
        Face::Regular,
        &format!("{feet} ft   ·   1 ft = {scale:.1} mm   ·   scale {}", scale_ratio(scale)),
    );
    page.text_centred(ox, bar_y + 5.0, 7.0, Face::Regular, "0");

    (LEFT + w + RIGHT, TOP + h + BOTTOM)
}

/// The whole 8'×8' map, north up, in a `size` mm square at (x, y) (the compass letters take
/// the outer 3.5 mm), with the section in play framed thickly and, on a 4'×6' table, the strip
/// the attacker cut shown hatched.
pub fn draw_overview(page: &mut Page, x: f32, y: f32, size: f32, ground: &Ground, section: Option<&Section>) {
    let band = 3.5;
    let inner = size - 2.0 * band;
    let whole = Rect { x_feet: 0.0, y_feet: 0.0, width_feet: MAP_FEET, height_feet: MAP_FEET };
    let frame = Frame { rect: whole, base: Edge::South, x: x + band, y: y + band, scale: inner / MAP_FEET };
    let (ox, oy) = (frame.x, frame.y);
    page.rect(ox, oy, inner, inner, Some(Ink::WHITE), None);
    for t in ground.terrain.iter().chain(ground.settlement.iter()) {
        let pts = frame.pages(&t.outline);
        let (fill, stroke, dash): (Ink, f32, Option<&[f32]>) = match t.kind {
            TerrainKind::Hill => (Ink(0.12), 0.3, None),
            TerrainKind::SteepHill => (Ink(0.4), 0.5, None),
            TerrainKind::Wood => (Ink(0.22), 0.3, None),
            TerrainKind::Marsh => (Ink(0.05), 0.3, Some(&[0.4, 0.5])),
            TerrainKind::Rough => (Ink(0.08), 0.3, Some(&[1.0, 0.6])),
            TerrainKind::OliveGroves => (Ink(0.03), 0.3, Some(&[1.4, 0.5, 0.3, 0.5])),
            TerrainKind::City => (Ink(0.7), 0.7, None),
            TerrainKind::Town => (Ink(0.5), 0.4, None),
            TerrainKind::Village => (Ink(0.3), 0.3, None),
        };
        page.polygon(&pts, Some(fill), Some((Ink::BLACK, stroke, dash)));
    }
    for s in &ground.sea {
        let pts = frame.pages(s);
        page.polygon(&pts, Some(Ink(0.18)), None);
        page.hatch(&pts, 1.2, 0.0, Ink(0.45), 0.12);
    }
    for r in &ground.rivers {
        page.line(&frame.pages(&r.points), Ink(0.55), 0.8, None);
    }
    for road in &ground.roads {
        page.line(&frame.pages(&road.points), Ink::BLACK, 0.35, None);
    }
    // The nine areas of the map file.
    for k in 1..3u8 {
        let f = f32::from(k) * inner / 3.0;
        page.line(&[(ox + f, oy), (ox + f, oy + inner)], Ink(0.5), 0.15, Some(&[0.5, 0.8]));
        page.line(&[(ox, oy + f), (ox + inner, oy + f)], Ink(0.5), 0.15, Some(&[0.5, 0.8]));
    }
    page.rect(ox, oy, inner, inner, None, Some((Ink::BLACK, 0.35)));
    if let Some(s) = section {
        let corners = |r: Rect| {
            [
                (r.x_feet, r.y_feet),
                (r.x_feet + r.width_feet, r.y_feet),
                (r.x_feet + r.width_feet, r.y_feet + r.height_feet),
                (r.x_feet, r.y_feet + r.height_feet),
            ]
        };
        if s.cut.is_some() {
            let strip = crate::section::section(s.attacker_base, s.defence, None).rect;
            page.polygon(&frame.pages(&corners(strip)), None, Some((Ink::BLACK, 0.5, Some(&[1.2, 0.8]))));
            // The 2' the attacker cut off: the strip less the section.
            let off = cut_off(strip, s.rect);
            if let Some(r) = off {
                let pts = frame.pages(&corners(r));
                page.hatch(&pts, 0.9, 45.0, Ink(0.8), 0.2);
            }
        }
        page.polygon(&frame.pages(&corners(s.rect)), None, Some((Ink::BLACK, 1.2, None)));
        // The attacker's base: an arrowhead on that side of the section, pointing in.
        let r = s.rect;
        let mid = (r.x_feet + r.width_feet / 2.0, r.y_feet + r.height_feet / 2.0);
        let (dx, dy) = s.attacker_base.outward();
        let edge_mid = (mid.0 + dx * r.width_feet / 2.0, mid.1 + dy * r.height_feet / 2.0);
        let p = frame.page(edge_mid);
        let (nx, ny) = (-dy, dx);
        let depth = 2.6;
        page.polygon(
            &[(p.0 - dx * depth, p.1 - dy * depth), (p.0 + nx * 1.8, p.1 + ny * 1.8), (p.0 - nx * 1.8, p.1 - ny * 1.8)],
            Some(Ink::BLACK),
            Some((Ink::WHITE, 0.3, None)),
        );
    }
    // The destination's number (or name) just inside the edge each road leaves by, on a white
    // ground so that it reads over woods and hills alike; the labels of one edge spread along
    // it so that none overprints another or runs off the map.
    const ROAD_LABEL_PT: f32 = 6.0;
    for edge in Edge::ALL {
        let here: Vec<(&str, (f32, f32), f32)> = ground
            .roads
            .iter()
            .filter(|r| r.edge == edge)
            .filter_map(|r| Some((r.label.as_str(), frame.page(*r.points.last()?), page.text_width(&r.label, ROAD_LABEL_PT, Face::Bold))))
            .collect();
        let horizontal = matches!(edge, Edge::North | Edge::South);
        let wanted: Vec<(f32, f32)> = here.iter().map(|(_, p, w)| if horizontal { (p.0, w / 2.0 + 0.5) } else { (p.1, 1.45) }).collect();
        let at =
            if horizontal { spread(&wanted, ox + 0.3, ox + inner - 0.3, 0.6) } else { spread(&wanted, oy + 0.3, oy + inner - 0.3, 0.3) };
        for ((label, _, lw), a) in here.iter().zip(at) {
            let (lx, ly) = match edge {
                Edge::North => (a, oy + 2.1),
                Edge::South => (a, oy + inner - 2.1),
                // Along a side edge the label reads inward from it.
                Edge::West => (ox + 0.8 + lw / 2.0, a),
                Edge::East => (ox + inner - 0.8 - lw / 2.0, a),
            };
            page.rect(lx - lw / 2.0 - 0.5, ly - 1.6, lw + 1.0, 2.9, Some(Ink::WHITE), None);
            page.text_centred(lx, ly + 0.9, ROAD_LABEL_PT, Face::Bold, label);
        }
    }
    for e in Edge::ALL {
        let (dx, dy) = e.outward();
        let c = (ox + inner / 2.0 + dx * (inner / 2.0 + band / 2.0), oy + inner / 2.0 + dy * (inner / 2.0 + band / 2.0));
        let letter = &e.name()[..1].to_uppercase();
        page.text_centred(c.0, c.1 + 1.0, 6.0, Face::Bold, letter);
    }
}

/// The part of `strip` outside `kept` (the 2' cut from a 4'×8' strip), if any.
fn cut_off(strip: Rect, kept: Rect) -> Option<Rect> {
    let same_x = (strip.x_feet - kept.x_feet).abs() < 0.01 && (strip.width_feet - kept.width_feet).abs() < 0.01;
    if same_x {
        let y = if (kept.y_feet - strip.y_feet).abs() < 0.01 { kept.y_feet + kept.height_feet } else { strip.y_feet };
        let h = strip.height_feet - kept.height_feet;
        (h > 0.01).then_some(Rect { x_feet: strip.x_feet, y_feet: y, width_feet: strip.width_feet, height_feet: h })
    } else {
        let x = if (kept.x_feet - strip.x_feet).abs() < 0.01 { kept.x_feet + kept.width_feet } else { strip.x_feet };
        let w = strip.width_feet - kept.width_feet;
        (w > 0.01).then_some(Rect { x_feet: x, y_feet: strip.y_feet, width_feet: w, height_feet: strip.height_feet })
    }
}

/// One entry of the legend.
#[derive(Debug, Clone, Copy)]
enum Symbol {
    Sea,
    Terrain(TerrainKind),
    River,
    Ford,
    Road,
    Exit,
    Deployment,
    Grid,
}

fn legend_entries() -> Vec<(Symbol, String)> {
    let mut out = vec![(Symbol::Sea, "sea — impassable".to_owned())];
    for k in TerrainKind::ALL {
        let mut name = k.name().to_owned();
        if let Some(first) = name.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        out.push((Symbol::Terrain(k), format!("{name} — {}", k.going().name())));
    }
    out.push((Symbol::River, "River — going as the rules in use grade it".to_owned()));
    out.push((Symbol::Ford, "Ford — where roads cross the river".to_owned()));
    out.push((Symbol::Road, "Road — good going".to_owned()));
    out.push((Symbol::Exit, "Road leaves the table: a way to retire".to_owned()));
    out.push((Symbol::Deployment, "Deployment limit".to_owned()));
    out.push((Symbol::Grid, "1-foot grid".to_owned()));
    if let Some(first) = out[0].1.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}

const LEGEND_PT: f32 = 7.0;
const LEGEND_ROW: f32 = 7.6;
const SWATCH_W: f32 = 10.0;
const SWATCH_H: f32 = 5.4;

/// Columns, column width and height of the legend in `width` mm.
fn legend_layout(page: &Page, width: f32) -> (usize, f32, f32) {
    let entries = legend_entries();
    let text = entries.iter().map(|(_, t)| page.text_width(t, LEGEND_PT, Face::Regular)).fold(0.0, f32::max);
    let col = SWATCH_W + 2.5 + text + 4.0;
    let mut cols = 1usize;
    while fl(cols + 1) * col <= width && cols < entries.len() {
        cols += 1;
    }
    let rows = entries.len().div_ceil(cols);
    (cols, col, 5.0 + fl(rows) * LEGEND_ROW)
}

/// The legend: every symbol on the table sheet with its going, in as many columns as fit in
/// `width` mm. Gives the y below it.
pub fn draw_legend(page: &mut Page, x: f32, y: f32, width: f32) -> f32 {
    let (cols, col, height) = legend_layout(page, width);
    page.text(x, y + 3.2, 8.0, Face::Bold, "Key");
    let entries = legend_entries();
    let rows = entries.len().div_ceil(cols);
    for (i, (symbol, text)) in entries.iter().enumerate() {
        let (c, r) = (i / rows, i % rows);
        let sx = x + fl(c) * col;
        let sy = y + 5.0 + fl(r) * LEGEND_ROW;
        draw_swatch(page, sx, sy, *symbol, u32::try_from(i).unwrap_or(0));
        page.text(sx + SWATCH_W + 2.5, sy + SWATCH_H / 2.0 + 1.0, LEGEND_PT, Face::Regular, text);
    }
    y + height
}

fn draw_swatch(page: &mut Page, x: f32, y: f32, symbol: Symbol, salt: u32) {
    let (w, h) = (SWATCH_W, SWATCH_H);
    let frame = Frame {
        rect: Rect { x_feet: x - 1.0, y_feet: y - 1.0, width_feet: w + 2.0, height_feet: h + 2.0 },
        base: Edge::South,
        x: x - 1.0,
        y: y - 1.0,
        scale: 1.0,
    };
    let blob: Vec<Point> = (0..24u8)
        .map(|k| {
            let a = f32::from(k) * std::f32::consts::TAU / 24.0;
            (x + w / 2.0 + w / 2.0 * a.cos(), y + h / 2.0 + h / 2.0 * a.sin())
        })
        .collect();
    let box_pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
    match symbol {
        Symbol::Sea => draw_sea(page, &box_pts, true),
        Symbol::Terrain(k) => {
            let shape: Vec<Point> = if k.is_settlement() {
                vec![(x + 1.0, y + 0.6), (x + w - 1.5, y + 0.3), (x + w - 0.5, y + h - 1.0), (x + 2.0, y + h - 0.4)]
            } else {
                blob
            };
            draw_piece(page, &frame, k, &shape, salt);
        }
        Symbol::River => draw_river(page, &[(x, y + h * 0.7), (x + w * 0.4, y + h * 0.3), (x + w, y + h * 0.5)]),
        Symbol::Ford => {
            let river = [(x, y + h / 2.0), (x + w, y + h / 2.0)];
            draw_river(page, &river);
            draw_road(page, &[(x + w / 2.0, y), (x + w / 2.0, y + h)]);
            draw_ford(page, &frame, &river, (x + w / 2.0, y + h / 2.0));
        }
        Symbol::Road => draw_road(page, &[(x, y + h * 0.7), (x + w * 0.5, y + h * 0.35), (x + w, y + h * 0.4)]),
        Symbol::Exit => {
            page.line(&[(x, y + h), (x + w, y + h)], Ink::BLACK, 0.7, None);
            draw_road(page, &[(x + w / 2.0, y), (x + w / 2.0, y + h)]);
            let p = (x + w / 2.0, y + h);
            page.polygon(&[(p.0, p.1 + 2.2), (p.0 + 1.2, p.1), (p.0 - 1.2, p.1)], Some(Ink::BLACK), None);
        }
        Symbol::Deployment => page.line(&[(x, y + h / 2.0), (x + w, y + h / 2.0)], Ink::BLACK, 0.5, Some(&[3.0, 1.5])),
        Symbol::Grid => {
            page.rect(x, y, w, h, None, Some((Ink::BLACK, 0.3)));
            page.line(&[(x + w / 2.0, y), (x + w / 2.0, y + h)], Ink(0.45), 0.15, Some(&[1.0, 1.0]));
        }
    }
}

fn defence_name(d: Defence) -> &'static str {
    match d {
        Defence::Forward => "forward",
        Defence::Central => "central",
        Defence::Rear => "rear",
    }
}

/// A Magna Graecia section in words, for a table page drawn without a campaign's own
/// description: `central defence, table 4' × 6', the attacker cut 2' off its left`.
pub fn section_setting(s: &Section) -> String {
    let size = format!("{:.0}' × {:.0}'", s.rect.width_feet.min(s.rect.height_feet), s.rect.width_feet.max(s.rect.height_feet));
    let cut = match s.cut {
        Some(f) => format!(", the attacker cut {CUT_FEET:.0}' off its {}", if f == crate::section::Flank::Left { "left" } else { "right" }),
        None => String::new(),
    };
    format!("{} defence, table {size}{cut}", defence_name(s.defence))
}

/// A whole landscape page: the title, the section as large as the paper allows, the legend and
/// the whole map inset. Lays the page out whichever way gives the section the larger scale.
pub fn table_page(doc: &Document, plan: &TablePlan) -> Page {
    let mut page = doc.page(true);
    let (pw, ph) = (page.width, page.height);
    let m = 9.0;
    page.text(m, m + 4.5, 14.0, Face::Bold, &plan.title);
    let s = &plan.section;
    let sub = format!(
        "{} — {}. Attacker {} from the {} edge; defender {}. North is where the arrow points.",
        plan.place,
        plan.setting,
        plan.attacker,
        s.attacker_base.name(),
        plan.defender,
    );
    page.text(m, m + 10.0, 7.5, Face::Regular, &sub);
    let top = m + 13.0;
    // The page's foot holds the line of what the page is, and "page n of m".
    let bottom = ph - FOOTER_ROOM;
    let (bw, bh) = (pw - 2.0 * m, bottom - top);

    let rect = s.rect;
    let base = s.attacker_base;
    // A: legend and inset in a column at the right.
    let col_w = 66.0;
    let scale_a = fit_scale(rect, base, bw - col_w - 3.0, bh);
    // B: the inset at the right of the section, the legend across the bottom.
    let inset_b = 52.0;
    let (_, _, legend_h_b) = legend_layout(&page, bw);
    let scale_b = fit_scale(rect, base, bw - inset_b - 3.0, bh - legend_h_b - 2.0);

    if scale_a >= scale_b {
        let (w, _h) = draw_section(&mut page, m, top, bw - col_w - 3.0, bh, plan);
        let cx = (m + w + 3.0).max(pw - m - col_w);
        let cw = pw - m - cx;
        let after = draw_legend(&mut page, cx, top, cw);
        let mut inset = cw;
        while inset > 30.0 && after + 2.0 + inset_height(&page, inset, cw) > bottom {
            inset -= 1.0;
        }
        overview_with_caption(&mut page, cx, after + 2.0, inset, cw, plan);
    } else {
        let (w, h) = draw_section(&mut page, m, top, bw - inset_b - 3.0, bh - legend_h_b - 2.0, plan);
        let ix = m + w + 3.0;
        let mut inset = pw - m - ix;
        while inset > 30.0 && inset_height(&page, inset, pw - m - ix) > h {
            inset -= 1.0;
        }
        overview_with_caption(&mut page, ix, top, inset, pw - m - ix, plan);
        draw_legend(&mut page, m, top + h + 2.0, bw);
    }
    page
}

/// Room kept at the foot of the table page for its footer.
const FOOTER_ROOM: f32 = 18.0;

const OVERVIEW_NOTE: &str = "Thick frame: the table; arrowhead: the attacker's base edge; at the map's edges: where the roads lead.";

/// Height of the inset `size` mm wide with its title and caption, in a column `width` mm
/// wide: the caption beside the inset where there is room for it, else under it.
fn inset_height(page: &Page, size: f32, width: f32) -> f32 {
    match caption_beside(size, width) {
        Some(w) => 4.5 + size.max(fl(page.wrap(OVERVIEW_NOTE, NOTE_PT, Face::Regular, w).len()) * line_height(NOTE_PT)) + 1.5,
        None => 4.5 + size + 1.5 + fl(page.wrap(OVERVIEW_NOTE, NOTE_PT, Face::Regular, size).len()) * line_height(NOTE_PT),
    }
}

/// The caption's width beside an inset `size` mm wide in a column `width` mm wide, if it fits.
fn caption_beside(size: f32, width: f32) -> Option<f32> {
    let room = width - size - 2.5;
    (room >= 24.0).then_some(room)
}

fn overview_with_caption(page: &mut Page, x: f32, y: f32, size: f32, width: f32, plan: &TablePlan) {
    page.text(x, y + 3.2, 8.0, Face::Bold, "Whole map, north up");
    draw_overview(page, x, y + 4.5, size, plan.ground, Some(&plan.section));
    match caption_beside(size, width) {
        Some(w) => page.paragraph(x + size + 2.5, y + 4.5 + 3.0, w, NOTE_PT, Face::Regular, OVERVIEW_NOTE),
        None => page.paragraph(x, y + 4.5 + size + 2.6, size, NOTE_PT, Face::Regular, OVERVIEW_NOTE),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// the printed scale says one decimal where the ratio is not round.
    #[test]
    fn x_04_the_scale_is_written_to_one_decimal_where_it_is_not_round() {
        assert_eq!(scale_ratio(304.8 / 10.7), "1 : 10.7");
        assert_eq!(scale_ratio(304.8 / 12.0), "1 : 12");
        assert_eq!(scale_ratio(304.8 / 11.98), "1 : 12");
    }
    use crate::Paper;
    use crate::magna_graecia::node_ground;
    use crate::pdf::extract_text;
    use crate::section::{Flank, section};
    use referee_campaign::magna_graecia::catalog::Catalog;

    fn plan<'a>(g: &'a Ground, s: Section, deployment: Option<f32>) -> TablePlan<'a> {
        TablePlan {
            ground: g,
            section: s,
            attacker: "Carthaginians".to_owned(),
            defender: "Syracusans".to_owned(),
            place: format!("{} {}", g.node, g.name),
            setting: section_setting(&s),
            deployment_feet: deployment,
            title: format!("Battle at {} {}", g.node, g.name),
        }
    }

    /// MG-21, MG-26: a table page for every node of Sicily, entered by each of its roads' edges,
    /// with each defence and now and then a 4'×6' cut, on A4 and Letter: the text read back
    /// from the PDF names every road leaving the section, both sides on their base edges and
    /// all four compass edges.
    #[test]
    fn mg_21_mg_26_table_pages_name_roads_sides_and_edges() {
        let catalog = Catalog::embedded();
        let map = catalog.map("sicily").unwrap();
        let mut checked = 0;
        for (n, id) in map.nodes.keys().enumerate() {
            let g = node_ground(map, *id).unwrap();
            let edges: std::collections::BTreeSet<Edge> = map.node(*id).unwrap().battlefield.roads.values().copied().collect();
            for (k, edge) in edges.into_iter().enumerate() {
                let defence = [Defence::Forward, Defence::Central, Defence::Rear][(n + k) % 3];
                let cut = [None, Some(Flank::Left), None, Some(Flank::Right)][(n + 2 * k) % 4];
                let paper = if (n + k) % 2 == 0 { Paper::A4 } else { Paper::Letter };
                let s = section(edge, defence, cut);
                let p = plan(&g, s, if k % 2 == 0 { Some(1.0) } else { None });
                let mut doc = Document::new(&p.title, paper);
                let page = table_page(&doc, &p);
                doc.add(page);
                let text = extract_text(&doc.finish()).unwrap().join("\n");
                let exits = road_exits(&g, s.rect);
                for e in &exits {
                    let label = format!("to {} {}", e.to, e.to_name);
                    assert!(text.contains(&label), "{} {edge}: {label} missing", g.name);
                }
                for want in ["attacker's base: Carthaginians", "defender's base: Syracusans", &p.title] {
                    assert!(text.contains(want), "{} {edge}: {want} missing", g.name);
                }
                for e in Edge::ALL {
                    let label = compass_label(s.rect, e);
                    assert!(text.contains(&label), "{} {edge}: compass label {label} missing", g.name);
                }
                checked += 1;
            }
        }
        assert!(checked > 60, "{checked}");
    }

    /// MG-21: the drawing is turned so the attacker's base edge is at the bottom of the page,
    /// and the sides are named accordingly.
    #[test]
    fn mg_21_the_attackers_edge_is_drawn_at_the_bottom() {
        let r = section(Edge::West, Defence::Forward, None).rect;
        let f = Frame { rect: r, base: Edge::West, x: 0.0, y: 0.0, scale: 10.0 };
        assert_eq!(f.side(Edge::West), Side::Bottom);
        assert_eq!(f.side(Edge::East), Side::Top);
        // Facing east from the west edge, south is on the attacker's right.
        assert_eq!(f.side(Edge::South), Side::Right);
        assert_eq!(f.size_mm(), (80.0, 40.0));
        // The map's north-west corner lies on the attacker's edge at its left hand: the page's
        // bottom-left.
        assert_eq!(f.page((0.0, 0.0)), (0.0, 40.0));
        for base in Edge::ALL {
            let s = section(base, Defence::Central, None);
            let f = Frame { rect: s.rect, base, x: 0.0, y: 0.0, scale: 1.0 };
            assert_eq!(f.side(base), Side::Bottom);
            assert_eq!(f.edge_on(Side::Bottom), base);
            let (w, h) = f.size_mm();
            assert_eq!((w, h), (8.0, 4.0), "{base:?}");
            // Every corner of the section lands on a corner of the drawing.
            let r = s.rect;
            for c in [(r.x_feet, r.y_feet), (r.x_feet + r.width_feet, r.y_feet + r.height_feet)] {
                let (px, py) = f.page(c);
                assert!((px.abs() < 1e-4 || (px - w).abs() < 1e-4) && (py.abs() < 1e-4 || (py - h).abs() < 1e-4), "{base:?} {c:?}");
            }
        }
    }

    /// Labels along a side never overlap once spread.
    #[test]
    fn road_labels_are_spread_apart() {
        let at = spread(&[(10.0, 5.0), (11.0, 5.0), (12.0, 5.0)], 0.0, 100.0, 1.0);
        for i in 0..3 {
            for j in i + 1..3 {
                assert!((at[i] - at[j]).abs() >= 11.0 - 1e-4, "{at:?}");
            }
        }
    }
}
