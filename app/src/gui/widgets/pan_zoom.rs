//! Pan and zoom of a map drawn in km, and the filling of its outlines: both engines' maps
//! and the picker's previews of them are drawn with these.

use egui::epaint::Mesh;
use egui::{Color32, Painter, Pos2, Rect, Shape, Vec2, vec2};

/// Pan and zoom of a map drawn in km, for both campaigns' maps: double-click fits, drag
/// pans, the wheel or a pinch zooms around the pointer.
#[derive(Debug)]
pub(crate) struct PanZoom {
    /// Screen points per km; 0 until the map is first fitted.
    pub(crate) zoom: f32,
    /// Where km (0, 0) lies, from the canvas's top-left corner.
    pub(crate) offset: Vec2,
    /// Once the referee pans or zooms, resizing the window no longer refits the map.
    moved_by_user: bool,
    pub(crate) canvas: Rect,
    zoom_range: (f32, f32),
}

impl PanZoom {
    /// Zoom kept within `min`…`max` screen points per km.
    pub(crate) fn new(min: f32, max: f32) -> PanZoom {
        PanZoom { zoom: 0.0, offset: Vec2::ZERO, moved_by_user: false, canvas: Rect::NOTHING, zoom_range: (min, max) }
    }

    pub fn fit_next_frame(&mut self) {
        self.zoom = 0.0;
        self.moved_by_user = false;
    }

    /// Fits `area` (km) into `canvas` with `margin` points around it.
    pub(crate) fn fit(&mut self, canvas: Rect, area: Rect, margin: f32) {
        let avail = (canvas.size() - Vec2::splat(2.0 * margin)).max(Vec2::splat(10.0));
        self.zoom = (avail.x / area.width().max(1.0)).min(avail.y / area.height().max(1.0));
        self.offset = canvas.size() / 2.0 - area.center().to_vec2() * self.zoom;
        self.moved_by_user = false;
    }

    pub(crate) fn zoom_around(&mut self, pointer: Pos2, canvas: Rect, factor: f32) {
        let new_zoom = (self.zoom * factor).clamp(self.zoom_range.0, self.zoom_range.1);
        let km = (pointer - canvas.min - self.offset) / self.zoom;
        self.offset = pointer - canvas.min - km * new_zoom;
        self.zoom = new_zoom;
        self.moved_by_user = true;
    }

    /// Follows the pointer on the map drawn in `response`; `area` is what a fit shows. The
    /// map is refitted when the canvas changes size, until the referee has moved it.
    pub(crate) fn input(&mut self, ui: &egui::Ui, response: &egui::Response, area: Rect, margin: f32) {
        let canvas = response.rect;
        if self.zoom <= 0.0 || (!self.moved_by_user && self.canvas.size() != canvas.size()) {
            self.fit(canvas, area, margin);
        }
        self.canvas = canvas;
        if response.double_clicked() {
            self.fit(canvas, area, margin);
        } else if response.dragged() {
            self.offset += response.drag_delta();
            self.moved_by_user = true;
        }
        if response.hovered() {
            let (scroll, pinch, pointer) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta(), i.pointer.hover_pos()));
            let factor = (scroll / 400.0).exp() * pinch;
            if let Some(p) = pointer
                && (factor - 1.0).abs() > 1e-4
            {
                self.zoom_around(p, canvas, factor);
            }
        }
    }

    /// Where a point in km lands on the screen.
    pub(crate) fn pos(&self, x_km: f32, y_km: f32) -> Pos2 {
        self.canvas.min + self.offset + vec2(x_km, y_km) * self.zoom
    }
}

/// Fills a polygon, given in screen points, with the triangles [`triangulate`] made of it.
pub(crate) fn fill_polygon(painter: &Painter, points: &[Pos2], triangles: &[[usize; 3]], fill: Color32) {
    let mut mesh = Mesh::default();
    for &p in points {
        mesh.colored_vertex(p, fill);
    }
    for t in triangles {
        if t.iter().all(|&i| i < points.len()) {
            mesh.add_triangle(t[0] as u32, t[1] as u32, t[2] as u32);
        }
    }
    painter.add(Shape::mesh(mesh));
}

