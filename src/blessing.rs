//! `check --bless`: writing the built-in solver's output (or, for a deliberately invalid input, its
//! error message) as a case's expected file, when the file is missing or the checker does not
//! accept the output. Each file is written atomically; nothing is written for a failed run.

use crate::files::{write_atomic, Existing};
use crate::judging::{CaseResult, Verdict};
use crate::running::{Failure, Run};

/// Whether `--bless` writes anything for a case judged `verdict`: only when the run finished and
/// its output was not accepted or had nothing to be compared with.
pub fn wanted(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::WA | Verdict::PE | Verdict::NOEXP)
}

/// Writes the expected file of `result`'s case from `run`, and turns the result into AC with the
/// path written; on failure the result keeps its verdict and says why nothing was written.
pub fn bless(result: &mut CaseResult, run: &Run) {
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
    match write_atomic(&path, &contents, Existing::Replace) {
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
