//! `validate`'s human view: a line per input of a built-in problem that is not what its group
//! wants (every input under `-v`), a package's findings as `name: ...` lines after its inputs
//! (and what was checked, under `-v`), then how many inputs were validated and the closing line.

use std::fmt::Write as _;

use super::{Look, Verbosity};
use crate::escape::visible_line;
use crate::files::beneath::TreePath;
use crate::reporting::validated::{InputFinding, Limits, PackageValidation};
use crate::reporting::{plural, Summary};

/// A line for an input, when there is one to print: under `-v` the valid ones too. A package's
/// inputs have none: its findings are the package's.
pub(super) fn input(input: &TreePath, finding: &InputFinding, look: &Look) -> String {
    let path = visible_line(&input.path().display().to_string()).into_owned();
    let verbose = look.verbosity == Verbosity::Verbose;
    let line = match finding {
        InputFinding::Valid(limits) if verbose => format!("ok    {path} ({})", Limits(*limits)),
        InputFinding::Rejected(error) if verbose => {
            format!("ok    {path}: rejected as intended: {error}")
        }
        InputFinding::Valid(_)
        | InputFinding::Rejected(_)
        | InputFinding::Failed
        | InputFinding::Unchecked => return String::new(),
        InputFinding::Invalid(_) | InputFinding::Accepted(_) | InputFinding::Unreadable(_) => {
            let message = finding.message().unwrap_or_default();
            format!("{path}: {message}")
        }
    };
    format!("{}\n", visible_line(&line))
}

/// A package's lines: why it could not be read, each error and what was not checked; under
/// `-v`, what was checked.
pub(super) fn package(validation: &PackageValidation, look: &Look) -> String {
    let name = visible_line(&validation.name);
    let mut text = String::new();
    if let Some(why) = &validation.unreadable {
        let _ = writeln!(text, "{}", visible_line(&why.to_string()));
        return text;
    }
    for error in &validation.errors {
        let _ = writeln!(text, "{name}: {}", visible_line(&error.to_string()));
    }
    for unchecked in &validation.unchecked {
        let unchecked = unchecked.to_string();
        let _ = writeln!(text, "{name}: not checked: {}", visible_line(&unchecked));
    }
    if look.verbosity == Verbosity::Verbose {
        let _ = writeln!(text, "ok    {name}: {}", visible_line(&validation.summary));
    }
    text
}

/// `Validated N inputs (D deliberately invalid).`, the packages that are not valid, the inputs
/// Ctrl-C left unvalidated, and the closing line.
pub(super) fn finish(summary: &Summary, deliberate: usize, cancelled: bool) -> String {
    let mut text = format!(
        "Validated {} inputs ({deliberate} deliberately invalid).\n",
        summary.total()
    );
    // What fails a package but no input of it (a validator that does not compile, an output
    // case, a package that cannot be read) is said above; the closing line counts inputs.
    let packages = summary.totals.packages.failed;
    if packages > 0 {
        let _ = writeln!(
            text,
            "{packages} {} not valid (above).",
            plural(packages, "package")
        );
    }
    if cancelled {
        let _ = writeln!(
            text,
            "Cancelled (Ctrl-C): {} {} not validated.",
            summary.skipped,
            plural(summary.skipped, "input")
        );
    }
    text + &summary.closing_line() + "\n"
}
