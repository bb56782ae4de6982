//! `--format json`: one JSON object per line, as soon as its event comes, then one summary
//! object. Nothing else is written to stdout in this mode (notes and errors go to stderr, and no
//! progress bar is drawn).
//!
//! `check` writes an object per case (`"type": "case"`); the fields the book promises are always
//! there, the others only when they have a value. `verify` writes an object per submission
//! (`"type": "submission"`), every field there (`null` without a value), and its summary holds
//! each problem's status; text from packages and programs has its control characters escaped
//! before it is encoded.

use std::io::Write;

use serde_json::{json, Map, Value};

use super::events::{Event, RunKind};
use super::findings::{lines, Unreadable};
use super::verified::{ProblemOutcome, Status, SubmissionRow};
use super::{millis, LostReport, ReportError, Reporter, Summary, Timing};
use crate::diffing::Paint;
use crate::discovery::LeftOut;
use crate::escape::{visible, visible_line};
use crate::judging::CaseResult;
use crate::running::Clock;

pub struct JsonReporter<W: Write> {
    out: W,
    /// Once a `verify` run started: the packages that could not be read, and the objects of
    /// those verified, for the summary.
    verify: Option<(Vec<Unreadable>, Vec<Value>)>,
    cancelled: bool,
}

impl<W: Write> JsonReporter<W> {
    pub fn new(out: W) -> Self {
        JsonReporter {
            out,
            verify: None,
            cancelled: false,
        }
    }

    fn emit(&mut self, value: Value) -> Result<(), LostReport> {
        writeln!(self.out, "{}", terminal_safe(&value.to_string()))
            .and_then(|()| self.out.flush())
            .map_err(LostReport::from)
    }
}

