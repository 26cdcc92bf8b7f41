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
