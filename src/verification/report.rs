//! What `verify` reports of each problem, and when: its heading once its time limit is known,
//! each submission's row once the submission is settled, and its outcome once all are. They go
//! to the [`Dispatcher`] problem by problem and, within one, submission by submission, whatever
//! order judging settles them in (a later one waits for the earlier ones), so the report
//! streams and reads the same on every run. The reporters render them.

use super::outcome;
use super::results::Judging;
use crate::build::{Build, Builds};
use crate::model::shown;
use crate::model::{self, Problem};
use crate::package::OutputValidator;
use crate::reporting::findings::Unbuilt;
use crate::reporting::verified::{
    OutputJudge, ProblemHeading, ProblemOutcome, SubmissionRow, Validators,
};
use crate::reporting::Dispatcher;
use crate::validation::Findings;

pub struct Stream<'a> {
    dispatch: &'a mut Dispatcher,
    problems: &'a [Problem],
    builds: &'a Builds,
    findings: Vec<Findings>,
    submissions_only: bool,
    /// Each problem's label in its contest.
    labels: Vec<Option<String>>,
    /// What is ready and not yet sent, per problem.
    headings: Vec<Option<ProblemHeading>>,
    rows: Vec<Vec<Option<SubmissionRow>>>,
    outcomes: Vec<Option<ProblemOutcome>>,
    /// The problem being sent, whether its heading went, and its next submission.
    next: usize,
    started: bool,
    next_row: usize,
}

impl<'a> Stream<'a> {
    /// The stream of `problems` (labelled by `labels`, one per problem), built as `builds`
    /// says and validated as `findings` (one per problem) say.
    pub fn new(
        dispatch: &'a mut Dispatcher,
        problems: &'a [Problem],
        builds: &'a Builds,
        findings: Vec<Findings>,
        submissions_only: bool,
        labels: Vec<Option<String>>,
    ) -> Stream<'a> {
        Stream {
            dispatch,
            problems,
            builds,
            findings,
            submissions_only,
            labels,
            headings: problems.iter().map(|_| None).collect(),
            rows: problems
                .iter()
                .map(|p| p.submissions.iter().map(|_| None).collect())
                .collect(),
            outcomes: problems.iter().map(|_| None).collect(),
            next: 0,
            started: false,
            next_row: 0,
        }
    }

    /// Problem `p`'s time limit is known.
    pub fn timed(&mut self, p: usize, judging: &Judging) {
        let problem = &self.problems[p];
        let findings = &self.findings[p];
        let ok = findings.errors.is_empty() && findings.unchecked.is_empty();
        let validation = match ok && !self.submissions_only {
            true => format!("{}: ok", findings.summary),
            false => findings.summary.clone(),
        };
        self.headings[p] = Some(ProblemHeading {
            name: problem.name.clone(),
            origin: shown(&problem.root),
            warnings: problem.warnings.clone(),
            build: build_line(problem, self.builds),
            validation,
            time_limit: judging.time_limit.clone(),
            submissions: problem
                .submissions
                .iter()
                .map(|s| (s.id.clone(), outcome::language(s)))
                .collect(),
            label: self.labels[p].clone(),
            groups: groups(problem),
            validators: validators(problem),
        });
        self.flush();
    }

    /// Submission `s` of problem `p` is settled.
    pub fn settled(&mut self, p: usize, s: usize, judging: &Judging) {
        self.rows[p][s] = Some(outcome::row(&self.problems[p], s, judging));
        self.flush();
    }

    /// Every submission of problem `p` is settled, and the problem too.
    pub fn finished(&mut self, p: usize, judging: &Judging) {
        let problem = &self.problems[p];
        let findings = &self.findings[p];
        let mut errors = findings.errors.clone();
        errors.extend(judging.errors.iter().cloned());
        // An output validator that did not run stops validation and judging alike: one line.
        let mut unchecked = findings.unchecked.clone();
        for item in &judging.unchecked {
            if !unchecked.iter().any(|told| told.same_as(item)) {
                unchecked.push(item.clone());
            }
        }
        self.outcomes[p] = Some(ProblemOutcome {
            name: problem.name.clone(),
            origin: shown(&problem.root),
            warnings: problem.warnings.clone(),
            judging_warnings: judging.warnings.clone(),
            errors,
            unchecked,
            judge_errors: judge_errors(problem, self.builds),
            time_limit: judging.time_limit.clone(),
            margins: judging.margins.clone(),
        });
        self.flush();
    }

    /// Sends what is ready, in order.
    fn flush(&mut self) {
        while let Some(rows) = self.rows.get_mut(self.next) {
            let p = self.next;
            if !self.started {
                let Some(heading) = self.headings[p].take() else {
                    return;
                };
                self.dispatch.problem_started(&heading);
                self.started = true;
            }
            while let Some(row) = rows.get_mut(self.next_row).and_then(Option::take) {
                self.dispatch.submission_finished(&row);
                self.next_row += 1;
            }
            if self.next_row < rows.len() {
                return;
            }
            let Some(outcome) = self.outcomes[p].take() else {
                return;
            };
            self.dispatch.problem_finished(&outcome);
            (self.next, self.started, self.next_row) = (p + 1, false, 0);
        }
    }
}

