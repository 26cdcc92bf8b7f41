//! The campaign map, drawn to scale from the [`Map`] and coloured from the public [`Board`],
//! with counters (named only where the viewer's own forces name them), battles due and a
//! picked counter's legal destinations (or, during setup, where it may deploy); and the
//! small battlefield diagram of the details panel.
//!
//! Every mark has a shape as well as a colour (squares for walls, a star for a capital, a
//! wave for a coast, a fill pattern per side) so the map reads in greyscale and for
//! colour-blind eyes.

use std::collections::BTreeMap;
use std::sync::Arc;

use egui::epaint::Galley;
use egui::text::{LayoutJob, TextFormat};
use egui::{Align, Align2, Color32, FontId, Painter, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2, pos2, vec2};
use referee_campaign::magna_graecia::map::{Battlefield, Edge, FeatureKind, RiverEnd, SettlementKind, Size};
use referee_campaign::magna_graecia::scenario::Pattern;
use referee_campaign::magna_graecia::turn::Phase;
use referee_campaign::magna_graecia::view::{Board, Forces, SidePublic};
use referee_campaign::{NodeId, magna_graecia::map::Map, magna_graecia::order::Order};

use crate::gui::magna_graecia::command::CounterRef;
use crate::gui::magna_graecia::command::MagnaGraeciaCommand;
use crate::gui::magna_graecia::command::run;
pub(crate) use crate::gui::magna_graecia::paint::{OUTLINE, paint_swatch, side_colour};
use crate::gui::magna_graecia::paint::{pattern_dots, pattern_ink, pattern_segments, patterned_rect};
use crate::gui::magna_graecia::tokens::{self, Token};
use crate::gui::shell::command::AppCommand;
use crate::gui::widgets::circles::Circles as _;
use crate::gui::widgets::labels::{MapLayout, beside, near};
use crate::gui::widgets::pan_zoom::{PanZoom, fill_around, fill_polygon, triangulate};
use crate::gui::widgets::sprites::{Sketch, Sprites as _};

const SEA: Color32 = Color32::from_rgb(0xcf, 0xe1, 0xeb);
const SHALLOWS: Color32 = Color32::from_rgb(0xbd, 0xd7, 0xe5);
const LAND: Color32 = Color32::from_rgb(0xf4, 0xee, 0xdc);
const COAST: Color32 = Color32::from_rgb(0x5b, 0x84, 0x9e);
const SEA_TEXT: Color32 = Color32::from_rgb(0x6f, 0x93, 0xab);
const PATH: Color32 = Color32::from_rgb(0xa3, 0x8d, 0x70);
const PATH_SELECTED: Color32 = Color32::from_rgb(0x3a, 0x33, 0x2b);
const INK: Color32 = Color32::from_rgb(0x1c, 0x1c, 0x1c);
const NUMBER: Color32 = Color32::from_rgb(0x5e, 0x5e, 0x5e);
const HALO: Color32 = Color32::from_rgba_unmultiplied_const(0xf4, 0xf1, 0xe8, 0xe6);
const NEUTRAL: Color32 = Color32::from_rgb(0xfb, 0xfa, 0xf6);
const GOLD: Color32 = Color32::from_rgb(0xf0, 0xbe, 0x2c);
const WAVE: Color32 = Color32::from_rgb(0x1f, 0x5f, 0x99);
const SELECTION: Color32 = Color32::from_rgb(0xff, 0x9f, 0x1c);
const PANEL: Color32 = Color32::from_rgba_unmultiplied_const(0xfb, 0xfa, 0xf6, 0xee);
/// Where a picked counter may move: a bluish green, apart from the orange selection.
const MOVE: Color32 = Color32::from_rgb(0x00, 0x8a, 0x64);

/// What the map draws over the public board for the viewer.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Overlay<'a> {
    /// The viewer's own forces: every side's for the umpire, one side's for a player.
    /// Only these counters are drawn with names.
    pub own: &'a [&'a Forces],
    /// The counter picked out to move (its legal destinations light up) or, during setup,
    /// to deploy (the nodes where it may deploy light up).
    pub picked: Option<&'a CounterRef>,
}

/// Pan and zoom of the map, and the outline's triangles (computed once per map).
#[derive(Debug)]
pub(crate) struct MapState {
    view: PanZoom,
    outline: Option<(String, Vec<[usize; 3]>)>,
    /// The legend is folded away to its title, by a click on it.
    pub(crate) legend_folded: bool,
    /// Where the last frame put the markers, counters and names.
    pub(crate) layout: MapLayout,
    /// What was selected before the last click, for a double click to put back.
    before_click: Option<Option<NodeId>>,
}

impl Default for MapState {
    fn default() -> Self {
        MapState { view: PanZoom::new(0.3, 60.0), outline: None, legend_folded: false, layout: MapLayout::default(), before_click: None }
    }
}

/// The room left around the island when it is fitted.
const FIT_MARGIN: f32 = 18.0;

fn whole(map: &Map) -> Rect {
    Rect::from_min_size(Pos2::ZERO, vec2(map.width_km, map.height_km))
}

impl MapState {
    /// Screen points per km.
    pub(crate) fn zoom(&self) -> f32 {
        self.view.zoom
    }

    pub fn fit_next_frame(&mut self) {
        self.view.fit_next_frame();
    }

    #[cfg(test)]
    fn fit(&mut self, canvas: Rect, map: &Map) {
        self.view.fit(canvas, whole(map), FIT_MARGIN);
    }

    /// Where a point of the map, in kilometres, was drawn in the last frame on `canvas`: for
    /// what is drawn over the map (a player's planned paths).
    pub(crate) fn screen_pos(&self, canvas: Rect, x_km: f32, y_km: f32) -> Pos2 {
        self.projection(canvas).pos(x_km, y_km)
    }

    fn projection(&self, canvas: Rect) -> Projection {
        Projection { origin: canvas.min + self.view.offset, zoom: self.view.zoom }
    }

    fn outline_triangles(&mut self, map: &Map) -> &[[usize; 3]] {
        if self.outline.as_ref().is_none_or(|(id, _)| id != &map.id) {
            self.outline = Some((map.id.clone(), triangulate(&map.outline)));
        }
        self.outline.as_ref().map_or(&[], |(_, t)| t.as_slice())
    }
}

/// From km (x east, y south) to screen points.
#[derive(Debug, Clone, Copy)]
struct Projection {
    origin: Pos2,
    zoom: f32,
}

impl Projection {
    fn pos(self, x_km: f32, y_km: f32) -> Pos2 {
        self.origin + vec2(x_km, y_km) * self.zoom
    }
}

/// An open site's disc in its holder's colour, the pattern kept inside it.
fn patterned_circle(s: &mut Sketch, centre: Pos2, radius: f32, fill: Color32, pattern: Pattern) {
    s.disc(centre, radius, fill, Stroke::NONE);
    let bounds = Rect::from_center_size(centre, Vec2::splat(2.0 * radius));
    let spacing = (radius * 0.75).max(3.5);
    let ink = pattern_ink(fill);
    let width = (spacing * 0.32).clamp(1.0, 2.0);
    s.within_circle(centre, radius - 0.5, |s| {
        for segment in pattern_segments(pattern, bounds, spacing) {
            s.line(segment.to_vec(), Stroke::new(width, ink), false);
        }
    });
    for d in pattern_dots(pattern, bounds, spacing) {
        if d.distance(centre) < radius - width {
            s.disc(d, width * 0.75, ink, Stroke::NONE);
        }
    }
}

