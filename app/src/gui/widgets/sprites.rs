//! Small symbols drawn once into a picture and shown as that picture in every frame after.
//!
//! Without a graphics card each triangle of a frame is the processor's. A map marker drawn as
//! egui shapes costs hundreds of them: every edge gets a band of blur triangles, every ring
//! and wave a strip of its own, every stripe of a pattern its own line. A marker rarely
//! changes from one frame to the next, so it is better sketched once ([`Sketch`]), rasterised
//! once at the screen's own density with the same one-pixel soft edge egui gives a shape, and
//! drawn as one picture: two triangles. The pictures are kept in the context's memory while
//! they are drawn and let go when a frame or two has passed without them.

use std::collections::HashMap;
use std::sync::Arc;

use egui::{Color32, ColorImage, Galley, Id, Painter, Pos2, Rect, Stroke, TextureHandle, TextureOptions, Vec2, pos2, vec2};

/// A shape of a sketch, in points from the sketch's anchor.
#[derive(Debug, Clone, PartialEq)]
enum Form {
    Disc {
        centre: Pos2,
        radius: f32,
    },
    /// A circle's outline, `width` across, centred on `radius`.
    Ring {
        centre: Pos2,
        radius: f32,
        width: f32,
    },
    /// A rectangle with corners rounded by `rounding`.
    Rect {
        rect: Rect,
        rounding: f32,
    },
    /// A rectangle's outline, `width` across, centred on its edge.
    RectOutline {
        rect: Rect,
        rounding: f32,
        width: f32,
    },
    /// A line through the points, `width` across; `closed` joins the last to the first.
    Line {
        points: Vec<Pos2>,
        width: f32,
        closed: bool,
    },
    /// A filled polygon (any shape: a point is inside by the even-odd rule).
    Polygon {
        points: Vec<Pos2>,
    },
}

impl Form {
    /// How far `p` lies outside the shape, in points (negative inside). Where that is more
    /// than `near` either way, it may be said as any distance beyond `near` on the same side:
    /// a line's or a polygon's segments farther than that are not asked.
    fn distance(&self, p: Pos2, near: f32) -> f32 {
        match self {
            Form::Disc { centre, radius } => norm(p - *centre) - radius,
            Form::Ring { centre, radius, width } => (norm(p - *centre) - radius).abs() - width / 2.0,
            Form::Rect { rect, rounding } => rounded_box(p, *rect, *rounding),
            Form::RectOutline { rect, rounding, width } => rounded_box(p, *rect, *rounding).abs() - width / 2.0,
            Form::Line { points, width, closed } => {
                let n = points.len();
                let last = if *closed { n } else { n.saturating_sub(1) };
                // An open line ends square at both ends, as egui's lines do; its joins are round.
                let square = |end: bool| !*closed && end;
                (0..last)
                    .filter(|&i| within(p, [points[i], points[(i + 1) % n]], width / 2.0 + near))
                    .map(|i| to_stroke(p, [points[i], points[(i + 1) % n]], width / 2.0, [square(i == 0), square(i + 2 == n)]))
                    .fold(f32::INFINITY, f32::min)
            }
            Form::Polygon { points } => {
                let n = points.len();
                let edge = (0..n)
                    .filter(|&i| within(p, [points[i], points[(i + 1) % n]], near))
                    .map(|i| to_stroke(p, [points[i], points[(i + 1) % n]], 0.0, [false; 2]))
                    .fold(f32::INFINITY, f32::min);
                if inside(p, points) { -edge } else { edge }
            }
        }
    }

    /// How much of the pixel at `p` the shape covers, `pixel` points across: a soft edge one
    /// pixel wide, half covered on the shape's true edge, as egui's own edges are.
    fn coverage(&self, p: Pos2, pixel: f32) -> f32 {
        (0.5 - self.distance(p, pixel) / pixel).clamp(0.0, 1.0)
    }

    /// The shape with its rectangles' edges on the screen's pixels, as egui puts them: a
    /// rectangle's on the lines between pixels, an outline's on the middle of a pixel when it
    /// is an odd number of pixels wide. Only rectangles move, by at most half a pixel.
    fn on_pixels(&self, pixels_per_point: f32) -> Form {
        let to_lines = |x: f32| (x * pixels_per_point).round() / pixels_per_point;
        let to_middles = |x: f32| ((x * pixels_per_point - 0.5).round() + 0.5) / pixels_per_point;
        let snap = |rect: &Rect, at: &dyn Fn(f32) -> f32| {
            Rect::from_min_max(pos2(at(rect.min.x), at(rect.min.y)), pos2(at(rect.max.x), at(rect.max.y)))
        };
        match self {
            Form::Rect { rect, rounding } => Form::Rect { rect: snap(rect, &to_lines), rounding: *rounding },
            Form::RectOutline { rect, rounding, width } => {
                let odd = ((width * pixels_per_point).round() as i64) % 2 == 1;
                let rect = if odd { snap(rect, &to_middles) } else { snap(rect, &to_lines) };
                Form::RectOutline { rect, rounding: *rounding, width: *width }
            }
            other => other.clone(),
        }
    }

    /// The box the shape stays inside.
    fn bounds(&self) -> Rect {
        match self {
            Form::Disc { centre, radius } => Rect::from_center_size(*centre, Vec2::splat(2.0 * radius)),
            Form::Ring { centre, radius, width } => Rect::from_center_size(*centre, Vec2::splat(2.0 * radius + width)),
            Form::Rect { rect, .. } => *rect,
            Form::RectOutline { rect, width, .. } => rect.expand(width / 2.0),
            Form::Line { points, width, .. } => Rect::from_points(points).expand(width / 2.0),
            Form::Polygon { points } => Rect::from_points(points),
        }
    }

    /// The shape written as numbers, for telling one sketch from another.
    fn write(&self, key: &mut Vec<u32>) {
        let mut put = |xs: &[f32]| key.extend(xs.iter().map(|x| x.to_bits()));
        match self {
            Form::Disc { centre, radius } => put(&[0.0, centre.x, centre.y, *radius]),
            Form::Ring { centre, radius, width } => put(&[1.0, centre.x, centre.y, *radius, *width]),
            Form::Rect { rect, rounding } => put(&[2.0, rect.min.x, rect.min.y, rect.max.x, rect.max.y, *rounding]),
            Form::RectOutline { rect, rounding, width } => {
                put(&[3.0, rect.min.x, rect.min.y, rect.max.x, rect.max.y, *rounding, *width]);
            }
            Form::Line { points, width, closed } => {
                put(&[4.0, *width, if *closed { 1.0 } else { 0.0 }, points.len() as f32]);
                points.iter().for_each(|p| put(&[p.x, p.y]));
            }
            Form::Polygon { points } => {
                put(&[5.0, points.len() as f32]);
                points.iter().for_each(|p| put(&[p.x, p.y]));
            }
        }
    }
}

