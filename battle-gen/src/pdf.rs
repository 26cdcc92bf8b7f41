//! A small drawing surface over printpdf 0.12: pages measured in millimetres from the top-left
//! corner (as a referee measures a printed sheet), text in an embedded font with known glyph
//! widths so lines can be wrapped and tables laid out, and lines, rectangles, polygons and
//! hatching in shades of grey that survive a black-and-white printer.

use std::sync::OnceLock;

use printpdf::{
    Color, FontId, Greyscale, Line, LineDashPattern, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Polygon, PolygonRing, Pt, Rgb, TextItem, TextRenderingMode, WindingOrder,
};

use crate::Paper;

/// Points per millimetre.
pub(crate) const PT_PER_MM: f32 = 72.0 / 25.4;

/// Which face a piece of text is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    Regular,
    /// The regular face, filled and outlined: the embedded family has no bold cut.
    Bold,
    /// Fixed width, for figures that line up in columns.
    Mono,
}

/// The code points measured when a font is loaded, in ranges: Latin, Latin-1, Latin
/// Extended A and B, Greek, general punctuation, arrows and mathematical signs — all a pack
/// prints.
const MEASURED: [std::ops::Range<u32>; 5] = [0x20..0x250, 0x370..0x400, 0x2000..0x2070, 0x2190..0x21a0, 0x2200..0x2270];

/// A font with the advance width of every character it has, in ems.
struct Metrics {
    font: ParsedFont,
    /// The width of each measured character the font has, indexed by code point: every line
    /// of every pack is measured character by character, often several times over while it
    /// is wrapped, so this is a table rather than a map.
    widths: Vec<Option<f32>>,
    fallback: f32,
}

impl Metrics {
    fn load(bytes: &[u8]) -> Option<Metrics> {
        let font = ParsedFont::from_bytes(bytes, 0, &mut Vec::new())?;
        let per_em = f32::from(font.font_metrics.units_per_em.max(1));
        let end = MEASURED.iter().map(|r| r.end).max().unwrap_or(0);
        let mut widths = vec![None; end as usize];
        for cp in MEASURED.into_iter().flatten() {
            if let (Some(_), Some(g)) = (char::from_u32(cp), font.lookup_glyph_index(cp)) {
                widths[cp as usize] = Some(f32::from(font.get_horizontal_advance(g)) / per_em);
            }
        }
        let mut metrics = Metrics { font, widths, fallback: 0.5 };
        metrics.fallback = metrics.measured('n').unwrap_or(0.5);
        Some(metrics)
    }

    /// The width of `c` if it is one of the characters measured at load.
    fn measured(&self, c: char) -> Option<f32> {
        self.widths.get(c as usize).copied().flatten()
    }

    /// Whether the font has a glyph for `c` (space and the characters measured at load
    /// always do).
    fn has(&self, c: char) -> bool {
        self.measured(c).is_some() || self.font.lookup_glyph_index(u32::from(c)).is_some_and(|g| g != 0)
    }

    fn char_em(&self, c: char) -> f32 {
        match self.measured(c) {
            Some(w) => w,
            None => match self.font.lookup_glyph_index(u32::from(c)) {
                Some(g) if g != 0 => f32::from(self.font.get_horizontal_advance(g)) / f32::from(self.font.font_metrics.units_per_em.max(1)),
                _ => self.fallback,
            },
        }
    }
}

/// Which font sets a run of text: the face's own, or the other one where the face lacks a
/// character (Hack has arrows and box-drawing the Ubuntu face lacks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Own,
    Other,
}

/// The character printed where no embedded font has the one asked for.
const MISSING: char = '?';

/// `text` cut into runs set in one font each, a character neither font has turned into
/// [`MISSING`].
fn runs(face: Face, text: &str) -> Vec<(Source, String)> {
    let (own, other) = faces(face);
    let mut out: Vec<(Source, String)> = Vec::new();
    for c in text.chars() {
        let (source, c) = set_in(own, other, c);
        match out.last_mut() {
            Some((s, run)) if *s == source => run.push(c),
            _ => out.push((source, c.to_string())),
        }
    }
    out
}

/// Which font sets `c`, a face's `own` or its `other`, and the character printed: `c`, or
/// [`MISSING`] where neither font has it.
fn set_in(own: &Metrics, other: &Metrics, c: char) -> (Source, char) {
    if c.is_whitespace() || own.has(c) {
        (Source::Own, c)
    } else if other.has(c) {
        (Source::Other, c)
    } else {
        (Source::Own, MISSING)
    }
}

/// The metrics of a face's own font and of its fallback.
fn faces(face: Face) -> (&'static Metrics, &'static Metrics) {
    let f = fonts();
    match face {
        Face::Regular | Face::Bold => (&f.regular, &f.mono),
        Face::Mono => (&f.mono, &f.regular),
    }
}

/// The characters of `text` no embedded font has: printed as `?`, so a pack or report says
/// so rather than print an empty box.
pub fn missing_glyphs(text: &str) -> Vec<char> {
    let f = fonts();
    let mut missing: Vec<char> = text.chars().filter(|&c| !c.is_whitespace() && !f.regular.has(c) && !f.mono.has(c)).collect();
    missing.sort_unstable();
    missing.dedup();
    missing
}

struct Fonts {
    regular: Metrics,
    mono: Metrics,
}

