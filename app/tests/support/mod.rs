//! What the app's window tests share: the harness that draws the app as its window would,
//! and the questions and steps every test file asks of it. Each test file uses only some of
//! them, hence the allowance for the rest.
#![allow(dead_code)]

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use referee::gui::{AppCommand, PlayerApp, RefereeApp};
use referee_campaign::magna_graecia::MagnaGraecia;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_campaign::magna_graecia::event::Event;
use referee_campaign::magna_graecia::map::Map;
use referee_campaign::magna_graecia::order::Order;
use referee_campaign::{Campaign, DiceInput, Store};

/// A Magna Graecia campaign prepared straight through the store, dice and all, before the
/// app opens it.
pub struct Prep {
    pub store: Store,
    pub campaign: Campaign<MagnaGraecia>,
    pub map: Map,
}

impl Prep {
    /// Starts the campaign `name` of `scenario`, its dice seeded with `seed`, in the database
    /// at `path`.
    pub fn create(path: &std::path::Path, name: &str, scenario: &str, seed: u64) -> Prep {
        let mut store = Store::open(path).unwrap();
        let catalog = Catalog::embedded();
        let scenario = catalog.scenario(scenario).unwrap();
        let map = catalog.map(&scenario.map).unwrap().clone();
        let campaign = store.create_as::<MagnaGraecia>(name, scenario, seed).unwrap();
        Prep { store, campaign, map }
    }

    /// Gives `command` with `dice`; the rules must take it. What came of it.
    pub fn go(&mut self, command: &Order, dice: DiceInput) -> Vec<Event> {
        self.store.execute(&mut self.campaign, &self.map, command, dice).unwrap_or_else(|e| panic!("{command:?}: {e}"))
    }

    /// Gives each of `commands` in turn with the seeded dice.
    pub fn go_all(&mut self, commands: &[Order]) {
        for command in commands {
            self.go(command, DiceInput::Seeded);
        }
    }
}

/// The app in a window of the size the referee's screen is tested at, one whole frame a run.
pub fn harness(app: RefereeApp) -> Harness<'static, RefereeApp> {
    harness_sized(app, SCREENS[0])
}

/// The app in its window with its first frames drawn, as the referee first sees it.
pub fn opened(app: RefereeApp) -> Harness<'static, RefereeApp> {
    let mut h = harness(app);
    h.run();
    h
}

/// The app in its window, drawn, and the screen the referee's: a side's view left on screen
/// by the last window is taken back first.
pub fn opened_by_the_referee(app: RefereeApp) -> Harness<'static, RefereeApp> {
    let mut h = opened(app);
    take_back(&mut h);
    h
}

/// A player's desk in a window of the size the referee's screen is tested at, drawn.
pub fn desk_harness(app: PlayerApp) -> Harness<'static, PlayerApp> {
    let mut h = Harness::builder().with_size(SCREENS[0]).build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    h.run();
    h
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
        click(h, "I am the referee: show the umpire's view");
    }
}

/// The referee's window or a player's desk: both take the commands their buttons give.
pub trait TakesCommands {
    /// Queues `command` as a button of the window would.
    fn take(&mut self, command: AppCommand);
}

impl TakesCommands for RefereeApp {
    fn take(&mut self, command: AppCommand) {
        self.send(command);
    }
}

impl TakesCommands for PlayerApp {
    fn take(&mut self, command: AppCommand) {
        self.send(command);
    }
}

/// Gives `command` as a button or a click on the map would, and lets the window settle.
pub fn send<S: TakesCommands>(h: &mut Harness<'_, S>, command: impl Into<AppCommand>) {
    h.state_mut().take(command.into());
    h.run();
}

