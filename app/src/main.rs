//! `referee`: with no command, the desktop app; with one, the command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    let launch = referee::cli::run(std::env::args_os(), &mut std::io::stdout(), &mut std::io::stderr());
    match launch {
        referee::cli::Launch::Exit(code) => ExitCode::from(code),
        referee::cli::Launch::PlayerDesk(options) => match referee::gui::run_player(options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        },
        referee::cli::Launch::Gui(options) => match referee::gui::run(options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        },
    }
}
