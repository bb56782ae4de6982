//! `check --bless`: writing the built-in solver's output (or, for a deliberately invalid input, its
//! error message) as a case's expected file, when the file is missing or the checker does not
//! accept the output. Nothing is written for a failed run.
//!
//! Each file is written through the fixture store ([`crate::files::store`]), under the fixtures
//! root's exclusive lock, and only if the case is still what was judged: the input is there, and
//! the expected file is missing as it was (and no other expected file has appeared beside it) or
//! holds the same bytes. So `--bless` racing `add` or another `--bless` never clobbers a file it
//! did not judge, never leaves an expected file without input, and never replaces anything but a
//! regular file.

use std::path::Path;

use anyhow::{bail, Result};

use crate::discovery::Case;
use crate::files::store::Writer;
use crate::files::Entry;
use crate::judging::{CaseResult, Verdict};
use crate::running::{Failure, Run};

/// Whether `--bless` writes anything for a case judged `verdict`: only when the run finished and
/// its output was not accepted or had nothing to be compared with.
pub fn wanted(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::WA | Verdict::PE | Verdict::NOEXP)
}

/// Writes the expected file of `result`'s case (below the fixtures root `root`) from `run`, and
/// turns the result into AC with the path written; on failure the result keeps its verdict and
/// says why nothing was written. `judged` is the expected file's contents the case was judged
/// against (`None`: it had none).
pub fn bless(result: &mut CaseResult, run: &Run, root: &Path, judged: Option<&[u8]>) {
    let path = match &result.case.expected {
        Some(expected) => expected.path().to_path_buf(),
        None => result.case.default_expected_path(),
    };
    // A case of an `invalid/` group expects the solver's error message, not an output.
    let contents = match (result.case.expects_error(), &run.failure) {
        (false, _) => run.output.clone(),
        (true, Some(Failure::RejectedInput(message))) => format!("{message}\n").into_bytes(),
        (true, _) => {
            result.message = Some(format!(
                "{}; --bless writes an `.err` file only when the solver rejects the input",
                result.message.as_deref().unwrap_or("not rejected")
            ));
            return;
        }
    };
    match write_unchanged(root, &result.case, &path, &contents, judged) {
        Ok(()) => {
            result.verdict = Verdict::AC;
            result.message = None;
            result.diff = None;
            result.blessed = Some(path);
        }
        Err(error) => {
            result.message = Some(format!("--bless could not write: {error:#}"));
        }
    }
}

/// Writes `contents` at `path`, the expected file of `case`, under the root's lock, if the case is
/// still as it was judged.
fn write_unchanged(
    root: &Path,
    case: &Case,
    path: &Path,
    contents: &[u8],
    judged: Option<&[u8]>,
) -> Result<()> {
    let writer = Writer::open(root)?;
    let again = "nothing was written; run check again to judge the case as it is now";
    if writer.entry(case.input.path())? != Entry::File {
        bail!(
            "the input `{}` was removed (or is no longer a regular file) while the case was \
             judged; {again}",
            case.input.path().display()
        );
    }
    match (writer.entry(path)?, judged) {
        (Entry::Other(kind), _) => bail!(
            "`{}` is {kind}, not a regular file; --bless writes only regular files and never \
             replaces anything else: remove it",
            path.display()
        ),
        (Entry::Missing, None) => {
            // A missing expected file may have been added as another kind meanwhile.
            for extension in ["out", "ans", "err"] {
                let other = case.input.path().with_extension(extension);
                if writer.entry(&other)? != Entry::Missing {
                    bail!(
                        "`{}` appeared while the case was judged; {again}",
                        other.display()
                    );
                }
            }
            writer.create(&[(path, contents)])
        }
        // One byte more than judged is enough to tell a longer file.
        (Entry::File, Some(judged))
            if writer.read(path, judged.len() as u64 + 1)?.as_deref() == Some(judged) =>
        {
            writer.replace(path, contents)
        }
        (Entry::File, _) => bail!(
            "`{}` changed while the case was judged; {again}",
            path.display()
        ),
        (Entry::Missing, Some(_)) => bail!(
            "`{}` was removed while the case was judged; {again}",
            path.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::beneath::{Scope, Tree};
    use std::fs;

    /// A fixtures root with the input `nim/a.in`, and the case as discovery found it.
    fn judged_case(expected: Option<&str>) -> (tempfile::TempDir, Case) {
        let root = tempfile::tempdir().unwrap();
        let tree = Tree::open(root.path(), Scope::Fixtures).unwrap();
        let input = tree.join("nim/a.in");
        fs::create_dir_all(root.path().join("nim")).unwrap();
        fs::write(input.path(), "1\n").unwrap();
        let expected = expected.map(|text| {
            fs::write(root.path().join("nim/a.out"), text).unwrap();
            tree.join("nim/a.out")
        });
        let case = Case::fixture("nim/a".to_string(), "nim".to_string(), input, expected);
        (root, case)
    }

    fn bless_as_judged(root: &Path, case: &Case, judged: Option<&[u8]>) -> Result<()> {
        let path = case.input.path().with_extension("out");
        write_unchanged(root, case, &path, b"win\n", judged)
    }

    #[test]
    fn writes_when_the_case_is_as_judged() {
        let (root, case) = judged_case(None);
        bless_as_judged(root.path(), &case, None).unwrap();
        assert_eq!(fs::read(root.path().join("nim/a.out")).unwrap(), b"win\n");
        let (root, case) = judged_case(Some("lose\n"));
        bless_as_judged(root.path(), &case, Some(b"lose\n")).unwrap();
        assert_eq!(fs::read(root.path().join("nim/a.out")).unwrap(), b"win\n");
    }

    #[test]
    fn writes_nothing_when_the_case_changed_since_it_was_judged() {
        let message = |result: Result<()>| format!("{:#}", result.unwrap_err());
        // The expected file was edited.
        let (root, case) = judged_case(Some("edited\n"));
        let err = message(bless_as_judged(root.path(), &case, Some(b"lose\n")));
        assert!(err.contains("changed") && err.contains("a.out"), "{err}");
        assert_eq!(
            fs::read(root.path().join("nim/a.out")).unwrap(),
            b"edited\n"
        );
        // Another writer added one, as `.out` or as `.ans`.
        let (root, case) = judged_case(Some("added\n"));
        let err = message(bless_as_judged(root.path(), &case, None));
        assert!(err.contains("appeared") || err.contains("changed"), "{err}");
        let (root, case) = judged_case(None);
        fs::write(root.path().join("nim/a.ans"), "added\n").unwrap();
        let err = message(bless_as_judged(root.path(), &case, None));
        assert!(err.contains("a.ans") && err.contains("appeared"), "{err}");
        assert!(!root.path().join("nim/a.out").exists());
        // The input was removed: no expected file without input.
        let (root, case) = judged_case(None);
        fs::remove_file(case.input.path()).unwrap();
        let err = message(bless_as_judged(root.path(), &case, None));
        assert!(err.contains("a.in") && err.contains("removed"), "{err}");
        assert!(!root.path().join("nim/a.out").exists());
        // The expected file is a FIFO now.
        let (root, case) = judged_case(Some("lose\n"));
        let out = root.path().join("nim/a.out");
        fs::remove_file(&out).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&out).status();
        assert!(made.unwrap().success());
        let err = message(bless_as_judged(root.path(), &case, Some(b"lose\n")));
        assert!(err.contains("FIFO"), "{err}");
        use std::os::unix::fs::FileTypeExt;
        assert!(out.symlink_metadata().unwrap().file_type().is_fifo());
    }
}
