//! Counters and battles on the map: the tokens, how several share a node, and the battle
//! marker. A token shows only what the viewer may know: whose it is, land or fleet, and
//! a name only for the viewer's own counters.

use egui::{Color32, Painter, Pos2, Rect, Stroke, Vec2, pos2, vec2};
use referee_campaign::NodeId;
use referee_campaign::magna_graecia::scenario::Pattern;
use referee_campaign::magna_graecia::view::{Board, Forces, SidePublic};

use crate::gui::magna_graecia::paint::{OUTLINE, pattern_dots, pattern_ink, pattern_segments, patterned_rect, side_colour};
use crate::gui::widgets::sprites::{Sketch, Sprites as _};

/// Red of the battle marker; its crossed swords carry the meaning without the colour.
const BATTLE: Color32 = Color32::from_rgb(0xc0, 0x1f, 0x1f);
/// Space between tokens of a row and between rows.
const GAP: f32 = 2.0;
/// Tokens of one side in a row before the row wraps.
const ROW_MAX: usize = 5;

/// One counter as the map draws it.
#[derive(Debug, Clone)]
pub(crate) struct Token<'a> {
    pub side: &'a SidePublic,
    pub node: NodeId,
    pub fleet: bool,
    /// The counter's name, for the viewer's own counters only.
    pub name: Option<&'a str>,
    /// Inside the walls of a besieged city (MG-27).
    pub inside: bool,
    /// A fleet sheltered in a walled port (MG-19), known only for the viewer's own: drawn
    /// hollow.
    pub sheltered: bool,
    /// Where it is drawn this frame.
    pub rect: Rect,
}

/// Side length of a land token at this marker radius: it grows with the markers as the
/// referee zooms in.
pub(crate) fn token_size(r: f32) -> f32 {
    (r * 1.6).clamp(13.0, 28.0)
}

/// The size of a command's initials on a token of this height: as large as the token
/// leaves room for, and never below the smallest size that reads on its pattern; in half
/// points (see [`half_points`]).
pub(crate) fn initials_size(height: f32) -> f32 {
    half_points((height * 0.62).clamp(10.0, 17.0))
}

/// A font size that follows the zoom, to the nearest half point: each size egui meets is
/// a new set of glyphs to draw and keep, and a size for every step of the wheel would fill
/// the font's texture with sizes seen once.
pub(crate) fn half_points(size: f32) -> f32 {
    (size * 2.0).round() / 2.0
}

fn token_width(fleet: bool, s: f32) -> f32 {
    if fleet { s * 1.75 } else { s }
}

