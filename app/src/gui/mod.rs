//! The desktop app: a campaign picker, the campaign map with its counters and battles, the
//! selected node's details (where counters are deployed during setup and moved during
//! play), the turn's phase with its "End phase" button, the log with a dice form, and the
//! roster editor of setup.
//!
//! [`RefereeApp`] holds everything and draws into any `egui::Ui`, so tests drive it in an
//! egui_kittest harness without a window; [`run`] puts it in an eframe window. Panels draw
//! from the viewer's [`referee_campaign::magna_graecia::view::View`] and only queue [`AppCommand`]s, which the app
//! applies once per frame.
//!
//! The code stands in four parts. `shell/` holds what every campaign has, of either engine:
//! the app with its commands, the bar, the picker, the hand-over, the log and the Dice,
//! Charts and Turn reports windows. `magna_graecia/` and `belisarius/` each hold one
//! engine's desk with everything it draws and the commands only it takes. `widgets/` holds
//! what both use. The shell asks a desk only what the trait in `engine.rs` lets it ask;
//! `desk.rs` alone knows both desks, to open, start and preview a campaign of either and to
//! hand a desk its engine's commands.

pub(crate) mod belisarius;
mod desk;
mod engine;
mod inspect;
mod magna_graecia;
pub(crate) mod player;
mod shell;
mod widgets;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::anyhow;
use referee_campaign::magna_graecia::catalog::Catalog;
use referee_data::DataSource;

pub use belisarius::command::BelisariusCommand;
pub use inspect::drawn_texts;
pub use magna_graecia::command::{CounterRef, Dialog, MagnaGraeciaCommand};
pub use player::PlayerApp;
pub use shell::app::RefereeApp;
pub use shell::command::{AppCommand, DeskCommand, Message};
pub use widgets::labels::{MapLayout, overlap};
pub use widgets::packs::{DbsaScaling, PackSettings, WrittenFile};

/// How the window is started; filled from the command line by `main`.
#[derive(Debug, Clone, Default)]
pub struct GuiOptions {
    /// The database file.
    pub db: PathBuf,
    /// Campaign (name or id) to open at once, instead of the picker.
    pub open: Option<String>,
    /// `umpire` or a side id: the view to start in.
    pub view_as: Option<String>,
    /// Close by itself after this many frames (for the smoke test in CI).
    pub smoke_frames: Option<u32>,
    /// Save a screenshot of the window here just before closing (with `smoke_frames`).
    pub screenshot: Option<PathBuf>,
    /// A window to open over the desk for the smoke test's screenshot: `charts`, `reports`,
    /// `dice`, or the first battle due's `result` form or `pack` window.
    pub smoke_window: Option<String>,
    /// With `smoke_frames`: an empty window of the app's size instead of the app, to measure
    /// the app's start-up against.
    pub smoke_empty: bool,
    /// Where maps and scenarios are read from.
    pub data: DataSource,
}

/// How the player's desk is started: `referee --packet FILE`.
#[derive(Debug, Clone, Default)]
pub struct PlayerOptions {
    /// The side's packet.
    pub packet: PathBuf,
    /// Close by itself after this many frames (for the smoke test).
    pub smoke_frames: Option<u32>,
    /// Save a screenshot here just before closing (with `smoke_frames`).
    pub screenshot: Option<PathBuf>,
}

/// Opens the player's desk on a side's packet and runs it until the player closes it.
pub fn run_player(options: PlayerOptions) -> anyhow::Result<()> {
    // A packet that is not one is refused before any window opens.
    let app = PlayerApp::open(&options.packet)?;
    if !has_display() {
        anyhow::bail!(
            "cannot open a window: no display found (DISPLAY/WAYLAND_DISPLAY unset); the player's command line still works, see `referee --packet FILE --help`"
        );
    }
    let smoke = options.smoke_frames.map(|frames| Smoke::new(frames, options.screenshot));
    let outcome = smoke.as_ref().map(|s| Arc::clone(&s.outcome));
    eframe::run_native(
        "referee",
        native_options(),
        Box::new(move |cc| {
            let mut app = app;
            app.prepare_context(&cc.egui_ctx);
            Ok(Box::new(PlayerWindow { app, smoke }))
        }),
    )
    .map_err(|e| anyhow!("cannot open a window: {e}"))?;
    Smoke::result(outcome.as_deref())
}

/// The eframe side of the player's desk.
struct PlayerWindow {
    app: PlayerApp,
    smoke: Option<Smoke>,
}