fn star(s: &mut Sketch, centre: Pos2, radius: f32) {
    let points: Vec<Pos2> = (0..10)
        .map(|i| {
            let angle = -std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / 5.0;
            let r = if i % 2 == 0 { radius } else { radius * 0.45 };
            centre + vec2(angle.cos(), angle.sin()) * r
        })
        .collect();
    s.polygon(points.clone(), GOLD);
    s.line(points, Stroke::new(1.0, OUTLINE), true);
}

fn wave(s: &mut Sketch, centre: Pos2, half_width: f32) {
    let points: Vec<Pos2> = (0..=16)
        .map(|i| {
            let t = i as f32 / 16.0;
            pos2(centre.x - half_width + 2.0 * half_width * t, centre.y + 1.6 * (t * std::f32::consts::TAU * 2.0).sin())
        })
        .collect();
    s.line(points, Stroke::new(1.6, WAVE), false);
}

/// Radius of the neutral-commands badge on a walled city.
const BADGE_RADIUS: f32 = 7.0;

/// How far outside a marker the ring of an allied city is drawn.
const ALLY_RING: f32 = 4.0;

/// A badge's white disc; its number is drawn over it by [`badge_text`].
fn badge(s: &mut Sketch, centre: Pos2, radius: f32) {
    s.disc(centre, radius, Color32::WHITE, Stroke::new(1.0, OUTLINE));
}

fn badge_text(painter: &Painter, centre: Pos2, text: &str, radius: f32) {
    painter.text(centre + vec2(0.0, 0.5), Align2::CENTER_CENTER, text, FontId::proportional(radius * 1.6), INK);
}

/// A text with its halo as eight copies: for the few texts drawn among other symbols.
fn halo_galley(painter: &Painter, pos: Pos2, galley: &Arc<Galley>) {
    painter.halo_copies(pos, galley, HALO);
    painter.galley(pos, galley.clone(), INK);
}

/// The map's many texts, drawn together: every halo as a picture, then every text.
fn halo_galleys(painter: &Painter, texts: &[(Pos2, Arc<Galley>)]) {
    painter.halos(texts, HALO);
    for (pos, galley) in texts {
        painter.galley(*pos, galley.clone(), INK);
    }
}

fn halo_text(painter: &Painter, pos: Pos2, anchor: Align2, text: &str, font: FontId, colour: Color32) -> Rect {
    let galley = painter.layout_no_wrap(text.to_owned(), font, colour);
    let rect = anchor.anchor_size(pos, galley.size());
    halo_galley(painter, rect.min, &galley);
    rect
}

/// How big node markers are at this zoom.
fn marker_radius(zoom: f32) -> f32 {
    (zoom * 2.7).clamp(6.5, 17.0)
}

/// The nearest node within `reach` screen points of `pointer`, at the places `spread` drew
/// the nodes.
fn node_at(spread: &BTreeMap<NodeId, Pos2>, pointer: Pos2, reach: f32) -> Option<NodeId> {
    spread
        .iter()
        .map(|(id, at)| (*id, at.distance(pointer)))
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| id)
}

