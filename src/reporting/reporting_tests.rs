use super::*;
use crate::discovery::Case;
use crate::files::beneath::TreePath;

pub(super) fn case(id: &str) -> Case {
    let (problem, _) = id.split_once('/').expect("PROBLEM/NAME");
    Case::fixture(
        id.into(),
        problem.into(),
        TreePath::in_memory(&format!("fixtures/{id}.in")),
        Some(TreePath::in_memory(&format!("fixtures/{id}.out"))),
    )
}

fn timing(id: &str, ms: u64, limit_ms: Option<u64>) -> Timing {
    Timing {
        case: id.into(),
        verdict: Verdict::AC,
        time: Duration::from_millis(ms),
        time_limit: limit_ms.map(Duration::from_millis),
    }
}

#[test]
fn a_broken_pipe_is_told_from_other_lost_reports() {
    use std::io::{Error, ErrorKind};
    let lost = |kind: ErrorKind| LostReport::from(Error::from(kind));
    assert!(lost(ErrorKind::BrokenPipe).is_broken_pipe());
    let full = lost(ErrorKind::StorageFull);
    assert!(!full.is_broken_pipe());
    // Also when it was the JUnit report that went to standard output.
    let junit = ReportError::Junit {
        path: PathBuf::from("/dev/stdout"),
        error: JunitError::Write(DestinationError::Stdout(lost(ErrorKind::BrokenPipe))),
    };
    assert!(junit.lost().is_some_and(LostReport::is_broken_pipe));
    assert!(full
        .to_string()
        .starts_with("cannot write the report to standard output: "));
}

#[test]
fn left_out_cases_are_said_with_the_way_to_judge_them() {
    assert!(left_out_lines(&LeftOut::default()).is_empty());
    let lines = left_out_lines(&LeftOut {
        invalid: 1,
        beyond_original_limits: 4,
    });
    assert_eq!(
        lines,
        [
            "4 cases beyond the original limits left out (--extended to judge them)",
            "1 deliberately invalid case left out (a filter naming an `invalid/` group \
                 judges them)"
        ]
    );
}

#[test]
fn slow_means_over_half_the_limit_and_not_tle() {
    let mut late = timing("p/late", 2100, Some(2000));
    late.verdict = Verdict::TLE;
    let timings = [
        timing("p/a", 1000, Some(2000)),
        timing("p/b", 1001, Some(2000)),
        timing("p/c", 1900, Some(2000)),
        timing("p/d", 5000, None),
        timing("q/e", 60, Some(100)),
        late,
    ];
    let slow: Vec<Timing> = timings.iter().filter(|t| is_slow(t)).cloned().collect();
    let slow: Vec<String> = slowest_first(slow).into_iter().map(|t| t.case).collect();
    assert_eq!(slow, ["p/c", "p/b", "q/e"]);
}

#[test]
fn the_slowest_list_stays_small_and_right_over_many_cases() {
    let all: Vec<Timing> = (0..1000u64)
        .map(|i| timing(&format!("p/{i:04}"), (i * 7919) % 613, None))
        .collect();
    let mut slowest = Slowest::new(3);
    for timing in &all {
        slowest.add(timing);
        assert!(slowest.kept.len() <= 2 * 16 + 1);
    }
    let mut sorted = slowest_first(all);
    sorted.truncate(3);
    assert_eq!(slowest_cases(&slowest.kept, 3), sorted);
}

#[test]
fn slowest_n_breaks_ties_by_case() {
    let timings = [
        timing("p/b", 7, None),
        timing("p/a", 7, None),
        timing("p/c", 9, None),
        timing("p/d", 1, None),
    ];
    let top: Vec<String> = slowest_cases(&timings, 3)
        .into_iter()
        .map(|t| t.case)
        .collect();
    assert_eq!(top, ["p/c", "p/a", "p/b"]);
    assert_eq!(slowest_cases(&timings, 10).len(), 4);
    assert!(slowest_cases(&timings, 0).is_empty());
}

/// Records what it is given, to check what the fan-out passes on.
struct Recorder(std::rc::Rc<std::cell::RefCell<Vec<String>>>);

impl Reporter for Recorder {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        let line = match event {
            Event::CaseStarted(case) => format!("start {}", case.id),
            Event::Finished(Finished {
                detail: Detail::Case(result),
                ..
            }) => format!("done {}", result.case.id),
            Event::RunFinished(summary) => {
                let slow: Vec<&str> = summary.slow.iter().map(|t| t.case.as_str()).collect();
                let slowest: Vec<&str> = summary.slowest.iter().map(|t| t.case.as_str()).collect();
                format!(
                    "finish slow={slow:?} slowest={slowest:?} peak={:?}",
                    summary.peak_memory_bytes
                )
            }
            other => format!("{other:?}"),
        };
        self.0.borrow_mut().push(line);
        Ok(())
    }
}

#[test]
fn the_fan_out_passes_every_event_on_and_fills_the_timing_lists() {
    let log = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let mut reports = Reports {
        sinks: vec![
            Box::new(Recorder(log.clone())),
            Box::new(Recorder(log.clone())),
        ],
        slow: Vec::new(),
        slowest: Some(Slowest::new(1)),
        time_limits: BTreeMap::new(),
        peak_memory_bytes: None,
    };
    // The time limits the slow-case list holds the runs against come with the run's start.
    let kind = RunKind::Check {
        cases: 3,
        time_limits: BTreeMap::from([("p".to_string(), Duration::from_millis(100))]),
    };
    reports.report(&Event::RunStarted(&kind)).unwrap();
    let (fast, slow) = (case("p/fast"), case("p/slow"));
    reports.report(&Event::CaseStarted(&fast)).unwrap();
    reports.report(&Event::CaseStarted(&slow)).unwrap();
    let mut result = CaseResult::new(fast, Verdict::AC, None);
    result.time = Duration::from_millis(3);
    result.peak_memory_bytes = Some(5 << 20);
    reports.report(&Event::case(&result, None)).unwrap();
    let mut result = CaseResult::new(slow, Verdict::AC, None);
    result.time = Duration::from_millis(90);
    reports.report(&Event::case(&result, None)).unwrap();
    let mut result = CaseResult::new(case("p/late"), Verdict::TLE, Some("stopped".into()));
    result.time = Duration::from_millis(100);
    reports.report(&Event::case(&result, None)).unwrap();
    reports
        .report(&Event::RunFinished(&Summary::default()))
        .unwrap();
    let log = log.borrow();
    let finish = r#"finish slow=["p/slow"] slowest=["p/late"] peak=Some(5242880)"#;
    assert_eq!(log.iter().filter(|l| *l == finish).count(), 2, "{log:#?}");
    assert_eq!(log.iter().filter(|l| l.starts_with("start")).count(), 4);
    assert_eq!(log.iter().filter(|l| l.starts_with("done")).count(), 6);
}