impl eframe::App for PlayerWindow {
    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        widgets::backdrop::clear_colour()
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        keep_textures_small(raw_input);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.ui(ui);
        if let Some(smoke) = &mut self.smoke
            && smoke.step(ui.ctx())
        {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// Opens the window and runs it until the referee closes it (or the smoke test ends).
pub fn run(options: GuiOptions) -> anyhow::Result<()> {
    if !has_display() {
        anyhow::bail!(
            "cannot open a window: no display found (DISPLAY/WAYLAND_DISPLAY unset); the command line still works, see `referee --help`"
        );
    }
    let GuiOptions { db, open, view_as, smoke_frames, screenshot, smoke_window, smoke_empty, data } = options;
    if smoke_empty {
        let smoke = Smoke::new(smoke_frames.unwrap_or(3), screenshot);
        let outcome = Arc::clone(&smoke.outcome);
        eframe::run_native("referee", native_options(), Box::new(move |_| Ok(Box::new(Empty { smoke }))))
            .map_err(|e| anyhow!("cannot open a window: {e}"))?;
        return Smoke::result(Some(&outcome));
    }
    // The data, the database and the campaign are read while the window and its drawing
    // surface are made, on another thread: the window shows them the sooner.
    let load = move || -> anyhow::Result<RefereeApp> {
        let catalog = Catalog::load(&data).map_err(|e| anyhow!("{e}"))?;
        // A referee's folder made for Magna Graecia alone has no Belisarius files.
        let world = if data.has(referee_data::BELISARIUS) {
            Some(referee_campaign::belisarius::World::load(&data).map_err(|e| anyhow!("{e}"))?)
        } else {
            None
        };
        let mut app = RefereeApp::open_db(&db, catalog, world, open.as_deref(), view_as.as_deref())?.with_data(data);
        // Without a campaign asked for, the window opens on the one on screen last time.
        if open.is_none() {
            app = app.open_last_used();
        }
        // The smoke test leaves the referee's list of recent files alone.
        if smoke_frames.is_none()
            && let Some(list) = crate::recent_list_path()
        {
            app = app.with_recent_file(list);
        }
        // The smoke test must show the campaign it was asked for, not a picker with an error.
        if let (Some(key), Some(_)) = (&open, smoke_frames)
            && app.campaign_name().is_none()
        {
            let why = app.message().map_or_else(|| format!("campaign `{key}` did not open"), |m| m.text.clone());
            anyhow::bail!("{why}");
        }
        match smoke_window.as_deref() {
            Some("charts") => app.send(AppCommand::ShowCharts(true)),
            Some("reports") => app.send(AppCommand::ShowReports(true)),
            Some("dice") => app.send(AppCommand::ShowDice(true)),
            Some("mail") => app.send(AppCommand::ShowMail(true)),
            Some("past-pack") => app.send(AppCommand::ShowPastPacks(true)),
            Some(which @ ("result" | "pack")) => {
                if let Some(referee_campaign::magna_graecia::view::View::Umpire(v)) = app.view()
                    && let Some(b) = v.board.battles.first()
                {
                    let dialog = if which == "result" { Dialog::BattleResult(b.id) } else { Dialog::BattlePack(Some(b.id)) };
                    app.send(AppCommand::from(MagnaGraeciaCommand::OpenDialog(Some(dialog))));
                }
            }
            _ => {}
        }
        Ok(app)
    };
    // The thread starts when the window is asked for, once the event loop is made, and not
    // before: while it is made, X's input method reads its table of compose keys a
    // character at a time, and from a process's second thread on, the C library locks the
    // file for every character. Started first, the thread made that read twenty times
    // slower (10 ms against 0.5 ms, measured).
    let loading = Arc::new(Mutex::new(Loading::NotYet(Box::new(load))));
    let start = Arc::clone(&loading);
    let mut options = native_options();
    options.window_builder = Some(Box::new(move |builder| {
        if let Ok(mut loading) = start.lock() {
            loading.start();
        }
        builder
    }));
    let smoke = smoke_frames.map(|frames| Smoke::new(frames, screenshot));
    let refused: Arc<Mutex<Option<anyhow::Error>>> = Arc::new(Mutex::new(None));
    let why_not = Arc::clone(&refused);
    let outcome = smoke.as_ref().map(|s| Arc::clone(&s.outcome));
    let shown = eframe::run_native(
        "referee",
        options,
        Box::new(move |cc| {
            let loaded = match loading.lock() {
                Ok(mut loading) => loading.finish(),
                Err(_) => Err(anyhow!("reading the campaign stopped unexpectedly")),
            };
            match loaded {
                Ok(mut app) => {
                    app.prepare_context(&cc.egui_ctx);
                    Ok(Box::new(Window { app, smoke }))
                }
                Err(e) => {
                    // Said as it is, not as a window's failure.
                    let said = e.to_string();
                    if let Ok(mut slot) = refused.lock() {
                        *slot = Some(e);
                    }
                    Err(said.into())
                }
            }
        }),
    );
    if let Some(e) = why_not.lock().ok().and_then(|mut e| e.take()) {
        return Err(e);
    }
    shown.map_err(|e| anyhow!("cannot open a window: {e}"))?;
    Smoke::result(outcome.as_deref())
}

/// What the window shows, read for it: not yet begun, or being read on its own thread.
enum Loading<T> {
    NotYet(Box<dyn FnOnce() -> anyhow::Result<T> + Send>),
    Started(std::thread::JoinHandle<anyhow::Result<T>>),
    Taken,
}

impl<T: Send + 'static> Loading<T> {
    /// Starts reading on another thread, if not begun yet; where no thread can be made, it is
    /// left to be read when it is needed.
    fn start(&mut self) {
        if matches!(self, Loading::NotYet(_))
            && let Loading::NotYet(load) = std::mem::replace(self, Loading::Taken)
        {
            // The reading is shared with the thread, so that it can be taken back if the
            // thread is never made.
            let shared = Arc::new(Mutex::new(Some(load)));
            let theirs = Arc::clone(&shared);
            let made = std::thread::Builder::new().name("reading the campaign".to_owned()).spawn(move || {
                match theirs.lock().ok().and_then(|mut load| load.take()) {
                    Some(load) => load(),
                    None => Err(anyhow!("reading the campaign stopped unexpectedly")),
                }
            });
            *self = match made {
                Ok(thread) => Loading::Started(thread),
                Err(_) => match shared.lock().ok().and_then(|mut load| load.take()) {
                    Some(load) => Loading::NotYet(load),
                    None => Loading::Taken,
                },
            };
        }
    }

    /// What was read, waited for; read here and now if it was never started.
    fn finish(&mut self) -> anyhow::Result<T> {
        match std::mem::replace(self, Loading::Taken) {
            Loading::NotYet(load) => load(),
            Loading::Started(thread) => thread.join().unwrap_or_else(|_| Err(anyhow!("reading the campaign stopped unexpectedly"))),
            Loading::Taken => Err(anyhow!("the campaign was read once already")),
        }
    }
}

/// The window's size and names, the same for the app and for the empty window its start-up
/// is measured against.
fn native_options() -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("referee")
            .with_app_id("referee")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([720.0, 480.0]),
        // Nothing is drawn in gradients, where dithering would help; without it each pixel
        // costs less, which a machine drawing without a graphics card feels.
        dithering: false,
        ..eframe::NativeOptions::default()
    }
}

