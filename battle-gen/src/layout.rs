//! Flowing text and tables down portrait pages, with page breaks, repeated table headers and
//! a footer on every page.

use crate::pdf::{Document, Face, Ink, Page, line_height};

pub const MARGIN: f32 = 15.0;
pub const BODY: f32 = 9.5;
const HEADING: f32 = 12.5;
const TITLE: f32 = 17.0;
const TABLE_TEXT: f32 = 8.5;

/// How a table column is laid out.
#[derive(Debug, Clone, Copy)]
pub struct Column<'a> {
    pub title: &'a str,
    /// Share of the table's width.
    pub weight: f32,
    pub right: bool,
}

pub fn col(title: &str, weight: f32) -> Column<'_> {
    Column { title, weight, right: false }
}

pub fn num(title: &str, weight: f32) -> Column<'_> {
    Column { title, weight, right: true }
}

/// A cursor down a run of pages of one document.
#[derive(Debug)]
pub struct Flow<'d> {
    doc: &'d mut Document,
    page: Option<Page>,
    /// Baseline of the next line, in mm from the top.
    pub y: f32,
    footer: String,
    /// The footer of the pages after the current one, when it differs.
    next_footer: Option<String>,
}

impl<'d> Flow<'d> {
    pub fn new(doc: &'d mut Document, footer: impl Into<String>) -> Flow<'d> {
        Flow { doc, page: None, y: MARGIN, footer: footer.into(), next_footer: None }
    }

    pub fn width(&self) -> f32 {
        self.doc.paper().size_mm().0 - 2.0 * MARGIN
    }

    fn bottom(&self) -> f32 {
        self.doc.paper().size_mm().1 - MARGIN - 6.0
    }

    /// The page being written, started if need be.
    pub fn page(&mut self) -> &mut Page {
        if self.page.is_none() {
            self.page = Some(self.doc.page(false));
            self.y = MARGIN + 4.0;
        }
        self.page.as_mut().unwrap_or_else(|| unreachable!("a page was just started"))
    }

    /// Ends the current page (with its footer) so the next text starts a new one.
    pub fn break_page(&mut self) {
        if let Some(mut page) = self.page.take() {
            // The line and "page n of m" are put at the foot when the file is finished.
            page.footer = Some(self.footer.clone());
            self.doc.add(page);
            if let Some(next) = self.next_footer.take() {
                self.footer = next;
            }
        }
    }

    /// The number of the page being written, from 0 (started if need be).
    pub fn page_index(&mut self) -> usize {
        self.page();
        self.doc.page_count()
    }

    /// Room left on the current page, in mm (a whole page's before the first).
    pub fn room(&self) -> f32 {
        if self.page.is_none() { self.bottom() - MARGIN - 4.0 } else { self.bottom() - self.y }
    }

    /// A new part of the document goes on where the last one ended if at least `min` mm are
    /// left, the shared page's foot naming both (`shared`) and the pages after it the new
    /// part (`footer`); otherwise it starts a page of its own.
    pub fn continue_with(&mut self, min: f32, shared: impl Into<String>, footer: impl Into<String>) {
        if self.page.is_some() && self.room() >= min {
            self.footer = shared.into();
            self.next_footer = Some(footer.into());
            self.gap(6.0);
        } else {
            self.break_page();
            self.footer = footer.into();
        }
    }

    /// What the pages from the next one on are, at their foot (a roster after a brief).
    pub fn set_footer(&mut self, footer: impl Into<String>) {
        self.footer = footer.into();
    }

    /// Makes sure `height` mm fit below the cursor, breaking the page if not.
    pub fn need(&mut self, height: f32) {
        self.page();
        if self.y + height > self.bottom() {
            self.break_page();
            self.page();
        }
    }

    pub fn title(&mut self, title: &str, subtitle: &str) {
        self.need(20.0);
        let y = self.y + 4.0;
        let w = self.width();
        let page = self.page();
        page.text(MARGIN, y, TITLE, Face::Bold, title);
        let mut next = y + line_height(TITLE);
        if !subtitle.is_empty() {
            next = page.paragraph(MARGIN, next - 1.0, w, BODY + 1.0, Face::Regular, subtitle);
        }
        page.line(&[(MARGIN, next - 2.5), (MARGIN + w, next - 2.5)], Ink::BLACK, 0.5, None);
        self.y = next + 3.0;
    }

    pub fn heading(&mut self, text: &str) {
        self.need(16.0);
        self.y += 2.5;
        let y = self.y;
        let w = self.width();
        let page = self.page();
        page.text(MARGIN, y, HEADING, Face::Bold, text);
        page.line(&[(MARGIN, y + 1.5), (MARGIN + w, y + 1.5)], Ink(0.4), 0.25, None);
        self.y += line_height(HEADING) + 1.0;
    }

    pub fn para(&mut self, text: &str) {
        self.para_with(text, Face::Regular, 0.0);
    }

    fn para_with(&mut self, text: &str, face: Face, indent: f32) {
        let w = self.width() - indent;
        let lines = self.page().wrap(text, BODY, face, w);
        for line in lines {
            self.need(line_height(BODY));
            let y = self.y;
            self.page().text(MARGIN + indent, y, BODY, face, &line);
            self.y += line_height(BODY);
        }
        self.y += 1.0;
    }

    /// A line of fixed-width text, e.g. a digest whose every character must take the same
    /// room whatever it is.
    pub fn mono(&mut self, text: &str) {
        self.para_with(text, Face::Mono, 0.0);
    }

    /// "Label: text" with the label in bold.
    pub fn field(&mut self, label: &str, text: &str) {
        self.need(line_height(BODY));
        let y = self.y;
        let w = self.width();
        let page = self.page();
        page.text(MARGIN, y, BODY, Face::Bold, label);
        let lw = page.text_width(label, BODY, Face::Bold) + 2.0;
        let lines = page.wrap(text, BODY, Face::Regular, w - lw);
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                self.need(line_height(BODY));
            }
            let y = self.y;
            self.page().text(MARGIN + lw, y, BODY, Face::Regular, line);
            self.y += line_height(BODY);
        }
    }

    /// A line the reader must not miss: "WARNING:" and the text in bold, in a heavy frame on a
    /// light grey ground (both survive a black-and-white printer).
    pub fn warning(&mut self, text: &str) {
        let text = format!("WARNING: {text}");
        let w = self.width();
        let pad = 2.0;
        let lines = self.page().wrap(&text, BODY, Face::Bold, w - 2.0 * pad);
        let lead = line_height(BODY);
        let height = lead * f32::from(u16::try_from(lines.len()).unwrap_or(u16::MAX)) + pad;
        self.need(height + lead);
        let top = self.y - lead + 0.5;
        let page = self.page();
        page.rect(MARGIN, top, w, height, Some(Ink(0.1)), Some((Ink::BLACK, 0.8)));
        let mut y = top + lead - 0.2;
        for line in &lines {
            page.text(MARGIN + pad, y, BODY, Face::Bold, line);
            y += lead;
        }
        self.y = top + height + lead + 1.0;
    }

    pub fn bullets(&mut self, items: &[String]) {
        for item in items {
            self.need(line_height(BODY));
            let y = self.y;
            self.page().circle(MARGIN + 1.5, y - 1.1, 0.6, Some(Ink::BLACK), None);
            self.para_with(item, Face::Regular, 4.5);
        }
    }

    pub fn gap(&mut self, mm: f32) {
        self.y += mm;
    }

    /// A ruled table; rows whose first cell starts with `=` are set in bold (the `=` dropped).
    pub fn table(&mut self, columns: &[Column<'_>], rows: &[Vec<String>]) {
        let width = self.width();
        let total: f32 = columns.iter().map(|c| c.weight).sum::<f32>().max(f32::EPSILON);
        let widths: Vec<f32> = columns.iter().map(|c| width * c.weight / total).collect();
        let lead = line_height(TABLE_TEXT);
        let pad = 1.2;
        let header = |flow: &mut Flow<'_>| {
            flow.need(lead + 2.0 * pad + lead);
            let top = flow.y - lead + 0.6;
            let page = flow.page();
            page.rect(MARGIN, top, width, lead + pad, Some(Ink(0.18)), Some((Ink::BLACK, 0.3)));
            let mut x = MARGIN;
            for (c, w) in columns.iter().zip(&widths) {
                let y = top + lead - 0.4;
                if c.right {
                    page.text_right(x + w - pad, y, TABLE_TEXT, Face::Bold, c.title);
                } else {
                    page.text(x + pad, y, TABLE_TEXT, Face::Bold, c.title);
                }
                x += w;
            }
            flow.y = top + lead + pad + lead;
        };
        header(self);
        for row in rows {
            let bold = row.first().is_some_and(|c| c.starts_with('='));
            let face = if bold { Face::Bold } else { Face::Regular };
            let cells: Vec<Vec<String>> = row
                .iter()
                .zip(&widths)
                .map(|(cell, w)| {
                    let text = cell.strip_prefix('=').unwrap_or(cell);
                    self.page().wrap(text, TABLE_TEXT, face, w - 2.0 * pad)
                })
                .collect();
            let lines = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
            let height = lead * f32::from(u16::try_from(lines).unwrap_or(u16::MAX)) + pad;
            if self.y - lead + height > self.bottom() {
                self.break_page();
                header(self);
            }
            let top = self.y - lead + 0.6;
            let page = self.page();
            page.rect(MARGIN, top, width, height, if bold { Some(Ink(0.07)) } else { None }, Some((Ink(0.55), 0.15)));
            let mut x = MARGIN;
            for ((cell, w), c) in cells.iter().zip(&widths).zip(columns) {
                for (i, line) in cell.iter().enumerate() {
                    let y = top + lead * f32::from(u16::try_from(i + 1).unwrap_or(u16::MAX)) - 0.4;
                    if c.right {
                        page.text_right(x + w - pad, y, TABLE_TEXT, face, line);
                    } else {
                        page.text(x + pad, y, TABLE_TEXT, face, line);
                    }
                }
                x += w;
            }
            self.y = top + height + lead - 0.6;
        }
        self.y += 1.5;
    }

    /// Reserves `height` mm for a drawing and hands the page and the box's top-left to `draw`.
    pub fn drawing(&mut self, height: f32, draw: impl FnOnce(&mut Page, f32, f32, f32)) {
        self.need(height);
        let (y, w) = (self.y - 3.0, self.width());
        draw(self.page(), MARGIN, y, w);
        self.y += height;
    }

    /// Finishes the last page.
    pub fn finish(mut self) {
        self.break_page();
    }
}
