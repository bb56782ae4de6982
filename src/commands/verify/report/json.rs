//! `--format json`: one object per submission (`"type": "submission"`), then one summary
//! (`"type": "summary"`) holding each problem's status. Fields that have no value are `null`.
//! Text from packages and programs has its control characters escaped before it is encoded.

use anyhow::Result;
use serde_json::{json, Value};

use super::{ProblemReport, Status, Totals};
use crate::escape::visible_line;
use crate::reporting::{millis, print as emit};

pub fn print(reports: &[ProblemReport], totals: &Totals) -> Result<()> {
    let mut text = String::new();
    for report in reports {
        for row in &report.rows {
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
            let object = json!({
                "type": "submission",
                "package": clean(&report.name),
                "submission": clean(&row.submission),
                "language": row.language,
                "verdict": row.verdict,
                "expected": clean(&row.expected),
                "ok": row.ok,
                "time_ms": row.slowest.as_ref().map(|(_, time)| millis(*time)),
                "slowest_case": row.slowest.as_ref().map(|(case, _)| clean(case)),
                "skipped": row.skipped.as_deref().map(clean),
                "problem": row.problem.as_deref().map(clean),
                "compile_error": row.compile_error.as_deref().map(clean),
                "judge_error": row.judge_error.as_deref().map(clean),
                "caught_by": caught,
            });
            text += &object.to_string();
            text.push('\n');
        }
    }
    let packages: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "package": clean(&r.name),
                "origin": clean(&r.origin),
                "valid": r.status() == Status::Valid,
                "status": r.status().name(),
                "errors": r.errors.iter().map(|e| clean(e)).collect::<Vec<_>>(),
                "unchecked": r.unchecked.iter().map(|e| clean(e)).collect::<Vec<_>>(),
                "judge_errors": r.judge_errors.iter().map(|e| clean(e)).collect::<Vec<_>>(),
                "warnings": r.warnings.iter().map(|w| clean(w)).collect::<Vec<_>>(),
                "time_limit": r.time_limit,
            })
        })
        .collect();
    let summary = json!({
        "type": "summary",
        "passed": totals.passed,
        "failed": totals.failed,
        "skipped": totals.skipped,
        "judge_errors": totals.judge_errors,
        "time_ms": millis(totals.wall_time),
        "packages": packages,
        "unreadable": totals.unreadable.iter().map(|e| clean(e)).collect::<Vec<_>>(),
        "cancelled": totals.cancelled,
    });
    text += &summary.to_string();
    text.push('\n');
    emit(&text)
}

fn clean(text: &str) -> String {
    visible_line(text).into_owned()
}
