//! A `heading` line read back: a package's heading, before its submissions, as the
//! [`ProblemHeading`] it was written from. Its time limit and warnings are read by [`super::fields`].

use serde::Deserialize;

use super::fields::{diagnostics, time_limit, BadField, DiagnosticLine, HowLine, Wrong};
use crate::reporting::verified::{OutputJudge, ProblemHeading, Validators};

#[derive(Deserialize)]
pub(in crate::reporting::merge) struct HeadingLine {
    pub package: String,
    origin: String,
    warnings: Vec<DiagnosticLine>,
    build: String,
    validation: String,
    time_limit_ms: Option<f64>,
    time_limit_how: HowLine,
    submissions: Vec<NamedLine>,
    label: Option<String>,
    groups: Vec<GroupLine>,
    validators: ValidatorsLine,
}

#[derive(Deserialize)]
struct NamedLine {
    submission: String,
    language: String,
}

#[derive(Deserialize)]
struct GroupLine {
    group: String,
    cases: usize,
}

#[derive(Deserialize)]
struct ValidatorsLine {
    input: usize,
    answer: usize,
    output: String,
}

impl HeadingLine {
    pub(in crate::reporting::merge) fn typed(self) -> Result<ProblemHeading, BadField> {
        let output = OutputJudge::named(&self.validators.output).ok_or_else(|| {
            Wrong::OutputJudge(self.validators.output.clone()).at("validators.output")
        })?;
        Ok(ProblemHeading {
            name: self.package,
            origin: self.origin,
            warnings: diagnostics(self.warnings),
            build: self.build,
            validation: self.validation,
            time_limit: time_limit(self.time_limit_ms, self.time_limit_how)?,
            submissions: (self.submissions.into_iter())
                .map(|s| (s.submission, s.language))
                .collect(),
            label: self.label,
            groups: self
                .groups
                .into_iter()
                .map(|g| (g.group, g.cases))
                .collect(),
            validators: Validators {
                input: self.validators.input,
                answer: self.validators.answer,
                output,
            },
        })
    }
}