/// The two faces every pack uses, parsed once per process.
fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        regular: Metrics::load(epaint_default_fonts::UBUNTU_LIGHT).expect("the embedded Ubuntu font parses"),
        mono: Metrics::load(epaint_default_fonts::HACK_REGULAR).expect("the embedded Hack font parses"),
    })
}

/// Width of `text` set at `size` points in `face`, in millimetres: what a page measures
/// before anything is drawn.
pub fn text_width(text: &str, size: f32, face: Face) -> f32 {
    let (own, other) = faces(face);
    // Run by run, as [`runs`] cuts them and [`Page::text`] draws them, each run's widths
    // added up before the runs are: the same sums in the same order, without the strings.
    let (mut em, mut run, mut current) = (-0.0_f32, -0.0_f32, None);
    for c in text.chars() {
        let (source, c) = set_in(own, other, c);
        if current.is_some_and(|s| s != source) {
            em += run;
            run = -0.0;
        }
        current = Some(source);
        run += if source == Source::Own { own } else { other }.char_em(c);
    }
    if current.is_some() {
        em += run;
    }
    em * size / PT_PER_MM
}

/// A size in points, in millimetres.
pub fn pt_to_mm(size: f32) -> f32 {
    size / PT_PER_MM
}

/// A PDF being written: pages are added one by one, then [`Document::finish`] gives the bytes.
#[derive(Debug)]
pub struct Document {
    doc: PdfDocument,
    regular: FontId,
    mono: FontId,
    paper: Paper,
    /// The pages so far, drawn but for their footers: "page n of m" is known at the end.
    pages: Vec<Page>,
}

impl Document {
    pub fn new(title: &str, paper: Paper) -> Document {
        let mut doc = PdfDocument::new(title);
        let f = fonts();
        let regular = doc.add_font(&f.regular.font);
        let mono = doc.add_font(&f.mono.font);
        Document { doc, regular, mono, paper, pages: Vec::new() }
    }

    pub fn paper(&self) -> Paper {
        self.paper
    }

    /// A blank page of the document's paper, portrait or landscape.
    pub fn page(&self, landscape: bool) -> Page {
        let (w, h) = self.paper.size_mm();
        let (width, height) = if landscape { (h, w) } else { (w, h) };
        Page { ops: Vec::new(), width, height, regular: self.regular.clone(), mono: self.mono.clone(), footer: None, missing: Vec::new() }
    }

    pub fn add(&mut self, page: Page) {
        self.pages.push(page);
    }

    /// A blank page of `paper`, which may differ from the document's (a map on a larger
    /// sheet than the text around it).
    pub fn page_on(&self, paper: Paper, landscape: bool) -> Page {
        let mut page = self.page(landscape);
        let (w, h) = paper.size_mm();
        (page.width, page.height) = if landscape { (h, w) } else { (w, h) };
        page
    }

    /// Puts `page` in at `index` among the pages so far (at the end past them).
    pub fn insert(&mut self, index: usize, page: Page) {
        self.pages.insert(index.min(self.pages.len()), page);
    }

    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Characters written so far that no embedded font has (printed as `?`), sorted.
    pub fn missing_glyphs(&self) -> Vec<char> {
        let mut all: Vec<char> = self.pages.iter().flat_map(|p| p.missing.iter().copied()).collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The finished file. Fonts are subset to the glyphs used; the file says when and by what
    /// program it was made.
    pub fn finish(mut self) -> Vec<u8> {
        let count = self.pages.len();
        let pages: Vec<PdfPage> = std::mem::take(&mut self.pages)
            .into_iter()
            .enumerate()
            .map(|(i, mut page)| {
                page.stamp_footer(i + 1, count);
                PdfPage::new(Mm(page.width), Mm(page.height), page.ops)
            })
            .collect();
        let info = &mut self.doc.metadata.info;
        let now = printpdf::OffsetDateTime::now_utc();
        (info.creation_date, info.modification_date, info.metadata_date) = (now, now, now);
        info.producer = format!("referee {}", env!("CARGO_PKG_VERSION"));
        info.creator = "referee".to_owned();
        let mut bytes = self.doc.with_pages(pages).save(&PdfSaveOptions::default(), &mut Vec::new());
        // The PDF library names a PDF/X version even for a plain PDF, empty, and readers then
        // take the file for PDF/X. Blanked to spaces, so that no offset in the file moves.
        blank_out(&mut bytes, b"/GTS_PDFXVersion()");
        bytes
    }
}

/// Every `needle` in `bytes` overwritten with spaces.
fn blank_out(bytes: &mut [u8], needle: &[u8]) {
    let mut at = 0;
    while let Some(i) = bytes[at..].windows(needle.len()).position(|w| w == needle) {
        let start = at + i;
        bytes[start..start + needle.len()].fill(b' ');
        at = start + needle.len();
    }
}

/// Grey from white (0) to black (1), as ink coverage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ink(pub f32);

impl Ink {
    pub const BLACK: Ink = Ink(1.0);
    pub const WHITE: Ink = Ink(0.0);

    fn colour(self) -> Color {
        Color::Greyscale(Greyscale { percent: (1.0 - self.0).clamp(0.0, 1.0), icc_profile: None })
    }
}

/// A colour as red, green and blue from 0 to 1: kept light where black is written over it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tint(pub f32, pub f32, pub f32);

impl Tint {
    fn colour(self) -> Color {
        let c = |v: f32| v.clamp(0.0, 1.0);
        Color::Rgb(Rgb { r: c(self.0), g: c(self.1), b: c(self.2), icc_profile: None })
    }

