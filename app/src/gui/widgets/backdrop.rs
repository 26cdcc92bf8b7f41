//! The window's backdrop: every panel of a desk is the same light grey, and the window is
//! cleared to that grey before anything is drawn, so no panel paints its ground again.
//!
//! Clearing is nearly free; painting the grey again costs a pass of every pixel under a
//! panel, and without a graphics card that was a third of each frame's work (the log, the
//! details and the bar are half the window). egui fills a panel's frame with the style's
//! panel colour and nothing else does, so that colour is made transparent once, for every
//! panel there is or will be; windows, the map and every widget paint as before.

use egui::{Color32, Visuals};

/// The panels' grey: the light theme's, which the window keeps.
pub(crate) fn ground() -> Color32 {
    Visuals::light().panel_fill
}

/// What the window is cleared to: the panels' grey, in the form eframe asks for.
pub(crate) fn clear_colour() -> [f32; 4] {
    ground().to_normalized_gamma_f32()
}

/// Panels leave their ground to the clear: egui's panel frames are filled with nothing.
pub(crate) fn leave_ground_unpainted(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| style.visuals.panel_fill = Color32::TRANSPARENT);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_cleared_to_the_grey_panels_no_longer_paint() {
        let [r, g, b, a] = clear_colour();
        let channel = |c: f32| (c * 255.0).round() as u8;
        assert_eq!(Color32::from_rgba_unmultiplied(channel(r), channel(g), channel(b), channel(a)), Visuals::light().panel_fill);
        let ctx = egui::Context::default();
        ctx.set_theme(egui::Theme::Light);
        leave_ground_unpainted(&ctx);
        let style = ctx.global_style();
        assert_eq!(egui::Frame::side_top_panel(&style).fill, Color32::TRANSPARENT);
        assert_eq!(egui::Frame::central_panel(&style).fill, Color32::TRANSPARENT);
    }
}
