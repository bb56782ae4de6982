//! What a run says on stderr, whatever the format of its stdout: what generating data found
//! (the warnings, the cases not made, what is invalid, the files no rule describes), for
//! `generate`'s packages and for the data `verify` generates first, with `verify`'s note of what
//! was made; and the packages `timelimit` could not read. Always in the stack
//! [`super::reporter`] builds, beside the stdout format.
//!
//! Here too, what a front-end says on stderr of its own, outside any run's events: its notes,
//! warnings and errors, a line each ([`note`], [`warning`], [`error`], [`bare`]), escaped here,
//! so that no module outside `reporting` prints. Plain, as every line on stderr is (`main`'s
//! error too): colour is for the report on stdout.
//!
//! Notes are for the person at the terminal: a stderr that cannot be written loses them, never
//! the run (the reports on stdout and in files are what a run is judged by).

use std::fmt::Display;
use std::io::Write;

use super::events::{Detail, Event, Finished, RunKind};
use super::generated::DataMade;
use super::{ReportError, Reporter};
use crate::escape::{visible, visible_line};

pub struct Notes<W: Write> {
    err: W,
}

impl<W: Write> Notes<W> {
    pub fn new(err: W) -> Self {
        Notes { err }
    }
}

/// Says `message` on stderr as a note: `note: ` and the message.
pub fn note(message: impl Display) {
    say(Some("note"), &message);
}

/// Says `message` on stderr as a warning: `warning: ` and the message.
pub fn warning(message: impl Display) {
    say(Some("warning"), &message);
}

/// Says `message` on stderr as an error: `error: ` and the message.
pub fn error(message: impl Display) {
    say(Some("error"), &message);
}

/// Says `message` on stderr as it is, labelled by its own words (a prompt, a script's verdict).
pub fn bare(message: impl Display) {
    say(None, &message);
}

/// Lost with stderr, as the module comment says.
fn say(label: Option<&str>, message: &dyn Display) {
    let mut err = std::io::stderr().lock();
    let _ = err
        .write_all(said(label, message).as_bytes())
        .and_then(|()| err.flush());
}

/// The line `message` is said as, after its `label`: its control characters escaped, line feeds
/// kept (a name that must stay on its line is escaped by its caller, with `visible_line`).
fn said(label: Option<&str>, message: &dyn Display) -> String {
    let text = message.to_string();
    let text = visible(&text);
    match label {
        Some(label) => format!("{label}: {text}\n"),
        None => format!("{text}\n"),
    }
}

/// What generating found, a line each (several for a long message).
fn details(made: &DataMade<'_>) -> String {
    let mut text = String::new();
    for warning in &made.warnings {
        text += &said(Some("warning"), warning);
    }
    for (cases, why) in by_reason(&made.failed) {
        text += &format!("FAIL {}: {}\n", named(&cases), visible(&why));
    }
    for fault in made.invalid {
        text += &format!("INVALID {}\n", visible(&fault.to_string()));
    }
    if !made.unlisted.is_empty() {
        let verb = match made.removed {
            true => "removed",
            false => "kept (--clean removes them)",
        };
        let count = made.unlisted.len();
        text += &format!("{count} files no rule of generators.yaml describes, {verb}:\n");
        for file in made.unlisted {
            text += &format!("  {}\n", visible_line(file));
        }
    }
    text
}

/// The cases not made, grouped by why (in the order each reason first comes): a generator that
/// cannot be built or read fails every case it makes for one reason, said once.
fn by_reason(failed: &[(&str, super::generated::Said<'_>)]) -> Vec<(Vec<String>, String)> {
    let mut groups: Vec<(Vec<String>, String)> = vec![];
    for (case, why) in failed {
        let why = why.to_string();
        match groups.iter_mut().find(|(_, said)| *said == why) {
            Some((cases, _)) => cases.push(visible_line(case).into_owned()),
            None => groups.push((vec![visible_line(case).into_owned()], why)),
        }
    }
    groups
}

/// Cases by name: up to three, else the first two and how many more.
fn named(cases: &[String]) -> String {
    match cases {
        [_, _, _, _, ..] => format!(
            "{}, {} and {} more cases",
            cases[0],
            cases[1],
            cases.len() - 2
        ),
        _ => cases.join(", "),
    }
}

impl<W: Write> Reporter for Notes<W> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        let text = match event {
            Event::Finished(Finished {
                detail: Detail::Generated(made),
                ..
            }) => details(made),
            Event::Generated(made) => details(made) + &format!("generated {}\n", made.counts()),
            // `timelimit`'s packages that could not be read; `verify` says its own in its
            // report.
            Event::RunStarted(RunKind::Timelimit { unreadable }) => unreadable
                .iter()
                .map(|why| said(Some("error"), &visible_line(&why.to_string())))
                .collect(),
            _ => return Ok(()),
        };
        // Lost with stderr, as the module comment says.
        let _ = self
            .err
            .write_all(text.as_bytes())
            .and_then(|()| self.err.flush());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_said_is_labelled_and_its_control_characters_escaped() {
        assert_eq!(
            said(Some("note"), &"`a\x1b[2Jb` skipped"),
            "note: `a\\x1b[2Jb` skipped\n"
        );
        assert_eq!(
            said(Some("warning"), &"bell\x07 and\r return"),
            "warning: bell\\x07 and\\r return\n"
        );
        // Line feeds kept, for messages of several lines; nothing else added.
        assert_eq!(said(None, &"one\ntwo"), "one\ntwo\n");
    }

    #[test]
    fn what_generating_found_is_said_line_by_line() {
        let why = "the generator exited with status 1";
        let warning = "a warning";
        let unlisted = vec!["data/secret/old.in".to_string()];
        let made = DataMade {
            package: "pkg",
            made: 2,
            unchanged: 1,
            included: 0,
            failed: vec![("secret/3", &why)],
            invalid: &[],
            unlisted: &unlisted,
            removed: false,
            warnings: vec![&warning],
        };
        let mut err = Vec::new();
        Notes::new(&mut err)
            .report(&Event::Generated(&made))
            .unwrap();
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "warning: a warning\nFAIL secret/3: the generator exited with status 1\n1 files no \
             rule of generators.yaml describes, kept (--clean removes them):\n  \
             data/secret/old.in\ngenerated pkg: 2 made, 1 unchanged, 0 included, 1 failed: \
             FAILED\n"
        );
    }

    #[test]
    fn cases_not_made_for_one_reason_are_said_once() {
        let (unread, broken) = (
            "generator `g` cannot be read",
            "the generator exited with 1",
        );
        let failed: Vec<(&str, &dyn std::fmt::Display)> = vec![
            ("secret/1", &unread),
            ("secret/2", &broken),
            ("secret/3", &unread),
            ("secret/4", &unread),
            ("secret/5", &unread),
            ("secret/6", &broken),
        ];
        let made = DataMade {
            package: "pkg",
            made: 0,
            unchanged: 0,
            included: 0,
            failed,
            invalid: &[],
            unlisted: &[],
            removed: false,
            warnings: vec![],
        };
        assert_eq!(
            details(&made),
            "FAIL secret/1, secret/3 and 2 more cases: generator `g` cannot be read\n\
             FAIL secret/2, secret/6: the generator exited with 1\n"
        );
    }
}