    /// The same colour with each part scaled by `factor` (below 1, deeper).
    pub fn shaded(self, factor: f32) -> Tint {
        Tint(self.0 * factor, self.1 * factor, self.2 * factor)
    }

    /// How light it prints in grey, from 0 (black) to 1 (white), by the usual weights.
    pub fn lightness(self) -> f32 {
        0.299 * self.0 + 0.587 * self.1 + 0.114 * self.2
    }
}

/// One page being drawn. Coordinates are millimetres, x right and y down from the top-left.
#[derive(Debug)]
pub struct Page {
    ops: Vec<Op>,
    pub width: f32,
    pub height: f32,
    regular: FontId,
    mono: FontId,
    /// What the page is, for the line at its foot: campaign, turn, battle, place, reader.
    pub footer: Option<String>,
    /// Characters written on the page that no embedded font has, printed as `?`.
    missing: Vec<char>,
}

impl Page {
    /// The foot of the page: what it is, and "page n of m" of the whole file.
    fn stamp_footer(&mut self, number: usize, count: usize) {
        const MARGIN: f32 = 15.0;
        let y = self.height - MARGIN + 2.0;
        let footer = self.footer.take();
        if let Some(footer) = &footer {
            self.line(&[(MARGIN, y - 4.0), (self.width - MARGIN, y - 4.0)], Ink(0.5), 0.2, None);
            self.text(MARGIN, y, 7.5, Face::Regular, footer);
        }
        self.text_right(self.width - MARGIN, y, 7.5, Face::Regular, &format!("page {number} of {count}"));
        self.footer = footer;
    }

    fn point(&self, x: f32, y: f32) -> Point {
        Point { x: Pt(x * PT_PER_MM), y: Pt((self.height - y) * PT_PER_MM) }
    }

    /// Width of `text` set at `size` points, in millimetres.
    pub fn text_width(&self, text: &str, size: f32, face: Face) -> f32 {
        text_width(text, size, face)
    }

    /// Writes `text` with its baseline at `y`, starting at `x`: each character in the face's
    /// font, or the other embedded font where the face lacks it, or as `?` where neither has
    /// it (the page keeps those, for a warning).
    pub fn text(&mut self, x: f32, y: f32, size: f32, face: Face, text: &str) {
        if text.is_empty() {
            return;
        }
        let mut x = x;
        for (source, run) in runs(face, text) {
            let run_face = match (source, face) {
                (Source::Own, _) => face,
                (Source::Other, Face::Mono) => Face::Regular,
                (Source::Other, Face::Regular | Face::Bold) => Face::Mono,
            };
            self.run(x, y, size, run_face, &run);
            x += self.text_width(&run, size, run_face);
        }
        self.missing.extend(missing_glyphs(text));
    }

    fn run(&mut self, x: f32, y: f32, size: f32, face: Face, text: &str) {
        let font = PdfFontHandle::External(if face == Face::Mono { self.mono.clone() } else { self.regular.clone() });
        let pos = self.point(x, y);
        self.ops.push(Op::StartTextSection);
        self.ops.push(Op::SetFillColor { col: Ink::BLACK.colour() });
        if face == Face::Bold {
            self.ops.push(Op::SetOutlineColor { col: Ink::BLACK.colour() });
            self.ops.push(Op::SetOutlineThickness { pt: Pt(size / 30.0) });
            self.ops.push(Op::SetTextRenderingMode { mode: TextRenderingMode::FillStroke });
        }
        self.ops.push(Op::SetFont { font, size: Pt(size) });
        self.ops.push(Op::SetTextCursor { pos });
        self.ops.push(Op::ShowText { items: vec![TextItem::Text(text.to_owned())] });
        if face == Face::Bold {
            self.ops.push(Op::SetTextRenderingMode { mode: TextRenderingMode::Fill });
        }
        self.ops.push(Op::EndTextSection);
    }

    /// Writes `text` centred on `x`.
    pub fn text_centred(&mut self, x: f32, y: f32, size: f32, face: Face, text: &str) {
        let w = self.text_width(text, size, face);
        self.text(x - w / 2.0, y, size, face, text);
    }

    /// Writes `text` ending at `x`.
    pub fn text_right(&mut self, x: f32, y: f32, size: f32, face: Face, text: &str) {
        let w = self.text_width(text, size, face);
        self.text(x - w, y, size, face, text);
    }

    /// Text turned a quarter anticlockwise (reading upward), its baseline start at (x, y).
    pub fn text_up(&mut self, x: f32, y: f32, size: f32, face: Face, text: &str) {
        self.ops.push(Op::SaveGraphicsState);
        let p = self.point(x, y);
        self.ops.push(Op::SetTransformationMatrix { matrix: printpdf::CurTransMat::Raw([0.0, 1.0, -1.0, 0.0, p.x.0, p.y.0]) });
        // Draw at the origin of the turned frame: (0, 0) in points is (0, height) in page mm.
        let h = self.height;
        self.text(0.0, h, size, face, text);
        self.ops.push(Op::RestoreGraphicsState);
    }

    /// Splits `text` into lines no wider than `width` millimetres, breaking between words.
    pub fn wrap(&self, text: &str, size: f32, face: Face, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for para in text.split('\n') {
            let mut line = String::new();
            for word in para.split_whitespace() {
                let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
                if !line.is_empty() && self.text_width(&candidate, size, face) > width {
                    lines.push(std::mem::replace(&mut line, word.to_owned()));
                } else {
                    line = candidate;
                }
            }
            lines.push(line);
        }
        lines
    }