/// `json` with the characters serde_json leaves raw but a terminal may obey (DEL, the C1
/// controls, bidirectional overrides) written as `\uXXXX` escapes: the same JSON value, safe to
/// `cat`. (serde_json already escapes every C0 control.) Such characters can only stand inside
/// strings, where a `\u` escape means the same.
fn terminal_safe(json: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = crate::escape::needs_escape;
    if !json.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if unsafe_char(c) {
            // Every character that needs it is in the Basic Multilingual Plane.
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The limit that stopped a run, as the JSON and JUnit reports name it.
pub fn clock_name(clock: Clock) -> &'static str {
    match clock {
        Clock::Cpu => "cpu",
        Clock::Wall => "wall",
    }
}

/// The object for one case.
fn case_object(result: &CaseResult) -> Value {
    let mut object = json!({
        "type": "case",
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

/// The summary object of `check`.
fn summary_object(summary: &Summary, cancelled: bool) -> Value {
    let mut object = json!({
        "type": "summary",
        "passed": summary.passed,
        "failed": summary.failed,
        "skipped": summary.skipped,
        "total": summary.total(),
        "time_ms": millis(summary.wall_time),
        "jobs": summary.jobs,
        "slow": timings(&summary.slow),
        "left_out": left_out(&summary.left_out),
        "cancelled": cancelled,
    });
    let fields = object.as_object_mut().expect("a JSON object literal");
    if let Some(bytes) = summary.peak_memory_bytes {
        fields.insert("peak_memory_bytes".into(), bytes.into());
    }
    if let Some((bucket, suite)) = &summary.partition {
        fields.insert("partition".into(), bucket.as_str().into());
        fields.insert("suite_total".into(), (*suite).into());
    }
    if !summary.slowest.is_empty() {
        fields.insert("slowest".into(), timings(&summary.slowest));
    }
    object
}

fn timings(timings: &[Timing]) -> Value {
    timings
        .iter()
        .map(|timing| {
            let mut object = Map::new();
            object.insert("case".into(), timing.case.as_str().into());
            object.insert("verdict".into(), json!(timing.verdict));
            object.insert("time_ms".into(), millis(timing.time).into());
            if let Some(limit) = timing.time_limit {
                object.insert("time_limit_ms".into(), millis(limit).into());
            }
            Value::Object(object)
        })
        .collect()
}

/// The object of one `verify` submission.
fn submission_object(row: &SubmissionRow) -> Value {
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
        "type": "submission",
        "package": clean(&row.problem),
        "submission": clean(&row.submission),
        "language": row.language,
        "tool": row.tool.as_deref().map(clean),
        "verdict": row.verdict.map(|got| got.to_string()),
        "expected": row.expected_verdicts,
        "expected_rules": clean(&row.expected),
        "ok": row.ok,
        "time_ms": row.slowest.as_ref().map(|(_, time)| millis(*time)),
        "slowest_case": row.slowest.as_ref().map(|(case, _)| clean(case)),
        "skipped": row.skipped.as_deref().map(clean),
        "problem": row.unexpected.as_deref().map(clean),
        // Several lines: JSON escapes the line breaks once; only what a terminal would obey is
        // made visible first.
        "compile_error": row.compile_error.as_deref().map(|text| visible(text).into_owned()),
        "judge_error": row.judge_error.as_deref().map(clean),
        "caught_by": caught,
    });
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

/// A `verify` problem, for the summary.
fn package_object(outcome: &ProblemOutcome) -> Value {
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
        "time_limit": outcome.time_limit.to_string(),
    })
}

/// What a program was not judged on, by reason; every summary that judges programs has it.
fn left_out(left_out: &LeftOut) -> Value {
    json!({
        "invalid": left_out.invalid,
        "beyond_original_limits": left_out.beyond_original_limits,
    })
}

/// The summary object of `verify`.
fn verify_summary(
    summary: &Summary,
    packages: &[Value],
    unreadable: &[Unreadable],
    cancelled: bool,
) -> Value {
    json!({
        "type": "summary",
        "passed": summary.passed,
        "failed": summary.failed,
        "skipped": summary.skipped,
        "judge_errors": summary.judge_errors,
        "time_ms": millis(summary.wall_time),
        "left_out": left_out(&summary.left_out),
        "packages": packages,
        "unreadable": all(unreadable),
        "cancelled": cancelled,
    })
}

fn clean(text: &str) -> String {
    visible_line(text).into_owned()
}

/// Each of `found` as its line of text, made safe to show.
fn all<T: std::fmt::Display>(found: &[T]) -> Vec<String> {
    lines(found).iter().map(|line| clean(line)).collect()
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        let object = match (event, &mut self.verify) {
            (Event::RunStarted(RunKind::Verify { unreadable, .. }), _) => {
                self.verify = Some((unreadable.clone(), Vec::new()));
                return Ok(());
            }
            (Event::CaseFinished(result), _) => case_object(result),
            (Event::SubmissionFinished(row), _) => submission_object(row),
            (Event::ProblemFinished(outcome), Some((_, packages))) => {
                packages.push(package_object(outcome));
                return Ok(());
            }
            (Event::Cancelled, _) => {
                self.cancelled = true;
                return Ok(());
            }
            (Event::RunFinished(summary), Some((unreadable, packages))) => {
                verify_summary(summary, packages, unreadable, self.cancelled)
            }
            (Event::RunFinished(summary), None) => summary_object(summary, self.cancelled),
            _ => return Ok(()),
        };
        Ok(self.emit(object)?)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::diffing;
    use crate::judging::Verdict;
    use crate::reporting::tests::case;

    fn lines(results: &[CaseResult], summary: &Summary) -> Vec<Value> {
        let mut out = Vec::new();
        let mut reporter = JsonReporter::new(&mut out);
        for result in results {
            reporter.report(&Event::CaseFinished(result)).unwrap();
        }
        reporter.report(&Event::RunFinished(summary)).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).expect("every line is one JSON object"))
            .collect()
    }

    #[test]
    fn one_object_per_case_then_the_summary() {
        let pass = CaseResult::new(case("p/a"), Verdict::AC, None);
        let mut wrong = CaseResult::new(case("p/b"), Verdict::WA, Some("line 1 differs".into()));
        wrong.diff = diffing::diff(b"Kiki\n", b"Cici\n");
        let summary = Summary {
            passed: 1,
            failed: 1,
            jobs: 2,
            ..Summary::default()
        };
        let lines = lines(&[pass, wrong], &summary);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["type"], "case");
        assert_eq!(lines[0]["case"], "p/a");
        assert_eq!(lines[0]["problem"], "p");
        assert_eq!(lines[0]["verdict"], "AC");
        assert!(lines[0]["time_ms"].is_number());
        assert!(lines[0].get("message").is_none());
        assert_eq!(lines[1]["message"], "line 1 differs");
        assert!(lines[1]["diff"].as_str().unwrap().contains("-Kiki"));
        assert_eq!(lines[2]["type"], "summary");
        assert_eq!(
            (&lines[2]["passed"], &lines[2]["failed"], &lines[2]["total"]),
            (&json!(1), &json!(1), &json!(2))
        );
        assert_eq!(lines[2]["slow"], json!([]));
        assert!(lines[2].get("partition").is_none());
        assert!(lines[2].get("peak_memory_bytes").is_none());
    }

    #[test]
    fn the_summary_carries_bucket_peak_memory_and_slow_cases() {
        let slow = Timing {
            case: "p/b".into(),
            verdict: Verdict::AC,
            time: Duration::from_millis(1500),
            time_limit: Some(Duration::from_millis(2000)),
        };
        let summary = Summary {
            passed: 1,
            partition: Some(("slice:1/4".into(), 9)),
            peak_memory_bytes: Some(4096),
            slow: vec![slow.clone()],
            slowest: vec![slow],
            ..Summary::default()
        };
        let summary = &lines(&[], &summary)[0];
        assert_eq!(summary["partition"], "slice:1/4");
        assert_eq!(summary["suite_total"], 9);
        assert_eq!(summary["peak_memory_bytes"], 4096);
        let expected =
            json!([{"case": "p/b", "verdict": "AC", "time_ms": 1500.0, "time_limit_ms": 2000.0}]);
        assert_eq!(summary["slow"], expected);
        assert_eq!(summary["slowest"], expected);
    }
}
