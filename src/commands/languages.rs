//! `grundy languages`: the language table as this run has it (Python 3 by `--python3`, else
//! PyPy where it is installed), each language with its extensions, the version of its tool or
//! the tool that is missing and where it was looked for, and its compile and run commands.

use std::io::Write;
use std::process::ExitCode;

use super::CommandError;
use crate::build::versions::version;
use crate::package::languages::{table, Language};
use crate::reporting::LostReport;

pub fn run() -> Result<ExitCode, CommandError> {
    let mut out = std::io::stdout().lock();
    for language in table() {
        write!(out, "{}", describe(language)).map_err(LostReport::from)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A language's lines: its code, name and extensions, then its tool, its compile (or check)
/// command and its run command, the templates' `{files}`, `{main}`, `{exe}`, `{build}`,
/// `{class}` and `{heap}` as the table writes them.
fn describe(language: &Language) -> String {
    let extensions: Vec<String> = language
        .extensions
        .iter()
        .map(|e| format!(".{e}"))
        .collect();
    let mut text = format!(
        "{:<11} {} ({})\n  tool     {}\n",
        language.code,
        language.name,
        extensions.join(" "),
        version(language)
    );
    if let Some(compile) = language.compile {
        let verb = if language.runs_sources() {
            "check"
        } else {
            "compile"
        };
        text += &format!("  {verb:<8} {}\n", words(compile));
    }
    text += &format!("  run      {}\n", words(language.run));
    text
}

/// A template's words, one space apart.
fn words(template: &str) -> String {
    template.split_whitespace().collect::<Vec<_>>().join(" ")
}