/// Fills `frame` but for the simple polygon `hole` inside it, so that what fills the hole
/// afterwards (an island's land, over its sea) is the only paint on those pixels. Without a
/// graphics card every pixel painted twice costs, and the sea under an island is a third of
/// the map. Returns false, having painted nothing, where `hole` is not well inside `frame`
/// (zoomed in, the island reaches past the canvas) or could not be cut out exactly: the
/// caller then fills the whole frame.
pub(crate) fn fill_around(painter: &Painter, frame: Rect, hole: &[Pos2], fill: Color32) -> bool {
    let Some(triangles) = around(frame, hole) else { return false };
    let mut mesh = Mesh::default();
    for t in triangles {
        let base = mesh.vertices.len() as u32;
        for p in t {
            mesh.colored_vertex(p, fill);
        }
        mesh.add_triangle(base, base + 1, base + 2);
    }
    painter.add(Shape::mesh(mesh));
    true
}

/// The triangles of `frame` outside `hole`, or `None` where `hole` does not lie well inside
/// `frame` or the triangles would not cover exactly what they should.
///
/// The frame is cut along the lines from the hole's leftmost point to the frame's left
/// corners and from its rightmost point to the right corners: nothing of the hole lies
/// beyond its leftmost or rightmost point, so these cuts cross none of it. They leave four
/// simple pieces: a triangle at each side, and above and below the hole the frame's top or
/// bottom edge closed by one of the two runs of the hole's outline between those points.
fn around(frame: Rect, hole: &[Pos2]) -> Option<Vec<[Pos2; 3]>> {
    let n = hole.len();
    if n < 3 || !hole.iter().all(|p| p.is_finite() && frame.shrink(1.0).contains(*p)) {
        return None;
    }
    let by_x = |a: &usize, b: &usize| hole[*a].x.total_cmp(&hole[*b].x);
    let (left, right) = ((0..n).min_by(by_x)?, (0..n).max_by(by_x)?);
    if left == right {
        return None;
    }
    // The two runs of the outline from the leftmost point to the rightmost, both drawn from
    // left to right.
    let run_to = |from: usize, to: usize| {
        let mut run = vec![hole[from]];
        let mut i = from;
        while i != to {
            i = (i + 1) % n;
            run.push(hole[i]);
        }
        run
    };
    let one = run_to(left, right);
    let mut other = run_to(right, left);
    other.reverse();
    let piece = |run: &[Pos2], corners: [Pos2; 2]| -> Vec<Pos2> { run.iter().copied().chain(corners).collect() };
    let top = [frame.right_top(), frame.left_top()];
    let bottom = [frame.right_bottom(), frame.left_bottom()];
    // Closed by the wrong edge, a run takes in the hole as well: the right choice is the one
    // with less area.
    let (upper, lower) = {
        let a = (piece(&one, top), piece(&other, bottom));
        let b = (piece(&other, top), piece(&one, bottom));
        if area(&a.0) + area(&a.1) <= area(&b.0) + area(&b.1) { a } else { b }
    };
    let (l, r) = (hole[left], hole[right]);
    let mut triangles = vec![[frame.left_top(), l, frame.left_bottom()], [frame.right_top(), frame.right_bottom(), r]];
    for piece in [upper, lower] {
        let points: Vec<(f32, f32)> = piece.iter().map(|p| (p.x, p.y)).collect();
        let cut = triangulate(&points);
        // A simple polygon of n corners is n − 2 triangles: fewer, and the ear clipper
        // stopped on an outline it could not cut.
        if cut.len() + 2 != piece.len() {
            return None;
        }
        triangles.extend(cut.into_iter().map(|[a, b, c]| [piece[a], piece[b], piece[c]]));
    }
    // Every triangle's area adds up to the frame's less the hole's, or something was left out.
    let from = frame.min.to_vec2();
    let covered: f32 = triangles.iter().map(|t| area(&t.map(|p| p - from))).sum();
    let hole: Vec<Pos2> = hole.iter().map(|p| *p - from).collect();
    let expected = frame.area() - area(&hole);
    ((covered - expected).abs() <= frame.area() * 1e-5).then_some(triangles)
}

/// The area of a polygon, whichever way round it goes; best measured near the origin.
fn area(points: &[Pos2]) -> f32 {
    let n = points.len();
    let twice: f32 = (0..n).map(|i| points[i].x * points[(i + 1) % n].y - points[(i + 1) % n].x * points[i].y).sum();
    twice.abs() / 2.0
}