/// Every counter on the board as a token: the viewer's own from its forces, with names,
/// the others from the board's public marks, without. Sorted by node, then side in the
/// board's order, land before fleet.
pub(crate) fn tokens<'a>(board: &'a Board, own: &[&'a Forces]) -> Vec<Token<'a>> {
    let mut out = Vec::new();
    for f in own {
        let Some(side) = board.side(&f.side) else { continue };
        for c in &f.counters {
            out.push(Token {
                side,
                node: c.node,
                fleet: c.is_fleet(),
                name: Some(c.name.as_str()),
                inside: c.inside,
                sheltered: c.sheltered,
                rect: Rect::NOTHING,
            });
        }
    }
    for c in board.counters.iter().filter(|c| !own.iter().any(|f| f.side == c.side)) {
        let Some(side) = board.side(&c.side) else { continue };
        out.push(Token { side, node: c.node, fleet: c.fleet, name: None, inside: c.inside, sheltered: false, rect: Rect::NOTHING });
    }
    let side_index = |t: &Token<'_>| board.sides.iter().position(|s| s.id == t.side.id).unwrap_or(usize::MAX);
    // Those inside the walls first in their side's row, so one wall holds them all.
    out.sort_by_key(|t| (t.node, side_index(t), t.fleet, !t.inside));
    out
}

/// Lays out one node's tokens in rows, a row per side (wrapping after [`ROW_MAX`]; those
/// inside the walls in rows of their own), each
/// row centred on `centre_x`; `top` is where the first row starts. Returns the block they
/// fill.
pub(crate) fn layout(tokens: &mut [Token<'_>], centre_x: f32, top: f32, s: f32) -> Rect {
    let mut block = Rect::NOTHING;
    let mut y = top;
    let mut start = 0;
    while start < tokens.len() {
        let (side, inside) = (tokens[start].side.id.clone(), tokens[start].inside);
        let end = start + tokens[start..].iter().take_while(|t| t.side.id == side && t.inside == inside).count();
        // Counters inside the walls have rows of their own, with room for the wall.
        let (before, after) =
            if inside { (wall_rect(Rect::ZERO).top().abs() + GAP, wall_rect(Rect::ZERO).bottom() + GAP) } else { (0.0, 0.0) };
        y += before;
        for row in tokens[start..end].chunks_mut(ROW_MAX) {
            let width: f32 = row.iter().map(|t| token_width(t.fleet, s)).sum::<f32>() + GAP * (row.len() - 1) as f32;
            let mut x = centre_x - width / 2.0;
            for t in row {
                let w = token_width(t.fleet, s);
                t.rect = Rect::from_min_size(pos2(x, y), vec2(w, s));
                block = block.union(t.rect);
                x += w + GAP;
            }
            y += s + GAP;
        }
        y += after;
        start = end;
    }
    block
}

/// A counter token filling `rect`: a square for a command, a galley for a fleet, each in
/// the side's colour and pattern so it reads in greyscale.
pub(crate) fn paint_counter(painter: &Painter, rect: Rect, side: &SidePublic, fleet: bool) {
    paint_counter_in(painter, rect, side_colour(side), side.pattern, fleet);
}

/// [`paint_counter`] in any colour and pattern (the legend's plain tokens).
pub(crate) fn paint_counter_in(painter: &Painter, rect: Rect, fill: Color32, pattern: Pattern, fleet: bool) {
    painter.sketch_in(rect, |s, rect| counter(s, rect, fill, pattern, fleet));
}

fn counter(s: &mut Sketch, rect: Rect, fill: Color32, pattern: Pattern, fleet: bool) {
    let shadow = Color32::from_black_alpha(70);
    if fleet {
        let hull = hull_points(rect);
        let shifted: Vec<Pos2> = hull.iter().map(|p| *p + vec2(1.0, 1.0)).collect();
        s.polygon(shifted, shadow);
        patterned_polygon(s, &hull, fill, pattern, (rect.height() * 0.42).max(3.5));
        s.line(hull, Stroke::new(1.2, OUTLINE), true);
        // Mast and sail above the deck.
        let deck = rect.top() + rect.height() * 0.52;
        let mast = rect.center().x - rect.width() * 0.04;
        let top = rect.top() + 0.5;
        let sail = vec![pos2(mast, top + 1.0), pos2(mast + rect.width() * 0.24, deck - 2.0), pos2(mast, deck - 2.0)];
        s.polygon(sail.clone(), Color32::WHITE);
        s.line(sail, Stroke::new(1.0, OUTLINE), true);
        s.line(vec![pos2(mast, top), pos2(mast, deck)], Stroke::new(1.3, OUTLINE), false);
    } else {
        s.rect(rect.translate(vec2(1.0, 1.0)), 1.5, shadow);
        patterned_rect(s, rect, fill, pattern, (rect.height() * 0.42).max(3.5));
        s.rect_stroke(rect.shrink(0.6), 1.5, Stroke::new(1.2, OUTLINE));
    }
}

/// A sheltered fleet (MG-19): the galley drawn hollow, its hull white inside a thick border
/// of the side's colour, so it reads as laid up in port.
pub(crate) fn paint_sheltered_fleet(painter: &Painter, rect: Rect, side: &SidePublic) {
    painter.sketch_in(rect, |s, rect| {
        let hull = hull_points(rect);
        s.polygon(hull.clone(), Color32::WHITE);
        s.line(hull.clone(), Stroke::new(2.6, side_colour(side)), true);
        s.line(hull, Stroke::new(0.8, OUTLINE), true);
        let deck = rect.top() + rect.height() * 0.52;
        let mast = rect.center().x - rect.width() * 0.04;
        // Mast bare: the sail is furled.
        s.line(vec![pos2(mast, rect.top() + 0.5), pos2(mast, deck)], Stroke::new(1.3, OUTLINE), false);
        s.line(
            vec![pos2(mast - rect.width() * 0.12, rect.top() + 2.5), pos2(mast + rect.width() * 0.12, rect.top() + 2.5)],
            Stroke::new(1.3, OUTLINE),
            false,
        );
    });
}

/// A galley's hull in the lower part of `rect`: a flat deck, a raked stern, a ram at the bow.
fn hull_points(rect: Rect) -> Vec<Pos2> {
    let (w, h) = (rect.width(), rect.height());
    let deck = rect.top() + h * 0.52;
    let keel = rect.bottom() - 0.5;
    vec![
        pos2(rect.left(), deck),
        pos2(rect.right() - w * 0.06, deck),
        pos2(rect.right(), deck + (keel - deck) * 0.55),
        pos2(rect.right() - w * 0.16, keel),
        pos2(rect.left() + w * 0.12, keel),
    ]
}

/// Fills a polygon with a side's colour and pattern.
fn patterned_polygon(s: &mut Sketch, points: &[Pos2], fill: Color32, pattern: Pattern, spacing: f32) {
    s.polygon(points.to_vec(), fill);
    let bounds = Rect::from_points(points);
    let ink = pattern_ink(fill);
    let width = (spacing * 0.32).clamp(1.0, 2.0);
    s.within_polygon(points.to_vec(), |s| {
        for segment in pattern_segments(pattern, bounds, spacing) {
            s.line(segment.to_vec(), Stroke::new(width, ink), false);
        }
        for d in pattern_dots(pattern, bounds, spacing) {
            s.disc(d, width * 0.75, ink, Stroke::NONE);
        }
    });
}

/// A battle due: crossed swords in a red-ringed disc.
pub(crate) fn paint_battle_marker(painter: &Painter, centre: Pos2, radius: f32) {
    painter.sketch(centre, |s| {
        s.disc(Pos2::ZERO, radius, Color32::WHITE, Stroke::new(2.2, BATTLE));
        let ink = Stroke::new((radius * 0.2).clamp(1.4, 2.2), Color32::from_rgb(0x22, 0x22, 0x22));
        let k = radius * 0.58;
        for dir in [vec2(1.0, -1.0), vec2(-1.0, -1.0)] {
            // Blade from the hilt (lower corner) to the point (upper corner).
            let hilt = Pos2::ZERO - dir * k;
            let point = Pos2::ZERO + dir * k;
            s.line(vec![hilt, point], ink, false);
            let guard_at = hilt + dir * (k * 0.45);
            let across = vec2(-dir.y, dir.x) * (k * 0.32);
            s.line(vec![guard_at - across, guard_at + across], ink, false);
        }
    });
}

/// Stone of the wall drawn round counters inside a besieged city.
const STONE: Color32 = Color32::from_rgb(0xc4, 0xb8, 0xa2);

/// The wall round tokens filling `inner`: a margin of stone with crenels on top.
pub(crate) fn wall_rect(inner: Rect) -> Rect {
    Rect::from_min_max(inner.min - vec2(4.0, 7.0), inner.max + vec2(4.0, 4.0))
}

/// A city wall round the tokens filling `inner` (MG-27): they read as inside it.
pub(crate) fn paint_walls(painter: &Painter, inner: Rect) {
    painter.sketch_in(inner, |s, inner| {
        let outer = wall_rect(inner);
        let body = Rect::from_min_max(outer.min + vec2(0.0, 3.0), outer.max);
        let stroke = Stroke::new(1.3, OUTLINE);
        // Crenels along the top, then the wall's body over their feet.
        let merlon = 3.5;
        let mut x = body.left();
        while x + merlon <= body.right() + 0.1 {
            let m = Rect::from_min_size(pos2(x, outer.top()), vec2(merlon, 4.0));
            s.rect(m, 0.0, STONE);
            s.rect_stroke(m.shrink(0.65), 0.0, stroke);
            x += 2.0 * merlon;
        }
        s.rect(body, 1.0, STONE);
        s.rect_stroke(body.shrink(0.65), 1.0, stroke);
        s.rect_stroke(inner.expand(1.5), 1.0, Stroke::new(1.0, Color32::from_black_alpha(90)));
    });
}

/// Radius of the battle marker for a token size.
pub(crate) fn battle_radius(s: f32) -> f32 {
    (s * 0.8).clamp(9.0, 12.0)
}

/// One node's counters and battle marker, placed as a group beside the node's marker.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub node: NodeId,
    /// The node's tokens in the list [`tokens`] returned.
    pub tokens: std::ops::Range<usize>,
    /// Centre of the battle marker, if a battle is due here.
    pub battle: Option<Pos2>,
    /// Everything the group covers.
    pub rect: Rect,
}

/// Groups the (node-sorted) tokens by node and lays each group out around the origin: the
/// tokens' rows with their top centre at (0, 0), the battle marker to their left.
pub(crate) fn groups(tokens: &mut [Token<'_>], battles: &[NodeId], s: f32) -> Vec<Group> {
    let battle_r = battle_radius(s);
    let mut out = Vec::new();
    let mut start = 0;
    let mut nodes: Vec<NodeId> = tokens.iter().map(|t| t.node).chain(battles.iter().copied()).collect();
    nodes.sort_unstable();
    nodes.dedup();
    for node in nodes {
        let end = start + tokens[start..].iter().take_while(|t| t.node == node).count();
        let block = layout(&mut tokens[start..end], 0.0, 0.0, s);
        let battle = battles
            .contains(&node)
            .then(|| if block.is_positive() { pos2(block.left() - battle_r - 3.0, block.center().y) } else { pos2(0.0, battle_r) });
        let mut rect = block;
        let inside = tokens[start..end].iter().filter(|t| t.inside).fold(Rect::NOTHING, |r, t| r.union(t.rect));
        if inside.is_positive() {
            rect = rect.union(wall_rect(inside));
        }
        if let Some(at) = battle {
            rect = rect.union(Rect::from_center_size(at, Vec2::splat(2.0 * battle_r)));
        }
        out.push(Group { node, tokens: start..end, battle, rect });
        start = end;
    }
    out
}

/// Moves a group, its tokens and its battle marker by `by`.
pub(crate) fn shift(group: &mut Group, tokens: &mut [Token<'_>], by: Vec2) {
    for t in &mut tokens[group.tokens.clone()] {
        t.rect = t.rect.translate(by);
    }
    group.battle = group.battle.map(|b| b + by);
    group.rect = group.rect.translate(by);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_s_tokens_share_rows_by_side_without_overlapping() {
        let side = |id: &str| SidePublic {
            id: referee_campaign::SideId::new(id),
            name: id.to_owned(),
            colour: [0, 0, 0],
            pattern: Pattern::Solid,
            capital: None,
        };
        let (a, b) = (side("a"), side("b"));
        let token = |side, fleet| Token { side, node: NodeId(1), fleet, name: None, inside: false, sheltered: false, rect: Rect::NOTHING };
        let mut ts: Vec<Token<'_>> = (0..6).map(|_| token(&a, false)).chain([token(&a, true), token(&b, false)]).collect();
        let block = layout(&mut ts, 100.0, 50.0, 10.0);
        for (i, t) in ts.iter().enumerate() {
            assert!(block.contains_rect(t.rect));
            for u in &ts[i + 1..] {
                assert!(!t.rect.intersects(u.rect.shrink(0.5)), "{:?} and {:?} overlap", t.rect, u.rect);
            }
        }
        // Side a wraps to a second row; side b starts a third.
        let rows: std::collections::BTreeSet<i32> = ts.iter().map(|t| t.rect.top() as i32).collect();
        assert_eq!(rows.len(), 3);
        assert!((block.center().x - 100.0).abs() < 1.0 + 1e-3);
    }

    #[test]
    fn sizes_that_follow_the_zoom_come_in_half_points() {
        let sizes: std::collections::BTreeSet<u32> = (0..1000).map(|i| initials_size(10.0 + i as f32 * 0.02).to_bits()).collect();
        // From 10 to 17 points: fifteen sizes however finely the zoom moves.
        assert_eq!(sizes.len(), 15);
        assert_eq!(half_points(12.3), 12.5);
        assert_eq!(half_points(12.2), 12.0);
        assert_eq!(initials_size(100.0), 17.0);
    }
}
