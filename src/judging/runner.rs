//! The one case runner: one subject (the built-in solver, an `--exec` program, a submission) on
//! one case, whatever the case is: a batch run whose output the case's checker judges, an
//! interactive case played against the problem's interactor, a multi-pass case pass after pass
//! ([`super::judge_passes`]); one [`CaseResult`]. `check`, `verify` (and `timelimit`'s timing)
//! and `stress` (a built-in problem's and a package's) all run their cases through
//! [`run_case`]; what they make of the result (`--bless`, a submission's run, a counterexample)
//! is theirs. An output given rather than made by a run (a package's `valid_output` or
//! `invalid_output` case, which validation checks) is judged by [`judge_given`], the same
//! checker path a batch run's output takes.

use grundy_problems::Problem;

use grundy_sandbox::Limits;

use super::{judge, judge_interactive, judge_passes, no_expected, Against, CaseResult};
use crate::checking::{Checker, Interactor};
use crate::config::Settings;
use crate::discovery::Case;
use crate::running::{Input, Run, RunError, SolveWatch, Subject};

/// How a case's output is judged: its checker, and the interactor of an interactive problem
/// (whose testlib output file that checker judges, when it is more than a comparison).
#[derive(Clone, Copy)]
pub struct Judge<'a> {
    pub checker: &'a Checker,
    pub interactor: Option<&'a Interactor>,
}

/// A case as it is run: what its result names, the built-in problem whose solver a built-in
/// subject runs (`None` for a program), its input (a file beneath its root, or bytes), and its
/// expected file's contents, read before the program runs so that nothing the program does can
/// change them (`None`: it has none).
#[derive(Clone, Copy)]
pub struct Trial<'a> {
    pub case: &'a Case,
    pub built_in: Option<&'a Problem>,
    pub input: Input<'a>,
    pub expected: Option<&'a [u8]>,
}

/// What running a case gave.
pub struct Ran {
    pub result: CaseResult,
    /// A batch case's last pass (what `--bless` writes, what a stress failure shows).
    pub last: Option<Run>,
    /// An interactive case's exchange, whole (what a stress failure shows).
    pub exchange: Option<String>,
}

/// Runs `subject` on `trial` and judges it by `judge`, under `settings`' limits (its time
/// limit, passes and judge time) and variables; a built-in solver runs on this thread under
/// `watch` when one is given (a pool worker). A deliberately invalid input (an `invalid/`
/// group's) tests the solver's rejection, interactive problem or not; an interactive case
/// without an expected file (the judge's information) is NOEXP. An error is a run that could
/// not happen (its input unreadable, the host failing): the caller decides what it makes of it.
pub fn run_case(
    subject: &Subject,
    trial: Trial<'_>,
    judge_by: Judge<'_>,
    settings: &Settings,
    watch: Option<&SolveWatch>,
) -> Result<Ran, RunError> {
    let case = trial.case;
    let passes = settings.limits.passes;
    let interactor = judge_by.interactor.filter(|_| !case.expects_error());
    if let Some(interactor) = interactor {
        let Some(answer) = trial.expected else {
            return Ok(Ran {
                result: no_expected(case.clone()),
                last: None,
                exchange: None,
            });
        };
        let mut exchange = None;
        let result = judge_passes(passes, trial.input, |input, feedback| {
            let run = subject.interact(
                &case.problem,
                (interactor, judge_by.checker),
                (input, answer, feedback),
                settings,
                watch,
            )?;
            exchange = Some(run.transcript.render());
            Ok(judge_interactive(case.clone(), &run))
        })?;
        return Ok(Ran {
            result,
            last: None,
            exchange,
        });
    }
    let judge_limits = settings.limits.judge();
    let mut last = None;
    let result = judge_passes(passes, trial.input, |input, feedback| {
        let run = subject.run(&case.problem, trial.built_in, input, settings, watch)?;
        let against = Against {
            input,
            expected: trial.expected,
            checker: judge_by.checker,
            judge_limits: &judge_limits,
            feedback,
            submission_files: subject.working_copy(),
        };
        let result = judge(case.clone(), &run, &against);
        last = Some(run);
        Ok(result)
    })?;
    Ok(Ran {
        result,
        last,
        exchange: None,
    })
}

/// Judges `output`, given rather than made by a run, on `trial` by `checker` (under
/// `judge_limits`), as [`run_case`] judges the output of a batch run that ended well. It takes
/// neither an interactor nor passes: a given output has no program behind it to face an
/// interactor or to run a next pass, so those cannot be asked of it.
pub fn judge_given(
    trial: Trial<'_>,
    checker: &Checker,
    judge_limits: &Limits,
    output: Vec<u8>,
) -> CaseResult {
    let run = Run {
        output,
        ..Run::default()
    };
    let against = Against {
        input: trial.input,
        expected: trial.expected,
        checker,
        judge_limits,
        feedback: None,
        submission_files: None,
    };
    judge(trial.case.clone(), &run, &against)
}