/// Ear-clipping triangulation of a simple polygon (the island's outline is concave, and
/// egui fills only convex paths).
pub(crate) fn triangulate(points: &[(f32, f32)]) -> Vec<[usize; 3]> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    let p = |i: usize| points[i];
    let cross = |a: usize, b: usize, c: usize| {
        let (a, b, c) = (p(a), p(b), p(c));
        (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0)
    };
    let area2: f32 = (0..n).map(|i| p(i).0 * p((i + 1) % n).1 - p((i + 1) % n).0 * p(i).1).sum();
    let mut ring: Vec<usize> = (0..n).collect();
    if area2 < 0.0 {
        ring.reverse();
    }
    let inside = |q: usize, a: usize, b: usize, c: usize| cross(a, b, q) >= 0.0 && cross(b, c, q) >= 0.0 && cross(c, a, q) >= 0.0;
    let mut out = Vec::with_capacity(n - 2);
    while ring.len() > 3 {
        let m = ring.len();
        let ear = (0..m).find(|&i| {
            let (a, b, c) = (ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]);
            cross(a, b, c) > 0.0 && !ring.iter().any(|&q| q != a && q != b && q != c && inside(q, a, b, c))
        });
        // A self-touching outline has no ear left; what is filled so far is still right.
        let Some(i) = ear else { break };
        out.push([ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]]);
        ring.remove(i);
    }
    if ring.len() == 3 {
        out.push([ring[0], ring[1], ring[2]]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    fn inside_triangle(q: Pos2, [a, b, c]: [Pos2; 3]) -> bool {
        let side = |p: Pos2, u: Pos2, v: Pos2| (v - u).x * (p - u).y - (v - u).y * (p - u).x;
        let (x, y, z) = (side(q, a, b), side(q, b, c), side(q, c, a));
        (x > 0.0 && y > 0.0 && z > 0.0) || (x < 0.0 && y < 0.0 && z < 0.0)
    }

    fn inside_polygon(q: Pos2, points: &[Pos2]) -> bool {
        let n = points.len();
        (0..n).fold(false, |inside, i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let crosses = (a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x);
            inside != crosses
        })
    }

    /// Every point of a fine grid over `frame` lies in exactly one of the triangles or in the
    /// hole: nothing is painted twice, nothing left bare.
    fn covers_once(frame: Rect, hole: &[Pos2]) {
        let triangles = around(frame, hole).expect("the hole lies inside the frame");
        let step = 0.37;
        let mut y = frame.top() + step / 2.0;
        while y < frame.bottom() {
            let mut x = frame.left() + step / 2.0;
            while x < frame.right() {
                let q = pos2(x, y);
                let count = triangles.iter().filter(|t| inside_triangle(q, **t)).count() + usize::from(inside_polygon(q, hole));
                // The grid's odd step misses the edges, where a point would belong to neither.
                assert_eq!(count, 1, "{q:?} is covered {count} times");
                x += step;
            }
            y += step;
        }
    }

    #[test]
    fn the_sea_is_the_canvas_but_the_island_both_ways_round() {
        let frame = Rect::from_min_size(pos2(10.0, 20.0), vec2(300.0, 200.0));
        let map = referee_campaign::magna_graecia::catalog::Catalog::embedded().map("sicily").cloned().unwrap();
        let island: Vec<Pos2> = map.outline.iter().map(|&(x, y)| pos2(12.0 + x * 0.95, 30.0 + y * 0.9)).collect();
        covers_once(frame, &island);
        let reversed: Vec<Pos2> = island.iter().rev().copied().collect();
        covers_once(frame, &reversed);
        // A cup open to the top, and one open to the bottom: a run of the outline turns back.
        let cup = [
            pos2(60.0, 60.0),
            pos2(90.0, 60.0),
            pos2(90.0, 150.0),
            pos2(200.0, 150.0),
            pos2(200.0, 60.0),
            pos2(230.0, 60.0),
            pos2(230.0, 180.0),
            pos2(60.0, 180.0),
        ];
        covers_once(frame, &cup);
        let upside_down: Vec<Pos2> = cup.iter().map(|p| pos2(p.x, 240.0 - p.y)).collect();
        covers_once(frame, &upside_down);
    }

    #[test]
    fn an_island_past_the_canvas_is_left_to_the_whole_sea() {
        let frame = Rect::from_min_size(pos2(0.0, 0.0), vec2(100.0, 100.0));
        let past = [pos2(50.0, 50.0), pos2(120.0, 50.0), pos2(80.0, 90.0)];
        assert!(around(frame, &past).is_none());
        let touching = [pos2(0.5, 50.0), pos2(60.0, 40.0), pos2(60.0, 60.0)];
        assert!(around(frame, &touching).is_none(), "a hole on the frame's edge is not cut out");
        let line = [pos2(50.0, 50.0), pos2(50.0, 50.0), pos2(50.0, 50.0)];
        assert!(around(frame, &line).is_none());
    }
}