/// Where each node is drawn: at its place on the map, except that two nodes closer on the
/// screen than `gap` (Motya and Lilybaeum, zoomed out) are pushed apart along the line
/// between them until their markers and badges no longer overlap. Zoomed in, every node is
/// where the map puts it. Paths, counters, labels and clicks all follow the drawn places.
fn spread(map: &Map, proj: Projection, gap: f32) -> BTreeMap<NodeId, Pos2> {
    let mut at: BTreeMap<NodeId, Pos2> = map.nodes.values().map(|n| (n.id, proj.pos(n.x_km, n.y_km))).collect();
    let ids: Vec<NodeId> = at.keys().copied().collect();
    for _ in 0..12 {
        let mut moved = false;
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                let (pa, pb) = (at[a], at[b]);
                let d = pb - pa;
                let len = d.length();
                if len >= gap {
                    continue;
                }
                // Two nodes on one spot part along the vertical, the lower id above.
                let dir = if len > 0.01 { d / len } else { vec2(0.0, 1.0) };
                let push = dir * (gap - len) / 2.0;
                at.insert(*a, pa - push);
                at.insert(*b, pb + push);
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    at
}

/// What a node looks like, from the map and the public board.
struct Marker<'a> {
    id: NodeId,
    centre: Pos2,
    fortified: Option<u8>,
    coastal: bool,
    controller: Option<&'a SidePublic>,
    ally: Option<&'a SidePublic>,
    capital: Option<(&'a SidePublic, u8)>,
    /// The besieger, if the city is under siege (MG-27), and whether disease has come (MG-29).
    siege: Option<(&'a SidePublic, bool)>,
}

/// How far outside a marker the ring of siege ticks begins.
const SIEGE_RING: f32 = ALLY_RING + 4.5;
/// Length of a siege tick.
const SIEGE_TICK: f32 = 5.0;

/// A ring of short ticks in the besieger's colour round a besieged city (MG-27): the lines
/// of the siege. Each tick is dark-edged so it reads on any ground and in greyscale.
fn siege_ring(s: &mut Sketch, centre: Pos2, radius: f32, colour: Color32) {
    let n = 14;
    for i in 0..n {
        let a = i as f32 * std::f32::consts::TAU / n as f32;
        let d = vec2(a.cos(), a.sin());
        let seg = vec![centre + d * radius, centre + d * (radius + SIEGE_TICK)];
        s.line(seg.clone(), Stroke::new(4.2, OUTLINE), false);
        s.line(seg, Stroke::new(2.4, colour), false);
    }
}

/// Sickly green of the disease mark.
const DISEASE: Color32 = Color32::from_rgb(0x8f, 0xa8, 0x2a);

/// Disease at a siege (MG-29): a green disc with dark spots.
fn disease(s: &mut Sketch, centre: Pos2, radius: f32) {
    s.disc(centre, radius, DISEASE, Stroke::new(1.3, OUTLINE));
    for d in [vec2(-0.35, -0.3), vec2(0.38, -0.15), vec2(-0.05, 0.4)] {
        s.disc(centre + d * radius, radius * 0.2, INK, Stroke::NONE);
    }
}

/// Where the disease mark of a siege sits: on the ring of ticks, below right.
fn disease_at(centre: Pos2, r: f32) -> Pos2 {
    centre + vec2(1.0, 1.0).normalized() * (r + SIEGE_RING + SIEGE_TICK * 0.5)
}

impl Marker<'_> {
    /// The marker with its badges, star and wave: what labels must keep clear of.
    fn footprint(&self, r: f32) -> Rect {
        // At least the ring a lit or selected node gets, so that no label sits under it.
        let reach = if self.siege.is_some() {
            r + SIEGE_RING + SIEGE_TICK + 1.5
        } else if self.ally.is_some() {
            r + ALLY_RING + 6.5
        } else {
            r + 7.5
        };
        let mut rect = Rect::from_center_size(self.centre, Vec2::splat(2.0 * reach));
        if self.fortified.is_some() {
            rect = rect.union(Rect::from_center_size(self.centre + vec2(r, -r), Vec2::splat(2.0 * BADGE_RADIUS + 2.0)));
        }
        if self.capital.is_some() {
            rect = rect.union(Rect::from_center_size(self.centre + vec2(-r - 6.0, -r), vec2(30.0, 18.0)));
        }
        if self.coastal {
            rect = rect.union(Rect::from_center_size(self.centre + vec2(0.0, r + 4.0), vec2(2.0 * r, 6.0)));
        }
        rect
    }

    /// The marker's numbers, drawn over every marker's picture (so that the pictures, in one
    /// texture, are drawn together, and the numbers, in the font's, after them).
    fn paint_numbers(&self, painter: &Painter, r: f32) {
        if let Some(n) = self.fortified {
            badge_text(painter, self.centre + vec2(r, -r), &n.to_string(), BADGE_RADIUS);
        }
        if let Some((_, strength)) = self.capital {
            let at = self.centre + vec2(-r, -r);
            halo_text(painter, at - vec2(9.0, 0.0), Align2::RIGHT_CENTER, &strength.to_string(), FontId::proportional(12.0), INK);
        }
    }

    /// The marker's symbol around its centre: siege ticks, an ally's ring, the walls or the
    /// open site in the holder's colour and pattern, the coast's wave, the badge's disc, the
    /// capital's star and a siege's disease.
    fn sketch(&self, s: &mut Sketch, r: f32) {
        let centre = Pos2::ZERO;
        let fill = self.controller.map_or(NEUTRAL, side_colour);
        let pattern = self.controller.map_or(Pattern::Solid, |s| s.pattern);
        if let Some((besieger, _)) = self.siege {
            siege_ring(s, centre, r + SIEGE_RING, side_colour(besieger));
        }
        if let Some(ally) = self.ally {
            // A light gap between marker and ring keeps the two apart when they share a colour.
            let ring = Stroke::new(2.6, side_colour(ally));
            let dark = Stroke::new(4.2, OUTLINE);
            let gap = Color32::from_white_alpha(200);
            if self.fortified.is_some() {
                let rect = Rect::from_center_size(centre, Vec2::splat(2.0 * (r + ALLY_RING)));
                s.rect(rect, 3.0, gap);
                s.rect_stroke(rect, 3.0, dark);
                s.rect_stroke(rect, 3.0, ring);
            } else {
                s.disc(centre, r + ALLY_RING, gap, Stroke::NONE);
                s.ring(centre, r + ALLY_RING, dark);
                s.ring(centre, r + ALLY_RING, ring);
            }
        }
        if self.fortified.is_some() {
            let rect = Rect::from_center_size(centre, Vec2::splat(2.0 * r));
            patterned_rect(s, rect, fill, pattern, (r * 0.72).max(3.5));
            s.rect_stroke(rect, 1.5, Stroke::new(1.6, OUTLINE));
        } else {
            let radius = r * 0.78;
            patterned_circle(s, centre, radius, fill, pattern);
            s.ring(centre, radius, Stroke::new(1.4, OUTLINE));
        }
        if self.coastal {
            wave(s, centre + vec2(0.0, r + 4.0), r * 0.85);
        }
        if self.fortified.is_some() {
            badge(s, centre + vec2(r, -r), BADGE_RADIUS);
        }
        if self.capital.is_some() {
            star(s, centre + vec2(-r, -r), 8.5);
        }
        if let Some((_, true)) = self.siege {
            disease(s, disease_at(centre, r), 5.5);
        }
    }
}

fn label_job(id: NodeId, name: &str, size: f32) -> LayoutJob {
    let mut job = LayoutJob::default();
    job.append(
        &format!("{id} "),
        0.0,
        TextFormat { font_id: FontId::proportional(size * 0.78), color: NUMBER, valign: Align::Center, ..TextFormat::default() },
    );
    job.append(name, 0.0, TextFormat { font_id: FontId::proportional(size), color: INK, valign: Align::Center, ..TextFormat::default() });
    job
}

fn overlap(a: Rect, b: Rect) -> f32 {
    let i = a.intersect(b);
    if i.is_positive() { i.area() } else { 0.0 }
}

/// Puts each node's counters where they hide the fewest other markers and counters:
/// under the node's marker, else above, left or right of it.
fn place_groups(markers: &[Marker<'_>], groups: &mut [tokens::Group], tokens: &mut [Token<'_>], r: f32, canvas: Rect) {
    let footprints: Vec<(NodeId, Rect)> = markers.iter().map(|m| (m.id, m.footprint(r))).collect();
    let mut placed: Vec<Rect> = Vec::new();
    for g in groups.iter_mut() {
        let Some(m) = markers.iter().find(|m| m.id == g.node) else { continue };
        let (c, f, e) = (m.centre, m.footprint(r), g.rect);
        let candidates = [
            vec2(c.x - e.center().x, f.bottom() + 2.0 - e.top()),
            vec2(c.x - e.center().x, f.top() - 2.0 - e.bottom()),
            vec2(f.left() - 3.0 - e.right(), c.y - e.center().y),
            vec2(f.right() + 3.0 - e.left(), c.y - e.center().y),
        ];
        let score = |rect: Rect| {
            let others = footprints.iter().filter(|(id, _)| *id != g.node).map(|(_, o)| overlap(rect, *o)).sum::<f32>();
            let counters = placed.iter().map(|o| overlap(rect, *o)).sum::<f32>();
            let outside = rect.area() - overlap(rect, canvas);
            others * 3.0 + counters * 3.0 + outside * 2.0
        };
        let best = candidates
            .iter()
            .enumerate()
            .map(|(k, by)| (*by, score(e.translate(*by)) + k as f32 * 0.5))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(Vec2::ZERO, |(by, _)| by);
        tokens::shift(g, tokens, best);
        placed.push(g.rect);
    }
}

/// The map: sea, island, paths, nodes coloured from the board, counters and battles, names,
/// legend and scale. Drag pans, the wheel zooms around the pointer, a double click fits the
/// map; a click selects a node, picks out one of the viewer's counters, or moves the picked
/// counter to a lit node.
/// The setting, in the database file, that says the legend is folded away.
pub(crate) const LEGEND_FOLDED_KEY: &str = "map_legend_folded";

pub(crate) fn map_ui(
    ui: &mut egui::Ui,
    map: &Map,
    board: &Board,
    overlay: &Overlay<'_>,
    selected: Option<NodeId>,
    state: &mut MapState,
    commands: &mut Vec<AppCommand>,
) {
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let canvas = response.rect;
    let painter = painter.with_clip_rect(canvas.intersect(painter.clip_rect()));
    state.view.input(ui, &response, whole(map), FIT_MARGIN);
    let proj = state.projection(canvas);
    let r = marker_radius(proj.zoom);
    // A node's marker with its badge, star and coast wave fits in a box of about 2r + 20.
    let spread = spread(map, proj, 2.0 * r + 20.0);
    let centre_of = |n: NodeId| spread.get(&n).copied();

    let markers: Vec<Marker<'_>> = map
        .nodes
        .values()
        .map(|n| {
            let status = board.node(n.id);
            let side = |s: Option<&referee_campaign::SideId>| s.and_then(|s| board.side(s));
            Marker {
                id: n.id,
                centre: spread.get(&n.id).copied().unwrap_or_else(|| proj.pos(n.x_km, n.y_km)),
                // The number the scenario makes of it (MG-05), on the map file's walls.
                fortified: n.city_commands.map(|m| status.and_then(|s| s.city_commands).unwrap_or(m)),
                coastal: n.coastal,
                controller: side(status.and_then(|s| s.controller.as_ref())),
                ally: side(status.and_then(|s| s.allied_to.as_ref())),
                capital: side(status.and_then(|s| s.capital_of.as_ref())).map(|s| (s, s.capital.map_or(0, |c| c.strength))),
                siege: board.sieges.iter().find(|x| x.node == n.id).and_then(|x| Some((board.side(&x.besieger)?, x.disease))),
            }
        })
        .collect();

    // Counters in rows beside their node's marker, battle markers to the left of them.
    let s = tokens::token_size(r);
    let battle_r = tokens::battle_radius(s);
    let mut tokens = tokens::tokens(board, overlay.own);
    let battle_nodes: Vec<NodeId> = board.battles.iter().map(|b| b.node).collect();
    let mut groups = tokens::groups(&mut tokens, &battle_nodes, s);
    place_groups(&markers, &mut groups, &mut tokens, r, canvas);
    let battles: Vec<Pos2> = groups.iter().filter_map(|g| g.battle).collect();

    // The picked counter, if it is the viewer's and on the map, and where it may go; during
    // setup, where it may deploy (MG-02), on the map or not.
    let picked_forces = overlay.picked.and_then(|p| overlay.own.iter().find(|f| f.side == p.side).map(|f| (p, *f)));
    let picked = picked_forces.and_then(|(p, f)| {
        let c = f.counters.iter().find(|c| c.name == p.name)?;
        Some((c, f.moves.get(&c.name)))
    });
    let moves = picked.and_then(|(_, m)| m).filter(|m| !m.is_empty());
    // Not where it stands already: deploying there again would change nothing.
    let deploy: Vec<NodeId> = match picked_forces {
        Some((p, f)) if board.phase == Phase::Setup => {
            let at = picked.map(|(c, _)| c.node);
            f.deployable.get(&p.name).into_iter().flatten().copied().filter(|n| Some(*n) != at).collect()
        }
        _ => Vec::new(),
    };
    let lit = |n: NodeId| moves.is_some_and(|m| m.contains_key(&n)) || deploy.contains(&n);
    let is_picked = |t: &Token<'_>| overlay.picked.is_some_and(|p| t.name == Some(p.name.as_str()) && t.side.id == p.side);
    // Own counters that may move now, or be deployed during setup, are picked by a click.
    let pickable = |side: &referee_campaign::SideId, name: &str| {
        overlay
            .own
            .iter()
            .any(|f| &f.side == side && (f.moves.contains_key(name) || (board.phase == Phase::Setup && f.deployable.contains_key(name))))
    };

    let pointer = response.hover_pos();
    let hovered_token = pointer.and_then(|p| tokens.iter().find(|t| t.rect.expand(1.0).contains(p)));
    let hovered = if hovered_token.is_some() { None } else { pointer.and_then(|p| node_at(&spread, p, r + 6.0)) };
    let hovered_move = hovered.and_then(|n| moves.and_then(|m| m.get_key_value(&n)));
    let hovered_deploy = hovered.filter(|n| deploy.contains(n));
    if response.double_clicked() {
        // The double click fits the map; its first click selected nothing after all.
        if let Some(before) = state.before_click.take() {
            commands.push(MagnaGraeciaCommand::Select(before).into());
        }
    } else if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        state.before_click = Some(selected);
        if let Some(t) = tokens.iter().find(|t| t.rect.expand(1.0).contains(p)) {
            // Own counters that may move are picked (or let go); any other token selects its node.
            let movable = t.name.filter(|n| pickable(&t.side.id, n));
            match movable.or(t.name.filter(|_| is_picked(t))) {
                Some(name) => {
                    let this = CounterRef { side: t.side.id.clone(), name: name.to_owned() };
                    let again = overlay.picked == Some(&this);
                    commands.push(MagnaGraeciaCommand::SelectCounter((!again).then_some(this)).into());
                }
                None if selected != Some(t.node) => commands.push(MagnaGraeciaCommand::Select(Some(t.node)).into()),
                None => {}
            }
        } else {
            let hit = node_at(&spread, p, r + 6.0);
            match (picked, hit.and_then(|n| moves.and_then(|m| m.get(&n)))) {
                (Some((c, _)), Some(path)) => {
                    run(commands, Order::Move { side: c.side.clone(), counter: c.name.clone(), path: path.clone() });
                }
                _ => match (overlay.picked, hit.filter(|n| deploy.contains(n))) {
                    (Some(c), Some(node)) => run(commands, Order::Deploy { side: c.side.clone(), counter: c.name.clone(), node }),
                    _ if hit != selected => commands.push(MagnaGraeciaCommand::Select(hit).into()),
                    _ => {}
                },
            }
        }
    }

    let outline: Vec<Pos2> = map.outline.iter().map(|&(x, y)| proj.pos(x, y)).collect();
    if !fill_around(&painter, canvas, &outline, SEA) {
        painter.rect_filled(canvas, 0.0, SEA);
    }
    painter.add(Shape::closed_line(outline.clone(), Stroke::new(9.0, SHALLOWS)));
    fill_polygon(&painter, &outline, state.outline_triangles(map), LAND);
    painter.add(Shape::closed_line(outline, Stroke::new(1.4, COAST)));
    for &(a, b) in &map.paths {
        let (Some(pa), Some(pb)) = (centre_of(a), centre_of(b)) else { continue };
        let touches = selected.is_some_and(|s| s == a || s == b);
        let stroke = if touches { Stroke::new(3.0, PATH_SELECTED) } else { Stroke::new(1.8, PATH) };
        painter.line_segment([pa, pb], stroke);
    }
    if let (Some((c, _)), Some(moves)) = (picked, moves) {
        // The routes the picked counter may take, the hovered one bolder.
        for (to, path) in moves {
            let points: Vec<Pos2> = std::iter::once(c.node).chain(path.iter().copied()).filter_map(centre_of).collect();
            let stroke = if hovered == Some(*to) { Stroke::new(5.5, MOVE) } else { Stroke::new(3.5, MOVE.gamma_multiply(0.75)) };
            painter.add(Shape::line(points, stroke));
        }
    }

    // Where markers overlap, capitals and walled cities stay on top.
    let mut paint_order: Vec<&Marker<'_>> = markers.iter().collect();
    paint_order.sort_by_key(|m| (m.capital.is_some(), m.fortified.is_some(), m.id));
    let highlight = |m: &Marker<'_>| r + if m.ally.is_some() { ALLY_RING + 5.0 } else { 6.0 };
    for &m in &paint_order {
        let lit = lit(m.id);
        if Some(m.id) == selected {
            painter.circle_filled(m.centre, highlight(m) + 4.0, Color32::from_rgba_unmultiplied(0xff, 0x9f, 0x1c, 90));
        } else if lit {
            // Under the marker, so its badges stay readable.
            painter.circle_filled(m.centre, highlight(m) + 3.0, Color32::from_rgba_unmultiplied(0x00, 0x8a, 0x64, 70));
            let width = if hovered == Some(m.id) { 4.5 } else { 3.0 };
            painter.ring(m.centre, highlight(m), Stroke::new(width, MOVE));
        }
        painter.sketch(m.centre, |s| m.sketch(s, r));
        if Some(m.id) == selected {
            painter.ring(m.centre, highlight(m), Stroke::new(3.0, SELECTION));
        } else if Some(m.id) == hovered && !lit {
            painter.ring(m.centre, highlight(m), Stroke::new(2.0, SELECTION.gamma_multiply(0.8)));
        }
    }

    for m in paint_order {
        m.paint_numbers(&painter, r);
    }

    for g in &groups {
        let inside = tokens[g.tokens.clone()].iter().filter(|t| t.inside).fold(Rect::NOTHING, |r, t| r.union(t.rect));
        if inside.is_positive() {
            tokens::paint_walls(&painter, inside);
        }
    }
    // The initials are drawn with the names, after every token and marker.
    let mut labels = Vec::new();
    for t in &tokens {
        if is_picked(t) {
            painter.rect_filled(t.rect.expand(3.5), 3.0, SELECTION);
        }
        if t.sheltered {
            tokens::paint_sheltered_fleet(&painter, t.rect, t.side);
        } else {
            tokens::paint_counter(&painter, t.rect, t.side, t.fleet);
        }
        if hovered_token.is_some_and(|h| std::ptr::eq(h, t)) && !is_picked(t) {
            painter.rect_stroke(t.rect.expand(2.0), 2.5, Stroke::new(2.0, SELECTION), StrokeKind::Outside);
        }
        // The viewer's own commands (all of them, for the umpire) carry their first letters
        // once the map is big enough to read them; the others' tokens have no name to show.
        // Three letters where they fit inside the token, else two, else one.
        if let (Some(name), false) = (t.name, t.fleet)
            && t.rect.width() >= 15.0
        {
            let font = FontId::proportional(tokens::initials_size(t.rect.height()));
            let fitting = (1..=3)
                .rev()
                .map(|n| painter.layout_no_wrap(name.chars().take(n).collect(), font.clone(), INK))
                .find(|g| g.size().x + 2.0 <= t.rect.width() && g.size().y <= t.rect.height() + 2.0);
            if let Some(galley) = fitting {
                labels.push((t.rect.center() - galley.size() / 2.0, galley));
            }
        }
    }
    for &at in &battles {
        tokens::paint_battle_marker(&painter, at, battle_r);
    }

    let legend = if state.legend_folded { folded_legend_rect(&painter, canvas) } else { legend_rect(&painter, board, canvas) };
    let note = map.reconstructed.then(|| {
        let galley = painter.layout_no_wrap("reconstructed map (?)".to_owned(), FontId::proportional(12.0), NUMBER);
        (Rect::from_min_size(canvas.min + vec2(10.0, 8.0), galley.size()).expand(4.0), galley)
    });
    // Names laid out so that none covers another or a marker (widgets::labels), in this
    // order of priority: the markers, counters and battles, the legend, the scale and the
    // note are marks; then the nodes' names, capitals and walled cities first, each in
    // full, then smaller, then as its number alone; then the seas' names.
    let mut layout = MapLayout::new(canvas);
    for rect in markers.iter().map(|m| m.footprint(r)).chain(groups.iter().map(|g| g.rect.expand(1.5))) {
        layout.mark(rect);
    }
    let scale = scale_bar_rect(canvas);
    for rect in [legend, scale].into_iter().chain(note.as_ref().map(|(rect, _)| *rect)) {
        layout.mark(rect);
    }
    let font_size = if proj.zoom < 2.2 { 11.5 } else { 13.5 };
    let mut by_priority: Vec<&Marker<'_>> = markers.iter().collect();
    by_priority.sort_by_key(|m| (m.capital.is_none(), std::cmp::Reverse(m.fortified.unwrap_or(0)), m.id));
    for m in by_priority {
        let name = map.name(m.id);
        let forms = [font_size, font_size - 2.0]
            .into_iter()
            .map(|size| painter.layout_job(label_job(m.id, &name, size)))
            .chain(std::iter::once_with(|| painter.layout_no_wrap(m.id.to_string(), FontId::proportional(font_size - 2.0), NUMBER)));
        if let Some((galley, min)) = layout.name(forms, |s| beside(m.footprint(r), s)) {
            labels.push((min, galley));
        }
    }
    halo_galleys(&painter, &labels);
    paint_sea_names(&painter, map, proj, &mut layout);
    state.layout = layout;

    if state.legend_folded {
        painter.rect(legend, 6.0, PANEL, Stroke::new(1.0, SEA_TEXT), StrokeKind::Inside);
        painter.text(legend.min + vec2(10.0, 5.0), Align2::LEFT_TOP, "Legend", FontId::proportional(13.0), INK);
    } else {
        paint_legend(&painter, board, legend, r);
    }
    // A click on the legend's title folds it away or opens it again.
    let title = Rect::from_min_size(legend.min, vec2(legend.width(), 26.0));
    let fold = ui.interact(title, ui.scope_id().with("legend_title"), Sense::click());
    let fold = fold.on_hover_text(if state.legend_folded { "Show the legend" } else { "Fold the legend away" });
    if fold.clicked() {
        commands.push(MagnaGraeciaCommand::FoldLegend(!state.legend_folded).into());
    }
    paint_scale_bar(&painter, proj, scale);
    if let Some((rect, galley)) = note {
        painter.rect(rect, 4.0, PANEL, Stroke::new(1.0, SEA_TEXT), StrokeKind::Inside);
        painter.galley(rect.min + Vec2::splat(4.0), galley, NUMBER);
        ui.put(rect, egui::Label::new("").sense(Sense::hover())).on_hover_text(&map.note);
    }
    if let Some(t) = hovered_token {
        let side = &t.side.name;
        // Names only of the viewer's own counters: the others' tokens carry none.
        let text = match (t.name, t.fleet) {
            (Some(_), true) => format!("{side} fleet"),
            (Some(name), false) => format!("{name} ({side})"),
            (None, true) => format!("the {side} fleet"),
            (None, false) => format!("a {side} counter"),
        };
        let text = if t.inside { format!("{text} · inside the walls") } else { text };
        let text = if t.sheltered { format!("{text} · sheltered (MG-19)") } else { text };
        let hint = if is_picked(t) {
            " · click again to let it go"
        } else if t.name.is_some_and(|n| pickable(&t.side.id, n)) {
            if board.phase == Phase::Setup { " · click to pick it for deployment" } else { " · click to move it" }
        } else {
            ""
        };
        response.on_hover_text_at_pointer(format!("{text}{hint}"));
    } else if let (Some(node), Some(c)) = (hovered_deploy, overlay.picked) {
        let name = counter_name(board, c);
        let label = map.node(node).map_or_else(|| node.to_string(), |n| n.label());
        response.on_hover_text_at_pointer(format!("Click to deploy {name} at {label}"));
    } else if let (Some((to, path)), Some((c, _))) = (hovered_move, picked) {
        let name = if c.is_fleet() {
            format!("the {} fleet", board.side(&c.side).map_or(c.side.as_str(), |s| s.name.as_str()))
        } else {
            c.name.clone()
        };
        let steps = path.len();
        response.on_hover_text_at_pointer(format!(
            "Click to move {name} to {} ({steps} MP)",
            map.node(*to).map_or_else(|| to.to_string(), |n| n.label())
        ));
    } else if let Some(id) = hovered
        && let Some(node) = map.node(id)
    {
        let who = board
            .node(id)
            .and_then(|s| s.controller.as_ref())
            .and_then(|s| board.side(s))
            .map_or("uncontrolled".to_owned(), |s| format!("held by {}", s.name));
        let siege = board.sieges.iter().find(|s| s.node == id).map_or_else(String::new, |s| {
            let by = board.side(&s.besieger).map_or(s.besieger.as_str(), |x| x.name.as_str());
            let rolls = if s.rolls == 1 { "1 roll".to_owned() } else { format!("{} rolls", s.rolls) };
            format!("\nsiege by {by} · {rolls}{}", if s.disease { " · disease" } else { "" })
        });
        response.on_hover_text_at_pointer(format!("{} — {who}{siege}", node.label()));
    }
}

