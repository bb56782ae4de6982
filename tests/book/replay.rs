//! Replaying one console run a page of the book shows: its command line and the lines and
//! exit status shown after it, the command run in a project, and the two compared with what
//! varies from run to run (times, sizes, job counts) masked.

use std::path::Path;

use super::Block;
use crate::common::*;

/// One run a console block shows: the command line after `$ `, the lines shown after it, the
/// exit status shown (`[exit N]`, else 0).
pub(super) struct Run {
    pub(super) command: String,
    pub(super) shown: Vec<String>,
    pub(super) status: i32,
}

pub(super) fn runs(block: &Block) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for line in &block.lines {
        if let Some(command) = line.strip_prefix("$ ") {
            runs.push(Run {
                command: command.to_string(),
                shown: Vec::new(),
                status: 0,
            });
        } else {
            let run = runs
                .last_mut()
                .unwrap_or_else(|| panic!("line {}: a console block starts with `$ `", block.line));
            match line
                .strip_prefix("[exit ")
                .and_then(|s| s.strip_suffix(']'))
            {
                Some(status) => run.status = status.parse().unwrap(),
                None => run.shown.push(line.to_string()),
            }
        }
    }
    runs
}

/// A line as compared: times, sizes and job counts vary from run to run and from machine to
/// machine, so every decimal number is `#`, and so is the count in `with N jobs` and in JSON's
/// `"jobs":N`.
pub(super) fn normal(line: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = line.trim_end().chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let digits = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let fraction = if digits > 0 && chars.get(i + digits) == Some(&'.') {
            chars[i + digits + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count()
        } else {
            0
        };
        if fraction > 0 {
            out.push('#');
            i += digits + 1 + fraction;
        } else if digits > 0 {
            out.extend(&chars[i..i + digits]);
            i += digits;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    if let Some(start) = out.find("\"jobs\":") {
        let digits = out[start + 7..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        out.replace_range(start + 7..start + 7 + digits, "#");
    }
    for job in [" jobs", " job"] {
        if let Some(end) = out.find(job) {
            if let Some(start) = out[..end].rfind("with ") {
                if out[start + 5..end].chars().all(|c| c.is_ascii_digit()) {
                    out.replace_range(start + 5..end + job.len(), "# jobs");
                    break;
                }
            }
        }
    }
    out
}

/// Whether `actual` is what `shown` shows: the same lines in order, a shown `...` standing for
/// any number of lines.
pub(super) fn matches(shown: &[String], actual: &[String]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a == first && matches(rest, more)),
    }
}

/// Runs one command of a console block in `project`: `grundy ARGS`, optionally `| tail -N`, or
/// `cat FILE`, in `folder` below the project. Returns the lines printed (stdout, then stderr without the machine's notes on
/// containment unless they are shown) and the exit status (a pipe's is `tail`'s, as in a shell).
/// The binary under test is built with the test-only problems (`test-*`, the `test-problems`
/// feature), which no user's build has: the lines `list` prints for them are left out.
pub(super) fn replay(project: &Project, folder: &Path, run: &Run) -> (Vec<String>, i32) {
    let (command, tail) = match run.command.split_once(" | tail -") {
        Some((command, n)) => (command, Some(n.parse::<usize>().unwrap())),
        None => (run.command.as_str(), None),
    };
    let words = shell_words::split(command).unwrap();
    if words[0] == "cat" {
        let text = project.read(&folder.join(&words[1]).display().to_string());
        return (text.lines().map(normal).collect(), 0);
    }
    assert_eq!(words[0], "grundy", "`{command}` cannot be replayed");
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let output = project
        .command(&args)
        .current_dir(project.path().join(folder))
        .env_remove("COLUMNS")
        .timeout(NO_HANG)
        .output()
        .unwrap();
    let mut lines: Vec<String> = stdout(&output)
        .lines()
        .filter(|l| !(words[1] == "list" && l.starts_with("test-")))
        .map(normal)
        .collect();
    if let Some(n) = tail {
        lines = lines.split_off(lines.len().saturating_sub(n));
    }
    let shown: Vec<String> = run.shown.iter().map(|l| normal(l)).collect();
    lines.extend(
        stderr(&output)
            .lines()
            .map(normal)
            .filter(|l| !l.starts_with("note: ") || shown.contains(l)),
    );
    let status = if tail.is_some() { 0 } else { code(&output) };
    (lines, status)
}
