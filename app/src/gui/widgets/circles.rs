//! Circles with as many corners as their size on the screen needs.
//!
//! egui draws every circle of 5 to 18 points across with 32 corners and larger ones with 64
//! or 128, enough for a screen of twice the density. Without a graphics card each corner is
//! felt: a map's markers and rings are most of its triangles. These are polygons whose sides
//! stray from the true circle by at most 0.15 of a pixel at the screen's own density, less
//! than the one-pixel blur egui gives every edge: they look the same and cost about half.

use egui::epaint::{PathShape, PathStroke};
use egui::{Color32, Painter, Pos2, Stroke, vec2};

/// How far, in pixels, a side may stray inside the circle it stands for.
const TOLERANCE: f32 = 0.15;

/// Circles drawn as polygons cut to the screen's density.
pub(crate) trait Circles {
    /// A filled circle with an outline: `Painter::circle`, in fewer triangles.
    fn disc(&self, centre: Pos2, radius: f32, fill: Color32, stroke: Stroke);
    /// A circle's outline alone: `Painter::circle_stroke`, in fewer triangles.
    fn ring(&self, centre: Pos2, radius: f32, stroke: Stroke);
}

impl Circles for Painter {
    fn disc(&self, centre: Pos2, radius: f32, fill: Color32, stroke: Stroke) {
        let points = polygon(centre, radius, self.pixels_per_point());
        self.add(PathShape::convex_polygon(points, fill, PathStroke::from(stroke)));
    }

    fn ring(&self, centre: Pos2, radius: f32, stroke: Stroke) {
        let points = polygon(centre, radius, self.pixels_per_point());
        self.add(PathShape::closed_line(points, stroke));
    }
}

/// How many corners a circle of `radius` points needs at `pixels_per_point`: a multiple of
/// four, so it stays symmetric across both axes.
fn corners(radius: f32, pixels_per_point: f32) -> usize {
    let pixels = (radius * pixels_per_point).max(TOLERANCE);
    // A side subtending angle θ strays r·(1 − cos(θ/2)) from the circle.
    let half_angle = (1.0 - TOLERANCE / pixels).clamp(-1.0, 1.0).acos();
    let n = (std::f32::consts::PI / half_angle.max(f32::EPSILON)).ceil();
    // At most 128, as egui's own largest circle; the cast is of a number in [1, 128].
    (n.clamp(1.0, 128.0) as usize).next_multiple_of(4).clamp(8, 128)
}

fn polygon(centre: Pos2, radius: f32, pixels_per_point: f32) -> Vec<Pos2> {
    let n = corners(radius, pixels_per_point);
    (0..n)
        .map(|k| {
            let angle = std::f32::consts::TAU * k as f32 / n as f32;
            centre + radius * vec2(angle.cos(), angle.sin())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The furthest a side's middle lies inside the circle, in pixels.
    fn stray(radius: f32, pixels_per_point: f32) -> f32 {
        let n = corners(radius, pixels_per_point) as f32;
        radius * pixels_per_point * (1.0 - (std::f32::consts::PI / n).cos())
    }

    #[test]
    fn a_map_marker_needs_half_of_egui_s_corners() {
        // A Magna Graecia node marker at fit zoom, and a Belisarius port ring.
        assert_eq!(corners(6.5, 1.0), 16);
        assert_eq!(corners(7.0, 1.0), 16);
        // Twice the density, twice the pixels: more corners.
        assert!(corners(6.5, 2.0) > corners(6.5, 1.0));
    }

    #[test]
    fn every_side_stays_within_the_tolerance() {
        for radius in [1.0, 2.5, 6.5, 11.0, 17.0, 30.0, 80.0, 200.0] {
            for ppp in [1.0, 1.5, 2.0] {
                let n = corners(radius, ppp);
                assert!(n.is_multiple_of(4) && (8..=128).contains(&n), "{n} corners at r {radius}");
                if n < 128 {
                    assert!(stray(radius, ppp) <= TOLERANCE + 1e-4, "r {radius} at {ppp}×: strays {}", stray(radius, ppp));
                }
            }
        }
    }

    #[test]
    fn the_polygon_stands_on_the_circle() {
        let centre = Pos2::new(40.0, -3.0);
        let points = polygon(centre, 9.0, 1.0);
        assert_eq!(points.len(), corners(9.0, 1.0));
        for p in points {
            assert!((p.distance(centre) - 9.0).abs() < 1e-4);
        }
    }
}
