//! DOMjudge's own files in a package root: `.timelimit` (the time limit in seconds, alone) and
//! `domjudge-problem.ini` (`key = value` lines: `timelimit`, `name`, `special_compare`, ...).
//! Both are older than `limits.time_limit`, and DOMjudge's example packages and many regional
//! archives still carry them.
//!
//! Precedence is DOMjudge's, whose files they are (its problem import): `problem.yaml`'s
//! `limits.time_limit` wins, then `domjudge-problem.ini`'s `timelimit`, then `.timelimit`; and
//! `problem.yaml`'s `name` over the ini's. A value that loses to a different one is a warning at
//! its line (DOMjudge refuses a `.timelimit` that disagrees with the limit in force; BAPCtools
//! warns that both files are deprecated and no longer reads them). The ini's `special_compare`
//! and `special_run` name executables kept in DOMjudge's database, not files of the package: a
//! warning says they are not used; keys that only matter to a contest's scoreboard (`color`,
//! `points`, ...) are read and left alone.
//!
//! The ini is read as PHP's `parse_ini_string` reads it, to the extent packages use it: `;`
//! comments, `[section]` headers (passed over), values bare, or quoted with `"` (which may span
//! lines) or `'`. A file DOMjudge could not parse is ignored with a located warning, as DOMjudge
//! ignores it; a `timelimit` that is no time limit (a number of seconds, from a millisecond to a
//! day: [`bounds::SECONDS`]) is a located error, as is a `.timelimit` that is none. Each file is
//! read up to a small cap.

use std::io::Read;
use std::time::Duration;

use super::metadata::Metadata;
use super::yaml::Diagnostic;
use crate::bounds;
use crate::escape::visible_line;
use crate::files::beneath::{Tree, TreePath};

/// At most this much of either file is read; larger is an error.
const MAX_BYTES: u64 = 64 * 1024;

pub use super::limits::{INI_FILE, TIMELIMIT_FILE};

/// The keys DOMjudge's problem import reads from the ini.
const INI_KEYS: &[&str] = &[
    "name",
    "timelimit",
    "special_run",
    "special_compare",
    "externalid",
    "allow_submit",
    "allow_judge",
    "points",
    "color",
    "short-name",
];

/// One `key = value` of the ini, where its value starts, and the line it ends on (a quoted
/// value may span lines).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub value: String,
    pub line: usize,
    pub column: usize,
    pub last_line: usize,
}

/// A time limit one of the files (or `problem.yaml`) sets, and where it is said.
struct Said<'a> {
    seconds: Duration,
    /// `problem.yaml's limits.time_limit`, for messages.
    source: &'static str,
    file: &'static str,
    /// The file and line (1-based) and column of the value; `None` for `problem.yaml`'s.
    at: Option<(&'a TreePath, usize, usize)>,
}

/// Reads `.timelimit` and `domjudge-problem.ini` of `tree`, if there, into `metadata` by the
/// precedence above.
pub fn apply(
    tree: &Tree,
    metadata: &mut Metadata,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Diagnostic> {
    let timelimit_file = tree.join(TIMELIMIT_FILE);
    let ini_file = tree.join(INI_FILE);
    let mut said = vec![];
    if let Some(seconds) = metadata.limits.time_limit {
        said.push(Said {
            seconds,
            source: "problem.yaml's limits.time_limit",
            file: "problem.yaml",
            at: None,
        });
    }
    if let Some(text) = read_capped(&ini_file)? {
        let entries = parse_ini(&text).unwrap_or_else(|(line, column, why)| {
            warnings.push(located(
                &ini_file,
                line,
                column,
                format!("{why}; DOMjudge ignores a file it cannot parse, and so does grundy"),
            ));
            vec![]
        });
        for entry in &entries {
            if let Some(seconds) = ini_entry(metadata, entry, &ini_file, warnings)? {
                said.push(Said {
                    seconds,
                    source: "domjudge-problem.ini's timelimit",
                    file: INI_FILE,
                    at: Some((&ini_file, entry.line, entry.column)),
                });
            }
        }
    }
    if let Some(text) = read_capped(&timelimit_file)? {
        let (seconds, line, column) = timelimit_value(&timelimit_file, &text)?;
        said.push(Said {
            seconds,
            source: TIMELIMIT_FILE,
            file: TIMELIMIT_FILE,
            at: Some((&timelimit_file, line, column)),
        });
    }
    let Some(winner) = said.first() else {
        return Ok(());
    };
    metadata.limits.time_limit = Some(winner.seconds);
    metadata.limits.time_limit_file = winner.file;
    for loser in &said[1..] {
        let Some((file, line, column)) = loser.at else {
            continue;
        };
        if loser.seconds != winner.seconds {
            warnings.push(located(
                file,
                line,
                column,
                format!(
                    "{} s is overruled by {} {} s (DOMjudge's precedence; DOMjudge refuses a \
                     package whose .timelimit disagrees with the limit in force)",
                    loser.seconds.as_secs_f64(),
                    winner.source,
                    winner.seconds.as_secs_f64()
                ),
            ));
        }
    }
    Ok(())
}

/// Takes one ini entry into `metadata` (the name) or `warnings`; a time limit is returned.
fn ini_entry(
    metadata: &mut Metadata,
    entry: &Entry,
    file: &TreePath,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Option<Duration>, Diagnostic> {
    let at = |message: String| located(file, entry.line, entry.column, message);
    let value = visible_line(&entry.value);
    match entry.key.as_str() {
        "timelimit" => {
            return time_limit(&entry.value).map(Some).ok_or_else(|| {
                at(format!(
                    "timelimit must be {}, found `{value}`",
                    bounds::SECONDS
                ))
            })
        }
        "name" => match metadata.display_name() {
            None => {
                metadata.name.insert("en".into(), entry.value.clone());
            }
            Some(name) if name != entry.value => warnings.push(at(format!(
                "name `{value}` is overruled by problem.yaml's name `{}`",
                visible_line(name)
            ))),
            Some(_) => {}
        },
        "special_compare" | "special_run" => warnings.push(at(format!(
            "{} names a DOMjudge executable (`{value}`), kept in DOMjudge's database and not in \
             the package; not used (a custom checker belongs in output_validators/)",
            entry.key
        ))),
        key if INI_KEYS.contains(&key) => {}
        key => warnings.push(at(format!(
            "`{}` is not a key DOMjudge reads; ignored{}",
            visible_line(key),
            crate::suggest::did_you_mean(key, INI_KEYS.iter().copied())
        ))),
    }
    Ok(None)
}

pub fn located(file: &TreePath, line: usize, column: usize, message: String) -> Diagnostic {
    Diagnostic {
        file: file.path().to_path_buf(),
        line,
        column,
        message,
    }
}

/// The file's text, when it is there; over [`MAX_BYTES`] or not UTF-8 is an error.
pub fn read_capped(file: &TreePath) -> Result<Option<String>, Diagnostic> {
    if !file.is_file()? {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    // A file growing after it was looked at is still read no further than the cap.
    file.open()?
        .take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Diagnostic::file(file.path(), format!("cannot read it: {e}")))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(Diagnostic::file(
            file.path(),
            format!(
                "too large: over the {} KiB grundy reads of this file",
                MAX_BYTES / 1024
            ),
        ));
    }
    String::from_utf8(bytes).map(Some).map_err(|e| {
        let before = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let (line, column) = line_and_column(before);
        located(file, line, column, "not UTF-8 text".into())
    })
}

/// The line and column (1-based, in bytes) just after `before`.
fn line_and_column(before: &[u8]) -> (usize, usize) {
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, before.len() - start + 1)
}

