//! What the app's window tests share: the harness that draws the app as its window would,
//! and the questions and steps every test file asks of it. Each test file uses only some of
//! them, hence the allowance for the rest.
#![allow(dead_code)]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use referee::gui::RefereeApp;

/// The app in a window of the size the referee's screen is tested at, one whole frame a run.
pub fn harness(app: RefereeApp) -> Harness<'static, RefereeApp> {
    harness_sized(app, SCREENS[0])
}

/// The app in a window of `size`: the two sizes a referee's screen is tried at are 1280×800
/// and 1600×1000.
pub fn harness_sized(app: RefereeApp, size: egui::Vec2) -> Harness<'static, RefereeApp> {
    Harness::builder().with_size(size).build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app)
}

/// The two window sizes the maps are tried at.
pub const SCREENS: [egui::Vec2; 2] = [egui::vec2(1280.0, 800.0), egui::vec2(1600.0, 1000.0)];

/// Whether any widget's label holds `text`.
pub fn label_exists(h: &Harness<'_, RefereeApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// The referee takes the screen back when a side's view was left on screen by the last
/// window (the hand-over is kept in the file); what was asked for then follows.
pub fn take_back(h: &mut Harness<'static, RefereeApp>) {
    if h.state().asking_for_referee() {
        h.get_by_label("I am the referee: show the umpire's view").click();
        h.run();
    }
}

/// Names on the map of the last frame: no name over another name, over a place, a piece or a
/// counter, and no row of pieces over another; every name inside the map; and every string
/// drawn on the map stands inside a name or a mark the layout laid, so nothing was printed
/// past it. `at` says which moment failed.
pub fn assert_map_names_clear(h: &Harness<'_, RefereeApp>, at: &str) {
    use referee::gui::overlap;
    let layout = h.state().map_layout().unwrap_or_else(|| panic!("{at}: no map on screen"));
    assert!(layout.names.len() >= 10, "{at}: only {} names on the map: {:?}", layout.names.len(), layout.names);
    for (i, (a, text)) in layout.names.iter().enumerate() {
        assert!(layout.bounds.contains_rect(*a), "{at}: “{text}” runs off the map");
        for (b, other) in &layout.names[i + 1..] {
            assert!(!overlap(*a, *b), "{at}: “{text}” at {a:?} overprints “{other}” at {b:?}");
        }
        for m in &layout.marks {
            assert!(!overlap(*a, *m), "{at}: “{text}” at {a:?} overprints a mark at {m:?}");
        }
    }
    for (i, a) in layout.rows.iter().enumerate() {
        for b in &layout.rows[i + 1..] {
            assert!(!overlap(*a, *b), "{at}: a row of pieces at {a:?} hides another at {b:?}");
        }
    }
    fn walk(shape: &egui::Shape, out: &mut Vec<(egui::Rect, String)>) {
        match shape {
            egui::Shape::Text(t) => out.push((t.galley.rect.translate(t.pos.to_vec2()), t.galley.text().to_owned())),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut drawn = Vec::new();
    // The map's painter clips to the map: windows over it and tooltips clip to their own.
    let on_map = |clip: egui::Rect| (clip.min - layout.bounds.min).length() < 0.5 && (clip.max - layout.bounds.max).length() < 0.5;
    for s in h.output().shapes.iter().filter(|s| on_map(s.clip_rect)) {
        walk(&s.shape, &mut drawn);
    }
    assert!(drawn.len() >= layout.names.len(), "{at}: {} strings drawn on the map", drawn.len());
    let laid = layout.names.iter().map(|(r, _)| *r).chain(layout.marks.iter().copied());
    let laid: Vec<egui::Rect> = laid.map(|r| r.expand(0.5)).collect();
    for (rect, text) in drawn {
        let visible = rect.intersect(layout.bounds);
        if text.trim().is_empty() || !visible.is_positive() {
            continue;
        }
        assert!(laid.iter().any(|r| r.contains_rect(visible)), "{at}: “{text}” at {rect:?} was drawn outside every name and mark laid");
    }
}

/// The map on screen is fitted again when the window is resized, and a double click fits it
/// without selecting what is under the pointer: `selected` says what is selected.
pub fn assert_map_refits_and_a_double_click_selects_nothing(app: RefereeApp, selected: fn(&RefereeApp) -> String) {
    use egui::{Event, Modifiers, PointerButton};
    // The harness gives its window one input event a frame: frames a twentieth of a second
    // apart let two clicks make a double click.
    let mut h =
        Harness::builder().with_size(SCREENS[0]).with_step_dt(0.05).build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app);
    h.run();
    take_back(&mut h);
    let small = h.state().map_zoom().unwrap();
    h.set_size(SCREENS[1]);
    h.run();
    let fitted = h.state().map_zoom().unwrap();
    assert!(fitted > small * 1.1, "a larger window shows the map larger: {small} then {fitted}");

    let click = |h: &mut Harness<'static, RefereeApp>, at: egui::Pos2| {
        h.hover_at(at);
        for pressed in [true, false] {
            h.event(Event::PointerButton { pos: at, button: PointerButton::Primary, pressed, modifiers: Modifiers::NONE });
        }
        h.step();
    };
    // The first marks laid are the places: cities' squares, nodes' markers.
    let (first, second) = {
        let marks = &h.state().map_layout().unwrap().marks;
        (marks[0].center(), marks[1].center())
    };
    let nothing = selected(h.state());
    click(&mut h, first);
    h.run();
    let chosen = selected(h.state());
    assert_ne!(chosen, nothing, "a click on a place selects it");
    // Zoomed in, then a double click on another place: fitted again, nothing else selected.
    h.hover_at(second);
    h.event(Event::Zoom(2.0));
    h.run();
    assert!(h.state().map_zoom().unwrap() > fitted * 1.5);
    // A second on, so that the clicks before do not make it a triple click.
    for _ in 0..20 {
        h.step();
    }
    click(&mut h, second);
    click(&mut h, second);
    h.run();
    assert_eq!(h.state().map_zoom().unwrap(), fitted, "a double click fits the map");
    assert_eq!(selected(h.state()), chosen, "a double click selects nothing");
}