/// "Himilco", or "the Carthage fleet".
fn counter_name(board: &Board, c: &CounterRef) -> String {
    if c.name == referee_campaign::magna_graecia::turn::FLEET {
        format!("the {} fleet", board.side(&c.side).map_or(c.side.as_str(), |s| s.name.as_str()))
    } else {
        c.name.clone()
    }
}

/// The seas' names, last of the names: where a node's name or a counter needs the room, a
/// sea's name moves aside or is left off.
fn paint_sea_names(painter: &Painter, map: &Map, proj: Projection, layout: &mut MapLayout) {
    if map.id != "sicily" {
        return;
    }
    let font = FontId::proportional(tokens::half_points((proj.zoom * 4.2).clamp(11.0, 20.0)));
    for (x, y, name) in [(165.0, 12.0, "Mare Tyrrhenum"), (105.0, 160.0, "Mare Africum"), (283.0, 100.0, "Mare\nIonium")] {
        let galley = painter.layout(name.to_owned(), font.clone(), SEA_TEXT, f32::INFINITY);
        if let Some((galley, min)) = layout.name([galley], |s| near(proj.pos(x, y), s)) {
            painter.galley(min, galley, SEA_TEXT);
        }
    }
}

const LEGEND_ROW: f32 = 18.0;

/// Paints one legend symbol centred on a point.
type LegendIcon<'a> = &'a dyn Fn(&Painter, Pos2);
const LEGEND_SYMBOLS: [&str; 8] = [
    "walled city · n commands it fields",
    "open site",
    "capital · n commands",
    "allied city (ring: ally's colour)",
    "coastal",
    "counters: a command, a fleet",
    "battle due",
    "where a picked counter may move or deploy",
];

