//! The Play by e-mail window (X-06, umpire only): a packet for each side, written from its
//! own view, and a side's orders file read, shown and taken in.

use egui::RichText;
use referee_campaign::ids::SideId;

use crate::gui::engine::OrdersPreview;
use crate::gui::shell::command::AppCommand;

/// The Play by e-mail window's fields, and what came of them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct MailForm {
    /// Where packets are written.
    pub folder: String,
    /// The packets written last, or why not.
    pub written: Option<Result<Vec<String>, String>>,
    /// The orders file to take in.
    pub orders: String,
    /// The orders file read and checked, or why it may not be taken in.
    pub preview: Option<Result<OrdersPreview, String>>,
}

pub(crate) fn mail_window_ui(ctx: &egui::Context, form: &mut MailForm, sides: &[(SideId, String)], queue: &mut Vec<AppCommand>) {
    let mut open = true;
    egui::Window::new("Play by e-mail").open(&mut open).collapsible(false).default_width(560.0).show(ctx, |ui| {
        ui.strong("Send a side its packet");
        ui.label(
            "A packet holds what the side knows now and nothing else: its view and log, its turn report, the map, \
             the commitment to the seed. Its player opens it with `referee --packet FILE` and sends back an orders file.",
        );
        ui.horizontal(|ui| {
            let label = ui.label("Folder");
            ui.add(egui::TextEdit::singleline(&mut form.folder).desired_width(360.0)).labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            for (id, name) in sides {
                if ui.button(format!("Write {} packet", referee_campaign::core::words::possessive(name))).clicked() {
                    queue.push(AppCommand::WritePacket { side: id.clone(), folder: form.folder.clone() });
                }
            }
        });
        match &form.written {
            Some(Ok(lines)) => {
                for line in lines {
                    ui.label(line);
                }
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            None => {}
        }
        ui.separator();
        ui.strong("Take in a side's orders");
        ui.horizontal(|ui| {
            let label = ui.label("Orders file");
            ui.add(egui::TextEdit::singleline(&mut form.orders).desired_width(300.0)).labelled_by(label.id);
            if ui.button("Choose…").clicked()
                && let Some(path) = rfd::FileDialog::new().add_filter("orders", &["json"]).pick_file()
            {
                form.orders = path.display().to_string();
                queue.push(AppCommand::ReadOrders(form.orders.clone()));
            }
            if ui.add_enabled(!form.orders.trim().is_empty(), egui::Button::new("Read")).clicked() {
                queue.push(AppCommand::ReadOrders(form.orders.clone()));
            }
        });
        match &form.preview {
            Some(Ok(preview)) => {
                ui.label(RichText::new(format!("{}, turn {}:", preview.side_name, preview.file.turn)).strong());
                ui.label(RichText::new("Drawn on the map in dashes, numbered, until they are taken in.").weak());
                for (i, order) in preview.orders.iter().enumerate() {
                    ui.label(format!("{}. {order}", i + 1));
                    let position = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    for comment in preview.file.comments.iter().filter(|c| c.order == position) {
                        ui.small(format!("   comment: {}", comment.text));
                    }
                }
                match &preview.moved_on {
                    None => {
                        if ui.button("Take them in").clicked() {
                            queue.push(AppCommand::TakeInOrders { anyway: false });
                        }
                    }
                    Some(moved_on) => {
                        ui.colored_label(ui.visuals().warn_fg_color, format!("{moved_on}."));
                        if ui.button("Take them in anyway").clicked() {
                            queue.push(AppCommand::TakeInOrders { anyway: true });
                        }
                    }
                }
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            None => {}
        }
    });
    if !open {
        queue.push(AppCommand::ShowMail(false));
    }
}
