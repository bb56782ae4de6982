use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::judging::Verdict;
use crate::model::{Fixed, How, MarginFacts, SlowestRun, TimeLimit};
use crate::package::languages::Python3;
use crate::package::limits::TimeRule;
use crate::package::yaml::Diagnostic;
use crate::reporting::events::{Event, Finished};
use crate::reporting::findings::{self, Fault, JudgingWarning, Unchecked};
use crate::reporting::reason::{Evidence, Kind, LimitRun, Reason};
use crate::reporting::unit::Unit;
use crate::reporting::verified::{CaseCell, Got, OutputJudge, RowScore, Validators};
use crate::reporting::{JsonReporter, Reporter, RunKind, Summary};

fn ms(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

fn computed() -> TimeLimit {
    TimeLimit {
        limit: Ok(ms(2000)),
        how: How::Computed {
            factor: 2.0,
            step: ms(1000),
            near_step: true,
            cached: false,
        },
    }
}

fn heading() -> ProblemHeading {
    ProblemHeading {
        name: "apple".into(),
        origin: "contest/apple".into(),
        warnings: vec![Diagnostic {
            file: PathBuf::from("contest/apple/problem.yaml"),
            line: 3,
            column: 1,
            message: "unknown key `x`".into(),
        }],
        build: "3 program(s)".into(),
        validation: "ok".into(),
        time_limit: computed(),
        submissions: vec![("accepted/a.py".into(), "Python 3".into())],
        label: Some("A".into()),
        groups: vec![("secret".into(), 2)],
        validators: Validators {
            input: 1,
            answer: 0,
            output: OutputJudge::Custom,
        },
    }
}

fn row() -> SubmissionRow {
    SubmissionRow {
        problem: "apple".into(),
        submission: "wrong_answer/w.py".into(),
        language: "Python 3".into(),
        tool: Some("pypy3: Python 3.9".into()),
        verdict: Some(Got::Verdict(Verdict::TLE)),
        expected: "permitted AC, WA; required WA".into(),
        expected_short: "WA".into(),
        expected_verdicts: vec!["WA".into()],
        ok: Some(false),
        slowest: Some(("secret/2".into(), ms(2100))),
        caught_by: vec![("secret/2".into(), Verdict::TLE, Some("stopped".into()))],
        unexpected: Some("got TLE".into()),
        runs: vec![
            CaseCell {
                case: "secret/1".into(),
                verdict: Some(Verdict::AC),
                time: ms(900),
                message: None,
                detail: None,
            },
            CaseCell {
                case: "secret/2".into(),
                verdict: Some(Verdict::TLE),
                time: ms(2100),
                message: Some("stopped".into()),
                detail: Some("stderr:\nstill thinking".into()),
            },
            CaseCell {
                case: "secret/3".into(),
                verdict: None,
                time: Duration::ZERO,
                message: None,
                detail: None,
            },
        ],
        skipped: None,
        compile_error: None,
        judge_error: None,
        score: Some(RowScore {
            total: 50.0,
            max: Some(100.0),
            groups: vec![("secret".into(), 50.0, Some(100.0))],
            lower_best: None,
        }),
        reason: Some(Reason {
            kind: Kind::Interpreter,
            own: true,
            evidence: Evidence {
                case: Some("secret/2".into()),
                verdict: Some(Verdict::TLE),
                cpu: Some(ms(2100)),
                wall: Some(ms(2200)),
                peak_memory_bytes: Some(1 << 20),
                message: None,
                time_limit: Some(computed()),
                limit_from: Some(LimitRun {
                    submission: "accepted/a.py".into(),
                    case: "secret/1".into(),
                    time: ms(900),
                    tool: None,
                    cpython: true,
                }),
                tool: Some("python3".into()),
                interpreter: Some(Python3::CPython),
            },
        }),
    }
}

fn outcome() -> ProblemOutcome {
    ProblemOutcome {
        name: "apple".into(),
        origin: "contest/apple".into(),
        warnings: heading().warnings,
        judging_warnings: vec![JudgingWarning::CloseCall {
            submission: "accepted/a.py".into(),
            case: "secret/1".into(),
            time: ms(1900),
            verdict: Verdict::AC,
            limit: ms(2000),
        }],
        errors: vec![Fault::InvalidAccepted("invalid/1".into())],
        unchecked: vec![Unchecked::Scoring("custom".into())],
        judge_errors: vec![],
        time_limit: computed(),
        margins: None,
    }
}

/// The JSON lines of a `verify` run of `heading`, `rows` and [`outcome`], with `summary`.
fn report(rows: &[SubmissionRow], summary: &Summary) -> Vec<u8> {
    report_of(rows, summary, &outcome())
}

/// The JSON lines of a `verify` run of `heading`, `rows` and `outcome`, with `summary`.
fn report_of(rows: &[SubmissionRow], summary: &Summary, outcome: &ProblemOutcome) -> Vec<u8> {
    let mut out = Vec::new();
    let mut reporter = JsonReporter::new(&mut out);
    let kind = RunKind::Verify {
        unreadable: vec![],
        explain: false,
    };
    reporter.report(&Event::RunStarted(&kind)).unwrap();
    reporter.report(&Event::ProblemStarted(&heading())).unwrap();
    for row in rows {
        reporter
            .report(&Event::Finished(Finished::submission(row)))
            .unwrap();
    }
    reporter
        .report(&Event::Finished(Finished::verified(outcome)))
        .unwrap();
    reporter.report(&Event::RunFinished(summary)).unwrap();
    drop(reporter);
    out
}

fn verify_summary(partition: Option<&str>) -> Summary {
    Summary {
        command: "verify",
        unit: Unit::Submission,
        partition: partition.map(|p| (p.to_string(), 1)),
        ..Summary::default()
    }
}

/// `text` written as `name` in `folder`, and read back as a shard.
fn read(folder: &tempfile::TempDir, name: &str, text: &[u8]) -> Result<Shard, MergeError> {
    let path = folder.path().join(name);
    std::fs::write(&path, text).unwrap();
    shard(&path)
}

#[test]
fn a_report_reads_back_into_what_it_was_written_from() {
    let folder = tempfile::tempdir().unwrap();
    let text = report(&[row()], &verify_summary(None));
    let merged = merge(vec![read(&folder, "one.json", &text).unwrap()]).unwrap();
    let package = &merged.packages[0];
    // The typed payloads come back whole (findings as their lines).
    assert_eq!(format!("{:?}", package.heading), format!("{:?}", heading()));
    assert_eq!(format!("{:?}", package.rows), format!("{:?}", [row()]));
    let expected = outcome();
    let back = &package.outcome;
    assert_eq!(back.time_limit, expected.time_limit);
    assert_eq!(back.warnings, expected.warnings);
    assert_eq!(
        findings::lines(&back.errors),
        findings::lines(&expected.errors)
    );
    assert_eq!(
        findings::lines(&back.unchecked),
        findings::lines(&expected.unchecked)
    );
    assert_eq!(
        findings::lines(&back.judging_warnings),
        findings::lines(&expected.judging_warnings)
    );
    assert_eq!(back.status(), expected.status());
}

#[test]
fn every_fixed_source_reads_back() {
    for source in [
        Fixed::Flag,
        Fixed::Runner,
        Fixed::Package("problem.yaml"),
        Fixed::Package(".timelimit"),
        Fixed::Package("domjudge-problem.ini"),
    ] {
        assert_eq!(Fixed::named(&source.to_string()), Some(source));
    }
    assert_eq!(Fixed::named("elsewhere"), None);
}

#[test]
fn buckets_must_be_one_partition_each_once() {
    let folder = tempfile::tempdir().unwrap();
    let bucket = |name: &str, partition: &str| {
        let text = report(&[], &verify_summary(Some(partition)));
        read(&folder, name, &text).unwrap()
    };
    let said = |shards: Vec<Shard>| merge(shards).err().map(|e| e.to_string());
    let one = || bucket("a.json", "hash:1/3");
    let three = || bucket("c.json", "hash:3/3");
    assert_eq!(
        said(vec![one(), three()]).unwrap(),
        "bucket hash:2/3 is missing: no shard given holds it; add its report"
    );
    assert!(said(vec![one(), bucket("b.json", "slice:2/3"), three()])
        .unwrap()
        .contains("not the buckets of one partition"));
    assert!(said(vec![one(), one()])
        .unwrap()
        .contains("both bucket hash:1/3"));
    let whole = read(&folder, "w.json", &report(&[], &verify_summary(None))).unwrap();
    assert!(said(vec![whole, one()]).unwrap().contains("is a whole run"));
}

#[test]
fn a_shard_is_refused_at_the_line_that_is_wrong() {
    let folder = tempfile::tempdir().unwrap();
    let text = String::from_utf8(report(&[row()], &verify_summary(None))).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let error = |name: &str, text: String| read(&folder, name, text.as_bytes()).err().unwrap();
    let cut = lines[..3].join("\n") + "\n";
    assert!(error("cut.json", cut)
        .to_string()
        .ends_with("cut.json:4: truncated: the report ends without its summary line (the run was killed, or its output cut short); run its shard again"));
    let swapped = [lines[1], lines[0], lines[2], lines[3]].join("\n");
    assert!(error("swapped.json", swapped)
        .to_string()
        .contains("swapped.json:1: a `submission` line outside"));
    let other = text.replace("\"command\":\"verify\"", "\"command\":\"timelimit\"");
    let said = error("other.json", other).to_string();
    let last = lines.len();
    assert!(
        said.contains(&format!("other.json:{last}: a report of `timelimit`")),
        "{said}"
    );
    let old = text.replace("\"schema\":1,", "");
    let said = error("old.json", old).to_string();
    assert!(
        said.contains(&format!("old.json:{last}: no schema")),
        "{said}"
    );
    // A run of a submission line that is none: refused at that line.
    assert_eq!(text.matches("\"verdict\":null").count(), 1, "{text}");
    let bad_run = text.replace("\"verdict\":null", "\"verdict\":\"MAYBE\"");
    let said = error("run.json", bad_run).to_string();
    assert!(said.contains("run.json:2: not a line of verify"), "{said}");
    let case = "{\"type\":\"case\"}\n".to_string();
    assert!(error("case.json", case)
        .to_string()
        .contains("case.json:1: a `case` line"));
}

/// A package's time-limit findings come back as the facts they were computed from, and are
/// computed from them again where one run puts them: the error last, the warning first.
#[test]
fn margins_read_back_as_their_facts() {
    let run = |submission: &str, time, computes_the_limit| SlowestRun {
        submission: submission.into(),
        time,
        computes_the_limit,
    };
    let facts = MarginFacts {
        rule: TimeRule {
            time_limit: None,
            ac_to_time_limit: 2.0,
            time_limit_to_tle: 1.5,
            time_resolution: ms(1000),
        },
        slowest_accepted: Some(ms(900)),
        fastest_tle: Some(run("time_limit_exceeded/t.py", ms(2500), false)),
        slowest_lower: Some(run("accepted/a.py", ms(1100), true)),
    };
    let (error, thin) = findings::margin_findings(&facts, ms(2000));
    let mut written = outcome();
    written.errors.extend(error);
    written
        .judging_warnings
        .insert(0, thin.expect("1.1 s × 2 is over 2 s"));
    written.margins = Some(facts.clone());
    let folder = tempfile::tempdir().unwrap();
    let text = report_of(&[row()], &verify_summary(None), &written);
    let merged = merge(vec![read(&folder, "one.json", &text).unwrap()]).unwrap();
    let back = &merged.packages[0].outcome;
    assert_eq!(back.margins, Some(facts));
    assert!(matches!(back.errors.last(), Some(Fault::Margins(_))));
    assert!(matches!(
        back.judging_warnings.first(),
        Some(JudgingWarning::ThinMargin(_))
    ));
    assert_eq!(
        findings::lines(&back.errors),
        findings::lines(&written.errors)
    );
    assert_eq!(
        findings::lines(&back.judging_warnings),
        findings::lines(&written.judging_warnings)
    );
    // A multiplier no package can give is refused where it is read, as any bad field.
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("\"time_limit_to_tle\":1.5"), "{text}");
    let absurd = text.replace("\"time_limit_to_tle\":1.5", "\"time_limit_to_tle\":-1e300");
    let said = read(&folder, "absurd.json", absurd.as_bytes())
        .err()
        .unwrap()
        .to_string();
    assert!(
        said.contains("margins.rule.time_limit_to_tle") && said.contains("a number from 1 to 100"),
        "{said}"
    );
}