/// The legend's rows for sieges, shown only while a city is besieged.
fn siege_symbols(board: &Board) -> Vec<&'static str> {
    let mut out = Vec::new();
    if !board.sieges.is_empty() {
        out.push("siege (ticks: besieger's colour)");
        out.push("counters inside the walls");
    }
    if board.sieges.iter().any(|s| s.disease) {
        out.push("disease at the siege");
    }
    out
}

/// The legend folded to its title, in the same corner.
fn folded_legend_rect(painter: &Painter, canvas: Rect) -> Rect {
    let width = painter.layout_no_wrap("Legend".to_owned(), FontId::proportional(13.0), INK).size().x + 20.0;
    let size = vec2(width, 26.0);
    Rect::from_min_size(pos2(canvas.left() + 10.0, canvas.bottom() - 10.0 - size.y), size)
}

fn legend_rect(painter: &Painter, board: &Board, canvas: Rect) -> Rect {
    let rows = board.sides.len() + 1 + LEGEND_SYMBOLS.len() + siege_symbols(board).len();
    let width = LEGEND_SYMBOLS
        .iter()
        .map(|s| painter.layout_no_wrap((*s).to_owned(), FontId::proportional(12.0), INK).size().x)
        .fold(0.0, f32::max)
        + 46.0;
    let size = vec2(width, rows as f32 * LEGEND_ROW + 30.0);
    Rect::from_min_size(pos2(canvas.left() + 10.0, canvas.bottom() - 10.0 - size.y), size)
}

