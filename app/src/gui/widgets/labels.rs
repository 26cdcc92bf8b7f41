//! Names on a map placed so that none is printed over another name or over a marker: one
//! pass a frame, in screen points, for both campaigns' maps.
//!
//! The pass lays things in the order of their priority, each map writing its order down
//! where it calls the pass:
//!
//! 1. **Marks** — the places and the pieces, the legend — are laid first. A mark is never
//!    left off: a row of pieces tries its spots in turn and takes the first clear of the
//!    marks laid before it (the first spot if none is), so that no piece hides under another
//!    place's pieces.
//! 2. **Names**, by priority, each trying its spots in turn and taking the first inside the
//!    map and clear of every mark and name laid before it. A name that fits nowhere is tried
//!    in its shorter forms, and failing those left off; its place still names itself when
//!    the pointer rests on it.

use std::sync::Arc;

use egui::{Galley, Pos2, Rect, Vec2, vec2};

/// Room kept between a name and what it stands beside, in points: the halo of a name
/// drawn with one, and a little air.
pub(crate) const GAP: f32 = 1.5;

/// What was laid on the map this frame: the marks and the names, with where each is.
#[derive(Debug, Clone, PartialEq)]
pub struct MapLayout {
    /// The map's drawing area; every name lies inside it.
    pub bounds: Rect,
    /// Places, rows of pieces, counters, the legend: what no name may cover.
    pub marks: Vec<Rect>,
    /// The rows of pieces among the marks, which must not cover one another either.
    pub rows: Vec<Rect>,
    /// The names placed, with their text as drawn (a shortened form where it was).
    pub names: Vec<(Rect, String)>,
    /// The names that fitted nowhere, in full.
    pub left_off: Vec<String>,
}

impl Default for MapLayout {
    /// Nothing laid yet, on no map.
    fn default() -> MapLayout {
        MapLayout::new(Rect::NOTHING)
    }
}

/// Whether two boxes share more than an edge.
pub fn overlap(a: Rect, b: Rect) -> bool {
    let i = a.intersect(b);
    i.width() > 0.01 && i.height() > 0.01
}

impl MapLayout {
    pub(crate) fn new(bounds: Rect) -> MapLayout {
        MapLayout { bounds, marks: Vec::new(), rows: Vec::new(), names: Vec::new(), left_off: Vec::new() }
    }

    fn clear_of_marks(&self, r: Rect) -> bool {
        !self.marks.iter().any(|m| overlap(*m, r))
    }

    /// Whether a name may stand at `r`: inside the map, over no mark and no name.
    pub(crate) fn is_clear(&self, r: Rect) -> bool {
        self.bounds.contains_rect(r) && self.clear_of_marks(r) && !self.names.iter().any(|(n, _)| overlap(*n, r))
    }

    /// A mark that stands where the map puts it.
    pub(crate) fn mark(&mut self, r: Rect) {
        self.marks.push(r);
    }

    /// A row of pieces: the first of `spots` clear of the marks laid so far and inside the
    /// map, else the first.
    pub(crate) fn row(&mut self, spots: &[Rect]) -> Rect {
        let chosen = spots
            .iter()
            .copied()
            .find(|r| self.bounds.contains_rect(*r) && self.clear_of_marks(*r))
            .or_else(|| spots.first().copied())
            .unwrap_or(Rect::NOTHING);
        self.marks.push(chosen);
        self.rows.push(chosen);
        chosen
    }

    /// A box with nothing to read in it (a terrain mark): the first clear spot, if any.
    pub(crate) fn symbol(&mut self, spots: &[Rect]) -> Option<Rect> {
        let chosen = spots.iter().copied().find(|r| self.is_clear(*r))?;
        self.marks.push(chosen);
        Some(chosen)
    }

    /// A name in its forms, longest first: the first form that has a clear spot among those
    /// `spots` gives for its size, and the top-left corner to draw it from. `None` when it is
    /// left off. The forms are laid out only as far as they are tried: give them as a lazy
    /// iterator, and a name that fits in full costs one layout.
    pub(crate) fn name(
        &mut self,
        forms: impl IntoIterator<Item = Arc<Galley>>,
        spots: impl Fn(Vec2) -> Vec<Rect>,
    ) -> Option<(Arc<Galley>, Pos2)> {
        self.name_with(forms, GAP, spots)
    }

    /// [`MapLayout::name`] for a name drawn with `margin` points around it (a tag with a
    /// frame).
    pub(crate) fn name_with(
        &mut self,
        forms: impl IntoIterator<Item = Arc<Galley>>,
        margin: f32,
        spots: impl Fn(Vec2) -> Vec<Rect>,
    ) -> Option<(Arc<Galley>, Pos2)> {
        let mut full = None;
        for galley in forms {
            let size = galley.size() + Vec2::splat(2.0 * margin);
            if let Some(r) = spots(size).into_iter().find(|r| self.is_clear(*r)) {
                self.names.push((r, galley.text().to_owned()));
                return Some((galley, r.min + Vec2::splat(margin)));
            }
            full.get_or_insert_with(|| galley.text().to_owned());
        }
        self.left_off.extend(full);
        None
    }
}

/// Spots for a box of `size` centred on `at`, then moved up and down by its height, then
/// to either side: where a name of an area may stand near its point.
pub(crate) fn near(at: Pos2, size: Vec2) -> Vec<Rect> {
    let centred = Rect::from_center_size(at, size);
    let (h, w) = (size.y, size.x * 0.5 + 4.0);
    [vec2(0.0, 0.0), vec2(0.0, -h), vec2(0.0, h), vec2(0.0, -2.0 * h), vec2(0.0, 2.0 * h), vec2(w, 0.0), vec2(-w, 0.0)]
        .into_iter()
        .map(|d| centred.translate(d))
        .collect()
}

