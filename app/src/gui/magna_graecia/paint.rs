//! A side's colour and fill pattern, as the map, its counters and the panels' swatches paint
//! them: every side has a pattern as well as a colour, so the map reads in greyscale and for
//! colour-blind eyes.

use egui::{Color32, Painter, Pos2, Rect, Stroke, pos2};
use referee_campaign::magna_graecia::scenario::Pattern;
use referee_campaign::magna_graecia::view::SidePublic;

use crate::gui::widgets::sprites::{Sketch, Sprites as _};

/// The dark outline of counters and swatches.
pub(crate) const OUTLINE: Color32 = Color32::from_rgb(0x2a, 0x2a, 0x2a);

/// A side's colour as the scenario gives it.
pub(crate) fn side_colour(side: &SidePublic) -> Color32 {
    let [r, g, b] = side.colour;
    Color32::from_rgb(r, g, b)
}

/// Dark marks on light colours, light marks on dark ones, so patterns stay visible.
pub(crate) fn pattern_ink(fill: Color32) -> Color32 {
    let lum = 0.299 * f32::from(fill.r()) + 0.587 * f32::from(fill.g()) + 0.114 * f32::from(fill.b());
    if lum > 150.0 { Color32::from_black_alpha(150) } else { Color32::from_white_alpha(225) }
}

pub(crate) fn pattern_segments(pattern: Pattern, bounds: Rect, spacing: f32) -> Vec<[Pos2; 2]> {
    let mut out = Vec::new();
    match pattern {
        Pattern::Solid | Pattern::Dots => {}
        Pattern::Stripes => {
            let h = bounds.height();
            let mut k = -h;
            while k < bounds.width() + h {
                out.push([pos2(bounds.left() + k, bounds.bottom()), pos2(bounds.left() + k + h, bounds.top())]);
                k += spacing;
            }
        }
        Pattern::Cross => {
            let mut x = bounds.left() + spacing / 2.0;
            while x < bounds.right() {
                out.push([pos2(x, bounds.top()), pos2(x, bounds.bottom())]);
                x += spacing;
            }
            let mut y = bounds.top() + spacing / 2.0;
            while y < bounds.bottom() {
                out.push([pos2(bounds.left(), y), pos2(bounds.right(), y)]);
                y += spacing;
            }
        }
    }
    out
}

pub(crate) fn pattern_dots(pattern: Pattern, bounds: Rect, spacing: f32) -> Vec<Pos2> {
    let mut out = Vec::new();
    if pattern == Pattern::Dots {
        let mut row = 0;
        let mut y = bounds.top() + spacing / 2.0;
        while y < bounds.bottom() {
            // Staggered rows read as dots rather than as a grid.
            let mut x = bounds.left() + spacing / 2.0 + if row % 2 == 1 { spacing / 2.0 } else { 0.0 };
            while x < bounds.right() {
                out.push(pos2(x, y));
                x += spacing;
            }
            y += spacing;
            row += 1;
        }
    }
    out
}

/// Fills `rect` with a side's colour and pattern (legend, panels, walled cities).
pub(crate) fn paint_swatch(painter: &Painter, rect: Rect, fill: Color32, pattern: Pattern) {
    painter.sketch_in(rect, |s, rect| {
        patterned_rect(s, rect, fill, pattern, (rect.height() * 0.38).max(3.5));
        s.rect_stroke(rect.shrink(0.5), 1.5, Stroke::new(1.0, OUTLINE));
    });
}

/// `rect` in a side's colour with its pattern over it, the pattern kept inside.
pub(crate) fn patterned_rect(s: &mut Sketch, rect: Rect, fill: Color32, pattern: Pattern, spacing: f32) {
    s.rect(rect, 1.5, fill);
    let ink = pattern_ink(fill);
    let width = (spacing * 0.32).clamp(1.0, 2.0);
    s.within_rect(rect, |s| {
        for segment in pattern_segments(pattern, rect, spacing) {
            s.line(segment.to_vec(), Stroke::new(width, ink), false);
        }
        for d in pattern_dots(pattern, rect, spacing) {
            s.disc(d, width * 0.75, ink, Stroke::NONE);
        }
    });
}