    /// Writes wrapped text from baseline `y` down; returns the baseline below the last line.
    pub fn paragraph(&mut self, x: f32, y: f32, width: f32, size: f32, face: Face, text: &str) -> f32 {
        let lead = line_height(size);
        let mut y = y;
        for line in self.wrap(text, size, face, width) {
            self.text(x, y, size, face, &line);
            y += lead;
        }
        y
    }

    fn stroke_style(&mut self, ink: Ink, width: f32, dash: Option<&[f32]>) {
        self.ops.push(Op::SetOutlineColor { col: ink.colour() });
        self.ops.push(Op::SetOutlineThickness { pt: Pt(width * PT_PER_MM) });
        let dash = match dash {
            Some(d) => LineDashPattern::new(0.0, &d.iter().map(|v| v * PT_PER_MM).collect::<Vec<_>>()),
            None => LineDashPattern::solid(),
        };
        self.ops.push(Op::SetLineDashPattern { dash });
    }

    fn ring(&self, pts: &[(f32, f32)]) -> PolygonRing {
        PolygonRing { points: pts.iter().map(|&(x, y)| LinePoint { p: self.point(x, y), bezier: false }).collect() }
    }

    /// An open line through `pts`, `width` mm thick, dashed if `dash` gives on/off lengths in mm.
    pub fn line(&mut self, pts: &[(f32, f32)], ink: Ink, width: f32, dash: Option<&[f32]>) {
        if pts.len() < 2 {
            return;
        }
        self.stroke_style(ink, width, dash);
        let points = self.ring(pts).points;
        self.ops.push(Op::DrawLine { line: Line { points, is_closed: false } });
    }

    /// A closed shape, filled with `fill` and outlined with `stroke` (ink, width mm, dash).
    pub fn polygon(&mut self, pts: &[(f32, f32)], fill: Option<Ink>, stroke: Option<(Ink, f32, Option<&[f32]>)>) {
        if pts.len() < 3 {
            return;
        }
        let mode = match (fill, stroke) {
            (Some(_), Some(_)) => PaintMode::FillStroke,
            (Some(_), None) => PaintMode::Fill,
            (None, Some(_)) => PaintMode::Stroke,
            (None, None) => return,
        };
        if let Some(f) = fill {
            self.ops.push(Op::SetFillColor { col: f.colour() });
        }
        if let Some((ink, w, dash)) = stroke {
            self.stroke_style(ink, w, dash);
        }
        let ring = self.ring(pts);
        self.ops.push(Op::DrawPolygon { polygon: Polygon { rings: vec![ring], mode, winding_order: WindingOrder::NonZero } });
    }

    /// A rectangle from its top-left corner.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<Ink>, stroke: Option<(Ink, f32)>) {
        let pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
        self.polygon(&pts, fill, stroke.map(|(i, w)| (i, w, None)));
    }

    /// A rectangle from its top-left corner filled with a colour, with no outline.
    pub fn tinted_rect(&mut self, x: f32, y: f32, w: f32, h: f32, tint: Tint) {
        self.ops.push(Op::SetFillColor { col: tint.colour() });
        let ring = self.ring(&[(x, y), (x + w, y), (x + w, y + h), (x, y + h)]);
        self.ops
            .push(Op::DrawPolygon { polygon: Polygon { rings: vec![ring], mode: PaintMode::Fill, winding_order: WindingOrder::NonZero } });
    }

    /// Parallel lines `spacing` mm apart at `angle_deg`, clipped to the shape `pts`: a fill a
    /// black-and-white printer keeps apart from the grey of other terrain.
    pub fn hatch(&mut self, pts: &[(f32, f32)], spacing: f32, angle_deg: f32, ink: Ink, width: f32) {
        if pts.len() < 3 || spacing <= 0.0 {
            return;
        }
        self.ops.push(Op::SaveGraphicsState);
        let ring = self.ring(pts);
        self.ops
            .push(Op::DrawPolygon { polygon: Polygon { rings: vec![ring], mode: PaintMode::Clip, winding_order: WindingOrder::NonZero } });
        let (min_x, max_x) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
        let (min_y, max_y) = pts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
        let (cx, cy) = ((min_x + max_x) / 2.0, (min_y + max_y) / 2.0);
        let reach = (max_x - min_x).hypot(max_y - min_y) / 2.0 + spacing;
        let (s, c) = angle_deg.to_radians().sin_cos();
        let mut offset = -reach;
        while offset <= reach {
            // A line through the centre shifted `offset` across its direction.
            let (ox, oy) = (cx - s * offset, cy + c * offset);
            self.line(&[(ox - c * reach, oy - s * reach), (ox + c * reach, oy + s * reach)], ink, width, None);
            offset += spacing;
        }
        self.ops.push(Op::RestoreGraphicsState);
    }

    /// Keeps whatever is drawn next inside the rectangle, until [`Page::restore`].
    pub fn save_clip(&mut self, x: f32, y: f32, w: f32, h: f32) {
        self.ops.push(Op::SaveGraphicsState);
        let ring = self.ring(&[(x, y), (x + w, y), (x + w, y + h), (x, y + h)]);
        self.ops
            .push(Op::DrawPolygon { polygon: Polygon { rings: vec![ring], mode: PaintMode::Clip, winding_order: WindingOrder::NonZero } });
    }