/// How many judged cases each group of `problem` holds, in judging order: a case's group is
/// the folder it is in (`secret/group1` of `secret/group1/01`).
fn groups(problem: &Problem) -> Vec<(String, usize)> {
    let mut groups: Vec<(String, usize)> = vec![];
    for case in &problem.cases {
        let group = case.id().rsplit_once('/').map_or("", |(group, _)| group);
        match groups.last_mut() {
            Some((last, count)) if last == group => *count += 1,
            _ => groups.push((group.to_string(), 1)),
        }
    }
    groups
}

/// What validates and judges `problem`'s data.
fn validators(problem: &Problem) -> Validators {
    let output = match &problem.judging {
        model::Judging::Settings(_) => OutputJudge::BuiltIn,
        model::Judging::Package {
            interactive: true, ..
        } => OutputJudge::Interactor,
        model::Judging::Package {
            validator: OutputValidator::Custom(_),
            ..
        } => OutputJudge::Custom,
        model::Judging::Package { .. } => OutputJudge::Default,
    };
    Validators {
        input: problem.input_validators.len(),
        answer: problem.answer_validators.len(),
        output,
    }
}

/// `9 programs: 7 compiled, 2 from the cache, 1 failed, 1 skipped, 1 judge error`.
fn build_line(problem: &Problem, builds: &Builds) -> String {
    let (mut compiled, mut cached, mut failed, mut skipped, mut host) = (0, 0, 0, 0, 0);
    for program in problem.programs() {
        match builds.of(program) {
            Build::Ready { cached: true, .. } => cached += 1,
            Build::Ready { cached: false, .. } => compiled += 1,
            Build::Failed(_) => failed += 1,
            Build::Skipped(_) => skipped += 1,
            Build::HostError(_) => host += 1,
        }
    }
    let mut parts = vec![];
    for (count, what) in [
        (compiled, "built"),
        (cached, "from the cache"),
        (failed, "failed"),
        (skipped, "skipped"),
        (host, "judge error(s) of the host"),
    ] {
        if count > 0 {
            parts.push(format!("{count} {what}"));
        }
    }
    let total = compiled + cached + failed + skipped + host;
    let cache = crate::build::cache_folder(&problem.root);
    match parts.is_empty() {
        true => "no programs".into(),
        false => format!(
            "{total} program(s): {} (cache {})",
            parts.join(", "),
            shown(&cache)
        ),
    }
}

/// The programs of `problem` the host failed to build, each by its path in the problem and what
/// went wrong.
fn judge_errors(problem: &Problem, builds: &Builds) -> Vec<Unbuilt> {
    let programs = problem.programs();
    programs
        .filter_map(|program| match builds.of(program) {
            Build::HostError(error) => Some(Unbuilt::Host {
                path: program.path.relative().to_path_buf(),
                error: error.clone(),
            }),
            _ => None,
        })
        .collect()
}