/// The length of `v`. egui's `length` asks the C library's `hypot`, which guards against
/// overflow no symbol's few points need, and costs several times a square root; the
/// rasteriser asks it for every shape at every pixel.
fn norm(v: Vec2) -> f32 {
    (v.x * v.x + v.y * v.y).sqrt()
}

/// Whether `p` lies within `reach` of the segment's box: farther, it is farther from the
/// segment too.
fn within(p: Pos2, [a, b]: [Pos2; 2], reach: f32) -> bool {
    p.x >= a.x.min(b.x) - reach && p.x <= a.x.max(b.x) + reach && p.y >= a.y.min(b.y) - reach && p.y <= a.y.max(b.y) + reach
}

/// A channel from 0 to 1 as a byte, to the nearest (without the C library's `roundf`, which
/// the rasterisers would call for every channel of every pixel).
fn to_byte(c: f32) -> u8 {
    (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// Signed distance from `p` to a rectangle with rounded corners.
fn rounded_box(p: Pos2, rect: Rect, rounding: f32) -> f32 {
    let rounding = rounding.clamp(0.0, rect.size().min_elem() / 2.0);
    let q = (p - rect.center()).abs() - rect.size() / 2.0 + Vec2::splat(rounding);
    norm(q.max(Vec2::ZERO)) + q.x.max(q.y).min(0.0) - rounding
}

/// Signed distance from `p` to a stroke `half` wide either side of the segment `a`–`b`; an
/// end marked `square` is cut square at the end point, the others are rounded.
fn to_stroke(p: Pos2, [a, b]: [Pos2; 2], half: f32, square: [bool; 2]) -> f32 {
    let length = norm(b - a);
    if length <= 0.0 {
        return norm(p - a) - half;
    }
    let along_unit = (b - a) / length;
    let along = (p - a).dot(along_unit);
    let across = (p - a).dot(along_unit.rot90()).abs() - half;
    let beyond = if along < 0.0 && square[0] {
        Some(-along)
    } else if along > length && square[1] {
        Some(along - length)
    } else {
        None
    };
    match beyond {
        // Outside a square end: the distance to a box.
        Some(out) if across > 0.0 => norm(vec2(out, across)),
        Some(out) => out.max(across),
        None => norm(p - (a + along_unit * along.clamp(0.0, length))) - half,
    }
}

fn inside(p: Pos2, points: &[Pos2]) -> bool {
    let n = points.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

#[derive(Debug, Clone, PartialEq)]
struct Layer {
    form: Form,
    colour: Color32,
    /// Painted only inside this shape (a pattern inside its marker).
    within: Option<Form>,
}

/// A symbol as a list of shapes painted one over the other, in points from an anchor.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Sketch {
    layers: Vec<Layer>,
    /// Shapes that clip what is added while they are set (see [`Sketch::within`]).
    within: Option<Form>,
}

impl Sketch {
    fn add(&mut self, form: Form, colour: Color32) {
        if colour.a() > 0 {
            self.layers.push(Layer { form, colour, within: self.within.clone() });
        }
    }

    /// A filled circle with an outline, as `Painter::circle`.
    pub(crate) fn disc(&mut self, centre: Pos2, radius: f32, fill: Color32, stroke: Stroke) {
        self.add(Form::Disc { centre, radius }, fill);
        self.ring(centre, radius, stroke);
    }

    /// A circle's outline, centred on `radius`, as `Painter::circle_stroke`.
    pub(crate) fn ring(&mut self, centre: Pos2, radius: f32, stroke: Stroke) {
        if stroke.width > 0.0 {
            self.add(Form::Ring { centre, radius, width: stroke.width }, stroke.color);
        }
    }

    /// A filled rectangle with rounded corners.
    pub(crate) fn rect(&mut self, rect: Rect, rounding: f32, fill: Color32) {
        self.add(Form::Rect { rect, rounding }, fill);
    }

    /// A rectangle's outline, centred on its edge (`StrokeKind::Middle`).
    pub(crate) fn rect_stroke(&mut self, rect: Rect, rounding: f32, stroke: Stroke) {
        if stroke.width > 0.0 {
            self.add(Form::RectOutline { rect, rounding, width: stroke.width }, stroke.color);
        }
    }

    /// A line through `points`, as `Painter::line` (or `Shape::closed_line` when `closed`).
    pub(crate) fn line(&mut self, points: Vec<Pos2>, stroke: Stroke, closed: bool) {
        if stroke.width > 0.0 && !points.is_empty() {
            self.add(Form::Line { points, width: stroke.width, closed }, stroke.color);
        }
    }

    /// A filled polygon, convex or not.
    pub(crate) fn polygon(&mut self, points: Vec<Pos2>, fill: Color32) {
        if points.len() >= 3 {
            self.add(Form::Polygon { points }, fill);
        }
    }

    /// What `paint` adds is painted only inside the circle.
    pub(crate) fn within_circle(&mut self, centre: Pos2, radius: f32, paint: impl FnOnce(&mut Sketch)) {
        self.within(Form::Disc { centre, radius }, paint);
    }

    /// What `paint` adds is painted only inside the polygon.
    pub(crate) fn within_polygon(&mut self, points: Vec<Pos2>, paint: impl FnOnce(&mut Sketch)) {
        self.within(Form::Polygon { points }, paint);
    }

    /// What `paint` adds is painted only inside the rectangle.
    pub(crate) fn within_rect(&mut self, rect: Rect, paint: impl FnOnce(&mut Sketch)) {
        self.within(Form::Rect { rect, rounding: 0.0 }, paint);
    }

    fn within(&mut self, clip: Form, paint: impl FnOnce(&mut Sketch)) {
        let before = self.within.replace(clip);
        paint(self);
        self.within = before;
    }

    /// The box every shape stays inside, in points from the anchor.
    fn bounds(&self) -> Rect {
        self.layers.iter().map(|l| l.form.bounds()).fold(Rect::NOTHING, Rect::union)
    }

    /// Everything that makes the picture, at `pixels_per_point`, as numbers.
    fn key(&self, pixels_per_point: f32) -> Vec<u32> {
        let mut key = vec![pixels_per_point.to_bits()];
        for layer in &self.layers {
            layer.form.write(&mut key);
            key.push(u32::from_le_bytes(layer.colour.to_array()));
            match &layer.within {
                Some(clip) => clip.write(&mut key),
                None => key.push(u32::MAX),
            }
        }
        key
    }

    /// The whole pixels the picture covers, from the anchor (which stands on a pixel's
    /// corner): the shapes' box and the soft edge around it.
    fn pixels(&self, pixels_per_point: f32) -> Option<([i32; 2], [usize; 2])> {
        let b = self.bounds();
        if !b.is_positive() {
            return None;
        }
        let min = [(b.min.x * pixels_per_point).floor() - 1.0, (b.min.y * pixels_per_point).floor() - 1.0];
        let max = [(b.max.x * pixels_per_point).ceil() + 1.0, (b.max.y * pixels_per_point).ceil() + 1.0];
        // A symbol is a few dozen pixels across; anything beyond a texture's side is not one.
        let side = |lo: f32, hi: f32| (hi - lo).clamp(1.0, 2048.0) as usize;
        Some(([min[0] as i32, min[1] as i32], [side(min[0], max[0]), side(min[1], max[1])]))
    }

    /// The picture, its top-left pixel `origin` from the anchor: each shape painted over the
    /// ones before, premultiplied, as egui blends.
    fn rasterise(&self, pixels_per_point: f32, origin: [i32; 2], size: [usize; 2]) -> ColorImage {
        let pixel = 1.0 / pixels_per_point;
        let layers: Vec<Layer> = self
            .layers
            .iter()
            .map(|l| Layer {
                form: l.form.on_pixels(pixels_per_point),
                colour: l.colour,
                within: l.within.as_ref().map(|w| w.on_pixels(pixels_per_point)),
            })
            .collect();
        // Where each shape may touch, soft edge and all: a pixel outside is not asked.
        let reach: Vec<Rect> = layers
            .iter()
            .map(|l| {
                let mut r = l.form.bounds().expand(pixel);
                if let Some(clip) = &l.within {
                    r = r.intersect(clip.bounds().expand(pixel));
                }
                r
            })
            .collect();
        let colours: Vec<[f32; 4]> = layers.iter().map(|l| l.colour.to_array().map(|c| f32::from(c) / 255.0)).collect();
        let mut pixels = Vec::with_capacity(size[0] * size[1]);
        for j in 0..size[1] {
            for i in 0..size[0] {
                let at = pos2((origin[0] as f32 + i as f32 + 0.5) * pixel, (origin[1] as f32 + j as f32 + 0.5) * pixel);
                let mut out = [0.0f32; 4];
                for ((layer, reach), colour) in layers.iter().zip(&reach).zip(&colours) {
                    if !reach.contains(at) {
                        continue;
                    }
                    let mut cover = layer.form.coverage(at, pixel);
                    if cover > 0.0
                        && let Some(clip) = &layer.within
                    {
                        cover *= clip.coverage(at, pixel);
                    }
                    if cover <= 0.0 {
                        continue;
                    }
                    let src = colour.map(|c| c * cover);
                    let keep = 1.0 - src[3];
                    for (o, s) in out.iter_mut().zip(src) {
                        *o = s + *o * keep;
                    }
                }
                let [r, g, b, a] = out.map(to_byte);
                pixels.push(Color32::from_rgba_premultiplied(r, g, b, a));
            }
        }
        ColorImage::new(size, pixels)
    }
}

/// A sketch's place in the shared picture, and the last frame that drew it.
#[derive(Clone, Copy)]
struct Placed {
    at: [usize; 2],
    size: [usize; 2],
    drawn: u64,
}

/// A row of the shared picture, filled from the left.
#[derive(Clone, Copy)]
struct Shelf {
    top: usize,
    height: usize,
    filled: usize,
}

/// A sketch too big for the room left, in a texture of its own.
#[derive(Clone)]
struct Alone {
    texture: TextureHandle,
    size: [usize; 2],
    drawn: u64,
}

/// The pictures made so far. They share one texture, packed in rows, so that a map's
/// symbols are drawn together rather than one texture at a time.
#[derive(Clone, Default)]
struct Pictures {
    /// The density the pictures are made at, as bits.
    density: u32,
    atlas: Option<TextureHandle>,
    side: usize,
    /// The largest side a texture may have here.
    largest: usize,
    shelves: Vec<Shelf>,
    bottom: usize,
    placed: HashMap<Arc<[u32]>, Placed>,
    alone: HashMap<Arc<[u32]>, Alone>,
    /// The frame whose start last let go of the pictures no longer drawn.
    swept: u64,
}

/// Frames a picture is kept without being drawn: a discarded pass and a repaint.
const KEPT_FRAMES: u64 = 2;

/// Room between pictures, in pixels, so that none bleeds into the next.
const PADDING: usize = 1;

impl Pictures {
    /// The shared texture starts with room for the symbols and names of a map at its start,
    /// with some to spare: the window's first frame sends the whole of it. (At 256 points a
    /// side, Sicily's first frame at 1280×800 did not fit: its pictures were all made and
    /// sent again at the second frame, a twentieth of the start-up.) It may grow to twice
    /// that side, and to no more than the screen takes.
    fn new(pixels_per_point: f32, largest: usize) -> Self {
        let at = |points: f32| ((points * pixels_per_point.max(1.0)).ceil() as usize).next_power_of_two();
        let largest = at(1024.0).min(largest).max(64);
        Pictures { density: pixels_per_point.to_bits(), side: at(512.0).min(largest), largest, ..Pictures::default() }
    }

    /// At a frame's start: pictures no longer drawn are let go. The shared texture is packed
    /// again from empty (the pictures still drawn are made again as they are drawn) once it
    /// is three quarters full and some of it is no longer drawn, or once a picture did not fit
    /// (zooming makes every picture anew each frame). It is made twice as large, up to its
    /// largest, only when what the last frame drew would not fit in it with room to spare.
    fn sweep(&mut self, frame: u64) {
        if self.swept >= frame {
            return;
        }
        self.swept = frame;
        let kept = |drawn: u64| drawn + KEPT_FRAMES >= frame;
        let overflowed = !self.alone.is_empty();
        if overflowed {
            let area = |[w, h]: [usize; 2]| (w + PADDING) * (h + PADDING);
            let last = |drawn: u64| drawn + 1 >= frame;
            let needed: usize = self.placed.values().filter(|p| last(p.drawn)).map(|p| area(p.size)).sum::<usize>()
                + self.alone.values().filter(|a| last(a.drawn)).map(|a| area(a.size)).sum::<usize>();
            if needed * 5 / 4 > self.side * self.side && self.side * 2 <= self.largest {
                self.side *= 2;
                self.atlas = None;
            }
            self.alone.clear();
        }
        if overflowed || (self.bottom * 4 > self.side * 3 && self.placed.values().any(|p| !kept(p.drawn))) {
            self.placed.clear();
            self.shelves.clear();
            self.bottom = 0;
        }
    }

    fn find(&mut self, key: &[u32], frame: u64) -> Option<(egui::TextureId, Rect)> {
        if let Some(p) = self.placed.get_mut(key) {
            p.drawn = frame;
            let texture = self.atlas.as_ref()?.id();
            return Some((texture, uv(p.at, p.size, self.side)));
        }
        let a = self.alone.get_mut(key)?;
        a.drawn = frame;
        Some((a.texture.id(), Rect::from_min_max(Pos2::ZERO, pos2(1.0, 1.0))))
    }

    /// A free spot for a picture of `size` pixels, if the shared texture has room.
    fn reserve(&mut self, size: [usize; 2]) -> Option<[usize; 2]> {
        let (w, h) = (size[0] + PADDING, size[1] + PADDING);
        let side = self.side;
        if let Some(shelf) = self.shelves.iter_mut().find(|s| s.height >= h && s.height <= h + h / 4 + 2 && s.filled + w <= side) {
            let at = [shelf.filled, shelf.top];
            shelf.filled += w;
            return Some(at);
        }
        if self.bottom + h <= side && w <= side {
            self.shelves.push(Shelf { top: self.bottom, height: h, filled: w });
            let at = [0, self.bottom];
            self.bottom += h;
            return Some(at);
        }
        None
    }
}

/// Where a picture lies in a texture `side` pixels square, from 0 to 1.
fn uv(at: [usize; 2], size: [usize; 2], side: usize) -> Rect {
    let side = side as f32;
    Rect::from_min_size(pos2(at[0] as f32 / side, at[1] as f32 / side), vec2(size[0] as f32 / side, size[1] as f32 / side))
}

/// Where the copies of a text that make its halo stand, in points from the text: a point and
/// a little every way (each copy on its nearest pixel, as egui puts a text).
const HALO_OFFSETS: [(f32, f32); 8] =
    [(-1.0, -1.0), (0.0, -1.2), (1.0, -1.0), (-1.2, 0.0), (1.2, 0.0), (-1.0, 1.0), (0.0, 1.2), (1.0, 1.0)];

/// A text's glyphs as egui draws them: each glyph's box of pixels from the text's own corner,
/// where its pixels lie in the font's texture, and which glyph it is (its character and its
/// font's height), for where egui makes its texture anew and puts other glyphs where these
/// were.
struct Glyphs(Vec<Glyph>);

/// One glyph of a text.
#[derive(Clone, Copy)]
struct Glyph {
    /// Its box's top-left pixel, from the text's corner.
    at: [i32; 2],
    /// The corners of its pixels in the font's texture, the second past the last.
    lo: [u16; 2],
    hi: [u16; 2],
    /// Its character and its font's height, as bits.
    which: [u32; 2],
}

/// Marks a halo's key apart from a sketch's, whose shapes start with a small number.
const HALO_KEY: u32 = u32::MAX - 1;

impl Glyphs {
    /// The glyphs of `galley`, if it is plain text laid out at `pixels_per_point`: no italics,
    /// background, lines or coloured glyphs, which are not a glyph's pixels alone.
    fn of(galley: &Galley, pixels_per_point: f32) -> Option<Glyphs> {
        if galley.pixels_per_point != pixels_per_point
            || galley.job.sections.iter().any(|s| {
                let f = &s.format;
                f.italics || f.background != Color32::TRANSPARENT || f.underline.width > 0.0 || f.strikethrough.width > 0.0
            })
        {
            return None;
        }
        let to_pixel = |x: f32| (x * pixels_per_point).round() as i32;
        let mut glyphs = Vec::new();
        for row in &galley.rows {
            for glyph in &row.glyphs {
                if glyph.is_color {
                    return None;
                }
                let uv = glyph.uv_rect;
                if uv.is_nothing() {
                    continue;
                }
                // As egui's layout puts a glyph: its corner on a pixel, the row's on another.
                let corner = glyph.pos + uv.offset;
                let at = [to_pixel(row.pos.x) + to_pixel(corner.x), to_pixel(row.pos.y) + to_pixel(corner.y)];
                glyphs.push(Glyph { at, lo: uv.min, hi: uv.max, which: [u32::from(glyph.chr), glyph.font_height.to_bits()] });
            }
        }
        Some(Glyphs(glyphs))
    }

    /// The halo's pixels from the text's corner: the glyphs' boxes and `reach` around them.
    fn pixels(&self, reach: i32) -> Option<([i32; 2], [usize; 2])> {
        let mut min = [i32::MAX; 2];
        let mut max = [i32::MIN; 2];
        for Glyph { at, lo, hi, .. } in &self.0 {
            for k in 0..2 {
                min[k] = min[k].min(at[k]);
                max[k] = max[k].max(at[k] + i32::from(hi[k]) - i32::from(lo[k]));
            }
        }
        if min[0] >= max[0] || min[1] >= max[1] {
            return None;
        }
        let side = |k: usize| (max[k] - min[k] + 2 * reach).clamp(1, 2048) as usize;
        Some(([min[0] - reach, min[1] - reach], [side(0), side(1)]))
    }

    fn key(&self, pixels_per_point: f32, colour: Color32, offsets: &[[i32; 2]]) -> Vec<u32> {
        let mut key = vec![pixels_per_point.to_bits(), HALO_KEY, u32::from_le_bytes(colour.to_array())];
        key.extend(offsets.iter().flatten().map(|d| *d as u32));
        for Glyph { at, lo, hi, which } in &self.0 {
            let pair = |p: [u16; 2]| u32::from(p[0]) << 16 | u32::from(p[1]);
            key.extend([at[0] as u32, at[1] as u32, pair(*lo), pair(*hi), which[0], which[1]]);
        }
        key
    }

    /// The halo in `colour`, its top-left pixel `origin` from the text's corner: each glyph,
    /// its coverage read from the font's texture `font`, painted once at each of `offsets`
    /// (in pixels), one over the other, premultiplied, as egui would blend the copies.
    fn halo(&self, font: &ColorImage, origin: [i32; 2], size: [usize; 2], offsets: &[[i32; 2]], colour: Color32) -> ColorImage {
        let [w, h] = size;
        // Glyphs of one colour, one over another, leave of what lay under them the product of
        // what each leaves, in any order: each covered texel of each glyph multiplies that
        // into the pixels its copies land on (overlapping glyphs too, each on its own, as egui
        // draws each glyph's box on its own).
        let alpha = f32::from(colour.a()) / 255.0;
        let mut left = vec![1.0f32; w * h];
        for Glyph { at, lo, hi, .. } in &self.0 {
            for v in lo[1]..hi[1] {
                for u in lo[0]..hi[0] {
                    let texel = font.pixels.get(usize::from(v) * font.size[0] + usize::from(u)).map_or(0, |c| c.a());
                    if texel == 0 {
                        continue;
                    }
                    let keep = 1.0 - alpha * f32::from(texel) / 255.0;
                    let x = at[0] + i32::from(u - lo[0]) - origin[0];
                    let y = at[1] + i32::from(v - lo[1]) - origin[1];
                    for [dx, dy] in offsets {
                        let (tx, ty) = (x + dx, y + dy);
                        if (0..w as i32).contains(&tx) && (0..h as i32).contains(&ty) {
                            left[ty as usize * w + tx as usize] *= keep;
                        }
                    }
                }
            }
        }
        // The colour as it would be unmultiplied, then multiplied by what the copies cover.
        let unmultiplied = colour.to_array().map(|c| if alpha > 0.0 { f32::from(c) / 255.0 / alpha } else { 0.0 });
        let pixels = left
            .iter()
            .map(|left| {
                let covered = 1.0 - left;
                let [r, g, b] = [0, 1, 2].map(|k| to_byte(unmultiplied[k] * covered));
                Color32::from_rgba_premultiplied(r, g, b, to_byte(covered))
            })
            .collect();
        ColorImage::new(size, pixels)
    }
}

/// Where egui puts each copy of a halo asked for at `pos`, in whole pixels from the text: on
/// the pixel nearest to where it is asked for, so that how far a copy lands from the text
/// depends on where between pixels that is.
fn copy_offsets(pos: Pos2, pixels_per_point: f32) -> [[i32; 2]; 8] {
    let pixel = |x: f32| (x * pixels_per_point).round() as i32;
    HALO_OFFSETS.map(|(dx, dy)| [pixel(pos.x + dx) - pixel(pos.x), pixel(pos.y + dy) - pixel(pos.y)])
}

/// Sketches drawn as pictures.
pub(crate) trait Sprites {
    /// Draws `sketch` with its anchor at `anchor`, moved to the nearest pixel's corner so that
    /// the picture's pixels fall on the screen's.
    fn sprite(&self, anchor: Pos2, sketch: &Sketch);

    /// Sketches with `draw`, around the anchor, and draws the sketch as [`Sprites::sprite`].
    fn sketch(&self, anchor: Pos2, draw: impl FnOnce(&mut Sketch)) {
        let mut sketch = Sketch::default();
        draw(&mut sketch);
        self.sprite(anchor, &sketch);
    }

    /// Sketches a symbol filling `rect`, anchored at its centre: `draw` is given the rectangle
    /// as it stands around the anchor.
    fn sketch_in(&self, rect: Rect, draw: impl FnOnce(&mut Sketch, Rect)) {
        let centre = rect.center();
        self.sketch(centre, |s| draw(s, rect.translate(-centre.to_vec2())));
    }

    /// Draws the halo of each text laid out at its place, in `colour`: the text spread a
    /// point every way ([`HALO_OFFSETS`]), as eight copies of it would be, but made once into
    /// a picture and drawn as that. Eight copies of every name cost eight times the name's
    /// pixels in every frame; the picture, its box once. The texts themselves are the
    /// caller's to draw, after all the halos, so that each texture is drawn in one go.
    fn halos(&self, texts: &[(Pos2, Arc<Galley>)], colour: Color32);

    /// The halo of a text at `pos` as egui's eight copies of it, in `colour`: for the few
    /// texts drawn among other symbols, where a picture would break the drawing of each
    /// texture in one go, and for the texts [`Sprites::halos`] cannot make a picture of.
    fn halo_copies(&self, pos: Pos2, galley: &Arc<Galley>, colour: Color32);
}

impl Sprites for Painter {
    fn sprite(&self, anchor: Pos2, sketch: &Sketch) {
        let ppp = self.pixels_per_point();
        let Some((origin, size)) = sketch.pixels(ppp) else { return };
        picture(self, anchor, &sketch.key(ppp), origin, size, || sketch.rasterise(ppp, origin, size));
    }

    fn halos(&self, texts: &[(Pos2, Arc<Galley>)], colour: Color32) {
        let ppp = self.pixels_per_point();
        // The font's texture is read once, and only if a halo is new: every text here was
        // laid out before, so its glyphs are in it.
        let mut font: Option<ColorImage> = None;
        // Once egui's font texture is this full, or overflowed and was written again over the
        // glyphs already in it, egui makes it anew at the next frame: till then, halos are
        // drawn as copies, and none is made from glyphs about to move.
        let renewing = self.ctx().fonts(|f| f.font_atlas_fill_ratio()) > 0.8;
        for (pos, galley) in texts {
            match Glyphs::of(galley, ppp) {
                Some(glyphs) if !renewing => {
                    let offsets = copy_offsets(*pos, ppp);
                    let reach = offsets.iter().flatten().map(|d| d.abs()).max().unwrap_or(0);
                    let Some((origin, size)) = glyphs.pixels(reach) else { continue };
                    picture(self, *pos, &glyphs.key(ppp, colour, &offsets), origin, size, || {
                        let font = font.get_or_insert_with(|| self.ctx().fonts(|f| f.image()));
                        glyphs.halo(font, origin, size, &offsets, colour)
                    });
                }
                _ => self.halo_copies(*pos, galley, colour),
            }
        }
    }

    fn halo_copies(&self, pos: Pos2, galley: &Arc<Galley>, colour: Color32) {
        for (dx, dy) in HALO_OFFSETS {
            self.galley_with_override_text_color(pos + vec2(dx, dy), galley.clone(), colour);
        }
    }
}

/// Draws the picture kept under `key`, made by `make` if there is none yet: `size` pixels,
/// its top-left pixel `origin` pixels from the anchor, which is moved to the nearest pixel's
/// corner (as egui moves a text) so that the picture's pixels fall on the screen's.
fn picture(painter: &Painter, anchor: Pos2, key: &[u32], origin: [i32; 2], size: [usize; 2], make: impl FnOnce() -> ColorImage) {
    let ppp = painter.pixels_per_point();
    let ctx = painter.ctx();
    let frame = ctx.cumulative_frame_nr();
    let id = Id::unique("referee-sprites");
    let largest = ctx.input(|i| i.max_texture_side);
    let found = ctx.data_mut(|d| {
        let pictures = d.get_temp_mut_or_default::<Pictures>(id);
        if pictures.density != ppp.to_bits() {
            // A new density: the pictures are made again at it.
            *pictures = Pictures::new(ppp, largest);
        }
        pictures.sweep(frame);
        pictures.find(key, frame)
    });
    let (texture, uv_rect) = match found {
        Some(found) => found,
        None => {
            let image = make();
            let spot = ctx.data_mut(|d| {
                let pictures = d.get_temp_mut_or_default::<Pictures>(id);
                pictures.reserve(size).map(|at| (at, pictures.atlas.clone(), pictures.side))
            });
            match spot {
                Some((at, atlas, side)) => {
                    let mut atlas = atlas.unwrap_or_else(|| {
                        let blank = ColorImage::new([side, side], vec![Color32::TRANSPARENT; side * side]);
                        ctx.load_texture("sprites", blank, TextureOptions::LINEAR)
                    });
                    atlas.set_partial(at, image, TextureOptions::LINEAR);
                    let texture = atlas.id();
                    ctx.data_mut(|d| {
                        let pictures = d.get_temp_mut_or_default::<Pictures>(id);
                        pictures.atlas = Some(atlas);
                        pictures.placed.insert(key.into(), Placed { at, size, drawn: frame });
                    });
                    (texture, uv(at, size, side))
                }
                None => {
                    let handle = ctx.load_texture("sprite", image, TextureOptions::LINEAR);
                    let texture = handle.id();
                    ctx.data_mut(|d| {
                        let pictures = d.get_temp_mut_or_default::<Pictures>(id);
                        pictures.alone.insert(key.into(), Alone { texture: handle, size, drawn: frame });
                    });
                    (texture, Rect::from_min_max(Pos2::ZERO, pos2(1.0, 1.0)))
                }
            }
        }
    };
    let corner = (anchor.to_vec2() * ppp).round();
    let min = (corner + vec2(origin[0] as f32, origin[1] as f32)) / ppp;
    let rect = Rect::from_min_size(min.to_pos2(), vec2(size[0] as f32, size[1] as f32) / ppp);
    painter.image(texture, rect, uv_rect, Color32::WHITE);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alpha(image: &ColorImage, origin: [i32; 2], x: i32, y: i32) -> u8 {
        let (i, j) = ((x - origin[0]) as usize, (y - origin[1]) as usize);
        image.pixels[j * image.size[0] + i].a()
    }

    #[test]
    fn a_disc_is_solid_inside_clear_outside_and_half_on_its_edge() {
        let mut s = Sketch::default();
        s.disc(Pos2::ZERO, 5.0, Color32::BLACK, Stroke::NONE);
        let (origin, size) = s.pixels(1.0).unwrap();
        assert_eq!(origin, [-6, -6]);
        assert_eq!(size, [12, 12]);
        let image = s.rasterise(1.0, origin, size);
        assert_eq!(alpha(&image, origin, 0, 0), 255);
        assert_eq!(alpha(&image, origin, -6, -6), 0);
        // The pixel from 4 to 5 has its middle about half a pixel inside the edge: all but
        // covered; the one from 5 to 6 half a pixel outside: clear.
        assert!(alpha(&image, origin, 4, 0) >= 240);
        assert_eq!(alpha(&image, origin, 5, 0), 0);
        let mut s = Sketch::default();
        s.disc(Pos2::ZERO, 5.5, Color32::BLACK, Stroke::NONE);
        let image = s.rasterise(1.0, origin, size);
        assert!((120..=135).contains(&alpha(&image, origin, 5, 0)), "half covered on the edge");
    }

    #[test]
    fn shapes_are_painted_over_one_another_in_order() {
        let mut s = Sketch::default();
        s.rect(Rect::from_center_size(Pos2::ZERO, Vec2::splat(10.0)), 0.0, Color32::RED);
        s.disc(Pos2::ZERO, 2.0, Color32::BLUE, Stroke::NONE);
        let (origin, size) = s.pixels(1.0).unwrap();
        let image = s.rasterise(1.0, origin, size);
        let at = |x: i32, y: i32| image.pixels[((y - origin[1]) as usize) * size[0] + (x - origin[0]) as usize];
        assert_eq!(at(0, 0), Color32::BLUE);
        assert_eq!(at(3, 3), Color32::RED);
        // Half-transparent ink over red, premultiplied.
        let mut s = Sketch::default();
        s.rect(Rect::from_center_size(Pos2::ZERO, Vec2::splat(10.0)), 0.0, Color32::RED);
        s.rect(Rect::from_center_size(Pos2::ZERO, Vec2::splat(10.0)), 0.0, Color32::from_black_alpha(128));
        let image = s.rasterise(1.0, origin, size);
        let c = image.pixels[((0 - origin[1]) as usize) * size[0] + (0 - origin[0]) as usize];
        assert_eq!((c.r(), c.g(), c.a()), (127, 0, 255));
    }

    #[test]
    fn a_pattern_stays_within_its_shape() {
        let mut s = Sketch::default();
        s.within_circle(Pos2::ZERO, 4.0, |s| s.line(vec![pos2(-20.0, 0.0), pos2(20.0, 0.0)], Stroke::new(2.0, Color32::BLACK), false));
        let (origin, size) = s.pixels(1.0).unwrap();
        let image = s.rasterise(1.0, origin, size);
        assert_eq!(alpha(&image, origin, 0, 0), 255);
        assert_eq!(alpha(&image, origin, 10, 0), 0, "the line is cut at the circle");
    }

    #[test]
    fn a_line_ring_star_and_outline_cover_what_they_should() {
        let mut s = Sketch::default();
        s.ring(Pos2::ZERO, 6.0, Stroke::new(2.0, Color32::BLACK));
        let (o, z) = s.pixels(1.0).unwrap();
        let image = s.rasterise(1.0, o, z);
        assert_eq!(alpha(&image, o, 0, 0), 0, "a ring is hollow");
        assert!(alpha(&image, o, 6, 0) > 200 || alpha(&image, o, 5, 0) > 200, "and solid on its circle");

        let mut s = Sketch::default();
        let star: Vec<Pos2> = (0..10)
            .map(|i| {
                let a = -std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / 5.0;
                let r = if i % 2 == 0 { 8.0 } else { 3.6 };
                pos2(a.cos() * r, a.sin() * r)
            })
            .collect();
        s.polygon(star, Color32::BLACK);
        let (o, z) = s.pixels(1.0).unwrap();
        let image = s.rasterise(1.0, o, z);
        assert_eq!(alpha(&image, o, 0, 0), 255, "the middle of a star");
        assert_eq!(alpha(&image, o, 0, 6), 0, "between its two lower points");

        let mut s = Sketch::default();
        s.rect_stroke(Rect::from_center_size(Pos2::ZERO, Vec2::splat(10.0)), 0.0, Stroke::new(2.0, Color32::BLACK));
        let (o, z) = s.pixels(1.0).unwrap();
        let image = s.rasterise(1.0, o, z);
        assert_eq!(alpha(&image, o, 0, 0), 0);
        assert_eq!(alpha(&image, o, 0, -5), 255);
    }

    #[test]
    fn open_lines_end_square_and_rectangles_sit_on_pixels() {
        // A tick from 0 to 5 along x, 2 wide: nothing beyond its ends, as egui draws it.
        let mut s = Sketch::default();
        s.line(vec![pos2(0.0, 0.0), pos2(5.0, 0.0)], Stroke::new(2.0, Color32::BLACK), false);
        let (o, z) = s.pixels(1.0).unwrap();
        let image = s.rasterise(1.0, o, z);
        assert_eq!(alpha(&image, o, 2, 0), 255);
        assert_eq!(alpha(&image, o, 5, 0), 0, "square at its end");
        assert_eq!(alpha(&image, o, -1, 0), 0, "and at its start");

        // A 13-point-high swatch with a 1-wide outline inside: the outline falls on whole
        // rows of pixels, dark, not on two half-grey ones.
        let mut s = Sketch::default();
        let rect = Rect::from_center_size(Pos2::ZERO, vec2(20.0, 13.0));
        s.rect_stroke(rect.shrink(0.5), 0.0, Stroke::new(1.0, Color32::BLACK));
        let (o, z) = s.pixels(1.0).unwrap();
        let image = s.rasterise(1.0, o, z);
        let column: Vec<u8> = (o[1]..o[1] + z[1] as i32).map(|y| alpha(&image, o, 0, y)).collect();
        assert!(column.iter().all(|&a| a == 0 || a == 255), "every pixel of the outline whole or clear: {column:?}");
        assert_eq!(column.iter().filter(|&&a| a == 255).count(), 2, "a row at the top and one at the bottom");
    }

    #[test]
    fn a_sketch_is_told_apart_by_every_shape_colour_and_density() {
        let base = {
            let mut s = Sketch::default();
            s.disc(Pos2::ZERO, 5.0, Color32::RED, Stroke::new(1.0, Color32::BLACK));
            s
        };
        let mut moved = base.clone();
        moved.ring(pos2(0.0, 0.5), 3.0, Stroke::new(1.0, Color32::BLACK));
        let mut recoloured = Sketch::default();
        recoloured.disc(Pos2::ZERO, 5.0, Color32::BLUE, Stroke::new(1.0, Color32::BLACK));
        let keys = [base.key(1.0), moved.key(1.0), recoloured.key(1.0), base.key(2.0)];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(base.key(1.0), base.clone().key(1.0));
    }

    #[test]
    fn pictures_share_a_texture_and_a_full_one_packs_again() {
        let mut p = Pictures { side: 64, ..Pictures::default() };
        let spots: Vec<_> = (0..4).map(|_| p.reserve([20, 20]).unwrap()).collect();
        assert_eq!(spots, [[0, 0], [21, 0], [42, 0], [0, 21]], "side by side in rows");
        assert!(p.reserve([70, 10]).is_none(), "wider than the texture: a texture of its own");
        p.reserve([20, 20]).unwrap();
        p.reserve([20, 20]).unwrap();
        let key: Arc<[u32]> = vec![1].into();
        p.placed.insert(Arc::clone(&key), Placed { at: [0, 0], size: [20, 20], drawn: 1 });
        p.sweep(2);
        assert_eq!(p.bottom, 42, "drawn a frame ago: kept");
        p.reserve([20, 20]).unwrap();
        p.sweep(9);
        assert_eq!((p.bottom, p.placed.len()), (0, 0), "three quarters full and stale: packed again");

        // A picture that did not fit: packed again; grown only when one frame's pictures need
        // it, and never past four times the starting side.
        let ctx = egui::Context::default();
        let texture = ctx.load_texture("t", ColorImage::new([1, 1], vec![Color32::RED]), TextureOptions::LINEAR);
        let mut p = Pictures::new(1.0, 8192);
        assert_eq!((p.side, p.largest), (512, 1024));
        assert_eq!(Pictures::new(2.0, 8192).side, 1024, "twice the density, twice the side");
        assert_eq!(Pictures::new(1.0, 512).largest, 512, "no larger than the screen takes");
        p.reserve([100, 100]).unwrap();
        p.alone.insert(Arc::clone(&key), Alone { texture: texture.clone(), size: [20, 20], drawn: 1 });
        p.sweep(2);
        assert_eq!((p.side, p.bottom, p.alone.len()), (512, 0, 0), "small enough: packed again, not grown");
        for (frame, side, picture) in [(3, 1024, 500), (4, 1024, 500), (5, 1024, 1000)] {
            p.alone.insert(Arc::clone(&key), Alone { texture: texture.clone(), size: [picture, picture], drawn: frame - 1 });
            p.sweep(frame);
            assert_eq!(p.side, side, "frame {frame}");
        }
    }

    #[test]
    fn a_picture_falls_on_whole_pixels_and_is_made_once() {
        let ctx = egui::Context::default();
        let mut made = Vec::new();
        for frame in 0..3 {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                let painter = ui.painter();
                let mut s = Sketch::default();
                s.disc(Pos2::ZERO, 5.0, Color32::RED, Stroke::new(1.0, Color32::BLACK));
                painter.sprite(pos2(100.3, 50.6), &s);
                painter.sprite(pos2(200.0, 50.0), &s);
            });
            let sprites = |id: &egui::TextureId| matches!(id, egui::TextureId::Managed(n) if *n > 0);
            made.extend(output.textures_delta.set.iter().filter(|(id, _)| sprites(id)).map(|(id, _)| (frame, *id)));
            output.textures_delta.clear();
            let images: Vec<Rect> = output
                .shapes
                .iter()
                .filter_map(|s| match &s.shape {
                    egui::Shape::Mesh(m) if m.texture_id != egui::TextureId::default() => {
                        Some(Rect::from_points(&m.vertices.iter().map(|v| v.pos).collect::<Vec<_>>()))
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(images.len(), 2, "frame {frame}");
            for r in images {
                assert_eq!(r.min, r.min.round(), "on whole pixels");
            }
        }
        assert!(
            !made.is_empty() && made.iter().all(|(frame, id)| *frame == 0 && *id == made[0].1),
            "one texture, written in the first frame alone: {made:?}"
        );
    }

    #[test]
    fn a_halo_is_the_text_spread_a_pixel_every_way_as_eight_copies_blend() {
        // A glyph two pixels wide, one solid and one half covered, and a one-pixel glyph a
        // quarter covered that overlaps its second pixel (as kerned glyphs do), in a made-up
        // font texture.
        let mut font = ColorImage::new([4, 4], vec![Color32::TRANSPARENT; 16]);
        font.pixels[4 + 1] = Color32::from_white_alpha(255);
        font.pixels[4 + 2] = Color32::from_white_alpha(128);
        font.pixels[3 * 4 + 3] = Color32::from_white_alpha(64);
        let (a, b) = ([u32::from('a'), 12.0f32.to_bits()], [u32::from('b'), 12.0f32.to_bits()]);
        let glyph = |at, lo, hi, which| Glyph { at, lo, hi, which };
        let glyphs = Glyphs(vec![glyph([0, 0], [1, 1], [3, 2], a), glyph([1, 0], [3, 3], [4, 4], b)]);
        let offsets = HALO_OFFSETS.map(|(dx, dy)| [dx.round() as i32, dy.round() as i32]);
        let (origin, size) = glyphs.pixels(1).unwrap();
        assert_eq!((origin, size), ([-1, -1], [4, 3]));
        let colour = Color32::from_rgba_unmultiplied(0xf4, 0xf1, 0xe8, 0xe6);
        let halo = glyphs.halo(&font, origin, size, &offsets, colour);
        // Eight copies of the text in `colour`, each glyph of each blended over the last in
        // eight bits, as egui draws them.
        let glyph_covers: [&dyn Fn(i32, i32) -> f32; 2] = [
            &|x, y| match (x, y) {
                (0, 0) => 1.0,
                (1, 0) => 128.0 / 255.0,
                _ => 0.0,
            },
            &|x, y| if (x, y) == (1, 0) { 64.0 / 255.0 } else { 0.0 },
        ];
        for y in 0..3 {
            for x in 0..4 {
                let (px, py) = (x as i32 + origin[0], y as i32 + origin[1]);
                let mut out = [0u8; 4];
                for [dx, dy] in offsets {
                    for cover in &glyph_covers {
                        let cover = cover(px - dx, py - dy);
                        let src = colour.to_array().map(|c| f32::from(c) * cover);
                        let keep = 1.0 - src[3] / 255.0;
                        for (o, s) in out.iter_mut().zip(src) {
                            *o = (s + f32::from(*o) * keep).round() as u8;
                        }
                    }
                }
                let made = halo.pixels[y * size[0] + x].to_array();
                for (m, o) in made.iter().zip(out) {
                    assert!(m.abs_diff(o) <= 2, "pixel ({px}, {py}): {made:?} against {out:?}");
                }
            }
        }
        // Above and left of the solid pixel only its own copy reaches: the colour itself.
        assert_eq!(halo.pixels[0], colour);
        // The halo key tells one text, one colour, one density and one place between pixels
        // from another, and one glyph from another where egui made its texture anew and put
        // another glyph where this one was.
        let key = |g: &Glyphs, ppp: f32, colour: Color32, offsets: &[[i32; 2]]| g.key(ppp, colour, offsets);
        let mine = key(&glyphs, 1.0, colour, &offsets);
        assert_ne!(mine, key(&glyphs, 2.0, colour, &offsets));
        assert_ne!(mine, key(&glyphs, 1.0, Color32::WHITE, &offsets));
        assert_ne!(mine, key(&Glyphs(vec![glyph([1, 0], [1, 1], [3, 2], a), glyphs.0[1]]), 1.0, colour, &offsets));
        assert_ne!(mine, key(&glyphs, 1.0, colour, &offsets.map(|[x, y]| [x, y * 2])));
        let other = Glyphs(vec![glyph([0, 0], [1, 1], [3, 2], [u32::from('c'), 12.0f32.to_bits()]), glyphs.0[1]]);
        assert_ne!(mine, key(&other, 1.0, colour, &offsets));
    }

    /// Where egui puts the eight copies of a text laid out at a place between pixels, at
    /// densities where a point is not a whole number of pixels: the halo's copies land there.
    #[test]
    fn a_halo_s_copies_land_where_egui_puts_them_between_pixels() {
        for ppp in [1.0, 1.25, 1.5, 2.0] {
            for pos in [pos2(10.4, 7.6), pos2(3.5, 9.49), pos2(0.2, 0.7)] {
                let ctx = egui::Context::default();
                ctx.set_pixels_per_point(ppp);
                let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                    let painter = ui.painter();
                    let galley = painter.layout_no_wrap("Naxos".to_owned(), egui::FontId::proportional(12.0), Color32::BLACK);
                    painter.galley(pos, galley.clone(), Color32::BLACK);
                    painter.halo_copies(pos, &galley, Color32::WHITE);
                });
                output.textures_delta.clear();
                // egui joins the texts into one mesh, each text's glyphs in the order drawn: the
                // text itself first, then its copies, each as many corners as the others.
                let corners: Vec<Pos2> = ctx
                    .tessellate(output.shapes, ppp)
                    .iter()
                    .flat_map(|p| match &p.primitive {
                        egui::epaint::Primitive::Mesh(mesh) => mesh.vertices.iter().map(|v| v.pos).collect(),
                        egui::epaint::Primitive::Callback(_) => Vec::new(),
                    })
                    .collect();
                assert_eq!(corners.len(), 9 * 5 * 4, "five glyphs of four corners, nine times");
                let texts: Vec<Pos2> = corners.chunks(5 * 4).map(|text| text[0]).collect();
                let pixel = |p: Pos2| [(p.x * ppp).round() as i32, (p.y * ppp).round() as i32];
                let own = pixel(texts[0]);
                let drawn: Vec<[i32; 2]> = texts[1..].iter().map(|p| pixel(*p)).map(|[x, y]| [x - own[0], y - own[1]]).collect();
                assert_eq!(drawn, copy_offsets(pos, ppp).to_vec(), "at {ppp} pixels a point, the text at {pos:?}");
            }
        }
    }

    #[test]
    fn a_halo_stands_where_egui_draws_the_text_at_any_density() {
        use egui::text::{LayoutJob, TextFormat};
        for ppp in [1.0, 1.5, 2.0] {
            let ctx = egui::Context::default();
            ctx.set_pixels_per_point(ppp);
            let mut job = LayoutJob::default();
            job.append("12 ", 0.0, TextFormat { font_id: egui::FontId::proportional(9.0), ..TextFormat::default() });
            job.append("Akragas\nGela", 0.0, TextFormat { font_id: egui::FontId::proportional(12.5), ..TextFormat::default() });
            let mut galleys = Vec::new();
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                galleys.push(ui.painter().layout_job(job.clone()));
                let mut italic = LayoutJob::default();
                italic.append("Eryx", 0.0, TextFormat { italics: true, ..TextFormat::default() });
                galleys.push(ui.painter().layout_job(italic));
            });
            output.textures_delta.clear();
            let glyphs = Glyphs::of(&galleys[0], ppp).expect("plain text");
            // egui's own glyph boxes: four corners each, the first at the top left.
            let mut drawn = Vec::new();
            for row in &galleys[0].rows {
                for quad in row.visuals.mesh.vertices.chunks(4) {
                    let (at, uv) = (row.pos + quad[0].pos.to_vec2(), quad[0].uv);
                    drawn.push(([(at.x * ppp).round() as i32, (at.y * ppp).round() as i32], [uv.x as u16, uv.y as u16]));
                }
            }
            let mine: Vec<_> = glyphs.0.iter().map(|g| (g.at, g.lo)).collect();
            assert_eq!(mine, drawn, "at {ppp} pixels a point");
            assert_eq!(mine.len(), "12Akragas Gela".chars().filter(|c| !c.is_whitespace()).count());
            assert!(Glyphs::of(&galleys[1], ppp).is_none(), "italics are drawn as copies");
            assert!(Glyphs::of(&galleys[0], ppp * 2.0).is_none(), "laid out at another density");
        }
    }
}
