//! Which version of a language's tool this run builds and runs with, for the reports and
//! `grundy languages`: the first tool of the language (the compiler, or the interpreter) asked
//! once per run and tool, started contained like a compiler (its installation shown, nothing
//! else), with the arguments the language table gives (`--version`); the first line it says.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use grundy_sandbox::{Limits, Program as Command, Spec};

use crate::escape::visible_line;
use crate::package::languages::Language;
use crate::package::programs::{Kind, Program};
use crate::package::toolchains::{self, NotFound};

/// What a tool says of its version is cut to this many characters.
const MAX_CHARS: usize = 120;

/// What asking a language's tool found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Version {
    /// The tool, as it is started, and the first line it printed.
    Said { tool: String, line: String },
    /// The tool is not found: where it was looked for.
    Missing(NotFound),
    /// It was found but said nothing, or could not be started: why.
    Unknown { tool: String, why: String },
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Version::Said { tool, line } => write!(f, "{tool}: {line}"),
            Version::Missing(why) => write!(f, "missing: {why}"),
            Version::Unknown { tool, why } => write!(f, "{tool}: version unknown ({why})"),
        }
    }
}

/// The tool a program's language is built or run with, and its version, as this run has them
/// (asked once per tool and run); `None` for a program of scripts or of no language.
pub fn of_program(program: &Program) -> Option<String> {
    match &program.kind {
        Kind::Source { language, .. } => Some(version(language).to_string()),
        _ => None,
    }
}

/// The version of `language`'s first tool, asked the first time only.
pub fn version(language: &Language) -> Version {
    static ASKED: Mutex<Option<HashMap<String, Version>>> = Mutex::new(None);
    let Some(tool) = language.tools.first() else {
        return Version::Unknown {
            tool: String::new(),
            why: "the language names no tool".into(),
        };
    };
    let key = format!("{tool} {}", language.version.join(" "));
    if let Some(known) = ASKED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return known.clone();
    }
    let found = ask(tool, language.version, language.reserves_address_space());
    ASKED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(key, found.clone());
    found
}

fn ask(tool: &str, args: &[&str], reserves_address_space: bool) -> Version {
    let located = match toolchains::locate(tool) {
        Ok(located) => located,
        Err(why) => return Version::Missing(why),
    };
    let mut argv = vec![located.command.clone()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let command = Command {
        show: located.show,
        reserves_address_space,
        ..Command::new(&argv)
    };
    let limits = Limits {
        time: Duration::from_secs(10),
        wall: Limits::wall_for(Duration::from_secs(10)),
        memory_bytes: 4096 << 20,
        output_bytes: 1 << 20,
    };
    let unknown = |why: String| Version::Unknown {
        tool: located.command.clone(),
        why,
    };
    let outcome = match grundy_sandbox::run(Spec::new(&command, &limits)) {
        Ok(outcome) => outcome,
        Err(error) => return unknown(error.to_string()),
    };
    // The JVM's tools say it on stderr.
    let said = [&outcome.stdout, &outcome.stderr]
        .into_iter()
        .find_map(|bytes| {
            String::from_utf8_lossy(bytes)
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty())
                .map(|line| {
                    visible_line(&line.chars().take(MAX_CHARS).collect::<String>()).into_owned()
                })
        });
    match said {
        Some(line) => Version::Said {
            tool: located.command.clone(),
            line,
        },
        None => unknown(format!("it printed nothing ({:?})", outcome.end)),
    }
}

#[cfg(test)]
#[path = "versions_tests.rs"]
mod tests;
