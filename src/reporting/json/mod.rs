//! `--format json`: one JSON object per line, as soon as its event comes, then one summary
//! object. Nothing else is written to stdout in this mode (notes and errors go to stderr, and no
//! progress bar is drawn).
//!
//! Every line has `type`: a unit's line is named by its kind (`case`, `submission`, `package`,
//! `mutant`)
//! and carries its `id` (problem, subject, case: the same in every run and every shard of one);
//! the last line is the `summary`, which says which `command` ran, which `unit` its `passed`,
//! `failed`, `skipped` and `total` count, and every kind's `totals`. `check` writes an object
//! per case, the fields the book promises always there and the others only when they have a
//! value. `verify` writes an object per submission (every field there, `null` without a value),
//! one per package after its submissions, and its summary holds each package again; `mutants`
//! one per mutant, its summary the score and each case's kills; text from
//! packages and programs has its control characters escaped before it is encoded.

mod units;

use std::io::Write;

use serde_json::{json, Map, Value};

use super::contest::ContestTable;
use super::events::{Detail, Event, Finished, RunKind};
use super::findings::lines;
use super::listed::Listed;
use super::mutated::MutationTally;
use super::unit::{Tally, Unit, UnitId};
use super::{millis, LostReport, ReportError, Reporter, Summary, Timing};
use crate::discovery::LeftOut;
use crate::escape::{visible, visible_line};
use units::*;

/// The version of `verify`'s lines, in its summary: what `report merge` reads back. Raised when
/// a line loses a field or a field changes meaning (new fields do not raise it).
pub const VERIFY_SCHEMA: u64 = 1;

pub struct JsonReporter<W: Write> {
    out: W,
    /// The run, once started.
    kind: Option<RunKind>,
    /// The objects of the packages verified, for `verify`'s summary.
    packages: Vec<Value>,
    /// `verify`'s contest table, its line before the summary.
    contest: ContestTable,
    /// `mutants`' mutants so far, for its summary.
    mutants: MutationTally,
    cancelled: bool,
}

impl<W: Write> JsonReporter<W> {
    pub fn new(out: W) -> Self {
        JsonReporter {
            out,
            kind: None,
            packages: Vec::new(),
            contest: ContestTable::default(),
            mutants: MutationTally::default(),
            cancelled: false,
        }
    }

