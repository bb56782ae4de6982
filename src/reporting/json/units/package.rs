//! `verify`'s lines of a package: its heading before its submissions, its outcome after them
//! (with the facts its time-limit margins were computed from), and the contest table of every
//! package; each as data `report merge` reads back.

use serde_json::{json, Value};

use super::{how_object, limit_ms};
use crate::model::{MarginFacts, SlowestRun};
use crate::package::yaml::Diagnostic;
use crate::reporting::contest::ContestTable;
use crate::reporting::findings::{Fault, JudgingWarning};
use crate::reporting::json::{all, clean};
use crate::reporting::millis;
use crate::reporting::verified::{ProblemHeading, ProblemOutcome, Status};

/// A located warning of a package, as data: its file, line and column (0 for the file as a
/// whole) and message.
fn diagnostic_object(diagnostic: &Diagnostic) -> Value {
    json!({
        "file": clean(&diagnostic.file.display().to_string()),
        "line": diagnostic.line,
        "column": diagnostic.column,
        "message": clean(&diagnostic.message),
    })
}

/// A `verify` problem's heading, before its submissions: what its report starts with, as data
/// (`report merge` replays it).
pub(in crate::reporting::json) fn heading_object(heading: &ProblemHeading) -> Value {
    let submissions: Vec<Value> = heading
        .submissions
        .iter()
        .map(|(name, language)| json!({"submission": clean(name), "language": clean(language)}))
        .collect();
    let groups: Vec<Value> = heading
        .groups
        .iter()
        .map(|(group, cases)| json!({"group": clean(group), "cases": cases}))
        .collect();
    json!({
        "package": clean(&heading.name),
        "origin": clean(&heading.origin),
        "warnings": heading.warnings.iter().map(diagnostic_object).collect::<Vec<_>>(),
        "build": clean(&heading.build),
        "validation": clean(&heading.validation),
        "time_limit": heading.time_limit.to_string(),
        "time_limit_ms": limit_ms(&heading.time_limit),
        "time_limit_how": how_object(&heading.time_limit.how),
        "submissions": submissions,
        "label": heading.label.as_deref().map(clean),
        "groups": groups,
        "validators": validators_object(&heading.validators),
    })
}

/// A problem's validators as the contest table counts them.
fn validators_object(validators: &crate::reporting::verified::Validators) -> Value {
    json!({
        "input": validators.input,
        "answer": validators.answer,
        "output": validators.output.name(),
    })
}

/// A `verify` problem: its line, and its entry in the summary.
pub(in crate::reporting::json) fn package_object(outcome: &ProblemOutcome) -> Value {
    let mut warnings = all(&outcome.warnings);
    warnings.extend(all(&outcome.judging_warnings));
    json!({
        "package": clean(&outcome.name),
        "origin": clean(&outcome.origin),
        "valid": outcome.status() == Status::Valid,
        "status": outcome.status().name(),
        "errors": all(&outcome.errors),
        "unchecked": all(&outcome.unchecked),
        "judge_errors": all(&outcome.judge_errors),
        "warnings": warnings,
        "package_warnings": outcome.warnings.iter().map(diagnostic_object).collect::<Vec<_>>(),
        "judging_warnings": all(&outcome.judging_warnings),
        "time_limit": outcome.time_limit.to_string(),
        "time_limit_ms": limit_ms(&outcome.time_limit),
        "time_limit_how": how_object(&outcome.time_limit.how),
        "margins": outcome.margins.as_ref().map(|facts| margins_object(outcome, facts)),
    })
}

/// What a package's time-limit findings were computed from, and where in its `errors` and
/// `judging_warnings` they are (`report merge` drops each shard's and computes them again from
/// every shard's facts).
fn margins_object(outcome: &ProblemOutcome, facts: &MarginFacts) -> Value {
    let run = |run: &SlowestRun| {
        json!({
            "submission": clean(&run.submission),
            "time_ms": millis(run.time),
            "computes_the_limit": run.computes_the_limit,
        })
    };
    let rule = &facts.rule;
    json!({
        "error": outcome.errors.iter().position(|f| matches!(f, Fault::Margins(_))),
        "thin_margin": (outcome.judging_warnings.iter())
            .position(|w| matches!(w, JudgingWarning::ThinMargin(_))),
        "slowest_accepted_ms": facts.slowest_accepted.map(millis),
        "fastest_tle": facts.fastest_tle.as_ref().map(run),
        "slowest_lower": facts.slowest_lower.as_ref().map(run),
        "rule": {
            "time_limit_ms": rule.time_limit.map(millis),
            "ac_to_time_limit": rule.ac_to_time_limit,
            "time_limit_to_tle": rule.time_limit_to_tle,
            "time_resolution_ms": millis(rule.time_resolution),
        },
    })
}

/// `verify`'s contest table: a problem per row, in the order they were verified.
pub(in crate::reporting::json) fn contest_object(table: &ContestTable) -> Value {
    let problems: Vec<Value> = table
        .rows()
        .iter()
        .map(|row| {
            let groups: Vec<Value> = row
                .groups
                .iter()
                .map(|(group, cases)| json!({"group": clean(group), "cases": cases}))
                .collect();
            let submissions: Vec<Value> = row
                .expected
                .iter()
                .map(|e| {
                    json!({
                        "expected": e.verdicts,
                        "submissions": e.submissions,
                        "as_expected": e.as_expected,
                    })
                })
                .collect();
            let missing: Vec<String> = row.missing().iter().map(ToString::to_string).collect();
            json!({
                "label": row.label.as_deref().map(clean),
                "package": clean(&row.problem),
                "groups": groups,
                "submissions": submissions,
                "validators": validators_object(&row.validators),
                "time_limit_ms": row.time_limit.map(millis),
                "slowest_accepted_ms": row.slowest_accepted.map(millis),
                "fastest_too_slow_ms": row.fastest_too_slow.map(millis),
                "missing": missing,
                "status": row.status.map(Status::name),
            })
        })
        .collect();
    json!({ "problems": problems })
}