    /// Ends what [`Page::save_clip`] began.
    pub fn restore(&mut self) {
        self.ops.push(Op::RestoreGraphicsState);
    }

    /// A circle as a many-sided polygon.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, fill: Option<Ink>, stroke: Option<(Ink, f32)>) {
        let pts: Vec<(f32, f32)> = (0..24u8)
            .map(|i| {
                let a = f32::from(i) * std::f32::consts::TAU / 24.0;
                (cx + r * a.cos(), cy + r * a.sin())
            })
            .collect();
        self.polygon(&pts, fill, stroke.map(|(i, w)| (i, w, None)));
    }
}

/// Baseline-to-baseline distance for text of `size` points, in millimetres.
pub const fn line_height(size: f32) -> f32 {
    size * 1.3 / PT_PER_MM
}

/// Bytes that do not read back as a PDF: the parser's own sentence saying why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReadError(pub String);

/// A PDF read back, for tests and checks: parsed once, then read as plain text
/// ([`ReadBack::text`]), as lines with their baselines ([`ReadBack::lines`]), as what each
/// page draws ([`ReadBack::drawing`]) or as text with its box and clip ([`ReadBack::placed`]).
#[derive(Debug)]
pub struct ReadBack {
    doc: PdfDocument,
}

impl ReadBack {
    pub fn parse(bytes: &[u8]) -> Result<ReadBack, ReadError> {
        Ok(ReadBack { doc: PdfDocument::parse(bytes, &printpdf::PdfParseOptions::default(), &mut Vec::new()).map_err(ReadError)? })
    }

    /// The text, one string per page.
    pub fn text(&self) -> Vec<String> {
        self.doc.extract_text().into_iter().map(|lines| lines.join("\n")).collect()
    }

    /// The lines of text of every page, top to bottom, with where they sit and how large: for
    /// tests of the layout (a heading left at a page's foot, a page of one row).
    pub fn lines(&self) -> Vec<Vec<ReadLine>> {
        self.doc
            .extract_text_boxes()
            .into_iter()
            .map(|page| {
                let mut lines: Vec<ReadLine> = page
                    .lines
                    .into_iter()
                    .filter(|l| !l.words.is_empty())
                    .map(|l| ReadLine {
                        baseline_mm: l.baseline / PT_PER_MM,
                        size: l.words.iter().map(|w| w.font_size).fold(0.0, f32::max),
                        text: words(&l.words),
                    })
                    .collect();
                lines.sort_by(|a, b| a.baseline_mm.total_cmp(&b.baseline_mm));
                lines
            })
            .collect()
    }

    /// Every page as drawn: its text runs and its shapes, where they are.
    pub fn drawing(&self) -> Vec<DrawnPage> {
        self.doc
            .pages
            .iter()
            .map(|page| {
                let (width, height) = page_mm(page);
                let mut out = DrawnPage { width, height, texts: Vec::new(), shapes: Vec::new() };
                walk(page, |_, met| match met {
                    Met::Text { ops, at, size } => {
                        let text = PdfPage::new(Mm(0.0), Mm(0.0), ops).extract_text(&self.doc.resources).concat();
                        out.texts.push(DrawnText { x: at.0, y: at.1, size, text });
                    }
                    Met::Shape(shape) => out.shapes.push(shape),
                });
                out
            })
            .collect()
    }

    /// Every piece of text with its box and its clip, page by page: each text section measured
    /// on its own, under the transformation and clip in force where it is drawn.
    pub fn placed(&self) -> Vec<PlacedPage> {
        self.doc
            .pages
            .iter()
            .map(|page| {
                let (width, height) = page_mm(page);
                let mut texts = Vec::new();
                walk(page, |state, met| {
                    let Met::Text { ops, .. } = met else { return };
                    let alone = PdfPage {
                        media_box: page.media_box.clone(),
                        trim_box: page.trim_box.clone(),
                        crop_box: page.crop_box.clone(),
                        ops: state.ctm.iter().map(|m| Op::SetTransformationMatrix { matrix: *m }).chain(ops).collect(),
                    };
                    for line in alone.extract_text_boxes(&self.doc.resources).lines {
                        let [x0, y0, x1, y1] = line.bbox;
                        let bbox = [x0 / PT_PER_MM, y0 / PT_PER_MM, x1 / PT_PER_MM, y1 / PT_PER_MM];
                        let size = line.words.first().map_or(0.0, |w| w.font_size);
                        texts.push(PlacedText { text: words(&line.words), size, bbox, clip: state.clip });
                    }
                });
                PlacedPage { width, height, texts }
            })
            .collect()
    }
}

/// Text pulled back out of a PDF, one string per page ([`ReadBack::text`]).
pub fn extract_text(bytes: &[u8]) -> Result<Vec<String>, ReadError> {
    Ok(ReadBack::parse(bytes)?.text())
}

/// The lines of text of every page of a PDF ([`ReadBack::lines`]).
pub fn text_lines(bytes: &[u8]) -> Result<Vec<Vec<ReadLine>>, ReadError> {
    Ok(ReadBack::parse(bytes)?.lines())
}

/// Every page of a PDF as drawn ([`ReadBack::drawing`]).
pub fn read_drawing(bytes: &[u8]) -> Result<Vec<DrawnPage>, ReadError> {
    Ok(ReadBack::parse(bytes)?.drawing())
}