/// The widest texture the window asks egui for. egui makes its font texture as wide as the
/// drawing surface allows, which is 16,384 pixels without a graphics card, sends it whole
/// each time it grows, and the halos of the maps' names read it back whole. At 2,048, egui's
/// own default and the size every test draws at, the same glyphs fill a few more rows of a
/// texture an eighth as wide.
const TEXTURE_SIDE: usize = 2048;

/// Asks for textures no wider than [`TEXTURE_SIDE`], nor than the drawing surface allows.
/// The surface's limit comes with the first frame's input only; later frames say none and
/// egui keeps the limit it has, so they are left saying none.
fn keep_textures_small(raw_input: &mut egui::RawInput) {
    raw_input.max_texture_side = raw_input.max_texture_side.map(|side| side.min(TEXTURE_SIDE));
}

/// An empty window, counting its frames like the smoke test: the floor of the start-up.
struct Empty {
    smoke: Smoke,
}

impl eframe::App for Empty {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |_| {});
        if self.smoke.step(ui.ctx()) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// Whether a window can be opened. On Linux and the BSDs a missing display makes winit fail
/// with a message that does not say what to do.
fn has_display() -> bool {
    if cfg!(all(unix, not(target_os = "macos"), not(target_os = "ios"), not(target_os = "android"))) {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        set("DISPLAY") || set("WAYLAND_DISPLAY")
    } else {
        true
    }
}

/// The smoke test: count frames, then screenshot and close.
#[derive(Debug)]
struct Smoke {
    frame: u32,
    at: u32,
    screenshot: Option<PathBuf>,
    requested: bool,
    /// Filled when the smoke test is over: whether the screenshot was written.
    outcome: Arc<Mutex<Option<Result<(), String>>>>,
}

/// Frames to wait for a requested screenshot before giving up.
const SCREENSHOT_PATIENCE: u32 = 300;

impl Smoke {
    fn new(frames: u32, screenshot: Option<PathBuf>) -> Self {
        Smoke { frame: 0, at: frames.max(1), screenshot, requested: false, outcome: Arc::new(Mutex::new(None)) }
    }

