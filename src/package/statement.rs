//! Whether a package has a problem statement: BAPCtools warns of a package without one, and a
//! package is not ready for a contest without it, so grundy warns too (an error under
//! `verify -e`). grundy reads no statement; this only looks for one.

use std::path::Path;

use super::programs;
use super::version::FormatVersion;
use super::yaml::Diagnostic;
use crate::files::beneath::Tree;

/// The statement's folder: `problem_statement/` in the legacy format, `statement/` after.
fn folder(version: FormatVersion) -> &'static str {
    match version.is_legacy() {
        true => "problem_statement",
        false => "statement",
    }
}

/// Warns when neither statement folder holds a `problem.tex`, `problem.<lang>.tex` (or `.md`,
/// `.pdf`): the warning names the version's folder. A folder that cannot be listed (a link
/// leading outside the package) is warned of as it is: grundy needs no statement to judge.
pub fn warn_if_missing(
    tree: &Tree,
    root: &Path,
    version: FormatVersion,
    warnings: &mut Vec<Diagnostic>,
) {
    for name in ["statement", "problem_statement"] {
        match programs::listing(&tree.join(name)) {
            Ok(found) if found.iter().any(|entry| is_statement(entry.path())) => return,
            Ok(_) => {}
            Err(why) => return warnings.push(why),
        }
    }
    let expected = folder(version);
    warnings.push(Diagnostic::file(
        &root.join(expected),
        format!(
            "no problem statement (`{expected}/problem.en.tex`, `.md` or `.pdf`): the package \
             cannot be used in a contest without one"
        ),
    ));
}

/// `problem.tex`, `problem.en.tex`, `problem.md`, `problem.pdf` and the like.
fn is_statement(file: &Path) -> bool {
    let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(rest) = name.strip_prefix("problem.") else {
        return false;
    };
    let extension = rest.rsplit('.').next().unwrap_or_default();
    matches!(extension, "tex" | "md" | "pdf")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_a_problem_file_of_a_statement_format() {
        for name in [
            "problem.tex",
            "problem.en.tex",
            "problem.nl.md",
            "problem.pdf",
        ] {
            assert!(is_statement(Path::new(name)), "{name}");
        }
        for name in [
            "problem.txt",
            "solution.en.tex",
            "problemX.tex",
            "problem.en.tex.bak",
        ] {
            assert!(!is_statement(Path::new(name)), "{name}");
        }
    }
}