/// A number of seconds as DOMjudge's `is_numeric` takes it (`2`, `2.5`, `1e1`), when it is a
/// time limit ([`bounds::SECONDS`]).
fn time_limit(text: &str) -> Option<Duration> {
    let text = text.trim();
    // `inf`, `nan` and Rust's other spellings PHP does not take are refused here.
    let numeric = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    bounds::seconds(text.parse::<f64>().ok().filter(|_| numeric)?)
}

/// `.timelimit`'s one number (white space around it allowed), and where it starts.
fn timelimit_value(file: &TreePath, text: &str) -> Result<(Duration, usize, usize), Diagnostic> {
    let leading = text.len() - text.trim_start().len();
    let (line, column) = line_and_column(&text.as_bytes()[..leading]);
    time_limit(text)
        .map(|seconds| (seconds, line, column))
        .ok_or_else(|| {
            let shown: String = text.trim().chars().take(40).collect();
            located(
                file,
                line,
                column,
                format!(
                    "must hold the time limit, {}, found `{}`",
                    bounds::SECONDS,
                    visible_line(&shown)
                ),
            )
        })
}

/// The `key = value` entries of an ini text in order, or where and why it is no ini PHP reads.
pub fn parse_ini(text: &str) -> Result<Vec<Entry>, (usize, usize, String)> {
    let mut entries = vec![];
    let lines: Vec<&str> = text.split('\n').collect();
    let mut index = 0;
    while index < lines.len() {
        let number = index + 1;
        let line = lines[index].strip_suffix('\r').unwrap_or(lines[index]);
        index += 1;
        let content = line.trim_start();
        let indent = line.len() - content.len();
        if content.is_empty() || content.starts_with(';') || content.starts_with('#') {
            continue;
        }
        if content.starts_with('[') {
            if !content.trim_end().ends_with(']') {
                return Err((
                    number,
                    indent + 1,
                    "a section header without its `]`".into(),
                ));
            }
            continue;
        }
        let Some(equals) = content.find('=') else {
            return Err((
                number,
                indent + 1,
                "a line that is neither `key = value`, a `[section]` nor a `;` comment".into(),
            ));
        };
        let key = content[..equals].trim_end();
        if key.is_empty() {
            return Err((number, indent + 1, "a value without a key".into()));
        }
        let after = &content[equals + 1..];
        let value_text = after.trim_start();
        let column = indent + equals + 1 + (after.len() - value_text.len()) + 1;
        let value = match value_text.chars().next() {
            Some(quote @ ('"' | '\'')) => {
                // A quoted value runs to its closing quote, over lines if need be.
                let mut value = String::new();
                let mut rest = &value_text[1..];
                loop {
                    if let Some(end) = rest.find(quote) {
                        value.push_str(&rest[..end]);
                        let tail = rest[end + 1..].trim();
                        if !(tail.is_empty() || tail.starts_with(';')) {
                            return Err((number, column, "text after a quoted value".into()));
                        }
                        break;
                    }
                    if index >= lines.len() {
                        return Err((
                            number,
                            column,
                            format!("a value opened with {quote} is never closed"),
                        ));
                    }
                    value.push_str(rest);
                    value.push('\n');
                    rest = lines[index];
                    index += 1;
                }
                value
            }
            _ => {
                let bare = value_text.split(';').next().unwrap_or("").trim();
                // PHP's words for booleans and nothing.
                match bare.to_ascii_lowercase().as_str() {
                    "true" | "on" | "yes" => "1".to_string(),
                    "false" | "off" | "no" | "none" | "null" => String::new(),
                    _ => bare.to_string(),
                }
            }
        };
        entries.push(Entry {
            key: key.to_string(),
            value,
            line: number,
            column,
            // Past every line the value took.
            last_line: index,
        });
    }
    Ok(entries)
}

#[cfg(test)]
#[path = "domjudge_tests.rs"]
mod tests;
