//! Flowing text and tables down portrait pages, with page breaks, repeated table headers and
//! a footer on every page.

use crate::pdf::{Document, Face, Ink, Page, line_height};

pub const MARGIN: f32 = 15.0;
pub const BODY: f32 = 9.5;
/// The size headings are set in, by which a test tells a heading read back from the page.
pub const HEADING: f32 = 12.5;
const TITLE: f32 = 17.0;
/// The size of a title's subtitle.
const SUBTITLE: f32 = BODY + 1.0;
const TABLE_TEXT: f32 = 8.5;
/// Room a table's cells keep round their text, in mm.
const TABLE_PAD: f32 = 1.2;
/// How far a bulleted item's text is set in, in mm.
const BULLET_INDENT: f32 = 4.5;
/// A paragraph of this many lines or fewer is kept whole on one page.
const SHORT_LINES: usize = 3;
/// The room a heading takes: the space above it, its line and the space below.
const HEADING_HEIGHT: f32 = 2.5 + line_height(HEADING) + 1.0;
/// The room a heading needs below the cursor to stay on its page: itself, and under it a
/// table's header and two rows (or three lines of text).
const KEEP_WITH_HEADING: f32 = HEADING_HEIGHT + 2.0 * TABLE_PAD + 3.0 * (line_height(TABLE_TEXT) + TABLE_PAD);

/// The height of `n` lines of body text.
pub fn lines_height(n: usize) -> f32 {
    line_height(BODY) * f32::from(u16::try_from(n).unwrap_or(u16::MAX))
}

/// The fewest lines of text a page of a pack holds: fewer is a stranded line or row.
pub const FEWEST_LINES: usize = 3;

/// What a club would trip over in pages read back with [`crate::pdf::text_lines`]: a page
/// whose last line above its foot is a heading or a title (what it heads is overleaf), and a
/// page of flowing text with fewer than [`FEWEST_LINES`] lines (a closing sentence or a
/// table's last row left alone). Pages drawn rather than flowed (a table, a map, a counter
/// sheet: lines in sizes no flowing text uses) are left to their own tests. Each slip is named
/// with its page and line.
pub fn stranded(pages: &[Vec<crate::pdf::ReadLine>]) -> Vec<String> {
    let near = |a: f32, b: f32| (a - b).abs() < 0.05;
    let flowing = [TITLE, SUBTITLE, HEADING, BODY, TABLE_TEXT];
    let mut out = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        // The foot's "page n of m" line is smaller than any text of the page.
        let lines: Vec<&crate::pdf::ReadLine> = page.iter().filter(|l| l.size >= TABLE_TEXT - 0.05).collect();
        if lines.is_empty() || !lines.iter().all(|l| flowing.iter().any(|&s| near(l.size, s))) {
            continue;
        }
        if let Some(last) = lines.last()
            && (near(last.size, HEADING) || near(last.size, TITLE))
        {
            out.push(format!("page {} ends with the heading \"{}\"", i + 1, last.text));
        }
        if lines.len() < FEWEST_LINES {
            let text: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
            out.push(format!("page {} holds only {}", i + 1, text.join(" / ")));
        }
    }
    out
}

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
    /// A heading not yet set: it is set with the first lines or rows of what it heads, on
    /// their page, so that it is never left at the foot of one.
    heading: Option<String>,
}