    fn emit(&mut self, value: Value) -> Result<(), LostReport> {
        self.out
            .write_all(line(&value).as_bytes())
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

/// A unit's name: its problem, the subject judged and its case (`null` where it has none).
fn id_object(id: &UnitId<'_>) -> Value {
    json!({
        "problem": clean(id.problem),
        "subject": id.subject.map(clean),
        "case": id.case.map(clean),
    })
}

/// A unit's line: what was found of it, its `id`, and `type` its kind.
fn unit_object(finished: &Finished<'_>) -> Value {
    let mut object = match finished.detail {
        Detail::Case(result) => case_object(result),
        Detail::Submission(row) => submission_object(row),
        Detail::Verified(outcome) => package_object(outcome),
        Detail::Input { input, finding } => input_object(&finished.id, input, finding),
        Detail::Validated(validation) => validation_object(validation),
        Detail::Generated(made) => generated_object(made),
        Detail::Timed(timing) => timed_object(timing),
        Detail::Tried(tried) => tried_object(&finished.id, &tried),
        Detail::Mutant(row) => mutant_object(row),
    };
    let fields = object.as_object_mut().expect("every unit is an object");
    fields.insert("type".into(), finished.detail.unit().name().into());
    fields.insert("id".into(), id_object(&finished.id));
    object
}

fn tally(tally: &Tally) -> Value {
    json!({
        "passed": tally.passed,
        "failed": tally.failed,
        "skipped": tally.skipped,
    })
}

/// The summary object: what every command's has, then what its command adds.
fn summary_object(
    summary: &Summary,
    kind: Option<&RunKind>,
    packages: &[Value],
    mutants: &MutationTally,
    cancelled: bool,
) -> Value {
    // Mutants are counted in `mutants`' summary alone: no other command makes them.
    let kinds = Unit::ALL
        .iter()
        .filter(|unit| **unit != Unit::Mutant || summary.unit == Unit::Mutant);
    let totals: Map<String, Value> = kinds
        .map(|unit| (unit.name().to_string(), tally(summary.totals.of(*unit))))
        .collect();
    let mut object = json!({
        "type": "summary",
        "command": summary.command,
        "unit": summary.unit.name(),
        "passed": summary.passed,
        "failed": summary.failed,
        "skipped": summary.skipped,
        "total": summary.total(),
        "totals": totals,
        "time_ms": millis(summary.wall_time),
        "cancelled": cancelled,
    });
    let fields = object.as_object_mut().expect("a JSON object literal");
    match kind {
        Some(RunKind::Verify { unreadable, .. }) => {
            fields.insert("judge_errors".into(), summary.judge_errors.into());
            fields.insert("left_out".into(), left_out(&summary.left_out));
            fields.insert("packages".into(), packages.into());
            // A plan's located errors follow its line, a line each: kept, as `report merge`
            // reads them back (only the other control characters are escaped).
            let said: Vec<String> = (unreadable.iter())
                .map(|u| visible(&u.to_string()).into_owned())
                .collect();
            fields.insert("unreadable".into(), said.into());
            let packages: Vec<String> = unreadable.iter().map(|u| clean(&u.package())).collect();
            fields.insert("unreadable_packages".into(), packages.into());
            fields.insert("schema".into(), VERIFY_SCHEMA.into());
            partition(summary, fields);
        }
        Some(RunKind::Validate { deliberate }) => {
            fields.insert("deliberate".into(), (*deliberate).into());
        }
        Some(RunKind::Timelimit { unreadable }) => {
            fields.insert("unreadable".into(), all(unreadable).into());
        }
        Some(RunKind::Stress(run)) => {
            fields.insert("seed".into(), seed(run.seed));
            fields.insert("against".into(), clean(&run.against).into());
            fields.insert("rerun".into(), clean(&run.rerun).into());
        }
        Some(RunKind::Mutants(run)) => {
            if let Value::Object(added) = mutation_summary(run, mutants) {
                fields.extend(added);
            }
        }
        Some(RunKind::Generate) => {}
        Some(RunKind::Check { .. }) | None => check_summary(summary, fields),
    }
    object
}

/// What `check`'s summary adds: the jobs, the timing lists, the cases left out, the peak
/// memory and the partition.
fn check_summary(summary: &Summary, fields: &mut Map<String, Value>) {
    fields.insert("jobs".into(), summary.jobs.into());
    fields.insert("slow".into(), timings(&summary.slow));
    fields.insert("left_out".into(), left_out(&summary.left_out));
    if let Some(bytes) = summary.peak_memory_bytes {
        fields.insert("peak_memory_bytes".into(), bytes.into());
    }
    partition(summary, fields);
    if !summary.slowest.is_empty() {
        fields.insert("slowest".into(), timings(&summary.slowest));
    }
}

/// The bucket judged and how many units the whole held (`check`'s cases, `verify`'s
/// submissions), when partitioned.
fn partition(summary: &Summary, fields: &mut Map<String, Value>) {
    if let Some((bucket, suite)) = &summary.partition {
        fields.insert("partition".into(), bucket.as_str().into());
        fields.insert("suite_total".into(), (*suite).into());
    }
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

/// What a program was not judged on, by reason; every summary that judges programs has it.
fn left_out(left_out: &LeftOut) -> Value {
    json!({
        "invalid": left_out.invalid,
        "beyond_original_limits": left_out.beyond_original_limits,
    })
}

pub(super) fn clean(text: &str) -> String {
    visible_line(text).into_owned()
}

/// Each of `found` as its line of text, made safe to show.
pub(super) fn all<T: std::fmt::Display>(found: &[T]) -> Vec<String> {
    lines(found).iter().map(|line| clean(line)).collect()
}

/// `value` as a line of JSON, safe to `cat`.
fn line(value: &Value) -> String {
    terminal_safe(&value.to_string()).into_owned() + "\n"
}

/// `list`'s report: a `problem` line per problem.
pub(super) fn listed(problems: &[Listed]) -> String {
    let object = |listed| {
        let mut object = listed_object(listed);
        object["type"] = "problem".into();
        line(&object)
    };
    problems.iter().map(object).collect()
}

/// `list --cases`'s report: a `case` line per case (`problem`, `id`), its `id` naming no
/// subject.
pub(super) fn listed_cases(cases: &[(&str, &str)]) -> String {
    let object = |(problem, id): &(&str, &str)| {
        let unit = UnitId::case(problem, None, id);
        line(&json!({
            "type": "case",
            "case": clean(id),
            "problem": clean(problem),
            "id": id_object(&unit),
        }))
    };
    cases.iter().map(object).collect()
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        let object = match event {
            Event::RunStarted(kind) => {
                self.kind = Some((*kind).clone());
                return Ok(());
            }
            Event::Finished(finished) => {
                let object = unit_object(finished);
                match finished.detail {
                    Detail::Verified(outcome) => {
                        self.contest.verified(outcome);
                        self.packages.push(package_object(outcome));
                    }
                    Detail::Submission(row) => self.contest.submission(row),
                    Detail::Mutant(row) => self.mutants.add(row),
                    _ => {}
                }
                object
            }
            Event::Counterexample(found) => match &self.kind {
                Some(RunKind::Stress(run)) => {
                    let mut object = counterexample_object(run, found);
                    let case = found.number.to_string();
                    let id = UnitId {
                        problem: &run.problem,
                        subject: Some(&run.subject),
                        case: Some(&case),
                    };
                    if let Value::Object(fields) = &mut object {
                        fields.insert("type".into(), "counterexample".into());
                        fields.insert("id".into(), id_object(&id));
                    }
                    object
                }
                _ => return Ok(()),
            },
            Event::Cancelled => {
                self.cancelled = true;
                return Ok(());
            }
            Event::RunFinished(summary) => {
                if self.contest.shown() {
                    let mut table = contest_object(&self.contest);
                    table["type"] = "contest".into();
                    self.emit(table)?;
                }
                let kind = self.kind.as_ref();
                summary_object(summary, kind, &self.packages, &self.mutants, self.cancelled)
            }
            Event::ProblemStarted(heading) => {
                self.contest.started(heading);
                let mut object = heading_object(heading);
                object["type"] = "heading".into();
                object
            }
            Event::CaseStarted(_) | Event::Generated(_) => return Ok(()),
        };
        Ok(self.emit(object)?)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::diffing;
    use crate::judging::{CaseResult, Verdict};
    use crate::reporting::tests::case;

    fn lines(results: &[CaseResult], summary: &Summary) -> Vec<Value> {
        let mut out = Vec::new();
        let mut reporter = JsonReporter::new(&mut out);
        for result in results {
            reporter.report(&Event::case(result, None)).unwrap();
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