/// Clicks the widget labelled `label` where it stands, and lets the window settle.
pub fn click<S>(h: &mut Harness<'_, S>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// Clicks the button labelled `label`, where other widgets bear the same words (a side's
/// name beside its column, say), and lets the window settle.
pub fn click_button<S>(h: &mut Harness<'_, S>, label: &str) {
    h.get_by_role_and_label(Role::Button, label).click();
    h.run();
}

/// Clicks the one widget whose label holds `part`, and lets the window settle.
pub fn click_containing<S>(h: &mut Harness<'_, S>, part: &str) {
    h.get_by_label_contains(part).click();
    h.run();
}

/// Scrolls the widget labelled `label` into view, as a referee would, and clicks it.
pub fn click_in_view<S>(h: &mut Harness<'_, S>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    click(h, label);
}

/// Scrolls the text field labelled `label` into view and types `text` into it.
pub fn type_into<S>(h: &mut Harness<'_, S>, label: &str, text: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).focus();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Sets the number in the field labelled `label`, and lets the window settle.
pub fn set_value<S>(h: &mut Harness<'_, S>, label: &str, value: f64) {
    h.get_by_label(label).set_value_accesskit(value);
    h.run();
}

/// Rests the pointer on the widget labelled `label` until its tooltip shows.
pub fn hover<S>(h: &mut Harness<'_, S>, label: &str) {
    h.get_by_label(label).hover();
    h.run();
}

/// Picks `winner` in the battle result form's Winner box: a side, or "no result (MG-25)".
pub fn pick_winner<S>(h: &mut Harness<'_, S>, winner: &str) {
    click(h, "Winner");
    click_button(h, winner);
}

/// Presses `key` alone, and lets the window settle.
pub fn press_key<S>(h: &mut Harness<'_, S>, key: egui::Key) {
    h.key_press(key);
    h.run();
}

/// Presses `key` with `modifiers` held, a shortcut, and lets the window settle.
pub fn press_keys<S>(h: &mut Harness<'_, S>, modifiers: egui::Modifiers, key: egui::Key) {
    h.key_press_modifiers(modifiers, key);
    h.run();
}

/// Types into each field where it stands, then lets the window settle once.
pub fn fill<S>(h: &mut Harness<'_, S>, fields: &[(&str, &str)]) {
    for (label, text) in fields {
        h.get_by_label(label).focus();
        h.get_by_label(label).type_text(text);
    }
    h.run();
}

/// Replaces the whole text of the text field labelled `label` with `text`.
pub fn replace_text<S>(h: &mut Harness<'_, S>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::TextInput, label).type_text(text);
    h.run();
}

/// The referee rolls from the dice form with the players' dice typed in: `purpose` in "for",
/// `values` in "typed-in values", then "Roll".
pub fn roll_typed_in<S>(h: &mut Harness<'_, S>, purpose: &str, values: &str) {
    fill(h, &[("for", purpose), ("typed-in values", values)]);
    click_button(h, "Roll");
}

/// The widget labelled `label` is greyed out, and the pointer resting on it shows `reason`,
/// the rules' words for why; `why` and `reason_shown` say what failed, if either does not hold.
pub fn assert_greyed_out_saying_why(h: &mut Harness<'_, RefereeApp>, label: &str, why: &str, reason: &str, reason_shown: &str) {
    use egui_kittest::kittest::NodeT as _;
    assert!(h.get_by_label(label).accesskit_node().is_disabled(), "{why}");
    hover(h, label);
    assert!(label_exists(h, reason), "{reason_shown}");
}

/// No refusal in red on the referee's screen.
pub fn no_error(h: &Harness<'_, RefereeApp>) {
    assert!(h.state().message().is_none_or(|m| !m.is_error), "{:?}", h.state().message());
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
    // The map's painter clips to the map: windows over it and tooltips clip to their own.
    let on_map = |clip: egui::Rect| (clip.min - layout.bounds.min).length() < 0.5 && (clip.max - layout.bounds.max).length() < 0.5;
    let drawn = referee::gui::drawn_texts(h.output().shapes.iter().filter(|s| on_map(s.clip_rect)));
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
