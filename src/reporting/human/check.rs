//! `check`'s human view: a block per failed case (every case under `-v`) as its turn in sorted
//! order comes, then a per-problem table, the slow cases and the final lines.

use std::collections::BTreeMap;

use super::{plural, verdict_style, Look, Verbosity, BAD, GOOD, NOTE};
use crate::escape::visible_line;
use crate::judging::CaseResult;
use crate::reporting::{left_out_lines, mebibytes, millis, Summary, Timing};
use crate::running::Clock;

/// Lines of a failed program's stderr (and of its stdout, when it ended by itself) shown under
/// its failure.
const STDERR_LINES: usize = 20;

#[derive(Default)]
pub(super) struct CheckView {
    /// Per problem: cases judged and cases failed.
    problems: BTreeMap<String, (usize, usize)>,
}

impl CheckView {
    /// What is printed of a judged case: nothing for a passing one but under `-v`.
    pub(super) fn case_finished(&mut self, result: &CaseResult, look: &Look) -> String {
        let entry = self
            .problems
            .entry(result.case.problem.clone())
            .or_default();
        entry.0 += 1;
        entry.1 += usize::from(!result.verdict.passed());
        // Files written are always listed: `-q` quiets the status, not what was changed on disk.
        if look.verbosity == Verbosity::Quiet && result.blessed.is_none() {
            return String::new();
        }
        if let Some(path) = &result.blessed {
            let tag = look.paint(anstyle::AnsiColor::Cyan.on_default(), "BLESS");
            format!(
                "{tag} {} wrote {}\n",
                visible_line(&result.case.id),
                visible_line(&path.display().to_string())
            )
        } else if !result.verdict.passed() {
            failure(result, look)
        } else if look.verbosity == Verbosity::Verbose {
            let verdict = look.paint(verdict_style(result.verdict), "AC   ");
            format!(
                "PASS {verdict} {} ({})\n",
                visible_line(&result.case.id),
                time_and_memory(result)
            )
        } else {
            String::new()
        }
    }

    /// The per-problem table, the timing lists and the final lines.
    pub(super) fn finish(&self, summary: &Summary, cancelled: bool, look: &Look) -> String {
        let mut text = String::new();
        if look.verbosity > Verbosity::Quiet {
            text += &self.problem_table(look);
            if !summary.slow.is_empty() {
                text += &timing_list("Slow cases (over half the time limit):", &summary.slow);
            }
            if !summary.slowest.is_empty() {
                let count = summary.slowest.len();
                let heading = format!("Slowest {count} {}:", plural(count, "case"));
                text += &timing_list(&heading, &summary.slowest);
            }
        }
        text += &judged_line(summary);
        text += "\n";
        for line in left_out_lines(&summary.left_out) {
            text += &format!("{}\n", look.paint(NOTE, &line));
        }
        if cancelled {
            text += &format!(
                "Cancelled (Ctrl-C): {} {} not judged.\n",
                summary.skipped,
                plural(summary.skipped, "case")
            );
        }
        text += &summary.closing_line();
        text += "\n";
        text
    }

    fn problem_table(&self, look: &Look) -> String {
        let width = self.problems.keys().map(String::len).max().unwrap_or(0);
        let mut text = String::new();
        for (problem, (judged, failed)) in &self.problems {
            let state = if *failed == 0 {
                look.paint(GOOD, "all passed")
            } else {
                look.paint(BAD, &format!("{failed} failed"))
            };
            let cases = plural(*judged, "case");
            text += &format!("  {problem:<width$}  {judged:>5} {cases:<5}  {state}\n");
        }
        text
    }
}

