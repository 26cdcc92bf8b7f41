//! What the app's window tests share: the harness that draws the app as its window would,
//! and the questions and steps every test file asks of it. Each test file uses only some of
//! them, hence the allowance for the rest.
#![allow(dead_code)]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use referee::gui::RefereeApp;

/// The app in a window of the size the referee's screen is tested at, one whole frame a run.
pub fn harness(app: RefereeApp) -> Harness<'static, RefereeApp> {
    Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(|ui, app: &mut RefereeApp| app.frame_ui(ui), app)
}

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
