//! Orders drawn as planned, not done: a player's plan on the desk, and a side's orders file
//! on the referee's map before it is taken in. What comes of them hangs on what the side
//! cannot see, so they are drawn in dashes in an ink of their own, each numbered as the plan
//! numbers it.

use egui::{Color32, Pos2, Stroke, vec2};

use crate::gui::widgets::circles::Circles as _;

/// The ink of what is planned and not done.
pub(crate) const PLANNED: Color32 = Color32::from_rgb(150, 20, 120);

/// Draws a planned path through `points` in dashes, with the order's number at its end (a
/// single point is a ring: a deployment, a siege).
pub(crate) fn ghost(painter: &egui::Painter, points: &[Pos2], position: u32) {
    let stroke = Stroke::new(2.5, PLANNED);
    if points.len() > 1 {
        painter.extend(egui::Shape::dashed_line(points, stroke, 8.0, 5.0));
    }
    if let Some(&end) = points.last() {
        painter.ring(end, 11.0, stroke);
        painter.text(end + vec2(13.0, -13.0), egui::Align2::LEFT_BOTTOM, position.to_string(), egui::FontId::proportional(14.0), PLANNED);
    }
}