/// A failed case's block: its line, the message, the diff, the exchange, the input (its path,
/// and itself when small), the start of stdout of a run that ended by itself, and the stderr.
fn failure(result: &CaseResult, look: &Look) -> String {
    let verdict = look.paint(
        verdict_style(result.verdict),
        // Padded as a string: the verdict's own Display ignores width.
        &format!("{:<5}", result.verdict.to_string()),
    );
    let mut text = format!(
        "FAIL {verdict} {} ({}, {})\n",
        visible_line(&result.case.id),
        time_and_memory(result),
        result.verdict.meaning()
    );
    if let Some(message) = &result.message {
        text += &format!("      {message}\n");
    }
    if let Some(diff) = &result.diff {
        text += &diff.render(&look.diff(), "      ");
    }
    if let Some(exchange) = &result.exchange {
        text += "      exchange (> to the program, < from it):\n";
        text += &quoted(exchange, usize::MAX);
    }
    let input = visible_line(&result.case.input.path().display().to_string()).into_owned();
    match &result.input {
        Some(whole) => {
            text += &format!("      input {input}:\n");
            text += &quoted(whole, usize::MAX);
        }
        None => text += &format!("      input {input}\n"),
    }
    if let Some(stdout) = &result.stdout {
        text += "      stdout, before it ended:\n";
        text += &quoted(stdout, STDERR_LINES);
    }
    if let Some(stderr) = &result.stderr {
        text += "      stderr:\n";
        text += &quoted(stderr, STDERR_LINES);
    }
    text
}

/// The first `lines` lines of `text`, each as `      | line`.
fn quoted(text: &str, lines: usize) -> String {
    text.lines()
        .take(lines)
        .map(|line| format!("      | {line}\n"))
        .collect()
}

/// `12.345 ms`, or `12.345 ms, 3.1 MiB` when the peak memory was measured; the wall time too
/// when it is what stopped the run.
fn time_and_memory(result: &CaseResult) -> String {
    let mut text = match result.stopped_by {
        Some(Clock::Wall) => format!("{:.3} ms wall", millis(result.wall)),
        _ => format!("{:.3} ms", millis(result.time)),
    };
    if let Some(bytes) = result.peak_memory_bytes {
        text += &format!(", {}", mebibytes(bytes));
    }
    text
}

/// A heading and one line per case: its time, its limit when it has one, its id and verdict.
fn timing_list(heading: &str, timings: &[Timing]) -> String {
    let mut text = format!("{heading}\n");
    for timing in timings {
        let limit = timing
            .time_limit
            .map(|limit| format!(" of {} ms", limit.as_millis()))
            .unwrap_or_default();
        text += &format!(
            "  {:>10} ms{limit}  {} {}\n",
            format!("{:.3}", millis(timing.time)),
            visible_line(&timing.case),
            timing.verdict
        );
    }
    text
}

