//! X-06: the README and the user guide under `docs/` show nothing a referee cannot do. Every
//! command of their ```sh blocks runs, in the order written, against a fresh database for each
//! file; the files those commands read are the file's own ```json file=NAME (or toml) blocks,
//! written into the working folder where they stand; every order the guide shows is one the
//! program reads; the command-line chapter shows every order of both campaigns; and the links
//! between the chapters lead somewhere.
//!
//! What the sh blocks may hold is a small part of the shell: `referee …` (run in this process,
//! as the binary runs it, with `--db` pointing at the file's database unless the line names
//! one), `echo … > FILE`, `cargo …` (skipped: those are the developer's), words quoted '…' or
//! "…", `\` at a line's end, `> FILE` after a command, and `# comments`. A comment beginning
//! with `refused` marks a command the program must refuse.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The README, then the guide's chapters in name order.
fn guide_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ can be listed")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    let mut files = vec![root.join("README.md")];
    files.extend(chapters);
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The file's name as the failures name it: `README.md`, `docs/belisarius.md`.
fn shown(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

/// One fenced block: its language, its `file=NAME` if it has one, the line of its opening
/// fence (from 1) and its lines, the fence's indentation taken off.
#[derive(Debug)]
struct Block {
    lang: String,
    file: Option<String>,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, Block)> = None;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let fence = format!("```{}", info.chars().take_while(|c| *c == '`').collect::<String>());
                    let info = info.trim_start_matches('`');
                    let mut words = info.split_whitespace();
                    let lang = words.next().unwrap_or("").to_owned();
                    let file = words.find_map(|w| w.strip_prefix("file=")).map(str::to_owned);
                    open = Some((fence, indent, Block { lang, file, line: i + 1, lines: Vec::new() }));
                }
            }
            Some((fence, fence_indent, block)) => {
                if trimmed.trim_end() == fence.as_str() {
                    out.push(open.take().expect("a block is open").2);
                } else {
                    let cut = raw.len() - raw.trim_start().len();
                    block.lines.push(raw[cut.min(*fence_indent)..].to_owned());
                }
            }
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    out
}

/// A command line of an sh block, as the shell would split it.
#[derive(Debug, Default)]
struct Line {
    words: Vec<String>,
    stdout_to: Option<String>,
    comment: String,
}