impl<'d> Flow<'d> {
    pub fn new(doc: &'d mut Document, footer: impl Into<String>) -> Flow<'d> {
        Flow { doc, page: None, y: MARGIN, footer: footer.into(), next_footer: None, heading: None }
    }

    pub fn width(&self) -> f32 {
        self.doc.paper().size_mm().0 - 2.0 * MARGIN
    }

    fn bottom(&self) -> f32 {
        self.doc.paper().size_mm().1 - MARGIN - 6.0
    }

    /// The page being written, started if need be, with a heading waiting for what it heads
    /// set first.
    pub fn page(&mut self) -> &mut Page {
        self.set_heading();
        self.sheet()
    }

    /// The page being written, started if need be.
    fn sheet(&mut self) -> &mut Page {
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
        self.sheet();
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

    /// Makes sure `height` mm fit below the cursor, and a heading waiting above them, breaking
    /// the page if not; the heading is then set.
    pub fn need(&mut self, height: f32) {
        let heading = if self.heading.is_some() { HEADING_HEIGHT } else { 0.0 };
        self.sheet();
        if self.y + heading + height > self.bottom() {
            self.break_page();
            self.sheet();
        }
        self.set_heading();
    }

    /// A title with its subtitle, kept with the first lines or rows of what follows.
    pub fn title(&mut self, title: &str, subtitle: &str) {
        let w = self.width();
        let sub = if subtitle.is_empty() { 0 } else { self.sheet().wrap(subtitle, SUBTITLE, Face::Regular, w).len() };
        let sub = line_height(SUBTITLE) * f32::from(u16::try_from(sub).unwrap_or(u16::MAX));
        self.need(4.0 + line_height(TITLE) + sub + 2.0 + KEEP_WITH_HEADING);
        let y = self.y + 4.0;
        let page = self.sheet();
        page.text(MARGIN, y, TITLE, Face::Bold, title);
        let mut next = y + line_height(TITLE);
        if !subtitle.is_empty() {
            next = page.paragraph(MARGIN, next - 1.0, w, SUBTITLE, Face::Regular, subtitle);
        }
        page.line(&[(MARGIN, next - 2.5), (MARGIN + w, next - 2.5)], Ink::BLACK, 0.5, None);
        self.y = next + 3.0;
    }

    /// A heading, kept with what follows: it goes to the next page unless the first lines or
    /// rows of what it heads fit under it — the room a table's first rows take, or more where
    /// what follows asks for more (a list whose first items go over together).
    pub fn heading(&mut self, text: &str) {
        self.need(KEEP_WITH_HEADING);
        self.heading = Some(text.to_owned());
    }

    /// Sets the heading waiting for what it heads, where the cursor stands.
    fn set_heading(&mut self) {
        let Some(text) = self.heading.take() else { return };
        self.y += 2.5;
        let y = self.y;
        let w = self.width();
        let page = self.sheet();
        page.text(MARGIN, y, HEADING, Face::Bold, &text);
        page.line(&[(MARGIN, y + 1.5), (MARGIN + w, y + 1.5)], Ink(0.4), 0.25, None);
        self.y += line_height(HEADING) + 1.0;
    }

    /// A paragraph. One that ends in a colon introduces what follows, and is kept with its
    /// first lines or rows as a heading is.
    pub fn para(&mut self, text: &str) {
        if text.trim_end().ends_with(':') {
            let lines = self.lines(text, Face::Regular, 0.0).len();
            self.need(lines_height(lines) + KEEP_WITH_HEADING - HEADING_HEIGHT);
        }
        self.para_with(text, Face::Regular, 0.0);
    }

    /// `text` wrapped to the width left after `indent`.
    fn lines(&mut self, text: &str, face: Face, indent: f32) -> Vec<String> {
        let w = self.width() - indent;
        self.sheet().wrap(text, BODY, face, w)
    }

    /// A paragraph of up to [`SHORT_LINES`] lines is never split across pages; a longer one
    /// leaves at least two lines on each side of a page break.
    fn para_with(&mut self, text: &str, face: Face, indent: f32) {
        let lines = self.lines(text, face, indent);
        let n = lines.len();
        for (i, line) in lines.into_iter().enumerate() {
            let keep = if n <= SHORT_LINES {
                if i == 0 { n } else { 1 }
            } else if i == 0 || i + 2 == n {
                2
            } else {
                1
            };
            self.need(lines_height(keep));
            let y = self.y;
            self.sheet().text(MARGIN + indent, y, BODY, face, &line);
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
        let page = self.sheet();
        page.text(MARGIN, y, BODY, Face::Bold, label);
        let lw = page.text_width(label, BODY, Face::Bold) + 2.0;
        let lines = page.wrap(text, BODY, Face::Regular, w - lw);
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                self.need(line_height(BODY));
            }
            let y = self.y;
            self.sheet().text(MARGIN + lw, y, BODY, Face::Regular, line);
            self.y += line_height(BODY);
        }
    }

    /// A line the reader must not miss: "WARNING:" and the text in bold, in a heavy frame on a
    /// light grey ground (both survive a black-and-white printer).
    pub fn warning(&mut self, text: &str) {
        let text = format!("WARNING: {text}");
        let w = self.width();
        let pad = 2.0;
        let lines = self.sheet().wrap(&text, BODY, Face::Bold, w - 2.0 * pad);
        let lead = line_height(BODY);
        let height = lead * f32::from(u16::try_from(lines.len()).unwrap_or(u16::MAX)) + pad;
        self.need(height + lead);
        let top = self.y - lead + 0.5;
        let page = self.sheet();
        page.rect(MARGIN, top, w, height, Some(Ink(0.1)), Some((Ink::BLACK, 0.8)));
        let mut y = top + lead - 0.2;
        for line in &lines {
            page.text(MARGIN + pad, y, BODY, Face::Bold, line);
            y += lead;
        }
        self.y = top + height + lead + 1.0;
    }

    /// A bulleted list whose last item is never left alone on a page: the one before it goes
    /// over with it where both do not fit.
    pub fn bullets(&mut self, items: &[String]) {
        let last_two: usize = items.iter().rev().take(2).map(|item| self.lines(item, Face::Regular, BULLET_INDENT).len()).sum();
        for (i, item) in items.iter().enumerate() {
            if items.len() >= 2 && i + 2 == items.len() {
                self.need(lines_height(last_two) + 1.0);
            }
            self.need(line_height(BODY));
            let y = self.y;
            self.sheet().circle(MARGIN + 1.5, y - 1.1, 0.6, Some(Ink::BLACK), None);
            self.para_with(item, Face::Regular, BULLET_INDENT);
        }
    }

    pub fn gap(&mut self, mm: f32) {
        self.y += mm;
    }

    /// A ruled table; rows whose first cell starts with `=` are set in bold (the `=` dropped).
    /// It starts on a new page unless its header and first two rows fit, and its last row is
    /// never alone on a page: the row before goes over with it.
    pub fn table(&mut self, columns: &[Column<'_>], rows: &[Vec<String>]) {
        self.table_then(columns, rows, 0.0);
    }

    /// [`Self::table`], followed by a closing line or two `closing` mm high that must not be
    /// left alone on a page: the table's last rows go over with it where both do not fit.
    pub fn table_then(&mut self, columns: &[Column<'_>], rows: &[Vec<String>], closing: f32) {
        let width = self.width();
        let total: f32 = columns.iter().map(|c| c.weight).sum::<f32>().max(f32::EPSILON);
        let widths: Vec<f32> = columns.iter().map(|c| width * c.weight / total).collect();
        let lead = line_height(TABLE_TEXT);
        let pad = TABLE_PAD;
        let wrapped: Vec<(bool, Vec<Vec<String>>)> = rows
            .iter()
            .map(|row| {
                let bold = row.first().is_some_and(|c| c.starts_with('='));
                let face = if bold { Face::Bold } else { Face::Regular };
                let cells = row
                    .iter()
                    .zip(&widths)
                    .map(|(cell, w)| {
                        let text = cell.strip_prefix('=').unwrap_or(cell);
                        self.sheet().wrap(text, TABLE_TEXT, face, w - 2.0 * pad)
                    })
                    .collect();
                (bold, cells)
            })
            .collect();
        let heights: Vec<f32> = wrapped
            .iter()
            .map(|(_, cells)| {
                let lines = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
                lead * f32::from(u16::try_from(lines).unwrap_or(u16::MAX)) + pad
            })
            .collect();
        // A short table goes whole onto one page; a longer one starts with two rows at least.
        // The closing lines' baselines sit a line below the table's last rule and its gap.
        let closing = if closing > 0.0 { closing + lead + 1.5 } else { 0.0 };
        let first_rows: f32 = if heights.len() <= 4 { heights.iter().sum::<f32>() + closing } else { heights.iter().take(2).sum() };
        let header = |flow: &mut Flow<'_>, rows_below: f32| {
            flow.need(lead + 2.0 * pad + rows_below);
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
        header(self, first_rows.max(lead));
        let n = wrapped.len();
        for (i, ((bold, cells), &height)) in wrapped.iter().zip(&heights).enumerate() {
            let (bold, face) = (*bold, if *bold { Face::Bold } else { Face::Regular });
            // The last two rows go over together rather than leave the last alone, unless
            // the row before them would then be alone above the break.
            let keep = if i + 2 == n && i >= 2 {
                height + heights[i + 1] + closing
            } else if i + 1 == n {
                height + closing
            } else {
                height
            };
            if self.y - lead + keep > self.bottom() {
                self.break_page();
                header(self, keep);
            }
            let top = self.y - lead + 0.6;
            let page = self.sheet();
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
        draw(self.sheet(), MARGIN, y, w);
        self.y += height;
    }

    /// Finishes the last page.
    pub fn finish(mut self) {
        self.set_heading();
        self.break_page();
    }
}

#[cfg(test)]
mod tests {
    use super::{Flow, HEADING, stranded};
    use crate::Paper;
    use crate::pdf::{Document, text_lines};

    /// a heading over a list whose last two items go over together is carried over with
    /// them, wherever on the page the list begins: no page ends with it.
    #[test]
    fn x_04_a_heading_goes_over_with_the_list_it_heads() {
        let item = "a long objective, written out at length so that it takes several lines of the page's width; ".repeat(3);
        for filler in 30..70 {
            let mut doc = Document::new("test", Paper::A4);
            let mut flow = Flow::new(&mut doc, "foot");
            for i in 0..filler {
                flow.para(&format!("line {i}"));
            }
            flow.heading("What you fight for");
            flow.bullets(&[item.clone(), item.clone()]);
            flow.finish();
            let pages = text_lines(&doc.finish()).unwrap();
            assert_eq!(stranded(&pages), Vec::<String>::new(), "after {filler} lines");
            let page = pages.iter().position(|p| p.iter().any(|l| l.text == "What you fight for")).unwrap();
            let on_its_page = |text: &str| pages[page].iter().any(|l| l.text.starts_with(text) && (l.size - HEADING).abs() > 0.05);
            assert!(on_its_page("a long objective"), "after {filler} lines the list begins on the heading's page");
        }
    }
}