fn paint_legend(painter: &Painter, board: &Board, rect: Rect, r: f32) {
    painter.rect(rect, 6.0, PANEL, Stroke::new(1.0, SEA_TEXT), StrokeKind::Inside);
    painter.text(rect.min + vec2(10.0, 7.0), Align2::LEFT_TOP, "Legend", FontId::proportional(13.0), INK);
    let mut y = rect.top() + 30.0;
    let icon_x = rect.left() + 20.0;
    let text_x = rect.left() + 38.0;
    let font = FontId::proportional(12.0);
    // The icons first, the words after them: each kind is drawn from one texture.
    let mut words = Vec::new();
    let mut row = |painter: &Painter, text: &str, icon: LegendIcon<'_>| {
        icon(painter, pos2(icon_x, y + LEGEND_ROW / 2.0));
        words.push((pos2(text_x, y + LEGEND_ROW / 2.0), text.to_owned()));
        y += LEGEND_ROW;
    };
    let mut struck = Vec::new();
    for (i, side) in board.sides.iter().enumerate() {
        let colour = side_colour(side);
        if board.eliminated.contains(&side.id) {
            // Out of the campaign (MG-32): struck through.
            let text = format!("{} — out", side.name);
            let width = painter.layout_no_wrap(side.name.clone(), FontId::proportional(12.0), INK).size().x;
            let mid = rect.top() + 30.0 + i as f32 * LEGEND_ROW + LEGEND_ROW / 2.0;
            row(painter, &text, &|p, c| {
                paint_swatch(p, Rect::from_center_size(c, vec2(20.0, 13.0)), colour.gamma_multiply(0.45), side.pattern);
            });
            struck.push([pos2(text_x - 1.0, mid), pos2(text_x + width + 1.0, mid)]);
        } else {
            row(painter, &side.name, &|p, c| paint_swatch(p, Rect::from_center_size(c, vec2(20.0, 13.0)), colour, side.pattern));
        }
    }
    row(painter, "uncontrolled", &|p, c| paint_swatch(p, Rect::from_center_size(c, vec2(20.0, 13.0)), NEUTRAL, Pattern::Solid));
    let s = (r * 0.75).min(7.0);
    let icons: [LegendIcon<'_>; 8] = [
        &|p, c| {
            p.sketch(c, |k| {
                let rect = Rect::from_center_size(Pos2::ZERO, Vec2::splat(2.0 * s));
                k.rect(rect, 1.5, NEUTRAL);
                k.rect_stroke(rect, 1.5, Stroke::new(1.4, OUTLINE));
                badge(k, pos2(s, -s), 5.5);
            });
            badge_text(p, c + vec2(s, -s), "n", 5.5);
        },
        &|p, c| p.sketch(c, |k| k.disc(Pos2::ZERO, s * 0.8, NEUTRAL, Stroke::new(1.3, OUTLINE))),
        &|p, c| p.sketch(c, |k| star(k, Pos2::ZERO, 6.5)),
        &|p, c| {
            p.sketch(c, |k| {
                k.ring(Pos2::ZERO, s * 0.8 + 3.0, Stroke::new(4.0, OUTLINE));
                k.ring(Pos2::ZERO, s * 0.8 + 3.0, Stroke::new(2.4, GOLD));
                k.disc(Pos2::ZERO, s * 0.8, NEUTRAL, Stroke::new(1.3, OUTLINE));
            });
        },
        &|p, c| p.sketch(c, |k| wave(k, Pos2::ZERO, 8.0)),
        &|p, c| {
            tokens::paint_counter_in(p, Rect::from_center_size(c - vec2(9.0, 0.0), Vec2::splat(11.0)), NEUTRAL, Pattern::Solid, false);
            tokens::paint_counter_in(p, Rect::from_center_size(c + vec2(7.0, 0.0), vec2(17.0, 11.0)), NEUTRAL, Pattern::Solid, true);
        },
        &|p, c| tokens::paint_battle_marker(p, c, 8.0),
        &|p, c| {
            p.sketch(c, |k| {
                k.disc(Pos2::ZERO, s * 0.8 + 4.0, Color32::from_rgba_unmultiplied(0x00, 0x8a, 0x64, 70), Stroke::NONE);
                k.disc(Pos2::ZERO, s * 0.8, NEUTRAL, Stroke::new(1.3, OUTLINE));
                k.ring(Pos2::ZERO, s * 0.8 + 3.5, Stroke::new(2.5, MOVE));
            });
        },
    ];
    for (text, icon) in LEGEND_SYMBOLS.iter().zip(icons) {
        row(painter, text, icon);
    }
    for text in siege_symbols(board) {
        let icon: LegendIcon<'_> = match text {
            "siege (ticks: besieger's colour)" => &|p, c| {
                p.sketch(c, |k| {
                    let half = s * 0.6;
                    siege_ring(k, Pos2::ZERO, half + 2.5, NEUTRAL);
                    let rect = Rect::from_center_size(Pos2::ZERO, Vec2::splat(2.0 * half));
                    k.rect(rect, 1.0, NEUTRAL);
                    k.rect_stroke(rect, 1.0, Stroke::new(1.3, OUTLINE));
                });
            },
            "counters inside the walls" => &|p, c| {
                let inner = Rect::from_center_size(c + vec2(0.0, 1.5), Vec2::splat(9.0));
                tokens::paint_walls(p, inner);
                tokens::paint_counter_in(p, inner, NEUTRAL, Pattern::Solid, false);
            },
            _ => &|p, c| p.sketch(c, |k| disease(k, Pos2::ZERO, 5.5)),
        };
        row(painter, text, icon);
    }
    for (at, text) in words {
        painter.text(at, Align2::LEFT_CENTER, text, font.clone(), INK);
    }
    for line in struck {
        painter.line_segment(line, Stroke::new(1.3, INK));
    }
}

