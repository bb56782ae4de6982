//! The line of each kind of unit, as its command reports it: `check`'s cases, `verify`'s
//! submissions and packages, `validate`'s inputs and packages, `generate`'s and `timelimit`'s
//! packages, `stress`'s cases and its counterexample, `mutants`' mutants. What every line has (`type`, `id`) is
//! added by the reporter ([`super::JsonReporter`]).

use serde_json::{json, Value};

use super::{all, clean};
use crate::diffing::Paint;
use crate::escape::{visible, visible_line};
use crate::files::beneath::TreePath;
use crate::judging::CaseResult;
use crate::model::{How, MarginFacts, SlowestRun, TimeLimit};
use crate::package::languages::Python3;
use crate::package::yaml::Diagnostic;
use crate::reporting::contest::ContestTable;
use crate::reporting::findings::{Fault, JudgingWarning};
use crate::reporting::generated::DataMade;
use crate::reporting::listed::Listed;
use crate::reporting::millis;
use crate::reporting::mutated::{MutantRow, MutationRun, MutationTally};
use crate::reporting::reason::Reason;
use crate::reporting::stressed::{Counterexample, StressRun, Tried};
use crate::reporting::timed::PackageTiming;
use crate::reporting::unit::UnitId;
use crate::reporting::validated::{InputFinding, PackageValidation};
use crate::reporting::verified::{CaseCell, ProblemHeading, ProblemOutcome, Status, SubmissionRow};
use crate::running::Clock;

/// The limit that stopped a run, as the JSON and JUnit reports name it.
fn clock_name(clock: Clock) -> &'static str {
    match clock {
        Clock::Cpu => "cpu",
        Clock::Wall => "wall",
    }
}

/// The object for one case.
pub(super) fn case_object(result: &CaseResult) -> Value {
    let mut object = json!({
        "case": result.case.id,
        "problem": result.case.problem,
        "verdict": result.verdict,
        "time_ms": millis(result.time),
        "cpu_ms": millis(result.cpu),
        "wall_ms": millis(result.wall),
    });
    let fields = object.as_object_mut().expect("a JSON object literal");
    if let Some(clock) = result.stopped_by {
        fields.insert("limit".into(), clock_name(clock).into());
    }
    if let Some(bytes) = result.peak_memory_bytes {
        fields.insert("peak_memory_bytes".into(), bytes.into());
    }
    if let Some(message) = &result.message {
        fields.insert("message".into(), message.as_str().into());
    }
    if let Some(diff) = &result.diff {
        fields.insert("diff".into(), diff.render(&Paint::plain(), "").into());
    }
    if let Some(exchange) = &result.exchange {
        fields.insert("exchange".into(), exchange.as_str().into());
    }
    if let Some(stdout) = &result.stdout {
        fields.insert("stdout".into(), stdout.as_str().into());
    }
    if let Some(stderr) = &result.stderr {
        fields.insert("stderr".into(), stderr.as_str().into());
    }
    if let Some(path) = &result.blessed {
        fields.insert("blessed".into(), path.display().to_string().into());
    }
    object
}

