//! The window's backdrop: every panel of a desk is the same light grey, and the window is
//! cleared to that grey before anything is drawn, so the panels leave their ground unpainted.
//!
//! Clearing is nearly free; painting the grey again costs a pass of every pixel under a
//! panel, and without a graphics card that was a third of each frame's work (the log, the
//! details and the bar are half the window). Windows, the map and every widget paint as
//! before; only the ground the clear has already laid is skipped.

use egui::{Color32, Frame, Style, Visuals};

/// What the window is cleared to: the panels' grey, in the form eframe asks for.
pub(crate) fn clear_colour(visuals: &Visuals) -> [f32; 4] {
    visuals.panel_fill.to_normalized_gamma_f32()
}

/// A side, top or bottom panel's frame, its margins as egui's, on the cleared ground.
pub(crate) fn side_panel(style: &Style) -> Frame {
    Frame::side_top_panel(style).fill(Color32::TRANSPARENT)
}

/// A central panel's frame, its margins as egui's, on the cleared ground.
pub(crate) fn central_panel(style: &Style) -> Frame {
    Frame::central_panel(style).fill(Color32::TRANSPARENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ground_is_the_panels_grey_in_both_themes() {
        for visuals in [Visuals::light(), Visuals::dark()] {
            let [r, g, b, a] = clear_colour(&visuals);
            let back = Color32::from_rgba_unmultiplied(
                (r * 255.0).round() as u8,
                (g * 255.0).round() as u8,
                (b * 255.0).round() as u8,
                (a * 255.0).round() as u8,
            );
            assert_eq!(back, visuals.panel_fill);
        }
        let style = Style::default();
        assert_eq!(side_panel(&style).inner_margin, Frame::side_top_panel(&style).inner_margin);
        assert_eq!(central_panel(&style).inner_margin, Frame::central_panel(&style).inner_margin);
        assert_eq!(side_panel(&style).fill, Color32::TRANSPARENT);
    }
}