fn scale_bar_rect(canvas: Rect) -> Rect {
    Rect::from_min_size(canvas.right_bottom() - vec2(170.0, 44.0), vec2(160.0, 34.0))
}

fn paint_scale_bar(painter: &Painter, proj: Projection, rect: Rect) {
    let Some(km) = [5.0f32, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0].into_iter().rev().find(|km| km * proj.zoom <= rect.width() - 20.0) else {
        return;
    };
    let len = km * proj.zoom;
    let left = pos2(rect.right() - 10.0 - len, rect.bottom() - 8.0);
    let right = left + vec2(len, 0.0);
    let stroke = Stroke::new(2.0, INK);
    painter.line_segment([left, right], stroke);
    for x in [left.x, (left.x + right.x) / 2.0, right.x] {
        painter.line_segment([pos2(x, left.y - 5.0), pos2(x, left.y)], stroke);
    }
    halo_text(
        painter,
        pos2((left.x + right.x) / 2.0, left.y - 7.0),
        Align2::CENTER_BOTTOM,
        &format!("{km} km"),
        FontId::proportional(12.0),
        INK,
    );
}

// ---------------------------------------------------------------------------------------
// The battlefield diagram.

fn edge_point(rect: Rect, edge: Edge, along: f32) -> Pos2 {
    match edge {
        Edge::North => pos2(rect.left() + rect.width() * along, rect.top()),
        Edge::South => pos2(rect.left() + rect.width() * along, rect.bottom()),
        Edge::West => pos2(rect.left(), rect.top() + rect.height() * along),
        Edge::East => pos2(rect.right(), rect.top() + rect.height() * along),
    }
}

fn feature_colour(kind: FeatureKind) -> Color32 {
    match kind {
        FeatureKind::Hill => Color32::from_rgb(0xd2, 0xb4, 0x82),
        FeatureKind::SteepHill => Color32::from_rgb(0xa8, 0x7f, 0x55),
        FeatureKind::Wood => Color32::from_rgb(0x7e, 0xa8, 0x6a),
        FeatureKind::Marsh => Color32::from_rgb(0x9c, 0xc2, 0xb4),
        FeatureKind::Rough => Color32::from_rgb(0xb9, 0xb1, 0xa3),
        FeatureKind::OliveGroves => Color32::from_rgb(0xa9, 0xb2, 0x6a),
    }
}

fn feature_letter(kind: FeatureKind) -> &'static str {
    match kind {
        FeatureKind::Hill => "H",
        FeatureKind::SteepHill => "SH",
        FeatureKind::Wood => "W",
        FeatureKind::Marsh => "M",
        FeatureKind::Rough => "R",
        FeatureKind::OliveGroves => "O",
    }
}

/// A plan of the node's 8′×8′ table: 3×3 areas, sea edges, terrain, rivers with fords,
/// the settlement and the roads toward each neighbour.
pub(crate) fn paint_battlefield(painter: &Painter, rect: Rect, map: &Map, b: &Battlefield) {
    painter.rect_filled(rect, 2.0, Color32::from_rgb(0xee, 0xe8, 0xd2));
    let cell = rect.width() / 3.0;
    let cell_rect = |area: referee_campaign::magna_graecia::map::Area| {
        let (col, row) = area.cell();
        Rect::from_min_size(rect.min + vec2(f32::from(col) * cell, f32::from(row) * cell), Vec2::splat(cell))
    };
    let band = cell * 0.28;
    for e in &b.coast {
        let sea = match e {
            Edge::North => Rect::from_min_max(rect.min, pos2(rect.right(), rect.top() + band)),
            Edge::South => Rect::from_min_max(pos2(rect.left(), rect.bottom() - band), rect.max),
            Edge::West => Rect::from_min_max(rect.min, pos2(rect.left() + band, rect.bottom())),
            Edge::East => Rect::from_min_max(pos2(rect.right() - band, rect.top()), rect.max),
        };
        painter.rect_filled(sea, 0.0, SHALLOWS);
    }
    let grid = Stroke::new(0.6, Color32::from_black_alpha(40));
    for k in 1..3 {
        let d = k as f32 * cell;
        painter.line_segment([pos2(rect.left() + d, rect.top()), pos2(rect.left() + d, rect.bottom())], grid);
        painter.line_segment([pos2(rect.left(), rect.top() + d), pos2(rect.right(), rect.top() + d)], grid);
    }
    for f in &b.features {
        let c = cell_rect(f.area);
        let k = match f.size {
            Size::Small => 0.45,
            Size::Medium => 0.65,
            Size::Large => 0.9,
        };
        let radius = vec2(c.width(), c.height() * 0.75) * k / 2.0;
        painter.add(Shape::ellipse_filled(c.center(), radius, feature_colour(f.kind)));
        painter.add(Shape::ellipse_stroke(c.center(), radius, Stroke::new(0.8, Color32::from_black_alpha(90))));
        painter.text(c.center(), Align2::CENTER_CENTER, feature_letter(f.kind), FontId::proportional(10.0), INK);
    }
    let centre = rect.center();
    for river in &b.rivers {
        let start = edge_point(rect, river.from, 0.5);
        let end = match river.to {
            RiverEnd::Edge(e) => edge_point(rect, e, 0.5),
            RiverEnd::Sea => b.coast.iter().next().map_or(centre, |e| edge_point(rect, *e, 0.5)),
        };
        let mid = centre + (start - centre) * 0.15 + (end - centre) * 0.15;
        painter.add(Shape::line(vec![start, mid, end], Stroke::new(3.0, Color32::from_rgb(0x4a, 0x8f, 0xc4))));
        for i in 0..river.fords {
            let t = (f32::from(i) + 1.0) / (f32::from(river.fords) + 1.0);
            let (a, bb) = if t < 0.5 { (start, mid) } else { (mid, end) };
            let local = if t < 0.5 { t * 2.0 } else { t * 2.0 - 1.0 };
            let p = a + (bb - a) * local;
            let dir = (bb - a).normalized();
            let across = vec2(-dir.y, dir.x) * 5.0;
            painter.line_segment([p - across, p + across], Stroke::new(3.0, Color32::from_rgb(0xc8, 0xa8, 0x6e)));
        }
    }
    let hub = b.settlement.as_ref().map_or(centre, |s| cell_rect(s.area).center());
    let mut per_edge: BTreeMap<Edge, Vec<NodeId>> = BTreeMap::new();
    for (to, edge) in &b.roads {
        per_edge.entry(*edge).or_default().push(*to);
    }
    for (edge, tos) in &per_edge {
        for (k, to) in tos.iter().enumerate() {
            let along = (k as f32 + 1.0) / (tos.len() as f32 + 1.0);
            let end = edge_point(rect, *edge, along);
            painter.add(Shape::dashed_line(&[hub, end], Stroke::new(2.0, Color32::from_rgb(0x8a, 0x5a, 0x2b)), 5.0, 3.0));
            // Beside the road where it meets the edge, so the name does not hide the road.
            let (anchor, nudge) = match edge {
                Edge::North => (Align2::LEFT_TOP, vec2(3.0, 2.0)),
                Edge::South => (Align2::LEFT_BOTTOM, vec2(3.0, -2.0)),
                Edge::West => (Align2::LEFT_BOTTOM, vec2(3.0, -2.0)),
                Edge::East => (Align2::RIGHT_BOTTOM, vec2(-3.0, -2.0)),
            };
            halo_text(painter, end + nudge, anchor, &map.name(*to), FontId::proportional(10.0), INK);
        }
    }
    if let Some(s) = &b.settlement {
        let c = cell_rect(s.area).center();
        match s.kind {
            SettlementKind::City => {
                let r = Rect::from_center_size(c, Vec2::splat(cell * 0.42));
                painter.rect(r, 1.0, Color32::from_rgb(0xd8, 0xd2, 0xc4), Stroke::new(2.5, OUTLINE), StrokeKind::Middle);
            }
            SettlementKind::Town => {
                let r = Rect::from_center_size(c, Vec2::splat(cell * 0.3));
                painter.rect(r, 1.0, Color32::from_rgb(0xd8, 0xd2, 0xc4), Stroke::new(1.0, OUTLINE), StrokeKind::Middle);
            }
            SettlementKind::Village => {
                for d in [vec2(-5.0, -3.0), vec2(4.0, -4.0), vec2(0.0, 4.0)] {
                    painter.rect(
                        Rect::from_center_size(c + d, Vec2::splat(5.0)),
                        0.0,
                        Color32::from_rgb(0xd8, 0xd2, 0xc4),
                        Stroke::new(1.0, OUTLINE),
                        StrokeKind::Middle,
                    );
                }
            }
        }
    }
    painter.rect_stroke(rect, 2.0, Stroke::new(1.2, OUTLINE), StrokeKind::Inside);
}