/// The object of one `verify` submission.
pub(super) fn submission_object(row: &SubmissionRow) -> Value {
    let caught: Vec<Value> = row
        .caught_by
        .iter()
        .map(|(case, verdict, message)| {
            json!({
                "case": clean(case),
                "verdict": verdict,
                "message": message.as_deref().map(clean),
            })
        })
        .collect();
    let mut object = json!({
        "package": clean(&row.problem),
        "submission": clean(&row.submission),
        "language": row.language,
        "tool": row.tool.as_deref().map(clean),
        "verdict": row.verdict.map(|got| got.to_string()),
        "expected": row.expected_verdicts,
        "expected_rules": clean(&row.expected),
        "expected_short": clean(&row.expected_short),
        "ok": row.ok,
        "time_ms": row.slowest.as_ref().map(|(_, time)| millis(*time)),
        "slowest_case": row.slowest.as_ref().map(|(case, _)| clean(case)),
        "skipped": row.skipped.as_ref().map(|why| clean(&why.to_string())),
        "problem": row.unexpected.as_deref().map(clean),
        // Several lines: JSON escapes the line breaks once; only what a terminal would obey is
        // made visible first.
        "compile_error": row.compile_error.as_deref().map(|text| visible(text).into_owned()),
        "judge_error": row.judge_error.as_deref().map(clean),
        "caught_by": caught,
        "runs": row.runs.iter().map(run_object).collect::<Vec<Value>>(),
    });
    if let (Some(reason), Value::Object(fields)) = (&row.reason, &mut object) {
        fields.insert("reason".into(), reason_object(reason));
    }
    // Only a scoring problem's rows carry scores.
    if let (Some(score), Value::Object(fields)) = (&row.score, &mut object) {
        let groups: Vec<Value> = score
            .groups
            .iter()
            .map(|(group, points, max)| json!({"group": clean(group), "score": points, "max_score": max}))
            .collect();
        fields.insert("score".into(), json!(score.total));
        fields.insert("max_score".into(), json!(score.max));
        fields.insert("group_scores".into(), Value::Array(groups));
        if let Some(best) = score.lower_best {
            fields.insert("objective".into(), json!("min"));
            fields.insert("min_score".into(), json!(best));
        }
    }
    object
}

/// One case of a submission's judging, as the HTML report's matrix shows it: what
/// `report merge` needs to draw the matrix and the failure details again. The detail is
/// already escaped and cut to its bound where it was made.
fn run_object(cell: &CaseCell) -> Value {
    json!({
        "case": clean(&cell.case),
        "verdict": cell.verdict,
        "time_ms": millis(cell.time),
        "message": cell.message.as_deref().map(clean),
        "detail": cell.detail,
    })
}

/// Why a submission was likely not as expected: its kind, its line, and the evidence.
fn reason_object(reason: &Reason) -> Value {
    let e = &reason.evidence;
    let limit = e.time_limit.as_ref();
    json!({
        "kind": reason.kind.name(),
        "line": clean(&reason.to_string()),
        "case": e.case.as_deref().map(clean),
        "verdict": e.verdict,
        "cpu_ms": e.cpu.map(millis),
        "wall_ms": e.wall.map(millis),
        "peak_memory_bytes": e.peak_memory_bytes,
        "message": e.message.as_deref().map(clean),
        "time_limit_ms": limit.and_then(limit_ms),
        "time_limit": limit.map(ToString::to_string),
        "time_limit_how": limit.map(|l| how_object(&l.how)),
        "limit_from": e.limit_from.as_ref().map(|from| json!({
            "submission": clean(&from.submission),
            "case": clean(&from.case),
            "time_ms": millis(from.time),
            "tool": from.tool.as_deref().map(clean),
            "cpython": from.cpython,
        })),
        "tool": e.tool.as_deref().map(clean),
        "own": reason.own,
        "interpreter": e.interpreter.map(|python| match python {
            Python3::PyPy => "pypy3",
            Python3::CPython => "cpython",
        }),
    })
}

/// A time limit in milliseconds, `None` without one.
fn limit_ms(limit: &TimeLimit) -> Option<f64> {
    limit.limit.as_ref().ok().copied().map(millis)
}