/// Spots for a box of `size` beside `mark`: right, left, above, below, then the corners.
pub(crate) fn beside(mark: Rect, size: Vec2) -> Vec<Rect> {
    let c = mark.center();
    let (w, h) = (size.x, size.y);
    [
        Pos2::new(mark.right(), c.y - h / 2.0),
        Pos2::new(mark.left() - w, c.y - h / 2.0),
        Pos2::new(c.x - w / 2.0, mark.top() - h),
        Pos2::new(c.x - w / 2.0, mark.bottom()),
        Pos2::new(mark.right(), mark.top() - h),
        Pos2::new(mark.right(), mark.bottom()),
        Pos2::new(mark.left() - w, mark.top() - h),
        Pos2::new(mark.left() - w, mark.bottom()),
    ]
    .into_iter()
    .map(|p| Rect::from_min_size(p, size))
    .collect()
}

/// Spots for a row of `size` under `anchor`, then over it, then two rows away, then to
/// either side: where a place's pieces stand.
pub(crate) fn stack(anchor: Rect, size: Vec2) -> Vec<Rect> {
    let (c, h) = (anchor.center(), size.y + 2.0);
    let below = Rect::from_center_size(Pos2::new(c.x, anchor.bottom() + 1.0 + size.y / 2.0), size);
    let above = Rect::from_center_size(Pos2::new(c.x, anchor.top() - 1.0 - size.y / 2.0), size);
    let side = anchor.width() / 2.0 + size.x / 2.0 + 4.0;
    vec![
        below,
        above,
        below.translate(vec2(0.0, h)),
        above.translate(vec2(0.0, -h)),
        Rect::from_center_size(c + vec2(side, 0.0), size),
        Rect::from_center_size(c - vec2(side, 0.0), size),
        below.translate(vec2(0.0, 2.0 * h)),
        above.translate(vec2(0.0, -2.0 * h)),
    ]
}

/// Shorter forms of a place's name, for where the whole name does not fit: the words before
/// the last cut to their initial ("Inner Dalmatia" → "I. Dalmatia"), then the first five
/// letters of the name ("Ticinensis" → "Ticin.").
pub(crate) fn shorter(name: &str) -> Vec<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut out = Vec::new();
    if let Some((last, rest)) = words.split_last()
        && !rest.is_empty()
    {
        let initials: Vec<String> = rest.iter().filter_map(|w| w.chars().next()).map(|c| format!("{c}.")).collect();
        out.push(format!("{} {last}", initials.join(" ")));
    }
    let letters: String = name.chars().take(5).collect();
    if letters.chars().count() < name.chars().count() {
        out.push(format!("{}.", letters.trim_end()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn galley(ctx: &egui::Context, text: &str) -> Arc<Galley> {
        ctx.fonts_mut(|f| f.layout_no_wrap(text.to_owned(), egui::FontId::proportional(12.0), egui::Color32::BLACK))
    }

    #[test]
    fn names_are_shortened_to_initials_then_to_five_letters() {
        assert_eq!(shorter("Inner Dalmatia"), ["I. Dalmatia", "Inner."]);
        assert_eq!(shorter("Ticinensis"), ["Ticin."]);
        assert!(shorter("Roma").is_empty());
    }

    #[test]
    fn a_name_takes_the_first_clear_spot_then_a_shorter_form_then_is_left_off() {
        let ctx = egui::Context::default();
        // A first frame sets up the fonts; its textures are not wanted here.
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(400.0, 300.0));
        let mut layout = MapLayout::new(bounds);
        let place = Rect::from_center_size(Pos2::new(200.0, 150.0), Vec2::splat(10.0));
        layout.mark(place);
        let first = layout.name([galley(&ctx, "Ravenna")], |s| beside(place, s)).map(|(_, at)| at).unwrap();
        assert!(first.x >= place.right(), "right of the place first");
        // The same spot taken: the next name goes elsewhere, clear of both.
        let second = layout.name([galley(&ctx, "Classis")], |s| beside(place, s)).map(|(_, at)| at).unwrap();
        assert!(second.x < place.left(), "then left of it");
        for (i, (a, _)) in layout.names.iter().enumerate() {
            assert!(!overlap(*a, place));
            assert!(layout.names[i + 1..].iter().all(|(b, _)| !overlap(*a, *b)));
        }
        // A name with nowhere to go is left off, not printed over another.
        let blocked = Rect::from_center_size(Pos2::new(20.0, 20.0), Vec2::splat(4.0));
        let mut crowded = MapLayout::new(Rect::from_min_size(Pos2::ZERO, vec2(30.0, 30.0)));
        crowded.mark(blocked);
        let long = [galley(&ctx, "Mediolanum"), galley(&ctx, "Medio.")];
        assert!(crowded.name(long, |s| beside(blocked, s)).is_none());
        assert_eq!(crowded.left_off, ["Mediolanum"]);
    }

    #[test]
    fn a_row_of_pieces_moves_off_another_row() {
        let mut layout = MapLayout::new(Rect::from_min_size(Pos2::ZERO, vec2(400.0, 300.0)));
        let a = layout.row(&[Rect::from_min_size(Pos2::new(100.0, 100.0), vec2(40.0, 13.0))]);
        let spots = [
            Rect::from_min_size(Pos2::new(110.0, 105.0), vec2(40.0, 13.0)),
            Rect::from_min_size(Pos2::new(110.0, 120.0), vec2(40.0, 13.0)),
        ];
        let b = layout.row(&spots);
        assert!(!overlap(a, b));
        assert_eq!(b, spots[1]);
    }
}