/// `Judged N cases in T with J jobs`, then the peak memory and the partition bucket when known.
fn judged_line(summary: &Summary) -> String {
    let mut line = format!(
        "Judged {} {} in {:.2}s with {} {}",
        summary.judged(),
        plural(summary.judged(), "case"),
        summary.wall_time.as_secs_f64(),
        summary.jobs,
        plural(summary.jobs, "job")
    );
    if let Some(bytes) = summary.peak_memory_bytes {
        line += &format!("; peak memory {}", mebibytes(bytes));
    }
    if let Some((bucket, suite)) = &summary.partition {
        line += &format!(
            "; bucket {bucket} held {} of the suite's {suite} {}",
            summary.total(),
            plural(*suite, "case")
        );
    }
    line + "."
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::diffing;
    use crate::judging::Verdict;
    use crate::reporting::tests::case;
    use crate::reporting::{Event, HumanReporter, Reporter};

    fn results() -> Vec<CaseResult> {
        let mut pass = CaseResult::new(case("p/a"), Verdict::AC, None);
        pass.time = Duration::from_micros(1500);
        pass.peak_memory_bytes = Some(3 << 20);
        let mut wrong = CaseResult::new(
            case("p/b"),
            Verdict::WA,
            Some("line 1: expected `Kiki`".into()),
        );
        wrong.diff = diffing::diff(b"Kiki\n", b"Cici\n");
        let mut crash = CaseResult::new(
            case("q/c"),
            Verdict::RE,
            Some("exited with status 3".into()),
        );
        crash.stderr = Some("boom\n".into());
        vec![pass, wrong, crash]
    }

    fn summary() -> Summary {
        Summary {
            passed: 1,
            failed: 2,
            wall_time: Duration::from_millis(250),
            jobs: 2,
            ..Summary::default()
        }
    }

    fn render(verbosity: Verbosity, summary: &Summary) -> String {
        let mut out = Vec::new();
        let mut reporter = HumanReporter::new(&mut out, false, verbosity, 100);
        for result in results() {
            reporter.report(&Event::case(&result, None)).unwrap();
        }
        reporter.report(&Event::RunFinished(summary)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn quiet_prints_only_the_final_lines() {
        let text = render(Verbosity::Quiet, &summary());
        assert_eq!(
            text,
            "Judged 3 cases in 0.25s with 2 jobs.\n1 passed, 2 failed\n"
        );
    }

    #[test]
    fn normal_prints_failures_with_diff_and_stderr_then_the_summary() {
        let text = render(Verbosity::Normal, &summary());
        assert!(!text.contains("PASS"), "{text}");
        assert!(
            text.contains(
                "FAIL WA    p/b (0.000 ms, wrong answer)\n      line 1: expected `Kiki`\n"
            ),
            "{text}"
        );
        assert!(text.contains("│-Kiki"), "{text}");
        assert!(text.contains("      | boom\n"), "{text}");
        assert!(
            text.contains("  p      2 cases  1 failed\n  q      1 case   1 failed\n"),
            "{text}"
        );
        assert!(
            text.ends_with("Judged 3 cases in 0.25s with 2 jobs.\n1 passed, 2 failed\n"),
            "{text}"
        );
        assert!(!text.contains('\u{1b}'), "no color when not asked");
    }

    #[test]
    fn verbose_adds_passing_cases_with_time_and_memory_and_nothing_else() {
        let normal = render(Verbosity::Normal, &summary());
        let verbose = render(Verbosity::Verbose, &summary());
        let pass = "PASS AC    p/a (1.500 ms, 3.0 MiB)\n";
        assert!(verbose.starts_with(pass), "{verbose}");
        assert_eq!(verbose.replacen(pass, "", 1), normal);
    }

    #[test]
    fn the_summary_names_the_bucket_slow_cases_and_peak_memory() {
        let slow = Timing {
            case: "p/b".into(),
            verdict: Verdict::WA,
            time: Duration::from_millis(1500),
            time_limit: Some(Duration::from_millis(2000)),
        };
        let summary = Summary {
            partition: Some(("hash:2/3".into(), 10)),
            peak_memory_bytes: Some(3 << 20),
            slow: vec![slow.clone()],
            slowest: vec![slow],
            ..summary()
        };
        let text = render(Verbosity::Normal, &summary);
        assert!(
            text.contains(
                "Slow cases (over half the time limit):\n    1500.000 ms of 2000 ms  p/b WA\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("Slowest 1 case:\n    1500.000 ms of 2000 ms  p/b WA\n"),
            "{text}"
        );
        assert!(text.contains(
            "Judged 3 cases in 0.25s with 2 jobs; peak memory 3.0 MiB; bucket hash:2/3 held 3 of \
             the suite's 10 cases.\n1 passed, 2 failed\n"
        ), "{text}");
        let quiet = render(Verbosity::Quiet, &summary);
        assert!(!quiet.contains("Slow"), "{quiet}");
        assert!(quiet.contains("bucket hash:2/3"), "{quiet}");
    }

    #[test]
    fn a_failure_shows_its_input_and_what_a_crash_printed_first() {
        let mut out = Vec::new();
        let mut reporter = HumanReporter::new(&mut out, false, Verbosity::Normal, 100);
        let mut crash = CaseResult::new(case("p/c"), Verdict::RE, Some("killed".into()));
        crash.input = Some("3\n1 2\n".into());
        crash.stdout = Some("Kiki\n".into());
        crash.stderr = Some("boom\n".into());
        reporter.report(&Event::case(&crash, None)).unwrap();
        let big = CaseResult::new(case("p/d"), Verdict::WA, None);
        reporter.report(&Event::case(&big, None)).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "FAIL RE    p/c (0.000 ms, runtime error)\n      killed\n      input fixtures/p/c.in:\n      \
             | 3\n      | 1 2\n      stdout, before it ended:\n      | Kiki\n      stderr:\n      \
             | boom\nFAIL WA    p/d (0.000 ms, wrong answer)\n      input fixtures/p/d.in\n"
        );
    }

    #[test]
    fn blessed_cases_say_what_was_written() {
        let mut out = Vec::new();
        let mut reporter = HumanReporter::new(&mut out, false, Verbosity::Normal, 100);
        let mut result = CaseResult::new(case("p/a"), Verdict::AC, None);
        result.blessed = Some(PathBuf::from("fixtures/p/a.out"));
        reporter.report(&Event::case(&result, None)).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "BLESS p/a wrote fixtures/p/a.out\n"
        );
    }
}