/// How a time limit came about, as data (`report merge` reads it back): `{"fixed": SOURCE}`,
/// or `{"computed": {factor, step_ms, near_step, cached}}`.
fn how_object(how: &How) -> Value {
    match how {
        How::Fixed(source) => json!({ "fixed": source.to_string() }),
        How::Computed {
            factor,
            step,
            near_step,
            cached,
        } => json!({ "computed": {
            "factor": factor,
            "step_ms": millis(*step),
            "near_step": near_step,
            "cached": cached,
        }}),
    }
}

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
pub(super) fn heading_object(heading: &ProblemHeading) -> Value {
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
pub(super) fn package_object(outcome: &ProblemOutcome) -> Value {
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
pub(super) fn contest_object(table: &ContestTable) -> Value {
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

/// An input of `validate`: its case and file, what was found, and what was said of it.
pub(super) fn input_object(id: &UnitId<'_>, input: &TreePath, finding: &InputFinding) -> Value {
    let case = format!("{}/{}", id.problem, id.case.unwrap_or_default());
    let mut object = json!({
        "case": clean(&case),
        "problem": clean(id.problem),
        "input": clean(&input.path().display().to_string()),
        "finding": finding.name(),
    });
    if let (Some(message), Value::Object(fields)) = (finding.message(), &mut object) {
        fields.insert("message".into(), clean(&message).into());
    }
    object
}

/// A package of `validate`: its status, what makes it invalid, what was not checked and what
/// was.
pub(super) fn validation_object(validation: &PackageValidation) -> Value {
    let mut errors: Vec<String> = validation
        .unreadable
        .iter()
        .map(|u| clean(&u.to_string()))
        .collect();
    errors.extend(all(&validation.errors));
    json!({
        "package": clean(&validation.name),
        "status": validation.status().name(),
        "valid": validation.status() == Status::Valid,
        "errors": errors,
        "unchecked": all(&validation.unchecked),
        "checked": clean(&validation.summary),
    })
}

/// A package of `generate`: the counts, and what was not made, is invalid, is warned of, and
/// no rule describes.
pub(super) fn generated_object(made: &DataMade<'_>) -> Value {
    let failed: Vec<Value> = made
        .failed
        .iter()
        .map(|(case, why)| json!({"case": clean(case), "message": visible(&why.to_string())}))
        .collect();
    let warnings: Vec<String> = made
        .warnings
        .iter()
        .map(|w| clean(&w.to_string()))
        .collect();
    let unlisted: Vec<String> = made.unlisted.iter().map(|f| clean(f)).collect();
    json!({
        "package": clean(made.package),
        "made": made.made,
        "unchanged": made.unchanged,
        "included": made.included,
        "failed": failed,
        "invalid": all(made.invalid),
        "warnings": warnings,
        "unlisted": unlisted,
        "removed": made.removed,
        "ok": made.ok(),
    })
}

/// A package of `timelimit`: each accepted submission's slowest case per run and what kept a
/// run from timing the limit; the limit, or why none; each bound and whether it is kept.
pub(super) fn timed_object(timing: &PackageTiming) -> Value {
    let submissions: Vec<Value> = timing
        .submissions
        .iter()
        .map(|timed| {
            let runs: Vec<Value> = timed
                .slowest
                .iter()
                .map(|(time, case)| json!({"case": clean(case), "time_ms": millis(*time)}))
                .collect();
            json!({"submission": clean(&timed.id), "runs": runs, "trouble": all(&timed.trouble)})
        })
        .collect();
    let bounds: Vec<Value> = timing
        .bounds
        .iter()
        .map(|(id, bound)| {
            json!({"submission": clean(id), "kept": bound.kept(), "message": clean(&bound.to_string())})
        })
        .collect();
    let (limit, fixed, why) = match &timing.limit {
        Ok(limit) => (Some(millis(limit.limit)), limit.fixed.map(millis), None),
        Err(why) => (None, None, Some(clean(&why.to_string()))),
    };
    json!({
        "package": clean(&timing.name),
        "origin": clean(&timing.origin),
        "submissions": submissions,
        "time_limit_ms": limit,
        "problem_yaml_ms": fixed,
        "no_limit": why,
        "bounds": bounds,
        "written": timing.written.as_deref().map(clean),
        "ok": timing.fine(),
    })
}

/// A case of `stress`: its number and seed, and its verdict (`AC` when the program agreed).
pub(super) fn tried_object(id: &UnitId<'_>, tried: &Tried) -> Value {
    json!({
        "case": clean(&format!("{}/{}", id.problem, tried.number)),
        "problem": clean(id.problem),
        "number": tried.number,
        "seed": seed(tried.seed),
        "verdict": tried.verdict.unwrap_or(crate::judging::Verdict::AC),
    })
}

/// A seed of `stress`, as a string: a 64-bit number, which JSON readers that hold numbers as
/// doubles (JavaScript, jq) would round.
pub(super) fn seed(seed: u64) -> Value {
    seed.to_string().into()
}

/// `stress`'s counterexample, shrunk: the input, the reference's answer and the program's
/// output (as text, what a terminal would obey made visible), how to make it again, and what
/// `--save` did with it.
pub(super) fn counterexample_object(run: &StressRun, found: &Counterexample) -> Value {
    let text = |bytes: &[u8]| visible(&String::from_utf8_lossy(bytes)).into_owned();
    json!({
        "case": clean(&format!("{}/{}", run.problem, found.number)),
        "problem": clean(&run.problem),
        "number": found.number,
        "verdict": found.verdict,
        "message": found.message.as_deref().map(|m| visible_line(m).into_owned()),
        "input": text(&found.input),
        "expected": text(&found.expected),
        "output": text(&found.output),
        "remake": clean(&found.remake),
        "rerun": clean(&run.rerun),
        "saved": found.saved.as_deref().map(clean),
    })
}

/// A problem of `list`: where it comes from and the settings in force for it (no judge for a
/// package that cannot be read: `unreadable` says why).
pub(super) fn listed_object(listed: &Listed) -> Value {
    let judge = match listed.unreadable {
        Some(_) => None,
        None => Some(clean(&listed.judge)),
    };
    json!({
        "problem": clean(&listed.problem),
        "kind": listed.kind.name(),
        "cases": listed.cases,
        // null where there is none, or where it is computed and not yet known; `time_limit`
        // says which, and how a known one came about.
        "time_limit_ms": listed
            .time_limit
            .as_ref()
            .and_then(|known| known.limit.as_ref().ok())
            .map(|limit| millis(*limit)),
        "time_limit": listed
            .time_limit
            .as_ref()
            .map_or_else(|| "unknown".to_string(), ToString::to_string),
        "memory_limit_mib": listed.memory_mib,
        "output_limit_mib": listed.output_mib,
        "judge": judge,
        "title": listed.title,
        "unreadable": listed.unreadable.as_deref().map(clean),
    })
}

/// A mutant: its status, where it changes the submission and how, the case that killed it
/// (and the verdict there), why it was stillborn or not judged, and for a survivor the input the
/// search found: `found`, the case `--add` wrote (else null), and `distinguished_by`, the
/// generator command that makes it.
pub(super) fn mutant_object(row: &MutantRow) -> Value {
    json!({
        "status": row.status.name(),
        "file": clean(&row.file),
        "line": row.line,
        "diff": clean(&row.diff),
        "killed_by": row.killed_by.as_ref().map(|(case, _)| clean(case)),
        "verdict": row.killed_by.as_ref().map(|(_, verdict)| json!(verdict)),
        "why": row.why.as_ref().map(|why| clean(&why.to_string())),
        "found": row.found.as_ref().and_then(|f| match &f.added {
            Some(Ok(case)) => Some(clean(case)),
            _ => None,
        }),
        "distinguished_by": row.found.as_ref().map(|f| clean(&f.command)),
    })
}

/// What `mutants`' summary adds: the submission, how many mutants were made and judged, the
/// counts by status (and how many survivors the search found an input for, and added), the
/// search's budget (`null` when survivors are not searched), the score (`null` when no mutant was killed or survived), each case's
/// kills and the cases that killed none.
pub(super) fn mutation_summary(run: &MutationRun, tally: &MutationTally) -> Value {
    let kills: serde_json::Map<String, Value> = tally
        .killers()
        .into_iter()
        .map(|(case, n)| (clean(case), n.into()))
        .collect();
    let idle: Vec<String> = tally.idle(&run.cases).into_iter().map(clean).collect();
    json!({
        "submission": clean(&run.submission),
        "made": run.made,
        "judged": run.judged,
        "seed": run.seed.map(seed),
        "killed": tally.killed,
        "survived": tally.survived,
        "equivalent": tally.equivalent,
        "found": tally.found,
        "added": tally.added,
        "budget": run.search.as_ref().ok(),
        "stillborn": tally.stillborn,
        "unjudged": tally.unjudged,
        "score": tally.score(),
        "kills": kills,
        "killed_none": idle,
    })
}