/// Every piece of text of a PDF with its box and its clip ([`ReadBack::placed`]).
pub fn placed_text(bytes: &[u8]) -> Result<Vec<PlacedPage>, ReadError> {
    Ok(ReadBack::parse(bytes)?.placed())
}

/// A line's words, one space between.
fn words(words: &[printpdf::text_boxes::TextWord]) -> String {
    words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ")
}

/// A page's width and height in millimetres.
fn page_mm(page: &PdfPage) -> (f32, f32) {
    (page.media_box.width.0 / PT_PER_MM, page.media_box.height.0 / PT_PER_MM)
}

/// One line of text on a page as read back: its baseline (mm from the top), its font size
/// (pt) and its words.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadLine {
    pub baseline_mm: f32,
    pub size: f32,
    pub text: String,
}

/// A run of text as a PDF reader finds it: where its baseline starts, in millimetres from the
/// page's top-left corner (in the page's own frame: text in a turned frame is not placed), its
/// size in points and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnText {
    pub x: f32,
    pub y: f32,
    pub size: f32,
    pub text: String,
}

/// A line or shape as a PDF reader finds it: its points in millimetres from the page's
/// top-left corner, its fill as red, green and blue from 0 to 1 (grey as three equal parts),
/// and the width of its outline in millimetres.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnShape {
    pub points: Vec<(f32, f32)>,
    pub fill: Option<(f32, f32, f32)>,
    pub stroke: Option<f32>,
}

impl DrawnShape {
    /// Left, top, right and bottom of its points.
    pub fn bounds(&self) -> (f32, f32, f32, f32) {
        self.points.iter().fold((f32::MAX, f32::MAX, f32::MIN, f32::MIN), |(l, t, r, b), &(x, y)| (l.min(x), t.min(y), r.max(x), b.max(y)))
    }
}

/// What a page of a PDF draws, read back out of the file: for tests of where things land.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnPage {
    pub width: f32,
    pub height: f32,
    pub texts: Vec<DrawnText>,
    pub shapes: Vec<DrawnShape>,
}

/// A piece of text read back from a PDF with where it lies, for tests of a page's layout.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedText {
    pub text: String,
    /// The size of its first word, in points.
    pub size: f32,
    /// Left, top, right and bottom of the text, in millimetres from the page's top-left corner.
    pub bbox: [f32; 4],
    /// The rectangle its drawing was clipped to (the bounds of every clip path in force, in
    /// the same measure), or `None` where nothing clipped it.
    pub clip: Option<[f32; 4]>,
}

/// One page's text with where each piece lies, and the page's size in millimetres.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedPage {
    pub width: f32,
    pub height: f32,
    pub texts: Vec<PlacedText>,
}

/// The graphics state the read-back follows: the paint, the clip (the bounds of every clip
/// path in force, in millimetres from the page's top-left corner) and the transformation.
#[derive(Debug, Clone, Copy)]
struct State {
    fill: (f32, f32, f32),
    stroke_mm: f32,
    clip: Option<[f32; 4]>,
    ctm: Option<printpdf::CurTransMat>,
}

/// What a walk over a page's operations meets: a text section whole (its operations, where
/// its cursor last stood and its size), or a line or shape.
enum Met {
    Text { ops: Vec<Op>, at: (f32, f32), size: f32 },
    Shape(DrawnShape),
}

