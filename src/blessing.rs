//! `check --bless`: writing the built-in solver's output (or, for a deliberately invalid input, its
//! error message) as a case's expected file, when the file is missing or the checker does not
//! accept the output. Nothing is written for a failed run.
//!
//! Each file is written through the fixture store ([`crate::files::store`]), under the fixtures
//! root's exclusive lock, and only if the case is still what was judged: the input is there, and
//! the expected file is missing as it was (with no other expected file appeared beside it) or
//! holds the same bytes. So `--bless` racing `add` or another `--bless` never clobbers a file it
//! did not judge, never leaves an expected file without input, and never replaces anything but a
//! regular file.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::discovery::Case;
use crate::files::store::{self, Entry, Writer};
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
    let path = result
        .case
        .expected
        .clone()
        .unwrap_or_else(|| result.case.default_expected_path());
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
    if store::entry(&case.input)? != Entry::File {
        bail!(
            "the input `{}` was removed or replaced while the case was judged; {again}",
            case.input.display()
        );
    }
    match (store::entry(path)?, judged) {
        (Entry::Other(kind), _) => bail!(
            "`{}` is {kind}, not a regular file; --bless writes only regular files and never \
             replaces anything else: remove it",
            path.display()
        ),
        (Entry::Missing, None) => {
            // A missing expected file may have been added as another kind meanwhile.
            for extension in ["out", "ans", "err"] {
                let other = case.input.with_extension(extension);
                if store::entry(&other)? != Entry::Missing {
                    bail!(
                        "`{}` appeared while the case was judged; {again}",
                        other.display()
                    );
                }
            }
            writer.create(&[(path, contents)])
        }
        (Entry::File, Some(judged)) if read(path)? == judged => writer.replace(path, contents),
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

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))
}