    /// What a finished smoke test says: an error if its screenshot was not written.
    fn result(outcome: Option<&Mutex<Option<Result<(), String>>>>) -> anyhow::Result<()> {
        match outcome.and_then(|o| o.lock().ok().and_then(|mut o| o.take())) {
            Some(Err(e)) => Err(anyhow!(e)),
            _ => Ok(()),
        }
    }

    fn finish(&self, result: Result<(), String>) {
        if let Ok(mut o) = self.outcome.lock() {
            o.get_or_insert(result);
        }
    }

    /// Draws one more frame; `true` once the smoke test is over and the window is to close.
    /// Frames are counted as painted: a pass egui discards and lays out again (a first sizing
    /// pass) is the same frame, or a window that needs one would close a frame early.
    fn step(&mut self, ctx: &egui::Context) -> bool {
        self.frame = u32::try_from(ctx.cumulative_frame_nr()).map_or(u32::MAX, |n| n.saturating_add(1));
        ctx.request_repaint();
        if self.frame >= self.at && !self.requested {
            self.requested = true;
            match &self.screenshot {
                Some(path) => {
                    let (path, outcome, ctx2) = (path.clone(), Arc::clone(&self.outcome), ctx.clone());
                    ctx.request_screenshot(move |image| {
                        let saved = widgets::png::save_color_image(&path, &image)
                            .map_err(|e| format!("cannot write the screenshot {}: {e}", path.display()));
                        if let Ok(mut o) = outcome.lock() {
                            o.get_or_insert(saved);
                        }
                        ctx2.request_repaint();
                    });
                }
                None => self.finish(Ok(())),
            }
        }
        if self.requested && self.frame > self.at + SCREENSHOT_PATIENCE {
            self.finish(Err(format!("no screenshot arrived within {SCREENSHOT_PATIENCE} frames")));
        }
        self.outcome.lock().is_ok_and(|o| o.is_some())
    }
}

/// The eframe side of the app: commands are applied in `logic`, drawing happens in `ui`.
struct Window {
    app: RefereeApp,
    smoke: Option<Smoke>,
}

impl eframe::App for Window {
    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        widgets::backdrop::clear_colour()
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        keep_textures_small(raw_input);
    }

    fn logic(&mut self, _ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.app.apply_commands();
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.ui(ui);
        if self.app.has_pending_commands() {
            ui.ctx().request_repaint();
        }
        // The smoke test closes the window itself, in a side's view too, where a close
        // would otherwise wait for the referee.
        if let Some(smoke) = &mut self.smoke
            && smoke.step(ui.ctx())
        {
            // At once, as the empty window of `--smoke-empty` closes.
            self.app.close_now();
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_asks_for_textures_no_wider_than_the_tests_draw_with() {
        let asked = |side: Option<usize>| {
            let mut raw_input = egui::RawInput { max_texture_side: side, ..Default::default() };
            keep_textures_small(&mut raw_input);
            raw_input.max_texture_side
        };
        // Drawing without a graphics card allows 16,384.
        assert_eq!(asked(Some(16_384)), Some(2048));
        // A surface that allows less keeps its own limit.
        assert_eq!(asked(Some(1024)), Some(1024));
        // A frame that says nothing of it keeps the limit egui has, which was already kept
        // small: a smaller surface's limit is never raised by a later frame.
        assert_eq!(asked(None), None);
        let ctx = egui::Context::default();
        for side in [Some(1024), None] {
            let mut raw_input = egui::RawInput { max_texture_side: side, ..Default::default() };
            keep_textures_small(&mut raw_input);
            ctx.run_ui(raw_input, |_| {}).textures_delta.clear();
        }
        assert_eq!(ctx.input(|i| i.max_texture_side), 1024);
        // The tests' own contexts draw at the same size.
        assert_eq!(egui::Context::default().input(|i| i.max_texture_side), TEXTURE_SIDE);
    }

    #[test]
    fn the_campaign_is_read_on_its_own_thread_once_the_window_is_asked_for() {
        let here = std::thread::current().id();
        let mut loading: Loading<std::thread::ThreadId> = Loading::NotYet(Box::new(|| Ok(std::thread::current().id())));
        loading.start();
        loading.start();
        assert_ne!(loading.finish().unwrap(), here, "read on another thread");
        assert!(loading.finish().is_err(), "read once");
        // Where the window never asked (no window was built), it is read when it is needed.
        let mut loading: Loading<std::thread::ThreadId> = Loading::NotYet(Box::new(|| Ok(std::thread::current().id())));
        assert_eq!(loading.finish().unwrap(), here);
        let mut failing: Loading<u8> = Loading::NotYet(Box::new(|| Err(anyhow!("no such campaign"))));
        failing.start();
        assert_eq!(failing.finish().unwrap_err().to_string(), "no such campaign");
    }
}