/// Walks a page's operations in order, following the graphics state, and hands `meet` each
/// text section and each line or shape drawn, with the state in force there.
fn walk(page: &PdfPage, mut meet: impl FnMut(&State, Met)) {
    let height_pt = page.media_box.height.0;
    let mm = |p: &Point| (p.x.0 / PT_PER_MM, (height_pt - p.y.0) / PT_PER_MM);
    let rgb = |c: &Color| match c {
        Color::Rgb(c) => (c.r, c.g, c.b),
        Color::Greyscale(g) => (g.percent, g.percent, g.percent),
        Color::Cmyk(c) => ((1.0 - c.c) * (1.0 - c.k), (1.0 - c.m) * (1.0 - c.k), (1.0 - c.y) * (1.0 - c.k)),
        Color::SpotColor(_) => (0.0, 0.0, 0.0),
    };
    let mut state = State { fill: (0.0, 0.0, 0.0), stroke_mm: 1.0 / PT_PER_MM, clip: None, ctm: None };
    let mut saved: Vec<State> = Vec::new();
    // The text section being read: its ops, where its cursor stands and its size.
    let mut section: Option<(Vec<Op>, (f32, f32), f32)> = None;
    for op in &page.ops {
        if let Some((ops, at, size)) = &mut section {
            ops.push(op.clone());
            match op {
                Op::SetTextCursor { pos } => *at = mm(pos),
                Op::SetFont { size: s, .. } => *size = s.0,
                Op::EndTextSection => {
                    if let Some((ops, at, size)) = section.take() {
                        meet(&state, Met::Text { ops, at, size });
                    }
                }
                _ => {}
            }
            continue;
        }
        match op {
            Op::StartTextSection => section = Some((vec![op.clone()], (0.0, height_pt / PT_PER_MM), 12.0)),
            Op::SaveGraphicsState => saved.push(state),
            Op::RestoreGraphicsState => state = saved.pop().unwrap_or(state),
            Op::SetFillColor { col } => state.fill = rgb(col),
            Op::SetOutlineThickness { pt } => state.stroke_mm = pt.0 / PT_PER_MM,
            Op::SetTransformationMatrix { matrix } => state.ctm = Some(*matrix),
            Op::DrawLine { line } => meet(
                &state,
                Met::Shape(DrawnShape {
                    points: line.points.iter().map(|p| mm(&p.p)).collect(),
                    fill: None,
                    stroke: Some(state.stroke_mm),
                }),
            ),
            Op::DrawPolygon { polygon } if polygon.mode == PaintMode::Clip => {
                let pts: Vec<(f32, f32)> = polygon.rings.iter().flat_map(|r| r.points.iter().map(|p| mm(&p.p))).collect();
                let bounds = DrawnShape { points: pts, fill: None, stroke: None }.bounds();
                let bounds = [bounds.0, bounds.1, bounds.2, bounds.3];
                state.clip = Some(match state.clip {
                    None => bounds,
                    Some(c) => [c[0].max(bounds[0]), c[1].max(bounds[1]), c[2].min(bounds[2]), c[3].min(bounds[3])],
                });
            }
            Op::DrawPolygon { polygon } => {
                let fill = matches!(polygon.mode, PaintMode::Fill | PaintMode::FillStroke).then_some(state.fill);
                let stroke = matches!(polygon.mode, PaintMode::Stroke | PaintMode::FillStroke).then_some(state.stroke_mm);
                for ring in &polygon.rings {
                    meet(&state, Met::Shape(DrawnShape { points: ring.points.iter().map(|p| mm(&p.p)).collect(), fill, stroke }));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page a referee hands out says by what program and when it was made, and no
    /// reader takes it for PDF/X.
    #[test]
    fn x_04_a_file_names_its_producer_and_date_and_is_no_pdf_x() {
        let mut doc = Document::new("Battle 1", Paper::A4);
        let mut page = doc.page(false);
        page.text(20.0, 30.0, 12.0, Face::Regular, "Himera");
        doc.add(page);
        let bytes = doc.finish();
        let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
        assert!(!has(b"GTS_PDFXVersion"));
        assert!(!has(b"D:1970"), "a real creation date");
        // "referee " in the UTF-16 hex string the Info dictionary is written in.
        let producer: String = "referee ".encode_utf16().map(|u| format!("{u:04X}")).collect();
        assert!(has(format!("/Producer<FEFF{producer}").as_bytes()));
        let text = extract_text(&bytes).unwrap().join(" ");
        assert!(text.contains("Himera") && text.contains("page 1 of 1"), "the file still reads, numbered: {text}");
    }

    #[test]
    fn text_written_is_text_read_back() {
        let mut doc = Document::new("test", Paper::A4);
        let mut page = doc.page(false);
        page.text(20.0, 30.0, 12.0, Face::Regular, "Battle of Himera — Ōrtygia");
        page.text(20.0, 40.0, 10.0, Face::Bold, "Carthage");
        page.text(20.0, 50.0, 9.0, Face::Mono, "4 Reg Sp(O)");
        page.rect(10.0, 10.0, 50.0, 20.0, Some(Ink(0.2)), Some((Ink::BLACK, 0.3)));
        page.hatch(&[(0.0, 0.0), (40.0, 0.0), (40.0, 40.0)], 2.0, 45.0, Ink(0.6), 0.2);
        page.text_up(100.0, 100.0, 10.0, Face::Regular, "north");
        doc.add(page);
        let bytes = doc.finish();
        assert!(bytes.starts_with(b"%PDF"));
        let text = extract_text(&bytes).unwrap().join("\n");
        for want in ["Battle of Himera", "Ōrtygia", "Carthage", "4 Reg Sp(O)", "north"] {
            assert!(text.contains(want), "{want} missing from {text:?}");
        }
    }

    /// a character the face lacks is set in the other embedded font; one that no
    /// embedded font has is printed as `?` and named, never left an empty box.
    #[test]
    fn x_04_a_glyph_the_face_lacks_falls_back_or_is_named() {
        assert!(!fonts().regular.has('→') && fonts().mono.has('→'), "the test needs an arrow only Hack has");
        let mut doc = Document::new("test", Paper::A4);
        let mut page = doc.page(false);
        page.text(20.0, 30.0, 10.0, Face::Regular, "Mylae → Tyndaris");
        page.text(20.0, 40.0, 10.0, Face::Regular, "Hannibal 漢");
        doc.add(page);
        assert_eq!(doc.missing_glyphs(), vec!['漢']);
        assert_eq!(missing_glyphs("Mylae → Tyndaris"), Vec::<char>::new());
        let text = extract_text(&doc.finish()).unwrap().join("\n");
        assert!(text.contains('→') && text.contains("Mylae") && text.contains("Tyndaris"), "{text}");
        assert!(text.contains("Hannibal ?"), "{text}");
    }

    /// A line's width is its runs' widths, each run's characters added up first and then the
    /// runs, to the bit: wrapping and tables lay out exactly as the runs are drawn.
    #[test]
    fn a_width_is_the_sum_of_its_runs_to_the_bit() {
        for face in [Face::Regular, Face::Bold, Face::Mono] {
            let (own, other) = faces(face);
            for text in ["", " ", "Himera", "Mylae → Tyndaris ⇒ Lipara", "Ōrtygia — 4 Reg Sp(O)", "Hannibal 漢 →→ x", "→"] {
                let em: f32 = runs(face, text)
                    .iter()
                    .map(|(source, run)| {
                        let font = if *source == Source::Own { own } else { other };
                        run.chars().map(|c| font.char_em(c)).sum::<f32>()
                    })
                    .sum();
                let want = em * 9.5 / PT_PER_MM;
                assert_eq!(text_width(text, 9.5, face).to_bits(), want.to_bits(), "{face:?} {text:?}");
            }
        }
        // The table holds the measured characters the font has, and only those.
        for metrics in [&fonts().regular, &fonts().mono] {
            for cp in MEASURED.into_iter().flatten() {
                let c = char::from_u32(cp).unwrap();
                assert_eq!(metrics.measured(c).is_some(), metrics.font.lookup_glyph_index(cp).is_some(), "U+{cp:04X}");
            }
            assert_eq!(metrics.measured('\u{2270}'), None);
            assert_eq!(metrics.measured('漢'), None);
        }
    }

    /// What a page draws reads back where it was drawn, in millimetres from the top-left: text
    /// by its baseline, shapes by their points, with their fill and outline.
    #[test]
    fn drawing_reads_back_where_it_was_drawn() {
        let mut doc = Document::new("test", Paper::Letter);
        let mut page = doc.page(false);
        page.tinted_rect(10.0, 20.0, 30.0, 15.0, Tint(0.9, 0.8, 0.6));
        page.rect(50.0, 60.0, 14.0, 14.0, None, Some((Ink::BLACK, 0.5)));
        page.text(52.0, 63.5, 6.0, Face::Bold, "Cart 12");
        page.hatch(&[(0.0, 0.0), (40.0, 0.0), (40.0, 40.0)], 2.0, 45.0, Ink(0.6), 0.2);
        page.rect(100.0, 100.0, 5.0, 5.0, Some(Ink(0.25)), None);
        doc.add(page);
        let pages = read_drawing(&doc.finish()).unwrap();
        let p = &pages[0];
        assert!((p.width - 215.9).abs() < 0.01 && (p.height - 279.4).abs() < 0.01);
        let near = |a: f32, b: f32| (a - b).abs() < 0.01;
        let text = p.texts.iter().find(|t| t.text == "Cart 12").unwrap();
        assert!(near(text.x, 52.0) && near(text.y, 63.5) && near(text.size, 6.0), "{text:?}");
        let tinted = p.shapes.iter().find(|s| s.fill.is_some_and(|f| near(f.0, 0.9))).unwrap();
        assert_eq!(tinted.stroke, None);
        let (l, t, r, b) = tinted.bounds();
        assert!(near(l, 10.0) && near(t, 20.0) && near(r, 40.0) && near(b, 35.0), "{tinted:?}");
        let outline = p.shapes.iter().find(|s| s.stroke.is_some_and(|w| near(w, 0.5))).unwrap();
        assert_eq!(outline.fill, None);
        assert!(near(outline.bounds().0, 50.0) && near(outline.bounds().3, 74.0), "{outline:?}");
        // The hatching's lines keep their own width; the grey square after it has its grey.
        assert!(p.shapes.iter().filter(|s| s.stroke.is_some_and(|w| near(w, 0.2))).count() > 5);
        let grey = p.shapes.iter().find(|s| near(s.bounds().0, 100.0)).unwrap();
        assert_eq!(grey.fill, Some((0.75, 0.75, 0.75)));
    }

    /// Text read back with where it lies: its box where it was written, the clip it was drawn
    /// under, and none once the clip is restored.
    #[test]
    fn placed_text_gives_each_texts_box_and_clip() {
        let mut doc = Document::new("test", Paper::A4);
        let mut page = doc.page(false);
        page.save_clip(15.0, 25.0, 100.0, 30.0);
        page.text(20.0, 40.0, 10.0, Face::Bold, "to 09 Cephaloedium");
        page.restore();
        page.text(20.0, 80.0, 10.0, Face::Regular, "outside");
        let width = page.text_width("to 09 Cephaloedium", 10.0, Face::Bold);
        doc.add(page);
        let pages = placed_text(&doc.finish()).unwrap();
        assert_eq!(pages.len(), 1);
        assert!((pages[0].width - 210.0).abs() < 0.1 && (pages[0].height - 297.0).abs() < 0.1);
        let find = |t: &str| pages[0].texts.iter().find(|p| p.text == t).unwrap_or_else(|| panic!("{t}: {:?}", pages[0].texts));
        let label = find("to 09 Cephaloedium");
        let [x0, y0, x1, y1] = label.bbox;
        assert!((x0 - 20.0).abs() < 0.3 && (x1 - 20.0 - width).abs() < 0.6, "{:?} against {width}", label.bbox);
        assert!(y0 < 40.0 && y0 > 35.0 && y1 > 40.0 && y1 < 42.0, "{:?}", label.bbox);
        let clip = label.clip.unwrap();
        for (got, want) in clip.iter().zip([15.0, 25.0, 115.0, 55.0]) {
            assert!((got - want).abs() < 0.01, "{clip:?}");
        }
        assert_eq!(find("outside").clip, None);
    }

    #[test]
    fn wrapping_keeps_every_word_and_respects_the_width() {
        let doc = Document::new("test", Paper::Letter);
        let page = doc.page(true);
        let text = "The defender chooses where to fight: the forward, central or rear section of the map.";
        let lines = page.wrap(text, 10.0, Face::Regular, 40.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), text);
        for l in &lines {
            assert!(page.text_width(l, 10.0, Face::Regular) <= 40.0 || !l.contains(' '), "{l}");
        }
        assert!(page.width > page.height);
    }
}