/// Splits one logical line (continuations joined) into words, a `> FILE` and a comment.
/// Anything of the shell beyond that is refused, so that the guide shows nothing this test
/// would run differently from a shell.
fn split(line: &str) -> Result<Line, String> {
    let mut out = Line::default();
    let mut word: Option<String> = None;
    let mut redirect = false;
    let mut chars = line.chars().peekable();
    let finish = |word: &mut Option<String>, redirect: &mut bool, out: &mut Line| -> Result<(), String> {
        if let Some(w) = word.take() {
            if *redirect {
                if out.stdout_to.is_some() {
                    return Err("two redirections".to_owned());
                }
                out.stdout_to = Some(w);
                *redirect = false;
            } else if out.stdout_to.is_some() {
                return Err(format!("a word after the redirection: {w}"));
            } else {
                out.words.push(w);
            }
        }
        Ok(())
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => finish(&mut word, &mut redirect, &mut out)?,
            '#' if word.is_none() => {
                out.comment = chars.collect::<String>().trim().to_owned();
                break;
            }
            '>' if word.is_none() => {
                if redirect || out.stdout_to.is_some() {
                    return Err("two redirections".to_owned());
                }
                redirect = true;
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("an unclosed '".to_owned()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("an unclosed \"".to_owned()),
                        },
                        Some(c @ ('$' | '`')) => return Err(format!("`{c}` in double quotes")),
                        Some(c) => w.push(c),
                        None => return Err("an unclosed \"".to_owned()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a `\\` at the end".to_owned()),
            },
            '|' | ';' | '&' | '<' | '$' | '`' | '(' | ')' | '*' | '?' | '~' => {
                return Err(format!("`{c}`, which this test does not run as the shell would"));
            }
            '>' => return Err("`>` inside a word".to_owned()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    finish(&mut word, &mut redirect, &mut out)?;
    if redirect {
        return Err("`>` with no file".to_owned());
    }
    Ok(out)
}

/// The logical lines of an sh block: `\` at a line's end joins the next; blank lines and
/// lines of comment alone go. Each with its line in the file.
fn logical_lines(block: &Block) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in block.lines.iter().enumerate() {
        let number = block.line + 1 + i;
        let (start, mut text) = pending.take().unwrap_or((number, String::new()));
        match line.strip_suffix('\\') {
            Some(head) => {
                text.push_str(head);
                text.push(' ');
                pending = Some((start, text));
            }
            None => {
                text.push_str(line);
                let t = text.trim();
                if !t.is_empty() && !t.starts_with('#') {
                    out.push((start, t.to_owned()));
                }
            }
        }
    }
    assert!(pending.is_none(), "line {}: an sh block ends with `\\`", block.line);
    out
}

/// What running one file's commands came to.
#[derive(Debug, Default)]
struct Ran {
    commands: usize,
    refusals: usize,
    written: usize,
    skipped: usize,
}

/// What one `referee` command did: its exit code, what it printed on stdout and on stderr.
type Outcome = (u8, Vec<u8>, String);

/// Runs the `referee` command line in this process, as the binary does, in the current folder;
/// `None` when the arguments would open the app.
fn referee(args: &[String]) -> Option<Outcome> {
    let mut all = vec!["referee".to_owned()];
    all.extend(args.iter().cloned());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    match referee::cli::run(all, &mut out, &mut err) {
        referee::cli::Launch::Exit(code) => Some((code, out, String::from_utf8_lossy(&err).into_owned())),
        referee::cli::Launch::Gui(_) | referee::cli::Launch::PlayerDesk(_) => None,
    }
}

/// The working folder is the process's: one file's commands at a time.
static WORKING_FOLDER: Mutex<()> = Mutex::new(());

/// Puts the working folder back when the file's commands are done, however they ended.
struct Within(PathBuf);

impl Drop for Within {
    fn drop(&mut self) {
        let _ = std::env::set_current_dir(&self.0);
    }
}

/// Runs one file's blocks top to bottom in a fresh folder with a fresh database. Stops at the
/// first command that does not do what the guide says, and returns the error.
fn run_file(path: &Path) -> Result<Ran, String> {
    let name = shown(path);
    let text = read(path);
    let folder = tempfile::tempdir().expect("a temporary folder");
    let db = folder.path().join("campaigns.sqlite");
    let _lock = WORKING_FOLDER.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let _back = Within(std::env::current_dir().expect("a working folder"));
    std::env::set_current_dir(folder.path()).expect("the temporary folder can be entered");
    let mut ran = Ran::default();
    for block in blocks(&text) {
        if let Some(file) = &block.file {
            let relative = Path::new(file);
            assert!(
                relative.components().all(|c| matches!(c, std::path::Component::Normal(_))),
                "{name}:{}: file={file} names a file inside the working folder",
                block.line
            );
            let target = folder.path().join(relative);
            std::fs::create_dir_all(target.parent().expect("a file is in a folder")).expect("the block's folder can be made");
            let mut contents = block.lines.join("\n");
            contents.push('\n');
            std::fs::write(target, contents).expect("the block's file can be written");
            ran.written += 1;
            continue;
        }
        if block.lang != "sh" {
            continue;
        }
        for (number, text) in logical_lines(&block) {
            let at = format!("{name}:{number}: `{text}`");
            let line = split(&text).map_err(|e| format!("{at}: {e}"))?;
            // `NAME=value cargo …`: a developer's command with its environment.
            let words: Vec<String> = line.words.iter().skip_while(|w| w.contains('=') && !w.starts_with('-')).cloned().collect();
            let Some((first, rest)) = words.split_first() else { return Err(format!("{at}: no command")) };
            if words.len() != line.words.len() && first != "cargo" {
                return Err(format!("{at}: only a `cargo` line may set its environment"));
            }
            let refused = line.comment.starts_with("refused");
            let (code, stdout, stderr) = match first.as_str() {
                "cargo" => {
                    ran.skipped += 1;
                    continue;
                }
                "echo" => {
                    let mut said = rest.join(" ");
                    said.push('\n');
                    (0, said.into_bytes(), String::new())
                }
                "referee" => {
                    if rest.is_empty() {
                        return Err(format!("{at}: `referee` alone opens the app; show it outside an sh block"));
                    }
                    let mut args = rest.to_vec();
                    // A player's line reads a packet, and no database.
                    let player = args.iter().any(|a| a == "--packet" || a.starts_with("--packet="));
                    if !player && !args.iter().any(|a| a == "--db" || a.starts_with("--db=")) {
                        args.splice(0..0, ["--db".to_owned(), db.display().to_string()]);
                    }
                    let before = std::fs::read(&db).ok();
                    let Some((code, stdout, stderr)) = referee(&args) else {
                        return Err(format!("{at}: this opens the app; show it outside an sh block"));
                    };
                    if refused && std::fs::read(&db).ok() != before {
                        return Err(format!("{at}: a refused command changed the database"));
                    }
                    ran.commands += 1;
                    (code, stdout, stderr)
                }
                other => return Err(format!("{at}: `{other}`: the guide's sh blocks run `referee`, `echo` and `cargo` only")),
            };
            if refused {
                if code == 0 {
                    return Err(format!("{at}: marked refused, but it ran:\n{}", String::from_utf8_lossy(&stdout)));
                }
                if stderr.lines().count() != 1 {
                    return Err(format!("{at}: a refusal is one line, not:\n{stderr}"));
                }
                ran.refusals += 1;
            } else if code != 0 {
                return Err(format!("{at}: exit {code}: {}", stderr.trim_end()));
            }
            if let Some(to) = &line.stdout_to {
                std::fs::write(folder.path().join(to), &stdout).map_err(|e| format!("{at}: {to}: {e}"))?;
            }
        }
    }
    Ok(ran)
}

/// X-06: every command the README and the guide show runs, in the order written, each file
/// against its own fresh database and folder: the commands a chapter shows make sense top to
/// bottom, and the files they read are in the chapter.
#[test]
fn x_06_every_command_the_guide_shows_runs() {
    let mut failures = Vec::new();
    let mut total = 0;
    let mut counts = BTreeMap::new();
    for path in guide_files() {
        match run_file(&path) {
            Ok(ran) => {
                println!(
                    "{}: {} commands ({} of them refused, as the guide says), {} files written, {} cargo lines skipped",
                    shown(&path),
                    ran.commands,
                    ran.refusals,
                    ran.written,
                    ran.skipped
                );
                total += ran.commands;
                counts.insert(shown(&path), ran.commands);
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "commands of the guide that do not do what it says:\n{}", failures.join("\n"));
    // An extraction that found nothing would pass everything: the guide shows hundreds.
    assert!(total >= 150, "only {total} commands found in the guide: {counts:?}");
    for chapter in ["README.md", "docs/command-line.md", "docs/belisarius.md", "docs/battle-night.md", "docs/reports-and-dice.md"] {
        assert!(counts.get(chapter).is_some_and(|n| *n >= 5), "{chapter} runs too few commands: {counts:?}");
    }
}

/// The `type` of every order of one engine, read from the refusal of one it does not have.
fn order_types(read: fn(&str) -> serde_json::Result<()>) -> Vec<String> {
    let e = read(r#"{"type":"no such order"}"#).expect_err("no order is called that");
    let message = e.to_string();
    let list = message.split("expected one of").nth(1).unwrap_or_else(|| panic!("the refusal lists the orders: {message}"));
    let names: Vec<String> = list.split('`').skip(1).step_by(2).map(str::to_owned).collect();
    assert!(names.len() > 20, "the orders read from the refusal: {names:?} ({message})");
    names
}

type MagnaGraeciaOrder = referee_campaign::magna_graecia::order::Order;
type BelisariusOrder = referee_campaign::belisarius::order::Order;

/// Every order written out in the guide, as JSON text: each ```json block holding an order or
/// a list of them, and the JSON word of every `referee order` line. With where it stands.
fn orders_shown() -> Vec<(String, serde_json::Value)> {
    let mut out = Vec::new();
    for path in guide_files() {
        let name = shown(&path);
        for block in blocks(&read(&path)) {
            match block.lang.as_str() {
                "json" => {
                    let text = block.lines.join("\n");
                    let value: serde_json::Value =
                        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}:{}: not JSON: {e}", block.line));
                    let items = match &value {
                        serde_json::Value::Array(items) => items.clone(),
                        other => vec![other.clone()],
                    };
                    for item in items {
                        if item.get("type").is_some() {
                            out.push((format!("{name}:{}", block.line), item));
                        }
                    }
                }
                "sh" => {
                    for (number, text) in logical_lines(&block) {
                        let line = split(&text).unwrap_or_else(|e| panic!("{name}:{number}: {e}"));
                        // An order the guide shows refused may well be no order at all.
                        let refused = line.comment.starts_with("refused");
                        if !refused && line.words.first().is_some_and(|w| w == "referee") && line.words.iter().any(|w| w == "order") {
                            for word in line.words.iter().filter(|w| w.starts_with('{')) {
                                let value = serde_json::from_str(word).unwrap_or_else(|e| panic!("{name}:{number}: not JSON: {e}"));
                                out.push((format!("{name}:{number}"), value));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// X-06: every order the guide writes out — those shown for reading only as well as those it
/// runs — is an order of one of the campaigns, field for field.
#[test]
fn x_06_every_order_the_guide_shows_is_an_order() {
    let orders = orders_shown();
    assert!(orders.len() > 80, "only {} orders found in the guide", orders.len());
    for (at, value) in orders {
        let mg = serde_json::from_value::<MagnaGraeciaOrder>(value.clone());
        let be = serde_json::from_value::<BelisariusOrder>(value.clone());
        assert!(mg.is_ok() || be.is_ok(), "{at}: {value} is no order: {} / {}", mg.unwrap_err(), be.unwrap_err());
    }
}

/// X-06: the command-line chapter shows every order of both campaigns, by its `type`.
#[test]
fn x_06_the_command_line_chapter_shows_every_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chapter = root.join("docs/command-line.md");
    let shown: Vec<String> = orders_shown()
        .into_iter()
        .filter(|(at, _)| at.starts_with("docs/command-line.md:"))
        .filter_map(|(_, v)| v.get("type").and_then(|t| t.as_str()).map(str::to_owned))
        .collect();
    let mut missing = Vec::new();
    for (campaign, types) in [
        ("Magna Graecia", order_types(|j| serde_json::from_str::<MagnaGraeciaOrder>(j).map(drop))),
        ("Belisarius", order_types(|j| serde_json::from_str::<BelisariusOrder>(j).map(drop))),
    ] {
        for t in types {
            if !shown.contains(&t) {
                missing.push(format!("{campaign}: {t}"));
            }
        }
    }
    assert!(missing.is_empty(), "{} shows no example of: {}", chapter.display(), missing.join(", "));
}

/// A heading's anchor as GitHub makes it: lower case, letters, digits, `-` and `_` kept,
/// spaces made `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of a text outside its code blocks, the fences left out.
fn prose(text: &str) -> impl Iterator<Item = &str> {
    let mut inside = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            inside = !inside;
            return false;
        }
        !inside
    })
}

fn anchors(text: &str) -> Vec<String> {
    prose(text).filter(|line| line.starts_with('#')).map(|line| anchor(line.trim_start_matches('#'))).collect()
}

/// Every `](target)` of a text outside its code blocks.
fn links(text: &str) -> Vec<String> {
    prose(text).flat_map(|line| line.split("](").skip(1)).filter_map(|part| part.find(')').map(|end| part[..end].to_owned())).collect()
}

/// The README and the chapters link to files that are there and headings that are there, and
/// every picture of `docs/` is shown somewhere.
#[test]
fn x_06_the_guides_links_lead_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut pictures_shown = Vec::new();
    let mut count = 0;
    for path in guide_files() {
        let text = read(&path);
        let folder = path.parent().expect("a file is in a folder");
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") || link.starts_with("mailto:") {
                continue;
            }
            count += 1;
            let (file, fragment) = match link.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() { path.clone() } else { folder.join(file) };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", shown(&path)));
                continue;
            }
            if target.extension().is_some_and(|x| x == "png") {
                pictures_shown.push(target.canonicalize().expect("the picture is there"));
            }
            if let Some(fragment) = fragment
                && !anchors(&read(&target)).iter().any(|a| a == fragment)
            {
                broken.push(format!("{}: {link}: no such heading", shown(&path)));
            }
        }
    }
    assert!(count > 20, "only {count} links found");
    assert!(broken.is_empty(), "links that lead nowhere:\n{}", broken.join("\n"));
    for picture in std::fs::read_dir(root.join("docs")).expect("docs/ can be listed") {
        let picture = picture.expect("a folder entry").path();
        if picture.extension().is_some_and(|x| x == "png") {
            let picture = picture.canonicalize().expect("the picture is there");
            assert!(pictures_shown.contains(&picture), "{} is shown nowhere in the guide", shown(&picture));
        }
    }
}

/// The reader of the guide's sh blocks splits a line as the shell would, and refuses what it
/// would not run as the shell does.
#[test]
fn x_06_the_guides_lines_are_split_as_the_shell_splits_them() {
    let line = split(r#"referee order "Motya, 398 BC" '{"type":"end_phase"}' --value 6 > out.txt   # refused: no"#).unwrap();
    assert_eq!(line.words, ["referee", "order", "Motya, 398 BC", r#"{"type":"end_phase"}"#, "--value", "6"]);
    assert_eq!(line.stdout_to.as_deref(), Some("out.txt"));
    assert_eq!(line.comment, "refused: no");
    let line = split(r##"echo "a \"quoted\" word"#x 'it''s'"##).unwrap();
    assert_eq!(line.words, ["echo", r##"a "quoted" word#x"##, "its"]);
    for shell in ["referee list | head", "referee list; referee list", "referee show $NAME", "referee list > a > b", "referee list >"] {
        assert!(split(shell).is_err(), "{shell} is split");
    }
    let block = Block {
        lang: "sh".to_owned(),
        file: None,
        line: 10,
        lines: vec!["# a comment".to_owned(), "referee pack A 1 \\".to_owned(), "  --out packs/".to_owned(), String::new()],
    };
    assert_eq!(logical_lines(&block), [(12, "referee pack A 1    --out packs/".to_owned())]);
    let found = blocks("text\n  ```json file=a.json\n  {}\n  ```\n```sh\nreferee list\n```\n");
    assert_eq!(found.len(), 2);
    assert_eq!((found[0].lang.as_str(), found[0].file.as_deref(), found[0].lines.clone()), ("json", Some("a.json"), vec!["{}".to_owned()]));
    assert_eq!((found[1].line, found[1].lines.clone()), (5, vec!["referee list".to_owned()]));
}
