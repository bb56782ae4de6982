//! `verify`'s line of a submission: what it got against what it must, the cases that caught
//! it, each case's run, its score, and why it likely is not as expected, with the evidence;
//! every field there, `null` without a value (`report merge` reads it back).

use serde_json::{json, Value};

use super::{how_object, limit_ms};
use crate::escape::visible;
use crate::package::languages::Python3;
use crate::reporting::json::clean;
use crate::reporting::millis;
use crate::reporting::reason::Reason;
use crate::reporting::verified::{CaseCell, SubmissionRow};

/// The object of one `verify` submission.
pub(in crate::reporting::json) fn submission_object(row: &SubmissionRow) -> Value {
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