/// Draws `orders` as planned over the map drawn last in `canvas`: deployments, marches and
/// retreats in dashes from where each counter stands in `from` (or where an earlier order
/// of the list takes it), never as done.
pub(crate) fn planned_ui(
    painter: &Painter,
    canvas: Rect,
    map: &Map,
    state: &MapState,
    mut from: BTreeMap<String, NodeId>,
    orders: &[(u32, Order)],
) {
    use crate::gui::widgets::planned::ghost;
    let at = |n: NodeId| map.node(n).map(|node| state.screen_pos(canvas, node.x_km, node.y_km));
    for (position, order) in orders {
        match order {
            Order::Deploy { counter, node, .. } => {
                ghost(painter, &at(*node).into_iter().collect::<Vec<_>>(), *position);
                from.insert(counter.clone(), *node);
            }
            Order::Move { counter, path, .. } | Order::Retreat { counter, path, .. } => {
                let start = from.get(counter).copied();
                let points: Vec<Pos2> = start.into_iter().chain(path.iter().copied()).filter_map(at).collect();
                ghost(painter, &points, *position);
                if let Some(&last) = path.last() {
                    from.insert(counter.clone(), last);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(points: &[(f32, f32)], tris: &[[usize; 3]]) -> (f32, f32) {
        let poly: f32 = (0..points.len())
            .map(|i| {
                let (a, b) = (points[i], points[(i + 1) % points.len()]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum::<f32>()
            .abs()
            / 2.0;
        let sum: f32 = tris
            .iter()
            .map(|[a, b, c]| {
                let (a, b, c) = (points[*a], points[*b], points[*c]);
                ((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)).abs() / 2.0
            })
            .sum();
        (poly, sum)
    }

    #[test]
    fn concave_outlines_are_filled_exactly() {
        let l_shape = [(0.0, 0.0), (4.0, 0.0), (4.0, 1.0), (1.0, 1.0), (1.0, 3.0), (0.0, 3.0)];
        let tris = triangulate(&l_shape);
        assert_eq!(tris.len(), 4);
        let (poly, sum) = area(&l_shape, &tris);
        assert!((poly - sum).abs() < 1e-4, "{poly} vs {sum}");

        let map = referee_campaign::magna_graecia::catalog::Catalog::embedded().map("sicily").cloned().unwrap();
        let tris = triangulate(&map.outline);
        assert_eq!(tris.len(), map.outline.len() - 2);
        let (poly, sum) = area(&map.outline, &tris);
        assert!((poly - sum).abs() < poly * 1e-4, "{poly} vs {sum}");
    }

    /// zoomed out, nodes closer than a marker's box (Motya and Lilybaeum) are drawn
    /// apart far enough that markers and badges do not overlap; zoomed in, every node is
    /// where the map puts it.
    #[test]
    fn x_03_close_nodes_are_drawn_apart_and_far_ones_stay() {
        let map = referee_campaign::magna_graecia::catalog::Catalog::embedded().map("sicily").cloned().unwrap();
        let (motya, lilybaeum) = (NodeId(0), NodeId(1));
        let gap = 2.0 * marker_radius(2.0) + 20.0;
        let out = Projection { origin: pos2(0.0, 0.0), zoom: 2.0 };
        let true_distance = out
            .pos(map.nodes[&motya].x_km, map.nodes[&motya].y_km)
            .distance(out.pos(map.nodes[&lilybaeum].x_km, map.nodes[&lilybaeum].y_km));
        assert!(true_distance < gap, "the test needs Motya and Lilybaeum to collide zoomed out");
        let drawn = spread(&map, out, gap);
        for (i, a) in drawn.values().enumerate() {
            for b in drawn.values().skip(i + 1) {
                assert!(a.distance(*b) >= gap - 0.5, "two nodes still overlap: {a:?} {b:?}");
            }
        }
        let near = Projection { origin: pos2(0.0, 0.0), zoom: 40.0 };
        let drawn = spread(&map, near, 2.0 * marker_radius(40.0) + 20.0);
        for n in map.nodes.values() {
            assert_eq!(drawn[&n.id], near.pos(n.x_km, n.y_km), "{} moved though nothing crowds it", n.name);
        }
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer() {
        let map = referee_campaign::magna_graecia::catalog::Catalog::embedded().map("sicily").cloned().unwrap();
        let canvas = Rect::from_min_size(pos2(100.0, 50.0), vec2(900.0, 600.0));
        let mut state = MapState::default();
        state.fit(canvas, &map);
        let pointer = pos2(400.0, 300.0);
        let before = (pointer - state.projection(canvas).origin) / state.view.zoom;
        state.view.zoom_around(pointer, canvas, 1.7);
        let after = (pointer - state.projection(canvas).origin) / state.view.zoom;
        assert!((before - after).length() < 1e-3);
        // The whole island fits in the canvas after a fit.
        state.fit(canvas, &map);
        let proj = state.projection(canvas);
        assert!(map.outline.iter().all(|&(x, y)| canvas.contains(proj.pos(x, y))));
    }
}
